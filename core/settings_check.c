/*
 * settings_check.c - range and choice checks of the core settings (see
 * settings_check.h). Type checks stay in config.c; what is here is what a
 * type cannot say: a rate of 0, an error fraction of 2, a mode that does not
 * exist, a URL that cannot be parsed.
 */
#include "settings_check.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <smfw/config.h>
#include <smfw/results.h>
#include <smfw/smfw.h>

/* The highest open-loop rate one client process keeps: every request needs a connection,
 * a send and a record; above it the schedule is fiction. */
#define MAX_REQUEST_RATE 1e6

static int num(const char *v, double *out) {
    errno = 0;
    char *end = NULL;
    *out = strtod(v, &end);
    return !(errno || end == v || !isfinite(*out));
}

static int choice(const char *v, const char *const *ok, char *why, size_t n) {
    for (size_t i = 0; ok[i]; i++)
        if (strcmp(v, ok[i]) == 0) return 0;
    size_t l = (size_t)snprintf(why, n, "\"%s\" is not one of ", v);
    for (size_t i = 0; ok[i] && l < n; i++)
        l += (size_t)snprintf(why + l, n - l, "%s%s", i ? ", " : "", ok[i]);
    return -1;
}

static int duration_positive(const char *v, char *why, size_t n, const char *what) {
    double s = 0;
    if (smfw_parse_duration(v, &s) == 0 && s > 0) return 0;
    snprintf(why, n, "\"%s\" is not a positive duration (%s)", v, what);
    return -1;
}

static int int_range(const char *v, long long lo, long long hi, char *why, size_t n) {
    char *end = NULL;
    errno = 0;
    long long x = strtoll(v, &end, 10);
    while (end && *end == ' ') end++;
    if (!errno && end != v && end && !*end && x >= lo && x <= hi) return 0;
    if (hi == (long long)1 << 62)
        snprintf(why, n, "\"%s\" is not an integer of at least %lld", v, lo);
    else
        snprintf(why, n, "\"%s\" is not an integer from %lld to %lld", v, lo, hi);
    return -1;
}

#define ANY ((long long)1 << 62)

/* A base URL curl can use: http(s)://host[:port][/path], brackets closed, port 1-65535. */
static int url_check(const char *v, char *why, size_t n) {
    char shown[1024];
    smfw_url_redact(shown, sizeof shown, v);
    const char *h = strstr(v, "://");
    if (h && strncmp(v, "http://", 7) != 0 && strncmp(v, "https://", 8) != 0) {
        snprintf(why, n, "%s is not an http:// or https:// URL", shown);
        return -1;
    }
    h = h ? h + 3 : v;
    size_t alen = strcspn(h, "/?#");
    const char *at = NULL;
    for (const char *q = h; q < h + alen; q++)
        if (*q == '@') at = q;
    const char *host = at ? at + 1 : h;
    size_t hlen = (size_t)(h + alen - host);
    const char *port = NULL;
    if (hlen && host[0] == '[') {
        const char *close = memchr(host, ']', hlen);
        if (!close) {
            snprintf(why, n, "%s has an unclosed '[' in its host (an IPv6 address is [::1])",
                     shown);
            return -1;
        }
        if (close + 1 < host + hlen) {
            if (close[1] != ':') {
                snprintf(why, n, "%s has text after its IPv6 address", shown);
                return -1;
            }
            port = close + 2;
        }
        if (close == host + 1) hlen = 0;
    } else {
        const char *colon = memchr(host, ':', hlen);
        if (colon) {
            port = colon + 1;
            if (colon == host) hlen = 0;
        }
        for (const char *q = host; q < (colon ? colon : host + hlen); q++)
            if (isspace((unsigned char)*q) || *q == '[' || *q == ']') {
                snprintf(why, n, "%s has a character a host name cannot hold", shown);
                return -1;
            }
    }
    if (!hlen) {
        snprintf(why, n, "%s has no host (e.g. http://127.0.0.1:8000)", shown);
        return -1;
    }
    if (port) {
        char *end = NULL;
        long p = strtol(port, &end, 10);
        if (end == port || end != h + alen || p < 1 || p > 65535) {
            snprintf(why, n, "%s has a port that is not a number from 1 to 65535", shown);
            return -1;
        }
    }
    return 0;
}

