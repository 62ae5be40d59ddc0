/*
 * test_cfs_pelt.c - cfs's PELT (cfs/pelt.c) against values worked out by
 * hand with 6.12's integer arithmetic (kernel/sched/pelt.c): the decay
 * table, decay over whole and partial half-lives, a task running from
 * zero for 1, 32 and 345 ms in one update, a sleep of 32 periods halving
 * its sums, the averages moving only at period boundaries, and attach /
 * detach / removal rebuilding and subtracting the sums as fair.c does;
 * UTIL_EST's estimate and the CPU utilisation it feeds.
 *
 * Units: 1 unit = 1024 ns, 1 period = 1024 units; LOAD_AVG_MAX 47742;
 * divider = 47742 - 1024 + period_contrib.  A continuous exp2 decay (the
 * model before) gives 500 for 1000 halved and 495.29 at 32 ms: the
 * integers below are the kernel's truncations.
 */
#include <math.h>
#include <string.h>

#include "policy/cfs/cfs.h"
#include "test.h"

#define MS 1000000

SL_TEST(cfs_pelt_table)
{
	/* the kernel's generator: floor((2^32 - 1) * y^n), y^32 = 1/2 */
	double y = pow(0.5, 1.0 / 32);
	for (int n = 0; n < 32; n++)
		CHECKF(cfs_pelt_y_inv_at(n) == (uint32_t)(4294967295.0 * pow(y, n)), "n=%d", n);
	CHECK(cfs_pelt_y_inv_at(30) == 0x85aac367);
}

SL_TEST(cfs_pelt_decay)
{
	/* 32 periods: >> 1, then * 0xffffffff >> 32 takes one more off */
	CHECK(cfs_pelt_decay(1000, 32) == 499);
	CHECK(cfs_pelt_decay(1 << 20, 32) == 524287);
	CHECK(cfs_pelt_decay(1000, 0) == 999);
	/* 30 periods: 1024 * 0x85aac367 >> 32 = 534.67 -> 534;
	 * 47742 * 0x85aac367 >> 32 = 24927.9 -> 24927 */
	CHECK(cfs_pelt_decay(1024, 30) == 534);
	CHECK(cfs_pelt_decay(47742, 30) == 24927);
	/* 329 periods: >> 10 leaves 0 of 1024 and 46 of 47742; 46 * y^9 = 37 */
	CHECK(cfs_pelt_decay(1024, 329) == 0);
	CHECK(cfs_pelt_decay(47742, 329) == 37);
	/* past 63 half-lives everything is gone */
	CHECK(cfs_pelt_decay(UINT64_MAX, 32 * 63 + 1) == 0);
	/* 62 half-lives: UINT64_MAX >> 62 = 3, * 0xffffffff >> 32 = 2 */
	CHECK(cfs_pelt_decay(UINT64_MAX, 32 * 62) == 2);
}

SL_TEST(cfs_pelt_divide)
{
	/* the reciprocals' quotients are the divisions' for every divider:
	 * at and beside multiples of it up to 2^48 (where a multiplication
	 * by a reciprocal would err first), at the largest quotient, and
	 * past 2^48 (the division itself) */
	for (uint32_t pc = 0; pc < 1024; pc++) {
		uint64_t d = 47742 - 1024 + pc, top = ((UINT64_C(1) << 48) - 1) / d;
		uint64_t first_bad = 0;
		bool bad = false;
		for (uint64_t q = 1; !bad; q = q < top / 3 ? q * 3 + 1 : top) {
			uint64_t n[] = { q * d - 1, q * d, q * d + 1 };
			for (int i = 0; i < 3 && !bad; i++)
				if (n[i] >> 48 == 0 && cfs_pelt_div_at(n[i], pc) != n[i] / d) {
					first_bad = n[i];
					bad = true;
				}
			if (q == top)
				break;
		}
		uint64_t edge[] = { 0, 1, d - 1, UINT32_MAX, (UINT64_C(1) << 48) - 1,
				    UINT64_C(1) << 48, UINT64_MAX };
		for (size_t i = 0; i < sizeof(edge) / sizeof(edge[0]) && !bad; i++)
			if (cfs_pelt_div_at(edge[i], pc) != edge[i] / d) {
				first_bad = edge[i];
				bad = true;
			}
		CHECKF(!bad, "period_contrib %u: n = %llu", pc, (unsigned long long)first_bad);
	}
}

