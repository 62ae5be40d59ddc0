/*
 * test_o1_numa.c - the NUMA scheduler of 2.5.59 / 2.5.68 / 2.6.0 on the
 * O(1) scheduler (their kernel/sched.c): the knobs and the combinations a version
 * cannot have; find_busiest_node's 125 % threshold, decay, and raw (2.5.x)
 * or per-CPU (2.6.0) node load; how often an idle CPU looks across nodes on
 * a 4-node machine (every NODE_BALANCE_RATE balances in 2.5.59, every 5 ms
 * node tick in 2.5.68 / 2.6.0, at once without the NUMA scheduler);
 * sched_balance_exec moving an exec'ing task to the least loaded node; and
 * every version running a mixed load with exec cleanly on NUMA machines.
 */
#include <stdlib.h>
#include <string.h>

#include "policy/o1/core.h"
#include "bounds.h"
#include "test.h"
#include "test_o1_script.h"

/* i386, as NUMA-Q: NODE_BALANCE_RATE 100 */
#define NUMA4 "node:4 pack:1 core:2 pu:1,arch=i386"

/* ---- knobs ---- */

static bool o1nt_rejects(const char *policy, const char *words)
{
	struct sl_err err;
	bool ok = o1t_init(NUMA4, policy, &err) == -1 && err.kind == SL_ERR_INPUT &&
		  strstr(err.msg, words);

	if (!ok)
		fprintf(stderr, "  %s: '%s', expected an input error with '%s'\n", policy,
			err.msg, words);
	return ok;
}

SL_TEST(o1_numa_knobs)
{
	struct sl_err err;

	CHECK(o1t_init(NUMA4, "o1:version=2.5.59", &err) == 0);
	CHECK(o1t_init(NUMA4, "o1:version=2.5.59,numa=on,node_balance_rate=10", &err) == 0);
	CHECK(o1t_init(NUMA4, "o1:version=2.5.59,node_balance=ticks,idle_node_tick=idle",
		       &err) == 0);
	CHECK(o1t_init(NUMA4, "o1:version=2.5.68,node_balance=rate,node_balance_rate=30",
		       &err) == 0);
	CHECK(o1t_init(NUMA4, "o1:version=2.6.0,numa=off", &err) == 0);
	CHECK(o1t_init(NUMA4, "o1:version=2.5.33,numa=off", &err) == 0);
	/* 2.5.33 had no NUMA scheduler */
	CHECK(o1nt_rejects("o1:version=2.5.33,numa=on", "2.5.33 has no NUMA scheduler"));
	CHECK(o1nt_rejects("o1:node_balance_rate=10", "node_balance_rate: needs the NUMA"));
	CHECK(o1nt_rejects("ht:numa=on", "numa=on"));
	/* node knobs without the NUMA scheduler, or without their mechanism */
	CHECK(o1nt_rejects("o1:version=2.6.0,numa=off,node_balance=rate", "numa=off"));
	CHECK(o1nt_rejects("o1:version=2.5.68,node_balance_rate=100", "node ticks"));
	CHECK(o1nt_rejects("o1:version=2.5.59,idle_node_tick=busy", "counts load_balance"));
	CHECK(o1nt_rejects("ht:version=a9,node_balance_rate=10", "node ticks"));
	CHECK(o1t_init(NUMA4, "ht:version=b2,idle_node_tick=busy", &err) == 0);
	CHECK(o1nt_rejects("ht:version=e6,idle_node_tick=idle", "counts load_balance"));
	/* the same on a one-node machine: the checks do not depend on it */
	CHECK(o1t_init("pack:2 core:1 pu:1", "o1:version=2.5.33,numa=on", &err) == -1 &&
	      err.kind == SL_ERR_INPUT);
	CHECK(o1t_init("pack:2 core:1 pu:1", "o1:version=2.5.59,numa=on", &err) == 0);
}

/* ---- find_busiest_node ---- */

