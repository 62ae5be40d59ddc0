/*
 * checked_run.h - one whole run of a workload under a policy on a machine,
 * the engine's invariant check after every event: the end-to-end runs of
 * the policy tests (test_cfs, test_sl, test_domains, test_affinity,
 * test_orderings), which differ only in what they run and which seed.
 */
#ifndef SL_TESTS_CHECKED_RUN_H
#define SL_TESTS_CHECKED_RUN_H

#include <stdbool.h>
#include <stdint.h>

#include "workload/workload.h"

/* Run `workload` under `policy` (a spec: "cfs:nohz=off") on `machine` with
 * `seed`; true with its metrics in *out and, if `ncpus` is given, the
 * machine's logical CPUs.  A bad name or a failed run is printed, with
 * all three, and gives false. */
bool checked_run(const char *machine, const char *policy, const char *workload, uint64_t seed,
		 struct sl_metrics *out, int *ncpus);

#endif
