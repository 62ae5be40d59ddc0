/*
 * pingpong.c - two processes bouncing one message back and forth over a
 * pair of pipes or AF_UNIX socket pairs, `loops` round trips: the smallest
 * messaging benchmark (lmbench's lat_pipe / lat_unix shape).  It isolates
 * what hackbench is made of - the kernel work of a message write and read,
 * the wakeup, the context switches and where the policy puts the woken
 * partner - without hackbench's queues and batching, so the simulated
 * round trip can be checked against a real one (`schedlab real -w
 * pingpong`, `validate -w pingpong`, docs/validation.md).
 *
 * Model: the root ("ping") forks its partner ("pong") and waits until it is
 * ready (one byte on a pipe), then takes the start time.  A round trip is:
 * ping writes a message (hackbench's write cost and, the channel being
 * empty, the wakeup of pong; then the channel write), ping reads (blocks
 * until pong answers); pong reads (a read call and one message, hot: it
 * was just written), writes its answer.  The costs are hackbench's parts
 * for the mode (hackbench.h); `msg_us` replaces them all by one figure.  Pipes wake the reader
 * as the policy's kernel's pipe_write does (sync only before the writer
 * sleeps in 2.4-2.6, SL_WAKE_PIPE otherwise; docs/engine.md, "Pipe
 * wakeups"), sockets with a plain wakeup in 2.4 and 2.6 and a sync one in
 * 6.12 (hb_channel).
 * Metric: the time of the `loops` round trips, and one
 * round trip's average in microseconds.
 *
 * Sources: lmbench's lat_pipe (the pattern); hackbench.h (the costs, the
 * footprint).  The wakeup cost is fitted on this workload's pinned pipe
 * round trip on the host (6.87 us); the socket round trip is a check.
 *
 * Omitted: the per-call jitter of hackbench (one pair has no queue for it
 * to reorder); user time (a few instructions per message).
 */
#include "workload/bench_workloads.h"
#include "workload/hackbench.h"

struct pp_run {
	int loops;
	struct hb_costs cost;
	struct sl_chan *to_pong, *to_ping, *ready;
	sl_time t_go, t_end;
	int ping_loop, pong_loop;
	unsigned char ping_pc, pong_pc;
};

/* A write wakes the partner when it is blocked reading the channel; a
 * read takes one message, just written (hot: nothing ran in between but
 * the partner). */
static double write_ns(const struct pp_run *run, const struct sl_chan *c)
{
	return run->cost.write_ns + (sl_chan_reader_waits(c) ? run->cost.wake_ns : 0);
}

static double read_ns(const struct pp_run *run)
{
	return run->cost.read_ns + run->cost.msg_ns;
}

enum { P_START, P_WRITE_WORK, P_WRITE, P_READ, P_READ_WORK, P_WAIT, P_DONE };

/* pong: ready, then read a call, answer a call, `loops` times, exit */
static void pong_step(struct sl_sim *sim, struct sl_task *t, struct sl_action *next)
{
	struct pp_run *run = t->prog_state;

	(void)sim;
	switch (run->pong_pc) {
	case P_START:
		t->footprint_kb = HB_FOOTPRINT_KB;
		run->pong_pc = P_READ;
		*next = sl_act_chan(SL_ACT_CHAN_WRITE, run->ready, 1);
		return;
	case P_READ:
		if (run->pong_loop == run->loops) {
			*next = sl_act_exit();
			return;
		}
		run->pong_pc = P_READ_WORK;
		*next = sl_act_recv(run->to_pong, HB_MSG_BYTES);
		return;
	case P_READ_WORK:
		run->pong_pc = P_WRITE_WORK;
		*next = sl_act_sys(read_ns(run));
		return;
	case P_WRITE_WORK:
		run->pong_pc = P_WRITE;
		*next = sl_act_sys(write_ns(run, run->to_ping));
		return;
	default:		/* P_WRITE */
		run->pong_loop++;
		run->pong_pc = P_READ;
		*next = sl_act_chan(SL_ACT_CHAN_WRITE, run->to_ping, HB_MSG_BYTES);
		return;
	}
}

static const struct sl_prog pong_prog = { .name = "pong", .step = pong_step };

