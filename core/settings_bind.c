/*
 * settings_bind.c - declared settings bound into a plugin's own options struct
 * (smfw_settings_bind, config.h): one table of (key, C type, offsetof), the
 * values and defaults from the declarations.
 */
#include <limits.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <smfw/config.h>
#include <smfw/log.h>

static int type_fits(smfw_bind_type bind, smfw_setting_type decl) {
    switch (bind) {
    case SMFW_BIND_STRING:
        return decl == SMFW_SETTING_STRING || decl == SMFW_SETTING_SECRET ||
               decl == SMFW_SETTING_PATH;
    case SMFW_BIND_INT64:
    case SMFW_BIND_INT:
        return decl == SMFW_SETTING_INT;
    case SMFW_BIND_DOUBLE:
        return decl == SMFW_SETTING_DOUBLE;
    case SMFW_BIND_DURATION:
        return decl == SMFW_SETTING_DURATION;
    case SMFW_BIND_BOOL:
        return decl == SMFW_SETTING_BOOL;
    case SMFW_BIND_LIST:
        return decl == SMFW_SETTING_LIST;
    }
    return 0;
}

static char *dup_text(const char *s) {
    size_t n = strlen(s) + 1;
    char *d = malloc(n);
    if (d) memcpy(d, s, n);
    return d;
}

static smfw_status bind_one(const smfw_settings *s, const smfw_setting_binding *b,
                            const smfw_setting_decl *d, char *base, smfw_error *err) {
    const char *v = smfw_settings_get(s, b->key);
    void *field = base + b->offset;
    switch (b->type) {
    case SMFW_BIND_STRING: {
        char *copy = NULL;
        if (v && *v && !(copy = dup_text(v)))
            return smfw_error_set(err, SMFW_ERR_NOMEM, "out of memory");
        if (copy && d->type == SMFW_SETTING_SECRET) smfw_secret_register(copy);
        memcpy(field, &copy, sizeof copy);
        return SMFW_OK;
    }
    case SMFW_BIND_INT64: {
        int64_t x = smfw_settings_get_int(s, b->key, 0);
        memcpy(field, &x, sizeof x);
        return SMFW_OK;
    }
    case SMFW_BIND_INT: {
        int64_t x = smfw_settings_get_int(s, b->key, 0);
        if (x < INT_MIN || x > INT_MAX)
            return smfw_error_set(err, SMFW_ERR_CONFIG, "%s.%s = %lld is out of range",
                                  smfw_settings_name(s), b->key, (long long)x);
        int i = (int)x;
        memcpy(field, &i, sizeof i);
        return SMFW_OK;
    }
    case SMFW_BIND_DOUBLE:
    case SMFW_BIND_DURATION: {
        double x = b->type == SMFW_BIND_DOUBLE ? smfw_settings_get_double(s, b->key, 0)
                                               : smfw_settings_get_duration(s, b->key, 0);
        memcpy(field, &x, sizeof x);
        return SMFW_OK;
    }
    case SMFW_BIND_BOOL: {
        int x = smfw_settings_get_bool(s, b->key, 0);
        memcpy(field, &x, sizeof x);
        return SMFW_OK;
    }
    case SMFW_BIND_LIST: {
        const char *const *items = NULL;
        size_t n = smfw_settings_get_list(s, b->key, &items);
        char **copy = NULL;
        if (n) {
            if (!(copy = calloc(n, sizeof *copy)))
                return smfw_error_set(err, SMFW_ERR_NOMEM, "out of memory");
            for (size_t i = 0; i < n; i++) {
                if (!(copy[i] = dup_text(items[i]))) {
                    while (i--) free(copy[i]);
                    free(copy);
                    return smfw_error_set(err, SMFW_ERR_NOMEM, "out of memory");
                }
            }
        }
        memcpy(field, &copy, sizeof copy);
        memcpy(base + b->count_offset, &n, sizeof n);
        return SMFW_OK;
    }
    }
    return smfw_error_set(err, SMFW_ERR_INTERNAL, "%s.%s: unknown binding type %d",
                          smfw_settings_name(s), b->key, (int)b->type);
}

smfw_status smfw_settings_bind(const smfw_settings *settings, const smfw_setting_binding *map,
                               void *out, smfw_error *err) {
    if (!settings || !map || !out)
        return smfw_error_set(err, SMFW_ERR_INTERNAL, "smfw_settings_bind: nothing to bind");
    const smfw_config *cfg = smfw_settings_config(settings);
    for (const smfw_setting_binding *b = map; b->key; b++) {
        const smfw_settings *s = b->section ? smfw_config_section(cfg, b->section) : settings;
        const char *section = b->section ? b->section : smfw_settings_name(settings);
        if (!s)
            return smfw_error_set(err, SMFW_ERR_INTERNAL,
                                  "settings binding: no section [%s] for key %s", section, b->key);
        const smfw_setting_decl *d = smfw_settings_decl(s, b->key);
        if (!d)
            return smfw_error_set(err, SMFW_ERR_INTERNAL, "settings binding: %s.%s is not declared",
                                  section, b->key);
        if (!type_fits(b->type, d->type))
            return smfw_error_set(err, SMFW_ERR_INTERNAL,
                                  "settings binding: %s.%s is declared with another type than "
                                  "the field it is bound to",
                                  section, b->key);
        smfw_status st = bind_one(s, b, d, out, err);
        if (st != SMFW_OK) return st;
    }
    return SMFW_OK;
}

void smfw_settings_unbind(const smfw_setting_binding *map, void *out) {
    if (!map || !out) return;
    char *base = out;
    for (const smfw_setting_binding *b = map; b->key; b++) {
        if (b->type == SMFW_BIND_STRING) {
            char *p;
            memcpy(&p, base + b->offset, sizeof p);
            free(p);
            p = NULL;
            memcpy(base + b->offset, &p, sizeof p);
        } else if (b->type == SMFW_BIND_LIST) {
            char **l;
            size_t n;
            memcpy(&l, base + b->offset, sizeof l);
            memcpy(&n, base + b->count_offset, sizeof n);
            for (size_t i = 0; l && i < n; i++) free(l[i]);
            free(l);
            l = NULL;
            n = 0;
            memcpy(base + b->offset, &l, sizeof l);
            memcpy(base + b->count_offset, &n, sizeof n);
        }
    }
}
