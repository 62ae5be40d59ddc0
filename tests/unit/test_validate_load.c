/*
 * test_validate_load.c - validate's busy-host warning (real/validate.h
 * sl_val_other_load, docs/validation.md): other processes' CPU during the
 * real runs (other_cpu_pct, % of one CPU) above 10 % of the host's CPUs
 * together makes the comparison meaningless; and the unlike-work warning
 * (sl_val_unlike_work): the model's CPU work more than 10 % off the real.
 */
#include "real/validate.h"
#include "test.h"

SL_TEST(validate_warns_when_other_load_exceeds_a_tenth_of_the_host)
{
	struct sl_metrics runs[3] = { 0 };
	const double other[3] = { 2.6, 67, 15 };

	for (int i = 0; i < 3; i++) {
		sl_metrics_add(&runs[i], "elapsed_s", "s", 10, -1);
		sl_metrics_add(&runs[i], "other_cpu_pct", "%", other[i], 0);
	}
	/* the idle rows of docs/validation.md: no warning on 2 CPUs */
	CHECK(sl_val_other_load(runs, 1, 2) == 0);
	/* the busy row: 67 % of a CPU on 2 CPUs (limit 20 %); the largest
	 * repetition counts */
	CHECK(sl_val_other_load(runs, 3, 2) == 67);
	CHECK(sl_val_other_load(runs + 2, 1, 2) == 0);	/* 15 < 20 */
	CHECK(sl_val_other_load(runs + 2, 1, 1) == 15);	/* 15 > 10 */
	CHECK(sl_val_other_load(runs, 3, 8) == 0);	/* 67 < 80 */
	/* runs without the metric (simulated ones) never warn */
	struct sl_metrics bare = { 0 };
	sl_metrics_add(&bare, "elapsed_s", "s", 10, -1);
	CHECK(sl_val_other_load(&bare, 1, 2) == 0);
	CHECK(sl_val_other_load(NULL, 0, 2) == 0);
}

SL_TEST(validate_warns_when_the_model_did_unlike_work)
{
	struct sl_metrics real[2] = { 0 }, sim[2] = { 0 };
	/* docs/validation.md's hackbench: the real run's 0.545 + 0.702 s
	 * beside the model's 0.003 + 1.24 (-0.3 %), then the faster hour's
	 * 0.501 + 0.443 (validate at 12:33 UTC) against the same (+31.7 %) */
	const double ru[2] = { 0.545, 0.501 }, rs[2] = { 0.702, 0.443 };

	for (int i = 0; i < 2; i++) {
		sl_metrics_add(&real[i], "user_s", "s", ru[i], 0);
		sl_metrics_add(&real[i], "sys_s", "s", rs[i], 0);
		sl_metrics_add(&sim[i], "user_s", "s", 0.003, 0);
		sl_metrics_add(&sim[i], "sys_s", "s", 1.24, 0);
	}
	CHECK(sl_val_unlike_work(real, 1, sim, 1) == 0);
	double pct = sl_val_unlike_work(real + 1, 1, sim + 1, 1);
	CHECKF(pct > 31.6 && pct < 31.8, "+%.2f %%", pct);
	/* the mean of both: 1.0955 real against 1.243: +13.5 % */
	pct = sl_val_unlike_work(real, 2, sim, 2);
	CHECKF(pct > 13.4 && pct < 13.6, "+%.2f %%", pct);
	/* less work simulated warns too; a side without CPU times never */
	CHECK(sl_val_unlike_work(sim + 1, 1, real + 1, 1) < -10);
	struct sl_metrics bare = { 0 };
	sl_metrics_add(&bare, "elapsed_s", "s", 1, -1);
	CHECK(sl_val_unlike_work(real, 1, &bare, 1) == 0);
	CHECK(sl_val_unlike_work(&bare, 1, sim, 1) == 0);
}
