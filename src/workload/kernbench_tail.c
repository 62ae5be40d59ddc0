/*
 * kernbench_tail.c - the link tail of a kernel build: the jobs the root
 * make runs, one after another, once its directories are built.
 *
 * Models (docs/workloads.md, kernbench, "Tail"), under kbuild=2.6 and 2.4
 * (2.5's, read as 2.6.11's, UNVERIFIED), one job per line of each rule:
 * make runs each line of a multi-line rule in a shell of its own.
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
 * The experiments' trees are older (2.5.31-2.6.0-test11) and not at hand:
 * 2.4.27's Makefile writes System.map with one `nm | grep -v | sort` and
 * verifies nothing, so mksysmap's second nm and the cmp may postdate them
 * (UNVERIFIED; about one nm of vmlinux, 0.15 s of a 16-way NUMA-Q build).
 * Simplified: mksysmap's own bash and mkcompile_h's fork-only subshells
 * are folded into their shells; mkcompile_h's pipelines (`hostname |
 * sed`) run one command after another; make's `@echo '  CHK ...'` line is
 * counted in mkcompile_h's shell.
 * kbuild=6 keeps the chain the tinyconfig record measured (ld, nm,
 * kallsyms, as, twice; ld, nm), one command per shell.
 *
 * Sources (2.6.11, read myself): the top-level Makefile (rule_ksym_ld,
 * cmd_vmlinux_version, cmd_kallsyms, the .tmp_kallsyms%.o rule,
 * rule_vmlinux__, verify_kallsyms), scripts/mkversion, mkcompile_h,
 * mksysmap and kallsyms.c (read_map, then the token table, then the
 * output), init/Makefile.  Work: the links and nm per unit linked as the
 * record measured them, the rest estimates (kernbench.h).
 */

#include <stddef.h>

#include "workload/kernbench.h"

#define KB_CMD(tool, per_cc1, fixed, wc) { tool, per_cc1, fixed, wc, KB_PIPE_NONE, 0, false }
#define KB_TINY(tool) KB_CMD(tool, 0, KB_RM_PER_CC1, SL_WC_INT)	/* a file utility */
#define KB_LEN(a) (int)(sizeof(a) / sizeof((a)[0]))

