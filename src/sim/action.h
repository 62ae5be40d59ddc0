/*
 * action.h - what a task does next: the vocabulary of workload programs
 * (workloads.md section 0): compute, sleep, fork/exec/exit/wait, and the
 * wait-queue based primitives (pipes and sockets as channels, locks,
 * barriers).
 */
#ifndef SL_SIM_ACTION_H
#define SL_SIM_ACTION_H

#include <stdbool.h>

#include "base/cpumask.h"
#include "base/units.h"
#include "hw/speed.h"

struct sl_prog;
struct sl_chan;
struct sl_mutex;
struct sl_barrier;
struct sl_blockdev;
struct sl_pagecache;

enum sl_act_kind {
	SL_ACT_RUN,		/* compute `work` reference ns in user mode */
	SL_ACT_SYS,		/* compute `work` reference ns in kernel mode */
	SL_ACT_SLEEP,		/* block for exactly `ns` of wall time (interruptible): a
				 * modelled wait (a disk's time, a trace's recorded sleep) */
	SL_ACT_NANOSLEEP,	/* nanosleep(`ns`): block until the kernel's timer fires,
				 * which the policy's timers decide (sim.h sl_set_timers) */
	SL_ACT_IO_WAIT,		/* block for `ns` uninterruptibly (a disk read, a page fault) */
	SL_ACT_FORK,		/* create a child running `prog`; result = child id */
	SL_ACT_EXEC,		/* replace the image: charges exec cost, exec balancing */
	SL_ACT_WAIT,		/* wait for any child to exit and reap it; result = its id,
				 * -1 if none */
	SL_ACT_REAP,		/* reap the oldest exited child if there is one, without
				 * blocking (wait with WNOHANG); result = its id, else -1 */
	SL_ACT_EXIT,		/* exit (the parent reaps it with SL_ACT_WAIT) */
	SL_ACT_CHAN_WRITE,	/* write `bytes` to `chan`: blocks while full */
	SL_ACT_CHAN_READ,	/* read up to `bytes` from `chan`: blocks while empty; result = bytes, 0 at EOF */
	SL_ACT_CHAN_CLOSE,	/* close the writing end: readers see EOF when empty */
	SL_ACT_LOCK,		/* acquire `mutex`: blocks while held */
	SL_ACT_UNLOCK,		/* release `mutex`: wakes its first waiter, which takes it
				 * if it is still free when it runs (a futex) */
	SL_ACT_BARRIER,		/* wait until `barrier` has all its parties */
	SL_ACT_YIELD,		/* sched_yield */
	SL_ACT_DISK_IO,		/* a request of `bytes` to `dev`: block uninterruptibly
				 * until the disk has served it (blockdev.c) */
	SL_ACT_DIRTY,		/* dirty `bytes` of page cache `pc`; above the dirty
				 * limit wait for writeback first (pagecache.c) */
	SL_ACT_SETSCHED,	/* sched_setscheduler/setpriority on itself: `setsched`
				 * (sim/sched_attr.c) */
	SL_ACT_SETAFFINITY,	/* sched_setaffinity on itself: `allowed` */
	SL_ACT_PAY_COSTS,	/* let the kernel's pending costs (fork, exec,
				 * switch) run, then a burst of no work: a trace
				 * replay's way to let a preemption come first */
};

struct sl_action {
	enum sl_act_kind kind;
	union {
		struct {
			double work;		/* reference ns */
			enum sl_wclass wclass;
			bool touch;		/* first touch of the task's memory: its
						 * pages land where this work runs
						 * (sl_act_first_touch) */
		} run;
		sl_time ns;			/* SLEEP, NANOSLEEP, IO_WAIT */
		struct {
			const struct sl_prog *prog;
			void *state;		/* the child's prog_state */
			const char *comm;
			bool thread;		/* shares the parent's mm (clone) */
			bool vfork;		/* vfork(): shares the parent's mm, and
						 * the parent sleeps (uninterruptible)
						 * until the child execs or exits */
			bool set_nice;		/* else the child inherits the parent's nice */
			int nice;
			int lat_group;		/* the child's latency group; 0: the parent's */
			bool set_sched;		/* else the child inherits policy and rt_priority */
			int sched_policy;	/* enum sl_sched_policy */
			int rt_priority;
			const sl_cpumask *allowed;	/* the child's mask (ANDed with the
							 * machine's); NULL: the parent's */
		} fork;
		struct {
			int sched_policy;	/* enum sl_sched_policy */
			int rt_priority;
			int nice;
		} setsched;
		const sl_cpumask *allowed;	/* SETAFFINITY: must outlive the action */
		struct {
			const char *comm;	/* new name */
		} exec;
		struct {
			struct sl_chan *chan;
			long bytes;
			bool more;	/* read: the system call goes on after it
					 * (sl_act_recv); write: no preemption comes
					 * before the next action (a replayed wake
					 * that its task slept right after) */
		} chan;
		struct sl_mutex *mutex;
		struct sl_barrier *barrier;
		struct {
			struct sl_blockdev *dev;
			long bytes;
			bool seek;		/* random access: pays positioning */
		} disk;
		struct {
			struct sl_pagecache *pc;
			double bytes;
		} dirty;
	} u;
};

