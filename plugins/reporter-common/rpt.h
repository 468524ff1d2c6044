/*
 * rpt.h - helpers shared by smfw's reporter plugins (json, csv, markdown,
 * html). Compiled into each module that needs them (this folder has no
 * CMakeLists.txt, so it is not a plugin of its own); every symbol is hidden.
 *
 * What lives here (text is built in smfw_buf, smfw/buf.h): number formatting that matches
 * Python (AIPerf writes its files from Python), a Python-compatible JSON
 * pretty-printer, the list of metrics of a run in AIPerf's orders, and a
 * file writer whose errors name the file.
 */
#ifndef SMFW_RPT_H
#define SMFW_RPT_H

#include <stddef.h>
#include <stdint.h>

#include <jansson.h>

#include <smfw/results.h>
#include <smfw/buf.h>
#include <smfw/smfw.h>

/* ---- numbers ------------------------------------------------------------ */

/** Room for any formatted double. */
#define RPT_NUM_MAX 40

/**
 * Python's repr(float): the shortest digits that read back as the same
 * double, fixed notation for exponents -4..15 ("64.0", "0.0001"), else
 * scientific with a signed two-digit exponent ("1.7625515347970678e+18",
 * "1e-05"). Non-finite values give "NaN", "Infinity", "-Infinity".
 */
void rpt_repr_double(double v, char out[RPT_NUM_MAX]);

/** Python's f"{v:.2f}" (exact rounding of the binary value, as glibc does). */
void rpt_fixed2(double v, char out[RPT_NUM_MAX]);

/** Human number: thousands separators and `decimals` digits ("12,799.00"). */
void rpt_human(double v, int decimals, char out[RPT_NUM_MAX]);

/* ---- JSON ----------------------------------------------------------------- */

/**
 * Append `value` as Python's json.dumps(value, indent=indent) would write it
 * (ensure_ascii: non-ASCII as lower-case \uXXXX escapes, surrogate pairs
 * above U+FFFF; reals through rpt_repr_double; key order as stored). A
 * non-finite real is written as null so strict readers still parse the file.
 * Invalid UTF-8 in a string is written as U+FFFD.
 */
void rpt_json_dump(smfw_buf *b, const json_t *value, int indent);

/** Append `s` as a JSON string literal with the same escaping rules. */
void rpt_json_string(smfw_buf *b, const char *s);

/* ---- metrics of a run ----------------------------------------------------- */

/** One metric with a value in this run, known to smfw or carried from a newer bundle. */
typedef struct rpt_metric {
    const char *tag;
    const char *header;
    const char *unit;
    const smfw_stats *stats;
    int id;           /**< smfw_metric_id, or -1 for an extra metric */
    int distribution; /**< 1 = full statistics (CSV section 1), 0 = single value */
    int smfw_only;    /**< smfw extension (lives under "smfw" in the JSON) */
} rpt_metric;

/**
 * Every metric present in the results (known ids first in enum order, then
 * extras in stored order). *out is malloc'd (caller frees); returns the count.
 * Returns (size_t)-1 on allocation failure.
 */
size_t rpt_metrics_collect(const smfw_results *r, rpt_metric **out);

/** Sort metrics by tag (Python's sorted() on ASCII strings = strcmp). */
void rpt_metrics_sort_by_tag(rpt_metric *m, size_t n);

/** The metric with that tag, or NULL. */
const rpt_metric *rpt_metrics_find(const rpt_metric *m, size_t n, const char *tag);

/**
 * AIPerf's CSV/console label: header plus " (unit)", except for the units
 * "count" and "requests" (and no unit at all).
 */
void rpt_metric_label(const rpt_metric *m, smfw_buf *b);

/* ---- time ------------------------------------------------------------------- */

/** Naive local-time ISO string with microseconds, as AIPerf's start_time. */
void rpt_iso_local(int64_t wall_ns, char out[64]);

/** UTC with seconds, for humans ("2025-11-07 13:38:54 UTC"). */
void rpt_utc_human(int64_t wall_ns, char out[64]);

/* ---- files ------------------------------------------------------------------ */

/**
 * Write `len` bytes to dir/name through a temporary file in the same folder
 * and a rename, so a reader never sees half a report. Every failure (open,
 * short write, disk full at close, rename) is an SMFW_ERR_IO naming the file.
 */
smfw_status rpt_write_file(const char *dir, const char *name, const char *data, size_t len,
                           smfw_error *err);

/** An allocation failure while building `name`, as an error naming the file. */
smfw_status rpt_nomem(const char *dir, const char *name, smfw_error *err);

/* ---- the human summary shared by markdown and html ------------------------- */

/** One "key: value" line of the run header. */
typedef struct rpt_kv {
    const char *key;
    char value[512];
} rpt_kv;

/** Room for every run header line. */
#define RPT_HEADER_MAX 12

/**
 * The run header: what was benchmarked, where, when, how (load, dataset,
 * token counts), and by which tool. Lines without a value are left out.
 */
size_t rpt_run_header(const smfw_results *r, rpt_kv out[RPT_HEADER_MAX]);

/** A name for the run: run name, target, or the folder the results came from. */
void rpt_run_title(const smfw_results *r, char *out, size_t size);

/** One row of the headline table (values already formatted, "" = none). */
typedef struct rpt_headline_row {
    const char *label;
    const char *unit;
    int single; /**< one value (in avg), no percentiles */
    char avg[RPT_NUM_MAX], p50[RPT_NUM_MAX], p90[RPT_NUM_MAX], p99[RPT_NUM_MAX];
} rpt_headline_row;

#define RPT_HEADLINE_MAX 16

/** Throughputs, TTFT, ITL, latency, per-user throughput, sequence lengths, goodput, counts. */
size_t rpt_headline(const smfw_results *r, rpt_headline_row out[RPT_HEADLINE_MAX]);

/** Failed requests per smfw_error_class (from the error summary). Returns the total. */
uint64_t rpt_errors_by_class(const smfw_results *r, uint64_t counts[SMFW_ERRCLASS_COUNT_]);

/** The validity verdict as one sentence; returns 1 when the run is valid. */
int rpt_verdict(const smfw_results *r, char *text, size_t size);

/**
 * The well-known files of a result folder that no reporter of the run declared (AIPerf's
 * bundle files, the backends' records and logs) and what each holds (NULL if unknown).
 */
const char *rpt_file_description(const char *name);

#endif /* SMFW_RPT_H */
