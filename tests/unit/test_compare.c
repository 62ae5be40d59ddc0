/*
 * test_compare.c - `schedlab compare`: Welch's t-test on known samples
 * (t, df and p checked against closed forms and mpmath), the incomplete
 * beta function, and the comparison of hand-made result files marking a
 * significant and a not significant difference.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "report/compare.h"
#include "report/compare_stats.h"
#include "test.h"

static int near(double a, double b, double rel)
{
	return fabs(a - b) <= rel * fabs(b);
}

SL_TEST(compare_incbeta)
{
	/* references: mpmath.betainc(a, b, 0, x, regularized=True) */
	CHECK(near(sl_incbeta(0.3, 2.5, 0.5), 0.018927124071945652, 1e-12));
	CHECK(near(sl_incbeta(0.9, 10, 3), 0.88913002225500006, 1e-12));
	/* I_x(1, 1) = x; I_x(a, 1) = x^a */
	CHECK(near(sl_incbeta(0.25, 1, 1), 0.25, 1e-14));
	CHECK(near(sl_incbeta(0.5, 3, 1), 0.125, 1e-14));
	CHECK(sl_incbeta(0, 2, 3) == 0 && sl_incbeta(1, 2, 3) == 1);
	CHECK(isnan(sl_incbeta(1.5, 2, 3)) && isnan(sl_incbeta(0.5, 0, 3)));
	/* Student's t, df 1 (Cauchy): P(|T| >= 1) = 1/2 */
	CHECK(near(sl_t_two_sided_p(1.0, 1.0), 0.5, 1e-12));
}

/* df = 2 has a closed form: P(|T| >= t) = 1 - t / sqrt(2 + t^2).  With
 * two samples of two values of equal variance, Welch's df is exactly 2. */
SL_TEST(compare_welch_significant)
{
	const double a[] = { 1, 2 }, b[] = { 10, 11 };
	struct sl_welch w;
	double t = 9.0 / sqrt(0.5);	/* means 1.5 and 10.5, va/na + vb/nb = 0.5 */

	sl_welch_test(a, 2, b, 2, &w);
	CHECK(w.testable);
	CHECK(near(w.t, t, 1e-12));
	CHECK(near(w.df, 2.0, 1e-12));
	CHECKF(near(w.p, 1 - t / sqrt(2 + t * t), 1e-9), "p %.17g", w.p);	/* 0.0061162653 */
	CHECK(w.significant);
}

SL_TEST(compare_welch_not_significant)
{
	const double a[] = { 1, 3 }, b[] = { 5, 7 };
	struct sl_welch w;
	double t = 4.0 / sqrt(2.0);

	sl_welch_test(a, 2, b, 2, &w);
	CHECK(near(w.t, t, 1e-12) && near(w.df, 2.0, 1e-12));
	CHECKF(near(w.p, 1 - t / sqrt(2 + t * t), 1e-9), "p %.17g", w.p);	/* 0.1055728 */
	CHECK(!w.significant);
}

/* Unequal sizes and variances (non-integer df); references from mpmath. */
SL_TEST(compare_welch_unequal)
{
	const double a[] = { 117.2, 118.0, 116.9, 117.5, 117.9 };
	const double b[] = { 110.1, 109.8, 111.0, 110.4, 110.9 };
	const double c[] = { 10.0, 12.0, 11.0, 13.0, 9.0 };
	const double d[] = { 11.0, 13.5, 10.5, 12.0, 12.5, 11.0 };
	struct sl_welch w;

	sl_welch_test(a, 5, b, 5, &w);
	CHECK(near(w.t, -22.8336718255662, 1e-10) && near(w.df, 7.92013449572767, 1e-10));
	CHECKF(near(w.p, 1.6387821133792e-8, 1e-6), "p %.17g", w.p);
	CHECK(w.significant);
	sl_welch_test(c, 5, d, 6, &w);
	CHECK(near(w.t, 0.888523316638639, 1e-10) && near(w.df, 7.09698558322412, 1e-10));
	CHECKF(near(w.p, 0.403367701366205, 1e-9), "p %.17g", w.p);
	CHECK(!w.significant);
}

