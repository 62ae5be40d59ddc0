/*
 * test_workload.c - the workload generators: kernbench's build shape (units,
 * directories, processes per unit, what each make runs, work adding up to
 * size=, the tree fixed by tree= alone), its make job server (-j1 never runs
 * two jobs, -j2 runs two, links wait for their directories), spin's and
 * javabench's metrics on runs small enough to work out by hand, and the
 * rejection of bad parameters.
 *
 * Runs use the "up" policy on a synthetic one-CPU machine and "o1" on
 * two- and four-CPU ones, with the engine's invariant checks on.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "hw/machine.h"
#include "policy/policy.h"
#include "sim/sim.h"
#include "workload/kernbench.h"
#include "workload/workload.h"
#include "test.h"

/* ---- helpers ---- */

/* An allocator for trees built outside a run: remembers blocks to free. */
struct wl_arena {
	int n;
	void *blocks[32];
};

static void *wl_alloc(void *ctx, size_t size)
{
	struct wl_arena *a = ctx;
	if (a->n == 32)
		abort();	/* a tree of more blocks than the helper can free */
	void *p = calloc(1, size ? size : 1);
	a->blocks[a->n++] = p;
	return p;
}

static void wl_free(struct wl_arena *a)
{
	for (int i = 0; i < a->n; i++)
		free(a->blocks[i]);
	a->n = 0;
}

static struct kb_shape wl_shape(int units, uint64_t tree, enum kb_kbuild kbuild)
{
	return (struct kb_shape){
		.units = units, .tree_seed = tree, .target = KB_TARGET_BZIMAGE,
		.kbuild = kbuild, .size_s = 100, .head_frac = 0.02, .tail_frac = 0.15,
	};
}

static bool wl_parses(const char *text)
{
	const struct sl_workload_ops *ops;
	struct sl_params params;
	struct sl_err err = { 0 };
	return sl_workload_parse(text, &ops, &params, &err) == 0;
}

/* One run kept alive for inspection. */
struct wl_run {
	struct sl_machine machine;
	const struct sl_policy_ops *policy;
	struct sl_params knobs, params;
	const struct sl_workload_ops *workload;
	struct sl_sim *sim;
	void *state;
	struct sl_run_stats stats;
	struct sl_metrics metrics;
};

/* The engine's invariant checks after every event, on by default; a run on
 * hundreds of CPUs turns them off (they walk the machine: minutes). */
static bool wl_unchecked;
/* Tracepoint callbacks for the next runs (NULL: none). */
static const struct sl_observer *wl_observer;

static struct sl_sim *wl_sim(struct wl_run *r, uint64_t seed, sl_time limit, struct sl_err *err)
{
	struct sl_sim_config cfg = {
		.machine = &r->machine, .policy = r->policy, .knobs = &r->knobs,
		.seed = seed, .time_limit = limit, .check = !wl_unchecked,
		.observer = wl_observer,
	};
	return sl_sim_create(&cfg, err);
}

/* Run `workload` on `machine` under `policy` (NULL: "up" when it has one
 * CPU, else "o1"). */
static bool wl_run_under(struct wl_run *r, const char *machine, const char *policy,
			 const char *workload, uint64_t seed)
{
	struct sl_err err = { 0 };
	char label[64];
	sl_time limit = 0;

	memset(r, 0, sizeof(*r));
	if (sl_machine_load(&r->machine, machine, &err))
		goto fail;
	if (!policy)
		policy = r->machine.topo.ncpus == 1 ? "up" : "o1";
	if (sl_policy_parse(policy, &r->policy, &r->knobs, label, sizeof(label), &err) ||
	    sl_workload_parse(workload, &r->workload, &r->params, &err))
		goto fail;
	r->sim = wl_sim(r, seed, 0, &err);
	if (!r->sim)
		goto fail;
	r->state = r->workload->start(r->sim, &r->params, &limit);
	if (limit > 0) {	/* as run.c: the limit is known only once started */
		sl_sim_destroy(r->sim);
		r->sim = wl_sim(r, seed, limit, &err);
		if (!r->sim)
			goto fail;
		r->state = r->workload->start(r->sim, &r->params, &limit);
	}
	if (sl_sim_run(r->sim, &err))
		goto fail;
	sl_sim_stats(r->sim, &r->stats);
	r->workload->report(r->sim, r->state, &r->params, &r->metrics);
	return true;
fail:
	fprintf(stderr, "run %s on %s: %s\n", workload, machine, err.msg);
	if (r->sim)
		sl_sim_destroy(r->sim);
	r->sim = NULL;
	return false;
}

static bool wl_run(struct wl_run *r, const char *machine, const char *workload, uint64_t seed)
{
	return wl_run_under(r, machine, NULL, workload, seed);
}

static void wl_done(struct wl_run *r)
{
	if (r->sim)
		sl_sim_destroy(r->sim);
	r->sim = NULL;
}

static double wl_metric(const struct wl_run *r, const char *name)
{
	const struct sl_metric *m = sl_metrics_find(&r->metrics, name);
	return m ? m->value : NAN;
}

/* ---- kernbench: the shape ---- */

/* Each policy's kernel gives a pipe its own size: a page in 2.4, 2.5 and
 * 2.6.0, PIPE_BUFFERS = 16 pages from 2.6.11 (2.6.12.1) and in 6.12; a
 * page of 4 KB on x86_64 and i386, of 16 KB on ia64 (the 2.x kernels'
 * default CONFIG_IA64_PAGE_SIZE_16KB; cfs and sl model x86_64's 6.12,
 * ia64 having left the kernel in 6.7). */