/* A hand-made scheduler of two nodes of 2 and 4 CPUs, for find_busiest_node. */
struct o1nt_nodes {
	struct o1 s;
	struct o1_rq rq;
	int prev[2];
};

static void o1nt_nodes_init(struct o1nt_nodes *n, const char *version)
{
	memset(n, 0, sizeof(*n));
	n->s.cfg.v = o1_version_find(version);
	n->s.nnodes = 2;
	n->s.node_weight[0] = 2;
	n->s.node_weight[1] = 4;
	n->rq.prev_node_load = n->prev;
}

static int o1nt_busiest(struct o1nt_nodes *n, int here, int there)
{
	n->s.node_nr_running[0] = here;
	n->s.node_nr_running[1] = there;
	return o1_find_busiest_node(&n->s, &n->rq, 0);
}

SL_TEST(o1_find_busiest_node_rules)
{
	struct o1nt_nodes n;

	/* 2.5.59: raw counts, a remote node needs > 125 % of ours */
	o1nt_nodes_init(&n, "2.5.59");
	CHECK(o1nt_busiest(&n, 4, 5) == -1);		/* 500 > 500 fails */
	o1nt_nodes_init(&n, "2.5.59");
	CHECK(o1nt_busiest(&n, 4, 6) == 1);
	o1nt_nodes_init(&n, "2.5.59");
	CHECK(o1nt_busiest(&n, 3, 4) == 1);		/* 400 > 375 */
	/* 2.6.0: 10 * count / CPUs: 3 on 2 CPUs (15) is busier than 4 on 4 (10) */
	o1nt_nodes_init(&n, "2.6.0");
	CHECK(o1nt_busiest(&n, 3, 4) == -1);
	o1nt_nodes_init(&n, "2.6.0");
	CHECK(o1nt_busiest(&n, 1, 4) == 1);		/* 10 > 5 * 1.25 */
	/* the decay load/2 + count: a node that emptied stays busiest for a
	 * while (8; then 4, 2, 1 against 0 here) */
	o1nt_nodes_init(&n, "2.5.68");
	CHECK(o1nt_busiest(&n, 0, 8) == 1);
	CHECK(o1nt_busiest(&n, 0, 0) == 1 && n.prev[1] == 4);
	CHECK(o1nt_busiest(&n, 0, 0) == 1 && n.prev[1] == 2);
	CHECK(o1nt_busiest(&n, 0, 0) == 1 && n.prev[1] == 1);
	CHECK(o1nt_busiest(&n, 0, 0) == -1 && n.prev[1] == 0);
	/* our own past load counts too: 4 here last time, 4 there now */
	o1nt_nodes_init(&n, "2.5.68");
	CHECK(o1nt_busiest(&n, 8, 0) == -1);
	CHECK(o1nt_busiest(&n, 0, 5) == -1 && n.prev[0] == 4);	/* 500 > 125 * 4 fails */
	CHECK(o1nt_busiest(&n, 0, 5) == 1 && n.prev[0] == 2 && n.prev[1] == 7);
}

/* ---- how often an idle CPU looks across nodes ---- */

/*
 * Six hogs forked on CPU 0 of a 4-node machine (2 CPUs per node), stopped
 * at `ms`: have any run on nodes 1-3 yet?  Cache-hot for one tick only, so
 * CPU 1 (node 0) pulls one at once; the other nodes' CPUs have been idle
 * since boot and balance only at their idle ticks.
 */
static int o1nt_remote_by(const char *policy, double ms)
{
	static const char *const names[] = { "h0", "h1", "h2", "h3", "h4", "h5" };
	struct o1t_run r;
	int remote = -1;

	if (!o1t_start(&r, NUMA4, policy, (sl_time)(ms * SL_MSEC)))
		return -1;
	sl_sim_spawn_root(r.sim, &o1t_prog, o1t_hogs(r.sim, 6, 3000, 0), "root");
	if (o1t_run(&r)) {
		remote = 0;
		for (int i = 0; i < 6; i++) {
			struct sl_task *t = o1t_find(r.sim, names[i]);
			if (t && t->node_ns[1] + t->node_ns[2] + t->node_ns[3] > 0)
				remote++;
		}
	}
	sl_sim_destroy(r.sim);
	return remote;
}

