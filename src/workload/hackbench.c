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
 * Model: a message's kernel work is split into its parts (hackbench.h,
 * each measured on the host or fitted on one named figure, and scaled to
 * other machines by their context-switch cost): the write, the waking of
 * a receiver blocked on the channel, the read call, each message it
 * dequeues, the cache misses of a message read from behind others (it
 * waited while other processes ran), and the lines the run's kernel paths
 * share with every other CPU running the run at the time.  Each call's work is varied by a
 * lognormal factor (log-sd `jitter`, from the process's own stream: cache
 * misses, interrupts); the context switches are the engine's.  Then
 * the channel operation.  A channel holds what the
 * kernel would buffer before blocking the writer: one 4 KB page for 2.4 /
 * 2.6.0 pipes (40 messages) and 2.6.11+'s ring of 16 pages, as many skbs
 * as the sender socket's
 * sk_sndbuf lets in for sockets (sl_unix_socket_writes: 225 messages in
 * 2.4/2.5, 364 in 2.6.12, 278 in 6.12).  A one-page pipe's read wakes a
 * blocked writer whenever it frees room, a ring of pages' as its kernel's
 * (docs/engine.md, "Pipe sizes"); a socket's only once the queued skbs take
 * at most a quarter of sk_sndbuf (56 messages, 90 in 2.6.12, 69 in 6.12:
 * sl_unix_socket_new; unix_write_space,
 * unix_writable, 2.4.27, 2.6.11 and 6.12 net/unix/af_unix.c), so a writer
 * that found a full socket sleeps until its reader has drained three
 * quarters of it, and every blocked writer is woken then.  Pipes wake as
 * their kernel's pipe_write does (wake_up_interruptible_sync only before
 * the writer sleeps in 2.4-2.6, else SL_WAKE_PIPE: docs/engine.md, "Pipe
 * wakeups"), sockets with plain wakeups in 2.4 and 2.6 and sync ones in
 * 6.12 (sock_def_readable, unix_write_space: SL_WAKE_SOCK).  The go
 * signal is one write that wakes every poller at once, the last to poll
 * first (poll's wait queue entries are non-exclusive), through a pipe or a
 * socket pair as the messages' channels are (fdpair), with their wakeups.
 * Metric: the time from the go signal to the last reap, what hackbench
 * prints ("Time: s.mmm").
 *
 * Sources: Rusty Russell's version in Erich Focht's numa_test attachment
 * (LKML, <200210062224.50087.efocht@ess.nec.de>; numa_test's dispatch
 * starts hackbench 20 as its disturbance) and rt-tests' src/hackbench/
 * hackbench.c (structure, defaults, message size; per-message costs are
 * estimates, ~10 us in 2002, 1-3 us today); 2.6.11 fs/pipe.c pipe_writev()
 * (wake_up_interruptible_sync: sync wakeups of pipes).
 *
 * Checked against: the structure (process, message and byte counts,
 * tests/unit/test_workload_bench.c); on the host, the real hackbench's
 * time (10 groups over sockets, one message per read: 0.51-0.68 s over
 * an afternoon's hours, simulated 0.641 s; reading what is queued,
 * readsize=65536, 0.44-0.64 s against 0.599 s) and the pingpong round
 * trips; docs/validation.md.  No hackbench time
 * of the era was available: on older machines the parts scale with the
 * context-switch cost (a 2002 NUMA-Q pays about 2.7 times the host's).
 *
 * Omitted / simplified:
 *   - no user time: a perf profile puts 96 % of hackbench's CPU time in
 *     the kernel (hackbench.h);
 *   - a message is cold or hot as a whole: cold when the channel held
 *     more than one message before the read, hot otherwise (a per-message
 *     age against the cache would be finer);
 *   - writes are whole messages (the capacity is a multiple of 100 bytes),
 *     as a blocking 100-byte write to a socket or a pipe is atomic;
 *   - socket pair and pipe creation cost one write each; the main
 *     process's own user work (argument parsing, gettimeofday) is free;
 *   - threads mode (-T), TCP mode (-i) and the SCHED_FIFO parent (-F) of
 *     rt-tests' version are not modelled.
 */
#include <math.h>
#include <stdio.h>

#include "base/memsize.h"
#include "base/rng.h"
#include "sim/sim.h"
#include "workload/bench_workloads.h"
#include "workload/hackbench.h"
#include "workload/workload.h"

/* ---- actions ---- */

/* Senders and receivers are latency groups of their own (their waits are
 * reported apart: a receiver waits for messages, a sender for room). */
enum { HB_LAT_SENDERS = 1, HB_LAT_RECEIVERS = 2 };

static struct sl_action act_fork(const struct sl_prog *prog, void *state, const char *comm,
				 int lat_group)
{
	return (struct sl_action){ .kind = SL_ACT_FORK,
				   .u.fork = { .prog = prog, .state = state, .comm = comm,
					       .lat_group = lat_group } };
}

/* ---- senders and receivers ---- */

/* Kernel work `ns`, varied by the task's own stream (cache misses, IRQs);
 * written in place (sim/action.h says why). */
static void act_call(struct sl_action *a, struct sl_task *t, const struct hb_run *run, double ns)
{
	double f = run->cfg.jitter > 0 ? exp(run->cfg.jitter * sl_rng_normal(&t->rng)) : 1;
	*a = sl_act_sys(ns * f);
}

enum { C_READY, C_GO, C_WORK, C_XFER, C_DONE };

static int proc_chan_index(const struct hb_proc *p)
{
	return p->group * p->run->cfg.fds + p->fd;
}

static struct sl_chan *proc_chan(const struct hb_proc *p)
{
	return p->run->chans[proc_chan_index(p)];
}

/* Kernel work `ns` of a message's write, plus the shared lines' cost when
 * another CPU running a process of this run wrote them last.  Per
 * message, charged at its write (hackbench.h, SHARED): the fit cannot
 * tell where in a message's life the lines are paid, and it was made on
 * a run with a read call per 120 messages, where writes were the calls. */
static void act_write_call(struct sl_action *a, struct sl_task *t, struct hb_run *run,
			   double ns)
{
	if (run->cost.shared_ns > 0) {
		/* the run's other children on a CPU now (t is on its own) */
		int others = run->on_cpu - (t->cpu >= 0);
		/* the lines were last written by any of the CPUs running the
		 * run: by another one in others / (others + 1) of the calls */
		double shared = run->cost.shared_ns * others / (others + 1.0);
		run->shared_paid_ns += shared;
		ns += shared;
	}
	act_call(a, t, run, ns);
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
	if (p->pc == C_WORK) {		/* the write: a receiver blocked on the
					 * channel is woken by it */
		double ns = run->cost.write_ns;
		if (sl_chan_reader_waits(proc_chan(p)))
			ns += run->cost.wake_ns;
		p->pc = C_XFER;
		act_write_call(next, t, run, ns);
		return;
	}
	p->pc = C_DONE;
	*next = sl_act_chan(SL_ACT_CHAN_WRITE, proc_chan(p), HB_MSG_BYTES);
}

static void receiver_next(struct sl_task *t, struct hb_proc *p, struct sl_action *next)
{
	struct hb_run *run = p->run;

	if (p->pc == C_DONE) {		/* a read returned t->result bytes */
		long n = t->result;
		/* what the channel held before this read: a message behind
		 * others waited while other processes ran (cold); a read that
		 * woke the blocked senders paid the wakeup */
		long before = sl_chan_level(proc_chan(p)) + n;
		double msgs = (double)n / HB_MSG_BYTES;
		double ns = run->cost.read_ns + msgs * run->cost.msg_ns;
		if (before > HB_MSG_BYTES)
			ns += msgs * run->cost.cold_ns;
		if (sl_chan_read_woke_writer(proc_chan(p)))
			ns += run->cost.wake_ns;
		run->reads++;
		run->bytes_read += n;
		run->group_bytes[p->group] += n;
		p->left -= n;
		p->got = (p->got + n) % HB_MSG_BYTES;
		p->pc = C_WORK;
		act_call(next, t, run, ns);
		return;
	}
	if (p->left <= 0) {
		*next = sl_act_exit();
		return;
	}
	/* hackbench reads the rest of one message (DATASIZE - done); with a
	 * larger readsize, whatever is queued up to that size */
	long want = run->cfg.readsize > HB_MSG_BYTES ? run->cfg.readsize : HB_MSG_BYTES - p->got;
	p->pc = C_DONE;
	*next = sl_act_recv(proc_chan(p), want < p->left ? want : p->left);
}

static void child_step(struct sl_sim *sim, struct sl_task *t, struct sl_action *next)
{
	struct hb_proc *p = t->prog_state;

	(void)sim;
	switch (p->pc) {
	case C_READY:
		t->footprint_kb = HB_FOOTPRINT_KB;
		/* counted from now on, while on a CPU: it is on one now */
		t->oncpu_count = &p->run->on_cpu;
		p->run->on_cpu++;
		p->pc = C_GO;
		*next = sl_act_chan(SL_ACT_CHAN_WRITE, p->run->ready, 1);
		return;
	case C_GO:		/* poll() on the go pipe */
		p->pc = C_WORK;
		*next = sl_act_chan(SL_ACT_CHAN_READ, p->run->go, 1);
		return;
	default:
		if (p->sender)
			sender_next(t, p, next);
		else
			receiver_next(t, p, next);
	}
}

static const struct sl_prog hb_child_prog = {
	.name = "hackbench-child", .step = child_step };

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
				*next = sl_act_exec("hackbench");
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
				*next = sl_act_sys(run->cost.write_ns);
				return;
			}
			continue;
		case M_FORK:
			run->pc = M_PAIR;
			struct hb_proc *child = &run->procs[run->forked++];
			*next = act_fork(&hb_child_prog, child, "hackbench",
					 child->sender ? HB_LAT_SENDERS : HB_LAT_RECEIVERS);
			return;
		case M_READY_GOT:
			run->ready_read += t->result;
			run->pc = M_READY;
			continue;
		case M_READY:
			if (run->ready_read < run->nchildren) {
				run->pc = M_READY_GOT;
				*next = sl_act_chan(SL_ACT_CHAN_READ, run->ready,
						 run->nchildren - run->ready_read);
				return;
			}
			run->pc = M_GO;
			continue;
		case M_GO:
			run->t_go = sl_now(sim);
			run->pc = M_WAIT;
			*next = sl_act_chan(SL_ACT_CHAN_WRITE, run->go, run->nchildren);
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
	(void)sim;
	return -1;
}

