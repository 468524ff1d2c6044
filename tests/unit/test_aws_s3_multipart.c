/*
 * test_aws_s3_multipart.c - the XML and arithmetic of S3 multipart uploads:
 * the CompleteMultipartUpload body, InitiateMultipartUploadResult and
 * CompleteMultipartUploadResult parsing (a 200 carrying an <Error>), and the
 * part size for a file; and the S3 bucket URLs from the endpoint rules (the
 * expected URLs are botocore 1.43's for the same bucket, key and settings).
 */
#include <check.h>
#include <stdlib.h>
#include <string.h>

#include "aws/aws_internal.h"
#include "smfw_test.h"

#define MIB ((int64_t)1024 * 1024)

START_TEST(complete_body) {
    aws_s3_part parts[3] = {{1, "\"aa\"", "AAAAAA=="}, {2, "\"b&<>\"", ""}, {3, "\"cc\"", "x+/="}};
    smfw_buf b;
    smfw_buf_init(&b);
    aws_s3_complete_body(&b, parts, 3);
    /* botocore's serializer: & < > escaped, quotes as they are, parts in order. */
    ck_assert_str_eq(b.data,
                     "<CompleteMultipartUpload xmlns=\"http://s3.amazonaws.com/doc/2006-03-01/\">"
                     "<Part><ETag>\"aa\"</ETag><PartNumber>1</PartNumber>"
                     "<ChecksumCRC32>AAAAAA==</ChecksumCRC32></Part>"
                     "<Part><ETag>\"b&amp;&lt;&gt;\"</ETag><PartNumber>2</PartNumber></Part>"
                     "<Part><ETag>\"cc\"</ETag><PartNumber>3</PartNumber>"
                     "<ChecksumCRC32>x+/=</ChecksumCRC32></Part></CompleteMultipartUpload>");
    smfw_buf_free(&b);
}
END_TEST

START_TEST(upload_id) {
    char id[64];
    const char *ok = "<?xml version=\"1.0\"?>\n<InitiateMultipartUploadResult xmlns=\"x\">"
                     "<Bucket>b</Bucket><Key>k</Key><UploadId>abc.DEF-1</UploadId>"
                     "</InitiateMultipartUploadResult>";
    ck_assert_int_eq(aws_s3_parse_upload_id(ok, strlen(ok), id, sizeof(id)), 0);
    ck_assert_str_eq(id, "abc.DEF-1");
    const char *bad[] = {"",
                         "<Error><Code>X</Code></Error>",
                         "<InitiateMultipartUploadResult><UploadId></UploadId>"
                         "</InitiateMultipartUploadResult>",
                         "<InitiateMultipartUploadResult></InitiateMultipartUploadResult>",
                         "<InitiateMultipartUploadResult><UploadId>x",
                         "not xml"};
    for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
        ck_assert_int_eq(aws_s3_parse_upload_id(bad[i], strlen(bad[i]), id, sizeof(id)), -1);
    /* An id longer than the buffer is refused, never cut. */
    ck_assert_int_eq(aws_s3_parse_upload_id(ok, strlen(ok), id, 5), -1);
}
END_TEST

START_TEST(complete_result) {
    char etag[130];
    aws_error_info e;
    const char *ok = "<?xml version=\"1.0\"?>\n<CompleteMultipartUploadResult><Location>l"
                     "</Location><Bucket>b</Bucket><Key>k</Key><ETag>&quot;abc-3&quot;</ETag>"
                     "</CompleteMultipartUploadResult>";
    ck_assert_int_eq(aws_s3_parse_complete(ok, strlen(ok), etag, sizeof(etag), &e), 0);
    ck_assert_str_eq(etag, "\"abc-3\"");
    ck_assert_int_eq(aws_s3_is_200_error(ok, strlen(ok)), 0);
    /* The 200 that is an error (S3 failed after sending its status line). */
    const char *err = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n\n<Error><Code>InternalError"
                      "</Code><Message>We encountered an internal error.</Message><RequestId>"
                      "R1</RequestId></Error>";
    ck_assert_int_eq(aws_s3_is_200_error(err, strlen(err)), 1);
    ck_assert_int_eq(aws_s3_parse_complete(err, strlen(err), etag, sizeof(etag), &e), 1);
    ck_assert_str_eq(e.code, "InternalError");
    ck_assert_str_eq(e.request_id, "R1");
    /* Not XML: an error too (botocore); empty: not an error, but no ETag. */
    ck_assert_int_eq(aws_s3_is_200_error("<<garbage", 9), 1);
    ck_assert_int_eq(aws_s3_parse_complete("<<garbage", 9, etag, sizeof(etag), &e), 1);
    ck_assert_str_eq(e.code, "InternalError");
    ck_assert_int_eq(aws_s3_is_200_error("", 0), 0);
    ck_assert_int_eq(aws_s3_parse_complete("", 0, etag, sizeof(etag), &e), -1);
    const char *no_etag = "<CompleteMultipartUploadResult><Key>k</Key>"
                          "</CompleteMultipartUploadResult>";
    ck_assert_int_eq(aws_s3_parse_complete(no_etag, strlen(no_etag), etag, sizeof(etag), &e), -1);
}
END_TEST