SL_TEST(o1_node_balance_interval)
{
	/* 2.5.59: every NODE_BALANCE_RATE-th (100) load_balance of an idle
	 * CPU, one per 1 ms idle tick: about 100 ms */
	const char *p59 = "o1:version=2.5.59,cache_decay_ticks=0";
	CHECK(o1nt_remote_by(p59, 95) == 0);
	CHECK(o1nt_remote_by(p59, 105) > 0);
	/* ia64's rate of 10 */
	const char *p59r = "o1:version=2.5.59,cache_decay_ticks=0,node_balance_rate=10";
	CHECK(o1nt_remote_by(p59r, 9) == 0);
	CHECK(o1nt_remote_by(p59r, 13) > 0);
	/* 2.5.68 and 2.6.0: node ticks every 5 ms; inside rebalance_tick's
	 * `if (idle)` the node balance passes idle = 1 (the node's own
	 * balance beside it 0), so the first node tick pulls */
	const char *p68 = "o1:version=2.5.68,cache_decay_ticks=0";
	CHECK(o1nt_remote_by(p68, 4) == 0);
	CHECK(o1nt_remote_by(p68, 7) > 0);
	CHECK(o1nt_remote_by("o1:version=2.6.0,cache_decay_ticks=0", 4) == 0);
	CHECK(o1nt_remote_by("o1:version=2.6.0,cache_decay_ticks=0", 7) > 0);
	CHECK(o1nt_remote_by("ht:version=a9,cache_decay_ticks=0", 7) > 0);
	CHECK(o1nt_remote_by("ht:version=c1,cache_decay_ticks=0", 7) > 0);
	/* idle_node_tick=busy: balancing as busy (idle=0), the first node
	 * tick sees CPU 0's queue through its empty memory (prev_cpu_load),
	 * the second pulls */
	const char *p68b = "o1:version=2.5.68,cache_decay_ticks=0,idle_node_tick=busy";
	CHECK(o1nt_remote_by(p68b, 9) == 0);
	CHECK(o1nt_remote_by(p68b, 12) > 0);
	CHECK(o1nt_remote_by("ht:version=a9,cache_decay_ticks=0,idle_node_tick=busy", 7) == 0);
	/* no NUMA scheduler: one balancing domain, pulled at the first ticks */
	CHECK(o1nt_remote_by("o1:version=2.5.33,cache_decay_ticks=0", 3) > 0);
	CHECK(o1nt_remote_by("o1:version=2.5.59,cache_decay_ticks=0,numa=off", 3) > 0);
}

/* ---- sched_balance_exec ---- */

/*
 * The root forks `hogs` hogs, then x, which execs at once and computes
 * 50 ms.  Everything is cache-hot for a second, so no balancer moves
 * anything: only the exec can.  Returns the CPU x finished on.
 */
static int o1nt_exec_cpu(const char *policy, int hogs, long *migrations)
{
	struct o1t_run r;
	int cpu = -2;

	if (!o1t_start(&r, NUMA4, policy, 0))
		return -2;
	struct o1t_script *root = o1t_new(r.sim);
	for (int i = 0; i < hogs; i++)
		o1t_fork(root, o1t_hog(r.sim, 100), "hog", 0);
	struct o1t_script *x = o1t_new(r.sim);
	o1t_exec(x, "x");
	o1t_add(x, sl_act_run(50 * SL_MSEC, SL_WC_INT));
	o1t_fork(root, x, "xfork", 0);
	for (int i = 0; i <= hogs; i++)
		o1t_add(root, sl_act_wait());
	sl_sim_spawn_root(r.sim, &o1t_prog, root, "root");
	if (o1t_run(&r) && x->n == 2) {
		cpu = x->cpu[2];
		struct sl_run_stats st;
		sl_sim_stats(r.sim, &st);
		*migrations = st.migrations;
	}
	sl_sim_destroy(r.sim);
	return cpu;
}

