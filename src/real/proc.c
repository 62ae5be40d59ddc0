/*
 * proc.c - spawning, pinning, reaping and killing real processes (see
 * proc.h).
 */
#include "real/proc.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define NSIGS 3
static const int handled[NSIGS] = { SIGINT, SIGTERM, SIGHUP };
static struct sigaction saved_action[NSIGS];
static bool installed[NSIGS];
static int saved_subreaper;
static bool subreaper_set;

static volatile sig_atomic_t caught;
static struct sl_real_procs *volatile active;

double sl_real_now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* ---- signals ---- */

static void kill_live(struct sl_real_procs *ps)
{
	for (int i = 0; i < ps->n; i++)
		if (ps->child[i].live)
			kill(-ps->child[i].pid, SIGKILL);
}

static void on_signal(int sig)
{
	struct sl_real_procs *ps = active;
	int saved_errno = errno;

	if (!caught)
		caught = sig;
	if (ps)
		kill_live(ps);
	errno = saved_errno;
}

void sl_real_signals_install(void)
{
	struct sigaction sa;

	caught = 0;
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_signal;
	sigfillset(&sa.sa_mask);
	sa.sa_flags = 0;	/* no SA_RESTART: waits return EINTR */
	for (int i = 0; i < NSIGS; i++) {
		sigaction(handled[i], NULL, &saved_action[i]);
		installed[i] = handled[i] == SIGTERM || saved_action[i].sa_handler != SIG_IGN;
		if (installed[i])
			sigaction(handled[i], &sa, NULL);
	}
	subreaper_set = prctl(PR_GET_CHILD_SUBREAPER, &saved_subreaper) == 0 &&
			prctl(PR_SET_CHILD_SUBREAPER, 1) == 0;
}

void sl_real_signals_restore(void)
{
	for (int i = 0; i < NSIGS; i++)
		if (installed[i])
			sigaction(handled[i], &saved_action[i], NULL);
	memset(installed, 0, sizeof(installed));
	if (subreaper_set)
		prctl(PR_SET_CHILD_SUBREAPER, saved_subreaper);
	subreaper_set = false;
}

int sl_real_interrupted(void)
{
	return caught;
}

static void block_signals(sigset_t *old)
{
	sigset_t set;

	sigemptyset(&set);
	for (int i = 0; i < NSIGS; i++)
		sigaddset(&set, handled[i]);
	sigprocmask(SIG_BLOCK, &set, old);
}

static int interrupted_error(struct sl_err *err)
{
	return sl_fail_internal(err, "interrupted by SIG%s; every child process was killed",
				sigabbrev_np(caught) ? sigabbrev_np(caught) : "?");
}

/* ---- the set ---- */

int sl_real_procs_begin(struct sl_real_procs *ps, int cap, const cpu_set_t *cpus,
			struct sl_err *err)
{
	memset(ps, 0, sizeof(*ps));
	if (caught)
		return interrupted_error(err);
	ps->cap = cap;
	ps->child = sl_xcalloc((unsigned long)cap, sizeof(*ps->child));
	if (cpus) {
		ps->pin = true;
		ps->cpus = *cpus;
	}
	active = ps;
	return 0;
}

/* In the child, before fn: own group, die with the parent, default signal
 * actions, the set's CPUs.  Async-signal-safe calls only. */
static void child_setup(const struct sl_real_procs *ps, pid_t parent, const sigset_t *mask)
{
	struct sigaction dfl;

	setpgid(0, 0);
	prctl(PR_SET_PDEATHSIG, SIGKILL);
	if (getppid() != parent)
		_exit(125);
	memset(&dfl, 0, sizeof(dfl));
	dfl.sa_handler = SIG_DFL;
	for (int i = 0; i < NSIGS; i++)
		if (installed[i])
			sigaction(handled[i], &dfl, NULL);
	if (ps->pin && sched_setaffinity(0, sizeof(ps->cpus), &ps->cpus))
		_exit(126);
	sigprocmask(SIG_SETMASK, mask, NULL);
}

