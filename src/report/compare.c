/*
 * compare.c - reading saved results into cells and printing them side by
 * side (compare.h).
 */
#include "report/compare.h"

#include <json.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "base/json_text.h"
#include "base/readfile.h"
#include "report/compare_stats.h"
#include "report/json_member.h"
#include "report/stats.h"

/* ---- cells ---- */

static struct sl_cmp_cell *cell_get(struct sl_cmp_file *f, const char *group,
				    const char *column, const char *metric)
{
	size_t len = strlen(group) + strlen(column) + strlen(metric) + 3;
	char *key = sl_xmalloc(len);
	int added, *slot;

	snprintf(key, len, "%s\x1f%s\x1f%s", group, column, metric);
	slot = sl_strmap_find(&f->map, key, strlen(key));
	if (slot) {
		free(key);
		return &f->cells[*slot];
	}
	f->cells = sl_xrealloc(f->cells, sizeof(*f->cells) * (unsigned long)(f->ncells + 1));
	struct sl_cmp_cell *c = &f->cells[f->ncells];
	memset(c, 0, sizeof(*c));
	c->key = key;
	c->group = sl_xstrdup(group);
	c->column = sl_xstrdup(column);
	c->metric = sl_xstrdup(metric);
	slot = sl_strmap_put(&f->map, key, strlen(key), &added);
	*slot = f->ncells++;
	return c;
}

static void cell_add(struct sl_cmp_cell *c, double v, const char *unit)
{
	if (unit && !c->unit[0])
		snprintf(c->unit, sizeof(c->unit), "%s", unit);
	if (!isfinite(v))	/* written as null: nothing to test */
		return;
	if (c->n == c->cap) {
		c->cap = c->cap ? 2 * c->cap : 8;
		c->v = sl_xrealloc(c->v, sizeof(*c->v) * (unsigned long)c->cap);
	}
	c->v[c->n++] = v;
}

/* ---- reading ---- */

/* A number, or null (a value that was not finite): NaN.  -1 otherwise. */
static int number_of(struct json_object *v, double *out)
{
	if (!v) {
		*out = NAN;
		return 0;
	}
	if (!json_object_is_type(v, json_type_double) && !json_object_is_type(v, json_type_int))
		return -1;
	*out = json_object_get_double(v);
	return 0;
}

/* `run` and `real`: one row per repetition of a (workload, policy). */
static int load_runs(struct sl_cmp_file *f, struct json_object *root, struct json_object *runs,
		     struct sl_err *err)
{
	const char *root_workload = sl_json_str_member(root, "workload");
	const char *root_machine = sl_json_str_member(root, "machine");
	size_t nruns = json_object_array_length(runs);
	bool machines = false;

	f->kind = "run";
	for (size_t i = 0; i < nruns; i++) {	/* rows on several machines? */
		const char *m = sl_json_str_member(json_object_array_get_idx(runs, i), "machine");
		if (m && root_machine && strcmp(m, root_machine))
			machines = true;
		if (m && !root_machine)
			root_machine = m;
	}
	snprintf(f->machine, sizeof(f->machine), "%s", root_machine ? root_machine : "?");
	for (size_t i = 0; i < nruns; i++) {
		struct json_object *r = json_object_array_get_idx(runs, i), *metrics, *units;
		const char *policy = sl_json_str_member(r, "policy");
		const char *spec = sl_json_str_member(r, "policy_spec");
		const char *workload = sl_json_str_member(r, "workload");
		const char *machine = sl_json_str_member(r, "machine");
		char group[1024];

		if (!workload)
			workload = root_workload;
		metrics = sl_json_member(r, "metrics", json_type_object);
		units = sl_json_member(r, "units", json_type_object);
		if (!policy || !workload || !metrics)
			return sl_fail(err, "%s: runs[%zu]: expected \"policy\", \"workload\" and "
				       "\"metrics\" (a result of schedlab run -o json)", f->path, i);
		if (spec && !strcmp(spec, "real"))
			f->kind = "real";
		snprintf(group, sizeof(group), "%s%s%s", machines && machine ? machine : "",
			 machines && machine ? " " : "", workload);
		json_object_object_foreach(metrics, name, val) {
			double v;
			if (number_of(val, &v))
				return sl_fail(err, "%s: runs[%zu].metrics.%s: expected a number or "
					       "null", f->path, i, name);
			cell_add(cell_get(f, group, policy, name), v,
				 units ? sl_json_str_member(units, name) : NULL);
		}
	}
	return 0;
}

/* The metric of column `c` of an experiment whose columns are metrics. */
static const char *column_metric(struct json_object *exp, size_t c)
{
	struct json_object *cols = sl_json_member(exp, "columns", json_type_array);

	if (!cols || c >= json_object_array_length(cols))
		return NULL;
	return sl_json_str_member(json_object_array_get_idx(cols, c), "metric");
}