SL_TEST(pipes_hold_what_each_kernel_gives)
{
	static const struct {
		const char *policy;
		long bytes, ia64_page;
		bool read_on;	/* 2.4.27 pipe_read, 2.6.12.1 pipe_readv; not 6.12 */
	} want[] = {
		{ "linux24", 4096, 16384, true }, { "o1", 4096, 16384, true },
		{ "ht", 4096, 16384, true }, { "up", 4096, 16384, true },
		{ "domains:version=w26", 4096, 16384, true },
		{ "domains", 16 * 4096, 16384, true }, { "cfs", 16 * 4096, 4096, false },
		{ "sl", 16 * 4096, 4096, false },
	};

	for (size_t i = 0; i < sizeof(want) / sizeof(want[0]); i++) {
		struct wl_run r;
		bool ok = wl_run_under(&r, "pack:1 core:2 pu:1", want[i].policy,
				       "spin:tasks=1,seconds=0.01", 1);
		CHECKF(ok && sl_pipe_bytes(r.sim) == want[i].bytes && sl_page_bytes(r.sim) == 4096 &&
		       sl_pipe_reads_on(r.sim) == want[i].read_on, "%s: %ld bytes, reads on %d",
		       want[i].policy, ok ? sl_pipe_bytes(r.sim) : -1, ok && sl_pipe_reads_on(r.sim));
		wl_done(&r);
		ok = wl_run_under(&r, "pack:1 core:2 pu:1,arch=ia64", want[i].policy,
				  "spin:tasks=1,seconds=0.01", 1);
		long pages = want[i].bytes / 4096;
		CHECKF(ok && sl_page_bytes(r.sim) == want[i].ia64_page &&
		       sl_pipe_bytes(r.sim) == pages * want[i].ia64_page,
		       "%s on ia64: pages of %ld bytes, a pipe of %ld", want[i].policy,
		       ok ? sl_page_bytes(r.sim) : -1, ok ? sl_pipe_bytes(r.sim) : -1);
		wl_done(&r);
	}
}

/* Through a pipe, cc1's stdio writes and as's first read of the stream
 * move a page at a time (a pipe's st_blksize): 16 KB on ia64, so as
 * wakes for a quarter as many writes, and the whole build sleeps about
 * half as often as on i386 (at one HZ: 791 and 441 sleeps here; 784
 * and 784 while every arch's page was 4 KB). */
SL_TEST(kernbench_pipe_moves_the_archs_page)
{
	double sleeps[2] = { -1, -1 };
	const char *machine[2] = { "pack:1 core:2 pu:1,arch=i386", "pack:1 core:2 pu:1,arch=ia64" };

	for (int i = 0; i < 2; i++) {
		struct wl_run r;
		if (wl_run_under(&r, machine[i], "linux24:hz=1024", "kernbench:pipe=1,units=20,size=2",
				 1))
			sleeps[i] = (double)r.stats.nvcsw;
		wl_done(&r);
	}
	CHECKF(sleeps[0] > 0 && sleeps[1] > 0 && sleeps[1] < 0.7 * sleeps[0],
	       "sleeps: %g on i386, %g on ia64", sleeps[0], sleeps[1]);
}

SL_TEST(kernbench_tree_partitions_units_into_directories)
{
	struct wl_arena a = { 0 };
	struct kb_tree t;
	struct kb_shape s = wl_shape(300, 5, KB_KBUILD_26);

	kb_tree_build(&t, &s, wl_alloc, &a);
	int next_unit = 0, top = 0, subtree_top = 0;
	bool contiguous = true, parents_earlier = true, depth_ok = true, subs_ok = true;
	for (int d = 0; d < t.ndirs; d++) {
		const struct kb_dir *dir = &t.dirs[d];
		contiguous &= dir->first_unit == next_unit && dir->nunits >= 1;
		next_unit += dir->nunits;
		if (dir->parent < 0) {
			top++;
			subtree_top += dir->subtree_units;
			depth_ok &= dir->depth == 0;
			continue;
		}
		parents_earlier &= dir->parent < d;
		depth_ok &= dir->depth == t.dirs[dir->parent].depth + 1;
		int sum = dir->nunits;
		for (int k = 0; k < dir->nsubs; k++) {
			int c = t.subs[dir->first_sub + k];
			subs_ok &= t.dirs[c].parent == d;
			sum += t.dirs[c].subtree_units;
		}
		subs_ok &= sum == dir->subtree_units;
	}
	CHECK(next_unit == 300);
	CHECK(contiguous);
	CHECK(parents_earlier);
	CHECK(depth_ok);
	CHECK(subs_ok);
	CHECK(top == KB_TOP_DIRS && t.ntop == KB_TOP_DIRS);
	CHECK(subtree_top == 300);
	for (int u = 0; u < 300; u++) {
		const struct kb_job *j = &t.jobs[u];
		const struct kb_dir *dir = &t.dirs[j->dir];
		CHECK(j->kind == KB_JOB_UNIT);
		CHECK(u >= dir->first_unit && u < dir->first_unit + dir->nunits);
		CHECKF(j->user[KB_CC1] > 0 && j->user[KB_AS] > 0, "unit %d", u);
	}
	wl_free(&a);
}

SL_TEST(kernbench_tree_is_fixed_by_tree_seed)
{
	struct wl_arena a = { 0 };
	struct kb_tree t1, t2, t3;
	struct kb_shape s = wl_shape(400, 7, KB_KBUILD_26);

	kb_tree_build(&t1, &s, wl_alloc, &a);
	kb_tree_build(&t2, &s, wl_alloc, &a);
	s.tree_seed = 8;
	kb_tree_build(&t3, &s, wl_alloc, &a);
	bool same = t1.ndirs == t2.ndirs;
	for (int d = 0; same && d < t1.ndirs; d++)
		same = t1.dirs[d].parent == t2.dirs[d].parent &&
		       t1.dirs[d].nunits == t2.dirs[d].nunits;
	for (int u = 0; same && u < 400; u++)
		same = t1.jobs[u].user[KB_CC1] == t2.jobs[u].user[KB_CC1];
	CHECK(same);
	bool differs = t1.ndirs != t3.ndirs;
	for (int d = 0; !differs && d < t1.ndirs; d++)
		differs = t1.dirs[d].parent != t3.dirs[d].parent ||
			  t1.dirs[d].nunits != t3.dirs[d].nunits;
	CHECK(differs);
	wl_free(&a);
}

