/*
 * fuzz_rtapp.c - libFuzzer harness: the input is an rt-app JSON file
 * (workload/rtapp/parse.c, `-w rtapp:file=F`); when it loads, it runs.
 */
#include "fuzz.h"

#include <stdio.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char spec[64];

	if (size > FUZZ_MAX_LEN)
		return 0;
	snprintf(spec, sizeof(spec), "rtapp:file=%s", fuzz_file(0, data, size));
	fuzz_workload(spec, data, size);
	return 0;
}
