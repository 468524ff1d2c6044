/*
 * registry.c - finds and loads plugin modules with libltdl, checks their ABI
 * and required slots, and refuses bad ones with a sentence that says why.
 */
#include <dirent.h>
#include <dlfcn.h>
#include <errno.h>
#include <ltdl.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include <smfw/app.h>
#include <smfw/log.h>

#include "self_location.h"

typedef struct registry_item {
    smfw_plugin_entry entry;
    lt_dlhandle handle; /* NULL for static plugins */
    char *path;
} registry_item;

struct smfw_registry {
    registry_item *items;
    size_t n, cap;
    char **refused;
    size_t n_refused;
};

/* libltdl keeps one process-wide handle list and is not thread-safe: every
 * lt_* call and the count of live registries (lt_dlinit/lt_dlexit) are under
 * ltdl_lock, so registries may be loaded and freed from several threads. */
static pthread_mutex_t ltdl_lock = PTHREAD_MUTEX_INITIALIZER;
static int ltdl_users;

const char *smfw_plugin_kind_name(smfw_plugin_kind kind) {
    switch (kind) {
    case SMFW_PLUGIN_BACKEND:
        return "backend";
    case SMFW_PLUGIN_DATASET:
        return "dataset";
    case SMFW_PLUGIN_REPORTER:
        return "reporter";
    case SMFW_PLUGIN_COMMAND:
        return "command";
    }
    return "unknown";
}

static void add_refusal(smfw_registry *reg, const char *msg) {
    char **grown = realloc(reg->refused, (reg->n_refused + 1) * sizeof *grown);
    if (!grown) return;
    reg->refused = grown;
    reg->refused[reg->n_refused] = strdup(msg);
    if (reg->refused[reg->n_refused]) reg->n_refused++;
}

static int valid_name(const char *name) {
    if (!name || !*name || strlen(name) > 48) return 0;
    for (const char *p = name; *p; p++)
        if (!((*p >= 'a' && *p <= 'z') || (*p >= '0' && *p <= '9') || *p == '_' || *p == '-'))
            return 0;
    return 1;
}

/* Command and option names are typed on the command line: [a-z0-9-], not starting with '-'. */
static int valid_word(const char *name) {
    if (!name || !*name || *name == '-' || strlen(name) > 48) return 0;
    for (const char *p = name; *p; p++)
        if (!((*p >= 'a' && *p <= 'z') || (*p >= '0' && *p <= '9') || *p == '-')) return 0;
    return 1;
}

/* What is wrong with a command plugin's table of commands, into buf; NULL when nothing. */
static const char *bad_commands(const smfw_command_ops *o, char *buf, size_t size) {
    if (o->size < offsetof(smfw_command_ops, commands) + sizeof o->commands)
        return "its ops table is smaller than the ABI's required slots";
    if (!o->commands || !o->commands[0]) return "command slot commands is NULL or empty";
    for (size_t i = 0; o->commands[i]; i++) {
        const smfw_command_def *c = o->commands[i];
        if (c->size < offsetof(smfw_command_def, main) + sizeof c->main) {
            snprintf(buf, size, "its command #%zu is smaller than the ABI's required fields",
                     i + 1);
            return buf;
        }
        if (!valid_word(c->name)) {
            snprintf(buf, size, "its command #%zu has a name that is empty or not [a-z0-9-]",
                     i + 1);
            return buf;
        }
        if (!c->summary || !c->usage || !c->main) {
            snprintf(buf, size, "its command \"%s\" has a NULL summary, usage or main", c->name);
            return buf;
        }
        for (size_t j = 0; j < i; j++)
            if (strcmp(o->commands[j]->name, c->name) == 0) {
                snprintf(buf, size, "it lists the command \"%s\" twice", c->name);
                return buf;
            }
        for (size_t k = 0; c->options && c->options[k].name; k++)
            if (!valid_word(c->options[k].name) || !c->options[k].help) {
                snprintf(buf, size,
                         "option #%zu of its command \"%s\" has no help or a name not [a-z0-9-]",
                         k + 1, c->name);
                return buf;
            }
    }
    return NULL;
}

