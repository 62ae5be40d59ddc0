/*
 * experiment.h - an experiment: one published table as data.
 *
 * An experiment file (experiments/NAME.json, embedded into the binary) names
 * a machine, the columns (kernels, as policy specs), the rows (tests, as
 * workload specs), the metric each row reports and the published values
 * per cell.  The format:
 *
 *   {
 *     "title":   "one line",                      required
 *     "source":  "where the numbers were published", required: an LKML
 *                Message-ID (<id@host>) or an http(s):// address, with
 *                author, date and subject
 *     "machine": "p4dpe-2x2ht",                    required
 *     "reps":    5,                                required, >= 1
 *     "metric":  "elapsed_s",                      required (rows may override)
 *     "show":    "min/median/max",                 optional: '/'-separated
 *                                                  from min, median, max, mean, sd
 *     "tolerance_pct": 5,                          optional (default 5): miss rule
 *     "workload_params": { "kernbench": "size=1" },optional: appended to every
 *                                                  row running that workload
 *     "columns": [ { "label": "2.5.33", "policy": "o1:version=2.5.33" }, ...],
 *     "rows": [ { "label": "make -j1 bzImage",
 *                 "workload": "kernbench:jobs=1",
 *                 "metric": "elapsed_s",            optional
 *                 "published": { "2.5.33": 206, "2.4.8": [154, 216],
 *                                "2.5.31": { "from": 52, "to": 92 } } }, ...],
 *                 (a number; the values seen in several runs; or the
 *                 interval an author gave, e.g. "fluctuated between 2.60
 *                 and 4.6 s", which misses only when the simulated
 *                 [min, max] does not meet it widened by the tolerance)
 *     "notes": [ "shown under the table", ... ]     optional
 *   }
 *
 * Further forms (all optional; the defaults give the table above):
 *
 *     "form": "values" | "speedup" | "percent_of_first",
 *         values: a cell is the row's metric over the repetitions;
 *         speedup: a cell is 100 x (G / G' - 1), G and G' the geometric
 *           means over the repetitions of the metric on "machine" and on
 *           the "compare" machine (same policy, workload and seeds) - seed
 *           004's HT on vs off;
 *         percent_of_first: a cell is 100 x mean / the first column's mean
 *           (its sd likewise) - Bligh's SDET tables.
 *     "percent_of": "mean" | "min",        percent_of_first only (default
 *                                          mean): min compares the best
 *                                          runs, for tables of best-of-N
 *     "compare": "xeon-1600ht,noht",       required with form speedup only
 *     "tolerance_points": 5,               with speedup / percent_of_first
 *                                          (default 5): a miss is more than
 *                                          that many points from published
 *     "shape": "grid" | "sdet",            sdet: Bligh's blocks (one per row,
 *                                          a line per column) with
 *                                          percent_of_first; Hansen's
 *                                          "Scripts | Average Throughput |
 *                                          Standard Deviation" (a block per
 *                                          column) with values
 *     "policy": "o1:version=2.5.33",       one policy for every cell: the
 *                                          columns are then metrics,
 *         "columns": [ { "label": "idle", "metric": "elapsed_s",
 *                        "minus": [ "user_s", "sys_s" ] } ]
 *                                          (value = metric - each of minus,
 *                                          per repetition); top-level and
 *                                          row "metric" are not allowed
 *     rows may also be
 *         { "section": "dbench: No. clients" }   a heading; later derived
 *                                                rows cover its rows only
 *         { "label": "Geometric Mean", "derive": "geomean",
 *           "published": {...} }                 speedup / percent_of_first:
 *                                                the geometric mean of the
 *                                                section's rows' factors
 *                                                (1 + s/100, or p/100),
 *                                                back in percent
 *
 * A user's file (docs/experiments.md; `reproduce FILE.json`) is the same
 * format, where "source" is optional free text and row labels are
 * optional.  In both, "machine" may be an array (a table per machine), a
 * row's "workload" and a column's "policy" may hold lists and ranges
 * (report/spec_list.h): one row / column per spec, labelled "LABEL
 * key=value" (rows[i].src / cols[i].src keep the file's index); a row with
 * lists takes no "published"; a column's "label" defaults to the policy's.
 *
 * Every field is checked when the file is loaded, including the policy and
 * workload specs; an error names the file, the line and the field
 * ("experiments/x.json:12: rows[2].published: ...").  Unknown fields are
 * errors too, so that a typo is never silently ignored.
 */
#ifndef SL_REPORT_EXPERIMENT_H
#define SL_REPORT_EXPERIMENT_H

