/*
 * bundle.c - the job's AIPerf bundle: find output.tar.gz under the job's own
 * output prefix (preferring the key that names the job), download it,
 * and extract it with the safe extractor (levels.c loads what it holds).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <smfw/archive.h>
#include <smfw/log.h>

#include "managed.h"

typedef struct pick {
    const char *job;
    char key[1025];
    char modified[40];
    int named;
    int count;
} pick;

static int pick_cb(const smfw_aws_s3_object *o, void *user) {
    pick *p = user;
    const char *base = strrchr(o->key, '/');
    base = base ? base + 1 : o->key;
    if (strcmp(base, "output.tar.gz") != 0) return 0;
    p->count++;
    int named = p->job && *p->job && strstr(o->key, p->job) != NULL;
    if (!p->key[0] || (named && !p->named) ||
        (named == p->named && strcmp(o->last_modified, p->modified) > 0)) {
        snprintf(p->key, sizeof p->key, "%s", o->key);
        snprintf(p->modified, sizeof p->modified, "%s", o->last_modified);
        p->named = named;
    }
    return 0;
}

smfw_status managed_bundle_pick(smfw_aws_client *c, const char *bucket, const char *prefix,
                                const char *job, char *key, size_t ksize, int *count, int *named,
                                smfw_error *err) {
    pick p;
    memset(&p, 0, sizeof p);
    p.job = job;
    smfw_status st = smfw_aws_s3_list_objects(c, bucket, prefix, pick_cb, &p, err);
    snprintf(key, ksize, "%s", p.key);
    *count = p.count;
    *named = p.named;
    return st;
}

smfw_status managed_bundle_download(smfw_aws_client *c, const char *bucket, const char *key,
                                    const char *dir, char *bundle_dir, size_t size,
                                    smfw_error *err) {
    char tarball[4200];
    snprintf(tarball, sizeof tarball, "%s/output.tar.gz", dir);
    snprintf(bundle_dir, size, "%s/bundle", dir);
    SMFW_LOG_INFO("managed", "downloading s3://%s/%s", bucket, key);
    smfw_status st = smfw_aws_s3_get_object_file(c, bucket, key, tarball, err);
    if (st != SMFW_OK) return st;
    smfw_archive_stats as;
    st = smfw_archive_extract_file(tarball, bundle_dir, NULL, &as, err);
    if (st == SMFW_OK)
        SMFW_LOG_INFO("managed", "extracted %llu files (%llu bytes) into %s",
                      (unsigned long long)as.files, (unsigned long long)as.bytes, bundle_dir);
    else
        unlink(tarball); /* a refused bundle leaves nothing (the extractor cleaned its part) */
    return st;
}

smfw_status managed_bundle_fetch(smfw_aws_client *c, const char *output_uri, const char *job,
                                 const char *dir, char *bundle_dir, size_t size, smfw_error *err) {
    char bucket[256], prefix[1025], key[1025];
    smfw_status st =
        smfw_aws_s3_uri_split(output_uri, bucket, sizeof bucket, prefix, sizeof prefix, err);
    if (st != SMFW_OK) return st;
    int count = 0, named = 0;
    st = managed_bundle_pick(c, bucket, prefix, job, key, sizeof key, &count, &named, err);
    if (st != SMFW_OK) return smfw_error_prefix(err, "cannot list %s", output_uri);
    if (!key[0])
        return smfw_error_set(err, SMFW_ERR_NOT_FOUND, "no output.tar.gz under %s", output_uri);
    if (count > 1 && !named)
        SMFW_LOG_WARN("managed", "%d bundles under %s and none names job %s; using the newest (%s)",
                      count, output_uri, job, key);
    return managed_bundle_download(c, bucket, key, dir, bundle_dir, size, err);
}
