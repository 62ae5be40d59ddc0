/*
 * bench_workloads.h - the fork/exec, NUMA and messaging benchmarks of the
 * 2002-2004 debate: SDET (sdet.c), Erich Focht's NUMA schedbench /
 * numa_test (schedbench.c), hackbench (hackbench.c) and its smallest case,
 * a ping-pong pair (pingpong.c) and Chris Mason's schbench (schbench.c).  See
 * docs/workloads.md for the models, parameters and metrics.
 */
#ifndef SL_WORKLOAD_BENCH_WORKLOADS_H
#define SL_WORKLOAD_BENCH_WORKLOADS_H

#include "workload/workload.h"

extern const struct sl_workload_ops sl_workload_sdet;
extern const struct sl_workload_ops sl_workload_schedbench;
extern const struct sl_workload_ops sl_workload_hackbench;
extern const struct sl_workload_ops sl_workload_pingpong;
extern const struct sl_workload_ops sl_workload_schbench;

/*
 * One row of numa_test's per-task listing (Hohnbaum's N = 32 paste): the
 * share of the task's run time on each node, its initial node (iSched: the
 * node it ran on when it allocated its arrays, after exec), the node it
 * spent most time on (MSched; the listing marks a row with '*' when they
 * differ), and its user and system time.  `home` is where its memory
 * really is: the engine's first touch, the node it first ran on.
 * Per-node shares need the engine's per-node run time, kept for nodes 0-3:
 * on machines with more nodes node_pct is NAN and msched is -1.
 */
#define SL_SCHEDBENCH_NODES 4

struct sl_schedbench_task {
	double node_pct[SL_SCHEDBENCH_NODES];
	int isched;
	int msched;
	int home;		/* the node its memory lives on (the most of it) */
	int mem_nodes;		/* how many nodes its memory lies on (first touch) */
	double user_s, sys_s;
	double start_s;		/* fork time from the start of the run */
	double end_s;		/* exit time from the start of the run */
};

/* The rows of a finished schedbench run (`state` as returned by start()).
 * Returns the number of tasks. */
int sl_schedbench_tasks(const void *state, const struct sl_schedbench_task **rows);

#endif
