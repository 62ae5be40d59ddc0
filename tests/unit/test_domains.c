/*
 * test_domains.c - scenario tests that pin the decisions of Nick Piggin's
 * scheduler domains on tiny machines, against 2.6.12.1 kernel/sched.c
 * and, for w26, the sched-domains code before Nick's Feb 2004 "lessidle"
 * patch: the domain hierarchy built per topology, cpu_power and the level
 * rows; find_busiest_group's arithmetic of both versions on set runqueue
 * loads; the failure counter; two hogs on a 2x2 HT box spread to two
 * packages by 2.6.12's cpu_power and active balancing but not by w26's
 * (its push cannot take a cache-hot task); a lone task is not bounced;
 * newly-idle pulls; child-runs-first; wake_idle to an idle sibling and, in
 * 2.6.12 only, to an idle package; 2.6.12's timeslices, best_expired_prio
 * and run-time charging; dependent_sleeper holding a nice 19 task back
 * beside a nice 0 one, and the idle tick that wakes it; exec balancing to
 * an idle package; kernbench under invariant checks on several machines;
 * the knobs.
 *
 * The policy is referenced directly (&sl_policy_domains) with its knobs
 * bound by sl_spec_bind, independent of the policy registry.  Every run has
 * the engine's invariant checks on, which also run the policy's check op.
 */
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "base/spec.h"
#include "bounds.h"
#include "checked_run.h"
#include "hw/machine.h"
#include "policy/domains/domains.h"
#include "report/run.h"
#include "sim/sim.h"
#include "test.h"

/* ---- a scripted program: do acts[] in order, note when and where ---- */

#define SDT_MAX_ACTS 16

struct sdt_script {
	int n, pc;
	struct sl_action acts[SDT_MAX_ACTS];
	sl_time at[SDT_MAX_ACTS + 1];	/* when act i was asked for */
	int cpu[SDT_MAX_ACTS + 1];	/* on which CPU */
	int64_t sleep_avg[SDT_MAX_ACTS + 1];	/* and its sleep_avg then, ns */
	bool pin;			/* pin itself to its CPU at step pin_step */
	int pin_step;
};

static void sdt_step(struct sl_sim *sim, struct sl_task *t, struct sl_action *next)
{
	struct sdt_script *s = t->prog_state;

	if (s->pc == s->pin_step && s->pin) {
		sl_cpumask_clear(&t->allowed);
		sl_cpumask_set(&t->allowed, t->cpu);
	}
	s->at[s->pc] = sl_now(sim);
	s->cpu[s->pc] = t->cpu;
	s->sleep_avg[s->pc] = sd_of(t)->sleep_avg;
	*next = s->pc < s->n ? s->acts[s->pc++] : sl_act_exit();
}

static const struct sl_prog sdt_prog = { .name = "sdt", .step = sdt_step };

static struct sdt_script *sdt_new(struct sl_sim *sim)
{
	return sl_sim_alloc(sim, sizeof(struct sdt_script));
}

static void sdt_add(struct sdt_script *s, struct sl_action a)
{
	if (s->n < SDT_MAX_ACTS)
		s->acts[s->n++] = a;
}

static void sdt_fork(struct sdt_script *s, struct sdt_script *child, const char *comm,
		     bool thread, int nice)
{
	sdt_add(s, (struct sl_action){ .kind = SL_ACT_FORK,
		.u.fork = { .prog = &sdt_prog, .state = child, .comm = comm, .thread = thread,
			    .set_nice = nice != 0, .nice = nice } });
}

static struct sdt_script *sdt_hog(struct sl_sim *sim, double ms, bool pin)
{
	struct sdt_script *s = sdt_new(sim);
	sdt_add(s, sl_act_run(ms * SL_MSEC, SL_WC_INT));
	s->pin = pin;
	return s;
}

/* A mask of `cpu` alone, living as long as the run. */
static sl_cpumask *sdt_cpu_mask(struct sl_sim *sim, int cpu)
{
	sl_cpumask *m = sl_sim_alloc(sim, sizeof(*m));
	sl_cpumask_clear(m);
	sl_cpumask_set(m, cpu);
	return m;
}

struct sdt_run {
	struct sl_machine machine;
	struct sl_params knobs;
	struct sl_sim *sim;
	struct sl_err err;
};

static int sdt_bind(struct sl_params *p, const char *text, struct sl_err *err)
{
	static const char *const extra[] = { "label", NULL };
	struct sl_spec spec;

	*err = (struct sl_err){ 0 };
	if (sl_spec_parse(&spec, text, "policy", err))
		return -1;
	if (strcmp(spec.name, "domains"))
		return sl_fail(err, "policy '%s': not domains", spec.name);
	return sl_spec_bind(p, &spec, sl_policy_domains.knobs, extra, "policy 'domains'", err);
}

static bool sdt_start_obs(struct sdt_run *r, const char *machine, const char *policy,
			  sl_time limit, const struct sl_observer *obs)
{
	memset(r, 0, sizeof(*r));
	if (sl_machine_load(&r->machine, machine, &r->err) || sdt_bind(&r->knobs, policy, &r->err)) {
		fprintf(stderr, "sdt_start: %s\n", r->err.msg);
		return false;
	}
	struct sl_sim_config cfg = {
		.machine = &r->machine, .policy = &sl_policy_domains, .knobs = &r->knobs,
		.seed = 11, .time_limit = limit, .check = true, .observer = obs,
	};
	r->sim = sl_sim_create(&cfg, &r->err);
	if (!r->sim)
		fprintf(stderr, "sdt_start: %s\n", r->err.msg);
	return r->sim != NULL;
}

static bool sdt_start(struct sdt_run *r, const char *machine, const char *policy, sl_time limit)
{
	return sdt_start_obs(r, machine, policy, limit, NULL);
}

static bool sdt_run(struct sdt_run *r)
{
	if (sl_sim_run(r->sim, &r->err) == 0)
		return true;
	fprintf(stderr, "sdt_run: %s\n", r->err.msg);
	return false;
}

static struct sl_task *sdt_find(struct sl_sim *sim, const char *comm)
{
	for (struct sl_task *t = sl_task_first(sim); t; t = sl_task_next(t))
		if (!strcmp(t->comm, comm))
			return t;
	return NULL;
}

/* 1 if tasks x and y both run, on one package; 0 if on two; -1 else. */
static int sdt_share_package(struct sl_sim *sim, const char *x, const char *y)
{
	const struct sl_topo *topo = sl_topo(sim);
	struct sl_task *a = sdt_find(sim, x), *b = sdt_find(sim, y);

	if (!a || !b || a->cpu < 0 || b->cpu < 0)
		return -1;
	return topo->cpu_package[a->cpu] == topo->cpu_package[b->cpu];
}

static sl_time sdt_kthread_ns(struct sl_sim *sim)
{
	sl_time kt = 0;

	for (int c = 0; c < sl_topo(sim)->ncpus; c++)
		kt += sl_sim_cpu_stats(sim, c)->kthread_ns;
	return kt;
}

/* ---- knobs ---- */

/* Bind and create on a 2x2 HT box: 0, or -1 with err (bind or init). */
static int sdt_try(const char *text, struct sl_err *err)
{
	struct sl_machine m;
	struct sl_params p;

	if (sdt_bind(&p, text, err))
		return -1;
	if (sl_machine_load(&m, "pack:2 core:1 pu:2", err))
		return -1;
	struct sl_sim_config cfg = { .machine = &m, .policy = &sl_policy_domains, .knobs = &p };
	struct sl_sim *sim = sl_sim_create(&cfg, err);
	if (!sim)
		return -1;
	sl_sim_destroy(sim);
	return 0;
}

SL_TEST(domains_knobs)
{
	struct sl_err err;

	CHECK(sdt_try("domains", &err) == 0);
	CHECK(sdt_try("domains:version=2.6.12,hz=1000,scan_ns=0,smt_nice=off,per_cpu_gain=15,"
		      "smt_cache_hot_ms=1,smt_busy_factor=64,label=x", &err) == 0);
	CHECK(sdt_try("domains:version=w26,idle_level=smt,smt_nice=on", &err) == 0);
	/* w26's rounding to nearest made the inferred guard unnecessary */
	CHECK(sdt_try("domains:version=w26,w26_active_guard=on", &err) == -1 &&
	      err.kind == SL_ERR_INPUT && strstr(err.msg, "w26_active_guard"));
	CHECK(sdt_try("domains:version=w27", &err) == -1 && err.kind == SL_ERR_INPUT &&
	      strstr(err.msg, "version"));
	CHECK(sdt_try("domains:smt_nice=yes", &err) == -1 && err.kind == SL_ERR_INPUT);
	CHECK(sdt_try("domains:per_cpu_gain=101", &err) == -1 && err.kind == SL_ERR_INPUT &&
	      strstr(err.msg, "per_cpu_gain"));
	CHECK(sdt_try("domains:smt_cache_hot_ms=-1", &err) == -1 && err.kind == SL_ERR_INPUT);
	CHECK(sdt_try("domains:smt_cache_hot_ms=0.5", &err) == -1 && err.kind == SL_ERR_INPUT);
	CHECK(sdt_try("domains:smt_busy_factor=0", &err) == -1 && err.kind == SL_ERR_INPUT);
	CHECK(sdt_try("domains:hz=1e3", &err) == -1 && err.kind == SL_ERR_INPUT);
	CHECK(sdt_try("domains:idle_level=node", &err) == -1 && err.kind == SL_ERR_INPUT);
	CHECK(sdt_try("domains:siblings=2", &err) == -1 && err.kind == SL_ERR_INPUT &&
	      strstr(err.msg, "siblings"));
	/* w26-only knobs with 2.6.12: rejected when the run is created */
	CHECK(sdt_try("domains:idle_level=phys", &err) == -1 && err.kind == SL_ERR_INPUT &&
	      strstr(err.msg, "idle_level") && strstr(err.msg, "w26"));
	for (const struct sl_param_def *d = sl_policy_domains.knobs; d->name; d++)
		CHECK(d->doc && d->doc[0] && (d->def || strstr(d->doc, "default")));
}

/* ---- the hierarchy ---- */

static struct sd_sched *sdt_sched(struct sdt_run *r)
{
	return sl_policy_data(r->sim);
}

/* Levels of `cpu`'s domains, bottom-up, as a string like "SP". */
static void sdt_levels(const struct sd_sched *s, int cpu, char *out)
{
	static const char name[SD_NR_LEVELS] = { 'S', 'P', 'N' };
	int n = 0;

	for (const struct sd_domain *sd = s->rqs[cpu].sd; sd && n < 7; sd = sd->parent)
		out[n++] = name[sd->level];
	out[n] = 0;
}

/* Every CPU's levels are `want` (as sdt_levels spells them). */
static void sdt_check_levels(const struct sd_sched *s, const char *want)
{
	char lv[8];

	for (int cpu = 0; cpu < s->ncpus; cpu++) {
		sdt_levels(s, cpu, lv);
		CHECKF(!strcmp(lv, want), "CPU %d: levels %s, not %s", cpu, lv, want);
	}
}

SL_TEST(domains_hierarchy_2x2_ht)
{
	struct sdt_run r;

	if (!sdt_start(&r, "pack:2 core:1 pu:2", "domains", 0))
		return;
	struct sd_sched *s = sdt_sched(&r);
	sdt_check_levels(s, "SP");
	const struct sd_domain *smt = s->rqs[2].sd, *phys = smt->parent;
	CHECK(smt->ngroups == 2 && sl_cpumask_weight(&smt->span) == 2 &&
	      sl_cpumask_test(&smt->span, 2) && sl_cpumask_test(&smt->span, 3));
	CHECK(smt->groups[0].cpu_power == 128 && smt->groups[1].cpu_power == 128);
	CHECK(sl_cpumask_test(&sd_group_at(smt, 0)->cpumask, 2));	/* own group first */
	CHECK(phys->ngroups == 2 && sl_cpumask_weight(&phys->span) == 4);
	/* one HT package = 1.1 CPUs: 128 + 128/10 */
	CHECK(phys->groups[0].cpu_power == 140 && phys->groups[1].cpu_power == 140);
	CHECK(sl_cpumask_test(&sd_group_at(phys, 0)->cpumask, 2) &&
	      sl_cpumask_test(&sd_group_at(phys, 1)->cpumask, 0));
	CHECK(smt->child == NULL && phys->child == smt && phys->parent == NULL);
	/* the 2.6.12 table (2.6.12.1 include/linux/topology.h) */
	CHECK(smt->p.busy_factor == 8 && smt->p.imbalance_pct == 110 && smt->p.per_cpu_gain == 25 &&
	      (smt->p.flags & SD_SHARE_CPUPOWER) && !(smt->p.flags & SD_WAKE_BALANCE));
	CHECK(phys->p.busy_factor == 64 && phys->p.imbalance_pct == 125 &&
	      phys->p.cache_hot_time == 2500 * SL_USEC && phys->p.cache_nice_tries == 1 &&
	      (phys->p.flags & SD_WAKE_BALANCE) && !(phys->p.flags & SD_SHARE_CPUPOWER));
	/* CPUs of a span share its groups */
	CHECK(s->rqs[0].sd->parent->groups == phys->groups && s->rqs[0].sd->groups != smt->groups);
	sl_sim_destroy(r.sim);
}

/* dependent_sleeper, wake_sleeping_dependent and wake_priority_sleeper are
 * CONFIG_SCHED_SMT's (2.6.12.1 kernel/sched.c), which ia64's defconfig
 * leaves out: smt_nice defaults off there, as wake_idle does. */
SL_TEST(domains_smt_nice_follows_config_sched_smt)
{
	static const struct { const char *machine, *policy; bool on; } want[] = {
		{ "pack:2 core:1 pu:2", "domains", true },
		{ "pack:2 core:1 pu:2,arch=x86_64", "domains", true },
		{ "pack:2 core:1 pu:2,arch=ia64", "domains", false },
		{ "pack:2 core:1 pu:2,arch=ia64", "domains:smt_nice=on", true },
		{ "pack:2 core:1 pu:2", "domains:version=w26", false },
	};
	for (size_t i = 0; i < sizeof(want) / sizeof(want[0]); i++) {
		struct sdt_run r;
		if (!sdt_start(&r, want[i].machine, want[i].policy, 0))
			return;
		CHECKF(sdt_sched(&r)->smt_nice == want[i].on, "%s on %s: smt_nice %d",
		       want[i].policy, want[i].machine, sdt_sched(&r)->smt_nice);
		sl_sim_destroy(r.sim);
	}
}

