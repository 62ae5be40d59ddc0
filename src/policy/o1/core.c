/*
 * o1/core.c - the runqueues of the O(1) scheduler of Linux 2.5/2.6.0 (Ingo
 * Molnar, 2002), shared by the policies o1 (stock SMP, with the NUMA
 * scheduler), ht (Ingo's shared-runqueue HT scheduler) and up (a
 * uniprocessor build): one runqueue per CPU (per SMT core for ht, one on
 * CPU 0 for up) with active and expired priority arrays; queueing and the
 * nr_running / node_nr_running counts; moving a queued task between
 * runqueues; creation from the topology and the consistency check.  The
 * decisions are in the other files of policy/o1/ (see o1/core.h).
 *
 * Sources: 2.6.0 kernel/sched.c and a 2.5.6x one (runqueue, prio_array;
 * nr_running counts the running task; node_nr_running, activate_task and
 * its 2.5.68 requeue_waker), the NUMA scheduler's prev_node_load and
 * nr_balanced (Martin Bligh's numasched3); a runqueue per package shared
 * by its siblings, task_running as "curr of the CPU in task_cpu", from
 * Ingo Molnar's HT patches (F3: LKML, 27 Aug 2002,
 * <Pine.LNX.4.44.0208270226190.12947-100000@localhost.localdomain>; A9:
 * LKML, 21 Apr 2003,
 * <Pine.LNX.4.44.0304211509010.11700-100000@devserv.devel.redhat.com>).
 * Docs: docs/policies/o1.md, ht.md, up.md.
 *
 * Choices where the sources are uncertain:
 *   - "Package" of the HT patch = SMT core of the topology (see o1/ht.c).
 *
 * Omitted / simplified:
 *   - The per-runqueue locks and their contention: the scheduler's own
 *     work is charged as scan_ns per schedule() and per runqueue or task
 *     looked at by the balancer, without lock waits.
 *   - node_nr_running is a plain counter updated with nr_running (the
 *     kernel's atomic_t); nothing reads it between the two updates.
 */
#include <limits.h>
#include <stdlib.h>

#include "policy/kernel_arch.h"
#include "policy/o1/core.h"
#include "sim/sim.h"

/* ---- runqueue membership ---- */

void o1_enqueue(struct sl_prio_array *array, struct o1_task *p)
{
	sl_prio_array_enqueue(array, &p->run_list, p->prio);
	p->array = array;
}

void o1_dequeue(struct o1_task *p)
{
	sl_prio_array_dequeue(p->array, &p->run_list);
	p->array = NULL;
}

void o1_activate_quiet(struct o1 *s, struct o1_rq *rq, struct o1_task *p)
{
	o1_enqueue(rq->active, p);
	o1_nr_inc(s, rq);
}

bool o1_activate(struct sl_sim *sim, struct o1 *s, struct o1_rq *rq, struct o1_task *p,
		 bool from_interrupt, struct o1_task *waker)
{
	bool requeue_waker = false;

	if (s->cfg.v->interactivity == O1_SLEEP_NS) {
		sl_time now = o1_sched_clock(sim, s);
		o1_recalc_task_prio(s, p, now);
		/* -1 (uninterruptible sleep) stays: no runqueue-wait credit */
		if (!p->activated)
			p->activated = from_interrupt ? 2 : 1;
		p->timestamp = now;
	} else {
		requeue_waker = o1_credit_sleep_jiffies(s, p, from_interrupt ? NULL : waker,
							sl_jiffies(sim));
	}
	o1_activate_quiet(s, rq, p);
	return requeue_waker;
}

void o1_deactivate(struct o1 *s, struct o1_rq *rq, struct o1_task *p)
{
	o1_dequeue(p);
	o1_nr_dec(s, rq);
}

/* Take queued p off its runqueue and make `cpu` its task_cpu: the
 * destination's runqueue, for the caller to queue it on. */
static struct o1_rq *o1_unqueue_to(struct sl_sim *sim, struct o1 *s, struct o1_task *p, int cpu)
{
	struct o1_rq *src = o1_rq(s, p->cpu), *dst = o1_rq(s, cpu);

