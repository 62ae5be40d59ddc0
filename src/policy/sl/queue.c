/*
 * sl/queue.c - policy `sl`: the per-CPU runqueue.  Queued (not running)
 * tasks sit in a binary min-heap on weighted virtual runtime; the running
 * task is outside it.  A task keeps the CPU for a whole slice unless a
 * woken task is far enough behind it in virtual time to preempt.
 *
 * Sources: CFS (Linux 2.6.23 kernel/sched_fair.c: vruntime weighted by
 * nice, min_vruntime, place_entity's bounded sleeper credit, the wakeup
 * granularity; the last buddy CFS had before EEVDF, as remembered: 6.12's
 * features.h keeps only NEXT_BUDDY); o1 (2.6.0 kernel/sched.c: 100 ms
 * slices, whose cache economy docs/model.md explains: each switch back to
 * a cold cache costs a refill of ~1 ms on the NetBurst presets).
 *
 * Choices (knobs in sl/sl.c):
 *   - slice: latency_ms / nr_running, clamped to [min_slice_ms, slice_ms]
 *     (400 ms, 3 ms, 100 ms by default): o1's 100 ms while up to four
 *     tasks compete, shorter when more do, never below 3 ms (three cache
 *     refills' worth on NetBurst).
 *   - batches: the heap key is vruntime / batch_us (10 ms), and within a
 *     batch the task that left its CPU most recently runs first.  Fairness
 *     holds to one batch; inside it, the tasks whose cache is still warm
 *     (a ping-pong pair, a chat room's threads) keep running instead of
 *     round-robining every runnable task through a cold cache (O(1)'s
 *     active array has the same effect; strict vruntime order with
 *     batch_us=0 does not).
 *   - sleeper credit: a woken task's vruntime is raised to at least
 *     min_vruntime - sleep_credit_ms (10 ms): a sleeper is served soon but
 *     cannot bank more than that.
 *   - wakeup preemption: only if the running task is more than
 *     wake_gran_ms (4 ms) of virtual time ahead, and never for a sync
 *     wakeup onto the waker's CPU (the waker is about to sleep anyway).
 *     A task picked less than min_slice_ms (3 ms) ago is not preempted by
 *     a wakeup; the wakeup preempts at the first tick after that, if it
 *     still would (knob wake_protect; 6.12's RUN_TO_PARITY protects a
 *     picked task the same way, until its first slice is used).  Since
 *     the sleeper credit (10 ms) exceeds wake_gran, a task that slept
 *     would otherwise preempt whatever was just picked, however briefly
 *     it had run: a message sender lost its CPU to every receiver it woke.
 *   - a task a wakeup preempted mid-slice runs again at the first pick
 *     after the wakee's and finishes that slice (knob resume_preempted;
 *     CFS's LAST_BUDDY before EEVDF): warm, where the next batch's task
 *     is cold (sls_pick).
 *   - ties are broken by task id, so runs are deterministic.
 *   - SCHED_FIFO/RR tasks (docs/policies/sl.md, "Real-time classes") wait
 *     in a second structure, the O(1) priority array (policy/prio_array.c)
 *     at 99 - rt_priority, and every pick looks there first: strict
 *     priority above every SCHED_NORMAL task.  An RT task that stops
 *     running goes back to the head of its list (preempted by a better
 *     one), or to its tail after its RR slice (knob rr_slice_ms, 100 ms as
 *     Linux's RR_TIMESLICE) or a yield.  An RT task wakes or arrives and
 *     preempts anything less important at once, and nothing of its own
 *     priority or lower ever preempts it.  Its vruntime stands still.
 */
#include "policy/sl/sl.h"

#include <stdlib.h>

/* sched_prio_to_weight[]: each nice level is ~1.25x (Linux kernel/sched/core.c). */
static const long sls_weights[40] = {
	88761, 71755, 56483, 46273, 36291, 29154, 23254, 18705, 14949, 11916,
	9548,  7620,  6100,  4904,  3906,  3121,  2501,  1991,  1586,  1277,
	1024,  820,   655,   526,   423,   335,   272,   215,   172,   137,
	110,   87,    70,    56,    45,    36,    29,    23,    18,    15,
};

long sls_nice_weight(int nice)
{
	if (nice < -20)
		nice = -20;
	if (nice > 19)
		nice = 19;
	return sls_weights[nice + 20];
}

/* ---- the heap ---- */

/* Heap order: lower vruntime batch first; within a batch the task that
 * left its CPU most recently (its cache is the warmest), then by id. */
