/*
 * domains/rebalance.c - rebalance_tick: each CPU's periodic balancing of
 * its domains at their staggered intervals (idle and busy), the intervals'
 * back-off, the ticks a stopped machine skipped, and what makes an idle
 * CPU's tick cheap to simulate - its due jiffies kept per domain, and a
 * walk that answers "balanced" from find_busiest_group's memo with the
 * same charges and the same bookkeeping as the full walk (the check op
 * compares them, sd_check_due).
 *
 * Sources: 2.6.12.1 kernel/sched.c (rebalance_tick, the
 * SD_*_INIT intervals and busy_factor of include/linux/topology.h and
 * include/asm-i386/topology.h); w26 as domains/balance.c reads it.
 */
#include "policy/domains/domains.h"
#include "sim/sim.h"

/* msecs_to_jiffies() rounds up; rebalance_tick makes a 0 one jiffy. */
static int64_t sd_ms_to_jiffies(const struct sd_sched *s, int64_t ms)
{
	int64_t j = (ms * s->hz + 999) / 1000;

	return j > 0 ? j : 1;
}

static int64_t sd_stagger(const struct sd_sched *s, int cpu)
{
	return s->v->stagger ? (int64_t)s->hz * cpu / s->ncpus : 0;
}

void sd_balance_init(struct sd_sched *s)
{
	s->tick_at = -1;	/* no instant's jiffies worked out yet */
	for (int cpu = 0; cpu < s->ncpus; cpu++) {
		int64_t off = sd_stagger(s, cpu);
		s->stagger_of[cpu] = off;
		sd_for_each_domain(s, cpu, sd) {
			int64_t busy = sd_ms_to_jiffies(s, (int64_t)sd->p.min_interval *
							   sd->p.busy_factor);
			sd->last_balance = off - off % busy;
		}
		sd_balance_changed(s, cpu);
	}
}

/* The balance interval of sd in jiffies, idle or busy: computed once per
 * value of balance_interval (an idle CPU asks every tick; the division
 * by 1000 was a tenth of the instructions of an idle 64-CPU machine). */
static int64_t sd_interval_of(const struct sd_sched *s, const struct sd_domain *sd, bool busy)
{
	int64_t interval = sd->balance_interval;

	if (busy)
		interval *= sd->p.busy_factor;
	return sd_ms_to_jiffies(s, interval);
}

/* The divisions out of line: balance_interval changes far less often than
 * rebalance_tick reads it. */
static __attribute__((noinline)) void sd_interval_refresh(const struct sd_sched *s,
							  struct sd_domain *sd)
{
	sd->ivl_ms = sd->balance_interval;
	sd->ivl_j[0] = sd_interval_of(s, sd, false);
	sd->ivl_j[1] = sd_interval_of(s, sd, true);
}

static inline int64_t sd_interval(const struct sd_sched *s, struct sd_domain *sd, bool busy)
{
	if (sd->ivl_ms != sd->balance_interval)
		sd_interval_refresh(s, sd);
	return sd->ivl_j[busy];
}

/*
 * The idle balances sd's CPU made at rebalance_tick over the jiffies
 * j0..jl (as rebalance_tick counts them, its stagger added) of an
 * all-idle machine: each finds nothing to move (every runqueue is empty)
 * and so doubles balance_interval up to max_interval (2.6.12.1
 * load_balance() out_balanced; the model's w26 the same), and
 * last_balance moves on by each interval; one balance per domain per
 * tick, as a CPU behind on its clock catches up.  Once the interval is
 * at its maximum and the clock caught up, the rest is counted.  Returns
 * how many balances sd made.
 */
int64_t sd_idle_gap_balances(const struct sd_sched *s, struct sd_domain *sd, int64_t j0,
			     int64_t jl)
{
	int64_t n = 0;

	for (int64_t j = j0; j <= jl;) {
		int64_t interval = sd_interval(s, sd, false);
		int64_t due = sd->last_balance + interval;
		if (j >= due) {
			sd->last_balance = due;
			if (sd->balance_interval < sd->p.max_interval)
				sd->balance_interval *= 2;
			n++;
			j++;
		} else if (sd->balance_interval < sd->p.max_interval) {
			j = due;
		} else {
			/* steady: a balance every `interval` from due on */
			int64_t k = due <= jl ? (jl - due) / interval + 1 : 0;
			sd->last_balance += k * interval;
			n += k;
			break;
		}
	}
	return n;
}

