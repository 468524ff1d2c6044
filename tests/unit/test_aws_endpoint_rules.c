/*
 * test_aws_endpoint_rules.c - the endpoint rules interpreter's own edges
 * (bounds, assign, templates, the library functions, parameter checks) and
 * the client's use of it (FIPS/dual-stack settings, partitions, refusals).
 * Equality with botocore over the shipped rule sets is
 * tests/integration/test_endpoint_resolution.sh.
 */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "aws/aws_endpoint_rules.h"
#include "aws/aws_internal.h"
#include "smfw_test.h"

static const char *PARTITIONS =
    "{\"partitions\":[{\"id\":\"aws\",\"regionRegex\":\"^(us|eu)\\\\-\\\\w+\\\\-\\\\d+$\","
    "\"regions\":{\"aws-global\":{\"description\":\"g\"}},"
    "\"outputs\":{\"dnsSuffix\":\"amazonaws.com\",\"supportsFIPS\":true,\"name\":\"x\"}},"
    "{\"id\":\"aws-cn\",\"regionRegex\":\"^cn\\\\-\\\\w+\\\\-\\\\d+$\",\"regions\":{"
    "\"cn-special-1\":{\"supportsFIPS\":true}},"
    "\"outputs\":{\"dnsSuffix\":\"amazonaws.com.cn\",\"supportsFIPS\":false}}]}";

/* Evaluate rules (JSON text) with inputs; the URL or "error: <message>" in out. */
static smfw_status eval(const char *rules, const char *inputs, char *out, size_t size,
                        int *rule_error) {
    json_error_t je;
    json_t *rs = json_loads(rules, 0, &je);
    json_t *parts = json_loads(PARTITIONS, 0, &je);
    json_t *in = json_loads(inputs, 0, &je);
    ck_assert_msg(rs && parts && in, "bad test JSON: %s", je.text);
    aws_rules_endpoint ep;
    smfw_error err;
    int re = 0;
    smfw_status st = aws_rules_evaluate(rs, parts, in, &ep, &re, &err);
    if (st == SMFW_OK) {
        snprintf(out, size, "%s", ep.url);
        aws_rules_endpoint_free(&ep);
    } else {
        snprintf(out, size, "error: %s", err.message);
    }
    if (rule_error) *rule_error = re;
    json_decref(rs);
    json_decref(parts);
    json_decref(in);
    return st;
}

#define PARAMS        "\"parameters\":{\"Region\":{\"type\":\"string\",\"builtIn\":\"AWS::Region\"}}"
#define ENDPOINT(url) "{\"type\":\"endpoint\",\"conditions\":[],\"endpoint\":{\"url\":" url "}}"

