/*
 * config.c - the settings store: declared sections and keys, typed values,
 * precedence (flag > env > file > default) and provenance of every value.
 */
#include <ctype.h>
#include <errno.h>
#include <ini.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include <smfw/app.h>
#include <smfw/config.h>
#include <smfw/log.h>

#include "settings_aliases.h"
#include "settings_check.h"

typedef struct config_value {
    char *value; /* effective text, NULL = unset */
    smfw_setting_source source;
    char *origin; /* file name, variable or flag */
    int line;
    char **items; /* LIST: split items, NULL-terminated */
    size_t n_items;
} config_value;

struct smfw_settings {
    smfw_config *config;
    char *name;
    const smfw_setting_decl *decls;
    size_t n_decls;
    config_value *values; /* parallel to decls */
};

struct smfw_config {
    smfw_settings **sections;
    size_t n_sections;
};

const char *smfw_setting_source_name(smfw_setting_source source) {
    switch (source) {
    case SMFW_SOURCE_DEFAULT:
        return "default";
    case SMFW_SOURCE_FILE:
        return "file";
    case SMFW_SOURCE_ENV:
        return "env";
    case SMFW_SOURCE_FLAG:
        return "flag";
    }
    return "?";
}

int smfw_parse_duration(const char *text, double *seconds) {
    if (!text || !*text) return -1;
    errno = 0;
    char *end = NULL;
    double v = strtod(text, &end);
    if (errno || end == text || !isfinite(v) || v < 0) return -1;
    while (*end == ' ') end++;
    double mult = 1.0;
    if (*end == '\0' || strcmp(end, "s") == 0 || strcmp(end, "sec") == 0)
        mult = 1.0;
    else if (strcmp(end, "ms") == 0)
        mult = 1e-3;
    else if (strcmp(end, "us") == 0)
        mult = 1e-6;
    else if (strcmp(end, "m") == 0 || strcmp(end, "min") == 0)
        mult = 60.0;
    else if (strcmp(end, "h") == 0)
        mult = 3600.0;
    else if (strcmp(end, "inf") == 0)
        return -1;
    else
        return -1;
    if (seconds) *seconds = v * mult;
    return 0;
}

static int parse_bool(const char *t, int *out) {
    static const char *yes[] = {"1", "true", "yes", "on"};
    static const char *no[] = {"0", "false", "no", "off"};
    for (size_t i = 0; i < 4; i++) {
        if (strcasecmp(t, yes[i]) == 0) {
            *out = 1;
            return 0;
        }
        if (strcasecmp(t, no[i]) == 0) {
            *out = 0;
            return 0;
        }
    }
    return -1;
}

static int parse_int(const char *t, int64_t *out) {
    errno = 0;
    char *end = NULL;
    long long v = strtoll(t, &end, 10);
    if (errno || end == t) return -1;
    while (*end == ' ') end++;
    if (*end) return -1;
    *out = v;
    return 0;
}

static int parse_double(const char *t, double *out) {
    errno = 0;
    char *end = NULL;
    double v = strtod(t, &end);
    if (errno || end == t || !isfinite(v)) return -1;
    while (*end == ' ') end++;
    if (*end) return -1;
    *out = v;
    return 0;
}

static const char *type_name(smfw_setting_type t) {
    switch (t) {
    case SMFW_SETTING_STRING:
        return "a string";
    case SMFW_SETTING_INT:
        return "an integer";
    case SMFW_SETTING_DOUBLE:
        return "a number";
    case SMFW_SETTING_BOOL:
        return "true or false";
    case SMFW_SETTING_SECRET:
        return "a secret string";
    case SMFW_SETTING_LIST:
        return "a comma-separated list";
    case SMFW_SETTING_DURATION:
        return "a duration such as 90s, 500ms, 20m or 2h";
    case SMFW_SETTING_PATH:
        return "a path";
    }
    return "a value";
}

