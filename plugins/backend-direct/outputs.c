/*
 * outputs.c - inputs.json, outputs.json, benchmark_summary.txt,
 * failure_reason.txt (see outputs.h).
 */
#include "outputs.h"

#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

static FILE *open_in(const char *dir, const char *name, char *path, size_t cap, smfw_error *err) {
    snprintf(path, cap, "%s/%s", dir, name);
    FILE *f = fopen(path, "w");
    if (!f) smfw_error_set(err, SMFW_ERR_IO, "cannot write %s: %s", path, strerror(errno));
    return f;
}

static smfw_status close_checked(FILE *f, const char *path, smfw_error *err) {
    int bad = ferror(f);
    if (fclose(f) != 0 || bad)
        return smfw_error_set(err, SMFW_ERR_IO, "cannot write %s: %s", path, strerror(errno));
    return SMFW_OK;
}

smfw_status direct_write_inputs_json(const char *dir, json_t *data, smfw_error *err) {
    char path[4096];
    FILE *f = open_in(dir, "inputs.json", path, sizeof path, err);
    if (!f) return SMFW_ERR_IO;
    json_t *root = json_object();
    json_object_set(root, "data", data);
    int rc = json_dumpf(root, f, JSON_INDENT(2));
    json_decref(root);
    if (rc != 0) {
        int e = errno; /* the failed write's reason: a full disk, a file-size limit */
        fclose(f);
        return smfw_error_set(err, SMFW_ERR_IO, "cannot write %s: %s", path, strerror(e));
    }
    return close_checked(f, path, err);
}

smfw_status direct_outputs_open(direct_outputs *o, const char *dir, smfw_error *err) {
    char path[4096];
    o->count = 0;
    o->pending = 0;
    memset(&o->line, 0, sizeof o->line);
    o->f = open_in(dir, "outputs.json", path, sizeof path, err);
    if (!o->f) return SMFW_ERR_IO;
    fputs("{\n  \"data\": [", o->f);
    fflush(o->f);
    return SMFW_OK;
}

/* Length of the valid UTF-8 sequence at s[0..n), 0 when it is not one. */
static size_t utf8_seq(const unsigned char *s, size_t n) {
    size_t need;
    uint32_t cp;
    if (s[0] >= 0xC2 && s[0] <= 0xDF) {
        need = 1, cp = s[0] & 0x1Fu;
    } else if (s[0] >= 0xE0 && s[0] <= 0xEF) {
        need = 2, cp = s[0] & 0x0Fu;
    } else if (s[0] >= 0xF0 && s[0] <= 0xF4) {
        need = 3, cp = s[0] & 0x07u;
    } else {
        return 0;
    }
    if (n <= need) return 0;
    for (size_t k = 1; k <= need; k++) {
        if ((s[k] & 0xC0) != 0x80) return 0;
        cp = (cp << 6) | (s[k] & 0x3Fu);
    }
    if ((need == 2 && cp < 0x800) || (need == 3 && (cp < 0x10000 || cp > 0x10FFFF)) ||
        (cp >= 0xD800 && cp <= 0xDFFF))
        return 0;
    return need + 1;
}

int direct_json_string_append(smfw_buf *b, const char *str, size_t n) {
    static const char hex[] = "0123456789ABCDEF"; /* as jansson writes them */
    const unsigned char *s = (const unsigned char *)str;
    if (smfw_buf_reserve(b, n + 2) != 0) return -1;
    int rc = smfw_buf_append(b, "\"", 1);
    size_t run = 0; /* bytes copied through unchanged, flushed in one append */
    for (size_t i = 0; i < n && rc == 0;) {
        unsigned char c = s[i];
        const char *esc = NULL;
        char u[6];
        size_t el = 2, adv = 1;
        if (c >= 0x20 && c != '"' && c != '\\' && c < 0x80) {
            run++, i++;
            continue;
        }
        if (c >= 0x80) {
            size_t k = utf8_seq(s + i, n - i);
            if (k) {
                run += k, i += k;
                continue;
            }
            esc = "\\ufffd"; /* not UTF-8: the replacement character, as a decoder would */
            el = 6;
        } else if (c == '"') {
            esc = "\\\"";
        } else if (c == '\\') {
            esc = "\\\\";
        } else if (c == '\n') {
            esc = "\\n";
        } else if (c == '\r') {
            esc = "\\r";
        } else if (c == '\t') {
            esc = "\\t";
        } else if (c == '\b') {
            esc = "\\b";
        } else if (c == '\f') {
            esc = "\\f";
        } else {
            u[0] = '\\', u[1] = 'u', u[2] = '0', u[3] = '0', u[4] = hex[c >> 4], u[5] = hex[c & 15];
            esc = u;
            el = 6;
        }
        if (run) rc = smfw_buf_append(b, str + i - run, run);
        run = 0;
        if (rc == 0) rc = smfw_buf_append(b, esc, el);
        i += adv;
    }
    if (run && rc == 0) rc = smfw_buf_append(b, str + n - run, run);
    if (rc == 0) rc = smfw_buf_append(b, "\"", 1);
    return rc;
}

