/*
 * cmd_run.c - `schedlab run -m MACHINE -p POLICY [-p POLICY ...] -w WORKLOAD
 * [-r REPS] [-s SEED] [-o table|json|csv] [--stats]`.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "report/output.h"
#include "report/sweep.h"

#define MAX_POLICIES 64

struct run_args {
	const char *machine, *workload;
	const char *policy[MAX_POLICIES];
	int npolicies;
	int reps;
	uint64_t seed;
	enum sl_format format;
	bool stats;
};

/* Set a value that may be given only once. */
static int once(const char **slot, const char *opt, const char *value, struct sl_err *err)
{
	if (*slot)
		return sl_fail(err, "run: %s given twice ('%s' and '%s'; expected one)", opt,
			       *slot, value);
	*slot = value;
	return 0;
}

/* One argument at argv[*i]: 0 handled, -1 error (err set). */
static int parse_one(int argc, char **argv, int *i, struct run_args *a, struct sl_err *err)
{
	const char *v;
	int m;

	if (!strcmp(argv[*i], "--stats")) {
		a->stats = true;
		return 0;
	}
	if ((m = cli_option(argc, argv, i, "-m", "--machine", &v, err)))
		return m < 0 ? -1 : once(&a->machine, "-m", v, err);
	if ((m = cli_option(argc, argv, i, "-w", "--workload", &v, err)))
		return m < 0 ? -1 : once(&a->workload, "-w", v, err);
	if ((m = cli_option(argc, argv, i, "-p", "--policy", &v, err))) {
		if (m < 0)
			return -1;
		if (a->npolicies == MAX_POLICIES)
			return sl_fail(err, "run: -p '%s': at most %d policies", v, MAX_POLICIES);
		a->policy[a->npolicies++] = v;
		return 0;
	}
	if ((m = cli_option(argc, argv, i, "-r", "--reps", &v, err)))
		return m < 0 ? -1 : cli_parse_reps("-r", v, &a->reps, err);
	if ((m = cli_option(argc, argv, i, "-s", "--seed", &v, err)))
		return m < 0 ? -1 : cli_parse_seed("-s", v, &a->seed, err);
	if ((m = cli_option(argc, argv, i, "-o", "--output", &v, err)))
		return m < 0 ? -1 : cli_parse_format("-o", v, true, &a->format, err);
	if (argv[*i][0] == '-')
		return sl_fail(err, "run: unknown option '%s' (expected -m, -p, -w, -r, -s, -o "
			       "or --stats)", argv[*i]);
	return sl_fail(err, "run: unexpected argument '%s' (options are -m, -p, -w, -r, -s, "
		       "-o, --stats)", argv[*i]);
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
	return 0;
}

/* Add every policy; two columns may not share a label. */
static int add_policies(struct sl_sweep *s, const struct run_args *a, struct sl_err *err)
{
	for (int p = 0; p < a->npolicies; p++) {
		int before = s->ncells;
		int cell = sl_sweep_add(s, a->policy[p], a->workload, err);
		if (cell < 0)
			return -1;
		for (int q = 0; q < s->ncells; q++)
			if ((cell < before || q != cell) &&
			    !strcmp(s->cells[q]->label, s->cells[cell]->label))
				return sl_fail(err, "run: -p '%s': label '%s' used twice (expected "
					       "distinct policies; label=TEXT names a column)",
					       a->policy[p], s->cells[cell]->label);
	}
	return 0;
}

static void print_results(const struct sl_sweep *s, enum sl_format format)
{
	switch (format) {
	case SL_FORMAT_TABLE:
		sl_out_run_table(stdout, s);
		break;
	case SL_FORMAT_JSON:
		sl_out_run_json(stdout, s);
		break;
	case SL_FORMAT_CSV:
		sl_out_run_csv(stdout, s);
		break;
	}
}

int cmd_run(int argc, char **argv)
{
	struct run_args a = { .reps = 1, .seed = 1, .format = SL_FORMAT_TABLE };
	struct sl_err err = { 0 };
	struct sl_sweep *s;
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
	if (add_policies(s, &a, &err)) {
		sl_sweep_free(s);
		return cli_report(&err);
	}
	t0 = cli_wall_seconds();
	if (sl_sweep_run(s, SL_SWEEP_THREADS, &err)) {
		sl_sweep_free(s);
		return cli_report(&err);
	}
	if (a.stats)
		cli_print_stats(s->events, cli_wall_seconds() - t0);
	print_results(s, a.format);
	rc = cli_finish_output();
	sl_sweep_free(s);
	return rc;
}
