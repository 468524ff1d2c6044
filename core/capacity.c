/*
 * capacity.c - metric references, SLOs, cost per million tokens, the knee of
 * a sweep and the autoscaling target (see include/smfw/capacity.h and
 * docs/capacity.md for the rules).
 */
#include <ctype.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <smfw/results_layout.h>
#include <smfw/capacity.h>

/* ---- metric references --------------------------------------------------- */

typedef struct ref_alias {
    const char *name;
    int metric;
} ref_alias;

static const ref_alias ref_aliases[] = {
    {"ttft", SMFW_M_TIME_TO_FIRST_TOKEN},
    {"ttst", SMFW_M_TIME_TO_SECOND_TOKEN},
    {"ttfo", SMFW_M_TIME_TO_FIRST_OUTPUT_TOKEN},
    {"itl", SMFW_M_INTER_TOKEN_LATENCY},
    {"icl", SMFW_M_INTER_CHUNK_LATENCY},
    {"e2e", SMFW_M_REQUEST_LATENCY},
    {"latency", SMFW_M_REQUEST_LATENCY},
    {"tps", SMFW_M_OUTPUT_TOKEN_THROUGHPUT},
    {"throughput", SMFW_M_OUTPUT_TOKEN_THROUGHPUT},
    {"rps", SMFW_M_REQUEST_THROUGHPUT},
    {"tps_per_user", SMFW_M_OUTPUT_TOKEN_THROUGHPUT_PER_USER},
    {"osl", SMFW_M_OUTPUT_SEQUENCE_LENGTH},
    {"isl", SMFW_M_INPUT_SEQUENCE_LENGTH},
    {"errors", SMFW_METRIC_REF_ERROR_RATE},
    {"error_rate", SMFW_METRIC_REF_ERROR_RATE},
};

static const struct {
    int metric;
    const char *label;
} short_labels[] = {
    {SMFW_M_TIME_TO_FIRST_TOKEN, "TTFT"},
    {SMFW_M_TIME_TO_SECOND_TOKEN, "TTST"},
    {SMFW_M_TIME_TO_FIRST_OUTPUT_TOKEN, "TTFO"},
    {SMFW_M_INTER_TOKEN_LATENCY, "ITL"},
    {SMFW_M_INTER_CHUNK_LATENCY, "ICL"},
    {SMFW_M_REQUEST_LATENCY, "E2E latency"},
    {SMFW_M_OUTPUT_TOKEN_THROUGHPUT, "Output tokens/s"},
    {SMFW_M_REQUEST_THROUGHPUT, "Requests/s"},
    {SMFW_M_OUTPUT_TOKEN_THROUGHPUT_PER_USER, "Tokens/s/user"},
    {SMFW_METRIC_REF_ERROR_RATE, "Error rate"},
};

static int lookup_metric_name(const char *name) {
    for (size_t i = 0; i < sizeof ref_aliases / sizeof ref_aliases[0]; i++)
        if (strcmp(ref_aliases[i].name, name) == 0) return ref_aliases[i].metric;
    int id = smfw_metric_find(name);
    return id >= 0 ? id : -1;
}

static int parse_stat(const char *s, smfw_stat_ref *out) {
    if (strcmp(s, "avg") == 0 || strcmp(s, "mean") == 0)
        *out = SMFW_STAT_REF_AVG;
    else if (strcmp(s, "min") == 0)
        *out = SMFW_STAT_REF_MIN;
    else if (strcmp(s, "max") == 0)
        *out = SMFW_STAT_REF_MAX;
    else if (strcmp(s, "std") == 0)
        *out = SMFW_STAT_REF_STD;
    else {
        for (int i = 0; i < SMFW_PERCENTILE_COUNT; i++)
            if (strcmp(s, smfw_percentile_keys[i]) == 0) {
                *out = (smfw_stat_ref)i;
                return 1;
            }
        return 0;
    }
    return 1;
}

