/*
 * domains/load.c - how scheduler domains measure load: nr_running as the
 * kernel counts it, idle CPUs, the decayed cpu_load of 2.6.12 with its
 * source/target guesses, w26's per-balancer "low"/"high" guesses, and
 * find_busiest_group / find_busiest_queue of both versions.
 *
 * Sources: 2.6.12.1 kernel/sched.c (rebalance_tick's cpu_load,
 * source_load, target_load, find_busiest_group, find_busiest_queue) and
 * 2.6.11's find_busiest_group for what changed; for w26 the sched-domains
 * code of early 2004 before Nick Piggin's Feb 2004 "lessidle" patch
 * (SD_FLAG_IDLE summed group loads, the per-runqueue cpu_load[NR_CPUS]
 * memory of "low"/"high" guesses) and Nick's mail to Rick Lindsley on
 * SD_FLAG_IDLE vs cpu_power (LKML, Feb 2004).
 *
 * Choices:
 *   - The migration thread counts in nr_running from the wakeup that
 *     activates it (wake_up_process: try_to_wake_up -> activate_task) to
 *     the schedule() after its run, as the kernel's migration thread is a
 *     task on its runqueue: a busy CPU whose thread was woken has two, also
 *     while the thread waits for the IPI or a non-preemptible kernel's
 *     return to user space, so move_tasks and active balancing may take
 *     its task.
 *   - idle_cpu() is the engine's sl_cpu_idle(), "runs its idle task",
 *     as 2.6.12's reads rq->curr: a CPU given a task it has not switched
 *     to yet is still idle (wake_idle reads cpu_curr without the
 *     runqueue lock), and a CPU inside schedule() is not idle to its own
 *     balance, prev or the migration thread being curr (thread_pick).
 *   - 2.6.12's find_busiest_group is 2.6.12.1's, with Nick Piggin's Feb
 *     2005 changes to 2.6.11's: the imbalance is the smaller of the two
 *     gaps to the average, each times its own group's cpu_power; below one
 *     task's load (128, 2.6.11: 127) one task moves if the gap is two
 *     tasks or the CPU power in use rises at all (2.6.11: by an 8th of a
 *     CPU), counting the load we'd add in our group's power; otherwise the
 *     division rounds down (2.6.11 added 1 first).
 *   - w26: the imbalance is (min(max - avg, avg - this) + 1) / 2, rounded
 *     to the nearest task ((imb + 64 + 1) >> 7), times the smaller group's
 *     CPU count; the imbalance_pct test applies only to NOT_IDLE
 *     balancing.  There is no "newly idle: try one task anyway" (lessidle
 *     added it).  Rounding to nearest, a lone task (1 vs 0) or 2 vs 1 on
 *     two packages is no imbalance.
 *   - w26's find_busiest_queue takes the CPU with the largest "low" load
 *     (first one on ties), like 2.6.12's with source_load.
 *
 * Omitted / simplified:
 *   - schedstats.
 *   - Offline CPUs (cpu_online_map): every CPU is online.
 */
#include "policy/domains/domains.h"
#include "sim/sim.h"

static inline unsigned long sd_min(unsigned long a, unsigned long b)
{
	return a < b ? a : b;
}

static inline unsigned long sd_max(unsigned long a, unsigned long b)
{
	return a > b ? a : b;
}

void sd_wake_migration(struct sl_sim *sim, struct sd_sched *s, int cpu, long arg)
{
	sl_migration_wake(sim, cpu, arg);
	if (!s->thread_woken[cpu]) {
		int was = sd_thread_runnable(s, cpu);
		s->thread_woken[cpu] = true;
		if (!was)
			sd_load_changed(s, cpu);
	}
}

bool sd_cpu_and_siblings_idle(struct sl_sim *sim, const struct sd_sched *s, int cpu)
{
	/* a word at a time: active balance asks this of every idle CPU; the
	 * words of the siblings alone (the others hold none of them: on
	 * 1,024 CPUs the 16 words were 4 % of a spin's instructions) */
	return sl_cpumask_subset_in(sl_topo_siblings(s->topo, cpu), sl_idle_cpus(sim),
				    s->sib_first[cpu], s->sib_end[cpu]);
}

