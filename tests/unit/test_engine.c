/*
 * test_engine.c - sim/: the event queue against a sorted reference, and the
 * engine's mechanisms (progress under the SMT speed model, fork/wait/exit,
 * sleep, pipes, mutexes, barriers, accounting, determinism) driven by a
 * trivial FIFO test policy so that no real policy's decisions interfere.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "base/rng.h"
#include "hw/machine.h"
#include "sim/eventq.h"
#include "sim/sim.h"
#include "test.h"

/* ---- event queue ---- */

SL_TEST(engine_eventq_matches_sorted_reference)
{
	enum { N = 500 };
	static struct sl_event ev[N];
	struct sl_eventq q;
	struct sl_rng r;
	sl_eventq_init(&q);
	sl_rng_seed(&r, 9);
	for (int i = 0; i < N; i++) {
		sl_event_init(&ev[i], 0, i, NULL);
		sl_eventq_schedule(&q, &ev[i], (sl_time)sl_rng_below(&r, 50));
	}
	for (int i = 0; i < N; i += 3)	/* re-time a third, cancel a few */
		sl_eventq_schedule(&q, &ev[i], (sl_time)sl_rng_below(&r, 50));
	for (int i = 1; i < N; i += 7)
		sl_eventq_cancel(&q, &ev[i]);
	sl_time last_t = -1;
	uint64_t last_seq = 0;
	int popped = 0;
	bool ordered = true;
	struct sl_event *e;
	while ((e = sl_eventq_pop(&q))) {
		if (e->time < last_t || (e->time == last_t && e->seq < last_seq))
			ordered = false;
		last_t = e->time;
		last_seq = e->seq;
		popped++;
		CHECK(!sl_event_queued(e));
	}
	CHECK(ordered);
	int cancelled = 0;
	for (int i = 1; i < N; i += 7)
		cancelled++;
	CHECK(popped == N - cancelled);
	sl_eventq_free(&q);
}

/* ---- a FIFO test policy: one global queue, any idle CPU, 10-tick slices ---- */

struct fifo_task { struct sl_task *next; int ticks; bool queued; };
struct fifo { struct sl_task *head, *tail; };

static void fifo_push(struct sl_sim *sim, struct sl_task *t)
{
	struct fifo *f = sl_policy_data(sim);
	struct fifo_task *ft = sl_task_policy(t);
	ft->next = NULL;
	ft->queued = true;
	if (f->tail)
		((struct fifo_task *)sl_task_policy(f->tail))->next = t;
	else
		f->head = t;
	f->tail = t;
}

static struct sl_task *fifo_pop(struct sl_sim *sim)
{
	struct fifo *f = sl_policy_data(sim);
	struct sl_task *t = f->head;
	if (!t)
		return NULL;
	struct fifo_task *ft = sl_task_policy(t);
	f->head = ft->next;
	if (!f->head)
		f->tail = NULL;
	ft->queued = false;
	return t;
}

static void fifo_kick_idle(struct sl_sim *sim)
{
	for (int c = 0; c < sl_topo(sim)->ncpus; c++)
		if (sl_cpu_idle(sim, c) && !sl_need_resched(sim, c)) {
			sl_resched(sim, c);
			return;
		}
}

static void *fifo_init(struct sl_sim *sim, const struct sl_params *k, struct sl_err *e)
{
	(void)k; (void)e;
	sl_set_hz(sim, 1000);
	return sl_sim_alloc(sim, sizeof(struct fifo));
}

static void fifo_enqueue_new(struct sl_sim *sim, struct sl_task *p, struct sl_task *t)
{
	(void)p;
	fifo_push(sim, t);
	fifo_kick_idle(sim);
}

static void fifo_wakeup(struct sl_sim *sim, struct sl_task *t, int w, unsigned fl)
{
	(void)w; (void)fl;
	fifo_push(sim, t);
	fifo_kick_idle(sim);
}

static struct sl_task *fifo_pick(struct sl_sim *sim, int cpu, struct sl_task *prev)
{
	(void)cpu;
	if (prev && prev->state == SL_TASK_RUNNABLE) {
		struct fifo_task *ft = sl_task_policy(prev);
		if (ft->ticks < 10 || !((struct fifo *)sl_policy_data(sim))->head)
			return prev;
		ft->ticks = 0;
		fifo_push(sim, prev);
	}
	return fifo_pop(sim);
}

