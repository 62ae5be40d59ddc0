/*
 * sdet.c - SPEC SDM91 057.sdet ("Software Development Environment
 * Throughput", Steve Gaede's Bell Labs benchmark), as Martin Bligh and Dave
 * Hansen ran it on a 16-way NUMA-Q in 2003: N concurrent scripts, each a
 * shell typing a random order of the same UNIX commands; throughput in
 * scripts per hour, N x 3600 / the wall time until the last script ends.
 *
 * Model (docs/workloads.md, sdet): the driver forks N children, each execs a
 * shell on its own script.  Every script holds the same multiset of
 * command lines (the table below, 119 lines), shuffled per script; the
 * shell parses each line, runs builtins (cd, echo, test) itself and forks
 * and waits for everything else.  A command execs, does its work (split
 * `sys` kernel / rest user: page faults, file-system calls on ramfs,
 * process setup; SDET is kernel-heavy) and exits; the engine charges fork,
 * exec, exit and every context switch on top.  Compound commands run their
 * own children: cc runs cpp, ccom, as and ld in turn; make runs cc; spell
 * is a shell script running deroff | spellprog; `sh -c` and `time` run one
 * command.  Pipelines (nroff | col, deroff | spellprog) are concurrent
 * processes joined by one-page pipes: the producer writes its output 4 KB
 * at a time as it computes, the consumer works on each page as it
 * arrives.  No disk: Hansen ran on ramfs.
 *
 * Work: the per-command costs are the middles of docs/workloads.md's classes
 * (built-ins 0.05 ms, light 2-10 ms, medium 10-50 ms, heavy 100-800 ms,
 * on a 700 MHz-1 GHz CPU), scaled together so that one script's commands
 * hold `size` reference seconds of work.  Per run, every command line of
 * every script is scaled by a lognormal factor (log-sd `jitter`) and each
 * script's order is shuffled, both from the run seed, so repetitions are
 * different scripts (SPEC regenerates them) and one seed gives the same
 * scripts under every policy.
 *
 * Sources: SPEC SDM91 (open.spec.org/osg/sdm91/sdet_descr.txt and
 * sdet_command.txt: the descriptions, the command list); Bligh's and
 * Hansen's LKML tables (<225880000.1068073678@flay>,
 * <1063782920.3590.164.camel@nighthawk>: the derived 3.5 CPU-s per script).
 *
 * Checked against (docs/workloads.md, "sdet"): size is calibrated once so
 * that a script costs 3.5 CPU-seconds (user + system, all its processes)
 * on numaq-16 at 32 scripts; Hansen's 2.6.0-test5 absolute throughputs on
 * that machine (16: 15,796, 32: 16,450, 64: 15,800 scripts/h, sd 126-711)
 * are then predictions.
 *
 * Omitted / simplified:
 *   - the real scripts' command frequencies are in the licensed SPEC kit:
 *     the counts below are assumptions that use every command marked as
 *     measured in sdet_command.txt;
 *   - the file system is free beyond the `sys` share: no dcache, inode or
 *     page-cache contention between scripts, no rmap or page-table copying
 *     costs that grow with the machine (Bligh's profiles), no disk;
 *   - a command's kernel work comes first, then its user work, in one
 *     burst each (pipeline stages excepted);
 *   - all commands are INT work; cache footprints are 64 KB (light),
 *     256 KB (medium) and 1 MB (heavy), estimates;
 *   - the shell's own work per line is one small burst; no think time.
 */
#include <math.h>

#include "base/memsize.h"
#include "base/rng.h"
#include "sim/sim.h"
#include "workload/bench_workloads.h"
#include "workload/workload.h"

#define SDET_STREAM		0x73646574ULL	/* "sdet": shuffles and work factors */
#define SDET_MAX_STAGES		2
#define SDET_MAX_SUBLINES	4
#define SDET_MAX_SCRIPTS	999		/* SPEC's limit */
#define SDET_SIZE_DEFAULT	"1.26"		/* calibrated: 3.5 CPU-s per script, numaq-16 */

