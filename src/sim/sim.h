/*
 * sim.h - the simulation engine: clock, events, tasks on CPUs, and the
 * kernel services that policies and workloads call.
 *
 * One struct sl_sim is one run: a machine, one policy instance, one
 * workload, one seed.  Identical inputs give identical results: events are
 * ordered by (time, insertion sequence) and all randomness comes from
 * per-task streams and, for ticks in SL_TICK_SYNC, one stream of the run.
 */
#ifndef SL_SIM_SIM_H
#define SL_SIM_SIM_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "base/err.h"
#include "base/units.h"
#include "hw/machine.h"
#include "sim/observer.h"
#include "sim/policy_ops.h"
#include "sim/prog.h"
#include "sim/task.h"

struct sl_sim;

/* ---- building and running ---- */

struct sl_sim_config {
	const struct sl_machine *machine;
	const struct sl_policy_ops *policy;
	const struct sl_params *knobs;	/* NULL: the policy's defaults */
	uint64_t seed;
	sl_time time_limit;	/* stop at this simulated time (0 = none) */
	bool check;		/* verify invariants after every event (tests) */
	const struct sl_observer *observer;	/* optional: tracepoint callbacks */
	/* Stop the run (as sl_sim_stop) once the tasks' programs have taken
	 * this many steps (0 = no limit): a bound on the work of a run where
	 * the time limit bounds nothing, programs whose actions take no
	 * simulated time (rt-app's lock/unlock loops; fuzz harnesses). */
	uint64_t step_limit;
};

struct sl_sim *sl_sim_create(const struct sl_sim_config *cfg, struct sl_err *err);
void sl_sim_destroy(struct sl_sim *sim);

/* The CPUs the workload's root tasks, and so every task they create, may
 * run on (taskset -c on the benchmark; default all).  Before the first
 * root is spawned; a mask with no CPU of the machine is ignored. */
void sl_sim_set_root_allowed(struct sl_sim *sim, const sl_cpumask *allowed);
/* The tasks' programs come from the user's file `what` (an rt-app file, a
 * trace): a deadlock - tasks asleep with nothing left to wake them - is
 * then that file's doing, as the real program would hang too, and is
 * reported as bad input naming it (exit 2), not as the simulator's error. */
void sl_sim_set_program_source(struct sl_sim *sim, const char *what);
/* Create the workload's root task (id 0) running `prog`; the policy's fork
 * op places it with parent NULL. */
struct sl_task *sl_sim_spawn_root(struct sl_sim *sim, const struct sl_prog *prog,
				  void *state, const char *comm);

/* Run until every task has exited and been reaped, the time limit, or
 * sl_sim_stop().  Returns 0, or -1 with err set on an invariant failure. */
int sl_sim_run(struct sl_sim *sim, struct sl_err *err);
void sl_sim_stop(struct sl_sim *sim);
/* Stop at simulated time `limit` (0 = none); for open-ended workloads,
 * whose start() knows how long they run. */
void sl_sim_set_time_limit(struct sl_sim *sim, sl_time limit);

/* ---- for everyone ---- */

sl_time sl_now(const struct sl_sim *sim);
const struct sl_topo *sl_topo(const struct sl_sim *sim);
uint64_t sl_seed(const struct sl_sim *sim);

/* ---- services for policies ---- */

void *sl_policy_data(const struct sl_sim *sim);
void sl_set_hz(struct sl_sim *sim, unsigned hz);
unsigned sl_hz(const struct sl_sim *sim);
/* Ticks since the start of the run (at the policy's HZ).  A CPU whose
 * tick comes at a phase offset inside the jiffy sees the jiffy that began
 * it, as the kernel's CPUs read the jiffies IRQ0 had incremented. */
uint64_t sl_jiffies(const struct sl_sim *sim);

/* When each CPU's timer tick comes within a jiffy (set by the policy at
 * init, as its HZ; the engine's default is SL_TICK_ORDERED).  The order
 * matches the choices of the policies' `tick` knob (SL_TICK_CHOICES).
 *   STAGGERED  2.4 i386 setup_APIC_timer(): the jiffy is cut into ncpus+1
 *              slices and CPU n's local APIC timer fires at slice n+1.
 *   SYNC       2.6 i386 setup_APIC_timer() (and 6.12 without skew_tick):
 *              every CPU at the jiffy's start; which CPU's handler runs
 *              first is a race, drawn per tick from a stream of the run seed.
 *   ORDERED    every CPU at the jiffy's start in CPU index order: no kernel,
 *              kept for what-ifs and for comparing with older results.
 *   BITREV     ia64_cpu_local_tick() (2.4.27 and 2.6.11): CPU 0 at the
 *              jiffy's start, CPU n > 0 at (2(n - hi) + 1) / (2 hi) of it,
 *              hi the highest power of two <= n (1/2, 1/4, 3/4, 1/8, ...):
 *              consecutive ticks fall on CPUs far apart in number. */
enum sl_tick_mode {
	SL_TICK_STAGGERED,
	SL_TICK_SYNC,
	SL_TICK_ORDERED,
	SL_TICK_BITREV,
};
#define SL_TICK_CHOICES "staggered|sync|ordered|bitrev"
/* The policies' `tick` knob (its choice index is the mode): `why` says
 * why `def` is the policy's default (NULL: the machine's arch's, as
 * policy/kernel_arch.h gives it). */
