/*
 * test_aws_parsers.c - the AWS config parser, the XML reader, the error body
 * parsers, error classification and log redaction.
 */
#include <check.h>
#include <string.h>

#include "aws/aws_text.h"
#include "aws/aws_error.h"
#include "aws/aws_http.h"
#include "aws/aws_ini.h"
#include "aws/aws_retry.h"
#include "aws/aws_xml.h"
#include "smfw_test.h"

START_TEST(ini_files) {
    const char *t = "# top\n[default]\nRegion = us-east-1 \nx: y\n\n[profile dev]\n"
                    "s3 =\n  addressing_style = path\n  max_concurrent_requests=5\n"
                    "region=eu-west-1\n; c\n[services s]\nsts =\n endpoint_url = http://h\n";
    aws_ini *ini = NULL;
    smfw_error err;
    ck_assert_int_eq(aws_ini_parse(t, strlen(t), "cfg", &ini, &err), SMFW_OK);
    ck_assert_str_eq(aws_ini_get(ini, "default", "region"), "us-east-1");
    ck_assert_str_eq(aws_ini_get(ini, "default", "x"), "y");
    ck_assert_str_eq(aws_ini_get(ini, "profile dev", "s3.addressing_style"), "path");
    ck_assert_str_eq(aws_ini_get(ini, "profile dev", "s3.max_concurrent_requests"), "5");
    ck_assert_str_eq(aws_ini_get(ini, "profile dev", "region"), "eu-west-1");
    ck_assert_str_eq(aws_ini_get(ini, "services s", "sts.endpoint_url"), "http://h");
    ck_assert_ptr_null(aws_ini_get(ini, "default", "missing"));
    aws_ini_free(ini);
    const char *bad[] = {"key = before section\n", "[broken\n", "[a]\nno separator here\n",
                         "[a]\n = empty key\n"};
    for (size_t i = 0; i < 4; i++) {
        ck_assert_int_eq(aws_ini_parse(bad[i], strlen(bad[i]), "f", &ini, &err), SMFW_ERR_CONFIG);
        ck_assert_msg(strstr(err.message, "f line"), "%s", err.message);
    }
    ck_assert_int_eq(aws_ini_parse("[a]\nk=v\0x\n", 9, "f", &ini, &err), SMFW_ERR_CONFIG);
}
END_TEST

START_TEST(xml_reader) {
    const char *x = "<?xml version=\"1.0\"?>\n<s3:R xmlns:s3=\"u\" a='>'><A>1 &lt;&amp;&gt; "
                    "&#x263A;&#65;</A><B/><A>2</A><C><![CDATA[<raw>]]></C><!-- no --></s3:R>";
    aws_xml_node *root = NULL;
    ck_assert_int_eq(aws_xml_parse(x, strlen(x), &root, NULL), SMFW_OK);
    ck_assert_str_eq(root->name, "R");
    const aws_xml_node *a = aws_xml_child(root, "A");
    ck_assert_str_eq(a->text, "1 <&> \xE2\x98\xBA"
                              "A");
    ck_assert_str_eq(aws_xml_next_named(a)->text, "2");
    ck_assert_str_eq(aws_xml_path(root, "C"), "<raw>");
    ck_assert_str_eq(aws_xml_path(root, "B"), "");
    aws_xml_free(root);
    const char *bad[] = {"<a><b></a>", "<a>",         "<a>&bogus;</a>", "text",
                         "<a/><b/>",   "<a>&#0;</a>", "</a>",           "<a><![CDATA[x</a>"};
    smfw_error err;
    for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
        ck_assert_msg(aws_xml_parse(bad[i], strlen(bad[i]), &root, &err) == SMFW_ERR_PROTOCOL, "%s",
                      bad[i]);
        ck_assert_msg(strstr(err.message, "malformed XML"), "%s", err.message);
    }
    /* Depth is bounded. */
    char deep[2000] = "";
    for (int i = 0; i < 100; i++) strcat(deep, "<a>");
    ck_assert_int_eq(aws_xml_parse(deep, strlen(deep), &root, NULL), SMFW_ERR_PROTOCOL);
}
END_TEST

