/*
 * aws_endpoint_data.c - finds and loads the endpoint data shipped with smfw
 * (botocore's partitions.json and each service's endpoint-rule-set-1.json,
 * in botocore's layout): data/aws/ in the source tree, <datadir>/smfw/aws/
 * when installed. Parsed once per process and kept: S3's rule set is ~1 MB.
 */
#include <dirent.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include <smfw/app.h>

#include "aws/aws_endpoint_data.h"

#define MAX_CACHED 16

typedef struct cached {
    char service[64];
    json_t *ruleset;
} cached;

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static json_t *partitions;
static cached rulesets[MAX_CACHED];
static int nrulesets;

static int is_file(const char *path) {
    struct stat st;
    return stat(path, &st) == 0 && S_ISREG(st.st_mode);
}

int aws_endpoint_data_dir(char *out, size_t size) {
    const char *base = smfw_data_dir();
    const char *subs[] = {"/data/aws", "/aws"}; /* source tree, installed */
    char probe[4200];
    for (size_t i = 0; i < 2; i++) {
        snprintf(probe, sizeof(probe), "%s%s/partitions.json", base, subs[i]);
        if (is_file(probe)) {
            snprintf(out, size, "%s%s", base, subs[i]);
            return 0;
        }
    }
    snprintf(out, size, "%s/aws", base);
    return -1;
}

static json_t *load(const char *path, smfw_error *err) {
    json_error_t je;
    json_t *j = json_load_file(path, 0, &je);
    if (!j)
        smfw_error_set(err, SMFW_ERR_CONFIG, "cannot read the AWS endpoint data %s: %s (line %d)",
                       path, je.text, je.line);
    return j;
}

/* botocore's choice of API version: the newest folder holding the file. */
static int newest_version(const char *svc_dir, char *out, size_t size) {
    DIR *d = opendir(svc_dir);
    if (!d) return -1;
    out[0] = '\0';
    struct dirent *de;
    char probe[4400];
    while ((de = readdir(d))) {
        if (de->d_name[0] == '.') continue;
        snprintf(probe, sizeof(probe), "%s/%s/endpoint-rule-set-1.json", svc_dir, de->d_name);
        if (is_file(probe) && strcmp(de->d_name, out) > 0 && strlen(de->d_name) < size)
            snprintf(out, size, "%s", de->d_name);
    }
    closedir(d);
    return out[0] ? 0 : -1;
}

smfw_status aws_endpoint_data_get(const char *service, const json_t **ruleset, const json_t **parts,
                                  smfw_error *err) {
    smfw_status st = SMFW_OK;
    pthread_mutex_lock(&lock);
    char dir[4096];
    int found = aws_endpoint_data_dir(dir, sizeof(dir)) == 0;
    if (!partitions) {
        char path[4200];
        snprintf(path, sizeof(path), "%s/partitions.json", dir);
        if (!found)
            st = smfw_error_set(err, SMFW_ERR_CONFIG,
                                "the AWS endpoint data is missing: no %s (reinstall smfw, or "
                                "point SMFW_DATA_DIR at the folder holding aws/)",
                                path);
        else if (!(partitions = load(path, err)))
            st = err ? err->status : SMFW_ERR_CONFIG;
    }
    json_t *rs = NULL;
    for (int i = 0; st == SMFW_OK && i < nrulesets; i++)
        if (strcmp(rulesets[i].service, service) == 0) rs = rulesets[i].ruleset;
    if (st == SMFW_OK && !rs) {
        char svc_dir[4200], version[64], path[4400];
        snprintf(svc_dir, sizeof(svc_dir), "%s/%s", dir, service);
        if (newest_version(svc_dir, version, sizeof(version)) != 0)
            st = smfw_error_set(err, SMFW_ERR_CONFIG,
                                "the AWS endpoint rules of %s are missing: no "
                                "%s/<version>/endpoint-rule-set-1.json",
                                service, svc_dir);
        else if (nrulesets >= MAX_CACHED || strlen(service) >= sizeof(rulesets[0].service))
            st = smfw_error_set(err, SMFW_ERR_INTERNAL, "too many AWS endpoint rule sets");
        else {
            snprintf(path, sizeof(path), "%s/%s/endpoint-rule-set-1.json", svc_dir, version);
            if ((rs = load(path, err))) {
                snprintf(rulesets[nrulesets].service, sizeof(rulesets[0].service), "%s", service);
                rulesets[nrulesets++].ruleset = rs;
            } else {
                st = err ? err->status : SMFW_ERR_CONFIG;
            }
        }
    }
    pthread_mutex_unlock(&lock);
    if (st == SMFW_OK) {
        *ruleset = rs;
        *parts = partitions;
    }
    return st;
}