static int append_str(smfw_buf *b, const char *s) {
    return smfw_buf_append(b, s, strlen(s));
}

/* One compact JSON object per request, written without building a JSON tree. */
void direct_outputs_add(direct_outputs *o, const smfw_record *rec, const char *text,
                        const char *reasoning) {
    if (!o->f) return;
    smfw_buf *b = &o->line;
    char num[48];
    smfw_buf_reset(b);
    int rc = append_str(b, o->count ? ",\n    " : "\n    ");
    snprintf(num, sizeof num, "{\"session_num\":%lld", (long long)smfw_record_session(rec, NULL));
    rc |= append_str(b, num);
    const char *id = smfw_record_text(rec, SMFW_RECORD_X_REQUEST_ID);
    if (id) {
        rc |= append_str(b, ",\"x_request_id\":");
        rc |= direct_json_string_append(b, id, strlen(id));
    }
    const char *conv = smfw_record_text(rec, SMFW_RECORD_CONVERSATION_ID);
    if (conv) {
        rc |= append_str(b, ",\"conversation_id\":");
        rc |= direct_json_string_append(b, conv, strlen(conv));
    }
    if (reasoning) {
        rc |= append_str(b, ",\"reasoning\":");
        rc |= direct_json_string_append(b, reasoning, strlen(reasoning));
    }
    rc |= append_str(b, ",\"output\":");
    rc |= direct_json_string_append(b, text ? text : "", text ? strlen(text) : 0);
    const smfw_record_error *e = smfw_record_get_error(rec);
    if (e) {
        rc |= append_str(b, ",\"error\":{");
        const char *sep = "";
        if (e->has_code) {
            snprintf(num, sizeof num, "\"code\":%d", e->code);
            rc |= append_str(b, num);
            sep = ",";
        }
        if (e->type) {
            rc |= append_str(b, sep);
            rc |= append_str(b, "\"type\":");
            rc |= direct_json_string_append(b, e->type, strlen(e->type));
            sep = ",";
        }
        rc |= append_str(b, sep);
        rc |= append_str(b, "\"class\":\"");
        rc |= append_str(b, smfw_error_class_name(e->error_class));
        rc |= append_str(b, "\"}");
    }
    rc |= append_str(b, "}");
    if (rc != 0) return; /* out of memory: this entry is skipped, the file stays valid */
    fwrite(b->data, 1, b->len, o->f);
    o->count++;
    o->pending++;
}

void direct_outputs_flush(direct_outputs *o) {
    if (o->f && o->pending) fflush(o->f);
    o->pending = 0;
}

smfw_status direct_outputs_close(direct_outputs *o, smfw_error *err) {
    smfw_buf_free(&o->line);
    if (!o->f) return SMFW_OK;
    fputs(o->count ? "\n  ]\n}\n" : "]\n}\n", o->f);
    smfw_status st = close_checked(o->f, "outputs.json", err);
    o->f = NULL;
    return st;
}