/* The slots every plugin of a kind must fill, checked against the table's own size. */
static const char *missing_slot(const smfw_plugin_descriptor *d, char *buf, size_t size) {
    switch (d->kind) {
    case SMFW_PLUGIN_BACKEND: {
        const smfw_backend_ops *o = d->ops;
        if (o->size < offsetof(smfw_backend_ops, destroy) + sizeof o->destroy)
            return "its ops table is smaller than the ABI's required slots";
        if (!o->create) return "backend slot create is NULL";
        if (!o->run) return "backend slot run is NULL";
        if (!o->destroy) return "backend slot destroy is NULL";
        return NULL;
    }
    case SMFW_PLUGIN_DATASET: {
        const smfw_dataset_ops *o = d->ops;
        if (o->size < offsetof(smfw_dataset_ops, close) + sizeof o->close)
            return "its ops table is smaller than the ABI's required slots";
        if (!o->open) return "dataset slot open is NULL";
        if (!o->next) return "dataset slot next is NULL";
        if (!o->info) return "dataset slot info is NULL";
        if (!o->close) return "dataset slot close is NULL";
        return NULL;
    }
    case SMFW_PLUGIN_REPORTER: {
        const smfw_reporter_ops *o = d->ops;
        if (o->size < offsetof(smfw_reporter_ops, destroy) + sizeof o->destroy)
            return "its ops table is smaller than the ABI's required slots";
        if (!o->create) return "reporter slot create is NULL";
        if (!o->write) return "reporter slot write is NULL";
        if (!o->destroy) return "reporter slot destroy is NULL";
        return NULL;
    }
    case SMFW_PLUGIN_COMMAND:
        return bad_commands(d->ops, buf, size);
    }
    return "its kind is unknown";
}

/* Returns NULL when the descriptor is acceptable, else the reason. */
static const char *check_descriptor(const smfw_plugin_descriptor *d, char *buf, size_t size) {
    if (!d) return "its entry function returned NULL";
    if (d->abi_major != SMFW_ABI_MAJOR) {
        snprintf(buf, size,
                 "it was built for plugin ABI %u.%u but this smfw provides ABI %d.%d (rebuild "
                 "the plugin against smfw %s)",
                 d->abi_major, d->abi_minor, SMFW_ABI_MAJOR, SMFW_ABI_MINOR, SMFW_VERSION_STRING);
        return buf;
    }
    if (d->abi_minor > SMFW_ABI_MINOR) {
        snprintf(buf, size,
                 "it needs plugin ABI %u.%u, newer than this smfw's %d.%d (upgrade smfw)",
                 d->abi_major, d->abi_minor, SMFW_ABI_MAJOR, SMFW_ABI_MINOR);
        return buf;
    }
    if (d->kind != SMFW_PLUGIN_BACKEND && d->kind != SMFW_PLUGIN_DATASET &&
        d->kind != SMFW_PLUGIN_REPORTER && d->kind != SMFW_PLUGIN_COMMAND) {
        snprintf(buf, size, "its kind %d is not backend, dataset, reporter or command",
                 (int)d->kind);
        return buf;
    }
    if (!valid_name(d->name)) return "its name is empty or not [a-z0-9_-]";
    if (!d->version || !d->description) return "its version or description is NULL";
    if (!d->ops) return "its ops table is NULL";
    char slot_buf[400];
    const char *slot = missing_slot(d, slot_buf, sizeof slot_buf);
    if (slot) {
        snprintf(buf, size, "%s", slot);
        return buf;
    }
    for (size_t i = 0; d->settings && d->settings[i].key; i++) {
        if (!d->settings[i].help) {
            snprintf(buf, size, "setting \"%s\" has no help text", d->settings[i].key);
            return buf;
        }
    }
    return NULL;
}

