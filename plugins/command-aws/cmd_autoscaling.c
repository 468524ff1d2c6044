/*
 * cmd_autoscaling.c - `smfw autoscaling plan|apply|rollback`: the
 * target-tracking policy a run or sweep folder asks for, printed, applied with
 * PutScalingPolicy (the policy it replaces journaled first) and rolled back.
 */
#include <errno.h>
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <smfw/clock.h>
#include <smfw/command.h>
#include <smfw/log.h>

#include "autoscaling.h"
#include "aws_commands.h"

#define DEFAULT_POLICY "smfw-target-tracking"

typedef struct as_args {
    double headroom, instances;
    int64_t out_cooldown, in_cooldown;
    const char *policy, *variant, *journal;
    const char *endpoint, *component;
    int suspend; /* --suspend-scaling (pin) */
} as_args;

/* "10%", "0.1" or "10" (a percentage), in [0, 0.9]. */
static int parse_headroom(const char *v, double *out) {
    char *end = NULL;
    double x = strtod(v, &end);
    if (end == v || !isfinite(x) || x < 0) return -1;
    if (*end == '%') {
        x /= 100;
        end++;
    } else if (x >= 1) {
        x /= 100;
    }
    if (*end || x > 0.9) return -1;
    *out = x;
    return 0;
}

static int parse_cooldown(const char *flag, const char *v, int64_t *out) {
    double s;
    if (smfw_parse_duration(v, &s) != 0 || s < 0 || s > 86400 * 365) {
        smfw_log(SMFW_LOG_ERROR, NULL, "--%s wants a duration such as 300s or 5m, not \"%s\"", flag,
                 v);
        return 1;
    }
    *out = (int64_t)llround(s);
    return 0;
}

static int parse_args(const smfw_command_context *ctx, as_args *a) {
    memset(a, 0, sizeof *a);
    a->headroom = 0.10;
    a->instances = 1;
    a->out_cooldown = a->in_cooldown = 300; /* Application Auto Scaling's SageMaker default */
    a->policy = DEFAULT_POLICY;
    const char *v;
    if ((v = smfw_command_get(ctx, "headroom")) && parse_headroom(v, &a->headroom) != 0) {
        smfw_log(SMFW_LOG_ERROR, NULL,
                 "--headroom wants a percentage from 0%% to 90%% such as 10%%, not \"%s\"", v);
        return 1;
    }
    if ((v = smfw_command_get(ctx, "instances"))) {
        char *end = NULL;
        long n = strtol(v, &end, 10);
        if (end == v || *end || n < 1 || n > 100000) {
            smfw_log(SMFW_LOG_ERROR, NULL,
                     "--instances wants a whole number of at least 1, not \"%s\"", v);
            return 1;
        }
        a->instances = (double)n;
    }
    if ((v = smfw_command_get(ctx, "scale-out-cooldown")) &&
        parse_cooldown("scale-out-cooldown", v, &a->out_cooldown))
        return 1;
    if ((v = smfw_command_get(ctx, "scale-in-cooldown")) &&
        parse_cooldown("scale-in-cooldown", v, &a->in_cooldown))
        return 1;
    if ((v = smfw_command_get(ctx, "policy-name"))) {
        size_t n = strlen(v);
        /* The model's PolicyName: 1-256 characters, no ':' or '/' (pattern \p{Print}&&[^|:/]). */
        if (n < 1 || n > 256 || strpbrk(v, ":/|")) {
            smfw_log(SMFW_LOG_ERROR, NULL,
                     "--policy-name wants 1-256 characters without ':', '/' or '|', not \"%s\"", v);
            return 1;
        }
        a->policy = v;
    }
    a->variant = smfw_command_get(ctx, "variant");
    a->journal = smfw_command_get(ctx, "journal");
    a->suspend = smfw_command_get(ctx, "suspend-scaling") != NULL;
    const smfw_settings *run = smfw_config_section(ctx->config, "run");
    a->endpoint = smfw_settings_get(run, "endpoint");
    a->component = smfw_settings_get(run, "inference_component");
    return 0;
}