SL_TEST(domains_hierarchy_numa_and_smp)
{
	struct sdt_run r;

	/* NUMA without SMT: physical (the node's CPUs) + node */
	if (!sdt_start(&r, "node:4 pack:1 core:4 pu:1", "domains", 0))
		return;
	struct sd_sched *s = sdt_sched(&r);
	sdt_check_levels(s, "PN");
	const struct sd_domain *phys = s->rqs[5].sd, *node = phys->parent;
	CHECK(phys->ngroups == 4 && sl_cpumask_weight(&phys->span) == 4 &&
	      sl_cpumask_test(&phys->span, 4) && sl_cpumask_test(&phys->span, 7));
	CHECK(phys->groups[0].cpu_power == 128 && phys->groups[0].ncpus == 1);
	CHECK(node->ngroups == 4 && sl_cpumask_weight(&node->span) == 16);
	CHECK(node->groups[0].cpu_power == 4 * 128 && node->groups[3].ncpus == 4);
	CHECK(sl_cpumask_test(&sd_group_at(node, 0)->cpumask, 5) &&
	      sl_cpumask_test(&sd_group_at(node, 3)->cpumask, 0));
	CHECK(node->p.min_interval == 8 && node->p.busy_factor == 32 &&
	      node->p.cache_hot_time == 10 * SL_MSEC && !(node->p.flags & SD_WAKE_AFFINE));
	sl_sim_destroy(r.sim);

	/* an ia64 kernel's node level (2.6.12.1 asm-ia64/topology.h): 80-320
	 * ms, x320, at 1024 Hz; w26 keeps its own */
	if (!sdt_start(&r, "azusa-16", "domains", 0))
		return;
	s = sdt_sched(&r);
	node = s->rqs[5].sd->parent;
	CHECK(node && node->p.min_interval == 80 && node->p.max_interval == 320 &&
	      node->p.busy_factor == 320 && node->p.cache_hot_time == 10 * SL_MSEC &&
	      s->hz == 1024);
	sl_sim_destroy(r.sim);
	if (!sdt_start(&r, "azusa-16", "domains:version=w26", 0))
		return;
	s = sdt_sched(&r);
	node = s->rqs[5].sd->parent;
	CHECK(node && node->p.min_interval == 20 && node->p.busy_factor == 4);
	sl_sim_destroy(r.sim);

	/* a plain SMP box: one physical level over every CPU */
	if (!sdt_start(&r, "pack:2 core:2 pu:1", "domains:version=w26", 0))
		return;
	s = sdt_sched(&r);
	sdt_check_levels(s, "P");
	CHECK(s->rqs[1].sd->ngroups == 4 && s->rqs[1].sd->groups[1].ncpus == 1);
	/* w26 puts SD_FLAG_IDLE on the package level only with SMT */
	CHECK(!(s->rqs[1].sd->p.flags & SD_FLAG_IDLE));
	sl_sim_destroy(r.sim);

	/* dual-core HT packages: cores are the physical level's groups */
	if (!sdt_start(&r, "pack:2 core:2 pu:2", "domains:version=w26", 0))
		return;
	s = sdt_sched(&r);
	sdt_check_levels(s, "SP");
	CHECK(s->rqs[5].sd->parent->ngroups == 4);
	CHECK((s->rqs[5].sd->parent->p.flags & SD_FLAG_IDLE) &&
	      !(s->rqs[5].sd->p.flags & SD_FLAG_IDLE));
	sl_sim_destroy(r.sim);

	/* one CPU: 2.6.12 still builds its physical level, one group of one
	 * CPU (arch_init_sched_domains), and it still runs */
	if (!sdt_start(&r, "pack:1 core:1 pu:1", "domains", 0))
		return;
	s = sdt_sched(&r);
	CHECK(s->rqs[0].sd && s->rqs[0].sd->level == SD_LV_PHYS && s->rqs[0].sd->ngroups == 1 &&
	      !s->rqs[0].sd->parent);
	struct sdt_script *root = sdt_new(r.sim);
	sdt_fork(root, sdt_hog(r.sim, 30, false), "a", false, 0);
	sdt_add(root, sl_act_run(20 * SL_MSEC, SL_WC_INT));
	sdt_add(root, sl_act_wait());
	sl_sim_spawn_root(r.sim, &sdt_prog, root, "root");
	CHECK(sdt_run(&r));
	sl_sim_destroy(r.sim);
}

/* 2.6.12 builds its levels whether or not they have two groups
 * (arch_init_sched_domains): the physical level always, the sibling level
 * with CONFIG_SCHED_SMT, the node level with CONFIG_NUMA.  A one-package HT
 * box keeps a physical level of one group, its highest SD_BALANCE_EXEC
 * domain (sched_exec's imbalance_pct 125, not the siblings' 110); w26
 * leaves such a level out, and neither gives a machine without SMT a
 * sibling level. */
SL_TEST(domains_2612_builds_levels_of_one_group)
{
	struct sdt_run r;

	if (!sdt_start(&r, "pack:1 core:1 pu:2", "domains", 0))
		return;
	struct sd_sched *s = sdt_sched(&r);
	sdt_check_levels(s, "SP");
	const struct sd_domain *phys = s->rqs[1].sd->parent;
	CHECK(phys && phys->ngroups == 1 && sl_cpumask_weight(&phys->span) == 2 &&
	      phys->groups[0].cpu_power == 140 && phys->p.imbalance_pct == 125 &&
	      (phys->p.flags & SD_BALANCE_EXEC));
	sl_sim_destroy(r.sim);

	if (!sdt_start(&r, "pack:1 core:1 pu:2", "domains:version=w26", 0))
		return;
	s = sdt_sched(&r);
	sdt_check_levels(s, "S");
	sl_sim_destroy(r.sim);

	/* NUMA with one core per node: a physical level of one group under
	 * each node level; no sibling level without SMT */
	if (!sdt_start(&r, "node:2 pack:1 core:1 pu:1", "domains", 0))
		return;
	s = sdt_sched(&r);
	sdt_check_levels(s, "PN");
	CHECK(s->rqs[1].sd->ngroups == 1 && s->rqs[1].sd->parent->ngroups == 2);
	sl_sim_destroy(r.sim);
}

/*
 * What the set-up keeps for the hot walks: each linked domain's groups know
 * their first CPU and last + 1 and whether they hold every CPU between
 * (the bounded walks over their CPUs), and
 * their running sums as each group's CPUs say (sd_memo_init sets them once
 * per group of the store, not once per CPU sharing the group); each CPU
 * knows the bounds of its SMT siblings.  Both versions, SMT and NUMA.
 */
SL_TEST(domains_group_bounds_and_sums)
{
	static const char *const machines[] = { "pack:2 core:2 pu:2", "numa:2 pack:1 core:4 pu:2",
						"node:2 pack:1 core:1 pu:1", "p4dpe-2x2ht", "xeon-2s-smt" };
	static const char *const policies[] = { "domains", "domains:version=w26" };
	int sparse = 0;

	for (int m = 0; m < 5; m++)
		for (int v = 0; v < 2; v++) {
			struct sdt_run r;
			if (!sdt_start(&r, machines[m], policies[v], 0))
				return;
			struct sd_sched *s = sdt_sched(&r);
			const struct sl_topo *t = s->topo;
			for (int cpu = 0; cpu < s->ncpus; cpu++) {
				const sl_cpumask *sib = sl_topo_siblings(t, cpu);
				int lo = sl_cpumask_first(sib), hi = -1;
				sl_for_each_cpu(c, sib)
					hi = c;
				CHECKF(s->sib_first[cpu] == lo && s->sib_end[cpu] == hi + 1,
				       "%s %s CPU %d: siblings %d..%d kept as %d..%d", machines[m],
				       policies[v], cpu, lo, hi, s->sib_first[cpu],
				       s->sib_end[cpu] - 1);
				sd_for_each_domain(s, cpu, sd)
					for (int k = 0; k < sd->ngroups; k++) {
						const struct sd_group *g = &sd->groups[k];
						int first = sl_cpumask_first(&g->cpumask), last = -1;
						sl_for_each_cpu(c, &g->cpumask)
							last = c;
						int core = -1, node = -1;
						if (sl_cpumask_equal(&g->cpumask,
								     sl_topo_siblings(t, first)))
							core = t->cpu_core[first];
						else if (sl_cpumask_equal(&g->cpumask,
									  &t->node_cpus[t->cpu_node[first]]))
							node = t->cpu_node[first];
						bool dense = g->ncpus == last + 1 - first;
						sparse += !dense;
						CHECKF(g->first == first && g->end == last + 1 &&
						       g->dense == dense &&
						       g->sum_core == core && g->sum_node == node,
						       "%s %s CPU %d level %d group %d: CPUs %d..%d, "
						       "sums %d / %d; kept %d..%d, %d / %d",
						       machines[m], policies[v], cpu, sd->level, k, first,
						       last, core, node, g->first, g->end - 1,
						       g->sum_core, g->sum_node);
					}
			}
			sl_sim_destroy(r.sim);
		}
	/* some group of these has a gap in its CPUs: the walk that looks at
	 * the cpumask is covered too */
	CHECKF(sparse > 0, "no group with a gap in its CPUs");
}

/* ---- find_busiest_group on set runqueue states ---- */

struct sdt_fbg_case {
	int nr[4];			/* tasks counted on CPUs 0-3 */
	unsigned long load[4];		/* their decayed cpu_load */
	bool smt;			/* ask the sibling level, not the package one */
	int power_busy, power_this;	/* package level cpu_power overrides, or 0 */
};

/*
 * `policy` on a 2x2 HT box, not run: CPU i gets c->nr[i] tasks counted and
 * a decayed cpu_load of c->load[i] (source/target_load clip it by nr * 128;
 * w26's per-balancer memories all hold it).  CPU 2's package (or sibling)
 * domain is asked for its busiest group: the imbalance in tasks, 0 when it
 * finds none.
 */
static long sdt_fbg(const char *policy, const struct sdt_fbg_case *c, enum sd_idle idle)
{
	struct sdt_run r;
	unsigned long imb = 99;

	if (!sdt_start(&r, "pack:2 core:1 pu:2", policy, 0))
		return -1;
	struct sd_sched *s = sl_policy_data(r.sim);
	for (int i = 0; i < 4; i++) {
		s->rqs[i].nr_running = c->nr[i];
		s->rqs[i].cpu_load = c->load[i];
		if (s->rqs[i].cpu_loads)
			for (int j = 0; j < 4; j++)
				s->rqs[j].cpu_loads[i] = c->load[i];
		sd_load_changed(s, i);	/* the running load sums follow */
	}
	struct sd_domain *sd = c->smt ? s->rqs[2].sd : s->rqs[2].sd->parent;
	if (c->power_busy)
		sd_group_at(sd, 1)->cpu_power = c->power_busy;
	if (c->power_this)
		sd_group_at(sd, 0)->cpu_power = c->power_this;
	struct sd_group *g = sd_find_busiest_group(r.sim, s, sd, 2, idle, &imb);
	if (!g)
		imb = 0;
	for (int i = 0; i < 4; i++)
		s->rqs[i].nr_running = 0;	/* the arithmetic only: no task to run */
	sl_sim_destroy(r.sim);
	return (long)imb;
}

SL_TEST(domains_2612_find_busiest_group)
{
	/*
	 * 2.6.12.1 kernel/sched.c find_busiest_group(), with Nick Piggin's
	 * Feb 2005 changes to 2.6.11's (each case gives 2.6.11's answer too).
	 * Loads are per 128 of group power; an HT package is 140.
	 */
	static const struct {
		struct sdt_fbg_case c;
		long want;
		const char *what;
	} cases[] = {
		/* 2+2 tasks against none: 468 vs 0, average 234; 234 * 140 / 128
		 * = 255 rounds down to one task (2.6.11 added 1 first: two) */
		{ { { 2, 2, 0, 0 }, { 256, 256, 0, 0 }, false, 0, 0 }, 1, "final division" },
		/* 150 of decayed load against none (137 vs 0): below a task, but
		 * moving one raises the power in use from 140 to 149 per 128: any
		 * gain moves (2.6.11 wanted an 8th of a CPU more: 0) */
		{ { { 2, 0, 0, 0 }, { 150, 0, 0, 0 }, false, 0, 0 }, 1, "any gain" },
		/* a busiest group of power 256 with 4+4 tasks (512) against ours
		 * of 140 with none, average 331: min(181 * 256, 331 * 140) / 128 =
		 * 362, two tasks (2.6.11: min(181, 331) * 140 / 128 = 197, one) */
		{ { { 4, 4, 0, 0 }, { 512, 512, 0, 0 }, false, 256, 0 }, 2, "weighted gaps" },
		/* ours of power 256 idle, busiest of 140 with decayed load 100
		 * (91): the load we'd add is 91 * 140 / 256 = 49 of ours, so the
		 * power in use would fall from 99 to 98: balanced (2.6.11 added
		 * min(91, 64) = 64 of ours: 128, and moved) */
		{ { { 1, 0, 0, 0 }, { 100, 0, 0, 0 }, false, 140, 256 }, 0, "load we'd add" },
		/* siblings: 383 against our 128, average 255, gap 127: below a
		 * task (2.6.11's threshold was 127: one task), and moving one
		 * gains nothing (256 either way): balanced */
		{ { { 0, 0, 1, 3 }, { 0, 0, 128, 383 }, true, 0, 0 }, 0, "below a task" },
	};

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		long imb = sdt_fbg("domains", &cases[i].c, SD_NOT_IDLE);
		CHECKF(imb == cases[i].want, "%s: imbalance %ld, want %ld", cases[i].what, imb,
		       cases[i].want);
	}
}

SL_TEST(domains_balanced_keeps_failures)
{
	struct sdt_run r;

	/*
	 * 2.6.12.1 kernel/sched.c load_balance(): a balanced look doubles the
	 * interval and leaves nr_balance_failed as it was; only a move resets
	 * it.  Every runqueue empty, CPU 2's domains due: both balanced.
	 */
	static const char *const policies[] = { "domains", "domains:version=w26" };
	for (int v = 0; v < 2; v++) {
		if (!sdt_start(&r, "pack:2 core:1 pu:2", policies[v], 0))
			return;
		struct sd_sched *s = sl_policy_data(r.sim);
		sd_for_each_domain(s, 2, sd) {
			sd->nr_balance_failed = 2;
			sd->balance_interval = 1;
			sd->last_balance = -100000;
			sd_balance_changed(s, 2);
		}
		sd_rebalance_tick(r.sim, s, 2, SD_IDLE);
		sd_for_each_domain(s, 2, sd)
			CHECKF(sd->nr_balance_failed == 2 && sd->balance_interval == 2,
			       "%s level %d: failed %d, interval %d", policies[v], sd->level,
			       sd->nr_balance_failed, sd->balance_interval);
		sl_sim_destroy(r.sim);
	}
}

/* ---- two hogs on a 2x2 HT box ---- */

struct sdt_hogs {
	int shared;		/* at the end: 1 one package, 0 two, -1 not both running */
	int shared_early;	/* the same, at `early` ms */
	sl_time kthread;
	long migrations;
};

static void sdt_two_hogs(const char *policy, double early_ms, double ms, struct sdt_hogs *out)
{
	struct sdt_run r;

	out->shared = out->shared_early = -2;
	if (!sdt_start(&r, "pack:2 core:1 pu:2", policy, (sl_time)(early_ms * SL_MSEC)))
		return;
	/* threads: 2.6.12 queues them behind the root (no child-runs-first),
	 * w26 runs each first; either way both start on package 0 */
	struct sdt_script *root = sdt_new(r.sim);
	sdt_fork(root, sdt_hog(r.sim, 5000, false), "a", true, 0);
	sdt_fork(root, sdt_hog(r.sim, 5000, false), "b", true, 0);
	sdt_add(root, sl_act_wait());
	sdt_add(root, sl_act_wait());
	sl_sim_spawn_root(r.sim, &sdt_prog, root, "root");
	if (sdt_run(&r)) {
		out->shared_early = sdt_share_package(r.sim, "a", "b");
		sl_sim_set_time_limit(r.sim, (sl_time)(ms * SL_MSEC));
		if (sdt_run(&r)) {
			struct sl_run_stats st;
			out->shared = sdt_share_package(r.sim, "a", "b");
			out->kthread = sdt_kthread_ns(r.sim);
			sl_sim_stats(r.sim, &st);
			out->migrations = st.migrations;
		}
	}
	sl_sim_destroy(r.sim);
}

SL_TEST(domains_2612_spreads_two_hogs)
{
	struct sdt_hogs h;

	/*
	 * Both start on package 0 (fork keeps children on the parent's CPU;
	 * the idle sibling pulls one: with ordered ticks it pulls first, under
	 * the default race an idle CPU of package 1 may).  1,1 vs 0,0 is an
	 * imbalance of one task through cpu_power (234 vs 0 against an
	 * average of 117); the pull fails on running tasks, and after
	 * cache_nice_tries + 2 failures the busiest CPU's migration thread
	 * pushes its task to the idle package.
	 */
	sdt_two_hogs("domains:tick=ordered", 30, 2000, &h);
	CHECKF(h.shared_early == 0, "after 30 ms: shared=%d", h.shared_early);
	CHECKF(h.shared == 0 && h.kthread > 0, "after 2 s: shared=%d kthread=%lld ns",
	       h.shared, (long long)h.kthread);
	/* and it stays: no ping-pong */
	CHECKF(h.migrations <= 6, "%ld migrations", h.migrations);
}

