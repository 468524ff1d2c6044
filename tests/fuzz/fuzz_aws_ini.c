/* fuzz_aws_ini.c - libFuzzer target: the AWS config/credentials file parser. */
#include <stddef.h>
#include <stdint.h>

#include "aws/aws_ini.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    aws_ini *ini = NULL;
    smfw_error err;
    if (aws_ini_parse((const char *)data, size, "fuzz", &ini, &err) == SMFW_OK) {
        (void)aws_ini_get(ini, "default", "region");
        (void)aws_ini_get(ini, "profile dev", "s3.addressing_style");
        (void)aws_ini_has_section(ini, "default");
        aws_ini_free(ini);
    }
    return 0;
}
