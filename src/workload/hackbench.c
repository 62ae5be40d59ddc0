/*
 * hackbench.c - Rusty Russell's hackbench (2001-2002), the chat-room
 * benchmark distilled: G groups, each of `fds` receivers and `fds` senders
 * (20 and 20), processes, not threads.  Every receiver owns a channel (an
 * AF_UNIX socket pair, or a pipe with -pipe); every sender writes `loops`
 * rounds of one 100-byte message to each receiver of its group, so each
 * receiver reads fds x loops messages.  Everyone writes a byte to a "ready"
 * pipe and then polls a "go" pipe; the main process reads all the ready
 * bytes, takes the start time, writes the go byte, reaps every child and
 * prints the time.  Per group: 40 processes, 20 x 20 x loops messages,
 * 20 x 20 x loops x 100 bytes (40,000 messages and 4 MB at 100 loops).
 *
 * Model: each write and each read of a message is `msg_ns` of kernel work
 * (the syscall, the copy and queueing; the wakeup and context switches
 * are the engine's), varied per call by a lognormal factor (log-sd
 * `jitter`, from the process's own stream: cache misses, interrupts), then
 * the channel operation.  A channel holds what the
 * kernel would buffer before blocking the writer: one 4 KB page for 2.4 /
 * 2.6.0 pipes (40 messages), the sender socket's sk_sndbuf divided by the
 * skb truesize for sockets (about 204 messages).  Pipes use sync wakeups
 * (wake_up_interruptible_sync in pipe_write), sockets plain ones
 * (sock_def_readable).  The go signal is one write that wakes every
 * poller at once.  Metric: the time from the go signal to the last reap,
 * what hackbench prints ("Time: s.mmm").
 *
 * Sources: Rusty Russell's version in Erich Focht's numa_test attachment
 * (LKML, <200210062224.50087.efocht@ess.nec.de>; numa_test's dispatch
 * starts hackbench 20 as its disturbance) and rt-tests' src/hackbench/
 * hackbench.c (structure, defaults, message size; per-message costs are
 * estimates, ~10 us in 2002, 1-3 us today); 2.6.11 fs/pipe.c pipe_writev()
 * (wake_up_interruptible_sync: sync wakeups of pipes).
 *
 * Checked against: the structure only (process, message and byte counts,
 * tests/unit/test_workload_bench.c).  No hackbench time of the era was
 * available to calibrate against; msg_ns is derived from the machine's
 * context-switch cost (hackbench.h), which puts a 2002 NUMA-Q at ~8 us
 * and a modern core at ~3 us per call, inside those ranges.
 *
 * Omitted / simplified:
 *   - no user time: the sender's and receiver's loops are a few dozen
 *     instructions per message, next to the syscall;
 *   - writes are whole messages (the capacity is a multiple of 100 bytes),
 *     as a blocking 100-byte write to a socket or a pipe is atomic;
 *   - a blocked writer is woken by every read that frees space (sockets
 *     really wake writers only once half the sndbuf is free);
 *   - socket pair and pipe creation cost one msg_ns each; the main
 *     process's own user work (argument parsing, gettimeofday) is free;
 *   - threads mode (-T), TCP mode (-i) and the SCHED_FIFO parent (-F) of
 *     rt-tests' version are not modelled.
 */
#include <math.h>

#include "base/rng.h"
#include "sim/sim.h"
#include "workload/bench_workloads.h"
#include "workload/hackbench.h"
#include "workload/workload.h"

/* ---- actions ---- */

static struct sl_action act_chan(enum sl_act_kind kind, struct sl_chan *c, long bytes)
{
	return (struct sl_action){ .kind = kind, .u.chan = { c, bytes } };
}

static struct sl_action act_fork(const struct sl_prog *prog, void *state, const char *comm)
{
	return (struct sl_action){ .kind = SL_ACT_FORK,
				   .u.fork = { .prog = prog, .state = state, .comm = comm } };
}

/* ---- senders and receivers ---- */

/* The kernel work of one call: msg_ns, varied by the task's own stream. */
static struct sl_action act_call(struct sl_task *t, const struct hb_run *run)
{
	double f = run->cfg.jitter > 0 ? exp(run->cfg.jitter * sl_rng_normal(&t->rng)) : 1;
	return sl_act_sys(run->cfg.msg_ns * f);
}

enum { C_READY, C_GO, C_WORK, C_XFER, C_DONE };

static struct sl_chan *proc_chan(const struct hb_proc *p)
{
	const struct hb_run *run = p->run;
	return run->chans[p->group * run->cfg.fds + p->fd];
}