SL_TEST(domains_w26_keeps_two_hogs_on_a_package)
{
	struct sdt_hogs h;

	/*
	 * SD_FLAG_IDLE on the package level: summed loads 2 vs 0 are an
	 * imbalance, the pulls fail on running tasks, and after more than
	 * cache_nice_tries (2) failures every CPU of the busiest package is
	 * asked to push.  But the push goes through can_migrate_task as an
	 * IDLE balance of the busiest CPU's own package domain, which has not
	 * failed: the task its migration thread just preempted is cache-hot
	 * (5 ms), and before the 2.6.8-era "whole package idle" override
	 * nothing lets it go.  The migration threads run for nothing and the
	 * hogs stay on one package (2.6.12 spreads them).
	 */
	sdt_two_hogs("domains:version=w26", 30, 2000, &h);
	CHECKF(h.shared == 1 && h.kthread > 0, "after 2 s: shared=%d kthread=%lld ns",
	       h.shared, (long long)h.kthread);
	/* with the flag on the sibling domain the package level averages per
	 * CPU and never balances actively: 1,1,0,0 stays */
	sdt_two_hogs("domains:version=w26,idle_level=smt", 30, 2000, &h);
	CHECKF(h.shared == 1 && h.kthread == 0, "idle_level=smt: shared=%d kthread=%lld ns",
	       h.shared, (long long)h.kthread);
}

/* n hogs forked as threads on a 2x2 HT box, 500 ms: how often did the
 * first move, and how long did migration threads run? */
static long sdt_hogs_migrations(const char *policy, int n, sl_time *kthread)
{
	static const char *const names[4] = { "h0", "h1", "h2", "h3" };
	struct sdt_run r;
	long moved = -1;

	if (!sdt_start(&r, "pack:2 core:1 pu:2", policy, 500 * SL_MSEC))
		return -1;
	struct sdt_script *root = sdt_new(r.sim);
	for (int i = 0; i < n && i < 4; i++)
		sdt_fork(root, sdt_hog(r.sim, 5000, false), names[i], true, 0);
	for (int i = 0; i < n && i < 4; i++)
		sdt_add(root, sl_act_wait());
	sl_sim_spawn_root(r.sim, &sdt_prog, root, "root");
	if (sdt_run(&r)) {
		struct sl_task *h = sdt_find(r.sim, "h0");
		moved = h ? h->nmigrations : -1;
		*kthread = sdt_kthread_ns(r.sim);
	}
	sl_sim_destroy(r.sim);
	return moved;
}

SL_TEST(domains_w26_find_busiest_group)
{
	/*
	 * w26 before the Feb 2004 lessidle patch: (min(gaps) + 1) / 2 rounded
	 * to the nearest task, times the smaller group's CPU count; no
	 * newly-idle grab.  Packages with SD_FLAG_IDLE sum their loads.
	 */
	static const struct {
		struct sdt_fbg_case c;
		enum sd_idle idle;
		long want;
		const char *what;
	} cases[] = {
		/* a lone task: 128 vs 0, gaps 64, (64 + 1) / 2 = 32: none */
		{ { { 1, 0, 0, 0 }, { 128, 128, 0, 0 }, false, 0, 0 }, SD_NOT_IDLE, 0, "lone task" },
		{ { { 1, 0, 0, 0 }, { 128, 128, 0, 0 }, false, 0, 0 }, SD_NEWLY_IDLE, 0,
		  "lone task, newly idle" },
		/* 2 vs 1: 256 vs 128, gap 64: none */
		{ { { 1, 1, 1, 0 }, { 128, 128, 128, 0 }, false, 0, 0 }, SD_NOT_IDLE, 0, "2 vs 1" },
		/* 2 vs 0: gap 128, 64 rounds to one task, times 2 CPUs */
		{ { { 1, 1, 0, 0 }, { 128, 128, 0, 0 }, false, 0, 0 }, SD_IDLE, 2, "2 vs 0" },
	};

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		long imb = sdt_fbg("domains:version=w26", &cases[i].c, cases[i].idle);
		CHECKF(imb == cases[i].want, "%s: imbalance %ld, want %ld", cases[i].what, imb,
		       cases[i].want);
	}
}

SL_TEST(domains_w26_lone_task_stays)
{
	sl_time kt = -1;

	/* a lone task is no imbalance: it is not bounced between packages */
	long n = sdt_hogs_migrations("domains:version=w26", 1, &kt);
	CHECKF(n >= 0 && n <= 2 && kt == 0, "w26: lone hog moved %ld times", n);
	n = sdt_hogs_migrations("domains", 1, &kt);
	CHECKF(n >= 0 && n <= 2 && kt == 0, "2.6.12: lone hog moved %ld times", n);
	/* 2,1 over two packages: no imbalance, so no migration threads */
	n = sdt_hogs_migrations("domains:version=w26", 3, &kt);
	CHECKF(n >= 0 && kt == 0, "w26, 3 hogs: migration threads ran %lld ns", (long long)kt);
}

SL_TEST(domains_w26_levels_stagger_expired)
{
	struct sdt_run r;

	/* SD_CPU_INIT and SD_NODE_INIT before lessidle, on a 16-CPU NUMA-Q */
	if (!sdt_start(&r, "node:4 pack:1 core:4 pu:1", "domains:version=w26", 0))
		return;
	struct sd_sched *s = sl_policy_data(r.sim);
	const struct sd_domain *phys = s->rqs[5].sd, *node = phys->parent;
	CHECKF(phys->p.min_interval == 1 && phys->p.max_interval == 8 &&
	       phys->p.busy_factor == 32 && phys->p.cache_hot_time == 5 * SL_MSEC &&
	       phys->p.cache_nice_tries == 2, "phys: %d/%d x%d hot %lld tries %d",
	       phys->p.min_interval, phys->p.max_interval, phys->p.busy_factor,
	       (long long)phys->p.cache_hot_time, phys->p.cache_nice_tries);
	/* max_interval 1000 ms * fls(16) */
	CHECKF(node->p.min_interval == 20 && node->p.max_interval == 5000 &&
	       node->p.busy_factor == 4 && node->p.cache_hot_time == 5 * SL_MSEC,
	       "node: %d/%d x%d hot %lld", node->p.min_interval, node->p.max_interval,
	       node->p.busy_factor, (long long)node->p.cache_hot_time);
	/* rebalance_tick staggers CPUs by HZ * cpu / NR_CPUS: CPU 5 starts at
	 * 312 jiffies, rounded down to its busy interval (32) */
	CHECKF(phys->last_balance == 288, "CPU 5 phys last_balance %lld",
	       (long long)phys->last_balance);
	sl_sim_destroy(r.sim);

	/* move_tasks takes expired tasks into our expired array */
	if (!sdt_start(&r, "pack:1 core:1 pu:2", "domains:version=w26", 0))
		return;
	s = sl_policy_data(r.sim);
	sl_sim_spawn_root(r.sim, &sdt_prog, sdt_new(r.sim), "runs");
	struct sl_task *t = sl_sim_spawn_root(r.sim, &sdt_prog, sdt_new(r.sim), "queued");
	struct sd_task *p = sd_of(t);
	CHECK(p->cpu == 0 && p->array == s->rqs[0].active && !sl_task_running(t));
	sd_dequeue(p);
	sd_enqueue(s->rqs[0].expired, p);
	int moved = sd_move_tasks(r.sim, s, 1, 0, 1, s->rqs[1].sd, SD_IDLE);
	CHECKF(moved == 1 && p->cpu == 1 && p->array == s->rqs[1].expired,
	       "moved %d, to CPU %d, expired %d", moved, p->cpu, p->array == s->rqs[1].expired);
	sl_sim_destroy(r.sim);
}

/* ---- newly idle ---- */

SL_TEST(domains_newly_idle_pull)
{
	struct sdt_run r;

	/*
	 * One P4 HT.  Threads a, b, c queue behind the root on CPU 0; CPU 1
	 * pulls c (the tail) at a tick.  When c exits between two ticks, CPU 1
	 * goes idle in schedule() and pulls b at once: a newly-idle balance.
	 */
	if (!sdt_start(&r, "pack:1 core:1 pu:2", "domains", 0))
		return;
	struct sdt_script *a = sdt_hog(r.sim, 20, false), *b = sdt_hog(r.sim, 20, false);
	struct sdt_script *c = sdt_hog(r.sim, 3.3, false);
	struct sdt_script *root = sdt_new(r.sim);
	sdt_fork(root, a, "a", true, 0);
	sdt_fork(root, b, "b", true, 0);
	sdt_fork(root, c, "c", true, 0);
	for (int i = 0; i < 3; i++)
		sdt_add(root, sl_act_wait());
	sl_sim_spawn_root(r.sim, &sdt_prog, root, "root");
	if (sdt_run(&r)) {
		sl_time gap = b->at[0] - c->at[1];
		CHECKF(a->cpu[0] == 0 && c->cpu[0] == 1, "a on %d, c on %d", a->cpu[0], c->cpu[0]);
		CHECKF(b->cpu[0] == 1 && gap >= 0 && gap < 100 * SL_USEC &&
		       (c->at[1] % SL_MSEC) > 100 * SL_USEC,
		       "b started on CPU %d %.3f ms after c ended at %.3f ms", b->cpu[0],
		       (double)gap / SL_MSEC, (double)c->at[1] / SL_MSEC);
	}
	sl_sim_destroy(r.sim);
}

/* ---- fork ---- */

/* One CPU: the root forks a child (a thread or a process) and goes on
 * computing.  Did the child take its first step before the root's next? */
static int sdt_child_first(const char *policy, bool thread)
{
	struct sdt_run r;
	int first = -1;

	if (!sdt_start(&r, "pack:1 core:1 pu:2", policy, 0))
		return -1;
	struct sdt_script *c = sdt_hog(r.sim, 1, false);
	struct sdt_script *root = sdt_new(r.sim);
	root->pin = true;	/* keep both on CPU 0: no sibling to run the other */
	c->pin = true;
	sdt_fork(root, c, "c", thread, 0);
	sdt_add(root, sl_act_run(1 * SL_MSEC, SL_WC_INT));
	sdt_add(root, sl_act_wait());
	sl_sim_spawn_root(r.sim, &sdt_prog, root, "root");
	if (sdt_run(&r))
		first = c->at[0] < root->at[2];	/* before the root's 1 ms ended */
	sl_sim_destroy(r.sim);
	return first;
}

SL_TEST(domains_child_runs_first)
{
	/*
	 * 2.6.12.1 wake_up_new_task(): a child that does not share the
	 * parent's mm goes in front of the parent and the parent is marked
	 * need_resched; a thread (CLONE_VM) goes to the tail and runs last.
	 * 2.6.0 (w26): wake_up_forked_process puts every child in front of
	 * the parent and do_fork marks the parent need_resched after it.
	 */
	CHECK(sdt_child_first("domains", false) == 1);
	CHECK(sdt_child_first("domains", true) == 0);
	CHECK(sdt_child_first("domains:version=w26", false) == 1);
	CHECK(sdt_child_first("domains:version=w26", true) == 1);
}

/* ---- wakeups ---- */

/* Where try_to_wake_up queued the task named `comm` (observer callbacks:
 * the wakeup is reported before the policy places the task, a move by the
 * placement as a migration at the same instant). */
struct sdt_watch {
	const char *comm;
	sl_time woken;
	int placed;
};

static void sdt_watch_wakeup(void *ctx, sl_time now, const struct sl_task *t, int waker_cpu)
{
	struct sdt_watch *w = ctx;

	(void)waker_cpu;
	if (!strcmp(t->comm, w->comm)) {
		w->woken = now;
		w->placed = t->last_cpu;
	}
}

static void sdt_watch_migrate(void *ctx, sl_time now, const struct sl_task *t, int from_cpu,
			      int to_cpu)
{
	struct sdt_watch *w = ctx;

	(void)from_cpu;
	if (!strcmp(t->comm, w->comm) && now == w->woken)
		w->placed = to_cpu;
}

/*
 * 2x2 HT.  `s` (on CPU 0) forks `nhogs` threads that pin themselves to
 * the CPU they first run on (with presleep: to the CPU they run on after
 * a 1 ms sleep), sleeps 10 ms while they take CPU 0 (and CPU 1), and
 * wakes: where is it queued, and how late does it run?
 */
static int sdt_woken_cpu(const char *policy, int nhogs, bool presleep, sl_time *late,
			 int *hog_cpu)
{
	struct sdt_run r;
	struct sdt_watch w = { .comm = "s", .woken = -1, .placed = -1 };
	struct sl_observer obs = { .ctx = &w, .sched_wakeup = sdt_watch_wakeup,
				   .sched_migrate = sdt_watch_migrate };
	int cpu = -2;

	if (!sdt_start_obs(&r, "pack:2 core:1 pu:2", policy, 0, &obs))
		return -2;
	struct sdt_script *s = sdt_new(r.sim);
	struct sdt_script *hogs[2];
	for (int i = 0; i < nhogs; i++) {
		if (presleep) {
			/* sleep 1 ms first and pin after: with child-runs-first
			 * the forker goes on at once and stays on CPU 0 */
			hogs[i] = sdt_new(r.sim);
			sdt_add(hogs[i], sl_act_sleep(1 * SL_MSEC));
			sdt_add(hogs[i], sl_act_run(40 * SL_MSEC, SL_WC_INT));
			hogs[i]->pin = true;
			hogs[i]->pin_step = 1;
		} else {
			hogs[i] = sdt_hog(r.sim, 40, true);
		}
		sdt_fork(s, hogs[i], i ? "h1" : "h0", true, 0);
	}
	sdt_add(s, sl_act_sleep(10 * SL_MSEC));
	sdt_add(s, sl_act_run(1 * SL_MSEC, SL_WC_INT));
	struct sdt_script *root = sdt_new(r.sim);
	sdt_fork(root, s, "s", false, 0);
	sdt_add(root, sl_act_wait());
	sl_sim_spawn_root(r.sim, &sdt_prog, root, "root");
	if (sdt_run(&r) && s->cpu[nhogs] == 0) {
		cpu = w.placed;
		*late = s->at[nhogs + 1] - w.woken;
		for (int i = 0; i < nhogs; i++)
			hog_cpu[i] = hogs[i]->cpu[hogs[i]->pin_step];
	}
	sl_sim_destroy(r.sim);
	return cpu;
}

SL_TEST(domains_wake_idle_sibling)
{
	sl_time late = -1;
	int hog[2] = { -1, -1 };

	/* its CPU is busy: the idle sibling takes it at once */
	int cpu = sdt_woken_cpu("domains", 1, false, &late, hog);
	CHECK(hog[0] == 0);
	CHECKF(cpu == 1 && late >= 0 && late < SL_MSEC, "woke on CPU %d, %.3f ms late", cpu,
	       (double)late / SL_MSEC);
	/* w26: sched_balance_wake over the SD_FLAG_WAKE sibling domain (the
	 * hog sleeps first: its parent, preempted by it on the return from
	 * fork, would be pulled to the idle sibling) */
	cpu = sdt_woken_cpu("domains:version=w26", 1, true, &late, hog);
	CHECK(hog[0] == 0);
	CHECKF(cpu == 1 && late >= 0 && late < SL_MSEC, "w26: woke on CPU %d, %.3f ms late",
	       cpu, (double)late / SL_MSEC);
}

SL_TEST(domains_wake_idle_package)
{
	sl_time late = -1;
	int hog[2] = { -1, -1 };

	/* both siblings busy: 2.6.12's physical level has SD_WAKE_IDLE too
	 * (ordered ticks: the sibling, not package 1, pulls the second hog) */
	int cpu = sdt_woken_cpu("domains:tick=ordered", 2, false, &late, hog);
	CHECKF(hog[0] == 0 && hog[1] == 1, "hogs on %d, %d", hog[0], hog[1]);
	CHECKF(cpu == 2 && late >= 0 && late < SL_MSEC, "woke on CPU %d, %.3f ms late", cpu,
	       (double)late / SL_MSEC);
	/* w26 looks only in the base domain: it stays on its busy CPU */
	cpu = sdt_woken_cpu("domains:version=w26", 2, true, &late, hog);
	CHECKF(hog[0] == 0 && hog[1] == 1, "w26: hogs on %d, %d", hog[0], hog[1]);
	CHECKF(cpu == 0, "w26: woke on CPU %d", cpu);
	/* a kernel without CONFIG_SCHED_SMT has no wake_idle: it stays on its
	 * busy CPU until a balancer takes it */
	cpu = sdt_woken_cpu("domains:tick=ordered,wake_idle=off", 2, false, &late, hog);
	CHECKF(hog[0] == 0 && hog[1] == 1, "wake_idle=off: hogs on %d, %d", hog[0], hog[1]);
	CHECKF(cpu == 0, "wake_idle=off: woke on CPU %d", cpu);
}