START_TEST(templates_partitions_and_errors) {
    char out[1024];
    int re;
    const char *rules =
        "{" PARAMS ",\"rules\":[{\"type\":\"tree\",\"conditions\":["
        "{\"fn\":\"aws.partition\",\"argv\":[{\"ref\":\"Region\"}],\"assign\":\"P\"}],"
        "\"rules\":[{\"type\":\"error\",\"conditions\":[{\"fn\":\"stringEquals\",\"argv\":["
        "{\"ref\":\"Region\"},\"mars-1\"]}],\"error\":\"no {Region} on {P#name}\"},"
        "{\"type\":\"endpoint\",\"conditions\":[{\"fn\":\"booleanEquals\",\"argv\":[true,"
        "{\"fn\":\"getAttr\",\"argv\":[{\"ref\":\"P\"},\"supportsFIPS\"]}]}],"
        "\"endpoint\":{\"url\":\"https://{{x}}.{Region}.{P#dnsSuffix}\"}}," ENDPOINT(
            "\"https://nofips.{P#name}\"") "]}]}";
    ck_assert_int_eq(eval(rules, "{\"AWS::Region\":\"us-west-2\"}", out, sizeof(out), NULL),
                     SMFW_OK);
    ck_assert_str_eq(out, "https://{x}.us-west-2.amazonaws.com");
    /* An explicit region entry wins, and may override outputs. */
    eval(rules, "{\"Region\":\"cn-special-1\"}", out, sizeof(out), NULL);
    ck_assert_str_eq(out, "https://{x}.cn-special-1.amazonaws.com.cn");
    eval(rules, "{\"Region\":\"cn-north-1\"}", out, sizeof(out), NULL);
    ck_assert_str_eq(out, "https://nofips.aws-cn");
    /* No match falls back to the first partition (botocore); its name is its id. */
    ck_assert_int_eq(eval(rules, "{\"Region\":\"mars-1\"}", out, sizeof(out), &re),
                     SMFW_ERR_CONFIG);
    ck_assert_str_eq(out, "error: no mars-1 on aws");
    ck_assert_int_eq(re, 1);
    /* Parameter checks. */
    const char *req = "{\"parameters\":{\"R\":{\"type\":\"string\",\"required\":true}},"
                      "\"rules\":[" ENDPOINT("\"https://h\"") "]}";
    eval(req, "{}", out, sizeof(out), &re);
    ck_assert_str_eq(out, "error: Cannot find value for required parameter R");
    ck_assert_int_eq(re, 0);
    eval(req, "{\"R\":true}", out, sizeof(out), NULL);
    ck_assert_msg(strstr(out, "wrong type"), "%s", out);
    const char *dflt = "{\"parameters\":{\"F\":{\"type\":\"boolean\",\"default\":true}},"
                       "\"rules\":[{\"type\":\"endpoint\",\"conditions\":[{\"fn\":\"not\",\"argv\":"
                       "[{\"ref\":\"F\"}]}],\"endpoint\":{\"url\":\"https://off\"}}," ENDPOINT(
                           "\"https://on\"") "]}";
    eval(dflt, "{}", out, sizeof(out), NULL);
    ck_assert_str_eq(out, "https://on");
    eval(dflt, "{\"F\":false}", out, sizeof(out), NULL);
    ck_assert_str_eq(out, "https://off");
    /* Malformed: an unknown function, assigning twice, an unset template field, no match. */
    eval("{\"rules\":[{\"type\":\"endpoint\",\"conditions\":[{\"fn\":\"rm\",\"argv\":[]}],"
         "\"endpoint\":{\"url\":\"x\"}}]}",
         "{}", out, sizeof(out), NULL);
    ck_assert_msg(strstr(out, "unknown function 'rm'"), "%s", out);
    eval("{\"rules\":[{\"type\":\"endpoint\",\"conditions\":[{\"fn\":\"isSet\",\"argv\":[1],"
         "\"assign\":\"a\"},{\"fn\":\"isSet\",\"argv\":[1],\"assign\":\"a\"}],"
         "\"endpoint\":{\"url\":\"x\"}}]}",
         "{}", out, sizeof(out), NULL);
    ck_assert_msg(strstr(out, "assigns 'a' twice"), "%s", out);
    eval("{\"rules\":[" ENDPOINT("\"https://{Nope}\"") "]}", "{}", out, sizeof(out), NULL);
    ck_assert_msg(strstr(out, "unset value"), "%s", out);
    /* A failing template inside properties (the fuzzer's first find: it leaked). */
    eval("{\"rules\":[{\"type\":\"endpoint\",\"conditions\":[],\"endpoint\":{\"url\":\"x\","
         "\"properties\":{\"authSchemes\":[{\"name\":\"sigv4\"},{\"name\":\"{Nope}\"}]}}}]}",
         "{}", out, sizeof(out), NULL);
    ck_assert_msg(strstr(out, "unset value"), "%s", out);
    eval("{\"rules\":[]}", "{}", out, sizeof(out), NULL);
    ck_assert_str_eq(out, "error: no endpoint rule matches");
    eval("{\"rules\":[{\"type\":\"endpoint\",\"conditions\":[{\"fn\":\"booleanEquals\","
         "\"argv\":[\"true\",true]}],\"endpoint\":{\"url\":\"x\"}}]}",
         "{}", out, sizeof(out), NULL);
    ck_assert_msg(strstr(out, "must be booleans"), "%s", out);
}
END_TEST