/* The target: the flags, else what the folder recorded. */
static int resolve_target(const as_args *a, const aas_plan *plan, aas_target *t) {
    const char *ep = a->endpoint, *ic = a->component;
    if (!ep && !ic && plan) {
        if (plan->inference_component[0]) ic = plan->inference_component;
        if (plan->endpoint[0]) ep = plan->endpoint;
    }
    if (ep && strcmp(ep, "mock") == 0 && !ic) {
        smfw_log(SMFW_LOG_ERROR, NULL,
                 "autoscaling needs a SageMaker endpoint, not \"mock\" (a private smfw-mock): "
                 "pass --endpoint NAME");
        return 1;
    }
    smfw_error err;
    smfw_error_clear(&err);
    if (aas_target_set(t, ep, a->variant, ic, &err) != SMFW_OK) return aws_command_fail(&err);
    return 0;
}

static void explain(const as_args *a, const aas_plan *p, const aas_target *t, const char *dir) {
    SMFW_LOG_INFO(NULL, "%s: operating level %s %g: %s", dir,
                  p->load_is_rate ? "request rate" : "concurrency", p->load, p->why);
    SMFW_LOG_INFO(NULL,
                  "%g in flight per %s (%g over %g %s%s) x 60 / %.3f s mean request latency = "
                  "%.1f invocations per minute per %s (Little's law)",
                  p->concurrency, t->unit, p->concurrency * p->instances, p->instances, t->unit,
                  p->instances == 1 ? "" : "s", p->mean_duration_s, p->invocations_per_minute,
                  t->unit);
    SMFW_LOG_INFO(NULL, "%s target %.0f: %.0f%% headroom below that for scale-out time, floored",
                  t->metric, p->target, a->headroom * 100);
    if (isfinite(p->measured_per_minute))
        SMFW_LOG_INFO(NULL, "cross-check: measured %.1f requests per minute per %s there",
                      p->measured_per_minute, t->unit);
}

static int plan_for(const smfw_command_context *ctx, const as_args *a, const char *dir,
                    aas_target *t, json_t **req) {
    aas_plan p;
    smfw_error err;
    smfw_error_clear(&err);
    if (aas_plan_from_dir(dir, a->headroom, a->instances, &p, &err) != SMFW_OK)
        return aws_command_fail(&err);
    int rc = resolve_target(a, &p, t);
    if (rc) return rc;
    if (ctx->verbosity >= 0) explain(a, &p, t, dir);
    *req = aas_policy_request(t, a->policy, &p, a->out_cooldown, a->in_cooldown);
    return *req ? 0 : 1;
}

static int client_region(const smfw_command_context *ctx, smfw_aws_client **client,
                         const char **region) {
    smfw_aws_options o;
    smfw_aws_options_from_config(ctx->config, &o);
    smfw_error err;
    smfw_error_clear(&err);
    if (smfw_aws_client_new(&o, client, &err) != SMFW_OK) return aws_command_fail(&err);
    if (smfw_aws_client_region(*client, region, &err) != SMFW_OK) return aws_command_fail(&err);
    return 0;
}

/* Refuse a target Application Auto Scaling does not know: nothing to scale. */
static int require_target(smfw_aws_client *c, const aas_target *t, const char *region, int64_t *lo,
                          int64_t *hi) {
    smfw_error err;
    smfw_error_clear(&err);
    int found = 0;
    if (aas_describe_target(c, t, &found, lo, hi, NULL, &err) != SMFW_OK)
        return aws_command_fail(&err);
    if (!found) {
        smfw_log(SMFW_LOG_ERROR, NULL,
                 "%s (%s) is not a scalable target in %s: register it first (aws "
                 "application-autoscaling register-scalable-target)",
                 t->resource_id, t->dimension, region);
        return 2;
    }
    return 0;
}