	o1_deactivate(s, src, p);
	if (src != dst)
		sl_note_migration(sim, p->task, p->cpu, cpu);
	p->cpu = cpu;
	return dst;
}

void o1_move_task(struct sl_sim *sim, struct o1 *s, struct o1_task *p, int cpu)
{
	o1_activate_quiet(s, o1_unqueue_to(sim, s, p, cpu), p);
}

/* The migration thread's move of p (queued, not running) to cpu: off its
 * queue, then activate_task there, with its sleep credit and, in 2.6.0,
 * the activated mark that earns the runqueue-wait credit at the pick
 * (2.6.11 kernel/sched.c __migrate_task; 2.6.0's move_task_away and the
 * 2.5 rows taken to be the same, as set_cpus_allowed in o1/attr.c). */
void o1_migrate_task(struct sl_sim *sim, struct o1 *s, struct o1_task *p, int cpu)
{
	o1_activate(sim, s, o1_unqueue_to(sim, s, p, cpu), p, false, NULL);
}

/* ---- what runs where ---- */

int o1_curr_prio(struct sl_sim *sim, int cpu)
{
	if (sl_cpu_idle(sim, cpu))
		return SL_MAX_PRIO;
	struct sl_task *t = sl_curr(sim, cpu);
	return t ? o1_of(t)->prio : 0;
}

int o1_curr_slice(struct sl_sim *sim, int cpu)
{
	if (sl_cpu_idle(sim, cpu))
		return 0;
	struct sl_task *t = sl_curr(sim, cpu);
	return t ? o1_of(t)->time_slice : INT_MAX;
}

/* ---- creation ---- */

static void o1_rq_init(struct o1 *s, struct o1_rq *rq, int node)
{
	sl_prio_array_init(&rq->arrays[0]);
	sl_prio_array_init(&rq->arrays[1]);
	rq->active = &rq->arrays[0];
	rq->expired = &rq->arrays[1];
	rq->expired_timestamp = -1;
	rq->prev_cpu_load = sl_xcalloc((unsigned long)s->ncpus, sizeof(int));
	rq->prev_node_load = sl_xcalloc((unsigned long)s->nnodes, sizeof(int));
	sl_cpumask_clear(&rq->cpus);
	rq->first_cpu = -1;
	rq->last_cpu = -1;
	rq->node = node;
	rq->index = (int)(rq - s->rqs);
}

static void o1_rq_add_cpu(struct o1 *s, struct o1_rq *rq, int cpu)
{
	sl_cpumask_set(&rq->cpus, cpu);
	if (rq->first_cpu < 0)
		rq->first_cpu = cpu;
	if (cpu > rq->last_cpu)
		rq->last_cpu = cpu;
	rq->ncpus++;
	s->rq_of[cpu] = rq;
	s->rq_idx[cpu] = rq->index;
}

/* One runqueue per CPU, per SMT core (share_siblings), or one on CPU 0 (UP). */
static void o1_build_runqueues(struct o1 *s)
{
	const struct sl_topo *topo = s->topo;

	s->rqs = sl_xcalloc((unsigned long)s->ncpus, sizeof(struct o1_rq));
	for (int cpu = 0; cpu < s->ncpus; cpu++) {
		if (!s->cfg.smp && cpu > 0) {
			s->rq_of[cpu] = &s->rqs[0];	/* never used to run anything */
			s->rq_idx[cpu] = 0;
			continue;
		}
		int first = sl_cpumask_first(sl_topo_siblings(topo, cpu));
		if (s->cfg.share_siblings && first != cpu) {
			o1_rq_add_cpu(s, s->rq_of[first], cpu);
			continue;
		}
		struct o1_rq *rq = &s->rqs[s->nrqs++];
		o1_rq_init(s, rq, topo->cpu_node[cpu]);
		o1_rq_add_cpu(s, rq, cpu);
	}
	/* nr_cpus_node, or (node_load_per_rq) the node's runqueues */
	for (int n = 0; n < s->nnodes; n++)
		s->node_weight[n] = s->cfg.node_load_per_rq ? 0 :
				    sl_cpumask_weight(&topo->node_cpus[n]);
	if (s->cfg.node_load_per_rq)
		for (int i = 0; i < s->nrqs; i++)
			s->node_weight[s->rqs[i].node]++;
}

