/* cmd_tokenize.c - `smfw tokenize`: token counts (or ids) per line or per file
 * with a tokenizer.json or a tiktoken encoding, to compare with other tools. */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include <smfw/tokenizer.h>

#include "commands.h"

extern const smfw_command smfw_command_tokenize;

typedef struct tok_cli {
    smfw_tokenizer *tok;
    smfw_token_ids ids;
    smfw_tokenize_opts opts;
    int print_ids, per_file, jsonl;
    long long total;
} tok_cli;

static int emit(tok_cli *c, const char *text, size_t len, const char *where, size_t line) {
    smfw_error err;
    smfw_error_clear(&err);
    if (smfw_tokenizer_encode(c->tok, text, len, &c->opts, &c->ids, &err) != SMFW_OK) {
        fprintf(stderr, "smfw: error: %s:%zu: %s\n", where, line, err.message);
        return smfw_status_exit_code(err.status);
    }
    c->total += (long long)c->ids.len;
    if (!c->print_ids) {
        printf("%zu\n", c->ids.len);
        return 0;
    }
    putchar('[');
    for (size_t i = 0; i < c->ids.len; i++) printf(i ? ",%u" : "%u", c->ids.ids[i]);
    fputs("]\n", stdout);
    return 0;
}

/* --jsonl: a line is a JSON string, or an object whose "text" is one. */
static int emit_jsonl(tok_cli *c, const char *line, size_t len, const char *where, size_t no) {
    json_error_t jerr;
    json_t *v = json_loadb(line, len, JSON_DECODE_ANY | JSON_ALLOW_NUL, &jerr);
    json_t *s = json_is_object(v) ? json_object_get(v, "text") : v;
    if (!json_is_string(s)) {
        fprintf(stderr,
                "smfw: error: %s:%zu: not a JSON string or an object with a \"text\" string\n",
                where, no);
        json_decref(v);
        return 2;
    }
    int rc = emit(c, json_string_value(s), json_string_length(s), where, no);
    json_decref(v);
    return rc;
}

static int do_file(tok_cli *c, const char *path) {
    FILE *f = strcmp(path, "-") == 0 ? stdin : fopen(path, "rb");
    if (!f) {
        fprintf(stderr, "smfw: error: cannot open %s\n", path);
        return 1;
    }
    char *buf = NULL;
    size_t cap = 0;
    ssize_t n;
    size_t no = 0;
    int rc = 0;
    if (c->per_file) {
        size_t len = 0;
        char chunk[65536];
        size_t k;
        while ((k = fread(chunk, 1, sizeof chunk, f)) > 0) {
            if (len + k + 1 > cap) {
                cap = (len + k + 1) * 2;
                char *p = realloc(buf, cap);
                if (!p) {
                    rc = 1;
                    break;
                }
                buf = p;
            }
            memcpy(buf + len, chunk, k);
            len += k;
        }
        if (!rc) rc = emit(c, buf ? buf : "", len, path, 1);
    } else {
        while (rc == 0 && (n = getline(&buf, &cap, f)) >= 0) {
            size_t len = (size_t)n;
            no++;
            if (len && buf[len - 1] == '\n') len--;
            rc = c->jsonl ? emit_jsonl(c, buf, len, path, no) : emit(c, buf, len, path, no);
        }
    }
    free(buf);
    if (f != stdin) fclose(f);
    return rc;
}

static int tokenize_main(int argc, char **argv) {
    static const struct option longs[] = {{"tokenizer", required_argument, 0, 't'},
                                          {"ids", no_argument, 0, 'i'},
                                          {"per-file", no_argument, 0, 'f'},
                                          {"jsonl", no_argument, 0, 'j'},
                                          {"add-special-tokens", no_argument, 0, 'a'},
                                          {"total", no_argument, 0, 'T'},
                                          {"help", no_argument, 0, 'h'},
                                          {0, 0, 0, 0}};
    tok_cli c;
    memset(&c, 0, sizeof c);
    const char *spec = NULL;
    int total = 0, o;
    optind = 1;
    while ((o = getopt_long(argc, argv, "t:h", longs, NULL)) != -1) {
        switch (o) {
        case 't':
            spec = optarg;
            break;
        case 'i':
            c.print_ids = 1;
            break;
        case 'f':
            c.per_file = 1;
            break;
        case 'j':
            c.jsonl = 1;
            break;
        case 'a':
            c.opts.add_special_tokens = 1;
            break;
        case 'T':
            total = 1;
            break;
        case 'h':
            fputs(smfw_command_tokenize.usage, stdout);
            return 0;
        default:
            fputs(smfw_command_tokenize.usage, stderr);
            return 2;
        }
    }
    if (!spec) {
        fprintf(stderr, "smfw: error: tokenize needs --tokenizer SPEC (a tokenizer.json, a folder "
                        "holding one, or builtin[:o200k_base|cl100k_base])\n");
        return 2;
    }
    smfw_error err;
    smfw_error_clear(&err);
    if (smfw_tokenizer_new(spec, &c.tok, &err) != SMFW_OK) return smfw_cli_fail(&err);
    int rc = 0;
    if (optind >= argc) rc = do_file(&c, "-");
    for (int i = optind; rc == 0 && i < argc; i++) rc = do_file(&c, argv[i]);
    if (rc == 0 && total)
        fprintf(stderr, "total %lld tokens (%s)\n", c.total, smfw_tokenizer_name(c.tok));
    smfw_token_ids_free(&c.ids);
    smfw_tokenizer_free(c.tok);
    return rc;
}

const smfw_command smfw_command_tokenize = {
    "tokenize", "count tokens (or print ids) with a tokenizer.json or a tiktoken encoding",
    "Usage: smfw tokenize --tokenizer SPEC [--ids] [--per-file] [--jsonl] [--add-special-tokens]\n"
    "                     [--total] [FILE...]\n\n"
    "Prints one line per input line (or per file with --per-file): its token count, or with\n"
    "--ids its token ids as a JSON array. FILE - or none reads standard input. A line's\n"
    "newline is not part of its text; with --jsonl each line is a JSON string (or an object\n"
    "with a \"text\" string), so texts may hold newlines.\n\n"
    "SPEC is a tokenizer.json, a folder holding one, builtin (= o200k_base),\n"
    "builtin:o200k_base or builtin:cl100k_base (ranks from $SMFW_TIKTOKEN_DIR, the smfw\n"
    "cache's tokenizers/ or share/smfw/tokenizers), or a path to o200k_base.tiktoken or\n"
    "cl100k_base.tiktoken, or a Hugging Face model id org/name[@revision] (downloaded once\n"
    "into the huggingface_hub cache; HF_TOKEN, HF_HUB_OFFLINE=1). Counts are as AIPerf\n"
    "counts: special-token strings in the text are tokens, and no BOS/EOS is added unless\n"
    "--add-special-tokens. Invalid UTF-8 is replaced by U+FFFD first. See\n"
    "docs/tokenizers.md.\n",
    tokenize_main};
