/*
 * publish_keys.c - a run's headline numbers as "smfw:" key/values and back
 * (see publish_keys.h; the scheme is documented in docs/capacity.md).
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <smfw/log.h>

#include "publish_keys.h"

/* The headline numbers: what `smfw compare` judges by default, and their neighbours. */
#define ST_AVG  (1u << 0)
#define ST_P(i) (1u << (1 + (i)))
static const struct {
    smfw_metric_id id;
    unsigned stats;
} published[] = {
    {SMFW_M_TIME_TO_FIRST_TOKEN, ST_AVG | ST_P(SMFW_P50) | ST_P(SMFW_P95) | ST_P(SMFW_P99)},
    {SMFW_M_INTER_TOKEN_LATENCY, ST_AVG | ST_P(SMFW_P50) | ST_P(SMFW_P95)},
    {SMFW_M_REQUEST_LATENCY, ST_AVG | ST_P(SMFW_P50) | ST_P(SMFW_P95) | ST_P(SMFW_P99)},
    {SMFW_M_OUTPUT_TOKEN_THROUGHPUT_PER_USER, ST_AVG | ST_P(SMFW_P50)},
    {SMFW_M_INPUT_SEQUENCE_LENGTH, ST_AVG},
    {SMFW_M_OUTPUT_SEQUENCE_LENGTH, ST_AVG},
    {SMFW_M_OUTPUT_TOKEN_THROUGHPUT, ST_AVG},
    {SMFW_M_REQUEST_THROUGHPUT, ST_AVG},
    {SMFW_M_GOODPUT, ST_AVG},
    {SMFW_M_REQUEST_COUNT, ST_AVG},
    {SMFW_M_ERROR_REQUEST_COUNT, ST_AVG},
    {SMFW_M_BENCHMARK_DURATION, ST_AVG},
};
#define N_PUBLISHED (sizeof published / sizeof published[0])

smfw_publish_set *smfw_publish_set_new(void) {
    return calloc(1, sizeof(smfw_publish_set));
}

void smfw_publish_set_free(smfw_publish_set *s) {
    if (!s) return;
    for (size_t i = 0; i < s->n; i++) {
        free(s->e[i].key);
        free(s->e[i].value);
    }
    free(s->e);
    free(s);
}

int smfw_publish_set_put(smfw_publish_set *s, const char *key, const char *value) {
    char *v = strdup(value);
    if (!v) return -1;
    for (size_t i = 0; i < s->n; i++)
        if (strcmp(s->e[i].key, key) == 0) {
            free(s->e[i].value);
            s->e[i].value = v;
            return 0;
        }
    if (s->n == s->cap) {
        size_t cap = s->cap ? s->cap * 2 : 16;
        smfw_publish_entry *g = realloc(s->e, cap * sizeof *g);
        if (!g) {
            free(v);
            return -1;
        }
        s->e = g;
        s->cap = cap;
    }
    char *k = strdup(key);
    if (!k) {
        free(v);
        return -1;
    }
    s->e[s->n].key = k;
    s->e[s->n].value = v;
    s->n++;
    return 0;
}

const char *smfw_publish_set_get(const smfw_publish_set *s, const char *key) {
    for (size_t i = 0; i < s->n; i++)
        if (strcmp(s->e[i].key, key) == 0) return s->e[i].value;
    return NULL;
}

int smfw_publish_key_is_ours(const char *key) {
    return key && strncmp(key, SMFW_PUBLISH_PREFIX, strlen(SMFW_PUBLISH_PREFIX)) == 0;
}

int smfw_publish_text_valid(const char *text, size_t max, char *bad) {
    if (bad) *bad = 0;
    size_t n = text ? strlen(text) : 0;
    if (n == 0 || n > max) return 0;
    for (const unsigned char *p = (const unsigned char *)text; *p; p++) {
        unsigned c = *p;
        int ok = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
                 (c && strchr(" _.:/=+-@", (int)c) != NULL);
        if (!ok) {
            if (bad) *bad = (char)c;
            return 0;
        }
    }
    return 1;
}

static const char *stat_name(int bit) {
    return bit == 0 ? "avg" : smfw_percentile_keys[bit - 1];
}

