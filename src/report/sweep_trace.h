/*
 * sweep_trace.h - a sweep's one run with a trace writer attached
 * (`run --trace`): the glue between report/sweep.h and trace/perf.h.
 */
#ifndef SL_REPORT_SWEEP_TRACE_H
#define SL_REPORT_SWEEP_TRACE_H

#include <stdio.h>

#include "base/err.h"
#include "report/sweep.h"
#include "trace/perf.h"

/*
 * Run the one run of `s` (one cell, one repetition) with a writer on
 * `out` attached, and store its metrics where sl_sweep_run() would.  A
 * trace is of one run: a sweep of several cells or repetitions is an
 * input error.
 */
int sl_trace_sweep_run(struct sl_sweep *s, FILE *out, enum sl_trace_format format,
		       struct sl_err *err);

#endif
