/* record.c - one request's record and the per-record metric formulas (aiperf-compat §2.2). */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <smfw/results_layout.h>

/* One presence bit per id; past 64 ids `present` becomes an array (a private layout). */
_Static_assert(SMFW_M_COUNT_ <= 64, "smfw_record.present has 64 bits");

smfw_record *smfw_record_new(void) {
    smfw_record *rec = malloc(sizeof *rec);
    if (rec) smfw_record_init(rec);
    return rec;
}

void smfw_record_free(smfw_record *rec) {
    if (!rec) return;
    smfw_record_clear(rec);
    free(rec);
}

void smfw_record_init(smfw_record *rec) {
    memset(rec, 0, sizeof *rec);
    rec->session_num = -1;
}

void smfw_record_clear(smfw_record *rec) {
    free(rec->x_request_id);
    free(rec->x_correlation_id);
    free(rec->conversation_id);
    free(rec->worker_id);
    free(rec->record_processor_id);
    free(rec->token_count_source);
    free(rec->icl);
    free(rec->extra_metrics_json);
    if (rec->error) {
        free(rec->error->type);
        free(rec->error->message);
        free(rec->error->cause);
        free(rec->error);
    }
    smfw_record_init(rec);
}

void smfw_record_set(smfw_record *rec, smfw_metric_id id, double value) {
    if (!smfw_metric_is_per_record(id)) return;
    rec->values[id] = value;
    rec->present |= (uint64_t)1 << id;
}

int smfw_record_has(const smfw_record *rec, smfw_metric_id id) {
    if (!smfw_metric_is_per_record(id)) return 0;
    if (id == SMFW_M_INTER_CHUNK_LATENCY) return rec->icl_len > 0;
    return (rec->present >> id) & 1;
}

const char *smfw_error_class_name(smfw_error_class cls) {
    static const char *names[SMFW_ERRCLASS_COUNT_] = {
        "none",       "connect", "connection",  "timeout", "throttled",    "model_error",
        "validation", "auth",    "unavailable", "http",    "stream_error", "crc",
        "protocol",   "invalid", "cancelled",   "other"};
    if ((int)cls < 0 || cls >= SMFW_ERRCLASS_COUNT_) return "other";
    return names[cls];
}

#define SMFW_ERROR_MESSAGE_CAP 4096

smfw_status smfw_record_set_error(smfw_record *rec, smfw_error_class cls, int has_code, int code,
                                  const char *type, const char *message) {
    if (!rec->error) {
        rec->error = calloc(1, sizeof *rec->error);
        if (!rec->error) return SMFW_ERR_NOMEM;
    } else {
        free(rec->error->type);
        free(rec->error->message);
        free(rec->error->cause);
        memset(rec->error, 0, sizeof *rec->error);
    }
    rec->error->error_class = cls;
    rec->error->has_code = has_code;
    rec->error->code = code;
    rec->error->type = type ? strdup(type) : NULL;
    if (message) {
        size_t n = strlen(message);
        if (n > SMFW_ERROR_MESSAGE_CAP) n = SMFW_ERROR_MESSAGE_CAP;
        char *m = malloc(n + 1);
        if (m) {
            char *tmp = strndup(message, n);
            smfw_secret_mask(m, n + 1, tmp ? tmp : "");
            free(tmp);
        }
        rec->error->message = m;
    }
    return SMFW_OK;
}

void smfw_record_set_output_tokens(smfw_record *rec, int streaming, int64_t output_tokens,
                                   int64_t reasoning_tokens) {
    if (rec->error) return;
    static const smfw_metric_id follow[] = {SMFW_M_OUTPUT_TOKEN_COUNT,
                                            SMFW_M_REASONING_TOKEN_COUNT,
                                            SMFW_M_OUTPUT_SEQUENCE_LENGTH,
                                            SMFW_M_INTER_TOKEN_LATENCY,
                                            SMFW_M_OUTPUT_TOKEN_THROUGHPUT_PER_USER,
                                            SMFW_M_USAGE_COMPLETION_TOKENS_DIFF_PCT,
                                            SMFW_M_USAGE_REASONING_TOKENS_DIFF_PCT};
    for (size_t i = 0; i < sizeof follow / sizeof follow[0]; i++)
        rec->present &= ~((uint64_t)1 << follow[i]);
    int have_out = output_tokens >= 0, have_reason = reasoning_tokens >= 0;
    if (have_out && output_tokens > 0)
        smfw_record_set(rec, SMFW_M_OUTPUT_TOKEN_COUNT, (double)output_tokens);
    if (have_reason) smfw_record_set(rec, SMFW_M_REASONING_TOKEN_COUNT, (double)reasoning_tokens);
    if (!have_out && !have_reason) return;
    int64_t osl = (have_out ? output_tokens : 0) + (have_reason ? reasoning_tokens : 0);
    smfw_record_set(rec, SMFW_M_OUTPUT_SEQUENCE_LENGTH, (double)osl);
    if (streaming && osl >= 2 && smfw_record_has(rec, SMFW_M_REQUEST_LATENCY) &&
        smfw_record_has(rec, SMFW_M_TIME_TO_FIRST_TOKEN)) {
        /* The latency and TTFT doubles stored by smfw_record_derive(), so a recount gives
         * the same bits as a count known at once. */
        double itl =
            (rec->values[SMFW_M_REQUEST_LATENCY] - rec->values[SMFW_M_TIME_TO_FIRST_TOKEN]) /
            (double)(osl - 1);
        smfw_record_set(rec, SMFW_M_INTER_TOKEN_LATENCY, itl);
        /* AIPerf: 1 / (ITL converted to seconds, ns x 1e-9); 1e9 / itl differs in the
         * last bit for about a third of the fixtures' records. */
        if (itl > 0)
            smfw_record_set(rec, SMFW_M_OUTPUT_TOKEN_THROUGHPUT_PER_USER, 1.0 / (itl * 1e-9));
    }
}

