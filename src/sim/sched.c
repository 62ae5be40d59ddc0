/*
 * sched.c - the CPU side of the engine: schedule(), context switches, and
 * the progress of running tasks under the speed model.
 *
 * A running task works through, in order, its kernel debt (context switch,
 * fork/exec/exit costs, scheduler overhead: system time), its cache refill
 * debt (user time: stalls after a migration) and the work of its current
 * action.  It progresses at speed = smt x numa (hw/speed.h).  Whenever a
 * sibling starts or stops, or a task moves, the affected CPUs are settled
 * (progress and accounting brought up to now) and their completion events
 * re-timed - the pattern of the SimSo simulator (M. Chéramy et al.,
 * "SimSo: a simulation tool to evaluate real-time multiprocessor
 * scheduling algorithms", WATERS 2014), whose speed changes re-time
 * pending completions.
 *
 * Kernel memory (docs/model.md "Kernel memory"): on a machine whose kernel
 * memory lives on one node (model->kernel_node >= 0: i386 NUMA-Q, where
 * only node 0 has lowmem), kernel work - the debt and system-time actions -
 * is a phase of its own: it runs at the NUMA speed of the kernel's node
 * and draws on that node's bandwidth (t->kmem; who draws on which node,
 * and the re-timing when a node's contention changes: bandwidth.c).  A burst whose debt comes
 * before user work ends at the debt (the phase end), and the work then
 * runs at the task's own speed.  Elsewhere kernel work runs at its task's
 * speed, as one burst.
 *
 * Kernel exits (docs/engine.md): under SL_PREEMPT_NONE a reschedule that
 * finds the running task in kernel work waits for its return to user
 * space; its burst then ends there too (burst_at_debt), and the event loop
 * acts on need_resched after it.
 */
#include <math.h>
#include <stdlib.h>

#include "base/minmax.h"
#include "sim/internal.h"

static enum sl_migr_level migr_level(const struct sl_topo *topo, int from, int to)
{
	if (from < 0 || topo->cpu_core[from] == topo->cpu_core[to])
		return SL_MIGR_NONE;
	if (topo->cpu_llc[from] == topo->cpu_llc[to])
		return SL_MIGR_CORE;
	if (topo->cpu_node[from] == topo->cpu_node[to])
		return SL_MIGR_PACKAGE;
	return SL_MIGR_NODE;
}

/* llround without the library call (it is on the path of every
 * re-timing; fmin is sl_min_d, base/minmax.h): the same values for the
 * finite, non-negative numbers it sees here.  A double minus its integer
 * part is exact, so rounding half away from zero needs no addition of 0.5
 * (which rounds 0.49999999999999994 up). */
static inline sl_time round_ns(double x)
{
	sl_time i = (sl_time)x;
	return x - (double)i >= 0.5 ? i + 1 : i;
}

static inline unsigned task_footprint(const struct sl_sim *sim, const struct sl_task *t)
{
	return t->footprint_kb ? t->footprint_kb : sim->topo->l2_kb / 2;
}

/* The share of its touches a task touching `fp_kb` at random misses in a
 * cache of `cache_kb` at steady state. */
static inline double random_miss_floor(unsigned fp_kb, unsigned cache_kb)
{
	return fp_kb > cache_kb ? 1.0 - (double)cache_kb / (double)fp_kb : 0.0;
}

/* What the current burst must get through: the kernel debt, the work,
 * and as much refill as the work touches (see sl__settle). */
static inline double outstanding(const struct sl_task *t)
{
	return t->debt_sys + t->work_left + sl_min_d(t->debt_user, t->work_left);
}

/* Whether t's next progress is kernel work against the kernel's own
 * memory: its debt, or a system-time action, on a machine whose kernel
 * memory lives on one node. */
static inline bool kernel_phase_at(int kernel_node, const struct sl_task *t)
{
	return kernel_node >= 0 && !t->steady_speed &&
	       (t->debt_sys > 0 || (t->act_sys && t->work_left > 0));
}

static bool kernel_phase(const struct sl_sim *sim, const struct sl_task *t)
{
	return kernel_phase_at(sim->model->kernel_node, t);
}

/* The KB of its footprint fp that t, running since its dispatch, has
 * touched by now: what sl__settle_work settles into curr_touched_kb, and
 * evicted_now reads ahead of it for a sibling's task.  The model's rate is
 * a copy in sim (settle_cache): the walks that inline this read it from
 * the sim they hold in a register, where the stores of each settle made
 * them load the model's pointer again at every CPU. */
static inline double touched_by_now(const struct sl_sim *sim, const struct sl_task *t,
				    unsigned fp)
{
	return sl_cache_touched_kb_at(sim->settle_cache.touch_kb_per_ms,
				      sim->now - t->dispatched_at, fp);
}

/* Bring c's running task's progress and accounting up to sim->now, `wall`
 * after c->seg_start (sl__settle, internal.h, has moved seg_start). */
