/*
 * aws_endpoint_rules.c - the Smithy endpoint rules language: parameters,
 * tree/endpoint/error rules, conditions with assign, templates and the
 * standard library (isSet, not, booleanEquals, stringEquals, getAttr,
 * substring, uriEncode, parseURL, isValidHostLabel, aws.partition,
 * aws.parseArn, aws.isVirtualHostableS3Bucket). Semantics follow botocore's
 * endpoint_provider.py, which the endpoint test compares against.
 *
 * Values are jansson values; "None" is NULL (a JSON null reads as None).
 * Literals from the rule set are copied, never shared, so resolutions on
 * several threads never touch the shared rule set's reference counts.
 */
#include <arpa/inet.h>
#include <ctype.h>
#include <regex.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "aws/aws_text.h"
#include "aws/aws_endpoint_rules.h"

typedef struct ev {
    const json_t *partitions;
    long steps;
    int failed;     /* a hard error: stop everything */
    int rule_error; /* ... raised by an error rule */
    char msg[1024];
} ev;

static void fail(ev *e, int rule_error, const char *fmt, ...) SMFW_PRINTF(3, 4);
static void fail(ev *e, int rule_error, const char *fmt, ...) {
    if (e->failed) return;
    e->failed = 1;
    e->rule_error = rule_error;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(e->msg, sizeof(e->msg), fmt, ap);
    va_end(ap);
}

static int step(ev *e, int depth) {
    if (e->failed) return 0;
    if (++e->steps > AWS_RULES_MAX_STEPS) {
        fail(e, 0, "the endpoint rule set needs more than %d steps", AWS_RULES_MAX_STEPS);
        return 0;
    }
    if (depth > AWS_RULES_MAX_DEPTH) {
        fail(e, 0, "the endpoint rule set nests deeper than %d", AWS_RULES_MAX_DEPTH);
        return 0;
    }
    return 1;
}

/* None for NULL and JSON null. */
static json_t *none_if_null(json_t *v) {
    if (v && json_is_null(v)) {
        json_decref(v);
        return NULL;
    }
    return v;
}

/* ---- templates ---- */

/* botocore treats a string as a template only when it holds {[a-zA-Z#]+}. */
static int is_template(const char *s) {
    for (const char *p = strchr(s, '{'); p; p = strchr(p + 1, '{')) {
        const char *q = p + 1;
        while (isalpha((unsigned char)*q) || *q == '#') q++;
        if (q > p + 1 && *q == '}') return 1;
    }
    return 0;
}

static int put_value_text(smfw_buf *b, const json_t *v) {
    if (json_is_string(v))
        smfw_buf_append(b, json_string_value(v), json_string_length(v));
    else if (json_is_true(v))
        smfw_buf_puts(b, "True"); /* Python's str(True) */
    else if (json_is_false(v))
        smfw_buf_puts(b, "False");
    else if (json_is_integer(v)) {
        char n[32];
        snprintf(n, sizeof(n), "%lld", (long long)json_integer_value(v));
        smfw_buf_puts(b, n);
    } else
        return -1;
    return 0;
}

/* Python str.format over the scope: "{{" "}}" escapes, "{a#b}" looks up a, then its b. */
static json_t *render_template(ev *e, const char *s, const json_t *scope) {
    smfw_buf b;
    smfw_buf_init(&b);
    for (const char *p = s; *p && !e->failed;) {
        if (p[0] == '{' && p[1] == '{') {
            smfw_buf_putc(&b, '{');
            p += 2;
        } else if (p[0] == '}' && p[1] == '}') {
            smfw_buf_putc(&b, '}');
            p += 2;
        } else if (p[0] == '}') {
            fail(e, 0, "single '}' in the endpoint template '%.200s'", s);
        } else if (p[0] == '{') {
            const char *end = strchr(p, '}');
            if (!end) {
                fail(e, 0, "unclosed '{' in the endpoint template '%.200s'", s);
                break;
            }
            char name[256];
            size_t n = (size_t)(end - p - 1);
            if (n == 0 || n >= sizeof(name)) {
                fail(e, 0, "bad field in the endpoint template '%.200s'", s);
                break;
            }
            memcpy(name, p + 1, n);
            name[n] = '\0';
            const json_t *v = scope;
            for (char *save = NULL, *part = strtok_r(name, "#", &save); part && v;
                 part = strtok_r(NULL, "#", &save))
                v = json_is_object(v) ? json_object_get(v, part) : NULL;
            if (!v || json_is_null(v) || put_value_text(&b, v) != 0)
                fail(e, 0, "the endpoint template '%.200s' names an unset value", s);
            p = end + 1;
        } else {
            smfw_buf_putc(&b, *p++);
        }
        if (b.len > AWS_RULES_MAX_STRING) fail(e, 0, "an endpoint template is too long");
    }
    json_t *out = NULL;
    if (!e->failed) {
        if (b.failed)
            fail(e, 0, "out of memory");
        else
            out = json_stringn(b.data ? b.data : "", b.len);
    }
    smfw_buf_free(&b);
    return out;
}