static const char *stat_name(smfw_stat_ref s) {
    switch (s) {
    case SMFW_STAT_REF_AVG:
        return "avg";
    case SMFW_STAT_REF_MIN:
        return "min";
    case SMFW_STAT_REF_MAX:
        return "max";
    case SMFW_STAT_REF_STD:
        return "std";
    default:
        if ((int)s >= 0 && (int)s < SMFW_PERCENTILE_COUNT) return smfw_percentile_keys[s];
        return "?";
    }
}

static int metric_has_distribution(int metric) {
    if (metric < 0) return 0;
    const smfw_metric_info *mi = smfw_metric_get((smfw_metric_id)metric);
    return mi && (mi->kind == SMFW_METRIC_RECORD || mi->kind == SMFW_METRIC_ERROR_RECORD);
}

smfw_status smfw_metric_ref_parse(const char *text, smfw_metric_ref *out, smfw_error *err) {
    char buf[160];
    size_t len = text ? strlen(text) : 0;
    while (len && isspace((unsigned char)text[len - 1])) len--;
    while (len && isspace((unsigned char)*text)) text++, len--;
    if (!len || len >= sizeof buf)
        return smfw_error_set(err, SMFW_ERR_USAGE, "empty or overlong metric name \"%s\"",
                              text ? text : "");
    for (size_t i = 0; i < len; i++) buf[i] = (char)tolower((unsigned char)text[i]);
    buf[len] = '\0';
    int metric = lookup_metric_name(buf);
    smfw_stat_ref stat = SMFW_STAT_REF_AVG;
    if (metric == -1) {
        char *sep = NULL;
        for (char *p = buf + len; p > buf; p--)
            if (p[-1] == '_' || p[-1] == ':' || p[-1] == '.') {
                sep = p - 1;
                break;
            }
        if (!sep || !parse_stat(sep + 1, &stat))
            return smfw_error_set(
                err, SMFW_ERR_USAGE,
                "unknown metric \"%s\" (use an AIPerf tag or ttft, itl, e2e, "
                "tps, rps, error_rate, optionally with _avg, _p50, _p95, _p99...)",
                buf);
        *sep = '\0';
        metric = lookup_metric_name(buf);
        if (metric == -1)
            return smfw_error_set(err, SMFW_ERR_USAGE,
                                  "unknown metric \"%s\" in \"%.*s\" (use an AIPerf tag or ttft, "
                                  "itl, e2e, tps, rps, error_rate)",
                                  buf, (int)len, text);
        if (stat != SMFW_STAT_REF_AVG && !metric_has_distribution(metric))
            return smfw_error_set(err, SMFW_ERR_USAGE,
                                  "\"%.*s\": %s is a single value per run; it has no %s", (int)len,
                                  text, buf, stat_name(stat));
    }
    out->metric = metric;
    out->stat = stat;
    return SMFW_OK;
}

const char *smfw_metric_ref_name(const smfw_metric_ref *ref, char *buf, size_t size) {
    if (ref->metric == SMFW_METRIC_REF_ERROR_RATE) {
        snprintf(buf, size, "error_rate");
        return buf;
    }
    const smfw_metric_info *mi = smfw_metric_get((smfw_metric_id)ref->metric);
    if (!mi)
        snprintf(buf, size, "?");
    else if (!metric_has_distribution(ref->metric))
        snprintf(buf, size, "%s", mi->tag);
    else
        snprintf(buf, size, "%s_%s", mi->tag, stat_name(ref->stat));
    return buf;
}

const char *smfw_metric_ref_label(const smfw_metric_ref *ref, char *buf, size_t size) {
    const char *base = NULL;
    for (size_t i = 0; i < sizeof short_labels / sizeof short_labels[0]; i++)
        if (short_labels[i].metric == ref->metric) base = short_labels[i].label;
    const smfw_metric_info *mi =
        ref->metric >= 0 ? smfw_metric_get((smfw_metric_id)ref->metric) : NULL;
    if (!base) base = mi ? mi->header : "?";
    if (metric_has_distribution(ref->metric))
        snprintf(buf, size, "%s %s", base, stat_name(ref->stat));
    else
        snprintf(buf, size, "%s", base);
    return buf;
}

