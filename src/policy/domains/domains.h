/*
 * domains/domains.h - Nick Piggin's scheduler domains (policy `domains`): O(1)
 * per-CPU runqueues (each version on its kernel's timeslices and
 * interactivity), balanced over a hierarchy of domains built from the
 * machine's topology (SMT siblings, the CPUs of a node, the nodes), in two
 * versions:
 *
 *   2.6.12  (June 2005, the default) cpu_power per group, the per-level
 *           parameter table, decayed cpu_load, staggered rebalance_tick,
 *           find_busiest_group with the power test, active balancing
 *           through the migration thread, newly-idle balancing, wake
 *           affine / wake balance / wake idle, exec balancing and the SMT
 *           nice rules (dependent_sleeper).
 *   w26     (Dec 2003 CFT, against 2.6.0-test11) SD_FLAG_IDLE summed group
 *           loads instead of cpu_power, per-balancer load memory,
 *           sched_balance_wake / FASTMIGRATE wakeups, active balancing of
 *           the whole busiest group.
 *
 * The code is split by idea:
 *   domains/build.c    the version rows and building the domains from the topology
 *   domains/load.c     cpu_load, source/target loads, find_busiest_group/queue
 *   domains/balance.c  move_tasks, load_balance, newly-idle balancing,
 *                      active balancing and the migration thread
 *   domains/rebalance.c  rebalance_tick: periodic balancing, its intervals
 *                      and the idle CPUs' cheap walk
 *   domains/wake.c     wakeup placement and exec balancing
 *   domains/smt.c      dependent_sleeper and its companions (SMT nice)
 *   domains/sched.c    the O(1) base: runqueues, timeslices, interactivity,
 *                      SCHED_FIFO/RR, scheduler_tick, schedule(), fork,
 *                      exit, yield
 *   domains/attr.c     live changes: sched_setscheduler, set_user_nice,
 *                      set_cpus_allowed through the migration thread
 *   domains/domains.c          the policy: knobs, creation, consistency check, ops
 *
 * Sources: 2.6.12.1 kernel/sched.c, include/linux/sched.h and topology.h,
 * include/asm-i386/topology.h; 2.6.0 kernel/sched.c; for w26 the
 * sched-domains code of early 2004 before Nick Piggin's Feb 2004
 * "lessidle" patch and his LKML mails of Dec 2003 - Feb 2004.  Docs:
 * docs/policies/domains.md.
 */
#ifndef SL_POLICY_DOMAINS_DOMAINS_H
#define SL_POLICY_DOMAINS_DOMAINS_H

#include <stdbool.h>
#include <stdint.h>

#include "base/cpumask.h"
#include "base/err.h"
#include "base/units.h"
#include "hw/topo.h"
#include "policy/kernel_arch.h"
#include "policy/prio_array.h"
#include "sim/policy_ops.h"
#include "sim/sim.h"
#include "sim/task.h"

struct sl_sim;

extern const struct sl_policy_ops sl_policy_domains;

/* ---- constants ---- */

#define SD_LOAD_SCALE 128	/* SCHED_LOAD_SCALE: one task, one CPU's power */

/* 2.6.12 flag values (2.6.12.1 include/linux/sched.h). */
#define SD_LOAD_BALANCE		0x0001
#define SD_BALANCE_NEWIDLE	0x0002
#define SD_BALANCE_EXEC		0x0004
#define SD_WAKE_IDLE		0x0008
#define SD_WAKE_AFFINE		0x0010
#define SD_WAKE_BALANCE		0x0020
#define SD_SHARE_CPUPOWER	0x0040
/* w26's own flags; its NEWIDLE and EXEC are the two above. */
#define SD_FLAG_WAKE		0x0100
#define SD_FLAG_FASTMIGRATE	0x0200
#define SD_FLAG_IDLE		0x0400

/* enum idle_type */
enum sd_idle {
	SD_NOT_IDLE,
	SD_IDLE,
	SD_NEWLY_IDLE,
};

enum sd_level {
	SD_LV_SMT,	/* span: SMT siblings; groups: single CPUs */
	SD_LV_PHYS,	/* span: the CPUs of a node; groups: cores (sibling sets) */
	SD_LV_NODE,	/* span: every CPU; groups: nodes */
	SD_NR_LEVELS,
};

