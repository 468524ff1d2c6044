/*
 * cmd_dataset.c - `smfw dataset validate|curate|show`: check a custom JSONL
 * file, rebuild a real-prompt curated set from a raw ShareGPT download, and
 * look at the first prompts and the statistics of any dataset plugin.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <smfw/dataset_formats.h>
#include <smfw/tokenizer.h>

#include "commands.h"

extern const smfw_command smfw_command_dataset;

typedef struct dataset_opts {
    const char *from;
    const char *out;
    const char *format;
    long long count;
    long long min_output;
    unsigned long long seed;
    long long max_errors;
    long long prompts;
    int bad;
} dataset_opts;

static const smfw_cli_option dataset_options[] = {
    {"from", required_argument, 0, "FILE", "curate: the raw ShareGPT JSON file"},
    {"out", required_argument, 'o', "FILE", "curate: the JSONL file to write"},
    {"count", required_argument, 0, "N", "curate: prompts to keep (500)"},
    {"min-output", required_argument, 0, "N", "curate: drop budgets below N tokens (32)"},
    {"seed", required_argument, 0, "S", "curate: sample seed (0)"},
    {"format", required_argument, 0, "FORMAT",
     "validate: auto, single_turn, multi_turn or mooncake_trace (auto)"},
    {"max-errors", required_argument, 0, "N", "validate: bad lines to list (50)"},
    {"prompts", required_argument, 0, "N", "show: prompts to print (3)"},
};
#define N_DATASET_OPTIONS (sizeof dataset_options / sizeof dataset_options[0])

static int parse_number(const char *name, const char *value, long long min, long long *out) {
    char *end = NULL;
    long long v = strtoll(value ? value : "", &end, 10);
    if (!value || !*value || *end || v < min) {
        fprintf(stderr, "smfw: error: --%s needs a whole number >= %lld, got \"%s\"\n", name, min,
                value ? value : "");
        return -1;
    }
    *out = v;
    return 0;
}

static int on_dataset_option(void *user, const char *name, const char *value) {
    dataset_opts *o = user;
    long long v = 0;
    if (strcmp(name, "from") == 0)
        o->from = value;
    else if (strcmp(name, "out") == 0)
        o->out = value;
    else if (strcmp(name, "format") == 0)
        o->format = value;
    else if (strcmp(name, "count") == 0)
        return parse_number(name, value, 1, &o->count);
    else if (strcmp(name, "min-output") == 0)
        return parse_number(name, value, 1, &o->min_output);
    else if (strcmp(name, "max-errors") == 0)
        return parse_number(name, value, 1, &o->max_errors);
    else if (strcmp(name, "prompts") == 0)
        return parse_number(name, value, 0, &o->prompts);
    else if (strcmp(name, "seed") == 0) {
        if (parse_number(name, value, 0, &v) != 0) return -1;
        o->seed = (unsigned long long)v;
    }
    return 0;
}

static int usage_error(const char *fmt, const char *arg) {
    fprintf(stderr, "smfw: error: ");
    fprintf(stderr, fmt, arg);
    fprintf(stderr, " (see `smfw dataset --help`)\n");
    return 1;
}

static void print_identity(const smfw_dataset_info *info, size_t count) {
    printf("dataset: %s", info->name[0] ? info->name : "?");
    if (info->format[0]) printf(" (%s)", info->format);
    printf(", %zu prompts\n", count);
    if (info->file[0]) printf("file: %s\n", info->file);
    if (info->sha256[0]) printf("sha256: %s\n", info->sha256);
    if (info->token_lengths[0]) printf("token lengths: %s\n", info->token_lengths);
}

/* The statistics table; with --tokenizer SPEC also the exact input tokens (a run's ISL). */
static int print_stats(const smfw_prompt_set *set, const smfw_config *cfg) {
    smfw_dataset_stats stats;
    smfw_error err;
    smfw_error_clear(&err);
    if (smfw_dataset_stats_compute(set, &stats, &err) != SMFW_OK) return smfw_cli_fail(&err);
    const char *spec = smfw_settings_get(smfw_config_section(cfg, "run"), "tokenizer");
    if (spec && *spec) {
        smfw_tokenizer *tok = NULL;
        smfw_error te;
        smfw_error_clear(&te);
        smfw_status st = smfw_tokenizer_new(spec, &tok, &te);
        if (st == SMFW_OK) st = smfw_dataset_stats_count_tokens(set, tok, &stats, &te);
        smfw_tokenizer_free(tok);
        if (st != SMFW_OK) {
            smfw_error_set(&err, te.status == SMFW_ERR_NOT_FOUND ? SMFW_ERR_CONFIG : te.status,
                           "--tokenizer %s: %s", spec, te.message);
            return smfw_cli_fail(&err);
        }
    }
    printf("\n");
    smfw_dataset_stats_print(&stats, stdout);
    return 0;
}

