/*
 * test_managed_spec.c - the managed backend's pure parts: the WorkloadSpec
 * built from settings (reference defaults, sweeps, SLA search, extras) and
 * its parameter checks, job names against the AIEntityName rule, the exact
 * request bodies, and the trust-policy reader.
 */
#include <check.h>
#include <regex.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <smfw/app.h>

/* The plugin's files are compiled in: they are internal to the module. */
#include "../../plugins/backend-managed/names.c"
#include "../../plugins/backend-managed/plan.c"
#include "../../plugins/backend-managed/workload_params.c"
#include "../../plugins/backend-managed/workload_spec.c"
#include "../../plugins/backend-managed/preflight.c"
#include "../../plugins/backend-managed/job.c"

#include "smfw_test.h"

/* A config with the core sections and the managed backend's section. */
static const smfw_setting_decl managed_decls_for_test[] = {
    {"workload_param", SMFW_SETTING_LIST, NULL, "w", "workload-param", NULL, 0, NULL},
    {"sla", SMFW_SETTING_LIST, NULL, "s", "sla", NULL, 0, NULL},
    {"sla_concurrency", SMFW_SETTING_LIST, "1,2,4,8,16,32,64", "c", "sla-concurrency", NULL, 0,
     NULL},
    SMFW_SETTINGS_END};
static const smfw_plugin_descriptor test_desc = {SMFW_ABI_MAJOR,
                                                 SMFW_ABI_MINOR,
                                                 SMFW_PLUGIN_BACKEND,
                                                 "managed",
                                                 "t",
                                                 "t",
                                                 managed_decls_for_test,
                                                 NULL};

static smfw_status noop_create(const smfw_settings *s, const smfw_config *c, void **x,
                               smfw_error *e) {
    (void)s, (void)c, (void)e;
    *x = NULL;
    return SMFW_OK;
}
static smfw_status noop_run(void *x, smfw_run_context *r, smfw_error *e) {
    (void)x, (void)r, (void)e;
    return SMFW_OK;
}
static void noop_destroy(void *x) {
    (void)x;
}
static const smfw_backend_ops noop_ops = {sizeof noop_ops, noop_create, noop_run,
                                          noop_destroy,    NULL,        NULL};

static smfw_registry *reg;
static smfw_config *cfg;

static void setup(void) {
    smfw_error err;
    ck_assert_int_eq(smfw_registry_load(NULL, 0, &reg, &err), SMFW_OK);
    static smfw_plugin_descriptor d;
    d = test_desc;
    d.ops = &noop_ops;
    ck_assert_msg(smfw_registry_add_static(reg, &d, "test", &err) == SMFW_OK, "%s", err.message);
    ck_assert_int_eq(smfw_config_new(reg, &cfg, &err), SMFW_OK);
}

static void teardown(void) {
    smfw_config_free(cfg);
    smfw_registry_free(reg);
}

static void set(const char *section, const char *key, const char *value) {
    smfw_error err;
    ck_assert_msg(smfw_config_set(cfg, section, key, value, SMFW_SOURCE_FLAG, "test", 0, &err) ==
                      SMFW_OK,
                  "%s", err.message);
}

static json_t *params_of(json_t *spec) {
    ck_assert_str_eq(json_string_value(json_object_get(json_object_get(spec, "benchmark"), "type")),
                     "aiperf");
    return json_object_get(spec, "parameters");
}

START_TEST(defaults_match_the_reference_workflow) {
    json_t *spec;
    smfw_error err;
    ck_assert_msg(managed_spec_build(cfg, &spec, &err) == SMFW_OK, "%s", err.message);
    json_t *p = params_of(spec);
    ck_assert_int_eq(json_integer_value(json_object_get(p, "prompt_input_tokens_mean")), 500);
    ck_assert_int_eq(json_integer_value(json_object_get(p, "prompt_input_tokens_stddev")), 10);
    ck_assert_int_eq(json_integer_value(json_object_get(p, "output_tokens_mean")), 256);
    ck_assert_int_eq(json_integer_value(json_object_get(p, "output_tokens_stddev")), 16);
    ck_assert_int_eq(json_integer_value(json_object_get(p, "concurrency")), 10);
    ck_assert_int_eq(json_integer_value(json_object_get(p, "request_count")), 300);
    ck_assert(json_is_true(json_object_get(p, "streaming")));
    ck_assert_ptr_null(json_object_get(p, "request_rate"));
    ck_assert_ptr_null(json_object_get(p, "goodput"));
    json_decref(spec);
}
END_TEST