/* ---- the commands ---- */

enum sdet_pt {
	PT_SH, PT_BUILTIN,
	PT_LS, PT_CAT, PT_CP, PT_MV, PT_RM, PT_MKDIR, PT_RMDIR, PT_TOUCH, PT_WC, PT_WHO,
	PT_PS, PT_DATE, PT_EXPR, PT_COL,
	PT_GREP, PT_FIND, PT_DIFF, PT_ED, PT_PR, PT_CPIO,
	PT_NROFF, PT_SPELL, PT_DEROFF, PT_SPELLPROG,
	PT_CC, PT_CPP, PT_CCOM, PT_AS, PT_LD, PT_MAKE, PT_SUBSH, PT_TIME,
	PT_COUNT
};

/* A command line: one process, or a pipeline of them. */
enum sdet_line {
	L_BUILTIN,
	L_LS, L_CAT, L_CP, L_MV, L_RM, L_MKDIR, L_RMDIR, L_TOUCH, L_WC, L_WHO, L_PS, L_DATE,
	L_EXPR,
	L_GREP, L_FIND, L_DIFF, L_ED, L_PR, L_CPIO,
	L_NROFF_COL, L_SPELL, L_DEROFF_SPELLPROG,
	L_CC, L_CPP, L_CCOM, L_AS, L_LD, L_MAKE, L_SUBSH, L_TIME,
	L_COUNT
};

struct sdet_pt_def {
	const char *name;
	double ms;		/* work, ms at the table's scale (docs/workloads.md) */
	unsigned footprint_kb;
	long out_bytes;		/* written to the next pipeline stage, if any */
	int nlines;		/* command lines it runs in turn */
	unsigned char lines[SDET_MAX_SUBLINES];
};

#define LIGHT 64
#define MEDIUM 256
#define HEAVY 1024

static const struct sdet_pt_def sdet_pts[PT_COUNT] = {
	[PT_SH]		= { "sh", 0.1, LIGHT, 0, 0, { 0 } },	/* per line parsed */
	[PT_BUILTIN]	= { "sh", 0.05, LIGHT, 0, 0, { 0 } },
	[PT_LS]		= { "ls", 5, LIGHT, 0, 0, { 0 } },
	[PT_CAT]	= { "cat", 4, LIGHT, 0, 0, { 0 } },
	[PT_CP]		= { "cp", 5, LIGHT, 0, 0, { 0 } },
	[PT_MV]		= { "mv", 4, LIGHT, 0, 0, { 0 } },
	[PT_RM]		= { "rm", 3, LIGHT, 0, 0, { 0 } },
	[PT_MKDIR]	= { "mkdir", 3, LIGHT, 0, 0, { 0 } },
	[PT_RMDIR]	= { "rmdir", 3, LIGHT, 0, 0, { 0 } },
	[PT_TOUCH]	= { "touch", 2, LIGHT, 0, 0, { 0 } },
	[PT_WC]		= { "wc", 4, LIGHT, 0, 0, { 0 } },
	[PT_WHO]	= { "who", 6, LIGHT, 0, 0, { 0 } },
	[PT_PS]		= { "ps", 10, LIGHT, 0, 0, { 0 } },
	[PT_DATE]	= { "date", 2, LIGHT, 0, 0, { 0 } },
	[PT_EXPR]	= { "expr", 2, LIGHT, 0, 0, { 0 } },
	[PT_COL]	= { "col", 8, LIGHT, 0, 0, { 0 } },
	[PT_GREP]	= { "grep", 20, MEDIUM, 0, 0, { 0 } },
	[PT_FIND]	= { "find", 40, MEDIUM, 0, 0, { 0 } },
	[PT_DIFF]	= { "diff", 30, MEDIUM, 0, 0, { 0 } },
	[PT_ED]		= { "ed", 25, MEDIUM, 0, 0, { 0 } },
	[PT_PR]		= { "pr", 20, MEDIUM, 0, 0, { 0 } },
	[PT_CPIO]	= { "cpio", 40, MEDIUM, 0, 0, { 0 } },
	[PT_NROFF]	= { "nroff", 300, HEAVY, 32768, 0, { 0 } },
	[PT_SPELL]	= { "spell", 2, LIGHT, 0, 1, { L_DEROFF_SPELLPROG } },
	[PT_DEROFF]	= { "deroff", 60, MEDIUM, 16384, 0, { 0 } },
	[PT_SPELLPROG]	= { "spellprog", 300, HEAVY, 0, 0, { 0 } },
	[PT_CC]		= { "cc", 3, LIGHT, 0, 4, { L_CPP, L_CCOM, L_AS, L_LD } },
	[PT_CPP]	= { "cpp", 40, MEDIUM, 0, 0, { 0 } },
	[PT_CCOM]	= { "ccom", 300, HEAVY, 0, 0, { 0 } },
	[PT_AS]		= { "as", 50, MEDIUM, 0, 0, { 0 } },
	[PT_LD]		= { "ld", 100, HEAVY, 0, 0, { 0 } },
	[PT_MAKE]	= { "make", 30, MEDIUM, 0, 1, { L_CC } },
	[PT_SUBSH]	= { "sh", 2, LIGHT, 0, 1, { L_CAT } },
	[PT_TIME]	= { "time", 1, LIGHT, 0, 1, { L_LS } },
};

