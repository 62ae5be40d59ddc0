/*
 * memsize.h - sizes of memory: saturating arithmetic for estimates that
 * must not wrap, SIZE options ("512M", "4G"), the host's memory, and the
 * process's memory limit that runs are checked against before they start
 * (docs/robustness.md "Memory").
 *
 * The limit is one per process, like an rlimit: the CLI sets it from
 * --max-mem before any work, everything that estimates a run's memory
 * (the sweep, the workloads that load files) compares with it.
 */
#ifndef SL_BASE_MEMSIZE_H
#define SL_BASE_MEMSIZE_H

#include <stddef.h>
#include <stdint.h>

#include "base/err.h"

/* a + b and a * b, stuck at UINT64_MAX instead of wrapping. */
static inline uint64_t sl_sat_add(uint64_t a, uint64_t b)
{
	return a > UINT64_MAX - b ? UINT64_MAX : a + b;
}

static inline uint64_t sl_sat_mul(uint64_t a, uint64_t b)
{
	return a && b > UINT64_MAX / a ? UINT64_MAX : a * b;
}

/* Parse SIZE: a positive integer of bytes with an optional binary suffix
 * K, M, G or T (case-insensitive), e.g. 512M, 4G.  `opt` names the option
 * in the message.  0, or -1 with err set. */
int sl_mem_parse(const char *opt, const char *text, uint64_t *bytes, struct sl_err *err);

/* "16.3 GiB", "512 MiB", "900 bytes" into buf. */
void sl_mem_format(uint64_t bytes, char *buf, size_t size);

/* The host's physical memory (sysconf), bytes; 0 if unknown. */
uint64_t sl_mem_physical(void);
/* MemAvailable of /proc/meminfo, bytes; 0 if unknown. */
uint64_t sl_mem_available(void);

/* The limit runs are checked against: --max-mem if set, else half of
 * physical memory (SL_MEM_FALLBACK_LIMIT if that is unknown). */
#define SL_MEM_FALLBACK_LIMIT (4ULL << 30)
/* Set the limit (0: back to the default, for tests). */
void sl_mem_set_limit(uint64_t bytes);
uint64_t sl_mem_limit(void);
/* True when the limit was set by sl_mem_set_limit (--max-mem). */
int sl_mem_limit_given(void);

/* The refusal: "WHAT needs about N of memory (DETAIL), more than the limit
 * of L (half of this host's P; raise it with --max-mem SIZE)", or "more
 * than --max-mem L".  Returns -1 with err set (bad input). */
int sl_mem_refuse(struct sl_err *err, const char *what, uint64_t need, const char *detail);

#endif
