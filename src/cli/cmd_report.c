/*
 * cmd_report.c - `schedlab report -m MACHINE -p POLICY [-p ...] -w WORKLOAD
 * [-r REPS] [-s SEED] -o FILE` (what `run` would run) or `schedlab report
 * EXPERIMENT [...] [-r REPS] [--row LABEL] -o FILE` (what `reproduce`
 * would): the same
 * runs, written as one self-contained HTML page (report/html.h) with the
 * tables the command prints and pictures of what the CPUs did.  FILE
 * appears only when complete (base/outfile.h); - is standard output.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/outfile.h"
#include "cli/cli.h"
#include "report/experiment.h"
#include "report/html.h"
#include "report/reproduce.h"
#include "report/sweep.h"

#define MAX_POLICIES 64
#define MAX_EXPERIMENTS 64

struct report_args {
	const char *machine, *workload, *out;
	const char *row;	/* --row LABEL: the experiments' row the pictures show */
	const char *policy[MAX_POLICIES];
	int npolicies;
	const char *names[MAX_EXPERIMENTS];
	int nnames;
	int reps;		/* 0: not given (run: 1; experiments: their own) */
	uint64_t seed;
	bool seed_given;
};

static int parse_one(int argc, char **argv, int *i, struct report_args *a, struct sl_err *err)
{
	const char *v;
	int m;

	if ((m = cli_option(argc, argv, i, "-o", "--output", &v, err)))
		return m < 0 ? -1 : cli_once("report", &a->out, "-o", v, err);
	if ((m = cli_long_option(argc, argv, i, "--row", &v, err)))
		return m < 0 ? -1 : cli_once("report", &a->row, "--row", v, err);
	if ((m = cli_option(argc, argv, i, "-m", "--machine", &v, err)))
		return m < 0 ? -1 : cli_once("report", &a->machine, "-m", v, err);
	if ((m = cli_option(argc, argv, i, "-w", "--workload", &v, err)))
		return m < 0 ? -1 : cli_once("report", &a->workload, "-w", v, err);
	if ((m = cli_option(argc, argv, i, "-p", "--policy", &v, err))) {
		if (m < 0)
			return -1;
		if (a->npolicies == MAX_POLICIES)
			return sl_fail(err, "report: -p '%s': at most %d policies", v, MAX_POLICIES);
		a->policy[a->npolicies++] = v;
		return 0;
	}
	if ((m = cli_option(argc, argv, i, "-r", "--reps", &v, err)))
		return m < 0 ? -1 : cli_parse_reps("-r", v, &a->reps, err);
	if ((m = cli_option(argc, argv, i, "-s", "--seed", &v, err))) {
		a->seed_given = true;
		return m < 0 ? -1 : cli_parse_seed("-s", v, &a->seed, err);
	}
	if (argv[*i][0] == '-')
		return cli_unexpected("report", argv[*i], "-m, -p, -w, -r, -s, --row or -o FILE",
				      err);
	if (a->nnames == MAX_EXPERIMENTS)
		return sl_fail(err, "report: '%s': at most %d experiments", argv[*i],
			       MAX_EXPERIMENTS);
	a->names[a->nnames++] = argv[*i];
	return 0;
}

static int parse_args(int argc, char **argv, struct report_args *a, struct sl_err *err)
{
	for (int i = 1; i < argc; i++)
		if (parse_one(argc, argv, &i, a, err))
			return -1;
	if (!a->out)
		return sl_fail(err, "report: missing -o FILE (the HTML page; - for standard output)");
	bool run = a->machine || a->npolicies || a->workload;
	if (run && a->nnames)
		return sl_fail(err, "report: experiment '%s' and -m/-p/-w given (expected either "
			       "experiments, as reproduce, or -m -p -w, as run)", a->names[0]);
	if (!run && !a->nnames)
		return sl_fail(err, "report: nothing to run (expected -m MACHINE -p POLICY -w "
			       "WORKLOAD, or experiment names; see 'schedlab list experiments')");
	if (run && a->row)
		return sl_fail(err, "report: --row '%s' is for experiments (a run has one workload)",
			       a->row);
	if (a->nnames && a->seed_given)
		return sl_fail(err, "report: -s: experiments run with their own seeds (as reproduce)");
	if (!run)
		return 0;
	if (!a->machine)
		return sl_fail(err, "report: missing -m MACHINE (see 'schedlab list machines')");
	if (!a->npolicies)
		return sl_fail(err, "report: missing -p POLICY (see 'schedlab list policies')");
	if (!a->workload)
		return sl_fail(err, "report: missing -w WORKLOAD (see 'schedlab list workloads')");
	return 0;
}