/* v halved `times` times (a load average's decay over idle ticks). */
static inline unsigned long sd_halved(unsigned long v, int64_t times)
{
	return times < 64 ? v >> times : 0;
}

/* The engine's ticks_skipped, as the first task wakes after the tick
 * stopped (nothing was runnable), before the wakeup reads any of it:
 * the ticks of an all-idle machine would each have halved cpu_load
 * towards 0 (2.6.12 rebalance_tick), and each domain's idle balances
 * (sd_idle_gap_balances) moved its clock and its interval on; under w26
 * each of those balances also halved this CPU's memory of the load of
 * every CPU of the domain (sd_guess with 0 running). */
void sd_ticks_skipped(struct sl_sim *sim, int cpu, uint64_t first, uint64_t last)
{
	struct sd_sched *s = sl_policy_data(sim);
	struct sd_rq *rq = sd_rq(s, cpu);
	int64_t gap = (int64_t)last - rq->last_tick;

	if (gap <= 0)
		return;
	int64_t from = (int64_t)first > rq->last_tick ? (int64_t)first : rq->last_tick + 1;
	rq->last_tick = (int64_t)last;
	/* every tick's scheduler_tick() stamps it first: task_hot() measures
	 * from the last of them, not from before the machine idled */
	rq->timestamp_last_tick = sd_clock_at(s, sl_tick_time(sim, cpu, last));
	if (s->v->rules == SD_RULES_2612 && rq->cpu_load) {
		rq->cpu_load = sd_halved(rq->cpu_load, gap);
		sd_load_changed(s, cpu);
	}
	int64_t off = s->stagger_of[cpu];
	sd_for_each_domain(s, cpu, sd) {
		if (!(sd->p.flags & SD_LOAD_BALANCE))
			continue;
		int64_t n = sd_idle_gap_balances(s, sd, from + off, (int64_t)last + off);
		if (s->v->rules != SD_RULES_W26 || n == 0)
			continue;
		sd_for_each_cpu(i, s, &sd->span)
			rq->cpu_loads[i] = sd_halved(rq->cpu_loads[i], n);
	}
	sd_balance_changed(s, cpu);	/* the next tick works them out again */
}

/* Fold sd's next due jiffies, idle ([0]) and busy ([1]), into due,
 * computed afresh (the checks). */
static void sd_due_fold(const struct sd_sched *s, const struct sd_domain *sd, int64_t due[2])
{
	for (int k = 0; k < 2; k++) {
		int64_t at = sd->last_balance + sd_interval_of(s, sd, k);
		if (at < due[k])
			due[k] = at;
	}
}

/* sd's next due jiffies from its last_balance and kept intervals, up to
 * date (the walk refreshed them), kept (due_at) and folded into due:
 * rebalance_tick folds every domain of every walk, an idle SMT level's
 * every other jiffy (out of line and per k, this was a sixth of an idle
 * 64-CPU machine's instructions). */
static inline void sd_due_fold_kept(struct sd_domain *sd, int64_t due[2])
{
	int64_t at0 = sd->last_balance + sd->ivl_j[0];
	int64_t at1 = sd->last_balance + sd->ivl_j[1];
	sd->due_at[0] = at0;
	sd->due_at[1] = at1;
	if (!due)
		return;	/* the base's, folded last */
	due[0] = at0 < due[0] ? at0 : due[0];
	due[1] = at1 < due[1] ? at1 : due[1];
}

/* The first (staggered) jiffy a domain of cpu is due, idle ([0]) or busy
 * ([1]), from every domain's last_balance and interval, computed afresh
 * (the check of rebalance_tick's kept ones and of the memo). */
static void sd_due(const struct sd_sched *s, int cpu, int64_t due[2])
{
	due[0] = due[1] = INT64_MAX;
	sd_for_each_domain(s, cpu, sd)
		if (sd->p.flags & SD_LOAD_BALANCE)
			sd_due_fold(s, sd, due);
}

/* Below every tick's jiffies: the next tick walks (and works the due
 * ticks out). */