static void fifo_tick(struct sl_sim *sim, int cpu)
{
	struct sl_task *t = sl_curr(sim, cpu);
	if (t && ++((struct fifo_task *)sl_task_policy(t))->ticks >= 10)
		sl_resched(sim, cpu);
}

static const struct sl_policy_ops fifo_ops = {
	.name = "fifo", .summary = "test FIFO", .task_size = sizeof(struct fifo_task),
	.init = fifo_init, .fork = fifo_enqueue_new, .wakeup = fifo_wakeup,
	.pick_next = fifo_pick, .tick = fifo_tick,
};

/* ---- programs ---- */

struct script {
	int n, pc;
	struct sl_action a[16];
};

static void script_step(struct sl_sim *sim, struct sl_task *t, struct sl_action *next)
{
	(void)sim;
	struct script *s = t->prog_state;
	*next = s->pc < s->n ? s->a[s->pc++] : sl_act_exit();
}

static const struct sl_prog script_prog = { .name = "script", .step = script_step };

static struct script *script_new(struct sl_sim *sim)
{
	return sl_sim_alloc(sim, sizeof(struct script));
}

static void script_add(struct script *s, struct sl_action a) { s->a[s->n++] = a; }

static struct sl_action fork_of(struct script *child)
{
	struct sl_action a = { .kind = SL_ACT_FORK };
	a.u.fork.prog = &script_prog;
	a.u.fork.state = child;
	a.u.fork.comm = "child";
	return a;
}

static void zero_costs(struct sl_machine *m)
{
	m->speed.ctx_switch_ns = 0;
	m->speed.fork_ns = m->speed.exec_ns = m->speed.exit_ns = 0;
	m->speed.ipi_ns = 0;
	m->speed.migrate_ns = 0;
	for (int l = 0; l < 4; l++)
		m->speed.refill_ns[l] = 0;
}

static struct sl_sim *make_sim(struct sl_machine *m, const char *shape, uint64_t seed)
{
	struct sl_err err = { 0 };
	if (sl_machine_load(m, shape, &err)) {
		fprintf(stderr, "machine: %s\n", err.msg);
		return NULL;
	}
	zero_costs(m);
	struct sl_sim_config cfg = { .machine = m, .policy = &fifo_ops, .seed = seed, .check = true };
	return sl_sim_create(&cfg, &err);
}

static int run(struct sl_sim *sim, struct sl_run_stats *st)
{
	struct sl_err err = { 0 };
	int rc = sl_sim_run(sim, &err);
	if (rc)
		fprintf(stderr, "run: %s\n", err.msg);
	sl_sim_stats(sim, st);
	return rc;
}

/* A root (running `prog`) that forks two INT hogs of `work` ref ns and
 * waits for both. */
static void spawn_two_hogs(struct sl_sim *sim, const struct sl_prog *prog, double work)
{
	struct script *root = script_new(sim), *a = script_new(sim), *b = script_new(sim);
	script_add(a, sl_act_run(work, SL_WC_INT));
	script_add(b, sl_act_run(work, SL_WC_INT));
	script_add(root, fork_of(a));
	script_add(root, fork_of(b));
	script_add(root, sl_act_wait());
	script_add(root, sl_act_wait());
	sl_sim_spawn_root(sim, prog, root, "root");
}

SL_TEST(engine_single_burst_takes_its_work)
{
	struct sl_machine m;
	struct sl_sim *sim = make_sim(&m, "pack:1 core:1 pu:1", 1);
	CHECK(sim != NULL);
	if (!sim)
		return;
	struct script *s = script_new(sim);
	script_add(s, sl_act_run(1e9, SL_WC_INT));
	sl_sim_spawn_root(sim, &script_prog, s, "root");
	struct sl_run_stats st;
	CHECK(run(sim, &st) == 0);
	CHECKF(llabs(st.elapsed_ns - SL_SEC) <= 2, "elapsed %lld", (long long)st.elapsed_ns);
	CHECKF(llabs(st.user_ns - SL_SEC) <= 2, "user %lld", (long long)st.user_ns);
	CHECK(st.sys_ns == 0);
	CHECK(st.tasks == 1);
	sl_sim_destroy(sim);
}