static int value_valid(smfw_setting_type type, const char *v) {
    int b;
    int64_t i;
    double d;
    switch (type) {
    case SMFW_SETTING_INT:
        return parse_int(v, &i) == 0;
    case SMFW_SETTING_DOUBLE:
        return parse_double(v, &d) == 0;
    case SMFW_SETTING_BOOL:
        return parse_bool(v, &b) == 0;
    case SMFW_SETTING_DURATION:
        return smfw_parse_duration(v, &d) == 0;
    default:
        return 1;
    }
}

static void value_free(config_value *cv) {
    free(cv->value);
    free(cv->origin);
    if (cv->items)
        for (size_t i = 0; i < cv->n_items; i++) free(cv->items[i]);
    free(cv->items);
    memset(cv, 0, sizeof *cv);
}

static char *trim_dup(const char *s, size_t n) {
    while (n && isspace((unsigned char)*s)) s++, n--;
    while (n && isspace((unsigned char)s[n - 1])) n--;
    return strndup(s, n);
}

static smfw_status split_items(config_value *cv) {
    if (cv->items)
        for (size_t i = 0; i < cv->n_items; i++) free(cv->items[i]);
    free(cv->items);
    cv->items = NULL;
    cv->n_items = 0;
    if (!cv->value || !*cv->value) return SMFW_OK;
    size_t cap = 1;
    for (const char *p = cv->value; *p; p++)
        if (*p == ',') cap++;
    cv->items = calloc(cap + 1, sizeof *cv->items);
    if (!cv->items) return SMFW_ERR_NOMEM;
    const char *start = cv->value;
    for (const char *p = cv->value;; p++) {
        if (*p == ',' || *p == '\0') {
            char *item = trim_dup(start, (size_t)(p - start));
            if (item && *item)
                cv->items[cv->n_items++] = item;
            else
                free(item);
            if (*p == '\0') break;
            start = p + 1;
        }
    }
    return SMFW_OK;
}

static char *expand_path(const char *v) {
    if (v[0] == '~' && (v[1] == '/' || v[1] == '\0')) {
        const char *home = getenv("HOME");
        if (home) {
            size_t n = strlen(home) + strlen(v);
            char *out = malloc(n + 1);
            if (out) snprintf(out, n + 1, "%s%s", home, v + 1);
            return out;
        }
    }
    return strdup(v);
}

static smfw_settings *section_add(smfw_config *cfg, const char *name,
                                  const smfw_setting_decl *decls) {
    smfw_settings **grown = realloc(cfg->sections, (cfg->n_sections + 1) * sizeof *grown);
    if (!grown) return NULL;
    cfg->sections = grown;
    smfw_settings *s = calloc(1, sizeof *s);
    if (!s) return NULL;
    s->config = cfg;
    s->name = strdup(name);
    s->decls = decls;
    if (decls)
        while (decls[s->n_decls].key) s->n_decls++;
    s->values = calloc(s->n_decls ? s->n_decls : 1, sizeof *s->values);
    if (!s->name || !s->values) {
        free(s->name);
        free(s->values);
        free(s);
        return NULL;
    }
    for (size_t i = 0; i < s->n_decls; i++) {
        config_value *cv = &s->values[i];
        if (decls[i].default_value) {
            cv->value = decls[i].type == SMFW_SETTING_PATH ? expand_path(decls[i].default_value)
                                                           : strdup(decls[i].default_value);
            cv->source = SMFW_SOURCE_DEFAULT;
            if (decls[i].type == SMFW_SETTING_LIST) split_items(cv);
        }
    }
    cfg->sections[cfg->n_sections++] = s;
    return s;
}

