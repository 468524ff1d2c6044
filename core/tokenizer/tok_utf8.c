/* tok_utf8.c - UTF-8 decoding and the U+FFFD substitution applied to text
 * before tokenizing (maximal subparts, Unicode 3.9 / WHATWG TextDecoder). */
#include <stdlib.h>
#include <string.h>

#include "tok_internal.h"

size_t tok_utf8_len(unsigned char b) {
    if (b < 0x80) return 1;
    if (b >= 0xC2 && b <= 0xDF) return 2;
    if (b >= 0xE0 && b <= 0xEF) return 3;
    if (b >= 0xF0 && b <= 0xF4) return 4;
    return 0;
}

/* Length of the valid sequence at s (1..4), or 0 with *bad = the length of the
 * maximal invalid subpart (>= 1). */
static size_t valid_at(const unsigned char *s, size_t n, size_t *bad) {
    unsigned char b = s[0];
    size_t need = tok_utf8_len(b);
    *bad = 1;
    if (need == 1) return 1;
    if (need == 0) return 0;
    unsigned char lo = 0x80, hi = 0xBF;
    if (b == 0xE0) lo = 0xA0;
    if (b == 0xED) hi = 0x9F;
    if (b == 0xF0) lo = 0x90;
    if (b == 0xF4) hi = 0x8F;
    size_t k = 1;
    for (; k < need; k++) {
        if (k >= n) break;
        unsigned char c = s[k];
        if (k == 1 ? (c < lo || c > hi) : (c < 0x80 || c > 0xBF)) break;
    }
    if (k == need) return need;
    *bad = k;
    return 0;
}

uint32_t tok_utf8_decode(const char *p, size_t len, size_t *adv) {
    const unsigned char *s = (const unsigned char *)p;
    size_t bad;
    size_t n = len ? valid_at(s, len, &bad) : 0;
    if (!n) {
        *adv = len ? bad : 0;
        return 0xFFFD;
    }
    *adv = n;
    switch (n) {
    case 1:
        return s[0];
    case 2:
        return ((uint32_t)(s[0] & 0x1F) << 6) | (s[1] & 0x3F);
    case 3:
        return ((uint32_t)(s[0] & 0x0F) << 12) | ((uint32_t)(s[1] & 0x3F) << 6) | (s[2] & 0x3F);
    default:
        return ((uint32_t)(s[0] & 0x07) << 18) | ((uint32_t)(s[1] & 0x3F) << 12) |
               ((uint32_t)(s[2] & 0x3F) << 6) | (s[3] & 0x3F);
    }
}

int tok_is_space(uint32_t c) {
    return (c >= 9 && c <= 13) || c == 0x20 || c == 0x85 || c == 0xA0 || c == 0x1680 ||
           (c >= 0x2000 && c <= 0x200A) || c == 0x2028 || c == 0x2029 || c == 0x202F ||
           c == 0x205F || c == 0x3000;
}

/* Valid runs are copied in blocks; returns -1 on memory. */
int tok_utf8_sanitize_into(const char *text, size_t len, tok_bytes *out) {
    const unsigned char *s = (const unsigned char *)text;
    out->len = 0;
    if (tok_bytes_reserve(out, len)) return -1;
    size_t run = 0, i = 0;
    while (i < len) {
        if (s[i] < 0x80) {
            i++;
            continue;
        }
        size_t bad, n = valid_at(s + i, len - i, &bad);
        if (n) {
            i += n;
            continue;
        }
        if (tok_bytes_append(out, text + run, i - run) || tok_bytes_append(out, "\xEF\xBF\xBD", 3))
            return -1;
        i += bad;
        run = i;
    }
    if (tok_bytes_append(out, text + run, len - run)) return -1;
    return 0;
}

smfw_status smfw_utf8_sanitize(const char *text, size_t len, char **out, size_t *out_len,
                               smfw_error *err) {
    tok_bytes b = {0};
    if (tok_utf8_sanitize_into(text, len, &b)) {
        tok_bytes_free(&b);
        return smfw_error_set(err, SMFW_ERR_NOMEM, "out of memory");
    }
    *out = b.p;
    *out_len = b.len;
    return SMFW_OK;
}