pid_t sl_real_procs_spawn(struct sl_real_procs *ps, bool counted, int (*fn)(void *),
			  void *arg, struct sl_err *err)
{
	pid_t parent = getpid(), pid;
	sigset_t old;

	if (caught)
		return interrupted_error(err);
	if (ps->n == ps->cap)
		return sl_fail_internal(err, "more than %d processes in one set", ps->cap);
	block_signals(&old);
	if (!ps->n)
		ps->t0 = sl_real_now();
	pid = fork();
	if (pid == 0) {
		child_setup(ps, parent, &old);
		_exit(fn(arg) & 0xff);
	}
	if (pid < 0) {
		int e = errno;
		sigprocmask(SIG_SETMASK, &old, NULL);
		return sl_fail_internal(err, "fork: %s", strerror(e));
	}
	setpgid(pid, pid);	/* also here, so the group exists before any kill */
	ps->child[ps->n++] = (struct sl_real_child){ .pid = pid, .counted = counted,
						     .live = true };
	sigprocmask(SIG_SETMASK, &old, NULL);
	return pid;
}

static int find_child(const struct sl_real_procs *ps, pid_t pid)
{
	for (int i = 0; i < ps->n; i++)
		if (ps->child[i].pid == pid && ps->child[i].live)
			return i;
	return -1;
}

/* Kill what is left of a reaped child's group and reap it (we are the
 * subreaper of its orphans); give up after about ten seconds of processes
 * that do not die (uninterruptible sleep). */
static void reap_group(pid_t pgid)
{
	struct timespec ms = { 0, 1000000 };

	for (int tries = 0; tries < 10000; tries++) {
		kill(-pgid, SIGKILL);
		while (waitpid(-pgid, NULL, WNOHANG) > 0)
			;
		if (kill(-pgid, 0) < 0 && errno == ESRCH)
			return;
		nanosleep(&ms, NULL);
	}
}

/* Reap child i (a zombie): record its status and rusage, clean its group. */
static void reap_child(struct sl_real_procs *ps, int i)
{
	struct sl_real_child *c = &ps->child[i];
	sigset_t old;

	block_signals(&old);
	kill(-c->pid, SIGKILL);	/* the leader is a zombie: its id is still ours */
	while (wait4(c->pid, &c->status, 0, &c->ru) < 0 && errno == EINTR)
		;
	c->end_s = sl_real_now() - ps->t0;
	c->live = false;
	reap_group(c->pid);
	sigprocmask(SIG_SETMASK, &old, NULL);
}

static void describe(int status, char *buf, size_t size)
{
	if (WIFEXITED(status))
		snprintf(buf, size, "exited with status %d", WEXITSTATUS(status));
	else if (WIFSIGNALED(status))
		snprintf(buf, size, "was killed by SIG%s",
			 sigabbrev_np(WTERMSIG(status)) ? sigabbrev_np(WTERMSIG(status)) : "?");
	else
		snprintf(buf, size, "ended with wait status %#x", status);
}

static bool failed(int status)
{
	return !WIFEXITED(status) || WEXITSTATUS(status) != 0;
}

int sl_real_procs_wait(struct sl_real_procs *ps, struct sl_real_usage *u, struct sl_err *err)
{
	int live = 0, bad = -1;

	for (int i = 0; i < ps->n; i++)
		live += ps->child[i].live;
	while (live > 0) {
		siginfo_t si;
		memset(&si, 0, sizeof(si));
		if (waitid(P_ALL, 0, &si, WEXITED | WNOWAIT) < 0) {
			if (errno == EINTR)
				continue;	/* the handler has killed the groups */
			return sl_fail_internal(err, "waitid: %s", strerror(errno));
		}
		int i = find_child(ps, si.si_pid);
		if (i < 0) {		/* an orphan handed to us as subreaper */
			waitpid(si.si_pid, NULL, 0);
			continue;
		}
		reap_child(ps, i);
		live--;
		if (bad < 0 && !caught && failed(ps->child[i].status)) {
			bad = i;
			kill_live(ps);
		}
	}
	if (caught)
		return interrupted_error(err);
	if (bad >= 0) {
		char how[96];
		describe(ps->child[bad].status, how, sizeof(how));
		return sl_fail_internal(err, "process %d of %d (pid %d) %s; the others were killed",
					bad + 1, ps->n, (int)ps->child[bad].pid, how);
	}
	if (u) {
		memset(u, 0, sizeof(*u));
		for (int i = 0; i < ps->n; i++) {
			if (!ps->child[i].counted)
				continue;
			sl_real_usage_add(u, &ps->child[i].ru);
			if (ps->child[i].end_s > u->elapsed_s)
				u->elapsed_s = ps->child[i].end_s;
		}
	}
	return 0;
}

