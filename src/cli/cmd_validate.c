/*
 * cmd_validate.c - `schedlab validate -w WORKLOAD [-p POLICY] [-m MACHINE]
 * [--sim WORKLOAD] [--work measured|recorded] [-r REPS] [-s SEED]
 * [-o table|json|csv] [--latency] [--calibrate] [--max-mem SIZE]`: run a
 * workload for real on this host, simulate its counterpart (validate.h) on
 * the host's model, and print the two side by side with the simulation's
 * error.  The real runs go first, so that the
 * simulation's threads do not disturb them; the counterpart takes the work
 * it needs from them, unless --work recorded.  The hook for recorded
 * traces is --sim: any simulated workload, e.g. a trace replay.  With
 * --calibrate a pinned pingpong first measures the host's kernel-path speed
 * (calibrate.c) and the model runs on host,kcost=F.  Without -p the
 * simulation runs cfs with the host kernel's preemption model, HZ and
 * NO_HZ (real/kconfig.h).
 */
#include <json.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli/calibrate.h"
#include "cli/cli.h"
#include "cli/cmd_real.h"
#include "cli/perf_tools.h"
#include "policy/policy.h"
#include "real/kconfig.h"
#include "real/proc.h"
#include "real/validate.h"
#include "report/sweep.h"

#define MAX_ROWS (2 * SL_MAX_METRICS)

struct val_args {
	const char *workload, *policy, *machine, *sim;
	bool recorded;		/* --work recorded: the model's work from recorded figures */
	bool latency;		/* --latency: the real runs' waits, recorded with perf */
	bool calibrate;		/* --calibrate: measure kcost first (calibrate.c) */
	int reps;
	uint64_t seed;
	enum sl_format format;
	struct cli_given given;
	const char *work;	/* --work as given */
	char host_policy[192];	/* without -p: cfs with the host kernel's knobs */
	char host_said[512];	/* what was read of the host kernel, for the printers */
};

static int parse_one(int argc, char **argv, int *i, struct val_args *a, struct sl_err *err)
{
	const char *v;
	int m;

	if ((m = cli_option(argc, argv, i, "-w", "--workload", &v, err)))
		return m < 0 ? -1 : cli_once("validate", &a->workload, "-w", v, err);
	if ((m = cli_option(argc, argv, i, "-p", "--policy", &v, err)))
		return m < 0 ? -1 : cli_once("validate", &a->policy, "-p", v, err);
	if ((m = cli_option(argc, argv, i, "-m", "--machine", &v, err)))
		return m < 0 ? -1 : cli_once("validate", &a->machine, "-m", v, err);
	if ((m = cli_long_option(argc, argv, i, "--sim", &v, err)))
		return m < 0 ? -1 : cli_once("validate", &a->sim, "--sim", v, err);
	if ((m = cli_long_option(argc, argv, i, "--work", &v, err))) {
		if (m < 0 || cli_once("validate", &a->work, "--work", v, err))
			return -1;
		if (strcmp(v, "measured") && strcmp(v, "recorded"))
			return sl_fail(err, "validate: --work '%s': expected measured or "
				       "recorded", v);
		a->recorded = !strcmp(v, "recorded");
		return 0;
	}
	if ((m = cli_max_mem("validate", argc, argv, i, err)))
		return m < 0 ? -1 : 0;
	if (!strcmp(argv[*i], "--calibrate")) {
		if (a->calibrate)
			return sl_fail(err, "validate: --calibrate given twice (expected one)");
		a->calibrate = true;
		return 0;
	}
	if (!strcmp(argv[*i], "--latency")) {
		if (a->latency)
			return sl_fail(err, "validate: --latency given twice (expected one)");
		a->latency = true;
		return 0;
	}
	if ((m = cli_reps_seed_format("validate", argc, argv, i, &a->reps, &a->seed,
					&a->format, &a->given, err)))
		return m < 0 ? -1 : 0;
	return cli_unexpected("validate", argv[*i], "-w, -p, -m, --sim, --work, -r, -s, -o, "
			      "--latency, --calibrate or --max-mem", err);
}

