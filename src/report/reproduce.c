/*
 * reproduce.c - running an experiment and comparing it with the published
 * values (see reproduce.h).
 */
#include "report/reproduce.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Add every cell to the sweep; cell_of[row * ncols + col] = sweep cell. */
static int add_cells(const struct sl_experiment *e, struct sl_sweep *s, int *cell_of,
		     struct sl_err *err)
{
	for (int r = 0; r < e->nrows; r++) {
		for (int c = 0; c < e->ncols; c++) {
			int i = sl_sweep_add(s, e->cols[c].policy, e->rows[r].workload, err);
			if (i < 0) {
				sl_err_prefix(err, "%s: rows[%d] x columns[%d]: ", e->path, r, c);
				return -1;
			}
			cell_of[r * e->ncols + c] = i;
		}
	}
	return 0;
}

/* Pull the row's metric out of every repetition of a cell and compare. */
static int evaluate_cell(const struct sl_exp_result *res, int row, int col, int sweep_cell,
			 struct sl_err *err)
{
	const struct sl_experiment *e = res->exp;
	const struct sl_exp_row *r = &e->rows[row];
	const struct sl_exp_cell *pub = &r->cells[col];
	struct sl_exp_cell_result *out = &res->cells[row * e->ncols + col];

	out->values = sl_xcalloc((unsigned long)res->reps, sizeof(*out->values));
	for (int rep = 0; rep < res->reps; rep++) {
		const struct sl_metric *m =
			sl_metrics_find(sl_sweep_metrics(res->sweep, sweep_cell, rep), r->metric);
		if (!m)
			return sl_fail(err, "%s: rows[%d].metric: workload '%s' reports no "
				       "metric '%s'", e->path, row, r->workload, r->metric);
		out->values[rep] = m->value;
		snprintf(out->unit, sizeof(out->unit), "%s", m->unit);
	}
	sl_summarize(out->values, res->reps, &out->sim);
	out->miss = pub->npublished &&
		    sl_stats_misses(&out->sim, pub->published, pub->npublished, e->tolerance_pct);
	return 0;
}

static int evaluate(struct sl_exp_result *res, const int *cell_of, struct sl_err *err)
{
	const struct sl_experiment *e = res->exp;

	for (int r = 0; r < e->nrows; r++)
		for (int c = 0; c < e->ncols; c++)
			if (evaluate_cell(res, r, c, cell_of[r * e->ncols + c], err))
				return -1;
	return 0;
}

int sl_experiment_run(const struct sl_experiment *e, int reps, int nthreads,
		      struct sl_exp_result *out, struct sl_err *err)
{
	int *cell_of = sl_xcalloc((unsigned long)(e->nrows * e->ncols), sizeof(*cell_of));
	int rc = -1;

	memset(out, 0, sizeof(*out));
	out->exp = e;
	out->reps = reps ? reps : e->reps;
	out->cells = sl_xcalloc((unsigned long)(e->nrows * e->ncols), sizeof(*out->cells));
	out->sweep = sl_sweep_new(e->machine, out->reps, 1, err);
	if (!out->sweep)
		sl_err_prefix(err, "%s: machine: ", e->path);
	else if (!add_cells(e, out->sweep, cell_of, err) &&
		 !sl_sweep_run(out->sweep, nthreads, err))
		rc = evaluate(out, cell_of, err);
	free(cell_of);
	if (rc)
		sl_exp_result_free(out);
	return rc;
}

void sl_exp_result_free(struct sl_exp_result *r)
{
	if (r->cells && r->exp)
		for (int i = 0; i < r->exp->nrows * r->exp->ncols; i++)
			free(r->cells[i].values);
	free(r->cells);
	sl_sweep_free(r->sweep);
	memset(r, 0, sizeof(*r));
}