#define SL_TICK_KNOB(def_, why) \
	{ .name = "tick", .type = SL_PARAM_CHOICE, .def = def_, .choices = SL_TICK_CHOICES, \
	  .doc = "when each CPU's timer tick comes in a jiffy: staggered (CPU n at " \
		 "(n+1)/(ncpus+1) of it), sync (all at its start, the order a new race each " \
		 "tick), ordered (all at its start, CPU 0 first: no kernel's) or bitrev (CPU " \
		 "n>0 at the bit-reversed fraction 1/2, 1/4, 3/4, 1/8, ... of it: ia64's) (" why ")" }
void sl_set_tick_mode(struct sl_sim *sim, enum sl_tick_mode mode);
enum sl_tick_mode sl_tick_mode(const struct sl_sim *sim);
/* Where in its jiffy `cpu`'s tick comes under the current mode (ns). */
sl_time sl_tick_phase(const struct sl_sim *sim, int cpu);
/* When `cpu`'s next tick comes, strictly after now (cpu < 0: the next
 * tick of any CPU), if something keeps the tick running until then. */
sl_time sl_next_tick(const struct sl_sim *sim, int cpu);
/* When `cpu`'s tick of jiffy `jiffy` comes (or came): a policy replaying
 * skipped ticks (ticks_skipped) dates the last one with it. */
sl_time sl_tick_time(const struct sl_sim *sim, int cpu, uint64_t jiffy);

/* The kernel's preemption model, set by the policy at init as its HZ (the
 * engine's default is FULL).  NONE is a kernel without CONFIG_PREEMPT: a
 * task in kernel work (a system call's work, a fork's or an exec's cost, the
 * end of a switch) is switched out only where it returns to user space or
 * sleeps, so a reschedule asked for meanwhile (a tick, a wakeup's IPI, the
 * migration thread's wakeup) waits for that (2.4.27 and 2.6.11 i386
 * entry.S: ret_from_intr checks need_resched on the way back to user mode
 * only, unless CONFIG_PREEMPT).  FULL switches at once.  The choices match
 * the policies' `preempt` knob (SL_PREEMPT_CHOICES). */
enum sl_kernel_preempt {
	SL_PREEMPT_NONE,
	SL_PREEMPT_FULL,
};
#define SL_PREEMPT_CHOICES "none|full"
#define SL_PREEMPT_MODELS_DOC \
	"none (no CONFIG_PREEMPT: a task in kernel work is switched out only on its return " \
	"to user space or when it sleeps) or full (CONFIG_PREEMPT: at once)"
#define SL_PREEMPT_KNOB(def_, why) \
	{ .name = "preempt", .type = SL_PARAM_CHOICE, .def = def_, .choices = SL_PREEMPT_CHOICES, \
	  .doc = "the kernel's preemption model: " SL_PREEMPT_MODELS_DOC " (" why ")" }
void sl_set_kernel_preempt(struct sl_sim *sim, enum sl_kernel_preempt model);

/* NO_HZ_IDLE: a policy whose kernel stops an idle CPU's tick calls
 * sl_set_nohz once, when it is created; from then on ticks come only to the
 * CPUs whose tick runs, which the policy stops (tick_nohz_idle_stop_tick,
 * when the CPU goes idle) and restarts (when it leaves the idle loop to run
 * a task).  Every tick runs at first.  Without it every CPU ticks. */
void sl_set_nohz(struct sl_sim *sim);
void sl_tick_stop(struct sl_sim *sim, int cpu);
void sl_tick_restart(struct sl_sim *sim, int cpu);
bool sl_tick_stopped(const struct sl_sim *sim, int cpu);

/* The kernel's sleep timers: when a task's timed sleep (SL_ACT_NANOSLEEP:
 * nanosleep, usleep, a periodic clock_nanosleep) ends, set by the policy
 * at init as its HZ (the engine's default is EXACT).  sim/timers.c says
 * which kernel did what.
 *   JIFFY    the timer wheel: timespec_to_jiffies(t) + 1 jiffies, run by
 *            the sleeping CPU's tick (2.5/2.6 per-CPU wheels) or, with
 *            global_list, at IRQ0's jiffy start on CPU 0 (2.4); 2.4 also
 *            busy-waits a real-time task's sleep of rt_busywait_ns or less.
 *   HRTIMER  an hrtimer: t + slack_ns for SCHED_OTHER, t for real time
 *            (6.12 hrtimer_nanosleep and timer_slack_ns).
 *   EXACT    at t: no kernel's; for what-ifs and unit tests.
 * The order matches the policies' `timers` knob (SL_TIMERS_CHOICES). */
enum sl_timer_kind {
	SL_TIMERS_JIFFY,
	SL_TIMERS_HRTIMER,
	SL_TIMERS_EXACT,
};
#define SL_TIMERS_CHOICES "jiffy|hrtimer|exact"
#define SL_TIMERS_KNOB(def_, why) \
	{ .name = "timers", .type = SL_PARAM_CHOICE, .def = def_, .choices = SL_TIMERS_CHOICES, \
	  .doc = "when a timed sleep (nanosleep, usleep) ends: jiffy (the timer wheel, " \
		 "run by a tick), hrtimer (with 50 us of slack for SCHED_OTHER) or exact " \
		 "(no kernel's) (" why ")" }
struct sl_timers {
	enum sl_timer_kind kind;
	bool global_list;	/* JIFFY: one list, run at the jiffy's start on CPU 0 */
	sl_time rt_busywait_ns;	/* JIFFY: a real-time task's sleep of at most this
				 * busy-waits (2.4 udelay); 0: none does */
	sl_time slack_ns;	/* HRTIMER: SCHED_OTHER's timer_slack_ns */
	sl_time jiffy_nsec;	/* JIFFY: the ns a sleep is divided by into jiffies
				 * (2.6.11+ TICK_NSEC, sl_tick_nsec); 0: the tick's */
};
void sl_set_timers(struct sl_sim *sim, const struct sl_timers *timers);
/* The kernels' timers (sim/timers.c), each with 6.12's slack for the
 * `timers=hrtimer` what-if. */
