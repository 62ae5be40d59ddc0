/*
 * err.c - error records and allocation helpers (see err.h).
 */
#include "base/err.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int fail_v(struct sl_err *err, enum sl_err_kind kind, const char *fmt,
		  va_list ap)
{
	if (err) {
		err->kind = kind;
		vsnprintf(err->msg, sizeof(err->msg), fmt, ap);
	}
	return -1;
}

int sl_fail(struct sl_err *err, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	fail_v(err, SL_ERR_INPUT, fmt, ap);
	va_end(ap);
	return -1;
}

int sl_fail_internal(struct sl_err *err, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	fail_v(err, SL_ERR_INTERNAL, fmt, ap);
	va_end(ap);
	return -1;
}

void sl_err_prefix(struct sl_err *err, const char *fmt, ...)
{
	char prefix[256], old[sizeof(err->msg)];
	va_list ap;

	if (!err)
		return;
	va_start(ap, fmt);
	vsnprintf(prefix, sizeof(prefix), fmt, ap);
	va_end(ap);
	memcpy(old, err->msg, sizeof(old));
	size_t n = strlen(prefix);
	if (n >= sizeof(err->msg))
		n = sizeof(err->msg) - 1;
	memcpy(err->msg, prefix, n);
	size_t room = sizeof(err->msg) - 1 - n;
	size_t m = strlen(old);
	if (m > room)
		m = room;
	memcpy(err->msg + n, old, m);
	err->msg[n + m] = 0;
}

static void *check(void *p)
{
	if (!p) {
		fputs("schedlab: out of memory\n", stderr);
		exit(1);
	}
	return p;
}

void *sl_xmalloc(unsigned long size) { return check(malloc(size ? size : 1)); }
void *sl_xcalloc(unsigned long n, unsigned long size) { return check(calloc(n ? n : 1, size ? size : 1)); }
void *sl_xrealloc(void *p, unsigned long size) { return check(realloc(p, size ? size : 1)); }
char *sl_xstrdup(const char *s) { return check(strdup(s)); }
