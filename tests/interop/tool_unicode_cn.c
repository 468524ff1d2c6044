/* tool_unicode_cn.c - print the code point ranges PCRE2 (smfw's regex engine)
 * considers unassigned (\p{Cn}), one "first last" pair per line, so the
 * tokenizer interop test can leave out characters newer than PCRE2's Unicode
 * tables (where the JS and Rust oracles know more than PCRE2 does). */
#include <stdio.h>

#define PCRE2_CODE_UNIT_WIDTH 8
#include <pcre2.h>

int main(void) {
    int code;
    PCRE2_SIZE off;
    pcre2_code *re = pcre2_compile((PCRE2_SPTR) "^\\p{Cn}$", PCRE2_ZERO_TERMINATED, PCRE2_UTF,
                                   &code, &off, NULL);
    if (!re) return 1;
    pcre2_match_data *md = pcre2_match_data_create_from_pattern(re, NULL);
    long start = -1;
    for (long cp = 0; cp <= 0x110000; cp++) {
        int cn = 0;
        if (cp < 0x110000 && !(cp >= 0xD800 && cp <= 0xDFFF)) {
            unsigned char b[4];
            size_t n;
            if (cp < 0x80)
                b[0] = (unsigned char)cp, n = 1;
            else if (cp < 0x800)
                b[0] = (unsigned char)(0xC0 | (cp >> 6)),
                b[1] = (unsigned char)(0x80 | (cp & 0x3F)), n = 2;
            else if (cp < 0x10000)
                b[0] = (unsigned char)(0xE0 | (cp >> 12)),
                b[1] = (unsigned char)(0x80 | ((cp >> 6) & 0x3F)),
                b[2] = (unsigned char)(0x80 | (cp & 0x3F)), n = 3;
            else
                b[0] = (unsigned char)(0xF0 | (cp >> 18)),
                b[1] = (unsigned char)(0x80 | ((cp >> 12) & 0x3F)),
                b[2] = (unsigned char)(0x80 | ((cp >> 6) & 0x3F)),
                b[3] = (unsigned char)(0x80 | (cp & 0x3F)), n = 4;
            cn = pcre2_match(re, b, n, 0, 0, md, NULL) >= 0;
        }
        if (cn && start < 0) start = cp;
        if (!cn && start >= 0) {
            printf("%ld %ld\n", start, cp - 1);
            start = -1;
        }
    }
    pcre2_match_data_free(md);
    pcre2_code_free(re);
    return 0;
}
