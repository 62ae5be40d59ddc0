/*
 * test_cfs.c - policy `cfs` (today's Linux fair scheduler): the timeline
 * tree against a brute-force model, the knobs and the tunables they
 * derive, the domains built from a few machines, and scenario tests that
 * pin its distinctive decisions on tiny machines: a woken task takes a
 * wholly idle core before an idle sibling; two hogs on a 2x2 HT box end on
 * different cores, by fork placement or by the balancer; CPU shares follow
 * the nice weights; a sleeper does not starve beside hogs; a CPU going idle
 * pulls at once; a task returns to its NUMA home node once it has room;
 * 6.12's DELAY_DEQUEUE, PLACE_REL_DEADLINE, PREEMPT_SHORT, RUN_TO_PARITY
 * after a re-pick, and SIS_UTIL's bound on the wakeup search; PELT removal
 * waiting for the next runqueue update; and mixed
 * loads on every preset run clean and deterministically.
 *
 * Every run has the engine's invariant checks on, which also run the
 * policy's own check op (trees, counts, loads, NUMA counts) after each
 * event.  The policy is not registered yet, so runs bind its knobs with
 * sl_spec_parse + sl_spec_bind against &sl_policy_cfs directly.
 */
#include <string.h>

#include "base/spec.h"
#include "bounds.h"
#include "checked_run.h"
#include "hw/machine.h"
#include "policy/cfs/cfs.h"
#include "report/run.h"
#include "sim/sim.h"
#include "test.h"
#include "workload/workload.h"

/* ---- the timeline against a brute-force model ---- */

#define CFST_N 200

static uint64_t cfst_lcg(uint64_t *x)
{
	*x = *x * 6364136223846793005ULL + 1442695040888963407ULL;
	return *x >> 33;
}

SL_TEST(cfs_timeline_tree)
{
	static struct sl_task tasks[CFST_N];
	static struct {
		struct cfs_entity se;
		char pad[64];
	} area[CFST_N];
	bool in[CFST_N] = { false };
	struct cfs_timeline tl;
	struct sl_err err;
	uint64_t x = 42;
	int fails = 0;

	cfs_tl_init(&tl);
	for (int i = 0; i < CFST_N; i++) {
		memset(&tasks[i], 0, sizeof(tasks[i]));
		tasks[i].id = i;
		tasks[i].policy_area = &area[i].se;
		area[i].se.task = &tasks[i];
	}
	for (int step = 0; step < 4000 && fails < 5; step++) {
		int i = (int)(cfst_lcg(&x) % CFST_N);
		struct cfs_entity *se = &area[i].se;
		if (in[i]) {
			cfs_tl_erase(&tl, se);
			in[i] = false;
		} else {
			/* few distinct keys: ties must be broken by id */
			se->vruntime = (int64_t)(cfst_lcg(&x) % 50) - 10;
			se->deadline = se->vruntime + (int64_t)(cfst_lcg(&x) % 40);
			cfs_tl_insert(&tl, se);
			in[i] = true;
		}
		if (cfs_tl_check(&tl, 0, &err)) {
			CHECKF(0, "step %d: %s", step, err.msg);
			fails++;
			continue;
		}
		/* in-order walk = sorted (vruntime, id) of the members */
		const struct cfs_entity *prev = NULL;
		int n = 0;
		for (const struct cfs_entity *e = cfs_tl_first(&tl); e; e = cfs_tl_next(e), n++)
			if (prev && (prev->vruntime > e->vruntime ||
				     (prev->vruntime == e->vruntime && prev->task->id > e->task->id)))
				fails++;
			else
				prev = e;
		/* the EEVDF pick = the brute-force earliest eligible deadline,
		 * eligibility written out here ((v - zero) * load <= avg, the
		 * definition in cfs/timeline.h), not cfs_tl_eligible's: a
		 * reference calling the function under test moves with it */
		struct cfs_eligible el = { .zero = -10, .load = 0, .avg = 0 };
		for (int k = 0; k < CFST_N; k++)
			if (in[k]) {
				el.avg += (area[k].se.vruntime - el.zero) * 3;
				el.load += 3;
			}
		const struct cfs_entity *best = NULL;
		for (int k = 0; k < CFST_N; k++) {
			const struct cfs_entity *e = &area[k].se;
			if (!in[k] || (e->vruntime - el.zero) * el.load > el.avg)
				continue;
			if (!best || e->deadline < best->deadline ||
			    (e->deadline == best->deadline && e->task->id < best->task->id))
				best = e;
		}
		if (cfs_tl_pick_eevdf(&tl, &el) != best || n != tl.nr)
			fails++;
	}
	CHECKF(fails == 0, "%d mismatches against the model", fails);
	CHECK(tl.nr > 0);
}

/*
 * EEVDF by hand.  An entity is eligible when its vruntime is at most the
 * load-weighted average V of the queue's vruntimes (lag >= 0), equality
 * included: a lone entity, or one exactly at V, has zero lag and must be
 * eligible.  The pick is the earliest virtual deadline among the eligible
 * ones (ties: lower task id).  Every expected value below is worked out
 * in the comments, not with the code under test.
 */
struct cfst_hand { int64_t v, d; long w; };

/* Queue `n` entities (ids 0..n-1) with the average taken about `zero`;
 * the index of the pick, or -1 for none. */
static int cfst_hand_pick(const struct cfst_hand *h, int n, int64_t zero)
{
	static struct sl_task tasks[8];
	static struct cfs_entity se[8];
	struct cfs_timeline tl;
	struct cfs_eligible el = { .zero = zero };

	cfs_tl_init(&tl);
	for (int i = 0; i < n; i++) {
		memset(&tasks[i], 0, sizeof(tasks[i]));
		memset(&se[i], 0, sizeof(se[i]));
		tasks[i].id = i;
		se[i].task = &tasks[i];
		se[i].vruntime = h[i].v;
		se[i].deadline = h[i].d;
		el.avg += (h[i].v - zero) * h[i].w;
		el.load += h[i].w;
		cfs_tl_insert(&tl, &se[i]);
	}
	struct cfs_entity *p = cfs_tl_pick_eevdf(&tl, &el);
	return p ? (int)(p - se) : -1;
}

SL_TEST(cfs_eevdf_hand_worked)
{
	/* weights 1, 1, 1 at v 0, 10, 20: V = 30 / 3 = 10 */
	struct cfs_eligible el = { .zero = 0, .avg = 30, .load = 3 };
	CHECK(cfs_tl_eligible(&el, 0));
	CHECK(cfs_tl_eligible(&el, 10));	/* at V: lag 0, eligible */
	CHECK(!cfs_tl_eligible(&el, 11));
	/* weights 1024 at v 100 and 2048 at v 130, about zero = 100:
	 * avg = 0 * 1024 + 30 * 2048 = 61440, load 3072, V = 100 + 20 = 120 */
	el = (struct cfs_eligible){ .zero = 100, .avg = 61440, .load = 3072 };
	CHECK(cfs_tl_eligible(&el, 120));
	CHECK(!cfs_tl_eligible(&el, 121));
	CHECK(cfs_tl_eligible(&el, 90));
	/* below zero: weights 2 at v 4 and 1 at v 16, zero = 10:
	 * avg = -6 * 2 + 6 * 1 = -6, load 3, V = 10 - 2 = 8 */
	el = (struct cfs_eligible){ .zero = 10, .avg = -6, .load = 3 };
	CHECK(cfs_tl_eligible(&el, 8));
	CHECK(!cfs_tl_eligible(&el, 9));

	/* V = 10: 0 and 1 eligible (1 exactly at V), 2 not; of 0 (d 50) and
	 * 1 (d 15) the earlier deadline is 1's, though 2's (12) is earlier */
	const struct cfst_hand three[] = { { 0, 50, 1 }, { 10, 15, 1 }, { 20, 12, 1 } };
	CHECKF(cfst_hand_pick(three, 3, 0) == 1, "pick %d", cfst_hand_pick(three, 3, 0));
	/* a lone entity is at V: always picked */
	const struct cfst_hand lone[] = { { 5, 9, 1024 } };
	CHECK(cfst_hand_pick(lone, 1, 0) == 0);
	CHECK(cfst_hand_pick(lone, 1, 5) == 0);
	/* two at the same v are both at V; equal deadlines: lower id */
	const struct cfst_hand tie[] = { { 10, 30, 1 }, { 10, 30, 1 } };
	CHECK(cfst_hand_pick(tie, 2, 0) == 0);
	/* weights 1024 at v 100 (d 200) and 2048 at v 120 (d 150), zero 100:
	 * avg = 20 * 2048 = 40960, load 3072, V = 113.3: only 0 eligible */
	const struct cfst_hand heavy[] = { { 100, 200, 1024 }, { 120, 150, 2048 } };
	CHECK(cfst_hand_pick(heavy, 2, 100) == 0);
	/* the heavier entity pulls V towards itself: 2048 at v 110 (d 300)
	 * and 1024 at v 140 (d 100), zero 100: avg = 10 * 2048 + 40 * 1024 =
	 * 61440, load 3072, V = 120: only 0 eligible, despite 1's deadline */
	const struct cfst_hand pull[] = { { 110, 300, 2048 }, { 140, 100, 1024 } };
	CHECK(cfst_hand_pick(pull, 2, 100) == 0);
	/* seven entities of weight 1 at v 0..60 step 10: V = 30; eligible
	 * 0..3 (3 at V); deadlines 70, 65, 60, 55, 10, 20, 30: pick 3 */
	const struct cfst_hand seven[] = { { 0, 70, 1 }, { 10, 65, 1 }, { 20, 60, 1 },
					   { 30, 55, 1 }, { 40, 10, 1 }, { 50, 20, 1 },
					   { 60, 30, 1 } };
	CHECKF(cfst_hand_pick(seven, 7, 0) == 3, "pick %d", cfst_hand_pick(seven, 7, 0));
}

/* ---- a scripted program: do acts[] in order, note when and where ---- */

#define CFST_MAX_ACTS 80

struct cfst_script {
	int n, pc;
	struct sl_action acts[CFST_MAX_ACTS];
	bool set_aff[CFST_MAX_ACTS];		/* sched_setaffinity before act i */
	sl_cpumask aff[CFST_MAX_ACTS];
	sl_time at[CFST_MAX_ACTS + 1];		/* when act i was asked for */
	int cpu[CFST_MAX_ACTS + 1];		/* on which CPU */
	sl_time node_ns[2];			/* time on nodes 0 and 1 at the last step */
	int64_t vlag[CFST_MAX_ACTS + 1];	/* its EEVDF lag then (as last dequeued) */
	sl_time sum_exec[CFST_MAX_ACTS + 1];	/* its CPU time as last accounted then */
};

static void cfst_step(struct sl_sim *sim, struct sl_task *t, struct sl_action *next)
{
	struct cfst_script *s = t->prog_state;

	s->at[s->pc] = sl_now(sim);
	s->cpu[s->pc] = t->cpu;
	s->vlag[s->pc] = cfs_se(t)->vlag;
	s->sum_exec[s->pc] = cfs_se(t)->sum_exec;
	s->node_ns[0] = t->node_ns[0];
	s->node_ns[1] = t->node_ns[1];
	if (s->pc < s->n && s->set_aff[s->pc])
		t->allowed = s->aff[s->pc];
	*next = s->pc < s->n ? s->acts[s->pc++] : sl_act_exit();
}

static const struct sl_prog cfst_prog = { .name = "cfst", .step = cfst_step };

static struct cfst_script *cfst_new(struct sl_sim *sim)
{
	return sl_sim_alloc(sim, sizeof(struct cfst_script));
}

static void cfst_add(struct cfst_script *s, struct sl_action a)
{
	if (s->n < CFST_MAX_ACTS)
		s->acts[s->n++] = a;
}

static void cfst_fork(struct cfst_script *s, struct cfst_script *child, const char *comm, int nice)
{
	cfst_add(s, (struct sl_action){ .kind = SL_ACT_FORK,
		.u.fork = { .prog = &cfst_prog, .state = child, .comm = comm,
			    .set_nice = true, .nice = nice } });
}

/* The next action runs with this affinity (a task may pin itself). */
static void cfst_affinity(struct cfst_script *s, sl_cpumask m)
{
	if (s->n < CFST_MAX_ACTS) {
		s->set_aff[s->n] = true;
		s->aff[s->n] = m;
	}
}

static struct cfst_script *cfst_hog(struct sl_sim *sim, double ms)
{
	struct cfst_script *s = cfst_new(sim);
	cfst_add(s, sl_act_run(ms * SL_MSEC, SL_WC_INT));
	return s;
}

/* sched_setaffinity on itself, to `m` (which must outlive the run). */
static struct sl_action cfst_setaffinity(const sl_cpumask *m)
{
	return (struct sl_action){ .kind = SL_ACT_SETAFFINITY, .u.allowed = m };
}

/* A mask of `cpu` alone, living as long as the run. */
static sl_cpumask *cfst_cpu_mask(struct sl_sim *sim, int cpu)
{
	sl_cpumask *m = sl_sim_alloc(sim, sizeof(*m));
	sl_cpumask_clear(m);
	sl_cpumask_set(m, cpu);
	return m;
}

/* sched_setaffinity on itself, to `cpu` alone. */
static struct sl_action cfst_pin(struct sl_sim *sim, int cpu)
{
	return cfst_setaffinity(cfst_cpu_mask(sim, cpu));
}

static struct sl_task *cfst_find(struct sl_sim *sim, const char *comm)
{
	for (struct sl_task *t = sl_task_first(sim); t; t = sl_task_next(t))
		if (!strcmp(t->comm, comm))
			return t;
	return NULL;
}

/* ---- building a run ---- */

struct cfst_run {
	struct sl_machine machine;
	struct sl_params knobs;
	struct sl_sim *sim;
	struct sl_err err;
};

/* Bind "cfs[:knob=value,...]" as the registry would. */
static int cfst_bind(const char *text, struct sl_params *p, struct sl_err *err)
{
	static const char *const extra[] = { "label", NULL };
	struct sl_spec spec;

	*err = (struct sl_err){ 0 };
	if (sl_spec_parse(&spec, text, "policy", err))
		return -1;
	if (strcmp(spec.name, "cfs"))
		return sl_fail(err, "policy '%s': not cfs", spec.name);
	return sl_spec_bind(p, &spec, sl_policy_cfs.knobs, extra, "policy 'cfs'", err);
}

static bool cfst_start(struct cfst_run *r, const char *machine, const char *policy, sl_time limit)
{
	memset(r, 0, sizeof(*r));
	if (sl_machine_load(&r->machine, machine, &r->err) || cfst_bind(policy, &r->knobs, &r->err)) {
		fprintf(stderr, "cfst_start: %s\n", r->err.msg);
		return false;
	}
	struct sl_sim_config cfg = {
		.machine = &r->machine, .policy = &sl_policy_cfs, .knobs = &r->knobs,
		.seed = 1, .time_limit = limit, .check = true,
	};
	r->sim = sl_sim_create(&cfg, &r->err);
	if (!r->sim)
		fprintf(stderr, "cfst_start: %s\n", r->err.msg);
	return r->sim != NULL;
}

static bool cfst_run(struct cfst_run *r)
{
	if (sl_sim_run(r->sim, &r->err) == 0)
		return true;
	fprintf(stderr, "cfst_run: %s\n", r->err.msg);
	return false;
}

/* A root that forks one hog of `ms` named "hog" and waits for it. */
static void cfst_spawn_hog(struct cfst_run *r, double ms)
{
	struct cfst_script *root = cfst_new(r->sim);

	cfst_fork(root, cfst_hog(r->sim, ms), "hog", 0);
	cfst_add(root, sl_act_wait());
	sl_sim_spawn_root(r->sim, &cfst_prog, root, "root");
}

/* A root that forks `a` then `b` (names and nices as given) and waits for
 * both. */
static void cfst_spawn_two(struct cfst_run *r, struct cfst_script *a, const char *a_name, int a_nice,
			   struct cfst_script *b, const char *b_name, int b_nice)
{
	struct cfst_script *root = cfst_new(r->sim);

	cfst_fork(root, a, a_name, a_nice);
	cfst_fork(root, b, b_name, b_nice);
	cfst_add(root, sl_act_wait());
	cfst_add(root, sl_act_wait());
	sl_sim_spawn_root(r->sim, &cfst_prog, root, "root");
}

static struct cfs *cfst_state(struct cfst_run *r)
{
	return sl_policy_data(r->sim);
}

/* ---- task_h_load ---- */

/* 6.12 with FAIR_GROUP_SCHED (fair.c update_cfs_rq_h_load, task_h_load):
 * a root-group task weighs L * H / (load + 1), H its CPU's load as first
 * read this jiffy.  A task of 1024 on a CPU of 4096 weighs 1023; after a
 * detach took the CPU to 3072 in the same jiffy, 1364: detach_tasks with
 * an imbalance of 2048 moves one such task, not two.  Each CPU samples
 * its own H.  Without FAIR_GROUP_SCHED, the task's own 1024 (the model's
 * only form until Dec 2026, an audit against 6.12). */
static long cfst_h_load(const char *policy, long *after_detach, long *other_cpu)
{
	struct cfst_run r;
	long first = -1;

	if (!cfst_start(&r, "pack:1 core:2 pu:1", policy, 0))
		return -1;
	struct cfs *s = cfst_state(&r);
	struct cfs_entity se = { .cpu = 0 }, there = { .cpu = 1 };
	se.avg.load_avg = there.avg.load_avg = 1024;
	s->rq[0].avg.load_avg = 4096;
	s->rq[1].avg.load_avg = 2048;
	first = cfs_task_h_load(s, &se);
	s->rq[0].avg.load_avg = 3072;
	*after_detach = cfs_task_h_load(s, &se);
	*other_cpu = cfs_task_h_load(s, &there);
	sl_sim_destroy(r.sim);
	return first;
}

