/*
 * net_config.c - the one TLS and proxy configuration of smfw (see
 * include/smfw/net.h): resolved once, applied to every libcurl handle.
 * The proxy rules are botocore's (urllib's getproxies_environment and
 * proxy_bypass_environment), not libcurl's, which differ (libcurl ignores
 * HTTP_PROXY, reads ALL_PROXY and CIDR no_proxy entries).
 */
#include <smfw/net.h>

#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <unistd.h>

#include <curl/curl.h>

struct smfw_net_config {
    char *ca, *ca_from;
    char *https_proxy, *http_proxy, *no_proxy; /* NULL when unset */
    const char *https_from, *http_from, *no_from;
};

static const char *env_value(const char *name) {
    const char *v = getenv(name);
    return v && *v ? v : NULL;
}

/* urllib: the lowercase variable wins, even when set empty (which removes the setting);
 * uppercase HTTP_PROXY is ignored in a CGI process (REQUEST_METHOD set, CVE-2016-1000110). */
static const char *proxy_env(const char *lower, const char *upper, const char **from) {
    const char *v = getenv(lower);
    if (v) {
        *from = lower;
        return *v ? v : NULL;
    }
    if (strcmp(upper, "HTTP_PROXY") == 0 && getenv("REQUEST_METHOD")) return NULL;
    *from = upper;
    return env_value(upper);
}

/* botocore's _fix_proxy_url: a proxy without a scheme is an http:// one. */
static char *proxy_url_fixed(const char *v) {
    if (!v) return NULL;
    const char *prefix = "";
    if (strncmp(v, "http:", 5) != 0 && strncmp(v, "https:", 6) != 0)
        prefix = strncmp(v, "//", 2) == 0 ? "http:" : "http://";
    size_t n = strlen(prefix) + strlen(v) + 1;
    char *s = malloc(n);
    if (s) snprintf(s, n, "%s%s", prefix, v);
    return s;
}

static smfw_status check_bundle(const char *path, const char *from, smfw_error *err) {
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    struct stat st;
    int e = 0;
    if (fd < 0)
        e = errno;
    else if (fstat(fd, &st) != 0)
        e = errno;
    else if (S_ISDIR(st.st_mode))
        e = EISDIR;
    if (fd >= 0) close(fd);
    if (e == 0) return SMFW_OK;
    return smfw_error_set(err, SMFW_ERR_CONFIG,
                          "the CA bundle '%s' from %s cannot be read: %s (set a readable PEM file, "
                          "or unset it to use the system's CAs)",
                          path, from, strerror(e));
}

smfw_status smfw_net_config_new(const char *ca_bundle, const char *ca_from, const char *profile_ca,
                                const char *profile_ca_from, smfw_net_config **out,
                                smfw_error *err) {
    *out = NULL;
    smfw_net_config *n = calloc(1, sizeof *n);
    if (!n) return smfw_error_set(err, SMFW_ERR_NOMEM, "out of memory resolving TLS settings");
    const char *ca = NULL, *from = NULL;
    if (ca_bundle && *ca_bundle) {
        ca = ca_bundle;
        from = ca_from ? ca_from : "the ca_bundle setting";
    } else if ((ca = env_value("AWS_CA_BUNDLE"))) {
        from = "AWS_CA_BUNDLE";
    } else if (profile_ca && *profile_ca) {
        ca = profile_ca;
        from = profile_ca_from ? profile_ca_from : "the AWS profile's ca_bundle";
    }
    if (ca) {
        smfw_status st = check_bundle(ca, from, err);
        n->ca = strdup(ca);
        n->ca_from = strdup(from);
        if (st != SMFW_OK || !n->ca || !n->ca_from) {
            smfw_net_config_free(n);
            return st != SMFW_OK ? st : smfw_error_set(err, SMFW_ERR_NOMEM, "out of memory");
        }
    }
    n->https_proxy = proxy_url_fixed(proxy_env("https_proxy", "HTTPS_PROXY", &n->https_from));
    n->http_proxy = proxy_url_fixed(proxy_env("http_proxy", "HTTP_PROXY", &n->http_from));
    const char *np = proxy_env("no_proxy", "NO_PROXY", &n->no_from);
    n->no_proxy = np ? strdup(np) : NULL;
    smfw_url_register_secrets(n->https_proxy);
    smfw_url_register_secrets(n->http_proxy);
    *out = n;
    return SMFW_OK;
}

void smfw_net_config_free(smfw_net_config *n) {
    if (!n) return;
    free(n->ca);
    free(n->ca_from);
    free(n->https_proxy);
    free(n->http_proxy);
    free(n->no_proxy);
    free(n);
}

