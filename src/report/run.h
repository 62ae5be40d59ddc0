/*
 * run.h - one simulated run: machine x policy x workload x seed -> metrics.
 * The single place where the layers are wired together, used by `run`,
 * `reproduce`, the benchmarks and the tests.
 */
#ifndef SL_REPORT_RUN_H
#define SL_REPORT_RUN_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "hw/machine.h"
#include "sim/policy_ops.h"
#include "workload/workload.h"

struct sl_hist;

struct sl_run_spec {
	const struct sl_machine *machine;
	const struct sl_policy_ops *policy;
	const struct sl_params *knobs;
	const struct sl_workload_ops *workload;
	const struct sl_params *params;
	uint64_t seed;
	bool check;		/* verify invariants after every event */
	const struct sl_observer *observer;	/* optional: tracepoint callbacks */
	struct sl_hist *latency_out;	/* optional: [2], receives copies of the run's
					 * SL_LAT_WAKEUP and SL_LAT_RUNQ histograms of
					 * every task (group 0; the HTML report's CDFs) */
};

/* Run once; fill `out` with the standard metrics (elapsed_s, user_s, sys_s,
 * cpu_pct, ctx_switches, sleeps, migrations) and the workload's own.
 * `events` (may be NULL) receives the events processed, by kind. */
int sl_run_once(const struct sl_run_spec *spec, struct sl_metrics *out,
		struct sl_event_counts *events, struct sl_err *err);

#endif
