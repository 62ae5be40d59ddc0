/*
 * test_exp_file.c - experiments as a user's files (report/experiment.c):
 * the line of each field (report/experiment_lines.c), lists in rows and
 * columns, machine lists; docs/experiments.md.
 */
#include <stdlib.h>
#include <string.h>

#include "report/experiment.h"
#include "report/experiment_lines.h"
#include "test.h"

SL_TEST(exp_file_json_lines)
{
	const char *text = "{ \"a\": 1,\n  \"rows\": [\n    { \"label\": \"x\",\n"
			   "      \"published\": { \"2.5.33\": 3 } },\n    { \"w\": 2 } ] }\n";
	struct sl_json_lines *l = sl_json_lines_scan(text);

	CHECK(sl_json_lines_find(l, "a") == 1);
	CHECK(sl_json_lines_find(l, "rows") == 2);
	CHECK(sl_json_lines_find(l, "rows[0].label") == 3);
	CHECK(sl_json_lines_find(l, "rows[0].published.2.5.33") == 4);
	CHECK(sl_json_lines_find(l, "rows[1].w") == 5);
	/* a missing key: the nearest enclosing field */
	CHECK(sl_json_lines_find(l, "rows[1].workload") == 5);
	CHECK(sl_json_lines_find(l, "nothing") == 0);
	sl_json_lines_free(l);
}

#define USER_HEAD "{ \"title\": \"t\", \"reps\": 1, \"metric\": \"elapsed_s\",\n"

static int parse_user(const char *text, int machine, struct sl_experiment *e, struct sl_err *err)
{
	return sl_experiment_parse_user(e, "u", "u.json", text, machine, err);
}

SL_TEST(exp_file_lists)
{
	const char *text = USER_HEAD
		"  \"machine\": [ \"p4dpe-2x2ht\", \"p4dpe-2x2ht,noht\" ],\n"
		"  \"columns\": [ { \"label\": \"O\", \"policy\": \"o1\" },\n"
		"               { \"policy\": \"cfs:base_slice_us=750,1500\" } ],\n"
		"  \"rows\": [ { \"label\": \"spin\", \"workload\": \"spin:tasks=1..3\" },\n"
		"            { \"workload\": \"spin:tasks=4\",\n"
		"              \"published\": { \"cfs:base_slice_us=750\": 1 } } ] }\n";
	struct sl_experiment e;
	struct sl_err err = { 0 };
	int rc = parse_user(text, 1, &e, &err);

	CHECKF(rc == 0, "%s", err.msg);
	if (rc)
		return;
	CHECK(e.nmachines == 2 && !strcmp(e.machine, "p4dpe-2x2ht,noht") && !e.source);
	CHECK(e.ncols == 3 && !strcmp(e.cols[2].label, "cfs:base_slice_us=1500") &&
	      e.cols[2].src == 1);
	CHECK(e.nrows == 4 && !strcmp(e.rows[2].label, "spin tasks=3") && e.rows[2].src == 0 &&
	      !strcmp(e.rows[2].workload, "spin:tasks=3"));
	CHECK(!strcmp(e.rows[3].label, "spin:tasks=4") && e.rows[3].src == 1 &&
	      e.rows[3].cells[1].npublished == 1);
	sl_experiment_free(&e);
}

static void user_fails(const char *text, const char *frag)
{
	struct sl_experiment e;
	struct sl_err err = { 0 };
	int rc = parse_user(text, 0, &e, &err);

	CHECKF(rc == -1, "accepted: %s", text);
	CHECKF(rc == 0 || strstr(err.msg, frag), "'%s' not in: %s", frag, err.msg);
	if (!rc)
		sl_experiment_free(&e);
}

SL_TEST(exp_file_errors)
{
	/* file:line: field */
	user_fails(USER_HEAD "  \"machine\": \"p4dpe-2x2ht\",\n"
		   "  \"columns\": [ { \"policy\": \"o1\" } ],\n"
		   "  \"rows\": [ { \"workload\": \"spin:tasks=1..x\" } ] }",
		   "u.json:4: rows[0].workload: workload 'spin:tasks=1..x'");
	user_fails(USER_HEAD "  \"machine\": \"p4dpe-2x2ht\",\n"
		   "  \"columns\": [ { \"policy\": \"o1\" } ],\n"
		   "  \"rows\": [ { \"workload\": \"spin:tasks=1,2\",\n"
		   "     \"published\": { \"o1\": 1 } } ] }",
		   "u.json:5: rows[0].published: not allowed on a row with lists");
	user_fails(USER_HEAD "  \"machine\": [],\n"
		   "  \"columns\": [ { \"policy\": \"o1\" } ], \"rows\": [ { \"workload\": \"spin\" } ] }",
		   "u.json:2: machine: must not be empty");
	user_fails(USER_HEAD "  \"machine\": \"p4dpe-2x2ht\",\n"
		   "  \"columns\": [ { \"policy\": \"o1\" }, { \"policy\": \"o1\" } ],\n"
		   "  \"rows\": [ { \"workload\": \"spin\" } ] }",
		   "u.json:3: columns[1].label: 'o1' used twice");
	user_fails(USER_HEAD "  \"machine\": \"p4dpe-2x2ht\", \"colour\": 1,\n"
		   "  \"columns\": [ { \"policy\": \"o1\" } ], \"rows\": [ { \"workload\": \"spin\" } ] }",
		   "u.json:2: colour: unknown field");
	user_fails(USER_HEAD "  \"machine\": [\"a\", \"b\", \"c\"],\n"
		   "  \"columns\": [ { \"policy\": \"cfs:base_slice_us=100..139\" } ],\n"
		   "  \"rows\": [ { \"workload\": \"spin:tasks=1..40\" } ] }",
		   "4800 cells");
	/* bounded while the columns expand, before any row is looked at */
	user_fails(USER_HEAD "  \"machine\": \"p4dpe-2x2ht\",\n"
		   "  \"columns\": [ { \"policy\": \"cfs:base_slice_us=100..3099\" },\n"
		   "               { \"policy\": \"cfs:base_slice_us=5000..7999\" } ],\n"
		   "  \"rows\": [ { \"workload\": \"spin\" } ] }",
		   "u.json:3: columns: more than 4096 columns");
	/* built-in experiments still need a source they cite */
	struct sl_experiment e;
	struct sl_err err = { 0 };
	CHECK(sl_experiment_parse(&e, "u", "experiments/u.json", USER_HEAD
				  "\"machine\": \"m\", \"columns\": [ { \"policy\": \"o1\" } ], "
				  "\"rows\": [ { \"label\": \"r\", \"workload\": \"spin\" } ] }",
				  &err) == -1 && strstr(err.msg, "source"));
}
