/* test_readfile.c - base/readfile: a user's file read whole within its cap,
 * refused at a NUL byte or past the cap, a directory named as one. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/readfile.h"
#include "test.h"

/* A temporary file holding n bytes of `bytes`; its path in `path`. */
static int write_tmp(char *path, const char *bytes, size_t n)
{
	strcpy(path, "/tmp/schedlab-readfile-XXXXXX");
	int fd = mkstemp(path);
	if (fd < 0)
		return -1;
	ssize_t w = n ? write(fd, bytes, n) : 0;
	close(fd);
	return w == (ssize_t)n ? 0 : -1;
}

SL_TEST(base_read_file_whole_within_its_cap)
{
	char path[64];
	struct sl_file_text in;

	CHECK(write_tmp(path, "0123456789", 10) == 0);
	CHECK(sl_read_file(path, 10, &in) == SL_READ_OK);	/* exactly the cap */
	CHECK(in.len == 10 && !strcmp(in.text, "0123456789"));
	free(in.text);
	CHECK(sl_read_file(path, 9, &in) == SL_READ_TOO_LARGE);
	CHECK(in.text == NULL);
	unlink(path);

	CHECK(write_tmp(path, "", 0) == 0);	/* empty: text "" */
	CHECK(sl_read_file(path, 10, &in) == SL_READ_OK);
	CHECK(in.len == 0 && in.text && !in.text[0]);
	free(in.text);
	unlink(path);

	/* larger than the first buffer: the doubling and the cap meet */
	size_t big = 200000;
	char *many = malloc(big);
	CHECK(many != NULL);
	if (!many)
		return;
	memset(many, 'x', big);
	CHECK(write_tmp(path, many, big) == 0);
	CHECK(sl_read_file(path, big, &in) == SL_READ_OK && in.len == big);
	free(in.text);
	CHECK(sl_read_file(path, big - 1, &in) == SL_READ_TOO_LARGE);
	CHECK(sl_read_file(path, 100000, &in) == SL_READ_TOO_LARGE);
	unlink(path);
	free(many);
}

SL_TEST(base_read_file_refuses_nul_directory_and_missing)
{
	char path[64];
	struct sl_file_text in;

	CHECK(write_tmp(path, "{\"a\":1}\0tail", 12) == 0);
	CHECK(sl_read_file(path, 1 << 20, &in) == SL_READ_HAS_NUL);
	CHECKF(in.len == 7, "NUL at %zu", in.len);
	CHECK(in.text == NULL);
	unlink(path);
	/* a stream without end is refused at its first byte, not after the cap */
	CHECK(sl_read_file("/dev/zero", (size_t)1 << 30, &in) == SL_READ_HAS_NUL);
	CHECK(in.len == 0);
	CHECK(sl_read_file("/tmp", 100, &in) == SL_READ_DIRECTORY);
	CHECK(sl_read_file("/nonexistent/schedlab-readfile", 100, &in) == SL_READ_CANNOT_OPEN);
	CHECK(in.errnum == ENOENT);
}
