/*
 * memest.c - the memory one run takes, estimated before it starts from
 * the sizes of the engine's structures and what the workload says it
 * needs (sim.h, struct sl_mem_need).  The CLI refuses a run whose
 * estimate exceeds the memory limit (base/memsize.h) rather than let it
 * take the host's memory and fail - or be killed - minutes later.
 *
 * The estimate is an upper bound of the engine's part, not a guess: a
 * task is its pool slot (task + policy area, as sl__task_alloc() lays
 * them out) and its slots in the event heap and a policy's run-queue
 * heap (which double as they grow), and what a policy says its own queues
 * add per task (policy_ops.h: 2.4's scan index, a bitmap per CPU);
 * a CPU is its struct sl_cpu plus an allowance for the policy's per-CPU
 * state (run queues, domain groups: a few KB; sched domains keep an
 * ncpus x ncpus load table).  Each block the workload asks for costs its
 * header and malloc's own.  Checked against the peak RSS of large runs
 * (docs/robustness.md "Memory").
 */
#include "base/memsize.h"
#include "sim/internal.h"

/* The run's fixed part: struct sl_sim, the policy's top-level state,
 * libc's per-thread arena (the program itself takes about 3 MB). */
#define MEM_RUN_BASE (4ULL << 20)
/* A policy's state per CPU (O(1)'s two 140-list priority arrays are
 * 4.5 KB; CFS's, sl's and the domains' run queues and groups less). */
#define MEM_POLICY_PER_CPU (16ULL << 10)
/* ... and per CPU pair (sched domains' per-CPU load of every CPU). */
#define MEM_POLICY_PER_CPU2 64ULL
/* What malloc adds to each block: its header, rounded to 16. */
#define MEM_MALLOC_OVERHEAD 16ULL

uint64_t sl_sim_alloc_cost(uint64_t size)
{
	uint64_t n = sl_sat_add(sl_sat_add(size, sizeof(struct sl_block)), MEM_MALLOC_OVERHEAD);
	return sl_sat_add(n, 15) & ~15ULL;
}

uint64_t sl_sim_allocs_cost(uint64_t n, uint64_t size)
{
	return sl_sat_mul(n, sl_sim_alloc_cost(size));
}

uint64_t sl_sim_first_touch_cost(uint64_t nnodes)
{
	uint64_t work = sl_sim_alloc_cost(sl_sat_mul(nnodes, sizeof(double)));
	uint64_t split = sl_sim_alloc_cost(sl_sat_add(sizeof(struct sl_mem_split),
					   sl_sat_mul(nnodes, sizeof(struct sl_mem_share))));
	return sl_sat_add(work, split);
}

uint64_t sl_sim_chans_cost(uint64_t n)
{
	return sl_sim_allocs_cost(n, sizeof(struct sl_chan));
}

uint64_t sl_sim_mutexes_cost(uint64_t n)
{
	return sl_sim_allocs_cost(n, sizeof(struct sl_mutex));
}

uint64_t sl_sim_barriers_cost(uint64_t n)
{
	return sl_sim_allocs_cost(n, sizeof(struct sl_barrier));
}

uint64_t sl_sim_mem_estimate(const struct sl_machine *machine,
			     const struct sl_policy_ops *policy, const struct sl_mem_need *need)
{
	uint64_t ncpus = machine->topo.ncpus > 0 ? (uint64_t)machine->topo.ncpus : 1;
	/* as sl_sim_create() lays a task out, plus two slots in the event
	 * heap and two in a policy's run-queue heap (sl's) at most: a heap
	 * doubles, so n entries use at most 2n slots */
	uint64_t task = (((sizeof(struct sl_task) + 15) & ~(size_t)15) +
			 ((policy->task_size + 15) & ~(size_t)15)) +
			2 * sizeof(struct sl_eventq_slot) + 2 * sizeof(void *);
	/* ... and what the policy's own queues add (policy_ops.h) */
	task = sl_sat_add(task, policy->queue_bytes_per_task);
	task = sl_sat_add(task, (sl_sat_mul(ncpus, policy->queue_bits_per_task_cpu) + 7) / 8);
	/* a CPU: its struct, its tick-order and deferred-burst entries,
	 * its node's and package's sums (at most one each), its three
	 * events' heap slots (doubled) */
	uint64_t cpu = sizeof(struct sl_cpu) + 2 * sizeof(int) + 2 * sizeof(double) +
		       6 * sizeof(struct sl_eventq_slot) +
		       MEM_POLICY_PER_CPU + ncpus * MEM_POLICY_PER_CPU2;
	uint64_t total = MEM_RUN_BASE + sizeof(struct sl_sim);

	total = sl_sat_add(total, sl_sat_mul(ncpus, cpu));
	total = sl_sat_add(total, sl_sat_mul(need->tasks, task));
	total = sl_sat_add(total, need->bytes);
	/* what the allocator keeps besides (freed blocks, the event heap's
	 * old copy while it doubles, fragmentation): an eighth more */
	total = sl_sat_add(total, total / 8);
	/* a load's transient memory is freed before the tasks exist */
	return total > need->transient ? total : need->transient;
}
