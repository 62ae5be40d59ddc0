/*
 * out_table.c - readable tables: `run` results per policy and metric
 * (min/median/max and mean (sd) over repetitions), and experiments in the
 * seeds' shape (rows = tests, columns = kernels, simulated beside published,
 * with a mark where the simulation misses).
 */
#include "report/output.h"

#include <math.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

/* ---- a grid of strings printed in aligned columns ---- */

struct grid {
	int nrows, ncols;
	char **cell;		/* nrows x ncols, NULL = empty */
};

static void grid_init(struct grid *g, int nrows, int ncols)
{
	g->nrows = nrows;
	g->ncols = ncols;
	g->cell = sl_xcalloc((unsigned long)(nrows * ncols), sizeof(*g->cell));
}

static void grid_set(struct grid *g, int r, int c, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));

static void grid_set(struct grid *g, int r, int c, const char *fmt, ...)
{
	char buf[512];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	free(g->cell[r * g->ncols + c]);
	g->cell[r * g->ncols + c] = sl_xstrdup(buf);
}

static const char *grid_get(const struct grid *g, int r, int c)
{
	const char *s = g->cell[r * g->ncols + c];
	return s ? s : "";
}

/* Display width of UTF-8 text: count the bytes that start a character. */
static int text_width(const char *s)
{
	int w = 0;

	for (; *s; s++)
		w += ((unsigned char)*s & 0xc0) != 0x80;
	return w;
}

static void grid_widths(const struct grid *g, int *width)
{
	for (int c = 0; c < g->ncols; c++) {
		width[c] = 0;
		for (int r = 0; r < g->nrows; r++)
			if (text_width(grid_get(g, r, c)) > width[c])
				width[c] = text_width(grid_get(g, r, c));
	}
}

static void put_padded(FILE *f, const char *s, int width)
{
	fputs(s, f);
	for (int i = text_width(s); i < width; i++)
		fputc(' ', f);
}

/* Rows from `from` on, columns separated by `gap[c]` spaces after column c. */
static void grid_print(FILE *f, const struct grid *g, int from, const int *width,
		       const int *gap)
{
	for (int r = from; r < g->nrows; r++) {
		int last = g->ncols - 1;
		while (last > 0 && !*grid_get(g, r, last))
			last--;
		for (int c = 0; c <= last; c++)
			put_padded(f, grid_get(g, r, c), c < last ? width[c] + gap[c] : 0);
		fputc('\n', f);
	}
}

static void grid_free(struct grid *g)
{
	for (int i = 0; i < g->nrows * g->ncols; i++)
		free(g->cell[i]);
	free(g->cell);
}

/* ---- numbers ---- */

/* Decimals showing at least three significant digits of v, within [lo, 4]. */
static int decimals_for(double v, int lo)
{
	int d = lo;

	if (v != 0 && isfinite(v)) {
		int sig = 2 - (int)floor(log10(fabs(v)));
		if (sig > d)
			d = sig;
	}
	return d > 4 ? 4 : d;
}

/* How many decimals a published number was written with (0..4). */
static int published_decimals(double v)
{
	for (int d = 0; d < 4; d++) {
		double scaled = v * pow(10, d);
		if (fabs(scaled - round(scaled)) < 1e-6 * fabs(scaled) + 1e-9)
			return d;
	}
	return 4;
}

/* Decimals for a run-table value: counts as integers (means with one
 * decimal), else two, or more for small numbers. */
static int run_decimals(double v, const char *unit, bool is_mean)
{
	if (!strcmp(unit, "count"))
		return is_mean ? 1 : 0;
	return decimals_for(v, 2);
}

/* ---- `run` ---- */

/* ms's metric `name`, looked for at index `hint` first: the runs of a
 * sweep mostly list the same metrics in the same order, and a 1,024-CPU
 * run lists a thousand (per-CPU ones), which a search from the start for
 * each would make quadratic. */