/* A run fact: left out (with a warning) when SageMaker would refuse its text. */
static int put_fact(smfw_publish_set *out, const char *name, const char *value) {
    if (!value || !*value) return 0;
    char key[SMFW_PUBLISH_MAX_KEY + 1], bad = 0;
    snprintf(key, sizeof key, SMFW_PUBLISH_PREFIX "%s", name);
    if (!smfw_publish_text_valid(value, SMFW_PUBLISH_MAX_VALUE, &bad)) {
        if (bad)
            SMFW_LOG_WARN("publish",
                          "%s left out: its value has '%c' (0x%02x), which SageMaker "
                          "metadata and tags do not accept",
                          key, bad >= 0x20 && bad < 0x7f ? bad : '?', (unsigned char)bad);
        else
            SMFW_LOG_WARN("publish", "%s left out: its value is longer than %d characters", key,
                          SMFW_PUBLISH_MAX_VALUE);
        return 0;
    }
    return smfw_publish_set_put(out, key, value);
}

static int put_number(smfw_publish_set *out, const char *key, double v) {
    char buf[32];
    if (!isfinite(v)) return 0;
    return smfw_publish_set_put(out, key, smfw_format_double(v, buf));
}

smfw_status smfw_publish_keys_from_results(const smfw_results *r, const char *report_uri,
                                           smfw_publish_set *out, smfw_error *err) {
    const smfw_run_info *i = smfw_results_info(r);
    char bad = 0, buf[64];
    int oom = smfw_publish_set_put(out, SMFW_PUBLISH_PREFIX "v", SMFW_PUBLISH_SCHEME);
    if (report_uri) {
        if (!smfw_publish_text_valid(report_uri, SMFW_PUBLISH_MAX_VALUE, &bad)) {
            if (bad)
                return smfw_error_set(err, SMFW_ERR_USAGE,
                                      "--report-uri \"%s\" has '%c', which SageMaker metadata and "
                                      "tags do not accept (letters, digits, space and _.:/=+-@)",
                                      report_uri, bad >= 0x20 && bad < 0x7f ? bad : '?');
            return smfw_error_set(err, SMFW_ERR_USAGE,
                                  "--report-uri is %zu characters; SageMaker metadata and tags "
                                  "take at most %d",
                                  strlen(report_uri), SMFW_PUBLISH_MAX_VALUE);
        }
        oom |= smfw_publish_set_put(out, SMFW_PUBLISH_PREFIX "report", report_uri);
    }
    int64_t when = i->end_wall_ns ? i->end_wall_ns : i->start_wall_ns;
    if (when > 0) {
        time_t t = (time_t)(when / 1000000000LL);
        struct tm tm;
        gmtime_r(&t, &tm);
        strftime(buf, sizeof buf, "%Y-%m-%dT%H:%M:%SZ", &tm);
        oom |= put_fact(out, "time", buf);
    }
    oom |= put_fact(out, "endpoint", i->endpoint_name);
    oom |= put_fact(out, "ic", i->inference_component);
    oom |= put_fact(out, "model", i->model);
    oom |= put_fact(out, "type", i->endpoint_type);
    oom |= put_fact(out, "streaming", i->streaming ? "true" : "false");
    if (i->concurrency > 0) {
        snprintf(buf, sizeof buf, "%lld", (long long)i->concurrency);
        oom |= put_fact(out, "concurrency", buf);
    }
    if (i->request_rate > 0) oom |= put_number(out, SMFW_PUBLISH_PREFIX "rate", i->request_rate);
    oom |= put_fact(out, "dataset", i->dataset_name);
    oom |= put_fact(out, "dataset_sha256", i->dataset_sha256);
    oom |= put_fact(out, "gate", i->gate_tripped ? "tripped" : "passed");
    for (size_t m = 0; m < N_PUBLISHED; m++) {
        const smfw_stats *s = smfw_results_stat(r, published[m].id);
        if (!s) continue;
        const char *tag = smfw_metric_get(published[m].id)->tag;
        for (int b = 0; b <= SMFW_PERCENTILE_COUNT; b++) {
            if (!(published[m].stats & (1u << b))) continue;
            unsigned field = b == 0 ? SMFW_STAT_AVG : SMFW_STAT_P_FIRST << (b - 1);
            if (!(s->fields & field)) continue;
            char key[SMFW_PUBLISH_MAX_KEY + 1];
            snprintf(key, sizeof key, SMFW_PUBLISH_PREFIX "%s:%s", tag, stat_name(b));
            oom |= put_number(out, key, b == 0 ? s->avg : s->p[b - 1]);
        }
    }
    if (oom) return smfw_error_set(err, SMFW_ERR_NOMEM, "out of memory");
    if (out->n > SMFW_PUBLISH_OWN_MAX) /* a bug: the tables above grew */
        return smfw_error_set(err, SMFW_ERR_INTERNAL, "%zu smfw keys, more than the %d allowed",
                              out->n, SMFW_PUBLISH_OWN_MAX);
    return SMFW_OK;
}

