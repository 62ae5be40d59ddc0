/*
 * isolate.c - run a call that may crash or hang in a child process
 * (isolate.h).
 */
#include "base/isolate.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <sys/wait.h>
#include <unistd.h>

/* The signals a crash raises; the child takes each with its default
 * action, so that it dies quietly and the parent reads the signal. */
static const int crash_signals[] = { SIGSEGV, SIGBUS, SIGABRT, SIGFPE, SIGILL, SIGTRAP };

static _Noreturn void run_child(int (*fn)(void *arg), void *arg, unsigned seconds)
{
	int devnull = open("/dev/null", O_WRONLY);
	sigset_t unblock;

	if (devnull >= 0) {
		dup2(devnull, STDOUT_FILENO);
		dup2(devnull, STDERR_FILENO);
	}
	sigemptyset(&unblock);
	sigaddset(&unblock, SIGALRM);
	for (size_t i = 0; i < sizeof(crash_signals) / sizeof(crash_signals[0]); i++) {
		signal(crash_signals[i], SIG_DFL);
		sigaddset(&unblock, crash_signals[i]);
	}
	signal(SIGALRM, SIG_DFL);
	/* a mask inherited from the caller must not hold back the alarm */
	sigprocmask(SIG_UNBLOCK, &unblock, NULL);
	alarm(seconds);
	_exit(fn(arg) & 0xff);
}

enum sl_isolate_result sl_isolate(int (*fn)(void *arg), void *arg, unsigned seconds,
				  int *status)
{
	int wstatus;
	pid_t pid;

	/* buffered output would otherwise be written by both processes */
	fflush(stdout);
	fflush(stderr);
	pid = fork();
	if (pid < 0) {
		*status = errno;
		return SL_ISOLATE_UNAVAILABLE;
	}
	if (pid == 0)
		run_child(fn, arg, seconds);
	while (waitpid(pid, &wstatus, 0) < 0) {
		if (errno != EINTR) {
			*status = errno;
			return SL_ISOLATE_UNAVAILABLE;
		}
	}
	if (WIFSIGNALED(wstatus)) {
		*status = WTERMSIG(wstatus);
		return *status == SIGALRM ? SL_ISOLATE_TIMED_OUT : SL_ISOLATE_SIGNALED;
	}
	*status = WEXITSTATUS(wstatus);
	return SL_ISOLATE_RETURNED;
}