/* The change logs' rankings (o1_chg_log): every queue empty, so none;
 * each log's mask, and its count of CPUs, is its runqueues' node mask. */
static void o1_rank_init(struct o1 *s)
{
	int nlogs = s->numa ? s->nnodes : 1;

	s->rq_is_cpu = s->cfg.smp && s->nrqs == s->ncpus;
	s->rq_listed = s->cfg.smp;
	for (int i = 0, k = 0; i < s->nrqs; i++) {
		const struct o1_rq *rq = &s->rqs[i];
		if (rq->ncpus != 1 || rq->first_cpu != i)
			s->rq_is_cpu = false;
		s->rq_cpu_at[i] = k;
		sl_for_each_cpu(c, &rq->cpus) {
			s->rq_cpu[k++] = c;
			if (!sl_cpumask_test(o1_node_mask(s, rq->first_cpu), c))
				s->rq_listed = false;
		}
		s->rq_cpu_at[i + 1] = k;
	}

	for (int n = 0; n < nlogs; n++) {
		s->chg[n].top = 1;
		s->chg[n].bits = sl_xcalloc((unsigned long)O1_RANK_CAP * (unsigned long)s->mask_words,
					    sizeof(uint64_t));
	}
	for (int i = 0; i < s->nrqs; i++) {
		struct o1_chg_log *l = o1_chg_log_of(s, &s->rqs[i]);
		if (l->ncpus)
			continue;	/* its node's log, done */
		/* as o1_scan counts them: every CPU of the mask */
		int looked = sl_cpumask_weight(o1_node_mask(s, s->rqs[i].first_cpu));
		l->ncpus = looked;
		l->whole = looked == s->ncpus;	/* a mask holds no CPU >= ncpus */
		/* (the ranking holds a runqueue's CPUs in its node's log) */
		if (s->rq_listed && looked >= O1_RANK_MIN_CPUS)
			s->rank = true;
	}
}

static int o1_ms_to_ticks(int ms, unsigned hz)
{
	int t = (int)((long long)ms * hz / 1000);
	return t > 0 ? t : 1;
}

static void o1_derive_constants(struct o1 *s)
{
	const struct o1_version *v = s->cfg.v;
	unsigned hz = s->cfg.hz;

	s->tick_ns = SL_SEC / hz;
	s->min_slice = o1_ms_to_ticks(v->min_timeslice_ms, hz);
	s->max_slice = o1_ms_to_ticks(v->max_timeslice_ms, hz);
	if (s->max_slice < s->min_slice)
		s->max_slice = s->min_slice;
	if (v->interactivity == O1_SLEEP_NS) {
		/* MAX_SLEEP_AVG = AVG_TIMESLICE * MAX_BONUS; starvation the same */
		s->max_sleep_avg = (int64_t)o1_timeslice_of(s, O1_NICE0_PRIO) * o1_max_bonus(s);
		s->starvation_limit = s->max_sleep_avg;
	} else {
		s->max_sleep_avg = o1_ms_to_ticks(v->max_sleep_avg_ms, hz);
		s->starvation_limit = v->starvation_limit_ms ?
			o1_ms_to_ticks(v->starvation_limit_ms, hz) : 0;
	}
	s->busy_ticks = o1_ms_to_ticks(v->busy_rebalance_ms, hz);
	s->idle_ticks = o1_ms_to_ticks(v->idle_rebalance_ms, hz);
	s->busy_node_ticks = s->busy_ticks * v->busy_node_factor;
	s->idle_node_ticks = s->idle_ticks * v->idle_node_factor;
	s->due_at = -1;		/* no instant's due tests worked out yet */
	s->idle_active_ticks = s->cfg.idle_active_ms ?
		o1_ms_to_ticks(s->cfg.idle_active_ms, hz) : 0;
}