/* ---- versions (domains/build.c) ---- */

/* Which code paths a version takes where w26 and 2.6.12 differ. */
enum sd_rules {
	SD_RULES_W26,
	SD_RULES_2612,
};

/* One level's SD_*_INIT (2.6.12.1 include/linux/topology.h). */
struct sd_params {
	int min_interval, max_interval;	/* ms */
	int busy_factor;
	int imbalance_pct;
	sl_time cache_hot_time;		/* ns */
	int cache_nice_tries;
	int per_cpu_gain;		/* percent (SMT nice) */
	unsigned flags;
	int max_interval_fls;		/* not 0: max_interval = this * fls(ncpus) */
};

struct sd_version {
	const char *name;
	enum sd_rules rules;
	struct sd_params level[SD_NR_LEVELS];
	/* the NODE row of an ia64 kernel (include/asm-ia64/topology.h), if
	 * the version has its own: NULL keeps level[SD_LV_NODE] */
	const struct sd_params *node_ia64;
	bool stagger;		/* rebalance_tick offsets CPUs by HZ*cpu/NR_CPUS */
	bool smt_nice;		/* dependent_sleeper by default */
	bool child_first;	/* fork marks the parent for resched: the child runs first */
	bool thread_last;	/* ... unless it shares the parent's mm: then at the tail (2.6.12) */
	bool sync_quiet;	/* 2.6.0: a sync wakeup on the waker's CPU earns no credit */
	bool exec_numa_only;	/* exec balancing only on NUMA machines (w26) */
	bool keep_single;	/* a level of one group is built all the same (2.6.12) */
	struct sl_pipes pipes;	/* the kernel's pipe (sim.h sl_set_pipes) */
	struct sl_sockets sockets; /* its socket buffers (sl_set_sockets), on i386 */
	struct sl_sockets sockets_lp64;	/* ... on a 64-bit arch */
};

const struct sd_version *sd_version_find(const char *name);
extern const char sd_version_choices[];

/* ---- the hierarchy ---- */

struct sd_group {
	sl_cpumask cpumask;
	/* its first CPU and its last + 1: a walk over its CPUs looks at the
	 * words of cpumask between them alone (sd_for_each_group_cpu) */
	int first, end;
	bool dense;			/* its CPUs are all of first..end - 1 */
	int ncpus;
	int cpu_power;		/* 2.6.12; w26 counts CPUs instead */
	/* the running sums that equal its loads, if it is a core or a node
	 * (sd_memo_init): index into sd_sched.core_ or node_ sums, else -1 */
	int sum_core, sum_node;
};

struct sd_domain {
	enum sd_level level;
	int cpu;			/* the CPU owning this domain */
	struct sd_domain *parent, *child;
	sl_cpumask span;
	struct sd_group *groups;	/* the span's groups, by first CPU */
	int ngroups;
	int local;			/* index of the group holding cpu */
	struct sd_params p;
	/* runtime */
	int64_t last_balance;		/* jiffies */
	int balance_interval;		/* ms */
	/* rebalance.c sd_interval's memo: balance_interval in jiffies, idle
	 * [0] and busy [1], when balance_interval was ivl_ms (0: none) */
	int ivl_ms;
	int64_t ivl_j[2];
	/* last_balance + ivl_j[k]: the jiffy sd is next due, idle [0] and
	 * busy [1], as every walk leaves it (rebalance.c sd_due_fold_kept) or
	 * sd_balance_changed after a change from outside */
	int64_t due_at[2];
	/* a CPU's base domain only: the least due_at[k] of the domains above
	 * it that balance (INT64_MAX: none), kept with them (rebalance.c): the
	 * idle walk goes above the base only if one of them is due */
	int64_t above_due[2];
	int nr_balance_failed;
	/*
	 * 2.6.12 find_busiest_group's memo, one per idle type (domains/load.c):
	 * its answer when *span_gen was `gen`.  span_gen counts the changes
	 * of what it reads on the span's CPUs (sd_load_changed); NULL: no
	 * counter covers the span, no memo.  The answer depends on the span's
	 * groups and which is local, not on the CPU asking, so the CPUs of
	 * the local group share one memo: memo points at the fbg_memo of the
	 * group's first CPU's domain (sd_memo_init).
	 */
	const uint64_t *span_gen;
	/* span_gen, or where there is none s->gen_none: never the gen of a
	 * memo, which is UINT64_MAX until first made (sd_memo_init), so
	 * m->gen == *memo_gen alone says a memo is current (the idle walk's
	 * one test) */
	const uint64_t *memo_gen;
	struct sd_fbg_memo {
		bool valid;
		uint64_t gen;
		struct sd_group *group;
		unsigned long imbalance;
		long looked;
	} fbg_memo[3], *memo;
};

