/*
 * rpt_metrics.c - the metrics of a run as one flat list, for reporters that
 * walk them in AIPerf's orders (JSON key order, CSV rows sorted by tag).
 */
#include "rpt.h"

#include <stdlib.h>
#include <string.h>

/* Full statistics = anything beyond avg (and the newer count/sum). */
static int rpt_stats_is_distribution(const smfw_stats *s) {
    unsigned pmask = ((SMFW_STAT_P_FIRST << SMFW_PERCENTILE_COUNT) - 1) & ~(SMFW_STAT_P_FIRST - 1);
    return (s->fields & (SMFW_STAT_MIN | SMFW_STAT_MAX | SMFW_STAT_STD | pmask)) != 0;
}

size_t rpt_metrics_collect(const smfw_results *r, rpt_metric **out) {
    *out = NULL;
    size_t n_extra = smfw_results_extra_count(r);
    size_t cap = (size_t)smfw_metric_count() + n_extra;
    rpt_metric *m = calloc(cap ? cap : 1, sizeof *m);
    if (!m) return (size_t)-1;
    size_t n = 0;
    for (int id = 0; id < smfw_metric_count(); id++) {
        const smfw_stats *s = smfw_results_stat(r, (smfw_metric_id)id);
        if (!s) continue;
        const smfw_metric_info *info = smfw_metric_get((smfw_metric_id)id);
        if (!info) continue;
        rpt_metric *e = &m[n++];
        e->tag = info->tag;
        e->header = info->header;
        e->unit = info->display_unit;
        e->stats = s;
        e->id = id;
        e->distribution =
            info->kind == SMFW_METRIC_RECORD || info->kind == SMFW_METRIC_ERROR_RECORD;
        e->smfw_only = info->smfw_only;
    }
    for (size_t i = 0; i < n_extra; i++) {
        const smfw_extra_metric *x = smfw_results_extra(r, i);
        if (!x->tag || !x->stats.present) continue;
        rpt_metric *e = &m[n++];
        e->tag = x->tag;
        e->header = x->header ? x->header : x->tag;
        e->unit = x->unit ? x->unit : "";
        e->stats = &x->stats;
        e->id = -1;
        e->distribution = rpt_stats_is_distribution(&x->stats);
        e->smfw_only = 0;
    }
    *out = m;
    return n;
}

static int rpt_metric_cmp_tag(const void *a, const void *b) {
    return strcmp(((const rpt_metric *)a)->tag, ((const rpt_metric *)b)->tag);
}

void rpt_metrics_sort_by_tag(rpt_metric *m, size_t n) {
    if (n > 1) qsort(m, n, sizeof *m, rpt_metric_cmp_tag);
}

const rpt_metric *rpt_metrics_find(const rpt_metric *m, size_t n, const char *tag) {
    for (size_t i = 0; i < n; i++)
        if (strcmp(m[i].tag, tag) == 0) return &m[i];
    return NULL;
}

void rpt_metric_label(const rpt_metric *m, smfw_buf *b) {
    smfw_buf_puts(b, m->header);
    if (m->unit && *m->unit && strcmp(m->unit, "count") != 0 && strcmp(m->unit, "requests") != 0)
        smfw_buf_printf(b, " (%s)", m->unit);
}