struct o1 *o1_core_create(struct sl_sim *sim, const struct o1_config *cfg,
			  struct sl_err *err)
{
	if (!cfg->v) {
		sl_fail_internal(err, "o1: no version");
		return NULL;
	}
	struct o1 *s = sl_xcalloc(1, sizeof(*s));
	s->cfg = *cfg;
	s->topo = sl_topo(sim);
	s->ncpus = s->topo->ncpus;
	s->mask_words = (s->ncpus + 63) / 64;
	s->nnodes = s->topo->nnodes > 0 ? s->topo->nnodes : 1;
	s->numa = cfg->smp && cfg->numa && s->nnodes > 1;
	s->chg = sl_xcalloc((unsigned long)(s->numa ? s->nnodes : 1), sizeof(*s->chg));
	o1_derive_constants(s);
	o1_build_runqueues(s);
	o1_rank_init(s);
	sl_set_hz(sim, cfg->hz);
	sl_set_tick_mode(sim, cfg->tick);
	sl_set_timers_as(sim, SL_TIMERS_2_6, (int)cfg->timers);
	sl_set_pipes(sim, sl_arch_pipes(s->topo->arch, SL_PIPES_2_6_0));
	sl_set_sockets(sim, sl_arch_sockets_24(s->topo->arch));
	sl_set_migration_fifo99(sim, true);
	sl_set_kernel_preempt(sim, cfg->preempt);
	return s;
}

void o1_core_destroy(struct sl_sim *sim)
{
	struct o1 *s = o1_state(sim);

	for (int i = 0; i < s->nrqs; i++) {
		free(s->rqs[i].prev_cpu_load);
		free(s->rqs[i].prev_node_load);
	}
	free(s->rqs);
	for (int n = 0; n < (s->numa ? s->nnodes : 1); n++)
		free(s->chg[n].bits);
	free(s->chg);
	free(s);
}

/* ---- consistency (tests, --check) ---- */

/*
 * Checked after every event in test builds, so it must stay cheap on big
 * machines: O(tasks + runqueues + CPUs).  Each runnable task must sit,
 * properly linked and with its priority's bit set, in an array of its
 * CPU's runqueue; the counts, per runqueue and per node, must add up.
 */
static int o1_check_task(struct o1 *s, struct sl_task *t, int *count, struct sl_err *err)
{
	struct o1_task *p = o1_of(t);

	if (t->state != SL_TASK_RUNNABLE) {
		if (p->array)
			return sl_fail_internal(err, "o1: task %d is queued but not runnable", t->id);
		return 0;
	}
	struct o1_rq *rq = o1_rq(s, p->cpu);
	const struct sl_prio_node *n = &p->run_list;
	if (!p->array || (p->array != rq->active && p->array != rq->expired))
		return sl_fail_internal(err, "o1: runnable task %d is not on the runqueue of "
					"CPU %d", t->id, p->cpu);
	if (n->next->prev != n || n->prev->next != n || n->prio < 0 || n->prio >= SL_MAX_PRIO ||
	    !((p->array->bitmap[n->prio >> 6] >> (n->prio & 63)) & 1))
		return sl_fail_internal(err, "o1: task %d badly linked at prio %d", t->id, n->prio);
	if (t->cpu >= 0 && o1_rq(s, t->cpu) != rq)
		return sl_fail_internal(err, "o1: task %d runs on CPU %d but is queued for "
					"CPU %d", t->id, t->cpu, p->cpu);
	if (!s->cfg.smp && (p->cpu != 0 || t->cpu > 0))
		return sl_fail_internal(err, "o1: UP kernel has task %d on CPU %d", t->id,
					t->cpu > 0 ? t->cpu : p->cpu);
	if (p->time_slice <= 0 && t->cpu < 0)
		return sl_fail_internal(err, "o1: queued task %d has slice %d", t->id,
					p->time_slice);
	count[rq - s->rqs]++;
	return 0;
}

