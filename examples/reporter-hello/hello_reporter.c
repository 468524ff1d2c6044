/*
 * hello_reporter.c - a tiny third-party smfw reporter ("hello").
 *
 * It shows everything a reporter needs and nothing more:
 *  - settings declared with types, defaults and help (section [reporter.hello]);
 *  - an ops table that starts with its own size;
 *  - create / write / destroy, errors returned through smfw_error;
 *  - reading the results model (metric table, statistics in display units).
 *
 * format = text (default): one line per metric on stdout,
 *     hello: time_to_first_token avg=30.81 p50=30.67 p99=34.34 ms
 * format = json: a webhook-style payload written to hello_webhook.json in
 *     the output folder, ready to POST to a dashboard.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <smfw/log.h>
#include <smfw/plugin.h>
#include <smfw/reporter.h>
#include <smfw/results.h>

typedef struct hello {
    int json;        /* format = json */
    char prefix[64]; /* text lines start with this */
} hello;

static smfw_status hello_create(const smfw_settings *settings, void **ctx, smfw_error *err) {
    hello *h = calloc(1, sizeof *h);
    if (!h) return smfw_error_set(err, SMFW_ERR_NOMEM, "hello: out of memory");
    const char *format = settings ? smfw_settings_get(settings, "format") : NULL;
    const char *prefix = settings ? smfw_settings_get(settings, "prefix") : NULL;
    if (format && strcmp(format, "text") != 0 && strcmp(format, "json") != 0) {
        free(h);
        return smfw_error_set(err, SMFW_ERR_CONFIG,
                              "reporter.hello: format must be text or json, not \"%s\"", format);
    }
    h->json = format && strcmp(format, "json") == 0;
    snprintf(h->prefix, sizeof h->prefix, "%s", prefix ? prefix : "hello");
    *ctx = h;
    return SMFW_OK;
}

/* JSON string literal (the results' strings are UTF-8; escape what JSON requires). */
static void hello_json_string(FILE *f, const char *s) {
    fputc('"', f);
    for (; s && *s; s++) {
        unsigned char c = (unsigned char)*s;
        if (c == '"' || c == '\\')
            fprintf(f, "\\%c", c);
        else if (c < 0x20)
            fprintf(f, "\\u%04x", c);
        else
            fputc(c, f);
    }
    fputc('"', f);
}

static smfw_status hello_write_json(const hello *h, const smfw_results *r, const char *dir,
                                    smfw_error *err) {
    char path[4096];
    snprintf(path, sizeof path, "%s/hello_webhook.json", dir);
    FILE *f = fopen(path, "w");
    if (!f) return smfw_error_set(err, SMFW_ERR_IO, "cannot write %s", path);
    fprintf(f, "{\"event\": \"smfw.run.finished\", \"run\": ");
    const smfw_run_info *info = smfw_results_info(r);
    hello_json_string(f, info->run_name ? info->run_name : "");
    fprintf(f, ", \"backend\": ");
    hello_json_string(f, info->backend ? info->backend : "");
    fprintf(f, ", \"error_rate\": %.6g, \"metrics\": {", smfw_results_error_rate(r));
    int first = 1;
    for (int id = 0; id < smfw_metric_count(); id++) {
        /* Through the accessor (the layout is private), up to the ids the running library
         * knows: a metric appended in a 2.x minor shows up here without a rebuild. */
        const smfw_stats *s = smfw_results_stat(r, (smfw_metric_id)id);
        if (!s) continue;
        const smfw_metric_info *m = smfw_metric_get((smfw_metric_id)id);
        fprintf(f, "%s\n  ", first ? "" : ",");
        first = 0;
        hello_json_string(f, m->tag);
        fprintf(f, ": {\"unit\": ");
        hello_json_string(f, m->display_unit);
        fprintf(f, ", \"avg\": %.17g}", s->avg);
    }
    fprintf(f, "\n}}\n");
    (void)h;
    if (fclose(f) != 0) return smfw_error_set(err, SMFW_ERR_IO, "cannot write %s", path);
    SMFW_LOG_INFO("hello", "wrote %s", path);
    return SMFW_OK;
}

static smfw_status hello_write(void *ctx, const smfw_results *r, const char *dir, smfw_error *err) {
    const hello *h = ctx;
    if (h->json) return hello_write_json(h, r, dir, err);
    for (int id = 0; id < smfw_metric_count(); id++) {
        const smfw_stats *s = smfw_results_stat(r, (smfw_metric_id)id);
        if (!s) continue;
        const smfw_metric_info *m = smfw_metric_get((smfw_metric_id)id);
        printf("%s: %s avg=%.2f", h->prefix, m->tag, s->avg);
        /* p50 and p99 are smfw_percentiles[4] and [8]; single values have none. */
        if (s->fields & (SMFW_STAT_P_FIRST << SMFW_P50)) printf(" p50=%.2f", s->p[SMFW_P50]);
        if (s->fields & (SMFW_STAT_P_FIRST << SMFW_P99)) printf(" p99=%.2f", s->p[SMFW_P99]);
        printf(" %s\n", m->display_unit);
    }
    /* Metrics of a newer AIPerf than this library knows. */
    for (size_t i = 0; i < smfw_results_extra_count(r); i++) {
        const smfw_extra_metric *x = smfw_results_extra(r, i);
        printf("%s: %s avg=%.2f %s\n", h->prefix, x->tag, x->stats.avg, x->unit ? x->unit : "");
    }
    if (fflush(stdout) != 0) return smfw_error_set(err, SMFW_ERR_IO, "cannot write to stdout");
    return SMFW_OK;
}

static void hello_destroy(void *ctx) {
    free(ctx);
}

static const smfw_setting_decl hello_settings[] = {
    {"format", SMFW_SETTING_STRING, "text",
     "text: one line per metric on stdout; json: hello_webhook.json in the output folder", NULL,
     NULL, 0, "FORMAT"},
    {"prefix", SMFW_SETTING_STRING, "hello", "first word of each text line", NULL, NULL, 0, "WORD"},
    SMFW_SETTINGS_END};

static const smfw_reporter_ops hello_ops = {
    .size = sizeof(smfw_reporter_ops), /* lets smfw grow the table safely */
    .create = hello_create,
    .write = hello_write,
    .destroy = hello_destroy, /* control and write_set: optional, left NULL */
};

SMFW_PLUGIN_DEFINE(smfw_reporter_hello, SMFW_PLUGIN_REPORTER, "hello", "1.0.0",
                   "Example: one line per metric, or a webhook-style JSON file", hello_settings,
                   &hello_ops)
