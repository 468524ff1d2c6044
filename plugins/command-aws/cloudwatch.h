/*
 * cloudwatch.h - the server's view of a benchmark (private to the command
 * plugin aws): SageMaker's CloudWatch metrics over the run's window
 * (GetMetricData, 60 s periods) and a reading of them next to the client's
 * numbers. Invocation metrics come from
 * AWS/SageMaker, instance utilisation from /aws/sagemaker/Endpoints (or the
 * InferenceComponents namespaces for an inference component). A metric with
 * no data points is reported as missing, never filled in.
 */
#ifndef SMFW_COMMAND_AWS_CLOUDWATCH_H
#define SMFW_COMMAND_AWS_CLOUDWATCH_H

#include <smfw/aws.h>
#include <smfw/results.h>

#ifdef __cplusplus
extern "C" {
#endif

/** Which numbers of the server smfw reads. */
typedef enum smfw_cw_metric_id {
    SMFW_CW_INVOCATIONS = 0,          /**< Sum: requests SageMaker received */
    SMFW_CW_INVOCATIONS_PER_INSTANCE, /**< Sum (InvocationsPerCopy for an inference component) */
    SMFW_CW_MODEL_LATENCY,            /**< mean and max, ms (published in microseconds) */
    SMFW_CW_OVERHEAD_LATENCY,         /**< mean and max, ms */
    SMFW_CW_4XX,                      /**< Sum of Invocation4XXErrors */
    SMFW_CW_5XX,                      /**< Sum of Invocation5XXErrors */
    SMFW_CW_GPU_UTILIZATION,          /**< percent (0-100 x GPUs), mean and max */
    SMFW_CW_GPU_MEMORY_UTILIZATION,
    SMFW_CW_CPU_UTILIZATION,    /**< percent (0-100 x cores) */
    SMFW_CW_MEMORY_UTILIZATION, /**< percent */
    SMFW_CW_METRIC_COUNT_
} smfw_cw_metric_id;

/** One metric over the window. */
typedef struct smfw_cw_metric {
    const char *name; /**< CloudWatch MetricName */
    const char *namespace_;
    const char *unit;   /**< unit of the values below ("count", "ms", "%") */
    int present;        /**< at least one data point */
    size_t n_points;    /**< 60 s data points */
    double total;       /**< Sum over the window (counts) */
    double mean;        /**< latencies: Sum / SampleCount; utilisation: mean of the points */
    double max;         /**< largest data point (latencies: largest Maximum) */
    double first, last; /**< first and last data point (trend) */
} smfw_cw_metric;

/** What to ask. */
typedef struct smfw_cw_query {
    const char *endpoint;            /**< EndpointName (required) */
    const char *variant;             /**< VariantName, default "AllTraffic" */
    const char *inference_component; /**< address an inference component instead */
    int64_t start_s, end_s;          /**< window, Unix seconds; rounded out to whole minutes */
    int period_s;                    /**< default 60 */
} smfw_cw_query;

/** The server's view and its reading. */
typedef struct smfw_cw_report {
    smfw_cw_query query;    /**< as asked (strings borrowed from the caller) */
    int64_t start_s, end_s; /**< the window actually queried */
    smfw_cw_metric m[SMFW_CW_METRIC_COUNT_];
    char **findings; /**< sentences reading the numbers next to the client's */
    size_t n_findings;
} smfw_cw_report;

/**
 * One GetMetricData call (awsJson 1.0, every page) for all metrics over the
 * window, summarised per metric. *out is caller-owned (smfw_cw_report_free).
 */
smfw_status smfw_cloudwatch_fetch(smfw_aws_client *client, const smfw_cw_query *query,
                                  smfw_cw_report **out, smfw_error *err);

/**
 * The GetMetricData request body smfw sends for a query (malloc'd JSON
 * text); exposed for tests and `--dry-run`-style printing.
 */
char *smfw_cloudwatch_request_json(const smfw_cw_query *query);

/**
 * Summarise a GetMetricData response body into a report (used by fetch; a
 * response can hold several pages, call once per page). Errors name what
 * was malformed.
 */
smfw_status smfw_cloudwatch_add_response(smfw_cw_report *report, const char *json, smfw_error *err);

/** A fresh report for a query (every metric absent). */
smfw_cw_report *smfw_cw_report_new(const smfw_cw_query *query);

/**
 * Read the server's numbers next to the client's (results may be NULL):
 * invocation counts against requests sent; GPU low while latency is high
 * (client, tokenization or payload bound); GPU memory near full at modest
 * concurrency (KV cache bound); OverheadLatency a large share (serialization,
 * routing); 5XX errors (the server's queue limit); missing metrics named.
 * `requests_sent` is what the client sent in the window (-1: take the
 * records of `results`).
 */
void smfw_cloudwatch_interpret(smfw_cw_report *report, const smfw_results *results,
                               int64_t requests_sent);

/** Markdown and JSON renderings (malloc'd; free()). */
char *smfw_cloudwatch_markdown(const smfw_cw_report *report);
char *smfw_cloudwatch_json(const smfw_cw_report *report);

void smfw_cw_report_free(smfw_cw_report *report);

#ifdef __cplusplus
}
#endif
#endif /* SMFW_COMMAND_AWS_CLOUDWATCH_H */
