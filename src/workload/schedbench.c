/*
 * schedbench.c - "NUMA schedbench": Erich Focht's numa_test (LKML, 6 Oct
 * 2002), as Martin Bligh and Michael Hohnbaum ran it on a 16-way NUMA-Q.
 *
 * Model: a launcher (`dispatch`, a Perl script) forks N copies of
 * `randupdt` in a loop, one fork after the other (each fork returns before
 * the next begins, so the k-th child is born k fork costs after the
 * first), and waits for them.  Each execs,
 * allocates 20 MB (two arrays of 10^6 doubles and 10^6 int indices), notes
 * the node it runs on (iSched) and initialises the arrays - first touch puts
 * each page on the node where the task runs when it faults it, for good
 * (2.5/2.6 never migrated pages), so a task the balancer moves during its
 * init has its memory on several nodes (sim/first_touch.c) - then runs
 * 100 passes of 10^6 indirect read-modify-writes at pseudo-random indices:
 * no system calls, no blocking, memory-latency bound (work class MEM),
 * slower by the machine's NUMA ratio whenever it runs away from its
 * memory.  Three seconds after the start dispatch
 * launches `hackbench 20` in the background (800 processes, 800,000
 * messages over socket pairs; hackbench.c), which unbalances the run queues
 * so that the balancer moves the memory-bound tasks.  dispatch reaps only
 * the N jobs.
 *
 * Reported as numa_test did (4.3): AvgUser (mean user time of the N tasks),
 * Elapsed (dispatch's start to the last job reaped: bench_elapsed_s;
 * the engine's elapsed_s also covers a hackbench still running after the
 * jobs), TotalUser and TotalSys (GNU time on dispatch: the jobs it reaped
 * and itself, not hackbench), per task the share of its time on each node,
 * iSched and MSched (sl_schedbench_tasks()), and summaries of those: the
 * mean and minimum share of time on the home node and the number of tasks
 * whose MSched differs from iSched (the listing's asterisks).  Erich's own
 * summary also gave the hackbench time (H): hackbench_s.
 *
 * Sources: Erich Focht's numa_test attachment, "Re: [RFC] NUMA schedulers
 * benchmark results", LKML <200210062224.50087.efocht@ess.nec.de> (process
 * structure, array sizes, passes, hackbench at 3 s); Michael Hohnbaum's
 * full N = 32 listing, "Re: [PATCH 2.5.58] new NUMA scheduler: fix",
 * LKML <1042589135.27149.216.camel@dyn9-47-17-164.beaverton.ibm.com>
 * (the columns; TotalUser = N x AvgUser, so hackbench is not in it);
 * docs/workloads.md and docs/model.md (the NUMA-Q preset and NUMA model).
 *
 * Checked against (docs/workloads.md, "schedbench"): one task per quad on
 * the NUMA-Q took about 22 s of user time with a NUMA-aware scheduler
 * (Martin Bligh's 2.5.44 table, LKML <3129290732.1035737182@[10.10.2.3]>,
 * N = 4) - the default size, the only calibrated number; with more
 * tasks per quad the published times grow through per-node memory
 * bandwidth contention (4 per quad: 50-56 s), which is the machine model's
 * (node_bw).  NUMA-blind runs published: N = 64 AvgUser 123.3 s, Elapsed
 * 511.8 s, TotalUser 7890 s (2.5.58); Elapsed 608.8 s, TotalUser 9418 s
 * (2.5.48); N = 4 and 8 about 49 s and 43 s AvgUser (2.5.54); NUMA-aware
 * N = 32: AvgUser 55.2-61.5 s, Elapsed 117.3-140.5 s, TotalSys 9.6 s.
 *
 * Omitted / simplified:
 *   - the pages land where the init's faults and writes run, in
 *     proportion to the work done on each node, and are placed when the
 *     init ends (sim/first_touch.c); during the init the task draws on the
 *     node where its exec was paid.  The home column is the node with the
 *     most of its pages, iSched where the init began (until December 2026
 *     every page landed there);
 *   - dispatch's own Perl work between forks (setting up the capture of
 *     each child's stderr) is free: only the fork cost separates them;
 *   - kernel time of a task is exec, a few startup page faults, one fault
 *     per 4 KB page of the arrays (fault_us) and exit; freeing the pages at
 *     exit, the Perl launcher's own CPU and the capture of stderr are free;
 *   - the init is 0.5 % of `size` in the CACHE class (sequential writes of
 *     20 MB, about half a pass); the passes are equal MEM bursts;
 *   - per-node shares cover nodes 0-3 (the engine's node_ns);
 *   - the share per node is of run time (user + system), where the
 *     original's /proc/self/cpu gave user ticks per CPU.
 */