/* A command of `d` that a loaded plugin already provides, with that plugin; NULL if none. */
static const char *taken_command(const smfw_registry *reg, const smfw_plugin_descriptor *d,
                                 const smfw_plugin_entry **owner) {
    if (d->kind != SMFW_PLUGIN_COMMAND) return NULL;
    const smfw_command_ops *o = d->ops;
    for (size_t i = 0; o->commands[i]; i++)
        if (smfw_registry_find_command(reg, o->commands[i]->name, owner))
            return o->commands[i]->name;
    return NULL;
}

static smfw_status registry_push(smfw_registry *reg, const smfw_plugin_descriptor *d, lt_dlhandle h,
                                 const char *path) {
    if (reg->n == reg->cap) {
        size_t cap = reg->cap ? reg->cap * 2 : 16;
        registry_item *grown = realloc(reg->items, cap * sizeof *grown);
        if (!grown) return SMFW_ERR_NOMEM;
        reg->items = grown;
        reg->cap = cap;
    }
    registry_item *it = &reg->items[reg->n];
    it->path = strdup(path);
    if (!it->path) return SMFW_ERR_NOMEM;
    it->handle = h;
    it->entry.desc = d;
    it->entry.path = it->path;
    reg->n++;
    return SMFW_OK;
}

smfw_status smfw_registry_add_static(smfw_registry *reg, const smfw_plugin_descriptor *desc,
                                     const char *origin, smfw_error *err) {
    char buf[512];
    const char *why = check_descriptor(desc, buf, sizeof buf);
    if (why) return smfw_error_set(err, SMFW_ERR_CONFIG, "plugin %s refused: %s", origin, why);
    if (smfw_registry_find(reg, desc->kind, desc->name))
        return smfw_error_set(err, SMFW_ERR_CONFIG,
                              "plugin %s refused: a %s plugin named %s is already loaded", origin,
                              smfw_plugin_kind_name(desc->kind), desc->name);
    const smfw_plugin_entry *owner = NULL;
    const char *taken = taken_command(reg, desc, &owner);
    if (taken)
        return smfw_error_set(err, SMFW_ERR_CONFIG,
                              "plugin %s refused: its command \"%s\" is already provided by %s",
                              origin, taken, owner->path);
    if (registry_push(reg, desc, NULL, origin) != SMFW_OK)
        return smfw_error_set(err, SMFW_ERR_NOMEM, "out of memory");
    return SMFW_OK;
}

static int has_suffix(const char *s, const char *suffix) {
    size_t n = strlen(s), m = strlen(suffix);
    return n > m && strcmp(s + n - m, suffix) == 0;
}

static int cmp_str(const void *a, const void *b) {
    return strcmp(*(char *const *)a, *(char *const *)b);
}