START_TEST(part_size) {
    ck_assert_int_eq(aws_s3_part_size(100 * MIB, 0), 8 * MIB);   /* the AWS CLI's default */
    ck_assert_int_eq(aws_s3_part_size(100 * MIB, MIB), 5 * MIB); /* S3's minimum */
    ck_assert_int_eq(aws_s3_part_size(100 * MIB, 6 * MIB), 6 * MIB);
    ck_assert_int_eq(aws_s3_part_size(10000 * 5 * MIB, 5 * MIB), 5 * MIB); /* 10,000 fit */
    ck_assert_int_eq(aws_s3_part_size(10000 * 5 * MIB + 1, 5 * MIB), 10 * MIB);
    ck_assert_int_eq(aws_s3_part_size(100 * 1024 * MIB, 0), 16 * MIB); /* 100 GiB */
    int64_t max_part = (int64_t)5 * 1024 * MIB;
    ck_assert_int_eq(aws_s3_part_size(10000 * max_part, 0), max_part);
    ck_assert_int_eq(aws_s3_part_size(10000 * max_part + 1, 0), -1);
}
END_TEST

/* The URL smfw sends bucket/key to ("base" + wire path), botocore's form. */
static void s3_url(const char *region, const char *endpoint, const char *bucket, const char *key,
                   char *out, size_t size) {
    smfw_aws_options o;
    memset(&o, 0, sizeof(o));
    o.region = region;
    o.endpoint_url = endpoint;
    o.no_imds = 1;
    smfw_aws_client *c = NULL;
    smfw_error err;
    ck_assert_int_eq(smfw_aws_client_new(&o, &c, &err), SMFW_OK);
    char base[1024];
    smfw_buf path;
    smfw_buf_init(&path);
    ck_assert_int_eq(aws_s3_address(c, bucket, key, base, sizeof(base), &path, &err), SMFW_OK);
    snprintf(out, size, "%s%s", base, path.data);
    smfw_buf_free(&path);
    smfw_aws_client_free(c);
}

START_TEST(bucket_urls) {
    setenv("AWS_CONFIG_FILE", "/dev/null", 1);
    setenv("AWS_SHARED_CREDENTIALS_FILE", "/dev/null", 1);
    unsetenv("AWS_ENDPOINT_URL");
    unsetenv("AWS_ENDPOINT_URL_S3");
    char u[2048];
    static const struct {
        const char *region, *fips, *dualstack, *bucket, *want;
    } cases[] = {
        {"us-east-1", NULL, NULL, "mybucket", "https://mybucket.s3.amazonaws.com/k/x%20y"},
        {"us-east-1", NULL, NULL, "my.bucket", "https://s3.amazonaws.com/my.bucket/k/x%20y"},
        {"eu-west-1", NULL, NULL, "mybucket",
         "https://mybucket.s3.eu-west-1.amazonaws.com/k/x%20y"},
        {"eu-west-1", NULL, "true", "mybucket",
         "https://mybucket.s3.dualstack.eu-west-1.amazonaws.com/k/x%20y"},
        {"us-west-2", "true", NULL, "mybucket",
         "https://mybucket.s3-fips.us-west-2.amazonaws.com/k/x%20y"},
        {"us-west-2", "true", NULL, "my.bucket",
         "https://s3-fips.us-west-2.amazonaws.com/my.bucket/k/x%20y"},
        {"cn-north-1", NULL, NULL, "mybucket",
         "https://mybucket.s3.cn-north-1.amazonaws.com.cn/k/x%20y"},
    };
    for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
        if (cases[i].fips)
            setenv("AWS_USE_FIPS_ENDPOINT", cases[i].fips, 1);
        else
            unsetenv("AWS_USE_FIPS_ENDPOINT");
        if (cases[i].dualstack)
            setenv("AWS_USE_DUALSTACK_ENDPOINT", cases[i].dualstack, 1);
        else
            unsetenv("AWS_USE_DUALSTACK_ENDPOINT");
        s3_url(cases[i].region, NULL, cases[i].bucket, "k/x y", u, sizeof(u));
        ck_assert_str_eq(u, cases[i].want);
    }
    unsetenv("AWS_USE_FIPS_ENDPOINT");
    unsetenv("AWS_USE_DUALSTACK_ENDPOINT");
    /* An override: path style, under the override's own path. */
    s3_url("us-east-1", "http://127.0.0.1:9000", "mybucket", "k", u, sizeof(u));
    ck_assert_str_eq(u, "http://127.0.0.1:9000/mybucket/k");
    s3_url("us-east-1", "http://127.0.0.1:9000/s3/", "mybucket", NULL, u, sizeof(u));
    ck_assert_str_eq(u, "http://127.0.0.1:9000/s3/mybucket");
    s3_url("us-east-1", NULL, "mybucket", NULL, u, sizeof(u));
    ck_assert_str_eq(u, "https://mybucket.s3.amazonaws.com/");
}
END_TEST

int main(void) {
    Suite *s = suite_create("aws_s3_multipart");
    TCase *tc = tcase_create("multipart");
    tcase_add_test(tc, complete_body);
    tcase_add_test(tc, upload_id);
    tcase_add_test(tc, complete_result);
    tcase_add_test(tc, part_size);
    tcase_add_test(tc, bucket_urls);
    suite_add_tcase(s, tc);
    return smfw_test_run(s);
}
