/*
 * run.c - one benchmark from configuration to files: backend, dataset,
 * output folder, results, reporters. The CLI, sweeps and smfw-mock's
 * benchmark jobs all go through smfw_run_execute().
 */
#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <pthread.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include <smfw/results_layout.h>
#include <smfw/app.h>
#include <smfw/log.h>
#include <smfw/shard.h>
#include <smfw/untrusted.h>

#include "results_internal.h"
#include "self_location.h"

/* Where this library's data lies: fixed for the process (it follows the
 * library's own location), so found once and then only read. */
static char located_data_dir[4096];
static pthread_once_t data_dir_once = PTHREAD_ONCE_INIT;

static void locate_data_dir(void) {
    struct stat st;
    char probe[4200];
    snprintf(located_data_dir, sizeof located_data_dir, "%s", SMFW_DATA_INSTALL_DIR);
    /* A build-tree library reads the source tree's data. */
    snprintf(probe, sizeof probe, "%s/datasets", SMFW_SOURCE_DIR);
    if (smfw_self_in_build_tree() && stat(probe, &st) == 0 && S_ISDIR(st.st_mode)) {
        snprintf(located_data_dir, sizeof located_data_dir, "%s", SMFW_SOURCE_DIR);
        return;
    }
    /* An installed one: <prefix>/share/smfw relative to <prefix>/lib[/<multiarch>]. */
    const char *self = smfw_self_lib_dir();
    if (self) {
        const char *ups[] = {"/../share/smfw", "/../../share/smfw"};
        for (size_t i = 0; i < 2; i++) {
            snprintf(probe, sizeof probe, "%s%s/datasets", self, ups[i]);
            if (stat(probe, &st) == 0 && S_ISDIR(st.st_mode)) {
                snprintf(located_data_dir, sizeof located_data_dir, "%s%s", self, ups[i]);
                return;
            }
        }
    }
}

const char *smfw_data_dir(void) {
    const char *env = getenv("SMFW_DATA_DIR");
    if (env && *env) return env;
    pthread_once(&data_dir_once, locate_data_dir);
    return located_data_dir;
}

/* The folders of one run's dataset parameters, owned by whoever holds the parameters. */
typedef struct dataset_dirs {
    char data[4200];
    char cache[4200];
} dataset_dirs;

/* The numbers of a run's dataset parameters, bound by declaration (the defaults are
 * settings_core.c's). */
typedef struct dataset_numbers {
    int64_t random_seed, request_count;
    double in_mean, in_stddev, out_mean, out_stddev;
} dataset_numbers;

static const smfw_setting_binding dataset_number_bindings[] = {
    {"run", "random_seed", SMFW_BIND_INT64, offsetof(dataset_numbers, random_seed), 0},
    {"run", "request_count", SMFW_BIND_INT64, offsetof(dataset_numbers, request_count), 0},
    {"dataset", "input_tokens_mean", SMFW_BIND_DOUBLE, offsetof(dataset_numbers, in_mean), 0},
    {"dataset", "input_tokens_stddev", SMFW_BIND_DOUBLE, offsetof(dataset_numbers, in_stddev), 0},
    {"dataset", "output_tokens_mean", SMFW_BIND_DOUBLE, offsetof(dataset_numbers, out_mean), 0},
    {"dataset", "output_tokens_stddev", SMFW_BIND_DOUBLE, offsetof(dataset_numbers, out_stddev), 0},
    SMFW_BINDINGS_END};

