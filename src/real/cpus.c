/*
 * cpus.c - CPU lists for --cpus (see cpus.h).
 */
#include "real/cpus.h"

#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int sl_real_cpus_allowed(cpu_set_t *set, struct sl_err *err)
{
	CPU_ZERO(set);
	if (sched_getaffinity(0, sizeof(*set), set))
		return sl_fail_internal(err, "sched_getaffinity: %s", strerror(errno));
	return 0;
}

/* A CPU number at *p (digits only); advances *p.  -1 if none or too big. */
static long cpu_number(const char **p)
{
	long v = 0;

	if (!isdigit((unsigned char)**p))
		return -1;
	while (isdigit((unsigned char)**p)) {
		v = v * 10 + (**p - '0');
		if (v >= CPU_SETSIZE)
			return -1;
		(*p)++;
	}
	return v;
}

int sl_real_cpus_parse(const char *opt, const char *text, const cpu_set_t *allowed,
		       cpu_set_t *set, struct sl_err *err)
{
	const char *p = text;
	char have[256];

	CPU_ZERO(set);
	sl_real_cpus_format(allowed, have, sizeof(have));
	for (;;) {
		long lo = cpu_number(&p), hi = lo;
		if (lo >= 0 && *p == '-') {
			p++;
			hi = cpu_number(&p);
		}
		if (lo < 0 || hi < lo || (*p && *p != ','))
			return sl_fail(err, "%s '%s': expected a CPU list such as 0,2 or 0-3 "
				       "(CPUs of this host: %s)", opt, text, have);
		for (long c = lo; c <= hi; c++) {
			if (!CPU_ISSET((int)c, allowed))
				return sl_fail(err, "%s '%s': CPU %ld is not available (CPUs of "
					       "this host: %s)", opt, text, c, have);
			CPU_SET((int)c, set);
		}
		if (!*p)
			return 0;
		p++;	/* the comma */
	}
}

void sl_real_cpus_format(const cpu_set_t *set, char *buf, size_t size)
{
	size_t len = 0;

	buf[0] = 0;
	for (int c = 0; c < CPU_SETSIZE; c++) {
		if (!CPU_ISSET(c, set) || (c > 0 && CPU_ISSET(c - 1, set)))
			continue;
		int end = c;
		while (end + 1 < CPU_SETSIZE && CPU_ISSET(end + 1, set))
			end++;
		int n = end > c ? snprintf(buf + len, size - len, "%s%d-%d", len ? "," : "", c, end)
				: snprintf(buf + len, size - len, "%s%d", len ? "," : "", c);
		if (n < 0 || (size_t)n >= size - len)
			return;
		len += (size_t)n;
	}
}