/* ---- regular expressions (partitions' regionRegex) ---- */

/* Python's \d \w \- \. into POSIX ERE; anything else unusual refuses to match. */
static int py_regex_match(const char *pat, const char *s) {
    smfw_buf b;
    smfw_buf_init(&b);
    int in_class = 0, ok = 1;
    for (const char *p = pat; *p && ok; p++) {
        if (*p == '\\') {
            p++;
            if (*p == 'd')
                smfw_buf_puts(&b, in_class ? "0-9" : "[0-9]");
            else if (*p == 'w')
                smfw_buf_puts(&b, in_class ? "A-Za-z0-9_" : "[A-Za-z0-9_]");
            else if (*p == '-' && !in_class)
                smfw_buf_putc(&b, '-');
            else if (*p && strchr(".^$*+?()[]{}|\\/", *p) && !in_class) {
                smfw_buf_putc(&b, '\\');
                smfw_buf_putc(&b, *p);
            } else
                ok = 0;
        } else {
            if (*p == '[') in_class = 1;
            if (*p == ']') in_class = 0;
            smfw_buf_putc(&b, *p);
        }
    }
    int match = 0;
    regex_t re;
    if (ok && !b.failed && b.data && regcomp(&re, b.data, REG_EXTENDED | REG_NOSUB) == 0) {
        match = regexec(&re, s, 0, NULL, 0) == 0;
        regfree(&re);
    }
    smfw_buf_free(&b);
    return match;
}

/* ---- standard library ---- */

static int truthy(const json_t *v) {
    if (!v || json_is_null(v) || json_is_false(v)) return 0;
    if (json_is_string(v)) return json_string_length(v) > 0;
    if (json_is_integer(v)) return json_integer_value(v) != 0;
    if (json_is_array(v)) return json_array_size(v) > 0;
    if (json_is_object(v)) return json_object_size(v) > 0;
    return 1;
}

static json_t *fn_partition(ev *e, const json_t *region) {
    const json_t *parts = json_object_get(e->partitions, "partitions");
    if (!json_is_array(parts) || json_array_size(parts) == 0) {
        fail(e, 0, "partitions.json has no partitions");
        return NULL;
    }
    const json_t *found = NULL, *region_entry = NULL;
    const char *r = json_is_string(region) ? json_string_value(region) : NULL;
    size_t i;
    const json_t *p;
    json_array_foreach(parts, i, p) {
        if (!r) break;
        const json_t *regions = json_object_get(p, "regions");
        const json_t *entry = json_is_object(regions) ? json_object_get(regions, r) : NULL;
        const char *rx = json_string_value(json_object_get(p, "regionRegex"));
        if (entry || (rx && py_regex_match(rx, r))) {
            found = p;
            region_entry = entry;
            break;
        }
    }
    if (!found) found = json_array_get(parts, 0); /* botocore: the first is the default */
    const json_t *outputs = json_object_get(found, "outputs");
    json_t *out = json_is_object(outputs) ? json_deep_copy(outputs) : json_object();
    if (!out) return NULL;
    /* A region entry may override outputs (the spec); botocore 1.43's data has none. */
    if (json_is_object(region_entry)) {
        const char *k;
        json_t *v;
        json_object_foreach((json_t *)region_entry, k, v) {
            if (strcmp(k, "description") != 0) json_object_set_new(out, k, json_deep_copy(v));
        }
    }
    const json_t *id = json_object_get(found, "id");
    if (json_is_string(id)) json_object_set_new(out, "name", json_deep_copy(id));
    return out;
}