static int o1_check_counts(struct o1 *s, const int *count, struct sl_err *err)
{
	int node_sum[SL_MAX_NODES] = { 0 };

	for (int i = 0; i < s->nrqs; i++) {
		struct o1_rq *rq = &s->rqs[i];
		int a = rq->active->nr_active, e = rq->expired->nr_active;
		if (a + e != rq->nr_running || count[i] != rq->nr_running)
			return sl_fail_internal(err, "o1: runqueue of CPU %d: %d active + %d "
						"expired, %d tasks, nr_running %d", rq->first_cpu,
						a, e, count[i], rq->nr_running);
		node_sum[rq->node] += rq->nr_running;
		if (s->rq_nr[i] != rq->nr_running)
			return sl_fail_internal(err, "o1: runqueue %d holds %d, its copy says %d",
						i, rq->nr_running, s->rq_nr[i]);
		if (sl_cpumask_test(&s->rq_busy, i) != (rq->nr_running > 0))
			return sl_fail_internal(err, "o1: runqueue %d holds %d, its busy bit is %d",
						i, rq->nr_running, sl_cpumask_test(&s->rq_busy, i));
		if (sl_cpumask_test(&s->rq_full, i) !=
		    (rq->nr_running > 0 && rq->nr_running + rq->nmig >= rq->ncpus))
			return sl_fail_internal(err, "o1: runqueue %d holds %d with %d migration "
						"threads on %d CPUs, its full bit is %d", i,
						rq->nr_running, rq->nmig, rq->ncpus,
						sl_cpumask_test(&s->rq_full, i));
	}
	for (int n = 0; n < s->nnodes; n++)
		if (node_sum[n] != s->node_nr_running[n])
			return sl_fail_internal(err, "o1: node %d: node_nr_running %d, its "
						"runqueues hold %d", n, s->node_nr_running[n],
						node_sum[n]);
	return 0;
}

int o1_core_check(struct sl_sim *sim, struct sl_err *err)
{
	struct o1 *s = o1_state(sim);
	int count[SL_MAX_CPUS] = { 0 };

	int affinity[SL_MAX_CPUS] = { 0 };
	for (struct sl_task *t = sl_task_first(sim); t; t = sl_task_next(t)) {
		if (o1_check_task(s, t, count, err))
			return -1;
		if (o1_of(t)->affinity_cpu >= 0)
			affinity[o1_of(t)->affinity_cpu]++;
	}
	if (o1_check_counts(s, count, err) || o1_check_balance_memo(s, err) ||
	    o1_check_rank(s, err))
		return -1;
	int nmig[SL_MAX_CPUS] = { 0 };
	for (int cpu = 0; cpu < s->ncpus && s->cfg.smp; cpu++) {
		/* (up has no migration op: it never wakes the thread) */
		bool mig = !sl_curr(sim, cpu) && !sl_cpu_idle(sim, cpu);
		if (mig != s->in_migration[cpu])
			return sl_fail_internal(err, "o1: CPU %d's migration thread %s, its flag "
						"says %s", cpu, mig ? "runs" : "does not run",
						s->in_migration[cpu] ? "it does" : "not");
		nmig[s->rq_of[cpu]->index] += mig;
	}
	for (int i = 0; i < s->nrqs; i++)
		if (nmig[i] != s->rqs[i].nmig)
			return sl_fail_internal(err, "o1: runqueue %d counts %d migration threads, "
						"%d run", i, s->rqs[i].nmig, nmig[i]);
	for (int cpu = 0; cpu < s->ncpus; cpu++) {
		struct sl_task *t = sl_curr(sim, cpu);
		if (t && t != s->curr[cpu])
			return sl_fail_internal(err, "o1: CPU %d runs task %d, schedule() chose %d",
						cpu, t->id, s->curr[cpu] ? s->curr[cpu]->id : -1);
		if (affinity[cpu] != s->affinity_req[cpu])
			return sl_fail_internal(err, "o1: CPU %d's migration thread has %d affinity "
						"moves, %d tasks wait for it", cpu,
						s->affinity_req[cpu], affinity[cpu]);
		struct o1_exec_req *x = &s->exec_req[cpu];
		if (x->p && (x->p->exec_cpu != cpu || x->p->task->state == SL_TASK_DEAD))
			return sl_fail_internal(err, "o1: CPU %d holds a stale exec move of "
						"task %d", cpu, x->p->task->id);
	}
	return 0;
}
