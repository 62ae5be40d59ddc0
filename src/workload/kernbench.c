/*
 * kernbench.c - `make -j N` of a kernel as processes: the make processes
 * with GNU make's job server, and every process of every job.
 *
 * Models (docs/workloads.md, kernbench): the root make runs the serial
 * head, then one sub-make per top-level directory, then the serial link tail
 * (kernbench_tree.c builds that shape).  Each directory's make starts its
 * compile units and its subdirectories' makes, waits for all of them, then
 * starts its `ld -r` link.  A job is `sh -c`: for a unit it runs gcc (which
 * runs cc1 and as: concurrently over a pipe with -pipe, else as after cc1
 * through a temporary file), then fixdep, rm and mv (kb_job_cmds: today's
 * kbuild, kbuild=6, runs no mv).  make and gcc's driver
 * start their children with vfork() (vfork=1): the parent sleeps until the
 * child's exec; the shell forks.
 *
 * GNU make's job server (make 3.79/3.80, what -jN meant then): N slots in
 * all.  Every make may run one child on the slot its parent used to start
 * it; each further concurrent child needs a token from the shared pipe
 * (N - 1 tokens).  A make blocked for a token also wakes when one of its
 * children exits (SIGCHLD).  The model keeps the tokens in the run's state
 * and gives each make a doorbell channel: a child's exit rings it (make
 * catches SIGCHLD, sl_task_catch_sigchld: the signal's plain wakeup, at
 * exit_notify, after the exit's own cost), and a make that returns a token
 * hands it to the longest waiting make and rings that one's bell.  A make
 * that has more to start keeps the token of a child that ended (in reality
 * it writes the token back and reads it again at once, ahead of the
 * sleeping makes); tokens are returned when a make has nothing left to
 * start.
 *
 * Sources: kernbench 0.42 (linux-test-project/ltp,
 * utils/benchmark/kernbench-0.42); GNU make 3.79/3.80 job.c
 * start_job_command and gcc 3.x / libiberty pexecute (vfork; not at hand,
 * UNVERIFIED: a knob); the BSD accounting of a real tinyconfig
 * `make -j2` (process structure, fitted by scripts/fit-kernbench.py; the
 * record is not shipped, the constants are in kernbench.h); the GNU make
 * manual's job-server description.
 *
 * Calibrated (docs/workloads.md, docs/model.md's ledger): only `size`, the
 * build's user work, per experiment (178, the default, is seed 000's make
 * -j1 bzImage on a 2x2 HT Xeon).  The serial head and link tail are amounts
 * of work from the real build's record (kernbench.h), not fitted to any
 * published cell.
 *
 * Omitted / simplified:
 *   - kernel time: every process does `sys` x its user work as system time
 *     right after exec (page faults, reading sources and headers, writing
 *     objects) on top of the fork/exec/exit costs the engine charges; the
 *     real build's per-kind ratios (printed by the fit script) reflect a
 *     modern VM and are not used;
 *   - the disk: with io=0 everything is in the page cache (kernbench reads
 *     the tree first); io=MS gives each cc1 one exponential wait for disk
 *     reads, served one at a time (one spindle, a mutex held across the
 *     wait), queued and served in uninterruptible sleep, as a reader
 *     waits for its page (wait_on_page_locked: 2.6.0's and 2.6.12's
 *     sleep credit tell it apart); the page cache's shrinking under parallel jobs on a small
 *     machine is not modelled, nor any disk traffic of pipe=0's temporary
 *     .s file;
 *   - make's own CPU is one burst after exec, proportional to the units it
 *     starts (reading makefiles and .cmd files); its per-job work is free;
 *   - per-run variation: every job's work is multiplied by one lognormal
 *     factor (log-sd `jitter`) drawn from the run seed by job index, so the
 *     same seed gives the same work under every policy;
 *   - the job-server pipe is not a channel: tokens are a count in the run's
 *     state and the doorbells stand for the sleeping makes' reads; the GNU
 *     make load limit (-l) is not modelled.
 */
#include <math.h>
#include <stddef.h>
#include <stdlib.h>

#include "base/memsize.h"
#include "base/rng.h"
#include "sim/sim.h"
#include "workload/kernbench.h"
#include "workload/workload.h"

#define KB_STREAM_RUN 0x6b62726e6ULL	/* per-run jitter and disk waits */
#define KB_BELL_BYTES (1L << 20)	/* never fills: rings are counted in state */

static const struct sl_prog kb_make_prog, kb_sh_prog, kb_gcc_prog, kb_cc1_prog,
	kb_as_prog, kb_tool_prog, kb_cmd_prog, kb_writer_prog, kb_reader_prog;

/* ---- actions ---- */

/* fork(), or vfork() where the forking program used it and the run says
 * so (vfork=1): GNU make's start_job_command and gcc's pexecute did, the
 * shell's make_child did not. */
static struct sl_action act_fork(struct kb_run *run, const struct sl_prog *prog,
				 void *state, const char *comm, bool vforks)
{
	run->forks++;
	return (struct sl_action){ .kind = SL_ACT_FORK,
				   .u.fork = { .prog = prog, .state = state, .comm = comm,
					       .vfork = vforks && run->vfork } };
}

