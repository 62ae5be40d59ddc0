/*
 * rng.c - xoshiro256** (Blackman & Vigna, 2018) with splitmix64 seeding.
 * Chosen for speed and because its output is identical on every platform.
 */
#include "base/rng.h"

#include <math.h>
#include <stdbool.h>

#include "base/rng_zig.h"

static uint64_t splitmix64(uint64_t *x)
{
	uint64_t z = (*x += 0x9e3779b97f4a7c15ULL);
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

void sl_rng_seed(struct sl_rng *r, uint64_t seed)
{
	uint64_t x = seed;
	for (int i = 0; i < 4; i++)
		r->s[i] = splitmix64(&x);
}

void sl_rng_derive(struct sl_rng *r, uint64_t seed, uint64_t a, uint64_t b)
{
	uint64_t x = seed;
	uint64_t h = splitmix64(&x);
	x = h ^ (a * 0xd1342543de82ef95ULL);
	h = splitmix64(&x);
	x = h ^ (b * 0xaf251af3b0f025b5ULL);
	sl_rng_seed(r, splitmix64(&x));
}

static inline uint64_t rotl(uint64_t x, int k) { return (x << k) | (x >> (64 - k)); }

uint64_t sl_rng_next(struct sl_rng *r)
{
	uint64_t *s = r->s;
	uint64_t result = rotl(s[1] * 5, 7) * 9;
	uint64_t t = s[1] << 17;
	s[2] ^= s[0];
	s[3] ^= s[1];
	s[1] ^= s[2];
	s[0] ^= s[3];
	s[2] ^= t;
	s[3] = rotl(s[3], 45);
	return result;
}

double sl_rng_uniform(struct sl_rng *r)
{
	return (double)(sl_rng_next(r) >> 11) * 0x1.0p-53;
}

uint64_t sl_rng_below(struct sl_rng *r, uint64_t n)
{
	/* Lemire's nearly-divisionless method would be faster; modulo bias at
	 * 64 bits is negligible for the n we use (< 2^32). */
	return sl_rng_next(r) % n;
}

/* A draw's uniform and layer (the ziggurat's, below). */
static inline double zig_u(uint64_t bits)
{
	return (double)((int64_t)bits >> 11) * 0x1.0p-52;
}

static inline int zig_layer(uint64_t bits)
{
	return (int)(bits & (ZIG_LAYERS - 1));
}

/* The 3 % of draws `bits` that miss the first comparison: the tail or the
 * wedge test, and a new draw while rejected - the loop of the ziggurat
 * from that draw on, the same values in the same order as one loop.  Out
 * of line (it calls exp and log1p): the common draw, inlined where a
 * lognormal factor is drawn, then needs no frame of saved registers
 * (1.7 % of a chat run's instructions). */
static __attribute__((noinline)) double normal_rare(struct sl_rng *r, uint64_t bits)
{
	for (;;) {
		double u = zig_u(bits);
		int i = zig_layer(bits);

		if (fabs(u) < zig_r[i])
			return u * zig_x[i];
		if (i == 0) {		/* the base layer: beyond R is the tail */
			double x, y;
			do {
				x = log1p(-sl_rng_uniform(r)) / ZIG_R;
				y = log1p(-sl_rng_uniform(r));
			} while (-2 * y < x * x);
			return u < 0 ? x - ZIG_R : ZIG_R - x;
		}
		double x = u * zig_x[i];
		double f0 = exp(-0.5 * (zig_x[i] * zig_x[i] - x * x));
		double f1 = exp(-0.5 * (zig_x[i + 1] * zig_x[i + 1] - x * x));
		if (f1 + sl_rng_uniform(r) * (f0 - f1) < 1.0)
			return x;
		bits = sl_rng_next(r);
	}
}

/*
 * Standard normal by the ziggurat (Marsaglia & Tsang 2000, in Doornik's
 * 2005 form; tables in rng_zig.h): one 64-bit draw gives the layer (its
 * low 7 bits) and a uniform in [-1, 1) (its top 53), disjoint bits, so the
 * two are independent.  97 % of draws end at the first comparison; the
 * rest test the wedge against the density (two exp) or sample the tail
 * beyond R (Marsaglia's 1964 method).  It replaced Box-Muller (a log, a
 * sqrt and a cos per draw: a quarter of a chat run's time) in Dec 2026.
 */
static inline double normal(struct sl_rng *r)
{
	uint64_t bits = sl_rng_next(r);
	double u = zig_u(bits);
	int i = zig_layer(bits);

	if (fabs(u) < zig_r[i])
		return u * zig_x[i];
	return normal_rare(r, bits);
}

double sl_rng_normal(struct sl_rng *r)
{
	return normal(r);
}

double sl_rng_lognormal(struct sl_rng *r, double median, double sigma)
{
	return median * exp(sigma * normal(r));
}

/* One lognormal draw of mean `mean`: half is sigma^2 / 2, which keeps the
 * mean (sl_rng_vary and sl_rng_vary_pairs share it). */
static inline double vary_draw(struct sl_rng *r, double mean, double sigma, double half)
{
	return mean * exp(sigma * normal(r) - half);
}

double sl_rng_vary(struct sl_rng *r, double mean, double sigma)
{
	if (sigma <= 0 || mean <= 0)
		return mean;
	return vary_draw(r, mean, sigma, sigma * sigma / 2);
}

/* The loop of sl_rng_vary pairs in one call: the per-draw tests and
 * sigma^2 / 2 once, and the common draw inlined (a chat client's receive
 * of k messages draws 2k of them: 2.9 % of a chat run in the calls). */
void sl_rng_vary_pairs(struct sl_rng *r, double mean_a, double mean_b, double sigma, long n,
		       double *sum_a, double *sum_b)
{
	bool vary_a = sigma > 0 && mean_a > 0, vary_b = sigma > 0 && mean_b > 0;
	double half = sigma * sigma / 2, a = 0, b = 0;

	for (long i = 0; i < n; i++) {
		a += vary_a ? vary_draw(r, mean_a, sigma, half) : mean_a;
		b += vary_b ? vary_draw(r, mean_b, sigma, half) : mean_b;
	}
	*sum_a = a;
	*sum_b = b;
}

double sl_rng_exp(struct sl_rng *r, double mean)
{
	double u = sl_rng_uniform(r);
	return -mean * log1p(-u);
}
