/* results_internal.h - core-private helpers shared by the results files. */
#ifndef SMFW_RESULTS_INTERNAL_H
#define SMFW_RESULTS_INTERNAL_H

#include <pthread.h>
#include <stdio.h>

#include <smfw/results.h>

typedef struct smfw_results_private {
    pthread_mutex_t lock;
    FILE *jsonl;
    char *jsonl_path;
} smfw_results_private;

/* A growable string buffer for hand-written JSON. */
typedef struct smfw_sbuf {
    char *data;
    size_t len, cap;
    int failed;
} smfw_sbuf;

void smfw_sbuf_init(smfw_sbuf *b);
void smfw_sbuf_free(smfw_sbuf *b);
void smfw_sbuf_append(smfw_sbuf *b, const char *s, size_t n);
void smfw_sbuf_puts(smfw_sbuf *b, const char *s);
void smfw_sbuf_printf(smfw_sbuf *b, const char *fmt, ...) SMFW_PRINTF(2, 3);
void smfw_sbuf_json_string(smfw_sbuf *b, const char *s);
void smfw_sbuf_double(smfw_sbuf *b, double v);
/* Detach the buffer (NUL-terminated, caller frees); NULL if an allocation failed. */
char *smfw_sbuf_take(smfw_sbuf *b);

/* Read an AIPerf metric object ({unit, avg, p1.., min, max, std, count, sum}) into stats;
 * absent or null fields are left unset (fields mask). Takes a jansson json_t *. */
struct json_t;
void smfw_stats_read_json(struct json_t *obj, smfw_stats *s);

/* AIPerf's header for a metric newer than this catalogue, or NULL. */
const char *smfw_metric_known_extra_header(const char *tag);

/* Copy a string field; used by the parsers. */
char *smfw_strdup_or_null(const char *s);

#endif