/* The kernel work that goes with `user` of user work. */
static double sys_for(const struct kb_run *run, double user)
{
	return run->sys_ratio * user;
}

/* ---- the job server ---- */

static bool take_token(struct kb_run *run)
{
	if (run->unlimited)
		return true;
	if (run->tokens_free == 0)
		return false;
	run->tokens_free--;
	return true;
}

static void queue_for_token(struct kb_run *run, struct kb_make *m)
{
	if (m->waiting_token)
		return;
	m->waiting_token = true;
	m->next_waiter = NULL;
	if (run->waiters_tail)
		run->waiters_tail->next_waiter = m;
	else
		run->waiters = m;
	run->waiters_tail = m;
}

static void unqueue(struct kb_run *run, struct kb_make *m)
{
	struct kb_make **pp = &run->waiters, *prev = NULL;

	if (!m->waiting_token)
		return;
	while (*pp != m) {
		prev = *pp;
		pp = &(*pp)->next_waiter;
	}
	*pp = m->next_waiter;
	if (run->waiters_tail == m)
		run->waiters_tail = prev;
	m->waiting_token = false;
}

/* m gives one token back: to the longest waiting make (whose bell m then
 * rings), or to the pipe. */
static void release_token(struct kb_run *run, struct kb_make *m)
{
	struct kb_make *w = run->waiters;

	m->slots--;
	if (run->unlimited)
		return;
	if (!w) {
		run->tokens_free++;
		return;
	}
	unqueue(run, w);
	w->slots++;
	m->bell_to = w;
}

/* ---- make ---- */

enum { MAKE_EXEC, MAKE_SYS, MAKE_PARSE, MAKE_RUN };

static void start_item(struct sl_sim *sim, struct kb_run *run, struct kb_make *m,
		       const struct kb_item *it, struct sl_action *next)
{
	m->next_item++;
	m->running++;
	if (it->is_make) {
		struct kb_make *sub = &run->tree.makes[it->index];
		sub->slots = 1;
		*next = act_fork(run, &kb_make_prog, sub, "make", true);
		return;
	}
	struct kb_job *j = &run->tree.jobs[it->index];
	j->make = m;
	j->t_start = sl_now(sim);
	/* init/'s make runs its jobs in the slot of the version step that
	 * runs it: not one job more at once */
	if (m->kind != KB_MAKE_INIT && ++run->live_jobs > run->max_live_jobs)
		run->max_live_jobs = run->live_jobs;
	*next = act_fork(run, &kb_sh_prog, &j->proc[KB_SH], "make", true);
}

/* The make's main loop: one action per call. */
static void make_next(struct sl_sim *sim, struct sl_task *t, struct kb_run *run,
		      struct kb_make *m, struct sl_action *next)
{
	const struct kb_tree *tree = &run->tree;
	struct kb_item it;

	for (;;) {
		if (m->bell_to) {
			*next = sl_act_chan(SL_ACT_CHAN_WRITE, m->bell_to->bell, 1);
			m->bell_to = NULL;
			return;
		}
		/* reap_children(): a child is reaped once its exit has
		 * notified make (SIGCHLD's dead_children), not while it is
		 * still exiting */
		if (sl_task_has_zombies(t)) {
			m->awaiting_reap = true;
			*next = sl_act_wait();
			return;
		}
		if (kb_make_item(tree, m, m->stage, m->next_item, &it)) {
			if (m->running < m->slots) {
				start_item(sim, run, m, &it, next);
				return;
			}
			if (take_token(run)) {
				m->slots++;
				continue;
			}
			queue_for_token(run, m);
			*next = sl_act_chan(SL_ACT_CHAN_READ, m->bell, KB_BELL_BYTES);
			return;
		}
		/* the stage is fully started: give back what it does not use */
		unqueue(run, m);
		if (m->slots > 1 && m->slots > m->running) {
			release_token(run, m);
			continue;
		}
		if (m->running > 0) {
			*next = sl_act_chan(SL_ACT_CHAN_READ, m->bell, KB_BELL_BYTES);
			return;
		}
		if (m->stage + 1 < kb_make_nstages(tree, m)) {
			m->stage++;
			m->next_item = 0;
			continue;
		}
		*next = sl_act_exit();	/* its exit's SIGCHLD rings the parent's bell */
		return;
	}
}

static void make_step(struct sl_sim *sim, struct sl_task *t, struct sl_action *next)
{
	struct kb_make *m = t->prog_state;
	struct kb_run *run = m->run;

	if (m->awaiting_reap) {		/* t->result: the reaped child */
		m->awaiting_reap = false;
		m->running--;
	}
	if (m->pc == MAKE_EXEC) {
		m->pc = MAKE_SYS;
		t->footprint_kb = KB_FOOTPRINT_MAKE;
		if (m->kind != KB_MAKE_ROOT) {	/* the root was started as make */
			*next = sl_act_exec("make");
			return;
		}
	}
	if (m->pc == MAKE_SYS) {
		m->pc = MAKE_PARSE;
		/* main(): SIGCHLD's child_handler, whose interruption of a
		 * blocked read of the job server the bell stands for */
		sl_task_catch_sigchld(t, true, m->bell);
		*next = sl_act_sys(sys_for(run, m->parse));
		return;
	}
	if (m->pc == MAKE_PARSE) {
		m->pc = MAKE_RUN;
		*next = sl_act_run(m->parse, SL_WC_INT);
		return;
	}
	make_next(sim, t, run, m, next);
}

