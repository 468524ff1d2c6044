/*
 * settings_core.c - the keys of the core sections: [smfw] (program), [run]
 * (the workload every backend shares), [aws] and [dataset]. conf/smfw.conf
 * documents exactly these keys (a unit test checks it).
 */
#include <smfw/app.h>

#define S SMFW_SETTING_STRING
#define I SMFW_SETTING_INT
#define D SMFW_SETTING_DOUBLE
#define B SMFW_SETTING_BOOL
#define K SMFW_SETTING_SECRET
#define L SMFW_SETTING_LIST
#define T SMFW_SETTING_DURATION
#define P SMFW_SETTING_PATH

static const smfw_setting_decl smfw_settings_program[] = {
    {"backend", S, "direct", "backend plugin that runs the benchmark (direct, managed, ...)",
     "backend", "SMFW_BACKEND", 'b', "NAME"},
    {"dataset", S, "curated",
     "dataset plugin the prompts come from (curated, public, custom, synthetic)", "dataset",
     "SMFW_DATASET", 0, "NAME"},
    {"report", L, "json,csv,markdown", "reporter plugins to run, comma-separated", "report",
     "SMFW_REPORT", 0, "LIST"},
    {"output", P, NULL,
     "output folder of this run (default ./smfw-results/<run name>/; never overwritten)", "output",
     "SMFW_OUTPUT", 'o', "DIR"},
    {"results_dir", P, "./smfw-results", "parent folder of run folders when output is not set",
     "results-dir", "SMFW_RESULTS_DIR", 0, "DIR"},
    {"run_name", S, NULL, "name of this run (default: <backend>-<target>-<UTC timestamp>)",
     "run-name", NULL, 0, "NAME"},
    {"plugin_path", L, NULL, "extra folders searched for plugins, before the built-in ones",
     "plugin-path", NULL, 0, "DIRS"},
    {"run", B, "false",
     "managed backend: really launch the job (without it smfw prints the plan: a dry run)", "run",
     NULL, 0, NULL},
    {"progress", S, "auto",
     "progress display: auto (TTY bar, else periodic lines), bar, lines, none", "progress", NULL, 0,
     "MODE"},
    {"s3_chunk_interval", T, "10s",
     "with -o s3://...: how often the new records go up as a chunk object (records-NNNNNN.jsonl)",
     "s3-chunk-interval", NULL, 0, "TIME"},
    {"s3_chunk_records", I, "0",
     "with -o s3://...: also put a chunk as soon as this many records wait (0: only by time)",
     "s3-chunk-records", NULL, 0, "N"},
    SMFW_SETTINGS_END};

static const smfw_setting_decl smfw_settings_run[] = {
    {"endpoint", S, NULL,
     "SageMaker endpoint name to benchmark (\"mock\" starts a local smfw-mock)", "endpoint",
     "SMFW_ENDPOINT", 'e', "NAME"},
    {"inference_component", S, NULL, "SageMaker inference component to address",
     "inference-component", NULL, 0, "NAME"},
    {"streaming", B, "true",
     "stream the response (SageMaker: InvokeEndpointWithResponseStream); --no-streaming for "
     "InvokeEndpoint",
     "streaming", NULL, 0, NULL},
    {"concurrency", L, "10",
     "requests kept in flight (closed loop); a list (1,2,4) is a sweep for `smfw sweep` and the "
     "managed backend",
     "concurrency", NULL, 'c', "N"},
    {"request_count", I, "300", "profiling requests to send", "request-count", NULL, 'n', "N"},
    {"request_rate", D, NULL, "open loop: requests per second (overrides closed loop)",
     "request-rate", NULL, 'r', "R"},
    {"arrival", S, "poisson", "open-loop arrivals: poisson (seeded) or constant", "arrival", NULL,
     0, "KIND"},
    {"duration", T, NULL, "stop issuing after this long (e.g. 120s) instead of a request count",
     "duration", NULL, 0, "TIME"},
    {"grace_period", T, "30s", "after the stop, wait this long for in-flight responses",
     "grace-period", NULL, 0, "TIME"},
    {"warmup_request_count", I, "0", "throwaway requests before profiling", "warmup-request-count",
     NULL, 0, "N"},
    {"warmup_duration", T, NULL, "throwaway period before profiling", "warmup-duration", NULL, 0,
     "TIME"},
    {"extra_inputs", L, NULL, "extra body field key:value (repeatable), e.g. ignore_eos:true",
     "extra-inputs", NULL, 0, "KEY:VALUE"},
    {"goodput", L, NULL,
     "SLOs for goodput, tag:value in display units (e.g. time_to_first_token:500)", "goodput", NULL,
     0, "TAG:VALUE"},
    {"max_error_rate", D, "0.01",
     "validity gate: the run fails (exit 3) when errors/requests exceeds this fraction",
     "max-error-rate", NULL, 0, "FRACTION"},
    {"tokenizer", S, NULL,
     "count tokens with this tokenizer as AIPerf does (tokenizer.json, builtin:o200k_base, a hub "
     "id); default: server usage",
     "tokenizer", NULL, 0, "SPEC"},
    {"random_seed", I, "42", "seed for sampling, synthetic prompts and arrivals", "random-seed",
     NULL, 0, "N"},
    {"shard", S, NULL, "run shard I of N (\"I/N\"): splits dataset and request budget", "shard",
     NULL, 0, "I/N"},
    SMFW_SETTINGS_END};

