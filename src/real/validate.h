/*
 * validate.h - checking the simulation against reality: which simulated
 * workload stands for a real one (its *counterpart*), and the comparison
 * of their metrics, real beside simulated with the simulation's error.
 *
 * The counterpart is built from the simulator's own model of the
 * benchmark, with constants for this kind of host where the model needs
 * them (kernbench: a build recorded on the project's development host).  A caller may
 * instead give any simulated workload spec, e.g. one that replays a
 * recorded trace of the real run once trace import exists.
 */
#ifndef SL_REAL_VALIDATE_H
#define SL_REAL_VALIDATE_H

#include <stddef.h>

#include "real/real.h"
#include "report/stats.h"

/*
 * The simulated workload spec ("kernbench:jobs=2,size=...") for real
 * workload w with resolved parameters p.  The work a model needs as input
 * (kernbench's CPU seconds, schedbench's per-task seconds) is taken from
 * the real runs `real[0..nreal-1]` (their means) when nreal > 0, so that
 * what is compared is the schedule, not the size of the work; with
 * nreal = 0 it is the recorded host figures below (kernbench) or the
 * simulator's default.  Returns 0 with spec filled, or -1 with err saying
 * why there is none (no simulated workload of that name in this build, or
 * no calibrated model for these parameters).
 */
int sl_real_counterpart(const struct sl_real_workload *w, const struct sl_params *p,
			const struct sl_metrics *real, int nreal, char *spec, size_t size,
			struct sl_err *err);

/* The recorded host figures of the kernbench counterpart: tinyconfig of
 * 6.1 on a 2-vCPU EPYC VM, timed and with its process accounting recorded
 * on the project's development host (the figures: docs/validation.md). */
#define SL_VAL_KB_USER_S	203.7	/* `time make -j2 vmlinux`: user */
#define SL_VAL_KB_SYS_PER_USER	0.49	/* 99.8 s system / 203.7 s user */
#define SL_VAL_KB_UNITS		494	/* cc1 runs in the recorded build */
#define SL_VAL_KB_TAIL_PCT	0.7	/* vmlinux.a, vmlinux.o, modpost, link-vmlinux.sh */

/* The mean of metric `name` over runs[0..n-1]; NaN if none has it. */
double sl_val_mean(const struct sl_metrics *runs, int n, const char *name);

/* One metric, real beside simulated. */
struct sl_val_row {
	char name[48], unit[24];
	struct sl_summary real;
	struct sl_summary sim;	/* n = 0: the simulation has no such metric */
	double error_pct;	/* (sim - real) / real x 100 of the means; NaN if none */
};

/*
 * Rows for every metric of the real runs (in their order), then every
 * metric only the simulation has.  `sim` may be NULL (nsim = 0).  Returns
 * the number of rows (at most max).
 */
int sl_val_compare(const struct sl_metrics *real, int nreal, const struct sl_metrics *sim,
		   int nsim, struct sl_val_row *rows, int max);

/* The error of a simulated mean against a real one, in percent (NaN when
 * the real value is 0 or either is missing). */
double sl_val_error_pct(double real, double sim);

/*
 * Other load on the host: the largest other_cpu_pct of the real runs
 * (% of one CPU) when it is more than SL_VAL_OTHER_LOAD_PCT of the host's
 * `host_cpus` CPUs together - more than the 10 % the simulation is asked
 * to be within, so that a run using every CPU may have been slowed by more
 * than that and the comparison measures the load, not the model
 * (docs/validation.md); else 0 (also for runs without the metric).
 */
#define SL_VAL_OTHER_LOAD_PCT 10.0
double sl_val_other_load(const struct sl_metrics *real, int nreal, int host_cpus);

/*
 * Unlike work: the simulated runs' CPU time (user_s + sys_s, means) against
 * the real runs', in percent, when the two differ by more than
 * SL_VAL_WORK_PCT (the comparison's tolerance); else 0, also when either
 * side lacks them.  Where the model's work comes from its own costs
 * (hackbench, pingpong), a host whose speed changed since those were
 * measured shows here before it shows as an error of elapsed time
 * (docs/validation.md, hackbench: 0.59 then 0.45 s of the same real run,
 * 14 minutes apart).
 */
#define SL_VAL_WORK_PCT 10.0
double sl_val_unlike_work(const struct sl_metrics *real, int nreal, const struct sl_metrics *sim,
			  int nsim);

#endif
