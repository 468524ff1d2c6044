/*
 * plugin.h - the plugin descriptor and the declaration macro.
 *
 * A plugin is one loadable module (a .so file) that exports exactly one
 * function returning a const descriptor. With libltdl the function is named
 * <module>_LTX_smfw_plugin_entry, where <module> is the file name without its
 * extension (smfw_reporter_csv.so -> smfw_reporter_csv), so several plugins
 * can also be linked into one static program (dlpreopen) without clashing.
 *
 *     static const smfw_reporter_ops hello_ops = { sizeof hello_ops, hello_create, ... };
 *     static const smfw_setting_decl hello_settings[] = { ..., SMFW_SETTINGS_END };
 *     SMFW_PLUGIN_DEFINE(smfw_reporter_hello, SMFW_PLUGIN_REPORTER, "hello", "1.0.0",
 *                        "Prints one line per metric", hello_settings, &hello_ops)
 *
 * The descriptor and the ops table are const and shared (the plugin's type);
 * an instance is an opaque pointer made by the ops' create/open slot.
 */
#ifndef SMFW_PLUGIN_H
#define SMFW_PLUGIN_H

#include <smfw/config.h>
#include <smfw/smfw.h>

#ifdef __cplusplus
extern "C" {
#endif

/** Plugin kinds. */
typedef enum smfw_plugin_kind {
    SMFW_PLUGIN_BACKEND = 1,
    SMFW_PLUGIN_DATASET = 2,
    SMFW_PLUGIN_REPORTER = 3,
    SMFW_PLUGIN_COMMAND = 4 /**< subcommands of the program (smfw/command.h); ABI 1.1 */
} smfw_plugin_kind;

/** What the entry function returns. */
typedef struct smfw_plugin_descriptor {
    uint32_t abi_major; /**< SMFW_ABI_MAJOR the plugin was built against */
    uint32_t abi_minor; /**< SMFW_ABI_MINOR the plugin was built against */
    smfw_plugin_kind kind;
    const char *name;        /**< unique within its kind: [a-z0-9_-]+ */
    const char *version;     /**< the plugin's own version string */
    const char *description; /**< one line */
    const smfw_setting_decl *
        settings; /**< keys of section "<kind>.<name>", SMFW_SETTINGS_END-terminated; may be NULL */
    const void *ops; /**< smfw_backend_ops / smfw_dataset_ops / smfw_reporter_ops /
                        smfw_command_ops */
} smfw_plugin_descriptor;

/** Type of the entry function. */
typedef const smfw_plugin_descriptor *(*smfw_plugin_entry_fn)(void);

/** Symbol name the loader looks up (libltdl adds the <module>_LTX_ prefix). */
#define SMFW_PLUGIN_ENTRY_SYMBOL "smfw_plugin_entry"

#if defined(__GNUC__)
#define SMFW_PLUGIN_EXPORT __attribute__((visibility("default")))
#else
#define SMFW_PLUGIN_EXPORT
#endif

/**
 * Define the descriptor and the exported entry function of a module.
 * `module` must be the module file name without extension.
 */
#define SMFW_PLUGIN_DEFINE(module, kind_, name_, version_, description_, settings_, ops_)          \
    static const smfw_plugin_descriptor module##_descriptor = {                                    \
        SMFW_ABI_MAJOR, SMFW_ABI_MINOR, kind_, name_, version_, description_, settings_, ops_};    \
    SMFW_PLUGIN_EXPORT const smfw_plugin_descriptor *module##_LTX_smfw_plugin_entry(void);         \
    SMFW_PLUGIN_EXPORT const smfw_plugin_descriptor *module##_LTX_smfw_plugin_entry(void) {        \
        return &module##_descriptor;                                                               \
    }

/** Name of a kind ("backend", "dataset", "reporter", "command"). */
SMFW_API const char *smfw_plugin_kind_name(smfw_plugin_kind kind);

/**
 * True when an ops table of the given size has the slot at `offset`, e.g.
 * SMFW_OPS_HAS(ops, smfw_backend_ops, control). The core checks this before
 * calling any slot added after ABI 1.0.
 */
#define SMFW_OPS_HAS(ops, type, slot)                                                              \
    ((ops)->size >= offsetof(type, slot) + sizeof(((type *)0)->slot) && (ops)->slot != NULL)

#ifdef __cplusplus
}
#endif
#endif /* SMFW_PLUGIN_H */