smfw_status smfw_config_new(const smfw_registry *reg, smfw_config **out, smfw_error *err) {
    *out = NULL;
    smfw_config *cfg = calloc(1, sizeof *cfg);
    if (!cfg) return smfw_error_set(err, SMFW_ERR_NOMEM, "out of memory");
    for (const smfw_section_decl *sd = smfw_core_sections(); sd->name; sd++) {
        if (!section_add(cfg, sd->name, sd->settings)) {
            smfw_config_free(cfg);
            return smfw_error_set(err, SMFW_ERR_NOMEM, "out of memory");
        }
    }
    size_t n = reg ? smfw_registry_count(reg) : 0;
    for (size_t i = 0; i < n; i++) {
        const smfw_plugin_descriptor *d = smfw_registry_at(reg, i)->desc;
        char name[160];
        snprintf(name, sizeof name, "%s.%s", smfw_plugin_kind_name(d->kind), d->name);
        if (!section_add(cfg, name, d->settings)) {
            smfw_config_free(cfg);
            return smfw_error_set(err, SMFW_ERR_NOMEM, "out of memory");
        }
    }
    *out = cfg;
    return SMFW_OK;
}

void smfw_config_free(smfw_config *cfg) {
    if (!cfg) return;
    for (size_t i = 0; i < cfg->n_sections; i++) {
        smfw_settings *s = cfg->sections[i];
        for (size_t k = 0; k < s->n_decls; k++) value_free(&s->values[k]);
        free(s->values);
        free(s->name);
        free(s);
    }
    free(cfg->sections);
    free(cfg);
}

static smfw_settings *find_section(const smfw_config *cfg, const char *name) {
    if (!cfg || !name) return NULL;
    for (size_t i = 0; i < cfg->n_sections; i++)
        if (strcmp(cfg->sections[i]->name, name) == 0) return cfg->sections[i];
    return NULL;
}

static int find_key(const smfw_settings *s, const char *key) {
    if (!s || !key) return -1;
    for (size_t i = 0; i < s->n_decls; i++)
        if (strcmp(s->decls[i].key, key) == 0) return (int)i;
    return -1;
}

const smfw_settings *smfw_config_section(const smfw_config *config, const char *section) {
    return find_section(config, section);
}

const smfw_config *smfw_settings_config(const smfw_settings *settings) {
    return settings ? settings->config : NULL;
}

const char *smfw_settings_name(const smfw_settings *settings) {
    return settings ? settings->name : NULL;
}

const char *smfw_settings_get(const smfw_settings *s, const char *key) {
    int i = find_key(s, key);
    return i < 0 ? NULL : s->values[i].value;
}

const smfw_setting_decl *smfw_settings_decl(const smfw_settings *s, const char *key) {
    int i = find_key(s, key);
    return i < 0 ? NULL : &s->decls[i];
}

int smfw_settings_has(const smfw_settings *s, const char *key) {
    return smfw_settings_get(s, key) != NULL;
}

int64_t smfw_settings_get_int(const smfw_settings *s, const char *key, int64_t fallback) {
    const char *v = smfw_settings_get(s, key);
    int64_t out;
    return v && parse_int(v, &out) == 0 ? out : fallback;
}

double smfw_settings_get_double(const smfw_settings *s, const char *key, double fallback) {
    const char *v = smfw_settings_get(s, key);
    double out;
    return v && parse_double(v, &out) == 0 ? out : fallback;
}

int smfw_settings_get_bool(const smfw_settings *s, const char *key, int fallback) {
    const char *v = smfw_settings_get(s, key);
    int out;
    return v && parse_bool(v, &out) == 0 ? out : fallback;
}

double smfw_settings_get_duration(const smfw_settings *s, const char *key, double fallback) {
    const char *v = smfw_settings_get(s, key);
    double out;
    return v && smfw_parse_duration(v, &out) == 0 ? out : fallback;
}

size_t smfw_settings_get_list(const smfw_settings *s, const char *key, const char *const **items) {
    int i = find_key(s, key);
    if (i < 0 || !s->values[i].items) {
        if (items) *items = NULL;
        return 0;
    }
    if (items) *items = (const char *const *)s->values[i].items;
    return s->values[i].n_items;
}

