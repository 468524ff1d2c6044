/*
 * fuzz_endpoint_rules.c - libFuzzer target: the endpoint rules interpreter.
 * The first line is the parameters (a JSON object), the rest the rule set;
 * the partitions are a fixed copy of three of botocore's. Any rule set must
 * end (bounded depth and steps) without a crash, a leak or undefined behaviour.
 */
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "aws/aws_endpoint_rules.h"

static const char PARTITIONS[] =
    "{\"partitions\":[{\"id\":\"aws\",\"outputs\":{\"dnsSuffix\":\"amazonaws.com\","
    "\"dualStackDnsSuffix\":\"api.aws\",\"implicitGlobalRegion\":\"us-east-1\",\"name\":\"aws\","
    "\"supportsDualStack\":true,\"supportsFIPS\":true},"
    "\"regionRegex\":\"^(us|eu|ap|sa|ca|me|af|il|mx)\\\\-\\\\w+\\\\-\\\\d+$\","
    "\"regions\":{\"aws-global\":{\"description\":\"global\"},\"us-east-1\":{}}},"
    "{\"id\":\"aws-cn\",\"outputs\":{\"dnsSuffix\":\"amazonaws.com.cn\",\"dualStackDnsSuffix\":"
    "\"api.amazonwebservices.com.cn\",\"implicitGlobalRegion\":\"cn-northwest-1\",\"name\":"
    "\"aws-cn\",\"supportsDualStack\":true,\"supportsFIPS\":true},\"regionRegex\":"
    "\"^cn\\\\-\\\\w+\\\\-\\\\d+$\",\"regions\":{\"aws-cn-global\":{\"supportsFIPS\":false}}},"
    "{\"id\":\"aws-us-gov\",\"outputs\":{\"dnsSuffix\":\"amazonaws.com\",\"dualStackDnsSuffix\":"
    "\"api.aws\",\"implicitGlobalRegion\":\"us-gov-west-1\",\"name\":\"aws-us-gov\","
    "\"supportsDualStack\":true,\"supportsFIPS\":true},\"regionRegex\":"
    "\"^us\\\\-gov\\\\-\\\\w+\\\\-\\\\d+$\",\"regions\":{}}],\"version\":\"1.1\"}";

static json_t *partitions;

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    if (!partitions) partitions = json_loads(PARTITIONS, 0, NULL);
    const uint8_t *nl = memchr(data, '\n', size);
    size_t first = nl ? (size_t)(nl - data) : size;
    json_t *params = json_loadb((const char *)data, first, 0, NULL);
    json_t *rules = nl ? json_loadb((const char *)nl + 1, size - first - 1, 0, NULL) : NULL;
    if (params && rules) {
        aws_rules_endpoint ep;
        int rule_error = 0;
        smfw_error err;
        if (aws_rules_evaluate(rules, partitions, params, &ep, &rule_error, &err) == SMFW_OK) {
            aws_rules_signing sig;
            (void)aws_rules_signing_of(&ep, &sig, &err);
            aws_rules_endpoint_free(&ep);
        }
    }
    json_decref(params);
    json_decref(rules);
    return 0;
}
