/*
 * test_ht.c - scenario tests that pin the decisions of Ingo Molnar's
 * shared-runqueue HT scheduler (his 2.5.31 F3 post and A9, LKML) on tiny
 * machines: two hogs on a 2x2 HT box end on different packages (F3's idle
 * steal, or active balancing, whose pull goes through CAN_MIGRATE_TASK);
 * a task forked on a shared runqueue waits beside an idle sibling, since
 * fork kicks nobody (the what-if idle_pickup=tick takes it at once); a woken
 * task goes to an idle sibling when its own CPU is busy, and under F3 a
 * sync-woken one too; later imbalances are balanced again (the F3 latch is
 * cleared); on a machine without SMT the policy is exactly stock o1 of its
 * base version plus F3's idle steal; knob errors.
 */
#include <string.h>

#include "base/spec.h"
#include "hw/machine.h"
#include "policy/o1/core.h"
#include "policy/policy.h"
#include "sim/sim.h"
#include "test.h"

/* ---- a scripted program: do acts[] in order, note when and where ---- */

#define HTT_MAX_ACTS 40

struct htt_script {
	int n, pc;
	struct sl_action acts[HTT_MAX_ACTS];
	sl_time at[HTT_MAX_ACTS + 1];
	int cpu[HTT_MAX_ACTS + 1];
};

static void htt_step(struct sl_sim *sim, struct sl_task *t, struct sl_action *next)
{
	struct htt_script *s = t->prog_state;

	s->at[s->pc] = sl_now(sim);
	s->cpu[s->pc] = t->cpu;
	*next = s->pc < s->n ? s->acts[s->pc++] : sl_act_exit();
}

static const struct sl_prog htt_prog = { .name = "htt", .step = htt_step };

static struct htt_script *htt_new(struct sl_sim *sim)
{
	return sl_sim_alloc(sim, sizeof(struct htt_script));
}

static void htt_add(struct htt_script *s, struct sl_action a)
{
	if (s->n < HTT_MAX_ACTS)
		s->acts[s->n++] = a;
}

static void htt_fork(struct htt_script *s, struct htt_script *child, const char *comm)
{
	htt_add(s, (struct sl_action){ .kind = SL_ACT_FORK,
		.u.fork = { .prog = &htt_prog, .state = child, .comm = comm } });
}

static struct htt_script *htt_hog(struct sl_sim *sim, double ms)
{
	struct htt_script *s = htt_new(sim);
	htt_add(s, sl_act_run(ms * SL_MSEC, SL_WC_INT));
	return s;
}

struct htt_run {
	struct sl_machine machine;
	struct sl_params knobs;
	struct sl_sim *sim;
	struct sl_err err;
};

static bool htt_start(struct htt_run *r, const char *machine, const char *policy, sl_time limit)
{
	const struct sl_policy_ops *ops;
	char label[64];

	memset(r, 0, sizeof(*r));
	if (sl_machine_load(&r->machine, machine, &r->err) ||
	    sl_policy_parse(policy, &ops, &r->knobs, label, sizeof(label), &r->err)) {
		fprintf(stderr, "htt_start: %s\n", r->err.msg);
		return false;
	}
	struct sl_sim_config cfg = {
		.machine = &r->machine, .policy = ops, .knobs = &r->knobs,
		.seed = 7, .time_limit = limit, .check = true,
	};
	r->sim = sl_sim_create(&cfg, &r->err);
	if (!r->sim)
		fprintf(stderr, "htt_start: %s\n", r->err.msg);
	return r->sim != NULL;
}

static bool htt_run(struct htt_run *r)
{
	if (sl_sim_run(r->sim, &r->err) == 0)
		return true;
	fprintf(stderr, "htt_run: %s\n", r->err.msg);
	return false;
}

static struct sl_task *htt_find(struct sl_sim *sim, const char *comm)
{
	for (struct sl_task *t = sl_task_first(sim); t; t = sl_task_next(t))
		if (!strcmp(t->comm, comm))
			return t;
	return NULL;
}

