/* placement.h - where the load generator runs (EC2 instance metadata), asked beside the run so
 * that a machine off EC2 (nothing answers) never delays a request: the run's record says so,
 * and a region other than the endpoint's is a warning (cross-region network in every
 * latency). */
#ifndef SMFW_DIRECT_PLACEMENT_H
#define SMFW_DIRECT_PLACEMENT_H

#include <jansson.h>
#include <pthread.h>

#include <smfw/aws.h>

/* How long each metadata request may take: on EC2 it answers in about a millisecond. */
#define DIRECT_PLACEMENT_TIMEOUT_MS 300

typedef struct direct_placement {
    smfw_aws_client *aws; /* borrowed */
    pthread_t thread;
    int started;
    smfw_status status;
    smfw_aws_placement where;
} direct_placement;

/* Start asking (a thread); nothing when aws is NULL or the thread cannot start. */
void direct_placement_start(direct_placement *p, smfw_aws_client *aws);

/* Wait for the answer; the client's placement as {"region", "availability_zone", "source"}
 * (a new reference), or NULL off EC2. Warns when its region is not endpoint_region. */
json_t *direct_placement_finish(direct_placement *p, const char *endpoint_region);

#endif
