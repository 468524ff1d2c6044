/*
 * cmd_launch.c - `smfw launch slurm|kubernetes|batch [run options] --shards N`: print (or submit)
 * the job engine's own definition of N shards of one run that start together (see launch.h and
 * docs/scaling.md). The run options are passed through verbatim to every shard's `smfw run`.
 */
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <smfw/log.h>

#include "commands.h"
#include "launch.h"

extern const smfw_command smfw_command_launch;

typedef enum launch_engine { ENGINE_SLURM, ENGINE_KUBERNETES, ENGINE_BATCH } launch_engine;

typedef struct launch_flag {
    const char *name; /* long name; "o" is -o */
    const char **dest;
} launch_flag;

static int usage_error(void) {
    return smfw_status_exit_code(SMFW_ERR_USAGE);
}

/* A positive integer option, or a sentence naming it. */
static int parse_count(const char *flag, const char *v, unsigned max, unsigned *out) {
    char *end = NULL;
    errno = 0;
    unsigned long n = v ? strtoul(v, &end, 10) : 0;
    if (!v || !isdigit((unsigned char)*v) || errno || *end || n < 1 || n > max) {
        smfw_log(SMFW_LOG_ERROR, NULL, "--%s \"%s\": expected a whole number from 1 to %u", flag,
                 v ? v : "", max);
        return -1;
    }
    *out = (unsigned)n;
    return 0;
}

/* MiB from "2048", "2048Mi", "2Gi", "2G". */
static int parse_memory(const char *v, unsigned *mib) {
    char *end = NULL;
    unsigned long n = v && isdigit((unsigned char)*v) ? strtoul(v, &end, 10) : 0;
    unsigned long mult = 0;
    if (end && (!*end || !strcmp(end, "Mi") || !strcmp(end, "M")))
        mult = 1;
    else if (end && (!strcmp(end, "Gi") || !strcmp(end, "G")))
        mult = 1024;
    if (!n || !mult || n * mult > 16u * 1024 * 1024) {
        smfw_log(SMFW_LOG_ERROR, NULL,
                 "--memory \"%s\": expected MiB per shard such as 2048, 2048Mi or 2Gi", v ? v : "");
        return -1;
    }
    *mib = (unsigned)(n * mult);
    return 0;
}

/* A DNS-1123 label: Kubernetes Job and Batch names alike, and safe in a shell comment. */
static int valid_name(const char *s) {
    size_t n = strlen(s);
    if (n < 1 || n > 52 || !isalnum((unsigned char)s[0]) || !isalnum((unsigned char)s[n - 1]))
        return 0;
    for (size_t i = 0; i < n; i++)
        if (!(islower((unsigned char)s[i]) || isdigit((unsigned char)s[i]) || s[i] == '-'))
            return 0;
    return 1;
}

/* --start-at as one absolute RFC 3339 UTC moment for every shard ("+60s" counts from now). */
static int resolve_start(const char *v, char *out, size_t size) {
    if (v[0] == '+') {
        double s = 0;
        if (smfw_parse_duration(v + 1, &s) != 0 || s < 0) goto bad;
        struct timespec now;
        clock_gettime(CLOCK_REALTIME, &now);
        int64_t ns = (int64_t)now.tv_sec * 1000000000LL + now.tv_nsec + (int64_t)(s * 1e9);
        time_t t = (time_t)(ns / 1000000000LL);
        struct tm tm;
        gmtime_r(&t, &tm);
        size_t n = strftime(out, size, "%Y-%m-%dT%H:%M:%S", &tm);
        snprintf(out + n, size - n, ".%03dZ", (int)(ns % 1000000000LL / 1000000));
        return 0;
    }
    struct tm tm;
    memset(&tm, 0, sizeof tm);
    const char *rest = strptime(v, "%Y-%m-%dT%H:%M:%S", &tm);
    if (!rest) goto bad;
    if (*rest == '.')
        for (rest++; isdigit((unsigned char)*rest); rest++) {
        }
    if (strcmp(rest, "Z") != 0 && strcmp(rest, "+00:00") != 0) goto bad;
    snprintf(out, size, "%s", v);
    return 0;
bad:
    smfw_log(SMFW_LOG_ERROR, NULL,
             "--start-at \"%s\": expected an RFC 3339 UTC time such as 2026-12-01T22:30:00Z or a "
             "delay such as +60s (counted from now: submit at once)",
             v);
    return -1;
}

