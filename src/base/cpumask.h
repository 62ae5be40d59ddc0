/*
 * cpumask.h - fixed-size CPU bit masks (like the kernel's cpumask_t).
 *
 * SL_MAX_CPUS bounds every machine schedlab simulates; masks are passed by
 * value and iterated in ascending CPU order, which keeps runs deterministic.
 */
#ifndef SL_BASE_CPUMASK_H
#define SL_BASE_CPUMASK_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define SL_MAX_CPUS 1024
#define SL_CPUMASK_WORDS (SL_MAX_CPUS / 64)

typedef struct {
	uint64_t w[SL_CPUMASK_WORDS];
} sl_cpumask;

static inline void sl_cpumask_clear(sl_cpumask *m)
{
	for (int i = 0; i < SL_CPUMASK_WORDS; i++)
		m->w[i] = 0;
}
static inline void sl_cpumask_set(sl_cpumask *m, int cpu) { m->w[cpu >> 6] |= 1ULL << (cpu & 63); }
static inline void sl_cpumask_unset(sl_cpumask *m, int cpu) { m->w[cpu >> 6] &= ~(1ULL << (cpu & 63)); }
static inline bool sl_cpumask_test(const sl_cpumask *m, int cpu) { return (m->w[cpu >> 6] >> (cpu & 63)) & 1; }

/* Set bits of a word.  Without -mpopcnt (Debian's x86-64 baseline)
 * __builtin_popcountll is a call into libgcc per word; this is a dozen
 * inline operations, and 0 words, the common case of a large machine's
 * mask, cost a test. */
static inline int sl_popcount64(uint64_t x)
{
	if (!x)
		return 0;
	x -= (x >> 1) & 0x5555555555555555ULL;
	x = (x & 0x3333333333333333ULL) + ((x >> 2) & 0x3333333333333333ULL);
	x = (x + (x >> 4)) & 0x0f0f0f0f0f0f0f0fULL;
	return (int)((x * 0x0101010101010101ULL) >> 56);
}

static inline int sl_cpumask_weight(const sl_cpumask *m)
{
	int n = 0;
	for (int i = 0; i < SL_CPUMASK_WORDS; i++)
		n += sl_popcount64(m->w[i]);
	return n;
}

/* cpumask_weight_and() */
static inline int sl_cpumask_weight_and(const sl_cpumask *a, const sl_cpumask *b)
{
	int n = 0;
	for (int i = 0; i < SL_CPUMASK_WORDS; i++)
		n += sl_popcount64(a->w[i] & b->w[i]);
	return n;
}

static inline bool sl_cpumask_empty(const sl_cpumask *m)
{
	uint64_t any = 0;
	for (int i = 0; i < SL_CPUMASK_WORDS; i++)
		any |= m->w[i];
	return !any;
}

/* cpumask_intersects(): stops at the first common word, no copy. */
static inline bool sl_cpumask_intersects(const sl_cpumask *a, const sl_cpumask *b)
{
	for (int i = 0; i < SL_CPUMASK_WORDS; i++)
		if (a->w[i] & b->w[i])
			return true;
	return false;
}

/* The CPUs in m, counted up to two (2: two or more), without a popcount
 * of the whole mask: it stops at the first word with two CPUs, or at the
 * second word with one. */
static inline int sl_cpumask_weight_upto2(const sl_cpumask *m)
{
	int n = 0;
	for (int i = 0; i < SL_CPUMASK_WORDS; i++) {
		uint64_t w = m->w[i];
		if (!w)
			continue;
		if (n || (w & (w - 1)))
			return 2;
		n = 1;
	}
	return n;
}

/* At most one CPU in m (the kernel's nr_cpus_allowed < 2). */
static inline bool sl_cpumask_at_most_one(const sl_cpumask *m)
{
	return sl_cpumask_weight_upto2(m) < 2;
}

static inline sl_cpumask sl_cpumask_and(sl_cpumask a, const sl_cpumask *b)
{
	for (int i = 0; i < SL_CPUMASK_WORDS; i++)
		a.w[i] &= b->w[i];
	return a;
}

