/* fuzz_aws_json_error.c - libFuzzer target: the awsJson/restJson error parser. */
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "aws/aws_error.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    /* First line (if any) plays the x-amzn-ErrorType header, the rest is the body. */
    char header[128] = "";
    const uint8_t *nl = memchr(data, '\n', size < 120 ? size : 120);
    size_t off = 0;
    if (nl) {
        memcpy(header, data, (size_t)(nl - data));
        header[nl - data] = '\0';
        off = (size_t)(nl - data) + 1;
    }
    aws_error_info info = {0};
    aws_error_parse_json((const char *)data + off, size - off, header[0] ? header : NULL, NULL,
                         &info);
    (void)aws_error_status(400, info.code, info.message);
    (void)aws_error_is_clock_skew(info.code, info.message);
    return 0;
}
