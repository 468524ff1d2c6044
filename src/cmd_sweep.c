/*
 * cmd_sweep.c - `smfw sweep`: one benchmark per concurrency (or request-rate)
 * level, then the table, the knee, the cost per million output tokens and
 * the autoscaling target. Also reads saved sweeps (--from) and sets several
 * side by side (--compare-instance).
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <smfw/results_layout.h>
#include <smfw/capacity.h>
#include <smfw/log.h>
#include <smfw/untrusted.h>

#include "commands.h"

extern const smfw_command smfw_command_sweep;

typedef struct sweep_args {
    char *levels; /* --concurrency list */
    char *rates;  /* --request-rate list */
    smfw_slo *slos;
    size_t n_slos;
    double knee_gain, headroom, duty_cycle, price_per_hour;
    double slo_attainment;     /* --slo-attainment: share of good requests for the SLO knee */
    smfw_goodput_slo *goodput; /* the [run] goodput SLOs (--goodput), for the SLO knee */
    size_t n_goodput;
    const char *instance_type, *prices_file, *from, *variant;
    char **compare;
    size_t n_compare;
    long initial_warmup;
    int cloudwatch;
    double cloudwatch_wait_s;
    int pin;            /* --pin-capacity */
    int suspend;        /* --suspend-scaling */
    int price_optional; /* a type the price table lacks is shown without a cost (a plugin's
                           sweeps, measured already), not refused */
    int bad;
} sweep_args;

static const smfw_cli_option sweep_options[] = {
    {"concurrency", required_argument, 0, "LIST", "concurrency levels, e.g. 1,2,4,8,16,32,64"},
    {"request-rate", required_argument, 0, "LIST",
     "request-rate levels (requests/s) instead of concurrency, e.g. 1,2,4,8"},
    {"slo", required_argument, 0, "LIST",
     "SLOs, e.g. ttft_p95=2000ms,e2e_p95=30s,error_rate=1% (repeatable): marks the highest level "
     "meeting all"},
    {"slo-attainment", required_argument, 0, "F",
     "share of a level's requests that must meet every --goodput SLO, (0, 1] or a percentage "
     "(default 0.9): the SLO knee is the highest level up to which every level reaches it"},
    {"knee-threshold", required_argument, 0, "PCT",
     "throughput gain per doubling of load below which the curve has bent (default 10%)"},
    {"instance-type", required_argument, 0, "TYPE",
     "SageMaker instance type for the price, e.g. ml.g5.2xlarge (price from the price table)"},
    {"price-per-hour", required_argument, 0, "USD",
     "instance price in USD per hour (beats the table)"},
    {"prices", required_argument, 0, "FILE", "price table to use instead of conf/prices.conf"},
    {"duty-cycle", required_argument, 0, "F",
     "share of time the instance is really busy, (0, 1] (default 1): cost / duty cycle"},
    {"headroom", required_argument, 0, "PCT",
     "autoscaling target this far below the measured limit (default 10%)"},
    {"initial-warmup", required_argument, 0, "N",
     "throwaway requests before the first level (default 4; each level also warms up with one "
     "round of its own concurrency unless --warmup-request-count is given)"},
    {"from", required_argument, 0, "DIR", "analyse a saved sweep folder instead of running"},
    {"compare-instance", required_argument, 0, "DIR[=TYPE]",
     "saved sweeps to set side by side (repeatable; =TYPE names the instance when sweep.json "
     "does not)"},
    {"cloudwatch", no_argument, 0, NULL,
     "after the sweep, read SageMaker's CloudWatch metrics over its window (cloudwatch.md)"},
    {"cloudwatch-wait", required_argument, 0, "TIME",
     "wait this long before reading CloudWatch (it publishes 1-3 minutes late; default 0)"},
    {"variant", required_argument, 0, "NAME",
     "production variant for CloudWatch and --pin-capacity (AllTraffic)"},
    {"pin-capacity", no_argument, 0, NULL,
     "hold the scalable target at its current count for the sweep (MinCapacity = MaxCapacity), "
     "restored after it (capacity.md)"},
    {"suspend-scaling", no_argument, 0, NULL,
     "with --pin-capacity: also suspend the target's dynamic scaling (SuspendedState), the "
     "original restored after it"},
};

static int parse_fraction_pct(const char *text, double *out) {
    char *end = NULL;
    double v = strtod(text, &end);
    if (end == text || !isfinite(v) || v < 0) return -1;
    while (*end == ' ') end++;
    if (*end == '%') {
        v /= 100.0;
        end++;
    } else if (v > 1.0) {
        v /= 100.0; /* "10" means 10% */
    }
    if (*end) return -1;
    *out = v;
    return 0;
}

