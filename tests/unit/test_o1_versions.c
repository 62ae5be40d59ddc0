/*
 * test_o1_versions.c - scenario tests that pin what distinguishes the
 * stock O(1) versions (docs/policies/o1.md): the rows' constants; the cache-hot
 * rule of each version and of the steal_hot / idle_tick knobs (2.5.x never
 * steals hot tasks, 2.5.68's idle tick balances as busy, 2.6.0 lets idle
 * balancers steal, 2.6.0-test4 lets busy ones); the 2.5 half-difference
 * rule against 2.6.0's 25% rule on 1-vs-3 and 1-vs-2 queues (2.6.0 pulls
 * everything on a difference of 1 and rotates N+1 hogs over N CPUs); 2.6.0's
 * cap on uninterruptible sleepers; sched_yield into the expired array.
 *
 * Every run has the engine's invariant checks on, which also run the
 * policy's own check op after each event.
 */
#include <string.h>

#include "policy/o1/core.h"
#include "test.h"
#include "test_o1_script.h"

/* ---- the rows (2.2, 2.3, 2.8, 3.3) ---- */

static struct o1 *o1vt_state(struct o1t_run *r, const char *policy)
{
	if (!o1t_start(r, "node:2 pack:1 core:2 pu:1,arch=i386", policy, 0))
		return NULL;
	return sl_policy_data(r->sim);
}

/* HZ, cache_decay_ticks and NODE_BALANCE_RATE follow the machine's arch
 * unless a knob gives them. */
static bool o1vt_arch(const char *machine, const char *policy, unsigned hz, int decay, int rate)
{
	struct o1t_run r;
	bool ok = false;

	if (o1t_start(&r, machine, policy, 0)) {
		struct o1 *s = sl_policy_data(r.sim);
		ok = s->cfg.hz == hz && s->cfg.cache_decay_ticks == decay &&
		     s->cfg.node_balance_rate == rate;
		sl_sim_destroy(r.sim);
	}
	return ok;
}

SL_TEST(o1_arch_constants)
{
	const char *numa = "node:2 pack:1 core:2 pu:1";	/* 2.5 GHz, 1 MB L2 */

	/* ia64 (the AzusA): HZ 1024, 10 ticks hot, every 10th balance */
	CHECK(o1vt_arch("azusa-16", "o1:version=2.5.59", 1024, 10, 10));
	CHECK(o1vt_arch("numaq-16", "o1:version=2.5.59", 1000, 5, 100));
	CHECK(o1vt_arch("numaq-16,arch=ia64", "o1:version=2.5.59", 1024, 10, 10));
	/* a machine that is not a preset is a modern one: x86_64 */
	CHECK(o1vt_arch(numa, "o1:version=2.5.59", 1000, 1, 30));
	CHECK(o1vt_arch(numa, "o1:version=2.6.0,node_balance=rate", 1000, 1, 30));
	CHECK(o1vt_arch(numa, "o1:version=2.5.59,hz=100,cache_decay_ticks=3,node_balance_rate=7",
			100, 3, 7));
	CHECK(o1vt_arch("node:2 pack:1 core:2 pu:1,arch=i386", "o1:version=2.5.59", 1000, 2,
			100));
	/* i386 2.6 (2.6.11 smp_tune_scheduling): the milliseconds plus one, not
	 * scaled by HZ (fixed at 1000 there); 2.5 scaled them (5 ms: 0 ticks
	 * at HZ 100) */
	CHECK(o1vt_arch("numaq-16", "o1:version=2.6.0", 1000, 6, 100));
	CHECK(o1vt_arch("numaq-16", "o1:version=2.6.0,hz=100", 100, 6, 100));
	CHECK(o1vt_arch("numaq-16", "o1:version=2.5.59,hz=100", 100, 0, 100));
}

SL_TEST(o1_version_rows)
{
	struct o1t_run r;
	struct o1 *s;

	if ((s = o1vt_state(&r, "o1:version=2.5.33"))) {
		CHECK(s->min_slice == 10 && s->max_slice == 300 && s->max_sleep_avg == 2000 &&
		      s->starvation_limit == 2000 && s->busy_ticks == 250 && s->idle_ticks == 1);
		CHECK(!s->numa && s->cfg.hot == O1_HOT_NEVER && s->cfg.imbalance == O1_IMBALANCE_HALF);
		CHECK(s->cfg.fork_place == O1_FORK_TAIL && !s->cfg.v->expired_ts_always &&
		      !s->cfg.v->requeue_waker);
		sl_sim_destroy(r.sim);
	}
	if ((s = o1vt_state(&r, "o1:version=2.5.59"))) {
		CHECK(s->max_slice == 300 && s->max_sleep_avg == 2000 && s->busy_ticks == 250);
		CHECK(s->numa && s->cfg.node_balance == O1_NODE_RATE &&
		      s->cfg.node_balance_rate == 100 && s->cfg.idle_tick_idle);
		CHECK(s->cfg.fork_place == O1_FORK_TAIL && !s->cfg.v->expired_ts_always &&
		      !s->cfg.v->requeue_waker);
		sl_sim_destroy(r.sim);
	}
	if ((s = o1vt_state(&r, "o1:version=2.5.68"))) {
		CHECK(s->max_slice == 200 && s->max_sleep_avg == 10000 &&
		      s->starvation_limit == 10000 && s->cfg.v->child_penalty == 50 &&
		      s->cfg.v->sleep_credit_offset == 1 && s->busy_ticks == 200);
		CHECK(s->numa && s->cfg.node_balance == O1_NODE_TICKS && s->idle_node_ticks == 5 &&
		      s->busy_node_ticks == 400 && !s->cfg.idle_tick_idle &&
		      s->cfg.idle_node_tick_idle && s->cfg.v->sync_rule == O1_SYNC_QUIET);
		CHECK(s->cfg.fork_place == O1_FORK_FRONT && !s->cfg.v->expired_ts_always &&
		      s->cfg.v->requeue_waker);
		sl_sim_destroy(r.sim);
	}
	if ((s = o1vt_state(&r, "o1:version=2.6.0"))) {
		/* MAX_SLEEP_AVG = AVG_TIMESLICE (102) * MAX_BONUS (10) */
		CHECK(s->max_slice == 200 && s->max_sleep_avg == 1020 && s->starvation_limit == 1020);
		CHECK(s->cfg.hot == O1_HOT_IF_IDLE && s->cfg.imbalance == O1_IMBALANCE_QUARTER &&
		      !s->cfg.idle_tick_idle && s->cfg.idle_node_tick_idle &&
		      s->cfg.v->node_load_per_cpu &&
		      s->cfg.v->sync_rule == O1_SYNC_QUIET_LOCAL && !s->cfg.v->preempt_equal_prio);
		CHECK(s->cfg.fork_place == O1_FORK_FRONT && s->cfg.v->expired_ts_always &&
		      !s->cfg.v->requeue_waker);
		sl_sim_destroy(r.sim);
	}
	/* knobs override the row */
	if ((s = o1vt_state(&r, "o1:version=2.6.0,steal_hot=busy,imbalance=half,idle_tick=busy,"
				"idle_node_tick=idle,yield=tail,fork_place=tail"))) {
		CHECK(s->cfg.hot == O1_HOT_IF_BUSY && s->cfg.imbalance == O1_IMBALANCE_HALF &&
		      !s->cfg.idle_tick_idle && s->cfg.idle_node_tick_idle &&
		      s->cfg.yield == O1_YIELD_TAIL && s->cfg.fork_place == O1_FORK_TAIL);
		sl_sim_destroy(r.sim);
	}
}

