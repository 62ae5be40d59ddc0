/*
 * cmd_run.c - `schedlab run -m MACHINE [-m MACHINE ...] -p POLICY [-p POLICY
 * ...] -w WORKLOAD [-r REPS] [-s SEED] [-o table|json|csv] [--metric NAME
 * ...] [-j N] [--quiet|--progress] [--stats] [--max-mem SIZE] [--trace FILE
 * [--trace-format perf|ftrace|chrome]] [--html FILE].  --trace
 * FILE and --html FILE appear only when the run succeeded (base/outfile.h);
 * - writes either to standard output and the results to standard error.
 *
 * -w and -p may hold lists and ranges (report/spec_list.h): the run is then
 * a sweep (report/sweep_plan.h) and its table has a row per value and a
 * column per policy, per machine and metric.  A plain run - one machine,
 * one workload spec, no --metric - prints the per-metric table as always.
 */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "base/outfile.h"
#include "cli/cli.h"
#include "cli/shard_cli.h"
#include "report/html.h"
#include "report/output.h"
#include "report/sweep.h"
#include "report/sweep_trace.h"

#define MAX_POLICIES 64
#define MAX_MACHINES 64
#define MAX_METRICS 32

struct run_args {
	const char *machine[MAX_MACHINES], *workload;
	int nmachines;
	const char *policy[MAX_POLICIES];
	int npolicies;
	const char *metric[MAX_METRICS];	/* --metric: the sweep table's metrics */
	int nmetrics;
	int jobs;			/* -j: worker threads */
	const char *jobs_text;
	bool quiet, progress;
	int reps;
	uint64_t seed;
	enum sl_format format;
	int sdet;			/* -o sdet (1) or sdet-percent (2): SDET's table shapes */
	bool stats;
	const char *trace;		/* --trace FILE: the run's schedule as a trace */
	const char *trace_format;
	const char *html;		/* --html FILE: the page `report` writes */
	const char *rtapp_logdir;	/* --rtapp-logdir DIR: rt-app's log files */
	struct cli_given given;		/* -r, -s, -o: once each */
};

/* One argument at argv[*i]: 0 handled, -1 error (err set). */
static int parse_one(int argc, char **argv, int *i, struct run_args *a, struct sl_err *err)
{
	const char *v;
	int m;

	if ((m = cli_how_option("run", argc, argv, i, &a->stats, &a->quiet, &a->progress,
				&a->jobs_text, &a->jobs, err)))
		return m < 0 ? -1 : 0;
	if ((m = cli_long_option(argc, argv, i, "--metric", &v, err))) {
		if (m < 0)
			return -1;
		if (a->nmetrics == MAX_METRICS)
			return sl_fail(err, "run: --metric '%s': at most %d metrics", v, MAX_METRICS);
		for (int k = 0; k < a->nmetrics; k++)
			if (!strcmp(a->metric[k], v))
				return sl_fail(err, "run: --metric '%s' given twice", v);
		a->metric[a->nmetrics++] = v;
		return 0;
	}
	if ((m = cli_max_mem("run", argc, argv, i, err)))
		return m < 0 ? -1 : 0;
	if ((m = cli_shard_option("run", argc, argv, i, err)))	/* docs/scale-out.md */
		return m < 0 ? -1 : 0;
	if ((m = cli_long_option(argc, argv, i, "--trace", &v, err)))
		return m < 0 ? -1 : cli_once("run", &a->trace, "--trace", v, err);
	if ((m = cli_long_option(argc, argv, i, "--html", &v, err)))
		return m < 0 ? -1 : cli_once("run", &a->html, "--html", v, err);
	if ((m = cli_long_option(argc, argv, i, "--rtapp-logdir", &v, err)))
		return m < 0 ? -1 : cli_once("run", &a->rtapp_logdir, "--rtapp-logdir", v, err);
	if ((m = cli_long_option(argc, argv, i, "--trace-format", &v, err)))
		return m < 0 ? -1 : cli_once("run", &a->trace_format, "--trace-format", v, err);
	if ((m = cli_option(argc, argv, i, "-m", "--machine", &v, err))) {
		if (m < 0)
			return -1;
		if (a->nmachines == MAX_MACHINES)
			return sl_fail(err, "run: -m '%s': at most %d machines", v, MAX_MACHINES);
		a->machine[a->nmachines++] = v;
		return 0;
	}
	if ((m = cli_option(argc, argv, i, "-w", "--workload", &v, err)))
		return m < 0 ? -1 : cli_once("run", &a->workload, "-w", v, err);
	if ((m = cli_option(argc, argv, i, "-p", "--policy", &v, err))) {
		if (m < 0)
			return -1;
		if (a->npolicies == MAX_POLICIES)
			return sl_fail(err, "run: -p '%s': at most %d policies", v, MAX_POLICIES);
		a->policy[a->npolicies++] = v;
		return 0;
	}
	if ((m = cli_option(argc, argv, i, "-o", "--output", &v, err))) {
		if (m < 0 || cli_once("run", &a->given.format, "-o", v, err) ||
		    cli_parse_format("-o", v, CLI_FORMAT_CSV | CLI_FORMAT_SDET, &a->format, err))
			return -1;
		if (!strcmp(v, "sdet") || !strcmp(v, "sdet-percent"))
			a->sdet = strcmp(v, "sdet") ? 2 : 1;	/* SDET's two table shapes */
		return 0;
	}
	if ((m = cli_reps_seed_format("run", argc, argv, i, &a->reps, &a->seed, &a->format,
				      &a->given, err)))	/* -r, -s (-o is above) */
		return m < 0 ? -1 : 0;
	return cli_unexpected("run", argv[*i], "-m, -p, -w, -r, -s, -o, --metric, -j, --quiet, "
			      "--progress, --stats, --max-mem, --trace, --trace-format, --html, "
			      "--rtapp-logdir or --shard", err);
}

