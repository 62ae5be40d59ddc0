/*
 * test_report.c - report layer: statistics, the miss rule, the experiment
 * loader's checks, and the output backends on hand-made results.
 */
#include <json.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "report/experiment.h"
#include "report/output.h"
#include "report/reproduce.h"
#include "report/stats.h"
#include "report/sweep.h"
#include "test.h"

static bool near(double a, double b, double tol)
{
	return fabs(a - b) <= tol;
}

SL_TEST(report_stats_mean_sd)
{
	const double x[] = { 2, 4, 4, 4, 5, 5, 7, 9 };

	CHECK(near(sl_stats_mean(x, 8), 5.0, 1e-12));
	CHECK(near(sl_stats_sd(x, 8), sqrt(32.0 / 7.0), 1e-12));	/* n - 1 divisor */
	CHECK(sl_stats_sd(x, 1) == 0);
	CHECK(sl_stats_min(x, 8) == 2 && sl_stats_max(x, 8) == 9);
	CHECK(isnan(sl_stats_mean(x, 0)));
}

SL_TEST(report_stats_median)
{
	double odd[] = { 3, 1, 2 }, even[] = { 4, 1, 3, 2 };

	CHECK(sl_stats_median(odd, 3) == 2);
	CHECK(sl_stats_median(even, 4) == 2.5);
	CHECK(odd[0] == 3 && even[0] == 4);	/* input left as it was */
	CHECK(sl_stats_median(odd, 1) == 3);
}

SL_TEST(report_stats_geomean)
{
	const double x[] = { 1, 2, 4, 8 }, bad[] = { 1, -1 }, zero[] = { 3, 0 };

	CHECK(near(sl_stats_geomean(x, 4), sqrt(8.0), 1e-12));
	CHECK(isnan(sl_stats_geomean(bad, 2)));
	CHECK(isnan(sl_stats_geomean(zero, 2)));
}

SL_TEST(report_stats_ci95)
{
	const double x[] = { 1, 2, 3, 4, 5 };
	double lo, hi, half = 2.776 * sqrt(2.5) / sqrt(5.0);
	struct sl_summary s;

	sl_stats_ci95(x, 5, &lo, &hi);
	CHECK(near(lo, 3 - half, 1e-9) && near(hi, 3 + half, 1e-9));
	sl_stats_ci95(x, 1, &lo, &hi);
	CHECK(lo == 1 && hi == 1);
	CHECK(near(sl_stats_t975(1), 12.706, 1e-9));
	CHECK(near(sl_stats_t975(30), 2.042, 1e-9));
	CHECK(near(sl_stats_t975(40), 2.021, 0.001));
	CHECK(near(sl_stats_t975(120), 1.980, 0.001));
	sl_summarize(x, 5, &s);
	CHECK(s.n == 5 && s.mean == 3 && s.median == 3 && s.min == 1 && s.max == 5);
	CHECK(near(s.ci_lo, 3 - half, 1e-9));
}

SL_TEST(report_miss_rule)
{
	struct sl_summary s = { .n = 5, .median = 100, .min = 100, .max = 110 };
	const double p104[] = { 104 }, p106[] = { 106 }, p95[] = { 95.5 };
	const double spread_far[] = { 138, 147 }, spread_in[] = { 104, 200 };
	const double spread_edge[] = { 115.4, 300 }, spread_out[] = { 117, 300 };

	/* single value: within 5% of the published value, from the median */
	CHECK(!sl_stats_misses(&s, p104, 1, 5));
	CHECK(sl_stats_misses(&s, p106, 1, 5));
	CHECK(!sl_stats_misses(&s, p95, 1, 5));
	CHECK(!sl_stats_misses(&s, p106, 1, 10));
	/* spread: some value within 5% of [min, max] */
	CHECK(sl_stats_misses(&s, spread_far, 2, 5));
	CHECK(!sl_stats_misses(&s, spread_in, 2, 5));
	CHECK(!sl_stats_misses(&s, spread_edge, 2, 5));
	CHECK(sl_stats_misses(&s, spread_out, 2, 5));
	CHECK(!sl_stats_misses(&s, NULL, 0, 5));
}

