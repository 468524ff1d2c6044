/* json_sweep.h - the json reporter's write_set slot: a sweep's report. */
#ifndef SMFW_JSON_SWEEP_H
#define SMFW_JSON_SWEEP_H

#include <smfw/run_set.h>

/** Write sweep.json for an analysed run set into dir. */
smfw_status json_sweep_write(void *ctx, const smfw_run_set *set, const char *dir, smfw_error *err);

#endif /* SMFW_JSON_SWEEP_H */
