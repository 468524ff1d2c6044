/*
 * test_tokenizer.c - the tokenizer engine on tiny hand-written tokenizer.json
 * files: BPE merge order, added tokens before the model, the post-processor,
 * byte fallback and unk, smfw's U+FFFD handling of raw invalid UTF-8 (which no
 * JS oracle can be given), refusals of unsupported or hostile files, and the
 * tiktoken ranks formats. The real tokenizers are checked against oracles in
 * tests/interop/tokenizers.test.mjs.
 */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <smfw/tokenizer.h>

#include "smfw_test.h"
#include "tokenizer/tok_internal.h"

static smfw_tokenizer *load(const char *name) {
    char path[4096];
    snprintf(path, sizeof path, "%s/tests/fuzz/corpus/tokenizer/%s", SMFW_SOURCE_DIR, name);
    smfw_tokenizer *t = NULL;
    smfw_error err;
    smfw_error_clear(&err);
    smfw_status st = smfw_tokenizer_new(path, &t, &err);
    ck_assert_msg(st == SMFW_OK, "%s", err.message);
    return t;
}

/* ids of text as "1,2,3" */
static const char *enc(smfw_tokenizer *t, const char *text, size_t len, int add_special) {
    static char out[1024];
    smfw_token_ids ids = {0};
    smfw_tokenize_opts o = {add_special};
    smfw_error err;
    smfw_error_clear(&err);
    ck_assert_int_eq(smfw_tokenizer_encode(t, text, len, &o, &ids, &err), SMFW_OK);
    out[0] = 0;
    for (size_t i = 0; i < ids.len; i++)
        snprintf(out + strlen(out), sizeof out - strlen(out), i ? ",%u" : "%u", ids.ids[i]);
    smfw_token_ids_free(&ids);
    return out;
}
#define ENC(t, s) enc(t, s, strlen(s), 0)

START_TEST(invalid_utf8_becomes_fffd_per_maximal_subpart) {
    static const struct {
        const char *in;
        size_t len;
        const char *out;
    } cases[] = {
        {"a\xff"
         "b",
         3,
         "a\xEF\xBF\xBD"
         "b"},
        {"\xe2\x82", 2, "\xEF\xBF\xBD"},                             /* truncated: one */
        {"\xed\xa0\x80", 3, "\xEF\xBF\xBD\xEF\xBF\xBD\xEF\xBF\xBD"}, /* surrogate: three */
        {"\xf0\x9f\x98", 3, "\xEF\xBF\xBD"},                         /* cut emoji: one */
        {"\xc0\xaf", 2, "\xEF\xBF\xBD\xEF\xBF\xBD"},                 /* overlong */
        {"\xf4\x90\x80\x80", 4,
         "\xEF\xBF\xBD\xEF\xBF\xBD\xEF\xBF\xBD\xEF\xBF\xBD"}, /* > U+10FFFF */
        {"ok \xe2\x82\xac", 6, "ok \xe2\x82\xac"},            /* valid stays */
        {"x\0y", 3, "x\0y"},                                  /* NUL is valid */
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        char *out;
        size_t n;
        ck_assert_int_eq(smfw_utf8_sanitize(cases[i].in, cases[i].len, &out, &n, NULL), SMFW_OK);
        size_t want = strlen(cases[i].out) + (i == 7 ? 2 : 0);
        ck_assert_uint_eq(n, want);
        ck_assert_msg(memcmp(out, cases[i].out, n) == 0, "case %zu", i);
        free(out);
    }
}
END_TEST

START_TEST(byte_level_bpe_merges_lowest_rank_first) {
    smfw_tokenizer *t = load("tiny_bytelevel.json");
    ck_assert_str_eq(ENC(t, "abc"), "4");
    ck_assert_str_eq(ENC(t, "ab"), "3");
    ck_assert_str_eq(ENC(t, "cab"), "2,3");
    ck_assert_str_eq(ENC(t, "12"), "8");
    ck_assert_str_eq(ENC(t, " abc"), "5,4");
    /* the special token is cut out before the model, wherever it is */
    ck_assert_str_eq(ENC(t, "<x>abc"), "9,4");
    ck_assert_str_eq(ENC(t, "ab<x>c"), "3,9,2");
    /* BOS only when asked (AIPerf counts with add_special_tokens=False) */
    ck_assert_str_eq(enc(t, "abc", 3, 1), "9,4");
    ck_assert_str_eq(ENC(t, ""), "");
    smfw_tokenizer_free(t);
}
END_TEST

