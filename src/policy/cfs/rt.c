/*
 * cfs/rt.c - the real-time class of policy `cfs` (rt_sched_class):
 * SCHED_FIFO and SCHED_RR tasks with rt_priority 1..99 on per-CPU
 * runqueues of 100 priority lists and a bitmap, always above the fair
 * class on their CPU; RR's round robin at sched_rr_timeslice; wakeup
 * preemption; placement of a waking RT task on the CPU running the lowest
 * priority (cpupri / find_lowest_rq); push of queued RT tasks to such a
 * CPU and pull of them by a CPU whose priority drops.
 *
 * Sources: Linux 6.12 kernel/sched/rt.c (enqueue_rt_entity with its
 * prio array and bitmap, requeue_task_rt, pick_next_rt_entity,
 * task_tick_rt and the RR timeslice, yield_task_rt, wakeup_preempt_rt,
 * select_task_rq_rt, find_lowest_rq, push_rt_task / push_rt_tasks,
 * pull_rt_task, task_woken_rt, balance_rt and need_pull_rt_task,
 * rt_set_overload / rt_overloaded), cpupri.c (convert_prio: an idle CPU
 * and a CPU running fair tasks are both CPUPRI_NORMAL, below RT1),
 * core.c (sched_rr_timeslice = RR_TIMESLICE = HZ / 10 ticks, 100 ms).
 * What keeps RT from starving the fair tasks is in cfs/rt_bw.c.
 *
 * Omitted / simplified (docs/policies/cfs.md, "RT, BATCH, IDLE and live
 * changes"):
 *   - One RT runqueue per CPU, no RT group scheduling (6.12's default
 *     CONFIG_RT_GROUP_SCHED=n), no priority inheritance (no rt_mutex).
 *   - cpupri is computed by a scan of the allowed CPUs (the kernel keeps
 *     a two-level bitmap); the same CPUs come out.
 *   - RT_PUSH_IPI (the pull asks the overloaded CPU to push instead of
 *     taking its lock): a pull here takes the task directly, as with
 *     RT_PUSH_IPI off.
 *   - push_rt_task and pull_rt_task resched the CPU they moved a task to
 *     outright; here it reschedules if the task outranks what runs there,
 *     which it does (the push chose a CPU running lower, the pull a task
 *     better than the CPU's own) unless the fair server is serving it.
 *   - Capacity fitness (uclamp, asymmetric CPUs): every CPU fits.
 *
 * RT's own average (rq->avg_rt, cfs_pelt_rt) is brought up to date at
 * the put, pick and tick of an RT task, as 6.12's put_prev_task_rt,
 * set_next_task_rt and task_tick_rt do; cfs/capacity.c takes it off the
 * fair class's capacity.
 */
#include "policy/cfs/cfs.h"
#include "sim/sim.h"

/* ---- the priority lists ---- */

static void cfs_rt_bit(struct cfs_rt_rq *rt, int prio, bool on)
{
	uint64_t m = 1ULL << (prio & 63);

	if (on)
		rt->bitmap[prio >> 6] |= m;
	else
		rt->bitmap[prio >> 6] &= ~m;
}

/* sched_find_first_bit(): the best non-empty list, or CFS_RT_PRIOS. */
static int cfs_rt_best(const struct cfs_rt_rq *rt)
{
	if (rt->bitmap[0])
		return __builtin_ctzll(rt->bitmap[0]);
	if (rt->bitmap[1])
		return 64 + __builtin_ctzll(rt->bitmap[1]);
	return CFS_RT_PRIOS;
}

static void cfs_rt_overload_update(struct cfs *s, struct cfs_rt_rq *rt, int before)
{
	s->nr_rt_overloaded += (rt->nr_running >= 2) - (before >= 2);
}

/* enqueue_rt_entity(): at the tail of its list (head: ENQUEUE_HEAD). */
void cfs_rt_enqueue(struct cfs *s, struct cfs_entity *se, bool head)
{
	struct cfs_rt_rq *rt = &s->rq[se->cpu].rt;
	int p = se->rt_prio;

	if (!rt->queue[p].head)
		cfs_rt_bit(rt, p, true);
	if (head)
		sl_dlist_push_front(&rt->queue[p], &se->rt_link);
	else
		sl_dlist_push_back(&rt->queue[p], &se->rt_link);
	se->rt_queued = true;
	s->rt_seen = true;
	if (se != rt->curr)	/* enqueue_task_rt -> enqueue_pushable_task */
		se->rt_pushable_at = ++s->rt_pushable_seq;
	cfs_gsum_touch(s, &s->rq[se->cpu]);
	int nr_all = cfs_nr_all(&s->rq[se->cpu]);
	rt->nr_running++;
	cfs_nr_all_changed(s, nr_all, cfs_nr_all(&s->rq[se->cpu]));
	cfs_rt_overload_update(s, rt, rt->nr_running - 1);
}

