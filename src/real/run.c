/*
 * run.c - the repetitions of a real workload, under the signal handlers
 * that kill every child on Ctrl-C (see real.h), each followed by how much
 * CPU the rest of the host used meanwhile (other_cpu_pct, host.h).
 */
#include "real/real.h"

#include <string.h>
#ifdef __GLIBC__
#include <malloc.h>
#endif

#include "real/host.h"
#include "real/proc.h"

/* The real processes are forked from this one: give back to the system
 * the memory freed before (validate parses a trace workload's JSON to
 * check it), or each fork copies the page tables of that heap and the
 * benchmark measures it - 68 MB of freed heap made hackbench's 400
 * forks take 2.3 times as long. */
static void shed_freed_memory(void)
{
#ifdef __GLIBC__
	malloc_trim(0);
#endif
}

int sl_real_run_reps(const struct sl_real_workload *w, const struct sl_params *p,
		     struct sl_real_env *env, int reps, uint64_t seed,
		     struct sl_metrics *out, struct sl_err *err)
{
	int rc = 0;

	shed_freed_memory();
	sl_real_signals_install();
	env->seed = seed;
	if (w->prepare)
		rc = w->prepare(p, env, err);
	for (int rep = 0; !rc && rep < reps; rep++) {
		struct sl_real_host_mark from, to;
		memset(&out[rep], 0, sizeof(out[rep]));
		env->seed = seed + (uint64_t)rep;
		if (env->rep_begin && (rc = env->rep_begin(env->rep_arg, err)))
			break;
		sl_real_host_mark(&from);
		rc = w->run(p, env, &out[rep], err);
		sl_real_host_mark(&to);
		if (!rc)
			sl_metrics_add(&out[rep], "other_cpu_pct", "%",
				       sl_real_host_other_pct(&from, &to), 0);
		if (!rc && env->rep_end)
			rc = env->rep_end(env->rep_arg, &out[rep], err);
	}
	sl_real_signals_restore();
	return rc;
}