SL_TEST(kernbench_tree_work_adds_up_to_size)
{
	struct wl_arena a = { 0 };
	struct kb_tree t;
	struct kb_shape s = wl_shape(500, 3, KB_KBUILD_26);

	kb_tree_build(&t, &s, wl_alloc, &a);
	double total = kb_tree_user_work(&t), head = 0, tail = 0;
	for (int i = 0; i < t.nhead; i++)
		for (int r = 0; r < KB_NROLES; r++)
			head += t.jobs[t.head_base + i].user[r];
	/* the tail: the root's steps, init/'s jobs and init/'s make */
	for (int i = t.tail_base; i < t.init_base + t.ninit; i++)
		tail += kb_job_work(&t.jobs[i]);
	tail += t.makes[t.init_make].parse;
	CHECKF(fabs(total - 100e9) < 1e-6 * 100e9, "total %g", total);
	CHECKF(fabs(head - 2e9) < 1e-6 * 2e9, "head %g", head);
	CHECKF(fabs(tail - 15e9) < 1e-6 * 15e9, "tail %g", tail);
	/* 2.6.11's tail (13 steps), bzImage's 7 more; init/'s 3 jobs; the
	 * head KB_HEAD_UNITS units */
	CHECK(t.ntail == 20 && t.ninit == 3 && t.nhead == KB_HEAD_UNITS);
	CHECK(fabs(kb_tree_head_work(&t) - head) < 1e-9 * head &&
	      fabs(kb_tree_tail_work(&t) - tail) < 1e-9 * tail);
	wl_free(&a);
}

/* head=0 and tail=0 leave no head and no tail jobs at all (two compile
 * loops start nothing first and link nothing after), under every kbuild */
SL_TEST(kernbench_no_head_and_no_tail_when_zero)
{
	static const enum kb_kbuild kbuilds[] = { KB_KBUILD_26, KB_KBUILD_24, KB_KBUILD_6 };

	for (int k = 0; k < 3; k++) {
		struct wl_arena a = { 0 };
		struct kb_tree t;
		struct kb_shape s = wl_shape(50, 1, kbuilds[k]);
		s.head_frac = s.tail_frac = 0;
		kb_tree_build(&t, &s, wl_alloc, &a);
		CHECKF(t.nhead == 0 && t.ntail == 0 && t.ninit == 0 && t.init_make < 0 &&
		       t.njobs == t.shape.units + t.ndirs, "kbuild %d", (int)kbuilds[k]);
		CHECK(kb_tree_tail_work(&t) == 0 && kb_tree_head_work(&t) == 0);
		CHECKF(fabs(kb_tree_user_work(&t) - 100e9) < 1e-6 * 100e9, "kbuild %d",
		       (int)kbuilds[k]);
		wl_free(&a);
	}
}

/* The default serial part: shape with head and tail by the model's amounts
 * (no share given). */
static struct kb_shape kb_default_shape(int units, double size, enum kb_target target)
{
	return (struct kb_shape){
		.units = units, .tree_seed = 1, .target = target, .kbuild = KB_KBUILD_26,
		.size_s = size, .head_frac = -1, .tail_frac = -1,
	};
}

static double body_cc1(const struct kb_tree *t)
{
	double w = 0;
	for (int u = 0; u < t->shape.units; u++)
		w += t->jobs[u].user[KB_CC1];
	return w;
}

/* The head is an amount of work (KB_HEAD_CC1 mean units) and each tail
 * step's work follows what it links (KB_LD_PER_CC1 of the body's cc1 work
 * per link): a build four times as large has a head of the same size in
 * mean units and a tail four times as large.  (The old model made both
 * fixed shares of the build: 2.19 % and 10.9 %/19.1 %.) */
SL_TEST(kernbench_serial_part_is_work_not_a_share)
{
	struct wl_arena a = { 0 };
	struct kb_tree t1, t4, tz;
	struct kb_shape s1 = kb_default_shape(1000, 100, KB_TARGET_VMLINUX);
	struct kb_shape s4 = kb_default_shape(4000, 400, KB_TARGET_VMLINUX);
	struct kb_shape sz = kb_default_shape(1000, 100, KB_TARGET_BZIMAGE);

	kb_tree_build(&t1, &s1, wl_alloc, &a);
	kb_tree_build(&t4, &s4, wl_alloc, &a);
	kb_tree_build(&tz, &sz, wl_alloc, &a);
	double total1 = kb_tree_user_work(&t1), total4 = kb_tree_user_work(&t4);
	CHECKF(fabs(total1 - 100e9) < 1e-6 * 100e9, "total %g", total1);
	CHECKF(fabs(total4 - 400e9) < 1e-6 * 400e9, "total %g", total4);

	/* head: KB_HEAD_CC1 mean cc1 runs, whatever the build's size */
	double h1 = kb_tree_head_work(&t1) / t1.mean_cc1, h4 = kb_tree_head_work(&t4) / t4.mean_cc1;
	CHECKF(fabs(h1 - KB_HEAD_CC1) < 0.01 * KB_HEAD_CC1, "head %g mean units", h1);
	CHECKF(fabs(h4 - KB_HEAD_CC1) < 0.01 * KB_HEAD_CC1, "head %g mean units", h4);

	/* the final link (the tail's third ld) links every unit */
	const struct kb_job *vmlinux = &t1.jobs[t1.tail_base + 8];
	CHECK(!strcmp(vmlinux->tool, "ld") && vmlinux->ncmds == 1);
	double link = vmlinux->cmd_user[0] / body_cc1(&t1);
	CHECKF(fabs(link - KB_LD_PER_CC1) < 0.01 * KB_LD_PER_CC1, "link %g", link);

	/* a small serial part: about 1 % of a 1000-unit vmlinux build, under
	 * 3 % of bzImage, whose gzip -9 makes it larger */
	double serial1 = (kb_tree_head_work(&t1) + kb_tree_tail_work(&t1)) / total1;
	double serialz = (kb_tree_head_work(&tz) + kb_tree_tail_work(&tz)) / kb_tree_user_work(&tz);
	CHECKF(serial1 > 0.005 && serial1 < 0.02, "vmlinux serial %g", serial1);
	CHECKF(serialz > serial1 && serialz < 0.03, "bzImage serial %g", serialz);
	/* the tail grows with the build, the head's share shrinks */
	double tail1 = kb_tree_tail_work(&t1) / total1, tail4 = kb_tree_tail_work(&t4) / total4;
	CHECKF(fabs(tail4 - tail1) < 0.1 * tail1, "tail share %g vs %g", tail1, tail4);
	CHECKF(kb_tree_head_work(&t4) / total4 < 0.3 * kb_tree_head_work(&t1) / total1,
	       "head share %g vs %g", kb_tree_head_work(&t4) / total4,
	       kb_tree_head_work(&t1) / total1);
	wl_free(&a);
}

/* Walk every make's stages: each job and each sub-make is started exactly
 * once, by one make. */