/* ---- 2.6.12: one decayed load per runqueue ---- */

/* The guesses as the kernel computes them; the balancers read the copies
 * sd_load_changed keeps (sd_source_load, sd_target_load in domains.h),
 * which the check compares with these. */
static unsigned long sd_source_load_now(const struct sd_sched *s, int cpu)
{
	unsigned long now = (unsigned long)sd_nr_running(s, cpu) * SD_LOAD_SCALE;

	return sd_min(sd_rq(s, cpu)->cpu_load, now);
}

static unsigned long sd_target_load_now(const struct sd_sched *s, int cpu)
{
	unsigned long now = (unsigned long)sd_nr_running(s, cpu) * SD_LOAD_SCALE;

	return sd_max(sd_rq(s, cpu)->cpu_load, now);
}


/*
 * The running sums.  source_load / target_load of a CPU are min / max of
 * its cpu_load and 128 * nr_running counting the migration thread; they
 * change only with those, which all pass here (sd_nr_add, cpu_load's
 * update, the migration thread's start in sd_migration and the schedule()
 * ending it in sd_pick_next, which keep in_migration).  Integer sums: the
 * same numbers find_busiest_group's loop adds, in any order.
 */
void sd_load_changed(struct sd_sched *s, int cpu)
{
	const struct sl_topo *t = s->topo;
	int core = t->cpu_core[cpu], node = t->cpu_node[cpu];
	const struct sd_rq *rq = sd_rq(s, cpu);
	unsigned long now = (unsigned long)sd_nr_running(s, cpu) * SD_LOAD_SCALE;
	unsigned long src = sd_min(rq->cpu_load, now), tgt = sd_max(rq->cpu_load, now);

	s->gen_all++;
	s->gen_node[node]++;
	s->gen_core[core]++;
	s->core_src[core] += src - s->src_load[cpu];
	s->node_src[node] += src - s->src_load[cpu];
	s->core_tgt[core] += tgt - s->tgt_load[cpu];
	s->node_tgt[node] += tgt - s->tgt_load[cpu];
	s->src_load[cpu] = src;
	s->tgt_load[cpu] = tgt;
	s->tick_flags[cpu] = (s->smt_nice && rq->nr_running ? SD_TICK_QUEUED : 0) |
			     (s->rules_2612 && src != tgt ? SD_TICK_LOAD : 0);
}

/* ---- w26: every balancer's own memory of every CPU ---- */

static unsigned long sd_guess(struct sd_sched *s, int this_cpu, int cpu, bool update, bool high)
{
	unsigned long *mem = &sd_rq(s, this_cpu)->cpu_loads[cpu];
	unsigned long nr = (unsigned long)sd_nr_running(s, cpu) * SD_LOAD_SCALE;
	unsigned long ret = high ? sd_max(nr, *mem) : sd_min(nr, *mem);

	if (update)
		*mem = (nr + *mem) / 2;
	return ret;
}

unsigned long sd_low_load(struct sd_sched *s, int this_cpu, int cpu, bool update)
{
	return sd_guess(s, this_cpu, cpu, update, false);
}

unsigned long sd_high_load(struct sd_sched *s, int this_cpu, int cpu, bool update)
{
	return sd_guess(s, this_cpu, cpu, update, true);
}

/* ---- find_busiest_group, 2.6.12 ---- */

/*
 * 2.6.12.1 kernel/sched.c find_busiest_group(), the small-imbalance case:
 * would moving one task from busiest to this raise the CPU power in use?
 * (Loads are per 128 of group power.)  2.6.11 asked for a gain of an 8th
 * of a CPU and added min(max_load, one task) to us; Nick Piggin's Feb 2005
 * fix moves on any gain and adds the busiest group's load rescaled to our
 * power, capped at one task.
 */