#include <math.h>

#include "base/memsize.h"
#include "sim/sim.h"
#include "workload/bench_workloads.h"
#include "workload/hackbench.h"
#include "workload/workload.h"

#define SB_PASSES		100
#define SB_INIT_FRAC		0.005	/* the init: about half of one pass */
#define SB_PAGE_KB		4
#define SB_STARTUP_PAGES	32	/* ld.so, libc, stack, the arrays' headers */
#define SB_FAULT_PER_CTX_SWITCH	4.0	/* a 4 KB clear_page and the fault path */
#define SB_HB_LOOPS		100	/* hackbench's default in numa_test */

struct sb_run;

struct sb_job {
	struct sb_run *run;
	int index;
	unsigned char pc;
	int pass;
	long tid;
};

struct sb_run {
	int tasks;
	int nnodes;
	unsigned footprint_kb;		/* the arrays: far beyond any L2 */
	double init_ns, pass_ns;	/* reference ns */
	double touch_ns, startup_ns;	/* kernel work of the page faults */
	sl_time hb_at;
	bool hackbench;
	struct hb_run hb;
	struct sb_job *jobs;
	struct sl_schedbench_task *rows;
	/* dispatch */
	unsigned char pc;
	int forked, reaped;
	sl_time t_start, t_end;
	double disp_user_s, disp_sys_s;
};

/* ---- randupdt ---- */

/* The page faults of a new image (kernel work); the engine makes the node
 * where the task runs once exec is paid its home (first touch after exec
 * and after any exec balancing: docs/engine.md), until the arrays'
 * first touch places the memory that counts. */
static struct sl_action startup_faults(const struct sb_run *run)
{
	return sl_act_sys(run->startup_ns);
}

enum { J_EXEC, J_START, J_TOUCH, J_INIT, J_PASS };

static void job_step(struct sl_sim *sim, struct sl_task *t, struct sl_action *next)
{
	struct sb_job *j = t->prog_state;
	struct sb_run *run = j->run;

	switch (j->pc) {
	case J_EXEC:
		t->footprint_kb = run->footprint_kb;
		t->random_access = true;	/* indirect updates at random indices */
		j->pc = J_START;
		*next = sl_act_exec("randupdt");
		return;
	case J_START:	/* exec's cost and the startup faults, where exec put us */
		j->pc = J_TOUCH;
		*next = startup_faults(run);
		return;
	case J_TOUCH:	/* read /proc/self/stat, then touch the arrays: their
			 * page faults and the init's writes place the pages
			 * where they run */
		run->rows[j->index].isched = sl_topo(sim)->cpu_node[t->cpu];
		j->pc = J_INIT;
		*next = sl_act_first_touch(sl_act_sys(run->touch_ns));
		return;
	case J_INIT:	/* the passes that follow end the first touch */
		j->pc = J_PASS;
		*next = sl_act_first_touch(sl_act_run(run->init_ns, SL_WC_CACHE));
		return;
	default:
		if (j->pass < SB_PASSES) {
			j->pass++;
			*next = sl_act_run(run->pass_ns, SL_WC_MEM);
			return;
		}
		*next = sl_act_exit();
	}
}

