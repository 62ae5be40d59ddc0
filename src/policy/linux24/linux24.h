/*
 * linux24/linux24.h - the state of the Linux 2.4 scheduler model shared by
 * its files: the per-task record goodness() reads, the global runqueue,
 * the dense copy of it the scan reads and that copy's index (searched on a
 * long runqueue), the per-CPU schedule_data, goodness() itself, and the
 * functions one file calls in another.  What is modelled and why:
 * linux24.c's header and docs/policies/linux24.md.
 */
#ifndef SL_POLICY_LINUX24_H
#define SL_POLICY_LINUX24_H

#include <limits.h>
#include <stdbool.h>
#include <stdint.h>

#include "base/err.h"
#include "base/spec.h"
#include "hw/topo.h"
#include "policy/kernel_arch.h"
#include "policy/policy.h"
#include "sim/sim.h"

/*
 * Per-task state (the kernel's task_struct fields used by sched.c).  What
 * goodness() and can_schedule() read of the engine's task is copied here
 * (linux24_sync) at fork, setscheduler and set_allowed, the only places it
 * changes, so that the scan over the runqueue reads one small record per
 * task instead of three cache lines of the engine's (the scan is O(runnable)
 * as in the kernel; this only makes each step cheaper).
 */
struct linux24_task {
	int slot;		/* index in the runqueue array while queued */
	int counter;		/* ticks left of the quantum; dynamic priority */
	int processor;		/* p->processor: CPU it last ran on (or the parent's) */
	int has_cpu;		/* CPU running it, -1 if none (cpus_runnable) */
	int mm;			/* copy of task->mm (-1 for a kernel thread: any mm) */
	int rt_goodness;	/* 1000 + rt_priority for FIFO/RR, else 0 */
	int nice_weight;	/* 20 - nice */
	bool queued;
	bool allowed_all;	/* task->allowed holds every CPU of the machine */
	bool yielded;		/* SCHED_YIELD: passed over (goodness -1) until the
				 * schedule() its sched_yield asked for is done */
	int prev_of;		/* CPU whose schedule() switched it out, while that
				 * CPU's deferred tick may still count on it; -1 */
	bool need_resched;	/* p->need_resched set by such a tick after that
				 * schedule() had cleared it: acted on when the
				 * task is next switched in */
	struct linux24_task *mm_next, *mm_prev;	/* the mm's list of visible slots */
	struct sl_task *task;
};

/*
 * One runqueue slot as the scan sees it: goodness() less its two terms that
 * depend on the scanning CPU, which the scan adds back.  A runnable task on
 * no CPU: base is its goodness without PROC_CHANGE_PENALTY and the +1 for
 * a shared mm (a kernel thread's +1, on any CPU, is in base); pcpu the CPU
 * that earns the penalty (-1: none, as for a yielder, an RT task or a spent
 * counter); mm the mm that earns the +1 (-1: none; active_mm is never -1).
 * A hole, or a task running on a CPU, has base LINUX24_HIDDEN: no bonus
 * lifts it to the scan's floor of -1000 (the CPU's own running task is
 * weighed apart, linux24_scan).  partial: the task may not run on every CPU,
 * so the scan must ask can_schedule() (counted in nr_partial).
 */
struct linux24_slot {
	int base;
	int pcpu;
	int mm;
	bool partial;
};

#define LINUX24_HIDDEN (-1000000)
/* Buckets of the scan's index: bases -1..LINUX24_BASES - 3 each their own,
 * every higher one (real time) the last.  A normal task's goodness is at
 * most 2.4's counter ceiling + 40 + 1: at HZ 1024 the recalculation's is
 * 2 x NICE_TO_TICKS(-20) - 1 = 161, but release_task() may raise the
 * reaper's counter to MAX_COUNTER, 20 * HZ / 100 = 204 (linux24_release),
 * so 245.  A higher HZ's tasks above that fall in the last bucket, and the
 * scan reads the copy instead, as it does for real time. */
#define LINUX24_BASES 256

struct linux24 {
	const struct sl_topo *topo;
	int ncpus;

	/* knobs */
	unsigned hz;
	int proc_change_penalty;
	sl_time scan_ns;
	sl_time recalc_ns;
	bool ht_tweak;
	bool exit_return;
	int max_counter;