#define SL_TIMER_SLACK_NS (50 * SL_USEC)	/* 6.12 init_task.timer_slack_ns */
#define SL_TIMERS_2_4 ((struct sl_timers){ .kind = SL_TIMERS_JIFFY, .global_list = true, \
					    .rt_busywait_ns = 2 * SL_MSEC, \
					    .slack_ns = SL_TIMER_SLACK_NS })
#define SL_TIMERS_2_6 ((struct sl_timers){ .kind = SL_TIMERS_JIFFY, .slack_ns = SL_TIMER_SLACK_NS })
#define SL_TIMERS_6_12 ((struct sl_timers){ .kind = SL_TIMERS_HRTIMER, .slack_ns = SL_TIMER_SLACK_NS })
/* 2.6.11+'s TICK_NSEC (include/linux/jiffies.h): the length of a jiffy as
 * the timer chip counts it, from its CLOCK_TICK_RATE (LATCH, ACTHZ). */
sl_time sl_tick_nsec(uint64_t clock_tick_rate, unsigned hz);
/* A kernel's timers with the kind the `timers` knob chose. */
void sl_set_timers_as(struct sl_sim *sim, struct sl_timers timers, int kind_choice);

/* The kernel's pipe (sim/sync.c sl_pipe_new), set at init as the HZ; the
 * engine's default is one page that does not read on.
 *   pages: 2.4.27's PIPE_SIZE and 2.6.0's are one page of SL_PAGE_BYTES;
 *     2.6.11 made a pipe a ring of PIPE_BUFFERS = 16 pages (2.6.12.1
 *     include/linux/pipe_fs_i.h), 6.12 the same (PIPE_DEF_BUFFERS).
 *   read_on: 2.4.27 pipe_read and 2.6.12.1 pipe_readv, having emptied the
 *     pipe with bytes still wanted while a writer is blocked on it, wake
 *     the writers synchronously and wait for more in the same call
 *     ("syscall merging"); 6.12's returns what it got.
 *   page_bytes: the kernel's PAGE_SIZE, SL_PAGE_BYTES (0 is taken as it)
 *     but on ia64, whose kernels default to 16 KB pages
 *     (CONFIG_IA64_PAGE_SIZE_16KB: 2.4.27 arch/ia64/config.in and
 *     defconfig, 2.6.12.1 arch/ia64/Kconfig and defconfig; sl_arch_pipes).
 *     It sizes the pipe (PIPE_SIZE, each buffer of the ring) and what
 *     stdio moves through one at a time (a pipe's st_blksize is PAGE_SIZE:
 *     sl_page_bytes); PIPE_BUF, the atomic write, is 4096 on every arch.
 *   exclusive: 6.12 pipe_read and pipe_write sleep with
 *     wait_event_interruptible_exclusive, queued oldest first, so that a
 *     wakeup reaches one of them, in a pipe of any size; 2.4.27's
 *     and 2.6.12.1's pipe_wait queues them as every non-exclusive wait
 *     is, at the head, so that a wakeup reaches the newest first
 *     (add_wait_queue, prepare_to_wait; sl_chan_new). */
#define SL_PAGE_BYTES 4096	/* i386's and x86_64's PAGE_SIZE */
#define SL_PAGE_BYTES_MAX 16384	/* the largest page_bytes a pipe's ring holds */
#define SL_PIPE_BUFFERS 16	/* 2.6.11+ PIPE_BUFFERS, 6.12 PIPE_DEF_BUFFERS */
struct sl_pipes {
	int pages;
	bool read_on;
	bool exclusive;
	int page_bytes;
};
void sl_set_pipes(struct sl_sim *sim, struct sl_pipes pipes);
/* The kernel's PAGE_SIZE (sl_set_pipes): a pipe's st_blksize, the buffer
 * stdio reads and writes it with. */
long sl_page_bytes(const struct sl_sim *sim);
/* The kernels' pipes.  2.5 and 2.6.0 (no tree at hand) are read as their
 * neighbours: one page as 2.4.27, reading on as both 2.4.27 and 2.6.12.1. */
#define SL_PIPES_2_4 ((struct sl_pipes){ .pages = 1, .read_on = true })
#define SL_PIPES_2_6_0 ((struct sl_pipes){ .pages = 1, .read_on = true })
#define SL_PIPES_2_6_12 ((struct sl_pipes){ .pages = SL_PIPE_BUFFERS, .read_on = true })
#define SL_PIPES_6_12 ((struct sl_pipes){ .pages = SL_PIPE_BUFFERS, .read_on = false, \
					  .exclusive = true })

/* How the kernel's futex queues its waiters (mutexes, barriers and plain
 * channels: sim/sync.c), set at init as its pipes.  2.6.12.1 kernel/futex.c
 * queues them in arrival order (list_add_tail); 6.12 on a plist by
 * min(normal_prio, MAX_RT_PRIO) (kernel/futex/core.c __futex_queue): a
 * SCHED_DEADLINE waiter first, then real-time ones by priority, then every
 * other in arrival order, and futex_wake takes them from the front.  The
 * engine's default is arrival order. */
void sl_set_futex_by_prio(struct sl_sim *sim, bool by_prio);