static bool sd_power_gain(const struct sd_group *busiest, const struct sd_group *this,
			  unsigned long max_load, unsigned long this_load)
{
	unsigned long bp = (unsigned long)busiest->cpu_power;
	unsigned long tp = (unsigned long)this->cpu_power;
	unsigned long scale = SD_LOAD_SCALE;
	unsigned long pwr_now = (bp * sd_min(scale, max_load) + tp * sd_min(scale, this_load)) /
				scale;
	unsigned long t1 = scale * scale / bp;		/* one task's load in busiest */
	unsigned long pwr_move = max_load > t1 ? bp * sd_min(scale, max_load - t1) : 0;
	/* the load we'd add, in our power's units */
	unsigned long t2 = max_load * bp < scale * scale ? max_load * bp / tp : scale * scale / tp;

	pwr_move = (pwr_move + tp * sd_min(scale, this_load + t2)) / scale;
	return pwr_move > pwr_now;
}

/* A group's load as find_busiest_group sums it, its CPUs counted in
 * *looked: biased toward our own group, the high guess (target_load) for
 * it and the low one (source_load) for the others; a core's or a node's
 * sum is kept running (sd_load_changed), read as if its CPUs were. */
static inline unsigned long sd_group_load(struct sl_sim *sim, const struct sd_sched *s,
					  const struct sd_group *g, bool local, long *looked)
{
	unsigned long load = 0;

	if (g->sum_core >= 0) {
		*looked += g->ncpus;
		return local ? s->core_tgt[g->sum_core] : s->core_src[g->sum_core];
	}
	if (g->sum_node >= 0) {
		*looked += g->ncpus;
		return local ? s->node_tgt[g->sum_node] : s->node_src[g->sum_node];
	}
	sd_for_each_group_cpu(i, g) {
		load += local ? sd_target_load(sim, s, i) : sd_source_load(sim, s, i);
		(*looked)++;
	}
	return load;
}

/* 2.6.12's find_busiest_group, the computation without the charge:
 * *looked_out is the CPUs read. */
static struct sd_group *sd_fbg_2612(struct sl_sim *sim, struct sd_sched *s,
				    struct sd_domain *sd, enum sd_idle idle,
				    unsigned long *imbalance, long *looked_out)
{
	struct sd_group *busiest = NULL, *this = sd_group_at(sd, 0), *g = this;
	unsigned long max_load = 0, this_load, total_load, total_pwr;
	long looked = 0;

	/* the local group first (the circular list starts there), then the
	 * others: the loop over the others tests nothing about locality */
	total_load = sd_group_load(sim, s, this, true, &looked);
	total_pwr = (unsigned long)this->cpu_power;
	this_load = total_load * SD_LOAD_SCALE / (unsigned long)this->cpu_power;
	for (int k = 1; k < sd->ngroups; k++) {
		g = sd_group_next(sd, g);
		unsigned long load = sd_group_load(sim, s, g, false, &looked);
		total_load += load;
		total_pwr += (unsigned long)g->cpu_power;
		unsigned long avg = load * SD_LOAD_SCALE / (unsigned long)g->cpu_power;
		if (avg > max_load) {
			max_load = avg;
			busiest = g;
		}
	}
	*looked_out = looked;
	if (!busiest || this_load >= max_load)
		goto out_balanced;

	unsigned long avg_load = SD_LOAD_SCALE * total_load / total_pwr;
	if (this_load >= avg_load ||
	    100 * max_load <= (unsigned long)sd->p.imbalance_pct * this_load)
		goto out_balanced;

	/* how much load to move: the smaller of the two gaps to the average,
	 * each weighted by its own group's power */
	unsigned long imb = sd_min((max_load - avg_load) * (unsigned long)busiest->cpu_power,
				   (avg_load - this_load) * (unsigned long)this->cpu_power) /
			    SD_LOAD_SCALE;
	if (imb < SD_LOAD_SCALE) {
		/* less than a task's worth: one task, if it is worth it */
		if (max_load - this_load >= SD_LOAD_SCALE * 2 ||
		    sd_power_gain(busiest, this, max_load, this_load)) {
			*imbalance = 1;
			return busiest;
		}
		goto out_balanced;
	}
	*imbalance = imb / SD_LOAD_SCALE;	/* rounding down */
	return busiest;

out_balanced:
	/* idle CPUs still try to grab one task */
	if (busiest && (idle == SD_NEWLY_IDLE || (idle == SD_IDLE && max_load > SD_LOAD_SCALE))) {
		*imbalance = 1;
		return busiest;
	}
	*imbalance = 0;
	return NULL;
}

