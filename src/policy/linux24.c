/*
 * linux24.c - the Linux 2.4 scheduler: one global runqueue under one global
 * lock, goodness() picked by an O(runnable) scan, counters recalculated for
 * every task when all runnable candidates have used their quantum, and
 * reschedule_idle() choosing the CPU to poke on wakeup.
 *
 * Sources: 2.4.27 kernel/sched.c (the runqueue and runqueue_lock,
 * NICE_TO_TICKS, goodness(), reschedule_idle() with the HT sibling check,
 * schedule() and its recalculation, wake_up_process, the sync wakeup),
 * kernel/timer.c update_process_times() (the tick), kernel/fork.c do_fork()
 * (the counter split), kernel/exit.c release_task(), include/asm-i386
 * PROC_CHANGE_PENALTY.  Docs: docs/policies/linux24.md.
 *
 * The scan is O(runnable tasks) per schedule() and the recalculation
 * O(all tasks): both are charged as system time, the scan under the global
 * runqueue_lock so that contention between CPUs shows as spinning.  This is
 * the cost the O(1) scheduler was written to remove, so it must be visible.
 *
 * Choices where the sources are uncertain (each one a knob):
 *   ht_tweak     The "whole package idle" check in reschedule_idle is in
 *                2.4.27 [S1], compiled for i386 only (#if defined(__i386__)
 *                && defined(CONFIG_SMP)); it came with the i386 HT support
 *                of about 2.4.17/18 (INFERRED), so 2.4.19 (seed 004) has
 *                it.  A 2.4.8-based kernel (seed 000's 2.4.8-10bigmem)
 *                predates it unless Red Hat backported it (unknown): model
 *                it with ht_tweak=off.  Default: on for an i386 machine,
 *                off for x86_64 and ia64.
 *   exit_return  2.4's release_task() gives a reaped child's remaining
 *                counter back to the parent, capped at MAX_COUNTER =
 *                20*HZ/100 (2.4.27 kernel/exit.c release_task(), MAX_COUNTER
 *                in include/linux/sched.h).  Without it a parent that forks
 *                many children (make) is penalised by the fork split.
 *                Default on.
 *   scan_ns      No published per-task cost of goodness(); by default the
 *                machine's cost of examining one task (sl_cost_scan: what
 *                code costs is hardware truth).  The same per-item cost is
 *                charged per CPU looked at by reschedule_idle (also under
 *                the lock).
 *   recalc_ns    Per task of the recalculation loop; as scan_ns by default.
 *   runqueue_add tail: 2.4.27's add_to_runqueue is list_add_tail, with
 *                Bhavesh Davda's comment that it "has to add the process
 *                to the _end_ of the run-queue, not the beginning" (for
 *                SCHED_FIFO/RR), which says that earlier 2.4 added at the
 *                head (list_add).  When that changed is UNVERIFIED (no
 *                earlier 2.4 tree at hand), so 2.4.8 and 2.4.19 may have
 *                had either; head models list_add (move_last_runqueue
 *                stays at the tail).  Default tail.
 *   tick         staggered: 2.4.27 i386 setup_APIC_timer() sets CPU n's
 *                local APIC timer (n+1) slices of 1/(smp_num_cpus+1) jiffy
 *                after IRQ0 "to spread out timer events", so the CPUs tick
 *                one after another through the jiffy, in CPU order, CPU 0
 *                one slice after IRQ0.  On ia64, bitrev: 2.4.27
 *                ia64_cpu_local_tick() staggers each CPU's ITC timer by a
 *                bit-reversed fraction of the tick (policy/kernel_arch.h).
 *                An idle CPU's tick, which only
 *                ends its halt, is not simulated unless it may end one
 *                (linux24_resched; docs/policies/linux24.md).
 *   timers       jiffy, one global list (sim/timers.c): 2.4.27
 *                sys_nanosleep sleeps timespec_to_jiffies(t) + 1 jiffies
 *                and run_timer_list runs in TIMER_BH, marked by IRQ0's
 *                do_timer, so a timed sleep ends at a jiffy's start; a
 *                real-time task's sleep of 2 ms or less is a udelay.
 *   preempt      none: 2.4 has no CONFIG_PREEMPT (2.4.27 i386 entry.S
 *                ret_from_intr reschedules only on the way back to user
 *                mode), so a reschedule waits for the running task's
 *                return to user space (docs/engine.md, "Kernel exits");
 *                full is Robert Love's preempt patch, outside mainline.
 *
 * Real-time classes and live changes (2.4.27 kernel/sched.c goodness(),
 * schedule(), setscheduler(), sys_sched_yield(), set_cpus_allowed();
 * kernel/timer.c update_process_times(); kernel/sys.c setpriority()):
 *   - SCHED_FIFO and SCHED_RR have goodness 1000 + rt_priority whatever
 *     their counter, so they beat every SCHED_OTHER task in the scan and in
 *     reschedule_idle's preemption_goodness; equals go by list order.
 *   - The tick counts every task's counter down, but a FIFO task's reaching
 *     0 sets no need_resched.  An RR task's does, and schedule() then gives
 *     it NICE_TO_TICKS(nice) again and moves it to the tail of the list,
 *     so the next RR task of its priority wins the scan.
 *   - sched_yield, when a runnable task waits for a CPU, moves the yielder
 *     to the tail of the list, and marks a SCHED_OTHER one SCHED_YIELD
 *     (goodness -1 in the schedule() that follows, no reschedule_idle for
 *     it there); with none waiting it sets no need_resched and no
 *     schedule() follows (linux24_yield).
 *   - setscheduler() sets policy and rt_priority and reschedules the
 *     caller's CPU; the caller is the task itself here (a SETSCHED action),
 *     so a running task's CPU.  2.4.27 does not move the task in the list
 *     (earlier 2.4 releases had move_first_runqueue there; 2.4.27 has not).
 *     A renice (setpriority) sets nice only: goodness and the next refill
 *     read it.
 *   - set_cpus_allowed(): a task running on a CPU its new mask forbids gets
 *     need_resched there (an IPI if it is another CPU's); schedule()'s
 *     can_schedule() then passes it over and schedule_tail's
 *     reschedule_idle() finds it an allowed CPU.  A queued or sleeping task
 *     needs nothing: can_schedule() is asked at every pick.
 *   The 2.4.27 mirror's HEAD carries a course project's changes to
 *   schedule(); its first commit is the stock file read here.
 *
 * Omitted / simplified:
 *   - 2.4 has no migration thread.
 *   - The first tick while a CPU is inside schedule() (the time pick_next
 *     charged) counts down prev's quantum, as 2.4.27 takes it after
 *     spin_unlock_irq in prev's context (linux24_tick); the need_resched it
 *     sets on a prev whose quantum it ends stays with prev, which goes
 *     back into schedule() as soon as it is next switched in (an RR one
 *     behind its equals): modelled as one pick (linux24_pick_next).
 *   - signal_pending() keeping an interruptible prev on the runqueue: the
 *     engine has no signals.
 *   - Big kernel lock release/reacquire in schedule(): no BKL in the engine.
 *   - The idle loop's polling flag that saves an IPI: every remote kick goes
 *     through sl_resched(), which applies the engine's IPI latency
 *     (docs/engine.md).
 *   - last_schedule uses simulated ns instead of the cycle counter; only
 *     its order matters (least recently active idle CPU).
 *   - The recalculation runs in the kernel under tasklist_lock (a read
 *     lock), outside runqueue_lock and with interrupts on, so other CPUs
 *     scan half-refreshed counters meanwhile: here it is atomic, charged
 *     as plain scheduler time on the CPU that does it.
 *   - schedule() decides at its start and pays the spin on runqueue_lock
 *     after; the kernel scans once it holds the lock.
 *   - HT tweak: 2.4 tested it only when smp_num_siblings == 2; here it
 *     applies to any SMT width (every sibling idle), which is the same
 *     thing on the 2-way HT machines of the time.
 */
