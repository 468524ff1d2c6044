/*
 * cloudwatch.c - SageMaker's CloudWatch metrics over a run's window and a
 * reading of them next to the client's numbers (see cloudwatch.h and
 * aws-wire.md section 8).
 */
#include <jansson.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <smfw/buf.h>

#include "cloudwatch.h"

/* Which statistic a query asks for, and how it folds into the summary. */
typedef enum cw_stat { CW_SUM, CW_COUNT, CW_MAX, CW_AVG } cw_stat;

static const char *const cw_stat_names[] = {"Sum", "SampleCount", "Maximum", "Average"};
static const char *const cw_stat_ids[] = {"sum", "n", "max", "avg"};

typedef struct cw_metric_def {
    const char *id;      /* query id prefix */
    const char *name;    /* endpoint metric */
    const char *ic_name; /* inference-component metric (NULL: same name) */
    int instance;        /* 1: /aws/sagemaker/Endpoints (or InferenceComponents) */
    const char *unit;
    double scale;   /* published unit -> our unit */
    unsigned stats; /* bit per cw_stat */
} cw_metric_def;

#define S(x) (1u << (x))
static const cw_metric_def cw_defs[SMFW_CW_METRIC_COUNT_] = {
    {"inv", "Invocations", NULL, 0, "count", 1, S(CW_SUM)},
    {"ipi", "InvocationsPerInstance", "InvocationsPerCopy", 0, "count", 1, S(CW_SUM)},
    {"ml", "ModelLatency", NULL, 0, "ms", 1e-3, S(CW_SUM) | S(CW_COUNT) | S(CW_MAX)},
    {"ol", "OverheadLatency", NULL, 0, "ms", 1e-3, S(CW_SUM) | S(CW_COUNT) | S(CW_MAX)},
    {"e4", "Invocation4XXErrors", NULL, 0, "count", 1, S(CW_SUM)},
    {"e5", "Invocation5XXErrors", NULL, 0, "count", 1, S(CW_SUM)},
    {"gpu", "GPUUtilization", "GPUUtilizationNormalized", 1, "%", 1, S(CW_AVG) | S(CW_MAX)},
    {"gmem", "GPUMemoryUtilization", "GPUMemoryUtilizationNormalized", 1, "%", 1,
     S(CW_AVG) | S(CW_MAX)},
    {"cpu", "CPUUtilization", "CPUUtilizationNormalized", 1, "%", 1, S(CW_AVG) | S(CW_MAX)},
    {"mem", "MemoryUtilization", "MemoryUtilizationNormalized", 1, "%", 1, S(CW_AVG) | S(CW_MAX)},
};
#undef S

typedef struct cw_acc {
    double sum[4]; /* per stat: sum of the data points */
    double max[4]; /* per stat: largest data point */
    size_t n[4];   /* per stat: number of data points */
    double first_ts, first_v, last_ts, last_v;
    int have_first;
} cw_acc;

typedef struct cw_report_private {
    smfw_cw_report pub; /* first: the public view */
    cw_acc acc[SMFW_CW_METRIC_COUNT_];
} cw_report_private;

static const char *metric_name(const smfw_cw_query *q, int m) {
    return q->inference_component && cw_defs[m].ic_name ? cw_defs[m].ic_name : cw_defs[m].name;
}

static const char *metric_namespace(const smfw_cw_query *q, int m) {
    if (!cw_defs[m].instance) return "AWS/SageMaker";
    return q->inference_component ? "/aws/sagemaker/InferenceComponents"
                                  : "/aws/sagemaker/Endpoints";
}