/* ---- find_busiest_group, w26 ---- */

static struct sd_group *sd_fbg_w26(struct sl_sim *sim, struct sd_sched *s,
				   struct sd_domain *sd, int this_cpu, enum sd_idle idle,
				   unsigned long *imbalance)
{
	bool update = idle != SD_NEWLY_IDLE;	/* newly idle would skew the memory */
	bool summed = sd->p.flags & SD_FLAG_IDLE;
	struct sd_group *busiest = NULL;
	unsigned long max_load = 0, this_load = 0, total_load = 0;
	int total_cpus = 0, busiest_cpus = 0, this_cpus = 0;
	long looked = 0;

	struct sd_group *g = sd_group_at(sd, 0);

	for (int k = 0; k < sd->ngroups; k++, g = sd_group_next(sd, g)) {
		bool local = k == 0;
		unsigned long load = 0;

		sd_for_each_group_cpu(i, g) {
			load += local ? sd_high_load(s, this_cpu, i, update) :
					sd_low_load(s, this_cpu, i, update);
			looked++;
		}
		total_load += load;
		total_cpus += g->ncpus;
		/* SD_FLAG_IDLE: a group's load is its sum, not its mean */
		unsigned long avg = summed ? load : load / (unsigned long)g->ncpus;
		if (local) {
			this_load = avg;
			this_cpus = g->ncpus;
		} else if (avg > max_load) {
			max_load = avg;
			busiest = g;
			busiest_cpus = g->ncpus;
		}
	}
	sl_charge_sched(sim, this_cpu, looked * s->scan_ns);
	if (!busiest)
		goto out_balanced;

	unsigned long avg_load = summed ? total_load / (unsigned long)sd->ngroups :
					  total_load / (unsigned long)total_cpus;
	if (this_load >= avg_load)
		goto out_balanced;
	if (idle == SD_NOT_IDLE &&
	    100 * max_load <= (unsigned long)sd->p.imbalance_pct * this_load)
		goto out_balanced;

	unsigned long imb = (sd_min(max_load - avg_load, avg_load - this_load) + 1) / 2;
	/* to the nearest task: a lone task (64 of imbalance) is none */
	unsigned long tasks = (imb + SD_LOAD_SCALE / 2 + 1) / SD_LOAD_SCALE;
	*imbalance = tasks * (unsigned long)(busiest_cpus < this_cpus ? busiest_cpus : this_cpus);
	if (*imbalance)
		return busiest;

out_balanced:
	/* no "newly idle: grab one task anyway" yet: that came with Nick
	 * Piggin's Feb 2004 lessidle patch */
	*imbalance = 0;
	return NULL;
}

/*
 * The memo.  2.6.12's find_busiest_group reads, of every CPU of the span,
 * its cpu_load and nr_running (with the migration thread), and nothing
 * else that changes: no memory of its own (w26's per-balancer guesses are
 * one, so w26 always computes).  An idle CPU balances each domain at its
 * idle interval and reads the whole span each time (the kernel's O(span),
 * kept as the simulated cost); while none of those numbers has changed
 * since (the span's load generation is the same), the answer is the same,
 * so the host takes it from the domain's memo for that idle type and
 * charges the same looked * scan_ns.  The check op recomputes every
 * current memo (sd_check_memo).
 */
struct sd_group *sd_find_busiest_group(struct sl_sim *sim, struct sd_sched *s,
				       struct sd_domain *sd, int this_cpu,
				       enum sd_idle idle, unsigned long *imbalance)
{
	if (s->v->rules == SD_RULES_W26)
		return sd_fbg_w26(sim, s, sd, this_cpu, idle, imbalance);
	struct sd_group *memo_group;
	if (sd_fbg_from_memo(sim, s, sd, this_cpu, idle, imbalance, &memo_group))
		return memo_group;
	struct sd_fbg_memo *m = &sd->memo[idle];
	long looked = 0;
	struct sd_group *g = sd_fbg_2612(sim, s, sd, idle, imbalance, &looked);
	sl_charge_sched(sim, this_cpu, looked * s->scan_ns);
	if (sd->span_gen)
		*m = (struct sd_fbg_memo){ true, *sd->span_gen, g, *imbalance, looked };
	return g;
}

