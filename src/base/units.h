/*
 * units.h - time units.  Simulated time is integer nanoseconds (DESIGN.md).
 */
#ifndef SL_BASE_UNITS_H
#define SL_BASE_UNITS_H

#include <stdint.h>

typedef int64_t sl_time;	/* nanoseconds */

#define SL_NSEC 1LL
#define SL_USEC 1000LL
#define SL_MSEC 1000000LL
#define SL_SEC 1000000000LL
#define SL_TIME_MAX INT64_MAX

/*
 * The simulated-time horizon: no run goes past 10^15 ns (1,000,000 s,
 * 11.6 days); the engine stops a run whose next event lies beyond it with
 * an input error (sim/engine.c), and loaders refuse programs that need
 * more (docs/robustness.md, "Simulated time").  Chosen far below
 * INT64_MAX (9.2e18) so that what is derived from a time stays in range:
 * now plus any single delay the loaders accept (at most the horizon
 * again), CPUs x now (256 x 1e15 = 2.6e17, the invariant check), and a
 * nanosecond count times a weight of 1024 (CFS's calc_delta_fair,
 * 1.0e18).
 */
#define SL_TIME_HORIZON (1000000LL * SL_SEC)

static inline double sl_ns_to_s(sl_time t) { return (double)t / 1e9; }
static inline sl_time sl_s_to_ns(double s) { return (sl_time)(s * 1e9 + 0.5); }

#endif
