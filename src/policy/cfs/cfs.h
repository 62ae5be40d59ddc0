/*
 * cfs/cfs.h - policy `cfs`: the scheduler a user runs today (the Linux 6.12
 * fair class with 6.12's default features: EEVDF with DELAY_DEQUEUE,
 * PLACE_REL_DEADLINE, PREEMPT_SHORT and RUN_TO_PARITY, SIS_UTIL, UTIL_EST,
 * and NO_HZ_IDLE; each a
 * knob, 6.6's EEVDF by turning the first three off, the pre-6.6 CFS pick
 * with pick=cfs) on per-CPU
 * runqueues, with scheduler domains built from the machine (SMT, MC,
 * package, NUMA levels), CPU capacities, PELT load and utilisation,
 * select_idle_sibling wakeups, fork/exec balancing to the idlest group,
 * periodic / newly-idle / active load balancing and a simplified NUMA
 * balancing that brings tasks home.
 *
 * The code is split by idea:
 *   cfs/timeline.c  the red-black tree of vruntimes (augmented by deadline)
 *   cfs/fair.c      weights, vruntime and lag accounting, placement, pick,
 *                   tick and wakeup preemption, moving a queued task
 *   cfs/pelt.c      PELT load / runnable / utilisation averages
 *   cfs/topology.c   scheduler domains, groups and capacities from the topology
 *   cfs/capacity.c  what RT leaves the fair class of each CPU and group
 *                   (scale_rt_capacity, update_group_capacity)
 *   cfs/gsum.c      the groups' running sums of their CPUs' loads and counts
 *   cfs/select.c    wakeup placement (wake_affine, select_idle_sibling) and
 *                   fork / exec placement (find_idlest_group)
 *   cfs/balance.c   periodic, newly-idle and active load balancing: when to
 *                   balance, and moving tasks
 *   cfs/busiest.c   the groups' statistics, the busiest group and queue and
 *                   the imbalance (balance.h: what the two share)
 *   cfs/nohz.c      NO_HZ_IDLE: idle CPUs stop their tick, a busy CPU's tick
 *                   kicks one of them to balance on behalf of all
 *   cfs/numa.c      NUMA placement: home node preference and migration back
 *   cfs/rt.c        the real-time class (SCHED_FIFO/RR): priority lists,
 *                   RR slices, preemption, push/pull between CPUs
 *   cfs/rt_bw.c     what keeps RT from starving fair tasks: 6.12's fair
 *                   server, or the RT throttling of earlier kernels
 *   cfs/attr.c      live changes: sched_setscheduler / set_user_nice and
 *                   set_cpus_allowed on a running, queued or sleeping task
 *   cfs/cfs.c           the policy: knobs, creation, ops, consistency check
 *
 * Sources: Linux kernel/sched/fair.c, features.h, topology.c, pelt.c and
 * core.c of v6.12 (function names are given where each rule is
 * implemented); 2.6.12.1 kernel/sched.c (sched domains, the ancestry of
 * today's balancer); Lozi et al., "The Linux Scheduler: a Decade of
 * Wasted Cores", EuroSys 2016 (the invariants the balancer must keep).
 * Docs: docs/policies/cfs.md.
 */
#ifndef SL_POLICY_CFS_CFS_H
#define SL_POLICY_CFS_CFS_H

#include <stdbool.h>
#include <stdint.h>

#include "base/cpumask.h"
#include "base/dlist.h"
#include "base/err.h"
#include "base/units.h"
#include "hw/topo.h"
#include "policy/cfs/timeline.h"
#include "sim/policy_ops.h"
#include "sim/sim.h"
#include "sim/task.h"

struct sl_sim;

extern const struct sl_policy_ops sl_policy_cfs;

/* ---- constants ---- */

#define CFS_NICE_0_LOAD		1024	/* weight of a nice-0 task (scale_load_down) */
#define CFS_CAPACITY_SCALE	1024	/* SCHED_CAPACITY_SCALE: one full CPU */
#define CFS_MAX_LEVELS		8	/* SMT, MC, PKG and up to five NUMA levels */
#define CFS_NR_MIGRATE		32	/* sysctl_sched_nr_migrate */
#define CFS_MAX_PINNED_INTERVAL	512	/* ms: MAX_PINNED_INTERVAL, the back-off against pinned tasks */
#define CFS_RECLAIM_DISTANCE	30	/* node_reclaim_distance */
#define CFS_NUMA_IMBALANCE_MIN	2	/* NUMA_IMBALANCE_MIN */

/* Domain flags (include/linux/sched/sd_flags.h; own values). */
#define CFS_SD_BALANCE_NEWIDLE		(1u << 0)
#define CFS_SD_BALANCE_EXEC		(1u << 1)
#define CFS_SD_BALANCE_FORK		(1u << 2)
#define CFS_SD_WAKE_AFFINE		(1u << 3)
#define CFS_SD_SHARE_CPUCAPACITY	(1u << 4)
#define CFS_SD_SHARE_LLC		(1u << 5)
#define CFS_SD_SERIALIZE		(1u << 6)
#define CFS_SD_PREFER_SIBLING		(1u << 7)
#define CFS_SD_NUMA			(1u << 8)

/* Wakeup flags (WF_*): why select_task_rq is asked. */
#define CFS_WF_TTWU	(1u << 0)
#define CFS_WF_FORK	(1u << 1)
#define CFS_WF_EXEC	(1u << 2)
#define CFS_WF_SYNC	(1u << 3)

enum cfs_pick_rule {
	CFS_PICK_EEVDF,		/* 6.6+: earliest eligible virtual deadline */
	CFS_PICK_CFS,		/* 2.6.23-6.5: leftmost vruntime, slices by period */
};

/* enum cpu_idle_type */
enum cfs_idle {
	CFS_NOT_IDLE,
	CFS_IDLE,
	CFS_NEWLY_IDLE,
};

/* ---- CPU masks, bounded ---- */

/* The loops on the hot paths (every CPU of a group, an LLC, a node) stop
 * at the machine's or the group's last CPU (base/cpumask.h's bounded
 * walk). */
#define cfs_for_each_cpu_in(cpu, mask, begin, end) sl_for_each_cpu_in(cpu, mask, begin, end)
/* every CPU of mask, on the machine of s */
#define cfs_for_each_cpu(s, cpu, mask) cfs_for_each_cpu_in(cpu, mask, 0, (s)->ncpus)
/* every CPU of a scheduling group */
#define cfs_for_each_group_cpu(cpu, g) cfs_for_each_cpu_in(cpu, &(g)->span, (g)->first_cpu, (g)->end_cpu)