void hb_machine_costs(const struct sl_sim *sim, bool pipe, struct hb_costs *out)
{
	hb_costs_of_ctx((double)sl_cost_ctx_switch(sim), pipe, out);
}

void hb_costs_of_ctx(double ctx, bool pipe, struct hb_costs *out)
{
	*out = (struct hb_costs){
		.write_ns = ctx * (pipe ? HB_PIPE_WRITE_CTX : HB_SOCK_WRITE_CTX),
		.read_ns = ctx * (pipe ? HB_PIPE_READ_CTX : HB_SOCK_READ_CTX),
		.msg_ns = ctx * (pipe ? HB_PIPE_MSG_CTX : HB_SOCK_MSG_CTX),
		.cold_ns = ctx * (pipe ? HB_PIPE_COLD_CTX : HB_SOCK_COLD_CTX),
		.shared_ns = ctx * HB_SHARED_CTX,
		.wake_ns = ctx * HB_WAKE_CTX,
	};
}

void hb_costs_for(const struct sl_sim *sim, bool pipe, double msg_ns, struct hb_costs *out)
{
	if (msg_ns >= 0)
		*out = (struct hb_costs){ .write_ns = msg_ns, .read_ns = msg_ns };
	else
		hb_machine_costs(sim, pipe, out);
}

