/*
 * trace/chrome.h - the Chrome trace-event JSON form of a simulated run
 * (`run --trace-format chrome`), which Perfetto's UI (ui.perfetto.dev, its
 * legacy JSON importer) and chrome://tracing open.
 *
 * Format: the "JSON Object Format" of Google's Trace Event Format document:
 * {"traceEvents": [...], "displayTimeUnit": "ns", "otherData": {...}}.
 * One process (pid 1, named after the machine) with one thread track per
 * logical CPU (tid = CPU number, named "CPU n (core c, package p, node n)",
 * sorted by CPU); each task's run on a CPU is a complete event ("ph":"X",
 * name = its comm, args.pid / args.task); wakeups, forks, execs, exits and
 * migrations are thread-scoped instant events ("ph":"i", "s":"t") on the
 * CPU whose code caused them, args.ctx naming the task in whose context
 * they happened and args.detail the tracepoint's fields.  Timestamps are
 * microseconds with nanosecond decimals.  The trace writer
 * (trace/perf.c) decides what happens when; this file only formats.
 */
#ifndef SL_TRACE_CHROME_H
#define SL_TRACE_CHROME_H

#include <stdio.h>

#include "base/units.h"
#include "hw/machine.h"

void sl_chrome_header(FILE *out, const struct sl_machine *m, const char *title);
/* `comm` (pid) ran on `cpu` from `start` to `end`. */
void sl_chrome_slice(FILE *out, int cpu, const char *comm, int pid, sl_time start, sl_time end);
/* Tracepoint `name` on `cpu` at `ts` in the context of ctx_comm (ctx_pid). */
void sl_chrome_instant(FILE *out, int cpu, sl_time ts, const char *name, const char *ctx_comm,
		       int ctx_pid, const char *detail);
void sl_chrome_footer(FILE *out, sl_time end);

#endif
