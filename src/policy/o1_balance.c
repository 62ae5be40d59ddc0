/*
 * o1_balance.c - load balancing of the O(1) scheduler: find_busiest_queue
 * with each balancer's own memory of every queue's length (prev_cpu_load),
 * the version's imbalance rule, load_balance pulling expired tasks first and
 * each list from its tail, the cache-hot test against cache_decay_ticks,
 * rebalance_tick, and the HT scheduler's active balancing through the
 * migration thread.
 *
 * Sources: research/policies.md 2.7 (find_busiest_queue, imbalance rules,
 * task selection order, CAN_MIGRATE, cache_decay_ticks), 2.8 (rebalance
 * ticks: jiffies % TICK == 0, so all CPUs balance on the same jiffy), 4.5
 * (passive balancing of shared runqueues, pull_task -> wake_up_cpu), 4.6
 * (active balancing, the F3 and A9 forms), 7.1 (per-balancer memory), 7.4
 * (every balance is a pull; the migration thread is the only push);
 * [S5] 2.6.0, [S6] 2.5.6x, [S11] 2.5.40, [S12] A9, [S21] F3.
 *
 * Choices where the sources are uncertain:
 *   - F3 sets the active-balance latch on the idle CPU that asks (4.6) but
 *     the research does not say who clears it.  Here the migration thread
 *     that answers clears the latch of every CPU that asked it, so that an
 *     idle CPU can ask again later.
 *   - The pull made by the migration thread (knob active_steal_hot): the
 *     task it preempted ran this jiffy, so under the stock test (hot tasks
 *     never stolen, 2.5.31-2.5.68) active balancing could never move it,
 *     and Ingo's goal 2 ("even if the tasks on the busy package are both
 *     running") would fail.  By default that pull ignores cache hotness,
 *     as A9's AGRESSIVE_IDLE_STEAL made every idle pull do.  INFERRED.
 *   - With no NUMA balancing modelled yet, the balancing mask is every CPU
 *     for all versions (what a non-NUMA build of those kernels does); the
 *     2.5.59+ node balancer slots in at o1_balance_mask().
 *
 * Omitted / simplified:
 *   - double_lock_balance: no locks, so this queue's length never has to
 *     be re-read after taking the busiest queue's lock.
 *   - The NUMA node balancing of 2.5.59 (NODE_BALANCE_RATE) and of
 *     2.5.68/2.6.0 (node ticks): a later issue; see o1_balance_mask().
 */
#include "policy/o1_core.h"
#include "sim/sim.h"

/* The CPUs a balance looks at.  The NUMA versions will restrict it to the
 * node and add the node balancer here (policies.md 3). */
static const sl_cpumask *o1_balance_mask(const struct o1 *s, int cpu)
{
	(void)cpu;
	return &s->topo->all_cpus;
}

/* ---- find_busiest_queue ---- */

/*
 * Lengths are smoothed against this balancer's memory: our own queue
 * counts as the longer of now and last time, the others as the shorter,
 * unless we are idle.  Returns the queue to pull from and *imbalance.
 */
static struct o1_rq *o1_find_busiest_queue(struct sl_sim *sim, struct o1 *s,
					   struct o1_rq *this_rq, int this_cpu, bool idle,
					   int *imbalance)
{
	int *prev = this_rq->prev_cpu_load;
	int nr_running = idle || this_rq->nr_running > prev[this_cpu] ?
			 this_rq->nr_running : prev[this_cpu];
	struct o1_rq *busiest = NULL;
	int max_load = 1;	/* a queue needs >= 2 tasks to be busiest */
	int looked = 0;

	sl_for_each_cpu(i, o1_balance_mask(s, this_cpu)) {
		struct o1_rq *rq = s->rq_of[i];
		int load = idle || rq->nr_running < prev[i] ? rq->nr_running : prev[i];
		prev[i] = rq->nr_running;
		looked++;
		if (load > max_load && rq != this_rq) {
			busiest = rq;
			max_load = load;
		}
	}
	sl_charge_sched(sim, this_cpu, looked * s->cfg.scan_ns);
	if (!busiest)
		return NULL;

	if (s->cfg.v->imbalance == O1_IMBALANCE_HALF) {
		/* pull half the difference, and only for a ~25% imbalance */
		*imbalance = (max_load - nr_running) / 2;
		if (!idle && *imbalance < (max_load + 3) / 4)
			return NULL;
		if (busiest->nr_running <= nr_running + 1)
			return NULL;
	} else {
		*imbalance = max_load - nr_running;
		if (!idle && *imbalance * 4 < max_load)
			return NULL;
		if (busiest->nr_running <= nr_running)
			return NULL;
	}
	return busiest;
}