static void load_module(smfw_registry *reg, const char *path) {
    char msg[2048], why[1024];
    lt_dlhandle h = lt_dlopenext(path);
    if (!h) {
        /* libltdl says "file not found" for most failures; say what is really wrong. */
        const char *e = lt_dlerror();
        char real[1024];
        unsigned char magic[4] = {0};
        FILE *f = fopen(path, "rb");
        size_t got = f ? fread(magic, 1, sizeof magic, f) : 0;
        if (f) fclose(f);
        if (!f) {
            snprintf(msg, sizeof msg, "plugin %s refused: it cannot be opened (%s)", path,
                     strerror(errno));
        } else if (got < 4 || memcmp(magic, "\177ELF", 4) != 0) {
            snprintf(msg, sizeof msg,
                     "plugin %s refused: it is not a shared object (not an ELF file; a plugin "
                     "is a .so built with SMFW_PLUGIN_DEFINE)",
                     path);
        } else {
            void *d = dlopen(path, RTLD_NOW | RTLD_LOCAL);
            snprintf(real, sizeof real, "%s", d ? (e ? e : "unknown error") : dlerror());
            if (d) dlclose(d);
            snprintf(msg, sizeof msg,
                     "plugin %s refused: it could not be loaded (%s); run `ldd %s` to see which "
                     "library is missing",
                     path, real, path);
        }
        add_refusal(reg, msg);
        return;
    }
    smfw_plugin_entry_fn entry =
        (smfw_plugin_entry_fn)(uintptr_t)lt_dlsym(h, SMFW_PLUGIN_ENTRY_SYMBOL);
    if (!entry) {
        /* libltdl tries <module>_LTX_smfw_plugin_entry first, then the plain name. */
        const char *base = strrchr(path, '/');
        base = base ? base + 1 : path;
        snprintf(msg, sizeof msg,
                 "plugin %s refused: it exports no entry symbol (expected %.*s_LTX_%s or %s; "
                 "define it with SMFW_PLUGIN_DEFINE)",
                 path, (int)(strchr(base, '.') ? strchr(base, '.') - base : (long)strlen(base)),
                 base, SMFW_PLUGIN_ENTRY_SYMBOL, SMFW_PLUGIN_ENTRY_SYMBOL);
        add_refusal(reg, msg);
        lt_dlclose(h);
        return;
    }
    const smfw_plugin_descriptor *d = entry();
    const char *reason = check_descriptor(d, why, sizeof why);
    if (reason) {
        snprintf(msg, sizeof msg, "plugin %s refused: %s", path, reason);
        add_refusal(reg, msg);
        lt_dlclose(h);
        return;
    }
    const smfw_plugin_entry *dup = smfw_registry_find(reg, d->kind, d->name);
    if (dup) {
        SMFW_LOG_DEBUG("plugins", "%s %s from %s is shadowed by %s", smfw_plugin_kind_name(d->kind),
                       d->name, path, dup->path);
        lt_dlclose(h);
        return;
    }
    const smfw_plugin_entry *owner = NULL;
    const char *taken = taken_command(reg, d, &owner);
    if (taken) {
        /* Unlike a shadowed plugin this is no search-order choice: two plugins claim one verb. */
        snprintf(msg, sizeof msg, "plugin %s refused: its command \"%s\" is already provided by %s",
                 path, taken, owner->path);
        add_refusal(reg, msg);
        lt_dlclose(h);
        return;
    }
    if (registry_push(reg, d, h, path) != SMFW_OK)
        lt_dlclose(h);
    else
        SMFW_LOG_DEBUG("plugins", "loaded %s %s %s (ABI %u.%u) from %s",
                       smfw_plugin_kind_name(d->kind), d->name, d->version, d->abi_major,
                       d->abi_minor, path);
}

static void scan_dir(smfw_registry *reg, const char *dir) {
    DIR *dp = opendir(dir);
    if (!dp) {
        SMFW_LOG_DEBUG("plugins", "plugin folder %s not readable, skipped", dir);
        return;
    }
    char **names = NULL;
    size_t n = 0;
    struct dirent *de;
    while ((de = readdir(dp))) {
        if (!has_suffix(de->d_name, ".so")) continue;
        char **grown = realloc(names, (n + 1) * sizeof *grown);
        if (!grown) break;
        names = grown;
        size_t len = strlen(dir) + strlen(de->d_name) + 2;
        names[n] = malloc(len);
        if (!names[n]) break;
        snprintf(names[n], len, "%s/%s", dir, de->d_name);
        n++;
    }
    closedir(dp);
    qsort(names, n, sizeof *names, cmp_str);
    for (size_t i = 0; i < n; i++) {
        struct stat st;
        if (stat(names[i], &st) == 0 && S_ISREG(st.st_mode)) load_module(reg, names[i]);
        free(names[i]);
    }
    free(names);
}

