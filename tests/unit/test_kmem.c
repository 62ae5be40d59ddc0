/*
 * test_kmem.c - the kernel's own memory on one node (docs/model.md
 * "Kernel memory"): on i386 NUMA-Q only node 0 has lowmem, so kernel work
 * (system time) runs against node 0's memory wherever the task runs, and
 * draws on node 0's bandwidth.  Other machines: kernel work at the task's
 * own speed, as before.
 *
 * A tiny placement policy puts task k on the CPU the test names, so a
 * task's node is known.
 *
 * Also the bandwidth of a node shared by user work, on a machine whose
 * node's CPUs lie beyond the first 64 (the engine finds the tasks drawing
 * on a node in per-node CPU masks, sim/bandwidth.c restart_node), and first
 * touch: memory placed where the work that touches it ran, over several
 * nodes when the task moved meanwhile (sim/first_touch.c).
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hw/machine.h"
#include "sim/sim.h"
#include "test.h"

/* ---- a policy that runs task k on cpu_of[k] only ---- */

#define KM_MAX 8

static int cpu_of[KM_MAX];
/* At CPU 0's tick number move_tick (0: never), task move_id moves to
 * CPU move_to (a scheduler moving a running task). */
static int move_tick, move_id, move_to, ticks;

struct km_task { struct sl_task *next; };
struct km { struct sl_task *head[256]; };

static void km_push(struct sl_sim *sim, struct sl_task *t)
{
	struct km *k = sl_policy_data(sim);
	int cpu = cpu_of[t->id < KM_MAX ? t->id : 0];
	((struct km_task *)sl_task_policy(t))->next = k->head[cpu];
	k->head[cpu] = t;
	if (sl_cpu_idle(sim, cpu))
		sl_resched(sim, cpu);
}

static void *km_init(struct sl_sim *sim, const struct sl_params *p, struct sl_err *e)
{
	(void)p; (void)e;
	sl_set_hz(sim, 100);
	return sl_sim_alloc(sim, sizeof(struct km));
}

static void km_fork(struct sl_sim *sim, struct sl_task *p, struct sl_task *t)
{
	(void)p;
	km_push(sim, t);
}

static void km_wakeup(struct sl_sim *sim, struct sl_task *t, int w, unsigned fl)
{
	(void)w; (void)fl;
	km_push(sim, t);
}

static struct sl_task *km_pick(struct sl_sim *sim, int cpu, struct sl_task *prev)
{
	struct km *k = sl_policy_data(sim);
	if (prev && prev->state == SL_TASK_RUNNABLE) {
		if (cpu_of[prev->id < KM_MAX ? prev->id : 0] == cpu)
			return prev;
		km_push(sim, prev);	/* moved: to its new CPU's queue */
	}
	struct sl_task *t = k->head[cpu];
	if (t)
		k->head[cpu] = ((struct km_task *)sl_task_policy(t))->next;
	return t;
}

static void km_tick(struct sl_sim *sim, int cpu)
{
	if (cpu != 0 || !move_tick || ++ticks != move_tick)
		return;
	int from = cpu_of[move_id];
	cpu_of[move_id] = move_to;
	sl_resched(sim, from);
}

static const struct sl_policy_ops km_ops = {
	.name = "km", .task_size = sizeof(struct km_task),
	.init = km_init, .fork = km_fork, .wakeup = km_wakeup,
	.pick_next = km_pick, .tick = km_tick,
};

/* ---- programs: a script of actions ---- */

struct km_script { int n, pc; struct sl_action a[8]; };

static void km_step(struct sl_sim *sim, struct sl_task *t, struct sl_action *next)
{
	(void)sim;
	struct km_script *s = t->prog_state;
	*next = s->pc < s->n ? s->a[s->pc++] : sl_act_exit();
}

static const struct sl_prog km_prog = { .name = "km", .step = km_step };

static struct km_script *script(struct sl_sim *sim)
{
	return sl_sim_alloc(sim, sizeof(struct km_script));
}

static void add(struct km_script *s, struct sl_action a) { s->a[s->n++] = a; }