struct sdet_line_def {
	const char *name;
	int count;		/* per script (0: only run by another command) */
	int nstages;		/* 0: a shell builtin */
	unsigned char stage[SDET_MAX_STAGES];
};

static const struct sdet_line_def sdet_lines[L_COUNT] = {
	[L_BUILTIN]	= { "cd, echo, test", 30, 0, { PT_BUILTIN } },	/* 12 + 10 + 8 */
	[L_LS]		= { "ls", 10, 1, { PT_LS } },
	[L_CAT]		= { "cat", 8, 1, { PT_CAT } },
	[L_CP]		= { "cp", 6, 1, { PT_CP } },
	[L_MV]		= { "mv", 4, 1, { PT_MV } },
	[L_RM]		= { "rm", 8, 1, { PT_RM } },
	[L_MKDIR]	= { "mkdir", 4, 1, { PT_MKDIR } },
	[L_RMDIR]	= { "rmdir", 3, 1, { PT_RMDIR } },
	[L_TOUCH]	= { "touch", 4, 1, { PT_TOUCH } },
	[L_WC]		= { "wc", 4, 1, { PT_WC } },
	[L_WHO]		= { "who", 2, 1, { PT_WHO } },
	[L_PS]		= { "ps", 2, 1, { PT_PS } },
	[L_DATE]	= { "date", 2, 1, { PT_DATE } },
	[L_EXPR]	= { "expr", 4, 1, { PT_EXPR } },
	[L_GREP]	= { "grep", 6, 1, { PT_GREP } },
	[L_FIND]	= { "find", 3, 1, { PT_FIND } },
	[L_DIFF]	= { "diff", 3, 1, { PT_DIFF } },
	[L_ED]		= { "ed", 3, 1, { PT_ED } },
	[L_PR]		= { "pr", 2, 1, { PT_PR } },
	[L_CPIO]	= { "cpio", 2, 1, { PT_CPIO } },
	[L_NROFF_COL]	= { "nroff | col", 2, 2, { PT_NROFF, PT_COL } },
	[L_SPELL]	= { "spell", 1, 1, { PT_SPELL } },
	[L_DEROFF_SPELLPROG] = { "deroff | spellprog", 0, 2, { PT_DEROFF, PT_SPELLPROG } },
	[L_CC]		= { "cc", 2, 1, { PT_CC } },
	[L_CPP]		= { "cpp", 0, 1, { PT_CPP } },
	[L_CCOM]	= { "ccom", 0, 1, { PT_CCOM } },
	[L_AS]		= { "as", 0, 1, { PT_AS } },
	[L_LD]		= { "ld", 0, 1, { PT_LD } },
	[L_MAKE]	= { "make", 1, 1, { PT_MAKE } },
	[L_SUBSH]	= { "sh -c", 2, 1, { PT_SUBSH } },
	[L_TIME]	= { "time", 1, 1, { PT_TIME } },
};