/* Iterate over sd's groups starting with the local one, as the kernel's
 * circular list does from sd->groups. */
static inline struct sd_group *sd_group_at(const struct sd_domain *sd, int k)
{
	return &sd->groups[(sd->local + k) % sd->ngroups];
}

/* The group after g in that circular order (a loop over every group
 * steps so instead of dividing for each: find_busiest_group's). */
static inline struct sd_group *sd_group_next(const struct sd_domain *sd, struct sd_group *g)
{
	return ++g == sd->groups + sd->ngroups ? sd->groups : g;
}

/* ---- tasks and runqueues ---- */

struct sd_task {
	struct sl_prio_node run_list;	/* first: the array links */
	struct sl_task *task;
	struct sl_prio_array *array;	/* NULL when not queued */
	int cpu;			/* task_cpu(p) */
	int prio, static_prio;
	int time_slice;			/* ticks left */
	bool first_time_slice;
	int64_t sleep_avg;		/* ns */
	sl_time timestamp;		/* ns of the last switch or wakeup */
	/* 2.6.12's p->last_ran: stamped by every schedule() with it as prev,
	 * a re-pick too, and copied from the parent at fork (w26: cold) */
	sl_time last_ran;
	/* last_ran was stamped by a schedule() at the very instant of its
	 * CPU's tick, after it: later than timestamp_last_tick (sd_task_hot) */
	bool ran_after_tick;
	int activated;			/* -1 uninterruptible, 1 by a task, 2 by an interrupt */
	int interactive_credit;
	/* set_cpus_allowed's request to the migration thread (domains/attr.c) */
	struct sd_task *move_next;	/* next request on the same runqueue */
	int move_rq;			/* runqueue whose list holds it, -1 none */
	int move_dest;			/* any_online_cpu(new_mask) */
};

struct sd_rq {
	int cpu;
	int nr_running;			/* queued + running */
	struct sl_prio_array arrays[2];
	struct sl_prio_array *active, *expired;
	int64_t expired_timestamp;	/* jiffies of the first expiry, -1 none */
	int best_expired_prio;		/* 2.6.12: best static_prio expired since the switch */
	struct sl_task *curr;		/* what schedule() chose (NULL: idle) */
	unsigned long cpu_load;		/* 2.6.12: decayed 128 * nr_running */
	unsigned long *cpu_loads;	/* w26: this balancer's memory of every CPU */
	sl_time timestamp_last_tick;
	int64_t last_tick;		/* jiffies of its last tick */
	struct sd_domain *sd;		/* base domain, NULL when the CPU has none */
	bool active_balance;
	int push_cpu;
	struct sl_task *migrate_task;	/* sched_migrate_task request, or NULL */
	int migrate_dest;
	struct sd_task *moves;		/* set_cpus_allowed requests (migration_queue) */
};

struct sd_sched {
	struct sl_sim *sim;		/* the simulation it schedules */
	const struct sd_version *v;
	/* v->rules == SD_RULES_2612, one load instead of two: every tick
	 * asks (rebalance.c sd_rebalance_tick) */
	bool rules_2612;
	const struct sl_topo *topo;
	int ncpus;
	unsigned hz;
	sl_time tick_ns;
	bool smt_nice;			/* dependent_sleeper and companions */
	bool wake_idle;			/* CONFIG_SCHED_SMT's wake_idle (2.6.12) */
	sl_time scan_ns, pick_ns;

