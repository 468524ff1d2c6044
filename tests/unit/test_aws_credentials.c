/*
 * test_aws_credentials.c - every credential provider against a local fake
 * (files in a temp dir; a local HTTP responder playing STS, the container
 * endpoint and IMDS), the chain order, and refresh of expiring credentials
 * across threads (credential_process issuing 60-second credentials).
 */
#include <check.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

#include <smfw/aws.h>

#include "aws_fake_env.h"
#include "aws_fake_http.h"
#include "smfw_test.h"

static char *g_home;

static void setup(void) {
    g_home = aws_fake_env_reset();
    setenv("AWS_REGION", "us-west-2", 1);
}

static void teardown(void) {
    aws_fake_rmdir(g_home);
    free(g_home);
}

static smfw_status get_creds(const char *profile, const smfw_aws_credentials **out,
                             smfw_aws_client **client, smfw_error *err) {
    smfw_aws_options o;
    memset(&o, 0, sizeof(o));
    o.profile = profile;
    smfw_status st = smfw_aws_client_new(&o, client, err);
    if (st != SMFW_OK) return st;
    return smfw_aws_client_credentials(*client, out, err);
}

static void expect(const char *profile, const char *akid, const char *secret, const char *token,
                   const char *provider) {
    smfw_aws_client *c = NULL;
    const smfw_aws_credentials *cr = NULL;
    smfw_error err;
    smfw_status st = get_creds(profile, &cr, &c, &err);
    ck_assert_msg(st == SMFW_OK, "%s", err.message);
    ck_assert_str_eq(cr->access_key_id, akid);
    ck_assert_str_eq(cr->secret_access_key, secret);
    if (token)
        ck_assert_str_eq(cr->session_token, token);
    else
        ck_assert_ptr_null(cr->session_token);
    ck_assert_str_eq(cr->provider, provider);
    smfw_aws_credentials_release(cr);
    smfw_aws_client_free(c);
}

START_TEST(environment) {
    setenv("AWS_ACCESS_KEY_ID", "AKIDENV", 1);
    setenv("AWS_SECRET_ACCESS_KEY", "envsecret", 1);
    setenv("AWS_SESSION_TOKEN", "envtoken", 1);
    expect(NULL, "AKIDENV", "envsecret", "envtoken", "environment");
    unsetenv("AWS_SECRET_ACCESS_KEY");
    smfw_aws_client *c = NULL;
    const smfw_aws_credentials *cr;
    smfw_error err;
    ck_assert_int_eq(get_creds(NULL, &cr, &c, &err), SMFW_ERR_AUTH);
    ck_assert_msg(strstr(err.message, "AWS_SECRET_ACCESS_KEY"), "%s", err.message);
    smfw_aws_client_free(c);
}
END_TEST

START_TEST(shared_files_and_profiles) {
    char *cred = aws_fake_write_file(g_home, "creds",
                                     "[default]\naws_access_key_id = AKIDDEF\n"
                                     "aws_secret_access_key = defsecret\n"
                                     "# comment\n[dev]\naws_access_key_id=AKIDDEV\n"
                                     "aws_secret_access_key=devsecret\naws_session_token=devtok\n");
    char *cfg = aws_fake_write_file(g_home, "config",
                                    "[profile cfgonly]\naws_access_key_id = AKIDCFG\n"
                                    "aws_secret_access_key = cfgsecret\n");
    setenv("AWS_SHARED_CREDENTIALS_FILE", cred, 1);
    setenv("AWS_CONFIG_FILE", cfg, 1);
    expect(NULL, "AKIDDEF", "defsecret", NULL, "shared-credentials-file");
    setenv("AWS_PROFILE", "dev", 1);
    expect(NULL, "AKIDDEV", "devsecret", "devtok", "shared-credentials-file");
    expect("cfgonly", "AKIDCFG", "cfgsecret", NULL, "config-file");
    /* Environment wins over AWS_PROFILE, but not over an explicit --profile. */
    setenv("AWS_ACCESS_KEY_ID", "AKIDENV", 1);
    setenv("AWS_SECRET_ACCESS_KEY", "envsecret", 1);
    expect(NULL, "AKIDENV", "envsecret", NULL, "environment");
    expect("dev", "AKIDDEV", "devsecret", "devtok", "shared-credentials-file");
    smfw_aws_client *c = NULL;
    smfw_aws_options o;
    memset(&o, 0, sizeof(o));
    o.profile = "nosuch";
    smfw_error err;
    ck_assert_int_eq(smfw_aws_client_new(&o, &c, &err), SMFW_ERR_CONFIG);
    ck_assert_msg(strstr(err.message, "'nosuch'"), "%s", err.message);
    free(cred);
    free(cfg);
}
END_TEST