SL_TEST(engine_smt_siblings_share_a_core)
{
	/* Two INT hogs on the two siblings of one core run at the model's
	 * INT+INT pair speed each; alone, at full speed. */
	struct sl_machine m;
	struct sl_sim *sim = make_sim(&m, "pack:1 core:1 pu:2", 1);
	CHECK(sim != NULL);
	if (!sim)
		return;
	double pair = m.speed.smt_pair[SL_WC_INT][SL_WC_INT];
	spawn_two_hogs(sim, &script_prog, 1e8);
	struct sl_run_stats st;
	CHECK(run(sim, &st) == 0);
	double want = 1e8 / pair;
	CHECKF(fabs((double)st.elapsed_ns - want) < want * 0.01, "elapsed %lld want %.0f",
	       (long long)st.elapsed_ns, want);
	CHECK(pair < 1.0);
	CHECK(st.tasks == 3);
	sl_sim_destroy(sim);
}

/* A root whose tasks (and their children) run at the reference speed. */
static void steady_step(struct sl_sim *sim, struct sl_task *t, struct sl_action *next)
{
	t->steady_speed = true;
	script_step(sim, t, next);
}

static const struct sl_prog steady_prog = { .name = "steady", .step = steady_step };

SL_TEST(engine_steady_speed_ignores_the_sibling)
{
	/* the two hogs of engine_smt_siblings_share_a_core, steady: each
	 * burst takes its work in wall time, as a replayed CPU time does */
	struct sl_machine m;
	struct sl_sim *sim = make_sim(&m, "pack:1 core:1 pu:2", 1);
	CHECK(sim != NULL);
	if (!sim)
		return;
	spawn_two_hogs(sim, &steady_prog, 1e8);
	struct sl_run_stats st;
	CHECK(run(sim, &st) == 0);
	CHECKF(llabs(st.elapsed_ns - 100 * SL_MSEC) <= 2, "elapsed %lld", (long long)st.elapsed_ns);
	CHECKF(llabs(st.user_ns - 200 * SL_MSEC) <= 4, "user %lld", (long long)st.user_ns);
	sl_sim_destroy(sim);
}

/* Records, at each step, what the task still owes and when. */
struct probe {
	struct script s;
	int n;
	double owed[8];
	sl_time at[8];
};

static void probe_step(struct sl_sim *sim, struct sl_task *t, struct sl_action *next)
{
	struct probe *p = t->prog_state;
	if (p->n < 8) {
		p->owed[p->n] = sl_task_costs_owed(t);
		p->at[p->n++] = sl_now(sim);
	}
	script_step(sim, t, next);
}

static const struct sl_prog probe_prog = { .name = "probe", .step = probe_step };

SL_TEST(engine_pay_costs_lets_the_costs_run_first)
{
	struct sl_machine m;
	struct sl_sim *sim = make_sim(&m, "pack:2 core:1 pu:1", 1);
	CHECK(sim != NULL);
	if (!sim)
		return;
	m.speed.fork_ns = 200000;
	struct probe *p = sl_sim_alloc(sim, sizeof(*p));
	struct script *c = script_new(sim);
	script_add(c, sl_act_run(1e6, SL_WC_INT));
	script_add(&p->s, fork_of(c));
	script_add(&p->s, (struct sl_action){ .kind = SL_ACT_PAY_COSTS });
	script_add(&p->s, sl_act_run(1e6, SL_WC_INT));
	script_add(&p->s, sl_act_wait());
	sl_sim_spawn_root(sim, &probe_prog, &p->s, "root");
	struct sl_run_stats st;
	CHECK(run(sim, &st) == 0);
	/* steps: fork at 0; PAY_COSTS with the fork's cost owed; the run
	 * once it is paid (0.2 ms), owing nothing */
	CHECK(p->n >= 3);
	CHECKF(p->owed[1] == 200000 && p->at[1] == 0, "owed %g at %lld", p->owed[1],
	       (long long)p->at[1]);
	CHECKF(p->owed[2] == 0 && p->at[2] == 200000, "owed %g at %lld", p->owed[2],
	       (long long)p->at[2]);
	sl_sim_destroy(sim);
}