/* ping: fork pong, wait for it to be ready, then `loops` round trips */
static void ping_step(struct sl_sim *sim, struct sl_task *t, struct sl_action *next)
{
	struct pp_run *run = t->prog_state;

	switch (run->ping_pc) {
	case P_START:
		t->footprint_kb = HB_FOOTPRINT_KB;
		run->ping_pc = P_WAIT;
		*next = sl_act_fork(&pong_prog, run, "pingpong", false);
		return;
	case P_WAIT:
		run->ping_pc = P_WRITE_WORK;
		*next = sl_act_chan(SL_ACT_CHAN_READ, run->ready, 1);
		return;
	case P_WRITE_WORK:
		if (run->ping_loop == 0)
			run->t_go = sl_now(sim);
		if (run->ping_loop == run->loops) {
			run->t_end = sl_now(sim);
			run->ping_pc = P_DONE;
			*next = sl_act_wait();
			return;
		}
		run->ping_pc = P_WRITE;
		*next = sl_act_sys(write_ns(run, run->to_pong));
		return;
	case P_WRITE:
		run->ping_pc = P_READ;
		*next = sl_act_chan(SL_ACT_CHAN_WRITE, run->to_pong, HB_MSG_BYTES);
		return;
	case P_READ:
		run->ping_pc = P_READ_WORK;
		*next = sl_act_recv(run->to_ping, HB_MSG_BYTES);
		return;
	case P_READ_WORK:
		run->ping_loop++;
		run->ping_pc = P_WRITE_WORK;
		*next = sl_act_sys(read_ns(run));
		return;
	default:		/* P_DONE: pong reaped */
		*next = sl_act_exit();
		return;
	}
}

static const struct sl_prog ping_prog = { .name = "ping", .step = ping_step };

static const struct sl_param_def pp_params[] = {
	{ "loops", SL_PARAM_INT, "100000", 1, 100000000, NULL, "round trips" },
	{ "mode", SL_PARAM_CHOICE, "pipe", 0, 0, "pipe|socket",
	  "a pair of pipes (sync wakeups, default) or an AF_UNIX socket pair" },
	{ "msg_us", SL_PARAM_REAL, NULL, 0, 1e6, NULL,
	  "kernel work of every message write and read, us, replacing hackbench's per-part "
	  "costs for the mode (default: those costs)" },
	SL_WORKLOAD_CPUS_PARAM,
	{ NULL, 0, NULL, 0, 0, NULL, NULL },
};

static void *pp_start(struct sl_sim *sim, const struct sl_params *p, sl_time *limit_out)
{
	struct pp_run *run = sl_sim_alloc(sim, sizeof(*run));
	bool sync = sl_param_choice(p, "mode") == 0;

	*run = (struct pp_run){ .loops = (int)sl_param_int(p, "loops") };
	hb_costs_for(sim, sync, sl_param_given(p, "msg_us") ? sl_param_real(p, "msg_us") * 1e3
							     : hb_default_msg_ns(sim), &run->cost);
	run->to_pong = hb_channel(sim, hb_default_buf(sim, sync), sync);
	run->to_ping = hb_channel(sim, hb_default_buf(sim, sync), sync);
	run->ready = hb_channel(sim, 1, sync);
	sl_workload_pin(sim, p);
	sl_sim_spawn_root(sim, &ping_prog, run, "pingpong");
	*limit_out = 0;
	return run;
}

static void pp_report(struct sl_sim *sim, void *state, const struct sl_params *p,
		      struct sl_metrics *out)
{
	const struct pp_run *run = state;
	double time_s = (double)(run->t_end - run->t_go) / (double)SL_SEC;

	(void)sim;
	(void)p;
	sl_metrics_add(out, "time_s", "s", time_s, -1);
	sl_metrics_add(out, "round_trip_us", "us", time_s * 1e6 / run->loops, -1);
}

/* main, ping and pong */
static void pp_mem(const struct sl_params *p, const struct sl_topo *topo,
		   struct sl_mem_need *need)
{
	(void)p;
	(void)topo;
	need->tasks += 2;
	need->bytes += sl_sim_alloc_cost(sizeof(struct pp_run)) + sl_sim_chans_cost(3);
}

const struct sl_workload_ops sl_workload_pingpong = {
	.name = "pingpong",
	.summary = "two processes bouncing a 100-byte message over pipes or sockets",
	.metric = "round_trip_us",
	.params = pp_params,
	.start = pp_start,
	.report = pp_report,
	.mem = pp_mem,
};
