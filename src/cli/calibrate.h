/*
 * calibrate.h - `validate --calibrate`: measure this host's kernel-path
 * speed (the machine option kcost=F) on a pinned pingpong before comparing,
 * and cross-check it on a socket's (calibrate.c).
 */
#ifndef SL_CLI_CALIBRATE_H
#define SL_CLI_CALIBRATE_H

#include <stdint.h>

#include "base/err.h"

struct cli_calibration {
	int cpu;		/* the CPU both round trips ran on */
	long loops;		/* round trips per run */
	double real_us;		/* the real median round trip */
	double sim_us;		/* the simulated one at kcost=1 */
	double kcost;		/* real_us / sim_us, to the 4 digits the model runs with */
	/* the cross-check: the same pinned round trip over an AF_UNIX socket
	 * pair, real and simulated at kcost=1, and the factor it alone gives */
	double sock_real_us, sock_sim_us, sock_kcost;
	char machine[320];	/* the machine given, with kcost=F */
};

/* Before any work: the machine must be "host" (NULL: host) with no kcost
 * option.  0, or -1 with err (bad input). */
int cli_calibrate_check(const char *machine, struct sl_err *err);

/* Measure: the real pinned pingpong, the simulated one on `machine`
 * (NULL: host) under `policy` at kcost=1, and their ratio.  0, or -1 with
 * err. */
int cli_calibrate(const char *machine, const char *policy, uint64_t seed,
		  struct cli_calibration *c, struct sl_err *err);

/* Whether the two round trips' factors are more than CLI_CAL_APART apart
 * (their ratio beyond 1.25 either way): the host's kernel paths did not
 * move together, and one kcost cannot follow both (docs/validation.md,
 * 7 Dec 2026).  Returns the percent the socket's factor is off the pipe's
 * (0 when close). */
#define CLI_CAL_APART 1.25
double cli_calibrate_apart(const struct cli_calibration *c);

#endif