smfw_cw_report *smfw_cw_report_new(const smfw_cw_query *query) {
    cw_report_private *p = calloc(1, sizeof *p);
    if (!p) return NULL;
    smfw_cw_report *r = &p->pub;
    r->query = *query;
    if (!r->query.variant) r->query.variant = "AllTraffic";
    if (r->query.period_s <= 0) r->query.period_s = 60;
    int64_t period = r->query.period_s;
    r->start_s = query->start_s - ((query->start_s % period) + period) % period;
    r->end_s = query->end_s + (period - ((query->end_s % period) + period) % period) % period;
    if (r->end_s <= r->start_s) r->end_s = r->start_s + period;
    for (int m = 0; m < SMFW_CW_METRIC_COUNT_; m++) {
        r->m[m].name = metric_name(&r->query, m);
        r->m[m].namespace_ = metric_namespace(&r->query, m);
        r->m[m].unit = cw_defs[m].unit;
        r->m[m].mean = r->m[m].max = r->m[m].first = r->m[m].last = NAN;
    }
    return r;
}

void smfw_cw_report_free(smfw_cw_report *r) {
    if (!r) return;
    for (size_t i = 0; i < r->n_findings; i++) free(r->findings[i]);
    free(r->findings);
    free((cw_report_private *)r);
}

char *smfw_cloudwatch_request_json(const smfw_cw_query *q0) {
    smfw_cw_report *tmp = smfw_cw_report_new(q0);
    if (!tmp) return NULL;
    const smfw_cw_query *q = &tmp->query;
    json_t *root = json_object(), *queries = json_array();
    for (int m = 0; m < SMFW_CW_METRIC_COUNT_; m++) {
        for (int s = 0; s < 4; s++) {
            if (!(cw_defs[m].stats & (1u << s))) continue;
            char id[32];
            snprintf(id, sizeof id, "%s_%s", cw_defs[m].id, cw_stat_ids[s]);
            json_t *dims = json_array();
            if (q->inference_component) {
                json_array_append_new(dims, json_pack("{s:s,s:s}", "Name", "InferenceComponentName",
                                                      "Value", q->inference_component));
            } else {
                json_array_append_new(dims, json_pack("{s:s,s:s}", "Name", "EndpointName", "Value",
                                                      q->endpoint ? q->endpoint : ""));
                json_array_append_new(
                    dims, json_pack("{s:s,s:s}", "Name", "VariantName", "Value", q->variant));
            }
            json_t *metric = json_pack("{s:s,s:s,s:o}", "Namespace", metric_namespace(q, m),
                                       "MetricName", metric_name(q, m), "Dimensions", dims);
            json_array_append_new(queries,
                                  json_pack("{s:s,s:{s:o,s:i,s:s},s:b}", "Id", id, "MetricStat",
                                            "Metric", metric, "Period", q->period_s, "Stat",
                                            cw_stat_names[s], "ReturnData", 1));
        }
    }
    json_object_set_new(root, "MetricDataQueries", queries);
    json_object_set_new(root, "StartTime", json_integer(tmp->start_s));
    json_object_set_new(root, "EndTime", json_integer(tmp->end_s));
    json_object_set_new(root, "ScanBy", json_string("TimestampAscending"));
    char *text = json_dumps(root, JSON_COMPACT | JSON_PRESERVE_ORDER);
    json_decref(root);
    smfw_cw_report_free(tmp);
    return text;
}

static void refresh_summary(cw_report_private *p) {
    for (int m = 0; m < SMFW_CW_METRIC_COUNT_; m++) {
        const cw_acc *a = &p->acc[m];
        smfw_cw_metric *x = &p->pub.m[m];
        double k = cw_defs[m].scale;
        size_t points = 0;
        for (int s = 0; s < 4; s++)
            if (a->n[s] > points) points = a->n[s];
        x->n_points = points;
        x->present = points > 0;
        if (!x->present) continue;
        if (cw_defs[m].stats & (1u << CW_COUNT)) {
            /* Latencies: the exact mean over the window is total time / number of requests. */
            x->total = a->sum[CW_COUNT];
            x->mean = a->sum[CW_COUNT] > 0 ? a->sum[CW_SUM] / a->sum[CW_COUNT] * k : NAN;
            x->max = a->n[CW_MAX] ? a->max[CW_MAX] * k : NAN;
        } else if (cw_defs[m].stats & (1u << CW_AVG)) {
            x->total = NAN;
            x->mean = a->n[CW_AVG] ? a->sum[CW_AVG] / (double)a->n[CW_AVG] * k : NAN;
            x->max = a->n[CW_MAX] ? a->max[CW_MAX] * k : NAN;
        } else {
            x->total = a->sum[CW_SUM] * k;
            x->mean = a->n[CW_SUM] ? x->total / (double)a->n[CW_SUM] : NAN;
            x->max = a->n[CW_SUM] ? a->max[CW_SUM] * k : NAN;
        }
        x->first = a->have_first ? a->first_v * k : NAN;
        x->last = a->have_first ? a->last_v * k : NAN;
    }
}

