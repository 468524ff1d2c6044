/*
 * preflight.h - resolve what a run needs before it sends anything.
 */
#ifndef DIRECT_PREFLIGHT_H
#define DIRECT_PREFLIGHT_H

#include "options.h"

/**
 * For a SageMaker target (not smfw-mock): make the AWS client (kept in
 * o->aws for the transport), resolve its region and its credentials. Errors
 * are the client's sentences: no region (configuration, exit 1), no
 * credentials (the chain's sentence: which providers were asked, why each
 * said no; exit 2).
 */
smfw_status direct_preflight(direct_options *o, smfw_error *err);

#endif
