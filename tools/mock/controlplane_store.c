/*
 * controlplane_store.c - the control plane's workload configs, jobs and
 * recommendation jobs: lookup, and persistence in <state-dir>/controlplane.json.
 */
#include "controlplane.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- persistence -------------------------------------------------------------------------- */

void cp_save(mock_controlplane *cp) {
    json_t *jobs = json_array();
    for (cp_job *j = cp->jobs; j; j = j->next) json_array_append(jobs, j->desc);
    json_t *recs = json_array();
    for (cp_rec *r = cp->recs; r; r = r->next) json_array_append(recs, r->desc);
    json_t *root = json_pack("{s:O,s:o,s:o}", "workload_configs", cp->configs, "jobs", jobs,
                             "recommendation_jobs", recs);
    char tmp[4300];
    snprintf(tmp, sizeof tmp, "%s.tmp", cp->state_file);
    if (json_dump_file(root, tmp, JSON_INDENT(1)) == 0) rename(tmp, cp->state_file);
    json_decref(root);
}

cp_job *cp_job_new(mock_controlplane *cp, json_t *desc) {
    cp_job *j = calloc(1, sizeof *j);
    if (!j) abort();
    j->cp = cp;
    j->desc = desc;
    j->next = cp->jobs;
    cp->jobs = j;
    return j;
}

void cp_job_free(cp_job *j) {
    if (j->timer) event_free(j->timer);
    json_decref(j->desc);
    free(j->workload_spec);
    for (size_t i = 0; i < j->channel_count; i++) {
        free(j->channel_names[i]);
        free(j->channel_dirs[i]);
    }
    free(j);
}

cp_job *cp_find_job(mock_controlplane *cp, const char *name) {
    for (cp_job *j = cp->jobs; j; j = j->next)
        if (!strcmp(jstr(j->desc, "AIBenchmarkJobName"), name)) return j;
    return NULL;
}

json_t *cp_find_config(mock_controlplane *cp, const char *ident) {
    const char *name = ident_name(ident);
    size_t i;
    json_t *c;
    json_array_foreach(cp->configs, i, c) {
        if (!strcmp(jstr(c, "AIWorkloadConfigName"), name)) return c;
    }
    return NULL;
}

cp_rec *cp_rec_new(mock_controlplane *cp, json_t *desc) {
    cp_rec *r = calloc(1, sizeof *r);
    if (!r) abort();
    r->cp = cp;
    r->desc = desc;
    r->next = cp->recs;
    cp->recs = r;
    return r;
}

void cp_rec_free(cp_rec *r) {
    if (r->timer) event_free(r->timer);
    json_decref(r->desc);
    free(r);
}

cp_rec *cp_find_rec(mock_controlplane *cp, const char *name) {
    for (cp_rec *r = cp->recs; r; r = r->next)
        if (!strcmp(jstr(r->desc, "AIRecommendationJobName"), name)) return r;
    return NULL;
}
