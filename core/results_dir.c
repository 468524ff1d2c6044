/* results_dir.c - load a result folder: a direct run's output or an extracted AIPerf bundle. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include <smfw/results_layout.h>
#include <smfw/results.h>

#include "results_internal.h"

static int file_exists(const char *p) {
    struct stat st;
    return stat(p, &st) == 0 && S_ISREG(st.st_mode);
}

smfw_status smfw_results_load_dir(smfw_results *r, const char *dir, smfw_error *err) {
    char path[4096];
    snprintf(path, sizeof path, "%s/profile_export_aiperf.json", dir);
    int have_json = file_exists(path);
    smfw_status st;
    if (have_json) {
        st = smfw_results_load_aiperf_json(r, path, err);
        if (st != SMFW_OK) return st;
    }
    snprintf(path, sizeof path, "%s/profile_export.jsonl", dir);
    int have_jsonl = file_exists(path);
    if (have_jsonl) {
        st = smfw_results_load_jsonl(r, path, err);
        if (st != SMFW_OK) return st;
    }
    if (!have_json && !have_jsonl)
        return smfw_error_set(err, SMFW_ERR_NOT_FOUND,
                              "%s holds no profile_export_aiperf.json or profile_export.jsonl (not "
                              "an smfw or AIPerf result folder)",
                              dir);
    if (!have_json) {
        /* Records only: the aggregates are recomputed with AIPerf's rules. */
        st = smfw_results_compute(r, NULL, 0, err);
        if (st != SMFW_OK) return st;
        r->records_complete = 1;
    }
    /* Nothing is printed or cast before the numbers are known to be possible. */
    snprintf(path, sizeof path, "%s/%s", dir,
             have_json ? "profile_export_aiperf.json" : "profile_export.jsonl");
    st = smfw_results_check_plausible(r, path, err);
    if (st != SMFW_OK) return st;
    snprintf(path, sizeof path, "%s/failure_reason.txt", dir);
    if (file_exists(path)) {
        FILE *fp = fopen(path, "r");
        if (fp) {
            char buf[2048];
            size_t n = fread(buf, 1, sizeof buf - 1, fp);
            fclose(fp);
            buf[n] = '\0';
            while (n && (buf[n - 1] == '\n' || buf[n - 1] == '\r' || buf[n - 1] == ' '))
                buf[--n] = '\0';
            smfw_results_set_string(&r->info.failure_reason, buf);
            r->info.gate_tripped = 1;
        }
    }
    smfw_results_set_string(&r->info.source_dir, dir);
    return SMFW_OK;
}
