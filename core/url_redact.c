/*
 * url_redact.c - a URL as it may be shown or written: userinfo and the value
 * of every query parameter replaced by "****" (gateways carry keys there:
 * key, code, sig, token, X-Amz-*...). The parts are also registered as
 * secrets so a log line or error that quotes the raw URL is masked too.
 */
#include <stdio.h>
#include <string.h>

#include <smfw/smfw.h>

char *smfw_url_redact(char *dst, size_t dst_size, const char *url) {
    if (!dst || dst_size == 0) return dst;
    if (!url) url = "";
    size_t o = 0;
#define PUT(c)                                                                                     \
    do {                                                                                           \
        if (o + 1 < dst_size) dst[o++] = (c);                                                      \
    } while (0)
    const char *p = url;
    const char *scheme = strstr(url, "://");
    const char *auth = scheme ? scheme + 3 : url;
    for (; p < auth; p++) PUT(*p);
    /* Authority: everything up to the first '/', '?' or '#'; userinfo ends at its last '@'. */
    size_t alen = strcspn(auth, "/?#");
    const char *at = NULL;
    for (const char *q = auth; q < auth + alen; q++)
        if (*q == '@') at = q;
    if (at) {
        for (const char *m = "****"; *m; m++) PUT(*m);
        p = at;
    }
    int in_query = 0, in_value = 0;
    for (; *p; p++) {
        char c = *p;
        if (c == '#') in_query = in_value = 0;
        if (in_value && c != '&' && c != '#') continue;
        if (in_value) in_value = 0;
        PUT(c);
        if (c == '?' && !in_query) in_query = 1;
        if (in_query && c == '=') {
            in_value = 1;
            for (const char *m = "****"; *m; m++) PUT(*m);
        }
    }
#undef PUT
    dst[o] = '\0';
    return dst;
}

static void register_span(const char *s, size_t n) {
    char buf[2048];
    if (n == 0 || n >= sizeof buf) return;
    memcpy(buf, s, n);
    buf[n] = '\0';
    smfw_secret_register(buf);
}

void smfw_url_register_secrets(const char *url) {
    if (!url) return;
    const char *scheme = strstr(url, "://");
    const char *auth = scheme ? scheme + 3 : url;
    size_t alen = strcspn(auth, "/?#");
    const char *at = NULL;
    for (const char *q = auth; q < auth + alen; q++)
        if (*q == '@') at = q;
    if (at) {
        register_span(auth, (size_t)(at - auth)); /* user:password */
        const char *colon = memchr(auth, ':', (size_t)(at - auth));
        if (colon) register_span(colon + 1, (size_t)(at - colon - 1));
    }
    const char *q = strchr(auth, '?');
    if (!q) return;
    size_t qlen = strcspn(q, "#");
    for (const char *p = q + 1; p < q + qlen;) {
        size_t n = strcspn(p, "&#");
        const char *eq = memchr(p, '=', n);
        if (eq) register_span(eq + 1, (size_t)(p + n - eq - 1));
        p += n + (p[n] == '&');
        if (!n && !p[0]) break;
    }
}
