/*
 * hist.c - the log-bucketed histogram of hist.h.
 *
 * Bucket index of v: below 2^S (S = SL_HIST_SUB_BITS) v itself; else, with
 * e = floor(log2 v) >= S, the top S bits of v (between 2^(S-1) and 2^S - 1
 * after a shift of e - S + 1) select one of 2^(S-1) buckets of exponent e.
 */
#include "base/hist.h"

#include <math.h>
#include <string.h>

#define S SL_HIST_SUB_BITS
#define HALF (1u << (S - 1))

static unsigned index_of(uint64_t v)
{
	if (v < (1u << S))
		return (unsigned)v;
	unsigned e = 63u - (unsigned)__builtin_clzll(v);
	unsigned shift = e - S + 1;
	unsigned sub = (unsigned)(v >> shift);	/* HALF .. 2*HALF - 1 */
	return (1u << S) + (e - S) * HALF + (sub - HALF);
}

/* The highest value that falls in bucket i. */
static uint64_t highest_of(unsigned i)
{
	if (i < (1u << S))
		return i;
	unsigned e = (i - (1u << S)) / HALF + S;
	unsigned sub = (i - (1u << S)) % HALF + HALF;
	unsigned shift = e - S + 1;
	return (((uint64_t)sub + 1) << shift) - 1;
}

uint64_t sl_hist_bucket_high(unsigned i)
{
	return highest_of(i);
}

void sl_hist_reset(struct sl_hist *h)
{
	memset(h, 0, sizeof(*h));
}

void sl_hist_record(struct sl_hist *h, uint64_t v)
{
	if (!h->count || v < h->min)
		h->min = v;
	if (v > h->max)
		h->max = v;
	h->count++;
	h->sum += (double)v;
	h->bucket[index_of(v)]++;
}

uint64_t sl_hist_percentile(const struct sl_hist *h, double p)
{
	if (!h->count)
		return 0;
	if (p >= 100)
		return h->max;
	double want = ceil(p / 100.0 * (double)h->count);
	uint64_t rank = want < 1 ? 1 : (uint64_t)want, seen = 0;
	for (unsigned i = index_of(h->min); i < SL_HIST_BUCKETS; i++) {
		seen += h->bucket[i];
		if (seen >= rank) {
			uint64_t v = highest_of(i);
			return v < h->max ? v : h->max;
		}
	}
	return h->max;
}

double sl_hist_mean(const struct sl_hist *h)
{
	return h->count ? h->sum / (double)h->count : 0;
}

void sl_hist_merge(struct sl_hist *h, const struct sl_hist *from)
{
	if (!from->count)
		return;
	if (!h->count || from->min < h->min)
		h->min = from->min;
	if (from->max > h->max)
		h->max = from->max;
	h->count += from->count;
	h->sum += from->sum;
	for (unsigned i = 0; i < SL_HIST_BUCKETS; i++)
		h->bucket[i] += from->bucket[i];
}