/* Reaped by dispatch: the accounting is final (exit included). */
static void job_release(struct sl_sim *sim, struct sl_task *t)
{
	const struct sb_job *j = t->prog_state;
	struct sb_run *run = j->run;
	struct sl_schedbench_task *row = &run->rows[j->index];
	sl_time total = 0, most = -1;

	row->home = t->home_node;
	row->mem_nodes = t->mem_split ? t->mem_split->n : t->home_node >= 0;
	row->user_s = sl_ns_to_s(t->user_ns);
	row->sys_s = sl_ns_to_s(t->sys_ns);
	row->start_s = sl_ns_to_s(t->start_ns - run->t_start);
	row->end_s = sl_ns_to_s(t->end_ns - run->t_start);
	row->msched = -1;
	for (int n = 0; n < SL_SCHEDBENCH_NODES; n++)
		total += t->node_ns[n];
	for (int n = 0; n < SL_SCHEDBENCH_NODES; n++) {
		bool known = run->nnodes <= SL_SCHEDBENCH_NODES && n < run->nnodes && total > 0;
		row->node_pct[n] = known ? 100.0 * (double)t->node_ns[n] / (double)total : NAN;
		if (known && t->node_ns[n] > most) {
			most = t->node_ns[n];
			row->msched = n;
		}
	}
	(void)sim;
}

static const struct sl_prog sb_job_prog = {
	.name = "randupdt", .step = job_step, .release = job_release,
};

/* ---- dispatch ---- */

enum { D_START, D_FORK, D_FORKED, D_SLEEP, D_HACKBENCH, D_WAIT, D_REAPED };

static void reaped(struct sb_run *run, long id)
{
	for (int i = 0; i < run->tasks; i++)
		if (run->jobs[i].tid == id) {
			run->reaped++;
			return;
		}
}

static void dispatch_step(struct sl_sim *sim, struct sl_task *t, struct sl_action *next)
{
	struct sb_run *run = t->prog_state;
	sl_time at;

	for (;;) {
		switch (run->pc) {
		case D_START:
			run->t_start = sl_now(sim);
			run->pc = D_FORK;
			continue;
		case D_FORKED:
			/* fork() returns once the child exists, its cost
			 * paid: the loop's next fork comes after it */
			run->jobs[run->forked - 1].tid = t->result;
			run->pc = D_FORK;
			continue;
		case D_FORK:
			if (run->forked < run->tasks) {
				run->pc = D_FORKED;
				*next = sl_act_fork(&sb_job_prog, &run->jobs[run->forked++],
						    "dispatch", false);
				return;
			}
			run->pc = run->hackbench ? D_SLEEP : D_WAIT;
			continue;
		case D_SLEEP:
			run->pc = D_HACKBENCH;
			at = run->t_start + run->hb_at;
			if (sl_now(sim) < at) {
				*next = sl_act_nanosleep(at - sl_now(sim));
				return;
			}
			continue;
		case D_HACKBENCH:	/* hackbench 20 & */
			run->pc = D_WAIT;
			*next = sl_act_fork(&hb_main_prog, &run->hb, "dispatch", false);
			return;
		case D_REAPED:
			reaped(run, t->result);
			run->pc = D_WAIT;
			continue;
		case D_WAIT:
		default:
			if (run->reaped < run->tasks) {
				run->pc = D_REAPED;
				*next = sl_act_wait();
				return;
			}
			run->t_end = sl_now(sim);
			*next = sl_act_exit();
			return;
		}
	}
}

static void dispatch_release(struct sl_sim *sim, struct sl_task *t)
{
	struct sb_run *run = t->prog_state;

	(void)sim;
	run->disp_user_s = sl_ns_to_s(t->user_ns);
	run->disp_sys_s = sl_ns_to_s(t->sys_ns);
}

static const struct sl_prog sb_dispatch_prog = {
	.name = "dispatch", .step = dispatch_step, .release = dispatch_release,
};

/* ---- parameters, start, report ---- */

static const struct sl_param_def sb_params[] = {
	{ "tasks", SL_PARAM_INT, NULL, 1, 4096, NULL,
	  "memory-bound tasks (numa_test's N: 4-64); default one per logical CPU" },
	{ "size", SL_PARAM_REAL, "22", 0.001, 1e6, NULL,
	  "reference seconds of one task's user work alone on its home node "
	  "(22: one task per quad on a NUMA-Q)" },
	{ "mb", SL_PARAM_INT, "20", 1, 1 << 20, NULL,
	  "memory each task allocates and first-touches, MB" },
	{ "hackbench", SL_PARAM_INT, "20", 0, 10000, NULL,
	  "groups of the background hackbench (0: none)" },
	{ "hackbench_at", SL_PARAM_REAL, "3", 0, 1e6, NULL,
	  "when dispatch starts hackbench, s after its start" },
	{ "fault_us", SL_PARAM_REAL, NULL, 0, 1e6, NULL,
	  "kernel work per 4 KB page first touched, us (default: 4 x the machine's "
	  "context-switch cost)" },
	{ NULL, 0, NULL, 0, 0, NULL, NULL },
};

