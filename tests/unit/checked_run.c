/*
 * checked_run.c - see checked_run.h.
 */
#include <stdio.h>
#include <string.h>

#include "checked_run.h"
#include "hw/machine.h"
#include "policy/policy.h"
#include "report/run.h"

bool checked_run(const char *machine, const char *policy, const char *workload, uint64_t seed,
		 struct sl_metrics *out, int *ncpus)
{
	struct sl_machine m;
	struct sl_params knobs, params;
	const struct sl_policy_ops *ops;
	const struct sl_workload_ops *w;
	struct sl_err err = { 0 };
	char label[64];

	memset(out, 0, sizeof(*out));
	if (sl_machine_load(&m, machine, &err) ||
	    sl_policy_parse(policy, &ops, &knobs, label, sizeof(label), &err) ||
	    sl_workload_parse(workload, &w, &params, &err)) {
		fprintf(stderr, "checked_run %s / %s / %s: %s\n", machine, policy, workload, err.msg);
		return false;
	}
	if (ncpus)
		*ncpus = m.topo.ncpus;
	struct sl_run_spec spec = {
		.machine = &m, .policy = ops, .knobs = &knobs, .workload = w,
		.params = &params, .seed = seed, .check = true,
	};
	if (sl_run_once(&spec, out, NULL, &err)) {
		fprintf(stderr, "checked_run %s / %s / %s: %s\n", machine, policy, workload, err.msg);
		return false;
	}
	return true;
}
