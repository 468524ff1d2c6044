/*
 * config.h - declared settings and the read-only settings view plugins get.
 *
 * Settings are INI keys grouped in sections. The core owns the sections
 * "smfw" (program), "run" (the workload shared by every backend), "aws" and
 * "dataset" (options common to every dataset plugin); each plugin owns the
 * section "<kind>.<name>" (e.g. "backend.direct", "reporter.csv").
 *
 * Every key is declared (smfw_setting_decl) with its type, default and help.
 * The core parses the config file, the environment and the command line,
 * rejects unknown keys and bad values with file, line and key, and gives each
 * plugin a view of the effective values. Precedence, highest first: command
 * line flag > environment variable > config file > declared default.
 */
#ifndef SMFW_CONFIG_H
#define SMFW_CONFIG_H

#include <smfw/smfw.h>

#ifdef __cplusplus
extern "C" {
#endif

/** Value types. Every value is stored as text and validated against its type. */
typedef enum smfw_setting_type {
    SMFW_SETTING_STRING = 0,
    SMFW_SETTING_INT = 1,      /**< 64-bit signed integer */
    SMFW_SETTING_DOUBLE = 2,   /**< floating point number */
    SMFW_SETTING_BOOL = 3,     /**< true/false, yes/no, on/off, 1/0 */
    SMFW_SETTING_SECRET = 4,   /**< a string that is masked everywhere it is shown */
    SMFW_SETTING_LIST = 5,     /**< comma-separated strings; a repeated flag appends */
    SMFW_SETTING_DURATION = 6, /**< seconds; accepts suffixes ms, s, m, h ("90s", "20m") */
    SMFW_SETTING_PATH = 7      /**< a file system path ("~/" expanded) */
} smfw_setting_type;

/** Where an effective value came from. */
typedef enum smfw_setting_source {
    SMFW_SOURCE_DEFAULT = 0,
    SMFW_SOURCE_FILE = 1,
    SMFW_SOURCE_ENV = 2,
    SMFW_SOURCE_FLAG = 3
} smfw_setting_source;

/**
 * One declared key. Arrays of declarations end with an entry whose key is
 * NULL (use SMFW_SETTINGS_END).
 */
typedef struct smfw_setting_decl {
    const char *key; /**< INI key, lower_snake_case */
    smfw_setting_type type;
    const char *default_value; /**< textual default, NULL = unset */
    const char *help;          /**< one line, shown in --help and conf/smfw.conf */
    const char *flag;          /**< long option without "--" (e.g. "concurrency"), or NULL */
    const char *env;           /**< environment variable, or NULL */
    char short_flag;           /**< single-letter option, or 0 */
    const char *metavar;       /**< placeholder in --help ("N", "FILE"), or NULL */
} smfw_setting_decl;

#define SMFW_SETTINGS_END                                                                          \
    { NULL, SMFW_SETTING_STRING, NULL, NULL, NULL, NULL, 0, NULL }

/** All effective settings of a run (every section). Owned by the core. */
typedef struct smfw_config smfw_config;

/** Read-only view of one section. Valid for the life of the run. */
typedef struct smfw_settings smfw_settings;

/** The view of `section` ("run", "aws", "backend.direct"...), or NULL if unknown. */
SMFW_API const smfw_settings *smfw_config_section(const smfw_config *config, const char *section);

/** The configuration a settings view belongs to (to reach other sections). */
SMFW_API const smfw_config *smfw_settings_config(const smfw_settings *settings);

/** The section name of a view. */
SMFW_API const char *smfw_settings_name(const smfw_settings *settings);

/** Effective value as text, or NULL when unset. Secrets are returned in clear. */
SMFW_API const char *smfw_settings_get(const smfw_settings *settings, const char *key);

/** True when the key has a value (set anywhere or defaulted). */
SMFW_API int smfw_settings_has(const smfw_settings *settings, const char *key);

/** Typed getters; `fallback` is returned when the key is unset. Values were validated at load. */
SMFW_API int64_t smfw_settings_get_int(const smfw_settings *settings, const char *key,
                                       int64_t fallback);
SMFW_API double smfw_settings_get_double(const smfw_settings *settings, const char *key,
                                         double fallback);
SMFW_API int smfw_settings_get_bool(const smfw_settings *settings, const char *key, int fallback);
/** Duration in seconds (suffixes ms, s, m, h). */
SMFW_API double smfw_settings_get_duration(const smfw_settings *settings, const char *key,
                                           double fallback);

/**
 * List value split on commas (and accumulated over repeated flags): returns
 * the number of items and stores a pointer to an array of strings owned by the
 * view in *items (NULL when empty).
 */
SMFW_API size_t smfw_settings_get_list(const smfw_settings *settings, const char *key,
                                       const char *const **items);

/** Where the effective value came from, and (for files) which file and line. */
SMFW_API smfw_setting_source smfw_settings_source(const smfw_settings *settings, const char *key,
                                                  const char **file, int *line);

/** Human name of a source ("default", "file", "env", "flag"). */
SMFW_API const char *smfw_setting_source_name(smfw_setting_source source);

/** The declaration of `key` in a view (its type, default, help), or NULL when undeclared. */
SMFW_API const smfw_setting_decl *smfw_settings_decl(const smfw_settings *settings,
                                                     const char *key);

/**
 * Settings bound to a plugin's own options struct by declaration (as fluent-bit's config
 * map): each entry names a declared key and the field it fills, by offsetof(). The value
 * is the effective one (flag > env > file > declared default), so a default lives in the
 * declaration alone and is never restated in code.
 */
typedef enum smfw_bind_type {
    SMFW_BIND_STRING = 0,   /**< char *: a malloc'd copy; NULL when unset or empty (STRING,
                                 SECRET, PATH; a SECRET is also registered for masking) */
    SMFW_BIND_INT64 = 1,    /**< int64_t (INT) */
    SMFW_BIND_INT = 2,      /**< int (INT; a value outside int's range is refused) */
    SMFW_BIND_DOUBLE = 3,   /**< double (DOUBLE) */
    SMFW_BIND_DURATION = 4, /**< double, seconds (DURATION) */
    SMFW_BIND_BOOL = 5,     /**< int, 0 or 1 (BOOL) */
    SMFW_BIND_LIST = 6      /**< char **: malloc'd copies of the items (LIST), with their
                                 number in the size_t at count_offset; NULL and 0 when empty */
} smfw_bind_type;

/** One bound key. Arrays end with SMFW_BINDINGS_END. */
typedef struct smfw_setting_binding {
    const char *section; /**< NULL: the view given to smfw_settings_bind(); else another
                              section of the same configuration ("run", "aws", "dataset") */
    const char *key;
    smfw_bind_type type;
    size_t offset;       /**< offsetof() the field */
    size_t count_offset; /**< SMFW_BIND_LIST: offsetof() the size_t count */
} smfw_setting_binding;

#define SMFW_BINDINGS_END                                                                          \
    { NULL, NULL, SMFW_BIND_STRING, 0, 0 }

/**
 * Fill the fields of `out` named by `map` from `settings` (and the other sections of its
 * configuration). A key that is not declared, or whose declared type does not suit the
 * binding's C type, is a bug in the plugin: SMFW_ERR_INTERNAL naming section and key (a
 * unit test binding the plugin's map catches it). Strings and lists are owned by `out`:
 * release them with smfw_settings_unbind(). On error what was bound so far stays bound.
 */
SMFW_API smfw_status smfw_settings_bind(const smfw_settings *settings,
                                        const smfw_setting_binding *map, void *out,
                                        smfw_error *err);

/** Free the strings and lists `map` bound into `out` and zero those fields. */
SMFW_API void smfw_settings_unbind(const smfw_setting_binding *map, void *out);

/**
 * Parse a duration ("250ms", "90s", "20m", "2h", "1.5") into seconds.
 * Returns 0 on success, -1 on bad text.
 */
SMFW_API int smfw_parse_duration(const char *text, double *seconds);

#ifdef __cplusplus
}
#endif
#endif /* SMFW_CONFIG_H */
