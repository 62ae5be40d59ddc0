/*
 * fuzz_experiment.c - libFuzzer harness: the input is a user's experiment
 * file (report/experiment.c, docs/experiments.md) - JSON with lists and
 * ranges in rows and columns (report/spec_list.c) and a machine list; its
 * errors find the field's line (report/experiment_lines.c).  Inputs that
 * may name files are skipped - "file" (rt-app and trace workloads),
 * device and kernel paths, the host, and \u escapes that could spell them:
 * their own harnesses cover those.  A file that loads is checked
 * as `reproduce` checks it before running (machines loaded, every cell
 * added to its sweep, memory estimated); the runs themselves are
 * fuzz_spec's.
 */
#include "fuzz.h"

#include <string.h>

#include "report/experiment.h"
#include "report/reproduce.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const char *text = fuzz_text(data, size);
	struct sl_experiment e;
	struct sl_err err = { 0 };
	long runs;
	int rc;

	static const char *const skip[] = { "file", "/dev", "/proc", "/sys", "host", "\\u", NULL };

	if (!text)
		return 0;
	for (int i = 0; skip[i]; i++)
		if (strstr(text, skip[i]))
			return 0;
	rc = sl_experiment_parse_user(&e, "fuzz", "fuzz.json", text, (int)(size % 3), &err);
	fuzz_expect_input_error(rc, &err, "experiment");
	if (rc)
		return 0;
	rc = sl_experiment_check_runs(&e, 1, &runs, &err);
	fuzz_expect_input_error(rc, &err, "experiment check");
	sl_experiment_free(&e);
	return 0;
}