/* One endpoint whose URL is a function's string result. */
static void url_of(const char *fn_json, const char *want) {
    char rules[4096], out[1024];
    snprintf(rules, sizeof(rules),
             "{\"rules\":[{\"type\":\"endpoint\",\"conditions\":[%s],"
             "\"endpoint\":{\"url\":{\"ref\":\"v\"}}},"
             "{\"type\":\"error\",\"conditions\":[],\"error\":\"none\"}]}",
             fn_json);
    eval(rules, "{}", out, sizeof(out), NULL);
    ck_assert_msg(strcmp(out, want) == 0, "%s: got '%s', want '%s'", fn_json, out, want);
}

START_TEST(library_functions) {
    url_of("{\"fn\":\"uriEncode\",\"argv\":[\"a b/c~\"],\"assign\":\"v\"}", "a%20b%2Fc~");
    url_of("{\"fn\":\"substring\",\"argv\":[\"abcdef\",0,2,true],\"assign\":\"v\"}", "ef");
    url_of("{\"fn\":\"substring\",\"argv\":[\"abcdef\",1,3,false],\"assign\":\"v\"}", "bc");
    url_of("{\"fn\":\"substring\",\"argv\":[\"ab\",0,3,false],\"assign\":\"v\"}", "error: none");
    url_of("{\"fn\":\"parseURL\",\"argv\":[\"https://[::1]:8443/a/./b/../c//d\"],\"assign\":\"u\"},"
           "{\"fn\":\"getAttr\",\"argv\":[{\"ref\":\"u\"},\"normalizedPath\"],\"assign\":\"v\"},"
           "{\"fn\":\"getAttr\",\"argv\":[{\"ref\":\"u\"},\"isIp\"]}",
           "/a/c/d/");
    url_of("{\"fn\":\"parseURL\",\"argv\":[\"http://h.example:80\"],\"assign\":\"u\"},"
           "{\"fn\":\"getAttr\",\"argv\":[{\"ref\":\"u\"},\"authority\"],\"assign\":\"v\"},"
           "{\"fn\":\"not\",\"argv\":[{\"fn\":\"getAttr\",\"argv\":[{\"ref\":\"u\"},\"isIp\"]}]}",
           "h.example:80");
    url_of("{\"fn\":\"parseURL\",\"argv\":[\"https://h?x=1\"],\"assign\":\"v\"}", "error: none");
    url_of("{\"fn\":\"parseURL\",\"argv\":[\"https://h:99999\"],\"assign\":\"v\"}", "error: none");
    url_of("{\"fn\":\"parseURL\",\"argv\":[\"ftp://h\"],\"assign\":\"v\"}", "error: none");
    url_of("{\"fn\":\"aws.parseArn\",\"argv\":[\"arn:aws:s3:us-west-2:123:accesspoint:ap\"],"
           "\"assign\":\"a\"},"
           "{\"fn\":\"getAttr\",\"argv\":[{\"ref\":\"a\"},\"resourceId[1]\"],\"assign\":\"v\"}",
           "ap");
    url_of("{\"fn\":\"aws.parseArn\",\"argv\":[\"arn:aws:s3:::\"],\"assign\":\"v\"}",
           "error: none");
    url_of("{\"fn\":\"isValidHostLabel\",\"argv\":[\"a.b-c\",true]},"
           "{\"fn\":\"not\",\"argv\":[{\"fn\":\"isValidHostLabel\",\"argv\":[\"a.b\",false]}]},"
           "{\"fn\":\"not\",\"argv\":[{\"fn\":\"isValidHostLabel\",\"argv\":[\"-a\",false]}]},"
           "{\"fn\":\"aws.isVirtualHostableS3Bucket\",\"argv\":[\"my-bucket\",false]},"
           "{\"fn\":\"not\",\"argv\":[{\"fn\":\"aws.isVirtualHostableS3Bucket\",\"argv\":"
           "[\"My-bucket\",false]}]},"
           "{\"fn\":\"not\",\"argv\":[{\"fn\":\"aws.isVirtualHostableS3Bucket\",\"argv\":"
           "[\"10.0.0.1\",true]}]},"
           "{\"fn\":\"uriEncode\",\"argv\":[\"ok\"],\"assign\":\"v\"}",
           "ok");
}
END_TEST