/* ---- per task ---- */

/* PELT signals (struct sched_avg of kernel/sched/sched.h), in their
 * kernel units: load_avg in weight, runnable_avg and util_avg in capacity
 * (0..1024 per task); the sums they are derived from; time in ns, moved
 * on in whole 1024 ns units. */
struct cfs_avg {
	/* first: what a scan of many CPUs reads, in the runqueue's first
	 * cache line (struct cfs_rq) */
	uint64_t load_avg, runnable_avg, util_avg;	/* unsigned long on 64-bit */
	sl_time last_update_time;
	uint64_t load_sum, runnable_sum;
	uint32_t util_sum, period_contrib;
	/* UTIL_EST (cfs/pelt.c): a task's estimate (an EWMA of its util_avg
	 * at each sleep, CFS_UTIL_AVG_UNCHANGED while its util_avg has not
	 * changed since), a CPU's the sum of its queued tasks' */
	uint32_t util_est;
};

#define CFS_UTIL_AVG_UNCHANGED	0x80000000u

/*
 * The fields are ordered to leave few holes: the size of this struct, with
 * struct sl_task's, is the engine's stride between tasks, and a stride of
 * exactly 1,024 bytes (which a 72-byte timeline node and the old order
 * gave) puts every task's node on the same few L1 sets: 2.6 times the L1
 * misses of a whole sdet run on 4 CPUs (cachegrind).
 */
struct cfs_entity {
	struct cfs_rb_node node;	/* in the timeline while queued, not running */
	struct sl_dlink lru;		/* in rq->cfs_tasks, most recent first */
	struct sl_task *task;
	long weight;			/* sched_prio_to_weight[nice] */
	int64_t vruntime;		/* ns of nice-0 time */
	int64_t deadline;		/* EEVDF virtual deadline */
	int64_t vlag;			/* EEVDF lag kept across a sleep or a move */
	sl_time slice;			/* EEVDF request size (base slice) */
	sl_time exec_start;		/* clock of the last accounting while running */
	sl_time sum_exec;		/* CPU time consumed */
	sl_time prev_sum_exec;		/* sum_exec when it was last picked */
	int cpu;			/* task_cpu(): its runqueue */
	int nice;			/* the nice `weight` was computed for */
	bool on_rq;			/* queued or running on rq cpu */
	bool protect;			/* RUN_TO_PARITY: first slice since picked */
	bool delayed;			/* DELAY_DEQUEUE: asleep, still queued (sched_delayed) */
	bool rel_deadline;		/* PLACE_REL_DEADLINE: deadline kept as deadline - vruntime */
	bool custom_slice;		/* slice set per task (sched_attr.sched_runtime) */
	bool util_est_in;		/* its estimate is in its CPU's (util_est_enqueue) */
	struct cfs_avg avg;
	/* wake_wide() */
	const struct sl_task *last_wakee;	/* compared, never dereferenced */
	uint64_t wakee_flip_decay;		/* jiffies */
	unsigned wakee_flips;
	int recent_used_cpu;
	/* NUMA balancing */
	sl_time numa_next;		/* wall time of the next placement attempt */
	int numa_nid;			/* numa_preferred_nid: -1 until the first scan of
					 * a new address space, a thread's parent's */
	bool numa_faults;		/* p->numa_faults allocated: its first scan came
					 * (an exec zeroes it, task_numa_free(p, false)) */
	bool numa_scanned;		/* its current image's faults have come: since its
					 * fork or its last exec */
	sl_time numa_exec_at;		/* sum_exec at its last exec: its scan delay runs
					 * from there */
	/* a pending move through the migration thread of this CPU (-1: none) */
	int mig_rq;
	/* the class it is queued in: its sched_policy as the policy last saw
	 * it (the engine changes t->sched_policy first, then calls the op) */
	int policy;
	/* the RT class (cfs/rt.c): its place in a priority list while
	 * runnable (running included, as the kernel's run_list) */
	bool rt;			/* in the RT class (FIFO/RR) */
	bool rt_queued;			/* on s->rq[cpu].rt's list */
	uint64_t rt_pushable_at;	/* when it last became pushable (cfs_rt_pushable) */
	int rt_prio;			/* the list: 99 - rt_priority (kernel prio, 0 best) */
	int rt_slice;			/* RR: ticks left of sched_rr_timeslice */
	struct sl_dlink rt_link;	/* in its RT list */
};

/* The entity on a cfs_tasks list at link l (NULL for none). */
static inline struct cfs_entity *cfs_lru_entry(const struct sl_dlink *l)
{
	return sl_dlist_entry(l, struct cfs_entity, lru);
}

/* The entity on an RT list at link l (NULL for none). */
static inline struct cfs_entity *cfs_rt_entry(const struct sl_dlink *l)
{
	return sl_dlist_entry(l, struct cfs_entity, rt_link);
}

static inline struct cfs_entity *cfs_se(const struct sl_task *t)
{
	return sl_task_policy(t);
}

/* ---- domains ---- */

/* A sched_group: one child domain's span inside a domain. */
/* A group's sums of its CPUs' values (cfs/gsum.c), or one CPU's share. */
struct cfs_gsum {
	long load, util, runnable;	/* cpu_load, cpu_util_cfs, cpu_runnable */
	int nr_running;			/* every class's tasks (rq->nr_running) */
	int h_nr_running;		/* the fair ones (rq->cfs.h_nr_running) */
	int nr_numa_running, nr_preferred_running;
};

struct cfs_group {
	struct cfs_gsum sum;		/* kept by cfs/gsum.c */
	sl_cpumask span;
	int end_cpu;			/* its last CPU + 1 (loops stop there) */
	int weight;			/* CPUs */
	int cores;			/* SMT cores (sibling sets) */
	/* sgc->capacity: the sum of capacity_of() over its CPUs, as the
	 * last update_group_capacity of its domain left it (capacity.c),
	 * and sgc->next_update (jiffies) */
	long capacity;
	uint64_t cap_next_update;
	unsigned flags;			/* its child domain's flags (SMT: SHARE_CPUCAPACITY) */
	int first_cpu;			/* group_balance_cpu() */
	/* runtime, shared as the kernel's sched_group_capacity is: set when
	 * a balance inside the group failed for affinity (sgc->imbalance) */
	bool imbalance;
};

/* The CPUs of one domain at one level, shared by all of them. */
struct cfs_span {
	sl_cpumask cpus;
	int weight;
	int ngroups;
	/* the words of `cpus` that hold its CPUs, w_first..w_last: the others
	 * are 0, and a word loop over the span need not read them */
	int w_first, w_last;
	struct cfs_group *groups;	/* sorted by first CPU */
};