START_TEST(settings_reach_the_spec) {
    set("run", "concurrency", "1");
    set("run", "concurrency", "2");
    set("run", "concurrency", "8");
    set("run", "request_rate", "2.5");
    set("run", "duration", "2m");
    set("run", "warmup_request_count", "5");
    set("run", "extra_inputs", "reasoning_effort:low");
    set("run", "goodput", "time_to_first_token:500");
    set("run", "random_seed", "7");
    set("run", "tokenizer", "Qwen/Qwen3-0.6B");
    set("backend.managed", "workload_param", "request_rate_mode=constant");
    set("backend.managed", "workload_param", "warmup_duration=10");
    json_t *spec;
    smfw_error err;
    ck_assert_msg(managed_spec_build(cfg, &spec, &err) == SMFW_OK, "%s", err.message);
    json_t *p = params_of(spec);
    json_t *c = json_object_get(p, "concurrency");
    ck_assert(json_is_array(c));
    ck_assert_uint_eq(json_array_size(c), 3);
    ck_assert_int_eq(json_integer_value(json_array_get(c, 2)), 8);
    ck_assert_double_eq(json_number_value(json_object_get(p, "request_rate")), 2.5);
    ck_assert_double_eq(json_number_value(json_object_get(p, "benchmark_duration")), 120);
    ck_assert_ptr_null(json_object_get(p, "request_count")); /* duration run, count not set */
    ck_assert_int_eq(json_integer_value(json_object_get(p, "warmup_request_count")), 5);
    ck_assert_str_eq(json_string_value(json_object_get(p, "extra_inputs")), "reasoning_effort:low");
    ck_assert_str_eq(json_string_value(json_object_get(p, "goodput")), "time_to_first_token:500");
    ck_assert_int_eq(json_integer_value(json_object_get(p, "random_seed")), 7);
    ck_assert_str_eq(json_string_value(json_object_get(p, "tokenizer")), "Qwen/Qwen3-0.6B");
    ck_assert_str_eq(json_string_value(json_object_get(p, "request_rate_mode")), "constant");
    ck_assert_double_eq(json_number_value(json_object_get(p, "warmup_duration")), 10);
    json_decref(spec);
}
END_TEST

/* The shared --tokenizer: the service's AIPerf takes a hub id, never a local file. */
START_TEST(tokenizer_must_be_a_hub_id) {
    static const char *const refused[] = {"/models/tokenizer.json", "./tok", "builtin:o200k_base",
                                          "tokenizer.json",         "a/b/c", NULL};
    for (size_t i = 0; refused[i]; i++) {
        smfw_error err;
        smfw_config_free(cfg);
        ck_assert_int_eq(smfw_config_new(reg, &cfg, &err), SMFW_OK);
        set("run", "tokenizer", refused[i]);
        json_t *spec = NULL;
        ck_assert_int_eq(managed_spec_build(cfg, &spec, &err), SMFW_ERR_CONFIG);
        ck_assert_msg(strstr(err.message, "Hugging Face hub") && strstr(err.message, refused[i]),
                      "%s", err.message);
    }
}
END_TEST

START_TEST(sla_search_sweeps_with_slos_as_goodput) {
    set("backend.managed", "sla", "time_to_first_token:500");
    set("backend.managed", "sla", "inter_token_latency:40");
    json_t *spec;
    smfw_error err;
    ck_assert_msg(managed_spec_build(cfg, &spec, &err) == SMFW_OK, "%s", err.message);
    json_t *p = params_of(spec);
    ck_assert_uint_eq(json_array_size(json_object_get(p, "concurrency")), 7);
    ck_assert_str_eq(json_string_value(json_object_get(p, "goodput")),
                     "time_to_first_token:500 inter_token_latency:40");
    json_decref(spec);
}
END_TEST

