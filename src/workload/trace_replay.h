/*
 * trace_replay.h - the `trace` workload: a scheduling trace imported by
 * `schedlab trace import` (trace/import.h), replayed on any machine
 * under any policy.  `-w trace:file=WORKLOAD.json`.
 *
 * Each task of the trace is a task of the run: it runs its recorded CPU
 * bursts as work, sleeps for its recorded timed sleeps, forks, execs and
 * exits where it did, and - when another task woke it - waits until that
 * task reaches the same point of its own timeline (a channel it signals),
 * so causality survives another schedule.  docs/traces.md describes the
 * model and its limits.
 */
#ifndef SL_WORKLOAD_TRACE_REPLAY_H
#define SL_WORKLOAD_TRACE_REPLAY_H

#include "workload/workload.h"

extern const struct sl_workload_ops sl_workload_trace;

#endif
