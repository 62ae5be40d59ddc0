/*
 * cmd_reproduce.c - `schedlab reproduce [EXPERIMENT|FILE.json ...] [-r REPS]
 * [-o table|json] [-j N] [--quiet|--progress] [--stats] [--max-mem SIZE]`:
 * run experiments - built-in ones by name, a user's files by path
 * (docs/experiments.md) - and print each table beside the published
 * numbers (one per machine of an experiment's list); with several (or none
 * named: all of them), a scoreboard of the cells within tolerance ends
 * the output.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "cli/shard_cli.h"
#include "report/experiment.h"
#include "report/experiment_data.h"
#include "report/output.h"
#include "report/reproduce.h"

struct reproduce_args {
	const char **names;	/* experiments to run, in order */
	int nnames;
	int reps;		/* 0: each experiment's own */
	int jobs;		/* -j: worker threads */
	const char *jobs_text;
	bool quiet, progress;
	enum sl_format format;
	bool stats;
	bool all;		/* no experiment named: every built-in one */
	struct cli_given given;
};

static int parse_one(int argc, char **argv, int *i, struct reproduce_args *a,
		     struct sl_err *err)
{
	const char *v;
	int m;

	if ((m = cli_how_option("reproduce", argc, argv, i, &a->stats, &a->quiet, &a->progress,
				&a->jobs_text, &a->jobs, err)))
		return m < 0 ? -1 : 0;
	if ((m = cli_max_mem("reproduce", argc, argv, i, err)))
		return m < 0 ? -1 : 0;
	if ((m = cli_shard_option("reproduce", argc, argv, i, err)))	/* docs/scale-out.md */
		return m < 0 ? -1 : 0;
	if ((m = cli_option(argc, argv, i, "-r", "--reps", &v, err)))
		return m < 0 || cli_once("reproduce", &a->given.reps, "-r", v, err) ? -1 :
		       cli_parse_reps("-r", v, &a->reps, err);
	if ((m = cli_option(argc, argv, i, "-o", "--output", &v, err)))
		return m < 0 || cli_once("reproduce", &a->given.format, "-o", v, err) ? -1 :
		       cli_parse_format("-o", v, 0, &a->format, err);
	if (argv[*i][0] == '-')
		return sl_fail(err, "reproduce: unknown option '%s' (expected -r, -o, -j, --quiet, "
			       "--progress, --stats, --max-mem or --shard)", argv[*i]);
	a->names[a->nnames++] = argv[*i];
	return 0;
}

static int parse_args(int argc, char **argv, struct reproduce_args *a, struct sl_err *err)
{
	int nfiles = 0;

	while (sl_experiment_files[nfiles].name)
		nfiles++;
	a->names = sl_xcalloc((unsigned long)(argc + nfiles), sizeof(*a->names));
	for (int i = 1; i < argc; i++)
		if (parse_one(argc, argv, &i, a, err))
			return -1;
	if (a->quiet && a->progress)
		return sl_fail(err, "reproduce: --quiet and --progress (expected at most one)");
	if (cli_shard_check("reproduce", &a->format, a->given.format, NULL, err))
		return -1;
	if (!a->nnames) {
		a->all = true;
		for (int i = 0; i < nfiles; i++)
			a->names[a->nnames++] = sl_experiment_files[i].name;
		if (!a->nnames)
			return sl_fail_internal(err, "reproduce: no experiments are built in");
	}
	return 0;
}

/* Load and check every experiment first - each table of each - so that a
 * bad name, a bad file or a run beyond the memory limit fails before any
 * run.  *runs: what they will run, for the progress line. */
static int load_all(const struct reproduce_args *a, struct sl_experiment **exps, int *nexps,
		    long *runs, struct sl_err *err)
{
	*runs = 0;
	for (int i = 0; i < a->nnames; i++) {
		struct sl_experiment *t;
		int n;
		if (sl_experiment_load_tables(a->names[i], &t, &n, err))
			return -1;
		*exps = sl_xrealloc(*exps, sizeof(**exps) * (unsigned long)(*nexps + n));
		memcpy(*exps + *nexps, t, sizeof(*t) * (unsigned long)n);
		*nexps += n;
		free(t);
	}
	for (int i = 0; i < *nexps; i++) {
		long r;
		if (sl_experiment_check_runs(&(*exps)[i], a->reps, &r, err))
			return -1;
		*runs += r;
	}
	return 0;
}

static int run_all(const struct reproduce_args *a, struct sl_experiment *exps, int nexps,
		   long runs, struct sl_exp_result *res, struct sl_err *err)
{
	struct sl_event_counts events = { 0 };
	double t0 = cli_wall_seconds(), cpu0 = cli_cpu_seconds();
	struct cli_progress progress;
	int rc = 0;

	cli_progress_start(&progress, runs, a->quiet, a->progress);
	for (int i = 0; i < nexps && !rc; i++) {
		rc = sl_experiment_run_progress(&exps[i], a->reps, a->jobs,
						cli_progress_sink(&progress), &res[i], err);
		if (!rc) {
			sl_event_counts_add(&events, &res[i].sweep->events);
			if (res[i].base_sweep)
				sl_event_counts_add(&events, &res[i].base_sweep->events);
		}
	}
	cli_progress_end(&progress);
	if (!rc && a->stats)
		cli_print_stats(&events, cli_wall_seconds() - t0, cli_cpu_seconds() - cpu0);
	return rc;
}

static void print_results(const struct reproduce_args *a, const struct sl_exp_result *res,
			  int nexps)
{
	if (a->format == SL_FORMAT_JSON) {
		sl_out_exp_json(stdout, res, nexps);
		return;
	}
	for (int i = 0; i < nexps; i++) {
		if (i)
			fputc('\n', stdout);
		sl_out_exp_table(stdout, &res[i]);
	}
	if (a->nnames > 1 || a->all) {
		fputc('\n', stdout);
		sl_out_exp_scoreboard(stdout, res, nexps);
	}
}

int cmd_reproduce(int argc, char **argv)
{
	struct reproduce_args a = { .format = SL_FORMAT_TABLE, .jobs = sl_sweep_default_threads() };
	struct sl_err err = { 0 };
	struct sl_experiment *exps = NULL;
	struct sl_exp_result *res = NULL;
	int nexps = 0, rc;
	long runs;

	if (argc == 2 && cli_is_help(argv[1])) {
		fputs(cli_usage("reproduce"), stdout);
		return cli_finish_output();
	}
	if (parse_args(argc, argv, &a, &err)) {
		rc = cli_report(&err);
		goto out;
	}
	if (load_all(&a, &exps, &nexps, &runs, &err)) {
		rc = cli_report(&err);
		goto out;
	}
	res = sl_xcalloc((unsigned long)nexps, sizeof(*res));
	if (run_all(&a, exps, nexps, runs, res, &err)) {
		rc = cli_report(&err);
		goto out;
	}
	if (cli_shard_slicing()) {	/* the slice's runs, for merge */
		rc = cli_shard_finish(argc, argv);
		goto out;
	}
	print_results(&a, res, nexps);
	rc = cli_finish_output();
out:
	for (int i = 0; res && i < nexps; i++)
		sl_exp_result_free(&res[i]);
	for (int i = 0; exps && i < nexps; i++)
		sl_experiment_free(&exps[i]);
	free(res);
	free(exps);
	free(a.names);
	return rc;
}