static void check_items_once(enum kb_kbuild kbuild)
{
	struct wl_arena a = { 0 };
	struct kb_tree t;
	struct kb_shape s = wl_shape(250, 11, kbuild);

	kb_tree_build(&t, &s, wl_alloc, &a);
	int *job_seen = calloc((size_t)t.njobs, sizeof(int));
	int *make_seen = calloc((size_t)t.nmakes, sizeof(int));
	for (int m = 0; m < t.nmakes; m++)
		for (int st = 0; st < kb_make_nstages(&t, &t.makes[m]); st++) {
			struct kb_item it;
			for (int i = 0; kb_make_item(&t, &t.makes[m], st, i, &it); i++)
				(it.is_make ? make_seen : job_seen)[it.index]++;
		}
	/* the root and init/'s make (run by the version step's shell) are no
	 * make's items */
	bool once = make_seen[0] == 0;
	for (int m = 1; m < t.nmakes; m++)
		once &= make_seen[m] == (m == t.init_make ? 0 : 1);
	for (int j = 0; j < t.njobs; j++)
		once &= job_seen[j] == 1;
	CHECKF(once, "kbuild %d", (int)kbuild);
	CHECK(t.nmakes == 1 + t.ndirs * (kbuild == KB_KBUILD_24 ? 2 : 1) +
			  (kbuild == KB_KBUILD_6 ? 0 : 1));
	CHECK((t.init_make >= 0) == (kbuild != KB_KBUILD_6));
	free(job_seen);
	free(make_seen);
	wl_free(&a);
}

SL_TEST(kernbench_every_job_started_once)
{
	check_items_once(KB_KBUILD_26);
	check_items_once(KB_KBUILD_24);
	check_items_once(KB_KBUILD_6);
}

SL_TEST(kernbench_bad_params_fail)
{
	CHECK(wl_parses("kernbench"));
	CHECK(wl_parses("kernbench:jobs=0,target=bzimage,pipe=0,size=50,kbuild=2.4"));
	CHECK(!wl_parses("kernbench:jobs=-1"));
	CHECK(!wl_parses("kernbench:jobs=abc"));
	CHECK(!wl_parses("kernbench:size=0"));
	CHECK(!wl_parses("kernbench:pipe=2"));
	CHECK(!wl_parses("kernbench:target=zImage"));
	CHECK(!wl_parses("kernbench:jbos=2"));
	CHECK(!wl_parses("kernbench:head=40,tail=60"));	/* nothing left to build */
}

/* ---- kernbench: runs ---- */

#define KB_SMALL "units=40,size=4,tree=2"

/* A unit's shell runs gcc (cc1, as), fixdep, rm and, before today's
 * kbuild, mv (2.6.11 rule_cc_o_c; 6.12 cmd_and_fixdep); a link is
 * 2.6.11's lone `ld -r`, today's `rm -f` and ar.  2.6.11's tail (its
 * top-level Makefile): the version step's sh, cat, expr and mv (and
 * init/'s make, with the makes), the three links' shells with their ld,
 * two shells of an echo, two `nm | kallsyms` and two `nm | grep` of three
 * each and a cmp with its shell: 26 processes, 7 per unit of the two
 * kallsyms .S; init/'s mkcompile_h (bash, echo and 16 commands: 18),
 * version.o (a unit) and the link of init/built-in.o.  Today's record: 10
 * steps of 2. */
static void kb_j1_one_job_at_a_time(const char *kbuild, int per_unit, int per_link,
				    int tail_units, int tail_links, int step_procs)
{
	struct wl_run r;
	char spec[128];

	snprintf(spec, sizeof(spec), "kernbench:jobs=1,kbuild=%s," KB_SMALL, kbuild);
	if (!wl_run(&r, "pack:2 core:1 pu:1", spec, 1)) {
		CHECKF(0, "kernbench -j1 ran (kbuild=%s)", kbuild);
		return;
	}
	const struct kb_run *run = r.state;
	CHECKF(run->max_live_jobs == 1, "max jobs %d", run->max_live_jobs);
	CHECK(run->live_jobs == 0);
	CHECK(run->jobs_done == run->tree.njobs);
	/* make; sh and its commands per job; cc1 and as per unit */
	CHECK(wl_metric(&r, "processes") == (double)run->tree.processes);
	CHECKF(run->tree.processes == run->tree.nmakes +
	       (40 + KB_HEAD_UNITS + tail_units) * per_unit +
	       (run->tree.ndirs + tail_links) * per_link + step_procs,
	       "kbuild=%s: %ld processes", kbuild, run->tree.processes);
	CHECK(wl_metric(&r, "max_jobs") == 1);
	wl_done(&r);
}

SL_TEST(kernbench_j1_runs_one_job_at_a_time)
{
	/* sh gcc cc1 as fixdep rm mv; sh ld */
	kb_j1_one_job_at_a_time("2.6", 7, 2, 3, 1, 26 + 18);
	kb_j1_one_job_at_a_time("2.4", 7, 2, 3, 1, 26 + 18);
	/* sh gcc cc1 as fixdep rm; sh rm ar */
	kb_j1_one_job_at_a_time("6", 6, 3, 0, 0, 10 * 2);
}

SL_TEST(kernbench_j2_and_unlimited_run_jobs_in_parallel)
{
	struct wl_run r;

	if (wl_run(&r, "pack:2 core:1 pu:1", "kernbench:jobs=2," KB_SMALL, 1)) {
		CHECK(((const struct kb_run *)r.state)->max_live_jobs == 2);
		wl_done(&r);
	} else {
		CHECK(!"kernbench -j2 ran");
	}
	if (wl_run(&r, "pack:2 core:1 pu:1", "kernbench:jobs=0," KB_SMALL, 1)) {
		CHECK(((const struct kb_run *)r.state)->max_live_jobs > 2);
		wl_done(&r);
	} else {
		CHECK(!"kernbench -j ran");
	}
}

/* make's calls of wait(), and those that found no child exited yet. */
struct make_waits {
	long all, early;
};

static void count_make_waits(void *ctx, sl_time now, const struct sl_task *t)
{
	struct make_waits *n = ctx;

	(void)now;
	if (strcmp(t->comm, "make") != 0)
		return;
	n->all++;
	n->early += !sl_task_has_zombies(t);
}

/* GNU make reaps a child once its exit has notified make (the SIGCHLD
 * handler's dead_children, then waitpid): a make that runs on - starting
 * jobs, or woken by a token another make handed it - while a child is
 * still exiting on another CPU does not stop to wait for that exit.  So
 * every wait() finds a zombie.  Until Dec 2026 a child counted as
 * reapable from the start of its exit, and make could call wait() before
 * the exit had ended: once or twice a build on numaq-16, as in these two
 * (their seeds chosen for it). */
