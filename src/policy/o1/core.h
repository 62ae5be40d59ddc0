/*
 * o1/core.h - the O(1) scheduler shared by the policies `o1` (stock,
 * HT-unaware, with the NUMA scheduler of 2.5.59+), `ht` (Ingo Molnar's
 * shared-runqueue HT scheduler) and `up` (a uniprocessor build).  One
 * engine of runqueues, priority arrays, timeslices, interactivity,
 * scheduler_tick, schedule(), wakeup, fork/exit/exec/yield and load
 * balancing, configured by:
 *
 *   struct o1_version  one row per stock kernel (2.5.33, 2.5.59, 2.5.68,
 *                      2.6.0): constants plus the rules that changed;
 *   struct o1_config   the build: HZ, cache_decay_ticks, SMP or UP, the
 *                      version's rules as the knobs left or changed them,
 *                      NUMA, and the HT scheduler's features (all off for
 *                      stock).
 *
 * A runqueue may be served by several CPUs (the HT patch: one per SMT core);
 * the stock scheduler has one per CPU.  The per-task state lives in the
 * engine's policy-private area (struct o1_task, task_size of the ops).
 *
 * The code, one idea per file:
 *   o1/versions.c   the version rows and cache_decay_ticks
 *   o1/config.c     knobs shared by o1, ht and up, and their checks
 *   o1/core.c       runqueues: membership, counts, creation, check op
 *   o1/interact.c   timeslices and the sleep_avg priority bonus
 *   o1/tick.c       scheduler_tick and the idle sibling's tick
 *   o1/sched.c      schedule() with the HT pickup, and sched_yield
 *   o1/wake.c       try_to_wake_up, wake_up_cpu, fork and exit
 *   o1/busiest.c    find_busiest_queue, with the memo and ranking that
 *                   give its scan's answer without the scan (busiest.h)
 *   o1/balance.c    load_balance, the newly-idle balance, rebalance_tick
 *   o1/numa.c       the NUMA scheduler: node loads, find_busiest_node,
 *                   NODE_BALANCE_RATE / node ticks, sched_balance_exec
 *   o1/active.c     the HT scheduler's active balancing, the migration op
 *   o1/attr.c       sched_setscheduler, set_user_nice, set_cpus_allowed
 *
 * Sources: 2.6.0 and a 2.5.6x kernel/sched.c, Ingo Molnar's HT patches
 * (F3 to C1) and the NUMA scheduler's patches; each file lists its own,
 * with its choices and omitted / simplified list.  Docs:
 * docs/policies/o1.md, ht.md, up.md.
 */
#ifndef SL_POLICY_O1_CORE_H
#define SL_POLICY_O1_CORE_H

#include <stdbool.h>
#include <stdint.h>

#include "base/err.h"
#include "base/spec.h"
#include "base/units.h"
#include "hw/topo.h"
#include "policy/kernel_arch.h"
#include "policy/prio_array.h"
#include "sim/policy_ops.h"
#include "sim/sim.h"
#include "sim/task.h"

struct sl_sim;
struct sl_task;

#define O1_NICE0_PRIO 120
#define O1_MAX_USER_PRIO 40
/* The classes beside SCHED_NORMAL that every O(1) version had. */
#define O1_SCHED_POLICIES ((1u << SL_SCHED_FIFO) | (1u << SL_SCHED_RR))

/* ---- the version table (o1/versions.c) ---- */

/* How sleep_avg and the dynamic priority work. */
enum o1_interactivity {
	O1_SLEEP_JIFFIES,	/* 2.5.x: +sleep jiffies at wakeup, -1 per running tick */
	O1_SLEEP_NS,		/* 2.6.0: Con Kolivas' ns sleep_avg with credits */
};

/* What a sync wakeup (pipes) does besides the fast-migrate. */
enum o1_sync_rule {
	O1_SYNC_CREDIT,		/* 2.5.59: credit and preemption check as usual */
	O1_SYNC_QUIET,		/* 2.5.68: no credit, no preemption check */
	O1_SYNC_QUIET_LOCAL,	/* 2.6.0: quiet only if task_cpu == waker's CPU */
};

/* find_busiest_queue's threshold and how many tasks move.  The
 * order is that of the o1 knob `imbalance`. */
enum o1_imbalance_rule {
	O1_IMBALANCE_HALF,	/* 2.5: (max-me)/2, >= (max+3)/4 if busy, busiest > me+1 */
	O1_IMBALANCE_QUARTER,	/* 2.6.0: max-me, *4 >= max if busy, busiest > me, pull half */
};

/* May load_balance take a cache-hot task? (2.7, 4.7)  The order is that
 * of the o1 knob `steal_hot`. */
