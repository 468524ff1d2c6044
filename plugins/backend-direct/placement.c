/* placement.c - the load generator's EC2 region and zone, asked on a thread of its own while
 * the run goes on (see placement.h). */
#include <string.h>

#include <smfw/log.h>

#include "placement.h"

static void *ask(void *arg) {
    direct_placement *p = arg;
    smfw_error err;
    p->status = smfw_aws_placement_get(p->aws, DIRECT_PLACEMENT_TIMEOUT_MS, &p->where, &err);
    if (p->status != SMFW_OK) SMFW_LOG_DEBUG("direct", "client placement: %s", err.message);
    return NULL;
}

void direct_placement_start(direct_placement *p, smfw_aws_client *aws) {
    memset(p, 0, sizeof *p);
    p->status = SMFW_ERR_NOT_FOUND;
    if (!aws) return;
    p->aws = aws;
    p->started = pthread_create(&p->thread, NULL, ask, p) == 0;
}

json_t *direct_placement_finish(direct_placement *p, const char *endpoint_region) {
    if (!p->started) return NULL;
    pthread_join(p->thread, NULL);
    p->started = 0;
    if (p->status != SMFW_OK) return NULL;
    if (endpoint_region && strcmp(endpoint_region, p->where.region) != 0)
        SMFW_LOG_WARN("direct",
                      "the load generator ran in %s (%s, EC2 instance metadata) and the endpoint "
                      "is in %s: every latency includes the network between the regions; run "
                      "the load generator on EC2 in %s",
                      p->where.region, p->where.availability_zone, endpoint_region,
                      endpoint_region);
    return json_pack("{s:s,s:s,s:s}", "region", p->where.region, "availability_zone",
                     p->where.availability_zone, "source", "EC2 instance metadata");
}