static int cmd_apply(const smfw_command_context *ctx, const as_args *a, const char *dir) {
    aas_target t;
    json_t *req = NULL, *prev = NULL, *journal = NULL, *entry = NULL;
    smfw_aws_client *c = NULL;
    const char *region = NULL;
    smfw_error err;
    smfw_error_clear(&err);
    int64_t lo, hi;
    char path[4096], kind[300];
    int rc = plan_for(ctx, a, dir, &t, &req);
    if (!rc) rc = client_region(ctx, &c, &region);
    if (!rc) rc = require_target(c, &t, region, &lo, &hi);
    if (rc) goto done;
    snprintf(kind, sizeof kind, "policy-%s", a->policy);
    if (aas_journal_path(a->journal, region, &t, kind, path, sizeof path, &err) != SMFW_OK ||
        aas_describe_policy(c, &t, a->policy, &prev, &err) != SMFW_OK ||
        aas_journal_read(path, &journal, &err) != SMFW_OK) {
        rc = aws_command_fail(&err);
        goto done;
    }
    json_t *before = prev ? aas_policy_request_from_described(prev) : NULL;
    if (journal) {
        /* An earlier apply was not rolled back: rollback still goes to the state before it. */
        entry = json_incref(journal);
        json_object_set(entry, "applied", req);
        SMFW_LOG_INFO(NULL, "%s already holds the policy from before an earlier apply; keeping it",
                      path);
    } else {
        entry = json_pack("{s:i,s:s,s:s,s:s,s:s,s:s,s:O?,s:O}", "smfw_autoscaling_journal", 1,
                          "kind", "policy", "region", region, "resource_id", t.resource_id,
                          "scalable_dimension", t.dimension, "policy_name", a->policy, "previous",
                          before, "applied", req);
    }
    json_object_set_new(entry, "applied_at_unix_s",
                        json_integer((json_int_t)(smfw_now_wall_ns() / 1000000000LL)));
    if (aas_journal_write(path, entry, &err) != SMFW_OK) {
        json_decref(before);
        rc = aws_command_fail(&err);
        goto done;
    }
    if (aas_call(c, "PutScalingPolicy", req, NULL, &err) != SMFW_OK) {
        json_decref(before);
        rc = aws_command_fail(&err);
        /* Nothing changed: the journal would only make rollback restore what is there. */
        if (!journal) unlink(path);
        goto done;
    }
    fprintf(ctx->out, "PutScalingPolicy %s on %s (%s) in %s:\n", a->policy, t.resource_id,
            t.dimension, region);
    if (aas_print_changes(ctx->out, before, req) == 0) fprintf(ctx->out, "  (no change)\n");
    fprintf(ctx->out, "%s journaled in %s (`smfw autoscaling rollback` restores it)\n",
            before || (journal && json_is_object(json_object_get(journal, "previous")))
                ? "the previous policy is"
                : "there was no policy of that name before; that is",
            path);
    json_decref(before);
done:
    json_decref(req);
    json_decref(prev);
    json_decref(journal);
    json_decref(entry);
    smfw_aws_client_free(c);
    return rc;
}