const char *smfw_metric_ref_unit(const smfw_metric_ref *ref) {
    if (ref->metric == SMFW_METRIC_REF_ERROR_RATE) return "fraction";
    const smfw_metric_info *mi = smfw_metric_get((smfw_metric_id)ref->metric);
    return mi ? mi->display_unit : "";
}

int smfw_metric_ref_larger_is_better(const smfw_metric_ref *ref) {
    if (ref->metric == SMFW_METRIC_REF_ERROR_RATE) return 0;
    const smfw_metric_info *mi = smfw_metric_get((smfw_metric_id)ref->metric);
    if (!mi) return 0;
    /* The spread of a distribution is better small, whatever the metric. */
    if (ref->stat == SMFW_STAT_REF_STD) return 0;
    return mi->larger_is_better;
}

int smfw_metric_ref_value(const smfw_results *r, const smfw_metric_ref *ref, double *value) {
    if (ref->metric == SMFW_METRIC_REF_ERROR_RATE) {
        if (!r->n_records && !r->stats[SMFW_M_REQUEST_COUNT].present &&
            !r->stats[SMFW_M_ERROR_REQUEST_COUNT].present)
            return 0;
        *value = smfw_results_error_rate(r);
        return 1;
    }
    if (ref->metric < 0 || ref->metric >= SMFW_M_COUNT_) return 0;
    const smfw_stats *s = &r->stats[ref->metric];
    if (!s->present) return 0;
    unsigned bit;
    double v;
    switch (ref->stat) {
    case SMFW_STAT_REF_AVG:
        bit = SMFW_STAT_AVG, v = s->avg;
        break;
    case SMFW_STAT_REF_MIN:
        bit = SMFW_STAT_MIN, v = s->min;
        break;
    case SMFW_STAT_REF_MAX:
        bit = SMFW_STAT_MAX, v = s->max;
        break;
    case SMFW_STAT_REF_STD:
        bit = SMFW_STAT_STD, v = s->std;
        break;
    default:
        if ((int)ref->stat < 0 || (int)ref->stat >= SMFW_PERCENTILE_COUNT) return 0;
        bit = SMFW_STAT_P_FIRST << ref->stat;
        v = s->p[ref->stat];
    }
    /* Files of old AIPerf builds do not say which fields they hold: trust a non-NaN value. */
    if (s->fields && !(s->fields & bit)) return 0;
    if (isnan(v)) return 0;
    *value = v;
    return 1;
}

/* ---- SLOs ------------------------------------------------------------------- */

static smfw_status parse_slo_value(const smfw_metric_ref *ref, const char *text, double *out,
                                   smfw_error *err) {
    char *end = NULL;
    double v = strtod(text, &end);
    if (end == text || !isfinite(v) || v < 0)
        return smfw_error_set(err, SMFW_ERR_USAGE, "SLO value \"%s\" is not a number", text);
    while (*end == ' ') end++;
    const char *unit = smfw_metric_ref_unit(ref);
    if (ref->metric == SMFW_METRIC_REF_ERROR_RATE) {
        if (strcmp(end, "%") == 0)
            v /= 100.0;
        else if (*end || v > 1.0)
            return smfw_error_set(err, SMFW_ERR_USAGE,
                                  "error_rate SLO \"%s\": give a fraction (0.01) or a percentage "
                                  "(1%%)",
                                  text);
    } else if (strcmp(unit, "ms") == 0) {
        if (!*end || strcmp(end, "ms") == 0) {
        } else if (strcmp(end, "us") == 0)
            v /= 1000.0;
        else if (strcmp(end, "s") == 0)
            v *= 1000.0;
        else if (strcmp(end, "m") == 0 || strcmp(end, "min") == 0)
            v *= 60000.0;
        else
            return smfw_error_set(err, SMFW_ERR_USAGE,
                                  "SLO value \"%s\": unknown time unit \"%s\" (us, ms, s, m)", text,
                                  end);
    } else if (*end) {
        return smfw_error_set(err, SMFW_ERR_USAGE, "SLO value \"%s\": give a plain number in %s",
                              text, unit);
    }
    *out = v;
    return SMFW_OK;
}

