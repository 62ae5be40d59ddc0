/*
 * fuzz_spec.c - libFuzzer harness: the input is a policy spec and a
 * workload spec, one per line, as -p and -w take them ("o1:hz=100",
 * "hackbench:groups=2,mode=pipe"; base/spec.c and the registries of
 * policy/ and workload/).  Specs that would name a file ('/') are
 * skipped: the rt-app and replay harnesses cover files.  When both bind,
 * the pair runs.
 */
#include "fuzz.h"

#include <string.h>

#include "policy/policy.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *text = (char *)fuzz_text(data, size);
	const struct sl_policy_ops *pops;
	const struct sl_workload_ops *wops;
	struct sl_params knobs, params;
	struct sl_err err = { 0 };
	char label[64];

	if (!text || strchr(text, '/'))
		return 0;
	char *nl = strchr(text, '\n');
	if (!nl)
		return 0;
	*nl = 0;
	const char *policy = text, *workload = nl + 1;
	int rc = sl_policy_parse(policy, &pops, &knobs, label, sizeof(label), &err);
	fuzz_expect_input_error(rc, &err, "policy");
	if (rc)
		return 0;
	rc = sl_workload_parse(workload, &wops, &params, &err);
	fuzz_expect_input_error(rc, &err, "workload");
	if (rc)
		return 0;
	fuzz_run(fuzz_pick_machine(size), policy, wops, &params, size);
	return 0;
}
