/*
 * dataset.h - the dataset interface: where prompts and output budgets come from.
 *
 * A dataset plugin yields prompts one by one (open, next... until SMFW_DONE,
 * close). The core reads them all into an smfw_prompt_set before a run starts
 * (so every bad line is reported before anything is sent), samples it
 * (shuffle or sequential, seeded) and hands the set to the backend.
 *
 * Settings: the plugin's own section "dataset.<name>" plus the common
 * section "dataset" (file, sampling, seed, token means/stddevs), passed
 * pre-parsed in smfw_dataset_params.
 */
#ifndef SMFW_DATASET_H
#define SMFW_DATASET_H

#include <smfw/config.h>
#include <smfw/smfw.h>

#ifdef __cplusplus
extern "C" {
#endif

/**
 * One prompt. Strings are heap-allocated (malloc) by whoever fills the
 * prompt and freed with smfw_prompt_clear(); the set owns the prompts it
 * holds.
 */
typedef struct smfw_prompt {
    char *text;            /**< UTF-8 prompt text, NUL-terminated (several texts joined by "\n") */
    size_t text_len;       /**< strlen(text) */
    int64_t output_length; /**< output budget in tokens; 0 = none given (backends use the
                              mean/stddev) */
    char *session_id;      /**< conversation id for multi-turn replay, NULL for single-turn */
    int32_t turn_index;    /**< 0-based turn within the session */
    int64_t timestamp_ms;  /**< fixed-schedule send time (ms from the start), -1 if none */
    int64_t delay_ms;      /**< delay before this turn (ms), -1 if none */
    int64_t
        input_tokens; /**< token count if the source knows it (estimated or exact), -1 if unknown */
    char *role;       /**< message role for chat payloads, NULL = "user" */
} smfw_prompt;

/** Free the strings of a prompt and zero it (the struct itself is not freed). */
SMFW_API void smfw_prompt_clear(smfw_prompt *prompt);

/** Options common to every dataset plugin (section "dataset"). */
typedef struct smfw_dataset_params {
    uint32_t size;         /**< sizeof(smfw_dataset_params) of the core */
    const char *file;      /**< --dataset-file, NULL if not given */
    const char *data_dir;  /**< folder holding the bundled datasets (installed or source tree) */
    const char *cache_dir; /**< $XDG_CACHE_HOME/smfw or ~/.cache/smfw */
    uint64_t random_seed;  /**< --random-seed */
    double input_tokens_mean, input_tokens_stddev;   /**< for sources without lengths */
    double output_tokens_mean, output_tokens_stddev; /**< for sources without budgets */
    int64_t count_hint; /**< how many prompts the run will use (-1 unknown) */
    int quiet;          /**< no progress bars */
    /* Added after 1.0: check `size` before reading what follows. */
    const char *tokenizer; /**< [run] tokenizer SPEC (exact token lengths), NULL if none */
} smfw_dataset_params;

/** Identity of an opened dataset, recorded in the run metadata. */
typedef struct smfw_dataset_info {
    char name[64];          /**< plugin name */
    char file[1024];        /**< source file, "" if none */
    char sha256[65];        /**< hex SHA-256 of the source file's bytes, "" if none */
    int64_t count;          /**< prompts, -1 if unknown before reading */
    char token_lengths[32]; /**< "estimated", "exact", "recorded" or "" */
    char format[64];        /**< e.g. "single_turn", "multi_turn", "mooncake_trace", "sharegpt" */
} smfw_dataset_info;

/** Operations of a dataset plugin. Optional slots may be NULL. */
typedef struct smfw_dataset_ops {
    uint32_t size; /**< sizeof(smfw_dataset_ops) the plugin was built with */

    /** Required. Open the source. *ctx is the plugin's instance. */
    smfw_status (*open)(const smfw_settings *settings, const smfw_dataset_params *params,
                        void **ctx, smfw_error *err);

    /**
     * Required. Fill *out (zeroed by the caller) with the next prompt and
     * return SMFW_OK, or return SMFW_DONE at the end. A bad record returns an
     * error naming file, line and field; the core keeps calling next() to
     * collect every error of the file (up to a limit) unless the status is
     * SMFW_ERR_IO.
     */
    smfw_status (*next)(void *ctx, smfw_prompt *out, smfw_error *err);

    /** Required. Identity of the source (may be called any time after open). */
    void (*info)(void *ctx, smfw_dataset_info *out);

    /** Required. Release the instance. */
    void (*close)(void *ctx);

    /** Optional. Answer "not supported" (SMFW_ERR_UNSUPPORTED) for unknown ops. */
    smfw_status (*control)(void *ctx, int op, void *arg);
} smfw_dataset_ops;

/** An in-memory set of prompts, built by the core from a dataset plugin. */
typedef struct smfw_prompt_set {
    smfw_prompt *prompts;
    size_t count;
    smfw_dataset_info info;
} smfw_prompt_set;

/** Sampling orders. */
typedef enum smfw_sampling {
    SMFW_SAMPLING_SHUFFLE = 0,   /**< seeded random order, each prompt once per pass */
    SMFW_SAMPLING_SEQUENTIAL = 1 /**< file order, wrapping around */
} smfw_sampling;

/**
 * Read every prompt of an opened dataset into a new set. Errors of bad
 * records are collected (up to max_errors) into one message, one line per
 * error, and the function fails with SMFW_ERR_CONFIG if there was any.
 */
SMFW_API smfw_status smfw_prompt_set_load(const smfw_dataset_ops *ops, void *ctx,
                                          smfw_prompt_set **out, size_t max_errors,
                                          smfw_error *err);

/** Free a set and its prompts. NULL is allowed. */
SMFW_API void smfw_prompt_set_free(smfw_prompt_set *set);

/**
 * Reorder the set for sampling (shuffle with the seed, or keep file order).
 * Afterwards the i-th request uses prompts[i % count].
 */
SMFW_API void smfw_prompt_set_order(smfw_prompt_set *set, smfw_sampling sampling, uint64_t seed);

/** Write the set as {"text": ..., "output_length": N} JSONL (for staging to S3). */
SMFW_API smfw_status smfw_prompt_set_write_jsonl(const smfw_prompt_set *set, const char *path,
                                                 smfw_error *err);

/**
 * Estimate the token count of a text the way smfw does when no tokenizer is
 * available (about 4 characters per token, word-aware). Deterministic.
 */
SMFW_API int64_t smfw_estimate_tokens(const char *text, size_t len);

#ifdef __cplusplus
}
#endif
#endif /* SMFW_DATASET_H */