SL_TEST(cfs_task_h_load_as_6_12_builds_it)
{
	long after = 0, other = 0;
	long first = cfst_h_load("cfs", &after, &other);
	CHECKF(first == 1023 && after == 1364 && other == 1023, "%ld, %ld after the detach, "
	       "%ld on the other CPU", first, after, other);
	first = cfst_h_load("cfs:group_sched=off", &after, &other);
	CHECKF(first == 1024 && after == 1024 && other == 1024, "group_sched=off: %ld, %ld, %ld",
	       first, after, other);
}

/* ---- knobs and the tunables they derive ---- */

SL_TEST(cfs_knobs)
{
	struct sl_params p;
	struct sl_err err;

	CHECK(cfst_bind("cfs", &p, &err) == 0);
	CHECK(cfst_bind("cfs:pick=cfs,hz=1000,base_slice_us=3000,latency_us=24000,"
			"wakeup_gran_us=4000,scaling=none,migration_cost_us=0,"
			"wake_affine=off,idle_core=off,fork_balance=off,newidle=off,numa=on,"
			"numa_scan_ms=100,smt_gain=1178,scan_ns=0,label=x", &p, &err) == 0);
	CHECK(cfst_bind("cfs:delay_dequeue=off,rel_deadline=off,preempt_short=off,sis_util=off,"
			"custom_slice=cc1:300", &p, &err) == 0);
	CHECK(cfst_bind("cfs:delay_dequeue=maybe", &p, &err) == -1 && strstr(err.msg, "delay_dequeue"));
	CHECK(cfst_bind("cfs:pick=fifo", &p, &err) == -1 && err.kind == SL_ERR_INPUT &&
	      strstr(err.msg, "pick"));
	CHECK(cfst_bind("cfs:hz=50", &p, &err) == -1 && err.kind == SL_ERR_INPUT &&
	      strstr(err.msg, "hz"));
	CHECK(cfst_bind("cfs:hz=fast", &p, &err) == -1 && strstr(err.msg, "hz"));
	CHECK(cfst_bind("cfs:smt_gain=-1", &p, &err) == -1 && strstr(err.msg, "smt_gain"));
	CHECK(cfst_bind("cfs:numa=maybe", &p, &err) == -1 && strstr(err.msg, "numa"));
	CHECK(cfst_bind("cfs:base_slice_us=2x", &p, &err) == -1 && strstr(err.msg, "base_slice_us"));
	CHECK(cfst_bind("cfs:timeslice=5", &p, &err) == -1 && strstr(err.msg, "timeslice"));
	for (const struct sl_param_def *d = sl_policy_cfs.knobs; d->name; d++)
		CHECK(d->doc && d->doc[0] && (d->def || strstr(d->doc, "default")));

	/* defaults: HZ 250, EEVDF, slices scaled by 1 + log2(min(ncpus, 8)) */
	static const struct {
		const char *machine;
		int factor;
	} m[] = { { "pack:1 core:1 pu:1", 1 }, { "pack:2 core:1 pu:2", 3 },
		  { "pack:2 core:2 pu:2", 4 }, { "numaq-16", 4 } };
	for (int i = 0; i < 4; i++) {
		struct cfst_run r;
		if (!cfst_start(&r, m[i].machine, "cfs", 0))
			continue;
		struct cfs *s = cfst_state(&r);
		CHECK(sl_hz(r.sim) == 250 && s->pick == CFS_PICK_EEVDF);
		CHECKF(s->tunable_factor == m[i].factor && s->base_slice == 750 * SL_USEC * m[i].factor &&
		       s->latency == 6 * SL_MSEC * m[i].factor &&
		       s->wakeup_gran == 1 * SL_MSEC * m[i].factor && s->nr_latency == 8,
		       "%s: factor %d, base slice %lld", m[i].machine, s->tunable_factor,
		       (long long)s->base_slice);
		CHECK(s->migration_cost == 500 * SL_USEC && s->numa && s->idle_core);
		/* 6.12's features.h defaults */
		CHECK(s->delay_dequeue && s->rel_deadline && s->preempt_short && s->sis_util &&
		      s->short_slice == 0);
		sl_sim_destroy(r.sim);
	}
	struct cfst_run r;
	if (cfst_start(&r, "pack:2 core:2 pu:2", "cfs:scaling=none,hz=1000,pick=cfs", 0)) {
		struct cfs *s = cfst_state(&r);
		CHECK(sl_hz(r.sim) == 1000 && s->pick == CFS_PICK_CFS && s->base_slice == 750 * SL_USEC);
		sl_sim_destroy(r.sim);
	}
	/* knobs that cannot act under the others are rejected when the run is
	 * created (they bind: the table cannot know) */
	static const char *const moot[] = { "cfs:latency_us=3000", "cfs:pick=eevdf,wakeup_gran_us=1",
					    "cfs:pick=cfs,run_to_parity=off",
					    "cfs:numa=off,numa_scan_ms=10",
					    "cfs:pick=cfs,delay_dequeue=on",
					    "cfs:pick=cfs,rel_deadline=off",
					    "cfs:pick=cfs,preempt_short=off",
					    "cfs:pick=cfs,custom_slice=cc1:300",
					    "cfs:custom_slice=cc1", "cfs:custom_slice=:300",
					    "cfs:custom_slice=cc1:50", "cfs:custom_slice=cc1:3x",
					    "cfs:newidle=off,preemption=off" };
	static const char *const named[] = { "latency_us", "wakeup_gran_us", "run_to_parity",
					     "numa_scan_ms", "delay_dequeue", "rel_deadline",
					     "preempt_short", "custom_slice", "custom_slice",
					     "custom_slice", "custom_slice", "custom_slice", "preemption" };
	for (int i = 0; i < 13; i++) {
		struct sl_machine mm;
		CHECK(sl_machine_load(&mm, "pack:1 core:1 pu:1", &err) == 0 &&
		      cfst_bind(moot[i], &p, &err) == 0);
		struct sl_sim_config c = { .machine = &mm, .policy = &sl_policy_cfs, .knobs = &p,
					   .seed = 1 };
		err = (struct sl_err){ 0 };
		struct sl_sim *x = sl_sim_create(&c, &err);
		CHECKF(!x && err.kind == SL_ERR_INPUT && strstr(err.msg, named[i]), "%s: %s", moot[i],
		       err.msg);
		sl_sim_destroy(x);
	}
	/* an unbound table means the defaults */
	struct sl_machine mach;
	CHECK(sl_machine_load(&mach, "pack:1 core:2 pu:1", &err) == 0);
	struct sl_sim_config cfg = { .machine = &mach, .policy = &sl_policy_cfs, .seed = 1 };
	struct sl_sim *sim = sl_sim_create(&cfg, &err);
	CHECK(sim && sl_hz(sim) == 250);
	sl_sim_destroy(sim);
}

/* ---- domains, groups and capacities ---- */

/* On an 8-CPU machine whose CPUs 4-7 share a last-level cache, CPU 5's
 * domains are an MC of those 4 CPUs and `upper` (the package's PKG or
 * the nodes' NUMA level) of all 8, and its wakeups search the MC. */
static bool cfst_mc_of_4_under(const char *machine, const char *upper)
{
	struct cfst_run r;
	bool ok = false;

	if (!cfst_start(&r, machine, "cfs", 0))
		return false;
	const struct cfs_rq *rq = &cfst_state(&r)->rq[5];
	if (rq->nsd == 2)
		ok = !strcmp(rq->sd[0].name, "MC") && rq->sd[0].span->weight == 4 &&
		     sl_cpumask_test(&rq->sd[0].span->cpus, 4) &&
		     !sl_cpumask_test(&rq->sd[0].span->cpus, 3) &&
		     !strcmp(rq->sd[1].name, upper) && rq->sd[1].span->weight == 8 &&
		     rq->sd[1].span->ngroups == 2 &&
		     rq->sd_llc == 0 && rq->llc_size == 4 && rq->llc_id == 4;
	if (!ok)
		fprintf(stderr, "  %s: CPU 5 has %d domains, not MC (4) under %s (8)\n", machine,
			rq->nsd, upper);
	sl_sim_destroy(r.sim);
	return ok;
}

SL_TEST(cfs_domains)
{
	struct cfst_run r;

	/* 2x2 HT: SMT {0,1} (110, shares capacity and LLC); MC = SMT span, so
	 * it is dropped; PKG {0-3} with the two packages as groups */
	if (cfst_start(&r, "pack:2 core:1 pu:2", "cfs", 0)) {
		struct cfs_rq *rq = &cfst_state(&r)->rq[2];
		CHECK(rq->nsd == 2);
		if (rq->nsd == 2) {
			const struct cfs_domain *smt = &rq->sd[0], *pkg = &rq->sd[1];
			CHECK(!strcmp(smt->name, "SMT") && smt->span->weight == 2 &&
			      smt->imbalance_pct == 110 && smt->cache_nice_tries == 0 &&
			      (smt->flags & CFS_SD_SHARE_CPUCAPACITY) && smt->span->ngroups == 2);
			CHECK(!strcmp(pkg->name, "PKG") && pkg->span->weight == 4 &&
			      pkg->imbalance_pct == 117 && pkg->span->ngroups == 2 &&
			      pkg->local == 1 && pkg->span->groups[1].first_cpu == 2 &&
			      pkg->span->groups[1].capacity == 2048 &&
			      (pkg->span->groups[1].flags & CFS_SD_SHARE_CPUCAPACITY) &&
			      pkg->min_interval == 4 && pkg->max_interval == 8 &&
			      pkg->busy_factor == 16);
			CHECK(rq->sd_llc == 0 && rq->llc_id == 2 && rq->llc_size == 2);
		}
		sl_sim_destroy(r.sim);
	}
	/* the old smt_gain: two siblings share 1178 */
	if (cfst_start(&r, "pack:2 core:1 pu:2", "cfs:smt_gain=1178", 0)) {
		struct cfs_rq *rq = &cfst_state(&r)->rq[0];
		CHECK(rq->capacity == 589 && rq->sd[1].span->groups[0].capacity == 1178);
		sl_sim_destroy(r.sim);
	}
	/* NUMA-Q: one P-III per package, no shared cache: PKG = the quad, then
	 * NUMA over the four quads; no LLC domain, so wakeups do not search */
	if (cfst_start(&r, "numaq-16", "cfs", 0)) {
		struct cfs_rq *rq = &cfst_state(&r)->rq[5];
		CHECK(rq->nsd == 2 && rq->sd_llc == -1 && rq->llc_size == 1);
		if (rq->nsd == 2) {
			const struct cfs_domain *numa = &rq->sd[1];
			CHECK(!strcmp(rq->sd[0].name, "PKG") && rq->sd[0].span->weight == 4 &&
			      rq->sd[0].span->ngroups == 4);
			CHECK(!strcmp(numa->name, "NUMA") && numa->span->weight == 16 &&
			      numa->span->ngroups == 4 && numa->local == 1 &&
			      numa->cache_nice_tries == 2 && (numa->flags & CFS_SD_NUMA) &&
			      !(numa->flags & CFS_SD_PREFER_SIBLING) &&
			      (numa->flags & CFS_SD_WAKE_AFFINE));
			/* imb_numa_nr over the levels built, the one-CPU SMT
			 * and MC included: PKG holds four LLCs */
			CHECKF(rq->sd[0].imb_numa_nr == 4 && numa->imb_numa_nr == 4,
			       "imb_numa_nr PKG %d NUMA %d", rq->sd[0].imb_numa_nr,
			       numa->imb_numa_nr);
		}
		sl_sim_destroy(r.sim);
	}
	/* a modern 2-socket SMT server: siblings n and n+32; the package is
	 * the node, so PKG is dropped; an LLC of 32 CPUs per socket */
	if (cfst_start(&r, "xeon-2s-smt", "cfs", 0)) {
		struct cfs_rq *rq = &cfst_state(&r)->rq[3];
		CHECK(rq->nsd == 3);
		if (rq->nsd == 3) {
			CHECK(sl_cpumask_test(&rq->sd[0].span->cpus, 35) && rq->sd[0].span->weight == 2);
			CHECK(!strcmp(rq->sd[1].name, "MC") && rq->sd[1].span->weight == 32 &&
			      rq->sd[1].span->ngroups == 16 && rq->sd[1].span->groups[0].cores == 1);
			/* imb_numa_nr from the dropped PKG (one LLC of 32 CPUs:
			 * 32 >> 3), not from MC under NUMA (two LLCs) */
			CHECKF(!strcmp(rq->sd[2].name, "NUMA") && rq->sd[2].span->ngroups == 2 &&
			       rq->sd[2].imb_numa_nr == 4, "NUMA imb_numa_nr %d",
			       rq->sd[2].imb_numa_nr);
			CHECK(rq->sd_llc == 1 && rq->llc_size == 32);
		}
		sl_sim_destroy(r.sim);
	}
	/* chiplets: a package of two L3s of 4 cores each (x86's
	 * cpu_coregroup_mask is the LLC's CPUs): MC is the chiplet, PKG the
	 * package, and wakeups search the 4 CPUs that share the L3 */
	CHECK(cfst_mc_of_4_under("pack:1 l3:2 core:4 pu:1", "PKG"));
	/* a package of two NUMA nodes (Sub-NUMA Clustering): cpu_coregroup_mask
	 * stops at the node (6.12 match_llc), so MC is the node's 4 CPUs and
	 * the NUMA level the package's 8 - nested, as a package-wide MC over a
	 * node-wide PKG would not be (x86 drops PKG there: the NUMA levels
	 * span it, build_sched_topology's x86_has_numa_in_package) */
	CHECK(cfst_mc_of_4_under("pack:1 numa:2 core:4 pu:1", "NUMA"));
}

/* ---- wakeup: a wholly idle core before an idle sibling ---- */

/*
 * 1 package, 2 cores x 2 threads.  The root (CPU 0) forks a hog that stays
 * on CPU 0's queue (fork_balance=off) and sleeps 20 ms; the hog runs on
 * CPU 0 meanwhile (delay_dequeue=off: else the sleeping root stays queued
 * on CPU 0, delayed, and the idle CPU that wins the race of the first
 * tick's balance pulls it, so that its wakeup targets that CPU).  The root's timer wakeup targets CPU 0, which is busy:
 * select_idle_sibling takes the wholly idle core (CPU 2 or 3), not CPU 0's
 * idle sibling, unless idle_core=off.  Returns the CPU it woke on (-1 if
 * the hog was not on CPU 0 then).
 */
static int cfst_woken_cpu(const char *policy)
{
	struct cfst_run r;
	int cpu = -2;

	if (!cfst_start(&r, "pack:1 core:2 pu:2", policy, 0))
		return -2;
	struct cfst_script *hog = cfst_new(r.sim);
	for (int i = 0; i < 20; i++)
		cfst_add(hog, sl_act_run(5 * SL_MSEC, SL_WC_INT));
	struct cfst_script *root = cfst_new(r.sim);
	cfst_fork(root, hog, "hog", 0);
	cfst_add(root, sl_act_sleep(20 * SL_MSEC));
	int woke = root->n;
	cfst_add(root, sl_act_run(1 * SL_MSEC, SL_WC_INT));
	cfst_add(root, sl_act_wait());
	sl_sim_spawn_root(r.sim, &cfst_prog, root, "root");
	if (cfst_run(&r)) {
		/* where the hog was while the root woke up */
		int hog_cpu = -1;
		for (int i = 0; i < hog->n; i++)
			if (hog->at[i] <= root->at[woke])
				hog_cpu = hog->cpu[i];
		cpu = hog_cpu == 0 ? root->cpu[woke] : -1;
	}
	sl_sim_destroy(r.sim);
	return cpu;
}

SL_TEST(cfs_wakeup_prefers_idle_core)
{
	int cpu = cfst_woken_cpu("cfs:fork_balance=off,delay_dequeue=off");
	CHECKF(cpu == 2 || cpu == 3, "woke on CPU %d (want the idle core: 2 or 3)", cpu);
	/* without the idle-core search, the first idle CPU after the target */
	cpu = cfst_woken_cpu("cfs:fork_balance=off,delay_dequeue=off,idle_core=off");
	CHECKF(cpu == 1, "idle_core=off: woke on CPU %d (want the idle sibling 1)", cpu);
	cpu = cfst_woken_cpu("cfs:fork_balance=off,pick=cfs");
	CHECKF(cpu == 2 || cpu == 3, "pick=cfs: woke on CPU %d", cpu);
}

/* ---- two hogs on a 2x2 HT machine: one per core ---- */

/* The cores the two hogs a and b run on when the run is stopped at `ms`. */
static bool cfst_two_hogs(const char *policy, double ms, int *core_a, int *core_b)
{
	struct cfst_run r;
	bool ok = false;

	if (!cfst_start(&r, "pack:2 core:1 pu:2", policy, (sl_time)(ms * SL_MSEC)))
		return false;
	cfst_spawn_two(&r, cfst_hog(r.sim, 5000), "a", 0, cfst_hog(r.sim, 5000), "b", 0);
	if (cfst_run(&r)) {
		const struct sl_topo *topo = sl_topo(r.sim);
		struct sl_task *a = cfst_find(r.sim, "a"), *b = cfst_find(r.sim, "b");
		if (a && b && a->cpu >= 0 && b->cpu >= 0) {
			*core_a = topo->cpu_core[a->cpu];
			*core_b = topo->cpu_core[b->cpu];
			ok = true;
		}
	}
	sl_sim_destroy(r.sim);
	return ok;
}