START_TEST(bounds) {
    char out[1024];
    /* Trees nested past the depth bound. */
    size_t cap = 1 << 20;
    char *deep = malloc(cap);
    size_t n = (size_t)snprintf(deep, cap, "{\"rules\":[");
    for (int i = 0; i < 200; i++)
        n +=
            (size_t)snprintf(deep + n, cap - n, "{\"type\":\"tree\",\"conditions\":[],\"rules\":[");
    n += (size_t)snprintf(deep + n, cap - n, ENDPOINT("\"x\""));
    for (int i = 0; i < 200; i++) n += (size_t)snprintf(deep + n, cap - n, "]}");
    snprintf(deep + n, cap - n, "]}");
    eval(deep, "{}", out, sizeof(out), NULL);
    ck_assert_msg(strstr(out, "nests deeper"), "%s", out);
    /* Functions nested past it. */
    n = (size_t)snprintf(deep, cap, "{\"rules\":[{\"type\":\"endpoint\",\"conditions\":[");
    for (int i = 0; i < 200; i++)
        n += (size_t)snprintf(deep + n, cap - n, "{\"fn\":\"not\",\"argv\":[");
    n += (size_t)snprintf(deep + n, cap - n, "true");
    for (int i = 0; i < 200; i++) n += (size_t)snprintf(deep + n, cap - n, "]}");
    snprintf(deep + n, cap - n, "],\"endpoint\":{\"url\":\"x\"}}]}");
    eval(deep, "{}", out, sizeof(out), NULL);
    ck_assert_msg(strstr(out, "nests deeper"), "%s", out);
    /* Many failing rules: the step bound stops it. */
    json_t *rs = json_object(), *rules = json_array(), *leaf = json_array();
    for (int i = 0; i < 1000; i++)
        json_array_append_new(leaf, json_pack("{s:s,s:[{s:s,s:[{s:s}]}],s:{s:s}}", "type",
                                              "endpoint", "conditions", "fn", "isSet", "argv",
                                              "ref", "none", "endpoint", "url", "x"));
    for (int i = 0; i < 300; i++)
        json_array_append_new(
            rules, json_pack("{s:s,s:[],s:O}", "type", "tree", "conditions", "rules", leaf));
    json_object_set_new(rs, "rules", rules);
    json_decref(leaf);
    json_t *parts = json_loads(PARTITIONS, 0, NULL), *in = json_object();
    aws_rules_endpoint ep;
    smfw_error err;
    ck_assert_int_eq(aws_rules_evaluate(rs, parts, in, &ep, NULL, &err), SMFW_ERR_CONFIG);
    ck_assert_msg(strstr(err.message, "steps"), "%s", err.message);
    json_decref(rs);
    json_decref(parts);
    json_decref(in);
    free(deep);
}
END_TEST

/* ---- the client: settings, partitions, refusals ---- */

static smfw_aws_client *client_in(const char *region) {
    smfw_aws_options o;
    memset(&o, 0, sizeof(o));
    o.region = region;
    o.no_imds = 1;
    smfw_aws_client *c = NULL;
    smfw_error err;
    ck_assert_msg(smfw_aws_client_new(&o, &c, &err) == SMFW_OK, "%s", err.message);
    return c;
}

static void clean_env(void) {
    const char *vars[] = {"AWS_USE_FIPS_ENDPOINT",
                          "AWS_USE_DUALSTACK_ENDPOINT",
                          "AWS_ENDPOINT_URL",
                          "AWS_ENDPOINT_URL_IAM",
                          "AWS_PROFILE",
                          "AWS_DEFAULT_PROFILE",
                          "AWS_STS_REGIONAL_ENDPOINTS"};
    for (size_t i = 0; i < sizeof(vars) / sizeof(vars[0]); i++) unsetenv(vars[i]);
    setenv("AWS_CONFIG_FILE", "/dev/null", 1);
    setenv("AWS_SHARED_CREDENTIALS_FILE", "/dev/null", 1);
}

