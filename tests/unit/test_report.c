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
	/* interval: the simulated [min, max] must meet it, widened at each end */
	CHECK(sl_stats_misses_interval(100, 110, 52, 92, 2.6, 4.6));	/* above 96.6 */
	CHECK(!sl_stats_misses_interval(96, 110, 52, 92, 2.6, 4.6));	/* meets the slack */
	CHECK(!sl_stats_misses_interval(60, 70, 52, 92, 2.6, 4.6));	/* inside, no end near */
	CHECK(sl_stats_misses_interval(40, 49, 52, 92, 2.6, 4.6));	/* below 49.4 */
	CHECK(!sl_stats_misses_interval(40, 50, 52, 92, 2.6, 4.6));
}

#define GOOD_COLUMNS \
	"\"columns\": [ { \"label\": \"A\", \"policy\": \"linux24\" }," \
	"               { \"label\": \"B\", \"policy\": \"linux24:label=b\" } ],"

static const char good_experiment[] =
	"{ \"title\": \"t\", \"source\": \"<s@lkml>\", \"machine\": \"p4dpe-2x2ht\", \"reps\": 3,\n"
	"  \"metric\": \"elapsed_s\", \"show\": \"median/mean\", \"tolerance_pct\": 10,\n"
	"  \"workload_params\": { \"spin\": \"tasks=2\" },\n"
	GOOD_COLUMNS "\n"
	"  \"rows\": [ { \"label\": \"r0\", \"workload\": \"spin\",\n"
	"              \"published\": { \"A\": 10, \"B\": [ 1, 2.5 ] } },\n"
	"            { \"label\": \"r1\", \"workload\": \"javabench\", \"metric\": \"user_s\" },\n"
	"            { \"label\": \"r2\", \"workload\": \"spin\",\n"
	"              \"published\": { \"A\": { \"from\": 3, \"to\": 4.5 } } } ],\n"
	"  \"notes\": [ \"n1\" ] }\n";

