/* results_internal.h - core-private helpers shared by the results files. */
#ifndef SMFW_RESULTS_INTERNAL_H
#define SMFW_RESULTS_INTERNAL_H

#include <pthread.h>
#include <stdio.h>

#include <smfw/buf.h>
#include <smfw/results.h>

/* A JSON-text field parsed once for the typed accessors; re-parsed when the text changes. */
typedef struct smfw_json_cache {
    char *text;           /* the text `value` was parsed from (NULL = nothing cached) */
    struct json_t *value; /* NULL when that text is not JSON */
} smfw_json_cache;

typedef struct smfw_results_private {
    pthread_mutex_t lock;
    FILE *jsonl;
    char *jsonl_path;
    smfw_json_cache input_config, client; /* info.input_config_json, info.smfw_json */
} smfw_results_private;

/* results_access.c: the field behind a record time or text id, NULL for an unknown id or a
 * NULL record; the one mapping the readers and the setters (results_build.c) share. */
int64_t *smfw_record_time_field(const smfw_record *rec, smfw_record_time which);
char **smfw_record_text_field(const smfw_record *rec, smfw_record_text_id which);

/* results_access.c: free the typed JSON caches (smfw_results_free). */
void smfw_results_access_free(smfw_results_private *p);

/* Read an AIPerf metric object ({unit, avg, p1.., min, max, std, count, sum}) into stats;
 * absent or null fields are left unset (fields mask). Takes a jansson json_t *. */
struct json_t;
void smfw_stats_read_json(struct json_t *obj, smfw_stats *s);

/* session_stats.c: the "sessions" object of a multi-turn run (per-turn TTFT, latency and ISL;
 * turns per session and session durations), a new json_t *; NULL when the run has no
 * conversations (no record after a turn 0). */
struct json_t *smfw_session_stats_json(const smfw_results *r);

/* AIPerf's header for a metric newer than this catalogue, or NULL. */
const char *smfw_metric_known_extra_header(const char *tag);

/* merge_start.c: fill the report's start fields from the parts and the merged window, and
 * refuse (SMFW_ERR_CONFIG) shards that began too far apart unless opts allow it. */
struct smfw_merge_options;
struct smfw_merge_report;
smfw_status smfw_merge_judge_start(const smfw_results *const *parts, const char *const *labels,
                                   size_t n, const smfw_results *merged,
                                   const struct smfw_merge_options *opts,
                                   struct smfw_merge_report *rep, smfw_error *err);
/* The start fields as a JSON object (a json_t *) for the merged run's smfw object. */
struct json_t *smfw_merge_start_json(const struct smfw_merge_report *rep);

/* Refuse numbers that cannot be true (non-finite, too large to cast, negative, fractional
 * counts), naming src, the metric and the field. */
smfw_status smfw_results_check_plausible(const smfw_results *r, const char *src, smfw_error *err);

/* Copy a string field; used by the parsers. */
char *smfw_strdup_or_null(const char *s);

#endif
