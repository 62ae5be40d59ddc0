/*
 * readfile.h - a user's file read whole, within a cap, before it is parsed.
 *
 * Every reader that takes a whole file into memory - an experiment, a
 * result for `compare`, a shard for `merge`, an rt-app file, a trace
 * workload, a machine's XML - reads it here.  At most `max` bytes are
 * kept (a file that goes on is refused there, so /dev/zero or a runaway
 * file costs `max`, not the machine's memory); a NUL byte ends the read at
 * once (none of these formats is binary, and /dev/zero is refused at its
 * first byte); a directory is named as one.  sl_read_text words a refusal
 * the same way for every reader, naming the file as the reader does and
 * what it expected.
 */
#ifndef SL_BASE_READFILE_H
#define SL_BASE_READFILE_H

#include <stddef.h>

enum sl_read_status {
	SL_READ_OK,
	SL_READ_CANNOT_OPEN,	/* errnum says why */
	SL_READ_DIRECTORY,
	SL_READ_TOO_LARGE,	/* more than max bytes */
	SL_READ_HAS_NUL,	/* a NUL byte at offset `len` */
	SL_READ_FAILED,		/* a read error; errnum says why */
};

struct sl_file_text {
	char *text;	/* NUL-terminated, malloc'd; NULL unless SL_READ_OK */
	size_t len;	/* bytes (SL_READ_HAS_NUL: the NUL's offset) */
	int errnum;	/* SL_READ_CANNOT_OPEN, SL_READ_FAILED: errno */
};

enum sl_read_status sl_read_file(const char *path, size_t max, struct sl_file_text *out);

/* The same, a refusal put in words: the text (NUL-terminated, malloc'd;
 * its length in *len), or NULL with err (bad input) saying "WHAT: cannot
 * open it (...)", "WHAT: is a directory (expected EXPECTED)", "WHAT:
 * larger than 16 MiB (expected EXPECTED)", "WHAT: a NUL byte at offset N
 * (expected EXPECTED)" or "WHAT: cannot read it (...)". */
struct sl_err;
char *sl_read_text(const char *path, size_t max, const char *what, const char *expected,
		   size_t *len, struct sl_err *err);

#endif
