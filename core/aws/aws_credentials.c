/*
 * aws_credentials.c - the credential provider chain in botocore's order and
 * the thread-safe, self-refreshing credentials handle of a client.
 *
 * Order: environment; assume-role profile (role_arn + source_profile or
 * credential_source); web identity (AWS_ROLE_ARN + AWS_WEB_IDENTITY_TOKEN_FILE
 * or profile keys); IAM Identity Center (SSO, aws_sso.c); shared credentials
 * file; credential_process; config file static keys; container credentials;
 * EC2 instance metadata (IMDSv2).
 */
#include <arpa/inet.h>
#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <jansson.h>

#include <smfw/log.h>

#include "aws/aws_internal.h"
#include "aws/aws_sso.h"

extern char **environ;

/* ---- snapshots ---- */

aws_creds *aws_creds_new(const char *akid, const char *secret, const char *token,
                         int64_t expiration, const char *account, const char *provider) {
    const char *parts[5] = {akid, secret, token, account, provider};
    size_t total = 0;
    for (int i = 0; i < 5; i++) total += parts[i] ? strlen(parts[i]) + 1 : 0;
    aws_creds *c = calloc(1, sizeof(*c) + total);
    if (!c) return NULL;
    char *p = c->data;
    const char **dst[5] = {&c->pub.access_key_id, &c->pub.secret_access_key, &c->pub.session_token,
                           &c->pub.account_id, &c->pub.provider};
    for (int i = 0; i < 5; i++) {
        if (!parts[i]) continue;
        size_t l = strlen(parts[i]) + 1;
        memcpy(p, parts[i], l);
        *dst[i] = p;
        p += l;
    }
    c->pub.expiration = expiration;
    c->refs = 1;
    /* Secrets never reach logs or error messages. */
    smfw_secret_register(secret);
    if (token) smfw_secret_register(token);
    return c;
}

void aws_creds_ref(aws_creds *c) {
    __atomic_add_fetch(&c->refs, 1, __ATOMIC_RELAXED);
}

void aws_creds_unref(aws_creds *c) {
    if (c && __atomic_sub_fetch(&c->refs, 1, __ATOMIC_ACQ_REL) == 0) free(c);
}

void smfw_aws_credentials_release(const smfw_aws_credentials *creds) {
    if (creds) aws_creds_unref((aws_creds *)(void *)creds);
}

static int fresh(const smfw_aws_client *c, const aws_creds *cr, int64_t now) {
    return cr->pub.expiration == 0 || now < cr->pub.expiration - c->refresh_margin_s;
}

static int expired(const aws_creds *cr, int64_t now) {
    return cr->pub.expiration != 0 && now >= cr->pub.expiration;
}

static smfw_status refresh_locked(smfw_aws_client *c, smfw_error *err) {
    aws_creds *nc = NULL;
    smfw_status st = aws_credentials_resolve(c, &nc, err);
    if (st != SMFW_OK) return st;
    pthread_mutex_lock(&c->creds_lock);
    aws_creds *old = c->creds;
    c->creds = nc;
    pthread_mutex_unlock(&c->creds_lock);
    if (old) aws_creds_unref(old);
    if (nc->pub.expiration)
        SMFW_LOG_DEBUG("aws", "credentials from %s, valid for %lld s", nc->pub.provider,
                       (long long)(nc->pub.expiration - aws_now()));
    else
        SMFW_LOG_DEBUG("aws", "credentials from %s", nc->pub.provider);
    return SMFW_OK;
}