static inline sl_cpumask sl_cpumask_or(sl_cpumask a, const sl_cpumask *b)
{
	for (int i = 0; i < SL_CPUMASK_WORDS; i++)
		a.w[i] |= b->w[i];
	return a;
}

static inline bool sl_cpumask_equal(const sl_cpumask *a, const sl_cpumask *b)
{
	for (int i = 0; i < SL_CPUMASK_WORDS; i++)
		if (a->w[i] != b->w[i])
			return false;
	return true;
}

/* Mask of CPUs 0..n-1. */
static inline sl_cpumask sl_cpumask_first_n(int n)
{
	sl_cpumask m;
	sl_cpumask_clear(&m);
	for (int c = 0; c < n; c++)
		sl_cpumask_set(&m, c);
	return m;
}

/* Next set CPU at or after `from`, or -1. */
static inline int sl_cpumask_next(const sl_cpumask *m, int from)
{
	for (int c = from; c < SL_MAX_CPUS;) {
		uint64_t w = m->w[c >> 6] >> (c & 63);
		if (w)
			return c + __builtin_ctzll(w);
		c = (c | 63) + 1;
	}
	return -1;
}

static inline int sl_cpumask_first(const sl_cpumask *m) { return sl_cpumask_next(m, 0); }

/* The last set CPU, or -1. */
static inline int sl_cpumask_last(const sl_cpumask *m)
{
	for (int i = SL_CPUMASK_WORDS - 1; i >= 0; i--)
		if (m->w[i])
			return i * 64 + 63 - __builtin_clzll(m->w[i]);
	return -1;
}

#define sl_for_each_cpu(cpu, mask) \
	for (int cpu = sl_cpumask_first(mask); cpu >= 0; cpu = sl_cpumask_next(mask, cpu + 1))

/*
 * Bounded walks for hot paths: the next CPU of a & b (b NULL: of a) at
 * or after `from` and before `end`, or -1.  sl_cpumask_next looks as far
 * as SL_MAX_CPUS, 16 words; a policy's loops over every CPU of a group,
 * a node or the machine stop at its last CPU (end = ncpus or the group's
 * end), and an intersection is taken a word at a time, not through a
 * 128-byte temporary.
 */
static inline int sl_cpumask_next_and_in(const sl_cpumask *a, const sl_cpumask *b, int from, int end)
{
	while (from < end) {
		uint64_t w = a->w[from >> 6] & (b ? b->w[from >> 6] : ~0ULL);
		w >>= from & 63;
		if (w) {
			int c = from + __builtin_ctzll(w);
			return c < end ? c : -1;
		}
		from = (from | 63) + 1;
	}
	return -1;
}

static inline int sl_cpumask_next_in(const sl_cpumask *m, int from, int end)
{
	return sl_cpumask_next_and_in(m, NULL, from, end);
}

/* cpumask_intersects(a, b) for an `a` whose CPUs all lie in begin..end-1
 * (a group's span): a word per 64 CPUs of it, not all 16 words for every
 * group. */
static inline bool sl_cpumask_intersects_in(const sl_cpumask *a, const sl_cpumask *b, int begin,
					    int end)
{
	for (int i = begin >> 6; i <= (end - 1) >> 6; i++)
		if (a->w[i] & b->w[i])
			return true;
	return false;
}

/* cpumask_subset(a, b) for an `a` whose CPUs all lie in begin..end-1. */
static inline bool sl_cpumask_subset_in(const sl_cpumask *a, const sl_cpumask *b, int begin,
					int end)
{
	for (int i = begin >> 6; i <= (end - 1) >> 6; i++)
		if (a->w[i] & ~b->w[i])
			return false;
	return true;
}

/* for_each_cpu_and(cpu, a, b) over CPUs begin..end-1 (b NULL: over a). */
#define sl_for_each_cpu_and_in(cpu, a, b, begin, end) \
	for (int cpu = sl_cpumask_next_and_in(a, b, begin, end); cpu >= 0; \
	     cpu = sl_cpumask_next_and_in(a, b, cpu + 1, end))
#define sl_for_each_cpu_in(cpu, mask, begin, end) sl_for_each_cpu_and_in(cpu, mask, NULL, begin, end)

#endif