#define SD_DUE_UNKNOWN INT64_MIN

/* base's above_due from its ancestors' kept due jiffies (current), after
 * a change from outside the walks (they keep it as they go). */
static void sd_above_refresh(struct sd_domain *base)
{
	int64_t up0 = INT64_MAX, up1 = INT64_MAX;

	for (const struct sd_domain *sd = base->parent; sd; sd = sd->parent) {
		if (!(sd->p.flags & SD_LOAD_BALANCE))
			continue;
		up0 = sd->due_at[0] < up0 ? sd->due_at[0] : up0;
		up1 = sd->due_at[1] < up1 ? sd->due_at[1] : up1;
	}
	base->above_due[0] = up0;
	base->above_due[1] = up1;
}

void sd_balance_changed(struct sd_sched *s, int cpu)
{
	s->due_tick[cpu][0] = s->due_tick[cpu][1] = SD_DUE_UNKNOWN;
	/* outside a walk every domain's kept intervals and due jiffies are
	 * current (the idle walk reads them without a look: sd_check_due
	 * checks) */
	sd_for_each_domain(s, cpu, sd) {
		if (sd->ivl_ms != sd->balance_interval)
			sd_interval_refresh(s, sd);
		sd->due_at[0] = sd->last_balance + sd->ivl_j[0];
		sd->due_at[1] = sd->last_balance + sd->ivl_j[1];
	}
	if (sd_rq(s, cpu)->sd)
		sd_above_refresh(sd_rq(s, cpu)->sd);
}

/*
 * Every domain whose interval has passed balances.  Before the domains are
 * walked, the CPU's due ticks (kept after every walk, worked out
 * again after sd_ticks_skipped) say whether any is: on most ticks none
 * is, and the walk would only compare.  2.6.12's cpu_load moves at every
 * tick until it equals 128 * nr_running (the mean rounds up when rising
 * and down when falling), that is while its min and max with that, the
 * source and target loads sd_load_changed keeps, differ: two loads
 * instead of nr_running, the migration thread's flags and the mean.
 * domains.h's inline sd_rebalance_tick makes both tests in the tick's
 * frame (a tick with nothing due and no change of cpu_load, most, needs
 * no other) and tail-calls the work: sd_rebalance_tick_load, or the walk
 * of an idle CPU or of a busy one.
 */

/* The tick once cpu_load is up to date: nothing due, or the walk. */
static inline void sd_rebalance_due(struct sl_sim *sim, struct sd_sched *s, int cpu,
				    enum sd_idle idle)
{
	/* this tick's jiffies, tick_j, as sd_note_tick stored them just
	 * before into the runqueue's last_tick; the walks add the stagger */
	if (s->tick_j < s->due_tick[cpu][idle != SD_IDLE])
		return;
	if (idle == SD_IDLE)
		sd_rebalance_idle_walk(sim, s, cpu);
	else
		sd_rebalance_busy_walk(sim, s, cpu, idle);
}

/* 2.6.12's cpu_load moves at this tick: stored and counted
 * (sd_load_changed), then the rest of the tick. */
__attribute__((noinline)) void sd_rebalance_tick_load(struct sl_sim *sim, struct sd_sched *s,
						      int cpu, enum sd_idle idle)
{
	sd_rq(s, cpu)->cpu_load = sd_cpu_load_next(s, cpu);
	sd_load_changed(s, cpu);
	sd_rebalance_due(sim, s, cpu, idle);
}

/*
 * An idle CPU's load_balance that find_busiest_group's memo answers
 * "balanced" (most of an idle machine's balances): out_balanced's
 * interval doubling, its scan's cost added to *owed instead of charged.
 * False, nothing done, if the memo does not answer so (sd_load_balance
 * then does the whole balance).
 */
static inline bool sd_idle_balanced_memo(struct sd_sched *s, struct sd_domain *sd,
					 sl_time *owed)
{
	const struct sd_fbg_memo *m = sd_memo_current(s, sd, SD_IDLE);

	if (!m || m->group)
		return false;
	s->fbg_hits++;
	*owed += m->looked * s->scan_ns;
	sd_out_balanced(sd);
	return true;
}