SL_TEST(compare_welch_edges)
{
	const double one[] = { 5 }, k1[] = { 2, 2, 2 }, k2[] = { 3, 3, 3 };
	struct sl_welch w;

	sl_welch_test(one, 1, k1, 3, &w);
	CHECK(!w.testable && !w.significant);
	sl_welch_test(k1, 3, k2, 3, &w);	/* constant and different: real */
	CHECK(w.testable && w.significant && w.p == 0);
	sl_welch_test(k1, 3, k1, 3, &w);
	CHECK(w.testable && !w.significant && w.p == 1);
}

/* A `run` result of one policy with the given elapsed_s samples. */
static char *run_json(const char *policy, const double *v, int n)
{
	char *s = malloc(4096);
	int len = snprintf(s, 4096, "{ \"machine\": \"m\", \"workload\": \"spin\", \"runs\": [");

	for (int i = 0; i < n; i++)
		len += snprintf(s + len, (size_t)(4096 - len),
				"%s{ \"policy\": \"%s\", \"rep\": %d, \"metrics\": { \"elapsed_s\": "
				"%.17g }, \"units\": { \"elapsed_s\": \"s\" } }", i ? ", " : "",
				policy, i, v[i]);
	snprintf(s + len, (size_t)(4096 - len), "] }");
	return s;
}

static char *compare_text(const double *a, int na, const char *pb, const double *b, int nb)
{
	struct sl_cmp_file f[2];
	struct sl_err err = { 0 };
	char *ta = run_json("o1", a, na), *tb = run_json(pb, b, nb), *buf = NULL;
	size_t size = 0;
	FILE *out = open_memstream(&buf, &size);

	CHECK(!sl_cmp_load_text(&f[0], "a.json", ta, &err));
	CHECK(!sl_cmp_load_text(&f[1], "b.json", tb, &err));
	CHECKF(!sl_cmp_print(out, f, 2, NULL, 0, &err), "%s", err.msg);
	fclose(out);
	sl_cmp_free(&f[0]);
	sl_cmp_free(&f[1]);
	free(ta);
	free(tb);
	return buf;
}

SL_TEST(compare_marks)
{
	const double a[] = { 1, 2 }, sig[] = { 10, 11 }, not[] = { 1, 3 }, one[] = { 4 };
	char *s;

	s = compare_text(a, 2, "o1", sig, 2);	/* +600%, p 0.006 */
	CHECKF(strstr(s, "*  600.00%*") != NULL, "%s", s);
	free(s);
	s = compare_text(a, 2, "o1", not, 2);	/* +33%, p 0.59 */
	CHECKF(strstr(s, "(   33.33%)") != NULL, "%s", s);
	free(s);
	s = compare_text(a, 2, "o1", one, 1);
	CHECKF(strstr(s, "[  166.67%]") != NULL, "%s", s);
	free(s);
	/* a file with one column (real's host) meets every policy */
	s = compare_text(a, 2, "real: Linux", sig, 2);
	CHECKF(strstr(s, "*  600.00%*") != NULL, "%s", s);
	free(s);
}

SL_TEST(compare_bad_input)
{
	struct sl_cmp_file f[2];
	struct sl_err err = { 0 };

	CHECK(sl_cmp_load_text(&f[0], "x.json", "{ \"runs\": [ { \"rep\": 0 } ] }", &err) &&
	      err.kind == SL_ERR_INPUT && strstr(err.msg, "x.json: runs[0]"));
	sl_cmp_free(&f[0]);
	CHECK(sl_cmp_load_text(&f[0], "x.json", "[1, 2", &err) && strstr(err.msg, "x.json:1: invalid JSON"));
	sl_cmp_free(&f[0]);
	CHECK(sl_cmp_load_text(&f[0], "x.json", "{ \"schedlab_shard\": 1 }", &err) &&
	      strstr(err.msg, "merge"));
	sl_cmp_free(&f[0]);
	/* nothing in common */
	CHECK(!sl_cmp_load_text(&f[0], "a.json", "{ \"workload\": \"w\", \"runs\": [ { \"policy\": "
				"\"a\", \"metrics\": { \"x\": 1 } }, { \"policy\": \"b\", \"metrics\": "
				"{ \"x\": 1 } } ] }", &err));
	CHECK(!sl_cmp_load_text(&f[1], "b.json", "{ \"workload\": \"v\", \"runs\": [ { \"policy\": "
				"\"a\", \"metrics\": { \"x\": 1 } } ] }", &err));
	CHECK(sl_cmp_print(stdout, f, 2, NULL, 0, &err) && strstr(err.msg, "in common"));
	sl_cmp_free(&f[0]);
	sl_cmp_free(&f[1]);
}
