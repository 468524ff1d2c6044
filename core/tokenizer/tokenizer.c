/* tokenizer.c - the public tokenizer: SPEC resolution, loading, and the
 * encode pipeline (added tokens -> normalizers -> pre-tokenizers -> BPE). */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include <smfw/app.h>

#include "tok_internal.h"

smfw_status tok_read_file(const char *path, size_t cap, char **out, size_t *out_len,
                          smfw_error *err) {
    FILE *f = fopen(path, "rb");
    if (!f) return smfw_error_set(err, SMFW_ERR_IO, "cannot open %s: %s", path, strerror(errno));
    struct stat st;
    if (fstat(fileno(f), &st) != 0 || !S_ISREG(st.st_mode)) {
        fclose(f);
        return smfw_error_set(err, SMFW_ERR_IO, "%s is not a regular file", path);
    }
    if ((unsigned long long)st.st_size > cap) {
        fclose(f);
        return smfw_error_set(err, SMFW_ERR_CONFIG, "%s is %lld bytes; smfw reads at most %zu",
                              path, (long long)st.st_size, cap);
    }
    char *buf = malloc((size_t)st.st_size + 1);
    if (!buf) {
        fclose(f);
        return smfw_error_set(err, SMFW_ERR_NOMEM, "out of memory reading %s", path);
    }
    size_t n = fread(buf, 1, (size_t)st.st_size, f);
    int bad = ferror(f);
    fclose(f);
    if (bad || n != (size_t)st.st_size) {
        free(buf);
        return smfw_error_set(err, SMFW_ERR_IO, "cannot read %s", path);
    }
    buf[n] = 0;
    *out = buf;
    *out_len = n;
    return SMFW_OK;
}

void smfw_tokenizer_free(smfw_tokenizer *t) {
    if (!t) return;
    for (size_t i = 0; i < t->n_norms; i++) tok_norm_free(&t->norms[i]);
    for (size_t i = 0; i < t->n_pres; i++) tok_pre_free(&t->pres[i]);
    free(t->norms);
    free(t->pres);
    tok_bpe_free(&t->bpe);
    for (size_t i = 0; i < t->n_added; i++) free(t->added[i].content);
    free(t->added);
    tok_added_free(&t->raw_added);
    tok_added_free(&t->norm_added);
    free(t->prefix_ids);
    free(t->suffix_ids);
    tok_bytes_free(&t->clean);
    tok_bytes_free(&t->norm);
    tok_bytes_free(&t->tmp);
    tok_bytes_free(&t->pa);
    tok_bytes_free(&t->pb);
    tok_spans_free(&t->sa);
    tok_spans_free(&t->sb);
    tok_bpe_scratch_free(&t->bs);
    free(t);
}

const char *smfw_tokenizer_name(const smfw_tokenizer *t) {
    return t->name;
}

static int is_dir(const char *p) {
    struct stat st;
    return stat(p, &st) == 0 && S_ISDIR(st.st_mode);
}

static int is_file(const char *p) {
    struct stat st;
    return stat(p, &st) == 0 && S_ISREG(st.st_mode);
}

/* Where builtin:<name> finds <name>.tiktoken. */
static smfw_status find_ranks(const char *name, char *out, size_t cap, smfw_error *err) {
    char dirs[3][4200];
    size_t n = 0;
    const char *env = getenv("SMFW_TIKTOKEN_DIR");
    if (env && *env) snprintf(dirs[n++], sizeof dirs[0], "%s", env);
    const char *xdg = getenv("XDG_CACHE_HOME"), *home = getenv("HOME");
    if (xdg && *xdg)
        snprintf(dirs[n++], sizeof dirs[0], "%s/smfw/tokenizers", xdg);
    else if (home && *home)
        snprintf(dirs[n++], sizeof dirs[0], "%s/.cache/smfw/tokenizers", home);
    snprintf(dirs[n++], sizeof dirs[0], "%s/tokenizers", smfw_data_dir());
    for (size_t i = 0; i < n; i++) {
        snprintf(out, cap, "%s/%s.tiktoken", dirs[i], name);
        if (is_file(out)) return SMFW_OK;
    }
    return smfw_error_set(err, SMFW_ERR_NOT_FOUND,
                          "no %s.tiktoken in $SMFW_TIKTOKEN_DIR, %s or %s; download it once from "
                          "https://openaipublic.blob.core.windows.net/encodings/%s.tiktoken "
                          "(MIT-licensed data, see docs/tokenizers.md)",
                          name, dirs[n - 2], dirs[n - 1], name);
}