SL_TEST(cfs_two_hogs_two_cores)
{
	int a = -1, b = -1;

	/* fork balancing puts the second hog on the idle package at once */
	CHECK(cfst_two_hogs("cfs", 2, &a, &b));
	CHECKF(a != b, "at 2 ms: cores %d and %d", a, b);
	CHECK(cfst_two_hogs("cfs", 2000, &a, &b));
	CHECKF(a != b, "at 2 s: cores %d and %d", a, b);
	/* both forked on CPU 0: its idle sibling pulls one at its first tick
	 * (at the SMT level a task is never cache-hot; ordered ticks: the
	 * sibling wins the race with package 1's CPUs) ... */
	CHECK(cfst_two_hogs("cfs:fork_balance=off,tick=ordered", 10, &a, &b));
	CHECKF(a == b, "fork_balance=off at 10 ms: cores %d and %d", a, b);
	/* ... then the idle package's balancer fails cache_nice_tries + 3
	 * times (4 ms apart) and pushes one over through the migration
	 * thread */
	CHECK(cfst_two_hogs("cfs:fork_balance=off,tick=ordered", 100, &a, &b));
	CHECKF(a != b, "fork_balance=off at 100 ms: cores %d and %d", a, b);
	CHECK(cfst_two_hogs("cfs:fork_balance=off,pick=cfs", 2000, &a, &b));
	CHECKF(a != b, "pick=cfs at 2 s: cores %d and %d", a, b);
}

/* ---- CPU shares follow the nice weights ---- */

/* CPU time of a nice-0 and a nice-`nice` hog on one CPU over 3 s. */
static double cfst_share_ratio(const char *policy, int nice)
{
	struct cfst_run r;
	double ratio = -1;

	if (!cfst_start(&r, "pack:1 core:1 pu:1", policy, 3 * SL_SEC))
		return -1;
	cfst_spawn_two(&r, cfst_hog(r.sim, 10000), "n0", 0, cfst_hog(r.sim, 10000), "nx", nice);
	if (cfst_run(&r)) {
		struct sl_task *a = cfst_find(r.sim, "n0"), *b = cfst_find(r.sim, "nx");
		if (a && b && b->user_ns + b->sys_ns > 0)
			ratio = (double)(a->user_ns + a->sys_ns) / (double)(b->user_ns + b->sys_ns);
	}
	sl_sim_destroy(r.sim);
	return ratio;
}

SL_TEST(cfs_nice_weights)
{
	/* 1024 : 335 = 3.06 */
	double x = cfst_share_ratio("cfs", 5);
	CHECKF(x > 2.95 && x < 3.17, "eevdf nice 0 : 5 = %.3f", x);
	x = cfst_share_ratio("cfs:pick=cfs", 5);
	CHECKF(x > 2.95 && x < 3.17, "cfs nice 0 : 5 = %.3f", x);
	/* 1024 : 1024 */
	x = cfst_share_ratio("cfs", 0);
	CHECKF(x > 0.97 && x < 1.03, "eevdf nice 0 : 0 = %.3f", x);
	/* 1024 : 110 = 9.3 */
	x = cfst_share_ratio("cfs", 10);
	CHECKF(x > 8.9 && x < 9.7, "eevdf nice 0 : 10 = %.3f", x);
}

/* ---- a sleeper beside hogs ---- */

/*
 * One CPU, three hogs and a task that runs 1 ms and sleeps 9 ms, 30
 * times.  Returns the worst delay from a wakeup to running, and the time
 * the 30 cycles took.
 */
static bool cfst_sleeper(const char *policy, sl_time *worst, sl_time *total)
{
	struct cfst_run r;
	bool ok = false;

	if (!cfst_start(&r, "pack:1 core:1 pu:1", policy, 2 * SL_SEC))
		return false;
	struct cfst_script *sl = cfst_new(r.sim);
	for (int i = 0; i < 30; i++) {
		cfst_add(sl, sl_act_run(1 * SL_MSEC, SL_WC_INT));
		cfst_add(sl, sl_act_sleep(9 * SL_MSEC));
	}
	struct cfst_script *root = cfst_new(r.sim);
	for (int i = 0; i < 3; i++)
		cfst_fork(root, cfst_hog(r.sim, 10000), "hog", 0);
	cfst_fork(root, sl, "sleeper", 0);
	for (int i = 0; i < 4; i++)
		cfst_add(root, sl_act_wait());
	sl_sim_spawn_root(r.sim, &cfst_prog, root, "root");
	if (cfst_run(&r) && sl->pc == sl->n) {
		*worst = 0;
		for (int i = 2; i < sl->n; i += 2) {
			sl_time late = sl->at[i] - (sl->at[i - 1] + 9 * SL_MSEC);
			if (late > *worst)
				*worst = late;
		}
		*total = sl->at[sl->n] - sl->at[0];
		ok = true;
	}
	sl_sim_destroy(r.sim);
	return ok;
}

SL_TEST(cfs_sleeper_not_starved)
{
	sl_time worst = -1, total = -1;

	/* the sleeper blocks with a positive lag (it is owed CPU), so it
	 * wakes eligible; what it waits for is the running hog's request to
	 * end, seen at the tick (HRTICK off: up to 4 ms at HZ=250) and the
	 * hog picked before it (an audit measured its worst wait at 6 ms) */
	CHECK(cfst_sleeper("cfs", &worst, &total));
	CHECKF(worst < 8500 * SL_USEC && total < 420 * SL_MSEC,
	       "eevdf: worst wakeup %.2f ms, 30 cycles in %.1f ms", (double)worst / SL_MSEC,
	       (double)total / SL_MSEC);
	/* CFS: the sleeper's vruntime is far behind: it preempts at wakeup */
	CHECK(cfst_sleeper("cfs:pick=cfs", &worst, &total));
	CHECKF(worst < 1 * SL_MSEC && total < 330 * SL_MSEC,
	       "cfs: worst wakeup %.2f ms, 30 cycles in %.1f ms", (double)worst / SL_MSEC,
	       (double)total / SL_MSEC);
}

/* ---- newly-idle balancing ---- */

/*
 * Two CPUs.  The root forks a 5 ms task (placed on CPU 1, the idle one)
 * and two hogs (both on CPU 0: fork placement sees the root's CPU as
 * having spare capacity), then waits.  When the short task exits, CPU 1
 * pulls the waiting hog at once; without newly-idle balancing it idles
 * until a periodic balance at a tick finds a hog that is not cache-hot.
 * Returns CPU 1's idle time over the first 30 ms.
 */
static sl_time cfst_newidle_gap(const char *policy)
{
	struct cfst_run r;
	sl_time gap = -1;

	if (!cfst_start(&r, "pack:1 core:2 pu:1", policy, 30 * SL_MSEC))
		return -1;
	struct cfst_script *quick = cfst_hog(r.sim, 5);
	struct cfst_script *root = cfst_new(r.sim);
	struct cfst_script *hogs[2];
	cfst_fork(root, quick, "quick", 0);
	for (int i = 0; i < 2; i++) {
		hogs[i] = cfst_hog(r.sim, 200);
		cfst_fork(root, hogs[i], "hog", 0);
	}
	for (int i = 0; i < 3; i++)
		cfst_add(root, sl_act_wait());
	sl_sim_spawn_root(r.sim, &cfst_prog, root, "root");
	if (cfst_run(&r) && quick->cpu[0] == 1 && quick->pc == 1 && hogs[0]->cpu[0] == 0 &&
	    hogs[1]->cpu[0] == 0)
		gap = sl_sim_cpu_stats(r.sim, 1)->idle_ns;
	sl_sim_destroy(r.sim);
	return gap;
}

SL_TEST(cfs_newidle_pulls)
{
	sl_time gap = cfst_newidle_gap("cfs");
	CHECKF(gap >= 0 && gap < 200 * SL_USEC, "newidle: CPU 1 idle %.3f ms", (double)gap / SL_MSEC);
	/* at least until the next tick (8 ms; the task exits at ~5 ms), and
	 * then the hog CPU 0 just preempted at the same tick is cache-hot
	 * until the domain has failed cache_nice_tries + 1 times */
	gap = cfst_newidle_gap("cfs:newidle=off");
	CHECKF(gap > 2500 * SL_USEC && gap < 20 * SL_MSEC, "newidle=off: CPU 1 idle %.3f ms",
	       (double)gap / SL_MSEC);
}

/* ---- NO_HZ_IDLE: idle CPUs stop their tick, a busy tick kicks one ---- */

/*
 * Four CPUs of one LLC; four hogs forked on CPU 0 with fork balancing and
 * newly-idle balancing off, so that only periodic balancing can spread
 * them.  Under nohz the three idle CPUs never tick: CPU 0's busy tick sees
 * nr_running >= 2 and kicks the first idle CPU, which balances for itself
 * and the others (6.12 nohz_balancer_kick, _nohz_idle_balance).  Returns
 * how many CPUs run a hog at `ms`, and fills `stopped` with the CPUs
 * whose tick is stopped then.
 */
static int cfst_nohz_spread(const char *policy, double ms, int *stopped)
{
	struct cfst_run r;
	int busy = -1;

	if (!cfst_start(&r, "pack:1 core:4 pu:1", policy, (sl_time)(ms * SL_MSEC)))
		return -1;
	struct cfst_script *root = cfst_new(r.sim);
	for (int i = 0; i < 4; i++)
		cfst_fork(root, cfst_hog(r.sim, 10000), "hog", 0);
	for (int i = 0; i < 4; i++)
		cfst_add(root, sl_act_wait());
	sl_sim_spawn_root(r.sim, &cfst_prog, root, "root");
	if (cfst_run(&r)) {
		busy = 0;
		*stopped = 0;
		for (int cpu = 0; cpu < 4; cpu++) {
			busy += sl_curr(r.sim, cpu) != NULL;
			*stopped += sl_tick_stopped(r.sim, cpu);
		}
	}
	sl_sim_destroy(r.sim);
	return busy;
}

SL_TEST(cfs_nohz_kick_spreads)
{
	const char *pol = "cfs:fork_balance=off,newidle=off,wake_affine=off";
	int stopped = -1;

	/* at 1 ms the hogs are all on CPU 0 and the other ticks stopped */
	int busy = cfst_nohz_spread(pol, 1, &stopped);
	CHECKF(busy == 1 && stopped == 3, "1 ms: %d CPUs busy, %d ticks stopped", busy, stopped);
	/* the kicks spread them (hogs just preempted are cache-hot for a
	 * while: a few balance intervals) */
	busy = cfst_nohz_spread(pol, 200, &stopped);
	CHECKF(busy == 4 && stopped == 0, "200 ms: %d CPUs busy, %d ticks stopped", busy,
	       stopped);
	/* staggered ticks: the walk skips the stopped CPUs */
	char stag[96];
	snprintf(stag, sizeof(stag), "%s,tick=staggered", pol);
	busy = cfst_nohz_spread(stag, 200, &stopped);
	CHECKF(busy == 4 && stopped == 0, "staggered, 200 ms: %d CPUs busy, %d ticks stopped",
	       busy, stopped);
	/* HZ_PERIODIC: every CPU ticks and balances for itself, to the same end */
	char off[96];
	snprintf(off, sizeof(off), "%s,nohz=off", pol);
	busy = cfst_nohz_spread(off, 1, &stopped);
	CHECKF(busy == 1 && stopped == 0, "nohz=off, 1 ms: %d busy, %d stopped", busy, stopped);
	busy = cfst_nohz_spread(off, 200, &stopped);
	CHECKF(busy == 4, "nohz=off, 200 ms: %d CPUs busy", busy);
}

/*
 * The kernel's lazy exit: a CPU that leaves idle stays in idle_cpus_mask
 * (and out of its LLC's busy count) until its first busy tick; a CPU
 * idle since boot is in it from the start.  Two CPUs, one hog forked at
 * once and run on CPU 1 (fork balancing: the idle one).
 */
SL_TEST(cfs_nohz_mask_left_at_busy_tick)
{
	struct cfst_run r;

	if (!cfst_start(&r, "pack:1 core:2 pu:1", "cfs", 6 * SL_MSEC))
		return;
	struct cfs *s = cfst_state(&r);
	CHECK(s->nohz && s->nohz_nr == 2 && sl_tick_stopped(r.sim, 0) && sl_tick_stopped(r.sim, 1));
	cfst_spawn_hog(&r, 100);
	if (cfst_run(&r)) {
		struct sl_task *hog = cfst_find(r.sim, "hog");
		int cpu = hog ? hog->cpu : -1;
		CHECKF(cpu >= 0, "hog runs on %d", cpu);
		if (cpu >= 0) {
			/* HZ=250: ticks at 4 ms; the hog's CPU has had one */
			CHECK(!sl_tick_stopped(r.sim, cpu));
			CHECK(!sl_cpumask_test(&s->nohz_idle, cpu));
			/* the root waits: its CPU went idle and stopped its tick */
			CHECK(sl_tick_stopped(r.sim, 1 - cpu));
			CHECK(sl_cpumask_test(&s->nohz_idle, 1 - cpu) && s->nohz_nr == 1);
		}
	}
	sl_sim_destroy(r.sim);
}

/*
 * NOHZ_NEWILB_KICK (6.12 nohz_newidle_balance, nohz_run_idle_balance): a
 * CPU whose newly-idle balance pulled nothing, expecting to idle at least
 * migration_cost, brings the idle CPUs' blocked load up to date itself as
 * it enters its idle loop, once nohz.next_blocked has come; not when it
 * expects a shorter idle, nor when a kick is already on its way to it
 * (its softirq does the same).  Four idle CPUs; CPU 1 goes idle, CPU 2
 * has blocked load.
 */
SL_TEST(cfs_nohz_newidle_updates_blocked_load)
{
	for (int k = 0; k < 3; k++) {
		struct cfst_run r;
		if (!cfst_start(&r, "pack:1 core:4 pu:1", "cfs", 100 * SL_MSEC))
			return;
		cfst_spawn_hog(&r, 50);
		if (cfst_run(&r)) {
			struct cfs *s = cfst_state(&r);
			uint64_t j = sl_jiffies(r.sim);
			CHECK(j > 0 && sl_cpumask_test(&s->nohz_idle, 2) && cfs_cpu_idle(s, 2));
			s->nohz_has_blocked = true;
			s->nohz_next_blocked = j;
			s->rq[2].has_blocked_load = true;
			s->rq[2].last_blocked_tick = 0;
			s->rq[1].avg_idle = k == 1 ? s->migration_cost - 1 : s->migration_cost;
			s->rq[1].nohz_flags = k == 2 ? 1u : 0u;	/* NOHZ_BALANCE_KICK pending */
			cfs_nohz_newidle(s, 1);
			cfs_nohz_run_idle(s, 1);
			bool updated = s->rq[2].last_blocked_tick == j;
			CHECKF(updated == (k == 0), "case %d: CPU 2's blocked load %s", k,
			       updated ? "updated" : "left");
			if (k == 0)
				CHECK(s->nohz_next_blocked > j && s->rq[1].nohz_flags == 0);
			if (k == 2)	/* the kick keeps its flag; the mark is gone */
				CHECK(s->rq[1].nohz_flags == 1u);
		}
		sl_sim_destroy(r.sim);
	}
}

/* ---- NUMA: back to the home node when it has room ---- */

/*
 * Two nodes of two CPUs.  `a` first runs on node 0 (its home), sleeps
 * 5 ms while two hogs pinned to node 0 take both CPUs, and is pulled to
 * node 1 by the idle CPUs there.  After `busy_ms` the hogs end; NUMA
 * balancing then sends `a` home (after its first scan, 200 ms of CPU time
 * here).  Returns a's time on nodes 0 and 1 over its 1.5 s of work.
 */
static bool cfst_numa_home(const char *policy, double busy_ms, sl_time *node0, sl_time *node1)
{
	struct cfst_run r;
	bool ok = false;

	if (!cfst_start(&r, "node:2 pack:1 core:2 pu:1", policy, 0))
		return false;
	const struct sl_topo *topo = sl_topo(r.sim);
	struct cfst_script *a = cfst_new(r.sim);
	cfst_add(a, sl_act_run(1 * SL_MSEC, SL_WC_MEM));
	cfst_add(a, sl_act_sleep(5 * SL_MSEC));
	cfst_add(a, sl_act_run(1500 * SL_MSEC, SL_WC_MEM));
	/* root moves to node 1 first, so that a's fork goes to the idler node
	 * 0 (a node of two CPUs tolerates no imbalance: imb_numa_nr 1), then
	 * to node 0, where its pinned hogs are forked */
	struct cfst_script *root = cfst_new(r.sim);
	cfst_add(root, cfst_setaffinity(&topo->node_cpus[1]));
	cfst_add(root, cfst_setaffinity(&topo->all_cpus));
	cfst_fork(root, a, "a", 0);
	cfst_add(root, cfst_setaffinity(&topo->node_cpus[0]));
	cfst_fork(root, cfst_hog(r.sim, busy_ms), "pinned", 0);
	cfst_fork(root, cfst_hog(r.sim, busy_ms), "pinned", 0);
	cfst_add(root, cfst_setaffinity(&topo->all_cpus));
	for (int i = 0; i < 3; i++)
		cfst_add(root, sl_act_wait());
	sl_sim_spawn_root(r.sim, &cfst_prog, root, "root");
	if (cfst_run(&r) && a->pc == a->n && a->cpu[0] >= 0 &&
	    sl_topo(r.sim)->cpu_node[a->cpu[0]] == 0) {
		ok = true;
		*node0 = a->node_ns[0];
		*node1 = a->node_ns[1];
	}
	sl_sim_destroy(r.sim);
	return ok;
}