	/*
	 * The kernel's runqueue_head list, as an array in list order: adding
	 * appends, removing leaves a hole (NULL) that a compaction closes
	 * once holes outnumber tasks.  The scan then walks an array, whose
	 * loads the CPU can overlap, instead of a chain of pointers each
	 * waiting for the one before (same order, same tasks: only cheaper).
	 */
	struct linux24_task **rq;
	int rq_head, rq_len, rq_cap;	/* the list is rq[rq_head..rq_len) (tasks and holes);
					 * slots allocated */
	/*
	 * rq[i] as goodness() sees it (struct linux24_slot), kept in step by
	 * linux24_touch wherever a queued task's counter, processor, has_cpu,
	 * yield mark, class, nice, mm or mask changes: the scan, 25 % of the
	 * host's time on 2.4 tbench, reads one compact array instead of a
	 * pointer and a record per task.  nr_partial: queued tasks with a
	 * partial mask, for which the scan walks rq and asks can_schedule().
	 */
	struct linux24_slot *dense;
	int nr_partial;
	/*
	 * An index of the copy's visible slots (not hidden), by which the
	 * scan finds the first of the best without reading every slot
	 * (linux24_scan_index): how many have each base (bucket base + 1 of
	 * LINUX24_BASES, the last one for every base above, real time), the
	 * highest bucket with any (-1: none); one bitmap of slot positions
	 * per bucket and one per CPU (the slots whose pcpu it is), rq_words
	 * words each, in bits; and per mm the queued tasks whose slot earns
	 * the +1 with it (mm_head[mm], linked by mm_next/mm_prev).  The
	 * index is kept only while the runqueue is long (indexed).
	 */
	int *base_count;
	int top_base;
	bool indexed;		/* bits and mm lists kept (runqueue.c) */
	int index_lead;		/* recent scans by the index less those by the
				 * copy while indexed, within +-64 */
	uint64_t *bits;
	int rq_words;
	struct linux24_task **mm_head;
	int *mm_count;		/* length of each mm's list */
	int mm_cap;
#ifdef SL_TESTING
	int dense_wrong;	/* CPU + 1 whose dense scan disagreed with the walk */
#endif
	bool add_head;			/* add_to_runqueue at the head (runqueue_add) */
	int nr_running;		/* tasks in rq */
	struct sl_spinlock runqueue_lock;

	/* per CPU (schedule_data and the lazy-TLB active_mm) */
	struct sl_task *curr[SL_MAX_CPUS];
	sl_time last_schedule[SL_MAX_CPUS];
	int active_mm[SL_MAX_CPUS];
	/* when the CPU's last schedule() ended (its spin on runqueue_lock,
	 * scans and recalculation): until then it was in prev's context, and
	 * the first tick that comes meanwhile counts on prev (sched_prev,
	 * NULL once it has) */
	sl_time sched_end[SL_MAX_CPUS];
	struct linux24_task *sched_prev[SL_MAX_CPUS];
	/* when the CPU's last other stretch with runqueue_lock taken ends (a
	 * wakeup's, __schedule_tail's), and whether its one tick was taken */
	sl_time irqs_off_end[SL_MAX_CPUS];
	bool irqs_off_ticked[SL_MAX_CPUS];
};

#define LINUX24_NO_MM INT_MIN

static inline struct linux24_task *linux24_of(const struct sl_task *t)
{
	return sl_task_policy(t);
}

static inline struct linux24 *linux24_state(const struct sl_sim *sim)
{
	return sl_policy_data(sim);
}

/* TICK_SCALE keeps the nice-0 quantum near 50 ms whatever HZ is. */
static inline int linux24_tick_scale(int x, unsigned hz)
{
	if (hz < 200)
		return x >> 2;
	if (hz < 400)
		return x >> 1;
	if (hz < 800)
		return x;
	if (hz < 1600)
		return x << 1;
	return x << 2;
}

static inline int linux24_nice_to_ticks(const struct linux24 *s, int nice)
{
	return linux24_tick_scale(20 - nice, s->hz) + 1;
}

/* The copy of what goodness() and can_schedule() read of the task. */
static inline void linux24_sync(const struct linux24 *s, struct linux24_task *p)
{
	const struct sl_task *t = p->task;

	p->mm = t->kthread ? -1 : t->mm;
	p->rt_goodness = sl_task_rt(t) ? 1000 + t->rt_priority : 0;
	p->nice_weight = 20 - t->nice;
	p->allowed_all = sl_cpumask_equal(&t->allowed, &s->topo->all_cpus);
}