START_TEST(sentencepiece_byte_fallback_unk_and_raw_invalid_bytes) {
    smfw_tokenizer *t = load("tiny_sentencepiece.json");
    ck_assert_str_eq(ENC(t, "hi"), "9");
    /* Prepend applies to each segment between added tokens, as in HF */
    ck_assert_str_eq(ENC(t, "<s>hi"), "1,9");
    /* a raw 0xFF byte is U+FFFD, which falls back to its three bytes */
    ck_assert_str_eq(enc(t, "h\xffi", 3, 0), "8,2,3,4,7");
    ck_assert_str_eq(ENC(t, "A"), "5,10");
    /* no byte token for Z: unk, and consecutive unks fuse */
    ck_assert_str_eq(ENC(t, "ZZ"), "5,0");
    ck_assert_str_eq(ENC(t, "Zh"), "5,0,6");
    ck_assert_str_eq(enc(t, "hi", 2, 1), "1,9");
    smfw_tokenizer_free(t);
}
END_TEST

static smfw_status load_text(const char *json, smfw_error *err) {
    smfw_tokenizer *t = NULL;
    smfw_error_clear(err);
    smfw_status st = tok_new_from_json_text(json, strlen(json), "test.json", &t, err);
    smfw_tokenizer_free(t);
    return st;
}

START_TEST(unsupported_and_hostile_files_are_refused_with_a_sentence) {
    smfw_error err;
    ck_assert_int_eq(load_text("{\"model\":{\"type\":\"Unigram\",\"vocab\":[]}}", &err),
                     SMFW_ERR_UNSUPPORTED);
    ck_assert_ptr_nonnull(strstr(err.message, "\"Unigram\""));
    ck_assert_int_eq(load_text("{\"model\":{\"type\":\"WordPiece\",\"vocab\":{}}}", &err),
                     SMFW_ERR_UNSUPPORTED);
    ck_assert_ptr_nonnull(strstr(err.message, "WordPiece"));
    /* a regex that does not compile: the file and the pattern are named */
    ck_assert_int_eq(
        load_text("{\"pre_tokenizer\":{\"type\":\"Split\",\"pattern\":{\"Regex\":\"(a|\"},"
                  "\"behavior\":\"Isolated\"},\"model\":{\"type\":\"BPE\",\"vocab\":{},"
                  "\"merges\":[]}}",
                  &err),
        SMFW_ERR_CONFIG);
    ck_assert_ptr_nonnull(strstr(err.message, "test.json"));
    ck_assert_ptr_nonnull(strstr(err.message, "\"(a|\""));
    /* a merge whose token is not in the vocabulary (HF refuses it too) */
    ck_assert_int_eq(
        load_text("{\"model\":{\"type\":\"BPE\",\"vocab\":{\"a\":0},\"merges\":[\"a b\"]}}", &err),
        SMFW_ERR_CONFIG);
    ck_assert_int_eq(load_text("{\"model\":", &err), SMFW_ERR_CONFIG);
    ck_assert_int_eq(
        load_text("{\"normalizer\":{\"type\":\"Precompiled\"},\"model\":{\"type\":\"BPE\","
                  "\"vocab\":{},\"merges\":[]}}",
                  &err),
        SMFW_ERR_UNSUPPORTED);
    ck_assert_ptr_nonnull(strstr(err.message, "Precompiled"));
    /* a catastrophic pattern is bounded by the match limit, not a hang */
    const char *evil = "{\"pre_tokenizer\":{\"type\":\"Split\",\"pattern\":{\"Regex\":\"(a+)+$\"},"
                       "\"behavior\":\"Isolated\"},\"model\":{\"type\":\"BPE\",\"vocab\":{\"a\":0,"
                       "\"b\":1},\"merges\":[]}}";
    smfw_tokenizer *t = NULL;
    ck_assert_int_eq(tok_new_from_json_text(evil, strlen(evil), "evil.json", &t, &err), SMFW_OK);
    char text[200];
    memset(text, 'a', sizeof text);
    text[sizeof text - 1] = 'b';
    smfw_token_ids ids = {0};
    smfw_status st = smfw_tokenizer_encode(t, text, sizeof text, NULL, &ids, &err);
    ck_assert(st == SMFW_OK || st == SMFW_ERR_PROTOCOL);
    smfw_token_ids_free(&ids);
    smfw_tokenizer_free(t);
}
END_TEST

