/*
 * cli.c - command-line parsing shared by every subcommand. Options are built
 * from the declared settings of the core and of every loaded plugin, so a
 * plugin's keys are flags without any change here.
 */
#include <errno.h>
#include <ini.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <smfw/bundle_limits.h>
#include <smfw/log.h>

#include "commands.h"

int smfw_cli_fail(const smfw_error *err) {
    smfw_log(SMFW_LOG_ERROR, NULL, "%s", err->message);
    return smfw_status_exit_code(err->status);
}

/* Pre-scan of a config file for [smfw] plugin_path, needed before plugins load. */
typedef struct plugin_path_scan {
    char *value;
} plugin_path_scan;

static int scan_plugin_path(void *user, const char *section, const char *name, const char *value) {
    plugin_path_scan *s = user;
    if (section && name && strcmp(section, "smfw") == 0 && strcmp(name, "plugin_path") == 0) {
        free(s->value);
        s->value = strdup(value ? value : "");
    }
    return 1;
}

/* AIPerf's long names where the meaning is the same (docs/guide.md lists them). */
static const struct {
    const char *alias, *flag;
} aiperf_aliases[] = {{"isl", "input-tokens-mean"},
                      {"synthetic-input-tokens-mean", "input-tokens-mean"},
                      {"synthetic-input-tokens-stddev", "input-tokens-stddev"},
                      {"osl", "output-tokens-mean"},
                      {"output-tokens-stddev", "output-tokens-stddev"},
                      {"artifact-dir", "output"},
                      {"benchmark-duration", "duration"}};

/* Edit distance of two short strings (capped inputs: option names). */
static size_t edit_distance(const char *a, const char *b) {
    size_t la = strlen(a), lb = strlen(b);
    if (la > 63 || lb > 63) return 99;
    size_t d[64][64];
    for (size_t i = 0; i <= la; i++) d[i][0] = i;
    for (size_t j = 0; j <= lb; j++) d[0][j] = j;
    for (size_t i = 1; i <= la; i++)
        for (size_t j = 1; j <= lb; j++) {
            size_t sub = d[i - 1][j - 1] + (a[i - 1] != b[j - 1]);
            size_t del = d[i - 1][j] + 1, ins = d[i][j - 1] + 1;
            d[i][j] = sub < del ? (sub < ins ? sub : ins) : (del < ins ? del : ins);
        }
    return d[la][lb];
}

typedef struct opt_map {
    const char *flag; /* long name */
    int negated;      /* --no-<flag> */
    int extra;        /* index into extra[] + 1, or 0 */
} opt_map;

static int is_core_flag(const char *name) {
    static const char *core[] = {"config", "plugin-path", "verbose", "quiet", "help"};
    for (size_t i = 0; i < 5; i++)
        if (strcmp(core[i], name) == 0) return 1;
    return 0;
}

void smfw_cli_print_help(const smfw_command *cmd, const smfw_config *cfg,
                         const smfw_cli_option *extra, size_t n_extra, FILE *out) {
    fprintf(out, "%s\n\n", cmd->usage);
    if (n_extra) {
        fprintf(out, "Options of `smfw %s`:\n", cmd->name);
        for (size_t i = 0; i < n_extra; i++) {
            char left[96];
            if (extra[i].short_name)
                snprintf(left, sizeof left, "-%c, --%s%s%s", extra[i].short_name, extra[i].name,
                         extra[i].metavar ? " " : "", extra[i].metavar ? extra[i].metavar : "");
            else
                snprintf(left, sizeof left, "    --%s%s%s", extra[i].name,
                         extra[i].metavar ? " " : "", extra[i].metavar ? extra[i].metavar : "");
            fprintf(out, "  %-36s %s\n", left, extra[i].help);
        }
        fputc('\n', out);
    }
    fprintf(out, "Common options:\n"
                 "  -C, --config FILE                    config file (default ./smfw.conf, then "
                 "$XDG_CONFIG_HOME/smfw/smfw.conf)\n"
                 "      --plugin-path DIR                search DIR for plugins first "
                 "(repeatable; also SMFW_PLUGIN_PATH)\n"
                 "  -v, --verbose                        more output (-vv: HTTP traces, redacted)\n"
                 "  -q, --quiet                          errors and warnings only\n"
                 "  -h, --help                           this help\n\n");
    if (!cfg) return;
    /* Commands that read results list only the settings they use, not every run setting. */
    const char *only = strcmp(cmd->name, "compare") == 0 ? ",output,"
                       : strcmp(cmd->name, "merge") == 0 ? ",output,report,goodput,max-error-rate,"
                                                         : NULL;
    for (size_t s = 0; s < smfw_config_section_count(cfg); s++) {
        const smfw_setting_decl *d = smfw_config_section_decls(cfg, s);
        int header = 0;
        for (size_t k = 0; d && d[k].key; k++) {
            if (!d[k].flag) continue;
            if (only) {
                char want[96];
                snprintf(want, sizeof want, ",%s,", d[k].flag);
                if (!strstr(only, want)) continue;
            }
            if (!header) {
                fprintf(out, "Settings of [%s] (flag, or key in the config file):\n",
                        smfw_config_section_name(cfg, s));
                header = 1;
            }
            char left[128];
            int is_bool = d[k].type == SMFW_SETTING_BOOL;
            if (d[k].short_flag)
                snprintf(left, sizeof left, "-%c, --%s%s%s", d[k].short_flag, d[k].flag,
                         is_bool ? "" : " ",
                         is_bool ? "" : (d[k].metavar ? d[k].metavar : "VALUE"));
            else
                snprintf(left, sizeof left, "    --%s%s%s%s", is_bool ? "[no-]" : "", d[k].flag,
                         is_bool ? "" : " ",
                         is_bool ? "" : (d[k].metavar ? d[k].metavar : "VALUE"));
            char dflt[160] = "";
            if (d[k].default_value && d[k].type != SMFW_SETTING_SECRET)
                snprintf(dflt, sizeof dflt, " [%s]", d[k].default_value);
            char env[96] = "";
            if (d[k].env) snprintf(env, sizeof env, " (env %s)", d[k].env);
            fprintf(out, "  %-36s %s%s%s\n", left, d[k].help, dflt, env);
        }
        if (header) fputc('\n', out);
    }
}