/* A run option that would write a secret into the job definition, where anyone who can read
 * the job (squeue, kubectl get, DescribeJobDefinitions) sees it. */
static int is_secret_flag(const char *a) {
    if (strncmp(a, "--", 2) != 0) return 0;
    char name[128];
    size_t n = strcspn(a + 2, "=");
    if (n >= sizeof name) return 0;
    memcpy(name, a + 2, n);
    name[n] = '\0';
    return strcmp(name, "api-key") == 0 || strstr(name, "secret") || strstr(name, "password") ||
           strstr(name, "session-token");
}

static int flag_is(const char *a, const char *name, const char **inline_value) {
    size_t n = strlen(name);
    *inline_value = NULL;
    if (strcmp(name, "o") == 0) return strcmp(a, "-o") == 0 ? 1 : 0;
    if (strncmp(a, "--", 2) != 0 || strncmp(a + 2, name, n) != 0) return 0;
    if (a[2 + n] == '\0') return 1;
    if (a[2 + n] == '=') {
        *inline_value = a + 3 + n;
        return 1;
    }
    return 0;
}

static const char *find_on_path(const char *tool, char *buf, size_t size) {
    const char *path = getenv("PATH");
    while (path && *path) {
        size_t n = strcspn(path, ":");
        snprintf(buf, size, "%.*s/%s", (int)n, path, tool);
        if (n && access(buf, X_OK) == 0) return buf;
        path += n + (path[n] == ':');
    }
    return NULL;
}

/* Feed the definition to the engine's own tool (the command line is fixed, no user data). */
static int submit(const char *tool, const char *command, const char *text) {
    char where[4096];
    if (!find_on_path(tool, where, sizeof where)) {
        smfw_log(SMFW_LOG_ERROR, NULL,
                 "--submit: %s is not on PATH; run without --submit to print the definition and "
                 "submit it where %s is installed",
                 tool, tool);
        return smfw_status_exit_code(SMFW_ERR_NOT_FOUND);
    }
    fflush(stdout);
    FILE *f = popen(command, "w");
    if (!f) {
        smfw_log(SMFW_LOG_ERROR, NULL, "--submit: cannot run %s: %s", command, strerror(errno));
        return smfw_status_exit_code(SMFW_ERR_IO);
    }
    fputs(text, f);
    int st = pclose(f);
    if (st == -1 || !WIFEXITED(st) || WEXITSTATUS(st) != 0) {
        smfw_log(SMFW_LOG_ERROR, NULL, "--submit: %s failed (its message is above)", command);
        return smfw_status_exit_code(SMFW_ERR_CONFIG);
    }
    return 0;
}

