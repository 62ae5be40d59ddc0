/*
 * kernbench.h - the kernbench model's internals, shared by kernbench_tree.c
 * (the build's shape: directories, compile units, jobs, make processes),
 * kernbench_tail.c (the link tail's jobs), kernbench.c (the processes that
 * run it) and the unit tests.  The public
 * face of the workload is sl_workload_kernbench in workload.h.
 *
 * The first block of constants is what scripts/fit-kernbench.py prints for
 * the record of a real tinyconfig `make -j2 vmlinux` (every process
 * recorded with BSD accounting; the record is not shipped); see that
 * script for how each is measured.  The second block is the era model
 * (docs/workloads.md, "kernbench"): estimates for the steps the record
 * has not; none is fitted to a published table.
 */
#ifndef SL_WORKLOAD_KERNBENCH_H
#define SL_WORKLOAD_KERNBENCH_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "base/units.h"
#include "hw/speed.h"

/* ---- fitted to the real build (scripts/fit-kernbench.py) ---- */

#define KB_CC1_TINY_FRAC	0.1463	/* cc1 runs of a few ticks (.S files, tiny .c) */
#define KB_CC1_TINY_REL		0.04545	/* their median / the real files' median */
#define KB_CC1_TINY_SIGMA	0.4301	/* their log-sd */
#define KB_CC1_SIGMA		0.6006	/* log-sd of real files' cc1 CPU time */
#define KB_AS_PER_CC1		0.003418	/* user CPU per unit relative to cc1's */
#define KB_GCC_PER_CC1		0.0003798
#define KB_FIXDEP_PER_CC1	0.0005064
#define KB_SH_PER_CC1		0
#define KB_RM_PER_CC1		0
#define KB_MV_PER_CC1		KB_RM_PER_CC1	/* the record has no mv (today's kbuild
						 * runs none): a file utility like rm */
#define KB_MAKE_PER_CC1		0.004114	/* make's own CPU per unit it starts */
#define KB_LD_PER_CC1		0.0004431	/* a link's CPU per unit it links in */
#define KB_NM_PER_CC1		0.0002532	/* nm of vmlinux, per unit in it */
#define KB_DIR_UNITS_MEDIAN	4	/* compile units per directory: lognormal */
#define KB_DIR_UNITS_SIGMA	1.23
#define KB_HEAD_CC1		9.032	/* the head's CPU in mean cc1 runs */
#define KB_TOP_DIRS		10	/* top-level directories (init, kernel, mm, ...) */

/* ---- era model (docs/workloads.md, kernbench) ---- */

/*
 * The serial part is amounts of work, not shares of the build: the head is
 * KB_HEAD_CC1 mean compile units (prepare does the same whatever the
 * config compiles), and each step of the link tail does work in proportion
 * to what it reads (kb_tail_26 in kernbench_tail.c: the links and nm
 * per unit linked, measured above; the rest estimates).  Nothing here is
 * fitted to a published cell.
 *
 * Estimates for the steps the tinyconfig record has not: gzip -9 of
 * vmlinux.bin (a 2.5/2.6 i386 image of ~3 MB, ~3 KB per object, at
 * ~3 MB/s on a 2.2 GHz P4 whose mean unit compiles in ~0.17 s: ~6 mean
 * units for 1000 objects); objcopy copies the image (a quarter of a link);
 * kallsyms and the assembly of its symbol table read what nm wrote (as nm).
 */
