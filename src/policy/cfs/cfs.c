/*
 * cfs/cfs.c - policy `cfs`: today's Linux fair scheduler (EEVDF since 6.6,
 * the CFS pick of 2.6.23-6.5 with pick=cfs) with scheduler domains,
 * capacities, select_idle_sibling, fork/exec balancing, periodic,
 * newly-idle and active balancing and NUMA balancing.  This file holds the
 * knobs, creation, the ops the engine calls and the consistency check; the
 * mechanisms are in the other files of policy/cfs/, listed in cfs/cfs.h.
 *
 * Sources: see cfs/cfs.h; Linux kernel/sched/core.c (sched_fork,
 * wake_up_new_task, try_to_wake_up / ttwu_do_activate and avg_idle,
 * sched_exec, migration_cpu_stop, sched_tunable_scaling and
 * get_update_sysctl_factor), fair.c (pick_next_task_fair, task_tick_fair,
 * task_fork_fair, yield_task_fair), Kconfig.hz.
 *
 * Choices (each a knob):
 *   pick        eevdf (the scheduler of 6.6 and later) by default; cfs for
 *               the vruntime/latency scheduler that ran from 2.6.23 to 6.5.
 *   hz          250: the kernel's Kconfig default (Debian builds it); many
 *               distributions build 1000 (hz=1000).  With HRTICK off (the
 *               default) the tick is what ends a slice.
 *   scaling     the base slice (0.75 ms), CFS's sched_latency (6 ms) and
 *               wakeup granularity (1 ms) are multiplied by
 *               1 + log2(min(ncpus, 8)) (SCHED_TUNABLESCALING_LOG, the
 *               default): x3 on 4 CPUs, x4 from 8 CPUs up.
 *   features    6.12's features.h defaults: DELAY_DEQUEUE (delay_dequeue),
 *               PLACE_REL_DEADLINE (rel_deadline), PREEMPT_SHORT
 *               (preempt_short), SIS_UTIL (sis_util), UTIL_EST (util_est)
 *               on, NO_HZ_IDLE (nohz) the Kconfig default; the first three
 *               off give 6.6's EEVDF.  No workload calls sched_setattr:
 *               custom_slice=COMM:US gives the tasks of that name a slice
 *               of their own (what PREEMPT_SHORT is about).
 *   preemption  on: CONFIG_PREEMPTION, which x86's default
 *               PREEMPT_DYNAMIC selects; a newly idle balance takes one task.
 *   preempt     full: the mode PREEMPT_DYNAMIC's boot parameter of that
 *               name chooses.  6.12's Kconfig default is PREEMPT_NONE and
 *               its x86 defconfigs build VOLUNTARY, whose extra points are
 *               the explicit might_sleep()s (a socket's lock_sock(), a
 *               pipe's mutex_lock(), a GFP_KERNEL allocation; user copies
 *               are none: might_fault() is empty without lock debugging),
 *               mostly where a call begins: nearer none.  full is kept
 *               because cfs is the policy that replays traces, whose work
 *               has no kernel part (under none a replay cannot meet the
 *               recorded switches: docs/traces.md, "Kernel exits"), and
 *               the two differ by 0.4 % at most on the workloads measured.
 *   group_sched on: CONFIG_FAIR_GROUP_SCHED, as x86_64's defconfig and the
 *               distributions build 6.12: every task is in the root group,
 *               and task_h_load still takes the group form (cfs.h
 *               cfs_task_h_load); off: the task's own load.
 *   nr_idle_scan starts at the LLC's size, what the first periodic balance
 *               of the idle machine sets (the kernel's starts at 0 at boot).
 *   capacity    1024 per logical CPU, SMT siblings included (modern, with
 *               SD_SHARE_CPUCAPACITY marking the SMT level); smt_gain=1178
 *               gives the 2.6.x-4.x rule (siblings share 1.15 CPUs).
 *               What RT takes comes off it for the fair class (cfs/capacity.c).
 *
 *   rt_bandwidth  server: 6.12's fair server (50 ms of every 1 s for the
 *               fair tasks of a CPU that RT starves); throttle: the RT
 *               throttling of 2.6.25-6.11 (rt_runtime_us of rt_period_us);
 *               off: RT may starve fair tasks (cfs/rt_bw.c).
 *
 * Omitted / simplified:
 *   - SCHED_DEADLINE (refused before the run: not in sched_policies); the
 *     RT class and BATCH / IDLE are in cfs/rt.c and cfs/fair.c, what
 *     they simplify in their headers; the migration thread is the
 *     engine's.
 *   - sched_exec moves the task through the migration thread, which
 *     preempts it at once, as 6.12's stop_one_cpu() has its stopper do
 *     on the task's own CPU (the task is moved while queued).
 *   - A timer wakeup is done from the CPU where the task slept, as if the
 *     hrtimer fired there.
 *   - The per-rq clock and clock_task: one engine clock for everything.
 */
#include <stdlib.h>
#include <string.h>

#include "base/spec.h"
#include "policy/cfs/cfs.h"
#include "sim/sim.h"