SL_TEST(o1_balance_exec)
{
	long mig = -1;

	/* CPU 0 holds the root, two hogs and x (4 > 2): x goes to the least
	 * loaded node (1, the first of three empty ones) and its least loaded
	 * CPU (2), through the migration thread */
	const char *hot = "cache_decay_ticks=1000,steal_hot=never";
	char p[128];
	static const char *const versions[] = { "2.5.59", "2.5.68", "2.6.0" };
	for (int i = 0; i < 3; i++) {
		snprintf(p, sizeof(p), "o1:version=%s,%s", versions[i], hot);
		int cpu = o1nt_exec_cpu(p, 2, &mig);
		CHECKF(cpu == 2 && mig == 1, "%s: x ended on CPU %d, %ld migrations", p, cpu, mig);
	}
	/* lightly loaded (a hog and x: 2): it stays.  fork_place=tail: the
	 * root waits before its children run; with D7's placement it is still
	 * queued when x execs (3 on the queue) */
	snprintf(p, sizeof(p), "o1:version=2.5.68,fork_place=tail,%s", hot);
	CHECK(o1nt_exec_cpu(p, 1, &mig) == 0 && mig == 0);
	/* no NUMA scheduler, no exec balancing */
	snprintf(p, sizeof(p), "o1:version=2.5.68,numa=off,%s", hot);
	CHECK(o1nt_exec_cpu(p, 2, &mig) == 0 && mig == 0);
	snprintf(p, sizeof(p), "o1:version=2.5.33,%s", hot);
	CHECK(o1nt_exec_cpu(p, 2, &mig) == 0 && mig == 0);
	/* nor on a one-node machine: nothing to choose from */
	struct o1t_run r;
	if (o1t_start(&r, "pack:4 core:1 pu:1", "o1:version=2.5.68", 0)) {
		struct o1 *s = sl_policy_data(r.sim);
		CHECK(!s->numa && s->cfg.numa);
		sl_sim_destroy(r.sim);
	}
}

/*
 * The exec move is the migration thread's, through activate_task: in
 * 2.6.0 the task waits on its new CPU marked activated and the pick adds
 * the runqueue-wait credit.  Two nodes of one CPU: CPU 0 holds the root,
 * two hogs and x (4 > 2), CPU 1 a nice -10 hog; x's exec sends it to
 * CPU 1, where it waits out the rest of the hog's first slice (14 ms).
 * x's own prog records its sleep_avg at each step: before the exec, on
 * CPU 0, and after it, on CPU 1 once it has waited there (do_execve waits
 * in sched_migrate_task until the thread has moved it).
 */
struct o1nt_probe {
	int pc;
	sl_time at[4];
	int cpu[4];
	int64_t sleep_avg[4];
};

static void o1nt_probe_step(struct sl_sim *sim, struct sl_task *t, struct sl_action *next)
{
	struct o1nt_probe *x = t->prog_state;
	static const double run_ms[] = { 2, 1 };

	x->at[x->pc] = sl_now(sim);
	x->cpu[x->pc] = t->cpu;
	x->sleep_avg[x->pc] = o1_of(t)->sleep_avg;
	if (x->pc == 0)
		*next = (struct sl_action){ .kind = SL_ACT_EXEC, .u.exec = { "x2" } };
	else if (x->pc <= 2)
		*next = sl_act_run(run_ms[x->pc - 1] * SL_MSEC, SL_WC_INT);
	else
		*next = sl_act_exit();
	x->pc++;
}

static const struct sl_prog o1nt_probe_prog = { .name = "probe", .step = o1nt_probe_step };