smfw_setting_source smfw_settings_source(const smfw_settings *s, const char *key, const char **file,
                                         int *line) {
    int i = find_key(s, key);
    if (i < 0) return SMFW_SOURCE_DEFAULT;
    if (file) *file = s->values[i].origin;
    if (line) *line = s->values[i].line;
    return s->values[i].source;
}

smfw_status smfw_config_set(smfw_config *cfg, const char *section, const char *key,
                            const char *value, smfw_setting_source source, const char *origin,
                            int line, smfw_error *err) {
    char where[1200];
    if (source == SMFW_SOURCE_FILE)
        snprintf(where, sizeof where, "%s:%d: ", origin ? origin : "?", line);
    else if (source == SMFW_SOURCE_ENV)
        snprintf(where, sizeof where, "environment variable %s: ", origin ? origin : "?");
    else if (source == SMFW_SOURCE_FLAG)
        snprintf(where, sizeof where, "option %s: ", origin ? origin : "?");
    else
        where[0] = '\0';
    smfw_settings *s = find_section(cfg, section);
    if (!s)
        return smfw_error_set(err, SMFW_ERR_CONFIG,
                              "%sunknown section [%s] (no core section or loaded plugin has "
                              "that name; see `smfw plugins` and conf/smfw.conf)",
                              where, section);
    int i = find_key(s, key);
    if (i < 0)
        return smfw_error_set(err, SMFW_ERR_CONFIG,
                              "%sunknown key \"%s\" in section [%s] (see `smfw config` for the "
                              "keys of each section)",
                              where, key, section);
    const smfw_setting_decl *d = &s->decls[i];
    if (!value) value = "";
    /* "key =" with nothing after it (the template's empty defaults) leaves the default. */
    if (!*value && d->type != SMFW_SETTING_STRING && d->type != SMFW_SETTING_LIST &&
        d->type != SMFW_SETTING_SECRET && d->type != SMFW_SETTING_PATH)
        return SMFW_OK;
    if (!value_valid(d->type, value))
        return smfw_error_set(err, SMFW_ERR_CONFIG, "%s[%s] %s: \"%s\" is not %s", where, section,
                              key, d->type == SMFW_SETTING_SECRET ? "****" : value,
                              type_name(d->type));
    settings_note_secrets(section, key, value);
    char why[768];
    if (settings_check_value(section, key, value, why, sizeof why) != 0)
        return smfw_error_set(err, SMFW_ERR_CONFIG, "%s[%s] %s: %s", where, section, key, why);
    config_value *cv = &s->values[i];
    if (cv->source > source) return SMFW_OK; /* a higher-precedence value is already set */
    char *nv;
    /* A list given twice adds up: repeated flags (-H a -H b), or lines of one file. */
    int same_file = source == SMFW_SOURCE_FILE && origin && cv->origin &&
                    strcmp(origin, cv->origin) == 0 && d->help && strstr(d->help, "repeatable");
    if (d->type == SMFW_SETTING_LIST && cv->source == source &&
        (source == SMFW_SOURCE_FLAG || same_file) && cv->value && *cv->value) {
        size_t n = strlen(cv->value) + strlen(value) + 2;
        nv = malloc(n);
        if (nv) snprintf(nv, n, "%s,%s", cv->value, value);
    } else if (d->type == SMFW_SETTING_PATH) {
        nv = expand_path(value);
    } else {
        nv = strdup(value);
    }
    if (!nv) return smfw_error_set(err, SMFW_ERR_NOMEM, "out of memory");
    free(cv->value);
    free(cv->origin);
    cv->value = nv;
    cv->origin = origin ? strdup(origin) : NULL;
    cv->line = line;
    cv->source = source;
    if (d->type == SMFW_SETTING_LIST && split_items(cv) != SMFW_OK)
        return smfw_error_set(err, SMFW_ERR_NOMEM, "out of memory");
    if (d->type == SMFW_SETTING_SECRET) smfw_secret_register(nv);
    return SMFW_OK;
}