/*
 * The kernel's socket buffers, set at init as its pipes (the engine's
 * default: SL_SOCKETS_2_4).
 *   unix_sndbuf: an AF_UNIX socket's sk_sndbuf, sysctl_wmem_default.  A
 *     writer may queue another skb while the socket's skbs take less than
 *     it (sock_alloc_send_pskb: 2.4.27 net/core/sock.c, 6.12 the same).
 *   unix_small_truesize: the truesize of the skb of one small write (up
 *     to 128 bytes: hackbench's 100-byte messages), its data rounded up
 *     plus the sk_buff head.
 *   tcp_rmem: a TCP socket's default receive buffer, sysctl_tcp_rmem[1]
 *     (what a loopback connection queues before its sender blocks: the
 *     model's whole TCP flow control; net_workloads.h).
 * 2.4 and 2.5 (seed 004's 2.4.19 and 2.5.32, the O(1) kernels of 2002):
 * 65535 (SK_WMEM_MAX); 292 bytes on i386, SKB_DATA_ALIGN(100) = 128 (for
 * any cache line of 32 to 128 bytes) plus 2.4.27's sizeof(struct sk_buff),
 * 164 with netfilter and traffic control configured (include/linux/
 * skbuff.h, net/core/skbuff.c alloc_skb; 2.4.19's, 2.5's and 2.6.0's read
 * as 2.4.27's, UNVERIFIED); 87380 (2.4.27 and 2.6.12.1 net/ipv4/tcp.c).
 * 2.4.27, 2.6.11 and 2.6.12.1 size wmem_default as (sizeof(struct sk_buff)
 * + 256) x 256 instead
 * (net/core/sock.c); when that came in is not known here (no 2.4.19, 2.5
 * or 2.6.0 tree), so 2.4, 2.5 and 2.6.0 keep 65535 (UNVERIFIED).
 * 2.6.12 on i386 (2.6.12.1): sizeof(struct sk_buff) is 176 with
 * netfilter, bridge netfilter and traffic control configured, as a
 * distribution's kernel has them (152 without any, 184 with
 * CONFIG_NET_CLS_ACT too: 362 to 374 writes, against 364), so
 * wmem_default = 432 x 256 = 110592; a 100-byte write's skb takes
 * SKB_DATA_ALIGN(100) = 128 bytes of data for any i386 cache line of 32
 * to 128 bytes (alloc_skb), truesize 304; tcp_rmem[1] = 87380.  6.12 on
 * x86_64: SK_WMEM_MAX = SKB_TRUESIZE(256) x 256 = 212992, a 100-byte
 * write's skb 768 (SKB_HEAD_ALIGN(100) = 448 takes a 512-byte kmalloc,
 * 192 bytes of it data, + 256 + 320: __alloc_skb, SKB_TRUESIZE), and
 * tcp_rmem[1] = 131072 (tcp_init); the host (Linux 6.18) has the same
 * 212992 and 131072, and holds 278 = ceil(212992 / 768) hackbench
 * messages in a socket.
 */
struct sl_sockets {
	long unix_sndbuf;
	long unix_small_truesize;
	long tcp_rmem;
};
void sl_set_sockets(struct sl_sim *sim, struct sl_sockets sockets);
const struct sl_sockets *sl_sockets(const struct sl_sim *sim);
/* How many small writes (one skb each) an AF_UNIX socket holds before its
 * writer blocks: while the skbs take less than sk_sndbuf, one more. */
long sl_unix_socket_writes(const struct sl_sim *sim);
/* At most how many small writes may be queued for a read to wake the
 * socket's blocked writers: unix_writable(), wmem_alloc x 4 <= sk_sndbuf
 * (2.4.27 to 6.12 net/unix/af_unix.c; 56 under 2.4, 90 under 2.6.12, 69
 * under 6.12). */
long sl_unix_socket_writable(const struct sl_sim *sim);
/* An AF_UNIX stream socket of the policy's kernel holding `bytes`, which
 * stand for its sk_sndbuf in the units of its small writes: a channel
 * marked SL_SOCK_UNIX whose reads wake the blocked writers at the
 * kernel's write space, sl_unix_socket_writable() of
 * sl_unix_socket_writes() of it (unix_writable()). */
struct sl_chan *sl_unix_socket_new(struct sl_sim *sim, long bytes);
#define SL_SOCKETS_2_4 ((struct sl_sockets){ .unix_sndbuf = 65535, \
					     .unix_small_truesize = 128 + 164, .tcp_rmem = 87380 })
#define SL_SOCKETS_2_6_12 ((struct sl_sockets){ .unix_sndbuf = (176 + 256) * 256, \
						.unix_small_truesize = 128 + 176, .tcp_rmem = 87380 })
/* The same kernels on a 64-bit (LP64) arch, ia64 or x86_64, where every
 * pointer and long of struct sk_buff doubles: 2.4.27's with netfilter and
 * traffic control is 248 bytes, 2.6.12.1's with bridge netfilter too 272
 * (laid out by the compiler, test skb_sizes_from_the_kernels_member_lists;
 * i386's 164 and 176 the same way), a small
 * write's data still 128 (SKB_DATA_ALIGN of 64- and 128-byte lines). */
#define SL_SOCKETS_2_4_LP64 ((struct sl_sockets){ .unix_sndbuf = 65535, \
						  .unix_small_truesize = 128 + 248, .tcp_rmem = 87380 })
#define SL_SOCKETS_2_6_12_LP64 ((struct sl_sockets){ .unix_sndbuf = (272 + 256) * 256, \
						     .unix_small_truesize = 128 + 272, \
						     .tcp_rmem = 87380 })
