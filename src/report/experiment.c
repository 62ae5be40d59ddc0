/*
 * experiment.c - loading and validating experiment files (see experiment.h
 * and docs/experiments.md): the built-in ones by name, a user's by path.
 * Rows and columns with lists (report/spec_list.h) are expanded here, so
 * that everything after the loader sees one row per workload spec and one
 * column per policy spec.
 */
#include "report/experiment.h"

#include <json.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/json_text.h"
#include "base/readfile.h"
#include "base/spec.h"
#include "policy/policy.h"
#include "report/experiment_data.h"
#include "report/experiment_lines.h"
#include "report/spec_list.h"
#include "workload/workload.h"

#define DEFAULT_TOLERANCE_PCT 5.0
#define DEFAULT_TOLERANCE_POINTS 5.0

static const char *const stat_names[] = {
	[SL_STAT_MIN] = "min",
	[SL_STAT_MEDIAN] = "median",
	[SL_STAT_MAX] = "max",
	[SL_STAT_MEAN] = "mean",
	[SL_STAT_SD] = "sd",
};

const char *sl_stat_name(enum sl_stat s)
{
	return stat_names[s];
}

/* Where we are in the file, for messages: "experiments/x.json: rows[2].label". */
struct ctx {
	const char *path;
	const char *text;		/* for the line of a field */
	bool user;			/* a user's file: "source" optional, free text */
	int machine;			/* which machine of a list this table is for */
	struct sl_err *err;
};

/* "path:line: " (or "path: " when the field has no line). */
static void where_prefix(const struct ctx *c, const char *field, char *buf, size_t size)
{
	struct sl_json_lines *lines = c->text ? sl_json_lines_scan(c->text) : NULL;
	int line = lines ? sl_json_lines_find(lines, field) : 0;

	sl_json_lines_free(lines);
	if (line)
		snprintf(buf, size, "%s:%d: ", c->path, line);
	else
		snprintf(buf, size, "%s: ", c->path);
}

/* Prefix an error from a spec parser with where the spec is. */
static void field_prefix(const struct ctx *c, const char *field)
{
	char where[512];

	where_prefix(c, field, where, sizeof(where));
	sl_err_prefix(c->err, "%s%s: ", where, field);
}

