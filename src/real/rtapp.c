/*
 * rtapp.c - the real `rtapp`: Debian's rt-app 1.0 (the `rt-app` package,
 * installed by scripts/install-deps.sh) run on the host on an rt-app file,
 * the counterpart of the simulated rtapp (src/workload/rtapp/rtapp.c), so that
 * `validate -w rtapp:file=F` puts rt-app's own measurements beside the
 * simulation's.
 *
 * One repetition: the file as workgen hands it to rt-app (repeated events
 * numbered, bare "suspend" keys completed: rt_workgen_text, the text the
 * simulation reads; keys=rt-app: the file itself, as json-c reads it, the
 * simulation reading it so too), with its global section set for the run - duration=
 * (or the file's), calibration= if given, logdir a fresh directory,
 * log_basename "rt-app", no ftrace or gnuplot - written to that directory
 * and run there as `rt-app FILE`.  Its per-thread logs (workload/rtapp/log.c says
 * the format) are then read into the metrics the simulation reports under
 * the same names: threads, loops, slack_mean_us and wu_lat_mean_us over
 * the rows of phases with timers, and per thread description NAME_loops,
 * NAME_slack_us, NAME_wu_lat_us; with the GNU time metrics of the rt-app
 * process (sl_real_usage).  A row holds one phase iteration: its slack is
 * the last timer's and its wu_lat the sum of the iteration's wakeups, which
 * is the simulation's per-timer figure for phases with one timer (all of
 * rt-app's examples but tutorial 7).
 *
 * Refused before anything runs (exit 2): no rt-app on PATH; a file whose
 * threads ask for FIFO/RR or a negative nice where this process may not
 * grant them (not root and RLIMIT_RTPRIO / RLIMIT_NICE too low: rt-app
 * would print an error and run them as SCHED_OTHER); no duration where a
 * thread loops for ever (rt-app would run until killed).  rt-app's
 * <crit> and <error> lines fail the run, naming the first (rt-app 1.0 exits
 * 0 after most of them).
 */
#include "real/real.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <json-c/json.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>

#include "real/proc.h"
#include "workload/rtapp/config.h"
#include "workload/rtapp/rtapp.h"

static const struct sl_param_def rtr_params[] = {
	{ "file", SL_PARAM_STRING, NULL, 0, 0, NULL, "rt-app JSON file (required)" },
	{ "duration", SL_PARAM_INT, NULL, 1, 86400, NULL,
	  "seconds rt-app runs; default the file's global.duration" },
	SL_RTAPP_KEYS_PARAM,	/* the file the real rt-app is given */
	{ "calibration", SL_PARAM_INT, NULL, 1, 1000000000, NULL,
	  "ns per loop of rt-app's busy loop, skipping its calibration; default the file's "
	  "(\"CPU0\": rt-app measures it, seconds on a busy host)" },
	{ NULL, 0, NULL, 0, 0, NULL, NULL },
};

/* ---- the file, loaded as the simulation loads it ---- */

struct rtr_arena {
	int n, cap;
	void **block;
};

static void *rtr_alloc(void *ctx, size_t size)
{
	struct rtr_arena *a = ctx;

	if (a->n == a->cap) {
		a->cap = a->cap ? 2 * a->cap : 64;
		a->block = sl_xrealloc(a->block, sizeof(*a->block) * (unsigned long)a->cap);
	}
	return a->block[a->n++] = sl_xcalloc(1, size);
}

static void rtr_free(struct rtr_arena *a)
{
	while (a->n > 0)
		free(a->block[--a->n]);
	free(a->block);
	a->block = NULL;
	a->cap = 0;
}

/* The worst class a thread or phase asks for: RT priority, lowest nice. */
static void classes(const struct rt_config *cfg, int *rt_max, int *nice_min)
{
	*rt_max = 0;
	*nice_min = 0;
	for (int i = 0; i < cfg->ntasks; i++) {
		const struct rt_task *t = &cfg->tasks[i];
		for (int k = -1; k < t->nphases; k++) {
			const struct rt_sched *s = k < 0 ? &t->sched : &t->phases[k].sched;
			if (k >= 0 && !s->set)
				continue;
			if (!s->same_policy && rt_class(s->policy) && s->prio > *rt_max)
				*rt_max = s->prio;
			else if ((s->same_policy ? s->prio_given : !rt_class(s->policy)) &&
				 s->prio < *nice_min)
				*nice_min = s->prio;	/* a same-policy priority: nice or RT */
		}
	}
}

