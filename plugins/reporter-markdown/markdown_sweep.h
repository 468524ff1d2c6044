/* markdown_sweep.h - the markdown reporter's write_set slot: a sweep's report. */
#ifndef SMFW_MARKDOWN_SWEEP_H
#define SMFW_MARKDOWN_SWEEP_H

#include <smfw/run_set.h>

/** Write sweep.md for an analysed run set into dir. */
smfw_status markdown_sweep_write(void *ctx, const smfw_run_set *set, const char *dir,
                                 smfw_error *err);

#endif /* SMFW_MARKDOWN_SWEEP_H */