START_TEST(no_credentials) {
    smfw_aws_client *c = NULL;
    const smfw_aws_credentials *cr;
    smfw_error err;
    ck_assert_int_eq(get_creds(NULL, &cr, &c, &err), SMFW_ERR_AUTH);
    ck_assert_msg(strstr(err.message, "no AWS credentials found") &&
                      strstr(err.message, "AWS_ACCESS_KEY_ID"),
                  "%s", err.message);
    smfw_aws_client_free(c);
}
END_TEST

static char *write_script(const char *name, const char *body) {
    char *p = aws_fake_write_file(g_home, name, body);
    chmod(p, 0755);
    return p;
}

START_TEST(credential_process) {
    char *ok = write_script("proc.sh", "#!/bin/sh\necho '{\"Version\": 1, \"AccessKeyId\": "
                                       "\"AKIDPROC\", \"SecretAccessKey\": \"procsecret\", "
                                       "\"SessionToken\": \"proctok\", \"Expiration\": "
                                       "\"2099-01-01T00:00:00Z\"}'\n");
    char *bad = write_script("bad.sh", "#!/bin/sh\necho 'token service is down' >&2\nexit 3\n");
    char *badver = write_script("v2.sh", "#!/bin/sh\necho '{\"Version\": 2}'\n");
    char cfgtext[2048];
    snprintf(cfgtext, sizeof(cfgtext),
             "[default]\ncredential_process = %s --flag \"with space\"\n[profile bad]\n"
             "credential_process = %s\n[profile v2]\ncredential_process = %s\n",
             ok, bad, badver);
    char *cfg = aws_fake_write_file(g_home, "config", cfgtext);
    setenv("AWS_CONFIG_FILE", cfg, 1);
    expect(NULL, "AKIDPROC", "procsecret", "proctok", "credential_process");
    smfw_aws_client *c = NULL;
    const smfw_aws_credentials *cr;
    smfw_error err;
    ck_assert_int_eq(get_creds("bad", &cr, &c, &err), SMFW_ERR_AUTH);
    ck_assert_msg(strstr(err.message, "exit 3") && strstr(err.message, "token service is down"),
                  "%s", err.message);
    smfw_aws_client_free(c);
    ck_assert_int_eq(get_creds("v2", &cr, &c, &err), SMFW_ERR_AUTH);
    ck_assert_msg(strstr(err.message, "Version"), "%s", err.message);
    smfw_aws_client_free(c);
    free(ok);
    free(bad);
    free(badver);
    free(cfg);
}
END_TEST

/* ---- fake STS / container / IMDS ---- */

typedef struct fake_idp {
    int assume_calls, web_calls, container_calls, imds_token_calls, imds_calls;
    int bad;
    char token_file_content[64];
} fake_idp;

static const char *STS_CREDS =
    "<Credentials><AccessKeyId>AKIDSTS</AccessKeyId><SecretAccessKey>stssecret</SecretAccessKey>"
    "<SessionToken>ststoken</SessionToken><Expiration>2099-01-01T00:00:00Z</Expiration>"
    "</Credentials><AssumedRoleUser><Arn>arn:aws:sts::111122223333:assumed-role/R/s</Arn>"
    "</AssumedRoleUser>";

