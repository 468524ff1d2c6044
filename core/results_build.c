/*
 * results_build.c - building results through functions (results.h, "building
 * results"): what backends use instead of writing the fields of smfw_results
 * and smfw_record, so that both can become opaque in ABI 2.0. Plain stores:
 * the direct backend calls them once per completed request.
 */
#include <jansson.h>
#include <stdlib.h>
#include <string.h>

#include <smfw/results_layout.h>
#include <smfw/results.h>

#include "results_internal.h"

void smfw_record_set_time(smfw_record *rec, smfw_record_time which, int64_t ns) {
    int64_t *field = smfw_record_time_field(rec, which);
    if (field) *field = ns;
}

smfw_status smfw_record_set_text(smfw_record *rec, smfw_record_text_id which, const char *value) {
    char **field = smfw_record_text_field(rec, which);
    if (!field) return SMFW_ERR_UNSUPPORTED;
    char *copy = value ? strdup(value) : NULL;
    free(*field);
    *field = copy;
    return value && !copy ? SMFW_ERR_NOMEM : SMFW_OK;
}

void smfw_record_set_session(smfw_record *rec, int64_t session_num, int32_t turn_index) {
    if (!rec) return;
    rec->session_num = session_num;
    rec->turn_index = turn_index;
}

void smfw_record_set_http_status(smfw_record *rec, int status) {
    if (rec) rec->http_status = status;
}

void smfw_record_set_cancelled(smfw_record *rec, int was_cancelled) {
    if (rec) rec->was_cancelled = was_cancelled != 0;
}

smfw_run_info *smfw_results_info_edit(smfw_results *r) {
    return r ? &r->info : NULL;
}

smfw_stats *smfw_results_stat_edit(smfw_results *r, smfw_metric_id id) {
    if (!r || (int)id < 0 || id >= SMFW_M_COUNT_) return NULL;
    return &r->stats[id];
}

/* Replace a JSON-text field of the run info with v written compact (NULL clears it). */
static smfw_status set_json_text(char **field, const json_t *v) {
    char *text = v ? json_dumps(v, JSON_COMPACT) : NULL;
    free(*field);
    *field = text;
    return v && !text ? SMFW_ERR_NOMEM : SMFW_OK;
}

smfw_status smfw_results_set_input_config(smfw_results *r, const json_t *config) {
    return r ? set_json_text(&r->info.input_config_json, config) : SMFW_ERR_INTERNAL;
}

smfw_status smfw_results_set_client(smfw_results *r, const json_t *client) {
    return r ? set_json_text(&r->info.smfw_json, client) : SMFW_ERR_INTERNAL;
}

void smfw_results_set_records_complete(smfw_results *r, int complete) {
    if (r) r->records_complete = complete != 0;
}