static void stat_row(FILE *f, const smfw_results *r, smfw_metric_id id, const char *label) {
    const smfw_stats *s = smfw_results_stat(r, id);
    if (!s) return;
    if (s->fields & (SMFW_STAT_P_FIRST << SMFW_P50))
        fprintf(f, "  %-34s %12.2f %12.2f %12.2f %12.2f %12.2f\n", label, s->avg, s->p[SMFW_P50],
                s->p[SMFW_P90], s->p[SMFW_P99], s->max);
    else
        fprintf(f, "  %-34s %12.2f\n", label, s->avg);
}

/* Valid and failed records of the run. */
static void count_records(const smfw_results *r, uint64_t *valid, uint64_t *errors) {
    for (size_t i = 0; i < smfw_results_record_count(r); i++) {
        if (smfw_record_get_error(smfw_results_record(r, i)))
            (*errors)++;
        else
            (*valid)++;
    }
}

char *direct_failure_reason_text(const smfw_results *r) {
    uint64_t errors = 0, valid = 0;
    count_records(r, &valid, &errors);
    double rate = (errors + valid) ? (double)errors / (double)(errors + valid) : 0.0;
    size_t cap = 4096;
    char *out = malloc(cap);
    if (!out) return NULL;
    int n = snprintf(out, cap,
                     "The run failed its validity gate: %llu of %llu requests failed (%.2f %%), "
                     "more than the %.2f %% allowed (max_error_rate). Metrics were computed over "
                     "the %llu valid requests.",
                     (unsigned long long)errors, (unsigned long long)(errors + valid), rate * 100.0,
                     smfw_results_info(r)->max_error_rate * 100.0, (unsigned long long)valid);
    for (size_t i = 0; i < smfw_results_error_summary_count(r) && i < 5 && n > 0 && (size_t)n < cap;
         i++) {
        const smfw_error_summary_entry *e = smfw_results_error_summary(r, i);
        n += snprintf(out + n, cap - (size_t)n, "\n  %llu x %s%s%s%s: %.300s",
                      (unsigned long long)e->count, smfw_error_class_name(e->error_class),
                      e->type ? " (" : "", e->type ? e->type : "", e->type ? ")" : "",
                      e->message ? e->message : "");
    }
    return out;
}

smfw_status direct_write_failure_reason(const char *dir, const smfw_results *r, smfw_error *err) {
    char path[4096];
    FILE *f = open_in(dir, "failure_reason.txt", path, sizeof path, err);
    if (!f) return SMFW_ERR_IO;
    char *text = direct_failure_reason_text(r);
    fprintf(f, "%s\n", text ? text : "validity gate tripped");
    free(text);
    return close_checked(f, path, err);
}