/* Charge what sd_idle_balanced_memo summed: one sl_charge_sched for
 * several.  Exact: the CPU is idle (not in schedule(), no migration
 * thread), where the engine's charge only pushes idle_work_until on from
 * max(itself, now) by ns, and a sum of such pushes at one instant, with
 * nothing between them, is the push by their sum (0 pushes nothing). */
static inline void sd_charge_owed(struct sl_sim *sim, int cpu, sl_time *owed)
{
	if (*owed) {
		sl_charge_sched(sim, cpu, *owed);
		*owed = 0;
	}
}

/* The walk from domain `from` on, with what the idle walk below summed
 * (owed, charges) and, from above the base, folded before it: the due
 * jiffies of the domains above the base below `from`, left in the base's
 * above_due (nothing and INT64_MAX from the base).  The base's due
 * jiffies are folded in last, after those above it are kept as its
 * above_due.  Six arguments, in registers: the idle walk's hand-overs are
 * tail calls, with no frame.  Out of line: the test before it is most
 * ticks' whole work, and the balances inlined here gave every tick their
 * frame. */
static __attribute__((noinline)) void sd_rebalance_walk_from(struct sd_sched *s, int cpu,
							      enum sd_idle idle, int64_t j,
							      struct sd_domain *from,
							      sl_time owed)
{
	/* only 2.6.12 keeps memos; only an idle CPU's charges add up */
	struct sl_sim *sim = s->sim;
	bool sum = idle == SD_IDLE && s->rules_2612;

	/* the due jiffies are folded in as each domain is done with: a
	 * domain's balance changes only that domain (sd_check_due checks) */
	struct sd_domain *base = sd_rq(s, cpu)->sd;
	int64_t due[2] = { INT64_MAX, INT64_MAX };
	if (from != base) {
		due[0] = base->above_due[0];
		due[1] = base->above_due[1];
	}
	for (struct sd_domain *sd = from; sd; sd = sd->parent) {
		if (!(sd->p.flags & SD_LOAD_BALANCE))
			continue;
		if (sd->ivl_ms != sd->balance_interval)
			sd_interval_refresh(s, sd);
		int64_t interval = sd->ivl_j[idle != SD_IDLE];
		if (j - sd->last_balance >= interval) {
			if (!sum || !sd_idle_balanced_memo(s, sd, &owed)) {
				/* a balance that may charge, pull or wake a
				 * migration thread: what was summed before it
				 * first, and no summing after it */
				sd_charge_owed(sim, cpu, &owed);
				sum = false;
				if (sd_load_balance(sim, s, cpu, sd, idle))
					idle = SD_NOT_IDLE;	/* pulled: no longer idle */
			}
			sd->last_balance += interval;
			/* the balance may have changed sd's interval, and
			 * only sd's (sd_check_due checks) */
			if (sd->ivl_ms != sd->balance_interval)
				sd_interval_refresh(s, sd);
		}
		sd_due_fold_kept(sd, sd == base ? NULL : due);
	}
	sd_charge_owed(sim, cpu, &owed);
	if (base) {
		base->above_due[0] = due[0];
		base->above_due[1] = due[1];
		if (base->p.flags & SD_LOAD_BALANCE) {
			due[0] = base->due_at[0] < due[0] ? base->due_at[0] : due[0];
			due[1] = base->due_at[1] < due[1] ? base->due_at[1] : due[1];
		}
	}
	/* unstaggered (INT64_MAX, none due, stays above every tick) */
	s->due_tick[cpu][0] = due[0] - s->stagger_of[cpu];
	s->due_tick[cpu][1] = due[1] - s->stagger_of[cpu];
}

/* A busy CPU's walk (or an idle one's under w26, which keeps no memos). */
__attribute__((noinline)) void sd_rebalance_busy_walk(struct sl_sim *sim, struct sd_sched *s,
						      int cpu, enum sd_idle idle)
{
	(void)sim;
	sd_rebalance_walk_from(s, cpu, idle, s->tick_j + s->stagger_of[cpu], sd_rq(s, cpu)->sd, 0);
}

/* The idle walk's due domain sd when find_busiest_group's memo answers
 * "balanced" at the maximum interval: the memo's scan added to *owed,
 * last_balance and the due jiffies moved on.  False, nothing done,
 * otherwise (the general walk takes over at sd). */