static const struct sl_param_def cfs_knobs[] = {
	{ .name = "pick", .type = SL_PARAM_CHOICE, .def = "eevdf", .choices = "eevdf|cfs",
	  .doc = "eevdf: earliest eligible virtual deadline (6.6+); cfs: leftmost vruntime with "
		 "sched_latency slices (2.6.23-6.5)" },
	{ .name = "hz", .type = SL_PARAM_INT, .def = "250", .min = 100, .max = 1000,
	  .doc = "timer ticks per second (CONFIG_HZ: Kconfig default 250; many distributions "
		 "build 1000)" },
	SL_TICK_KNOB("sync", "6.12 tick-sched.c: aligned on every CPU unless skew_tick=1"),
	SL_TIMERS_KNOB("hrtimer", "6.12 hrtimer_nanosleep"),
	SL_PREEMPT_KNOB("full", "6.12's x86 defconfigs build PREEMPT_VOLUNTARY, nearer none, but "
				"replays of traces, which cfs runs, need full; see cfs.md"),
	{ .name = "base_slice_us", .type = SL_PARAM_INT, .def = "750", .min = 100,
	  .max = 100000,
	  .doc = "EEVDF request size, and CFS min_granularity, before CPU scaling (0.75 ms)" },
	{ .name = "latency_us", .type = SL_PARAM_INT, .def = "6000", .min = 100, .max = 1000000,
	  .doc = "pick=cfs: sched_latency, the period shared by the runnable tasks, before "
		 "CPU scaling (6 ms)" },
	{ .name = "wakeup_gran_us", .type = SL_PARAM_INT, .def = "1000", .min = 0,
	  .max = 1000000,
	  .doc = "pick=cfs: how far ahead a woken task must be to preempt, before CPU scaling "
		 "(1 ms)" },
	{ .name = "scaling", .type = SL_PARAM_CHOICE, .def = "log", .choices = "log|none|linear",
	  .doc = "sched_tunable_scaling: slices x (1 + log2(min(ncpus, 8))), x 1, or "
		 "x min(ncpus, 8)" },
	{ .name = "migration_cost_us", .type = SL_PARAM_INT, .def = "500", .min = 0,
	  .max = 1000000,
	  .doc = "sysctl_sched_migration_cost: a task that ran this recently is cache-hot to "
		 "the balancer (0.5 ms)" },
	{ .name = "run_to_parity", .type = SL_PARAM_CHOICE, .def = "on", .choices = "on|off",
	  .doc = "EEVDF RUN_TO_PARITY: wakeups do not preempt a task within its first slice" },
	{ .name = "delay_dequeue", .type = SL_PARAM_CHOICE, .def = "on", .choices = "on|off",
	  .doc = "EEVDF DELAY_DEQUEUE (6.12): a sleeper that is not eligible stays queued "
		 "until picked or woken, and leaves with its lag clipped to zero" },
	{ .name = "rel_deadline", .type = SL_PARAM_CHOICE, .def = "on", .choices = "on|off",
	  .doc = "EEVDF PLACE_REL_DEADLINE (6.12): a task moved between CPUs keeps what is "
		 "left of its request (off: a new request where it lands)" },
	{ .name = "preempt_short", .type = SL_PARAM_CHOICE, .def = "on", .choices = "on|off",
	  .doc = "EEVDF PREEMPT_SHORT (6.12): a waking task with a shorter slice cancels "
		 "RUN_TO_PARITY; an unprotected task is preempted once not eligible" },
	{ .name = "custom_slice", .type = SL_PARAM_STRING, .def = "none",
	  .doc = "COMM:US: tasks named COMM ask for a slice of US microseconds "
		 "(sched_attr.sched_runtime, 100..100000, not CPU-scaled); none: all tasks use "
		 "the base slice" },
	{ .name = "sis_util", .type = SL_PARAM_CHOICE, .def = "on", .choices = "on|off",
	  .doc = "SIS_UTIL: select_idle_cpu scans fewer CPUs the busier the LLC was at its "
		 "last periodic balance (none from 85%)" },
	{ .name = "util_est", .type = SL_PARAM_CHOICE, .def = "on", .choices = "on|off",
	  .doc = "UTIL_EST: a CPU's utilisation is at least the sum of its queued tasks' "
		 "estimates (each an average of its utilisation when it last slept)" },
	{ .name = "nohz", .type = SL_PARAM_CHOICE, .def = "on", .choices = "on|off",
	  .doc = "NO_HZ_IDLE (Kconfig's default): an idle CPU stops its tick and a busy CPU's "
		 "tick kicks an idle one to balance for all; off: every CPU ticks and balances "
		 "for itself (HZ_PERIODIC)" },
	{ .name = "group_sched", .type = SL_PARAM_CHOICE, .def = "on", .choices = "on|off",
	  .doc = "CONFIG_FAIR_GROUP_SCHED (x86_64's defconfig, every distribution): a task's "
		 "task_h_load is its load times its CPU's load as first read this jiffy over "
		 "that load now (off: its own load)" },
	{ .name = "wake_affine", .type = SL_PARAM_CHOICE, .def = "on", .choices = "on|off",
	  .doc = "a wakeup may move the task towards the waker's CPU (SD_WAKE_AFFINE)" },
	{ .name = "idle_core", .type = SL_PARAM_CHOICE, .def = "on", .choices = "on|off",
	  .doc = "select_idle_sibling prefers a wholly idle core to an idle SMT sibling (off: "
		 "the first idle CPU, as with SMT inactive)" },
	{ .name = "fork_balance", .type = SL_PARAM_CHOICE, .def = "on", .choices = "on|off",
	  .doc = "new and exec'ing tasks go to the idlest group (SD_BALANCE_FORK/EXEC); off: "
		 "the parent's CPU" },
	{ .name = "newidle", .type = SL_PARAM_CHOICE, .def = "on", .choices = "on|off",
	  .doc = "a CPU going idle pulls a task at once (SD_BALANCE_NEWIDLE)" },
	{ .name = "preemption", .type = SL_PARAM_CHOICE, .def = "on", .choices = "on|off",
	  .doc = "CONFIG_PREEMPTION (x86's default, selected by PREEMPT_DYNAMIC): a newly idle "
		 "balance detaches one task at most; off: as many as the imbalance asks" },
	{ .name = "numa", .type = SL_PARAM_CHOICE, .def = "on", .choices = "on|off",
	  .doc = "NUMA balancing: prefer the task's home node, move or swap it back there" },
	{ .name = "numa_scan_ms", .type = SL_PARAM_INT, .def = "1000", .min = 1, .max = 100000,
	  .doc = "NUMA: CPU time before the first scan sets the preferred node "
		 "(numa_balancing_scan_delay_ms); retries every 1/16 of it" },
	{ .name = "smt_gain", .type = SL_PARAM_INT, .def = "0", .min = 0, .max = 4096,
	  .doc = "0: capacity 1024 per logical CPU (modern); N: a core's siblings share N "
		 "(2.6.x-4.x: 1178)" },
	{ .name = "rt_bandwidth", .type = SL_PARAM_CHOICE, .def = "server",
	  .choices = "server|throttle|off",
	  .doc = "what keeps RT tasks from starving fair ones: server (6.12's fair server, "
		 "fair_server_us of every fair_server_period_us), throttle (RT throttling of "
		 "2.6.25-6.11: RT runs rt_runtime_us of every rt_period_us) or off" },
	{ .name = "fair_server_us", .type = SL_PARAM_INT, .def = "50000", .min = 0,
	  .max = 10000000,
	  .doc = "rt_bandwidth=server: the fair server's runtime (6.12 debugfs "
		 "fair_server/cpuN/runtime, 50 ms)" },
	{ .name = "fair_server_period_us", .type = SL_PARAM_INT, .def = "1000000", .min = 100,
	  .max = 10000000,
	  .doc = "rt_bandwidth=server: the fair server's period (1 s)" },
	{ .name = "rt_runtime_us", .type = SL_PARAM_INT, .def = "950000", .min = 0,
	  .max = 10000000,
	  .doc = "rt_bandwidth=throttle: sched_rt_runtime_us, RT time per period per CPU "
		 "(950 ms)" },
	{ .name = "rt_period_us", .type = SL_PARAM_INT, .def = "1000000", .min = 1000,
	  .max = 10000000,
	  .doc = "rt_bandwidth=throttle: sched_rt_period_us (1 s)" },
	{ .name = "rr_timeslice_ms", .type = SL_PARAM_INT, .def = "100", .min = 1, .max = 10000,
	  .doc = "SCHED_RR's timeslice (sched_rr_timeslice_ms, RR_TIMESLICE: 100 ms), "
		 "counted in ticks" },
	{ .name = "scan_ns", .type = SL_PARAM_INT, .def = NULL, .min = 0, .max = 1000000,
	  .doc = "cost of each CPU or task the scheduler examines (default: the machine's); "
		 "a pick costs the machine's pick cost" },
	{ .name = NULL },
};

