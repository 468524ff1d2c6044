/* tok_regex.c - the pre-tokenizer regexes on PCRE2 (UTF + UCP, JIT when the
 * platform has it), bounded by match and depth limits. */
#include <stdlib.h>
#include <string.h>

#include "tok_internal.h"

/* Unicode White_Space, which \s means in Rust's regex (tiktoken) and in
 * Oniguruma (HF tokenizers); PCRE2's UCP \s also takes U+180E, so spell it out. */
#define WS_CLASS                                                                                   \
    "\\x{9}-\\x{D}\\x{20}\\x{85}\\x{A0}\\x{1680}\\x{2000}-\\x{200A}\\x{2028}\\x{2029}\\x{202F}"    \
    "\\x{205F}\\x{3000}"

static int rewrite(const char *p, size_t n, tok_bytes *out) {
    int in_class = 0;
    for (size_t i = 0; i < n; i++) {
        char c = p[i];
        if (c == '\\' && i + 1 < n) {
            char d = p[i + 1];
            i++;
            if (d == 's') {
                if (tok_bytes_append(out, in_class ? "" : "[", in_class ? 0 : 1) ||
                    tok_bytes_append(out, WS_CLASS, strlen(WS_CLASS)) ||
                    tok_bytes_append(out, "]", in_class ? 0 : 1))
                    return -1;
                continue;
            }
            if (d == 'S' && !in_class) {
                if (tok_bytes_append(out, "[^", 2) ||
                    tok_bytes_append(out, WS_CLASS, strlen(WS_CLASS)) ||
                    tok_bytes_append(out, "]", 1))
                    return -1;
                continue;
            }
            char esc[2] = {c, d};
            if (tok_bytes_append(out, esc, 2)) return -1;
            continue;
        }
        if (!in_class && c == '[') {
            in_class = 1;
            if (tok_bytes_append(out, &c, 1)) return -1;
            /* a ']' right after '[' or '[^' is a literal */
            if (i + 1 < n && p[i + 1] == '^') {
                if (tok_bytes_append(out, "^", 1)) return -1;
                i++;
            }
            if (i + 1 < n && p[i + 1] == ']') {
                if (tok_bytes_append(out, "]", 1)) return -1;
                i++;
            }
            continue;
        }
        if (in_class && c == '[' && i + 1 < n && p[i + 1] == ':') {
            const char *end = memchr(p + i + 2, ']', n - i - 2);
            if (end) {
                size_t k = (size_t)(end - (p + i)) + 1;
                if (tok_bytes_append(out, p + i, k)) return -1;
                i += k - 1;
                continue;
            }
        }
        if (in_class && c == ']') in_class = 0;
        if (tok_bytes_append(out, &c, 1)) return -1;
    }
    return 0;
}

smfw_status tok_regex_compile(tok_regex *re, const char *pattern, size_t len, int literal,
                              const char *where, smfw_error *err) {
    memset(re, 0, sizeof *re);
    if (len > TOK_MAX_PATTERN)
        return smfw_error_set(err, SMFW_ERR_CONFIG, "%s: a regex pattern is %zu bytes (at most %u)",
                              where, len, TOK_MAX_PATTERN);
    tok_bytes pat = {0};
    if (literal ? tok_bytes_append(&pat, pattern, len) : rewrite(pattern, len, &pat)) {
        tok_bytes_free(&pat);
        return smfw_error_set(err, SMFW_ERR_NOMEM, "out of memory");
    }
    int code;
    PCRE2_SIZE off;
    uint32_t flags = PCRE2_UTF | (literal ? PCRE2_LITERAL : PCRE2_UCP);
    re->code = pcre2_compile((PCRE2_SPTR)(pat.p ? pat.p : ""), pat.len, flags, &code, &off, NULL);
    tok_bytes_free(&pat);
    if (!re->code) {
        PCRE2_UCHAR msg[256];
        pcre2_get_error_message(code, msg, sizeof msg);
        int shown = len > 200 ? 200 : (int)len;
        return smfw_error_set(err, SMFW_ERR_CONFIG,
                              "%s: the regex pattern \"%.*s\"%s does not compile: %s", where, shown,
                              pattern, len > 200 ? "..." : "", (const char *)msg);
    }
    if (pcre2_jit_compile(re->code, PCRE2_JIT_COMPLETE) == 0) {
        re->jit = pcre2_jit_stack_create(32 << 10, 8 << 20, NULL);
    }
    re->md = pcre2_match_data_create_from_pattern(re->code, NULL);
    re->mctx = pcre2_match_context_create(NULL);
    if (!re->md || !re->mctx) {
        tok_regex_free(re);
        return smfw_error_set(err, SMFW_ERR_NOMEM, "out of memory");
    }
    pcre2_set_match_limit(re->mctx, TOK_PCRE_MATCH_LIMIT);
    pcre2_set_depth_limit(re->mctx, TOK_PCRE_DEPTH_LIMIT);
    if (re->jit) pcre2_jit_stack_assign(re->mctx, NULL, re->jit);
    return SMFW_OK;
}

void tok_regex_free(tok_regex *re) {
    if (re->md) pcre2_match_data_free(re->md);
    if (re->mctx) pcre2_match_context_free(re->mctx);
    if (re->jit) pcre2_jit_stack_free(re->jit);
    if (re->code) pcre2_code_free(re->code);
    memset(re, 0, sizeof *re);
}

int tok_regex_next(tok_regex *re, const char *s, size_t len, size_t start, size_t *ms, size_t *me) {
    for (;;) {
        if (start > len) return 0;
        int rc =
            pcre2_match(re->code, (PCRE2_SPTR)s, len, start, PCRE2_NO_UTF_CHECK, re->md, re->mctx);
        if (rc == PCRE2_ERROR_NOMATCH) return 0;
        if (rc < 0) return -1;
        PCRE2_SIZE *ov = pcre2_get_ovector_pointer(re->md);
        if (ov[1] > ov[0]) {
            *ms = ov[0];
            *me = ov[1];
            return 1;
        }
        /* empty match: try again one character later */
        if (ov[0] >= len) return 0;
        size_t adv = tok_utf8_len((unsigned char)s[ov[0]]);
        start = ov[0] + (adv ? adv : 1);
    }
}