/* ---- cache-hot tasks (2.7, 4.7) ---- */

static bool o1vt_waits_for_decay(const char *policy)
{
	sl_time t = o1t_second_hog_start(policy);
	bool ok = t > 40 * SL_MSEC && t < 44 * SL_MSEC;

	if (!ok)
		fprintf(stderr, "  %s: b started at %.2f ms, expected after 40\n", policy,
			(double)t / SL_MSEC);
	return ok;
}

static bool o1vt_steals_at_once(const char *policy)
{
	sl_time t = o1t_second_hog_start(policy);
	bool ok = t > 0 && t < 3 * SL_MSEC;

	if (!ok)
		fprintf(stderr, "  %s: b started at %.2f ms, expected at once\n", policy,
			(double)t / SL_MSEC);
	return ok;
}

SL_TEST(o1_cache_hot_per_version)
{
	/* b is queued behind a on CPU 0 and hot for 40 ticks; CPU 1 has been
	 * idle since boot, so only its idle ticks balance */
	CHECK(o1vt_waits_for_decay("o1:version=2.5.59,cache_decay_ticks=40"));
	CHECK(o1vt_waits_for_decay("o1:version=2.5.68,cache_decay_ticks=40"));
	/* 2.6.0 steals hot tasks when idle, but its idle tick passes idle=0
	 * like 2.5.68's: the steal acts at an idle tick only with
	 * idle_tick=idle (the newly-idle balance, below, passes 1) */
	CHECK(o1vt_waits_for_decay("o1:version=2.6.0,cache_decay_ticks=40"));
	CHECK(o1vt_steals_at_once("o1:version=2.6.0,cache_decay_ticks=40,idle_tick=idle"));
	/* 2.5.68's idle tick passes idle=0: even an idle-steal rule does not
	 * act there (2.5.68 kernel/sched.c rebalance_tick) until the tick passes idle=1 */
	CHECK(o1vt_waits_for_decay("o1:version=2.5.68,cache_decay_ticks=40,steal_hot=idle"));
	CHECK(o1vt_steals_at_once("o1:version=2.5.68,cache_decay_ticks=40,steal_hot=idle,"
				  "idle_tick=idle"));
	/* 2.6.0-test4's (!idle || cold): the idle balancer respects hotness ... */
	CHECK(o1vt_waits_for_decay("o1:version=2.6.0,cache_decay_ticks=40,steal_hot=busy,"
				   "idle_tick=idle"));
	/* ... a busy one does not (an idle tick passing idle=0 is busy) */
	CHECK(o1vt_steals_at_once("o1:version=2.6.0,cache_decay_ticks=40,steal_hot=busy,"
				  "idle_tick=busy"));
	CHECK(o1vt_waits_for_decay("o1:version=2.6.0,cache_decay_ticks=40,idle_tick=busy"));
	/* RHEL3: hotness ignored; 2.6.0 with the 2.5 rule: never */
	CHECK(o1vt_steals_at_once("o1:version=2.5.33,cache_decay_ticks=40,steal_hot=always"));
	CHECK(o1vt_waits_for_decay("o1:version=2.6.0,cache_decay_ticks=40,steal_hot=never"));
}

/* ---- the imbalance rules (2.7) ---- */

/* `hogs` hogs of 3 s on two CPUs, all queued on CPU 0 at time 0 (not
 * forked: with child-runs-first a forking loop of hogs takes slices to
 * start them), stopped at `ms`: queue lengths, and the most and least CPU
 * time any hog got. */
static long o1vt_moves;	/* migrations of the hogs in the last o1vt_hogs run */