static void dataset_params_fill(const smfw_config *cfg, smfw_dataset_params *p,
                                dataset_dirs *dirs) {
    memset(p, 0, sizeof *p);
    p->size = sizeof *p;
    const smfw_settings *d = smfw_config_section(cfg, "dataset");
    const smfw_settings *r = smfw_config_section(cfg, "run");
    p->file = smfw_settings_get(d, "dataset_file");
    snprintf(dirs->data, sizeof dirs->data, "%s/datasets", smfw_data_dir());
    p->data_dir = dirs->data;
    const char *xdg = getenv("XDG_CACHE_HOME");
    const char *home = getenv("HOME");
    if (xdg && *xdg)
        snprintf(dirs->cache, sizeof dirs->cache, "%s/smfw", xdg);
    else
        snprintf(dirs->cache, sizeof dirs->cache, "%s/.cache/smfw", home ? home : "/tmp");
    p->cache_dir = dirs->cache;
    dataset_numbers n;
    memset(&n, 0, sizeof n);
    smfw_error err;
    if (smfw_settings_bind(r, dataset_number_bindings, &n, &err) != SMFW_OK)
        SMFW_LOG_ERR(NULL, "%s", err.message); /* a bug in this table: every dataset test sees it */
    p->random_seed = (uint64_t)n.random_seed;
    p->input_tokens_mean = n.in_mean;
    p->input_tokens_stddev = n.in_stddev;
    p->output_tokens_mean = n.out_mean;
    p->output_tokens_stddev = n.out_stddev;
    p->count_hint = n.request_count;
    p->tokenizer = smfw_settings_get(r, "tokenizer");
}

void smfw_dataset_params_from_config(const smfw_config *cfg, smfw_dataset_params *p) {
    /* The public form has nowhere to keep the folders: the calling thread's copy, valid
     * until its next call (the core's own runs keep theirs beside their parameters). */
    static _Thread_local dataset_dirs dirs;
    dataset_params_fill(cfg, p, &dirs);
}

smfw_status smfw_dataset_load_configured(const smfw_registry *reg, const smfw_config *cfg,
                                         const char *name, int quiet, smfw_prompt_set **out,
                                         smfw_error *err) {
    *out = NULL;
    if (!name) name = smfw_settings_get(smfw_config_section(cfg, "smfw"), "dataset");
    const smfw_plugin_entry *pe = smfw_registry_find(reg, SMFW_PLUGIN_DATASET, name);
    if (!pe)
        return smfw_error_set(err, SMFW_ERR_CONFIG,
                              "no dataset plugin named \"%s\" (see `smfw plugins`)", name);
    const smfw_dataset_ops *ops = pe->desc->ops;
    char section[128];
    snprintf(section, sizeof section, "dataset.%s", name);
    smfw_dataset_params params;
    dataset_dirs dirs;
    dataset_params_fill(cfg, &params, &dirs);
    params.quiet = quiet;
    void *ctx = NULL;
    smfw_status st = ops->open(smfw_config_section(cfg, section), &params, &ctx, err);
    if (st != SMFW_OK) return st;
    smfw_prompt_set *set = NULL;
    st = smfw_prompt_set_load(ops, ctx, &set, 50, err);
    ops->close(ctx);
    if (st != SMFW_OK) return st;
    const smfw_settings *ds = smfw_config_section(cfg, "dataset");
    const char *sampling = smfw_settings_get(ds, "dataset_sampling");
    int sequential = sampling && strcmp(sampling, "sequential") == 0;
    /* A Data Capture is a recording: it keeps its time order unless a sampling is asked for. */
    if (!strcmp(set->info.format, "sagemaker_capture") &&
        smfw_settings_source(ds, "dataset_sampling", NULL, NULL) == SMFW_SOURCE_DEFAULT)
        sequential = 1;
    smfw_prompt_set_order(set, sequential ? SMFW_SAMPLING_SEQUENTIAL : SMFW_SAMPLING_SHUFFLE,
                          params.random_seed);
    *out = set;
    return SMFW_OK;
}

/* 1 when path holds nothing at all (or does not exist). */
static int dir_is_empty(const char *path) {
    DIR *d = opendir(path);
    if (!d) return errno == ENOENT;
    struct dirent *de;
    int empty = 1;
    while (empty && (de = readdir(d)) != NULL)
        if (strcmp(de->d_name, ".") != 0 && strcmp(de->d_name, "..") != 0) empty = 0;
    closedir(d);
    return empty;
}