enum o1_hot_rule {
	O1_HOT_NEVER,		/* 2.5.3 .. 2.5.68: cold(p) */
	O1_HOT_IF_IDLE,		/* 2.6.0, AGRESSIVE_IDLE_STEAL: idle || cold(p) */
	O1_HOT_IF_BUSY,		/* 2.6.0-test4: !idle || cold(p) */
	O1_HOT_ALWAYS,		/* RHEL3 (BUSY_STEAL and AGRESSIVE_IDLE_STEAL) */
};

/* When a CPU looks across nodes.  The order is that of the knob
 * `node_balance`. */
enum o1_node_balance {
	O1_NODE_RATE,		/* 2.5.59: every NODE_BALANCE_RATE-th load_balance call */
	O1_NODE_TICKS,		/* 2.5.68/2.6.0: node ticks, idle x5 and busy x2 */
};

/* What sched_yield does to the yielder.  The order is that of the knob
 * `yield`. */
enum o1_yield {
	O1_YIELD_EXPIRED,	/* 2.5.6x/2.6.0: into the expired array */
	O1_YIELD_TAIL,		/* to the tail of its list in the active array */
};

/* Where wake_up_forked_process queues the child.  The order is that of
 * the knob `fork_place`. */
enum o1_fork_place {
	O1_FORK_TAIL,		/* up to 2.5.59: activate_task, tail of its list */
	O1_FORK_FRONT,		/* Ingo's D7, mainline 2.5.6x: in front of the parent */
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
	bool requeue_waker;		/* 2.5.68: sleep credit beyond the maximum goes
					 * to the waker, which is requeued */
	int on_runqueue_weight, credit_limit;		/* ns model only */
	enum o1_sync_rule sync_rule;
	enum o1_fork_place fork_place;
	bool exit_wake_sync;		/* a child's exit wakes its parent sync (2.6.11's);
					 * 2.5.33: plain, as 2.4's (o1/versions.c) */
	bool expired_ts_always;		/* 2.6.0: any expiry sets expired_timestamp;
					 * 2.5.x: only one into the expired array */
	bool preempt_equal_prio;	/* pull_task: equal prio and larger slice preempts */
	int busy_rebalance_ms, idle_rebalance_ms;
	bool idle_tick_passes_idle;	/* false in 2.5.68: the idle tick balances as busy */
	enum o1_imbalance_rule imbalance;
	enum o1_hot_rule hot;
	bool decay_plus_one;		/* cache_decay_ticks = flush ms + 1 (2.6.0-test1+) */
	/* the NUMA scheduler (3); absent before 2.5.59 */
	bool numa;
	enum o1_node_balance node_balance;
	bool node_load_per_cpu;		/* node load 10*count/cpus (2.6.0), else raw count */
	int idle_node_factor, busy_node_factor;	/* node ticks = rebalance ticks x these */
};

/* The row named `name`, or NULL. */
const struct o1_version *o1_version_find(const char *name);
/* "2.5.33|2.5.59|2.5.68|2.6.0": the choices of the version knob. */
extern const char o1_version_choices[];

/* cache_decay_ticks as i386 smp_tune_scheduling computed it. */
int o1_cache_decay_ticks(const struct sl_topo *topo, const struct o1_version *v, unsigned hz);

/* ---- the build (o1/config.c) ---- */

/* Where the HT scheduler keeps the "active balance requested" latch. */
enum o1_active_flag {
	O1_ACTIVE_FLAG_REQUESTER,	/* F3 (2.5.31): on the idle CPU asking */
	O1_ACTIVE_FLAG_BUSY_RQ,		/* 2.5.59 F3, A9: on the busy runqueue */
};

struct o1_config {
	const struct o1_version *v;
	unsigned hz;
	int cache_decay_ticks;
	sl_time scan_ns;		/* cost per runqueue or task examined */
	sl_time pick_ns;		/* cost of one schedule() */
	bool smp;			/* false: UP kernel, CPU 0 only, no balancing */

	/* the version's rules, unless a knob chose otherwise */
	enum o1_hot_rule hot;		/* or the HT patch's idle steal */
	enum o1_imbalance_rule imbalance;
	bool idle_tick_idle;		/* the intra-node idle-tick balance passes idle=1 */
	bool idle_node_tick_idle;	/* the node balance of an idle tick passes idle=1 */
	enum o1_yield yield;
	enum o1_fork_place fork_place;
	enum sl_tick_mode tick;		/* when each CPU's tick comes in a jiffy */
	enum sl_timer_kind timers;	/* when a nanosleep ends (sim/timers.c) */