/* 1 if tasks named x and y both run, on one package; 0 if on two; -1 else. */
static int htt_share_package(struct sl_sim *sim, const char *x, const char *y)
{
	const struct sl_topo *topo = sl_topo(sim);
	struct sl_task *a = htt_find(sim, x), *b = htt_find(sim, y);

	if (!a || !b || a->cpu < 0 || b->cpu < 0)
		return -1;
	return topo->cpu_package[a->cpu] == topo->cpu_package[b->cpu];
}

/* ---- knobs ---- */

static int htt_bind(const char *text, struct sl_err *err)
{
	const struct sl_policy_ops *ops;
	struct sl_params p;
	char label[64];

	*err = (struct sl_err){ 0 };
	return sl_policy_parse(text, &ops, &p, label, sizeof(label), err);
}

SL_TEST(ht_knobs)
{
	struct sl_err err;

	CHECK(htt_bind("ht", &err) == 0);
	CHECK(htt_bind("ht:version=f3,hz=1000,cache_decay_ticks=3,active_steal_hot=off,"
		       "idle_pickup=off,idle_active=0,scan_ns=0", &err) == 0);
	CHECK(htt_bind("ht:version=d7", &err) == -1 && err.kind == SL_ERR_INPUT &&
	      strstr(err.msg, "version"));
	CHECK(htt_bind("ht:idle_pickup=sometimes", &err) == -1 && err.kind == SL_ERR_INPUT);
	CHECK(htt_bind("ht:idle_active=-1", &err) == -1 && err.kind == SL_ERR_INPUT);
	CHECK(htt_bind("ht:active_steal_hot=1", &err) == -1 && err.kind == SL_ERR_INPUT);
	CHECK(htt_bind("ht:hz=1e3", &err) == -1 && err.kind == SL_ERR_INPUT);
	CHECK(htt_bind("ht:siblings=2", &err) == -1 && strstr(err.msg, "siblings"));
	for (const struct sl_param_def *d = sl_policy_ht.knobs; d->name; d++)
		CHECK(d->doc && d->doc[0] && (d->def || strstr(d->doc, "default")));
}

/* ---- the shared runqueue ---- */

SL_TEST(ht_runqueue_per_core)
{
	struct htt_run r;

	if (!htt_start(&r, "pack:2 core:1 pu:2", "ht", 0))
		return;
	struct o1 *s = sl_policy_data(r.sim);
	CHECK(s->nrqs == 2);
	CHECK(s->rq_of[0] == s->rq_of[1] && s->rq_of[2] == s->rq_of[3]);
	CHECK(s->rq_of[0] != s->rq_of[2] && s->rq_of[0]->ncpus == 2);
	CHECK(s->cfg.active_balance && s->cfg.wake_up_cpu);
	sl_sim_destroy(r.sim);

	/* no SMT: NR_SIBLINGS=0, the stock scheduler */
	if (!htt_start(&r, "pack:2 core:2 pu:1", "ht", 0))
		return;
	s = sl_policy_data(r.sim);
	CHECK(s->nrqs == 4 && !s->cfg.active_balance && !s->cfg.wake_up_cpu &&
	      !s->cfg.idle_pickup_tick && !s->cfg.idle_active_ms);
	sl_sim_destroy(r.sim);
}

/* Two hogs forked on one P4 HT (1 package, 2 siblings), cache-hot for the
 * whole run: when does the second start, and is it on the other CPU? */
static sl_time htt_second_start(const char *policy, bool *other_cpu)
{
	struct htt_run r;
	sl_time t = -1;

	*other_cpu = false;
	if (!htt_start(&r, "pack:1 core:1 pu:2", policy, 0))
		return -1;
	struct htt_script *a = htt_hog(r.sim, 100), *b = htt_hog(r.sim, 100);
	struct htt_script *root = htt_new(r.sim);
	htt_fork(root, a, "a");
	htt_fork(root, b, "b");
	htt_add(root, sl_act_wait());
	htt_add(root, sl_act_wait());
	sl_sim_spawn_root(r.sim, &htt_prog, root, "root");
	if (htt_run(&r)) {
		t = b->at[0] > a->at[0] ? b->at[0] : a->at[0];
		*other_cpu = a->cpu[0] != b->cpu[0];
	}
	sl_sim_destroy(r.sim);
	return t;
}

