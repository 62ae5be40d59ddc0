/*
 * cfs/fair.c - fair queuing by virtual runtime: weights by nice, vruntime
 * and EEVDF lag accounting, placement of new and woken tasks, the pick
 * (EEVDF's earliest eligible virtual deadline, or CFS's leftmost vruntime),
 * preemption at the tick and at wakeup, yield, and moving a task between
 * runqueues.
 *
 * Sources: Linux kernel/sched/core.c (sched_prio_to_weight, ttwu_runnable,
 * pick_next_task / put_prev_set_next_task), features.h and fair.c of 6.12
 * (update_curr, update_deadline, avg_vruntime, entity_eligible,
 * update_entity_lag, place_entity with PLACE_LAG, PLACE_DEADLINE_INITIAL
 * and PLACE_REL_DEADLINE, dequeue_entity and pick_next_entity with
 * DELAY_DEQUEUE, finish_delayed_dequeue_entity and requeue_delayed_entity
 * with DELAY_ZERO, pick_eevdf with RUN_TO_PARITY, did_preempt_short and
 * do_preempt_short (PREEMPT_SHORT), set_next_entity's stash of the
 * deadline, check_preempt_wakeup_fair, yield_task_fair,
 * update_min_vruntime, reweight_entity; check_preempt_wakeup_fair's
 * SCHED_BATCH / SCHED_IDLE rules and WEIGHT_IDLEPRIO from core.c
 * set_load_weight), syscalls.c (sched_runtime clamped to
 * 0.1..100 ms as a custom slice); of 6.1-6.5 for pick=cfs (sched_slice,
 * __sched_period, place_entity with START_DEBIT and GENTLE_FAIR_SLEEPERS,
 * check_preempt_tick, wakeup_preempt_entity, the skip buddy, vruntime
 * normalisation by min_vruntime when a task changes runqueue);
 * sched_tunable_scaling (the factor is applied in cfs/cfs.c).
 *
 * Omitted / simplified:
 *   - Group scheduling (task groups, autogroup, cgroup weights, bandwidth):
 *     every task is its own entity on its CPU's root runqueue.
 *   - EEVDF: the deadline-sorted tree of 6.8 (same picks, other layout).
 *     Custom slices come from the custom_slice knob (by task name)
 *     instead of sched_setattr.
 *   - DELAY_DEQUEUE as in 6.12: a delayed task still counts in
 *     nr_running, load and PELT, the load balancer may move it, and
 *     its wakeup requeues it where it is (ttwu_runnable) without a
 *     select_task_rq; no h_nr_delayed bookkeeping (later kernels).
 *   - Buddies: NEXT_BUDDY is off by default in both pick rules; the CFS
 *     LAST_BUDDY (a preempted task favoured to run again) is omitted, only
 *     the skip buddy of yield is kept.
 *   - pick=cfs: the 6.0-6.5 "long sleeper" reset of vruntime after 60 s;
 *     child_runs_first (off by default).
 *   - The weight arithmetic divides exactly (delta * 1024 / weight) where
 *     the kernel multiplies by a 32-bit inverse (sched_prio_to_wmult): the
 *     results differ by at most a nanosecond per update.
 *   - HRTICK (off by default): slices end at the tick, or at a wakeup
 *     that finds the running task past its deadline.
 */
#include "policy/cfs/cfs.h"
#include "sim/sim.h"

/* kernel/sched/core.c: nice -20..19, 1024 at 0, each step ~1.25x. */
static const long cfs_prio_to_weight[40] = {
	/* -20 */ 88761, 71755, 56483, 46273, 36291,
	/* -15 */ 29154, 23254, 18705, 14949, 11916,
	/* -10 */ 9548, 7620, 6100, 4904, 3906,
	/*  -5 */ 3121, 2501, 1991, 1586, 1277,
	/*   0 */ 1024, 820, 655, 526, 423,
	/*   5 */ 335, 272, 215, 172, 137,
	/*  10 */ 110, 87, 70, 56, 45,
	/*  15 */ 36, 29, 23, 18, 15,
};

long cfs_nice_to_weight(int nice)
{
	if (nice < -20)
		nice = -20;
	if (nice > 19)
		nice = 19;
	return cfs_prio_to_weight[nice + 20];
}