	/* the O(1) base, in ticks: 2.6.0's for w26, 2.6.12's for 2.6.12 */
	bool base_2612;			/* SCALE_PRIO slices, best_expired_prio, no credit */
	unsigned ulong_bits;		/* the kernel's unsigned long (recalc_task_prio) */
	bool jiffy_clock;		/* sched_clock() counts whole jiffies (sd_sched_clock) */
	int min_slice, max_slice;	/* 2.6.0: the slice range */
	int def_slice;			/* 2.6.12: DEF_TIMESLICE */
	int granularity;		/* TIMESLICE_GRANULARITY's unit */
	int max_bonus;
	int interactive_delta;
	int64_t max_sleep_avg;		/* ticks */
	int64_t starvation_limit;	/* ticks */
	int child_penalty, parent_penalty, exit_weight;
	int on_runqueue_weight, credit_limit;

	/* the version's level rows with the knobs' overrides */
	struct sd_params level[SD_NR_LEVELS];

	struct sd_rq *rqs;
	struct sd_domain *domains;	/* [cpu * SD_NR_LEVELS + level] */
	struct sd_group *group_store;
	int ngroups_used;
	unsigned long *load_store;	/* w26 cpu_loads of every runqueue */

	/*
	 * Load generations: every change of what find_busiest_group reads of
	 * a CPU (nr_running, cpu_load, its migration thread running) counts
	 * in its core's, its node's and the machine's, the spans of the SMT,
	 * PHYS and NODE domains (sd_load_changed).  in_migration[cpu]: its
	 * migration thread runs (from sd_migration to the schedule() after);
	 * thread_woken[cpu]: it was woken and has not started yet
	 * (sd_wake_migration; the engine's pending request).
	 */
	uint64_t gen_all;
	uint64_t gen_none;		/* 0, always: the memo_gen of no span_gen */
	uint64_t gen_node[SL_MAX_NODES];
	uint64_t gen_core[SL_MAX_CPUS];
	bool in_migration[SL_MAX_CPUS];
	bool thread_woken[SL_MAX_CPUS];
	/* the CPU whose migration thread's own schedule() is picking (its
	 * newly-idle balance runs with the thread as rq->curr), or -1 */
	int thread_pick;
	uint64_t fbg_hits;		/* answers from a memo (for the tests) */
	int64_t stagger_of[SL_MAX_CPUS];	/* rebalance_tick's HZ*cpu/NR_CPUS */
	/* the first tick (unstaggered jiffies, as sd_note_tick stores them)
	 * at which a domain of the CPU is due, idle [0] / busy [1]:
	 * domains/rebalance.c sd_rebalance_tick.  SD_DUE_UNKNOWN: to be worked
	 * out by the next tick's walk.  Here and not in sd_rq: the test
	 * every tick makes reads this and tick_j alone. */
	int64_t due_tick[SL_MAX_CPUS][2];
	/* scheduler_tick's jiffies and sched_clock() at instant tick_at (-1:
	 * none yet), worked out at the first CPU's tick of each instant
	 * (domains/sched.c sd_tick): the same for every CPU ticking then */
	sl_time tick_at, tick_clock;
	int64_t tick_j;
	/*
	 * 2.6.12's source_load and target_load of every CPU as of its last
	 * change, and their sums per core and per node, kept by
	 * sd_load_changed: find_busiest_group's group loads when a group is a
	 * core (PHYS level) or a node (NODE level).
	 */
	unsigned long src_load[SL_MAX_CPUS], tgt_load[SL_MAX_CPUS];
	/* what an idle CPU's tick asks of it besides its due jiffies, kept
	 * by sd_load_changed: SD_TICK_QUEUED, smt_nice and tasks queued
	 * (sd_idle_queued_tick); SD_TICK_LOAD, 2.6.12's cpu_load moves
	 * (source and target loads differ) */
	uint8_t tick_flags[SL_MAX_CPUS];
	/* the first and last + 1 of a CPU's SMT siblings (itself included):
	 * sd_cpu_and_siblings_idle looks at their words alone */
	int sib_first[SL_MAX_CPUS], sib_end[SL_MAX_CPUS];
	unsigned long core_src[SL_MAX_CPUS], core_tgt[SL_MAX_CPUS];
	unsigned long node_src[SL_MAX_NODES], node_tgt[SL_MAX_NODES];
};