static const struct sl_prog kb_make_prog = { .name = "make", .step = make_step };

/* ---- a job's shell ---- */

static const struct sl_prog *role_prog(const struct kb_job *j, int role)
{
	if (role == KB_TOOL && j->kind == KB_JOB_UNIT)
		return &kb_gcc_prog;
	if (role == KB_CC1)
		return &kb_cc1_prog;
	if (role == KB_AS)
		return &kb_as_prog;
	return &kb_tool_prog;
}

static const char *role_comm(const struct kb_job *j, int role)
{
	static const char *const names[KB_NROLES] = {
		[KB_SH] = "sh", [KB_CC1] = "cc1", [KB_AS] = "as",
		[KB_FIXDEP] = "fixdep", [KB_RM] = "rm", [KB_MV] = "mv",
	};
	return role == KB_TOOL ? j->tool : names[role];
}

static struct sl_action fork_role(struct kb_job *j, int role, const char *parent_comm)
{
	struct kb_proc *p = &j->proc[role];
	p->pc = 0;
	p->got = 0;
	p->reads = 0;
	/* gcc's driver runs cc1 and as through pexecute (vfork); sh forks */
	return act_fork(j->run, role_prog(j, role), p, parent_comm,
			role == KB_CC1 || role == KB_AS);
}

/* The job is done: its sh exits, and the exit's SIGCHLD rings make's
 * bell (sl_task_catch_sigchld). */
static struct sl_action job_announce(struct sl_sim *sim, struct kb_job *j)
{
	struct kb_run *run = j->run;
	if (j->make->kind != KB_MAKE_INIT)
		run->live_jobs--;
	run->jobs_done++;
	j->t_end = sl_now(sim);
	return sl_act_exit();
}

/* Start command c of a tail step: a pipe's writer and any lone command in the
 * TOOL slot, a pipe's reader in CC1's; the init/ make as itself. */
static struct sl_action fork_cmd(struct kb_job *j, int c)
{
	const struct kb_cmd *cmd = &j->cmds[c];
	struct kb_run *run = j->run;

	if (cmd->init_make) {
		struct kb_make *sub = &run->tree.makes[run->tree.init_make];
		sub->slots = 1;		/* the job's: its shell's make holds it */
		return act_fork(run, &kb_make_prog, sub, "sh", false);
	}
	bool reader = cmd->pipe == KB_PIPE_IN_THEN_WORK || cmd->pipe == KB_PIPE_IN_WORKING;
	struct kb_proc *p = &j->proc[reader ? KB_CC1 : KB_TOOL];
	const struct sl_prog *prog = cmd->pipe == KB_PIPE_OUT ? &kb_writer_prog
				     : reader ? &kb_reader_prog : &kb_cmd_prog;
	p->pc = 0;
	p->cmd = c;
	return act_fork(run, prog, p, "sh", false);
}

/*
 * A job's shell: exec, its own kernel and user work (SH_EXEC .. SH_RUN),
 * then its commands, waiting for each.  A unit's or a link's are its
 * kbuild's roles (kb_job_cmds: pc counts a fork and a wait per command
 * from SH_CMDS); a tail step's are its kb_cmd list (p->cmd the next one),
 * a pipeline's writer and reader forked together and both waited for.
 */
enum { SH_EXEC, SH_SYS, SH_RUN, SH_CMDS };
enum { STEP_NEXT = SH_CMDS, STEP_READER, STEP_WAIT, STEP_EXIT };

static void step_cmds(struct sl_sim *sim, struct kb_proc *p, struct sl_action *next)
{
	struct kb_job *j = p->job;

	switch (p->pc) {
	case STEP_NEXT:
		if (p->cmd >= j->ncmds) {
			p->pc = STEP_EXIT;
			*next = job_announce(sim, j);
			return;
		}
		/* `a | b`: the shell forks both, then waits for both */
		p->waits = j->cmds[p->cmd].pipe == KB_PIPE_OUT ? 2 : 1;
		p->pc = p->waits == 2 ? STEP_READER : STEP_WAIT;
		*next = fork_cmd(j, p->cmd++);
		return;
	case STEP_READER:
		p->pc = STEP_WAIT;
		*next = fork_cmd(j, p->cmd++);
		return;
	case STEP_WAIT:
		if (--p->waits == 0)
			p->pc = STEP_NEXT;
		*next = sl_act_wait();
		return;
	default:
		*next = sl_act_exit();
	}
}