START_TEST(client_endpoints) {
    clean_env();
    aws_endpoint ep;
    smfw_error err;
    smfw_aws_client *c = client_in("us-gov-west-1");
    ck_assert_int_eq(aws_client_resolve_endpoint(c, "iam", &ep, &err), SMFW_OK);
    ck_assert_str_eq(ep.url, "https://iam.us-gov.amazonaws.com");
    ck_assert_str_eq(ep.signing_region, "us-gov-west-1");
    /* Settings are read at each resolution: the environment, then the profile. */
    setenv("AWS_USE_FIPS_ENDPOINT", "TRUE", 1);
    ck_assert_int_eq(aws_client_resolve_endpoint(c, "sagemaker", &ep, &err), SMFW_OK);
    ck_assert_str_eq(ep.url, "https://api-fips.sagemaker.us-gov-west-1.amazonaws.com");
    smfw_aws_client_free(c);

    c = client_in("cn-north-1");
    ck_assert_int_eq(aws_client_resolve_endpoint(c, "s3", &ep, &err), SMFW_ERR_CONFIG);
    ck_assert_str_eq(err.message,
                     "no s3 endpoint for region cn-north-1 with FIPS: Partition does not support "
                     "FIPS");
    unsetenv("AWS_USE_FIPS_ENDPOINT");
    ck_assert_int_eq(aws_client_resolve_endpoint(c, "iam", &ep, &err), SMFW_OK);
    ck_assert_str_eq(ep.url, "https://iam.cn-north-1.amazonaws.com.cn");
    ck_assert_str_eq(ep.signing_region, "cn-north-1");
    smfw_aws_client_free(c);

    char cfg[] = "/tmp/smfw-ep-cfg-XXXXXX";
    int fd = mkstemp(cfg);
    ck_assert_int_ge(fd, 0);
    const char *text = "[default]\nuse_dualstack_endpoint = true\nuse_fips_endpoint = true\n";
    ck_assert_int_eq(write(fd, text, strlen(text)), (ssize_t)strlen(text));
    close(fd);
    setenv("AWS_CONFIG_FILE", cfg, 1);
    setenv("AWS_USE_FIPS_ENDPOINT", "false", 1); /* the environment wins */
    c = client_in("us-iso-east-1");
    ck_assert_int_eq(aws_client_resolve_endpoint(c, "monitoring", &ep, &err), SMFW_OK);
    ck_assert_str_eq(ep.url, "https://monitoring.us-iso-east-1.api.aws.ic.gov");
    ck_assert_str_eq(ep.signing_name, "monitoring");
    /* An override turns FIPS and dual-stack off and keeps the client's signing region. */
    setenv("AWS_ENDPOINT_URL_IAM", "http://127.0.0.1:9/", 1);
    ck_assert_int_eq(aws_client_resolve_endpoint(c, "iam", &ep, &err), SMFW_OK);
    ck_assert_str_eq(ep.url, "http://127.0.0.1:9");
    ck_assert_str_eq(ep.signing_region, "us-iso-east-1");
    ck_assert_int_eq(ep.overridden, 1);
    smfw_aws_client_free(c);
    unlink(cfg);

    clean_env();
    setenv("AWS_STS_REGIONAL_ENDPOINTS", "legacy", 1);
    c = client_in("eu-west-1");
    ck_assert_int_eq(aws_client_resolve_endpoint(c, "sts", &ep, &err), SMFW_OK);
    ck_assert_str_eq(ep.url, "https://sts.amazonaws.com");
    ck_assert_str_eq(ep.signing_region, "us-east-1");
    smfw_aws_client_free(c);
    clean_env();
}
END_TEST

int main(void) {
    Suite *s = suite_create("aws_endpoint_rules");
    TCase *tc = tcase_create("rules");
    tcase_add_test(tc, templates_partitions_and_errors);
    tcase_add_test(tc, library_functions);
    tcase_add_test(tc, bounds);
    tcase_add_test(tc, client_endpoints);
    suite_add_tcase(s, tc);
    return smfw_test_run(s);
}