#define GOOD_COLUMNS \
	"\"columns\": [ { \"label\": \"A\", \"policy\": \"linux24\" }," \
	"               { \"label\": \"B\", \"policy\": \"linux24:label=b\" } ],"

static const char good_experiment[] =
	"{ \"title\": \"t\", \"source\": \"s\", \"machine\": \"p4dpe-2x2ht\", \"reps\": 3,\n"
	"  \"metric\": \"elapsed_s\", \"show\": \"median/mean\", \"tolerance_pct\": 10,\n"
	"  \"workload_params\": { \"spin\": \"tasks=2\" },\n"
	GOOD_COLUMNS "\n"
	"  \"rows\": [ { \"label\": \"r0\", \"workload\": \"spin\",\n"
	"              \"published\": { \"A\": 10, \"B\": [ 1, 2.5 ] } },\n"
	"            { \"label\": \"r1\", \"workload\": \"javabench\", \"metric\": \"user_s\" } ],\n"
	"  \"notes\": [ \"n1\" ] }\n";

SL_TEST(report_experiment_parse)
{
	struct sl_experiment e;
	struct sl_err err = { 0 };
	int rc = sl_experiment_parse(&e, "x", "experiments/x.json", good_experiment, &err);

	CHECKF(rc == 0, "%s", err.msg);
	if (rc)
		return;
	CHECK(e.reps == 3 && e.tolerance_pct == 10 && e.ncols == 2 && e.nrows == 2);
	CHECK(e.nshow == 2 && e.show[0] == SL_STAT_MEDIAN && e.show[1] == SL_STAT_MEAN);
	CHECK(!strcmp(e.rows[0].workload, "spin:tasks=2"));	/* shared params appended */
	CHECK(!strcmp(e.rows[1].workload, "javabench"));
	CHECK(!strcmp(e.rows[0].metric, "elapsed_s") && !strcmp(e.rows[1].metric, "user_s"));
	CHECK(e.rows[0].cells[0].npublished == 1 && e.rows[0].cells[0].published[0] == 10);
	CHECK(e.rows[0].cells[1].npublished == 2 && e.rows[0].cells[1].published[1] == 2.5);
	CHECK(e.rows[1].cells[0].npublished == 0);
	CHECK(e.nnotes == 1 && !strcmp(e.notes[0], "n1"));
	sl_experiment_free(&e);
}

/* Parse `text`; it must fail with a message containing every fragment. */
static void expect_load_error(const char *text, const char *frag1, const char *frag2)
{
	struct sl_experiment e;
	struct sl_err err = { 0 };
	int rc = sl_experiment_parse(&e, "x", "experiments/x.json", text, &err);

	CHECKF(rc == -1, "accepted: %s", text);
	CHECKF(err.kind == SL_ERR_INPUT, "kind %d: %s", err.kind, err.msg);
	CHECKF(strstr(err.msg, "experiments/x.json") != NULL, "%s", err.msg);
	CHECKF(strstr(err.msg, frag1) != NULL, "'%s' not in: %s", frag1, err.msg);
	CHECKF(!frag2 || strstr(err.msg, frag2) != NULL, "'%s' not in: %s", frag2, err.msg);
	CHECKF(!strchr(err.msg, '\n'), "more than one line: %s", err.msg);
}

#define HEAD "{ \"title\": \"t\", \"source\": \"s\", \"machine\": \"m\", \"reps\": 5, " \
	     "\"metric\": \"elapsed_s\", "
#define ROWS "\"rows\": [ { \"label\": \"r\", \"workload\": \"spin\" } ]"

