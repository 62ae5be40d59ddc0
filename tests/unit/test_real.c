/*
 * test_real.c - the real runner: rusage arithmetic, CPU lists, the real
 * workloads' parameters and their simulated counterparts, the comparison
 * of real and simulated metrics, and real processes - a failing child
 * kills its siblings, orphaned grandchildren are reaped, a signal leaves
 * no child behind, and short spin and hackbench runs report sane metrics.
 *
 * Real runs are short (well under a second each) and never assert timing
 * beyond generous bounds: the host may be busy.
 */
#include <errno.h>
#include <math.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "real/cpus.h"
#include "real/hackbench.h"
#include "real/host.h"
#include "real/proc.h"
#include "real/real.h"
#include "real/usage.h"
#include "real/validate.h"
#include "test.h"

/* ---- helpers ---- */

static double metric(const struct sl_metrics *ms, const char *name)
{
	const struct sl_metric *m = sl_metrics_find(ms, name);
	return m ? m->value : NAN;
}

static bool gone(pid_t pid)
{
	return kill(pid, 0) < 0 && errno == ESRCH;
}

static int exit_zero(void *arg)
{
	(void)arg;
	return 0;
}

static int exit_three(void *arg)
{
	struct timespec ts = { 0, 50 * 1000000 };	/* let the sleeper start */

	(void)arg;
	nanosleep(&ts, NULL);
	return 3;
}

static int sleep_long(void *arg)
{
	(void)arg;
	sleep(60);
	return 0;
}

/* Leaves a grandchild behind that would sleep for a minute, and writes
 * its pid to the pipe whose write end is *arg. */
static int orphan_maker(void *arg)
{
	int fd = *(const int *)arg;
	pid_t pid = fork();

	if (pid == 0) {
		sleep(60);
		_exit(0);
	}
	return write(fd, &pid, sizeof(pid)) == (ssize_t)sizeof(pid) ? 0 : 1;
}

static bool run_real(const char *text, struct sl_metrics *out)
{
	const struct sl_real_workload *w;
	struct sl_params p;
	struct sl_real_env env;
	struct sl_err err = { 0 };

	if (sl_real_parse(text, &w, &p, &err) || sl_real_env_init(&env, NULL, &err))
		return false;
	if (w->resolve)
		w->resolve(&p, &env);
	if (sl_real_run_reps(w, &p, &env, 1, 1, out, &err)) {
		fprintf(stderr, "%s: %s\n", text, err.msg);
		return false;
	}
	return true;
}

/* ---- rusage arithmetic ---- */

SL_TEST(real_usage_sums)
{
	struct rusage a = { 0 }, b = { 0 };
	struct sl_real_usage u = { 0 }, v = { 0 };
	struct sl_metrics ms = { 0 };

	a.ru_utime = (struct timeval){ 1, 500000 };
	a.ru_stime = (struct timeval){ 0, 250000 };
	a.ru_nivcsw = 7;
	a.ru_nvcsw = 3;
	a.ru_maxrss = 2048;
	b.ru_utime = (struct timeval){ 2, 600000 };
	b.ru_stime = (struct timeval){ 1, 0 };
	b.ru_nivcsw = 1;
	b.ru_nvcsw = 10;
	b.ru_maxrss = 1024;
	CHECK(fabs(sl_real_tv_s(&a.ru_utime) - 1.5) < 1e-9);
	sl_real_usage_add(&u, &a);
	sl_real_usage_add(&u, &b);
	CHECK(fabs(u.user_s - 4.1) < 1e-9);
	CHECK(fabs(u.sys_s - 1.25) < 1e-9);
	CHECK(u.nivcsw == 8 && u.nvcsw == 13 && u.nproc == 2);
	CHECK(u.maxrss_kb == 2048);	/* the largest, not the sum */
	u.elapsed_s = 2.675;
	CHECK(fabs(sl_real_usage_cpu_pct(&u) - 200) < 1e-9);
	v.elapsed_s = 0;
	CHECK(sl_real_usage_cpu_pct(&v) == 0);
	sl_real_usage_merge(&v, &u);
	CHECK(fabs(v.user_s - 4.1) < 1e-9 && v.nproc == 2 && v.elapsed_s == 0);

	sl_real_usage_metrics(&u, &ms);
	CHECK(fabs(metric(&ms, "elapsed_s") - 2.675) < 1e-9);
	CHECK(fabs(metric(&ms, "user_s") - 4.1) < 1e-9);
	CHECK(fabs(metric(&ms, "sys_s") - 1.25) < 1e-9);
	CHECK(fabs(metric(&ms, "cpu_pct") - 200) < 1e-9);
	CHECK(metric(&ms, "ctx_switches") == 8);
	CHECK(metric(&ms, "sleeps") == 13);
	CHECK(metric(&ms, "maxrss_mb") == 2);
}