smfw_status smfw_aws_client_credentials(smfw_aws_client *c, const smfw_aws_credentials **out,
                                        smfw_error *err) {
    *out = NULL;
    int64_t now = aws_now();
    pthread_mutex_lock(&c->creds_lock);
    aws_creds *cur = c->creds;
    if (cur) aws_creds_ref(cur);
    pthread_mutex_unlock(&c->creds_lock);
    if (cur && fresh(c, cur, now)) {
        *out = &cur->pub;
        return SMFW_OK;
    }
    /* Needs (re)loading. While still valid, other threads keep using the old ones. */
    if (cur && !expired(cur, now)) {
        if (pthread_mutex_trylock(&c->refresh_lock) != 0) {
            *out = &cur->pub;
            return SMFW_OK;
        }
    } else {
        pthread_mutex_lock(&c->refresh_lock);
    }
    /* Holding refresh_lock. Another thread may have refreshed meanwhile. */
    pthread_mutex_lock(&c->creds_lock);
    aws_creds *now_cur = c->creds;
    if (now_cur && now_cur != cur && fresh(c, now_cur, aws_now())) {
        aws_creds_ref(now_cur);
        pthread_mutex_unlock(&c->creds_lock);
        pthread_mutex_unlock(&c->refresh_lock);
        if (cur) aws_creds_unref(cur);
        *out = &now_cur->pub;
        return SMFW_OK;
    }
    pthread_mutex_unlock(&c->creds_lock);
    smfw_error rerr;
    smfw_error_clear(&rerr);
    smfw_status st = refresh_locked(c, &rerr);
    pthread_mutex_unlock(&c->refresh_lock);
    if (st != SMFW_OK) {
        if (cur && !expired(cur, aws_now())) {
            SMFW_LOG_WARN("aws", "could not refresh AWS credentials, using the current ones: %s",
                          rerr.message);
            *out = &cur->pub;
            return SMFW_OK;
        }
        if (cur) aws_creds_unref(cur);
        if (err) *err = rerr;
        return st;
    }
    if (cur) aws_creds_unref(cur);
    pthread_mutex_lock(&c->creds_lock);
    cur = c->creds;
    aws_creds_ref(cur);
    pthread_mutex_unlock(&c->creds_lock);
    *out = &cur->pub;
    return SMFW_OK;
}

smfw_status smfw_aws_client_refresh_credentials(smfw_aws_client *c, smfw_error *err) {
    pthread_mutex_lock(&c->refresh_lock);
    smfw_status st = refresh_locked(c, err);
    pthread_mutex_unlock(&c->refresh_lock);
    return st;
}

/* ---- helpers ---- */

static smfw_status read_small_file(const char *path, char **out, smfw_error *err) {
    *out = NULL;
    FILE *f = fopen(path, "rb");
    if (!f) return smfw_error_set(err, SMFW_ERR_AUTH, "cannot read %s: %s", path, strerror(errno));
    smfw_buf b;
    smfw_buf_init(&b);
    char chunk[4096];
    size_t r;
    while ((r = fread(chunk, 1, sizeof(chunk), f)) > 0 && b.len < (1u << 20))
        smfw_buf_append(&b, chunk, r);
    fclose(f);
    while (b.len && isspace((unsigned char)b.data[b.len - 1])) b.data[--b.len] = '\0';
    *out = smfw_buf_take(&b);
    return *out ? SMFW_OK : smfw_error_set(err, SMFW_ERR_NOMEM, "out of memory");
}

/* Credentials JSON as returned by credential_process, containers and IMDS. */
static smfw_status creds_from_json(const char *text, size_t len, const char *token_key,
                                   const char *provider, int refreshable, aws_creds **out,
                                   smfw_error *err) {
    json_error_t je;
    json_t *j = json_loadb(text, len, 0, &je);
    if (!json_is_object(j)) {
        json_decref(j);
        return smfw_error_set(err, SMFW_ERR_AUTH, "%s returned invalid JSON: %s", provider,
                              je.text);
    }
    const char *akid = json_string_value(json_object_get(j, "AccessKeyId"));
    const char *secret = json_string_value(json_object_get(j, "SecretAccessKey"));
    const char *token = json_string_value(json_object_get(j, token_key));
    const char *exp = json_string_value(json_object_get(j, "Expiration"));
    const char *account = json_string_value(json_object_get(j, "AccountId"));
    if (!akid || !secret) {
        const char *msg = json_string_value(json_object_get(j, "Message"));
        smfw_status st =
            smfw_error_set(err, SMFW_ERR_AUTH, "%s returned no AccessKeyId/SecretAccessKey%s%s",
                           provider, msg ? ": " : "", msg ? msg : "");
        json_decref(j);
        return st;
    }
    int64_t expiration = 0;
    if (exp && (expiration = aws_parse_iso8601(exp)) < 0) {
        json_decref(j);
        return smfw_error_set(err, SMFW_ERR_AUTH, "%s returned an unreadable Expiration '%s'",
                              provider, exp);
    }
    *out = aws_creds_new(akid, secret, token, expiration, account, provider);
    if (*out) (*out)->refreshable = refreshable && expiration != 0;
    json_decref(j);
    return *out ? SMFW_OK : smfw_error_set(err, SMFW_ERR_NOMEM, "out of memory");
}

