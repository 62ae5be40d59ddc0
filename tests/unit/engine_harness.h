/*
 * engine_harness.h - what the engine's tests drive the simulator with, so
 * that no real policy's decisions interfere: a FIFO test policy (one
 * global queue, any idle CPU, 10-tick slices), a scripted program (a list
 * of actions, with when each was asked for), and machines without kernel
 * costs run under the invariant checks.  Shared by test_engine.c and
 * test_kernel_paths.c; header-only (static inline), as each test file
 * uses a part of it.
 */
#ifndef SL_TESTS_ENGINE_HARNESS_H
#define SL_TESTS_ENGINE_HARNESS_H

#include <stdio.h>

#include "hw/machine.h"
#include "policy/policy.h"
#include "sim/sim.h"

/* ---- a FIFO test policy: one global queue, any idle CPU, 10-tick slices ---- */

struct fifo_task { struct sl_task *next; int ticks; bool queued; };
struct fifo { struct sl_task *head, *tail; };

static inline void fifo_push(struct sl_sim *sim, struct sl_task *t)
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

static inline struct sl_task *fifo_pop(struct sl_sim *sim)
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

static inline void fifo_kick_idle(struct sl_sim *sim)
{
	for (int c = 0; c < sl_topo(sim)->ncpus; c++)
		if (sl_cpu_idle(sim, c) && !sl_need_resched(sim, c)) {
			sl_resched(sim, c);
			return;
		}
}

static inline void *fifo_init(struct sl_sim *sim, const struct sl_params *k, struct sl_err *e)
{
	(void)k; (void)e;
	sl_set_hz(sim, 1000);
	return sl_sim_alloc(sim, sizeof(struct fifo));
}

static inline void fifo_enqueue_new(struct sl_sim *sim, struct sl_task *p, struct sl_task *t)
{
	(void)p;
	fifo_push(sim, t);
	fifo_kick_idle(sim);
}

static inline void fifo_wakeup(struct sl_sim *sim, struct sl_task *t, int w, unsigned fl)
{
	(void)w; (void)fl;
	fifo_push(sim, t);
	fifo_kick_idle(sim);
}

static inline struct sl_task *fifo_pick(struct sl_sim *sim, int cpu, struct sl_task *prev)
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

static inline void fifo_tick(struct sl_sim *sim, int cpu)
{
	struct sl_task *t = sl_curr(sim, cpu);
	if (t && ++((struct fifo_task *)sl_task_policy(t))->ticks >= 10)
		sl_resched(sim, cpu);
}

static const struct sl_policy_ops fifo_ops __attribute__((unused)) = {
	.name = "fifo", .summary = "test FIFO", .task_size = sizeof(struct fifo_task),
	.init = fifo_init, .fork = fifo_enqueue_new, .wakeup = fifo_wakeup,
	.pick_next = fifo_pick, .tick = fifo_tick,
};

/* ---- programs ---- */

struct script {
	int n, pc;
	struct sl_action a[16];
	sl_time asked_at[17];	/* when the program was asked for action k */
	long result[17];	/* and the result of action k - 1 then */
};

static inline void script_step(struct sl_sim *sim, struct sl_task *t, struct sl_action *next)
{
	struct script *s = t->prog_state;
	s->asked_at[s->pc] = sl_now(sim);
	s->result[s->pc] = t->result;
	*next = s->pc < s->n ? s->a[s->pc++] : sl_act_exit();
}

static const struct sl_prog script_prog __attribute__((unused)) = { .name = "script", .step = script_step };

static inline struct script *script_new(struct sl_sim *sim)
{
	return sl_sim_alloc(sim, sizeof(struct script));
}

static inline void script_add(struct script *s, struct sl_action a) { s->a[s->n++] = a; }

static inline struct sl_action fork_of(struct script *child)
{
	struct sl_action a = { .kind = SL_ACT_FORK };
	a.u.fork.prog = &script_prog;
	a.u.fork.state = child;
	a.u.fork.comm = "child";
	return a;
}

/* The root makes the n forks (at most 8), in order, and waits for them. */
static inline void spawn_forks(struct sl_sim *sim, const struct sl_action *forks, int n)
{
	struct script *root = script_new(sim);
	for (int i = 0; i < n; i++)
		script_add(root, forks[i]);
	for (int i = 0; i < n; i++)
		script_add(root, sl_act_wait());
	sl_sim_spawn_root(sim, &script_prog, root, "root");
}

/* The root forks the two children of `a` and `b` and waits for both. */
static inline void spawn_pair(struct sl_sim *sim, struct sl_action a, struct sl_action b)
{
	spawn_forks(sim, (struct sl_action[]){ a, b }, 2);
}

static inline void zero_costs(struct sl_machine *m)
{
	m->speed.ctx_switch_ns = 0;
	m->speed.fork_ns = m->speed.exec_ns = m->speed.exit_ns = 0;
	m->speed.ipi_ns = 0;
	m->speed.migrate_ns = 0;
	for (int l = 0; l < 4; l++)
		m->speed.refill_ns[l] = 0;
}

/* Machine `shape` with no kernel costs (a test sets those it is about);
 * false, the reason printed, if it does not load. */
static inline bool load_zeroed(struct sl_machine *m, const char *shape)
{
	struct sl_err err = { 0 };
	if (sl_machine_load(m, shape, &err)) {
		fprintf(stderr, "machine: %s\n", err.msg);
		return false;
	}
	zero_costs(m);
	return true;
}

/* A run of `ops` on m under the invariant checks, watched by `obs` (may be
 * NULL); NULL, the reason printed, if it cannot be built. */
static inline struct sl_sim *checked_sim(struct sl_machine *m, const struct sl_policy_ops *ops,
				  uint64_t seed, const struct sl_observer *obs)
{
	struct sl_err err = { 0 };
	struct sl_sim_config cfg = { .machine = m, .policy = ops, .seed = seed, .check = true,
				     .observer = obs };
	struct sl_sim *sim = sl_sim_create(&cfg, &err);
	if (!sim)
		fprintf(stderr, "sim: %s\n", err.msg);
	return sim;
}

static inline struct sl_sim *make_sim(struct sl_machine *m, const char *shape, uint64_t seed)
{
	return load_zeroed(m, shape) ? checked_sim(m, &fifo_ops, seed, NULL) : NULL;
}

static inline int run(struct sl_sim *sim, struct sl_run_stats *st)
{
	struct sl_err err = { 0 };
	int rc = sl_sim_run(sim, &err);
	if (rc)
		fprintf(stderr, "run: %s\n", err.msg);
	sl_sim_stats(sim, st);
	return rc;
}

/* A root that forks one child doing `work` and waits for it. */
static inline void spawn_one(struct sl_sim *sim, struct sl_action work)
{
	struct script *root = script_new(sim), *child = script_new(sim);
	script_add(child, work);
	script_add(root, fork_of(child));
	script_add(root, sl_act_wait());
	sl_sim_spawn_root(sim, &script_prog, root, "root");
}

/* A root (running `prog`) that forks two INT hogs of `work` ref ns and
 * waits for both. */
static inline void spawn_two_hogs(struct sl_sim *sim, const struct sl_prog *prog, double work)
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

#endif