static int field_fail(const struct ctx *c, const char *field, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static int field_fail(const struct ctx *c, const char *field, const char *fmt, ...)
{
	char what[384];
	va_list ap;

	char where[512];

	va_start(ap, fmt);
	vsnprintf(what, sizeof(what), fmt, ap);
	va_end(ap);
	where_prefix(c, field, where, sizeof(where));
	return sl_fail(c->err, "%s%s: %s", where, field, what);
}

/* Every key of obj must be in allowed (NULL-terminated). */
static int check_keys(const struct ctx *c, struct json_object *obj, const char *where,
		      const char *const *allowed)
{
	json_object_object_foreach(obj, key, val) {
		bool known = false;
		(void)val;
		for (int i = 0; allowed[i]; i++)
			known |= !strcmp(key, allowed[i]);
		if (!known) {
			char field[160];
			snprintf(field, sizeof(field), "%s%s%s", where, *where ? "." : "", key);
			return field_fail(c, field, "unknown field");
		}
	}
	return 0;
}

static const char *type_name(struct json_object *v)
{
	return json_type_to_name(json_object_get_type(v));
}

/* A string field; *out = NULL when optional and absent. */
static int get_string(const struct ctx *c, struct json_object *obj, const char *key,
		      const char *field, bool required, char **out)
{
	struct json_object *v;

	*out = NULL;
	if (!json_object_object_get_ex(obj, key, &v)) {
		if (required)
			return field_fail(c, field, "missing (expected a string)");
		return 0;
	}
	if (!json_object_is_type(v, json_type_string))
		return field_fail(c, field, "expected a string, got %s", type_name(v));
	if (!json_object_get_string_len(v))
		return field_fail(c, field, "must not be empty");
	*out = sl_xstrdup(json_object_get_string(v));
	return 0;
}

static bool is_number(struct json_object *v)
{
	return json_object_is_type(v, json_type_int) ||
	       json_object_is_type(v, json_type_double);
}

static int get_array(const struct ctx *c, struct json_object *obj, const char *key,
		     bool required, struct json_object **out)
{
	*out = NULL;
	if (!json_object_object_get_ex(obj, key, out)) {
		if (required)
			return field_fail(c, key, "missing (expected a non-empty array)");
		return 0;
	}
	if (!json_object_is_type(*out, json_type_array))
		return field_fail(c, key, "expected an array, got %s", type_name(*out));
	if (required && !json_object_array_length(*out))
		return field_fail(c, key, "must not be empty");
	return 0;
}

static int parse_reps(const struct ctx *c, struct json_object *root, struct sl_experiment *e)
{
	struct json_object *v;

	if (!json_object_object_get_ex(root, "reps", &v))
		return field_fail(c, "reps", "missing (expected an integer >= 1)");
	if (!json_object_is_type(v, json_type_int) || json_object_get_int64(v) < 1 ||
	    json_object_get_int64(v) > 10000)
		return field_fail(c, "reps", "expected an integer in [1, 10000]");
	e->reps = (int)json_object_get_int64(v);
	return 0;
}

/* A number field in [lo, hi]; *out keeps its default when absent. */
static int get_number(const struct ctx *c, struct json_object *root, const char *key,
		      double lo, double hi, double *out)
{
	struct json_object *v;

	if (!json_object_object_get_ex(root, key, &v))
		return 0;
	if (!is_number(v) || !(json_object_get_double(v) >= lo) ||
	    json_object_get_double(v) > hi)
		return field_fail(c, key, "expected a number in [%g, %g]", lo, hi);
	*out = json_object_get_double(v);
	return 0;
}

/* The miss rule: percent of the published value for plain values, points
 * for values that are themselves percentages. */
static int parse_tolerance(const struct ctx *c, struct json_object *root,
			   struct sl_experiment *e)
{
	bool points = e->form != SL_FORM_VALUES;
	const char *wrong = points ? "tolerance_pct" : "tolerance_points";

	if (json_object_object_get_ex(root, wrong, NULL))
		return field_fail(c, wrong, "not used with form '%s' (use %s)",
				  points ? (e->form == SL_FORM_SPEEDUP ? "speedup" : "percent_of_first")
					 : "values",
				  points ? "tolerance_points" : "tolerance_pct");
	e->tolerance_pct = DEFAULT_TOLERANCE_PCT;
	e->tolerance_points = DEFAULT_TOLERANCE_POINTS;
	return get_number(c, root, "tolerance_pct", 0, 100, &e->tolerance_pct) ||
	       get_number(c, root, "tolerance_points", 0, 1000, &e->tolerance_points);
}

/* A string field that must be one of `choices` ('|'-separated); its index. */
static int get_choice(const struct ctx *c, struct json_object *root, const char *key,
		      const char *choices, int *out)
{
	char *text, buf[128];
	int i = 0, rc = -1;

	*out = 0;
	if (get_string(c, root, key, key, false, &text))
		return -1;
	if (!text)
		return 0;
	snprintf(buf, sizeof(buf), "%s", choices);
	for (char *save = NULL, *tok = strtok_r(buf, "|", &save); tok;
	     tok = strtok_r(NULL, "|", &save), i++)
		if (!strcmp(tok, text)) {
			*out = i;
			rc = 0;
		}
	if (rc)
		field_fail(c, key, "'%s' is not one of %s", text, choices);
	free(text);
	return rc;
}

/* form, compare, shape and policy: how cells are computed and shown. */
static int parse_form(const struct ctx *c, struct json_object *root, struct sl_experiment *e)
{
	int form, shape, pct;
	struct sl_params *knobs;
	const struct sl_policy_ops *ops;
	char label[128];

	if (get_choice(c, root, "form", "values|speedup|percent_of_first", &form) ||
	    get_choice(c, root, "shape", "grid|sdet", &shape))
		return -1;
	e->form = (enum sl_exp_form)form;
	e->shape = (enum sl_exp_shape)shape;
	if (get_choice(c, root, "percent_of", "mean|min", &pct))
		return -1;
	e->pct_stat = pct ? SL_STAT_MIN : SL_STAT_MEAN;
	if (e->form != SL_FORM_PCT_FIRST && json_object_object_get_ex(root, "percent_of", NULL))
		return field_fail(c, "percent_of", "only used with form 'percent_of_first'");
	if (get_string(c, root, "compare", "compare", false, &e->compare) ||
	    get_string(c, root, "policy", "policy", false, &e->policy))
		return -1;
	if (e->form == SL_FORM_SPEEDUP && !e->compare)
		return field_fail(c, "compare", "missing (form 'speedup' needs the machine "
				  "to compare with)");
	if (e->form != SL_FORM_SPEEDUP && e->compare)
		return field_fail(c, "compare", "only used with form 'speedup'");
	if (e->policy && e->form != SL_FORM_VALUES)
		return field_fail(c, "policy", "metric columns need form 'values'");
	if (e->policy && e->shape != SL_SHAPE_GRID)
		return field_fail(c, "policy", "metric columns need shape 'grid'");
	if (e->shape == SL_SHAPE_SDET && e->form == SL_FORM_SPEEDUP)
		return field_fail(c, "shape", "'sdet' shows values or percent_of_first");
	if (!e->policy)
		return 0;
	knobs = sl_xmalloc(sizeof(*knobs));
	int rc = sl_policy_parse(e->policy, &ops, knobs, label, sizeof(label), c->err);
	free(knobs);
	if (rc)
		field_prefix(c, "policy");
	return rc;
}

static int parse_show(const struct ctx *c, struct json_object *root, struct sl_experiment *e)
{
	char *text, *save = NULL;
	int rc = 0;

	if (get_string(c, root, "show", "show", false, &text))
		return -1;
	if (!text)
		text = sl_xstrdup("min/median/max");
	e->nshow = 0;
	for (char *tok = strtok_r(text, "/", &save); tok && !rc;
	     tok = strtok_r(NULL, "/", &save)) {
		int found = -1;
		for (int s = 0; s <= SL_STAT_SD; s++)
			if (!strcmp(tok, stat_names[s]))
				found = s;
		if (found < 0)
			rc = field_fail(c, "show", "'%s' is not one of min, median, max, mean, sd",
					tok);
		else if (e->nshow == SL_EXP_MAX_SHOW)
			rc = field_fail(c, "show", "at most %d statistics", SL_EXP_MAX_SHOW);
		else
			e->show[e->nshow++] = (enum sl_stat)found;
	}
	if (!rc && !e->nshow)
		rc = field_fail(c, "show", "expected statistics separated by '/'");
	free(text);
	return rc;
}

/* A metric column: "metric" and optional "minus": [metric, ...]. */
static int parse_metric_column(const struct ctx *c, struct json_object *v, const char *where,
			       struct sl_exp_column *col)
{
	struct json_object *arr;
	char field[64];

	snprintf(field, sizeof(field), "%s.metric", where);
	if (get_string(c, v, "metric", field, true, &col->metric))
		return -1;
	snprintf(field, sizeof(field), "%s.minus", where);
	if (!json_object_object_get_ex(v, "minus", &arr))
		return 0;
	if (!json_object_is_type(arr, json_type_array) || !json_object_array_length(arr) ||
	    json_object_array_length(arr) > SL_EXP_MAX_MINUS)
		return field_fail(c, field, "expected an array of 1 to %d metric names",
				  SL_EXP_MAX_MINUS);
	for (size_t k = 0; k < json_object_array_length(arr); k++) {
		struct json_object *x = json_object_array_get_idx(arr, k);
		if (!json_object_is_type(x, json_type_string) || !json_object_get_string_len(x))
			return field_fail(c, field, "expected metric names (strings)");
		col->minus[col->nminus++] = sl_xstrdup(json_object_get_string(x));
	}
	return 0;
}

static struct sl_exp_column *new_column(struct sl_experiment *e, int src)
{
	e->cols = sl_xrealloc(e->cols, sizeof(*e->cols) * (unsigned long)(e->ncols + 1));
	memset(&e->cols[e->ncols], 0, sizeof(*e->cols));
	e->cols[e->ncols].src = src;
	return &e->cols[e->ncols++];
}

/* "LABEL key=value" for a column or row made from a list. */
static char *made_label(const char *label, const char *swept)
{
	size_t len = strlen(label) + strlen(swept) + 2;
	char *out = sl_xmalloc(len);

	snprintf(out, len, "%s%s%s", label, *label && *swept ? " " : "", swept);
	return out;
}

/* A policy column: one per spec of its lists (docs/experiments.md). */
static int parse_policy_column(const struct ctx *c, struct json_object *v, int i,
			       const char *where, const char *label, struct sl_experiment *e)
{
	char field[64], *spec, plabel[128];
	struct sl_spec_list l;
	int rc = 0;

	snprintf(field, sizeof(field), "%s.policy", where);
	if (get_string(c, v, "policy", field, true, &spec))
		return -1;
	if (sl_spec_list_expand(spec, "policy", SL_SWEEP_MAX_CELLS, &l, c->err)) {
		field_prefix(c, field);
		free(spec);
		return -1;
	}
	free(spec);
	for (int k = 0; k < l.n && !rc; k++) {
		const struct sl_policy_ops *ops;
		struct sl_params *knobs = sl_xmalloc(sizeof(*knobs));
		rc = sl_policy_parse(l.specs[k], &ops, knobs, plabel, sizeof(plabel), c->err);
		free(knobs);
		if (rc) {
			field_prefix(c, field);
			break;
		}
		struct sl_exp_column *col = new_column(e, i);
		col->policy = sl_xstrdup(l.specs[k]);
		col->label = label ? made_label(label, l.swept[k]) : sl_xstrdup(plabel);
	}
	sl_spec_list_free(&l);
	return rc;
}

static int parse_column(const struct ctx *c, struct json_object *v, int i,
			struct sl_experiment *e)
{
	static const char *const keys[] = { "label", "policy", NULL };
	static const char *const metric_keys[] = { "label", "metric", "minus", NULL };
	char where[32], field[64], *label;
	int first = e->ncols, rc;

	snprintf(where, sizeof(where), "columns[%d]", i);
	if (!json_object_is_type(v, json_type_object))
		return field_fail(c, where, "expected an object, got %s", type_name(v));
	if (check_keys(c, v, where, sl_exp_metric_columns(e) ? metric_keys : keys))
		return -1;
	snprintf(field, sizeof(field), "%s.label", where);
	/* a policy column's label defaults to the policy's own */
	if (get_string(c, v, "label", field, sl_exp_metric_columns(e), &label))
		return -1;
	if (sl_exp_metric_columns(e)) {
		struct sl_exp_column *col = new_column(e, i);
		col->label = label;
		rc = parse_metric_column(c, v, where, col);
	} else {
		rc = parse_policy_column(c, v, i, where, label, e);
		free(label);
	}
	for (int k = first; k < e->ncols && !rc; k++)
		for (int j = 0; j < k; j++)
			if (!strcmp(e->cols[j].label, e->cols[k].label))
				return field_fail(c, field, "'%s' used twice", e->cols[k].label);
	return rc;
}

static int parse_columns(const struct ctx *c, struct json_object *root,
			 struct sl_experiment *e)
{
	struct json_object *arr;
	int n;

	if (get_array(c, root, "columns", true, &arr))
		return -1;
	n = (int)json_object_array_length(arr);
	for (int i = 0; i < n; i++) {
		if (parse_column(c, json_object_array_get_idx(arr, (size_t)i), i, e))
			return -1;
		/* bounded as the lists expand, not once they have */
		if (e->ncols > SL_SWEEP_MAX_CELLS)
			return field_fail(c, "columns", "more than %d columns (expected at most %d "
					  "cells; see docs/experiments.md)", SL_SWEEP_MAX_CELLS,
					  SL_SWEEP_MAX_CELLS);
	}
	return 0;
}

static int column_index(const struct sl_experiment *e, const char *label)
{
	for (int i = 0; i < e->ncols; i++)
		if (!strcmp(e->cols[i].label, label))
			return i;
	return -1;
}

/* One published entry: a number or a non-empty array of numbers, all > 0
 * where they are values (percentages may be any finite number). */
static int parse_published_value(const struct ctx *c, struct json_object *v,
				 const char *field, bool positive, struct sl_exp_cell *cell)
{
	const char *expected = positive ? "a positive number, an array of positive numbers or "
					  "an interval {\"from\", \"to\"}"
					: "a number, an array of numbers or an interval {\"from\", \"to\"}";
	int n;

	if (is_number(v)) {
		cell->npublished = 1;
		cell->published[0] = json_object_get_double(v);
	} else if (json_object_is_type(v, json_type_array)) {
		n = (int)json_object_array_length(v);
		if (n < 1 || n > SL_EXP_MAX_PUBLISHED)
			return field_fail(c, field, "expected 1 to %d values",
					  SL_EXP_MAX_PUBLISHED);
		for (int k = 0; k < n; k++) {
			struct json_object *x = json_object_array_get_idx(v, (size_t)k);
			if (!is_number(x))
				return field_fail(c, field, "expected %s", expected);
			cell->published[k] = json_object_get_double(x);
		}
		cell->npublished = n;
	} else if (json_object_is_type(v, json_type_object)) {
		struct json_object *from, *to;
		if (json_object_object_length(v) != 2 ||
		    !json_object_object_get_ex(v, "from", &from) ||
		    !json_object_object_get_ex(v, "to", &to) || !is_number(from) || !is_number(to))
			return field_fail(c, field, "expected an interval {\"from\": number, "
					  "\"to\": number} and nothing else");
		cell->published[0] = json_object_get_double(from);
		cell->published[1] = json_object_get_double(to);
		if (!(cell->published[0] < cell->published[1]))
			return field_fail(c, field, "interval: \"from\" must be below \"to\"");
		cell->npublished = 2;
		cell->interval = true;
	} else {
		return field_fail(c, field, "expected %s, got %s", expected, type_name(v));
	}
	for (int k = 0; k < cell->npublished; k++)
		if ((positive && !(cell->published[k] > 0)) || !isfinite(cell->published[k]))
			return field_fail(c, field, "expected %s", expected);
	return 0;
}

static int parse_published(const struct ctx *c, struct json_object *row, const char *where,
			   const struct sl_experiment *e, struct sl_exp_row *r)
{
	struct json_object *pub;
	char field[192];

	r->cells = sl_xcalloc((unsigned long)e->ncols, sizeof(*r->cells));
	if (!json_object_object_get_ex(row, "published", &pub))
		return 0;
	snprintf(field, sizeof(field), "%s.published", where);
	if (!json_object_is_type(pub, json_type_object))
		return field_fail(c, field, "expected an object {column label: value}, got %s",
				  type_name(pub));
	json_object_object_foreach(pub, label, val) {
		int col = column_index(e, label);
		snprintf(field, sizeof(field), "%s.published.%s", where, label);
		if (col < 0)
			return field_fail(c, field, "'%s' is not a column label", label);
		/* percentages (speed-ups) may be zero or negative */
		if (parse_published_value(c, val, field, e->form == SL_FORM_VALUES,
					  &r->cells[col]))
			return -1;
	}
	return 0;
}

/* Length of the name part of a "name:k=v" spec. */
static size_t spec_name_len(const char *spec)
{
	const char *colon = strchr(spec, ':');
	return colon ? (size_t)(colon - spec) : strlen(spec);
}

/* The row's workload with the experiment's shared params for it appended. */
static char *with_shared_params(const char *spec, struct json_object *shared)
{
	size_t nlen = spec_name_len(spec);
	char name[64];
	struct json_object *v;

	snprintf(name, sizeof(name), "%.*s", (int)nlen, spec);
	if (!shared || !json_object_object_get_ex(shared, name, &v))
		return sl_xstrdup(spec);
	const char *extra = json_object_get_string(v);
	size_t len = strlen(spec) + strlen(extra) + 2;
	char *out = sl_xmalloc(len);
	snprintf(out, len, "%s%s%s", spec, strchr(spec, ':') ? "," : ":", extra);
	return out;
}

static int check_workload(const struct ctx *c, const char *spec, const char *field)
{
	const struct sl_workload_ops *ops;
	struct sl_params *params = sl_xmalloc(sizeof(*params));
	int rc = sl_workload_parse(spec, &ops, params, c->err);

	free(params);
	if (rc)
		field_prefix(c, field);
	return rc;
}

static struct sl_exp_row *new_row(struct sl_experiment *e, int src)
{
	e->rows = sl_xrealloc(e->rows, sizeof(*e->rows) * (unsigned long)(e->nrows + 1));
	memset(&e->rows[e->nrows], 0, sizeof(*e->rows));
	e->rows[e->nrows].src = src;
	return &e->rows[e->nrows++];
}

/* { "section": "heading" } */
static int parse_section(const struct ctx *c, struct json_object *v, int i, const char *where,
			 struct sl_experiment *e)
{
	static const char *const keys[] = { "section", NULL };
	char field[64];
	struct sl_exp_row *r;

	if (check_keys(c, v, where, keys))
		return -1;
	r = new_row(e, i);
	snprintf(field, sizeof(field), "%s.section", where);
	r->kind = SL_ROW_SECTION;
	r->cells = sl_xcalloc((unsigned long)e->ncols, sizeof(*r->cells));
	return get_string(c, v, "section", field, true, &r->label);
}

/* { "label": ..., "derive": "geomean", "published": {...} } */
static int parse_derived(const struct ctx *c, struct json_object *v, int i, const char *where,
			 struct sl_experiment *e)
{
	static const char *const keys[] = { "label", "derive", "published", NULL };
	char field[64], *derive;
	bool have_data = false;
	struct sl_exp_row *r;

	if (check_keys(c, v, where, keys))
		return -1;
	snprintf(field, sizeof(field), "%s.derive", where);
	if (get_string(c, v, "derive", field, true, &derive))
		return -1;
	bool known = !strcmp(derive, "geomean");
	free(derive);
	if (!known)
		return field_fail(c, field, "expected \"geomean\"");
	if (e->form == SL_FORM_VALUES)
		return field_fail(c, field, "a geometric mean row needs form 'speedup' or "
				  "'percent_of_first'");
	for (int k = e->nrows - 1; k >= 0 && e->rows[k].kind != SL_ROW_SECTION; k--)
		have_data |= e->rows[k].kind == SL_ROW_DATA;
	if (!have_data)
		return field_fail(c, field, "no rows above it in its section");
	r = new_row(e, i);
	r->kind = SL_ROW_GEOMEAN;
	snprintf(field, sizeof(field), "%s.label", where);
	if (get_string(c, v, "label", field, true, &r->label))
		return -1;
	return parse_published(c, v, where, e, r);
}

/* One data row per spec of the row's lists. */
static int add_data_rows(const struct ctx *c, struct json_object *v, int i, const char *where,
			 const char *label, const char *metric, const char *spec,
			 struct sl_experiment *e)
{
	char field[64];
	struct sl_spec_list l;
	int rc = 0;

	snprintf(field, sizeof(field), "%s.workload", where);
	if (sl_spec_list_expand(spec, "workload", SL_SWEEP_MAX_CELLS, &l, c->err)) {
		field_prefix(c, field);
		return -1;
	}
	if (l.n > 1 && json_object_object_get_ex(v, "published", NULL)) {
		snprintf(field, sizeof(field), "%s.published", where);
		rc = field_fail(c, field, "not allowed on a row with lists (it makes %d rows: "
				"write the rows with published values one by one)", l.n);
		sl_spec_list_free(&l);
		return rc;
	}
	for (int k = 0; k < l.n && !rc; k++) {
		if ((rc = check_workload(c, l.specs[k], field)))
			break;
		struct sl_exp_row *r = new_row(e, i);
		r->kind = SL_ROW_DATA;
		r->workload = sl_xstrdup(l.specs[k]);
		r->metric = metric ? sl_xstrdup(metric) : NULL;
		if (label)
			r->label = made_label(label, l.swept[k]);
		else
			r->label = sl_xstrdup(*l.swept[k] ? l.swept[k] : l.specs[k]);
		rc = parse_published(c, v, where, e, r);
	}
	sl_spec_list_free(&l);
	return rc;
}

static int parse_row(const struct ctx *c, struct json_object *v, int i,
		     struct json_object *shared, const char *default_metric,
		     struct sl_experiment *e)
{
	static const char *const keys[] = { "label", "workload", "metric", "published", NULL };
	static const char *const metric_col_keys[] = { "label", "workload", "published", NULL };
	char where[32], field[64], *spec, *label = NULL, *metric = NULL, *full;
	int rc;

	snprintf(where, sizeof(where), "rows[%d]", i);
	if (!json_object_is_type(v, json_type_object))
		return field_fail(c, where, "expected an object, got %s", type_name(v));
	if (json_object_object_get_ex(v, "section", NULL))
		return parse_section(c, v, i, where, e);
	if (json_object_object_get_ex(v, "derive", NULL))
		return parse_derived(c, v, i, where, e);
	if (check_keys(c, v, where, sl_exp_metric_columns(e) ? metric_col_keys : keys))
		return -1;
	snprintf(field, sizeof(field), "%s.label", where);
	if (get_string(c, v, "label", field, !c->user, &label))
		return -1;
	snprintf(field, sizeof(field), "%s.metric", where);
	if (get_string(c, v, "metric", field, false, &metric)) {
		free(label);
		return -1;
	}
	if (!metric && default_metric)
		metric = sl_xstrdup(default_metric);
	snprintf(field, sizeof(field), "%s.workload", where);
	if (get_string(c, v, "workload", field, true, &spec)) {
		free(label);
		free(metric);
		return -1;
	}
	full = with_shared_params(spec, shared);
	rc = add_data_rows(c, v, i, where, label, metric, full, e);
	free(full);
	free(spec);
	free(label);
	free(metric);
	return rc;
}

/* workload_params: {workload name: "k=v,..."}; every name must be used. */
static int check_shared_params(const struct ctx *c, struct json_object *shared,
			       struct json_object *rows)
{
	char field[128];

	if (!json_object_is_type(shared, json_type_object))
		return field_fail(c, "workload_params", "expected an object, got %s",
				  type_name(shared));
	json_object_object_foreach(shared, name, val) {
		bool used = false;
		snprintf(field, sizeof(field), "workload_params.%s", name);
		if (!json_object_is_type(val, json_type_string) ||
		    !json_object_get_string_len(val))
			return field_fail(c, field, "expected a non-empty string \"key=value,...\"");
		for (size_t i = 0; i < json_object_array_length(rows); i++) {
			struct json_object *row = json_object_array_get_idx(rows, i), *w;
			if (json_object_is_type(row, json_type_object) &&
			    json_object_object_get_ex(row, "workload", &w) &&
			    json_object_is_type(w, json_type_string)) {
				const char *spec = json_object_get_string(w);
				used |= spec_name_len(spec) == strlen(name) &&
					!strncmp(spec, name, strlen(name));
			}
		}
		if (!used)
			return field_fail(c, field, "no row runs workload '%s'", name);
	}
	return 0;
}

/* Machines x data rows x columns within SL_SWEEP_MAX_CELLS. */
static int check_size(const struct ctx *c, const struct sl_experiment *e)
{
	long cells = 0;

	for (int r = 0; r < e->nrows; r++)
		cells += e->rows[r].kind == SL_ROW_DATA ? e->ncols : 0;
	cells *= e->nmachines;
	if (cells > SL_SWEEP_MAX_CELLS)
		return field_fail(c, "rows", "%d machine%s x rows x columns = %ld cells (expected "
				  "at most %d; see docs/experiments.md)", e->nmachines,
				  e->nmachines == 1 ? "" : "s", cells, SL_SWEEP_MAX_CELLS);
	return 0;
}

static int parse_rows(const struct ctx *c, struct json_object *root, const char *metric,
		      struct sl_experiment *e)
{
	struct json_object *arr, *shared = NULL;

	if (get_array(c, root, "rows", true, &arr))
		return -1;
	if (json_object_object_get_ex(root, "workload_params", &shared) &&
	    check_shared_params(c, shared, arr))
		return -1;
	int n = (int)json_object_array_length(arr);
	for (int i = 0; i < n; i++)	/* bounded as the lists expand */
		if (parse_row(c, json_object_array_get_idx(arr, (size_t)i), i, shared, metric, e) ||
		    check_size(c, e))
			return -1;
	return 0;
}

static int parse_notes(const struct ctx *c, struct json_object *root, struct sl_experiment *e)
{
	struct json_object *arr;

	if (get_array(c, root, "notes", false, &arr))
		return -1;
	if (!arr)
		return 0;
	e->nnotes = (int)json_object_array_length(arr);
	e->notes = sl_xcalloc((unsigned long)e->nnotes + 1, sizeof(*e->notes));
	for (int i = 0; i < e->nnotes; i++) {
		struct json_object *v = json_object_array_get_idx(arr, (size_t)i);
		if (!json_object_is_type(v, json_type_string))
			return field_fail(c, "notes", "note %d: expected a string, got %s", i,
					  type_name(v));
		e->notes[i] = sl_xstrdup(json_object_get_string(v));
	}
	return 0;
}

/* A source a user can follow: an LKML Message-ID ("<id@host>") or a web
 * address, never a file outside the repository. */
static int check_source(const struct ctx *c, const char *source)
{
	const char *lt = strchr(source, '<'), *at = lt ? strchr(lt, '@') : NULL;
	bool message_id = at && strchr(at, '>');

	if (message_id || strstr(source, "http://") || strstr(source, "https://"))
		return 0;
	return field_fail(c, "source", "cites neither a Message-ID (<id@host>) nor an "
			  "http(s):// address: '%s'", source);
}

/* "machine": a spec, or an array of them (one table each): this table's. */
static int parse_machine(const struct ctx *c, struct json_object *root, struct sl_experiment *e)
{
	struct json_object *v, *m;
	char field[32];

	if (!json_object_object_get_ex(root, "machine", &v) ||
	    !json_object_is_type(v, json_type_array)) {
		e->nmachines = 1;
		return get_string(c, root, "machine", "machine", true, &e->machine);
	}
	e->nmachines = (int)json_object_array_length(v);
	if (!e->nmachines)
		return field_fail(c, "machine", "must not be empty");
	for (int k = 0; k < e->nmachines; k++) {
		m = json_object_array_get_idx(v, (size_t)k);
		snprintf(field, sizeof(field), "machine[%d]", k);
		if (!json_object_is_type(m, json_type_string) || !json_object_get_string_len(m))
			return field_fail(c, field, "expected a machine spec (a non-empty string)");
		for (int j = 0; j < k; j++)
			if (!strcmp(json_object_get_string(m),
				    json_object_get_string(json_object_array_get_idx(v, (size_t)j))))
				return field_fail(c, field, "'%s' given twice",
						  json_object_get_string(m));
	}
	e->machine_index = c->machine < e->nmachines ? c->machine : 0;
	e->machine = sl_xstrdup(json_object_get_string(
		json_object_array_get_idx(v, (size_t)e->machine_index)));
	return 0;
}

static int parse_fields(const struct ctx *c, struct json_object *root, struct sl_experiment *e)
{
	static const char *const keys[] = {
		"title", "source", "machine", "reps", "metric", "show", "tolerance_pct",
		"tolerance_points", "form", "percent_of", "compare", "shape", "policy",
		"workload_params", "columns", "rows", "notes", NULL,
	};
	char *metric = NULL;
	int rc;

	if (!json_object_is_type(root, json_type_object))
		return field_fail(c, "top level", "expected an object, got %s", type_name(root));
	if (check_keys(c, root, "", keys) ||
	    get_string(c, root, "title", "title", true, &e->title) ||
	    get_string(c, root, "source", "source", !c->user, &e->source) ||
	    (!c->user && check_source(c, e->source)) || parse_machine(c, root, e) ||
	    parse_reps(c, root, e) || parse_form(c, root, e) || parse_tolerance(c, root, e) ||
	    parse_show(c, root, e))
		return -1;
	if (e->policy && json_object_object_get_ex(root, "metric", NULL))
		return field_fail(c, "metric", "not used with \"policy\": the columns name "
				  "the metrics");
	if ((!e->policy && get_string(c, root, "metric", "metric", true, &metric)) ||
	    parse_columns(c, root, e))
		rc = -1;
	else
		rc = parse_rows(c, root, metric, e) || parse_notes(c, root, e) ? -1 : 0;
	free(metric);
	return rc;
}

/* Line number (1-based) of byte offset `off` in text. */
static int parse(struct sl_experiment *e, const char *name, struct ctx *c)
{
	struct json_object *root;
	int rc;

	memset(e, 0, sizeof(*e));
	e->name = sl_xstrdup(name);
	e->path = sl_xstrdup(c->path);
	root = sl_json_parse_text(c->path, c->text, strlen(c->text), c->err);
	if (!root) {
		sl_experiment_free(e);
		return -1;
	}
	rc = parse_fields(c, root, e);
	json_object_put(root);
	if (rc)
		sl_experiment_free(e);
	return rc;
}

int sl_experiment_parse(struct sl_experiment *e, const char *name, const char *path,
			const char *text, struct sl_err *err)
{
	struct ctx c = { .path = path, .text = text, .err = err };

	return parse(e, name, &c);
}

int sl_experiment_parse_user(struct sl_experiment *e, const char *name, const char *path,
			     const char *text, int machine, struct sl_err *err)
{
	struct ctx c = { .path = path, .text = text, .user = true, .machine = machine, .err = err };

	return parse(e, name, &c);
}

bool sl_experiment_is_file(const char *arg)
{
	size_t len = strlen(arg);

	return strchr(arg, '/') || (len > 5 && !strcmp(arg + len - 5, ".json"));
}

/* The text of a user's file: NULL + err when it cannot be read. */
static char *read_file(const char *path, struct sl_err *err)
{
	char what[4200];
	size_t len;

	snprintf(what, sizeof(what), "experiment '%s'", path);
	return sl_read_text(path, SL_EXP_MAX_FILE, what, "an experiment's JSON", &len, err);
}

/* "dir/my-sweep.json" -> "my-sweep" */
static char *file_name(const char *path)
{
	const char *base = strrchr(path, '/') ? strrchr(path, '/') + 1 : path;
	size_t len = strlen(base);

	if (len > 5 && !strcmp(base + len - 5, ".json"))
		len -= 5;
	char *out = sl_xmalloc(len + 1);
	memcpy(out, base, len);
	out[len] = 0;
	return out;
}

static const struct sl_experiment_file *builtin(const char *name)
{
	for (int i = 0; sl_experiment_files[i].name; i++)
		if (!strcmp(sl_experiment_files[i].name, name))
			return &sl_experiment_files[i];
	return NULL;
}

int sl_experiment_load_tables(const char *arg, struct sl_experiment **out, int *n,
			      struct sl_err *err)
{
	const struct sl_experiment_file *f = NULL;
	struct ctx c = { .err = err };
	char *text = NULL, *name = NULL;
	struct sl_experiment first;
	int rc;

	*out = NULL;
	*n = 0;
	if (!sl_experiment_is_file(arg) && !(f = builtin(arg)))
		return sl_experiment_load(&first, arg, err);	/* the unknown-name message */
	if (!f && !(text = read_file(arg, err)))
		return -1;
	name = f ? sl_xstrdup(f->name) : file_name(arg);
	c.path = f ? f->path : arg;
	c.text = f ? f->text : text;
	c.user = !f;
	rc = parse(&first, name, &c);
	if (!rc) {
		*out = sl_xcalloc((unsigned long)first.nmachines, sizeof(**out));
		(*out)[(*n)++] = first;
		for (c.machine = 1; c.machine < first.nmachines && !rc; c.machine++)
			if (!(rc = parse(&(*out)[*n], name, &c)))
				(*n)++;
	}
	if (rc) {
		for (int k = 0; k < *n; k++)
			sl_experiment_free(&(*out)[k]);
		free(*out);
		*out = NULL;
		*n = 0;
	}
	free(text);
	free(name);
	return rc;
}

void sl_experiment_names(char *buf, unsigned long size)
{
	buf[0] = 0;
	for (int i = 0; sl_experiment_files[i].name; i++) {
		strncat(buf, i ? ", " : "", size - strlen(buf) - 1);
		strncat(buf, sl_experiment_files[i].name, size - strlen(buf) - 1);
	}
}

int sl_experiment_load(struct sl_experiment *e, const char *name, struct sl_err *err)
{
	char known[512];

	for (int i = 0; sl_experiment_files[i].name; i++) {
		const struct sl_experiment_file *f = &sl_experiment_files[i];
		if (!strcmp(f->name, name))
			return sl_experiment_parse(e, f->name, f->path, f->text, err);
	}
	sl_experiment_names(known, sizeof(known));
	return sl_fail(err, "experiment '%s': unknown experiment (known: %s)", name,
		       *known ? known : "none");
}

void sl_experiment_free(struct sl_experiment *e)
{
	for (int i = 0; e->cols && i < e->ncols; i++) {
		free(e->cols[i].label);
		free(e->cols[i].policy);
		free(e->cols[i].metric);
		for (int k = 0; k < e->cols[i].nminus; k++)
			free(e->cols[i].minus[k]);
	}
	for (int i = 0; e->rows && i < e->nrows; i++) {
		free(e->rows[i].label);
		free(e->rows[i].workload);
		free(e->rows[i].metric);
		free(e->rows[i].cells);
	}
	for (int i = 0; e->notes && i < e->nnotes; i++)
		free(e->notes[i]);
	free(e->cols);
	free(e->rows);
	free(e->notes);
	free(e->name);
	free(e->path);
	free(e->title);
	free(e->source);
	free(e->machine);
	free(e->compare);
	free(e->policy);
	memset(e, 0, sizeof(*e));
}