SL_TEST(kernbench_make_reaps_only_exited_children)
{
	static const char *const spec[] = { "kernbench:jobs=32," KB_SMALL,
					    "kernbench:jobs=4," KB_SMALL };

	for (size_t i = 0; i < sizeof(spec) / sizeof(spec[0]); i++) {
		struct make_waits n = { 0 };
		const struct sl_observer obs = { .ctx = &n, .sched_wait = count_make_waits };
		struct wl_run r;

		wl_observer = &obs;
		bool ok = wl_run_under(&r, "numaq-16", "o1", spec[i], i == 0 ? 1 : 3);
		wl_observer = NULL;
		if (!ok) {
			CHECKF(0, "%s ran", spec[i]);
			continue;
		}
		CHECKF(n.all > 0 && n.early == 0, "%s: %ld of make's %ld wait() calls before "
		       "the child's exit", spec[i], n.early, n.all);
		wl_done(&r);
	}
}

/* make -j on the 16-way NUMA-Q under 2.6.0: 400-odd jobs crowd the
 * runqueues, yet the build's user time stays within a few percent of -j32
 * (Bligh's 2.6.0-test8: 569.66 s against 566.65, experiment
 * nick-v16-kernbench).  Each cc1 hands its assembly to as a pipe page at a
 * time; a page that fits wakes as asynchronously (fs/pipe.c), so as gets
 * its sleep credit and runs at once.  With every pipe wakeup sync (quiet in
 * 2.6.0: no credit, no preemption) as waited ~0.4 s behind the cc1s, each
 * cc1 slept on a full pipe and came back to a cold 2 MB L2: -j cost 20 %
 * more user time than -j32 at the default size (228.5 s against 190.3),
 * 1.3 % with the pipe's own wakeups.  Since as reads gas's 32 KB buffer
 * (6 Dec 2026) a cc1 sleeps on the full pipe more often and the gap is
 * 6.1 % (197.8 s against 186.5), against the published 0.5 %: an open
 * question (docs/model.md, "Unlimited make"); the bound still catches the
 * sync-wakeup bug's 20 %. */
SL_TEST(kernbench_unlimited_j_costs_little_user_time_on_numaq)
{
	struct wl_run r;
	double user[2] = { -1, -1 };
	static const char *const spec[2] = { "kernbench:jobs=32", "kernbench:jobs=0" };

	for (int i = 0; i < 2; i++) {
		if (!wl_run_under(&r, "numaq-16", "o1:version=2.6.0", spec[i], 1)) {
			CHECKF(0, "%s ran", spec[i]);
			return;
		}
		user[i] = sl_ns_to_s(r.stats.user_ns);
		wl_done(&r);
	}
	CHECKF(user[1] < 1.08 * user[0], "user %.1f s at -j, %.1f s at -j32", user[1], user[0]);
}

/* Every link starts after its directory's units and its subdirectories'
 * links; the tail after every link; the body after the head. */
static void check_order(const char *spec)
{
	struct wl_run r;

	if (!wl_run(&r, "pack:2 core:1 pu:1", spec, 3)) {
		CHECKF(0, "%s ran", spec);
		return;
	}
	const struct kb_tree *t = &((const struct kb_run *)r.state)->tree;
	bool ordered = true;
	sl_time last_link = 0, head_end = 0, first_unit = SL_TIME_MAX;
	for (int d = 0; d < t->ndirs; d++) {
		const struct kb_dir *dir = &t->dirs[d];
		const struct kb_job *link = &t->jobs[t->link_base + d];
		for (int k = 0; k < dir->nunits; k++) {
			ordered &= link->t_start >= t->jobs[dir->first_unit + k].t_end;
			if (t->jobs[dir->first_unit + k].t_start < first_unit)
				first_unit = t->jobs[dir->first_unit + k].t_start;
		}
		for (int k = 0; k < dir->nsubs; k++)
			ordered &= link->t_start >= t->jobs[t->link_base + t->subs[dir->first_sub + k]].t_end;
		if (link->t_end > last_link)
			last_link = link->t_end;
	}
	for (int i = 0; i < t->nhead; i++)
		if (t->jobs[t->head_base + i].t_end > head_end)
			head_end = t->jobs[t->head_base + i].t_end;
	CHECKF(ordered, "%s", spec);
	CHECKF(t->jobs[t->tail_base].t_start >= last_link, "%s", spec);
	CHECKF(first_unit >= head_end, "%s", spec);
	for (int i = 1; i < t->ntail; i++)
		CHECK(t->jobs[t->tail_base + i].t_start >= t->jobs[t->tail_base + i - 1].t_end);
	wl_done(&r);
}

SL_TEST(kernbench_links_wait_for_their_directories)
{
	check_order("kernbench:jobs=0,kbuild=2.6," KB_SMALL);
	check_order("kernbench:jobs=3,kbuild=2.4," KB_SMALL);
	check_order("kernbench:jobs=2,pipe=0,target=bzimage," KB_SMALL);
}

/* On one CPU at -j1 with no kernel work besides fork/exec/exit, user time is
 * the size (plus cache refills) and elapsed is user + system. */
SL_TEST(kernbench_one_cpu_time_is_its_work)
{
	struct wl_run r;

	if (!wl_run(&r, "pack:1 core:1 pu:1", "kernbench:jobs=1,sys=0,jitter=0," KB_SMALL, 1)) {
		CHECK(!"kernbench on one CPU ran");
		return;
	}
	double user = sl_ns_to_s(r.stats.user_ns), sys = sl_ns_to_s(r.stats.sys_ns);
	double elapsed = sl_ns_to_s(r.stats.elapsed_ns);
	CHECKF(user >= 4.0 * 0.999 && user < 4.0 * 1.15, "user %g", user);
	CHECKF(sys > 0 && sys < 0.5 * user, "sys %g", sys);
	CHECKF(elapsed >= (user + sys) * 0.999 && elapsed < (user + sys) * 1.02,
	       "elapsed %g user %g sys %g", elapsed, user, sys);
	wl_done(&r);
}

/* The serial head and tail of a run: from the start to the first body
 * unit's fork, and from the tail's first step to the end (seconds). */