/* ---- the O(1) base of each version ---- */

SL_TEST(domains_timeslices)
{
	/* 2.6.12.1 task_timeslice(): SCALE_PRIO of DEF_TIMESLICE (100 ms in
	 * mainline), times 4 below nice 0, at least MIN_TIMESLICE (5 ms);
	 * w26 runs on 2.6.0's 10..200 ms line */
	static const struct { const char *policy; int nice, ms; } cases[] = {
		{ "domains", -20, 800 }, { "domains", -1, 420 }, { "domains", 0, 100 },
		{ "domains", 10, 50 }, { "domains", 19, 5 },
		{ "domains:version=w26", -20, 200 }, { "domains:version=w26", 0, 102 },
		{ "domains:version=w26", 19, 10 },
	};
	struct sdt_run r;

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		if (!sdt_start(&r, "pack:1 core:1 pu:2", cases[i].policy, 0))
			return;
		struct sd_sched *s = sl_policy_data(r.sim);
		struct sd_task p = { .static_prio = 120 + cases[i].nice };
		int got = sd_task_timeslice(s, &p);
		CHECKF(got == cases[i].ms, "%s nice %d: %d ms, want %d", cases[i].policy,
		       cases[i].nice, got, cases[i].ms);
		sl_sim_destroy(r.sim);
	}
}

/*
 * One CPU.  `i` (forked first: it runs first and sleeps 1 s) wakes
 * interactive while hogs h (nice -1, 420 ms slices) and f (nice 0) take
 * turns; h has just expired, f runs.  i preempts f and runs 150 ms of
 * work: how long from its wakeup to the end of that work?
 */
static sl_time sdt_starving_run(const char *policy)
{
	struct sdt_run r;
	sl_time took = -1;

	if (!sdt_start(&r, "pack:1 core:1 pu:1", policy, 0))
		return -1;
	struct sdt_script *i = sdt_new(r.sim);
	sdt_add(i, sl_act_sleep(1000 * SL_MSEC));
	sdt_add(i, sl_act_run(150 * SL_MSEC, SL_WC_INT));
	struct sdt_script *root = sdt_new(r.sim);
	sdt_fork(root, i, "i", false, 0);
	sdt_fork(root, sdt_hog(r.sim, 2000, false), "h", true, -1);
	sdt_fork(root, sdt_hog(r.sim, 2000, false), "f", true, 0);
	for (int k = 0; k < 3; k++)
		sdt_add(root, sl_act_wait());
	sl_sim_spawn_root(r.sim, &sdt_prog, root, "root");
	if (sdt_run(&r))
		took = i->at[2] - i->at[1];
	sl_sim_destroy(r.sim);
	return took;
}

SL_TEST(domains_expired_starving_best_prio)
{
	/*
	 * 2.6.12.1 EXPIRED_STARVING(): a task whose static priority is worse
	 * than the best expired one's goes to the expired array even when
	 * interactive.  i (nice 0) expires after 100 ms while h (nice -1)
	 * waits expired: i goes to the expired array, f finishes its slice,
	 * the arrays switch and i finishes: 150 ms of work take ~190 ms.  In
	 * 2.6.0 (w26) an interactive i goes back to the active array and runs
	 * on at once.
	 */
	sl_time took = sdt_starving_run("domains");
	CHECKF(took > 170 * SL_MSEC && took < 230 * SL_MSEC, "2.6.12: i took %.1f ms",
	       (double)took / SL_MSEC);
	took = sdt_starving_run("domains:version=w26");
	CHECKF(took > 0 && took < 160 * SL_MSEC, "w26: i took %.1f ms", (double)took / SL_MSEC);
}

/* One CPU: a task sleeps 1 s, then runs; its sleep_avg after 250 ms of it. */
static sl_time sdt_sleep_avg_after_run(const char *policy)
{
	struct sdt_run r;
	sl_time avg = -1;

	if (!sdt_start(&r, "pack:1 core:1 pu:1", policy, 1250 * SL_MSEC))
		return -1;
	struct sdt_script *t = sdt_new(r.sim);
	sdt_add(t, sl_act_sleep(1000 * SL_MSEC));
	sdt_add(t, sl_act_run(500 * SL_MSEC, SL_WC_INT));
	sl_sim_spawn_root(r.sim, &sdt_prog, t, "t");
	if (sdt_run(&r))
		avg = sd_of(sdt_find(r.sim, "t"))->sleep_avg;
	sl_sim_destroy(r.sim);
	return avg;
}

/*
 * 2.6.12.1's dup_task_struct() copies the parent's last_ran into the child
 * and sched_fork() leaves it, so task_hot() reads a child that never ran
 * by its parent's last switch out.  One CPU: the root runs 3 ms, sleeps
 * 0.5 ms and forks a thread (queued behind it: a thread runs last), then
 * runs on; 0.1 ms after the fork the thread has not run, and to a domain
 * whose cache_hot_time is 2.5 ms it is hot (its parent left the CPU 0.6
 * ms before), to one of 0.5 ms cold.  Until Dec 2026 every never-run
 * task was cold.  (w26, on 2.6.0's base, which is not at hand, keeps it
 * so; its child runs first anyway, threads too.)
 */
static int sdt_never_run_hot(const char *policy, sl_time cache_hot_time)
{
	struct sdt_run r;
	int hot = -1;

	if (!sdt_start(&r, "pack:1 core:1 pu:1,arch=i386", policy, 3600 * SL_USEC))
		return -1;
	struct sdt_script *root = sdt_new(r.sim), *thr = sdt_new(r.sim);
	sdt_add(thr, sl_act_run(1 * SL_MSEC, SL_WC_INT));
	sdt_add(root, sl_act_run(3 * SL_MSEC, SL_WC_INT));
	sdt_add(root, sl_act_sleep(SL_MSEC / 2));
	sdt_fork(root, thr, "thr", true, 0);
	sdt_add(root, sl_act_run(20 * SL_MSEC, SL_WC_INT));
	sl_sim_spawn_root(r.sim, &sdt_prog, root, "root");
	struct sd_domain d = { .p = { .cache_hot_time = cache_hot_time } };
	if (sdt_run(&r)) {
		const struct sl_task *t = sdt_find(r.sim, "thr");
		if (t && t->last_cpu < 0)
			hot = sd_task_hot(sd_of(t), sl_now(r.sim), &d);
	}
	sl_sim_destroy(r.sim);
	return hot;
}

/*
 * 2.6.12.1's schedule() stamps prev->last_ran before it asks whether next
 * is prev, so a task that keeps its CPU is stamped too.  One CPU: the root
 * runs alone for 101 ms (its 100 ms slice ends at 100 ms, and schedule()
 * picks it again from the switched arrays), then forks a thread, which
 * waits behind it.  At 101.5 ms the thread has its parent's last_ran of
 * about 100 ms: hot to a 2.5 ms cache_hot_time.  The root never left the
 * CPU; until Dec 2026 such a parent's child was as cold as the root's
 * boot.  Returns 1 hot, 0 cold, -1 when the scene did not come about.
 */
static int sdt_repicked_parent_hot(void)
{
	struct sdt_run r;
	int hot = -1;

	if (!sdt_start(&r, "pack:1 core:1 pu:1,arch=i386", "domains", 101500 * SL_USEC))
		return -1;
	struct sdt_script *root = sdt_new(r.sim), *thr = sdt_new(r.sim);
	sdt_add(thr, sl_act_run(1 * SL_MSEC, SL_WC_INT));
	sdt_add(root, sl_act_run(101 * SL_MSEC, SL_WC_INT));
	sdt_fork(root, thr, "thr", true, 0);
	sdt_add(root, sl_act_run(20 * SL_MSEC, SL_WC_INT));
	sl_sim_spawn_root(r.sim, &sdt_prog, root, "root");
	struct sd_domain d = { .p = { .cache_hot_time = 2500 * SL_USEC } };
	if (sdt_run(&r)) {
		const struct sl_task *t = sdt_find(r.sim, "thr"), *p = sdt_find(r.sim, "root");
		if (t && p && t->last_cpu < 0 && p->nvcsw + p->nivcsw == 0 && root->pc == 3)
			hot = sd_task_hot(sd_of(t), sl_now(r.sim), &d);
	}
	sl_sim_destroy(r.sim);
	return hot;
}

SL_TEST(domains_child_inherits_last_ran)
{
	CHECK(sdt_never_run_hot("domains", 2500 * SL_USEC) == 1);
	CHECK(sdt_never_run_hot("domains", 500 * SL_USEC) == 0);
	CHECK(sdt_repicked_parent_hot() == 1);
}

/* The first switch at a tick instant that leaves prev queued (its slice
 * ended), on one CPU; -1 if none before the limit. */
struct sdt_tick_switch {
	sl_time tick_ns, at;
};

static void sdt_note_tick_switch(void *ctx, sl_time now, int cpu, const struct sl_task *prev,
				 const struct sl_task *next)
{
	struct sdt_tick_switch *w = ctx;

	(void)cpu;
	if (w->at < 0 && prev && next && prev->state == SL_TASK_RUNNABLE && now % w->tick_ns == 0)
		w->at = now;
}

/* Two hogs on one CPU at HZ = 1000 under 2.6.12: at stop, whether the queued
 * one (*last_ran_out: its last_ran, *stamp_out: the runqueue's
 * timestamp_last_tick) is hot to a cache_hot_time of 0; -1 if the scene did
 * not come about. */
static int sdt_expired_hog_hot(sl_time stop, const struct sl_observer *obs, sl_time *last_ran_out,
			       sl_time *stamp_out)
{
	struct sdt_run r;
	int hot = -1;

	if (!sdt_start_obs(&r, "pack:1 core:1 pu:1,arch=i386", "domains", stop, obs))
		return -1;
	struct sdt_script *root = sdt_new(r.sim), *thr = sdt_new(r.sim);
	sdt_add(thr, sl_act_run(1 * SL_SEC, SL_WC_INT));
	sdt_fork(root, thr, "thr", true, 0);
	sdt_add(root, sl_act_run(1 * SL_SEC, SL_WC_INT));
	sl_sim_spawn_root(r.sim, &sdt_prog, root, "root");
	struct sd_domain d = { .p = { .cache_hot_time = 0 } };
	if (sdt_run(&r)) {
		const struct sd_sched *s = sl_policy_data(r.sim);
		const struct sl_task *a = sdt_find(r.sim, "root"), *b = sdt_find(r.sim, "thr");
		const struct sl_task *curr = sl_curr(r.sim, 0);
		const struct sl_task *q = curr == a ? b : curr == b ? a : NULL;
		if (a && b && q && q->state == SL_TASK_RUNNABLE) {
			*last_ran_out = sd_of(q)->last_ran;
			*stamp_out = sd_rq(s, 0)->timestamp_last_tick;
			hot = sd_task_hot(sd_of(q), *stamp_out, &d);
		}
	}
	sl_sim_destroy(r.sim);
	return hot;
}

/*
 * task_hot()'s test is signed, and a task switched out because a tick
 * ended its slice was stamped by the schedule() after that tick, a
 * sched_clock() read later than the tick's timestamp_last_tick: until the
 * CPU's next tick it is hot even to the SMT level's cache_hot_time of 0
 * (2.6.12.1 scheduler_tick, schedule, task_hot).  The engine runs that
 * schedule() at the tick's instant; until Dec 2026 the task then read as
 * cold (0 < 0), and a sibling's balance could take at once the task
 * whose slice had just ended (an audit against 2.6.12.1).  Half a jiffy
 * after such a switch the queued hog is hot; a jiffy later, cold.
 */
SL_TEST(domains_task_switched_out_by_a_tick_is_hot_until_the_next)
{
	struct sdt_tick_switch w = { .tick_ns = SL_MSEC, .at = -1 };
	const struct sl_observer obs = { .ctx = &w, .sched_switch = sdt_note_tick_switch };
	sl_time last_ran = -1, stamp = -1;

	CHECK(sdt_expired_hog_hot(400 * SL_MSEC, &obs, &last_ran, &stamp) >= 0);
	if (w.at < 0) {
		CHECKF(0, "no switch at a tick in 400 ms");
		return;
	}
	int hot = sdt_expired_hog_hot(w.at + SL_MSEC / 2, NULL, &last_ran, &stamp);
	CHECKF(hot == 1 && last_ran == w.at && stamp == w.at,
	       "switch at %.1f ms: hot %d, last_ran %.3f ms, stamp %.3f ms", (double)w.at / SL_MSEC,
	       hot, (double)last_ran / SL_MSEC, (double)stamp / SL_MSEC);
	hot = sdt_expired_hog_hot(w.at + SL_MSEC + SL_MSEC / 2, NULL, &last_ran, &stamp);
	CHECKF(hot == 0 && last_ran == w.at && stamp == w.at + SL_MSEC,
	       "a jiffy later: hot %d, last_ran %.3f ms, stamp %.3f ms", hot,
	       (double)last_ran / SL_MSEC, (double)stamp / SL_MSEC);
}

/*
 * An i386 kernel built with CONFIG_NUMA counts sched_clock() in whole
 * jiffies (2.6.12.1 arch/i386/kernel/timers/timer_tsc.c): a 0.4 ms sleep
 * inside one jiffy earns no sleep credit, and timestamps are a jiffy's
 * start; with the TSC's nanoseconds (one node, or sched_clock=ns) it earns
 * some.  One CPU on one node of two (or of one), HZ = 1000, exact timers.
 */
static bool sdt_short_sleep(const char *machine, const char *policy, sl_time *avg, sl_time *ts)
{
	struct sdt_run r;
	bool ok = false;

	if (!sdt_start(&r, machine, policy, 51 * SL_MSEC + 500 * SL_USEC))
		return false;
	struct sdt_script *t = sdt_new(r.sim);
	sdt_add(t, sl_act_run(50300 * SL_USEC, SL_WC_INT));
	sdt_add(t, sl_act_sleep(400 * SL_USEC));
	sdt_add(t, sl_act_run(5 * SL_MSEC, SL_WC_INT));
	sl_sim_spawn_root(r.sim, &sdt_prog, t, "t");
	if (sdt_run(&r) && t->pc == 3) {
		const struct sl_task *task = sdt_find(r.sim, "t");
		if (task) {
			*avg = sd_of(task)->sleep_avg;
			*ts = sd_of(task)->timestamp;
			ok = true;
		}
	}
	sl_sim_destroy(r.sim);
	return ok;
}

SL_TEST(domains_sched_clock_counts_jiffies_on_i386_numa)
{
	static const struct {
		const char *machine, *policy;
		bool jiffies;
	} cases[] = {
		{ "numa:2 pack:1 core:1 pu:1,arch=i386", "domains:timers=exact", true },
		{ "numa:2 pack:1 core:1 pu:1,arch=i386", "domains:timers=exact,sched_clock=ns", false },
		{ "pack:1 core:1 pu:1,arch=i386", "domains:timers=exact", false },
		{ "numa:2 pack:1 core:1 pu:1,arch=i386", "domains:version=w26,timers=exact", true },
	};

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		sl_time avg = -1, ts = -1;
		bool ran = sdt_short_sleep(cases[i].machine, cases[i].policy, &avg, &ts);
		bool as_jiffies = avg == 0 && ts % SL_MSEC == 0;
		bool as_ns = avg > 0 && ts % SL_MSEC != 0;
		CHECKF(ran && (cases[i].jiffies ? as_jiffies : as_ns),
		       "%s, %s: sleep_avg %lld ns, timestamp %lld ns", cases[i].machine,
		       cases[i].policy, (long long)avg, (long long)ts);
	}
}