void sl__settle_work(struct sl_sim *sim, struct sl_cpu *c, sl_time wall)
{
	struct sl_task *t = c->curr;
	unsigned fp = task_footprint(sim, t);

	/* The lines t brings in displace those of tasks that left this
	 * core's L2 (this CPU or an SMT sibling): of what it touches, only
	 * the part that was missing (a line still in the cache is hit, and
	 * evicts nothing).  Once t has touched its
	 * whole footprint it touches nothing new (what it touched only grows
	 * with its time here), and the sums would add 0. */
	if (c->curr_touched_kb != (double)fp) {
		double touched = touched_by_now(sim, t, fp);
		sim->core_evicted_kb[c->core] += (touched - c->curr_touched_kb) * c->curr_miss;
		/* read only where a last-level cache lies beyond the L2 (a
		 * copy in sim too) */
		if (sim->settle_cache.llc_beyond_l2)
			sim->llc_evicted_kb[sim->topo->cpu_llc[c->id]] +=
				(touched - c->curr_touched_kb) * c->curr_llc_miss;
		c->curr_touched_kb = touched;
	}
	if (c->node < 4)
		t->node_ns[c->node] += wall;

	/* A lock's spin first: wall time, system time, no progress. */
	sl_time spun = 0;
	if (t->stall_ns > 0) {
		spun = wall < t->stall_ns ? wall : t->stall_ns;
		t->stall_ns -= spun;
		wall -= spun;
		t->sys_ns += spun;
		c->stats.sys_ns += spun;
	}
	/* Split the wall time over the three kinds of outstanding work. */
	double progress = (double)wall * t->speed;
	double sys_work = 0, user_work = 0;
	double d = sl_min_d(progress, t->debt_sys);
	t->debt_sys -= d;
	sys_work += d;
	progress -= d;
	/* Refill stalls come with the work that touches the lines, not
	 * before it: while both remain, half the progress goes to each (a
	 * cold task runs at half speed), then the work runs alone.  Lines
	 * no work touches cost nothing: a task that wakes only to block
	 * again does not refill its whole footprint first, and one preempted
	 * again and again before its cache is back still gets work done (and
	 * is never slower than half speed), as on real hardware.
	 * Most settles of chat, tbench and dbench find no refill owed (a
	 * task back on a warm cache, or past its refill): the split is
	 * then skipped, for the values it would give bit for bit (progress
	 * >= 0 and work left > 0, so the refill is a zero, whose sum with the
	 * work is the work, and the debt is left +0, as x - x leaves it). */
	double work;
	if (t->debt_user == 0 && t->work_left > 0) {
		work = sl_min_d(t->work_left, progress);
		t->debt_user = 0;
	} else {
		double refill = sl_min_d(progress / 2, sl_min_d(t->debt_user, t->work_left));
		work = refill + sl_min_d(t->work_left - refill, progress - 2 * refill);
		t->debt_user -= refill;
		user_work += refill;
	}
	d = work;
	t->work_left -= d;
	t->work_done += d;
	if (t->touching)
		sl__touch_progress(t, c->node, d);
	if (t->act_sys)
		sys_work += d;
	else
		user_work += d;

	double total = sys_work + user_work;
	/* All of it one kind (most settles): the division would give wall
	 * or 0 (wall * s / s is within an ulp or two of wall, below 2^50) */
	sl_time sys_wall = user_work == 0 && total > 0 ? wall
			 : sys_work == 0 ? 0
			 : round_ns((double)wall * sys_work / total);
	if (total <= 0)	/* only possible at speed 0: charge by action kind */
		sys_wall = t->act_sys ? wall : 0;
	t->sys_ns += sys_wall;
	t->user_ns += wall - sys_wall;
	c->stats.work += sys_work + user_work;
	c->stats.sys_ns += sys_wall;
	c->stats.user_ns += wall - sys_wall;
}

/* What sibling CPU sc runs as the SMT model sees it, in *cls: its task's
 * work class, or INT while its migration thread runs; false if it idles. */
static inline bool sibling_class(const struct sl_cpu *sc, enum sl_wclass *cls)
{
	if (sc->curr)
		*cls = sc->curr->wclass;
	else if (sc->in_migration)
		*cls = SL_WC_INT;
	else
		return false;
	return true;
}

/* The SMT factor of c's running task t from what c's siblings run, on a
 * core of three or more threads (task_speed reads a two-thread core's
 * pair table itself: the same number, without the walk, 6 % of a chat
 * run on xeon-1600ht): out of line, so that the speed of a task alone on
 * its core (every CPU of a machine without SMT) needs no frame for the
 * classes. */
static __attribute__((noinline)) double smt_speed(struct sl_sim *sim, const struct sl_cpu *c,
						  const struct sl_task *t)
{
	enum sl_wclass others[8];
	int n = 0;

	for (int k = sim->core_first[c->core], end = sim->core_first[c->core + 1]; k < end; k++) {
		int s = sim->core_cpus[k];
		if (s != c->id && n < 8 && sibling_class(&sim->cpus[s], &others[n]))
			n++;
	}
	return n ? sl_speed_smt(sim->model, t->wclass, others, n) : 1.0;
}

