/*
 * fuzz_config_ini.c - libFuzzer target: smfw's config file reader (INI through
 * inih, then every value's type and range checks). Any input may be refused,
 * but a refusal must name the file and line (or the file, when it cannot be
 * read): an unnamed one aborts, as a crash does. A refusal whose text a secret
 * masked (a header value holding the path) is exempt: masking wins.
 */
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <smfw/app.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    static char path[64];
    if (!path[0]) snprintf(path, sizeof path, "/tmp/smfw-fuzz-config-%d.conf", (int)getpid());
    FILE *f = fopen(path, "wb");
    if (!f) return 0;
    fwrite(data, 1, size, f);
    fclose(f);
    smfw_secret_clear_all(); /* each input alone: an earlier one's secrets mask nothing here */
    smfw_config *cfg = NULL;
    smfw_error err;
    smfw_error_clear(&err);
    if (smfw_config_new(NULL, &cfg, &err) != SMFW_OK) return 0;
    if (smfw_config_load_file(cfg, path, &err) != SMFW_OK && err.status != SMFW_ERR_NOMEM) {
        char where[96];
        snprintf(where, sizeof where, "%s:", path);
        /* A header value is a secret, and masking wins over naming: when the fuzzer makes a
         * header value out of (part of) the file's path, the path is masked in the refusal
         * ("****:7: ..."). The naming check holds for every refusal that masks nothing. */
        int masked = strstr(err.message, "****") != NULL;
        if (!strstr(err.message, where) && !masked) {
            fprintf(stderr, "refusal without file:line: %s\n", err.message);
            abort();
        }
    }
    smfw_config_free(cfg);
    return 0;
}