static void set_name_from_path(smfw_tokenizer *t, const char *path) {
    char tmp[4096];
    snprintf(tmp, sizeof tmp, "%s", path);
    size_t n = strlen(tmp);
    while (n > 1 && tmp[n - 1] == '/') tmp[--n] = 0;
    char *slash = strrchr(tmp, '/');
    const char *base = slash ? slash + 1 : tmp;
    if (strcmp(base, "tokenizer.json") == 0 && slash) {
        *slash = 0;
        slash = strrchr(tmp, '/');
        base = slash ? slash + 1 : tmp;
    }
    snprintf(t->name, sizeof t->name, "%s", base);
}

smfw_status smfw_tokenizer_new(const char *spec, smfw_tokenizer **out, smfw_error *err) {
    *out = NULL;
    if (!spec || !*spec) return smfw_error_set(err, SMFW_ERR_USAGE, "an empty tokenizer spec");
    smfw_tokenizer *t = calloc(1, sizeof *t);
    if (!t) return smfw_error_set(err, SMFW_ERR_NOMEM, "out of memory");
    smfw_status st;
    char path[4400];
    if (strcmp(spec, "builtin") == 0 || strncmp(spec, "builtin:", 8) == 0) {
        const char *name = spec[7] ? spec + 8 : "o200k_base";
        st = find_ranks(name, path, sizeof path, err);
        if (st == SMFW_OK) st = tok_load_tiktoken(t, name, path, err);
    } else if (is_dir(spec)) {
        snprintf(path, sizeof path, "%s/tokenizer.json", spec);
        st = is_file(path)
                 ? tok_load_hf_json(t, path, err)
                 : smfw_error_set(err, SMFW_ERR_NOT_FOUND, "%s holds no tokenizer.json", spec);
        if (st == SMFW_OK) set_name_from_path(t, spec);
    } else if (is_file(spec)) {
        const char *base = strrchr(spec, '/');
        base = base ? base + 1 : spec;
        size_t bl = strlen(base);
        if (bl > 9 && strcmp(base + bl - 9, ".tiktoken") == 0) {
            const char *enc = strncmp(base, "o200k_base", 10) == 0    ? "o200k_base"
                              : strncmp(base, "cl100k_base", 11) == 0 ? "cl100k_base"
                                                                      : NULL;
            st = enc ? tok_load_tiktoken(t, enc, spec, err)
                     : smfw_error_set(err, SMFW_ERR_USAGE,
                                      "%s: a .tiktoken file's name must start with o200k_base or "
                                      "cl100k_base, so smfw knows its pattern and special tokens",
                                      spec);
        } else {
            st = tok_load_hf_json(t, spec, err);
            if (st == SMFW_OK) set_name_from_path(t, spec);
        }
    } else if (strchr(spec, '/') && spec[0] != '/' && spec[0] != '.') {
        st = tok_hub_resolve(spec, path, sizeof path, err);
        if (st == SMFW_OK) {
            char tj[4500];
            snprintf(tj, sizeof tj, "%s/tokenizer.json", path);
            st = tok_load_hf_json(t, tj, err);
            if (st == SMFW_OK) {
                snprintf(t->name, sizeof t->name, "%s", spec);
                char *at = strchr(t->name, '@');
                if (at) *at = 0;
            }
        }
    } else {
        st = smfw_error_set(err, SMFW_ERR_NOT_FOUND, "no tokenizer at %s", spec);
    }
    if (st != SMFW_OK) {
        smfw_tokenizer_free(t);
        return st;
    }
    *out = t;
    return SMFW_OK;
}

static smfw_status nomem(smfw_error *err) {
    return smfw_error_set(err, SMFW_ERR_NOMEM, "out of memory");
}

