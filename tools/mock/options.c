/*
 * options.c - smfw-mock's command line and the [mock] section of a config file.
 *
 * Every flag is also a config key of the same name (without the dashes), so
 * a config file can hold a whole mock setup; flags given on the command line
 * win over the file.
 */
#include "mock.h"

#include "capture.h"

#include <ini.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

/* One table drives parsing, --help and the config keys. */
typedef struct mock_flag {
    const char *name;
    const char *arg; /* NULL: boolean flag */
    const char *help;
} mock_flag;

static const mock_flag mock_flags[] = {
    {"listen", "HOST:PORT",
     "address to listen on (default 127.0.0.1:8080; port 0 picks a free port). The first line "
     "on stdout is always \"listening on http://HOST:PORT\""},
    {"port", "N", "shorthand for --listen 127.0.0.1:N"},
    {"access-key-id", "ID",
     "access key id accepted for SigV4 (default " MOCK_DEFAULT_ACCESS_KEY_ID ")"},
    {"secret-access-key", "KEY",
     "secret key accepted for SigV4 (else $SMFW_MOCK_SECRET_ACCESS_KEY, "
     "else " MOCK_DEFAULT_SECRET_ACCESS_KEY ")"},
    {"no-auth", NULL, "accept every request without checking its signature"},
    {"account-id", "ID",
     "12-digit account id in ARNs and GetCallerIdentity (default " MOCK_DEFAULT_ACCOUNT_ID ")"},
    {"region", "REGION", "region of every emulated service (default " MOCK_DEFAULT_REGION ")"},
    {"endpoint", "NAME",
     "an InService SageMaker endpoint (repeatable; default " MOCK_DEFAULT_ENDPOINT ")"},
    {"inference-component", "NAME",
     "an InService inference component on the endpoint named last before it (repeatable); "
     "invocations of that endpoint must then name a component"},
    {"role", "NAME[:PRINCIPAL]",
     "an IAM role for GetRole/ListRoles (repeatable; default SageMakerExecutionRole). Its trust "
     "policy allows PRINCIPAL (default sagemaker.amazonaws.com; \"none\": trusts nobody), and a "
     "benchmark job whose RoleArn names a role that does not trust sagemaker.amazonaws.com is "
     "refused"},
    {"deny", "ACTION",
     "IAM SimulatePrincipalPolicy answers implicitDeny for ACTION (e.g. "
     "sagemaker:InvokeEndpoint; repeatable; every other action is allowed)"},
    {"autoscaling", "NAME:MIN:MAX",
     "register an Application Auto Scaling target for endpoint (AllTraffic variant) or inference "
     "component NAME with that capacity range (repeatable; default none)"},
    {"max-concurrency", "N",
     "decode at most N requests at once per endpoint; later ones queue and their TTFT starts "
     "when a slot frees (default 0: no limit)"},
    {"prefix-cache", "BLOCKS",
     "emulate vLLM's automatic prefix caching with room for BLOCKS KV blocks per mock (LRU): "
     "usage reports prompt_tokens_details.cached_tokens, and --prefill-ms-per-token is charged "
     "for the uncached prompt tokens only (default 0: off)"},
    {"prefix-block-tokens", "N", "tokens per prefix-cache block (default 16, vLLM's)"},
    {"prefill-ms-per-token", "MS",
     "TTFT grows by MS per prompt token the prefix cache did not hold (default 0)"},
    {"ttft-ms", "MEAN[:STDDEV]", "time to first token, normal distribution (default 20:0)"},
    {"itl-ms", "MEAN[:STDDEV]", "inter-token latency, normal distribution (default 5:0)"},
    {"output-tokens", "N",
     "tokens per answer (default: the request's max_tokens / max_new_tokens, else 16)"},
    {"fault", "KIND:RATE",
     "inject a fault into that fraction (0-1, or N%) of inference requests (repeatable). KIND: "
     "http-500, throttle, model-error, stream-error, drop, slow-headers, corrupt-crc, "
     "reasoning-only, empty"},
    {"api-fault", "KIND:RATE",
     "inject a fault into that fraction of AWS API requests (control plane, STS, IAM, "
     "CloudWatch, S3; repeatable), to test the clients' retries. KIND: http-500, http-503, "
     "throttle"},
    {"slow-headers-ms", "MS", "delay of the slow-headers fault (default 1000)"},
    {"split", "random|line",
     "PayloadPart boundaries: anywhere (random, as SageMaker) or one per SSE event (line)"},
    {"model", "NAME", "model name reported by /v1/models and in answers (default mock-model)"},
    {"ground-truth", "FILE", "append one JSON line per inference request to FILE"},
    {"session-ttl", "SECONDS",
     "stateful sessions expire this long after InvokeEndpoint opened them (default 1200)"},
    {"session-header", "NAME",
     "OpenAI routes: header whose value the ground truth records as the session id (e.g. "
     "X-Correlation-ID; default none)"},
    {"data-capture", "s3://BUCKET[/PREFIX]",
     "write SageMaker Data Capture files of the Runtime invocations to the mock's S3 "
     "(DataCaptureConfig DestinationS3Uri; default off)"},
    {"capture-sampling-percentage", "N", "percent of invocations captured (default 100)"},
    {"capture-mode", "Input|Output|InputAndOutput", "what is captured (default InputAndOutput)"},
    {"capture-json-content-types", "T[,T...]",
     "content types captured as text with encoding JSON (default none: BASE64, as SageMaker)"},
    {"capture-csv-content-types", "T[,T...]", "content types captured with encoding CSV"},
    {"capture-flush-ms", "MS", "write buffered capture lines as a new object this often (1000)"},
    {"state-dir", "DIR",
     "where S3 objects, workload configs and jobs persist (default: a temporary directory, "
     "removed at exit)"},
    {"job-duration-s", "S",
     "the least time a benchmark job stays InProgress, so pollers and StopAIBenchmarkJob can "
     "see it running (default 0)"},
    {"sharegpt-file", "FILE",
     "ShareGPT JSON used by benchmark jobs whose WorkloadSpec asks for public_dataset: sharegpt "
     "(default: downloaded on first use, as SageMaker does)"},
    {"seed", "N", "seed of the latency and fault draws (default 1)"},
    {"exit-on-stdin-eof", NULL, "exit when stdin closes (for a parent process that owns the mock)"},
    {"config", "FILE", "read options from the [mock] section of FILE (flags win)"},
    {"verbose", NULL, "log every request, and the benchmark jobs' log lines, to stderr (also -v)"},
    {"help", NULL, "print this help and exit"},
    {"version", NULL, "print the version and exit"},
};