/* What was compared, for the printers. */
struct val_result {
	char workload[1024];	/* the real workload as run */
	char real_label[256];
	char sim_workload[1024];	/* "" when there is no counterpart */
	char note[512];		/* why there is none */
	const struct sl_sweep *sim;	/* NULL when there is none */
	bool calibrated;
	struct cli_calibration cal;	/* when calibrated */
	const char *host_said;	/* without -p: what the host kernel is, else NULL */
	int reps;
	uint64_t seed;
	int nrows;
	struct sl_val_row rows[MAX_ROWS];
};

/* ---- table ---- */

static int decimals(double v, const char *unit, bool mean)
{
	int d = 2;

	if (!strcmp(unit, "count"))
		return mean ? 1 : 0;
	if (v != 0 && isfinite(v) && 2 - (int)floor(log10(fabs(v))) > d)
		d = 2 - (int)floor(log10(fabs(v)));
	return d > 4 ? 4 : d;
}

static void cell(char *buf, size_t size, const struct sl_summary *s, const char *unit)
{
	if (!s->n)
		snprintf(buf, size, "-");
	else if (s->n == 1)
		snprintf(buf, size, "%.*f", decimals(s->mean, unit, false), s->mean);
	else
		snprintf(buf, size, "%.*f (%.*f)", decimals(s->mean, unit, true), s->mean,
			 decimals(s->mean, unit, true), s->sd);
}

static void print_table(const struct val_result *r)
{
	enum { NCOL = 5 };
	char (*text)[NCOL][64] = sl_xcalloc((unsigned long)(r->nrows + 1), sizeof(*text));
	int width[NCOL] = { 0 };

	printf("validate %s: %d run%s each\n", r->workload, r->reps, r->reps > 1 ? "s" : "");
	printf("  %s\n", r->real_label);
	if (r->host_said)
		printf("  %s\n", r->host_said);
	if (r->calibrated) {
		printf("  calibrated: pingpong pinned to CPU %d, round trip %.2f us real, %.2f us "
		       "simulated at kcost=1: kcost=%.4g\n", r->cal.cpu, r->cal.real_us, r->cal.sim_us,
		       r->cal.kcost);
		printf("  cross-check: the same over a socket pair, %.2f us real, %.2f us simulated: "
		       "%.4g\n", r->cal.sock_real_us, r->cal.sock_sim_us, r->cal.sock_kcost);
	}
	if (r->sim && r->reps == 1)
		printf("  simulated: %s under %s on %s (%s), seed %llu\n", r->sim_workload,
		       r->sim->cells[0]->label, r->sim->machine.name, r->sim->machine.summary,
		       (unsigned long long)r->seed);
	else if (r->sim)
		printf("  simulated: %s under %s on %s (%s), seeds %llu-%llu\n", r->sim_workload,
		       r->sim->cells[0]->label, r->sim->machine.name, r->sim->machine.summary,
		       (unsigned long long)r->seed,
		       (unsigned long long)(r->seed + (uint64_t)r->reps - 1));
	else
		printf("  simulated: none: %s\n", r->note);
	if (r->reps > 1)
		printf("  cells: mean (sd); error: of the simulated mean against the real one\n");
	putchar('\n');
	snprintf(text[0][0], 64, "metric");
	snprintf(text[0][1], 64, "unit");
	snprintf(text[0][2], 64, "real");
	snprintf(text[0][3], 64, "simulated");
	snprintf(text[0][4], 64, "error");
	for (int i = 0; i < r->nrows; i++) {
		const struct sl_val_row *row = &r->rows[i];
		snprintf(text[i + 1][0], 64, "%s", row->name);
		snprintf(text[i + 1][1], 64, "%s", row->unit);
		cell(text[i + 1][2], 64, &row->real, row->unit);
		cell(text[i + 1][3], 64, &row->sim, row->unit);
		if (isfinite(row->error_pct))
			snprintf(text[i + 1][4], 64, "%+.1f%%", row->error_pct);
		else
			snprintf(text[i + 1][4], 64, "-");
	}
	for (int i = 0; i <= r->nrows; i++)
		for (int c = 0; c < NCOL; c++)
			if ((int)strlen(text[i][c]) > width[c])
				width[c] = (int)strlen(text[i][c]);
	for (int i = 0; i <= r->nrows; i++) {
		for (int c = 0; c < NCOL - 1; c++)
			printf("%-*s  ", width[c], text[i][c]);
		printf("%s\n", text[i][NCOL - 1]);
	}
	free(text);
}

