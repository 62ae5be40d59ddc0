/*
 * fuzz_replay.c - libFuzzer harness: the input is a trace workload JSON
 * file (workload/trace_replay.c, `-w trace:file=F`); when it loads, it is
 * replayed.
 */
#include "fuzz.h"

#include <stdio.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char spec[64];

	if (size > FUZZ_MAX_LEN)
		return 0;
	snprintf(spec, sizeof(spec), "trace:file=%s", fuzz_file(0, data, size));
	fuzz_workload(spec, data, size);
	return 0;
}