/*
 * Every CPU's scheduler_tick() stamps rq->timestamp_last_tick, the clock
 * task_hot() measures a queued task against.  When the whole machine
 * idles the engine stops the tick and replays the missed jiffies as the
 * first task wakes (sd_ticks_skipped): the stamp is the last of them, not
 * the tick before the idle gap.  One CPU, HZ = 1000, timed sleeps ending
 * between ticks (timers=exact; the timer wheel would wake the task at a
 * tick, which stamps it): a task runs 1 ms, sleeps 50.2 ms and runs again;
 * at 51.5 ms the stamp is 51 ms (until Dec 2026: 1 ms).
 */
SL_TEST(domains_tick_stamp_survives_an_idle_gap)
{
	struct sdt_run r;

	if (!sdt_start(&r, "pack:1 core:1 pu:1,arch=i386", "domains:timers=exact", 51500 * SL_USEC)) {
		CHECK(false);
		return;
	}
	struct sdt_script *t = sdt_new(r.sim);
	sdt_add(t, sl_act_run(1 * SL_MSEC, SL_WC_INT));
	sdt_add(t, sl_act_sleep(50200 * SL_USEC));
	sdt_add(t, sl_act_run(5 * SL_MSEC, SL_WC_INT));
	sl_sim_spawn_root(r.sim, &sdt_prog, t, "t");
	if (sdt_run(&r)) {
		sl_time stamp = sd_rq(sl_policy_data(r.sim), 0)->timestamp_last_tick;
		CHECKF(t->pc == 3 && stamp == 51 * SL_MSEC, "pc %d, timestamp_last_tick %.3f ms",
		       t->pc, (double)stamp / SL_MSEC);
	}
	sl_sim_destroy(r.sim);
}

/*
 * sched_fork() halves the parent's slice; when nothing is left it sets it
 * to 1 and calls scheduler_tick(), which begins by stamping
 * rq->timestamp_last_tick = sched_clock() (2.6.12.1 kernel/sched.c).  One
 * CPU, HZ = 1000: a parent runs 0.1 ms, then forks seven children that
 * exit at once (child first: each runs and dies before the parent goes
 * on); its 100 ms slice halves to 0 at the seventh fork, inside the first
 * jiffy.  At 0.9 ms, before the next tick, the stamp is that fork's time
 * (until Dec 2026 the model ran only the slice's part of that tick, and
 * the stamp stayed the first tick's, 0).
 */
SL_TEST(domains_fork_tick_stamps_the_runqueue)
{
	struct sdt_run r;

	if (!sdt_start(&r, "pack:1 core:1 pu:1,arch=i386", "domains", 900 * SL_USEC)) {
		CHECK(false);
		return;
	}
	struct sdt_script *p = sdt_new(r.sim);
	sdt_add(p, sl_act_run(100 * SL_USEC, SL_WC_INT));
	for (int i = 0; i < 7; i++)
		sdt_fork(p, sdt_new(r.sim), "child", false, 0);
	sdt_add(p, sl_act_run(10 * SL_MSEC, SL_WC_INT));
	sl_sim_spawn_root(r.sim, &sdt_prog, p, "parent");
	if (sdt_run(&r)) {
		sl_time stamp = sd_rq(sl_policy_data(r.sim), 0)->timestamp_last_tick;
		/* the seventh fork was asked for at at[7] and done by at[8] */
		CHECKF(p->pc == 9 && stamp >= p->at[7] && stamp <= p->at[8] && p->at[8] < SL_MSEC,
		       "pc %d, timestamp_last_tick %.3f ms, seventh fork %.3f-%.3f ms", p->pc,
		       (double)stamp / SL_MSEC, (double)p->at[7] / SL_MSEC,
		       (double)p->at[8] / SL_MSEC);
	}
	sl_sim_destroy(r.sim);
}

/* One CPU: a task runs 50 ms (its sleep_avg stays 0, bonus 0), sleeps
 * 500 ms and runs again; its sleep_avg when it wakes, and *cap the
 * policy's NS_MAX_SLEEP_AVG. */
static sl_time sdt_sleep_avg_after_sleep(const char *machine, const char *policy, sl_time *cap)
{
	struct sdt_run r;
	sl_time avg = -1;

	if (!sdt_start(&r, machine, policy, 1 * SL_SEC))
		return -1;
	struct sdt_script *t = sdt_new(r.sim);
	sdt_add(t, sl_act_run(50 * SL_MSEC, SL_WC_INT));
	sdt_add(t, sl_act_sleep(500 * SL_MSEC));
	sdt_add(t, sl_act_run(1 * SL_MSEC, SL_WC_INT));
	sl_sim_spawn_root(r.sim, &sdt_prog, t, "t");
	if (sdt_run(&r) && t->pc == 3 && t->sleep_avg[1] == 0) {
		const struct sd_sched *s = sl_policy_data(r.sim);
		avg = t->sleep_avg[2];
		*cap = s->max_sleep_avg * s->tick_ns;
	}
	sl_sim_destroy(r.sim);
	return avg;
}

SL_TEST(domains_sleep_credit_wraps_on_i386)
{
	/*
	 * 2.6.12.1 recalc_task_prio(): sleep_time is an unsigned long, scaled
	 * by MAX_BONUS - CURRENT_BONUS (10 at bonus 0) in place.  A 500 ms
	 * sleep (under INTERACTIVE_SLEEP's 799 ms) is worth 5 s, capped at
	 * NS_MAX_SLEEP_AVG on a 64-bit kernel (1 s; 1,020 jiffies of ia64's
	 * 1024 Hz); on i386 the product
	 * wraps to 5e9 - 2^32 = 705 ms.  The sleep ends a few us after 500 ms
	 * (the switch costs), ten times that in the product.
	 */
	const sl_time wrapped = 5 * SL_SEC - (1LL << 32);
	static const struct {
		const char *machine, *policy;
		bool wraps;
	} cases[] = {
		{ "pack:1 core:1 pu:1,arch=i386", "domains", true },
		{ "pack:1 core:1 pu:1,arch=x86_64", "domains", false },
		{ "pack:1 core:1 pu:1,arch=ia64", "domains", false },
		{ "pack:1 core:1 pu:1,arch=i386", "domains:ulong=64", false },
		{ "pack:1 core:1 pu:1,arch=x86_64", "domains:ulong=32", true },
		{ "pack:1 core:1 pu:1,arch=i386", "domains:version=w26", true },
	};
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		sl_time cap = -1;
		sl_time avg = sdt_sleep_avg_after_sleep(cases[i].machine, cases[i].policy, &cap);
		bool ok = cases[i].wraps ? avg >= wrapped && avg < wrapped + 2 * SL_MSEC : avg == cap;
		CHECKF(ok, "%s on %s: sleep_avg %.3f ms after 500 ms asleep at bonus 0",
		       cases[i].policy, cases[i].machine, (double)avg / SL_MSEC);
	}
}

SL_TEST(domains_run_time_by_bonus)
{
	/*
	 * 2.6.12.1 schedule(): every task's run time comes off its sleep_avg
	 * divided by CURRENT_BONUS, so a task that wakes "just interactive"
	 * (900 ms) keeps most of it over 250 ms of running; 2.6.0 (w26) divides
	 * only for tasks with high interactive_credit (2.6.12 has no credit):
	 * 918 - 250 ms.
	 */
	sl_time avg = sdt_sleep_avg_after_run("domains");
	CHECKF(avg > 850 * SL_MSEC && avg < 900 * SL_MSEC, "2.6.12: sleep_avg %.1f ms",
	       (double)avg / SL_MSEC);
	avg = sdt_sleep_avg_after_run("domains:version=w26");
	CHECKF(avg > 600 * SL_MSEC && avg < 700 * SL_MSEC, "w26: sleep_avg %.1f ms",
	       (double)avg / SL_MSEC);
}

/*
 * sched_exit() (2.6.11 and 2.6.12.1 kernel/sched.c), when the parent reaps
 * a child less interactive than itself: parent / (EXIT_WEIGHT + 1) *
 * EXIT_WEIGHT + child / (EXIT_WEIGHT + 1), each part truncated.  From
 * 999,999,999 ns and 1 ns that is 749,999,997 ns; weighting before the
 * division would give 749,999,999.
 */
SL_TEST(domains_exit_mixes_sleep_avg_as_written)
{
	struct sdt_run r;

	CHECK(sdt_start(&r, "pack:1 core:1 pu:1", "domains", 5 * SL_MSEC));
	if (!r.sim)
		return;
	struct sdt_script *root = sdt_new(r.sim);
	sdt_fork(root, sdt_hog(r.sim, 1000, false), "child", false, 0);
	sdt_add(root, sl_act_run(1000 * SL_MSEC, SL_WC_INT));
	sl_sim_spawn_root(r.sim, &sdt_prog, root, "root");
	struct sl_task *parent = NULL, *child = NULL;
	if (sdt_run(&r)) {
		parent = sdt_find(r.sim, "root");
		child = sdt_find(r.sim, "child");
	}
	CHECK(parent && child && child->parent == parent);
	if (parent && child && child->parent == parent) {
		sd_of(parent)->sleep_avg = 999999999;
		sd_of(child)->sleep_avg = 1;
		sd_of(child)->first_time_slice = false;
		sd_release(r.sim, child);
		CHECKF(sd_of(parent)->sleep_avg == 749999997, "parent's sleep_avg %lld ns",
		       (long long)sd_of(parent)->sleep_avg);
		/* a child more interactive than its parent leaves it alone */
		sd_of(child)->sleep_avg = 749999998;
		sd_release(r.sim, child);
		CHECK(sd_of(parent)->sleep_avg == 749999997);
	}
	sl_sim_destroy(r.sim);
}

/* The prio an interactive hog has after the tick that round-robins it
 * (TIMESLICE_GRANULARITY), when its sleep_avg says 115 and it was
 * queued at 118: -1 if the setup failed. */
static int sdt_round_robin_prio(const char *policy)
{
	struct sdt_run r;
	int prio = -1;

	if (!sdt_start(&r, "pack:1 core:1 pu:1", policy, 5 * SL_MSEC))
		return -1;
	sl_sim_spawn_root(r.sim, &sdt_prog, sdt_hog(r.sim, 1000, false), "hog");
	struct sl_task *t = sdt_run(&r) ? sdt_find(r.sim, "hog") : NULL;
	if (t && sl_curr(r.sim, 0) == t) {
		struct sd_sched *s = sdt_sched(&r);
		struct sd_task *p = sd_of(t);
		p->sleep_avg = s->max_sleep_avg * s->tick_ns;	/* full bonus: 115 */
		sd_dequeue(p);
		p->prio = 118;
		sd_enqueue(sd_rq(s, 0)->active, p);
		/* the tick that leaves 10 ticks used, one granularity */
		p->time_slice = sd_task_timeslice(s, p) - 9;
		sd_tick(r.sim, 0);
		prio = p->prio;
	}
	sl_sim_destroy(r.sim);
	return prio;
}

/* 2.6.11/2.6.12.1 scheduler_tick: the round robin of an interactive task
 * is requeue_task, at the priority it has; 2.6.0's recomputed it. */
SL_TEST(domains_round_robin_keeps_prio)
{
	int v2612 = sdt_round_robin_prio("domains:version=2.6.12");
	int w26 = sdt_round_robin_prio("domains:version=w26");
	CHECKF(v2612 == 118, "2.6.12: prio %d after the round robin, queued at 118", v2612);
	CHECKF(w26 == 115, "w26: prio %d after the round robin, effective 115", w26);
}

/* ---- SMT nice: dependent_sleeper ---- */

/* A nice 0 and a nice 19 hog on the two siblings of one P4 HT for 1 s:
 * the CPU time of each. */
static void sdt_nice_pair(const char *policy, sl_time *nice0, sl_time *nice19)
{
	struct sdt_run r;

	*nice0 = *nice19 = -1;
	if (!sdt_start(&r, "pack:1 core:1 pu:2", policy, 1000 * SL_MSEC))
		return;
	struct sdt_script *root = sdt_new(r.sim);
	sdt_fork(root, sdt_hog(r.sim, 5000, false), "n0", false, 0);
	sdt_fork(root, sdt_hog(r.sim, 5000, false), "n19", false, 19);
	sdt_add(root, sl_act_wait());
	sdt_add(root, sl_act_wait());
	sl_sim_spawn_root(r.sim, &sdt_prog, root, "root");
	if (sdt_run(&r)) {
		struct sl_task *a = sdt_find(r.sim, "n0"), *b = sdt_find(r.sim, "n19");
		if (a && b) {
			*nice0 = a->user_ns + a->sys_ns;
			*nice19 = b->user_ns + b->sys_ns;
		}
	}
	sl_sim_destroy(r.sim);
}

SL_TEST(domains_dependent_sleeper)
{
	sl_time n0, n19;

	/* 2.6.12: nice 19 runs only while the nice 0 task's remaining slice,
	 * less 25 %, is within nice 19's 5 ms slice: ~6 of every 100 ms */
	sdt_nice_pair("domains", &n0, &n19);
	CHECKF(n0 > 900 * SL_MSEC && n19 > 0 && n19 < n0 / 4,
	       "nice 0: %.1f ms, nice 19: %.1f ms", (double)n0 / SL_MSEC,
	       (double)n19 / SL_MSEC);
	/* without it each sibling runs its task all the time */
	sdt_nice_pair("domains:smt_nice=off", &n0, &n19);
	CHECKF(n0 > 900 * SL_MSEC && n19 > 900 * SL_MSEC, "smt_nice=off: nice 0: %.1f ms, "
	       "nice 19: %.1f ms", (double)n0 / SL_MSEC, (double)n19 / SL_MSEC);
	/* w26 predates it */
	sdt_nice_pair("domains:version=w26", &n0, &n19);
	CHECKF(n19 > 900 * SL_MSEC, "w26: nice 19: %.1f ms", (double)n19 / SL_MSEC);
	/* per_cpu_gain=100: only a sibling with any slice left holds it */
	sdt_nice_pair("domains:per_cpu_gain=100", &n0, &n19);
	CHECKF(n19 > 900 * SL_MSEC, "per_cpu_gain=100: nice 19: %.1f ms", (double)n19 / SL_MSEC);
}

/* ---- exec balancing ---- */

/*
 * 2x2 HT.  The root forks a hog (which runs on CPU 0, child first), is
 * pulled to CPU 1 by the idle sibling, runs 0.5 ms and forks x there,
 * which execs at once while the root waits queued behind it: package 0 is
 * busy, package 1 idle (active balancing has not acted yet).
 */
static int sdt_exec_cpu(const char *policy, int *before, sl_time *delay)
{
	struct sdt_run r;
	int cpu = -2;

	if (!sdt_start(&r, "pack:2 core:1 pu:2", policy, 0))
		return -2;
	struct sdt_script *x = sdt_new(r.sim);
	sdt_add(x, (struct sl_action){ .kind = SL_ACT_EXEC, .u.exec = { "x2" } });
	sdt_add(x, sl_act_run(0.01 * SL_MSEC, SL_WC_INT));
	sdt_add(x, sl_act_run(5 * SL_MSEC, SL_WC_INT));
	struct sdt_script *root = sdt_new(r.sim);
	sdt_fork(root, sdt_hog(r.sim, 60, false), "hog", false, 0);
	sdt_add(root, sl_act_run(0.5 * SL_MSEC, SL_WC_INT));
	sdt_fork(root, x, "x", false, 0);
	sdt_add(root, sl_act_wait());
	sdt_add(root, sl_act_wait());
	sl_sim_spawn_root(r.sim, &sdt_prog, root, "root");
	if (sdt_run(&r)) {
		*before = x->cpu[0];
		cpu = x->cpu[2];	/* where its first work after the exec ran */
		*delay = x->at[2] - x->at[0];
	}
	sl_sim_destroy(r.sim);
	return cpu;
}