/* May this process give its children what the file asks (sched_setscheduler
 * and setpriority succeed for root, or within RLIMIT_RTPRIO/RLIMIT_NICE)? */
static int check_privileges(const struct rt_config *cfg, struct sl_err *err)
{
	struct rlimit rt, nice;
	int rt_max, nice_min;

	if (geteuid() == 0)
		return 0;
	classes(cfg, &rt_max, &nice_min);
	if (getrlimit(RLIMIT_RTPRIO, &rt) || getrlimit(RLIMIT_NICE, &nice))
		return sl_fail(err, "rtapp: getrlimit: %s", strerror(errno));
	if (rt_max > 0 && rt.rlim_cur != RLIM_INFINITY && (int)rt.rlim_cur < rt_max)
		return sl_fail(err, "rtapp: %s asks for real-time priority %d, which this user may "
			       "not set (not root, RLIMIT_RTPRIO %ld): run as root, or raise the "
			       "limit (ulimit -r)", cfg->path, rt_max, (long)rt.rlim_cur);
	if (nice_min < 0 && nice.rlim_cur != RLIM_INFINITY && 20 - (int)nice.rlim_cur > nice_min)
		return sl_fail(err, "rtapp: %s asks for nice %d, which this user may not set (not "
			       "root, RLIMIT_NICE %ld): run as root, or raise the limit (ulimit -e)",
			       cfg->path, nice_min, (long)nice.rlim_cur);
	return 0;
}

static bool on_path(const char *prog)
{
	const char *path = getenv("PATH");
	char buf[4096];

	for (const char *p = path ? path : "/usr/bin:/bin"; *p;) {
		size_t n = strcspn(p, ":");
		snprintf(buf, sizeof(buf), "%.*s/%s", (int)n, p, prog);
		if (n && access(buf, X_OK) == 0)
			return true;
		p += n + (p[n] == ':');
	}
	return false;
}

/* Load the file; 0 or -1 with err.  The run's duration into *duration. */
static int load(const struct sl_params *p, struct rt_config *cfg, struct rtr_arena *arena,
		long *duration, struct sl_err *err)
{
	struct rt_alloc a = { rtr_alloc, arena };
	const char *path = sl_param_str(p, "file");

	if (!path || !*path)
		return sl_fail(err, "workload 'rtapp': file= is required (an rt-app JSON file)");
	if (rt_config_load_keys(cfg, path, &a, sl_param_choice(p, "keys") == 0, err))
		return -1;
	*duration = sl_param_given(p, "duration") ? sl_param_int(p, "duration")
						  : (long)(cfg->duration / SL_SEC);
	if (*duration == 0 && cfg->forever_task >= 0)
		return sl_fail(err, "rtapp: %s: thread '%s' loops for ever and the file sets no "
			       "global.duration: give duration=SECONDS (rt-app would run until "
			       "killed)", path, cfg->tasks[cfg->forever_task].name);
	return 0;
}

static int rtr_prepare(const struct sl_params *p, const struct sl_real_env *env,
		       struct sl_err *err)
{
	struct rtr_arena arena = { 0 };
	struct rt_config cfg;
	long duration;
	int rc;

	(void)env;
	if (!on_path("rt-app"))
		return sl_fail(err, "rtapp: rt-app is not installed (Debian's rt-app package; "
			       "scripts/install-deps.sh installs it)");
	rc = load(p, &cfg, &arena, &duration, err);
	if (!rc)
		rc = check_privileges(&cfg, err);
	rtr_free(&arena);
	return rc;
}

/* ---- one run ---- */