static const struct kb_cmd cmd_ld[] = { KB_CMD("ld", KB_LD_PER_CC1, 0, SL_WC_MEM) };
static const struct kb_cmd cmd_nm[] = { KB_CMD("nm", KB_NM_PER_CC1, 0, SL_WC_INT) };
static const struct kb_cmd cmd_kallsyms_alone[] = { KB_CMD("kallsyms", KB_NM_PER_CC1, 0, SL_WC_INT) };
static const struct kb_cmd cmd_as[] = { KB_CMD("as", KB_NM_PER_CC1, 0, SL_WC_INT) };
static const struct kb_cmd cmd_version[] = {
	KB_TINY("cat"), KB_TINY("expr"), KB_TINY("mv"),
	{ "make", 0, 0, SL_WC_INT, KB_PIPE_NONE, 0, true },
};
static const struct kb_cmd cmd_kallsyms[] = {
	{ "nm", KB_NM_PER_CC1, 0, SL_WC_INT, KB_PIPE_OUT, 0, false },
	{ "kallsyms", KB_NM_PER_CC1, 0, SL_WC_INT, KB_PIPE_IN_THEN_WORK, 0, false },
};
static const struct kb_cmd cmd_sysmap[] = {
	{ "nm", KB_NM_PER_CC1, 0, SL_WC_INT, KB_PIPE_OUT, 0, false },
	{ "grep", KB_NM_PER_CC1 * KB_GREP_PER_NM, 0, SL_WC_INT, KB_PIPE_IN_WORKING, KB_GREP_READ,
	  false },
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

int kb_tail_count(const struct kb_shape *shape)
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

/* A shell running cmds, its work in relative units (sum_cc1, mean: the
 * body's) kept in cmd_user (ncmds of them); a pipe's writer sends
 * KB_NM_BYTES_PER_UNIT per unit linked. */
static void build_step(struct kb_tree *tree, struct kb_job *j, const struct kb_cmd *cmds,
		       int ncmds, double sum_cc1, double mean, double *cmd_user)
{
	/* the job's tool names it (its first command); each command has its
	 * own class and footprint (kernbench.c cmd_footprint) */
	kb_init_job(j, KB_JOB_STEP, -1, ncmds > 0 ? cmds[0].tool : "sh", SL_WC_INT,
		    KB_FOOTPRINT_SMALL);
	j->cmds = cmds;
	j->ncmds = ncmds;
	j->cmd_user = ncmds > 0 ? cmd_user : NULL;
	for (int c = 0; c < ncmds; c++) {
		j->cmd_user[c] = cmd_work(&cmds[c], sum_cc1, mean);
		if (cmds[c].pipe == KB_PIPE_OUT)
			j->asm_bytes = (long)KB_NM_BYTES_PER_UNIT * tree->shape.units;
	}
}

/* .tmp_kallsyms%.o: gcc's cpp pass over the .S, piped to as, which
 * assembles the symbol table (as much work as nm, an estimate). */
static void build_ksyms_o(struct kb_tree *tree, struct kb_job *j, double sum_cc1, double mean)
{
	double as = KB_NM_PER_CC1 * sum_cc1;

	kb_build_unit(tree, j, -1, KB_CPP_PER_AS * as, mean);
	j->cc1_footprint_kb = KB_FOOTPRINT_CPP;
	j->user[KB_AS] = as;
	j->asm_bytes = (long)KB_KSYMS_S_BYTES_PER_UNIT * tree->shape.units;
}

/* The tail's jobs and init/'s make in the body's relative units, before
 * kb_tail_scale scales them: the root's tail items, then (kbuild 2.6 and 2.4)
 * init/'s mkcompile_h, version.o and the link of init/built-in.o. */
void kb_tail_build(struct kb_tree *tree, double sum_cc1, double mean, kb_alloc_fn alloc,
		   void *ctx)
{
	int ncmds = tree->ninit > 0 ? KB_LEN(cmd_mkcompile_h) : 0;
	for (int i = 0; i < tree->ntail; i++)
		ncmds += tail_item(&tree->shape, i)->ncmds;
	if (ncmds == 0)
		return;		/* tail=0: no tail jobs */
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
	kb_build_unit(tree, &init[1], -1, KB_CC1_TINY_REL * mean, mean);	/* version.c */
	kb_init_job(&init[2], KB_JOB_LINK, -1, "ld", SL_WC_MEM, KB_FOOTPRINT_LD);
	init[2].user[KB_TOOL] = KB_LD_PER_CC1 * mean * KB_INIT_UNITS;
}

/* The make of init/ reads its Makefile and its objects' .cmd files. */
double kb_tail_init_parse(double mean)
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

/* Scale the tail built by kb_tail_build to tail_work in all (raw: its
 * nominal work, init/'s make's parse among it; raw_parse that parse). */
void kb_tail_scale(struct kb_tree *tree, double tail_work, double raw, double raw_parse)
{
	double g = raw > 0 ? tail_work / raw : 0;

	for (int i = tree->tail_base; i < tree->init_base + tree->ninit; i++)
		kb_scale_job(&tree->jobs[i], g);
	if (tree->init_make >= 0)
		tree->makes[tree->init_make].parse = raw_parse * g;
}

/* A step's processes: sh and each command (the init/ make, a command of
 * the version step's shell, is counted with the makes). */
long kb_step_processes(const struct kb_job *j)
{
	long n = 1;
	for (int c = 0; c < j->ncmds; c++)
		n += !j->cmds[c].init_make;
	return n;
}
