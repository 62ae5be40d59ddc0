/*
 * experiment.h - an experiment: one of the seeds' tables as data.
 *
 * An experiment file (experiments/NAME.json, embedded into the binary) names
 * a machine, the columns (kernels, as policy specs), the rows (tests, as
 * workload specs), the metric each row reports and the published values
 * per cell.  The format:
 *
 *   {
 *     "title":   "one line",                      required
 *     "source":  "seed file the numbers are from", required
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
 *                 "published": { "2.5.33": 206, "2.4.8": [154, 216] } }, ...],
 *     "notes": [ "shown under the table", ... ]     optional
 *   }
 *
 * Every field is checked when the file is loaded, including the policy and
 * workload specs; an error names the file and the field
 * ("experiments/x.json: rows[2].published: ...").  Unknown fields are
 * errors too, so that a typo is never silently ignored.
 */
#ifndef SL_REPORT_EXPERIMENT_H
#define SL_REPORT_EXPERIMENT_H

#include "base/err.h"

#define SL_EXP_MAX_PUBLISHED 8
#define SL_EXP_MAX_SHOW 5

enum sl_stat {
	SL_STAT_MIN,
	SL_STAT_MEDIAN,
	SL_STAT_MAX,
	SL_STAT_MEAN,
	SL_STAT_SD,
};

const char *sl_stat_name(enum sl_stat s);

struct sl_exp_column {
	char *label;
	char *policy;		/* policy spec */
};

struct sl_exp_cell {
	int npublished;		/* 0: nothing published for this cell */
	double published[SL_EXP_MAX_PUBLISHED];
};

struct sl_exp_row {
	char *label;
	char *workload;		/* the row's spec with the shared params appended */
	char *metric;
	struct sl_exp_cell *cells;	/* one per column */
};

struct sl_experiment {
	char *name;		/* "seed-000" */
	char *path;		/* "experiments/seed-000.json" */
	char *title, *source, *machine;
	int reps;
	double tolerance_pct;
	int nshow;
	enum sl_stat show[SL_EXP_MAX_SHOW];
	int ncols;
	struct sl_exp_column *cols;
	int nrows;
	struct sl_exp_row *rows;
	int nnotes;
	char **notes;
};

/* Load the embedded experiment `name`.  0, or -1 with err set. */
int sl_experiment_load(struct sl_experiment *e, const char *name, struct sl_err *err);

/* Parse and validate experiment text; `path` is used in messages. */
int sl_experiment_parse(struct sl_experiment *e, const char *name, const char *path,
			const char *text, struct sl_err *err);

void sl_experiment_free(struct sl_experiment *e);

/* Names of the embedded experiments, comma-separated (for messages). */
void sl_experiment_names(char *buf, unsigned long size);

#endif
