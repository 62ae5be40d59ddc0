/*
 * kernel_arch.h - the per-architecture constants of the kernels the
 * policies model, for the architecture the machine names (topo.h
 * sl_arch): a kernel built for ia64 ticked at 1024 Hz where i386 ticked
 * at 100 (2.4) or 1000 (2.5/2.6).
 *
 * Sources: 2.4.27 include/asm-i386/param.h (HZ 100), asm-x86_64/param.h
 * (100), asm-ia64/param.h (1024; 32 only for the HP simulator), and
 * asm-{i386,x86_64,ia64}/smp.h (PROC_CHANGE_PENALTY 15, 15, 20); 2.5.59
 * include/asm-ARCH/topology.h NODE_BALANCE_RATE (i386 NUMA-Q 100, ia64 10,
 * x86_64 30, as o1/config.c cites them; no 2.5.59 tree is at hand,
 * UNVERIFIED); 2.6.11
 * include/asm-i386/param.h and asm-x86_64/param.h (1000), asm-ia64/param.h
 * (1024), arch/{i386,ia64,x86_64}/defconfig (CONFIG_PREEMPT).  No 2.5
 * tree is at hand: 2.5's HZ and defconfigs are taken as 2.6.11's for every
 * arch (UNVERIFIED).
 */
#ifndef SL_POLICY_KERNEL_ARCH_H
#define SL_POLICY_KERNEL_ARCH_H

#include "base/spec.h"
#include "hw/topo.h"
#include "sim/sim.h"

/* The policies' `hz` knob, whose default is the machine's arch's HZ
 * (sl_arch_hz_24 or _26): `arch_hz` says what that is, `scales` what the
 * knob also moves ("" or "; ..."). */
#define SL_ARCH_HZ_KNOB(min_, arch_hz, scales) \
	{ .name = "hz", .type = SL_PARAM_INT, .def = NULL, .min = min_, .max = 10000, \
	  .doc = "timer ticks per second (default: the machine's arch's, " arch_hz ")" scales }
#define SL_ARCH_HZ_24_DOC "100 on i386 and x86_64, 1024 on ia64"
#define SL_ARCH_HZ_26_DOC "1000 on i386 and x86_64, 1024 on ia64"

/* HZ of a 2.4 kernel. */
static inline unsigned sl_arch_hz_24(enum sl_arch arch)
{
	return arch == SL_ARCH_IA64 ? 1024 : 100;
}

/* HZ of a 2.5 or 2.6 kernel. */
static inline unsigned sl_arch_hz_26(enum sl_arch arch)
{
	return arch == SL_ARCH_IA64 ? 1024 : 1000;
}

/* 2.6.12.1's CLOCK_TICK_RATE, from which TICK_NSEC follows
 * (sl_tick_nsec): the PIT's 1193182 Hz on i386 (asm-i386/timex.h, not an
 * AMD Elan) and x86_64 (PIT_TICK_RATE); ia64's "totally virtual" HZ *
 * 100000, chosen so that a jiffy is exact (asm-ia64/timex.h). */
static inline uint64_t sl_arch_clock_tick_rate_2612(enum sl_arch arch, unsigned hz)
{
	return arch == SL_ARCH_IA64 ? (uint64_t)hz * 100000 : 1193182;
}

/* 2.4's PROC_CHANGE_PENALTY: goodness()'s bonus for staying put. */
static inline int sl_arch_proc_change_penalty(enum sl_arch arch)
{
	return arch == SL_ARCH_IA64 ? 20 : 15;
}

/* The width of the kernel's `unsigned long`: 32 bits on i386, 64 on
 * x86_64 and ia64 (LP64).  2.6's recalc_task_prio() scales a sleep of up
 * to a second by up to MAX_BONUS in one, which wraps on i386. */
static inline unsigned sl_arch_long_bits(enum sl_arch arch)
{
	return arch == SL_ARCH_I386 ? 32 : 64;
}

/* The memory a kernel maps permanently (lowmem), MB, or 0 for all of it:
 * on i386 1 GB of kernel space less the 128 MB __VMALLOC_RESERVE (2.4.27
 * include/asm-i386/page.h MAXMEM; 2.6.11 the same); 64-bit kernels map
 * all memory.  What lies above it is highmem. */
static inline long sl_arch_lowmem_mb(enum sl_arch arch)
{
	return arch == SL_ARCH_I386 ? 896 : 0;
}

/* x as the kernel's `unsigned long` of `bits` holds it (x >= 0). */
static inline int64_t sl_kernel_ulong(unsigned bits, int64_t x)
{
	return bits >= 64 ? x : (int64_t)((uint64_t)x & ((1ULL << bits) - 1));
}