#define SL_SOCKETS_6_12 ((struct sl_sockets){ .unix_sndbuf = 212992, .unix_small_truesize = 768, \
					      .tcp_rmem = 131072 })

/*
 * The kernel's writeback thresholds, set at init as its pipes (the
 * engine's default: SL_WRITEBACK_2_6), for workloads that dirty the page
 * cache (sim/blockdev.h, pagecache.c):
 *   bg_pct: background writeback starts above it; stop_pct: it stops at or
 *     below it; limit_pct: a writer above it waits for writeback;
 *   of: what they are percentages of.  2.6.11 get_dirty_limits(): of all
 *     pages (total_pages, for a mapping that may use highmem, as file data
 *     does); 6.12 global_dirtyable_memory(): free and file pages, here the
 *     whole cache, which holds no anonymous memory; 2.4.27
 *     balance_dirty_state(): of nr_free_buffer_pages(), lowmem's page
 *     cache and all free memory (mm/page_alloc.c), which shrinks as file
 *     pages fill memory, highmem first (SL_DIRTY_OF_LOWMEM_CACHE_AND_FREE);
 *   lowmem_mb: for that base, the memory the kernel maps permanently (0:
 *     all of it), its arch's (policy/kernel_arch.h sl_arch_lowmem_mb).
 * 2.4.27 fs/buffer.c bdf_prm: wake bdflush above nfract 30 %, stop it at
 * nfract_stop_bdflush 20 %, block writers above nfract_sync 60 % (2.4.19
 * read as 2.4.27, UNVERIFIED).  2.6.11 and 2.6.12.1 mm/page-writeback.c:
 * dirty_background_ratio 10, vm_dirty_ratio 40 (2.5 and 2.6.0 read as
 * 2.6.11, UNVERIFIED).  6.12: 10 and 20.  How a writer over the limit is
 * held differs (2.4.27 submits 32 buffers per page it dirties, 2.6.11
 * writes back until under the limit, 6.12 pauses in proportion to the
 * writeback bandwidth): the engine has each wait until writeback brings
 * dirty memory under the limit.
 */
enum sl_dirty_of { SL_DIRTY_OF_MEMORY, SL_DIRTY_OF_LOWMEM_CACHE_AND_FREE };
struct sl_writeback {
	double bg_pct, stop_pct, limit_pct;
	enum sl_dirty_of of;
	long lowmem_mb;
};
void sl_set_writeback(struct sl_sim *sim, struct sl_writeback wb);
const struct sl_writeback *sl_writeback(const struct sl_sim *sim);
#define SL_WRITEBACK_2_4 ((struct sl_writeback){ .bg_pct = 30, .stop_pct = 20, .limit_pct = 60, \
						 .of = SL_DIRTY_OF_LOWMEM_CACHE_AND_FREE })
#define SL_WRITEBACK_2_6 ((struct sl_writeback){ .bg_pct = 10, .stop_pct = 10, .limit_pct = 40, \
						 .of = SL_DIRTY_OF_MEMORY })
#define SL_WRITEBACK_6_12 ((struct sl_writeback){ .bg_pct = 10, .stop_pct = 10, .limit_pct = 20, \
						  .of = SL_DIRTY_OF_MEMORY })

/* A policy's high-resolution timers, the kernel's hrtimers (the RT period
 * timer, a deadline server's defer and replenishment timers): SL_HRTIMERS
 * per CPU, each named by its index.  At `at` (now, if earlier) the engine
 * calls the policy's hrtimer op on that CPU, whether or not its tick runs,
 * and then acts on its need_resched as after any event.  Starting a
 * queued timer moves it. */
#define SL_HRTIMERS 2
void sl_hrtimer_start(struct sl_sim *sim, int cpu, int id, sl_time at);
void sl_hrtimer_cancel(struct sl_sim *sim, int cpu, int id);
bool sl_hrtimer_queued(const struct sl_sim *sim, int cpu, int id);
/* When timer `id` of `cpu` fires, or -1 when it is not set. */
sl_time sl_hrtimer_expires(const struct sl_sim *sim, int cpu, int id);

/* Task running on `cpu` (NULL if idle or running the migration thread). */
struct sl_task *sl_curr(const struct sl_sim *sim, int cpu);
/* True if `cpu` runs nothing (not even the migration thread). */
bool sl_cpu_idle(const struct sl_sim *sim, int cpu);
/* The CPUs for which sl_cpu_idle() is true, kept as they change (what the
 * kernel keeps as nohz.idle_cpus_mask, without nohz's lag): a policy
 * counts a group's idle CPUs a word at a time instead of asking each. */
const sl_cpumask *sl_idle_cpus(const struct sl_sim *sim);
static inline bool sl_task_running(const struct sl_task *t) { return t->cpu >= 0; }

/* Ask for schedule() on `cpu`: immediately after the current op if `cpu` is
 * the CPU the op runs on, else after an IPI's latency (need_resched). */
void sl_resched(struct sl_sim *sim, int cpu);
bool sl_need_resched(const struct sl_sim *sim, int cpu);

/* Wake `cpu`'s migration thread: after an IPI's latency it preempts what
 * runs there and calls the policy's migration op with `arg`.  A request
 * while one is pending is merged (the first arg is kept).  Under
 * SL_PREEMPT_NONE it waits for the running task to leave kernel work; a
 * thread of SCHED_FIFO 99 (sl_set_migration_fifo99) cannot preempt a task
 * of rt_priority 99 and waits for it to leave the CPU.  A request by the
 * task running there, in its own action (sched_exec, set_cpus_allowed),
 * needs no IPI and waits for nothing: the caller sleeps in
 * wait_for_completion and the thread runs at once. */