/* getAttr: "a.b", "a[2]", "[0]"; an index ends the path (botocore). */
static json_t *fn_get_attr(ev *e, const json_t *value, const json_t *path) {
    if (!json_is_string(path)) {
        fail(e, 0, "getAttr needs a string path");
        return NULL;
    }
    char buf[512];
    if (json_string_length(path) >= sizeof(buf)) return NULL;
    snprintf(buf, sizeof(buf), "%s", json_string_value(path));
    const json_t *v = value;
    for (char *save = NULL, *part = strtok_r(buf, ".", &save); part && v;
         part = strtok_r(NULL, ".", &save)) {
        char *br = strchr(part, '[');
        if (br) {
            char *close = strchr(br, ']');
            char *endp = NULL;
            long idx = close && close > br + 1 ? strtol(br + 1, &endp, 10) : -1;
            if (idx < 0 || endp != close) return NULL;
            *br = '\0';
            if (*part) v = json_is_object(v) ? json_object_get(v, part) : NULL;
            if (!json_is_array(v) || (size_t)idx >= json_array_size(v)) return NULL;
            return none_if_null(json_deep_copy(json_array_get(v, (size_t)idx)));
        }
        v = json_is_object(v) ? json_object_get(v, part) : NULL;
    }
    return v ? none_if_null(json_deep_copy(v)) : NULL;
}

static int valid_host_label(const char *s, size_t n) {
    if (n < 1 || n > 63 || s[0] == '-' || s[n - 1] == '-') return 0;
    for (size_t i = 0; i < n; i++)
        if (!isalnum((unsigned char)s[i]) && s[i] != '-') return 0;
    return 1;
}

static json_t *fn_is_valid_host_label(const json_t *value, const json_t *allow_sub) {
    if (!json_is_string(value)) return json_false();
    const char *s = json_string_value(value);
    size_t n = json_string_length(value);
    if (strlen(s) != n) return json_false();
    if (json_is_true(allow_sub)) {
        const char *p = s;
        for (;;) {
            const char *dot = strchr(p, '.');
            size_t l = dot ? (size_t)(dot - p) : strlen(p);
            if (!valid_host_label(p, l)) return json_false();
            if (!dot) return json_true();
            p = dot + 1;
        }
    }
    if (json_is_false(allow_sub) && strchr(s, '.')) return json_false();
    return json_boolean(valid_host_label(s, n));
}

/* ^(?:[0-9]{1,3}\.){3}[0-9]{1,3}$ */
static int looks_ipv4(const char *s) {
    for (int part = 0; part < 4; part++) {
        int digits = 0;
        while (isdigit((unsigned char)*s) && digits < 4) {
            s++;
            digits++;
        }
        if (digits < 1 || digits > 3) return 0;
        if (part < 3 && *s++ != '.') return 0;
    }
    return *s == '\0';
}

static json_t *fn_virtual_hostable_bucket(const json_t *value, const json_t *allow_sub) {
    if (!json_is_string(value)) return json_false();
    const char *s = json_string_value(value);
    if (json_string_length(value) < 3 || looks_ipv4(s)) return json_false();
    for (const char *p = s; *p; p++)
        if (isupper((unsigned char)*p)) return json_false();
    return fn_is_valid_host_label(value, allow_sub);
}

static json_t *fn_parse_arn(const json_t *value) {
    if (!json_is_string(value)) return NULL;
    const char *s = json_string_value(value);
    if (strncmp(s, "arn:", 4) != 0 || strlen(s) != json_string_length(value)) return NULL;
    const char *f[6];
    size_t len[6];
    const char *p = s;
    for (int i = 0; i < 5; i++) {
        const char *c = strchr(p, ':');
        if (!c) return NULL;
        f[i] = p;
        len[i] = (size_t)(c - p);
        p = c + 1;
    }
    f[5] = p;
    len[5] = strlen(p);
    if (!len[1] || !len[2] || !len[5]) return NULL;
    json_t *o = json_object();
    json_t *ids = json_array();
    if (!o || !ids) {
        json_decref(o);
        json_decref(ids);
        return NULL;
    }
    json_object_set_new(o, "partition", json_stringn(f[1], len[1]));
    json_object_set_new(o, "service", json_stringn(f[2], len[2]));
    json_object_set_new(o, "region", json_stringn(f[3], len[3]));
    json_object_set_new(o, "accountId", json_stringn(f[4], len[4]));
    const char *r = f[5];
    for (;;) { /* resource.replace(":", "/").split("/") */
        size_t l = strcspn(r, ":/");
        json_array_append_new(ids, json_stringn(r, l));
        if (!r[l]) break;
        r += l + 1;
    }
    json_object_set_new(o, "resourceId", ids);
    return o;
}