static const struct sl_metric *find_at(const struct sl_metrics *ms, const char *name, int hint)
{
	if (hint >= 0 && hint < ms->n && !strcmp(ms->m[hint].name, name))
		return &ms->m[hint];
	return sl_metrics_find(ms, name);
}

/* Metric names in order of first appearance over all runs. */
static int collect_metrics(const struct sl_sweep *s, const struct sl_metric **names)
{
	int n = 0;

	for (int c = 0; c < s->ncells; c++) {
		for (int rep = 0; rep < s->reps; rep++) {
			const struct sl_metrics *ms = sl_sweep_metrics(s, c, rep);
			for (int i = 0; i < ms->n; i++) {
				bool seen = i < n && !strcmp(names[i]->name, ms->m[i].name);
				for (int k = 0; k < n && !seen; k++)
					seen = !strcmp(names[k]->name, ms->m[i].name);
				if (!seen && n < SL_MAX_METRICS * 4)
					names[n++] = &ms->m[i];
			}
		}
	}
	return n;
}

/* The values of one metric over a cell's repetitions; returns how many. */
static int metric_values(const struct sl_sweep *s, int cell, const char *name, int hint,
			 double *out)
{
	int n = 0;

	for (int rep = 0; rep < s->reps; rep++) {
		const struct sl_metric *m = find_at(sl_sweep_metrics(s, cell, rep), name, hint);
		if (m)
			out[n++] = m->value;
	}
	return n;
}

static void run_cells(struct grid *g, int row, const struct sl_sweep *s,
		      const struct sl_metric *metric, int hint, double *values)
{
	for (int c = 0; c < s->ncells; c++) {
		struct sl_summary sum;
		int n = metric_values(s, c, metric->name, hint, values);

		if (!n) {
			grid_set(g, row, 3 + c, "-");
			continue;
		}
		sl_summarize(values, n, &sum);
		if (s->reps == 1) {
			grid_set(g, row, 3 + c, "%.*f",
				 run_decimals(sum.median, metric->unit, false), sum.median);
			continue;
		}
		grid_set(g, row, 3 + c, "%.*f / %.*f / %.*f",
			 run_decimals(sum.min, metric->unit, false), sum.min,
			 run_decimals(sum.median, metric->unit, false), sum.median,
			 run_decimals(sum.max, metric->unit, false), sum.max);
		/* the sd with as many decimals as its mean */
		int d = run_decimals(sum.mean, metric->unit, true);
		grid_set(g, row + 1, 3 + c, "%.*f (%.*f)", d, sum.mean, d, sum.sd);
	}
}

void sl_out_run_table(FILE *f, const struct sl_sweep *s)
{
	const struct sl_metric *names[SL_MAX_METRICS * 4];
	int nmetrics = collect_metrics(s, names);
	int per = s->reps > 1 ? 2 : 1;
	double *values = sl_xcalloc((unsigned long)s->reps, sizeof(*values));
	int *width = sl_xcalloc((unsigned long)(3 + s->ncells), sizeof(*width));
	int *gap = sl_xcalloc((unsigned long)(3 + s->ncells), sizeof(*gap));
	struct grid g;

	fprintf(f, "workload %s on %s (%s)\n", s->ncells ? s->cells[0]->workload_text : "-",
		s->machine.name, s->machine.summary);
	if (s->reps > 1)
		fprintf(f, "%d repetitions, seeds %llu-%llu; min / median / max and mean (sd)\n\n",
			s->reps, (unsigned long long)s->seed,
			(unsigned long long)(s->seed + (uint64_t)s->reps - 1));
	else
		fprintf(f, "1 run, seed %llu\n\n", (unsigned long long)s->seed);

	grid_init(&g, 1 + nmetrics * per, 3 + s->ncells);
	grid_set(&g, 0, 0, "metric");
	grid_set(&g, 0, 1, "unit");
	for (int c = 0; c < s->ncells; c++)
		grid_set(&g, 0, 3 + c, "%s", s->cells[c]->label);
	for (int i = 0; i < nmetrics; i++) {
		int row = 1 + i * per;
		grid_set(&g, row, 0, "%s", names[i]->name);
		grid_set(&g, row, 1, "%s", names[i]->unit);
		if (per == 2) {
			grid_set(&g, row, 2, "min/med/max");
			grid_set(&g, row + 1, 2, "mean (sd)");
		}
		run_cells(&g, row, s, names[i], i, values);
	}
	grid_widths(&g, width);
	for (int c = 0; c < 3 + s->ncells; c++)
		gap[c] = c == 2 && per == 1 ? 0 : 2;
	grid_print(f, &g, 0, width, gap);
	grid_free(&g);
	free(values);
	free(width);
	free(gap);
}