static void kb_serial_span(const struct wl_run *r, double *head_s, double *tail_s)
{
	const struct kb_tree *t = &((const struct kb_run *)r->state)->tree;
	sl_time first_unit = SL_TIME_MAX;
	for (int u = 0; u < t->shape.units; u++)
		if (t->jobs[u].t_start < first_unit)
			first_unit = t->jobs[u].t_start;
	*head_s = sl_ns_to_s(first_unit);
	*tail_s = sl_ns_to_s(r->stats.elapsed_ns - t->jobs[t->tail_base].t_start);
}

#define KB_WIDE "units=1000,size=40,tree=1,jitter=0"

/* 2.6.11's tail (top-level Makefile): before .tmp_vmlinux1's ld the
 * version step's shell runs init/'s make, which regenerates compile.h,
 * compiles version.o again and links init/built-in.o again, all inside
 * that step.  Each `nm | grep` of mksysmap runs its two at once: on two
 * CPUs under 2.4, whose pipe wakeup is plain and sends grep to the idle
 * CPU, the step takes less than their two works one after the other;
 * under 2.6.0 the pipe's sync wakeup keeps grep on nm's CPU, and it takes
 * more (their works and the switches between them). */
static void kb_tail_order(const char *policy, bool overlap)
{
	struct wl_run r;

	if (!wl_run_under(&r, "pack:2 core:1 pu:1", policy, "kernbench:jobs=2,sys=0," KB_WIDE, 1)) {
		CHECKF(0, "kernbench with 2.6.11's tail ran under %s", policy);
		return;
	}
	const struct kb_tree *t = &((const struct kb_run *)r.state)->tree;
	const struct kb_job *version = &t->jobs[t->tail_base];
	const struct kb_job *ld1 = &t->jobs[t->tail_base + 1];
	const struct kb_job *sysmap = &t->jobs[t->tail_base + 10];
	CHECK(t->ninit == 3 && !strcmp(version->tool, "cat") && !strcmp(ld1->tool, "ld"));
	bool inside = true;
	for (int i = 0; i < t->ninit; i++) {
		const struct kb_job *j = &t->jobs[t->init_base + i];
		inside &= j->t_start > version->t_start && j->t_end < version->t_end;
		if (i > 0)
			inside &= j->t_start >= t->jobs[t->init_base + i - 1].t_end;
	}
	CHECKF(inside, "%s", policy);
	CHECK(ld1->t_start >= version->t_end);
	CHECK(!strcmp(sysmap->tool, "nm") && sysmap->ncmds == 2 &&
	      !strcmp(sysmap->cmds[1].tool, "grep"));
	double nm = sysmap->cmd_user[0], grep = sysmap->cmd_user[1];
	double took = (double)(sysmap->t_end - sysmap->t_start);
	CHECKF(took > nm && (took < nm + grep) == overlap,
	       "%s: nm | grep took %g ns, nm %g, grep %g", policy, took, nm, grep);
	wl_done(&r);
}

SL_TEST(kernbench_tail_makes_init_again_and_pipes_nm)
{
	kb_tail_order("linux24", true);
	kb_tail_order("o1:version=2.6.0", false);
}

/* The serial part of a build takes as long on 16 CPUs as on one: no CPU
 * count shortens the link tail, nor kbuild=2.4's head (one unit after
 * another).  kbuild=2.6's head (2.6.11's Makefile: scripts_basic, then
 * prepare-all and scripts together, their host tools in parallel) is its
 * first unit and then the rest at once: on 16 CPUs two of its eight
 * units' time.  And the serial part is small: about 1 % of the -j1 time
 * of a 1000-unit build (the old shares made it 13 %). */
static void kb_serial_on_1_and_16(const char *kbuild, double head_ratio)
{
	/* zeroed: a failing wl_run stops the ||, leaving the later ones unset */
	struct wl_run one = { 0 }, wide = { 0 };
	char w1[128], w16[128];

	snprintf(w1, sizeof(w1), "kernbench:jobs=1,kbuild=%s," KB_WIDE, kbuild);
	snprintf(w16, sizeof(w16), "kernbench:jobs=32,kbuild=%s," KB_WIDE, kbuild);
	if (!wl_run(&one, "pack:1 core:1 pu:1", w1, 1) ||
	    !wl_run(&wide, "pack:16 core:1 pu:1", w16, 1)) {
		CHECKF(false, "kernbench on 1 and 16 CPUs, kbuild=%s", kbuild);
		wl_done(&one);
		wl_done(&wide);
		return;
	}
	double h1, t1, h16, t16;
	kb_serial_span(&one, &h1, &t1);
	kb_serial_span(&wide, &h16, &t16);
	double e1 = sl_ns_to_s(one.stats.elapsed_ns);
	CHECKF(fabs(h16 - head_ratio * h1) < 0.1 * head_ratio * h1,
	       "kbuild=%s: head %g s on 1 CPU, %g s on 16", kbuild, h1, h16);
	CHECKF(fabs(t16 - t1) < 0.1 * t1, "kbuild=%s: tail %g s on 1 CPU, %g s on 16", kbuild, t1,
	       t16);
	CHECKF((h1 + t1) / e1 > 0.004 && (h1 + t1) / e1 < 0.02,
	       "kbuild=%s: serial %g s of %g s", kbuild, h1 + t1, e1);
	wl_done(&one);
	wl_done(&wide);
}

SL_TEST(kernbench_serial_part_same_on_1_and_16_cpus)
{
	kb_serial_on_1_and_16("2.4", 1.0);
	kb_serial_on_1_and_16("2.6", 2.0 / KB_HEAD_UNITS);
	kb_serial_on_1_and_16("6", 2.0 / KB_HEAD_UNITS);	/* today's: 2.6's order */
}

/* make -j32 on 16 idle CPUs: elapsed is bounded by the CPU time spread
 * over 16 CPUs plus the serial part, and the serial part is at most 2 % of
 * the work (Bligh's 16-way builds ran at 1197-1502 % CPU), with 10 % for
 * the body's stragglers and make's job-server handoffs.  With the serial
 * part as 13 % of the work, elapsed was twice that bound. */