static int unreserved(unsigned char c) {
    return isalnum(c) || c == '-' || c == '_' || c == '.' || c == '~';
}

static void percent_encode(smfw_buf *b, const char *s, size_t n, int keep_slash) {
    static const char hex[] = "0123456789ABCDEF";
    for (size_t i = 0; i < n; i++) {
        unsigned char c = (unsigned char)s[i];
        if (unreserved(c) || (keep_slash && c == '/')) {
            smfw_buf_putc(b, (char)c);
        } else {
            smfw_buf_putc(b, '%');
            smfw_buf_putc(b, hex[c >> 4]);
            smfw_buf_putc(b, hex[c & 15]);
        }
    }
}

static json_t *fn_uri_encode(const json_t *value) {
    if (!json_is_string(value)) return NULL;
    smfw_buf b;
    smfw_buf_init(&b);
    percent_encode(&b, json_string_value(value), json_string_length(value), 0);
    json_t *out = b.failed ? NULL : json_stringn(b.data ? b.data : "", b.len);
    smfw_buf_free(&b);
    return out;
}

/* botocore's remove_dot_segments (which also drops empty segments), then quote(safe="/"). */
static void normalized_path(smfw_buf *out, const char *path, size_t n) {
    if (n == 0) {
        smfw_buf_putc(out, '/');
        return;
    }
    const char *seg[256];
    size_t seglen[256];
    int ns = 0;
    for (size_t i = 0; i <= n;) {
        size_t j = i;
        while (j < n && path[j] != '/') j++;
        size_t l = j - i;
        if (l && !(l == 1 && path[i] == '.')) {
            if (l == 2 && path[i] == '.' && path[i + 1] == '.') {
                if (ns) ns--;
            } else if (ns < 256) {
                seg[ns] = path + i;
                seglen[ns++] = l;
            }
        }
        i = j + 1;
    }
    smfw_buf norm;
    smfw_buf_init(&norm);
    if (path[0] == '/') smfw_buf_putc(&norm, '/');
    for (int k = 0; k < ns; k++) {
        if (k) smfw_buf_putc(&norm, '/');
        smfw_buf_append(&norm, seg[k], seglen[k]);
    }
    if (path[n - 1] == '/' && ns) smfw_buf_putc(&norm, '/');
    if (!norm.len) smfw_buf_putc(&norm, '/'); /* normalize_url_path("") */
    percent_encode(out, norm.data, norm.len, 1);
    smfw_buf_free(&norm);
    if (!out->len || out->data[out->len - 1] != '/') smfw_buf_putc(out, '/');
}

