/*
 * linux24/schedule.c - schedule(): the RR rotation, the goodness scan over
 * the whole runqueue under runqueue_lock, the recalculation of every
 * counter when no runnable task has any left, __schedule_tail()'s
 * reschedule_idle() for a preempted prev, and going straight back when the
 * task switched in carries need_resched; and sys_sched_yield() (2.4.27
 * kernel/sched.c).
 */
#include "policy/linux24/linux24.h"

/* Every task, sleeping ones too: sleepers keep half and climb to ~2x.
 * Returns the time it charged. */
static sl_time linux24_recalculate(struct sl_sim *sim, struct linux24 *s, int cpu)
{
	int ntasks = 0;

	for (struct sl_task *t = sl_task_first(sim); t; t = sl_task_next(t)) {
		struct linux24_task *p = linux24_of(t);
		p->counter = (p->counter >> 1) + linux24_nice_to_ticks(s, t->nice);
		linux24_touch(s, p);
		ntasks++;
	}
	sl_charge_sched(sim, cpu, ntasks * s->recalc_ns);
	return ntasks * s->recalc_ns;
}

/* The goodness scan as 2.4 writes it: every task on the list, in list
 * order, asked can_schedule() and weighed by goodness(); the first of
 * equals wins.  Needed when a queued task may not run everywhere. */
static struct linux24_task *linux24_scan_walk(const struct linux24 *s, int cpu, int *best_weight)
{
	struct linux24_task *best = NULL;
	int c = -1000;
	int this_mm = s->active_mm[cpu];

	for (int i = s->rq_head; i < s->rq_len; i++) {
		struct linux24_task *p = s->rq[i];
		if (!p || !linux24_can_schedule(p, cpu))
			continue;
		int weight = linux24_goodness(s, p, cpu, this_mm);
		if (weight > c) {
			c = weight;
			best = p;
		}
	}
	*best_weight = c;
	return best;
}

/* The running task on cpu, if queued (prev): its slot is hidden, so the
 * dense scans weigh it apart and merge it by list position. */
static struct linux24_task *linux24_merge_self(const struct linux24 *s, int cpu, int this_mm,
					       struct linux24_task *p, int *c)
{
	struct linux24_task *self = s->curr[cpu] ? linux24_of(s->curr[cpu]) : NULL;

	if (self && self->queued && self->has_cpu == cpu) {
		int weight = linux24_goodness(s, self, cpu, this_mm);
		if (weight > *c || (weight == *c && (!p || self->slot < p->slot))) {
			*c = weight;
			return self;
		}
	}
	return p;
}

/*
 * The same scan over the dense copy (struct linux24_slot), when every
 * queued task may run on every CPU: a slot's goodness on cpu is its base
 * plus the two bonuses, and a task running on another CPU (can_schedule()
 * false) sits there hidden, below the floor, as do holes.
 */
static struct linux24_task *linux24_scan_dense(const struct linux24 *s, int cpu, int *best_weight)
{
	const struct linux24_slot *e = s->dense + s->rq_head, *end = s->dense + s->rq_len;
	const struct linux24_slot *first = NULL;
	int c = -1000;
	int this_mm = s->active_mm[cpu], pen = s->proc_change_penalty;

	for (; e < end; e++) {
		int weight = e->base + (e->pcpu == cpu ? pen : 0) + (e->mm == this_mm);
		if (weight > c) {
			c = weight;
			first = e;
		}
	}
	struct linux24_task *p = first ? s->rq[first - s->dense] : NULL;
	p = linux24_merge_self(s, cpu, this_mm, p, &c);
	*best_weight = c;
	return p;
}

/* The highest bucket from top down to low whose bitmap has a slot in
 * cpu's (mine) or not (!mine); -1 if none. */
static int linux24_top_bucket(const struct linux24 *s, const uint64_t *cpu_bits, bool mine,
			      int top, int low, int lo, int hi)
{
	uint64_t flip = mine ? 0 : ~(uint64_t)0;

	for (int b = top; b >= low; b--) {
		const uint64_t *bits = linux24_base_bits(s, b);
		for (int w = lo; w <= hi; w++)
			if (bits[w] & (cpu_bits[w] ^ flip))
				return b;
	}
	return -1;
}

