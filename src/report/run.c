/*
 * run.c - one simulated run: build the sim, let the workload spawn its
 * tasks, run to the end, and collect the standard metrics (GNU time's view:
 * elapsed, user, system, CPU%, involuntary and voluntary switches) plus
 * migrations, then the workload's own.
 */
#include "report/run.h"

#include <string.h>

#include "base/hist.h"
#include "sim/sim.h"

/* Create the sim and start the workload in it; returns the sim or NULL. */
static struct sl_sim *start(const struct sl_run_spec *spec, void **state, struct sl_err *err)
{
	struct sl_sim_config cfg = {
		.machine = spec->machine,
		.policy = spec->policy,
		.knobs = spec->knobs,
		.seed = spec->seed,
		.check = spec->check,
		.observer = spec->observer,
	};
	struct sl_sim *sim = sl_sim_create(&cfg, err);
	sl_time limit = 0;

	if (!sim)
		return NULL;
	*state = spec->workload->start(sim, spec->params, &limit);
	sl_sim_set_time_limit(sim, limit);	/* open-ended workloads name one */
	return sim;
}

static void standard_metrics(const struct sl_sim *sim, const struct sl_run_stats *st,
			     struct sl_metrics *out)
{
	double elapsed = sl_ns_to_s(st->elapsed_ns);
	double user = sl_ns_to_s(st->user_ns), sys = sl_ns_to_s(st->sys_ns);

	sl_metrics_add(out, "elapsed_s", "s", elapsed, -1);
	sl_metrics_add(out, "user_s", "s", user, -1);
	sl_metrics_add(out, "sys_s", "s", sys, -1);
	sl_metrics_add(out, "cpu_pct", "%", elapsed > 0 ? (user + sys) / elapsed * 100 : 0, 0);
	sl_metrics_add(out, "ctx_switches", "count", (double)st->nivcsw, 0);
	sl_metrics_add(out, "sleeps", "count", (double)st->nvcsw, 0);
	sl_metrics_add(out, "migrations", "count", (double)st->migrations, 0);
	sl_metrics_add_latency(out, sim, 0, "");
	/* work conservation (sim/conserve.c), shares of the run's CPU- or core-time */
	const struct sl_topo *topo = sl_topo(sim);
	double cpu_time = (double)st->elapsed_ns * topo->ncpus;
	double core_time = (double)st->elapsed_ns * topo->ncores;
	sl_metrics_add(out, "idle_while_waiting_pct", "%",
		       cpu_time > 0 ? (double)st->idle_waiting_ns / cpu_time * 100 : 0, -1);
	sl_metrics_add(out, "idle_while_waiting_max_ms", "ms",
		       (double)st->idle_waiting_max_ns / 1e6, -1);
	if (topo->ncpus > topo->ncores)
		sl_metrics_add(out, "smt_shared_while_idle_pct", "%",
			       core_time > 0 ? (double)st->smt_shared_idle_ns / core_time * 100 : 0,
			       -1);
}

int sl_run_once(const struct sl_run_spec *spec, struct sl_metrics *out,
		struct sl_event_counts *events, struct sl_err *err)
{
	struct sl_run_stats st;
	void *state;
	struct sl_sim *sim = start(spec, &state, err);

	if (!sim)
		return -1;
	if (sl_sim_run(sim, err)) {
		sl_sim_destroy(sim);
		return -1;
	}
	sl_sim_stats(sim, &st);
	memset(out, 0, sizeof(*out));
	standard_metrics(sim, &st, out);
	spec->workload->report(sim, state, spec->params, out);
	for (int k = 0; spec->latency_out && k < 2; k++) {
		const struct sl_hist *h = sl_sim_latency(sim, k ? SL_LAT_RUNQ : SL_LAT_WAKEUP, 0);
		if (h)
			spec->latency_out[k] = *h;
		else
			sl_hist_reset(&spec->latency_out[k]);
	}
	if (events)
		*events = st.events;
	sl_sim_destroy(sim);
	return 0;
}
