/*
 * err.c - error records and allocation helpers (see err.h).
 */
#include "base/err.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* `s` with control characters written as C escapes ("\n", "\x01"),
 * malloc'd: a message quotes names and keys from the user's files, which
 * may hold any byte, and must stay one line (the contract: exit 2 and ONE
 * line saying what and where). */
static char *escape(const char *s)
{
	char *out = sl_xmalloc(4 * strlen(s) + 1), *o = out;

	for (; *s; s++) {
		unsigned char c = (unsigned char)*s;
		if (c == '\n' || c == '\t' || c == '\r')
			o += sprintf(o, "\\%c", c == '\n' ? 'n' : c == '\t' ? 't' : 'r');
		else if (c < 0x20 || c == 0x7f)
			o += sprintf(o, "\\x%02x", c);
		else
			*o++ = (char)c;
	}
	*o = 0;
	return out;
}

/* Set msg to `text`, escaped.  A message longer than the record keeps its
 * head and its tail, joined by " ... ": it quotes the user's input first
 * (which may be 100 KB of it) and says what is wrong last, and both must
 * survive. */
static void set_msg(char *msg, size_t size, const char *text)
{
	static const char gap[] = " ... ";
	char *e = escape(text);
	size_t len = strlen(e);

	if (len < size) {
		memcpy(msg, e, len + 1);
	} else {
		size_t keep = size - 1 - (sizeof(gap) - 1), head = keep / 3, tail = keep - head;
		memcpy(msg, e, head);
		memcpy(msg + head, gap, sizeof(gap) - 1);
		memcpy(msg + head + sizeof(gap) - 1, e + len - tail, tail);
		msg[size - 1] = 0;
	}
	free(e);
}

static int fail_v(struct sl_err *err, enum sl_err_kind kind, const char *fmt,
		  va_list ap)
{
	if (err) {
		va_list again;
		va_copy(again, ap);
		int n = vsnprintf(NULL, 0, fmt, again);
		va_end(again);
		char *text = sl_xmalloc(n > 0 ? (unsigned long)n + 1 : 1);
		if (n < 0 || vsnprintf(text, (size_t)n + 1, fmt, ap) < 0)
			text[0] = 0;
		err->kind = kind;
		set_msg(err->msg, sizeof(err->msg), text);
		free(text);
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
	char prefix[256];
	va_list ap;

	if (!err)
		return;
	va_start(ap, fmt);
	vsnprintf(prefix, sizeof(prefix), fmt, ap);
	va_end(ap);
	size_t n = strlen(prefix), m = strlen(err->msg);
	char *text = sl_xmalloc(n + m + 1);
	memcpy(text, prefix, n);
	memcpy(text + n, err->msg, m + 1);
	set_msg(err->msg, sizeof(err->msg), text);
	free(text);
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