START_TEST(error_bodies) {
    aws_error_info e;
    memset(&e, 0, sizeof(e));
    const char *j = "{\"__type\":\"com.amazon.coral.validate#ValidationException:http://x\","
                    "\"message\":\"bad\"}";
    aws_error_parse_json(j, strlen(j), NULL, NULL, &e);
    ck_assert_str_eq(e.code, "ValidationException");
    ck_assert_str_eq(e.message, "bad");
    memset(&e, 0, sizeof(e));
    aws_error_parse_json("{\"Message\":\"m\"}", 15, "ModelError:http://internal", NULL, &e);
    ck_assert_str_eq(e.code, "ModelError");
    ck_assert_str_eq(e.message, "m");
    memset(&e, 0, sizeof(e));
    aws_error_parse_json("{\"__type\":\"X\"}", 14, NULL, "ResourceNotFound;Sender", &e);
    ck_assert_str_eq(e.code, "ResourceNotFound");
    memset(&e, 0, sizeof(e));
    aws_error_parse_json("<html>", 6, NULL, NULL, &e);
    ck_assert_str_eq(e.code, "");
    const char *q = "<ErrorResponse><Error><Type>Sender</Type><Code>Throttling</Code>"
                    "<Message>Rate exceeded</Message></Error><RequestId>rq</RequestId>"
                    "</ErrorResponse>";
    memset(&e, 0, sizeof(e));
    aws_error_parse_xml(q, strlen(q), &e);
    ck_assert_str_eq(e.code, "Throttling");
    ck_assert_str_eq(e.request_id, "rq");
    ck_assert_int_eq(aws_error_status(400, e.code, e.message), SMFW_ERR_THROTTLED);
    ck_assert_int_eq(aws_error_status(400, "ThrottlingException", ""), SMFW_ERR_THROTTLED);
    ck_assert_int_eq(aws_error_status(403, "SignatureDoesNotMatch", ""), SMFW_ERR_AUTH);
    ck_assert_int_eq(aws_error_status(404, "NoSuchKey", ""), SMFW_ERR_NOT_FOUND);
    ck_assert_int_eq(aws_error_status(503, "ServiceUnavailable", ""), SMFW_ERR_SERVER);
    ck_assert_int_eq(aws_error_status(400, "ValidationException", "x must be y"), SMFW_ERR_AWS);
    ck_assert_int_eq(
        aws_retry_classify(AWS_RETRY_STANDARD, "sagemaker", AWS_FAIL_RESPONSE, 502, ""),
        AWS_RETRY_TRANSIENT);
    ck_assert_int_eq(aws_retry_classify(AWS_RETRY_STANDARD, "sagemaker", AWS_FAIL_RESPONSE, 400,
                                        "ValidationException"),
                     AWS_RETRY_NO);
    ck_assert(aws_error_is_clock_skew("RequestTimeTooSkewed", ""));
    ck_assert(aws_error_is_clock_skew("InvalidSignatureException",
                                      "Signature expired: 20260101T000000Z is now earlier"));
    ck_assert(!aws_error_is_clock_skew("InvalidSignatureException", "The request signature..."));
}
END_TEST

START_TEST(redaction) {
    const char *t = "POST https://x/\nAuthorization: AWS4-HMAC-SHA256 Credential=A/..., "
                    "Signature=abc\nX-Amz-Security-Token: tok\n"
                    "<Credentials><SecretAccessKey>sk</SecretAccessKey><SessionToken>st"
                    "</SessionToken></Credentials>{\"Token\" : \"t\\\"x\", \"Other\":\"keep\"}"
                    "&WebIdentityToken=jwt&Next=1";
    smfw_buf b;
    smfw_buf_init(&b);
    aws_http_redact(&b, t, strlen(t));
    ck_assert_msg(!strstr(b.data, "Signature=abc") && !strstr(b.data, "tok\n") &&
                      !strstr(b.data, ">sk<") && !strstr(b.data, ">st<") &&
                      !strstr(b.data, "t\\\"x") && !strstr(b.data, "jwt"),
                  "%s", b.data);
    ck_assert_msg(strstr(b.data, "Authorization: ****") && strstr(b.data, "\"Other\":\"keep\"") &&
                      strstr(b.data, "&Next=1"),
                  "%s", b.data);
    smfw_buf_free(&b);
}
END_TEST

int main(void) {
    Suite *s = suite_create("aws_parsers");
    TCase *tc = tcase_create("parsers");
    tcase_add_test(tc, ini_files);
    tcase_add_test(tc, xml_reader);
    tcase_add_test(tc, error_bodies);
    tcase_add_test(tc, redaction);
    suite_add_tcase(s, tc);
    return smfw_test_run(s);
}