static int sweep_option(void *user, const char *name, const char *value) {
    sweep_args *a = user;
    smfw_error err;
    char *end = NULL;
    if (strcmp(name, "concurrency") == 0 || strcmp(name, "request-rate") == 0) {
        char **dst = name[0] == 'c' ? &a->levels : &a->rates;
        size_t n = (*dst ? strlen(*dst) + 1 : 0) + strlen(value) + 1;
        char *joined = malloc(n);
        if (!joined) return 1;
        snprintf(joined, n, "%s%s%s", *dst ? *dst : "", *dst ? "," : "", value);
        free(*dst);
        *dst = joined;
    } else if (strcmp(name, "slo") == 0) {
        if (smfw_slo_parse_list(value, &a->slos, &a->n_slos, &err) != SMFW_OK) {
            smfw_log(SMFW_LOG_ERROR, NULL, "--slo: %s", err.message);
            return 1;
        }
    } else if (strcmp(name, "knee-threshold") == 0 || strcmp(name, "headroom") == 0) {
        double v;
        if (parse_fraction_pct(value, &v) != 0 || v >= 1.0 || (name[0] == 'k' && v <= 0)) {
            smfw_log(SMFW_LOG_ERROR, NULL, "--%s wants a percentage such as 10%%, not \"%s\"", name,
                     value);
            return 1;
        }
        if (name[0] == 'k')
            a->knee_gain = v;
        else
            a->headroom = v > 0 ? v : -1; /* -1: explicitly none */
    } else if (strcmp(name, "slo-attainment") == 0) {
        /* A share: 0.9 or 90%; a bare number above 1 is refused, not read as a percentage
         * (1.5 is a typo, not 1.5%). */
        char *pe = NULL;
        double v = strtod(value, &pe);
        while (pe && *pe == ' ') pe++;
        if (pe && *pe == '%' && pe[1] == '\0') {
            v /= 100.0;
            pe++;
        }
        if (pe == value || !pe || *pe || !isfinite(v) || !(v > 0) || v > 1.0) {
            smfw_log(SMFW_LOG_ERROR, NULL,
                     "--slo-attainment wants a share in (0, 1] such as 0.9 or 90%%, not \"%s\"",
                     value);
            return 1;
        }
        a->slo_attainment = v;
    } else if (strcmp(name, "instance-type") == 0) {
        a->instance_type = value;
    } else if (strcmp(name, "price-per-hour") == 0) {
        a->price_per_hour = strtod(value, &end);
        if (end == value || *end || !(a->price_per_hour > 0) || !isfinite(a->price_per_hour)) {
            smfw_log(SMFW_LOG_ERROR, NULL, "--price-per-hour wants USD per hour, not \"%s\"",
                     value);
            return 1;
        }
    } else if (strcmp(name, "prices") == 0) {
        a->prices_file = value;
    } else if (strcmp(name, "duty-cycle") == 0) {
        a->duty_cycle = strtod(value, &end);
        if (end == value || *end || !(a->duty_cycle > 0) || a->duty_cycle > 1) {
            smfw_log(SMFW_LOG_ERROR, NULL, "--duty-cycle wants a fraction in (0, 1], not \"%s\"",
                     value);
            return 1;
        }
    } else if (strcmp(name, "initial-warmup") == 0) {
        a->initial_warmup = strtol(value, &end, 10);
        if (end == value || *end || a->initial_warmup < 0) {
            smfw_log(SMFW_LOG_ERROR, NULL, "--initial-warmup wants a count, not \"%s\"", value);
            return 1;
        }
    } else if (strcmp(name, "from") == 0) {
        a->from = value;
    } else if (strcmp(name, "compare-instance") == 0) {
        char **g = realloc(a->compare, (a->n_compare + 1) * sizeof *g);
        if (!g) return 1;
        a->compare = g;
        a->compare[a->n_compare++] = (char *)value;
    } else if (strcmp(name, "cloudwatch") == 0) {
        a->cloudwatch = 1;
    } else if (strcmp(name, "cloudwatch-wait") == 0) {
        if (smfw_parse_duration(value, &a->cloudwatch_wait_s) != 0) {
            smfw_log(SMFW_LOG_ERROR, NULL, "--cloudwatch-wait wants a duration such as 3m");
            return 1;
        }
    } else if (strcmp(name, "variant") == 0) {
        a->variant = value;
    } else if (strcmp(name, "pin-capacity") == 0) {
        a->pin = 1;
    } else if (strcmp(name, "suspend-scaling") == 0) {
        a->suspend = 1;
    }
    return 0;
}