/* Something find_busiest_group reads of `cpu` changed: count it in the
 * load generations and bring the load sums and the tick flags up to date
 * (domains/load.c). */
void sd_load_changed(struct sd_sched *s, int cpu);

enum {
	SD_TICK_QUEUED = 1,
	SD_TICK_LOAD = 2,
};

/* Whether `cpu`'s migration thread counts in its nr_running: from the
 * wakeup that activates it to the schedule() that ends its run. */
static inline int sd_thread_runnable(const struct sd_sched *s, int cpu)
{
	return s->in_migration[cpu] || s->thread_woken[cpu];
}

/* nr_running += d on `cpu`'s runqueue. */
static inline void sd_nr_add(struct sd_sched *s, int cpu, int d)
{
	s->rqs[cpu].nr_running += d;
	sd_load_changed(s, cpu);
}

static inline struct sd_task *sd_of(const struct sl_task *t)
{
	return sl_task_policy(t);
}

/* rt_task(p): SCHED_FIFO or SCHED_RR, queued at prio 0..99 above every
 * SCHED_NORMAL task (2.6.12.1 include/linux/sched.h). */
static inline bool sd_rt(const struct sd_task *p)
{
	return sl_task_rt(p->task);
}

/* __setscheduler: MAX_USER_RT_PRIO-1 - rt_priority (rt_priority 99 is prio 0). */
static inline int sd_rt_prio(const struct sl_task *t)
{
	return SL_MAX_RT_PRIO - 1 - t->rt_priority;
}

static inline struct sd_task *sd_of_node(struct sl_prio_node *n)
{
	return (struct sd_task *)n;	/* run_list is the first member */
}

static inline struct sd_rq *sd_rq(const struct sd_sched *s, int cpu)
{
	return &s->rqs[cpu];
}

/* sched_clock() at simulated time t: t, or the start of its jiffy where the
 * kernel counts whole jiffies (jiffy_clock: an i386 NUMA kernel's). */
static inline sl_time sd_clock_at(const struct sd_sched *s, sl_time t)
{
	return sl_arch_sched_clock_at(t, s->tick_ns, s->jiffy_clock);
}

static inline sl_time sd_sched_clock(const struct sl_sim *sim, const struct sd_sched *s)
{
	return sd_clock_at(s, sl_now(sim));
}

#define sd_for_each_domain(s, cpu, sd) \
	for (struct sd_domain *sd = sd_rq(s, cpu)->sd; sd; sd = sd->parent)

/* for_each_cpu_mask(cpu, a & b) and for_each_cpu_mask(cpu, m), ascending,
 * stopping at the machine's last CPU and intersecting a word at a time
 * (base/cpumask.h's bounded walk; cpus_and into a temporary copied all
 * 16 words of a SL_MAX_CPUS mask). */
#define sd_for_each_cpu_and(cpu, s, a, b) sl_for_each_cpu_and_in(cpu, a, b, 0, (s)->ncpus)
#define sd_for_each_cpu(cpu, s, m) sd_for_each_cpu_and(cpu, s, m, NULL)
/* The CPUs of group g (and of b, if not NULL) in ascending order, as
 * sd_for_each_cpu_and over g's cpumask: no CPU of it lies outside
 * g->first..g->end - 1, so the walk starts and stops there (from word 0
 * to the machine's last, a walk of the groups of a 1,024-CPU machine's
 * top level looked at 16 words per group). */
#define sd_for_each_group_cpu_and(cpu, g, b) \
	sl_for_each_cpu_and_in(cpu, &(g)->cpumask, b, (g)->first, (g)->end)
/* The CPUs of group g in ascending order, as sd_for_each_cpu over its
 * cpumask: a group whose CPUs are all of first..end - 1 (dense: a core
 * or a node of neighbouring numbers) is walked by counting, with no look
 * at its cpumask (w26's find_busiest_group walks every CPU of every group
 * of the domain: on 1,024 CPUs the look was a fifth of a spin's
 * instructions). */
#define sd_for_each_group_cpu(cpu, g) \
	for (int cpu = (g)->first; cpu >= 0 && cpu < (g)->end; \
	     cpu = (g)->dense ? cpu + 1 : sl_cpumask_next_in(&(g)->cpumask, cpu + 1, (g)->end))

