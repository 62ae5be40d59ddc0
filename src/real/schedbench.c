/*
 * schedbench.c - real `schedbench`: Erich Focht's numa_test (LKML,
 * <200210062224.50087.efocht@ess.nec.de>; docs/workloads.md, schedbench)
 * as our own memory walker.  N processes each
 * allocate 20 MB (two arrays of doubles and one of int indices), touch it
 * first where they run (their home node), then make `passes` sweeps of
 * read-modify-write updates at pseudo-random indices: no system calls, no
 * blocking, bound by memory latency and bandwidth.  As in numa_test, a
 * `hackbench 20` starts 3 s in (hackbench=, hackbench_at=); dispatch never
 * waited for it, so its CPU is not in the walkers' totals.
 *
 * Each walker is a direct child, so its own rusage gives its user time
 * (AvgUser).  numa_test's Elapsed (bench_elapsed_s) ends when the last
 * walker has exited, but not before the hackbench started (its dispatch
 * reaped the jobs only after launching it); elapsed_s when everything has.
 */
#include "base/memsize.h"
#include "real/real.h"

#include <errno.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "real/hackbench.h"
#include "real/proc.h"

#define SB_MAX_TASKS 1024
#define SB_BYTES_PER_ELEM 20	/* a double + a double + an int index */

static const struct sl_param_def sb_params[] = {
	{ "tasks", SL_PARAM_INT, NULL, 1, SB_MAX_TASKS, NULL,
	  "memory-walking processes (numa_test's N); default one per CPU of the run" },
	{ "mb", SL_PARAM_INT, "20", 1, 4096, NULL,
	  "memory per process, MB of 10^6 bytes (numa_test: 2 x 8 MB + 4 MB)" },
	{ "passes", SL_PARAM_INT, "100", 1, 100000, NULL,
	  "sweeps of updates over the arrays (numa_test: 100, i.e. 10^8 updates)" },
	{ "hackbench", SL_PARAM_INT, "20", 0, 100, NULL,
	  "groups of the background hackbench, not counted (numa_test: 20); 0 = none" },
	{ "hackbench_at", SL_PARAM_REAL, "3", 0, 3600, NULL,
	  "when the background hackbench starts, s after the walkers" },
	{ NULL, 0, NULL, 0, 0, NULL, NULL },
};

struct walker {
	size_t n;		/* elements per array */
	int passes;
	uint64_t seed;
};

static volatile double sink;

static uint64_t next_random(uint64_t *x)
{
	*x ^= *x << 13;
	*x ^= *x >> 7;
	*x ^= *x << 17;
	return *x;
}

static int walker_main(void *arg)
{
	const struct walker *w = arg;
	double *a = malloc(w->n * sizeof(*a)), *b = malloc(w->n * sizeof(*b));
	int *ix = malloc(w->n * sizeof(*ix));
	uint64_t x = w->seed * 0x9e3779b97f4a7c15ull + 88172645463325252ull;
	double sum = 0;

	if (!a || !b || !ix)
		return 3;
	for (size_t i = 0; i < w->n; i++) {	/* first touch: the home node */
		a[i] = 0;
		b[i] = (double)(i & 1023);
		ix[i] = (int)(next_random(&x) % w->n);
	}
	for (int p = 0; p < w->passes; p++)
		for (size_t i = 0; i < w->n; i++)
			a[ix[i]] += b[i];
	for (size_t i = 0; i < w->n; i += 4096)
		sum += a[i];
	sink = sum;
	free(a);
	free(b);
	free(ix);
	return 0;
}

static void sb_resolve(struct sl_params *p, const struct sl_real_env *env)
{
	if (!sl_param_given(p, "tasks"))
		sl_real_param_set(p, "tasks", env->ncpus);
}

/* Metrics as numa_test's dispatch reported them (docs/workloads.md) and as
 * the simulated schedbench names them: the walkers' own totals, and GNU
 * time's view of everything schedlab started, hackbench included. */
