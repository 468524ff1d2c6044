/*
 * test_aws_s3_multipart.c - the XML and arithmetic of S3 multipart uploads:
 * the CompleteMultipartUpload body, InitiateMultipartUploadResult and
 * CompleteMultipartUploadResult parsing (a 200 carrying an <Error>), and the
 * part size for a file.
 */
#include <check.h>
#include <string.h>

#include "aws/aws_internal.h"

#define MIB ((int64_t)1024 * 1024)

START_TEST(complete_body) {
    aws_s3_part parts[3] = {{1, "\"aa\"", "AAAAAA=="}, {2, "\"b&<>\"", ""}, {3, "\"cc\"", "x+/="}};
    aws_buf b;
    aws_buf_init(&b);
    aws_s3_complete_body(&b, parts, 3);
    /* botocore's serializer: & < > escaped, quotes as they are, parts in order. */
    ck_assert_str_eq(b.data,
                     "<CompleteMultipartUpload xmlns=\"http://s3.amazonaws.com/doc/2006-03-01/\">"
                     "<Part><ETag>\"aa\"</ETag><PartNumber>1</PartNumber>"
                     "<ChecksumCRC32>AAAAAA==</ChecksumCRC32></Part>"
                     "<Part><ETag>\"b&amp;&lt;&gt;\"</ETag><PartNumber>2</PartNumber></Part>"
                     "<Part><ETag>\"cc\"</ETag><PartNumber>3</PartNumber>"
                     "<ChecksumCRC32>x+/=</ChecksumCRC32></Part></CompleteMultipartUpload>");
    aws_buf_free(&b);
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

int main(void) {
    Suite *s = suite_create("aws_s3_multipart");
    TCase *tc = tcase_create("multipart");
    tcase_add_test(tc, complete_body);
    tcase_add_test(tc, upload_id);
    tcase_add_test(tc, complete_result);
    tcase_add_test(tc, part_size);
    suite_add_tcase(s, tc);
    SRunner *sr = srunner_create(s);
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? 1 : 0;
}
