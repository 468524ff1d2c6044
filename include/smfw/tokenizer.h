/*
 * tokenizer.h - exact token counts in C: Hugging Face tokenizer.json (BPE models)
 * and OpenAI tiktoken encodings (o200k_base, cl100k_base).
 *
 * A tokenizer is loaded once from a SPEC and then encodes UTF-8 text into token
 * ids the way the reference libraries do (see docs/tokenizers.md for what is
 * supported and how it was checked). SPEC is one of:
 *   - a path to a tokenizer.json file,
 *   - a folder holding tokenizer.json (and usually tokenizer_config.json),
 *   - "builtin" (= o200k_base), "builtin:o200k_base" or "builtin:cl100k_base": the
 *     ranks file <name>.tiktoken is looked up in $SMFW_TIKTOKEN_DIR, then
 *     $XDG_CACHE_HOME/smfw/tokenizers (~/.cache/smfw/tokenizers), then
 *     <data dir>/tokenizers (share/smfw/tokenizers when installed),
 *   - a path to a .tiktoken ranks file whose name starts with o200k_base or
 *     cl100k_base (the encoding's pattern and special tokens are built in).
 *   - a Hugging Face model id "org/name[@revision]": tokenizer.json and
 *     tokenizer_config.json from the hub ($HF_ENDPOINT, $HF_TOKEN), cached in the
 *     huggingface_hub layout under $HF_HUB_CACHE or $HF_HOME/hub
 *     (~/.cache/huggingface/hub); $HF_HUB_OFFLINE=1 reads the cache only.
 *
 * Encoding follows what AIPerf counts: no BOS/EOS is added unless asked for
 * (add_special_tokens = false in transformers; allowed_special = "all" in
 * tiktoken), and special-token strings inside the text are matched as tokens.
 * Text that is not valid UTF-8 is first made valid by replacing each maximal
 * invalid subsequence with U+FFFD (as TextDecoder and Python's
 * errors="replace" do), so raw bytes never reach the model.
 *
 * A loaded tokenizer is immutable except for its scratch buffers: use one
 * smfw_tokenizer per thread (loading is the expensive part; encoding allocates
 * nothing per token once the scratch has grown).
 */
#ifndef SMFW_TOKENIZER_H
#define SMFW_TOKENIZER_H

#include <stddef.h>
#include <stdint.h>

#include <smfw/smfw.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef struct smfw_tokenizer smfw_tokenizer;

/** Token ids produced by smfw_tokenizer_encode(); reuse one across calls. */
typedef struct smfw_token_ids {
    uint32_t *ids;
    size_t len;
    size_t cap;
} smfw_token_ids;

/** Encoding options. Zero-initialise, then set what you need. */
typedef struct smfw_tokenize_opts {
    /** Add the post-processor's BOS/EOS (TemplateProcessing, RobertaProcessing).
     *  Off by default: AIPerf counts prompts with add_special_tokens=False. */
    int add_special_tokens;
} smfw_tokenize_opts;

/**
 * Load a tokenizer from SPEC (see the file comment). A tokenizer.json is
 * untrusted input: size and vocabulary caps apply, an unsupported model or
 * component is refused with a sentence naming it, and a regex that does not
 * compile is reported with the file and the pattern.
 */
SMFW_API smfw_status smfw_tokenizer_new(const char *spec, smfw_tokenizer **out, smfw_error *err);

/** Free a tokenizer (NULL is allowed). */
SMFW_API void smfw_tokenizer_free(smfw_tokenizer *tok);

/** A short name for records: "o200k_base", or the tokenizer.json's folder name. */
SMFW_API const char *smfw_tokenizer_name(const smfw_tokenizer *tok);

/**
 * Encode len bytes of text (UTF-8; invalid sequences become U+FFFD) and
 * replace out's contents with the ids. opts may be NULL. Fails only on memory
 * or when the regex engine's match limit is hit (hostile input).
 */
SMFW_API smfw_status smfw_tokenizer_encode(smfw_tokenizer *tok, const char *text, size_t len,
                                           const smfw_tokenize_opts *opts, smfw_token_ids *out,
                                           smfw_error *err);

/** Count tokens (smfw_tokenizer_encode without keeping the ids); -1 on error. */
SMFW_API long long smfw_tokenizer_count(smfw_tokenizer *tok, const char *text, size_t len,
                                        smfw_error *err);

/** Free the ids' storage and reset it to empty. */
SMFW_API void smfw_token_ids_free(smfw_token_ids *ids);

/**
 * Make text valid UTF-8: each maximal invalid subsequence (Unicode 3.9, "best
 * practice" U+FFFD substitution) becomes EF BF BD. Writes a malloc'd string
 * to *out (NUL-terminated) and its length to *out_len.
 */
SMFW_API smfw_status smfw_utf8_sanitize(const char *text, size_t len, char **out, size_t *out_len,
                                        smfw_error *err);

#ifdef __cplusplus
}
#endif
#endif
