/*
 * aws_call.c - one libsmfw AWS client operation from the command line, for
 * integration tests of operations no smfw command exposes on its own (the
 * credential chain behind GetCallerIdentity, S3 keys and pagination). The
 * client is configured only by the AWS_* environment, as smfw's is.
 *
 *   aws_call whoami                        provider, account, ARN (never a secret)
 *   aws_call creds                         the chain's credentials: provider, key id,
 *                                          SHA-256 of the secret and token, expiry, account
 *   aws_call creds-imds                    the same with EC2 instance metadata in the chain
 *   aws_call put BUCKET KEY FILE           PutObject from a file (multipart from 8 MiB)
 *   aws_call s3-put-file BUCKET KEY FILE [PART_SIZE [THRESHOLD]]
 *                                          smfw_aws_s3_upload_file: size and ETag;
 *                                          SIGINT/SIGTERM set its cancel flag
 *   aws_call get BUCKET KEY FILE           GetObject into a file
 *   aws_call head BUCKET KEY               size and ETag
 *   aws_call list BUCKET [PREFIX]          ListObjectsV2, all pages: KEY<TAB>SIZE per line
 *   aws_call role NAME                     IAM GetRole: the ARN
 *   aws_call roles                         IAM ListRoles, all pages: NAME<TAB>ARN per line
 *
 * Exit status: 0 on success, 1 with the error sentence on stderr otherwise.
 */
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <smfw/aws.h>
#include <smfw/sigv4.h>

static volatile sig_atomic_t g_cancel;

static void on_signal(int sig) {
    (void)sig;
    g_cancel = 1;
}

static int print_object(const smfw_aws_s3_object *o, void *user) {
    (void)user;
    printf("%s\t%lld\n", o->key, (long long)o->size);
    return 0;
}

static int print_role(const char *name, const char *arn, void *user) {
    (void)user;
    printf("%s\t%s\n", name, arn);
    return 0;
}

static smfw_status whoami(smfw_aws_client *c, smfw_error *err) {
    const smfw_aws_credentials *cr;
    smfw_status st = smfw_aws_client_credentials(c, &cr, err);
    if (st != SMFW_OK) return st;
    printf("provider %s\ntemporary %s\n", cr->provider ? cr->provider : "?",
           cr->session_token ? "yes" : "no");
    smfw_aws_credentials_release(cr);
    smfw_aws_identity id;
    st = smfw_aws_sts_get_caller_identity(c, &id, err);
    if (st == SMFW_OK) printf("account %s\narn %s\n", id.account, id.arn);
    return st;
}

/* What a test compares with another SDK's result, secrets as digests only. */
static smfw_status creds(smfw_aws_client *c, smfw_error *err) {
    const smfw_aws_credentials *cr;
    smfw_status st = smfw_aws_client_credentials(c, &cr, err);
    if (st != SMFW_OK) return st;
    char secret[65], token[65] = "none", expires[32] = "none";
    smfw_sha256_hex(cr->secret_access_key, strlen(cr->secret_access_key), secret);
    if (cr->session_token) smfw_sha256_hex(cr->session_token, strlen(cr->session_token), token);
    if (cr->expiration) {
        time_t t = (time_t)cr->expiration;
        struct tm tm;
        gmtime_r(&t, &tm);
        strftime(expires, sizeof expires, "%Y-%m-%dT%H:%M:%SZ", &tm);
    }
    printf("provider %s\naccess_key_id %s\nsecret_sha256 %s\ntoken_sha256 %s\nexpiration %s\n"
           "account %s\n",
           cr->provider ? cr->provider : "?", cr->access_key_id, secret, token, expires,
           cr->account_id ? cr->account_id : "none");
    smfw_aws_credentials_release(cr);
    return SMFW_OK;
}