#include <limits.h>
#include <stdlib.h>
#include <string.h>

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
	struct sl_task *task;
};

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

static const struct sl_param_def linux24_knobs[] = {
	SL_ARCH_HZ_KNOB(10, SL_ARCH_HZ_24_DOC, "; scales NICE_TO_TICKS"),
	SL_TICK_KNOB(NULL, SL_ARCH_TICK_24_DOC),
	SL_TIMERS_KNOB("jiffy", "2.4.27 sys_nanosleep: one timer list run at IRQ0's jiffy; "
			       "real-time sleeps up to 2 ms busy-wait"),
	SL_PREEMPT_KNOB("none", "2.4 has no CONFIG_PREEMPT; full is Robert Love's preempt patch"),
	{ .name = "proc_change_penalty", .type = SL_PARAM_INT, .def = NULL, .min = 0, .max = 1000,
	  .doc = "goodness bonus on the CPU a task last ran on (default: the machine's arch's, "
		 "i386 and x86_64 15, ia64 20)" },
	{ .name = "scan_ns", .type = SL_PARAM_INT, .def = NULL, .min = 0, .max = 1000000,
	  .doc = "cost per task of the goodness scan (and per CPU of reschedule_idle), under the "
		 "global lock (default: the machine's cost of examining one task)" },
	{ .name = "recalc_ns", .type = SL_PARAM_INT, .def = NULL, .min = 0, .max = 1000000,
	  .doc = "cost per task (runnable or sleeping) of the counter recalculation (default: "
		 "as scan_ns)" },
	{ .name = "ht_tweak", .type = SL_PARAM_CHOICE, .def = NULL, .choices = "on|off",
	  .doc = "reschedule_idle takes an idle CPU whose SMT siblings are all idle at once (2.4.17+; "
		 "default: on for i386, where 2.4.27 compiled it, off for x86_64 and ia64)" },
	{ .name = "exit_return", .type = SL_PARAM_CHOICE, .def = "on", .choices = "on|off",
	  .doc = "an exiting child's counter goes back to its parent, capped at 20*HZ/100" },
	{ .name = "runqueue_add", .type = SL_PARAM_CHOICE, .def = "tail", .choices = "tail|head",
	  .doc = "where add_to_runqueue puts a woken or forked task: tail (2.4.27, Bhavesh Davda's "
		 "fix) or head (the list_add of earlier 2.4, UNVERIFIED); first of equals wins" },
	{ .name = NULL },
};

