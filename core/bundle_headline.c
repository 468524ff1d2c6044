/*
 * bundle_headline.c - the headline numbers of one run, as `smfw results`
 * and the managed backend's per-level blocks print them: throughput,
 * per-user throughput, TTFT, ITL, request latency (avg/p50/p90/p99),
 * request throughput, valid/invalid requests, duration and the validity
 * verdict. Numbers are printed with two decimals, straight from the loaded
 * aggregates (no recomputation), so they can be checked against the JSON.
 */
#include <stdio.h>

#include <smfw/archive.h>
#include <smfw/untrusted.h>

static int has_p(const smfw_stats *s, int i) {
    return (s->fields & (SMFW_STAT_P_FIRST << i)) != 0;
}

static void print_dist(FILE *out, const char *label, const smfw_stats *s, const char *unit) {
    if (!s->present) {
        fprintf(out, "  %-28s (not in this run)\n", label);
        return;
    }
    char line[256];
    int o = snprintf(line, sizeof line, "avg %.2f", s->avg);
    static const int idx[] = {4, 6, 8}; /* p50 p90 p99 */
    static const char *names[] = {"p50", "p90", "p99"};
    for (int k = 0; k < 3; k++)
        if (has_p(s, idx[k]) && o < (int)sizeof line)
            o += snprintf(line + o, sizeof line - (size_t)o, "  %s %.2f", names[k], s->p[idx[k]]);
    fprintf(out, "  %-28s %s %s\n", label, line, unit);
}

static void print_single(FILE *out, const char *label, const smfw_stats *s, const char *unit) {
    if (!s->present)
        fprintf(out, "  %-28s (not in this run)\n", label);
    else
        fprintf(out, "  %-28s %.2f %s\n", label, s->avg, unit);
}

int smfw_bundle_print_headline(const smfw_results *r, const char *title, double gate, FILE *out) {
    const smfw_stats *s = r->stats;
    fputc('\n', out);
    smfw_term_write(out, title, 0);
    fputc('\n', out);
    print_single(out, "Output token throughput", &s[SMFW_M_OUTPUT_TOKEN_THROUGHPUT], "tokens/sec");
    print_dist(out, "Per-user output throughput", &s[SMFW_M_OUTPUT_TOKEN_THROUGHPUT_PER_USER],
               "tokens/sec/user");
    print_dist(out, "Time to first token", &s[SMFW_M_TIME_TO_FIRST_TOKEN], "ms");
    print_dist(out, "Inter-token latency", &s[SMFW_M_INTER_TOKEN_LATENCY], "ms");
    print_dist(out, "Request latency", &s[SMFW_M_REQUEST_LATENCY], "ms");
    print_single(out, "Request throughput", &s[SMFW_M_REQUEST_THROUGHPUT], "requests/sec");
    long long valid = s[SMFW_M_REQUEST_COUNT].present ? (long long)s[SMFW_M_REQUEST_COUNT].avg : 0;
    long long invalid =
        s[SMFW_M_ERROR_REQUEST_COUNT].present ? (long long)s[SMFW_M_ERROR_REQUEST_COUNT].avg : 0;
    fprintf(out, "  %-28s valid %lld, invalid %lld\n", "Requests", valid, invalid);
    print_single(out, "Benchmark duration", &s[SMFW_M_BENCHMARK_DURATION], "sec");
    double rate = smfw_results_error_rate(r);
    if (r->info.gate_tripped) {
        /* failure_reason.txt is the bundle's text: escaped, so it cannot fake a verdict. */
        fputs("  Validity: FAILED - the validity gate tripped: ", out);
        smfw_term_write(out, r->info.failure_reason ? r->info.failure_reason : "(no reason given)",
                        0);
        fputc('\n', out);
        fprintf(out, "            the metrics above cover the %lld valid requests\n", valid);
        return 1;
    }
    if (rate > gate) {
        fprintf(out,
                "  Validity: FAILED - error rate %.2f%% is above the gate of %.2f%% (the "
                "metrics above cover the %lld valid requests)\n",
                rate * 100.0, gate * 100.0, valid);
        return 1;
    }
    fprintf(out, "  Validity: passed (error rate %.2f%%, gate %.2f%%)\n", rate * 100.0,
            gate * 100.0);
    return 0;
}
