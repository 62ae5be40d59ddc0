/*
 * fuzz_machine_xml.c - libFuzzer harness: the input is an hwloc XML
 * machine file (hw/hwloc_load.c), its first line the options appended to
 * its path as -m takes them (empty, or e.g. ",noht,smt=modern").  A
 * machine that loads runs a small workload.
 */
#include "fuzz.h"

#include <stdio.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const uint8_t *nl = memchr(data, '\n', size < 128 ? size : 128);
	struct sl_machine m;
	struct sl_err err = { 0 };
	char name[192];

	if (size > FUZZ_MAX_LEN || !nl || memchr(data, 0, (size_t)(nl - data)))
		return 0;
	size_t optlen = (size_t)(nl - data);
	const char *path = fuzz_file(0, nl + 1, size - optlen - 1);
	snprintf(name, sizeof(name), "%s%.*s", path, (int)optlen, (const char *)data);
	int rc = sl_machine_load(&m, name, &err);
	fuzz_expect_input_error(rc, &err, "machine XML");
	if (rc)
		return 0;

	fuzz_machine_workload(&m, data, size);
	return 0;
}