/* calc_delta_fair(): real ns to virtual ns of a task of this weight. */
int64_t cfs_delta_fair(sl_time delta, long weight)
{
	if (weight == CFS_NICE_0_LOAD)
		return delta;
	return delta * CFS_NICE_0_LOAD / weight;
}

/* SCHED_IDLE's weight (WEIGHT_IDLEPRIO, core.c set_load_weight). */
#define CFS_WEIGHT_IDLEPRIO 3

long cfs_task_weight(const struct sl_task *t)
{
	return t->sched_policy == SL_SCHED_IDLE ? CFS_WEIGHT_IDLEPRIO : cfs_nice_to_weight(t->nice);
}

/* ---- the weighted average of vruntimes (EEVDF's V) ---- */

static void cfs_avg_add(struct cfs_rq *rq, const struct cfs_entity *se)
{
	rq->avg_vruntime += (se->vruntime - rq->min_vruntime) * se->weight;
	rq->avg_load += se->weight;
}

static void cfs_avg_sub(struct cfs_rq *rq, const struct cfs_entity *se)
{
	rq->avg_vruntime -= (se->vruntime - rq->min_vruntime) * se->weight;
	rq->avg_load -= se->weight;
}

static void cfs_eligible_of(const struct cfs_rq *rq, struct cfs_eligible *el)
{
	const struct cfs_entity *curr = rq->curr;

	el->zero = rq->min_vruntime;
	el->avg = rq->avg_vruntime;
	el->load = rq->avg_load;
	if (curr) {
		el->avg += (curr->vruntime - rq->min_vruntime) * curr->weight;
		el->load += curr->weight;
	}
}

/* avg_vruntime(): V, rounded down. */
int64_t cfs_avg_vruntime(const struct cfs_rq *rq)
{
	struct cfs_eligible el;

	cfs_eligible_of(rq, &el);
	int64_t avg = el.avg;
	if (el.load) {
		if (avg < 0)
			avg -= el.load - 1;
		avg /= el.load;
	}
	return rq->min_vruntime + avg;
}

/* min_vruntime only moves forward; the average is kept relative to it. */
static void cfs_update_min_vruntime(struct cfs_rq *rq)
{
	const struct cfs_entity *left = cfs_tl_first(&rq->tl), *curr = rq->curr;
	int64_t v = rq->min_vruntime;

	if (curr)
		v = curr->vruntime;
	if (left)
		v = curr && curr->vruntime < left->vruntime ? curr->vruntime : left->vruntime;
	if (v > rq->min_vruntime) {
		rq->avg_vruntime -= rq->avg_load * (v - rq->min_vruntime);
		rq->min_vruntime = v;
	}
}

/* ---- slices ---- */

/* __sched_period(): sched_latency, stretched beyond sched_nr_latency tasks. */
static sl_time cfs_sched_period(const struct cfs *s, int nr)
{
	return nr > s->nr_latency ? nr * s->min_gran : s->latency;
}

/* sched_slice(): the weight's share of the period, at least min_gran. */
static sl_time cfs_sched_slice(const struct cfs *s, const struct cfs_rq *rq,
			       const struct cfs_entity *se)
{
	int nr = rq->nr_running + !se->on_rq;
	long load = rq->load + (se->on_rq ? 0 : se->weight);
	sl_time slice = cfs_sched_period(s, nr) * se->weight / (load ? load : 1);

	return slice > s->min_gran ? slice : s->min_gran;
}

/* ---- accounting of the running task ---- */

/* update_deadline(): a consumed request gets a new one and yields. */
static bool cfs_update_deadline(struct cfs *s, struct cfs_entity *se)
{
	if (se->vruntime < se->deadline)
		return false;
	if (!se->custom_slice)
		se->slice = s->base_slice;
	se->deadline = se->vruntime + cfs_delta_fair(se->slice, se->weight);
	se->protect = false;
	return true;
}

bool cfs_entity_eligible(const struct cfs_rq *rq, const struct cfs_entity *se)
{
	struct cfs_eligible el;

	cfs_eligible_of(rq, &el);
	return cfs_tl_eligible(&el, se->vruntime);
}

/* did_preempt_short(): a shorter-slice wakeup took curr's protection
 * away; curr then goes as soon as it is no longer eligible. */
static bool cfs_did_preempt_short(const struct cfs *s, const struct cfs_rq *rq,
				  const struct cfs_entity *curr)
{
	if (!s->preempt_short || curr->protect)
		return false;
	return !cfs_entity_eligible(rq, curr);
}

