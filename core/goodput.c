/*
 * goodput.c - the one parser of goodput SLOs, for every place they are read
 * (a run, a merge, the settings check): AIPerf's form "time_to_first_token:100
 * inter_token_latency:3.4" (several SLOs in one item, space-separated) and
 * smfw's repeated --goodput TAG:VALUE items, in any mix.
 */
#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <smfw/results.h>

/* Between SLOs: white space (AIPerf's form) or a comma (a list setting's raw text). */
static int is_sep(char c) {
    return c == ',' || isspace((unsigned char)c);
}

/* One "tag:value" of len bytes at p into *slo. */
static smfw_status parse_one(const char *p, size_t len, smfw_goodput_slo *slo, smfw_error *err) {
    const char *colon = memchr(p, ':', len);
    char tag[128], num[64];
    if (!colon || colon == p || (size_t)(colon - p) >= sizeof tag)
        return smfw_error_set(err, SMFW_ERR_CONFIG,
                              "goodput \"%.*s\" is not metric:threshold, e.g. "
                              "time_to_first_token:500",
                              (int)(len > 200 ? 200 : len), p);
    memcpy(tag, p, (size_t)(colon - p));
    tag[colon - p] = '\0';
    int id = smfw_metric_find(tag);
    if (id < 0 || !smfw_metric_is_per_record((smfw_metric_id)id))
        return smfw_error_set(err, SMFW_ERR_CONFIG,
                              "goodput: \"%s\" is not a per-request metric (e.g. "
                              "time_to_first_token, inter_token_latency, request_latency)",
                              tag);
    size_t vl = len - (size_t)(colon + 1 - p);
    if (vl == 0 || vl >= sizeof num)
        return smfw_error_set(err, SMFW_ERR_CONFIG, "goodput %s: the threshold is missing", tag);
    memcpy(num, colon + 1, vl);
    num[vl] = '\0';
    char *end = NULL;
    errno = 0;
    double v = strtod(num, &end);
    if (errno || end == num || *end || !isfinite(v) || v < 0)
        return smfw_error_set(err, SMFW_ERR_CONFIG,
                              "goodput %s: \"%s\" is not a threshold (a number of the metric's "
                              "display unit, e.g. milliseconds)",
                              tag, num);
    slo->metric = (smfw_metric_id)id;
    slo->threshold = v;
    return SMFW_OK;
}

smfw_status smfw_goodput_parse(const char *const *items, size_t n_items, smfw_goodput_slo **out,
                               size_t *n_out, smfw_error *err) {
    *out = NULL;
    *n_out = 0;
    size_t cap = 0;
    for (size_t i = 0; i < n_items; i++) cap += strlen(items[i]) / 2 + 1;
    if (!cap) return SMFW_OK;
    smfw_goodput_slo *slos = calloc(cap, sizeof *slos);
    if (!slos) return smfw_error_set(err, SMFW_ERR_NOMEM, "out of memory");
    size_t n = 0;
    for (size_t i = 0; i < n_items; i++) {
        const char *p = items[i];
        while (*p) {
            while (*p && is_sep(*p)) p++;
            size_t len = 0;
            while (p[len] && !is_sep(p[len])) len++;
            if (!len) break;
            smfw_status st = parse_one(p, len, &slos[n], err);
            if (st != SMFW_OK) {
                free(slos);
                return st;
            }
            n++;
            p += len;
        }
    }
    if (!n) {
        free(slos);
        return SMFW_OK;
    }
    *out = slos;
    *n_out = n;
    return SMFW_OK;
}
