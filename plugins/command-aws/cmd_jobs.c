/*
 * cmd_jobs.c - `smfw jobs list|show|stop|delete`: SageMaker's AI benchmark jobs, AI
 * recommendation jobs and AI workload configs, as the service model names them
 * (List/Describe/Stop/Delete AIBenchmarkJob(s), AIRecommendationJob(s), AIWorkloadConfig(s)).
 * A listing goes page by page through smfw_aws_json_pages, the loop `smfw results` finds the
 * newest job with; everything the service says is shown escaped (smfw/untrusted.h).
 */
#include <jansson.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>

#include <smfw/aws.h>
#include <smfw/clock.h>
#include <smfw/command.h>
#include <smfw/log.h>
#include <smfw/untrusted.h>

#include "aws_commands.h"

/* One kind of thing the command manages, with its operations and member names. */
typedef struct job_kind {
    const char *name, *noun, *plural;
    const char *list_op, *list_key, *name_key, *status_key;
    const char *describe_op, *stop_op, *delete_op;
} job_kind;

static const job_kind job_kinds[] = {
    {"benchmark", "benchmark job", "benchmark jobs", "ListAIBenchmarkJobs", "AIBenchmarkJobs",
     "AIBenchmarkJobName", "AIBenchmarkJobStatus", "DescribeAIBenchmarkJob", "StopAIBenchmarkJob",
     "DeleteAIBenchmarkJob"},
    {"recommendation", "recommendation job", "recommendation jobs", "ListAIRecommendationJobs",
     "AIRecommendationJobs", "AIRecommendationJobName", "AIRecommendationJobStatus",
     "DescribeAIRecommendationJob", "StopAIRecommendationJob", "DeleteAIRecommendationJob"},
    {"config", "workload config", "workload configs", "ListAIWorkloadConfigs", "AIWorkloadConfigs",
     "AIWorkloadConfigName", NULL, "DescribeAIWorkloadConfig", NULL, "DeleteAIWorkloadConfig"},
};

/* The service model's StatusEquals values. */
static const char *const job_statuses[] = {"InProgress", "Completed", "Failed", "Stopping",
                                           "Stopped"};

#define JOBS_DEFAULT_ITEMS 20

typedef struct jobs_args {
    const job_kind *kind;
    const char *status, *name_contains, *sort_by, *sort_order;
    int64_t created_after_s, created_before_s; /* INT64_MIN = not given */
    long max_items;                            /* 0 = every one (--all) */
    long page_size;
    int json;
} jobs_args;

/* A usage error (exit 1), logged. */
static int usage_error(const char *fmt, ...) SMFW_PRINTF(1, 2);
static int usage_error(const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    smfw_logv(SMFW_LOG_ERROR, NULL, fmt, ap);
    va_end(ap);
    return 1;
}

static int parse_count(const char *flag, const char *v, long lo, long hi, long *out) {
    char *end = NULL;
    long n = v ? strtol(v, &end, 10) : 0;
    if (!v || !*v || *end || n < lo || n > hi) {
        smfw_log(SMFW_LOG_ERROR, NULL, "--%s wants a whole number from %ld to %ld, not \"%s\"",
                 flag, lo, hi, v ? v : "");
        return 1;
    }
    *out = n;
    return 0;
}

/* RFC 3339 (a zone optional: UTC) or a plain date, into Unix seconds. */
static int parse_time(const char *flag, const char *v, int64_t *out) {
    char buf[64];
    int64_t ns;
    if (v && strlen(v) == 10 && v[4] == '-' && v[7] == '-') {
        snprintf(buf, sizeof buf, "%sT00:00:00Z", v);
        v = buf;
    }
    if (!v || smfw_time_parse_rfc3339(v, SMFW_TIME_ZONE_OPTIONAL, &ns) != 0) {
        smfw_log(SMFW_LOG_ERROR, NULL,
                 "--%s wants a date (2026-12-01) or an RFC 3339 time (2026-12-01T09:30:00Z), "
                 "not \"%s\"",
                 flag, v ? v : "");
        return 1;
    }
    *out = ns / 1000000000;
    return 0;
}

/* A SageMaker name for NameContains: [a-zA-Z0-9-]+, at most 63. */
static int name_fragment_valid(const char *s) {
    size_t n = strlen(s);
    if (n == 0 || n > 63) return 0;
    for (; *s; s++)
        if (!((*s >= 'a' && *s <= 'z') || (*s >= 'A' && *s <= 'Z') || (*s >= '0' && *s <= '9') ||
              *s == '-'))
            return 0;
    return 1;
}