/* ---- JSON and CSV ---- */

static struct json_object *number(double v)
{
	char buf[40];

	if (!isfinite(v))
		return NULL;
	snprintf(buf, sizeof(buf), "%.10g", v);
	return json_object_new_double_s(v, buf);
}

static struct json_object *summary(const struct sl_summary *s)
{
	struct json_object *o;

	if (!s->n)
		return NULL;
	o = json_object_new_object();
	json_object_object_add(o, "mean", number(s->mean));
	json_object_object_add(o, "sd", number(s->sd));
	json_object_object_add(o, "min", number(s->min));
	json_object_object_add(o, "max", number(s->max));
	json_object_object_add(o, "n", json_object_new_int(s->n));
	return o;
}

static void print_json(const struct val_result *r)
{
	struct json_object *root = json_object_new_object(), *real = json_object_new_object();
	struct json_object *sim = NULL, *metrics = json_object_new_array();

	json_object_object_add(root, "workload", json_object_new_string(r->workload));
	json_object_object_add(root, "reps", json_object_new_int(r->reps));
	json_object_object_add(real, "label", json_object_new_string(r->real_label));
	if (r->host_said)
		json_object_object_add(real, "kernel", json_object_new_string(r->host_said));
	json_object_object_add(root, "real", real);
	if (r->calibrated) {
		struct json_object *cal = json_object_new_object();
		json_object_object_add(cal, "cpu", json_object_new_int(r->cal.cpu));
		json_object_object_add(cal, "loops", json_object_new_int64(r->cal.loops));
		json_object_object_add(cal, "real_round_trip_us", number(r->cal.real_us));
		json_object_object_add(cal, "simulated_round_trip_us", number(r->cal.sim_us));
		json_object_object_add(cal, "kcost", number(r->cal.kcost));
		json_object_object_add(cal, "socket_real_round_trip_us", number(r->cal.sock_real_us));
		json_object_object_add(cal, "socket_simulated_round_trip_us",
				       number(r->cal.sock_sim_us));
		json_object_object_add(cal, "socket_kcost", number(r->cal.sock_kcost));
		json_object_object_add(root, "calibration", cal);
	}
	if (r->sim) {
		sim = json_object_new_object();
		json_object_object_add(sim, "workload", json_object_new_string(r->sim_workload));
		json_object_object_add(sim, "policy",
				       json_object_new_string(r->sim->cells[0]->policy_text));
		json_object_object_add(sim, "machine",
				       json_object_new_string(r->sim->machine.name));
		json_object_object_add(sim, "machine_summary",
				       json_object_new_string(r->sim->machine.summary));
		json_object_object_add(sim, "seed", json_object_new_uint64(r->seed));
	}
	json_object_object_add(root, "simulated", sim);
	json_object_object_add(root, "note", r->sim ? NULL : json_object_new_string(r->note));
	for (int i = 0; i < r->nrows; i++) {
		struct json_object *m = json_object_new_object();
		json_object_object_add(m, "name", json_object_new_string(r->rows[i].name));
		json_object_object_add(m, "unit", json_object_new_string(r->rows[i].unit));
		json_object_object_add(m, "real", summary(&r->rows[i].real));
		json_object_object_add(m, "simulated", summary(&r->rows[i].sim));
		json_object_object_add(m, "error_pct", number(r->rows[i].error_pct));
		json_object_array_add(metrics, m);
	}
	json_object_object_add(root, "metrics", metrics);
	fputs(json_object_to_json_string_ext(root, JSON_C_TO_STRING_PRETTY |
					     JSON_C_TO_STRING_SPACED |
					     JSON_C_TO_STRING_NOSLASHESCAPE), stdout);
	putchar('\n');
	json_object_put(root);
}

static void csv_value(const struct sl_summary *s, bool sd)
{
	if (s->n)
		printf(",%.10g", sd ? s->sd : s->mean);
	else
		printf(",");
}