static smfw_status parse_one_slo(const char *item, smfw_slo *out, smfw_error *err) {
    const char *op = NULL;
    size_t op_len = 0;
    int want_min = -1; /* -1: no explicit direction */
    if ((op = strstr(item, "<=")))
        op_len = 2, want_min = 0;
    else if ((op = strstr(item, ">=")))
        op_len = 2, want_min = 1;
    else if ((op = strchr(item, '=')))
        op_len = 1;
    else if ((op = strrchr(item, ':')))
        op_len = 1;
    if (!op)
        return smfw_error_set(err, SMFW_ERR_USAGE,
                              "SLO \"%s\": expected NAME=VALUE, e.g. ttft_p95=2000ms", item);
    char name[160];
    size_t nlen = (size_t)(op - item);
    if (nlen >= sizeof name)
        return smfw_error_set(err, SMFW_ERR_USAGE, "SLO \"%s\": name too long", item);
    memcpy(name, item, nlen);
    name[nlen] = '\0';
    smfw_status st = smfw_metric_ref_parse(name, &out->ref, err);
    if (st != SMFW_OK) return smfw_error_prefix(err, "SLO \"%s\": ", item);
    const char *value = op + op_len;
    while (*value == ' ') value++;
    st = parse_slo_value(&out->ref, value, &out->threshold, err);
    if (st != SMFW_OK) return st;
    int larger = smfw_metric_ref_larger_is_better(&out->ref);
    if (want_min >= 0 && want_min != larger)
        return smfw_error_set(err, SMFW_ERR_USAGE,
                              "SLO \"%s\": %s is %s-is-better, so its SLO is a %s (write %s)", item,
                              name, larger ? "larger" : "smaller", larger ? "minimum" : "maximum",
                              larger ? ">= or =" : "<= or =");
    return SMFW_OK;
}