/* Pass 1 over argv: what must be known before plugins load. */
typedef struct cli_prescan {
    const char *config_file;
    const char *plugin_dirs[16];
    size_t n_plugin_dirs;
    int verbosity, want_help;
} cli_prescan;

static void cli_prescan_args(int argc, char **argv, cli_prescan *p) {
    memset(p, 0, sizeof *p);
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        if (strcmp(a, "--") == 0) break;
        if ((strcmp(a, "-C") == 0 || strcmp(a, "--config") == 0) && i + 1 < argc)
            p->config_file = argv[++i];
        else if (strncmp(a, "--config=", 9) == 0)
            p->config_file = a + 9;
        else if (strcmp(a, "--plugin-path") == 0 && i + 1 < argc) {
            if (p->n_plugin_dirs < 16) p->plugin_dirs[p->n_plugin_dirs++] = argv[++i];
        } else if (strncmp(a, "--plugin-path=", 14) == 0) {
            if (p->n_plugin_dirs < 16) p->plugin_dirs[p->n_plugin_dirs++] = a + 14;
        } else if (strcmp(a, "-h") == 0 || strcmp(a, "--help") == 0)
            p->want_help = 1;
        else if (strcmp(a, "--verbose") == 0)
            p->verbosity++;
        else if (strcmp(a, "--quiet") == 0)
            p->verbosity--;
        else if (a[0] == '-' && a[1] != '-' && a[1]) {
            /* bundled short flags like -vv or -q */
            int only_vq = 1;
            for (const char *q = a + 1; *q; q++)
                if (*q != 'v' && *q != 'q') only_vq = 0;
            if (only_vq)
                for (const char *q = a + 1; *q; q++) p->verbosity += *q == 'v' ? 1 : -1;
        }
    }
}

/* The plugin search path of a prescan (--plugin-path, the config's plugin_path, the
 * defaults), then the registry with the built-in command names reserved. */
static int cli_load_registry(const cli_prescan *p, const char *config_file, smfw_registry **reg) {
    smfw_error err;
    smfw_error_clear(&err);
    plugin_path_scan scan = {NULL};
    if (config_file) {
        FILE *fp = fopen(config_file, "r");
        if (fp) {
            ini_parse_file(fp, scan_plugin_path, &scan);
            fclose(fp);
        }
    }
    char *conf_dirs_copy = scan.value;
    const char *conf_dirs[16];
    size_t n_conf_dirs = 0;
    if (conf_dirs_copy) {
        char *save = NULL;
        for (char *t = strtok_r(conf_dirs_copy, ",", &save); t && n_conf_dirs < 16;
             t = strtok_r(NULL, ",", &save)) {
            while (*t == ' ') t++;
            if (*t) conf_dirs[n_conf_dirs++] = t;
        }
    }
    const char *dirs[96];
    size_t n = smfw_registry_default_dirs(p->plugin_dirs, p->n_plugin_dirs, conf_dirs, n_conf_dirs,
                                          dirs, 96);
    smfw_status st = smfw_registry_load(dirs, n, reg, &err);
    free(conf_dirs_copy);
    if (st != SMFW_OK) return smfw_cli_fail(&err);
    /* A plugin may add commands, never replace one of the program's. */
    const char *builtin[64];
    size_t n_builtin = 0;
    for (const smfw_command *const *c = smfw_commands(); *c && n_builtin < 63; c++)
        builtin[n_builtin++] = (*c)->name;
    builtin[n_builtin++] = "profile"; /* `smfw profile` is `smfw run` (AIPerf's verb) */
    smfw_registry_reserve_commands(*reg, builtin, n_builtin);
    return -1;
}