	/* the NUMA scheduler (3); in effect only on a machine of several nodes */
	bool numa;
	enum o1_node_balance node_balance;
	int node_balance_rate;		/* NODE_BALANCE_RATE (i386 NUMA-Q: 100) */
	bool node_load_per_rq;		/* 2.6.0 node load divided by runqueues, not CPUs */
	bool exit_wake_sync;		/* a child's exit wakes its parent sync (o1/wake.c) */
	unsigned ulong_bits;		/* the kernel's unsigned long (o1/interact.c) */
	bool switch_stamp;		/* schedule() stamps next->timestamp (o1/sched.c) */
	bool jiffy_clock;		/* 2.6.0's sched_clock() counts whole jiffies */
	enum sl_kernel_preempt preempt;	/* CONFIG_PREEMPT or not (the engine's) */

	/* Ingo Molnar's HT scheduler; all off for stock. */
	bool share_siblings;		/* one runqueue per SMT core */
	bool wake_up_cpu;		/* wake_up_cpu() placement */
	bool wake_up_cpu_sync;		/* ... also for sync wakeups not kept quiet */
	bool wake_equal_prio;		/* ... equal prio and larger slice preempts (A9) */
	bool active_balance;		/* active balancing via the migration thread */
	enum o1_active_flag active_flag;
	bool active_skip_single;	/* skip runqueues of one CPU (A9) */
	bool continue_bug;		/* 2.5.59 F3: the sibling-idle check skips nothing */
	bool active_steal_hot;		/* its pull may take the just-preempted task */
	bool idle_pickup_tick;		/* an idle sibling takes a waiting task at its tick */
	int idle_active_ms;		/* an idle core asks for active balancing this often (0: never) */
};

/*
 * Bind the knobs o1, ht and up share (whichever the policy's table has) as
 * a configuration of version `v`: hz, scan_ns, cache_decay_ticks, yield,
 * steal_hot, imbalance, idle_tick, tick, and the NUMA knobs numa,
 * node_balance, node_balance_rate, idle_node_tick.  An empty table means
 * the defaults.
 * Returns 0, or -1 with an SL_ERR_INPUT error naming policy `name` for a
 * combination the version cannot have (numa=on before 2.5.59, a node knob
 * without the NUMA scheduler, ...).
 */
int o1_config_init(struct o1_config *cfg, struct sl_sim *sim, const struct sl_params *knobs,
		   const struct o1_version *v, bool smp, const char *name, struct sl_err *err);

/* Knob definitions o1 and ht (and up: yield) share, for their tables. */
#define O1_KNOB_YIELD \
	{ .name = "yield", .type = SL_PARAM_CHOICE, .def = "expired", .choices = "expired|tail", \
	  .doc = "sched_yield moves the task to the expired array (2.5.6x/2.6.0) or to the " \
		 "tail of its list in the active array" }
#define O1_KNOB_FORK_PLACE \
	{ .name = "fork_place", .type = SL_PARAM_CHOICE, .def = NULL, .choices = "tail|front", \
	  .doc = "where wake_up_forked_process queues the child: the tail of its priority " \
		 "list (stock up to 2.5.59) or in front of the parent at its priority (Ingo's " \
		 "D7, mainline in 2.5.6x) (default: the version's)" }
#define O1_KNOB_EXIT_WAKE \
	{ .name = "exit_wake", .type = SL_PARAM_CHOICE, .def = NULL, .choices = "sync|plain", \
	  .doc = "an exiting child wakes its parent in wait() with a sync wakeup (2.6.11 " \
		 "__wake_up_parent) or a plain one (2.4.27 wake_up_parent) (default: the " \
		 "version's: plain for 2.5.33, sync from 2.5.59; both UNVERIFIED, see o1.md)" }
#define O1_KNOB_ULONG \
	SL_ARCH_ULONG_KNOB("2.6.0 versions only: 2.6.11's types, 2.6.0 UNVERIFIED, see o1.md")
#define O1_KNOB_SWITCH_STAMP \
	{ .name = "switch_stamp", .type = SL_PARAM_CHOICE, .def = NULL, .choices = "on|off", \
	  .doc = "2.6.0 versions only: schedule() stamps the task it switches to, so a run " \
		 "is charged from its switch-in (on: 2.6.11's next->timestamp) or from its " \
		 "wakeup or last switch-out (off) (default: on; 2.6.0 UNVERIFIED, see o1.md)" }
#define O1_KNOB_SCHED_CLOCK \
	SL_ARCH_SCHED_CLOCK_KNOB("2.6.0 versions only: 2.6.11's timer_tsc.c, 2.6.0 UNVERIFIED, " \
				 "see o1.md")
#define O1_KNOB_PREEMPT SL_ARCH_PREEMPT_KNOB
#define O1_KNOB_TICK \
	SL_TICK_KNOB(NULL, SL_ARCH_TICK_26_DOC "; 2.5 UNVERIFIED, see o1.md")