smfw_status smfw_registry_load(const char *const *dirs, size_t n_dirs, smfw_registry **out,
                               smfw_error *err) {
    *out = NULL;
    smfw_registry *reg = calloc(1, sizeof *reg);
    if (!reg) return smfw_error_set(err, SMFW_ERR_NOMEM, "out of memory");
    pthread_mutex_lock(&ltdl_lock);
    if (ltdl_users == 0 && lt_dlinit() != 0) {
        pthread_mutex_unlock(&ltdl_lock);
        free(reg);
        return smfw_error_set(err, SMFW_ERR_INTERNAL, "cannot initialise libltdl: %s",
                              lt_dlerror());
    }
    ltdl_users++;
    for (size_t i = 0; i < n_dirs; i++)
        if (dirs[i] && *dirs[i]) scan_dir(reg, dirs[i]);
    pthread_mutex_unlock(&ltdl_lock);
    for (size_t i = 0; i < reg->n_refused; i++) SMFW_LOG_ERR("plugins", "%s", reg->refused[i]);
    *out = reg;
    return SMFW_OK;
}

void smfw_registry_free(smfw_registry *reg) {
    if (!reg) return;
    pthread_mutex_lock(&ltdl_lock);
    for (size_t i = 0; i < reg->n; i++)
        if (reg->items[i].handle) lt_dlclose(reg->items[i].handle);
    if (ltdl_users > 0 && --ltdl_users == 0) lt_dlexit();
    pthread_mutex_unlock(&ltdl_lock);
    for (size_t i = 0; i < reg->n; i++) free(reg->items[i].path);
    free(reg->items);
    for (size_t i = 0; i < reg->n_refused; i++) free(reg->refused[i]);
    free(reg->refused);
    free(reg);
}

size_t smfw_registry_count(const smfw_registry *reg) {
    return reg ? reg->n : 0;
}

const smfw_plugin_entry *smfw_registry_at(const smfw_registry *reg, size_t i) {
    return reg && i < reg->n ? &reg->items[i].entry : NULL;
}

const smfw_plugin_entry *smfw_registry_find(const smfw_registry *reg, smfw_plugin_kind kind,
                                            const char *name) {
    if (!reg || !name) return NULL;
    for (size_t i = 0; i < reg->n; i++) {
        const smfw_plugin_descriptor *d = reg->items[i].entry.desc;
        if (d->kind == kind && strcmp(d->name, name) == 0) return &reg->items[i].entry;
    }
    return NULL;
}

const smfw_command_def *smfw_registry_find_command(const smfw_registry *reg, const char *name,
                                                   const smfw_plugin_entry **plugin) {
    if (plugin) *plugin = NULL;
    if (!reg || !name) return NULL;
    for (size_t i = 0; i < reg->n; i++) {
        const smfw_plugin_descriptor *d = reg->items[i].entry.desc;
        if (d->kind != SMFW_PLUGIN_COMMAND) continue;
        const smfw_command_ops *o = d->ops;
        for (size_t k = 0; o->commands[k]; k++)
            if (strcmp(o->commands[k]->name, name) == 0) {
                if (plugin) *plugin = &reg->items[i].entry;
                return o->commands[k];
            }
    }
    return NULL;
}

void smfw_registry_reserve_commands(smfw_registry *reg, const char *const *reserved,
                                    size_t n_reserved) {
    if (!reg) return;
    for (size_t i = 0; i < reg->n;) {
        const smfw_plugin_descriptor *d = reg->items[i].entry.desc;
        const char *clash = NULL;
        for (size_t k = 0; d->kind == SMFW_PLUGIN_COMMAND && !clash && k < n_reserved; k++) {
            const smfw_command_ops *o = d->ops;
            for (size_t c = 0; o->commands[c] && !clash; c++)
                if (strcmp(o->commands[c]->name, reserved[k]) == 0) clash = reserved[k];
        }
        if (!clash) {
            i++;
            continue;
        }
        char msg[2048];
        snprintf(msg, sizeof msg,
                 "plugin %s refused: its command \"%s\" is a built-in command of smfw (`smfw "
                 "%s`); rename it",
                 reg->items[i].path, clash, clash);
        add_refusal(reg, msg);
        SMFW_LOG_ERR("plugins", "%s", msg);
        if (reg->items[i].handle) {
            pthread_mutex_lock(&ltdl_lock);
            lt_dlclose(reg->items[i].handle);
            pthread_mutex_unlock(&ltdl_lock);
        }
        free(reg->items[i].path);
        memmove(&reg->items[i], &reg->items[i + 1], (reg->n - i - 1) * sizeof *reg->items);
        reg->n--;
    }
}

