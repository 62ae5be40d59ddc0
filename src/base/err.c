/*
 * err.c - error records and allocation helpers (see err.h).
 */
#include "base/err.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Copy `s` into msg with control characters written as C escapes ("\n",
 * "\x01"): a message quotes names and keys from the user's files, which
 * may hold any byte, and must stay one line (the contract: exit 2 and ONE
 * line saying what and where). */
static void set_msg(char *msg, size_t size, const char *s)
{
	size_t n = 0;

	for (; *s; s++) {
		unsigned char c = (unsigned char)*s;
		char esc[8] = { (char)c, 0 };
		if (c == '\n' || c == '\t' || c == '\r')
			snprintf(esc, sizeof(esc), "\\%c", c == '\n' ? 'n' : c == '\t' ? 't' : 'r');
		else if (c < 0x20 || c == 0x7f)
			snprintf(esc, sizeof(esc), "\\x%02x", c);
		size_t len = strlen(esc);
		if (n + len >= size)
			break;
		memcpy(msg + n, esc, len);
		n += len;
	}
	msg[n] = 0;
}

static int fail_v(struct sl_err *err, enum sl_err_kind kind, const char *fmt,
		  va_list ap)
{
	char text[sizeof(err->msg)];

	if (err) {
		err->kind = kind;
		vsnprintf(text, sizeof(text), fmt, ap);
		set_msg(err->msg, sizeof(err->msg), text);
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
	char prefix[256], old[sizeof(err->msg)], text[sizeof(err->msg)];
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
	memcpy(text, prefix, n);
	size_t room = sizeof(err->msg) - 1 - n;
	size_t m = strlen(old);
	if (m > room)
		m = room;
	memcpy(text + n, old, m);
	text[n + m] = 0;
	set_msg(err->msg, sizeof(err->msg), text);
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