#define O1_KNOB_TIMERS \
	SL_TIMERS_KNOB("jiffy", "2.5/2.6 per-CPU timer wheels, run by each CPU's tick")
#define O1_KNOB_NUMA \
	{ .name = "numa", .type = SL_PARAM_CHOICE, .def = NULL, .choices = "on|off", \
	  .doc = "NUMA scheduler on machines of several nodes: node-local balancing, node " \
		 "balancing, exec balancing (default: on from 2.5.59; 2.5.33 has none)" }
#define O1_KNOB_NODE_BALANCE_RATE \
	{ .name = "node_balance_rate", .type = SL_PARAM_INT, .def = NULL, .min = 1, \
	  .max = 1000000, \
	  .doc = "2.5.59 NODE_BALANCE_RATE: every Nth load_balance looks across nodes " \
		 "(default: the machine's arch's, i386 NUMA-Q 100, ia64 10, x86-64 30)" }

#define O1_KNOB_IDLE_NODE_TICK \
	{ .name = "idle_node_tick", .type = SL_PARAM_CHOICE, .def = NULL, .choices = "idle|busy", \
	  .doc = "what an idle CPU's node-tick balance passes: idle=1 as 2.5.68 and 2.6.0 " \
		 "did whatever the intra-node idle tick passes, or idle=0 (default: idle)" }

/* ---- state ---- */

/* find_busiest_queue's memos (o1/busiest.c): each change log keeps the
 * last O1_CHG_LOG runqueue length changes of its CPUs; a memo replays at
 * most a quarter of its mask's CPUs' worth of them (more, and the call
 * scans), and remembers the first O1_MEMO_TOP CPUs by length. */
#define O1_CHG_LOG 1024
#define O1_MEMO_TOP 4
/* The lengths o1_chg_log ranks CPUs by: 2 .. O1_RANK_CAP-1 (a longer
 * queue on the mask and an idle balance takes the memo's way). */
#define O1_RANK_CAP 64
#define O1_RANK_MIN_CPUS 32

/*
 * The runqueue length changes of one balancing mask's CPUs (a NUMA node's
 * under the NUMA scheduler, else the machine's): every o1_nr_inc/o1_nr_dec
 * of a runqueue there writes its index at log[gen % O1_CHG_LOG] and counts
 * gen.  One log per node, so that a memo of one node replays that node's
 * changes, not the whole machine's (on 1,024 CPUs most calls scanned for
 * changes on other nodes).
 */
struct o1_chg_log {
	uint64_t gen;
	int log[O1_CHG_LOG];
	/*
	 * The same CPUs by their runqueue's length (o1_rank_move, kept by
	 * o1_nr_inc/o1_nr_dec): bits[v * mask_words ..] the CPUs whose queue
	 * holds v tasks and cnt[v] their number, for 2 <= v < O1_RANK_CAP
	 * (shorter queues never rank); `over` counts the CPUs of longer ones;
	 * top is the greatest v with cnt[v] > 0, or 1.  An idle balance ranks
	 * every CPU by its length, so its answer is read from here
	 * (o1/busiest.c o1_rank_best).  ncpus: the CPUs of the mask.
	 */
	int ncpus, top, over;
	bool whole;		/* the mask is CPUs 0 .. o1.ncpus-1 */
	int cnt[O1_RANK_CAP];
	uint64_t *bits;
};

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
	int activated;			/* 2.6.0: 1 woken by a task, 2 by an interrupt,
					 * -1 from uninterruptible sleep */
	int interactive_credit;		/* 2.6.0 */
	int exec_cpu;			/* CPU whose migration thread will move it, -1 */
	int affinity_cpu;		/* CPU whose migration thread will move it off
					 * a CPU its new mask forbids, -1 */
};

/* A CPU and its load, as find_busiest_queue ranks them. */
struct o1_best {
	int cpu, load;
};

/*
 * find_busiest_queue's memo of its scans of one mask (node -1: this
 * runqueue's node mask; else that node's CPUs plus CPU `cpu`), as of
 * change `gen` of the mask's log (o1_chg_log_of): every prev_cpu_load of
 * the mask but our own runqueue's equals that CPU's length (our own,
 * which the scan reads and does not rank, is written on every call);
 * top[0..ntop) are the first CPUs of the mask, not ours, by length >= 2
 * (longest first, then lowest CPU); every other such CPU comes after
 * `bound` (cpu -1: there is none); `looked` CPUs are read.
 */
struct o1_fbq_memo {
	bool valid;
	int node, cpu;
	uint64_t gen;
	int looked, ntop;
	struct o1_best top[O1_MEMO_TOP], bound;
};

