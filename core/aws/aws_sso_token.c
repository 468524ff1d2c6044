/*
 * aws_sso_token.c - the SSO token cache that `aws sso login` writes, read
 * and renewed as botocore's SSOTokenLoader and SSOTokenProvider do: the file
 * is named by the SHA-1 of the session name (legacy form: of the start
 * URL); an sso_session token expiring within 15 minutes is renewed through
 * SSO-OIDC CreateToken (grant_type refresh_token) while the client
 * registration is valid, and the new token replaces the file atomically.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include <jansson.h>
#include <openssl/evp.h>

#include <smfw/log.h>
#include <smfw/untrusted.h>

#include "aws/aws_sso.h"

/* botocore's SSOTokenProvider._REFRESH_WINDOW. */
#define REFRESH_WINDOW_S (15 * 60)

smfw_status aws_sso_cache_path(const char *key, char *out, size_t size, smfw_error *err) {
    const char *home = aws_getenv("HOME");
    if (!home)
        return smfw_error_set(err, SMFW_ERR_CONFIG,
                              "HOME is not set, so the SSO token cache (~/.aws/sso/cache) "
                              "cannot be found");
    unsigned char md[EVP_MAX_MD_SIZE];
    unsigned int n = 0;
    if (EVP_Digest(key, strlen(key), md, &n, EVP_sha1(), NULL) != 1 || n != 20)
        return smfw_error_set(err, SMFW_ERR_INTERNAL, "SHA-1 is unavailable");
    char hex[41];
    for (unsigned i = 0; i < n; i++) snprintf(hex + 2 * i, 3, "%02x", md[i]);
    int w = snprintf(out, size, "%s/.aws/sso/cache/%s.json", home, hex);
    if (w < 0 || (size_t)w >= size)
        return smfw_error_set(err, SMFW_ERR_CONFIG, "the SSO token cache path under %s is too long",
                              home);
    return SMFW_OK;
}

/* A cache timestamp: ISO 8601, or with "UTC" for "Z" as older botocore wrote it. */
static int64_t parse_time(const char *s) {
    if (!s) return -1;
    size_t l = strlen(s);
    if (l > 3 && l < 64 && strcmp(s + l - 3, "UTC") == 0) {
        char b[64];
        memcpy(b, s, l - 3);
        b[l - 3] = 'Z';
        b[l - 2] = '\0';
        return aws_parse_iso8601(b);
    }
    return aws_parse_iso8601(s);
}

/* The format botocore writes (_serialize_utc_timestamp). */
static void format_time(int64_t t, char out[32]) {
    time_t tt = (time_t)t;
    struct tm tm;
    gmtime_r(&tt, &tm);
    strftime(out, 32, "%Y-%m-%dT%H:%M:%SZ", &tm);
}

static const char *str_field(const json_t *o, const char *key) {
    return json_string_value(json_object_get(o, key));
}

static const char *what(const aws_sso_config *cfg) {
    return cfg->session ? "sso-session" : "start URL";
}

static const char *which(const aws_sso_config *cfg) {
    return cfg->session ? cfg->session : cfg->start_url;
}

static smfw_status load_cache(const char *path, const aws_sso_config *cfg, json_t **out,
                              smfw_error *err) {
    *out = NULL;
    FILE *f = fopen(path, "rb");
    if (!f && errno == ENOENT)
        return aws_sso_login_hint(err,
                                  smfw_error_set(err, SMFW_ERR_AUTH,
                                                 "profile '%s' uses SSO, but there is no cached "
                                                 "SSO token for %s '%s' (expected %s)",
                                                 cfg->profile, what(cfg), which(cfg), path),
                                  cfg->profile);
    if (!f)
        return aws_sso_login_hint(err,
                                  smfw_error_set(err, SMFW_ERR_AUTH,
                                                 "cannot read the SSO token cache %s: %s", path,
                                                 strerror(errno)),
                                  cfg->profile);
    json_error_t je;
    json_t *j = json_loadf(f, 0, &je);
    fclose(f);
    /* Every secret of the file is masked before anything can print it. */
    static const char *const secrets[] = {"accessToken", "refreshToken", "clientSecret"};
    for (size_t i = 0; i < sizeof(secrets) / sizeof(secrets[0]); i++)
        if (str_field(j, secrets[i])) smfw_secret_register(str_field(j, secrets[i]));
    if (!json_is_object(j) || !str_field(j, "accessToken") || !str_field(j, "expiresAt")) {
        json_decref(j);
        return aws_sso_login_hint(err,
                                  smfw_error_set(err, SMFW_ERR_AUTH,
                                                 "the SSO token cache %s is not valid (a JSON "
                                                 "object with accessToken and expiresAt)",
                                                 path),
                                  cfg->profile);
    }
    *out = j;
    return SMFW_OK;
}

