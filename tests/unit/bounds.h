/*
 * bounds.h - analytic bounds on a whole run, for the tests that run whole
 * workloads ("runs clean"): whatever the policy decides, a run cannot be
 * shorter than its CPU time spread over every CPU, nor than its longest
 * chain of dependent work; and a run that is never wholly idle while a
 * task is runnable cannot be longer than its CPU time plus the time every
 * task sleeps at once.  These hold for any correct policy, so a test can
 * assert them without knowing the policy's numbers.
 */
#ifndef SL_TESTS_BOUNDS_H
#define SL_TESTS_BOUNDS_H

#include <stdbool.h>

#include "sim/sim.h"
#include "workload/workload.h"

struct bt_run {
	double elapsed;		/* s */
	double cpu;		/* user + system, s (wall time on a CPU) */
	int ncpus;		/* logical CPUs */
};

/* Elapsed, user + system time from a run's metrics; false if missing. */
bool bt_from_metrics(const struct sl_metrics *m, int ncpus, struct bt_run *out);

/* The same from a finished run's engine statistics. */
void bt_from_sim(struct sl_sim *sim, struct bt_run *out);

/*
 * CHECKs, labelled `what`:
 *   cpu <= ncpus x elapsed              (CPU time is wall time on a CPU)
 *   elapsed >= chain                    (the longest dependent chain, s)
 *   elapsed <= cpu + idle_max + slack   (idle_max: the most time all tasks
 *                                        can sleep at once, s)
 * The slack, 0.5 % of cpu + 2 ms, covers what is not charged to a task:
 * IPI and wakeup latencies, migration threads, idle ticks.
 */
void bt_check(const char *what, const struct bt_run *r, double chain, double idle_max);

#endif