/*
 * The same pick from the index (struct linux24's base_count, bits and
 * mm_head), when no visible slot is real time: a slot that earns only
 * the penalty, or nothing, weighs its base plus the penalty or not, so the
 * best of each kind is the highest base bucket holding one (cpu's bitmap
 * and its complement), and the first of the best the lowest bit of those
 * buckets.  The slots of this_mm, which earn the +1, are few (a process's
 * threads): they are weighed one by one and merged by list position.  A
 * slot of this_mm counted in the buckets without its +1 cannot be their
 * best unless one of this_mm weighs more, so the merge is exact.
 */
static struct linux24_task *linux24_scan_index(const struct linux24 *s, int cpu, int *best_weight)
{
	int this_mm = s->active_mm[cpu], pen = s->proc_change_penalty;
	int c = -1000, first = -1;

	if (s->top_base >= 0) {
		const uint64_t *mine = linux24_cpu_bits(s, cpu);
		int lo = s->rq_head >> 6, hi = (s->rq_len - 1) >> 6;
		/* bucket b holds base b - 1 */
		int bo = linux24_top_bucket(s, mine, false, s->top_base, 0, lo, hi);
		int low = bo >= 0 && bo - pen > 0 ? bo - pen : 0;
		int bm = linux24_top_bucket(s, mine, true, s->top_base, low, lo, hi);
		int wo = bo >= 0 ? bo - 1 : -1000, wm = bm >= 0 ? bm - 1 + pen : -1000;
		c = wo > wm ? wo : wm;
		const uint64_t *obits = wo == c ? linux24_base_bits(s, bo) : NULL;
		const uint64_t *mbits = wm == c ? linux24_base_bits(s, bm) : NULL;
		for (int w = lo; w <= hi && first < 0; w++) {
			uint64_t x = (obits ? obits[w] & ~mine[w] : 0) | (mbits ? mbits[w] & mine[w] : 0);
			if (x)
				first = (w << 6) + __builtin_ctzll(x);
		}
	}
	if (this_mm >= 0 && this_mm < s->mm_cap) {
		for (const struct linux24_task *q = s->mm_head[this_mm]; q; q = q->mm_next) {
			const struct linux24_slot *e = &s->dense[q->slot];
			int weight = e->base + (e->pcpu == cpu ? pen : 0) + 1;
			if (weight > c || (weight == c && q->slot < first)) {
				c = weight;
				first = q->slot;
			}
		}
	}
	struct linux24_task *p = first >= 0 ? s->rq[first] : NULL;
	p = linux24_merge_self(s, cpu, this_mm, p, &c);
	*best_weight = c;
	return p;
}

/* The goodness scan over the whole runqueue; first of equals wins.  Adds
 * the time it took (the spin on runqueue_lock and the scan: every queued
 * task examined) to *spent. */
static struct linux24_task *linux24_scan(struct sl_sim *sim, struct linux24 *s, int cpu,
					 int *best_weight, sl_time *spent)
{
	struct linux24_task *best;

	if (s->nr_partial) {
		best = linux24_scan_walk(s, cpu, best_weight);
	} else {
		int this_mm = s->active_mm[cpu];
		/* the index, unless a real-time task is visible or this_mm's
		 * slots, weighed one by one, are not few */
		bool by_index = s->indexed && s->top_base < LINUX24_BASES - 1 &&
				(this_mm < 0 || this_mm >= s->mm_cap ||
				 4 * s->mm_count[this_mm] < s->rq_len - s->rq_head);
		if (by_index)
			best = linux24_scan_index(s, cpu, best_weight);
		else
			best = linux24_scan_dense(s, cpu, best_weight);
		if (s->indexed && (by_index ? s->index_lead < 64 : s->index_lead > -64))
			s->index_lead += by_index ? 1 : -1;
#ifdef SL_TESTING
		/* test builds: the dense scan must pick as the walk does
		 * (reported by the policy's check after the event) */
		int c;
		if (linux24_scan_walk(s, cpu, &c) != best || c != *best_weight)
			s->dense_wrong = cpu + 1;
#endif
	}
	int examined = s->nr_running;
	sl_time hold = (examined ? examined : 1) * s->scan_ns;
	*spent += sl_charge_locked(sim, cpu, &s->runqueue_lock, hold) + hold;
	return best;
}