/* urlparse(): http(s) only, no query, a numeric port when one is given. */
static json_t *fn_parse_url(const json_t *value) {
    if (!json_is_string(value)) return NULL;
    const char *s = json_string_value(value);
    if (strlen(s) != json_string_length(value)) return NULL;
    const char *colon = strchr(s, ':');
    if (!colon) return NULL;
    char scheme[8];
    size_t sl = (size_t)(colon - s);
    if (sl >= sizeof(scheme)) return NULL;
    for (size_t i = 0; i < sl; i++) scheme[i] = (char)tolower((unsigned char)s[i]);
    scheme[sl] = '\0';
    if (strcmp(scheme, "http") != 0 && strcmp(scheme, "https") != 0) return NULL;
    const char *p = colon + 1, *auth = p;
    size_t auth_len = 0;
    if (p[0] == '/' && p[1] == '/') {
        auth = p + 2;
        auth_len = strcspn(auth, "/?#");
        p = auth + auth_len;
    }
    size_t path_len = strcspn(p, "?#");
    const char *q = p + path_len;
    if (*q == '?' && q[1] && q[1] != '#') return NULL; /* URLs with queries are refused */
    /* host and port inside the authority (userinfo@host:port) */
    const char *host = auth;
    size_t hl = auth_len;
    const char *at = memchr(auth, '@', auth_len);
    if (at) {
        hl -= (size_t)(at + 1 - host);
        host = at + 1;
    }
    char h[256];
    int is_ip = 0;
    const char *port = NULL;
    size_t port_len = 0;
    if (hl && host[0] == '[') {
        const char *rb = memchr(host, ']', hl);
        if (!rb) return NULL;
        size_t il = (size_t)(rb - host - 1);
        if (il >= sizeof(h)) return NULL;
        memcpy(h, host + 1, il);
        h[il] = '\0';
        char *zone = strchr(h, '%');
        if (zone) *zone = '\0';
        unsigned char a6[16];
        is_ip = inet_pton(AF_INET6, h, a6) == 1;
        if ((size_t)(rb + 1 - host) < hl) {
            if (rb[1] != ':') return NULL;
            port = rb + 2;
            port_len = hl - (size_t)(rb + 2 - host);
        }
    } else {
        const char *pc = memchr(host, ':', hl);
        size_t nl = pc ? (size_t)(pc - host) : hl;
        if (nl >= sizeof(h)) return NULL;
        for (size_t i = 0; i < nl; i++) h[i] = (char)tolower((unsigned char)host[i]);
        h[nl] = '\0';
        is_ip = looks_ipv4(h);
        if (pc) {
            port = pc + 1;
            port_len = hl - nl - 1;
        }
    }
    if (port && port_len) {
        long v = 0;
        for (size_t i = 0; i < port_len; i++) {
            if (!isdigit((unsigned char)port[i]) || i > 5) return NULL;
            v = v * 10 + (port[i] - '0');
        }
        if (v > 65535) return NULL;
    }
    smfw_buf np;
    smfw_buf_init(&np);
    normalized_path(&np, p, path_len);
    json_t *o = json_object();
    if (o && !np.failed) {
        json_object_set_new(o, "scheme", json_string(scheme));
        json_object_set_new(o, "authority", json_stringn(auth, auth_len));
        json_object_set_new(o, "path", json_stringn(p, path_len));
        json_object_set_new(o, "normalizedPath", json_stringn(np.data, np.len));
        json_object_set_new(o, "isIp", json_boolean(is_ip));
    } else {
        json_decref(o);
        o = NULL;
    }
    smfw_buf_free(&np);
    return o;
}

static json_t *fn_substring(ev *e, const json_t *value, const json_t *start, const json_t *stop,
                            const json_t *reverse) {
    if (!json_is_string(value)) {
        fail(e, 0, "substring needs a string");
        return NULL;
    }
    if (!json_is_integer(start) || !json_is_integer(stop)) {
        fail(e, 0, "substring needs integer bounds");
        return NULL;
    }
    const char *s = json_string_value(value);
    json_int_t a = json_integer_value(start), b = json_integer_value(stop);
    json_int_t n = (json_int_t)json_string_length(value);
    if (a < 0 || a >= b || n < b) return NULL;
    for (json_int_t i = 0; i < n; i++)
        if ((unsigned char)s[i] >= 0x80) return NULL; /* not ASCII */
    if (json_is_true(reverse)) return json_stringn(s + n - b, (size_t)(b - a));
    return json_stringn(s + a, (size_t)(b - a));
}

/* ---- evaluation ---- */

static json_t *resolve_value(ev *e, const json_t *v, json_t *scope, int depth);

#define MAX_ARGS 8

