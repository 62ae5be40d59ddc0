/*
 * test_up.c - the uniprocessor build of the O(1) scheduler: nothing ever
 * runs on a CPU other than 0, whatever the machine; no balancing or
 * migration thread; 2.6.0's round-robin granularity has no
 * num_online_cpus factor; the version knob and its default.
 */
#include <string.h>

#include "base/spec.h"
#include "hw/machine.h"
#include "policy/o1/core.h"
#include "policy/policy.h"
#include "sim/sim.h"
#include "test.h"

#define UPT_MAX_ACTS 24

struct upt_script {
	int n, pc;
	bool pin;			/* first step: allow CPU 0 only (children inherit) */
	struct sl_action acts[UPT_MAX_ACTS];
	int cpu[UPT_MAX_ACTS + 1];
};

static void upt_step(struct sl_sim *sim, struct sl_task *t, struct sl_action *next)
{
	struct upt_script *s = t->prog_state;

	(void)sim;
	if (s->pin && s->pc == 0 && t->cpu == 0) {
		sl_cpumask_clear(&t->allowed);
		sl_cpumask_set(&t->allowed, 0);
	}
	s->cpu[s->pc] = t->cpu;
	*next = s->pc < s->n ? s->acts[s->pc++] : sl_act_exit();
}

static const struct sl_prog upt_prog = { .name = "upt", .step = upt_step };

static struct upt_script *upt_new(struct sl_sim *sim)
{
	return sl_sim_alloc(sim, sizeof(struct upt_script));
}

static void upt_add(struct upt_script *s, struct sl_action a)
{
	if (s->n < UPT_MAX_ACTS)
		s->acts[s->n++] = a;
}

static void upt_fork(struct upt_script *s, struct upt_script *child)
{
	upt_add(s, (struct sl_action){ .kind = SL_ACT_FORK,
		.u.fork = { .prog = &upt_prog, .state = child, .comm = "kid" } });
}

struct upt_run {
	struct sl_machine machine;
	struct sl_params knobs;
	struct sl_sim *sim;
	struct sl_err err;
};

static bool upt_start(struct upt_run *r, const char *machine, const char *policy)
{
	const struct sl_policy_ops *ops;
	char label[64];

	memset(r, 0, sizeof(*r));
	if (sl_machine_load(&r->machine, machine, &r->err) ||
	    sl_policy_parse(policy, &ops, &r->knobs, label, sizeof(label), &r->err)) {
		fprintf(stderr, "upt_start: %s\n", r->err.msg);
		return false;
	}
	struct sl_sim_config cfg = {
		.machine = &r->machine, .policy = ops, .knobs = &r->knobs,
		.seed = 3, .check = true,
	};
	r->sim = sl_sim_create(&cfg, &r->err);
	if (!r->sim)
		fprintf(stderr, "upt_start: %s\n", r->err.msg);
	return r->sim != NULL;
}

static bool upt_run(struct upt_run *r)
{
	if (sl_sim_run(r->sim, &r->err) == 0)
		return true;
	fprintf(stderr, "upt_run: %s\n", r->err.msg);
	return false;
}

SL_TEST(up_knobs)
{
	const struct sl_policy_ops *ops;
	struct sl_params p;
	struct sl_err err = { 0 };
	char label[64];

	CHECK(sl_policy_parse("up", &ops, &p, label, sizeof(label), &err) == 0);
	CHECK(ops == &sl_policy_up && !strcmp(sl_param_str(&p, "version"), "2.6.0"));
	CHECK(sl_policy_parse("up:version=2.5.33,hz=100", &ops, &p, label, sizeof(label),
			      &err) == 0);
	err = (struct sl_err){ 0 };
	CHECK(sl_policy_parse("up:version=2.6", &ops, &p, label, sizeof(label), &err) == -1 &&
	      err.kind == SL_ERR_INPUT && strstr(err.msg, "version"));
	err = (struct sl_err){ 0 };
	CHECK(sl_policy_parse("up:scan_ns=ten", &ops, &p, label, sizeof(label), &err) == -1 &&
	      err.kind == SL_ERR_INPUT);
	err = (struct sl_err){ 0 };
	CHECK(sl_policy_parse("up:cache_decay_ticks=1", &ops, &p, label, sizeof(label),
			      &err) == -1 && err.kind == SL_ERR_INPUT);
	CHECK(sl_policy_parse("up:yield=tail", &ops, &p, label, sizeof(label), &err) == 0);
	CHECK(sl_policy_parse("up:yield=expired", &ops, &p, label, sizeof(label), &err) == 0);
	err = (struct sl_err){ 0 };
	CHECK(sl_policy_parse("up:yield=never", &ops, &p, label, sizeof(label), &err) == -1 &&
	      err.kind == SL_ERR_INPUT && strstr(err.msg, "yield"));
	/* a UP kernel has no NUMA scheduler */
	err = (struct sl_err){ 0 };
	CHECK(sl_policy_parse("up:numa=on", &ops, &p, label, sizeof(label), &err) == -1 &&
	      err.kind == SL_ERR_INPUT && strstr(err.msg, "numa"));
	for (const struct sl_param_def *d = sl_policy_up.knobs; d->name; d++)
		CHECK(d->doc && d->doc[0] && (d->def || strstr(d->doc, "default")));
}