/* ---- creation ---- */

/* A knob that cannot act under the others is an error, not ignored. */
static int cfs_check_knobs(const struct sl_params *knobs, struct sl_err *err)
{
	static const char *const cfs_only[] = { "latency_us", "wakeup_gran_us", NULL };
	static const char *const eevdf_only[] = { "run_to_parity", "delay_dequeue",
						  "rel_deadline", "preempt_short", "custom_slice",
						  NULL };
	bool eevdf = sl_param_choice(knobs, "pick") == 0;

	for (int i = 0; eevdf && cfs_only[i]; i++)
		if (sl_param_user_gave(knobs, cfs_only[i]))
			return sl_fail(err, "policy 'cfs': %s: applies to pick=cfs only (EEVDF "
				       "has no sched_latency or wakeup granularity)", cfs_only[i]);
	for (int i = 0; !eevdf && eevdf_only[i]; i++)
		if (sl_param_user_gave(knobs, eevdf_only[i]))
			return sl_fail(err, "policy 'cfs': %s: applies to pick=eevdf only",
				       eevdf_only[i]);
	if (sl_param_choice(knobs, "newidle") == 1 && sl_param_user_gave(knobs, "preemption"))
		return sl_fail(err, "policy 'cfs': preemption: it bounds newly idle balancing, which "
			       "is off (newidle=off)");
	if (sl_param_choice(knobs, "numa") == 1 && sl_param_user_gave(knobs, "numa_scan_ms"))
		return sl_fail(err, "policy 'cfs': numa_scan_ms: NUMA balancing is off (numa=off)");
	static const char *const bw_knobs[3][3] = {
		{ "fair_server_us", "fair_server_period_us", NULL },
		{ "rt_runtime_us", "rt_period_us", NULL },
		{ NULL },
	};
	static const char *const bw_names[3] = { "server", "throttle", "off" };
	int bw = sl_param_choice(knobs, "rt_bandwidth");
	for (int m = 0; m < 2; m++)
		for (int i = 0; m != bw && bw_knobs[m][i]; i++)
			if (sl_param_user_gave(knobs, bw_knobs[m][i]))
				return sl_fail(err, "policy 'cfs': %s: applies to rt_bandwidth=%s only "
					       "(this run has rt_bandwidth=%s)", bw_knobs[m][i],
					       bw_names[m], bw_names[bw]);
	if (bw == 1 && sl_param_int(knobs, "rt_runtime_us") > sl_param_int(knobs, "rt_period_us"))
		return sl_fail(err, "policy 'cfs': rt_runtime_us: %lld is more than rt_period_us "
			       "(%lld), which sched_rt_handler refuses",
			       (long long)sl_param_int(knobs, "rt_runtime_us"),
			       (long long)sl_param_int(knobs, "rt_period_us"));
	if (bw == 0 && sl_param_int(knobs, "fair_server_us") >
			       sl_param_int(knobs, "fair_server_period_us"))
		return sl_fail(err, "policy 'cfs': fair_server_us: more than "
			       "fair_server_period_us, which dl_server_apply_params refuses");
	return 0;
}

/* custom_slice=COMM:US (or none). */
static int cfs_parse_custom_slice(struct cfs *s, const char *v, struct sl_err *err)
{
	if (!v || !strcmp(v, "none"))
		return 0;
	const char *colon = strrchr(v, ':');
	long us = 0;
	size_t len = colon ? (size_t)(colon - v) : 0;

	if (!colon || len == 0 || len >= sizeof(s->short_comm) || sl_parse_long(colon + 1, &us))
		return sl_fail(err, "policy 'cfs': custom_slice: '%s': want COMM:US or none", v);
	if (us < 100 || us > 100000)
		return sl_fail(err, "policy 'cfs': custom_slice: %ld us: the kernel clamps "
			       "sched_runtime to 100..100000 us", us);
	memcpy(s->short_comm, v, len);
	s->short_comm[len] = '\0';
	s->short_slice = us * SL_USEC;
	return 0;
}

static int cfs_ilog2(int x)
{
	int l = 0;

	while (x > 1) {
		x >>= 1;
		l++;
	}
	return l;
}