void cfs_rt_dequeue(struct cfs *s, struct cfs_entity *se)
{
	struct cfs_rt_rq *rt = &s->rq[se->cpu].rt;
	int p = se->rt_prio;

	sl_dlist_del(&rt->queue[p], &se->rt_link);
	if (!rt->queue[p].head)
		cfs_rt_bit(rt, p, false);
	se->rt_queued = false;
	cfs_gsum_touch(s, &s->rq[se->cpu]);
	int nr_all = cfs_nr_all(&s->rq[se->cpu]);
	rt->nr_running--;
	cfs_nr_all_changed(s, nr_all, cfs_nr_all(&s->rq[se->cpu]));
	cfs_rt_overload_update(s, rt, rt->nr_running + 1);
}

/* requeue_task_rt(): to the tail (or head) of its list (RR slice over,
 * yield, an equal priority's displacement); the pushable order is not
 * touched (it moves only run_list). */
static void cfs_rt_requeue(struct cfs *s, struct cfs_entity *se, bool head)
{
	uint64_t pushable_at = se->rt_pushable_at;

	cfs_rt_dequeue(s, se);
	cfs_rt_enqueue(s, se, head);
	se->rt_pushable_at = pushable_at;
}

struct cfs_entity *cfs_rt_first(const struct cfs *s, int cpu)
{
	const struct cfs_rt_rq *rt = &s->rq[cpu].rt;
	int p = cfs_rt_best(rt);

	return p < CFS_RT_PRIOS ? cfs_rt_entry(rt->queue[p].head) : NULL;
}

/* cpupri of a CPU: CPUPRI_NORMAL (0) without RT tasks, else the
 * rt_priority of its best (rt.highest_prio.curr, the running one counted). */
int cfs_rt_cpupri(const struct cfs *s, int cpu)
{
	int p = cfs_rt_best(&s->rq[cpu].rt);

	return p < CFS_RT_PRIOS ? SL_RT_PRIO_MAX - p : 0;
}

/* ---- preemption ---- */

/* The CPU's running task, as the RT class sees it: an RT one, or none
 * (idle, fair: both below any RT task). */
static const struct cfs_entity *cfs_rt_running(const struct cfs *s, int cpu)
{
	return s->rq[cpu].rt.curr;
}

/* cpupri_find(): some CPU the task may run on runs a lower priority. */
static bool cfs_rt_lower_somewhere(const struct cfs *s, const struct cfs_entity *se)
{
	int prio = SL_RT_PRIO_MAX - se->rt_prio;

	sl_for_each_cpu_in(c, &se->task->allowed, 0, s->ncpus)
		if (cfs_rt_cpupri(s, c) < prio)
			return true;
	return false;
}

/* Whether a task just queued on se's CPU is compared with what runs
 * there: not while a reschedule is already due there (the kernel's
 * test_tsk_need_resched), RT is throttled there, or se is what runs. */
static bool cfs_rt_preempt_applies(const struct cfs *s, const struct cfs_entity *se)
{
	return !sl_need_resched(s->sim, se->cpu) && !cfs_rtbw_rt_throttled(s, se->cpu) &&
	       cfs_rt_running(s, se->cpu) != se;
}

/* An RT task outranks a fair one (a class above it: wakeup_preempt()
 * resched's when the classes differ) unless the fair server is serving
 * the CPU, and a lower-priority RT one; an equal priority does not. */
static bool cfs_rt_outranks(struct cfs *s, const struct cfs_entity *se)
{
	const struct cfs_entity *curr = cfs_rt_running(s, se->cpu);

	return curr ? se->rt_prio < curr->rt_prio : !cfs_rtbw_fair_first(s, se->cpu);
}

void cfs_rt_check_preempt(struct cfs *s, struct cfs_entity *se)
{
	if (cfs_rt_preempt_applies(s, se) && cfs_rt_outranks(s, se))
		sl_resched(s->sim, se->cpu);
}

/*
 * wakeup_preempt_rt() for a woken or new task, or one move_queued_task()
 * moved (set_cpus_allowed, the migration thread): as above, and at an equal
 * priority, if the woken task can run nowhere else and the running one
 * could (check_preempt_equal_prio), the woken one goes to the head of its
 * list and the CPU reschedules, so that it runs and the other is pushed.
 */