/* A task with a 512 KB cache footprint. */
static void footprint_step(struct sl_sim *sim, struct sl_task *t, struct sl_action *next)
{
	t->footprint_kb = 512;
	script_step(sim, t, next);
}

static const struct sl_prog footprint_prog = { .name = "footprint", .step = footprint_step };

/* A task whose footprint is more than any cache: it refills a whole one. */
static void big_step(struct sl_sim *sim, struct sl_task *t, struct sl_action *next)
{
	t->footprint_kb = 1u << 20;
	script_step(sim, t, next);
}

static const struct sl_prog big_prog = { .name = "big", .step = big_step };

SL_TEST(engine_refill_is_paid_only_with_work)
{
	/* A runs 1 ms and sleeps 5; B's 20 ms hog runs meanwhile (FIFO: 10
	 * ms slices) and evicts A's cache, so A comes back cold to a 2 ms
	 * refill - but only to exit, which touches none of it: 21 ms in all.
	 * (Paying the refill before blocking made it 23, and made tasks that
	 * are preempted before they pay it stall for ever.) */
	struct sl_machine m;
	struct sl_sim *sim = make_sim(&m, "pack:1 core:1 pu:1", 1);
	CHECK(sim != NULL);
	if (!sim)
		return;
	m.speed.refill_ns[SL_MIGR_NONE] = 2 * SL_MSEC;
	struct script *a = script_new(sim), *b = script_new(sim);
	script_add(a, sl_act_run(1e6, SL_WC_INT));
	script_add(a, sl_act_sleep(5 * SL_MSEC));
	script_add(b, sl_act_run(2e7, SL_WC_INT));
	sl_sim_spawn_root(sim, &footprint_prog, a, "a");
	sl_sim_spawn_root(sim, &footprint_prog, b, "b");
	struct sl_run_stats st;
	CHECK(run(sim, &st) == 0);
	CHECKF(llabs(st.elapsed_ns - 21 * SL_MSEC) <= 2, "elapsed %lld", (long long)st.elapsed_ns);
	CHECKF(llabs(st.user_ns - 21 * SL_MSEC) <= 2, "user %lld", (long long)st.user_ns);
	sl_sim_destroy(sim);
}

SL_TEST(engine_cold_task_runs_at_half_speed_or_better)
{
	/* Two 30 ms hogs take turns in 10 ms slices, each return to a cache
	 * the other evicted: a refill of 8 ms, paid alongside the work at
	 * half speed, so a slice does 5 ms of work and 5 of refill; the 3 ms
	 * of refill left over and the next 8 are capped at the footprint's
	 * 8.  First slices 10 ms of work each, then 5 per slice: 10 slices,
	 * 100 ms. */
	struct sl_machine m;
	struct sl_sim *sim = make_sim(&m, "pack:1 core:1 pu:1", 1);
	CHECK(sim != NULL);
	if (!sim)
		return;
	m.speed.refill_ns[SL_MIGR_NONE] = 8 * SL_MSEC;
	m.speed.touch_kb_per_ms = 1e6;		/* a slice evicts the whole cache */
	struct script *a = script_new(sim), *b = script_new(sim);
	script_add(a, sl_act_run(3e7, SL_WC_INT));
	script_add(b, sl_act_run(3e7, SL_WC_INT));
	sl_sim_spawn_root(sim, &big_prog, a, "a");
	sl_sim_spawn_root(sim, &big_prog, b, "b");
	struct sl_run_stats st;
	CHECK(run(sim, &st) == 0);
	CHECKF(llabs(st.elapsed_ns - 100 * SL_MSEC) <= 10, "elapsed %lld",
	       (long long)st.elapsed_ns);
	CHECKF(llabs(st.user_ns - st.elapsed_ns) <= 2, "user %lld", (long long)st.user_ns);
	sl_sim_destroy(sim);
}

