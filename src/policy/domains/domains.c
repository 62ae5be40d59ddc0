/*
 * domains/domains.c - the policy `domains`: Nick Piggin's scheduler domains, in
 * the 2.6.12 form (default) and the w26 CFT of December 2003.  Knobs,
 * creation (runqueues, the domain hierarchy, the 2.6.0 constants of the
 * O(1) base), the consistency check and the ops table; the mechanism is in
 * the other files of policy/domains/ listed in domains/domains.h.
 *
 * Sources: 2.6.12.1 kernel/sched.c, include/linux/topology.h,
 * include/asm-i386/topology.h; 2.6.0 kernel/sched.c; for w26 the
 * sched-domains code of early 2004 before Nick Piggin's "lessidle" patch
 * and his LKML mails of Dec 2003 - Feb 2004 (see the domains/ files'
 * headers).  Docs: docs/policies/domains.md.
 *
 * Knobs (each value is checked by the spec binder; combinations here):
 *   version           2.6.12 | w26
 *   hz, scan_ns       as for o1
 *   smt_nice          dependent_sleeper on/off (default: on for 2.6.12 on
 *                     i386 and x86_64, off on ia64, whose kernel has no
 *                     CONFIG_SCHED_SMT (see wake_idle) and so neither
 *                     dependent_sleeper nor wake_priority_sleeper; off for
 *                     w26)
 *   per_cpu_gain      the SMT level's per_cpu_gain (default 25 for 2.6.12,
 *                     15 for w26, the 2.6.6-era value; only with smt_nice)
 *   smt_cache_hot_ms  the SMT level's cache_hot_time: 0 in w26 and 2.6.12,
 *                     1 in w27 by accident (Nick Piggin to Jun Nakajima,
 *                     LKML, Dec 2003; UNVERIFIED which is right for w26:
 *                     0 by default)
 *   smt_busy_factor   the SMT level's busy_factor: 8 in 2.6.12, raised to
 *                     64 by Intel in Dec 2006 (Suresh Siddha, "sched
 *                     domain: increase the SMT busy rebalance interval",
 *                     commit ac7d550499e2)
 *   wake_idle         2.6.12 only: wake_idle on (CONFIG_SCHED_SMT, which
 *                     the i386 and x86_64 defconfigs set; ARCH_HAS_SCHED_
 *                     WAKE_IDLE comes with it in include/linux/topology.h)
 *                     or off; default off on ia64, whose 2.6.12.1
 *                     arch/ia64/kernel/domain.c says CONFIG_SCHED_SMT "is
 *                     never defined" and whose defconfig leaves it out
 *   idle_level        w26 only: which level carries SD_FLAG_IDLE (phys,
 *                     default, or smt; the w26 layout is UNVERIFIED)
 *
 * Choices:
 *   - w26 sets SD_FLAG_IDLE only on machines with SMT: it came with the
 *     i386 SMT setup; a plain SMP box ran SD_CPU_INIT, which has no such
 *     flag.
 *   - preempt defaults to the arch's 2.6.11 defconfig: CONFIG_PREEMPT on
 *     i386, off on ia64 and x86_64 (policy/kernel_arch.h; docs/engine.md,
 *     "Kernel exits").
 *
 * Omitted / simplified: see the domains/ files' headers.
 */
#include <stdlib.h>

#include "base/spec.h"
#include "policy/kernel_arch.h"
#include "policy/domains/domains.h"
#include "sim/sim.h"