/* The file for rt-app in `dir`: the workgen text, global section set. */
static int write_file(const struct sl_params *p, long duration, const char *dir,
		      const char *out, struct sl_err *err)
{
	json_object *root, *g = NULL;

	if (sl_param_choice(p, "keys") == 0) {
		size_t len;
		char *text = rt_workgen_text(sl_param_str(p, "file"), &len, err);
		if (!text)
			return -1;
		root = json_tokener_parse(text);
		free(text);
	} else {	/* as rt-app reads it */
		root = json_object_from_file(sl_param_str(p, "file"));
	}
	if (!root || !json_object_is_type(root, json_type_object)) {
		json_object_put(root);
		return sl_fail(err, "rtapp: %s: not an rt-app file", sl_param_str(p, "file"));
	}
	if (!json_object_object_get_ex(root, "global", &g)) {
		g = json_object_new_object();
		json_object_object_add(root, "global", g);
	}
	if (duration > 0)
		json_object_object_add(g, "duration", json_object_new_int64(duration));
	if (sl_param_given(p, "calibration"))
		json_object_object_add(g, "calibration",
				       json_object_new_int64(sl_param_int(p, "calibration")));
	json_object_object_add(g, "logdir", json_object_new_string(dir));
	json_object_object_add(g, "log_basename", json_object_new_string("rt-app"));
	json_object_object_add(g, "ftrace", json_object_new_boolean(0));
	json_object_object_add(g, "gnuplot", json_object_new_boolean(0));
	int rc = json_object_to_file_ext(out, root, JSON_C_TO_STRING_PRETTY);
	json_object_put(root);
	return rc ? sl_fail_internal(err, "rtapp: cannot write %s", out) : 0;
}

void sl_real_rtapp_log_line(const char *line, struct sl_real_rtapp_log *st)
{
	long long v[11];

	if (line[0] == '#' ||
	    sscanf(line, "%lld %lld %lld %lld %lld %lld %lld %lld %lld %lld %lld", &v[0], &v[1],
		   &v[2], &v[3], &v[4], &v[5], &v[6], &v[7], &v[8], &v[9], &v[10]) != 11)
		return;
	st->rows++;
	if (v[9] > 0) {		/* c_period: the phase has a timer */
		st->timer_rows++;
		st->slack_sum += (double)v[7];
		st->wu_sum += (double)v[10];
	}
}

/* Read one log "rt-app-<name>-<idx>.log" into the stats of its description. */
static void read_log(const char *path, struct sl_real_rtapp_log *st)
{
	FILE *f = fopen(path, "r");
	char line[512];

	if (!f)
		return;
	st->threads++;
	while (fgets(line, sizeof(line), f))
		sl_real_rtapp_log_line(line, st);
	fclose(f);
}

/* The description a log file belongs to, or -1. */
static int log_task(const struct rt_config *cfg, const char *name)
{
	size_t n = strlen(name);

	if (n < 12 || strncmp(name, "rt-app-", 7) || strcmp(name + n - 4, ".log"))
		return -1;
	size_t dash = n - 4;
	while (dash > 7 && name[dash - 1] >= '0' && name[dash - 1] <= '9')
		dash--;
	if (dash == n - 4 || name[dash - 1] != '-')
		return -1;
	for (int i = 0; i < cfg->ntasks; i++)
		if (strlen(cfg->tasks[i].name) == dash - 8 &&
		    !strncmp(cfg->tasks[i].name, name + 7, dash - 8))
			return i;
	return -1;
}

/* rt-app's first <crit> or <error> line in `path`, if any. */
static bool complaint(const char *path, char *out, size_t size)
{
	FILE *f = fopen(path, "r");
	char line[512];
	bool found = false;

	if (!f)
		return false;
	while (!found && fgets(line, sizeof(line), f))
		if (strstr(line, "<crit>") || strstr(line, "<error>")) {
			line[strcspn(line, "\n")] = 0;
			snprintf(out, size, "%s", line);
			found = true;
		}
	fclose(f);
	return found;
}

static void remove_dir(const char *dir)
{
	DIR *d = opendir(dir);
	char path[4200];

	for (struct dirent *e; d && (e = readdir(d));) {
		if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, ".."))
			continue;
		snprintf(path, sizeof(path), "%s/%s", dir, e->d_name);
		unlink(path);
	}
	if (d)
		closedir(d);
	rmdir(dir);
}

static void add(struct sl_metrics *out, const char *prefix, const char *name, const char *unit,
		double value, int better)
{
	char full[64];

	snprintf(full, sizeof(full), "%s%s%s", prefix, *prefix ? "_" : "", name);
	sl_metrics_add(out, full, unit, value, better);
}

static void metrics(const struct rt_config *cfg, const struct sl_real_rtapp_log *st,
		    struct sl_metrics *out)
{
	struct sl_real_rtapp_log sum = { 0 };
	char prefix[32];
	int shown = 0;

