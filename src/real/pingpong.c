/*
 * pingpong.c - the real `pingpong` workload: two processes bouncing a
 * 100-byte message over a pair of pipes or an AF_UNIX socket pair (the
 * simulated pingpong's counterpart, src/workload/pingpong.c).  One root
 * process forks its partner, so its wait4() rusage holds both.  The round
 * trips are timed inside the root, from the first write to the last read;
 * setting up and reaping are outside.
 */
#include <errno.h>
#include <signal.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include "base/memsize.h"
#include "real/proc.h"
#include "real/real.h"

#define PP_MSG 100	/* hackbench's DATASIZE, as the simulated pingpong */

enum { PP_OK = 0, PP_EIO = 3, PP_ESETUP = 4, PP_ECHILD = 5 };

static int xfer(int fd, char *buf, bool out)
{
	size_t n = PP_MSG;

	while (n) {
		ssize_t r = out ? write(fd, buf, n) : read(fd, buf, n);
		if (r < 0 && errno == EINTR)
			continue;
		if (r <= 0)
			return -1;
		buf += r;
		n -= (size_t)r;
	}
	return 0;
}

struct pp_root {
	long loops;
	bool socket;
	int result_fd;		/* the root writes the round trips' time here */
};

/* Two one-way channels: [0] ping -> pong, [1] pong -> ping; each a
 * read end [0] and a write end [1] (both ends of a socket pair do both). */
static int channels(bool socket, int ch[2][2])
{
	if (socket) {
		if (socketpair(AF_UNIX, SOCK_STREAM, 0, ch[0]))
			return -1;
		ch[1][0] = ch[0][1];	/* ping writes and reads on ch[0][1]... */
		ch[1][1] = ch[0][0];	/* ... pong on ch[0][0] */
		return 0;
	}
	if (pipe(ch[0]))
		return -1;
	if (pipe(ch[1])) {
		close(ch[0][0]);
		close(ch[0][1]);
		return -1;
	}
	return 0;
}

/* Close one side's two ends (one socket when it is a socket pair). */
static void close_ends(bool socket, int write_end, int read_end)
{
	close(write_end);
	if (!socket)
		close(read_end);
}

static int pp_root_main(void *arg)
{
	const struct pp_root *r = arg;
	char buf[PP_MSG];
	int ch[2][2], status, rc = PP_OK;
	pid_t pid;

	memset(buf, 'x', sizeof(buf));
	if (channels(r->socket, ch))
		return PP_ESETUP;
	/* ping writes ch[0][1] and reads ch[1][0]; pong the other two */
	pid = fork();
	if (pid < 0)
		return PP_ESETUP;
	if (pid == 0) {
		prctl(PR_SET_PDEATHSIG, SIGKILL);
		close_ends(r->socket, ch[0][1], ch[1][0]);	/* ping's */
		for (long i = 0; i < r->loops; i++)
			if (xfer(ch[0][0], buf, false) || xfer(ch[1][1], buf, true))
				_exit(PP_EIO);
		_exit(PP_OK);
	}
	close_ends(r->socket, ch[0][0], ch[1][1]);	/* pong's: its exit is our EOF */
	double t0 = sl_real_now();
	for (long i = 0; i < r->loops && rc == PP_OK; i++)
		if (xfer(ch[0][1], buf, true) || xfer(ch[1][0], buf, false))
			rc = PP_EIO;
	double t = sl_real_now() - t0;
	close_ends(r->socket, ch[0][1], ch[1][0]);
	while (waitpid(pid, &status, 0) < 0)
		if (errno != EINTR)
			return PP_ECHILD;
	if (rc == PP_OK && (!WIFEXITED(status) || WEXITSTATUS(status)))
		rc = PP_ECHILD;
	if (write(r->result_fd, &t, sizeof(t)) != (ssize_t)sizeof(t))
		rc = PP_EIO;
	return rc;
}

static const struct sl_param_def pp_params[] = {
	{ "loops", SL_PARAM_INT, "100000", 1, 100000000, NULL, "round trips" },
	{ "mode", SL_PARAM_CHOICE, "pipe", 0, 0, "pipe|socket",
	  "a pair of pipes (default) or an AF_UNIX socket pair" },
	SL_WORKLOAD_CPUS_PARAM,	/* taskset -c: the same as --cpus */
	{ NULL, 0, NULL, 0, 0, NULL, NULL },
};

static int pp_run(const struct sl_params *p, const struct sl_real_env *env,
		  struct sl_metrics *out, struct sl_err *err)
{
	struct pp_root r = { .loops = sl_param_int(p, "loops"),
			     .socket = sl_param_choice(p, "mode") == 1 };
	struct sl_real_usage u;
	double t = 0;

	if (sl_real_root_run(env->pinned ? &env->cpus : NULL, pp_root_main, &r, &r.result_fd,
			     &t, &u, err)) {
		if (!sl_real_interrupted())
			sl_err_prefix(err, "pingpong: ");
		return -1;
	}
	sl_real_usage_metrics(&u, out);
	sl_metrics_add(out, "time_s", "s", t, -1);
	sl_metrics_add(out, "round_trip_us", "us", t * 1e6 / (double)r.loops, -1);
	return 0;
}

static uint64_t pp_mem(const struct sl_params *p, const struct sl_real_env *env,
		       uint64_t *procs)
{
	(void)p;
	(void)env;
	*procs += 2;
	return 2 * (SL_REAL_PROC_BYTES + SL_REAL_CHAN_BYTES);
}

const struct sl_real_workload sl_real_pingpong = {
	.name = "pingpong",
	.summary = "two processes bouncing a 100-byte message over pipes or a socket pair",
	.metric = "round_trip_us",
	.params = pp_params,
	.run = pp_run,
	.mem = pp_mem,
};
