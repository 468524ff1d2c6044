/*
 * cmd_publish.c - `smfw publish`: a run's headline numbers and the S3 URI of
 * its full report stored with the model: as CustomerMetadataProperties of a
 * Model Registry model package version (UpdateModelPackage) or as tags of
 * the endpoint; `--read ARN` reads them back and, with --save DIR, writes a
 * result folder that `smfw results` and `smfw compare` read (they call this
 * command for `results --model-package ARN` and a `compare` baseline ARN).
 */
#include <errno.h>
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include <smfw/command.h>
#include <smfw/log.h>
#include <smfw/results_s3.h>
#include <smfw/untrusted.h>

#include "aws_commands.h"
#include "model_registry.h"
#include "publish_keys.h"

typedef struct publish_args {
    const char *run_dir, *package, *report_uri, *upload, *read, *save;
    int endpoint_tags, dry_run, json;
} publish_args;

static int parse_args(const smfw_command_context *ctx, int argc, char **argv, publish_args *a) {
    memset(a, 0, sizeof *a);
    a->package = smfw_command_get(ctx, "model-package");
    a->report_uri = smfw_command_get(ctx, "report-uri");
    a->upload = smfw_command_get(ctx, "upload");
    a->read = smfw_command_get(ctx, "read");
    a->save = smfw_command_get(ctx, "save");
    a->endpoint_tags = smfw_command_get(ctx, "endpoint-tags") != NULL;
    a->dry_run = smfw_command_get(ctx, "dry-run") != NULL;
    const char *f = smfw_command_get(ctx, "format");
    if (f) {
        if (strcmp(f, "json") == 0)
            a->json = 1;
        else if (strcmp(f, "markdown") != 0) {
            smfw_log(SMFW_LOG_ERROR, NULL, "--format wants markdown or json, not \"%s\"", f);
            return 1;
        }
    }
    if (argc > 2) {
        smfw_log(SMFW_LOG_ERROR, NULL, "unexpected argument \"%s\" (see `smfw publish --help`)",
                 argv[2]);
        return 1;
    }
    if (argc == 2) a->run_dir = argv[1];
    if (a->read) {
        if (a->run_dir || a->package || a->endpoint_tags || a->report_uri || a->upload) {
            smfw_log(SMFW_LOG_ERROR, NULL,
                     "--read ARN reads published results; it takes no run folder, "
                     "--model-package, --endpoint-tags, --report-uri or --upload");
            return 1;
        }
        if (smfw_mr_arn_kind(a->read) == SMFW_MR_OTHER) {
            smfw_log(SMFW_LOG_ERROR, NULL,
                     "--read wants the ARN of a model package version, a model package group "
                     "(its last Approved version) or an endpoint, not \"%s\"",
                     a->read);
            return 1;
        }
        return 0;
    }
    if (!a->run_dir) {
        smfw_log(SMFW_LOG_ERROR, NULL,
                 "name the run folder to publish: smfw publish DIR --model-package ARN (or "
                 "--endpoint-tags); --read ARN reads published results back");
        return 1;
    }
    if (!a->package == !a->endpoint_tags) {
        smfw_log(SMFW_LOG_ERROR, NULL,
                 "say where to publish: --model-package ARN or --endpoint-tags (one of them)");
        return 1;
    }
    if (a->package && smfw_mr_arn_kind(a->package) != SMFW_MR_PACKAGE) {
        smfw_log(SMFW_LOG_ERROR, NULL,
                 "--model-package wants a model package version ARN "
                 "(arn:aws:sagemaker:REGION:ACCOUNT:model-package/GROUP/N), not \"%s\"%s",
                 a->package,
                 smfw_mr_arn_kind(a->package) == SMFW_MR_GROUP
                     ? " (that is a group: name the version the results belong to)"
                     : "");
        return 1;
    }
    if (a->report_uri && a->upload) {
        smfw_log(SMFW_LOG_ERROR, NULL,
                 "give --report-uri (the report is there already) or --upload (put it there)");
        return 1;
    }
    if (a->report_uri && strncmp(a->report_uri, "s3://", 5) != 0) {
        smfw_log(SMFW_LOG_ERROR, NULL, "--report-uri wants an s3:// URI, not \"%s\"",
                 a->report_uri);
        return 1;
    }
    return 0;
}