static bool o1vt_hogs(const char *policy, int hogs, double ms, int *n0, int *n1,
		      sl_time *most, sl_time *least)
{
	static const char *const names[] = { "h0", "h1", "h2", "h3", "h4", "h5", "h6" };
	struct o1t_run r;
	bool ok = false;

	if (!o1t_start(&r, "pack:2 core:1 pu:1", policy, (sl_time)(ms * SL_MSEC)))
		return false;
	o1t_spawn_hogs(r.sim, hogs, 3000);
	if (o1t_run(&r)) {
		struct o1 *s = sl_policy_data(r.sim);
		*n0 = s->rq_of[0]->nr_running;
		*n1 = s->rq_of[1]->nr_running;
		*most = 0;
		*least = INT64_MAX;
		o1vt_moves = 0;
		for (int i = 0; i < hogs && i < 7; i++) {
			struct sl_task *t = o1t_find(r.sim, names[i]);
			sl_time u = t ? t->user_ns : 0;
			o1vt_moves += t ? t->nmigrations : 0;
			*most = u > *most ? u : *most;
			*least = u < *least ? u : *least;
		}
		ok = true;
	}
	sl_sim_destroy(r.sim);
	return ok;
}

SL_TEST(o1_imbalance_one_vs_three_versions)
{
	int n0 = -1, n1 = -1;
	sl_time most, least;

	/* 2.6.0: 3-1 = 2, 2*4 >= 3, half of 2 is one task, at the first busy
	 * tick (200 ms; 2.5 waits for 250 ms, see test_o1.c).  idle_tick=idle
	 * so that idle CPU 1 starts by taking one task (its stock idle tick
	 * balances as busy and would take two: 4-0 halves to 2) */
	CHECK(o1vt_hogs("o1:version=2.6.0,idle_tick=idle", 4, 190, &n0, &n1, &most, &least));
	CHECKF(n0 == 3 && n1 == 1, "2.6.0 at 190 ms: %d vs %d", n0, n1);
	CHECK(o1vt_hogs("o1:version=2.6.0,idle_tick=idle", 4, 210, &n0, &n1, &most, &least));
	CHECKF(n0 == 2 && n1 == 2, "2.6.0 at 210 ms: %d vs %d", n0, n1);
	CHECK(o1vt_hogs("o1:version=2.5.59", 4, 260, &n0, &n1, &most, &least));
	CHECKF(n0 == 2 && n1 == 2, "2.5.59 at 260 ms: %d vs %d", n0, n1);
}

SL_TEST(o1_imbalance_one_vs_two_versions)
{
	int n0 = -1, n1 = -1;
	sl_time most = 0, least = 0;

	/* 2.5: (2-1)/2 = 0 < (2+3)/4: never balanced; the hog alone on its
	 * CPU gets twice the others' time */
	CHECK(o1vt_hogs("o1:version=2.5.33", 3, 2400, &n0, &n1, &most, &least));
	CHECKF(n0 + n1 == 3 && (n0 == 1 || n1 == 1) && most > 2 * least - 100 * SL_MSEC,
	       "2.5.33: %d vs %d, most %.0f ms, least %.0f ms", n0, n1,
	       (double)most / SL_MSEC, (double)least / SL_MSEC);
	CHECK(o1vt_hogs("o1:version=2.6.0,imbalance=half", 3, 2400, &n0, &n1, &most, &least));
	CHECKF(most > 2 * least - 100 * SL_MSEC, "2.6.0 half: most %.0f ms, least %.0f ms",
	       (double)most / SL_MSEC, (double)least / SL_MSEC);
	/* 2.6.0: imbalance 1 halves to 0 and the pull takes every movable
	 * task: the queued hog moves at every other busy tick (0.4, 0.6, 1.0,
	 * 1.2 ... s), so the three share the two CPUs far more evenly.  (How
	 * evenly depends on which hog is queued at those ticks: the moving
	 * one shares a CPU with each of the others in turn; 1.5 held when all
	 * the forks happened at one instant, 1.6 with the hogs queued
	 * together at 0.) */
	CHECK(o1vt_hogs("o1:version=2.6.0", 3, 2400, &n0, &n1, &most, &least));
	CHECKF(most < least * 7 / 4 && o1vt_moves >= 6, "2.6.0: most %.0f ms, least %.0f ms, "
	       "%ld moves", (double)most / SL_MSEC, (double)least / SL_MSEC, o1vt_moves);
	CHECK(o1vt_hogs("o1:version=2.5.33,imbalance=quarter", 3, 2400, &n0, &n1, &most,
			&least));
	CHECKF(most < least * 3 / 2, "2.5.33 quarter: most %.0f ms, least %.0f ms",
	       (double)most / SL_MSEC, (double)least / SL_MSEC);
}

SL_TEST(o1_imbalance_pull_everything)
{
	int n0 = -1, n1 = -1;
	sl_time most, least;

	/*
	 * Seven hogs: CPU 1 takes one when idle (6 vs 1), two at the 200 ms
	 * busy tick (4 vs 3).  At 400 ms it sees 4 against its 3: 2.6.0's
	 * imbalance of 1 halves to 0 and the pull loop takes every movable
	 * task, all three queued ones (1 vs 6).  2.5 sees (4-3)/2 = 0 and
	 * stays.  (idle_tick=idle: the first pull is an idle one, as above.)
	 */
	const char *p26 = "o1:version=2.6.0,idle_tick=idle";
	CHECK(o1vt_hogs(p26, 7, 390, &n0, &n1, &most, &least));
	CHECKF(n0 == 4 && n1 == 3, "2.6.0 at 390 ms: %d vs %d", n0, n1);
	CHECK(o1vt_hogs(p26, 7, 410, &n0, &n1, &most, &least));
	CHECKF(n0 == 1 && n1 == 6, "2.6.0 at 410 ms: %d vs %d", n0, n1);
	CHECK(o1vt_hogs("o1:version=2.5.33", 7, 510, &n0, &n1, &most, &least));
	CHECKF(n0 == 4 && n1 == 3, "2.5.33 at 510 ms: %d vs %d", n0, n1);
}

