/*
 * perf_tools.c - perf and the sched tracepoints (see perf_tools.h).
 *
 * The recording of `real --latency` is `perf sched record -a -D -1
 * --control fd:CTL,ACK` (perf 5.10 and later): perf sets up its events
 * disabled, and our "enable" is acknowledged only once they are on, so the
 * repetition that follows is recorded from its first fork.  perf is our
 * child in a process group of its own, killed if we die (PDEATHSIG) and by
 * cli_perf_rec_cleanup after any outcome, an interrupted run's included.
 */
#include "cli/perf_tools.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "cli/cli.h"
#include "real/ktree.h"
#include "real/proc.h"
#include "trace/stats.h"

static const char *const tracing_dirs[] = { "/sys/kernel/tracing", "/sys/kernel/debug/tracing" };

/* A path that does not fit buf is no match: a cut one would name another
 * file than the one checked. */
bool cli_find_program(const char *name, char *buf, size_t size)
{
	int w;

	if (strchr(name, '/')) {
		w = snprintf(buf, size, "%s", name);
		return w >= 0 && (size_t)w < size && access(buf, X_OK) == 0;
	}
	const char *path = getenv("PATH");
	if (!path || !*path)
		path = "/usr/local/bin:/usr/bin:/bin";
	while (*path) {
		size_t n = strcspn(path, ":");
		struct stat sb;
		w = snprintf(buf, size, "%.*s/%s", (int)n, n ? path : ".", name);
		if (w >= 0 && (size_t)w < size && stat(buf, &sb) == 0 && S_ISREG(sb.st_mode) &&
		    access(buf, X_OK) == 0)
			return true;
		path += n + (path[n] == ':');
	}
	return false;
}

bool cli_have_sched_event(const char *name)
{
	char p[256];

	for (size_t i = 0; i < sizeof(tracing_dirs) / sizeof(tracing_dirs[0]); i++) {
		snprintf(p, sizeof(p), "%s/events/sched/%s", tracing_dirs[i], name);
		if (access(p, F_OK) == 0)
			return true;
	}
	return false;
}

int cli_need_tracepoints(const char *cmd)
{
	int e1 = 0, e2 = 0;

	if (cli_have_sched_event("sched_switch"))
		return 0;
	if (mount("nodev", "/sys/kernel/tracing", "tracefs", 0, NULL))
		e1 = errno;
	if (!cli_have_sched_event("sched_switch") &&
	    mount("nodev", "/sys/kernel/debug", "debugfs", 0, NULL))
		e2 = errno;
	if (cli_have_sched_event("sched_switch"))
		return 0;
	fprintf(stderr, "schedlab: %s: the kernel's sched tracepoints are not available "
		"(no events/sched/sched_switch under /sys/kernel/tracing; mounting tracefs: %s; "
		"debugfs: %s)\n", cmd, e1 ? strerror(e1) : "mounted, no sched events",
		e2 ? strerror(e2) : "mounted, no sched events");
	return EXIT_INTERNAL;
}

/* ---- the recording of each repetition ---- */

int cli_perf_rec_init(struct cli_perf_rec *r, const char *cmd)
{
	memset(r, 0, sizeof(*r));
	r->ctl = r->ack = -1;
	if (!cli_find_program("perf", r->perf, sizeof(r->perf))) {
		fprintf(stderr, "schedlab: %s: --latency needs perf, not found in PATH (Debian: "
			"apt-get install linux-perf)\n", cmd);
		return EXIT_INTERNAL;
	}
	return cli_need_tracepoints(cmd);
}

static void close_fd(int *fd)
{
	if (*fd >= 0)
		close(*fd);
	*fd = -1;
}

/* perf's own exit, or its kill: reaped, pid cleared. */
static int reap_perf(struct cli_perf_rec *r)
{
	int status = 0;

	while (waitpid(r->pid, &status, 0) < 0)
		if (errno != EINTR) {
			status = -1;	/* reaped by the real run's waits (it ended early) */
			break;
		}
	r->pid = 0;
	return status;
}

void cli_perf_rec_cleanup(struct cli_perf_rec *r)
{
	close_fd(&r->ctl);
	close_fd(&r->ack);
	if (r->pid > 0) {
		kill(-r->pid, SIGKILL);
		reap_perf(r);
	}
	if (r->dir[0])
		sl_ktree_remove(r->dir);
	r->dir[0] = 0;
}

/* Write `cmd` to perf's control pipe and wait for its "ack". */
static int control(struct cli_perf_rec *r, const char *cmd, struct sl_err *err)
{
	char buf[16];
	size_t n = strlen(cmd);
	ssize_t got;

	if (write(r->ctl, cmd, n) != (ssize_t)n)
		return sl_fail_internal(err, "--latency: perf's control pipe: %s", strerror(errno));
	while ((got = read(r->ack, buf, sizeof(buf) - 1)) < 0 && errno == EINTR && !sl_real_interrupted())
		;
	if (got <= 0)
		return sl_fail_internal(err, "--latency: perf did not acknowledge '%.*s' (it ended; "
					"perf 5.10 or later is needed for --control)", (int)n - 1, cmd);
	return 0;
}

