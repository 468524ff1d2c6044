/*
 * fuzz_tokenizer.c - libFuzzer target for the tokenizer: the tokenizer.json
 * parser (untrusted file: caps, refusals, regex compile errors) and the encoder
 * (any bytes, invalid UTF-8 included).
 *
 * Input: JSON, then optionally a NUL byte and a text. With JSON before the NUL
 * the fuzzer's tokenizer.json is loaded and encodes the text (or a few fixed
 * texts); with nothing before the NUL the text goes through two small built-in
 * tokenizers (byte-level and SentencePiece-style). Every id must come from the
 * file, and encoding must finish.
 *
 * Run: build-fuzz/tests/fuzz/fuzz_tokenizer -max_total_time=60 tests/fuzz/corpus/tokenizer
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <smfw/tokenizer.h>

#include "tokenizer/tok_internal.h"

static const char BYTE_LEVEL[] =
    "{\"added_tokens\":[{\"id\":9,\"content\":\"<x>\",\"special\":true,\"normalized\":false},"
    "{\"id\":10,\"content\":\"yy\",\"special\":false,\"normalized\":true,\"single_word\":true,"
    "\"lstrip\":true,\"rstrip\":true}],\"normalizer\":{\"type\":\"NFKC\"},"
    "\"pre_tokenizer\":{\"type\":\"Sequence\",\"pretokenizers\":[{\"type\":\"Digits\","
    "\"individual_digits\":true},{\"type\":\"ByteLevel\",\"add_prefix_space\":true}]},"
    "\"model\":{\"type\":\"BPE\",\"ignore_merges\":true,\"vocab\":{\"a\":0,\"b\":1,\"ab\":2,"
    "\"\\u0120\":3,\"\\u0120a\":4},\"merges\":[\"a b\",\"\\u0120 a\"]}}";
static const char SENTENCEPIECE[] =
    "{\"added_tokens\":[{\"id\":1,\"content\":\"<s>\",\"special\":true,\"normalized\":false}],"
    "\"normalizer\":{\"type\":\"Sequence\",\"normalizers\":[{\"type\":\"NFC\"},{\"type\":"
    "\"Lowercase\"},{\"type\":\"Strip\"}]},\"pre_tokenizer\":{\"type\":\"Metaspace\","
    "\"replacement\":\"\\u2581\",\"prepend_scheme\":\"first\",\"split\":true},"
    "\"model\":{\"type\":\"BPE\",\"unk_token\":\"<unk>\",\"fuse_unk\":true,\"byte_fallback\":true,"
    "\"vocab\":{\"<unk>\":0,\"<s>\":1,\"<0xEF>\":2,\"<0xBF>\":3,\"<0xBD>\":4,\"\\u2581\":5,"
    "\"h\":6,\"\\u2581h\":7},\"merges\":[\"\\u2581 h\"]}}";

static smfw_tokenizer *fixed[2];

static void check(smfw_tokenizer *t, const char *text, size_t len, size_t max_id) {
    smfw_token_ids ids = {0};
    smfw_tokenize_opts o = {1};
    smfw_error err;
    if (smfw_tokenizer_encode(t, text, len, &o, &ids, &err) == SMFW_OK)
        for (size_t i = 0; i < ids.len; i++)
            if (max_id && ids.ids[i] > max_id) __builtin_trap();
    smfw_token_ids_free(&ids);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    smfw_error err;
    if (!fixed[0]) {
        if (tok_new_from_json_text(BYTE_LEVEL, strlen(BYTE_LEVEL), "fuzz", &fixed[0], &err) ||
            tok_new_from_json_text(SENTENCEPIECE, strlen(SENTENCEPIECE), "fuzz", &fixed[1], &err))
            __builtin_trap();
    }
    const char *s = (const char *)data;
    const char *nul = memchr(s, 0, size);
    size_t json_len = nul ? (size_t)(nul - s) : size;
    const char *text = nul ? nul + 1 : NULL;
    size_t text_len = nul ? size - json_len - 1 : 0;
    if (json_len == 0) {
        check(fixed[0], text ? text : "", text_len, 10);
        check(fixed[1], text ? text : "", text_len, 7);
        return 0;
    }
    smfw_tokenizer *t = NULL;
    if (tok_new_from_json_text(s, json_len, "fuzz.json", &t, &err) != SMFW_OK) return 0;
    if (text) {
        check(t, text, text_len, 0);
    } else {
        static const char *texts[] = {"",
                                      "abc",
                                      " a b  c\n\n",
                                      "12345 x's <x> <s>",
                                      "\xff\xfe",
                                      "\xe6\x97\xa5\xe6\x9c\xac \xf0\x9f\x98\x80"};
        for (size_t i = 0; i < sizeof texts / sizeof texts[0]; i++)
            check(t, texts[i], strlen(texts[i]), 0);
    }
    smfw_tokenizer_free(t);
    return 0;
}
