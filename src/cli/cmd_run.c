/*
 * cmd_run.c - `schedlab run -m MACHINE -p POLICY [-p POLICY ...] -w WORKLOAD
 * [-r REPS] [-s SEED] [-o table|json|csv] [--stats] [--max-mem SIZE]
 * [--trace FILE [--trace-format perf|ftrace|chrome]] [--html FILE].  --trace
 * FILE and --html FILE appear only when the run succeeded (base/outfile.h);
 * - writes either to standard output and the results to standard error.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/outfile.h"
#include "cli/cli.h"
#include "cli/shard_cli.h"
#include "report/html.h"
#include "report/output.h"
#include "report/sweep.h"
#include "report/trace_perf.h"

#define MAX_POLICIES 64

struct run_args {
	const char *machine, *workload;
	const char *policy[MAX_POLICIES];
	int npolicies;
	int reps;
	uint64_t seed;
	enum sl_format format;
	int sdet;			/* -o sdet (1) or sdet-percent (2): SDET's table shapes */
	bool stats;
	const char *trace;		/* --trace FILE: the run's schedule as a trace */
	const char *trace_format;
	const char *html;		/* --html FILE: the page `report` writes */
	struct cli_given given;		/* -r, -s, -o: once each */
};

/* One argument at argv[*i]: 0 handled, -1 error (err set). */
static int parse_one(int argc, char **argv, int *i, struct run_args *a, struct sl_err *err)
{
	const char *v;
	int m;

	if (!strcmp(argv[*i], "--stats")) {
		a->stats = true;
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
	if ((m = cli_long_option(argc, argv, i, "--trace-format", &v, err)))
		return m < 0 ? -1 : cli_once("run", &a->trace_format, "--trace-format", v, err);
	if ((m = cli_option(argc, argv, i, "-m", "--machine", &v, err)))
		return m < 0 ? -1 : cli_once("run", &a->machine, "-m", v, err);
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
	return cli_unexpected("run", argv[*i], "-m, -p, -w, -r, -s, -o, --stats, --max-mem, "
			      "--trace, --trace-format, --html or --shard", err);
}

static int parse_args(int argc, char **argv, struct run_args *a, struct sl_err *err)
{
	for (int i = 1; i < argc; i++)
		if (parse_one(argc, argv, &i, a, err))
			return -1;
	if (!a->machine)
		return sl_fail(err, "run: missing -m MACHINE (see 'schedlab list machines')");
	if (!a->npolicies)
		return sl_fail(err, "run: missing -p POLICY (see 'schedlab list policies')");
	if (!a->workload)
		return sl_fail(err, "run: missing -w WORKLOAD (see 'schedlab list workloads')");
	if (a->trace_format && !a->trace)
		return sl_fail(err, "run: --trace-format '%s' without --trace FILE", a->trace_format);
	if (a->trace && a->html && !strcmp(a->trace, "-") && !strcmp(a->html, "-"))
		return sl_fail(err, "run: --trace - and --html - (expected at most one on standard "
			       "output)");
	if (a->trace && a->npolicies > 1)
		return sl_fail(err, "run: --trace records one run: give one -p (got %d)",
			       a->npolicies);
	if (a->trace && a->reps > 1)
		return sl_fail(err, "run: --trace records one run: give -r 1 (got %d)", a->reps);
	if (cli_shard_check("run", &a->format, a->given.format,
			    a->trace ? "--trace" : a->html ? "--html" : NULL, err))
		return -1;
	if (a->sdet) {
		/* SDET's shapes tabulate a throughput: only for workloads whose
		 * headline metric is one (sdet, spin, ...) */
		struct sl_spec spec;
		const struct sl_workload_ops *w;
		if (sl_spec_parse(&spec, a->workload, "workload", err))
			return -1;
		w = sl_workload_find(spec.name);
		if (w && strcmp(w->metric, "throughput"))
			return sl_fail(err, "run: -o sdet: workload '%s' reports %s, not a throughput "
				       "(SDET's tables are for sdet-like workloads)", spec.name,
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

static void print_results(FILE *f, const struct sl_sweep *s, enum sl_format format, int sdet)
{
	if (sdet) {
		sl_out_run_sdet(f, s, "throughput", sdet == 2);
		return;
	}
	switch (format) {
	case SL_FORMAT_TABLE:
		sl_out_run_table(f, s);
		break;
	case SL_FORMAT_JSON:
		sl_out_run_json(f, s);
		break;
	case SL_FORMAT_CSV:
		sl_out_run_csv(f, s);
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

int cmd_run(int argc, char **argv)
{
	struct run_args a = { .reps = 1, .seed = 1, .format = SL_FORMAT_TABLE };
	struct sl_err err = { 0 };
	struct sl_sweep *s;
	struct sl_outfile trace = { 0 }, html = { 0 };
	enum sl_trace_format trace_format = SL_TRACE_PERF;
	double t0;
	int rc;

	if (argc == 2 && cli_is_help(argv[1])) {
		fputs(cli_usage("run"), stdout);
		return cli_finish_output();
	}
	if (parse_args(argc, argv, &a, &err))
		return cli_report(&err);
	s = sl_sweep_new(a.machine, a.reps, a.seed, &err);
	if (!s)
		return cli_report(&err);
	if (cli_run_add_policies(s, a.policy, a.npolicies, a.workload, &err)) {
		sl_sweep_free(s);
		return cli_report(&err);
	}
	if (a.trace && ((a.trace_format && sl_trace_format_parse("--trace-format", a.trace_format,
								     &trace_format, &err)) ||
			sl_outfile_open(&trace, a.trace, "run: --trace", &err))) {
		sl_sweep_free(s);
		return cli_report(&err);
	}
	if (a.html && sl_outfile_open(&html, a.html, "run: --html", &err)) {
		sl_outfile_abort(&trace);
		sl_sweep_free(s);
		return cli_report(&err);
	}
	t0 = cli_wall_seconds();
	if (a.trace ? run_traced(s, trace_format, &trace, &err)
		    : sl_sweep_run(s, SL_SWEEP_THREADS, &err)) {
		sl_outfile_abort(&html);
		sl_sweep_free(s);
		return cli_report(&err);
	}
	if (a.html && write_html(s, argc, argv, &html, &err)) {
		sl_sweep_free(s);
		return cli_report(&err);
	}
	if (a.stats)
		cli_print_stats(s->events, cli_wall_seconds() - t0);
	if (cli_shard_slicing()) {	/* the slice's runs, for merge */
		rc = cli_shard_finish(argc, argv);
		sl_sweep_free(s);
		return rc;
	}
	/* with the trace or the page on standard output, the results go to stderr */
	print_results(on_stdout(a.trace) || on_stdout(a.html) ? stderr : stdout, s, a.format,
		      a.sdet);
	rc = cli_finish_output();
	sl_sweep_free(s);
	return rc;
}