/*
 * The constructors are macros, not inline functions, so that a program's
 * `*next = sl_act_run(...)` stores the action's fields in place.  GCC 12
 * builds the struct an inline function returns on the stack and copies it
 * with 16-byte loads that straddle the narrower stores it was built with:
 * a store-forwarding stall at every step, a fifth of a chat run's time
 * (clang stores in place either way).  Each argument is evaluated once.
 * Workload helpers that add logic write through a pointer for the same
 * reason (`static void act_net(struct sl_action *a, ...)`).
 */
#define sl_act_run(work_ns, wc) \
	((struct sl_action){ .kind = SL_ACT_RUN, .u.run = { .work = (work_ns), .wclass = (wc) } })
/* Kernel work (system time) of work class wc. */
#define sl_act_sys_as(work_ns, wc) \
	((struct sl_action){ .kind = SL_ACT_SYS, .u.run = { .work = (work_ns), .wclass = (wc) } })
#define sl_act_sys(work_ns) sl_act_sys_as(work_ns, SL_WC_INT)
/* RUN or SYS work `a` that touches the task's new memory for the first
 * time, page after page (an initialisation after exec, and its page
 * faults): each page lands on the node where the work that touches it
 * runs, and once the task does anything else its memory is where those
 * pages are (docs/engine.md, "First touch").  Until then it draws on the
 * memory it had. */
static inline struct sl_action sl_act_first_touch(struct sl_action a)
{
	a.u.run.touch = true;
	return a;
}
#define sl_act_sleep(wall_ns) ((struct sl_action){ .kind = SL_ACT_SLEEP, .u.ns = (wall_ns) })
/* A sleep on the kernel's timer (nanosleep, usleep, clock_nanosleep with
 * what is left of an absolute time): it ends where the policy's timer fires. */
#define sl_act_nanosleep(wall_ns) ((struct sl_action){ .kind = SL_ACT_NANOSLEEP, .u.ns = (wall_ns) })
#define sl_act_io_wait(wall_ns) ((struct sl_action){ .kind = SL_ACT_IO_WAIT, .u.ns = (wall_ns) })
#define sl_act_disk_io(blockdev, nbytes, random) \
	((struct sl_action){ .kind = SL_ACT_DISK_IO, \
			     .u.disk = { .dev = (blockdev), .bytes = (nbytes), .seek = (random) } })
#define sl_act_dirty(pagecache, nbytes) \
	((struct sl_action){ .kind = SL_ACT_DIRTY, .u.dirty = { .pc = (pagecache), .bytes = (nbytes) } })
/* CHAN_READ or CHAN_WRITE (or CLOSE, bytes unused) on channel ch. */
#define sl_act_chan(act_kind, ch, nbytes) \
	((struct sl_action){ .kind = (act_kind), .u.chan = { .chan = (ch), .bytes = (nbytes) } })
/* A read whose system call goes on with kernel work (the copy of what it
 * read, a socket's receive path): the program's next action, a system-time
 * one.  The call returns to user space after that, not between the two,
 * which a kernel without CONFIG_PREEMPT waits for (sim.h
 * sl_set_kernel_preempt). */
#define sl_act_recv(ch, nbytes) \
	((struct sl_action){ .kind = SL_ACT_CHAN_READ, \
			     .u.chan = { .chan = (ch), .bytes = (nbytes), .more = true } })
/* LOCK or UNLOCK of mutex mx. */
#define sl_act_mutex(act_kind, mx) ((struct sl_action){ .kind = (act_kind), .u.mutex = (mx) })
#define sl_act_barrier(bar) ((struct sl_action){ .kind = SL_ACT_BARRIER, .u.barrier = (bar) })
/* fork() (thread false) or a clone sharing the parent's mm (true), the
 * child running `prog` on `state` under the name `comm` (NULL: the
 * parent's); the fork's other fields keep their defaults (inherited). */
#define sl_act_fork(child_prog, child_state, child_comm, is_thread) \
	((struct sl_action){ .kind = SL_ACT_FORK, \
			     .u.fork = { .prog = (child_prog), .state = (child_state), \
					 .comm = (child_comm), .thread = (is_thread) } })
#define sl_act_exec(new_comm) ((struct sl_action){ .kind = SL_ACT_EXEC, .u.exec.comm = (new_comm) })
#define sl_act_exit() ((struct sl_action){ .kind = SL_ACT_EXIT })
#define sl_act_wait() ((struct sl_action){ .kind = SL_ACT_WAIT })
#define sl_act_reap() ((struct sl_action){ .kind = SL_ACT_REAP })

#endif
