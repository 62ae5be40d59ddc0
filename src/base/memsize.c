/*
 * memsize.c - sizes of memory, the host's memory and the process's limit
 * (see memsize.h).
 */
#include "base/memsize.h"

#include <ctype.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

int sl_mem_parse(const char *opt, const char *text, uint64_t *bytes, struct sl_err *err)
{
	const char *p = text;
	uint64_t v = 0, unit = 1;

	/* digits only: no sign, no space, no fraction (one rule for every
	 * number of the CLI) */
	if (!isdigit((unsigned char)*p))
		goto bad;
	for (; isdigit((unsigned char)*p); p++) {
		if (v > (UINT64_MAX - 9) / 10)
			goto big;
		v = v * 10 + (uint64_t)(*p - '0');
	}
	switch (toupper((unsigned char)*p)) {
	case 'K': unit = 1ULL << 10; p++; break;
	case 'M': unit = 1ULL << 20; p++; break;
	case 'G': unit = 1ULL << 30; p++; break;
	case 'T': unit = 1ULL << 40; p++; break;
	default: break;
	}
	if (*p || v == 0)
		goto bad;
	if (v > UINT64_MAX / unit)
		goto big;
	*bytes = v * unit;
	return 0;
bad:
	return sl_fail(err, "%s '%s': expected a size: a positive number of bytes with an optional "
		       "K, M, G or T (binary), e.g. 512M or 4G", opt, text);
big:
	return sl_fail(err, "%s '%s': too large (expected at most 16777215T)", opt, text);
}

void sl_mem_format(uint64_t bytes, char *buf, size_t size)
{
	static const char *const units[] = { "KiB", "MiB", "GiB", "TiB", "PiB", "EiB" };
	double v = (double)bytes;
	int u = -1;

	if (bytes < 1024) {
		snprintf(buf, size, "%llu bytes", (unsigned long long)bytes);
		return;
	}
	while (v >= 1024 && u < 5) {
		v /= 1024;
		u++;
	}
	snprintf(buf, size, "%.*f %s", v < 10 ? 1 : 0, v, units[u]);
}

uint64_t sl_mem_physical(void)
{
	long pages = sysconf(_SC_PHYS_PAGES), page = sysconf(_SC_PAGESIZE);

	if (pages <= 0 || page <= 0)
		return 0;
	return sl_sat_mul((uint64_t)pages, (uint64_t)page);
}

uint64_t sl_mem_available(void)
{
	FILE *f = fopen("/proc/meminfo", "r");
	char line[256];
	unsigned long long kb;
	uint64_t avail = 0;

	if (!f)
		return 0;
	while (fgets(line, sizeof(line), f))
		if (sscanf(line, "MemAvailable: %llu kB", &kb) == 1) {
			avail = sl_sat_mul(kb, 1024);
			break;
		}
	fclose(f);
	return avail;
}

/* Set once by the CLI, before any thread starts. */
static uint64_t limit_bytes;
static int limit_given;

void sl_mem_set_limit(uint64_t bytes)
{
	limit_bytes = bytes;
	limit_given = bytes != 0;
}

int sl_mem_limit_given(void)
{
	return limit_given;
}

uint64_t sl_mem_limit(void)
{
	uint64_t phys;

	if (limit_given)
		return limit_bytes;
	phys = sl_mem_physical();
	return phys ? phys / 2 : SL_MEM_FALLBACK_LIMIT;
}

int sl_mem_refuse(struct sl_err *err, const char *what, uint64_t need, const char *detail)
{
	char n[32], l[32], p[32];
	uint64_t phys = sl_mem_physical();

	sl_mem_format(need, n, sizeof(n));
	sl_mem_format(sl_mem_limit(), l, sizeof(l));
	sl_mem_format(phys, p, sizeof(p));
	if (limit_given)
		return sl_fail(err, "%s needs about %s of memory (%s), more than --max-mem %s", what,
			       n, detail, l);
	return sl_fail(err, "%s needs about %s of memory (%s), more than the limit of %s (%s%s; "
		       "raise it with --max-mem SIZE)", what, n, detail, l,
		       phys ? "half of this host's " : "the default when the host's memory is "
		       "unknown", phys ? p : "");
}