static json_t *call_function(ev *e, const json_t *f, json_t *scope, int depth) {
    if (!step(e, depth)) return NULL;
    const char *fn = json_string_value(json_object_get(f, "fn"));
    const json_t *argv = json_object_get(f, "argv");
    if (!fn || !json_is_array(argv) || json_array_size(argv) > MAX_ARGS) {
        fail(e, 0, "an endpoint rule has a malformed function call");
        return NULL;
    }
    json_t *a[MAX_ARGS] = {0};
    size_t n = json_array_size(argv);
    for (size_t i = 0; i < n && !e->failed; i++)
        a[i] = resolve_value(e, json_array_get(argv, i), scope, depth + 1);
    json_t *r = NULL;
#define NEED(k)                                                                                    \
    if (n != (k)) {                                                                                \
        fail(e, 0, "%s takes %d argument(s)", fn, (k));                                            \
        goto done;                                                                                 \
    }
    if (e->failed) goto done;
    if (strcmp(fn, "isSet") == 0) {
        NEED(1);
        r = json_boolean(a[0] != NULL);
    } else if (strcmp(fn, "not") == 0) {
        NEED(1);
        r = json_boolean(!truthy(a[0]));
    } else if (strcmp(fn, "booleanEquals") == 0) {
        NEED(2);
        if (!json_is_boolean(a[0]) || !json_is_boolean(a[1]))
            fail(e, 0, "booleanEquals: both arguments must be booleans");
        else
            r = json_boolean(json_is_true(a[0]) == json_is_true(a[1]));
    } else if (strcmp(fn, "stringEquals") == 0) {
        NEED(2);
        if (!json_is_string(a[0]) || !json_is_string(a[1]))
            fail(e, 0, "stringEquals: both values must be strings");
        else
            r = json_boolean(json_equal(a[0], a[1]));
    } else if (strcmp(fn, "getAttr") == 0) {
        NEED(2);
        r = fn_get_attr(e, a[0], a[1]);
    } else if (strcmp(fn, "aws.partition") == 0) {
        NEED(1);
        r = fn_partition(e, a[0]);
    } else if (strcmp(fn, "parseURL") == 0) {
        NEED(1);
        r = fn_parse_url(a[0]);
    } else if (strcmp(fn, "substring") == 0) {
        NEED(4);
        r = fn_substring(e, a[0], a[1], a[2], a[3]);
    } else if (strcmp(fn, "uriEncode") == 0) {
        NEED(1);
        r = fn_uri_encode(a[0]);
    } else if (strcmp(fn, "isValidHostLabel") == 0) {
        NEED(2);
        r = fn_is_valid_host_label(a[0], a[1]);
    } else if (strcmp(fn, "aws.isVirtualHostableS3Bucket") == 0) {
        NEED(2);
        r = fn_virtual_hostable_bucket(a[0], a[1]);
    } else if (strcmp(fn, "aws.parseArn") == 0) {
        NEED(1);
        r = fn_parse_arn(a[0]);
    } else {
        fail(e, 0, "the endpoint rule set calls an unknown function '%.100s'", fn);
    }
#undef NEED
    if (!e->failed) {
        const json_t *assign = json_object_get(f, "assign");
        if (json_is_string(assign)) {
            if (json_object_get(scope, json_string_value(assign)))
                fail(e, 0, "the endpoint rule set assigns '%.100s' twice",
                     json_string_value(assign));
            else
                json_object_set(scope, json_string_value(assign), r ? r : json_null());
        }
    }
done:
    for (size_t i = 0; i < n; i++) json_decref(a[i]);
    if (e->failed) {
        json_decref(r);
        return NULL;
    }
    return r;
}

static json_t *resolve_value(ev *e, const json_t *v, json_t *scope, int depth) {
    if (json_is_object(v) && json_object_get(v, "fn")) return call_function(e, v, scope, depth);
    if (json_is_object(v) && json_object_get(v, "ref")) {
        const char *name = json_string_value(json_object_get(v, "ref"));
        json_t *r = name ? json_object_get(scope, name) : NULL;
        if (!r || json_is_null(r)) return NULL;
        json_incref(r); /* scope values belong to this resolution */
        return r;
    }
    if (json_is_string(v) && is_template(json_string_value(v)))
        return render_template(e, json_string_value(v), scope);
    if (!v || json_is_null(v)) return NULL;
    return json_deep_copy(v);
}

/* Every condition holds (a result of None or false fails it). */
static int conditions_hold(ev *e, const json_t *rule, json_t *scope, int depth) {
    const json_t *conds = json_object_get(rule, "conditions");
    if (conds && !json_is_array(conds)) {
        fail(e, 0, "an endpoint rule's conditions are not a list");
        return 0;
    }
    size_t i;
    const json_t *c;
    json_array_foreach(conds, i, c) {
        if (!json_is_object(c)) {
            fail(e, 0, "an endpoint rule's condition is not a function call");
            return 0;
        }
        json_t *r = call_function(e, c, scope, depth + 1);
        int ok = r && !json_is_false(r);
        json_decref(r);
        if (!ok || e->failed) return 0;
    }
    return 1;
}

