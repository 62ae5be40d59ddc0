/*
 * sweep_plan.c - expanding and enumerating the cells of a `run` sweep
 * (see sweep_plan.h).
 */
#include "report/sweep_plan.h"

#include <stdlib.h>
#include <string.h>

static void take_list(struct sl_spec_list *l, char ***specs, char ***labels, int *n)
{
	*specs = sl_xrealloc(*specs, sizeof(**specs) * (unsigned long)(*n + l->n));
	if (labels)
		*labels = sl_xrealloc(*labels, sizeof(**labels) * (unsigned long)(*n + l->n));
	for (int i = 0; i < l->n; i++) {
		(*specs)[*n + i] = l->specs[i];
		if (labels)
			(*labels)[*n + i] = *l->swept[i] ? l->swept[i] : sl_xstrdup(l->specs[i]);
		if (!labels || !*l->swept[i])
			free(l->swept[i]);
	}
	*n += l->n;
	free(l->specs);
	free(l->swept);
	memset(l, 0, sizeof(*l));
}

static int expand(struct sl_sweep_plan *p, const char *const *policies, int npolicies,
		  const char *workload, struct sl_err *err)
{
	struct sl_spec_list l;

	if (sl_spec_list_expand(workload, "workload", SL_SWEEP_MAX_CELLS, &l, err))
		return -1;
	take_list(&l, &p->rows, &p->row_labels, &p->nrows);
	for (int i = 0; i < npolicies; i++) {
		if (sl_spec_list_expand(policies[i], "policy", SL_SWEEP_MAX_CELLS, &l, err))
			return -1;
		take_list(&l, &p->cols, NULL, &p->ncols);
	}
	if ((long)p->nmachines * p->nrows * p->ncols > SL_SWEEP_MAX_CELLS)
		return sl_fail(err, "run: %d machine%s x %d workload%s x %d polic%s = %ld cells "
			       "(expected at most %d; see docs/experiments.md)", p->nmachines,
			       p->nmachines == 1 ? "" : "s", p->nrows, p->nrows == 1 ? "" : "s",
			       p->ncols, p->ncols == 1 ? "y" : "ies",
			       (long)p->nmachines * p->nrows * p->ncols, SL_SWEEP_MAX_CELLS);
	p->ncells = p->nmachines * p->nrows * p->ncols;
	return 0;
}

/* Column labels (as the first row shows them) must differ. */
static int check_labels(const struct sl_sweep_plan *p, struct sl_err *err)
{
	const struct sl_sweep *s = p->sweeps[0];

	for (int c = 0; c < p->ncols; c++)
		for (int d = 0; d < c; d++)
			if (!strcmp(s->cells[p->cell_of[c]]->label, s->cells[p->cell_of[d]]->label))
				return sl_fail(err, "run: -p '%s': label '%s' used twice (expected "
					       "distinct policies; label=TEXT names a column)",
					       p->cols[c], s->cells[p->cell_of[c]]->label);
	return 0;
}

int sl_sweep_plan_new(struct sl_sweep_plan *p, const char *const *machines, int nmachines,
		      const char *const *policies, int npolicies, const char *workload, int reps,
		      uint64_t seed, struct sl_err *err)
{
	memset(p, 0, sizeof(*p));
	p->workload_text = workload;
	p->nmachines = nmachines;
	p->sweeps = sl_xcalloc((unsigned long)nmachines, sizeof(*p->sweeps));
	for (int m = 0; m < nmachines; m++)
		for (int k = 0; k < m; k++)
			if (!strcmp(machines[m], machines[k]))
				return sl_fail(err, "run: -m given twice ('%s'; expected distinct "
					       "machines)", machines[m]);
	if (expand(p, policies, npolicies, workload, err))
		return -1;
	for (int m = 0; m < nmachines; m++)
		if (!(p->sweeps[m] = sl_sweep_new(machines[m], reps, seed, err)))
			return -1;
	p->cell_of = sl_xcalloc((unsigned long)p->ncells, sizeof(*p->cell_of));
	/* the one enumeration of run's cells (a shard would take a slice) */
	for (int i = 0; i < p->ncells; i++) {
		int m, r, c;
		sl_sweep_plan_cell(p, i, &m, &r, &c);
		p->cell_of[i] = sl_sweep_add(p->sweeps[m], p->cols[c], p->rows[r], err);
		if (p->cell_of[i] < 0)
			return -1;
	}
	return check_labels(p, err);
}

void sl_sweep_plan_wrap(struct sl_sweep_plan *p, const struct sl_sweep *s)
{
	static char *none = "";

	memset(p, 0, sizeof(*p));
	p->view = true;
	p->workload_text = s->ncells ? s->cells[0]->workload_text : "";
	p->nmachines = 1;
	p->sweeps = sl_xcalloc(1, sizeof(*p->sweeps));
	p->sweeps[0] = (struct sl_sweep *)s;	/* a view: never freed or run */
	p->nrows = 1;
	p->rows = sl_xcalloc(1, sizeof(*p->rows));
	p->row_labels = sl_xcalloc(1, sizeof(*p->row_labels));
	p->rows[0] = p->row_labels[0] = s->ncells ? s->cells[0]->workload_text : none;
	p->ncols = p->ncells = s->ncells;
	p->cols = sl_xcalloc((unsigned long)s->ncells + 1, sizeof(*p->cols));
	p->cell_of = sl_xcalloc((unsigned long)s->ncells + 1, sizeof(*p->cell_of));
	for (int c = 0; c < s->ncells; c++) {
		p->cols[c] = s->cells[c]->policy_text;
		p->cell_of[c] = c;
	}
}

long sl_sweep_plan_runs(const struct sl_sweep_plan *p)
{
	long n = 0;

	for (int m = 0; m < p->nmachines; m++)
		n += (long)p->sweeps[m]->ncells * p->sweeps[m]->reps;
	return n;
}

int sl_sweep_plan_run(struct sl_sweep_plan *p, int nthreads, struct sl_sweep_progress *progress,
		      struct sl_err *err)
{
	for (int m = 0; m < p->nmachines; m++)
		if (sl_sweep_run_progress(p->sweeps[m], nthreads, progress, err))
			return -1;
	return 0;
}

const struct sl_sweep_cell *sl_sweep_plan_get(const struct sl_sweep_plan *p, int i,
					      const struct sl_sweep **sweep, int *cell)
{
	int m, r, c;

	sl_sweep_plan_cell(p, i, &m, &r, &c);
	*sweep = p->sweeps[m];
	*cell = p->cell_of ? p->cell_of[i] : -1;
	return *cell >= 0 ? p->sweeps[m]->cells[*cell] : NULL;
}

void sl_sweep_plan_free(struct sl_sweep_plan *p)
{
	if (!p->view) {
		for (int m = 0; m < p->nmachines && p->sweeps; m++)
			sl_sweep_free(p->sweeps[m]);
		for (int r = 0; r < p->nrows; r++) {
			free(p->rows[r]);
			free(p->row_labels[r]);
		}
		for (int c = 0; c < p->ncols; c++)
			free(p->cols[c]);
	}
	free(p->sweeps);
	free(p->rows);
	free(p->row_labels);
	free(p->cols);
	free(p->cell_of);
	memset(p, 0, sizeof(*p));
}