static int parse_args(const smfw_command_context *ctx, const char *action, jobs_args *a) {
    memset(a, 0, sizeof *a);
    a->created_after_s = a->created_before_s = INT64_MIN;
    a->max_items = JOBS_DEFAULT_ITEMS;
    a->page_size = 100;
    const char *v = smfw_command_get(ctx, "kind");
    a->kind = &job_kinds[0];
    if (v) {
        a->kind = NULL;
        for (size_t i = 0; i < sizeof job_kinds / sizeof job_kinds[0]; i++)
            if (strcmp(v, job_kinds[i].name) == 0) a->kind = &job_kinds[i];
        if (!a->kind)
            return usage_error("--kind wants benchmark, recommendation or config, not \"%s\"", v);
    }
    if ((v = smfw_command_get(ctx, "format")) != NULL) {
        if (strcmp(v, "json") == 0)
            a->json = 1;
        else if (strcmp(v, "table") != 0)
            return usage_error("--format wants table or json, not \"%s\"", v);
    }
    int listing = strcmp(action, "list") == 0;
    static const char *const list_only[] = {"status",         "name-contains", "created-after",
                                            "created-before", "sort-by",       "sort-order",
                                            "max-items",      "all",           "page-size"};
    for (size_t i = 0; !listing && i < sizeof list_only / sizeof list_only[0]; i++)
        if (smfw_command_get(ctx, list_only[i]))
            return usage_error("--%s goes with `smfw jobs list`, not %s", list_only[i], action);
    if ((v = smfw_command_get(ctx, "status")) != NULL) {
        if (!a->kind->status_key)
            return usage_error("--status: %s have no status (%s)", a->kind->plural, v);
        for (size_t i = 0; i < sizeof job_statuses / sizeof job_statuses[0]; i++)
            if (strcasecmp(v, job_statuses[i]) == 0) a->status = job_statuses[i];
        if (!a->status)
            return usage_error("--status wants InProgress, Completed, Failed, Stopping or "
                               "Stopped, not \"%s\"",
                               v);
    }
    if ((v = smfw_command_get(ctx, "name-contains")) != NULL) {
        if (!name_fragment_valid(v))
            return usage_error("--name-contains wants 1 to 63 of [a-zA-Z0-9-] (SageMaker's "
                               "NameContains), not \"%s\"",
                               v);
        a->name_contains = v;
    }
    if ((v = smfw_command_get(ctx, "created-after")) &&
        parse_time("created-after", v, &a->created_after_s))
        return 1;
    if ((v = smfw_command_get(ctx, "created-before")) &&
        parse_time("created-before", v, &a->created_before_s))
        return 1;
    a->sort_by = "CreationTime";
    if ((v = smfw_command_get(ctx, "sort-by")) != NULL) {
        if (strcmp(v, "name") == 0)
            a->sort_by = "Name";
        else if (strcmp(v, "status") == 0 && a->kind->status_key)
            a->sort_by = "Status";
        else if (strcmp(v, "creation-time") != 0)
            return usage_error("--sort-by wants name, creation-time%s, not \"%s\"",
                               a->kind->status_key ? " or status" : "", v);
    }
    a->sort_order = "Descending";
    if ((v = smfw_command_get(ctx, "sort-order")) != NULL) {
        if (strcmp(v, "ascending") == 0)
            a->sort_order = "Ascending";
        else if (strcmp(v, "descending") != 0)
            return usage_error("--sort-order wants ascending or descending, not \"%s\"", v);
    }
    int all = smfw_command_get(ctx, "all") != NULL;
    if ((v = smfw_command_get(ctx, "max-items")) != NULL) {
        if (all) return usage_error("--all and --max-items: give one of them");
        if (parse_count("max-items", v, 1, 1000000, &a->max_items)) return 1;
    }
    if (all) a->max_items = 0;
    if ((v = smfw_command_get(ctx, "page-size")) &&
        parse_count("page-size", v, 1, 100, &a->page_size))
        return 1;
    return 0;
}