static void print_csv(const struct val_result *r)
{
	printf("metric,unit,real_mean,real_sd,real_n,sim_mean,sim_sd,sim_n,error_pct\n");
	for (int i = 0; i < r->nrows; i++) {
		const struct sl_val_row *row = &r->rows[i];
		printf("%s,%s", row->name, row->unit);
		csv_value(&row->real, false);
		csv_value(&row->real, true);
		printf(",%d", row->real.n);
		csv_value(&row->sim, false);
		csv_value(&row->sim, true);
		printf(",%d,", row->sim.n);
		if (isfinite(row->error_pct))
			printf("%.4g", row->error_pct);
		putchar('\n');
	}
}

/* ---- the command ---- */

/* The simulated counterpart's spec into r->sim_workload: --sim as given,
 * else built from the real runs (nreal > 0, unless --work recorded).
 * Returns 1 with r->note saying why when there is none. */
static int sim_spec(const struct val_args *a, const struct sl_real_workload *w,
		    const struct sl_params *params, const struct sl_metrics *real, int nreal,
		    struct val_result *r)
{
	struct sl_err none = { 0 };

	if (a->sim) {
		snprintf(r->sim_workload, sizeof(r->sim_workload), "%s", a->sim);
		return 0;
	}
	if (sl_real_counterpart(w, params, real, a->recorded ? 0 : nreal, r->sim_workload,
				sizeof(r->sim_workload), &none)) {
		snprintf(r->note, sizeof(r->note), "%s", none.msg);
		r->sim_workload[0] = 0;
		return 1;
	}
	return 0;
}

/* The simulated policy: -p, else cfs with the host kernel's knobs
 * (host_policy), or o1 in a build without cfs. */
static const char *sim_policy(const struct val_args *a)
{
	return a->policy ? a->policy : a->host_policy[0] ? a->host_policy : "o1";
}

/* Without -p: read the host kernel's configuration into a->host_policy
 * (cfs and its knobs) and a->host_said. */
static void host_policy(struct val_args *a)
{
	struct sl_kconfig k;
	char knobs[128];

	if (a->policy || !sl_policy_find("cfs"))
		return;
	sl_kconfig_read_host(&k);
	sl_kconfig_cfs_knobs(&k, knobs, sizeof(knobs), a->host_said, sizeof(a->host_said));
	snprintf(a->host_policy, sizeof(a->host_policy), "cfs%s%s", knobs[0] ? ":" : "", knobs);
}

/* A one-cell sweep simulating r->sim_workload; NULL + err on bad input. */
static struct sl_sweep *sim_sweep(const struct val_args *a, const struct val_result *r,
				  struct sl_err *err)
{
	const char *policy = sim_policy(a);
	struct sl_sweep *s = sl_sweep_new(a->machine ? a->machine : "host", a->reps, a->seed, err);

	if (s && sl_sweep_add(s, policy, r->sim_workload, err) < 0) {
		sl_err_prefix(err, "validate: ");
		sl_sweep_free(s);
		s = NULL;
	}
	return s;
}

static void print_result(const struct val_result *r, enum sl_format format)
{
	if (format == SL_FORMAT_JSON)
		print_json(r);
	else if (format == SL_FORMAT_CSV)
		print_csv(r);
	else
		print_table(r);
}

/* One line on stderr when other processes took more of the host than the
 * comparison's tolerance (sl_val_other_load). */
static void busy_host_warning(const struct sl_metrics *real, int nreal)
{
	long n = sysconf(_SC_NPROCESSORS_ONLN);
	int cpus = n > 0 ? (int)n : 1;
	double other = sl_val_other_load(real, nreal, cpus);

	if (other > 0)
		fprintf(stderr, "schedlab: validate: warning: other processes used %.0f %% of a CPU "
			"during a real run, more than %.0f %% (a tenth of this host's %d CPU%s): "
			"the real figures measure that load too, and the comparison says little "
			"about the model (run it on an idle host)\n", other,
			SL_VAL_OTHER_LOAD_PCT * cpus, cpus, cpus == 1 ? "" : "s");
}

/* One line on stderr when the model did unlike CPU work (sl_val_unlike_work). */
static void unlike_work_warning(const struct sl_metrics *real, const struct sl_sweep *sim,
				int reps, bool calibrated)
{
	double pct = sim ? sl_val_unlike_work(real, reps, sim->metrics, reps) : 0;

	if (pct != 0)
		fprintf(stderr, "schedlab: validate: warning: the simulated runs used %.0f %% %s CPU "
			"time (user + sys) than the real ones, more than %.0f %% apart: the model's "
			"costs are not this host's at this hour (a VM's speed changes under it%s), and "
			"the elapsed times compare unlike work\n", fabs(pct), pct > 0 ? "more" : "less",
			SL_VAL_WORK_PCT, calibrated ? "" : "; --calibrate measures it first");
}

