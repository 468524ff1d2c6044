/*
 * fuzz_bundle.c - libFuzzer target for the bundle reader: what `smfw
 * results` does with an extracted bundle it did not write. The first byte
 * picks what the rest is:
 *   0: profile_export_aiperf.json of one run;
 *   1: profile_export.jsonl of one run;
 *   2: a folder layout, lines "PATH\tCONTENT" (PATH of [a-z0-9_./], no ".."):
 *      the runs are found with smfw_bundle_find_runs and each is loaded;
 * and every loaded run is printed with the headline (escaping the bundle's
 * text) and each line also goes through the record parser and the terminal
 * escaper. Small limits keep each input fast; beyond not crashing, a run
 * that loads must hold only numbers that pass the range check.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <smfw/results_layout.h>
#include <smfw/archive.h>
#include <smfw/bundle_limits.h>
#include <smfw/results.h>
#include <smfw/untrusted.h>

static char base[256];
static FILE *sink;

static void write_file(const char *path, const uint8_t *data, size_t n) {
    FILE *f = fopen(path, "wb");
    if (!f) return;
    if (n) fwrite(data, 1, n, f);
    fclose(f);
}

static int safe_rel(const char *p) {
    if (!*p || *p == '/' || strstr(p, "..") || strlen(p) > 200) return 0;
    for (const char *q = p; *q; q++)
        if (!((*q >= 'a' && *q <= 'z') || (*q >= '0' && *q <= '9') || *q == '_' || *q == '.' ||
              *q == '/'))
            return 0;
    return 1;
}

static void make_parents(const char *root, const char *rel) {
    char p[600];
    snprintf(p, sizeof p, "%s/%s", root, rel);
    for (char *s = p + strlen(root) + 1; *s; s++)
        if (*s == '/') {
            *s = '\0';
            mkdir(p, 0755);
            *s = '/';
        }
}

static void load_and_show(const char *dir) {
    smfw_results *r = smfw_results_new();
    if (!r) return;
    smfw_error err;
    if (smfw_results_load_dir(r, dir, &err) == SMFW_OK) {
        /* What loaded is printable and castable: the headline does both. */
        smfw_bundle_print_headline(r, dir, 0.01, sink);
        for (int i = 0; i < SMFW_M_COUNT_; i++)
            if (r->stats[i].present && (r->stats[i].avg != r->stats[i].avg)) abort(); /* NaN */
    }
    smfw_results_free(r);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    if (!base[0]) {
        snprintf(base, sizeof base, "/tmp/smfw-fuzz-bundle-%ld", (long)getpid());
        sink = fopen("/dev/null", "w");
        smfw_bundle_limits lim;
        smfw_bundle_limits_default(&lim);
        lim.max_summary_bytes = 256 << 10;
        lim.max_record_bytes = 64 << 10;
        lim.max_array_items = 4096;
        lim.max_records = 2000;
        smfw_bundle_limits_set(&lim);
    }
    if (size < 1 || size > (512u << 10)) return 0;
    smfw_remove_tree(base, NULL);
    mkdir(base, 0755);
    const uint8_t *body = data + 1;
    size_t n = size - 1;
    char path[600];
    if (data[0] % 3 == 0) {
        snprintf(path, sizeof path, "%s/profile_export_aiperf.json", base);
        write_file(path, body, n);
        load_and_show(base);
    } else if (data[0] % 3 == 1) {
        snprintf(path, sizeof path, "%s/profile_export.jsonl", base);
        write_file(path, body, n);
        load_and_show(base);
    } else {
        /* "PATH\tCONTENT\n" lines make the folder layout. */
        const char *p = (const char *)body, *end = p + n;
        int files = 0;
        while (p < end && files < 64) {
            const char *nl = memchr(p, '\n', (size_t)(end - p));
            const char *line_end = nl ? nl : end;
            const char *tab = memchr(p, '\t', (size_t)(line_end - p));
            if (tab && tab - p < 200) {
                char rel[256];
                memcpy(rel, p, (size_t)(tab - p));
                rel[tab - p] = '\0';
                if (safe_rel(rel)) {
                    make_parents(base, rel);
                    snprintf(path, sizeof path, "%s/%s", base, rel);
                    write_file(path, (const uint8_t *)tab + 1, (size_t)(line_end - tab - 1));
                    files++;
                }
            }
            p = line_end + 1;
        }
        smfw_bundle_run *runs = NULL;
        size_t nr = 0;
        smfw_error err;
        if (smfw_bundle_find_runs(base, &runs, &nr, &err) == SMFW_OK)
            for (size_t i = 0; i < nr && i < 16; i++) load_and_show(runs[i].dir);
        free(runs);
    }
    /* Every line through the record parser and the terminal escaper too. */
    const char *p = (const char *)body, *end = p + n;
    for (int k = 0; p < end && k < 64; k++) {
        const char *nl = memchr(p, '\n', (size_t)(end - p));
        size_t len = (size_t)((nl ? nl : end) - p);
        smfw_record rec;
        smfw_error err;
        if (smfw_record_from_jsonl(p, len, &rec, &err) == SMFW_OK) smfw_record_clear(&rec);
        char *z = malloc(len + 1), shown[512];
        if (z) {
            memcpy(z, p, len);
            z[len] = '\0';
            smfw_term_escape(z, shown, sizeof shown);
            smfw_term_write(sink, z, 1);
            free(z);
        }
        p += len + 1;
    }
    smfw_remove_tree(base, NULL);
    return 0;
}