void cfs_update_curr(struct cfs *s, struct cfs_rq *rq)
{
	struct cfs_entity *curr = rq->curr;

	if (!curr)
		return;
	sl_time now = sl_now(s->sim);
	sl_time delta = now - curr->exec_start;
	if (delta <= 0)
		return;
	curr->exec_start = now;
	curr->sum_exec += delta;
	curr->vruntime += cfs_delta_fair(delta, curr->weight);
	bool resched = s->pick == CFS_PICK_EEVDF && cfs_update_deadline(s, curr);
	cfs_update_min_vruntime(rq);
	if (s->pick == CFS_PICK_EEVDF && rq->nr_running > 1 &&
	    (resched || cfs_did_preempt_short(s, rq, curr)))
		sl_resched(s->sim, rq->cpu);
}

/* ---- placement ---- */

/* EEVDF place_entity(): at V minus the lag it left with, inflated for the
 * weight it adds; a new task starts half a slice from its deadline. */
static void cfs_place_eevdf(struct cfs *s, struct cfs_rq *rq, struct cfs_entity *se,
			    unsigned flags)
{
	int64_t v = cfs_avg_vruntime(rq), lag = 0;

	if (!se->custom_slice)
		se->slice = s->base_slice;
	int64_t vslice = cfs_delta_fair(se->slice, se->weight);
	if (rq->nr_running) {
		long load = rq->avg_load + (rq->curr ? rq->curr->weight : 0);
		lag = se->vlag * (load + se->weight);
		lag /= load ? load : 1;
	}
	se->vruntime = v - lag;
	if (se->rel_deadline) {
		/* PLACE_REL_DEADLINE: a move keeps what was left of the request */
		se->deadline += se->vruntime;
		se->rel_deadline = false;
		return;
	}
	if (flags & CFS_ENQ_INITIAL)
		vslice /= 2;
	se->deadline = se->vruntime + vslice;
}

/* update_entity_lag(): V - v, clamped to about two slices of its own. */
static void cfs_update_lag(struct cfs *s, struct cfs_rq *rq, struct cfs_entity *se)
{
	sl_time span = 2 * se->slice > s->tick_ns ? 2 * se->slice : s->tick_ns;
	int64_t limit = cfs_delta_fair(span, se->weight);
	int64_t lag = cfs_avg_vruntime(rq) - se->vruntime;

	se->vlag = lag < -limit ? -limit : lag > limit ? limit : lag;
}

/* CFS place_entity() for a wakeup: sleeps up to half a latency count. */
static void cfs_place_sleeper(struct cfs *s, struct cfs_rq *rq, struct cfs_entity *se)
{
	int64_t v = rq->min_vruntime - s->latency / 2;	/* GENTLE_FAIR_SLEEPERS */

	if (se->vruntime < v)
		se->vruntime = v;
}

/*
 * task_fork_fair().  EEVDF: no lag yet, placed at enqueue.  CFS: the
 * parent's vruntime, but at least one slice after min_vruntime
 * (START_DEBIT), kept relative to min_vruntime until it is enqueued.
 */
void cfs_place_new(struct cfs *s, struct cfs_rq *parent_rq, struct cfs_entity *se)
{
	se->vlag = 0;
	if (!se->custom_slice)
		se->slice = s->base_slice;
	if (s->pick == CFS_PICK_EEVDF)
		return;
	int64_t start = parent_rq->min_vruntime +
			cfs_delta_fair(cfs_sched_slice(s, parent_rq, se), se->weight);
	int64_t v = parent_rq->curr ? parent_rq->curr->vruntime : start;
	se->vruntime = (v > start ? v : start) - parent_rq->min_vruntime;
}

/* ---- runqueue membership ---- */

