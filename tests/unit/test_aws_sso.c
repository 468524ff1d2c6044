/*
 * test_aws_sso.c - the SSO provider's place in the chain and its pieces, against a
 * local fake portal: the cache file name (SHA-1 values from Python's hashlib), SSO
 * before the shared credentials file (botocore's order), an assume-role profile whose
 * source_profile uses SSO (STS sees a request signed with the role credentials), and
 * the portal's and SSO-OIDC's URLs for sso_region (botocore 1.43's values) or an
 * override. test_aws_sso.sh compares everything on the wire with botocore itself.
 */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include <smfw/aws.h>

#include "aws/aws_sso.h"
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

typedef struct fake_sso {
    int portal_calls, sts_calls, bad;
} fake_sso;

static void handler(const aws_fake_request *req, aws_fake_response *resp, void *user) {
    fake_sso *f = user;
    if (strcmp(req->path, "/federation/credentials") == 0) {
        f->portal_calls++;
        const char *t = aws_fake_header(req, "x-amz-sso_bearer_token");
        if (!t || strcmp(t, "unit-access-token") != 0 || aws_fake_header(req, "Authorization") ||
            strcmp(req->query, "role_name=Bench%20Role&account_id=111122223333") != 0)
            f->bad++;
        aws_fake_reply(resp, 200, "application/json",
                       "{\"roleCredentials\":{\"accessKeyId\":\"AKIDSSO\",\"secretAccessKey\":"
                       "\"ssosecret\",\"sessionToken\":\"ssotoken\",\"expiration\":"
                       "4102444800000}}");
    } else if (strcmp(req->method, "POST") == 0 && strcmp(req->path, "/") == 0) {
        f->sts_calls++;
        char detail[256];
        if (aws_fake_verify(req, "AKIDSSO", "ssosecret", "us-west-2", "sts", 0, detail,
                            sizeof(detail)) != SMFW_SIGV4_VALID ||
            !strstr(req->body, "Action=AssumeRole&"))
            f->bad++;
        aws_fake_reply(resp, 200, "text/xml",
                       "<AssumeRoleResponse><AssumeRoleResult><Credentials><AccessKeyId>AKIDSTS"
                       "</AccessKeyId><SecretAccessKey>stssecret</SecretAccessKey><SessionToken>"
                       "ststoken</SessionToken><Expiration>2099-01-01T00:00:00Z</Expiration>"
                       "</Credentials></AssumeRoleResult></AssumeRoleResponse>");
    } else {
        aws_fake_reply(resp, 404, "text/plain", "no route");
    }
}

static void write_config(void) {
    char *cfg = aws_fake_write_file(
        g_home, "config",
        "[profile dev]\nsso_session = corp\nsso_account_id = 111122223333\n"
        "sso_role_name = Bench Role\n"
        "[sso-session corp]\nsso_start_url = https://corp.awsapps.com/start\n"
        "sso_region = eu-central-1\n"
        "[profile ops]\nrole_arn = arn:aws:iam::111122223333:role/ops\nsource_profile = dev\n"
        "role_session_name = bench\n");
    char *cred = aws_fake_write_file(g_home, "credentials",
                                     "[dev]\naws_access_key_id = AKIDFILE\n"
                                     "aws_secret_access_key = filesecret\n");
    setenv("AWS_CONFIG_FILE", cfg, 1);
    setenv("AWS_SHARED_CREDENTIALS_FILE", cred, 1);
    free(cfg);
    free(cred);
    char dir[1024];
    snprintf(dir, sizeof dir, "%s/.aws", g_home);
    mkdir(dir, 0700);
    snprintf(dir, sizeof dir, "%s/.aws/sso", g_home);
    mkdir(dir, 0700);
    snprintf(dir, sizeof dir, "%s/.aws/sso/cache", g_home);
    mkdir(dir, 0700);
    /* sha1("corp") */
    free(aws_fake_write_file(dir, "ee0bfd2552fbd840c02cc48b6e823320543c450f.json",
                             "{\"accessToken\": \"unit-access-token\", "
                             "\"expiresAt\": \"2099-01-01T00:00:00UTC\"}"));
}

static void expect(const char *profile, const char *akid, const char *provider) {
    smfw_aws_options o;
    memset(&o, 0, sizeof(o));
    o.profile = profile;
    o.no_imds = 1;
    smfw_aws_client *c = NULL;
    smfw_error err;
    ck_assert_int_eq(smfw_aws_client_new(&o, &c, &err), SMFW_OK);
    const smfw_aws_credentials *cr = NULL;
    smfw_status st = smfw_aws_client_credentials(c, &cr, &err);
    ck_assert_msg(st == SMFW_OK, "%s", err.message);
    ck_assert_str_eq(cr->access_key_id, akid);
    ck_assert_str_eq(cr->provider, provider);
    if (strcmp(provider, "sso") == 0) {
        ck_assert_str_eq(cr->session_token, "ssotoken");
        ck_assert_str_eq(cr->account_id, "111122223333");
        ck_assert_int_eq(cr->expiration, 4102444800LL);
    }
    smfw_aws_credentials_release(cr);
    smfw_aws_client_free(c);
}