/* struct sched_domain: one per CPU per level, bottom-up. */
struct cfs_domain {
	const char *name;		/* SMT, MC, PKG, NUMA */
	struct cfs_span *span;
	int local;			/* index of this CPU's group in span->groups */
	unsigned flags;
	int imbalance_pct;
	int cache_nice_tries;
	int busy_factor;
	int min_interval, max_interval;	/* ms */
	int imb_numa_nr;
	/* runtime */
	int balance_interval;		/* ms */
	/* balance.c cfs_balance_interval's memo: the idle [0] and busy [1]
	 * interval in jiffies when balance_interval was ivl_ms: kept equal to
	 * balance_interval from the domains' build on (cfs_set_balance_interval) */
	int ivl_ms;
	uint64_t ivl_j[2];
	uint64_t last_balance;		/* jiffies */
	int nr_balance_failed;
	sl_time max_newidle_lb_cost;
	uint64_t last_decay_max_lb_cost;	/* jiffies */
	/* Set once the domains are built (balance.c cfs_balance_init), for
	 * cfs_load_balance_quiet: whether the local group is this CPU alone
	 * and the level does not set SIS_UTIL's bound (neither changes in a
	 * run), and the parent's local group (NULL at the top) */
	bool quiet_shape;
	struct cfs_group *parent_local;
};

/* ---- per CPU ---- */

#define CFS_RT_PRIOS	100	/* MAX_RT_PRIO: lists 0 (rt_priority 99) .. 99 */

/* struct rt_rq: the RT tasks of one CPU, running one included. */
/* What a CPU runs, as its RT bandwidth sees it (cfs_rtbw_account): the
 * fair server counts fair and idle time apart (dl_server_update and
 * dl_server_update_idle_time), RT throttling only RT time. */
enum cfs_acct { CFS_ACCT_RT, CFS_ACCT_FAIR, CFS_ACCT_IDLE };

struct cfs_rt_rq {
	int nr_running;			/* first: read with the fair counts */
	struct cfs_entity *curr;	/* the RT task running on this CPU, or NULL */
	struct sl_dlist queue[CFS_RT_PRIOS];	/* by kernel prio, FIFO within one */
	uint64_t bitmap[2];		/* list i not empty */
	/* RT throttling (rt_bandwidth=throttle) */
	sl_time rt_time;		/* RT run time in this period */
	bool throttled;
	/* the fair server (rt_bandwidth=server): a deferred dl_server */
	bool fs_active;			/* started: fair tasks are queued here */
	bool fs_running;		/* dl_defer_running: it handles a starvation */
	sl_time fs_deadline, fs_runtime;
	sl_time acct_at;		/* bandwidth accounted up to here */
	enum cfs_acct acct;		/* ... and what the CPU ran since */
	/* rq->avg_rt: PELT of "an RT task runs" (util only; capacity.c
	 * turns it into the fair class's capacity) */
	struct cfs_avg avg;
};

/*
 * The fields every scan of a group, an LLC or a node reads of each CPU
 * (counts, weights, capacity, the PELT averages) come first, in one cache
 * line, whether RT runs in the next; a 64-CPU balance or fork placement
 * otherwise touched six lines per CPU.
 */
struct cfs_rq {
	int cpu;
	int nr_running;			/* queued + running */
	long load;			/* sum of the weights of nr_running */
	long capacity;			/* capacity_of(): less RT's share (capacity.c) */
	long capacity_orig;		/* arch_scale_cpu_capacity() */
	struct cfs_entity *curr;	/* running (not in the tree), or NULL */
	int nr_numa_running, nr_preferred_running;
	struct cfs_avg avg;		/* the CPU's PELT signals */
	/* update_cfs_rq_h_load(): the root cfs_rq's load_avg as first read
	 * in jiffy h_load_jiffy (FAIR_GROUP_SCHED; cfs_task_h_load) */
	uint64_t h_load, h_load_jiffy;
	struct {			/* cfs_rq->removed: left while asleep or dead */
		int nr;
		uint64_t load_avg, util_avg, runnable_avg;
	} removed;
	struct cfs_rt_rq rt;

	struct cfs_timeline tl;
	struct sl_dlist cfs_tasks;	/* its entities, most recently queued or picked first */
	int64_t min_vruntime;
	int64_t avg_vruntime;		/* sum of w * (v - min_vruntime), tree only */
	long avg_load;			/* sum of w, tree only */
	struct cfs_entity *skip;	/* pick=cfs: yield's skip buddy */

	int nsd;
	struct cfs_domain sd[CFS_MAX_LEVELS];
	int sd_llc;			/* index of the LLC domain, -1 none */
	int llc_id;			/* first CPU of its LLC */
	int llc_size;
	/* its SMT siblings' first CPU and last + 1 (cfs_core_idle) */
	int sib_first, sib_end;
	const sl_cpumask *llc_span;
	sl_cpumask self;		/* {cpu}: the LLC span when there is no LLC domain */

	uint64_t next_balance;		/* jiffies */
	bool active_balance;		/* the migration thread will push a task ... */
	int push_cpu;			/* ... to this CPU */
	struct cfs_entity *mig_se;	/* or move this task ... */
	int mig_dest;			/* ... to this CPU (exec, NUMA) */

	sl_time idle_stamp;		/* when it last went idle (0: not idle) */
	sl_time avg_idle;
	/* the most a newly-idle balance of all its domains has cost lately,
	 * at least migration_cost: avg_idle is kept below twice it */
	sl_time max_idle_balance_cost;
	sl_time last_idle;		/* for find_idlest_group_cpu's "most recently idled" */
	int dist_prev;			/* cpumask_any_and_distribute's last answer */
	bool fix_pending;		/* its stopper will move a task off (set_allowed) */
	bool after_stopper;		/* its migration thread ran: the next schedule()'s
					 * prev is the stopper (cfs_pick_task) */
	bool gsum_dirty;		/* its values may differ from gsum */
	struct cfs_gsum gsum;		/* what its groups' sums hold of it */
	/* cfs/nohz.c */
	bool nohz_tick_stopped;		/* in nohz.idle_cpus_mask (left at a busy tick) */
	unsigned nohz_flags;		/* kicks sent to it, not yet handled */
	bool has_blocked_load;		/* idle with load still decaying */
	uint64_t last_blocked_tick;	/* jiffy of its last blocked-load update */
};

/* ---- the policy ---- */

struct cfs {
	struct sl_sim *sim;
	const struct sl_topo *topo;
	int ncpus;