/* ---- 2.6.0: uninterruptible sleepers are capped (2.3) ---- */

/* One task alternates 1 ms of work with 20 ms of (un)interruptible sleep;
 * its sleep_avg (ms) and prio after 600 ms. */
static bool o1vt_sleeper(const char *policy, bool io, int64_t *avg_ms, int *prio)
{
	struct o1t_run r;
	bool ok = false;

	if (!o1t_start(&r, "pack:1 core:1 pu:1", policy, 600 * SL_MSEC))
		return false;
	struct o1t_script *s = o1t_new(r.sim);
	for (int i = 0; i < O1T_MAX_ACTS / 2; i++) {
		o1t_add(s, sl_act_run(1 * SL_MSEC, SL_WC_INT));
		o1t_add(s, io ? sl_act_io_wait(20 * SL_MSEC) : sl_act_sleep(20 * SL_MSEC));
	}
	struct o1t_script *root = o1t_new(r.sim);
	o1t_fork(root, s, "s", 0);
	o1t_add(root, sl_act_wait());
	sl_sim_spawn_root(r.sim, &o1t_prog, root, "root");
	if (o1t_run(&r)) {
		struct sl_task *t = o1t_find(r.sim, "s");
		struct o1 *st = sl_policy_data(r.sim);
		if (t) {
			bool ns = st->cfg.v->interactivity == O1_SLEEP_NS;
			*avg_ms = ns ? o1_of(t)->sleep_avg / SL_MSEC : o1_of(t)->sleep_avg;
			*prio = o1_of(t)->prio;
			ok = true;
		}
	}
	sl_sim_destroy(r.sim);
	return ok;
}

SL_TEST(o1_uninterruptible_cap)
{
	int64_t avg = -1, avg_io = -1;
	int prio = -1, prio_io = -1;

	/* 2.6.0: interruptible sleep raises sleep_avg to MAX_SLEEP_AVG
	 * (1020 ms, the full bonus: prio 115); uninterruptible sleep stops at
	 * INTERACTIVE_SLEEP = 1020 * 8 / 10 - 1 = 815 ms (bonus 2: prio 118) */
	CHECK(o1vt_sleeper("o1:version=2.6.0", false, &avg, &prio));
	CHECK(o1vt_sleeper("o1:version=2.6.0", true, &avg_io, &prio_io));
	CHECKF(avg > 1000 && prio <= 116, "interruptible: sleep_avg %lld ms, prio %d",
	       (long long)avg, prio);
	CHECKF(avg_io <= 815 && avg_io > 700 && prio_io == 118,
	       "uninterruptible: sleep_avg %lld ms, prio %d", (long long)avg_io, prio_io);
	/* 2.5.68 has no such cap: the same either way */
	CHECK(o1vt_sleeper("o1:version=2.5.68", false, &avg, &prio));
	CHECK(o1vt_sleeper("o1:version=2.5.68", true, &avg_io, &prio_io));
	CHECKF(avg == avg_io && prio == prio_io && avg > 0,
	       "2.5.68: sleep_avg %lld / %lld jiffies", (long long)avg, (long long)avg_io);
}

/*
 * The wakeup that crosses the cap sets sleep_avg to INTERACTIVE_SLEEP
 * (2.6.11 recalc_task_prio: `p->sleep_avg = INTERACTIVE_SLEEP(p)`, then
 * nothing more is added).  One 200 ms wait on I/O from sleep_avg 0 is worth
 * 2 s: the task wakes at the cap, 815 ms (prio 118).  Until Dec 2026 the
 * model summed the old sleep_avg with the credit in one expression whose
 * operands C does not order: GCC read sleep_avg before the call that set
 * the cap, and the crossing wakeup earned nothing (0 ms, prio 125).
 */
SL_TEST(o1_uninterruptible_cap_is_reached)
{
	struct o1t_run r;

	if (!o1t_start(&r, "pack:1 core:1 pu:1", "o1:version=2.6.0", 200500 * SL_USEC))
		return;
	struct o1t_script *s = o1t_new(r.sim);
	o1t_add(s, sl_act_io_wait(200 * SL_MSEC));
	o1t_add(s, sl_act_run(1 * SL_MSEC, SL_WC_INT));
	sl_sim_spawn_root(r.sim, &o1t_prog, s, "s");
	if (o1t_run(&r)) {
		struct sl_task *t = o1t_find(r.sim, "s");
		const struct o1 *st = sl_policy_data(r.sim);
		/* INTERACTIVE_SLEEP of nice 0: MAX_SLEEP_AVG * (MAX_BONUS / 2 +
		 * INTERACTIVE_DELTA + 1) / MAX_BONUS - 1 jiffies */
		int mb = o1_max_bonus(st);
		sl_time cap = (st->max_sleep_avg * (mb / 2 + st->cfg.v->interactive_delta + 1) / mb -
			       1) * st->tick_ns;
		CHECK(t && s->pc == 2);
		if (t)
			CHECKF(o1_of(t)->sleep_avg == cap && o1_of(t)->prio == 118,
			       "sleep_avg %.3f ms (cap %.3f), prio %d after 200 ms on I/O",
			       (double)o1_of(t)->sleep_avg / SL_MSEC, (double)cap / SL_MSEC,
			       o1_of(t)->prio);
	}
	sl_sim_destroy(r.sim);
}

/* ---- sync wakeups (2.6) ---- */

/* The channel of o1vt_pipe_pair: plain wakeups (a socket), a pipe (sync
 * only when the waker then sleeps: never here, the write fits), or every
 * wakeup sync (the sync rule alone). */
enum o1vt_chan { O1VT_PLAIN, O1VT_PIPE, O1VT_SYNC };