smfw_status smfw_output_dir_create(const char *base, const char *run_name, const char *exact,
                                   char **out, smfw_error *err) {
    *out = NULL;
    char path[4096];
    if (exact && *exact) {
        snprintf(path, sizeof path, "%s", exact);
        size_t n = strlen(path);
        while (n > 1 && path[n - 1] == '/') path[--n] = '\0';
        struct stat st;
        /* A planted link would send every file elsewhere: refused, not followed. */
        if (lstat(path, &st) == 0 && S_ISLNK(st.st_mode))
            return smfw_error_set(err, SMFW_ERR_CONFIG,
                                  "output folder %s is a symbolic link; smfw writes only into a "
                                  "real folder (give the folder it points to)",
                                  path);
        if (lstat(path, &st) == 0 && !S_ISDIR(st.st_mode))
            return smfw_error_set(err, SMFW_ERR_CONFIG, "output folder %s is not a folder", path);
        if (!dir_is_empty(path))
            return smfw_error_set(err, SMFW_ERR_CONFIG,
                                  "output folder %s is not empty; smfw never overwrites or mixes "
                                  "results (choose another --output)",
                                  path);
        if (smfw_mkdir_p(path, 0755, NULL) != 0)
            return smfw_error_set(err, SMFW_ERR_IO, "cannot create output folder %s: %s", path,
                                  strerror(errno));
    } else {
        const char *b = base && *base ? base : "./smfw-results";
        if (smfw_mkdir_p(b, 0755, NULL) != 0)
            return smfw_error_set(err, SMFW_ERR_IO, "cannot create results folder %s: %s", b,
                                  strerror(errno));
        /* mkdir() itself picks the folder: two runs started together never share one. */
        snprintf(path, sizeof path, "%s/%s", b, run_name);
        int k = 2;
        while (mkdir(path, 0755) != 0) {
            if (errno != EEXIST || k > 100000)
                return smfw_error_set(err, SMFW_ERR_IO, "cannot create output folder %s: %s", path,
                                      errno == EEXIST ? "too many runs of this name"
                                                      : strerror(errno));
            snprintf(path, sizeof path, "%s/%s-%d", b, run_name, k++);
        }
    }
    *out = strdup(path);
    return *out ? SMFW_OK : smfw_error_set(err, SMFW_ERR_NOMEM, "out of memory");
}

static void sanitize(char *s) {
    for (; *s; s++)
        if (!isalnum((unsigned char)*s) && *s != '-' && *s != '_' && *s != '.') *s = '-';
}

static void default_run_name(const smfw_config *cfg, char *buf, size_t size) {
    const smfw_settings *prog = smfw_config_section(cfg, "smfw");
    const smfw_settings *run = smfw_config_section(cfg, "run");
    const char *name = smfw_settings_get(prog, "run_name");
    if (name && *name) {
        snprintf(buf, size, "%s", name);
        sanitize(buf);
        return;
    }
    const char *target = smfw_settings_get(run, "endpoint");
    char host[256] = "";
    if (!target) {
        /* A backend that talks to a server by URL declares url in its own section. */
        char sec[160];
        snprintf(sec, sizeof sec, "backend.%s", smfw_settings_get(prog, "backend"));
        const char *url = smfw_settings_get(smfw_config_section(cfg, sec), "url");
        if (url) {
            const char *p = strstr(url, "://");
            snprintf(host, sizeof host, "%s", p ? p + 3 : url);
            host[strcspn(host, "/?#")] = '\0';
            char *at = strrchr(host, '@'); /* userinfo is a credential, never a name */
            if (at) memmove(host, at + 1, strlen(at + 1) + 1);
            target = host;
        }
    }
    time_t now = time(NULL);
    struct tm tm;
    gmtime_r(&now, &tm);
    char ts[32];
    strftime(ts, sizeof ts, "%Y%m%dT%H%M%SZ", &tm);
    snprintf(buf, size, "%s-%s-%s", smfw_settings_get(prog, "backend"), target ? target : "run",
             ts);
    sanitize(buf);
}