	/* knobs and derived tunables */
	unsigned hz;
	sl_time tick_ns;
	enum cfs_pick_rule pick;
	int tunable_factor;		/* 1 + ilog2(min(ncpus, 8)) by default */
	sl_time latency, min_gran, wakeup_gran, base_slice;
	int nr_latency;			/* latency / min_gran */
	sl_time migration_cost;
	bool run_to_parity;
	bool delay_dequeue;		/* DELAY_DEQUEUE (with DELAY_ZERO) */
	bool rel_deadline;		/* PLACE_REL_DEADLINE */
	bool preempt_short;		/* PREEMPT_SHORT */
	bool sis_util;			/* SIS_UTIL */
	bool util_est;			/* UTIL_EST */
	bool group_sched;		/* CONFIG_FAIR_GROUP_SCHED: task_h_load's form */
	sl_time short_slice;		/* custom slice of the tasks named short_comm, 0: none */
	char short_comm[16];
	bool wake_affine;
	bool idle_core;
	bool fork_balance;
	bool newidle;
	bool preemption;		/* CONFIG_PREEMPTION: newly idle takes one task */
	bool numa;
	sl_time numa_scan_delay, numa_retry;
	int smt_gain;
	sl_time scan_ns, pick_ns;
	/* the RT class */
	int rr_ticks;			/* sched_rr_timeslice in ticks (100 ms) */
	enum { CFS_RTBW_SERVER, CFS_RTBW_THROTTLE, CFS_RTBW_OFF } rt_bw;
	sl_time rt_runtime, rt_period;	/* throttle: sched_rt_runtime_us / period_us */
	sl_time fs_runtime, fs_period;	/* server: fair_server runtime / period */
	sl_time rt_period_end;		/* throttle: end of the current period (0: none yet) */
	int nr_rt_overloaded;		/* CPUs with 2+ RT tasks (rd->rto_count) */
	uint64_t rt_pushable_seq;	/* the order tasks became pushable in */

	struct cfs_rq *rq;		/* [ncpus] */
	int nr_spans;
	struct cfs_span *spans;		/* every domain span, all levels */
	bool has_idle_cores[SL_MAX_CPUS];	/* sd_llc_shared, by llc_id */
	int nr_idle_scan[SL_MAX_CPUS];		/* sd_llc_shared: SIS_UTIL's bound, by llc_id */
	int nr_overloaded;		/* runqueues with two tasks of any class
					 * (rd->overloaded; cfs_nr_all_changed) */
	bool rt_seen;			/* an RT task was ever queued: capacities
					 * may be cut, and balances look for
					 * misfit tasks (busiest.c) */
	long lb_looked;			/* CPUs and tasks the balancer examined, ever */
	long active_kicks;		/* active balances started, ever */
	uint64_t max_lb_interval;	/* jiffies: HZ * ncpus / 10 */
	/* cfs/gsum.c */
	bool gsum_on;			/* groups keep sums (else every read walks) */
	int *gsum_dirty, nr_gsum_dirty;	/* CPUs touched since the groups were read */
	sl_cpumask no_fair, no_rt;	/* CPUs without fair / counted RT tasks, as of the last flush */
	int gsum_wrong;			/* test builds: 1 + first CPU of a group whose kept
					 * sums a wakeup found unlike its walk's */
	/* cfs/nohz.c: the kernel's struct nohz */
	bool nohz;			/* NO_HZ_IDLE (knob) */
	sl_cpumask nohz_idle;		/* idle_cpus_mask */
	int nohz_nr;			/* nr_cpus: its weight */
	bool nohz_has_blocked, nohz_needs_update;
	uint64_t nohz_next_balance, nohz_next_blocked;	/* jiffies */
	int lb_payer;			/* the CPU the balancer charges, -1: the balanced one */
	/* balance.c: sched_balance_running, the SD_SERIALIZE levels' flag,
	 * as the engine's lock timeline (holder CPU + 1, held to free_at) */
	struct sl_spinlock balance_running;
};

static inline struct cfs *cfs_state(const struct sl_sim *sim)
{
	return sl_policy_data(sim);
}

/* ---- cfs/fair.c ---- */

/* Enqueue / dequeue flags. */
#define CFS_ENQ_WAKEUP	(1u << 0)	/* after a sleep */
#define CFS_ENQ_INITIAL	(1u << 1)	/* a new task */
#define CFS_ENQ_MIGRATED (1u << 2)	/* moved from another runqueue */
#define CFS_ENQ_ATTACH	(1u << 3)	/* joins the fair class here (from RT): attached, aged */
#define CFS_DEQ_SLEEP	(1u << 0)
#define CFS_DEQ_MIGRATE	(1u << 1)
#define CFS_DEQ_DELAYED	(1u << 2)	/* finish a delayed dequeue */
#define CFS_DEQ_NODELAY	(1u << 3)	/* dying: never delayed (task_dead_fair) */

long cfs_nice_to_weight(int nice);
int64_t cfs_delta_fair(sl_time delta, long weight);
void cfs_update_curr(struct cfs *s, struct cfs_rq *rq);
/* entity_eligible(): se's vruntime at or below the queue's weighted average. */
bool cfs_entity_eligible(const struct cfs_rq *rq, const struct cfs_entity *se);
int64_t cfs_avg_vruntime(const struct cfs_rq *rq);
void cfs_enqueue(struct cfs *s, struct cfs_rq *rq, struct cfs_entity *se, unsigned flags);
/* Returns false if DELAY_DEQUEUE kept the sleeper queued (se->delayed). */
bool cfs_dequeue(struct cfs *s, struct cfs_rq *rq, struct cfs_entity *se, unsigned flags);
/* requeue_delayed_entity(): a delayed sleeper woke up where it is queued. */
void cfs_requeue_delayed(struct cfs *s, struct cfs_rq *rq, struct cfs_entity *se);
void cfs_put_prev(struct cfs *s, struct cfs_rq *rq);
/* again: schedule() kept the task that was running (no set_next_entity). */
void cfs_set_next(struct cfs *s, struct cfs_rq *rq, struct cfs_entity *se, bool again);
/* pick_next_entity(): may return a delayed entity, which the caller dequeues. */
struct cfs_entity *cfs_pick_entity(struct cfs *s, struct cfs_rq *rq);
void cfs_check_preempt(struct cfs *s, struct cfs_rq *rq, struct cfs_entity *se);
void cfs_task_tick(struct cfs *s, struct cfs_rq *rq);
void cfs_yield(struct cfs *s, struct cfs_rq *rq);
/* Fork: the child's vruntime and deadline before it is enqueued on `rq`. */
void cfs_place_new(struct cfs *s, struct cfs_rq *parent_rq, struct cfs_entity *se);
/* attach_task / detach_task: move a queued, not running task. */
void cfs_move_queued(struct cfs *s, struct cfs_entity *se, int dst_cpu);
/* A sleeping task leaves its old runqueue for `dst_cpu` at wakeup. */
void cfs_move_sleeping(struct cfs *s, struct cfs_entity *se, int dst_cpu);
/* The RT tasks rq->nr_running counts: none while the CPU's RT class is
 * throttled (rt_bandwidth=throttle), whose dequeue_top_rt_rq() takes them
 * out of it until the period timer puts them back (enqueue_top_rt_rq(),
 * which also leaves out a task queued meanwhile); a throttled CPU with no
 * fair task is idle to idle_cpu(), to wakeup placement and to the
 * balancer (6.12 kernel/sched/rt.c; cfs_rtbw_throttle). */