/* CreationTime and the like: awsJson sends Unix seconds. */
static const char *format_time(json_t *v, char *buf, size_t size) {
    if (!json_is_number(v)) {
        snprintf(buf, size, "-");
        return buf;
    }
    time_t t = (time_t)json_number_value(v);
    struct tm tm;
    gmtime_r(&t, &tm);
    strftime(buf, size, "%Y-%m-%dT%H:%M:%SZ", &tm);
    return buf;
}

/* ---- list ------------------------------------------------------------------------ */

typedef struct listing {
    const jobs_args *args;
    json_t *items; /* the summaries, as the service sent them */
    int left;      /* a page had more than --max-items let in */
} listing;

static int listing_page(void *user, json_t *page, smfw_error *err) {
    (void)err;
    listing *l = user;
    size_t i;
    json_t *item;
    json_array_foreach(json_object_get(page, l->args->kind->list_key), i, item) {
        if (l->args->max_items && (long)json_array_size(l->items) >= l->args->max_items) {
            l->left = 1;
            return 1;
        }
        json_array_append(l->items, item);
    }
    return l->args->max_items && (long)json_array_size(l->items) >= l->args->max_items ? 1 : 0;
}

static json_t *list_request(const jobs_args *a) {
    json_t *req = json_pack("{s:i,s:s,s:s}", "MaxResults", (int)a->page_size, "SortBy", a->sort_by,
                            "SortOrder", a->sort_order);
    if (!req) return NULL;
    if (a->name_contains) json_object_set_new(req, "NameContains", json_string(a->name_contains));
    if (a->status) json_object_set_new(req, "StatusEquals", json_string(a->status));
    if (a->created_after_s != INT64_MIN)
        json_object_set_new(req, "CreationTimeAfter", json_integer(a->created_after_s));
    if (a->created_before_s != INT64_MIN)
        json_object_set_new(req, "CreationTimeBefore", json_integer(a->created_before_s));
    return req;
}

/* A table whose columns are as wide as their widest (escaped) cell. */
#define JOBS_COLS 5
static void print_table(FILE *out, const jobs_args *a, json_t *items) {
    const job_kind *k = a->kind;
    int has_status = k->status_key != NULL, has_config = k == &job_kinds[0];
    const char *head[JOBS_COLS] = {"NAME", "STATUS", "CREATED", "ENDED", "WORKLOAD CONFIG"};
    int shown[JOBS_COLS] = {1, has_status, 1, has_status, has_config};
    size_t n = json_array_size(items);
    char(*cells)[JOBS_COLS][256] = calloc(n ? n : 1, sizeof *cells);
    if (!cells) return;
    size_t width[JOBS_COLS];
    for (int c = 0; c < JOBS_COLS; c++) width[c] = strlen(head[c]);
    for (size_t i = 0; i < n; i++) {
        json_t *it = json_array_get(items, i);
        const char *name = json_string_value(json_object_get(it, k->name_key));
        const char *status = has_status ? json_string_value(json_object_get(it, k->status_key)) : 0;
        const char *config = json_string_value(json_object_get(it, "AIWorkloadConfigName"));
        smfw_term_escape(name ? name : "-", cells[i][0], sizeof cells[i][0]);
        smfw_term_escape(status ? status : "-", cells[i][1], sizeof cells[i][1]);
        format_time(json_object_get(it, "CreationTime"), cells[i][2], sizeof cells[i][2]);
        format_time(json_object_get(it, "EndTime"), cells[i][3], sizeof cells[i][3]);
        smfw_term_escape(config ? config : "-", cells[i][4], sizeof cells[i][4]);
        for (int c = 0; c < JOBS_COLS; c++)
            if (strlen(cells[i][c]) > width[c]) width[c] = strlen(cells[i][c]);
    }
    for (size_t row = 0; row <= n; row++) {
        const char *sep = "";
        char line[2048];
        size_t at = 0;
        for (int c = 0; c < JOBS_COLS; c++) {
            if (!shown[c]) continue;
            const char *cell = row == 0 ? head[c] : cells[row - 1][c];
            at += (size_t)snprintf(line + at, sizeof line - at, "%s%-*s", sep, (int)width[c], cell);
            if (at >= sizeof line) at = sizeof line - 1;
            sep = "  ";
        }
        while (at > 0 && line[at - 1] == ' ') line[--at] = '\0';
        fprintf(out, "%s\n", line);
    }
    free(cells);
}