SL_TEST(cfs_numa_returns_home)
{
	sl_time n0 = -1, n1 = -1;

	/* the node frees up at 100 ms; a goes home at its first scan */
	CHECK(cfst_numa_home("cfs:numa_scan_ms=200", 100, &n0, &n1));
	CHECKF(n1 > 150 * SL_MSEC && n1 < 260 * SL_MSEC && n0 > 1200 * SL_MSEC,
	       "numa on: %.0f ms home, %.0f ms away", (double)n0 / SL_MSEC, (double)n1 / SL_MSEC);
	/* without NUMA balancing nothing brings it back: one task on a node
	 * of two CPUs is balanced as far as the load balancer can tell */
	CHECK(cfst_numa_home("cfs:numa=off", 100, &n0, &n1));
	CHECKF(n0 < 50 * SL_MSEC && n1 > 1400 * SL_MSEC, "numa off: %.0f ms home, %.0f ms away",
	       (double)n0 / SL_MSEC, (double)n1 / SL_MSEC);
	/* while the home node stays full it stays away */
	CHECK(cfst_numa_home("cfs:numa_scan_ms=200", 5000, &n0, &n1));
	CHECKF(n0 < 50 * SL_MSEC && n1 > 1400 * SL_MSEC, "home busy: %.0f ms home, %.0f ms away",
	       (double)n0 / SL_MSEC, (double)n1 / SL_MSEC);
}
/*
 * init_numa_balancing(): a new thread (CLONE_VM) keeps its parent's
 * preferred node, and at the NUMA level of a fork's search
 * (sched_balance_find_dst_group) a task forked on its preferred node stays
 * there.  Two nodes of four CPUs: a parent runs 1.1 s pinned to CPU 0 (its
 * first scan makes node 0 its preferred node), allows every CPU and forks:
 * a thread stays on node 0, a process goes to the idler node 1 (imb_numa_nr
 * 1 allows no imbalance).  Until Dec 2026 a thread had no preferred node
 * and went to node 1 too (an audit against 6.12).  The child's node.
 */
static int cfst_numa_fork_node(bool thread)
{
	struct cfst_run r;
	int node = -1;

	if (!cfst_start(&r, "node:2 pack:1 core:4 pu:1", "cfs", 0))
		return -1;
	struct cfst_script *parent = cfst_new(r.sim), *child = cfst_new(r.sim);
	cfst_add(child, sl_act_run(50 * SL_MSEC, SL_WC_INT));
	cfst_add(parent, cfst_pin(r.sim, 0));
	cfst_add(parent, sl_act_run(1100 * SL_MSEC, SL_WC_INT));
	cfst_add(parent, cfst_setaffinity(&sl_topo(r.sim)->all_cpus));
	cfst_add(parent, (struct sl_action){ .kind = SL_ACT_FORK,
		.u.fork = { .prog = &cfst_prog, .state = child, .comm = "child",
			    .thread = thread } });
	cfst_add(parent, sl_act_wait());
	sl_sim_spawn_root(r.sim, &cfst_prog, parent, "parent");
	if (cfst_run(&r) && child->cpu[0] >= 0)
		node = sl_topo(r.sim)->cpu_node[child->cpu[0]];
	sl_sim_destroy(r.sim);
	return node;
}

SL_TEST(cfs_numa_thread_forks_on_its_parents_node)
{
	int thread = cfst_numa_fork_node(true), process = cfst_numa_fork_node(false);

	CHECKF(thread == 0 && process == 1, "a thread forked on node %d, a process on node %d",
	       thread, process);
}

/*
 * An exec zeroes the task's NUMA faults (bprm_execve -> task_numa_free(p,
 * false)); the preferred node stays, but nothing migrates the task
 * towards it until the new image's own faults, which re-derive it from
 * where the new memory is (task_numa_placement).  Two nodes of four CPUs:
 * a task runs 1.1 s pinned to CPU 0 (preferred node 0), moves to node 1,
 * execs there and runs 50 ms (its new memory on node 1), then allows every
 * CPU and runs 1.5 s: it stays on node 1.  Until Dec 2026 the old node
 * stayed preferred and NUMA balancing took the task back to node 0 at
 * once, away from its memory (node 1 then had 0.05 s of its time).
 */
SL_TEST(cfs_numa_exec_forgets_the_old_images_node)
{
	struct cfst_run r;

	if (!cfst_start(&r, "node:2 pack:1 core:4 pu:1", "cfs", 0))
		return;
	struct cfst_script *t = cfst_new(r.sim);
	cfst_add(t, cfst_pin(r.sim, 0));
	cfst_add(t, sl_act_run(1100 * SL_MSEC, SL_WC_MEM));
	cfst_add(t, cfst_setaffinity(&sl_topo(r.sim)->node_cpus[1]));
	cfst_add(t, sl_act_exec("image"));
	cfst_add(t, sl_act_run(50 * SL_MSEC, SL_WC_MEM));
	cfst_add(t, cfst_setaffinity(&sl_topo(r.sim)->all_cpus));
	cfst_add(t, sl_act_run(1500 * SL_MSEC, SL_WC_MEM));
	sl_sim_spawn_root(r.sim, &cfst_prog, t, "t");
	CHECK(cfst_run(&r));
	CHECKF(t->pc == t->n && t->node_ns[1] > 1500 * SL_MSEC,
	       "node 0 %.0f ms, node 1 %.0f ms", (double)t->node_ns[0] / SL_MSEC,
	       (double)t->node_ns[1] / SL_MSEC);
	sl_sim_destroy(r.sim);
}

/* ---- whole workloads on the presets: clean and deterministic ---- */

static int cfst_ncpus;	/* logical CPUs of cfst_run_once's last machine */

static bool cfst_run_once(const char *machine, const char *policy, const char *workload,
			  struct sl_metrics *out)
{
	return checked_run(machine, policy, workload, 7, out, &cfst_ncpus);
}

static double cfst_metric(const struct sl_metrics *ms, const char *name)
{
	const struct sl_metric *m = sl_metrics_find(ms, name);
	return m ? m->value : -1;
}

/* bounds.h's bounds on the last cfst_run_once (chain and idle_max in s). */
static void cfst_bounds(const char *what, const struct sl_metrics *m, double chain,
			double idle_max)
{
	struct bt_run r;
	CHECKF(bt_from_metrics(m, cfst_ncpus, &r), "%s: elapsed, user, sys", what);
	bt_check(what, &r, chain, idle_max);
}

SL_TEST(cfs_presets_run_clean)
{
	static const char *const machines[] = { "p4dpe-2x2ht", "p4ht-3066", "numaq-16",
						"xeon-2s-smt", "node:2 pack:2 core:2 pu:2" };
	static const char *const policies[] = { "cfs", "cfs:pick=cfs,hz=1000,smt_gain=1178" };
	struct sl_metrics a, b;

	for (int i = 0; i < 5; i++)
		for (int k = 0; k < 2; k++) {
			bool ok = cfst_run_once(machines[i], policies[k],
						"kernbench:size=8,units=60", &a);
			CHECKF(ok && cfst_metric(&a, "elapsed_s") > 0 &&
			       cfst_metric(&a, "user_s") > 4, "%s on %s", policies[k], machines[i]);
			/* io=0: nothing sleeps on time, so the machine is
			 * never wholly idle while a job waits */
			char what[96];
			snprintf(what, sizeof(what), "kernbench, %s on %s", policies[k], machines[i]);
			if (ok)
				cfst_bounds(what, &a, 0, 0);
		}
	/* the same seed gives the same run, to the last switch */
	CHECK(cfst_run_once("xeon-2s-smt", "cfs", "javabench:threads=8,size=4", &a));
	CHECK(cfst_run_once("xeon-2s-smt", "cfs", "javabench:threads=8,size=4", &b));
	cfst_bounds("javabench on xeon-2s-smt", &b, 0, 0);
	CHECK(a.n == b.n && a.n > 0);
	for (int i = 0; i < a.n && i < b.n; i++)
		CHECKF(!strcmp(a.m[i].name, b.m[i].name) && a.m[i].value == b.m[i].value,
		       "%s: %g vs %g", a.m[i].name, a.m[i].value, b.m[i].value);
	/* sleep-heavy pipes under every 6.12 feature and under 6.6's EEVDF:
	 * delayed dequeues, requeues and moves of delayed tasks stay
	 * consistent (the check op runs after every event) */
	CHECK(cfst_run_once("p4dpe-2x2ht", "cfs", "hackbench:groups=2,loops=20,mode=pipe", &a));
	cfst_bounds("hackbench on p4dpe-2x2ht", &a, 0, 0);
	CHECK(cfst_run_once("xeon-2s-smt", "cfs:custom_slice=hackbench:300",
			    "hackbench:groups=4,loops=20", &a));
	CHECK(cfst_run_once("p4dpe-2x2ht", "cfs:delay_dequeue=off,rel_deadline=off,preempt_short=off",
			    "hackbench:groups=2,loops=20", &a));
	/* folding@home on the 2x2 HT box: one task per package */
	CHECK(cfst_run_once("p4dpe-2x2ht", "cfs", "spin:tasks=2,seconds=2", &a));
	cfst_bounds("spin on p4dpe-2x2ht", &a, 2, 0);
	CHECKF(cfst_metric(&a, "pkg0_user_pct") > 95 && cfst_metric(&a, "pkg1_user_pct") > 95,
	       "spin: packages %.1f%% and %.1f%%", cfst_metric(&a, "pkg0_user_pct"),
	       cfst_metric(&a, "pkg1_user_pct"));
}


/* ---- EEVDF of 6.12: DELAY_DEQUEUE ---- */

/*
 * 2 cores x 2 threads, one LLC.  A hog pinned to CPU 0 and `s`, which runs
 * 6 ms on CPU 0 beside it (pinned), unpins itself and sleeps 1 ms, then
 * runs 1 ms.  Having run more than its share, s is not eligible when it
 * blocks.  Returns where and how late s ran after its wakeup.
 */
static bool cfst_delayed_wakeup(const char *policy, int *cpu, sl_time *late)
{
	struct cfst_run r;
	bool ok = false;

	if (!cfst_start(&r, "pack:1 core:2 pu:2", policy, 0))
		return false;
	sl_cpumask cpu0 = sl_cpumask_first_n(1);
	struct cfst_script *sc = cfst_new(r.sim);
	cfst_add(sc, sl_act_run(1 * SL_MSEC, SL_WC_INT));
	cfst_affinity(sc, sl_topo(r.sim)->all_cpus);
	cfst_add(sc, sl_act_sleep(1 * SL_MSEC));
	cfst_add(sc, sl_act_run(1 * SL_MSEC, SL_WC_INT));
	struct cfst_script *root = cfst_new(r.sim);
	cfst_affinity(root, cpu0);
	cfst_fork(root, cfst_hog(r.sim, 100), "hog", -10);
	cfst_fork(root, sc, "s", 0);
	cfst_affinity(root, sl_topo(r.sim)->all_cpus);
	cfst_add(root, sl_act_wait());
	cfst_add(root, sl_act_wait());
	sl_sim_spawn_root(r.sim, &cfst_prog, root, "root");
	if (cfst_run(&r) && sc->pc == sc->n) {
		*cpu = sc->cpu[2];
		*late = sc->at[2] - (sc->at[1] + 1 * SL_MSEC);
		ok = true;
	}
	sl_sim_destroy(r.sim);
	return ok;
}

/*
 * One CPU: a nice -10 hog and `s`, which runs 1 ms (more than its ~10%
 * share: it blocks not eligible), sleeps `sleep_ms`, runs 1 ms.  Returns
 * the lag s had when it ran again, and how late that was.
 */
static bool cfst_burnt_lag(const char *policy, double sleep_ms, int64_t *vlag, sl_time *late)
{
	struct cfst_run r;
	bool ok = false;

	if (!cfst_start(&r, "pack:1 core:1 pu:1", policy, 0))
		return false;
	struct cfst_script *sc = cfst_new(r.sim);
	cfst_add(sc, sl_act_run(1 * SL_MSEC, SL_WC_INT));
	cfst_add(sc, sl_act_sleep((sl_time)(sleep_ms * SL_MSEC)));
	cfst_add(sc, sl_act_run(1 * SL_MSEC, SL_WC_INT));
	cfst_spawn_two(&r, cfst_hog(r.sim, 200), "hog", -10, sc, "s", 0);
	if (cfst_run(&r) && sc->pc == sc->n) {
		*vlag = sc->vlag[2];
		*late = sc->at[2] - (sc->at[1] + (sl_time)(sleep_ms * SL_MSEC));
		ok = true;
	}
	sl_sim_destroy(r.sim);
	return ok;
}

SL_TEST(cfs_delay_dequeue)
{
	int cpu = -1;
	sl_time late = -1;
	int64_t vlag = 1;

	/* 6.12: s stays queued on CPU 0 when it blocks; its wakeup requeues it
	 * there (ttwu_runnable, no select_task_rq), behind the hog, until
	 * the idle CPUs' balance at the next tick (8 ms) pulls it */
	CHECK(cfst_delayed_wakeup("cfs", &cpu, &late));
	CHECKF(late >= 1 * SL_MSEC, "delay_dequeue: ran %.3f ms late on CPU %d",
	       (double)late / SL_MSEC, cpu);
	/* dequeued at once, the wakeup searches the LLC: an idle core */
	CHECK(cfst_delayed_wakeup("cfs:delay_dequeue=off", &cpu, &late));
	CHECKF(late < 100 * SL_USEC && cpu >= 2, "delay_dequeue=off: ran %.3f ms late on CPU %d",
	       (double)late / SL_MSEC, cpu);

	/* a long sleep: the delayed s became eligible while away, was picked,
	 * left with zero lag (DELAY_ZERO), and wakes at V: it runs at the
	 * next tick at the latest */
	CHECK(cfst_burnt_lag("cfs", 50, &vlag, &late));
	CHECKF(vlag == 0 && late <= 4 * SL_MSEC, "delay_dequeue: lag %lld ns, %.3f ms late",
	       (long long)vlag, (double)late / SL_MSEC);
	/* 6.6: the negative lag is kept across any sleep and paid back after */
	CHECK(cfst_burnt_lag("cfs:delay_dequeue=off", 50, &vlag, &late));
	CHECKF(vlag < -200 * SL_USEC && late > 4 * SL_MSEC,
	       "delay_dequeue=off: lag %lld ns, %.3f ms late", (long long)vlag,
	       (double)late / SL_MSEC);
	/* a short sleep: woken while still delayed, it keeps its negative lag */
	CHECK(cfst_burnt_lag("cfs", 0.5, &vlag, &late));
	CHECKF(vlag < -200 * SL_USEC, "delay_dequeue, short sleep: lag %lld ns", (long long)vlag);
}

/*
 * 6.12 ttwu_runnable(): a delayed task woken where it is goes through
 * enqueue_task(ENQUEUE_DELAYED) to requeue_delayed_entity(), whose
 * update_entity_lag() reads avg_vruntime() with the running task's
 * vruntime as its last update left it: no update_curr() until
 * check_preempt_wakeup_fair().  One CPU, as cfst_burnt_lag: stopped while
 * s sleeps delayed and the hog runs between ticks, s is woken in place by
 * hand; the hog's vruntime must not move.  (Until Dec 2026 the requeue
 * charged the hog first.)
 */
SL_TEST(cfs_requeue_delayed_reads_a_stale_curr)
{
	bool seen = false;

	for (sl_time stop = 1100 * SL_USEC; stop < 8 * SL_MSEC && !seen; stop += 100 * SL_USEC) {
		struct cfst_run r;
		if (!cfst_start(&r, "pack:1 core:1 pu:1", "cfs", stop)) {
			CHECK(false);
			return;
		}
		struct cfst_script *sc = cfst_new(r.sim);
		cfst_add(sc, sl_act_run(1 * SL_MSEC, SL_WC_INT));
		cfst_add(sc, sl_act_sleep(10 * SL_MSEC));
		cfst_spawn_two(&r, cfst_hog(r.sim, 200), "hog", -10, sc, "s", 0);
		struct cfs *s = cfst_state(&r);
		if (cfst_run(&r)) {
			struct cfs_rq *rq = &s->rq[0];
			struct cfs_entity *se = NULL;
			for (struct sl_task *t = sl_task_first(r.sim); t; t = sl_task_next(t))
				if (cfs_se(t)->delayed)
					se = cfs_se(t);
			if (se && rq->curr && rq->curr != se && rq->curr->exec_start < sl_now(r.sim)) {
				int64_t v = rq->curr->vruntime;
				sl_time start = rq->curr->exec_start;
				cfs_requeue_delayed(s, rq, se);
				CHECKF(rq->curr->vruntime == v && rq->curr->exec_start == start,
				       "requeue moved the running task: vruntime %lld -> %lld",
				       (long long)v, (long long)rq->curr->vruntime);
				CHECK(!se->delayed && se->on_rq);
				seen = true;
			}
		}
		sl_sim_destroy(r.sim);
	}
	CHECKF(seen, "no moment with a delayed sleeper beside a running hog");
}

/* ---- EEVDF of 6.12: PLACE_REL_DEADLINE ---- */

