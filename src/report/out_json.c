/*
 * out_json.c - JSON output of `run` and `reproduce` (shapes in output.h).
 * Numbers are written with ten significant digits; a value that is not
 * finite is written as null.
 */
#include "report/output.h"

#include <json.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

static struct json_object *number(double v)
{
	char buf[40];

	if (!isfinite(v))
		return NULL;
	snprintf(buf, sizeof(buf), "%.10g", v);
	return json_object_new_double_s(v, buf);
}

static void put(struct json_object *obj, const char *key, struct json_object *v)
{
	json_object_object_add(obj, key, v);
}

static void put_str(struct json_object *obj, const char *key, const char *s)
{
	put(obj, key, json_object_new_string(s));
}

static void print(FILE *f, struct json_object *root)
{
	fputs(json_object_to_json_string_ext(root, JSON_C_TO_STRING_PRETTY |
					     JSON_C_TO_STRING_SPACED |
					     JSON_C_TO_STRING_NOSLASHESCAPE), f);
	fputc('\n', f);
	json_object_put(root);
}

static struct json_object *summary_object(const struct sl_summary *s, const char *unit)
{
	struct json_object *o = json_object_new_object();

	put(o, "mean", number(s->mean));
	put(o, "sd", number(s->sd));
	put(o, "min", number(s->min));
	put(o, "max", number(s->max));
	put(o, "median", number(s->median));
	put(o, "n", json_object_new_int(s->n));
	if (unit)
		put_str(o, "unit", unit);
	return o;
}

/* ---- `run` (docs/experiments.md "Result formats") ---- */

#define SCHEMA_VERSION 1

/* The workload's parameters as bound: text, or null where derived. */
static struct json_object *params_object(const struct sl_params *p)
{
	struct json_object *o = json_object_new_object();

	for (int k = 0; k < p->n; k++)
		put(o, p->defs[k].name, p->text[k] ? json_object_new_string(p->text[k]) : NULL);
	return o;
}

static void put_coordinates(struct json_object *o, const struct sl_sweep *s, int cell)
{
	put_str(o, "machine", s->machine.name);
	put_str(o, "workload", s->cells[cell]->workload_text);
}

static struct json_object *run_object(const struct sl_sweep *s, int cell, int rep)
{
	const struct sl_metrics *ms = sl_sweep_metrics(s, cell, rep);
	struct json_object *o = json_object_new_object();
	struct json_object *metrics = json_object_new_object();
	struct json_object *units = json_object_new_object();

	put_coordinates(o, s, cell);
	put_str(o, "policy", s->cells[cell]->label);
	put_str(o, "policy_spec", s->cells[cell]->policy_text);
	put(o, "rep", json_object_new_int(rep));
	put(o, "seed", json_object_new_uint64(s->seed + (uint64_t)rep));
	for (int i = 0; i < ms->n; i++) {
		put(metrics, ms->m[i].name, number(ms->m[i].value));
		put_str(units, ms->m[i].name, ms->m[i].unit);
	}
	put(o, "metrics", metrics);
	put(o, "units", units);
	return o;
}

static struct json_object *values_array(const double *v, int n);

/* Per metric of the cell's first run: the summary over its repetitions,
 * with the values themselves when `with_values`. */
static struct json_object *cell_summary(const struct sl_sweep *s, int cell, bool with_values)
{
	const struct sl_metrics *first = sl_sweep_metrics(s, cell, 0);
	struct json_object *o = json_object_new_object();
	double *values = sl_xcalloc((unsigned long)s->reps, sizeof(*values));

	for (int i = 0; i < first->n; i++) {
		const struct sl_metric *m = &first->m[i];
		struct sl_summary sum;
		struct json_object *x;
		int n = 0;
		for (int rep = 0; rep < s->reps; rep++) {
			const struct sl_metric *v =
				sl_metrics_find(sl_sweep_metrics(s, cell, rep), m->name);
			if (v)
				values[n++] = v->value;
		}
		sl_summarize(values, n, &sum);
		if (with_values) {
			x = json_object_new_object();
			put_str(x, "unit", m->unit);
			put(x, "values", values_array(values, n));
			struct json_object *tmp = summary_object(&sum, NULL);
			json_object_object_foreach(tmp, k, v) {
				put(x, k, json_object_get(v));
			}
			json_object_put(tmp);
		} else {
			x = summary_object(&sum, m->unit);
		}
		put(o, m->name, x);
	}
	free(values);
	return o;
}

static struct json_object *cell_object(const struct sl_sweep *s, int cell, int index)
{
	struct json_object *o = json_object_new_object();

	put(o, "index", json_object_new_int(index));
	put_coordinates(o, s, cell);
	put(o, "params", params_object(&s->cells[cell]->params));
	put_str(o, "policy", s->cells[cell]->label);
	put_str(o, "policy_spec", s->cells[cell]->policy_text);
	put(o, "metrics", cell_summary(s, cell, true));
	return o;
}