/* The NUMA factor of running task t on node `run` where its memo has no
 * entry for the contention now, or holds none (split memory, machines
 * beyond the memo): computed, and remembered.  Out of line, so that
 * task_speed, inlined where a completion is timed, is the memo's read
 * (the call and its saved registers were a fifth of task_speed's
 * instructions, 5.8 % of a chat run's). */
/* The memo's speed for contention `cont`, computed by `fresh` on a miss
 * (kept as the newest, the older of the two dropped): exact, since a
 * speed is a function of the contention alone for a given memo slot. */
static inline double memo_speed(struct sl_speed_memo *m, double cont, double fresh)
{
	m->cont[1] = m->cont[0];
	m->speed[1] = m->speed[0];
	m->cont[0] = cont;
	m->speed[0] = fresh;
	return fresh;
}

static __attribute__((noinline)) double numa_factor(struct sl_sim *sim, const struct sl_task *t,
						    int run)
{
	if (t->kmem) {
		double cont = sim->node_cont[sim->model->kernel_node];
		return memo_speed(&sim->kspeed[run], cont,
				  sl_speed_numa_kernel(sim->model, run, cont));
	}
	if (t->mem_split)
		return sl_speed_numa_mix(sim->model, t->wclass, run, t->mem_split->part,
					 t->mem_split->n, sim->node_cont);
	double cont = sim->node_cont[t->home_node];
	if (!sim->uspeed)
		return sl_speed_numa(sim->model, t->wclass, run, t->home_node, cont);
	struct sl_speed_memo *m = &sim->uspeed[((size_t)t->home_node * sim->topo->nnodes +
						(size_t)run) * SL_WC_COUNT + t->wclass];
	return memo_speed(m, cont, sl_speed_numa(sim->model, t->wclass, run, t->home_node, cont));
}

/* The memo's speed at contention `cont`, or the factor worked out. */
static inline double memo_or_factor(struct sl_sim *sim, const struct sl_speed_memo *m,
				    double cont, const struct sl_task *t, int run)
{
	if (m->cont[0] == cont)
		return m->speed[0];
	if (m->cont[1] == cont)
		return m->speed[1];
	return numa_factor(sim, t, run);
}

static inline __attribute__((always_inline)) double task_speed(struct sl_sim *sim,
								  struct sl_cpu *c)
{
	struct sl_task *t = c->curr;

	if (t->steady_speed)
		return 1.0;
	double speed = 1.0;
	enum sl_wclass other;
	if (c->sibling >= 0) {
		/* two siblings: the pair table, as smt_speed's one-other case */
		if (sibling_class(&sim->cpus[c->sibling], &other))
			speed = sim->model->smt_pair[t->wclass][other];
	} else if (!c->alone) {
		speed = smt_speed(sim, c, t);
	}
	/* One node without a bandwidth limit (xeon-1600ht): each factor
	 * below is of memory on the node it runs on (r = 1) at contention 1,
	 * which sl_speed_numa and sl_speed_numa_kernel give as 1.0 exactly;
	 * x * 1.0 is x.  Only a split's sum of shares may differ from 1. */
	if (sim->numa_flat && !t->mem_split)
		return speed > 1e-6 ? speed : 1e-6;
	int run = c->node;
	if (t->kmem) {
		speed *= memo_or_factor(sim, &sim->kspeed[run],
					sim->node_cont[sim->model->kernel_node], t, run);
	} else if (t->mem_split || (t->home_node >= 0 && !sim->uspeed)) {
		speed *= numa_factor(sim, t, run);
	} else if (t->home_node >= 0) {
		const struct sl_speed_memo *m = &sim->uspeed[((size_t)t->home_node * sim->topo->nnodes +
							      (size_t)run) * SL_WC_COUNT + t->wclass];
		speed *= memo_or_factor(sim, m, sim->node_cont[t->home_node], t, run);
	}
	return speed > 1e-6 ? speed : 1e-6;
}

/*
 * (Re)time c's completion event from its outstanding work.
 *
 * Deferred: a CPU is often re-timed several times at one instant (its
 * node's contention changes, a sibling starts, the scheduler charges it),
 * and only the last re-timing counts.  So the work owed is taken here,
 * with the event's place among equal times (`seq`, or with SEQ_NOW the
 * sequence number a sl_eventq_schedule would take now), and the speed,
 * the division and the heap sift are done once per CPU, by
 * sl__flush_bursts before the next event is taken.  The event order is
 * the same, bit for bit, as re-timing at once.
 */
#define SEQ_NOW UINT64_MAX
static inline __attribute__((always_inline)) void start_burst_seq(struct sl_sim *sim,
								       struct sl_cpu *c,
								       int kernel_node, uint64_t seq)
{
	struct sl_task *t = c->curr;
	bool kernel = kernel_phase_at(kernel_node, t);

	if (kernel != t->kmem)
		sl__kernel_phase_changes(sim, t, kernel);
	c->seg_start = sim->now;
	/* kernel work ahead of user work ends at its own event (the phase
	 * end, sl__burst_done): the work then runs at the task's speed, or,
	 * with a reschedule waiting for the kernel exit, the task returns to
	 * user space and is switched out */
	c->burst_at_debt = !t->act_sys &&
			   (t->kmem || (c->kexit_wait && sl__owes_costs(t)));
	c->burst_owed = c->burst_at_debt ? t->debt_sys : outstanding(t);
	c->burst_stall = t->stall_ns;
	c->burst_seq = seq != SEQ_NOW ? seq : sl_eventq_take_seq(&sim->q);
	if (c->burst_deferred == 0)
		sim->deferred[sim->ndeferred++] = c->id;
	c->burst_deferred = 1;
}

