/*
 * policy_ops.h - the contract between the engine and a scheduler policy,
 * shaped like the kernel's struct sched_class and sched_ext's ops table
 * (6.12 kernel/sched/sched.h; tools/sched_ext/scx_*.bpf.c): one file per policy in src/policy/,
 * each ending with its `const struct sl_policy_ops`.
 *
 * The policy owns its runqueues (2.4's single list, O(1)'s per-CPU arrays,
 * the HT patch's per-package queue).  The engine owns task state, CPU
 * occupancy, time, accounting and the kernel mechanisms; it calls these ops
 * at the points where the kernel called into the scheduler:
 *
 *   fork          wake_up_forked_process: enqueue the new child somewhere
 *   wakeup        try_to_wake_up: a sleeping task became runnable
 *   pick_next     schedule() on `cpu`: choose what runs next
 *   tick          scheduler_tick + rebalance_tick, once per jiffy per CPU
 *   exec          sched_balance_exec / sched_exec (optional)
 *   exit          the task died: forget it (optional)
 *   release       its parent reaped it: release_task, sched_exit (optional)
 *   migration     the per-CPU migration thread runs (optional)
 *   setscheduler  sched_setscheduler / set_user_nice changed a task (optional)
 *   set_allowed   set_cpus_allowed changed a task's mask (optional)
 *
 * Ops are called with no locks and no reentrancy: a policy may call the
 * engine services of sim.h (sl_resched, sl_migration_wake, ...) from any
 * op, and the engine acts on them after the op returns.
 */
#ifndef SL_SIM_POLICY_OPS_H
#define SL_SIM_POLICY_OPS_H

#include <stddef.h>
#include <stdint.h>

#include "base/err.h"
#include "base/spec.h"

struct sl_sim;
struct sl_task;
struct sl_sched_attr;

/* Flags for the wakeup op. */
#define SL_WAKE_SYNC	(1u << 0)	/* waker is about to sleep (pipes) */
#define SL_WAKE_TIMER	(1u << 1)	/* woken by a timer, not by a task */
#define SL_WAKE_PIPE	(1u << 2)	/* a pipe's wakeup by a waker that goes on
					 * running: an async wakeup in 2.4-2.6's
					 * pipe code, a sync one in 6.x's
					 * (docs/engine.md, "Pipe wakeups") */
#define SL_WAKE_CHILD_EXIT (1u << 3)	/* a parent in wait() woken by its
					 * exiting child, which leaves the CPU for
					 * good: plain in 2.4.27 (wake_up_parent),
					 * sync from 2.6 (__wake_up_parent).  It
					 * comes while the dead child is still its
					 * CPU's current, before that CPU's
					 * schedule(), as do_exit's exit_notify
					 * (docs/engine.md, "Exit wakeups") */
#define SL_WAKE_SOCK	(1u << 4)	/* a socket's wakeup of its reader (data
					 * ready) or of an AF_UNIX writer (write
					 * space): wake_up_interruptible in 2.4.27
					 * and 2.6.11, ..._sync_poll in 6.12
					 * (sock_def_readable, unix_write_space) */
#define SL_WAKE_IRQ	(1u << 5)	/* woken in interrupt context, in_interrupt()
					 * true: a timer's expiry (with
					 * SL_WAKE_TIMER), a disk's completion (its
					 * IRQ handler), loopback TCP's wakeups (the
					 * NET_RX softirq that delivers the data
					 * and the ACKs: 2.6.11 loopback_xmit ->
					 * netif_rx, tcp_prequeue, tcp_ack).  2.6's
					 * activate_task credits such a wakeup's
					 * whole runqueue wait (activated = 2), and
					 * 2.5.68 gives its sleep overflow to no
					 * waker */
/* The wakeups a modern kernel makes sync: 6.12 fs/pipe.c pipe_write and
 * pipe_read (wake_up_interruptible_sync_poll whether or not the waker
 * sleeps), net/core/sock.c sock_def_readable and net/unix/af_unix.c
 * unix_write_space (the same), and kernel/exit.c __wake_up_parent
 * (__wake_up_sync_key), beside the waker about to sleep.  cfs and sl read
 * these as sync. */
#define SL_WAKE_SYNC_MODERN	(SL_WAKE_SYNC | SL_WAKE_PIPE | SL_WAKE_SOCK | SL_WAKE_CHILD_EXIT)

struct sl_policy_ops {
	const char *name;
	const char *summary;			/* one line for `list policies` */
	const struct sl_param_def *knobs;	/* NULL-terminated; may be NULL */
	size_t task_size;			/* bytes of per-task private state */
	/* What a task may cost beyond task_size in the policy's own run-queue
	 * structures, for the memory estimate (sim/memest.c): bytes per task,
	 * and bits per task per CPU (2.4's scan index keeps a bitmap of
	 * run-queue slots per CPU).  0 for most. */
	size_t queue_bytes_per_task;
	size_t queue_bits_per_task_cpu;
	bool cpu0_only;				/* a uniprocessor kernel: CPU 0 is all it
						 * knows, so tasks must be allowed there */
	unsigned sched_policies;		/* (1u << SL_SCHED_*) of the classes it
						 * implements beside SCHED_NORMAL, which
						 * every policy has; a workload asking for
						 * another is refused before the run
						 * (sl_sim_supports_sched) */