void cfs_enqueue(struct cfs *s, struct cfs_rq *rq, struct cfs_entity *se, unsigned flags)
{
	/* enqueue_task_fair(): a delayed task moved or re-weighted keeps out
	 * of util_est (it left at its sleep; its wakeup is
	 * cfs_requeue_delayed) */
	if (!se->delayed)
		cfs_util_est_enqueue(s, rq, se);
	cfs_update_curr(s, rq);
	cfs_pelt_rq(s, rq);
	/* a task that moved was brought to its old CPU's last update when it
	 * left and is attached as it is (migrate_task_rq_fair sets its
	 * last_update_time to 0, so update_load_avg does not age it) */
	if (!(flags & CFS_ENQ_MIGRATED))
		cfs_pelt_se(s, se);
	if (flags & (CFS_ENQ_INITIAL | CFS_ENQ_MIGRATED | CFS_ENQ_ATTACH)) {
		cfs_gsum_touch(s, rq);
		cfs_pelt_attach(rq, se);
	}

	if (s->pick == CFS_PICK_EEVDF) {
		cfs_place_eevdf(s, rq, se, flags);
	} else {
		/* a new or moved task carries a vruntime relative to min_vruntime */
		if (flags & (CFS_ENQ_INITIAL | CFS_ENQ_MIGRATED | CFS_ENQ_ATTACH))
			se->vruntime += rq->min_vruntime;
		if (flags & CFS_ENQ_WAKEUP)
			cfs_place_sleeper(s, rq, se);
	}

	/* a task that moved is no longer cache-hot (enqueue_entity:
	 * exec_start = 0 for ENQUEUE_MIGRATED; the kernel's clock started at
	 * boot, the simulated one at 0, so "long ago" is a horizon back) */
	if (flags & CFS_ENQ_MIGRATED)
		se->exec_start = -SL_TIME_HORIZON;
	se->on_rq = true;
	cfs_gsum_touch(s, rq);
	rq->nr_running++;
	cfs_nr_all_changed(s, cfs_nr_all(rq) - 1, cfs_nr_all(rq));
	rq->load += se->weight;
	cfs_avg_add(rq, se);
	cfs_tl_insert(&rq->tl, se);
	sl_dlist_push_front(&rq->cfs_tasks, &se->lru);
	cfs_numa_account(s, rq, se, 1);
	if (rq->nr_running == 1)
		cfs_rtbw_fair_queued(s, rq->cpu, true);
}

/*
 * dequeue_entity().  DELAY_DEQUEUE: a sleeper that is not eligible (it
 * has received more than its share) stays queued, competing, flagged
 * delayed, until it is picked (then it leaves, its lag clipped to zero by
 * DELAY_ZERO) or woken (cfs_requeue_delayed).  PLACE_REL_DEADLINE: a task
 * taken off to be moved, not to sleep, keeps its deadline relative to its
 * vruntime, so that it does not start a new request where it lands.
 */
bool cfs_dequeue(struct cfs *s, struct cfs_rq *rq, struct cfs_entity *se, unsigned flags)
{
	bool sleep = flags & CFS_DEQ_SLEEP;

	/* dequeue_task_fair(), before the entity's PELT update: the task's
	 * estimate leaves its CPU's, and a sleep samples its util_avg.  The
	 * final dequeue of a delayed task (at its pick) is dequeue_entities()
	 * alone: it left util_est when it went to sleep. */
	if (!(flags & CFS_DEQ_DELAYED)) {
		cfs_util_est_dequeue(s, rq, se);
		if (sleep)
			cfs_util_est_update(s, rq, se);
	}
	cfs_update_curr(s, rq);
	cfs_pelt_rq(s, rq);
	cfs_pelt_se(s, se);
	if (s->delay_dequeue && sleep && !(flags & (CFS_DEQ_DELAYED | CFS_DEQ_NODELAY)) &&
	    !cfs_entity_eligible(rq, se)) {
		se->delayed = true;
		return false;
	}
	if (s->pick == CFS_PICK_EEVDF) {
		cfs_update_lag(s, rq, se);
		if (s->rel_deadline && !sleep) {
			se->deadline -= se->vruntime;
			se->rel_deadline = true;
		}
	}

	if (rq->curr == se) {
		rq->curr = NULL;
	} else {
		cfs_tl_erase(&rq->tl, se);
		cfs_avg_sub(rq, se);
	}
	se->on_rq = false;
	se->protect = false;
	cfs_gsum_touch(s, rq);
	rq->nr_running--;
	cfs_nr_all_changed(s, cfs_nr_all(rq) + 1, cfs_nr_all(rq));
	rq->load -= se->weight;
	sl_dlist_del(&rq->cfs_tasks, &se->lru);
	cfs_numa_account(s, rq, se, -1);
	if (rq->nr_running == 0)
		cfs_rtbw_fair_queued(s, rq->cpu, false);
	if (rq->skip == se)
		rq->skip = NULL;

	if (flags & CFS_DEQ_MIGRATE) {
		cfs_gsum_touch(s, rq);
		cfs_pelt_detach(rq, se);
		if (s->pick == CFS_PICK_CFS)
			se->vruntime -= rq->min_vruntime;
	}
	cfs_update_min_vruntime(rq);
	if (flags & CFS_DEQ_DELAYED) {
		/* finish_delayed_dequeue_entity(): DELAY_ZERO */
		se->delayed = false;
		if (se->vlag > 0)
			se->vlag = 0;
	}
	return true;
}