static inline __attribute__((always_inline)) void start_burst(struct sl_sim *sim,
								   struct sl_cpu *c, int kernel_node)
{
	start_burst_seq(sim, c, kernel_node, SEQ_NOW);
}

/*
 * Costs charged to a running task in mid-burst (settled, its burst to be
 * started again): scheduler work `work_ns` (ref ns) and a lock spin
 * `spin_ns` (wall ns), both system time, done before the rest of its
 * work.  A task that absorbs them (a replayed one, whose recorded CPU
 * time already held whatever the recording kernel charged there) takes
 * them out of its work, and once no work is left out of the cost it is
 * paying (an exit's or a fork's, whose recorded time held them too), as
 * far as either goes: it ends when it would have.
 */
void sl__charge_running(struct sl_task *t, double work_ns, sl_time spin_ns)
{
	double owed = t->debt_sys;

	t->debt_sys += work_ns;
	t->stall_ns += spin_ns;
	if (!t->absorb_costs)
		return;
	double cost = work_ns + (double)spin_ns * (t->speed > 0 ? t->speed : 1.0);
	double from_work = sl_min_d(cost, t->work_left);
	t->work_left -= from_work;
	if (t->work_left <= 0)
		t->debt_sys -= sl_min_d(cost - from_work, owed);
}

void sl__start_burst(struct sl_sim *sim, struct sl_cpu *c)
{
	start_burst(sim, c, sim->model->kernel_node);
}

void sl__start_burst_at(struct sl_sim *sim, struct sl_cpu *c, int kernel_node, uint64_t seq)
{
	start_burst_seq(sim, c, kernel_node, seq);
}

void sl__cancel_burst(struct sl_sim *sim, struct sl_cpu *c)
{
	/* (tested here: at a switch after a completion, most of them, the
	 * event has just been popped, and the call does nothing) */
	if (sl_event_queued(&c->burst_ev))
		sl_eventq_cancel(&sim->q, &c->burst_ev);
	if (c->burst_deferred)
		c->burst_deferred = 2;
}

double sl__speed_now(struct sl_sim *sim, struct sl_cpu *c)
{
	return task_speed(sim, c);
}

/* ceil(x) without libm's call, which the baseline x86-64 build (no
 * SSE4.1 rounding instruction) makes at every completion timed: exact,
 * since a double of magnitude 2^52 or more has no fraction (and NaN and
 * the infinities come back as they are). */
static inline double ceil_exact(double x)
{
	if (!(x < 0x1p52 && x > -0x1p52))
		return x;
	double t = (double)(int64_t)x;	/* toward zero */
	return t < x ? t + 1.0 : t;
}

/* c's completion time from its owed work and its speed now. */
static inline sl_time burst_end(struct sl_sim *sim, struct sl_cpu *c)
{
	/* the speed too: whatever changes it at this instant re-times the
	 * CPU, so the last state is the one the last re-timing saw */
	struct sl_task *t = c->curr;
	double speed = t->speed = task_speed(sim, c);
	/* x / 1.0 is x: a task alone on its core of a node without contention
	 * (half of all completions in chat and tbench) skips the division,
	 * whose latency was most of the cost of timing one */
	double owed = speed == 1.0 ? c->burst_owed : c->burst_owed / speed;
	double ns = ceil_exact(owed) + (double)c->burst_stall;
	/* compared as a double: a burst past the horizon has no sl_time.
	 * sl__after's own bound folded in: a delay within the horizon is
	 * taken as it is, one beyond it (or NaN) lands just past it */
	return sim->now + (ns <= (double)SL_TIME_HORIZON ? (sl_time)ns : SL_TIME_HORIZON + 1);
}

/*
 * On numaq-16 a change of node 0's contention re-times most CPUs at once:
 * when they are a fair share of the queue, their keys are set in place
 * and the heap rebuilt in one pass instead of a sift each (the same pop
 * order: eventq.h).
 */
void sl__flush_bursts(struct sl_sim *sim)
{
	/* the nodes whose contention changed first: their re-timings add to
	 * the deferred CPUs */
	sl__bandwidth_flush(sim);
	/* (those cancelled since count too: only a guess of the cost) */
	bool batch = sim->ndeferred > 1 && sl_eventq_batch_pays(&sim->q, sim->ndeferred);
	for (int i = 0; i < sim->ndeferred; i++) {
		struct sl_cpu *c = &sim->cpus[sim->deferred[i]];
		if (c->burst_deferred == 1) {
			sl_time at = burst_end(sim, c);
			sim->bursts_timed++;
			if (batch)
				sl_eventq_batch_set(&sim->q, &c->burst_ev, at, c->burst_seq);
			else
				sl_eventq_schedule_seq(&sim->q, &c->burst_ev, at, c->burst_seq);
		}
		c->burst_deferred = 0;
	}
	if (batch)
		sl_eventq_batch_end(&sim->q);
	sim->ndeferred = 0;
}