SL_TEST(ht_sibling_takes_queued_task)
{
	bool other = false;

	/*
	 * Fork does not call wake_up_cpu and the idle loop runs schedule()
	 * only on need_resched: nothing kicks the idle sibling, and on one
	 * package there is no other runqueue to balance with.  The second hog
	 * waits on the shared queue until the first's slice (half of the
	 * root's) ends, and then runs on that CPU.
	 */
	sl_time t = htt_second_start("ht:cache_decay_ticks=50", &other);
	CHECKF(t >= 50 * SL_MSEC && !other, "ht: second hog started at %.2f ms, other CPU %d",
	       (double)t / SL_MSEC, other);
	/* the what-if idle_pickup=tick: the idle sibling serves the same queue
	 * at its next tick, and no cache-hot test applies */
	t = htt_second_start("ht:cache_decay_ticks=50,idle_pickup=tick", &other);
	CHECKF(t >= 0 && t < 2 * SL_MSEC && other, "ht tick: second hog started at %.2f ms",
	       (double)t / SL_MSEC);
	/* stock: the sibling must steal it, and hot tasks are never stolen */
	t = htt_second_start("o1:version=2.5.33,cache_decay_ticks=50", &other);
	CHECKF(t > 50 * SL_MSEC && t < 100 * SL_MSEC && other, "o1: second hog started at %.2f ms",
	       (double)t / SL_MSEC);
}

/* ---- active balancing: two hogs on a 2x2 HT box ---- */

static int htt_two_hogs(const char *policy, double ms, sl_time *kthread)
{
	struct htt_run r;
	int shared = -2;

	if (!htt_start(&r, "pack:2 core:1 pu:2", policy, (sl_time)(ms * SL_MSEC)))
		return -2;
	struct htt_script *root = htt_new(r.sim);
	htt_fork(root, htt_hog(r.sim, 5000), "a");
	htt_fork(root, htt_hog(r.sim, 5000), "b");
	htt_add(root, sl_act_wait());
	htt_add(root, sl_act_wait());
	sl_sim_spawn_root(r.sim, &htt_prog, root, "root");
	if (htt_run(&r)) {
		shared = htt_share_package(r.sim, "a", "b");
		*kthread = 0;
		for (int c = 0; c < 4; c++)
			*kthread += sl_sim_cpu_stats(r.sim, c)->kthread_ns;
	}
	sl_sim_destroy(r.sim);
	return shared;
}