/* One GetMetricData answer (borrowed) into the report. */
static smfw_status cw_add_page(smfw_cw_report *r, json_t *root, smfw_error *err) {
    cw_report_private *p = (cw_report_private *)r;
    json_t *results = json_object_get(root, "MetricDataResults");
    if (!json_is_array(results)) {
        return smfw_error_set(err, SMFW_ERR_PROTOCOL,
                              "CloudWatch GetMetricData: the response has no MetricDataResults");
    }
    size_t i;
    json_t *res;
    json_array_foreach(results, i, res) {
        const char *id = json_string_value(json_object_get(res, "Id"));
        json_t *ts = json_object_get(res, "Timestamps"), *vs = json_object_get(res, "Values");
        if (!id || !json_is_array(vs) || (ts && !json_is_array(ts))) {
            return smfw_error_set(err, SMFW_ERR_PROTOCOL,
                                  "CloudWatch GetMetricData: result %zu lacks Id or Values", i);
        }
        int m = -1, s = -1;
        for (int a = 0; a < SMFW_CW_METRIC_COUNT_ && m < 0; a++)
            for (int b = 0; b < 4; b++) {
                char want[32];
                snprintf(want, sizeof want, "%s_%s", cw_defs[a].id, cw_stat_ids[b]);
                if (strcmp(want, id) == 0) {
                    m = a;
                    s = b;
                    break;
                }
            }
        if (m < 0) continue; /* not one of ours */
        cw_acc *acc = &p->acc[m];
        size_t k;
        json_t *v;
        json_array_foreach(vs, k, v) {
            if (!json_is_number(v)) {
                return smfw_error_set(err, SMFW_ERR_PROTOCOL,
                                      "CloudWatch GetMetricData: %s value %zu is not a number", id,
                                      k);
            }
            double x = json_number_value(v);
            if (acc->n[s] == 0 || x > acc->max[s]) acc->max[s] = x;
            acc->sum[s] += x;
            acc->n[s]++;
            /* Trend from the primary statistic (the first one the metric asks for). */
            int primary = __builtin_ctz(cw_defs[m].stats);
            if (s == primary) {
                double t = ts ? json_number_value(json_array_get(ts, k)) : (double)k;
                if (!acc->have_first || t < acc->first_ts) acc->first_ts = t, acc->first_v = x;
                if (!acc->have_first || t >= acc->last_ts) acc->last_ts = t, acc->last_v = x;
                acc->have_first = 1;
            }
        }
    }
    refresh_summary(p);
    return SMFW_OK;
}

smfw_status smfw_cloudwatch_add_response(smfw_cw_report *r, const char *text, smfw_error *err) {
    json_error_t je;
    json_t *root = json_loads(text ? text : "", 0, &je);
    if (!json_is_object(root)) {
        json_decref(root);
        return smfw_error_set(err, SMFW_ERR_PROTOCOL,
                              "CloudWatch GetMetricData: the response is not a JSON object (%s)",
                              je.text);
    }
    smfw_status st = cw_add_page(r, root, err);
    json_decref(root);
    return st;
}