/* Price from --price-per-hour, else --instance-type in the table (--prices or bundled). */
/* The instance's price: --price-per-hour, else the price table's entry for the type in the
 * configured region (none without a type). A type the table lacks is an error. */
static smfw_status lookup_price(const sweep_args *a, const smfw_config *cfg,
                                const char *instance_type, double *usd, char *source,
                                size_t source_size, smfw_error *err) {
    *usd = 0;
    source[0] = '\0';
    if (a->price_per_hour > 0) {
        *usd = a->price_per_hour;
        snprintf(source, source_size, "--price-per-hour");
        return SMFW_OK;
    }
    if (!instance_type) return SMFW_OK;
    char path[4096];
    if (a->prices_file)
        snprintf(path, sizeof path, "%s", a->prices_file);
    else
        smfw_price_table_default_path(path, sizeof path);
    smfw_price_table *t = NULL;
    smfw_status st = smfw_price_table_load(path, &t, err);
    if (st != SMFW_OK) return st;
    const char *region = smfw_settings_get(smfw_config_section(cfg, "aws"), "region");
    if (!region) region = getenv("AWS_REGION");
    if (!region) region = getenv("AWS_DEFAULT_REGION");
    st = smfw_price_table_lookup(t, instance_type, region, usd, err);
    if (st == SMFW_OK)
        snprintf(source, source_size, "%s, list price as of %s", path,
                 smfw_price_table_as_of(t) ? smfw_price_table_as_of(t) : "an unstated date");
    smfw_price_table_free(t);
    return st;
}

static int resolve_price(const sweep_args *a, const smfw_config *cfg, const char *instance_type,
                         double *usd, char *source, size_t source_size) {
    smfw_error err;
    if (lookup_price(a, cfg, instance_type, usd, source, source_size, &err) == SMFW_OK) return 0;
    if (!a->price_optional) {
        smfw_log(SMFW_LOG_ERROR, NULL, "%s", err.message);
        return -1;
    }
    SMFW_LOG_WARN("sweep",
                  "%s: shown without a cost per 1M output tokens (smfw sweep --from DIR "
                  "--price-per-hour USD adds one)",
                  err.message);
    return 0;
}

static void fill_options(const sweep_args *a, const smfw_run_set *s, smfw_sweep_options *o) {
    memset(o, 0, sizeof *o);
    o->knee_gain = a->knee_gain;
    o->slos = a->slos;
    o->n_slos = a->n_slos;
    o->usd_per_hour = s->usd_per_hour;
    o->duty_cycle = s->duty_cycle > 0 ? s->duty_cycle : 1.0;
    o->headroom = a->headroom;
    o->load_is_rate = smfw_run_set_is_rate(s);
    if (s->n && s->results[0]) o->max_error_rate = s->results[0]->info.max_error_rate;
    o->slo_attainment = a->slo_attainment;
    o->goodput_slos = a->goodput;
    o->n_goodput_slos = a->n_goodput;
}

/* The [run] goodput SLOs (--goodput, AIPerf's "time_to_first_token:100 ..." form). */
static int read_goodput(sweep_args *a, const smfw_config *cfg) {
    const char *const *items;
    size_t k = smfw_settings_get_list(smfw_config_section(cfg, "run"), "goodput", &items);
    smfw_error err;
    if (smfw_goodput_parse(items, k, &a->goodput, &a->n_goodput, &err) != SMFW_OK) {
        smfw_log(SMFW_LOG_ERROR, NULL, "--goodput: %s", err.message);
        return 1;
    }
    return 0;
}

/* --from DIR --goodput: the levels' goodput is computed again from their records with these
 * SLOs, as the run would have (AIPerf's rules, smfw_results_compute). A level without
 * records keeps what its aggregates say. */
static int regoodput_levels(const sweep_args *a, smfw_run_set *s) {
    if (!a->n_goodput) return 0;
    for (size_t i = 0; i < s->n; i++) {
        smfw_results *r = s->results[i];
        if (!r || !r->n_records) {
            SMFW_LOG_WARN(NULL,
                          "level %g has no records (profile_export.jsonl): its goodput is "
                          "what its aggregates say",
                          s->points[i].load);
            continue;
        }
        smfw_error err;
        if (smfw_results_compute(r, a->goodput, a->n_goodput, &err) != SMFW_OK)
            return smfw_cli_fail(&err);
        smfw_sweep_point_from_results(r, s->points[i].load, &s->points[i]);
    }
    return 0;
}

/* Analyse, have every reporter with a write_set render the sweep into write_dir, and print
 * the decision: sweep.md as the markdown reporter wrote it (one renderer for both). */
