/*
 * bundle_headline.c - smfw_bundle_print_headline() (include/smfw/archive.h),
 * kept for the managed backend's per-level blocks: the one console summary
 * (run_summary.c) under a title, judged against a given gate.
 */
#include <stdio.h>

#include <smfw/app.h>
#include <smfw/archive.h>

int smfw_bundle_print_headline(const smfw_results *r, const char *title, double gate, FILE *out) {
    smfw_run_summary_options o = {0};
    o.title = title;
    o.has_gate = 1;
    o.gate = gate;
    return smfw_run_summary_print(out, r, &o) == SMFW_RUN_VERDICT_FAILED;
}