size_t smfw_registry_refused_count(const smfw_registry *reg) {
    return reg ? reg->n_refused : 0;
}

const char *smfw_registry_refused(const smfw_registry *reg, size_t i) {
    return reg && i < reg->n_refused ? reg->refused[i] : NULL;
}

/* Copies of SMFW_PLUGIN_PATH handed out by smfw_registry_default_dirs(); kept
 * reachable for the whole process because the returned views point into them.
 * One copy per distinct value, guarded by env_lock; never written once handed out. */
static char **env_copies;
static size_t n_env_copies;
static pthread_mutex_t env_lock = PTHREAD_MUTEX_INITIALIZER;

/* The tokenised copy of this SMFW_PLUGIN_PATH value (NUL between folders), or NULL. */
static const char *env_copy(const char *env, size_t *len) {
    *len = strlen(env);
    const char *found = NULL;
    pthread_mutex_lock(&env_lock);
    for (size_t i = 0; i < n_env_copies && !found; i++) {
        const char *c = env_copies[i];
        /* Stored as [value][NUL][tokenised value][NUL]. */
        if (!strcmp(c, env)) found = c + *len + 1;
    }
    if (!found) {
        char **grown = realloc(env_copies, (n_env_copies + 1) * sizeof *grown);
        char *c = grown ? malloc(2 * *len + 2) : NULL;
        if (grown) env_copies = grown;
        if (c) {
            memcpy(c, env, *len + 1);
            memcpy(c + *len + 1, env, *len + 1);
            for (char *p = c + *len + 1; *p; p++)
                if (*p == ':') *p = '\0';
            env_copies[n_env_copies++] = c;
            found = c + *len + 1;
        }
    }
    pthread_mutex_unlock(&env_lock);
    return found;
}

/* <libdir>/smfw/plugins beside an installed library: fixed for the process. */
static char beside_dir[4200];
static pthread_once_t beside_once = PTHREAD_ONCE_INIT;

static void locate_beside_dir(void) {
    const char *self = smfw_self_lib_dir();
    struct stat st;
    if (!self || smfw_self_in_build_tree()) return;
    snprintf(beside_dir, sizeof beside_dir, "%s/smfw/plugins", self);
    if (stat(beside_dir, &st) != 0 || strcmp(beside_dir, SMFW_PLUGIN_INSTALL_DIR) == 0)
        beside_dir[0] = '\0';
}

size_t smfw_registry_default_dirs(const char *const *extra, size_t n_extra,
                                  const char *const *config_paths, size_t n_config,
                                  const char **dirs, size_t max) {
    size_t n = 0;
    for (size_t i = 0; i < n_extra && n < max; i++) dirs[n++] = extra[i];
    const char *env = getenv("SMFW_PLUGIN_PATH");
    size_t len = 0;
    const char *copy = env && *env ? env_copy(env, &len) : NULL;
    for (size_t at = 0; copy && at < len && n < max; at += strlen(copy + at) + 1)
        if (copy[at]) dirs[n++] = copy + at;
    for (size_t i = 0; i < n_config && n < max; i++) dirs[n++] = config_paths[i];
    struct stat st;
    /* The build tree only for a build-tree library (./build/smfw works uninstalled). */
    if (n < max && smfw_self_in_build_tree() && stat(SMFW_BUILD_PLUGIN_DIR, &st) == 0)
        dirs[n++] = SMFW_BUILD_PLUGIN_DIR;
    /* An installed library finds <libdir>/smfw/plugins next to itself, whatever the prefix. */
    pthread_once(&beside_once, locate_beside_dir);
    if (n < max && beside_dir[0]) dirs[n++] = beside_dir;
    if (n < max) dirs[n++] = SMFW_PLUGIN_INSTALL_DIR;
    return n;
}
