/*
 * router.c - which emulated service a request is for.
 *
 * Everything shares one port, as a single --endpoint-url does for the SDKs:
 * /endpoints/... is SageMaker Runtime, /v1/... OpenAI, POST / is told apart
 * by X-Amz-Target (SageMaker control plane, CloudWatch, Application Auto
 * Scaling) or, for a form body (awsQuery), by the service of the SigV4
 * credential scope (sts, iam; the Action when unsigned), and every other
 * path is S3 in path style. --api-fault strikes before the service answers.
 */
#include "mock.h"

#include <stdlib.h>
#include <string.h>
#include <strings.h>

static void route_runtime(mock_server *srv, mock_request *req) {
    /* /endpoints/{EndpointName}/invocations[-response-stream] */
    const char *rest = req->path + strlen("/endpoints/");
    const char *slash = strchr(rest, '/');
    char name[256];
    if (!slash || mock_uri_decode(rest, (size_t)(slash - rest), name, sizeof name, 0) < 0) {
        mock_aws_error(req, MOCK_PROTO_RUNTIME, 404, "UnknownOperationException",
                       "Unknown operation", NULL);
        return;
    }
    int streaming;
    if (!strcmp(slash, "/invocations"))
        streaming = 0;
    else if (!strcmp(slash, "/invocations-response-stream"))
        streaming = 1;
    else {
        mock_aws_error(req, MOCK_PROTO_RUNTIME, 404, "UnknownOperationException",
                       "Unknown operation", NULL);
        return;
    }
    if (strcmp(req->method, "POST") != 0) {
        mock_aws_error(req, MOCK_PROTO_RUNTIME, 405, "UnknownOperationException",
                       "Only POST is supported on this resource", NULL);
        return;
    }
    if (mock_auth_check(srv, req, "sagemaker", MOCK_PROTO_RUNTIME) != 0) return;
    mock_runtime_handle(srv, req, name, streaming);
}

void mock_route(mock_request *req, void *server) {
    mock_server *srv = server;
    srv->requests++;
    if (srv->opt.verbose) fprintf(stderr, "smfw-mock: %s %s\n", req->method, req->target);
    if (!strncmp(req->path, "/endpoints/", 11)) {
        route_runtime(srv, req);
        return;
    }
    if (!strncmp(req->path, "/v1/", 4)) {
        mock_openai_handle(srv, req);
        return;
    }
    if (!strcmp(req->path, "/ping") || !strcmp(req->path, "/health")) {
        const char *h[] = {"Content-Type: text/plain", NULL};
        mock_respond(req, 200, h, "ok\n", 3);
        mock_request_finish(req);
        return;
    }
    const char *target = mock_request_header(req, "X-Amz-Target");
    if (!strcmp(req->path, "/") && !strcmp(req->method, "POST") && target) {
        if (mock_api_fault_inject(srv, req, MOCK_PROTO_JSON)) return;
        if (!strncmp(target, "SageMaker.", 10)) {
            if (mock_auth_check(srv, req, "sagemaker", MOCK_PROTO_JSON) != 0) return;
            mock_controlplane_handle(srv, req, target + 10);
        } else if (!strncmp(target, "AnyScaleFrontendService.", 24)) {
            mock_autoscaling_handle(srv, req, target + 24);
        } else if (!strncmp(target, "GraniteServiceVersion20100801.", 30)) {
            if (mock_auth_check(srv, req, "monitoring", MOCK_PROTO_JSON) != 0) return;
            mock_cloudwatch_handle(srv, req, target + 30);
        } else {
            mock_aws_error(req, MOCK_PROTO_JSON, 400, "UnknownOperationException",
                           "The X-Amz-Target is not a service smfw-mock emulates", NULL);
        }
        return;
    }
    const char *ct = mock_request_header(req, "Content-Type");
    if (!strcmp(req->path, "/") && !strcmp(req->method, "POST") && ct &&
        !strncasecmp(ct, "application/x-www-form-urlencoded", 33)) {
        if (mock_api_fault_inject(srv, req, MOCK_PROTO_QUERY)) return;
        char action[64] = "", service[64] = "";
        mock_form_get((const char *)req->body, "Action", action, sizeof action);
        if (!mock_sigv4_scope(req, NULL, 0, service, sizeof service))
            snprintf(service, sizeof service, "%s",
                     !strcmp(action, "GetRole") || !strcmp(action, "ListRoles") ||
                             !strcmp(action, "SimulatePrincipalPolicy")
                         ? "iam"
                         : "sts");
        if (!strcmp(service, "iam")) {
            mock_iam_handle(srv, req, action);
        } else if (!strcmp(action, "GetCallerIdentity")) {
            if (mock_auth_check(srv, req, "sts", MOCK_PROTO_QUERY) != 0) return;
            mock_sts_handle(srv, req);
        } else if (!strcmp(action, "GetMetricData")) {
            mock_aws_error(req, MOCK_PROTO_QUERY, 400, "InvalidAction",
                           "smfw-mock serves CloudWatch over awsJson 1.0 only", NULL);
        } else {
            mock_aws_error(req, MOCK_PROTO_QUERY, 400, "InvalidAction",
                           "The action is not valid for this web service.", NULL);
        }
        return;
    }
    if (mock_api_fault_inject(srv, req, MOCK_PROTO_S3)) return;
    mock_s3_handle(srv, req);
}
