/*
 * bounds.c - analytic bounds on a whole run (bounds.h).
 */
#include "bounds.h"

#include "test.h"

bool bt_from_metrics(const struct sl_metrics *m, int ncpus, struct bt_run *out)
{
	const struct sl_metric *e = sl_metrics_find(m, "elapsed_s");
	const struct sl_metric *u = sl_metrics_find(m, "user_s");
	const struct sl_metric *s = sl_metrics_find(m, "sys_s");

	if (!e || !u || !s)
		return false;
	*out = (struct bt_run){ .elapsed = e->value, .cpu = u->value + s->value, .ncpus = ncpus };
	return true;
}

void bt_from_sim(struct sl_sim *sim, struct bt_run *out)
{
	struct sl_run_stats st;

	sl_sim_stats(sim, &st);
	*out = (struct bt_run){ .elapsed = (double)st.elapsed_ns / SL_SEC,
				.cpu = (double)(st.user_ns + st.sys_ns) / SL_SEC,
				.ncpus = sl_topo(sim)->ncpus };
}

void bt_check(const char *what, const struct bt_run *r, double chain, double idle_max)
{
	double slack = 0.005 * r->cpu + 0.002;

	CHECKF(r->elapsed > 0 && r->cpu <= r->ncpus * r->elapsed * (1 + 1e-9),
	       "%s: cpu %.4f s > %d CPUs x elapsed %.4f s", what, r->cpu, r->ncpus, r->elapsed);
	CHECKF(r->elapsed >= chain, "%s: elapsed %.4f s < the longest chain %.4f s", what,
	       r->elapsed, chain);
	CHECKF(r->elapsed <= r->cpu + idle_max + slack,
	       "%s: elapsed %.4f s > cpu %.4f s + all asleep %.4f s + slack %.4f s", what,
	       r->elapsed, r->cpu, idle_max, slack);
}