/* ---- 1. environment ---- */

static smfw_status from_env(aws_creds **out, smfw_error *err) {
    const char *akid = aws_getenv("AWS_ACCESS_KEY_ID");
    const char *secret = aws_getenv("AWS_SECRET_ACCESS_KEY");
    if (!akid && !secret) return SMFW_DONE;
    if (!akid || !secret)
        return smfw_error_set(err, SMFW_ERR_AUTH, "%s is set but %s is not: set both or neither",
                              akid ? "AWS_ACCESS_KEY_ID" : "AWS_SECRET_ACCESS_KEY",
                              akid ? "AWS_SECRET_ACCESS_KEY" : "AWS_ACCESS_KEY_ID");
    const char *token = aws_getenv("AWS_SESSION_TOKEN");
    if (!token) token = aws_getenv("AWS_SECURITY_TOKEN");
    int64_t exp = 0;
    const char *e = aws_getenv("AWS_CREDENTIAL_EXPIRATION");
    if (e && (exp = aws_parse_iso8601(e)) < 0)
        return smfw_error_set(err, SMFW_ERR_AUTH,
                              "AWS_CREDENTIAL_EXPIRATION '%s' is not an ISO 8601 time", e);
    *out = aws_creds_new(akid, secret, token, exp, aws_getenv("AWS_ACCOUNT_ID"), "environment");
    return *out ? SMFW_OK : smfw_error_set(err, SMFW_ERR_NOMEM, "out of memory");
}

/* ---- credential_process ---- */

/* Split a command line like a POSIX shell (quotes, backslashes), without a shell. */
static char **split_command(const char *cmd, int *argc) {
    size_t cap = 8, n = 0;
    char **argv = calloc(cap, sizeof(char *));
    if (!argv) return NULL;
    const char *p = cmd;
    for (;;) {
        while (*p == ' ' || *p == '\t') p++;
        if (!*p) break;
        smfw_buf w;
        smfw_buf_init(&w);
        char q = 0;
        while (*p && (q || (*p != ' ' && *p != '\t'))) {
            if (q == '\'' && *p == '\'')
                q = 0;
            else if (q == '"' && *p == '"')
                q = 0;
            else if (!q && (*p == '\'' || *p == '"'))
                q = *p;
            else if (*p == '\\' && q != '\'' && p[1])
                smfw_buf_putc(&w, *++p);
            else
                smfw_buf_putc(&w, *p);
            p++;
        }
        smfw_buf_reserve(&w, 0);
        if (n + 2 > cap) {
            cap *= 2;
            char **na = realloc(argv, cap * sizeof(char *));
            if (!na) break;
            argv = na;
        }
        argv[n++] = smfw_buf_take(&w);
        argv[n] = NULL;
    }
    *argc = (int)n;
    return argv;
}