/* Work (table ms) of a process and of a line, everything they run included. */
static double line_ms(int line);

static double pt_ms(int pt)
{
	const struct sdet_pt_def *d = &sdet_pts[pt];
	double ms = d->ms;

	for (int i = 0; i < d->nlines; i++)
		ms += line_ms(d->lines[i]);
	return ms;
}

static double line_ms(int line)
{
	const struct sdet_line_def *l = &sdet_lines[line];
	double ms = l->nstages ? 0 : sdet_pts[PT_BUILTIN].ms;

	for (int i = 0; i < l->nstages; i++)
		ms += pt_ms(l->stage[i]);
	return ms;
}

/* Processes a line creates, pipes it opens, and the most of its processes
 * alive (not yet reaped) at once. */
struct sdet_line_shape {
	int procs, pipes, live;
};

static struct sdet_line_shape line_shape(int line)
{
	const struct sdet_line_def *l = &sdet_lines[line];
	struct sdet_line_shape s = { 0, l->nstages > 1 ? l->nstages - 1 : 0, 0 };

	for (int i = 0; i < l->nstages; i++) {
		const struct sdet_pt_def *d = &sdet_pts[l->stage[i]];
		int sub_live = 0;
		s.procs++;
		for (int k = 0; k < d->nlines; k++) {
			struct sdet_line_shape sub = line_shape(d->lines[k]);
			s.procs += sub.procs;
			s.pipes += sub.pipes;
			sub_live = sub.live > sub_live ? sub.live : sub_live;
		}
		s.live += 1 + sub_live;
	}
	return s;
}

/* ---- per-run state ---- */

struct sdet_script;

/* One process of a script: the shell or a command. */
struct sdet_proc {
	struct sdet_script *s;
	unsigned char pt;
	unsigned char pc;
	double f;		/* work factor of the command line it belongs to */
	struct sl_chan *in, *out;
	long in_bytes;		/* expected on `in` */
	long in_read, out_written;
	double user_left;
	int next_line;		/* lines run so far */
	int stage;		/* next stage of the current line to fork */
	int waiting;		/* forked children of the line not yet reaped */
	struct sl_chan *carry;	/* the pipe the last stage forked writes to */
	struct sdet_proc *free_next;
};

struct sdet_run;

struct sdet_script {
	struct sdet_run *run;
	unsigned char *order;	/* K line ids, shuffled */
	double *factor;		/* K work factors */
	struct sdet_proc shell;
	struct sdet_proc *free;	/* pool of command processes */
	struct sl_chan **pipes;
	int next_pipe;
	sl_time t_end;
};

struct sdet_run {
	int scripts, ncmds;
	double scale;		/* reference ns per table ms */
	double sys;		/* kernel share of each process's work */
	struct sdet_script *s;
	/* the driver */
	unsigned char pc;
	int forked, reaped;
	sl_time t_start, t_end;
	long processes;
};

/* ---- processes ---- */

static const struct sl_prog sdet_proc_prog;

enum { P_EXEC, P_SYS, P_USER, P_READ_DONE, P_WRITE, P_CLOSE, P_LINES, P_FORK, P_WAIT,
       P_EXIT };

static double proc_work(const struct sdet_proc *p)
{
	return sdet_pts[p->pt].ms * p->s->run->scale * p->f;
}

static bool is_shell(const struct sdet_proc *p)
{
	return p == &p->s->shell;
}