/* The switch to next, decided by a schedule() whose locked stretch (the
 * spin, the scans, a recalculation) took `spent`: last_schedule is
 * stamped where that stretch ends (2.4.27 schedule(): get_cycles() after
 * spin_unlock_irq(&runqueue_lock)), so two CPUs going idle within one
 * schedule() of each other rank by when they left it, not entered it. */
static void linux24_switch_to(struct sl_sim *sim, struct linux24 *s, int cpu,
			      struct linux24_task *next, sl_time spent)
{
	s->curr[cpu] = next ? next->task : NULL;
	s->last_schedule[cpu] = sl_now(sim) + spent;
	if (!next)
		return;
	next->has_cpu = cpu;
	next->processor = cpu;
	linux24_touch(s, next);
	/* kernel threads borrow the previous mm (lazy TLB) */
	if (!next->task->kthread)
		s->active_mm[cpu] = next->task->mm;
}

/* The task a tick inside cpu's schedule() counts on (NULL: none); a task
 * is that of one CPU at a time. */
void linux24_defer_tick_to(struct linux24 *s, int cpu, struct linux24_task *p)
{
	struct linux24_task *old = s->sched_prev[cpu];

	if (old && old->prev_of == cpu)
		old->prev_of = -1;
	if (p && p->prev_of >= 0 && s->sched_prev[p->prev_of] == p)
		s->sched_prev[p->prev_of] = NULL;
	s->sched_prev[cpu] = p;
	if (p)
		p->prev_of = cpu;
}

/* One schedule() on cpu with prev (NULL: the idle task); *spent: the
 * scheduler work it charged. */
static struct sl_task *linux24_schedule(struct sl_sim *sim, struct linux24 *s, int cpu,
					struct sl_task *prev, sl_time *spent_out)
{
	struct linux24_task *lp = prev ? linux24_of(prev) : NULL;

	/* an exhausted RR task gets a new quantum, behind its equals */
	if (lp && prev->sched_policy == SL_SCHED_RR && lp->counter == 0) {
		lp->counter = linux24_nice_to_ticks(s, prev->nice);
		linux24_touch(s, lp);
		linux24_move_last(s, lp);
	}
	if (lp)
		lp->need_resched = false;	/* prev->need_resched = 0 */
	if (lp && prev->state != SL_TASK_RUNNABLE) {
		linux24_del_from_runqueue(s, lp);
		lp->has_cpu = -1;
		s->curr[cpu] = NULL;
	}

	int c;
	sl_time spent = 0;
	struct linux24_task *next = linux24_scan(sim, s, cpu, &c, &spent);
	if (c == 0) {
		spent += linux24_recalculate(sim, s, cpu);
		next = linux24_scan(sim, s, cpu, &c, &spent);
	}
	/* prev == next (same_process): no switch, the ticks are its own, but
	 * as a stretch with interrupts off (spin_lock_irq ... spin_unlock_irq
	 * before the same_process test): one tick, at the unlock */
	s->sched_end[cpu] = lp && next == lp ? 0 : sl_now(sim) + spent;
	linux24_defer_tick_to(s, cpu, lp && next != lp && prev->state != SL_TASK_DEAD ? lp : NULL);
	if (lp && next == lp)
		linux24_irqs_off(sim, s, cpu, spent);
	*spent_out = spent;