static int analyse_and_report(const smfw_cli *cli, const sweep_args *a, smfw_run_set *s,
                              const char *write_dir, int quiet) {
    smfw_sweep_options o;
    fill_options(a, s, &o);
    smfw_sweep_analysis an;
    smfw_error err;
    /* The set sorts its levels by load, results and points together. */
    if (smfw_run_set_analyze(s, &o, &an, &err) != SMFW_OK) return smfw_cli_fail(&err);
    if (smfw_reporters_write_set(cli->reg, cli->cfg, s, write_dir, &err) != SMFW_OK)
        return smfw_cli_fail(&err);
    if (!quiet) {
        char path[4200];
        snprintf(path, sizeof path, "%s/sweep.md", write_dir);
        /* None without the markdown reporter; a failure to print it is only logged, since the
         * reports are written. */
        if (access(path, F_OK) == 0 && smfw_file_append_to(stdout, path, &err) != SMFW_OK)
            SMFW_LOG_WARN("sweep", "%s", err.message);
        fprintf(stdout, "\nReports: %s/sweep.{md,csv,json,html}\n", write_dir);
    }
    return 0;
}

/* --compare-instance: several saved sweeps side by side, cheapest first. */
static int compare_instances(const sweep_args *a, const smfw_config *cfg) {
    typedef struct row {
        smfw_run_set *s;
        smfw_sweep_analysis an;
    } row;
    row *rows = calloc(a->n_compare, sizeof *rows);
    if (!rows) return 1;
    int rc = 0;
    for (size_t i = 0; i < a->n_compare && rc == 0; i++) {
        char dir[4096];
        snprintf(dir, sizeof dir, "%s", a->compare[i]);
        char *eq = strrchr(dir, '=');
        if (eq) *eq = '\0';
        smfw_error err;
        if (smfw_run_set_load_dir(dir, &rows[i].s, &err) != SMFW_OK) {
            rc = smfw_cli_fail(&err);
            break;
        }
        smfw_run_set *s = rows[i].s;
        if (eq) {
            free(s->instance_type);
            s->instance_type = strdup(eq + 1);
        }
        if (a->duty_cycle > 0) s->duty_cycle = a->duty_cycle;
        if (!(s->usd_per_hour > 0) || eq) {
            char src[512];
            sweep_args one = *a;
            one.price_per_hour = 0; /* one price for several instances makes no sense */
            if (resolve_price(&one, cfg, s->instance_type, &s->usd_per_hour, src, sizeof src))
                rc = 1;
        }
        smfw_sweep_options o;
        fill_options(a, s, &o);
        if (rc == 0 && smfw_run_set_analyze(s, &o, &rows[i].an, &err) != SMFW_OK)
            rc = smfw_cli_fail(&err);
    }
    if (rc == 0) {
        /* cheapest operating point first; unknown costs last */
        for (size_t i = 1; i < a->n_compare; i++)
            for (size_t j = i; j > 0; j--) {
                double x = rows[j].an.cost_at_operating, y = rows[j - 1].an.cost_at_operating;
                if (!(isnan(y) && !isnan(x)) && !(x < y)) break;
                row t = rows[j];
                rows[j] = rows[j - 1];
                rows[j - 1] = t;
            }
        /* The SLO knee column only when a sweep carries goodput: plain comparisons read as
         * before. */
        int goodput = 0;
        double att = a->slo_attainment > 0 ? a->slo_attainment : SMFW_SWEEP_SLO_ATTAINMENT;
        for (size_t i = 0; i < a->n_compare; i++)
            if (smfw_sweep_slo_knee(rows[i].s->points, rows[i].s->n, att) != -2) goodput = 1;
        fprintf(stdout,
                "| Instance | $/hour | Knee |%s Operating point | Output tokens/s | TTFT "
                "p95 (ms) | $/1M output tokens | Invocations/instance target | Sweep |\n"
                "|---|---:|---:|%s---:|---:|---:|---:|---:|---|\n",
                goodput ? " SLO knee |" : "", goodput ? "---:|" : "");
        for (size_t i = 0; i < a->n_compare; i++) {
            const smfw_run_set *s = rows[i].s;
            const smfw_sweep_analysis *an = &rows[i].an;
            char knee[32] = "-", op[32] = "-", tps[32] = "-", ttft[32] = "-", cost[32] = "-",
                 target[32] = "-", price[32] = "-", sk[40] = "";
            if (an->knee >= 0) snprintf(knee, sizeof knee, "%g", s->points[an->knee].load);
            if (goodput) {
                int k = smfw_sweep_slo_knee(s->points, s->n, att);
                snprintf(sk, sizeof sk, " %s |", k >= 0 ? "" : "-");
                if (k >= 0) snprintf(sk, sizeof sk, " %g |", s->points[k].load);
            }
            if (an->operating >= 0) {
                const smfw_sweep_point *p = &s->points[an->operating];
                snprintf(op, sizeof op, "%g", p->load);
                snprintf(tps, sizeof tps, "%.1f", p->output_tps);
                if (!isnan(p->ttft_p95_ms)) snprintf(ttft, sizeof ttft, "%.1f", p->ttft_p95_ms);
            }
            if (!isnan(an->cost_at_operating))
                snprintf(cost, sizeof cost, "%.3f", an->cost_at_operating);
            if (an->autoscaling.valid)
                snprintf(target, sizeof target, "%.0f", an->autoscaling.target);
            if (s->usd_per_hour > 0) snprintf(price, sizeof price, "%.4g", s->usd_per_hour);
            fprintf(stdout, "| %s | %s | %s |%s %s | %s | %s | %s | %s | `%s` |\n",
                    s->instance_type ? s->instance_type : "?", price, knee, sk, op, tps, ttft, cost,
                    target, s->dir);
        }
        fprintf(stdout, "\nCosts at each sweep's operating point (the knee, or the highest level "
                        "within the SLOs), duty cycle as recorded or given.\n");
        if (goodput)
            fprintf(stdout,
                    "SLO knee: the highest level up to which every level keeps %g%% of its "
                    "requests within the goodput SLOs (--slo-attainment).\n",
                    att * 100);
    }
    for (size_t i = 0; i < a->n_compare; i++) smfw_run_set_free(rows[i].s);
    free(rows);
    return rc;
}

