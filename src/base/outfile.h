/*
 * outfile.h - an output file that appears only when it is complete.
 *
 * A command that writes a file the user named (`run --trace FILE`, `trace
 * import -o FILE`) writes it to a temporary file beside the target and
 * renames it over the target only when everything went well: a run that
 * fails (bad input found late, an internal error, Ctrl-C) leaves no partial
 * file and the user's old file untouched, and a symlink at the target is
 * replaced, never written through.  While the temporary file is open,
 * SIGINT, SIGTERM and SIGHUP (where their action is the default) remove it
 * before they end the process; one temporary file is watched at a time.  "-" means standard output, written
 * directly.  The same pattern as src/real/ktree.c's cache files.
 *
 * A target that is a stream, not a file - a character device (/dev/null,
 * a terminal), a named pipe, or a link to one (/dev/stdout) - is opened and
 * written as it comes, never replaced: renaming over /dev/null would put a
 * file where the device was.  A named pipe blocks the open until a reader
 * comes, as any writer's would.  A directory or a block device (a disk) is
 * refused before any work starts.
 */
#ifndef SL_BASE_OUTFILE_H
#define SL_BASE_OUTFILE_H

#include <stdbool.h>
#include <stdio.h>

#include "base/err.h"

struct sl_outfile {
	FILE *f;		/* write here */
	const char *path;	/* the target, as given */
	char tmp[4200];		/* the temporary file beside it; "" for stdout */
	bool stream;		/* the target is a device or a pipe: written directly */
};

/* Open `path` ("-": standard output) for writing, before any work starts:
 * a directory that cannot hold the file is bad input (-1, err names
 * `what` and the path). */
int sl_outfile_open(struct sl_outfile *o, const char *path, const char *what,
		    struct sl_err *err);
/* Finish: flush, close and rename over the target.  -1 (internal error,
 * the temporary file removed) if anything failed to be written. */
int sl_outfile_commit(struct sl_outfile *o, const char *what, struct sl_err *err);
/* Give up: close and remove the temporary file; the target is untouched. */
void sl_outfile_abort(struct sl_outfile *o);

#endif