static struct sl_action fork_of(struct km_script *child)
{
	struct sl_action a = { .kind = SL_ACT_FORK };
	a.u.fork.prog = &km_prog;
	a.u.fork.state = child;
	a.u.fork.comm = "child";
	return a;
}

static struct sl_machine mach;	/* large: keep it off the stack */

/* A simulation on `name` with every kernel path cost zero but a context
 * switch of `ctx_ns`, and no cache refill. */
static struct sl_sim *make(const char *name, sl_time ctx_ns)
{
	struct sl_err err = { 0 };
	if (sl_machine_load(&mach, name, &err)) {
		fprintf(stderr, "  machine '%s': %s\n", name, err.msg);
		return NULL;
	}
	mach.speed.ctx_switch_ns = ctx_ns;
	mach.speed.fork_ns = mach.speed.exec_ns = mach.speed.exit_ns = 0;
	mach.speed.ipi_ns = mach.speed.migrate_ns = 0;
	mach.speed.sched_scan_ns = mach.speed.sched_pick_ns = 0;
	for (int l = 0; l < 4; l++)
		mach.speed.refill_ns[l] = 0;
	struct sl_sim_config cfg = { .machine = &mach, .policy = &km_ops, .seed = 1, .check = true };
	return sl_sim_create(&cfg, &err);
}

/* Run one task on `cpu` doing `a`; its system and user time. */
static bool run_one(const char *name, int cpu, sl_time ctx_ns, struct sl_action a,
		    struct sl_run_stats *st)
{
	struct sl_err err = { 0 };
	cpu_of[0] = cpu;
	struct sl_sim *sim = make(name, ctx_ns);
	if (!sim)
		return false;
	struct km_script *s = script(sim);
	add(s, a);
	sl_sim_spawn_root(sim, &km_prog, s, "root");
	int rc = sl_sim_run(sim, &err);
	if (rc)
		fprintf(stderr, "  run: %s\n", err.msg);
	sl_sim_stats(sim, st);
	sl_sim_destroy(sim);
	return rc == 0;
}

static bool near(double got, double want)
{
	return fabs(got - want) <= want * 1e-6 + 2;
}

/* NUMA-Q's kernel memory is node 0's lowmem (2.6.11 arch/i386/mm/
 * discontig.c zone_sizes_init()): 100 ms of kernel work takes 100 ms on
 * node 0 and 1 / (0.75 + 0.25 x 3.5) as long on node 2, where the
 * task's own memory is local; kmem=local restores the old model. */
SL_TEST(kmem_numaq_kernel_work_is_slower_off_node_0)
{
	struct sl_run_stats st;
	double remote = 0.75 + 0.25 * 3.5;

	CHECK(run_one("numaq-16", 1, 0, sl_act_sys(1e8), &st));
	CHECKF(near((double)st.sys_ns, 1e8), "node 0: sys %lld", (long long)st.sys_ns);
	CHECK(run_one("numaq-16", 9, 0, sl_act_sys(1e8), &st));
	CHECKF(near((double)st.sys_ns, 1e8 * remote), "node 2: sys %lld want %.0f",
	       (long long)st.sys_ns, 1e8 * remote);
	CHECK(st.user_ns == 0);
	CHECK(run_one("numaq-16,kmem=local", 9, 0, sl_act_sys(1e8), &st));
	CHECKF(near((double)st.sys_ns, 1e8), "kmem=local: sys %lld", (long long)st.sys_ns);
	/* user work of class INT on its own node is not touched */
	CHECK(run_one("numaq-16", 9, 0, sl_act_run(1e8, SL_WC_INT), &st));
	CHECKF(near((double)st.user_ns, 1e8) && st.sys_ns == 0, "user %lld sys %lld",
	       (long long)st.user_ns, (long long)st.sys_ns);
}

/* The kernel's debt ahead of user work (here a 1 ms context switch) is a
 * phase of its own: paid at the kernel's speed, then the work at the
 * task's. */