/* Memos of the speed model's NUMA factors, for up to this many nodes
 * (nodes^2 x classes entries); beyond, the factors are computed each time. */
#define USPEED_MEMO_NODES 64

void sl__sched_init(struct sl_sim *sim)
{
	int nnodes = sim->topo->nnodes;

	sl__bandwidth_init(sim);
	sim->numa_flat = nnodes == 1 && !sl__bandwidth_limited(sim);
	/* contention is >= 1: -1 marks an entry not computed yet */
	sim->kspeed = sl_xcalloc((unsigned long)nnodes, sizeof(*sim->kspeed));
	for (int n = 0; n < nnodes; n++)
		sim->kspeed[n].cont[0] = sim->kspeed[n].cont[1] = -1;
	if (nnodes <= USPEED_MEMO_NODES) {
		size_t k = (size_t)nnodes * (size_t)nnodes * SL_WC_COUNT;
		sim->uspeed = sl_xcalloc(k, sizeof(*sim->uspeed));
		for (size_t i = 0; i < k; i++)
			sim->uspeed[i].cont[0] = sim->uspeed[i].cont[1] = -1;
	}
}

void sl__sched_free(struct sl_sim *sim)
{
	sl__bandwidth_free(sim);
	free(sim->kspeed);
	free(sim->uspeed);
}

/* Something changed on `core`: settle its busy CPUs and re-time them.
 * The bounds and kernel_node read once (the stores of a re-timing would
 * have them read again), the re-timing inlined: a call per CPU was 1 %
 * of a chat run on xeon-1600ht.  flatten: the settle too (a sibling's,
 * at every switch and change of work class in chat), its call and the
 * loop's spills around it 0.5 % of that run. */
__attribute__((flatten)) void sl__core_changed(struct sl_sim *sim, int core)
{
	const int kernel_node = sim->model->kernel_node;

	for (int k = sim->core_first[core], end = sim->core_first[core + 1]; k < end; k++) {
		struct sl_cpu *sc = &sim->cpus[sim->core_cpus[k]];
		if (!sc->curr)
			continue;
		sl__settle(sim, sc);
		start_burst(sim, sc, kernel_node);
	}
}

/* The lines brought into c's caches by now: its core's L2 sum and, where
 * an LLC lies beyond the L2, its LLC's, with what the tasks running on its
 * siblings touched since their last settle (they are settled only at
 * their own events, and at a switch beside them only after it:
 * sl__core_changed).  c itself has no running task here. */
struct evicted_now {
	double l2, llc;
};

static inline struct evicted_now evicted_now(const struct sl_sim *sim, const struct sl_cpu *c)
{
	bool llc = sim->settle_cache.llc_beyond_l2;
	struct evicted_now e = { .l2 = sim->core_evicted_kb[c->core],
				 .llc = llc ? sim->llc_evicted_kb[sim->topo->cpu_llc[c->id]] : 0 };
	if (c->alone)
		return e;
	for (int k = sim->core_first[c->core], end = sim->core_first[c->core + 1]; k < end; k++) {
		const struct sl_cpu *s = &sim->cpus[sim->core_cpus[k]];
		const struct sl_task *t = s->curr;
		if (!t)
			continue;
		unsigned fp = task_footprint(sim, t);
		if (s->curr_touched_kb == (double)fp)
			continue;
		double touched = touched_by_now(sim, t, fp);
		e.l2 += (touched - s->curr_touched_kb) * s->curr_miss;
		if (llc)
			e.llc += (touched - s->curr_touched_kb) * s->curr_llc_miss;
	}
	return e;
}

/* prev leaves c (settled: its seg_start is now).  `to_task`: c switches
 * to a task in this schedule(), whose demand's +1 (switch_in) moves c to
 * its mask: c stays in prev's meanwhile (sl__mem_demand_stop's pause),
 * where the walks prev's -1 and anything up to that +1 may start find it
 * without a running task, and its settle does nothing, as when it was in
 * no mask.  Two mask moves fewer at most switches of numaq-16, whose
 * tasks switch in and out in kernel work drawing on node 0. */
static inline __attribute__((always_inline)) void switch_out(struct sl_sim *sim,
								  struct sl_cpu *c,
								  struct sl_task *prev, bool to_task)
{
	sl__cancel_burst(sim, c);
	c->curr = NULL;
	if (prev->oncpu_count)
		--*prev->oncpu_count;
	sl__mem_demand_stop(sim, prev, to_task);
	prev->cpu = -1;
	prev->last_ran = sim->now;
	struct evicted_now seen = evicted_now(sim, c);
	prev->cache_mark = seen.l2;
	prev->llc_mark = seen.llc;
	if (prev->state == SL_TASK_RUNNABLE) {
		prev->nivcsw++;
		sl__lat_queued(sim, prev, false);
		/* preempted, it resumes in the kernel's exit path: its
		 * next burst ends where it returns to user space */
		if (sim->preempt_none)
			prev->user_return = true;
	}
}