void mock_options_usage(FILE *out) {
    fprintf(out, "usage: smfw-mock [options]\n\n"
                 "A local emulator of SageMaker Runtime and control plane (with benchmark jobs\n"
                 "that really run), S3, STS, IAM, Application Auto Scaling, CloudWatch and\n"
                 "OpenAI-compatible HTTP, for trying smfw and testing plugins offline.\n\n"
                 "options:\n");
    for (size_t i = 0; i < sizeof mock_flags / sizeof mock_flags[0]; i++) {
        char left[64];
        snprintf(left, sizeof left, "--%s%s%s", mock_flags[i].name, mock_flags[i].arg ? " " : "",
                 mock_flags[i].arg ? mock_flags[i].arg : "");
        fprintf(out, "  %-34s %s\n", left, mock_flags[i].help);
    }
    fprintf(out, "\nEvery option is also a key of a [mock] config-file section, e.g.\n"
                 "  [mock]\n  listen = 127.0.0.1:0\n  endpoint = a, b\n  fault = throttle:0.05\n"
                 "Signals: SIGTERM and SIGINT stop the mock cleanly.\n");
}

static const mock_flag *find_flag(const char *name) {
    for (size_t i = 0; i < sizeof mock_flags / sizeof mock_flags[0]; i++)
        if (strcmp(mock_flags[i].name, name) == 0) return &mock_flags[i];
    return NULL;
}

static int parse_latency(const char *v, mock_latency *out) {
    char *end;
    double mean = strtod(v, &end);
    double sd = 0;
    if (end == v || mean < 0) return -1;
    if (*end == ':') {
        const char *s = end + 1;
        sd = strtod(s, &end);
        if (end == s || sd < 0) return -1;
    }
    if (*end) return -1;
    out->mean_ms = mean;
    out->stddev_ms = sd;
    return 0;
}

