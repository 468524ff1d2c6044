/* tok_added.c - added and special tokens, cut out of the text before the model
 * as HF's AddedVocabulary does: leftmost-longest match, then single_word,
 * lstrip and rstrip. The matcher hashes candidate lengths per first byte. */
#include <stdlib.h>
#include <string.h>

#include <utf8proc.h>

#include "tok_internal.h"

void tok_added_free(tok_added_set *set) {
    tok_strmap_free(&set->map);
    for (int i = 0; i < 256; i++) free(set->lens[i]);
    memset(set, 0, sizeof *set);
}

smfw_status tok_added_build(tok_added_set *set, const tok_added *all, size_t n, int normalized,
                            smfw_error *err) {
    memset(set, 0, sizeof *set);
    set->v = (tok_added *)all;
    if (tok_strmap_init(&set->map, n + 1)) goto nomem;
    for (size_t i = 0; i < n; i++) {
        const tok_added *a = &all[i];
        if ((int)a->normalized != normalized || !a->len) continue;
        uint32_t had;
        if (tok_strmap_get(&set->map, a->content, a->len, &had)) continue;
        if (tok_strmap_put(&set->map, a->content, a->len, (uint32_t)i)) goto nomem;
        unsigned char b = (unsigned char)a->content[0];
        uint32_t k = 0;
        while (k < set->nlens[b] && set->lens[b][k] != a->len) k++;
        if (k < set->nlens[b]) continue;
        uint32_t *l = realloc(set->lens[b], (set->nlens[b] + 1) * sizeof *l);
        if (!l) goto nomem;
        set->lens[b] = l;
        /* keep descending order so the first hit is the longest */
        k = set->nlens[b]++;
        while (k && l[k - 1] < a->len) {
            l[k] = l[k - 1];
            k--;
        }
        l[k] = (uint32_t)a->len;
    }
    set->n = set->map.n;
    return SMFW_OK;
nomem:
    tok_added_free(set);
    return smfw_error_set(err, SMFW_ERR_NOMEM, "out of memory");
}

static int is_word_char(uint32_t c) {
    if (c == '_') return 1;
    utf8proc_category_t k = utf8proc_category((utf8proc_int32_t)c);
    return (k >= UTF8PROC_CATEGORY_LU && k <= UTF8PROC_CATEGORY_LO) ||
           (k >= UTF8PROC_CATEGORY_ND && k <= UTF8PROC_CATEGORY_NO);
}

static uint32_t char_before(const char *s, size_t pos) {
    size_t k = pos, adv;
    while (k > 0 && ((unsigned char)s[k - 1] & 0xC0) == 0x80) k--;
    if (k > 0) k--;
    while (k > 0 && ((unsigned char)s[k] & 0xC0) == 0x80) k--;
    return tok_utf8_decode(s + k, pos - k, &adv);
}

int tok_added_find(const tok_added_set *set, const char *s, size_t len, size_t start, size_t *ms,
                   size_t *me, uint32_t *id) {
    if (!set->n) return 0;
    for (size_t i = start; i < len; i++) {
        unsigned char b = (unsigned char)s[i];
        for (uint32_t k = 0; k < set->nlens[b]; k++) {
            uint32_t l = set->lens[b][k], idx;
            if (l > len - i || !tok_strmap_get(&set->map, s + i, l, &idx)) continue;
            const tok_added *a = &set->v[idx];
            size_t a0 = i, a1 = i + l, adv;
            if (a->single_word) {
                if ((a0 > 0 && is_word_char(char_before(s, a0))) ||
                    (a1 < len && is_word_char(tok_utf8_decode(s + a1, len - a1, &adv))))
                    break; /* HF skips this match and looks further on */
            }
            if (a->lstrip)
                while (a0 > start && tok_is_space(char_before(s, a0))) {
                    size_t k2 = a0 - 1;
                    while (k2 > start && ((unsigned char)s[k2] & 0xC0) == 0x80) k2--;
                    a0 = k2;
                }
            if (a->rstrip)
                while (a1 < len && tok_is_space(tok_utf8_decode(s + a1, len - a1, &adv))) a1 += adv;
            *ms = a0;
            *me = a1;
            *id = a->id;
            return 1;
        }
    }
    return 0;
}