struct o1_rq {
	int nr_running;			/* queued + running, all its CPUs */
	struct sl_prio_array arrays[2];
	struct sl_prio_array *active, *expired;
	int64_t expired_timestamp;	/* jiffies of the first expiry, -1 none */
	int *prev_cpu_load;		/* this balancer's memory of every CPU's length */
	sl_cpumask cpus;		/* the CPUs it serves */
	int first_cpu;			/* slot 0: its migration thread is woken */
	int last_cpu;			/* its highest CPU: walks of cpus stop there */
	int ncpus;
	bool active_balance;		/* the latch on the busy runqueue (2.5.59 F3, A9) */
	int nmig;			/* its CPUs whose migration thread runs */
	int node;			/* NUMA node of its CPUs */
	int *prev_node_load;		/* this balancer's decayed view of every node */
	int nr_balanced;		/* load_balance calls since the last node look (2.5.59) */
	int index;			/* in o1.rqs */
	/* find_busiest_queue's memos of its scans (o1/busiest.c): [0] of
	 * its node mask, [1] of another node's CPUs and this CPU */
	struct o1_fbq_memo fbq[2];
	/* rank_synced: every prev_cpu_load of its node mask is its CPU's
	 * length, but for runqueues named in its log from change rank_gen
	 * on (o1/busiest.c o1_rank_read) */
	bool rank_synced;
	uint64_t rank_gen;
};

/* A pending sched_balance_exec move, carried out by the migration thread. */
struct o1_exec_req {
	struct o1_task *p;		/* NULL: none */
	int dest;
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
	int busy_node_ticks, idle_node_ticks;
	/* rebalance_tick's jiffies % TICK == 0 tests, all the same for every
	 * CPU of a jiffy: worked out at the first tick of each instant
	 * (o1/balance.c o1_due_at), [idle] */
	sl_time due_at;			/* the instant they are for, -1 none */
	bool due_bal[2], due_node[2];
	int idle_active_ticks;		/* 0: only when a CPU goes idle */

	int nrqs;
	struct o1_rq *rqs;
	struct o1_rq *rq_of[SL_MAX_CPUS];
	/*
	 * find_busiest_queue reads every runqueue's length (the kernel's O(N),
	 * kept); these dense copies let it do so from two small arrays instead
	 * of a cache line of each runqueue: rq_idx[cpu] is rq_of[cpu]->index
	 * and rq_nr[i] is rqs[i].nr_running (kept by o1_nr_inc/o1_nr_dec).
	 */
	int rq_idx[SL_MAX_CPUS];
	int rq_nr[SL_MAX_CPUS];
	/* the change logs of runqueue lengths, one per node under the NUMA
	 * scheduler, else one (o1_chg_log_of); find_busiest_queue's memos
	 * replay them (o1/busiest.c) */
	struct o1_chg_log *chg;
	uint64_t fbq_replays;		/* calls answered by a memo (for the tests) */
	uint64_t fbq_unchanged;		/* ... of them, with nothing changed since */
	uint64_t fbq_ranked;		/* idle calls answered by the log's ranking */
	uint64_t rank_over;		/* ... not, for a queue too long (tests) */
	/* the change logs rank their CPUs (o1_chg_log.bits): on masks of
	 * O1_RANK_MIN_CPUS or more (o1/busiest.c) */
	bool rank;
	bool rq_is_cpu;		/* every runqueue one CPU, rqs[i] CPU i's (stock SMP) */
	/* else, if every runqueue's CPUs are in its node mask (rq_listed):
	 * rqs[i]'s CPUs are rq_cpu[rq_cpu_at[i] .. rq_cpu_at[i + 1]) */
	bool rq_listed;
	int rq_cpu_at[SL_MAX_CPUS + 1];
	int rq_cpu[SL_MAX_CPUS];
	/* bit i: rqs[i].nr_running > 0, so that the HT scheduler's walks over
	 * every runqueue (o1/active.c) visit only those that can qualify */
	sl_cpumask rq_busy;
	/* bit i: rqs[i] has a task and no fewer tasks plus running migration
	 * threads than CPUs, so no CPU of it need be idle: the only runqueues
	 * active_load_balance can ask when the continue bug is off */
	sl_cpumask rq_full;
	uint64_t active_looked;		/* runqueues active_load_balance tested (tests) */
	int mask_words;			/* words of a cpumask that hold the machine */
	struct sl_task *curr[SL_MAX_CPUS];	/* what schedule() last chose */
	bool active_req[SL_MAX_CPUS];		/* F3 latch of requesting CPUs */
	struct o1_rq *active_req_rq[SL_MAX_CPUS];
	bool active_woken[SL_MAX_CPUS];		/* thread woken to balance actively */
	/* the CPU's migration thread runs: from its op (o1_core_migration) to
	 * the schedule() that ends it (o1_core_pick_next) */
	bool in_migration[SL_MAX_CPUS];