static int add_names(char **list, size_t *count, const char *value) {
    char *copy = strdup(value);
    if (!copy) abort();
    char *save = NULL;
    for (char *tok = strtok_r(copy, ", ", &save); tok; tok = strtok_r(NULL, ", ", &save)) {
        if (*count == MOCK_MAX_NAMES || !mock_name_valid(tok, 63)) {
            free(copy);
            return -1;
        }
        int dup = 0;
        for (size_t i = 0; i < *count; i++) dup |= strcmp(list[i], tok) == 0;
        if (!dup) list[(*count)++] = strdup(tok);
    }
    free(copy);
    return 0;
}

static int parse_bool(const char *v) {
    if (!v || !*v || !strcasecmp(v, "true") || !strcasecmp(v, "yes") || !strcmp(v, "1") ||
        !strcasecmp(v, "on"))
        return 1;
    if (!strcasecmp(v, "false") || !strcasecmp(v, "no") || !strcmp(v, "0") || !strcasecmp(v, "off"))
        return 0;
    return -1;
}

/* A whole number in [lo, hi] for --flag: 0, or -1 with the usage error in err. */
static int long_in(const char *flag, const char *value, long lo, long hi, long *out, char *err,
                   size_t err_size) {
    char *end;
    long n = strtol(value, &end, 10);
    if (end == value || *end || n < lo || n > hi) {
        snprintf(err, err_size, "--%s wants %ld-%ld, got \"%s\"", flag, lo, hi, value);
        return -1;
    }
    *out = n;
    return 0;
}