START_TEST(added_token_flags_lstrip_rstrip_single_word_normalized) {
    static const char json[] =
        "{\"added_tokens\":["
        "{\"id\":10,\"content\":\"<m>\",\"lstrip\":true,\"normalized\":false},"
        "{\"id\":11,\"content\":\"<r>\",\"rstrip\":true,\"normalized\":false},"
        "{\"id\":13,\"content\":\"yy\",\"single_word\":true,\"normalized\":false},"
        "{\"id\":14,\"content\":\"zz\",\"normalized\":true},"
        "{\"id\":15,\"content\":\"QQ\",\"normalized\":false}],"
        "\"normalizer\":{\"type\":\"Lowercase\"},"
        "\"model\":{\"type\":\"BPE\",\"vocab\":{\"a\":0,\"b\":1,\" \":2,\"z\":3,\"q\":4,"
        "\"y\":12},\"merges\":[]}}";
    smfw_tokenizer *t = NULL;
    smfw_error err;
    ck_assert_msg(tok_new_from_json_text(json, strlen(json), "flags.json", &t, &err) == SMFW_OK,
                  "%s", err.message);
    ck_assert_str_eq(ENC(t, "a  <m>b"), "0,10,1"); /* lstrip takes the spaces before */
    ck_assert_str_eq(ENC(t, "<r>  b"), "11,1");    /* rstrip takes the spaces after */
    ck_assert_str_eq(ENC(t, "ayy"), "0,12,12");    /* single_word: not inside a word */
    ck_assert_str_eq(ENC(t, "a yy b"), "0,2,13,2,1");
    ck_assert_str_eq(ENC(t, "ZZ"), "14"); /* normalized: matched after Lowercase */
    ck_assert_str_eq(ENC(t, "QQ"), "15"); /* not normalized: matched on the raw text */
    ck_assert_str_eq(ENC(t, "qq"), "4,4");
    smfw_tokenizer_free(t);
}
END_TEST