SL_TEST(report_experiment_errors)
{
	expect_load_error("{ \"title\": \"t\",\n  \"source\": }", "line 2", "invalid JSON");
	expect_load_error("{ \"title\": \"t\"", "invalid JSON", "end of file");
	expect_load_error("[1, 2]", "expected an object", NULL);
	expect_load_error(HEAD GOOD_COLUMNS ROWS "} x", "text after", NULL);
	expect_load_error("{ \"source\": \"s\", \"machine\": \"m\", \"reps\": 5, \"metric\": \"e\", "
			  GOOD_COLUMNS ROWS "}", "title", "missing");
	expect_load_error("{ \"title\": \"t\", \"source\": \"s\", \"reps\": 5, \"metric\": \"e\", "
			  GOOD_COLUMNS ROWS "}", "machine", "missing");
	expect_load_error(HEAD "\"colums\": [], " GOOD_COLUMNS ROWS "}", "colums",
			  "unknown field");
	expect_load_error("{ \"title\": 3, \"source\": \"s\", \"machine\": \"m\", \"reps\": 5, "
			  "\"metric\": \"e\", " GOOD_COLUMNS ROWS "}", "title", "expected a string");
	expect_load_error("{ \"title\": \"t\", \"source\": \"s\", \"machine\": \"m\", \"reps\": 0, "
			  "\"metric\": \"e\", " GOOD_COLUMNS ROWS "}", "reps", NULL);
	expect_load_error(HEAD "\"show\": \"min/best\", " GOOD_COLUMNS ROWS "}", "show", "best");
	expect_load_error(HEAD "\"columns\": [], " ROWS "}", "columns", "empty");
	expect_load_error(HEAD "\"columns\": [ { \"label\": \"A\", \"policy\": \"o9\" } ], "
			  ROWS "}", "columns[0].policy", "o9");
	expect_load_error(HEAD "\"columns\": [ { \"label\": \"A\", \"policy\": \"linux24\" },"
			  " { \"label\": \"A\", \"policy\": \"linux24\" } ], " ROWS "}",
			  "columns[1].label", "twice");
	expect_load_error(HEAD GOOD_COLUMNS
			  "\"rows\": [ { \"label\": \"r\", \"workload\": \"spin:bogus=1\" } ] }",
			  "rows[0].workload", "bogus");
	expect_load_error(HEAD GOOD_COLUMNS "\"rows\": [ { \"label\": \"r\" } ] }",
			  "rows[0].workload", "missing");
	expect_load_error(HEAD GOOD_COLUMNS "\"rows\": [ { \"label\": \"r\", \"workload\": "
			  "\"spin\", \"published\": { \"C\": 1 } } ] }",
			  "rows[0].published.C", "not a column");
	expect_load_error(HEAD GOOD_COLUMNS "\"rows\": [ { \"label\": \"r\", \"workload\": "
			  "\"spin\", \"published\": { \"A\": \"fast\" } } ] }",
			  "rows[0].published.A", "positive number");
	expect_load_error(HEAD GOOD_COLUMNS "\"rows\": [ { \"label\": \"r\", \"workload\": "
			  "\"spin\", \"published\": { \"A\": [] } } ] }",
			  "rows[0].published.A", NULL);
	expect_load_error(HEAD "\"workload_params\": { \"kernbench\": \"jobs=2\" }, "
			  GOOD_COLUMNS ROWS "}", "workload_params.kernbench", "no row");
	expect_load_error(HEAD "\"notes\": [ 1 ], " GOOD_COLUMNS ROWS "}", "notes", NULL);
}

SL_TEST(report_experiment_unknown)
{
	struct sl_experiment e;
	struct sl_err err = { 0 };

	CHECK(sl_experiment_load(&e, "seed-999", &err) == -1);
	CHECK(err.kind == SL_ERR_INPUT && strstr(err.msg, "seed-999"));
}