SL_TEST(kmem_debt_before_work_is_a_kernel_phase)
{
	struct sl_run_stats st;
	double remote = 0.75 + 0.25 * 3.5;

	CHECK(run_one("numaq-16", 9, SL_MSEC, sl_act_run(1e8, SL_WC_INT), &st));
	CHECKF(near((double)st.sys_ns, 1e6 * remote), "sys %lld want %.0f",
	       (long long)st.sys_ns, 1e6 * remote);
	CHECKF(near((double)st.user_ns, 1e8), "user %lld", (long long)st.user_ns);
	CHECK(run_one("numaq-16", 2, SL_MSEC, sl_act_run(1e8, SL_WC_INT), &st));
	CHECKF(near((double)st.sys_ns, 1e6), "node 0: sys %lld", (long long)st.sys_ns);
}

/* A machine of one node, and the other presets: unchanged. */
SL_TEST(kmem_one_node_and_other_presets_unchanged)
{
	struct sl_run_stats st;

	CHECK(run_one("pack:1 core:1 pu:1", 0, 0, sl_act_sys(1e8), &st));
	CHECKF(near((double)st.sys_ns, 1e8), "sys %lld", (long long)st.sys_ns);
	/* azusa-16: ia64 has no highmem, every node has its own normal
	 * memory: kernel work at the task's speed */
	CHECK(run_one("azusa-16", 9, 0, sl_act_sys(1e8), &st));
	CHECKF(near((double)st.sys_ns, 1e8), "azusa node 2: sys %lld", (long long)st.sys_ns);
	CHECK(run_one("xeon-2s-smt", 20, 0, sl_act_sys(1e8), &st));
	CHECKF(near((double)st.sys_ns, 1e8), "xeon-2s-smt node 1: sys %lld", (long long)st.sys_ns);
}

/* The last run_root's re-timings of a node's CPUs for its bandwidth
 * contention (sl_event_counts). */
static uint64_t last_node_retimes;

/* Run `root` as sim's first task, then destroy sim: the elapsed ns, or
 * -1 if the run failed. */
static double run_root(struct sl_sim *sim, struct km_script *root)
{
	struct sl_err err = { 0 };
	double elapsed = -1;

	sl_sim_spawn_root(sim, &km_prog, root, "root");
	if (sl_sim_run(sim, &err) == 0) {
		struct sl_run_stats st;
		sl_sim_stats(sim, &st);
		elapsed = (double)st.elapsed_ns;
		last_node_retimes = st.events.node_retimes;
	} else {
		fprintf(stderr, "  run: %s\n", err.msg);
	}
	sl_sim_destroy(sim);
	return elapsed;
}

/* Four children on CPUs 4-7 (node 1) each doing `a`, the root on CPU 0
 * waiting for them, with an exec cost of `exec_ns`: the elapsed time, or
 * -1. */
static double four_on_node1(struct sl_action a, sl_time exec_ns)
{
	struct sl_err err = { 0 };
	int cpus[] = { 0, 4, 5, 6, 7 };

	memcpy(cpu_of, cpus, sizeof(cpus));
	struct sl_sim *sim = make("numaq-16", 0);
	if (!sim)
		return -1;
	if (exec_ns) {
		sl_sim_destroy(sim);
		mach.speed.exec_ns = exec_ns;
		struct sl_sim_config cfg = { .machine = &mach, .policy = &km_ops, .seed = 1,
					     .check = true };
		if (!(sim = sl_sim_create(&cfg, &err)))
			return -1;
	}
	struct km_script *root = script(sim);
	for (int i = 0; i < 4; i++) {
		struct km_script *c = script(sim);
		add(c, a);
		add(root, fork_of(c));
	}
	for (int i = 0; i < 4; i++)
		add(root, sl_act_wait());
	return run_root(sim, root);
}

/* Node 0's bandwidth serves every CPU's kernel work: four tasks in the
 * kernel on node 1 draw 4 x 0.25 = 1.0 against NUMA-Q's 0.72, and so slow
 * each other by k = 1.0 / 0.72 on their node-0 stalls. */
SL_TEST(kmem_kernel_work_shares_node_0_bandwidth)
{
	double elapsed = four_on_node1(sl_act_sys(1e8), 0);
	double k = 4 * 0.25 / mach.speed.node_bw;
	double want = 1e8 * (0.75 + 0.25 * 3.5 * k);
	CHECKF(fabs(elapsed - want) < want * 0.001, "elapsed %.0f want %.0f", elapsed, want);
}