/* rt-app 1.0's log rows: idx perf run period start end rel_st slack
 * c_duration c_period wu_lat; only rows of a phase with a timer
 * (c_period > 0) count towards slack and wake-up latency. */
SL_TEST(real_rtapp_log_rows)
{
	struct sl_real_rtapp_log st = { 0 };

	sl_real_rtapp_log_line("# idx perf run period start end rel_st slack c_duration c_period "
			       "wu_lat\n", &st);
	sl_real_rtapp_log_line("0 100 1000 10000 1 2 3 900 1000 10000 50\n", &st);
	sl_real_rtapp_log_line("0 100 1000 10000 1 2 3 -40 1000 10000 150\n", &st);
	sl_real_rtapp_log_line("0 100 1000 0 1 2 3 777 1000 0 999\n", &st);	/* no timer */
	sl_real_rtapp_log_line("0 100 1000 10000 1 2 3 900 1000\n", &st);	/* cut short */
	sl_real_rtapp_log_line("x 100 1000 10000 1 2 3 900 1000 10000 50\n", &st);
	CHECK(st.rows == 3);
	CHECK(st.timer_rows == 2);
	CHECK(st.slack_sum == 860);
	CHECK(st.wu_sum == 200);
	CHECK(st.threads == 0);	/* counted per log file, by the reader */
}

SL_TEST(real_host_share)
{
	struct sl_real_host_mark from = { 10, 100, 1 }, to = { 12, 103.5, 2.5 };
	struct sl_real_host_mark none = { 12, -1, 2 };

	CHECK(fabs(sl_real_host_parse_stat("cpu  100 0 50 1000 10 0 0 5 0 0", 100) - 1.55) < 1e-9);
	CHECK(fabs(sl_real_host_parse_stat("cpu  7 1 2 3", 10) - 1.0) < 1e-9);
	CHECK(sl_real_host_parse_stat("cpu0 100 0 50 1000", 100) == -1);
	CHECK(sl_real_host_parse_stat("intr 12 3", 100) == -1);
	CHECK(sl_real_host_parse_stat("cpu  x", 100) == -1);
	/* 3.5 busy seconds, 1.5 of them ours, over 2 s: others used one CPU */
	CHECK(fabs(sl_real_host_other_pct(&from, &to) - 100) < 1e-9);
	CHECK(isnan(sl_real_host_other_pct(&from, &none)));
	sl_real_host_mark(&from);
	CHECK(from.busy_s > 0 && from.ours_s >= 0);
}

/* ---- CPU lists ---- */