static void role_cmds(struct sl_sim *sim, struct kb_proc *p, struct sl_action *next)
{
	struct kb_job *j = p->job;
	const unsigned char *cmds;
	int ncmds = kb_job_cmds(&j->run->tree, j->kind, &cmds);
	int k = p->pc++ - SH_CMDS;

	if (k < 2 * ncmds)
		*next = k % 2 == 0 ? fork_role(j, cmds[k / 2], "sh") : sl_act_wait();
	else if (k == 2 * ncmds)
		*next = job_announce(sim, j);
	else
		*next = sl_act_exit();
}

static void sh_step(struct sl_sim *sim, struct sl_task *t, struct sl_action *next)
{
	struct kb_proc *p = t->prog_state;
	struct kb_job *j = p->job;

	switch (p->pc) {
	case SH_EXEC:
		p->pc = SH_SYS;
		t->footprint_kb = KB_FOOTPRINT_SMALL;
		*next = sl_act_exec("sh");
		return;
	case SH_SYS:
		p->pc = SH_RUN;
		*next = sl_act_sys(sys_for(j->run, j->user[KB_SH]));
		return;
	case SH_RUN:
		p->pc = SH_CMDS;
		p->cmd = 0;
		*next = sl_act_run(j->user[KB_SH], SL_WC_INT);
		return;
	}
	if (j->kind == KB_JOB_STEP)
		step_cmds(sim, p, next);
	else
		role_cmds(sim, p, next);
}

static const struct sl_prog kb_sh_prog = { .name = "kernbench-sh", .step = sh_step };

/* ---- the processes a job runs ---- */

/* A process that execs, does its kernel work and its user work (of class
 * wc), and exits, one action per call: fixdep, rm, ld, a tail's lone
 * command, ... */
static void exec_work_exit(struct sl_task *t, struct kb_proc *p, struct kb_run *run,
			   const char *comm, unsigned footprint_kb, double user,
			   enum sl_wclass wc, struct sl_action *next)
{
	switch (p->pc++) {
	case 0:
		t->footprint_kb = footprint_kb;
		*next = sl_act_exec(comm);
		break;
	case 1:
		*next = sl_act_sys(sys_for(run, user));
		break;
	case 2:
		*next = sl_act_run(user, wc);
		break;
	default:
		*next = sl_act_exit();
	}
}

/* a unit's or a link's command other than gcc, cc1 and as */
static void tool_step(struct sl_sim *sim, struct sl_task *t, struct sl_action *next)
{
	struct kb_proc *p = t->prog_state;
	struct kb_job *j = p->job;
	bool tool = p->role == KB_TOOL;

	(void)sim;
	exec_work_exit(t, p, j->run, role_comm(j, p->role),
		       tool ? j->tool_footprint_kb : KB_FOOTPRINT_SMALL, j->user[p->role],
		       tool ? j->tool_class : SL_WC_INT, next);
}

static const struct sl_prog kb_tool_prog = { .name = "kernbench-tool", .step = tool_step };

/*
 * The writing side of a pipe (cc1 with -pipe, a tail step's nm): work on
 * the next page of the output (a page: stdio's buffer, a pipe's
 * st_blksize), write it, and close the pipe after the last.  Its states
 * are four consecutive values of the program's pc from `work` on: work,
 * write, close, exit; p->left holds the bytes still to write.
 */
static void write_pages(struct sl_sim *sim, struct kb_proc *p, int work, struct sl_chan *pipe,
			long bytes, double user, enum sl_wclass wc, struct sl_action *next)
{
	long chunk = p->left < sl_page_bytes(sim) ? p->left : sl_page_bytes(sim);

	switch (p->pc - work) {
	case 0:
		p->pc = (unsigned char)(work + 1);
		*next = sl_act_run(user * (double)chunk / (double)bytes, wc);
		return;
	case 1:
		p->left -= chunk;
		p->pc = (unsigned char)(work + (p->left > 0 ? 0 : 2));
		*next = sl_act_chan(SL_ACT_CHAN_WRITE, pipe, chunk);
		return;
	case 2:
		p->pc = (unsigned char)(work + 3);
		*next = sl_act_chan(SL_ACT_CHAN_CLOSE, pipe, 0);
		return;
	default:
		*next = sl_act_exit();
	}
}

/* A tail step's command: exec, kernel work, then as its part in the
 * pipeline says (struct kb_cmd); the pipe is the job's, the bytes its
 * asm_bytes. */
static unsigned cmd_footprint(const struct kb_cmd *c)
{
	return c->wclass == SL_WC_MEM ? KB_FOOTPRINT_LD : KB_FOOTPRINT_SMALL;
}

/* a lone command: its work, then exit */
static void cmd_step(struct sl_sim *sim, struct sl_task *t, struct sl_action *next)
{
	struct kb_proc *p = t->prog_state;
	struct kb_job *j = p->job;
	const struct kb_cmd *c = &j->cmds[p->cmd];

	(void)sim;
	exec_work_exit(t, p, j->run, c->tool, cmd_footprint(c), j->cmd_user[p->cmd], c->wclass,
		       next);
}