void sd_memo_init(struct sd_sched *s)
{
	const struct sl_topo *t = s->topo;

	for (int cpu = 0; cpu < s->ncpus; cpu++) {
		sd_for_each_domain(s, cpu, sd) {
			const uint64_t *gen = NULL;
			if (sl_cpumask_equal(&sd->span, &t->all_cpus))
				gen = &s->gen_all;
			else if (sl_cpumask_equal(&sd->span, &t->node_cpus[t->cpu_node[cpu]]))
				gen = &s->gen_node[t->cpu_node[cpu]];
			else if (sl_cpumask_equal(&sd->span, sl_topo_siblings(t, cpu)))
				gen = &s->gen_core[t->cpu_core[cpu]];
			sd->span_gen = gen;
			sd->memo_gen = gen ? gen : &s->gen_none;
			for (int k = 0; k < 3; k++)
				sd->fbg_memo[k].gen = UINT64_MAX;	/* none made yet */
			/* the local group's first CPU keeps the memo: at the
			 * NODE level one per node, not one per CPU, so a
			 * change anywhere costs a node one recomputation */
			int first = sl_cpumask_first(&sd->groups[sd->local].cpumask);
			struct sd_domain *owner = &s->domains[first * SD_NR_LEVELS + sd->level];
			bool same = owner->groups == sd->groups && owner->local == sd->local &&
				    sl_cpumask_equal(&owner->span, &sd->span);
			sd->memo = same ? owner->fbg_memo : sd->fbg_memo;
		}
	}
	/* Each group once, from the store: what a group's sums are depends on
	 * its CPUs alone, and the CPUs of a span share its groups
	 * (sd_build_level), so a loop over every CPU's domains' groups set
	 * each one again and again with the same values (on 1,024 CPUs 51 k
	 * groups for 1.6 k in the store, 10 M of the set-up's 26 M
	 * instructions).  The store's first ngroups_used slots are the groups
	 * of every linked domain: a level not built gave its slots back, and
	 * a span that shares its first CPU's groups shares whether it is
	 * built. */
	for (int k = 0; k < s->ngroups_used; k++) {
		struct sd_group *g = &s->group_store[k];
		int c = sl_cpumask_first(&g->cpumask);
		g->sum_core = g->sum_node = -1;
		if (sl_cpumask_equal(&g->cpumask, sl_topo_siblings(t, c)))
			g->sum_core = t->cpu_core[c];
		else if (sl_cpumask_equal(&g->cpumask, &t->node_cpus[t->cpu_node[c]]))
			g->sum_node = t->cpu_node[c];
	}
	for (int cpu = 0; cpu < s->ncpus; cpu++)
		sd_load_changed(s, cpu);
}