/* properties: templates resolved at every level (botocore's resolve_properties). */
static json_t *resolve_properties(ev *e, const json_t *v, json_t *scope, int depth) {
    if (!step(e, depth)) return NULL;
    if (json_is_array(v)) {
        json_t *out = json_array();
        size_t i;
        const json_t *x;
        json_array_foreach(v, i, x) {
            json_t *r = resolve_properties(e, x, scope, depth + 1);
            if (e->failed) {
                json_decref(r);
                break;
            }
            json_array_append_new(out, r ? r : json_null());
        }
        if (e->failed) {
            json_decref(out);
            return NULL;
        }
        return out;
    }
    if (json_is_object(v)) {
        json_t *out = json_object();
        const char *k;
        json_t *x;
        json_object_foreach((json_t *)v, k, x) {
            json_t *r = resolve_properties(e, x, scope, depth + 1);
            if (e->failed) {
                json_decref(r);
                break;
            }
            json_object_set_new(out, k, r ? r : json_null());
        }
        if (e->failed) {
            json_decref(out);
            return NULL;
        }
        return out;
    }
    if (json_is_string(v) && is_template(json_string_value(v)))
        return render_template(e, json_string_value(v), scope);
    return v ? json_deep_copy(v) : NULL;
}

/* 1: an endpoint in *out; 0: no match (or e->failed). scope is this rule's own copy. */
static int evaluate_rule(ev *e, const json_t *rule, json_t *scope, int depth,
                         aws_rules_endpoint *out) {
    if (!step(e, depth)) return 0;
    const char *type = json_string_value(json_object_get(rule, "type"));
    if (!json_is_object(rule) || !type) {
        fail(e, 0, "an endpoint rule has no type");
        return 0;
    }
    if (strcmp(type, "tree") && strcmp(type, "endpoint") && strcmp(type, "error")) {
        fail(e, 0, "unknown endpoint rule type '%.50s'", type);
        return 0;
    }
    if (!conditions_hold(e, rule, scope, depth)) return 0;
    if (strcmp(type, "tree") == 0) {
        const json_t *rules = json_object_get(rule, "rules");
        if (!json_is_array(rules)) {
            fail(e, 0, "an endpoint tree rule has no rules");
            return 0;
        }
        size_t i;
        const json_t *r;
        json_array_foreach(rules, i, r) {
            json_t *copy = json_copy(scope); /* siblings do not share assignments */
            if (!copy) {
                fail(e, 0, "out of memory");
                return 0;
            }
            int got = evaluate_rule(e, r, copy, depth + 1, out);
            json_decref(copy);
            if (got || e->failed) return got;
        }
        return 0;
    }
    if (strcmp(type, "error") == 0) {
        json_t *m = resolve_value(e, json_object_get(rule, "error"), scope, depth + 1);
        if (!e->failed)
            fail(e, 1, "%s", json_is_string(m) ? json_string_value(m) : "endpoint rule error");
        json_decref(m);
        return 0;
    }
    const json_t *ep = json_object_get(rule, "endpoint");
    if (!json_is_object(ep)) {
        fail(e, 0, "an endpoint rule has no endpoint");
        return 0;
    }
    json_t *url = resolve_value(e, json_object_get(ep, "url"), scope, depth + 1);
    if (e->failed || !json_is_string(url)) {
        if (!e->failed) fail(e, 0, "an endpoint rule's url is not a string");
        json_decref(url);
        return 0;
    }
    const json_t *props = json_object_get(ep, "properties");
    json_t *rp = props ? resolve_properties(e, props, scope, depth + 1) : NULL;
    if (e->failed) {
        json_decref(url);
        json_decref(rp);
        return 0;
    }
    out->url = strdup(json_string_value(url));
    out->properties = rp;
    json_decref(url);
    if (!out->url) {
        fail(e, 0, "out of memory");
        json_decref(out->properties);
        out->properties = NULL;
        return 0;
    }
    return 1;
}

static int type_ok(const char *type, const json_t *v) {
    if (strcmp(type, "string") == 0) return json_is_string(v);
    if (strcmp(type, "boolean") == 0) return json_is_boolean(v);
    if (strcmp(type, "stringArray") == 0 || strcmp(type, "stringarray") == 0) {
        if (!json_is_array(v)) return 0;
        size_t i;
        const json_t *x;
        json_array_foreach(v, i, x) if (!json_is_string(x)) return 0;
        return 1;
    }
    return 0;
}