/* One data row of an experiment: a cell per column. */
static int load_exp_row(struct sl_cmp_file *f, struct json_object *exp, const char *name,
			const char *prefix, struct json_object *row, size_t ir, struct sl_err *err)
{
	const char *kind = sl_json_str_member(row, "kind"), *workload = sl_json_str_member(row, "workload");
	const char *metric = sl_json_str_member(row, "metric"), *unit = sl_json_str_member(row, "unit");
	struct json_object *cells = sl_json_member(row, "cells", json_type_array);
	char group[1024];

	if (!kind || strcmp(kind, "data"))
		return 0;	/* sections and geometric means carry no samples */
	if (!workload || !cells)
		return sl_fail(err, "%s: experiment '%s' rows[%zu]: expected \"workload\" and "
			       "\"cells\"", f->path, name, ir);
	snprintf(group, sizeof(group), "%s%s", prefix, workload);
	for (size_t c = 0; c < json_object_array_length(cells); c++) {
		struct json_object *cell = json_object_array_get_idx(cells, c), *sim, *values;
		const char *column = sl_json_str_member(cell, "column");
		const char *m = metric ? metric : column_metric(exp, c);
		if (!column)
			return sl_fail(err, "%s: experiment '%s' rows[%zu].cells[%zu]: expected "
				       "\"column\"", f->path, name, ir, c);
		sim = sl_json_member(cell, "simulated", json_type_object);
		values = sim ? sl_json_member(sim, "values", json_type_array) : NULL;
		if (!values)
			continue;
		/* derived forms: the row's unit is that of the derived value
		 * (%), not of the samples */
		if (json_object_object_get_ex(cell, "value", NULL))
			unit = NULL;
		struct sl_cmp_cell *x = cell_get(f, group, column, m ? m : "value");
		for (size_t k = 0; k < json_object_array_length(values); k++) {
			double v;
			if (number_of(json_object_array_get_idx(values, k), &v))
				return sl_fail(err, "%s: experiment '%s' rows[%zu].cells[%zu]: "
					       "values[%zu]: expected a number or null", f->path,
					       name, ir, c, k);
			cell_add(x, v, unit);
		}
	}
	return 0;
}

/* How many experiments of the file bear `name`. */
static int name_count(struct json_object *exps, const char *name)
{
	int n = 0;

	for (size_t i = 0; i < json_object_array_length(exps); i++) {
		const char *x = sl_json_str_member(json_object_array_get_idx(exps, i), "name");
		n += x && !strcmp(x, name);
	}
	return n;
}

static int load_experiments(struct sl_cmp_file *f, struct json_object *exps, struct sl_err *err)
{
	size_t n = json_object_array_length(exps);

	f->kind = "reproduce";
	for (size_t i = 0; i < n; i++) {
		struct json_object *e = json_object_array_get_idx(exps, i);
		const char *name = sl_json_str_member(e, "name"), *machine = sl_json_str_member(e, "machine");
		struct json_object *rows = sl_json_member(e, "rows", json_type_array);
		char prefix[512] = "";
		if (!name || !rows)
			return sl_fail(err, "%s: experiments[%zu]: expected \"name\" and \"rows\" (a "
				       "result of schedlab reproduce -o json)", f->path, i);
		if (!f->machine[0] && machine)
			snprintf(f->machine, sizeof(f->machine), "%s", machine);
		/* one experiment: its rows match a run's workloads; several:
		 * named apart (one experiment on several machines: by machine) */
		if (name_count(exps, name) > 1)
			snprintf(prefix, sizeof(prefix), "%s on %s: ", name, machine ? machine : "?");
		else if (n > 1)
			snprintf(prefix, sizeof(prefix), "%s: ", name);
		for (size_t r = 0; r < json_object_array_length(rows); r++)
			if (load_exp_row(f, e, name, prefix, json_object_array_get_idx(rows, r), r,
					 err))
				return -1;
	}
	return 0;
}

int sl_cmp_load_text(struct sl_cmp_file *f, const char *path, const char *text,
		     struct sl_err *err)
{
	struct json_object *root, *runs, *exps;
	int rc = -1;