/*
 * Two CPUs, fork_balance=off: two hogs forked on CPU 0, each with half a
 * request (a new task's first deadline).  At 2 ms, before any balance,
 * the one waiting on CPU 0 is moved to CPU 1 as the balancer's
 * detach/attach would.  Returns its deadline - vruntime before and after.
 */
static bool cfst_moved_deadline(const char *policy, int64_t *before, int64_t *after,
				int64_t *vslice)
{
	struct cfst_run r;
	bool ok = false;

	if (!cfst_start(&r, "pack:1 core:2 pu:1", policy, 2 * SL_MSEC))
		return false;
	cfst_spawn_two(&r, cfst_hog(r.sim, 100), "a", 0, cfst_hog(r.sim, 100), "b", 0);
	struct cfs *s = cfst_state(&r);
	if (cfst_run(&r)) {
		struct cfs_entity *se = NULL;
		for (struct sl_task *t = sl_task_first(r.sim); t; t = sl_task_next(t))
			if (t->comm[0] != 'r' && cfs_se(t)->on_rq && s->rq[0].curr != cfs_se(t) &&
			    cfs_se(t)->cpu == 0)
				se = cfs_se(t);
		if (se) {
			*before = se->deadline - se->vruntime;
			cfs_move_queued(s, se, 1);
			*after = se->deadline - se->vruntime;
			*vslice = s->base_slice;
			ok = se->cpu == 1;
		}
	}
	sl_sim_destroy(r.sim);
	return ok;
}

SL_TEST(cfs_place_rel_deadline)
{
	int64_t before = -1, after = -1, vslice = -1;

	/* what was left of its request moves with it */
	CHECK(cfst_moved_deadline("cfs:fork_balance=off", &before, &after, &vslice));
	CHECKF(before == vslice / 2 && after == before,
	       "rel_deadline: %lld ns of request before the move, %lld after (slice %lld)",
	       (long long)before, (long long)after, (long long)vslice);
	/* 6.6: a new request where it lands */
	CHECK(cfst_moved_deadline("cfs:fork_balance=off,rel_deadline=off", &before, &after,
				  &vslice));
	CHECKF(before == vslice / 2 && after == vslice,
	       "rel_deadline=off: %lld ns of request before the move, %lld after (slice %lld)",
	       (long long)before, (long long)after, (long long)vslice);
}

/* ---- EEVDF of 6.12: PREEMPT_SHORT ---- */

/*
 * One CPU at HZ=1000: two hogs take turns, a tick each, and `w` wakes
 * every 20 ms, just after a tick, to run 50 us.  The hog that has just
 * been picked is eligible and protected by RUN_TO_PARITY for its 0.75 ms
 * request; w, placed at V with zero lag, has the earlier deadline only if
 * it asks for a shorter request.  Returns w's shortest and longest delay
 * from wakeup to running.
 */
static bool cfst_short_wakeup(const char *policy, sl_time *lo, sl_time *hi)
{
	struct cfst_run r;
	bool ok = false;

	if (!cfst_start(&r, "pack:1 core:1 pu:1", policy, 0))
		return false;
	struct cfst_script *w = cfst_new(r.sim);
	for (int i = 0; i < 5; i++) {
		cfst_add(w, sl_act_sleep(20 * SL_MSEC));
		cfst_add(w, sl_act_run(50 * SL_USEC, SL_WC_INT));
	}
	struct cfst_script *root = cfst_new(r.sim);
	cfst_fork(root, cfst_hog(r.sim, 200), "hog", 0);
	cfst_fork(root, cfst_hog(r.sim, 200), "hog", 0);
	cfst_fork(root, w, "w", 0);
	for (int i = 0; i < 3; i++)
		cfst_add(root, sl_act_wait());
	sl_sim_spawn_root(r.sim, &cfst_prog, root, "root");
	if (cfst_run(&r) && w->pc == w->n) {
		*lo = SL_SEC;
		*hi = 0;
		for (int i = 1; i < w->n; i += 2) {
			sl_time late = w->at[i] - (w->at[i - 1] + 20 * SL_MSEC);
			*lo = late < *lo ? late : *lo;
			*hi = late > *hi ? late : *hi;
		}
		ok = true;
	}
	sl_sim_destroy(r.sim);
	return ok;
}

SL_TEST(cfs_preempt_short)
{
	sl_time lo = -1, hi = -1;

	/* w asks for 0.1 ms: its wakeup cancels the hog's protection, and its
	 * deadline being the earliest, it runs at once */
	CHECK(cfst_short_wakeup("cfs:hz=1000,custom_slice=w:100", &lo, &hi));
	CHECKF(hi < 50 * SL_USEC, "preempt_short: w waited %.3f..%.3f ms", (double)lo / SL_MSEC,
	       (double)hi / SL_MSEC);
	/* without PREEMPT_SHORT, whenever the hog is still eligible it keeps
	 * the CPU to its deadline, seen at the next tick */
	CHECK(cfst_short_wakeup("cfs:hz=1000,custom_slice=w:100,preempt_short=off", &lo, &hi));
	CHECKF(hi > 500 * SL_USEC, "preempt_short=off: w waited %.3f..%.3f ms",
	       (double)lo / SL_MSEC, (double)hi / SL_MSEC);
}

/* ---- SIS_UTIL: the wakeup search of a busy LLC is cut short ---- */

/*
 * 8 CPUs sharing a cache, `nhogs` hogs and a sleeper.  After 300 ms (the
 * hogs' utilisation has built up, and the LLC's periodic balances have
 * set nr_idle_scan), ask where a wakeup from the first busy CPU would put
 * the sleeper.  Returns that CPU (-1 on error), the busy CPU, the first
 * idle CPU after it (wrapping) and how many CPUs lie between, and
 * nr_idle_scan.
 */
struct cfst_sis {
	int cpu, busy, idle, dist, nr_scan;
};

static bool cfst_sis_target(const char *policy, int nhogs, struct cfst_sis *o)
{
	struct cfst_run r;
	bool ok = false;

	if (!cfst_start(&r, "pack:1 core:8 pu:1", policy, 300 * SL_MSEC))
		return false;
	struct cfst_script *w = cfst_new(r.sim);
	cfst_add(w, sl_act_sleep(1 * SL_SEC));
	struct cfst_script *root = cfst_new(r.sim);
	for (int i = 0; i < nhogs; i++)
		cfst_fork(root, cfst_hog(r.sim, 1000), "hog", 0);
	cfst_fork(root, w, "w", 0);
	for (int i = 0; i <= nhogs; i++)
		cfst_add(root, sl_act_wait());
	sl_sim_spawn_root(r.sim, &cfst_prog, root, "root");
	struct cfs *s = cfst_state(&r);
	if (cfst_run(&r) && s->rq[0].sd_llc >= 0 && s->rq[0].llc_size == 8) {
		o->busy = o->idle = -1;
		for (int c = 0; c < s->ncpus && o->busy < 0; c++)
			if (!cfs_cpu_idle(s, c))
				o->busy = c;
		for (int k = 1; k < s->ncpus && o->idle < 0 && o->busy >= 0; k++)
			if (cfs_cpu_idle(s, (o->busy + k) % s->ncpus)) {
				o->idle = (o->busy + k) % s->ncpus;
				o->dist = k;
			}
		struct cfs_entity *se = cfs_se(cfst_find(r.sim, "w"));
		o->nr_scan = s->nr_idle_scan[s->rq[0].llc_id];
		if (o->busy >= 0 && o->idle >= 0 && !se->on_rq) {
			se->recent_used_cpu = -1;
			o->cpu = cfs_select_task_rq(s, se, o->busy, o->busy, CFS_WF_TTWU, NULL);
			ok = true;
		}
	}
	sl_sim_destroy(r.sim);
	return ok;
}

SL_TEST(cfs_sis_util)
{
	struct cfst_sis o;

	/* 7 busy CPUs of 8: 7/8 of the capacity used is past 85%, nothing is
	 * scanned, the task is queued on the busy CPU */
	CHECK(cfst_sis_target("cfs", 7, &o));
	CHECKF(o.nr_scan == 0 && o.cpu == o.busy, "7 hogs: nr_idle_scan %d, woke on %d (busy %d)",
	       o.nr_scan, o.cpu, o.busy);
	/* without SIS_UTIL the whole LLC is searched: the idle CPU */
	CHECK(cfst_sis_target("cfs:sis_util=off", 7, &o));
	CHECKF(o.cpu == o.idle, "sis_util=off: woke on %d (idle %d)", o.cpu, o.idle);
	/* half busy: 8 x (1 - (0.5 x 1.17)^2) = 5 CPUs; the first idle CPU is
	 * found if it lies within them */
	CHECK(cfst_sis_target("cfs", 4, &o));
	CHECKF(o.nr_scan >= 4 && o.nr_scan <= 6 && o.cpu == (o.dist <= o.nr_scan ? o.idle : o.busy),
	       "4 hogs: nr_idle_scan %d, woke on %d (busy %d, idle %d at %d)", o.nr_scan, o.cpu,
	       o.busy, o.idle, o.dist);
	/* 6 of 8 and a little more: 1 or 2 CPUs, which may not reach an idle one */
	CHECK(cfst_sis_target("cfs", 6, &o));
	CHECKF(o.nr_scan >= 1 && o.nr_scan <= 2 && o.cpu == (o.dist <= o.nr_scan ? o.idle : o.busy),
	       "6 hogs: nr_idle_scan %d, woke on %d (busy %d, idle %d at %d)", o.nr_scan, o.cpu,
	       o.busy, o.idle, o.dist);
}

/* ---- RUN_TO_PARITY is not renewed when schedule() keeps the task ---- */

/*
 * One CPU, one hog.  After 50 ms its first request has long ended, so
 * RUN_TO_PARITY no longer protects it.  A schedule() that picks it again
 * (pick_next with the hog as prev) must not protect it anew: 6.12's
 * put_prev_set_next_task returns early when prev == next, and
 * set_next_entity, which stashes the deadline, is not called.  Returns
 * the protection before and after (-1 on error).
 */
static int cfst_repick_protect(const char *policy, int *before)
{
	struct cfst_run r;
	int after = -1;

	if (!cfst_start(&r, "pack:1 core:1 pu:1", policy, 50 * SL_MSEC))
		return -1;
	cfst_spawn_hog(&r, 100);
	if (cfst_run(&r)) {
		struct sl_task *hog = cfst_find(r.sim, "hog");
		if (hog && sl_curr(r.sim, 0) == hog) {
			*before = cfs_se(hog)->protect;
			struct sl_task *next = sl_policy_cfs.pick_next(r.sim, 0, hog);
			if (next == hog)
				after = cfs_se(hog)->protect;
		}
	}
	sl_sim_destroy(r.sim);
	return after;
}

SL_TEST(cfs_repick_keeps_parity_off)
{
	int before = -1;
	int after = cfst_repick_protect("cfs", &before);
	CHECKF(before == 0 && after == 0, "eevdf: protected %d before the pick, %d after", before,
	       after);
}

/*
 * One CPU, hogs of nice 5, -5 and 5.  6.12's __pick_next_task picks
 * before it puts prev back, so pick_eevdf sees prev as curr: while prev
 * is protected (RUN_TO_PARITY, its first request since it was picked) and
 * eligible, it keeps the CPU even where another eligible task has an
 * earlier deadline.  Such a moment is short (a nice-5 task's vruntime runs
 * three times as fast as the clock): the run stops at 5 us steps from
 * 48.2 ms, where a nice-5 hog has just been picked, until the state holds
 * (a reschedule that did not ask pick_eevdf, a SCHED_IDLE task's or a
 * renice's, could find it), and a schedule() then picks with that hog as
 * prev.  Returns 1 if prev is kept, 0 if not, -1 if no step had the state
 * (the run's course changed: move the window).  Until Dec 2026 the model
 * put prev back first and picked the other.
 */
static int cfst_parity_keeps_prev(const char *policy)
{
	static const int nice[3] = { 5, -5, 5 };

	for (int k = 0; k < 40; k++) {
		struct cfst_run r;
		int kept = -1;

		if (!cfst_start(&r, "pack:1 core:1 pu:1", policy, 48200 * SL_USEC + k * 5 * SL_USEC))
			return -1;
		struct cfst_script *root = cfst_new(r.sim);
		for (int i = 0; i < 3; i++)
			cfst_fork(root, cfst_hog(r.sim, 1000), "hog", nice[i]);
		for (int i = 0; i < 3; i++)
			cfst_add(root, sl_act_wait());
		sl_sim_spawn_root(r.sim, &cfst_prog, root, "root");
		struct sl_task *curr = cfst_run(&r) ? sl_curr(r.sim, 0) : NULL;
		if (curr && !strcmp(curr->comm, "hog")) {
			struct cfs *s = cfst_state(&r);
			struct cfs_rq *rq = &s->rq[0];
			struct cfs_entity *pse = cfs_se(curr), *other = NULL;
			cfs_update_curr(s, rq);
			for (struct cfs_entity *e = cfs_tl_first(&rq->tl); e; e = cfs_tl_next(e))
				if (cfs_entity_eligible(rq, e) && e->deadline < pse->deadline)
					other = e;
			if (pse->protect && cfs_entity_eligible(rq, pse) && other)
				kept = sl_policy_cfs.pick_next(r.sim, 0, curr) == curr;
		}
		sl_sim_destroy(r.sim);
		if (kept >= 0)
			return kept;
	}
	return -1;
}

SL_TEST(cfs_pick_sees_prev_as_curr)
{
	int kept = cfst_parity_keeps_prev("cfs");
	CHECKF(kept == 1, "prev protected and eligible, another eligible and earlier: kept %d", kept);
	kept = cfst_parity_keeps_prev("cfs:run_to_parity=off");
	CHECKF(kept == 0, "without RUN_TO_PARITY the earlier deadline is picked: kept %d", kept);
}

/*
 * Two nodes of four CPUs, a hog pinned to CPU 5.  A task pinned to CPU 4
 * sleeps with its mask changed to CPUs 1, 5 and 6.  Its timer wakeup comes
 * from CPU 4, which it may not use, so select_task_rq_fair looks for no
 * affine CPU, and select_idle_sibling returns the idle target, CPU 4,
 * without asking the mask (6.12 asks it of recent_used_cpu only); then
 * select_task_rq falls back (select_fallback_rq) to the first allowed CPU
 * of CPU 4's node: CPU 5, busy, though CPU 6 idles.  Until Dec 2026 the
 * model skipped a target the mask forbids and found CPU 6, and its
 * fallback was the first allowed CPU of the machine, CPU 1.  Returns the
 * CPU the task ran on after its sleep.
 */
static int cfst_fallback_cpu(void)
{
	struct cfst_run r;
	int cpu = -1;

	if (!cfst_start(&r, "numa:2 pack:1 core:4 pu:1", "cfs", 50 * SL_MSEC))
		return -1;
	sl_cpumask later;
	sl_cpumask_clear(&later);
	sl_cpumask_set(&later, 1);
	sl_cpumask_set(&later, 5);
	sl_cpumask_set(&later, 6);
	struct cfst_script *t = cfst_new(r.sim), *hog = cfst_new(r.sim), *root = cfst_new(r.sim);
	cfst_add(hog, cfst_pin(r.sim, 5));
	cfst_add(hog, sl_act_run(40 * SL_MSEC, SL_WC_INT));
	cfst_add(t, cfst_pin(r.sim, 4));
	cfst_add(t, sl_act_run(1 * SL_MSEC, SL_WC_INT));
	cfst_affinity(t, later);
	cfst_add(t, sl_act_sleep(10 * SL_MSEC));
	cfst_add(t, sl_act_run(1 * SL_MSEC, SL_WC_INT));
	cfst_fork(root, hog, "hog", 0);
	cfst_fork(root, t, "t", 0);
	cfst_add(root, sl_act_wait());
	cfst_add(root, sl_act_wait());
	sl_sim_spawn_root(r.sim, &cfst_prog, root, "root");
	if (cfst_run(&r) && t->pc == 4)
		cpu = t->cpu[3];	/* where it asked for its second run */
	sl_sim_destroy(r.sim);
	return cpu;
}

SL_TEST(cfs_fallback_stays_on_the_node)
{
	int cpu = cfst_fallback_cpu();
	CHECKF(cpu == 5, "woken on CPU %d", cpu);
}

/* ---- PELT on a runqueue: removal waits for the next update ---- */

/*
 * 2 CPUs: a hog, and a task that runs 20 ms and sleeps.  At 100 ms the
 * sleeper's averages still sit in its CPU's (blocked load).  Removing it
 * (a wakeup elsewhere, or its death: remove_entity_load_avg) leaves the
 * CPU's averages alone until that runqueue's next update, which takes
 * them off; readers do not update, the CPU's balance does; a delayed
 * task (DELAY_DEQUEUE) counts as load but not as runnable (se_runnable).
 */
