/*
 * readfile.c - a user's file read whole, within a cap (readfile.h).
 */
#include "base/readfile.h"

#include <errno.h>
#include <fcntl.h>
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
