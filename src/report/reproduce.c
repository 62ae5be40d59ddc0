/*
 * reproduce.c - running an experiment and comparing it with the published
 * values (see reproduce.h): every data row x column on the experiment's
 * machine (and, for speed-ups, on the compare machine with the same seeds),
 * then the derived forms and the misses.
 */
#include "report/reproduce.h"
#include "report/shard.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *cell_policy(const struct sl_experiment *e, int col)
{
	return sl_exp_metric_columns(e) ? e->policy : e->cols[col].policy;
}

/* Add every data cell to the sweep; cell_of[row * ncols + col] = sweep
 * cell (-1 for sections and derived rows).  The one enumeration of an
 * experiment's cells (docs/experiments.md "Which cells, in which order"). */
static int add_cells(const struct sl_experiment *e, struct sl_sweep *s, int *cell_of,
		     struct sl_err *err)
{
	for (int r = 0; r < e->nrows; r++) {
		for (int c = 0; c < e->ncols; c++) {
			int i = -1;
			if (e->rows[r].kind == SL_ROW_DATA)
				i = sl_sweep_add(s, cell_policy(e, c), e->rows[r].workload, err);
			if (e->rows[r].kind == SL_ROW_DATA && i < 0) {
				sl_err_prefix(err, "%s: rows[%d] x columns[%d]: ", e->path,
					      e->rows[r].src, e->cols[c].src);
				return -1;
			}
			cell_of[r * e->ncols + c] = i;
		}
	}
	return 0;
}

static const struct sl_metric *find_metric(const struct sl_metrics *ms, const char *name,
					   const struct sl_experiment *e, int row,
					   struct sl_err *err)
{
	const struct sl_metric *m = sl_metrics_find(ms, name);

	if (!m)
		sl_fail(err, "%s: rows[%d]: workload '%s' reports no metric '%s'", e->path,
			e->rows[row].src,
			e->rows[row].workload, name);
	return m;
}

/* The cell's value in one run: the row's metric, or the column's metric
 * minus its "minus" metrics. */
static int run_value(const struct sl_experiment *e, int row, int col,
		     const struct sl_metrics *ms, double *out, char *unit, struct sl_err *err)
{
	const struct sl_exp_column *c = &e->cols[col];
	const char *name = sl_exp_metric_columns(e) ? c->metric : e->rows[row].metric;
	const struct sl_metric *m = find_metric(ms, name, e, row, err);

	if (!m)
		return -1;
	*out = m->value;
	snprintf(unit, 24, "%s", m->unit);
	for (int k = 0; sl_exp_metric_columns(e) && k < c->nminus; k++) {
		const struct sl_metric *x = find_metric(ms, c->minus[k], e, row, err);
		if (!x)
			return -1;
		*out -= x->value;
	}
	return 0;
}

static int collect(const struct sl_exp_result *res, const struct sl_sweep *s, int row, int col,
		   int sweep_cell, double **values, char *unit, struct sl_err *err)
{
	*values = sl_xcalloc((unsigned long)res->reps, sizeof(**values));
	for (int rep = 0; rep < res->reps; rep++)
		if (run_value(res->exp, row, col, sl_sweep_metrics(s, sweep_cell, rep),
			      &(*values)[rep], unit, err))
			return -1;
	return 0;
}

static int evaluate(struct sl_exp_result *res, const int *cell_of, const int *base_of,
		    struct sl_err *err)
{
	const struct sl_experiment *e = res->exp;
	char unit[24];

	for (int r = 0; r < e->nrows; r++) {
		for (int c = 0; c < e->ncols; c++) {
			struct sl_exp_cell_result *out = &res->cells[r * e->ncols + c];
			if (e->rows[r].kind != SL_ROW_DATA)
				continue;
			if (collect(res, res->sweep, r, c, cell_of[r * e->ncols + c],
				    &out->values, out->unit, err))
				return -1;
			if (res->base_sweep &&
			    collect(res, res->base_sweep, r, c, base_of[r * e->ncols + c],
				    &out->base_values, unit, err))
				return -1;
		}
	}
	sl_exp_result_derive(res);
	return 0;
}

/* ---- derived forms ---- */