void cfs_rt_wakeup_preempt(struct cfs *s, struct cfs_entity *se)
{
	const struct cfs_entity *curr = cfs_rt_running(s, se->cpu);

	if (!cfs_rt_preempt_applies(s, se))
		return;
	if (cfs_rt_outranks(s, se)) {
		sl_resched(s->sim, se->cpu);
		return;
	}
	if (!curr || se->rt_prio != curr->rt_prio ||
	    sl_cpumask_at_most_one(&curr->task->allowed) || !cfs_rt_lower_somewhere(s, curr))
		return;
	if (!sl_cpumask_at_most_one(&se->task->allowed) && cfs_rt_lower_somewhere(s, se))
		return;	/* it can be pushed or pulled elsewhere itself */
	cfs_rt_requeue(s, se, true);	/* requeue_task_rt(rq, p, 1) */
	sl_resched(s->sim, se->cpu);
}

/* ---- placement ---- */

/*
 * find_lowest_rq(): the allowed CPUs of the lowest cpupri below the
 * task's (cpupri_find); of them the task's own CPU (cache-hot), else,
 * walking the task's CPU's domains up (SD_WAKE_AFFINE levels), `this_cpu`
 * (the CPU doing the wakeup or push) if it is one of them and in the
 * domain, or the first of them in the domain; else this_cpu if one of
 * them, else the first.  -1: none runs lower, or the task may run on one
 * CPU only.
 */
static int cfs_rt_find_lowest(struct cfs *s, const struct cfs_entity *se, int this_cpu)
{
	const sl_cpumask *allowed = &se->task->allowed;
	int prio = SL_RT_PRIO_MAX - se->rt_prio, lowest = prio;
	sl_cpumask mask;

	if (sl_cpumask_at_most_one(allowed))
		return -1;
	sl_cpumask_clear(&mask);
	for (int c = 0; c < s->ncpus; c++) {
		if (!sl_cpumask_test(allowed, c))
			continue;
		int pri = cfs_rt_cpupri(s, c);
		if (pri > lowest)
			continue;
		if (pri < lowest) {
			sl_cpumask_clear(&mask);
			lowest = pri;
		}
		if (pri < prio)
			sl_cpumask_set(&mask, c);
	}
	if (sl_cpumask_empty(&mask))
		return -1;
	if (se->cpu >= 0 && sl_cpumask_test(&mask, se->cpu))
		return se->cpu;
	/* the CPU running this (smp_processor_id()): its distribute state */
	int exec_cpu = this_cpu >= 0 ? this_cpu : se->cpu >= 0 ? se->cpu : 0;
	if (this_cpu >= 0 && !sl_cpumask_test(&mask, this_cpu))
		this_cpu = -1;
	if (se->cpu >= 0) {
		const struct cfs_rq *rq = &s->rq[se->cpu];
		for (int l = 0; l < rq->nsd; l++) {
			const struct cfs_domain *sd = &rq->sd[l];
			if (!(sd->flags & CFS_SD_WAKE_AFFINE))
				continue;
			if (this_cpu >= 0 && sl_cpumask_test(&sd->span->cpus, this_cpu))
				return this_cpu;
			int best = cfs_any_and_distribute(s, exec_cpu, &mask, &sd->span->cpus);
			if (best >= 0)
				return best;
		}
	}
	return this_cpu >= 0 ? this_cpu : cfs_any_and_distribute(s, exec_cpu, &mask, NULL);
}

/*
 * select_task_rq_rt(WF_TTWU / WF_FORK): stay on prev_cpu unless an RT
 * task runs there that the woken one would not preempt (an equal or
 * higher priority) or that cannot move; then the lowest CPU, if it runs
 * lower than the woken task.  A CPU the mask forbids then falls back as
 * select_task_rq's select_fallback_rq does: the first allowed CPU of
 * prev_cpu's node, else the first allowed.
 */
int cfs_rt_select(struct cfs *s, struct cfs_entity *se, int prev_cpu, int this_cpu)
{
	const sl_cpumask *allowed = &se->task->allowed;
	const struct cfs_entity *curr = cfs_rt_running(s, prev_cpu);
	int cpu = prev_cpu;

	if (curr && (sl_cpumask_at_most_one(&curr->task->allowed) || curr->rt_prio <= se->rt_prio)) {
		int target = cfs_rt_find_lowest(s, se, this_cpu);
		if (target >= 0 && SL_RT_PRIO_MAX - se->rt_prio > cfs_rt_cpupri(s, target))
			cpu = target;
	}
	return sl_cpumask_test(allowed, cpu) ? cpu : cfs_fallback_cpu(s, se, prev_cpu);
}