/* Reporter instances made before a run, so bad reporter settings fail fast. */
typedef struct reporter_set {
    const smfw_reporter_ops **ops;
    void **ctx;
    const char **names;
    size_t n;
    smfw_reporter_output *outputs; /* every reporter's files, ended by {NULL, NULL} */
} reporter_set;

static void reporter_set_free(reporter_set *rs) {
    for (size_t i = 0; i < rs->n; i++)
        if (rs->ops[i] && rs->ctx[i]) rs->ops[i]->destroy(rs->ctx[i]);
    free(rs->ops);
    free(rs->ctx);
    free(rs->names);
    free(rs->outputs);
    memset(rs, 0, sizeof *rs);
}

static const smfw_reporter_output *declared_outputs(const smfw_reporter_ops *ops) {
    return SMFW_OPS_HAS(ops, smfw_reporter_ops, outputs) ? ops->outputs : NULL;
}

/* The files each reporter declares, told to all of them before any writes. */
static smfw_status reporter_set_tell_outputs(reporter_set *rs, smfw_error *err) {
    size_t total = 0;
    for (size_t i = 0; i < rs->n; i++)
        for (const smfw_reporter_output *o = declared_outputs(rs->ops[i]); o && o->name; o++)
            total++;
    rs->outputs = calloc(total + 1, sizeof *rs->outputs);
    if (!rs->outputs) {
        reporter_set_free(rs);
        return smfw_error_set(err, SMFW_ERR_NOMEM, "out of memory");
    }
    size_t k = 0;
    for (size_t i = 0; i < rs->n; i++)
        for (const smfw_reporter_output *o = declared_outputs(rs->ops[i]); o && o->name; o++)
            rs->outputs[k++] = *o;
    for (size_t i = 0; i < rs->n; i++)
        if (rs->ops[i]->control)
            (void)rs->ops[i]->control(rs->ctx[i], SMFW_REPORTER_CTL_RUN_OUTPUTS, rs->outputs);
    return SMFW_OK;
}

static smfw_status reporter_set_open(const smfw_registry *reg, const smfw_config *cfg,
                                     const char *const *names, size_t n_names, reporter_set *rs,
                                     smfw_error *err) {
    memset(rs, 0, sizeof *rs);
    if (!names)
        n_names = smfw_settings_get_list(smfw_config_section(cfg, "smfw"), "report", &names);
    rs->ops = calloc(n_names + 1, sizeof *rs->ops);
    rs->ctx = calloc(n_names + 1, sizeof *rs->ctx);
    rs->names = calloc(n_names + 1, sizeof *rs->names);
    if (!rs->ops || !rs->ctx || !rs->names) {
        reporter_set_free(rs);
        return smfw_error_set(err, SMFW_ERR_NOMEM, "out of memory");
    }
    for (size_t i = 0; i < n_names; i++) {
        const smfw_plugin_entry *pe = smfw_registry_find(reg, SMFW_PLUGIN_REPORTER, names[i]);
        rs->names[rs->n] = names[i];
        if (!pe) {
            reporter_set_free(rs);
            return smfw_error_set(err, SMFW_ERR_CONFIG,
                                  "no reporter plugin named \"%s\" (see `smfw plugins`)", names[i]);
        }
        const smfw_reporter_ops *ops = pe->desc->ops;
        char section[128];
        snprintf(section, sizeof section, "reporter.%s", names[i]);
        smfw_error e;
        smfw_error_clear(&e);
        void *ctx = NULL;
        smfw_status st = ops->create(smfw_config_section(cfg, section), &ctx, &e);
        if (st != SMFW_OK) {
            reporter_set_free(rs);
            return smfw_error_set(err, st, "reporter %s: %s", names[i], e.message);
        }
        rs->ops[rs->n] = ops;
        rs->ctx[rs->n] = ctx;
        rs->n++;
    }
    return reporter_set_tell_outputs(rs, err);
}

