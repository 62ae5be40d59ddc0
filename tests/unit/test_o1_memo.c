/*
 * test_o1_memo.c - find_busiest_queue's memo (o1/busiest.c): an idle CPU
 * whose runqueue lengths have not changed since its last scan takes that
 * scan's answer, and one whose lengths changed a little replays the
 * changes, instead of reading every runqueue again.  The check op, run
 * after every event here, replays every memo against a fresh scan from a
 * copy of the same memory (busy and idle) and fails on any difference;
 * these tests make the memos work on NUMA and SMT machines under every
 * version, and show that the check catches a wrong memo or memory.
 */
#include <string.h>

#include "policy/o1/core.h"
#include "test.h"
#include "test_o1_script.h"

/* Sleepy tasks of several lengths forked from one root, two execing:
 * lengths change all the time, most CPUs idle in between. */
static void o1mt_mix(struct sl_sim *sim)
{
	struct o1t_script *root = o1t_new(sim);

	for (int k = 0; k < 6; k++) {
		struct o1t_script *c = o1t_new(sim);
		for (int j = 0; j < 8; j++) {
			if (k < 2 && j == 0)
				o1t_exec(c, "mix");
			o1t_add(c, sl_act_run((1 + k) * 2 * SL_MSEC, SL_WC_INT));
			o1t_add(c, sl_act_sleep((sl_time)(1 + j % 3) * SL_MSEC));
		}
		o1t_fork(root, c, "mix", 0);
	}
	for (int k = 0; k < 3; k++)
		o1t_fork(root, o1t_hog(sim, 40), "hog", 0);
	for (int k = 0; k < 9; k++)
		o1t_add(root, sl_act_wait());
	sl_sim_spawn_root(sim, &o1t_prog, root, "root");
}

SL_TEST(o1_balance_memo_replays)
{
	static const char *const pols[] = {
		"o1:version=2.5.59", "o1:version=2.5.59,node_balance_rate=1",
		"o1:version=2.5.68", "o1:version=2.6.0", "o1:version=2.5.33",
		"ht:version=e6", "ht:version=a9", "ht:version=c1",
	};
	/* the last, of 64 CPUs, has the ranking (O1_RANK_MIN_CPUS) */
	static const char *const machines[] = {
		"node:2 pack:1 core:4 pu:2", "pack:2 core:4 pu:2", "node:4 pack:1 core:2 pu:1",
		"pack:2 core:16 pu:2",
	};
	for (int m = 0; m < 4; m++) {
		for (size_t i = 0; i < sizeof(pols) / sizeof(pols[0]); i++) {
			struct o1t_run r;
			if (!o1t_start(&r, machines[m], pols[i], 0))
				continue;
			o1mt_mix(r.sim);
			bool ok = o1t_run(&r);
			const struct o1 *s = sl_policy_data(r.sim);
			/* the check op compared every memo after every event */
			CHECKF(ok && sl_nr_tasks(r.sim) == 0, "%s on %s", pols[i], machines[m]);
			/* idle balances that pass idle=1 take the ranking instead */
			CHECKF(s->fbq_replays + s->fbq_ranked > 0,
			       "%s on %s: no call answered by a memo or the ranking",
			       pols[i], machines[m]);
			CHECKF(s->rank == (m == 3), "%s on %s: ranking %d", pols[i], machines[m],
			       s->rank);
			if (s->rank && s->cfg.idle_tick_idle)
				CHECKF(s->fbq_ranked > 0, "%s on %s: no idle call ranked",
				       pols[i], machines[m]);
			sl_sim_destroy(r.sim);
		}
	}
}

/* Run hogs on a NUMA SMT machine for 30 ms: idle CPUs have memos then. */
static struct o1 *o1mt_idle_on(struct o1t_run *r, const char *machine, const char *policy)
{
	if (!o1t_start(r, machine, policy, 30 * SL_MSEC))
		return NULL;
	o1t_spawn_hogs(r->sim, 3, 100);
	if (!o1t_run(r)) {
		sl_sim_destroy(r->sim);
		return NULL;
	}
	return sl_policy_data(r->sim);
}

static struct o1 *o1mt_idle_machine(struct o1t_run *r, const char *policy)
{
	return o1mt_idle_on(r, "node:2 pack:1 core:4 pu:2", policy);
}

