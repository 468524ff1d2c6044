/*
 * diagnose.c - turn error records into explanations (see diagnose.h).
 */
#include "diagnose.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

static void add(direct_hints *h, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void add(direct_hints *h, const char *fmt, ...) {
    if (h->n >= sizeof h->lines / sizeof h->lines[0]) return;
    char buf[1024];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(buf, sizeof buf, fmt, ap);
    va_end(ap);
    h->lines[h->n] = strdup(buf);
    if (h->lines[h->n]) h->n++;
}

static int contains(const char *s, const char *needle) {
    return s && strcasestr(s, needle) != NULL;
}

void direct_diagnose(const smfw_results *r, const direct_options *o, const char *region,
                     int64_t skew_s, const char *creds_provider, direct_hints *h) {
    memset(h, 0, sizeof h->lines);
    h->n = 0;
    size_t denied = 0, signature = 0, expired = 0, unknown_key = 0, not_found = 0, throttled = 0,
           model = 0, timeout = 0, connect = 0, invalid = 0, crc = 0;
    for (size_t i = 0; i < smfw_results_record_count(r); i++) {
        const smfw_record_error *e = smfw_record_get_error(smfw_results_record(r, i));
        if (!e) continue;
        const char *t = e->type, *m = e->message;
        switch (e->error_class) {
        case SMFW_ERRCLASS_AUTH:
            if (contains(t, "Signature") || contains(m, "signature"))
                signature++;
            else if (contains(t, "Expired") || contains(m, "expired"))
                expired++;
            else if (contains(t, "UnrecognizedClient") || contains(t, "InvalidClientTokenId") ||
                     contains(t, "MissingAuthenticationToken"))
                unknown_key++; /* the key itself is wrong: no IAM policy would help */
            else
                denied++;
            break;
        case SMFW_ERRCLASS_VALIDATION:
            if ((e->has_code && e->code == 404) || contains(m, "not found")) not_found++;
            break;
        case SMFW_ERRCLASS_THROTTLED:
            throttled++;
            break;
        case SMFW_ERRCLASS_MODEL_ERROR:
            model++;
            break;
        case SMFW_ERRCLASS_TIMEOUT:
            timeout++;
            break;
        case SMFW_ERRCLASS_CONNECT:
            connect++;
            break;
        case SMFW_ERRCLASS_INVALID:
            invalid++;
            break;
        case SMFW_ERRCLASS_CRC:
            crc++;
            break;
        default:
            break;
        }
    }
    int sm = o->transport == DIRECT_TRANSPORT_SAGEMAKER;
    const char *rg = region ? region : "?";
    if (denied && sm && o->streaming)
        add(h,
            "%zu requests were denied (403/AccessDenied). Streaming calls need their own IAM "
            "action: allow sagemaker:InvokeEndpointWithResponseStream (not only "
            "sagemaker:InvokeEndpoint) on arn:aws:sagemaker:%s:<account>:endpoint/%s",
            denied, rg, o->endpoint ? o->endpoint : "<name>");
    else if (denied && sm)
        add(h,
            "%zu requests were denied (403/AccessDenied): allow sagemaker:InvokeEndpoint on "
            "arn:aws:sagemaker:%s:<account>:endpoint/%s",
            denied, rg, o->endpoint ? o->endpoint : "<name>");
    else if (denied)
        add(h, "%zu requests were refused (401/403): check --api-key / OPENAI_API_KEY and -H",
            denied);
    if (signature) {
        char skew[96] = "unknown";
        if (skew_s != INT64_MIN) snprintf(skew, sizeof skew, "%+lld s", (long long)skew_s);
        add(h,
            "%zu requests failed signature checks. Check the region (signed for %s; it must be "
            "the endpoint's region), the credentials (from %s: a wrong secret key or a stale "
            "session token), and the clock (measured skew %s; SigV4 allows 5 minutes)",
            signature, rg, creds_provider ? creds_provider : "the AWS provider chain", skew);
    }
    if (unknown_key)
        add(h,
            "%zu requests were refused because AWS does not recognise the credentials "
            "(UnrecognizedClientException/InvalidClientTokenId): the access key id or session "
            "token from %s is wrong, deleted, or belongs to another partition; `aws sts "
            "get-caller-identity` checks them independently of smfw",
            unknown_key, creds_provider ? creds_provider : "the AWS provider chain");
    if (expired)
        add(h,
            "%zu requests used expired credentials: refresh the session (aws sso login, a new "
            "role session) and run again",
            expired);
    if (not_found)
        add(h,
            sm ? "%zu requests were rejected as not found/invalid: check that endpoint \"%s\" "
                 "exists in region %s (aws sagemaker describe-endpoint --endpoint-name %s "
                 "--region %s) and, for inference-component endpoints, "
                 "--inference-component"
               : "%zu requests got 404/validation errors: check the route (%s) and --model",
            not_found,
            sm ? (o->endpoint ? o->endpoint : "")
               : (smfw_results_info(r)->url ? smfw_results_info(r)->url : ""),
            rg, o->endpoint ? o->endpoint : "", rg);
    if (throttled)
        add(h,
            "%zu requests were throttled (ThrottlingException/429): lower --concurrency or "
            "--request-rate, or ask for a higher invocation quota",
            throttled);
    if (model)
        add(h,
            "%zu requests failed inside the model container (424 ModelError): see the "
            "endpoint's CloudWatch logs (/aws/sagemaker/Endpoints/%s)",
            model, o->endpoint ? o->endpoint : "<name>");
    if (timeout)
        add(h,
            sm ? "%zu requests timed out: SageMaker bounds each invocation (60 s for "
                 "InvokeEndpoint); shorten outputs (max tokens) or lower the load"
               : "%zu requests timed out (--request-timeout)",
            timeout);
    if (connect)
        add(h,
            "%zu requests could not connect: check the URL/region, DNS, proxies "
            "(HTTPS_PROXY, NO_PROXY) and TLS (--ca-bundle, AWS_CA_BUNDLE; -v shows them)",
            connect);
    if (crc)
        add(h,
            "%zu streaming responses failed their event-stream checksums: the bytes were "
            "corrupted between SageMaker and this client (proxy?)",
            crc);
    if (invalid)
        add(h,
            "%zu responses carried no content (no text or reasoning chunk): check "
            "--endpoint-type (the container's response format) and the output budget",
            invalid);
    /* A streaming run whose first token arrives with the last one was not streamed. */
    if (o->streaming) {
        size_t valid = 0, same = 0;
        for (size_t i = 0; i < smfw_results_record_count(r); i++) {
            const smfw_record *rec = smfw_results_record(r, i);
            double ttft, lat, osl;
            if (smfw_record_get_error(rec) ||
                !smfw_record_value(rec, SMFW_M_TIME_TO_FIRST_TOKEN, &ttft) ||
                !smfw_record_value(rec, SMFW_M_REQUEST_LATENCY, &lat) ||
                !smfw_record_value(rec, SMFW_M_OUTPUT_SEQUENCE_LENGTH, &osl) || osl < 2)
                continue;
            valid++;
            /* Several tokens, yet every content response arrived in the same read. */
            if (lat - ttft < 1.0) same++;
        }
        if (valid >= 5 && same * 2 > valid)
            add(h,
                "TTFT equals the request latency for %zu of %zu requests: the responses were not "
                "streamed (a container that buffers its answer, or a server ignoring "
                "\"stream\": true); TTFT and ITL are meaningless for this run",
                same, valid);
    }
}

void direct_hints_free(direct_hints *h) {
    for (size_t i = 0; i < h->n; i++) free(h->lines[i]);
    h->n = 0;
}