/* Every reporter writes; a failure is logged with its file and the others still run. */
static smfw_status reporter_set_write(reporter_set *rs, const smfw_results *results,
                                      const char *dir, smfw_error *err) {
    smfw_status first = SMFW_OK;
    for (size_t i = 0; i < rs->n; i++) {
        smfw_error e;
        smfw_error_clear(&e);
        smfw_status st = rs->ops[i]->write(rs->ctx[i], results, dir, &e);
        if (st != SMFW_OK) {
            SMFW_LOG_ERR("report", "reporter %s failed: %s", rs->names[i], e.message);
            if (first == SMFW_OK) {
                first = st;
                smfw_error_set(err, st, "reporter %s failed: %s", rs->names[i], e.message);
            }
        }
    }
    return first;
}

smfw_status smfw_reporters_run(const smfw_registry *reg, const smfw_config *cfg,
                               const char *const *names, size_t n_names,
                               const smfw_results *results, const char *dir, smfw_error *err) {
    reporter_set rs;
    smfw_status st = reporter_set_open(reg, cfg, names, n_names, &rs, err);
    if (st != SMFW_OK) {
        SMFW_LOG_ERR("report", "%s", err ? err->message : "reporter setup failed");
        return st;
    }
    st = reporter_set_write(&rs, results, dir, err);
    reporter_set_free(&rs);
    return st;
}

smfw_status smfw_reporters_write_set(const smfw_registry *reg, const smfw_config *cfg,
                                     const smfw_run_set *set, const char *dir, smfw_error *err) {
    if (!smfw_run_set_analysis(set))
        return smfw_error_set(err, SMFW_ERR_USAGE, "the sweep in %s was not analysed", dir);
    smfw_status first = SMFW_OK;
    for (size_t i = 0; i < smfw_registry_count(reg); i++) {
        const smfw_plugin_descriptor *d = smfw_registry_at(reg, i)->desc;
        if (d->kind != SMFW_PLUGIN_REPORTER) continue;
        const smfw_reporter_ops *ops = d->ops;
        if (!SMFW_OPS_HAS(ops, smfw_reporter_ops, write_set) || !ops->write_set) continue;
        char section[128];
        snprintf(section, sizeof section, "reporter.%s", d->name);
        smfw_error e;
        smfw_error_clear(&e);
        void *ctx = NULL;
        smfw_status st = ops->create(smfw_config_section(cfg, section), &ctx, &e);
        if (st == SMFW_OK) {
            st = ops->write_set(ctx, set, dir, &e);
            ops->destroy(ctx);
        }
        if (st != SMFW_OK) {
            SMFW_LOG_ERR("report", "reporter %s failed on the sweep: %s", d->name, e.message);
            if (first == SMFW_OK)
                first = smfw_error_set(err, st, "reporter %s failed on the sweep: %s", d->name,
                                       e.message);
        }
    }
    return first;
}

static smfw_status parse_goodput(const smfw_config *cfg, smfw_goodput_slo **out, size_t *n,
                                 smfw_error *err) {
    const char *const *items;
    size_t k = smfw_settings_get_list(smfw_config_section(cfg, "run"), "goodput", &items);
    return smfw_goodput_parse(items, k, out, n, err);
}

/* A setting of another backend is accepted (the config file may serve both) but ignored by
 * this one: say so, or the user believes it took effect. */