SL_TEST(ht_two_hogs_one_per_package)
{
	sl_time kt = -1;

	/* f3: the second hog waits on package 0's queue (fork kicks no
	 * sibling); package 1's idle tick passes idle=1 and F3's hard-wired
	 * idle steal takes it at once, hot or not: no migration thread */
	CHECK(htt_two_hogs("ht", 10, &kt) == 0 && kt == 0);
	CHECK(htt_two_hogs("ht", 2000, &kt) == 0);
	/* the stock scheduler sees 1,1,0,0 as balanced (once the sibling has
	 * pulled the second hog: with ordered ticks it always pulls first) */
	CHECK(htt_two_hogs("o1:version=2.5.33,tick=ordered", 2000, &kt) == 1 && kt == 0);
	/* with the what-if idle_pickup=tick CPU 1 takes the queued hog at
	 * its tick, but only once its own idle balance is done, which the
	 * idle task finishes before it sees need_resched: package 1's idle
	 * balance of the same tick steals the hog first (F3's idle steal) */
	CHECK(htt_two_hogs("ht:idle_pickup=tick", 10, &kt) == 0 && kt == 0);
	CHECK(htt_two_hogs("ht:idle_pickup=tick", 2000, &kt) == 0);
	/* and so does a passive steal of a hog that is not cache-hot */
	CHECK(htt_two_hogs("ht:idle_pickup=tick,idle_steal=passive,cache_decay_ticks=0", 10,
			   &kt) == 0 && kt == 0);
	/* a hot one stays for CPU 1: both run on package 0; the idle package
	 * asks the busy one's migration thread to preempt a hog, and the pull
	 * goes through CAN_MIGRATE_TASK with idle=1: with the idle steal off
	 * the task it preempted left its CPU this very jiffy, so it is hot,
	 * and the pull fails ... */
	CHECK(htt_two_hogs("ht:idle_pickup=tick,idle_steal=passive", 2000, &kt) == 1 && kt > 0);
	/* ... unless the what-if active_steal_hot lets it ignore hotness */
	CHECK(htt_two_hogs("ht:idle_pickup=tick,idle_steal=passive,active_steal_hot=on", 2000,
			   &kt) == 0 && kt > 0);
	/* the idle package never goes idle again by itself: asking only when
	 * a CPU goes idle, it never asks */
	CHECK(htt_two_hogs("ht:idle_pickup=tick,idle_steal=passive,active_steal_hot=on,"
			   "idle_active=0", 2000, &kt) == 1 && kt == 0);
	/* asking every 100 ms: spread within that */
	CHECK(htt_two_hogs("ht:idle_pickup=tick,idle_steal=passive,active_steal_hot=on,"
			   "idle_active=100", 10, &kt) == 1);
	CHECK(htt_two_hogs("ht:idle_pickup=tick,idle_steal=passive,active_steal_hot=on,"
			   "idle_active=100", 120, &kt) == 0 && kt > 0);
}

/*
 * Active balancing on a CPU's own transition to idle (idle_active=0): a
 * and b sleep 5 ms and wake on package 1 (the second to an idle sibling)
 * while the root computes 30 ms on CPU 0; when it blocks, package 0 goes
 * idle and pulls one of the two running hogs through the migration thread.
 */
static int htt_idle_transition(const char *policy, sl_time *kthread)
{
	struct htt_run r;
	int shared = -2;

	if (!htt_start(&r, "pack:2 core:1 pu:2", policy, 100 * SL_MSEC))
		return -2;
	struct htt_script *root = htt_new(r.sim);
	for (int i = 0; i < 2; i++) {
		struct htt_script *h = htt_new(r.sim);
		htt_add(h, sl_act_sleep(5 * SL_MSEC));
		htt_add(h, sl_act_run(5000 * SL_MSEC, SL_WC_INT));
		htt_fork(root, h, i ? "b" : "a");
	}
	htt_add(root, sl_act_run(30 * SL_MSEC, SL_WC_INT));
	htt_add(root, sl_act_wait());
	htt_add(root, sl_act_wait());
	sl_sim_spawn_root(r.sim, &htt_prog, root, "root");
	if (htt_run(&r)) {
		shared = htt_share_package(r.sim, "a", "b");
		*kthread = 0;
		for (int c = 0; c < 4; c++)
			*kthread += sl_sim_cpu_stats(r.sim, c)->kthread_ns;
	}
	sl_sim_destroy(r.sim);
	return shared;
}