/* ---- load_balance ---- */

static bool o1_task_hot(struct sl_sim *sim, const struct o1 *s, const struct o1_task *p)
{
	if (s->cfg.v->interactivity == O1_SLEEP_NS) {
		/* 2.6.0: ns since its last switch, against the busiest's last tick */
		sl_time last_tick = (sl_time)sl_jiffies(sim) * s->tick_ns;
		return last_tick - p->timestamp <= s->cfg.cache_decay_ticks * s->tick_ns;
	}
	return (int64_t)sl_jiffies(sim) - p->last_run <= s->cfg.cache_decay_ticks;
}

/* CAN_MIGRATE_TASK: not running, allowed here, and cold enough. */
static bool o1_can_migrate(struct sl_sim *sim, const struct o1 *s, const struct o1_task *p,
			   int this_cpu, bool idle, bool steal_hot)
{
	if (sl_task_running(p->task) || !sl_cpumask_test(&p->task->allowed, this_cpu))
		return false;
	if (steal_hot || (idle && s->cfg.hot == O1_HOT_IF_IDLE))
		return true;
	return !o1_task_hot(sim, s, p);
}

static void o1_pull_task(struct sl_sim *sim, struct o1 *s, struct o1_rq *src,
			 struct o1_task *p, struct o1_rq *this_rq, int this_cpu)
{
	o1_dequeue(p);
	src->nr_running--;
	sl_note_migration(sim, p->task, p->cpu, this_cpu);
	p->cpu = this_cpu;
	this_rq->nr_running++;
	o1_enqueue(this_rq->active, p);
	if (s->cfg.wake_up_cpu) {
		o1_wake_up_cpu(sim, s, this_rq, this_cpu, p);
		return;
	}
	/* idle has prio MAX_PRIO, so an idle balancer always reschedules */
	int curr = o1_curr_prio(sim, this_cpu);
	if (p->prio < curr || (s->cfg.v->preempt_equal_prio && p->prio == curr &&
			       p->time_slice > o1_curr_slice(sim, this_cpu)))
		sl_resched(sim, this_cpu);
}

/*
 * Pull from the busiest queue: expired tasks first (least likely to run
 * soon, most likely cache-cold), highest priority first, each list from
 * its tail.  An idle balancer takes one task; a busy one `imbalance`.
 */
void o1_load_balance(struct sl_sim *sim, struct o1 *s, struct o1_rq *this_rq, int this_cpu,
		     bool idle, bool steal_hot)
{
	int imbalance = 0;
	struct o1_rq *busiest = o1_find_busiest_queue(sim, s, this_rq, this_cpu, idle,
						      &imbalance);
	if (!busiest)
		return;
	/* 2.6.0: half the difference.  A difference of 1 gives 0, and the
	 * loop below then never reaches 0: it takes every movable task. */
	if (s->cfg.v->imbalance == O1_IMBALANCE_QUARTER)
		imbalance /= 2;

	struct sl_prio_array *array = sl_prio_array_empty(busiest->expired) ?
				      busiest->active : busiest->expired;
	int looked = 0;
	for (;;) {
		struct sl_prio_node *n = sl_prio_array_first_tailwise(array);
		while (n) {
			struct sl_prio_node *next = sl_prio_array_next_tailwise(array, n);
			struct o1_task *p = o1_of_node(n);
			looked++;
			if (o1_can_migrate(sim, s, p, this_cpu, idle, steal_hot)) {
				o1_pull_task(sim, s, busiest, p, this_rq, this_cpu);
				if (idle || !--imbalance)
					goto out;
			}
			n = next;
		}
		if (array != busiest->expired)
			break;
		array = busiest->active;
	}
out:
	sl_charge_sched(sim, this_cpu, looked * s->cfg.scan_ns);
}