static void sender_next(struct sl_task *t, struct hb_proc *p, struct sl_action *next)
{
	struct hb_run *run = p->run;

	if (p->pc == C_DONE) {		/* the last write completed */
		run->writes++;
		run->bytes_written += HB_MSG_BYTES;
		if (++p->fd == run->cfg.fds) {
			p->fd = 0;
			p->loop++;
		}
		p->pc = C_WORK;
	}
	if (p->loop == run->cfg.loops) {
		*next = sl_act_exit();
		return;
	}
	if (p->pc == C_WORK) {
		p->pc = C_XFER;
		*next = act_call(t, run);
		return;
	}
	p->pc = C_DONE;
	*next = act_chan(SL_ACT_CHAN_WRITE, proc_chan(p), HB_MSG_BYTES);
}

static void receiver_next(struct sl_task *t, struct hb_proc *p, struct sl_action *next)
{
	struct hb_run *run = p->run;

	if (p->pc == C_DONE) {		/* a read returned t->result bytes */
		long n = t->result;
		run->reads++;
		run->bytes_read += n;
		run->group_bytes[p->group] += n;
		p->left -= n;
		p->got += n;
		if (p->got == HB_MSG_BYTES)
			p->got = 0;
		p->pc = C_WORK;
		*next = act_call(t, run);
		return;
	}
	if (p->left <= 0) {
		*next = sl_act_exit();
		return;
	}
	p->pc = C_DONE;
	*next = act_chan(SL_ACT_CHAN_READ, proc_chan(p), HB_MSG_BYTES - p->got);
}

static void child_step(struct sl_sim *sim, struct sl_task *t, struct sl_action *next)
{
	struct hb_proc *p = t->prog_state;

	(void)sim;
	switch (p->pc) {
	case C_READY:
		t->footprint_kb = HB_FOOTPRINT_KB;
		p->pc = C_GO;
		*next = act_chan(SL_ACT_CHAN_WRITE, p->run->ready, 1);
		return;
	case C_GO:		/* poll() on the go pipe */
		p->pc = C_WORK;
		*next = act_chan(SL_ACT_CHAN_READ, p->run->go, 1);
		return;
	default:
		if (p->sender)
			sender_next(t, p, next);
		else
			receiver_next(t, p, next);
	}
}

static const struct sl_prog hb_child_prog = { .name = "hackbench-child", .step = child_step };

/* ---- the main process ---- */

enum { M_START, M_PAIR, M_FORK, M_READY, M_READY_GOT, M_GO, M_WAIT, M_REAPED };

static void main_step(struct sl_sim *sim, struct sl_task *t, struct sl_action *next)
{
	struct hb_run *run = t->prog_state;
	int fds = run->cfg.fds;

	for (;;) {
		switch (run->pc) {
		case M_START:
			run->t_start = sl_now(sim);
			t->footprint_kb = HB_FOOTPRINT_KB;
			run->pc = M_PAIR;
			if (run->cfg.exec) {
				*next = (struct sl_action){ .kind = SL_ACT_EXEC,
							    .u.exec.comm = "hackbench" };
				return;
			}
			continue;
		case M_PAIR:	/* a receiver's socketpair() or pipe() */
			if (run->forked == run->nchildren) {
				run->pc = M_READY;
				continue;
			}
			run->pc = M_FORK;
			if (run->forked % (2 * fds) < fds) {
				*next = sl_act_sys(run->cfg.msg_ns);
				return;
			}
			continue;
		case M_FORK:
			run->pc = M_PAIR;
			*next = act_fork(&hb_child_prog, &run->procs[run->forked++], "hackbench");
			return;
		case M_READY_GOT:
			run->ready_read += t->result;
			run->pc = M_READY;
			continue;
		case M_READY:
			if (run->ready_read < run->nchildren) {
				run->pc = M_READY_GOT;
				*next = act_chan(SL_ACT_CHAN_READ, run->ready,
						 run->nchildren - run->ready_read);
				return;
			}
			run->pc = M_GO;
			continue;
		case M_GO:
			run->t_go = sl_now(sim);
			run->pc = M_WAIT;
			*next = act_chan(SL_ACT_CHAN_WRITE, run->go, run->nchildren);
			return;
		case M_REAPED:
			if (t->result >= 0)
				run->reaped++;
			run->pc = M_WAIT;
			continue;
		case M_WAIT:
		default:
			if (run->reaped < run->nchildren) {
				run->pc = M_REAPED;
				*next = sl_act_wait();
				return;
			}
			if (!run->done) {
				run->done = true;
				run->t_end = sl_now(sim);
			}
			*next = sl_act_exit();
			return;
		}
	}
}

const struct sl_prog hb_main_prog = { .name = "hackbench", .step = main_step };

/* ---- setup, shared with schedbench ---- */

double hb_default_msg_ns(const struct sl_sim *sim)
{
	return HB_MSG_PER_CTX_SWITCH * (double)sl_cost_ctx_switch(sim);
}

long hb_default_buf(bool pipe)
{
	if (pipe)
		return HB_PIPE_BYTES;
	return (long)(HB_SOCK_SNDBUF / HB_SKB_TRUESIZE) * HB_MSG_BYTES;
}