/* A task with a quarter of the synthetic machine's 1 MB L2 for footprint. */
static void quarter_step(struct sl_sim *sim, struct sl_task *t, struct sl_action *next)
{
	t->footprint_kb = sl_topo(sim)->l2_kb / 4;
	script_step(sim, t, next);
}

static const struct sl_prog quarter_prog = { .name = "quarter", .step = quarter_step };

SL_TEST(engine_only_missing_lines_evict)
{
	/* Two 30 ms hogs take turns in 10 ms slices on one CPU; each touches
	 * its 256 KB at once (a full refill of it: 10 ms).  Both fit in the
	 * 1 MB cache, so after each has brought its lines in once, a slice
	 * evicts only what its task was missing: A's first return finds B's
	 * 256 KB in (warmth e^-1/4, 2.21 ms of refill), B then lacks only
	 * the 57 KB A brought back (0.54 ms), A the 14 KB B did (0.13 ms),
	 * ...: 2.93 ms of refill in all, 62.93 ms.  (Counting every touched
	 * line as an eviction, as the first model did, had each return pay
	 * 2.21 ms for ever: 73.3 ms.) */
	struct sl_machine m;
	struct sl_sim *sim = make_sim(&m, "pack:1 core:1 pu:1", 1);
	CHECK(sim != NULL);
	if (!sim)
		return;
	m.speed.refill_ns[SL_MIGR_NONE] = m.speed.refill_ns[SL_MIGR_CORE] = 40 * SL_MSEC;
	m.speed.touch_kb_per_ms = 1e6;		/* a task touches its lines at once */
	struct script *a = script_new(sim), *b = script_new(sim);
	script_add(a, sl_act_run(3e7, SL_WC_INT));
	script_add(b, sl_act_run(3e7, SL_WC_INT));
	sl_sim_spawn_root(sim, &quarter_prog, a, "a");
	sl_sim_spawn_root(sim, &quarter_prog, b, "b");
	struct sl_run_stats st;
	CHECK(run(sim, &st) == 0);
	CHECKF(llabs(st.elapsed_ns - 62930 * SL_USEC) <= 20 * SL_USEC, "elapsed %lld",
	       (long long)st.elapsed_ns);
	sl_sim_destroy(sim);
}

SL_TEST(engine_fork_costs_are_system_time)
{
	struct sl_machine m;
	struct sl_sim *sim = make_sim(&m, "pack:2 core:1 pu:1", 1);
	CHECK(sim != NULL);
	if (!sim)
		return;
	m.speed.fork_ns = 200000;
	m.speed.exit_ns = 100000;
	struct script *root = script_new(sim), *c = script_new(sim);
	script_add(c, sl_act_run(1e7, SL_WC_INT));
	script_add(root, fork_of(c));
	script_add(root, sl_act_wait());
	sl_sim_spawn_root(sim, &script_prog, root, "root");
	struct sl_run_stats st;
	CHECK(run(sim, &st) == 0);
	/* fork 0.2 ms + two exits 0.1 ms each, all system time */
	CHECKF(llabs(st.sys_ns - 400000) < 10, "sys %lld", (long long)st.sys_ns);
	CHECKF(llabs(st.user_ns - 10000000) < 10, "user %lld", (long long)st.user_ns);
	CHECK(st.nvcsw >= 1);	/* the parent waited */
	sl_sim_destroy(sim);
}

SL_TEST(engine_sleep_blocks_for_its_time)
{
	struct sl_machine m;
	struct sl_sim *sim = make_sim(&m, "pack:1 core:1 pu:1", 1);
	CHECK(sim != NULL);
	if (!sim)
		return;
	struct script *s = script_new(sim);
	script_add(s, sl_act_run(1e6, SL_WC_INT));
	script_add(s, sl_act_sleep(50 * SL_MSEC));
	script_add(s, sl_act_run(1e6, SL_WC_INT));
	sl_sim_spawn_root(sim, &script_prog, s, "root");
	struct sl_run_stats st;
	CHECK(run(sim, &st) == 0);
	CHECKF(llabs(st.elapsed_ns - 52 * SL_MSEC) < 10, "elapsed %lld", (long long)st.elapsed_ns);
	CHECK(st.nvcsw == 1);
	const struct sl_cpu_stats *cs = sl_sim_cpu_stats(sim, 0);
	CHECK(llabs(cs->idle_ns - 50 * SL_MSEC) < 10);
	sl_sim_destroy(sim);
}