int smfw_cli_begin(int argc, char **argv, int load_plugins, smfw_cli *cli, int *want_help) {
    memset(cli, 0, sizeof *cli);
    smfw_error err;
    smfw_error_clear(&err);
    cli_prescan p;
    cli_prescan_args(argc, argv, &p);
    *want_help = p.want_help;
    for (size_t i = 0; i < p.n_plugin_dirs; i++) {
        /* A folder that is not there finds no plugin: say so instead of ignoring it. */
        struct stat st;
        if (stat(p.plugin_dirs[i], &st) != 0 || !S_ISDIR(st.st_mode)) {
            smfw_error_set(&err, SMFW_ERR_USAGE, "option --plugin-path: %s is not a folder",
                           p.plugin_dirs[i]);
            return smfw_cli_fail(&err);
        }
    }
    smfw_log_set_level(p.verbosity >= 2   ? SMFW_LOG_TRACE
                       : p.verbosity == 1 ? SMFW_LOG_DEBUG
                       : p.verbosity < 0  ? SMFW_LOG_WARN
                                          : SMFW_LOG_INFO);
    cli->verbosity = p.verbosity;
    char default_conf[4096];
    const char *config_file = p.config_file;
    const char *config_from = "--config";
    if (!config_file && smfw_config_default_file(default_conf, sizeof default_conf)) {
        config_file = default_conf;
        config_from = "the default config file";
    }
    if (config_file) {
        FILE *fp = fopen(config_file, "r");
        if (!fp) {
            smfw_error_set(&err, SMFW_ERR_CONFIG, "cannot read config file %s (%s): %s",
                           config_file, config_from, strerror(errno));
            return smfw_cli_fail(&err);
        }
        fclose(fp);
    }
    if (load_plugins) {
        int rc = cli_load_registry(&p, config_file, &cli->reg);
        if (rc >= 0) return rc;
    }
    if (smfw_config_new(cli->reg, &cli->cfg, &err) != SMFW_OK) return smfw_cli_fail(&err);
    if (config_file) {
        if (smfw_config_load_file(cli->cfg, config_file, &err) != SMFW_OK)
            return smfw_cli_fail(&err);
        cli->config_file = config_file == default_conf ? "smfw.conf" : config_file;
    }
    if (smfw_config_apply_env(cli->cfg, &err) != SMFW_OK) return smfw_cli_fail(&err);
    return -1;
}

smfw_registry *smfw_cli_registry_only(int argc, char **argv) {
    cli_prescan p;
    cli_prescan_args(argc, argv, &p);
    char default_conf[4096];
    const char *config_file = p.config_file;
    if (!config_file && smfw_config_default_file(default_conf, sizeof default_conf))
        config_file = default_conf;
    smfw_registry *reg = NULL;
    if (cli_load_registry(&p, config_file, &reg) >= 0) return NULL;
    return reg;
}

int smfw_cli_setup(const smfw_command *cmd, int argc, char **argv, const smfw_cli_option *extra,
                   size_t n_extra,
                   int (*on_option)(void *user, const char *name, const char *value), void *user,
                   int load_plugins, smfw_cli *cli) {
    int want_help = 0;
    int rc = smfw_cli_begin(argc, argv, load_plugins, cli, &want_help);
    if (rc >= 0) return rc;
    if (want_help) {
        smfw_cli_print_help(cmd, cli->cfg, extra, n_extra, stdout);
        return 0;
    }
    return smfw_cli_parse(cmd, argc, argv, extra, n_extra, on_option, user, cli);
}