/* A task on from 0 to t, brought up to date once at t. */
static struct cfs_avg cfspt_run(sl_time t, bool *decayed)
{
	struct cfs_avg sa;
	memset(&sa, 0, sizeof(sa));
	*decayed = cfs_pelt_update(&sa, t, 1, 1, 1024, 1024);
	return sa;
}

SL_TEST(cfs_pelt_running_from_zero)
{
	bool decayed;

	/* 1 ms = 976 units (976.56), no period boundary: the sums grow by
	 * 976 (load, runnable) and 976 << 10 (util, runnable), the averages
	 * are not recomputed */
	struct cfs_avg a = cfspt_run(1 * MS, &decayed);
	CHECK(!decayed);
	CHECK(a.last_update_time == 976 * 1024);
	CHECK(a.period_contrib == 976);
	CHECK(a.load_sum == 976 && a.util_sum == 976 << 10 && a.runnable_sum == 976 << 10);
	CHECK(a.load_avg == 0 && a.util_avg == 0 && a.runnable_avg == 0);

	/* 32 ms = 31250 units = 30 periods + 530:
	 *   d1 = 1024 (the first period whole), d3 = 530
	 *   c1 = 1024 y^30 = 534, c2 = 47742 - 47742 y^30 - 1024 = 21791
	 *   contrib = 534 + 21791 + 530 = 22855
	 *   divider = 46718 + 530 = 47248
	 *   util_avg = (22855 << 10) / 47248 = 23403520 / 47248 = 495
	 *   load_avg = 1024 * 22855 / 47248 = 495 (exp2: 495.29) */
	a = cfspt_run(32 * MS, &decayed);
	CHECK(decayed);
	CHECK(a.period_contrib == 530);
	CHECK(a.load_sum == 22855);
	CHECK(a.util_sum == 23403520);
	CHECK(a.util_avg == 495 && a.load_avg == 495 && a.runnable_avg == 495);

	/* 345 ms = 336914 units = 329 periods + 18:
	 *   c1 = 1024 y^329 = 0, c2 = 47742 - 37 - 1024 = 46681
	 *   contrib = 0 + 46681 + 18 = 46699; divider = 46718 + 18 = 46736
	 *   util_avg = 47819776 / 46736 = 1023 */
	a = cfspt_run(345 * MS, &decayed);
	CHECK(a.load_sum == 46699 && a.util_sum == 46699u << 10);
	CHECK(a.util_avg == 1023 && a.load_avg == 1023);
	/* a nice -5 task's load is its weight (3121) times the same ratio */
	struct cfs_avg b;
	memset(&b, 0, sizeof(b));
	cfs_pelt_update(&b, 345 * MS, 1, 1, 1024, 3121);
	CHECK(b.load_avg == 3121ull * 46699 / 46736 && b.load_avg == 3118);

	/* then asleep for exactly 32 periods: every sum halves (less one),
	 * nothing is added; util 47819776 -> 23909887, / 46736 = 511;
	 * load 46699 -> 23348, * 1024 / 46736 = 511 */
	CHECK(cfs_pelt_update(&a, a.last_update_time + 32 * 1024 * 1024, 0, 0, 0, 1024));
	CHECK(a.util_sum == 23909887 && a.load_sum == 23348);
	CHECK(a.util_avg == 511 && a.load_avg == 511);
	CHECK(a.period_contrib == 18);
}

SL_TEST(cfs_pelt_units_and_periods)
{
	struct cfs_avg a;
	memset(&a, 0, sizeof(a));

	/* less than a unit: nothing moves, not even the clock */
	CHECK(!cfs_pelt_update(&a, 1023, 1, 1, 1024, 1024));
	CHECK(a.last_update_time == 0 && a.load_sum == 0);
	/* 1.5 units: one unit counted, the half carried in the clock */
	CHECK(!cfs_pelt_update(&a, 1536, 1, 1, 1024, 1024));
	CHECK(a.last_update_time == 1024 && a.load_sum == 1);
	/* the rest of the first period: 1023 more units reach the boundary
	 * (1 + 1023 = 1024: one period, none left over); d1 = 1024 - 1,
	 * d3 = 0; c1 = 1023 y = 1001; c2 = 47742 - 47742 y - 1024 = 0
	 * (LOAD_AVG_MAX y = LOAD_AVG_MAX - 1024 exactly); the old 1 decays
	 * to 0; load_avg = 1024 * 1001 / 46718 = 21 */
	CHECK(cfs_pelt_update(&a, 1024 * 1024, 1, 1, 1024, 1024));
	CHECK(a.period_contrib == 0);
	CHECK(cfs_pelt_decay(1023, 1) == 1001 && cfs_pelt_decay(47742, 1) == 46718);
	CHECK(a.load_sum == 1001);
	CHECK(a.load_avg == 21);
	/* time going backwards resets the clock, nothing else */
	uint64_t sum = a.load_sum;
	CHECK(!cfs_pelt_update(&a, 5, 1, 1, 1024, 1024));
	CHECK(a.last_update_time == 5 && a.load_sum == sum);
	/* no load: runnable and running count for nothing either */
	memset(&a, 0, sizeof(a));
	cfs_pelt_update(&a, 4 * MS, 0, 1, 1024, 1024);
	CHECK(a.load_sum == 0 && a.runnable_sum == 0 && a.util_sum == 0);
	/* a CPU at smt_gain's 589 contributes 589 per unit running */
	memset(&a, 0, sizeof(a));
	cfs_pelt_update(&a, 1 * MS, 1, 1, 589, 1024);
	CHECK(a.util_sum == 976 * 589);
}