static inline bool sd_idle_balanced_step(struct sd_sched *s, struct sd_domain *sd,
					 sl_time *owed)
{
	/* sd_memo_current as one test (memo_gen) */
	const struct sd_fbg_memo *m = &sd->memo[SD_IDLE];
	if (sd->balance_interval < sd->p.max_interval || m->gen != *sd->memo_gen || m->group)
		return false;
	s->fbg_hits++;
	*owed += m->looked * s->scan_ns;
	int64_t interval = sd->ivl_j[0];
	sd->last_balance += interval;
	sd->due_at[0] += interval;
	sd->due_at[1] += interval;
	return true;
}

/* The end of the idle walk: the due jiffies kept (unstaggered) and the
 * sum charged.  As sd_charge_owed, last: nothing before reads what it
 * changes. */
static inline void sd_idle_walk_done(struct sd_sched *s, int cpu, sl_time owed, int64_t due0,
				     int64_t due1)
{
	s->due_tick[cpu][0] = due0 - s->stagger_of[cpu];
	s->due_tick[cpu][1] = due1 - s->stagger_of[cpu];
	if (owed)
		sl_charge_sched(s->sim, cpu, owed);
}

/* The idle walk above the base, some domain there due: their due jiffies
 * folded apart (base->above_due, kept) and then with the base's, due0 and
 * due1.  Out of line: half of xeon-2s-smt javabench's idle walks end at
 * the base (its CPU level is due every other time, at 4 jiffies to the
 * SMT level's 2); neither part needs a frame, each way out a tail call. */
static __attribute__((noinline)) void sd_idle_walk_above(struct sd_sched *s, int cpu, int64_t j,
							 sl_time owed, int64_t due0,
							 int64_t due1)
{
	struct sd_domain *base = sd_rq(s, cpu)->sd;
	int64_t up0 = INT64_MAX, up1 = INT64_MAX;

	for (struct sd_domain *sd = base->parent; sd; sd = sd->parent) {
		if (!(sd->p.flags & SD_LOAD_BALANCE))
			continue;
		if (j >= sd->due_at[0] && !sd_idle_balanced_step(s, sd, &owed)) {
			/* at sd, untouched yet, with what was summed and what
			 * was folded above the base below it, left in
			 * above_due (the general walk keeps above_due and
			 * folds the base's in) */
			base->above_due[0] = up0;
			base->above_due[1] = up1;
			sd_rebalance_walk_from(s, cpu, SD_IDLE, j, sd, owed);
			return;
		}
		up0 = sd->due_at[0] < up0 ? sd->due_at[0] : up0;
		up1 = sd->due_at[1] < up1 ? sd->due_at[1] : up1;
	}
	base->above_due[0] = up0;
	base->above_due[1] = up1;
	sd_idle_walk_done(s, cpu, owed, up0 < due0 ? up0 : due0, up1 < due1 ? up1 : due1);
}

/*
 * An idle CPU's walk under 2.6.12.  At most due domains of most idle ticks
 * (an idle machine's every other jiffy per CPU) find_busiest_group's memo
 * answers "balanced" and the interval is at its maximum already: the
 * general walk would add the memo's scan to what it owes, move
 * last_balance on and fold the due jiffies, nothing else.  This walk does
 * those with no call and no division, in registers, without the frame the
 * general walk's balances need (that walk was a third of xeon-2s-smt
 * javabench's instructions); at the first domain that needs more (an
 * interval to double, no memo, a memo that finds a group), untouched
 * yet, it hands over to the general walk with what it summed and
 * folded.  One charge of the sum at the end, as there.
 */