/* ---- for a command plugin (command_services.c) ---------------------------------------- */

/* The options' defaults and the [run] goodput SLOs, as `smfw sweep` starts from; a type
 * without a price is shown without a cost. */
static int default_args(sweep_args *a, const smfw_config *cfg) {
    memset(a, 0, sizeof *a);
    a->initial_warmup = 4;
    a->price_optional = 1; /* the levels were measured already */
    return read_goodput(a, cfg);
}

int smfw_sweep_present(const smfw_cli *cli, smfw_run_set *s, const char *instance_type, int quiet) {
    sweep_args a;
    int rc = default_args(&a, cli->cfg);
    if (rc == 0 && instance_type) {
        free(s->instance_type);
        s->instance_type = strdup(instance_type);
        char src[512];
        rc = resolve_price(&a, cli->cfg, instance_type, &s->usd_per_hour, src, sizeof src);
    }
    if (rc == 0) rc = analyse_and_report(cli, &a, s, s->dir, quiet);
    free(a.goodput);
    return rc;
}

smfw_status smfw_sweep_instance_price(const smfw_cli *cli, const char *instance_type, double *usd,
                                      char *source, size_t source_size, smfw_error *err) {
    sweep_args a;
    memset(&a, 0, sizeof a);
    return lookup_price(&a, cli->cfg, instance_type, usd, source, source_size, err);
}

int smfw_sweep_compare(const smfw_cli *cli, const char *const *specs, size_t n) {
    sweep_args a;
    int rc = default_args(&a, cli->cfg);
    a.compare = (char **)specs; /* read only */
    a.n_compare = n;
    if (rc == 0) rc = compare_instances(&a, cli->cfg);
    free(a.goodput);
    return rc;
}

/* What the program prints around each level the library runs (smfw_sweep_execute). */
typedef struct level_printer {
    int verbosity, is_rate;
} level_printer;

static void level_started(void *user, const smfw_sweep_level_event *ev) {
    const level_printer *lp = user;
    if (lp->verbosity >= 0)
        fprintf(stdout, "== %s %s (%ld warm-up requests) -> %s\n",
                lp->is_rate ? "request rate" : "concurrency", ev->value, ev->warmup_requests,
                ev->dir);
    fflush(stdout);
}

static void level_ended(void *user, const smfw_sweep_level_event *ev) {
    const level_printer *lp = user;
    smfw_cli_progress_end();
    if (!ev->results || lp->verbosity < 0) return;
    char title[128];
    snprintf(title, sizeof title, "Results at %s %s", lp->is_rate ? "request rate" : "concurrency",
             ev->value);
    smfw_run_summary_options so = {0};
    so.title = title;
    so.status = ev->status;
    so.results_dir = ev->dir;
    smfw_run_summary_print(stdout, ev->results, &so);
    if (ev->partial)
        fprintf(stdout,
                "  partial: interrupted after %zu requests; kept in %s, left out of the "
                "analysis\n",
                smfw_results_record_count(ev->results), ev->dir);
}

