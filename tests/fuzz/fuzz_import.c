/*
 * fuzz_import.c - libFuzzer harness: the input is the text of a kernel
 * scheduling trace, `perf script` or ftrace (trace/import.c, what
 * `schedlab trace import` reads); when it imports, the workload it gives
 * is replayed (workload/trace_replay.c), so an import that succeeds must
 * also load and simulate.  The same text also goes through `trace stats`
 * (trace/stats.c), which shares the line reader.
 */
#include "fuzz.h"

#include <json-c/json.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "trace/import.h"
#include "trace/stats.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct sl_trace_import_opts opts = { .select = size % 2 ? SL_SELECT_ALL : SL_SELECT_AUTO };
	struct sl_trace_import_stats stats;
	struct sl_err err = { 0 };
	char spec[64];

	if (size > FUZZ_MAX_LEN)
		return 0;
	FILE *in = fmemopen((void *)data, size ? size : 1, "r");
	if (!in)
		abort();
	if (!size)
		fgetc(in);	/* fmemopen cannot be empty: consume its one byte */
	struct json_object *w = sl_trace_import(in, "fuzz.txt", &opts, &stats, &err);
	fclose(in);
	fuzz_expect_input_error(w ? 0 : -1, &err, "trace import");

	struct sl_trace_stats st;
	struct sl_err serr = { 0 };
	in = fmemopen((void *)data, size ? size : 1, "r");
	if (!in)
		abort();
	if (!size)
		fgetc(in);
	/* the tree of a pid the input picks (its length), or every task */
	int rc = sl_trace_stats_read_tree(in, "fuzz.txt", (int)(size % 4) * 100, &st, &serr);
	fclose(in);
	fuzz_expect_input_error(rc, &serr, "trace stats");
	if (!rc) {
		FILE *null = fopen("/dev/null", "w");
		if (!null)
			abort();
		sl_trace_stats_print(null, &st);
		fclose(null);
	}
	sl_trace_stats_free(&st);

	if (!w)
		return 0;
	const char *text = json_object_to_json_string_ext(w, JSON_C_TO_STRING_PLAIN);
	snprintf(spec, sizeof(spec), "trace:file=%s",
		 fuzz_file(1, (const uint8_t *)text, strlen(text)));
	fuzz_workload(spec, data, size);
	json_object_put(w);
	return 0;
}