smfw_status smfw_config_override(smfw_config *cfg, const char *section, const char *key,
                                 const char *value, const char *origin, smfw_error *err) {
    smfw_settings *s = find_section(cfg, section);
    int i = find_key(s, key);
    if (i >= 0) {
        /* Forget the current value's source so the new one neither loses to it nor
         * appends to it; smfw_config_set validates and records it. */
        config_value saved = s->values[i];
        s->values[i].source = SMFW_SOURCE_DEFAULT;
        s->values[i].value = NULL;
        s->values[i].origin = NULL;
        s->values[i].items = NULL;
        s->values[i].n_items = 0;
        smfw_status st =
            smfw_config_set(cfg, section, key, value, SMFW_SOURCE_FLAG, origin, 0, err);
        if (st != SMFW_OK) {
            value_free(&s->values[i]);
            s->values[i] = saved;
            return st;
        }
        value_free(&saved);
        return SMFW_OK;
    }
    return smfw_config_set(cfg, section, key, value, SMFW_SOURCE_FLAG, origin, 0, err);
}

/* ---- INI file -------------------------------------------------------------- */

typedef struct ini_seen {
    char *section, *key;
    int line;
} ini_seen;

typedef struct ini_state {
    smfw_config *cfg;
    const char *path;
    FILE *fp;
    int line;
    smfw_error *err;
    int failed;
    ini_seen *seen; /* keys this file set, to refuse a second value for one */
    size_t n_seen, cap_seen;
} ini_state;

/* The line that already set [section] key in this file, or 0; remembers this one. */
static int ini_seen_before(ini_state *st, const char *section, const char *key) {
    for (size_t i = 0; i < st->n_seen; i++)
        if (strcmp(st->seen[i].section, section) == 0 && strcmp(st->seen[i].key, key) == 0)
            return st->seen[i].line;
    if (st->n_seen == st->cap_seen) {
        size_t cap = st->cap_seen ? st->cap_seen * 2 : 32;
        ini_seen *g = realloc(st->seen, cap * sizeof *g);
        if (!g) return 0;
        st->seen = g;
        st->cap_seen = cap;
    }
    ini_seen *e = &st->seen[st->n_seen];
    e->section = strdup(section);
    e->key = strdup(key);
    e->line = st->line;
    if (e->section && e->key) {
        st->n_seen++;
    } else {
        free(e->section);
        free(e->key);
    }
    return 0;
}

/* "key = 5 # why": a '#' after white space starts a comment, as ';' does. */
static void strip_inline_comment(char *v) {
    for (char *p = v; *p; p++) {
        if (*p == '#' && p > v && (p[-1] == ' ' || p[-1] == '\t')) {
            *p = '\0';
            size_t n = strlen(v);
            while (n && (v[n - 1] == ' ' || v[n - 1] == '\t')) v[--n] = '\0';
            return;
        }
    }
}

/* Custom reader so the handler knows the current line number. */
static char *config_line_reader(char *str, int num, void *stream) {
    ini_state *st = stream;
    char *r = fgets(str, num, st->fp);
    if (r) st->line++;
    return r;
}