static int cmd_list(const smfw_command_context *ctx, const jobs_args *a, smfw_aws_client *c) {
    listing l = {a, json_array(), 0};
    json_t *req = list_request(a);
    smfw_error err;
    int more = 0;
    smfw_status st = req && l.items ? smfw_aws_json_pages(c, &smfw_aws_sagemaker, a->kind->list_op,
                                                          req, listing_page, &l, &more, &err)
                                    : smfw_error_set(&err, SMFW_ERR_NOMEM, "out of memory");
    json_decref(req);
    more |= l.left;
    int rc = 0;
    if (st != SMFW_OK) {
        rc = aws_command_fail(&err);
    } else if (a->json) {
        json_t *doc = json_pack("{s:O}", a->kind->list_key, l.items);
        json_object_set_new(doc, "Truncated", json_boolean(more));
        char *text = json_dumps(doc, JSON_INDENT(2) | JSON_PRESERVE_ORDER);
        if (text) fprintf(ctx->out, "%s\n", text);
        free(text);
        json_decref(doc);
    } else {
        if (json_array_size(l.items) == 0)
            fprintf(ctx->out, "no %s\n", a->kind->plural);
        else
            print_table(ctx->out, a, l.items);
    }
    if (st == SMFW_OK && more)
        SMFW_LOG_INFO(NULL, "the first %zu %s shown; --all lists every one, --max-items N more",
                      json_array_size(l.items), a->kind->plural);
    json_decref(l.items);
    return rc;
}

/* ---- show, stop, delete ---------------------------------------------------------- */

/* Every member of a Describe answer on its own line, in the service's order. */
static void print_described(FILE *out, json_t *desc) {
    const char *key;
    json_t *v;
    json_object_foreach(desc, key, v) {
        char buf[4096];
        const char *text;
        if (json_is_string(v)) {
            text = json_string_value(v);
        } else if (json_is_number(v) && strstr(key, "Time")) {
            text = format_time(v, buf, sizeof buf);
        } else {
            char *dumped = json_dumps(v, JSON_COMPACT | JSON_PRESERVE_ORDER | JSON_ENCODE_ANY);
            snprintf(buf, sizeof buf, "%s", dumped ? dumped : "?");
            free(dumped);
            text = buf;
        }
        fprintf(out, "%s: ", key);
        smfw_term_write(out, text, 0);
        fputc('\n', out);
    }
}

static int cmd_one(const smfw_command_context *ctx, const jobs_args *a, smfw_aws_client *c,
                   const char *action, const char *name) {
    const job_kind *k = a->kind;
    const char *op = strcmp(action, "show") == 0   ? k->describe_op
                     : strcmp(action, "stop") == 0 ? k->stop_op
                                                   : k->delete_op;
    if (!op) {
        smfw_log(SMFW_LOG_ERROR, NULL,
                 "a %s does not run, so it cannot be stopped (delete it with `smfw jobs delete "
                 "--kind config %s`)",
                 k->noun, name);
        return 1;
    }
    json_t *req = json_pack("{s:s}", k->name_key, name);
    json_t *resp = NULL;
    smfw_error err;
    smfw_status st = req ? smfw_aws_json_call_tree(c, &smfw_aws_sagemaker, op, req, &resp, &err)
                         : smfw_error_set(&err, SMFW_ERR_NOMEM, "out of memory");
    json_decref(req);
    if (st != SMFW_OK) {
        json_decref(resp);
        return aws_command_fail(&err);
    }
    if (a->json) {
        char *text = json_dumps(resp, JSON_INDENT(2) | JSON_PRESERVE_ORDER);
        if (text) fprintf(ctx->out, "%s\n", text);
        free(text);
    } else if (strcmp(action, "show") == 0) {
        print_described(ctx->out, resp);
    } else {
        const char *arn = NULL;
        const char *key;
        json_t *v;
        json_object_foreach(resp, key, v) if (json_is_string(v) && strstr(key, "Arn")) arn =
            json_string_value(v);
        fprintf(ctx->out, "%s %s %s", strcmp(action, "stop") == 0 ? "stopping" : "deleted", k->noun,
                name);
        if (arn) {
            fputs(" (", ctx->out);
            smfw_term_write(ctx->out, arn, 0);
            fputc(')', ctx->out);
        }
        fputc('\n', ctx->out);
    }
    json_decref(resp);
    return 0;
}