static const struct sl_prog kb_cmd_prog = { .name = "kernbench-cmd", .step = cmd_step };

/* a pipe's writer (nm): works and writes its output a page at a time
 * (stdio's buffer: a pipe's st_blksize), then closes the pipe */
enum { WR_EXEC, WR_SYS, WR_WORK, WR_WRITE, WR_CLOSE, WR_EXIT };

static void writer_step(struct sl_sim *sim, struct sl_task *t, struct sl_action *next)
{
	struct kb_proc *p = t->prog_state;
	struct kb_job *j = p->job;
	const struct kb_cmd *c = &j->cmds[p->cmd];
	double user = j->cmd_user[p->cmd];

	switch (p->pc) {
	case WR_EXEC:
		t->footprint_kb = cmd_footprint(c);
		p->left = j->asm_bytes;
		p->pc = WR_SYS;
		*next = sl_act_exec(c->tool);
		return;
	case WR_SYS:
		p->pc = p->left > 0 ? WR_WORK : WR_CLOSE;
		*next = sl_act_sys(sys_for(j->run, user));
		return;
	default:
		write_pages(sim, p, WR_WORK, j->pipe, j->asm_bytes, user, c->wclass, next);
	}
}

static const struct sl_prog kb_writer_prog = { .name = "kernbench-writer", .step = writer_step };

/* a pipe's reader: read() after read() until EOF, working on each as it
 * comes (grep) or on the whole once it is in (kallsyms) */
enum { RD_EXEC, RD_SYS, RD_READ, RD_GOT, RD_EXIT };

static void reader_step(struct sl_sim *sim, struct sl_task *t, struct sl_action *next)
{
	struct kb_proc *p = t->prog_state;
	struct kb_job *j = p->job;
	const struct kb_cmd *c = &j->cmds[p->cmd];
	double user = j->cmd_user[p->cmd];

	long want = c->read_bytes > 0 ? c->read_bytes : sl_page_bytes(sim);

	switch (p->pc) {
	case RD_EXEC:
		t->footprint_kb = cmd_footprint(c);
		p->pc = RD_SYS;
		*next = sl_act_exec(c->tool);
		return;
	case RD_SYS:
		p->pc = RD_READ;
		*next = sl_act_sys(sys_for(j->run, user));
		return;
	case RD_READ:
		p->pc = RD_GOT;
		*next = sl_act_chan(SL_ACT_CHAN_READ, j->pipe, want);
		return;
	case RD_GOT:		/* t->result: what the read got, 0 at EOF */
		if (t->result > 0 && c->pipe == KB_PIPE_IN_WORKING) {
			p->pc = RD_READ;	/* work on it, then read on */
			*next = sl_act_run(user * (double)t->result / (double)j->asm_bytes,
					   c->wclass);
			return;
		}
		if (t->result > 0) {		/* read on at once */
			*next = sl_act_chan(SL_ACT_CHAN_READ, j->pipe, want);
			return;
		}
		p->pc = RD_EXIT;	/* EOF: the writer closed the pipe */
		*next = c->pipe == KB_PIPE_IN_THEN_WORK ? sl_act_run(user, c->wclass)
							: sl_act_exit();
		return;
	default:
		*next = sl_act_exit();
	}
}

static const struct sl_prog kb_reader_prog = { .name = "kernbench-reader", .step = reader_step };

/* The gcc driver: cc1 then as, or both at once joined by a pipe. */
static void gcc_step(struct sl_sim *sim, struct sl_task *t, struct sl_action *next)
{
	struct kb_proc *p = t->prog_state;
	struct kb_job *j = p->job;
	bool pipe = j->run->pipe;

	(void)sim;
	switch (p->pc++) {
	case 0:
		t->footprint_kb = KB_FOOTPRINT_SMALL;
		*next = sl_act_exec("gcc");
		break;
	case 1:
		*next = sl_act_sys(sys_for(j->run, j->user[KB_TOOL]));
		break;
	case 2:
		*next = sl_act_run(j->user[KB_TOOL], SL_WC_INT);
		break;
	case 3:
		*next = fork_role(j, KB_CC1, "gcc");
		break;
	case 4:
		*next = pipe ? fork_role(j, KB_AS, "gcc") : sl_act_wait();
		break;
	case 5:
		*next = pipe ? sl_act_wait() : fork_role(j, KB_AS, "gcc");
		break;
	case 6:
		*next = sl_act_wait();
		break;
	default:
		*next = sl_act_exit();
	}
}

static const struct sl_prog kb_gcc_prog = { .name = "kernbench-gcc", .step = gcc_step };

/* cc1: reads its sources (from the one disk, in turn, with io=), compiles,
 * and with -pipe writes the assembly a page at a time as it goes (function
 * at a time). */
enum { CC1_EXEC, CC1_DISK, CC1_IO, CC1_IO_DONE, CC1_SYS, CC1_COMPILE, CC1_WRITE, CC1_CLOSE,
       CC1_EXIT };