SL_TEST(real_cpu_lists)
{
	cpu_set_t allowed, set;
	struct sl_err err = { 0 };
	char buf[64];

	CPU_ZERO(&allowed);
	for (int c = 0; c < 8; c++)
		CPU_SET(c, &allowed);
	CHECK(sl_real_cpus_parse("--cpus", "0", &allowed, &set, &err) == 0 && CPU_COUNT(&set) == 1);
	CHECK(sl_real_cpus_parse("--cpus", "0-3,6", &allowed, &set, &err) == 0);
	CHECK(CPU_COUNT(&set) == 5 && CPU_ISSET(6, &set) && !CPU_ISSET(4, &set));
	sl_real_cpus_format(&set, buf, sizeof(buf));
	CHECK(!strcmp(buf, "0-3,6"));
	CHECK(sl_real_cpus_parse("--cpus", "5,1,1", &allowed, &set, &err) == 0 &&
	      CPU_COUNT(&set) == 2);
	sl_real_cpus_format(&set, buf, sizeof(buf));
	CHECK(!strcmp(buf, "1,5"));

	static const char *const bad[] = { "", ",", "0,", "-1", "1-", "3-1", "a", "0 1",
					   "1-2-3", "99999999", "8", "0-8" };
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		err = (struct sl_err){ 0 };
		CHECKF(sl_real_cpus_parse("--cpus", bad[i], &allowed, &set, &err) == -1 &&
		       err.kind == SL_ERR_INPUT && strstr(err.msg, "--cpus"), "'%s'", bad[i]);
	}
	CHECK(strstr(err.msg, "CPU 8 is not available"));
	CHECK(sl_real_cpus_allowed(&set, &err) == 0 && CPU_COUNT(&set) >= 1);
}

/* ---- workloads, parameters, counterparts ---- */

SL_TEST(real_workload_params)
{
	const struct sl_real_workload *w;
	struct sl_params p;
	struct sl_real_env env;
	struct sl_err err = { 0 };
	char text[256];

	CHECK(sl_real_parse("nosuch", &w, &p, &err) == -1 && err.kind == SL_ERR_INPUT);
	CHECK(strstr(err.msg, "spin, hackbench, schedbench, kernbench"));
	CHECK(sl_real_parse("spin:frob=1", &w, &p, &err) == -1 && strstr(err.msg, "frob"));
	CHECK(sl_real_parse("spin:tasks=0", &w, &p, &err) == -1);
	CHECK(sl_real_parse("hackbench:mode=tcp", &w, &p, &err) == -1);
	CHECK(sl_real_parse("kernbench:warmup=maybe", &w, &p, &err) == -1);

	CHECK(sl_real_parse("spin:seconds=2", &w, &p, &err) == 0 && w == &sl_real_spin);
	CHECK(sl_real_env_init(&env, NULL, &err) == 0 && env.ncpus >= 1);
	w->resolve(&p, &env);
	CHECK(sl_param_int(&p, "tasks") == env.ncpus);
	sl_real_spec_text(w, &p, text, sizeof(text));
	snprintf(p.store[31], sizeof(p.store[31]), "spin:tasks=%d,seconds=2", env.ncpus);
	CHECKF(!strcmp(text, p.store[31]), "%s", text);

	CHECK(sl_real_parse("kernbench", &w, &p, &err) == 0);
	w->resolve(&p, &env);
	CHECK(sl_param_int(&p, "jobs") == 2 * env.ncpus);
	CHECK(sl_real_parse("kernbench:jobs=1", &w, &p, &err) == 0);
	w->resolve(&p, &env);
	CHECK(sl_param_int(&p, "jobs") == 1);
}

