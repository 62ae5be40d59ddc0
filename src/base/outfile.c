/*
 * outfile.c - an output file that appears only when it is complete
 * (outfile.h): mkstemp beside the target, rename over it on success.
 */
#include "base/outfile.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

int sl_outfile_open(struct sl_outfile *o, const char *path, const char *what,
		    struct sl_err *err)
{
	memset(o, 0, sizeof(*o));
	o->path = path;
	if (!strcmp(path, "-")) {
		o->f = stdout;
		return 0;
	}
	if (!*path)
		return sl_fail(err, "%s: empty file name", what);
	if (strlen(path) + sizeof(".XXXXXX") > sizeof(o->tmp))
		return sl_fail(err, "%s '%.64s...': the path is too long", what, path);
	snprintf(o->tmp, sizeof(o->tmp), "%s.XXXXXX", path);
	int fd = mkstemp(o->tmp);
	if (fd < 0) {
		int e = errno;
		o->tmp[0] = 0;
		return sl_fail(err, "%s '%s': cannot write beside it (%s)", what, path, strerror(e));
	}
	/* mkstemp's 0600, made what fopen would have made: 0666 less the
	 * umask (read back by setting it, as nothing else can) */
	mode_t mask = umask(0);
	umask(mask);
	if (fchmod(fd, 0666 & ~mask)) {
		int e = errno;
		close(fd);
		unlink(o->tmp);
		o->tmp[0] = 0;
		return sl_fail_internal(err, "%s '%s': %s", what, path, strerror(e));
	}
	o->f = fdopen(fd, "w");
	if (!o->f) {
		int e = errno;
		close(fd);
		unlink(o->tmp);
		o->tmp[0] = 0;
		return sl_fail_internal(err, "%s '%s': %s", what, path, strerror(e));
	}
	return 0;
}

int sl_outfile_commit(struct sl_outfile *o, const char *what, struct sl_err *err)
{
	if (o->f == stdout) {
		o->f = NULL;
		if (fflush(stdout) || ferror(stdout))
			return sl_fail_internal(err, "%s: error writing standard output", what);
		return 0;
	}
	bool bad = ferror(o->f) != 0;
	bad |= fclose(o->f) != 0;
	o->f = NULL;
	if (!bad && rename(o->tmp, o->path) == 0) {
		o->tmp[0] = 0;
		return 0;
	}
	int e = errno;
	unlink(o->tmp);
	o->tmp[0] = 0;
	return sl_fail_internal(err, "%s '%s': error writing it (%s)", what, o->path,
				bad ? "write failed" : strerror(e));
}

void sl_outfile_abort(struct sl_outfile *o)
{
	if (o->f && o->f != stdout)
		fclose(o->f);
	o->f = NULL;
	if (o->tmp[0])
		unlink(o->tmp);
	o->tmp[0] = 0;
}