/* The slot of p as the scan reads it (struct linux24_slot). */
static inline struct linux24_slot linux24_slot_of(const struct linux24_task *p)
{
	struct linux24_slot e = { .base = LINUX24_HIDDEN, .pcpu = -1, .mm = -1,
				  .partial = !p->allowed_all };

	if (p->has_cpu >= 0)
		return e;
	if (p->yielded)
		e.base = -1;
	else if (p->rt_goodness)
		e.base = p->rt_goodness;
	else if (p->counter == 0)
		e.base = 0;
	else {
		e.base = p->counter + p->nice_weight + (p->mm < 0);
		e.pcpu = p->processor;
		e.mm = p->mm < 0 ? -1 : p->mm;
	}
	return e;
}

void linux24_index_slot(struct linux24 *s, struct linux24_task *p, int i,
			const struct linux24_slot *e, int d, bool lists);

/* Count p's slot e in (d 1) or out (d -1) of nr_partial and the scan's
 * index. */
static inline void linux24_count_slot(struct linux24 *s, struct linux24_task *p,
				      const struct linux24_slot *e, int d)
{
	s->nr_partial += d * e->partial;
	if (s->indexed)
		linux24_index_slot(s, p, p->slot, e, d, true);
}

static inline uint64_t *linux24_base_bits(const struct linux24 *s, int bucket)
{
	return s->bits + (size_t)bucket * (size_t)s->rq_words;
}

static inline uint64_t *linux24_cpu_bits(const struct linux24 *s, int cpu)
{
	return s->bits + (size_t)(LINUX24_BASES + cpu) * (size_t)s->rq_words;
}

/* After a change to what goodness() or can_schedule() reads of p. */
static inline void linux24_touch(struct linux24 *s, struct linux24_task *p)
{
	if (!p->queued)
		return;
	struct linux24_slot e = linux24_slot_of(p), *old = &s->dense[p->slot];
	/* a tick on a running task: hidden before and after */
	if (e.base == old->base && e.pcpu == old->pcpu && e.mm == old->mm &&
	    e.partial == old->partial)
		return;
	linux24_count_slot(s, p, old, -1);
	linux24_count_slot(s, p, &e, 1);
	*old = e;
}

/* can_schedule(): not running on another CPU, and allowed on this one. */
static inline bool linux24_can_schedule(const struct linux24_task *p, int cpu)
{
	return (p->has_cpu < 0 || p->has_cpu == cpu) &&
	       (p->allowed_all || sl_cpumask_test(&p->task->allowed, cpu));
}

static inline int linux24_goodness(const struct linux24 *s, const struct linux24_task *p,
				   int cpu, int this_mm)
{
	int weight = p->counter;

	/* a yielder goes after every other runnable task, before idle */
	if (p->yielded)
		return -1;
	/* real time: the first on the runqueue of the highest rt_priority */
	if (p->rt_goodness)
		return p->rt_goodness;
	if (weight == 0)
		return 0;
	if (p->processor == cpu)
		weight += s->proc_change_penalty;
	/* no TLB flush: same address space, or a kernel thread borrowing it */
	if (p->mm < 0 || p->mm == this_mm)
		weight += 1;
	return weight + p->nice_weight;
}

/* runqueue.c */
void linux24_add_to_runqueue(struct linux24 *s, struct linux24_task *p);
void linux24_move_last(struct linux24 *s, struct linux24_task *p);
void linux24_del_from_runqueue(struct linux24 *s, struct linux24_task *p);
/* wake.c */
void linux24_resched(struct sl_sim *sim, int cpu);
int linux24_reschedule_idle(struct sl_sim *sim, struct linux24 *s,
			    struct linux24_task *p);
void linux24_irqs_off(struct sl_sim *sim, struct linux24 *s, int cpu, sl_time len);
void linux24_locked(struct sl_sim *sim, struct linux24 *s, int cpu, sl_time hold);
void linux24_fork(struct sl_sim *sim, struct sl_task *parent, struct sl_task *child);
void linux24_wakeup(struct sl_sim *sim, struct sl_task *t, int waker_cpu,
		    unsigned flags);
/* schedule.c */
void linux24_defer_tick_to(struct linux24 *s, int cpu, struct linux24_task *p);
struct sl_task *linux24_pick_next(struct sl_sim *sim, int cpu, struct sl_task *prev);
bool linux24_yield(struct sl_sim *sim, struct sl_task *t);
/* tick.c */
void linux24_tick(struct sl_sim *sim, int cpu);

#endif
