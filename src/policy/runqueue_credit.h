/*
 * runqueue_credit.h - the O(1) family's credit for time spent waiting on
 * the runqueue after a wakeup (2.6.0's interactivity rules, kept in
 * 2.6.11 and 2.6.12.1): at the first pick after a task woke, schedule()
 * counts the wait as sleep, all of it if an interrupt woke the task and
 * ON_RUNQUEUE_WEIGHT percent of it if a task did.
 *
 * The percentage as the kernel writes it: delta * (ON_RUNQUEUE_WEIGHT *
 * 128 / 100) / 128, the factor truncated to 128ths, so 30 % is 38 / 128
 * (0.296875).  Read in 2.6.11 and 2.6.12.1 kernel/sched.c schedule(); the
 * 2.6.0 tree is not at hand, and o1's 2.6.0 takes the same form.
 */
#ifndef SL_POLICY_RUNQUEUE_CREDIT_H
#define SL_POLICY_RUNQUEUE_CREDIT_H

#include "base/units.h"

static inline sl_time sl_runqueue_credit(sl_time delta, int weight_pct)
{
	return delta * (weight_pct * 128 / 100) / 128;
}

#endif