START_TEST(cache_path) {
    char p[1200];
    ck_assert_int_eq(aws_sso_cache_path("corp", p, sizeof p, NULL), SMFW_OK);
    char want[1200];
    snprintf(want, sizeof want, "%s/.aws/sso/cache/ee0bfd2552fbd840c02cc48b6e823320543c450f.json",
             g_home);
    ck_assert_str_eq(p, want);
    ck_assert_int_eq(aws_sso_cache_path("https://legacy.awsapps.com/start", p, sizeof p, NULL),
                     SMFW_OK);
    ck_assert_ptr_nonnull(strstr(p, "/79e435d7a515078e81c9dffc35f38d5687ebd3a7.json"));
}
END_TEST

START_TEST(chain_order) {
    fake_sso f;
    memset(&f, 0, sizeof f);
    aws_fake_server *srv = aws_fake_server_start(handler, &f);
    setenv("AWS_ENDPOINT_URL_SSO", aws_fake_server_url(srv), 1);
    setenv("AWS_ENDPOINT_URL_STS", aws_fake_server_url(srv), 1);
    write_config();
    /* SSO comes before the shared credentials file's keys of the same profile. */
    expect("dev", "AKIDSSO", "sso");
    ck_assert_int_eq(f.portal_calls, 1);
    /* A source_profile that uses SSO: AssumeRole is signed with the role credentials. */
    expect("ops", "AKIDSTS", "assume-role");
    ck_assert_int_eq(f.portal_calls, 2);
    ck_assert_int_eq(f.sts_calls, 1);
    ck_assert_int_eq(f.bad, 0);
    aws_fake_server_stop(srv);
}
END_TEST

START_TEST(endpoints_of_the_sso_region) {
    write_config();
    smfw_aws_options o;
    memset(&o, 0, sizeof(o));
    o.no_imds = 1;
    smfw_aws_client *c = NULL;
    smfw_error err;
    ck_assert_int_eq(smfw_aws_client_new(&o, &c, &err), SMFW_OK);
    char url[1024];
    /* botocore: client('sso', region_name='eu-central-1').meta.endpoint_url, and sso-oidc. */
    ck_assert_int_eq(aws_sso_endpoint(c, "sso", "eu-central-1", url, sizeof url, &err), SMFW_OK);
    ck_assert_str_eq(url, "https://portal.sso.eu-central-1.amazonaws.com");
    ck_assert_int_eq(aws_sso_endpoint(c, "sso-oidc", "eu-central-1", url, sizeof url, &err),
                     SMFW_OK);
    ck_assert_str_eq(url, "https://oidc.eu-central-1.amazonaws.com");
    ck_assert_int_eq(aws_sso_endpoint(c, "sso", "cn-north-1", url, sizeof url, &err), SMFW_OK);
    ck_assert_str_eq(url, "https://portal.sso.cn-north-1.amazonaws.com.cn");
    smfw_aws_client_free(c);
    /* An override wins, as for every service; without a client region too. */
    unsetenv("AWS_REGION");
    setenv("AWS_ENDPOINT_URL_SSO_OIDC", "http://127.0.0.1:9/oidc/", 1);
    ck_assert_int_eq(smfw_aws_client_new(&o, &c, &err), SMFW_OK);
    ck_assert_int_eq(aws_sso_endpoint(c, "sso-oidc", "eu-central-1", url, sizeof url, &err),
                     SMFW_OK);
    ck_assert_str_eq(url, "http://127.0.0.1:9/oidc");
    ck_assert_int_eq(aws_sso_endpoint(c, "sso", "eu-central-1", url, sizeof url, &err), SMFW_OK);
    ck_assert_str_eq(url, "https://portal.sso.eu-central-1.amazonaws.com");
    smfw_aws_client_free(c);
}
END_TEST

int main(void) {
    Suite *s = suite_create("aws_sso");
    TCase *tc = tcase_create("sso");
    tcase_add_checked_fixture(tc, setup, teardown);
    tcase_add_test(tc, cache_path);
    tcase_add_test(tc, chain_order);
    tcase_add_test(tc, endpoints_of_the_sso_region);
    suite_add_tcase(s, tc);
    return smfw_test_run(s);
}