static inline int cfs_rt_nr_counted(const struct cfs_rq *rq)
{
	return rq->rt.throttled ? 0 : rq->rt.nr_running;
}

/* rq->nr_running, where cfs_rq.nr_running is cfs.h_nr_running: the tasks
 * of every class, fair and RT, queued or running on the CPU.  6.12's
 * balancer reads it for its group statistics (sum_nr_running), the
 * "more than one task" tests before a pull, fbq_classify_rq() and the
 * sync wake_affine_idle() test, and the fair count where it means
 * "tasks it could move" (sum_h_nr_running). */
static inline int cfs_nr_all(const struct cfs_rq *rq)
{
	return rq->nr_running + cfs_rt_nr_counted(rq);
}

/* add_nr_running() / sub_nr_running(): a CPU's count of every class went
 * from `before` to `after`; rd->overloaded counts the CPUs with two or
 * more (the kernel clears it lazily, at the root domain's balance: here
 * it is exact). */
static inline void cfs_nr_all_changed(struct cfs *s, int before, int after)
{
	if (before < 2 && after >= 2)
		s->nr_overloaded++;
	else if (before >= 2 && after < 2)
		s->nr_overloaded--;
}

/* available_idle_cpu(): nothing runs or waits there, of any class.  Inline: the
 * balancer's group statistics ask it of every CPU they sum. */
static inline bool cfs_cpu_idle(const struct cfs *s, int cpu)
{
	return cfs_nr_all(&s->rq[cpu]) == 0 && sl_cpu_idle(s->sim, cpu);
}

/* The task's weight: its nice's, or WEIGHT_IDLEPRIO for SCHED_IDLE. */
long cfs_task_weight(const struct sl_task *t);
/* reweight_entity(): se (fair, on rq or not) takes a new weight. */
void cfs_reweight(struct cfs *s, struct cfs_entity *se, long weight);

/* ---- cfs/rt.c ---- */

void cfs_rt_enqueue(struct cfs *s, struct cfs_entity *se, bool head);
void cfs_rt_dequeue(struct cfs *s, struct cfs_entity *se);
/* The highest-priority RT task queued on cpu, or NULL. */
struct cfs_entity *cfs_rt_first(const struct cfs *s, int cpu);
/* cpupri of a CPU: its best RT task's rt_priority, 0 (NORMAL) with none. */
int cfs_rt_cpupri(const struct cfs *s, int cpu);
/* se (RT) was just queued on its CPU: reschedule it if se outranks what
 * runs there; _wakeup_preempt, for a woken, new or moved task
 * (wakeup_preempt_rt), adds check_preempt_equal_prio. */
void cfs_rt_check_preempt(struct cfs *s, struct cfs_entity *se);
void cfs_rt_wakeup_preempt(struct cfs *s, struct cfs_entity *se);
/* select_task_rq_rt() for a wakeup or fork: where the RT task goes. */
int cfs_rt_select(struct cfs *s, struct cfs_entity *se, int prev_cpu, int this_cpu);
/* put_prev_task_rt(): the RT task that ran on cpu stopped running. */
void cfs_rt_put_prev(struct cfs *s, int cpu, struct cfs_entity *se);
/* pick_next_task_rt(), or NULL: RT has nothing (or is held back) here. */
struct cfs_entity *cfs_rt_pick(struct cfs *s, int cpu);
void cfs_rt_task_tick(struct cfs *s, int cpu);
void cfs_rt_yield(struct cfs *s, struct cfs_entity *se);
/* push_rt_tasks() from cpu; pull_rt_task() to cpu (true: pulled). */
void cfs_rt_push(struct cfs *s, int cpu);
bool cfs_rt_pull(struct cfs *s, int cpu);
/* task_woken_rt(): push if the woken task will wait here. */
void cfs_rt_woken(struct cfs *s, struct cfs_entity *se);
/* Move a queued, not running RT task to dst: _move_queued for push and
 * pull, which resched dst when se outranks what runs there;
 * _move_task as move_queued_task() (set_cpus_allowed, the migration
 * thread), whose wakeup_preempt has check_preempt_equal_prio too. */
void cfs_rt_move_queued(struct cfs *s, struct cfs_entity *se, int dst);
void cfs_rt_move_task(struct cfs *s, struct cfs_entity *se, int dst);
int cfs_rt_check(struct cfs *s, int cpu, struct sl_err *err);

/* ---- cfs/attr.c ---- */

void cfs_setscheduler(struct sl_sim *sim, struct sl_task *t, const struct sl_sched_attr *old);
void cfs_set_allowed(struct sl_sim *sim, struct sl_task *t);
/* The stopper of cpu runs: move what its mask no longer allows. */
void cfs_attr_fix_cpu(struct cfs *s, int cpu);

/* ---- cfs/rt_bw.c ---- */

/* Bring cpu's bandwidth accounting up to now; `runs` says what runs from
 * now on.  cfs_rtbw_account_out() is the whole of it; cfs_rtbw_account()
 * below only records `runs` itself when that is all the whole would do. */
void cfs_rtbw_account_out(struct cfs *s, int cpu, enum cfs_acct runs);
/* The fair server takes the CPU from RT now (deferred server activated,
 * runtime left): pick fair first. */
bool cfs_rtbw_fair_first(struct cfs *s, int cpu);
/* RT is throttled on cpu (rt_bandwidth=throttle). */
bool cfs_rtbw_rt_throttled(const struct cfs *s, int cpu);
/* At cpu's tick: the RT time or the server's runtime used up, a resched
 * when the answer of the two above changed. */