static inline struct linux24_task *linux24_of(const struct sl_task *t)
{
	return sl_task_policy(t);
}

static inline struct linux24 *linux24_state(const struct sl_sim *sim)
{
	return sl_policy_data(sim);
}

/* TICK_SCALE keeps the nice-0 quantum near 50 ms whatever HZ is. */
static int linux24_tick_scale(int x, unsigned hz)
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

static int linux24_nice_to_ticks(const struct linux24 *s, int nice)
{
	return linux24_tick_scale(20 - nice, s->hz) + 1;
}

/* ---- the global runqueue ---- */

/*
 * The list is an array in list order, rq[rq_head..rq_len), with holes
 * where tasks left.  Close the holes, keeping the order; with head adds
 * (runqueue_add=head) the tasks go to the middle, leaving room for adds
 * at either end.
 */
static void linux24_compact(struct linux24 *s)
{
	int n = 0;

	for (int i = s->rq_head; i < s->rq_len; i++)
		if (s->rq[i])
			s->rq[n++] = s->rq[i];
	int front = s->add_head ? (s->rq_cap - n) / 2 : 0;
	if (front > 0)
		memmove(s->rq + front, s->rq, (size_t)n * sizeof(*s->rq));
	for (int i = front; i < front + n; i++)
		s->rq[i]->slot = i;
	s->rq_head = front;
	s->rq_len = front + n;
}

/* Room for one more at the tail (at_head false) or the head: close the
 * holes if they are half the list, else (or if that is not enough) grow. */
static void linux24_make_room(struct linux24 *s, bool at_head)
{
	while (at_head ? s->rq_head == 0 : s->rq_len == s->rq_cap) {
		int used = s->rq_len - s->rq_head;
		if (used - s->nr_running < used / 2 || s->nr_running + 2 > s->rq_cap) {
			s->rq_cap *= 2;
			s->rq = sl_xrealloc(s->rq, (unsigned long)s->rq_cap * sizeof(*s->rq));
		}
		linux24_compact(s);	/* with head adds, room at both ends */
	}
}

static void linux24_queue(struct linux24 *s, struct linux24_task *p, bool at_head)
{
	linux24_make_room(s, at_head);
	p->slot = at_head ? --s->rq_head : s->rq_len++;
	s->rq[p->slot] = p;
	p->queued = true;
	s->nr_running++;
}

/* add_to_runqueue: 2.4.27 list_add_tail, earlier 2.4 list_add. */
static void linux24_add_to_runqueue(struct linux24 *s, struct linux24_task *p)
{
	linux24_queue(s, p, s->add_head);
}

