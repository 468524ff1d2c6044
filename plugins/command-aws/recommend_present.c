/*
 * recommend_present.c - a Completed recommendation job, presented: each
 * recommendation's benchmark job (its AIBenchmarkJobArn) described, its
 * bundle fetched and extracted safely into <rank>-<instance type>/, its levels
 * reported and analysed as `smfw sweep` does (the program's services), then
 * SageMaker's expected performance beside smfw's own reading of the same
 * bundles. Everything the service answers is untrusted: names are checked
 * before they become paths, text is escaped before it reaches the terminal.
 */
#include <errno.h>
#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include <smfw/archive.h>
#include <smfw/log.h>
#include <smfw/untrusted.h>

#include "aws_commands.h"
#include "recommend.h"

/* The recommendation's instance type: its deployment's, else its model details'. */
static const char *rec_instance_type(json_t *rec) {
    const char *t = json_string_value(
        json_object_get(json_object_get(rec, "DeploymentConfiguration"), "InstanceType"));
    if (!t)
        t = json_string_value(json_object_get(
            json_array_get(json_object_get(json_object_get(rec, "ModelDetails"), "InstanceDetails"),
                           0),
            "InstanceType"));
    return t;
}

/* A folder-safe copy: letters, digits, '.', '-' (anything else '_'), "unknown" when empty. */
static void leaf_name(size_t rank, const char *type, char *out, size_t size) {
    char clean[64];
    size_t o = 0;
    for (const char *p = type ? type : ""; *p && o < sizeof clean - 1; p++)
        clean[o++] = (char)((*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') ||
                                    (*p >= '0' && *p <= '9') || *p == '.' || *p == '-'
                                ? *p
                                : '_');
    clean[o] = '\0';
    if (!clean[0] || strcmp(clean, ".") == 0 || strcmp(clean, "..") == 0)
        snprintf(clean, sizeof clean, "unknown");
    snprintf(out, size, "%zu-%s", rank, clean);
}

/* "ttft-ms p50 12.3 ms; throughput avg 456 tokens/sec; ..." (escaped). */
static void expected_text(json_t *rec, char *out, size_t size) {
    size_t o = 0, i;
    json_t *e;
    out[0] = '\0';
    json_array_foreach(json_object_get(rec, "ExpectedPerformance"), i, e) {
        const char *parts[4] = {json_string_value(json_object_get(e, "Metric")),
                                json_string_value(json_object_get(e, "Stat")),
                                json_string_value(json_object_get(e, "Value")),
                                json_string_value(json_object_get(e, "Unit"))};
        if (o && o < size) o += (size_t)snprintf(out + o, size - o, "; ");
        for (size_t k = 0; k < 4; k++) {
            char shown[128];
            if (!parts[k] || o >= size) continue;
            /* The service sends values as strings ("0.5915754999999999"): four figures read
             * better, and anything else is shown as sent. */
            char *end = NULL;
            double v = k == 2 ? strtod(parts[k], &end) : 0;
            if (k == 2 && end != parts[k] && !*end && isfinite(v))
                o += (size_t)snprintf(out + o, size - o, " %.4g", v);
            else
                o += (size_t)snprintf(out + o, size - o, "%s%s", k ? " " : "",
                                      smfw_term_escape(parts[k], shown, sizeof shown));
        }
    }
    if (!out[0]) snprintf(out, size, "-");
}

typedef struct presented {
    char dir[4300]; /* the sweep's folder, "" when it could not be made */
    char type[64];  /* its instance type (escaped) */
    char job[64];   /* its benchmark job */
    size_t tripped; /* levels over the validity gate */
} presented;

/* One recommendation's benchmark: describe, fetch, report. Returns an exit code. */
static int present_one(const smfw_command_context *ctx, smfw_aws_client *c, json_t *rec,
                       size_t rank, const char *region, const char *dir, presented *out) {
    const char *type = rec_instance_type(rec);
    char shown[128];
    snprintf(out->type, sizeof out->type, "%s",
             type ? smfw_term_escape(type, shown, sizeof shown) : "unknown");
    const char *arn = json_string_value(json_object_get(rec, "AIBenchmarkJobArn"));
    const char *slash = arn ? strrchr(arn, '/') : NULL;
    if (!slash || !smfw_aws_entity_name_valid(slash + 1)) {
        SMFW_LOG_WARN("recommend",
                      "recommendation %zu (%s) names no benchmark job: nothing to fetch", rank,
                      out->type);
        return 0;
    }
    snprintf(out->job, sizeof out->job, "%s", slash + 1);
    json_t *req = json_pack("{s:s}", "AIBenchmarkJobName", out->job), *job = NULL;
    smfw_error err;
    smfw_status st = managed_sagemaker_call(c, "DescribeAIBenchmarkJob", req, &job, &err);
    json_decref(req);
    if (st != SMFW_OK) {
        json_decref(job);
        smfw_error_prefix(&err, "DescribeAIBenchmarkJob %s", out->job);
        return aws_command_fail(&err);
    }
    const char *loc = json_string_value(
        json_object_get(json_object_get(job, "OutputConfig"), "S3OutputLocation"));
    const char *endpoint = json_string_value(json_object_get(
        json_object_get(json_object_get(job, "BenchmarkTarget"), "Endpoint"), "Identifier"));
    char leaf[80];
    leaf_name(rank, type, leaf, sizeof leaf);
    int rc = 0;
    if (!loc) {
        smfw_log(SMFW_LOG_ERROR, NULL, "benchmark job %s has no OutputConfig.S3OutputLocation",
                 out->job);
        rc = 2;
    } else if (smfw_mkdir_unique(dir, leaf, out->dir, sizeof out->dir) != 0) {
        smfw_log(SMFW_LOG_ERROR, NULL, "cannot create %s/%s: %s", dir, leaf, strerror(errno));
        out->dir[0] = '\0';
        rc = 1;
    }
    char bundle[4400];
    smfw_bundle_run *runs = NULL;
    size_t n = 0;
    if (rc == 0) {
        st = managed_bundle_fetch(c, loc, out->job, out->dir, bundle, sizeof bundle, &err);
        if (st == SMFW_OK) st = smfw_bundle_find_runs(bundle, &runs, &n, &err);
        if (st != SMFW_OK) {
            smfw_error_prefix(&err, "benchmark job %s (%s)", out->job, out->type);
            rc = aws_command_fail(&err);
        }
    }
    smfw_run_set *set = rc == 0 ? smfw_run_set_new("concurrency", out->dir) : NULL;
    if (rc == 0 && !set) rc = 1;
    if (rc == 0) {
        double gate = smfw_settings_get_double(smfw_config_section(ctx->config, "run"),
                                               "max_error_rate", 0.01);
        managed_identity id = {out->job, endpoint, NULL, region, gate};
        managed_levels_outcome lo;
        if (ctx->verbosity >= 0)
            fprintf(ctx->out, "\n== Recommendation %zu: %s, benchmark job %s ==\n", rank, out->type,
                    out->job);
        st = managed_levels_report(runs, n, ctx->config, set, out->dir, &id, ctx->verbosity < 0,
                                   &lo, &err);
        out->tripped = lo.tripped;
        if (st != SMFW_OK && lo.levels == 0) {
            rc = aws_command_fail(&err);
        } else {
            if (st != SMFW_OK) SMFW_LOG_ERR("recommend", "%s", err.message);
            rc = ctx->services->report_sweep(ctx, set, type);
        }
    }
    smfw_run_set_free(set);
    free(runs);
    json_decref(job);
    return rc;
}

static int write_describe(json_t *describe, const char *dir) {
    char path[4200];
    snprintf(path, sizeof path, "%s/recommendation.json", dir);
    if (json_dump_file(describe, path, JSON_INDENT(2) | JSON_PRESERVE_ORDER) != 0) {
        smfw_log(SMFW_LOG_ERROR, NULL, "cannot write %s", path);
        return 1;
    }
    return 0;
}

int recommend_present(const smfw_command_context *ctx, smfw_aws_client *c, json_t *describe,
                      const char *region, const char *dir) {
    json_t *recs = json_object_get(describe, "Recommendations");
    size_t n = json_array_size(recs);
    const char *name = json_string_value(json_object_get(describe, "AIRecommendationJobName"));
    if (write_describe(describe, dir) != 0) return 1;
    if (n == 0) {
        smfw_log(SMFW_LOG_ERROR, NULL,
                 "recommendation job %s is Completed with no recommendations (its answer is in "
                 "%s/recommendation.json)",
                 name ? name : "?", dir);
        return 2;
    }
    presented *shown = calloc(n, sizeof *shown);
    if (!shown) return 1;
    int rc = 0;
    for (size_t i = 0; i < n; i++) {
        int one = present_one(ctx, c, json_array_get(recs, i), i + 1, region, dir, &shown[i]);
        if (one && !rc) rc = one;
    }
    /* SageMaker's ranking and numbers, then smfw's reading of the same benchmarks. */
    json_t *constraints =
        json_object_get(json_object_get(describe, "PerformanceTarget"), "Constraints");
    char first[64];
    const char *m = json_string_value(json_object_get(json_array_get(constraints, 0), "Metric"));
    char esc[64];
    snprintf(first, sizeof first, "%s", m ? smfw_term_escape(m, esc, sizeof esc) : "?");
    fprintf(ctx->out,
            "\nAI recommendation job %s: %zu recommendations, best first by %s\n\n"
            "| Rank | Instance type | Expected performance (SageMaker) | Benchmark job | Sweep |\n"
            "|---:|---|---|---|---|\n",
            name ? name : "?", n, first);
    const char **specs = calloc(n, sizeof *specs);
    char(*spec_text)[4400] = calloc(n, sizeof *spec_text);
    size_t n_specs = 0;
    size_t tripped = 0;
    for (size_t i = 0; i < n; i++) {
        char perf[1024];
        expected_text(json_array_get(recs, i), perf, sizeof perf);
        fprintf(ctx->out, "| %zu | %s | %s | %s | `%s` |\n", i + 1, shown[i].type, perf,
                shown[i].job[0] ? shown[i].job : "-", shown[i].dir[0] ? shown[i].dir : "-");
        tripped += shown[i].tripped;
        if (specs && spec_text && shown[i].dir[0] && rc == 0) {
            /* sweep.json names the instance type and its price */
            snprintf(spec_text[n_specs], sizeof spec_text[0], "%s", shown[i].dir);
            specs[n_specs] = spec_text[n_specs];
            n_specs++;
        }
    }
    if (n_specs) {
        fprintf(ctx->out,
                "\nMeasured by smfw from the same benchmarks (each bundle's records):\n\n");
        int crc = ctx->services->compare_sweeps(ctx, specs, n_specs);
        if (crc && !rc) rc = crc;
    }
    fprintf(ctx->out,
            "\nEverything: %s (recommendation.json, one sweep folder per "
            "recommendation)\n",
            dir);
    if (rc == 0 && tripped) {
        smfw_log(SMFW_LOG_ERROR, NULL,
                 "%zu benchmark level%s failed the validity gate (their metrics cover the valid "
                 "requests)",
                 tripped, tripped == 1 ? "" : "s");
        rc = smfw_status_exit_code(SMFW_ERR_VALIDITY);
    }
    free(specs);
    free(spec_text);
    free(shown);
    return rc;
}
