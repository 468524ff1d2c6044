/*
 * tool_sigv4.c - sign requests with smfw's SigV4 signer for the interop test
 * (sigv4.test.mjs). Reads one JSON object per line on stdin:
 *   {"method","path" (wire),"query" (wire),"headers":[[name,value]...],"body",
 *    "akid","secret","token","region","service","s3":bool,"time":unix}
 * and prints the Authorization header value (or "ERROR: ...") per line.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include <smfw/sigv4.h>

int main(void) {
    char *line = NULL;
    size_t cap = 0;
    ssize_t n;
    while ((n = getline(&line, &cap, stdin)) > 0) {
        json_error_t je;
        json_t *j = json_loadb(line, (size_t)n, 0, &je);
        if (!j) {
            printf("ERROR: bad JSON: %s\n", je.text);
            continue;
        }
        json_t *hs = json_object_get(j, "headers");
        size_t nh = json_array_size(hs);
        smfw_sigv4_header *h = calloc(nh ? nh : 1, sizeof(*h));
        for (size_t i = 0; i < nh; i++) {
            h[i].name = json_string_value(json_array_get(json_array_get(hs, i), 0));
            h[i].value = json_string_value(json_array_get(json_array_get(hs, i), 1));
        }
        const char *body = json_string_value(json_object_get(j, "body"));
        smfw_sigv4_request req = {json_string_value(json_object_get(j, "method")),
                                  json_string_value(json_object_get(j, "path")),
                                  json_string_value(json_object_get(j, "query")),
                                  h,
                                  nh,
                                  body,
                                  body ? strlen(body) : 0,
                                  NULL};
        smfw_aws_credentials c = {json_string_value(json_object_get(j, "akid")),
                                  json_string_value(json_object_get(j, "secret")),
                                  json_string_value(json_object_get(j, "token")),
                                  0,
                                  NULL,
                                  "interop"};
        unsigned flags = json_is_true(json_object_get(j, "s3")) ? SMFW_SIGV4_S3 : 0;
        smfw_sigv4_signer *s = NULL;
        smfw_error err;
        smfw_sigv4_signature sig;
        if (smfw_sigv4_signer_new(json_string_value(json_object_get(j, "region")),
                                  json_string_value(json_object_get(j, "service")), flags, &s,
                                  &err) != SMFW_OK ||
            smfw_sigv4_sign(s, &c, &req, 0, json_integer_value(json_object_get(j, "time")), &sig,
                            &err) != SMFW_OK) {
            printf("ERROR: %s\n", err.message);
        } else {
            printf("%s\n", sig.authorization);
            smfw_sigv4_signature_free(&sig);
        }
        smfw_sigv4_signer_free(s);
        free(h);
        json_decref(j);
        fflush(stdout);
    }
    free(line);
    return 0;
}
