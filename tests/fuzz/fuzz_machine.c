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

	fuzz_machine_workload(&m, data, size);
	return 0;
}