int cmd_validate(int argc, char **argv)
{
	struct val_args a = { .reps = 1, .seed = 1, .format = SL_FORMAT_TABLE };
	const struct sl_real_workload *w;
	struct sl_err err = { 0 };
	struct sl_params params;
	struct sl_real_env env;
	struct sl_sweep *sim = NULL;
	struct sl_metrics *real = NULL;
	struct val_result *r;
	int rc, none;

	if (argc == 2 && cli_is_help(argv[1])) {
		fputs(cli_usage("validate"), stdout);
		return cli_finish_output();
	}
	for (int i = 1; i < argc; i++)
		if (parse_one(argc, argv, &i, &a, &err))
			return cli_report(&err);
	/* its sweep comes after the real runs: the seeds first */
	if (sl_sweep_check_seeds(a.reps, a.seed, &err))
		return cli_report(&err);
	if (cli_real_setup("validate", a.workload, NULL, &w, &params, &env, &err) ||
	    (a.calibrate && cli_calibrate_check(a.machine, &err)))
		return cli_report(&err);
	host_policy(&a);
	r = sl_xcalloc(1, sizeof(*r));
	r->reps = a.reps;
	r->seed = a.seed;
	r->host_said = a.host_said[0] ? a.host_said : NULL;
	sl_real_spec_text(w, &params, r->workload, sizeof(r->workload));
	cli_real_label(&env, r->real_label, sizeof(r->real_label));
	/* check the simulated side before anything runs for real */
	none = sim_spec(&a, w, &params, NULL, 0, r);
	if (!none && !(sim = sim_sweep(&a, r, &err))) {
		rc = cli_report(&err);
		goto out;
	}
	sl_sweep_free(sim);
	sim = NULL;
	if (a.calibrate) {	/* just before the real runs: the same hour */
		if (cli_calibrate(a.machine, sim_policy(&a), a.seed, &r->cal, &err)) {
			rc = sl_real_interrupted() ? cli_real_interrupted(&err) : cli_report(&err);
			goto out;
		}
		r->calibrated = true;
		a.machine = r->cal.machine;
		double apart = cli_calibrate_apart(&r->cal);
		if (apart != 0)
			fprintf(stderr, "schedlab: validate: warning: --calibrate: a socket's round "
				"trip gives kcost=%.3g, %.0f %% %s the pipe's %.3g: this host's kernel "
				"paths did not move together, and one factor cannot follow both (the "
				"pipe's is used; docs/validation.md)\n", r->cal.sock_kcost, fabs(apart),
				apart > 0 ? "above" : "below", r->cal.kcost);
	}
	real = sl_xcalloc((unsigned long)a.reps, sizeof(*real));
	struct cli_perf_rec rec;
	if (a.latency && (rc = cli_real_latency(&rec, "validate", &env)))
		goto out;
	rc = sl_real_run_reps(w, &params, &env, a.reps, a.seed, real, &err);
	if (a.latency)
		cli_perf_rec_cleanup(&rec);
	if (rc) {
		rc = sl_real_interrupted() ? cli_real_interrupted(&err) : cli_report(&err);
		goto out;
	}
	if (!none)
		none = sim_spec(&a, w, &params, real, a.reps, r);
	if (!none && (!(sim = sim_sweep(&a, r, &err)) ||
		      sl_sweep_run(sim, sl_sweep_default_threads(), &err))) {
		rc = cli_report(&err);
		goto out;
	}
	r->sim = sim;
	r->nrows = sl_val_compare(real, a.reps, sim ? sim->metrics : NULL, sim ? a.reps : 0,
				  r->rows, MAX_ROWS);
	print_result(r, a.format);
	rc = cli_finish_output();
	busy_host_warning(real, a.reps);
	unlike_work_warning(real, sim, a.reps, r->calibrated);
out:
	sl_sweep_free(sim);
	free(real);
	free(r);
	return rc;
}