/* A long-decayed idle average (every sum 0, no load) only moves its
 * clock and its place in the period; a boundary crossed sets every
 * average to what 0 sums give, 0, and one not crossed leaves them. */
SL_TEST(cfs_pelt_decayed_idle)
{
	struct cfs_avg a;
	memset(&a, 0, sizeof(a));
	a.period_contrib = 1000;

	CHECK(cfs_pelt_update(&a, 30 * 1024 + 100, 0, 0, 0, 1024));	/* 1000 + 30 units */
	CHECK(a.period_contrib == 6 && a.last_update_time == 30 * 1024);
	CHECK(a.load_avg == 0 && a.runnable_avg == 0 && a.util_avg == 0);
	a.load_avg = 5;	/* (as a removal can leave it) */
	a.util_avg = 7;
	CHECK(!cfs_pelt_update(&a, 40 * 1024, 0, 1, 1024, 1024));	/* 16: no boundary */
	CHECK(a.period_contrib == 16 && a.load_avg == 5 && a.util_avg == 7);
	CHECK(cfs_pelt_update(&a, (40 + 3000) * 1024, 0, 0, 0, 1024));	/* 2 periods + 952 */
	CHECK(a.period_contrib == 968 && a.load_avg == 0 && a.util_avg == 0);
	CHECK(a.load_sum == 0 && a.runnable_sum == 0 && a.util_sum == 0);
}

SL_TEST(cfs_pelt_attach_detach)
{
	struct cfs_rq rq;
	struct cfs_entity se;
	memset(&rq, 0, sizeof(rq));
	memset(&se, 0, sizeof(se));
	se.weight = 1024;

	/* the runqueue is at 345 ms of one task: period_contrib 18 */
	bool decayed;
	rq.avg = cfspt_run(345 * MS, &decayed);
	/* a task arrives with util 300, runnable 300, load 400 */
	se.avg.util_avg = 300;
	se.avg.runnable_avg = 300;
	se.avg.load_avg = 400;
	cfs_pelt_attach(&rq, &se);
	/* its sums are rebuilt on the runqueue's divider, 46736 */
	CHECK(se.avg.last_update_time == rq.avg.last_update_time);
	CHECK(se.avg.period_contrib == 18);
	CHECK(se.avg.util_sum == 300u * 46736);
	CHECK(se.avg.runnable_sum == 300ull * 46736);
	CHECK(se.avg.load_sum == 400ull * 46736 / 1024);
	CHECK(rq.avg.util_avg == 1023 + 300 && rq.avg.load_avg == 1023 + 400);
	CHECK(rq.avg.util_sum == (46699u << 10) + 300u * 46736);
	CHECK(rq.avg.load_sum == 46699 + 1024ull * (400ull * 46736 / 1024));

	/* and leaves: back where the runqueue was */
	cfs_pelt_detach(&rq, &se);
	CHECK(rq.avg.util_avg == 1023 && rq.avg.load_avg == 1023);
	CHECK(rq.avg.util_sum == 46699u << 10);
	/* detaching more than is there floors at zero, the sums at
	 * avg * PELT_MIN_DIVIDER */
	cfs_pelt_detach(&rq, &se);
	cfs_pelt_detach(&rq, &se);
	cfs_pelt_detach(&rq, &se);
	CHECK(rq.avg.util_avg == 123 && rq.avg.util_sum >= 123u * 46718);
	cfs_pelt_detach(&rq, &se);
	CHECK(rq.avg.util_avg == 0 && rq.avg.load_avg == 0);

	/* a task with no load left gets load_sum 1, not 0 */
	memset(&se.avg, 0, sizeof(se.avg));
	cfs_pelt_attach(&rq, &se);
	CHECK(se.avg.load_sum == 1);
}