void cfs_rtbw_tick(struct cfs *s, int cpu);
/* The bandwidth hrtimers (sl_hrtimer_start ids): the RT period timer
 * (rt_bandwidth=throttle, on CPU 0: it pays back every CPU), and each
 * CPU's fair server's defer and replenishment timer. */
enum { CFS_HRT_RT_PERIOD, CFS_HRT_SERVER };

/*
 * With no time passed since the last accounting (a pick's second and third
 * calls, in the same instant as its first), no RT task queued and no
 * server timer set, cfs_rtbw_account_out() charges nothing and arms
 * nothing (both its conditions false): it only sets acct.  Inline, that
 * case costs no call (245,000 of 405,000 calls, 35 instructions each, in
 * a p4dpe-2x2ht kernbench).
 */
static inline void cfs_rtbw_account(struct cfs *s, int cpu, enum cfs_acct runs)
{
	struct cfs_rt_rq *rt = &s->rq[cpu].rt;

	if (sl_now(s->sim) <= rt->acct_at && !rt->nr_running &&
	    !sl_hrtimer_queued(s->sim, cpu, CFS_HRT_SERVER)) {
		rt->acct = runs;
		return;
	}
	cfs_rtbw_account_out(s, cpu, runs);
}
void cfs_rtbw_hrtimer(struct cfs *s, int cpu, int id);
/* dl_server_start / dl_server_stop: cpu's fair runqueue became non-empty
 * / empty. */
void cfs_rtbw_fair_queued(struct cfs *s, int cpu, bool any);

/* ---- cfs/pelt.c ---- */

/* The bare arithmetic (for tests): bring sa to now with load (0: not
 * runnable), runnable (tasks) and running (the capacity it runs at, 0:
 * not running); true if a period boundary was crossed and the averages
 * were recomputed (load_avg = weight * load_sum / divider). */
bool cfs_pelt_update(struct cfs_avg *sa, sl_time now, unsigned long load,
		     unsigned long runnable, unsigned long running, unsigned long weight);
uint64_t cfs_pelt_decay(uint64_t val, uint64_t periods);
uint32_t cfs_pelt_y_inv_at(int n);
/* n / (LOAD_AVG_MAX - 1024 + period_contrib), as cfs_pelt_update divides */
uint64_t cfs_pelt_div_at(uint64_t n, uint32_t period_contrib);

/* update_cfs_rq_load_avg(): cfs_pelt_rq() runs it only when there is
 * something to do: removed load, or a whole 1024 ns unit since the last
 * update (time going backwards included, which resets). */
void cfs_pelt_rq(struct cfs *s, struct cfs_rq *rq);
void cfs_pelt_se(struct cfs *s, struct cfs_entity *se);
/* attach / detach_entity_load_avg(): the caller marks rq for the groups'
 * sums (cfs_gsum_touch). */
void cfs_pelt_attach(struct cfs_rq *rq, struct cfs_entity *se);
void cfs_pelt_detach(struct cfs_rq *rq, const struct cfs_entity *se);
/* reweight_entity()'s load_avg at a new weight, in the runqueue's too. */
void cfs_pelt_reweight(struct cfs_rq *rq, struct cfs_entity *se, long weight);
/* A sleeping or dead task leaves rq (remove_entity_load_avg). */
void cfs_pelt_remove(struct cfs *s, struct cfs_rq *rq, struct cfs_entity *se);
void cfs_pelt_init_new(struct cfs *s, struct cfs_rq *rq, struct cfs_entity *se);
/* Bring a task's averages to its runqueue's last update, as blocked
 * (sync_entity_load_avg: exec placement reads the task's own util). */
void cfs_pelt_sync(struct cfs *s, struct cfs_entity *se);
/* update_blocked_averages(): the CPU's own signals, at its periodic and
 * newly-idle balance. */
void cfs_pelt_blocked(struct cfs *s, int cpu);
/* update_rt_rq_load_avg(): bring cpu's avg_rt to now, an RT task having
 * run (running) or not since its last update. */
void cfs_pelt_rt(struct cfs *s, int cpu, bool running);

/* What the kernel reads (cpu_load, cpu_util_cfs, cpu_runnable,
 * task_h_load, task_util): the signals as their last update left them,
 * not brought up to now. */
static inline long cfs_cpu_load(const struct cfs_rq *rq)
{
	return (long)rq->avg.load_avg;
}
/* cpu_util()'s end: `util`, or the estimate `est` if more (UTIL_EST; 0
 * with it off), never above the CPU's capacity. */
static inline long cfs_util_capped(const struct cfs_rq *rq, long util, long est)
{
	util = util > est ? util : est;
	return util < rq->capacity_orig ? util : rq->capacity_orig;
}
/* cpu_util_cfs(): util_avg and the queued tasks' estimates. */
static inline long cfs_cpu_util(const struct cfs_rq *rq)
{
	return cfs_util_capped(rq, (long)rq->avg.util_avg, (long)rq->avg.util_est);
}
static inline long cfs_cpu_runnable(const struct cfs_rq *rq)
{
	return (long)rq->avg.runnable_avg;
}
static inline long cfs_task_load(const struct cfs_entity *se)
{
	return (long)se->avg.load_avg;
}
/* task_h_load(), what the balancer moves and wake_affine_weight and
 * cpu_load_without take off: with FAIR_GROUP_SCHED (6.12 as x86_64's
 * defconfig and the distributions build it) a task of the root group
 * weighs its load scaled by its runqueue's load as first read in this
 * jiffy (update_cfs_rq_h_load) against that load now, L * H / (load + 1):
 * a little under L, and more than L once a detach this jiffy took load
 * off the queue (detach_tasks then moves fewer of its tasks).  Without
 * (group_sched=off) the task's own load. */
static inline long cfs_task_h_load(struct cfs *s, const struct cfs_entity *se)
{
	if (!s->group_sched)
		return cfs_task_load(se);
	struct cfs_rq *rq = &s->rq[se->cpu];	/* task_cfs_rq(p) */
	uint64_t j = sl_jiffies(s->sim);
	if (rq->h_load_jiffy != j) {
		rq->h_load = rq->avg.load_avg;
		rq->h_load_jiffy = j;
	}
	return (long)(se->avg.load_avg * rq->h_load / (rq->avg.load_avg + 1));
}
static inline long cfs_task_util(const struct cfs_entity *se)
{
	return (long)se->avg.util_avg;
}
/* _task_util_est() and task_util_est() */
static inline long cfs_task_est(const struct cfs_entity *se)
{
	return (long)(se->avg.util_est & ~CFS_UTIL_AVG_UNCHANGED);
}
static inline long cfs_task_util_est(const struct cfs_entity *se)
{
	long util = cfs_task_util(se), est = cfs_task_est(se);
	return util > est ? util : est;
}
/* cpu_util_without(): the CPU's utilisation without p, which runs or is
 * queued there. */
