/* smfw_test.c - helpers shared by the unit tests. */
#include <check.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <smfw/app.h>

#include "smfw_test.h"

const char *smfw_test_data(const char *relative) {
    static char buf[4096];
    snprintf(buf, sizeof buf, "%s/%s", SMFW_TESTDATA_DIR, relative);
    return buf;
}

char *smfw_test_tmpdir(void) {
    const char *base = getenv("TMPDIR");
    char tmpl[4096];
    snprintf(tmpl, sizeof tmpl, "%s/smfw-test-XXXXXX", base && *base ? base : "/tmp");
    char *d = mkdtemp(tmpl);
    return d ? strdup(d) : NULL;
}

void smfw_test_rmtree(const char *path) {
    if (!path || !*path || strcmp(path, "/") == 0) return;
    char cmd[4200];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", path);
    int rc = system(cmd);
    (void)rc;
}

char *smfw_test_read_file(const char *path, size_t *len) {
    FILE *fp = fopen(path, "rb");
    if (!fp) return NULL;
    fseek(fp, 0, SEEK_END);
    long n = ftell(fp);
    fseek(fp, 0, SEEK_SET);
    char *buf = malloc((size_t)n + 1);
    if (!buf) {
        fclose(fp);
        return NULL;
    }
    size_t got = fread(buf, 1, (size_t)n, fp);
    fclose(fp);
    buf[got] = '\0';
    if (len) *len = got;
    return buf;
}

int smfw_test_write_file(const char *path, const char *content) {
    FILE *fp = fopen(path, "wb");
    if (!fp) return -1;
    size_t n = strlen(content);
    int ok = fwrite(content, 1, n, fp) == n;
    return fclose(fp) == 0 && ok ? 0 : -1;
}

double smfw_test_reldiff(double a, double b) {
    double m = fmax(fmax(fabs(a), fabs(b)), 1e-300);
    return fabs(a - b) / m;
}

const struct smfw_settings *smfw_test_plugin_settings(const char *section) {
    static smfw_registry *reg;
    static smfw_config *cfg;
    smfw_error err;
    if (!cfg) {
        const char *dirs[] = {SMFW_BUILD_PLUGIN_DIR};
        if (smfw_registry_load(dirs, 1, &reg, &err) != SMFW_OK ||
            smfw_config_new(reg, &cfg, &err) != SMFW_OK) {
            fprintf(stderr, "smfw_test_plugin_settings: %s\n", err.message);
            return NULL;
        }
    }
    return smfw_config_section(cfg, section);
}

int smfw_test_run(Suite *suite) {
    SRunner *sr = srunner_create(suite);
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? 1 : 0;
}