SL_TEST(real_counterparts)
{
	const struct sl_real_workload *w;
	struct sl_params p;
	struct sl_real_env env;
	struct sl_err err = { 0 };
	char spec[512];

	CHECK(sl_real_env_init(&env, NULL, &err) == 0);
	CHECK(sl_real_parse("spin:tasks=2,seconds=1.5,class=int", &w, &p, &err) == 0);
	CHECK(sl_real_counterpart(w, &p, NULL, 0, spec, sizeof(spec), &err) == 0);
	CHECKF(!strcmp(spec, "spin:tasks=2,seconds=1.5,nice=0,class=int"), "%s", spec);
	CHECK(sl_real_parse("spin:tasks=2,seconds=1.5,cpus=0+1", &w, &p, &err) == 0);
	CHECK(sl_real_counterpart(w, &p, NULL, 0, spec, sizeof(spec), &err) == 0);
	CHECKF(!strcmp(spec, "spin:tasks=2,seconds=1.5,nice=0,class=fp,cpus=0+1"), "%s", spec);

	CHECK(sl_real_parse("kernbench:jobs=2", &w, &p, &err) == 0);
	CHECK(sl_real_counterpart(w, &p, NULL, 0, spec, sizeof(spec), &err) == 0);
	CHECKF(!strcmp(spec, "kernbench:jobs=2,size=203.7,sys=0.49,units=494,tail=0.7,kbuild=6"), "%s",
	       spec);
	/* measured: the work comes from the real runs' means */
	struct sl_metrics runs[2] = { 0 };
	for (int i = 0; i < 2; i++) {
		sl_metrics_add(&runs[i], "user_s", "s", 100 + 20 * i, -1);	/* mean 110 */
		sl_metrics_add(&runs[i], "sys_s", "s", 22, -1);
	}
	CHECK(sl_real_counterpart(w, &p, runs, 2, spec, sizeof(spec), &err) == 0);
	CHECKF(!strcmp(spec, "kernbench:jobs=2,size=110,sys=0.2,units=494,tail=0.7,kbuild=6"), "%s", spec);
	CHECK(fabs(sl_val_mean(runs, 2, "user_s") - 110) < 1e-9);
	CHECK(isnan(sl_val_mean(runs, 2, "nosuch")) && isnan(sl_val_mean(runs, 0, "user_s")));
	CHECK(sl_real_parse("kernbench:jobs=2,config=defconfig", &w, &p, &err) == 0);
	CHECK(sl_real_counterpart(w, &p, NULL, 0, spec, sizeof(spec), &err) == -1 &&
	      strstr(err.msg, "--sim"));

	/* schbench: by name, and a multiply-add's cost measured by the real
	 * runs (their math's CPU time) when there are any */
	CHECK(sl_real_parse("schbench:workers=1,lock=off", &w, &p, &err) == 0);
	struct sl_metrics sch[2] = { 0 };
	for (int i = 0; i < 2; i++)
		sl_metrics_add(&sch[i], "op_ns", "ns", 0.4 + 0.2 * i, -1);	/* mean 0.5 */
	CHECK(sl_real_counterpart(w, &p, sch, 2, spec, sizeof(spec), &err) == 0);
	CHECKF(!strncmp(spec, "schbench:", 9) && strstr(spec, "workers=1") &&
	       strstr(spec, "lock=off") && strstr(spec, ",op_ns=0.5") &&
	       !strstr(spec, ",op_ns=0.5,"), "%s", spec);
	CHECK(sl_real_counterpart(w, &p, NULL, 0, spec, sizeof(spec), &err) == 0);
	CHECKF(!strstr(spec, "op_ns"), "recorded: %s", spec);

	/* by name: shared parameters pass through, or a reason when the
	 * simulator has no such workload */
	CHECK(sl_real_parse("hackbench:groups=3,datasize=50", &w, &p, &err) == 0);
	if (sl_workload_find("hackbench")) {
		CHECK(sl_real_counterpart(w, &p, NULL, 0, spec, sizeof(spec), &err) == 0);
		CHECKF(!strncmp(spec, "hackbench:groups=3", 18) && !strstr(spec, "datasize"),
		       "%s", spec);
		/* both read one message per call unless told otherwise */
		CHECKF(strstr(spec, ",readsize=100,") != NULL, "%s", spec);
		CHECK(sl_real_parse("hackbench:readsize=65536", &w, &p, &err) == 0);
		CHECK(sl_real_counterpart(w, &p, NULL, 0, spec, sizeof(spec), &err) == 0);
		CHECKF(strstr(spec, ",readsize=65536,") != NULL, "%s", spec);
	} else {
		CHECK(sl_real_counterpart(w, &p, NULL, 0, spec, sizeof(spec), &err) == -1 &&
		      strstr(err.msg, "no workload 'hackbench'"));
	}
}