long cfs_cpu_util_without(const struct cfs_rq *rq, const struct cfs_entity *p);
/* cpu_util_cfs_boost(): runnable_avg counts too (a CPU whose tasks wait). */
long cfs_cpu_util_boost(const struct cfs_rq *rq);
/* UTIL_EST's bookkeeping (util_est_enqueue / _dequeue / _update). */
void cfs_util_est_enqueue(struct cfs *s, struct cfs_rq *rq, struct cfs_entity *se);
void cfs_util_est_dequeue(struct cfs *s, struct cfs_rq *rq, struct cfs_entity *se);
void cfs_util_est_update(struct cfs *s, struct cfs_rq *rq, struct cfs_entity *se);

/* ---- cfs/topology.c ---- */

int cfs_build_domains(struct cfs *s, struct sl_err *err);
void cfs_free_domains(struct cfs *s);
bool cfs_share_cache(const struct cfs *s, int a, int b);
/* All SMT siblings of cpu (itself included) are idle. */
bool cfs_core_idle(const struct cfs *s, int cpu);

/* cpumask_any_and_distribute(a, b) run on exec_cpu: the first CPU of a & b
 * (b NULL: of a) after the one exec_cpu's last call returned, wrapping
 * (the kernel's per-CPU distribute_cpu_mask_prev, 0 at boot, so the first
 * call skips CPU 0), so that successive choices spread; -1 if none. */
static inline int cfs_any_and_distribute(struct cfs *s, int exec_cpu, const sl_cpumask *a,
					 const sl_cpumask *b)
{
	struct cfs_rq *rq = &s->rq[exec_cpu];
	int next = sl_cpumask_next_and_in(a, b, rq->dist_prev + 1, s->ncpus);

	if (next < 0)
		next = sl_cpumask_next_and_in(a, b, 0, rq->dist_prev + 1);
	if (next >= 0)
		rq->dist_prev = next;
	return next;
}

/* ---- cfs/capacity.c ---- */

long cfs_group_capacity_sum(const struct cfs_domain *sd);

/* update_group_capacity(): refresh the capacity of cpu's own group in
 * its domain sd (capacity_of(cpu) itself at the lowest level); the next
 * is due at jiffy next_update (now plus the domain's balance_interval,
 * clamped).  Inline, with the caller's jiffies: the lowest level's case
 * is part of an idle CPU's every quiet balance (cfs_load_balance_quiet,
 * 1.5 M of them in xeon-2s-smt javabench:size=200). */
static inline void cfs_update_group_capacity(struct cfs *s, int cpu, struct cfs_domain *sd,
					     uint64_t next_update)
{
	struct cfs_rq *rq = &s->rq[cpu];
	struct cfs_group *g = &sd->span->groups[sd->local];

	g->cap_next_update = next_update;
	if (sd == &rq->sd[0]) {
		/* update_cpu_capacity(): the group is this CPU alone;
		 * scale_rt_capacity(): capacity_orig less RT's utilisation,
		 * at least 1 */
		long used = (long)rq->rt.avg.util_avg;
		rq->capacity = used >= rq->capacity_orig ? 1 : rq->capacity_orig - used;
		g->capacity = rq->capacity;
		return;
	}
	g->capacity = cfs_group_capacity_sum(sd);
}
/* check_cpu_capacity(): RT (or IRQ) took a noticeable share of rq's CPU,
 * by the domain's imbalance_pct. */
static inline bool cfs_capacity_reduced(const struct cfs_rq *rq, const struct cfs_domain *sd)
{
	return rq->capacity * sd->imbalance_pct < rq->capacity_orig * 100;
}

/* ---- cfs/gsum.c ---- */

/* Build the sums (after the domains), and free what they took. */
void cfs_gsum_init(struct cfs *s);
void cfs_gsum_free(struct cfs *s);
/* rq's load averages or task counts (fair, NUMA, RT) are about to change
 * or have changed: its share is taken again before a group is read. */
static inline void cfs_gsum_touch(struct cfs *s, struct cfs_rq *rq)
{
	if (!rq->gsum_dirty) {
		rq->gsum_dirty = true;
		s->gsum_dirty[s->nr_gsum_dirty++] = rq->cpu;
	}
}
void cfs_gsum_flush_dirty(struct cfs *s);
/* Bring every group's sums (g->sum) and the idle masks up to now. */
static inline void cfs_gsum_flush(struct cfs *s)
{
	if (s->nr_gsum_dirty)
		cfs_gsum_flush_dirty(s);
}
/* g's idle CPUs, flushed: no task of any class and the CPU idle, as both
 * of 6.12's group statistics count them (!nr_running && idle_cpu()). */
int cfs_gsum_idle(const struct cfs *s, const struct cfs_group *g);
struct cfs_sg_stats;
/* What a walk of all of g's CPUs adds up - load, util, runnable, the
 * task counts and the idle CPUs (as cfs_gsum_idle) - from g's sums,
 * flushed first, into st; its other fields are left as they are. */
void cfs_gsum_read(struct cfs *s, const struct cfs_group *g, struct cfs_sg_stats *st);
/* Every group's sums and idle counts against a walk of its CPUs. */
int cfs_gsum_check(struct cfs *s, struct sl_err *err);

/* ---- cfs/select.c ---- */

/* select_task_rq_fair(): where `se` should run.  `this_cpu` is the CPU
 * doing the wakeup / fork / exec, `waker` its task (NULL: an interrupt). */
int cfs_select_task_rq(struct cfs *s, struct cfs_entity *se, int prev_cpu, int this_cpu,
		       unsigned wf, struct cfs_entity *waker);
/* core.c select_task_rq() (fork and wakeup; sched_exec asks the class
 * directly): a task allowed on one CPU goes there, any other where
 * cfs_select_task_rq says. */
int cfs_select_task_rq_core(struct cfs *s, struct cfs_entity *se, int prev_cpu, int this_cpu,
			    unsigned wf, struct cfs_entity *waker);
/* select_fallback_rq(): for a class's choice the mask forbids, the first
 * allowed CPU of prev_cpu's node, else the first allowed. */
int cfs_fallback_cpu(const struct cfs *s, const struct cfs_entity *se, int prev_cpu);
/* The CPU went idle: note an idle core for its LLC (__update_idle_core). */
void cfs_update_idle_core(struct cfs *s, int cpu);