static const struct sl_param_def domains_knobs[] = {
	{ .name = "version", .type = SL_PARAM_CHOICE, .def = "2.6.12",
	  .choices = sd_version_choices,
	  .doc = "2.6.12 (June 2005: cpu_power, SMT nice) or w26 (Dec 2003 CFT: SD_FLAG_IDLE)" },
	SL_ARCH_HZ_KNOB(100, SL_ARCH_HZ_26_DOC, "; ms intervals scale with it"),
	SL_TICK_KNOB(NULL, SL_ARCH_TICK_26_DOC "; w26 as 2.6.0"),
	SL_TIMERS_KNOB("jiffy", "2.6.12 sys_nanosleep and per-CPU timer wheels"),
	{ .name = "scan_ns", .type = SL_PARAM_INT, .def = NULL, .min = 0, .max = 1000000,
	  .doc = "scheduler cost per schedule() and per CPU or task a balance looks at "
		 "(default: the machine's costs of a pick and of examining one item)" },
	{ .name = "smt_nice", .type = SL_PARAM_CHOICE, .def = NULL, .choices = "on|off",
	  .doc = "dependent_sleeper: an SMT sibling idles rather than run a much less "
		 "important task (default: on for 2.6.12 on i386 and x86_64, off on ia64, "
		 "whose defconfig has no CONFIG_SCHED_SMT; off for w26)" },
	{ .name = "per_cpu_gain", .type = SL_PARAM_INT, .def = NULL, .min = 0, .max = 100,
	  .doc = "percent a second SMT thread adds, for smt_nice (default: 25 for 2.6.12, "
		 "15 for w26 as in the 2.6.6 era)" },
	{ .name = "smt_cache_hot_ms", .type = SL_PARAM_INT, .def = "0", .min = 0, .max = 1000,
	  .doc = "cache_hot_time of the SMT level in ms (0; w27 set 1 by accident)" },
	{ .name = "smt_busy_factor", .type = SL_PARAM_INT, .def = "8", .min = 1, .max = 1024,
	  .doc = "busy_factor of the SMT level (8; Intel raised it to 64 in 2006)" },
	{ .name = "wake_idle", .type = SL_PARAM_CHOICE, .def = NULL, .choices = "on|off",
	  .doc = "2.6.12 only: wake_idle, compiled with CONFIG_SCHED_SMT (default: on for i386 "
		 "and x86_64, whose defconfigs set it, off for ia64; off: the wakeup stays on the "
		 "CPU wake affine chose)" },
	SL_ARCH_ULONG_KNOB("2.6.12: 2.6.12.1's types; w26: 2.6.11's, 2.6.0 UNVERIFIED"),
	SL_ARCH_SCHED_CLOCK_KNOB("2.6.12: 2.6.12.1's timer_tsc.c; w26: 2.6.11's, 2.6.0 "
				 "UNVERIFIED"),
	SL_ARCH_PREEMPT_KNOB,
	{ .name = "idle_level", .type = SL_PARAM_CHOICE, .def = NULL, .choices = "phys|smt",
	  .doc = "w26 only: the level that carries SD_FLAG_IDLE (default: phys, the package "
		 "level; smt: the sibling domain)" },
	{ .name = NULL },
};

/* The version's level rows with the knobs' overrides. */
static void domains_levels(struct sd_sched *s, const struct sl_params *knobs)
{
	struct sd_params *smt = &s->level[SD_LV_SMT], *phys = &s->level[SD_LV_PHYS];

	for (int lv = 0; lv < SD_NR_LEVELS; lv++) {
		s->level[lv] = s->v->level[lv];
		if (lv == SD_LV_NODE && s->v->node_ia64 && s->topo->arch == SL_ARCH_IA64)
			s->level[lv] = *s->v->node_ia64;
		if (s->level[lv].max_interval_fls) {
			int fls = 0;	/* fls(num_online_cpus()) */
			for (int n = s->ncpus; n; n >>= 1)
				fls++;
			s->level[lv].max_interval = s->level[lv].max_interval_fls * fls;
		}
	}
	smt->cache_hot_time = sl_param_int(knobs, "smt_cache_hot_ms") * SL_MSEC;
	smt->busy_factor = (int)sl_param_int(knobs, "smt_busy_factor");
	if (sl_param_given(knobs, "per_cpu_gain"))
		smt->per_cpu_gain = (int)sl_param_int(knobs, "per_cpu_gain");
	if (s->v->rules != SD_RULES_W26)
		return;
	if (s->topo->threads_per_core < 2) {
		phys->flags &= ~SD_FLAG_IDLE;
	} else if (sl_param_given(knobs, "idle_level") &&
		   sl_param_choice(knobs, "idle_level") == 1) {
		phys->flags &= ~SD_FLAG_IDLE;
		smt->flags |= SD_FLAG_IDLE;
	}
}