static void derive_speedup(const struct sl_exp_result *r, struct sl_exp_cell_result *x)
{
	sl_summarize(x->base_values, r->reps, &x->base);
	x->value = sl_stats_speedup_pct(x->values, r->reps, x->base_values, r->reps);
	x->lo = x->hi = x->value;
	for (int i = 0; i < r->reps; i++) {	/* repetition i: the same seed on both */
		double s = 100.0 * (x->values[i] / x->base_values[i] - 1.0);
		x->lo = i == 0 || s < x->lo ? s : x->lo;
		x->hi = i == 0 || s > x->hi ? s : x->hi;
	}
	x->derived = true;
}

static void derive_pct_first(const struct sl_exp_result *r, int row, int col)
{
	const struct sl_summary *first = &sl_exp_cell(r, row, 0)->sim;
	struct sl_exp_cell_result *x = &r->cells[row * r->exp->ncols + col];

	if (r->exp->pct_stat == SL_STAT_MIN)	/* best runs, for best-of-N tables */
		x->value = 100.0 * x->sim.min / first->min;
	else
		x->value = 100.0 * x->sim.mean / first->mean;
	x->sd_pct = 100.0 * x->sim.sd / first->mean;
	x->lo = x->value - x->sd_pct;
	x->hi = x->value + x->sd_pct;
	x->derived = true;
}

/* A geometric mean row: over the data rows of its section. */
static void derive_geomean(const struct sl_exp_result *r, int row, int col)
{
	const struct sl_experiment *e = r->exp;
	struct sl_exp_cell_result *x = &r->cells[row * e->ncols + col];
	double *pct = sl_xcalloc((unsigned long)e->nrows, sizeof(*pct));
	int n = 0;

	for (int k = row - 1; k >= 0 && e->rows[k].kind != SL_ROW_SECTION; k--)
		if (e->rows[k].kind == SL_ROW_DATA)
			pct[n++] = sl_exp_cell(r, k, col)->value;
	x->value = sl_stats_geomean_pct(pct, n, e->form == SL_FORM_SPEEDUP ? 1 : 0);
	x->lo = x->hi = x->value;
	x->derived = true;
	snprintf(x->unit, sizeof(x->unit), "%%");
	free(pct);
}

static void mark_miss(const struct sl_exp_result *r, int row, int col)
{
	const struct sl_experiment *e = r->exp;
	const struct sl_exp_cell *pub = &e->rows[row].cells[col];
	struct sl_exp_cell_result *x = &r->cells[row * e->ncols + col];

	if (!pub->npublished)
		x->miss = false;
	else if (pub->interval && x->derived)
		x->miss = sl_stats_misses_interval(x->lo, x->hi, pub->published[0], pub->published[1],
						   e->tolerance_points, e->tolerance_points);
	else if (pub->interval)
		x->miss = sl_stats_misses_interval(x->sim.min, x->sim.max, pub->published[0],
						   pub->published[1],
						   e->tolerance_pct / 100.0 * fabs(pub->published[0]),
						   e->tolerance_pct / 100.0 * fabs(pub->published[1]));
	else if (x->derived)
		x->miss = sl_stats_misses_points(x->value, x->lo, x->hi, pub->published,
						 pub->npublished, e->tolerance_points);
	else
		x->miss = sl_stats_misses(&x->sim, pub->published, pub->npublished,
					  e->tolerance_pct);
}

void sl_exp_result_derive(struct sl_exp_result *r)
{
	const struct sl_experiment *e = r->exp;

	for (int row = 0; row < e->nrows; row++) {
		enum sl_exp_row_kind kind = e->rows[row].kind;
		for (int col = 0; col < e->ncols && kind == SL_ROW_DATA; col++) {
			struct sl_exp_cell_result *x = &r->cells[row * e->ncols + col];
			sl_summarize(x->values, r->reps, &x->sim);
			if (e->form == SL_FORM_SPEEDUP)
				derive_speedup(r, x);
			else if (e->form == SL_FORM_PCT_FIRST)
				derive_pct_first(r, row, col);
		}
		for (int col = 0; col < e->ncols && kind == SL_ROW_GEOMEAN; col++)
			derive_geomean(r, row, col);
		for (int col = 0; col < e->ncols && kind != SL_ROW_SECTION; col++)
			mark_miss(r, row, col);
	}
}

/* ---- running ---- */