static void idp_handler(const aws_fake_request *req, aws_fake_response *resp, void *user) {
    fake_idp *f = user;
    char body[2048];
    if (strcmp(req->path, "/") == 0 && strcmp(req->method, "POST") == 0) {
        if (req->body_len && strstr(req->body, "Action=AssumeRoleWithWebIdentity")) {
            f->web_calls++;
            if (aws_fake_header(req, "Authorization") ||
                !strstr(req->body, "WebIdentityToken=jwt-1234") ||
                !strstr(req->body, "RoleArn=arn%3Aaws%3Aiam%3A%3A111122223333%3Arole%2Fweb"))
                f->bad++;
            snprintf(body, sizeof(body),
                     "<AssumeRoleWithWebIdentityResponse><AssumeRoleWithWebIdentityResult>%s"
                     "</AssumeRoleWithWebIdentityResult></AssumeRoleWithWebIdentityResponse>",
                     STS_CREDS);
        } else {
            f->assume_calls++;
            char detail[256];
            if (aws_fake_verify(req, "AKIDBASE", "basesecret", "us-west-2", "sts", 0, detail,
                                sizeof(detail)) != SMFW_SIGV4_VALID ||
                !strstr(req->body, "Action=AssumeRole&") || !strstr(req->body, "ExternalId=ext-1"))
                f->bad++;
            snprintf(body, sizeof(body),
                     "<AssumeRoleResponse><AssumeRoleResult>%s</AssumeRoleResult>"
                     "</AssumeRoleResponse>",
                     STS_CREDS);
        }
        aws_fake_reply(resp, 200, "text/xml", body);
    } else if (strcmp(req->path, "/container/creds") == 0) {
        f->container_calls++;
        const char *a = aws_fake_header(req, "Authorization");
        if (!a || strcmp(a, "container-auth-token") != 0) {
            aws_fake_reply(resp, 401, "application/json", "{\"Message\":\"bad token\"}");
            return;
        }
        aws_fake_reply(resp, 200, "application/json",
                       "{\"AccessKeyId\":\"AKIDECS\",\"SecretAccessKey\":\"ecssecret\","
                       "\"Token\":\"ecstoken\",\"Expiration\":\"2099-01-01T00:00:00Z\"}");
    } else if (strcmp(req->path, "/latest/api/token") == 0 && strcmp(req->method, "PUT") == 0) {
        f->imds_token_calls++;
        const char *ttl = aws_fake_header(req, "X-aws-ec2-metadata-token-ttl-seconds");
        aws_fake_reply(resp, ttl ? 200 : 400, "text/plain", "imds-session-token");
    } else if (strncmp(req->path, "/latest/meta-data/", 18) == 0) {
        f->imds_calls++;
        const char *t = aws_fake_header(req, "X-aws-ec2-metadata-token");
        if (!t || strcmp(t, "imds-session-token") != 0) {
            aws_fake_reply(resp, 401, "text/plain", "");
        } else if (strcmp(req->path, "/latest/meta-data/iam/security-credentials/") == 0) {
            aws_fake_reply(resp, 200, "text/plain", "my-instance-role");
        } else if (strcmp(req->path,
                          "/latest/meta-data/iam/security-credentials/my-instance-role") == 0) {
            aws_fake_reply(resp, 200, "text/plain",
                           "{\"Code\":\"Success\",\"Type\":\"AWS-HMAC\",\"AccessKeyId\":"
                           "\"AKIDIMDS\",\"SecretAccessKey\":\"imdssecret\",\"Token\":"
                           "\"imdstoken\",\"Expiration\":\"2099-01-01T00:00:00Z\"}");
        } else if (strcmp(req->path, "/latest/meta-data/placement/region") == 0) {
            aws_fake_reply(resp, 200, "text/plain", "eu-north-1");
        } else {
            aws_fake_reply(resp, 404, "text/plain", "");
        }
    } else {
        aws_fake_reply(resp, 404, "text/plain", "no route");
    }
}

START_TEST(assume_role_profile) {
    fake_idp f;
    memset(&f, 0, sizeof(f));
    aws_fake_server *srv = aws_fake_server_start(idp_handler, &f);
    setenv("AWS_ENDPOINT_URL_STS", aws_fake_server_url(srv), 1);
    char *cred = aws_fake_write_file(g_home, "credentials",
                                     "[base]\naws_access_key_id = AKIDBASE\n"
                                     "aws_secret_access_key = basesecret\n");
    char *cfg = aws_fake_write_file(g_home, "config",
                                    "[profile ops]\nrole_arn = arn:aws:iam::111122223333:role/ops\n"
                                    "source_profile = base\nexternal_id = ext-1\n"
                                    "role_session_name = bench\n");
    setenv("AWS_SHARED_CREDENTIALS_FILE", cred, 1);
    setenv("AWS_CONFIG_FILE", cfg, 1);
    setenv("AWS_PROFILE", "ops", 1);
    expect(NULL, "AKIDSTS", "stssecret", "ststoken", "assume-role");
    ck_assert_int_eq(f.assume_calls, 1);
    ck_assert_int_eq(f.bad, 0);
    aws_fake_server_stop(srv);
    free(cred);
    free(cfg);
}
END_TEST

START_TEST(web_identity) {
    fake_idp f;
    memset(&f, 0, sizeof(f));
    aws_fake_server *srv = aws_fake_server_start(idp_handler, &f);
    setenv("AWS_ENDPOINT_URL_STS", aws_fake_server_url(srv), 1);
    char *tok = aws_fake_write_file(g_home, "token", "jwt-1234\n");
    setenv("AWS_ROLE_ARN", "arn:aws:iam::111122223333:role/web", 1);
    setenv("AWS_WEB_IDENTITY_TOKEN_FILE", tok, 1);
    expect(NULL, "AKIDSTS", "stssecret", "ststoken", "web-identity");
    ck_assert_int_eq(f.web_calls, 1);
    ck_assert_int_eq(f.bad, 0);
    aws_fake_server_stop(srv);
    free(tok);
}
END_TEST