static int cw_page(void *user, json_t *page, smfw_error *err) {
    return cw_add_page(user, page, err) == SMFW_OK ? 0 : -1;
}

smfw_status smfw_cloudwatch_fetch(smfw_aws_client *client, const smfw_cw_query *query,
                                  smfw_cw_report **out, smfw_error *err) {
    *out = NULL;
    if (!query->endpoint && !query->inference_component)
        return smfw_error_set(
            err, SMFW_ERR_USAGE,
            "CloudWatch: name an endpoint (--endpoint) or an inference component");
    smfw_cw_report *r = smfw_cw_report_new(query);
    char *body = smfw_cloudwatch_request_json(query);
    if (!r || !body) {
        smfw_cw_report_free(r);
        free(body);
        return smfw_error_set(err, SMFW_ERR_NOMEM, "out of memory");
    }
    json_error_t je;
    json_t *req = json_loads(body, 0, &je);
    smfw_status st = req ? smfw_aws_json_pages(client, &smfw_aws_cloudwatch, "GetMetricData", req,
                                               cw_page, r, NULL, err)
                         : smfw_error_set(err, SMFW_ERR_NOMEM, "out of memory");
    json_decref(req);
    free(body);
    if (st != SMFW_OK) {
        smfw_cw_report_free(r);
        return st;
    }
    *out = r;
    return SMFW_OK;
}

/* ---- the reading ---------------------------------------------------------------- */

static void finding(smfw_cw_report *r, const char *fmt, ...) SMFW_PRINTF(2, 3);
static void finding(smfw_cw_report *r, const char *fmt, ...) {
    char buf[768];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(buf, sizeof buf, fmt, ap);
    va_end(ap);
    char **g = realloc(r->findings, (r->n_findings + 1) * sizeof *g);
    if (!g) return;
    r->findings = g;
    char *c = strdup(buf);
    if (c) r->findings[r->n_findings++] = c;
}