	memset(f, 0, sizeof(*f));
	f->path = sl_xstrdup(path);
	root = sl_json_parse_text(path, text, strlen(text), err);
	if (!root)
		return -1;
	if (!json_object_is_type(root, json_type_object))
		sl_fail(err, "%s: expected a JSON object (a result of run, real or reproduce "
			"-o json)", path);
	else if (json_object_object_get_ex(root, "schedlab_shard", NULL))
		sl_fail(err, "%s: a shard of a run (merge the shards first: schedlab merge)", path);
	else if ((runs = sl_json_member(root, "runs", json_type_array)))
		rc = load_runs(f, root, runs, err);
	else if ((exps = sl_json_member(root, "experiments", json_type_array)))
		rc = load_experiments(f, exps, err);
	else
		sl_fail(err, "%s: neither \"runs\" nor \"experiments\" (expected a result of run, "
			"real or reproduce -o json)", path);
	if (!rc && !f->ncells)
		rc = sl_fail(err, "%s: no results in it", path);
	json_object_put(root);
	return rc;
}

int sl_cmp_load(struct sl_cmp_file *f, const char *path, struct sl_err *err)
{
	size_t len;
	int rc;

	memset(f, 0, sizeof(*f));
	char *text = sl_read_text(path, SL_CMP_MAX_FILE, path,
				  "a result of run, real or reproduce -o json", &len, err);
	if (!text)
		return -1;
	rc = sl_cmp_load_text(f, path, text, err);
	free(text);
	return rc;
}

void sl_cmp_free(struct sl_cmp_file *f)
{
	for (int i = 0; i < f->ncells; i++) {
		free(f->cells[i].key);
		free(f->cells[i].group);
		free(f->cells[i].column);
		free(f->cells[i].metric);
		free(f->cells[i].v);
	}
	free(f->cells);
	sl_strmap_free(&f->map);
	free(f->path);
	memset(f, 0, sizeof(*f));
}

/* ---- matching ---- */

static const struct sl_cmp_cell *find(const struct sl_cmp_file *f, const char *group,
				      const char *column, const char *metric)
{
	size_t len = strlen(group) + strlen(column) + strlen(metric) + 3;
	char *key = sl_xmalloc(len);
	const int *slot;

	snprintf(key, len, "%s\x1f%s\x1f%s", group, column, metric);
	slot = sl_strmap_find((struct sl_strmap *)&f->map, key, strlen(key));
	free(key);
	return slot ? &f->cells[*slot] : NULL;
}

/* The one column `f` has in `group`, or NULL if it has none or several. */
static const char *only_column(const struct sl_cmp_file *f, const char *group)
{
	const char *col = NULL;

	for (int i = 0; i < f->ncells; i++) {
		if (strcmp(f->cells[i].group, group))
			continue;
		if (col && strcmp(col, f->cells[i].column))
			return NULL;
		col = f->cells[i].column;
	}
	return col;
}

static const struct sl_cmp_cell *match(const struct sl_cmp_file *f, const struct sl_cmp_cell *b)
{
	const struct sl_cmp_cell *c = find(f, b->group, b->column, b->metric);
	const char *col;

	if (c)
		return c;
	col = only_column(f, b->group);
	return col ? find(f, b->group, col, b->metric) : NULL;
}

static bool wanted(const char *metric, const char *const *metrics, int nmetrics)
{
	for (int i = 0; i < nmetrics; i++)
		if (!strcmp(metric, metrics[i]))
			return true;
	return !nmetrics;
}

/* ---- printing ---- */

#define LABEL_W 28
#define VALUE_W 12

static void print_value(FILE *out, double v)
{
	if (isfinite(v))
		fprintf(out, " %*.*g", VALUE_W, 6, v);
	else
		fprintf(out, " %*s", VALUE_W, "-");
}

/* The mmtests marks: "(  1.23%)" not significant, "*  1.23%*" significant,
 * and "[  1.23%]" not tested (fewer than two repetitions on a side). */
static void print_diff(FILE *out, const struct sl_cmp_cell *base, const struct sl_cmp_cell *c)
{
	double mb = sl_stats_mean(base->v, base->n), mc = sl_stats_mean(c->v, c->n);
	double pct = 100.0 * (mc - mb) / fabs(mb);
	struct sl_welch w;
	char open = '(', close = ')';

	sl_welch_test(base->v, base->n, c->v, c->n, &w);
	if (!w.testable)
		open = '[', close = ']';
	else if (w.significant)
		open = close = '*';
	if (mb == mc)
		pct = 0.0;
	if (isfinite(pct))
		fprintf(out, " %c%8.2f%%%c", open, pct, close);
	else
		fprintf(out, " %c%9s%c", open, "-", close);
}

