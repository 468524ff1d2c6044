/*
 * fuzz_archive.c - libFuzzer target for the safe archive extractor: any bytes
 * are fed to smfw_archive_extract_memory() into a fresh folder with small
 * limits. Beyond not crashing, it checks the promise of archive.h: nothing
 * is ever written outside that folder, and a refusal leaves it empty.
 */
#include <dirent.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <smfw/archive.h>

static char base[256];

static size_t count_entries(const char *dir) {
    DIR *d = opendir(dir);
    if (!d) return 0;
    size_t n = 0;
    struct dirent *de;
    while ((de = readdir(d)) != NULL)
        if (strcmp(de->d_name, ".") && strcmp(de->d_name, "..")) n++;
    closedir(d);
    return n;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    if (!base[0]) {
        snprintf(base, sizeof base, "/tmp/smfw-fuzz-archive-%ld", (long)getpid());
        smfw_remove_tree(base, NULL);
    }
    char dest[300];
    snprintf(dest, sizeof dest, "%s/box/dest", base);
    smfw_archive_limits lim = {0};
    lim.max_total_bytes = 1u << 20;
    lim.max_file_bytes = 256u << 10;
    lim.max_entries = 256;
    smfw_error err;
    smfw_status st = smfw_archive_extract_memory(data, size, dest, &lim, NULL, &err);
    char box[300];
    snprintf(box, sizeof box, "%s/box", base);
    /* Only "dest" may exist next to where the archive was extracted. */
    if (count_entries(box) > 1 || count_entries(base) > 1) abort();
    if (st != SMFW_OK && count_entries(dest) != 0) abort();
    smfw_remove_tree(base, NULL);
    return 0;
}