/* The directory a path's last name is in ("." for a bare name). */
static bool parent_of(const char *path, struct stat *st)
{
	const char *slash = strrchr(path, '/');
	char dir[4200];

	if (!slash)
		return !stat(".", st);
	snprintf(dir, sizeof(dir), "%.*s", slash == path ? 1 : (int)(slash - path), path);
	return !stat(dir, st);
}

/* Whether two output paths name one directory entry, which the second
 * output would replace (outfile.h renames over a name; a stream such as
 * /dev/null is written by both, replaced by neither). */
static bool same_file(const char *x, const char *y)
{
	struct stat sx, dx, dy;
	const char *bx = strrchr(x, '/') ? strrchr(x, '/') + 1 : x;
	const char *by = strrchr(y, '/') ? strrchr(y, '/') + 1 : y;

	if (!stat(x, &sx) && !S_ISREG(sx.st_mode))
		return false;
	if (!strcmp(x, y))
		return true;
	return !strcmp(bx, by) && parent_of(x, &dx) && parent_of(y, &dy) &&
	       dx.st_dev == dy.st_dev && dx.st_ino == dy.st_ino;
}

static int parse_args(int argc, char **argv, struct run_args *a, struct sl_err *err)
{
	for (int i = 1; i < argc; i++)
		if (parse_one(argc, argv, &i, a, err))
			return -1;
	if (!a->nmachines)
		return sl_fail(err, "run: missing -m MACHINE (see 'schedlab list machines')");
	if (a->quiet && a->progress)
		return sl_fail(err, "run: --quiet and --progress (expected at most one)");
	if (a->nmetrics && a->format != SL_FORMAT_TABLE)
		return sl_fail(err, "run: --metric chooses the table's metrics (-o json and csv "
			       "write every metric)");
	if (!a->npolicies)
		return sl_fail(err, "run: missing -p POLICY (see 'schedlab list policies')");
	if (!a->workload)
		return sl_fail(err, "run: missing -w WORKLOAD (see 'schedlab list workloads')");
	if (a->trace_format && !a->trace)
		return sl_fail(err, "run: --trace-format '%s' without --trace FILE", a->trace_format);
	if (a->trace && a->html && !strcmp(a->trace, "-") && !strcmp(a->html, "-"))
		return sl_fail(err, "run: --trace - and --html - (expected at most one on standard "
			       "output)");
	if (a->trace && a->html && strcmp(a->trace, "-") && same_file(a->trace, a->html))
		return sl_fail(err, "run: --trace and --html both name '%s' (the second would "
			       "replace the first; expected two files)", a->html);
	if (a->trace && a->reps > 1)
		return sl_fail(err, "run: --trace records one run: give -r 1 (got %d)", a->reps);
	if (cli_shard_check("run", &a->format, a->given.format,
			    a->trace ? "--trace" : a->html ? "--html" : NULL, err))
		return -1;
	if (a->sdet && a->nmetrics)
		return sl_fail(err, "run: --metric with -o sdet (SDET's tables show the throughput)");
	if (a->rtapp_logdir && (a->npolicies > 1 || a->nmachines > 1 || a->reps > 1 ||
				strncmp(a->workload, "rtapp:", 6) || strchr(a->rtapp_logdir, ',')))
		return sl_fail(err, "run: --rtapp-logdir '%s': the logs of one run of -w rtapp:... "
			       "(one -m, one -p, -r 1, and no ',' in DIR)", a->rtapp_logdir);
	if (a->sdet) {
		/* SDET's shapes tabulate a throughput: only for workloads whose
		 * headline metric is one (sdet, spin, ...) */
		char name[64];
		const struct sl_workload_ops *w;
		snprintf(name, sizeof(name), "%.*s", (int)strcspn(a->workload, ":"), a->workload);
		w = sl_workload_find(name);
		if (w && strcmp(w->metric, "throughput"))
			return sl_fail(err, "run: -o sdet: workload '%s' reports %s, not a throughput "
				       "(SDET's tables are for sdet-like workloads)", name,
				       w->metric);
	}
	return 0;
}

