/*
 * outputs.h - the files a direct run writes besides the AIPerf exports:
 * inputs.json (every payload, AIPerf's shape, before the run), outputs.json
 * (each request's generated text, streamed as requests finish),
 * benchmark_summary.txt (one human page) and failure_reason.txt (only when
 * the validity gate trips), so the folder looks like a managed bundle.
 */
#ifndef DIRECT_OUTPUTS_H
#define DIRECT_OUTPUTS_H

#include <stdio.h>

#include <jansson.h>

#include <smfw/buf.h>
#include <smfw/results.h>

#include "options.h"

/** Write {"data": [...]} (2-space indent) to dir/inputs.json. Borrows `data`. */
smfw_status direct_write_inputs_json(const char *dir, json_t *data, smfw_error *err);

typedef struct direct_outputs {
    FILE *f;
    int count;
    int pending;   /* entries written since the last flush */
    smfw_buf line; /* one entry, reused */
} direct_outputs;

smfw_status direct_outputs_open(direct_outputs *o, const char *dir, smfw_error *err);
/**
 * One entry per profiling request (valid or not). Entries reach the file at
 * direct_outputs_flush(), called once per batch of finished requests: the
 * per-request crash-safe file is profile_export.jsonl (flushed per record);
 * outputs.json may lose its last batch in a crash.
 */
void direct_outputs_add(direct_outputs *o, const smfw_record *rec, const char *text,
                        const char *reasoning);
void direct_outputs_flush(direct_outputs *o);

/**
 * Append `str` (n bytes) as a JSON string literal: quotes, escapes for '"',
 * '\\' and control characters, UTF-8 copied through, and every byte that is
 * not part of valid UTF-8 replaced by \ufffd. Returns 0, -1 when out of memory.
 */
int direct_json_string_append(smfw_buf *b, const char *str, size_t n);
smfw_status direct_outputs_close(direct_outputs *o, smfw_error *err);

/** The human summary; `hints` are the diagnosis lines (may be NULL). */
smfw_status direct_write_summary(const char *dir, const smfw_results *r, const direct_options *o,
                                 const char *const *hints, size_t n_hints, const char *selfcheck,
                                 smfw_error *err);

/** failure_reason.txt: why the run failed its validity gate. */
smfw_status direct_write_failure_reason(const char *dir, const smfw_results *r, smfw_error *err);

/** The sentence failure_reason.txt holds (malloc'd). */
char *direct_failure_reason_text(const smfw_results *r);

#endif /* DIRECT_OUTPUTS_H */