START_TEST(unknown_and_mistyped_parameters_are_refused) {
    smfw_error err;
    json_t *params = json_object();
    ck_assert_int_eq(managed_spec_apply_extra(params, "bogus_knob=3", &err), SMFW_ERR_CONFIG);
    ck_assert(strstr(err.message, "unknown WorkloadSpec parameter \"bogus_knob\"") != NULL);
    ck_assert_int_eq(managed_spec_apply_extra(params, "request_count=0", &err), SMFW_ERR_CONFIG);
    ck_assert(strstr(err.message, "an integer above 0") != NULL);
    ck_assert_int_eq(managed_spec_apply_extra(params, "request_rate_mode=fast", &err),
                     SMFW_ERR_CONFIG);
    ck_assert_int_eq(managed_spec_apply_extra(params, "streaming=maybe", &err), SMFW_ERR_CONFIG);
    ck_assert_int_eq(managed_spec_apply_extra(params, "no_equals_sign", &err), SMFW_ERR_CONFIG);
    ck_assert_int_eq(managed_spec_apply_extra(params, "concurrency=1;4;16", &err), SMFW_OK);
    ck_assert_uint_eq(json_array_size(json_object_get(params, "concurrency")), 3);
    ck_assert_int_eq(managed_spec_apply_extra(params, "public_dataset=sharegpt", &err), SMFW_OK);
    json_decref(params);
    set("backend.managed", "workload_param", "max_tokens=3");
    json_t *spec = NULL;
    ck_assert_int_eq(managed_spec_build(cfg, &spec, &err), SMFW_ERR_CONFIG);
    ck_assert_ptr_null(spec);
}
END_TEST

START_TEST(names_fit_the_aientityname_rule) {
    regex_t re;
    ck_assert_int_eq(regcomp(&re, "^[a-zA-Z0-9](-*[a-zA-Z0-9]){0,62}$", REG_EXTENDED), 0);
    const char *targets[] = {"mock-endpoint", "My_Endpoint.v2", "", "---",
                             "a-very-long-endpoint-name-that-goes-on-and-on-and-on-forever-1234"};
    for (size_t i = 0; i < 5; i++) {
        char name[64];
        managed_name_make("smfw-wl", targets[i], 1777777777LL, 0xbeefu, name, sizeof name);
        ck_assert_msg(regexec(&re, name, 0, NULL, 0) == 0, "bad name %s", name);
        ck_assert_msg(strlen(name) <= 63, "too long: %s", name);
        ck_assert(managed_name_valid(name));
        ck_assert(strstr(name, "beef") != NULL);
    }
    char a[64], b[64];
    managed_name_make("smfw", "ep", 1777777777LL, 1, a, sizeof a);
    managed_name_make("smfw", "ep", 1777777777LL, 2, b, sizeof b);
    ck_assert_str_ne(a, b);
    ck_assert_str_eq(a, "smfw-ep-20260503-030937-0001");
    ck_assert(!managed_name_valid("-bad"));
    ck_assert(!managed_name_valid("bad_name"));
    regfree(&re);
}
END_TEST