	/* NUMA: numa is cfg.numa on a machine of more than one node */
	bool numa;
	int nnodes;
	int node_nr_running[SL_MAX_NODES];	/* node_nr_running[] */
	int node_weight[SL_MAX_NODES];		/* nr_cpus_node (or its runqueues) */
	struct o1_exec_req exec_req[SL_MAX_CPUS];
	int affinity_req[SL_MAX_CPUS];		/* tasks with affinity_cpu == cpu */
};

static inline struct o1_task *o1_of(const struct sl_task *t)
{
	return sl_task_policy(t);
}

static inline struct o1_task *o1_of_node(struct sl_prio_node *n)
{
	return (struct o1_task *)n;	/* run_list is the first member */
}

static inline struct o1 *o1_state(const struct sl_sim *sim)
{
	return sl_policy_data(sim);
}

static inline struct o1_rq *o1_rq(const struct o1 *s, int cpu)
{
	return s->rq_of[cpu];
}

/* 2.6.0's sched_clock(): the simulated ns, or the start of the current
 * jiffy where the kernel counts whole jiffies (cfg.jiffy_clock). */
static inline sl_time o1_sched_clock(const struct sl_sim *sim, const struct o1 *s)
{
	return sl_arch_sched_clock_at(sl_now(sim), s->tick_ns, s->cfg.jiffy_clock);
}

/* Keep rq's bit of o1.rq_full after a change of its count or threads. */
static inline void o1_full_update(struct o1 *s, struct o1_rq *rq)
{
	if (rq->nr_running > 0 && rq->nr_running + rq->nmig >= rq->ncpus)
		sl_cpumask_set(&s->rq_full, rq->index);
	else
		sl_cpumask_unset(&s->rq_full, rq->index);
}

/* The change log of runqueue rq's CPUs: its node's under the NUMA
 * scheduler (whose masks are nodes), else the machine's one. */
static inline struct o1_chg_log *o1_chg_log_of(const struct o1 *s, const struct o1_rq *rq)
{
	return &s->chg[s->numa ? rq->node : 0];
}

static inline void o1_chg_note(struct o1 *s, struct o1_rq *rq)
{
	struct o1_chg_log *l = o1_chg_log_of(s, rq);

	l->log[l->gen++ % O1_CHG_LOG] = rq->index;
}

/* o1/busiest.c: rq's CPUs move in its log's ranking from length `from`
 * to `to` (under s->rank). */
void o1_rank_move(struct o1 *s, struct o1_rq *rq, int from, int to);

/* nr_running_inc / nr_running_dec: the runqueue's and its node's counts. */
static inline void o1_nr_inc(struct o1 *s, struct o1_rq *rq)
{
	if (rq->nr_running++ == 0)
		sl_cpumask_set(&s->rq_busy, rq->index);
	o1_full_update(s, rq);
	s->rq_nr[rq->index]++;
	s->node_nr_running[rq->node]++;
	o1_chg_note(s, rq);
	if (s->rank && rq->nr_running >= 2)	/* 0 -> 1 ranks nowhere */
		o1_rank_move(s, rq, rq->nr_running - 1, rq->nr_running);
}

static inline void o1_nr_dec(struct o1 *s, struct o1_rq *rq)
{
	if (--rq->nr_running == 0)
		sl_cpumask_unset(&s->rq_busy, rq->index);
	o1_full_update(s, rq);
	s->rq_nr[rq->index]--;
	s->node_nr_running[rq->node]--;
	o1_chg_note(s, rq);
	if (s->rank && rq->nr_running >= 1)
		o1_rank_move(s, rq, rq->nr_running + 1, rq->nr_running);
}

/* sl_for_each_cpu over a mask of this machine's CPUs, ascending, stopping
 * at its last CPU (base/cpumask.h's bounded walk). */
#define o1_for_each_cpu(cpu, s, mask) sl_for_each_cpu_in(cpu, mask, 0, (s)->ncpus)

/* ---- the ops shared by o1, ht and up ---- */

/* o1/core.c: allocate the scheduler for `sim` and set HZ; NULL with err set. */
struct o1 *o1_core_create(struct sl_sim *sim, const struct o1_config *cfg,
			  struct sl_err *err);