/* prev leaves c: by schedule(), or preempted by c's migration thread
 * (engine.c; the caller updates c's occupancy). */
void sl__switch_out(struct sl_sim *sim, struct sl_cpu *c, struct sl_task *prev)
{
	switch_out(sim, c, prev, false);
}

/* next comes onto c; `recount`: c's occupancy is counted here (not when
 * c stays busy throughout: sl__schedule) */
static void switch_in(struct sl_sim *sim, struct sl_cpu *c, struct sl_task *next, bool recount)
{
	const struct sl_topo *topo = sim->topo;
	const struct sl_speed_model *m = sim->model;

	if (next->home_node < 0 && !next->touch_pending)
		next->home_node = topo->cpu_node[c->id];	/* first touch */
	enum sl_migr_level level = migr_level(topo, next->last_cpu, c->id);
	bool llc_beyond_l2 = sim->settle_cache.llc_beyond_l2;
	double warmth = 0, llc_warmth = -1;	/* -1: no LLC beyond the L2 it left */
	if (next->last_cpu >= 0 &&
	    (level == SL_MIGR_NONE || (level == SL_MIGR_CORE && llc_beyond_l2))) {
		/* What its caches lost since it left (the mark was taken
		 * then: a sibling's work while both ran is in the SMT pair
		 * speed).  The L2 is its core's: on that core, what ran on
		 * its CPU or a sibling evicted it; on another core it has
		 * none of it.  An LLC beyond the L2, on any core under it,
		 * lost what its CPUs brought in against its larger size;
		 * the L2 refills from it, and what it lost from memory. */
		struct evicted_now seen = evicted_now(sim, c);
		if (level == SL_MIGR_NONE)
			warmth = sl_cache_warmth(seen.l2 - next->cache_mark, topo->l2_kb);
		if (llc_beyond_l2)
			llc_warmth = sl_cache_warmth(seen.llc - next->llc_mark, topo->llc_kb);
	}
	if (next->last_cpu >= 0 && next->last_cpu != c->id)
		next->nmigrations++;
	unsigned fp = task_footprint(sim, next);
	bool random = next->random_access;
	/* the most it can owe: its footprint from where it comes; under its
	 * LLC, as in place, all of it from memory */
	double full = (double)sl_cache_refill(m, llc_warmth >= 0 ? SL_MIGR_NONE : level, 0.0, fp,
					      random);
	if (next->last_cpu >= 0) {
		/* Unpaid refill is lines still missing; new evictions add to
		 * them, but no more can be missing than the whole footprint. */
		next->debt_user += llc_warmth >= 0
			? (double)sl_cache_refill_in_place(m, warmth, llc_warmth, fp, random)
			: (double)sl_cache_refill(m, level, warmth, fp, random);
		if (next->debt_user > full)
			next->debt_user = full;
	}
	/* The part of its footprint it lacks here, which it brings in (and
	 * so evicts others' lines with) as it touches it: all of it at its
	 * first run or after a move to another core; else what the others
	 * evicted, or what it still had not refilled if that is more. */
	double miss = next->last_cpu >= 0 && level == SL_MIGR_NONE ? 1.0 - warmth : 1.0;
	if (full > 0 && next->debt_user / full > miss)
		miss = sl_min_d(1.0, next->debt_user / full);
	c->curr_miss = miss;
	/* Of those, the LLC beyond the L2 lacks what the package evicted
	 * (all of them after a move to another LLC). */
	c->curr_llc_miss = llc_warmth >= 0 ? sl_min_d(miss, 1.0 - llc_warmth) : miss;
	/* A footprint touched at random beyond a cache misses 1 - C/F of its
	 * touches there however warm it is, and each miss evicts a line. */
	if (random) {
		c->curr_miss = fmax(c->curr_miss, random_miss_floor(fp, topo->l2_kb));
		c->curr_llc_miss = fmax(c->curr_llc_miss, random_miss_floor(fp, topo->llc_kb));
	}
	/* an idle CPU switches to a task once its idle-time scheduler work
	 * is done (sl__process_resched waits for it) */
	if (c->idle_work_until > sim->now) {
		sl_fail_internal(sim->run_err, "CPU %d switches to task %d with %lld ns of idle "
				 "work left", c->id, next->id,
				 (long long)(c->idle_work_until - sim->now));
		sim->stopped = true;
	}
	c->idle_work_until = 0;
	next->debt_sys += (double)m->ctx_switch_ns + c->sched_debt;
	next->stall_ns += c->sched_stall;
	c->sched_debt = 0;
	c->sched_stall = 0;
	next->cpu = c->id;
	next->last_cpu = c->id;
	c->seg_start = sim->now;	/* before anything settles this CPU */
	c->curr_touched_kb = 0;
	next->dispatched_at = sim->now;
	sl__lat_dispatched(sim, next);
	c->curr = next;
	if (next->oncpu_count)
		++*next->oncpu_count;
	if (recount)
		sl__occupancy(sim, c);
	next->kmem = kernel_phase(sim, next);
	sl__mem_demand(sim, next, +1);
	c->stats.switches++;
}