SL_TEST(o1_balance_memo_check_catches)
{
	static const char *const pols[] = { "o1:version=2.6.0", "ht:version=c1" };

	for (int i = 0; i < 2; i++) {
		struct o1t_run r;
		struct sl_err err;
		struct o1 *s = o1mt_idle_machine(&r, pols[i]);
		CHECK(s != NULL);
		if (!s)
			continue;
		CHECK(o1_core_check(r.sim, &err) == 0);
		/* hogs that stay put: most idle balances find nothing changed */
		CHECKF(s->fbq_unchanged > 0, "%s: no call answered by an unchanged memo", pols[i]);
		/* a memo, of the last runqueue (idle), of its node mask */
		struct o1_rq *rq = &s->rqs[s->nrqs - 1];
		struct o1_fbq_memo *m = &rq->fbq[0];
		CHECKF(m->valid, "%s: the idle runqueue has no memo", pols[i]);
		/* a wrong ranking: nobody for somebody, somebody for nobody */
		struct o1_fbq_memo keep = *m;
		const sl_cpumask *mask = o1_node_mask(s, rq->first_cpu);
		if (m->ntop > 0) {
			m->ntop = 0;
			m->bound = (struct o1_best){ -1, 1 };
		} else {
			m->ntop = 1;
			m->top[0] = (struct o1_best){ sl_cpumask_first(mask), 5 };
		}
		CHECK(o1_core_check(r.sim, &err) == -1 && strstr(err.msg, "memo"));
		*m = keep;
		/* a wrong count of CPUs read (the charge) */
		m->looked++;
		CHECK(o1_core_check(r.sim, &err) == -1 && strstr(err.msg, "memo"));
		*m = keep;
		CHECK(o1_core_check(r.sim, &err) == 0);
		/* a memory the memo calls unchanged that is not the length */
		int cpu = sl_cpumask_first(mask);
		rq->prev_cpu_load[cpu] += 3;
		CHECK(o1_core_check(r.sim, &err) == -1 && strstr(err.msg, "memo"));
		rq->prev_cpu_load[cpu] -= 3;
		CHECK(o1_core_check(r.sim, &err) == 0);
		sl_sim_destroy(r.sim);
	}
}

/* The ranking an idle balance (idle=1) answers from (o1/busiest.c
 * o1_rank_best): used under 2.5.33, and the check op, which compares
 * every ranking with the lengths and every synced memory with them,
 * catches a wrong ranking or memory. */
SL_TEST(o1_balance_rank_check_catches)
{
	static const char *const pols[] = { "o1:version=2.5.33", "ht:version=e6" };

	for (int i = 0; i < 2; i++) {
		struct o1t_run r;
		struct sl_err err;
		/* 64 CPUs in 2 nodes: masks of 32 (2.5.59's nodes) or 64 */
		struct o1 *s = o1mt_idle_on(&r, "node:2 pack:1 core:16 pu:2", pols[i]);
		CHECK(s != NULL);
		if (!s)
			continue;
		CHECKF(s->rank && s->fbq_ranked > 0, "%s: no idle call ranked", pols[i]);
		CHECK(o1_core_check(r.sim, &err) == 0);
		struct o1_chg_log *l = &s->chg[0];
		/* a CPU ranked at a length no queue has */
		l->bits[(O1_RANK_CAP - 1) * s->mask_words] ^= 1;
		CHECK(o1_core_check(r.sim, &err) == -1 && strstr(err.msg, "rank"));
		l->bits[(O1_RANK_CAP - 1) * s->mask_words] ^= 1;
		l->top++;
		CHECK(o1_core_check(r.sim, &err) == -1 && strstr(err.msg, "ranking"));
		l->top--;
		CHECK(o1_core_check(r.sim, &err) == 0);
		/* a synced memory that is not the length, and no change logged */
		struct o1_rq *rq = NULL;
		for (int k = 0; k < s->nrqs && !rq; k++)
			if (s->rqs[k].rank_synced &&
			    s->rqs[k].rank_gen == o1_chg_log_of(s, &s->rqs[k])->gen)
				rq = &s->rqs[k];
		CHECKF(rq != NULL, "%s: no synced balancer", pols[i]);
		if (rq) {
			/* the memo check, first, may see it too: either names it */
			int cpu = sl_cpumask_first(o1_node_mask(s, rq->first_cpu));
			rq->prev_cpu_load[cpu] += 3;
			CHECKF(o1_core_check(r.sim, &err) == -1, "%s: a wrong memory unseen",
			       pols[i]);
			rq->prev_cpu_load[cpu] -= 3;
			CHECK(o1_core_check(r.sim, &err) == 0);
		}
		sl_sim_destroy(r.sim);
	}
}

/* A queue longer than the ranking holds (O1_RANK_CAP): counted apart,
 * and an idle balance then takes the memo's way (it finds that queue);
 * the ranking is whole again once the queue shrinks. */