	for (int i = 0; i < cfg->ntasks; i++) {
		sum.threads += st[i].threads;
		sum.rows += st[i].rows;
		sum.timer_rows += st[i].timer_rows;
		sum.slack_sum += st[i].slack_sum;
		sum.wu_sum += st[i].wu_sum;
	}
	sl_metrics_add(out, "threads", "count", (double)sum.threads, 0);
	sl_metrics_add(out, "loops", "count", (double)sum.rows, +1);
	if (sum.timer_rows) {
		sl_metrics_add(out, "slack_mean_us", "us", sum.slack_sum / (double)sum.timer_rows, +1);
		sl_metrics_add(out, "wu_lat_mean_us", "us", sum.wu_sum / (double)sum.timer_rows, -1);
	}
	for (int i = 0; i < cfg->ntasks && shown < RT_TASK_METRICS; i++) {
		const struct rt_task *t = &cfg->tasks[i];
		if (t->instance == 0 && !t->forked)
			continue;
		shown++;
		rt_metric_prefix(t, i, prefix, sizeof(prefix));
		add(out, prefix, "loops", "count", (double)st[i].rows, +1);
		if (!t->has_timer || !st[i].timer_rows)
			continue;
		add(out, prefix, "slack_us", "us", st[i].slack_sum / (double)st[i].timer_rows, +1);
		add(out, prefix, "wu_lat_us", "us", st[i].wu_sum / (double)st[i].timer_rows, -1);
	}
}

static int rtr_run(const struct sl_params *p, const struct sl_real_env *env,
		   struct sl_metrics *out, struct sl_err *err)
{
	struct rtr_arena arena = { 0 };
	struct rt_config cfg;
	struct sl_real_usage u;
	struct sl_real_rtapp_log *st = NULL;
	char dir[] = "/tmp/schedlab-rtapp-XXXXXX", file[64], log[64], path[4200], line[512];
	long duration;
	int rc = -1, fd = -1;

	if (load(p, &cfg, &arena, &duration, err))
		goto out_free;
	if (!mkdtemp(dir)) {
		sl_fail_internal(err, "rtapp: mkdtemp: %s", strerror(errno));
		goto out_free;
	}
	snprintf(file, sizeof(file), "%s/rtapp.json", dir);
	snprintf(log, sizeof(log), "%s/rt-app.out", dir);
	if (write_file(p, duration, dir, file, err))
		goto out;
	fd = open(log, O_WRONLY | O_CREAT | O_TRUNC, 0644);
	if (fd < 0) {
		sl_fail_internal(err, "rtapp: %s: %s", log, strerror(errno));
		goto out;
	}
	const char *argv[] = { "rt-app", "rtapp.json", NULL };
	struct sl_real_cmd cmd = { argv, dir, fd };
	if (sl_real_run_cmd(&cmd, env->pinned ? &env->cpus : NULL, &u, err))
		goto out;
	if (complaint(log, line, sizeof(line))) {
		sl_fail(err, "rtapp: rt-app on %s: %s", cfg.path, line);
		goto out;
	}
	st = sl_xcalloc((unsigned long)cfg.ntasks, sizeof(*st));
	DIR *d = opendir(dir);
	for (struct dirent *e; d && (e = readdir(d));) {
		int i = log_task(&cfg, e->d_name);
		if (i < 0)
			continue;
		snprintf(path, sizeof(path), "%s/%s", dir, e->d_name);
		read_log(path, &st[i]);
	}
	if (d)
		closedir(d);
	sl_real_usage_metrics(&u, out);
	metrics(&cfg, st, out);
	rc = 0;
out:
	if (fd >= 0)
		close(fd);
	remove_dir(dir);
out_free:
	free(st);
	rtr_free(&arena);
	return rc;
}

static void rtr_resolve(struct sl_params *p, const struct sl_real_env *env)
{
	struct rtr_arena arena = { 0 };
	struct rt_config cfg;
	struct sl_err err = { 0 };
	long duration;

	(void)env;
	/* the simulated counterpart runs as long as rt-app does */
	if (!sl_param_given(p, "duration") && !load(p, &cfg, &arena, &duration, &err) &&
	    duration > 0)
		sl_real_param_set(p, "duration", (double)duration);
	rtr_free(&arena);
}

const struct sl_real_workload sl_real_rtapp = {
	.name = "rtapp",
	.summary = "Debian's rt-app 1.0 on an rt-app file; its logs' slack and wakeup latency",
	.metric = "slack_mean_us",
	.params = rtr_params,
	.resolve = rtr_resolve,
	.prepare = rtr_prepare,
	.run = rtr_run,
};