static void *sb_start(struct sl_sim *sim, const struct sl_params *p, sl_time *limit_out)
{
	struct sb_run *run = sl_sim_alloc(sim, sizeof(*run));
	double size_ns = sl_param_real(p, "size") * 1e9;
	double fault_ns = sl_param_given(p, "fault_us")
		? sl_param_real(p, "fault_us") * 1e3
		: SB_FAULT_PER_CTX_SWITCH * (double)sl_cost_ctx_switch(sim);
	int groups = (int)sl_param_int(p, "hackbench");

	run->tasks = sl_param_given(p, "tasks") ? (int)sl_param_int(p, "tasks")
						: sl_topo(sim)->ncpus;
	run->nnodes = sl_topo(sim)->nnodes;
	run->footprint_kb = (unsigned)sl_param_int(p, "mb") * 1024;
	run->init_ns = size_ns * SB_INIT_FRAC;
	run->pass_ns = size_ns * (1 - SB_INIT_FRAC) / SB_PASSES;
	run->touch_ns = fault_ns * (double)sl_param_int(p, "mb") * 1024 / SB_PAGE_KB;
	run->startup_ns = fault_ns * SB_STARTUP_PAGES;
	run->hb_at = sl_s_to_ns(sl_param_real(p, "hackbench_at"));
	run->hackbench = groups > 0;
	if (run->hackbench) {
		struct hb_config cfg = {
			.groups = groups, .fds = 20, .loops = SB_HB_LOOPS, .pipe = false,
			.buf = hb_default_buf(sim, false), .msg_ns = hb_default_msg_ns(sim),
			.jitter = HB_JITTER, .exec = true,
		};
		hb_setup(sim, &run->hb, &cfg);
	}
	run->jobs = sl_sim_alloc(sim, sizeof(*run->jobs) * (size_t)run->tasks);
	run->rows = sl_sim_alloc(sim, sizeof(*run->rows) * (size_t)run->tasks);
	for (int i = 0; i < run->tasks; i++) {
		run->jobs[i] = (struct sb_job){ .run = run, .index = i, .tid = -1 };
		run->rows[i].isched = run->rows[i].msched = run->rows[i].home = -1;
	}
	sl_sim_spawn_root(sim, &sb_dispatch_prog, run, "dispatch");
	*limit_out = 0;
	return run;
}

int sl_schedbench_tasks(const void *state, const struct sl_schedbench_task **rows)
{
	const struct sb_run *run = state;

	*rows = run->rows;
	return run->tasks;
}

static void sb_report(struct sl_sim *sim, void *state, const struct sl_params *p,
		      struct sl_metrics *out)
{
	const struct sb_run *run = state;
	double user = 0, sys = 0, umax = 0, home = 0, home_min = 100;
	int moved = 0, split = 0;
	bool nodes_known = run->nnodes <= SL_SCHEDBENCH_NODES;

	(void)sim;
	(void)p;
	for (int i = 0; i < run->tasks; i++) {
		const struct sl_schedbench_task *r = &run->rows[i];
		user += r->user_s;
		sys += r->sys_s;
		umax = r->user_s > umax ? r->user_s : umax;
		split += r->mem_nodes > 1;
		if (!nodes_known || r->home < 0)
			continue;
		double h = r->node_pct[r->home];
		home += h;
		home_min = h < home_min ? h : home_min;
		moved += r->msched != r->isched;
	}
	sl_metrics_add(out, "avg_user_s", "s", user / run->tasks, -1);
	sl_metrics_add(out, "bench_elapsed_s", "s", sl_ns_to_s(run->t_end - run->t_start), -1);
	sl_metrics_add(out, "total_user_s", "s", user + run->disp_user_s, -1);
	sl_metrics_add(out, "total_sys_s", "s", sys + run->disp_sys_s, -1);
	sl_metrics_add(out, "max_user_s", "s", umax, -1);
	sl_metrics_add(out, "hackbench_s", "s",
		       run->hackbench ? sl_ns_to_s(run->hb.t_end - run->hb.t_go) : 0, 0);
	sl_metrics_add(out, "split", "count", split, -1);
	if (!nodes_known)
		return;
	sl_metrics_add(out, "home_pct", "%", home / run->tasks, +1);
	sl_metrics_add(out, "home_pct_min", "%", home_min, +1);
	sl_metrics_add(out, "moved", "count", moved, -1);
}