static int launch_main(int argc, char **argv) {
    if (argc < 2 || !strcmp(argv[1], "-h") || !strcmp(argv[1], "--help")) {
        fprintf(argc < 2 ? stderr : stdout, "%s\n", smfw_command_launch.usage);
        return argc < 2 ? usage_error() : 0;
    }
    launch_engine engine;
    if (!strcmp(argv[1], "slurm"))
        engine = ENGINE_SLURM;
    else if (!strcmp(argv[1], "kubernetes") || !strcmp(argv[1], "k8s"))
        engine = ENGINE_KUBERNETES;
    else if (!strcmp(argv[1], "batch"))
        engine = ENGINE_BATCH;
    else {
        smfw_log(SMFW_LOG_ERROR, NULL,
                 "smfw launch \"%s\": expected slurm, kubernetes or batch (see `smfw launch "
                 "--help`)",
                 argv[1]);
        return usage_error();
    }
    const char *shards_s = NULL, *start_s = "+60s", *name = NULL, *image = NULL, *output = NULL;
    const char *program = "smfw", *cpus_s = "2", *memory_s = "2048", *ns = NULL;
    const char *sa = "smfw", *key_secret = NULL, *queue = NULL, *role = NULL, *exec_role = NULL;
    const launch_flag flags[] = {
        {"shards", &shards_s}, {"start-at", &start_s},   {"name", &name},
        {"image", &image},     {"output", &output},      {"o", &output},
        {"program", &program}, {"cpus", &cpus_s},        {"memory", &memory_s},
        {"namespace", &ns},    {"service-account", &sa}, {"api-key-secret", &key_secret},
        {"job-queue", &queue}, {"job-role-arn", &role},  {"execution-role-arn", &exec_role}};
    int do_submit = 0;
    const char **run_args = calloc((size_t)argc, sizeof *run_args);
    size_t n_run = 0;
    if (!run_args) return smfw_status_exit_code(SMFW_ERR_NOMEM);
    int rc = usage_error();
    for (int i = 2; i < argc; i++) {
        const char *a = argv[i], *v = NULL;
        if (!strcmp(a, "--submit")) {
            do_submit = 1;
            continue;
        }
        if (!strcmp(a, "-h") || !strcmp(a, "--help")) {
            printf("%s\n", smfw_command_launch.usage);
            rc = 0;
            goto done;
        }
        size_t k = 0;
        while (k < sizeof flags / sizeof flags[0] && !flag_is(a, flags[k].name, &v)) k++;
        if (k < sizeof flags / sizeof flags[0]) {
            if (!v && i + 1 >= argc) {
                smfw_log(SMFW_LOG_ERROR, NULL, "%s wants a value (see `smfw launch --help`)", a);
                goto done;
            }
            *flags[k].dest = v ? v : argv[++i];
            continue;
        }
        const char *iv;
        if (flag_is(a, "shard", &iv)) {
            smfw_log(SMFW_LOG_ERROR, NULL,
                     "smfw launch sets each shard's --shard itself: give --shards N instead of %s",
                     a);
            goto done;
        }
        if (is_secret_flag(a)) {
            smfw_log(SMFW_LOG_ERROR, NULL,
                     "smfw launch: %s would be written into the job definition, readable by "
                     "anyone who can list jobs; the shards read OPENAI_API_KEY (and AWS "
                     "credentials) from their environment: export it for Slurm, or give "
                     "--api-key-secret NAME (a Kubernetes Secret with key OPENAI_API_KEY, a "
                     "Batch secret ARN)",
                     a);
            goto done;
        }
        run_args[n_run++] = a;
    }
    launch_plan p;
    memset(&p, 0, sizeof p);
    if (!shards_s) {
        smfw_log(SMFW_LOG_ERROR, NULL, "smfw launch wants --shards N (see `smfw launch --help`)");
        goto done;
    }
    if (parse_count("shards", shards_s, 100000, &p.shards) ||
        parse_count("cpus", cpus_s, 4096, &p.cpus) || parse_memory(memory_s, &p.memory_mib))
        goto done;
    if (engine == ENGINE_BATCH && p.shards < 2) {
        smfw_log(SMFW_LOG_ERROR, NULL,
                 "--shards 1: an AWS Batch array job has 2 to 10000 children; run one shard with "
                 "a plain `smfw run`, or give --shards 2 or more");
        goto done;
    }
    if (engine == ENGINE_BATCH && p.shards > 10000) {
        smfw_log(SMFW_LOG_ERROR, NULL,
                 "--shards %u: an AWS Batch array job has at most 10000 "
                 "children",
                 p.shards);
        goto done;
    }
    /* Pods and Batch children get one argument list: an S3 folder ends in '/', so each shard
     * writes to its own shard-I under it (smfw_results_s3_mirror_start), as the Slurm script's
     * tasks do. */
    char s3_folder[2048];
    if (engine != ENGINE_SLURM && output && strncmp(output, "s3://", 5) == 0) {
        size_t len = strlen(output);
        while (len > 5 && output[len - 1] == '/') len--;
        if ((size_t)snprintf(s3_folder, sizeof s3_folder, "%.*s/", (int)len, output) >=
            sizeof s3_folder) {
            smfw_log(SMFW_LOG_ERROR, NULL, "-o %s: too long", output);
            goto done;
        }
        output = s3_folder;
    }
    if (engine == ENGINE_BATCH && do_submit && !queue) {
        smfw_log(SMFW_LOG_ERROR, NULL,
                 "--submit: name the AWS Batch job queue with --job-queue NAME (the queue and its "
                 "compute environment must exist; `aws batch describe-job-queues` lists them)");
        goto done;
    }
    if (engine == ENGINE_BATCH && do_submit && !image)
        smfw_log(SMFW_LOG_WARN, NULL,
                 "--submit without --image: the children run the image smfw:%s, which the "
                 "compute environment must be able to pull (push the image of the Dockerfile to "
                 "ECR and give --image URI)",
                 smfw_version());
    char start[64], default_name[64], default_image[64], default_out[128];
    if (resolve_start(start_s, start, sizeof start)) goto done;
    if (!name) {
        time_t t = time(NULL);
        struct tm tm;
        gmtime_r(&t, &tm);
        strftime(default_name, sizeof default_name, "smfw-%Y%m%d-%H%M%S", &tm);
        name = default_name;
    }
    if (!valid_name(name)) {
        smfw_log(SMFW_LOG_ERROR, NULL,
                 "--name \"%s\": expected 1 to 52 lowercase letters, digits and '-', starting and "
                 "ending with a letter or digit (a Kubernetes Job and Batch job name)",
                 name);
        goto done;
    }
    snprintf(default_image, sizeof default_image, "smfw:%s", smfw_version());
    snprintf(default_out, sizeof default_out, "smfw-results/%s", name);
    p.name = name;
    p.start_at = start;
    p.run_args = run_args;
    p.n_run_args = n_run;
    p.output = output ? output : default_out;
    p.program = program;
    p.image = image ? image : default_image;
    p.namespace_ = ns;
    p.service_account = sa;
    p.api_key_secret = key_secret;
    p.job_queue = queue ? queue : "smfw";
    p.job_role_arn = role;
    p.execution_role_arn = exec_role;

    char *text = NULL;
    if (engine == ENGINE_SLURM) {
        text = launch_slurm_script(&p);
    } else {
        json_t *doc =
            engine == ENGINE_KUBERNETES ? launch_kubernetes_job(&p) : launch_batch_requests(&p);
        text = doc ? json_dumps(doc, JSON_INDENT(2) | JSON_PRESERVE_ORDER) : NULL;
        json_decref(doc);
    }
    if (!text) {
        rc = smfw_status_exit_code(SMFW_ERR_NOMEM);
        goto done;
    }
    if (!do_submit) {
        fputs(text, stdout);
        if (engine != ENGINE_SLURM) fputc('\n', stdout);
        rc = 0;
    } else if (engine == ENGINE_SLURM) {
        rc = submit("sbatch", "sbatch", text);
    } else if (engine == ENGINE_KUBERNETES) {
        rc = submit("kubectl", "kubectl apply -f -", text);
    } else {
        rc = launch_batch_submit(run_args, n_run, text);
    }
    free(text);
done:
    free(run_args);
    return rc;
}