/* ---- `run` sweeps: rows = the workload's listed values, columns = policies ---- */

/* The summary of `metric` over a cell's repetitions; n = 0 if no run has it. */
static int cell_summary(const struct sl_sweep *s, int cell, const char *metric, double *values,
			struct sl_summary *sum, const char **unit)
{
	int n = 0;

	for (int rep = 0; rep < s->reps; rep++) {
		const struct sl_metric *m = sl_metrics_find(sl_sweep_metrics(s, cell, rep), metric);
		if (m) {
			values[n++] = m->value;
			*unit = m->unit;
		}
	}
	if (n)
		sl_summarize(values, n, sum);
	return n;
}

/* One metric's grid for machine m. */
static void sweep_metric_grid(FILE *f, const struct sl_sweep_plan *p, int m, const char *metric,
			      double *values)
{
	const struct sl_sweep *s = p->sweeps[m];
	const char *unit = NULL;
	int *width = sl_xcalloc((unsigned long)(1 + p->ncols), sizeof(*width));
	int *gap = sl_xcalloc((unsigned long)(1 + p->ncols), sizeof(*gap));
	struct grid g;

	grid_init(&g, 1 + p->nrows, 1 + p->ncols);
	for (int r = 0; r < p->nrows; r++) {
		grid_set(&g, 1 + r, 0, "%s", p->row_labels[r]);
		for (int c = 0; c < p->ncols; c++) {
			int i = (m * p->nrows + r) * p->ncols + c, cell = p->cell_of[i];
			const char *u = NULL;
			struct sl_summary sum;
			if (cell < 0)
				continue;
			if (!g.cell[c + 1])
				grid_set(&g, 0, 1 + c, "%s", s->cells[cell]->label);
			if (!cell_summary(s, cell, metric, values, &sum, &u)) {
				grid_set(&g, 1 + r, 1 + c, "-");
				continue;
			}
			unit = u;
			if (s->reps == 1)
				grid_set(&g, 1 + r, 1 + c, "%.*f",
					 run_decimals(sum.median, u, false), sum.median);
			else
				grid_set(&g, 1 + r, 1 + c, "%.*f / %.*f / %.*f",
					 run_decimals(sum.min, u, false), sum.min,
					 run_decimals(sum.median, u, false), sum.median,
					 run_decimals(sum.max, u, false), sum.max);
		}
	}
	grid_set(&g, 0, 0, "%s (%s)", metric, unit ? unit : "not reported");
	grid_widths(&g, width);
	for (int c = 0; c <= p->ncols; c++)
		gap[c] = 2;
	grid_print(f, &g, 0, width, gap);
	grid_free(&g);
	free(width);
	free(gap);
}

