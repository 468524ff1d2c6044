/*
 * session_stats.c - per-turn and per-session statistics of a multi-turn run,
 * from its records: AIPerf's records carry conversation_id and turn_index but
 * its aggregates mix every turn (the opening turn of a conversation has no
 * history, later ones carry it all), so a run with conversations gets, in the
 * "smfw" object, TTFT, request latency and ISL by turn index and the sessions'
 * turn counts and durations.
 *
 * A session is one conversation a user went through: the records sharing an
 * x_correlation_id (one per conversation instance; conversation_id repeats when
 * the dataset is gone through again). Its duration runs from its first turn's
 * send to its last turn's end, turn delays included.
 */
#include <jansson.h>
#include <stdlib.h>
#include <string.h>

#include <smfw/results_layout.h>
#include <smfw/results.h>

#include "results_internal.h"

typedef struct session_span {
    const char *id;
    int64_t first_start_ns, last_end_ns;
    size_t turns;
} session_span;

static int cmp_span(const void *a, const void *b) {
    return strcmp(((const session_span *)a)->id, ((const session_span *)b)->id);
}

static json_t *stats_object(const double *v, size_t n, double scale, const char *unit) {
    smfw_stats s;
    if (n == 0 || smfw_stats_compute(v, n, scale, &s) != SMFW_OK) return NULL;
    json_t *o = json_object();
    json_object_set_new(o, "unit", json_string(unit));
    json_object_set_new(o, "avg", json_real(s.avg));
    json_object_set_new(o, "p50", json_real(s.p[SMFW_P50]));
    json_object_set_new(o, "p90", json_real(s.p[SMFW_P90]));
    json_object_set_new(o, "p99", json_real(s.p[SMFW_P99]));
    json_object_set_new(o, "min", json_real(s.min));
    json_object_set_new(o, "max", json_real(s.max));
    json_object_set_new(o, "count", json_integer((json_int_t)n));
    return o;
}

/* Values of metric `id` over the valid records of turn `turn` into v (capacity n_records). */
static size_t turn_values(const smfw_results *r, int32_t turn, smfw_metric_id id, double *v) {
    size_t n = 0;
    for (size_t i = 0; i < r->n_records; i++) {
        const smfw_record *rec = &r->records[i];
        if (rec->turn_index == turn && !rec->error && smfw_record_has(rec, id))
            v[n++] = rec->values[id];
    }
    return n;
}

static json_t *by_turn(const smfw_results *r, int32_t max_turn, double *v) {
    /* cached prompt tokens by turn: how much of each turn's history the server's prefix
     * cache kept (absent unless the server reports it) */
    static const smfw_metric_id ids[] = {SMFW_M_TIME_TO_FIRST_TOKEN, SMFW_M_REQUEST_LATENCY,
                                         SMFW_M_INPUT_SEQUENCE_LENGTH,
                                         SMFW_M_USAGE_PROMPT_CACHED_TOKENS};
    json_t *arr = json_array();
    for (int32_t t = 0; t <= max_turn; t++) {
        size_t requests = 0, errors = 0;
        for (size_t i = 0; i < r->n_records; i++) {
            if (r->records[i].turn_index != t) continue;
            requests++;
            if (r->records[i].error) errors++;
        }
        if (!requests) continue;
        json_t *o = json_object();
        json_object_set_new(o, "turn_index", json_integer(t));
        json_object_set_new(o, "requests", json_integer((json_int_t)requests));
        json_object_set_new(o, "errors", json_integer((json_int_t)errors));
        for (size_t k = 0; k < sizeof ids / sizeof ids[0]; k++) {
            const smfw_metric_info *mi = smfw_metric_get(ids[k]);
            json_t *s =
                stats_object(v, turn_values(r, t, ids[k], v), mi->display_scale, mi->display_unit);
            if (s) json_object_set_new(o, mi->tag, s);
        }
        json_array_append_new(arr, o);
    }
    return arr;
}

struct json_t *smfw_session_stats_json(const smfw_results *r) {
    int32_t max_turn = -1;
    size_t with_id = 0;
    for (size_t i = 0; i < r->n_records; i++) {
        const smfw_record *rec = &r->records[i];
        if (rec->turn_index > max_turn) max_turn = rec->turn_index;
        if (rec->x_correlation_id) with_id++;
    }
    if (max_turn < 1 || with_id == 0) return NULL; /* not a multi-turn run */
    double *v = malloc(r->n_records * sizeof *v);
    session_span *spans = calloc(with_id, sizeof *spans);
    if (!v || !spans) {
        free(v);
        free(spans);
        return NULL;
    }
    size_t n = 0;
    for (size_t i = 0; i < r->n_records; i++) {
        const smfw_record *rec = &r->records[i];
        if (!rec->x_correlation_id) continue;
        spans[n].id = rec->x_correlation_id;
        spans[n].first_start_ns = rec->request_start_ns;
        spans[n].last_end_ns = rec->request_end_ns;
        spans[n].turns = 1;
        n++;
    }
    qsort(spans, n, sizeof *spans, cmp_span);
    size_t sessions = 0;
    for (size_t i = 0; i < n; i++) {
        if (sessions && strcmp(spans[sessions - 1].id, spans[i].id) == 0) {
            session_span *s = &spans[sessions - 1];
            if (spans[i].first_start_ns < s->first_start_ns)
                s->first_start_ns = spans[i].first_start_ns;
            if (spans[i].last_end_ns > s->last_end_ns) s->last_end_ns = spans[i].last_end_ns;
            s->turns++;
        } else {
            spans[sessions++] = spans[i];
        }
    }
    json_t *o = json_object();
    json_object_set_new(o, "sessions", json_integer((json_int_t)sessions));
    for (size_t i = 0; i < sessions; i++) v[i] = (double)spans[i].turns;
    json_t *turns = stats_object(v, sessions, 1.0, "turns");
    if (turns) json_object_set_new(o, "turns_per_session", turns);
    for (size_t i = 0; i < sessions; i++)
        v[i] = (double)(spans[i].last_end_ns - spans[i].first_start_ns);
    json_t *dur = stats_object(v, sessions, 1e-6, "ms");
    if (dur) json_object_set_new(o, "session_duration", dur);
    json_object_set_new(o, "by_turn", by_turn(r, max_turn, v));
    free(spans);
    free(v);
    return o;
}