__attribute__((noinline)) void sd_rebalance_idle_walk(struct sl_sim *sim, struct sd_sched *s,
						      int cpu)
{
	sl_time owed = 0;
	int64_t due0 = INT64_MAX, due1 = INT64_MAX;
	int64_t j = s->tick_j + s->stagger_of[cpu];

	if (!s->rules_2612) {
		sd_rebalance_busy_walk(sim, s, cpu, SD_IDLE);
		return;
	}

	/* the kept intervals and due jiffies are current: every change of
	 * last_balance or balance_interval is in a walk, which brings them
	 * up to date after it, or is followed by sd_balance_changed, which
	 * does (j >= due_at[0] is j - last_balance >= ivl_j[0]).  The base
	 * domain first, then the ones above it only if one of them is due
	 * (base->above_due, the least of their kept due jiffies, is kept as
	 * they are): rebalance_tick walks them all and tests each one's
	 * interval, but a domain not due is only folded into the due
	 * jiffies, and the fold of all of them is that least one (the
	 * simulated cost is the balances', unchanged).  callgrind,
	 * xeon-2s-smt javabench:size=200: 1,218.9 -> 1,196.9 M
	 * instructions (the walks' own 361.6 -> 343.0 M, the tick's call
	 * of them the rest) */
	struct sd_domain *base = sd_rq(s, cpu)->sd;
	if (!base) {
		sd_idle_walk_done(s, cpu, 0, INT64_MAX, INT64_MAX);
		return;
	}
	if (base->p.flags & SD_LOAD_BALANCE) {
		if (j >= base->due_at[0] && !sd_idle_balanced_step(s, base, &owed)) {
			sd_rebalance_walk_from(s, cpu, SD_IDLE, j, base, 0);
			return;
		}
		due0 = base->due_at[0];
		due1 = base->due_at[1];
	}
	if (j >= base->above_due[0]) {
		sd_idle_walk_above(s, cpu, j, owed, due0, due1);
		return;
	}
	/* none above is due: their fold is the least of their due jiffies */
	sd_idle_walk_done(s, cpu, owed,
			  base->above_due[0] < due0 ? base->above_due[0] : due0,
			  base->above_due[1] < due1 ? base->above_due[1] : due1);
}

int sd_check_due(const struct sd_sched *s, struct sl_err *err)
{
	for (int cpu = 0; cpu < s->ncpus; cpu++) {
		sd_for_each_domain(s, cpu, sd) {
			if (sd->ivl_ms != sd->balance_interval ||
			    sd->ivl_j[0] != sd_interval_of(s, sd, false) ||
			    sd->ivl_j[1] != sd_interval_of(s, sd, true))
				return sl_fail_internal(err, "domains: CPU %d level %d: intervals "
							"kept for %d ms, %d ms now", cpu, sd->level,
							sd->ivl_ms, sd->balance_interval);
			if (sd->due_at[0] != sd->last_balance + sd->ivl_j[0] ||
			    sd->due_at[1] != sd->last_balance + sd->ivl_j[1])
				return sl_fail_internal(err, "domains: CPU %d level %d: due at "
							"%lld / %lld kept, %lld / %lld now", cpu,
							sd->level, (long long)sd->due_at[0],
							(long long)sd->due_at[1],
							(long long)(sd->last_balance + sd->ivl_j[0]),
							(long long)(sd->last_balance + sd->ivl_j[1]));
		}
		const struct sd_domain *base = sd_rq(s, cpu)->sd;
		if (base) {
			int64_t up[2] = { INT64_MAX, INT64_MAX };
			for (const struct sd_domain *sd = base->parent; sd; sd = sd->parent)
				if (sd->p.flags & SD_LOAD_BALANCE)
					sd_due_fold(s, sd, up);
			if (up[0] != base->above_due[0] || up[1] != base->above_due[1])
				return sl_fail_internal(err, "domains: CPU %d: due above the base "
							"at %lld / %lld kept, %lld / %lld now", cpu,
							(long long)base->above_due[0],
							(long long)base->above_due[1],
							(long long)up[0], (long long)up[1]);
		}
		const int64_t *kept = s->due_tick[cpu];
		int64_t due[2];
		if (kept[0] == SD_DUE_UNKNOWN)
			continue;
		sd_due(s, cpu, due);
		if (due[0] != kept[0] + s->stagger_of[cpu] || due[1] != kept[1] + s->stagger_of[cpu])
			return sl_fail_internal(err, "domains: CPU %d: balancing due at %lld / %lld, "
						"its domains say %lld / %lld", cpu,
						(long long)(kept[0] + s->stagger_of[cpu]),
						(long long)(kept[1] + s->stagger_of[cpu]),
						(long long)due[0], (long long)due[1]);
	}
	return 0;
}
