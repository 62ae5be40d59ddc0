/*
 * cmd_real.c - `schedlab real -w WORKLOAD [--cpus LIST] [-r REPS] [-s SEED]
 * [-o table|json|csv] [--max-mem SIZE]`: run a workload as real processes on this host and
 * print GNU time's view of it in the shapes `run` prints (one column,
 * labelled with the host's kernel).
 */
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>

#include "cli/cli.h"
#include "cli/cmd_real.h"
#include "cli/perf_tools.h"
#include "real/cpus.h"
#include "real/proc.h"
#include "real/real.h"
#include "report/output.h"
#include "report/sweep.h"

struct real_args {
	const char *workload, *cpus;
	bool latency;		/* --latency: record each repetition with perf */
	int reps;
	uint64_t seed;
	enum sl_format format;
	struct cli_given given;
};

static int parse_one(int argc, char **argv, int *i, struct real_args *a, struct sl_err *err)
{
	const char *v;
	int m;

	if ((m = cli_option(argc, argv, i, "-w", "--workload", &v, err)))
		return m < 0 ? -1 : cli_once("real", &a->workload, "-w", v, err);
	if ((m = cli_long_option(argc, argv, i, "--cpus", &v, err)))
		return m < 0 ? -1 : cli_once("real", &a->cpus, "--cpus", v, err);
	if ((m = cli_max_mem("real", argc, argv, i, err)))
		return m < 0 ? -1 : 0;
	if (!strcmp(argv[*i], "--latency")) {
		if (a->latency)
			return sl_fail(err, "real: --latency given twice (expected one)");
		a->latency = true;
		return 0;
	}
	if ((m = cli_reps_seed_format("real", argc, argv, i, &a->reps, &a->seed, &a->format,
					&a->given, err)))
		return m < 0 ? -1 : 0;
	return cli_unexpected("real", argv[*i], "-w, --cpus, -r, -s, -o, --latency or --max-mem",
			      err);
}

/* The real workloads and their parameters, after the usage. */
static void print_workloads(void)
{
	printf("\nreal workloads:\n");
	for (int i = 0; sl_real_workloads[i]; i++) {
		const struct sl_real_workload *w = sl_real_workloads[i];
		printf("  %s - %s\n", w->name, w->summary);
		for (int k = 0; w->params[k].name; k++)
			printf("      %-12s default %-10s %s\n", w->params[k].name,
			       w->params[k].def ? w->params[k].def : "derived", w->params[k].doc);
	}
}

int cli_real_latency(struct cli_perf_rec *rec, const char *cmd, struct sl_real_env *env)
{
	int rc = cli_perf_rec_init(rec, cmd);

	if (rc)
		return rc;
	env->rep_begin = cli_perf_rec_rep_begin;
	env->rep_end = cli_perf_rec_rep_end;
	env->rep_arg = rec;
	return 0;
}

int cli_real_interrupted(const struct sl_err *err)
{
	int sig = sl_real_interrupted();

	cli_report(err);
	fflush(stdout);
	fflush(stderr);
	if (sig) {	/* die of it, as the shell expects of an interrupted command */
		signal(sig, SIG_DFL);
		raise(sig);
	}
	return EXIT_INTERNAL;
}

/* A cpus= other than "all" in the spec, as a taskset list into buf ("" if
 * none); refused beside --cpus (one way to say it). */
static int param_cpus(const struct sl_real_workload *w, const struct sl_params *p,
		      const char *opt_cpus, char *buf, size_t size, struct sl_err *err)
{
	buf[0] = 0;
	for (int i = 0; i < p->n; i++) {
		if (strcmp(w->params[i].name, "cpus") || !p->given[i] || !strcmp(p->text[i], "all"))
			continue;
		if (opt_cpus)
			return sl_fail(err, "workload '%s': cpus=%s and --cpus %s (expected one)",
				       w->name, p->text[i], opt_cpus);
		if (strlen(p->text[i]) >= size)
			return sl_fail(err, "workload '%s': cpus=%s: longer than %zu characters",
				       w->name, p->text[i], size - 1);
		snprintf(buf, size, "%s", p->text[i]);
		for (char *c = buf; *c; c++)
			if (*c == '+')
				*c = ',';
	}
	return 0;
}