/* ---- domains/build.c ---- */

/* Build every CPU's domains from the topology (2.6.12 keeps a level of one
 * group, w26 leaves it out: build.c) and reset their runtime state.  0, or
 * -1 with err set. */
int sd_build_domains(struct sd_sched *s, struct sl_err *err);
void sd_free_domains(struct sd_sched *s);

/* ---- domains/load.c ---- */

/* nr_running as the kernel counts it: the migration thread is a task. */
static inline int sd_nr_running(const struct sd_sched *s, int cpu)
{
	return s->rqs[cpu].nr_running + sd_thread_runnable(s, cpu);
}
/* wake_up_process(rq->migration_thread) of `cpu`, asked for `arg`. */
void sd_wake_migration(struct sl_sim *sim, struct sd_sched *s, int cpu, long arg);
bool sd_cpu_and_siblings_idle(struct sl_sim *sim, const struct sd_sched *s, int cpu);
/* 2.6.12 rebalance_tick's new cpu_load: the mean of the old and 128 *
 * nr_running, rounded up when rising, or it would stick below the real
 * load (rebalance_tick stores it, through sd_load_changed if it moved). */
static inline unsigned long sd_cpu_load_next(const struct sd_sched *s, int cpu)
{
	unsigned long old = s->rqs[cpu].cpu_load;
	unsigned long now = (unsigned long)sd_nr_running(s, cpu) * SD_LOAD_SCALE;

	if (now > old)
		old++;
	return (old + now) / 2;
}
/* 2.6.12 source_load / target_load: min / max of cpu_load and 128 *
 * nr_running, as sd_load_changed last computed them (the check op
 * recomputes them after every event in the tests). */
static inline unsigned long sd_source_load(struct sl_sim *sim, const struct sd_sched *s, int cpu)
{
	(void)sim;
	return s->src_load[cpu];
}

static inline unsigned long sd_target_load(struct sl_sim *sim, const struct sd_sched *s, int cpu)
{
	(void)sim;
	return s->tgt_load[cpu];
}
/* w26: this_cpu's "low" and "high" guesses of cpu's load; update stores
 * their mean in this_cpu's memory. */
unsigned long sd_low_load(struct sd_sched *s, int this_cpu, int cpu, bool update);
unsigned long sd_high_load(struct sd_sched *s, int this_cpu, int cpu, bool update);
/* find_busiest_group: the group to pull from and *imbalance (tasks). */
struct sd_group *sd_find_busiest_group(struct sl_sim *sim, struct sd_sched *s,
				       struct sd_domain *sd, int this_cpu,
				       enum sd_idle idle, unsigned long *imbalance);
/* 2.6.12: sd's memo for `idle` if nothing of its span changed since it
 * was made, else NULL (w26 keeps none). */
static inline const struct sd_fbg_memo *sd_memo_current(const struct sd_sched *s,
							const struct sd_domain *sd,
							enum sd_idle idle)
{
	const struct sd_fbg_memo *m = &sd->memo[idle];

	if (!s->rules_2612 || !sd->span_gen || !m->valid || m->gen != *sd->span_gen)
		return NULL;
	return m;
}
/* 2.6.12: find_busiest_group's answer from sd's memo for `idle` while
 * nothing of its span changed since (charged as the scan it stands for);
 * false if there is none.  Inline: an idle CPU asks at every tick or two. */
static inline bool sd_fbg_from_memo(struct sl_sim *sim, struct sd_sched *s,
				    const struct sd_domain *sd, int this_cpu, enum sd_idle idle,
				    unsigned long *imbalance, struct sd_group **group)
{
	const struct sd_fbg_memo *m = sd_memo_current(s, sd, idle);

	if (!m)
		return false;
	s->fbg_hits++;
	sl_charge_sched(sim, this_cpu, m->looked * s->scan_ns);
	*imbalance = m->imbalance;
	*group = m->group;
	return true;
}
/* find_busiest_queue: the CPU of group to pull from, or -1. */
int sd_find_busiest_queue(struct sl_sim *sim, struct sd_sched *s, int this_cpu,
			  const struct sd_group *group);
/* Point every domain whose span is a core, a node or the machine at that
 * span's load generation (after sd_build_domains). */