static void *cfs_init(struct sl_sim *sim, const struct sl_params *knobs, struct sl_err *err)
{
	if (cfs_check_knobs(knobs, err))
		return NULL;
	struct cfs *s = sl_xcalloc(1, sizeof(*s));
	const struct sl_topo *t = sl_topo(sim);

	s->sim = sim;
	s->topo = t;
	s->ncpus = t->ncpus;
	s->hz = (unsigned)sl_param_int(knobs, "hz");
	s->tick_ns = SL_SEC / s->hz;
	s->pick = sl_param_choice(knobs, "pick") == 0 ? CFS_PICK_EEVDF : CFS_PICK_CFS;

	int n = s->ncpus < 8 ? s->ncpus : 8;
	switch (sl_param_choice(knobs, "scaling")) {
	case 0:
		s->tunable_factor = 1 + cfs_ilog2(n);
		break;
	case 1:
		s->tunable_factor = 1;
		break;
	default:
		s->tunable_factor = n;
		break;
	}
	s->base_slice = sl_param_int(knobs, "base_slice_us") * SL_USEC * s->tunable_factor;
	s->min_gran = s->base_slice;
	s->latency = sl_param_int(knobs, "latency_us") * SL_USEC * s->tunable_factor;
	s->wakeup_gran = sl_param_int(knobs, "wakeup_gran_us") * SL_USEC * s->tunable_factor;
	s->nr_latency = (int)((s->latency + s->min_gran - 1) / s->min_gran);
	s->migration_cost = sl_param_int(knobs, "migration_cost_us") * SL_USEC;
	s->run_to_parity = sl_param_choice(knobs, "run_to_parity") == 0;
	bool eevdf = s->pick == CFS_PICK_EEVDF;
	s->delay_dequeue = eevdf && sl_param_choice(knobs, "delay_dequeue") == 0;
	s->rel_deadline = eevdf && sl_param_choice(knobs, "rel_deadline") == 0;
	s->preempt_short = eevdf && sl_param_choice(knobs, "preempt_short") == 0;
	s->sis_util = sl_param_choice(knobs, "sis_util") == 0;
	s->nohz = sl_param_choice(knobs, "nohz") == 0;
	s->util_est = sl_param_choice(knobs, "util_est") == 0;
	s->group_sched = sl_param_choice(knobs, "group_sched") == 0;
	if (eevdf && cfs_parse_custom_slice(s, sl_param_str(knobs, "custom_slice"), err)) {
		free(s);
		return NULL;
	}
	s->wake_affine = sl_param_choice(knobs, "wake_affine") == 0;
	s->idle_core = sl_param_choice(knobs, "idle_core") == 0;
	s->fork_balance = sl_param_choice(knobs, "fork_balance") == 0;
	s->newidle = sl_param_choice(knobs, "newidle") == 0;
	s->preemption = sl_param_choice(knobs, "preemption") == 0;
	s->numa = sl_param_choice(knobs, "numa") == 0;
	s->numa_scan_delay = sl_param_int(knobs, "numa_scan_ms") * SL_MSEC;
	s->numa_retry = s->numa_scan_delay / 16 > s->tick_ns ? s->numa_scan_delay / 16 : s->tick_ns;
	s->smt_gain = (int)sl_param_int(knobs, "smt_gain");
	s->scan_ns = sl_param_int_or(knobs, "scan_ns", sl_cost_scan(sim, 1));
	s->pick_ns = sl_param_int_or(knobs, "scan_ns", sl_cost_pick(sim));
	/* sched_rr_timeslice: RR_TIMESLICE = 100 ms in jiffies, or a value set
	 * through sched_rr_timeslice_ms by msecs_to_jiffies, which rounds up
	 * (sched_rr_handler); at least one */
	s->rr_ticks = (int)((sl_param_int(knobs, "rr_timeslice_ms") * (long)s->hz + 999) / 1000);
	if (s->rr_ticks < 1)
		s->rr_ticks = 1;
	s->rt_bw = sl_param_choice(knobs, "rt_bandwidth") == 0 ? CFS_RTBW_SERVER :
		   sl_param_choice(knobs, "rt_bandwidth") == 1 ? CFS_RTBW_THROTTLE : CFS_RTBW_OFF;
	s->fs_runtime = sl_param_int(knobs, "fair_server_us") * SL_USEC;
	s->fs_period = sl_param_int(knobs, "fair_server_period_us") * SL_USEC;
	s->rt_runtime = sl_param_int(knobs, "rt_runtime_us") * SL_USEC;
	s->rt_period = sl_param_int(knobs, "rt_period_us") * SL_USEC;
	s->rt_period_end = s->rt_period;
	if (s->rt_bw == CFS_RTBW_SERVER && s->fs_runtime == 0)
		s->rt_bw = CFS_RTBW_OFF;	/* 0 runtime: the server is disabled */
	s->max_lb_interval = (uint64_t)s->hz * (uint64_t)s->ncpus / 10;
	if (s->max_lb_interval < 1)
		s->max_lb_interval = 1;

	s->rq = sl_xcalloc((unsigned long)s->ncpus, sizeof(struct cfs_rq));
	for (int cpu = 0; cpu < s->ncpus; cpu++) {
		struct cfs_rq *rq = &s->rq[cpu];
		rq->cpu = cpu;
		cfs_tl_init(&rq->tl);
		rq->avg_idle = 2 * s->migration_cost;
		rq->max_idle_balance_cost = s->migration_cost;
		rq->push_cpu = -1;
		rq->h_load_jiffy = UINT64_MAX;	/* none read yet */
		rq->mig_dest = -1;
		rq->rt.acct = CFS_ACCT_IDLE;
	}
	/* every CPU starts idle: every LLC of an SMT machine has idle cores */
	for (int cpu = 0; cpu < s->ncpus; cpu++)
		s->has_idle_cores[cpu] = t->threads_per_core > 1;
	if (cfs_build_domains(s, err)) {
		cfs_free_domains(s);
		free(s->rq);
		free(s);
		return NULL;
	}
	cfs_balance_init(s);
	cfs_gsum_init(s);
	/* SIS_UTIL's bound as the first periodic balance of an idle LLC sets
	 * it: every CPU (the kernel starts from 0 and updates it within a few
	 * ms of boot; the simulated machine starts booted) */
	for (int cpu = 0; cpu < s->ncpus; cpu++)
		s->nr_idle_scan[s->rq[cpu].llc_id] = s->rq[cpu].llc_size;
	sl_set_hz(sim, s->hz);
	sl_set_tick_mode(sim, (enum sl_tick_mode)sl_param_choice(knobs, "tick"));
	sl_set_timers_as(sim, SL_TIMERS_6_12, sl_param_choice(knobs, "timers"));
	sl_set_pipes(sim, SL_PIPES_6_12);
	sl_set_sockets(sim, SL_SOCKETS_6_12);
	sl_set_futex_by_prio(sim, true);
	sl_set_writeback(sim, SL_WRITEBACK_6_12);
	sl_set_kernel_preempt(sim, (enum sl_kernel_preempt)sl_param_choice(knobs, "preempt"));
	cfs_nohz_init(s);
	return s;
}

static void cfs_destroy(struct sl_sim *sim)
{
	struct cfs *s = cfs_state(sim);

	cfs_gsum_free(s);
	cfs_free_domains(s);
	free(s->rq);
	free(s);
}

/* ---- ops ---- */

