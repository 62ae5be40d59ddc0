/*
 * spec_list.h - lists and ranges in policy and workload specs, for sweeps
 * (docs/experiments.md "Lists and ranges in specs").
 *
 * On top of base/spec.h's "name:key=value,...": "key=A..B" (integers,
 * A <= B) is the list A..B, and a token without '=' continues the list of
 * the key before it ("kernbench:jobs=1,2,4,size=0.5").  Before this a
 * token without '=' was always an error, so no working spec changes
 * meaning.  Several lists expand to their product, the first key varying
 * slowest.  Machines are never expanded: their specs use ',' for options
 * ("p4dpe-2x2ht,noht").
 */
#ifndef SL_REPORT_SPEC_LIST_H
#define SL_REPORT_SPEC_LIST_H

#include "base/err.h"

/* Most cells one sweep (a `run`, or one experiment) may have: machines x
 * rows x columns.  Checked while lists expand, so that a typo such as
 * jobs=1..1000000 fails at once. */
#define SL_SWEEP_MAX_CELLS 4096

struct sl_spec_list {
	int n;			/* >= 1 */
	char **specs;		/* the expanded specs: "kernbench:jobs=2,size=0.5" */
	char **swept;		/* per spec, the listed keys' values: "jobs=2" ("" if none) */
};

/* Expand `text`; `what` names it in messages ("workload", "policy");
 * more than `limit` specs is an error.  0, or -1 with err set (bad input). */
int sl_spec_list_expand(const char *text, const char *what, int limit, struct sl_spec_list *out,
			struct sl_err *err);

void sl_spec_list_free(struct sl_spec_list *l);

#endif