START_TEST(container_credentials) {
    fake_idp f;
    memset(&f, 0, sizeof(f));
    aws_fake_server *srv = aws_fake_server_start(idp_handler, &f);
    char url[256];
    snprintf(url, sizeof(url), "%s/container/creds", aws_fake_server_url(srv));
    setenv("AWS_CONTAINER_CREDENTIALS_FULL_URI", url, 1);
    char *tok = aws_fake_write_file(g_home, "auth", "container-auth-token\n");
    setenv("AWS_CONTAINER_AUTHORIZATION_TOKEN_FILE", tok, 1);
    expect(NULL, "AKIDECS", "ecssecret", "ecstoken", "container");
    /* A token with a line break is refused; a remote http:// URL too. */
    free(aws_fake_write_file(g_home, "auth", "a\nb"));
    smfw_aws_client *c = NULL;
    const smfw_aws_credentials *cr;
    smfw_error err;
    ck_assert_int_eq(get_creds(NULL, &cr, &c, &err), SMFW_ERR_CONFIG);
    smfw_aws_client_free(c);
    setenv("AWS_CONTAINER_CREDENTIALS_FULL_URI", "http://example.com/creds", 1);
    ck_assert_int_eq(get_creds(NULL, &cr, &c, &err), SMFW_ERR_CONFIG);
    ck_assert_msg(strstr(err.message, "loopback"), "%s", err.message);
    smfw_aws_client_free(c);
    aws_fake_server_stop(srv);
    free(tok);
}
END_TEST

START_TEST(imds_v2) {
    fake_idp f;
    memset(&f, 0, sizeof(f));
    aws_fake_server *srv = aws_fake_server_start(idp_handler, &f);
    setenv("AWS_EC2_METADATA_SERVICE_ENDPOINT", aws_fake_server_url(srv), 1);
    unsetenv("AWS_EC2_METADATA_DISABLED");
    expect(NULL, "AKIDIMDS", "imdssecret", "imdstoken", "instance-metadata");
    ck_assert_int_eq(f.imds_token_calls, 1); /* one token for the role list and the keys */
    ck_assert_int_eq(f.imds_calls, 2);
    /* Region from IMDS when nothing else sets one; the same client's credentials then reuse
     * the region lookup's token. */
    unsetenv("AWS_REGION");
    smfw_aws_client *c = NULL;
    smfw_error err;
    ck_assert_int_eq(smfw_aws_client_new(NULL, &c, &err), SMFW_OK);
    const char *r;
    ck_assert_msg(smfw_aws_client_region(c, &r, &err) == SMFW_OK, "%s", err.message);
    ck_assert_str_eq(r, "eu-north-1");
    const smfw_aws_credentials *cr;
    ck_assert_msg(smfw_aws_client_credentials(c, &cr, &err) == SMFW_OK, "%s", err.message);
    smfw_aws_credentials_release(cr);
    ck_assert_int_eq(f.imds_token_calls, 2);
    smfw_aws_client_free(c);
    aws_fake_server_stop(srv);
}
END_TEST

/* ---- refresh of expiring credentials across threads ---- */

typedef struct refresh_fake {
    pthread_mutex_t lock;
    int ok, expired, bad;
    char seen[64][32];
    int nseen;
} refresh_fake;