const smfw_command smfw_command_launch = {
    "launch", "one run's N shards as a Slurm array, Kubernetes Indexed Job or AWS Batch array",
    "Usage: smfw launch slurm|kubernetes|batch [run options] --shards N [--start-at TIME]\n"
    "                   [--name NAME] [-o DIR] [--cpus N] [--memory MIB] [--submit]\n"
    "       slurm:      [--program PATH]\n"
    "       kubernetes: [--image IMG] [--namespace NS] [--service-account NAME]\n"
    "                   [--api-key-secret SECRET]\n"
    "       batch:      [--image IMG] [--job-queue NAME] [--job-role-arn ARN]\n"
    "                   [--execution-role-arn ARN] [--api-key-secret ARN]\n\n"
    "Prints the job engine's own definition of N shards (`smfw run --shard I/N`) of one run:\n"
    "an sbatch script with a job array (task I = shard I), a batch/v1 Indexed Job\n"
    "(JOB_COMPLETION_INDEX + 1 = shard, one pod per node), or an AWS Batch RegisterJobDefinition\n"
    "and SubmitJob request (AWS_BATCH_JOB_ARRAY_INDEX + 1 = shard; N >= 2). Every shard waits for\n"
    "the same --start-at moment (default +60s, counted from now and written as a UTC time).\n"
    "The run options are passed to each shard's `smfw run` unchanged (quoted for the shell in\n"
    "the Slurm script, an argument array otherwise); secrets are refused: the shards read\n"
    "OPENAI_API_KEY and AWS credentials from their environment (--api-key-secret names a\n"
    "Kubernetes Secret or a Batch secret ARN). Each shard writes -o DIR (Slurm: DIR/shard-I;\n"
    "default smfw-results/NAME). --submit pipes it to `sbatch` or `kubectl apply -f -`, or for\n"
    "batch registers the definition and submits the job (`smfw batch-submit`, with the run\n"
    "options' --region, --profile and --endpoint-url; --job-queue is then required).\n"
    "Merge the shards' folders with `smfw merge`. See docs/scaling.md.",
    launch_main};