SL_TEST(ht_active_balance_on_going_idle)
{
	sl_time kt = -1;

	CHECK(htt_idle_transition("ht:idle_active=0", &kt) == 0);
	CHECKF(kt > 0, "migration thread time %lld ns", (long long)kt);
	/* fork_place=tail on the 2.5.68 base: the root forks both hogs before
	 * either runs, so that both start on one package, the case this test
	 * is about (with D7's front placement the child runs first and the
	 * hogs start apart, with no active balance to pin) */
	CHECK(htt_idle_transition("ht:version=a9,idle_active=0,fork_place=tail", &kt) == 0 && kt > 0);
	/* it was the migration thread's pull, through CAN_MIGRATE_TASK with
	 * idle=1: B2 turned the idle steal off, so it cannot take the task it
	 * just preempted, and both stay on package 1 */
	CHECK(htt_idle_transition("ht:version=b2,idle_active=0,fork_place=tail", &kt) == 1 && kt > 0);
	CHECK(htt_idle_transition("ht:idle_active=0,idle_steal=passive", &kt) == 1);
	/* the what-if active_steal_hot=on ignores hotness in that pull */
	CHECK(htt_idle_transition("ht:version=b2,idle_active=0,active_steal_hot=on", &kt) == 0);
}

/*
 * Imbalances after the first are balanced too (the F3 latch is cleared):
 * a and b spread at once; when a exits at 300 ms the root forks c on its
 * own CPU (a sibling of b's or not), and c and b must end up apart.
 */
SL_TEST(ht_active_balance_again)
{
	struct htt_run r;

	if (!htt_start(&r, "pack:2 core:1 pu:2", "ht", 1000 * SL_MSEC))
		return;
	struct htt_script *root = htt_new(r.sim);
	htt_fork(root, htt_hog(r.sim, 300), "a");
	htt_fork(root, htt_hog(r.sim, 5000), "b");
	htt_add(root, sl_act_wait());
	htt_fork(root, htt_hog(r.sim, 5000), "c");
	htt_add(root, sl_act_wait());
	htt_add(root, sl_act_wait());
	sl_sim_spawn_root(r.sim, &htt_prog, root, "root");
	if (htt_run(&r)) {
		CHECK(htt_share_package(r.sim, "b", "c") == 0);
		struct o1 *s = sl_policy_data(r.sim);
		for (int c = 0; c < 4; c++)
			CHECKF(!s->active_req[c], "CPU %d still latched", c);
	}
	sl_sim_destroy(r.sim);
}

/* ---- wake_up_cpu: to an idle sibling ---- */

/*
 * 2x2 HT.  `s` runs 1 ms on CPU 0 and sleeps `sleep_ms` while a hog takes
 * CPU 0; where does it run after the wakeup, and how late?  Cache-hot all
 * along, and no idle entries, so only the wakeup can move it.  After 50 ms
 * it has the hog's priority; after 300 ms of sleep, a better one.
 */
static int htt_woken_cpu(const char *policy, int sleep_ms, sl_time *late)
{
	struct htt_run r;
	int cpu = -2;

	if (!htt_start(&r, "pack:2 core:1 pu:2", policy, 0))
		return -2;
	struct htt_script *s = htt_new(r.sim);
	htt_add(s, sl_act_run(1 * SL_MSEC, SL_WC_INT));
	htt_add(s, sl_act_sleep(sleep_ms * SL_MSEC));
	htt_add(s, sl_act_run(1 * SL_MSEC, SL_WC_INT));
	struct htt_script *root = htt_new(r.sim);
	htt_fork(root, s, "s");
	htt_fork(root, htt_hog(r.sim, 1000), "hog");
	htt_add(root, sl_act_wait());
	htt_add(root, sl_act_wait());
	sl_sim_spawn_root(r.sim, &htt_prog, root, "root");
	if (htt_run(&r) && s->cpu[1] == 0) {
		cpu = s->cpu[2];
		*late = s->at[2] - (s->at[1] + sleep_ms * SL_MSEC);
	}
	sl_sim_destroy(r.sim);
	return cpu;
}

