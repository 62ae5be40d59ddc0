/*
 * spin.c - real `spin`: N CPU hogs for a fixed wall time (the simulator's
 * spin workload, seed 000's folding@home clients).  Each hog is a direct
 * child, so its own rusage gives its share of the CPU.
 */
#include "base/memsize.h"
#include "real/real.h"

#include <math.h>
#include <stdlib.h>
#include <sys/resource.h>
#include <time.h>

#include "real/proc.h"

#define SPIN_MAX_TASKS 4096
#define SPIN_MEM_BYTES (64u << 20)	/* class=mem walks this much */

static const struct sl_param_def spin_params[] = {
	{ "tasks", SL_PARAM_INT, NULL, 1, SPIN_MAX_TASKS, NULL,
	  "CPU-bound processes; default one per CPU of the run" },
	{ "seconds", SL_PARAM_REAL, "10", 0.01, 86400, NULL, "wall time each process spins, s" },
	{ "nice", SL_PARAM_INT, "0", -20, 19, NULL, "nice of the processes" },
	{ "class", SL_PARAM_CHOICE, "fp", 0, 0, "fp|int|mem",
	  "what the loop does: floating point, integer, or random reads of 64 MB" },
	SL_WORKLOAD_CPUS_PARAM,	/* taskset -c: the same as --cpus */
	{ NULL, 0, NULL, 0, 0, NULL, NULL },
};

enum { CLASS_FP, CLASS_INT, CLASS_MEM };

struct spinner {
	double deadline;	/* monotonic seconds */
	int nice, cls;
	unsigned seed;
};

static volatile double sink_fp;
static volatile unsigned long sink_int;

static bool before(double deadline)
{
	return sl_real_now() < deadline;
}

static void spin_fp(double deadline)
{
	double x = 1.0, y = 0.0;

	while (before(deadline)) {
		for (int i = 0; i < 4096; i++) {
			x = x * 1.0000001 + 1e-9;
			y += sqrt(x);
		}
		sink_fp = y;
	}
}

static void spin_int(double deadline, unsigned long x)
{
	while (before(deadline)) {
		for (int i = 0; i < 4096; i++) {
			x ^= x << 13;
			x ^= x >> 7;
			x ^= x << 17;
		}
		sink_int = x;
	}
}

static int spin_mem(double deadline, unsigned long x)
{
	size_t n = SPIN_MEM_BYTES / sizeof(unsigned long);
	unsigned long *buf = malloc(SPIN_MEM_BYTES), sum = 0;

	if (!buf)
		return 3;
	for (size_t i = 0; i < n; i++)
		buf[i] = i;
	while (before(deadline)) {
		for (int i = 0; i < 4096; i++) {
			x ^= x << 13;
			x ^= x >> 7;
			x ^= x << 17;
			sum += buf[x % n];
		}
		sink_int = sum;
	}
	free(buf);
	return 0;
}

static int spinner_main(void *arg)
{
	const struct spinner *s = arg;

	if (setpriority(PRIO_PROCESS, 0, s->nice))
		return 2;
	switch (s->cls) {
	case CLASS_FP:
		spin_fp(s->deadline);
		return 0;
	case CLASS_INT:
		spin_int(s->deadline, 88172645463325252ul + s->seed);
		return 0;
	default:
		return spin_mem(s->deadline, 88172645463325252ul + s->seed);
	}
}

static void spin_resolve(struct sl_params *p, const struct sl_real_env *env)
{
	if (!sl_param_given(p, "tasks"))
		sl_real_param_set(p, "tasks", env->ncpus);
}

static int spin_run(const struct sl_params *p, const struct sl_real_env *env,
		    struct sl_metrics *out, struct sl_err *err)
{
	int tasks = (int)sl_param_int(p, "tasks");
	struct spinner s = {
		.nice = (int)sl_param_int(p, "nice"),
		.cls = sl_param_choice(p, "class"),
	};
	struct sl_real_procs ps;
	struct sl_real_usage u;
	double lo = INFINITY, hi = 0;
	int rc = -1;

	if (sl_real_procs_begin(&ps, tasks, env->pinned ? &env->cpus : NULL, err))
		return -1;
	s.deadline = sl_real_now() + sl_param_real(p, "seconds");
	for (int i = 0; i < tasks; i++) {
		s.seed = (unsigned)i;	/* the child gets its copy at fork */
		if (sl_real_procs_spawn(&ps, true, spinner_main, &s, err) < 0)
			goto out;
	}
	if (sl_real_procs_wait(&ps, &u, err))
		goto out;
	for (int i = 0; i < ps.n; i++) {
		const struct rusage *ru = &ps.child[i].ru;
		double cpu = sl_real_tv_s(&ru->ru_utime) + sl_real_tv_s(&ru->ru_stime);
		double pct = u.elapsed_s > 0 ? cpu / u.elapsed_s * 100 : 0;
		lo = fmin(lo, pct);
		hi = fmax(hi, pct);
	}
	sl_real_usage_metrics(&u, out);
	sl_metrics_add(out, "task_min_pct", "%", lo, +1);
	sl_metrics_add(out, "task_max_pct", "%", hi, 0);
	rc = 0;
out:
	sl_real_procs_end(&ps);
	return rc;
}

static uint64_t spin_need(const struct sl_params *p, const struct sl_real_env *env,
			  uint64_t *procs)
{
	uint64_t tasks = (uint64_t)sl_param_int(p, "tasks");

	(void)env;
	*procs = sl_sat_add(*procs, tasks);
	return sl_sat_mul(tasks, SL_REAL_PROC_BYTES);
}

const struct sl_real_workload sl_real_spin = {
	.name = "spin",
	.summary = "N CPU hogs spinning for a fixed wall time; per-process share of the CPU",
	.metric = "cpu_pct",
	.params = spin_params,
	.resolve = spin_resolve,
	.run = spin_run,
	.mem = spin_need,
};
