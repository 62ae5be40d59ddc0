/*
 * reproduce.h - running an experiment: every row x column cell on the
 * experiment's machine, `reps` times, summarised and compared with the
 * published values (the miss rule is sl_stats_misses()).
 */
#ifndef SL_REPORT_REPRODUCE_H
#define SL_REPORT_REPRODUCE_H

#include <stdbool.h>

#include "report/experiment.h"
#include "report/stats.h"
#include "report/sweep.h"

struct sl_exp_cell_result {
	char unit[24];
	double *values;			/* one per repetition (metric columns:
					 * the metric minus its "minus") */
	struct sl_summary sim;
	bool miss;			/* published and missed */
	/* forms speedup and percent_of_first, and derived rows: what the
	 * table shows (value), in percent */
	bool derived;
	double value;
	double lo, hi;			/* speedup: range of the paired repetitions'
					 * speed-ups; percent_of_first: value -+ sd_pct */
	double sd_pct;			/* percent_of_first: sd / first column's mean */
	double *base_values;		/* speedup: the metric on the compare machine */
	struct sl_summary base;
};

struct sl_exp_result {
	const struct sl_experiment *exp;
	struct sl_sweep *sweep;
	struct sl_sweep *base_sweep;	/* speedup: the compare machine's runs */
	int reps;
	struct sl_exp_cell_result *cells;	/* [row * exp->ncols + col] */
};

static inline const struct sl_exp_cell_result *
sl_exp_cell(const struct sl_exp_result *r, int row, int col)
{
	return &r->cells[row * r->exp->ncols + col];
}

/* Compute the derived values of every cell from values / base_values
 * (sections and geometric mean rows included) and mark the misses.
 * sl_experiment_run calls it; exposed for tests on hand-made results. */
void sl_exp_result_derive(struct sl_exp_result *r);

/* Run experiment `e` with `reps` repetitions (0: the file's).  0, or -1
 * with err set. */
int sl_experiment_run(const struct sl_experiment *e, int reps, int nthreads,
		      struct sl_exp_result *out, struct sl_err *err);

/* The same, telling `progress` (may be NULL) of each run done. */
int sl_experiment_run_progress(const struct sl_experiment *e, int reps, int nthreads,
			       struct sl_sweep_progress *progress, struct sl_exp_result *out,
			       struct sl_err *err);

void sl_exp_result_free(struct sl_exp_result *r);

/* Check, without running anything, what sl_experiment_run would refuse:
 * its machines and cells, and the memory of each run against the limit
 * (base/memsize.h), so that a list of experiments fails before the first
 * runs.  0, or -1 with err set. */
int sl_experiment_check(const struct sl_experiment *e, int reps, struct sl_err *err);
/* The same, and the number of runs (distinct cells x repetitions, both
 * machines of a speed-up) sl_experiment_run will make. */
int sl_experiment_check_runs(const struct sl_experiment *e, int reps, long *runs,
			     struct sl_err *err);

/* The scoreboard's count for one result: cells with a published value,
 * and of those the ones within tolerance (not missed). */
struct sl_exp_score {
	int published;
	int within;
};

void sl_exp_result_score(const struct sl_exp_result *r, struct sl_exp_score *s);

#endif
