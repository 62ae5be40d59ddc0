/*
 * kernbench_tree.c - the shape of a kernel build: which jobs exist, how
 * much work each does and in which order make may run them.
 *
 * Models (docs/workloads.md, kernbench):
 *   - a head: `prepare`, host tools and generated headers, here
 *     KB_HEAD_UNITS compile units run by the root make before its
 *     directories, together KB_HEAD_CC1 mean compile units of work
 *     whatever the build's size (prepare does not grow with the config):
 *     under kbuild=2.6 the first (scripts_basic) alone and the rest at
 *     once (head_stages), under kbuild=2.4 one after another;
 *   - a wide body: a tree of directories, each with compile units
 *     (sh -> gcc -> cc1, as; sh -> fixdep, rm, mv: kb_job_cmds) and an
 *     `ld -r` link of its objects and its subdirectories' built-in.o,
 *     which must wait for all of them;
 *   - a serial tail (kernbench_tail.c): 2.6.11's kallsyms chain of
 *     vmlinux (init/ made again for version.o, then ld, nm | kallsyms, gcc
 *     of the .S, twice; ld, and nm | grep for System.map and again to
 *     verify it) and, for bzImage, objcopy, the gzip -9 compression of
 *     vmlinux.bin and the small boot-image links.  Each step works in
 *     proportion to what it reads: a link of vmlinux costs KB_LD_PER_CC1
 *     of the cc1 work of the objects it links, as the real build's final
 *     link did.
 *
 * Sources: the 2.6 kernel's top-level Makefile (structure, per-object
 * chain, the kallsyms three-stage link); a real tinyconfig build's BSD
 * accounting (not shipped), fitted by
 * scripts/fit-kernbench.py: the cc1 time mixture, the other processes'
 * CPU relative to cc1, make's and ld's CPU per unit, the units-per-directory
 * distribution, the number of top-level directories, the head's work and
 * the final link's and nm's work per unit linked.
 *
 * Not calibrated on any published table.  With the defaults the serial
 * part is 1.2 % of a 1000-unit vmlinux build and 1.9 % of a bzImage
 * (head 0.9 %, tail 0.3 % / 1.0 %): Bligh's 16-way NUMA-Q builds of 2002-3
 * ran at 1197-1502 % CPU, which leaves a few seconds of serial time in 20-
 * 45 s, not the 39 s of 195 that seed 000's -j1/-j2 pair would imply (that
 * pair's shortfall is not serial work: docs/workloads.md).
 *
 * Omitted / simplified:
 *   - the CSV's modern per-object extras (check-local-export, nm, awk and
 *     about six trivial shells per object) postdate the 2002-2004 kbuild
 *     and are left out;
 *   - directories without objects of their own (drivers/, arch/) are not
 *     generated: every directory has at least one unit;
 *   - the directory tree is a random recursive tree (each new directory
 *     hangs below a uniformly chosen earlier one), which gives the CSV's
 *     depth of 3-4 but no named directories;
 *   - the links and nm are measured (modern binutils on a tinyconfig);
 *     gzip, objcopy, kallsyms, grep, the kallsyms .S and the boot-image
 *     steps are estimates (kernbench.h); 2.5.33's build, before kallsyms,
 *     had one link, not three: the chain is kept for every version (under
 *     0.5 % of a build);
 *   - .s size is proportional to cc1 time (KB_ASM_BYTES_MEAN for the mean
 *     unit), an estimate: the accounting data has no file sizes.
 */
#include <math.h>
#include <string.h>

#include "base/rng.h"
#include "workload/kernbench.h"

#define KB_STREAM_TREE 0x7472656555ULL	/* "treeU": the shape's own stream */

/* ---- directories ---- */

static int draw_dir_units(struct sl_rng *r, int remaining)
{
	double x = sl_rng_lognormal(r, KB_DIR_UNITS_MEDIAN, KB_DIR_UNITS_SIGMA);
	int n = (int)lround(x);
	if (n < 1)
		n = 1;
	return n < remaining ? n : remaining;
}