int smfw_cli_parse(const smfw_command *cmd, int argc, char **argv, const smfw_cli_option *extra,
                   size_t n_extra,
                   int (*on_option)(void *user, const char *name, const char *value), void *user,
                   smfw_cli *cli) {
    smfw_error err;
    smfw_error_clear(&err);
    /* Pass 2: getopt_long over every flag. */
    size_t cap = 16 + n_extra + sizeof aiperf_aliases / sizeof aiperf_aliases[0];
    for (size_t s = 0; s < smfw_config_section_count(cli->cfg); s++) {
        const smfw_setting_decl *d = smfw_config_section_decls(cli->cfg, s);
        for (size_t k = 0; d && d[k].key; k++) cap += 2;
    }
    struct option *opts = calloc(cap + 1, sizeof *opts);
    opt_map *map = calloc(cap + 1, sizeof *map);
    char **owned = calloc(cap + 1, sizeof *owned);
    char shortopts[256] = "+:C:hvq"; /* -c is --concurrency (wrk, ab, hey, oha) */
    if (!opts || !map || !owned) {
        free(opts);
        free(map);
        free(owned);
        smfw_error_set(&err, SMFW_ERR_NOMEM, "out of memory");
        return smfw_cli_fail(&err);
    }
    size_t n = 0, n_owned = 0;
#define ADD(nm, arg, m_flag, m_neg, m_extra)                                                       \
    do {                                                                                           \
        int dup = 0;                                                                               \
        for (size_t q = 0; q < n; q++)                                                             \
            if (strcmp(opts[q].name, nm) == 0) dup = 1;                                            \
        if (!dup) {                                                                                \
            opts[n].name = nm;                                                                     \
            opts[n].has_arg = arg;                                                                 \
            opts[n].val = 1000 + (int)n;                                                           \
            map[n].flag = m_flag;                                                                  \
            map[n].negated = m_neg;                                                                \
            map[n].extra = m_extra;                                                                \
            n++;                                                                                   \
        }                                                                                          \
    } while (0)
    ADD("config", required_argument, "config", 0, 0);
    ADD("plugin-path", required_argument, "plugin-path", 0, 0);
    ADD("verbose", no_argument, "verbose", 0, 0);
    ADD("quiet", no_argument, "quiet", 0, 0);
    ADD("help", no_argument, "help", 0, 0);
    for (size_t i = 0; i < n_extra; i++) {
        ADD(extra[i].name, extra[i].has_arg, extra[i].name, 0, (int)i + 1);
        if (extra[i].short_name) {
            size_t l = strlen(shortopts);
            shortopts[l] = extra[i].short_name;
            shortopts[l + 1] = extra[i].has_arg ? ':' : '\0';
            shortopts[l + 2] = '\0';
        }
    }
    for (size_t s = 0; s < smfw_config_section_count(cli->cfg); s++) {
        const smfw_setting_decl *d = smfw_config_section_decls(cli->cfg, s);
        for (size_t k = 0; d && d[k].key; k++) {
            if (!d[k].flag || is_core_flag(d[k].flag)) continue;
            int is_bool = d[k].type == SMFW_SETTING_BOOL;
            ADD(d[k].flag, is_bool ? optional_argument : required_argument, d[k].flag, 0, 0);
            if (is_bool) {
                char *neg = malloc(strlen(d[k].flag) + 4);
                if (neg) {
                    sprintf(neg, "no-%s", d[k].flag);
                    owned[n_owned++] = neg;
                    ADD(neg, no_argument, d[k].flag, 1, 0);
                }
            }
            if (d[k].short_flag && !strchr(shortopts, d[k].short_flag)) {
                size_t l = strlen(shortopts);
                shortopts[l] = d[k].short_flag;
                shortopts[l + 1] = is_bool ? '\0' : ':';
                shortopts[l + 2] = '\0';
            }
        }
    }
    for (size_t a = 0; a < sizeof aiperf_aliases / sizeof aiperf_aliases[0]; a++)
        for (size_t t = 0; t < n; t++)
            if (!map[t].negated && !map[t].extra &&
                strcmp(opts[t].name, aiperf_aliases[a].flag) == 0) {
                int has_arg = opts[t].has_arg;
                const char *target = map[t].flag;
                ADD(aiperf_aliases[a].alias, has_arg, target, 0, 0);
                break;
            }
#undef ADD
    int rc = -1;
    optind = 1;
    opterr = 0;
    cli->positional = calloc((size_t)argc + 1, sizeof *cli->positional);
    for (;;) {
        int longidx = -1;
        int c = getopt_long(argc, argv, shortopts, opts, &longidx);
        if (c == -1) {
            if (optind > 1 && optind <= argc && strcmp(argv[optind - 1], "--") == 0) {
                /* After "--" everything is an argument (getopt would rewind over it). */
                while (optind < argc && cli->n_positional < argc)
                    cli->positional[cli->n_positional++] = argv[optind++];
                break;
            }
            if (optind < argc && cli->n_positional < argc) {
                cli->positional[cli->n_positional++] = argv[optind++];
                continue; /* keep parsing options after positionals */
            }
            break;
        }
        if (c == '?' || c == ':') {
            const char *bad = argv[optind - 1];
            char shown[160];
            if (optopt > 0 && optopt < 128) {
                /* A short option: in a bundle ("-5s") getopt has not yet moved past it. */
                if (optind < argc && argv[optind][0] == '-' && argv[optind][1] != '-' &&
                    strchr(argv[optind] + 1, optopt))
                    bad = argv[optind];
                /* The bundle is shown only when short and plain: a mistyped -H value
                 * ("-xAuthorization: Bearer ...") must not be echoed. */
                if (strlen(bad) <= 24 && !strpbrk(bad, " :=\t"))
                    snprintf(shown, sizeof shown, "-%c in \"%s\"", optopt, bad);
                else
                    snprintf(shown, sizeof shown, "-%c", optopt);
            } else {
                /* "--flag=value": name the flag only (the value may be a secret). */
                snprintf(shown, sizeof shown, "%.*s", (int)strcspn(bad, "="), bad);
            }
            /* "Did you mean": the nearest long option within two edits. */
            char hint[160] = "";
            if (c != ':' && strncmp(shown, "--", 2) == 0) {
                size_t best = 3, at = 0;
                for (size_t q = 0; q < n; q++) {
                    size_t dist = edit_distance(shown + 2, opts[q].name);
                    if (dist < best) best = dist, at = q;
                }
                if (best <= 2) snprintf(hint, sizeof hint, "; did you mean --%s?", opts[at].name);
            }
            if (c == ':')
                smfw_error_set(&err, SMFW_ERR_USAGE,
                               "option %s needs a value (see `smfw %s --help`)", shown, cmd->name);
            else
                smfw_error_set(&err, SMFW_ERR_USAGE, "unknown option %s%s (see `smfw %s --help`)",
                               shown, hint, cmd->name);
            rc = smfw_cli_fail(&err);
            break;
        }
        const char *flag = NULL;
        int negated = 0, extra_idx = 0;

        if (c >= 1000) {
            flag = map[c - 1000].flag;
            negated = map[c - 1000].negated;
            extra_idx = map[c - 1000].extra;
        } else {

            if (c == 'C' || c == 'v' || c == 'q' || c == 'h') continue;
            for (size_t i = 0; i < n_extra; i++)
                if (extra[i].short_name == c) {
                    flag = extra[i].name;
                    extra_idx = (int)i + 1;
                }
            if (!flag) {
                const char *section = NULL;
                const smfw_setting_decl *d = smfw_config_find_short(cli->cfg, (char)c, &section);
                if (d) flag = d->flag;
            }
        }
        if (!flag) continue;
        if (is_core_flag(flag)) continue; /* handled in pass 1 */
        if (extra_idx) {
            if (on_option && on_option(user, flag, optarg) != 0) {
                rc = 1;
                break;
            }
            continue;
        }
        /* Apply to every section declaring this flag. */
        char origin[160];
        snprintf(origin, sizeof origin, "--%s%s", negated ? "no-" : "", flag);
        int applied = 0;
        for (size_t s = 0; s < smfw_config_section_count(cli->cfg) && rc < 0; s++) {
            const smfw_setting_decl *d = smfw_config_section_decls(cli->cfg, s);
            for (size_t k = 0; d && d[k].key; k++) {
                if (!d[k].flag || strcmp(d[k].flag, flag) != 0) continue;
                const char *value = optarg;
                if (d[k].type == SMFW_SETTING_BOOL)
                    value = negated ? "false" : (optarg ? optarg : "true");
                if (smfw_config_set(cli->cfg, smfw_config_section_name(cli->cfg, s), d[k].key,
                                    value ? value : "", SMFW_SOURCE_FLAG, origin, 0,
                                    &err) != SMFW_OK)
                    rc = smfw_cli_fail(&err);
                applied = 1;
            }
        }
        (void)applied;
        if (rc >= 0) break;
    }
    if (rc < 0) { /* every reader of untrusted bundles uses these ([bundle]) */
        smfw_bundle_limits lim;
        smfw_bundle_limits_from_config(cli->cfg, &lim);
        smfw_bundle_limits_set(&lim);
    }
    for (size_t i = 0; i < n_owned; i++) free(owned[i]);
    free(owned);
    free(opts);
    free(map);
    return rc;
}

void smfw_cli_cleanup(smfw_cli *cli) {
    smfw_config_free(cli->cfg);
    smfw_registry_free(cli->reg);
    free(cli->positional);
    memset(cli, 0, sizeof *cli);
}