/* A timed source (capture inferenceTime, mooncake_trace timestamps): how many requests, over
 * how long, and how the arrival rate moves (counts per bucket, at most 24 buckets). */
static void print_schedule(const smfw_prompt_set *set) {
    int64_t lo = INT64_MAX, hi = INT64_MIN;
    size_t timed = 0;
    for (size_t i = 0; i < set->count; i++) {
        int64_t t = set->prompts[i].timestamp_ms;
        if (t < 0) continue;
        timed++;
        if (t < lo) lo = t;
        if (t > hi) hi = t;
    }
    if (!timed) return;
    double span_s = (double)(hi - lo) / 1000.0;
    printf("\nschedule: %zu timed requests of %zu over %.3f s", timed, set->count, span_s);
    if (span_s > 0) printf(", %.3f requests/s on average", (double)timed / span_s);
    printf("\n");
    int64_t seconds = (hi - lo) / 1000 + 1;
    int64_t width = (seconds + 23) / 24;
    if (width < 1) width = 1;
    size_t nb = (size_t)((seconds + width - 1) / width);
    size_t *per_s = calloc((size_t)seconds, sizeof *per_s), *bucket = calloc(nb, sizeof *bucket);
    if (!per_s || !bucket) {
        free(per_s);
        free(bucket);
        return;
    }
    for (size_t i = 0; i < set->count; i++) {
        int64_t t = set->prompts[i].timestamp_ms;
        if (t < 0) continue;
        per_s[(t - lo) / 1000]++;
        bucket[(size_t)((t - lo) / 1000 / width)]++;
    }
    size_t busiest = 0, idle = 0;
    for (int64_t k = 0; k < seconds; k++) {
        if (per_s[k] > busiest) busiest = per_s[k];
        if (!per_s[k]) idle++;
    }
    printf("arrival rate: busiest second %zu requests, %zu of %lld seconds idle\n", busiest, idle,
           (long long)seconds);
    printf("profile (requests per %lld s from the first):", (long long)width);
    for (size_t b = 0; b < nb; b++) printf(" %zu", bucket[b]);
    printf("\n");
    free(per_s);
    free(bucket);
}

/* One prompt on a few lines: budget, length and the start of the text (newlines as "\n"). */
static void print_prompt(size_t index, const smfw_prompt *p) {
    printf("\n#%zu  output budget: ", index + 1);
    if (p->output_length > 0)
        printf("%lld", (long long)p->output_length);
    else
        printf("(none)");
    long long tokens = p->input_tokens >= 0 ? (long long)p->input_tokens
                                            : (long long)smfw_estimate_tokens(p->text, p->text_len);
    printf("  input: ~%lld tokens, %zu bytes", tokens, p->text_len);
    if (p->session_id) printf("  session: %s turn %d", p->session_id, (int)p->turn_index);
    if (p->timestamp_ms >= 0) printf("  timestamp: %lld ms", (long long)p->timestamp_ms);
    if (p->delay_ms >= 0) printf("  delay: %lld ms", (long long)p->delay_ms);
    printf("\n    ");
    size_t shown = 0;
    for (size_t i = 0; i < p->text_len && shown < 300; i++, shown++) {
        unsigned char c = (unsigned char)p->text[i];
        if (c == '\n')
            fputs("\\n", stdout);
        else if (c == '\t')
            fputs("\\t", stdout);
        else if (c < 0x20)
            printf("\\x%02x", c);
        else
            putchar(c);
    }
    /* Do not stop inside a UTF-8 sequence. */
    for (size_t i = shown; i < p->text_len && ((unsigned char)p->text[i] & 0xC0) == 0x80; i++)
        putchar(p->text[i]), shown++;
    if (shown < p->text_len) printf(" [...]");
    printf("\n");
}

static int cmd_validate(smfw_cli *cli, dataset_opts *o) {
    if (cli->n_positional != 2) return usage_error("dataset validate takes one FILE%s", "");
    const char *path = cli->positional[1];
    smfw_jsonl_options jo;
    memset(&jo, 0, sizeof jo);
    if (o->format && smfw_dataset_format_parse(o->format, &jo.format) != 0)
        return usage_error("unknown --format \"%s\"", o->format);
    /* input_length lines are checked against the bundled corpus, as a run would. */
    char corpus[4200];
    snprintf(corpus, sizeof corpus, "%s/datasets/synthetic_corpus.txt", smfw_data_dir());
    jo.corpus_path = corpus;
    smfw_prompt_set *set = NULL;
    size_t n_errors = 0;
    smfw_error err;
    smfw_error_clear(&err);
    smfw_status st = smfw_dataset_validate_file(
        path, &jo, (size_t)(o->max_errors ? o->max_errors : 50), stderr, &set, &n_errors, &err);
    if (st != SMFW_OK) return smfw_cli_fail(&err);
    printf("%s: OK, %lld lines\n", path, (long long)set->count);
    print_identity(&set->info, set->count);
    int rc = print_stats(set, cli->cfg);
    smfw_prompt_set_free(set);
    return rc;
}

