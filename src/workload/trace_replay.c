/*
 * trace_replay.c - the `trace` workload (see trace_replay.h): a workload
 * JSON written by `schedlab trace import`, replayed.
 *
 * Model (docs/traces.md):
 *   - tasks without a parent in the file start at time 0 (as the run's
 *     roots, in file order); the others are forked by their parent's fork
 *     op, with the recorded comm and the class the recorded prio says: a
 *     prio of 100-139 is SCHED_NORMAL at nice prio - 120, one below 100 a
 *     real-time task of rt_priority 99 - prio (the kernel's p->prio,
 *     MAX_RT_PRIO - 1 - rt_priority, which sched_switch and sched_wakeup
 *     print), SCHED_FIFO by default: a trace does not tell FIFO from RR
 *     (`rt=`; `rt=nice` replays it at nice -20, as until Dec 2026).  A
 *     root takes its class with its first action (the engine spawns roots
 *     at nice 0), and any task the class a run's own "prio" says before
 *     that run (a renice, chrt or boost the trace showed);
 *   - "run": a CPU burst.  The recorded on-CPU time contains the recording
 *     kernel's own costs - switching in, cache refill, fork, exec, exit,
 *     scheduler work - which the simulator charges again by itself; so the
 *     replay issues as user work (work class `class=`) what remains of the
 *     recorded time after the costs the simulator charged this task since
 *     its last burst and during this one, and lets SMT, NUMA and
 *     preemption stretch the work as the machine and policy do
 *     (bursts=work), or runs every task at the reference speed whatever
 *     shares its core or memory (task->steady_speed), so that a burst
 *     keeps its recorded CPU time (bursts=time).  To see the costs as they come, a
 *     burst runs in pieces: each ends 1 ns past the next tick (what a
 *     policy charges the running task there is then taken out of the
 *     rest) and 1 ns past the end of its recorded on-CPU segment (so that
 *     on the recorded machine and policy the recorded preemption comes
 *     first and the rest resumes exactly as recorded); costs charged in
 *     the middle of a piece (a poke's schedule(), a lock spin) come out
 *     of its work, or of the exit's or fork's cost being paid
 *     (task->absorb_costs), so it still ends there.  The last burst
 *     before an exit leaves room for the simulator's exit cost (minus the
 *     exit path the trace shows after the exit event); costs a burst could
 *     not absorb are taken from the next; likewise the burst before a fork
 *     leaves room for the simulator's fork cost, which comes before the
 *     child exists (the recorded fork event is at the end of do_fork);
 *   - "sleep": a timed sleep (SLEEP, or IO_WAIT for 'D');
 *   - "wait" for task W: blocks on the task's own wakeup channel until W's
 *     matching "wake" op writes to it (wakeups=causal), or sleeps the
 *     recorded time (wakeups=timed);
 *   - "wait_child" C: wait() until child C has exited and been reaped;
 *     with "signal" the task catches SIGCHLD meanwhile, so C's exit wakes
 *     it plainly, and with "outside_wait" too it sleeps outside wait()
 *     until C has exited, reaping nothing (docs/traces.md);
 *   - "reap": wait() with WNOHANG where the trace shows the task entering
 *     wait() (sched_process_wait): an exited child is reaped there, as in
 *     the recording, and the policy's release_task credit comes then;
 *   - "fork", "exec", "exit": as recorded.
 * On the machine and policy a trace was recorded on (a schedlab run with
 * --trace; with bursts=time unless the tasks ran at the reference speed;
 * with a cache footprint `footprint=` that matches the recorded tasks'),
 * the replay reproduces each task's CPU time exactly and the elapsed time.
 * Channel wakeups are never sync wakeups (a trace does not say); a fork
 * op marked "thread" (the import saw the child in its parent's thread
 * group) forks a clone sharing the parent's address space.
 *
 * The file is read when the workload is parsed (validate: errors name the
 * file and the JSON place) and again by each run, into the run's memory:
 * trace_replay_load.c reads and checks it (trace_replay_model.h).
 */
#include "workload/trace_replay.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "base/memsize.h"
#include "sim/sim.h"
#include "workload/trace_replay_model.h"

#define RP_HAIR 1e-3		/* ns */

