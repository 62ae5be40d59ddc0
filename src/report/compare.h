/*
 * compare.h - `schedlab compare`: saved results side by side, in the shape
 * of mmtests' compare-kernels.sh (one line per metric and cell: the
 * baseline's mean, then each other file's mean and its difference to the
 * baseline in percent, marked significant or not by Welch's t-test,
 * compare_stats.h).
 *
 * Inputs are the JSON that `run`, `real` and `reproduce` print with -o json
 * (report/output.h), in any mix.  Each is read into cells, a cell being
 * (group, column, metric) with the samples of its repetitions:
 *   run, real:  group = the workload spec (runs[].workload if the rows carry
 *               it, else the file's "workload"), column = runs[].policy,
 *               one cell per metric, samples = runs[].metrics over the reps;
 *               with rows on several machines the group is "MACHINE WORKLOAD";
 *   reproduce:  group = the row's workload (with several experiments in the
 *               file: "EXPERIMENT: WORKLOAD"), column = the column's label,
 *               metric = the row's (or the column's) metric, samples =
 *               cells[].simulated.values.
 * A cell of another file matches a baseline cell of the same group, column
 * and metric; failing that, when the other file has one column only in
 * that group (a `real` run's host), that column - so a simulated run and
 * a real one of the same workload line up policy against host.
 */
#ifndef SL_REPORT_COMPARE_H
#define SL_REPORT_COMPARE_H

#include <stdio.h>

#include "base/err.h"
#include "base/strmap.h"

struct sl_cmp_cell {
	char *key;			/* group \x1f column \x1f metric: the map's key */
	char *group, *column, *metric;
	char unit[24];
	double *v;			/* the repetitions' values */
	int n, cap;
};

struct sl_cmp_file {
	char *path;
	const char *kind;		/* "run", "real" or "reproduce" */
	char machine[160];		/* the first machine named in it */
	struct sl_cmp_cell *cells;
	int ncells;
	struct sl_strmap map;		/* key -> index in cells */
};

/* The largest result file read (a reproduce of every experiment is 0.2 MB,
 * a run of 10,000 repetitions about 20 MB; json-c's tree of it takes
 * several times its text). */
#define SL_CMP_MAX_FILE (256 << 20)

/* Read one result file: 0, or -1 with err naming the file and what is wrong
 * (bad input: not readable, not JSON, not a result of run/real/reproduce). */
int sl_cmp_load(struct sl_cmp_file *f, const char *path, struct sl_err *err);
/* The same from JSON text (tests, fuzzing); `path` names it in messages. */
int sl_cmp_load_text(struct sl_cmp_file *f, const char *path, const char *text,
		     struct sl_err *err);
void sl_cmp_free(struct sl_cmp_file *f);

/* The comparison of files[1..n-1] against files[0], the baseline, limited
 * to the metrics named in `metrics` (nmetrics 0: every metric).  -1 with
 * err set (bad input) when a file has no cell in common with the baseline
 * or a metric named matches nothing; nothing is printed then. */
int sl_cmp_print(FILE *out, const struct sl_cmp_file *files, int n,
		 const char *const *metrics, int nmetrics, struct sl_err *err);

#endif
