/*
 * aws_profile.c - the AWS shared files (~/.aws/config and ~/.aws/credentials,
 * or AWS_CONFIG_FILE / AWS_SHARED_CREDENTIALS_FILE) and the selected
 * profile's settings.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "aws/aws_internal.h"

const char *aws_getenv(const char *name) {
    const char *v = getenv(name);
    return v && *v ? v : NULL;
}

static char *home_path(const char *rel) {
    const char *home = aws_getenv("HOME");
    char *p = NULL;
    if (!home || asprintf(&p, "%s/%s", home, rel) < 0) return NULL;
    return p;
}

smfw_status aws_client_load_files(smfw_aws_client *c, smfw_error *err) {
    if (c->files_loaded) return SMFW_OK;
    const char *cfg = aws_getenv("AWS_CONFIG_FILE");
    const char *cred = aws_getenv("AWS_SHARED_CREDENTIALS_FILE");
    char *cfg_default = cfg ? NULL : home_path(".aws/config");
    char *cred_default = cred ? NULL : home_path(".aws/credentials");
    smfw_status st = SMFW_OK;
    if (cfg || cfg_default) st = aws_ini_load(cfg ? cfg : cfg_default, &c->config, err);
    if (st == SMFW_OK && (cred || cred_default))
        st = aws_ini_load(cred ? cred : cred_default, &c->credfile, err);
    if (st == SMFW_OK) {
        c->files_loaded = 1;
        c->config_path = cfg ? strdup(cfg) : cfg_default;
        cfg_default = NULL;
    }
    free(cfg_default);
    free(cred_default);
    /* A profile named explicitly must exist somewhere. */
    if (st == SMFW_OK && c->profile_explicit) {
        char sec[512];
        snprintf(sec, sizeof(sec), "profile %s", c->profile);
        if (!aws_ini_has_section(c->config, sec) && !aws_ini_has_section(c->credfile, c->profile) &&
            !(strcmp(c->profile, "default") == 0 && aws_ini_has_section(c->config, "default")))
            st = smfw_error_set(err, SMFW_ERR_CONFIG,
                                "the AWS profile '%s' is not in the AWS config or credentials "
                                "file",
                                c->profile);
    }
    return st;
}

const char *aws_profile_get(smfw_aws_client *c, const char *profile, const char *key) {
    if (!profile) profile = c->profile;
    char sec[512];
    snprintf(sec, sizeof(sec), "profile %s", profile);
    const char *v = aws_ini_get(c->config, sec, key);
    if (!v && strcmp(profile, "default") == 0) v = aws_ini_get(c->config, "default", key);
    return v && *v ? v : NULL;
}

const char *aws_credfile_get(smfw_aws_client *c, const char *profile, const char *key) {
    const char *v = aws_ini_get(c->credfile, profile ? profile : c->profile, key);
    return v && *v ? v : NULL;
}
