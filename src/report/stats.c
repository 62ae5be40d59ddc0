/*
 * stats.c - summary statistics over repetitions (see stats.h).
 */
#include "report/stats.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "base/err.h"

double sl_stats_mean(const double *x, int n)
{
	double sum = 0;

	if (n <= 0)
		return NAN;
	for (int i = 0; i < n; i++)
		sum += x[i];
	return sum / n;
}

double sl_stats_sd(const double *x, int n)
{
	double mean = sl_stats_mean(x, n), ss = 0;

	if (n < 2)
		return 0;
	for (int i = 0; i < n; i++)
		ss += (x[i] - mean) * (x[i] - mean);
	return sqrt(ss / (n - 1));
}

double sl_stats_min(const double *x, int n)
{
	double m = n > 0 ? x[0] : NAN;

	for (int i = 1; i < n; i++)
		if (x[i] < m)
			m = x[i];
	return m;
}

double sl_stats_max(const double *x, int n)
{
	double m = n > 0 ? x[0] : NAN;

	for (int i = 1; i < n; i++)
		if (x[i] > m)
			m = x[i];
	return m;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

double sl_stats_median(const double *x, int n)
{
	double *sorted, med;

	if (n <= 0)
		return NAN;
	sorted = sl_xmalloc(sizeof(*sorted) * (unsigned long)n);
	memcpy(sorted, x, sizeof(*sorted) * (size_t)n);
	qsort(sorted, (size_t)n, sizeof(*sorted), cmp_double);
	if (n % 2)
		med = sorted[n / 2];
	else
		med = (sorted[n / 2 - 1] + sorted[n / 2]) / 2;
	free(sorted);
	return med;
}

double sl_stats_geomean(const double *x, int n)
{
	double logsum = 0;

	if (n <= 0)
		return NAN;
	for (int i = 0; i < n; i++) {
		if (!(x[i] > 0))
			return NAN;
		logsum += log(x[i]);
	}
	return exp(logsum / n);
}

double sl_stats_t975(int df)
{
	static const double table[] = {
		12.706, 4.303, 3.182, 2.776, 2.571, 2.447, 2.365, 2.306, 2.262, 2.228,
		2.201, 2.179, 2.160, 2.145, 2.131, 2.120, 2.110, 2.101, 2.093, 2.086,
		2.080, 2.074, 2.069, 2.064, 2.060, 2.056, 2.052, 2.048, 2.045, 2.042,
	};
	const int ntable = (int)(sizeof(table) / sizeof(table[0]));
	const double z = 1.959964;

	if (df < 1)
		return NAN;
	if (df <= ntable)
		return table[df - 1];
	/* Cornish-Fisher expansion; within 0.001 of the exact value for df > 30. */
	return z + (z * z * z + z) / (4.0 * df) +
	       (5 * pow(z, 5) + 16 * pow(z, 3) + 3 * z) / (96.0 * df * df);
}

void sl_stats_ci95(const double *x, int n, double *lo, double *hi)
{
	double mean = sl_stats_mean(x, n), half = 0;

	if (n >= 2)
		half = sl_stats_t975(n - 1) * sl_stats_sd(x, n) / sqrt(n);
	*lo = mean - half;
	*hi = mean + half;
}

void sl_summarize(const double *x, int n, struct sl_summary *s)
{
	s->n = n;
	s->mean = sl_stats_mean(x, n);
	s->sd = sl_stats_sd(x, n);
	s->min = sl_stats_min(x, n);
	s->max = sl_stats_max(x, n);
	s->median = sl_stats_median(x, n);
	sl_stats_ci95(x, n, &s->ci_lo, &s->ci_hi);
}

/* Distance from v to the closed interval [lo, hi]. */
static double distance_to_range(double v, double lo, double hi)
{
	if (v < lo)
		return lo - v;
	if (v > hi)
		return v - hi;
	return 0;
}

bool sl_stats_misses(const struct sl_summary *sim, const double *published,
		     int npublished, double tol_pct)
{
	double tol = tol_pct / 100.0;

	if (npublished == 1)
		return fabs(published[0] - sim->median) > tol * fabs(published[0]);
	for (int i = 0; i < npublished; i++)
		if (distance_to_range(published[i], sim->min, sim->max) <=
		    tol * fabs(published[i]))
			return false;
	return npublished > 0;
}

bool sl_stats_misses_interval(double lo, double hi, double from, double to, double slack_from,
			      double slack_to)
{
	return hi < from - slack_from || lo > to + slack_to;
}

double sl_stats_speedup_pct(const double *on, int non, const double *off, int noff)
{
	double g_on = sl_stats_geomean(on, non), g_off = sl_stats_geomean(off, noff);

	if (isnan(g_on) || isnan(g_off))
		return NAN;
	return 100.0 * (g_on / g_off - 1.0);
}

double sl_stats_geomean_pct(const double *pct, int n, double offset)
{
	double logsum = 0;

	if (n <= 0)
		return NAN;
	for (int i = 0; i < n; i++) {
		double f = offset + pct[i] / 100.0;
		if (!(f > 0))
			return NAN;
		logsum += log(f);
	}
	return 100.0 * (exp(logsum / n) - offset);
}

bool sl_stats_misses_points(double value, double lo, double hi, const double *published,
			    int npublished, double points)
{
	if (npublished == 1)
		return !(fabs(published[0] - value) <= points);
	for (int i = 0; i < npublished; i++)
		if (distance_to_range(published[i], lo, hi) <= points)
			return false;
	return npublished > 0;
}