/* ---- the class a recorded prio says ---- */

/* `rt=`: a trace's prio says a task is real-time, not which class. */
enum rp_rt { RP_RT_FIFO, RP_RT_RR, RP_RT_NICE };

/* The class, RT priority and nice a task of recorded `prio` replays
 * with: 100-139 SCHED_NORMAL at nice prio - 120; below 100 rt_priority
 * 99 - prio in SCHED_FIFO or SCHED_RR, at nice 0 (an RT task's nice is
 * not in the trace, nor used while it is RT), or with rt=nice SCHED_NORMAL
 * at nice -20. */
static struct sl_sched_attr rp_attr(enum rp_rt rt, int prio)
{
	if (prio >= 100)
		return (struct sl_sched_attr){ .sched_policy = SL_SCHED_NORMAL, .nice = prio - 120 };
	if (rt == RP_RT_NICE)
		return (struct sl_sched_attr){ .sched_policy = SL_SCHED_NORMAL, .nice = -20 };
	return (struct sl_sched_attr){
		.sched_policy = rt == RP_RT_RR ? SL_SCHED_RR : SL_SCHED_FIFO,
		.rt_priority = SL_RT_PRIO_MAX - prio,
	};
}

/* ---- the run ---- */

struct rp_run;

struct rp_proc {
	struct rp_run *run;
	int index;		/* its task in the model */
	int id;			/* its simulated task's id once forked, else -1 */
	int pc;			/* next op */
	struct sl_chan *chan;	/* wakeups for it (causal) */
	struct sl_chan *sigchld;	/* caught SIGCHLDs outside wait() (causal) */
	int forking;		/* child being forked: its id comes back in result */
	bool waiting;		/* a wait() for a child is in flight */
	bool signalled;		/* a sleep for a child's SIGCHLD is in flight */
	bool reaping;		/* a reap op's wait(WNOHANG) is in flight */
	bool classed;		/* its recorded class checked (a root takes it then) */
	int classed_pc;		/* the run op whose own prio was last checked */
	/* accounting of CPU time against the recorded bursts (rp_account) */
	sl_time mark_cpu, mark_sys;
	double mark_work;
	long mark_preempt;
	bool in_piece;		/* the last action was a piece of a burst */
	bool op_open;		/* a burst is being replayed ... */
	int seg;		/* ... its segment ... */
	int paused;		/* ... paused in segment paused - 1 (0: not) ... */
	double consumed;	/* ... and its time so far, ns */
	double outside;		/* CPU time since the last burst: the simulator's costs */
	double fork_room;	/* of which the last burst left room for: a fork's cost */
	bool refill_due;	/* the piece starts with a cache refill to pay */
};

struct rp_run {
	struct rp_model m;
	struct rp_proc *procs;
	int *task_of_id;	/* sim task id -> model task */
	bool *reaped;
	enum sl_wclass wclass;
	unsigned footprint_kb;
	bool causal;
	bool as_time;		/* bursts=time */
	enum rp_rt rt;		/* what a real-time prio replays as */
	sl_time exit_ns;	/* the machine's exit cost */
	sl_time fork_ns;	/* and fork cost, paid before the child exists */
	sl_time switch_ns;	/* and a context switch with an O(1) pick */
};

/* Bring p's accounting up to date at a step: what the last piece of a
 * burst consumed (its work, the system time charged during it, and - if
 * it was preempted - the cache refill on its return), or else the CPU
 * time spent outside bursts, which the next burst owes. */
static void rp_account(struct rp_proc *p, const struct sl_task *t)
{
	sl_time cpu = t->user_ns + t->sys_ns;

	if (p->in_piece) {
		double work = t->work_done - p->mark_work;
		double sys = (double)(t->sys_ns - p->mark_sys);
		double user = (double)((cpu - t->sys_ns) - (p->mark_cpu - p->mark_sys));
		double over = sys;
		if (t->nivcsw != p->mark_preempt || p->refill_due) {
			double refill = user - work / sl_task_speed(t);
			if (refill > 0)
				over += refill;
		}
		/* pieces end on whole ns: keep no fractions from the work */
		p->consumed = floor(p->consumed + work + over + 0.5);
		p->in_piece = false;
	} else {
		p->outside += (double)(cpu - p->mark_cpu);
	}
	p->mark_cpu = cpu;
	p->mark_sys = t->sys_ns;
	p->mark_work = t->work_done;
	p->mark_preempt = t->nivcsw;
}