static void linux24_unlink(struct linux24 *s, struct linux24_task *p)
{
	s->rq[p->slot] = NULL;
	p->queued = false;
	s->nr_running--;
	if (p->slot == s->rq_len - 1)
		s->rq_len--;
	else if (p->slot == s->rq_head)
		s->rq_head++;
	else if (s->rq_len - s->rq_head - s->nr_running > s->nr_running + 16)
		linux24_compact(s);
}

/* move_last_runqueue: behind every task now queued (RR, RT yield), at
 * the tail whatever add_to_runqueue does. */
static void linux24_move_last(struct linux24 *s, struct linux24_task *p)
{
	if (!p->queued)
		return;
	linux24_unlink(s, p);
	linux24_queue(s, p, false);
}

static void linux24_del_from_runqueue(struct linux24 *s, struct linux24_task *p)
{
	if (!p->queued)
		return;
	linux24_unlink(s, p);
}

/* ---- goodness ---- */

/* The copy of what goodness() and can_schedule() read of the task. */
static void linux24_sync(const struct linux24 *s, struct linux24_task *p)
{
	const struct sl_task *t = p->task;

	p->mm = t->kthread ? -1 : t->mm;
	p->rt_goodness = sl_task_rt(t) ? 1000 + t->rt_priority : 0;
	p->nice_weight = 20 - t->nice;
	p->allowed_all = sl_cpumask_equal(&t->allowed, &s->topo->all_cpus);
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

/* How much better p would be than the task running on cpu (> 0: preempt). */
static int linux24_preemption_goodness(const struct linux24 *s, const struct linux24_task *running,
				       const struct linux24_task *p, int cpu)
{
	int mm = s->active_mm[cpu];

	return linux24_goodness(s, p, cpu, mm) - linux24_goodness(s, running, cpu, mm);
}

/* ---- wakeup placement ---- */

static bool linux24_siblings_idle(const struct linux24 *s, int cpu)
{
	const sl_cpumask *sib = sl_topo_siblings(s->topo, cpu);

	sl_for_each_cpu(c, sib)
		if (c != cpu && s->curr[c])
			return false;
	return true;
}

/* Set need_resched on `cpu`.  An idle CPU halted in the idle loop (2.4.27
 * default_idle: hlt unless need_resched) is woken by the IPI or by its
 * next timer interrupt, whichever comes first: so its tick runs again. */
static void linux24_resched(struct sl_sim *sim, int cpu)
{
	sl_resched(sim, cpu);
	sl_tick_restart(sim, cpu);
}

/*
 * reschedule_idle(): find a CPU for p and poke it.  The poked CPU then runs
 * a full goodness scan, so p is not bound to it.  Returns the number of
 * CPUs looked at, for the cost.
 */
static int linux24_reschedule_idle(struct sl_sim *sim, struct linux24 *s,
				   struct linux24_task *p)
{
	int best = p->processor;

	/* fast path: p's own last CPU is idle, its cache is p's */
	if (best >= 0 && linux24_can_schedule(p, best) && !s->curr[best]) {
		linux24_resched(sim, best);
		return 1;
	}

	bool smt = s->ht_tweak && s->topo->threads_per_core >= 2;
	bool found_idle = false;
	sl_time oldest = SL_TIME_MAX;
	int target = -1, max_prio = 0, looked = 1;

	for (int cpu = 0; cpu < s->ncpus; cpu++) {
		if (!linux24_can_schedule(p, cpu))
			continue;
		looked++;
		struct sl_task *running = s->curr[cpu];
		if (!running) {
			/* a whole idle package beats a half-busy one: no sharing */
			if (smt && linux24_siblings_idle(s, cpu)) {
				target = cpu;
				found_idle = true;
				break;
			}
			/* least recently active: the least of its cache is worth keeping */
			if (!found_idle || s->last_schedule[cpu] < oldest) {
				oldest = s->last_schedule[cpu];
				target = cpu;
				found_idle = true;
			}
		} else if (!found_idle) {
			int prio = linux24_preemption_goodness(s, linux24_of(running), p, cpu);
			if (prio > max_prio) {
				max_prio = prio;
				target = cpu;
			}
		}
	}
	if (target >= 0)
		linux24_resched(sim, target);
	return looked;
}

/*
 * cpu keeps interrupts off for `len` from now, in the context of the task
 * running there (runqueue_lock taken with interrupts off in
 * try_to_wake_up, __schedule_tail and sys_sched_yield, linux24_locked:
 * the spin and the hold; schedule() keeping prev: its whole work).  The timer interrupt stays
 * pending meanwhile and is taken once, at the unlock: the first tick
 * inside counts down that task's quantum, the others are lost
 * (linux24_tick).  A stretch that begins inside another (charges queued
 * at one instant: a wake_up's wakeups under its wait queue's irqsave)
 * extends it: one stretch, one tick.
 */
static void linux24_irqs_off(struct sl_sim *sim, struct linux24 *s, int cpu, sl_time len)
{
	sl_time now = sl_now(sim);

	if (now >= s->irqs_off_end[cpu]) {
		s->irqs_off_end[cpu] = now + len;
		s->irqs_off_ticked[cpu] = false;
	} else if (now + len > s->irqs_off_end[cpu]) {
		s->irqs_off_end[cpu] = now + len;
	}
}

/* `hold` of work on cpu under runqueue_lock taken with interrupts off
 * (spin_lock_irq/irqsave): the spin for it, the hold, one stretch. */
static void linux24_locked(struct sl_sim *sim, struct linux24 *s, int cpu, sl_time hold)
{
	sl_time wait = sl_charge_locked(sim, cpu, &s->runqueue_lock, hold);

	linux24_irqs_off(sim, s, cpu, wait + hold);
}

/* try_to_wake_up(), for a wakeup and for do_fork's wake_up_process():
 * queue, then place. */
static void linux24_activate(struct sl_sim *sim, struct linux24 *s, struct linux24_task *p,
			     int this_cpu, bool sync)
{
	int looked = 0;

	linux24_add_to_runqueue(s, p);
	/* a sync waker is about to sleep: its own CPU will pick p up */
	if (!sync || !sl_cpumask_test(&p->task->allowed, this_cpu))
		looked = linux24_reschedule_idle(sim, s, p);
	linux24_locked(sim, s, this_cpu, (1 + looked) * s->scan_ns);
}

/* ---- ops ---- */

static void *linux24_init(struct sl_sim *sim, const struct sl_params *knobs,
			  struct sl_err *err)
{
	(void)err;
	struct linux24 *s = sl_xcalloc(1, sizeof(*s));
	s->topo = sl_topo(sim);
	s->ncpus = s->topo->ncpus;
	enum sl_arch arch = s->topo->arch;
	s->hz = (unsigned)sl_param_int_or(knobs, "hz", sl_arch_hz_24(arch));
	s->proc_change_penalty = (int)sl_param_int_or(knobs, "proc_change_penalty",
						      sl_arch_proc_change_penalty(arch));
	s->scan_ns = sl_param_int_or(knobs, "scan_ns", sl_cost_scan(sim, 1));
	s->recalc_ns = sl_param_int_or(knobs, "recalc_ns", s->scan_ns);
	s->ht_tweak = sl_param_user_on(knobs, "ht_tweak", sl_arch_idle_package_check_24(arch));
	s->exit_return = sl_param_choice(knobs, "exit_return") == 0;
	s->add_head = sl_param_choice(knobs, "runqueue_add") == 1;
	s->max_counter = (int)(20 * s->hz / 100);
	if (s->max_counter < 1)
		s->max_counter = 1;

	s->rq_cap = 64;
	s->rq = sl_xcalloc((unsigned long)s->rq_cap, sizeof(*s->rq));
	for (int cpu = 0; cpu < SL_MAX_CPUS; cpu++)
		s->active_mm[cpu] = LINUX24_NO_MM;
	sl_set_hz(sim, s->hz);
	enum sl_tick_mode mode = sl_arch_tick_knob(knobs, sl_arch_tick_24(arch));
	sl_set_tick_mode(sim, mode);
	sl_set_timers_as(sim, SL_TIMERS_2_4, sl_param_choice(knobs, "timers"));
	sl_set_pipes(sim, sl_arch_pipes(arch, SL_PIPES_2_4));
	sl_set_sockets(sim, sl_arch_sockets_24(arch));
	struct sl_writeback wb = SL_WRITEBACK_2_4;
	wb.lowmem_mb = sl_arch_lowmem_mb(arch);
	sl_set_writeback(sim, wb);
	sl_set_kernel_preempt(sim, (enum sl_kernel_preempt)sl_param_choice(knobs, "preempt"));
	/* 2.4 ticks every CPU, but an idle CPU's tick does nothing to the
	 * scheduler (linux24_tick) beyond ending its halt, so the engine may
	 * skip it: the tick stops at an idle tick and restarts when the CPU
	 * picks a task or is sent a reschedule (linux24_resched).  A
	 * simulation shortcut, not NO_HZ (azusa-16's javabench: 2.67 -> 0.49 M
	 * events).  Not under `sync`, whose order is a new draw each jiffy
	 * among the CPUs that tick. */
	if (mode != SL_TICK_SYNC)
		sl_set_nohz(sim);
	return s;
}

static void linux24_destroy(struct sl_sim *sim)
{
	free(linux24_state(sim)->rq);
	free(linux24_state(sim));
}

static void linux24_fork(struct sl_sim *sim, struct sl_task *parent, struct sl_task *child)
{
	struct linux24 *s = linux24_state(sim);
	struct linux24_task *c = linux24_of(child);

	c->task = child;
	c->has_cpu = -1;
	c->prev_of = -1;
	linux24_sync(s, c);
	if (!parent) {
		/* CPU 0, or the first it may run on (a pinned benchmark) */
		int cpu = sl_cpumask_test(&child->allowed, 0) ? 0 : sl_cpumask_first(&child->allowed);
		c->counter = linux24_nice_to_ticks(s, child->nice);
		c->processor = cpu;
		linux24_add_to_runqueue(s, c);
		linux24_resched(sim, cpu);
		return;
	}

	/* the quantum is split so that forking cannot create CPU time */
	struct linux24_task *p = linux24_of(parent);
	c->counter = (p->counter + 1) / 2;
	p->counter /= 2;
	if (!p->counter)
		linux24_resched(sim, parent->cpu);
	c->processor = p->processor;
	linux24_activate(sim, s, c, parent->cpu, false);
}

static void linux24_wakeup(struct sl_sim *sim, struct sl_task *t, int waker_cpu,
			   unsigned flags)
{
	struct linux24 *s = linux24_state(sim);
	struct linux24_task *p = linux24_of(t);

	if (waker_cpu < 0)
		waker_cpu = p->processor >= 0 ? p->processor : 0;
	linux24_activate(sim, s, p, waker_cpu, flags & SL_WAKE_SYNC);
}

/* Every task, sleeping ones too: sleepers keep half and climb to ~2x.
 * Returns the time it charged. */
static sl_time linux24_recalculate(struct sl_sim *sim, struct linux24 *s, int cpu)
{
	int ntasks = 0;

	for (struct sl_task *t = sl_task_first(sim); t; t = sl_task_next(t)) {
		struct linux24_task *p = linux24_of(t);
		p->counter = (p->counter >> 1) + linux24_nice_to_ticks(s, t->nice);
		ntasks++;
	}
	sl_charge_sched(sim, cpu, ntasks * s->recalc_ns);
	return ntasks * s->recalc_ns;
}

/* The goodness scan over the whole runqueue; first of equals wins.  Adds
 * the time it took (the spin on runqueue_lock and the scan) to *spent. */
static struct linux24_task *linux24_scan(struct sl_sim *sim, struct linux24 *s, int cpu,
					 int *best_weight, sl_time *spent)
{
	struct linux24_task *best = NULL;
	int c = -1000, examined = 0;
	int this_mm = s->active_mm[cpu];

	for (int i = s->rq_head; i < s->rq_len; i++) {
		struct linux24_task *p = s->rq[i];
		if (!p)
			continue;
		examined++;
		if (!linux24_can_schedule(p, cpu))
			continue;
		int weight = linux24_goodness(s, p, cpu, this_mm);
		if (weight > c) {
			c = weight;
			best = p;
		}
	}
	sl_time hold = (examined ? examined : 1) * s->scan_ns;
	*spent += sl_charge_locked(sim, cpu, &s->runqueue_lock, hold) + hold;
	*best_weight = c;
	return best;
}

static void linux24_switch_to(struct sl_sim *sim, struct linux24 *s, int cpu,
			      struct linux24_task *next)
{
	s->curr[cpu] = next ? next->task : NULL;
	s->last_schedule[cpu] = sl_now(sim);
	if (!next)
		return;
	next->has_cpu = cpu;
	next->processor = cpu;
	/* kernel threads borrow the previous mm (lazy TLB) */
	if (!next->task->kthread)
		s->active_mm[cpu] = next->task->mm;
}

/* The task a tick inside cpu's schedule() counts on (NULL: none); a task
 * is that of one CPU at a time. */
static void linux24_defer_tick_to(struct linux24 *s, int cpu, struct linux24_task *p)
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
	if (lp)
		lp->yielded = false;	/* same_process, or __schedule_tail */
	if (next == lp)
		return prev;
	linux24_switch_to(sim, s, cpu, next);
	if (next)
		sl_tick_restart(sim, cpu);	/* stopped if it was idle */

	/* __schedule_tail: prev leaves its CPU (task_release_cpu), so that any
	 * CPU's scan may take it, a yielder too; a preempted task may also
	 * find a CPU of its own, but not a yielder: it asked to wait, and
	 * 2.4.27 skips only that search for it (SCHED_YIELD) */
	if (lp && prev->state == SL_TASK_RUNNABLE) {
		lp->has_cpu = -1;
		if (!yielded) {
			int looked = linux24_reschedule_idle(sim, s, lp);
			linux24_locked(sim, s, cpu, looked * s->scan_ns);
		}
	}
	return next ? next->task : NULL;
}