/* custom_slice: the tasks of that name asked for their own slice
 * (sched_setattr); matched at fork and exec. */
static void cfs_apply_custom_slice(const struct cfs *s, struct cfs_entity *se)
{
	se->custom_slice = s->short_slice > 0 && !strcmp(se->task->comm, s->short_comm);
	se->slice = se->custom_slice ? s->short_slice : s->base_slice;
}

static void cfs_entity_init(struct cfs *s, struct sl_task *t)
{
	struct cfs_entity *se = cfs_se(t);

	memset(se, 0, sizeof(*se));
	se->task = t;
	se->nice = t->nice;
	se->policy = t->sched_policy;
	se->weight = cfs_task_weight(t);
	cfs_apply_custom_slice(s, se);
	se->cpu = -1;
	if (sl_task_rt(t)) {
		se->rt = true;
		se->rt_prio = SL_RT_PRIO_MAX - t->rt_priority;
		se->rt_slice = s->rr_ticks;
	}
	se->recent_used_cpu = -1;
	se->numa_nid = -1;
	/* __sched_fork(): exec_start = 0, boot time, so a task that never
	 * ran is cold to task_hot(); the simulated clock starts at 0, so
	 * "long ago" is a horizon back (as for a moved task, fair.c) */
	se->exec_start = -SL_TIME_HORIZON;
	se->mig_rq = -1;
}

/* sched_fork() + wake_up_new_task(): placed, then queued where
 * select_task_rq(WF_FORK) says; it may preempt there. */
static void cfs_fork(struct sl_sim *sim, struct sl_task *parent, struct sl_task *child)
{
	struct cfs *s = cfs_state(sim);
	struct cfs_entity *se = cfs_se(child);
	int cpu = 0;

	cfs_entity_init(s, child);
	if (se->rt) {
		/* sched_fork: rt_sched_class; wake_up_new_task: select_task_rq_rt(WF_FORK) */
		if (parent) {
			se->cpu = parent->cpu >= 0 ? parent->cpu : cfs_se(parent)->cpu;
			cpu = cfs_rt_select(s, se, se->cpu, parent->cpu >= 0 ? parent->cpu : -1);
		} else {
			cpu = sl_cpumask_test(&child->allowed, 0) ? 0 :
			      sl_cpumask_first(&child->allowed);
		}
		se->cpu = cpu;
		cfs_rt_enqueue(s, se, false);
		cfs_rt_wakeup_preempt(s, se);
		cfs_rt_woken(s, se);
		return;
	}
	if (parent) {
		struct cfs_entity *pse = cfs_se(parent);
		struct cfs_rq *prq = &s->rq[pse->cpu];
		/* dup_task_struct copies the parent's wakee bookkeeping, and
		 * __sched_fork leaves it */
		se->last_wakee = pse->last_wakee;
		se->wakee_flips = pse->wakee_flips;
		se->wakee_flip_decay = pse->wakee_flip_decay;
		/* init_numa_balancing(): a new thread (or vfork child, CLONE_VM)
		 * keeps the parent's preferred node; faults it has none */
		if (child->mm == parent->mm)
			se->numa_nid = pse->numa_nid;
		/* 6.5's task_fork_fair brought the parent's runqueue up to date
		 * for the placement there; 6.12's accounts nothing */
		if (s->pick != CFS_PICK_EEVDF)
			cfs_update_curr(s, prq);
		cfs_place_new(s, prq, se);
		cpu = parent->cpu >= 0 ? parent->cpu : pse->cpu;
		se->cpu = cpu;
		/* wake_up_new_task: the parent's CPU, before the placement */
		se->recent_used_cpu = cpu;
		cpu = cfs_select_task_rq_core(s, se, cpu, cpu, CFS_WF_FORK, pse);
	} else {
		/* CPU 0, or the first it may run on (a pinned benchmark) */
		cpu = sl_cpumask_test(&child->allowed, 0) ? 0 : sl_cpumask_first(&child->allowed);
		cfs_place_new(s, &s->rq[cpu], se);
	}
	se->cpu = cpu;
	struct cfs_rq *rq = &s->rq[cpu];
	cfs_pelt_init_new(s, rq, se);
	cfs_enqueue(s, rq, se, CFS_ENQ_INITIAL);
	cfs_check_preempt(s, rq, se);
}

/* ttwu_do_activate() measures how long the CPU idled: avg_idle bounds
 * newly-idle balancing. */
static void cfs_note_wake_idle(struct cfs *s, struct cfs_rq *rq)
{
	if (rq->idle_stamp) {
		sl_time delta = sl_now(s->sim) - rq->idle_stamp;
		rq->avg_idle += (delta - rq->avg_idle) / 8;
		if (rq->avg_idle > 2 * rq->max_idle_balance_cost)
			rq->avg_idle = 2 * rq->max_idle_balance_cost;
		rq->idle_stamp = 0;
	}
}

/* try_to_wake_up() of an RT task: select_task_rq_rt(WF_TTWU), enqueue,
 * wakeup_preempt, task_woken_rt. */
static void cfs_rt_wakeup(struct cfs *s, struct cfs_entity *se, int waker_cpu, unsigned flags)
{
	int prev_cpu = se->cpu;

	if (waker_cpu < 0 || waker_cpu >= s->ncpus || (flags & SL_WAKE_TIMER))
		waker_cpu = prev_cpu;
	int cpu = cfs_rt_select(s, se, prev_cpu, waker_cpu);
	if (cpu != prev_cpu) {
		sl_note_migration(s->sim, se->task, prev_cpu, cpu);
		se->cpu = cpu;
	}
	cfs_note_wake_idle(s, &s->rq[cpu]);
	cfs_rt_enqueue(s, se, false);
	cfs_rt_wakeup_preempt(s, se);
	cfs_rt_woken(s, se);
}