/* The one run of `s`, with its schedule written to `out` (opened before
 * the run, so that a directory that cannot take the file is found before
 * any work): the file appears only if the run and the writing succeed. */
static int run_traced(struct sl_sweep *s, enum sl_trace_format format, struct sl_outfile *out,
		      struct sl_err *err)
{
	if (sl_trace_sweep_run(s, out->f, format, err)) {
		sl_outfile_abort(out);
		return -1;
	}
	return sl_outfile_commit(out, "run: --trace", err);
}

/* Add every policy; two columns may not share a label. */
int cli_run_add_policies(struct sl_sweep *s, const char *const *policy, int npolicies,
			 const char *workload, struct sl_err *err)
{
	for (int p = 0; p < npolicies; p++) {
		int before = s->ncells;
		int cell = sl_sweep_add(s, policy[p], workload, err);
		if (cell < 0)
			return -1;
		for (int q = 0; q < s->ncells; q++)
			if ((cell < before || q != cell) &&
			    !strcmp(s->cells[q]->label, s->cells[cell]->label))
				return sl_fail(err, "run: -p '%s': label '%s' used twice (expected "
					       "distinct policies; label=TEXT names a column)",
					       policy[p], s->cells[cell]->label);
	}
	return 0;
}

/* One machine and one workload spec (any number of policies). */
static bool plain(const struct sl_sweep_plan *p)
{
	return p->nmachines == 1 && p->nrows == 1;
}

/* What needs a plain run, checked once the lists are expanded. */
static int check_plan(const struct run_args *a, const struct sl_sweep_plan *p, struct sl_err *err)
{
	if (a->trace && (!plain(p) || p->ncols > 1))
		return sl_fail(err, "run: --trace records one run: give one -m, one -p and no lists "
			       "(got %d cells)", p->ncells);
	if (a->html && !plain(p))
		return sl_fail(err, "run: --html draws one machine and one workload: give one -m "
			       "and no lists in -w (got %d machines x %d workloads)", p->nmachines,
			       p->nrows);
	if (a->sdet && !plain(p))
		return sl_fail(err, "run: -o sdet tabulates one machine and one workload: give one "
			       "-m and no lists in -w");
	return 0;
}

/* --metric names must be reported by some run (known only afterwards). */
static int check_metrics(const struct run_args *a, const struct sl_sweep_plan *p,
			 struct sl_err *err)
{
	for (int k = 0; k < a->nmetrics; k++) {
		bool found = false;
		for (int m = 0; m < p->nmachines && !found; m++) {
			const struct sl_sweep *s = p->sweeps[m];
			for (int i = 0; i < s->ncells * s->reps && !found; i++)
				found = sl_metrics_find(&s->metrics[i], a->metric[k]) != NULL;
		}
		if (!found)
			return sl_fail(err, "run: --metric '%s': no run reports it (see the metrics of "
				       "'schedlab run' without --metric)", a->metric[k]);
	}
	return 0;
}

static void print_results(FILE *f, const struct run_args *a, const struct sl_sweep_plan *p)
{
	if (a->sdet) {
		sl_out_run_sdet(f, p->sweeps[0], "throughput", a->sdet == 2);
		return;
	}
	switch (a->format) {
	case SL_FORMAT_TABLE:
		if (plain(p) && !a->nmetrics)
			sl_out_run_table(f, p->sweeps[0]);
		else
			sl_out_sweep_table(f, p, a->metric, a->nmetrics);
		break;
	case SL_FORMAT_JSON:
		sl_out_plan_json(f, p);
		break;
	case SL_FORMAT_CSV:
		sl_out_plan_csv(f, p);
		break;
	}
}

static bool on_stdout(const char *path)
{
	return path && !strcmp(path, "-");
}

/* The page of the finished sweep (report/html.h) to `out`, opened before
 * the runs. */
static int write_html(struct sl_sweep *s, int argc, char **argv, struct sl_outfile *out,
		      struct sl_err *err)
{
	char *cmdline = cli_command_line(argc, argv);
	int rc = sl_html_run_page(out->f, s, cmdline, err);

