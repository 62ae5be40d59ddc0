/*
 * test_trace_bounds.c - trace import's bounds (docs/robustness.md,
 * "Files"): the workload is written as it is produced, byte for byte as
 * json-c would print the same tree (so streaming changed no output), and
 * what an import may hold - ops and run segments, tasks, a line - is
 * capped, a trace that needs more refused naming the file, line and limit.
 */
#include <json.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "trace/json_stream.h"
#include "trace/import.h"
#include "test.h"

/* The text of a file (NULL if unreadable). */
static char *slurp(const char *path)
{
	FILE *f = fopen(path, "r");
	char *text = NULL;
	size_t len = 0;

	if (!f)
		return NULL;
	FILE *m = open_memstream(&text, &len);
	int c;
	while ((c = getc(f)) != EOF)
		putc(c, m);
	fclose(m);
	fclose(f);
	return text;
}

static const int json_flags = JSON_C_TO_STRING_PRETTY | JSON_C_TO_STRING_SPACED |
			      JSON_C_TO_STRING_NOSLASHESCAPE;

/* Every layout case the importer uses, streamed and through json-c. */
SL_TEST(json_stream_is_json_c_pretty_layout)
{
	char every[256], *text = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);
	struct sl_json_stream js;

	for (int i = 1; i < 256; i++)
		every[i - 1] = (char)i;
	every[255] = 0;
	sl_json_stream_init(&js, f);
	sl_json_open(&js, NULL, '{');
	sl_json_int(&js, "n", -42);
	sl_json_str(&js, "every byte", every);
	sl_json_str(&js, "path/\"q\"", "a/b");
	sl_json_null(&js, "parent");
	sl_json_bool(&js, "end", true);
	sl_json_open(&js, "empty", '[');
	sl_json_close(&js, ']');
	sl_json_open(&js, "none", '{');
	sl_json_close(&js, '}');
	sl_json_open(&js, "list", '[');
	sl_json_int(&js, NULL, INT64_MAX);
	sl_json_open(&js, NULL, '{');
	sl_json_open(&js, "seg", '[');
	sl_json_int(&js, NULL, 0);
	sl_json_int(&js, NULL, 7);
	sl_json_close(&js, ']');
	sl_json_close(&js, '}');
	sl_json_close(&js, ']');
	sl_json_close(&js, '}');
	fclose(f);

	struct json_object *o = json_object_new_object(), *e = json_object_new_array();
	struct json_object *l = json_object_new_array(), *x = json_object_new_object();
	struct json_object *seg = json_object_new_array();
	json_object_object_add(o, "n", json_object_new_int64(-42));
	json_object_object_add(o, "every byte", json_object_new_string(every));
	json_object_object_add(o, "path/\"q\"", json_object_new_string("a/b"));
	json_object_object_add(o, "parent", NULL);
	json_object_object_add(o, "end", json_object_new_boolean(1));
	json_object_object_add(o, "empty", e);
	json_object_object_add(o, "none", json_object_new_object());
	json_object_array_add(l, json_object_new_int64(INT64_MAX));
	json_object_array_add(seg, json_object_new_int64(0));
	json_object_array_add(seg, json_object_new_int64(7));
	json_object_object_add(x, "seg", seg);
	json_object_array_add(l, x);
	json_object_object_add(o, "list", l);
	const char *want = json_object_to_json_string_ext(o, json_flags);
	CHECKF(text && !strcmp(text, want), "streamed:\n%s\njson-c:\n%s", text, want);
	json_object_put(o);
	free(text);
}

/* The committed recordings, imported to a file, are exactly json-c's
 * print of the workload. */