static void *domains_init(struct sl_sim *sim, const struct sl_params *knobs, struct sl_err *err)
{
	const struct sd_version *v = sd_version_find(sl_param_str(knobs, "version"));

	if (!v) {
		sl_fail_internal(err, "domains: no version row for '%s'",
				 sl_param_str(knobs, "version"));
		return NULL;
	}
	if (v->rules == SD_RULES_W26 && sl_param_given(knobs, "wake_idle")) {
		sl_fail(err, "policy 'domains': wake_idle applies to version=2.6.12 only, not %s",
			v->name);
		return NULL;
	}
	if (v->rules != SD_RULES_W26) {
		static const char *const w26_only[] = { "idle_level" };
		for (size_t i = 0; i < sizeof(w26_only) / sizeof(w26_only[0]); i++) {
			if (sl_param_given(knobs, w26_only[i])) {
				sl_fail(err, "policy 'domains': %s applies to version=w26 only, "
					"not %s", w26_only[i], v->name);
				return NULL;
			}
		}
	}

	struct sd_sched *s = sl_xcalloc(1, sizeof(*s));
	s->v = v;
	s->rules_2612 = v->rules == SD_RULES_2612;
	s->sim = sim;
	s->topo = sl_topo(sim);
	s->ncpus = s->topo->ncpus;
	s->thread_pick = -1;
	s->hz = (unsigned)sl_param_int_or(knobs, "hz", sl_arch_hz_26(s->topo->arch));
	s->tick_ns = SL_SEC / s->hz;
	s->scan_ns = sl_param_int_or(knobs, "scan_ns", sl_cost_scan(sim, 1));
	s->pick_ns = sl_param_int_or(knobs, "scan_ns", sl_cost_pick(sim));
	/* dependent_sleeper, wake_sleeping_dependent and wake_priority_sleeper
	 * are all inside #ifdef CONFIG_SCHED_SMT (2.6.12.1 kernel/sched.c) */
	s->smt_nice = sl_param_user_on(knobs, "smt_nice",
				       v->smt_nice && sl_arch_sched_smt_2612(s->topo->arch));
	s->ulong_bits = sl_arch_ulong_knob_bits(s->topo->arch, sl_param_choice(knobs, "ulong"));
	s->jiffy_clock = sl_arch_sched_clock_jiffies(s->topo->arch, s->topo->nnodes,
						     sl_param_choice(knobs, "sched_clock"));
	s->wake_idle = sl_param_user_on(knobs, "wake_idle", sl_arch_sched_smt_2612(s->topo->arch));
	domains_levels(s, knobs);

	s->rqs = sl_xcalloc((unsigned long)s->ncpus, sizeof(struct sd_rq));
	if (v->rules == SD_RULES_W26)
		s->load_store = sl_xcalloc((unsigned long)s->ncpus * (unsigned long)s->ncpus,
					   sizeof(unsigned long));
	for (int cpu = 0; cpu < s->ncpus; cpu++) {
		struct sd_rq *rq = sd_rq(s, cpu);
		rq->cpu = cpu;
		sl_prio_array_init(&rq->arrays[0]);
		sl_prio_array_init(&rq->arrays[1]);
		rq->active = &rq->arrays[0];
		rq->expired = &rq->arrays[1];
		rq->expired_timestamp = -1;
		rq->best_expired_prio = SL_MAX_PRIO;
		rq->push_cpu = -1;
		if (s->load_store)
			rq->cpu_loads = &s->load_store[(size_t)cpu * (size_t)s->ncpus];
	}
	if (sd_sched_init(s, err) || sd_build_domains(s, err)) {
		sd_free_domains(s);
		free(s->load_store);
		free(s->rqs);
		free(s);
		return NULL;
	}
	sd_balance_init(s);
	sd_memo_init(s);
	sl_set_hz(sim, s->hz);
	sl_set_tick_mode(sim, sl_arch_tick_knob(knobs, sl_arch_tick_26(s->topo->arch)));
	struct sl_timers timers = SL_TIMERS_2_6;
	/* 2.6.12's timespec_to_jiffies divides by TICK_NSEC; w26 keeps the
	 * tick's length, as o1's 2.6.0 (no 2.6.0 tree at hand) */
	if (s->base_2612)
		timers.jiffy_nsec = sl_tick_nsec(sl_arch_clock_tick_rate_2612(s->topo->arch, s->hz),
						 s->hz);
	sl_set_timers_as(sim, timers, sl_param_choice(knobs, "timers"));
	sl_set_pipes(sim, sl_arch_pipes(s->topo->arch, s->v->pipes));
	sl_set_sockets(sim, sl_arch_sockets(s->topo->arch, s->v->sockets, s->v->sockets_lp64));
	sl_set_migration_fifo99(sim, true);
	sl_set_kernel_preempt(sim, sl_arch_preempt_knob(s->topo->arch,
							sl_param_choice(knobs, "preempt")));
	return s;
}

static void domains_destroy(struct sl_sim *sim)
{
	struct sd_sched *s = sl_policy_data(sim);

	sd_free_domains(s);
	free(s->load_store);
	free(s->rqs);
	free(s);
}

