/*
 * sts.c - STS GetCallerIdentity (awsQuery, aws-wire.md §7.2): the identity
 * of the mock's one accepted access key.
 */
#include "mock.h"

void mock_sts_handle(mock_server *srv, mock_request *req) {
    char rid[37];
    mock_new_request_id(rid);
    smfw_buf x = {0};
    smfw_buf_puts(&x,
                  "<GetCallerIdentityResponse xmlns=\"https://sts.amazonaws.com/doc/2011-06-15/\">"
                  "<GetCallerIdentityResult><Arn>arn:aws:iam::");
    mock_xml_append(&x, srv->opt.account_id);
    smfw_buf_puts(&x, ":user/smfw-mock</Arn><UserId>");
    /* A user id looks like the access key's unique id: AIDA + 17 characters. */
    smfw_buf_puts(&x, "AIDASMFWMOCKUSER00001");
    smfw_buf_puts(&x, "</UserId><Account>");
    mock_xml_append(&x, srv->opt.account_id);
    smfw_buf_printf(&x,
                    "</Account></GetCallerIdentityResult><ResponseMetadata><RequestId>%s"
                    "</RequestId></ResponseMetadata></GetCallerIdentityResponse>",
                    rid);
    char rid_h[64];
    snprintf(rid_h, sizeof rid_h, "x-amzn-RequestId: %s", rid);
    const char *h[] = {"Content-Type: text/xml", rid_h, NULL};
    mock_respond(req, 200, h, x.data, x.len);
    smfw_buf_free(&x);
    mock_request_finish(req);
}
