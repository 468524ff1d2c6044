/* html_sweep.h - the html reporter's write_set slot: a sweep's report. */
#ifndef SMFW_HTML_SWEEP_H
#define SMFW_HTML_SWEEP_H

#include <smfw/run_set.h>

/** Write sweep.html for an analysed run set into dir. */
smfw_status html_sweep_write(void *ctx, const smfw_run_set *set, const char *dir, smfw_error *err);

#endif /* SMFW_HTML_SWEEP_H */