/* Keys of `have` that are smfw's and that `want` no longer has. */
static size_t stale_keys(const smfw_publish_set *have, const smfw_publish_set *want,
                         const char **out) {
    size_t n = 0;
    for (size_t i = 0; i < have->n; i++)
        if (smfw_publish_key_is_ours(have->e[i].key) && !smfw_publish_set_get(want, have->e[i].key))
            out[n++] = have->e[i].key;
    return n;
}

/* The user's own keys (not smfw's) of `have`, counted and optionally copied into `into`. */
static size_t own_keys(const smfw_publish_set *have, smfw_publish_set *into) {
    size_t n = 0;
    for (size_t i = 0; i < have->n; i++) {
        if (smfw_publish_key_is_ours(have->e[i].key)) continue;
        n++;
        if (into) smfw_publish_set_put(into, have->e[i].key, have->e[i].value);
    }
    return n;
}

static smfw_status check_room(const char *where, size_t theirs, size_t ours, smfw_error *err) {
    if (theirs + ours <= SMFW_PUBLISH_MAX_ENTRIES) return SMFW_OK;
    return smfw_error_set(err, SMFW_ERR_USAGE,
                          "%s has %zu keys of its own and smfw publishes %zu; SageMaker allows %d "
                          "in all: remove %zu of yours first",
                          where, theirs, ours, SMFW_PUBLISH_MAX_ENTRIES,
                          theirs + ours - SMFW_PUBLISH_MAX_ENTRIES);
}

static smfw_status publish_package(smfw_aws_client *c, const publish_args *a,
                                   const smfw_publish_set *keys, FILE *out, smfw_error *err) {
    smfw_publish_set *have = smfw_publish_set_new(), *send = smfw_publish_set_new();
    const char **remove = NULL;
    smfw_status st = have && send ? SMFW_OK : smfw_error_set(err, SMFW_ERR_NOMEM, "out of memory");
    if (st == SMFW_OK) st = smfw_mr_describe(c, a->package, have, err);
    size_t theirs = have ? own_keys(have, NULL) : 0;
    if (st == SMFW_OK) st = check_room(a->package, theirs, keys->n, err);
    if (st == SMFW_OK && !(remove = calloc(have->n + 1, sizeof *remove)))
        st = smfw_error_set(err, SMFW_ERR_NOMEM, "out of memory");
    size_t n_remove = 0;
    if (st == SMFW_OK) {
        /* The user's keys are sent back unchanged with ours: AWS merges the map, moto 5.2
         * replaces it (docs/mock.md); either way the version ends with exactly these keys. */
        own_keys(have, send);
        for (size_t i = 0; i < keys->n; i++)
            smfw_publish_set_put(send, keys->e[i].key, keys->e[i].value);
        n_remove = stale_keys(have, keys, remove);
        if (send->n != theirs + keys->n) /* a put failed: never send a map short of a key */
            st = smfw_error_set(err, SMFW_ERR_NOMEM, "out of memory");
        else if (a->dry_run) {
            char *body = smfw_mr_update_request(a->package, send, remove, n_remove);
            fprintf(out, "UpdateModelPackage %s\n", body ? body : "(out of memory)");
            free(body);
        } else
            st = smfw_mr_update(c, a->package, send, remove, n_remove, err);
    }
    if (st == SMFW_OK) {
        fprintf(out, "%s %zu smfw keys to %s (CustomerMetadataProperties)",
                a->dry_run ? "would publish" : "published", keys->n, a->package);
        if (n_remove) fprintf(out, "; %zu stale removed:", n_remove);
        for (size_t i = 0; i < n_remove; i++) fprintf(out, " %s", remove[i]);
        fprintf(out, "; %zu of the version's own kept\n", theirs);
    }
    free(remove);
    smfw_publish_set_free(have);
    smfw_publish_set_free(send);
    return st;
}