/* Apply one option (flag or config key). Returns 0, or -1 with err filled. */
static int apply(mock_options *opt, const char *name, const char *value, int *explicit_endpoints,
                 int *explicit_roles, char *err, size_t err_size) {
    char *end;
    int cap = mock_capture_option(&opt->capture, name, value, err, err_size);
    if (cap <= 0) return cap;
    if (!strcmp(name, "listen")) {
        const char *colon = strrchr(value, ':');
        long port = colon ? strtol(colon + 1, &end, 10) : -1;
        if (!colon || colon == value || (size_t)(colon - value) >= sizeof opt->host || *end ||
            port < 0 || port > 65535) {
            snprintf(err, err_size, "--listen wants HOST:PORT, got \"%s\"", value);
            return -1;
        }
        snprintf(opt->host, sizeof opt->host, "%.*s", (int)(colon - value), value);
        opt->port = (int)port;
    } else if (!strcmp(name, "port")) {
        long port;
        if (long_in("port", value, 0, 65535, &port, err, err_size) != 0) return -1;
        opt->port = (int)port;
    } else if (!strcmp(name, "access-key-id")) {
        snprintf(opt->access_key_id, sizeof opt->access_key_id, "%s", value);
    } else if (!strcmp(name, "secret-access-key")) {
        snprintf(opt->secret_access_key, sizeof opt->secret_access_key, "%s", value);
    } else if (!strcmp(name, "no-auth") || !strcmp(name, "exit-on-stdin-eof") ||
               !strcmp(name, "verbose")) {
        int b = parse_bool(value);
        if (b < 0) {
            snprintf(err, err_size, "%s wants true or false, got \"%s\"", name, value);
            return -1;
        }
        if (!strcmp(name, "no-auth")) opt->no_auth = b;
        if (!strcmp(name, "exit-on-stdin-eof")) opt->exit_on_stdin_eof = b;
        if (!strcmp(name, "verbose")) opt->verbose = b;
    } else if (!strcmp(name, "account-id")) {
        if (strlen(value) != 12 || strspn(value, "0123456789") != 12) {
            snprintf(err, err_size, "--account-id wants 12 digits, got \"%s\"", value);
            return -1;
        }
        snprintf(opt->account_id, sizeof opt->account_id, "%s", value);
    } else if (!strcmp(name, "region")) {
        snprintf(opt->region, sizeof opt->region, "%s", value);
    } else if (!strcmp(name, "endpoint")) {
        if (!*explicit_endpoints) {
            for (size_t i = 0; i < opt->endpoint_count; i++) free(opt->endpoints[i]);
            opt->endpoint_count = 0;
            *explicit_endpoints = 1;
        }
        if (add_names(opt->endpoints, &opt->endpoint_count, value) != 0) {
            snprintf(err, err_size, "bad endpoint name \"%s\" (1-63 of [a-zA-Z0-9-])", value);
            return -1;
        }
    } else if (!strcmp(name, "inference-component")) {
        size_t before = opt->component_count;
        if (opt->endpoint_count == 0 ||
            add_names(opt->components, &opt->component_count, value) != 0) {
            snprintf(err, err_size, "bad inference component name \"%s\"", value);
            return -1;
        }
        for (size_t i = before; i < opt->component_count; i++)
            opt->component_endpoints[i] = strdup(opt->endpoints[opt->endpoint_count - 1]);
    } else if (!strcmp(name, "ttft-ms") || !strcmp(name, "itl-ms")) {
        if (parse_latency(value, !strcmp(name, "ttft-ms") ? &opt->ttft : &opt->itl) != 0) {
            snprintf(err, err_size, "--%s wants MEAN[:STDDEV] in ms, got \"%s\"", name, value);
            return -1;
        }
    } else if (!strcmp(name, "output-tokens")) {
        if (long_in(name, value, 0, 1000000, &opt->output_tokens, err, err_size) != 0) return -1;
    } else if (!strcmp(name, "fault")) {
        char *copy = strdup(value), *save = NULL;
        if (!copy) abort();
        for (char *tok = strtok_r(copy, ", ", &save); tok; tok = strtok_r(NULL, ", ", &save)) {
            mock_fault_kind kind;
            double rate;
            int rc = mock_fault_parse(tok, &kind, &rate);
            if (rc == -2) {
                char kinds[256];
                mock_fault_kinds(kinds, sizeof kinds);
                snprintf(err, err_size,
                         "--fault: unknown fault kind \"%.*s\" in \"%s\" (known: %s)",
                         (int)strcspn(tok, ":"), tok, tok, kinds);
                free(copy);
                return -1;
            }
            if (rc != 0) {
                snprintf(err, err_size,
                         "--fault wants KIND:RATE (e.g. throttle:0.05 or drop:2%%), got \"%s\"",
                         tok);
                free(copy);
                return -1;
            }
            opt->fault_rate[kind] = rate;
        }
        free(copy);
        double total = 0;
        for (int k = 1; k < MOCK_FAULT_COUNT; k++) total += opt->fault_rate[k];
        if (total > 1.0 + 1e-9) {
            snprintf(err, err_size, "the fault rates add up to %.3f, more than 1", total);
            return -1;
        }
    } else if (!strcmp(name, "api-fault")) {
        char *copy = strdup(value), *save = NULL;
        if (!copy) abort();
        for (char *tok = strtok_r(copy, ", ", &save); tok; tok = strtok_r(NULL, ", ", &save)) {
            mock_api_fault_kind kind;
            double rate;
            int rc = mock_api_fault_parse(tok, &kind, &rate);
            if (rc != 0) {
                char kinds[128];
                mock_api_fault_kinds(kinds, sizeof kinds);
                if (rc == -2)
                    snprintf(err, err_size,
                             "--api-fault: unknown fault kind \"%.*s\" in \"%s\" (known: %s)",
                             (int)strcspn(tok, ":"), tok, tok, kinds);
                else
                    snprintf(err, err_size,
                             "--api-fault wants KIND:RATE (e.g. http-503:1 or throttle:50%%), "
                             "got \"%s\"",
                             tok);
                free(copy);
                return -1;
            }
            opt->api_fault_rate[kind] = rate;
        }
        free(copy);
        double total = 0;
        for (int k = 1; k < MOCK_API_FAULT_COUNT; k++) total += opt->api_fault_rate[k];
        if (total > 1.0 + 1e-9) {
            snprintf(err, err_size, "the API fault rates add up to %.3f, more than 1", total);
            return -1;
        }
    } else if (!strcmp(name, "slow-headers-ms")) {
        long n = strtol(value, &end, 10);
        if (*end || n < 0) {
            snprintf(err, err_size, "--slow-headers-ms wants a number, got \"%s\"", value);
            return -1;
        }
        opt->slow_headers_ms = n;
    } else if (!strcmp(name, "split")) {
        if (!strcmp(value, "random"))
            opt->split = MOCK_SPLIT_RANDOM;
        else if (!strcmp(value, "line"))
            opt->split = MOCK_SPLIT_LINE;
        else {
            snprintf(err, err_size, "--split wants random or line, got \"%s\"", value);
            return -1;
        }
    } else if (!strcmp(name, "model")) {
        snprintf(opt->model, sizeof opt->model, "%s", value);
    } else if (!strcmp(name, "session-ttl")) {
        double t = strtod(value, &end);
        if (*end || !(t > 0)) {
            snprintf(err, err_size, "--session-ttl wants seconds > 0, got \"%s\"", value);
            return -1;
        }
        opt->session_ttl_s = t;
    } else if (!strcmp(name, "session-header")) {
        if (!*value || strlen(value) >= sizeof opt->session_header || strchr(value, ':')) {
            snprintf(err, err_size, "--session-header wants a header name, got \"%s\"", value);
            return -1;
        }
        snprintf(opt->session_header, sizeof opt->session_header, "%s", value);
    } else if (!strcmp(name, "ground-truth")) {
        free(opt->ground_truth);
        opt->ground_truth = strdup(value);
    } else if (!strcmp(name, "role")) {
        if (!*explicit_roles) {
            for (size_t i = 0; i < opt->role_count; i++) {
                free(opt->roles[i].name);
                free(opt->roles[i].trust);
            }
            opt->role_count = 0;
            *explicit_roles = 1;
        }
        char *copy = strdup(value), *save = NULL;
        if (!copy) abort();
        for (char *tok = strtok_r(copy, ", ", &save); tok; tok = strtok_r(NULL, ", ", &save)) {
            char *colon = strchr(tok, ':');
            if (colon) *colon = '\0';
            size_t n = strlen(tok);
            if (opt->role_count == MOCK_MAX_NAMES || n == 0 || n > 64 ||
                strspn(tok,
                       "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789+=,.@_-") !=
                    n ||
                (colon && !colon[1])) {
                snprintf(err, err_size,
                         "--role wants NAME[:PRINCIPAL] (NAME 1-64 of [A-Za-z0-9+=,.@_-]), got "
                         "\"%s\"",
                         value);
                free(copy);
                return -1;
            }
            const char *trust = colon ? colon + 1 : "sagemaker.amazonaws.com";
            if (!strcmp(trust, "none")) trust = "";
            opt->roles[opt->role_count].name = strdup(tok);
            opt->roles[opt->role_count].trust = strdup(trust);
            opt->role_count++;
        }
        free(copy);
    } else if (!strcmp(name, "deny")) {
        size_t n = strlen(value);
        const char *colon = strchr(value, ':');
        if (opt->denied_count == MOCK_MAX_NAMES || !colon || colon == value || !colon[1] ||
            n > 128 ||
            strspn(value, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789:-") !=
                n) {
            snprintf(err, err_size,
                     "--deny wants an IAM action such as sagemaker:InvokeEndpoint, got \"%s\"",
                     value);
            return -1;
        }
        opt->denied[opt->denied_count] = strdup(value);
        if (!opt->denied[opt->denied_count]) abort();
        opt->denied_count++;
    } else if (!strcmp(name, "autoscaling")) {
        char nm[128];
        long lo, hi;
        int used = 0;
        if (opt->scaling_count == MOCK_MAX_NAMES ||
            sscanf(value, "%127[^:]:%ld:%ld%n", nm, &lo, &hi, &used) != 3 || value[used] ||
            !mock_name_valid(nm, 63) || lo < 0 || hi < lo) {
            snprintf(err, err_size,
                     "--autoscaling wants NAME:MIN:MAX with 0 <= MIN <= MAX, got \"%s\"", value);
            return -1;
        }
        opt->scaling[opt->scaling_count].name = strdup(nm);
        opt->scaling[opt->scaling_count].min = lo;
        opt->scaling[opt->scaling_count].max = hi;
        opt->scaling_count++;
    } else if (!strcmp(name, "max-concurrency")) {
        if (long_in(name, value, 0, 1000000, &opt->max_concurrency, err, err_size) != 0) return -1;
    } else if (!strcmp(name, "prefix-cache")) {
        if (long_in(name, value, 0, 100000000, &opt->prefix_cache_blocks, err, err_size) != 0)
            return -1;
    } else if (!strcmp(name, "prefix-block-tokens")) {
        if (long_in(name, value, 1, 65536, &opt->prefix_block_tokens, err, err_size) != 0)
            return -1;
    } else if (!strcmp(name, "prefill-ms-per-token")) {
        double d = strtod(value, &end);
        if (end == value || *end || !(d >= 0) || d > 1000) {
            snprintf(err, err_size, "--prefill-ms-per-token wants 0-1000 ms, got \"%s\"", value);
            return -1;
        }
        opt->prefill_ms_per_token = d;
    } else if (!strcmp(name, "sharegpt-file")) {
        free(opt->sharegpt_file);
        opt->sharegpt_file = strdup(value);
    } else if (!strcmp(name, "state-dir")) {
        free(opt->state_dir);
        opt->state_dir = strdup(value);
    } else if (!strcmp(name, "job-duration-s")) {
        double d = strtod(value, &end);
        if (*end || d < 0) {
            snprintf(err, err_size, "--job-duration-s wants seconds, got \"%s\"", value);
            return -1;
        }
        opt->job_duration_s = d;
    } else if (!strcmp(name, "seed")) {
        opt->seed = strtoull(value, &end, 10);
        if (*end) {
            snprintf(err, err_size, "--seed wants a number, got \"%s\"", value);
            return -1;
        }
    } else {
        snprintf(err, err_size, "unknown option \"%s\"", name);
        return -1;
    }
    return 0;
}

typedef struct mock_ini_ctx {
    mock_options *opt;
    int *explicit_endpoints;
    int *explicit_roles;
    char *err;
    size_t err_size;
    const char *path;
    int failed;
} mock_ini_ctx;

static int mock_ini_handler(void *user, const char *section, const char *name, const char *value) {
    mock_ini_ctx *ctx = user;
    if (ctx->failed || strcmp(section, "mock") != 0) return 1;
    const mock_flag *f = find_flag(name);
    if (!f || !strcmp(name, "config") || !strcmp(name, "help") || !strcmp(name, "version")) {
        snprintf(ctx->err, ctx->err_size, "%s: unknown key \"%s\" in [mock]", ctx->path, name);
        ctx->failed = 1;
        return 0;
    }
    char inner[512];
    if (apply(ctx->opt, name, value, ctx->explicit_endpoints, ctx->explicit_roles, inner,
              sizeof inner) != 0) {
        snprintf(ctx->err, ctx->err_size, "%s: [mock] %s: %s", ctx->path, name, inner);
        ctx->failed = 1;
        return 0;
    }
    return 1;
}

int mock_options_parse(mock_options *opt, int argc, char **argv, char *err, size_t err_size) {
    memset(opt, 0, sizeof *opt);
    snprintf(opt->host, sizeof opt->host, "127.0.0.1");
    opt->port = 8080;
    snprintf(opt->access_key_id, sizeof opt->access_key_id, MOCK_DEFAULT_ACCESS_KEY_ID);
    snprintf(opt->secret_access_key, sizeof opt->secret_access_key, MOCK_DEFAULT_SECRET_ACCESS_KEY);
    /* A parent can hand the secret over in the environment, where other users cannot
     * read it (a command line is visible to everyone in ps). --secret-access-key wins. */
    const char *env_secret = getenv("SMFW_MOCK_SECRET_ACCESS_KEY");
    if (env_secret && *env_secret)
        snprintf(opt->secret_access_key, sizeof opt->secret_access_key, "%s", env_secret);
    snprintf(opt->account_id, sizeof opt->account_id, MOCK_DEFAULT_ACCOUNT_ID);
    snprintf(opt->region, sizeof opt->region, MOCK_DEFAULT_REGION);
    snprintf(opt->model, sizeof opt->model, "mock-model");
    opt->endpoints[opt->endpoint_count++] = strdup(MOCK_DEFAULT_ENDPOINT);
    opt->ttft.mean_ms = 20;
    opt->itl.mean_ms = 5;
    opt->slow_headers_ms = 1000;
    opt->session_ttl_s = 1200;
    opt->seed = 1;
    opt->prefix_block_tokens = 16;
    opt->job_duration_s = 0;
    int explicit_endpoints = 0, explicit_roles = 0;
    opt->roles[0].name = strdup("SageMakerExecutionRole");
    opt->roles[0].trust = strdup("sagemaker.amazonaws.com");
    opt->role_count = 1;

    /* Long options: "--name value", "--name=value", booleans without a value. */
    const char *config = NULL;
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--config") && i + 1 < argc) config = argv[i + 1];
        if (!strncmp(argv[i], "--config=", 9)) config = argv[i] + 9;
    }
    if (config) {
        mock_ini_ctx ctx = {opt, &explicit_endpoints, &explicit_roles, err, err_size, config, 0};
        int rc = ini_parse(config, mock_ini_handler, &ctx);
        if (ctx.failed) return -1;
        if (rc < 0) {
            snprintf(err, err_size, "cannot read config file %s", config);
            return -1;
        }
        if (rc > 0) {
            snprintf(err, err_size, "%s:%d: syntax error", config, rc);
            return -1;
        }
    }
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        if (!strcmp(a, "-h") || !strcmp(a, "--help")) return 1;
        if (!strcmp(a, "--version")) return 2;
        if (!strcmp(a, "-v")) {
            opt->verbose = 1;
            continue;
        }
        if (strncmp(a, "--", 2) != 0) {
            snprintf(err, err_size, "unexpected argument \"%s\" (see --help)", a);
            return -1;
        }
        char name[64];
        const char *eq = strchr(a + 2, '=');
        size_t nlen = eq ? (size_t)(eq - a - 2) : strlen(a + 2);
        if (nlen >= sizeof name) nlen = sizeof name - 1;
        memcpy(name, a + 2, nlen);
        name[nlen] = '\0';
        const mock_flag *f = find_flag(name);
        if (!f) {
            snprintf(err, err_size, "unknown option \"--%s\" (see --help)", name);
            return -1;
        }
        const char *value;
        if (!f->arg) {
            value = eq ? eq + 1 : "true";
        } else if (eq) {
            value = eq + 1;
        } else if (i + 1 < argc) {
            value = argv[++i];
        } else {
            snprintf(err, err_size, "--%s needs a value (%s)", name, f->arg);
            return -1;
        }
        if (!strcmp(name, "config")) continue;
        if (apply(opt, name, value, &explicit_endpoints, &explicit_roles, err, err_size) != 0)
            return -1;
    }
    if (opt->component_count && opt->endpoint_count == 0) {
        snprintf(err, err_size, "inference components need an endpoint");
        return -1;
    }
    if (mock_capture_config_check(opt->capture, err, err_size) != 0) return -1;
    for (size_t i = 0; i < opt->scaling_count; i++) {
        if (!mock_has_endpoint(opt, opt->scaling[i].name) &&
            !mock_has_component(opt, opt->scaling[i].name)) {
            snprintf(err, err_size,
                     "--autoscaling %s: no endpoint or inference component of that name",
                     opt->scaling[i].name);
            return -1;
        }
    }
    return 0;
}