static void warn_other_backends(const smfw_config *cfg, const char *backend) {
    for (size_t i = 0; i < smfw_config_section_count(cfg); i++) {
        const char *name = smfw_config_section_name(cfg, i);
        if (strncmp(name, "backend.", 8) != 0 || strcmp(name + 8, backend) == 0) continue;
        const smfw_settings *sec = smfw_config_section(cfg, name);
        const smfw_setting_decl *d = smfw_config_section_decls(cfg, i);
        for (size_t k = 0; d && d[k].key; k++) {
            const char *origin = NULL;
            int line = 0;
            smfw_setting_source src = smfw_settings_source(sec, d[k].key, &origin, &line);
            if (src != SMFW_SOURCE_FLAG && src != SMFW_SOURCE_ENV) continue;
            SMFW_LOG_WARN(NULL, "%s %s is a setting of the %s backend; the %s backend ignores it",
                          src == SMFW_SOURCE_FLAG ? "option" : "environment variable",
                          origin ? origin : d[k].key, name + 8, backend);
        }
    }
}

/* The backend named in [smfw] backend, or an error listing the ones loaded. */
static const smfw_plugin_entry *find_backend(const smfw_registry *reg, const char *backend_name,
                                             smfw_error *err) {
    const smfw_plugin_entry *pe = smfw_registry_find(reg, SMFW_PLUGIN_BACKEND, backend_name);
    if (pe) return pe;
    char avail[512] = "";
    for (size_t i = 0; i < smfw_registry_count(reg); i++) {
        const smfw_plugin_descriptor *d = smfw_registry_at(reg, i)->desc;
        if (d->kind != SMFW_PLUGIN_BACKEND) continue;
        size_t l = strlen(avail);
        snprintf(avail + l, sizeof avail - l, "%s%s", l ? ", " : "", d->name);
    }
    smfw_error_set(err, SMFW_ERR_CONFIG,
                   "no backend plugin named \"%s\" (available: %s; see `smfw plugins`)",
                   backend_name ? backend_name : "", avail[0] ? avail : "none");
    return NULL;
}

smfw_status smfw_backend_ask(const smfw_registry *reg, const smfw_config *cfg, int op, int *value,
                             smfw_error *err) {
    const char *backend_name = smfw_settings_get(smfw_config_section(cfg, "smfw"), "backend");
    const smfw_plugin_entry *pe = find_backend(reg, backend_name, err);
    if (!pe) return SMFW_ERR_CONFIG;
    const smfw_backend_ops *ops = pe->desc->ops;
    if (!SMFW_OPS_HAS(ops, smfw_backend_ops, control) || !ops->control) return SMFW_OK;
    char section[128];
    snprintf(section, sizeof section, "backend.%s", backend_name);
    void *ctx = NULL;
    smfw_status st = ops->create(smfw_config_section(cfg, section), cfg, &ctx, err);
    if (st != SMFW_OK) return st;
    int answer = *value;
    if (ops->control(ctx, op, &answer) == SMFW_OK) *value = answer;
    ops->destroy(ctx);
    return SMFW_OK;
}