static smfw_status publish_tags(smfw_aws_client *c, const char *endpoint,
                                const smfw_publish_set *keys, int dry_run, FILE *out,
                                smfw_error *err) {
    char arn[300];
    smfw_publish_set *have = smfw_publish_set_new();
    const char **remove = NULL;
    smfw_status st = have ? SMFW_OK : smfw_error_set(err, SMFW_ERR_NOMEM, "out of memory");
    if (st == SMFW_OK) st = smfw_mr_endpoint_arn(c, endpoint, arn, sizeof arn, err);
    if (st == SMFW_OK) st = smfw_mr_list_tags(c, arn, have, err);
    size_t theirs = have ? own_keys(have, NULL) : 0;
    if (st == SMFW_OK) st = check_room(arn, theirs, keys->n, err);
    if (st == SMFW_OK && !(remove = calloc(have->n + 1, sizeof *remove)))
        st = smfw_error_set(err, SMFW_ERR_NOMEM, "out of memory");
    size_t n_remove = st == SMFW_OK ? stale_keys(have, keys, remove) : 0;
    if (st == SMFW_OK && !dry_run) {
        /* AddTags replaces the values of keys that exist; the stale ones go after. */
        st = smfw_mr_add_tags(c, arn, keys, err);
        if (st == SMFW_OK && n_remove) st = smfw_mr_delete_tags(c, arn, remove, n_remove, err);
    }
    if (st == SMFW_OK) {
        fprintf(out, "%s %zu smfw tags to %s", dry_run ? "would publish" : "published", keys->n,
                arn);
        if (n_remove) fprintf(out, "; %zu stale removed:", n_remove);
        for (size_t i = 0; i < n_remove; i++) fprintf(out, " %s", remove[i]);
        fprintf(out, "; %zu of the endpoint's own kept\n", theirs);
    }
    free(remove);
    smfw_publish_set_free(have);
    return st;
}

/* profile_export_aiperf.json from read-back results: the metrics and smfw's object. */
static smfw_status write_folder(const char *dir, const char *arn, const smfw_results *r,
                                const smfw_publish_set *keys, smfw_error *err) {
    if (smfw_mkdir_p(dir, 0755, NULL) != 0)
        return smfw_error_set(err, SMFW_ERR_IO, "cannot create %s: %s", dir, strerror(errno));
    json_t *root = json_object();
    for (int m = 0; m < smfw_metric_count(); m++) {
        const smfw_stats *s = smfw_results_stat(r, (smfw_metric_id)m);
        if (!s) continue;
        const smfw_metric_info *info = smfw_metric_get((smfw_metric_id)m);
        json_t *o = json_pack("{s:s}", "unit", info->display_unit);
        if (s->fields & SMFW_STAT_AVG) json_object_set_new(o, "avg", json_real(s->avg));
        for (int p = 0; p < SMFW_PERCENTILE_COUNT; p++)
            if (s->fields & (SMFW_STAT_P_FIRST << p))
                json_object_set_new(o, smfw_percentile_keys[p], json_real(s->p[p]));
        json_object_set_new(root, info->tag, o);
    }
    char *smfw_obj = smfw_results_smfw_object_json(r, 0);
    json_t *so = smfw_obj ? json_loads(smfw_obj, 0, NULL) : NULL;
    free(smfw_obj);
    if (so) json_object_set_new(root, "smfw", so);
    json_t *src = json_pack("{s:s}", "arn", arn);
    json_t *map = json_object();
    for (size_t i = 0; i < keys->n; i++)
        json_object_set_new(map, keys->e[i].key, json_string(keys->e[i].value));
    json_object_set_new(src, "keys", map);
    char path[4200], path2[4200];
    snprintf(path, sizeof path, "%s/profile_export_aiperf.json", dir);
    snprintf(path2, sizeof path2, "%s/published.json", dir);
    int ok = json_dump_file(root, path, JSON_INDENT(2)) == 0 &&
             json_dump_file(src, path2, JSON_INDENT(2)) == 0;
    json_decref(root);
    json_decref(src);
    if (!ok) return smfw_error_set(err, SMFW_ERR_IO, "cannot write %s: %s", path, strerror(errno));
    return SMFW_OK;
}