static struct sl_task *linux24_pick_next(struct sl_sim *sim, int cpu, struct sl_task *prev)
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

/* update_process_times() on p: one tick off its quantum; at 0 it is
 * rescheduled where it runs (FIFO is priority preemption, not a quantum).
 * A tick deferred into the schedule() that switched p out finds it on no
 * CPU: the flag stays with p, as p->need_resched does in the kernel. */
static void linux24_count_tick(struct sl_sim *sim, struct linux24_task *p)
{
	if (--p->counter > 0)
		return;
	p->counter = 0;
	if (p->task->sched_policy == SL_SCHED_FIFO)
		return;
	if (p->has_cpu >= 0)
		linux24_resched(sim, p->has_cpu);
	else
		p->need_resched = true;
}

static void linux24_tick(struct sl_sim *sim, int cpu)
{
	struct linux24 *s = linux24_state(sim);

	/* A tick while this CPU is still inside the schedule() that switched
	 * prev out (spinning on runqueue_lock or scanning, interrupts off) is
	 * taken at the unlock, still in prev's context: it counts down prev's
	 * quantum, not the next task's (2.4.27 schedule(): spin_lock_irq ...
	 * spin_unlock_irq before switch_to), and only one is taken there (the
	 * timer interrupt stays pending while they are off).  Without this a
	 * CPU that waited longer than a quantum for the lock switched in a
	 * task whose counter ran out before it ran: on 1,024 CPUs a
	 * hackbench never made progress again.  The same holds for the
	 * stretches of a wakeup and of __schedule_tail (linux24_irqs_off),
	 * in the running task's context: without it a waker spinning for the
	 * lock lost its whole quantum in one wakeup. */
	if (sl_now(sim) < s->sched_end[cpu]) {
		struct linux24_task *prev = s->sched_prev[cpu];
		if (prev) {
			linux24_defer_tick_to(s, cpu, NULL);
			linux24_count_tick(sim, prev);
		}
		return;
	}
	if (sl_now(sim) < s->irqs_off_end[cpu]) {
		if (s->irqs_off_ticked[cpu])
			return;
		s->irqs_off_ticked[cpu] = true;
	}
	struct sl_task *t = s->curr[cpu];
	if (t)
		linux24_count_tick(sim, linux24_of(t));
	else
		sl_tick_stop(sim, cpu);	/* until it picks a task */
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
static bool linux24_yield(struct sl_sim *sim, struct sl_task *t)
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
	/* move_last_runqueue under spin_lock_irq(&runqueue_lock) */
	linux24_move_last(s, p);
	linux24_locked(sim, s, t->cpu, s->scan_ns);
	return true;
}