/* The id of line i the process runs, or -1 past the last. */
static int proc_line(const struct sdet_proc *p, int i)
{
	if (is_shell(p))
		return i < p->s->run->ncmds ? p->s->order[i] : -1;
	return i < sdet_pts[p->pt].nlines ? sdet_pts[p->pt].lines[i] : -1;
}

static struct sdet_proc *proc_get(struct sdet_script *s)
{
	struct sdet_proc *p = s->free;
	s->free = p->free_next;
	return p;
}

static void proc_release(struct sl_sim *sim, struct sl_task *t)
{
	struct sdet_proc *p = t->prog_state;

	(void)sim;
	if (is_shell(p))
		return;
	p->free_next = p->s->free;
	p->s->free = p;
}

/* Fork stage p->stage of `line`, with its pipe ends. */
static void fork_stage(struct sdet_proc *p, int line, struct sl_action *next)
{
	const struct sdet_line_def *l = &sdet_lines[line];
	struct sdet_script *s = p->s;
	int i = p->stage++;
	struct sdet_proc *c = proc_get(s);

	*c = (struct sdet_proc){ .s = s, .pt = l->stage[i], .f = p->f };
	if (i > 0) {
		c->in = p->carry;
		c->in_bytes = sdet_pts[l->stage[i - 1]].out_bytes;
	}
	p->carry = NULL;
	if (i + 1 < l->nstages)
		c->out = p->carry = s->pipes[s->next_pipe++];
	c->user_left = proc_work(c) * (1 - s->run->sys);
	p->waiting++;
	s->run->processes++;
	*next = sl_act_fork(&sdet_proc_prog, c, is_shell(p) ? "sh" : sdet_pts[p->pt].name, false);
}

/* Run the lines: the shell parses each first; builtins are the shell's. */
static void run_lines(struct sl_sim *sim, struct sdet_proc *p, struct sl_action *next)
{
	const struct sdet_run *run = p->s->run;
	int line = proc_line(p, p->next_line);

	for (;;) {
		switch (p->pc) {
		case P_LINES:
			if (line < 0) {
				if (is_shell(p))
					p->s->t_end = sl_now(sim);
				p->pc = P_EXIT;
				*next = sl_act_exit();
				return;
			}
			p->stage = 0;
			p->pc = P_FORK;
			if (is_shell(p)) {	/* read and parse the line */
				p->f = p->s->factor[p->next_line];
				double w = sdet_pts[PT_SH].ms * run->scale * p->f;
				if (sdet_lines[line].nstages == 0)
					w += sdet_pts[PT_BUILTIN].ms * run->scale * p->f;
				*next = sl_act_run(w, SL_WC_INT);
				return;
			}
			continue;
		case P_FORK:
			if (p->stage < sdet_lines[line].nstages) {
				fork_stage(p, line, next);
				return;
			}
			p->pc = P_WAIT;
			continue;
		case P_WAIT:
			if (p->waiting > 0) {
				p->waiting--;
				*next = sl_act_wait();
				return;
			}
			p->next_line++;
			line = proc_line(p, p->next_line);
			p->pc = P_LINES;
			continue;
		default:
			*next = sl_act_exit();
			return;
		}
	}
}

/* User work of a pipeline stage: by the page read, or before each page
 * written; then the rest.  A stage's stdio reads and writes the pipe a
 * `page` at a time (a pipe's st_blksize: sl_page_bytes; the pipe holds
 * the kernel's: sl_pipe_new). */