/* Random recursive tree: the first KB_TOP_DIRS directories are top level,
 * each later one hangs below a uniformly chosen earlier directory. */
static void build_dirs(struct kb_tree *tree, struct sl_rng *r, kb_alloc_fn alloc, void *ctx)
{
	int units = tree->shape.units;
	/* every directory has at least one unit: units bounds their number */
	tree->dirs = alloc(ctx, sizeof(*tree->dirs) * (size_t)units);
	int nd = 0, placed = 0;

	while (placed < units) {
		struct kb_dir *d = &tree->dirs[nd];
		d->parent = nd < KB_TOP_DIRS ? -1 : (int)sl_rng_below(r, (uint64_t)nd);
		d->depth = d->parent < 0 ? 0 : tree->dirs[d->parent].depth + 1;
		d->first_unit = placed;
		d->nunits = draw_dir_units(r, units - placed);
		placed += d->nunits;
		nd++;
	}
	tree->ndirs = nd;
	tree->ntop = nd < KB_TOP_DIRS ? nd : KB_TOP_DIRS;
	tree->top = alloc(ctx, sizeof(int) * (size_t)tree->ntop);
	for (int i = 0; i < tree->ntop; i++)
		tree->top[i] = i;

	/* subdirectory lists, grouped by parent, each in creation order */
	tree->subs = alloc(ctx, sizeof(int) * (size_t)nd);
	for (int i = 0; i < nd; i++)
		if (tree->dirs[i].parent >= 0)
			tree->dirs[tree->dirs[i].parent].nsubs++;
	int pos = 0;
	for (int i = 0; i < nd; i++) {
		tree->dirs[i].first_sub = pos;
		pos += tree->dirs[i].nsubs;
		tree->dirs[i].nsubs = 0;
	}
	for (int i = 0; i < nd; i++) {
		struct kb_dir *p = tree->dirs[i].parent >= 0 ? &tree->dirs[tree->dirs[i].parent] : NULL;
		if (p)
			tree->subs[p->first_sub + p->nsubs++] = i;
	}
	/* children come after their parent: sum subtrees backwards */
	for (int i = nd - 1; i >= 0; i--) {
		tree->dirs[i].subtree_units += tree->dirs[i].nunits;
		if (tree->dirs[i].parent >= 0)
			tree->dirs[tree->dirs[i].parent].subtree_units += tree->dirs[i].subtree_units;
	}
}

/* ---- jobs ---- */

void kb_init_job(struct kb_job *j, enum kb_job_kind kind, int dir, const char *tool,
		 enum sl_wclass wclass, unsigned footprint)
{
	j->kind = kind;
	j->dir = dir;
	j->tool = tool;
	j->tool_class = wclass;
	j->tool_footprint_kb = footprint;
	j->cc1_footprint_kb = KB_FOOTPRINT_CC1;
	for (int r = 0; r < KB_NROLES; r++) {
		j->proc[r].job = j;
		j->proc[r].role = (unsigned char)r;
	}
}

/* Whether a compile unit's shell ends with mv (kb_job_cmds). */
static bool runs_mv(const struct kb_tree *tree)
{
	return tree->shape.kbuild != KB_KBUILD_6;
}

/* A compile unit of directory dir (-1: the head's or the tail's) with cc1
 * work `cc1` (mean_cc1: a mean unit's): the driver, fixdep, sh, rm and mv
 * cost the same for every unit (fractions of the mean cc1); as and the .s
 * text scale with cc1's output. */
