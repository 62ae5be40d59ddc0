/*
 * log.c - rt-app's per-thread log files, written from a simulated
 * run (`run --rtapp-logdir DIR`, the rtapp workload's logdir=), so that the
 * tools that read rt-app's logs read simulated runs too.
 *
 * Format (rt-app 1.0, Debian 1.0-1, checked by running it with a logdir;
 * src/rt-app_utils.c log_timing and rt-app.c's header): one file per
 * thread, "<log_basename>-<thread name>-<thread index>.log", the index
 * counting every thread rt-app starts in file order (instances included);
 * a line "# Policy : SCHED_OTHER priority : 0" (the thread's class at its
 * start), the column header, then one row per phase iteration:
 *   idx perf run period start end rel_st slack c_duration c_period wu_lat
 * times in microseconds.  What each column holds in a simulated run is
 * said in docs/workloads.md (rtapp, "Log files").
 *
 * A log file is never replaced: the directory is checked before the run
 * (rt_logdir_check) and each file is created exclusively after it.
 */
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

#include "workload/rtapp/config.h"

/* Is `name` a log of one of cfg's threads: "<basename>-<thread>-<N>.log"? */
static const char *our_log(const struct rt_config *cfg, const char *name)
{
	size_t nb = strlen(cfg->log_basename), n = strlen(name);

	if (n < nb + 6 || strncmp(name, cfg->log_basename, nb) || name[nb] != '-' ||
	    strcmp(name + n - 4, ".log"))
		return NULL;
	size_t end = n - 4, dash = end;
	while (dash > nb + 1 && name[dash - 1] >= '0' && name[dash - 1] <= '9')
		dash--;
	if (dash == end || dash <= nb + 1 || name[dash - 1] != '-')
		return NULL;
	const char *thread = name + nb + 1;
	size_t tn = dash - 1 - (nb + 1);
	for (int i = 0; i < cfg->ntasks; i++)
		if (strlen(cfg->tasks[i].name) == tn && !strncmp(cfg->tasks[i].name, thread, tn))
			return cfg->tasks[i].name;
	return NULL;
}

int rt_logdir_check(const struct rt_config *cfg, const char *dir, struct sl_err *err)
{
	struct stat st;

	if (!*dir)
		return sl_fail(err, "workload 'rtapp': logdir: expected a directory, got ''");
	if (stat(dir, &st) != 0) {
		if (errno != ENOENT || mkdir(dir, 0777) != 0)
			return sl_fail(err, "workload 'rtapp': logdir '%s': cannot create: %s", dir,
				       strerror(errno));
		return 0;
	}
	if (!S_ISDIR(st.st_mode))
		return sl_fail(err, "workload 'rtapp': logdir '%s': not a directory", dir);
	DIR *d = opendir(dir);
	if (!d)
		return sl_fail(err, "workload 'rtapp': logdir '%s': cannot read: %s", dir,
			       strerror(errno));
	int rc = 0;
	for (struct dirent *e; rc == 0 && (e = readdir(d));) {
		const char *thread = our_log(cfg, e->d_name);
		if (thread)
			rc = sl_fail(err, "workload 'rtapp': logdir '%s' has '%s' already, a log of "
				     "thread '%s' of %s: logs are never overwritten (remove it or "
				     "choose another directory)", dir, e->d_name, thread, cfg->path);
	}
	closedir(d);
	return rc;
}

int rt_log_write(const char *dir, const struct rt_config *cfg, const char *thread, int index,
		 int policy, int prio, const struct rt_log_chunk *rows)
{
	char path[4096];
	int n = snprintf(path, sizeof(path), "%s/%s-%s-%d.log", dir, cfg->log_basename, thread,
			 index);

	if (n < 0 || (size_t)n >= sizeof(path))
		return -1;
	FILE *f = fopen(path, "wx");	/* exclusive: never replace a file */
	if (!f)
		return -1;
	fprintf(f, "# Policy : %s priority : %d\n", rt_policy_name(policy), prio);
	fprintf(f, "#idx     perf      run   period           start             end          "
		"rel_st      slack c_duration   c_period     wu_lat\n");
	for (const struct rt_log_chunk *c = rows; c; c = c->next)
		for (int i = 0; i < c->n; i++) {
			const struct rt_log_row *r = &c->row[i];
			fprintf(f, "%4d %8lld %8lld %8lld %15lld %15lld %15lld %10lld %10lld %10lld "
				"%10lld\n", index, r->perf, r->run, r->period, r->start, r->end,
				r->rel_st, r->slack, r->c_duration, r->c_period, r->wu_lat);
		}
	bool bad = ferror(f) != 0;
	return fclose(f) != 0 || bad ? -1 : 0;
}
