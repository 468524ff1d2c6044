/*
 * sweep_goodput.c - AIPerf's goodput at each sweep level and the SLO knee:
 * the highest level up to which every level keeps at least the attainment
 * share of its requests within every goodput SLO. The throughput knee
 * (capacity.c) says where more load stops buying tokens; this one says where
 * more load stops keeping users within their SLOs.
 */
#include <math.h>
#include <string.h>

#include <smfw/results_layout.h>
#include <smfw/capacity.h>

void smfw_sweep_goodput_of(const smfw_sweep_point *p, double attainment, smfw_sweep_goodput *out) {
    memset(out, 0, sizeof *out);
    out->goodput = NAN;
    out->fraction = NAN;
    const smfw_results *r = p ? p->results : NULL;
    if (!r) return;
    const smfw_stats *gp = &r->stats[SMFW_M_GOODPUT];
    const smfw_stats *good = &r->stats[SMFW_M_GOOD_REQUEST_COUNT];
    const smfw_stats *valid = &r->stats[SMFW_M_REQUEST_COUNT];
    const smfw_stats *errors = &r->stats[SMFW_M_ERROR_REQUEST_COUNT];
    out->gate_tripped = r->info.gate_tripped;
    if (!good->present && !gp->present) return;
    out->present = 1;
    if (gp->present && (gp->fields & SMFW_STAT_AVG)) out->goodput = gp->avg;
    if (good->present && (good->fields & SMFW_STAT_AVG) && good->avg >= 0) {
        out->good = (uint64_t)llround(good->avg);
        /* AIPerf's good_request_fraction: over every attempted request, so a level that
         * drops traffic under load does not look good by its survivors alone. */
        double attempted = (valid->present && (valid->fields & SMFW_STAT_AVG) ? valid->avg : 0) +
                           (errors->present && (errors->fields & SMFW_STAT_AVG) ? errors->avg : 0);
        if (attempted > 0) out->fraction = good->avg / attempted;
    }
    if (!(attainment > 0)) attainment = SMFW_SWEEP_SLO_ATTAINMENT;
    out->attains = !isnan(out->fraction) && out->fraction >= attainment && !out->gate_tripped;
}

int smfw_sweep_slo_knee(const smfw_sweep_point *points, size_t n, double attainment) {
    int any = 0;
    for (size_t i = 0; i < n; i++) {
        smfw_sweep_goodput g;
        smfw_sweep_goodput_of(&points[i], attainment, &g);
        if (g.present) any = 1;
    }
    if (!any) return -2;
    int knee = -1;
    for (size_t i = 0; i < n; i++) {
        smfw_sweep_goodput g;
        smfw_sweep_goodput_of(&points[i], attainment, &g);
        if (!g.attains) break;
        knee = (int)i;
    }
    return knee;
}