bool sls_before(const struct sls_ent *a, const struct sls_ent *b)
{
	if (a->batch != b->batch)
		return a->batch < b->batch;
	if (a->stamp != b->stamp)
		return a->stamp > b->stamp;
	return a->task->id < b->task->id;
}

static int64_t sls_batch_of(const struct sls *s, int64_t v)
{
	if (s->batch <= 1)
		return v;
	return v >= 0 ? v / s->batch : -((-v + s->batch - 1) / s->batch);
}

/* Set e's heap key from its vruntime; `now`: it left its CPU just now. */
static void sls_key(const struct sls *s, struct sls_ent *e, bool now)
{
	e->batch = sls_batch_of(s, e->vruntime);
	if (now)
		e->stamp = sl_now(s->sim);
}

static void sls_heap_set(struct sls_rq *rq, int i, struct sls_ent *e)
{
	rq->heap[i] = e;
	e->heap_idx = i;
}

static void sls_sift_up(struct sls_rq *rq, int i)
{
	struct sls_ent *e = rq->heap[i];

	while (i > 0) {
		int p = (i - 1) / 2;
		if (!sls_before(e, rq->heap[p]))
			break;
		sls_heap_set(rq, i, rq->heap[p]);
		i = p;
	}
	sls_heap_set(rq, i, e);
}

static void sls_sift_down(struct sls_rq *rq, int i)
{
	struct sls_ent *e = rq->heap[i];

	for (;;) {
		int c = 2 * i + 1;
		if (c >= rq->nq)
			break;
		if (c + 1 < rq->nq && sls_before(rq->heap[c + 1], rq->heap[c]))
			c++;
		if (!sls_before(rq->heap[c], e))
			break;
		sls_heap_set(rq, i, rq->heap[c]);
		i = c;
	}
	sls_heap_set(rq, i, e);
}

static void sls_heap_push(const struct sls *s, struct sls_rq *rq, struct sls_ent *e, bool now)
{
	sls_key(s, e, now);
	if (rq->nq == rq->cap) {
		rq->cap = rq->cap ? 2 * rq->cap : 16;
		rq->heap = sl_xrealloc(rq->heap, (unsigned long)rq->cap * sizeof(*rq->heap));
	}
	sls_heap_set(rq, rq->nq++, e);
	sls_sift_up(rq, rq->nq - 1);
}

static void sls_heap_remove(struct sls_rq *rq, struct sls_ent *e)
{
	int i = e->heap_idx;

	e->heap_idx = -1;
	if (--rq->nq == i)
		return;
	sls_heap_set(rq, i, rq->heap[rq->nq]);
	sls_sift_down(rq, i);
	sls_sift_up(rq, rq->heap[i]->heap_idx);
}

struct sls_ent *sls_peek(const struct sls_rq *rq)
{
	if (rq->rt->nr_active)
		return (struct sls_ent *)sl_prio_array_first(rq->rt);	/* rt_node is first */
	return rq->nq ? rq->heap[0] : NULL;
}

/* ---- accounting ---- */

/* Inline: sls_update_curr() calls it at every tick of a busy CPU, and LTO
 * kept it out of line (a call per tick). */
static inline __attribute__((always_inline)) void sls_update_min(struct sls_rq *rq)
{
	int64_t v = rq->curr && !rq->curr->rt ? rq->curr->vruntime : INT64_MAX;

	if (rq->nq && rq->heap[0]->vruntime < v)
		v = rq->heap[0]->vruntime;
	if (v != INT64_MAX && v > rq->min_vruntime)
		rq->min_vruntime = v;
}

void sls_update_curr(struct sls *s, struct sls_rq *rq)
{
	struct sls_ent *e = rq->curr;

	if (e) {
		sl_time now = sl_now(s->sim);
		sl_time d = now - e->exec_start;
		if (d > 0) {
			e->sum_exec += d;
			e->node_ns += d;
			if (!e->rt)
				e->vruntime += d * SLS_NICE_0 / e->weight;
			e->exec_start = now;
			if (!e->in_settled && e->node_ns >= s->numa_settle)
				sls_note_settled(s, e);	/* it has just settled */
		}
	}
	sls_update_min(rq);
}

sl_time sls_slice(const struct sls *s, const struct sls_rq *rq)
{
	sl_time sl = rq->nr_running > 0 ? s->latency / rq->nr_running : s->slice;

	if (sl > s->slice)
		sl = s->slice;
	if (sl < s->min_slice)
		sl = s->min_slice;
	return sl;
}

/* ---- the rt array ---- */