static int config_ini_handler(void *user, const char *section, const char *name,
                              const char *value) {
    ini_state *st = user;
    if (st->failed) return 1;
    if (!name) return 1; /* section header only (inih with INI_CALL_HANDLER_ON_NEW_SECTION) */
    if (!section || !*section) {
        smfw_error_set(st->err, SMFW_ERR_CONFIG,
                       "%s:%d: key \"%s\" is outside any [section] (put it under [smfw], "
                       "[run], [aws], [dataset] or a plugin's section)",
                       st->path, st->line, name);
        st->failed = 1;
        return 1;
    }
    char *v = strdup(value ? value : "");
    if (!v) {
        smfw_error_set(st->err, SMFW_ERR_NOMEM, "out of memory");
        st->failed = 1;
        return 1;
    }
    strip_inline_comment(v);
    if (find_key(find_section(st->cfg, section), name) < 0) {
        /* An old name still loads (the new one where its plugin is loaded), with a warning. */
        const smfw_setting_alias *a = settings_alias_find(section, name);
        if (a && find_key(find_section(st->cfg, a->section), a->key) >= 0) {
            SMFW_LOG_WARN(NULL,
                          "%s:%d: [%s] %s is the old name of [%s] %s; it still works, but "
                          "rename it (docs/guide.md, Renamed settings)",
                          st->path, st->line, section, name, a->section, a->key);
            section = a->section;
            name = a->key;
        }
    }
    int before = ini_seen_before(st, section, name);
    const smfw_settings *sec = find_section(st->cfg, section);
    int k = find_key(sec, name);
    /* Keys documented as repeatable (-H, --extra-inputs...) add up over lines. */
    int repeatable = k >= 0 && sec->decls[k].type == SMFW_SETTING_LIST && sec->decls[k].help &&
                     strstr(sec->decls[k].help, "repeatable");
    if (before && !repeatable) {
        /* Last-wins would hide one of the two; a list key's lines add up instead. */
        smfw_error_set(st->err, SMFW_ERR_CONFIG,
                       "%s:%d: [%s] %s is set again (first on line %d); keep one of the two",
                       st->path, st->line, section, name, before);
        st->failed = 1;
    } else if (smfw_config_set(st->cfg, section, name, v, SMFW_SOURCE_FILE, st->path, st->line,
                               st->err) != SMFW_OK) {
        st->failed = 1;
    }
    free(v);
    return 1;
}

smfw_status smfw_config_load_file(smfw_config *cfg, const char *path, smfw_error *err) {
    FILE *fp = fopen(path, "r");
    if (!fp)
        return smfw_error_set(err, SMFW_ERR_CONFIG, "cannot read config file %s: %s", path,
                              strerror(errno));
    ini_state st = {cfg, path, fp, 0, err, 0, NULL, 0, 0};
    int rc = ini_parse_stream((ini_reader)config_line_reader, &st, config_ini_handler, &st);
    fclose(fp);
    for (size_t i = 0; i < st.n_seen; i++) {
        free(st.seen[i].section);
        free(st.seen[i].key);
    }
    free(st.seen);
    if (st.failed) return err ? err->status : SMFW_ERR_CONFIG;
    if (rc != 0)
        return smfw_error_set(err, SMFW_ERR_CONFIG,
                              "%s:%d: syntax error (expected \"[section]\", \"key = value\" or "
                              "a # comment)",
                              path, rc);
    return SMFW_OK;
}

int smfw_config_default_file(char *buf, size_t size) {
    struct stat st;
    if (stat("smfw.conf", &st) == 0 && S_ISREG(st.st_mode)) {
        snprintf(buf, size, "smfw.conf");
        return 1;
    }
    const char *xdg = getenv("XDG_CONFIG_HOME");
    const char *home = getenv("HOME");
    if (xdg && *xdg)
        snprintf(buf, size, "%s/smfw/smfw.conf", xdg);
    else if (home)
        snprintf(buf, size, "%s/.config/smfw/smfw.conf", home);
    else
        return 0;
    return stat(buf, &st) == 0 && S_ISREG(st.st_mode);
}

smfw_status smfw_config_apply_env(smfw_config *cfg, smfw_error *err) {
    for (size_t i = 0; i < cfg->n_sections; i++) {
        smfw_settings *s = cfg->sections[i];
        for (size_t k = 0; k < s->n_decls; k++) {
            const char *env = s->decls[k].env;
            if (!env) continue;
            const char *v = getenv(env);
            if (!v || !*v) continue;
            smfw_status st =
                smfw_config_set(cfg, s->name, s->decls[k].key, v, SMFW_SOURCE_ENV, env, 0, err);
            if (st != SMFW_OK) return st;
        }
    }
    return SMFW_OK;
}

