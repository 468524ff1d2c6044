/* aws_ini.c - AWS config/credentials file parser. */
#include "aws/aws_ini.h"

#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

typedef struct ini_entry {
    char *section;
    char *key;
    char *value;
} ini_entry;

struct aws_ini {
    ini_entry *e;
    size_t n, cap;
};

void aws_ini_free(aws_ini *ini) {
    if (!ini) return;
    for (size_t i = 0; i < ini->n; i++) {
        free(ini->e[i].section);
        free(ini->e[i].key);
        free(ini->e[i].value);
    }
    free(ini->e);
    free(ini);
}

static char *dup_trim(const char *s, size_t n) {
    while (n && isspace((unsigned char)*s)) s++, n--;
    while (n && isspace((unsigned char)s[n - 1])) n--;
    char *d = malloc(n + 1);
    if (!d) return NULL;
    memcpy(d, s, n);
    d[n] = '\0';
    return d;
}

static int add(aws_ini *ini, const char *section, char *key, char *value) {
    if (!key || !value) {
        free(key);
        free(value);
        return -1;
    }
    for (char *k = key; *k; k++) *k = (char)tolower((unsigned char)*k);
    if (ini->n == ini->cap) {
        size_t cap = ini->cap ? ini->cap * 2 : 16;
        ini_entry *e = realloc(ini->e, cap * sizeof(*e));
        if (!e) {
            free(key);
            free(value);
            return -1;
        }
        ini->e = e;
        ini->cap = cap;
    }
    char *sec = strdup(section);
    if (!sec) {
        free(key);
        free(value);
        return -1;
    }
    ini->e[ini->n++] = (ini_entry){sec, key, value};
    return 0;
}

smfw_status aws_ini_parse(const char *text, size_t len, const char *name, aws_ini **out,
                          smfw_error *err) {
    *out = NULL;
    aws_ini *ini = calloc(1, sizeof(*ini));
    if (!ini) return smfw_error_set(err, SMFW_ERR_NOMEM, "out of memory reading %s", name);
    char *section = NULL;
    char *parent = NULL; /* key with an empty value: indented lines nest under it */
    int lineno = 0;
    smfw_status st = SMFW_OK;
    size_t i = 0;
    while (i < len && st == SMFW_OK) {
        size_t j = i;
        while (j < len && text[j] != '\n') j++;
        const char *line = text + i;
        size_t n = j - i;
        i = j + 1;
        lineno++;
        if (n && line[n - 1] == '\r') n--;
        if (memchr(line, '\0', n)) {
            st = smfw_error_set(err, SMFW_ERR_CONFIG, "%s line %d: contains a NUL byte", name,
                                lineno);
            break;
        }
        size_t k = 0;
        while (k < n && (line[k] == ' ' || line[k] == '\t')) k++;
        int indented = k > 0;
        if (k == n || line[k] == '#' || line[k] == ';') continue;
        if (!indented && line[k] == '[') {
            const char *close = memchr(line + k, ']', n - k);
            if (!close) {
                st = smfw_error_set(err, SMFW_ERR_CONFIG, "%s line %d: section header without ']'",
                                    name, lineno);
                break;
            }
            free(section);
            section = dup_trim(line + k + 1, (size_t)(close - line - k - 1));
            free(parent);
            parent = NULL;
            if (!section) st = smfw_error_set(err, SMFW_ERR_NOMEM, "out of memory");
            continue;
        }
        if (!section) {
            st = smfw_error_set(err, SMFW_ERR_CONFIG,
                                "%s line %d: a key appears before any [section]", name, lineno);
            break;
        }
        const char *sep = NULL;
        for (size_t m = k; m < n; m++)
            if (line[m] == '=' || line[m] == ':') {
                sep = line + m;
                break;
            }
        if (!sep) {
            if (indented && parent) continue; /* continuation of a nested block: ignore */
            st = smfw_error_set(err, SMFW_ERR_CONFIG, "%s line %d: expected 'key = value' in [%s]",
                                name, lineno, section);
            break;
        }
        char *key = dup_trim(line + k, (size_t)(sep - line - k));
        char *value = dup_trim(sep + 1, (size_t)(line + n - sep - 1));
        if (key && !*key) {
            free(key);
            free(value);
            st = smfw_error_set(err, SMFW_ERR_CONFIG, "%s line %d: empty key", name, lineno);
            break;
        }
        if (indented && parent && key) {
            char *nested = malloc(strlen(parent) + strlen(key) + 2);
            if (nested) sprintf(nested, "%s.%s", parent, key);
            free(key);
            key = nested;
        } else {
            free(parent);
            parent = (value && !*value && key) ? strdup(key) : NULL;
        }
        if (add(ini, section, key, value) != 0)
            st = smfw_error_set(err, SMFW_ERR_NOMEM, "out of memory reading %s", name);
    }
    free(section);
    free(parent);
    if (st != SMFW_OK) {
        aws_ini_free(ini);
        return st;
    }
    *out = ini;
    return SMFW_OK;
}

smfw_status aws_ini_load(const char *path, aws_ini **out, smfw_error *err) {
    *out = NULL;
    FILE *f = fopen(path, "rb");
    if (!f) {
        if (errno == ENOENT || errno == ENOTDIR) return aws_ini_parse("", 0, path, out, err);
        return smfw_error_set(err, SMFW_ERR_IO, "cannot read %s: %s", path, strerror(errno));
    }
    char *buf = NULL;
    size_t len = 0, cap = 0;
    for (;;) {
        if (cap - len < 4096) {
            if (cap > (64u << 20)) {
                fclose(f);
                free(buf);
                return smfw_error_set(err, SMFW_ERR_CONFIG, "%s is larger than 64 MiB", path);
            }
            cap = cap ? cap * 2 : 8192;
            char *nb = realloc(buf, cap);
            if (!nb) {
                fclose(f);
                free(buf);
                return smfw_error_set(err, SMFW_ERR_NOMEM, "out of memory reading %s", path);
            }
            buf = nb;
        }
        size_t r = fread(buf + len, 1, cap - len, f);
        len += r;
        if (r == 0) break;
    }
    fclose(f);
    smfw_status st = aws_ini_parse(buf ? buf : "", len, path, out, err);
    free(buf);
    return st;
}

const char *aws_ini_get(const aws_ini *ini, const char *section, const char *key) {
    if (!ini) return NULL;
    const char *v = NULL;
    for (size_t i = 0; i < ini->n; i++)
        if (strcmp(ini->e[i].section, section) == 0 && strcasecmp(ini->e[i].key, key) == 0)
            v = ini->e[i].value;
    return v;
}

int aws_ini_has_section(const aws_ini *ini, const char *section) {
    if (!ini) return 0;
    for (size_t i = 0; i < ini->n; i++)
        if (strcmp(ini->e[i].section, section) == 0) return 1;
    return 0;
}

size_t aws_ini_count(const aws_ini *ini) {
    return ini ? ini->n : 0;
}