SL_TEST(report_experiment_parse)
{
	struct sl_experiment e;
	struct sl_err err = { 0 };
	int rc = sl_experiment_parse(&e, "x", "experiments/x.json", good_experiment, &err);

	CHECKF(rc == 0, "%s", err.msg);
	if (rc)
		return;
	CHECK(e.reps == 3 && e.tolerance_pct == 10 && e.ncols == 2 && e.nrows == 3);
	CHECK(e.nshow == 2 && e.show[0] == SL_STAT_MEDIAN && e.show[1] == SL_STAT_MEAN);
	CHECK(!strcmp(e.rows[0].workload, "spin:tasks=2"));	/* shared params appended */
	CHECK(!strcmp(e.rows[1].workload, "javabench"));
	CHECK(!strcmp(e.rows[0].metric, "elapsed_s") && !strcmp(e.rows[1].metric, "user_s"));
	CHECK(e.rows[0].cells[0].npublished == 1 && e.rows[0].cells[0].published[0] == 10);
	CHECK(e.rows[0].cells[1].npublished == 2 && e.rows[0].cells[1].published[1] == 2.5);
	CHECK(e.rows[1].cells[0].npublished == 0);
	CHECK(!e.rows[0].cells[1].interval && e.rows[2].cells[0].interval &&
	      e.rows[2].cells[0].npublished == 2 && e.rows[2].cells[0].published[0] == 3 &&
	      e.rows[2].cells[0].published[1] == 4.5);
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

#define HEAD "{ \"title\": \"t\", \"source\": \"<s@lkml>\", \"machine\": \"m\", \"reps\": 5, " \
	     "\"metric\": \"elapsed_s\", "
#define ROWS "\"rows\": [ { \"label\": \"r\", \"workload\": \"spin\" } ]"

SL_TEST(report_experiment_errors)
{
	expect_load_error("{ \"title\": \"t\",\n  \"source\": }", "x.json:2:", "invalid JSON");
	expect_load_error("{ \"title\": \"t\"", "invalid JSON", "end of file");
	expect_load_error("[1, 2]", "expected an object", NULL);
	expect_load_error(HEAD GOOD_COLUMNS ROWS "} x", "text after", NULL);
	expect_load_error("{ \"source\": \"<s@lkml>\", \"machine\": \"m\", \"reps\": 5, \"metric\": \"e\", "
			  GOOD_COLUMNS ROWS "}", "title", "missing");
	expect_load_error("{ \"title\": \"t\", \"source\": \"<s@lkml>\", \"reps\": 5, \"metric\": \"e\", "
			  GOOD_COLUMNS ROWS "}", "machine", "missing");
	expect_load_error(HEAD "\"colums\": [], " GOOD_COLUMNS ROWS "}", "colums",
			  "unknown field");
	/* a source users can follow: a Message-ID or a web address */
	expect_load_error("{ \"title\": \"t\", \"source\": \"seeds/000_ab.txt\", \"machine\": \"m\", "
			  "\"reps\": 5, \"metric\": \"e\", " GOOD_COLUMNS ROWS "}", "source",
			  "Message-ID");
	expect_load_error("{ \"title\": \"t\", \"source\": \"<no id>\", \"machine\": \"m\", "
			  "\"reps\": 5, \"metric\": \"e\", " GOOD_COLUMNS ROWS "}", "source",
			  "http");
	expect_load_error("{ \"title\": 3, \"source\": \"<s@lkml>\", \"machine\": \"m\", \"reps\": 5, "
			  "\"metric\": \"e\", " GOOD_COLUMNS ROWS "}", "title", "expected a string");
	expect_load_error("{ \"title\": \"t\", \"source\": \"<s@lkml>\", \"machine\": \"m\", \"reps\": 0, "
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
	expect_load_error(HEAD GOOD_COLUMNS "\"rows\": [ { \"label\": \"r\", \"workload\": "
			  "\"spin\", \"published\": { \"A\": { \"from\": 5, \"to\": 5 } } } ] }",
			  "rows[0].published.A", "below");
	expect_load_error(HEAD GOOD_COLUMNS "\"rows\": [ { \"label\": \"r\", \"workload\": "
			  "\"spin\", \"published\": { \"A\": { \"from\": 1, \"to\": 5, "
			  "\"mid\": 3 } } } ] }", "rows[0].published.A", "interval");
	expect_load_error(HEAD GOOD_COLUMNS "\"rows\": [ { \"label\": \"r\", \"workload\": "
			  "\"spin\", \"published\": { \"A\": { \"from\": -1, \"to\": 5 } } } ] }",
			  "rows[0].published.A", "positive");
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

	/* the six columns as before the sweeps, then the coordinates
	 * (docs/experiments.md); the hand-made cells bind no parameters */
	CHECK(!strncmp(text, "policy,rep,seed,metric,value,unit,machine,workload,policy_spec\n",
		       63));
	CHECK(strstr(text, "\no1,0,7,elapsed_s,10,s,test-box,spin:tasks=2,o1\n") != NULL);
	CHECK(strstr(text, "\n\"ht:version=f3,label=x\",1,8,sleeps,3,count,test-box,"
			   "spin:tasks=2,\"ht:version=f3,label=x\"\n") != NULL);
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

/* An experiment result made by hand: 3 rows, 2 columns. */
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
	r.cells = calloc(6, sizeof(*r.cells));
	for (int i = 0; i < 6; i++)
		r.cells[i].values = i % 2 ? v1 : v0;
	for (int i = 0; i < 6; i++) {
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
	CHECK(strstr(buf, "1 of 3 published cells missed") != NULL);
	CHECK(strstr(buf, "3..4.5") != NULL);				/* an interval */
	CHECK(strstr(buf, "A published interval A..B misses") != NULL);
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
	CHECK(strstr(jbuf, "\"published_interval\": true") != NULL);
	free(buf);
	free(jbuf);
	free(r.cells);
	sl_experiment_free(&e);
}

/* ---- seed 004's speed-ups, geometric means and the miss rule in points ---- */

SL_TEST(report_stats_speedup_and_geomean)
{
	const double on[] = { 2, 8 }, off[] = { 2, 2 }, bad[] = { 0, 1 };
	/* seed 004's published columns and their "Geometric Mean" rows */
	const double chat24[] = { 24, 22, 22, 28 }, dbench25[] = { 27, 9, 1, 4, 23 };
	const double tbench25[] = { 36, 36, 36, 35, 33 }, pct[] = { 100, 121 };
	const double neg[] = { -150, 10 };

	CHECK(near(sl_stats_speedup_pct(on, 2, off, 2), 100, 1e-9));	/* 4 / 2 */
	CHECK(near(sl_stats_speedup_pct(off, 2, on, 2), -50, 1e-9));
	CHECK(isnan(sl_stats_speedup_pct(on, 2, bad, 2)));
	CHECK(near(sl_stats_geomean_pct(chat24, 4, 1), 23.98, 0.01));	/* published 24 */
	CHECK(near(sl_stats_geomean_pct(dbench25, 5, 1), 12.33, 0.01));	/* published 12 */
	CHECK(near(sl_stats_geomean_pct(tbench25, 5, 1), 35.19, 0.01));	/* published 35 */
	/* of the factors, not of the percentages (those give 7.4 for dbench) */
	CHECK(!near(sl_stats_geomean_pct(dbench25, 5, 1), sl_stats_geomean(dbench25, 5), 1));
	CHECK(near(sl_stats_geomean_pct(pct, 2, 0), 110, 1e-9));	/* sqrt(1 x 1.21) */
	CHECK(isnan(sl_stats_geomean_pct(neg, 2, 1)));
	CHECK(isnan(sl_stats_geomean_pct(pct, 0, 1)));
}

SL_TEST(report_miss_rule_points)
{
	const double p24[] = { 24 }, p30[] = { 30 }, spread[] = { 10, 40 }, far[] = { 0, 50 };

	CHECK(!sl_stats_misses_points(24.9, 24.9, 24.9, p24, 1, 5));
	CHECK(!sl_stats_misses_points(29, 20, 35, p24, 1, 5));	/* the value, not the range */
	CHECK(sl_stats_misses_points(18.9, 18.9, 18.9, p24, 1, 5));
	CHECK(!sl_stats_misses_points(25, 25, 25, p30, 1, 5));	/* exactly 5 points */
	CHECK(sl_stats_misses_points(25, 25, 25, p30, 1, 4.9));
	CHECK(!sl_stats_misses_points(20, 14, 20, spread, 2, 5));	/* 10 within 5 of [14, 20] */
	CHECK(sl_stats_misses_points(20, 15, 30, far, 2, 5));
	CHECK(!sl_stats_misses_points(NAN, NAN, NAN, NULL, 0, 5));
	CHECK(sl_stats_misses_points(NAN, NAN, NAN, p24, 1, 5));	/* no value: a miss */
}

#define SPEEDUP_HEAD \
	"{ \"title\": \"t\", \"source\": \"<s@lkml>\", \"machine\": \"xeon-1600ht\", \"reps\": 2,\n" \
	"  \"metric\": \"throughput\", \"form\": \"speedup\", \"compare\": \"xeon-1600ht,noht\",\n"

static const char speedup_experiment[] =
	SPEEDUP_HEAD
	"  \"tolerance_points\": 5,\n"
	GOOD_COLUMNS "\n"
	"  \"rows\": [ { \"section\": \"spin tasks\" },\n"
	"    { \"label\": \"1\", \"workload\": \"spin:tasks=1\", \"published\": { \"A\": 0, \"B\": -3 } },\n"
	"    { \"label\": \"2\", \"workload\": \"spin:tasks=2\", \"published\": { \"A\": 21 } },\n"
	"    { \"label\": \"gm\", \"derive\": \"geomean\", \"published\": { \"A\": 10, \"B\": 40 } },\n"
	"    { \"section\": \"second\" },\n"
	"    { \"label\": \"3\", \"workload\": \"spin:tasks=3\" },\n"
	"    { \"label\": \"gm2\", \"derive\": \"geomean\" } ] }\n";

SL_TEST(report_experiment_parse_speedup)
{
	struct sl_experiment e;
	struct sl_err err = { 0 };
	int rc = sl_experiment_parse(&e, "x", "experiments/x.json", speedup_experiment, &err);

	CHECKF(rc == 0, "%s", err.msg);
	if (rc)
		return;
	CHECK(e.form == SL_FORM_SPEEDUP && !strcmp(e.compare, "xeon-1600ht,noht"));
	CHECK(e.tolerance_points == 5 && e.nrows == 7);
	CHECK(e.rows[0].kind == SL_ROW_SECTION && !strcmp(e.rows[0].label, "spin tasks"));
	CHECK(e.rows[1].kind == SL_ROW_DATA && e.rows[1].cells[0].published[0] == 0);
	CHECK(e.rows[1].cells[1].published[0] == -3);	/* speed-ups may be negative */
	CHECK(e.rows[3].kind == SL_ROW_GEOMEAN && e.rows[3].cells[1].published[0] == 40);
	CHECK(!e.rows[3].workload && e.rows[6].kind == SL_ROW_GEOMEAN);
	sl_experiment_free(&e);
}

#define PIPE_HEAD \
	"{ \"title\": \"t\", \"source\": \"<s@lkml>\", \"machine\": \"p4-2400\", \"reps\": 3,\n" \
	"  \"policy\": \"o1:version=2.5.33\",\n"
#define METRIC_COLUMNS \
	"  \"columns\": [ { \"label\": \"real\", \"metric\": \"elapsed_s\" },\n" \
	"    { \"label\": \"idle\", \"metric\": \"elapsed_s\", \"minus\": [ \"user_s\", \"sys_s\" ] } ],\n"
#define PIPE_ROWS \
	"  \"rows\": [ { \"label\": \"-j1\", \"workload\": \"spin:tasks=1\",\n" \
	"              \"published\": { \"real\": 406.2, \"idle\": 79.1 } } ] }\n"

SL_TEST(report_experiment_parse_metric_columns)
{
	struct sl_experiment e;
	struct sl_err err = { 0 };
	int rc = sl_experiment_parse(&e, "x", "experiments/x.json",
				     PIPE_HEAD METRIC_COLUMNS PIPE_ROWS, &err);

	CHECKF(rc == 0, "%s", err.msg);
	if (rc)
		return;
	CHECK(sl_exp_metric_columns(&e) && !strcmp(e.policy, "o1:version=2.5.33"));
	CHECK(!e.cols[0].policy && !strcmp(e.cols[1].metric, "elapsed_s"));
	CHECK(e.cols[1].nminus == 2 && !strcmp(e.cols[1].minus[1], "sys_s"));
	CHECK(e.rows[0].metric == NULL && e.rows[0].cells[1].published[0] == 79.1);
	CHECK(e.form == SL_FORM_VALUES && e.tolerance_pct == 5);
	sl_experiment_free(&e);
}

SL_TEST(report_experiment_new_form_errors)
{
	const char *rows1 = "\"rows\": [ { \"label\": \"1\", \"workload\": \"spin\" } ] }";
	char buf[2048];

	/* speedup needs compare; compare needs speedup; points vs percent */
	expect_load_error(HEAD "\"form\": \"speedup\", " GOOD_COLUMNS ROWS "}", "compare",
			  "missing");
	expect_load_error(HEAD "\"compare\": \"m\", " GOOD_COLUMNS ROWS "}", "compare",
			  "only used");
	expect_load_error(HEAD "\"form\": \"ratio\", " GOOD_COLUMNS ROWS "}", "form", "ratio");
	expect_load_error(HEAD "\"shape\": \"round\", " GOOD_COLUMNS ROWS "}", "shape", "round");
	expect_load_error(SPEEDUP_HEAD "\"tolerance_pct\": 5, " GOOD_COLUMNS ROWS "}",
			  "tolerance_pct", "tolerance_points");
	expect_load_error(HEAD "\"tolerance_points\": 5, " GOOD_COLUMNS ROWS "}",
			  "tolerance_points", "tolerance_pct");
	expect_load_error(SPEEDUP_HEAD "\"tolerance_points\": -1, " GOOD_COLUMNS ROWS "}",
			  "tolerance_points", "expected a number");
	expect_load_error(SPEEDUP_HEAD "\"shape\": \"sdet\", " GOOD_COLUMNS ROWS "}", "shape",
			  NULL);
	/* derived and section rows */
	expect_load_error(SPEEDUP_HEAD GOOD_COLUMNS "\"rows\": [ { \"label\": \"g\", "
			  "\"derive\": \"geomean\" } ] }", "rows[0].derive", "no rows above");
	expect_load_error(SPEEDUP_HEAD GOOD_COLUMNS "\"rows\": [ { \"label\": \"1\", "
			  "\"workload\": \"spin\" }, { \"section\": \"s\" }, { \"label\": \"g\", "
			  "\"derive\": \"geomean\" } ] }", "rows[2].derive", "no rows above");
	expect_load_error(SPEEDUP_HEAD GOOD_COLUMNS "\"rows\": [ { \"label\": \"1\", "
			  "\"workload\": \"spin\" }, { \"label\": \"g\", \"derive\": \"mean\" } ] }",
			  "rows[1].derive", "geomean");
	expect_load_error(HEAD GOOD_COLUMNS "\"rows\": [ { \"label\": \"1\", "
			  "\"workload\": \"spin\" }, { \"label\": \"g\", \"derive\": \"geomean\" } ] }",
			  "rows[1].derive", "form");
	expect_load_error(SPEEDUP_HEAD GOOD_COLUMNS "\"rows\": [ { \"section\": \"s\", "
			  "\"label\": \"x\" } ] }", "rows[0].label", "unknown field");
	expect_load_error(SPEEDUP_HEAD GOOD_COLUMNS "\"rows\": [ { \"section\": 3 } ] }",
			  "rows[0].section", "expected a string");
	expect_load_error(HEAD GOOD_COLUMNS "\"rows\": [ { \"label\": \"r\", \"workload\": "
			  "\"spin\", \"published\": { \"A\": -3 } } ] }", "rows[0].published.A",
			  "positive");
	/* metric columns */
	expect_load_error(PIPE_HEAD "\"metric\": \"elapsed_s\", " METRIC_COLUMNS PIPE_ROWS,
			  "metric", "not used");
	expect_load_error(PIPE_HEAD "\"columns\": [ { \"label\": \"A\", \"policy\": \"up\" } ], "
			  PIPE_ROWS, "columns[0].policy", "unknown field");
	expect_load_error(PIPE_HEAD "\"columns\": [ { \"label\": \"A\", \"metric\": \"e\", "
			  "\"minus\": \"user_s\" } ], " PIPE_ROWS, "columns[0].minus", "array");
	expect_load_error(PIPE_HEAD "\"columns\": [ { \"label\": \"A\" } ], " PIPE_ROWS,
			  "columns[0].metric", "missing");
	snprintf(buf, sizeof(buf), PIPE_HEAD METRIC_COLUMNS "\"rows\": [ { \"label\": \"r\", "
		 "\"workload\": \"spin\", \"metric\": \"user_s\" } ] }");
	expect_load_error(buf, "rows[0].metric", "unknown field");
	expect_load_error("{ \"title\": \"t\", \"source\": \"<s@lkml>\", \"machine\": \"m\", \"reps\": 1, "
			  "\"policy\": \"o9\", " METRIC_COLUMNS PIPE_ROWS, "policy", "o9");
	expect_load_error("{ \"title\": \"t\", \"source\": \"<s@lkml>\", \"machine\": \"m\", \"reps\": 1, "
			  "\"policy\": \"up\", \"form\": \"speedup\", \"compare\": \"m\", "
			  METRIC_COLUMNS PIPE_ROWS, "policy", "form");
	(void)rows1;
}

/* A hand-made speed-up result: every data cell runs at 2 x its compare
 * machine's throughput, except row 2 in column A (1.21 x). */
static void fill_speedup(struct sl_exp_result *r, const struct sl_experiment *e, double *pool)
{
	int k = 0;

	r->exp = e;
	r->reps = 2;
	r->cells = calloc((size_t)(e->nrows * e->ncols), sizeof(*r->cells));
	for (int row = 0; row < e->nrows; row++) {
		if (e->rows[row].kind != SL_ROW_DATA)
			continue;
		for (int c = 0; c < e->ncols; c++) {
			struct sl_exp_cell_result *x = &r->cells[row * e->ncols + c];
			double f = row == 2 && c == 0 ? 1.21 : 2;
			x->values = &pool[k];
			x->base_values = &pool[k + 2];
			pool[k] = 100 * f;
			pool[k + 1] = 90 * f;
			pool[k + 2] = 100;
			pool[k + 3] = 90;
			k += 4;
			snprintf(x->unit, sizeof(x->unit), "MB/s");
		}
	}
}

static char *exp_text(const struct sl_exp_result *r, bool json)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	if (json)
		sl_out_exp_json(f, r, 1);
	else
		sl_out_exp_table(f, r);
	fclose(f);
	return buf;
}

SL_TEST(report_speedup_derive_and_print)
{
	struct sl_experiment e;
	struct sl_err err = { 0 };
	struct sl_exp_result r = { 0 };
	struct sl_sweep a = { 0 }, b = { 0 };
	double pool[64];

	if (sl_experiment_parse(&e, "x", "experiments/x.json", speedup_experiment, &err)) {
		CHECKF(0, "%s", err.msg);
		return;
	}
	fill_speedup(&r, &e, pool);
	r.sweep = &a;
	r.base_sweep = &b;
	sl_exp_result_derive(&r);
	const struct sl_exp_cell_result *c1a = sl_exp_cell(&r, 1, 0), *c2a = sl_exp_cell(&r, 2, 0);
	CHECK(c1a->derived && near(c1a->value, 100, 1e-9));
	CHECK(near(c1a->lo, 100, 1e-9) && near(c1a->hi, 100, 1e-9));
	CHECK(near(c2a->value, 21, 1e-9));
	CHECK(c1a->miss && !c2a->miss);		/* 100 vs published 0; 21 vs 21 */
	/* geometric mean of the factors 2 and 1.21 = 1.5556: 55.6 %, not 60.5 */
	const struct sl_exp_cell_result *g = sl_exp_cell(&r, 3, 0);
	CHECK(g->derived && near(g->value, 100 * (sqrt(2 * 1.21) - 1), 1e-9));
	CHECK(g->miss);				/* published 10 */
	CHECK(near(sl_exp_cell(&r, 3, 1)->value, 100, 1e-9) && sl_exp_cell(&r, 3, 1)->miss);
	/* the second section's mean covers its own row only */
	CHECK(near(sl_exp_cell(&r, 6, 0)->value, 100, 1e-9));
	CHECK(!sl_exp_cell(&r, 6, 0)->miss);	/* nothing published */
	/* B row 1: 100 vs -3 published: a miss by points */
	CHECK(sl_exp_cell(&r, 1, 1)->miss);

	snprintf(a.machine.summary, sizeof(a.machine.summary), "HT on");
	snprintf(b.machine.summary, sizeof(b.machine.summary), "HT off");
	char *text = exp_text(&r, false);
	CHECK(strstr(text, "compared with: xeon-1600ht,noht (HT off)") != NULL);
	CHECK(strstr(text, "spin tasks\n") != NULL && strstr(text, "\nsecond\n") != NULL);
	CHECK(strstr(text, "100.0 (100.0..100.0)") != NULL);
	CHECK(strstr(text, "21.0 (21.0..21.0)") != NULL);
	CHECK(strstr(text, "55.6") != NULL);		/* the geometric mean */
	CHECK(strstr(text, "0 " SL_MISS_MARK) != NULL);
	CHECK(strstr(text, "5 points") != NULL);	/* the legend */
	CHECK(strstr(text, "4 of 5 published cells missed") != NULL);
	free(text);
	text = exp_text(&r, true);
	struct json_object *root = json_tokener_parse(text), *x;
	CHECKF(root != NULL, "not JSON: %s", text);
	if (root) {
		struct json_object *exp0 = json_object_array_get_idx(
			json_object_object_get(root, "experiments"), 0);
		CHECK(json_object_object_get_ex(exp0, "form", &x) &&
		      !strcmp(json_object_get_string(x), "speedup"));
		struct json_object *rows = json_object_object_get(exp0, "rows");
		CHECK(json_object_object_get_ex(json_object_array_get_idx(rows, 0), "kind", &x) &&
		      !strcmp(json_object_get_string(x), "section"));
		struct json_object *cell = json_object_array_get_idx(
			json_object_object_get(json_object_array_get_idx(rows, 2), "cells"), 0);
		CHECK(json_object_object_get_ex(cell, "value", &x) &&
		      near(json_object_get_double(x), 21, 1e-9));
		CHECK(json_object_object_get_ex(cell, "compare", &x) &&
		      json_object_object_get_ex(x, "n", &x) && json_object_get_int(x) == 2);
		json_object_put(root);
	}
	free(text);
	free(r.cells);
	sl_experiment_free(&e);
}

/* The scoreboard: published cells within tolerance per experiment and in
 * all - a plain result (1 of 2) and a speed-up one with a derived row
 * (1 of 5: sections and unpublished cells do not count). */
SL_TEST(report_scoreboard)
{
	struct sl_experiment e[2];
	struct sl_err err = { 0 };
	struct sl_exp_result r[2] = { { 0 } };
	struct sl_sweep a = { 0 }, b = { 0 };
	struct sl_exp_score sc;
	double pool[64], v0[] = { 9, 10, 11 }, v1[] = { 2, 2, 2 }, v2[] = { 4.6, 4.7, 5 };
	char *buf = NULL;
	size_t len = 0;
	FILE *f;

	if (sl_experiment_parse(&e[0], "plain", "experiments/plain.json", good_experiment, &err) ||
	    sl_experiment_parse(&e[1], "speedup", "experiments/speedup.json", speedup_experiment,
				&err)) {
		CHECKF(0, "%s", err.msg);
		return;
	}
	r[0].exp = &e[0];
	r[0].sweep = &a;
	r[0].reps = 3;
	r[0].cells = calloc(6, sizeof(*r[0].cells));
	for (int i = 0; i < 6; i++)
		r[0].cells[i].values = i % 2 ? v1 : v0;
	/* r2's A: [4.6, 5] meets the interval 3..4.5 widened by 10 % (4.95) */
	r[0].cells[4].values = v2;
	sl_exp_result_derive(&r[0]);	/* A: 10 vs 10 within; B: 2 vs 1, 2.5 */
	sl_exp_result_score(&r[0], &sc);
	CHECK(sc.published == 3 && sc.within == 2);
	CHECK(!r[0].cells[4].miss);
	v2[0] = v2[1] = 5;		/* [5, 5] is past 4.95: a miss */
	sl_exp_result_derive(&r[0]);
	CHECK(r[0].cells[4].miss);
	v2[0] = 4.6;
	v2[1] = 4.7;
	sl_exp_result_derive(&r[0]);
	fill_speedup(&r[1], &e[1], pool);
	r[1].sweep = &a;
	r[1].base_sweep = &b;
	sl_exp_result_derive(&r[1]);
	sl_exp_result_score(&r[1], &sc);
	CHECK(sc.published == 5 && sc.within == 1);

	f = open_memstream(&buf, &len);
	sl_out_exp_scoreboard(f, r, 2);
	fclose(f);
	CHECKF(strstr(buf, "plain      2 of    3   66.7 %") != NULL, "%s", buf);
	CHECKF(strstr(buf, "speedup    1 of    5   20.0 %") != NULL, "%s", buf);
	CHECKF(strstr(buf, "all        3 of    8   37.5 %") != NULL, "%s", buf);
	free(buf);
	buf = NULL;
	f = open_memstream(&buf, &len);
	sl_out_exp_json(f, r, 2);
	fclose(f);
	struct json_object *root = json_tokener_parse(buf), *board, *x;
	CHECKF(root != NULL, "not JSON: %s", buf);
	if (root && json_object_object_get_ex(root, "scoreboard", &board)) {
		struct json_object *one = json_object_array_get_idx(
			json_object_object_get(board, "experiments"), 1);
		CHECK(json_object_object_get_ex(one, "name", &x) &&
		      !strcmp(json_object_get_string(x), "speedup"));
		CHECK(json_object_object_get_ex(one, "within", &x) && json_object_get_int(x) == 1);
		x = json_object_object_get(board, "all");
		CHECK(json_object_get_int(json_object_object_get(x, "published")) == 8);
		CHECK(json_object_get_int(json_object_object_get(x, "within")) == 3);
	} else {
		CHECKF(0, "no scoreboard: %s", buf);
	}
	json_object_put(root);
	free(buf);
	free(r[0].cells);
	free(r[1].cells);
	sl_experiment_free(&e[0]);
	sl_experiment_free(&e[1]);
}

/* Metric columns: idle = real - user - sys per repetition. */
SL_TEST(report_metric_columns_subtract)
{
	static const char text[] =
		"{ \"title\": \"t\", \"source\": \"<s@lkml>\", \"machine\": \"p4-2400\", \"reps\": 2,\n"
		"  \"policy\": \"up\", \"show\": \"median\",\n"
		"  \"columns\": [ { \"label\": \"real\", \"metric\": \"elapsed_s\" },\n"
		"    { \"label\": \"idle\", \"metric\": \"elapsed_s\", \"minus\": [ \"user_s\", "
		"\"sys_s\" ] } ],\n"
		"  \"rows\": [ { \"label\": \"r\", \"workload\": \"spin:tasks=1,seconds=0.05\",\n"
		"              \"published\": { \"idle\": 1 } } ] }\n";
	struct sl_experiment e;
	struct sl_err err = { 0 };
	struct sl_exp_result r;

	if (sl_experiment_parse(&e, "x", "experiments/x.json", text, &err)) {
		CHECKF(0, "%s", err.msg);
		return;
	}
	int rc = sl_experiment_run(&e, 0, 1, &r, &err);
	CHECKF(rc == 0, "%s", err.msg);
	if (!rc) {
		const struct sl_exp_cell_result *real = sl_exp_cell(&r, 0, 0);
		const struct sl_exp_cell_result *idle = sl_exp_cell(&r, 0, 1);
		for (int rep = 0; rep < 2; rep++) {
			const struct sl_metrics *m = sl_sweep_metrics(r.sweep, 0, rep);
			double want = sl_metrics_find(m, "elapsed_s")->value -
				      sl_metrics_find(m, "user_s")->value -
				      sl_metrics_find(m, "sys_s")->value;
			CHECK(near(idle->values[rep], want, 1e-12));
			CHECK(real->values[rep] == sl_metrics_find(m, "elapsed_s")->value);
		}
		CHECK(r.sweep->ncells == 1);		/* one run serves every column */
		CHECK(idle->miss);			/* a CPU hog idles ~0 s, not 1 */
		sl_exp_result_free(&r);
	}
	sl_experiment_free(&e);
}

/* The SDET shapes: percent of the first column, and absolute. */
/* percent_of_first of the best runs ("percent_of": "min"), for tables of
 * best-of-N times: 100 x min / the first column's min, not of the means. */
SL_TEST(report_percent_of_min)
{
	static const char text_min[] =
		"{ \"title\": \"t\", \"source\": \"<s@lkml>\", \"machine\": \"m\", \"reps\": 2,\n"
		"  \"metric\": \"elapsed_s\", \"form\": \"percent_of_first\", \"percent_of\": \"min\",\n"
		GOOD_COLUMNS "\n"
		"  \"rows\": [ { \"label\": \"j2\", \"workload\": \"spin\",\n"
		"                \"published\": { \"B\": 125 } } ] }\n";
	struct sl_experiment e;
	struct sl_err err = { 0 };
	struct sl_exp_result r = { 0 };
	struct sl_sweep sweep = { 0 };
	double a[] = { 80, 120 }, b[] = { 100, 120 };	/* means 100, 110; mins 80, 100 */

	if (sl_experiment_parse(&e, "x", "experiments/x.json", text_min, &err)) {
		CHECKF(0, "%s", err.msg);
		return;
	}
	CHECK(e.pct_stat == SL_STAT_MIN);
	r.exp = &e;
	r.sweep = &sweep;
	r.reps = 2;
	r.cells = calloc(2, sizeof(*r.cells));
	r.cells[0].values = a;
	r.cells[1].values = b;
	sl_exp_result_derive(&r);
	CHECK(near(r.cells[1].value, 125, 1e-9));	/* 100 / 80, not 110 / 100 */
	CHECK(!r.cells[1].miss);
	char *out = exp_text(&r, false);
	CHECKF(strstr(out, "min of elapsed_s as % of the first column's min") != NULL, "%s", out);
	free(out);
	e.pct_stat = SL_STAT_MEAN;			/* the default: means */
	sl_exp_result_derive(&r);
	CHECK(near(r.cells[1].value, 110, 1e-9) && r.cells[1].miss);
	free(r.cells);
	sl_experiment_free(&e);

	expect_load_error("{ \"title\": \"t\", \"source\": \"<s@lkml>\", \"machine\": \"m\", "
			  "\"reps\": 5, \"metric\": \"e\", \"percent_of\": \"min\", " GOOD_COLUMNS ROWS "}",
			  "percent_of", "percent_of_first");
	expect_load_error("{ \"title\": \"t\", \"source\": \"<s@lkml>\", \"machine\": \"m\", "
			  "\"reps\": 5, \"metric\": \"e\", \"form\": \"percent_of_first\", "
			  "\"percent_of\": \"max\", " GOOD_COLUMNS ROWS "}", "percent_of", "max");
}

SL_TEST(report_sdet_shapes)
{
	static const char pct_text[] =
		"{ \"title\": \"t\", \"source\": \"<s@lkml>\", \"machine\": \"m\", \"reps\": 2,\n"
		"  \"metric\": \"throughput\", \"form\": \"percent_of_first\", \"shape\": \"sdet\",\n"
		GOOD_COLUMNS "\n"
		"  \"rows\": [ { \"label\": \"16\", \"workload\": \"spin\",\n"
		"                \"published\": { \"A\": 100, \"B\": 120 } } ] }\n";
	struct sl_experiment e;
	struct sl_err err = { 0 };
	struct sl_exp_result r = { 0 };
	struct sl_sweep sweep = { 0 };
	double a[] = { 90, 110 }, b[] = { 100, 120 };

	if (sl_experiment_parse(&e, "x", "experiments/x.json", pct_text, &err)) {
		CHECKF(0, "%s", err.msg);
		return;
	}
	r.exp = &e;
	r.sweep = &sweep;
	r.reps = 2;
	r.cells = calloc(2, sizeof(*r.cells));
	r.cells[0].values = a;
	r.cells[1].values = b;
	sl_exp_result_derive(&r);
	CHECK(near(r.cells[1].value, 110, 1e-9));		/* 110 / 100 */
	CHECK(near(r.cells[1].sd_pct, 100 * sqrt(200) / 100, 1e-9));
	CHECK(!r.cells[0].miss);				/* 100 vs 100 */
	CHECK(r.cells[1].miss);				/* 110 vs 120: 10 points */
	char *text = exp_text(&r, false);
	CHECK(strstr(text, "SDET 16 (see disclaimer)") != NULL);
	CHECK(strstr(text, "percentages of the first set") != NULL);
	CHECK(strstr(text, "100.0%") && strstr(text, "110.0%") && strstr(text, "Std. Dev"));
	free(text);
	e.form = SL_FORM_VALUES;			/* Hansen's absolute shape */
	sl_exp_result_derive(&r);
	text = exp_text(&r, false);
	CHECK(strstr(text, "Average Throughput") && strstr(text, "Standard Deviation"));
	CHECK(strstr(text, "110.0") && strstr(text, "14.1"));	/* mean, sd of B */
	free(text);
	free(r.cells);
	sl_experiment_free(&e);

	/* `run` in both shapes */
	struct sl_sweep *s = fake_sweep();
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	sl_out_run_sdet(f, s, "elapsed_s", true);
	sl_out_run_sdet(f, s, "elapsed_s", false);
	fclose(f);
	CHECK(strstr(buf, "100.0%") != NULL);		/* o1: the first */
	CHECK(strstr(buf, "109.5%") != NULL);		/* 11.5 / 10.5 */
	CHECK(strstr(buf, "6.7%") != NULL);		/* sd 0.71 / 10.5 */
	CHECK(strstr(buf, "Average Throughput") && strstr(buf, "11.5"));
	free(buf);
	sl_sweep_free(s);
}