SL_TEST(cfs_pelt_removed_and_delayed)
{
	struct cfst_run r;

	if (!cfst_start(&r, "pack:1 core:2 pu:1", "cfs", 100 * SL_MSEC)) {
		CHECK(false);
		return;
	}
	struct cfst_script *w = cfst_new(r.sim);
	cfst_add(w, sl_act_run(20 * SL_MSEC, SL_WC_INT));
	cfst_add(w, sl_act_sleep(1 * SL_SEC));
	cfst_spawn_two(&r, cfst_hog(r.sim, 1000), "hog", 0, w, "w", 0);
	struct cfs *s = cfst_state(&r);
	CHECK(cfst_run(&r));
	struct cfs_entity *se = cfs_se(cfst_find(r.sim, "w"));
	struct cfs_rq *rq = &s->rq[se->cpu];
	CHECK(!se->on_rq);

	cfs_pelt_rq(s, rq);
	cfs_pelt_se(s, se);
	uint64_t util = rq->avg.util_avg, load = rq->avg.load_avg;
	CHECKF(se->avg.util_avg > 50 && util >= se->avg.util_avg, "sleeper util %lu, cpu %lu",
	       (unsigned long)se->avg.util_avg, (unsigned long)util);
	cfs_pelt_remove(s, rq, se);
	CHECK(rq->removed.nr == 1 && rq->removed.util_avg == se->avg.util_avg);
	CHECK(rq->avg.util_avg == util && rq->avg.load_avg == load);
	cfs_pelt_rq(s, rq);	/* no time has passed: only the removal */
	CHECK(rq->removed.nr == 0);
	CHECK(rq->avg.util_avg == util - se->avg.util_avg);
	CHECK(rq->avg.load_avg == load - se->avg.load_avg);

	/* readers take the signals as the last update left them (the kernel
	 * reads cpu_util and friends without updating); the CPU's own balance
	 * brings them up (update_blocked_averages) */
	rq->avg.last_update_time -= 5 * SL_MSEC;
	sl_time stale = rq->avg.last_update_time;
	uint64_t stale_util = rq->avg.util_avg;
	CHECK(cfs_cpu_util(rq) == (long)stale_util && rq->avg.last_update_time == stale);
	cfs_pelt_blocked(s, rq->cpu);
	CHECK(rq->avg.last_update_time > stale + 4 * SL_MSEC);
	CHECK(rq->avg.util_avg < stale_util);
	/* a new task's share (post_init_entity_util_avg) comes from them as
	 * stored too: weight-proportional, at most half the spare capacity */
	rq->avg.last_update_time -= 5 * SL_MSEC;
	stale = rq->avg.last_update_time;
	struct cfs_entity fresh = { .weight = 1024, .cpu = rq->cpu };
	cfs_pelt_init_new(s, rq, &fresh);
	uint64_t u = rq->avg.util_avg, cap = (uint64_t)(rq->capacity_orig - (long)u) / 2;
	uint64_t share = u ? u * 1024 / (rq->avg.load_avg + 1) : cap;
	CHECK(rq->avg.last_update_time == stale);
	CHECK(fresh.avg.load_avg == 1024 && fresh.avg.util_avg == (share < cap ? share : cap));
	CHECK(fresh.avg.runnable_avg == fresh.avg.util_avg && fresh.avg.util_avg > 0);

	/* the hog, on_rq, as if delayed for 2 ms: load grows, runnable not */
	struct cfs_entity *hog = cfs_se(cfst_find(r.sim, "hog"));
	CHECK(hog->on_rq);
	cfs_pelt_se(s, hog);
	struct cfs_avg before = hog->avg;
	hog->delayed = true;
	hog->avg.last_update_time -= 2 * SL_MSEC;
	cfs_pelt_se(s, hog);
	hog->delayed = false;
	CHECK(hog->avg.runnable_sum < before.runnable_sum);
	CHECK(hog->avg.load_sum > cfs_pelt_decay(before.load_sum, 2));
	sl_sim_destroy(r.sim);
}

/* ---- active balance: only for a migrate_task imbalance ---- */

/* 65 hogs on the 64 CPUs of xeon-2s-smt for 5 s: the active balances
 * started, or -1. */
static long cfst_active_kicks(void)
{
	struct cfst_run r;
	long kicks = -1;

	if (!cfst_start(&r, "xeon-2s-smt", "cfs", 5000 * SL_MSEC))
		return -1;
	struct cfst_script *root = cfst_new(r.sim);
	for (int i = 0; i < 65; i++)
		cfst_fork(root, cfst_hog(r.sim, 10000), "hog", 0);
	cfst_add(root, sl_act_wait());
	sl_sim_spawn_root(r.sim, &cfst_prog, root, "root");
	if (cfst_run(&r))
		kicks = cfst_state(&r)->active_kicks;
	sl_sim_destroy(r.sim);
	return kicks;
}

/* 6.12 need_active_balance(): the failure threshold pushes a running task
 * only for migrate_task (imbalanced_active_balance); 65 hogs on 64 CPUs
 * are a load imbalance at the SMT and MC levels, which shr_bound()'s
 * halving resolves without pushing anything. */
SL_TEST(cfs_active_balance_only_for_task_imbalance)
{
	long kicks = cfst_active_kicks();
	CHECKF(kicks == 0, "%ld active balances for 65 hogs on 64 CPUs", kicks);
}

/* ---- a task that moved is cache-cold ---- */

/* Two hogs pinned to CPU 0 of two, stopped at `limit`: the waiting one
 * if it left the CPU less than migration_cost ago, else NULL. */
static struct sl_task *cfst_hot_waiter(struct cfst_run *r, sl_time limit)
{
	if (!cfst_start(r, "pack:1 core:2 pu:1", "cfs:newidle=off", limit))
		return NULL;
	struct cfst_script *root = cfst_new(r->sim);
	cfst_add(root, cfst_pin(r->sim, 0));
	cfst_fork(root, cfst_hog(r->sim, 100), "a", 0);
	cfst_fork(root, cfst_hog(r->sim, 100), "b", 0);
	cfst_add(root, sl_act_wait());
	cfst_add(root, sl_act_wait());
	sl_sim_spawn_root(r->sim, &cfst_prog, root, "root");
	if (!cfst_run(r))
		return NULL;
	struct sl_task *a = cfst_find(r->sim, "a"), *b = cfst_find(r->sim, "b");
	struct sl_task *w = !a || !b ? NULL : a->cpu < 0 ? a : b->cpu < 0 ? b : NULL;
	if (!w || w->user_ns + w->sys_ns == 0 ||
	    sl_now(r->sim) - cfs_se(w)->exec_start >= cfst_state(r)->migration_cost)
		return NULL;
	return w;
}

/* 6.12 enqueue_entity(): ENQUEUE_MIGRATED sets exec_start = 0, so
 * task_hot() finds a task that moved cold until it runs again. */
SL_TEST(cfs_migrated_task_is_cold)
{
	struct cfst_run r;
	struct sl_task *w = NULL;

	/* the first stop just after the waiting hog ran */
	for (sl_time at = 2 * SL_MSEC; at <= 20 * SL_MSEC && !w; at += 250 * SL_USEC) {
		w = cfst_hot_waiter(&r, at);
		if (!w && r.sim)
			sl_sim_destroy(r.sim);
	}
	CHECK(w != NULL);
	if (!w)
		return;
	struct cfs *s = cfst_state(&r);
	cfs_move_queued(s, cfs_se(w), 1);
	CHECKF(sl_now(r.sim) - cfs_se(w)->exec_start >= s->migration_cost,
	       "moved task ran %.3f ms ago: hot",
	       (double)(sl_now(r.sim) - cfs_se(w)->exec_start) / SL_MSEC);
	sl_sim_destroy(r.sim);
}

/* 6.12 __sched_fork(): exec_start = 0, which is boot time, so a task that
 * never ran is cold to task_hot() however soon after the start of a run
 * it is looked at.  A hog forked at the start by a parent pinned to CPU 0
 * has not run 200 us in (no child runs first) and is cold; until Dec 2026 it was hot for the first
 * migration_cost of the simulated clock. */
SL_TEST(cfs_never_run_task_is_cold)
{
	struct cfst_run r;

	if (!cfst_start(&r, "pack:1 core:2 pu:1", "cfs", 200 * SL_USEC))
		return;
	struct cfst_script *root = cfst_new(r.sim);
	cfst_add(root, cfst_pin(r.sim, 0));
	cfst_fork(root, cfst_hog(r.sim, 100), "a", 0);
	cfst_add(root, sl_act_run(1 * SL_MSEC, SL_WC_INT));
	sl_sim_spawn_root(r.sim, &cfst_prog, root, "root");
	if (cfst_run(&r)) {
		struct sl_task *a = cfst_find(r.sim, "a");
		CHECK(a && a->last_cpu < 0);
		if (a && a->last_cpu < 0)
			CHECKF(sl_now(r.sim) - cfs_se(a)->exec_start >= cfst_state(&r)->migration_cost,
			       "a never-run task left a CPU %.3f ms ago: hot",
			       (double)(sl_now(r.sim) - cfs_se(a)->exec_start) / SL_MSEC);
	}
	sl_sim_destroy(r.sim);
}

/* ---- newly idle balancing detaches one task under CONFIG_PREEMPTION ---- */

/* Two CPUs: four hogs forked on CPU 0 (fork balancing off), a 5 ms task
 * that moved itself to CPU 1.  When it exits, CPU 1 balances newly idle
 * against CPU 0's four: the tasks CPU 1 holds at 6 ms (before its next
 * periodic balance), or -1. */
static int cfst_newidle_takes(const char *policy)
{
	struct cfst_run r;
	int n = -1;

	if (!cfst_start(&r, "pack:1 core:2 pu:1", policy, 6 * SL_MSEC))
		return -1;
	struct cfst_script *quick = cfst_new(r.sim);
	cfst_add(quick, cfst_pin(r.sim, 1));
	cfst_add(quick, cfst_setaffinity(&sl_topo(r.sim)->all_cpus));
	cfst_add(quick, sl_act_run(5 * SL_MSEC, SL_WC_INT));
	struct cfst_script *root = cfst_new(r.sim);
	cfst_fork(root, quick, "quick", 0);
	for (int i = 0; i < 4; i++)
		cfst_fork(root, cfst_hog(r.sim, 100), "hog", 0);
	cfst_add(root, sl_act_wait());
	sl_sim_spawn_root(r.sim, &cfst_prog, root, "root");
	if (cfst_run(&r) && quick->pc == quick->n)
		n = cfst_state(&r)->rq[1].nr_running;
	sl_sim_destroy(r.sim);
	return n;
}

/* 6.12 detach_tasks(): #ifdef CONFIG_PREEMPTION, a newly idle balance
 * stops after the first task; without it, it takes the imbalance, half
 * the difference of two single-CPU groups ((4 - 0) / 2). */
SL_TEST(cfs_newidle_takes_one)
{
	int on = cfst_newidle_takes("cfs:fork_balance=off");
	int off = cfst_newidle_takes("cfs:fork_balance=off,preemption=off");
	CHECKF(on == 1 && off == 2, "CPU 1 holds %d tasks with CONFIG_PREEMPTION, %d without",
	       on, off);
}

/* ---- a child's exit wakes its parent without WF_SYNC ---- */

/* Two packages without a shared cache: root forks a 1 ms child (on the
 * idle CPU 1) and waits; the CPU root runs on after the child's exit, or
 * -1. */
static int cfst_parent_cpu_after_exit(void)
{
	struct cfst_run r;
	int cpu = -1;

	if (!cfst_start(&r, "pack:2 core:1 pu:1", "cfs", 0))
		return -1;
	struct cfst_script *child = cfst_hog(r.sim, 1);
	struct cfst_script *root = cfst_new(r.sim);
	cfst_fork(root, child, "child", 0);
	cfst_add(root, sl_act_wait());
	cfst_add(root, sl_act_run(1 * SL_MSEC, SL_WC_INT));
	sl_sim_spawn_root(r.sim, &cfst_prog, root, "root");
	if (cfst_run(&r) && root->cpu[0] == 0 && child->cpu[0] == 1)
		cpu = root->cpu[2];
	sl_sim_destroy(r.sim);
	return cpu;
}

/* 6.12 select_task_rq_fair(): sync = WF_SYNC && !(current->flags &
 * PF_EXITING).  __wake_up_parent's sync wakeup comes from a task in
 * do_exit, so wake_affine_idle does not take the parent to the dying
 * child's CPU ("sync && nr_running == 1"): it goes back to its idle CPU. */
SL_TEST(cfs_exit_wakeup_is_not_sync)
{
	int cpu = cfst_parent_cpu_after_exit();
	CHECKF(cpu == 0, "the parent runs on CPU %d after its child's exit", cpu);
}

/* 6.12 wake_up_new_task(): p->recent_used_cpu = task_cpu(p), the
 * parent's CPU, before select_task_rq places the child. */
SL_TEST(cfs_new_task_recent_cpu_is_parents)
{
	struct cfst_run r;

	if (!cfst_start(&r, "pack:1 core:4 pu:1", "cfs", 1 * SL_MSEC))
		return;
	struct cfst_script *root = cfst_new(r.sim);
	cfst_fork(root, cfst_hog(r.sim, 10), "child", 0);
	cfst_add(root, sl_act_wait());
	sl_sim_spawn_root(r.sim, &cfst_prog, root, "root");
	struct sl_task *child = cfst_run(&r) ? cfst_find(r.sim, "child") : NULL;
	CHECK(child != NULL);
	if (child)
		CHECKF(root->cpu[0] >= 0 && child->cpu != root->cpu[0] &&
		       cfs_se(child)->recent_used_cpu == root->cpu[0],
		       "child on CPU %d, recent_used_cpu %d, parent on %d", child->cpu,
		       cfs_se(child)->recent_used_cpu, root->cpu[0]);
	sl_sim_destroy(r.sim);
}

/* get_sd_balance_interval(): msecs_to_jiffies() rounds up, so at HZ 250 a
 * domain of six CPUs (balance_interval 6 ms) balances every 2 jiffies
 * when idle, not every one. */
SL_TEST(cfs_balance_interval_rounds_up)
{
	struct cfst_run r;

	if (!cfst_start(&r, "pack:1 core:6 pu:1", "cfs:hz=250,nohz=off", 5 * SL_MSEC))
		return;
	struct cfst_script *root = cfst_new(r.sim);
	cfst_add(root, sl_act_run(10 * SL_MSEC, SL_WC_INT));
	sl_sim_spawn_root(r.sim, &cfst_prog, root, "root");
	if (cfst_run(&r)) {
		struct cfs_rq *rq = &cfst_state(&r)->rq[1];
		struct cfs_domain *sd = &rq->sd[rq->nsd - 1];
		CHECKF(sd->span->weight == 6 && sd->ivl_ms == 6 && sd->ivl_j[0] == 2,
		       "%d CPUs, %d ms: %llu jiffies idle", sd->span->weight, (int)sd->ivl_ms,
		       (unsigned long long)sd->ivl_j[0]);
	}
	sl_sim_destroy(r.sim);
}

/* sched_balance_domains(): when a balance says stop (should_we_balance:
 * another CPU of the group balances, continue_balancing = 0), 6.12 goes
 * on up the domains while each one's newly-idle cost decays
 * (update_newidle_cost's need_decay), balancing none of them, and stops
 * at the first that does not decay.  CPU 1 of an idle 16-CPU machine:
 * SMT balances, MC stops it (CPU 0, its sibling, is its group's first
 * idle CPU), PKG decays, so NUMA decays too; with PKG decayed within the
 * second, NUMA is left as it was. */
SL_TEST(cfs_stopped_balance_still_decays_newidle_cost_upwards)
{
	for (int pkg_decays = 0; pkg_decays < 2; pkg_decays++) {
		struct cfst_run r;
		if (!cfst_start(&r, "numa:2 pack:2 core:2 pu:2", "cfs", SL_MSEC))
			return;
		struct cfst_script *root = cfst_new(r.sim);
		cfst_add(root, sl_act_run(100 * SL_USEC, SL_WC_INT));
		sl_sim_spawn_root(r.sim, &cfst_prog, root, "root");
		if (cfst_run(&r)) {
			struct cfs *s = cfst_state(&r);
			struct cfs_rq *rq = &s->rq[1];
			uint64_t j = sl_jiffies(r.sim) + 10 * (uint64_t)s->hz;
			CHECKF(rq->nsd == 4 && !strcmp(rq->sd[1].name, "MC") &&
			       !strcmp(rq->sd[3].name, "NUMA"), "%d domains", rq->nsd);
			for (int i = 0; i < rq->nsd; i++) {
				rq->sd[i].max_newidle_lb_cost = 1000;
				rq->sd[i].last_decay_max_lb_cost = 0;
				rq->sd[i].last_balance = 0;
			}
			if (!pkg_decays)
				rq->sd[2].last_decay_max_lb_cost = j;
			cfs_balance_domains(s, 1, j, CFS_IDLE);
			CHECK(rq->sd[2].last_balance == 0);	/* not balanced */
			CHECKF(rq->sd[3].max_newidle_lb_cost == (pkg_decays ? 1000 * 253 / 256 : 1000),
			       "PKG %s: NUMA's cost %lld", pkg_decays ? "decays" : "does not",
			       (long long)rq->sd[3].max_newidle_lb_cost);
		}
		sl_sim_destroy(r.sim);
	}
}

/* sched_balance_domains(): when the last domain it visits decays its
 * newly-idle cost, the CPU's max_idle_balance_cost becomes the sum of its
 * domains' costs, never below migration_cost; ttwu_do_activate caps
 * avg_idle at twice it.  CPU 1 of an idle 16-CPU machine, four domains of
 * 300 us each: 1,186 us after the decay; of 3 us each: the 500 us floor;
 * with the top domain decayed within the second: unchanged. */