int settings_check_value(const char *section, const char *key, const char *v, char *why, size_t n) {
    double d = 0;
    if (!section || !key || !v) return 0;
    if (strcmp(section, "smfw") == 0) {
        static const char *const modes[] = {"auto", "bar", "lines", "none", NULL};
        if (strcmp(key, "progress") == 0) return choice(v, modes, why, n);
        return 0;
    }
    if (strcmp(section, "dataset") == 0) {
        static const char *const orders[] = {"shuffle", "sequential", NULL};
        if (strcmp(key, "dataset_sampling") == 0) return choice(v, orders, why, n);
        if ((strcmp(key, "input_tokens_mean") == 0 || strcmp(key, "output_tokens_mean") == 0) &&
            num(v, &d) && d <= 0) {
            snprintf(why, n, "%s is not a positive number of tokens", v);
            return -1;
        }
        if (strstr(key, "_stddev") && num(v, &d) && d < 0) {
            snprintf(why, n, "%s is negative (a standard deviation is 0 or more)", v);
            return -1;
        }
        return 0;
    }
    if (strcmp(section, "aws") == 0) {
        if (strcmp(key, "max_attempts") == 0) return int_range(v, 1, 100, why, n);
        return 0;
    }
    /* The rest are checked in [run] and in whichever plugin section declares the key: a key
     * has one meaning wherever it is declared (the direct backend's url, header, workers...). */
    if (strcmp(key, "request_rate") == 0 && num(v, &d)) {
        if (d <= 0) {
            snprintf(why, n,
                     "%s is not a positive rate (requests per second); for a closed loop leave "
                     "it unset and give --concurrency",
                     v);
            return -1;
        }
        if (d > MAX_REQUEST_RATE) {
            snprintf(why, n,
                     "%s requests/s is above 1,000,000 requests/s, the most one client can "
                     "schedule truthfully (each request needs its own connection, send and "
                     "record); split higher loads over machines with --shard I/N",
                     v);
            return -1;
        }
        return 0;
    }
    if (strcmp(key, "goodput") == 0) {
        const char *one[] = {v};
        smfw_goodput_slo *slos = NULL;
        size_t k = 0;
        smfw_error e;
        smfw_error_clear(&e);
        int bad = smfw_goodput_parse(one, 1, &slos, &k, &e) != SMFW_OK;
        free(slos);
        if (bad) snprintf(why, n, "%s", e.message);
        return bad ? -1 : 0;
    }
    if (strcmp(key, "max_error_rate") == 0 && num(v, &d) && (d < 0 || d > 1)) {
        snprintf(why, n, "%s is not a fraction from 0 to 1 (0.01 = 1%% of requests may fail)", v);
        return -1;
    }
    if (strcmp(key, "duration") == 0)
        return duration_positive(v, why, n, "e.g. 120s; leave it unset to stop by request count");
    if (strcmp(key, "request_timeout") == 0) return duration_positive(v, why, n, "e.g. 600s");
    if (strcmp(key, "warmup_duration") == 0)
        return duration_positive(v, why, n, "leave it unset for no timed warm-up");
    if (strcmp(key, "request_count") == 0) return int_range(v, 1, ANY, why, n);
    if (strcmp(key, "warmup_request_count") == 0) return int_range(v, 0, ANY, why, n);
    if (strcmp(key, "max_concurrency") == 0) return int_range(v, 1, ANY, why, n);
    if (strcmp(key, "workers") == 0) return int_range(v, 0, 1024, why, n);
    if (strcmp(key, "concurrency") == 0) {
        /* One level or a sweep's list: every item a positive integer. */
        char buf[1024];
        snprintf(buf, sizeof buf, "%s", v);
        char *save = NULL;
        int any = 0;
        for (char *t = strtok_r(buf, ",", &save); t; t = strtok_r(NULL, ",", &save)) {
            while (*t == ' ') t++;
            size_t l = strlen(t);
            while (l && t[l - 1] == ' ') t[--l] = '\0';
            if (!*t) continue;
            any = 1;
            if (int_range(t, 1, ANY, why, n) != 0) {
                char item[256];
                snprintf(item, sizeof item, "%s", t);
                snprintf(why, n, "\"%s\" is not a positive integer (a level, or a list 1,2,4)",
                         item);
                return -1;
            }
        }
        if (!any) {
            snprintf(why, n, "is empty (give a positive integer, or a list 1,2,4)");
            return -1;
        }
        return 0;
    }
    static const char *const types[] = {"chat", "completions", "embeddings",
                                        "tgi",  "template",    NULL};
    if (strcmp(key, "endpoint_type") == 0) return choice(v, types, why, n);
    if (strcmp(key, "url") == 0 && *v) return url_check(v, why, n);
    if (strcmp(key, "header") == 0) {
        /* Each item "Name: value"; the value is never quoted (it may be a secret). */
        const char *p = v;
        int k = 0;
        while (*p) {
            size_t l = strcspn(p, ",");
            k++;
            const char *c = memchr(p, ':', l);
            const char *s = p;
            while (s < p + l && *s == ' ') s++;
            if (s < p + l && (!c || c == s)) {
                snprintf(why, n,
                         "header %d is not \"Name: value\" (no ':' after the name; its text is "
                         "not shown, it may hold a secret)",
                         k);
                return -1;
            }
            p += l + (p[l] == ',');
        }
        return 0;
    }
    return 0;
}

void settings_note_secrets(const char *section, const char *key, const char *v) {
    if (!section || !key || !v) return;
    if (strcmp(key, "url") == 0) smfw_url_register_secrets(v);
    if (strcmp(key, "header") == 0) {
        /* Every -H or configured header value, whatever its name. */
        const char *p = v;
        while (*p) {
            size_t l = strcspn(p, ",");
            const char *c = memchr(p, ':', l);
            if (c) {
                const char *s = c + 1;
                while (s < p + l && *s == ' ') s++;
                char buf[2048];
                size_t vl = (size_t)(p + l - s);
                while (vl && s[vl - 1] == ' ') vl--;
                if (vl && vl < sizeof buf) {
                    memcpy(buf, s, vl);
                    buf[vl] = '\0';
                    smfw_secret_register(buf);
                }
            }
            p += l + (p[l] == ',');
        }
    }
}