/* Write the token beside the cache file, then rename it over (never a half-written file). */
static smfw_status save_cache(const char *path, const json_t *tok, smfw_error *err) {
    /* Python's json.dumps layout (", ", ": ", ASCII), in botocore's key order. */
    char *text = json_dumps(tok, JSON_PRESERVE_ORDER | JSON_ENSURE_ASCII);
    if (!text) return smfw_error_set(err, SMFW_ERR_NOMEM, "out of memory");
    char *tmp = NULL;
    int fd = smfw_tmpfile_beside(path, &tmp);
    smfw_status st = SMFW_OK;
    if (fd < 0) {
        st = smfw_error_set(err, SMFW_ERR_IO, "cannot write beside %s: %s", path, strerror(errno));
    } else {
        size_t len = strlen(text), off = 0;
        int ok = fchmod(fd, 0600) == 0;
        while (ok && off < len) {
            ssize_t w = write(fd, text + off, len - off);
            if (w < 0 && errno == EINTR) continue;
            if (w <= 0)
                ok = 0;
            else
                off += (size_t)w;
        }
        if (ok && fsync(fd) != 0) ok = 0;
        int e = errno;
        if (close(fd) != 0 && ok) {
            ok = 0;
            e = errno;
        }
        if (ok && smfw_file_publish(tmp, path, 1) != 0) {
            ok = 0;
            e = errno;
        }
        if (!ok) {
            unlink(tmp);
            st = smfw_error_set(err, SMFW_ERR_IO, "cannot write %s: %s", path, strerror(e));
        }
    }
    free(tmp);
    free(text);
    return st;
}

/* SSO-OIDC CreateToken with the cached refresh token; *fresh is the token to cache. */
static smfw_status create_token(smfw_aws_client *c, const aws_sso_config *cfg, const json_t *old,
                                json_t **fresh, smfw_error *err) {
    *fresh = NULL;
    char base[1024];
    smfw_status st = aws_sso_endpoint(c, "sso-oidc", cfg->region, base, sizeof(base), err);
    if (st != SMFW_OK) return st;
    json_t *req =
        json_pack("{s:s, s:s, s:s, s:s}", "grantType", "refresh_token", "clientId",
                  str_field(old, "clientId"), "clientSecret", str_field(old, "clientSecret"),
                  "refreshToken", str_field(old, "refreshToken"));
    char *body = req ? json_dumps(req, JSON_COMPACT | JSON_PRESERVE_ORDER) : NULL;
    json_decref(req);
    if (!body) return smfw_error_set(err, SMFW_ERR_NOMEM, "out of memory");
    smfw_sigv4_header hs[1] = {{"Content-Type", "application/json"}};
    aws_call call;
    memset(&call, 0, sizeof(call));
    call.service_label = "SSO OIDC";
    call.operation = "CreateToken";
    call.base_url = base;
    call.signing_name = "sso-oauth";
    call.method = "POST";
    call.path = "/token";
    call.headers = hs;
    call.header_count = 1;
    call.body = body;
    call.body_len = strlen(body);
    call.unsigned_request = 1; /* smithy.api#noAuth */
    call.protocol = AWS_PROTO_JSON;
    aws_result res;
    aws_result_init(&res);
    st = aws_client_call(c, &call, &res, err);
    free(body);
    if (st != SMFW_OK) {
        /* OAuth errors say why in error_description, which the generic parser does not read. */
        json_t *e = res.error.code[0] && !res.error.message[0] && res.http.body.len
                        ? json_loadb(res.http.body.data, res.http.body.len, 0, NULL)
                        : NULL;
        const char *desc = str_field(e, "error_description");
        if (desc)
            smfw_error_set(err, st, "SSO OIDC CreateToken failed: %s: %s (HTTP %ld)",
                           res.error.code, desc, res.http.status);
        json_decref(e);
        aws_result_free(&res);
        return st;
    }
    json_t *j =
        json_loadb(res.http.body.data ? res.http.body.data : "", res.http.body.len, 0, NULL);
    aws_result_free(&res);
    const char *access = str_field(j, "accessToken");
    const char *refresh = str_field(j, "refreshToken");
    json_t *expires_in = json_object_get(j, "expiresIn");
    if (access) smfw_secret_register(access);
    if (refresh) smfw_secret_register(refresh);
    if (!access || !json_is_integer(expires_in)) {
        json_decref(j);
        return smfw_error_set(err, SMFW_ERR_AUTH,
                              "SSO OIDC CreateToken answered without accessToken and expiresIn");
    }
    char expires_at[32];
    format_time(aws_now() + (int64_t)json_integer_value(expires_in), expires_at);
    /* The fields and order of botocore's _attempt_create_token. */
    json_t *t = json_object();
    json_object_set_new(t, "startUrl", json_string(cfg->start_url));
    json_object_set_new(t, "region", json_string(cfg->region));
    json_object_set_new(t, "accessToken", json_string(access));
    json_object_set_new(t, "expiresAt", json_string(expires_at));
    json_object_set(t, "clientId", json_object_get(old, "clientId"));
    json_object_set(t, "clientSecret", json_object_get(old, "clientSecret"));
    json_object_set(t, "registrationExpiresAt", json_object_get(old, "registrationExpiresAt"));
    if (refresh) json_object_set_new(t, "refreshToken", json_string(refresh));
    json_decref(j);
    if (json_object_size(t) < 7) {
        json_decref(t);
        return smfw_error_set(err, SMFW_ERR_NOMEM, "out of memory");
    }
    *fresh = t;
    return SMFW_OK;
}