/* ---- consistency (tests, --check) ---- */

/*
 * Checked after every event in test builds, so it must stay cheap:
 * O(tasks + CPUs), and find_busiest_group's current memos recomputed
 * (sd_check_memo: O(CPUs x domains x groups)).  Every runnable task sits, properly linked, in an array
 * of its CPU's runqueue; counts add up; what runs is what schedule() chose.
 */
static int domains_check_task(struct sd_sched *s, struct sl_task *t, int *count,
			      struct sl_err *err)
{
	struct sd_task *p = sd_of(t);

	if (t->state != SL_TASK_RUNNABLE) {
		if (p->array)
			return sl_fail_internal(err, "domains: task %d is queued but not "
						"runnable", t->id);
		return 0;
	}
	if (p->cpu < 0 || p->cpu >= s->ncpus)
		return sl_fail_internal(err, "domains: task %d on CPU %d", t->id, p->cpu);
	struct sd_rq *rq = sd_rq(s, p->cpu);
	const struct sl_prio_node *n = &p->run_list;
	if (!p->array || (p->array != rq->active && p->array != rq->expired))
		return sl_fail_internal(err, "domains: runnable task %d is not on the runqueue "
					"of CPU %d", t->id, p->cpu);
	if (n->next->prev != n || n->prev->next != n || n->prio < 0 || n->prio >= SL_MAX_PRIO ||
	    !((p->array->bitmap[n->prio >> 6] >> (n->prio & 63)) & 1))
		return sl_fail_internal(err, "domains: task %d badly linked at prio %d", t->id,
					n->prio);
	if (t->cpu >= 0 && t->cpu != p->cpu)
		return sl_fail_internal(err, "domains: task %d runs on CPU %d but is queued "
					"for CPU %d", t->id, t->cpu, p->cpu);
	/* outside its mask only until the migration thread moves it */
	if (!sl_cpumask_test(&t->allowed, p->cpu) && p->move_rq != p->cpu)
		return sl_fail_internal(err, "domains: task %d queued on CPU %d outside its "
					"affinity", t->id, p->cpu);
	if (p->time_slice <= 0 && t->cpu < 0)
		return sl_fail_internal(err, "domains: queued task %d has slice %d", t->id,
					p->time_slice);
	count[p->cpu]++;
	return 0;
}

static int domains_check(struct sl_sim *sim, struct sl_err *err)
{
	struct sd_sched *s = sl_policy_data(sim);
	int count[SL_MAX_CPUS] = { 0 };

	for (struct sl_task *t = sl_task_first(sim); t; t = sl_task_next(t))
		if (domains_check_task(s, t, count, err))
			return -1;
	for (int cpu = 0; cpu < s->ncpus; cpu++) {
		struct sd_rq *rq = sd_rq(s, cpu);
		int a = rq->active->nr_active, e = rq->expired->nr_active;
		if (a + e != rq->nr_running || count[cpu] != rq->nr_running)
			return sl_fail_internal(err, "domains: runqueue of CPU %d: %d active + %d "
						"expired, %d tasks, nr_running %d", cpu, a, e,
						count[cpu], rq->nr_running);
		struct sl_task *t = sl_curr(sim, cpu);
		if (t && t != rq->curr)
			return sl_fail_internal(err, "domains: CPU %d runs task %d, schedule() "
						"chose %d", cpu, t->id,
						rq->curr ? rq->curr->id : -1);
	}
	if (sd_check_due(s, err))
		return -1;
	return sd_check_memo(sim, s, err);
}

const struct sl_policy_ops sl_policy_domains = {
	.name = "domains",
	.summary = "Nick Piggin's scheduler domains (2.6.12, w26): topology-built balancing "
		   "with cpu_power / SD_FLAG_IDLE",
	.knobs = domains_knobs,
	.task_size = sizeof(struct sd_task),
	.sched_policies = (1u << SL_SCHED_FIFO) | (1u << SL_SCHED_RR),
	.init = domains_init,
	.destroy = domains_destroy,
	.fork = sd_fork,
	.wakeup = sd_wakeup,
	.pick_next = sd_pick_next,
	.tick = sd_tick,
	.ticks_skipped = sd_ticks_skipped,
	.exec = sd_exec,
	.yield = sd_yield,
	.exit = sd_exit,
	.release = sd_release,
	.migration = sd_migration,
	.setscheduler = sd_setscheduler,
	.set_allowed = sd_set_allowed,
	.check = domains_check,
};