static int cmd_rollback(const smfw_command_context *ctx, const as_args *a) {
    aas_target t;
    json_t *cur = NULL, *journal = NULL, *restore = NULL, *now = NULL;
    smfw_aws_client *c = NULL;
    const char *region = NULL;
    smfw_error err;
    smfw_error_clear(&err);
    char path[4096], kind[300];
    int rc = resolve_target(a, NULL, &t);
    if (!rc) rc = client_region(ctx, &c, &region);
    if (rc) goto done;
    snprintf(kind, sizeof kind, "policy-%s", a->policy);
    if (aas_journal_path(a->journal, region, &t, kind, path, sizeof path, &err) != SMFW_OK ||
        aas_journal_read(path, &journal, &err) != SMFW_OK) {
        rc = aws_command_fail(&err);
        goto done;
    }
    if (!journal) {
        smfw_log(SMFW_LOG_ERROR, NULL,
                 "nothing to roll back: no policy %s applied by smfw on %s in %s is journaled "
                 "(%s)",
                 a->policy, t.resource_id, region, path);
        rc = 1;
        goto done;
    }
    if (aas_describe_policy(c, &t, a->policy, &cur, &err) != SMFW_OK) {
        rc = aws_command_fail(&err);
        goto done;
    }
    now = cur ? aas_policy_request_from_described(cur) : NULL;
    json_t *prev = json_object_get(journal, "previous");
    if (json_is_object(prev)) {
        restore = aas_policy_request_from_described(prev);
        if (aas_call(c, "PutScalingPolicy", restore, NULL, &err) != SMFW_OK) {
            rc = aws_command_fail(&err);
            goto done;
        }
        fprintf(ctx->out, "restored policy %s on %s (%s) in %s:\n", a->policy, t.resource_id,
                t.dimension, region);
        if (aas_print_changes(ctx->out, now, restore) == 0) fprintf(ctx->out, "  (no change)\n");
    } else if (cur) {
        if (aas_delete_policy(c, &t, a->policy, &err) != SMFW_OK) {
            rc = aws_command_fail(&err);
            goto done;
        }
        fprintf(ctx->out, "deleted policy %s on %s (%s) in %s: there was none before apply\n",
                a->policy, t.resource_id, t.dimension, region);
        aas_print_changes(ctx->out, now, NULL);
    } else {
        fprintf(ctx->out, "policy %s on %s in %s is already gone; nothing to delete\n", a->policy,
                t.resource_id, region);
    }
    if (unlink(path) != 0) {
        smfw_log(SMFW_LOG_ERROR, NULL, "rolled back, but cannot remove %s: %s", path,
                 strerror(errno));
        rc = 1;
    }
done:
    json_decref(cur);
    json_decref(now);
    json_decref(journal);
    json_decref(restore);
    smfw_aws_client_free(c);
    return rc;
}

/* "MinCapacity A -> B, MaxCapacity C -> D" and, when the SuspendedState was set or put back,
 * its three members the same way. */
static void describe_change(char *buf, size_t size, const aas_pin_result *r) {
    int n = snprintf(buf, size, "MinCapacity %lld -> %lld, MaxCapacity %lld -> %lld",
                     (long long)r->min_before, (long long)r->min_after, (long long)r->max_before,
                     (long long)r->max_after);
    if (r->suspended && n > 0 && (size_t)n + 2 < size) {
        snprintf(buf + n, size - (size_t)n, ", ");
        aas_suspended_changes(buf + n + 2, size - (size_t)n - 2, &r->suspended_before,
                              &r->suspended_after);
    }
}

static void print_capacity(FILE *out, const char *what, const aas_target *t,
                           const aas_pin_result *r) {
    char change[512];
    describe_change(change, sizeof change, r);
    fprintf(out, "%s %s (%s): %s\n", what, t->resource_id, t->dimension, change);
}