SL_TEST(real_compare)
{
	struct sl_metrics real[2] = { 0 }, sim[2] = { 0 };
	struct sl_val_row rows[8];
	int n;

	for (int i = 0; i < 2; i++) {
		sl_metrics_add(&real[i], "elapsed_s", "s", 10 + 2 * i, -1);	/* mean 11 */
		sl_metrics_add(&real[i], "maxrss_mb", "MB", 5, 0);
		sl_metrics_add(&sim[i], "elapsed_s", "s", 12.1, -1);
		sl_metrics_add(&sim[i], "migrations", "count", 4, 0);
	}
	n = sl_val_compare(real, 2, sim, 2, rows, 8);
	CHECK(n == 3);
	CHECK(!strcmp(rows[0].name, "elapsed_s") && rows[0].real.n == 2 && rows[0].sim.n == 2);
	CHECK(fabs(rows[0].real.mean - 11) < 1e-9 && fabs(rows[0].error_pct - 10) < 1e-9);
	CHECK(!strcmp(rows[1].name, "maxrss_mb") && rows[1].sim.n == 0 && isnan(rows[1].error_pct));
	CHECK(!strcmp(rows[2].name, "migrations") && rows[2].real.n == 0);
	CHECK(sl_val_compare(real, 2, NULL, 0, rows, 8) == 2 && isnan(rows[0].error_pct));
	CHECK(sl_val_compare(real, 2, sim, 2, rows, 1) == 1);
	CHECK(fabs(sl_val_error_pct(200, 150) + 25) < 1e-9);
	CHECK(isnan(sl_val_error_pct(0, 1)) && isnan(sl_val_error_pct(NAN, 1)));
}

/* ---- real processes ---- */

SL_TEST(real_failure_kills_siblings)
{
	struct sl_real_procs ps;
	struct sl_real_usage u;
	struct sl_err err = { 0 };
	pid_t sleeper, ok;

	CHECK(sl_real_procs_begin(&ps, 3, NULL, &err) == 0);
	ok = sl_real_procs_spawn(&ps, true, exit_zero, NULL, &err);
	sleeper = sl_real_procs_spawn(&ps, true, sleep_long, NULL, &err);
	CHECK(ok > 0 && sleeper > 0);
	CHECK(sl_real_procs_spawn(&ps, true, exit_three, NULL, &err) > 0);
	CHECK(sl_real_procs_wait(&ps, &u, &err) == -1);
	CHECKF(strstr(err.msg, "process 3 of 3") && strstr(err.msg, "status 3"), "%s", err.msg);
	CHECK(!ps.child[1].live && WIFSIGNALED(ps.child[1].status));
	sl_real_procs_end(&ps);
	CHECK(gone(sleeper) && gone(ok));
	CHECK(sl_real_procs_begin(&ps, 1, NULL, &err) == 0);
	CHECK(sl_real_procs_spawn(&ps, true, exit_zero, NULL, &err) > 0);
	CHECK(sl_real_procs_spawn(&ps, true, exit_zero, NULL, &err) == -1);	/* full */
	CHECK(sl_real_procs_wait(&ps, &u, &err) == 0 && u.nproc == 1 && u.elapsed_s >= 0);
	sl_real_procs_end(&ps);
}

SL_TEST(real_orphans_reaped)
{
	struct sl_real_procs ps;
	struct sl_err err = { 0 };
	pid_t grandchild = 0;
	int fds[2];

	CHECK(pipe(fds) == 0);
	sl_real_signals_install();
	CHECK(sl_real_procs_begin(&ps, 1, NULL, &err) == 0);
	CHECK(sl_real_procs_spawn(&ps, true, orphan_maker, &fds[1], &err) > 0);
	CHECK(sl_real_procs_wait(&ps, NULL, &err) == 0);
	sl_real_procs_end(&ps);
	sl_real_signals_restore();
	CHECK(read(fds[0], &grandchild, sizeof(grandchild)) == (ssize_t)sizeof(grandchild));
	close(fds[0]);
	close(fds[1]);
	/* it was in the child's process group: killed and reaped with it */
	CHECK(grandchild > 0 && gone(grandchild));
}