void kb_build_unit(const struct kb_tree *tree, struct kb_job *j, int dir, double cc1,
		   double mean_cc1)
{
	kb_init_job(j, KB_JOB_UNIT, dir, "gcc", SL_WC_INT, KB_FOOTPRINT_SMALL);
	j->user[KB_CC1] = cc1;
	j->user[KB_AS] = KB_AS_PER_CC1 * cc1;
	j->user[KB_TOOL] = KB_GCC_PER_CC1 * mean_cc1;
	j->user[KB_FIXDEP] = KB_FIXDEP_PER_CC1 * mean_cc1;
	j->user[KB_SH] = KB_SH_PER_CC1 * mean_cc1;
	j->user[KB_RM] = KB_RM_PER_CC1 * mean_cc1;
	j->user[KB_MV] = runs_mv(tree) ? KB_MV_PER_CC1 * mean_cc1 : 0;
	j->asm_bytes = (long)(KB_ASM_BYTES_MEAN * cc1 / mean_cc1);
	if (j->asm_bytes < KB_ASM_BYTES_MIN)
		j->asm_bytes = KB_ASM_BYTES_MIN;
}

static double draw_cc1(struct sl_rng *r)
{
	if (sl_rng_uniform(r) < KB_CC1_TINY_FRAC)
		return sl_rng_lognormal(r, KB_CC1_TINY_REL, KB_CC1_TINY_SIGMA);
	return sl_rng_lognormal(r, 1.0, KB_CC1_SIGMA);
}

double kb_job_work(const struct kb_job *j)
{
	double w = 0;
	for (int r = 0; r < KB_NROLES; r++)
		w += j->user[r];
	for (int c = 0; c < j->ncmds; c++)
		w += j->cmd_user[c];
	return w;
}

void kb_scale_job(struct kb_job *j, double f)
{
	for (int r = 0; r < KB_NROLES; r++)
		j->user[r] *= f;
	for (int c = 0; c < j->ncmds; c++)
		j->cmd_user[c] *= f;
}

/* Body units and links in relative units (median real cc1 = 1). */
static void build_body_jobs(struct kb_tree *tree, struct sl_rng *r)
{
	int units = tree->shape.units;
	double sum = 0;

	for (int u = 0; u < units; u++) {
		double cc1 = draw_cc1(r);
		tree->jobs[u].user[KB_CC1] = cc1;
		sum += cc1;
	}
	double mean = sum / units;
	for (int d = 0; d < tree->ndirs; d++)
		for (int k = 0; k < tree->dirs[d].nunits; k++) {
			struct kb_job *j = &tree->jobs[tree->dirs[d].first_unit + k];
			kb_build_unit(tree, j, d, j->user[KB_CC1], mean);
		}
	for (int d = 0; d < tree->ndirs; d++) {
		struct kb_job *l = &tree->jobs[tree->link_base + d];
		kb_init_job(l, KB_JOB_LINK, d, "ld", SL_WC_MEM, KB_FOOTPRINT_LD);
		l->user[KB_TOOL] = KB_LD_PER_CC1 * mean * tree->dirs[d].subtree_units;
	}
	tree->mean_cc1 = mean;
}

/* ---- make processes ---- */

static void build_makes(struct kb_tree *tree, kb_alloc_fn alloc, void *ctx)
{
	bool two_pass = tree->shape.kbuild == KB_KBUILD_24;
	double per_unit = KB_MAKE_PER_CC1 * tree->mean_cc1;

	tree->nmakes = 1 + tree->ndirs * (two_pass ? 2 : 1) + (tree->ninit > 0);
	tree->makes = alloc(ctx, sizeof(*tree->makes) * (size_t)tree->nmakes);
	tree->init_make = tree->ninit > 0 ? tree->nmakes - 1 : -1;
	if (tree->init_make >= 0) {	/* its parse is the tail's (kb_tail_scale) */
		tree->makes[tree->init_make].kind = KB_MAKE_INIT;
		tree->makes[tree->init_make].dir = -1;
	}
	tree->makes[0].kind = KB_MAKE_ROOT;
	tree->makes[0].dir = -1;
	tree->makes[0].parse = per_unit;
	for (int d = 0; d < tree->ndirs; d++) {
		struct kb_make *m = &tree->makes[1 + d];
		m->dir = d;
		if (!two_pass) {
			m->kind = KB_MAKE_DIR;
			m->parse = per_unit * tree->dirs[d].nunits;
			continue;
		}
		m->kind = KB_MAKE_SUBDIRS;
		m->parse = per_unit;
		struct kb_make *t = &tree->makes[1 + tree->ndirs + d];
		t->kind = KB_MAKE_TARGETS;
		t->dir = d;
		t->parse = per_unit * tree->dirs[d].nunits;
	}
}

