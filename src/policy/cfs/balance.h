/*
 * cfs/balance.h - what the load balancer's two files share (private to
 * cfs/): a balance's environment (6.12's struct lb_env), the domain's
 * balance interval, and the two tests the periodic balance makes before it
 * gathers any statistics.  cfs/busiest.c finds the busiest group and queue
 * and how much to move; cfs/balance.c moves it and decides when to
 * balance.
 */
#ifndef SL_POLICY_CFS_BALANCE_H
#define SL_POLICY_CFS_BALANCE_H

#include "policy/cfs/cfs.h"

enum cfs_migration_type {
	CFS_MIGRATE_LOAD,
	CFS_MIGRATE_UTIL,
	CFS_MIGRATE_TASK,
};

/* enum fbq_type: which runqueues a NUMA balance may take from. */
enum cfs_fbq_type {
	CFS_FBQ_REGULAR,	/* tasks without a preferred node */
	CFS_FBQ_REMOTE,		/* tasks away from their preferred node */
	CFS_FBQ_ALL,
};

struct cfs_lb_env {
	struct cfs_domain *sd;
	int dst_cpu, src_cpu;
	struct cfs_rq *dst_rq, *src_rq;
	enum cfs_idle idle;
	long imbalance;
	enum cfs_migration_type migration_type;
	enum cfs_fbq_type fbq_type;
	int loop, loop_max;
	bool active;		/* LBF_ACTIVE_LB */
	long looked;		/* CPUs and tasks examined: the cost */
	/* Affinity (can_migrate_task's flags): */
	const struct cfs_group *dst_grp;	/* dst_grpmask: this CPU's group */
	bool some_pinned;	/* LBF_SOME_PINNED: a task could not come to dst_cpu */
	bool all_pinned;	/* LBF_ALL_PINNED: none of the busiest queue's could */
	bool dst_pinned;	/* LBF_DST_PINNED: one could go to new_dst_cpu instead */
	int new_dst_cpu;
	/* env->cpus (load_balance_mask): the domain's CPUs less those whose
	 * tasks were all pinned; `*cpus` is valid only once `trimmed`.  A
	 * pointer to the caller's uninitialised mask, not a member: the
	 * initialiser of env zeroed the 128-byte mask at every balance (an
	 * idle CPU's every due domain), when the rare balance that trims it
	 * fills it first (with cfs_balance_interval's test inline, 5 % of
	 * xeon-2s-smt javabench's instructions). */
	bool trimmed;
	sl_cpumask *cpus;
};


/* Whether env->cpus still holds `cpu`. */
static inline bool cfs_env_has(const struct cfs_lb_env *env, int cpu)
{
	return !env->trimmed || sl_cpumask_test(env->cpus, cpu);
}

/* The domain's balance interval in jiffies, idle or busy (cfs_balance_init
 * and the back-off keep it). */
static inline __attribute__((always_inline)) uint64_t
cfs_balance_interval(const struct cfs_domain *sd, bool busy)
{
	return sd->ivl_j[busy];
}

/*
 * SIS_UTIL: whether a periodic (not newly-idle) balance of this LLC domain
 * by rq's CPU updates the bound of wakeup searches there
 * (update_idle_cpu_scan(), cfs/busiest.c).
 */
static inline bool cfs_updates_idle_cpu_scan_of(const struct cfs *s, const struct cfs_rq *rq,
						const struct cfs_domain *sd, enum cfs_idle idle)
{
	return s->sis_util && idle != CFS_NEWLY_IDLE && rq->sd_llc >= 0 &&
	       sd->span->weight == rq->llc_size;
}

/*
 * Whether no group of the domain but the local one has a task: then
 * cfs_pick_busiest takes none (a group without tasks never is), and the
 * statistics' only trace is the count of CPUs they looked at, the whole
 * span (its groups partition it: cfs_span_get).  Stops at the first CPU
 * with a task.  Always inlined, as cfs_lb_back_off (balance.c): the quiet
 * balance of an idle CPU's SMT level (cfs_load_balance_quiet) calls both,
 * 1.5 million times in xeon-2s-smt javabench:size=200, and around the
 * two calls cfs_balance_domains spilled and reloaded its loop's
 * registers (1,045.3 -> 975.2 M instructions for that run).
 */
static inline __attribute__((always_inline)) bool
cfs_only_local_busy_in(struct cfs *s, const struct cfs_domain *sd)
{
	const struct cfs_span *sp = sd->span;

	if (s->gsum_on) {
		/* With the groups' sums kept (cfs/gsum.c), a word of the
		 * flushed no_fair mask answers for 64 CPUs: the domain's
		 * CPUs outside the local group that have a fair task.  The
		 * flush is the one the next read of the sums would make,
		 * earlier: same sums. */
		const sl_cpumask *local = &sp->groups[sd->local].span;
		cfs_gsum_flush(s);
		/* only the span's words: the others of sp->cpus are 0 (on
		 * 1,024 CPUs an SMT or LLC level is one word of 16) */
		for (int wi = sp->w_first; wi <= sp->w_last; wi++)
			if (sp->cpus.w[wi] & ~local->w[wi] & ~s->no_fair.w[wi])
				return false;
		return true;
	}
	for (int k = 0; k < sp->ngroups; k++) {
		if (k == sd->local)
			continue;
		cfs_for_each_group_cpu(c, &sp->groups[k])
			if (s->rq[c].nr_running)
				return false;
	}
	return true;
}

/* update_sd_lb_stats(), then the decisions of sched_balance_find_src_group():
 * the busiest group to take from, with env's migration type and imbalance
 * set, or NULL when the domain is balanced (cfs/busiest.c). */
const struct cfs_group *cfs_find_busiest_group(struct cfs *s, struct cfs_lb_env *env);
/* sched_balance_find_src_rq(): the busiest queue of group g for env's
 * migration type, or NULL. */
struct cfs_rq *cfs_find_busiest_queue(struct cfs *s, struct cfs_lb_env *env,
				      const struct cfs_group *g);

#endif
