/*
 * test_sweep.c - lists and ranges in specs (report/spec_list.c) and the
 * cells of a run sweep (report/sweep_plan.c); docs/experiments.md.
 */
#include <stdlib.h>
#include <string.h>

#include "report/spec_list.h"
#include "report/sweep_plan.h"
#include "test.h"

static struct sl_spec_list expand_ok(const char *text)
{
	struct sl_spec_list l;
	struct sl_err err = { 0 };
	int rc = sl_spec_list_expand(text, "workload", SL_SWEEP_MAX_CELLS, &l, &err);

	CHECKF(rc == 0, "%s: %s", text, err.msg);
	return l;
}

static void expand_fails(const char *text, const char *frag)
{
	struct sl_spec_list l;
	struct sl_err err = { 0 };
	int rc = sl_spec_list_expand(text, "workload", SL_SWEEP_MAX_CELLS, &l, &err);

	CHECKF(rc == -1, "accepted: %s", text);
	CHECKF(rc == 0 || (err.kind == SL_ERR_INPUT && strstr(err.msg, frag)), "'%s' not in: %s",
	       frag, err.msg);
	if (!rc)
		sl_spec_list_free(&l);
}

SL_TEST(sweep_list_expand)
{
	struct sl_spec_list l = expand_ok("kernbench:jobs=1..3");

	CHECK(l.n == 3 && !strcmp(l.specs[0], "kernbench:jobs=1") &&
	      !strcmp(l.specs[2], "kernbench:jobs=3") && !strcmp(l.swept[1], "jobs=2"));
	sl_spec_list_free(&l);
	/* a token without '=' continues the list before it */
	l = expand_ok("kernbench:jobs=1,2,4,size=0.5");
	CHECK(l.n == 3 && !strcmp(l.specs[2], "kernbench:jobs=4,size=0.5") &&
	      !strcmp(l.swept[2], "jobs=4"));
	sl_spec_list_free(&l);
	/* the product, the first key slowest; ranges and values mix */
	l = expand_ok("kernbench:jobs=1..2,8,size=0.5,1");
	CHECK(l.n == 6 && !strcmp(l.specs[1], "kernbench:jobs=1,size=1") &&
	      !strcmp(l.specs[4], "kernbench:jobs=8,size=0.5") &&
	      !strcmp(l.swept[4], "jobs=8 size=0.5"));
	sl_spec_list_free(&l);
	/* specs without lists are left as they are (file paths too) */
	l = expand_ok("rtapp:file=../x.json");
	CHECK(l.n == 1 && !strcmp(l.specs[0], "rtapp:file=../x.json") && !*l.swept[0]);
	sl_spec_list_free(&l);
	l = expand_ok("spin");
	CHECK(l.n == 1 && !strcmp(l.specs[0], "spin"));
	sl_spec_list_free(&l);
	l = expand_ok("o1:label=x,hz=100");
	CHECK(l.n == 1 && !strcmp(l.specs[0], "o1:label=x,hz=100"));
	sl_spec_list_free(&l);
	l = expand_ok("spin:nice=-2..0");
	CHECK(l.n == 3 && !strcmp(l.specs[0], "spin:nice=-2"));
	sl_spec_list_free(&l);
}

SL_TEST(sweep_list_errors)
{
	expand_fails("kernbench:1,2", "expected key=value, got '1'");
	expand_fails("kernbench:jobs=1,,2", "empty item");
	expand_fails("kernbench:jobs=1,", "empty item");
	expand_fails("kernbench:size=0.5..2", "not a range of integers");
	expand_fails("kernbench:jobs=1..x", "not a range of integers");
	expand_fails("kernbench:jobs=8..1", "runs backwards");
	expand_fails("o1:label=x,hz=100,1000", "label= with a list");
	expand_fails("kernbench:jobs=1..100000", "more than 4096 cells");
	/* the product counts, not each list */
	expand_fails("kernbench:jobs=1..64,units=1..64,tree=1,2", "more than 4096 cells");
	struct sl_spec_list l = expand_ok("kernbench:jobs=1..64,units=1..64");
	CHECK(l.n == 4096);
	sl_spec_list_free(&l);
}

SL_TEST(sweep_plan_cells)
{
	const char *machines[] = { "p4dpe-2x2ht", "p4dpe-2x2ht,noht" };
	const char *policies[] = { "o1", "cfs:base_slice_us=750,1500" };
	struct sl_sweep_plan p;
	struct sl_err err = { 0 };
	int rc = sl_sweep_plan_new(&p, machines, 2, policies, 2, "spin:tasks=1,2,seconds=0.01", 1,
				   1, &err);

	CHECKF(rc == 0, "%s", err.msg);
	if (!rc) {
		int m, r, c;
		CHECK(p.nrows == 2 && p.ncols == 3 && p.ncells == 12);
		CHECK(!strcmp(p.row_labels[1], "tasks=2") &&
		      !strcmp(p.cols[2], "cfs:base_slice_us=1500"));
		sl_sweep_plan_cell(&p, 9, &m, &r, &c);	/* machine-major, then rows */
		CHECK(m == 1 && r == 1 && c == 0);
		CHECK(sl_sweep_plan_runs(&p) == 12);
	}
	sl_sweep_plan_free(&p);
	/* two columns with one label; too many cells in all */
	const char *twice[] = { "o1:label=x", "cfs:label=x" };
	CHECK(sl_sweep_plan_new(&p, machines, 1, twice, 2, "spin", 1, 1, &err) == -1 &&
	      strstr(err.msg, "label 'x' used twice"));
	sl_sweep_plan_free(&p);
	const char *many[] = { "cfs:base_slice_us=100..200" };
	CHECK(sl_sweep_plan_new(&p, machines, 2, many, 1, "spin:tasks=1..30", 1, 1, &err) == -1 &&
	      strstr(err.msg, "6060 cells"));
	sl_sweep_plan_free(&p);
}