/* ---- rebalance_tick ---- */

void o1_rebalance_tick(struct sl_sim *sim, struct o1 *s, int cpu, bool idle)
{
	uint64_t j = sl_jiffies(sim);
	struct o1_rq *rq = s->rq_of[cpu];

	if (!s->cfg.smp)
		return;
	if (idle) {
		if (j % (uint64_t)s->idle_ticks == 0)
			o1_load_balance(sim, s, rq, cpu, s->cfg.v->idle_tick_passes_idle, false);
		return;
	}
	if (j % (uint64_t)s->busy_ticks == 0)
		o1_load_balance(sim, s, rq, cpu, false, false);
}

/* ---- active balancing (HT scheduler, 4.6) ---- */

static bool o1_rq_has_idle_cpu(struct sl_sim *sim, const struct o1_rq *rq)
{
	sl_for_each_cpu(c, &rq->cpus)
		if (sl_cpu_idle(sim, c))
			return true;
	return false;
}

/*
 * Run by a CPU whose whole runqueue is idle and whose pull failed: any
 * runqueue with every sibling busy has an SMT imbalance against us, but
 * its tasks are all running and cannot be pulled.  Wake its migration
 * thread, which preempts one of them so that it can be.
 */
void o1_active_load_balance(struct sl_sim *sim, struct o1 *s, struct o1_rq *this_rq,
			    int this_cpu)
{
	if (!s->cfg.active_balance)
		return;
	for (int i = 0; i < s->nrqs; i++) {
		struct o1_rq *rq = &s->rqs[i];
		if (rq == this_rq || (s->cfg.active_skip_single && rq->ncpus == 1))
			continue;
		if (rq->nr_running == 0 || o1_rq_has_idle_cpu(sim, rq))
			continue;
		if (s->cfg.active_flag == O1_ACTIVE_FLAG_REQUESTER) {
			if (s->active_req[this_cpu])
				continue;
			s->active_req[this_cpu] = true;
			s->active_req_rq[this_cpu] = rq;
		} else {
			if (rq->active_balance)
				continue;
			rq->active_balance = true;
		}
		sl_migration_wake(sim, rq->first_cpu, this_cpu);
	}
}

/* The first CPU whose runqueue is completely empty, or -1. */
static int o1_first_idle_rq_cpu(const struct o1 *s)
{
	for (int i = 0; i < s->nrqs; i++)
		if (s->rqs[i].nr_running == 0)
			return s->rqs[i].first_cpu;
	return -1;
}

/*
 * The busy runqueue's migration thread answers: its CPU's task is now
 * queued-not-running, so a balance run on behalf of a wholly idle
 * runqueue can pull it.
 */
void o1_do_active_balance(struct sl_sim *sim, struct o1 *s, int cpu)
{
	struct o1_rq *rq = s->rq_of[cpu];

	if (!s->cfg.active_balance)
		return;
	rq->active_balance = false;
	for (int c = 0; c < s->ncpus; c++)
		if (s->active_req[c] && s->active_req_rq[c] == rq)
			s->active_req[c] = false;
	if (o1_rq_has_idle_cpu(sim, rq))
		return;		/* a sibling went idle meanwhile: no SMT imbalance */
	int target = o1_first_idle_rq_cpu(s);
	if (target < 0)
		return;
	o1_load_balance(sim, s, s->rq_of[target], target, true, s->cfg.active_steal_hot);
}