static const smfw_setting_decl smfw_settings_aws[] = {
    {"region", S, NULL, "AWS region (else AWS_REGION, AWS_DEFAULT_REGION, the profile, IMDS)",
     "region", NULL, 0, "REGION"},
    {"profile", S, NULL, "AWS profile of the shared config/credentials files", "profile", NULL, 0,
     "NAME"},
    {"endpoint_url", S, NULL, "override every AWS endpoint (VPC endpoints, smfw-mock)",
     "endpoint-url", NULL, 0, "URL"},
    {"ca_bundle", P, NULL,
     "CA bundle for TLS verification of every connection (else AWS_CA_BUNDLE, else the profile's "
     "ca_bundle)",
     "ca-bundle", NULL, 0, "FILE"},
    {"max_attempts", I, NULL,
     "attempts per AWS call (default: AWS_MAX_ATTEMPTS, the profile's max_attempts, else 3; 5 in "
     "legacy retry mode)",
     "max-attempts", NULL, 0, "N"},
    SMFW_SETTINGS_END};

static const smfw_setting_decl smfw_settings_dataset[] = {
    {"dataset_file", P, NULL, "dataset file (custom JSONL, ShareGPT JSON for public)",
     "dataset-file", NULL, 'f', "FILE"},
    {"dataset_sampling", S, "shuffle", "prompt order: shuffle (seeded) or sequential",
     "dataset-sampling", NULL, 0, "ORDER"},
    {"input_tokens_mean", D, "500", "target input length (tokens) where the source has none",
     "input-tokens-mean", NULL, 0, "N"},
    {"input_tokens_stddev", D, "10", "input length standard deviation (tokens)",
     "input-tokens-stddev", NULL, 0, "N"},
    {"output_tokens_mean", D, "256", "output budget (tokens) where the source has none",
     "output-tokens-mean", NULL, 0, "N"},
    {"output_tokens_stddev", D, "16", "output budget standard deviation (tokens)",
     "output-tokens-stddev", NULL, 0, "N"},
    SMFW_SETTINGS_END};

static const smfw_setting_decl smfw_settings_bundle[] = {
    {"max_summary_bytes", I, "8388608",
     "largest profile_export_aiperf.json read (bytes; it is parsed whole)", NULL, NULL, 0, NULL},
    {"max_record_bytes", I, "4194304", "longest line of profile_export.jsonl read (bytes)", NULL,
     NULL, 0, NULL},
    {"max_array_items", I, "1000000", "most items of one JSON list (inter_chunk_latency)", NULL,
     NULL, 0, NULL},
    {"max_records", I, "1000000", "most records of one run read from profile_export.jsonl", NULL,
     NULL, 0, NULL},
    {"max_run_items", I, "50000000",
     "most inter_chunk_latency items over all records of one run (8 bytes each in memory)", NULL,
     NULL, 0, NULL},
    {"max_download_bytes", I, "4294967296", "largest object downloaded (bytes)", NULL, NULL, 0,
     NULL},
    {"download_timeout", T, "30m", "longest one download may take", NULL, NULL, 0, NULL},
    {"low_speed_bytes", I, "1024", "a download slower than this (bytes/s) ...", NULL, NULL, 0,
     NULL},
    {"low_speed_time", T, "60s", "... for this long is abandoned", NULL, NULL, 0, NULL},
    {"max_list_pages", I, "10000", "most pages of one listing (S3 objects, SageMaker jobs)", NULL,
     NULL, 0, NULL},
    {"max_list_bytes", I, "268435456", "most response bytes of one listing", NULL, NULL, 0, NULL},
    SMFW_SETTINGS_END};

static const smfw_section_decl smfw_core_section_table[] = {
    {"smfw", "the program: which plugins, where results go", smfw_settings_program},
    {"run", "the workload, shared by every backend", smfw_settings_run},
    {"aws", "AWS access (the AWS_* environment variables are honoured too)", smfw_settings_aws},
    {"dataset", "options common to every dataset plugin", smfw_settings_dataset},
    {"bundle", "limits on bundles and downloads smfw did not write (docs/managed.md, Trust)",
     smfw_settings_bundle},
    {NULL, NULL, NULL}};

const smfw_section_decl *smfw_core_sections(void) {
    return smfw_core_section_table;
}
