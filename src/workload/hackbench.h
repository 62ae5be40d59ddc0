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
#define HB_PIPE_BYTES		4096	/* one page: 2.4 and 2.6.0 pipes */
/* AF_UNIX stream sockets block the writer when the skbs queued on the
 * socket exceed its sk_sndbuf (sysctl_wmem_default, 65535 in 2.4/2.5).
 * Each 100-byte message is one skb whose truesize is the data rounded to
 * the cache line plus the sk_buff head: about 320 bytes on i386 (an
 * estimate).  So about 204 messages fit. */
#define HB_SOCK_SNDBUF		65535
#define HB_SKB_TRUESIZE		320
#define HB_FOOTPRINT_KB		16	/* a tiny loop over a few fds */
/* Kernel work of one 100-byte write or read (syscall entry, skb or pipe
 * page copy, queueing, waking the other side) in units of the machine's
 * context-switch cost, its yardstick for kernel-path speed: 8 us on the
 * 700 MHz P6 of a NUMA-Q (estimates: ~10 us in 2002), 3 us on a modern
 * core (1-3 us today). */
#define HB_MSG_PER_CTX_SWITCH	2.0
#define HB_JITTER		0.1	/* log-sd of a call's cost: cache misses, IRQs */

struct hb_config {
	int groups;		/* of fds senders + fds receivers */
	int fds;		/* senders and receivers per group (20) */
	int loops;		/* messages each sender sends to each receiver */
	bool pipe;		/* pipes (sync wakeups) or socket pairs */
	long buf;		/* channel capacity, bytes: a multiple of HB_MSG_BYTES */
	double msg_ns;		/* kernel work of one write and of one read (ref ns) */
	double jitter;		/* log-sd of each call's work (the task's own stream) */
	bool exec;		/* forked by another program: exec the image first */
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
	int nchildren;			/* 2 x fds x groups */
	struct sl_chan **chans;		/* receiver channels, [group * fds + i] */
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
	bool done;
};

/* Prepare a run (channels, process states) from `cfg`: memory from the sim.
 * Start it by running hb_main_prog with `run` as its state. */
void hb_setup(struct sl_sim *sim, struct hb_run *run, const struct hb_config *cfg);
extern const struct sl_prog hb_main_prog;

/* Defaults that depend on the machine or the mode. */
double hb_default_msg_ns(const struct sl_sim *sim);
long hb_default_buf(bool pipe);
/* Capacity actually used for a requested one: whole messages, at least one. */
long hb_chan_bytes(long buf);

#endif
