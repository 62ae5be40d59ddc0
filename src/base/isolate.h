/*
 * isolate.h - run a call that may crash or hang in a child process.
 *
 * Some work is done by a library that is not ours and not safe against
 * hostile input: hwloc 2.9 crashes on some damaged XML topologies
 * (hw/xml_check.c lists the kinds found so far, and the fuzz harness
 * keeps finding new ones).  A user's bad file must end in exit 2 and one
 * clear line, never in a crash, so such a call is first made in a forked
 * child: if the child dies by a signal, or runs past its time, the input
 * is refused before this process touches it.  The child's stdout and
 * stderr go to /dev/null, its crash signals to their default action (no
 * handler of this process, a sanitizer's included, runs in it), and it
 * ends with _exit(), so no exit handler of this process runs twice.
 *
 * Call it before any thread is started (machines are loaded at startup).
 */
#ifndef SL_BASE_ISOLATE_H
#define SL_BASE_ISOLATE_H

enum sl_isolate_result {
	SL_ISOLATE_RETURNED,	/* *status is fn's return value, 0-255 */
	SL_ISOLATE_SIGNALED,	/* *status is the signal that killed the child */
	SL_ISOLATE_TIMED_OUT,	/* it ran past `seconds` and was killed */
	SL_ISOLATE_UNAVAILABLE,	/* fork() or waitpid() failed; *status is errno */
};

/* fn(arg) in a child, killed after `seconds` (> 0) of wall time. */
enum sl_isolate_result sl_isolate(int (*fn)(void *arg), void *arg, unsigned seconds,
				  int *status);

#endif
