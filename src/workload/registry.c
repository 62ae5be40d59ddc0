/*
 * registry.c - the workload table, spec parsing and metric helpers.
 */
#include "workload/workload.h"

#include "base/cpulist.h"

#include "workload/bench_workloads.h"
#include "workload/net_workloads.h"
#include "workload/rtapp/rtapp.h"
#include "workload/trace_replay.h"

#include <stdio.h>
#include <stdlib.h>
#include <math.h>
#include <string.h>

const struct sl_workload_ops *const sl_workloads[] = {
	&sl_workload_kernbench,
	&sl_workload_spin,
	&sl_workload_javabench,
	&sl_workload_sdet,
	&sl_workload_schedbench,
	&sl_workload_hackbench,
	&sl_workload_pingpong,
	&sl_workload_schbench,
	&sl_workload_chat,
	&sl_workload_dbench,
	&sl_workload_tbench,
	&sl_workload_rtapp,
	&sl_workload_trace,
	NULL,
};

const struct sl_workload_ops *sl_workload_find(const char *name)
{
	for (int i = 0; sl_workloads[i]; i++)
		if (!strcmp(sl_workloads[i]->name, name))
			return sl_workloads[i];
	return NULL;
}

int sl_workload_parse(const char *text, const struct sl_workload_ops **ops,
		      struct sl_params *params, struct sl_err *err)
{
	struct sl_spec spec;

	if (sl_spec_parse(&spec, text, "workload", err))
		return -1;
	*ops = sl_workload_find(spec.name);
	if (!*ops) {
		char known[256] = "";
		for (int i = 0; sl_workloads[i]; i++) {
			strncat(known, i ? ", " : "", sizeof(known) - strlen(known) - 1);
			strncat(known, sl_workloads[i]->name, sizeof(known) - strlen(known) - 1);
		}
		return sl_fail(err, "workload '%s': unknown workload (known: %s)",
			       spec.name, known);
	}
	char owner[96];
	snprintf(owner, sizeof(owner), "workload '%s'", spec.name);
	if (sl_spec_bind(params, &spec, (*ops)->params, NULL, owner, err))
		return -1;
	if ((*ops)->validate && (*ops)->validate(params, err))
		return -1;
	return 0;
}

int sl_workload_cpus(const struct sl_params *p, int ncpus, sl_cpumask *out, struct sl_err *err)
{
	*out = sl_cpumask_first_n(ncpus);
	if (!sl_param_exists(p, "cpus") || !strcmp(sl_param_str(p, "cpus"), "all"))
		return 0;
	return sl_cpulist_parse(sl_param_str(p, "cpus"), ncpus, "cpus", out, err);
}

int sl_workload_fits_horizon(const char *name, double least_s, const char *what,
			     struct sl_err *err)
{
	double horizon = (double)SL_TIME_HORIZON / SL_SEC;

	/* one that needs the whole horizon does not end in it either: its
	 * forks, switches and kernel work come on top */
	if (least_s < horizon)
		return 0;
	return sl_fail(err, "workload '%s': %s: at least %.0f simulated s, but a run must end "
		       "within %.0f s (%.1f days)", name, what, least_s, horizon, horizon / 86400);
}

double sl_workload_sum_floor(double total, double largest, double sigma)
{
	double floor_ = total - 4 * sqrt(expm1(sigma * sigma) * largest * total);

	return floor_ > 0 ? floor_ : 0;
}

void sl_workload_pin(struct sl_sim *sim, const struct sl_params *p)
{
	sl_cpumask m;

	/* the sweep checked it against this machine before any run */
	if (!sl_workload_cpus(p, sl_topo(sim)->ncpus, &m, NULL))
		sl_sim_set_root_allowed(sim, &m);
}

uint64_t sl_workload_mem(const struct sl_workload_ops *w, const struct sl_params *params,
			 const struct sl_machine *machine, const struct sl_policy_ops *policy,
			 uint64_t *tasks)
{
	struct sl_mem_need need = { .tasks = 1 };

	if (w->mem)
		w->mem(params, &machine->topo, &need);
	if (tasks)
		*tasks = need.tasks;
	return sl_sim_mem_estimate(machine, policy, &need);
}

void sl_metrics_add(struct sl_metrics *ms, const char *name, const char *unit,
		    double value, int better)
{
	if (ms->n == SL_MAX_METRICS) {
		/* a workload reports a bounded set: more is a bug, not input */
		fprintf(stderr, "schedlab: internal error: more than %d metrics (at %s)\n",
			SL_MAX_METRICS, name);
		abort();
	}
	struct sl_metric *m = &ms->m[ms->n++];
	snprintf(m->name, sizeof(m->name), "%s", name);
	snprintf(m->unit, sizeof(m->unit), "%s", unit);
	m->value = value;
	m->better = better;
}

const struct sl_metric *sl_metrics_find(const struct sl_metrics *ms, const char *name)
{
	for (int i = 0; i < ms->n; i++)
		if (!strcmp(ms->m[i].name, name))
			return &ms->m[i];
	return NULL;
}
