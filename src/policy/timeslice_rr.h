/*
 * timeslice_rr.h - scheduler_tick's round robin of interactive tasks
 * (2.6.0's TIMESLICE_GRANULARITY, kept in 2.6.11 and 2.6.12.1): an
 * interactive task that has used a multiple of its granularity, with at
 * least that much slice left, goes to the tail of its list.
 *
 * The test in the kernel's own types: task_timeslice() and p->time_slice
 * are unsigned int (2.6.11 and 2.6.12.1 include/linux/sched.h), so the
 * slice used wraps when a task holds more than its own timeslice (after
 * set_user_nice to a higher nice, which keeps the slice, or after
 * sched_exit gave a parent back a child's larger slice): (2^32 - 16) % 40
 * is 0 where -16 % 40 is not.  Read in 2.6.11 and 2.6.12.1 kernel/sched.c
 * scheduler_tick(); the 2.6.0 tree is not at hand, and o1's 2.6.0 takes
 * the same form.
 */
#ifndef SL_POLICY_TIMESLICE_RR_H
#define SL_POLICY_TIMESLICE_RR_H

#include <stdbool.h>

/* TIMESLICE_GRANULARITY(p): base (GRANULARITY, times the CPUs on SMP)
 * times 2^(n - 1), n = MAX_BONUS - CURRENT_BONUS(p), at least 1: the
 * less interactive, the longer a task runs before its round robin. */
static inline int sl_timeslice_rr_granularity(int base, int n)
{
	return base * (1 << ((n ? n : 1) - 1));
}

/* Whether the slice used so far (timeslice - time_slice, unsigned) is a
 * whole number of granularities `g` (> 0) and `g` of the slice is left. */
static inline bool sl_timeslice_rr_due(int timeslice, int time_slice, int g)
{
	unsigned used = (unsigned)timeslice - (unsigned)time_slice;

	return used % (unsigned)g == 0 && time_slice >= g;
}

/*
 * A test that may answer first, without the granularity: every `g` a task
 * can have is base * 2^k (k >= 0, no overflow: at most 2^9 * base), so a
 * slice used that is no multiple of `base`, or a slice left below it, is
 * no multiple of g or below g either, and sl_timeslice_rr_due is false.
 * True: ask sl_timeslice_rr_due.  Most ticks of an interactive task end
 * here, without working out its bonus (two divisions) for g.
 */
static inline bool sl_timeslice_rr_may_be_due(int timeslice, int time_slice, int base)
{
	unsigned used = (unsigned)timeslice - (unsigned)time_slice;

	return time_slice >= base && used % (unsigned)base == 0;
}

#endif