static void print_header(FILE *out, const struct sl_cmp_file *files, int n)
{
	fprintf(out, "# schedlab compare: mean of the repetitions; difference to the baseline "
		"in percent, (B - A) / |A|\n");
	fprintf(out, "# significance: Welch's t-test, two-sided, alpha %.2f (as mmtests' "
		"compare-kernels.sh): *x%%* significant, (x%%) not, [x%%] untested (n < 2)\n",
		SL_CMP_ALPHA);
	for (int i = 0; i < n; i++)
		fprintf(out, "# %s %s: %s, %s\n", i ? "file" : "baseline",
			files[i].path, files[i].kind, files[i].machine);
	fprintf(out, "%-*s", LABEL_W + 10, "");
	for (int i = 0; i < n; i++) {
		const char *p = strrchr(files[i].path, '/');
		p = p ? p + 1 : files[i].path;
		if (i + 1 < n)
			fprintf(out, " %-*.*s", VALUE_W + 12, VALUE_W + 12, p);
		else
			fprintf(out, " %.*s", VALUE_W + 12, p);
	}
	fputc('\n', out);
}

/* The baseline's cells in print order: by group and, within it, by
 * metric, each in order of first appearance, then the columns in order. */
struct rank {
	int group, metric, index;
};

static int rank_cmp(const void *pa, const void *pb)
{
	const struct rank *a = pa, *b = pb;

	if (a->group != b->group)
		return a->group < b->group ? -1 : 1;
	if (a->metric != b->metric)
		return a->metric < b->metric ? -1 : 1;
	return (a->index > b->index) - (a->index < b->index);
}

static struct rank *print_order(const struct sl_cmp_file *f)
{
	struct rank *r = sl_xcalloc((unsigned long)f->ncells + 1, sizeof(*r));
	struct sl_strmap groups = { 0 }, metrics = { 0 };
	int ngroups = 0, nmetrics = 0, added;

	for (int i = 0; i < f->ncells; i++) {
		const struct sl_cmp_cell *c = &f->cells[i];
		/* the metric's rank counts across groups: first appearance
		 * overall orders them within every group alike */
		int *g = sl_strmap_put(&groups, c->group, strlen(c->group), &added);
		if (added)
			*g = ngroups++;
		int *m = sl_strmap_put(&metrics, c->metric, strlen(c->metric), &added);
		if (added)
			*m = nmetrics++;
		r[i] = (struct rank){ *g, *m, i };
	}
	qsort(r, (size_t)f->ncells, sizeof(*r), rank_cmp);
	sl_strmap_free(&groups);
	sl_strmap_free(&metrics);
	return r;
}

static int print_rows(FILE *out, const struct sl_cmp_file *files, int n,
		      const char *const *metrics, int nmetrics)
{
	const struct sl_cmp_file *base = &files[0];
	const char *group = NULL, *metric = NULL;
	struct rank *order = print_order(base);
	int printed = 0;

	for (int i = 0; i < base->ncells; i++) {
		const struct sl_cmp_cell *b = &base->cells[order[i].index];
		if (!b->n || !wanted(b->metric, metrics, nmetrics))
			continue;
		if (!group || strcmp(group, b->group) || strcmp(metric, b->metric)) {
			fprintf(out, "\n%s  %s%s%s%s\n", b->group, b->metric, b->unit[0] ? " (" : "",
				b->unit, b->unit[0] ? ")" : "");
			group = b->group;
			metric = b->metric;
		}
		fprintf(out, "Amean     %-*.*s", LABEL_W, LABEL_W, b->column);
		print_value(out, sl_stats_mean(b->v, b->n));
		fprintf(out, " (%8.2f%%)", 0.0);
		for (int k = 1; k < n; k++) {
			const struct sl_cmp_cell *c = match(&files[k], b);
			if (!c || !c->n) {
				print_value(out, NAN);
				fprintf(out, " %11s", "");
				continue;
			}
			print_value(out, sl_stats_mean(c->v, c->n));
			print_diff(out, b, c);
		}
		fputc('\n', out);
		printed++;
	}
	free(order);
	return printed;
}

int sl_cmp_print(FILE *out, const struct sl_cmp_file *files, int n,
		 const char *const *metrics, int nmetrics, struct sl_err *err)
{
	for (int m = 0; m < nmetrics; m++) {
		bool any = false;
		for (int i = 0; i < files[0].ncells && !any; i++)
			any = !strcmp(files[0].cells[i].metric, metrics[m]);
		if (!any)
			return sl_fail(err, "compare: --metric '%s': the baseline %s has no such "
				       "metric", metrics[m], files[0].path);
	}
	for (int k = 1; k < n; k++) {
		bool any = false;
		for (int i = 0; i < files[0].ncells && !any; i++)
			any = wanted(files[0].cells[i].metric, metrics, nmetrics) &&
			      match(&files[k], &files[0].cells[i]);
		if (!any)
			return sl_fail(err, "compare: %s has no cell in common with the baseline %s "
				       "(expected the same workloads and policies, or one column)",
				       files[k].path, files[0].path);
	}
	print_header(out, files, n);
	print_rows(out, files, n, metrics, nmetrics);
	return 0;
}