static smfw_status from_process(const char *cmd, aws_creds **out, smfw_error *err) {
    int argc = 0;
    char **argv = split_command(cmd, &argc);
    if (!argv || argc == 0) {
        free(argv);
        return smfw_error_set(err, SMFW_ERR_CONFIG, "credential_process is empty");
    }
    int outp[2], errp[2];
    if (pipe2(outp, O_CLOEXEC) != 0 || pipe2(errp, O_CLOEXEC) != 0) {
        for (int i = 0; i < argc; i++) free(argv[i]);
        free(argv);
        return smfw_error_set(err, SMFW_ERR_IO, "pipe failed: %s", strerror(errno));
    }
    posix_spawn_file_actions_t fa;
    posix_spawn_file_actions_init(&fa);
    posix_spawn_file_actions_adddup2(&fa, outp[1], 1);
    posix_spawn_file_actions_adddup2(&fa, errp[1], 2);
    pid_t pid;
    int rc = posix_spawnp(&pid, argv[0], &fa, NULL, argv, environ);
    posix_spawn_file_actions_destroy(&fa);
    close(outp[1]);
    close(errp[1]);
    smfw_status st = SMFW_OK;
    smfw_buf o, e;
    smfw_buf_init(&o);
    smfw_buf_init(&e);
    if (rc != 0) {
        st = smfw_error_set(err, SMFW_ERR_AUTH, "cannot run credential_process '%s': %s", argv[0],
                            strerror(rc));
    } else {
        /* Read both pipes until EOF (60 s limit). */
        struct pollfd pf[2] = {{outp[0], POLLIN, 0}, {errp[0], POLLIN, 0}};
        int open_fds = 2;
        int64_t deadline = aws_now() + 60;
        while (open_fds > 0 && aws_now() < deadline) {
            if (poll(pf, 2, 1000) <= 0) continue;
            for (int i = 0; i < 2; i++) {
                if (pf[i].fd < 0 || !(pf[i].revents & (POLLIN | POLLHUP))) continue;
                char chunk[4096];
                ssize_t r = read(pf[i].fd, chunk, sizeof(chunk));
                if (r <= 0) {
                    pf[i].fd = -1;
                    open_fds--;
                } else if ((i == 0 ? o.len : e.len) < (1u << 20)) {
                    smfw_buf_append(i == 0 ? &o : &e, chunk, (size_t)r);
                }
            }
        }
        if (open_fds > 0) kill(pid, SIGKILL);
        int status = 0;
        while (waitpid(pid, &status, 0) < 0 && errno == EINTR) {
        }
        smfw_buf_reserve(&o, 0);
        smfw_buf_reserve(&e, 0);
        if (open_fds > 0) {
            st = smfw_error_set(err, SMFW_ERR_AUTH, "credential_process '%s' ran over 60 s",
                                argv[0]);
        } else if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) {
            while (e.len && isspace((unsigned char)e.data[e.len - 1])) e.data[--e.len] = '\0';
            st = smfw_error_set(err, SMFW_ERR_AUTH, "credential_process '%s' failed (exit %d): %s",
                                argv[0], WIFEXITED(status) ? WEXITSTATUS(status) : -1,
                                e.len ? e.data : "no message");
        } else {
            json_t *j = json_loadb(o.data, o.len, 0, NULL);
            json_t *ver = json_object_get(j, "Version");
            if (!json_is_integer(ver) || json_integer_value(ver) != 1)
                st = smfw_error_set(err, SMFW_ERR_AUTH,
                                    "credential_process '%s' must print JSON with \"Version\": 1",
                                    argv[0]);
            json_decref(j);
            if (st == SMFW_OK)
                st = creds_from_json(o.data, o.len, "SessionToken", "credential_process", 1, out,
                                     err);
        }
    }
    close(outp[0]);
    close(errp[0]);
    smfw_buf_free(&o);
    smfw_buf_free(&e);
    for (int i = 0; i < argc; i++) free(argv[i]);
    free(argv);
    return st;
}

/* ---- container credentials ---- */

static int allowed_container_host(const char *url) {
    if (strncasecmp(url, "https://", 8) == 0) return 1;
    char auth[256];
    if (aws_http_url_authority(url, auth, sizeof(auth)) != 0) return 0;
    char *host = auth;
    if (host[0] == '[') {
        char *e = strchr(host, ']');
        if (!e) return 0;
        *e = '\0';
        host++;
    } else {
        char *colon = strchr(host, ':');
        if (colon) *colon = '\0';
    }
    /* botocore: any loopback address (a literal, so 127.x.example.com is not one), or one of
     * its named hosts. */
    struct in_addr a4;
    struct in6_addr a6;
    if (inet_pton(AF_INET, host, &a4) == 1 && (ntohl(a4.s_addr) >> 24) == 127) return 1;
    if (inet_pton(AF_INET6, host, &a6) == 1 && IN6_IS_ADDR_LOOPBACK(&a6)) return 1;
    return strcasecmp(host, "localhost") == 0 || strcmp(host, "169.254.170.2") == 0 ||
           strcmp(host, "169.254.170.23") == 0 || strcasecmp(host, "fd00:ec2::23") == 0;
}