SL_TEST(domains_exec_balance)
{
	int before = -1;
	sl_time delay = -1;

	/* find_idlest_cpu over the highest SD_BALANCE_EXEC domain: CPU 2
	 * (ordered ticks: the sibling, CPU 1, pulls x before its exec) */
	int cpu = sdt_exec_cpu("domains:tick=ordered", &before, &delay);
	CHECKF(before == 1 && cpu == 2 && delay < SL_MSEC,
	       "exec on CPU %d, continued on CPU %d after %.3f ms", before, cpu,
	       (double)delay / SL_MSEC);
	/* w26 balanced exec only on NUMA machines */
	cpu = sdt_exec_cpu("domains:version=w26", &before, &delay);
	CHECKF(cpu == before && before >= 0, "w26: exec on CPU %d, continued on CPU %d",
	       before, cpu);
}

/*
 * Exec balancing's move is __migrate_task's: activate_task on the
 * destination, so the task waits there marked activated and earns the
 * runqueue-wait credit (38/128 of its wait) when it is picked.  Two nodes
 * of one CPU: the root runs on CPU 0, a nice -5 hog on CPU 1; x execs on
 * CPU 0 (load 2 with the root), is sent to CPU 1 (load 1) and waits there
 * for the rest of the hog's slice.  If `io_first`, x first blocks 1 ms
 * on I/O.  Returns the sleep_avg x gained from its exec to the end of its
 * 2 ms on CPU 1 (*wait), or INT64_MIN.
 */
static int64_t sdt_exec_credit(bool io_first, sl_time *wait)
{
	struct sdt_run r;
	int64_t gained = INT64_MIN;
	int k = io_first ? 1 : 0;	/* the exec's step */

	if (!sdt_start(&r, "node:2 pack:1 core:1 pu:1", "domains:tick=ordered", 0))
		return gained;
	struct sdt_script *x = sdt_new(r.sim);
	if (io_first)
		sdt_add(x, sl_act_io_wait(1 * SL_MSEC));
	sdt_add(x, (struct sl_action){ .kind = SL_ACT_EXEC, .u.exec = { "x2" } });
	sdt_add(x, sl_act_run(2 * SL_MSEC, SL_WC_INT));
	sdt_add(x, sl_act_run(1 * SL_MSEC, SL_WC_INT));
	struct sdt_script *root = sdt_new(r.sim);
	sl_cpumask cpu1;
	sl_cpumask_clear(&cpu1);
	sl_cpumask_set(&cpu1, 1);
	sdt_add(root, (struct sl_action){ .kind = SL_ACT_FORK,
		.u.fork = { .prog = &sdt_prog, .state = sdt_hog(r.sim, 400, false), .comm = "hog",
			    .set_nice = true, .nice = -5, .allowed = &cpu1 } });
	sdt_add(root, sl_act_run(5 * SL_MSEC, SL_WC_INT));
	sdt_fork(root, x, "x", false, 0);
	sdt_add(root, sl_act_run(50 * SL_MSEC, SL_WC_INT));
	sdt_add(root, sl_act_wait());
	sdt_add(root, sl_act_wait());
	sl_sim_spawn_root(r.sim, &sdt_prog, root, "root");
	if (sdt_run(&r)) {
		/* from the exec (whose return to user space, and so the
		 * next step, comes on CPU 1 after the move) */
		*wait = x->at[k + 2] - x->at[k];
		CHECKF(x->cpu[k] == 0 && x->cpu[k + 2] == 1 && *wait > 20 * SL_MSEC,
		       "exec on CPU %d, on CPU %d after %.1f ms", x->cpu[k], x->cpu[k + 2],
		       (double)*wait / SL_MSEC);
		gained = x->sleep_avg[k + 2] - x->sleep_avg[k];
	}
	sl_sim_destroy(r.sim);
	return gained;
}

SL_TEST(domains_exec_move_earns_runqueue_credit)
{
	sl_time wait = 0;

	/* about 38/128 of the wait, less the 2 ms it ran */
	int64_t gained = sdt_exec_credit(false, &wait);
	CHECKF(gained > wait / 5, "sleep_avg %+.1f ms over a %.1f ms wait",
	       (double)gained / SL_MSEC, (double)wait / SL_MSEC);
	/* the same after an I/O wait: the involuntary sleeper's mark is
	 * try_to_wake_up's, and the move's activate_task does not set it */
	gained = sdt_exec_credit(true, &wait);
	CHECKF(gained > wait / 5, "after I/O: sleep_avg %+.1f ms over a %.1f ms wait",
	       (double)gained / SL_MSEC, (double)wait / SL_MSEC);
}

SL_TEST(domains_priority_sleeper_tick_balances)
{
	struct sdt_run r;

	/*
	 * 2.6.12.1 scheduler_tick(): an idle CPU with queued tasks (held back
	 * by dependent_sleeper) reschedules itself and then still runs
	 * rebalance_tick(NOT_IDLE), which updates its cpu_load and balances
	 * at the busy interval.  CPU 1 of a P4 HT, one task counted, due.
	 */
	if (!sdt_start(&r, "pack:1 core:1 pu:2", "domains", 0))
		return;
	struct sd_sched *s = sl_policy_data(r.sim);
	struct sd_domain *sd = s->rqs[1].sd;
	sd_nr_add(s, 1, 1);
	sd->last_balance = -100000;
	sd->balance_interval = 1;
	sd_balance_changed(s, 1);
	sd_tick(r.sim, 1);
	CHECKF(s->rqs[1].cpu_load == 64, "cpu_load %lu", s->rqs[1].cpu_load);
	/* busy: the interval advanced by busy_factor (8) ticks, not 1 */
	CHECKF(sd->last_balance == -100000 + 8, "last_balance %lld",
	       (long long)sd->last_balance);
	sd_nr_add(s, 1, -1);
	sl_sim_destroy(r.sim);
}

/* ---- whole workloads under invariant checks ---- */

static int sdt_ncpus;	/* logical CPUs of sdt_kernbench's last machine */

static bool sdt_kernbench(const char *machine, const char *policy, uint64_t seed,
			  struct sl_metrics *m)
{
	return checked_run(machine, policy, "kernbench:size=3,units=60", seed, m, &sdt_ncpus);
}

SL_TEST(domains_kernbench_invariants)
{
	static const char *const machines[] = {
		"pack:2 core:1 pu:2", "node:4 pack:1 core:4 pu:1", "pack:2 core:2 pu:2",
		"pack:1 core:1 pu:2",
	};
	static const char *const policies[] = {
		"domains", "domains:version=w26", "domains:version=w26,idle_level=smt,smt_nice=on",
	};
	struct sl_metrics a, b;

	for (size_t i = 0; i < sizeof(machines) / sizeof(machines[0]); i++) {
		for (size_t j = 0; j < sizeof(policies) / sizeof(policies[0]); j++) {
			bool ok = sdt_kernbench(machines[i], policies[j], 3, &a);
			CHECKF(ok, "%s on %s", policies[j], machines[i]);
			if (!ok)
				continue;
			const struct sl_metric *e = sl_metrics_find(&a, "elapsed_s");
			const struct sl_metric *u = sl_metrics_find(&a, "user_s");
			CHECKF(e && u && e->value > 0 && u->value >= 3 * 0.9,
			       "%s on %s: elapsed %.3f user %.3f", policies[j], machines[i],
			       e ? e->value : -1, u ? u->value : -1);
			/* io=0: never wholly idle while a job waits */
			struct bt_run br;
			char what[128];
			snprintf(what, sizeof(what), "%s on %s", policies[j], machines[i]);
			CHECKF(bt_from_metrics(&a, sdt_ncpus, &br), "%s: elapsed, user, sys", what);
			bt_check(what, &br, 0, 0);
		}
	}
	/* deterministic: same seed, same numbers */
	CHECK(sdt_kernbench("pack:2 core:1 pu:2", "domains", 5, &a) &&
	      sdt_kernbench("pack:2 core:1 pu:2", "domains", 5, &b));
	CHECK(a.n == b.n && !memcmp(a.m, b.m, sizeof(a.m[0]) * (size_t)a.n));
}

/* hackbench's pipes are the kernel's: under 2.6.12 a ring of 16 pages,
 * which 2,000 messages per receiver fill (engine.md, "Pipe sizes"), under
 * w26 one page.  Every message gets through, under the invariant checks. */
SL_TEST(domains_hackbench_pipes_invariants)
{
	static const char *const policies[] = { "domains", "domains:version=w26" };
	struct sl_metrics a;

	for (size_t j = 0; j < sizeof(policies) / sizeof(policies[0]); j++) {
		bool ok = checked_run("pack:2 core:1 pu:2", policies[j],
				      "hackbench:groups=1,loops=100,mode=pipe", 1, &a, NULL);
		CHECKF(ok, "%s", policies[j]);
		const struct sl_metric *msgs = ok ? sl_metrics_find(&a, "messages") : NULL;
		CHECKF(msgs && msgs->value == 20 * 20 * 100, "%s: %g messages", policies[j],
		       msgs ? msgs->value : -1);
	}
}

/* ---- find_busiest_group's memo and running load sums ---- */

/*
 * domains/load.c: 2.6.12's find_busiest_group answers from a memo while no
 * load of its span changed, and reads a core's or a node's load from
 * running sums.  The check op (after every event here) recomputes every
 * current memo and every sum; this run makes both work on a NUMA SMT
 * machine, and the corruptions show the check catches a wrong memo, sum
 * or migration-thread flag.
 */
SL_TEST(domains_fbg_memo_and_sums)
{
	struct sdt_run r;
	struct sl_err err;

	if (!sdt_start(&r, "node:2 pack:1 core:4 pu:2", "domains", 80 * SL_MSEC))
		return;
	struct sdt_script *root = sdt_new(r.sim);
	for (int k = 0; k < 5; k++) {
		struct sdt_script *c = sdt_new(r.sim);
		for (int j = 0; j < 6; j++) {
			sdt_add(c, sl_act_run((1 + k) * 2 * SL_MSEC, SL_WC_INT));
			sdt_add(c, sl_act_sleep((sl_time)(1 + j % 3) * SL_MSEC));
		}
		sdt_fork(root, c, "mix", false, 0);
	}
	sdt_fork(root, sdt_hog(r.sim, 200, false), "hog", false, 0);
	sdt_fork(root, sdt_hog(r.sim, 200, false), "hog", false, 0);
	for (int k = 0; k < 7; k++)
		sdt_add(root, sl_act_wait());
	sl_sim_spawn_root(r.sim, &sdt_prog, root, "root");
	CHECK(sdt_run(&r));
	struct sd_sched *s = sl_policy_data(r.sim);
	CHECKF(s->fbg_hits > 0, "no find_busiest_group answered by a memo");
	CHECK(sl_policy_domains.check(r.sim, &err) == 0);

	/* a current memo with a wrong imbalance */
	struct sd_fbg_memo *m = NULL;
	for (int cpu = 0; cpu < s->ncpus && !m; cpu++)
		sd_for_each_domain(s, cpu, sd)
			for (int idle = 0; idle < 3 && !m; idle++)
				if (sd->span_gen && sd->fbg_memo[idle].valid &&
				    sd->fbg_memo[idle].gen == *sd->span_gen)
					m = &sd->fbg_memo[idle];
	CHECKF(m != NULL, "no current memo after the run");
	if (m) {
		m->imbalance += 3;
		CHECK(sl_policy_domains.check(r.sim, &err) == -1 && strstr(err.msg, "memo"));
		m->imbalance -= 3;
		CHECK(sl_policy_domains.check(r.sim, &err) == 0);
	}
	/* a node's running sum, a CPU's running load */
	s->node_src[1] += 1;
	CHECK(sl_policy_domains.check(r.sim, &err) == -1 && strstr(err.msg, "sums"));
	s->node_src[1] -= 1;
	s->tgt_load[3] += 128;
	CHECK(sl_policy_domains.check(r.sim, &err) == -1 && strstr(err.msg, "running"));
	s->tgt_load[3] -= 128;
	/* a migration thread said to run that does not, or to be woken */
	s->in_migration[5] = !s->in_migration[5];
	CHECK(sl_policy_domains.check(r.sim, &err) == -1 && strstr(err.msg, "migration"));
	s->in_migration[5] = !s->in_migration[5];
	s->thread_woken[5] = !s->thread_woken[5];
	CHECK(sl_policy_domains.check(r.sim, &err) == -1 && strstr(err.msg, "migration"));
	s->thread_woken[5] = !s->thread_woken[5];
	CHECK(sl_policy_domains.check(r.sim, &err) == 0);
	sl_sim_destroy(r.sim);
}

/* A prober that, at 10 ms, wakes the migration thread of the CPU where
 * "hog" runs (another CPU) and notes that CPU's nr_running and target
 * load at once, and again 1 ms later. */
struct thread_probe {
	int pc, cpu;
	int nr_woken, nr_after;
	unsigned long load_woken;
};

static void thread_probe_step(struct sl_sim *sim, struct sl_task *t, struct sl_action *next)
{
	struct thread_probe *p = t->prog_state;
	struct sd_sched *s = sl_policy_data(sim);

	*next = sl_act_exit();
	if (p->pc == 0) {
		*next = sl_act_sleep(10 * SL_MSEC);
	} else if (p->pc == 1) {
		struct sl_task *hog = sdt_find(sim, "hog");
		p->cpu = hog ? hog->cpu : -1;
		if (p->cpu >= 0 && p->cpu != t->cpu) {
			sd_wake_migration(sim, s, p->cpu, -1);
			p->nr_woken = sd_nr_running(s, p->cpu);
			p->load_woken = sd_target_load(sim, s, p->cpu);
			*next = sl_act_sleep(SL_MSEC);
		}
	} else if (p->pc == 2) {
		p->nr_after = sd_nr_running(s, p->cpu);
	}
	p->pc++;
}

static const struct sl_prog thread_probe_prog = { .name = "probe", .step = thread_probe_step };

/*
 * 2.6.12.1's migration thread is a task on its runqueue: waking it
 * (wake_up_process -> try_to_wake_up -> activate_task) counts it in
 * nr_running at once, while it still waits for the IPI, or for a
 * non-preemptible kernel's return to user space, before it runs.  Until
 * Dec 2026 the model counted it only from when it ran.  Here a hog's CPU
 * has two tasks, and a target load of two, from the wakeup; 1 ms later
 * the thread has run and gone.
 */
SL_TEST(domains_migration_thread_counts_from_its_wakeup)
{
	struct sdt_run r;

	if (!sdt_start(&r, "pack:2 core:1 pu:1", "domains", 40 * SL_MSEC))
		return;
	struct sdt_script *root = sdt_new(r.sim);
	struct thread_probe *probe = sl_sim_alloc(r.sim, sizeof(*probe));
	sdt_fork(root, sdt_hog(r.sim, 30, true), "hog", false, 0);
	sdt_add(root, (struct sl_action){ .kind = SL_ACT_FORK,
		.u.fork = { .prog = &thread_probe_prog, .state = probe, .comm = "probe" } });
	sdt_add(root, sl_act_wait());
	sdt_add(root, sl_act_wait());
	sl_sim_spawn_root(r.sim, &sdt_prog, root, "root");
	CHECK(sdt_run(&r));
	CHECKF(probe->cpu >= 0, "the hog ran beside the prober: CPU %d", probe->cpu);
	CHECKF(probe->nr_woken == 2 && probe->load_woken == 2 * SD_LOAD_SCALE,
	       "woken: nr_running %d, target load %lu", probe->nr_woken, probe->load_woken);
	CHECKF(probe->nr_after == 1, "1 ms later: nr_running %d", probe->nr_after);
	sl_sim_destroy(r.sim);
}

/*
 * domains/rebalance.c: each runqueue keeps the first jiffy one of its
 * domains is due; when the engine stopped the tick (nothing runnable),
 * sd_ticks_skipped moves every last_balance past the skipped jiffies and the
 * kept jiffies with them.  A lone task that sleeps 20 ms at a time stops
 * the tick over and over; the check op compares the kept jiffies with the
 * domains' after every event.
 */