static void cc1_step(struct sl_sim *sim, struct sl_task *t, struct sl_action *next)
{
	struct kb_proc *p = t->prog_state;
	struct kb_job *j = p->job;
	double work = j->user[KB_CC1];

	switch (p->pc) {
	case CC1_EXEC:
		t->footprint_kb = j->cc1_footprint_kb;
		p->left = j->asm_bytes;
		p->pc = j->io_ns > 0 ? CC1_DISK : CC1_SYS;
		*next = sl_act_exec("cc1");
		return;
	case CC1_DISK:
		p->pc = CC1_IO;
		*next = sl_act_mutex(SL_ACT_LOCK, j->run->disk);
		return;
	case CC1_IO:
		p->pc = CC1_IO_DONE;
		*next = sl_act_io_wait(j->io_ns);
		return;
	case CC1_IO_DONE:
		p->pc = CC1_SYS;
		*next = sl_act_mutex(SL_ACT_UNLOCK, j->run->disk);
		return;
	case CC1_SYS:
		p->pc = CC1_COMPILE;
		*next = sl_act_sys(sys_for(j->run, work));
		return;
	case CC1_COMPILE:
		if (!j->run->pipe) {	/* the .s is a file: all the work, then exit */
			p->pc = CC1_EXIT;
			*next = sl_act_run(work, SL_WC_INT);
			return;
		}
		/* with -pipe it writes as it compiles */
		/* fall through */
	default:	/* CC1_COMPILE .. CC1_EXIT: write_pages' states */
		write_pages(sim, p, CC1_COMPILE, j->pipe, j->asm_bytes, work, SL_WC_INT, next);
	}
}

static const struct sl_prog kb_cc1_prog = { .name = "kernbench-cc1", .step = cc1_step };

/*
 * as: assembles the whole temporary file, or what arrives on the pipe a
 * buffer at a time.  gas fills its 32 KB input buffer with one fread()
 * (input-file.c), and stdio's fread does not return short on a pipe: it
 * calls read() until the buffer is full or at EOF (glibc's first read of
 * a stream fills stdio's own buffer, a pipe's st_blksize, PAGE_SIZE: 4 KB
 * on i386 and x86_64, 16 KB on ia64; the rest of the request is read
 * directly; seen with strace on binutils 2.40 on x86_64: read(0, 4096),
 * read(0, 28672), then read(0, 32768) each).  So as wakes at every page
 * cc1 writes, takes it, and sleeps again until the buffer is full.
 */
enum { AS_EXEC, AS_SYS, AS_READ, AS_GOT, AS_EXIT };

/* as's next read() of the pipe: glibc's first read of the stream fills
 * stdio's buffer of a page, the rest of gas's request goes straight to
 * read() */
static struct sl_action as_read(const struct sl_sim *sim, const struct kb_job *j,
				struct kb_proc *p)
{
	long want = p->reads++ == 0 ? sl_page_bytes(sim) : KB_AS_BUFFER - p->got;

	return sl_act_chan(SL_ACT_CHAN_READ, j->pipe, want);
}

static void as_step(struct sl_sim *sim, struct sl_task *t, struct sl_action *next)
{
	struct kb_proc *p = t->prog_state;
	struct kb_job *j = p->job;
	double work = j->user[KB_AS];

	(void)sim;
	switch (p->pc) {
	case AS_EXEC:
		t->footprint_kb = KB_FOOTPRINT_AS;
		p->pc = AS_SYS;
		*next = sl_act_exec("as");
		return;
	case AS_SYS:
		p->pc = AS_READ;
		*next = sl_act_sys(sys_for(j->run, work));
		return;
	case AS_READ:
		if (!j->run->pipe) {
			p->pc = AS_EXIT;
			*next = sl_act_run(work, SL_WC_INT);
			return;
		}
		p->pc = AS_GOT;
		*next = as_read(sim, j, p);
		return;
	case AS_GOT:
		if (t->result > 0) {
			p->got += t->result;
			if (p->got < KB_AS_BUFFER) {	/* fread reads on */
				*next = as_read(sim, j, p);
				return;
			}
		}
		if (p->got == 0) {	/* EOF: cc1 closed the pipe */
			*next = sl_act_exit();
			return;
		}
		/* a full buffer, or the last of the file: assemble it */
		p->pc = AS_READ;
		*next = sl_act_run(work * (double)p->got / (double)j->asm_bytes, SL_WC_INT);
		p->got = 0;
		return;
	default:
		*next = sl_act_exit();
	}
}

static const struct sl_prog kb_as_prog = { .name = "kernbench-as", .step = as_step };

/* ---- parameters ---- */

#define KB_DEFAULT_SIZE "178"