/* Four hogs, two sleepers and a fork tree on a 2x2 HT box. */
SL_TEST(up_only_cpu0)
{
	static const char *const pols[] = { "up", "up:version=2.5.33" };

	for (int v = 0; v < 2; v++) {
		struct upt_run r;
		if (!upt_start(&r, "pack:2 core:1 pu:2", pols[v]))
			return;
		struct upt_script *root = upt_new(r.sim), *kids[6];
		for (int i = 0; i < 6; i++) {
			kids[i] = upt_new(r.sim);
			upt_add(kids[i], sl_act_run(50 * SL_MSEC, SL_WC_INT));
			if (i >= 4) {
				upt_add(kids[i], sl_act_sleep(30 * SL_MSEC));
				upt_add(kids[i], sl_act_run(20 * SL_MSEC, SL_WC_INT));
				struct upt_script *g = upt_new(r.sim);
				upt_add(g, sl_act_run(10 * SL_MSEC, SL_WC_INT));
				upt_fork(kids[i], g);
				upt_add(kids[i], sl_act_wait());
			}
			upt_fork(root, kids[i]);
		}
		for (int i = 0; i < 6; i++)
			upt_add(root, sl_act_wait());
		sl_sim_spawn_root(r.sim, &upt_prog, root, "root");
		if (upt_run(&r)) {
			for (int c = 1; c < 4; c++) {
				const struct sl_cpu_stats *cs = sl_sim_cpu_stats(r.sim, c);
				CHECKF(cs->user_ns + cs->sys_ns + cs->kthread_ns == 0 &&
				       cs->switches == 0, "%s: CPU %d was used", pols[v], c);
			}
			for (int i = 0; i < 6; i++)
				for (int k = 0; k <= kids[i]->n; k++)
					CHECK(kids[i]->cpu[k] == 0);
			struct sl_run_stats st;
			sl_sim_stats(r.sim, &st);
			/* 6 x 50 + 2 x 30 ms of work, one CPU at a time */
			CHECKF(st.elapsed_ns >= 360 * SL_MSEC && st.migrations == 0,
			       "%s: elapsed %.1f ms, %ld migrations", pols[v],
			       (double)st.elapsed_ns / SL_MSEC, st.migrations);
			/* the kernel's only CPU ticks; the others are not visited */
			CHECK(!sl_tick_stopped(r.sim, 0));
			for (int c = 1; c < 4; c++)
				CHECK(sl_tick_stopped(r.sim, c));
		}
		sl_sim_destroy(r.sim);
	}
}

/*
 * 2.6.0 round-robins interactive tasks every TIMESLICE_GRANULARITY, times
 * num_online_cpus on SMP.  Two tasks that slept 2 s (just interactive) then
 * compute 300 ms each on CPU 0; count the switches.  The SMP run pins them
 * to CPU 0 of four so that only the factor differs.
 */
static long upt_rr_switches(const char *policy, bool pin)
{
	struct upt_run r;
	long n = -1;

	if (!upt_start(&r, "pack:2 core:2 pu:1", policy))
		return -1;
	struct upt_script *root = upt_new(r.sim);
	root->pin = pin;
	for (int i = 0; i < 2; i++) {
		struct upt_script *k = upt_new(r.sim);
		upt_add(k, sl_act_sleep(2 * SL_SEC));
		upt_add(k, sl_act_run(300 * SL_MSEC, SL_WC_INT));
		upt_fork(root, k);
	}
	upt_add(root, sl_act_wait());
	upt_add(root, sl_act_wait());
	sl_sim_spawn_root(r.sim, &upt_prog, root, "root");
	if (upt_run(&r)) {
		struct sl_run_stats st;
		sl_sim_stats(r.sim, &st);
		n = st.nivcsw;
	}
	sl_sim_destroy(r.sim);
	return n;
}

SL_TEST(up_granularity_has_no_cpu_factor)
{
	long up = upt_rr_switches("up:version=2.6.0", false);
	long smp = upt_rr_switches("o1:version=2.6.0", true);
	CHECKF(up > 0 && smp > 0 && up > smp + 4, "switches: %ld UP, %ld SMP x4", up, smp);
}