long hb_default_buf(const struct sl_sim *sim, bool pipe)
{
	if (pipe)
		return 0;	/* the kernel's own (sl_pipe_new) */
	return sl_unix_socket_writes(sim) * HB_MSG_BYTES;
}

long hb_chan_bytes(long buf)
{
	long msgs = buf / HB_MSG_BYTES;
	return (msgs > 0 ? msgs : 1) * HB_MSG_BYTES;
}

struct sl_chan *hb_channel(struct sl_sim *sim, long bytes, bool pipe)
{
	return pipe ? sl_pipe_new(sim, bytes) : sl_unix_socket_new(sim, bytes);
}

void hb_setup(struct sl_sim *sim, struct hb_run *run, const struct hb_config *cfg)
{
	int fds = cfg->fds, nchans = cfg->groups * fds;

	*run = (struct hb_run){ .cfg = *cfg };
	run->cfg.buf = cfg->buf > 0 ? hb_chan_bytes(cfg->buf) : 0;
	hb_costs_for(sim, cfg->pipe, cfg->msg_ns, &run->cost);
	run->nchildren = 2 * nchans;
	run->chans = sl_sim_alloc(sim, sizeof(*run->chans) * (size_t)nchans);
	for (int i = 0; i < nchans; i++)
		run->chans[i] = hb_channel(sim, run->cfg.buf, cfg->pipe);
	/* socket pairs or pipes too, as the messages' (fdpair) */
	run->ready = hb_channel(sim, run->nchildren, cfg->pipe);
	run->go = hb_channel(sim, run->nchildren, cfg->pipe);
	sl_chan_mark_polled(run->go);
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

void hb_mem(long groups, long fds, struct sl_mem_need *need)
{
	uint64_t nchans = sl_sat_mul((uint64_t)groups, (uint64_t)fds);
	uint64_t nchildren = sl_sat_mul(2, nchans);
	uint64_t bytes = sl_sim_alloc_cost(sizeof(struct hb_run));

	bytes = sl_sat_add(bytes, sl_sim_alloc_cost(sl_sat_mul(nchans, sizeof(struct sl_chan *))));
	bytes = sl_sat_add(bytes, sl_sim_chans_cost(sl_sat_add(nchans, 2)));
	bytes = sl_sat_add(bytes, sl_sim_alloc_cost(sl_sat_mul((uint64_t)groups, sizeof(long))));
	bytes = sl_sat_add(bytes, sl_sim_alloc_cost(sl_sat_mul(nchildren,
							       sizeof(struct hb_proc))));
	need->tasks = sl_sat_add(need->tasks, nchildren);
	need->bytes = sl_sat_add(need->bytes, bytes);
}

/* ---- the workload ---- */

#define HB_STR(x) #x
#define HB_XSTR(x) HB_STR(x)

static const struct sl_param_def hb_params[] = {
	{ "groups", SL_PARAM_INT, "10", 1, 25000, NULL,
	  "groups of senders and receivers (hackbench's argument; numa_test used 20)" },
	{ "loops", SL_PARAM_INT, "100", 1, 10000000, NULL,
	  "messages each sender sends to each receiver" },
	{ "fds", SL_PARAM_INT, "20", 1, 1000, NULL,
	  "senders and receivers per group" },
	{ "mode", SL_PARAM_CHOICE, "socket", 0, 0, "socket|pipe",
	  "AF_UNIX socket pairs (default) or pipes (-pipe)" },
	{ "buf", SL_PARAM_INT, NULL, HB_MSG_BYTES, 1L << 30, NULL,
	  "bytes a channel holds before the writer blocks (default: a socket the kernel's "
	  "sk_sndbuf in messages, 22500 in 2.4 to 2.6.0, 36400 in 2.6.12, 27800 in 6.12; a pipe the "
	  "kernel's: one page, 40 messages, in 2.4 and 2.6.0; 16 pages in 2.6.11+ and 6.12, "
	  "a message merged into the newest page while it fits, except by a writer that "
	  "slept, which takes a fresh one)" },
	{ "readsize", SL_PARAM_INT, "100", HB_MSG_BYTES, 1L << 30, NULL,
	  "bytes a receiver asks per read: 100 = hackbench's one message per read; "
	  "65536 = what is queued, up to 64 KB" },
	{ "msg_us", SL_PARAM_REAL, NULL, 0, 1e6, NULL,
	  "kernel work of every message write and read, us, replacing the machine's per-part "
	  "costs (default: those costs, measured on a 2.6 GHz host in units of the context "
	  "switch)" },
	{ "jitter", SL_PARAM_REAL, HB_XSTR(HB_JITTER), 0, 2, NULL,
	  "log-sd of each call's kernel work (each process's own random stream)" },
	SL_WORKLOAD_CPUS_PARAM,
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
		.buf = sl_param_given(p, "buf") ? sl_param_int(p, "buf") : hb_default_buf(sim, pipe),
		.msg_ns = sl_param_given(p, "msg_us") ? sl_param_real(p, "msg_us") * 1e3
						      : hb_default_msg_ns(sim),
		.readsize = sl_param_int(p, "readsize"),
		.jitter = sl_param_real(p, "jitter"),
	};

	hb_setup(sim, run, &cfg);
	sl_workload_pin(sim, p);
	sl_sim_spawn_root(sim, &hb_main_prog, run, "hackbench");
	*limit_out = 0;
	return run;
}