START_TEST(request_bodies_are_exact) {
    managed_plan p;
    memset(&p, 0, sizeof p);
    p.endpoint = "ep";
    p.inference_component = "ic";
    snprintf(p.config_name, sizeof p.config_name, "wl-1");
    snprintf(p.job_name, sizeof p.job_name, "job-1");
    snprintf(p.role_arn, sizeof p.role_arn, "arn:aws:iam::111122223333:role/R");
    snprintf(p.output_uri, sizeof p.output_uri, "s3://b/benchmark-output/job-1/");
    snprintf(p.ds.name, sizeof p.ds.name, "curated.jsonl");
    snprintf(p.ds.channel_uri, sizeof p.ds.channel_uri, "s3://b/smfw/datasets/abc/");
    p.spec = json_pack("{s:{s:s},s:{s:i}}", "benchmark", "type", "aiperf", "parameters",
                       "concurrency", 10);
    json_t *w = managed_plan_workload_request(&p);
    char *wt = json_dumps(w, JSON_COMPACT | JSON_PRESERVE_ORDER);
    ck_assert_str_eq(wt,
                     "{\"AIWorkloadConfigName\":\"wl-1\",\"AIWorkloadConfigs\":{\"WorkloadSpec\":"
                     "{\"Inline\":\"{\\\"benchmark\\\":{\\\"type\\\":\\\"aiperf\\\"},"
                     "\\\"parameters\\\":{\\\"concurrency\\\":10}}\"}},\"DatasetConfig\":{"
                     "\"InputDataConfig\":[{\"ChannelName\":\"datasets\",\"DataSource\":{"
                     "\"S3DataSource\":{\"S3Uri\":\"s3://b/smfw/datasets/abc/\"}}}]}}");
    json_t *j = managed_plan_job_request(&p);
    char *jt = json_dumps(j, JSON_COMPACT | JSON_PRESERVE_ORDER);
    ck_assert_str_eq(jt, "{\"AIBenchmarkJobName\":\"job-1\",\"AIWorkloadConfigIdentifier\":"
                         "\"wl-1\",\"BenchmarkTarget\":{\"Endpoint\":{\"Identifier\":\"ep\","
                         "\"InferenceComponents\":[{\"Identifier\":\"ic\"}]}},\"OutputConfig\":{"
                         "\"S3OutputLocation\":\"s3://b/benchmark-output/job-1/\"},\"RoleArn\":"
                         "\"arn:aws:iam::111122223333:role/R\"}");
    free(wt);
    free(jt);
    json_decref(w);
    json_decref(j);
    p.ds.public_feed = 1;
    w = managed_plan_workload_request(&p);
    ck_assert_ptr_null(json_object_get(w, "DatasetConfig"));
    json_decref(w);
    json_decref(p.spec);
}
END_TEST

START_TEST(trust_policy_reader) {
    ck_assert_int_eq(
        managed_trust_allows_sagemaker(
            "%7B%22Version%22%3A%222012-10-17%22%2C%22Statement%22%3A%5B%7B%22Effect%22%3A%22"
            "Allow%22%2C%22Principal%22%3A%7B%22Service%22%3A%22sagemaker.amazonaws.com%22%7D%2C"
            "%22Action%22%3A%22sts%3AAssumeRole%22%7D%5D%7D"),
        1);
    ck_assert_int_eq(managed_trust_allows_sagemaker(
                         "{\"Statement\":{\"Effect\":\"Allow\",\"Principal\":{\"Service\":["
                         "\"ec2.amazonaws.com\",\"sagemaker.amazonaws.com\"]},\"Action\":["
                         "\"sts:AssumeRole\",\"sts:TagSession\"]}}"),
                     1);
    ck_assert_int_eq(managed_trust_allows_sagemaker(
                         "{\"Statement\":[{\"Effect\":\"Allow\",\"Principal\":{\"Service\":"
                         "\"ec2.amazonaws.com\"},\"Action\":\"sts:AssumeRole\"}]}"),
                     0);
    ck_assert_int_eq(managed_trust_allows_sagemaker(
                         "{\"Statement\":[{\"Effect\":\"Deny\",\"Principal\":{\"Service\":"
                         "\"sagemaker.amazonaws.com\"},\"Action\":\"sts:AssumeRole\"}]}"),
                     0);
    ck_assert_int_eq(managed_trust_allows_sagemaker("not json"), -1);
    const char *regions[] = {"us-east-1", "eu-west-1"};
    ck_assert(managed_region_offered("eu-west-1", regions, 2));
    ck_assert(!managed_region_offered("eu-west-9", regions, 2));
}
END_TEST

static Suite *suite(void) {
    Suite *s = suite_create("managed");
    TCase *tc = tcase_create("spec");
    tcase_add_checked_fixture(tc, setup, teardown);
    tcase_add_test(tc, defaults_match_the_reference_workflow);
    tcase_add_test(tc, settings_reach_the_spec);
    tcase_add_test(tc, tokenizer_must_be_a_hub_id);
    tcase_add_test(tc, sla_search_sweeps_with_slos_as_goodput);
    tcase_add_test(tc, unknown_and_mistyped_parameters_are_refused);
    tcase_add_test(tc, names_fit_the_aientityname_rule);
    tcase_add_test(tc, request_bodies_are_exact);
    tcase_add_test(tc, trust_policy_reader);
    suite_add_tcase(s, tc);
    return s;
}

int main(void) {
    return smfw_test_run(suite());
}