/*
 * Where in a recorded burst of `ns_before` ns plus an exit's (fork's) cost
 * that cost began, given the burst's `n` recorded preemptions (`ends`:
 * cumulative CPU ns) and the switch back after each (`sw`).  Each
 * preemption after the cost began put a switch back into the cost's part
 * of the burst, so it began k switches before `ns_before` for the k
 * preemptions at or after that point; and it cannot have begun inside a
 * switch back (the task's own work comes after those costs).  The first k
 * that agrees with itself; k = 0 if none.  (A preemption a little before
 * `ns_before`, whose switch back the burst's tail cannot hold, is one the
 * cost began before.)
 */
static double rp_cost_start(const sl_time *ends, int n, double ns_before, double sw)
{
	/* the ends ascend, and the start only moves down as k grows: `first`
	 * (the first end at or after the start) walks down once, O(n) in all,
	 * as a burst cut into pieces asks again at each piece */
	int first = n;

	for (int k = 0; k <= n; k++) {
		double start = ns_before - k * sw;
		while (first > 0 && (double)ends[first - 1] >= start)
			first--;
		bool inside = first > 0 && (double)ends[first - 1] > start - sw;
		if (n - first == k && !inside)
			return start;
	}
	return ns_before;
}

/* The next piece of the burst `op`: true with *next set, false when the
 * burst is complete.  A piece ends 1 ns past the recorded end of its
 * segment (so a recorded preemption there comes first) and 1 ns past the
 * task's CPU's next tick (so what the policy charges the running task at the tick is
 * seen and taken out of the rest). */
static bool rp_burst(struct rp_run *run, struct rp_proc *p, const struct sl_task *t,
		     const struct rp_op *op, const struct rp_op *after, sl_time now,
		     sl_time next_tick, struct sl_action *next)
{
	const struct rp_model *m = &run->m;
	double speed = sl_task_speed(t);
	double pending = sl_task_costs_owed(t);	/* ref ns, paid first */
	double refill = sl_task_refill_owed(t);	/* paid with the work, up to as much */
	double exit_room = 0, end = 0;
	int nseg = op->nseg ? op->nseg : 1;

	if (!p->op_open) {
		p->op_open = true;
		p->consumed = p->outside;
		p->outside = 0;
		p->seg = 0;
		p->paused = 0;
	}
	if (after && after->kind == RP_EXIT) {	/* the engine rounds a burst up to the ns */
		double exit_time = ceil((double)run->exit_ns / speed);
		if (exit_time > (double)after->ns)
			exit_room = exit_time - (double)after->ns;
	} else if (after && after->kind == RP_FORK) {
		/* the fork's cost comes before the child exists: the
		 * recorded burst ends with it */
		exit_room = ceil((double)run->fork_ns / speed);
	}
	double total = (double)op->ns - exit_room;
	if (exit_room > 0 && op->nseg)
		total = rp_cost_start(m->segs + op->seg0, nseg - 1, total,
				      ceil((double)run->switch_ns / speed));
	for (; p->seg < nseg; p->seg++) {
		bool last = p->seg == nseg - 1;
		end = op->nseg ? (double)m->segs[op->seg0 + p->seg] : (double)op->ns;
		end = last ? total : fmin(end + 1.0, total);
		double left = end - p->consumed;	/* ns of CPU time */
		/* Short of a segment's end, a piece is due even if the costs
		 * charged cover the rest: the recorded preemption may come
		 * before they are paid (a fork's child taking the CPU). */
		if (last ? left - pending / speed < 1.0 : left <= 0)
			continue;
		double to_tick = (double)(next_tick - now + 1);
		if (left > to_tick)
			left = to_tick;
		/* work need not be whole ns: aim a hair short of `left`, which
		 * the engine rounds up to the ns */
		double avail = left * speed - pending - RP_HAIR;
		double work = avail >= 2 * refill ? avail - refill : avail / 2;
		if (work < 1.0) {
			/* the costs cover it: pay them, and let a preemption
			 * due here come; if none came, on to the next segment */
			if (pending <= 0 && p->paused == p->seg + 1)
				continue;
			p->paused = p->seg + 1;
			*next = (struct sl_action){ .kind = SL_ACT_PAY_COSTS };
		} else {
			*next = sl_act_run(work, run->wclass);
		}
		p->in_piece = true;
		p->refill_due = refill > 0;
		return true;
	}
	/* What it overran (costs it could not take out) the next burst takes
	 * out; costs charged but unpaid belong to this one, though paid later. */
	double unpaid = pending / speed;
	p->outside = (p->consumed + unpaid > end ? p->consumed + unpaid - end : 0) - unpaid;
	p->op_open = false;
	/* the fork's cost, and the switches back from preemptions while it
	 * was paid (rp_cost_start), come after the burst: the time they take
	 * is the fork's, not the next burst's */
	p->fork_room = after && after->kind == RP_FORK ? (double)op->ns - total : 0;
	return false;
}