/* A pipe: the writer sends 10 x 1000 bytes through a 4096-byte pipe; the
 * reader reads 512 at a time until EOF and counts the bytes. */
struct pipe_state { struct sl_chan *ch; long got; int writes; };

static void writer_step(struct sl_sim *sim, struct sl_task *t, struct sl_action *next)
{
	(void)sim;
	struct pipe_state *p = t->prog_state;
	if (p->writes < 10) {
		p->writes++;
		*next = (struct sl_action){ .kind = SL_ACT_CHAN_WRITE, .u.chan = { p->ch, 1000 } };
	} else if (p->writes == 10) {
		p->writes++;
		*next = (struct sl_action){ .kind = SL_ACT_CHAN_CLOSE, .u.chan = { p->ch, 0 } };
	} else {
		*next = sl_act_exit();
	}
}

static void reader_step(struct sl_sim *sim, struct sl_task *t, struct sl_action *next)
{
	(void)sim;
	struct pipe_state *p = t->prog_state;
	if (t->act.kind == SL_ACT_CHAN_READ) {
		if (t->result == 0) {
			*next = sl_act_exit();
			return;
		}
		p->got += t->result;
	}
	*next = (struct sl_action){ .kind = SL_ACT_CHAN_READ, .u.chan = { p->ch, 512 } };
}

static const struct sl_prog writer_prog = { .name = "writer", .step = writer_step };
static const struct sl_prog reader_prog = { .name = "reader", .step = reader_step };

SL_TEST(engine_pipe_moves_every_byte)
{
	struct sl_machine m;
	struct sl_sim *sim = make_sim(&m, "pack:2 core:1 pu:1", 1);
	CHECK(sim != NULL);
	if (!sim)
		return;
	struct pipe_state *p = sl_sim_alloc(sim, sizeof(*p));
	p->ch = sl_chan_new(sim, 4096, true);
	struct sl_task *r = sl_sim_spawn_root(sim, &reader_prog, p, "reader");
	sl_sim_spawn_root(sim, &writer_prog, p, "writer");
	CHECK(r->id == 0);
	struct sl_run_stats st;
	CHECK(run(sim, &st) == 0);
	CHECK(p->got == 10000);
	CHECK(sl_chan_level(p->ch) == 0);
	sl_sim_destroy(sim);
}

/* Four threads each take a mutex 5 times around a short burst and meet at a
 * barrier twice; the run completes and counts every critical section. */
struct lock_state { struct sl_mutex *mu; struct sl_barrier *bar; int inside, max_inside, done; };

static void locker_step(struct sl_sim *sim, struct sl_task *t, struct sl_action *next)
{
	(void)sim;
	struct lock_state *s = t->prog_state;
	switch (t->tag++) {
	case 0: case 4: case 8: case 12: case 16:
		*next = (struct sl_action){ .kind = SL_ACT_LOCK, .u.mutex = s->mu };
		return;
	case 1: case 5: case 9: case 13: case 17:
		if (++s->inside > s->max_inside)
			s->max_inside = s->inside;
		*next = sl_act_run(1e5, SL_WC_INT);
		return;
	case 2: case 6: case 10: case 14: case 18:
		s->inside--;
		s->done++;
		*next = (struct sl_action){ .kind = SL_ACT_UNLOCK, .u.mutex = s->mu };
		return;
	case 3: case 11:
		*next = (struct sl_action){ .kind = SL_ACT_BARRIER, .u.barrier = s->bar };
		return;
	case 7: case 15:
		*next = sl_act_run(3e5, SL_WC_INT);
		return;
	default:
		*next = sl_act_exit();
	}
}

static const struct sl_prog locker_prog = { .name = "locker", .step = locker_step };