static int jobs_main(const smfw_command_context *ctx, int argc, char **argv) {
    const char *action = argc > 1 ? argv[1] : NULL;
    static const char *const actions[] = {"list", "show", "stop", "delete"};
    int known = 0;
    for (size_t i = 0; action && i < 4; i++) known |= strcmp(action, actions[i]) == 0;
    if (!known) {
        smfw_log(SMFW_LOG_ERROR, NULL, "%s%s%s (see `smfw jobs --help`)",
                 action ? "unknown jobs action \""
                        : "name what to do: list, show NAME, stop NAME or "
                          "delete NAME",
                 action ? action : "", action ? "\": list, show, stop or delete" : "");
        return 1;
    }
    jobs_args a;
    if (parse_args(ctx, action, &a) != 0) return 1;
    int listing_cmd = strcmp(action, "list") == 0;
    if (listing_cmd ? argc != 2 : argc != 3) {
        smfw_log(SMFW_LOG_ERROR, NULL, "usage: smfw jobs %s%s [--kind KIND]", action,
                 listing_cmd ? "" : " NAME");
        return 1;
    }
    const char *name = listing_cmd ? NULL : argv[2];
    if (name && !smfw_aws_entity_name_valid(name)) {
        char shown[300];
        smfw_log(SMFW_LOG_ERROR, NULL,
                 "\"%s\" is not a SageMaker name ([a-zA-Z0-9](-*[a-zA-Z0-9]){0,62})",
                 smfw_term_escape(name, shown, sizeof shown));
        return 1;
    }
    smfw_aws_options o;
    smfw_aws_options_from_config(ctx->config, &o);
    smfw_aws_client *c = NULL;
    smfw_error err;
    if (smfw_aws_client_new(&o, &c, &err) != SMFW_OK) return aws_command_fail(&err);
    int rc = listing_cmd ? cmd_list(ctx, &a, c) : cmd_one(ctx, &a, c, action, name);
    smfw_aws_client_free(c);
    return rc;
}

static const smfw_command_option jobs_options[] = {
    {"kind", 1, "KIND", "benchmark (default), recommendation or config (AI workload configs)"},
    {"status", 1, "STATUS", "list: only InProgress, Completed, Failed, Stopping or Stopped"},
    {"name-contains", 1, "TEXT", "list: only names containing TEXT"},
    {"created-after", 1, "TIME", "list: created after TIME (2026-12-01 or RFC 3339)"},
    {"created-before", 1, "TIME", "list: created before TIME"},
    {"sort-by", 1, "KEY", "list: name, creation-time (default) or status"},
    {"sort-order", 1, "ORDER", "list: descending (default: newest first) or ascending"},
    {"max-items", 1, "N", "list: show at most N (default 20)"},
    {"all", 0, NULL, "list: every one, page after page"},
    {"page-size", 1, "N", "list: MaxResults per request, 1-100 (default 100)"},
    {"format", 1, "FMT", "table (default) or json (the service's own members)"},
    SMFW_COMMAND_OPTIONS_END};

const smfw_command_def aws_command_jobs = {
    sizeof(smfw_command_def),
    "jobs",
    "SageMaker AI benchmark jobs, recommendation jobs and workload configs: list, show, stop, "
    "delete",
    "Usage: smfw jobs list [--kind benchmark|recommendation|config] [--status STATUS]\n"
    "                      [--name-contains TEXT] [--created-after TIME] [--created-before TIME]\n"
    "                      [--sort-by KEY] [--sort-order ORDER] [--max-items N | --all]\n"
    "                      [--page-size N] [--format table|json]\n"
    "       smfw jobs show NAME [--kind KIND] [--format table|json]\n"
    "       smfw jobs stop NAME [--kind benchmark|recommendation]\n"
    "       smfw jobs delete NAME [--kind KIND]\n\n"
    "list pages through ListAIBenchmarkJobs (ListAIRecommendationJobs, ListAIWorkloadConfigs)\n"
    "with the filters given, newest first, and prints a table, or with --format json the\n"
    "service's summaries and whether more remained (\"Truncated\"). show prints every member\n"
    "of the Describe answer; stop and delete send StopAI...Job and DeleteAI... and print the\n"
    "ARN the service answers with. A name that is not SageMaker's shape is refused before any\n"
    "request. `smfw results --job NAME` fetches a benchmark job's results. See docs/managed.md.",
    jobs_options,
    jobs_main};