void sl_out_sweep_table(FILE *f, const struct sl_sweep_plan *p, const char *const *metrics,
			int nmetrics)
{
	for (int m = 0; m < p->nmachines; m++) {
		const struct sl_sweep *s = p->sweeps[m];
		double *values = sl_xcalloc((unsigned long)s->reps, sizeof(*values));
		const char *headline = s->ncells ? s->cells[0]->workload->metric : "elapsed_s";

		if (m)
			fputc('\n', f);
		fprintf(f, "workload %s on %s (%s)\n", p->workload_text, s->machine.name,
			s->machine.summary);
		if (s->reps > 1)
			fprintf(f, "%d repetitions, seeds %llu-%llu; cells: min / median / max\n",
				s->reps, (unsigned long long)s->seed,
				(unsigned long long)(s->seed + (uint64_t)s->reps - 1));
		else
			fprintf(f, "1 run, seed %llu\n", (unsigned long long)s->seed);
		for (int k = 0; k < (nmetrics ? nmetrics : 1); k++) {
			fputc('\n', f);
			sweep_metric_grid(f, p, m, nmetrics ? metrics[k] : headline, values);
		}
		free(values);
	}
}

/* ---- `reproduce` ---- */

void sl_miss_legend(char *buf, unsigned long size, double tol_pct)
{
	snprintf(buf, size,
		 "%s marks a miss: a single published value more than %g%% from the simulated "
		 "median,\n  or a published spread none of whose values lies within %g%% of the "
		 "simulated [min, max]", SL_MISS_MARK, tol_pct, tol_pct);
}

void sl_miss_legend_points(char *buf, unsigned long size, double points)
{
	snprintf(buf, size,
		 "%s marks a miss: the simulated value more than %g points from a single "
		 "published value,\n  or a published spread none of whose values lies within %g "
		 "points of the simulated range", SL_MISS_MARK, points, points);
}