void sl_real_procs_end(struct sl_real_procs *ps)
{
	kill_live(ps);
	for (int i = 0; i < ps->n; i++)
		if (ps->child[i].live)
			reap_child(ps, i);
	if (active == ps)
		active = NULL;
	free(ps->child);
	memset(ps, 0, sizeof(*ps));
}

/* ---- commands ---- */

int sl_real_exec(void *arg)
{
	const struct sl_real_cmd *cmd = arg;
	int null = open("/dev/null", O_RDWR);
	int out = cmd->out_fd >= 0 ? cmd->out_fd : null;

	if (null < 0 || (cmd->dir && chdir(cmd->dir)))
		return 127;
	if (dup2(null, 0) < 0 || dup2(out, 1) < 0 || dup2(out, 2) < 0)
		return 127;
	execvp(cmd->argv[0], (char *const *)cmd->argv);
	return 127;
}

/* "make -j2 vmlinux" for messages. */
static void cmd_text(const struct sl_real_cmd *cmd, char *buf, size_t size)
{
	size_t len = 0;

	buf[0] = 0;
	for (int i = 0; cmd->argv[i] && len + 1 < size; i++) {
		int n = snprintf(buf + len, size - len, "%s%s", i ? " " : "", cmd->argv[i]);
		if (n < 0)
			break;
		len += (size_t)n;
	}
}

int sl_real_run_cmd(const struct sl_real_cmd *cmd, const cpu_set_t *cpus,
		    struct sl_real_usage *u, struct sl_err *err)
{
	struct sl_real_procs ps;
	char text[256], how[96];
	int rc = -1;

	if (sl_real_procs_begin(&ps, 1, cpus, err))
		return -1;
	if (sl_real_procs_spawn(&ps, true, sl_real_exec, (void *)cmd, err) < 0)
		goto out;
	if (sl_real_procs_wait(&ps, u, err)) {
		if (!caught) {
			cmd_text(cmd, text, sizeof(text));
			describe(ps.child[0].status, how, sizeof(how));
			sl_fail_internal(err, "'%s' %s%s", text, how,
					 WIFEXITED(ps.child[0].status) &&
					 WEXITSTATUS(ps.child[0].status) == 127 ?
					 " (could not be run: is it installed?)" : "");
		}
		goto out;
	}
	rc = 0;
out:
	sl_real_procs_end(&ps);
	return rc;
}

int sl_real_root_run(const cpu_set_t *cpus, int (*fn)(void *), void *arg, int *result_fd,
		     double *result, struct sl_real_usage *u, struct sl_err *err)
{
	struct sl_real_procs ps;
	int fds[2], rc = -1;

	if (pipe(fds))
		return sl_fail_internal(err, "pipe: %s", strerror(errno));
	*result_fd = fds[1];
	if (sl_real_procs_begin(&ps, 1, cpus, err))
		goto out_fds;
	if (sl_real_procs_spawn(&ps, true, fn, arg, err) < 0)
		goto out;
	close(fds[1]);
	fds[1] = -1;
	if (sl_real_procs_wait(&ps, u, err))
		goto out;
	if (read(fds[0], result, sizeof(*result)) != (ssize_t)sizeof(*result)) {
		sl_fail_internal(err, "no result from the root process");
		goto out;
	}
	rc = 0;
out:
	sl_real_procs_end(&ps);
out_fds:
	close(fds[0]);
	if (fds[1] >= 0)
		close(fds[1]);
	return rc;
}