/* ---- running ---- */

/* put_prev_task_rt(): the RT task that ran on cpu stopped (preempted,
 * blocked or dead); a blocked or dead one leaves its list.  balance_rt:
 * if the CPU now has nothing as high as what ran, pull. */
void cfs_rt_put_prev(struct cfs *s, int cpu, struct cfs_entity *se)
{
	struct cfs_rt_rq *rt = &s->rq[cpu].rt;

	cfs_pelt_rt(s, cpu, true);	/* an RT task ran until now */
	if (rt->curr == se)
		rt->curr = NULL;
	if (se->task->state != SL_TASK_RUNNABLE && se->rt_queued)
		cfs_rt_dequeue(s, se);
	else if (se->rt_queued)		/* enqueue_pushable_task: behind its equals */
		se->rt_pushable_at = ++s->rt_pushable_seq;
	if (!se->rt_queued && cfs_rt_best(rt) > se->rt_prio)
		cfs_rt_pull(s, cpu);
}

/* pick_next_task_rt(): the head of the best list; then (balance
 * callback) push the others if they can run elsewhere. */
struct cfs_entity *cfs_rt_pick(struct cfs *s, int cpu)
{
	struct cfs_rt_rq *rt = &s->rq[cpu].rt;

	if (!rt->nr_running || cfs_rtbw_rt_throttled(s, cpu) || cfs_rtbw_fair_first(s, cpu))
		return NULL;
	struct cfs_entity *se = cfs_rt_first(s, cpu);
	/* set_next_task_rt(): what ran until now was not RT (an RT prev's
	 * put has already brought avg_rt to now, so this is then a no-op) */
	cfs_pelt_rt(s, cpu, false);
	rt->curr = se;
	if (rt->nr_running > 1)
		cfs_rt_push(s, cpu);
	return se;
}

/* task_tick_rt(): RR's slice counts down in ticks; when it is over and
 * the task is not alone in its list, it goes to the tail. */
void cfs_rt_task_tick(struct cfs *s, int cpu)
{
	struct cfs_entity *se = s->rq[cpu].rt.curr;

	if (!se)
		return;
	cfs_pelt_rt(s, cpu, true);
	if (se->policy != SL_SCHED_RR || --se->rt_slice > 0)
		return;
	se->rt_slice = s->rr_ticks;
	if (se->rt_link.prev || se->rt_link.next) {	/* not alone on its list */
		cfs_rt_requeue(s, se, false);
		sl_resched(s->sim, cpu);
	}
}

/* yield_task_rt(): to the tail of its list. */
void cfs_rt_yield(struct cfs *s, struct cfs_entity *se)
{
	if (se->rt_queued)
		cfs_rt_requeue(s, se, false);
}

/* ---- between CPUs ---- */

/* deactivate_task, set_task_cpu, activate_task */
static void cfs_rt_shift(struct cfs *s, struct cfs_entity *se, int dst)
{
	int src = se->cpu;

	cfs_rt_dequeue(s, se);
	sl_note_migration(s->sim, se->task, src, dst);
	se->cpu = dst;
	cfs_rt_enqueue(s, se, false);
}

void cfs_rt_move_queued(struct cfs *s, struct cfs_entity *se, int dst)
{
	cfs_rt_shift(s, se, dst);
	cfs_rt_check_preempt(s, se);
}

void cfs_rt_move_task(struct cfs *s, struct cfs_entity *se, int dst)
{
	cfs_rt_shift(s, se, dst);
	cfs_rt_wakeup_preempt(s, se);
}

/* A queued, not running RT task of cpu that may run elsewhere: the first
 * of rq->rt.pushable_tasks (pick_next_pushable_task), or `to` >= 0 the
 * first allowed on `to` (pick_highest_pushable_task).  That plist is by
 * priority, then by when each became pushable (enqueue_pushable_task at
 * an enqueue, and at put_prev_task_rt for a task still queued: plist_add
 * goes behind its equals), so among equals the task a higher one just
 * preempted, first on its run list, comes last. */
static struct cfs_entity *cfs_rt_pushable(const struct cfs *s, int cpu, int to)
{
	const struct cfs_rt_rq *rt = &s->rq[cpu].rt;

	for (int w = 0; w < 2; w++) {
		uint64_t bits = rt->bitmap[w];
		while (bits) {
			int p = 64 * w + __builtin_ctzll(bits);
			bits &= bits - 1;
			struct cfs_entity *first = NULL;
			for (struct cfs_entity *se = cfs_rt_entry(rt->queue[p].head); se;
			     se = cfs_rt_entry(se->rt_link.next)) {
				if (se == rt->curr || sl_cpumask_at_most_one(&se->task->allowed))
					continue;
				if ((to < 0 || sl_cpumask_test(&se->task->allowed, to)) &&
				    (!first || se->rt_pushable_at < first->rt_pushable_at))
					first = se;
			}
			if (first)
				return first;
		}
	}
	return NULL;
}