const smfw_setting_decl *smfw_config_find_flag(const smfw_config *cfg, const char *flag,
                                               const char **section) {
    for (size_t i = 0; i < cfg->n_sections; i++) {
        smfw_settings *s = cfg->sections[i];
        for (size_t k = 0; k < s->n_decls; k++) {
            if (s->decls[k].flag && strcmp(s->decls[k].flag, flag) == 0) {
                if (section) *section = s->name;
                return &s->decls[k];
            }
        }
    }
    return NULL;
}

const smfw_setting_decl *smfw_config_find_short(const smfw_config *cfg, char letter,
                                                const char **section) {
    for (size_t i = 0; i < cfg->n_sections; i++) {
        smfw_settings *s = cfg->sections[i];
        for (size_t k = 0; k < s->n_decls; k++) {
            if (s->decls[k].short_flag == letter) {
                if (section) *section = s->name;
                return &s->decls[k];
            }
        }
    }
    return NULL;
}

size_t smfw_config_section_count(const smfw_config *cfg) {
    return cfg ? cfg->n_sections : 0;
}

const char *smfw_config_section_name(const smfw_config *cfg, size_t i) {
    return i < cfg->n_sections ? cfg->sections[i]->name : NULL;
}

const smfw_setting_decl *smfw_config_section_decls(const smfw_config *cfg, size_t i) {
    return i < cfg->n_sections ? cfg->sections[i]->decls : NULL;
}

void smfw_config_dump(const smfw_config *cfg, FILE *out, int only_changed) {
    for (size_t i = 0; i < cfg->n_sections; i++) {
        smfw_settings *s = cfg->sections[i];
        int header = 0;
        for (size_t k = 0; k < s->n_decls; k++) {
            config_value *cv = &s->values[k];
            if (only_changed && cv->source == SMFW_SOURCE_DEFAULT) continue;
            if (!header) {
                fprintf(out, "[%s]\n", s->name);
                header = 1;
            }
            const char *v = cv->value ? cv->value : "";
            if (s->decls[k].type == SMFW_SETTING_SECRET && cv->value) v = "****";
            char headers[2048];
            if (strcmp(s->decls[k].key, "header") == 0 && cv->n_items) {
                /* Header values may be credentials whatever their name: names only. */
                size_t l = 0;
                headers[0] = '\0';
                for (size_t h = 0; h < cv->n_items && l < sizeof headers; h++)
                    l += (size_t)snprintf(headers + l, sizeof headers - l, "%s%.*s: ****",
                                          h ? ", " : "", (int)strcspn(cv->items[h], ":"),
                                          cv->items[h]);
                v = headers;
            }
            char shown_url[2048];
            if (strcmp(s->decls[k].key, "url") == 0 && cv->value)
                v = smfw_url_redact(shown_url, sizeof shown_url, cv->value);
            char where[1400];
            switch (cv->source) {
            case SMFW_SOURCE_FILE:
                snprintf(where, sizeof where, "file %s:%d", cv->origin ? cv->origin : "?",
                         cv->line);
                break;
            case SMFW_SOURCE_ENV:
                snprintf(where, sizeof where, "env %s", cv->origin ? cv->origin : "?");
                break;
            case SMFW_SOURCE_FLAG:
                snprintf(where, sizeof where, "flag %s", cv->origin ? cv->origin : "?");
                break;
            default:
                snprintf(where, sizeof where, "default");
                break;
            }
            char line[4096];
            snprintf(line, sizeof line, "%s = %s", s->decls[k].key, v);
            char masked[4096];
            smfw_secret_mask(masked, sizeof masked, line);
            fprintf(out, "%-48s # %s\n", masked, where);
        }
        if (header) fputc('\n', out);
    }
}
