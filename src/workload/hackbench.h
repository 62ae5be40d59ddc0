/*
 * hackbench.h - the hackbench model's internals, shared by hackbench.c (the
 * workload), schedbench.c (numa_test starts `hackbench 20` in the background
 * 3 s into its run) and the unit tests.  The public face is
 * sl_workload_hackbench in bench_workloads.h.
 */
#ifndef SL_WORKLOAD_HACKBENCH_H
#define SL_WORKLOAD_HACKBENCH_H

#include <stdbool.h>

#include "sim/sim.h"

#define HB_MSG_BYTES		100	/* DATASIZE of every version */
/* An AF_UNIX stream socket holds sl_unix_socket_writes() messages, one
 * skb each, before its writer blocks: the kernel's sk_sndbuf over a small
 * skb's truesize (sim.h struct sl_sockets): 225 in 2.4 to 2.6.0, 364 in
 * 2.6.12, 278 in 6.12. */
#define HB_FOOTPRINT_KB		16	/* a tiny loop over a few fds */
/*
 * The kernel work of a message, in units of the machine's context-switch
 * cost (its yardstick for kernel-path speed: 1.46 us on `host`, 3 us on
 * the 2.2 GHz P4, 4 us on the 700 MHz P6 of a NUMA-Q).  Measured on the
 * host (2.6 GHz, Linux 6.18 in a VM) as CPU time per call of a process
 * that writes k 100-byte messages into its own socket pair or pipe and
 * reads them back, pinned, caches hot (docs/validation.md, "the cost of a
 * message"):
 *   AF_UNIX socket: write 0.72 us; read of one message 0.74 us, of k
 *   queued messages 0.27 us + 0.47 us each (skb dequeue, copy, free);
 *   pipe: write 0.22 us; read 0.20 us + 0.02 us per message.
 * Three costs are not in that loop and are fitted, each on one figure:
 *   WAKE: waking a sleeping partner (try_to_wake_up, the enqueue, the
 *   preemption check), paid by a write while the reader is blocked on
 *   the channel (sock_def_readable wakes only with a sleeper,
 *   skwq_has_sleeper) or a read that wakes blocked writers (a socket's:
 *   the read that leaves a quarter of sk_sndbuf queued, unix_write_space):
 *   fitted on the pinned pipe pingpong
 *   round trip, 6.87 us (two calls each way, two wakeups, two switches).
 *   COLD: a message read behind others in its queue waited while other
 *   processes ran on the CPU; its lines (sockets: the skb head, data and
 *   shared info, the slab and memcg metadata of freeing it; pipes: the
 *   page and the pipe_buffer) are gone from the cache.  Fitted per mode
 *   on the real hackbench's CPU time per message pinned to one CPU
 *   (perf task-clock, 10 groups: sockets 1.95 us, pipes 0.70 us).
 *   SHARED: while other CPUs run processes of the same hackbench, the
 *   lines its kernel paths share (the slab's and memcg's counters and
 *   lists, a group's socket locks and wait queues, written by senders on
 *   every CPU) bounce between their caches: a message pays this at its
 *   write when another CPU wrote them last, which with n CPUs running the
 *   run is (n-1)/n of the time.  Fitted on
 *   the real hackbench's CPU time per message on two CPUs, sockets, quiet
 *   host, reading what is queued: 3.0 us (1.21 s for 400,000 messages,
 *   against 1.95 us pinned).  Per message, not per call: reading one
 *   message per call instead (400,000 reads, not 3,300) cost the real run
 *   0.35 us per extra read, about a read call's own 0.27 us, where a
 *   per-call cost would have added its 0.95 us to each (Dec 2026).
 * User time is left out: a perf cpu-clock profile of hackbench puts 96 %
 * of its CPU time in the kernel (the rusage user/sys split, 0.53/0.68 s,
 * is the tick sampling's, which charges interrupts held off in the kernel
 * to the user mode they return to).
 */
#define HB_SOCK_WRITE_CTX	0.494	/* 0.72 us / 1.458 us */
#define HB_SOCK_READ_CTX	0.185	/* 0.27 us */
#define HB_SOCK_MSG_CTX		0.322	/* 0.47 us per message dequeued */
#define HB_PIPE_WRITE_CTX	0.151	/* 0.22 us */
#define HB_PIPE_READ_CTX	0.137	/* 0.20 us */
#define HB_PIPE_MSG_CTX		0.012	/* 0.017 us */
#define HB_WAKE_CTX		0.84	/* fitted: see above */
#define HB_SOCK_COLD_CTX	0.37	/* fitted: see above */
#define HB_PIPE_COLD_CTX	0.03	/* fitted: see above */
#define HB_SHARED_CTX		1.3	/* fitted: see above */
#define HB_JITTER		0.1	/* log-sd of a call's cost: cache misses, IRQs */