/* c stays or goes idle: what its schedule() charged (the pick that found
 * nothing, a newly-idle balance) is done in its idle time. */
static void idle_from_debt(struct sl_sim *sim, struct sl_cpu *c)
{
	sl__idle_work(sim, c, (sl_time)c->sched_debt + c->sched_stall);
	c->sched_debt = 0;
	c->sched_stall = 0;
}

/*
 * schedule() on `cpu`: ask the policy what runs next and switch to it.  The
 * incoming task first pays its context-switch debt; its program continues
 * when that burst completes (sl__burst_done), so a task that blocks as soon
 * as it runs still costs a switch, as it does on a real kernel.
 *
 * flatten: the switch out, the core's re-timing and their settles and
 * demand changes are inline (13 KB more code; their calls, argument moves
 * and spills were 1.5 % of a chat run on xeon-1600ht, 1.8 % of a numaq-16
 * SDET under cfs).
 */
__attribute__((flatten)) void sl__schedule(struct sl_sim *sim, int cpu)
{
	struct sl_cpu *c = &sim->cpus[cpu];
	struct sl_task *prev = c->curr;

	if (prev)
		sl__settle(sim, c);
	bool waited = c->kexit_wait;
	c->kexit_wait = false;
	bool thread_first = false;
	if (c->migration_waits) {
		/* the task the migration thread waited for sleeps: the
		 * thread, highest of all, is what this schedule() switches
		 * to, before whatever the policy picks now */
		c->migration_waits = false;
		c->migration_now = true;
		thread_first = !prev || prev->state != SL_TASK_RUNNABLE;
		if (!thread_first)
			sl_eventq_schedule(&sim->q, &c->migr_ev, sim->now);
	}
	int saved_ctx = sim->ctx_cpu;
	sim->ctx_cpu = cpu;
	c->in_schedule = true;
	struct sl_task *next = sim->ops->pick_next(sim, cpu, prev);
	c->in_schedule = false;
	sim->ctx_cpu = saved_ctx;
	c->need_resched = false;

	if (next && (next->state != SL_TASK_RUNNABLE || (next->cpu >= 0 && next->cpu != cpu))) {
		sl_fail_internal(sim->run_err, "policy %s picked task %d (%s) on CPU %d but it is %s",
				 sim->ops->name, next->id, next->comm, cpu,
				 next->state != SL_TASK_RUNNABLE ? "not runnable" : "running elsewhere");
		sim->stopped = true;
		return;
	}
	if (next == prev) {
		if (!prev) {
			idle_from_debt(sim, c);
		} else if (prev->state != SL_TASK_RUNNABLE) {
			sl_fail_internal(sim->run_err, "policy %s kept blocked task %d on CPU %d",
					 sim->ops->name, prev->id, cpu);
			sim->stopped = true;
		} else if (c->sched_debt > 0 || c->sched_stall > 0) {
			/* The scheduler's work (e.g. a recalculation that
			 * keeps the same hog) delays the task it kept. */
			sl__charge_running(prev, c->sched_debt, c->sched_stall);
			c->sched_debt = 0;
			c->sched_stall = 0;
			sl__start_burst(sim, c);
		} else if (waited) {
			sl__start_burst(sim, c);	/* no longer ends at the kernel exit */
		}
		return;
	}
	/* The policy's pick waits for the thread's run (its migration op
	 * takes the task back, as from a task the thread preempts): the
	 * CPU switches to the thread only, one switch (until Dec 2026 the
	 * pick was switched in and preempted at once, a switch more). */
	if (thread_first)
		next = NULL;
	OBSERVE(sim, sched_switch, cpu, prev, next);
	/* From one task to another c stays busy and running: the occupancy
	 * counts (conserve.c, integers) would go down at the switch out and
	 * back at the switch in, and nothing reads them in between but the
	 * policy's exit op of a dead prev (then they are counted).  The
	 * recounts were 2 % of a chat run on xeon-1600ht. */
	bool recount = !prev || !next || prev->state == SL_TASK_DEAD;
	if (prev) {
		switch_out(sim, c, prev, next != NULL);
		if (recount)
			sl__occupancy(sim, c);
		sl__after_switch_out(sim, prev);
	}
	if (next)
		switch_in(sim, c, next, recount);
	else if (!thread_first)	/* (the thread's run keeps it for the next task) */
		idle_from_debt(sim, c);
	sl__core_changed(sim, c->core);	/* re-times siblings, starts next's burst */
	if (thread_first)
		sl__migration_start(sim, c);	/* in this event: nothing runs first */
	else if (next && next->vfork_after_move)
		sl__vfork_after_move(sim, next);
}

/* Running task t's work class changed from `before`: its demand moves
 * from the old class's intensity to the new one's.  Without a bandwidth
 * limit the demand's -1 only stores mem_node = -1 and mem_mi = 0, which
 * the +1 overwrites from t's state alone (sl__mem_node reads neither):
 * the +1 is all there is to do.  The -1 was 0.5 % of a chat run on
 * xeon-1600ht, a class change at every other completion.  With a limit,
 * t's CPU stays in its draw mask between the two (sl__mem_demand_stop's pause:
 * t draws on the same node(s) after as before), out of line: inlined
 * into sl__burst_done, and so into sl_run_once, it cost the chat run on
 * xeon-1600ht 0.6 % more instructions elsewhere, the register
 * allocator's. */
