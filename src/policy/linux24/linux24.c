/*
 * linux24/linux24.c - the Linux 2.4 scheduler: one global runqueue under one
 * global lock, goodness() picked by an O(runnable) scan, counters
 * recalculated for every task when all runnable candidates have used their
 * quantum, and reschedule_idle() choosing the CPU to poke on wakeup.
 *
 * The code, one idea per file:
 *   linux24/linux24.h   the task record, the runqueue and schedule_data,
 *                       NICE_TO_TICKS and goodness()
 *   linux24/runqueue.c  the runqueue_head list, with the copy of it the
 *                       scan reads and that copy's index
 *   linux24/wake.c      try_to_wake_up, reschedule_idle, do_fork's split,
 *                       and the stretches with runqueue_lock held
 *   linux24/schedule.c  schedule() and its recalculation, sched_yield
 *   linux24/tick.c      update_process_times, and the tick taken inside
 *                       schedule()
 *   linux24/linux24.c   this file: knobs and set-up, setscheduler,
 *                       set_cpus_allowed, exec, exit, release, the check
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
 *     its order matters (least recently active idle CPU); it is stamped
 *     where schedule()'s locked stretch ends, as get_cycles() after the
 *     unlock is.
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
#include <stdlib.h>

#include "policy/linux24/linux24.h"

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
	s->dense = sl_xcalloc((unsigned long)s->rq_cap, sizeof(*s->dense));
	s->base_count = sl_xcalloc(LINUX24_BASES, sizeof(*s->base_count));
	s->top_base = -1;
	s->rq_words = s->rq_cap / 64;
	s->bits = sl_xcalloc((unsigned long)(LINUX24_BASES + s->ncpus) * (unsigned long)s->rq_words,
			     sizeof(*s->bits));
	s->mm_cap = 64;
	s->mm_head = sl_xcalloc((unsigned long)s->mm_cap, sizeof(*s->mm_head));
	s->mm_count = sl_xcalloc((unsigned long)s->mm_cap, sizeof(*s->mm_count));
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
	free(linux24_state(sim)->dense);
	free(linux24_state(sim)->base_count);
	free(linux24_state(sim)->bits);
	free(linux24_state(sim)->mm_head);
	free(linux24_state(sim)->mm_count);
	free(linux24_state(sim));
}

/* setscheduler(): the caller's CPU reschedules; a renice does nothing. */
static void linux24_setscheduler(struct sl_sim *sim, struct sl_task *t,
				 const struct sl_sched_attr *old)
{
	struct linux24 *s = linux24_state(sim);

	linux24_sync(s, linux24_of(t));
	linux24_touch(s, linux24_of(t));
	if (old->sched_policy == t->sched_policy && old->rt_priority == t->rt_priority)
		return;
	if (sl_task_running(t))
		linux24_resched(sim, t->cpu);
}

/* set_cpus_allowed(): a task running where it may not gets need_resched. */
static void linux24_set_allowed(struct sl_sim *sim, struct sl_task *t)
{
	struct linux24 *s = linux24_state(sim);

	linux24_sync(s, linux24_of(t));
	linux24_touch(s, linux24_of(t));
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
	linux24_touch(s, p);
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
	linux24_touch(s, pp);
}

