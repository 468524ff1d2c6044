/*
 * results_access.c - reading results through functions (results.h, "reading
 * results"): what reporters use instead of the fields of smfw_results and
 * smfw_record, so that the structs can become opaque in ABI 2.0 and metrics
 * can be appended without moving anything a compiled reporter reads.
 */
#include <jansson.h>
#include <stdlib.h>
#include <string.h>

#include <smfw/results_layout.h>
#include <smfw/log.h>
#include <smfw/results.h>

#include "results_internal.h"

const smfw_stats *smfw_results_stat(const smfw_results *r, smfw_metric_id id) {
    if (!r || (int)id < 0 || id >= SMFW_M_COUNT_) return NULL;
    return r->stats[id].present ? &r->stats[id] : NULL;
}

size_t smfw_results_extra_count(const smfw_results *r) {
    return r ? r->n_extra : 0;
}

const smfw_extra_metric *smfw_results_extra(const smfw_results *r, size_t i) {
    return r && i < r->n_extra ? &r->extra[i] : NULL;
}

size_t smfw_results_record_count(const smfw_results *r) {
    return r ? r->n_records : 0;
}

const smfw_record *smfw_results_record(const smfw_results *r, size_t i) {
    return r && i < r->n_records ? &r->records[i] : NULL;
}

size_t smfw_results_error_summary_count(const smfw_results *r) {
    return r ? r->n_errors : 0;
}

const smfw_error_summary_entry *smfw_results_error_summary(const smfw_results *r, size_t i) {
    return r && i < r->n_errors ? &r->errors[i] : NULL;
}

const smfw_run_info *smfw_results_info(const smfw_results *r) {
    return r ? &r->info : NULL;
}

/* The cached parse of `text` (a field of the run info), parsing again when it changed. */
static json_t *cached_json(const smfw_results *r, smfw_json_cache *c, const char *text,
                           const char *what) {
    smfw_results_private *p = r->internal_;
    if (!text || !p) return NULL;
    pthread_mutex_lock(&p->lock);
    if (!c->text || strcmp(c->text, text) != 0) {
        char *copy = strdup(text);
        if (!copy) {
            pthread_mutex_unlock(&p->lock);
            return NULL;
        }
        json_error_t jerr;
        json_t *v = json_loads(text, JSON_DECODE_ANY, &jerr);
        if (!v) SMFW_LOG_WARN("results", "the run's %s is not JSON (%s)", what, jerr.text);
        free(c->text);
        json_decref(c->value);
        c->text = copy;
        c->value = v;
    }
    json_t *v = c->value;
    pthread_mutex_unlock(&p->lock);
    return v;
}

json_t *smfw_results_input_config(const smfw_results *r) {
    if (!r) return NULL;
    smfw_results_private *p = r->internal_;
    return cached_json(r, &p->input_config, r->info.input_config_json, "input_config");
}

json_t *smfw_results_client(const smfw_results *r) {
    if (!r) return NULL;
    smfw_results_private *p = r->internal_;
    return cached_json(r, &p->client, r->info.smfw_json, "client self-check");
}

void smfw_results_access_free(smfw_results_private *p) {
    smfw_json_cache *caches[] = {&p->input_config, &p->client};
    for (size_t i = 0; i < sizeof caches / sizeof caches[0]; i++) {
        free(caches[i]->text);
        json_decref(caches[i]->value);
        memset(caches[i], 0, sizeof *caches[i]);
    }
}

int smfw_record_value(const smfw_record *rec, smfw_metric_id id, double *out) {
    if (!rec || id == SMFW_M_INTER_CHUNK_LATENCY || !smfw_record_has(rec, id)) return 0;
    if (out) *out = rec->values[id];
    return 1;
}

const double *smfw_record_icl(const smfw_record *rec, size_t *n) {
    size_t len = rec && rec->icl ? rec->icl_len : 0;
    if (n) *n = len;
    return len ? rec->icl : NULL;
}

int64_t *smfw_record_time_field(const smfw_record *rec, smfw_record_time which) {
    smfw_record *r = (smfw_record *)rec; /* one mapping for the reader and the setter */
    if (!r) return NULL;
    switch (which) {
    case SMFW_RECORD_CREDIT_ISSUED:
        return &r->credit_issued_ns;
    case SMFW_RECORD_REQUEST_START:
        return &r->request_start_ns;
    case SMFW_RECORD_REQUEST_ACK:
        return &r->request_ack_ns;
    case SMFW_RECORD_REQUEST_END:
        return &r->request_end_ns;
    case SMFW_RECORD_CANCELLATION:
        return &r->cancellation_time_ns;
    case SMFW_RECORD_INTENDED_START:
        return &r->intended_start_ns;
    }
    return NULL;
}

char **smfw_record_text_field(const smfw_record *rec, smfw_record_text_id which) {
    smfw_record *r = (smfw_record *)rec;
    if (!r) return NULL;
    switch (which) {
    case SMFW_RECORD_X_REQUEST_ID:
        return &r->x_request_id;
    case SMFW_RECORD_X_CORRELATION_ID:
        return &r->x_correlation_id;
    case SMFW_RECORD_CONVERSATION_ID:
        return &r->conversation_id;
    case SMFW_RECORD_WORKER_ID:
        return &r->worker_id;
    case SMFW_RECORD_PROCESSOR_ID:
        return &r->record_processor_id;
    case SMFW_RECORD_TOKEN_COUNT_SOURCE:
        return &r->token_count_source;
    }
    return NULL;
}

int64_t smfw_record_time_ns(const smfw_record *rec, smfw_record_time which) {
    const int64_t *field = smfw_record_time_field(rec, which);
    return field ? *field : 0;
}

const char *smfw_record_request_id(const smfw_record *rec) {
    return rec ? rec->x_request_id : NULL;
}

const smfw_record_error *smfw_record_get_error(const smfw_record *rec) {
    return rec ? rec->error : NULL;
}

const char *smfw_record_text(const smfw_record *rec, smfw_record_text_id which) {
    char **field = smfw_record_text_field(rec, which);
    return field ? *field : NULL;
}

int64_t smfw_record_session(const smfw_record *rec, int32_t *turn_index) {
    if (turn_index) *turn_index = rec ? rec->turn_index : 0;
    return rec ? rec->session_num : -1;
}

int smfw_record_http_status(const smfw_record *rec) {
    return rec ? rec->http_status : 0;
}

int smfw_record_was_cancelled(const smfw_record *rec) {
    return rec ? rec->was_cancelled : 0;
}

int smfw_results_records_complete(const smfw_results *r) {
    return r ? r->records_complete : 0;
}