void sd_memo_init(struct sd_sched *s);
/* The check op's part: every current memo is what find_busiest_group
 * computes now, and the migration flags are right.  0, or -1 with err. */
int sd_check_memo(struct sl_sim *sim, struct sd_sched *s, struct sl_err *err);

/* ---- domains/balance.c ---- */

/* load_balance() of one domain for this_cpu: the tasks it moved. */
int sd_load_balance(struct sl_sim *sim, struct sd_sched *s, int this_cpu, struct sd_domain *sd,
		    enum sd_idle idle);
/* load_balance()'s out_balanced: the interval doubles up to its
 * maximum.  nr_balance_failed stays: 2.6.11 and 2.6.12.1 leave it alone
 * here, so failures count until a move succeeds. */
static inline void sd_out_balanced(struct sd_domain *sd)
{
	if (sd->balance_interval < sd->p.max_interval)
		sd->balance_interval *= 2;
}
int sd_move_tasks(struct sl_sim *sim, struct sd_sched *s, int this_cpu, int busiest,
		  unsigned long max_nr_move, struct sd_domain *sd, enum sd_idle idle);
void sd_idle_balance(struct sl_sim *sim, struct sd_sched *s, int cpu);
void sd_migration(struct sl_sim *sim, int cpu, long arg);
/* Move queued p to dest's runqueue (set_task_cpu + activate there). */
void sd_move_queued(struct sl_sim *sim, struct sd_sched *s, struct sd_task *p,
		    int dest, struct sl_prio_array *dst_array);
/* ---- domains/rebalance.c ---- */

/* rebalance_tick with work to do (domains/rebalance.c): 2.6.12's cpu_load
 * moves (stored, then the rest of the tick), or a domain is due: an idle
 * CPU's walk, or a busy one's. */
void sd_rebalance_tick_load(struct sl_sim *sim, struct sd_sched *s, int cpu,
			    enum sd_idle idle);
void sd_rebalance_idle_walk(struct sl_sim *sim, struct sd_sched *s, int cpu);
void sd_rebalance_busy_walk(struct sl_sim *sim, struct sd_sched *s, int cpu,
			    enum sd_idle idle);
/* rebalance_tick, after sd_note_tick of the same tick (it reads the
 * jiffies that stored); cpu_load's update first, under 2.6.12.  The test
 * for nothing to do (an idle CPU's every other tick) inline, in the
 * tick's own frame, and the work a tail call: rebalance.c has the rest and
 * says why it suffices. */
static inline void sd_rebalance_tick(struct sl_sim *sim, struct sd_sched *s, int cpu,
				     enum sd_idle idle)
{
	if (s->tick_flags[cpu] & SD_TICK_LOAD)
		sd_rebalance_tick_load(sim, s, cpu, idle);
	else if (s->tick_j < s->due_tick[cpu][idle != SD_IDLE])
		return;
	else if (idle == SD_IDLE)
		sd_rebalance_idle_walk(sim, s, cpu);
	else
		sd_rebalance_busy_walk(sim, s, cpu, idle);
}
/* A domain's last_balance or balance_interval was set from outside
 * rebalance_tick: its due jiffies are recomputed at the next tick. */
void sd_balance_changed(struct sd_sched *s, int cpu);
/* The check op's part: every kept due jiffy is its domains'. */
int sd_check_due(const struct sd_sched *s, struct sl_err *err);
/* Every tick, first: this CPU's jiffy, tick_j of the instant's memo (a
 * stopped tick's jiffies were caught up by sd_ticks_skipped as the
 * machine woke). */
static inline void sd_note_tick(struct sd_sched *s, int cpu)
{
	s->rqs[cpu].last_tick = s->tick_j;
}
/* The ticks_skipped op: those skipped jiffies, caught up as the first
 * task wakes (2.6.12's cpu_load decay; each domain's idle balances, which
 * double its interval and move its clock on, and under w26 halve the
 * balancer's memory of the domain's CPUs). */
void sd_ticks_skipped(struct sl_sim *sim, int cpu, uint64_t first, uint64_t last);
/* The idle balances of sd over rebalance_tick's jiffies j0..jl of an
 * all-idle machine (each balanced): its clock and interval moved on;
 * how many there were. */