static int linux24_check(struct sl_sim *sim, struct sl_err *err)
{
	struct linux24 *s = linux24_state(sim);
	int queued = 0, runnable = 0, partial = 0;

#ifdef SL_TESTING
	if (s->dense_wrong)
		return sl_fail_internal(err, "linux24: the dense scan on cpu %d picked other than "
					"the walk", s->dense_wrong - 1);
#endif
	for (int i = s->rq_head; i < s->rq_len; i++) {
		const struct linux24_task *p = s->rq[i];
		struct linux24_slot e = { .base = LINUX24_HIDDEN, .pcpu = -1, .mm = -1 };
		if (p)
			e = linux24_slot_of(p);
		const struct linux24_slot *d = &s->dense[i];
		if (d->base != e.base || d->pcpu != e.pcpu || d->mm != e.mm ||
		    d->partial != e.partial)
			return sl_fail_internal(err, "linux24: runqueue slot %d's dense copy is stale "
						"(base %d pcpu %d mm %d, not %d %d %d)", i, d->base,
						d->pcpu, d->mm, e.base, e.pcpu, e.mm);
		if (!p)
			continue;
		queued++;
		partial += e.partial;
		if (p->has_cpu >= 0 && (p->has_cpu >= s->ncpus || s->curr[p->has_cpu] != p->task))
			return sl_fail_internal(err, "linux24: task %d is on cpu %d, which runs "
						"another", p->task->id, p->has_cpu);
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
	/* the scan's index, counted again from the copy: the buckets, and
	 * while it is kept each visible slot's bits and list, and no other
	 * (none at all while it is not) */
	int count[LINUX24_BASES] = { 0 }, top = -1, visible = 0, owned = 0;
	for (int i = s->rq_head; i < s->rq_len; i++) {
		const struct linux24_slot *e = &s->dense[i];
		if (e->base < -1)
			continue;
		int b = e->base + 1 < LINUX24_BASES ? e->base + 1 : LINUX24_BASES - 1;
		uint64_t bit = (uint64_t)1 << (i & 63);
		count[b] += s->indexed;
		visible++;
		owned += e->pcpu >= 0;
		if (!s->indexed)
			continue;
		if (!(linux24_base_bits(s, b)[i >> 6] & bit) ||
		    (e->pcpu >= 0 && !(linux24_cpu_bits(s, e->pcpu)[i >> 6] & bit)))
			return sl_fail_internal(err, "linux24: slot %d is missing from the scan's "
						"index", i);
		if (e->mm >= 0) {
			const struct linux24_task *q = s->mm_head[e->mm];
			while (q && q != s->rq[i])
				q = q->mm_next;
			if (!q)
				return sl_fail_internal(err, "linux24: slot %d is missing from mm "
							"%d's list", i, e->mm);
		}
	}
	for (int b = 0; b < LINUX24_BASES; b++) {
		if (count[b] != s->base_count[b])
			return sl_fail_internal(err, "linux24: %d visible slots of base bucket %d, "
						"counted %d", count[b], b, s->base_count[b]);
		if (count[b])
			top = b;
	}
	if (top != s->top_base)
		return sl_fail_internal(err, "linux24: top base bucket %d, kept %d", top, s->top_base);
	long set = 0, set_cpu = 0;
	for (int b = 0; b < LINUX24_BASES + s->ncpus; b++)
		for (int w = 0; w < s->rq_words; w++) {
			int n = __builtin_popcountll(s->bits[(size_t)b * (size_t)s->rq_words + (size_t)w]);
			if (b < LINUX24_BASES)
				set += n;
			else
				set_cpu += n;
		}
	if (!s->indexed)
		visible = owned = 0;
	if (set != visible || set_cpu != owned)
		return sl_fail_internal(err, "linux24: the scan's index has %ld and %ld bits for %d "
					"and %d slots", set, set_cpu, visible, owned);
	int listed = 0;
	for (int mm = 0; mm < s->mm_cap; mm++) {
		int n = 0;
		for (const struct linux24_task *q = s->mm_head[mm]; q && n <= s->nr_running;
		     q = q->mm_next)
			n++;
		if (n != s->mm_count[mm])
			return sl_fail_internal(err, "linux24: mm %d's list holds %d, counted %d",
						mm, n, s->mm_count[mm]);
		listed += n;
	}
	int with_mm = 0;
	for (int i = s->rq_head; i < s->rq_len && s->indexed; i++)
		with_mm += s->dense[i].base >= -1 && s->dense[i].mm >= 0;
	if (listed != with_mm)
		return sl_fail_internal(err, "linux24: %d tasks on the mm lists, %d visible slots "
					"with an mm", listed, with_mm);
	if (partial != s->nr_partial)
		return sl_fail_internal(err, "linux24: %d queued tasks with a partial mask, "
					"nr_partial %d", partial, s->nr_partial);
	for (int cpu = 0; cpu < s->ncpus; cpu++)
		if (s->active_mm[cpu] == -1)
			return sl_fail_internal(err, "linux24: cpu %d's active_mm is -1, the dense "
						"copy's no-mm", cpu);
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
	/* runqueue.c's arrays hold up to four slots per queued task (an array
	 * doubles while up to half its slots are holes): rq[] (the engine's
	 * two pointers cover two), the dense copy, the index's bit per base
	 * bucket and per CPU; and the mm lists' heads and counts, doubling */
	.queue_bytes_per_task = 2 * sizeof(void *) +
				4 * (sizeof(struct linux24_slot) + LINUX24_BASES / 8) +
				2 * (sizeof(struct linux24_task *) + sizeof(int)),
	.queue_bits_per_task_cpu = 4,
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