void sl_migration_wake(struct sl_sim *sim, int cpu, long arg);
/* The migration thread's class, set at init: 2.5 to 2.6.12's is a
 * SCHED_FIFO task at MAX_RT_PRIO-1 (2.6.12.1 migration_call:
 * __setscheduler(p, SCHED_FIFO, MAX_RT_PRIO-1), prio 0), equal to a task
 * of rt_priority 99, which a wakeup does not preempt (TASK_PREEMPTS_CURR
 * is strict): queued behind it, the thread runs when that task blocks,
 * yields or (SCHED_RR) rotates.  6.12's stopper is the stop class, above
 * every task: the engine's default. */
void sl_set_migration_fifo99(struct sl_sim *sim, bool fifo99);
/* Whether a request woke `cpu`'s migration thread and it has not started
 * on it yet (for a policy's check). */
bool sl_migration_pending(const struct sl_sim *sim, int cpu);

/* Charge scheduler work done on `cpu` (e.g. an O(n) goodness scan) as
 * system time of the task running there, or of the task it switches to
 * (in schedule()).  On an idle CPU (its tick's idle balance, a schedule()
 * that found nothing) the work runs in its idle time: a task woken onto
 * it before the work ends waits on the runqueue for the rest (the CPU
 * acts on need_resched then), and no one pays for it otherwise. */
void sl_charge_sched(struct sl_sim *sim, int cpu, sl_time ns);
/* A global spinlock: charge `hold_ns` of scheduler work under it on `cpu`;
 * if another CPU holds it now (an idle CPU: when the idle-time work it
 * has queued is done), the wait for it is charged first, as wall time (a
 * spin is not slower beside a busy SMT sibling).  Returns the wait. */
struct sl_spinlock {
	sl_time free_at;	/* when the last holder releases it */
	int holder;		/* that holder's CPU + 1 (0: never taken) */
};
sl_time sl_charge_locked(struct sl_sim *sim, int cpu, struct sl_spinlock *lock,
			 sl_time hold_ns);
/* What scheduler code costs on this machine (hardware truth, so a policy
 * states how much work it did and the machine says how long it took):
 * examining `items` tasks or runqueues in a scan, and one O(1) pick. */
sl_time sl_cost_scan(const struct sl_sim *sim, long items);
sl_time sl_cost_pick(const struct sl_sim *sim);
/* ... and what the kernel paths workloads go through cost: a context
 * switch (the unit hackbench's and schedbench's kernel work is scaled
 * by) and an exit. */
sl_time sl_cost_ctx_switch(const struct sl_sim *sim);
sl_time sl_cost_exit(const struct sl_sim *sim);
sl_time sl_cost_fork(const struct sl_sim *sim);
/* ---- changing a live task (sim/sched_attr.c) ---- */

struct sl_sched_attr {
	int sched_policy;	/* enum sl_sched_policy */
	int rt_priority;	/* 1..99 for FIFO/RR, else 0 */
	int nice;		/* -20..19 */
};
/* True if the policy implements `sched_policy` (SCHED_NORMAL always):
 * workloads check each class they will use before the run starts (a
 * workload's sched_classes op lets the sweep do it before the sim exists:
 * sl_policy_supports_sched on the ops). */
bool sl_sim_supports_sched(const struct sl_sim *sim, int sched_policy);
bool sl_policy_supports_sched(const struct sl_policy_ops *ops, int sched_policy);
/* "SCHED_FIFO" ... for messages; "SCHED_?" for a number it does not know. */
const char *sl_sched_policy_name(int sched_policy);
/* sched_setscheduler + setpriority: set t's class, RT priority and nice
 * (the caller has checked them: supported, 1..99 for FIFO/RR, -20..19)
 * and let the policy requeue it (ops->setscheduler). */
void sl_task_setscheduler(struct sl_sim *sim, struct sl_task *t,
			  const struct sl_sched_attr *attr);
/* set_cpus_allowed: t's mask becomes `mask` AND the machine's CPUs, which
 * the caller has checked is not empty (and, for a cpu0_only policy, holds
 * CPU 0: a UP kernel's sched_setaffinity refused other masks with EINVAL);
 * the policy moves t off CPUs outside it (ops->set_allowed).  Until the
 * migration thread or reschedule it asks for has run, t may still run
 * where it is (the invariant check allows exactly that, sim/check.c). */
void sl_task_set_allowed(struct sl_sim *sim, struct sl_task *t, const sl_cpumask *mask);

/* Record a task move between runqueues (for statistics and traces). */
void sl_note_migration(struct sl_sim *sim, struct sl_task *t, int from_cpu, int to_cpu);

/* Iterate over every live task (runnable or sleeping), in creation order. */
struct sl_task *sl_task_first(const struct sl_sim *sim);
struct sl_task *sl_task_next(const struct sl_task *t);
int sl_nr_tasks(const struct sl_sim *sim);

/* ---- a task's own progress, for programs that replay recorded time ---- */

/* Kernel costs charged to t and not yet paid (fork, exec, switches,
 * scheduler work: system time), which t pays before its next action, and
 * the cache refill it still owes (user time), which it pays alongside its
 * work - at most as much refill as work, so a burst of `w` costs
 * w + min(refill, w) - in reference ns. */
double sl_task_costs_owed(const struct sl_task *t);
double sl_task_refill_owed(const struct sl_task *t);
/* t's speed (SMT x NUMA; 1 = the reference) in its current or last run
 * segment; 1 before it first ran. */
