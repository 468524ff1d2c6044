/*
 * diagnose.h - failures explain themselves (AWS troubleshooting guidance):
 * after a run, the error records and timings are read back into a few
 * sentences that name the likely cause and what to check.
 */
#ifndef DIRECT_DIAGNOSE_H
#define DIRECT_DIAGNOSE_H

#include <limits.h>

#include <smfw/results.h>

#include "options.h"

typedef struct direct_hints {
    char *lines[8];
    size_t n;
} direct_hints;

/**
 * Fill hints from the records. `region` is the signing region, `skew_s` the
 * measured server-minus-local clock difference (INT64_MIN unknown),
 * `creds_provider` where the credentials came from (may be NULL).
 */
void direct_diagnose(const smfw_results *r, const direct_options *o, const char *region,
                     int64_t skew_s, const char *creds_provider, direct_hints *out);
void direct_hints_free(direct_hints *h);

#endif /* DIRECT_DIAGNOSE_H */
