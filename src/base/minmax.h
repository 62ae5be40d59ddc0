/*
 * minmax.h - the smaller and the larger of two doubles without libm's
 * fmin and fmax calls, for the paths of every re-timing and switch.
 * glibc's fmin and fmax of two numbers are minsd and maxsd, a < b ? a : b
 * and a > b ? a : b: the same values for every operand but NaN, which
 * these callers never pass.
 */
#ifndef SL_BASE_MINMAX_H
#define SL_BASE_MINMAX_H

static inline double sl_min_d(double a, double b)
{
	return a < b ? a : b;
}

static inline double sl_max_d(double a, double b)
{
	return a > b ? a : b;
}

#endif