	/* prev == next: no switch, and no new last_schedule - an idle CPU
	 * poked in vain stays as long idle for reschedule_idle as it was
	 * (2.4.27 schedule(): same_process skips the update) */
	bool yielded = lp && lp->yielded;
	if (lp) {
		lp->yielded = false;	/* same_process, or __schedule_tail */
		linux24_touch(s, lp);
	}
	if (next == lp)
		return prev;
	linux24_switch_to(sim, s, cpu, next, spent);
	if (next)
		sl_tick_restart(sim, cpu);	/* stopped if it was idle */

	/* __schedule_tail: prev leaves its CPU (task_release_cpu), so that any
	 * CPU's scan may take it, a yielder too; a preempted task may also
	 * find a CPU of its own, but not a yielder: it asked to wait, and
	 * 2.4.27 skips only that search for it (SCHED_YIELD) */
	if (lp && prev->state == SL_TASK_RUNNABLE) {
		lp->has_cpu = -1;
		linux24_touch(s, lp);
		if (!yielded) {
			int looked = linux24_reschedule_idle(sim, s, lp);
			linux24_locked(sim, s, cpu, looked * s->scan_ns);
		}
	}
	return next ? next->task : NULL;
}

struct sl_task *linux24_pick_next(struct sl_sim *sim, int cpu, struct sl_task *prev)
{
	struct linux24 *s = linux24_state(sim);
	sl_time spent;
	struct sl_task *next = linux24_schedule(sim, s, cpu, prev, &spent);
	struct linux24_task *first_prev = s->sched_prev[cpu];
	sl_time total = spent;
	bool went_back = false;

	/* next carries a need_resched that a deferred tick set after the
	 * schedule() that last switched it out had cleared it: switched in,
	 * it goes straight back into schedule() (2.4.27 schedule()'s tail:
	 * if (current->need_resched) goto need_resched_back), where an RR
	 * task with no quantum left goes behind its equals.  One pick here
	 * for all of them: each switch into such a task and out again is
	 * charged, and the first tick of the whole stretch counts on the
	 * first prev (the kernel's second schedule() could take one more, on
	 * the task it goes back from, if the first had taken one and a jiffy
	 * passed: only with scans of milliseconds). */
	while (next && next != prev && linux24_of(next)->need_resched) {
		sl_time ctx = sl_cost_ctx_switch(sim);
		sl_charge_sched(sim, cpu, ctx);
		next = linux24_schedule(sim, s, cpu, next, &spent);
		total += ctx + spent;
		went_back = true;
	}
	if (!went_back)
		return next;	/* one schedule(): its bookkeeping stands */
	if (first_prev)
		linux24_defer_tick_to(s, cpu, first_prev);
	if (first_prev || s->sched_end[cpu])
		s->sched_end[cpu] = sl_now(sim) + total;
	return next;
}

/*
 * sys_sched_yield(): only when some runnable task has no CPU (nr_pending:
 * nr_running minus the CPUs running a task) does the yielder go to the
 * tail of the runqueue, and a SCHED_OTHER one is also marked SCHED_YIELD,
 * which goodness() ranks below every runnable task in the schedule() that
 * follows and schedule_tail() spares a reschedule_idle().  With none
 * pending it sets no need_resched and returns: no schedule() (2.4.27
 * kernel/sched.c sys_sched_yield, goodness, __schedule_tail).
 */
bool linux24_yield(struct sl_sim *sim, struct sl_task *t)
{
	struct linux24 *s = linux24_state(sim);
	int pending = s->nr_running;

	for (int cpu = 0; cpu < s->ncpus; cpu++)
		if (s->curr[cpu])
			pending--;
	if (pending <= 0)
		return false;	/* no need_resched: back to user space */
	struct linux24_task *p = linux24_of(t);
	if (t->sched_policy == SL_SCHED_NORMAL)
		p->yielded = true;
	linux24_touch(s, p);
	/* move_last_runqueue under spin_lock_irq(&runqueue_lock) */
	linux24_move_last(s, p);
	linux24_locked(sim, s, t->cpu, s->scan_ns);
	return true;
}