double sl_task_speed(const struct sl_task *t);

/* ---- services for workloads (synchronisation objects) ---- */

/* A byte channel with a capacity (a socket's buffers; a pipe's is the
 * kernel's: sl_pipe_new).  Readers and writers block on
 * it.  With sync_wakeups it is a pipe: a wakeup is sync (SL_WAKE_SYNC) when
 * the waker is about to sleep (a write that fills it with bytes to go),
 * else SL_WAKE_PIPE (sync.c); without, plain wakeups (see also
 * sl_chan_mark_socket).  Its waiters queue oldest first and a wakeup
 * reaches them in that order, as a futex's do; a kernel's wait queue
 * (pipes, sockets, poll) puts non-exclusive waiters at its head and
 * wakes the newest first (sl_pipe_new, sl_chan_mark_socket,
 * sl_chan_mark_polled). */
struct sl_chan *sl_chan_new(struct sl_sim *sim, long capacity, bool sync_wakeups);
/* A pipe as the policy's kernel has it (sl_set_pipes): a channel with a pipe's wakeups that holds `bytes`
 * (0: the kernel's pipe, sl_pipe_bytes).  Under a one-page kernel (2.4,
 * 2.6.0) any read wakes a blocked writer; under a kernel of several pages
 * (2.6.11+ PIPE_BUFFERS) a read that empties a page does (2.6.12.1
 * pipe_readv frees the buffer and sets do_wakeup): one that leaves a
 * page's share of `bytes` free.  Under 6.12 (exclusive) a write wakes one
 * reader, and only if the pipe was empty; a writer or reader that waited
 * hands the wakeup on while room or bytes are left. */
struct sl_chan *sl_pipe_new(struct sl_sim *sim, long bytes);
/* The bytes a pipe holds under the policy's kernel, and whether its
 * reads read on (sl_set_pipes). */
long sl_pipe_bytes(const struct sl_sim *sim);
bool sl_pipe_reads_on(const struct sl_sim *sim);
/* Every wakeup of c sync, the waker sleeping or not: no kernel's pipe did
 * this; for scenario tests of a policy's sync-wakeup rule alone. */
void sl_chan_sync_always(struct sl_chan *c);
long sl_chan_level(const struct sl_chan *c);
/* Whether a task is blocked reading c (the kernel's wq_has_sleeper: a
 * write then has a wakeup to do). */
bool sl_chan_reader_waits(const struct sl_chan *c);
/* Whether t catches SIGCHLD (until it execs, which resets the handler:
 * flush_signal_handlers).  A caught SIGCHLD wakes t plainly at each
 * child's exit (exit_notify), in wait() or reading `bell`, where the exit
 * puts one byte (the handler's trace, e.g. GNU make's child_handler
 * interrupting its read of the job server; NULL: none), and the parent
 * wakeup that follows finds it running (2.4.27, 2.6.11 do_notify_parent:
 * signal_wake_up, then wake_up_parent).  Not caught (the default): the
 * exit wakes a parent in wait() with SL_WAKE_CHILD_EXIT.  A forked child
 * starts without it (the kernel's inherits the handler, but a child's
 * program is another, which says its own). */
void sl_task_catch_sigchld(struct sl_task *t, bool catches, struct sl_chan *bell);
/* Whether the child of t with task id `id` has exited and waits to be
 * reaped (a zombie of t; false for any other id, -1 included). */
bool sl_task_has_zombie(const struct sl_task *t, int id);
/* Whether any child of t has exited and waits to be reaped: what a
 * wait4(WNOHANG) would find. */
bool sl_task_has_zombies(const struct sl_task *t);
/* Writers blocked on c are woken only by a read that leaves at most
 * `bytes` queued (default capacity - 1: any read, as a pipe's).  An
 * AF_UNIX socket's writer sleeps until its skbs take at most a quarter of
 * sk_sndbuf (unix_writable() in unix_write_space, 2.4.27 to 6.12). */
void sl_chan_set_write_space(struct sl_chan *c, long bytes);
long sl_chan_write_space(const struct sl_chan *c);
/* Whether c's last read woke a blocked writer (the reader paid a wakeup). */
bool sl_chan_read_woke_writer(const struct sl_chan *c);
/* Kinds of socket a channel can be. */
enum sl_sock_kind {
	SL_SOCK_UNIX,		/* AF_UNIX: woken by the task that writes or reads */
	SL_SOCK_TCP_LOOPBACK,	/* loopback TCP: woken from the NET_RX softirq */
};
/* c is a socket (a pipe's wakeups stay a pipe's): the wakeups of its readers
 * are marked SL_WAKE_SOCK, plain in 2.4.27 and 2.6.11 and sync in 6.12
 * (sock_def_readable), and so are an AF_UNIX socket's writers' (6.12
 * unix_write_space; TCP's sk_stream_write_space wakes plainly in every
 * version).  A loopback TCP socket's wakeups, both ways, also carry
 * SL_WAKE_IRQ: the softirq that delivers data and ACKs makes them. */
void sl_chan_mark_socket(struct sl_chan *c, enum sl_sock_kind kind);
/* c's readers wait in poll() (or select()), not in read(): each is a poll
 * table entry on the file's wait queue (__pollwait: add_wait_queue, at
 * the head), so a wakeup reaches the newest first whatever the kernel's
 * read() would do (2.4.27 to 6.12 fs/select.c). */