void o1_core_destroy(struct sl_sim *sim);
int o1_core_check(struct sl_sim *sim, struct sl_err *err);
/* o1/wake.c */
void o1_core_fork(struct sl_sim *sim, struct sl_task *parent, struct sl_task *child);
void o1_core_wakeup(struct sl_sim *sim, struct sl_task *t, int waker_cpu, unsigned flags);
void o1_core_exit(struct sl_sim *sim, struct sl_task *t);
void o1_core_release(struct sl_sim *sim, struct sl_task *t);
/* o1/sched.c */
struct sl_task *o1_core_pick_next(struct sl_sim *sim, int cpu, struct sl_task *prev);
bool o1_core_yield(struct sl_sim *sim, struct sl_task *t);
/* o1/tick.c */
void o1_core_tick(struct sl_sim *sim, int cpu);
/* o1/numa.c: sched_balance_exec */
void o1_core_exec(struct sl_sim *sim, struct sl_task *t);
/* o1/active.c: the migration thread */
void o1_core_migration(struct sl_sim *sim, int cpu, long arg);
/* o1/attr.c: sched_setscheduler + set_user_nice, set_cpus_allowed */
void o1_core_setscheduler(struct sl_sim *sim, struct sl_task *t,
			  const struct sl_sched_attr *old);
void o1_core_set_allowed(struct sl_sim *sim, struct sl_task *t);

/* ---- o1/core.c: runqueue membership ---- */

void o1_enqueue(struct sl_prio_array *array, struct o1_task *p);
void o1_dequeue(struct o1_task *p);
/* __activate_task: on the active array, counted. */
void o1_activate_quiet(struct o1 *s, struct o1_rq *rq, struct o1_task *p);
/* activate_task: credit the sleep (interrupt: woken by a timer), then queue.
 * `waker` is the task that woke p (current), NULL for an interrupt or when
 * none runs.  Returns true if the waker must be requeued (2.5.68: it took
 * sleep credit beyond p's maximum; o1_requeue_waker once p is placed). */
bool o1_activate(struct sl_sim *sim, struct o1 *s, struct o1_rq *rq, struct o1_task *p,
		 bool from_interrupt, struct o1_task *waker);
void o1_deactivate(struct o1 *s, struct o1_rq *rq, struct o1_task *p);
/* Move queued p to `cpu`'s runqueue (active array) and make it its task_cpu. */
void o1_move_task(struct sl_sim *sim, struct o1 *s, struct o1_task *p, int cpu);
/* The migration thread's move (exec balancing, set_cpus_allowed): the
 * same, through activate_task. */
void o1_migrate_task(struct sl_sim *sim, struct o1 *s, struct o1_task *p, int cpu);
/* Priority and slice of what `cpu` runs: idle is MAX_PRIO with no slice;
 * the migration thread (SCHED_FIFO 99) beats everything. */
int o1_curr_prio(struct sl_sim *sim, int cpu);
int o1_curr_slice(struct sl_sim *sim, int cpu);

/* ---- o1/interact.c: timeslices and interactivity (2.2, 2.3) ---- */

int o1_timeslice_of(const struct o1 *s, int static_prio);
int o1_task_timeslice(const struct o1 *s, const struct o1_task *p);
int o1_max_bonus(const struct o1 *s);
/* RT tasks: MAX_USER_RT_PRIO-1 - rt_priority (0..98), whatever the bonus. */
int o1_effective_prio(const struct o1 *s, const struct o1_task *p);
bool o1_task_interactive(const struct o1 *s, const struct o1_task *p);
bool o1_expired_starving(const struct o1 *s, const struct o1_rq *rq, uint64_t now_j);
/* 2.5.x activate_task: sleep jiffies into sleep_avg; in 2.5.68 what is
 * beyond the maximum goes to `waker` (may be NULL).  True if the waker's
 * sleep_avg changed, so that it must be requeued. */
bool o1_credit_sleep_jiffies(const struct o1 *s, struct o1_task *p, struct o1_task *waker,
			     uint64_t now_j);
/* 2.5.68 try_to_wake_up's end: the waker at its new priority, at the tail
 * of that list in the array it is on. */
void o1_requeue_waker(const struct o1 *s, struct o1_task *waker);
/* 2.6.0 recalc_task_prio: credit the sleep that ended at `now`. */
void o1_recalc_task_prio(const struct o1 *s, struct o1_task *p, sl_time now);
/* 2.6.0 schedule(): the time prev ran comes off its sleep_avg. */
void o1_charge_run_time(const struct o1 *s, struct o1_task *p, sl_time now);
/* 2.6.0: interactive tasks round-robin every TIMESLICE_GRANULARITY ticks. */
int o1_granularity(const struct o1 *s, const struct o1_task *p);
/* The granularity at the greatest bonus, of which every task's is a
 * power-of-two multiple (sl_timeslice_rr_may_be_due's base). */