/* A wait() reaped the task with sim id `id` (< 0: none): remember it. */
static void rp_note_reaped(struct rp_run *run, int id)
{
	if (id >= 0 && id < run->m.ntasks && run->task_of_id[id] >= 0)
		run->reaped[run->task_of_id[id]] = true;
}

/* wait() until the child of `op` is reaped: true with *next set. */
static bool rp_wait_child(struct rp_run *run, struct rp_proc *p, const struct sl_task *t,
			  const struct rp_op *op, struct sl_action *next)
{
	if (p->waiting) {
		p->waiting = false;
		if (t->result < 0)
			return false;		/* no children left */
		rp_note_reaped(run, t->result);
	}
	if (run->reaped[op->arg])
		return false;
	p->waiting = true;
	*next = sl_act_wait();
	return true;
}

/* Whether the child of `op` has exited: reaped, or a zombie of t. */
static bool rp_child_exited(const struct rp_run *run, const struct sl_task *t,
			    const struct rp_op *op)
{
	if (run->reaped[op->arg])
		return true;
	return sl_task_has_zombie(t, run->procs[op->arg].id);
}

/* Sleep outside wait() until the child of `op` has exited, woken by its
 * SIGCHLD (make's read of its job server): true with *next set.  While it
 * sleeps t catches SIGCHLD with its own channel as the handler's trace:
 * the exit puts a byte there and wakes it plainly (sl_task_catch_sigchld).
 * Another child's exit wakes it too, and it sleeps on. */
static bool rp_wait_signal(struct rp_run *run, struct rp_proc *p, struct sl_task *t,
			   const struct rp_op *op, struct sl_action *next)
{
	if (p->signalled) {
		p->signalled = false;
		sl_task_catch_sigchld(t, false, NULL);
	}
	if (rp_child_exited(run, t, op))
		return false;
	p->signalled = true;
	sl_task_catch_sigchld(t, true, p->sigchld);
	*next = sl_act_chan(SL_ACT_CHAN_READ, p->sigchld, run->m.tasks[p->index].nops + 1L);
	return true;
}

/* wait_child: in wait(), woken by the exit's parent wakeup, or by the
 * SIGCHLD the task catches (op->signal: plainly); outside wait(), by the
 * signal (rp_wait_signal).  True with *next set. */
static bool rp_wait_for_child(struct rp_run *run, struct rp_proc *p, struct sl_task *t,
			      const struct rp_op *op, struct sl_action *next)
{
	if (op->outside_wait)
		return rp_wait_signal(run, p, t, op, next);
	sl_task_catch_sigchld(t, op->signal, NULL);
	if (rp_wait_child(run, p, t, op, next))
		return true;
	sl_task_catch_sigchld(t, false, NULL);
	return false;
}

/* A sleep or I/O wait op, written in place (sim/action.h says why). */
static void timed(struct sl_action *a, const struct rp_op *op)
{
	if (op->io)
		*a = sl_act_io_wait(op->ns);
	else
		*a = sl_act_sleep(op->ns);
}

static void rp_step(struct sl_sim *sim, struct sl_task *t, struct sl_action *next);