static int cmd_curate(smfw_cli *cli, dataset_opts *o) {
    if (cli->n_positional != 1) return usage_error("dataset curate takes no FILE argument%s", "");
    if (!o->from) return usage_error("dataset curate needs --from SHAREGPT.json%s", "");
    if (!o->out) return usage_error("dataset curate needs -o OUT.jsonl%s", "");
    smfw_curate_options co = {o->count ? (size_t)o->count : 500, o->min_output ? o->min_output : 32,
                              o->seed};
    smfw_curate_report rep;
    smfw_error err;
    smfw_error_clear(&err);
    smfw_status st = smfw_dataset_curate(o->from, o->out, &co, &rep, &err);
    if (st != SMFW_OK) return smfw_cli_fail(&err);
    printf("%s: %lld conversations, %lld with a human turn and an answer, %lld with budget >= "
           "%lld tokens\n",
           o->from, (long long)rep.conversations, (long long)rep.usable, (long long)rep.eligible,
           (long long)co.min_output);
    printf("wrote %lld prompts to %s\n", (long long)rep.written, o->out);
    if ((size_t)rep.written < co.count)
        fprintf(stderr, "smfw: warning: only %lld prompts were eligible, fewer than --count %zu\n",
                (long long)rep.written, co.count);
    return 0;
}

static int cmd_show(smfw_cli *cli, dataset_opts *o) {
    if (cli->n_positional > 2) return usage_error("dataset show takes at most one NAME%s", "");
    const char *name = cli->n_positional == 2 ? cli->positional[1] : NULL;
    smfw_error err;
    smfw_error_clear(&err);
    /* File order, so "the first prompts" are the first of the source. */
    if (smfw_config_set(cli->cfg, "dataset", "dataset_sampling", "sequential", SMFW_SOURCE_FLAG,
                        "smfw dataset show", 0, &err) != SMFW_OK)
        return smfw_cli_fail(&err);
    smfw_prompt_set *set = NULL;
    if (smfw_dataset_load_configured(cli->reg, cli->cfg, name, 1, &set, &err) != SMFW_OK)
        return smfw_cli_fail(&err);
    print_identity(&set->info, set->count);
    size_t show = o->prompts >= 0 ? (size_t)o->prompts : 3;
    for (size_t i = 0; i < show && i < set->count; i++) print_prompt(i, &set->prompts[i]);
    print_schedule(set);
    int rc = print_stats(set, cli->cfg);
    smfw_prompt_set_free(set);
    return rc;
}

static int dataset_main(int argc, char **argv) {
    dataset_opts o;
    memset(&o, 0, sizeof o);
    o.prompts = -1;
    smfw_cli cli;
    int rc = smfw_cli_setup(&smfw_command_dataset, argc, argv, dataset_options, N_DATASET_OPTIONS,
                            on_dataset_option, &o, 1, &cli);
    if (rc >= 0) {
        smfw_cli_cleanup(&cli);
        return rc;
    }
    const char *sub = cli.n_positional > 0 ? cli.positional[0] : NULL;
    if (!sub)
        rc = usage_error("dataset needs a subcommand: validate, curate or show%s", "");
    else if (strcmp(sub, "validate") == 0)
        rc = cmd_validate(&cli, &o);
    else if (strcmp(sub, "curate") == 0)
        rc = cmd_curate(&cli, &o);
    else if (strcmp(sub, "show") == 0)
        rc = cmd_show(&cli, &o);
    else
        rc = usage_error("unknown dataset subcommand \"%s\"", sub);
    smfw_cli_cleanup(&cli);
    return rc;
}

const smfw_command smfw_command_dataset = {
    "dataset", "validate a JSONL dataset, curate ShareGPT, show a dataset's prompts and stats",
    "Usage: smfw dataset validate FILE [--format FORMAT] [--max-errors N]\n"
    "       smfw dataset curate --from SHAREGPT.json [--count 500] [--min-output 32] [--seed S]\n"
    "                           -o OUT.jsonl\n"
    "       smfw dataset show [NAME] [--prompts N] [dataset options]\n\n"
    "validate reads every line of a custom JSONL file as `--dataset custom` would and lists\n"
    "every bad line with its number and field (exit 1), else prints the length statistics.\n"
    "curate applies the curation rule to a raw ShareGPT download: first human turn, budget =\n"
    "estimated tokens of the answer that follows, budgets below --min-output dropped, a seeded\n"
    "sample of --count prompts kept in feed order.\n"
    "show loads a dataset plugin (default: the configured one, curated) with the current\n"
    "settings and prints its identity, its first prompts and its statistics.",
    dataset_main};