/* try_to_wake_up(): select_task_rq(WF_TTWU), then ttwu_do_activate. */
static void cfs_wakeup(struct sl_sim *sim, struct sl_task *t, int waker_cpu, unsigned flags)
{
	struct cfs *s = cfs_state(sim);
	struct cfs_entity *se = cfs_se(t);
	int prev_cpu = se->cpu;

	if (se->rt) {
		cfs_rt_wakeup(s, se, waker_cpu, flags);
		return;
	}
	if (se->delayed) {
		struct cfs_rq *drq = &s->rq[prev_cpu];
		if (se->nice == t->nice && sl_cpumask_test(&t->allowed, prev_cpu)) {
			/* ttwu_runnable(): still queued, woken where it is */
			cfs_requeue_delayed(s, drq, se);
			cfs_check_preempt(s, drq, se);
			return;
		}
		/* a new weight or affinity: leave, then wake as usual */
		cfs_dequeue(s, drq, se, CFS_DEQ_SLEEP | CFS_DEQ_DELAYED);
	}
	if (se->nice != t->nice) {
		se->nice = t->nice;
		se->weight = cfs_task_weight(t);
	}
	if (waker_cpu < 0 || waker_cpu >= s->ncpus)
		waker_cpu = prev_cpu;
	/* current, whatever its class (select_task_rq_fair's record_wakee
	 * and wake_affine_weight's task_h_load(current)); a timer has none */
	struct sl_task *cur = (flags & SL_WAKE_TIMER) ? NULL : sl_curr(sim, waker_cpu);
	struct cfs_entity *waker = cur ? cfs_se(cur) : NULL;
	/* 6.12 fs/pipe.c wakes a pipe's other end with
	 * wake_up_interruptible_sync_poll whether or not the waker sleeps;
	 * kernel/exit.c __wake_up_parent uses __wake_up_sync_key, but
	 * select_task_rq_fair drops WF_SYNC when the waker is exiting
	 * (PF_EXITING), as a child waking its parent from do_exit is */
	bool exiting = waker && waker->task->state == SL_TASK_DEAD;
	unsigned wf = CFS_WF_TTWU |
		      ((flags & SL_WAKE_SYNC_MODERN) && !exiting ? CFS_WF_SYNC : 0);
	int cpu = cfs_select_task_rq_core(s, se, prev_cpu, waker_cpu, wf, waker);
	if (cpu != prev_cpu)
		cfs_move_sleeping(s, se, cpu);

	struct cfs_rq *rq = &s->rq[cpu];
	cfs_note_wake_idle(s, rq);
	cfs_enqueue(s, rq, se, CFS_ENQ_WAKEUP | (cpu != prev_cpu ? CFS_ENQ_MIGRATED : 0));
	cfs_check_preempt(s, rq, se);
}

/* A dead task leaves its CPU's averages and any pending move. */
static void cfs_task_dead(struct cfs *s, struct cfs_rq *rq, struct cfs_entity *se)
{
	if (!se->rt)	/* an RT task's averages left at switched_from_fair */
		cfs_pelt_remove(s, rq, se);	/* task_dead_fair() */
	if (se->mig_rq >= 0) {
		struct cfs_rq *mrq = &s->rq[se->mig_rq];
		if (mrq->mig_se == se)
			mrq->mig_se = NULL;
		se->mig_rq = -1;
	}
}

/*
 * pick_next_task_fair(): take prev off if it blocked, pull if about to
 * idle, pick, and put a runnable prev back.  Under EEVDF the pick comes
 * first, as 6.12's __pick_next_task calls pick_next_task_fair before
 * put_prev_task: pick_eevdf still sees prev as cfs_rq->curr, so
 * RUN_TO_PARITY keeps a protected, eligible prev on the CPU when another
 * task was let in by a reschedule that did not ask pick_eevdf (a
 * SCHED_IDLE task woken beside, a running task reniced upwards).
 */
static struct sl_task *cfs_pick_task(struct sl_sim *sim, int cpu, struct sl_task *prev)
{
	struct cfs *s = cfs_state(sim);
	struct cfs_rq *rq = &s->rq[cpu];

	struct cfs_entity *pse = prev ? cfs_se(prev) : NULL;
	bool prev_curr = false;		/* prev runnable and still rq->curr */

	cfs_rtbw_account(s, cpu, rq->rt.acct);
	if (pse && pse->rt) {
		cfs_rt_put_prev(s, cpu, pse);
		if (prev->state == SL_TASK_DEAD)
			cfs_task_dead(s, rq, pse);
	} else if (prev) {
		if (prev->state == SL_TASK_DEAD) {
			cfs_dequeue(s, rq, pse, CFS_DEQ_SLEEP | CFS_DEQ_NODELAY);
			cfs_task_dead(s, rq, pse);
		} else if (prev->state != SL_TASK_RUNNABLE) {
			/* DELAY_DEQUEUE may keep it queued: then it competes as if runnable */
			if (!cfs_dequeue(s, rq, pse, CFS_DEQ_SLEEP))
				cfs_put_prev(s, rq);
		} else if (s->pick == CFS_PICK_EEVDF && !rq->fix_pending) {
			cfs_update_curr(s, rq);		/* pick_task_fair's */
			prev_curr = true;
		} else {
			cfs_put_prev(s, rq);
		}
	}
	/* After the stopper (set_allowed's, done here, or the migration
	 * thread's run) prev is the stopper, of prio 0: prev_balance's
	 * balance_rt pulls RT tasks unless one of prio 0 is queued here
	 * (need_pull_rt_task), as when its RT task moved away */
	bool stopper = rq->fix_pending || rq->after_stopper;
	if (rq->fix_pending)
		cfs_attr_fix_cpu(s, cpu);	/* set_allowed's stopper */
	rq->after_stopper = false;
	if (stopper)
		cfs_rt_pull(s, cpu);
	if (s->pick_ns > 0)
		sl_charge_sched(sim, cpu, s->pick_ns);
	for (;;) {
		/* the RT class first, unless throttled or the fair server's turn */
		struct cfs_entity *rse = cfs_rt_pick(s, cpu);
		if (rse) {
			if (prev_curr)
				cfs_put_prev(s, rq);
			cfs_rtbw_account(s, cpu, CFS_ACCT_RT);
			return rse->task;
		}
		cfs_rtbw_account(s, cpu, CFS_ACCT_FAIR);
		if (rq->nr_running == 0)
			cfs_newidle_balance(s, cpu);
		if (rq->nr_running == 0) {
			rq->last_idle = sl_now(sim);
			cfs_rtbw_account(s, cpu, CFS_ACCT_IDLE);
			cfs_update_idle_core(s, cpu);
			return NULL;
		}
		struct cfs_entity *next = cfs_pick_entity(s, rq);
		if (next->delayed) {
			/* picked: it is eligible now, and finally leaves; prev
			 * stays curr for the pick again (6.12 pick_task_fair's
			 * "goto again": put_prev_entity comes only after it, in
			 * pick_next_task_fair), so RUN_TO_PARITY may keep it */
			cfs_dequeue(s, rq, next, CFS_DEQ_SLEEP | CFS_DEQ_DELAYED);
			continue;
		}
		if (prev_curr) {	/* put_prev_set_next_task() */
			cfs_put_prev(s, rq);
			prev_curr = false;
		}
		cfs_set_next(s, rq, next, s->pick == CFS_PICK_EEVDF && next == pse);
		return next->task;
	}
}