void smfw_record_set_usage_diffs(smfw_record *rec) {
    /* aiperf/metrics/types/usage_diff_metrics.py: the server's count against the client's */
    static const struct {
        smfw_metric_id usage, client, diff;
    } pairs[] = {{SMFW_M_USAGE_PROMPT_TOKENS, SMFW_M_INPUT_SEQUENCE_LENGTH,
                  SMFW_M_USAGE_PROMPT_TOKENS_DIFF_PCT},
                 {SMFW_M_USAGE_COMPLETION_TOKENS, SMFW_M_OUTPUT_SEQUENCE_LENGTH,
                  SMFW_M_USAGE_COMPLETION_TOKENS_DIFF_PCT},
                 {SMFW_M_USAGE_REASONING_TOKENS, SMFW_M_REASONING_TOKEN_COUNT,
                  SMFW_M_USAGE_REASONING_TOKENS_DIFF_PCT}};
    for (size_t i = 0; i < sizeof pairs / sizeof pairs[0]; i++) {
        rec->present &= ~((uint64_t)1 << pairs[i].diff);
        if (rec->error || !smfw_record_has(rec, pairs[i].usage) ||
            !smfw_record_has(rec, pairs[i].client))
            continue;
        double client = rec->values[pairs[i].client];
        if (client == 0) continue; /* AIPerf: no value against zero client tokens */
        smfw_record_set(rec, pairs[i].diff,
                        fabs(rec->values[pairs[i].usage] - client) / client * 100.0);
    }
}

smfw_status smfw_record_derive(smfw_record *rec, const smfw_response_timing *t) {
    int64_t start = t->start_mono_ns;
    if (t->input_tokens >= 0) {
        /* ISL is known for error records too (error_isl). */
    }
    if (t->n_content == 0 || t->content_ns[t->n_content - 1] < start) {
        if (t->input_tokens >= 0) smfw_record_set(rec, SMFW_M_ERROR_ISL, (double)t->input_tokens);
        if (!rec->error)
            return smfw_record_set_error(rec, SMFW_ERRCLASS_INVALID, 0, 0,
                                         "InvalidInferenceResultError",
                                         "InvalidInferenceResultError('Invalid inference result')");
        return SMFW_OK;
    }
    if (rec->error) {
        if (t->input_tokens >= 0) smfw_record_set(rec, SMFW_M_ERROR_ISL, (double)t->input_tokens);
        return SMFW_OK;
    }
    int64_t first = t->content_ns[0];
    int64_t last = t->content_ns[t->n_content - 1];
    double latency = (double)(last - start);
    smfw_record_set(rec, SMFW_M_REQUEST_LATENCY, latency);
#ifdef SMFW_TEST_APPEND_METRIC
    smfw_record_set(rec, SMFW_M_TEST_APPENDED, latency);
#endif
    double ttft = (double)(first - start);
    if (t->streaming) {
        smfw_record_set(rec, SMFW_M_TIME_TO_FIRST_TOKEN, ttft);
        if (t->n_content >= 2)
            smfw_record_set(rec, SMFW_M_TIME_TO_SECOND_TOKEN, (double)(t->content_ns[1] - first));
        if (t->first_output_mono_ns > 0)
            smfw_record_set(rec, SMFW_M_TIME_TO_FIRST_OUTPUT_TOKEN,
                            (double)(t->first_output_mono_ns - start));
        if (t->n_content >= 2) {
            free(rec->icl);
            rec->icl = malloc((t->n_content - 1) * sizeof *rec->icl);
            if (!rec->icl) return SMFW_ERR_NOMEM;
            rec->icl_len = t->n_content - 1;
            for (size_t i = 1; i < t->n_content; i++)
                rec->icl[i - 1] = (double)(t->content_ns[i] - t->content_ns[i - 1]);
        }
    }
    smfw_record_set_output_tokens(rec, t->streaming, t->output_tokens, t->reasoning_tokens);
    if (t->input_tokens >= 0) {
        smfw_record_set(rec, SMFW_M_INPUT_SEQUENCE_LENGTH, (double)t->input_tokens);
        if (t->streaming && ttft > 0)
            smfw_record_set(rec, SMFW_M_PREFILL_THROUGHPUT_PER_USER,
                            (double)t->input_tokens / (ttft * 1e-9));
    }
    if (t->usage_prompt_tokens >= 0)
        smfw_record_set(rec, SMFW_M_USAGE_PROMPT_TOKENS, (double)t->usage_prompt_tokens);
    if (t->usage_completion_tokens >= 0)
        smfw_record_set(rec, SMFW_M_USAGE_COMPLETION_TOKENS, (double)t->usage_completion_tokens);
    if (t->usage_total_tokens >= 0)
        smfw_record_set(rec, SMFW_M_USAGE_TOTAL_TOKENS, (double)t->usage_total_tokens);
    if (t->usage_reasoning_tokens >= 0)
        smfw_record_set(rec, SMFW_M_USAGE_REASONING_TOKENS, (double)t->usage_reasoning_tokens);
    if (t->intended_mono_ns > 0) {
        smfw_record_set(rec, SMFW_M_SCHEDULE_LAG, (double)(start - t->intended_mono_ns));
        if (t->streaming)
            smfw_record_set(rec, SMFW_M_TTFT_FROM_INTENDED, (double)(first - t->intended_mono_ns));
        smfw_record_set(rec, SMFW_M_REQUEST_LATENCY_FROM_INTENDED,
                        (double)(last - t->intended_mono_ns));
    }
    return SMFW_OK;
}
