/*
 * test_hist.c - base/hist: the log-bucketed histogram against a sorted
 * reference (percentiles within the bucket precision, never below the true
 * value), exact small values, and the extremes of the 64-bit range.
 */
#include <stdlib.h>
#include <string.h>

#include "base/hist.h"
#include "base/rng.h"
#include "test.h"

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
	return x < y ? -1 : x > y;
}

SL_TEST(hist_percentiles_match_a_sorted_reference)
{
	enum { N = 20000 };
	static uint64_t v[N];
	static struct sl_hist h;
	struct sl_rng r;
	sl_hist_reset(&h);
	sl_rng_seed(&r, 5);
	for (int i = 0; i < N; i++) {
		/* latencies from 1 ns to ~1 s, log-uniform */
		v[i] = (uint64_t)sl_rng_below(&r, 1ull << (1 + sl_rng_below(&r, 30)));
		sl_hist_record(&h, v[i]);
	}
	qsort(v, N, sizeof(v[0]), cmp_u64);
	const double ps[] = { 1, 50, 90, 99, 99.9, 99.99 };
	for (size_t k = 0; k < sizeof(ps) / sizeof(ps[0]); k++) {
		size_t rank = (size_t)((ps[k] / 100.0) * N + 0.999999);
		uint64_t exact = v[rank - 1], got = sl_hist_percentile(&h, ps[k]);
		CHECKF(got >= exact && got <= exact + exact / 128,
		       "p%g: got %llu exact %llu", ps[k], (unsigned long long)got,
		       (unsigned long long)exact);
	}
	CHECK(sl_hist_percentile(&h, 100) == v[N - 1]);
	CHECK(h.min == v[0] && h.max == v[N - 1] && h.count == N);
}

SL_TEST(hist_small_values_are_exact)
{
	static struct sl_hist h;
	sl_hist_reset(&h);
	CHECK(sl_hist_percentile(&h, 50) == 0);	/* empty */
	for (uint64_t x = 1; x <= 200; x++)
		sl_hist_record(&h, x);
	CHECK(sl_hist_percentile(&h, 50) == 100);
	CHECK(sl_hist_percentile(&h, 99) == 198);
	CHECK(sl_hist_percentile(&h, 0.1) == 1);
	CHECK(sl_hist_mean(&h) == 100.5);
}

SL_TEST(hist_extremes_and_merge)
{
	static struct sl_hist a, b;
	sl_hist_reset(&a);
	sl_hist_reset(&b);
	sl_hist_record(&a, UINT64_MAX);
	sl_hist_record(&a, 1ull << 63);
	sl_hist_record(&b, 0);
	sl_hist_record(&b, 7000000);	/* 7 ms */
	CHECK(sl_hist_percentile(&a, 50) >= 1ull << 63);
	CHECK(sl_hist_percentile(&a, 100) == UINT64_MAX);
	uint64_t p = sl_hist_percentile(&b, 90);
	CHECKF(p == 7000000, "p90 %llu", (unsigned long long)p);	/* capped at the exact max */
	sl_hist_merge(&a, &b);
	CHECK(a.count == 4 && a.min == 0 && a.max == UINT64_MAX);
	CHECK(sl_hist_percentile(&a, 25) == 0);
	uint64_t q = sl_hist_percentile(&a, 50);
	CHECKF(q >= 7000000 && q <= 7000000 + 7000000 / 128, "p50 %llu", (unsigned long long)q);
}