const char *smfw_net_ca_bundle(const smfw_net_config *n, const char **from) {
    if (from) *from = n ? n->ca_from : NULL;
    return n ? n->ca : NULL;
}

/* urllib's proxy_bypass_environment on the URL's netloc (port kept as "host", cut off as
 * "hostonly"): an entry equal to either, or a suffix after a dot. */
static int bypassed(const char *no_proxy, const char *url) {
    if (!no_proxy) return 0;
    if (strcmp(no_proxy, "*") == 0) return 1;
    const char *s = strstr(url, "://");
    s = s ? s + 3 : url;
    size_t hl = strcspn(s, "/?#");
    char host[512];
    if (hl >= sizeof host) return 0;
    for (size_t i = 0; i < hl; i++) host[i] = (char)tolower((unsigned char)s[i]);
    host[hl] = '\0';
    char hostonly[512];
    memcpy(hostonly, host, hl + 1);
    char *colon = strrchr(hostonly, ':');
    if (colon && strspn(colon + 1, "0123456789") == strlen(colon + 1)) *colon = '\0';
    const char *p = no_proxy;
    while (*p) {
        size_t len = strcspn(p, ",");
        const char *b = p, *e = p + len;
        while (b < e && isspace((unsigned char)*b)) b++;
        while (e > b && isspace((unsigned char)e[-1])) e--;
        while (b < e && *b == '.') b++;
        char name[512];
        size_t nl = (size_t)(e - b);
        if (nl > 0 && nl < sizeof name) {
            for (size_t i = 0; i < nl; i++) name[i] = (char)tolower((unsigned char)b[i]);
            name[nl] = '\0';
            const char *cand[2] = {hostonly, host};
            for (int k = 0; k < 2; k++) {
                size_t cl = strlen(cand[k]);
                if (strcmp(cand[k], name) == 0) return 1;
                if (cl > nl && strcmp(cand[k] + cl - nl, name) == 0 && cand[k][cl - nl - 1] == '.')
                    return 1;
            }
        }
        p += len;
        if (*p == ',') p++;
    }
    return 0;
}

const char *smfw_net_proxy_for(const smfw_net_config *n, const char *url, const char **from) {
    if (from) *from = NULL;
    if (!n || !url) return NULL;
    const char *proxy = NULL, *f = NULL;
    if (strncasecmp(url, "https://", 8) == 0) {
        proxy = n->https_proxy;
        f = n->https_from;
    } else if (strncasecmp(url, "http://", 7) == 0) {
        proxy = n->http_proxy;
        f = n->http_from;
    }
    if (!proxy || bypassed(n->no_proxy, url)) return NULL;
    if (from) *from = f;
    return proxy;
}

void smfw_net_apply(const smfw_net_config *n, void *easy, const char *url) {
    CURL *c = easy;
    curl_easy_setopt(c, CURLOPT_SSL_VERIFYPEER, 1L);
    curl_easy_setopt(c, CURLOPT_SSL_VERIFYHOST, 2L);
    const char *ca = smfw_net_ca_bundle(n, NULL);
    if (ca) curl_easy_setopt(c, CURLOPT_CAINFO, ca);
    const char *proxy = smfw_net_proxy_for(n, url, NULL);
    curl_easy_setopt(c, CURLOPT_PROXY, proxy ? proxy : "");
    curl_easy_setopt(c, CURLOPT_NOPROXY, "");
}

int smfw_net_is_default(const smfw_net_config *n) {
    return !n || (!n->ca && !n->https_proxy && !n->http_proxy);
}

void smfw_net_describe(const smfw_net_config *n, char *buf, size_t size) {
    char hs[1024] = "none", h[1024] = "none";
    if (n && n->https_proxy) {
        smfw_url_redact(hs, sizeof hs, n->https_proxy);
        size_t l = strlen(hs);
        snprintf(hs + l, sizeof hs - l, " (%s)", n->https_from);
    }
    if (n && n->http_proxy) {
        smfw_url_redact(h, sizeof h, n->http_proxy);
        size_t l = strlen(h);
        snprintf(h + l, sizeof h - l, " (%s)", n->http_from);
    }
    char np[600] = "none";
    if (n && n->no_proxy) snprintf(np, sizeof np, "%s (%s)", n->no_proxy, n->no_from);
    if (n && n->ca)
        snprintf(buf, size, "CA bundle %s (%s); https proxy %s; http proxy %s; no_proxy %s", n->ca,
                 n->ca_from, hs, h, np);
    else
        snprintf(buf, size, "CA bundle: the system's; https proxy %s; http proxy %s; no_proxy %s",
                 hs, h, np);
}