/*
 * One CPU, run until `until`: r blocks reading a channel that w writes
 * (100 bytes, which fit) after `work` of its own; then each computes
 * 300 ms.  False if the machine could not be set up (then there is no sim).
 */
static bool o1vt_pipe_pair(struct o1t_run *r, const char *policy, sl_time until,
			   enum o1vt_chan kind, sl_time work, struct o1t_script **rd,
			   struct o1t_script **wr)
{
	if (!o1t_start(r, "pack:1 core:1 pu:1", policy, until))
		return false;
	struct sl_chan *pipe = sl_chan_new(r->sim, 4096, kind != O1VT_PLAIN);
	if (kind == O1VT_SYNC)
		sl_chan_sync_always(pipe);
	*rd = o1t_new(r->sim);
	*wr = o1t_new(r->sim);
	o1t_add(*rd, (struct sl_action){ .kind = SL_ACT_CHAN_READ, .u.chan = { .chan = pipe, .bytes = 100 } });
	o1t_add(*rd, sl_act_run(300 * SL_MSEC, SL_WC_INT));
	o1t_add(*wr, sl_act_run(work, SL_WC_INT));
	o1t_add(*wr, (struct sl_action){ .kind = SL_ACT_CHAN_WRITE, .u.chan = { .chan = pipe, .bytes = 100 } });
	o1t_add(*wr, sl_act_run(300 * SL_MSEC, SL_WC_INT));
	struct o1t_script *root = o1t_new(r->sim);
	o1t_fork(root, *rd, "r", 0);
	o1t_fork(root, *wr, "w", 0);
	o1t_add(root, sl_act_wait());
	o1t_add(root, sl_act_wait());
	sl_sim_spawn_root(r->sim, &o1t_prog, root, "root");
	return true;
}

/* t's sleep_avg in its version's unit: jiffies, or ms where it counts ns
 * (2.6.0). */
static int64_t o1vt_sleep_avg(struct sl_sim *sim, struct sl_task *t)
{
	const struct o1 *s = sl_policy_data(sim);
	return s->cfg.v->interactivity == O1_SLEEP_NS ? o1_of(t)->sleep_avg / SL_MSEC
						       : o1_of(t)->sleep_avg;
}

/* Run r to its end; then task `comm`'s sleep_avg, if script s reached
 * action `pc`, else -1. */
static int64_t o1vt_run_avg(struct o1t_run *r, const struct o1t_script *s, int pc,
			    const char *comm)
{
	if (!o1t_run(r) || s->pc != pc)
		return -1;
	struct sl_task *t = o1t_find(r->sim, comm);
	return t ? o1vt_sleep_avg(r->sim, t) : -1;
}

/* r's sleep_avg at 250 ms when w writes after 200 ms, with sync wakeups
 * (O1VT_SYNC) or through a pipe (O1VT_PIPE). */
static int64_t o1vt_sync_credit(const char *policy, enum o1vt_chan kind)
{
	struct o1t_run r;
	struct o1t_script *rd, *wr;

	if (!o1vt_pipe_pair(&r, policy, 250 * SL_MSEC, kind, 200 * SL_MSEC, &rd, &wr))
		return -1;
	int64_t avg = o1vt_run_avg(&r, rd, 2, "r");
	sl_sim_destroy(r.sim);
	return avg;
}

SL_TEST(o1_sync_wakeup_credit)
{
	/* 2.5.59: a sync wakeup credits the ~200 jiffies slept */
	int64_t avg = o1vt_sync_credit("o1:version=2.5.59", O1VT_SYNC);
	CHECKF(avg > 140, "2.5.59: sleep_avg %lld", (long long)avg);
	/* 2.5.68: __activate_task, no credit */
	avg = o1vt_sync_credit("o1:version=2.5.68", O1VT_SYNC);
	CHECKF(avg == 0, "2.5.68: sleep_avg %lld", (long long)avg);
	/* 2.6.0: quiet as well, the woken task being on the waker's CPU */
	avg = o1vt_sync_credit("o1:version=2.6.0", O1VT_SYNC);
	CHECKF(avg == 0, "2.6.0: sleep_avg %lld ms", (long long)avg);
}

/* A pipe write that fits wakes the reader asynchronously, the writer going
 * on (2.4.27 and 2.6.11 fs/pipe.c: wake_up_interruptible when the call
 * returns; the sync wakeup only before pipe_wait): so 2.5.68 and 2.6.0
 * credit the 200 ms slept, which their quiet sync path would not. */
SL_TEST(o1_pipe_write_that_fits_credits_the_reader)
{
	int64_t avg = o1vt_sync_credit("o1:version=2.5.68", O1VT_PIPE);
	CHECKF(avg > 140, "2.5.68: sleep_avg %lld", (long long)avg);
	avg = o1vt_sync_credit("o1:version=2.6.0", O1VT_PIPE);
	CHECKF(avg > 140, "2.6.0: sleep_avg %lld ms", (long long)avg);
}

/* ---- sched_yield ---- */

/* One CPU: y does 20 x (1 ms, yield) beside a 2 s hog.  When is y done? */
static sl_time o1vt_yielder_done(const char *policy)
{
	struct o1t_run r;
	sl_time done = -1;

	if (!o1t_start(&r, "pack:1 core:1 pu:1", policy, 0))
		return -1;
	struct o1t_script *y = o1t_new(r.sim);
	for (int i = 0; i < 20; i++) {
		o1t_add(y, sl_act_run(1 * SL_MSEC, SL_WC_INT));
		o1t_yield(y);
	}
	struct o1t_script *root = o1t_new(r.sim);
	o1t_fork(root, y, "y", 0);
	o1t_fork(root, o1t_hog(r.sim, 2000), "hog", 0);
	o1t_add(root, sl_act_wait());
	o1t_add(root, sl_act_wait());
	sl_sim_spawn_root(r.sim, &o1t_prog, root, "root");
	if (o1t_run(&r))
		done = y->at[y->n];
	sl_sim_destroy(r.sim);
	return done;
}