void mock_options_free(mock_options *opt) {
    for (size_t i = 0; i < opt->endpoint_count; i++) free(opt->endpoints[i]);
    for (size_t i = 0; i < opt->component_count; i++) {
        free(opt->components[i]);
        free(opt->component_endpoints[i]);
    }
    free(opt->ground_truth);
    mock_capture_config_free(opt->capture);
    free(opt->state_dir);
    free(opt->sharegpt_file);
    for (size_t i = 0; i < opt->role_count; i++) {
        free(opt->roles[i].name);
        free(opt->roles[i].trust);
    }
    for (size_t i = 0; i < opt->scaling_count; i++) free(opt->scaling[i].name);
    for (size_t i = 0; i < opt->denied_count; i++) free(opt->denied[i]);
    memset(opt, 0, sizeof *opt);
}

int mock_has_endpoint(const mock_options *opt, const char *name) {
    for (size_t i = 0; i < opt->endpoint_count; i++)
        if (!strcmp(opt->endpoints[i], name)) return 1;
    return 0;
}

int mock_has_component(const mock_options *opt, const char *name) {
    for (size_t i = 0; i < opt->component_count; i++)
        if (!strcmp(opt->components[i], name)) return 1;
    return 0;
}

const char *mock_component_endpoint(const mock_options *opt, const char *component) {
    for (size_t i = 0; i < opt->component_count; i++)
        if (!strcmp(opt->components[i], component)) return opt->component_endpoints[i];
    return NULL;
}

int mock_endpoint_has_components(const mock_options *opt, const char *endpoint) {
    for (size_t i = 0; i < opt->component_count; i++)
        if (!strcmp(opt->component_endpoints[i], endpoint)) return 1;
    return 0;
}