SL_TEST(trace_import_to_file_is_json_c_print)
{
	static const char *const traces[] = { "tests/data/traces/ls3.txt",
					      "tests/data/traces/pingpong.txt",
					      "tests/data/traces/busy-make.txt" };
	struct sl_trace_import_opts all = { .select = SL_SELECT_ALL };
	char out[] = "/tmp/schedlab-test-import-XXXXXX";
	int fd = mkstemp(out);

	CHECK(fd >= 0);
	if (fd < 0)
		return;
	close(fd);
	for (size_t i = 0; i < sizeof(traces) / sizeof(traces[0]); i++) {
		for (int sel = 0; sel < 2; sel++) {
			const struct sl_trace_import_opts *o = sel ? &all : NULL;
			struct sl_err err = { 0 };
			FILE *in = fopen(traces[i], "r");
			int rc = in ? sl_trace_import_to(in, traces[i], out, o, NULL, &err) : -1;
			if (in)
				fclose(in);
			CHECKF(rc == 0, "%s: %s", traces[i], err.msg);
			in = fopen(traces[i], "r");
			struct json_object *w = in ? sl_trace_import(in, traces[i], o, NULL, &err)
						   : NULL;
			if (in)
				fclose(in);
			char *got = slurp(out);
			CHECKF(w && got, "%s: %s", traces[i], err.msg);
			if (w && got) {
				const char *want = json_object_to_json_string_ext(w, json_flags);
				CHECKF(strlen(got) == strlen(want) + 1 &&
				       !strncmp(got, want, strlen(want)), "%s: streamed output "
				       "differs from json-c's", traces[i]);
			}
			free(got);
			json_object_put(w);
		}
	}
	unlink(out);
}

/* Import `text` with the given limits (0: the defaults); its error. */
static int import_text(const char *text, long max_ops, int max_tasks, struct sl_err *err)
{
	struct sl_trace_import_opts o = { .select = SL_SELECT_ALL, .max_ops = max_ops,
					  .max_tasks = max_tasks };
	FILE *in = fmemopen((void *)text, strlen(text), "r");
	struct json_object *w = sl_trace_import(in, "big.txt", &o, NULL, err);

	fclose(in);
	json_object_put(w);
	return w ? 0 : -1;
}

/* `n` tasks, each forked, run 1 ms and exit, on one CPU. */
static char *forks(int n)
{
	char *text = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);

	for (int i = 0; i < n; i++) {
		double t = 1.0 + i * 0.01;
		int pid = 100 + i;
		fprintf(f, "  sh 10 [000] %.6f: sched:sched_process_fork: comm=sh pid=10 "
			"child_comm=sh child_pid=%d\n", t, pid);
		fprintf(f, "  sh 10 [000] %.6f: sched:sched_switch: prev_comm=sh prev_pid=10 "
			"prev_prio=120 prev_state=S ==> next_comm=sh next_pid=%d next_prio=120\n",
			t + 0.001, pid);
		fprintf(f, "  sh %d [000] %.6f: sched:sched_process_exit: comm=sh pid=%d "
			"prio=120\n", pid, t + 0.002, pid);
		fprintf(f, "  sh %d [000] %.6f: sched:sched_switch: prev_comm=sh prev_pid=%d "
			"prev_prio=120 prev_state=X ==> next_comm=swapper/0 next_pid=0 "
			"next_prio=120\n", pid, t + 0.003, pid);
	}
	fclose(f);
	return text;
}

/* What an import holds is capped: ops and run segments, tasks.  The
 * refusal names the file, the line that went over and the limit. */
SL_TEST(trace_import_caps_ops_and_tasks)
{
	char *text = forks(50);
	struct sl_err err = { 0 };

	CHECKF(import_text(text, 0, 0, &err) == 0, "%s", err.msg);
	CHECKF(import_text(text, 40, 0, &err) < 0 && err.kind == SL_ERR_INPUT &&
	       strstr(err.msg, "big.txt:") &&
	       strstr(err.msg, "more than 40 ops and run segments, the import's limit"),
	       "%s", err.msg);
	err = (struct sl_err){ 0 };
	CHECKF(import_text(text, 0, 20, &err) < 0 && err.kind == SL_ERR_INPUT &&
	       strstr(err.msg, "big.txt:") &&
	       strstr(err.msg, "more than 20 tasks, the import's limit"), "%s", err.msg);
	/* the line named is the one that went over: 21 tasks at the 20th fork */
	CHECKF(strstr(err.msg, "big.txt:77:"), "%s", err.msg);
	free(text);
}

/* A line is at most SL_TRACE_MAX_LINE bytes (the reader keeps one line). */
SL_TEST(trace_import_caps_a_line)
{
	size_t n = SL_TRACE_MAX_LINE + 100;
	char *text = malloc(n + 64);
	struct sl_err err = { 0 };

	strcpy(text, "# a comment\n  sh 10 [000] 1.0: sched:sched_switch: ");
	size_t at = strlen(text);
	memset(text + at, 'x', n - at);
	strcpy(text + n, "\n");
	CHECKF(import_text(text, 0, 0, &err) < 0 && err.kind == SL_ERR_INPUT &&
	       strstr(err.msg, "big.txt:2: a line longer than 65536 bytes"), "%s", err.msg);
	free(text);
}