static int run_sweep(sweep_args *a, smfw_cli *cli) {
    smfw_config *cfg = cli->cfg;
    const smfw_settings *prog = smfw_config_section(cfg, "smfw");
    const smfw_settings *run = smfw_config_section(cfg, "run");
    int is_rate = a->rates != NULL;
    const char *list = is_rate ? a->rates : a->levels;
    char *from_config = NULL;
    if (!list) {
        const char *const *items;
        size_t k = smfw_settings_get_list(run, "concurrency", &items);
        if (k > 1) {
            size_t n = 0;
            for (size_t i = 0; i < k; i++) n += strlen(items[i]) + 1;
            from_config = calloc(n + 1, 1);
            for (size_t i = 0; from_config && i < k; i++) {
                if (i) strcat(from_config, ",");
                strcat(from_config, items[i]);
            }
            list = from_config;
        }
    }
    if (!list) {
        smfw_log(SMFW_LOG_ERROR, NULL,
                 "smfw sweep needs levels: --concurrency 1,2,4,8,16,32,64 or --request-rate "
                 "1,2,4 (or --from DIR for a saved sweep)");
        return 1;
    }
    if (a->levels && a->rates) {
        smfw_log(SMFW_LOG_ERROR, NULL, "give --concurrency or --request-rate levels, not both");
        free(from_config);
        return 1;
    }
    /* Parse and check the levels. */
    double levels[256];
    size_t n = 0;
    char *copy = strdup(list), *save = NULL;
    int bad = !copy;
    for (char *t = copy ? strtok_r(copy, ",", &save) : NULL; t && !bad;
         t = strtok_r(NULL, ",", &save)) {
        char *end = NULL;
        double v = strtod(t, &end);
        while (end && *end == ' ') end++;
        if (end == t || *end || !(v > 0) || !isfinite(v) || n == 256 ||
            (!is_rate && v != floor(v))) {
            smfw_log(SMFW_LOG_ERROR, NULL, "sweep level \"%s\" is not a positive %s", t,
                     is_rate ? "rate" : "integer concurrency");
            bad = 1;
        } else {
            for (size_t i = 0; i < n; i++)
                if (levels[i] == v) {
                    smfw_log(SMFW_LOG_ERROR, NULL, "sweep level %g is listed twice", v);
                    bad = 1;
                }
            levels[n++] = v;
        }
    }
    free(copy);
    free(from_config);
    if (bad) return 1;
    /* Sweep folder. */
    char sweep_name[256];
    {
        const char *target = smfw_settings_get(run, "endpoint");
        if (!target) {
            char sec[160];
            snprintf(sec, sizeof sec, "backend.%s", smfw_settings_get(prog, "backend"));
            target = smfw_settings_get(smfw_config_section(cfg, sec), "url") ? "url" : "run";
        }
        time_t now = time(NULL);
        struct tm tm;
        gmtime_r(&now, &tm);
        char ts[32];
        strftime(ts, sizeof ts, "%Y%m%dT%H%M%SZ", &tm);
        const char *given = smfw_settings_get(prog, "run_name");
        if (given && *given)
            snprintf(sweep_name, sizeof sweep_name, "%s", given); /* --run-name names the sweep */
        else
            snprintf(sweep_name, sizeof sweep_name, "sweep-%s-%s", target, ts);
        for (char *p = sweep_name; *p; p++)
            if (!((*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') ||
                  (*p >= '0' && *p <= '9') || *p == '-' || *p == '_' || *p == '.'))
                *p = '-';
    }
    char *sweep_dir = NULL;
    int pinned = 0; /* --pin-capacity holds the target: unpinned at every exit below */
    smfw_error err;
    smfw_error_clear(&err);
    /* A backend that runs the whole list itself (the managed backend: one job) gets it in one
     * run; a dry run of a backend that honours it sends no load. Asked before any folder. */
    int runs_levels = 0, honours_dry_run = 0;
    if (smfw_backend_ask(cli->reg, cfg, SMFW_BACKEND_CTL_RUNS_LEVELS, &runs_levels, &err) !=
            SMFW_OK ||
        smfw_backend_ask(cli->reg, cfg, SMFW_BACKEND_CTL_HONOURS_DRY_RUN, &honours_dry_run, &err) !=
            SMFW_OK)
        return smfw_cli_fail(&err);
    int dry_run = honours_dry_run && !smfw_settings_get_bool(prog, "run", 0);
    if (runs_levels && is_rate) {
        smfw_log(SMFW_LOG_ERROR, NULL,
                 "the %s backend runs concurrency lists only; use --concurrency",
                 smfw_settings_get(prog, "backend"));
        return 1;
    }
    if (smfw_output_dir_create(smfw_settings_get(prog, "results_dir"), sweep_name,
                               smfw_settings_get(prog, "output"), &sweep_dir, &err) != SMFW_OK)
        return smfw_cli_fail(&err);
    smfw_run_set *s = smfw_run_set_new(is_rate ? "request_rate" : "concurrency", sweep_dir);
    if (!s) {
        free(sweep_dir);
        smfw_log(SMFW_LOG_ERROR, NULL, "out of memory");
        return 1;
    }
    s->instance_type = a->instance_type ? strdup(a->instance_type) : NULL;
    s->duty_cycle = a->duty_cycle > 0 ? a->duty_cycle : 1.0;
    char price_src[512];
    int rc = resolve_price(a, cfg, a->instance_type, &s->usd_per_hour, price_src, sizeof price_src);
    if (rc != 0) goto out;
    if (s->usd_per_hour > 0 && cli->verbosity >= 0)
        fprintf(stdout, "Price: $%.4g per instance-hour (%s)\n", s->usd_per_hour, price_src);

    smfw_cli_progress_setup(cfg, cli->verbosity);
    smfw_run_options opts;
    memset(&opts, 0, sizeof opts);
    opts.size = sizeof opts;
    opts.cancel = smfw_cli_install_cancel_handler();
    opts.progress = smfw_cli_progress;
    if (a->pin && !dry_run) { /* a dry run sends no load: nothing to pin */
        if ((rc = smfw_cli_pin_capacity(cli, a->variant, "pin", a->suspend)) != 0) goto out;
        pinned = 1;
    }
    int64_t t_start = smfw_now_wall_ns(), sent = 0;
    if (runs_levels) {
        /* One run with the whole concurrency list; its levels land in concurrency_<N>/. */
        if (smfw_config_override(cfg, "run", "concurrency", list, "smfw sweep (levels)", &err) !=
            SMFW_OK) {
            rc = smfw_cli_fail(&err);
            goto out;
        }
        smfw_results *r = NULL;
        char *dir = NULL;
        opts.output_dir = sweep_dir;
        smfw_status st = smfw_run_execute(cli->reg, cfg, &opts, &r, &dir, &err);
        smfw_cli_progress_end();
        smfw_results_free(r);
        free(dir);
        if (st != SMFW_OK && st != SMFW_ERR_VALIDITY) {
            rc = smfw_cli_fail(&err);
            goto out;
        }
        if (dry_run) {
            rc = 0; /* the backend printed its plan */
            goto out;
        }
        smfw_run_set *loaded = NULL;
        if (smfw_run_set_load_dir(sweep_dir, &loaded, &err) != SMFW_OK) {
            rc = smfw_cli_fail(&err);
            goto out;
        }
        free(loaded->instance_type);
        loaded->instance_type = s->instance_type ? strdup(s->instance_type) : NULL;
        loaded->usd_per_hour = s->usd_per_hour;
        loaded->duty_cycle = s->duty_cycle;
        smfw_run_set_free(s);
        s = loaded;
    } else {
        level_printer lp = {cli->verbosity, is_rate};
        smfw_sweep_plan plan = {sizeof plan,       is_rate,       levels,      n,  sweep_name,
                                a->initial_warmup, level_started, level_ended, &lp};
        smfw_status st = smfw_sweep_execute(cli->reg, cfg, &plan, &opts, s, &sent, &err);
        if (st == SMFW_ERR_CANCELLED) {
            rc = 130;
        } else if (st != SMFW_OK) {
            rc = smfw_cli_fail(&err);
            if (!smfw_run_set_count(s)) goto out;
        }
    }
    /* Right after the load (Ctrl-C included), before the analysis. */
    if (pinned) {
        pinned = 0;
        int urc = smfw_cli_pin_capacity(cli, a->variant, "unpin", 0);
        if (urc && !rc) rc = urc;
    }
    if (!s->n) {
        smfw_log(SMFW_LOG_ERROR, NULL, "no level produced results");
        rc = rc ? rc : 1;
        goto out;
    }
    if (cli->verbosity >= 0) fputc('\n', stdout);
    {
        int arc = analyse_and_report(cli, a, s, sweep_dir, cli->verbosity < 0);
        if (arc && !rc) rc = arc;
    }
    if (a->cloudwatch)
        smfw_cli_cloudwatch(cli, a->variant, a->cloudwatch_wait_s, sweep_dir, t_start,
                            smfw_now_wall_ns(), runs_levels ? -1 : sent, cli->verbosity < 0);
    if (rc != 130) smfw_cli_endpoint_cost(cli);
out:
    if (pinned) {
        int urc = smfw_cli_pin_capacity(cli, a->variant, "unpin", 0);
        if (urc && !rc) rc = urc;
    }
    smfw_run_set_free(s);
    free(sweep_dir);
    return rc;
}

static int sweep_main(int argc, char **argv) {
    sweep_args a;
    memset(&a, 0, sizeof a);
    a.initial_warmup = 4;
    smfw_cli cli;
    int rc =
        smfw_cli_setup(&smfw_command_sweep, argc, argv, sweep_options,
                       sizeof sweep_options / sizeof sweep_options[0], sweep_option, &a, 1, &cli);
    if (rc < 0 && read_goodput(&a, cli.cfg) != 0) rc = 1;
    if (rc < 0) {
        if (cli.n_positional) {
            smfw_log(SMFW_LOG_ERROR, NULL, "unexpected argument \"%s\" (see `smfw sweep --help`)",
                     cli.positional[0]);
            rc = 1;
        } else if (smfw_cli_pin_flags_check(a.pin, a.suspend) != 0) {
            rc = 1;
        } else if (a.n_compare) {
            rc = compare_instances(&a, cli.cfg);
        } else if (a.from) {
            smfw_run_set *s = NULL;
            smfw_error err;
            if (smfw_run_set_load_dir(a.from, &s, &err) != SMFW_OK) {
                rc = smfw_cli_fail(&err);
            } else {
                char src[512];
                if (a.instance_type) {
                    free(s->instance_type);
                    s->instance_type = strdup(a.instance_type);
                }
                if (a.duty_cycle > 0) s->duty_cycle = a.duty_cycle;
                rc = 0;
                if (a.instance_type || a.price_per_hour > 0)
                    rc = resolve_price(&a, cli.cfg, s->instance_type, &s->usd_per_hour, src,
                                       sizeof src);
                if (rc == 0) rc = regoodput_levels(&a, s);
                if (rc == 0) rc = analyse_and_report(&cli, &a, s, a.from, cli.verbosity < 0);
                smfw_run_set_free(s);
            }
        } else if (!a.cloudwatch || smfw_cli_cloudwatch_check(&cli) == 0) {
            rc = run_sweep(&a, &cli);
        } else {
            rc = 1;
        }
    }
    free(a.levels);
    free(a.rates);
    free(a.slos);
    free(a.goodput);
    free(a.compare);
    smfw_cli_cleanup(&cli);
    return rc;
}

const smfw_command smfw_command_sweep = {
    "sweep", "benchmark at several concurrency levels: knee, cost per 1M tokens, autoscaling",
    "Usage: smfw sweep --concurrency 1,2,4,8,16,32,64 [run options] [sweep options]\n"
    "       smfw sweep --request-rate 1,2,4,8 [run options] [sweep options]\n"
    "       smfw sweep --from DIR [sweep options]             (analyse a saved sweep)\n"
    "       smfw sweep --compare-instance DIR[=TYPE] ...      (saved sweeps side by side)\n\n"
    "Runs one benchmark per level (direct backend: one after the other with a warm-up per\n"
    "level; managed backend: one job with the concurrency list) into DIR/concurrency_<N>/,\n"
    "then prints and writes (sweep.md, .csv, .json, .html) a table per level: TTFT p50/p95,\n"
    "ITL p50, e2e p95, output tokens/s, requests/s, errors and a verdict (idle, healthy,\n"
    "knee, queueing, saturated). The knee is the level after which throughput gains fall\n"
    "below --knee-threshold per doubling while TTFT keeps rising; --slo marks the highest\n"
    "level meeting every SLO. With --goodput SLOs (AIPerf's form, e.g.\n"
    "\"time_to_first_token:500 inter_token_latency:40\") each level shows its goodput and\n"
    "good share (AIPerf's good_request_fraction, over valid and failed requests), and the\n"
    "SLO knee is the highest level up to which every level keeps at least --slo-attainment\n"
    "(0.9) of its requests within every SLO; the output says whether it lies below, at or\n"
    "above the throughput knee. With --instance-type (price table conf/prices.conf, or\n"
    "--prices FILE) or --price-per-hour: cost per 1M output tokens = $/hour / (tokens/s x\n"
    "duty cycle) x 1e6 / 3600. From the operating point (the knee, lowered to the SLO level\n"
    "when that binds first): the SageMakerVariantInvocationsPerInstance target. Pin\n"
    "MinCapacity = MaxCapacity while sweeping. See docs/capacity.md.",
    sweep_main};