SL_TEST(o1_yield_to_expired)
{
	/* into the expired array: each yield hands the hog a whole slice
	 * (151 ms in 2.5.33, 102 in 2.6.0), so y needs about 19 of them, or
	 * finishes after the hog */
	sl_time t = o1vt_yielder_done("o1:version=2.5.33");
	CHECKF(t > 2000 * SL_MSEC, "2.5.33: y done at %.0f ms", (double)t / SL_MSEC);
	t = o1vt_yielder_done("o1:version=2.6.0");
	CHECKF(t > 1800 * SL_MSEC, "2.6.0: y done at %.0f ms", (double)t / SL_MSEC);
	t = o1vt_yielder_done("up:version=2.6.0");
	CHECKF(t > 1800 * SL_MSEC, "up: y done at %.0f ms", (double)t / SL_MSEC);
	/* to the tail of the active list: once the hog has expired, y is
	 * alone in the active array and keeps the CPU */
	t = o1vt_yielder_done("o1:version=2.5.33,yield=tail");
	CHECKF(t > 0 && t < 300 * SL_MSEC, "2.5.33 tail: y done at %.0f ms",
	       (double)t / SL_MSEC);
	t = o1vt_yielder_done("o1:version=2.6.0,yield=tail");
	CHECKF(t > 0 && t < 300 * SL_MSEC, "2.6.0 tail: y done at %.0f ms",
	       (double)t / SL_MSEC);
}

/* ---- fork placement (2.3) ---- */

/*
 * One CPU.  s and w start together, s first in the queue and w behind it
 * at the same priority; s works 3 ms and forks c.  Returns true if c ran
 * before w (*ok false if the run failed).  (Not a root that forks s and
 * sleeps: where the child runs first, s would preempt that root at the
 * fork, before its sleep.)
 */
static bool o1vt_child_before_waiter(const char *policy, bool *ok)
{
	struct o1t_run r;
	bool before = false;

	*ok = false;
	if (!o1t_start(&r, "pack:1 core:1 pu:1", policy, 0))
		return false;
	struct o1t_script *c = o1t_hog(r.sim, 1);
	struct o1t_script *s = o1t_new(r.sim);
	o1t_add(s, sl_act_run(3 * SL_MSEC, SL_WC_INT));
	o1t_fork(s, c, "c", 0);
	o1t_add(s, sl_act_run(3 * SL_MSEC, SL_WC_INT));
	o1t_add(s, sl_act_wait());
	struct o1t_script *w = o1t_hog(r.sim, 1);
	sl_sim_spawn_root(r.sim, &o1t_prog, s, "s");
	sl_sim_spawn_root(r.sim, &o1t_prog, w, "w");
	if (o1t_run(&r) && s->pc == 4 && c->pc == 1 && w->pc == 1 && s->at[0] < w->at[0]) {
		*ok = true;
		before = c->at[0] < w->at[0];
	}
	sl_sim_destroy(r.sim);
	return before;
}

SL_TEST(o1_fork_placement_per_version)
{
	bool ok;

	/* up to 2.5.59 the child goes to the tail of its list: behind w */
	CHECK(!o1vt_child_before_waiter("o1:version=2.5.33", &ok) && ok);
	CHECK(!o1vt_child_before_waiter("o1:version=2.5.59", &ok) && ok);
	CHECK(!o1vt_child_before_waiter("ht:version=f3", &ok) && ok);
	CHECK(!o1vt_child_before_waiter("ht:version=e6", &ok) && ok);
	/* D7 (2.5.68, 2.6.0): in front of its parent, ahead of w */
	CHECK(o1vt_child_before_waiter("o1:version=2.5.68", &ok) && ok);
	CHECK(o1vt_child_before_waiter("o1:version=2.6.0", &ok) && ok);
	CHECK(o1vt_child_before_waiter("ht:version=a9", &ok) && ok);
	/* the knob overrides the row */
	CHECK(o1vt_child_before_waiter("o1:version=2.5.59,fork_place=front", &ok) && ok);
	CHECK(!o1vt_child_before_waiter("o1:version=2.6.0,fork_place=tail", &ok) && ok);
}

/* ---- expired_timestamp (2.4) ---- */

/*
 * One CPU: i sleeps 10.5 s (the full bonus in every version), then runs
 * past the end of its first slice, which it spends interactive, so it goes
 * back to the active array.  The runqueue's expired_timestamp at 10.65 s.
 */
static int64_t o1vt_expired_timestamp(const char *policy)
{
	struct o1t_run r;
	int64_t ts = -2;

	if (!o1t_start(&r, "pack:1 core:1 pu:1", policy, 10650 * SL_MSEC))
		return -2;
	struct o1t_script *i = o1t_new(r.sim);
	o1t_add(i, sl_act_sleep(10500 * SL_MSEC));
	o1t_add(i, sl_act_run(1000 * SL_MSEC, SL_WC_INT));
	struct o1t_script *root = o1t_new(r.sim);
	o1t_fork(root, i, "i", 0);
	o1t_add(root, sl_act_wait());
	sl_sim_spawn_root(r.sim, &o1t_prog, root, "root");
	if (o1t_run(&r) && i->pc == 2) {
		struct o1 *s = sl_policy_data(r.sim);
		struct sl_task *t = o1t_find(r.sim, "i");
		/* it did expire, and stayed in the active array */
		if (t && o1_of(t)->array == s->rq_of[0]->active && !o1_of(t)->first_time_slice)
			ts = s->rq_of[0]->expired_timestamp;
	}
	sl_sim_destroy(r.sim);
	return ts;
}