SL_TEST(cfs_balance_pass_sets_max_idle_balance_cost)
{
	static const sl_time each[] = { 300 * SL_USEC, 3 * SL_USEC, 300 * SL_USEC };

	for (int k = 0; k < 3; k++) {
		struct cfst_run r;
		if (!cfst_start(&r, "numa:2 pack:2 core:2 pu:2", "cfs", SL_MSEC))
			return;
		struct cfst_script *root = cfst_new(r.sim);
		cfst_add(root, sl_act_run(100 * SL_USEC, SL_WC_INT));
		sl_sim_spawn_root(r.sim, &cfst_prog, root, "root");
		if (cfst_run(&r)) {
			struct cfs *s = cfst_state(&r);
			struct cfs_rq *rq = &s->rq[1];
			uint64_t j = sl_jiffies(r.sim) + 10 * (uint64_t)s->hz;
			CHECK(rq->nsd == 4 && rq->max_idle_balance_cost == s->migration_cost);
			for (int i = 0; i < rq->nsd; i++) {
				rq->sd[i].max_newidle_lb_cost = each[k];
				rq->sd[i].last_decay_max_lb_cost = 0;
			}
			if (k == 2)
				rq->sd[rq->nsd - 1].last_decay_max_lb_cost = j;
			cfs_balance_domains(s, 1, j, CFS_IDLE);
			sl_time want = k == 0 ? 4 * (each[0] * 253 / 256) : s->migration_cost;
			CHECKF(rq->max_idle_balance_cost == want, "case %d: %lld ns, want %lld", k,
			       (long long)rq->max_idle_balance_cost, (long long)want);
		}
		sl_sim_destroy(r.sim);
	}
}

/* ttwu_do_activate(): avg_idle moves an eighth of the way to the idle
 * time just ended, capped at 2 * max_idle_balance_cost, not at 2 *
 * migration_cost.  A task pinned to CPU 1 sleeps 50 ms: with the CPU's
 * cost at 5 ms, avg_idle goes from 1 ms to about 7 ms (1 ms with a cost
 * at its 0.5 ms floor). */
SL_TEST(cfs_avg_idle_capped_by_max_idle_balance_cost)
{
	for (int raised = 0; raised < 2; raised++) {
		struct cfst_run r;
		if (!cfst_start(&r, "pack:1 core:2 pu:1", "cfs", 200 * SL_MSEC))
			return;
		struct cfs *s = cfst_state(&r);
		if (raised)
			s->rq[1].max_idle_balance_cost = 5 * SL_MSEC;
		struct cfst_script *w = cfst_new(r.sim);
		cfst_add(w, cfst_pin(r.sim, 1));
		cfst_add(w, sl_act_run(SL_MSEC, SL_WC_INT));
		cfst_add(w, sl_act_sleep(50 * SL_MSEC));
		cfst_add(w, sl_act_run(SL_MSEC, SL_WC_INT));
		struct cfst_script *root = cfst_new(r.sim);
		cfst_fork(root, w, "w", 0);
		cfst_add(root, sl_act_wait());
		sl_sim_spawn_root(r.sim, &cfst_prog, root, "root");
		if (cfst_run(&r)) {
			sl_time avg = s->rq[1].avg_idle;
			if (raised)
				CHECKF(avg > 6 * SL_MSEC && avg < 8 * SL_MSEC, "avg_idle %lld ns",
				       (long long)avg);
			else
				CHECKF(avg == 2 * s->migration_cost, "avg_idle %lld ns", (long long)avg);
		}
		sl_sim_destroy(r.sim);
	}
}

/* update_sg_lb_stats() on a symmetric machine: a group whose CPU runs
 * one fair task on a capacity RT noticeably cut is group_misfit_task to
 * an idle balancer (sched_reduced_capacity), which then forces the
 * balance and, as the running task cannot be detached, has the busy
 * CPU's migration thread push it over (need_active_balance).  Two CPUs:
 * the hog on CPU 1, CPU 0 idle; with CPU 1's capacity at 400 of 1,024 a
 * balance of CPU 0 starts the push, at full capacity it does nothing
 * (a fully busy group of one fair task). */
SL_TEST(cfs_misfit_task_on_rt_reduced_cpu_is_pushed)
{
	static sl_cpumask all;

	sl_cpumask_clear(&all);
	sl_cpumask_set(&all, 0);
	sl_cpumask_set(&all, 1);
	for (int cut = 0; cut < 2; cut++) {
		struct cfst_run r;
		if (!cfst_start(&r, "pack:1 core:2 pu:1", "cfs", 20 * SL_MSEC))
			return;
		struct cfst_script *hog = cfst_new(r.sim);
		cfst_add(hog, cfst_setaffinity(&all));
		cfst_add(hog, sl_act_run(100 * SL_MSEC, SL_WC_INT));
		struct cfst_script *root = cfst_new(r.sim);
		cfst_add(root, cfst_pin(r.sim, 1));
		cfst_fork(root, hog, "hog", 0);
		cfst_add(root, sl_act_wait());
		sl_sim_spawn_root(r.sim, &cfst_prog, root, "root");
		if (cfst_run(&r)) {
			struct cfs *s = cfst_state(&r);
			struct sl_task *t = cfst_find(r.sim, "hog");
			CHECKF(t && t->cpu == 1 && sl_curr(r.sim, 1) == t && !sl_curr(r.sim, 0),
			       "the hog runs alone on CPU 1");
			if (cut) {
				s->rq[1].capacity = 400;
				s->rt_seen = true;
			}
			struct cfs_rq *rq0 = &s->rq[0];
			CHECK(rq0->nsd == 1);
			rq0->sd[0].last_balance = 0;
			cfs_balance_domains(s, 0, sl_jiffies(r.sim), CFS_IDLE);
			CHECKF(s->rq[1].active_balance == (bool)cut &&
			       (!cut || s->rq[1].push_cpu == 0),
			       "capacity %ld: active balance %d to CPU %d", s->rq[1].capacity,
			       s->rq[1].active_balance, s->rq[1].push_cpu);
		}
		sl_sim_destroy(r.sim);
	}
}

/* sched_balance_trigger(): a CPU on the null domain (the only CPU of its
 * machine: every level degenerates) raises no SCHED_SOFTIRQ, so its tick
 * never brings its blocked averages up to date; on two CPUs it does. */
SL_TEST(cfs_null_domain_tick_leaves_blocked_averages)
{
	static const char *const machines[] = { "pack:1 core:1 pu:1", "pack:1 core:2 pu:1" };

	for (int m = 0; m < 2; m++) {
		struct cfst_run r;
		if (!cfst_start(&r, machines[m], "cfs", 200 * SL_MSEC))
			return;
		cfst_spawn_hog(&r, 150);
		if (cfst_run(&r)) {
			const struct cfs_rq *rq = &cfst_state(&r)->rq[0];
			CHECKF(rq->nsd == m, "%d CPUs: %d domains", m + 1, rq->nsd);
			CHECKF((rq->last_blocked_tick > 0) == (m == 1), "%d CPUs: last blocked update at jiffy %llu",
			       m + 1, (unsigned long long)rq->last_blocked_tick);
		}
		sl_sim_destroy(r.sim);
	}
}

/* migrate_task_rq_fair(): a task woken onto another CPU is synced to its
 * old CPU's last update and attached there as it is (last_update_time 0:
 * enqueue does not age it).  A sleeper of CPU 0, whose hog last updated
 * CPU 0's averages at the 8 ms tick, moved to CPU 1 at 10 ms. */
SL_TEST(cfs_wakeup_migration_attaches_unaged)
{
	struct cfst_run r;

	if (!cfst_start(&r, "pack:1 core:2 pu:1", "cfs:hz=250", 10 * SL_MSEC))
		return;
	struct cfst_script *w = cfst_new(r.sim);
	cfst_add(w, sl_act_run(2 * SL_MSEC, SL_WC_INT));
	cfst_add(w, sl_act_sleep(100 * SL_MSEC));
	struct cfst_script *root = cfst_new(r.sim);
	cfst_add(root, cfst_pin(r.sim, 0));
	cfst_fork(root, w, "w", 0);
	cfst_fork(root, cfst_hog(r.sim, 100), "hog", 0);
	cfst_add(root, sl_act_wait());
	sl_sim_spawn_root(r.sim, &cfst_prog, root, "root");
	struct sl_task *t = cfst_run(&r) ? cfst_find(r.sim, "w") : NULL;
	struct cfs *s = cfst_state(&r);
	CHECK(t && t->state == SL_TASK_SLEEPING && cfs_se(t)->cpu == 0 &&
	      sl_now(r.sim) - s->rq[0].avg.last_update_time >= 1024 * SL_USEC);
	if (t && t->state == SL_TASK_SLEEPING && cfs_se(t)->cpu == 0) {
		struct cfs_entity *se = cfs_se(t);
		cfs_move_sleeping(s, se, 1);
		uint64_t util = se->avg.util_avg, load = se->avg.load_avg;
		cfs_enqueue(s, &s->rq[1], se, CFS_ENQ_WAKEUP | CFS_ENQ_MIGRATED);
		CHECKF(se->avg.util_avg == util && se->avg.load_avg == load,
		       "util %llu -> %llu, load %llu -> %llu at the attach",
		       (unsigned long long)util, (unsigned long long)se->avg.util_avg,
		       (unsigned long long)load, (unsigned long long)se->avg.load_avg);
	}
	sl_sim_destroy(r.sim);
}

/*
 * 6.12's task_fork_fair() accounts nothing (set_task_max_allowed_capacity
 * only): the parent's runqueue is brought up to date only by what runs
 * there next, the new task's by wake_up_new_task's enqueue.  6.5's
 * task_fork_fair() called update_curr() on the parent's runqueue, and the
 * model did so for EEVDF too until Dec 2026 (an audit against 6.12): a
 * parent whose request had ended was then preempted at the fork instead
 * of at its next tick.  Two CPUs: p runs 1 ms, forks c, allowed on CPU 1
 * only, and runs on; at the step after the fork p's CPU time is still as
 * last accounted before it (the 1 ms not yet charged), and the legacy pick
 * (pick=cfs, 6.5's rules) charges it.
 */
SL_TEST(cfs_fork_accounts_only_the_childs_runqueue)
{
	static const char *const policies[2] = { "cfs", "cfs:pick=cfs" };
	for (int i = 0; i < 2; i++) {
		struct cfst_run r;
		if (!cfst_start(&r, "pack:1 core:2 pu:1", policies[i], 10 * SL_MSEC))
			continue;
		sl_cpumask *cpu1 = cfst_cpu_mask(r.sim, 1);
		struct cfst_script *p = cfst_new(r.sim);
		cfst_add(p, sl_act_run(1 * SL_MSEC, SL_WC_INT));
		cfst_add(p, (struct sl_action){ .kind = SL_ACT_FORK,
			.u.fork = { .prog = &cfst_prog, .state = cfst_hog(r.sim, 5), .comm = "c",
				    .allowed = cpu1 } });
		cfst_add(p, sl_act_run(5 * SL_MSEC, SL_WC_INT));
		sl_sim_spawn_root(r.sim, &cfst_prog, p, "p");
		CHECK(cfst_run(&r));
		bool charged = p->sum_exec[2] > p->sum_exec[1];
		CHECKF(p->pc >= 2 && p->cpu[2] == p->cpu[1] && charged == (i == 1),
		       "%s: p's CPU time %.3f ms at the fork, %.3f ms after it", policies[i],
		       sl_ns_to_s(p->sum_exec[1]) * 1e3, sl_ns_to_s(p->sum_exec[2]) * 1e3);
		sl_sim_destroy(r.sim);
	}
}

/*
 * 6.12's update_sg_wakeup_stats() counts every CPU of a group, whatever
 * the task's affinity; the affinity chooses only among groups and CPUs.
 * One package of four SMT cores: a hog pinned to CPU 4 (core 2); the root
 * on CPU 0 forks c, allowed on CPUs 5 and 6 only.  Core 2 has one idle
 * CPU, core 3 two: the kernel takes core 3, CPU 6.  Until Dec 2026 the
 * model counted span & allowed, one idle CPU each, and took core 2's CPU
 * 5, beside the hog.
 */
SL_TEST(cfs_fork_group_stats_count_the_whole_group)
{
	struct cfst_run r;
	if (!cfst_start(&r, "pack:1 core:4 pu:2", "cfs", 20 * SL_MSEC))
		return;
	sl_cpumask *cpu4 = cfst_cpu_mask(r.sim, 4), *c56 = cfst_cpu_mask(r.sim, 5);
	sl_cpumask_set(c56, 6);
	struct cfst_script *root = cfst_new(r.sim), *c = cfst_hog(r.sim, 5);
	cfst_add(root, cfst_pin(r.sim, 0));
	cfst_add(root, (struct sl_action){ .kind = SL_ACT_FORK,
		.u.fork = { .prog = &cfst_prog, .state = cfst_hog(r.sim, 50), .comm = "hog",
			    .allowed = cpu4 } });
	cfst_add(root, sl_act_run(2 * SL_MSEC, SL_WC_INT));
	cfst_add(root, (struct sl_action){ .kind = SL_ACT_FORK,
		.u.fork = { .prog = &cfst_prog, .state = c, .comm = "c", .allowed = c56 } });
	cfst_add(root, sl_act_run(5 * SL_MSEC, SL_WC_INT));
	sl_sim_spawn_root(r.sim, &cfst_prog, root, "root");
	CHECK(cfst_run(&r));
	CHECKF(c->pc >= 1 && c->cpu[0] == 6, "c first ran on CPU %d", c->cpu[0]);
	sl_sim_destroy(r.sim);
}

/*
 * Wakee flips (6.12 record_wakee, wake_wide): a child inherits its
 * parent's (dup_task_struct copies them, __sched_fork leaves them), and a
 * wakeup of a task allowed on one CPU does not count (core.c
 * select_task_rq calls select_task_rq_fair only when nr_cpus_allowed >
 * 1).  Two CPUs: the root wakes `any` (allowed anywhere) and then `one`
 * (pinned to CPU 1) through channels, then forks `kid`: the root has one
 * flip, from `any`, and so has `kid`.  Until Dec 2026 the root had two and
 * the kid none.
 */
SL_TEST(cfs_wakee_flips_inherited_and_not_for_pinned_wakees)
{
	struct cfst_run r;
	if (!cfst_start(&r, "pack:1 core:2 pu:1", "cfs", 12 * SL_MSEC))
		return;
	sl_cpumask *cpu1 = cfst_cpu_mask(r.sim, 1);
	struct sl_chan *ch[2] = { sl_chan_new(r.sim, 4096, false), sl_chan_new(r.sim, 4096, false) };
	struct cfst_script *root = cfst_new(r.sim), *w[2];
	for (int i = 0; i < 2; i++) {
		w[i] = cfst_new(r.sim);
		cfst_add(w[i], sl_act_chan(SL_ACT_CHAN_READ, ch[i], 1));
		cfst_add(root, (struct sl_action){ .kind = SL_ACT_FORK,
			.u.fork = { .prog = &cfst_prog, .state = w[i], .comm = i ? "one" : "any",
				    .allowed = i ? cpu1 : NULL } });
	}
	cfst_add(root, sl_act_run(2 * SL_MSEC, SL_WC_INT));	/* both block meanwhile */
	cfst_add(root, sl_act_chan(SL_ACT_CHAN_WRITE, ch[0], 1));
	cfst_add(root, sl_act_chan(SL_ACT_CHAN_WRITE, ch[1], 1));
	struct cfst_script *kid = cfst_new(r.sim);
	cfst_add(kid, sl_act_run(20 * SL_MSEC, SL_WC_INT));
	cfst_add(root, (struct sl_action){ .kind = SL_ACT_FORK,
		.u.fork = { .prog = &cfst_prog, .state = kid, .comm = "kid" } });
	cfst_add(root, sl_act_run(20 * SL_MSEC, SL_WC_INT));
	sl_sim_spawn_root(r.sim, &cfst_prog, root, "root");
	CHECK(cfst_run(&r));
	struct sl_task *rt = cfst_find(r.sim, "root"), *kt = cfst_find(r.sim, "kid");
	CHECKF(rt && kt && w[0]->pc == 1 && w[1]->pc == 1 && cfs_se(rt)->wakee_flips == 1 &&
	       cfs_se(kt)->wakee_flips == 1,
	       "root %u flips, kid %u", rt ? cfs_se(rt)->wakee_flips : 99,
	       kt ? cfs_se(kt)->wakee_flips : 99);
	sl_sim_destroy(r.sim);
}

/* ---- affinity in the balancer (6.12 sched_balance_rq) ---- */

/* Fork `child` as `comm`, allowed on `m` (which must outlive the run). */
static void cfst_fork_on(struct cfst_script *s, struct cfst_script *child, const char *comm,
			 const sl_cpumask *m)
{
	cfst_add(s, (struct sl_action){ .kind = SL_ACT_FORK,
		.u.fork = { .prog = &cfst_prog, .state = child, .comm = comm, .allowed = m } });
}

/* A hog of `ms` that first widens its mask to `m` (forked elsewhere). */
static struct cfst_script *cfst_freed_hog(struct sl_sim *sim, const sl_cpumask *m, double ms)
{
	struct cfst_script *s = cfst_new(sim);
	cfst_add(s, cfst_setaffinity(m));
	cfst_add(s, sl_act_run(ms * SL_MSEC, SL_WC_INT));
	return s;
}

/* `nfree` hogs of 300 ms allowed anywhere, started on CPU `from`, beside
 * `npinned` hogs pinned to CPU 0, on `machine` for 2 s: when the last free
 * one finished (-1 if one did not). */