static const char B64[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

static void b64(const unsigned char *s, size_t n, char *out) {
    size_t o = 0;
    for (size_t i = 0; i < n; i += 3) {
        uint32_t v = (uint32_t)s[i] << 16 | (i + 1 < n ? (uint32_t)s[i + 1] << 8 : 0) |
                     (i + 2 < n ? s[i + 2] : 0);
        out[o++] = B64[v >> 18];
        out[o++] = B64[(v >> 12) & 63];
        out[o++] = i + 1 < n ? B64[(v >> 6) & 63] : '=';
        out[o++] = i + 2 < n ? B64[v & 63] : '=';
    }
    out[o] = 0;
}

START_TEST(tiktoken_ranks_both_formats_and_bad_lines) {
    /* every byte, then "ab" = 256, "abc" = 257, in the .tiktoken format */
    char *text = malloc(1 << 16), tok[16];
    size_t n = 0;
    for (int b = 0; b < 256; b++) {
        unsigned char c = (unsigned char)b;
        b64(&c, 1, tok);
        n += (size_t)sprintf(text + n, "%s %d\n", tok, b);
    }
    b64((const unsigned char *)"ab", 2, tok);
    n += (size_t)sprintf(text + n, "%s 256\n", tok);
    b64((const unsigned char *)"abc", 3, tok);
    n += (size_t)sprintf(text + n, "%s 257\n", tok);
    tok_bpe m;
    memset(&m, 0, sizeof m);
    m.mode = TOK_BPE_RANKS;
    smfw_error err;
    ck_assert_int_eq(tok_parse_ranks(&m, text, n, "r.tiktoken", &err), SMFW_OK);
    ck_assert_uint_eq(m.vocab.n, 258);
    tok_bpe_scratch s = {0};
    smfw_token_ids ids = {0};
    ck_assert_int_eq(tok_bpe_encode(&m, &s, "xabcab", 6, &ids, &err), SMFW_OK);
    ck_assert_uint_eq(ids.len, 3);
    ck_assert_uint_eq(ids.ids[0], 'x');
    ck_assert_uint_eq(ids.ids[1], 257);
    ck_assert_uint_eq(ids.ids[2], 256);
    tok_bpe_free(&m);
    /* js-tiktoken's compact form: "! <first rank> <b64>..." */
    n = 0;
    for (int b = 0; b < 256; b++) {
        unsigned char c = (unsigned char)b;
        b64(&c, 1, tok);
        n += (size_t)sprintf(text + n, "%s%s", b ? " " : "! 0 ", tok);
    }
    text[n++] = '\n';
    memset(&m, 0, sizeof m);
    m.mode = TOK_BPE_RANKS;
    ck_assert_int_eq(tok_parse_ranks(&m, text, n, "r.tiktoken", &err), SMFW_OK);
    ck_assert_uint_eq(m.vocab.n, 256);
    tok_bpe_free(&m);
    memset(&m, 0, sizeof m);
    ck_assert_int_eq(tok_parse_ranks(&m, "YQ== 0\nnot a line\n", 18, "r.tiktoken", &err),
                     SMFW_ERR_CONFIG);
    ck_assert_ptr_nonnull(strstr(err.message, "r.tiktoken:2"));
    tok_bpe_free(&m);
    smfw_token_ids_free(&ids);
    tok_bpe_scratch_free(&s);
    free(text);
}
END_TEST

START_TEST(builtin_without_ranks_says_where_to_get_them) {
    setenv("SMFW_TIKTOKEN_DIR", "/nonexistent-smfw-test", 1);
    setenv("XDG_CACHE_HOME", "/nonexistent-smfw-test", 1);
    smfw_tokenizer *t = NULL;
    smfw_error err;
    smfw_error_clear(&err);
    smfw_status st = smfw_tokenizer_new("builtin:cl100k_base", &t, &err);
    if (st == SMFW_OK) { /* installed under share/smfw/tokenizers: fine too */
        smfw_tokenizer_free(t);
        return;
    }
    ck_assert_int_eq(st, SMFW_ERR_NOT_FOUND);
    ck_assert_ptr_nonnull(strstr(err.message, "cl100k_base.tiktoken"));
    ck_assert_ptr_nonnull(strstr(err.message, "openaipublic"));
    ck_assert_int_eq(smfw_tokenizer_new("builtin:p50k_base", &t, &err) != SMFW_OK, 1);
}
END_TEST

int main(void) {
    Suite *s = suite_create("tokenizer");
    TCase *tc = tcase_create("core");
    tcase_add_test(tc, invalid_utf8_becomes_fffd_per_maximal_subpart);
    tcase_add_test(tc, byte_level_bpe_merges_lowest_rank_first);
    tcase_add_test(tc, sentencepiece_byte_fallback_unk_and_raw_invalid_bytes);
    tcase_add_test(tc, unsupported_and_hostile_files_are_refused_with_a_sentence);
    tcase_add_test(tc, added_token_flags_lstrip_rstrip_single_word_normalized);
    tcase_add_test(tc, tiktoken_ranks_both_formats_and_bad_lines);
    tcase_add_test(tc, builtin_without_ranks_says_where_to_get_them);
    suite_add_tcase(s, tc);
    return smfw_test_run(s);
}