static smfw_status dispatch(smfw_aws_client *c, int argc, char **argv, smfw_error *err) {
    const char *op = argv[1];
    if (strcmp(op, "whoami") == 0 && argc == 2) return whoami(c, err);
    if ((strcmp(op, "creds") == 0 || strcmp(op, "creds-imds") == 0) && argc == 2)
        return creds(c, err);
    if (strcmp(op, "put") == 0 && argc == 5)
        return smfw_aws_s3_put_object_file(c, argv[2], argv[3], argv[4], NULL, err);
    if (strcmp(op, "s3-put-file") == 0 && argc >= 5 && argc <= 7) {
        smfw_aws_s3_upload_options o;
        memset(&o, 0, sizeof o);
        if (argc >= 6) o.part_size = strtoll(argv[5], NULL, 10);
        if (argc >= 7) o.multipart_threshold = strtoll(argv[6], NULL, 10);
        struct sigaction sa;
        memset(&sa, 0, sizeof sa);
        sa.sa_handler = on_signal;
        sigaction(SIGINT, &sa, NULL);
        sigaction(SIGTERM, &sa, NULL);
        o.cancel = &g_cancel;
        smfw_aws_s3_object obj;
        smfw_status st = smfw_aws_s3_upload_file(c, argv[2], argv[3], argv[4], &o, &obj, err);
        if (st == SMFW_OK) printf("size %lld\netag %s\n", (long long)obj.size, obj.etag);
        return st;
    }
    if (strcmp(op, "get") == 0 && argc == 5)
        return smfw_aws_s3_get_object_file(c, argv[2], argv[3], argv[4], err);
    if (strcmp(op, "head") == 0 && argc == 4) {
        smfw_aws_s3_object o;
        smfw_status st = smfw_aws_s3_head_object(c, argv[2], argv[3], &o, err);
        if (st == SMFW_OK) printf("size %lld\netag %s\n", (long long)o.size, o.etag);
        return st;
    }
    if (strcmp(op, "list") == 0 && (argc == 3 || argc == 4))
        return smfw_aws_s3_list_objects(c, argv[2], argc == 4 ? argv[3] : NULL, print_object, NULL,
                                        err);
    if (strcmp(op, "role") == 0 && argc == 3) {
        char arn[2048];
        smfw_status st = smfw_aws_iam_get_role(c, argv[2], arn, sizeof arn, err);
        if (st == SMFW_OK) printf("%s\n", arn);
        return st;
    }
    if (strcmp(op, "region-imds") == 0 && argc == 2) {
        const char *region = NULL;
        smfw_status st = smfw_aws_client_region(c, &region, err);
        if (st == SMFW_OK) printf("%s\n", region);
        return st;
    }
    if (strcmp(op, "roles") == 0 && argc == 2)
        return smfw_aws_iam_list_roles(c, print_role, NULL, err);
    return smfw_error_set(err, SMFW_ERR_USAGE, "unknown operation or wrong arguments: %s", op);
}

int main(int argc, char **argv) {
    if (argc < 2) {
        fprintf(stderr,
                "usage: %s "
                "whoami|creds|creds-imds|region-imds|put|s3-put-file|get|head|list|role|roles "
                "ARGS...\n",
                argv[0]);
        return 2;
    }
    smfw_error err;
    smfw_error_clear(&err);
    smfw_aws_options opts;
    memset(&opts, 0, sizeof opts);
    /* Tests never reach instance metadata, but creds-imds asks a fake of it (the whole chain). */
    opts.no_imds = strcmp(argv[1], "creds-imds") != 0 && strcmp(argv[1], "region-imds") != 0;
    smfw_aws_client *c = NULL;
    smfw_status st = smfw_aws_client_new(&opts, &c, &err);
    if (st == SMFW_OK) st = dispatch(c, argc, argv, &err);
    smfw_aws_client_free(c);
    if (st != SMFW_OK) {
        fprintf(stderr, "aws_call %s: %s\n", argv[1], err.message);
        return 1;
    }
    return 0;
}