/* An exec's cost is kernel work too: the new image has not touched its
 * memory yet, but the exec runs against the kernel's, and shares node 0's
 * bandwidth as any kernel work does.  Four tasks on node 1 exec at once
 * with 100 ms of exec cost each: as four tasks in the kernel above
 * (without this they drew on nothing and took 1e8 x 1.625). */
SL_TEST(kmem_exec_cost_shares_node_0_bandwidth)
{
	struct sl_action exec = { .kind = SL_ACT_EXEC, .u.exec = { .comm = "new" } };
	double elapsed = four_on_node1(exec, 100 * SL_MSEC);
	double k = 4 * 0.25 / mach.speed.node_bw;
	double want = 1e8 * (0.75 + 0.25 * 3.5 * k);
	CHECKF(fabs(elapsed - want) < want * 0.001, "elapsed %.0f want %.0f", elapsed, want);
}

/* The machine property and its option. */
SL_TEST(kmem_machine_property)
{
	struct sl_err err = { 0 };

	CHECK(sl_machine_load(&mach, "numaq-16", &err) == 0 && mach.speed.kernel_node == 0);
	CHECK(fabs(mach.speed.kernel_mem_intensity - 0.25) < 1e-12);
	CHECK(sl_speed_numa_kernel(&mach.speed, 2, 1.0) < 1.0);
	CHECK(sl_speed_numa_kernel(&mach.speed, 0, 1.0) == 1.0);
	CHECK(sl_machine_load(&mach, "numaq-16,kmem=local", &err) == 0 &&
	      mach.speed.kernel_node == -1);
	CHECK(sl_speed_numa_kernel(&mach.speed, 2, 1.0) == 1.0);
	CHECK(sl_machine_load(&mach, "azusa-16,kmem=1", &err) == 0 && mach.speed.kernel_node == 1);
	static const char *const others[] = { "p4dpe-2x2ht", "p4ht-3066", "p4-2400", "xeon-1600ht",
					      "xeon-1800-2x2ht", "azusa-16", "xeon-2s-smt",
					      "node:2 pack:1 core:2 pu:1" };
	for (size_t i = 0; i < sizeof(others) / sizeof(others[0]); i++)
		CHECKF(sl_machine_load(&mach, others[i], &err) == 0 && mach.speed.kernel_node == -1,
		       "%s", others[i]);
	memset(&err, 0, sizeof(err));
	CHECK(sl_machine_load(&mach, "numaq-16,kmem=4", &err) != 0 && strstr(err.msg, "kmem"));
	memset(&err, 0, sizeof(err));
	CHECK(sl_machine_load(&mach, "numaq-16,kmem=far", &err) != 0 &&
	      strstr(err.msg, "node number"));
}

/* ---- first touch (sim/first_touch.c) ---- */

/* On two nodes of two CPUs (0-1, 2-3), the root touches 30 ms of memory
 * (SPIN work: no stalls, so 30 ms of work take 30 ms wherever it runs)
 * and then does `mem_ms` of MEM work.  At the first tick (10 ms, hz 100)
 * it is moved from CPU 0 to CPU `to` if move.  Its memory split (NULL: one
 * node), its home and the elapsed ns, or -1. */
static double touch_then_mem(bool move, int to, double mem_ms, int *home, int *nparts,
			     double *share0)
{
	struct sl_err err = { 0 };
	double elapsed = -1;

	cpu_of[0] = 0;
	move_tick = move ? 1 : 0;
	move_id = 0;
	move_to = to;
	ticks = 0;
	struct sl_sim *sim = make("node:2 pack:1 core:2 pu:1", 0);
	if (!sim)
		return -1;
	struct km_script *s = script(sim);
	add(s, sl_act_first_touch(sl_act_run(30e6, SL_WC_SPIN)));
	add(s, sl_act_run(mem_ms * 1e6, SL_WC_MEM));
	struct sl_task *t = sl_sim_spawn_root(sim, &km_prog, s, "root");
	if (sl_sim_run(sim, &err) == 0) {
		struct sl_run_stats st;
		sl_sim_stats(sim, &st);
		elapsed = (double)st.elapsed_ns;
		*home = t->home_node;
		*nparts = t->mem_split ? t->mem_split->n : 1;
		*share0 = t->mem_split && t->mem_split->part[0].node == 0 ? t->mem_split->part[0].share
									  : -1;
	} else {
		fprintf(stderr, "  run: %s\n", err.msg);
	}
	sl_sim_destroy(sim);
	move_tick = 0;
	return elapsed;
}