static sl_time cfst_free_hogs_done(const char *machine, const char *policy, int npinned,
				   int nfree, int from)
{
	struct cfst_run r;
	sl_time done = -1;

	if (!cfst_start(&r, machine, policy, 2000 * SL_MSEC))
		return -1;
	sl_cpumask *all = sl_sim_alloc(r.sim, sizeof(*all));
	*all = sl_cpumask_first_n(r.machine.topo.ncpus);
	struct cfst_script *root = cfst_new(r.sim), *f[4];
	cfst_add(root, cfst_pin(r.sim, 0));
	for (int i = 0; i < npinned; i++)
		cfst_fork_on(root, cfst_hog(r.sim, 1000), "pinned", cfst_cpu_mask(r.sim, 0));
	for (int i = 0; i < nfree && i < 4; i++) {
		f[i] = cfst_freed_hog(r.sim, all, 300);
		cfst_fork_on(root, f[i], "free", cfst_cpu_mask(r.sim, from));
	}
	cfst_add(root, sl_act_wait());
	sl_sim_spawn_root(r.sim, &cfst_prog, root, "root");
	if (cfst_run(&r)) {
		done = 0;
		for (int i = 0; i < nfree && i < 4; i++)
			done = f[i]->pc < 2 || done < 0 ? -1 : f[i]->at[2] > done ? f[i]->at[2] : done;
	}
	sl_sim_destroy(r.sim);
	return done;
}

/*
 * LBF_ALL_PINNED: a busiest queue whose every task is pinned away is
 * dropped from the balance, which then goes on without it.  Four CPUs of
 * one package (one CPU a group): three hogs pinned to CPU 0 make it the
 * busiest; two free hogs of 300 ms share CPU 1.  CPUs 2 and 3, idle, take
 * a free one from CPU 1 on the balance's second pass: both are done soon
 * after 300 ms.  Until Dec 2026 the model failed on CPU 0 at every
 * balance and left the two sharing CPU 1 (600 ms) beside two idle CPUs.
 */
SL_TEST(cfs_balance_drops_a_wholly_pinned_queue)
{
	sl_time done = cfst_free_hogs_done("pack:1 core:4 pu:1", "cfs", 3, 2, 1);
	CHECKF(done > 0 && done < 400 * SL_MSEC, "the free hogs were done at %.1f ms",
	       sl_ns_to_s(done) * 1e3);
}

/*
 * LBF_DST_PINNED: a task that may not come to the balancing CPU but may go
 * to another CPU of its group goes there.  Two packages of two CPUs: three
 * hogs allowed on CPUs 0 and 3 start on CPU 0; CPUs 1 and 3 each run a hog
 * pinned there; CPU 2 is idle.  CPU 2's idle balance of the two packages
 * finds CPU 0 the busiest and moves its waiting hogs to CPU 3 at its
 * first tries: some is on CPU 3 by `limit_ms`.  Until Dec 2026 CPU 2 failed
 * and the hogs waited for CPU 3's own balance, which a busy CPU runs
 * busy_factor (16) times less often.  Returns how many were on CPU 3.
 */
static int cfst_dst_pinned_moves(double limit_ms)
{
	struct cfst_run r;
	int on3 = -1;

	if (!cfst_start(&r, "pack:2 core:2 pu:1", "cfs", (sl_time)(limit_ms * SL_MSEC)))
		return -1;
	sl_cpumask *c03 = cfst_cpu_mask(r.sim, 0);
	sl_cpumask_set(c03, 3);
	struct cfst_script *root = cfst_new(r.sim);
	cfst_add(root, cfst_pin(r.sim, 0));
	for (int cpu = 1; cpu <= 3; cpu += 2)
		cfst_fork_on(root, cfst_hog(r.sim, 1000), "own", cfst_cpu_mask(r.sim, cpu));
	for (int i = 0; i < 3; i++)
		cfst_fork_on(root, cfst_freed_hog(r.sim, c03, 1000), "pair", cfst_cpu_mask(r.sim, 0));
	cfst_add(root, sl_act_wait());
	sl_sim_spawn_root(r.sim, &cfst_prog, root, "root");
	if (cfst_run(&r)) {
		on3 = 0;
		for (struct sl_task *t = sl_task_first(r.sim); t; t = sl_task_next(t))
			on3 += !strcmp(t->comm, "pair") && cfs_se(t)->cpu == 3;
	}
	sl_sim_destroy(r.sim);
	return on3;
}

SL_TEST(cfs_balance_moves_a_pinned_task_to_its_group_mate)
{
	int on3 = cfst_dst_pinned_moves(20);
	CHECKF(on3 >= 1, "%d of the three hogs allowed on CPUs 0 and 3 on CPU 3 at 20 ms", on3);
}

/* Two hogs started on CPU 0 of `machine`, pinned there or not, for
 * `limit_ms`: the state, for the caller to read before destroying it. */
static bool cfst_two_on_cpu0(struct cfst_run *r, const char *machine, bool pinned,
			     double limit_ms)
{
	if (!cfst_start(r, machine, "cfs", (sl_time)(limit_ms * SL_MSEC)))
		return false;
	sl_cpumask *all = sl_sim_alloc(r->sim, sizeof(*all));
	*all = sl_cpumask_first_n(r->machine.topo.ncpus);
	struct cfst_script *root = cfst_new(r->sim);
	cfst_add(root, cfst_pin(r->sim, 0));
	for (int i = 0; i < 2; i++)
		cfst_fork_on(root, pinned ? cfst_hog(r->sim, 5000) : cfst_freed_hog(r->sim, all, 5000),
			     "hog", cfst_cpu_mask(r->sim, 0));
	cfst_add(root, sl_act_wait());
	sl_sim_spawn_root(r->sim, &cfst_prog, root, "root");
	return cfst_run(r);
}

/*
 * A balance that tasks pinned away kept from evening out marks the
 * balancing CPU's group one level up imbalanced (sgc->imbalance), so that
 * the other groups' balances force a move from it; a balance that ends
 * with every task free to move clears the mark.  Two packages of two
 * CPUs, two hogs on CPU 0: pinned there, CPU 1's failed balances leave
 * package 0 marked at the package level; free, they spread and it is not.
 */
SL_TEST(cfs_pinned_tasks_mark_the_group_imbalanced)
{
	for (int pinned = 0; pinned < 2; pinned++) {
		struct cfst_run r;
		if (!cfst_two_on_cpu0(&r, "pack:2 core:2 pu:1", pinned, 50))
			continue;
		const struct cfs_domain *pkg = &cfst_state(&r)->rq[1].sd[1];
		bool marked = pkg->span->groups[pkg->local].imbalance;
		CHECKF(marked == pinned, "hogs %s: package 0 %s imbalanced",
		       pinned ? "pinned" : "free", marked ? "marked" : "not marked");
		sl_sim_destroy(r.sim);
	}
}

/*
 * Against a queue whose tasks are all pinned away, 6.12 backs off: the
 * failure count goes back to 0 (out_all_pinned) and the interval doubles
 * up to MAX_PINNED_INTERVAL, 512 ms, beyond the domain's max_interval.
 * Two CPUs, two hogs pinned to CPU 0, 3 s: CPU 1 balances every 512 ms.
 * Until Dec 2026 the model counted a failure each time and stopped at
 * max_interval.
 */
SL_TEST(cfs_balance_backs_off_from_pinned_tasks)
{
	struct cfst_run r;
	if (!cfst_two_on_cpu0(&r, "pack:1 core:2 pu:1", true, 3000))
		return;
	const struct cfs_domain *mc = &cfst_state(&r)->rq[1].sd[0];
	CHECKF(mc->balance_interval == CFS_MAX_PINNED_INTERVAL && mc->nr_balance_failed == 0 &&
	       mc->max_interval < CFS_MAX_PINNED_INTERVAL,
	       "CPU 1's interval %d ms (max_interval %d), %d failures", mc->balance_interval,
	       mc->max_interval, mc->nr_balance_failed);
	sl_sim_destroy(r.sim);
}

/*
 * What the mark does: a group marked imbalanced is the busiest whatever its
 * averages say, and one task is moved from it (calculate_imbalance).  Two
 * packages of two CPUs: CPU 0 runs a hog pinned there and one allowed on
 * CPUs 0, 2 and 3; CPUs 2 and 3 each run a hog pinned there; CPU 1 is
 * idle.  CPU 1 cannot take either hog and marks package 0; package 1's
 * balances then move the free hog to CPU 2 or 3, which they leave alone
 * when package 0 looks as having spare capacity (two tasks on two CPUs).
 * Returns how many times the free hog moved in `limit_ms`.
 */
static long cfst_imbalanced_group_moves(double limit_ms)
{
	struct cfst_run r;
	long moves = -1;

	if (!cfst_start(&r, "pack:2 core:2 pu:1", "cfs", (sl_time)(limit_ms * SL_MSEC)))
		return -1;
	sl_cpumask *c023 = cfst_cpu_mask(r.sim, 0);
	sl_cpumask_set(c023, 2);
	sl_cpumask_set(c023, 3);
	struct cfst_script *root = cfst_new(r.sim);
	cfst_add(root, cfst_pin(r.sim, 0));
	for (int cpu = 0; cpu <= 3; cpu++)
		if (cpu != 1)
			cfst_fork_on(root, cfst_hog(r.sim, 5000), "own", cfst_cpu_mask(r.sim, cpu));
	cfst_fork_on(root, cfst_freed_hog(r.sim, c023, 5000), "free", cfst_cpu_mask(r.sim, 0));
	cfst_add(root, sl_act_wait());
	sl_sim_spawn_root(r.sim, &cfst_prog, root, "root");
	if (cfst_run(&r)) {
		struct sl_task *t = cfst_find(r.sim, "free");
		moves = t ? t->nmigrations : -1;
	}
	sl_sim_destroy(r.sim);
	return moves;
}

SL_TEST(cfs_imbalanced_group_gives_up_a_task)
{
	long moves = cfst_imbalanced_group_moves(1000);
	CHECKF(moves >= 1, "the free hog moved %ld times in 1 s", moves);
}

/* ---- calculate_imbalance()'s migrate_load, in unsigned arithmetic ---- */

/* 6.12 fair.c calculate_imbalance(): min((busiest - avg) x busiest's
 * capacity, (avg - local) x local's capacity) / 1024, every operand
 * unsigned long.  A busiest group below the average wraps the first term:
 * local's side is the imbalance. */
SL_TEST(cfs_migrate_load_takes_locals_side_when_busiest_is_below_average)
{
	struct cfs_sg_stats busiest = { .avg_load = 2048, .capacity = 1024 };
	struct cfs_sg_stats local = { .avg_load = 1024, .capacity = 1024 };

	CHECKF(cfs_migrate_load_imbalance(&busiest, &local, 23214) == 22190, "imbalance %ld",
	       cfs_migrate_load_imbalance(&busiest, &local, 23214));
	/* the usual case: the smaller of the two gaps */
	busiest.avg_load = 4096;
	CHECKF(cfs_migrate_load_imbalance(&busiest, &local, 3072) == 1024, "imbalance %ld",
	       cfs_migrate_load_imbalance(&busiest, &local, 3072));
	local.capacity = 512;	/* weighted by capacity: 2048 x 512 / 1024 */
	CHECKF(cfs_migrate_load_imbalance(&busiest, &local, 3072) == 1024, "imbalance %ld",
	       cfs_migrate_load_imbalance(&busiest, &local, 3072));
	busiest.avg_load = 3584;	/* 512 x 1024 / 1024 */
	CHECKF(cfs_migrate_load_imbalance(&busiest, &local, 3072) == 512, "imbalance %ld",
	       cfs_migrate_load_imbalance(&busiest, &local, 3072));
}

/*
 * The same in a run: four one-CPU groups, CPU 1 with two nice-0 hogs
 * (overloaded), CPU 2 with one nice -20 hog (88761: fully busy, but
 * heavier than all the rest), CPUs 0 and 3 with a nice-0 hog each.  Each
 * hog is pinned for 300 ms (PELT's loads settle), then may run anywhere
 * until the run stops at 2.3 s.  CPU 1 is the busiest group by its type,
 * below the domain's average load (about 23,000) as CPUs 0 and 3 are:
 * 6.12 pulls one of its hogs to CPU 0 or 3 (once failed balances let it
 * take a cache-hot one), whose next balance finds itself the busiest, and
 * so on: the nice-0 hogs go back and forth (19 moves).  Signed, the
 * imbalance came out negative and no hog moved after the pinning.
 * Returns the moves of the four nice-0 hogs, beyond their pinning.
 */
static long cfst_below_average_moves(void)
{
	struct cfst_run r;
	if (!cfst_start(&r, "pack:1 core:4 pu:1", "cfs", 2300 * SL_MSEC))
		return -1;
	static const int cpu_of[5] = { 0, 1, 1, 2, 3 };
	static const char *const name[5] = { "a", "b", "c", "heavy", "d" };
	sl_cpumask *all = sl_sim_alloc(r.sim, sizeof(*all));
	sl_cpumask_clear(all);
	for (int c = 0; c < 4; c++)
		sl_cpumask_set(all, c);
	struct cfst_script *root = cfst_new(r.sim);
	for (int i = 0; i < 5; i++) {
		struct cfst_script *h = cfst_new(r.sim);
		cfst_add(h, cfst_pin(r.sim, cpu_of[i]));
		cfst_add(h, sl_act_run(300 * SL_MSEC, SL_WC_INT));
		cfst_add(h, cfst_setaffinity(all));
		cfst_add(h, sl_act_run(3000 * SL_MSEC, SL_WC_INT));
		cfst_fork(root, h, name[i], cpu_of[i] == 2 ? -20 : 0);
	}
	for (int i = 0; i < 5; i++)
		cfst_add(root, sl_act_wait());
	sl_sim_spawn_root(r.sim, &cfst_prog, root, "root");
	long moves = -1;
	if (cfst_run(&r)) {
		moves = 0;
		for (int i = 0; i < 5; i++) {
			struct sl_task *t = cfst_find(r.sim, name[i]);
			if (!t) {
				moves = -1;
				break;
			}
			if (cpu_of[i] != 2)	/* its pinning moved it at most once */
				moves += t->nmigrations > 1 ? t->nmigrations - 1 : 0;
		}
	}
	sl_sim_destroy(r.sim);
	return moves;
}

SL_TEST(cfs_balance_pulls_from_a_busiest_group_below_the_average)
{
	long moves = cfst_below_average_moves();
	CHECKF(moves >= 2, "%ld moves of the nice-0 hogs after their pinning", moves);
}

/*
 * The kernel's own example of a group imbalance (6.12 fair.c, above
 * sg_imbalanced()): two groups of four CPUs, four tasks each allowed on CPU
 * 3 of the first and CPUs 4-6 of the second.  Balancing group by group would
 * keep two in each group and overload CPU 3; the mark lets the second group
 * take the one CPU 3 cannot keep, one task per CPU.  Until Dec 2026 the
 * model left CPU 6 idle beside two tasks sharing a CPU (49.8 % each).
 */
SL_TEST(cfs_pinned_tasks_spread_across_the_groups)
{
	struct sl_metrics m;
	if (!cfst_run_once("pack:2 core:4 pu:1", "cfs", "spin:tasks=4,seconds=2,cpus=3-6", &m))
		return;
	double lo = cfst_metric(&m, "task_min_pct"), idle6 = cfst_metric(&m, "cpu6_user_pct");
	CHECKF(lo > 90 && idle6 > 90, "the least-served task had %.1f %%, CPU 6 ran %.1f %%", lo,
	       idle6);
}

/*
 * SD_SERIALIZE: one CPU at a time balances a NUMA level (6.12
 * sched_balance_domains(), sched_balance_running).  Two nodes of two CPUs,
 * every tick kept (nohz=off), a hog on CPU 0: the NUMA level (4 ms, one
 * jiffy at HZ 250) is due at every tick on the idle CPUs, at the jiffy's
 * start, and should_we_balance() lets the first idle CPU of each node scan
 * it, CPUs 1 and 2.  The first to take the flag holds it for its scan, and
 * the other skips the level until a later tick: they never balance it at the
 * same jiffy (before Dec 2026 both did, every jiffy).  Returns how many of
 * the run lengths ended with them on different jiffies.
 */
static int cfst_numa_serialized(void)
{
	int apart = 0;

	for (int ms = 20; ms <= 44; ms += 8) {
		struct cfst_run r;
		if (!cfst_start(&r, "numa:2 pack:1 core:2 pu:1", "cfs:hz=250,nohz=off",
				ms * SL_MSEC))
			return -1;
		struct cfst_script *root = cfst_new(r.sim);
		cfst_add(root, cfst_pin(r.sim, 0));
		cfst_fork(root, cfst_hog(r.sim, 100), "hog", 0);
		cfst_add(root, sl_act_wait());
		sl_sim_spawn_root(r.sim, &cfst_prog, root, "root");
		if (cfst_run(&r)) {
			struct cfs *s = cfst_state(&r);
			const struct cfs_domain *a = &s->rq[1].sd[s->rq[1].nsd - 1];
			const struct cfs_domain *b = &s->rq[2].sd[s->rq[2].nsd - 1];
			uint64_t j = sl_jiffies(r.sim);
			CHECKF((a->flags & CFS_SD_SERIALIZE) && (b->flags & CFS_SD_SERIALIZE),
			       "flags %#x, %#x", a->flags, b->flags);
			CHECKF(j - a->last_balance <= 2 && j - b->last_balance <= 2,
			       "at jiffy %llu the NUMA level last balanced at %llu and %llu",
			       (unsigned long long)j, (unsigned long long)a->last_balance,
			       (unsigned long long)b->last_balance);
			apart += a->last_balance != b->last_balance;
		}
		sl_sim_destroy(r.sim);
	}
	return apart;
}

SL_TEST(cfs_numa_level_balances_one_cpu_at_a_time)
{
	int apart = cfst_numa_serialized();
	CHECKF(apart == 4, "CPUs 1 and 2 last balanced the NUMA level at different jiffies in %d "
	       "of 4 runs", apart);
}
