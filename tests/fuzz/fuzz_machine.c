/*
 * fuzz_machine.c - libFuzzer harness: the input is a machine name as -m
 * takes it (hw/machine.c): a preset or an hwloc synthetic string, with
 * ",noht", "smt=", "ratio=" ... options.  Names that would open a file
 * (a '/', ".xml", an existing file) or read the host are skipped: the
 * XML harness covers files.  A machine that loads runs a small workload.
 */
#include "fuzz.h"

#include <string.h>
#include <sys/stat.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* Runs on every machine that loads: wakeups across CPUs, and a
 * CPU-bound task per CPU. */
static const char *const workloads[] = { "hackbench:groups=1,fds=4,loops=20", "spin:seconds=0.05" };

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const char *name = fuzz_text(data, size);
	struct sl_machine m;
	struct sl_err err = { 0 };
	struct stat st;

	if (!name || strchr(name, '/') || strstr(name, ".xml") || !strncmp(name, "host", 4) ||
	    stat(name, &st) == 0)
		return 0;
	int rc = sl_machine_load(&m, name, &err);
	fuzz_expect_input_error(rc, &err, "machine");
	if (rc)
		return 0;

	const struct sl_workload_ops *ops;
	struct sl_params params;
	const char *w = workloads[size % 2];
	if (sl_workload_parse(w, &ops, &params, &err))
		fuzz_expect_input_error(-1, &err, w);
	else
		fuzz_run(&m, fuzz_pick_policy(data, size), ops, &params, size);
	return 0;
}