/* Pages land on the node of the CPU that faults them (2.6.11
 * do_anonymous_page -> alloc_page_vma, default policy: numa_node_id()):
 * a task moved from node 0 to node 1 after a third of its first touch has
 * a third of its memory on node 0, its home is node 1, and its MEM work
 * on node 1 stalls a third of the time at the remote ratio.  Unmoved, or
 * moved within its node, its memory is all on node 0. */
SL_TEST(first_touch_splits_memory_where_it_ran)
{
	struct sl_err err = { 0 };
	int home = -9, nparts = 0;
	double share0 = 0;

	CHECK(sl_machine_load(&mach, "node:2 pack:1 core:2 pu:1", &err) == 0);
	double m = mach.speed.mem_intensity[SL_WC_MEM], r = mach.speed.numa_ratio[1][0];
	CHECKF(r > 1.0, "remote ratio %g", r);

	double e = touch_then_mem(true, 2, 100, &home, &nparts, &share0);
	CHECKF(home == 1 && nparts == 2, "home %d, %d parts", home, nparts);
	CHECKF(fabs(share0 - 1.0 / 3) < 1e-6, "share on node 0 %.9f", share0);
	double want = 30e6 + 100e6 * (1 - m + m * (r / 3 + 2.0 / 3));
	CHECKF(fabs(e - want) < 1e3, "elapsed %.0f ns, want %.0f", e, want);

	e = touch_then_mem(false, 0, 100, &home, &nparts, &share0);
	CHECKF(home == 0 && nparts == 1 && fabs(e - 130e6) < 1e3, "unmoved: home %d, %d parts, "
	       "elapsed %.0f", home, nparts, e);
	e = touch_then_mem(true, 1, 100, &home, &nparts, &share0);
	CHECKF(home == 0 && nparts == 1 && fabs(e - 130e6) < 1e3, "moved on node 0: home %d, "
	       "%d parts, elapsed %.0f", home, nparts, e);
}

/* A split task draws on each node's bandwidth in proportion to its pages
 * there (the engine's check, on in these runs, sums every node's demand
 * at every event), and a change of either node's contention re-times it:
 * with node 1's bandwidth at a third of one MEM task's draw, the split
 * task's MEM work (2/3 of its draw on node 1) stalls there twice over
 * (contention (2/3 m) / (m / 3) = 2) and at the remote ratio on node 0. */
SL_TEST(first_touch_split_memory_draws_on_both_nodes)
{
	struct sl_err err = { 0 };

	CHECK(sl_machine_load(&mach, "node:2 pack:1 core:2 pu:1", &err) == 0);
	double m = mach.speed.mem_intensity[SL_WC_MEM], r = mach.speed.numa_ratio[1][0];
	char name[96];
	snprintf(name, sizeof(name), "node:2 pack:1 core:2 pu:1,bw=%.17g", m / 3);
	cpu_of[0] = 0;
	move_tick = 1;
	move_id = 0;
	move_to = 2;
	ticks = 0;
	struct sl_sim *sim = make(name, 0);
	CHECK(sim != NULL);
	if (!sim)
		return;
	double cont1 = sl_numa_contention(&mach.speed, 2 * m / 3);
	struct km_script *s = script(sim);
	add(s, sl_act_first_touch(sl_act_run(30e6, SL_WC_SPIN)));
	add(s, sl_act_run(100e6, SL_WC_MEM));
	double e = run_root(sim, s);
	move_tick = 0;
	double want = 30e6 + 100e6 * (1 - m + m * (r / 3 + 2.0 / 3 * cont1));
	CHECKF(cont1 > 1.5 && fabs(e - want) < 1e3, "elapsed %.0f ns, want %.0f (contention %g)", e,
	       want, cont1);
}