static struct sl_task *cfs_pick_next(struct sl_sim *sim, int cpu, struct sl_task *prev)
{
	struct cfs *s = cfs_state(sim);

	/* a kicked idle load balancer: its softirq runs before anything, and
	 * unless it pulled a task to itself the CPU stays in its idle loop */
	if (!prev && cfs_nohz_kicked(s, cpu))
		return NULL;
	struct sl_task *next = cfs_pick_task(sim, cpu, prev);
	if (next) {
		cfs_nohz_leave_idle(s, cpu);
		return next;
	}
	/* do_idle(): the blocked-load pass its newly-idle balance asked
	 * for, then the tick stops */
	cfs_nohz_run_idle(s, cpu);
	cfs_nohz_enter_idle(s, cpu);
	return NULL;
}

static void cfs_tick(struct sl_sim *sim, int cpu)
{
	struct cfs *s = cfs_state(sim);
	struct cfs_rq *rq = &s->rq[cpu];

	if (rq->curr) {
		cfs_task_tick(s, rq);
		cfs_numa_tick(s, rq, rq->curr);
	} else if (rq->rt.curr) {
		cfs_rt_task_tick(s, cpu);
	}
	cfs_rtbw_tick(s, cpu);
	/* sched_balance_trigger(): the kick is decided before the softirq
	 * balances this CPU */
	cfs_nohz_kick(s, cpu);
	cfs_rebalance_tick(s, cpu);
}

static void cfs_hrtimer(struct sl_sim *sim, int cpu, int id)
{
	cfs_rtbw_hrtimer(cfs_state(sim), cpu, id);
}

/* sched_exec(): an exec is the cheapest time to move a task. */
static void cfs_exec(struct sl_sim *sim, struct sl_task *t)
{
	struct cfs *s = cfs_state(sim);
	struct cfs_entity *se = cfs_se(t);

	if (s->short_slice > 0)
		cfs_apply_custom_slice(s, se);
	/* bprm_execve -> task_numa_free(current, false): the fault history
	 * goes, the preferred node stays until the new image's faults
	 * re-derive it (task_numa_placement) */
	se->numa_scanned = false;
	se->numa_exec_at = se->sum_exec;
	/* select_task_rq_rt() keeps an exec'ing RT task where it is */
	if (t->cpu < 0 || se->rt)
		return;
	int dest = cfs_select_task_rq(s, se, t->cpu, t->cpu, CFS_WF_EXEC, se);
	if (dest != t->cpu)
		cfs_request_move(s, se, dest);
}

static bool cfs_yield_op(struct sl_sim *sim, struct sl_task *t)
{
	struct cfs *s = cfs_state(sim);
	struct cfs_entity *se = cfs_se(t);

	if (se->rt)
		cfs_rt_yield(s, se);
	else
		cfs_yield(s, &s->rq[se->cpu]);
	return true;	/* do_sched_yield(): schedule() */
}

/* The migration thread preempted whatever ran on cpu: it is queued again,
 * then pushed (active balance) or moved (exec, NUMA) if so requested. */
static void cfs_migration(struct sl_sim *sim, int cpu, long arg)
{
	struct cfs *s = cfs_state(sim);
	struct cfs_rq *rq = &s->rq[cpu];

	(void)arg;
	rq->after_stopper = true;
	cfs_put_prev(s, rq);
	if (rq->rt.curr)
		cfs_rt_put_prev(s, cpu, rq->rt.curr);
	cfs_attr_fix_cpu(s, cpu);
	cfs_active_balance(s, cpu);
	struct cfs_entity *se = rq->mig_se;
	if (!se)
		return;
	int dest = rq->mig_dest;
	rq->mig_se = NULL;
	se->mig_rq = -1;
	if (se->rt) {
		if (se->rt_queued && se->cpu == cpu && rq->rt.curr != se && dest != cpu &&
		    sl_cpumask_test(&se->task->allowed, dest))
			cfs_rt_move_task(s, se, dest);
	} else if (se->on_rq && se->cpu == cpu && rq->curr != se && dest != cpu &&
		   sl_cpumask_test(&se->task->allowed, dest)) {
		cfs_move_queued(s, se, dest);
	}
}

/* ---- consistency (tests, --check) ---- */