/*
 * requeue_delayed_entity(): ttwu_runnable() found the woken task still
 * queued (delayed), on its old CPU: no select_task_rq, it just stops
 * being delayed.  DELAY_ZERO: if it has meanwhile become owed service,
 * it is placed afresh at V with zero lag instead of keeping that credit.
 * V is read with the running task's vruntime as its last update left it:
 * enqueue_task_fair(ENQUEUE_DELAYED) returns before enqueue_entity's
 * update_curr(), and the one in check_preempt_wakeup_fair comes after
 * (cfs.c, cfs_wakeup).
 */
void cfs_requeue_delayed(struct cfs *s, struct cfs_rq *rq, struct cfs_entity *se)
{
	cfs_util_est_enqueue(s, rq, se);	/* enqueue_task_fair(ENQUEUE_DELAYED) */
	cfs_pelt_rq(s, rq);
	cfs_pelt_se(s, se);
	cfs_update_lag(s, rq, se);
	if (se->vlag > 0) {
		bool queued = rq->curr != se;
		if (queued) {
			cfs_tl_erase(&rq->tl, se);
			cfs_avg_sub(rq, se);
		}
		se->vlag = 0;
		rq->nr_running--;
		cfs_place_eevdf(s, rq, se, 0);
		rq->nr_running++;
		if (queued) {
			cfs_avg_add(rq, se);
			cfs_tl_insert(&rq->tl, se);
		}
	}
	se->delayed = false;
}

/* put_prev_entity(): the running task goes back into the tree. */
void cfs_put_prev(struct cfs *s, struct cfs_rq *rq)
{
	struct cfs_entity *curr = rq->curr;

	if (!curr)
		return;
	cfs_update_curr(s, rq);
	cfs_pelt_rq(s, rq);
	cfs_pelt_se(s, curr);
	rq->curr = NULL;
	cfs_avg_add(rq, curr);
	cfs_tl_insert(&rq->tl, curr);
}

/*
 * set_next_entity(): out of the tree, most recently used, and (EEVDF)
 * protected by RUN_TO_PARITY until its deadline moves.  The kernel does
 * not call it when schedule() picks the task that was running
 * (pick_next_task_fair: prev == p), so a task that keeps the CPU after
 * its request ended stays unprotected: `again` says so.
 */
void cfs_set_next(struct cfs *s, struct cfs_rq *rq, struct cfs_entity *se, bool again)
{
	cfs_pelt_rq(s, rq);
	cfs_pelt_se(s, se);
	cfs_tl_erase(&rq->tl, se);
	cfs_avg_sub(rq, se);
	rq->curr = se;
	se->exec_start = sl_now(s->sim);
	if (again)
		return;
	se->prev_sum_exec = se->sum_exec;
	se->protect = true;
	sl_dlist_del(&rq->cfs_tasks, &se->lru);
	sl_dlist_push_front(&rq->cfs_tasks, &se->lru);
}

/* ---- picking ---- */

/* pick_eevdf(): the eligible entity with the earliest deadline, the
 * running one included; it keeps the CPU through its first slice. */
static struct cfs_entity *cfs_pick_eevdf(struct cfs *s, struct cfs_rq *rq)
{
	struct cfs_entity *curr = rq->curr, *first = cfs_tl_first(&rq->tl);

	if (rq->nr_running == 1)
		return curr ? curr : first;
	struct cfs_eligible el;
	cfs_eligible_of(rq, &el);
	if (curr && !cfs_tl_eligible(&el, curr->vruntime))
		curr = NULL;
	if (s->run_to_parity && curr && curr->protect)
		return curr;
	struct cfs_entity *best = cfs_tl_pick_eevdf(&rq->tl, &el);
	if (!best || (curr && curr->deadline < best->deadline))
		best = curr;
	/* rounding can leave nothing eligible: the leftmost is closest */
	return best ? best : first;
}