/* A plain run (one machine, one workload) also gets the keys it had
 * before the sweeps: machine, machine_summary, workload, summary. */
static void put_plain(struct json_object *root, const struct sl_sweep_plan *p)
{
	const struct sl_sweep *s = p->sweeps[0];
	struct json_object *summary = json_object_new_object();

	put_str(root, "machine", s->machine.name);
	put_str(root, "machine_summary", s->machine.summary);
	put_str(root, "workload", p->nrows ? p->rows[0] : "");
	for (int c = 0; c < s->ncells; c++)
		put(summary, s->cells[c]->label, cell_summary(s, c, false));
	put(root, "summary", summary);
}

void sl_out_plan_json(FILE *f, const struct sl_sweep_plan *p)
{
	struct json_object *root = json_object_new_object();
	struct json_object *machines = json_object_new_array();
	struct json_object *cells = json_object_new_array();
	struct json_object *runs = json_object_new_array();
	const struct sl_sweep *s;
	int cell;

	put(root, "schema_version", json_object_new_int(SCHEMA_VERSION));
	put(root, "seed", json_object_new_uint64(p->sweeps[0]->seed));
	put(root, "reps", json_object_new_int(p->sweeps[0]->reps));
	put(root, "ncells", json_object_new_int(p->ncells));
	for (int m = 0; m < p->nmachines; m++) {
		struct json_object *o = json_object_new_object();
		put_str(o, "name", p->sweeps[m]->machine.name);
		put_str(o, "summary", p->sweeps[m]->machine.summary);
		json_object_array_add(machines, o);
	}
	put(root, "machines", machines);
	for (int i = 0; i < p->ncells; i++) {
		if (!sl_sweep_plan_get(p, i, &s, &cell))
			continue;
		json_object_array_add(cells, cell_object(s, cell, i));
		for (int rep = 0; rep < s->reps; rep++)
			json_object_array_add(runs, run_object(s, cell, rep));
	}
	put(root, "cells", cells);
	put(root, "runs", runs);
	if (p->nmachines == 1 && p->nrows == 1)
		put_plain(root, p);
	print(f, root);
}

void sl_out_run_json(FILE *f, const struct sl_sweep *s)
{
	struct sl_sweep_plan p;

	sl_sweep_plan_wrap(&p, s);
	sl_out_plan_json(f, &p);
	sl_sweep_plan_free(&p);
}

/* ---- `reproduce` ---- */

static const char *const form_names[] = {
	[SL_FORM_VALUES] = "values",
	[SL_FORM_SPEEDUP] = "speedup",
	[SL_FORM_PCT_FIRST] = "percent_of_first",
};

static const char *const row_kinds[] = {
	[SL_ROW_DATA] = "data",
	[SL_ROW_SECTION] = "section",
	[SL_ROW_GEOMEAN] = "geomean",
};

static struct json_object *values_array(const double *v, int n)
{
	struct json_object *a = json_object_new_array();

	for (int i = 0; i < n; i++)
		json_object_array_add(a, number(v[i]));
	return a;
}

/* The derived value of a cell: speed-up or percent of the first column
 * (its range or sd), or a geometric mean. */
static void put_derived(struct json_object *o, const struct sl_exp_result *r, int row,
			const struct sl_exp_cell_result *res)
{
	struct json_object *range = json_object_new_array();

	put(o, "value", number(res->value));
	json_object_array_add(range, number(res->lo));
	json_object_array_add(range, number(res->hi));
	put(o, "range", range);
	if (r->exp->form == SL_FORM_PCT_FIRST && r->exp->rows[row].kind == SL_ROW_DATA)
		put(o, "sd_pct", number(res->sd_pct));
	if (r->exp->form == SL_FORM_SPEEDUP && r->exp->rows[row].kind == SL_ROW_DATA) {
		struct json_object *base = summary_object(&res->base, NULL);
		put(base, "values", values_array(res->base_values, r->reps));
		put(o, "compare", base);
	}
}

static struct json_object *exp_cell_object(const struct sl_exp_result *r, int row, int col)
{
	const struct sl_experiment *e = r->exp;
	const struct sl_exp_cell *pub = &e->rows[row].cells[col];
	const struct sl_exp_cell_result *res = sl_exp_cell(r, row, col);
	struct json_object *o = json_object_new_object();
	struct json_object *sim = NULL, *published = NULL;

	if (res->values) {
		sim = summary_object(&res->sim, NULL);
		put(sim, "values", values_array(res->values, r->reps));
	}
	if (pub->npublished) {
		published = json_object_new_array();
		for (int k = 0; k < pub->npublished; k++)
			json_object_array_add(published, number(pub->published[k]));
	}
	put_str(o, "column", e->cols[col].label);
	put(o, "simulated", sim);
	if (res->derived)
		put_derived(o, r, row, res);
	put(o, "published", published);
	if (pub->interval)
		put(o, "published_interval", json_object_new_boolean(true));
	put(o, "miss", json_object_new_boolean(res->miss));
	return o;
}