static void hb_mem_op(const struct sl_params *p, const struct sl_topo *topo,
		      struct sl_mem_need *need)
{
	(void)topo;
	hb_mem(sl_param_int(p, "groups"), sl_param_int(p, "fds"), need);
}

/*
 * Every sender writes `loops` messages to each of its group's receivers,
 * and every message is read: at least a write's and a dequeued message's
 * kernel work each, and a read's too where a read takes one message (the
 * default readsize).  That work less four standard deviations of its
 * draws, over every CPU (none runs faster than the reference), is a lower
 * bound of the run, refused before it starts if past the horizon.
 */
static int hb_check(const struct sl_params *p, const struct sl_machine *m,
		    const struct sl_policy_ops *policy, struct sl_err *err)
{
	double fds = (double)sl_param_int(p, "fds");
	double msgs = (double)sl_param_int(p, "groups") * fds * fds * (double)sl_param_int(p, "loops");
	bool pipe = sl_param_choice(p, "mode") == 1;
	struct hb_costs c;
	char what[160];

	(void)policy;
	if (sl_param_given(p, "msg_us"))
		c = (struct hb_costs){ .write_ns = sl_param_real(p, "msg_us") * 1e3,
				       .read_ns = sl_param_real(p, "msg_us") * 1e3 };
	else
		hb_costs_of_ctx((double)m->speed.ctx_switch_ns, pipe, &c);
	double per_msg = c.write_ns + c.msg_ns +
			 (sl_param_int(p, "readsize") < 2 * HB_MSG_BYTES ? c.read_ns : 0);
	double largest = fmax(c.write_ns, c.read_ns + c.msg_ns) * 1e-9;
	double s = sl_workload_sum_floor(msgs * per_msg * 1e-9, largest,
					 sl_param_real(p, "jitter")) / m->topo.ncpus;
	snprintf(what, sizeof(what), "%.0f messages of %.2f us of kernel work each on %d CPU%s",
		 msgs, per_msg / 1e3, m->topo.ncpus, m->topo.ncpus > 1 ? "s" : "");
	return sl_workload_fits_horizon("hackbench", s, what, err);
}

static void hb_report(struct sl_sim *sim, void *state, const struct sl_params *p,
		      struct sl_metrics *out)
{
	const struct hb_run *run = state;

	(void)p;
	sl_metrics_add(out, "time_s", "s", sl_ns_to_s(run->t_end - run->t_go), -1);
	sl_metrics_add(out, "messages", "count", (double)(run->bytes_read / HB_MSG_BYTES), 0);
	sl_metrics_add(out, "bytes", "bytes", (double)run->bytes_read, 0);
	sl_metrics_add(out, "processes", "count", 1.0 + run->nchildren, 0);
	sl_metrics_add_latency(out, sim, HB_LAT_SENDERS, "senders");
	sl_metrics_add_latency(out, sim, HB_LAT_RECEIVERS, "receivers");
}

const struct sl_workload_ops sl_workload_hackbench = {
	.name = "hackbench",
	.summary = "hackbench: groups of 20 senders x 20 receivers, 100-byte messages over "
		   "socket pairs or pipes",
	.metric = "time_s",
	.params = hb_params,
	.start = hb_start,
	.report = hb_report,
	.mem = hb_mem_op,
	.check = hb_check,
};
