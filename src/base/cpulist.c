/*
 * cpulist.c - the CPU lists of cpulist.h.
 */
#include "base/cpulist.h"

#include <ctype.h>
#include <stdlib.h>

/* A CPU number at *p: digits only (no sign, no space). */
static int number(const char **p, long *out)
{
	const char *s = *p;
	long v = 0;

	if (!isdigit((unsigned char)*s))
		return -1;
	for (; isdigit((unsigned char)*s); s++) {
		v = v * 10 + (*s - '0');
		if (v > SL_MAX_CPUS)
			v = SL_MAX_CPUS + 1;	/* out of range whatever follows */
	}
	*p = s;
	*out = v;
	return 0;
}

int sl_cpulist_parse(const char *text, int ncpus, const char *what, sl_cpumask *out,
		     struct sl_err *err)
{
	const char *p = text;

	sl_cpumask_clear(out);
	for (;;) {
		long lo, hi;
		if (number(&p, &lo))
			return sl_fail(err, "%s '%s': expected CPU numbers or ranges joined by '+' "
				       "(e.g. 0-1+4)", what, text);
		hi = lo;
		if (*p == '-') {
			p++;
			if (number(&p, &hi))
				return sl_fail(err, "%s '%s': a range needs two CPU numbers (e.g. 0-3)",
					       what, text);
			if (hi < lo)
				return sl_fail(err, "%s '%s': range %ld-%ld runs backwards", what,
					       text, lo, hi);
		}
		if (hi >= ncpus)
			return sl_fail(err, "%s '%s': CPU %ld is not on the machine (CPUs 0-%d)",
				       what, text, hi, ncpus - 1);
		for (long c = lo; c <= hi; c++)
			sl_cpumask_set(out, (int)c);
		if (!*p)
			return 0;
		if (*p != '+')
			return sl_fail(err, "%s '%s': unexpected '%c' (CPU numbers or ranges joined "
				       "by '+', e.g. 0-1+4)", what, text, *p);
		p++;
	}
}