static void stage_body(struct sl_task *t, struct sdet_proc *p, long page, struct sl_action *next)
{
	long out_bytes = sdet_pts[p->pt].out_bytes;
	double w;

	for (;;) {
		switch (p->pc) {
		case P_USER:
			if (p->in) {
				p->pc = P_READ_DONE;
				*next = sl_act_chan(SL_ACT_CHAN_READ, p->in, page);
				return;
			}
			if (p->out && p->out_written < out_bytes) {
				long chunk = out_bytes - p->out_written;
				chunk = chunk < page ? chunk : page;
				w = p->user_left * (double)chunk / (double)(out_bytes - p->out_written);
				p->user_left -= w;
				p->pc = P_WRITE;
				*next = sl_act_run(w, SL_WC_INT);
				return;
			}
			p->pc = P_CLOSE;
			w = p->user_left;
			p->user_left = 0;
			*next = sl_act_run(w, SL_WC_INT);
			return;
		case P_READ_DONE:
			if (t->result <= 0) {	/* EOF */
				p->in = NULL;
				p->pc = P_USER;
				continue;
			}
			w = p->in_bytes > p->in_read
				? p->user_left * (double)t->result / (double)(p->in_bytes - p->in_read)
				: 0;
			w = w < p->user_left ? w : p->user_left;
			p->in_read += t->result;
			p->user_left -= w;
			p->pc = p->out ? P_WRITE : P_USER;
			*next = sl_act_run(w, SL_WC_INT);
			return;
		case P_WRITE: {
			/* a middle stage passes on its share of what it read */
			long target = p->in_bytes > 0 && p->in
				? (long)((double)out_bytes * (double)p->in_read / (double)p->in_bytes)
				: p->out_written + page;
			long chunk = (target < out_bytes ? target : out_bytes) - p->out_written;
			p->pc = P_USER;
			if (chunk <= 0)
				continue;
			p->out_written += chunk;
			*next = sl_act_chan(SL_ACT_CHAN_WRITE, p->out, chunk);
			return;
		}
		case P_CLOSE:
		default:
			p->pc = P_LINES;
			if (p->out) {
				*next = sl_act_chan(SL_ACT_CHAN_CLOSE, p->out, 0);
				return;
			}
			*next = sl_act_run(0, SL_WC_INT);
			return;
		}
	}
}

static void proc_step(struct sl_sim *sim, struct sl_task *t, struct sl_action *next)
{
	struct sdet_proc *p = t->prog_state;

	switch (p->pc) {
	case P_EXEC:
		t->footprint_kb = sdet_pts[p->pt].footprint_kb;
		p->pc = is_shell(p) ? P_LINES : P_SYS;
		*next = sl_act_exec(sdet_pts[p->pt].name);
		return;
	case P_SYS:
		p->pc = P_USER;
		*next = sl_act_sys(proc_work(p) * p->s->run->sys);
		return;
	case P_USER:
	case P_READ_DONE:
	case P_WRITE:
	case P_CLOSE:
		stage_body(t, p, sl_page_bytes(sim), next);
		return;
	default:
		run_lines(sim, p, next);
	}
}

static const struct sl_prog sdet_proc_prog = {
	.name = "sdet", .step = proc_step, .release = proc_release,
};

/* ---- the driver: fork N shells, wait for them all ---- */

enum { D_START, D_FORK, D_WAIT, D_REAPED };