SL_TEST(o1_exec_move_earns_runqueue_credit)
{
	struct o1t_run r;

	if (!o1t_start(&r, "node:2 pack:1 core:1 pu:1,arch=i386",
		       "o1:version=2.6.0,cache_decay_ticks=1000,steal_hot=never", 0))
		return;
	sl_cpumask cpu1;
	sl_cpumask_clear(&cpu1);
	sl_cpumask_set(&cpu1, 1);
	struct o1nt_probe *x = sl_sim_alloc(r.sim, sizeof(*x));
	struct o1t_script *root = o1t_new(r.sim);
	o1t_add(root, (struct sl_action){ .kind = SL_ACT_FORK,
		.u.fork = { .prog = &o1t_prog, .state = o1t_hog(r.sim, 400), .comm = "far",
			    .set_nice = true, .nice = -10, .allowed = &cpu1 } });
	o1t_fork(root, o1t_hog(r.sim, 100), "hog", 0);
	o1t_fork(root, o1t_hog(r.sim, 100), "hog", 0);
	o1t_add(root, (struct sl_action){ .kind = SL_ACT_FORK,
		.u.fork = { .prog = &o1nt_probe_prog, .state = x, .comm = "x" } });
	for (int i = 0; i < 4; i++)
		o1t_add(root, sl_act_wait());
	sl_sim_spawn_root(r.sim, &o1t_prog, root, "root");
	if (o1t_run(&r)) {
		sl_time wait = x->at[1] - x->at[0];
		CHECKF(x->cpu[0] == 0 && x->cpu[1] == 1 && wait > 5 * SL_MSEC,
		       "exec on CPU %d, on CPU %d after %.1f ms", x->cpu[0], x->cpu[1],
		       (double)wait / SL_MSEC);
		int64_t gained = x->sleep_avg[1] - x->sleep_avg[0];
		CHECKF(gained > wait / 5, "sleep_avg %+.1f ms over a %.1f ms wait",
		       (double)gained / SL_MSEC, (double)wait / SL_MSEC);
	}
	sl_sim_destroy(r.sim);
}

/* ---- every version, with exec, on NUMA machines ---- */

SL_TEST(o1_numa_versions_run_clean)
{
	static const char *const pols[] = {
		"o1:version=2.5.59", "o1:version=2.5.59,node_balance_rate=1",
		"o1:version=2.5.68", "o1:version=2.6.0", "o1:version=2.6.0,hz=100",
		"ht:version=e6", "ht:version=a9", "ht:version=b2", "ht:version=c1",
		"ht:version=c1,node_divisor=runqueues",
	};
	static const char *const machines[] = { NUMA4, "node:2 pack:1 core:2 pu:2" };
	for (int m = 0; m < 2; m++) {
		for (size_t i = 0; i < sizeof(pols) / sizeof(pols[0]); i++) {
			struct o1t_run r;
			if (!o1t_start(&r, machines[m], pols[i], 0))
				continue;
			struct o1t_script *root = o1t_new(r.sim);
			for (int k = 0; k < 8; k++) {
				struct o1t_script *c = o1t_new(r.sim);
				for (int j = 0; j < 6 && k < 7; j++) {
					o1t_exec(c, "mix");
					o1t_add(c, sl_act_run((1 + k) * 3 * SL_MSEC, SL_WC_INT));
					o1t_add(c, sl_act_sleep((sl_time)(2 + j) * SL_MSEC));
				}
				if (k == 7)
					o1t_exec(c, "quick");	/* exec, then exit at once */
				o1t_fork(root, c, "mix", k % 3 - 1);
			}
			for (int k = 0; k < 8; k++)
				o1t_add(root, sl_act_wait());
			sl_sim_spawn_root(r.sim, &o1t_prog, root, "root");
			bool ok = o1t_run(&r);
			CHECKF(ok && sl_nr_tasks(r.sim) == 0, "%s on %s", pols[i], machines[m]);
			/* by hand: mix 6 alone computes 6 x 21 ms and sleeps
			 * 2+..+7 = 27 ms (>= 153 ms at full speed); all CPUs
			 * idle at most while the last one to finish sleeps:
			 * 27 ms */
			struct bt_run br;
			bt_from_sim(r.sim, &br);
			char what[128];
			snprintf(what, sizeof(what), "%s on %s", pols[i], machines[m]);
			if (ok)
				bt_check(what, &br, 0.153, 0.027);
			sl_sim_destroy(r.sim);
		}
	}
}