static smfw_status read_back(const smfw_command_context *ctx, smfw_aws_client *c,
                             const publish_args *a, smfw_error *err) {
    smfw_publish_set *keys = smfw_publish_set_new();
    smfw_results *r = smfw_results_new();
    char arn[2100];
    snprintf(arn, sizeof arn, "%s", a->read);
    smfw_mr_kind kind = smfw_mr_arn_kind(a->read);
    smfw_status st = keys && r ? SMFW_OK : smfw_error_set(err, SMFW_ERR_NOMEM, "out of memory");
    if (st == SMFW_OK && kind == SMFW_MR_GROUP) {
        st = smfw_mr_last_approved(c, a->read, arn, sizeof arn, err);
        if (st == SMFW_OK) SMFW_LOG_INFO("publish", "the last Approved version is %s", arn);
    }
    if (st == SMFW_OK)
        st = kind == SMFW_MR_ENDPOINT ? smfw_mr_list_tags(c, arn, keys, err)
                                      : smfw_mr_describe(c, arn, keys, err);
    if (st == SMFW_OK) st = smfw_publish_keys_to_results(keys, r, err);
    if (st == SMFW_OK && ctx->verbosity >= 0) {
        if (a->json) {
            json_t *o = json_pack("{s:s}", "arn", arn);
            json_t *map = json_object();
            for (size_t i = 0; i < keys->n; i++)
                if (smfw_publish_key_is_ours(keys->e[i].key))
                    json_object_set_new(map, keys->e[i].key, json_string(keys->e[i].value));
            json_object_set_new(o, "keys", map);
            char *text = json_dumps(o, JSON_INDENT(2) | JSON_SORT_KEYS);
            if (text) fprintf(ctx->out, "%s\n", text);
            free(text);
            json_decref(o);
        } else {
            fprintf(ctx->out, "Results published on %s\n\n| key | value |\n|---|---|\n", arn);
            for (size_t i = 0; i < keys->n; i++)
                if (smfw_publish_key_is_ours(keys->e[i].key))
                    fprintf(ctx->out, "| %s | %s |\n", keys->e[i].key, keys->e[i].value);
        }
    }
    const char *save = a->save;
    if (!save) save = smfw_settings_get(smfw_config_section(ctx->config, "smfw"), "output");
    if (st == SMFW_OK && save && *save) st = write_folder(save, arn, r, keys, err);
    smfw_results_free(r);
    smfw_publish_set_free(keys);
    return st;
}