smfw_status smfw_slo_parse_list(const char *text, smfw_slo **slos, size_t *n, smfw_error *err) {
    char *copy = strdup(text ? text : "");
    if (!copy) return smfw_error_set(err, SMFW_ERR_NOMEM, "out of memory");
    smfw_status st = SMFW_OK;
    char *save = NULL;
    for (char *tok = strtok_r(copy, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
        while (*tok == ' ') tok++;
        if (!*tok) continue;
        smfw_slo one;
        st = parse_one_slo(tok, &one, err);
        if (st != SMFW_OK) break;
        smfw_slo *grown = realloc(*slos, (*n + 1) * sizeof *grown);
        if (!grown) {
            st = smfw_error_set(err, SMFW_ERR_NOMEM, "out of memory");
            break;
        }
        *slos = grown;
        (*slos)[(*n)++] = one;
    }
    free(copy);
    return st;
}

int smfw_slo_check(const smfw_results *r, const smfw_slo *slos, size_t n, char *failed,
                   size_t failed_size) {
    if (failed && failed_size) failed[0] = '\0';
    for (size_t i = 0; i < n; i++) {
        double v;
        char name[96];
        int larger = smfw_metric_ref_larger_is_better(&slos[i].ref);
        if (!smfw_metric_ref_value(r, &slos[i].ref, &v)) {
            if (failed)
                snprintf(failed, failed_size, "%s not measured",
                         smfw_metric_ref_name(&slos[i].ref, name, sizeof name));
            return 0;
        }
        if (larger ? v < slos[i].threshold : v > slos[i].threshold) {
            if (failed)
                snprintf(failed, failed_size, "%s %.6g %s %.6g",
                         smfw_metric_ref_name(&slos[i].ref, name, sizeof name), v,
                         larger ? "<" : ">", slos[i].threshold);
            return 0;
        }
    }
    return 1;
}

/* ---- cost and autoscaling ------------------------------------------------------ */

double smfw_cost_per_million_tokens(double usd_per_hour, double tokens_per_s, double duty_cycle) {
    if (!(usd_per_hour > 0) || !(tokens_per_s > 0) || !(duty_cycle > 0) || duty_cycle > 1.0 ||
        !isfinite(usd_per_hour) || !isfinite(tokens_per_s))
        return NAN;
    return usd_per_hour / (tokens_per_s * duty_cycle) * 1e6 / 3600.0;
}

void smfw_autoscaling_compute(double concurrency, double mean_duration_s, double headroom,
                              smfw_autoscaling *out) {
    memset(out, 0, sizeof *out);
    if (!(headroom >= 0)) headroom = 0;
    if (headroom > 0.9) headroom = 0.9;
    out->headroom = headroom;
    out->concurrency = concurrency;
    out->mean_duration_s = mean_duration_s;
    if (!(concurrency > 0) || !(mean_duration_s > 0) || !isfinite(concurrency) ||
        !isfinite(mean_duration_s))
        return;
    out->invocations_per_minute = concurrency * 60.0 / mean_duration_s;
    /* The small epsilon keeps 120 * 0.9 = 108 from flooring to 107 through rounding. */
    out->target = floor(out->invocations_per_minute * (1.0 - headroom) + 1e-9);
    if (out->target < 1) out->target = 1;
    out->valid = 1;
}

/* ---- sweeps ---------------------------------------------------------------- */

const char *smfw_sweep_verdict_name(smfw_sweep_verdict v) {
    switch (v) {
    case SMFW_VERDICT_IDLE:
        return "idle";
    case SMFW_VERDICT_HEALTHY:
        return "healthy";
    case SMFW_VERDICT_KNEE:
        return "knee";
    case SMFW_VERDICT_QUEUEING:
        return "queueing";
    case SMFW_VERDICT_SATURATED:
        return "saturated";
    default:
        return "unknown";
    }
}

static double stat_or_nan(const smfw_results *r, smfw_metric_id id, smfw_stat_ref stat) {
    smfw_metric_ref ref = {id, stat};
    double v;
    return smfw_metric_ref_value(r, &ref, &v) ? v : NAN;
}

void smfw_sweep_point_from_results(const smfw_results *r, double load, smfw_sweep_point *p) {
    memset(p, 0, sizeof *p);
    p->load = load;
    p->results = r;
    p->ttft_p50_ms = stat_or_nan(r, SMFW_M_TIME_TO_FIRST_TOKEN, SMFW_STAT_REF_P50);
    p->ttft_p95_ms = stat_or_nan(r, SMFW_M_TIME_TO_FIRST_TOKEN, SMFW_STAT_REF_P95);
    p->itl_p50_ms = stat_or_nan(r, SMFW_M_INTER_TOKEN_LATENCY, SMFW_STAT_REF_P50);
    p->e2e_avg_ms = stat_or_nan(r, SMFW_M_REQUEST_LATENCY, SMFW_STAT_REF_AVG);
    p->e2e_p50_ms = stat_or_nan(r, SMFW_M_REQUEST_LATENCY, SMFW_STAT_REF_P50);
    p->e2e_p95_ms = stat_or_nan(r, SMFW_M_REQUEST_LATENCY, SMFW_STAT_REF_P95);
    p->output_tps = stat_or_nan(r, SMFW_M_OUTPUT_TOKEN_THROUGHPUT, SMFW_STAT_REF_AVG);
    p->request_tps = stat_or_nan(r, SMFW_M_REQUEST_THROUGHPUT, SMFW_STAT_REF_AVG);
    double valid = stat_or_nan(r, SMFW_M_REQUEST_COUNT, SMFW_STAT_REF_AVG);
    double errors = stat_or_nan(r, SMFW_M_ERROR_REQUEST_COUNT, SMFW_STAT_REF_AVG);
    p->requests = isnan(valid) ? 0 : (uint64_t)llround(valid);
    p->errors = isnan(errors) ? 0 : (uint64_t)llround(errors);
    p->gain_per_doubling = NAN;
    p->cost_per_mtok = NAN;
    p->meets_slo = -1;
}

double smfw_gain_per_doubling(double load_a, double tps_a, double load_b, double tps_b) {
    if (!(load_a > 0) || !(load_b > load_a) || !(tps_a > 0) || !(tps_b >= 0)) return NAN;
    double doublings = log2(load_b / load_a);
    if (!(doublings > 0)) return NAN;
    return pow(tps_b / tps_a, 1.0 / doublings) - 1.0;
}

static int cmp_point(const void *a, const void *b) {
    double x = ((const smfw_sweep_point *)a)->load, y = ((const smfw_sweep_point *)b)->load;
    return x < y ? -1 : x > y;
}

static double error_fraction(const smfw_sweep_point *p) {
    uint64_t all = p->requests + p->errors;
    return all ? (double)p->errors / (double)all : 0.0;
}

/* TTFT p95 when both levels have it (streaming), else e2e p95. */
static int latency_rises(const smfw_sweep_point *a, const smfw_sweep_point *b) {
    if (!isnan(a->ttft_p95_ms) && !isnan(b->ttft_p95_ms)) return b->ttft_p95_ms > a->ttft_p95_ms;
    if (!isnan(a->e2e_p95_ms) && !isnan(b->e2e_p95_ms)) return b->e2e_p95_ms > a->e2e_p95_ms;
    return 0;
}

smfw_status smfw_sweep_analyze(smfw_sweep_point *pts, size_t n, const smfw_sweep_options *opts,
                               smfw_sweep_analysis *out, smfw_error *err) {
    smfw_sweep_options o;
    memset(&o, 0, sizeof o);
    if (opts) o = *opts;
    if (!(o.knee_gain > 0)) o.knee_gain = 0.10;
    if (!(o.idle_share > 0)) o.idle_share = 0.25;
    if (!(o.max_error_rate > 0)) o.max_error_rate = 0.01;
    if (!(o.duty_cycle > 0)) o.duty_cycle = 1.0;
    if (o.headroom == 0)
        o.headroom = 0.10;
    else if (o.headroom < 0)
        o.headroom = 0;
    memset(out, 0, sizeof *out);
    out->knee = -1;
    out->slo_best = o.n_slos ? -1 : -2;
    out->operating = -1;
    out->cost_at_operating = NAN;
    out->measured_invocations_per_minute = NAN;
    if (o.duty_cycle > 1.0)
        return smfw_error_set(err, SMFW_ERR_USAGE, "duty cycle %g is not in (0, 1]", o.duty_cycle);
    if (!n) return smfw_error_set(err, SMFW_ERR_USAGE, "a sweep needs at least one level");
    qsort(pts, n, sizeof *pts, cmp_point);
    for (size_t i = 1; i < n; i++)
        if (pts[i].load == pts[i - 1].load)
            return smfw_error_set(err, SMFW_ERR_USAGE, "the sweep lists level %g twice",
                                  pts[i].load);

    double peak = 0;
    for (size_t i = 0; i < n; i++) {
        smfw_sweep_point *p = &pts[i];
        p->gain_per_doubling = i + 1 < n
                                   ? smfw_gain_per_doubling(p->load, p->output_tps, pts[i + 1].load,
                                                            pts[i + 1].output_tps)
                                   : NAN;
        p->cost_per_mtok =
            smfw_cost_per_million_tokens(o.usd_per_hour, p->output_tps, o.duty_cycle);
        if (p->output_tps > peak) peak = p->output_tps;
        if (o.n_slos)
            p->meets_slo = p->results ? smfw_slo_check(p->results, o.slos, o.n_slos, NULL, 0) : 0;
        else
            p->meets_slo = -1;
        if (p->meets_slo == 1) out->slo_best = (int)i;
    }
    /* The knee: the first level after which load stops paying (against every later level,
     * so one noisy flat step does not count) while latency keeps climbing. */
    for (size_t i = 0; i + 1 < n && out->knee < 0; i++) {
        const smfw_sweep_point *p = &pts[i];
        if (!(p->output_tps > 0) || error_fraction(p) > o.max_error_rate) continue;
        if (!latency_rises(p, &pts[i + 1])) continue;
        int flat = 1;
        for (size_t j = i + 1; j < n && flat; j++) {
            double g =
                smfw_gain_per_doubling(p->load, p->output_tps, pts[j].load, pts[j].output_tps);
            if (isnan(g) ? pts[j].output_tps > 0 : g >= o.knee_gain) flat = 0;
        }
        if (flat) out->knee = (int)i;
    }
    for (size_t i = 0; i < n; i++) {
        smfw_sweep_point *p = &pts[i];
        if (!(p->output_tps > 0) && !(p->request_tps > 0))
            p->verdict = SMFW_VERDICT_UNKNOWN;
        else if (error_fraction(p) > o.max_error_rate)
            p->verdict = SMFW_VERDICT_SATURATED;
        else if (out->knee >= 0 && (int)i == out->knee)
            p->verdict = SMFW_VERDICT_KNEE;
        else if (out->knee >= 0 && (int)i > out->knee)
            p->verdict = p->output_tps > pts[i - 1].output_tps ? SMFW_VERDICT_QUEUEING
                                                               : SMFW_VERDICT_SATURATED;
        else if (p->output_tps < o.idle_share * peak)
            p->verdict = SMFW_VERDICT_IDLE;
        else
            p->verdict = SMFW_VERDICT_HEALTHY;
    }
    /* The operating point: the knee, lowered to the SLO level when the SLOs bind first. */
    if (o.n_slos && out->slo_best < 0) {
        snprintf(out->operating_why, sizeof out->operating_why,
                 "no level meets every SLO: one instance cannot serve this workload within them "
                 "at any tested load (try a larger instance or relax the SLOs)");
    } else if (out->knee >= 0 && out->slo_best >= 0 && out->slo_best < out->knee) {
        out->operating = out->slo_best;
        snprintf(out->operating_why, sizeof out->operating_why,
                 "the SLOs bind before the knee: highest level meeting every SLO");
    } else if (out->knee >= 0) {
        out->operating = out->knee;
        snprintf(out->operating_why, sizeof out->operating_why, "%s",
                 out->slo_best >= 0 ? "the knee (every SLO is met there)"
                                    : "the knee of the throughput curve");
    } else if (out->slo_best >= 0) {
        out->operating = out->slo_best;
        snprintf(out->operating_why, sizeof out->operating_why,
                 "highest level meeting every SLO (throughput still scaled: no knee found)");
    } else {
        out->operating = (int)n - 1;
        snprintf(out->operating_why, sizeof out->operating_why,
                 "no knee found: throughput still scaled at the highest level tested, so this "
                 "is a lower bound (extend the sweep)");
    }
    if (out->operating >= 0) {
        const smfw_sweep_point *p = &pts[out->operating];
        out->cost_at_operating = p->cost_per_mtok;
        double dur_s = p->e2e_avg_ms / 1000.0;
        if (o.load_is_rate)
            smfw_autoscaling_compute(p->request_tps * dur_s, dur_s, o.headroom, &out->autoscaling);
        else
            smfw_autoscaling_compute(p->load, dur_s, o.headroom, &out->autoscaling);
        if (p->request_tps > 0) out->measured_invocations_per_minute = p->request_tps * 60.0;
    } else {
        out->autoscaling.headroom = o.headroom;
    }
    return SMFW_OK;
}