/* pin, unpin and restore: the capacity of the target of --endpoint/--inference-component. */
static int cmd_capacity(const smfw_command_context *ctx, const as_args *a, const char *action) {
    aas_target t;
    smfw_aws_client *c = NULL;
    const char *region = NULL;
    smfw_error err;
    smfw_error_clear(&err);
    char path[4096];
    aas_pin_result r;
    json_t *j = NULL;
    FILE *out = ctx->verbosity >= 0 ? ctx->out : NULL;
    /* The managed backend without --run prints its plan and sends no load: nothing to hold. */
    const smfw_settings *prog = smfw_config_section(ctx->config, "smfw");
    const char *backend = smfw_settings_get(prog, "backend");
    if (strcmp(action, "restore") != 0 && backend && strcmp(backend, "managed") == 0 &&
        !smfw_settings_get_bool(prog, "run", 0)) {
        if (out && action[0] == 'p') fprintf(out, "a managed dry run sends no load: not pinned\n");
        return 0;
    }
    int rc = resolve_target(a, NULL, &t);
    if (!rc) rc = client_region(ctx, &c, &region);
    if (rc) goto done;
    if (aas_journal_path(a->journal, region, &t, "pin", path, sizeof path, &err) != SMFW_OK ||
        aas_journal_read(path, &j, &err) != SMFW_OK) {
        rc = aws_command_fail(&err);
        goto done;
    }
    int is_pin = strcmp(action, "pin") == 0;
    if (j && strcmp(action, "unpin") != 0) {
        char change[512];
        /* A pin journaled by another process: stale when that process is gone. */
        json_t *pid = json_object_get(j, "pid");
        pid_t p = json_is_integer(pid) ? (pid_t)json_integer_value(pid) : 0;
        if (is_pin && p > 0 && p != getpid() && (kill(p, 0) == 0 || errno == EPERM)) {
            smfw_log(SMFW_LOG_ERROR, NULL,
                     "%s is pinned by a running smfw (pid %ld, journal %s): benchmark it after "
                     "that one ends, or run `smfw autoscaling restore` if it is not smfw",
                     t.resource_id, (long)p, path);
            rc = 1;
            goto done;
        }
        if (aas_unpin(c, &t, path, &r, &err) != SMFW_OK) {
            rc = aws_command_fail(&err);
            goto done;
        }
        describe_change(change, sizeof change, &r);
        SMFW_LOG_WARN(NULL,
                      "%s was still pinned by an earlier smfw (pid %ld) that did not restore it; "
                      "restored: %s",
                      t.resource_id, r.pid, change);
    } else if (strcmp(action, "restore") == 0) {
        if (out)
            fprintf(out, "no pin of %s in %s is journaled (%s): nothing to restore\n",
                    t.resource_id, region, path);
    }
    if (is_pin) {
        if (aas_pin(c, &t, region, path, a->suspend, &r, &err) != SMFW_OK) {
            rc = aws_command_fail(&err);
            goto done;
        }
        if (out) {
            print_capacity(out, "pinned", &t, &r);
            fprintf(out, "  (the current count %lld; journaled in %s until it is restored)\n",
                    (long long)r.desired, path);
        }
    } else if (strcmp(action, "unpin") == 0) {
        if (aas_unpin(c, &t, path, &r, &err) != SMFW_OK) {
            rc = aws_command_fail(&err);
            goto done;
        }
        if (!r.restored)
            SMFW_LOG_WARN(NULL, "no pin of %s is journaled (%s): nothing to restore", t.resource_id,
                          path);
        else if (out)
            print_capacity(out, "restored", &t, &r);
    }
done:
    json_decref(j);
    smfw_aws_client_free(c);
    return rc;
}

static int autoscaling_main(const smfw_command_context *ctx, int argc, char **argv) {
    /* Another command (run/sweep --pin-capacity) names the action as an option. */
    const char *sub = argc > 1 ? argv[1] : smfw_command_get(ctx, "action");
    as_args a;
    if (!sub) {
        smfw_log(SMFW_LOG_ERROR, NULL,
                 "name what to do: plan DIR, apply DIR, rollback, pin, unpin or restore (see `smfw "
                 "autoscaling --help`)");
        return 1;
    }
    if (parse_args(ctx, &a) != 0) return 1;
    if (a.suspend && strcmp(sub, "pin") != 0) {
        smfw_log(SMFW_LOG_ERROR, NULL,
                 "--suspend-scaling goes with pin (unpin and restore put back what the pin "
                 "journaled, SuspendedState included)");
        return 1;
    }
    int wants_dir = strcmp(sub, "plan") == 0 || strcmp(sub, "apply") == 0;
    if (wants_dir ? argc != 3 : argc > 2) {
        smfw_log(SMFW_LOG_ERROR, NULL, "usage: smfw autoscaling %s%s", sub,
                 wants_dir ? " RUN_OR_SWEEP_DIR" : "");
        return 1;
    }
    if (strcmp(sub, "plan") == 0) {
        aas_target t;
        json_t *req = NULL;
        int rc = plan_for(ctx, &a, argv[2], &t, &req);
        if (rc) return rc;
        char *text = json_dumps(req, JSON_INDENT(2) | JSON_PRESERVE_ORDER);
        json_decref(req);
        if (!text) return 1;
        fprintf(ctx->out, "%s\n", text);
        free(text);
        return 0;
    }
    if (strcmp(sub, "apply") == 0) return cmd_apply(ctx, &a, argv[2]);
    if (strcmp(sub, "rollback") == 0) return cmd_rollback(ctx, &a);
    if (strcmp(sub, "pin") == 0 || strcmp(sub, "unpin") == 0 || strcmp(sub, "restore") == 0)
        return cmd_capacity(ctx, &a, sub);
    smfw_log(SMFW_LOG_ERROR, NULL,
             "unknown autoscaling action \"%s\" (plan, apply, rollback, pin, unpin or restore)",
             sub);
    return 1;
}

