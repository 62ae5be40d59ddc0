/*
 * readfile.c - a user's file read whole, within a cap (readfile.h).
 */
#include "base/readfile.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base/err.h"

enum sl_read_status sl_read_file(const char *path, size_t max, struct sl_file_text *out)
{
	enum sl_read_status st = SL_READ_OK;
	struct stat sb;
	char *buf = NULL;
	size_t n = 0, cap = 0;

	memset(out, 0, sizeof(*out));
	int fd = open(path, O_RDONLY | O_NOCTTY | O_CLOEXEC);
	if (fd < 0) {
		out->errnum = errno;
		return SL_READ_CANNOT_OPEN;
	}
	if (!fstat(fd, &sb) && S_ISDIR(sb.st_mode)) {
		close(fd);
		return SL_READ_DIRECTORY;
	}
	for (;;) {
		if (n == cap) {
			if (cap > max) {	/* max + 1 bytes read: too large */
				st = SL_READ_TOO_LARGE;
				break;
			}
			/* room for max + 1 bytes at most, and the terminator */
			cap = cap ? 2 * cap : 65536;
			if (cap > max + 1)
				cap = max + 1;
			buf = sl_xrealloc(buf, cap + 1);
		}
		ssize_t got = read(fd, buf + n, cap - n);
		if (got < 0 && errno == EINTR)
			continue;
		if (got < 0) {
			out->errnum = errno;
			st = SL_READ_FAILED;
			break;
		}
		if (got == 0)
			break;
		const char *nul = memchr(buf + n, 0, (size_t)got);
		if (nul) {
			out->len = (size_t)(nul - buf);
			st = SL_READ_HAS_NUL;
			break;
		}
		n += (size_t)got;
	}
	close(fd);
	if (st == SL_READ_OK && n > max)
		st = SL_READ_TOO_LARGE;
	if (st != SL_READ_OK) {
		free(buf);
		return st;
	}
	/* what the caller holds is the text: a doubling's spare room goes */
	buf = sl_xrealloc(buf, n + 1);
	buf[n] = 0;
	out->text = buf;
	out->len = n;
	return SL_READ_OK;
}

/* "16 MiB", "1 GiB", or bytes */
static void cap_words(char *buf, size_t size, size_t max)
{
	if (max >= (1u << 30) && max % (1u << 30) == 0)
		snprintf(buf, size, "%zu GiB", max >> 30);
	else if (max >= (1u << 20) && max % (1u << 20) == 0)
		snprintf(buf, size, "%zu MiB", max >> 20);
	else
		snprintf(buf, size, "%zu bytes", max);
}

char *sl_read_text(const char *path, size_t max, const char *what, const char *expected,
		   size_t *len, struct sl_err *err)
{
	struct sl_file_text in;
	char cap[32];

	switch (sl_read_file(path, max, &in)) {
	case SL_READ_OK:
		*len = in.len;
		return in.text;
	case SL_READ_CANNOT_OPEN:
		sl_fail(err, "%s: cannot open it (%s)", what, strerror(in.errnum));
		return NULL;
	case SL_READ_DIRECTORY:
		sl_fail(err, "%s: is a directory (expected %s)", what, expected);
		return NULL;
	case SL_READ_TOO_LARGE:
		cap_words(cap, sizeof(cap), max);
		sl_fail(err, "%s: larger than %s (expected %s)", what, cap, expected);
		return NULL;
	case SL_READ_HAS_NUL:
		sl_fail(err, "%s: a NUL byte at offset %zu (expected %s)", what, in.len, expected);
		return NULL;
	default:
		sl_fail(err, "%s: cannot read it (%s)", what, strerror(in.errnum));
		return NULL;
	}
}