struct hb_config {
	int groups;		/* of fds senders + fds receivers */
	int fds;		/* senders and receivers per group (20) */
	int loops;		/* messages each sender sends to each receiver */
	bool pipe;		/* pipes (sync wakeups) or socket pairs */
	long buf;		/* channel capacity, bytes: a multiple of HB_MSG_BYTES;
				 * 0: a pipe as the kernel has it (sl_pipe_new) */
	double msg_ns;		/* >= 0: every write and every read costs this and
				 * nothing else (msg_us); < 0: the machine's costs */
	long readsize;		/* bytes a receiver asks per read (0: one message) */
	double jitter;		/* log-sd of each call's work (the task's own stream) */
	bool exec;		/* forked by another program: exec the image first */
};

/* The kernel work of each part of a message, reference ns (the machine's
 * own, from hb_machine_costs, unless msg_ns overrides them all). */
struct hb_costs {
	double write_ns;	/* one write() of a message */
	double read_ns;		/* one read() call ... */
	double msg_ns;		/* ... and each message it dequeues */
	double cold_ns;		/* each message read from behind others */
	double shared_ns;	/* a message whose shared lines another CPU wrote */
	double wake_ns;		/* waking the partner blocked on the channel */
};

struct hb_run;

/* A sender or a receiver: a process forked by hackbench's main. */
struct hb_proc {
	struct hb_run *run;
	int group;
	bool sender;
	unsigned char pc;
	int fd;			/* sender: next receiver of its group */
	int loop;		/* sender: loops completed */
	long left;		/* receiver: bytes still to read */
	long got;		/* receiver: bytes of the message read so far */
};

struct hb_run {
	struct hb_config cfg;
	struct hb_costs cost;		/* what each part of a message costs */
	int nchildren;			/* 2 x fds x groups */
	struct sl_chan **chans;		/* receiver channels, [group * fds + i] */
	int on_cpu;			/* children on a CPU now (task.h oncpu_count) */
	struct sl_chan *ready;		/* children -> main: "ready" bytes */
	struct sl_chan *go;		/* main -> children: the start signal */
	struct hb_proc *procs;		/* [group * 2 * fds + ...]: receivers, senders */
	long *group_bytes;		/* bytes read by each group's receivers */
	/* main's progress */
	unsigned char pc;
	int forked, reaped;
	long ready_read;
	/* results */
	sl_time t_start;		/* main started */
	sl_time t_go;			/* gettimeofday before the go signal */
	sl_time t_end;			/* ... after the last child was reaped */
	long writes, reads;		/* syscalls that moved data */
	long bytes_written, bytes_read;
	double shared_paid_ns;		/* the shared lines' part of the writes */
	bool done;
};

/* Prepare a run (channels, process states) from `cfg`: memory from the sim.
 * Start it by running hb_main_prog with `run` as its state. */
void hb_setup(struct sl_sim *sim, struct hb_run *run, const struct hb_config *cfg);
extern const struct sl_prog hb_main_prog;
/* Add what hb_setup() and the run of `groups` x `fds` allocate and fork
 * to `need` (saturating): the children, their states and channels. */
void hb_mem(long groups, long fds, struct sl_mem_need *need);

/* Defaults that depend on the machine or the mode.  hb_default_msg_ns is
 * -1: the machine's per-part costs (hb_machine_costs) for the mode. */
double hb_default_msg_ns(const struct sl_sim *sim);
void hb_machine_costs(const struct sl_sim *sim, bool pipe, struct hb_costs *out);
/* ... from a context switch's cost (what hb_machine_costs reads from the
 * run's machine), for checks made before a run exists. */
void hb_costs_of_ctx(double ctx_ns, bool pipe, struct hb_costs *out);
/* The costs a run uses: msg_ns >= 0 makes every call cost msg_ns. */
void hb_costs_for(const struct sl_sim *sim, bool pipe, double msg_ns, struct hb_costs *out);
/* A channel's bytes: a socket's sk_sndbuf in whole skbs; 0 for a pipe,
 * the kernel's own (sl_pipe_new: one page, or 2.6.11+'s ring of pages,
 * which holds whole messages only: a write goes into a page whole). */
long hb_default_buf(const struct sl_sim *sim, bool pipe);
/* Capacity actually used for a requested one: whole messages, at least one. */
long hb_chan_bytes(long buf);
/* A channel of `bytes` as the kernel's pipe (sl_pipe_new) or AF_UNIX
 * socket (sl_unix_socket_new): hackbench's and pingpong's. */
struct sl_chan *hb_channel(struct sl_sim *sim, long bytes, bool pipe);

#endif