/* ---- head and tail ---- */

static void build_head(struct kb_tree *tree, double head_work)
{
	if (tree->nhead == 0)
		return;
	double per_job = head_work / tree->nhead;
	double fixed = tree->mean_cc1 * (KB_GCC_PER_CC1 + KB_FIXDEP_PER_CC1 +
					 KB_SH_PER_CC1 + KB_RM_PER_CC1 +
					 (runs_mv(tree) ? KB_MV_PER_CC1 : 0));
	double cc1 = (per_job - fixed) / (1 + KB_AS_PER_CC1);

	if (cc1 < 0)
		cc1 = 0;
	for (int i = 0; i < tree->nhead; i++) {
		kb_build_unit(tree, &tree->jobs[tree->head_base + i], -1, cc1, tree->mean_cc1);
	}
}

/*
 * The root make's stages before its directories.  kbuild=2.6 (2.6.11's
 * top-level Makefile): the directories wait for prepare-all and scripts,
 * which wait for scripts_basic (fixdep) and then start together, and
 * the host tools of scripts/ and the generated headers of prepare build
 * in parallel: the head's first unit alone, then the rest at once (so
 * today's kbuild=6 too).
 * kbuild=2.4: one at a time (no 2.5 Makefile is at hand to say
 * otherwise).
 */
static int head_stages(const struct kb_tree *tree)
{
	return tree->shape.kbuild != KB_KBUILD_24 && tree->nhead > 1 ? 2 : tree->nhead;
}

/* The head units head stage `stage` starts together: [*first, *first + n). */
static int head_stage_units(const struct kb_tree *tree, int stage, int *first)
{
	if (head_stages(tree) == tree->nhead) {	/* one at a time */
		*first = stage;
		return 1;
	}
	*first = stage == 0 ? 0 : 1;
	return stage == 0 ? 1 : tree->nhead - 1;
}

double kb_tree_head_work(const struct kb_tree *tree)
{
	double w = 0;
	for (int i = 0; i < tree->nhead; i++)
		w += kb_job_work(&tree->jobs[tree->head_base + i]);
	return w;
}

double kb_tree_head_path(const struct kb_tree *tree)
{
	double path = 0;
	for (int stage = 0; stage < head_stages(tree); stage++) {
		int first, n = head_stage_units(tree, stage, &first);
		double longest = 0;
		for (int k = first; k < first + n; k++) {
			double w = kb_job_work(&tree->jobs[tree->head_base + k]);
			if (w > longest)
				longest = w;
		}
		path += longest;
	}
	return path;
}

double kb_tree_user_work(const struct kb_tree *tree)
{
	double w = 0;
	for (int i = 0; i < tree->njobs; i++)
		w += kb_job_work(&tree->jobs[i]);
	for (int i = 0; i < tree->nmakes; i++)
		w += tree->makes[i].parse;
	return w;
}

/* The body's work (units, links, makes). */
static double body_work(const struct kb_tree *tree)
{
	double w = 0;
	for (int i = 0; i < tree->head_base; i++)
		w += kb_job_work(&tree->jobs[i]);
	for (int i = 0; i < tree->nmakes; i++)
		w += tree->makes[i].parse;
	return w;
}

/* Scale the body by f. */
static void scale_body(struct kb_tree *tree, double f)
{
	for (int i = 0; i < tree->head_base; i++)
		kb_scale_job(&tree->jobs[i], f);
	for (int i = 0; i < tree->nmakes; i++)
		tree->makes[i].parse *= f;
	tree->mean_cc1 *= f;
}