/* setscheduler(): the caller's CPU reschedules; a renice does nothing. */
static void linux24_setscheduler(struct sl_sim *sim, struct sl_task *t,
				 const struct sl_sched_attr *old)
{
	linux24_sync(linux24_state(sim), linux24_of(t));
	if (old->sched_policy == t->sched_policy && old->rt_priority == t->rt_priority)
		return;
	if (sl_task_running(t))
		linux24_resched(sim, t->cpu);
}

/* set_cpus_allowed(): a task running where it may not gets need_resched. */
static void linux24_set_allowed(struct sl_sim *sim, struct sl_task *t)
{
	linux24_sync(linux24_state(sim), linux24_of(t));
	if (sl_task_running(t) && !sl_cpumask_test(&t->allowed, t->cpu))
		linux24_resched(sim, t->cpu);
}

/* exec_mmap(): the new image's mm becomes the CPU's active_mm
 * (activate_mm), which goodness() then favours (2.4.27 fs/exec.c). */
static void linux24_exec(struct sl_sim *sim, struct sl_task *t)
{
	struct linux24 *s = linux24_state(sim);
	struct linux24_task *p = linux24_of(t);

	linux24_sync(s, p);
	if (!t->kthread && t->cpu >= 0)
		s->active_mm[t->cpu] = p->mm;
}

