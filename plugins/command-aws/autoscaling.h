/*
 * autoscaling.h - Application Auto Scaling for SageMaker (private to the
 * command plugin aws): which scalable target a benchmark addressed, the
 * target-tracking policy that follows from its folder, the awsJson calls
 * smfw makes, and the local journal that lets `rollback` undo an `apply`.
 */
#ifndef SMFW_COMMAND_AWS_AUTOSCALING_H
#define SMFW_COMMAND_AWS_AUTOSCALING_H

#include <jansson.h>

#include <smfw/aws.h>

#ifdef __cplusplus
extern "C" {
#endif

/** A SageMaker scalable target: a production variant or an inference component. */
typedef struct aas_target {
    char resource_id[1700]; /**< endpoint/NAME/variant/VARIANT or inference-component/NAME */
    const char *dimension;  /**< sagemaker:variant:DesiredInstanceCount or ...:DesiredCopyCount */
    const char *metric;     /**< the predefined metric of its target-tracking policy */
    const char *unit;       /**< "instance" or "copy", for sentences */
    int component;          /**< 1 for an inference component */
    char name[256];         /**< the endpoint's or the component's name */
    char variant[256];      /**< the variant ("" for a component) */
} aas_target;

/** Fill a target from an endpoint and variant, or an inference component (which wins).
 *  SMFW_ERR_USAGE when neither is named or a name does not fit. */
smfw_status aas_target_set(aas_target *t, const char *endpoint, const char *variant,
                           const char *inference_component, smfw_error *err);

/** What `plan` derives from a run or sweep folder. */
typedef struct aas_plan {
    /* per instance (copy), smfw_autoscaling_compute's numbers (<smfw/capacity.h>) */
    double concurrency;            /**< in flight per instance: the level's / instances */
    double mean_duration_s;        /**< mean request latency there */
    double invocations_per_minute; /**< concurrency x 60 / mean_duration_s */
    double headroom;               /**< fraction kept free */
    double target;                 /**< floor(invocations_per_minute x (1 - headroom)), >= 1 */
    double load; /**< the operating level as measured (concurrency or requests/s) */
    int load_is_rate;
    double instances;           /**< instances (copies) the benchmark ran against */
    char why[256];              /**< why that level */
    double measured_per_minute; /**< request throughput x 60 / instances there (cross-check) */
    char endpoint[256], inference_component[256]; /**< as the folder recorded them ("" none) */
} aas_plan;

/**
 * Read a run folder (profile_export*.json*) or a sweep folder (concurrency_<N>/ or an
 * AIPerf multi-run folder) and compute the per-instance target at its operating point:
 * the knee, as `smfw sweep` finds it without --slo (a run folder is its own level).
 * Errors name the folder.
 */
smfw_status aas_plan_from_dir(const char *dir, double headroom, double instances, aas_plan *out,
                              smfw_error *err);

/** The PutScalingPolicy request of a plan (a new reference). */
json_t *aas_policy_request(const aas_target *t, const char *policy_name, const aas_plan *plan,
                           int64_t scale_out_cooldown_s, int64_t scale_in_cooldown_s);

/** The PutScalingPolicy request that puts back a policy DescribeScalingPolicies returned
 *  (its input members only; a new reference). */
json_t *aas_policy_request_from_described(const json_t *policy);

/* ---- calls (awsJson 1.1, AnyScaleFrontendService) ---- */

/** One awsJson call with a jansson request; *response (may be NULL) gets the parsed answer. */
smfw_status aas_call(smfw_aws_client *client, const char *operation, const json_t *request,
                     json_t **response, smfw_error *err);

/** A scalable target's SuspendedState: 1 where that scaling activity is suspended. */
typedef struct aas_suspended {
    int dynamic_in;  /**< DynamicScalingInSuspended */
    int dynamic_out; /**< DynamicScalingOutSuspended */
    int scheduled;   /**< ScheduledScalingSuspended */
} aas_suspended;

/** Write "DynamicScalingInSuspended A -> B, DynamicScalingOutSuspended ...,
 * ScheduledScalingSuspended
 *  ..." (all three, as the capacities are printed) into buf. */
void aas_suspended_changes(char *buf, size_t size, const aas_suspended *before,
                           const aas_suspended *after);

/** The JSON form of a SuspendedState (the model's three members; a new reference). */
json_t *aas_suspended_json(const aas_suspended *s);

/** Read one: -1 unless v is an object whose members present are booleans (a member absent is
 *  false, AWS's default). */
int aas_suspended_from_json(const json_t *v, aas_suspended *out);

/** DescribeScalableTargets for t: *found 0 when it is not registered, else its capacities
 *  and (suspended not NULL) its SuspendedState (none described: nothing suspended). */
smfw_status aas_describe_target(smfw_aws_client *client, const aas_target *t, int *found,
                                int64_t *min_capacity, int64_t *max_capacity,
                                aas_suspended *suspended, smfw_error *err);

/** DescribeScalingPolicies for t and one policy name: *policy NULL when there is none. */
smfw_status aas_describe_policy(smfw_aws_client *client, const aas_target *t, const char *name,
                                json_t **policy, smfw_error *err);

/** DeleteScalingPolicy. */
smfw_status aas_delete_policy(smfw_aws_client *client, const aas_target *t, const char *name,
                              smfw_error *err);

/** RegisterScalableTarget with these capacities and, when suspended is not NULL, that
 *  SuspendedState (all three members sent; NULL: left as it is). */
smfw_status aas_register_target(smfw_aws_client *client, const aas_target *t, int64_t min_capacity,
                                int64_t max_capacity, const aas_suspended *suspended,
                                smfw_error *err);

/* ---- pinning the capacity for a benchmark (autoscaling_pin.c) ---- */

/** What a pin did or restored, for the sentences. */
typedef struct aas_pin_result {
    int64_t min_before, max_before, min_after, max_after;
    int64_t desired;   /**< the count pinned (pin) */
    int restored;      /**< restore: 1 when a journaled pin was undone */
    long pid;          /**< the process that pinned (restore) */
    int64_t pinned_at; /**< Unix seconds (restore) */
    int suspended;     /**< 1 when the SuspendedState was set (pin) or put back (restore) */
    aas_suspended suspended_before, suspended_after; /**< when suspended */
} aas_pin_result;

/**
 * Pin: the current count (DescribeEndpoint's CurrentInstanceCount, or
 * DescribeInferenceComponent's RuntimeConfig.CurrentCopyCount), the target's
 * MinCapacity/MaxCapacity journaled at `journal_path` (durably, first), then
 * RegisterScalableTarget with Min = Max = that count. With `suspend`, the target's
 * SuspendedState is journaled too and the same call suspends dynamic scaling (in and
 * out; scheduled scaling as it was). SMFW_ERR_NOT_FOUND when the target is not
 * registered (nothing changed).
 */
smfw_status aas_pin(smfw_aws_client *client, const aas_target *t, const char *region,
                    const char *journal_path, int suspend, aas_pin_result *out, smfw_error *err);

/**
 * Restore the capacities a pin journaled at `journal_path` (and its SuspendedState when it
 * journaled one: a pin journaled without one, as before --suspend-scaling, restores only the
 * capacities) and remove the journal; out->restored 0 when there was none.
 */
smfw_status aas_unpin(smfw_aws_client *client, const aas_target *t, const char *journal_path,
                      aas_pin_result *out, smfw_error *err);

/* ---- the journal ---- */

/**
 * The journal file of one kind ("policy-NAME", "pin") for a target in a region:
 * DIR/REGION_RESOURCE.KIND.json, DIR being `dir` when given, else
 * $XDG_STATE_HOME/smfw/autoscaling, else ~/.local/state/smfw/autoscaling.
 * SMFW_ERR_CONFIG when no folder can be named.
 */
smfw_status aas_journal_path(const char *dir, const char *region, const aas_target *t,
                             const char *kind, char *path, size_t size, smfw_error *err);

/** Write a journal entry durably (a temporary beside it, fsync, rename), creating its folder. */
smfw_status aas_journal_write(const char *path, const json_t *entry, smfw_error *err);

/** Read one: *entry NULL when the file does not exist; a damaged file is an error naming it. */
smfw_status aas_journal_read(const char *path, json_t **entry, smfw_error *err);

/** Print "  KEY: OLD -> NEW" for every leaf that differs between two policy requests
 *  (either may be NULL: absent); returns how many lines. */
int aas_print_changes(FILE *out, const json_t *before, const json_t *after);

#ifdef __cplusplus
}
#endif
#endif /* SMFW_COMMAND_AWS_AUTOSCALING_H */