static int publish_main(const smfw_command_context *ctx, int argc, char **argv) {
    publish_args a;
    if (parse_args(ctx, argc, argv, &a) != 0) return 1;
    smfw_error err;
    smfw_error_clear(&err);
    smfw_aws_client *client = NULL;
    smfw_results *r = NULL;
    smfw_publish_set *keys = NULL;
    smfw_aws_options o;
    smfw_aws_options_from_config(ctx->config, &o);
    smfw_status st = SMFW_OK;
    int usage = 0; /* a problem of the run folder or flags: exit 1 */
    const char *report = a.report_uri;
    if (!a.read) {
        r = smfw_results_new();
        keys = smfw_publish_set_new();
        if (!r || !keys)
            st = smfw_error_set(&err, SMFW_ERR_NOMEM, "out of memory");
        else if ((st = smfw_results_load_dir(r, a.run_dir, &err)) != SMFW_OK)
            usage = 1;
        if (st == SMFW_OK && a.upload) {
            st = smfw_results_s3_put_dir(ctx->config, a.run_dir, a.upload, &err);
            if (st == SMFW_OK) {
                SMFW_LOG_INFO("publish", "uploaded %s to %s", a.run_dir, a.upload);
                report = a.upload;
            }
        }
        if (st == SMFW_OK) {
            st = smfw_publish_keys_from_results(r, report, keys, &err);
            if (st == SMFW_ERR_USAGE) usage = 1;
        }
    }
    if (st == SMFW_OK) st = smfw_aws_client_new(&o, &client, &err);
    if (st == SMFW_OK) {
        if (a.read)
            st = read_back(ctx, client, &a, &err);
        else if (a.package)
            st = publish_package(client, &a, keys, ctx->out, &err);
        else {
            const char *ep = smfw_settings_get(smfw_config_section(ctx->config, "run"), "endpoint");
            if (!ep || !*ep) ep = smfw_results_info(r)->endpoint_name;
            if (!ep || !*ep || strcmp(ep, "mock") == 0) {
                st = smfw_error_set(&err, SMFW_ERR_USAGE,
                                    "--endpoint-tags needs a SageMaker endpoint: --endpoint NAME "
                                    "(the run folder names %s)",
                                    ep && *ep ? ep : "none");
            } else
                st = publish_tags(client, ep, keys, a.dry_run, ctx->out, &err);
        }
    }
    int rc = 0;
    if (st != SMFW_OK) {
        smfw_log(SMFW_LOG_ERROR, NULL, "%s", err.message);
        rc = usage || st == SMFW_ERR_USAGE ? 1 : smfw_status_exit_code(st);
    }
    smfw_publish_set_free(keys);
    smfw_results_free(r);
    smfw_aws_client_free(client);
    return rc;
}

static const smfw_command_option publish_options[] = {
    {"model-package", 1, "ARN",
     "the model package version to publish to (CustomerMetadataProperties)"},
    {"endpoint-tags", 0, NULL, "publish as tags of the endpoint (--endpoint, or the run's)"},
    {"report-uri", 1, "S3URI", "where the run's full report is (recorded as smfw:report)"},
    {"upload", 1, "S3URI", "upload the run folder there first and record it as smfw:report"},
    {"dry-run", 0, NULL, "read what is published and print the update; change nothing"},
    {"read", 1, "ARN",
     "read published results back: a version, a group (its last Approved "
     "version) or an endpoint"},
    {"save", 1, "DIR", "with --read: write them as a result folder (default -o, if given)"},
    {"format", 1, "FMT", "with --read: print markdown (default) or json"},
    SMFW_COMMAND_OPTIONS_END};

const smfw_command_def aws_command_publish = {
    sizeof(smfw_command_def),
    "publish",
    "store a run's headline numbers with the model (Model Registry metadata or endpoint tags)",
    "Usage: smfw publish RUN_DIR --model-package ARN [--report-uri S3URI | --upload S3URI]\n"
    "       smfw publish RUN_DIR --endpoint-tags [--endpoint NAME] [--report-uri S3URI]\n"
    "       smfw publish --read ARN [--save DIR | -o DIR] [--format markdown|json]\n\n"
    "Stores the run's headline numbers (TTFT, ITL and latency avg/p50/p95/p99, per-user and\n"
    "total throughput, request and error counts, duration) and what it ran (endpoint, model,\n"
    "concurrency, dataset, validity) as keys under the prefix smfw: - at most 34 of the 50\n"
    "that SageMaker allows, the rest stay yours - on a Model Registry model package version\n"
    "(UpdateModelPackage's CustomerMetadataProperties; smfw keys the run no longer has are\n"
    "removed with CustomerMetadataPropertiesToRemove; your own keys are kept) or as tags of\n"
    "the endpoint (AddTags, then DeleteTags for stale smfw keys). --read prints them and, with\n"
    "--save DIR, writes a result folder; `smfw results --model-package ARN` and\n"
    "`smfw compare ARN NEW_DIR` read through it, a group ARN meaning its last Approved version\n"
    "(the nightly regression gate). The key scheme is in docs/capacity.md.",
    publish_options,
    publish_main};