SL_TEST(kernbench_j32_on_16_cpus_bounded_by_cpu_over_16_plus_serial)
{
	struct wl_run r;

	if (!wl_run(&r, "pack:16 core:1 pu:1", "kernbench:jobs=32," KB_WIDE, 1)) {
		CHECK(!"kernbench -j32 on 16 CPUs ran");
		return;
	}
	const struct kb_tree *t = &((const struct kb_run *)r.state)->tree;
	double cpu = sl_ns_to_s(r.stats.user_ns + r.stats.sys_ns);
	double serial = sl_ns_to_s((sl_time)(kb_tree_head_path(t) + kb_tree_tail_work(t)));
	double elapsed = sl_ns_to_s(r.stats.elapsed_ns);
	CHECKF(serial <= 0.02 * cpu, "serial %g s of %g s", serial, cpu);
	CHECKF(elapsed <= 1.1 * (cpu / 16 + 0.02 * cpu), "elapsed %g s, cpu %g s, serial %g s",
	       elapsed, cpu, serial);
	CHECKF(elapsed >= cpu / 16 + 0.9 * serial, "elapsed %g s < %g s + %g s",
	       elapsed, cpu / 16, serial);
	wl_done(&r);
}

/* io=: one disk, so even unlimited -j on four CPUs waits for every
 * request in turn; without io= the same build is mostly CPU. */
SL_TEST(kernbench_disk_serves_one_request_at_a_time)
{
	struct wl_run r;

	if (!wl_run(&r, "pack:4 core:1 pu:1", "kernbench:jobs=0,units=40,size=0.2,io=50", 1)) {
		CHECK(!"kernbench with io ran");
		return;
	}
	const struct kb_tree *t = &((const struct kb_run *)r.state)->tree;
	sl_time waits = 0;
	for (int i = 0; i < t->njobs; i++)
		waits += t->jobs[i].io_ns;
	CHECKF(waits > 40 * 20 * SL_MSEC, "waits %g", sl_ns_to_s(waits));
	CHECKF(r.stats.elapsed_ns >= waits, "elapsed %g < waits %g",
	       sl_ns_to_s(r.stats.elapsed_ns), sl_ns_to_s(waits));
	double cpu = sl_ns_to_s(r.stats.user_ns + r.stats.sys_ns);
	CHECKF(cpu < 0.5 * sl_ns_to_s(r.stats.elapsed_ns), "cpu %g", cpu);
	wl_done(&r);
}

SL_TEST(kernbench_run_seed_jitters_but_keeps_the_tree)
{
	/* zeroed: a failing wl_run stops the ||, leaving the later ones unset */
	struct wl_run a = { 0 }, b = { 0 }, c = { 0 };
	const char *spec = "kernbench:jobs=2," KB_SMALL;

	if (!wl_run(&a, "pack:2 core:1 pu:1", spec, 5) ||
	    !wl_run(&b, "pack:2 core:1 pu:1", spec, 5) ||
	    !wl_run(&c, "pack:2 core:1 pu:1", spec, 6)) {
		CHECK(!"kernbench runs");
		wl_done(&a);
		wl_done(&b);
		wl_done(&c);
		return;
	}
	CHECK(a.stats.elapsed_ns == b.stats.elapsed_ns);
	CHECK(a.stats.user_ns == b.stats.user_ns);
	CHECK(a.stats.elapsed_ns != c.stats.elapsed_ns);
	CHECK(wl_metric(&a, "processes") == wl_metric(&c, "processes"));
	double ua = (double)a.stats.user_ns, uc = (double)c.stats.user_ns;
	CHECKF(fabs(ua - uc) < 0.05 * ua, "user %g vs %g", ua, uc);
	wl_done(&a);
	wl_done(&b);
	wl_done(&c);
}

/* ---- spin ---- */

SL_TEST(spin_one_task_fills_one_cpu)
{
	struct wl_run r;

	if (!wl_run(&r, "pack:1 core:1 pu:1", "spin:tasks=1,seconds=1", 1)) {
		CHECK(!"spin ran");
		return;
	}
	CHECKF(fabs(sl_ns_to_s(r.stats.elapsed_ns) - 1.0) < 1e-3, "elapsed %g",
	       sl_ns_to_s(r.stats.elapsed_ns));
	double cpu0 = wl_metric(&r, "cpu0_user_pct");
	CHECKF(cpu0 > 97 && cpu0 <= 100.01, "cpu0 %g", cpu0);
	CHECK(wl_metric(&r, "pkg0_user_pct") == cpu0);
	double work0 = wl_metric(&r, "pkg0_work_pct");
	CHECKF(work0 > 97 && work0 <= 100.01, "pkg0 work %g", work0);
	CHECKF(wl_metric(&r, "task_max_pct") > 97, "task %g", wl_metric(&r, "task_max_pct"));
	CHECK(wl_metric(&r, "task_min_pct") == wl_metric(&r, "task_max_pct"));
	double tp = wl_metric(&r, "throughput");
	CHECKF(tp > 0.95 && tp <= 1.0, "throughput %g", tp);
	CHECK(isnan(wl_metric(&r, "cpu1_user_pct")));
	wl_done(&r);
}

SL_TEST(spin_two_tasks_share_one_cpu)
{
	struct wl_run r;

	if (!wl_run(&r, "pack:1 core:1 pu:1", "spin:tasks=2,seconds=2,class=int", 1)) {
		CHECK(!"spin ran");
		return;
	}
	double lo = wl_metric(&r, "task_min_pct"), hi = wl_metric(&r, "task_max_pct");
	CHECKF(lo > 40 && hi < 60 && lo <= hi, "min %g max %g", lo, hi);
	CHECKF(lo + hi > 95 && lo + hi <= 100.01, "sum %g", lo + hi);
	wl_done(&r);
}

SL_TEST(spin_packages_sum_their_cpus)
{
	struct wl_run r;

	if (!wl_run(&r, "pack:2 core:1 pu:2", "spin:tasks=4,seconds=1", 1)) {
		CHECK(!"spin ran");
		return;
	}
	double c0 = wl_metric(&r, "cpu0_user_pct"), c1 = wl_metric(&r, "cpu1_user_pct");
	double c2 = wl_metric(&r, "cpu2_user_pct"), c3 = wl_metric(&r, "cpu3_user_pct");
	CHECK(fabs(wl_metric(&r, "pkg0_user_pct") - (c0 + c1)) < 1e-9);
	CHECK(fabs(wl_metric(&r, "pkg1_user_pct") - (c2 + c3)) < 1e-9);
	CHECKF(c0 + c1 + c2 + c3 > 380, "total %g", c0 + c1 + c2 + c3);
	/* work is credited per completed 10 ms burst: within 4 bursts of the
	 * exact total; with both siblings busy a package does less work than
	 * its two CPUs' time */
	double w0 = wl_metric(&r, "pkg0_work_pct"), w1 = wl_metric(&r, "pkg1_work_pct");
	CHECKF(fabs(w0 + w1 - 100 * wl_metric(&r, "throughput")) < 4.01, "work %g + %g vs %g",
	       w0, w1, wl_metric(&r, "throughput"));
	CHECKF(w0 < c0 + c1 && w1 < c2 + c3, "work %g %g", w0, w1);
	wl_done(&r);
}

