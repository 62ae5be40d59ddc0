/*
 * hackbench.c - the hackbench pattern as real processes (see hackbench.h)
 * and the real `hackbench` workload: one root process runs it, so its
 * wait4() rusage holds every sender and receiver, as GNU time's would.
 */
#include "base/memsize.h"
#include "real/hackbench.h"

#include <errno.h>
#include <poll.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "real/proc.h"
#include "real/real.h"

#define HB_MAX_FDS 256	/* 2 x 256 descriptors in the root: under the usual 1024 */
#define HB_MAX_SIZE SL_REAL_HB_READ_MAX

/* Exit statuses of the children and the root, for the error message. */
enum { HB_OK = 0, HB_EIO = 3, HB_ESETUP = 4, HB_ECHILD = 5 };

static int write_all(int fd, const char *buf, size_t n)
{
	while (n) {
		ssize_t w = write(fd, buf, n);
		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0)
			return -1;
		buf += w;
		n -= (size_t)w;
	}
	return 0;
}

/* Tell the root we are ready, then block until it releases everyone. */
static int ready_and_wait(int ready_fd, int wake_fd)
{
	struct pollfd pfd = { .fd = wake_fd, .events = POLLIN };

	if (write_all(ready_fd, "r", 1))
		return -1;
	close(ready_fd);
	while (poll(&pfd, 1, -1) < 0)
		if (errno != EINTR)
			return -1;
	return 0;
}

size_t sl_real_hb_read_want(const struct sl_real_hb *hb, size_t done)
{
	size_t msg = (size_t)hb->size;

	return (size_t)hb->readsize > msg ? (size_t)hb->readsize : msg - done % msg;
}

static int receiver(const struct sl_real_hb *hb, int fd)
{
	size_t total = (size_t)hb->loops * (size_t)hb->fds * (size_t)hb->size, left = total;
	char buf[HB_MAX_SIZE];

	while (left) {
		size_t want = sl_real_hb_read_want(hb, total - left);
		ssize_t r = read(fd, buf, left < want ? left : want);
		if (r < 0 && errno == EINTR)
			continue;
		if (r <= 0)
			return HB_EIO;
		left -= (size_t)r;
	}
	return HB_OK;
}

static int sender(const struct sl_real_hb *hb, const int *out)
{
	char buf[HB_MAX_SIZE];

	memset(buf, 'x', (size_t)hb->size);
	for (int l = 0; l < hb->loops; l++)
		for (int j = 0; j < hb->fds; j++)
			if (write_all(out[j], buf, (size_t)hb->size))
				return HB_EIO;
	return HB_OK;
}

/* Fork one sender or receiver; the child never returns. */
static pid_t start(const struct sl_real_hb *hb, int ready_w, int wake_r, int wake_w,
		   int in_fd, const int *out)
{
	pid_t pid = fork();

	if (pid)
		return pid;
	prctl(PR_SET_PDEATHSIG, SIGKILL);
	close(wake_w);
	if (ready_and_wait(ready_w, wake_r))
		_exit(HB_ESETUP);
	_exit(out ? sender(hb, out) : receiver(hb, in_fd));
}

/* One group's F channels and its 2F processes; the root keeps no fd. */
static int start_group(const struct sl_real_hb *hb, int ready_w, int wake_r, int wake_w)
{
	int in[HB_MAX_FDS], out[HB_MAX_FDS], made = 0, rc = 0;

	for (; made < hb->fds; made++) {
		int pair[2];
		if (hb->pipe ? pipe(pair) : socketpair(AF_UNIX, SOCK_STREAM, 0, pair)) {
			rc = -1;
			break;
		}
		in[made] = pair[0];
		out[made] = pair[1];
	}
	for (int i = 0; !rc && i < hb->fds; i++)
		if (start(hb, ready_w, wake_r, wake_w, in[i], NULL) < 0)
			rc = -1;
	for (int i = 0; !rc && i < hb->fds; i++)
		if (start(hb, ready_w, wake_r, wake_w, -1, out) < 0)
			rc = -1;
	for (int i = 0; i < made; i++) {
		close(in[i]);
		close(out[i]);
	}
	return rc;
}