SL_TEST(ht_wakeup_to_idle_sibling)
{
	/* passive: no idle steal may move the hog off CPU 0 */
	const char *ht = "ht:cache_decay_ticks=10000,idle_steal=passive,idle_active=0";
	const char *o1 = "o1:version=2.5.33,cache_decay_ticks=10000";
	sl_time late = -1;

	/* equal priority: its own CPU is busy, the idle sibling takes it */
	int cpu = htt_woken_cpu(ht, 50, &late);
	CHECKF(cpu == 1 && late >= 0 && late < SL_MSEC, "woke on CPU %d, %.3f ms late", cpu,
	       (double)late / SL_MSEC);
	/* better priority: an idle sibling still beats preempting the hog */
	cpu = htt_woken_cpu(ht, 300, &late);
	CHECKF(cpu == 1 && late >= 0 && late < SL_MSEC, "woke on CPU %d, %.3f ms late", cpu,
	       (double)late / SL_MSEC);
	/* stock: it waits on its busy last CPU ... */
	cpu = htt_woken_cpu(o1, 50, &late);
	CHECKF(cpu == 0 && late > 10 * SL_MSEC, "o1: woke on CPU %d, %.3f ms late", cpu,
	       (double)late / SL_MSEC);
	/* ... or preempts the hog there */
	cpu = htt_woken_cpu(o1, 300, &late);
	CHECKF(cpu == 0 && late >= 0 && late < SL_MSEC, "o1: woke on CPU %d, %.3f ms late", cpu,
	       (double)late / SL_MSEC);
}

/*
 * One P4 HT.  r blocks reading a pipe; w computes 5 ms, writes (a sync
 * wakeup of r) and computes 60 ms more.  Where and how late does r run
 * after the read?  No other runqueue, so no balancing: only the wakeup can
 * send r to the idle sibling.
 */
static int htt_sync_woken_cpu(const char *policy, sl_time *late)
{
	struct htt_run r;
	int cpu = -2;

	if (!htt_start(&r, "pack:1 core:1 pu:2", policy, 0))
		return -2;
	struct sl_chan *pipe = sl_chan_new(r.sim, 4096, true);
	sl_chan_sync_always(pipe);	/* the sync rule alone: the writer goes on */
	struct htt_script *rd = htt_new(r.sim), *wr = htt_new(r.sim);
	htt_add(rd, (struct sl_action){ .kind = SL_ACT_CHAN_READ, .u.chan = { .chan = pipe, .bytes = 100 } });
	htt_add(rd, sl_act_run(1 * SL_MSEC, SL_WC_INT));
	htt_add(wr, sl_act_run(5 * SL_MSEC, SL_WC_INT));
	htt_add(wr, (struct sl_action){ .kind = SL_ACT_CHAN_WRITE, .u.chan = { .chan = pipe, .bytes = 100 } });
	htt_add(wr, sl_act_run(60 * SL_MSEC, SL_WC_INT));
	struct htt_script *root = htt_new(r.sim);
	htt_fork(root, rd, "r");
	htt_fork(root, wr, "w");
	htt_add(root, sl_act_wait());
	htt_add(root, sl_act_wait());
	sl_sim_spawn_root(r.sim, &htt_prog, root, "root");
	if (htt_run(&r) && wr->pc == wr->n) {
		cpu = rd->cpu[1];
		*late = rd->at[1] - wr->at[2];
	}
	sl_sim_destroy(r.sim);
	return cpu;
}

SL_TEST(ht_sync_wakeup_per_version)
{
	sl_time late = -1;

	/* F3: every wakeup, sync too, is activate + wake_up_cpu: the writer's
	 * CPU is busy, so the idle sibling is kicked and takes the reader */
	int cpu = htt_sync_woken_cpu("ht:version=f3,idle_pickup=off", &late);
	CHECKF(cpu >= 0 && late >= 0 && late < SL_MSEC, "f3: CPU %d, %.3f ms late", cpu,
	       (double)late / SL_MSEC);
	/* E6 has D7's sync path: activated without wake_up_cpu, so the reader
	 * waits on the shared queue beside the idle sibling until the
	 * writer's slice (half of the root's) ends */
	static const char *const quiet[] = { "ht:version=e6", "ht:version=a9", "ht:version=c1" };
	for (int i = 0; i < 3; i++) {
		cpu = htt_sync_woken_cpu(quiet[i], &late);
		CHECKF(cpu >= 0 && late > 10 * SL_MSEC, "%s: CPU %d, %.3f ms late", quiet[i], cpu,
		       (double)late / SL_MSEC);
	}
}

