/*
 * trace_replay_model.h - the `trace` workload's model of a trace (private
 * to workload/trace_replay*.c): its tasks and their ops, as
 * trace_replay_load.c reads and checks them from the JSON `schedlab trace
 * import` writes, and trace_replay.c replays them.
 */
#ifndef SL_WORKLOAD_TRACE_REPLAY_MODEL_H
#define SL_WORKLOAD_TRACE_REPLAY_MODEL_H

#include <stdbool.h>
#include <stdint.h>

#include "base/err.h"
#include "sim/sim.h"

#define RP_COMM 16

enum rp_kind {
	RP_RUN, RP_SLEEP, RP_WAIT, RP_WAIT_CHILD, RP_WAKE, RP_FORK, RP_EXEC, RP_EXIT, RP_REAP
};


struct rp_op {
	enum rp_kind kind;
	bool io;		/* SLEEP, WAIT, WAIT_CHILD: uninterruptible ('D') */
	bool vfork;		/* FORK: the parent sleeps until the child execs or exits */
	bool thread;		/* FORK: the child is a thread (shares the parent's mm) */
	bool signal;		/* WAIT_CHILD: woken by the child's SIGCHLD, caught */
	bool outside_wait;	/* ... in a sleep outside wait(): no reap */
	int arg;		/* WAIT: waker; WAIT_CHILD, FORK: child; WAKE: wakee */
	sl_time ns;		/* RUN: on-CPU time; sleeps: recorded time; EXIT: tail */
	int seg0, nseg;		/* RUN: cumulative segment ends in m->segs (0: one) */
	int comm;		/* EXEC: index in m->comms */
	int prio;		/* RUN: the prio it ran at, where it changed; -1 */
};

struct rp_task {
	char comm[RP_COMM];
	int parent;		/* -1: a root */
	int prio;		/* recorded: 120 + nice, or 99 - rt_priority */
	int op0, nops;
	int waits, wakes;	/* waits on its channel, wake ops aimed at it */
	int signals;		/* its wait_child ops outside wait() */
	int forked;		/* fork ops creating it */
};

struct rp_model {
	int ntasks, nops, nsegs, ncomms;
	struct rp_task *tasks;
	struct rp_op *ops;
	sl_time *segs;
	char (*comms)[RP_COMM];
	double recorded_cpu;	/* summed over every task: may pass any one's span */
	sl_time duration;
	sl_time op_max;		/* the longest op the trace allows: its span */
	sl_time task_max;	/* and the most time a task's ops may add up to */
};

/* Memory for a model: the run's (start) or a throwaway list (validate). */
struct rp_mem {
	struct sl_sim *sim;
	void *blocks[4];
	int n;
};

/* Read and check the file into *m, its arrays from `mem` (a run's
 * memory, or a throwaway list for rp_mem_free): 0, or -1 with err naming
 * the file and the JSON place. */
int rp_model_load(const char *path, struct rp_mem *mem, struct rp_model *m, struct sl_err *err);
void rp_mem_free(struct rp_mem *mem);
/* What loading `path` takes before the model is built: the objects of its
 * JSON (each could be a task or an op) and the text's buffer and json-c's
 * tree at their peak, bytes; false if it cannot be read. */
bool rp_file_scan(const char *path, uint64_t *objects, uint64_t *transient);

#endif