/* The initial scope: each declared parameter from its name, its builtIn, or its default. */
static json_t *parameters_scope(ev *e, const json_t *ruleset, const json_t *inputs) {
    const json_t *params = json_object_get(ruleset, "parameters");
    json_t *scope = json_object();
    if (!scope) {
        fail(e, 0, "out of memory");
        return NULL;
    }
    if (params && !json_is_object(params)) {
        fail(e, 0, "the endpoint rule set's parameters are not an object");
        return scope;
    }
    const char *name;
    json_t *spec;
    json_object_foreach((json_t *)params, name, spec) {
        const char *type = json_string_value(json_object_get(spec, "type"));
        if (!type) {
            fail(e, 0, "the endpoint parameter %.100s has no type", name);
            break;
        }
        const json_t *v = json_object_get(inputs, name);
        const char *builtin = json_string_value(json_object_get(spec, "builtIn"));
        if ((!v || json_is_null(v)) && builtin) v = json_object_get(inputs, builtin);
        if (!v || json_is_null(v)) {
            v = json_object_get(spec, "default");
            if (v && json_is_null(v)) v = NULL;
            if (!v && json_is_true(json_object_get(spec, "required"))) {
                fail(e, 0, "Cannot find value for required parameter %.100s", name);
                break;
            }
        } else if (!type_ok(type, v)) {
            fail(e, 0, "Value (%.100s) is the wrong type. Must be %.20s.", name, type);
            break;
        }
        if (v) json_object_set_new(scope, name, json_deep_copy(v));
    }
    return scope;
}

smfw_status aws_rules_evaluate(const json_t *ruleset, const json_t *partitions,
                               const json_t *inputs, aws_rules_endpoint *out, int *rule_error,
                               smfw_error *err) {
    memset(out, 0, sizeof(*out));
    if (rule_error) *rule_error = 0;
    ev e;
    memset(&e, 0, sizeof(e));
    e.partitions = partitions;
    const json_t *rules = json_object_get(ruleset, "rules");
    if (!json_is_object(ruleset) || !json_is_array(rules))
        return smfw_error_set(err, SMFW_ERR_CONFIG, "the endpoint rule set has no rules");
    json_t *scope = parameters_scope(&e, ruleset, inputs);
    int got = 0;
    size_t i;
    const json_t *r;
    json_array_foreach(rules, i, r) {
        if (e.failed) break;
        json_t *copy = json_copy(scope);
        if (!copy) {
            fail(&e, 0, "out of memory");
            break;
        }
        got = evaluate_rule(&e, r, copy, 1, out);
        json_decref(copy);
        if (got) break;
    }
    json_decref(scope);
    if (e.failed) {
        if (rule_error) *rule_error = e.rule_error;
        return smfw_error_set(err, SMFW_ERR_CONFIG, "%s", e.msg);
    }
    if (!got) return smfw_error_set(err, SMFW_ERR_CONFIG, "no endpoint rule matches");
    return SMFW_OK;
}

void aws_rules_endpoint_free(aws_rules_endpoint *e) {
    if (!e) return;
    free(e->url);
    json_decref(e->properties);
    memset(e, 0, sizeof(*e));
}

smfw_status aws_rules_signing_of(const aws_rules_endpoint *e, aws_rules_signing *out,
                                 smfw_error *err) {
    memset(out, 0, sizeof(*out));
    const json_t *schemes = json_object_get(e->properties, "authSchemes");
    if (!schemes) return SMFW_OK;
    if (!json_is_array(schemes) || json_array_size(schemes) == 0)
        return smfw_error_set(err, SMFW_ERR_CONFIG, "the endpoint's authSchemes are empty");
    size_t i;
    const json_t *s;
    json_array_foreach(schemes, i, s) {
        const char *name = json_string_value(json_object_get(s, "name"));
        if (!name) continue;
        /* botocore's choice without CRT: the first of the schemes it signs. */
        if (strcmp(name, "sigv4") == 0) {
            const char *sn = json_string_value(json_object_get(s, "signingName"));
            const char *sr = json_string_value(json_object_get(s, "signingRegion"));
            if (sn) snprintf(out->name, sizeof(out->name), "%s", sn);
            if (sr) snprintf(out->region, sizeof(out->region), "%s", sr);
            return SMFW_OK;
        }
        if (strcmp(name, "sigv4-s3express") == 0 || strcmp(name, "sigv4a") == 0)
            return smfw_error_set(err, SMFW_ERR_CONFIG,
                                  "the endpoint needs %s signing, which smfw does not do", name);
    }
    return smfw_error_set(err, SMFW_ERR_CONFIG,
                          "the endpoint offers no signature version smfw knows");
}
