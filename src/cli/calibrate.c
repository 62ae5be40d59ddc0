/*
 * calibrate.c - `validate --calibrate`: this host's kernel-path speed,
 * measured before the comparison instead of assumed.
 *
 * The model scales kernel paths (context switch, fork, exec, exit,
 * migration, the scheduler's scan and pick, and hackbench's and pingpong's
 * message parts, which are multiples of the context switch) by the clock.
 * A VM's kernel paths do not follow its clock: the same VM type at the same
 * 2596 MHz ran the pinned pipe round trip in 6.87 us one day and 4.38 us
 * another, and real hackbench 1.57x faster with it (docs/validation.md,
 * "kcost").  The machine option kcost=F scales every such cost; this file
 * measures F on one figure, as the ledger's kcost entry says to:
 *
 *   1. run the real pingpong (pipes) pinned to the first CPU we may use,
 *      three times, and take the median round trip;
 *   2. simulate the same run (pingpong:cpus=that CPU) on the simulated
 *      machine at kcost=1 under the validate policy;
 *   3. F = real / simulated (a pinned round trip is kernel paths only: two
 *      writes, two reads, two wakeups and two switches, each scaled by F).
 *
 * Every other figure the comparison then prints is a prediction from that
 * one number.  Only a model of this host can be calibrated so: the machine
 * must be `host` (with any options but kcost).
 *
 * A second figure checks the first: the same pinned round trip over an
 * AF_UNIX socket pair, whose path (skb allocation, copy, free) is
 * hackbench's.  On 7 Dec 2026 the pipe's round trip had halved since 2 Dec
 * while a hackbench message got dearer, and the socket's factor was a third
 * above the pipe's: when the two disagree by more than CLI_CAL_APART,
 * validate says that one factor cannot follow this host's kernel paths
 * (the pipe's stays the one used).
 */
#include "cli/calibrate.h"

#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cmd_real.h"
#include "real/cpus.h"
#include "real/validate.h"
#include "report/stats.h"
#include "report/sweep.h"

#define CAL_LOOPS 50000		/* round trips per real run: ~0.2-0.4 s here */
#define CAL_REPS 3

int cli_calibrate_check(const char *machine, struct sl_err *err)
{
	const char *m = machine ? machine : "host";
	size_t base = strcspn(m, ",");

	if (base != 4 || strncmp(m, "host", 4))
		return sl_fail(err, "validate: --calibrate measures this host's kernel paths: the "
			       "simulated machine must be 'host' (with its options), not '%s'", m);
	for (const char *o = m + base; *o; o += strcspn(o + 1, ",") + 1)
		if (!strncmp(o + 1, "kcost=", 6))
			return sl_fail(err, "validate: --calibrate measures kcost: give '%s' or "
				       "--calibrate, not both", m);
	return 0;
}

/* The first CPU this process may run on. */
static int first_cpu(int *cpu, struct sl_err *err)
{
	cpu_set_t allowed;

	if (sl_real_cpus_allowed(&allowed, err))
		return -1;
	for (int c = 0; c < CPU_SETSIZE; c++)
		if (CPU_ISSET(c, &allowed)) {
			*cpu = c;
			return 0;
		}
	return sl_fail(err, "validate: --calibrate: no CPU to run on");
}

static int real_round_trip(const char *spec, uint64_t seed, double *us, struct sl_err *err)
{
	const struct sl_real_workload *w;
	struct sl_params params;
	struct sl_real_env env;
	struct sl_metrics runs[CAL_REPS];
	double v[CAL_REPS];

	if (cli_real_setup("validate --calibrate", spec, NULL, &w, &params, &env, err) ||
	    sl_real_run_reps(w, &params, &env, CAL_REPS, seed, runs, err))
		return -1;
	for (int i = 0; i < CAL_REPS; i++)
		v[i] = sl_val_mean(&runs[i], 1, "round_trip_us");
	*us = sl_stats_median(v, CAL_REPS);
	return 0;
}

static int sim_round_trip(const char *machine, const char *policy, const char *spec,
			  uint64_t seed, double *us, struct sl_err *err)
{
	struct sl_sweep *s = sl_sweep_new(machine, 1, seed, err);
	int rc = -1;

	if (s && sl_sweep_add(s, policy, spec, err) >= 0 && sl_sweep_run(s, 1, err) == 0) {
		*us = sl_val_mean(s->metrics, 1, "round_trip_us");
		rc = 0;
	}
	sl_sweep_free(s);
	return rc;
}

int cli_calibrate(const char *machine, const char *policy, uint64_t seed,
		  struct cli_calibration *c, struct sl_err *err)
{
	const char *m = machine ? machine : "host";
	char spec[128];

	memset(c, 0, sizeof(*c));
	c->loops = CAL_LOOPS;
	if (first_cpu(&c->cpu, err))
		return -1;
	snprintf(spec, sizeof(spec), "pingpong:loops=%ld,cpus=%d", c->loops, c->cpu);
	if (real_round_trip(spec, seed, &c->real_us, err) ||
	    sim_round_trip(m, policy, spec, seed, &c->sim_us, err))
		return -1;
	snprintf(spec, sizeof(spec), "pingpong:loops=%ld,cpus=%d,mode=socket", c->loops, c->cpu);
	if (real_round_trip(spec, seed, &c->sock_real_us, err) ||
	    sim_round_trip(m, policy, spec, seed, &c->sock_sim_us, err))
		return -1;
	if (!(c->real_us > 0) || !(c->sim_us > 0) || !(c->sock_real_us > 0) ||
	    !(c->sock_sim_us > 0))
		return sl_fail(err, "validate: --calibrate: no round trip measured (real %g and %g "
			       "us, simulated %g and %g us)", c->real_us, c->sock_real_us,
			       c->sim_us, c->sock_sim_us);
	c->sock_kcost = c->sock_real_us / c->sock_sim_us;
	c->kcost = c->real_us / c->sim_us;
	if (c->kcost > 100)	/* the machine option's bound */
		return sl_fail(err, "validate: --calibrate: the pinned round trip took %.2f us, "
			       "%.0fx the model's %.2f us: this host is too busy to measure",
			       c->real_us, c->kcost, c->sim_us);
	/* the factor the model runs with is the one written into the machine
	 * name: report that one, not the unrounded ratio */
	char f[32];
	snprintf(f, sizeof(f), "%.4g", c->kcost);
	c->kcost = strtod(f, NULL);
	snprintf(c->machine, sizeof(c->machine), "%s,kcost=%s", m, f);
	return 0;
}

double cli_calibrate_apart(const struct cli_calibration *c)
{
	double r = c->sock_kcost / c->kcost;

	if (!(c->kcost > 0) || !(c->sock_kcost > 0) ||
	    (r <= CLI_CAL_APART && r >= 1 / CLI_CAL_APART))
		return 0;
	return 100 * (r - 1);
}
