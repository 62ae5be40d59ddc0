/*
 * compare_stats.c - Welch's t-test and the regularized incomplete beta
 * function behind its p value (compare_stats.h).
 */
#include "report/compare_stats.h"

#include <float.h>
#include <math.h>

#include "report/stats.h"

#define LENTZ_TINY 1e-300

/* One step of the modified Lentz method with the coefficient `num`:
 * updates c and d and returns the factor the fraction's value takes. */
static double lentz_step(double num, double *c, double *d)
{
	*d = 1.0 + num * *d;
	*c = 1.0 + num / *c;
	if (fabs(*d) < LENTZ_TINY)
		*d = LENTZ_TINY;
	if (fabs(*c) < LENTZ_TINY)
		*c = LENTZ_TINY;
	*d = 1.0 / *d;
	return *d * *c;
}

/* The continued fraction of I_x(a, b), good for x < (a + 1) / (a + b + 2):
 * modified Lentz's method on the even and odd steps (NR 6.4). */
static double betacf(double x, double a, double b)
{
	const double eps = 1e-15;
	double c = 1.0, d = 1.0 - (a + b) * x / (a + 1.0), h;

	if (fabs(d) < LENTZ_TINY)
		d = LENTZ_TINY;
	d = 1.0 / d;
	h = d;
	for (int m = 1; m <= 1000; m++) {
		int m2 = 2 * m;
		/* even step: d_2m = m (b - m) x / ((a + 2m - 1)(a + 2m)) */
		h *= lentz_step(m * (b - m) * x / ((a + m2 - 1.0) * (a + m2)), &c, &d);
		/* odd step: d_2m+1 = -(a + m)(a + b + m) x / ((a + 2m)(a + 2m + 1)) */
		double step = lentz_step(-(a + m) * (a + b + m) * x / ((a + m2) * (a + m2 + 1.0)),
					 &c, &d);
		h *= step;
		if (fabs(step - 1.0) < eps)
			break;
	}
	return h;
}

double sl_incbeta(double x, double a, double b)
{
	if (!(a > 0) || !(b > 0) || !(x >= 0) || !(x <= 1))
		return NAN;
	if (x == 0 || x == 1)
		return x;
	/* x^a (1-x)^b / (a B(a, b)), in logs */
	double front = exp(lgamma(a + b) - lgamma(a) - lgamma(b) + a * log(x) +
			   b * log1p(-x));
	/* the fraction converges fast below the mean; above it, use
	 * I_x(a, b) = 1 - I_{1-x}(b, a) */
	if (x < (a + 1.0) / (a + b + 2.0))
		return front * betacf(x, a, b) / a;
	return 1.0 - front * betacf(1.0 - x, b, a) / b;
}

double sl_t_two_sided_p(double t, double df)
{
	if (!(df > 0) || isnan(t))
		return NAN;
	if (isinf(t))
		return 0.0;
	return sl_incbeta(df / (df + t * t), df / 2.0, 0.5);
}

void sl_welch_test(const double *a, int na, const double *b, int nb, struct sl_welch *out)
{
	out->t = out->df = out->p = NAN;
	out->significant = false;
	out->testable = na >= 2 && nb >= 2;
	if (!out->testable)
		return;
	double ma = sl_stats_mean(a, na), mb = sl_stats_mean(b, nb);
	double sa = sl_stats_sd(a, na), sb = sl_stats_sd(b, nb);
	double qa = sa * sa / na, qb = sb * sb / nb, se2 = qa + qb;

	if (!(se2 > 0)) {
		/* both sides constant (a deterministic simulation repeated with
		 * the same outcome): no noise, so any difference is real */
		out->p = ma == mb ? 1.0 : 0.0;
		out->significant = ma != mb;
		return;
	}
	out->t = (mb - ma) / sqrt(se2);
	out->df = se2 * se2 / (qa * qa / (na - 1) + qb * qb / (nb - 1));
	out->p = sl_t_two_sided_p(out->t, out->df);
	out->significant = out->p < SL_CMP_ALPHA;
}
