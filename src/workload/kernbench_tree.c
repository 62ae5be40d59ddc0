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
 *   - a serial tail: 2.6.11's kallsyms chain of vmlinux (init/ made again
 *     for version.o, then ld, nm | kallsyms, gcc of the .S, twice; ld, and
 *     nm | grep for System.map and again to verify it: kb_tail_26) and,
 *     for bzImage, objcopy, the gzip -9 compression of vmlinux.bin and the
 *     small boot-image links.  Each step works in proportion to what it
 *     reads: a link of vmlinux costs KB_LD_PER_CC1 of the cc1 work of the
 *     objects it links, as the real build's final link did.
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

/*
 * The link tail: what the root make runs after its directories, one job
 * (a shell and its commands) after another.  kbuild=2.6 and 2.4 (2.6.11's
 * top-level Makefile, read myself; 2.4, 2.5's, read as 2.6.11's,
 * UNVERIFIED): make runs each line of a multi-line rule in a shell of its
 * own.
 *   - .tmp_vmlinux1 (if_changed_rule,ksym_ld): cmd_vmlinux_version, whose
 *     shell sources scripts/mkversion (`expr 0`cat .version` + 1`), moves
 *     .tmp_version onto .version and runs `make -f Makefile.build
 *     obj=init`: init/'s make (KB_MAKE_INIT) runs scripts/mkcompile_h,
 *     which finds compile.h's version line changed and replaces it, so
 *     version.o is compiled again and init/built-in.o linked again; then
 *     the ld, then the shell whose echo writes its .cmd;
 *   - cmd_kallsyms: `nm -n .tmp_vmlinux1 | kallsyms > .tmp_kallsyms1.S`,
 *     both at once; .tmp_kallsyms1.o by if_changed_dep,as_o_S: gcc (cpp
 *     | as), fixdep, rm, mv, as any object;
 *   - .tmp_vmlinux2 (if_changed: ld and the echo in one shell), its
 *     kallsyms and .tmp_kallsyms2.o;
 *   - vmlinux (rule_vmlinux__): the ld, the echo's shell, mksysmap (`nm -n
 *     vmlinux | grep -v ... > System.map`), verify_kallsyms's mksysmap of
 *     .tmp_vmlinux2 and its `cmp -s` of the two maps: four nm in all.
 * Simplified: mksysmap's own bash and mkcompile_h's fork-only subshells
 * are folded into their shells; mkcompile_h's pipelines (`hostname |
 * sed`) run one command after another; make's `@echo '  CHK ...'` line is
 * counted in mkcompile_h's shell.
 * kbuild=6 keeps the chain the tinyconfig record measured (ld, nm,
 * kallsyms, as, twice; ld, nm), one command per shell.
 */
#define KB_CMD(tool, per_cc1, fixed, wc) { tool, per_cc1, fixed, wc, KB_PIPE_NONE, 0 }
#define KB_TINY(tool) KB_CMD(tool, 0, KB_RM_PER_CC1, SL_WC_INT)	/* a file utility */
#define KB_LEN(a) (int)(sizeof(a) / sizeof((a)[0]))

static const struct kb_cmd cmd_ld[] = { KB_CMD("ld", KB_LD_PER_CC1, 0, SL_WC_MEM) };
static const struct kb_cmd cmd_nm[] = { KB_CMD("nm", KB_NM_PER_CC1, 0, SL_WC_INT) };
static const struct kb_cmd cmd_kallsyms_alone[] = { KB_CMD("kallsyms", KB_NM_PER_CC1, 0, SL_WC_INT) };
static const struct kb_cmd cmd_as[] = { KB_CMD("as", KB_NM_PER_CC1, 0, SL_WC_INT) };
static const struct kb_cmd cmd_version[] = {
	KB_TINY("cat"), KB_TINY("expr"), KB_TINY("mv"), KB_CMD("make", 0, 0, SL_WC_INT),
};
static const struct kb_cmd cmd_kallsyms[] = {
	{ "nm", KB_NM_PER_CC1, 0, SL_WC_INT, KB_PIPE_OUT, 0 },
	{ "kallsyms", KB_NM_PER_CC1, 0, SL_WC_INT, KB_PIPE_IN_THEN_WORK, 0 },
};
static const struct kb_cmd cmd_sysmap[] = {
	{ "nm", KB_NM_PER_CC1, 0, SL_WC_INT, KB_PIPE_OUT, 0 },
	{ "grep", KB_NM_PER_CC1 * KB_GREP_PER_NM, 0, SL_WC_INT, KB_PIPE_IN_WORKING, KB_GREP_READ },
};
static const struct kb_cmd cmd_cmp[] = { KB_TINY("cmp") };
static const struct kb_cmd cmd_mkcompile_h[] = {
	KB_TINY("echo"), KB_TINY("cat"), KB_TINY("date"), KB_TINY("sed"), KB_TINY("date"),
	KB_TINY("whoami"), KB_TINY("hostname"), KB_TINY("sed"), KB_TINY("dnsdomainname"),
	KB_TINY("sed"), KB_CMD("gcc", 0, KB_GCC_PER_CC1, SL_WC_INT), KB_TINY("tail"),
	KB_TINY("grep"), KB_TINY("grep"), KB_TINY("cmp"), KB_TINY("mv"), KB_TINY("rm"),
};
/* arch/i386/boot's bzImage */
static const struct kb_cmd cmd_objcopy[] = { KB_CMD("objcopy", KB_OBJCOPY_PER_CC1, 0, SL_WC_MEM) };
static const struct kb_cmd cmd_gzip[] = { KB_CMD("gzip", KB_GZIP_PER_CC1, 0, SL_WC_INT) };
static const struct kb_cmd cmd_ld_piggy[] = { KB_CMD("ld", 0, 0.1, SL_WC_MEM) };
static const struct kb_cmd cmd_misc[] = { KB_CMD("cc1", 0, 1.0, SL_WC_INT) };
static const struct kb_cmd cmd_objcopy_small[] = { KB_CMD("objcopy", 0, 0.05, SL_WC_MEM) };
static const struct kb_cmd cmd_build[] = { KB_CMD("build", 0, 0.01, SL_WC_INT) };