/* The parameters a row's workload spec binds (the loader checked it). */
static struct json_object *workload_params(const char *spec)
{
	const struct sl_workload_ops *ops;
	struct sl_params *params = sl_xmalloc(sizeof(*params));
	struct sl_err err = { 0 };
	struct json_object *o = NULL;

	if (!sl_workload_parse(spec, &ops, params, &err))
		o = params_object(params);
	free(params);
	return o;
}

static struct json_object *exp_row_object(const struct sl_exp_result *r, int row)
{
	const struct sl_exp_row *er = &r->exp->rows[row];
	struct json_object *o = json_object_new_object();
	struct json_object *cells;

	put_str(o, "kind", row_kinds[er->kind]);
	put_str(o, "label", er->label);
	if (er->kind == SL_ROW_SECTION)
		return o;
	if (er->kind == SL_ROW_DATA) {
		put_str(o, "workload", er->workload);
		put(o, "params", workload_params(er->workload));
		if (er->metric)
			put_str(o, "metric", er->metric);
	}
	put_str(o, "unit", sl_exp_cell(r, row, 0)->derived ? "%" : sl_exp_cell(r, row, 0)->unit);
	cells = json_object_new_array();
	for (int c = 0; c < r->exp->ncols; c++)
		json_object_array_add(cells, exp_cell_object(r, row, c));
	put(o, "cells", cells);
	return o;
}

static struct json_object *exp_object(const struct sl_exp_result *r)
{
	const struct sl_experiment *e = r->exp;
	struct json_object *o = json_object_new_object();
	struct json_object *cols = json_object_new_array();
	struct json_object *rows = json_object_new_array();
	struct json_object *notes = json_object_new_array();

	put_str(o, "name", e->name);
	put_str(o, "path", e->path);
	put_str(o, "title", e->title);
	put(o, "source", e->source ? json_object_new_string(e->source) : NULL);
	put_str(o, "machine", e->machine);
	put_str(o, "machine_summary", r->sweep->machine.summary);
	put_str(o, "form", form_names[e->form]);
	if (e->form == SL_FORM_PCT_FIRST)
		put_str(o, "percent_of", sl_stat_name(e->pct_stat));
	if (e->compare) {
		put_str(o, "compare", e->compare);
		put_str(o, "compare_summary", r->base_sweep->machine.summary);
	}
	if (e->policy)
		put_str(o, "policy", e->policy);
	put(o, "reps", json_object_new_int(r->reps));
	if (e->form == SL_FORM_VALUES)
		put(o, "tolerance_pct", number(e->tolerance_pct));
	else
		put(o, "tolerance_points", number(e->tolerance_points));
	for (int c = 0; c < e->ncols; c++) {
		struct json_object *col = json_object_new_object();
		put_str(col, "label", e->cols[c].label);
		if (e->cols[c].policy)
			put_str(col, "policy", e->cols[c].policy);
		if (e->cols[c].metric) {
			struct json_object *minus = json_object_new_array();
			put_str(col, "metric", e->cols[c].metric);
			for (int k = 0; k < e->cols[c].nminus; k++)
				json_object_array_add(minus,
						      json_object_new_string(e->cols[c].minus[k]));
			put(col, "minus", minus);
		}
		json_object_array_add(cols, col);
	}
	for (int row = 0; row < e->nrows; row++)
		json_object_array_add(rows, exp_row_object(r, row));
	for (int i = 0; i < e->nnotes; i++)
		json_object_array_add(notes, json_object_new_string(e->notes[i]));
	put(o, "columns", cols);
	put(o, "rows", rows);
	put(o, "notes", notes);
	return o;
}

static struct json_object *score_object(const char *name, const struct sl_exp_score *s)
{
	struct json_object *o = json_object_new_object();

	if (name)
		put_str(o, "name", name);
	put(o, "published", json_object_new_int(s->published));
	put(o, "within", json_object_new_int(s->within));
	return o;
}

/* The scoreboard: per experiment and in all. */
static struct json_object *scoreboard_object(const struct sl_exp_result *r, int n)
{
	struct json_object *o = json_object_new_object();
	struct json_object *per = json_object_new_array();
	struct sl_exp_score all = { 0 }, s;

	for (int i = 0; i < n; i++) {
		sl_exp_result_score(&r[i], &s);
		json_object_array_add(per, score_object(r[i].exp->name, &s));
		all.published += s.published;
		all.within += s.within;
	}
	put(o, "experiments", per);
	put(o, "all", score_object(NULL, &all));
	return o;
}

void sl_out_exp_json(FILE *f, const struct sl_exp_result *r, int n)
{
	struct json_object *root = json_object_new_object();
	struct json_object *exps = json_object_new_array();

	put(root, "schema_version", json_object_new_int(SCHEMA_VERSION));
	for (int i = 0; i < n; i++)
		json_object_array_add(exps, exp_object(&r[i]));
	put(root, "experiments", exps);
	put(root, "scoreboard", scoreboard_object(r, n));
	print(f, root);
}
