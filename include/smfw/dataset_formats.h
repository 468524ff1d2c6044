/*
 * dataset_formats.h - readers of the dataset file formats, shared by the
 * dataset plugins, `smfw dataset` and any third-party dataset plugin.
 *
 *  - JSONL (AIPerf custom datasets): single_turn, multi_turn, mooncake_trace.
 *    Every line is validated; a bad line is an error naming the file, the
 *    line and the field, and the reader moves on so that every error of a
 *    file can be listed.
 *  - ShareGPT JSON (the public feed): a streaming reader that never holds
 *    more than one conversation in memory.
 *  - A text corpus for synthetic prompts of a target (estimated) length.
 *  - Dataset utilities: SHA-256 of a file, download into a cache, length
 *    statistics, and the curation rule of the bundled-dataset workflow.
 *
 * All strings are UTF-8. Token counts are smfw_estimate_tokens() estimates.
 */
#ifndef SMFW_DATASET_FORMATS_H
#define SMFW_DATASET_FORMATS_H

#include <stdio.h>

#include <smfw/dataset.h>
#include <smfw/smfw.h>

#ifdef __cplusplus
extern "C" {
#endif

/* ---- text corpus (synthetic prompts) --------------------------------------------------------- */

/** A corpus of words; text of a target token length is cut from it. Immutable once loaded. */
typedef struct smfw_text_corpus smfw_text_corpus;

/** Load a UTF-8 text file (whitespace runs become single spaces). Fails on an empty corpus. */
SMFW_API smfw_status smfw_text_corpus_load(const char *path, smfw_text_corpus **out,
                                           smfw_error *err);

/** Same from memory (the text is copied). */
SMFW_API smfw_status smfw_text_corpus_from_text(const char *text, size_t len,
                                                smfw_text_corpus **out, smfw_error *err);

SMFW_API void smfw_text_corpus_free(smfw_text_corpus *corpus);

/** Number of words in the corpus. */
SMFW_API size_t smfw_text_corpus_words(const smfw_text_corpus *corpus);

/**
 * Text of exactly `tokens` estimated tokens (smfw_estimate_tokens), made of
 * consecutive corpus words starting at word `start % words` and wrapping
 * around (the last word may be cut). Returns a malloc'd NUL-terminated string
 * and its length in *len, or NULL when out of memory or tokens < 1.
 */
SMFW_API char *smfw_text_corpus_take(const smfw_text_corpus *corpus, uint64_t start, int64_t tokens,
                                     size_t *len);

/* ---- seeded randomness --------------------------------------------------------------------- */

/** splitmix64 step: the generator every dataset helper uses (reproducible across platforms). */
SMFW_API uint64_t smfw_dataset_rand_next(uint64_t *state);

/**
 * A normal sample (Box-Muller) rounded to the nearest integer and clamped to
 * at least `min`. stddev <= 0 gives round(mean).
 */
SMFW_API int64_t smfw_dataset_rand_normal(uint64_t *state, double mean, double stddev, int64_t min);

/* ---- JSONL (AIPerf custom dataset) ----------------------------------------------------------- */

/** Custom dataset line formats. */
typedef enum smfw_dataset_format {
    SMFW_DATASET_FORMAT_AUTO = 0,        /**< detected from the first valid line */
    SMFW_DATASET_FORMAT_SINGLE_TURN = 1, /**< text|texts, output_length, timestamp|delay, role */
    SMFW_DATASET_FORMAT_MULTI_TURN = 2,  /**< session_id, turns[] of single-turn objects */
    SMFW_DATASET_FORMAT_MOONCAKE = 3     /**< input_length|text_input, output_length, hash_ids... */
} smfw_dataset_format;

/** "auto", "single_turn", "multi_turn", "mooncake_trace". */
SMFW_API const char *smfw_dataset_format_name(smfw_dataset_format format);

/** Parse a format name (as above); returns 0, or -1 for an unknown name. */
SMFW_API int smfw_dataset_format_parse(const char *name, smfw_dataset_format *out);

/** Options of a JSONL reader. Zero-initialise, then set what you need. */
typedef struct smfw_jsonl_options {
    smfw_dataset_format format; /**< AUTO: from the first valid line; later lines must match */
    /**
     * Corpus file for mooncake_trace lines that give input_length instead of
     * text (loaded on first need). NULL: such lines are errors.
     */
    const char *corpus_path;
    int64_t block_tokens; /**< tokens per hash_ids block (mooncake); 0 = 512 */
    uint64_t seed;        /**< start words of synthesised text without hash_ids */
} smfw_jsonl_options;

typedef struct smfw_jsonl_reader smfw_jsonl_reader;

/**
 * Open a JSONL file (read into memory; its SHA-256 is computed on the way).
 * Fails with SMFW_ERR_IO when the file cannot be read.
 */
SMFW_API smfw_status smfw_jsonl_reader_open(const char *path, const smfw_jsonl_options *options,
                                            smfw_jsonl_reader **out, smfw_error *err);

/** Same over a memory buffer (copied); `name` is used in error messages. */
SMFW_API smfw_status smfw_jsonl_reader_open_memory(const char *name, const void *data, size_t len,
                                                   const smfw_jsonl_options *options,
                                                   smfw_jsonl_reader **out, smfw_error *err);

/**
 * The next prompt (one per single_turn or mooncake line, one per turn of a
 * multi_turn line). Blank lines are skipped. Returns SMFW_OK, SMFW_DONE at
 * the end, or SMFW_ERR_CONFIG for a bad line with a message
 * "FILE:LINE: field \"F\": what is wrong"; the reader has then moved past
 * that line, so calling again continues with the next one. *out must be
 * zeroed (or cleared) by the caller; it is filled only on SMFW_OK.
 */
SMFW_API smfw_status smfw_jsonl_reader_next(smfw_jsonl_reader *reader, smfw_prompt *out,
                                            smfw_error *err);

/** Format of the file (AUTO until a valid line was seen). */
SMFW_API smfw_dataset_format smfw_jsonl_reader_format(const smfw_jsonl_reader *reader);

/** Hex SHA-256 of the bytes read (64 characters and NUL). */
SMFW_API const char *smfw_jsonl_reader_sha256(const smfw_jsonl_reader *reader);

/** Lines read so far (including blank and bad ones). */
SMFW_API int64_t smfw_jsonl_reader_lines(const smfw_jsonl_reader *reader);

/** True when some prompt's text was synthesised from the corpus (mooncake input_length). */
SMFW_API int smfw_jsonl_reader_synthesised(const smfw_jsonl_reader *reader);

SMFW_API void smfw_jsonl_reader_free(smfw_jsonl_reader *reader);

/* ---- ShareGPT JSON (public feed) ------------------------------------------------------------- */

typedef struct smfw_sharegpt_reader smfw_sharegpt_reader;

/** Open a ShareGPT JSON file: a top-level array of {"id", "conversations": [{from, value}...]}. */
SMFW_API smfw_status smfw_sharegpt_reader_open(const char *path, smfw_sharegpt_reader **out,
                                               smfw_error *err);

/** Same over a memory buffer (copied); `name` is used in error messages. */
SMFW_API smfw_status smfw_sharegpt_reader_open_memory(const char *name, const void *data,
                                                      size_t len, smfw_sharegpt_reader **out,
                                                      smfw_error *err);

/**
 * The next usable conversation as a prompt: text = the value of the first
 * turn whose "from" is "human" (or "user"), output_length = the estimated
 * token count of the first "gpt" (or "assistant"/"chatgpt"/"bard"/"bing")
 * turn after it, the raw recorded answer length (it may be 1 token).
 * Conversations without such a pair, or with an empty prompt or answer, are
 * skipped and counted. Returns SMFW_OK, SMFW_DONE, SMFW_ERR_IO, or
 * SMFW_ERR_CONFIG when the file is not a ShareGPT array (with the byte
 * offset); after a structural error every later call returns SMFW_DONE.
 */
SMFW_API smfw_status smfw_sharegpt_reader_next(smfw_sharegpt_reader *reader, smfw_prompt *out,
                                               smfw_error *err);

/** Conversations seen and skipped so far. */
SMFW_API int64_t smfw_sharegpt_reader_seen(const smfw_sharegpt_reader *reader);
SMFW_API int64_t smfw_sharegpt_reader_skipped(const smfw_sharegpt_reader *reader);

SMFW_API void smfw_sharegpt_reader_free(smfw_sharegpt_reader *reader);

/* ---- files and downloads -------------------------------------------------------------------- */

/** Hex SHA-256 of a file's bytes into hex[65]. */
SMFW_API smfw_status smfw_file_sha256(const char *path, char hex[65], smfw_error *err);

/** Options of smfw_dataset_download(). */
typedef struct smfw_download_options {
    const char *sha256;    /**< expected hex SHA-256 (case-insensitive), NULL/"" = not checked */
    int quiet;             /**< no progress bar on stderr */
    long timeout_s;        /**< whole-transfer limit, 0 = none */
    const char *ca_bundle; /**< CA file for TLS, NULL = system default */
} smfw_download_options;

/**
 * Download `url` to `dest` atomically: the body goes to a temporary file in
 * the same folder (created with its parents), is checked against the
 * expected SHA-256, and is renamed over `dest` only when complete and
 * correct. HTTP errors (status >= 400), network failures and checksum
 * mismatches leave no file behind. The file's SHA-256 goes to sha256_out
 * (may be NULL).
 */
SMFW_API smfw_status smfw_dataset_download(const char *url, const char *dest,
                                           const smfw_download_options *options,
                                           char sha256_out[65], smfw_error *err);

/* ---- statistics ------------------------------------------------------------------------------ */

/** Summary of a list of lengths (nearest-rank percentiles). All zero when count is 0. */
typedef struct smfw_length_summary {
    size_t count;
    int64_t min, p10, p25, median, p75, p90, p99, max;
    double mean;
} smfw_length_summary;

/** Statistics of a prompt set. */
typedef struct smfw_dataset_stats {
    size_t prompts;
    size_t sessions;                   /**< distinct session ids (0 for single-turn data) */
    size_t without_budget;             /**< prompts with output_length 0 */
    smfw_length_summary input_tokens;  /**< estimated (or known) input tokens */
    smfw_length_summary input_chars;   /**< bytes of text */
    smfw_length_summary output_length; /**< budgets (prompts that have one) */
    /** Exact input tokens, set by smfw_dataset_stats_count_tokens() (count 0 = not counted) */
    smfw_length_summary input_tokens_exact;
    char tokenizer[256]; /**< the tokenizer that counted them (smfw_tokenizer_name) */
} smfw_dataset_stats;

/** Summarise `count` values (the array is sorted in place). */
SMFW_API void smfw_length_summarise(int64_t *values, size_t count, smfw_length_summary *out);

struct smfw_tokenizer;

/**
 * Count every prompt's input tokens with a tokenizer (as a run with --tokenizer counts its
 * ISL: the prompt text, no chat template) into stats->input_tokens_exact, after
 * smfw_dataset_stats_compute(). Fails only when out of memory or on hostile text.
 */
SMFW_API smfw_status smfw_dataset_stats_count_tokens(const smfw_prompt_set *set,
                                                     struct smfw_tokenizer *tok,
                                                     smfw_dataset_stats *stats, smfw_error *err);

/** Compute the statistics of a set. Fails only when out of memory. */
SMFW_API smfw_status smfw_dataset_stats_compute(const smfw_prompt_set *set, smfw_dataset_stats *out,
                                                smfw_error *err);

/** Print the statistics as a Markdown table (the format datasets/README.md quotes). */
SMFW_API void smfw_dataset_stats_print(const smfw_dataset_stats *stats, FILE *out);

/* ---- validation and curation (`smfw dataset validate|curate`) -------------------------------- */

/**
 * Read every line of a custom JSONL file as the custom plugin would. Each bad
 * line's error is printed to errors_out (may be NULL; at most max_errors of
 * them, 0 = 50, then a count of the rest) and counted in *n_errors (may be
 * NULL). Returns SMFW_OK with the prompt set in *out (may be NULL), or
 * SMFW_ERR_CONFIG when any line is bad or the file holds no prompt, or the
 * status of an I/O failure.
 */
SMFW_API smfw_status smfw_dataset_validate_file(const char *path, const smfw_jsonl_options *options,
                                                size_t max_errors, FILE *errors_out,
                                                smfw_prompt_set **out, size_t *n_errors,
                                                smfw_error *err);

/** Options of smfw_dataset_curate(). */
typedef struct smfw_curate_options {
    size_t count;       /**< prompts to keep (500) */
    int64_t min_output; /**< budgets below are dropped (32) */
    uint64_t seed;      /**< sample seed */
} smfw_curate_options;

/** What smfw_dataset_curate() did. */
typedef struct smfw_curate_report {
    int64_t conversations; /**< conversations in the feed */
    int64_t usable;        /**< with a human turn followed by an answer */
    int64_t eligible;      /**< of those, budget >= min_output */
    int64_t written;       /**< prompts written */
} smfw_curate_report;

/**
 * The curation rule: from a raw ShareGPT file take each conversation's first
 * human turn with budget = the estimated tokens of the answer that follows,
 * drop budgets below min_output, pick `count` of them with a seeded shuffle
 * (kept in feed order) and write {"text", "output_length"} JSONL atomically.
 */
SMFW_API smfw_status smfw_dataset_curate(const char *sharegpt_path, const char *out_path,
                                         const smfw_curate_options *options,
                                         smfw_curate_report *report, smfw_error *err);

#ifdef __cplusplus
}
#endif
#endif /* SMFW_DATASET_FORMATS_H */
