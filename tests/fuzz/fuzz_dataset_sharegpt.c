/*
 * fuzz_dataset_sharegpt.c - libFuzzer target for the streaming ShareGPT JSON
 * reader: it must never crash or loop, must stop for good after a structural
 * error, and every prompt must be a valid text with a positive budget.
 *
 * Run: build-fuzz/tests/fuzz/fuzz_dataset_sharegpt -max_total_time=60 \
 *        tests/fuzz/corpus/dataset_sharegpt
 */
#include <smfw/dataset_formats.h>

#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    smfw_sharegpt_reader *r = NULL;
    smfw_error err;
    if (smfw_sharegpt_reader_open_memory("fuzz.json", data, size, &r, &err) != SMFW_OK) return 0;
    for (size_t guard = 0;; guard++) {
        if (guard > size + 2) abort(); /* each prompt consumes at least a few bytes */
        smfw_prompt p;
        memset(&p, 0, sizeof p);
        smfw_status st = smfw_sharegpt_reader_next(r, &p, &err);
        if (st == SMFW_DONE) break;
        if (st == SMFW_OK) {
            if (!p.text || strlen(p.text) != p.text_len || p.output_length < 1) abort();
            smfw_prompt_clear(&p);
            continue;
        }
        if (st != SMFW_ERR_CONFIG && st != SMFW_ERR_NOMEM) abort();
        if (smfw_sharegpt_reader_next(r, &p, &err) != SMFW_DONE) abort();
        break;
    }
    smfw_sharegpt_reader_free(r);
    return 0;
}