smfw_status smfw_run_execute(const smfw_registry *reg, const smfw_config *cfg,
                             const smfw_run_options *opts, smfw_results **out, char **out_dir,
                             smfw_error *err) {
    *out = NULL;
    if (out_dir) *out_dir = NULL;
    const smfw_settings *prog = smfw_config_section(cfg, "smfw");
    const smfw_settings *run = smfw_config_section(cfg, "run");
    const char *backend_name = smfw_settings_get(prog, "backend");
    const smfw_plugin_entry *pe = find_backend(reg, backend_name, err);
    if (!pe) return SMFW_ERR_CONFIG;
    warn_other_backends(cfg, backend_name);
    smfw_goodput_slo *slos = NULL;
    size_t n_slos = 0;
    smfw_status st = parse_goodput(cfg, &slos, &n_slos, err);
    if (st != SMFW_OK) return st;

    /* Reporters are created first: a bad reporter setting fails before any load. */
    reporter_set reporters;
    memset(&reporters, 0, sizeof reporters);
    if (!(opts && opts->skip_reporters)) {
        st = reporter_set_open(reg, cfg, NULL, 0, &reporters, err);
        if (st != SMFW_OK) {
            free(slos);
            return st;
        }
    }
    const smfw_backend_ops *ops = pe->desc->ops;
    char section[128];
    snprintf(section, sizeof section, "backend.%s", backend_name);
    void *ctx = NULL;
    st = ops->create(smfw_config_section(cfg, section), cfg, &ctx, err);
    if (st != SMFW_OK) {
        reporter_set_free(&reporters);
        free(slos);
        return st;
    }
    int needs_prompts = 1, honours_dry_run = 0;
    if (SMFW_OPS_HAS(ops, smfw_backend_ops, control)) {
        if (ops->control(ctx, SMFW_BACKEND_CTL_NEEDS_PROMPTS, &needs_prompts) != SMFW_OK)
            needs_prompts = 1;
        if (ops->control(ctx, SMFW_BACKEND_CTL_HONOURS_DRY_RUN, &honours_dry_run) != SMFW_OK)
            honours_dry_run = 0;
    }
    int dry_run = honours_dry_run && !smfw_settings_get_bool(prog, "run", 0);
    int quiet = smfw_log_get_level() < SMFW_LOG_INFO;

    smfw_prompt_set *prompts = NULL;
    if (needs_prompts) {
        st = smfw_dataset_load_configured(reg, cfg, NULL, quiet, &prompts, err);
        if (st != SMFW_OK) {
            ops->destroy(ctx);
            reporter_set_free(&reporters);
            free(slos);
            return st;
        }
    }
    smfw_results *results = smfw_results_new();
    if (!results) {
        smfw_prompt_set_free(prompts);
        ops->destroy(ctx);
        reporter_set_free(&reporters);
        free(slos);
        return smfw_error_set(err, SMFW_ERR_NOMEM, "out of memory");
    }
    char run_name[256];
    default_run_name(cfg, run_name, sizeof run_name);
    smfw_run_info *info = &results->info;
    smfw_results_set_string(&info->run_name, run_name);
    smfw_results_set_string(&info->backend, backend_name);
    smfw_results_set_string(&info->smfw_version, SMFW_VERSION_STRING);
    {
        const smfw_setting_binding info_bindings[] = {
            {NULL, "max_error_rate", SMFW_BIND_DOUBLE, offsetof(smfw_run_info, max_error_rate), 0},
            {NULL, "streaming", SMFW_BIND_BOOL, offsetof(smfw_run_info, streaming), 0},
            SMFW_BINDINGS_END};
        st = smfw_settings_bind(run, info_bindings, info, err);
        if (st != SMFW_OK) {
            smfw_results_free(results);
            smfw_prompt_set_free(prompts);
            ops->destroy(ctx);
            reporter_set_free(&reporters);
            free(slos);
            return st;
        }
    }
    {
        /* Stored as I/N also when given as $VAR+K/N. */
        const char *v = smfw_settings_get(run, "shard");
        smfw_shard sh;
        smfw_error se;
        char sb[24];
        smfw_results_set_string(&info->shard, v && *v && smfw_shard_parse(v, &sh, &se) == SMFW_OK
                                                  ? smfw_shard_format(&sh, sb, sizeof sb)
                                                  : v);
    }
    if (prompts) {
        smfw_results_set_string(&info->dataset_name, prompts->info.name);
        smfw_results_set_string(&info->dataset_file,
                                prompts->info.file[0] ? prompts->info.file : NULL);
        smfw_results_set_string(&info->dataset_sha256,
                                prompts->info.sha256[0] ? prompts->info.sha256 : NULL);
        smfw_results_set_string(&info->dataset_token_lengths, prompts->info.token_lengths[0]
                                                                  ? prompts->info.token_lengths
                                                                  : NULL);
        info->dataset_count = (int64_t)prompts->count;
    }

    char *dir = NULL;
    if (!dry_run) {
        const char *exact =
            opts && opts->output_dir ? opts->output_dir : smfw_settings_get(prog, "output");
        st = smfw_output_dir_create(smfw_settings_get(prog, "results_dir"), run_name, exact, &dir,
                                    err);
        if (st != SMFW_OK) {
            smfw_results_free(results);
            smfw_prompt_set_free(prompts);
            ops->destroy(ctx);
            reporter_set_free(&reporters);
            free(slos);
            return st;
        }
    }
    smfw_run_context rc;
    memset(&rc, 0, sizeof rc);
    rc.size = sizeof rc;
    rc.config = cfg;
    rc.prompts = prompts;
    rc.results = results;
    rc.output_dir = dir;
    volatile sig_atomic_t no_cancel = 0; /* this run's own, never set */
    rc.cancel = opts && opts->cancel ? opts->cancel : &no_cancel;
    rc.progress = opts ? opts->progress : NULL;
    rc.progress_user = opts ? opts->progress_user : NULL;
    rc.dry_run = dry_run;
    rc.quiet = quiet;
    rc.levels = smfw_run_set_new("concurrency", dir);
    smfw_error run_err;
    smfw_error_clear(&run_err);
    smfw_status run_st = rc.levels ? ops->run(ctx, &rc, &run_err)
                                   : smfw_error_set(&run_err, SMFW_ERR_NOMEM, "out of memory");
    ops->destroy(ctx);
    smfw_results_close_jsonl(results, NULL);

    if (!dry_run && results->n_records > 0 && !results->stats[SMFW_M_REQUEST_COUNT].present &&
        !results->stats[SMFW_M_ERROR_REQUEST_COUNT].present) {
        smfw_error cerr;
        if (smfw_results_compute(results, slos, n_slos, &cerr) != SMFW_OK)
            SMFW_LOG_ERR(NULL, "%s", cerr.message);
        results->records_complete = 1;
    }
    free(slos);
    if (!dry_run && results->info.gate_tripped && run_st == SMFW_OK) {
        run_st = SMFW_ERR_VALIDITY;
        smfw_error_set(&run_err, SMFW_ERR_VALIDITY, "%s",
                       results->info.failure_reason ? results->info.failure_reason
                                                    : "the run failed its validity gate");
    }
    smfw_status rep_st = SMFW_OK;
    smfw_error rep_err;
    smfw_error_clear(&rep_err);
    if (!dry_run && dir && !(opts && opts->skip_reporters) &&
        (results->n_records > 0 || results->stats[SMFW_M_REQUEST_COUNT].present ||
         results->stats[SMFW_M_ERROR_REQUEST_COUNT].present))
        rep_st = reporter_set_write(&reporters, results, dir, &rep_err);
    /* The levels a backend ran itself, each reported in its own folder; the first failure
     * is the run's. */
    for (size_t i = 0;
         !dry_run && !(opts && opts->skip_reporters) && i < smfw_run_set_count(rc.levels); i++) {
        const char *level_dir = smfw_run_set_level_dir(rc.levels, i);
        smfw_error e;
        smfw_error_clear(&e);
        smfw_status lst =
            level_dir
                ? reporter_set_write(&reporters, smfw_run_set_results(rc.levels, i), level_dir, &e)
                : SMFW_OK;
        if (lst != SMFW_OK && rep_st == SMFW_OK) {
            rep_st = lst;
            rep_err = e;
        }
    }
    smfw_run_set_free(rc.levels);
    reporter_set_free(&reporters);
    smfw_prompt_set_free(prompts);
    *out = results;
    if (out_dir)
        *out_dir = dir;
    else
        free(dir);
    if (run_st != SMFW_OK) {
        if (err) *err = run_err;
        return run_st;
    }
    if (rep_st != SMFW_OK) {
        if (err) *err = rep_err;
        return rep_st;
    }
    return SMFW_OK;
}