/* Try to renew tok in place (and in the cache file); why says why not. */
static void try_refresh(smfw_aws_client *c, const aws_sso_config *cfg, const char *path,
                        json_t **tok, char *why, size_t why_size) {
    static const char *const keys[] = {"refreshToken", "clientId", "clientSecret",
                                       "registrationExpiresAt"};
    char missing[128] = "";
    for (size_t i = 0; i < sizeof(keys) / sizeof(keys[0]); i++)
        if (!str_field(*tok, keys[i]))
            snprintf(missing + strlen(missing), sizeof(missing) - strlen(missing), "%s%s",
                     missing[0] ? ", " : "", keys[i]);
    if (missing[0]) {
        snprintf(why, why_size, "the cache has no %s to refresh it with", missing);
        return;
    }
    const char *reg = str_field(*tok, "registrationExpiresAt");
    int64_t reg_exp = parse_time(reg);
    if (reg_exp < 0 || reg_exp <= aws_now()) {
        snprintf(why, why_size, "the client registration %s %s",
                 reg_exp < 0 ? "has an unreadable registrationExpiresAt" : "expired at", reg);
        return;
    }
    json_t *fresh = NULL;
    smfw_error rerr;
    smfw_error_clear(&rerr);
    if (create_token(c, cfg, *tok, &fresh, &rerr) != SMFW_OK) {
        snprintf(why, why_size, "the refresh failed: %s", rerr.message);
        return;
    }
    if (save_cache(path, fresh, &rerr) != SMFW_OK)
        SMFW_LOG_WARN("aws", "SSO token refreshed, but not saved: %s", rerr.message);
    else
        SMFW_LOG_DEBUG("aws", "SSO token of sso-session '%s' refreshed (%s)", cfg->session, path);
    json_decref(*tok);
    *tok = fresh;
    why[0] = '\0';
}

smfw_status aws_sso_token_get(smfw_aws_client *c, const aws_sso_config *cfg, char **token,
                              smfw_error *err) {
    *token = NULL;
    char path[1200];
    smfw_status st = aws_sso_cache_path(which(cfg), path, sizeof(path), err);
    if (st != SMFW_OK) return st;
    json_t *tok = NULL;
    st = load_cache(path, cfg, &tok, err);
    if (st != SMFW_OK) return st;
    int64_t exp = parse_time(str_field(tok, "expiresAt"));
    if (exp < 0) {
        st = smfw_error_set(err, SMFW_ERR_AUTH, "expiresAt '%s' in %s is not an ISO 8601 time",
                            str_field(tok, "expiresAt"), path);
        json_decref(tok);
        return aws_sso_login_hint(err, st, cfg->profile);
    }
    char why[SMFW_ERROR_MESSAGE_MAX] = "";
    if (cfg->session && exp - aws_now() < REFRESH_WINDOW_S) {
        try_refresh(c, cfg, path, &tok, why, sizeof(why));
        exp = parse_time(str_field(tok, "expiresAt"));
        if (why[0] && aws_now() < exp)
            SMFW_LOG_WARN("aws",
                          "could not refresh the SSO token of sso-session '%s' (%s); using it "
                          "until it expires at %s",
                          cfg->session, why, str_field(tok, "expiresAt"));
    }
    if (aws_now() >= exp) {
        st = smfw_error_set(err, SMFW_ERR_AUTH, "the SSO token of %s '%s' (%s) expired at %s%s%s",
                            what(cfg), which(cfg), path, str_field(tok, "expiresAt"),
                            why[0] ? " and could not be refreshed: " : "", why);
        json_decref(tok);
        return aws_sso_login_hint(err, st, cfg->profile);
    }
    *token = strdup(str_field(tok, "accessToken"));
    json_decref(tok);
    return *token ? SMFW_OK : smfw_error_set(err, SMFW_ERR_NOMEM, "out of memory");
}