/* ---- no SMT: exactly the stock scheduler ---- */

struct htt_result {
	struct sl_run_stats st;
	sl_time end[8];
	sl_time cpu_busy[4];
};

/* A mixed load (hogs, sleepers, a pipe pair) on 2x2 without SMT. */
static bool htt_mixed(const char *policy, struct htt_result *out)
{
	struct htt_run r;
	bool ok = false;

	if (!htt_start(&r, "pack:2 core:2 pu:1", policy, 0))
		return false;
	struct sl_chan *pipe = sl_chan_new(r.sim, 4096, true);
	struct htt_script *kids[8];
	static const char *const names[8] = { "k0", "k1", "k2", "k3", "k4", "k5", "k6", "k7" };
	struct htt_script *root = htt_new(r.sim);
	for (int i = 0; i < 8; i++) {
		struct htt_script *k = kids[i] = htt_new(r.sim);
		for (int j = 0; j < 6; j++) {
			htt_add(k, sl_act_run((double)(5 + 7 * i + 3 * j) * SL_MSEC, SL_WC_INT));
			if (i == 6)
				htt_add(k, (struct sl_action){ .kind = SL_ACT_CHAN_WRITE,
							       .u.chan = { .chan = pipe, .bytes = 1000 } });
			else if (i == 7)
				htt_add(k, (struct sl_action){ .kind = SL_ACT_CHAN_READ,
							       .u.chan = { .chan = pipe, .bytes = 1000 } });
			else if (i % 2)
				htt_add(k, sl_act_sleep((sl_time)(3 + i + j) * SL_MSEC));
		}
		htt_fork(root, k, names[i]);
	}
	for (int i = 0; i < 8; i++)
		htt_add(root, sl_act_wait());
	sl_sim_spawn_root(r.sim, &htt_prog, root, "root");
	if (htt_run(&r)) {
		sl_sim_stats(r.sim, &out->st);
		for (int i = 0; i < 8; i++)
			out->end[i] = kids[i]->at[kids[i]->n];
		for (int c = 0; c < 4; c++) {
			const struct sl_cpu_stats *cs = sl_sim_cpu_stats(r.sim, c);
			out->cpu_busy[c] = cs->user_ns + cs->sys_ns;
		}
		ok = true;
	}
	sl_sim_destroy(r.sim);
	return ok;
}

SL_TEST(ht_without_smt_is_o1)
{
	struct htt_result h, o;

	memset(&h, 0, sizeof(h));
	memset(&o, 0, sizeof(o));
	/* F3's hard-wired idle steal is outside the sibling code */
	CHECK(htt_mixed("ht", &h) && htt_mixed("o1:version=2.5.33,steal_hot=idle", &o));
	CHECK(h.st.elapsed_ns == o.st.elapsed_ns && h.st.user_ns == o.st.user_ns &&
	      h.st.sys_ns == o.st.sys_ns && h.st.migrations == o.st.migrations &&
	      h.st.nivcsw == o.st.nivcsw && h.st.events.total == o.st.events.total);
	CHECK(!memcmp(h.end, o.end, sizeof(h.end)) && !memcmp(h.cpu_busy, o.cpu_busy,
							      sizeof(h.cpu_busy)));
	/* and the load really used several CPUs */
	int used = 0;
	for (int c = 0; c < 4; c++)
		used += o.cpu_busy[c] > 0;
	CHECKF(used >= 3, "%d CPUs used", used);
	/* with the steal off, f3 is the stock 2.5.33 scheduler */
	CHECK(htt_mixed("ht:idle_steal=passive", &h) && htt_mixed("o1:version=2.5.33", &o));
	CHECK(h.st.elapsed_ns == o.st.elapsed_ns && h.st.events.total == o.st.events.total &&
	      !memcmp(h.end, o.end, sizeof(h.end)));
}