SL_TEST(domains_due_after_stopped_tick)
{
	static const char *const policies[] = { "domains", "domains:version=w26" };

	for (int v = 0; v < 2; v++) {
		struct sdt_run r;
		if (!sdt_start(&r, "node:2 pack:1 core:2 pu:2", policies[v], 0))
			return;
		struct sdt_script *t = sdt_new(r.sim);
		for (int k = 0; k < 6; k++) {
			sdt_add(t, sl_act_run(5 * SL_MSEC, SL_WC_INT));
			sdt_add(t, sl_act_sleep(20 * SL_MSEC));
		}
		sl_sim_spawn_root(r.sim, &sdt_prog, t, "sleeper");
		CHECKF(sdt_run(&r), "%s", policies[v]);
		sl_sim_destroy(r.sim);
	}
}

/* ---- the parent's wakeup at a child's exit ---- */

/* The root forks a 200 ms hog (on CPU 1 of two CPUs when cpus == 2) and
 * waits for it; the hog's exit wakes it.  The root's sleep_avg at 250 ms
 * and the CPU it asked for its next action on, or -1 if it never ran. */
static sl_time sdt_exit_wake(const char *policy, int cpus, int *cpu_after)
{
	struct sdt_run r;
	sl_time avg = -1;
	static sl_cpumask only1;

	*cpu_after = -1;
	if (!sdt_start(&r, cpus == 1 ? "pack:1 core:1 pu:1" : "pack:1 core:2 pu:1", policy,
		       250 * SL_MSEC))
		return -1;
	struct sdt_script *hog = sdt_hog(r.sim, 200, false);
	struct sdt_script *root = sdt_new(r.sim);
	sl_cpumask_clear(&only1);
	sl_cpumask_set(&only1, cpus - 1);
	sdt_add(root, (struct sl_action){ .kind = SL_ACT_FORK,
		.u.fork = { .prog = &sdt_prog, .state = hog, .comm = "hog", .allowed = &only1 } });
	sdt_add(root, sl_act_wait());
	sdt_add(root, sl_act_run(300 * SL_MSEC, SL_WC_INT));
	sl_sim_spawn_root(r.sim, &sdt_prog, root, "root");
	if (sdt_run(&r) && root->pc == 3) {
		avg = sd_of(sdt_find(r.sim, "root"))->sleep_avg;
		*cpu_after = root->cpu[2];
	}
	sl_sim_destroy(r.sim);
	return avg;
}

/*
 * 2.6.11 and 2.6.12.1 kernel/signal.c __wake_up_parent wake a parent with
 * wake_up_interruptible_sync.  w26's 2.6.0 base keeps a sync wakeup on the
 * waker's CPU quiet: the root gets no credit for the 200 ms it waited (it
 * got it while the exit wakeup was plain); 2.6.12's credits it, and both
 * run the parent at once: the wakeup comes while the dying child is still
 * current (exit_notify), so its CPU's schedule() finds the parent queued.
 */
SL_TEST(domains_exit_wakeup_is_sync)
{
	int cpu;
	sl_time avg = sdt_exit_wake("domains:version=w26", 1, &cpu);
	CHECKF(avg == 0 && cpu == 0, "w26: sleep_avg %.1f ms, ran on CPU %d",
	       (double)avg / SL_MSEC, cpu);
	avg = sdt_exit_wake("domains", 1, &cpu);
	CHECKF(avg > 100 * SL_MSEC && cpu == 0, "2.6.12: sleep_avg %.1f ms, ran on CPU %d",
	       (double)avg / SL_MSEC, cpu);
	/* two CPUs, the child on CPU 1: the sync wakeup takes one task off the
	 * waker's load (try_to_wake_up: this_load -= SCHED_LOAD_SCALE), so
	 * wake affine picks CPU 1; but the dying child is still CPU 1's
	 * current there, so wake_idle sends the parent to the idle CPU 0 */
	sdt_exit_wake("domains", 2, &cpu);
	CHECKF(cpu == 0, "2.6.12: the root ran on CPU %d after its child's exit on CPU 1", cpu);
}

/* ---- an idle balancer stays idle for its whole pass ---- */

/* can_migrate_task(): cpu_and_siblings_are_idle() reads idle_cpu(), i.e.
 * rq->curr, which stays the idle task while an idle balancer pulls; so
 * with its package idle it takes cache-hot tasks up to the imbalance, not
 * just the first.  Two packages: three hot hogs queued on CPU 0, CPU 1
 * idle pulls two in one pass. */
SL_TEST(domains_idle_pass_takes_hot_tasks)
{
	struct sdt_run r;

	CHECK(sdt_start(&r, "pack:2 core:1 pu:1", "domains", 600 * SL_MSEC));
	if (!r.sim)
		return;
	struct sdt_script *root = sdt_new(r.sim);
	sl_cpumask *cpu0 = sdt_cpu_mask(r.sim, 0);
	sdt_add(root, (struct sl_action){ .kind = SL_ACT_SETAFFINITY, .u.allowed = cpu0 });
	for (int i = 0; i < 4; i++)
		sdt_fork(root, sdt_hog(r.sim, 1000, false), "hog", false, 0);
	sdt_add(root, sl_act_wait());
	sl_sim_spawn_root(r.sim, &sdt_prog, root, "root");
	int pulled = -1, hot = 0;
	if (sdt_run(&r)) {
		struct sd_sched *s = sdt_sched(&r);
		struct sd_domain *sd = sd_rq(s, 1)->sd;
		for (struct sl_task *t = sl_task_first(r.sim); t; t = sl_task_next(t)) {
			if (strcmp(t->comm, "hog") || t->state != SL_TASK_RUNNABLE || t->cpu >= 0)
				continue;
			t->allowed = sl_topo(r.sim)->all_cpus;
			sd_of(t)->last_ran = sd_rq(s, 0)->timestamp_last_tick;
			hot += sd_task_hot(sd_of(t), sd_rq(s, 0)->timestamp_last_tick, sd);
		}
		/* a fresh domain: no failures that would lift the cache-hot rule */
		if (sd)
			sd->nr_balance_failed = 0;
		if (hot == 3 && sl_cpu_idle(r.sim, 1) && sd)
			pulled = sd_move_tasks(r.sim, s, 1, 0, 2, sd, SD_IDLE);
	}
	CHECKF(hot == 3 && pulled == 2, "%d hot hogs queued on CPU 0, CPU 1 pulled %d", hot,
	       pulled);
	sl_sim_destroy(r.sim);
}

/* ---- cpu_load decays over the ticks an idle machine skips ---- */

/* 2.6.12 rebalance_tick(): each tick takes cpu_load halfway to 128 x
 * nr_running.  A hog on one CPU of two runs 50 ms (cpu_load 128), sleeps
 * 100 ms with the machine idle (the engine skips those ticks) and runs
 * again: one tick after it woke, the skipped ticks' halvings have taken
 * cpu_load to 0 and that tick to (0 + 1 + 128) / 2. */
/* The hog of that run under `policy`, stopped at `stop`, running (NULL
 * on failure, r->sim NULL if it did not start); the caller destroys
 * r->sim. */
static struct sl_task *sdt_hog_gap(struct sdt_run *r, const char *policy, sl_time stop)
{
	CHECK(sdt_start(r, "pack:2 core:1 pu:1", policy, stop));
	if (!r->sim)
		return NULL;
	struct sdt_script *hog = sdt_new(r->sim);
	sdt_add(hog, sl_act_run(50 * SL_MSEC, SL_WC_INT));
	sdt_add(hog, sl_act_sleep(100 * SL_MSEC));
	sdt_add(hog, sl_act_run(50 * SL_MSEC, SL_WC_INT));
	struct sdt_script *root = sdt_new(r->sim);
	sdt_fork(root, hog, "hog", false, 0);
	sdt_add(root, sl_act_wait());
	sl_sim_spawn_root(r->sim, &sdt_prog, root, "root");
	struct sl_task *t = sdt_run(r) ? sdt_find(r->sim, "hog") : NULL;
	CHECK(t && t->cpu >= 0);
	return t && t->cpu >= 0 ? t : NULL;
}

static unsigned long sdt_hog_load_at(sl_time stop)
{
	struct sdt_run r;
	unsigned long load = ~0ul;
	struct sl_task *t = sdt_hog_gap(&r, "domains", stop);

	if (t)
		load = sd_rq(sdt_sched(&r), t->cpu)->cpu_load;
	if (r.sim)
		sl_sim_destroy(r.sim);
	return load;
}

/* The decay is done as the hog wakes (the engine's ticks_skipped), before
 * its wakeup reads cpu_load to place it, not at the tick after: half a
 * jiffy after the wakeup it is 0.  (Until Dec 2026 it was still 64, as
 * the one tick after the hog slept left it, until that tick.) */
SL_TEST(domains_cpu_load_decayed_when_the_machine_wakes)
{
	unsigned long load = sdt_hog_load_at(150500 * SL_USEC);
	CHECKF(load == 0, "cpu_load %lu half a jiffy after the wakeup", load);
}

SL_TEST(domains_cpu_load_decays_while_ticks_stop)
{
	unsigned long load = sdt_hog_load_at(151500 * SL_USEC);
	CHECKF(load == 64, "cpu_load %lu one tick after 100 idle ms", load);
}

/* ---- the idle balances of the ticks an idle machine skips ---- */

/* rebalance_tick() jiffy by jiffy over j0..jl with every balance finding
 * nothing (load_balance out_balanced doubles the interval up to
 * max_interval): what sd_idle_gap_balances must come to. */
static int64_t sdt_gap_by_jiffy(int hz, struct sd_domain *sd, int64_t j0, int64_t jl)
{
	int64_t n = 0;

	for (int64_t j = j0; j <= jl; j++) {
		int64_t interval = ((int64_t)sd->balance_interval * hz + 999) / 1000;
		if (interval < 1)
			interval = 1;
		if (j - sd->last_balance >= interval) {
			sd->last_balance += interval;
			if (sd->balance_interval < sd->p.max_interval)
				sd->balance_interval *= 2;
			n++;
		}
	}
	return n;
}

/* The replay of a gap (doubling, catch-up one balance a tick, the steady
 * tail counted) against the jiffy-by-jiffy rule, on the NUMA-Q's three
 * levels at HZ 1000 and 100, from random clocks and intervals. */
SL_TEST(domains_gap_replay_equals_each_jiffy)
{
	static const char *const policies[] = { "domains", "domains:hz=100" };
	uint64_t x = 12345;

	for (int p = 0; p < 2; p++) {
		struct sdt_run r;
		CHECK(sdt_start(&r, "numaq-16", policies[p], SL_MSEC));
		if (!r.sim)
			continue;
		struct sd_sched *s = sdt_sched(&r);
		int hz = p == 0 ? 1000 : 100, bad = 0, trials = 0;
		for (struct sd_domain *sd = sd_rq(s, 5)->sd; sd; sd = sd->parent) {
			struct sd_domain keep = *sd;
			for (int k = 0; k < 300; k++, trials++) {
				x = x * 6364136223846793005ULL + 1442695040888963407ULL;
				int64_t j0 = 1000 + (int64_t)(x >> 40) % 500;
				int64_t jl = j0 + (int64_t)(x >> 20) % 5000;
				struct sd_domain a = keep, b;
				a.last_balance = j0 - 1 - (int64_t)(x >> 8) % 3000;
				a.balance_interval = keep.p.min_interval << ((x >> 4) % 4);
				a.ivl_ms = 0;
				b = a;
				int64_t na = sd_idle_gap_balances(s, &a, j0, jl);
				int64_t nb = sdt_gap_by_jiffy(hz, &b, j0, jl);
				if ((na != nb || a.last_balance != b.last_balance ||
				     a.balance_interval != b.balance_interval) && bad++ < 3)
					fprintf(stderr, "  level %d: %lld balances to %lld / %d ms, by jiffy "
						"%lld to %lld / %d ms\n", (int)sd->level, (long long)na,
						(long long)a.last_balance, a.balance_interval,
						(long long)nb, (long long)b.last_balance,
						b.balance_interval);
			}
		}
		CHECKF(bad == 0 && trials >= 600, "%s: %d of %d gaps differ", policies[p], bad, trials);
		sl_sim_destroy(r.sim);
	}
}

/* w26: each idle balance of the gap halved the balancer's memory of every
 * CPU of the domain (sd_guess with nothing running), so CPU 1's memory of
 * CPU 0, where the hog ran, is 0 when the hog wakes after 100 ms asleep,
 * not the 64-128 its last balances left. */
SL_TEST(domains_w26_memory_ages_while_ticks_stop)
{
	struct sdt_run r;
	unsigned long mem = ~0ul;
	struct sl_task *t = sdt_hog_gap(&r, "domains:version=w26", 150500 * SL_USEC);

	if (t)
		mem = sd_rq(sdt_sched(&r), 1 - t->cpu)->cpu_loads[t->cpu];
	CHECKF(mem == 0, "the idle CPU's memory of the hog's CPU: %lu", mem);
	if (r.sim)
		sl_sim_destroy(r.sim);
}

/* 2.6.12 rebalance_tick(): msecs_to_jiffies() rounds up, so at HZ 100 the
 * physical level's busy interval (balance_interval x busy_factor 64: 64
 * ms at 1 ms, 128 ms at 2) is 7 or 13 jiffies, not 6 or 12. */
SL_TEST(domains_interval_rounds_up)
{
	struct sdt_run r;

	CHECK(sdt_start(&r, "pack:2 core:1 pu:1", "domains:hz=100", 100 * SL_MSEC));
	if (!r.sim)
		return;
	struct sdt_script *root = sdt_new(r.sim);
	sdt_add(root, sl_act_run(200 * SL_MSEC, SL_WC_INT));
	sl_sim_spawn_root(r.sim, &sdt_prog, root, "root");
	if (sdt_run(&r)) {
		struct sd_domain *sd = sd_rq(sdt_sched(&r), 0)->sd;
		CHECK(sd != NULL);
		if (sd)
			CHECKF((sd->ivl_ms * 64) % 10 != 0 &&
			       sd->ivl_j[1] == (sd->ivl_ms * 64 * 100 + 999) / 1000,
			       "balance_interval %d ms, busy: %lld jiffies", (int)sd->ivl_ms,
			       (long long)sd->ivl_j[1]);
	}
	sl_sim_destroy(r.sim);
}

/* ---- wake_idle: an idle CPU is one running its idle task ---- */

/*
 * 2.6.12.1 wake_idle() asks idle_cpu(), which reads only what a CPU runs.
 * Four CPUs in one package, reschedule IPIs of 500 us: B and C sleep on
 * channels, last run on CPU 0; the root, running on CPU 0, writes to both
 * in one instant.  B goes to the first idle CPU, 1, whose IPI is then in
 * flight; CPU 1 still runs its idle task, so C goes there too and waits
 * behind B until an idle CPU pulls it.  (The model asked for an empty
 * runqueue as well until Dec 2026, and sent C to CPU 2, to start beside
 * B.)
 */
SL_TEST(domains_wake_idle_reads_what_runs)
{
	struct sdt_run r;

	CHECK(sdt_start(&r, "pack:1 core:4 pu:1,arch=i386,ipi=500", "domains", 200 * SL_MSEC));
	if (!r.sim)
		return;
	sl_cpumask *cpu0 = sdt_cpu_mask(r.sim, 0);
	const sl_cpumask *all = &sl_topo(r.sim)->all_cpus;
	struct sl_chan *ch[2] = { sl_chan_new(r.sim, 4096, false), sl_chan_new(r.sim, 4096, false) };
	struct sdt_script *kid[2], *root = sdt_new(r.sim);
	sdt_add(root, (struct sl_action){ .kind = SL_ACT_SETAFFINITY, .u.allowed = cpu0 });
	for (int i = 0; i < 2; i++) {
		kid[i] = sdt_new(r.sim);
		sdt_add(kid[i], (struct sl_action){ .kind = SL_ACT_SETAFFINITY, .u.allowed = all });
		sdt_add(kid[i], sl_act_chan(SL_ACT_CHAN_READ, ch[i], 1));
		sdt_add(kid[i], sl_act_run(5 * SL_MSEC, SL_WC_INT));
		sdt_fork(root, kid[i], i ? "c" : "b", false, 0);
	}
	sdt_add(root, sl_act_sleep(2 * SL_MSEC));	/* the children block on CPU 0 */
	sdt_add(root, sl_act_run(1 * SL_MSEC, SL_WC_INT));
	sdt_add(root, sl_act_chan(SL_ACT_CHAN_WRITE, ch[0], 1));
	sdt_add(root, sl_act_chan(SL_ACT_CHAN_WRITE, ch[1], 1));
	sdt_add(root, sl_act_run(10 * SL_MSEC, SL_WC_INT));
	sdt_add(root, sl_act_wait());
	sdt_add(root, sl_act_wait());
	sl_sim_spawn_root(r.sim, &sdt_prog, root, "root");
	CHECK(sdt_run(&r));
	/* step 2 asks for the work: the read returned, the task runs */
	double b_ms = sl_ns_to_s(kid[0]->at[2]) * 1e3, c_ms = sl_ns_to_s(kid[1]->at[2]) * 1e3;
	CHECKF(kid[0]->cpu[1] == 0 && kid[1]->cpu[1] == 0, "b and c blocked on CPUs %d and %d",
	       kid[0]->cpu[1], kid[1]->cpu[1]);
	CHECKF(kid[0]->cpu[2] == 1 && c_ms > b_ms + 0.4,
	       "b runs on CPU %d at %.3f ms, c on CPU %d at %.3f ms", kid[0]->cpu[2], b_ms,
	       kid[1]->cpu[2], c_ms);
	sl_sim_destroy(r.sim);
}

