/*
 * prices.c - the instance price table (conf/prices.conf): [region] sections
 * of "instance_type = USD per hour" and a [table] section describing where
 * the numbers come from. A tiny parser of its own so errors name file and line.
 */
#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <smfw/app.h>
#include <smfw/capacity.h>

typedef struct price_entry {
    char *region;
    char *instance_type;
    double usd_per_hour;
} price_entry;

struct smfw_price_table {
    price_entry *entries;
    size_t n, cap;
    char *as_of, *source, *currency, *default_region;
};

const char *smfw_price_table_default_path(char *buf, size_t size) {
    /* Source tree: conf/prices.conf; installed: <datadir>/smfw/prices.conf. */
    snprintf(buf, size, "%s/conf/prices.conf", smfw_data_dir());
    FILE *fp = fopen(buf, "r");
    if (fp)
        fclose(fp);
    else
        snprintf(buf, size, "%s/prices.conf", smfw_data_dir());
    return buf;
}

void smfw_price_table_free(smfw_price_table *t) {
    if (!t) return;
    for (size_t i = 0; i < t->n; i++) {
        free(t->entries[i].region);
        free(t->entries[i].instance_type);
    }
    free(t->entries);
    free(t->as_of);
    free(t->source);
    free(t->currency);
    free(t->default_region);
    free(t);
}

static char *trim(char *s) {
    while (isspace((unsigned char)*s)) s++;
    size_t n = strlen(s);
    while (n && isspace((unsigned char)s[n - 1])) s[--n] = '\0';
    return s;
}

static int set_str(char **field, const char *v) {
    char *c = strdup(v);
    if (!c) return -1;
    free(*field);
    *field = c;
    return 0;
}

