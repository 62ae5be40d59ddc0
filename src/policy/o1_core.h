/*
 * o1_core.h - the O(1) scheduler shared by the policies `o1` (stock,
 * HT-unaware), `ht` (Ingo Molnar's shared-runqueue HT scheduler) and `up`
 * (a uniprocessor build).  One engine of runqueues, priority arrays,
 * timeslices, interactivity, scheduler_tick, schedule(), wakeup, fork/exit
 * and load balancing, configured by:
 *
 *   struct o1_version  one row per stock kernel (2.5.33, 2.5.59, 2.5.68,
 *                      2.6.0): constants plus the rules that changed;
 *   struct o1_config   the build: HZ, cache_decay_ticks, SMP or UP, and the
 *                      HT scheduler's features (all off for stock).
 *
 * A runqueue may be served by several CPUs (the HT patch: one per SMT core);
 * the stock scheduler has one per CPU.  The per-task state lives in the
 * engine's policy-private area (struct o1_task, task_size of the ops).
 *
 * Sources: research/policies.md sections 2 (O(1)), 4 (HT scheduler), 7
 * (modelling notes); see o1_core.c, o1_balance.c, o1_versions.c for the
 * details and the omitted / simplified lists.  Docs: docs/policies/o1.md,
 * ht.md, up.md.
 */
#ifndef SL_POLICY_O1_CORE_H
#define SL_POLICY_O1_CORE_H

#include <stdbool.h>
#include <stdint.h>

#include "base/err.h"
#include "base/spec.h"
#include "base/units.h"
#include "hw/topo.h"
#include "policy/prio_array.h"
#include "sim/policy_ops.h"
#include "sim/task.h"

struct sl_sim;
struct sl_task;

/* ---- the version table (o1_versions.c) ---- */

/* How sleep_avg and the dynamic priority work (policies.md 2.3). */
enum o1_interactivity {
	O1_SLEEP_JIFFIES,	/* 2.5.x: +sleep jiffies at wakeup, -1 per running tick */
	O1_SLEEP_NS,		/* 2.6.0: Con Kolivas' ns sleep_avg with credits */
};

/* What a sync wakeup (pipes) does besides the fast-migrate (2.6). */
enum o1_sync_rule {
	O1_SYNC_CREDIT,		/* 2.5.59: credit and preemption check as usual */
	O1_SYNC_QUIET,		/* 2.5.68: no credit, no preemption check */
	O1_SYNC_QUIET_LOCAL,	/* 2.6.0: quiet only if task_cpu == waker's CPU */
};

/* find_busiest_queue's threshold and how many tasks move (2.7). */
enum o1_imbalance_rule {
	O1_IMBALANCE_HALF,	/* 2.5: (max-me)/2, >= (max+3)/4 if busy, busiest > me+1 */
	O1_IMBALANCE_QUARTER,	/* 2.6.0: max-me, *4 >= max if busy, busiest > me, pull half */
};

/* May load_balance take a cache-hot task? (2.7, 4.7) */
enum o1_hot_rule {
	O1_HOT_NEVER,		/* 2.5.3 .. 2.5.68: never, idle or not */
	O1_HOT_IF_IDLE,		/* 2.6.0 (and the HT patch's AGRESSIVE_IDLE_STEAL) */
};

struct o1_version {
	const char *name;
	int min_timeslice_ms, max_timeslice_ms;
	enum o1_interactivity interactivity;
	int max_sleep_avg_ms;		/* jiffies model; the ns model derives it */
	int starvation_limit_ms;	/* jiffies model; the ns model: MAX_SLEEP_AVG */
	int child_penalty, parent_penalty, exit_weight;	/* percent, percent, weight */
	int prio_bonus_ratio, interactive_delta;
	int sleep_credit_offset;	/* jiffies not credited per sleep (2.5.68: 1) */
	int on_runqueue_weight, credit_limit;		/* ns model only */
	enum o1_sync_rule sync_rule;
	bool preempt_equal_prio;	/* pull_task: equal prio and larger slice preempts */
	int busy_rebalance_ms, idle_rebalance_ms;
	bool idle_tick_passes_idle;	/* false in 2.5.68: the idle tick balances as busy */
	enum o1_imbalance_rule imbalance;
	enum o1_hot_rule hot;
	bool decay_plus_one;		/* cache_decay_ticks = flush ms + 1 (2.6.0-test1+) */
};

/* The row named `name`, or NULL. */
const struct o1_version *o1_version_find(const char *name);
/* "2.5.33|2.5.59|2.5.68|2.6.0": the choices of the version knob. */
extern const char o1_version_choices[];

/* cache_decay_ticks as i386 smp_tune_scheduling computed it (2.7). */
int o1_cache_decay_ticks(const struct sl_topo *topo, const struct o1_version *v, unsigned hz);

/* ---- the build ---- */

/* Where the HT scheduler keeps the "active balance requested" latch (4.6). */
enum o1_active_flag {
	O1_ACTIVE_FLAG_REQUESTER,	/* F3 (2.5.31): on the idle CPU asking */
	O1_ACTIVE_FLAG_BUSY_RQ,		/* A9: on the busy runqueue */
};

struct o1_config {
	const struct o1_version *v;
	unsigned hz;
	int cache_decay_ticks;
	enum o1_hot_rule hot;		/* the version's, or the HT patch's idle steal */
	sl_time scan_ns;		/* cost per runqueue or task examined */
	sl_time pick_ns;		/* cost of one schedule() */
	bool smp;			/* false: UP kernel, CPU 0 only, no balancing */