static void sls_rt_push(struct sls *s, struct sls_rq *rq, struct sls_ent *e, bool head)
{
	if (rq->rt == &s->rt_none) {
		rq->rt = sl_xmalloc(sizeof(*rq->rt));
		sl_prio_array_init(rq->rt);
	}
	if (head)
		sl_prio_array_enqueue_head(rq->rt, &e->rt_node, sls_rt_prio(e));
	else
		sl_prio_array_enqueue(rq->rt, &e->rt_node, sls_rt_prio(e));
	e->rt_queued = true;
	e->rt_tail = false;
	s->rt_queued++;
}

static void sls_rt_remove(struct sls *s, struct sls_rq *rq, struct sls_ent *e)
{
	sl_prio_array_dequeue(rq->rt, &e->rt_node);
	e->rt_queued = false;
	s->rt_queued--;
}

/* Off whichever queue e waits in. */
static void sls_unqueue(struct sls *s, struct sls_rq *rq, struct sls_ent *e)
{
	if (e->rt_queued)
		sls_rt_remove(s, rq, e);
	else
		sls_heap_remove(rq, e);
}

/* ---- enqueue, dequeue, pick ---- */

void sls_enqueue(struct sls *s, struct sls_rq *rq, struct sls_ent *e)
{
	e->cpu = rq->cpu;
	e->on_rq = true;
	if (e->rt)
		sls_rt_push(s, rq, e, false);
	else
		sls_heap_push(s, rq, e, false);
	sls_nr_add(s, rq, 1);
	sls_note_settled(s, e);
	sls_note_waiting(s, rq);
	sls_update_min(rq);
}

void sls_dequeue(struct sls *s, struct sls_rq *rq, struct sls_ent *e)
{
	if (rq->preempted == e)
		rq->preempted = NULL;	/* it sleeps or exits: nothing to resume */
	if (rq->curr == e) {
		sls_update_curr(s, rq);
		rq->curr = NULL;
	} else {
		sls_unqueue(s, rq, e);
	}
	e->stamp = sl_now(s->sim);
	e->on_rq = false;
	sls_note_settled(s, e);
	sls_nr_add(s, rq, -1);
	sls_note_waiting(s, rq);
}

void sls_put_prev(struct sls *s, struct sls_rq *rq)
{
	struct sls_ent *e = rq->curr;

	if (!e)
		return;
	sls_update_curr(s, rq);
	rq->curr = NULL;
	if (e->rt) {
		e->stamp = sl_now(s->sim);
		sls_rt_push(s, rq, e, !e->rt_tail);
	} else {
		sls_heap_push(s, rq, e, true);
	}
	sls_note_waiting(s, rq);
}

void sls_set_curr(struct sls *s, struct sls_rq *rq, struct sls_ent *e)
{
	int node = s->topo->cpu_node[rq->cpu];

	sls_unqueue(s, rq, e);
	if (rq->preempted == e)
		rq->preempted = NULL;	/* back on the CPU, whoever picked it */
	rq->curr = e;
	e->exec_start = sl_now(s->sim);
	e->slice_start = e->sum_exec;
	rq->wake_pending = false;	/* a new pick: the woken task may be it */
	if (e->run_node != node) {
		e->run_node = node;
		e->node_ns = 0;
		sls_note_settled(s, e);
	}
	if (e->mem_node < 0)
		e->mem_node = node;	/* first touch: its pages go here */
	sls_note_waiting(s, rq);
}

/* ---- preemption ---- */

/* A wakeup takes the CPU from curr (not real-time: both are SCHED_NORMAL
 * here) before its slice is over: remember it, so that the pick after the
 * wakee's gives it back (sls_pick). */
static void sls_preempted_by_wakeup(struct sls *s, struct sls_rq *rq)
{
	if (s->resume_preempted)
		rq->preempted = rq->curr;
	sl_resched(s->sim, rq->cpu);
}

/*
 * The next task after prev.  A task a wakeup preempted (rq->preempted) is
 * picked again at the first pick after the one that ran the wakee, if it
 * is still queued here and its slice is not used up, and it goes on with
 * that slice: its cache is still warm, which the task with the least
 * vruntime's is not (a compile job's cc1 preempted by its own `as`, as it
 * reads the pipe, came back after another job's cc1 half the time:
 * docs/policies/sl.md, "Where it loses").  CFS had the same rule before
 * EEVDF (LAST_BUDDY: the wakeup-preemption check named the preempted task
 * the last buddy, and the pick returned the CPU to it; as remembered,
 * UNVERIFIED: 6.12's features.h keeps only NEXT_BUDDY); here it is bounded
 * by the preempted task's own slice, so it keeps to the fairness sl's
 * slices already allow.
 */