/* A dead task leaves its CPU for good and is no CPU's deferred tick's
 * any more (the engine frees one nobody reaps; a dead prev is never made
 * one again, linux24_pick_next). */
static void linux24_exit(struct sl_sim *sim, struct sl_task *t)
{
	struct linux24 *s = linux24_state(sim);
	struct linux24_task *p = linux24_of(t);

	if (p->prev_of >= 0 && s->sched_prev[p->prev_of] == p)
		linux24_defer_tick_to(s, p->prev_of, NULL);
}

/* release_task(), in the reaper's wait(): the child's unused quantum was
 * the parent's to begin with (2.4.27 kernel/exit.c gives it to current). */
static void linux24_release(struct sl_sim *sim, struct sl_task *t)
{
	struct linux24 *s = linux24_state(sim);
	struct sl_task *parent = t->parent;

	if (!s->exit_return || !parent || parent->state == SL_TASK_DEAD)
		return;
	struct linux24_task *pp = linux24_of(parent);
	pp->counter += linux24_of(t)->counter;
	if (pp->counter > s->max_counter)
		pp->counter = s->max_counter;
}

static int linux24_check(struct sl_sim *sim, struct sl_err *err)
{
	struct linux24 *s = linux24_state(sim);
	int queued = 0, runnable = 0;

	for (int i = s->rq_head; i < s->rq_len; i++) {
		const struct linux24_task *p = s->rq[i];
		if (!p)
			continue;
		queued++;
		if (p->slot != i || !p->queued)
			return sl_fail_internal(err, "linux24: runqueue slot %d holds task %d "
						"which thinks it is at %d", i, p->task->id, p->slot);
		if (p->task->state != SL_TASK_RUNNABLE)
			return sl_fail_internal(err, "linux24: task %d queued but not runnable",
						p->task->id);
		if (p->counter < 0)
			return sl_fail_internal(err, "linux24: task %d has counter %d",
						p->task->id, p->counter);
	}
	for (struct sl_task *t = sl_task_first(sim); t; t = sl_task_next(t)) {
		const struct linux24_task *p = linux24_of(t);
		struct linux24_task copy = { .task = t };
		linux24_sync(s, &copy);
		if (copy.mm != p->mm || copy.rt_goodness != p->rt_goodness ||
		    copy.nice_weight != p->nice_weight || copy.allowed_all != p->allowed_all)
			return sl_fail_internal(err, "linux24: task %d's copy of its class, nice, "
						"mm or mask is stale", t->id);
	}
	for (struct sl_task *t = sl_task_first(sim); t; t = sl_task_next(t))
		runnable += t->state == SL_TASK_RUNNABLE;
	if (queued != s->nr_running || queued != runnable)
		return sl_fail_internal(err, "linux24: %d queued, nr_running %d, %d runnable",
					queued, s->nr_running, runnable);
	for (int cpu = 0; cpu < s->ncpus; cpu++) {
		struct sl_task *t = s->curr[cpu];
		if (t && (!linux24_of(t)->queued || linux24_of(t)->has_cpu != cpu))
			return sl_fail_internal(err, "linux24: cpu %d runs task %d which is not "
						"queued there", cpu, t->id);
	}
	return 0;
}

const struct sl_policy_ops sl_policy_linux24 = {
	.name = "linux24",
	.summary = "Linux 2.4: one global runqueue, goodness() scan, counter recalculation",
	.knobs = linux24_knobs,
	.task_size = sizeof(struct linux24_task),
	.sched_policies = (1u << SL_SCHED_FIFO) | (1u << SL_SCHED_RR),
	.init = linux24_init,
	.destroy = linux24_destroy,
	.fork = linux24_fork,
	.wakeup = linux24_wakeup,
	.pick_next = linux24_pick_next,
	.tick = linux24_tick,
	.yield = linux24_yield,
	.exec = linux24_exec,
	.exit = linux24_exit,
	.release = linux24_release,
	.setscheduler = linux24_setscheduler,
	.set_allowed = linux24_set_allowed,
	.check = linux24_check,
};