/*
 * A job's shell runs, after its own start, these commands one after
 * another.  A compile unit (if_changed_dep, 2.6.11 Makefile and
 * scripts/Makefile.build rule_cc_o_c): gcc, then fixdep writing the .cmd
 * file's dependencies to a temporary file, rm of gcc's .d file, and mv of
 * the temporary file onto the .cmd file; today's kbuild (6.12
 * scripts/Kbuild.include cmd_and_fixdep) has fixdep write the .cmd file
 * itself and runs no mv.  A directory's link (if_changed): 2.6.11's
 * `ld -r` alone, its .cmd written by the shell's echo; today's
 * (6.12 Makefile.build cmd_ar_builtin) `rm -f` of the old archive, then
 * ar.  kbuild=2.4, the 2.5 Rules.make, is read as 2.6.11, from which it
 * descends (no 2.5 tree is at hand; UNVERIFIED).  A tail step's shell runs
 * its job's kb_cmd list instead.
 */
static const unsigned char unit_cmds_2x[] = { KB_TOOL, KB_FIXDEP, KB_RM, KB_MV };
static const unsigned char link_cmds_2x[] = { KB_TOOL };
static const unsigned char unit_cmds_6[] = { KB_TOOL, KB_FIXDEP, KB_RM };
static const unsigned char link_cmds_6[] = { KB_RM, KB_TOOL };

int kb_job_cmds(const struct kb_tree *tree, enum kb_job_kind kind, const unsigned char **cmds)
{
	bool today = !runs_mv(tree);

	switch (kind) {
	case KB_JOB_UNIT:
		*cmds = today ? unit_cmds_6 : unit_cmds_2x;
		return today ? (int)sizeof(unit_cmds_6) : (int)sizeof(unit_cmds_2x);
	case KB_JOB_LINK:
		*cmds = today ? link_cmds_6 : link_cmds_2x;
		return today ? (int)sizeof(link_cmds_6) : (int)sizeof(link_cmds_2x);
	case KB_JOB_STEP:	/* its own commands: job->cmds */
		break;
	}
	*cmds = NULL;
	return 0;
}

static long count_processes(const struct kb_tree *tree)
{
	const unsigned char *cmds;
	/* make; per unit sh, cc1, as and its commands (gcc among them); per
	 * link and per tail step sh and its commands */
	long per_unit = 3 + kb_job_cmds(tree, KB_JOB_UNIT, &cmds);
	long per_link = 1 + kb_job_cmds(tree, KB_JOB_LINK, &cmds);
	long n = tree->nmakes;

	for (int i = 0; i < tree->njobs; i++) {
		const struct kb_job *j = &tree->jobs[i];
		n += j->kind == KB_JOB_UNIT ? per_unit
		     : j->kind == KB_JOB_LINK ? per_link : kb_step_processes(j);
	}
	return n;
}