static void sb_metrics(const struct sl_real_procs *ps, int tasks,
		       const struct sl_real_usage *walkers, double bench_s, double updates,
		       double hb_s, struct sl_metrics *out)
{
	struct sl_real_usage all = { 0 };
	double umax = 0;

	for (int i = 0; i < ps->n; i++) {
		sl_real_usage_add(&all, &ps->child[i].ru);
		all.elapsed_s = fmax(all.elapsed_s, ps->child[i].end_s);
		if (i < tasks)
			umax = fmax(umax, sl_real_tv_s(&ps->child[i].ru.ru_utime));
	}
	sl_real_usage_metrics(&all, out);
	sl_metrics_add(out, "avg_user_s", "s", walkers->user_s / tasks, -1);
	sl_metrics_add(out, "bench_elapsed_s", "s", bench_s, -1);
	sl_metrics_add(out, "total_user_s", "s", walkers->user_s, -1);
	sl_metrics_add(out, "total_sys_s", "s", walkers->sys_s, -1);
	sl_metrics_add(out, "max_user_s", "s", umax, -1);
	if (hb_s >= 0)
		sl_metrics_add(out, "hackbench_s", "s", hb_s, -1);
	sl_metrics_add(out, "updates_per_s", "1/s",
		       walkers->elapsed_s > 0 ? updates / walkers->elapsed_s : 0, +1);
}

static int sb_run(const struct sl_params *p, const struct sl_real_env *env,
		  struct sl_metrics *out, struct sl_err *err)
{
	int tasks = (int)sl_param_int(p, "tasks");
	struct walker w = {
		.n = (size_t)(sl_param_real(p, "mb") * 1e6 / SB_BYTES_PER_ELEM),
		.passes = (int)sl_param_int(p, "passes"),
	};
	struct sl_real_hb_root hb = {
		/* numa_test's hackbench: one message per read, as the
		 * simulated schedbench's */
		.hb = { .groups = (int)sl_param_int(p, "hackbench"), .fds = 20, .loops = 100,
			.size = 100, .readsize = 100 },
		.delay_s = sl_param_real(p, "hackbench_at"),
		.result_fd = -1,
	};
	struct sl_real_procs ps;
	struct sl_real_usage u;
	int fds[2] = { -1, -1 }, rc = -1;
	double hb_s = -1;

	if (hb.hb.groups && pipe(fds))
		return sl_fail_internal(err, "schedbench: pipe: %s", strerror(errno));
	hb.result_fd = fds[1];
	if (sl_real_procs_begin(&ps, tasks + 1, env->pinned ? &env->cpus : NULL, err))
		goto out_fds;
	for (int i = 0; i < tasks; i++) {
		w.seed = env->seed * SB_MAX_TASKS + (uint64_t)i;
		if (sl_real_procs_spawn(&ps, true, walker_main, &w, err) < 0)
			goto out;
	}
	if (hb.hb.groups) {
		if (sl_real_procs_spawn(&ps, false, sl_real_hb_root, &hb, err) < 0)
			goto out;
		close(fds[1]);
		fds[1] = -1;
	}
	if (sl_real_procs_wait(&ps, &u, err))
		goto out;
	if (hb.hb.groups && read(fds[0], &hb_s, sizeof(hb_s)) != (ssize_t)sizeof(hb_s)) {
		sl_fail_internal(err, "no time from the background hackbench");
		goto out;
	}
	/* dispatch reaped its jobs only after starting the hackbench */
	sb_metrics(&ps, tasks, &u, hb.hb.groups ? fmax(u.elapsed_s, hb.delay_s) : u.elapsed_s,
		   (double)tasks * (double)w.n * w.passes, hb_s, out);
	rc = 0;
out:
	sl_real_procs_end(&ps);
out_fds:
	for (int i = 0; i < 2; i++)
		if (fds[i] >= 0)
			close(fds[i]);
	if (rc && !sl_real_interrupted())
		sl_err_prefix(err, "schedbench: ");
	return rc;
}

/* Every walker touches its arrays (mb MB of 10^6 bytes), and the
 * background hackbench's processes run beside them. */
static uint64_t sb_mem(const struct sl_params *p, const struct sl_real_env *env, uint64_t *procs)
{
	uint64_t tasks = (uint64_t)sl_param_int(p, "tasks");
	uint64_t each = sl_sat_add(sl_sat_mul((uint64_t)sl_param_int(p, "mb"), 1000000),
				   SL_REAL_PROC_BYTES);
	uint64_t total = sl_sat_mul(tasks, each);

	(void)env;
	*procs = sl_sat_add(*procs, tasks);
	if (sl_param_int(p, "hackbench"))
		total = sl_sat_add(total, sl_real_hb_mem(sl_param_int(p, "hackbench"), 20, procs));
	return total;
}

const struct sl_real_workload sl_real_schedbench = {
	.name = "schedbench",
	.summary = "numa_test: N processes first-touch 20 MB each and update it at random indices",
	.metric = "elapsed_s",
	.params = sb_params,
	.resolve = sb_resolve,
	.run = sb_run,
	.mem = sb_mem,
};
