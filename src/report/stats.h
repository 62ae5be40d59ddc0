/*
 * stats.h - summary statistics over the repetitions of a run: mean, sample
 * standard deviation (n - 1 divisor, as mmtests), min, max, median,
 * geometric mean and the 95% confidence interval of the mean (Student t).
 *
 * Pure arithmetic on arrays of doubles; nothing here knows about runs.
 */
#ifndef SL_REPORT_STATS_H
#define SL_REPORT_STATS_H

#include <stdbool.h>

struct sl_summary {
	int n;
	double mean;
	double sd;		/* sample sd; 0 when n < 2 */
	double min, max;
	double median;
	double ci_lo, ci_hi;	/* 95% CI of the mean; both = mean when n < 2 */
};

double sl_stats_mean(const double *x, int n);
/* Sample standard deviation (divisor n - 1); 0 for n < 2. */
double sl_stats_sd(const double *x, int n);
double sl_stats_min(const double *x, int n);
double sl_stats_max(const double *x, int n);
/* Median (mean of the middle two for even n); x is not modified. */
double sl_stats_median(const double *x, int n);
/* Geometric mean; NaN if any value is <= 0 or n == 0. */
double sl_stats_geomean(const double *x, int n);
/* Two-sided 97.5% quantile of Student's t with `df` degrees of freedom. */
double sl_stats_t975(int df);
/* 95% confidence interval of the mean. */
void sl_stats_ci95(const double *x, int n, double *lo, double *hi);

/* All of the above at once.  n must be >= 1. */
void sl_summarize(const double *x, int n, struct sl_summary *s);

/*
 * Does a simulated result miss the published value(s)?  With one published
 * value: it misses when it is more than tol_pct percent away from the
 * simulated median.  With a published spread (several values seen by the
 * author): it misses when no published value lies within tol_pct percent
 * of the simulated range [min, max].
 */
bool sl_stats_misses(const struct sl_summary *sim, const double *published,
		     int npublished, double tol_pct);

/*
 * Seed 004's speed-up of one configuration over another, in percent:
 * 100 x (G_on / G_off - 1), where G is the geometric mean over the
 * repetitions (each published entry was "the geometric mean of five
 * runs").  NaN if either side is empty or not positive.
 */
double sl_stats_speedup_pct(const double *on, int non, const double *off, int noff);

/*
 * The geometric mean of percentages read as factors, back in percent:
 * offset 1 for speed-ups (factor 1 + p/100: 100 x ((prod (1 + p_i/100))^(1/n)
 * - 1), how seed 004's "Geometric Mean" rows are taken) and offset 0 for
 * percentages of a baseline (factor p/100, mmtests' Gmean of ratios).
 * NaN if a factor is not positive or n == 0.
 */
double sl_stats_geomean_pct(const double *pct, int n, double offset);

/*
 * The miss rule for percentages, in points: with one published value a
 * miss is |value - published| > points; with a published spread, a miss is
 * when no published value lies within `points` of the simulated [lo, hi].
 */
bool sl_stats_misses_points(double value, double lo, double hi, const double *published,
			    int npublished, double points);

/*
 * The miss rule for a published interval (an author's "fluctuated between
 * A and B"): the simulated [lo, hi] misses when it does not meet [from -
 * slack_from, to + slack_to], the interval widened by the tolerance at
 * each end.
 */
bool sl_stats_misses_interval(double lo, double hi, double from, double to, double slack_from,
			      double slack_to);

#endif
