/*
 * aws_endpoint_rules.h - an interpreter of the Smithy endpoint rules
 * language (botocore's endpoint-rule-set-1.json over partitions.json), so
 * a new region or partition is a data update, not code (internal).
 *
 * It follows botocore's own resolver (botocore/endpoint_provider.py) where
 * the specification leaves room: partitions are tried in file order, each
 * by its region list then its regionRegex; the first is the fallback.
 */
#ifndef SMFW_AWS_ENDPOINT_RULES_H
#define SMFW_AWS_ENDPOINT_RULES_H

#include <jansson.h>

#include <smfw/smfw.h>

/* Bounds: the rule sets are data and must never make smfw loop or recurse deeply. */
#define AWS_RULES_MAX_DEPTH  64     /* nested trees and function calls */
#define AWS_RULES_MAX_STEPS  200000 /* rules plus function calls per resolution */
#define AWS_RULES_MAX_STRING 8192   /* a template's or a function's output */

/* What an endpoint rule gave. */
typedef struct aws_rules_endpoint {
    char *url;          /* malloc'd */
    json_t *properties; /* resolved "properties" object (owned), or NULL */
} aws_rules_endpoint;

/*
 * Evaluate `ruleset` (the parsed endpoint-rule-set-1.json) over `partitions`
 * (the parsed partitions.json). `inputs` is an object whose keys are
 * parameter names ("Region", "Bucket") or built-in names ("AWS::Region",
 * "SDK::Endpoint"); a parameter takes its own name's value first, then its
 * builtIn's, then its default. Values are strings, booleans or (stringArray)
 * arrays of strings.
 *
 * An error rule that matches returns SMFW_ERR_CONFIG with the rule's message
 * as err's message, and *rule_error = 1; a malformed rule set, a rule set
 * over the bounds above, or no matching rule returns SMFW_ERR_CONFIG with
 * *rule_error = 0. On SMFW_OK free *out with aws_rules_endpoint_free().
 */
smfw_status aws_rules_evaluate(const json_t *ruleset, const json_t *partitions,
                               const json_t *inputs, aws_rules_endpoint *out, int *rule_error,
                               smfw_error *err);

void aws_rules_endpoint_free(aws_rules_endpoint *e);

/* The signing that an endpoint's properties.authSchemes ask for. */
typedef struct aws_rules_signing {
    char name[64];   /* signingName, "" when the scheme gives none */
    char region[64]; /* signingRegion, "" when the scheme gives none */
} aws_rules_signing;

/*
 * Pick the auth scheme as botocore does (the first one it knows) and refuse
 * the ones smfw does not sign (sigv4a, sigv4-s3express). No authSchemes:
 * SMFW_OK with both fields "".
 */
smfw_status aws_rules_signing_of(const aws_rules_endpoint *e, aws_rules_signing *out,
                                 smfw_error *err);

#endif