/* The policies' `ulong` knob: the width of that unsigned long where the
 * tree of a version is not at hand (2.6.0). */
#define SL_ARCH_ULONG_KNOB(sources) \
	{ .name = "ulong", .type = SL_PARAM_CHOICE, .def = "arch", .choices = "arch|32|64", \
	  .doc = "bits of the kernel's unsigned long in recalc_task_prio, whose sleep credit " \
		 "wraps at 2^32 ns on i386: arch (32 on i386, 64 on x86_64 and ia64), 32 or " \
		 "64 (" sources ")" }

/* The bits the `ulong` knob (choice index: 0 arch, 1 32, 2 64) gives. */
static inline unsigned sl_arch_ulong_knob_bits(enum sl_arch arch, int choice)
{
	return choice == 1 ? 32 : choice == 2 ? 64 : sl_arch_long_bits(arch);
}

/* A kernel's socket buffers on `arch`, of its i386 and LP64 builds
 * (sim.h): a 64-bit arch's struct sk_buff is larger. */
static inline struct sl_sockets sl_arch_sockets(enum sl_arch arch, struct sl_sockets i386,
						struct sl_sockets lp64)
{
	return sl_arch_long_bits(arch) == 64 ? lp64 : i386;
}

/* PAGE_SIZE of the 2.4 and 2.6 ia64 kernels: CONFIG_IA64_PAGE_SIZE_16KB,
 * their default (2.4.27 arch/ia64/config.in, 2.6.12.1 arch/ia64/Kconfig). */
#define SL_ARCH_IA64_PAGE_BYTES 16384
_Static_assert(SL_ARCH_IA64_PAGE_BYTES <= SL_PAGE_BYTES_MAX, "the engine's pipes hold the page");

/* A kernel's pipes on `arch`: its pages are ia64's 16 KB there
 * (sl_pipes.page_bytes, sim.h), 4 KB on i386 and x86_64. */
static inline struct sl_pipes sl_arch_pipes(enum sl_arch arch, struct sl_pipes pipes)
{
	pipes.page_bytes = arch == SL_ARCH_IA64 ? SL_ARCH_IA64_PAGE_BYTES : SL_PAGE_BYTES;
	return pipes;
}

/* ... of a 2.4, 2.5 or 2.6.0 kernel. */
static inline struct sl_sockets sl_arch_sockets_24(enum sl_arch arch)
{
	return sl_arch_sockets(arch, SL_SOCKETS_2_4, SL_SOCKETS_2_4_LP64);
}

/* sched_clock() of a 2.6 kernel, the clock of its sleep credit, run-time
 * charge and cache-hot test: an i386 kernel built with CONFIG_NUMA (a
 * NUMA-Q's, CONFIG_X86_NUMAQ) never reads the TSC, whose CPUs are not
 * synchronised, and returns jiffies_64 * (1e9 / HZ) (2.6.11 and 2.6.12.1
 * arch/i386/kernel/timers/timer_tsc.c; 2.6.0's not at hand, taken as
 * theirs: UNVERIFIED); other i386 kernels read the TSC, ia64 its ITC
 * (arch/ia64/kernel/head.S), x86_64 the TSC: nanoseconds.  The knob's
 * choice index: 0 arch, 1 ns, 2 jiffies. */
#define SL_ARCH_SCHED_CLOCK_KNOB(sources) \
	{ .name = "sched_clock", .type = SL_PARAM_CHOICE, .def = "arch", \
	  .choices = "arch|ns|jiffies", \
	  .doc = "the clock of the sleep credit, run-time charge and cache-hot test: arch " \
		 "(whole jiffies on an i386 machine of several nodes, a CONFIG_NUMA kernel's; " \
		 "else ns), ns or jiffies (" sources ")" }

static inline bool sl_arch_sched_clock_jiffies(enum sl_arch arch, int nnodes, int choice)
{
	return choice == 1 ? false : choice == 2 ? true : arch == SL_ARCH_I386 && nnodes > 1;
}

/* What sched_clock() reads at simulated time t: t, or the start of its
 * jiffy of tick_ns where it counts whole jiffies. */
static inline sl_time sl_arch_sched_clock_at(sl_time t, sl_time tick_ns, bool jiffies)
{
	return jiffies ? t - t % tick_ns : t;
}

/* The preemption model of a 2.6 kernel built from its arch's defconfig:
 * 2.6.11 arch/i386/defconfig sets CONFIG_PREEMPT=y, arch/ia64/defconfig
 * and arch/x86_64/defconfig leave it unset (the Kconfig help of each says
 * "Say N if you are unsure").  2.5's defconfigs are not at hand: taken as
 * 2.6.11's (UNVERIFIED). */