/* The task takes the class a recorded `prio` says, if it is not in it:
 * true with the setsched action in *next. */
static bool rp_setsched_to(const struct rp_run *run, const struct sl_task *t, int prio,
			   struct sl_action *next)
{
	struct sl_sched_attr a = rp_attr(run->rt, prio);

	if (a.sched_policy == t->sched_policy && a.rt_priority == t->rt_priority &&
	    a.nice == t->nice)
		return false;
	*next = (struct sl_action){
		.kind = SL_ACT_SETSCHED,
		.u.setsched = { .sched_policy = a.sched_policy, .rt_priority = a.rt_priority,
				.nice = a.nice },
	};
	return true;
}

static const struct sl_prog rp_prog = { .name = "trace", .step = rp_step };

static void rp_step(struct sl_sim *sim, struct sl_task *t, struct sl_action *next)
{
	struct rp_proc *p = t->prog_state;
	struct rp_run *run = p->run;
	const struct rp_task *rt = &run->m.tasks[p->index];

	rp_account(p, t);
	t->footprint_kb = run->footprint_kb;
	t->steady_speed = run->as_time;
	/* costs charged while it runs come out of its work, or of the exit's
	 * or fork's cost it is paying: its recorded time held them */
	t->absorb_costs = true;
	if (p->forking >= 0) {
		if (t->result >= 0 && t->result < run->m.ntasks)
			run->task_of_id[t->result] = p->forking;
		run->procs[p->forking].id = (int)t->result;
		p->forking = -1;
		/* the fork's cost was taken out of the burst before it */
		p->outside -= p->fork_room;
		p->fork_room = 0;
	}
	if (p->reaping) {		/* the reap op's wait(WNOHANG) returned */
		p->reaping = false;
		rp_note_reaped(run, t->result);
	}
	if (!p->classed) {
		/* a root was spawned at nice 0; a forked task has its class */
		p->classed = true;
		if (rp_setsched_to(run, t, rt->prio, next))
			return;
	}
	while (p->pc < rt->nops) {
		const struct rp_op *op = &run->m.ops[rt->op0 + p->pc];
		/* the op a burst ends at: reaps take no time and charge no cost */
		const struct rp_op *after = op + 1, *end = run->m.ops + rt->op0 + rt->nops;
		while (after < end && after->kind == RP_REAP)
			after++;
		if (after == end)
			after = NULL;
		const struct rp_task *c;
		struct sl_sched_attr attr;

		switch (op->kind) {
		case RP_RUN:
			/* a run at another prio than the one before it: the
			 * task changes class or nice first (a renice, chrt,
			 * a priority boost the trace showed since) */
			if (op->prio >= 0 && p->classed_pc != p->pc) {
				p->classed_pc = p->pc;
				if (rp_setsched_to(run, t, op->prio, next))
					return;
			}
			if (rp_burst(run, p, t, op, after, sl_now(sim), sl_next_tick(sim, t->cpu),
				     next))
				return;
			break;
		case RP_SLEEP:
			p->pc++;
			timed(next, op);
			return;
		case RP_WAIT:
			p->pc++;
			if (run->causal)
				*next = sl_act_chan(SL_ACT_CHAN_READ, p->chan, 1);
			else
				timed(next, op);
			return;
		case RP_WAIT_CHILD:
			if (!run->causal) {
				p->pc++;
				timed(next, op);
				return;
			}
			if (rp_wait_for_child(run, p, t, op, next))
				return;
			break;
		case RP_WAKE:
			if (!run->causal)
				break;
			p->pc++;
			*next = sl_act_chan(SL_ACT_CHAN_WRITE, run->procs[op->arg].chan, 1);
			/* a wakeup the task slept right after, as a pipe read
			 * that wakes its writer and waits on for more: one
			 * system call, no return to user space between them
			 * (the recording shows no preemption there) */
			next->u.chan.more = after && (after->kind == RP_WAIT ||
						      after->kind == RP_WAIT_CHILD ||
						      after->kind == RP_SLEEP);
			return;
		case RP_FORK:
			p->pc++;
			p->forking = op->arg;
			c = &run->m.tasks[op->arg];
			attr = rp_attr(run->rt, c->prio);
			*next = (struct sl_action){
				.kind = SL_ACT_FORK,
				.u.fork = { .prog = &rp_prog, .state = &run->procs[op->arg],
					    .comm = c->comm, .set_nice = true, .nice = attr.nice,
					    .set_sched = true, .sched_policy = attr.sched_policy,
					    .rt_priority = attr.rt_priority, .vfork = op->vfork,
					    .thread = op->thread },
			};
			return;
		case RP_EXEC:
			p->pc++;
			*next = sl_act_exec(run->m.comms[op->comm]);
			return;
		case RP_EXIT:
			p->pc++;
			*next = sl_act_exit();
			return;
		case RP_REAP:
			p->pc++;
			p->reaping = true;
			*next = sl_act_reap();
			return;
		}
		p->pc++;
	}
	*next = sl_act_exit();	/* a checked model ends with exit: not reached */
}