/* What `run` would run, as a page on `out`. */
static int report_run(const struct report_args *a, const char *cmdline, struct sl_outfile *out,
		      struct sl_err *err)
{
	struct sl_sweep *s = sl_sweep_new(a->machine, a->reps ? a->reps : 1, a->seed, err);
	int rc = -1;

	if (!s)
		return -1;
	if (!cli_run_add_policies(s, a->policy, a->npolicies, a->workload, err) &&
	    !sl_outfile_open(out, a->out, "report: -o", err)) {
		rc = sl_sweep_run(s, sl_sweep_default_threads(), err) ||
		     sl_html_run_page(out->f, s, cmdline, err) ? -1 : 0;
		if (rc)
			sl_outfile_abort(out);
		else
			rc = sl_outfile_commit(out, "report: -o", err);
	}
	sl_sweep_free(s);
	return rc;
}

/* What `reproduce` would run, as a page on `out`. */
static int report_experiments(const struct report_args *a, const char *cmdline,
			      struct sl_outfile *out, struct sl_err *err)
{
	struct sl_experiment *exps = sl_xcalloc((size_t)a->nnames, sizeof(*exps));
	struct sl_exp_result *res = sl_xcalloc((size_t)a->nnames, sizeof(*res));
	int rc = 0, loaded = 0;

	for (; loaded < a->nnames && !rc; loaded++)	/* a bad name fails before any run */
		rc = sl_experiment_load(&exps[loaded], a->names[loaded], err);
	for (int i = 0; i < a->nnames && !rc && a->row; i++)
		if (sl_html_exp_row(&exps[i], a->row) < 0)
			rc = sl_fail(err, "report: --row '%s': experiment %s has no such row (see "
				     "'schedlab reproduce %s')", a->row, a->names[i], a->names[i]);
	if (!rc)
		rc = sl_outfile_open(out, a->out, "report: -o", err);
	for (int i = 0; i < a->nnames && !rc; i++)
		rc = sl_experiment_run(&exps[i], a->reps, sl_sweep_default_threads(), &res[i], err);
	if (!rc)
		rc = sl_html_exp_page(out->f, res, a->nnames, a->row, cmdline, err);
	if (!rc)
		rc = sl_outfile_commit(out, "report: -o", err);
	else
		sl_outfile_abort(out);
	for (int i = 0; i < a->nnames; i++)
		sl_exp_result_free(&res[i]);
	for (int i = 0; i < loaded; i++)
		sl_experiment_free(&exps[i]);
	free(res);
	free(exps);
	return rc;
}

int cmd_report(int argc, char **argv)
{
	struct report_args a = { .seed = 1 };
	struct sl_err err = { 0 };
	struct sl_outfile out = { 0 };
	char *cmdline;
	int rc;

	if (argc == 2 && cli_is_help(argv[1])) {
		fputs(cli_usage("report"), stdout);
		return cli_finish_output();
	}
	if (parse_args(argc, argv, &a, &err))
		return cli_report(&err);
	cmdline = cli_command_line(argc, argv);
	rc = a.nnames ? report_experiments(&a, cmdline, &out, &err)
		      : report_run(&a, cmdline, &out, &err);
	free(cmdline);
	if (rc)
		return cli_report(&err);
	return cli_finish_output();
}
