/* aws_options.c - AWS client options from the [aws] section of an smfw configuration. */
#include <string.h>

#include <smfw/aws.h>
#include <smfw/config.h>

void smfw_aws_options_from_config(const smfw_config *config, smfw_aws_options *o) {
    const smfw_settings *aws = smfw_config_section(config, "aws");
    memset(o, 0, sizeof *o);
    o->region = smfw_settings_get(aws, "region");
    o->profile = smfw_settings_get(aws, "profile");
    o->endpoint_url = smfw_settings_get(aws, "endpoint_url");
    o->ca_bundle = smfw_settings_get(aws, "ca_bundle");
    o->config = config;
    /* No declared default: unset, AWS_MAX_ATTEMPTS, the profile's max_attempts and legacy
       mode's own default decide (aws_client_resolve_retry). */
    if (smfw_settings_has(aws, "max_attempts"))
        o->max_attempts = (int)smfw_settings_get_int(aws, "max_attempts", 0);
}