void sl_chan_mark_polled(struct sl_chan *c);
struct sl_mutex *sl_mutex_new(struct sl_sim *sim);
/* A mutex standing for a device's request queue: its waiters sleep
 * uninterruptibly (TASK_UNINTERRUPTIBLE, as a reader waiting for its page
 * behind other requests: wait_on_page_locked), where a user-space lock's
 * waiters (futex, LinuxThreads' signals) sleep interruptibly. */
struct sl_mutex *sl_mutex_new_io(struct sl_sim *sim);
struct sl_barrier *sl_barrier_new(struct sl_sim *sim, int parties);

/* Memory owned by the run, freed with it (workload configs, prog states). */
void *sl_sim_alloc(struct sl_sim *sim, size_t size);

/* ---- the memory a run needs (memest.c; docs/robustness.md "Memory") ---- */

/* What a workload says it needs, from its bound parameters alone
 * (workload.h's mem op), in saturating arithmetic (base/memsize.h). */
struct sl_mem_need {
	uint64_t tasks;		/* most tasks alive (not yet reaped) at once */
	uint64_t bytes;		/* its own structures, each sl_sim_alloc counted
				 * with sl_sim_alloc_cost() */
	uint64_t transient;	/* the most held while it loads a file (the JSON
				 * tree and what is built from it), before the
				 * run's tasks exist: the larger of the two counts */
};
/* What sl_sim_alloc(size) costs, with its block header and malloc's. */
uint64_t sl_sim_alloc_cost(uint64_t size);
/* ... n of them (saturating). */
uint64_t sl_sim_allocs_cost(uint64_t n, uint64_t size);
/* ... and the synchronisation objects, n of each (saturating). */
uint64_t sl_sim_chans_cost(uint64_t n);
uint64_t sl_sim_mutexes_cost(uint64_t n);
uint64_t sl_sim_barriers_cost(uint64_t n);
/* ... and one task's first touch of its memory on a machine of `nnodes`
 * nodes (sl_act_first_touch: its work per node, and its memory's split). */
uint64_t sl_sim_first_touch_cost(uint64_t nnodes);
/* The bytes one run of `need` under `policy` on `machine` takes at most:
 * the engine's per-run, per-CPU and per-task structures (their sizeof,
 * plus an allowance for the policy's per-CPU state) and the workload's. */
uint64_t sl_sim_mem_estimate(const struct sl_machine *machine,
			     const struct sl_policy_ops *policy, const struct sl_mem_need *need);

/* ---- run statistics ---- */

/* The engine's events by what they were (--stats prints them): where a
 * run's host time goes, before any profiler. */
enum sl_event_kind {
	SL_EVK_BURST,		/* a CPU's task finished the work it was given */
	SL_EVK_TIMER,		/* a sleep ended, or a policy's hrtimer expired */
	SL_EVK_TICK,		/* a jiffy's tick (every CPU's, or one CPU's if staggered) */
	SL_EVK_IPI,		/* a reschedule IPI arrived */
	SL_EVK_MIGRATION,	/* a migration thread woke or finished */
	SL_EVK_DISK,		/* the disk finished a request */
	SL_EVK_COUNT
};

struct sl_event_counts {
	uint64_t total;
	uint64_t kind[SL_EVK_COUNT];
	/* the work behind them: completion events (re)timed, at most once
	 * per CPU and event; re-timings of a node's CPUs after a change of
	 * its bandwidth contention, at most once per node and event */
	uint64_t bursts_timed, node_retimes;
	/* actions the tasks' programs chose (sl_prog.step), those that take
	 * no simulated time included: the work outside the events */
	uint64_t steps;
};

const char *sl_event_kind_name(enum sl_event_kind k);
void sl_event_counts_add(struct sl_event_counts *to, const struct sl_event_counts *from);

struct sl_cpu_stats {
	sl_time user_ns, sys_ns, idle_ns, kthread_ns;
	double work;		/* reference ns of work done on it (speed x time) */
	long switches;
};

struct sl_run_stats {
	sl_time elapsed_ns;		/* first task's start to the last exit (or the time limit) */
	sl_time user_ns, sys_ns;	/* summed over the workload's tasks */
	long nvcsw, nivcsw;		/* voluntary / involuntary switches */
	long migrations;
	long tasks;			/* tasks created */
	struct sl_event_counts events;	/* events processed */
	/* Work conservation (conserve.c), over the whole run: */
	sl_time idle_waiting_ns;	/* CPU-time idle while a task it could run waited */
	sl_time idle_waiting_max_ns;	/* the longest stretch with such a CPU */
	sl_time smt_shared_idle_ns;	/* core-time a core ran two or more tasks while
					 * another core ran nothing */
};

void sl_sim_stats(const struct sl_sim *sim, struct sl_run_stats *out);

/* How long tasks waited for a CPU (latency.c), as histograms of ns:
 *   WAKEUP  runnable -> running after a wakeup or fork (the delay that
 *           perf sched latency and schbench report);
 *   RUNQ    every dispatch, preempted tasks' waits included.
 * Group 0 counts every task; groups 1 .. SL_LAT_GROUPS - 1 the tasks a
 * workload put in them (sl_task.lat_group).  NULL: no sample there. */
#define SL_LAT_GROUPS 8
enum sl_lat_kind { SL_LAT_WAKEUP, SL_LAT_RUNQ };
struct sl_hist;
const struct sl_hist *sl_sim_latency(const struct sl_sim *sim, enum sl_lat_kind kind, int group);
const struct sl_cpu_stats *sl_sim_cpu_stats(const struct sl_sim *sim, int cpu);
/* The machine the run simulates (workloads read mem_mb, node count). */
const struct sl_machine *sl_sim_machine(const struct sl_sim *sim);

#endif