static struct sl_sweep *new_sweep(const struct sl_experiment *e, const char *machine,
				  const char *field, int reps, struct sl_err *err)
{
	struct sl_sweep *s = sl_sweep_new(machine, reps, 1, err);

	if (!s)
		sl_err_prefix(err, "%s: %s: ", e->path, field);
	return s;
}

int sl_experiment_run(const struct sl_experiment *e, int reps, int nthreads,
		      struct sl_exp_result *out, struct sl_err *err)
{
	return sl_experiment_run_progress(e, reps, nthreads, NULL, out, err);
}

int sl_experiment_run_progress(const struct sl_experiment *e, int reps, int nthreads,
			       struct sl_sweep_progress *progress, struct sl_exp_result *out,
			       struct sl_err *err)
{
	unsigned long ncells = (unsigned long)(e->nrows * e->ncols);
	int *cell_of = sl_xcalloc(ncells, sizeof(*cell_of));
	int *base_of = sl_xcalloc(ncells, sizeof(*base_of));
	int rc = -1;

	memset(out, 0, sizeof(*out));
	out->exp = e;
	out->reps = reps ? reps : e->reps;
	out->cells = sl_xcalloc(ncells, sizeof(*out->cells));
	out->sweep = new_sweep(e, e->machine, "machine", out->reps, err);
	if (out->sweep && e->compare)
		out->base_sweep = new_sweep(e, e->compare, "compare", out->reps, err);
	if (!out->sweep || (e->compare && !out->base_sweep))
		goto done;
	if (add_cells(e, out->sweep, cell_of, err) ||
	    (out->base_sweep && add_cells(e, out->base_sweep, base_of, err)) ||
	    sl_sweep_run_progress(out->sweep, nthreads, progress, err) ||
	    (out->base_sweep && sl_sweep_run_progress(out->base_sweep, nthreads, progress, err)))
		goto done;
	/* a --shard slice ran some runs only: it writes them, nothing is
	 * evaluated (merge evaluates the whole) */
	rc = sl_shard_mode() == SL_SHARD_SLICE ? 0 : evaluate(out, cell_of, base_of, err);
done:
	free(cell_of);
	free(base_of);
	if (rc)
		sl_exp_result_free(out);
	return rc;
}

int sl_experiment_check(const struct sl_experiment *e, int reps, struct sl_err *err)
{
	long runs;

	return sl_experiment_check_runs(e, reps, &runs, err);
}

int sl_experiment_check_runs(const struct sl_experiment *e, int reps, long *runs,
			     struct sl_err *err)
{
	struct sl_exp_result r = { 0 };
	unsigned long ncells = (unsigned long)(e->nrows * e->ncols);
	int *cell_of = sl_xcalloc(ncells, sizeof(*cell_of));
	int rc = -1;

	r.sweep = new_sweep(e, e->machine, "machine", reps ? reps : e->reps, err);
	if (r.sweep && e->compare)
		r.base_sweep = new_sweep(e, e->compare, "compare", reps ? reps : e->reps, err);
	if (r.sweep && (!e->compare || r.base_sweep) && !add_cells(e, r.sweep, cell_of, err) &&
	    (!r.base_sweep || !add_cells(e, r.base_sweep, cell_of, err))) {
		rc = 0;
		*runs = (long)r.sweep->ncells * r.sweep->reps +
			(r.base_sweep ? (long)r.base_sweep->ncells * r.base_sweep->reps : 0);
	}
	sl_sweep_free(r.sweep);
	sl_sweep_free(r.base_sweep);
	free(cell_of);
	return rc;
}

void sl_exp_result_free(struct sl_exp_result *r)
{
	if (r->cells && r->exp)
		for (int i = 0; i < r->exp->nrows * r->exp->ncols; i++) {
			free(r->cells[i].values);
			free(r->cells[i].base_values);
		}
	free(r->cells);
	sl_sweep_free(r->sweep);
	sl_sweep_free(r->base_sweep);
	memset(r, 0, sizeof(*r));
}

void sl_exp_result_score(const struct sl_exp_result *r, struct sl_exp_score *s)
{
	const struct sl_experiment *e = r->exp;

	s->published = s->within = 0;
	for (int row = 0; row < e->nrows; row++)
		for (int c = 0; c < e->ncols; c++) {
			if (e->rows[row].kind == SL_ROW_SECTION || !e->rows[row].cells[c].npublished)
				continue;
			s->published++;
			s->within += !sl_exp_cell(r, row, c)->miss;
		}
}