static smfw_status from_container(smfw_aws_client *c, aws_creds **out, smfw_error *err) {
    const char *rel = aws_getenv("AWS_CONTAINER_CREDENTIALS_RELATIVE_URI");
    const char *full = aws_getenv("AWS_CONTAINER_CREDENTIALS_FULL_URI");
    if (!rel && !full) return SMFW_DONE;
    char url[2048];
    if (rel) {
        snprintf(url, sizeof(url), "http://169.254.170.2%s%s", rel[0] == '/' ? "" : "/", rel);
    } else {
        if (!allowed_container_host(full))
            return smfw_error_set(err, SMFW_ERR_CONFIG,
                                  "AWS_CONTAINER_CREDENTIALS_FULL_URI must be https:// or http:// "
                                  "to a loopback or ECS/EKS link-local address, not '%s'",
                                  full);
        aws_strlcpy(url, full, sizeof(url));
    }
    char *token = NULL;
    const char *token_file = aws_getenv("AWS_CONTAINER_AUTHORIZATION_TOKEN_FILE");
    if (token_file) {
        smfw_status st = read_small_file(token_file, &token, err);
        if (st != SMFW_OK) return st;
    } else if (aws_getenv("AWS_CONTAINER_AUTHORIZATION_TOKEN")) {
        token = strdup(aws_getenv("AWS_CONTAINER_AUTHORIZATION_TOKEN"));
    }
    if (token && strpbrk(token, "\r\n")) {
        free(token);
        return smfw_error_set(err, SMFW_ERR_CONFIG,
                              "the container authorization token contains a line break");
    }
    if (token) smfw_secret_register(token);
    smfw_sigv4_header hs[2] = {{"Accept", "application/json"}, {"Authorization", token}};
    smfw_status st = SMFW_ERR_NETWORK;
    smfw_error lerr;
    smfw_error_clear(&lerr);
    for (int attempt = 0; attempt < 3; attempt++) {
        aws_http_response resp;
        aws_http_response_init(&resp);
        aws_http_request req = {"GET", url, hs,   token ? 2 : 1, NULL, 0,
                                NULL,  0,   NULL, 2000,          2000, 1};
        st = aws_http_perform(c->http, &req, &resp, &lerr);
        if (st == SMFW_OK && resp.status == 200) {
            st = creds_from_json(resp.body.data, resp.body.len, "Token", "container", 1, out, err);
            aws_http_response_free(&resp);
            free(token);
            return st;
        }
        if (st == SMFW_OK) {
            st = smfw_error_set(&lerr, SMFW_ERR_AUTH,
                                "the container credentials endpoint %s answered HTTP %ld", url,
                                resp.status);
            if (resp.status < 500) {
                aws_http_response_free(&resp);
                break;
            }
        }
        aws_http_response_free(&resp);
    }
    free(token);
    if (err) *err = lerr;
    return st == SMFW_OK ? SMFW_ERR_AUTH : st;
}

/* ---- IMDS (aws_imds.c) ---- */

static smfw_status from_imds(smfw_aws_client *c, aws_creds **out, smfw_error *err) {
    if (aws_imds_disabled(c)) return SMFW_DONE;
    char *role = NULL;
    smfw_error lerr;
    smfw_status st = aws_imds_get(c, "/latest/meta-data/iam/security-credentials/", &role, &lerr);
    if (st == SMFW_ERR_NETWORK || st == SMFW_ERR_TIMEOUT) return SMFW_DONE; /* not on EC2 */
    if (st == SMFW_ERR_NOT_FOUND)
        return smfw_error_set(err, SMFW_ERR_AUTH,
                              "this EC2 instance has no IAM role (instance metadata lists no "
                              "role under /latest/meta-data/iam/security-credentials/)");
    if (st != SMFW_OK) {
        if (err) *err = lerr;
        return st;
    }
    char *nl = strchr(role, '\n');
    if (nl) *nl = '\0';
    char path[512];
    snprintf(path, sizeof(path), "/latest/meta-data/iam/security-credentials/%s", role);
    free(role);
    char *body = NULL;
    st = aws_imds_get(c, path, &body, err);
    if (st != SMFW_OK) return st;
    st = creds_from_json(body, strlen(body), "Token", "instance-metadata", 1, out, err);
    free(body);
    return st;
}

/* ---- profiles (static keys, process, assume role) ---- */

static smfw_status profile_creds(smfw_aws_client *c, const char *profile, int depth,
                                 aws_creds **out, smfw_error *err);