	/*
	 * Required.  Read knobs (always bound to this policy's table, defaults
	 * filled in), allocate private state, and tell the engine
	 * the tick rate with sl_set_hz().  Return the state (passed back by
	 * sl_policy_data()) or NULL with err set.
	 */
	void *(*init)(struct sl_sim *sim, const struct sl_params *knobs,
		      struct sl_err *err);
	void (*destroy)(struct sl_sim *sim);

	/*
	 * Required.  `child` was just created by `parent` (which is running on
	 * its CPU).  Initialise the child's private state and enqueue it.
	 * parent == NULL for the workload's first task, which starts on CPU 0
	 * or, if the workload is pinned elsewhere, its first allowed CPU.
	 */
	void (*fork)(struct sl_sim *sim, struct sl_task *parent, struct sl_task *child);

	/*
	 * Required.  `t` (sleeping, not on any queue) becomes runnable.
	 * `waker_cpu` is the CPU of the waking task, or t->last_cpu for timer
	 * wakeups.  Enqueue it and sl_resched() the CPU that should run it.
	 */
	void (*wakeup)(struct sl_sim *sim, struct sl_task *t, int waker_cpu,
		       unsigned flags);

	/*
	 * Required.  schedule() on `cpu`.  `prev` is the task that was running
	 * there (NULL if the CPU was idle).  If prev->state is not RUNNABLE it
	 * blocked or exited: remove it from the policy's queues first.  Return
	 * the task to run (may be prev; must not be running on another CPU),
	 * or NULL to idle.
	 */
	struct sl_task *(*pick_next)(struct sl_sim *sim, int cpu, struct sl_task *prev);

	/*
	 * Required.  One timer tick on `cpu` (every 1/HZ s, at the phase and
	 * in the order of the mode the policy set: sim.h enum sl_tick_mode).
	 * sl_curr(cpu) is the running task or NULL.
	 */
	void (*tick)(struct sl_sim *sim, int cpu);

	/*
	 * Optional.  With nothing runnable the engine stops the tick; the
	 * kernel's idle CPUs ticked on, and what their ticks did (a decay, an
	 * idle balance's memory of empty runqueues) is due when something
	 * wakes.  Called for each CPU whose ticks of jiffies first..last were
	 * skipped, as the first task becomes runnable again, before the policy
	 * hears of it: every runqueue is still empty.  Charges made here are
	 * the past's idle time and count for nothing.
	 */
	void (*ticks_skipped)(struct sl_sim *sim, int cpu, uint64_t first, uint64_t last);

	/* Required of a policy that starts hrtimers (sl_hrtimer_start): its
	 * timer `id` on `cpu` expired. */
	void (*hrtimer)(struct sl_sim *sim, int cpu, int id);

	/* Optional.  `t`, running, execs (exec balancing; 2.4's activate_mm).
	 * t->mm is already the new image's: the kernel's sched_exec came
	 * before exec_mmap, but no exec balancing reads the mm. */
	void (*exec)(struct sl_sim *sim, struct sl_task *t);

	/* Optional.  `t`, running on its CPU, calls sched_yield(); return
	 * whether schedule() follows at once (2.5, 2.6 and later always; 2.4
	 * only when a task waits for a CPU).  NULL: a yield is a plain
	 * reschedule. */
	bool (*yield)(struct sl_sim *sim, struct sl_task *t);

	/* Optional.  `t` exited (already removed in pick_next): forget it. */
	void (*exit)(struct sl_sim *sim, struct sl_task *t);
	/* Optional.  `t`, dead, is reaped by its parent in wait(), the parent
	 * running: release_task, where 2.4 gives the child's counter back to
	 * the reaper and 2.5/2.6's sched_exit its time slice and sleep_avg to
	 * the parent.  Not called for a child nobody waits for. */
	void (*release)(struct sl_sim *sim, struct sl_task *t);

	/*
	 * Optional.  The migration thread of `cpu` runs: whatever ran there
	 * has been preempted and is runnable-not-running.  Requested with
	 * sl_migration_wake(); `arg` is what was passed there.
	 */
	void (*migration)(struct sl_sim *sim, int cpu, long arg);

	/*
	 * Optional.  The engine has changed t's sched_policy, rt_priority or
	 * nice (`old` has what they were); t may be running, queued or
	 * sleeping.  Requeue it where its new priority puts it and
	 * sl_resched() whatever CPU should now preempt, as the kernel's
	 * sched_setscheduler and set_user_nice did.  NULL: the policy reads
	 * nice afresh when it next computes a priority, and has no other class.
	 */
	void (*setscheduler)(struct sl_sim *sim, struct sl_task *t,
			     const struct sl_sched_attr *old);

	/*
	 * Optional (required to honour live mask changes).  The engine has
	 * set t->allowed (never empty).  If t is running or queued on a CPU
	 * outside it, move it as the kernel's set_cpus_allowed did: a
	 * sleeping task just gets a CPU of the new mask; a running one (and,
	 * in 2.6.0-2.6.11, a queued one too: migrate_task) is moved by its
	 * CPU's migration thread (sl_migration_wake), or, in 2.4, leaves at
	 * its CPU's reschedule (sl_resched).  Until that has run t may still
	 * run where it is (sim/check.c allows exactly that window).
	 */
	void (*set_allowed)(struct sl_sim *sim, struct sl_task *t);

	/* Optional, for tests and --check: verify internal consistency. */
	int (*check)(struct sl_sim *sim, struct sl_err *err);
};

#endif
