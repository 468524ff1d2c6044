/*
 * cloudwatch.c - CloudWatch GetMetricData over awsJson 1.0 (aws-wire.md §8),
 * answering from the invocations this mock actually served.
 */
#include "mock.h"

#include <stdlib.h>
#include <string.h>

#define CW_JSON "application/x-amz-json-1.0"

/* CloudWatch's awsJson 1.0 error: its own content type, and (the service is
 * awsQueryCompatible) the query protocol's code in x-amzn-query-error, which the
 * SDKs report as the error code. */
static void cw_error(mock_request *req, const char *code, const char *message) {
    json_t *o = json_pack("{s:s,s:s}", "__type", code, "message", message);
    char *text = json_dumps(o, JSON_COMPACT);
    json_decref(o);
    char rid[37], rid_h[64], type_h[160], query_h[180];
    mock_new_request_id(rid);
    snprintf(rid_h, sizeof rid_h, "x-amzn-RequestId: %s", rid);
    snprintf(type_h, sizeof type_h, "x-amzn-ErrorType: %s", code);
    snprintf(query_h, sizeof query_h, "x-amzn-query-error: %s;Sender", code);
    const char *headers[] = {"Content-Type: " CW_JSON, rid_h, type_h, query_h, NULL};
    mock_respond(req, 400, headers, text, strlen(text));
    free(text);
    mock_request_finish(req);
}

static void cw_invalid(mock_request *req, const char *message) {
    cw_error(req, "ValidationError", message);
}

static int id_valid(const char *id) {
    size_t n = strlen(id);
    if (n < 1 || n > 255 || id[0] < 'a' || id[0] > 'z') return 0;
    for (size_t i = 0; i < n; i++) {
        char c = id[i];
        if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
              c == '_'))
            return 0;
    }
    return 1;
}

void mock_cloudwatch_handle(mock_server *srv, mock_request *req, const char *op) {
    if (strcmp(op, "GetMetricData") != 0) {
        cw_error(req, "UnknownOperationException",
                 "smfw-mock emulates CloudWatch GetMetricData only");
        return;
    }
    json_t *in = json_loadb((const char *)req->body, req->body_len, 0, NULL);
    json_t *queries = json_object_get(in, "MetricDataQueries");
    json_t *jstart = json_object_get(in, "StartTime"), *jend = json_object_get(in, "EndTime");
    if (!json_is_object(in) || !json_is_array(queries) || !json_is_number(jstart) ||
        !json_is_number(jend)) {
        json_decref(in);
        cw_invalid(req, "MetricDataQueries, StartTime and EndTime are required");
        return;
    }
    size_t nq = json_array_size(queries);
    if (nq < 1 || nq > 500) {
        json_decref(in);
        cw_invalid(req, "MetricDataQueries must hold 1 to 500 queries");
        return;
    }
    double start = json_number_value(jstart), end = json_number_value(jend);
    if (end <= start) {
        json_decref(in);
        cw_invalid(req, "The parameter StartTime must be less than the parameter EndTime.");
        return;
    }
    const char *scan = json_string_value(json_object_get(in, "ScanBy"));
    int ascending = scan && !strcmp(scan, "TimestampAscending");
    json_t *results = json_array();
    size_t qi;
    json_t *q;
    mock_metric_point *pts = malloc(100800 * sizeof *pts);
    if (!pts) abort();
    json_array_foreach(queries, qi, q) {
        const char *id = json_string_value(json_object_get(q, "Id"));
        json_t *ms = json_object_get(q, "MetricStat");
        if (!id || !id_valid(id)) {
            json_decref(results);
            json_decref(in);
            free(pts);
            cw_invalid(req, "The value for parameter MetricDataQueries.member.Id must start with "
                            "a lowercase letter and hold only letters, digits and underscores.");
            return;
        }
        if (!json_is_object(ms)) {
            json_decref(results);
            json_decref(in);
            free(pts);
            cw_invalid(req, "smfw-mock answers MetricStat queries only (no Expression)");
            return;
        }
        json_t *metric = json_object_get(ms, "Metric");
        const char *ns = json_string_value(json_object_get(metric, "Namespace"));
        const char *name = json_string_value(json_object_get(metric, "MetricName"));
        const char *stat = json_string_value(json_object_get(ms, "Stat"));
        json_t *jperiod = json_object_get(ms, "Period");
        if (!ns || !name || !stat || !json_is_integer(jperiod) || json_integer_value(jperiod) < 1 ||
            (json_integer_value(jperiod) >= 60 && json_integer_value(jperiod) % 60)) {
            json_decref(results);
            json_decref(in);
            free(pts);
            cw_invalid(req, "MetricStat needs Metric.Namespace, Metric.MetricName, Stat and a "
                            "Period of 1, 5, 10, 20, 30, 60 or a multiple of 60 seconds");
            return;
        }
        const char *endpoint = NULL, *variant = NULL, *component = NULL;
        size_t di;
        json_t *d;
        json_array_foreach(json_object_get(metric, "Dimensions"), di, d) {
            const char *dn = json_string_value(json_object_get(d, "Name"));
            const char *dv = json_string_value(json_object_get(d, "Value"));
            if (!dn || !dv) continue;
            if (!strcmp(dn, "EndpointName")) endpoint = dv;
            if (!strcmp(dn, "VariantName")) variant = dv;
            if (!strcmp(dn, "InferenceComponentName")) component = dv;
        }
        size_t n = 0;
        /* CloudWatch matches dimensions exactly: endpoint metrics carry both EndpointName and
           VariantName, inference-component metrics only InferenceComponentName. */
        if (!strcmp(ns, "AWS/SageMaker") &&
            ((component && !endpoint && !variant) || (!component && endpoint && variant)))
            n = mock_metrics_query(srv->metrics, name, endpoint, variant, component, stat, start,
                                   end, (int)json_integer_value(jperiod), pts, 100800);
        json_t *ts = json_array(), *vs = json_array();
        for (size_t k = 0; k < n; k++) {
            size_t at = ascending ? k : n - 1 - k;
            json_array_append_new(ts, json_real(pts[at].timestamp));
            json_array_append_new(vs, json_real(pts[at].value));
        }
        const char *label = json_string_value(json_object_get(q, "Label"));
        json_t *r = json_pack("{s:s,s:s,s:o,s:o,s:s,s:[]}", "Id", id, "Label", label ? label : name,
                              "Timestamps", ts, "Values", vs, "StatusCode", "Complete", "Messages");
        json_t *rd = json_object_get(q, "ReturnData");
        if (!json_is_false(rd))
            json_array_append_new(results, r);
        else
            json_decref(r);
    }
    free(pts);
    json_decref(in);
    mock_json_reply(req, CW_JSON,
                    json_pack("{s:o,s:[]}", "MetricDataResults", results, "Messages"));
}
