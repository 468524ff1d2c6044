/*
 * autoscaling_pin.c - hold a scalable target at its current count for a
 * benchmark (MinCapacity = MaxCapacity), or the test measures the scaling
 * policy instead of the instance; with --suspend-scaling its policies are
 * suspended too. The original capacities (and SuspendedState) are journaled,
 * durably, before the change, so whatever ends the benchmark (its end,
 * Ctrl-C, a crash, kill -9) the next command can put them back.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <smfw/clock.h>

#include "autoscaling.h"

/* An integer member, or -1. */
static int64_t int_member(const json_t *o, const char *key) {
    json_t *v = json_object_get(o, key);
    return json_is_integer(v) ? (int64_t)json_integer_value(v) : -1;
}

/* The count SageMaker is asked to run now: the desired count, else the current one. */
static smfw_status current_count(smfw_aws_client *c, const aas_target *t, int64_t *count,
                                 smfw_error *err) {
    *count = -1;
    json_t *req = t->component ? json_pack("{s:s}", "InferenceComponentName", t->name)
                               : json_pack("{s:s}", "EndpointName", t->name);
    const char *op = t->component ? "DescribeInferenceComponent" : "DescribeEndpoint";
    char *body = json_dumps(req, JSON_COMPACT), *resp = NULL;
    json_decref(req);
    if (!body) return smfw_error_set(err, SMFW_ERR_NOMEM, "out of memory");
    smfw_status st = smfw_aws_json_call(c, &smfw_aws_sagemaker, op, body, &resp, err);
    free(body);
    if (st != SMFW_OK) return st;
    json_t *root = json_loads(resp ? resp : "", 0, NULL);
    free(resp);
    if (t->component) {
        json_t *rc = json_object_get(root, "RuntimeConfig");
        *count = int_member(rc, "DesiredCopyCount");
        if (*count < 0) *count = int_member(rc, "CurrentCopyCount");
    } else {
        json_t *v;
        size_t i;
        json_array_foreach(json_object_get(root, "ProductionVariants"), i, v) {
            const char *name = json_string_value(json_object_get(v, "VariantName"));
            if (!name || strcmp(name, t->variant) != 0) continue;
            *count = int_member(v, "DesiredInstanceCount");
            if (*count < 0) *count = int_member(v, "CurrentInstanceCount");
        }
    }
    json_decref(root);
    if (*count < 1)
        return smfw_error_set(err, SMFW_ERR_AWS,
                              "SageMaker %s: no %s count for %s%s%s (serverless, or not in "
                              "service?): nothing to pin",
                              op, t->component ? "copy" : "instance", t->name,
                              t->component ? "" : " variant ", t->component ? "" : t->variant);
    return SMFW_OK;
}

smfw_status aas_pin(smfw_aws_client *c, const aas_target *t, const char *region,
                    const char *journal_path, int suspend, aas_pin_result *out, smfw_error *err) {
    memset(out, 0, sizeof *out);
    int found = 0;
    smfw_status st = aas_describe_target(c, t, &found, &out->min_before, &out->max_before,
                                         &out->suspended_before, err);
    if (st != SMFW_OK) return st;
    if (!found)
        return smfw_error_set(err, SMFW_ERR_NOT_FOUND,
                              "%s (%s) is not a scalable target in %s: nothing scales it, so "
                              "there is nothing to pin (drop --pin-capacity)",
                              t->resource_id, t->dimension, region);
    if ((st = current_count(c, t, &out->desired, err)) != SMFW_OK) return st;
    /* The policies held back too; scheduled actions as they were (one missed while suspended
     * is not run on resume, so suspending them would lose the owner's schedule). */
    out->suspended = suspend;
    out->suspended_after = out->suspended_before;
    if (suspend) out->suspended_after.dynamic_in = out->suspended_after.dynamic_out = 1;
    json_t *entry = json_pack(
        "{s:i,s:s,s:s,s:s,s:s,s:I,s:I,s:I,s:I,s:I}", "smfw_autoscaling_journal", 1, "kind", "pin",
        "region", region, "resource_id", t->resource_id, "scalable_dimension", t->dimension,
        "original_min_capacity", (json_int_t)out->min_before, "original_max_capacity",
        (json_int_t)out->max_before, "pinned_capacity", (json_int_t)out->desired, "pid",
        (json_int_t)getpid(), "pinned_at_unix_s", (json_int_t)(smfw_now_wall_ns() / 1000000000LL));
    /* Absent (a pin without --suspend-scaling, or one journaled before it existed): the
     * restore leaves the SuspendedState alone. */
    if (entry && suspend &&
        (json_object_set_new(entry, "original_suspended_state",
                             aas_suspended_json(&out->suspended_before)) != 0 ||
         json_object_set_new(entry, "pinned_suspended_state",
                             aas_suspended_json(&out->suspended_after)) != 0)) {
        json_decref(entry);
        entry = NULL;
    }
    if (!entry) return smfw_error_set(err, SMFW_ERR_NOMEM, "out of memory");
    st = aas_journal_write(journal_path, entry, err);
    json_decref(entry);
    if (st != SMFW_OK) return st;
    if ((st = aas_register_target(c, t, out->desired, out->desired,
                                  suspend ? &out->suspended_after : NULL, err)) != SMFW_OK) {
        unlink(journal_path); /* nothing was changed */
        return st;
    }
    out->min_after = out->max_after = out->desired;
    return SMFW_OK;
}

smfw_status aas_unpin(smfw_aws_client *c, const aas_target *t, const char *journal_path,
                      aas_pin_result *out, smfw_error *err) {
    memset(out, 0, sizeof *out);
    json_t *j = NULL;
    smfw_status st = aas_journal_read(journal_path, &j, err);
    if (st != SMFW_OK || !j) return st;
    const char *kind = json_string_value(json_object_get(j, "kind"));
    const char *rid = json_string_value(json_object_get(j, "resource_id"));
    out->min_after = int_member(j, "original_min_capacity");
    out->max_after = int_member(j, "original_max_capacity");
    out->pid = (long)int_member(j, "pid");
    out->pinned_at = int_member(j, "pinned_at_unix_s");
    json_t *ss = json_object_get(j, "original_suspended_state");
    out->suspended = ss != NULL;
    if (!kind || strcmp(kind, "pin") != 0 || !rid || strcmp(rid, t->resource_id) != 0 ||
        out->min_after < 0 || out->max_after < out->min_after ||
        (ss && aas_suspended_from_json(ss, &out->suspended_after) != 0)) {
        json_decref(j);
        return smfw_error_set(err, SMFW_ERR_IO,
                              "%s is not a pin journal of %s (move it away to go on)", journal_path,
                              t->resource_id);
    }
    json_decref(j);
    int found = 0;
    st = aas_describe_target(c, t, &found, &out->min_before, &out->max_before,
                             &out->suspended_before, err);
    if (st == SMFW_OK && !found)
        st = smfw_error_set(err, SMFW_ERR_NOT_FOUND,
                            "%s is no longer a scalable target: its capacities %lld-%lld "
                            "journaled in %s cannot be restored",
                            t->resource_id, (long long)out->min_after, (long long)out->max_after,
                            journal_path);
    if (st == SMFW_OK)
        st = aas_register_target(c, t, out->min_after, out->max_after,
                                 out->suspended ? &out->suspended_after : NULL, err);
    if (st != SMFW_OK) return st;
    out->restored = 1;
    if (unlink(journal_path) != 0)
        return smfw_error_set(err, SMFW_ERR_IO, "restored, but cannot remove %s: %s", journal_path,
                              strerror(errno));
    return SMFW_OK;
}