/* Pre-tokenize and run the model over one normalized piece of text. */
static smfw_status model_part(smfw_tokenizer *t, const char *s, size_t n, int at_origin,
                              smfw_token_ids *out, smfw_error *err) {
    if (!n) return SMFW_OK;
    tok_bytes *buf;
    tok_spans *spans;
    smfw_status st = tok_pretokenize(t, s, n, at_origin, &buf, &spans, err);
    for (size_t i = 0; st == SMFW_OK && i < spans->n; i++)
        st = tok_bpe_encode(&t->bpe, &t->bs, buf->p + spans->v[i].off, spans->v[i].len, out, err);
    return st;
}

/* One segment between raw added tokens: normalize, cut by normalized added tokens. */
static smfw_status segment(smfw_tokenizer *t, const char *s, size_t n, int at_origin,
                           smfw_token_ids *out, smfw_error *err) {
    if (!n) return SMFW_OK;
    if (t->n_norms) {
        smfw_status st = tok_normalize(t->norms, t->n_norms, s, n, &t->norm, &t->tmp, err);
        if (st != SMFW_OK) return st;
        s = t->norm.p;
        n = t->norm.len;
    }
    if (!t->norm_added.n) return model_part(t, s, n, at_origin, out, err);
    /* the normalized buffer is reused below; keep our own copy */
    char *copy = malloc(n + 1);
    if (!copy) return nomem(err);
    memcpy(copy, s, n);
    size_t pos = 0, ms, me;
    uint32_t id;
    smfw_status st = SMFW_OK;
    while (st == SMFW_OK && pos < n) {
        int found = tok_added_find(&t->norm_added, copy, n, pos, &ms, &me, &id);
        size_t end = found ? ms : n;
        st = model_part(t, copy + pos, end - pos, at_origin && pos == 0, out, err);
        if (st == SMFW_OK && found && tok_ids_push(out, id)) st = nomem(err);
        pos = found ? me : n;
    }
    free(copy);
    return st;
}

smfw_status smfw_tokenizer_encode(smfw_tokenizer *t, const char *text, size_t len,
                                  const smfw_tokenize_opts *opts, smfw_token_ids *out,
                                  smfw_error *err) {
    out->len = 0;
    if (tok_utf8_sanitize_into(text, len, &t->clean)) return nomem(err);
    int add = opts && opts->add_special_tokens;
    for (size_t i = 0; add && i < t->n_prefix; i++)
        if (tok_ids_push(out, t->prefix_ids[i])) return nomem(err);
    const char *s = t->clean.p;
    size_t n = t->clean.len, pos = 0, ms, me;
    uint32_t id;
    smfw_status st = SMFW_OK;
    while (st == SMFW_OK && pos < n) {
        int found = tok_added_find(&t->raw_added, s, n, pos, &ms, &me, &id);
        size_t end = found ? ms : n;
        st = segment(t, s + pos, end - pos, pos == 0, out, err);
        if (st == SMFW_OK && found && tok_ids_push(out, id)) st = nomem(err);
        pos = found ? me : n;
    }
    for (size_t i = 0; st == SMFW_OK && add && i < t->n_suffix; i++)
        if (tok_ids_push(out, t->suffix_ids[i])) st = nomem(err);
    return st;
}

long long smfw_tokenizer_count(smfw_tokenizer *t, const char *text, size_t len, smfw_error *err) {
    smfw_token_ids ids = {0};
    smfw_status st = smfw_tokenizer_encode(t, text, len, NULL, &ids, err);
    long long n = st == SMFW_OK ? (long long)ids.len : -1;
    smfw_token_ids_free(&ids);
    return n;
}

smfw_status tok_new_from_json_text(const char *json, size_t len, const char *where,
                                   smfw_tokenizer **out, smfw_error *err) {
    *out = NULL;
    smfw_tokenizer *t = calloc(1, sizeof *t);
    if (!t) return nomem(err);
    smfw_status st = tok_load_hf_json_text(t, json, len, where, err);
    if (st != SMFW_OK) {
        smfw_tokenizer_free(t);
        return st;
    }
    snprintf(t->name, sizeof t->name, "%s", where);
    *out = t;
    return SMFW_OK;
}