SL_TEST(o1_balance_rank_long_queue)
{
	static const char *const pols[] = { "o1:version=2.5.33", "ht:version=f3" };

	for (int i = 0; i < 2; i++) {
		struct o1t_run r;
		struct sl_err err;
		struct o1 *s = o1mt_idle_on(&r, "pack:2 core:16 pu:2", pols[i]);
		CHECK(s != NULL);
		if (!s)
			continue;
		struct o1_rq *idle = &s->rqs[s->nrqs - 1], *busy = &s->rqs[s->nrqs - 2];
		struct o1_chg_log *l = o1_chg_log_of(s, busy);
		int top = l->top, n = busy->nr_running;
		CHECK(s->rank && idle->nr_running == 0 && l->over == 0);
		for (int k = n; k < O1_RANK_CAP + 6; k++)
			o1_nr_inc(s, busy);
		CHECK(l->over == busy->ncpus && l->top == top && o1_check_rank(s, &err) == 0);
		uint64_t over = s->rank_over;
		o1_load_balance(r.sim, s, idle, idle->first_cpu, true,
				o1_node_mask(s, idle->first_cpu), false);
		CHECK(s->rank_over == over + 1);
		/* the memo's scan found it: the memory holds its length */
		CHECK(idle->prev_cpu_load[busy->first_cpu] == busy->nr_running);
		while (busy->nr_running > n)
			o1_nr_dec(s, busy);
		CHECK(l->over == 0 && l->top == top && o1_check_rank(s, &err) == 0);
		sl_sim_destroy(r.sim);
	}
}

/* A memo replays its own node's change log: under the NUMA scheduler a
 * length change on another node leaves an idle CPU's memo of its node as
 * fresh as it was (on 1,024 CPUs, with one log for the machine, most
 * calls scanned for changes elsewhere); 2.5.33, which balances over the
 * whole machine, keeps one log.  The check op still replays every memo. */
SL_TEST(o1_balance_memo_logs_per_node)
{
	static const char *const pols[] = { "o1:version=2.6.0", "o1:version=2.5.33" };

	for (int i = 0; i < 2; i++) {
		struct o1t_run r;
		struct sl_err err;
		struct o1 *s = o1mt_idle_machine(&r, pols[i]);
		CHECK(s != NULL);
		if (!s)
			continue;
		CHECK(s->numa == (i == 0));
		struct o1_rq *rq = &s->rqs[s->nrqs - 1], *same = NULL, *other = NULL;
		for (int k = 0; k < s->nrqs - 1; k++) {
			if (s->rqs[k].node == rq->node && !same)
				same = &s->rqs[k];
			if (s->rqs[k].node != rq->node && !other)
				other = &s->rqs[k];
		}
		CHECK(same && other);
		if (!same || !other) {
			sl_sim_destroy(r.sim);
			continue;
		}
		uint64_t gen = o1_chg_log_of(s, rq)->gen;
		/* a task comes and goes on another node */
		o1_nr_inc(s, other);
		o1_nr_dec(s, other);
		CHECKF(o1_chg_log_of(s, rq)->gen == gen + (s->numa ? 0 : 2),
		       "%s: another node's change in this node's log", pols[i]);
		CHECK(o1_core_check(r.sim, &err) == 0);
		/* ... and on this one */
		gen = o1_chg_log_of(s, rq)->gen;
		o1_nr_inc(s, same);
		o1_nr_dec(s, same);
		CHECKF(o1_chg_log_of(s, rq)->gen == gen + 2, "%s: a change of this node unlogged",
		       pols[i]);
		CHECK(o1_core_check(r.sim, &err) == 0);
		sl_sim_destroy(r.sim);
	}
}

/* active_load_balance looks only at runqueues that can qualify: one hog on
 * a core of two CPUs leaves a CPU of it idle, so the idle cores' asks at
 * every tick test no runqueue (with the continue bug, any task is enough:
 * they test it); the check op keeps the full bits honest after every event. */
SL_TEST(ht_active_balance_skips_part_idle_runqueues)
{
	static const char *const pols[] = { "ht:version=c1", "ht:version=a9,continue_bug=on" };

	for (int i = 0; i < 2; i++) {
		struct o1t_run r;
		if (!o1t_start(&r, "pack:4 core:1 pu:2", pols[i], 30 * SL_MSEC)) {
			CHECKF(false, "%s: no run", pols[i]);
			continue;
		}
		o1t_spawn_hogs(r.sim, 1, 100);
		bool ok = o1t_run(&r);
		const struct o1 *s = sl_policy_data(r.sim);
		CHECKF(ok, "%s", pols[i]);
		if (i == 0)
			CHECKF(s->active_looked == 0, "%s: %llu runqueues tested", pols[i],
			       (unsigned long long)s->active_looked);
		else
			CHECKF(s->active_looked > 0, "%s: no runqueue tested", pols[i]);
		sl_sim_destroy(r.sim);
	}
}