static void append(char *buf, size_t size, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static void append(char *buf, size_t size, const char *fmt, ...)
{
	size_t len = strlen(buf);
	va_list ap;

	if (len + 1 >= size)
		return;
	va_start(ap, fmt);
	vsnprintf(buf + len, size - len, fmt, ap);
	va_end(ap);
}

static double stat_value(const struct sl_summary *s, enum sl_stat stat)
{
	switch (stat) {
	case SL_STAT_MIN: return s->min;
	case SL_STAT_MEDIAN: return s->median;
	case SL_STAT_MAX: return s->max;
	case SL_STAT_MEAN: return s->mean;
	case SL_STAT_SD: return s->sd;
	}
	return NAN;
}

/* Decimals for a row: as many as its published numbers use, and at least
 * three significant digits of the simulated medians (derived percentages:
 * one decimal). */
static int row_decimals(const struct sl_exp_result *r, int row)
{
	const struct sl_exp_row *er = &r->exp->rows[row];
	int d = 0;

	for (int c = 0; c < r->exp->ncols; c++) {
		if (sl_exp_cell(r, row, c)->derived)
			return 1;
		for (int k = 0; k < er->cells[c].npublished; k++)
			if (published_decimals(er->cells[c].published[k]) > d)
				d = published_decimals(er->cells[c].published[k]);
		int sd = decimals_for(sl_exp_cell(r, row, c)->sim.median, 0);
		if (sd > d)
			d = sd;
	}
	return d;
}

/* The published entry as written, with the miss mark. */
static void published_text(char *buf, size_t size, const struct sl_exp_cell *pub, bool miss)
{
	buf[0] = 0;
	for (int k = 0; k < pub->npublished; k++)
		append(buf, size, "%s%.*f", k ? (pub->interval ? ".." : ",") : "",
		       published_decimals(pub->published[k]), pub->published[k]);
	if (!pub->npublished)
		snprintf(buf, size, "-");
	else if (miss)
		append(buf, size, " %s", SL_MISS_MARK);
}

/* A derived cell: speed-up with the paired repetitions' range, percent of
 * the first column with its sd, or a geometric mean alone. */
static void derived_text(char *buf, size_t size, const struct sl_exp_result *r, int row,
			 const struct sl_exp_cell_result *res)
{
	const struct sl_experiment *e = r->exp;

	snprintf(buf, size, "%.1f", res->value);
	if (e->rows[row].kind == SL_ROW_GEOMEAN || r->reps < 2)
		return;
	if (e->form == SL_FORM_SPEEDUP)
		append(buf, size, " (%.1f..%.1f)", res->lo, res->hi);
	else
		append(buf, size, " (%.1f)", res->sd_pct);
}

static void exp_cell(struct grid *g, int grow, int gcol, const struct sl_exp_result *r,
		     int row, int col, int dec)
{
	const struct sl_experiment *e = r->exp;
	const struct sl_exp_cell_result *res = sl_exp_cell(r, row, col);
	char sim[256] = "", published[256];

	if (res->derived)
		derived_text(sim, sizeof(sim), r, row, res);
	else
		for (int i = 0; i < e->nshow; i++)
			append(sim, sizeof(sim), "%s%.*f", i ? "/" : "", dec,
			       stat_value(&res->sim, e->show[i]));
	published_text(published, sizeof(published), &e->rows[row].cells[col], res->miss);
	grid_set(g, grow, gcol, "%s", sim);
	grid_set(g, grow, gcol + 1, "%s", published);
}

/* The first data row's metric, for the header of derived forms. */
static const char *exp_metric(const struct sl_experiment *e)
{
	for (int i = 0; i < e->nrows; i++)
		if (e->rows[i].kind == SL_ROW_DATA && e->rows[i].metric)
			return e->rows[i].metric;
	return "-";
}

static void exp_header(FILE *f, const struct sl_exp_result *r)
{
	const struct sl_experiment *e = r->exp;
	char show[64] = "";

	for (int i = 0; i < e->nshow; i++)
		append(show, sizeof(show), "%s%s", i ? "/" : "", sl_stat_name(e->show[i]));
	fprintf(f, "%s: %s\n", e->name, e->title);
	if (e->source)	/* optional in a user's file */
		fprintf(f, "source: %s\n", e->source);
	fprintf(f, "machine: %s (%s)\n", e->machine, r->sweep->machine.summary);
	if (e->form == SL_FORM_SPEEDUP) {
		fprintf(f, "compared with: %s (%s)\n", e->compare, r->base_sweep->machine.summary);
		fprintf(f, "%d repetitions (seeds 1-%d) on each; cells: speed-up %% = 100 x (G / G' - 1)"
			" of %s,\n  G and G' the geometric means over the repetitions on %s and on %s\n"
			"  (in parentheses: the range of the same-seed pairs' speed-ups), then "
			"published;\n  geometric mean rows: 100 x ((prod (1 + s/100))^(1/n) - 1) over "
			"the rows above\n\n", r->reps, r->reps, exp_metric(e), e->machine, e->compare);
		return;
	}
	if (e->form == SL_FORM_PCT_FIRST) {
		const char *stat = sl_stat_name(e->pct_stat);
		fprintf(f, "%d repetitions (seeds 1-%d); cells: %s of %s as %% of the first "
			"column's %s (sd, same scale), then published\n\n", r->reps, r->reps,
			stat, exp_metric(e), stat);
		return;
	}
	if (sl_exp_metric_columns(e))
		fprintf(f, "policy: %s\n", e->policy);
	fprintf(f, "%d repetitions (seeds 1-%d); cells: simulated %s, then published\n\n",
		r->reps, r->reps, show);
}

/* Widen the published sub-column so that each column label fits over its
 * two sub-columns. */
static void fit_labels(const struct sl_experiment *e, int *width)
{
	for (int c = 0; c < e->ncols; c++) {
		int sim = 2 + 2 * c, span = width[sim] + 2 + width[sim + 1];
		int need = text_width(e->cols[c].label);
		if (need > span)
			width[sim + 1] += need - span;
	}
}

static bool has_interval(const struct sl_experiment *e)
{
	for (int row = 0; row < e->nrows; row++)
		for (int c = 0; c < e->ncols && e->rows[row].cells; c++)
			if (e->rows[row].cells[c].interval)
				return true;
	return false;
}

static void exp_footer(FILE *f, const struct sl_exp_result *r, int misses, int published)
{
	const struct sl_experiment *e = r->exp;
	char legend[512];

	if (e->form == SL_FORM_VALUES)
		sl_miss_legend(legend, sizeof(legend), e->tolerance_pct);
	else
		sl_miss_legend_points(legend, sizeof(legend), e->tolerance_points);
	fprintf(f, "\n%s.\n", legend);
	if (has_interval(e))
		fprintf(f, "  A published interval A..B misses when the simulated [min, max] does not "
			"meet it widened by %g%s.\n",
			e->form == SL_FORM_VALUES ? e->tolerance_pct : e->tolerance_points,
			e->form == SL_FORM_VALUES ? "% at each end" : " points");
	fprintf(f, "%d of %d published cells missed.\n", misses, published);
	for (int i = 0; i < e->nnotes; i++)
		fprintf(f, "note: %s\n", e->notes[i]);
}

static void count_misses(const struct sl_exp_result *r, int *misses, int *published)
{
	struct sl_exp_score s;

	sl_exp_result_score(r, &s);
	*published = s.published;
	*misses = s.published - s.within;
}

static const char *row_unit(const struct sl_exp_result *r, int row)
{
	const struct sl_exp_cell_result *x = sl_exp_cell(r, row, 0);

	if (r->exp->rows[row].kind == SL_ROW_SECTION)
		return "";
	return x->derived ? "%" : x->unit;
}

static void exp_grid(FILE *f, const struct sl_exp_result *r)
{
	const struct sl_experiment *e = r->exp;
	int ncol = 2 + 2 * e->ncols, misses, published;
	int *width = sl_xcalloc((unsigned long)ncol, sizeof(*width));
	int *gap = sl_xcalloc((unsigned long)ncol, sizeof(*gap));
	struct grid g;

	grid_init(&g, 2 + e->nrows, ncol);
	grid_set(&g, 1, 0, "test");
	grid_set(&g, 1, 1, "unit");
	for (int c = 0; c < e->ncols; c++) {
		grid_set(&g, 1, 2 + 2 * c, "simulated");
		grid_set(&g, 1, 3 + 2 * c, "published");
	}
	for (int row = 0; row < e->nrows; row++) {
		if (e->rows[row].kind == SL_ROW_SECTION)
			continue;	/* printed across the columns below */
		int dec = row_decimals(r, row);
		grid_set(&g, 2 + row, 0, "%s", e->rows[row].label);
		grid_set(&g, 2 + row, 1, "%s", row_unit(r, row));
		for (int c = 0; c < e->ncols; c++)
			exp_cell(&g, 2 + row, 2 + 2 * c, r, row, c, dec);
	}
	count_misses(r, &misses, &published);
	grid_widths(&g, width);
	fit_labels(e, width);
	for (int c = 0; c < ncol; c++)
		gap[c] = c >= 2 && c % 2 == 0 ? 2 : 4;
	/* The label row: each label spans its two sub-columns. */
	put_padded(f, "", width[0] + gap[0] + width[1] + gap[1]);
	for (int c = 0; c < e->ncols; c++) {
		int sim = 2 + 2 * c;
		bool last = c == e->ncols - 1;
		put_padded(f, e->cols[c].label,
			   last ? 0 : width[sim] + gap[sim] + width[sim + 1] + gap[sim + 1]);
	}
	fputc('\n', f);
	for (int row = -1; row < e->nrows; row++) {
		if (row >= 0 && e->rows[row].kind == SL_ROW_SECTION) {
			fprintf(f, "%s%s\n", row ? "\n" : "", e->rows[row].label);
			continue;
		}
		struct grid one = { .nrows = 1, .ncols = ncol, .cell = g.cell + (row + 2) * ncol };
		grid_print(f, &one, 0, width, gap);
	}
	exp_footer(f, r, misses, published);
	grid_free(&g);
	free(width);
	free(gap);
}

/* ---- SDET shapes ---- */

static const char sdet_disclaimer[] =
	"SDET is a SPEC benchmark; these are simulated research runs, not compliant SDET "
	"results,\nand not comparable with any published SDET result.\n";

/* Bligh's shape: a block per row ("SDET <label>"), a line per column with
 * Throughput and Std. Dev as percentages of the first column's mean. */
static void exp_sdet_pct(FILE *f, const struct sl_exp_result *r)
{
	const struct sl_experiment *e = r->exp;
	int misses, published;
	char pub[256];

	fputs(sdet_disclaimer, f);
	fputs("Results are shown as percentages of the first set displayed\n", f);
	for (int row = 0; row < e->nrows; row++) {
		if (e->rows[row].kind == SL_ROW_SECTION) {
			fprintf(f, "\n%s\n", e->rows[row].label);
			continue;
		}
		struct grid g;
		int width[4], gap[4] = { 4, 4, 4, 0 };
		grid_init(&g, 1 + e->ncols, 4);
		grid_set(&g, 0, 1, "Throughput");
		grid_set(&g, 0, 2, "Std. Dev");
		grid_set(&g, 0, 3, "published");
		for (int c = 0; c < e->ncols; c++) {
			const struct sl_exp_cell_result *x = sl_exp_cell(r, row, c);
			grid_set(&g, 1 + c, 0, "%s", e->cols[c].label);
			grid_set(&g, 1 + c, 1, "%.1f%%", x->value);
			if (e->rows[row].kind == SL_ROW_DATA)
				grid_set(&g, 1 + c, 2, "%.1f%%", x->sd_pct);
			published_text(pub, sizeof(pub), &e->rows[row].cells[c], x->miss);
			grid_set(&g, 1 + c, 3, "%s", pub);
		}
		fprintf(f, "\nSDET %s (see disclaimer)\n", e->rows[row].label);
		grid_widths(&g, width);
		grid_print(f, &g, 0, width, gap);
		grid_free(&g);
	}
	count_misses(r, &misses, &published);
	exp_footer(f, r, misses, published);
}

/* Hansen's shape: a block per column, "Scripts | Average Throughput |
 * Standard Deviation" with a line per row. */
static void exp_sdet_abs(FILE *f, const struct sl_exp_result *r)
{
	const struct sl_experiment *e = r->exp;
	int misses, published;
	char pub[256];

	fputs(sdet_disclaimer, f);
	for (int c = 0; c < e->ncols; c++) {
		struct grid g;
		int width[4], gap[4] = { 4, 4, 4, 0 }, line = 1;
		grid_init(&g, 1 + e->nrows, 4);
		grid_set(&g, 0, 0, "Scripts");
		grid_set(&g, 0, 1, "Average Throughput");
		grid_set(&g, 0, 2, "Standard Deviation");
		grid_set(&g, 0, 3, "published");
		for (int row = 0; row < e->nrows; row++) {
			const struct sl_exp_cell_result *x = sl_exp_cell(r, row, c);
			if (e->rows[row].kind != SL_ROW_DATA)
				continue;
			grid_set(&g, line, 0, "%s", e->rows[row].label);
			grid_set(&g, line, 1, "%.1f", x->sim.mean);
			grid_set(&g, line, 2, "%.1f", x->sim.sd);
			published_text(pub, sizeof(pub), &e->rows[row].cells[c], x->miss);
			grid_set(&g, line++, 3, "%s", pub);
		}
		g.nrows = line;
		fprintf(f, "\n%s (%s)\n", e->cols[c].label, sl_exp_cell(r, 0, c)->unit);
		grid_widths(&g, width);
		grid_print(f, &g, 0, width, gap);
		g.nrows = 1 + e->nrows;
		grid_free(&g);
	}
	count_misses(r, &misses, &published);
	exp_footer(f, r, misses, published);
}

void sl_out_exp_table(FILE *f, const struct sl_exp_result *r)
{
	exp_header(f, r);
	if (r->exp->shape == SL_SHAPE_SDET && r->exp->form == SL_FORM_PCT_FIRST)
		exp_sdet_pct(f, r);
	else if (r->exp->shape == SL_SHAPE_SDET)
		exp_sdet_abs(f, r);
	else
		exp_grid(f, r);
}

static void score_line(FILE *f, const char *name, int width, const struct sl_exp_score *s)
{
	fprintf(f, "  %-*s %4d of %4d", width, name, s->within, s->published);
	if (s->published)
		fprintf(f, "  %5.1f %%", 100.0 * s->within / s->published);
	fputc('\n', f);
}

void sl_out_exp_scoreboard(FILE *f, const struct sl_exp_result *r, int n)
{
	struct sl_exp_score all = { 0 }, s;
	int width = 3;

	for (int i = 0; i < n; i++)
		if ((int)strlen(r[i].exp->name) > width)
			width = (int)strlen(r[i].exp->name);
	fprintf(f, "scoreboard: published cells within tolerance\n");
	for (int i = 0; i < n; i++) {
		sl_exp_result_score(&r[i], &s);
		score_line(f, r[i].exp->name, width, &s);
		all.published += s.published;
		all.within += s.within;
	}
	score_line(f, "all", width, &all);
}

/* ---- `run` in the SDET shapes ---- */

/* The values of `metric` per cell; NULL entries where a cell lacks it. */
static void sdet_summary(const struct sl_sweep *s, int cell, const char *metric,
			 struct sl_summary *sum, char *unit, size_t unit_size)
{
	double *values = sl_xcalloc((unsigned long)s->reps, sizeof(*values));
	int n = 0;

	for (int rep = 0; rep < s->reps; rep++) {
		const struct sl_metric *m = sl_metrics_find(sl_sweep_metrics(s, cell, rep), metric);
		if (!m)
			continue;
		values[n++] = m->value;
		snprintf(unit, unit_size, "%s", m->unit);
	}
	memset(sum, 0, sizeof(*sum));
	sum->mean = sum->sd = NAN;
	if (n)
		sl_summarize(values, n, sum);
	free(values);
}

void sl_out_run_sdet(FILE *f, const struct sl_sweep *s, const char *metric, bool percent)
{
	struct sl_summary first, sum;
	char unit[24] = "";
	struct grid g;
	int width[3], gap[3] = { 4, 4, 0 };

	fputs(sdet_disclaimer, f);
	if (percent)
		fputs("Results are shown as percentages of the first set displayed\n", f);
	fprintf(f, "\n%s on %s, %d repetitions (seeds %llu-%llu)\n",
		s->ncells ? s->cells[0]->workload_text : "-", s->machine.name, s->reps,
		(unsigned long long)s->seed, (unsigned long long)(s->seed + (uint64_t)s->reps - 1));
	grid_init(&g, 1 + s->ncells, 3);
	grid_set(&g, 0, 0, percent ? "" : "Kernel");
	grid_set(&g, 0, 1, percent ? "Throughput" : "Average Throughput");
	grid_set(&g, 0, 2, percent ? "Std. Dev" : "Standard Deviation");
	if (s->ncells)
		sdet_summary(s, 0, metric, &first, unit, sizeof(unit));
	for (int c = 0; c < s->ncells; c++) {
		sdet_summary(s, c, metric, &sum, unit, sizeof(unit));
		grid_set(&g, 1 + c, 0, "%s", s->cells[c]->label);
		if (percent) {
			grid_set(&g, 1 + c, 1, "%.1f%%", 100.0 * sum.mean / first.mean);
			grid_set(&g, 1 + c, 2, "%.1f%%", 100.0 * sum.sd / first.mean);
		} else {
			grid_set(&g, 1 + c, 1, "%.1f", sum.mean);
			grid_set(&g, 1 + c, 2, "%.1f", sum.sd);
		}
	}
	grid_widths(&g, width);
	grid_print(f, &g, 0, width, gap);
	if (!percent && *unit)
		fprintf(f, "(%s: %s)\n", metric, unit);
	grid_free(&g);
}