#define KB_GZIP_PER_CC1		0.006
#define KB_OBJCOPY_PER_CC1	(KB_LD_PER_CC1 / 4)
#define KB_HEAD_UNITS		8	/* the head's host-tool and generated-header compiles */
#define KB_ASM_BYTES_MEAN	65536	/* cc1 -> as output of a mean unit (.s text) */
#define KB_ASM_BYTES_MIN	4096	/* the smallest unit's .s text; cc1's stdio
					 * writes it on the pipe a page at a time (a
					 * pipe's st_blksize: sl_page_bytes) */
#define KB_AS_BUFFER		32768	/* gas's input buffer (input-file.c BUFFER_SIZE),
					 * filled by one fread: read() after read()
					 * until full or EOF */
#define KB_MAX_UNITS		100000

/*
 * 2.6.11's link tail beyond the measured links and nm (kb_tail_26 in
 * kernbench_tail.c; docs/workloads.md, kernbench, "Tail"): estimates,
 * none fitted.  nm -n of vmlinux writes a line per symbol (an i386
 * address, a type, a name: ~30 bytes), taken as ~25 symbols per object
 * linked (not counted in any 2.6 build at hand: this host's x86_64 kernel
 * lists 121,000 symbols at 44 bytes a line in /proc/kallsyms, its objects
 * uncounted); kallsyms' .S spells each symbol's address and compressed
 * name as .long and .byte lines (~80 bytes, as read in 2.6.11's
 * scripts/kallsyms.c write_src, not measured).  grep -v of
 * mksysmap reads nm's output at a tenth of nm's CPU (measured here: GNU
 * grep 3.8 with mksysmap's pattern, 0.1 s for 87 MB; nm -D -n of a
 * 45,000-symbol library, 4.4 MB of output, 0.04-0.05 s).  cpp's pass over
 * the kallsyms .S, which has no macros to expand, is a quarter of as's.
 * init/ holds ~6 objects (2.6.11 init/Makefile: main, version, mounts,
 * initramfs, calibrate; mounts.o itself a link of do_mounts*).
 */
#define KB_NM_BYTES_PER_UNIT	700
#define KB_KSYMS_S_BYTES_PER_UNIT 2000
#define KB_GREP_PER_NM		0.1
#define KB_GREP_READ		32768	/* GNU grep's INITIAL_BUFSIZE, read() at a
					 * time (as remembered, UNVERIFIED) */
#define KB_CPP_PER_AS		0.25
#define KB_INIT_UNITS		6

/* Cache footprints (KB), estimates: cc1's heap and tables outgrow a 512 KB
 * L2 (gcc 12's cc1 at -O2 keeps using lines up to a 4 MB cache: docs/model.md,
 * "Unlimited make"); as touches its buffers and symbol table per pipe page;
 * shells and small tools little. */
#define KB_FOOTPRINT_CC1	2048
#define KB_FOOTPRINT_CPP	32	/* cpp's pass over a kallsyms .S: it streams
					 * the file through, line after line (the
					 * body's .S files keep cc1's: the record
					 * does not tell them from tiny .c files) */
#define KB_FOOTPRINT_LD		1024
#define KB_FOOTPRINT_MAKE	256
#define KB_FOOTPRINT_AS		32
#define KB_FOOTPRINT_SMALL	64

enum kb_target { KB_TARGET_VMLINUX, KB_TARGET_BZIMAGE };

/* kbuild's generation.  Recursion: 2.6's Makefile.build builds a
 * directory's objects and subdirectories as prerequisites of one target
 * (all concurrently), as today's does; 2.4's Rules.make first descends
 * into every subdirectory, then runs a second make (`all_targets`) for the
 * directory's own objects and its link.  Commands per job: kb_job_cmds. */
enum kb_kbuild { KB_KBUILD_26, KB_KBUILD_24, KB_KBUILD_6 };

struct kb_shape {
	int units;		/* compile units of the body */
	uint64_t tree_seed;	/* fixes the directory tree and the unit sizes */
	enum kb_target target;
	enum kb_kbuild kbuild;
	double size_s;		/* reference seconds of user work, whole build */
	double head_frac;	/* of size_s, in the serial head; < 0: KB_HEAD_CC1 */
	double tail_frac;	/* of size_s, in the serial tail; < 0: by its steps */
};

struct kb_dir {
	int parent;		/* -1: top level (a child of the root make) */
	int first_sub, nsubs;	/* subdirectories: tree->subs[first_sub ...] */
	int first_unit, nunits;	/* its compile units: tree->jobs[first_unit ...] */
	int subtree_units;	/* units in it and below */
	int depth;		/* 0 = top level */
};

/* The processes of a job, by role.  A compile unit has SH, TOOL (gcc),
 * CC1, AS and its kbuild's commands (kb_job_cmds); a link SH, TOOL (ld)
 * and, today, RM; a tail step SH and its commands (struct kb_cmd: TOOL,
 * and CC1's slot for a pipe's reader). */
enum kb_role { KB_SH, KB_TOOL, KB_CC1, KB_AS, KB_FIXDEP, KB_RM, KB_MV, KB_NROLES };

enum kb_job_kind { KB_JOB_UNIT, KB_JOB_LINK, KB_JOB_STEP };

/* A command's part in its shell's pipeline (`nm | kallsyms`): none, the
 * writer, or a reader that works after EOF (kallsyms: read_map(), then
 * the token table and the output) or on each read (grep). */
enum kb_cmd_pipe { KB_PIPE_NONE, KB_PIPE_OUT, KB_PIPE_IN_THEN_WORK, KB_PIPE_IN_WORKING };

/* A command a tail step's shell runs (kernbench_tail.c kb_tail_26): a
 * writer and the reader after it run at once, joined by a pipe; the rest
 * one after another.  Nominal work as the tail's: per unit of the body's
 * cc1 work and in mean compile units. */
struct kb_cmd {
	const char *tool;
	double per_cc1, fixed;
	enum sl_wclass wclass;
	enum kb_cmd_pipe pipe;
	long read_bytes;	/* a reader's read() request; 0: a page (stdio) */
	bool init_make;		/* the run's init/ make (kb_tree init_make), not a tool */
};

struct kb_job;
struct kb_make;
struct kb_run;

/* One live process of a job: its program counter and a back pointer. */
struct kb_proc {
	struct kb_job *job;
	unsigned char role;
	unsigned char pc;
	int cmd;		/* a step's shell: its next command; a command: which */
	int waits;		/* a step's shell: children not yet waited for */
	long left;		/* bytes still to write (cc1, a pipe's writer) */
	long got;		/* bytes read into as's buffer so far (as) */
	int reads;		/* read() calls made (as) */
};

struct kb_job {
	enum kb_job_kind kind;
	int dir;		/* its directory (units, links); -1 head/tail */
	const char *tool;	/* name of the TOOL process */
	enum sl_wclass tool_class;
	unsigned tool_footprint_kb;
	unsigned cc1_footprint_kb;	/* a unit's cc1 (a kallsyms .S: cpp's) */
	double user[KB_NROLES];	/* reference ns of user work per process */
	long asm_bytes;		/* cc1 -> as; a step: its pipe's writer -> reader */
	const struct kb_cmd *cmds;	/* a step's commands, cmd_user[i] the work of each */
	int ncmds;
	double *cmd_user;
	/* ---- per run ---- */
	sl_time io_ns;		/* cc1's wait for the disk (io=) */
	struct sl_chan *pipe;	/* cc1 | as with pipe=1; a step's `a | b` */
	struct kb_make *make;	/* the make that started it */
	struct kb_run *run;
	sl_time t_start, t_end;	/* fork by make, completion (probes) */
	struct kb_proc proc[KB_NROLES];
};

/* The make processes: the root, one per directory, (2.4) one more per
 * directory for its all_targets pass and (2.6.11's tail) the make of init/
 * that the version step's shell runs before .tmp_vmlinux1. */
enum kb_make_kind { KB_MAKE_ROOT, KB_MAKE_DIR, KB_MAKE_SUBDIRS, KB_MAKE_TARGETS, KB_MAKE_INIT };

struct kb_make {
	enum kb_make_kind kind;
	int dir;		/* -1 for the root */
	double parse;		/* user work reading makefiles and .cmd files */
	/* ---- per run ---- */
	struct kb_run *run;
	struct sl_chan *bell;	/* SIGCHLD and job-server wakeups */
	struct kb_make *bell_to;	/* a waiter it handed a token to */
	struct kb_make *next_waiter;
	int stage, next_item;
	int running;		/* children (jobs, sub-makes) not yet reaped */
	int slots;		/* 1 (its own) + job-server tokens held */
	unsigned char pc;
	bool waiting_token, awaiting_reap;
};

struct kb_tree {
	struct kb_shape shape;
	int ndirs;
	struct kb_dir *dirs;
	int *subs;		/* subdirectory lists, grouped by parent */
	int ntop;
	int *top;		/* top-level directories, in build order */
	int njobs;
	struct kb_job *jobs;	/* units [0, units), links, head, tail, init/'s */
	int link_base, head_base, nhead, tail_base, ntail;
	int init_base, ninit;	/* the init/ make's jobs (mkcompile_h, version.o, link) */
	int nmakes;
	struct kb_make *makes;	/* [0] root, [1 + d] dir d, [1 + ndirs + d] 2.4 pass,
				 * then init/'s (init_make) */
	int init_make;		/* -1: none (kbuild=6) */
	double mean_cc1;	/* reference ns, body units */
	long processes;		/* processes a build creates (make included) */
};

typedef void *(*kb_alloc_fn)(void *ctx, size_t size);

/* Build the shape (deterministic in shape->tree_seed): directories, units
 * with their nominal work scaled so that the whole build's user work is
 * shape->size_s, links, head and tail steps, make processes.  Memory from
 * alloc(ctx, n), zeroed. */
void kb_tree_build(struct kb_tree *tree, const struct kb_shape *shape,
		   kb_alloc_fn alloc, void *ctx);

/* The commands a unit's or a link's shell runs one after another, in order
 * (roles); returns how many (0 for a tail step: its job's cmds). */
int kb_job_cmds(const struct kb_tree *tree, enum kb_job_kind kind, const unsigned char **cmds);

/* kernbench_tree.c's job builders, shared with the tail (reference ns
 * or relative units; mean: one mean unit's cc1 work). */
void kb_init_job(struct kb_job *j, enum kb_job_kind kind, int dir, const char *tool,
		 enum sl_wclass wclass, unsigned footprint);
void kb_build_unit(const struct kb_tree *tree, struct kb_job *j, int dir, double cc1,
		   double mean_cc1);
void kb_scale_job(struct kb_job *j, double f);

/* The link tail (kernbench_tail.c): how many jobs the root make runs in
 * it; its jobs and init/'s, built at their nominal work in the body's
 * relative units (sum_cc1: all the body's cc1 work; mean: a mean unit's);
 * init/'s make's nominal parse; and the whole tail scaled to tail_work
 * (raw: its nominal work, raw_parse among it). */
int kb_tail_count(const struct kb_shape *shape);
void kb_tail_build(struct kb_tree *tree, double sum_cc1, double mean, kb_alloc_fn alloc,
		   void *ctx);
double kb_tail_init_parse(double mean);
void kb_tail_scale(struct kb_tree *tree, double tail_work, double raw, double raw_parse);
/* A tail step's processes: its shell and its commands (init/'s make is
 * counted with the makes). */
long kb_step_processes(const struct kb_job *j);

/* Nominal user work of a job, every process of it (reference ns). */
double kb_job_work(const struct kb_job *j);

/* Nominal user work of the serial head and tail (reference ns; the tail
 * with init/'s make and jobs). */
double kb_tree_head_work(const struct kb_tree *tree);
/* ... and the part of it no CPU count shortens: its critical path (all of
 * it under kbuild=2.4; the first unit and the longest of the rest under
 * kbuild=2.6, whose head runs in two stages). */
double kb_tree_head_path(const struct kb_tree *tree);
double kb_tree_tail_work(const struct kb_tree *tree);

/* Total nominal user work of the tree (reference ns). */
double kb_tree_user_work(const struct kb_tree *tree);

/* Items of a make's stages: a job or a sub-make.  Returns false past the
 * end of the stage. */
struct kb_item {
	bool is_make;
	int index;		/* into tree->jobs or tree->makes */
};
int kb_make_nstages(const struct kb_tree *tree, const struct kb_make *m);
bool kb_make_item(const struct kb_tree *tree, const struct kb_make *m, int stage,
		  int i, struct kb_item *out);

/* The run's state (returned by start(); tests read the probes). */
struct kb_run {
	struct kb_tree tree;
	bool pipe;
	bool vfork;			/* make and gcc start children with vfork() */
	double sys_ratio;
	bool unlimited;
	int tokens_free;		/* job-server pipe: jobs - 1 */
	struct sl_mutex *disk;		/* with io=: one request at a time */
	struct kb_make *waiters, *waiters_tail;
	/* probes */
	int live_jobs, max_live_jobs;
	long forks;
	long jobs_done;
};

#endif
