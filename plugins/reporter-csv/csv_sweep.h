/* csv_sweep.h - the csv reporter's write_set slot: a sweep's report. */
#ifndef SMFW_CSV_SWEEP_H
#define SMFW_CSV_SWEEP_H

#include <smfw/run_set.h>

/** Write sweep.csv for an analysed run set into dir. */
smfw_status csv_sweep_write(void *ctx, const smfw_run_set *set, const char *dir, smfw_error *err);

#endif /* SMFW_CSV_SWEEP_H */