#include <stdbool.h>
#include <stddef.h>

#include "base/err.h"

#define SL_EXP_MAX_PUBLISHED 8
#define SL_EXP_MAX_SHOW 5
#define SL_EXP_MAX_MINUS 4

enum sl_stat {
	SL_STAT_MIN,
	SL_STAT_MEDIAN,
	SL_STAT_MAX,
	SL_STAT_MEAN,
	SL_STAT_SD,
};

const char *sl_stat_name(enum sl_stat s);

enum sl_exp_form {
	SL_FORM_VALUES,		/* the metric itself */
	SL_FORM_SPEEDUP,	/* 100 x (G / G' - 1) against the compare machine */
	SL_FORM_PCT_FIRST,	/* 100 x mean / the first column's mean */
};

enum sl_exp_shape {
	SL_SHAPE_GRID,		/* rows x columns, simulated beside published */
	SL_SHAPE_SDET,		/* Bligh's (percent_of_first) or Hansen's (values) */
};

enum sl_exp_row_kind {
	SL_ROW_DATA,		/* a workload run in every column */
	SL_ROW_SECTION,		/* a heading */
	SL_ROW_GEOMEAN,		/* derived: geometric mean of its section's rows */
};

struct sl_exp_column {
	int src;		/* its index in the file's "columns" (lists make several) */
	char *label;
	char *policy;		/* policy spec; NULL for metric columns */
	char *metric;		/* metric columns: the metric, else NULL */
	int nminus;
	char *minus[SL_EXP_MAX_MINUS];	/* metrics subtracted from it */
};

struct sl_exp_cell {
	int npublished;		/* 0: nothing published for this cell */
	double published[SL_EXP_MAX_PUBLISHED];
	bool interval;		/* published[0..1] is a range { "from", "to" } */
};

struct sl_exp_row {
	int src;		/* its index in the file's "rows" (lists make several) */
	enum sl_exp_row_kind kind;
	char *label;		/* a section's heading for SL_ROW_SECTION */
	char *workload;		/* the row's spec with the shared params appended
				 * (data rows only) */
	char *metric;		/* data rows of policy-column experiments */
	struct sl_exp_cell *cells;	/* one per column */
};

struct sl_experiment {
	char *name;		/* "seed-000" */
	char *path;		/* "experiments/seed-000.json" */
	char *title, *source, *machine;	/* machine: this table's (of a list) */
	int nmachines;			/* entries of "machine" (1 for a string) */
	int machine_index;		/* which of them this table is for */
	int reps;
	double tolerance_pct;		/* values form */
	double tolerance_points;	/* speedup and percent_of_first forms */
	enum sl_exp_form form;
	enum sl_exp_shape shape;
	enum sl_stat pct_stat;		/* percent_of_first: SL_STAT_MEAN or SL_STAT_MIN */
	char *compare;			/* speedup: the other machine */
	char *policy;			/* metric columns: the one policy */
	int nshow;
	enum sl_stat show[SL_EXP_MAX_SHOW];
	int ncols;
	struct sl_exp_column *cols;
	int nrows;
	struct sl_exp_row *rows;
	int nnotes;
	char **notes;
};

static inline bool sl_exp_metric_columns(const struct sl_experiment *e)
{
	return e->policy != NULL;
}

/* Load the embedded experiment `name`.  0, or -1 with err set. */
int sl_experiment_load(struct sl_experiment *e, const char *name, struct sl_err *err);

/* Parse and validate experiment text; `path` is used in messages. */
int sl_experiment_parse(struct sl_experiment *e, const char *name, const char *path,
			const char *text, struct sl_err *err);

/* A user's file: "source" optional and free text, row labels optional;
 * `machine` picks the table of a "machine" list (0 for a string). */
int sl_experiment_parse_user(struct sl_experiment *e, const char *name, const char *path,
			     const char *text, int machine, struct sl_err *err);

/* `reproduce`'s argument: a path (it has a '/' or ends in .json), else a
 * built-in experiment's name. */
bool sl_experiment_is_file(const char *arg);

/* Every table of a built-in experiment or a user's file: one per machine
 * of its "machine" list, in order.  *out (free each, then the array). */
int sl_experiment_load_tables(const char *arg, struct sl_experiment **out, int *n,
			      struct sl_err *err);

#define SL_EXP_MAX_FILE (16 << 20)	/* a user's experiment file, bytes */

void sl_experiment_free(struct sl_experiment *e);

/* Names of the embedded experiments, comma-separated (for messages). */
void sl_experiment_names(char *buf, unsigned long size);

#endif
