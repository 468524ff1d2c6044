/* fuzz_aws_xml.c - libFuzzer target: the XML reader and the restXml/awsQuery error parser. */
#include <stddef.h>
#include <stdint.h>

#include "aws/aws_error.h"
#include "aws/aws_xml.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    aws_xml_node *root = NULL;
    if (aws_xml_parse((const char *)data, size, &root, NULL) == SMFW_OK) {
        (void)aws_xml_path(root, "GetCallerIdentityResult/Account");
        for (const aws_xml_node *c = aws_xml_child(root, "Contents"); c; c = aws_xml_next_named(c))
            (void)aws_xml_path(c, "Key");
        (void)aws_xml_find(root, "Credentials");
        aws_xml_free(root);
    }
    aws_error_info info = {0};
    aws_error_parse_xml((const char *)data, size, &info);
    (void)aws_error_status(403, info.code, info.message);
    return 0;
}
