/*
 * outfile.c - an output file that appears only when it is complete
 * (outfile.h): mkstemp beside the target, rename over it on success.
 */
#include "base/outfile.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* ---- signals ----
 *
 * SIGINT, SIGTERM or SIGHUP while a temporary file is open would leave it
 * beside the target (a long run's trace: hundreds of MB).  While one is
 * open, those signals - where their action is the default - remove it and
 * then kill us by the same signal, as the default action would.  The
 * handler runs once (SA_RESETHAND) and uses only unlink and raise. */

static const int handled[] = { SIGINT, SIGTERM, SIGHUP };
#define NSIGS ((int)(sizeof(handled) / sizeof(handled[0])))
static char active_tmp[sizeof(((struct sl_outfile *)0)->tmp)];
static volatile sig_atomic_t have_tmp;
static bool ours[NSIGS];

static void on_signal(int sig)
{
	if (have_tmp)
		unlink(active_tmp);
	raise(sig);	/* delivered, with the default action, once we return */
}

static void watch(const char *tmp)
{
	struct sigaction sa, old;

	have_tmp = 0;
	memcpy(active_tmp, tmp, sizeof(active_tmp));
	have_tmp = 1;
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_signal;
	sigfillset(&sa.sa_mask);
	sa.sa_flags = SA_RESETHAND;
	for (int i = 0; i < NSIGS; i++) {
		sigaction(handled[i], NULL, &old);
		ours[i] = old.sa_handler == SIG_DFL || old.sa_handler == on_signal;
		if (ours[i])
			sigaction(handled[i], &sa, NULL);
	}
}

/* Back to the default actions, where they are still ours (a caller may
 * have installed its own meanwhile, as trace record does). */
static void unwatch(void)
{
	struct sigaction dfl, cur;

	have_tmp = 0;
	memset(&dfl, 0, sizeof(dfl));
	dfl.sa_handler = SIG_DFL;
	for (int i = 0; i < NSIGS; i++) {
		if (!ours[i])
			continue;
		sigaction(handled[i], NULL, &cur);
		if (cur.sa_handler == on_signal)
			sigaction(handled[i], &dfl, NULL);
		ours[i] = false;
	}
}

/* ---- the file ---- */

/* A target that exists and is not a regular file (outfile.h): refused
 * (-1), opened as a stream (1), or 0 to write a file beside it. */
static int open_existing(struct sl_outfile *o, const char *path, const char *what,
			 struct sl_err *err)
{
	struct stat st;

	if (stat(path, &st) || S_ISREG(st.st_mode))
		return 0;
	if (S_ISDIR(st.st_mode))
		return sl_fail(err, "%s '%s': is a directory (expected a file name)", what, path);
	if (S_ISBLK(st.st_mode))
		return sl_fail(err, "%s '%s': is a block device, not a file", what, path);
	int fd = open(path, O_WRONLY | O_NOCTTY | O_CLOEXEC);
	if (fd < 0)
		return sl_fail(err, "%s '%s': cannot write it (%s)", what, path, strerror(errno));
	/* what was opened is what counts (the path may have changed since) */
	if (fstat(fd, &st) || S_ISREG(st.st_mode) || S_ISDIR(st.st_mode)) {
		close(fd);
		return 0;
	}
	o->f = fdopen(fd, "w");
	if (!o->f) {
		int e = errno;
		close(fd);
		return sl_fail_internal(err, "%s '%s': %s", what, path, strerror(e));
	}
	o->stream = true;
	return 1;
}

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
	int existing = open_existing(o, path, what, err);
	if (existing)
		return existing < 0 ? -1 : 0;
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
	watch(o->tmp);
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
	if (o->stream) {
		o->stream = false;
		if (bad)
			return sl_fail_internal(err, "%s '%s': error writing it", what, o->path);
		return 0;
	}
	if (!bad && rename(o->tmp, o->path) == 0) {
		unwatch();
		o->tmp[0] = 0;
		return 0;
	}
	int e = errno;
	unlink(o->tmp);
	unwatch();
	o->tmp[0] = 0;
	return sl_fail_internal(err, "%s '%s': error writing it (%s)", what, o->path,
				bad ? "write failed" : strerror(e));
}

void sl_outfile_abort(struct sl_outfile *o)
{
	if (o->f && o->f != stdout)
		fclose(o->f);
	o->f = NULL;
	o->stream = false;
	if (o->tmp[0]) {
		unlink(o->tmp);
		unwatch();
	}
	o->tmp[0] = 0;
}