int sl_real_hb_main(const struct sl_real_hb *hb, double *time_s)
{
	int ready[2], wake[2], rc = HB_OK, status;
	long want = 2L * hb->fds * hb->groups, got = 0;
	double t0;

	if (pipe(ready) || pipe(wake))
		return HB_ESETUP;
	for (int g = 0; g < hb->groups && rc == HB_OK; g++)
		if (start_group(hb, ready[1], wake[0], wake[1]))
			rc = HB_ESETUP;
	close(ready[1]);
	while (rc == HB_OK && got < want) {	/* EOF early: a child died */
		char buf[256];
		ssize_t r = read(ready[0], buf, sizeof(buf));
		if (r < 0 && errno == EINTR)
			continue;
		if (r <= 0)
			rc = HB_ECHILD;
		else
			got += r;
	}
	t0 = sl_real_now();
	if (rc == HB_OK && write_all(wake[1], "g", 1))
		rc = HB_ESETUP;
	close(wake[1]);		/* on failure this releases the children too */
	for (;;) {
		pid_t pid = wait(&status);
		if (pid < 0 && errno == EINTR)
			continue;
		if (pid < 0)
			break;
		if (rc == HB_OK && (!WIFEXITED(status) || WEXITSTATUS(status)))
			rc = HB_ECHILD;
	}
	*time_s = sl_real_now() - t0;
	return rc;
}

/* ---- the real workload ---- */

static const struct sl_param_def hb_params[] = {
	{ "groups", SL_PARAM_INT, "10", 1, 1000, NULL,
	  "groups of senders and receivers (hackbench's argument; rt-tests default 10)" },
	{ "fds", SL_PARAM_INT, "20", 1, HB_MAX_FDS, NULL, "senders and receivers per group" },
	{ "loops", SL_PARAM_INT, "100", 1, 1000000, NULL,
	  "messages each sender writes to each receiver" },
	{ "mode", SL_PARAM_CHOICE, "socket", 0, 0, "socket|pipe",
	  "AF_UNIX socket pairs (default) or pipes (-pipe)" },
	{ "datasize", SL_PARAM_INT, "100", 1, HB_MAX_SIZE, NULL, "bytes per message" },
	{ "readsize", SL_PARAM_INT, "100", 100, HB_MAX_SIZE, NULL,
	  "bytes a receiver asks per read: up to datasize, the rest of one message (hackbench's "
	  "DATASIZE - done); more takes what is queued, up to that many bytes" },
	SL_WORKLOAD_CPUS_PARAM,	/* taskset -c: the same as --cpus */
	{ NULL, 0, NULL, 0, 0, NULL, NULL },
};

int sl_real_hb_root(void *arg)
{
	const struct sl_real_hb_root *r = arg;
	struct timespec ts = { (time_t)r->delay_s,
			       (long)((r->delay_s - (double)(time_t)r->delay_s) * 1e9) };
	double t = 0;
	int rc;

	while (nanosleep(&ts, &ts))
		;
	rc = sl_real_hb_main(&r->hb, &t);
	if (write_all(r->result_fd, (const char *)&t, sizeof(t)))
		return HB_EIO;
	return rc;
}

static int hb_run(const struct sl_params *p, const struct sl_real_env *env,
		  struct sl_metrics *out, struct sl_err *err)
{
	struct sl_real_hb_root r = { .hb = {
		.groups = (int)sl_param_int(p, "groups"),
		.fds = (int)sl_param_int(p, "fds"),
		.loops = (int)sl_param_int(p, "loops"),
		.size = (int)sl_param_int(p, "datasize"),
		.readsize = (int)sl_param_int(p, "readsize"),
		.pipe = sl_param_choice(p, "mode") == 1,
	} };
	struct sl_real_usage u;
	double t = 0;

	if (sl_real_root_run(env->pinned ? &env->cpus : NULL, sl_real_hb_root, &r, &r.result_fd,
			     &t, &u, err)) {
		if (!sl_real_interrupted())
			sl_err_prefix(err, "hackbench: ");
		return -1;
	}
	sl_real_usage_metrics(&u, out);
	sl_metrics_add(out, "time_s", "s", t, -1);
	sl_metrics_add(out, "messages", "count",
		       (double)r.hb.groups * r.hb.fds * r.hb.fds * r.hb.loops, 0);
	sl_metrics_add(out, "processes", "count", 1.0 + 2.0 * r.hb.fds * r.hb.groups, 0);
	return 0;
}

uint64_t sl_real_hb_mem(long groups, long fds, uint64_t *procs)
{
	uint64_t chans = sl_sat_mul((uint64_t)groups, (uint64_t)fds);
	uint64_t n = sl_sat_add(sl_sat_mul(2, chans), 1);

	*procs = sl_sat_add(*procs, n);
	return sl_sat_add(sl_sat_mul(n, SL_REAL_PROC_BYTES), sl_sat_mul(chans, SL_REAL_CHAN_BYTES));
}

static uint64_t hb_mem(const struct sl_params *p, const struct sl_real_env *env, uint64_t *procs)
{
	(void)env;
	return sl_real_hb_mem(sl_param_int(p, "groups"), sl_param_int(p, "fds"), procs);
}

const struct sl_real_workload sl_real_hackbench = {
	.name = "hackbench",
	.summary = "G groups x (F senders + F receivers) passing messages over sockets or pipes",
	.metric = "time_s",
	.params = hb_params,
	.run = hb_run,
	.mem = hb_mem,
};