/* When `b` first moved to CPU 0, and when `root` first moved to CPU 1. */
struct sdt_moves {
	sl_time b_to0, root_to1;
};

static void sdt_watch_moves(void *ctx, sl_time now, const struct sl_task *t, int from_cpu,
			    int to_cpu)
{
	struct sdt_moves *m = ctx;

	(void)from_cpu;
	if (!strcmp(t->comm, "b") && to_cpu == 0 && m->b_to0 < 0)
		m->b_to0 = now;
	if (!strcmp(t->comm, "root") && to_cpu == 1 && m->root_to1 < 0)
		m->root_to1 = now;
}

/*
 * 2.6.12.1 migration_thread(): with its queue empty the thread calls
 * schedule() as rq->curr, and when that leaves the runqueue empty,
 * idle_balance's can_migrate_task finds cpu_and_siblings_are_idle(this_cpu)
 * false (idle_cpu reads rq->curr), so a cache-hot task stays where it is;
 * the next idle tick's balance, run by the idle task, takes it.  Two
 * packages of one CPU: b moves itself to CPU 1 and forks a (pinned there,
 * child first), so b waits there, hot; root, on CPU 0, then pins itself to
 * CPU 1 and its migration thread leaves CPU 0 empty.  b comes to CPU 0 at
 * a tick, after root's move, not at the end of the thread's run (as it did
 * until Dec 2026, when the model counted CPU 0 idle in that schedule()).
 */
SL_TEST(domains_migration_thread_is_not_idle_to_its_balance)
{
	struct sdt_run r;
	struct sdt_moves m = { -1, -1 };
	struct sl_observer obs = { .ctx = &m, .sched_migrate = sdt_watch_moves };

	CHECK(sdt_start_obs(&r, "pack:2 core:1 pu:1,arch=i386", "domains", 100 * SL_MSEC, &obs));
	if (!r.sim)
		return;
	sl_cpumask *cpu1 = sdt_cpu_mask(r.sim, 1);
	const sl_cpumask *all = &sl_topo(r.sim)->all_cpus;
	struct sdt_script *root = sdt_new(r.sim), *b = sdt_new(r.sim), *a = sdt_hog(r.sim, 50, false);
	sdt_add(b, (struct sl_action){ .kind = SL_ACT_SETAFFINITY, .u.allowed = all });
	sdt_add(b, sl_act_run(5 * SL_MSEC, SL_WC_INT));
	sdt_add(b, (struct sl_action){ .kind = SL_ACT_FORK,
		.u.fork = { .prog = &sdt_prog, .state = a, .comm = "a", .allowed = cpu1 } });
	sdt_add(b, sl_act_run(40 * SL_MSEC, SL_WC_INT));
	sdt_add(b, sl_act_wait());
	sdt_add(root, (struct sl_action){ .kind = SL_ACT_FORK,
		.u.fork = { .prog = &sdt_prog, .state = b, .comm = "b", .allowed = cpu1 } });
	sdt_add(root, sl_act_run(6 * SL_MSEC, SL_WC_INT));
	sdt_add(root, (struct sl_action){ .kind = SL_ACT_SETAFFINITY, .u.allowed = cpu1 });
	sdt_add(root, sl_act_run(1 * SL_MSEC, SL_WC_INT));
	sdt_add(root, sl_act_wait());
	sl_sim_spawn_root(r.sim, &sdt_prog, root, "root");
	CHECK(sdt_run(&r));
	double root_ms = sl_ns_to_s(m.root_to1) * 1e3, b_ms = sl_ns_to_s(m.b_to0) * 1e3;
	CHECKF(b->cpu[2] == 1 && m.root_to1 > 0 && m.b_to0 > m.root_to1 &&
	       m.b_to0 % SL_MSEC == 0 && m.b_to0 - m.root_to1 <= SL_MSEC,
	       "b forked a on CPU %d; root to CPU 1 at %.4f ms, b to CPU 0 at %.4f ms",
	       b->cpu[2], root_ms, b_ms);
	sl_sim_destroy(r.sim);
}

/* ---- set_user_nice ---- */

/*
 * 2.6.12.1 set_user_nice() takes the delta from the dynamic prio: a hog at
 * prio 125 (no sleep, bonus -5) reniced from 0 to 1 lands on its new
 * static prio, 121, and rises (its bonus comes back at its next expiry).
 * The model shifted the dynamic prio by the change of static prio until
 * Dec 2026: 126.
 */
SL_TEST(domains_renice_lands_on_static_prio)
{
	struct sdt_run r;

	CHECK(sdt_start(&r, "pack:1 core:1 pu:1,arch=i386", "domains", 260 * SL_MSEC));
	if (!r.sim)
		return;
	struct sdt_script *hog = sdt_new(r.sim), *root = sdt_new(r.sim);
	sdt_add(hog, sl_act_run(250 * SL_MSEC, SL_WC_INT));
	sdt_add(hog, (struct sl_action){ .kind = SL_ACT_SETSCHED,
					 .u.setsched = { .sched_policy = SL_SCHED_NORMAL, .nice = 1 } });
	sdt_add(hog, sl_act_run(50 * SL_MSEC, SL_WC_INT));
	sdt_fork(root, hog, "hog", false, 0);
	sdt_add(root, sl_act_wait());
	sl_sim_spawn_root(r.sim, &sdt_prog, root, "root");
	CHECK(sdt_run(&r));
	struct sl_task *t = sdt_find(r.sim, "hog");
	CHECKF(t && hog->pc == 3 && sd_of(t)->static_prio == 121 && sd_of(t)->prio == 121,
	       "hog at step %d: static prio %d, prio %d", hog->pc, t ? sd_of(t)->static_prio : -1,
	       t ? sd_of(t)->prio : -1);
	sl_sim_destroy(r.sim);
}

/* wake_idle is compiled with CONFIG_SCHED_SMT: the i386 and x86_64
 * defconfigs of 2.6.12.1 set it; ia64's never defined it. */
SL_TEST(domains_wake_idle_by_arch)
{
	static const struct {
		const char *machine, *policy;
		bool on;
	} cases[] = {
		{ "pack:2 core:1 pu:2,arch=i386", "domains", true },
		{ "pack:2 core:1 pu:2,arch=x86_64", "domains", true },
		{ "pack:2 core:1 pu:2,arch=ia64", "domains", false },
		{ "pack:2 core:1 pu:2,arch=ia64", "domains:wake_idle=on", true },
		{ "pack:2 core:1 pu:2,arch=i386", "domains:wake_idle=off", false },
	};
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct sdt_run r;
		CHECK(sdt_start(&r, cases[i].machine, cases[i].policy, SL_MSEC));
		if (!r.sim)
			continue;
		CHECKF(sdt_sched(&r)->wake_idle == cases[i].on, "%s on %s", cases[i].policy,
		       cases[i].machine);
		sl_sim_destroy(r.sim);
	}
}

/* ---- a caller of set_cpus_allowed waits for its own move ---- */

/* 2.6.12.1 set_cpus_allowed(): a task that takes its own CPU out of its
 * mask wakes the migration thread and sleeps in wait_for_completion()
 * until the thread has moved it, so its next step is on the new CPU. */
SL_TEST(domains_set_cpus_allowed_caller_waits_for_its_move)
{
	struct sdt_run r;

	CHECK(sdt_start(&r, "pack:2 core:1 pu:1", "domains", 100 * SL_MSEC));
	if (!r.sim)
		return;
	struct sdt_script *root = sdt_new(r.sim);
	sdt_add(root, (struct sl_action){ .kind = SL_ACT_SETAFFINITY,
					  .u.allowed = sdt_cpu_mask(r.sim, 1) });
	sdt_add(root, sl_act_run(1e6, SL_WC_INT));
	sl_sim_spawn_root(r.sim, &sdt_prog, root, "root");
	if (sdt_run(&r))
		CHECKF(root->cpu[0] == 0 && root->cpu[1] == 1,
		       "set_cpus_allowed on CPU %d, the next step on CPU %d", root->cpu[0],
		       root->cpu[1]);
	sl_sim_destroy(r.sim);
}

/* ---- a vfork()ed child that exec balancing moves wakes its parent there ---- */

struct sdt_vfork_wake {
	int waker_cpu, woken_cpu;	/* of the root's wakeup, and where it ran first */
	sl_time woken_at, ran_at;
	sl_time moved_at;		/* x's switch in on CPU 1 */
};

static void sdt_vfork_note_wakeup(void *ctx, sl_time now, const struct sl_task *t, int waker_cpu)
{
	struct sdt_vfork_wake *w = ctx;
	if (strcmp(t->comm, "root") == 0 && w->moved_at >= 0 && w->waker_cpu < 0) {
		w->waker_cpu = waker_cpu;
		w->woken_at = now;
	}
}

static void sdt_vfork_note_switch(void *ctx, sl_time now, int cpu, const struct sl_task *prev,
				  const struct sl_task *next)
{
	struct sdt_vfork_wake *w = ctx;
	(void)prev;
	if (cpu == 1 && next && strcmp(next->comm, "x2") == 0 && w->moved_at < 0)
		w->moved_at = now;
	if (next && strcmp(next->comm, "root") == 0 && w->woken_at >= 0 && w->ran_at < 0) {
		w->ran_at = now;
		w->woken_cpu = cpu;
	}
}

/*
 * 2.6.12.1 do_execve() calls sched_exec() first; the new image's
 * exec_mmap() then runs mm_release(), which completes a vfork()ing
 * parent's wait: on the CPU exec balancing moved the task to, after the
 * move.  Two CPUs: the root and a hog are held on CPU 0; the root vforks
 * x there, x execs with the hog queued beside it, sched_exec sends it to
 * idle CPU 1, and the root's wakeup comes from there when x first runs
 * there.  With `free_root` the root, at nice -5, may then run on CPU 1
 * too, where the wakeup (wake_affine) takes it and it preempts x at once
 * (CONFIG_PREEMPT: preempt_enable after try_to_wake_up; preempt=full, as
 * the i386 presets), in the same schedule() that switched x in.  With
 * `busy_dest` CPU 0 holds two hogs and CPU 1 a third, pinned: x still goes
 * to CPU 1 but waits there for the hog's timeslice to end, so it is
 * switched in by a tick's schedule(), which acts on need_resched once:
 * the preemption must still come at once, not at x's return to user space
 * after its exec's costs.
 */
static bool sdt_vfork_exec(bool free_root, bool busy_dest, struct sdt_vfork_wake *w,
			   int *exec_cpu, int *ran_cpu)
{
	struct sl_observer obs = { .ctx = w, .sched_wakeup = sdt_vfork_note_wakeup,
				   .sched_switch = sdt_vfork_note_switch };
	struct sdt_run r;

	*w = (struct sdt_vfork_wake){ .waker_cpu = -1, .woken_cpu = -1, .woken_at = -1,
				      .ran_at = -1, .moved_at = -1 };
	if (!sdt_start_obs(&r, "pack:2 core:1 pu:1", "domains:preempt=full", 2 * SL_SEC, &obs))
		return false;
	struct sdt_script *x = sdt_new(r.sim);
	sdt_add(x, (struct sl_action){ .kind = SL_ACT_EXEC, .u.exec = { "x2" } });
	sdt_add(x, sl_act_run(5 * SL_MSEC, SL_WC_INT));
	sl_cpumask *both = sdt_cpu_mask(r.sim, 0);
	sl_cpumask_set(both, 1);
	struct sdt_script *root = sdt_new(r.sim);
	sdt_add(root, (struct sl_action){ .kind = SL_ACT_SETAFFINITY,
					  .u.allowed = sdt_cpu_mask(r.sim, 0) });
	sdt_fork(root, sdt_hog(r.sim, busy_dest ? 300 : 60, false), "hog", false, 0);
	if (busy_dest) {
		sdt_fork(root, sdt_hog(r.sim, 300, false), "hog2", false, 0);
		sdt_add(root, (struct sl_action){ .kind = SL_ACT_FORK,
			.u.fork = { .prog = &sdt_prog, .state = sdt_hog(r.sim, 600, false),
				    .comm = "hog1",
				    .allowed = sdt_cpu_mask(r.sim, 1) } });
	}
	if (free_root)
		sdt_add(root, (struct sl_action){ .kind = SL_ACT_SETSCHED,
			.u.setsched = { .sched_policy = SL_SCHED_NORMAL, .nice = -5 } });
	sdt_add(root, sl_act_run(30 * SL_MSEC, SL_WC_INT));	/* CPU 0's load */
	if (free_root)
		sdt_add(root, (struct sl_action){ .kind = SL_ACT_SETAFFINITY, .u.allowed = both });
	sdt_add(root, (struct sl_action){ .kind = SL_ACT_FORK,
		.u.fork = { .prog = &sdt_prog, .state = x, .comm = "x", .vfork = true,
			    .allowed = both, .set_nice = free_root, .nice = 0 } });
	sdt_add(root, sl_act_run(1 * SL_MSEC, SL_WC_INT));
	for (int i = 0; i < (busy_dest ? 4 : 2); i++)
		sdt_add(root, sl_act_wait());
	sl_sim_spawn_root(r.sim, &sdt_prog, root, "root");
	bool ok = sdt_run(&r);
	*exec_cpu = x->cpu[0];
	*ran_cpu = x->cpu[1];
	sl_sim_destroy(r.sim);
	return ok;
}

SL_TEST(domains_exec_move_wakes_vfork_parent_from_the_new_cpu)
{
	struct sdt_vfork_wake w;
	int exec_cpu = -1, ran_cpu = -1;

	if (sdt_vfork_exec(false, false, &w, &exec_cpu, &ran_cpu)) {
		CHECKF(exec_cpu == 0 && ran_cpu == 1, "exec on CPU %d, ran on CPU %d", exec_cpu,
		       ran_cpu);
		CHECKF(w.waker_cpu == 1 && w.moved_at >= 0 && w.woken_at == w.moved_at,
		       "root woken from CPU %d at %lld ns, x on CPU 1 at %lld ns", w.waker_cpu,
		       (long long)w.woken_at, (long long)w.moved_at);
	}
	for (int busy = 0; busy < 2; busy++) {
		CHECK(sdt_vfork_exec(true, busy, &w, &exec_cpu, &ran_cpu));
		CHECKF(exec_cpu == 0 && w.waker_cpu == 1 && w.woken_at == w.moved_at &&
		       w.woken_cpu == 1 && w.ran_at == w.woken_at,
		       "busy %d: exec on CPU %d (ran on %d); root woken from CPU %d at %lld ns (x there at "
		       "%lld), ran on CPU %d at %lld ns", busy, exec_cpu, ran_cpu, w.waker_cpu,
		       (long long)w.woken_at, (long long)w.moved_at, w.woken_cpu,
		       (long long)w.ran_at);
	}
}
