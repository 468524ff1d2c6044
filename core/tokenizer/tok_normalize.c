/* tok_normalize.c - tokenizer.json normalizers: NFC/NFD/NFKC/NFKD (utf8proc),
 * Replace, Prepend, Lowercase, Strip, applied in sequence to one segment. */
#include <stdlib.h>
#include <string.h>

#include <utf8proc.h>

#include "tok_internal.h"

void tok_norm_free(tok_norm *n) {
    tok_regex_free(&n->re);
    free(n->str);
    memset(n, 0, sizeof *n);
}

static smfw_status nomem(smfw_error *err) {
    return smfw_error_set(err, SMFW_ERR_NOMEM, "out of memory");
}

static smfw_status unicode_form(const tok_norm *s, const tok_bytes *in, tok_bytes *out,
                                smfw_error *err) {
    int opt = UTF8PROC_STABLE;
    switch (s->kind) {
    case TOK_NORM_NFC:
        opt |= UTF8PROC_COMPOSE;
        break;
    case TOK_NORM_NFD:
        opt |= UTF8PROC_DECOMPOSE;
        break;
    case TOK_NORM_NFKC:
        opt |= UTF8PROC_COMPOSE | UTF8PROC_COMPAT;
        break;
    default:
        opt |= UTF8PROC_DECOMPOSE | UTF8PROC_COMPAT;
        break;
    }
    utf8proc_uint8_t *dst = NULL;
    utf8proc_ssize_t n =
        utf8proc_map((const utf8proc_uint8_t *)in->p, (utf8proc_ssize_t)in->len, &dst, opt);
    if (n < 0) {
        free(dst);
        return smfw_error_set(err, SMFW_ERR_INTERNAL, "Unicode normalization failed: %s",
                              utf8proc_errmsg(n));
    }
    out->len = 0;
    int bad = tok_bytes_append(out, dst, (size_t)n);
    free(dst);
    return bad ? nomem(err) : SMFW_OK;
}

static smfw_status replace(const tok_norm *s, const tok_bytes *in, tok_bytes *out,
                           smfw_error *err) {
    tok_regex *re = (tok_regex *)&s->re; /* match data is scratch */
    out->len = 0;
    if (tok_bytes_reserve(out, in->len)) return nomem(err);
    size_t pos = 0, ms, me;
    int rc;
    while ((rc = tok_regex_next(re, in->p, in->len, pos, &ms, &me)) == 1) {
        if (tok_bytes_append(out, in->p + pos, ms - pos) ||
            tok_bytes_append(out, s->str, s->str_len))
            return nomem(err);
        pos = me;
    }
    if (rc < 0)
        return smfw_error_set(err, SMFW_ERR_PROTOCOL,
                              "the Replace normalizer's regex hit its match limit on this text");
    return tok_bytes_append(out, in->p + pos, in->len - pos) ? nomem(err) : SMFW_OK;
}

static smfw_status lowercase(const tok_bytes *in, tok_bytes *out, smfw_error *err) {
    out->len = 0;
    for (size_t i = 0; i < in->len;) {
        size_t adv;
        uint32_t c = tok_utf8_decode(in->p + i, in->len - i, &adv);
        utf8proc_uint8_t enc[4];
        utf8proc_ssize_t k = utf8proc_encode_char(utf8proc_tolower((utf8proc_int32_t)c), enc);
        if (tok_bytes_append(out, enc, (size_t)k)) return nomem(err);
        i += adv;
    }
    return SMFW_OK;
}

static smfw_status strip(const tok_norm *s, const tok_bytes *in, tok_bytes *out, smfw_error *err) {
    size_t a = 0, b = in->len, adv;
    while (s->left && a < b && tok_is_space(tok_utf8_decode(in->p + a, b - a, &adv))) a += adv;
    while (s->right && b > a) {
        size_t k = b - 1;
        while (k > a && ((unsigned char)in->p[k] & 0xC0) == 0x80) k--;
        if (!tok_is_space(tok_utf8_decode(in->p + k, b - k, &adv))) break;
        b = k;
    }
    out->len = 0;
    return tok_bytes_append(out, in->p + a, b - a) ? nomem(err) : SMFW_OK;
}

smfw_status tok_normalize(const tok_norm *steps, size_t n, const char *in, size_t len,
                          tok_bytes *out, tok_bytes *tmp, smfw_error *err) {
    out->len = 0;
    if (tok_bytes_append(out, in, len)) return nomem(err);
    for (size_t i = 0; i < n; i++) {
        const tok_norm *s = &steps[i];
        smfw_status st = SMFW_OK;
        switch (s->kind) {
        case TOK_NORM_NFC:
        case TOK_NORM_NFD:
        case TOK_NORM_NFKC:
        case TOK_NORM_NFKD:
            st = unicode_form(s, out, tmp, err);
            break;
        case TOK_NORM_REPLACE:
            st = replace(s, out, tmp, err);
            break;
        case TOK_NORM_LOWERCASE:
            st = lowercase(out, tmp, err);
            break;
        case TOK_NORM_STRIP:
            st = strip(s, out, tmp, err);
            break;
        case TOK_NORM_PREPEND:
            /* HF prepends only to a non-empty string */
            if (!out->len) continue;
            tmp->len = 0;
            if (tok_bytes_append(tmp, s->str, s->str_len) ||
                tok_bytes_append(tmp, out->p, out->len))
                return nomem(err);
            break;
        }
        if (st != SMFW_OK) return st;
        tok_bytes swap = *out;
        *out = *tmp;
        *tmp = swap;
    }
    return SMFW_OK;
}
