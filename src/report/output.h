/*
 * output.h - printing results: the readable tables (in the seeds' shape for
 * experiments), JSON and CSV.  One backend per file (out_table.c,
 * out_json.c, out_csv.c).  The CLI chooses the stream.
 *
 * JSON of `run` (one object; docs/experiments.md "Result formats" is the
 * reference, schema_version 1):
 *   { "schema_version": 1, "seed": 1, "reps": 5, "ncells": N,
 *     "machines": [ { "name", "summary" } ],
 *     "cells": [ { "index", "machine", "workload", "params": { name: text|null },
 *                  "policy": "<label>", "policy_spec",
 *                  "metrics": { "elapsed_s": { "unit", "values": [...], "mean", "sd",
 *                                              "min", "max", "median", "n" }, ... } } ],
 *     "runs": [ { "machine", "workload", "policy": "<label>",
 *                 "policy_spec": "o1:version=2.5.33", "rep": 0, "seed": 1,
 *                 "metrics": { "elapsed_s": 117.2, "user_s": ..., ... },
 *                 "units":   { "elapsed_s": "s", "cpu_pct": "%", ... } }, ... ],
 *     and for a plain run (one machine, one workload spec), as before:
 *     "machine": "p4dpe-2x2ht", "machine_summary": "...", "workload": "kernbench:jobs=2",
 *     "summary": { "<label>": { "elapsed_s": { "mean", "sd", "min", "max",
 *                                              "median", "n", "unit" }, ... } } }
 * Metrics are plain numbers so that runs[i].metrics.elapsed_s reads as a
 * value; the parallel "units" object names each one's unit.  sd is the
 * sample standard deviation (0 when n = 1).
 *
 * JSON of `reproduce` (one object for all experiments):
 *   { "schema_version": 1,
 *     "experiments": [ { "name", "path", "title", "source" (null if none),
 *       "machine", "reps",
 *       "form": "values|speedup|percent_of_first",
 *       "percent_of": "mean|min" (percent_of_first),
 *       "tolerance_pct" (values) or "tolerance_points" (the others),
 *       "compare", "compare_summary" (speedup), "policy" (metric columns),
 *       "columns": [ { "label", "policy" } or { "label", "metric", "minus" } ],
 *       "rows": [ { "kind": "data", "label", "workload", "params", "metric", "unit",
 *                   "cells": [ { "column": "<label>",
 *                                "simulated": { "min", "median", "max", "mean",
 *                                               "sd", "n", "values": [...] },
 *                                "value", "range": [lo, hi]   (derived forms),
 *                                "compare": { ...as simulated } (speedup),
 *                                "sd_pct"                     (percent_of_first),
 *                                "published": [195] or null,
 *                                "miss": false } ] },
 *                 { "kind": "section", "label" },
 *                 { "kind": "geomean", "label", "unit": "%",
 *                   "cells": [ { "column", "simulated": null, "value",
 *                                "range", "published", "miss" } ] } ],
 *       "notes": [...] } ],
 *     "scoreboard": { "experiments": [ { "name", "published", "within" } ],
 *                     "all": { "published", "within" } } }
 *   (published: cells with a published value; within: those not missed)
 *
 * CSV of `run`: a header, then one row per run x metric:
 *   policy,rep,seed,metric,value,unit,machine,workload,policy_spec,<workload params>
 */
#ifndef SL_REPORT_OUTPUT_H
#define SL_REPORT_OUTPUT_H

#include <stdbool.h>
#include <stdio.h>

#include "report/reproduce.h"
#include "report/sweep.h"
#include "report/sweep_plan.h"

enum sl_format {
	SL_FORMAT_TABLE,
	SL_FORMAT_JSON,
	SL_FORMAT_CSV,
};

/* `run` results: every cell of the sweep is one policy on the same workload. */
void sl_out_run_table(FILE *f, const struct sl_sweep *s);
void sl_out_run_json(FILE *f, const struct sl_sweep *s);
void sl_out_run_csv(FILE *f, const struct sl_sweep *s);

/* A `run` sweep (report/sweep_plan.h): per machine and metric (none: the
 * workload's headline metric), a table with a row per workload spec of
 * the lists and a column per policy; cells min / median / max over the
 * repetitions (the value, with one repetition). */
void sl_out_sweep_table(FILE *f, const struct sl_sweep_plan *p, const char *const *metrics,
			int nmetrics);
/* JSON and CSV of a sweep; sl_out_run_json/csv write a sweep of one row. */
void sl_out_plan_json(FILE *f, const struct sl_sweep_plan *p);
void sl_out_plan_csv(FILE *f, const struct sl_sweep_plan *p);

/* `reproduce` results (the experiment's shape: grid, or the SDET shapes). */
void sl_out_exp_table(FILE *f, const struct sl_exp_result *r);
void sl_out_exp_json(FILE *f, const struct sl_exp_result *r, int n);

/* The scoreboard that ends `reproduce` of several experiments: published
 * cells within tolerance per experiment and in all. */
void sl_out_exp_scoreboard(FILE *f, const struct sl_exp_result *r, int n);

/*
 * `run` results in the SDET table shapes (docs/workloads.md, sdet), for
 * one workload (one "SDET N") and several policies, over `metric` (sdet's
 * "throughput", scripts/h):
 *   percent: Bligh's block - a line per policy, "Throughput" and "Std. Dev"
 *            as percentages of the first policy's mean;
 *   else:    Hansen's columns "Average Throughput | Standard Deviation".
 * Both after the disclaimer that these are not compliant SDET results.
 */
void sl_out_run_sdet(FILE *f, const struct sl_sweep *s, const char *metric, bool percent);

/* The miss mark and its legends, as the table prints them: percent of the
 * published value (plain values) or points (percentages). */
#define SL_MISS_MARK "*"
void sl_miss_legend(char *buf, unsigned long size, double tol_pct);
void sl_miss_legend_points(char *buf, unsigned long size, double points);

#endif
