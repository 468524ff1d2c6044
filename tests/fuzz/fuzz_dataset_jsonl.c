/*
 * fuzz_dataset_jsonl.c - libFuzzer target for the custom-dataset JSONL reader
 * (single_turn, multi_turn, mooncake_trace, auto-detection, validation).
 *
 * The first byte picks the forced format (or auto); the reader must never
 * crash, must finish, and every prompt it yields must be well-formed: a
 * NUL-terminated valid text of the stated length, a positive or absent
 * budget, and an estimated length that matches for synthesised text.
 *
 * Run: build-fuzz/tests/fuzz/fuzz_dataset_jsonl -max_total_time=60 tests/fuzz/corpus/dataset_jsonl
 */
#include <smfw/dataset_formats.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static char corpus_path[64];

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerInitialize(int *argc, char ***argv) {
    (void)argc;
    (void)argv;
    /* A small corpus so mooncake input_length lines are synthesised too. */
    snprintf(corpus_path, sizeof corpus_path, "/tmp/smfw-fuzz-corpus-%ld.txt", (long)getpid());
    FILE *f = fopen(corpus_path, "w");
    if (f) {
        fputs("The quick brown fox jumps over the lazy dog. Pack my box with five dozen liquor "
              "jugs. \xc3\xa9t\xc3\xa9 \xe6\x97\xa5\xe6\x9c\xac Donaudampfschifffahrt a b c.\n",
              f);
        fclose(f);
    }
    return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    if (size < 1) return 0;
    smfw_jsonl_options o;
    memset(&o, 0, sizeof o);
    o.format = (smfw_dataset_format)(data[0] % 4);
    o.corpus_path = corpus_path;
    o.block_tokens = 1 + data[0] / 4 % 64;
    o.seed = data[0];
    smfw_jsonl_reader *r = NULL;
    smfw_error err;
    if (smfw_jsonl_reader_open_memory("fuzz.jsonl", data + 1, size - 1, &o, &r, &err) != SMFW_OK)
        return 0;
    for (size_t guard = 0;; guard++) {
        if (guard > size + 16) abort(); /* at most one error per line, few prompts per byte */
        smfw_prompt p;
        memset(&p, 0, sizeof p);
        smfw_status st = smfw_jsonl_reader_next(r, &p, &err);
        if (st == SMFW_DONE) break;
        if (st == SMFW_OK) {
            if (!p.text || strlen(p.text) != p.text_len || p.text_len == 0) abort();
            if (p.output_length < 0) abort();
            if (p.input_tokens != smfw_estimate_tokens(p.text, p.text_len)) abort();
            smfw_prompt_clear(&p);
            guard = guard > 0 ? guard - 1 : 0; /* multi_turn lines yield many prompts */
            continue;
        }
        if (st != SMFW_ERR_CONFIG && st != SMFW_ERR_IO && st != SMFW_ERR_NOMEM) abort();
        if (strncmp(err.message, "fuzz.jsonl:", 11) != 0 && st == SMFW_ERR_CONFIG) abort();
        if (st != SMFW_ERR_CONFIG) break;
    }
    smfw_jsonl_reader_free(r);
    return 0;
}