/* ---- what an idle machine's skipped ticks remember ---- */

/*
 * The most any runqueue of NUMA4 remembers of node 0's load when a hog
 * there, having run `run_ms` and slept `sleep_ms` with the machine idle
 * (the engine skipping the ticks), wakes; half a jiffy after the wakeup.
 */
static int o1nt_node0_memory_after_gap(const char *policy, int run_ms, int sleep_ms)
{
	struct o1t_run r;
	int most = -1;

	if (!o1t_start(&r, NUMA4, policy, (run_ms + sleep_ms) * SL_MSEC + 500 * SL_USEC))
		return -1;
	struct o1t_script *hog = o1t_new(r.sim);
	o1t_add(hog, sl_act_run(run_ms * SL_MSEC, SL_WC_INT));
	o1t_add(hog, sl_act_sleep(sleep_ms * SL_MSEC));
	o1t_add(hog, sl_act_run(10 * SL_MSEC, SL_WC_INT));
	struct o1t_script *root = o1t_new(r.sim);
	o1t_fork(root, hog, "hog", 0);
	o1t_add(root, sl_act_wait());
	sl_sim_spawn_root(r.sim, &o1t_prog, root, "root");
	if (o1t_run(&r)) {
		const struct o1 *s = sl_policy_data(r.sim);
		for (int i = 0; i < s->nrqs; i++)
			if (s->rqs[i].prev_node_load[0] > most)
				most = s->rqs[i].prev_node_load[0];
	}
	sl_sim_destroy(r.sim);
	return most;
}

/*
 * find_busiest_node halves each node's remembered load at every look
 * (2.6.0: every 5 ms node tick of an idle CPU; 2.5.59: every 100th idle
 * balance, one per 1 ms tick), and the kernel's idle CPUs went on looking
 * while the engine skipped their ticks.  The engine's ticks_skipped gives
 * the policy those jiffies as the hog wakes.  2.6.0: twenty looks in
 * 100 ms leave nothing of node 0's load.  2.5.59: after 500 ms of the hog
 * the idle CPUs remember 1 (half of the last plus one task), and the
 * three looks of 300 ms idle take it to 0.  (Until Dec 2026 the memory
 * stayed as the hog left it: 9 and 1.)
 */
SL_TEST(o1_node_memory_decays_while_ticks_stop)
{
	int m60 = o1nt_node0_memory_after_gap("o1:version=2.6.0", 50, 100);
	CHECKF(m60 == 0, "2.6.0: node 0 remembered as %d", m60);
	int m59 = o1nt_node0_memory_after_gap("o1:version=2.5.59", 500, 300);
	CHECKF(m59 == 0, "2.5.59: node 0 remembered as %d", m59);
}

/* 2.5.59 counts its idle balances through a long gap: once the node
 * memory is empty the replay stops and adds the rest, one call per
 * jiffy (1037 in all: 37 past the last look across nodes). */
SL_TEST(o1_gap_counts_the_balances_it_skips)
{
	struct o1t_run r;

	if (!o1t_start(&r, NUMA4, "o1:version=2.5.59", 0))
		return;
	struct o1 *s = sl_policy_data(r.sim);
	o1_core_ticks_skipped(r.sim, 0, 1, 1037);
	CHECKF(s->rq_of[0]->nr_balanced == 37, "nr_balanced %d", s->rq_of[0]->nr_balanced);
	o1_core_ticks_skipped(r.sim, 0, 1038, 1100);
	CHECKF(s->rq_of[0]->nr_balanced == 0, "nr_balanced %d", s->rq_of[0]->nr_balanced);
	sl_sim_destroy(r.sim);
}