void smfw_cloudwatch_interpret(smfw_cw_report *r, const smfw_results *res, int64_t requests_sent) {
    const smfw_cw_metric *inv = &r->m[SMFW_CW_INVOCATIONS], *ml = &r->m[SMFW_CW_MODEL_LATENCY],
                         *ol = &r->m[SMFW_CW_OVERHEAD_LATENCY], *e5 = &r->m[SMFW_CW_5XX],
                         *gpu = &r->m[SMFW_CW_GPU_UTILIZATION],
                         *gmem = &r->m[SMFW_CW_GPU_MEMORY_UTILIZATION];
    if (requests_sent < 0 && res) requests_sent = (int64_t)smfw_results_record_count(res);
    double client_ms = NAN, client_p95 = NAN;
    const smfw_stats *lat = smfw_results_stat(res, SMFW_M_REQUEST_LATENCY);
    if (lat) {
        client_ms = lat->avg;
        client_p95 = lat->p[SMFW_P95];
    }
    int64_t concurrency = res ? smfw_results_info(res)->concurrency : 0;

    if (!inv->present) {
        finding(r, "no Invocations data points for this window: CloudWatch publishes with 1-3 "
                   "minutes of delay, so query again a few minutes after the run (or check the "
                   "endpoint, variant and region)");
    } else if (requests_sent >= 0) {
        double got = inv->total;
        if (llround(got) == requests_sent)
            finding(r,
                    "CloudWatch counted %.0f invocations, exactly the %lld requests the client "
                    "sent",
                    got, (long long)requests_sent);
        else
            finding(r,
                    "CloudWatch counted %.0f invocations but the client sent %lld requests in "
                    "this window: %s",
                    got, (long long)requests_sent,
                    got > (double)requests_sent
                        ? "other traffic or warm-up requests fell into the same minutes"
                        : "data points may still be arriving (1-3 minutes of delay), or some "
                          "requests never reached SageMaker (client-side errors)");
    }
    /* Where the time goes: container, SageMaker, and outside both (network, client). */
    if (ml->present && ol->present && ml->mean + ol->mean > 0) {
        double share = ol->mean / (ml->mean + ol->mean);
        if (share > 0.20)
            finding(r,
                    "OverheadLatency is %.0f%% of the server time (%.1f of %.1f ms): "
                    "serialization and routing cost; large JSON payloads and base64 images "
                    "are the usual suspects",
                    share * 100, ol->mean, ml->mean + ol->mean);
        if (!isnan(client_ms)) {
            double outside = client_ms - ml->mean - ol->mean;
            if (outside > 0.25 * client_ms && outside > 5.0)
                finding(r,
                        "the client saw %.1f ms per request, %.1f ms more than SageMaker "
                        "accounts for (ModelLatency %.1f + OverheadLatency %.1f ms): network "
                        "and client time; run the load generator in the endpoint's region",
                        client_ms, outside, ml->mean, ol->mean);
        }
    }
    if (gpu->present) {
        double latency = !isnan(client_p95) ? client_p95 : (ml->present ? ml->max : NAN);
        if (gpu->mean < 30.0 && !isnan(latency))
            finding(r,
                    "GPU utilization is low (mean %.0f%%, max %.0f%%) while requests take "
                    "%.0f ms (p95): the accelerator is not the bottleneck; look at client "
                    "concurrency, tokenization and payload size (and OverheadLatency)",
                    gpu->mean, gpu->max, latency);
    }
    if (gmem->present && gmem->max >= 90.0) {
        if (concurrency > 0 && concurrency <= 16)
            finding(r,
                    "GPU memory is near full (max %.0f%%) at a modest concurrency of %lld: the "
                    "KV cache is the limit; shorten the maximum context, quantize the KV cache "
                    "or move to a GPU with more memory",
                    gmem->max, (long long)concurrency);
        else
            finding(r,
                    "GPU memory is near full (max %.0f%%): most servers preallocate the KV "
                    "cache, so read this together with throughput; at modest concurrency it "
                    "means the KV cache is the limit",
                    gmem->max);
    }
    if (e5->present && e5->total > 0) {
        double rate = inv->present && inv->total > 0 ? e5->total / inv->total : NAN;
        char share[64] = "";
        if (!isnan(rate)) snprintf(share, sizeof share, ", %.1f%% of invocations", rate * 100);
        finding(r,
                "%.0f Invocation5XXErrors (%s%s): the server is rejecting requests past its "
                "queue limit; tune the container's maximum concurrent requests rather than "
                "letting clients retry blindly",
                e5->total, e5->last > e5->first ? "rising during the run" : "in the window", share);
    }
    /* Say what is missing instead of inventing it. */
    char missing[512] = "";
    for (int m = 0; m < SMFW_CW_METRIC_COUNT_; m++) {
        if (r->m[m].present) continue;
        size_t l = strlen(missing);
        snprintf(missing + l, sizeof missing - l, "%s%s", l ? ", " : "", r->m[m].name);
    }
    if (missing[0])
        finding(r, "no data for %s in this window%s", missing,
                !gpu->present ? " (GPU metrics are absent on instances without a GPU, and every "
                                "metric arrives 1-3 minutes late)"
                              : "");
}

/* ---- renderings ----------------------------------------------------------------- */

static void md_num(smfw_buf *b, double v) {
    if (isnan(v))
        smfw_buf_puts(b, " - |");
    else
        smfw_buf_printf(b, " %.2f |", v);
}

static void smfw_cw_iso8601(int64_t t, char *out, size_t size) {
    time_t tt = (time_t)t;
    struct tm tm;
    gmtime_r(&tt, &tm);
    strftime(out, size, "%Y-%m-%dT%H:%M:%SZ", &tm);
}