/* ---- cfs/balance.c and cfs/busiest.c ---- */

/* enum group_type, as far as modelled (no asymmetric packing; misfit
 * only as symmetric machines have it, a task on a CPU RT cut); the order
 * is the order of need (6.12 fair.c). */
enum cfs_group_type {
	CFS_GROUP_HAS_SPARE,
	CFS_GROUP_FULLY_BUSY,
	CFS_GROUP_MISFIT,		/* one fair task on a CPU whose capacity RT cut */
	CFS_GROUP_SMT_BALANCE,
	CFS_GROUP_IMBALANCED,		/* pinned tasks kept a balance inside it from evening out */
	CFS_GROUP_OVERLOADED,
};

/* struct sg_lb_stats: a group's statistics, for the balancer
 * (update_sg_lb_stats) and for fork/exec/wakeup placement's
 * find_idlest_group (update_sg_wakeup_stats, which leaves the NUMA and
 * SMT fields at zero). */
struct cfs_sg_stats {
	long load, util, runnable, capacity, avg_load;
	int nr_running;			/* sum_nr_running: every class */
	int h_nr_running;		/* sum_h_nr_running: the fair tasks */
	int idle_cpus, weight;
	int nr_numa_running, nr_preferred_running;
	long misfit_load;		/* group_misfit_task_load (busiest.c) */
	bool smt_balance;
	bool imbalanced;		/* the group's sgc->imbalance (sg_imbalanced) */
	enum cfs_group_type type;
};

/* group_classify(): one for both, as in the kernel.  Inline: fork and
 * exec placement classify every group of every domain they look at (one
 * call of 20 instructions for each, 0.3 % of an sdet on numaq-16). */
static inline enum cfs_group_type cfs_group_classify(int imbalance_pct,
						      const struct cfs_sg_stats *g)
{
	if (g->nr_running > g->weight &&
	    (g->capacity * 100 < g->util * imbalance_pct ||
	     g->capacity * imbalance_pct < g->runnable * 100))
		return CFS_GROUP_OVERLOADED;
	if (g->imbalanced)
		return CFS_GROUP_IMBALANCED;
	if (g->smt_balance)
		return CFS_GROUP_SMT_BALANCE;
	if (g->misfit_load)
		return CFS_GROUP_MISFIT;
	if (g->nr_running < g->weight)
		return CFS_GROUP_HAS_SPARE;
	if (g->capacity * imbalance_pct < g->runnable * 100)
		return CFS_GROUP_FULLY_BUSY;
	if (g->capacity * 100 > g->util * imbalance_pct)
		return CFS_GROUP_HAS_SPARE;
	return CFS_GROUP_FULLY_BUSY;
}
/*
 * calculate_imbalance()'s migrate_load: the load to move so that neither
 * group passes the domain's average `sds_avg_load` - the smaller of what
 * busiest has above it and what local lacks, weighted by capacity.  In
 * unsigned arithmetic, as 6.12's (kernel/sched/fair.c calculate_imbalance:
 * struct sg_lb_stats' avg_load and group_capacity are unsigned long):
 * a busiest group picked by its type whose average is below the domain's
 * (a heavier group of a lower type beside it) wraps the first term, and
 * min() takes local's side, so the kernel still pulls.  Signed, as the
 * model had it until Dec 2026, it came out negative and the domain was
 * taken as balanced.  The callers have made sure local lies below the
 * average, so local's side is positive.
 */
static inline long cfs_migrate_load_imbalance(const struct cfs_sg_stats *busiest,
					      const struct cfs_sg_stats *local, long sds_avg_load)
{
	unsigned long above = ((unsigned long)busiest->avg_load - (unsigned long)sds_avg_load) *
			      (unsigned long)busiest->capacity;
	unsigned long below = ((unsigned long)sds_avg_load - (unsigned long)local->avg_load) *
			      (unsigned long)local->capacity;
	return (long)((above < below ? above : below) / CFS_CAPACITY_SCALE);
}
void cfs_rebalance_tick(struct cfs *s, int cpu);
/* j: now's jiffies; idle: CFS_IDLE if cfs_cpu_idle(s, cpu), else
 * CFS_NOT_IDLE (the callers know both already) */
void cfs_balance_domains(struct cfs *s, int cpu, uint64_t j, enum cfs_idle idle);
/* Once the domains are built: their balance intervals in jiffies (the
 * balancer keeps them as balance_interval changes) and what the quiet
 * balance reads of their shape. */
void cfs_balance_init(struct cfs *s);
/* Returns true if a task was pulled. */
bool cfs_newidle_balance(struct cfs *s, int cpu);
/* The migration thread of `cpu` runs: push a task to rq->push_cpu. */
void cfs_active_balance(struct cfs *s, int cpu);
/* Ask `cpu`'s migration thread to move `se` (running there) to `dest`. */
void cfs_request_move(struct cfs *s, struct cfs_entity *se, int dest);

/* ---- cfs/nohz.c ---- */

void cfs_nohz_init(struct cfs *s);
/* cpu goes idle: its tick stops (nohz_balance_enter_idle). */
void cfs_nohz_enter_idle(struct cfs *s, int cpu);
/* cpu leaves idle to run a task: its tick runs again. */
void cfs_nohz_leave_idle(struct cfs *s, int cpu);
/* A busy tick of cpu: nohz_balancer_kick(). */
void cfs_nohz_kick(struct cfs *s, int cpu);
/* schedule() on idle cpu: handle a kick sent to it; true if it balanced
 * for the idle CPUs and stays idle (no newly-idle balance follows). */
bool cfs_nohz_kicked(struct cfs *s, int cpu);
/* A newly-idle balance of cpu pulled nothing: nohz_newidle_balance(). */
void cfs_nohz_newidle(struct cfs *s, int cpu);
/* cpu enters its idle loop: nohz_run_idle_balance(). */
void cfs_nohz_run_idle(struct cfs *s, int cpu);

/* ---- cfs/numa.c ---- */

void cfs_numa_tick(struct cfs *s, struct cfs_rq *rq, struct cfs_entity *se);
void cfs_numa_account(struct cfs *s, struct cfs_rq *rq, const struct cfs_entity *se, int sign);
/* migrate_degrades_locality(): 1 worse, 0 better, -1 no opinion. */
int cfs_numa_degrades_locality(const struct cfs *s, const struct cfs_entity *se, int src,
			       int dst, const struct cfs_domain *sd);
/* adjust_numa_imbalance() */
long cfs_numa_adjust_imbalance(long imbalance, int dst_running, int imb_numa_nr);

#endif