static const struct sl_param_def kb_params[] = {
	{ "jobs", SL_PARAM_INT, NULL, 0, 100000, NULL,
	  "make -j N; 0 = unlimited (make -j); default 2 x logical CPUs (Bligh's N)" },
	{ "target", SL_PARAM_CHOICE, "vmlinux", 0, 0, "vmlinux|bzimage",
	  "what make builds: bzimage adds objcopy, gzip -9 and the boot image links" },
	{ "pipe", SL_PARAM_INT, "1", 0, 1, NULL,
	  "gcc -pipe: cc1 | as concurrently (1, kbuild's default) or as after cc1 (0)" },
	{ "size", SL_PARAM_REAL, KB_DEFAULT_SIZE, 0.001, 1e7, NULL,
	  "reference CPU seconds of user work of the whole build (178: seed 000 at -j1)" },
	{ "units", SL_PARAM_INT, "1000", 1, KB_MAX_UNITS, NULL,
	  "compile units (objects) of the body" },
	{ "tree", SL_PARAM_INT, "1", 0, 2147483647, NULL,
	  "seed of the directory tree and unit sizes (fixed across repetitions)" },
	{ "jitter", SL_PARAM_REAL, "0.02", 0, 0.5, NULL,
	  "log-sd of per-job work variation from run to run (run seed)" },
	{ "sys", SL_PARAM_REAL, "0.053", 0, 5, NULL,
	  "kernel work per unit of user work, besides fork/exec/exit" },
	{ "head", SL_PARAM_REAL, NULL, 0, 50, NULL,
	  "percent of size in the head, before the directories (0: none; kbuild=2.6: one unit, then the rest at once); default 9.0 mean units of work (the real build's prepare)" },
	{ "tail", SL_PARAM_REAL, NULL, 0, 80, NULL,
	  "percent of size in the serial link tail (0: none, no link at all); default each step's "
	  "work by what it links" },
	{ "io", SL_PARAM_REAL, "0", 0, 100000, NULL,
	  "mean disk wait per compile unit, ms (0: source tree in the page cache)" },
	{ "vfork", SL_PARAM_INT, "1", 0, 1, NULL,
	  "make and gcc start their children with vfork(), the parent asleep until the child's exec "
	  "(1: make 3.80 and gcc 3.x), or with fork() (0)" },
	{ "kbuild", SL_PARAM_CHOICE, "2.6", 0, 0, "2.6|2.4|6",
	  "kbuild's generation: 2.6 (2.6.11's Makefile.build: a directory's objects and "
	  "subdirectories at once; per object gcc, fixdep, rm, mv); 2.4 (2.5's Rules.make: "
	  "subdirectories first, then objects); 6 (today's: as 2.6, without the mv)" },
	{ NULL, 0, NULL, 0, 0, NULL, NULL },
};

/* A share of size given as head= or tail=, or -1: the model's amount. */
static double share(const struct sl_params *p, const char *name)
{
	return sl_param_given(p, name) ? sl_param_real(p, name) / 100 : -1;
}

static int kb_validate(const struct sl_params *p, struct sl_err *err)
{
	double serial = (sl_param_given(p, "head") ? share(p, "head") : 0) +
			(sl_param_given(p, "tail") ? share(p, "tail") : 0);
	if (serial >= 0.95)
		return sl_fail(err, "workload 'kernbench': head + tail = %.1f%% of size, "
			       "expected less than 95%%", serial * 100);
	return 0;
}

/* ---- start and report ---- */

static void *sim_alloc(void *ctx, size_t size)
{
	return sl_sim_alloc(ctx, size);
}

/* Per-run: job work jitter and disk waits from the run seed (by job index,
 * independent of the schedule), channels, and the make states. */
static void prepare_run(struct sl_sim *sim, struct kb_run *run, double jitter, double io_ms)
{
	struct kb_tree *tree = &run->tree;
	struct sl_rng r;

	sl_rng_derive(&r, sl_seed(sim), KB_STREAM_RUN, 0);
	for (int i = 0; i < tree->njobs; i++) {
		struct kb_job *j = &tree->jobs[i];
		double f = exp(jitter * sl_rng_normal(&r));
		for (int role = 0; role < KB_NROLES; role++)
			j->user[role] *= f;
		for (int c = 0; c < j->ncmds; c++)
			j->cmd_user[c] *= f;
		j->run = run;
		if (j->kind == KB_JOB_STEP && j->asm_bytes > 0)	/* `a | b` */
			j->pipe = sl_pipe_new(sim, 0);
		if (j->kind != KB_JOB_UNIT)
			continue;
		if (io_ms > 0)
			j->io_ns = (sl_time)(sl_rng_exp(&r, io_ms) * 1e6) + 1;
		if (run->pipe)
			j->pipe = sl_pipe_new(sim, 0);
	}
	if (io_ms > 0)
		run->disk = sl_mutex_new_io(sim);
	for (int i = 0; i < tree->nmakes; i++) {
		tree->makes[i].run = run;
		tree->makes[i].bell = sl_chan_new(sim, KB_BELL_BYTES, false);
	}
}

/* The tree's shape as the parameters give it. */
static struct kb_shape kb_shape_of(const struct sl_params *p)
{
	return (struct kb_shape){
		.units = (int)sl_param_int(p, "units"),
		.tree_seed = (uint64_t)sl_param_int(p, "tree"),
		.target = (enum kb_target)sl_param_choice(p, "target"),
		.kbuild = (enum kb_kbuild)sl_param_choice(p, "kbuild"),
		.size_s = sl_param_real(p, "size"),
		.head_frac = share(p, "head"),
		.tail_frac = share(p, "tail"),
	};
}