long hb_chan_bytes(long buf)
{
	long msgs = buf / HB_MSG_BYTES;
	return (msgs > 0 ? msgs : 1) * HB_MSG_BYTES;
}

void hb_setup(struct sl_sim *sim, struct hb_run *run, const struct hb_config *cfg)
{
	int fds = cfg->fds, nchans = cfg->groups * fds;

	*run = (struct hb_run){ .cfg = *cfg };
	run->cfg.buf = hb_chan_bytes(cfg->buf);
	run->nchildren = 2 * nchans;
	run->chans = sl_sim_alloc(sim, sizeof(*run->chans) * (size_t)nchans);
	for (int i = 0; i < nchans; i++)
		run->chans[i] = sl_chan_new(sim, run->cfg.buf, cfg->pipe);
	run->ready = sl_chan_new(sim, run->nchildren, cfg->pipe);
	run->go = sl_chan_new(sim, run->nchildren, false);
	run->group_bytes = sl_sim_alloc(sim, sizeof(*run->group_bytes) * (size_t)cfg->groups);
	run->procs = sl_sim_alloc(sim, sizeof(*run->procs) * (size_t)run->nchildren);
	for (int i = 0; i < run->nchildren; i++) {
		struct hb_proc *p = &run->procs[i];
		int k = i % (2 * fds);
		*p = (struct hb_proc){ .run = run, .group = i / (2 * fds), .sender = k >= fds };
		if (!p->sender) {
			p->fd = k;
			p->left = (long)fds * cfg->loops * HB_MSG_BYTES;
		}
	}
}

/* ---- the workload ---- */

#define HB_STR(x) #x
#define HB_XSTR(x) HB_STR(x)

static const struct sl_param_def hb_params[] = {
	{ "groups", SL_PARAM_INT, "10", 1, 10000, NULL,
	  "groups of senders and receivers (hackbench's argument; numa_test used 20)" },
	{ "loops", SL_PARAM_INT, "100", 1, 10000000, NULL,
	  "messages each sender sends to each receiver" },
	{ "fds", SL_PARAM_INT, "20", 1, 1000, NULL,
	  "senders and receivers per group" },
	{ "mode", SL_PARAM_CHOICE, "socket", 0, 0, "socket|pipe",
	  "AF_UNIX socket pairs (default) or pipes (-pipe)" },
	{ "buf", SL_PARAM_INT, NULL, HB_MSG_BYTES, 1L << 30, NULL,
	  "bytes a channel holds before the writer blocks (default: socket 20400, pipe 4000 - "
	  "one 4 KB page, whole messages)" },
	{ "msg_us", SL_PARAM_REAL, NULL, 0, 1e6, NULL,
	  "kernel work of one message write or read, us (default: 2 x the machine's "
	  "context-switch cost)" },
	{ "jitter", SL_PARAM_REAL, HB_XSTR(HB_JITTER), 0, 2, NULL,
	  "log-sd of each call's kernel work (each process's own random stream)" },
	{ NULL, 0, NULL, 0, 0, NULL, NULL },
};

static void *hb_start(struct sl_sim *sim, const struct sl_params *p, sl_time *limit_out)
{
	struct hb_run *run = sl_sim_alloc(sim, sizeof(*run));
	bool pipe = sl_param_choice(p, "mode") == 1;
	struct hb_config cfg = {
		.groups = (int)sl_param_int(p, "groups"),
		.fds = (int)sl_param_int(p, "fds"),
		.loops = (int)sl_param_int(p, "loops"),
		.pipe = pipe,
		.buf = sl_param_given(p, "buf") ? sl_param_int(p, "buf") : hb_default_buf(pipe),
		.msg_ns = sl_param_given(p, "msg_us") ? sl_param_real(p, "msg_us") * 1e3
						      : hb_default_msg_ns(sim),
		.jitter = sl_param_real(p, "jitter"),
	};

	hb_setup(sim, run, &cfg);
	sl_sim_spawn_root(sim, &hb_main_prog, run, "hackbench");
	*limit_out = 0;
	return run;
}

static void hb_report(struct sl_sim *sim, void *state, const struct sl_params *p,
		      struct sl_metrics *out)
{
	const struct hb_run *run = state;

	(void)sim;
	(void)p;
	sl_metrics_add(out, "time_s", "s", sl_ns_to_s(run->t_end - run->t_go), -1);
	sl_metrics_add(out, "messages", "count", (double)(run->bytes_read / HB_MSG_BYTES), 0);
	sl_metrics_add(out, "bytes", "bytes", (double)run->bytes_read, 0);
	sl_metrics_add(out, "processes", "count", 1.0 + run->nchildren, 0);
}

const struct sl_workload_ops sl_workload_hackbench = {
	.name = "hackbench",
	.summary = "hackbench: groups of 20 senders x 20 receivers, 100-byte messages over "
		   "socket pairs or pipes",
	.metric = "time_s",
	.params = hb_params,
	.start = hb_start,
	.report = hb_report,
};