void kb_tree_build(struct kb_tree *tree, const struct kb_shape *shape,
		   kb_alloc_fn alloc, void *ctx)
{
	struct sl_rng r;
	double size_ns = shape->size_s * 1e9;

	memset(tree, 0, sizeof(*tree));
	tree->shape = *shape;
	sl_rng_derive(&r, shape->tree_seed, KB_STREAM_TREE, 0);
	build_dirs(tree, &r, alloc, ctx);

	tree->link_base = shape->units;
	tree->head_base = tree->link_base + tree->ndirs;
	tree->nhead = shape->head_frac != 0 ? KB_HEAD_UNITS : 0;
	tree->tail_base = tree->head_base + tree->nhead;
	/* tail=0, as head=0: no such jobs at all (two compile loops link
	 * nothing), not jobs of no work */
	tree->ntail = shape->tail_frac != 0 ? kb_tail_count(shape) : 0;
	tree->init_base = tree->tail_base + tree->ntail;
	tree->ninit = shape->tail_frac != 0 && shape->kbuild != KB_KBUILD_6 ? 3 : 0;
	tree->njobs = tree->init_base + tree->ninit;
	tree->jobs = alloc(ctx, sizeof(*tree->jobs) * (size_t)tree->njobs);

	build_body_jobs(tree, &r);
	build_makes(tree, alloc, ctx);

	/* In the body's relative units: the head and the tail are amounts of
	 * work (a number of mean units; per unit linked) unless given as
	 * shares of size; then everything is scaled to size. */
	double mean = tree->mean_cc1, sum_cc1 = 0;
	for (int u = 0; u < shape->units; u++)
		sum_cc1 += tree->jobs[u].user[KB_CC1];
	kb_tail_build(tree, sum_cc1, mean, alloc, ctx);
	double raw_parse = tree->ninit > 0 ? kb_tail_init_parse(mean) : 0;
	double nominal_tail = kb_tree_tail_work(tree) + raw_parse;
	bool head_share = shape->head_frac >= 0, tail_share = shape->tail_frac >= 0;
	double raw_head = head_share ? 0 : KB_HEAD_CC1 * mean;
	double raw_tail = tail_share ? 0 : nominal_tail;
	double shares = (head_share ? shape->head_frac : 0) + (tail_share ? shape->tail_frac : 0);
	double raw = body_work(tree) + raw_head + raw_tail;
	double f = raw > 0 ? size_ns * (1 - shares) / raw : 0;

	scale_body(tree, f);
	build_head(tree, head_share ? size_ns * shape->head_frac : raw_head * f);
	kb_tail_scale(tree, tail_share ? size_ns * shape->tail_frac : raw_tail * f, nominal_tail,
		   raw_parse);
	tree->processes = count_processes(tree);
}

/* ---- what each make runs, stage by stage ---- */

int kb_make_nstages(const struct kb_tree *tree, const struct kb_make *m)
{
	if (m->kind == KB_MAKE_INIT)
		return tree->ninit;	/* compile.h, version.o, built-in.o */
	return m->kind == KB_MAKE_ROOT ? head_stages(tree) + 1 + tree->ntail : 2;
}

static bool item(struct kb_item *out, bool is_make, int index)
{
	out->is_make = is_make;
	out->index = index;
	return true;
}

static bool root_item(const struct kb_tree *tree, int stage, int i, struct kb_item *out)
{
	int nhead_stages = head_stages(tree);

	if (stage < nhead_stages) {
		int first, n = head_stage_units(tree, stage, &first);
		return i < n && item(out, false, tree->head_base + first + i);
	}
	if (stage == nhead_stages)
		return i < tree->ntop && item(out, true, 1 + tree->top[i]);
	return i == 0 && item(out, false, tree->tail_base + stage - nhead_stages - 1);
}

bool kb_make_item(const struct kb_tree *tree, const struct kb_make *m, int stage,
		  int i, struct kb_item *out)
{
	if (m->kind == KB_MAKE_ROOT)
		return root_item(tree, stage, i, out);
	if (m->kind == KB_MAKE_INIT)
		return i == 0 && item(out, false, tree->init_base + stage);

	const struct kb_dir *d = &tree->dirs[m->dir];
	int nunits = m->kind == KB_MAKE_SUBDIRS ? 0 : d->nunits;
	int nsubs = m->kind == KB_MAKE_TARGETS ? 0 : d->nsubs;

	if (stage == 0) {
		if (i < nunits)
			return item(out, false, d->first_unit + i);
		if (i < nunits + nsubs)
			return item(out, true, 1 + tree->subs[d->first_sub + i - nunits]);
		return false;
	}
	if (i != 0)
		return false;
	if (m->kind == KB_MAKE_SUBDIRS)	/* then the directory's own pass */
		return item(out, true, 1 + tree->ndirs + m->dir);
	return item(out, false, tree->link_base + m->dir);
}
