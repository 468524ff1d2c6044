/*
 * aws_retry_probe.c - the AWS layer's retry policy from the command line
 * (internals of the static core, hence not a smfw command), for
 * test_aws_retry_modes.sh and test_aws_retry_botocore.py. The client is
 * configured by the AWS_* environment and files, as smfw's is.
 *
 *   aws_retry_probe settings     "mode=M max_attempts=N", or the refusal (exit 1)
 *   aws_retry_probe user-agent   the User-Agent of the client's calls
 *   aws_retry_probe classify     per stdin line "MODE SERVICE FAILURE STATUS CODE"
 *                                (FAILURE response|connect|timeout, CODE "-" for none):
 *                                the same line + " -> no|transient|throttling"
 *   aws_retry_probe limiter      adaptive mode's rate limiter on a fake clock: a first
 *                                line "T0" (its start), then per line "T THROTTLED(0|1)":
 *                                "enabled=E rate=R measured=M" after each update
 *   aws_retry_probe call N NAME  N SageMaker DescribeEndpoint calls for endpoint NAME
 *                                (at AWS_ENDPOINT_URL): "call I attempts=K ok|CODE" each,
 *                                then "quota=T" (the retry quota's tokens left)
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "aws/aws_internal.h"

static int classify_lines(void) {
    char line[512];
    while (fgets(line, sizeof(line), stdin)) {
        line[strcspn(line, "\n")] = '\0';
        char mode_s[32], service[64], failure_s[32], code[256];
        long status;
        aws_retry_mode mode;
        if (sscanf(line, "%31s %63s %31s %ld %255s", mode_s, service, failure_s, &status, code) !=
                5 ||
            aws_retry_mode_parse(mode_s, &mode) != 0) {
            fprintf(stderr, "aws_retry_probe: bad line '%s'\n", line);
            return 1;
        }
        aws_retry_failure f = strcmp(failure_s, "timeout") == 0   ? AWS_FAIL_TIMEOUT
                              : strcmp(failure_s, "connect") == 0 ? AWS_FAIL_CONNECT
                                                                  : AWS_FAIL_RESPONSE;
        aws_retry_class cls =
            aws_retry_classify(mode, service, f, status, strcmp(code, "-") == 0 ? NULL : code);
        printf("%s -> %s\n", line, aws_retry_class_name(cls));
    }
    return 0;
}

static int limiter_lines(void) {
    char line[128];
    aws_rate_limiter l;
    int started = 0;
    while (fgets(line, sizeof(line), stdin)) {
        double t;
        int throttled = 0;
        if (!started) {
            if (sscanf(line, "%lf", &t) != 1) return 1;
            aws_rate_limiter_init_at(&l, t);
            started = 1;
            continue;
        }
        if (sscanf(line, "%lf %d", &t, &throttled) != 2) return 1;
        aws_rate_limiter_update_at(&l, throttled, t);
        printf("enabled=%d rate=%.9g measured=%.9g\n", l.enabled, l.fill_rate, l.measured_rate);
    }
    if (started) aws_rate_limiter_destroy(&l);
    return 0;
}

static int calls(smfw_aws_client *c, int n, const char *endpoint) {
    char body[300];
    snprintf(body, sizeof(body), "{\"EndpointName\":\"%.256s\"}", endpoint);
    smfw_sigv4_header hs[2] = {{"Content-Type", "application/x-amz-json-1.1"},
                               {"X-Amz-Target", "SageMaker.DescribeEndpoint"}};
    for (int i = 1; i <= n; i++) {
        aws_call call;
        memset(&call, 0, sizeof(call));
        call.service_label = "SageMaker";
        call.operation = "DescribeEndpoint";
        call.endpoint_id = "sagemaker";
        call.signing_name = "sagemaker";
        call.method = "POST";
        call.path = "/";
        call.headers = hs;
        call.header_count = 2;
        call.body = body;
        call.body_len = strlen(body);
        call.protocol = AWS_PROTO_JSON;
        aws_result res;
        aws_result_init(&res);
        smfw_error err;
        smfw_status st = aws_client_call(c, &call, &res, &err);
        printf("call %d attempts=%d %s\n", i, res.attempts,
               st == SMFW_OK       ? "ok"
               : res.error.code[0] ? res.error.code
                                   : "error");
        aws_result_free(&res);
    }
    printf("quota=%d\n", aws_retry_quota_left(&c->quota));
    return 0;
}

int main(int argc, char **argv) {
    if (argc < 2) {
        fprintf(stderr,
                "usage: aws_retry_probe settings|user-agent|classify|limiter|call N NAME\n");
        return 2;
    }
    if (strcmp(argv[1], "classify") == 0) return classify_lines();
    if (strcmp(argv[1], "limiter") == 0) return limiter_lines();
    smfw_aws_options o;
    memset(&o, 0, sizeof(o));
    o.no_imds = 1;
    smfw_aws_client *c = NULL;
    smfw_error err;
    if (smfw_aws_client_new(&o, &c, &err) != SMFW_OK) {
        fprintf(stderr, "%s\n", err.message);
        return 1;
    }
    int rc = 0;
    if (strcmp(argv[1], "settings") == 0)
        printf("mode=%s max_attempts=%d\n", aws_retry_mode_name(c->retry_mode), c->max_attempts);
    else if (strcmp(argv[1], "user-agent") == 0)
        printf("%s\n", c->user_agent);
    else if (strcmp(argv[1], "call") == 0 && argc == 4)
        rc = calls(c, atoi(argv[2]), argv[3]);
    else
        rc = 2;
    smfw_aws_client_free(c);
    return rc;
}
