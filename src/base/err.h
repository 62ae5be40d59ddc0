/*
 * err.h - one-line error reports carried back to the caller.
 *
 * Nothing below cli/ prints or exits: a function that can fail on bad input
 * fills a struct sl_err and returns -1 (or NULL).  The CLI prints the single
 * line and exits 2 (bad input) or 1 (internal failure), as DESIGN.md's
 * interface contract requires.
 */
#ifndef SL_BASE_ERR_H
#define SL_BASE_ERR_H

#include <stdarg.h>

enum sl_err_kind {
	SL_ERR_NONE = 0,
	SL_ERR_INPUT = 2,	/* the user gave something wrong: exit 2 */
	SL_ERR_INTERNAL = 1,	/* we failed: exit 1 */
};

struct sl_err {
	enum sl_err_kind kind;
	char msg[512];
};

/* Record a bad-input error; returns -1 so callers can `return sl_fail(...)`. */
int sl_fail(struct sl_err *err, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
/* Record an internal error (out of memory, broken invariant); returns -1. */
int sl_fail_internal(struct sl_err *err, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
/* Prefix an existing message with context ("machine 'x': " + old message). */
void sl_err_prefix(struct sl_err *err, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

/* Allocation that never returns NULL: aborts with a message on exhaustion. */
void *sl_xmalloc(unsigned long size);
void *sl_xcalloc(unsigned long n, unsigned long size);
void *sl_xrealloc(void *p, unsigned long size);
char *sl_xstrdup(const char *s);

#endif