/* A job of the tail: a shell and its commands, or the assembly of a
 * kallsyms .S (a compile unit: gcc, cpp | as, fixdep, rm, mv). */
struct kb_tail_item {
	const struct kb_cmd *cmds;	/* NULL with ncmds 0: a shell alone (echo) */
	int ncmds;
	bool ksyms_o;
};

#define KB_STEP(c) { c, KB_LEN(c), false }
#define KB_ECHO { NULL, 0, false }
#define KB_KSYMS_O { NULL, 0, true }

static const struct kb_tail_item kb_tail_26[] = {
	KB_STEP(cmd_version), KB_STEP(cmd_ld), KB_ECHO,		/* .tmp_vmlinux1 */
	KB_STEP(cmd_kallsyms), KB_KSYMS_O,
	KB_STEP(cmd_ld),					/* .tmp_vmlinux2 */
	KB_STEP(cmd_kallsyms), KB_KSYMS_O,
	KB_STEP(cmd_ld), KB_ECHO,				/* vmlinux */
	KB_STEP(cmd_sysmap), KB_STEP(cmd_sysmap), KB_STEP(cmd_cmp),
};
static const struct kb_tail_item kb_tail_6[] = {
	KB_STEP(cmd_ld), KB_STEP(cmd_nm), KB_STEP(cmd_kallsyms_alone), KB_STEP(cmd_as),
	KB_STEP(cmd_ld), KB_STEP(cmd_nm), KB_STEP(cmd_kallsyms_alone), KB_STEP(cmd_as),
	KB_STEP(cmd_ld), KB_STEP(cmd_nm),
};
static const struct kb_tail_item kb_tail_bzimage[] = {
	KB_STEP(cmd_objcopy), KB_STEP(cmd_gzip),		/* vmlinux.bin, piggy.gz (-9) */
	KB_STEP(cmd_ld_piggy), KB_STEP(cmd_misc),		/* piggy.o, compressed/misc.c */
	KB_STEP(cmd_ld_piggy), KB_STEP(cmd_objcopy_small),	/* bvmlinux */
	KB_STEP(cmd_build),					/* tools/build -> bzImage */
};

static int tail_len(enum kb_kbuild kbuild)
{
	return kbuild == KB_KBUILD_6 ? KB_LEN(kb_tail_6) : KB_LEN(kb_tail_26);
}

static int count_tail(const struct kb_shape *shape)
{
	return tail_len(shape->kbuild) +
	       (shape->target == KB_TARGET_BZIMAGE ? KB_LEN(kb_tail_bzimage) : 0);
}

static const struct kb_tail_item *tail_item(const struct kb_shape *shape, int i)
{
	int n = tail_len(shape->kbuild);
	if (i >= n)
		return &kb_tail_bzimage[i - n];
	return shape->kbuild == KB_KBUILD_6 ? &kb_tail_6[i] : &kb_tail_26[i];
}

/* A command's nominal work (sum_cc1: all the body's cc1 work; mean: one
 * mean unit's, both in relative units). */
static double cmd_work(const struct kb_cmd *c, double sum_cc1, double mean)
{
	return c->per_cc1 * sum_cc1 + c->fixed * mean;
}

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