static void child_exec(struct cli_perf_rec *r, int ctl_r, int ack_w, char *const *argv, int out_fd)
{
	setpgid(0, 0);
	prctl(PR_SET_PDEATHSIG, SIGKILL);
	if (getppid() == 1)
		_exit(127);
	int null = open("/dev/null", O_RDWR);
	if (null >= 0) {
		dup2(null, STDIN_FILENO);
		if (out_fd < 0)
			dup2(null, STDOUT_FILENO);
	}
	if (out_fd >= 0)
		dup2(out_fd, STDOUT_FILENO);
	(void)ctl_r;
	(void)ack_w;
	execv(r->perf, argv);
	_exit(127);
}

int cli_perf_rec_rep_begin(void *arg, struct sl_err *err)
{
	struct cli_perf_rec *r = arg;
	const char *tmp = getenv("TMPDIR");
	int ctl[2], ack[2];
	char control_arg[64];

	snprintf(r->dir, sizeof(r->dir), "%s/schedlab-perf-XXXXXX", tmp && *tmp ? tmp : "/tmp");
	if (!mkdtemp(r->dir)) {
		int e = errno;
		r->dir[0] = 0;
		return sl_fail_internal(err, "--latency: cannot make a temporary directory (%s)",
					strerror(e));
	}
	snprintf(r->data, sizeof(r->data), "%s/perf.data", r->dir);
	if (pipe(ctl))
		return sl_fail_internal(err, "--latency: pipe: %s", strerror(errno));
	if (pipe(ack)) {
		close(ctl[0]);
		close(ctl[1]);
		return sl_fail_internal(err, "--latency: pipe: %s", strerror(errno));
	}
	/* perf gets the pipe ends it reads and writes; ours close on exec */
	fcntl(ctl[1], F_SETFD, FD_CLOEXEC);
	fcntl(ack[0], F_SETFD, FD_CLOEXEC);
	snprintf(control_arg, sizeof(control_arg), "fd:%d,%d", ctl[0], ack[1]);
	char *argv[] = { r->perf, "sched", "record", "-a", "-q", "-D", "-1", "--control",
			 control_arg, "-o", r->data, NULL };
	fflush(NULL);
	r->pid = fork();
	if (r->pid == 0)
		child_exec(r, ctl[0], ack[1], argv, -1);
	close(ctl[0]);
	close(ack[1]);
	r->ctl = ctl[1];
	r->ack = ack[0];
	if (r->pid < 0) {
		r->pid = 0;
		return sl_fail_internal(err, "--latency: fork: %s", strerror(errno));
	}
	return control(r, "enable\n", err);
}

/* perf script --ns of the recording, read as it comes: the waits of the
 * tasks this process forked. */
static int read_stats(struct cli_perf_rec *r, struct sl_trace_stats *st, struct sl_err *err)
{
	int out[2];

	if (pipe(out))
		return sl_fail_internal(err, "--latency: pipe: %s", strerror(errno));
	fcntl(out[0], F_SETFD, FD_CLOEXEC);
	char *argv[] = { r->perf, "script", "-i", r->data, "--ns", NULL };
	fflush(NULL);
	r->pid = fork();
	if (r->pid == 0)
		child_exec(r, -1, -1, argv, out[1]);
	close(out[1]);
	if (r->pid < 0) {
		r->pid = 0;
		close(out[0]);
		return sl_fail_internal(err, "--latency: fork: %s", strerror(errno));
	}
	FILE *in = fdopen(out[0], "r");
	if (!in) {
		close(out[0]);
		return sl_fail_internal(err, "--latency: fdopen: %s", strerror(errno));
	}
	int rc = sl_trace_stats_read_tree(in, "perf script of --latency's recording",
					  (int)getpid(), st, err);
	fclose(in);		/* perf script gets EPIPE if we stopped early */
	int status = reap_perf(r);
	if (!rc && (status < 0 || !WIFEXITED(status) || WEXITSTATUS(status)))
		rc = sl_fail_internal(err, "--latency: perf script failed (wait status %#x)",
				      (unsigned)status);
	return rc;
}

int cli_perf_rec_rep_end(void *arg, struct sl_metrics *out, struct sl_err *err)
{
	struct cli_perf_rec *r = arg;
	struct sl_trace_stats st = { 0 };
	if (control(r, "disable\n", err))
		return -1;
	kill(r->pid, SIGINT);	/* perf record writes perf.data and ends */
	int status = reap_perf(r);
	close_fd(&r->ctl);
	close_fd(&r->ack);
	/* ... by raising the signal again once it has (record__sig_exit) */
	bool ended = status >= 0 && ((WIFEXITED(status) && !WEXITSTATUS(status)) ||
				     (WIFSIGNALED(status) && WTERMSIG(status) == SIGINT));
	if (!ended)
		return sl_fail_internal(err, "--latency: perf sched record failed (wait status "
					"%#x)", (unsigned)status);
	int rc = read_stats(r, &st, err);
	if (!rc) {
		sl_metrics_add_waits(out, &st.wakeup, &st.runq, "");
		sl_metrics_add(out, "latency_tasks", "", (double)st.ntasks, 0);
	}
	sl_trace_stats_free(&st);
	sl_ktree_remove(r->dir);
	r->dir[0] = 0;
	return rc;
}