smfw_status smfw_price_table_load(const char *path, smfw_price_table **out, smfw_error *err) {
    *out = NULL;
    FILE *fp = fopen(path, "r");
    if (!fp)
        return smfw_error_set(err, SMFW_ERR_IO, "cannot read price table %s: %s", path,
                              strerror(errno));
    smfw_price_table *t = calloc(1, sizeof *t);
    if (!t) {
        fclose(fp);
        return smfw_error_set(err, SMFW_ERR_NOMEM, "out of memory");
    }
    char line[1024], section[128] = "";
    int lineno = 0;
    smfw_status st = SMFW_OK;
    while (fgets(line, sizeof line, fp)) {
        lineno++;
        if (!strchr(line, '\n') && !feof(fp)) {
            st = smfw_error_set(err, SMFW_ERR_CONFIG, "%s:%d: line too long", path, lineno);
            break;
        }
        /* Comments: whole lines starting with # or ;, and " #" inside a line. */
        char *hash = strstr(line, " #");
        if (hash) *hash = '\0';
        char *s = trim(line);
        if (!*s || *s == '#' || *s == ';') continue;
        if (*s == '[') {
            char *close = strchr(s, ']');
            if (!close || close[1] || close == s + 1 || (size_t)(close - s) >= sizeof section) {
                st = smfw_error_set(err, SMFW_ERR_CONFIG,
                                    "%s:%d: bad section header \"%s\" (expected [region] or "
                                    "[table])",
                                    path, lineno, s);
                break;
            }
            *close = '\0';
            snprintf(section, sizeof section, "%s", trim(s + 1));
            continue;
        }
        char *eq = strchr(s, '=');
        if (!eq) {
            st = smfw_error_set(err, SMFW_ERR_CONFIG, "%s:%d: expected key = value, got \"%s\"",
                                path, lineno, s);
            break;
        }
        *eq = '\0';
        char *key = trim(s), *value = trim(eq + 1);
        if (!*section) {
            st = smfw_error_set(err, SMFW_ERR_CONFIG,
                                "%s:%d: \"%s\" outside any section (put prices under [region])",
                                path, lineno, key);
            break;
        }
        if (strcmp(section, "table") == 0) {
            char **field = strcmp(key, "as_of") == 0            ? &t->as_of
                           : strcmp(key, "source") == 0         ? &t->source
                           : strcmp(key, "currency") == 0       ? &t->currency
                           : strcmp(key, "default_region") == 0 ? &t->default_region
                                                                : NULL;
            if (!field) {
                st = smfw_error_set(err, SMFW_ERR_CONFIG,
                                    "%s:%d: unknown key \"%s\" in [table] (as_of, source, "
                                    "currency, default_region)",
                                    path, lineno, key);
                break;
            }
            if (set_str(field, value) != 0) {
                st = smfw_error_set(err, SMFW_ERR_NOMEM, "out of memory");
                break;
            }
            continue;
        }
        char *end = NULL;
        errno = 0;
        double price = strtod(value, &end);
        if (!*key || strpbrk(key, " \t") || end == value || *end || errno || !isfinite(price) ||
            price <= 0) {
            st = smfw_error_set(err, SMFW_ERR_CONFIG,
                                "%s:%d: expected instance_type = USD per hour (e.g. "
                                "ml.g5.2xlarge = 1.515), got \"%s = %s\"",
                                path, lineno, key, value);
            break;
        }
        price_entry *dup = NULL;
        for (size_t i = 0; i < t->n; i++)
            if (strcmp(t->entries[i].region, section) == 0 &&
                strcmp(t->entries[i].instance_type, key) == 0)
                dup = &t->entries[i];
        if (dup) {
            st = smfw_error_set(err, SMFW_ERR_CONFIG, "%s:%d: %s is listed twice in [%s]", path,
                                lineno, key, section);
            break;
        }
        if (t->n == t->cap) {
            size_t cap = t->cap ? t->cap * 2 : 64;
            price_entry *g = realloc(t->entries, cap * sizeof *g);
            if (!g) {
                st = smfw_error_set(err, SMFW_ERR_NOMEM, "out of memory");
                break;
            }
            t->entries = g;
            t->cap = cap;
        }
        price_entry *e = &t->entries[t->n];
        e->region = strdup(section);
        e->instance_type = strdup(key);
        e->usd_per_hour = price;
        if (!e->region || !e->instance_type) {
            free(e->region);
            free(e->instance_type);
            st = smfw_error_set(err, SMFW_ERR_NOMEM, "out of memory");
            break;
        }
        t->n++;
    }
    if (st == SMFW_OK && ferror(fp))
        st = smfw_error_set(err, SMFW_ERR_IO, "cannot read price table %s", path);
    fclose(fp);
    if (st == SMFW_OK && t->currency && strcmp(t->currency, "USD") != 0)
        st = smfw_error_set(err, SMFW_ERR_CONFIG,
                            "%s: currency %s is not supported (prices are USD per hour)", path,
                            t->currency);
    if (st != SMFW_OK) {
        smfw_price_table_free(t);
        return st;
    }
    *out = t;
    return SMFW_OK;
}

smfw_status smfw_price_table_lookup(const smfw_price_table *t, const char *instance_type,
                                    const char *region, double *usd_per_hour, smfw_error *err) {
    if (!region || !*region) region = t->default_region ? t->default_region : "us-east-1";
    char known[1024] = "";
    int region_known = 0;
    for (size_t i = 0; i < t->n; i++) {
        if (strcmp(t->entries[i].region, region) != 0) continue;
        region_known = 1;
        if (instance_type && strcmp(t->entries[i].instance_type, instance_type) == 0) {
            *usd_per_hour = t->entries[i].usd_per_hour;
            return SMFW_OK;
        }
        size_t l = strlen(known);
        if (l + strlen(t->entries[i].instance_type) + 8 < sizeof known)
            snprintf(known + l, sizeof known - l, "%s%s", l ? ", " : "",
                     t->entries[i].instance_type);
    }
    if (!region_known)
        return smfw_error_set(err, SMFW_ERR_NOT_FOUND,
                              "the price table has no prices for region %s (add a [%s] section "
                              "with --prices FILE, or give --price-per-hour)",
                              region, region);
    return smfw_error_set(err, SMFW_ERR_NOT_FOUND,
                          "no price for instance type \"%s\" in %s (known: %s); give "
                          "--price-per-hour or a table with --prices FILE",
                          instance_type ? instance_type : "", region, known);
}

const char *smfw_price_table_as_of(const smfw_price_table *t) {
    return t ? t->as_of : NULL;
}

const char *smfw_price_table_source(const smfw_price_table *t) {
    return t ? t->source : NULL;
}