/* On machine `base` with a node bandwidth of `bw`: the root on cpus[0]
 * forks a child on cpus[1] doing a[0..na) and one on cpus[2] doing
 * b[0..nb), and waits for both.  The elapsed ns, or -1. */
static double two_children(const char *base, double bw, const int cpus[3],
			   const struct sl_action *a, int na, const struct sl_action *b, int nb)
{
	char name[96];

	snprintf(name, sizeof(name), "%s,bw=%.17g", base, bw);
	memcpy(cpu_of, cpus, 3 * sizeof(int));
	struct sl_sim *sim = make(name, 0);
	if (!sim)
		return -1;
	struct km_script *root = script(sim), *sa = script(sim), *sb = script(sim);
	for (int k = 0; k < na; k++)
		add(sa, a[k]);
	for (int k = 0; k < nb; k++)
		add(sb, b[k]);
	add(root, fork_of(sa));
	add(root, fork_of(sb));
	add(root, sl_act_wait());
	add(root, sl_act_wait());
	return run_root(sim, root);
}

/* Two MEM tasks homed on node 1 of a 2 x 80-CPU machine, on CPUs 130 and
 * 150 (the third word of a CPU mask), oversubscribe the node's bandwidth
 * (bw = 1.5 x one task's draw): both run at 1 / (1 - m + m x 2m / bw).
 * When the shorter one ends, the contention is gone and the other runs
 * its remaining work at full speed: the end of one task re-times every
 * task still drawing on its node, wherever its CPU is numbered. */
SL_TEST(kmem_bandwidth_retimes_the_node_beyond_cpu_64)
{
	struct sl_err err = { 0 };
	const int cpus[] = { 100, 130, 150 };
	const char *base = "node:2 pack:1 core:80 pu:1";

	CHECK(sl_machine_load(&mach, base, &err) == 0);
	CHECKF(mach.topo.cpu_node[130] == 1 && mach.topo.cpu_node[150] == 1, "CPUs 130, 150 on node 1");
	double m = mach.speed.mem_intensity[SL_WC_MEM], bw = 1.5 * m;
	struct sl_action a = sl_act_run(5e7, SL_WC_MEM), b = sl_act_run(1e8, SL_WC_MEM);
	double elapsed = two_children(base, bw, cpus, &a, 1, &b, 1);
	double shared = 1.0 - m + m * (2 * m / bw);
	double want = 5e7 * shared + 5e7;	/* b alone for its last 50 ms of work */
	CHECKF(fabs(elapsed - want) < want * 0.001, "elapsed %.0f want %.0f "
	       "(b kept the shared speed: %.0f)", elapsed, want, 1e8 * shared);
}

/* Several changes of a node's demand at one instant: B's change of work
 * class (MEM to INT) takes its MEM draw off node 1 and puts its INT draw
 * on, and A, drawing on the node all along, runs at the contention of the
 * two MEM tasks before that instant and at the final one after it, never
 * at the one in between (the engine re-times a node once per event,
 * sim/bandwidth.c retime_later).  With bw = m: both MEM, contention 2; then
 * (m + i) / m; when B ends, A alone at full speed. */
SL_TEST(kmem_node_changed_twice_at_one_instant_runs_at_the_final_contention)
{
	struct sl_err err = { 0 };
	const int cpus[] = { 0, 4, 5 };
	const char *base = "node:2 pack:1 core:4 pu:1";

	CHECK(sl_machine_load(&mach, base, &err) == 0);
	double m = mach.speed.mem_intensity[SL_WC_MEM], i = mach.speed.mem_intensity[SL_WC_INT];
	struct sl_action a = sl_act_run(1e8, SL_WC_MEM);
	struct sl_action b[] = { sl_act_run(5e7, SL_WC_MEM), sl_act_run(5e7, SL_WC_INT) };
	double elapsed = two_children(base, m, cpus, &a, 1, b, 2);

	double both = 1 - m + m * 2;			/* ns per unit of work, both MEM */
	double c = (m + i) / m;
	double a_mixed = 1 - m + m * c, b_int = 1 - i + i * c;
	double t1 = 5e7 * both;				/* B's MEM work done */
	double t2 = t1 + 5e7 * b_int;			/* B's INT work done */
	double a_left = 1e8 - 5e7 - (t2 - t1) / a_mixed;
	double want = t2 + a_left;
	CHECKF(a_left > 0 && fabs(elapsed - want) < 4, "elapsed %.1f want %.1f", elapsed, want);
}