int sd_check_memo(struct sl_sim *sim, struct sd_sched *s, struct sl_err *err)
{
	for (int cpu = 0; cpu < s->ncpus; cpu++) {
		bool running = !sl_curr(sim, cpu) && !sl_cpu_idle(sim, cpu);
		if (running != s->in_migration[cpu])
			return sl_fail_internal(err, "domains: CPU %d's migration thread %s, its "
						"flag says %s", cpu, running ? "runs" : "does not run",
						s->in_migration[cpu] ? "it does" : "not");
		if (sl_migration_pending(sim, cpu) != s->thread_woken[cpu])
			return sl_fail_internal(err, "domains: CPU %d's migration thread %s, its "
						"flag says %s", cpu,
						s->thread_woken[cpu] ? "is not woken" : "is woken",
						s->thread_woken[cpu] ? "it is" : "not");
	}
	unsigned long core_src[SL_MAX_CPUS] = { 0 }, core_tgt[SL_MAX_CPUS] = { 0 };
	unsigned long node_src[SL_MAX_NODES] = { 0 }, node_tgt[SL_MAX_NODES] = { 0 };
	for (int cpu = 0; cpu < s->ncpus; cpu++) {
		unsigned long src = sd_source_load_now(s, cpu);
		unsigned long tgt = sd_target_load_now(s, cpu);
		if (src != s->src_load[cpu] || tgt != s->tgt_load[cpu])
			return sl_fail_internal(err, "domains: CPU %d's loads are %lu / %lu, the "
						"running copies say %lu / %lu", cpu, src, tgt,
						s->src_load[cpu], s->tgt_load[cpu]);
		int flags = (s->smt_nice && s->rqs[cpu].nr_running ? SD_TICK_QUEUED : 0) |
			    (s->rules_2612 && src != tgt ? SD_TICK_LOAD : 0);
		if (flags != s->tick_flags[cpu])
			return sl_fail_internal(err, "domains: CPU %d's tick flags are %d, its "
						"runqueue and loads say %d", cpu, s->tick_flags[cpu],
						flags);
		core_src[s->topo->cpu_core[cpu]] += src;
		core_tgt[s->topo->cpu_core[cpu]] += tgt;
		node_src[s->topo->cpu_node[cpu]] += src;
		node_tgt[s->topo->cpu_node[cpu]] += tgt;
	}
	for (int i = 0; i < s->ncpus; i++)
		if (core_src[i] != s->core_src[i] || core_tgt[i] != s->core_tgt[i])
			return sl_fail_internal(err, "domains: core %d's load sums are %lu / %lu, "
						"its CPUs' add up to %lu / %lu", i, s->core_src[i],
						s->core_tgt[i], core_src[i], core_tgt[i]);
	for (int i = 0; i < SL_MAX_NODES; i++)
		if (node_src[i] != s->node_src[i] || node_tgt[i] != s->node_tgt[i])
			return sl_fail_internal(err, "domains: node %d's load sums are %lu / %lu, "
						"its CPUs' add up to %lu / %lu", i, s->node_src[i],
						s->node_tgt[i], node_src[i], node_tgt[i]);
	if (s->v->rules == SD_RULES_W26)
		return 0;
	for (int cpu = 0; cpu < s->ncpus; cpu++) {
		sd_for_each_domain(s, cpu, sd) {
			for (int idle = 0; idle < 3; idle++) {
				const struct sd_fbg_memo *m = &sd->memo[idle];
				bool current = sd->span_gen && m->valid && m->gen == *sd->span_gen;
				if (current != (m->gen == *sd->memo_gen))
					return sl_fail_internal(err, "domains: CPU %d level %d idle %d: "
								"memo %s, its one test says %s",
								cpu, (int)sd->level, idle,
								current ? "current" : "not current",
								current ? "not" : "it is");
				if (!current)
					continue;
				unsigned long imb = 0;
				long looked = 0;
				struct sd_group *g = sd_fbg_2612(sim, s, sd, (enum sd_idle)idle,
								 &imb, &looked);
				if (g != m->group || imb != m->imbalance || looked != m->looked)
					return sl_fail_internal(err, "domains: CPU %d level %d idle %d: "
								"find_busiest_group's memo says "
								"group %ld, imbalance %lu; it "
								"finds %ld, %lu", cpu, (int)sd->level,
								idle, m->group ? (long)(m->group -
								sd->groups) : -1L, m->imbalance,
								g ? (long)(g - sd->groups) : -1L, imb);
			}
		}
	}
	return 0;
}

int sd_find_busiest_queue(struct sl_sim *sim, struct sd_sched *s, int this_cpu,
			  const struct sd_group *group)
{
	unsigned long max_load = 0;
	int busiest = -1;

	sd_for_each_group_cpu(i, group) {
		unsigned long load = s->v->rules == SD_RULES_W26 ?
				     sd_low_load(s, this_cpu, i, false) :
				     sd_source_load(sim, s, i);
		if (load > max_load) {
			max_load = load;
			busiest = i;
		}
	}
	return busiest;
}