/* wakeup_preempt_entity(): 1 if se is ahead of curr by more than the
 * wakeup granularity (in se's virtual time), -1 if not ahead at all. */
static int cfs_wakeup_preempt_entity(const struct cfs *s, const struct cfs_entity *curr,
				     const struct cfs_entity *se)
{
	int64_t vdiff = curr->vruntime - se->vruntime;

	if (vdiff <= 0)
		return -1;
	return vdiff > cfs_delta_fair(s->wakeup_gran, se->weight) ? 1 : 0;
}

/* pick_next_entity() of CFS: the leftmost, unless it yielded and the
 * next one is not too far behind. */
static struct cfs_entity *cfs_pick_leftmost(struct cfs *s, struct cfs_rq *rq)
{
	struct cfs_entity *left = cfs_tl_first(&rq->tl), *se = left;

	if (rq->curr && (!left || rq->curr->vruntime < left->vruntime))
		se = left = rq->curr;
	if (rq->skip && rq->skip == se) {
		struct cfs_entity *second = se == rq->curr ? cfs_tl_first(&rq->tl) :
					     cfs_tl_next(se);
		if (second && rq->curr && se != rq->curr && rq->curr->vruntime < second->vruntime)
			second = rq->curr;
		if (second && cfs_wakeup_preempt_entity(s, second, left) < 1)
			se = second;
	}
	rq->skip = NULL;
	return se;
}

struct cfs_entity *cfs_pick_entity(struct cfs *s, struct cfs_rq *rq)
{
	return s->pick == CFS_PICK_EEVDF ? cfs_pick_eevdf(s, rq) : cfs_pick_leftmost(s, rq);
}

/* ---- preemption ---- */

/* do_preempt_short(): se asks for a shorter slice than curr and is
 * eligible, and either its deadline is earlier or curr is not eligible. */
static bool cfs_do_preempt_short(const struct cfs *s, const struct cfs_rq *rq,
				 const struct cfs_entity *se, const struct cfs_entity *curr)
{
	if (!s->preempt_short || se->slice >= curr->slice || !cfs_entity_eligible(rq, se))
		return false;
	if (se->deadline < curr->deadline)
		return true;
	return !cfs_entity_eligible(rq, curr);
}

/*
 * check_preempt_wakeup_fair() (and check_preempt_curr for forks and
 * pulled tasks): se was just queued on rq.  An idle CPU is woken; a
 * running task is preempted if EEVDF would now pick se, or (CFS) if se is
 * ahead of it by more than the wakeup granularity.
 */
void cfs_check_preempt(struct cfs *s, struct cfs_rq *rq, struct cfs_entity *se)
{
	struct cfs_entity *curr = rq->curr;
	int cpu = rq->cpu;

	if (!curr) {
		/* the migration thread reschedules when it is done */
		if (sl_cpu_idle(s->sim, cpu))
			sl_resched(s->sim, cpu);
		return;
	}
	if (curr == se || sl_need_resched(s->sim, cpu))
		return;
	/* SCHED_IDLE: a non-idle task preempts an idle one at once, and an
	 * idle one never preempts; BATCH and IDLE never preempt on wakeup */
	bool curr_idle = curr->policy == SL_SCHED_IDLE, se_idle = se->policy == SL_SCHED_IDLE;
	if (curr_idle && !se_idle) {
		sl_resched(s->sim, cpu);
		return;
	}
	if (curr_idle != se_idle || se->policy != SL_SCHED_NORMAL)
		return;
	cfs_update_curr(s, rq);
	if (sl_need_resched(s->sim, cpu))
		return;
	if (s->pick == CFS_PICK_EEVDF) {
		/* PREEMPT_SHORT: a shorter request cancels curr's RUN_TO_PARITY */
		if (cfs_do_preempt_short(s, rq, se, curr))
			curr->protect = false;
		if (cfs_pick_eevdf(s, rq) == se)
			sl_resched(s->sim, cpu);
	} else if (cfs_wakeup_preempt_entity(s, curr, se) == 1) {
		sl_resched(s->sim, cpu);
	}
}