static void driver_step(struct sl_sim *sim, struct sl_task *t, struct sl_action *next)
{
	struct sdet_run *run = t->prog_state;

	for (;;) {
		switch (run->pc) {
		case D_START:
			run->t_start = sl_now(sim);
			run->pc = D_FORK;
			continue;
		case D_FORK:
			if (run->forked < run->scripts) {
				struct sdet_proc *sh = &run->s[run->forked++].shell;
				run->processes++;
				*next = sl_act_fork(&sdet_proc_prog, sh, "drvr", false);
				return;
			}
			run->pc = D_WAIT;
			continue;
		case D_REAPED:
			if (t->result >= 0)
				run->reaped++;
			run->pc = D_WAIT;
			continue;
		case D_WAIT:
		default:
			if (run->reaped < run->scripts) {
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

static const struct sl_prog sdet_driver_prog = { .name = "sdet-driver", .step = driver_step };

/* ---- parameters, start, report ---- */

static const struct sl_param_def sdet_params[] = {
	{ "scripts", SL_PARAM_INT, NULL, 1, SDET_MAX_SCRIPTS, NULL,
	  "concurrent scripts (SDET N: 1-128 on LKML); default one per logical CPU" },
	{ "size", SL_PARAM_REAL, SDET_SIZE_DEFAULT, 0.001, 1e5, NULL,
	  "reference CPU seconds of one script's commands besides fork/exec/exit "
	  "(1.26: 3.5 CPU-s per script at 32 scripts on numaq-16, o1 2.6.0)" },
	{ "sys", SL_PARAM_REAL, "0.5", 0, 1, NULL,
	  "kernel share of each command's work (SDET is kernel-heavy)" },
	{ "jitter", SL_PARAM_REAL, "0.05", 0, 1, NULL,
	  "log-sd of each command line's work, drawn per run" },
	{ NULL, 0, NULL, 0, 0, NULL, NULL },
};

/* The script's K lines in a random order, each with its work factor. */
static void make_script(struct sdet_script *s, struct sl_rng *r, int k, double jitter)
{
	int n = 0;

	for (int l = 0; l < L_COUNT; l++)
		for (int c = 0; c < sdet_lines[l].count; c++)
			s->order[n++] = (unsigned char)l;
	for (int i = k - 1; i > 0; i--) {
		int j = (int)sl_rng_below(r, (uint64_t)i + 1);
		unsigned char tmp = s->order[i];
		s->order[i] = s->order[j];
		s->order[j] = tmp;
	}
	for (int i = 0; i < k; i++)
		s->factor[i] = exp(jitter * sl_rng_normal(r));
}

/* SDET's N: as given, else one script per logical CPU. */
static long sdet_scripts(const struct sl_params *p, int ncpus)
{
	return sl_param_given(p, "scripts") ? sl_param_int(p, "scripts") : ncpus;
}

static void *sdet_start(struct sl_sim *sim, const struct sl_params *p, sl_time *limit_out)
{
	struct sdet_run *run = sl_sim_alloc(sim, sizeof(*run));
	double jitter = sl_param_real(p, "jitter"), table_ms = 0;
	int k = 0, pipes = 0, live = 0;
	struct sl_rng r;

	for (int l = 0; l < L_COUNT; l++) {
		const struct sdet_line_def *d = &sdet_lines[l];
		struct sdet_line_shape sh = line_shape(l);
		k += d->count;
		pipes += d->count * sh.pipes;
		table_ms += d->count * (line_ms(l) + sdet_pts[PT_SH].ms);
		live = d->count && sh.live > live ? sh.live : live;
	}
	run->scripts = (int)sdet_scripts(p, sl_topo(sim)->ncpus);
	run->ncmds = k;
	run->scale = sl_param_real(p, "size") * 1e9 / table_ms;
	run->sys = sl_param_real(p, "sys");
	run->s = sl_sim_alloc(sim, sizeof(*run->s) * (size_t)run->scripts);
	sl_rng_derive(&r, sl_seed(sim), SDET_STREAM, 0);
	for (int i = 0; i < run->scripts; i++) {
		struct sdet_script *s = &run->s[i];
		struct sdet_proc *pool = sl_sim_alloc(sim, sizeof(*pool) * (size_t)live);
		s->run = run;
		s->order = sl_sim_alloc(sim, (size_t)k);
		s->factor = sl_sim_alloc(sim, sizeof(double) * (size_t)k);
		make_script(s, &r, k, jitter);
		s->shell = (struct sdet_proc){ .s = s, .pt = PT_SH, .f = 1 };
		for (int j = 0; j < live; j++) {
			pool[j].free_next = s->free;
			s->free = &pool[j];
		}
		s->pipes = sl_sim_alloc(sim, sizeof(*s->pipes) * (size_t)(pipes ? pipes : 1));
		for (int j = 0; j < pipes; j++)
			s->pipes[j] = sl_pipe_new(sim, 0);
	}
	sl_sim_spawn_root(sim, &sdet_driver_prog, run, "drvr");
	*limit_out = 0;
	return run;
}

static void sdet_report(struct sl_sim *sim, void *state, const struct sl_params *p,
			struct sl_metrics *out)
{
	const struct sdet_run *run = state;
	double elapsed = sl_ns_to_s(run->t_end - run->t_start), sum = 0, max = 0;

	(void)sim;
	(void)p;
	for (int i = 0; i < run->scripts; i++) {
		double d = sl_ns_to_s(run->s[i].t_end - run->t_start);
		sum += d;
		max = d > max ? d : max;
	}
	sl_metrics_add(out, "throughput", "scripts/h",
		       elapsed > 0 ? run->scripts * 3600.0 / elapsed : 0, +1);
	sl_metrics_add(out, "script_s_mean", "s", sum / run->scripts, -1);
	sl_metrics_add(out, "script_s_max", "s", max, -1);
	sl_metrics_add(out, "processes", "count", (double)run->processes + 1, 0);
	sl_metrics_add(out, "commands", "count", (double)run->ncmds, 0);
}

/* the driver and, per script, its shell and the most processes alive at
 * once; each script's line order, factors, process pool and pipes (as
 * sdet_start allocates them) */
static void sdet_mem(const struct sl_params *p, const struct sl_topo *topo,
		     struct sl_mem_need *need)
{
	uint64_t scripts = (uint64_t)sdet_scripts(p, topo->ncpus);
	uint64_t k = 0, pipes = 0, live = 0, per;

	for (int l = 0; l < L_COUNT; l++) {
		struct sdet_line_shape sh = line_shape(l);
		k += (uint64_t)sdet_lines[l].count;
		pipes += (uint64_t)sdet_lines[l].count * (uint64_t)sh.pipes;
		if (sdet_lines[l].count && (uint64_t)sh.live > live)
			live = (uint64_t)sh.live;
	}
	per = sl_sim_alloc_cost(sizeof(struct sdet_proc) * live) + sl_sim_alloc_cost(k) +
	      sl_sim_alloc_cost(sizeof(double) * k) +
	      sl_sim_alloc_cost(sizeof(struct sl_chan *) * (pipes ? pipes : 1)) +
	      sl_sim_chans_cost(pipes);
	need->tasks = sl_sat_add(need->tasks, sl_sat_mul(scripts, 1 + live));
	need->bytes = sl_sat_add(need->bytes, sl_sat_add(sl_sim_alloc_cost(sizeof(struct sdet_run)),
		sl_sat_add(sl_sim_alloc_cost(sl_sat_mul(scripts, sizeof(struct sdet_script))),
			   sl_sat_mul(scripts, per))));
}

/* A run of `scripts` scripts of `size` s of work each (their lines' draws
 * around it: sl_workload_sum_floor, no line above a whole script) cannot
 * end before that work is done on every CPU: refused if that is past the
 * horizon (999 scripts of size=1e5 on 64 CPUs had run for minutes). */
static int sdet_check(const struct sl_params *p, const struct sl_machine *m,
		      const struct sl_policy_ops *policy, struct sl_err *err)
{
	long scripts = sdet_scripts(p, m->topo.ncpus);
	double size = sl_param_real(p, "size");
	double least = sl_workload_sum_floor((double)scripts * size, size,
					     sl_param_real(p, "jitter")) / m->topo.ncpus;
	char what[128];

	(void)policy;
	snprintf(what, sizeof(what), "%ld script%s of size=%g s of work on %d CPU%s", scripts,
		 scripts > 1 ? "s" : "", size, m->topo.ncpus, m->topo.ncpus > 1 ? "s" : "");
	return sl_workload_fits_horizon("sdet", least, what, err);
}

const struct sl_workload_ops sl_workload_sdet = {
	.name = "sdet",
	.summary = "SPEC SDET: N concurrent shell scripts of short commands (fork/exec/exit "
		   "heavy); scripts/hour",
	.metric = "throughput",
	.params = sdet_params,
	.start = sdet_start,
	.report = sdet_report,
	.mem = sdet_mem,
	.check = sdet_check,
};
