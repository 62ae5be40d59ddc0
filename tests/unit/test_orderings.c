/*
 * test_orderings.c - orderings between policies that follow from the
 * machine alone, whatever the policy's tuning: two CPU-bound tasks on a
 * 2 x 2 HT box (p4dpe-2x2ht) for 2 s.  One CPU (up) gives 1 CPU-second per
 * second; two siblings of one package give more than one thread but less
 * than two packages (SMT shares a core: a P4 pair gains 10-30 %, so under
 * 1.5); a scheduler that knows the siblings (ht's F3, sl) puts one task on
 * each package: 2.  Stock 2.5.33
 * O(1) sees 1,1,0,0 as balanced and keeps both on package 0 (the case the
 * HT patches were written for).  Each figure is worked out from that, not
 * read from a run: the test fails if a change to a policy or to the SMT
 * model reorders them.
 */
#include <string.h>

#include "checked_run.h"
#include "test.h"
#include "workload/workload.h"

/* spin:tasks=2,seconds=2 on p4dpe-2x2ht under `policy`: its throughput
 * (CPU-seconds of work per second), or -1. */
static double ord_spin(const char *policy)
{
	struct sl_metrics out;

	if (!checked_run("p4dpe-2x2ht", policy, "spin:tasks=2,seconds=2", 1, &out, NULL))
		return -1;
	const struct sl_metric *t = sl_metrics_find(&out, "throughput");
	return t ? t->value : -1;
}

SL_TEST(orderings_two_spinners_on_2x2_ht)
{
	double up = ord_spin("up");
	double stock = ord_spin("o1:version=2.5.33");
	double f3 = ord_spin("ht:version=f3");
	double sl = ord_spin("sl");

	CHECKF(up > 0.99 && up <= 1.0, "up: %.3f", up);
	CHECKF(stock > 1.0 && stock < 1.5, "o1 2.5.33, both on one package: %.3f", stock);
	CHECKF(f3 > 1.98 && f3 <= 2.0, "ht f3, one per package: %.3f", f3);
	CHECKF(sl > 1.98 && sl <= 2.0, "sl, one per package: %.3f", sl);
	CHECK(up < stock && stock < f3 && stock < sl);
}