static inline int o1_granularity_base(const struct o1 *s)
{
	return s->cfg.smp ? s->min_slice * s->ncpus : s->min_slice;
}
/* wake_up_forked_process and sched_exit: the sleep_avg penalties. */
void o1_fork_penalties(const struct o1 *s, struct o1_task *parent, struct o1_task *child);
void o1_exit_penalty(const struct o1 *s, struct o1_task *parent, const struct o1_task *child);

/* ---- o1/tick.c ---- */

/* The running task's part of scheduler_tick (also run at fork when the
 * parent's slice halves to 0). */
void o1_task_tick(struct sl_sim *sim, struct o1 *s, int cpu, struct o1_task *p);

/* ---- o1/sched.c ---- */

/* What schedule() does to prev before choosing (also for a task the
 * migration thread preempts). */
void o1_put_prev(struct sl_sim *sim, struct o1 *s, struct sl_task *prev);

/* ---- o1/wake.c ---- */

/* The HT scheduler's wake_up_cpu; also the placement of pulled and
 * migrated tasks. */
void o1_wake_up_cpu(struct sl_sim *sim, struct o1 *s, struct o1_rq *rq, int cpu,
		    struct o1_task *p);
/* After p was moved to `cpu`: wake_up_cpu, or resched if p preempts there
 * (equal_prio: also an equal priority with a larger slice). */
void o1_kick_moved(struct sl_sim *sim, struct o1 *s, struct o1_task *p, int cpu,
		   bool equal_prio);

/* ---- o1/balance.c ---- */

/* load_balance(this_rq, idle, cpumask) run on behalf of this_cpu. */
void o1_load_balance(struct sl_sim *sim, struct o1 *s, struct o1_rq *this_rq, int this_cpu,
		     bool idle, const sl_cpumask *mask, bool steal_hot);
/* The balance schedule() does when its runqueue ran empty. */
void o1_newidle_balance(struct sl_sim *sim, struct o1 *s, int cpu);
/* rebalance_tick (2.8, 3.3). */
void o1_rebalance_tick(struct sl_sim *sim, struct o1 *s, int cpu, bool idle);
/* The ticks_skipped op: what the idle balances of jiffies first..last,
 * which the engine skipped while nothing was runnable, left on cpu's
 * runqueue. */
void o1_core_ticks_skipped(struct sl_sim *sim, int cpu, uint64_t first, uint64_t last);

/* ---- o1/busiest.c ---- */

/* The check op's part: every current find_busiest_queue memo equals a
 * fresh scan.  0, or -1 with err set. */
int o1_check_balance_memo(const struct o1 *s, struct sl_err *err);
/* ... and every ranking equals the lengths, every synced memory its
 * lengths but for the changes logged since (o1_rank_read). */
int o1_check_rank(const struct o1 *s, struct sl_err *err);

/* ---- o1/numa.c (3) ---- */

/* The CPUs of `cpu`'s node, or all CPUs without the NUMA scheduler. */
const sl_cpumask *o1_node_mask(const struct o1 *s, int cpu);
/* find_busiest_node from this runqueue's decayed view, or -1. */
int o1_find_busiest_node(struct o1 *s, struct o1_rq *rq, int this_node);
/* The busiest node's CPUs and `cpu`: the mask a look across nodes widens
 * its balance to. */
sl_cpumask o1_node_plus_cpu(const struct o1 *s, int node, int cpu);
/* 2.5.59 cpus_to_balance: count this load_balance call and, every
 * NODE_BALANCE_RATE-th, balance against the busiest node. */
sl_cpumask o1_cpus_to_balance(struct o1 *s, struct o1_rq *rq, int cpu);
/* 2.5.68/2.6.0 balance_node: balance against the busiest node, if any. */
void o1_balance_node(struct sl_sim *sim, struct o1 *s, int cpu, bool idle);
/* The migration thread of `cpu` carries out a pending exec move. */
void o1_exec_move(struct sl_sim *sim, struct o1 *s, int cpu);
/* p exits: forget its pending exec move. */
void o1_exec_forget(struct o1 *s, struct o1_task *p);

/* ---- o1/attr.c ---- */

/* The migration thread of `cpu` moves the tasks set_cpus_allowed handed it. */
void o1_affinity_moves(struct sl_sim *sim, struct o1 *s, int cpu);
/* p exits: forget its pending affinity move. */
void o1_affinity_forget(struct o1 *s, struct o1_task *p);
/* The first CPU of p's mask (any_online_cpu), where a forbidden p goes. */
int o1_first_allowed(const struct o1 *s, const struct o1_task *p);

/* ---- o1/active.c ---- */

/* A CPU whose whole runqueue is idle asks busy runqueues for help. */
void o1_active_load_balance(struct sl_sim *sim, struct o1 *s, struct o1_rq *this_rq,
			    int this_cpu);

#endif