static void init_job(struct kb_job *j, enum kb_job_kind kind, int dir, const char *tool,
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

/* A compile unit with cc1 work `cc1`; the driver, fixdep, sh, rm and mv
 * cost the same for every unit (fractions of the mean cc1), as scales with cc1's
 * output. */
static void set_unit_work(const struct kb_tree *tree, struct kb_job *j, double cc1,
			  double mean_cc1)
{
	j->user[KB_CC1] = cc1;
	j->user[KB_AS] = KB_AS_PER_CC1 * cc1;
	j->user[KB_TOOL] = KB_GCC_PER_CC1 * mean_cc1;
	j->user[KB_FIXDEP] = KB_FIXDEP_PER_CC1 * mean_cc1;
	j->user[KB_SH] = KB_SH_PER_CC1 * mean_cc1;
	j->user[KB_RM] = KB_RM_PER_CC1 * mean_cc1;
	j->user[KB_MV] = runs_mv(tree) ? KB_MV_PER_CC1 * mean_cc1 : 0;
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

static void scale_job(struct kb_job *j, double f)
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
			init_job(j, KB_JOB_UNIT, d, "gcc", SL_WC_INT, KB_FOOTPRINT_SMALL);
			set_unit_work(tree, j, j->user[KB_CC1], mean);
			j->asm_bytes = (long)(KB_ASM_BYTES_MEAN * j->user[KB_CC1] / mean);
			if (j->asm_bytes < KB_ASM_BYTES_MIN)
				j->asm_bytes = KB_ASM_BYTES_MIN;
		}
	for (int d = 0; d < tree->ndirs; d++) {
		struct kb_job *l = &tree->jobs[tree->link_base + d];
		init_job(l, KB_JOB_LINK, d, "ld", SL_WC_MEM, KB_FOOTPRINT_LD);
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
	if (tree->init_make >= 0) {	/* its parse is the tail's (build_tail) */
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
		struct kb_job *j = &tree->jobs[tree->head_base + i];
		init_job(j, KB_JOB_UNIT, -1, "gcc", SL_WC_INT, KB_FOOTPRINT_SMALL);
		set_unit_work(tree, j, cc1, tree->mean_cc1);
		j->asm_bytes = (long)(KB_ASM_BYTES_MEAN * cc1 / tree->mean_cc1);
		if (j->asm_bytes < KB_ASM_BYTES_MIN)
			j->asm_bytes = KB_ASM_BYTES_MIN;
	}
}

/* A shell running cmds, its work in relative units (sum_cc1, mean: the
 * body's) kept in cmd_user (ncmds of them); a pipe's writer sends
 * KB_NM_BYTES_PER_UNIT per unit linked. */
static void build_step(struct kb_tree *tree, struct kb_job *j, const struct kb_cmd *cmds,
		       int ncmds, double sum_cc1, double mean, double *cmd_user)
{
	const char *tool = ncmds > 0 ? cmds[0].tool : "sh";
	enum sl_wclass wc = ncmds > 0 ? cmds[0].wclass : SL_WC_INT;

	init_job(j, KB_JOB_STEP, -1, tool, wc,
		 wc == SL_WC_MEM ? KB_FOOTPRINT_LD : KB_FOOTPRINT_SMALL);
	j->cmds = cmds;
	j->ncmds = ncmds;
	j->cmd_user = ncmds > 0 ? cmd_user : NULL;
	for (int c = 0; c < ncmds; c++) {
		j->cmd_user[c] = cmd_work(&cmds[c], sum_cc1, mean);
		if (cmds[c].pipe == KB_PIPE_OUT)
			j->asm_bytes = (long)KB_NM_BYTES_PER_UNIT * tree->shape.units;
	}
}

/* A small compile unit of the tail (dir -1) with cc1 work `cc1`. */
static void build_tail_unit(struct kb_tree *tree, struct kb_job *j, double cc1, double mean)
{
	init_job(j, KB_JOB_UNIT, -1, "gcc", SL_WC_INT, KB_FOOTPRINT_SMALL);
	set_unit_work(tree, j, cc1, mean);
	j->asm_bytes = (long)(KB_ASM_BYTES_MEAN * cc1 / mean);
	if (j->asm_bytes < KB_ASM_BYTES_MIN)
		j->asm_bytes = KB_ASM_BYTES_MIN;
}

/* .tmp_kallsyms%.o: gcc's cpp pass over the .S, piped to as, which
 * assembles the symbol table (as much work as nm, an estimate). */
static void build_ksyms_o(struct kb_tree *tree, struct kb_job *j, double sum_cc1, double mean)
{
	double as = KB_NM_PER_CC1 * sum_cc1;

	build_tail_unit(tree, j, KB_CPP_PER_AS * as, mean);
	j->cc1_footprint_kb = KB_FOOTPRINT_CPP;
	j->user[KB_AS] = as;
	j->asm_bytes = (long)KB_KSYMS_S_BYTES_PER_UNIT * tree->shape.units;
}

/* The tail's jobs and init/'s make in the body's relative units, before
 * build_tail scales them: the root's tail items, then (kbuild 2.6 and 2.4)
 * init/'s mkcompile_h, version.o and the link of init/built-in.o. */
static void build_tail_raw(struct kb_tree *tree, double sum_cc1, double mean,
			   kb_alloc_fn alloc, void *ctx)
{
	int ncmds = tree->ninit > 0 ? KB_LEN(cmd_mkcompile_h) : 0;
	for (int i = 0; i < tree->ntail; i++)
		ncmds += tail_item(&tree->shape, i)->ncmds;
	double *cmd_user = alloc(ctx, sizeof(double) * (size_t)ncmds);	/* every step's */

	for (int i = 0; i < tree->ntail; i++) {
		const struct kb_tail_item *it = tail_item(&tree->shape, i);
		struct kb_job *j = &tree->jobs[tree->tail_base + i];
		if (it->ksyms_o) {
			build_ksyms_o(tree, j, sum_cc1, mean);
			continue;
		}
		build_step(tree, j, it->cmds, it->ncmds, sum_cc1, mean, cmd_user);
		cmd_user += it->ncmds;
	}
	if (tree->ninit == 0)
		return;
	struct kb_job *init = &tree->jobs[tree->init_base];
	build_step(tree, &init[0], cmd_mkcompile_h, KB_LEN(cmd_mkcompile_h), sum_cc1, mean,
		   cmd_user);
	build_tail_unit(tree, &init[1], KB_CC1_TINY_REL * mean, mean);	/* version.c */
	init_job(&init[2], KB_JOB_LINK, -1, "ld", SL_WC_MEM, KB_FOOTPRINT_LD);
	init[2].user[KB_TOOL] = KB_LD_PER_CC1 * mean * KB_INIT_UNITS;
}

/* The make of init/ reads its Makefile and its objects' .cmd files. */
static double init_make_parse(double mean)
{
	return KB_MAKE_PER_CC1 * mean * KB_INIT_UNITS;
}

double kb_tree_tail_work(const struct kb_tree *tree)
{
	double w = 0;
	for (int i = tree->tail_base; i < tree->init_base + tree->ninit; i++)
		w += kb_job_work(&tree->jobs[i]);
	if (tree->init_make >= 0)
		w += tree->makes[tree->init_make].parse;
	return w;
}

/* Scale the tail built by build_tail_raw to tail_work in all (raw: its
 * nominal work, init/'s make's parse among it; raw_parse that parse). */
static void build_tail(struct kb_tree *tree, double tail_work, double raw, double raw_parse)
{
	double g = raw > 0 ? tail_work / raw : 0;

	for (int i = tree->tail_base; i < tree->init_base + tree->ninit; i++)
		scale_job(&tree->jobs[i], g);
	if (tree->init_make >= 0)
		tree->makes[tree->init_make].parse = raw_parse * g;
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
		scale_job(&tree->jobs[i], f);
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

/* A step's processes: sh and each command (the init/ make, a command of
 * the version step's shell, is counted with the makes). */
static long step_processes(const struct kb_job *j)
{
	long n = 1;
	for (int c = 0; c < j->ncmds; c++)
		n += strcmp(j->cmds[c].tool, "make") != 0;
	return n;
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
		     : j->kind == KB_JOB_LINK ? per_link : step_processes(j);
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
	tree->ntail = count_tail(shape);
	tree->init_base = tree->tail_base + tree->ntail;
	tree->ninit = shape->kbuild == KB_KBUILD_6 ? 0 : 3;
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
	build_tail_raw(tree, sum_cc1, mean, alloc, ctx);
	double raw_parse = tree->ninit > 0 ? init_make_parse(mean) : 0;
	double nominal_tail = kb_tree_tail_work(tree) + raw_parse;
	bool head_share = shape->head_frac >= 0, tail_share = shape->tail_frac >= 0;
	double raw_head = head_share ? 0 : KB_HEAD_CC1 * mean;
	double raw_tail = tail_share ? 0 : nominal_tail;
	double shares = (head_share ? shape->head_frac : 0) + (tail_share ? shape->tail_frac : 0);
	double raw = body_work(tree) + raw_head + raw_tail;
	double f = raw > 0 ? size_ns * (1 - shares) / raw : 0;

	scale_body(tree, f);
	build_head(tree, head_share ? size_ns * shape->head_frac : raw_head * f);
	build_tail(tree, tail_share ? size_ns * shape->tail_frac : raw_tail * f, nominal_tail,
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