/* check_preempt_tick(): CFS ends a slice at the tick. */
static void cfs_check_preempt_tick(struct cfs *s, struct cfs_rq *rq, struct cfs_entity *curr)
{
	sl_time ideal = cfs_sched_slice(s, rq, curr);
	sl_time ran = curr->sum_exec - curr->prev_sum_exec;

	if (ran > ideal) {
		sl_resched(s->sim, rq->cpu);
		return;
	}
	if (ran < s->min_gran)
		return;
	const struct cfs_entity *left = cfs_tl_first(&rq->tl);
	if (left && curr->vruntime - left->vruntime > ideal)
		sl_resched(s->sim, rq->cpu);
}

/* entity_tick(): account; EEVDF resched'd in update_deadline already. */
void cfs_task_tick(struct cfs *s, struct cfs_rq *rq)
{
	struct cfs_entity *curr = rq->curr;

	if (!curr)
		return;
	cfs_update_curr(s, rq);
	cfs_pelt_rq(s, rq);
	cfs_pelt_se(s, curr);
	if (s->pick == CFS_PICK_CFS && rq->nr_running > 1)
		cfs_check_preempt_tick(s, rq, curr);
}

/* yield_task_fair(): EEVDF pushes the deadline one slice out; CFS marks
 * the skip buddy. */
void cfs_yield(struct cfs *s, struct cfs_rq *rq)
{
	struct cfs_entity *curr = rq->curr;

	if (!curr || rq->nr_running == 1)
		return;
	cfs_update_curr(s, rq);
	if (s->pick == CFS_PICK_EEVDF) {
		curr->deadline += cfs_delta_fair(curr->slice, curr->weight);
		curr->protect = false;
	} else {
		rq->skip = curr;
	}
}

/* ---- a new weight (nice or SCHED_IDLE) ---- */

/*
 * reweight_entity() as set_user_nice / __sched_setscheduler reach it:
 * 6.12 dequeues the task (DEQUEUE_SAVE) first, so the entity is off the
 * queue and only its lag is scaled, lag_i = w_i * (V - v_i) being what is
 * kept (vlag * w / w'); it is then placed again with that lag (and,
 * PLACE_REL_DEADLINE, what was left of its request).  pick=cfs (6.5):
 * vruntime is kept, only the weight changes.  A running task is put back
 * and set as next again, which starts a new RUN_TO_PARITY protection.
 */
void cfs_reweight(struct cfs *s, struct cfs_entity *se, long weight)
{
	struct cfs_rq *rq = &s->rq[se->cpu];
	bool queued = se->on_rq, running = queued && rq->curr == se;

	if (weight == se->weight)
		return;
	if (queued)
		cfs_dequeue(s, rq, se, 0);
	if (s->pick == CFS_PICK_EEVDF)
		se->vlag = se->vlag * se->weight / weight;
	/* its CPU's load moves to the new weight now, not as PELT decays
	 * (a sleeping task's blocked share too) */
	cfs_pelt_reweight(rq, se, weight);
	se->weight = weight;
	if (!queued)
		return;
	cfs_enqueue(s, rq, se, 0);
	if (running)
		cfs_set_next(s, rq, se, false);
}

/* ---- changing runqueue ---- */

/* detach_task() + attach_task(): se is queued on its CPU, not running. */
void cfs_move_queued(struct cfs *s, struct cfs_entity *se, int dst_cpu)
{
	struct cfs_rq *src = &s->rq[se->cpu], *dst = &s->rq[dst_cpu];

	cfs_dequeue(s, src, se, CFS_DEQ_MIGRATE);
	sl_note_migration(s->sim, se->task, src->cpu, dst_cpu);
	se->cpu = dst_cpu;
	cfs_enqueue(s, dst, se, CFS_ENQ_MIGRATED);
	cfs_check_preempt(s, dst, se);
}

/* migrate_task_rq_fair() for a waking task: its blocked load leaves the
 * old runqueue (CFS: so does min_vruntime from its vruntime). */
void cfs_move_sleeping(struct cfs *s, struct cfs_entity *se, int dst_cpu)
{
	struct cfs_rq *src = &s->rq[se->cpu];

	cfs_pelt_remove(s, src, se);
	if (s->pick == CFS_PICK_CFS)
		se->vruntime -= src->min_vruntime;
	sl_note_migration(s->sim, se->task, src->cpu, dst_cpu);
	se->cpu = dst_cpu;
}
