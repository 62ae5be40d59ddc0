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

static inline double sl_ns_to_s(sl_time t) { return (double)t / 1e9; }
static inline sl_time sl_s_to_ns(double s) { return (sl_time)(s * 1e9 + 0.5); }

#endif
