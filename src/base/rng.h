/*
 * rng.h - deterministic PRNG streams (xoshiro256** seeded by splitmix64).
 *
 * DESIGN.md: one stream per task (seeded from the run seed and the task's
 * creation index) and one per workload generator, so adding a task does not
 * perturb the others.  sl_rng_derive() builds such a stream from a seed and
 * any number of integer labels.
 */
#ifndef SL_BASE_RNG_H
#define SL_BASE_RNG_H

#include <stdint.h>

struct sl_rng {
	uint64_t s[4];
};

void sl_rng_seed(struct sl_rng *r, uint64_t seed);
/* Independent stream for (seed, a, b): e.g. (run seed, STREAM_TASK, task id). */
void sl_rng_derive(struct sl_rng *r, uint64_t seed, uint64_t a, uint64_t b);
uint64_t sl_rng_next(struct sl_rng *r);
/* Uniform in [0, 1). */
double sl_rng_uniform(struct sl_rng *r);
/* Uniform integer in [0, n). n > 0. */
uint64_t sl_rng_below(struct sl_rng *r, uint64_t n);
/* Standard normal (the ziggurat: rng.c; no state beyond the stream's). */
double sl_rng_normal(struct sl_rng *r);
/* Lognormal with the given median and log-sd. */
double sl_rng_lognormal(struct sl_rng *r, double median, double sigma);
/* `mean` varied by a lognormal factor of mean 1 and log-sd `sigma` (work
 * that varies from call to call around its mean); `mean` itself, with no
 * draw, when sigma or mean is not positive. */
double sl_rng_vary(struct sl_rng *r, double mean, double sigma);
/* n pairs of sl_rng_vary(r, mean_a, sigma) and sl_rng_vary(r, mean_b,
 * sigma), drawn in that order, summed in order into *sum_a and *sum_b:
 * the same values as the 2n calls. */
void sl_rng_vary_pairs(struct sl_rng *r, double mean_a, double mean_b, double sigma, long n,
		       double *sum_a, double *sum_b);
/* Exponential with the given mean. */
double sl_rng_exp(struct sl_rng *r, double mean);

#endif