static __attribute__((noinline)) void class_changes_limited(struct sl_sim *sim,
								  struct sl_task *t,
								  enum sl_wclass before)
{
	enum sl_wclass now_class = t->wclass;
	t->wclass = before;
	sl__mem_demand_stop(sim, t, true);
	t->wclass = now_class;
	sl__mem_demand(sim, t, +1);
}

static void class_changes(struct sl_sim *sim, struct sl_task *t, enum sl_wclass before)
{
	if (sl__bandwidth_limited(sim))
		class_changes_limited(sim, t, before);
	else
		sl__mem_demand(sim, t, +1);
}

/* The task on c finished its outstanding work. */
void sl__burst_done(struct sl_sim *sim, struct sl_cpu *c)
{
	struct sl_task *t = c->curr;
	sl__settle(sim, c);
	if (c->burst_at_debt && t->work_left > 0) {
		/* the phase end: the kernel work ahead of the user work is
		 * paid, the work runs on at the task's own speed (a waiting
		 * reschedule is acted on after this event: the kernel exit;
		 * a new task's is its ret_from_fork) */
		t->debt_sys = 0;
		t->stall_ns = 0;
		t->user_return = false;
		sl__start_burst(sim, c);
		return;
	}
	t->work_done += t->work_left;
	t->debt_sys = t->work_left = 0;	/* no fractions left behind */
	t->stall_ns = 0;
	if (t->debt_user < 1e-6)
		t->debt_user = 0;	/* the lines its next work touches stay missing */
	if (t->user_return) {
		/* the system call's costs are paid, or a new task's switch
		 * into it: ret_from_fork returns to user space before its
		 * first call (i386 entry.S, 2.4.27 and 2.6.11) */
		t->user_return = false;
		if (c->kexit_wait) {
			/* the return to user space is the switch the
			 * reschedule waited for (after this event); the
			 * program goes on when the task next runs */
			sl__start_burst(sim, c);
			return;
		}
	}
	if (t->touch_pending) {
		/* exec's cost is paid (on whatever CPU exec balancing chose):
		 * the new image touches its memory here */
		t->touch_pending = false;
		if (t->mem_node >= 0)
			sl__mem_demand(sim, t, -1);	/* its exec's kernel work */
		t->home_node = sim->topo->cpu_node[c->id];
		sl__mem_demand(sim, t, +1);
	}
	if (!t->need_apply)
		t->need_step = true;	/* the compute action is complete */
	enum sl_wclass before = t->wclass;
	sim->ctx_cpu = c->id;
	if (sl__continue(sim, c, t)) {
		if (t->wclass != before) {
			class_changes(sim, t, before);
			sl__core_changed(sim, c->core);
		} else {
			/* the next action's burst (two in five completions
			 * of a chat run) started inline, without a call */
			start_burst(sim, c, sim->model->kernel_node);
		}
	} else {
		sl__schedule(sim, c->id);
	}
}

/* Whether t, running, is in kernel work: a system-time action, or costs
 * (a switch's, a fork's, the scheduler's, a lock's spin) it pays before
 * its next action or its user work. */
static inline bool in_kernel_work(const struct sl_task *t)
{
	return sl__owes_costs(t) || (t->act_sys && t->work_left > 0);
}

bool sl__waits_kernel_exit(struct sl_sim *sim, struct sl_cpu *c)
{
	struct sl_task *t = c->curr;
	if (!sim->preempt_none || !t)
		return false;
	sl__settle(sim, c);	/* the debt as paid by now */
	if (!in_kernel_work(t))
		return false;
	if (!c->kexit_wait) {
		c->kexit_wait = true;
		/* a burst of kernel debt and user work ends at the debt now;
		 * a system-time action's already ends with the action */
		if (!t->act_sys)
			sl__start_burst(sim, c);
	}
	return true;
}

/* Act on a pending local need_resched of `cpu`: switch at once, or under
 * SL_PREEMPT_NONE when the running task is in kernel work, at its kernel
 * exit (the burst that ends there comes back here). */
void sl__process_resched(struct sl_sim *sim, int cpu)
{
	struct sl_cpu *c = &sim->cpus[cpu];
	if (!c->need_resched || c->in_migration || sl__waits_kernel_exit(sim, c))
		return;
	/* The idle task finishes its scheduler work (the tick's idle
	 * balance in the softirq, the newly-idle balance under the runqueue
	 * lock) before it sees need_resched and calls schedule(): the task
	 * waits, and the CPU's time is idle time (2.6.11
	 * account_system_time: a tick that finds the idle task).  Acted on
	 * at the work's end, by the IPI event. */
	if (sl__after_idle_work(sim, c, &c->ipi_ev))
		return;
	if (c->migration_waits) {
		/* the task it waited for leaves the CPU: the thread first */
		c->migration_waits = false;
		c->migration_now = true;
		sl__migration_start(sim, c);
		return;
	}
	sl__schedule(sim, cpu);
}