SL_TEST(report_experiment_seed000)
{
	struct sl_experiment e;
	struct sl_err err = { 0 };
	int rc = sl_experiment_load(&e, "seed-000", &err);

	CHECKF(rc == 0, "%s", err.msg);
	if (rc)
		return;
	CHECK(e.reps >= 5 && e.ncols == 3 && e.nrows >= 6);
	CHECK(!strcmp(e.machine, "p4dpe-2x2ht"));
	CHECK(!strcmp(e.cols[1].label, "2.5.33"));
	CHECK(e.rows[1].cells[1].npublished == 2 && e.rows[1].cells[1].published[0] == 138 &&
	      e.rows[1].cells[1].published[1] == 147);
	CHECK(e.rows[5].cells[2].npublished == 3 && e.rows[5].cells[2].published[2] == 224);
	CHECK(e.rows[0].cells[0].published[0] == 195);
	sl_experiment_free(&e);
}

/* ---- output backends on a hand-made sweep ---- */

static struct sl_sweep *fake_sweep(void)
{
	struct sl_sweep *s = calloc(1, sizeof(*s));
	const char *labels[] = { "o1", "ht:version=f3,label=x" };

	snprintf(s->machine.name, sizeof(s->machine.name), "test-box");
	snprintf(s->machine.summary, sizeof(s->machine.summary), "a test machine");
	s->reps = 2;
	s->seed = 7;
	s->ncells = 2;
	s->cells = calloc(2, sizeof(*s->cells));
	s->metrics = calloc(4, sizeof(*s->metrics));
	for (int c = 0; c < 2; c++) {
		s->cells[c] = calloc(1, sizeof(**s->cells));
		s->cells[c]->policy_text = strdup(labels[c]);
		s->cells[c]->workload_text = strdup("spin:tasks=2");
		snprintf(s->cells[c]->label, sizeof(s->cells[c]->label), "%s", labels[c]);
		for (int rep = 0; rep < 2; rep++) {
			struct sl_metrics *m = &s->metrics[c * 2 + rep];
			sl_metrics_add(m, "elapsed_s", "s", 10 + c + rep, -1);
			sl_metrics_add(m, "sleeps", "count", 3 * rep, 0);
		}
	}
	return s;
}

/* Text written by `fn` for the sweep. */
static char *capture(void (*fn)(FILE *, const struct sl_sweep *), const struct sl_sweep *s)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	fn(f, s);
	fclose(f);
	return buf;
}

SL_TEST(report_out_run_json)
{
	struct sl_sweep *s = fake_sweep();
	char *text = capture(sl_out_run_json, s);
	struct json_object *root = json_tokener_parse(text), *v, *run, *sum;

	CHECKF(root != NULL, "not JSON: %s", text);
	if (root) {
		CHECK(json_object_object_get_ex(root, "machine", &v) &&
		      !strcmp(json_object_get_string(v), "test-box"));
		CHECK(json_object_object_get_ex(root, "runs", &v) &&
		      json_object_array_length(v) == 4);
		run = json_object_array_get_idx(v, 3);
		CHECK(json_object_object_get_ex(run, "seed", &v) && json_object_get_int(v) == 8);
		CHECK(json_object_object_get_ex(run, "policy", &v) &&
		      !strcmp(json_object_get_string(v), "ht:version=f3,label=x"));
		CHECK(json_object_object_get_ex(run, "metrics", &v) &&
		      json_object_object_get_ex(v, "elapsed_s", &v) &&
		      json_object_get_double(v) == 12);
		CHECK(json_object_object_get_ex(run, "units", &v) &&
		      json_object_object_get_ex(v, "elapsed_s", &v) &&
		      !strcmp(json_object_get_string(v), "s"));
		CHECK(json_object_object_get_ex(root, "summary", &sum) &&
		      json_object_object_get_ex(sum, "o1", &sum) &&
		      json_object_object_get_ex(sum, "elapsed_s", &sum));
		CHECK(json_object_object_get_ex(sum, "mean", &v) && json_object_get_double(v) == 10.5);
		CHECK(json_object_object_get_ex(sum, "n", &v) && json_object_get_int(v) == 2);
		CHECK(json_object_object_get_ex(sum, "sd", &v) &&
		      near(json_object_get_double(v), sqrt(0.5), 1e-9));
		json_object_put(root);
	}
	free(text);
	sl_sweep_free(s);
}