SL_TEST(o1_expired_timestamp_per_version)
{
	/* 2.5.31-2.5.68: the starvation clock starts only when a task goes
	 * to the expired array; an interactive task reinserted does not */
	static const char *const v25[] = { "o1:version=2.5.33", "o1:version=2.5.59",
					   "o1:version=2.5.68" };
	for (int k = 0; k < 3; k++) {
		int64_t ts = o1vt_expired_timestamp(v25[k]);
		CHECKF(ts == -1, "%s: expired_timestamp %lld", v25[k], (long long)ts);
	}
	/* 2.6.0: any expiry starts it (here at ~10.6 s) */
	int64_t ts = o1vt_expired_timestamp("o1:version=2.6.0");
	CHECKF(ts > 10500 && ts < 10650, "2.6.0: expired_timestamp %lld", (long long)ts);
}

/* ---- 2.5.68: overflow sleep credit goes to the waker (2.3) ---- */

/*
 * One CPU: r blocks reading a pipe (no sync wakeup) that w writes after
 * 12 s of work.  r's credit of ~12 s exceeds every version's maximum.
 * w's sleep_avg (jiffies, or ms in 2.6.0) and prio at 12.1 s.
 */
static bool o1vt_waker_credit(const char *policy, int64_t *avg, int *prio)
{
	struct o1t_run r;
	struct o1t_script *rd, *wr;
	bool ok = false;

	if (!o1vt_pipe_pair(&r, policy, 12100 * SL_MSEC, O1VT_PLAIN, 12000 * SL_MSEC, &rd, &wr))
		return false;
	/* w has written (r, woken with more credit, preempts w on its return
	 * from the write: w has not asked for its next action yet) */
	if (o1t_run(&r) && wr->pc >= 2 && rd->pc == 2) {
		struct sl_task *t = o1t_find(r.sim, "w");
		if (t) {
			*avg = o1vt_sleep_avg(r.sim, t);
			*prio = o1_of(t)->prio;
			ok = true;
		}
	}
	sl_sim_destroy(r.sim);
	return ok;
}

SL_TEST(o1_requeue_waker)
{
	int64_t avg = -1;
	int prio = -1;

	/* 2.5.68: r's ~11999 jiffies exceed MAX_SLEEP_AVG (10000) by ~1999,
	 * which w, a hog at sleep_avg 0 (prio 125), takes: prio 124 */
	CHECK(o1vt_waker_credit("o1:version=2.5.68", &avg, &prio));
	CHECKF(avg > 1900 && avg <= 2000 && prio == 124, "2.5.68: w's sleep_avg %lld, prio %d",
	       (long long)avg, prio);
	CHECK(o1vt_waker_credit("ht:version=b2", &avg, &prio));
	CHECKF(avg > 1900 && avg <= 2000 && prio == 124, "b2: w's sleep_avg %lld, prio %d",
	       (long long)avg, prio);
	/* the other versions drop the overflow */
	static const char *const none[] = { "o1:version=2.5.59", "o1:version=2.6.0" };
	for (int i = 0; i < 2; i++) {
		CHECK(o1vt_waker_credit(none[i], &avg, &prio));
		CHECKF(avg == 0 && prio == 125, "%s: w's sleep_avg %lld, prio %d", none[i],
		       (long long)avg, prio);
	}
}

/* ---- 2.6.0's cache-hot test measures from now (2.7) ---- */

/*
 * Two CPUs, hotness respected by every balance, 5 ticks hot.  On CPU 0 the
 * root forks a (0.2 ms of work), runs 1 ms, forks b and computes on; both
 * children queue behind it (fork_place=tail keeps the root running).  At
 * the 6 ms tick idle CPU 1 finds b still hot and takes a, which exits
 * ~0.25 ms later: the balance of the newly idle CPU, between two ticks,
 * finds b more than 5 ms old.  When did b first run, and where?
 */
static sl_time o1vt_hot_from_now(const char *policy, int *cpu)
{
	struct o1t_run r;
	sl_time start = -1;

	if (!o1t_start(&r, "pack:2 core:1 pu:1", policy, 0))
		return -1;
	struct o1t_script *a = o1t_hog(r.sim, 0.2), *b = o1t_hog(r.sim, 10);
	struct o1t_script *root = o1t_new(r.sim);
	o1t_fork(root, a, "a", 0);
	o1t_add(root, sl_act_run(1 * SL_MSEC, SL_WC_INT));
	o1t_fork(root, b, "b", 0);
	o1t_add(root, sl_act_run(20 * SL_MSEC, SL_WC_INT));
	o1t_add(root, sl_act_wait());
	o1t_add(root, sl_act_wait());
	sl_sim_spawn_root(r.sim, &o1t_prog, root, "root");
	if (o1t_run(&r) && a->cpu[0] == 1) {
		start = b->at[0];
		*cpu = b->cpu[0];
	}
	sl_sim_destroy(r.sim);
	return start;
}

SL_TEST(o1_task_hot_from_now)
{
	int cpu = -1;
	sl_time t = o1vt_hot_from_now("o1:version=2.6.0,fork_place=tail,steal_hot=never,"
				      "cache_decay_ticks=5", &cpu);
	/* b was forked at ~1.07 ms: at 6.2 ms it is cold, though only 4.93
	 * ms older than the last tick (6 ms), which would have kept it until
	 * the 7 ms tick */
	CHECKF(cpu == 1 && t > 6 * SL_MSEC && t < 6.5 * SL_MSEC, "b started at %.3f ms on "
	       "CPU %d", (double)t / SL_MSEC, cpu);
}

/* ---- the parent's wakeup at a child's exit ---- */