/* ---- the workload ---- */

static const enum sl_wclass rp_classes[] = {
	SL_WC_INT, SL_WC_FP, SL_WC_MEM, SL_WC_CACHE, SL_WC_SPIN,
};

static const struct sl_param_def rp_params[] = {
	{ "file", SL_PARAM_STRING, NULL, 0, 0, NULL,
	  "workload JSON written by 'schedlab trace import' (required)" },
	{ "class", SL_PARAM_CHOICE, "int", 0, 0, "int|fp|mem|cache|spin",
	  "work class of the bursts (a trace does not say)" },
	{ "footprint", SL_PARAM_INT, "0", 0, 1 << 24, NULL,
	  "cache footprint of every task, KB (a trace does not say; 0: half the L2)" },
	{ "bursts", SL_PARAM_CHOICE, "work", 0, 0, "work|time",
	  "work: a burst is work, slowed by SMT/NUMA here; time: it keeps its recorded CPU time" },
	{ "wakeups", SL_PARAM_CHOICE, "causal", 0, 0, "causal|timed",
	  "causal: a task woken by another waits for it; timed: sleeps its recorded time" },
	{ "rt", SL_PARAM_CHOICE, "fifo", 0, 0, "fifo|rr|nice",
	  "class of a task recorded at a real-time prio (below 100; a trace does not say "
	  "which): fifo, rr, or nice (SCHED_NORMAL at nice -20)" },
	{ NULL, 0, NULL, 0, 0, NULL, NULL },
};

static int rp_validate(const struct sl_params *params, struct sl_err *err)
{
	struct rp_mem mem = { 0 };
	struct rp_model m;

	if (!sl_param_given(params, "file"))
		return sl_fail(err, "workload 'trace': missing file=WORKLOAD.json (write one with "
			       "'schedlab trace import')");
	int rc = rp_model_load(sl_param_str(params, "file"), &mem, &m, err);
	rp_mem_free(&mem);
	if (rc)
		sl_err_prefix(err, "workload 'trace': ");
	return rc;
}

static void *rp_start(struct sl_sim *sim, const struct sl_params *params, sl_time *limit_out)
{
	struct rp_run *run = sl_sim_alloc(sim, sizeof(*run));
	struct rp_mem mem = { .sim = sim };
	struct sl_err err = { 0 };

	*limit_out = 0;
	sl_sim_set_program_source(sim, sl_param_str(params, "file"));
	run->wclass = rp_classes[sl_param_choice(params, "class")];
	run->footprint_kb = (unsigned)sl_param_int(params, "footprint");
	run->causal = sl_param_choice(params, "wakeups") == 0;
	run->as_time = sl_param_choice(params, "bursts") == 1;
	run->rt = (enum rp_rt)sl_param_choice(params, "rt");
	run->exit_ns = sl_cost_exit(sim);
	run->fork_ns = sl_cost_fork(sim);
	run->switch_ns = sl_cost_ctx_switch(sim) + sl_cost_pick(sim);
	if (rp_model_load(sl_param_str(params, "file"), &mem, &run->m, &err)) {
		/* The file changed since the workload was checked: run nothing. */
		memset(&run->m, 0, sizeof(run->m));
		return run;
	}
	int n = run->m.ntasks;
	run->procs = sl_sim_alloc(sim, sizeof(*run->procs) * (size_t)n);
	run->task_of_id = sl_sim_alloc(sim, sizeof(int) * (size_t)n);
	run->reaped = sl_sim_alloc(sim, sizeof(bool) * (size_t)n);
	for (int i = 0; i < n; i++) {
		struct rp_proc *p = &run->procs[i];
		p->run = run;
		p->index = i;
		p->forking = -1;
		p->classed_pc = -1;
		p->id = -1;
		run->task_of_id[i] = -1;
		if (run->causal && run->m.tasks[i].wakes)
			p->chan = sl_chan_new(sim, run->m.tasks[i].wakes + 1L, false);
		if (run->causal && run->m.tasks[i].signals)
			p->sigchld = sl_chan_new(sim, run->m.tasks[i].nops + 1L, false);
	}
	for (int i = 0; i < n; i++) {
		if (run->m.tasks[i].parent >= 0)
			continue;
		struct sl_task *t = sl_sim_spawn_root(sim, &rp_prog, &run->procs[i],
						      run->m.tasks[i].comm);
		if (t->id < n)
			run->task_of_id[t->id] = i;
		run->procs[i].id = t->id;
	}
	return run;
}