	/* Ingo Molnar's HT scheduler (policies.md 4); all off for stock. */
	bool share_siblings;		/* one runqueue per SMT core (4.2) */
	bool wake_up_cpu;		/* wake_up_cpu() placement (4.4) */
	bool wake_up_cpu_sync;		/* ... also for sync wakeups */
	bool wake_equal_prio;		/* ... equal prio and larger slice preempts (A9) */
	bool active_balance;		/* active balancing via the migration thread (4.6) */
	enum o1_active_flag active_flag;
	bool active_skip_single;	/* skip runqueues of one CPU (A9) */
	bool active_steal_hot;		/* its pull may take the just-preempted task */
	bool idle_pickup_tick;		/* an idle sibling takes a waiting task at its tick */
	int idle_active_ms;		/* an idle core asks for active balancing this often (0: never) */
};

/* ---- state ---- */

struct o1_task {
	struct sl_prio_node run_list;	/* first: the array links */
	struct sl_task *task;
	struct sl_prio_array *array;	/* NULL when not queued */
	int cpu;			/* task_cpu(p): its runqueue's CPU / where it ran */
	int prio, static_prio;
	int time_slice;			/* ticks left */
	bool first_time_slice;
	int64_t sleep_avg;		/* jiffies (2.5) or ns (2.6.0) */
	int64_t last_run;		/* jiffies it last left a CPU (2.5) */
	sl_time timestamp;		/* ns of the last switch or wakeup (2.6.0) */
	int activated;			/* 2.6.0: 1 woken by a task, 2 by an interrupt */
	int interactive_credit;		/* 2.6.0 */
};

struct o1_rq {
	int nr_running;			/* queued + running, all its CPUs */
	struct sl_prio_array arrays[2];
	struct sl_prio_array *active, *expired;
	int64_t expired_timestamp;	/* jiffies of the first expiry, -1 none */
	int *prev_cpu_load;		/* this balancer's memory of every CPU's length */
	sl_cpumask cpus;		/* the CPUs it serves */
	int first_cpu;			/* slot 0: its migration thread is woken */
	int ncpus;
	bool active_balance;		/* A9 latch */
};

struct o1 {
	struct o1_config cfg;
	const struct sl_topo *topo;
	int ncpus;
	sl_time tick_ns;
	/* derived constants, in ticks or ns */
	int min_slice, max_slice;
	int64_t max_sleep_avg;		/* jiffies */
	int64_t starvation_limit;	/* jiffies */
	int busy_ticks, idle_ticks;
	int idle_active_ticks;		/* 0: only when a CPU goes idle */

	int nrqs;
	struct o1_rq *rqs;
	struct o1_rq *rq_of[SL_MAX_CPUS];
	struct sl_task *curr[SL_MAX_CPUS];	/* what schedule() last chose */
	bool active_req[SL_MAX_CPUS];		/* F3 latch of requesting CPUs */
	struct o1_rq *active_req_rq[SL_MAX_CPUS];
};

static inline struct o1_task *o1_of(const struct sl_task *t)
{
	return sl_task_policy(t);
}

static inline struct o1_task *o1_of_node(struct sl_prio_node *n)
{
	return (struct o1_task *)n;	/* run_list is the first member */
}

/* ---- o1_core.c: the ops shared by o1, ht and up ---- */

/* Allocate the scheduler for `sim` and set HZ; NULL with err set. */
struct o1 *o1_core_create(struct sl_sim *sim, const struct o1_config *cfg,
			  struct sl_err *err);
void o1_core_destroy(struct sl_sim *sim);
void o1_core_fork(struct sl_sim *sim, struct sl_task *parent, struct sl_task *child);
void o1_core_wakeup(struct sl_sim *sim, struct sl_task *t, int waker_cpu, unsigned flags);
struct sl_task *o1_core_pick_next(struct sl_sim *sim, int cpu, struct sl_task *prev);
void o1_core_tick(struct sl_sim *sim, int cpu);
void o1_core_exit(struct sl_sim *sim, struct sl_task *t);
void o1_core_migration(struct sl_sim *sim, int cpu, long arg);
int o1_core_check(struct sl_sim *sim, struct sl_err *err);

/* Bind knobs, or the defaults when the engine passed an empty table. */
void o1_config_init(struct o1_config *cfg, struct sl_sim *sim, const struct sl_params *knobs,
		    const struct o1_version *v, bool smp);

/* Shared between o1_core.c and o1_balance.c. */
void o1_enqueue(struct sl_prio_array *array, struct o1_task *p);
void o1_dequeue(struct o1_task *p);
int o1_curr_prio(struct sl_sim *sim, int cpu);
int o1_curr_slice(struct sl_sim *sim, int cpu);
void o1_wake_up_cpu(struct sl_sim *sim, struct o1 *s, struct o1_rq *rq, int cpu,
		    struct o1_task *p);

/* ---- o1_balance.c ---- */

/* load_balance(this_rq, idle) run on behalf of this_cpu (2.7). */
void o1_load_balance(struct sl_sim *sim, struct o1 *s, struct o1_rq *this_rq, int this_cpu,
		     bool idle, bool steal_hot);
/* rebalance_tick (2.8). */
void o1_rebalance_tick(struct sl_sim *sim, struct o1 *s, int cpu, bool idle);
/* The HT scheduler's active balancing (4.6): ask, and answer. */
void o1_active_load_balance(struct sl_sim *sim, struct o1 *s, struct o1_rq *this_rq,
			    int this_cpu);
void o1_do_active_balance(struct sl_sim *sim, struct o1 *s, int cpu);

#endif