int cli_real_setup(const char *cmd, const char *workload, const char *cpus,
		   const struct sl_real_workload **w, struct sl_params *params,
		   struct sl_real_env *env, struct sl_err *err)
{
	cpu_set_t allowed, set;

	if (!workload)
		return sl_fail(err, "%s: missing -w WORKLOAD (see 'schedlab help %s')", cmd, cmd);
	if (sl_real_parse(workload, w, params, err))
		return -1;
	/* the workload's cpus= (as the simulated workloads take it: '+'
	 * joins) is --cpus (taskset -c) given in the spec */
	char list[256];
	if (param_cpus(*w, params, cpus, list, sizeof(list), err))
		return -1;
	const char *opt = "--cpus";
	if (list[0]) {
		cpus = list;
		opt = "cpus";
	}
	if (cpus && (sl_real_cpus_allowed(&allowed, err) ||
		     sl_real_cpus_parse(opt, cpus, &allowed, &set, err)))
		return -1;
	if (sl_real_env_init(env, cpus ? &set : NULL, err))
		return -1;
	if ((*w)->resolve)
		(*w)->resolve(params, env);
	return sl_real_check_mem(cmd, *w, params, env, err);
}

void cli_real_label(const struct sl_real_env *env, char *buf, size_t size)
{
	struct utsname u;
	char cpus[256];

	if (uname(&u))
		snprintf(u.release, sizeof(u.release), "?");
	sl_real_cpus_format(&env->cpus, cpus, sizeof(cpus));
	int n = snprintf(buf, size, "real: Linux %s, CPUs %s%s", u.release, cpus,
			 env->pinned ? " (pinned)" : "");
	if (n < 0 || (size_t)n >= size)	/* a long CPU list: count them instead of cutting */
		snprintf(buf, size, "real: Linux %.40s, %d CPUs%s", u.release, CPU_COUNT(&env->cpus),
			 env->pinned ? " (pinned)" : "");
}

/* A one-column sweep on `host` holding the real runs, for the printers. */
static struct sl_sweep *real_sweep(const struct real_args *a, const char *spec,
				   const struct sl_params *params, const struct sl_real_env *env,
				   struct sl_err *err)
{
	struct sl_sweep *s = sl_sweep_new("host", a->reps, a->seed, err);
	struct sl_sweep_cell *c;

	if (!s)
		return NULL;
	c = sl_xcalloc(1, sizeof(*c));
	c->policy_text = sl_xstrdup("real");
	c->workload_text = sl_xstrdup(spec);
	c->params = *params;	/* its text may point into *params: printed while it lives */
	cli_real_label(env, c->label, sizeof(c->label));
	s->cells = sl_xcalloc(1, sizeof(*s->cells));
	s->cells[0] = c;
	s->ncells = 1;
	s->metrics = sl_xcalloc((unsigned long)a->reps, sizeof(*s->metrics));
	return s;
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

int cmd_real(int argc, char **argv)
{
	struct real_args a = { .reps = 1, .seed = 1, .format = SL_FORMAT_TABLE };
	const struct sl_real_workload *w;
	struct sl_err err = { 0 };
	struct sl_params params;
	struct sl_real_env env;
	struct sl_sweep *s;
	char spec[1024];
	int rc;

	if (argc == 2 && cli_is_help(argv[1])) {
		fputs(cli_usage("real"), stdout);
		print_workloads();
		return cli_finish_output();
	}
	for (int i = 1; i < argc; i++)
		if (parse_one(argc, argv, &i, &a, &err))
			return cli_report(&err);
	if (cli_real_setup("real", a.workload, a.cpus, &w, &params, &env, &err))
		return cli_report(&err);
	sl_real_spec_text(w, &params, spec, sizeof(spec));
	s = real_sweep(&a, spec, &params, &env, &err);
	if (!s)
		return cli_report(&err);
	struct cli_perf_rec rec;
	if (a.latency && (rc = cli_real_latency(&rec, "real", &env))) {
		sl_sweep_free(s);
		return rc;
	}
	rc = sl_real_run_reps(w, &params, &env, a.reps, a.seed, s->metrics, &err);
	if (a.latency)
		cli_perf_rec_cleanup(&rec);
	if (rc) {
		sl_sweep_free(s);
		return sl_real_interrupted() ? cli_real_interrupted(&err) : cli_report(&err);
	}
	print_results(s, a.format);
	rc = cli_finish_output();
	sl_sweep_free(s);
	return rc;
}