static smfw_status static_keys(smfw_aws_client *c, const char *profile, int credfile,
                               aws_creds **out, smfw_error *err) {
    const char *(*get)(smfw_aws_client *, const char *, const char *) =
        credfile ? aws_credfile_get : aws_profile_get;
    const char *akid = get(c, profile, "aws_access_key_id");
    const char *secret = get(c, profile, "aws_secret_access_key");
    if (!akid && !secret) return SMFW_DONE;
    const char *where = credfile ? "the shared credentials file" : "the AWS config file";
    if (!akid || !secret)
        return smfw_error_set(err, SMFW_ERR_AUTH,
                              "profile '%s' in %s has only one of aws_access_key_id and "
                              "aws_secret_access_key",
                              profile, where);
    const char *token = get(c, profile, "aws_session_token");
    if (!token) token = get(c, profile, "aws_security_token");
    *out = aws_creds_new(akid, secret, token, 0, get(c, profile, "aws_account_id"),
                         credfile ? "shared-credentials-file" : "config-file");
    return *out ? SMFW_OK : smfw_error_set(err, SMFW_ERR_NOMEM, "out of memory");
}

static smfw_status web_identity(smfw_aws_client *c, const char *role_arn, const char *token_file,
                                const char *session, aws_creds **out, smfw_error *err) {
    char *token = NULL;
    smfw_status st = read_small_file(token_file, &token, err);
    if (st != SMFW_OK) return st;
    smfw_secret_register(token);
    char name[64];
    if (!session) {
        snprintf(name, sizeof(name), "smfw-session-%lld", (long long)aws_now());
        session = name;
    }
    st = aws_sts_assume_role_with_web_identity(c, role_arn, session, token, out, err);
    free(token);
    return st;
}

static smfw_status assume_role_profile(smfw_aws_client *c, const char *profile, int depth,
                                       aws_creds **out, smfw_error *err) {
    const char *role = aws_profile_get(c, profile, "role_arn");
    const char *source = aws_profile_get(c, profile, "source_profile");
    const char *csource = aws_profile_get(c, profile, "credential_source");
    const char *wif = aws_profile_get(c, profile, "web_identity_token_file");
    const char *session = aws_profile_get(c, profile, "role_session_name");
    if (wif) return web_identity(c, role, wif, session, out, err);
    if (aws_profile_get(c, profile, "mfa_serial"))
        return smfw_error_set(err, SMFW_ERR_AUTH,
                              "profile '%s' needs an MFA code (mfa_serial), which smfw cannot "
                              "prompt for; export temporary credentials first",
                              profile);
    aws_creds *src = NULL;
    smfw_status st;
    if (source && csource)
        return smfw_error_set(err, SMFW_ERR_CONFIG,
                              "profile '%s' sets both source_profile and credential_source",
                              profile);
    if (source) {
        if (strcmp(source, profile) == 0) {
            /* A profile sourcing itself uses its own static keys. */
            st = static_keys(c, source, 1, &src, err);
            if (st == SMFW_DONE) st = static_keys(c, source, 0, &src, err);
        } else {
            st = profile_creds(c, source, depth + 1, &src, err);
        }
    } else if (csource) {
        if (strcasecmp(csource, "Environment") == 0)
            st = from_env(&src, err);
        else if (strcasecmp(csource, "EcsContainer") == 0)
            st = from_container(c, &src, err);
        else if (strcasecmp(csource, "Ec2InstanceMetadata") == 0)
            st = from_imds(c, &src, err);
        else
            return smfw_error_set(err, SMFW_ERR_CONFIG,
                                  "profile '%s': unknown credential_source '%s' (use Environment, "
                                  "Ec2InstanceMetadata or EcsContainer)",
                                  profile, csource);
    } else {
        return smfw_error_set(err, SMFW_ERR_CONFIG,
                              "profile '%s' has role_arn but neither source_profile nor "
                              "credential_source",
                              profile);
    }
    if (st == SMFW_DONE)
        st = smfw_error_set(err, SMFW_ERR_AUTH, "the source of profile '%s' has no credentials",
                            profile);
    if (st != SMFW_OK) return st;
    char name[64];
    if (!session) {
        snprintf(name, sizeof(name), "smfw-session-%lld", (long long)aws_now());
        session = name;
    }
    const char *dur = aws_profile_get(c, profile, "duration_seconds");
    st =
        aws_sts_assume_role(c, &src->pub, role, session, aws_profile_get(c, profile, "external_id"),
                            dur ? atoi(dur) : 0, out, err);
    aws_creds_unref(src);
    return st;
}

