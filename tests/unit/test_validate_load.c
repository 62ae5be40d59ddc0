/*
 * test_validate_load.c - validate's busy-host warning (real/validate.h
 * sl_val_other_load, docs/validation.md): other processes' CPU during the
 * real runs (other_cpu_pct, % of one CPU) above 10 % of the host's CPUs
 * together makes the comparison meaningless.
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
