/*
 * hist.h - a log-bucketed histogram of non-negative integers (latencies in
 * ns), after Gil Tene's HdrHistogram: values below 2^SL_HIST_SUB_BITS are
 * counted exactly; above, each power of two is cut into 2^(SUB_BITS-1)
 * equal buckets, so a percentile is within 1/2^(SUB_BITS-1) (0.8 %) of the
 * true value at any magnitude, in a fixed 58 KB.  The maximum, minimum and
 * sum are kept exactly.  No C HdrHistogram library is packaged in Debian;
 * this is the part of it schedlab needs.
 */
#ifndef SL_BASE_HIST_H
#define SL_BASE_HIST_H

#include <stdint.h>

#define SL_HIST_SUB_BITS 8
#define SL_HIST_BUCKETS ((1 << SL_HIST_SUB_BITS) + \
			 (64 - SL_HIST_SUB_BITS) * (1 << (SL_HIST_SUB_BITS - 1)))

struct sl_hist {
	uint64_t count;
	uint64_t min, max;
	double sum;
	uint64_t bucket[SL_HIST_BUCKETS];
};

void sl_hist_reset(struct sl_hist *h);
void sl_hist_record(struct sl_hist *h, uint64_t v);
/* The value at percentile p (0 < p <= 100): the highest value of the
 * bucket holding the ceil(p/100 * count)-th smallest sample, at most the
 * exact maximum; 0 for an empty histogram. */
uint64_t sl_hist_percentile(const struct sl_hist *h, double p);
double sl_hist_mean(const struct sl_hist *h);
/* The highest value bucket i (0 <= i < SL_HIST_BUCKETS) counts: a CDF's
 * steps (the HTML report's latency charts). */
uint64_t sl_hist_bucket_high(unsigned i);
/* Add every sample of `from` to `h`. */
void sl_hist_merge(struct sl_hist *h, const struct sl_hist *from);

#endif