/*
 * One CPU: the root forks a 200 ms hog and waits for it; the hog's exit
 * wakes it.  The root's sleep_avg at 250 ms (50 ms after it woke), in its
 * version's unit, and on which CPU the root asked for its next action on a
 * two-CPU machine whose hog ran on CPU 1 (ncpus 2), or -1.
 */
static int64_t o1vt_exit_wake(const char *policy, int ncpus, int *cpu_after)
{
	struct o1t_run r;
	static sl_cpumask only1;

	*cpu_after = -1;
	if (!o1t_start(&r, ncpus == 1 ? "pack:1 core:1 pu:1" : "pack:1 core:2 pu:1", policy,
		       250 * SL_MSEC))
		return -1;
	struct o1t_script *hog = o1t_hog(r.sim, 200);
	struct o1t_script *root = o1t_new(r.sim);
	if (ncpus == 1) {
		o1t_fork(root, hog, "hog", 0);
	} else {
		/* the hog runs on CPU 1, the root stays on CPU 0 */
		sl_cpumask_clear(&only1);
		sl_cpumask_set(&only1, 1);
		o1t_add(root, (struct sl_action){ .kind = SL_ACT_FORK,
			.u.fork = { .prog = &o1t_prog, .state = hog, .comm = "hog", .allowed = &only1 } });
	}
	o1t_add(root, sl_act_wait());
	o1t_add(root, sl_act_run(300 * SL_MSEC, SL_WC_INT));
	sl_sim_spawn_root(r.sim, &o1t_prog, root, "root");
	int64_t avg = o1vt_run_avg(&r, root, 3, "root");
	if (root->pc == 3)
		*cpu_after = root->cpu[2];
	sl_sim_destroy(r.sim);
	return avg;
}

/* 2.6.11 kernel/signal.c __wake_up_parent wakes the parent with
 * wake_up_interruptible_sync (2.6.0 and 2.5.x read the same: exit_wake),
 * 2.4.27's wake_up_parent with wake_up_interruptible.  In 2.5.68 and 2.6.0
 * a sync wakeup on the waker's CPU is quiet: the parent gets no credit for
 * the 200 ms it waited; with exit_wake=plain it does. */
SL_TEST(o1_exit_wakeup_is_sync)
{
	static const char *const quiet[] = { "o1:version=2.5.68", "o1:version=2.6.0",
					     "up:version=2.6.0", "ht:version=c1", "ht:version=a9" };
	int cpu;
	for (size_t i = 0; i < sizeof(quiet) / sizeof(quiet[0]); i++) {
		int64_t avg = o1vt_exit_wake(quiet[i], 1, &cpu);
		CHECKF(avg == 0, "%s: sleep_avg %lld after the exit wakeup", quiet[i],
		       (long long)avg);
		char plain[64];
		snprintf(plain, sizeof(plain), "%s,exit_wake=plain", quiet[i]);
		avg = o1vt_exit_wake(plain, 1, &cpu);
		/* the 200 ms credited (2.5.68 counts jiffies: 148 since the
		 * root last ran), then sched_exit at the reap, after the
		 * wakeup, averages it 3:1 with the hog's 0 (EXIT_WEIGHT), and
		 * 50 ms of running take 50 more: 61; 2.6.0's is in ms */
		CHECKF(avg > 40, "%s: sleep_avg %lld after a plain exit wakeup", plain,
		       (long long)avg);
	}
	/* and the sync fast-migrate: the root, last on CPU 0, is woken by a
	 * child exiting on CPU 1 and runs there (2.6.0 try_to_wake_up: the
	 * waker's CPU for a sync wakeup); a plain wakeup leaves it on CPU 0 */
	o1vt_exit_wake("o1:version=2.6.0", 2, &cpu);
	CHECKF(cpu == 1, "2.6.0: the root ran on CPU %d after its child's exit on CPU 1", cpu);
	o1vt_exit_wake("o1:version=2.6.0,exit_wake=plain", 2, &cpu);
	CHECKF(cpu == 0, "2.6.0 plain: the root ran on CPU %d after its child's exit", cpu);
	o1vt_exit_wake("o1:version=2.5.59", 2, &cpu);
	CHECKF(cpu == 1, "2.5.59: the root ran on CPU %d after its child's exit on CPU 1", cpu);
}

/* 2.5.33's row (2.5.31-2.5.51, and F3 on it) wakes the parent plainly, as
 * 2.4.27's wake_up_parent: the choice the published make -j2 lottery of
 * 2.5.31 and 2.5.33 supports (o1/config.c).  The root stays on CPU 0
 * where it waited; exit_wake=sync brings back the fast-migrate. */
SL_TEST(o1_exit_wakeup_of_2_5_33_is_plain)
{
	static const char *const plain[] = { "o1:version=2.5.33", "ht:version=f3",
					     "up:version=2.5.33" };
	int cpu;
	for (size_t i = 0; i < sizeof(plain) / sizeof(plain[0]); i++) {
		if (strncmp(plain[i], "up", 2)) {
			o1vt_exit_wake(plain[i], 2, &cpu);
			CHECKF(cpu == 0, "%s: the root ran on CPU %d after its child's exit on "
			       "CPU 1", plain[i], cpu);
			char sync[64];
			snprintf(sync, sizeof(sync), "%s,exit_wake=sync", plain[i]);
			o1vt_exit_wake(sync, 2, &cpu);
			CHECKF(cpu == 1, "%s: the root ran on CPU %d after its child's exit on "
			       "CPU 1", sync, cpu);
		}
		/* 2.5.33 credits a sync wakeup too (O1_SYNC_CREDIT), so the
		 * one-CPU difference is only in who runs: both credit */
		int64_t avg = o1vt_exit_wake(plain[i], 1, &cpu);
		CHECKF(avg > 40, "%s: sleep_avg %lld after the exit wakeup", plain[i],
		       (long long)avg);
	}
}
