/*
 * proc.h - real processes: spawning, pinning, reaping with wait4() rusage,
 * and killing everything on Ctrl-C or failure.
 *
 * A run's processes form a *set*: each direct child leads its own process
 * group (its descendants stay in it unless they make their own), runs with
 * the set's CPU affinity, and is killed if schedlab dies (PDEATHSIG).
 * schedlab is a child subreaper while signals are installed, so orphaned
 * descendants come back to it and are reaped too.  When a direct child is
 * reaped its group is killed and reaped as well, so nothing outlives it.
 *
 * Signals: between sl_real_signals_install() and _restore(), SIGINT,
 * SIGTERM and SIGHUP set a flag and SIGKILL every live group of the active
 * set from the handler itself; the waits then return an "interrupted"
 * error.  SIGINT and SIGHUP stay ignored if they were ignored at install
 * (a background job of a non-interactive shell).
 *
 * One set is active at a time; the runner is single-threaded.  Only
 * async-signal-safe calls run in the handler and between fork and the
 * child's function.
 */
#ifndef SL_REAL_PROC_H
#define SL_REAL_PROC_H

#include <sched.h>
#include <stdbool.h>
#include <sys/resource.h>
#include <sys/types.h>

#include "base/err.h"
#include "real/usage.h"

struct sl_real_child {
	pid_t pid;		/* also its process group id */
	bool counted;		/* its rusage goes into the set's usage */
	bool live;		/* not reaped yet */
	int status;		/* wait status once reaped */
	struct rusage ru;	/* wait4()'s, once reaped */
	double end_s;		/* reaped at, seconds after the first spawn */
};

struct sl_real_procs {
	int n, cap;
	struct sl_real_child *child;
	bool pin;
	cpu_set_t cpus;
	double t0;		/* monotonic time of the first spawn */
};

/* Install the handlers and become a child subreaper; restore both. */
void sl_real_signals_install(void);
void sl_real_signals_restore(void);
/* The signal that interrupted the run (0 if none) since install. */
int sl_real_interrupted(void);

/* Seconds on the monotonic clock. */
double sl_real_now(void);

/* An empty set for up to `cap` direct children, pinned to `cpus` if not
 * NULL.  Fails (err "interrupted") if a signal has already arrived. */
int sl_real_procs_begin(struct sl_real_procs *ps, int cap, const cpu_set_t *cpus,
			struct sl_err *err);

/* Fork a direct child that runs fn(arg) and exits with its return value
 * (0..255).  `counted`: whether its rusage is part of the result.  Its pid,
 * or -1 with err set (fork failure, interruption, set full). */
pid_t sl_real_procs_spawn(struct sl_real_procs *ps, bool counted, int (*fn)(void *),
			  void *arg, struct sl_err *err);

/*
 * Wait for every direct child.  `u` (may be NULL) receives the counted
 * children's summed rusage; its elapsed_s runs from the first spawn to the
 * last counted child's exit.  A child that exits with a non-zero status or
 * dies of a signal is a failure: every other group is killed at once and
 * -1 returned with err naming it; an interruption likewise.
 */
int sl_real_procs_wait(struct sl_real_procs *ps, struct sl_real_usage *u, struct sl_err *err);

/* Kill and reap whatever is still live, and free the set.  Safe after any
 * outcome of the calls above. */
void sl_real_procs_end(struct sl_real_procs *ps);

/*
 * A benchmark run by one root process (hackbench, pingpong): spawn fn(arg)
 * as the only, counted child (pinned to `cpus` if not NULL), so that its
 * wait4() rusage holds every process it starts; before that, *result_fd
 * is set to a pipe's write end, on which the root writes one double (the
 * time it measured itself).  0 with *result and *u set, or -1 with err.
 */
int sl_real_root_run(const cpu_set_t *cpus, int (*fn)(void *), void *arg, int *result_fd,
		     double *result, struct sl_real_usage *u, struct sl_err *err);

/* A command for sl_real_exec(): argv[0] is looked up in PATH, run in
 * `dir` (NULL: the current directory) with stdin from /dev/null and
 * stdout and stderr to `out_fd` (-1: /dev/null). */
struct sl_real_cmd {
	const char *const *argv;
	const char *dir;
	int out_fd;
};

/* A child function (for sl_real_procs_spawn) that execs a struct
 * sl_real_cmd; it exits 127 if the command cannot be run. */
int sl_real_exec(void *cmd);

/* Run one command to completion in its own set; `u` (may be NULL) gets its
 * usage.  0, or -1 with err "'make clean' exited with status 2". */
int sl_real_run_cmd(const struct sl_real_cmd *cmd, const cpu_set_t *cpus,
		    struct sl_real_usage *u, struct sl_err *err);

#endif
