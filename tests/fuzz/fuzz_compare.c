/*
 * fuzz_compare.c - libFuzzer harness: the input is a result file as
 * `schedlab compare` reads it (report/compare.c: run, real or reproduce
 * -o json).  A file that loads is compared with itself, into /dev/null.
 */
#include "fuzz.h"

#include <stdio.h>

#include "report/compare.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct sl_cmp_file f[2];
	struct sl_err err = { 0 };
	static FILE *null;

	if (size > FUZZ_MAX_LEN)
		return 0;
	int rc = sl_cmp_load(&f[0], fuzz_file(0, data, size), &err);
	fuzz_expect_input_error(rc, &err, "compare");
	if (!rc && !sl_cmp_load(&f[1], fuzz_file(0, data, size), &err)) {
		if (!null)
			null = fopen("/dev/null", "w");
		rc = sl_cmp_print(null, f, 2, NULL, 0, &err);
		fuzz_expect_input_error(rc, &err, "compare print");
		sl_cmp_free(&f[1]);
	}
	sl_cmp_free(&f[0]);
	return 0;
}