static int parse_number(const char *text, double *out) {
    char *end = NULL;
    errno = 0;
    double v = strtod(text, &end);
    if (errno || end == text || *end || !isfinite(v)) return -1;
    *out = v;
    return 0;
}

/* "<tag>:<stat>" -> metric id and stat bit (0 avg, 1+i percentile i). */
static int parse_metric_key(const char *rest, smfw_metric_id *id, int *bit) {
    const char *colon = strrchr(rest, ':');
    if (!colon) return -1;
    char tag[96];
    size_t tl = (size_t)(colon - rest);
    if (tl == 0 || tl >= sizeof tag) return -1;
    memcpy(tag, rest, tl);
    tag[tl] = '\0';
    int found = -1;
    for (size_t m = 0; m < N_PUBLISHED; m++)
        if (strcmp(smfw_metric_get(published[m].id)->tag, tag) == 0) found = (int)m;
    if (found < 0) return -1;
    for (int b = 0; b <= SMFW_PERCENTILE_COUNT; b++)
        if (strcmp(stat_name(b), colon + 1) == 0) {
            *id = published[found].id;
            *bit = b;
            return 0;
        }
    return -1;
}

smfw_status smfw_publish_keys_to_results(const smfw_publish_set *in, smfw_results *r,
                                         smfw_error *err) {
    const char *v = smfw_publish_set_get(in, SMFW_PUBLISH_PREFIX "v");
    if (!v)
        return smfw_error_set(err, SMFW_ERR_NOT_FOUND,
                              "no smfw results published there (no key " SMFW_PUBLISH_PREFIX
                              "v; publish them with `smfw publish`)");
    if (strcmp(v, SMFW_PUBLISH_SCHEME) != 0)
        SMFW_LOG_WARN("publish",
                      "published with key scheme %s, this smfw writes %s; reading the "
                      "keys it knows",
                      v, SMFW_PUBLISH_SCHEME);
    smfw_run_info *i = smfw_results_info_edit(r);
    size_t plen = strlen(SMFW_PUBLISH_PREFIX);
    for (size_t k = 0; k < in->n; k++) {
        const char *key = in->e[k].key, *val = in->e[k].value;
        if (!smfw_publish_key_is_ours(key)) continue;
        const char *name = key + plen;
        double d;
        smfw_metric_id id;
        int bit;
        if (strcmp(name, "endpoint") == 0)
            smfw_results_set_string(&i->endpoint_name, val);
        else if (strcmp(name, "ic") == 0)
            smfw_results_set_string(&i->inference_component, val);
        else if (strcmp(name, "model") == 0)
            smfw_results_set_string(&i->model, val);
        else if (strcmp(name, "type") == 0)
            smfw_results_set_string(&i->endpoint_type, val);
        else if (strcmp(name, "streaming") == 0)
            i->streaming = strcmp(val, "true") == 0;
        else if (strcmp(name, "dataset") == 0)
            smfw_results_set_string(&i->dataset_name, val);
        else if (strcmp(name, "dataset_sha256") == 0)
            smfw_results_set_string(&i->dataset_sha256, val);
        else if (strcmp(name, "gate") == 0)
            i->gate_tripped = strcmp(val, "tripped") == 0;
        else if (strcmp(name, "concurrency") == 0 || strcmp(name, "rate") == 0) {
            if (parse_number(val, &d) != 0 || d <= 0)
                return smfw_error_set(err, SMFW_ERR_PROTOCOL, "%s is \"%s\", not a number", key,
                                      val);
            if (name[0] == 'c')
                i->concurrency = (int64_t)llround(d);
            else
                i->request_rate = d;
        } else if (parse_metric_key(name, &id, &bit) == 0) {
            if (parse_number(val, &d) != 0)
                return smfw_error_set(err, SMFW_ERR_PROTOCOL, "%s is \"%s\", not a number", key,
                                      val);
            smfw_stats *s = smfw_results_stat_edit(r, id);
            if (!s) continue; /* not a metric this version knows */
            s->present = 1;
            if (bit == 0) {
                s->avg = d;
                s->fields |= SMFW_STAT_AVG;
            } else {
                s->p[bit - 1] = d;
                s->fields |= SMFW_STAT_P_FIRST << (bit - 1);
            }
        }
        /* smfw:v, smfw:report, smfw:time and keys of later schemes: not results */
    }
    return SMFW_OK;
}
