/*
 * cpus.h - the CPUs a real run may use: a Linux CPU list ("0-3,6") parsed
 * into a cpu_set_t and checked against the CPUs this process may run on,
 * and the text form of a set for labels.
 */
#ifndef SL_REAL_CPUS_H
#define SL_REAL_CPUS_H

#include <sched.h>
#include <stddef.h>

#include "base/err.h"

/* The CPUs this process may run on (sched_getaffinity). 0 or -1 + err. */
int sl_real_cpus_allowed(cpu_set_t *set, struct sl_err *err);

/*
 * Parse a CPU list: comma-separated CPU numbers and ranges "a-b" (a <= b),
 * e.g. "0", "0,2", "0-3,6".  Every CPU must be in `allowed`.  `opt` names
 * the option in messages.  0, or -1 with an input error naming the list.
 */
int sl_real_cpus_parse(const char *opt, const char *text, const cpu_set_t *allowed,
		       cpu_set_t *set, struct sl_err *err);

/* "0-3,6": the set in Linux's list form (empty set: ""). */
void sl_real_cpus_format(const cpu_set_t *set, char *buf, size_t size);

#endif
