/*
 * preflight.c - what a SageMaker run needs before its first request: the AWS
 * client, its region and credentials, resolved once at create() so a run that
 * cannot sign stops with the credential chain's sentence instead of sending
 * every request to fail (see preflight.h).
 */
#include "preflight.h"

#include <string.h>

smfw_status direct_preflight(direct_options *o, smfw_error *err) {
    if (o->transport != DIRECT_TRANSPORT_SAGEMAKER || o->mock) return SMFW_OK;
    smfw_aws_options aopt;
    memset(&aopt, 0, sizeof aopt);
    aopt.region = o->region;
    aopt.profile = o->profile;
    aopt.endpoint_url = o->endpoint_url;
    aopt.ca_bundle = o->ca_bundle;
    smfw_status st = smfw_aws_client_new(&aopt, &o->aws, err);
    if (st != SMFW_OK) return st;
    const char *region = NULL;
    st = smfw_aws_client_region(o->aws, &region, err);
    if (st != SMFW_OK) return st;
    const smfw_aws_credentials *creds = NULL;
    st = smfw_aws_client_credentials(o->aws, &creds, err);
    if (st != SMFW_OK) return st;
    smfw_aws_credentials_release(creds);
    return SMFW_OK;
}