SL_TEST(real_signal_leaves_no_child)
{
	struct sl_real_procs ps;
	struct sl_err err = { 0 };
	pid_t pid[3];

	sl_real_signals_install();
	CHECK(sl_real_interrupted() == 0);
	CHECK(sl_real_procs_begin(&ps, 3, NULL, &err) == 0);
	for (int i = 0; i < 3; i++)
		pid[i] = sl_real_procs_spawn(&ps, true, sleep_long, NULL, &err);
	CHECK(pid[0] > 0 && pid[1] > 0 && pid[2] > 0);
	raise(SIGTERM);		/* the handler kills every group */
	CHECK(sl_real_interrupted() == SIGTERM);
	CHECK(sl_real_procs_wait(&ps, NULL, &err) == -1);
	CHECKF(strstr(err.msg, "interrupted by SIGTERM"), "%s", err.msg);
	sl_real_procs_end(&ps);
	for (int i = 0; i < 3; i++)
		CHECK(gone(pid[i]));
	CHECK(sl_real_procs_begin(&ps, 1, NULL, &err) == -1);	/* no new work after it */
	sl_real_signals_restore();
}

SL_TEST(real_spin_short)
{
	struct sl_metrics ms = { 0 };

	CHECK(run_real("spin:tasks=2,seconds=0.3", &ms));
	CHECK(metric(&ms, "elapsed_s") >= 0.29 && metric(&ms, "elapsed_s") < 10);
	/* how much CPU the hogs got depends on what else the host runs (a
	 * parallel test suite can starve them): only that they ran, and no
	 * more than the two CPUs they may use */
	CHECK(metric(&ms, "user_s") > 0);
	CHECK(metric(&ms, "cpu_pct") > 0 && metric(&ms, "cpu_pct") <= 100.0 * 2 + 5);
	CHECK(metric(&ms, "task_min_pct") <= metric(&ms, "task_max_pct"));
	CHECK(metric(&ms, "task_max_pct") <= 105);
	CHECK(metric(&ms, "sleeps") >= 0 && metric(&ms, "ctx_switches") >= 0);
	CHECK(metric(&ms, "other_cpu_pct") >= 0);
}

SL_TEST(real_hackbench_short)
{
	struct sl_metrics ms = { 0 };

	CHECK(run_real("hackbench:groups=1,fds=5,loops=20", &ms));
	CHECK(metric(&ms, "messages") == 5 * 5 * 20);
	CHECK(metric(&ms, "processes") == 11);
	CHECK(metric(&ms, "time_s") > 0 && metric(&ms, "time_s") <= metric(&ms, "elapsed_s"));
	CHECK(metric(&ms, "elapsed_s") < 30);
	CHECK(metric(&ms, "sleeps") > 0);	/* receivers block for messages */
	CHECK(run_real("hackbench:groups=1,fds=3,loops=20,mode=pipe,datasize=1000", &ms));
	CHECK(run_real("hackbench:groups=1,fds=3,loops=20,readsize=65536", &ms));
	CHECK(metric(&ms, "messages") == 3 * 3 * 20);
}

/* hackbench reads the rest of one message per call; a larger readsize
 * asks for that much */
SL_TEST(real_hackbench_read_want)
{
	struct sl_real_hb hb = { .size = 100, .readsize = 100 };

	CHECK(sl_real_hb_read_want(&hb, 0) == 100);
	CHECK(sl_real_hb_read_want(&hb, 130) == 70);	/* 30 of the second read */
	hb.size = 1000;
	CHECK(sl_real_hb_read_want(&hb, 2100) == 900);	/* readsize below a message */
	hb.readsize = 65536;
	CHECK(sl_real_hb_read_want(&hb, 2100) == 65536);
}

SL_TEST(real_schedbench_short)
{
	struct sl_metrics ms = { 0 };

	CHECK(run_real("schedbench:tasks=2,mb=2,passes=2,hackbench=1,hackbench_at=0", &ms));
	CHECK(metric(&ms, "total_user_s") <= metric(&ms, "user_s") + 1e-9);
	CHECK(metric(&ms, "bench_elapsed_s") <= metric(&ms, "elapsed_s") + 1e-9);
	CHECK(fabs(metric(&ms, "avg_user_s") * 2 - metric(&ms, "total_user_s")) < 1e-6);
	CHECK(metric(&ms, "hackbench_s") > 0);
	CHECK(metric(&ms, "updates_per_s") > 0);
}