/* Credentials of a named profile (assume role, SSO, static keys, credential_process), in
 * the order of botocore's profile providers. */
static smfw_status profile_creds(smfw_aws_client *c, const char *profile, int depth,
                                 aws_creds **out, smfw_error *err) {
    if (depth > 8)
        return smfw_error_set(err, SMFW_ERR_CONFIG,
                              "profile '%s': source_profile chain is too long or circular",
                              profile);
    if (aws_profile_get(c, profile, "role_arn"))
        return assume_role_profile(c, profile, depth, out, err);
    smfw_status st = aws_sso_credentials(c, profile, out, err);
    if (st != SMFW_DONE) return st;
    if ((st = static_keys(c, profile, 1, out, err)) != SMFW_DONE) return st;
    const char *proc = aws_profile_get(c, profile, "credential_process");
    if (!proc) proc = aws_credfile_get(c, profile, "credential_process");
    if (proc) return from_process(proc, out, err);
    return static_keys(c, profile, 0, out, err);
}

/* The chain's sentence when every provider said no: which ones were asked, and why each
 * had nothing (as `aws configure list` would show it), then what to do. */
static smfw_status no_credentials(smfw_aws_client *c, const char *p, smfw_error *err) {
    const char *cfg = aws_getenv("AWS_CONFIG_FILE"),
               *cred = aws_getenv("AWS_SHARED_CREDENTIALS_FILE");
    const char *home = getenv("HOME");
    char cfg_path[1024], cred_path[1024];
    snprintf(cfg_path, sizeof cfg_path, "%s%s", cfg ? cfg : (home ? home : "~"),
             cfg ? "" : "/.aws/config");
    snprintf(cred_path, sizeof cred_path, "%s%s", cred ? cred : (home ? home : "~"),
             cred ? "" : "/.aws/credentials");
    const char *imds_why = c->no_imds             ? "not asked (disabled for this client)"
                           : aws_imds_disabled(c) ? "not asked (AWS_EC2_METADATA_DISABLED=true)"
                                                  : "no answer (not on EC2, or no role attached)";
    return smfw_error_set(
        err, SMFW_ERR_AUTH,
        "no AWS credentials found. Tried: environment (%s); web identity (AWS_ROLE_ARN and "
        "AWS_WEB_IDENTITY_TOKEN_FILE not both set); profile '%s' in %s and %s (no keys, role, SSO "
        "settings or credential_process there); container "
        "(AWS_CONTAINER_CREDENTIALS_RELATIVE_URI/FULL_URI "
        "not set); EC2 instance metadata (%s). Set AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY, "
        "run 'aws configure', pass --profile, or run where a role is attached (EC2, ECS, EKS)",
        c->profile_explicit ? "skipped: --profile names a profile"
                            : "AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY not set",
        p, cfg_path, cred_path, imds_why);
}

smfw_status aws_credentials_resolve(smfw_aws_client *c, aws_creds **out, smfw_error *err) {
    *out = NULL;
    smfw_status st;
    const char *p = c->profile;
    if (!c->profile_explicit && (st = from_env(out, err)) != SMFW_DONE) return st;
    /* Assume-role profile, then web identity from the environment. */
    if (aws_profile_get(c, p, "role_arn")) return assume_role_profile(c, p, 0, out, err);
    const char *wr = aws_getenv("AWS_ROLE_ARN"), *wf = aws_getenv("AWS_WEB_IDENTITY_TOKEN_FILE");
    if (wr && wf) return web_identity(c, wr, wf, aws_getenv("AWS_ROLE_SESSION_NAME"), out, err);
    if ((st = aws_sso_credentials(c, p, out, err)) != SMFW_DONE) return st;
    if ((st = static_keys(c, p, 1, out, err)) != SMFW_DONE) return st;
    const char *proc = aws_profile_get(c, p, "credential_process");
    if (!proc) proc = aws_credfile_get(c, p, "credential_process");
    if (proc) return from_process(proc, out, err);
    if ((st = static_keys(c, p, 0, out, err)) != SMFW_DONE) return st;
    if ((st = from_container(c, out, err)) != SMFW_DONE) return st;
    if ((st = from_imds(c, out, err)) != SMFW_DONE) return st;
    return no_credentials(c, p, err);
}