/* dispatch, its N children (each with its first touch) and the background
 * hackbench's main and children */
static void sb_mem(const struct sl_params *p, const struct sl_topo *topo,
		   struct sl_mem_need *need)
{
	uint64_t tasks = sl_param_given(p, "tasks") ? (uint64_t)sl_param_int(p, "tasks")
						    : (uint64_t)topo->ncpus;
	long groups = sl_param_int(p, "hackbench");

	need->bytes = sl_sat_add(need->bytes, sl_sim_alloc_cost(sizeof(struct sb_run)));
	need->bytes = sl_sat_add(need->bytes, sl_sim_alloc_cost(sl_sat_mul(tasks,
						sizeof(struct sb_job))));
	need->bytes = sl_sat_add(need->bytes, sl_sim_alloc_cost(sl_sat_mul(tasks,
						sizeof(struct sl_schedbench_task))));
	need->bytes = sl_sat_add(need->bytes, sl_sat_mul(tasks,
						sl_sim_first_touch_cost((uint64_t)topo->nnodes)));
	need->tasks = sl_sat_add(need->tasks, tasks);
	if (groups > 0) {
		hb_mem(groups, 20, need);
		need->tasks = sl_sat_add(need->tasks, 1);
	}
}

/* dispatch waits for hackbench_at before it starts the hackbench; the
 * tasks' work alone takes tasks x size / CPUs, and size for the last. */
static int sb_check(const struct sl_params *p, const struct sl_machine *m,
		    const struct sl_policy_ops *policy, struct sl_err *err)
{
	double size = sl_param_real(p, "size"), at = sl_param_real(p, "hackbench_at");
	long tasks = sl_param_given(p, "tasks") ? sl_param_int(p, "tasks") : m->topo.ncpus;
	double work = (double)tasks * size / m->topo.ncpus;
	char what[128];

	(void)policy;
	/* numa_test's walkers malloc and touch all of their memory: on a
	 * machine with less RAM they would swap, which the model does not
	 * (four walkers of 1 TB ran on a 256 GB machine as if they fitted) */
	uint64_t walkers_mb = (uint64_t)tasks * (uint64_t)sl_param_int(p, "mb");
	if (m->mem_mb > 0 && walkers_mb > m->mem_mb)
		return sl_fail(err, "workload 'schedbench': %ld task%s x mb=%ld = %llu MB that the "
			       "walkers touch, more than the %u MB of machine '%s' (the model does "
			       "not swap)", tasks, tasks > 1 ? "s" : "", sl_param_int(p, "mb"),
			       (unsigned long long)walkers_mb, m->mem_mb, m->name);
	if (sl_param_int(p, "hackbench") > 0 && at > work) {
		snprintf(what, sizeof(what), "hackbench_at=%g (dispatch starts the hackbench then)", at);
		return sl_workload_fits_horizon("schedbench", at, what, err);
	}
	snprintf(what, sizeof(what), "%ld task%s of size=%g s on %d CPU%s", tasks,
		 tasks > 1 ? "s" : "", size, m->topo.ncpus, m->topo.ncpus > 1 ? "s" : "");
	return sl_workload_fits_horizon("schedbench", work > size ? work : size, what, err);
}

const struct sl_workload_ops sl_workload_schedbench = {
	.name = "schedbench",
	.summary = "NUMA schedbench (Erich Focht's numa_test): N memory-bound tasks with 20 MB "
		   "first-touched where their init runs, hackbench 20 at 3 s",
	.metric = "bench_elapsed_s",
	.params = sb_params,
	.start = sb_start,
	.report = sb_report,
	.mem = sb_mem,
	.check = sb_check,
};