static int cfs_check_rq(struct sl_sim *sim, struct cfs *s, struct cfs_rq *rq, struct sl_err *err)
{
	int cpu = rq->cpu;
	struct sl_task *running = sl_curr(sim, cpu);

	if (cfs_tl_check(&rq->tl, cpu, err) || cfs_rt_check(s, cpu, err))
		return -1;
	if ((rq->curr ? rq->curr->task : rq->rt.curr ? rq->rt.curr->task : NULL) != running ||
	    (rq->curr && rq->rt.curr))
		return sl_fail_internal(err, "cfs: CPU %d runs task %d, its runqueue's curr is %d",
					cpu, running ? running->id : -1,
					rq->curr ? rq->curr->task->id : -1);
	if (rq->capacity < 1 || rq->capacity > rq->capacity_orig)
		return sl_fail_internal(err, "cfs: CPU %d: capacity_of %ld outside 1..%ld", cpu,
					rq->capacity, rq->capacity_orig);
	if (rq->tl.nr + (rq->curr != NULL) != rq->nr_running)
		return sl_fail_internal(err, "cfs: CPU %d: %d queued + %d running, nr_running %d",
					cpu, rq->tl.nr, rq->curr != NULL, rq->nr_running);
	long load = rq->curr ? rq->curr->weight : 0, avg_load = 0;
	int64_t avg = 0;
	for (const struct cfs_entity *se = cfs_tl_first(&rq->tl); se; se = cfs_tl_next(se)) {
		bool delayed_ok = se->delayed && se->task->state == SL_TASK_SLEEPING;
		if (!se->on_rq || se->cpu != cpu ||
		    (se->task->state != SL_TASK_RUNNABLE && !delayed_ok))
			return sl_fail_internal(err, "cfs: task %d queued on CPU %d (its cpu %d, "
						"on_rq %d)", se->task->id, cpu, se->cpu, se->on_rq);
		load += se->weight;
		avg_load += se->weight;
		avg += (se->vruntime - rq->min_vruntime) * se->weight;
	}
	if (load != rq->load || avg_load != rq->avg_load || avg != rq->avg_vruntime)
		return sl_fail_internal(err, "cfs: CPU %d: load %ld (kept %ld), tree weight %ld "
					"(kept %ld), weighted vruntime sum %lld (kept %lld)", cpu,
					load, rq->load, avg_load, rq->avg_load, (long long)avg,
					(long long)rq->avg_vruntime);
	long n = sl_dlist_check(&rq->cfs_tasks, rq->nr_running);
	if (n != rq->nr_running)
		return sl_fail_internal(err, "cfs: CPU %d: cfs_tasks list broken or %ld tasks listed, "
					"nr_running %d", cpu, n, rq->nr_running);
	int numa = 0, pref = 0;
	uint32_t est = 0;
	for (const struct sl_dlink *l = rq->cfs_tasks.head; l; l = l->next) {
		const struct cfs_entity *se = cfs_lru_entry(l);
		if (se->util_est_in && se->delayed)
			return sl_fail_internal(err, "cfs: CPU %d: delayed task %d in util_est", cpu,
						se->task->id);
		est += se->util_est_in ? (uint32_t)cfs_task_est(se) : 0;
		if (se->numa_nid >= 0) {
			numa++;
			pref += se->numa_nid == s->topo->cpu_node[cpu];
		}
	}
	if (est != rq->avg.util_est)
		return sl_fail_internal(err, "cfs: CPU %d: util_est %u, its tasks' %u", cpu,
					rq->avg.util_est, est);
	if (numa != rq->nr_numa_running || pref != rq->nr_preferred_running)
		return sl_fail_internal(err, "cfs: CPU %d: NUMA counts %d/%d, kept %d/%d", cpu, numa,
					pref, rq->nr_numa_running, rq->nr_preferred_running);
	if (rq->mig_se && rq->mig_se->mig_rq != cpu)
		return sl_fail_internal(err, "cfs: CPU %d: stale migration request", cpu);
	for (int i = 0; i < rq->nsd; i++)
		if (rq->sd[i].ivl_ms != rq->sd[i].balance_interval)
			return sl_fail_internal(err, "cfs: CPU %d: %s's interval kept for %d ms, "
						"balance_interval %d ms", cpu, rq->sd[i].name,
						rq->sd[i].ivl_ms, rq->sd[i].balance_interval);
	return 0;
}

static int cfs_check(struct sl_sim *sim, struct sl_err *err)
{
	struct cfs *s = cfs_state(sim);
	int overloaded = 0, rt_overloaded = 0;

	for (int cpu = 0; cpu < s->ncpus; cpu++) {
		if (cfs_check_rq(sim, s, &s->rq[cpu], err))
			return -1;
		overloaded += cfs_nr_all(&s->rq[cpu]) >= 2;
		rt_overloaded += s->rq[cpu].rt.nr_running >= 2;
	}
	if (overloaded != s->nr_overloaded || rt_overloaded != s->nr_rt_overloaded)
		return sl_fail_internal(err, "cfs: %d runqueues overloaded, counted %d (RT: %d, %d)",
					overloaded, s->nr_overloaded, rt_overloaded,
					s->nr_rt_overloaded);
	if (cfs_gsum_check(s, err))
		return -1;
	for (struct sl_task *t = sl_task_first(sim); t; t = sl_task_next(t)) {
		const struct cfs_entity *se = cfs_se(t);
		bool runnable = t->state == SL_TASK_RUNNABLE;
		/* a mask change waits for the stopper of the task's CPU */
		bool allowed = se->cpu >= 0 && (sl_cpumask_test(&t->allowed, se->cpu) ||
						s->rq[se->cpu].fix_pending);
		if (se->rt != sl_task_rt(t) || se->policy != t->sched_policy)
			return sl_fail_internal(err, "cfs: task %d: class %d kept, %d set", t->id,
						se->policy, t->sched_policy);
		if (se->rt) {
			if (se->on_rq || se->rt_queued != runnable || (runnable && !allowed))
				return sl_fail_internal(err, "cfs: RT task %d is %s but %s queued on "
							"CPU %d", t->id,
							runnable ? "runnable" : "not runnable",
							se->rt_queued ? "is" : "is not", se->cpu);
			continue;
		}
		if (se->delayed && (runnable || !se->on_rq || s->pick != CFS_PICK_EEVDF))
			return sl_fail_internal(err, "cfs: task %d delayed but %s", t->id,
						runnable ? "runnable" : "not queued");
		if (se->on_rq != (runnable || se->delayed))
			return sl_fail_internal(err, "cfs: task %d is %s but %s queued", t->id,
						runnable ? "runnable" : "not runnable",
						se->on_rq ? "is" : "is not");
		if (t->cpu >= 0 && t->cpu != se->cpu)
			return sl_fail_internal(err, "cfs: task %d runs on CPU %d but is queued on %d",
						t->id, t->cpu, se->cpu);
		if (runnable && !allowed)
			return sl_fail_internal(err, "cfs: task %d queued on CPU %d, not allowed",
						t->id, se->cpu);
	}
	return 0;
}

const struct sl_policy_ops sl_policy_cfs = {
	.name = "cfs",
	.summary = "today's Linux: EEVDF/CFS fair queuing, SMT/MC/NUMA domains, "
		   "select_idle_sibling, NUMA balancing",
	.knobs = cfs_knobs,
	.task_size = sizeof(struct cfs_entity),
	.sched_policies = (1u << SL_SCHED_FIFO) | (1u << SL_SCHED_RR) | (1u << SL_SCHED_BATCH) |
			  (1u << SL_SCHED_IDLE),
	.init = cfs_init,
	.destroy = cfs_destroy,
	.fork = cfs_fork,
	.wakeup = cfs_wakeup,
	.pick_next = cfs_pick_next,
	.tick = cfs_tick,
	.hrtimer = cfs_hrtimer,
	.exec = cfs_exec,
	.yield = cfs_yield_op,
	.migration = cfs_migration,
	.setscheduler = cfs_setscheduler,
	.set_allowed = cfs_set_allowed,
	.check = cfs_check,
};
