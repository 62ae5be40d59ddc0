/*
 * compare.c - real metrics beside simulated ones, with the simulation's
 * error, and whether other load on the host makes the comparison
 * meaningless (see validate.h).
 */
#include "real/validate.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

double sl_val_error_pct(double real, double sim)
{
	if (!isfinite(real) || !isfinite(sim) || real == 0)
		return NAN;
	return (sim - real) / fabs(real) * 100;
}

double sl_val_mean(const struct sl_metrics *runs, int n, const char *name)
{
	double sum = 0;
	int k = 0;

	for (int i = 0; i < n; i++) {
		const struct sl_metric *m = sl_metrics_find(&runs[i], name);
		if (m) {
			sum += m->value;
			k++;
		}
	}
	return k ? sum / k : NAN;
}

double sl_val_other_load(const struct sl_metrics *real, int nreal, int host_cpus)
{
	double most = 0;

	for (int i = 0; i < nreal; i++) {
		const struct sl_metric *m = sl_metrics_find(&real[i], "other_cpu_pct");
		if (m && isfinite(m->value) && m->value > most)
			most = m->value;
	}
	return most > SL_VAL_OTHER_LOAD_PCT * (host_cpus > 0 ? host_cpus : 1) ? most : 0;
}

double sl_val_unlike_work(const struct sl_metrics *real, int nreal, const struct sl_metrics *sim,
			  int nsim)
{
	double r = sl_val_mean(real, nreal, "user_s") + sl_val_mean(real, nreal, "sys_s");
	double s = sl_val_mean(sim, nsim, "user_s") + sl_val_mean(sim, nsim, "sys_s");

	if (!(r > 0) || !(s >= 0))	/* NaN: a side without them */
		return 0;
	double pct = 100 * (s - r) / r;
	return fabs(pct) > SL_VAL_WORK_PCT ? pct : 0;
}

/* The summary of metric `name` over n runs (n = 0 in it if none has it). */
static void summarize(const struct sl_metrics *runs, int n, const char *name,
		      struct sl_summary *out)
{
	double *v = sl_xcalloc((unsigned long)(n ? n : 1), sizeof(*v));
	int k = 0;

	for (int i = 0; i < n; i++) {
		const struct sl_metric *m = sl_metrics_find(&runs[i], name);
		if (m)
			v[k++] = m->value;
	}
	memset(out, 0, sizeof(*out));
	if (k)
		sl_summarize(v, k, out);
	free(v);
}

static bool listed(const struct sl_val_row *rows, int n, const char *name)
{
	for (int i = 0; i < n; i++)
		if (!strcmp(rows[i].name, name))
			return true;
	return false;
}

static int add_row(struct sl_val_row *rows, int n, int max, const struct sl_metric *m,
		   const struct sl_metrics *real, int nreal, const struct sl_metrics *sim,
		   int nsim)
{
	struct sl_val_row *r = &rows[n];

	if (n >= max || listed(rows, n, m->name))
		return n;
	snprintf(r->name, sizeof(r->name), "%s", m->name);
	snprintf(r->unit, sizeof(r->unit), "%s", m->unit);
	summarize(real, nreal, m->name, &r->real);
	summarize(sim, nsim, m->name, &r->sim);
	r->error_pct = r->real.n && r->sim.n ? sl_val_error_pct(r->real.mean, r->sim.mean)
					     : NAN;
	return n + 1;
}

int sl_val_compare(const struct sl_metrics *real, int nreal, const struct sl_metrics *sim,
		   int nsim, struct sl_val_row *rows, int max)
{
	int n = 0;

	for (int i = 0; i < nreal; i++)
		for (int k = 0; k < real[i].n; k++)
			n = add_row(rows, n, max, &real[i].m[k], real, nreal, sim, nsim);
	for (int i = 0; sim && i < nsim; i++)
		for (int k = 0; k < sim[i].n; k++)
			n = add_row(rows, n, max, &sim[i].m[k], real, nreal, sim, nsim);
	return n;
}
