/*
 * preflight.h - resolve what a run needs before it sends anything.
 */
#ifndef DIRECT_PREFLIGHT_H
#define DIRECT_PREFLIGHT_H

#include "options.h"

/**
 * The run's connections (closed loop: --concurrency; open loop:
 * --max-concurrency; fewer when the request counts bound the run) plus a
 * margin for the process's own descriptors must fit RLIMIT_NOFILE. The soft
 * limit is raised toward the hard one where they differ (an uncapped open
 * loop always takes the hard limit); if that is still too small, a
 * configuration error (exit 1) names both limits, the numbers and how to
 * raise them, before anything is sent.
 */
smfw_status direct_preflight_fds(const direct_options *o, smfw_error *err);

/**
 * direct_preflight_fds(), then, for a SageMaker target (not smfw-mock): make the AWS client (kept
 * in o->aws for the transport), resolve its region and its credentials. Errors are the client's
 * sentences: no region (configuration, exit 1), no credentials (the chain's sentence: which
 * providers were asked, why each said no; exit 2).
 */
smfw_status direct_preflight(direct_options *o, smfw_error *err);

#endif