static inline enum sl_kernel_preempt sl_arch_preempt_26(enum sl_arch arch)
{
	return arch == SL_ARCH_I386 ? SL_PREEMPT_FULL : SL_PREEMPT_NONE;
}

/* The 2.5/2.6 policies' `preempt` knob: the published runs never say how
 * their kernels were configured. */
#define SL_ARCH_PREEMPT_KNOB \
	{ .name = "preempt", .type = SL_PARAM_CHOICE, .def = "arch", .choices = "arch|none|full", \
	  .doc = "the kernel's preemption model: arch (its defconfig's: full on i386, none on " \
		 "x86_64 and ia64; 2.6.11's, 2.5 UNVERIFIED), " SL_PREEMPT_MODELS_DOC }

/* The model the `preempt` knob (choice index: 0 arch, 1 none, 2 full) gives. */
static inline enum sl_kernel_preempt sl_arch_preempt_knob(enum sl_arch arch, int choice)
{
	return choice == 1 ? SL_PREEMPT_NONE : choice == 2 ? SL_PREEMPT_FULL
							   : sl_arch_preempt_26(arch);
}

/* When each CPU's timer tick comes in a kernel for `arch` (sim.h enum
 * sl_tick_mode).  ia64_cpu_local_tick() staggers the ITC timers by
 * bit-reversed fractions of a tick "so they don't occur all at (almost)
 * the same time", in 2.4.27 and 2.6.11 arch/ia64/kernel/time.c alike (2.5's
 * taken as theirs, INFERRED; 2.6.12.1 the same).  i386's and x86_64's 2.4 setup_APIC_timer()
 * cut the tick into smp_num_cpus+1 slices, CPU n at slice n+1; 2.6.11
 * i386's starts every timer on the same IRQ0 edge.  2.6.11 x86_64's sets
 * each CPU's timer when it boots, aligned to nothing (the wait for IRQ0
 * only on the Simics model): sync stands in for phases the source does
 * not fix (UNVERIFIED). */
static inline enum sl_tick_mode sl_arch_tick_24(enum sl_arch arch)
{
	return arch == SL_ARCH_IA64 ? SL_TICK_BITREV : SL_TICK_STAGGERED;
}

static inline enum sl_tick_mode sl_arch_tick_26(enum sl_arch arch)
{
	return arch == SL_ARCH_IA64 ? SL_TICK_BITREV : SL_TICK_SYNC;
}
#define SL_ARCH_TICK_24_DOC "default: the arch's: bitrev on ia64 (ia64_cpu_local_tick), " \
	"staggered on i386 and x86_64 (2.4.27 setup_APIC_timer)"
#define SL_ARCH_TICK_26_DOC "default: the arch's: bitrev on ia64 (ia64_cpu_local_tick), " \
	"sync on i386 (2.6.11 setup_APIC_timer) and x86_64"

/* Whether 2.4's reschedule_idle() prefers a wholly idle package: its
 * sibling check is compiled for i386 only (2.4.27 kernel/sched.c,
 * `#if defined(__i386__) && defined(CONFIG_SMP)`). */
static inline bool sl_arch_idle_package_check_24(enum sl_arch arch)
{
	return arch == SL_ARCH_I386;
}

/* Whether a 2.6.12 kernel built from its arch's defconfig has
 * CONFIG_SCHED_SMT (and with it wake_idle, include/linux/topology.h
 * ARCH_HAS_SCHED_WAKE_IDLE): the i386 and x86_64 defconfigs set it; ia64's
 * leave it out, and arch/ia64/kernel/domain.c says it "is never defined". */
static inline bool sl_arch_sched_smt_2612(enum sl_arch arch)
{
	return arch != SL_ARCH_IA64;
}

/* The policies' tick mode: the knob's if given, else the arch's (also
 * for a policy without the knob, as `up`, whose one CPU has no order). */
static inline enum sl_tick_mode sl_arch_tick_knob(const struct sl_params *knobs,
						  enum sl_tick_mode arch_mode)
{
	return (enum sl_tick_mode)sl_param_user_choice(knobs, "tick", (int)arch_mode);
}

/* 2.5.59's NODE_BALANCE_RATE (include/asm-ARCH/topology.h): every Nth
 * load_balance looks across nodes; i386 (NUMA-Q) 100. */
static inline int sl_arch_node_balance_rate(enum sl_arch arch)
{
	return arch == SL_ARCH_IA64 ? 10 : arch == SL_ARCH_X86_64 ? 30 : 100;
}

#endif