/* The same change of class, counted: it changes node 1's contention twice
 * at one event (MEM off: 1.2 -> 0.6, under bw = 1.01 m; INT on: 0.68,
 * over it), and the engine re-times the node's CPUs once for both
 * (--stats' node re-timings).  Against B running MEM throughout, which
 * changes nothing then, it adds exactly one re-timing (two when each
 * change re-timed the node at once). */
SL_TEST(kmem_node_changed_twice_at_one_instant_is_retimed_once)
{
	struct sl_err err = { 0 };
	const int cpus[] = { 0, 4, 5 };
	const char *base = "node:2 pack:1 core:4 pu:1";

	CHECK(sl_machine_load(&mach, base, &err) == 0);
	double m = mach.speed.mem_intensity[SL_WC_MEM];
	struct sl_action a = sl_act_run(1e8, SL_WC_MEM);
	struct sl_action mem_int[] = { sl_act_run(5e7, SL_WC_MEM), sl_act_run(5e7, SL_WC_INT) };
	struct sl_action mem_mem[] = { sl_act_run(5e7, SL_WC_MEM), sl_act_run(5e7, SL_WC_MEM) };
	CHECK(two_children(base, 1.01 * m, cpus, &a, 1, mem_int, 2) > 0);
	uint64_t with_change = last_node_retimes;
	CHECK(two_children(base, 1.01 * m, cpus, &a, 1, mem_mem, 2) > 0);
	uint64_t without = last_node_retimes;
	CHECKF(with_change == without + 1, "node re-timings: %llu with the change of class, %llu "
	       "without", (unsigned long long)with_change, (unsigned long long)without);
}

/* On a machine whose kernel memory is node 0's, A on CPU 0 does kernel
 * work throughout and B on CPU 1 kernel work too, with or without an exec
 * in the middle.  The elapsed ns (-1 if the run failed). */
static double kernel_beside_exec(double bw, bool exec)
{
	const int cpus[] = { 2, 0, 1 };
	const struct sl_action a[] = { sl_act_sys(1e8) };
	const struct sl_action b[] = { sl_act_sys(exec ? 2.5e7 : 5e7),
				       (struct sl_action){ .kind = SL_ACT_EXEC }, sl_act_sys(2.5e7) };

	return two_children("node:2 pack:1 core:4 pu:1,kmem=0", bw, cpus, a, 1, b, exec ? 3 : 1);
}

/* An exec takes the task's demand off node 0 and puts it back (a new
 * image, whose kernel work still draws on the kernel's memory) in one
 * event: the node's contention at the end of the event is what it was,
 * A's speed never changed, and A is not re-timed (the count of node
 * re-timings is the one without the exec).  A still ends on the closed
 * form: contended while B runs, alone after. */
SL_TEST(kmem_node_back_at_its_contention_is_not_retimed)
{
	struct sl_err err = { 0 };

	CHECK(sl_machine_load(&mach, "node:2 pack:1 core:4 pu:1,kmem=0", &err) == 0);
	double m = mach.speed.kernel_mem_intensity, bw = 1.5 * m;
	double elapsed = kernel_beside_exec(bw, true);
	uint64_t with_exec = last_node_retimes;
	double plain = kernel_beside_exec(bw, false);
	uint64_t without = last_node_retimes;

	CHECKF(with_exec == without, "node re-timings: %llu with the exec, %llu without",
	       (unsigned long long)with_exec, (unsigned long long)without);
	double contended = 1 - m + m * 2 * m / bw;	/* ns per unit of kernel work */
	double want = 5e7 * contended + 5e7;
	CHECKF(fabs(elapsed - want) < 4 && fabs(plain - want) < 4, "elapsed %.1f and %.1f, want "
	       "%.1f", elapsed, plain, want);
}