SL_TEST(spin_bad_params_fail)
{
	CHECK(wl_parses("spin:tasks=4,seconds=2.5,nice=19,class=mem"));
	CHECK(!wl_parses("spin:tasks=0"));
	CHECK(!wl_parses("spin:seconds=0"));
	CHECK(!wl_parses("spin:nice=20"));
	CHECK(!wl_parses("spin:class=vector"));
	CHECK(!wl_parses("spin:task=2"));
}

/* ---- javabench ---- */

/* Two workers with 1 s of search each on two CPUs: 1 s plus four
 * collections of 15 ms (one every 250 ms of a worker's work). */
SL_TEST(javabench_two_workers_two_cpus)
{
	struct wl_run r;

	if (!wl_run(&r, "pack:2 core:1 pu:1", "javabench:threads=2,size=2", 1)) {
		CHECK(!"javabench ran");
		return;
	}
	double elapsed = sl_ns_to_s(r.stats.elapsed_ns);
	CHECKF(elapsed > 1.06 && elapsed < 1.2, "elapsed %g", elapsed);
	CHECK(wl_metric(&r, "gcs") == 4);
	CHECKF(wl_metric(&r, "throughput") > 0, "throughput %g", wl_metric(&r, "throughput"));
	wl_done(&r);
}

SL_TEST(javabench_one_cpu_serialises_the_workers)
{
	struct wl_run r;

	if (!wl_run(&r, "pack:1 core:1 pu:1", "javabench:threads=2,size=1,gc_ms=0", 1)) {
		CHECK(!"javabench ran");
		return;
	}
	double elapsed = sl_ns_to_s(r.stats.elapsed_ns);
	CHECKF(elapsed > 1.0 && elapsed < 1.1, "elapsed %g", elapsed);
	CHECK(wl_metric(&r, "gcs") == 2);
	wl_done(&r);
}

SL_TEST(javabench_bad_params_fail)
{
	CHECK(wl_parses("javabench:threads=4,size=10,gc_ms=0"));
	CHECK(!wl_parses("javabench:threads=0"));
	CHECK(!wl_parses("javabench:size=0"));
	CHECK(!wl_parses("javabench:gc_every_ms=abc"));
	CHECK(!wl_parses("javabench:heap=2"));
}

/* ---- linux24's runqueue_lock at scale ---- */

/*
 * A waker spinning on 2.4's runqueue_lock does so with interrupts off
 * (2.4.27 try_to_wake_up: spin_lock_irqsave), and the timer interrupt it
 * holds off is taken once, at the unlock: one tick off its quantum however
 * long it spun.  On 512 CPUs a hackbench of 64 groups waits up to tens of
 * ms for the lock at a wakeup; counting every tick of the wait against the
 * waker preempted it at almost every wakeup (19,895 involuntary switches,
 * 6.97 s; with one tick a stretch 1,084 and 2.49 s).
 */
SL_TEST(linux24_wakeup_spin_on_runqueue_lock_takes_one_tick)
{
	struct wl_run r;

	wl_unchecked = true;
	bool ran = wl_run_under(&r, "numa:8 pack:1 core:32 pu:2", "linux24",
				"hackbench:groups=64,loops=20", 1);
	wl_unchecked = false;
	if (!ran) {
		CHECK(!"hackbench ran");
		return;
	}
	CHECKF(r.stats.nivcsw < 5000, "%ld involuntary switches", r.stats.nivcsw);
	double t = wl_metric(&r, "time_s");
	CHECKF(t < 4.0, "hackbench time %g s", t);
	wl_done(&r);
}

/* linux24:runqueue_add=head keeps its list (a deque: adds at the head,
 * move_last_runqueue at the tail, holes closed into the middle) through
 * hackbench's thousands of wakeups, under the invariant check after every
 * event, which compares every slot with its task. */
SL_TEST(linux24_head_adds_keep_the_runqueue)
{
	static const char *const wls[] = { "hackbench:groups=4,loops=20", "kernbench:jobs=8" };

	for (int i = 0; i < 2; i++) {
		struct wl_run r;
		if (!wl_run_under(&r, "p4dpe-2x2ht", "linux24:runqueue_add=head", wls[i], 1)) {
			CHECKF(false, "%s ran", wls[i]);
			continue;
		}
		CHECKF(r.stats.tasks > 100, "%s: %ld tasks", wls[i], r.stats.tasks);
		wl_done(&r);
	}
}

/* ---- kernbench: as reads as gas does ---- */

/*
 * gas fills a 32 KB input buffer with one fread(), read() after read()
 * until full: as sleeps in its read until it has 32 KB, reading on while
 * cc1 waits for room in 2.4's one-page pipe, and assembles 32 KB at a
 * time.  seed-000's 2.4.8 at -j2: with as assembling each 4 KB page as it
 * came, which kept its package recently active, the two jobs shared a
 * package 42 % of the time (151.0 s); reading gas's buffer, 24 %
 * (121.7 s, published 127).
 */
SL_TEST(kernbench_as_reads_gas_buffer_and_2_4_spreads_two_jobs)
{
	struct wl_run r;

	if (!wl_run_under(&r, "p4dpe-2x2ht", "linux24:ht_tweak=off",
			  "kernbench:jobs=2,target=bzimage,kbuild=2.4,size=178", 1)) {
		CHECK(!"kernbench ran");
		return;
	}
	/* report/run.c's smt_shared_while_idle_pct: a core shared while another idles */
	double shared = (double)r.stats.smt_shared_idle_ns /
			((double)r.stats.elapsed_ns * r.machine.topo.ncores) * 100;
	CHECKF(shared < 33, "the jobs shared a package %.1f %% of the time", shared);
	double elapsed = sl_ns_to_s(r.stats.elapsed_ns);
	CHECKF(elapsed < 135, "elapsed %.1f s", elapsed);
	wl_done(&r);
}