static void *kb_start(struct sl_sim *sim, const struct sl_params *p, sl_time *limit_out)
{
	struct kb_run *run = sl_sim_alloc(sim, sizeof(*run));
	struct kb_shape shape = kb_shape_of(p);
	long jobs = sl_param_given(p, "jobs") ? sl_param_int(p, "jobs")
					      : 2L * sl_topo(sim)->ncpus;

	kb_tree_build(&run->tree, &shape, sim_alloc, sim);
	run->pipe = sl_param_int(p, "pipe") != 0;
	run->vfork = sl_param_int(p, "vfork") != 0;
	run->sys_ratio = sl_param_real(p, "sys");
	run->unlimited = jobs == 0;
	run->tokens_free = jobs > 0 ? (int)jobs - 1 : 0;
	prepare_run(sim, run, sl_param_real(p, "jitter"), sl_param_real(p, "io"));

	struct kb_make *root = &run->tree.makes[0];
	root->slots = 1;
	sl_sim_spawn_root(sim, &kb_make_prog, root, "make");
	*limit_out = 0;
	return run;
}

static void kb_report(struct sl_sim *sim, void *state, const struct sl_params *p,
		      struct sl_metrics *out)
{
	const struct kb_run *run = state;

	(void)sim;
	(void)p;
	sl_metrics_add(out, "processes", "count", (double)(run->forks + 1), 0);
	sl_metrics_add(out, "compile_units", "count", run->tree.shape.units, 0);
	sl_metrics_add(out, "max_jobs", "count", run->max_live_jobs, 0);
}

/* The tree's blocks, built aside to be counted (kb_mem). */
struct kb_block {
	struct kb_block *next;
	max_align_t data[];
};

struct kb_count {
	struct kb_block *blocks;
	uint64_t bytes;		/* what they cost as sl_sim_alloc blocks */
};

static void *count_alloc(void *ctx, size_t size)
{
	struct kb_count *c = ctx;
	struct kb_block *b = sl_xcalloc(1, sizeof(*b) + size);

	b->next = c->blocks;
	c->blocks = b;
	c->bytes = sl_sat_add(c->bytes, sl_sim_alloc_cost(size));
	return b->data;
}

/* The tree as kb_start builds it (built here and measured: its size
 * depends on the drawn directories), a channel per unit and per make,
 * and the processes alive at once: every make, and each job's processes
 * (every role: sh, the tool, cc1, as, fixdep, rm, mv) for as many jobs as -j
 * allows. */
static void kb_mem(const struct sl_params *p, const struct sl_topo *topo,
		   struct sl_mem_need *need)
{
	struct kb_shape shape = kb_shape_of(p);
	uint64_t jobs = sl_param_given(p, "jobs") ? (uint64_t)sl_param_int(p, "jobs")
						  : 2ULL * (uint64_t)topo->ncpus;
	struct kb_count c = { .blocks = NULL };
	struct kb_tree tree;

	kb_tree_build(&tree, &shape, count_alloc, &c);
	if (jobs == 0 || jobs > (uint64_t)tree.njobs)
		jobs = (uint64_t)tree.njobs;
	c.bytes = sl_sat_add(c.bytes, sl_sim_alloc_cost(sizeof(struct kb_run)));
	c.bytes = sl_sat_add(c.bytes, sl_sim_chans_cost((uint64_t)tree.njobs + (uint64_t)tree.nmakes));
	c.bytes = sl_sat_add(c.bytes, sl_sim_mutexes_cost(1));
	need->tasks = sl_sat_add(need->tasks, sl_sat_add((uint64_t)tree.nmakes,
							 sl_sat_mul(jobs, KB_NROLES)));
	need->bytes = sl_sat_add(need->bytes, c.bytes);
	while (c.blocks) {
		struct kb_block *next = c.blocks->next;
		free(c.blocks);
		c.blocks = next;
	}
}

/* No CPU runs faster than the reference: the build's user work alone
 * takes size / CPUs. */
static int kb_check(const struct sl_params *p, const struct sl_machine *m,
		    const struct sl_policy_ops *policy, struct sl_err *err)
{
	double size = sl_param_real(p, "size");
	char what[96];

	(void)policy;
	snprintf(what, sizeof(what), "size=%g s of work on %d CPU%s", size, m->topo.ncpus,
		 m->topo.ncpus > 1 ? "s" : "");
	return sl_workload_fits_horizon("kernbench", size / m->topo.ncpus, what, err);
}

const struct sl_workload_ops sl_workload_kernbench = {
	.name = "kernbench",
	.summary = "make -j N of a kernel: make's job server, sh/gcc/cc1/as/fixdep per object",
	.metric = "elapsed_s",
	.params = kb_params,
	.start = kb_start,
	.report = kb_report,
	.mem = kb_mem,
	.validate = kb_validate,
	.check = kb_check,
};
