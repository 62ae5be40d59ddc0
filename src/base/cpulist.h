/*
 * cpulist.h - CPU lists as users write them for taskset -c: "0-3", "5",
 * joined here by '+' ("0-1+4": CPUs 0, 1 and 4), because ',' separates a
 * specification's parameters (spin:tasks=2,cpus=0-1+4).
 */
#ifndef SL_BASE_CPULIST_H
#define SL_BASE_CPULIST_H

#include "base/cpumask.h"
#include "base/err.h"

/* Parse `text` into `out`.  Every CPU must be below `ncpus` (the machine's
 * logical CPUs); ranges run low to high; an empty list is an error.  -1
 * with err naming `what` (e.g. "workload 'spin': cpus") otherwise. */
int sl_cpulist_parse(const char *text, int ncpus, const char *what, sl_cpumask *out,
		     struct sl_err *err);

#endif