char *smfw_cloudwatch_markdown(const smfw_cw_report *r) {
    smfw_buf b;
    smfw_buf_init(&b);
    smfw_buf_printf(&b, "## CloudWatch: the server's view\n\n");
    if (r->query.inference_component)
        smfw_buf_printf(&b, "Inference component `%s`", r->query.inference_component);
    else
        smfw_buf_printf(&b, "Endpoint `%s`, variant `%s`",
                        r->query.endpoint ? r->query.endpoint : "", r->query.variant);
    /* ISO 8601 UTC, as the CloudWatch console and `aws cloudwatch` take it. */
    char from[32], to[32];
    smfw_cw_iso8601(r->start_s, from, sizeof from);
    smfw_cw_iso8601(r->end_s, to, sizeof to);
    smfw_buf_printf(&b, ", %s to %s, period %d s\n\n", from, to, r->query.period_s);
    smfw_buf_puts(&b, "| Metric | Namespace | Unit | Total | Mean | Max | Points |\n"
                      "|---|---|---|---:|---:|---:|---:|\n");
    for (int m = 0; m < SMFW_CW_METRIC_COUNT_; m++) {
        const smfw_cw_metric *x = &r->m[m];
        smfw_buf_printf(&b, "| %s | %s | %s |", x->name, x->namespace_, x->unit);
        if (!x->present) {
            smfw_buf_puts(&b, " no data | | | 0 |\n");
            continue;
        }
        md_num(&b, strcmp(x->unit, "count") == 0 ? x->total : NAN);
        md_num(&b, x->mean);
        md_num(&b, x->max);
        smfw_buf_printf(&b, " %zu |\n", x->n_points);
    }
    if (r->n_findings) {
        smfw_buf_puts(&b, "\nReading:\n\n");
        for (size_t i = 0; i < r->n_findings; i++) smfw_buf_printf(&b, "- %s\n", r->findings[i]);
    }
    return smfw_buf_take(&b);
}

static json_t *num(double v) {
    return isfinite(v) ? json_real(v) : json_null();
}

char *smfw_cloudwatch_json(const smfw_cw_report *r) {
    json_t *root = json_object(), *metrics = json_object(), *f = json_array();
    if (r->query.endpoint) json_object_set_new(root, "endpoint", json_string(r->query.endpoint));
    json_object_set_new(root, "variant", json_string(r->query.variant));
    if (r->query.inference_component)
        json_object_set_new(root, "inference_component", json_string(r->query.inference_component));
    json_object_set_new(root, "start_time", json_integer(r->start_s));
    json_object_set_new(root, "end_time", json_integer(r->end_s));
    char iso[32];
    smfw_cw_iso8601(r->start_s, iso, sizeof iso);
    json_object_set_new(root, "start", json_string(iso));
    smfw_cw_iso8601(r->end_s, iso, sizeof iso);
    json_object_set_new(root, "end", json_string(iso));
    json_object_set_new(root, "period", json_integer(r->query.period_s));
    for (int m = 0; m < SMFW_CW_METRIC_COUNT_; m++) {
        const smfw_cw_metric *x = &r->m[m];
        json_t *o = json_object();
        json_object_set_new(o, "namespace", json_string(x->namespace_));
        json_object_set_new(o, "unit", json_string(x->unit));
        json_object_set_new(o, "present", json_boolean(x->present));
        json_object_set_new(o, "points", json_integer((json_int_t)x->n_points));
        if (x->present) {
            if (strcmp(x->unit, "count") == 0) json_object_set_new(o, "total", num(x->total));
            json_object_set_new(o, "mean", num(x->mean));
            json_object_set_new(o, "max", num(x->max));
        }
        json_object_set_new(metrics, x->name, o);
    }
    json_object_set_new(root, "metrics", metrics);
    for (size_t i = 0; i < r->n_findings; i++)
        json_array_append_new(f, json_string(r->findings[i]));
    json_object_set_new(root, "findings", f);
    char *text = json_dumps(root, JSON_INDENT(2) | JSON_PRESERVE_ORDER | JSON_REAL_PRECISION(15));
    json_decref(root);
    return text;
}