static const smfw_command_option as_options[] = {
    {"headroom", 1, "PCT", "target this far below the measured limit (default 10%)"},
    {"instances", 1, "N",
     "instances (copies) the benchmark ran against (default 1): the rate is per one"},
    {"scale-out-cooldown", 1, "TIME", "ScaleOutCooldown (default 300s)"},
    {"scale-in-cooldown", 1, "TIME", "ScaleInCooldown (default 300s)"},
    {"policy-name", 1, "NAME", "the scaling policy's name (default " DEFAULT_POLICY ")"},
    {"variant", 1, "NAME", "production variant (default AllTraffic)"},
    {"journal", 1, "DIR",
     "where apply saves the policy it replaces (default $XDG_STATE_HOME/smfw/autoscaling)"},
    {"action", 1, "ACTION",
     "the action, for commands that run this one (run/sweep --pin-capacity: pin, unpin)"},
    {"suspend-scaling", 0, NULL,
     "pin: also suspend the target's dynamic scaling, in and out (SuspendedState; unpin puts "
     "the original back)"},
    SMFW_COMMAND_OPTIONS_END};

const smfw_command_def aws_command_autoscaling = {
    sizeof(smfw_command_def),
    "autoscaling",
    "the target-tracking policy a benchmark asks for: plan, apply, rollback",
    "Usage: smfw autoscaling plan RUN_OR_SWEEP_DIR [--headroom 10%] [--instances N]\n"
    "                         [--scale-out-cooldown 300s] [--scale-in-cooldown 300s]\n"
    "       smfw autoscaling apply RUN_OR_SWEEP_DIR [same options] [--journal DIR]\n"
    "       smfw autoscaling rollback [--endpoint NAME [--variant V] | --inference-component "
    "IC]\n"
    "       smfw autoscaling pin [--suspend-scaling] [the same target options]\n"
    "       smfw autoscaling unpin|restore [the same target options]\n\n"
    "plan prints the PutScalingPolicy request of a target-tracking policy on\n"
    "SageMakerVariantInvocationsPerInstance (SageMakerInferenceComponentInvocationsPerCopy for\n"
    "an inference component): at the folder's operating level (a sweep's knee, as `smfw sweep`\n"
    "finds it without --slo; a run's own level) C requests are in flight per instance and each\n"
    "lasts D seconds (mean request latency), so one instance completes C x 60 / D invocations\n"
    "per minute; the target is --headroom below that, floored. apply checks the scalable target\n"
    "exists, journals the policy of that name it replaces (none: rollback deletes the new one),\n"
    "sends PutScalingPolicy and prints what changed. The endpoint is --endpoint or the one the\n"
    "folder recorded.\n\n"
    "pin sets MinCapacity = MaxCapacity = the current desired count (DescribeEndpoint or\n"
    "DescribeInferenceComponent), the originals journaled first; unpin puts them back; restore\n"
    "puts back a pin a benchmark left (killed, crashed) and says so. `smfw run --pin-capacity`\n"
    "and `smfw sweep --pin-capacity` pin before the load and unpin after it, Ctrl-C included;\n"
    "a pin finds and restores a stale one first. pin --suspend-scaling (run/sweep\n"
    "--suspend-scaling) also sets SuspendedState DynamicScalingInSuspended and\n"
    "DynamicScalingOutSuspended (scheduled scaling as it was), the original journaled with the\n"
    "capacities and put back with them. See docs/capacity.md.",
    as_options,
    autoscaling_main};
