/*
 * compare_stats.h - the significance test of `schedlab compare`: Welch's
 * unequal-variances t-test, two-sided, on the repetitions of two cells.
 *
 *   t  = (mean_b - mean_a) / sqrt(va/na + vb/nb)     (va, vb: sample variances)
 *   df = (va/na + vb/nb)^2 / ((va/na)^2/(na-1) + (vb/nb)^2/(nb-1))
 *        (Welch-Satterthwaite)
 *   p  = P(|T_df| >= |t|) = I_{df/(df+t^2)}(df/2, 1/2)
 *
 * where I_x(a, b) is the regularized incomplete beta function, evaluated
 * by its continued fraction (modified Lentz; Press et al., Numerical
 * Recipes 2nd ed., 6.4 "betacf", written anew here).  mmtests'
 * compare-kernels.sh marks a difference significant with the same test
 * at alpha 0.05 (its --ttest-threshold default).
 *
 * Pure arithmetic; nothing here knows about files or runs.
 */
#ifndef SL_REPORT_COMPARE_STATS_H
#define SL_REPORT_COMPARE_STATS_H

#include <stdbool.h>

#define SL_CMP_ALPHA 0.05

struct sl_welch {
	bool testable;		/* both sides have n >= 2 */
	double t, df, p;	/* p two-sided; t and df NaN when a side is constant
				 * and p is then 0 (means differ) or 1 (equal) */
	bool significant;	/* testable and p < SL_CMP_ALPHA */
};

/* Regularized incomplete beta I_x(a, b), a, b > 0, 0 <= x <= 1; NaN outside. */
double sl_incbeta(double x, double a, double b);
/* Two-sided tail of Student's t: P(|T_df| >= |t|); df > 0. */
double sl_t_two_sided_p(double t, double df);
/* Welch's test of b against a. */
void sl_welch_test(const double *a, int na, const double *b, int nb, struct sl_welch *out);

#endif