/* max_t(u32, ...) in dequeue_load_avg truncates a 64-bit load_sum. */
SL_TEST(cfs_pelt_u32_floor)
{
	struct cfs_rq rq;
	struct cfs_entity se;
	memset(&rq, 0, sizeof(rq));
	memset(&se, 0, sizeof(se));
	se.weight = 1024;
	rq.avg.load_sum = (1ull << 32) + 5000;
	rq.avg.load_avg = 0;
	se.avg.load_sum = 1;
	cfs_pelt_detach(&rq, &se);
	/* (2^32 + 5000 - 1024) as u32 = 3976 */
	CHECK(rq.avg.load_sum == 3976);
}

/*
 * UTIL_EST (6.12 fair.c util_est_update, util_est_enqueue / _dequeue,
 * cpu_util), by hand: a sample moves the estimate a quarter of the way
 * down (UTIL_EST_WEIGHT_SHIFT 2), at once up; none within 1 % (10), none
 * when the task waited for the CPU (runnable_avg above util_avg + 10),
 * none until its util_avg has changed (UTIL_AVG_UNCHANGED).
 */
SL_TEST(cfs_util_est_ewma)
{
	static struct cfs s;
	struct cfs_rq rq;
	struct cfs_entity se;
	int dirty[1];
	const uint32_t F = CFS_UTIL_AVG_UNCHANGED;

	memset(&s, 0, sizeof(s));
	memset(&rq, 0, sizeof(rq));
	memset(&se, 0, sizeof(se));
	s.util_est = true;
	s.gsum_dirty = dirty;
	rq.capacity = rq.capacity_orig = 1024;
	se.avg.util_est = 600;
	se.avg.util_avg = se.avg.runnable_avg = 400;
	cfs_util_est_update(&s, &rq, &se);
	/* (600 x 4 - 200) / 4 */
	CHECKF(se.avg.util_est == (550 | F), "ewma %u", se.avg.util_est & ~F);
	se.avg.util_avg = 100;		/* no PELT update since: no sample */
	cfs_util_est_update(&s, &rq, &se);
	CHECK(se.avg.util_est == (550 | F));
	se.avg.util_est &= ~F;		/* what cfs_pelt_se does at an update */
	se.avg.util_avg = 300;
	se.avg.runnable_avg = 600;	/* it waited: no sample */
	cfs_util_est_update(&s, &rq, &se);
	CHECK(se.avg.util_est == (550 | F));
	se.avg.util_est &= ~F;
	se.avg.util_avg = se.avg.runnable_avg = 545;	/* within the margin */
	cfs_util_est_update(&s, &rq, &se);
	CHECK(se.avg.util_est == (550 | F));
	se.avg.util_est &= ~F;
	se.avg.util_avg = se.avg.runnable_avg = 700;	/* up at once */
	cfs_util_est_update(&s, &rq, &se);
	CHECK(se.avg.util_est == (700 | F));
	CHECK(cfs_task_util_est(&se) == 700);

	/* the CPU's estimate is its queued tasks' (once each); its
	 * utilisation the larger, at most its capacity */
	rq.avg.util_avg = 200;
	cfs_util_est_enqueue(&s, &rq, &se);
	cfs_util_est_enqueue(&s, &rq, &se);
	CHECK(rq.avg.util_est == 700 && cfs_cpu_util(&rq) == 700);
	/* without se: util 200 - 700 floored, estimate 700 - 700 */
	CHECK(cfs_cpu_util_without(&rq, &se) == 0);
	cfs_util_est_dequeue(&s, &rq, &se);
	CHECK(rq.avg.util_est == 0 && cfs_cpu_util(&rq) == 200);
	rq.avg.util_est = 2000;
	CHECK(cfs_cpu_util(&rq) == 1024);
	/* the balancer's cpu_util_cfs_boost: runnable_avg counts too */
	rq.avg.util_est = 0;
	rq.avg.runnable_avg = 900;
	CHECK(cfs_cpu_util_boost(&rq) == 900 && cfs_cpu_util(&rq) == 200);
	/* UTIL_EST off: nothing is counted, no sample taken */
	s.util_est = false;
	cfs_util_est_enqueue(&s, &rq, &se);
	CHECK(rq.avg.util_est == 0);
	se.avg.util_est = 600;
	cfs_util_est_update(&s, &rq, &se);
	CHECK(se.avg.util_est == 600);
}