/* The classes the file's tasks replay in (the sweep refuses a policy
 * without them before the run): read again, as rtapp's are. */
static unsigned rp_sched_classes(const struct sl_params *params)
{
	enum rp_rt rt = (enum rp_rt)sl_param_choice(params, "rt");
	struct rp_mem mem = { 0 };
	struct sl_err err = { 0 };
	struct rp_model m;
	unsigned mask = 0;

	if (rt == RP_RT_NICE)
		return 0;
	if (rp_model_load(sl_param_str(params, "file"), &mem, &m, &err) == 0) {
		for (int i = 0; i < m.ntasks; i++)
			mask |= 1u << rp_attr(rt, m.tasks[i].prio).sched_policy;
		for (int i = 0; i < m.nops; i++)	/* and the runs' own */
			if (m.ops[i].kind == RP_RUN && m.ops[i].prio >= 0)
				mask |= 1u << rp_attr(rt, m.ops[i].prio).sched_policy;
	}
	rp_mem_free(&mem);
	return mask;
}

/* Loading (the text, its JSON tree: rp_check_json's count of the file
 * as it is now) or the run: every object of the file could be a task
 * (each of which is at least one), or an op. */
static void rp_mem(const struct sl_params *params, const struct sl_topo *topo,
		   struct sl_mem_need *need)
{
	uint64_t objects, transient, model;

	(void)topo;
	if (!rp_file_scan(sl_param_str(params, "file"), &objects, &transient))
		return;		/* validate refused it already */
	model = sl_sat_add(sl_sat_mul(objects, sizeof(struct rp_task) + sizeof(struct rp_op) +
				      sizeof(struct rp_proc) + sizeof(int) + sizeof(bool) +
				      sizeof(struct sl_chan *) + 2 * sizeof(sl_time)),
			   sl_sim_chans_cost(objects));
	/* the model is built while the tree is still there */
	need->transient = sl_sat_add(transient, model);
	need->tasks = sl_sat_add(need->tasks, objects);
	need->bytes = sl_sat_add(need->bytes, model);
}

static void rp_report(struct sl_sim *sim, void *state, const struct sl_params *params,
		      struct sl_metrics *out)
{
	const struct rp_run *run = state;

	(void)sim;
	(void)params;
	sl_metrics_add(out, "tasks", "count", run->m.ntasks, 0);
	sl_metrics_add(out, "recorded_cpu_s", "s", run->m.recorded_cpu / 1e9, 0);
	sl_metrics_add(out, "recorded_elapsed_s", "s", sl_ns_to_s(run->m.duration), 0);
}

const struct sl_workload_ops sl_workload_trace = {
	.name = "trace",
	.summary = "a scheduling trace imported by 'schedlab trace import', replayed",
	.metric = "elapsed_s",
	.params = rp_params,
	.start = rp_start,
	.report = rp_report,
	.mem = rp_mem,
	.validate = rp_validate,
	.sched_classes = rp_sched_classes,
};