smfw_status direct_write_summary(const char *dir, const smfw_results *r, const direct_options *o,
                                 const char *const *hints, size_t n_hints, const char *selfcheck,
                                 smfw_error *err) {
    char path[4096];
    FILE *f = open_in(dir, "benchmark_summary.txt", path, sizeof path, err);
    if (!f) return SMFW_ERR_IO;
    const smfw_run_info *in = smfw_results_info(r);
    fprintf(f, "smfw %s benchmark (direct backend)\n\n", in->smfw_version ? in->smfw_version : "");
    if (in->target) fprintf(f, "target:        %s\n", in->target);
    fprintf(f, "payload:       %s, %s\n", in->endpoint_type ? in->endpoint_type : "?",
            o->streaming ? "streaming" : "not streaming");
    if (o->arrival == DIRECT_ARRIVAL_CLOSED && o->sessions)
        fprintf(f, "load:          closed loop, %lld users, each a conversation after another",
                (long long)o->concurrency);
    else if (o->arrival == DIRECT_ARRIVAL_CLOSED)
        fprintf(f, "load:          closed loop, concurrency %lld", (long long)o->concurrency);
    else if (o->sessions)
        fprintf(f, "load:          open loop, %.3f conversations/s started (%s)%s", o->request_rate,
                o->arrival == DIRECT_ARRIVAL_POISSON ? "poisson" : "constant",
                o->max_concurrency ? ", capped" : "");
    else if (o->arrival == DIRECT_ARRIVAL_FIXED)
        fprintf(f, "load:          fixed schedule (the dataset's send times, speedup %g)%s",
                o->schedule_speedup, o->max_concurrency ? ", capped" : "");
    else
        fprintf(f, "load:          open loop, %.3f requests/s (%s)%s", o->request_rate,
                o->arrival == DIRECT_ARRIVAL_POISSON ? "poisson" : "constant",
                o->max_concurrency ? ", capped" : "");
    if (o->request_count)
        fprintf(f, ", %lld %s", (long long)o->request_count, o->sessions ? "turns" : "requests");
    if (o->duration_s > 0) fprintf(f, ", %.1f s", o->duration_s);
    if (o->warmup_request_count || o->warmup_duration_s > 0) fprintf(f, " after a warm-up");
    fputc('\n', f);
    uint64_t errors = 0, valid = 0;
    count_records(r, &valid, &errors);
    double rate = (errors + valid) ? 100.0 * (double)errors / (double)(errors + valid) : 0.0;
    fprintf(f, "requests:      %llu valid, %llu errors (%.2f %%)%s\n", (unsigned long long)valid,
            (unsigned long long)errors, rate, in->was_cancelled ? ", interrupted" : "");
    fprintf(f, "validity gate: %s (max error rate %.2f %%)\n",
            in->gate_tripped ? "FAILED" : "passed", in->max_error_rate * 100.0);
    if (in->token_count_source) fprintf(f, "token counts:  %s\n", in->token_count_source);
    fprintf(f, "\n  %-34s %12s %12s %12s %12s %12s\n", "metric", "avg", "p50", "p90", "p99", "max");
    stat_row(f, r, SMFW_M_TIME_TO_FIRST_TOKEN, "time to first token (ms)");
    stat_row(f, r, SMFW_M_TIME_TO_SECOND_TOKEN, "time to second token (ms)");
    stat_row(f, r, SMFW_M_INTER_TOKEN_LATENCY, "inter-token latency (ms)");
    stat_row(f, r, SMFW_M_REQUEST_LATENCY, "request latency (ms)");
    stat_row(f, r, SMFW_M_TTFT_FROM_INTENDED, "TTFT from intended send (ms)");
    stat_row(f, r, SMFW_M_REQUEST_LATENCY_FROM_INTENDED, "latency from intended send (ms)");
    stat_row(f, r, SMFW_M_SCHEDULE_LAG, "schedule lag (ms)");
    stat_row(f, r, SMFW_M_OUTPUT_TOKEN_THROUGHPUT_PER_USER, "output tokens/s per user");
    stat_row(f, r, SMFW_M_OUTPUT_SEQUENCE_LENGTH, "output sequence length (tokens)");
    stat_row(f, r, SMFW_M_INPUT_SEQUENCE_LENGTH, "input sequence length (tokens)");
    fputc('\n', f);
    stat_row(f, r, SMFW_M_OUTPUT_TOKEN_THROUGHPUT, "output token throughput (tokens/s)");
    stat_row(f, r, SMFW_M_REQUEST_THROUGHPUT, "request throughput (requests/s)");
    stat_row(f, r, SMFW_M_GOODPUT, "goodput (requests/s)");
    stat_row(f, r, SMFW_M_BENCHMARK_DURATION, "benchmark duration (s)");
    if (smfw_results_error_summary_count(r)) {
        fprintf(f, "\nerrors:\n");
        for (size_t i = 0; i < smfw_results_error_summary_count(r); i++) {
            const smfw_error_summary_entry *e = smfw_results_error_summary(r, i);
            fprintf(f, "  %6llu  %-13s", (unsigned long long)e->count,
                    smfw_error_class_name(e->error_class));
            if (e->has_code) fprintf(f, " %d", e->code);
            fprintf(f, " %s: %.300s\n", e->type ? e->type : "", e->message ? e->message : "");
        }
    }
    if (selfcheck) fprintf(f, "\nclient self-check: %s\n", selfcheck);
    if (n_hints) {
        fprintf(f, "\nnotes:\n");
        for (size_t i = 0; i < n_hints; i++) fprintf(f, "  - %s\n", hints[i]);
    }
    if (in->gate_tripped) {
        char *t = direct_failure_reason_text(r);
        if (t) fprintf(f, "\n%s\n", t);
        free(t);
    }
    return close_checked(f, path, err);
}
