/*
 * fuzz_shard.c - libFuzzer harness: the input is a shard file as
 * `schedlab merge` reads it (report/shard_read.c).
 */
#include "fuzz.h"

#include "report/shard.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct sl_shard_file f;
	struct sl_err err = { 0 };

	if (size > FUZZ_MAX_LEN)
		return 0;
	int rc = sl_shard_read(&f, fuzz_file(0, data, size), &err);
	fuzz_expect_input_error(rc, &err, "shard");
	sl_shard_file_free(&f);
	return 0;
}
