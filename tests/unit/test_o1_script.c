/*
 * test_o1_script.c - helpers shared by the O(1) family's scenario tests;
 * see test_o1_script.h.
 */
#include <stdio.h>
#include <string.h>

#include "policy/policy.h"
#include "test_o1_script.h"

static void o1t_step(struct sl_sim *sim, struct sl_task *t, struct sl_action *next)
{
	struct o1t_script *s = t->prog_state;

	s->at[s->pc] = sl_now(sim);
	s->cpu[s->pc] = t->cpu;
	*next = s->pc < s->n ? s->acts[s->pc++] : sl_act_exit();
}

const struct sl_prog o1t_prog = { .name = "o1t", .step = o1t_step };

struct o1t_script *o1t_new(struct sl_sim *sim)
{
	return sl_sim_alloc(sim, sizeof(struct o1t_script));
}

void o1t_add(struct o1t_script *s, struct sl_action a)
{
	if (s->n < O1T_MAX_ACTS)
		s->acts[s->n++] = a;
}

void o1t_fork(struct o1t_script *s, struct o1t_script *child, const char *comm, int nice)
{
	o1t_add(s, (struct sl_action){ .kind = SL_ACT_FORK,
		.u.fork = { .prog = &o1t_prog, .state = child, .comm = comm,
			    .set_nice = true, .nice = nice } });
}

void o1t_exec(struct o1t_script *s, const char *comm)
{
	o1t_add(s, (struct sl_action){ .kind = SL_ACT_EXEC, .u.exec.comm = comm });
}

void o1t_yield(struct o1t_script *s)
{
	o1t_add(s, (struct sl_action){ .kind = SL_ACT_YIELD });
}

struct o1t_script *o1t_hog(struct sl_sim *sim, double ms)
{
	struct o1t_script *s = o1t_new(sim);
	o1t_add(s, sl_act_run(ms * SL_MSEC, SL_WC_INT));
	return s;
}

struct o1t_script *o1t_hogs(struct sl_sim *sim, int n, double ms, int nice)
{
	static const char *const names[] = { "h0", "h1", "h2", "h3", "h4", "h5", "h6", "h7",
					     "h8", "h9" };
	struct o1t_script *root = o1t_new(sim);
	for (int i = 0; i < n && i < 10; i++)
		o1t_fork(root, o1t_hog(sim, ms), names[i], nice);
	for (int i = 0; i < n && i < 10; i++)
		o1t_add(root, sl_act_wait());
	return root;
}

void o1t_spawn_hogs(struct sl_sim *sim, int n, double ms)
{
	static const char *const names[] = { "h0", "h1", "h2", "h3", "h4", "h5", "h6", "h7",
					     "h8", "h9" };
	for (int i = 0; i < n && i < 10; i++)
		sl_sim_spawn_root(sim, &o1t_prog, o1t_hog(sim, ms), names[i]);
}

bool o1t_start(struct o1t_run *r, const char *machine, const char *policy, sl_time limit)
{
	const struct sl_policy_ops *ops;
	char label[64];

	memset(r, 0, sizeof(*r));
	if (sl_machine_load(&r->machine, machine, &r->err) ||
	    sl_policy_parse(policy, &ops, &r->knobs, label, sizeof(label), &r->err)) {
		fprintf(stderr, "o1t_start: %s\n", r->err.msg);
		return false;
	}
	struct sl_sim_config cfg = {
		.machine = &r->machine, .policy = ops, .knobs = &r->knobs,
		.seed = 1, .time_limit = limit, .check = true,
	};
	r->sim = sl_sim_create(&cfg, &r->err);
	if (!r->sim)
		fprintf(stderr, "o1t_start: %s\n", r->err.msg);
	return r->sim != NULL;
}

bool o1t_run(struct o1t_run *r)
{
	if (sl_sim_run(r->sim, &r->err) == 0)
		return true;
	fprintf(stderr, "o1t_run: %s\n", r->err.msg);
	return false;
}

struct sl_task *o1t_find(struct sl_sim *sim, const char *comm)
{
	for (struct sl_task *t = sl_task_first(sim); t; t = sl_task_next(t))
		if (!strcmp(t->comm, comm))
			return t;
	return NULL;
}

int o1t_bind(const char *text, struct sl_err *err)
{
	const struct sl_policy_ops *ops;
	struct sl_params p;
	char label[64];

	*err = (struct sl_err){ 0 };
	return sl_policy_parse(text, &ops, &p, label, sizeof(label), err);
}

int o1t_init(const char *machine, const char *policy, struct sl_err *err)
{
	const struct sl_policy_ops *ops;
	struct sl_machine m;
	struct sl_params p;
	char label[64];

	*err = (struct sl_err){ 0 };
	if (sl_machine_load(&m, machine, err) ||
	    sl_policy_parse(policy, &ops, &p, label, sizeof(label), err))
		return -1;
	struct sl_sim_config cfg = { .machine = &m, .policy = ops, .knobs = &p, .seed = 1 };
	struct sl_sim *sim = sl_sim_create(&cfg, err);
	if (!sim)
		return -1;
	sl_sim_destroy(sim);
	return 0;
}

/* Two hogs forked on CPU 0 of two: when does the second first run? */
sl_time o1t_second_hog_start(const char *policy)
{
	struct o1t_run r;
	sl_time start = -1;
	char pol[256];

	/* the root forks both and waits before either runs, in every version */
	snprintf(pol, sizeof(pol), "%s,fork_place=tail", policy);
	if (!o1t_start(&r, "pack:2 core:1 pu:1", pol, 0))
		return -1;
	struct o1t_script *a = o1t_hog(r.sim, 200), *b = o1t_hog(r.sim, 200);
	struct o1t_script *root = o1t_new(r.sim);
	o1t_fork(root, a, "a", 0);
	o1t_fork(root, b, "b", 0);
	o1t_add(root, sl_act_wait());
	o1t_add(root, sl_act_wait());
	sl_sim_spawn_root(r.sim, &o1t_prog, root, "root");
	if (o1t_run(&r) && a->cpu[0] == 0 && b->cpu[0] == 1)
		start = b->at[0];
	sl_sim_destroy(r.sim);
	return start;
}