/*
 * push_rt_tasks(): while cpu has a queued RT task that could run
 * elsewhere, send the best to the CPU running the lowest priority, if
 * that is lower than the task's; a task better than the running one
 * preempts here instead.
 */
void cfs_rt_push(struct cfs *s, int cpu)
{
	for (int n = 0; n < s->ncpus; n++) {
		struct cfs_entity *se = cfs_rt_pushable(s, cpu, -1);
		const struct cfs_entity *curr = s->rq[cpu].rt.curr;
		if (!se)
			return;
		if (curr && se->rt_prio < curr->rt_prio) {
			sl_resched(s->sim, cpu);
			return;
		}
		int dst = cfs_rt_find_lowest(s, se, cpu);
		if (dst < 0 || dst == cpu)
			return;
		cfs_rt_move_queued(s, se, dst);
	}
}

/*
 * pull_rt_task(): cpu's priority dropped; from every CPU with 2+ RT tasks
 * take the best queued one allowed here if it beats what cpu now has, and
 * would not preempt its own CPU's running task (that one runs it soon).
 */
bool cfs_rt_pull(struct cfs *s, int cpu)
{
	bool pulled = false;

	if (!s->nr_rt_overloaded)
		return false;
	for (int src = 0; src < s->ncpus; src++) {
		if (src == cpu || s->rq[src].rt.nr_running < 2)
			continue;
		struct cfs_entity *se = cfs_rt_pushable(s, src, cpu);
		if (!se || se->rt_prio >= cfs_rt_best(&s->rq[cpu].rt))
			continue;
		/* a task better than what runs there (fair, idle or a lower
		 * RT task) is about to run there */
		const struct cfs_entity *curr = s->rq[src].rt.curr;
		if (!curr || se->rt_prio < curr->rt_prio)
			continue;
		cfs_rt_move_queued(s, se, cpu);
		pulled = true;
	}
	return pulled;
}

/* task_woken_rt(): the woken task waits behind an RT task of equal or
 * higher priority (or one that cannot move): push. */
void cfs_rt_woken(struct cfs *s, struct cfs_entity *se)
{
	int cpu = se->cpu;
	const struct cfs_entity *curr = s->rq[cpu].rt.curr;

	if (!curr || curr == se || sl_need_resched(s->sim, cpu) ||
	    sl_cpumask_at_most_one(&se->task->allowed))
		return;
	if (sl_cpumask_at_most_one(&curr->task->allowed) || curr->rt_prio <= se->rt_prio)
		cfs_rt_push(s, cpu);
}

/* ---- consistency ---- */

int cfs_rt_check(struct cfs *s, int cpu, struct sl_err *err)
{
	const struct cfs_rt_rq *rt = &s->rq[cpu].rt;
	int n = 0;

	for (int p = 0; p < CFS_RT_PRIOS; p++) {
		bool bit = (rt->bitmap[p >> 6] >> (p & 63)) & 1;
		if (bit != (rt->queue[p].head != NULL))
			return sl_fail_internal(err, "cfs: CPU %d: RT list %d and bitmap disagree",
						cpu, p);
		long k = sl_dlist_check(&rt->queue[p], rt->nr_running - n);
		if (k < 0)
			return sl_fail_internal(err, "cfs: CPU %d: RT list %d broken or longer than "
						"nr_running", cpu, p);
		n += (int)k;
		for (const struct sl_dlink *l = rt->queue[p].head; l; l = l->next) {
			const struct cfs_entity *se = cfs_rt_entry(l);
			if (se->cpu != cpu || se->rt_prio != p || !se->rt || !se->rt_queued ||
			    se->task->state != SL_TASK_RUNNABLE)
				return sl_fail_internal(err, "cfs: CPU %d: RT list %d broken at "
							"task %d", cpu, p, se->task->id);
		}
	}
	if (n != rt->nr_running)
		return sl_fail_internal(err, "cfs: CPU %d: %d RT tasks listed, %d counted", cpu,
					n, rt->nr_running);
	if (rt->curr && (!rt->curr->rt_queued || rt->curr->task != sl_curr(s->sim, cpu)))
		return sl_fail_internal(err, "cfs: CPU %d: RT curr is not what runs", cpu);
	return 0;
}
