/*
 * usage.h - GNU time's view of a real run: elapsed wall time, user and
 * system CPU, CPU%, involuntary context switches and voluntary sleeps,
 * summed from the wait4() rusage of every process that was waited for (a
 * process's rusage already includes its own waited-for descendants, so the
 * sum over the direct children covers the whole tree).
 *
 * Pure arithmetic on struct rusage; nothing here runs processes.
 */
#ifndef SL_REAL_USAGE_H
#define SL_REAL_USAGE_H

#include <sys/resource.h>

#include "workload/workload.h"

struct sl_real_usage {
	double elapsed_s;	/* wall clock, set by the caller */
	double user_s, sys_s;	/* summed ru_utime, ru_stime */
	long nivcsw;		/* involuntary switches (GNU time %c) */
	long nvcsw;		/* voluntary switches (GNU time %w) */
	long maxrss_kb;		/* largest ru_maxrss of any process summed in */
	int nproc;		/* rusages summed */
};

/* Seconds in a timeval. */
double sl_real_tv_s(const struct timeval *tv);

/* Add one wait4() rusage to u. */
void sl_real_usage_add(struct sl_real_usage *u, const struct rusage *ru);

/* Add b's CPU, switches and processes to a (elapsed is left alone). */
void sl_real_usage_merge(struct sl_real_usage *a, const struct sl_real_usage *b);

/* (user + system) / elapsed x 100; 0 when elapsed is 0. */
double sl_real_usage_cpu_pct(const struct sl_real_usage *u);

/* The engine's standard metric names, so that real and simulated runs
 * print and compare alike: elapsed_s, user_s, sys_s, cpu_pct,
 * ctx_switches, sleeps; plus maxrss_mb. */
void sl_real_usage_metrics(const struct sl_real_usage *u, struct sl_metrics *out);

#endif