int64_t sd_idle_gap_balances(const struct sd_sched *s, struct sd_domain *sd, int64_t j0,
			     int64_t jl);
/* Start every domain's balancing clock at its CPU's stagger. */
void sd_balance_init(struct sd_sched *s);

/* ---- domains/wake.c ---- */

void sd_wakeup(struct sl_sim *sim, struct sl_task *t, int waker_cpu, unsigned flags);
void sd_exec(struct sl_sim *sim, struct sl_task *t);
/* task_hot(p, now, sd): ran on its CPU less than cache_hot_time ago. */
bool sd_task_hot(const struct sd_task *p, sl_time now, const struct sd_domain *sd);

/* ---- domains/smt.c ---- */

/* dependent_sleeper: true if `cpu` should idle rather than run p. */
bool sd_dependent_sleeper(struct sl_sim *sim, struct sd_sched *s, int cpu,
			  const struct sd_task *p);
void sd_wake_sleeping_dependent(struct sl_sim *sim, struct sd_sched *s, int cpu);
bool sd_wake_priority_sleeper(struct sl_sim *sim, struct sd_sched *s, int cpu);

/* ---- domains/sched.c ---- */

void sd_enqueue(struct sl_prio_array *array, struct sd_task *p);
void sd_dequeue(struct sd_task *p);
/* activate_task: credit the sleep that ended now, then queue on cpu. */
void sd_activate(struct sl_sim *sim, struct sd_sched *s, int cpu, struct sd_task *p,
		 bool credit, bool from_interrupt);
/* TASK_PREEMPTS_CURR on cpu (the idle task has prio MAX_PRIO, the
 * migration thread is never preempted). */
bool sd_preempts(struct sl_sim *sim, const struct sd_task *p, int cpu);
int sd_task_timeslice(const struct sd_sched *s, const struct sd_task *p);
/* The O(1) base's constants, in ticks of s->hz: 2.6.12's (mainline
 * DEF_TIMESLICE and PRIO_BONUS_RATIO) or, for w26, 2.6.0's.  0 or -1. */
int sd_sched_init(struct sd_sched *s, struct sl_err *err);
void sd_fork(struct sl_sim *sim, struct sl_task *parent, struct sl_task *child);
void sd_exit(struct sl_sim *sim, struct sl_task *t);
void sd_release(struct sl_sim *sim, struct sl_task *t);
bool sd_yield(struct sl_sim *sim, struct sl_task *t);
struct sl_task *sd_pick_next(struct sl_sim *sim, int cpu, struct sl_task *prev);
void sd_tick(struct sl_sim *sim, int cpu);
/* What schedule() does to prev before choosing (also the migration thread's
 * preemption of the running task). */
void sd_put_prev(struct sl_sim *sim, struct sd_sched *s, struct sl_task *prev);
/* effective_prio: the RT priority for FIFO/RR, else static_prio less the
 * sleep bonus, clamped to 100..139. */
int sd_effective_prio(const struct sd_sched *s, const struct sd_task *p);

/* ---- domains/attr.c ---- */

/* sched_setscheduler and set_user_nice on a live task. */
void sd_setscheduler(struct sl_sim *sim, struct sl_task *t, const struct sl_sched_attr *old);
/* set_cpus_allowed: move t off a CPU its new mask forbids. */
void sd_set_allowed(struct sl_sim *sim, struct sl_task *t);
/* The migration thread of `cpu` carries out the set_cpus_allowed moves
 * queued on it (__migrate_task). */
void sd_migrate_affinity(struct sl_sim *sim, struct sd_sched *s, int cpu);
/* Forget t's pending affinity move (it exited). */
void sd_cancel_affinity(struct sd_sched *s, struct sd_task *p);
/* __migrate_task: move p, not running, to dest (the migration thread's
 * moves: set_cpus_allowed's and exec balancing's). */
void sd_migrate_task(struct sl_sim *sim, struct sd_sched *s, struct sd_task *p, int dest);
/* A sleeping task whose move is pending is woken: the move is done now
 * (the kernel's caller waited for it before anything could wake it). */
void sd_settle_affinity(struct sl_sim *sim, struct sd_sched *s, struct sd_task *p);

#endif