SL_TEST(report_out_run_csv)
{
	struct sl_sweep *s = fake_sweep();
	char *text = capture(sl_out_run_csv, s);

	CHECK(!strncmp(text, "policy,rep,seed,metric,value,unit\n", 34));
	CHECK(strstr(text, "\no1,0,7,elapsed_s,10,s\n") != NULL);
	CHECK(strstr(text, "\n\"ht:version=f3,label=x\",1,8,sleeps,3,count\n") != NULL);
	free(text);
	sl_sweep_free(s);
}

SL_TEST(report_out_run_table)
{
	struct sl_sweep *s = fake_sweep();
	char *text = capture(sl_out_run_table, s);

	CHECK(strstr(text, "test-box") && strstr(text, "spin:tasks=2"));
	CHECK(strstr(text, "10.00 / 10.50 / 11.00") != NULL);	/* o1 elapsed */
	CHECK(strstr(text, "10.50 (0.71)") != NULL);		/* mean (sd) */
	CHECK(strstr(text, "0 / 1 / 3") == NULL);
	CHECK(strstr(text, "0 / 2 / 3") != NULL);		/* counts as integers */
	free(text);
	sl_sweep_free(s);
}

/* An experiment result made by hand: 1 row, 2 columns. */
SL_TEST(report_out_exp_table)
{
	struct sl_experiment e;
	struct sl_err err = { 0 };
	struct sl_exp_result r = { 0 };
	struct sl_sweep sweep = { 0 };
	double v0[] = { 9, 10, 11 }, v1[] = { 2, 2, 2 };
	char *buf = NULL, *jbuf = NULL;
	size_t len = 0;
	FILE *f;

	if (sl_experiment_parse(&e, "x", "experiments/x.json", good_experiment, &err)) {
		CHECKF(0, "%s", err.msg);
		return;
	}
	snprintf(sweep.machine.summary, sizeof(sweep.machine.summary), "a box");
	r.exp = &e;
	r.sweep = &sweep;
	r.reps = 3;
	r.cells = calloc(4, sizeof(*r.cells));
	r.cells[0].values = v0;
	r.cells[1].values = v1;
	r.cells[2].values = v0;
	r.cells[3].values = v1;
	for (int i = 0; i < 4; i++) {
		snprintf(r.cells[i].unit, sizeof(r.cells[i].unit), "s");
		sl_summarize(r.cells[i].values, 3, &r.cells[i].sim);
	}
	r.cells[1].miss = true;		/* published 1, 2.5 vs 2 +- 0: by hand */
	f = open_memstream(&buf, &len);
	sl_out_exp_table(f, &r);
	fclose(f);
	CHECK(strstr(buf, "x: t") != NULL);
	CHECK(strstr(buf, "10.00/10.00") != NULL);	/* median/mean: 3 significant digits */
	CHECK(strstr(buf, "1,2.5 " SL_MISS_MARK) != NULL);
	CHECK(strstr(buf, "1 of 2 published cells missed") != NULL);
	CHECK(strstr(buf, "note: n1") != NULL);
	CHECK(strstr(buf, SL_MISS_MARK " marks a miss") != NULL);	/* the legend */
	f = open_memstream(&jbuf, &len);
	sl_out_exp_json(f, &r, 1);
	fclose(f);
	struct json_object *root = json_tokener_parse(jbuf);
	CHECKF(root != NULL, "not JSON: %s", jbuf);
	json_object_put(root);
	CHECK(strstr(jbuf, "\"published\": null") != NULL);	/* row r1 has none */
	CHECK(strstr(jbuf, "\"miss\": true") != NULL);
	free(buf);
	free(jbuf);
	free(r.cells);
	sl_experiment_free(&e);
}