SL_TEST(engine_mutex_excludes_and_barrier_releases)
{
	struct sl_machine m;
	struct sl_sim *sim = make_sim(&m, "pack:2 core:1 pu:2", 1);
	CHECK(sim != NULL);
	if (!sim)
		return;
	struct lock_state *s = sl_sim_alloc(sim, sizeof(*s));
	s->mu = sl_mutex_new(sim);
	s->bar = sl_barrier_new(sim, 4);
	for (int i = 0; i < 4; i++)
		sl_sim_spawn_root(sim, &locker_prog, s, "locker");
	struct sl_run_stats st;
	CHECK(run(sim, &st) == 0);
	CHECK(s->done == 20);
	CHECK(s->max_inside == 1);
	CHECK(st.tasks == 4);
	sl_sim_destroy(sim);
}

static void fan_step(struct sl_sim *sim, struct sl_task *t, struct sl_action *next)
{
	(void)sim;
	if (t->tag < 6) {
		t->tag++;
		struct sl_action a = { .kind = SL_ACT_FORK };
		a.u.fork.prog = NULL;	/* children run this same program */
		a.u.fork.state = NULL;
		a.u.fork.comm = "leaf";
		if (t->parent) {
			*next = sl_act_run(1e6 + (double)sl_rng_below(&t->rng, 1000000), SL_WC_INT);
			t->tag = 100;
			return;
		}
		*next = a;
		return;
	}
	if (t->tag < 12 && !t->parent) {
		t->tag++;
		*next = sl_act_wait();
		return;
	}
	*next = sl_act_exit();
}

static const struct sl_prog fan_prog = { .name = "fan", .step = fan_step };

static void fan_run(uint64_t seed, struct sl_run_stats *st)
{
	struct sl_machine m;
	struct sl_sim *sim = make_sim(&m, "pack:2 core:1 pu:2", seed);
	if (!sim)
		return;
	m.speed.ctx_switch_ns = 3000;
	m.speed.fork_ns = 100000;
	sl_sim_spawn_root(sim, &fan_prog, NULL, "fan");
	run(sim, st);
	sl_sim_destroy(sim);
}

SL_TEST(engine_same_seed_same_result)
{
	struct sl_run_stats a, b, c;
	memset(&a, 0, sizeof(a));
	memset(&b, 0, sizeof(b));
	memset(&c, 0, sizeof(c));
	fan_run(5, &a);
	fan_run(5, &b);
	fan_run(6, &c);
	CHECK(a.tasks == 7);
	CHECK(memcmp(&a, &b, sizeof(a)) == 0);
	CHECK(a.elapsed_ns != c.elapsed_ns);
	/* CPU time never exceeds CPUs x elapsed */
	CHECK(a.user_ns + a.sys_ns <= 4 * a.elapsed_ns);
}

/* Two memory-bound tasks homed on one node whose bandwidth serves 0.6 of a
 * fully memory-bound task: demand 2 x 0.6 = 1.2, contention 2, so their
 * stalls (m = 0.6 of solo time) take twice as long: speed 1/(0.4 + 1.2).
 * When one finishes the other speeds up again. */
SL_TEST(engine_node_bandwidth_contention)
{
	struct sl_machine m;
	struct sl_sim *sim = make_sim(&m, "pack:2 core:1 pu:1,bw=0.6", 1);
	CHECK(sim != NULL);
	if (!sim)
		return;
	double mi = m.speed.mem_intensity[SL_WC_MEM];
	struct script *root = script_new(sim), *a = script_new(sim), *b = script_new(sim);
	script_add(a, sl_act_run(1e8, SL_WC_MEM));
	script_add(b, sl_act_run(2e8, SL_WC_MEM));
	script_add(root, fork_of(a));
	script_add(root, fork_of(b));
	script_add(root, sl_act_wait());
	script_add(root, sl_act_wait());
	sl_sim_spawn_root(sim, &script_prog, root, "root");
	struct sl_run_stats st;
	CHECK(run(sim, &st) == 0);
	double k = 2 * mi / 0.6;
	double slow = 1.0 / (1.0 - mi + mi * k);
	/* a: 1e8 at the slow speed; b: as much meanwhile, then 1e8 alone */
	double want = 1e8 / slow + 1e8;
	CHECKF(fabs((double)st.elapsed_ns - want) < want * 0.001, "elapsed %lld want %.0f",
	       (long long)st.elapsed_ns, want);
	sl_sim_destroy(sim);
}