/* 2.5.59's skipped balances one jiffy at a time, as rebalance_tick ran
 * them on an idle CPU of an empty machine: every idle_ticks jiffies a
 * counted call, its mask read empty. */
static void o1nt_skip_each(struct o1 *s, int cpu, uint64_t first, uint64_t last)
{
	struct o1_rq *rq = s->rq_of[cpu];

	for (uint64_t j = first; j <= last; j++) {
		if (j % (uint64_t)s->idle_ticks)
			continue;
		sl_cpumask mask = o1_cpus_to_balance(s, rq, cpu);
		sl_for_each_cpu(c, &mask)
			rq->prev_cpu_load[c] = 0;
	}
}

/* The gap's walk from look to look leaves what a jiffy-by-jiffy replay
 * leaves, from a gap that is one widened look and 298 random memories,
 * counts and gaps (node_balance_rate 100 and 10, HZ 1000 and 100). */
SL_TEST(o1_gap_walk_equals_each_jiffy)
{
	static const char *const policies[] = {
		"o1:version=2.5.59", "o1:version=2.5.59,node_balance_rate=10,hz=100",
	};
	uint64_t x = 12345;

	for (int p = 0; p < 2; p++) {
		struct o1t_run a, b;
		CHECK(o1t_start(&a, NUMA4, policies[p], 0));
		if (!a.sim)
			return;
		CHECK(o1t_start(&b, NUMA4, policies[p], 0));
		if (!b.sim) {
			sl_sim_destroy(a.sim);
			return;
		}
		struct o1 *sa = sl_policy_data(a.sim), *sb = sl_policy_data(b.sim);
		for (int trial = 0; trial < 150; trial++) {
			int cpu = trial % sa->ncpus;
			struct o1_rq *ra = sa->rq_of[cpu], *rb = sb->rq_of[cpu];
			for (int n = 0; n < sa->nnodes; n++) {
				x = x * 6364136223846793005ull + 1442695040888963407ull;
				ra->prev_node_load[n] = rb->prev_node_load[n] = (int)(x >> 58);
			}
			for (int c = 0; c < sa->ncpus; c++)
				ra->prev_cpu_load[c] = rb->prev_cpu_load[c] = c % 3;
			x = x * 6364136223846793005ull + 1442695040888963407ull;
			ra->nr_balanced = rb->nr_balanced = (int)((x >> 33) % (uint64_t)sa->cfg.node_balance_rate);
			uint64_t first = 1 + (x >> 50) % 50, last = first + (x >> 20) % 3000;
			if (trial == 0) {
				/* a gap of one call, the look, widened to node 1:
				 * this node's own runqueues are not read */
				ra->nr_balanced = rb->nr_balanced = sa->cfg.node_balance_rate - 1;
				for (int n = 0; n < sa->nnodes; n++)
					ra->prev_node_load[n] = rb->prev_node_load[n] = n == 1 ? 40 : 0;
				first = last = 7 * (uint64_t)sa->idle_ticks;
			}
			o1_core_ticks_skipped(a.sim, cpu, first, last);
			o1nt_skip_each(sb, cpu, first, last);
			bool same = ra->nr_balanced == rb->nr_balanced;
			for (int n = 0; n < sa->nnodes; n++)
				same = same && ra->prev_node_load[n] == rb->prev_node_load[n];
			for (int c = 0; c < sa->ncpus; c++)
				same = same && ra->prev_cpu_load[c] == rb->prev_cpu_load[c];
			CHECKF(same, "%s: trial %d, CPU %d, jiffies %llu..%llu: count %d against %d",
			       policies[p], trial, cpu, (unsigned long long)first,
			       (unsigned long long)last, ra->nr_balanced, rb->nr_balanced);
			if (!same)
				break;
		}
		sl_sim_destroy(a.sim);
		sl_sim_destroy(b.sim);
	}
}