	free(cmdline);
	if (rc) {
		sl_outfile_abort(out);
		return -1;
	}
	return sl_outfile_commit(out, "run: --html", err);
}

/* Open --trace and --html before any run. */
static int open_files(const struct run_args *a, struct sl_outfile *trace, struct sl_outfile *html,
		      enum sl_trace_format *trace_format, struct sl_err *err)
{
	if (a->trace && ((a->trace_format && sl_trace_format_parse("--trace-format", a->trace_format,
								     trace_format, err)) ||
			 sl_outfile_open(trace, a->trace, "run: --trace", err)))
		return -1;
	if (a->html && sl_outfile_open(html, a->html, "run: --html", err)) {
		sl_outfile_abort(trace);
		return -1;
	}
	return 0;
}

static int run_plan(const struct run_args *a, struct sl_sweep_plan *p, enum sl_trace_format tf,
		    struct sl_outfile *trace, struct sl_err *err)
{
	struct cli_progress progress;
	int rc;

	if (a->trace)
		return run_traced(p->sweeps[0], tf, trace, err);
	cli_progress_start(&progress, sl_sweep_plan_runs(p), a->quiet, a->progress);
	rc = sl_sweep_plan_run(p, a->jobs, cli_progress_sink(&progress), err);
	cli_progress_end(&progress);
	return rc;
}

int cmd_run(int argc, char **argv)
{
	struct run_args a = { .reps = 1, .seed = 1, .format = SL_FORMAT_TABLE,
			      .jobs = sl_sweep_default_threads() };
	struct sl_err err = { 0 };
	struct sl_sweep_plan plan = { 0 };
	struct sl_outfile trace = { 0 }, html = { 0 };
	enum sl_trace_format trace_format = SL_TRACE_PERF;
	double t0, cpu0;
	int rc;

	if (argc == 2 && cli_is_help(argv[1])) {
		fputs(cli_usage("run"), stdout);
		return cli_finish_output();
	}
	char with_logdir[2 * 4096 + 64], note[1024];
	if (parse_args(argc, argv, &a, &err))
		return cli_report(&err);
	/* --rtapp-logdir DIR is rtapp's logdir= (it checks DIR before the
	 * run); room for a file's and a directory's path */
	const char *workload = a.workload;
	if (a.rtapp_logdir) {
		if (snprintf(with_logdir, sizeof(with_logdir), "%s,logdir=%s", a.workload,
			     a.rtapp_logdir) >= (int)sizeof(with_logdir))
			return cli_bad_input("run: -w with --rtapp-logdir: longer than %zu characters",
					     sizeof(with_logdir) - 1);
		workload = with_logdir;
	}
	if (sl_sweep_plan_new(&plan, a.machine, a.nmachines, a.policy, a.npolicies, workload,
			      a.reps, a.seed, &err) ||
	    check_plan(&a, &plan, &err) || open_files(&a, &trace, &html, &trace_format, &err)) {
		sl_sweep_plan_free(&plan);
		return cli_report(&err);
	}
	const struct sl_sweep_cell *c0 = plan.sweeps[0]->cells[0];
	if (c0->workload->note && c0->workload->note(&c0->params, note, sizeof(note)))
		fprintf(stderr, "schedlab: note: %s\n", note);
	t0 = cli_wall_seconds();
	cpu0 = cli_cpu_seconds();
	if (run_plan(&a, &plan, trace_format, &trace, &err) ||
	    (!cli_shard_slicing() && check_metrics(&a, &plan, &err))) {
		sl_outfile_abort(&html);
		sl_sweep_plan_free(&plan);
		return cli_report(&err);
	}
	if (a.html && write_html(plan.sweeps[0], argc, argv, &html, &err)) {
		sl_sweep_plan_free(&plan);
		return cli_report(&err);
	}
	if (a.stats) {
		struct sl_event_counts events = { 0 };
		for (int m = 0; m < plan.nmachines; m++)
			sl_event_counts_add(&events, &plan.sweeps[m]->events);
		cli_print_stats(&events, cli_wall_seconds() - t0, cli_cpu_seconds() - cpu0);
	}
	if (cli_shard_slicing()) {	/* the slice's runs, for merge */
		rc = cli_shard_finish(argc, argv);
		sl_sweep_plan_free(&plan);
		return rc;
	}
	/* with the trace or the page on standard output, the results go to stderr */
	print_results(on_stdout(a.trace) || on_stdout(a.html) ? stderr : stdout, &a, &plan);
	rc = cli_finish_output();
	sl_sweep_plan_free(&plan);
	return rc;
}