struct sls_ent *sls_pick(struct sls *s, struct sls_rq *rq, const struct sls_ent *prev)
{
	struct sls_ent *b = rq->preempted, *e = sls_peek(rq);

	/* prev is the preempted one: this pick is the wakee's turn.  It is
	 * cleared when it sleeps, leaves the CPU's queue or runs again. */
	if (b && b != prev) {
		rq->preempted = NULL;
		if (b->on_rq && !b->rt && sls_queued(b) && !rq->rt->nr_active &&
		    b->sum_exec - b->slice_start < sls_slice(s, rq)) {
			sl_time slice_start = b->slice_start;
			sls_set_curr(s, rq, b);
			b->slice_start = slice_start;	/* the rest of its slice */
			return b;
		}
	}
	if (e)
		sls_set_curr(s, rq, e);
	return e;
}

void sls_check_preempt(struct sls *s, struct sls_rq *rq, struct sls_ent *e, bool sync)
{
	if (!rq->curr) {
		sl_resched(s->sim, rq->cpu);
		return;
	}
	if (e->rt || rq->curr->rt) {
		/* strict priority: only a more important RT task preempts */
		if (e->rt && (!rq->curr->rt || sls_rt_prio(e) < sls_rt_prio(rq->curr)))
			sl_resched(s->sim, rq->cpu);
		return;
	}
	if (sync)
		return;
	sls_update_curr(s, rq);
	if (rq->curr->vruntime - e->vruntime <= s->wake_gran)
		return;
	if (s->wake_protect && rq->curr->sum_exec - rq->curr->slice_start < s->min_slice) {
		/* curr was picked less than min_slice ago: it keeps the CPU
		 * that long and the preemption waits for the first tick
		 * after (sls_tick_curr).  Without this, on hackbench and
		 * chat every message woke a receiver with its full sleeper
		 * credit, which preempted the sender at once: one message
		 * per switch (docs/policies/sl.md, "Where it loses") */
		if (!rq->wake_pending || e->vruntime < rq->wake_vruntime)
			rq->wake_vruntime = e->vruntime;
		rq->wake_pending = true;
		return;
	}
	sls_preempted_by_wakeup(s, rq);
}

void sls_tick_curr(struct sls *s, struct sls_rq *rq)
{
	struct sls_ent *e = rq->curr;

	sls_update_curr(s, rq);
	if (e && e->rt) {
		/* RR: at the end of its slice, behind the others of its
		 * priority if there are any; FIFO has no slice */
		if (e->task->sched_policy == SL_SCHED_RR &&
		    e->sum_exec - e->rr_start >= s->rr_slice) {
			e->rr_start = e->sum_exec;
			if (sl_prio_array_next_prio(rq->rt, 0) <= sls_rt_prio(e)) {
				e->rt_tail = true;
				sl_resched(s->sim, rq->cpu);
			}
		}
		return;
	}
	if (!e || !rq->nq)
		return;
	if (rq->wake_pending && e->sum_exec - e->slice_start >= s->min_slice) {
		/* a wakeup deferred by wake_protect, checked again now that
		 * curr has had its protected time */
		rq->wake_pending = false;
		if (e->vruntime - rq->wake_vruntime > s->wake_gran) {
			sls_preempted_by_wakeup(s, rq);
			return;
		}
	}
	if (e->sum_exec - e->slice_start >= sls_slice(s, rq) &&
	    rq->heap[0]->batch < sls_batch_of(s, e->vruntime))
		sl_resched(s->sim, rq->cpu);
}

/* ---- moving ---- */

void sls_rebase(struct sls *s, struct sls_ent *e, int dst)
{
	if (e->cpu >= 0 && e->cpu != dst)
		e->vruntime += s->rq[dst].min_vruntime - s->rq[e->cpu].min_vruntime;
	e->cpu = dst;
}

void sls_move_queued(struct sls *s, struct sls_ent *e, int dst)
{
	struct sls_rq *src = &s->rq[e->cpu];
	int from = e->cpu;

	sls_unqueue(s, src, e);
	if (src->preempted == e)
		src->preempted = NULL;
	sls_nr_add(s, src, -1);
	sls_note_waiting(s, src);
	e->on_rq = false;
	sls_note_settled(s, e);
	sls_rebase(s, e, dst);
	sls_enqueue(s, &s->rq[dst], e);
	sl_note_migration(s->sim, e->task, from, dst);
}

bool sls_idle(const struct sls *s, int cpu)
{
	return sls_load_of(s, cpu) == 0;
}

bool sls_core_idle(const struct sls *s, int cpu)
{
	return s->core_busy[s->topo->cpu_core[cpu]] == 0;
}