static void refresh_handler(const aws_fake_request *req, aws_fake_response *resp, void *user) {
    refresh_fake *f = user;
    /* AKIDPROC<issue time>: secret is secret<issue time>, valid for 60 s. */
    const char *auth = aws_fake_header(req, "Authorization");
    const char *cred = auth ? strstr(auth, "Credential=AKIDPROC") : NULL;
    long issued = cred ? atol(cred + 19) : 0;
    char akid[32], secret[32];
    snprintf(akid, sizeof(akid), "AKIDPROC%ld", issued);
    snprintf(secret, sizeof(secret), "secret%ld", issued);
    char detail[256];
    smfw_sigv4_verdict v =
        aws_fake_verify(req, akid, secret, "us-west-2", "sagemaker", 0, detail, sizeof(detail));
    pthread_mutex_lock(&f->lock);
    int is_new = 1;
    for (int i = 0; i < f->nseen; i++)
        if (strcmp(f->seen[i], akid) == 0) is_new = 0;
    if (is_new && f->nseen < 64) snprintf(f->seen[f->nseen++], 32, "%s", akid);
    if (v != SMFW_SIGV4_VALID) {
        f->bad++;
        aws_fake_reply(resp, 403, "application/x-amz-json-1.1",
                       "{\"__type\":\"InvalidSignatureException\",\"message\":\"bad\"}");
    } else if (time(NULL) >= issued + 60) {
        f->expired++;
        aws_fake_reply(resp, 400, "application/x-amz-json-1.1",
                       "{\"__type\":\"ExpiredTokenException\",\"message\":\"expired\"}");
    } else {
        f->ok++;
        aws_fake_reply(resp, 200, "application/x-amz-json-1.1", "{}");
    }
    pthread_mutex_unlock(&f->lock);
}

typedef struct worker {
    smfw_aws_client *c;
    int failures;
    time_t until;
} worker;

static void *work(void *arg) {
    worker *w = arg;
    while (time(NULL) < w->until) {
        char *out = NULL;
        smfw_error err;
        if (smfw_aws_json_call(w->c, &smfw_aws_sagemaker, "ListEndpoints", "{}", &out, &err) !=
            SMFW_OK)
            w->failures++;
        free(out);
        struct timespec ts = {0, 50 * 1000000L};
        nanosleep(&ts, NULL);
    }
    return NULL;
}

START_TEST(expiring_credentials_refresh) {
    refresh_fake f;
    memset(&f, 0, sizeof(f));
    pthread_mutex_init(&f.lock, NULL);
    aws_fake_server *srv = aws_fake_server_start(refresh_handler, &f);
    /* Issues keys named after the issue time, valid for 60 seconds. */
    char *proc = write_script(
        "issue.sh", "#!/bin/sh\nnow=$(date +%s)\nexp=$(date -u -d @$((now + 60)) "
                    "+%Y-%m-%dT%H:%M:%SZ)\nprintf '{\"Version\":1,\"AccessKeyId\":\"AKIDPROC%s\","
                    "\"SecretAccessKey\":\"secret%s\",\"SessionToken\":\"tok%s\","
                    "\"Expiration\":\"%s\"}' $now $now $now $exp\n");
    char cfgtext[1024];
    snprintf(cfgtext, sizeof(cfgtext), "[default]\ncredential_process = %s\n", proc);
    char *cfg = aws_fake_write_file(g_home, "config", cfgtext);
    setenv("AWS_CONFIG_FILE", cfg, 1);
    smfw_aws_options o;
    memset(&o, 0, sizeof(o));
    o.endpoint_url = aws_fake_server_url(srv);
    o.refresh_margin_s = 56; /* refresh every ~4 s */
    smfw_aws_client *c = NULL;
    smfw_error err;
    ck_assert_int_eq(smfw_aws_client_new(&o, &c, &err), SMFW_OK);
    worker w[3];
    pthread_t th[3];
    for (int i = 0; i < 3; i++) {
        w[i] = (worker){c, 0, time(NULL) + 14};
        pthread_create(&th[i], NULL, work, &w[i]);
    }
    for (int i = 0; i < 3; i++) pthread_join(th[i], NULL);
    ck_assert_int_eq(w[0].failures + w[1].failures + w[2].failures, 0);
    ck_assert_int_eq(f.bad, 0);
    ck_assert_int_eq(f.expired, 0);
    ck_assert_int_ge(f.ok, 50);
    ck_assert_msg(f.nseen >= 3, "only %d distinct credentials were used", f.nseen);
    smfw_aws_client_free(c);
    aws_fake_server_stop(srv);
    free(proc);
    free(cfg);
}
END_TEST

int main(void) {
    Suite *s = suite_create("aws_credentials");
    TCase *tc = tcase_create("providers");
    tcase_add_checked_fixture(tc, setup, teardown);
    tcase_set_timeout(tc, 60);
    tcase_add_test(tc, environment);
    tcase_add_test(tc, shared_files_and_profiles);
    tcase_add_test(tc, no_credentials);
    tcase_add_test(tc, credential_process);
    tcase_add_test(tc, assume_role_profile);
    tcase_add_test(tc, web_identity);
    tcase_add_test(tc, container_credentials);
    tcase_add_test(tc, imds_v2);
    tcase_add_test(tc, expiring_credentials_refresh);
    suite_add_tcase(s, tc);
    return smfw_test_run(s);
}
