/*
 * test_rtapp.c - the rt-app workload: the loader accepts the shipped
 * examples and rejects malformed files (tests/data/rtapp/) as bad input
 * naming the file, the line and the key; tiny runs whose metrics can be
 * worked out by hand (a periodic thread's slack, wakeup latency and
 * period; relative and absolute timers that overrun; run against runtime
 * next to an SMT sibling; a lock that serialises two threads; a barrier
 * that makes a group as slow as its slowest; fork; suspend/resume;
 * duration), and determinism.
 *
 * The workload is bound through its ops (sl_spec_parse + sl_spec_bind +
 * validate), so the tests do not depend on the registry.  Runs use "up"
 * (children queued at the tail) on one-CPU machines and "o1" elsewhere,
 * invariant checks on.
 */
#include <limits.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "hw/machine.h"
#include "policy/policy.h"
#include "sim/sim.h"
#include "workload/rtapp/config.h"
#include "workload/rtapp/rtapp.h"
#include "test.h"

#define ONE_CPU "pack:1 core:1 pu:1"
#define TWO_CPUS "pack:2 core:1 pu:1"
#define FOUR_CPUS "pack:4 core:1 pu:1"
#define ONE_HT_CORE "pack:1 core:1 pu:2"
#define DATA "tests/data/rtapp/"

/* ---- helpers ---- */

static int rt_bind(const char *text, struct sl_params *p, struct sl_err *err)
{
	const struct sl_workload_ops *ops = &sl_workload_rtapp;
	struct sl_spec spec;

	if (sl_spec_parse(&spec, text, "workload", err) ||
	    sl_spec_bind(p, &spec, ops->params, NULL, ops->name, err))
		return -1;
	return ops->validate(p, err);
}

/* `text` is rejected as bad input with a message containing each of the
 * NULL-terminated strings. */
static bool rt_rejects(const char *text, ...)
{
	struct sl_params p;
	struct sl_err err = { 0 };
	va_list ap;
	bool ok = true;

	if (rt_bind(text, &p, &err) == 0) {
		fprintf(stderr, "  %s was accepted\n", text);
		return false;
	}
	ok = err.kind == SL_ERR_INPUT && !strchr(err.msg, '\n');
	va_start(ap, text);
	for (const char *s; (s = va_arg(ap, const char *));)
		ok &= strstr(err.msg, s) != NULL;
	va_end(ap);
	if (!ok)
		fprintf(stderr, "  %s: unexpected message: %s\n", text, err.msg);
	return ok;
}

static bool rt_accepts(const char *text)
{
	struct sl_params p;
	struct sl_err err = { 0 };

	if (rt_bind(text, &p, &err) == 0)
		return true;
	fprintf(stderr, "  %s: %s\n", text, err.msg);
	return false;
}

/* A JSON text in a temporary file, named in `path`. */
struct rt_tmp {
	char path[64];
};

static bool rt_tmp_write(struct rt_tmp *f, const char *json)
{
	snprintf(f->path, sizeof(f->path), "/tmp/schedlab-rtapp-XXXXXX");
	int fd = mkstemp(f->path);
	if (fd < 0)
		return false;
	size_t n = strlen(json);
	bool ok = write(fd, json, n) == (ssize_t)n;
	close(fd);
	return ok;
}

struct rt_result {
	struct sl_machine machine;
	const struct sl_policy_ops *policy;
	struct sl_params knobs, params;
	struct sl_run_stats stats;
	struct sl_metrics metrics;
};

/* The policy of the next runs, if not the default below. */
static const char *rt_policy;

/* Run rtapp on the file `path` (and extra ",params") on `machine`. */
static bool rt_run_path(struct rt_result *r, const char *machine, const char *path,
			const char *extra, uint64_t seed)
{
	struct sl_err err = { 0 };
	struct sl_sim *sim = NULL;
	char label[64], text[256];
	sl_time limit = 0;
	bool ok = false;

	memset(r, 0, sizeof(*r));
	snprintf(text, sizeof(text), "rtapp:file=%s%s", path, extra ? extra : "");
	if (sl_machine_load(&r->machine, machine, &err))
		goto out;
	/* up queues a child at the tail (fork_place=tail), so that rt-app's
	 * main thread has blocked before the threads run: in the by-hand runs
	 * nothing else then touches the CPU (2.6.0's child would run first
	 * and the main thread's run after its first event cost it refill) */
	const char *policy = rt_policy ? rt_policy
				       : r->machine.topo.ncpus == 1 ? "up:fork_place=tail" : "o1";
	if (sl_policy_parse(policy, &r->policy, &r->knobs, label, sizeof(label), &err) ||
	    rt_bind(text, &r->params, &err))
		goto out;
	struct sl_sim_config cfg = {
		.machine = &r->machine, .policy = r->policy, .knobs = &r->knobs,
		.seed = seed, .check = true,
	};
	sim = sl_sim_create(&cfg, &err);
	if (!sim)
		goto out;
	void *state = sl_workload_rtapp.start(sim, &r->params, &limit);
	sl_sim_set_time_limit(sim, limit);
	if (sl_sim_run(sim, &err))
		goto out;
	sl_sim_stats(sim, &r->stats);
	sl_workload_rtapp.report(sim, state, &r->params, &r->metrics);
	ok = true;
out:
	if (!ok)
		fprintf(stderr, "  run %s on %s: %s\n", text, machine, err.msg);
	if (sim)
		sl_sim_destroy(sim);
	return ok;
}

/* The same with the file's text given. */
static bool rt_run(struct rt_result *r, const char *machine, const char *json, const char *extra,
		   uint64_t seed)
{
	struct rt_tmp f;

	if (!rt_tmp_write(&f, json)) {
		fprintf(stderr, "  cannot write a temporary file\n");
		return false;
	}
	bool ok = rt_run_path(r, machine, f.path, extra, seed);
	if (!ok)
		fprintf(stderr, "  the file was: %s\n", json);
	unlink(f.path);
	return ok;
}

static double metric(const struct rt_result *r, const char *name)
{
	const struct sl_metric *m = sl_metrics_find(&r->metrics, name);
	return m ? m->value : NAN;
}

static double elapsed(const struct rt_result *r)
{
	return sl_ns_to_s(r->stats.elapsed_ns);
}

static bool near_abs(double a, double b, double tol)
{
	return fabs(a - b) <= tol;
}

/* ---- the loader ---- */

SL_TEST(rtapp_examples_are_accepted)
{
	CHECK(rt_accepts("rtapp:file=examples/rt-app/periodic.json"));
	CHECK(rt_accepts("rtapp:file=examples/rt-app/lock-pair.json"));
	CHECK(rt_accepts("rtapp:file=examples/rt-app/barrier-group.json"));
}

/* rt-app's own examples (Debian's rt-app package), where installed: all
 * 16 load (affinity, classes, mem and iorun, loops for ever, workgen's
 * bare "suspend" keys of the video files). */
SL_TEST(rtapp_debian_examples_load)
{
	static const char *const ok[] = {
		"browser-long.json", "browser-short.json", "mp3-long.json", "mp3-short.json",
		"spreading-tasks.json", "template.json", "video-long.json", "video-short.json",
		"tutorial/example1.json", "tutorial/example2.json", "tutorial/example3.json",
		"tutorial/example4.json", "tutorial/example5.json", "tutorial/example6.json",
		"tutorial/example7.json", "tutorial/example8.json",
	};
	const char *dir = "/usr/share/doc/rt-app/examples/";
	char text[256];

	if (access(dir, R_OK) != 0)
		return;
	for (size_t i = 0; i < sizeof(ok) / sizeof(ok[0]); i++) {
		snprintf(text, sizeof(text), "rtapp:file=%s%s", dir, ok[i]);
		CHECKF(rt_accepts(text), "%s", ok[i]);
	}
}

SL_TEST(rtapp_rejects_missing_and_unreadable_files)
{
	CHECK(rt_rejects("rtapp", "file=", NULL));
	CHECK(rt_rejects("rtapp:file=" DATA "nothere.json", DATA "nothere.json", "cannot open",
			 NULL));
	CHECK(rt_rejects("rtapp:file=" DATA "empty.json", DATA "empty.json", "not valid JSON",
			 NULL));
}

SL_TEST(rtapp_rejects_bad_json_with_its_line)
{
	CHECK(rt_rejects("rtapp:file=" DATA "bad-json.json", DATA "bad-json.json:7:",
			 "not valid JSON", NULL));
	CHECK(rt_rejects("rtapp:file=" DATA "truncated.json", DATA "truncated.json",
			 "ends inside", NULL));
	CHECK(rt_rejects("rtapp:file=" DATA "trailing.json", DATA "trailing.json:8:",
			 "after the end", NULL));
	CHECK(rt_rejects("rtapp:file=" DATA "not-object.json", DATA "not-object.json",
			 "expected a JSON object", NULL));
}

SL_TEST(rtapp_rejects_unknown_keys_naming_file_line_and_key)
{
	CHECK(rt_rejects("rtapp:file=" DATA "unknown-key.json", DATA "unknown-key.json:6:",
			 "tasks.thread0.frobnicate", "unknown key", NULL));
	CHECK(rt_rejects("rtapp:file=" DATA "unknown-global.json", DATA "unknown-global.json:7:",
			 "global.durration", "unknown key", NULL));
	CHECK(rt_rejects("rtapp:file=" DATA "unknown-top.json", DATA "unknown-top.json:5:",
			 "taks", NULL));
	CHECK(rt_rejects("rtapp:file=" DATA "unknown-timer-key.json",
			 DATA "unknown-timer-key.json:7:", "tasks.t.phases.p.timer.perod", NULL));
	CHECK(rt_rejects("rtapp:file=" DATA "event-outside-phases.json",
			 DATA "event-outside-phases.json:5:", "tasks.t.run", "belong in a phase", NULL));
	/* a key with a raw tab and newline (json-c takes them) is quoted
	 * escaped: the message stays one line (found by tests/fuzz/) */
	CHECK(rt_rejects("rtapp:file=" DATA "control-char-key.json", DATA "control-char-key.json:",
			 "global.\\tcla\\nibration", "unknown key", NULL));
}

SL_TEST(rtapp_rejects_wrong_types)
{
	CHECK(rt_rejects("rtapp:file=" DATA "wrong-type-run.json", DATA "wrong-type-run.json:4:",
			 "tasks.t.run", "expected an integer number of microseconds, got a string",
			 NULL));
	CHECK(rt_rejects("rtapp:file=" DATA "wrong-type-duration.json",
			 DATA "wrong-type-duration.json:4:", "global.duration", "got a fractional",
			 NULL));
	CHECK(rt_rejects("rtapp:file=" DATA "wrong-type-timer.json",
			 DATA "wrong-type-timer.json:4:", "tasks.t.timer", "expected an object", NULL));
	CHECK(rt_rejects("rtapp:file=" DATA "wrong-type-lock.json",
			 DATA "wrong-type-lock.json:4:", "tasks.t.lock", "expected a string", NULL));
}

SL_TEST(rtapp_rejects_negative_durations)
{
	CHECK(rt_rejects("rtapp:file=" DATA "negative-sleep.json", DATA "negative-sleep.json:5:",
			 "tasks.t.sleep", "negative duration -5", NULL));
	CHECK(rt_rejects("rtapp:file=" DATA "negative-period.json",
			 DATA "negative-period.json:7:", "tasks.t.phases.p.timer.period", "negative",
			 NULL));
	CHECK(rt_rejects("rtapp:file=" DATA "negative-delay.json", DATA "negative-delay.json:4:",
			 "tasks.t.delay", "negative", NULL));
	CHECK(rt_rejects("rtapp:file=" DATA "negative-duration.json",
			 DATA "negative-duration.json:3:", "global.duration", "out of range", NULL));
	CHECK(rt_rejects("rtapp:file=" DATA "negative-loop.json", DATA "negative-loop.json:4:",
			 "tasks.t.loop", "out of range", NULL));
}

SL_TEST(rtapp_rejects_what_cannot_be_simulated)
{
	CHECK(rt_rejects("rtapp:file=" DATA "sem.json", DATA "sem.json:4:", "tasks.t.sem_post",
			 "not of rt-app 1.0", NULL));
	CHECK(rt_rejects("rtapp:file=" DATA "memrun-object.json", DATA "memrun-object.json:4:",
			 "tasks.t.memrun", "after 1.0", NULL));
	CHECK(rt_rejects("rtapp:file=" DATA "taskgroup.json", DATA "taskgroup.json:4:",
			 "tasks.t.taskgroup", "not supported", NULL));
	CHECK(rt_rejects("rtapp:file=" DATA "pi.json", DATA "pi.json:3:", "global.pi_enabled",
			 NULL));
}

/* Each duration is capped; loops multiply them: a thread whose loops need
 * more simulated time than the horizon is refused when the file is read,
 * unless a duration cuts the run (issue 10: 10000 sleeps of 1e12 us
 * overflowed the clock and printed a negative elapsed time). */
SL_TEST(rtapp_refuses_threads_longer_than_the_time_horizon)
{
	struct rt_result r;

	CHECK(rt_rejects("rtapp:file=" DATA "too-long.json", DATA "too-long.json: tasks.t: ",
			 "horizon of 1000000 s", "global.duration", NULL));
	CHECK(rt_rejects("rtapp:file=" DATA "too-long-duration.json",
			 DATA "too-long-duration.json:2: global.duration", "2000000",
			 "the simulated-time horizon", NULL));
	CHECK(rt_rejects("rtapp:file=" DATA "too-long.json,duration=1000001", "duration", NULL));
	CHECK(rt_accepts("rtapp:file=" DATA "too-long.json,duration=10"));
	if (rt_run_path(&r, ONE_CPU, DATA "too-long.json", ",duration=10", 1))
		CHECKF(elapsed(&r) == 10.0, "%g s", elapsed(&r));
	/* each thread within the horizon: accepted (the engine stops the run
	 * at the horizon when a fork makes them follow each other) */
	CHECK(rt_accepts("rtapp:file=" DATA "horizon-fork.json"));

	/* the boundary: a delay and a run that end at the horizon exactly, or
	 * 1 us past it (without rt-app's own work); with it, 9 us of run and
	 * 0.71 us of own work (one iteration's 700 ns and one event's 10 ns)
	 * fit, 10 us and the own work do not */
	static const struct {
		const char *run, *own;
		const char *refused;	/* NULL: accepted */
	} edge[4] = {
		{ "10", ",iter_ns=0,event_ns=0", NULL },
		{ "11", ",iter_ns=0,event_ns=0", "tasks.t: needs 1000000.000001 s" },
		{ "9", "", NULL },
		{ "10", "", "tasks.t: needs 1000000.000001 s" },
	};
	for (int i = 0; i < 4; i++) {
		struct rt_tmp f;
		char json[128], text[128];
		snprintf(json, sizeof(json), "{\"tasks\": {\"t\": {\"delay\": 999999999990, "
			 "\"loop\": 1, \"phases\": {\"p\": {\"run\": %s}}}}}", edge[i].run);
		CHECK(rt_tmp_write(&f, json));
		snprintf(text, sizeof(text), "rtapp:file=%s%s", f.path, edge[i].own);
		CHECKF(!edge[i].refused ? rt_accepts(text)
					: rt_rejects(text, edge[i].refused, "horizon", NULL), "%d", i);
		unlink(f.path);
	}
}

SL_TEST(rtapp_rejects_inconsistent_files)
{
	CHECK(rt_rejects("rtapp:file=" DATA "duplicate-key.json", DATA "duplicate-key.json:6:",
			 "tasks.t.instance", "repeated", NULL));
	/* a mutex and a barrier may share a name: rt-app 1.0 keys its
	 * resources by name and type */
	CHECK(rt_accepts("rtapp:file=" DATA "mixed-resource.json"));
	CHECK(rt_rejects("rtapp:file=" DATA "fork-unknown.json", DATA "fork-unknown.json:5:",
			 "tasks.u.phases.p.fork", "'nobody'", NULL));
	CHECK(rt_rejects("rtapp:file=" DATA "standstill.json", DATA "standstill.json:3:",
			 "tasks.t", "stand still", NULL));
	CHECK(rt_rejects("rtapp:file=" DATA "no-tasks.json", DATA "no-tasks.json", "tasks",
			 NULL));
	/* forever.json loops for ever without a duration: it runs (the run
	 * stops at the default horizon, rtapp_forever_without_duration) */
	CHECK(rt_accepts("rtapp:file=" DATA "forever.json"));
	CHECK(rt_accepts("rtapp:file=" DATA "forever.json,duration=1"));
}

/* ---- runs worked out by hand ---- */

/* A sleep event is a nanosleep on the policy's kernel timers: one thread
 * runs 0.1 ms and sleeps 1.5 ms.  2.4 (HZ 100) wakes it at IRQ0 of jiffy
 * 0 + 1 + 1, 20 ms; 2.6 (HZ 1000) at its CPU's tick of jiffy 0 + 2 + 1,
 * 3 ms; 6.12 50 us after exact timers would (sim/timers.c). */
SL_TEST(rtapp_sleep_ends_on_the_policys_timer)
{
	static const struct {
		const char *policy;
		double lo, hi;	/* elapsed, s */
	} want[] = {
		{ "linux24", 0.020, 0.0202 }, { "o1", 0.003, 0.0032 }, { "domains", 0.003, 0.0032 },
	};
	const char *json = "{ \"tasks\": { \"t\": { \"loop\": 1, \"phases\": { \"p\": {"
			   " \"run\": 100, \"sleep\": 1500 } } } } }";
	struct rt_result r;

	for (size_t i = 0; i < sizeof(want) / sizeof(want[0]); i++) {
		rt_policy = want[i].policy;
		bool ran = rt_run(&r, TWO_CPUS, json, NULL, 1);
		CHECKF(ran && elapsed(&r) > want[i].lo && elapsed(&r) < want[i].hi, "%s: %.6f s",
		       want[i].policy, ran ? elapsed(&r) : -1);
	}
	rt_policy = "cfs:timers=exact";
	bool ran = rt_run(&r, TWO_CPUS, json, NULL, 1);
	double exact = ran ? elapsed(&r) : -1;
	rt_policy = "cfs";
	ran = rt_run(&r, TWO_CPUS, json, NULL, 1) && ran;
	CHECKF(ran && fabs(elapsed(&r) - exact - 50e-6) < 1e-9, "cfs %.9f s, exact %.9f s",
	       ran ? elapsed(&r) : -1, exact);
	rt_policy = NULL;
}

/* One thread alone on one CPU: five periods of run 1 ms + timer 10 ms.
 * The first timer use sets the origin, so the first slack is the whole
 * period; each later one is the period less the run, the wakeup latency
 * (the switch in from idle) and rt-app's own work after the iteration
 * before (its log row and two events' dispatch: 0.5 + 2 x 0.1 us here,
 * which start the next iteration that much later, outside both periods).
 * Nothing competes, so runs take exactly their reference time. */
SL_TEST(rtapp_periodic_thread_slack_and_latency_by_hand)
{
	struct rt_result r;
	const char *json = "{ \"tasks\": { \"t\": { \"loop\": 1, \"phases\": { \"p\": {"
			   " \"loop\": 5, \"run\": 1000,"
			   " \"timer\": { \"ref\": \"unique\", \"period\": 10000 } } } } } }";
	const double own = 0.5 + 2 * 0.1;	/* us after each iteration */

	/* exact timers: the arithmetic is rt-app's, not the kernel's timer
	 * (engine_nanosleep_* pin those) */
	rt_policy = "up:fork_place=tail,timers=exact";
	bool ran = rt_run(&r, ONE_CPU, json, ",iter_ns=500,event_ns=100", 1);
	rt_policy = NULL;
	if (!ran) {
		CHECK(!"periodic run");
		return;
	}
	double wu = metric(&r, "wu_lat_mean_us");
	CHECK(metric(&r, "threads") == 1);
	CHECK(metric(&r, "loops") == 5);
	CHECK(metric(&r, "timers") == 5);
	CHECK(metric(&r, "missed") == 0);
	CHECK(metric(&r, "run_stretch") == 1.0);
	CHECKF(near_abs(metric(&r, "run_s"), 0.005, 1e-12), "%g", metric(&r, "run_s"));
	CHECKF(wu > 0 && wu < 50, "wakeup latency %g us", wu);
	CHECK(near_abs(metric(&r, "wu_lat_max_us"), wu, 1e-6));	/* all the same */
	/* the timer's origin is the thread's start (rt-app 1.0's t_first):
	 * the first period's slack is 9000 too, the later ones less a wakeup */
	CHECKF(near_abs(metric(&r, "slack_mean_us"), (9000 + 4 * (9000 - wu - own)) / 5, 1e-6),
	       "%g", metric(&r, "slack_mean_us"));
	CHECK(near_abs(metric(&r, "slack_min_us"), 9000 - wu - own, 1e-6));
	/* iterations: 10 ms each from the start, less the own work between
	 * two; the last ends one latency after its expiry */
	CHECKF(near_abs(metric(&r, "t_period_us"), (50000 + wu - 4 * own) / 5, 1e-6), "%g",
	       metric(&r, "t_period_us"));
	CHECK(metric(&r, "t_loops") == 5);
	CHECK(metric(&r, "t_missed") == 0);
}

/* A loop of uncontended lock/unlock pairs takes no time but rt-app's own:
 * Debian's rt-app 1.0 runs a million such iterations in 0.52-0.88 s on
 * the 2-CPU host (docs/workloads.md, "rt-app's own cost").  With that
 * work charged every iteration ends later than it began and all 20,000
 * run: 20,000 x (0.7 + 2 x 0.01) us.  Without it (both 0) nothing moves
 * the clock, and the guard ends the thread as stalled after 10,000 events
 * at one instant - the simulation's answer before rt-app's own work was
 * modelled, wrong against the real program. */
SL_TEST(rtapp_own_work_moves_a_lock_loop_on)
{
	struct rt_result r;
	const char *json = "{ \"tasks\": { \"t\": { \"loop\": 1, \"phases\": { \"p\": {"
			   " \"loop\": 20000, \"lock\": \"m\", \"unlock\": \"m\" } } } } }";

	if (!rt_run(&r, ONE_CPU, json, ",iter_ns=700,event_ns=10", 1)) {
		CHECK(!"lock loop with own work");
		return;
	}
	CHECK(metric(&r, "loops") == 20000);
	CHECK(isnan(metric(&r, "stalled_threads")));	/* reported only when some did */
	/* the thread's work, in a run that also creates and reaps it */
	double own_s = 20000 * (0.7 + 2 * 0.01) * 1e-6;
	CHECKF(sl_ns_to_s(r.stats.user_ns) >= own_s - 1e-9 && elapsed(&r) < own_s + 0.001,
	       "user %g s, elapsed %g s, own work %g s", sl_ns_to_s(r.stats.user_ns), elapsed(&r),
	       own_s);

	if (!rt_run(&r, ONE_CPU, json, ",iter_ns=0,event_ns=0", 1)) {
		CHECK(!"lock loop without own work");
		return;
	}
	CHECK(metric(&r, "stalled_threads") == 1);
	CHECKF(metric(&r, "loops") == 5000, "%g", metric(&r, "loops"));
}

/* Iterations of 6,000 lock/unlock pairs before a 1 us run: the
 * dispatch cost (event_ns) is paid as soon as 1 us of it has accrued, not
 * only when the iteration ends, so that time passes inside a phase of
 * thousands of instant events (a hostile file's, which without it took
 * minutes for a second of simulated time) and the guard never fires. */
SL_TEST(rtapp_own_work_is_paid_inside_a_long_iteration)
{
	struct rt_result r;
	static char json[300000];
	int n = snprintf(json, sizeof(json), "{ \"tasks\": { \"t\": { \"loop\": 1, "
					     "\"phases\": { \"p\": { \"loop\": 3");
	for (int i = 0; i < 6000; i++)
		n += snprintf(json + n, sizeof(json) - (size_t)n,
			      ", \"lock%d\": \"m\", \"unlock%d\": \"m\"", i, i);
	snprintf(json + n, sizeof(json) - (size_t)n, ", \"run\": 1 } } } } }");

	/* without the payment inside the iteration: 12,000 events at one
	 * instant, and the guard ends the thread (stalled_threads 1) */
	if (!rt_run(&r, ONE_CPU, json, ",iter_ns=0,event_ns=100", 1)) {
		CHECK(!"long iteration");
		return;
	}
	CHECK(metric(&r, "loops") == 3);
	CHECK(isnan(metric(&r, "stalled_threads")));
	/* three iterations of 12,001 events at 0.1 us and a 1 us run */
	double work_s = 3 * (12001 * 0.1 + 1) * 1e-6;
	CHECKF(near_abs(sl_ns_to_s(r.stats.user_ns), work_s, 2e-6), "user %g s, expected %g s",
	       sl_ns_to_s(r.stats.user_ns), work_s);
}

/* run 15 ms against a 10 ms period counted from the thread's start (rt-app
 * 1.0's t_first): every period overruns by 5 ms and the thread never
 * sleeps.  Relative mode re-bases on each miss: slack -5 ms each time;
 * absolute mode does not: -5, -10, -15, -20 ms, and each iteration after
 * the first also starts rt-app's own work later (0.7 us of log row and
 * dispatch: iter_ns=500,event_ns=100), so the k-th misses by (k - 1) x 0.7 us
 * more.  Within a microsecond: the policy charges a few hundred ns of
 * scheduler work when a 15 ms run outlasts its timeslice. */
SL_TEST(rtapp_overrunning_timer_relative_and_absolute_by_hand)
{
	struct rt_result r;
	char json[512];
	const char *fmt = "{ \"tasks\": { \"t\": { \"loop\": 1, \"phases\": { \"p\": {"
			  " \"loop\": 4, \"run\": 15000, \"timer\": { \"ref\": \"tick\","
			  " \"period\": 10000, \"mode\": \"%s\" } } } } } }";

	snprintf(json, sizeof(json), fmt, "relative");
	if (!rt_run(&r, ONE_CPU, json, ",iter_ns=500,event_ns=100", 1)) {
		CHECK(!"relative run");
		return;
	}
	CHECK(metric(&r, "timers") == 4);
	CHECK(metric(&r, "missed") == 4);
	CHECK(metric(&r, "missed_pct") == 100);
	CHECK(metric(&r, "wu_lat_mean_us") == 0);	/* no timer slept */
	CHECKF(near_abs(metric(&r, "slack_mean_us"), -5000, 1), "%g",
	       metric(&r, "slack_mean_us"));
	CHECK(near_abs(metric(&r, "slack_min_us"), -5000, 1));

	snprintf(json, sizeof(json), fmt, "absolute");
	if (!rt_run(&r, ONE_CPU, json, ",iter_ns=500,event_ns=100", 1)) {
		CHECK(!"absolute run");
		return;
	}
	CHECK(metric(&r, "missed") == 4);
	CHECKF(near_abs(metric(&r, "slack_mean_us"),
			(-5000 - 10000 - 15000 - 20000 - (0 + 1 + 2 + 3) * 0.7) / 4, 0.3),
	       "%g", metric(&r, "slack_mean_us"));
	CHECKF(near_abs(metric(&r, "slack_min_us"), -20000 - 3 * 0.7, 0.3), "%g",
	       metric(&r, "slack_min_us"));
}

/* A run event is reference work: beside a busy SMT sibling it takes
 * longer.  A runtime event is wall time: 1000 us in 32 us chunks ends at
 * 1024 us alone, and no later than one chunk past 1000 us beside the
 * sibling. */
SL_TEST(rtapp_run_is_work_and_runtime_is_wall_time)
{
	struct rt_result r;
	const char *alone = "{ \"tasks\": { \"t\": { \"loop\": 1, \"phases\": { \"p\": {"
			    " \"runtime\": 1000 } } } } }";
	const char *fmt = "{ \"tasks\": {"
			  " \"hog\": { \"loop\": 1, \"phases\": { \"p\": { \"run\": 50000 } } },"
			  " \"probe\": { \"loop\": 1, \"phases\": { \"p\": { \"sleep\": 5000,"
			  " \"%s\": 1000 } } } } }";
	char json[512];

	if (!rt_run(&r, ONE_CPU, alone, NULL, 1)) {
		CHECK(!"runtime alone");
		return;
	}
	CHECKF(near_abs(metric(&r, "run_s"), 1024e-6, 1e-12), "%g", metric(&r, "run_s"));

	snprintf(json, sizeof(json), fmt, "run");
	if (!rt_run(&r, ONE_HT_CORE, json, NULL, 1)) {
		CHECK(!"run beside a sibling");
		return;
	}
	CHECKF(metric(&r, "probe_run_s") > 1.1e-3, "%g", metric(&r, "probe_run_s"));

	snprintf(json, sizeof(json), fmt, "runtime");
	if (!rt_run(&r, ONE_HT_CORE, json, NULL, 1)) {
		CHECK(!"runtime beside a sibling");
		return;
	}
	double rt = metric(&r, "probe_run_s");
	CHECKF(rt >= 1000e-6 && rt < 1032e-6 + 1e-5, "%g", rt);
}

/* Two threads that each hold one mutex for every 1 ms run are serialised:
 * on two CPUs ten iterations each take 20 ms.  With a mutex each they
 * overlap (not quite 10 ms: o1 starts both on the parent's CPU and
 * balances them later). */
SL_TEST(rtapp_lock_serialises_two_threads)
{
	struct rt_result r;
	const char *fmt = "{ \"tasks\": {"
			  " \"a\": { \"loop\": 1, \"phases\": { \"p\": { \"loop\": 10,"
			  " \"lock\": \"m\", \"run\": 1000, \"unlock\": \"m\" } } },"
			  " \"b\": { \"loop\": 1, \"phases\": { \"p\": { \"loop\": 10,"
			  " \"lock\": \"%s\", \"run\": 1000, \"unlock\": \"%s\" } } } } }";
	char json[512];

	snprintf(json, sizeof(json), fmt, "m", "m");
	if (!rt_run(&r, TWO_CPUS, json, NULL, 1)) {
		CHECK(!"shared mutex");
		return;
	}
	CHECK(metric(&r, "loops") == 20);
	CHECKF(elapsed(&r) >= 0.020 && elapsed(&r) < 0.0215, "%g",
	       elapsed(&r));
	double shared = elapsed(&r);
	/* each description's waits for a CPU, apart (a waiter woken at the
	 * other's unlock waits when o1 still has both threads on one CPU) */
	double wa = metric(&r, "a_wakeup_lat_us_max"), wb = metric(&r, "b_wakeup_lat_us_max");
	CHECKF(wa > 0 && wb > 0 && wa < elapsed(&r) * 1e6 && wb < elapsed(&r) * 1e6 &&
	       metric(&r, "a_runq_delay_us_p50") <= wa, "a %g b %g us", wa, wb);

	snprintf(json, sizeof(json), fmt, "n", "n");
	if (!rt_run(&r, TWO_CPUS, json, NULL, 1)) {
		CHECK(!"own mutexes");
		return;
	}
	CHECKF(elapsed(&r) < 0.8 * shared, "%g vs %g", elapsed(&r), shared);
}

/* Two workers with 1 ms of work and a straggler with 3 ms meet at a
 * barrier: every step lasts 3 ms for all of them (plus wakeups).  Without
 * it the workers go faster: 1 ms steps, or 2 ms while the two share the
 * CPU they were forked on (o1 leaves them there while they are cache-hot,
 * and when it first finds one cold depends on the jiffy a slice ends in;
 * with three workers a shared CPU alone made 3 ms steps). */
SL_TEST(rtapp_barrier_makes_the_group_as_slow_as_its_slowest)
{
	struct rt_result r;
	const char *fmt = "{ \"tasks\": {"
			  " \"worker\": { \"instance\": 2, \"loop\": 1, \"phases\": { \"p\": {"
			  " \"loop\": 20, \"run\": 1000, \"%s\": \"step\" } } },"
			  " \"slow\": { \"loop\": 1, \"phases\": { \"p\": {"
			  " \"loop\": 20, \"run\": 3000, \"%s\": \"step\" } } } } }";
	char json[512];

	snprintf(json, sizeof(json), fmt, "barrier", "barrier");
	if (!rt_run(&r, FOUR_CPUS, json, NULL, 1)) {
		CHECK(!"barrier run");
		return;
	}
	CHECK(metric(&r, "threads") == 3);
	CHECK(metric(&r, "worker_loops") == 40);
	CHECK(metric(&r, "slow_loops") == 20);
	double w = metric(&r, "worker_period_us"), s = metric(&r, "slow_period_us");
	CHECKF(w > 2900 && w < 3300 && s > 2900 && s < 3300, "worker %g slow %g", w, s);
	double with_barrier = w;

	snprintf(json, sizeof(json), fmt, "yield", "yield");	/* no barrier: 1 ms steps */
	if (!rt_run(&r, FOUR_CPUS, json, NULL, 1)) {
		CHECK(!"no-barrier run");
		return;
	}
	CHECKF(metric(&r, "worker_period_us") < 0.8 * with_barrier, "%g",
	       metric(&r, "worker_period_us"));
}

SL_TEST(rtapp_fork_starts_a_thread_of_another_description)
{
	struct rt_result r;
	const char *json = "{ \"tasks\": {"
			   " \"main\": { \"loop\": 1, \"phases\": { \"p\": { \"fork\": \"child\","
			   " \"run\": 1000 } } },"
			   " \"child\": { \"instance\": 0, \"loop\": 1, \"phases\": { \"p\": {"
			   " \"run\": 2000 } } } } }";

	if (!rt_run(&r, TWO_CPUS, json, NULL, 1)) {
		CHECK(!"fork run");
		return;
	}
	CHECK(metric(&r, "threads") == 2);
	CHECK(metric(&r, "main_loops") == 1);
	CHECK(metric(&r, "child_loops") == 1);
	CHECK(metric(&r, "forks_refused") == 0);
	CHECKF(near_abs(metric(&r, "child_run_s"), 0.002, 1e-4), "%g", metric(&r, "child_run_s"));
	CHECK(r.stats.tasks == 3);	/* the root and two threads */
}

/*
 * Tutorial example 4 on one CPU: two threads that run 10 ms, resume the
 * other and suspend themselves take turns, one 10 ms run at a time - as
 * long as the resumed thread does not preempt its resumer on the return
 * from the resume (2.5.33: their priorities stay equal).  Where it does
 * (2.6.0's interactivity bonus for the thread that slept), it runs its 10
 * ms and resumes the other before that one has suspended itself: the
 * broadcast finds no waiter and is lost (pthread_cond_broadcast), and both
 * then wait for ever, as rt-app would on that kernel.
 */
SL_TEST(rtapp_suspend_resume_ping_pong)
{
	struct rt_result r;
	const char *json = "{ \"tasks\": {"
			   " \"thread0\": { \"loop\": -1, \"run\": 10000, \"resume\": \"thread1\","
			   " \"suspend\": \"thread0\" },"
			   " \"thread1\": { \"loop\": -1, \"run\": 10000, \"resume\": \"thread0\","
			   " \"suspend\": \"\" } },"
			   " \"global\": { \"duration\": 1 } }";

	rt_policy = "up:version=2.5.33,fork_place=tail";
	bool ran = rt_run(&r, ONE_CPU, json, ",duration=0.2", 1);
	rt_policy = NULL;
	if (!ran) {
		CHECK(!"ping-pong run");
		return;
	}
	double loops = metric(&r, "loops");
	CHECKF(loops >= 17 && loops <= 20, "%g", loops);
	CHECK(fabs(metric(&r, "thread0_loops") - metric(&r, "thread1_loops")) <= 1);
	CHECKF(near_abs(elapsed(&r), 0.2, 1e-9), "%g", elapsed(&r));

	if (!rt_run(&r, ONE_CPU, json, ",duration=0.2", 1)) {
		CHECK(!"ping-pong run, 2.6.0");
		return;
	}
	loops = metric(&r, "loops");
	CHECKF(loops >= 2 && loops <= 5, "2.6.0: %g", loops);
	CHECKF(near_abs(elapsed(&r), 0.2, 1e-9), "%g", elapsed(&r));
}

/* signal wakes one waiter, broad all; a signal nobody waits for is lost. */
SL_TEST(rtapp_condition_signal_and_broadcast)
{
	struct rt_result r;
	const char *fmt = "{ \"tasks\": {"
			  " \"waiter\": { \"instance\": 3, \"loop\": 1, \"phases\": { \"p\": {"
			  " \"lock\": \"m\", \"wait\": { \"ref\": \"c\", \"mutex\": \"m\" },"
			  " \"unlock\": \"m\", \"run\": 1000 } } },"
			  " \"waker\": { \"loop\": 1, \"phases\": { \"p\": { \"sleep\": 5000,"
			  " \"%s\": \"c\" } } } } }";
	char json[512];

	snprintf(json, sizeof(json), fmt, "broad");
	if (!rt_run(&r, FOUR_CPUS, json, NULL, 1)) {
		CHECK(!"broadcast run");
		return;
	}
	CHECK(metric(&r, "waiter_loops") == 3);
	CHECK(elapsed(&r) < 0.01);	/* all done soon after 5 ms */

	snprintf(json, sizeof(json), fmt, "signal");	/* two wait for ever: stop at 1 s */
	if (!rt_run(&r, FOUR_CPUS, json, ",duration=1", 1)) {
		CHECK(!"signal run");
		return;
	}
	CHECK(metric(&r, "waiter_loops") == 1);	/* two still wait at the 1 s limit */
	CHECK(near_abs(elapsed(&r), 1.0, 1e-9));
}

/* Workgen-style files repeat event keys and phase names; they are taken in
 * order (one CPU: 1 + 2 ms of runs, 1 ms of sleep, twice through "p"). */
SL_TEST(rtapp_repeated_events_and_phases_run_in_order)
{
	struct rt_result r;
	const char *json = "{ \"tasks\": { \"t\": { \"loop\": 1, \"phases\": {"
			   " \"p\": { \"run\": 1000, \"sleep\": 1000, \"run\": 2000 },"
			   " \"p\": { \"run\": 500 } } } } }";

	if (!rt_run(&r, ONE_CPU, json, NULL, 1)) {
		CHECK(!"repeated keys");
		return;
	}
	CHECK(metric(&r, "loops") == 2);
	CHECKF(near_abs(metric(&r, "run_s"), 0.0035, 1e-12), "%g", metric(&r, "run_s"));
}

/* ---- many keys: the loader's name lookups cost O(1) per name ---- */

#define MANY 20000

/* Scratch memory for rt_config_load, freed as a whole. */
struct many_arena {
	int n;
	void *blocks[4 * MANY + 64];
};

static void *many_alloc(void *ctx, size_t size)
{
	struct many_arena *a = ctx;

	if (a->n == (int)(sizeof(a->blocks) / sizeof(a->blocks[0])))
		return NULL;
	return a->blocks[a->n++] = sl_xcalloc(1, size ? size : 1);
}

/* Load json with rt_config_load; the comparisons its lookups made, or
 * ULONG_MAX if it failed (message in err). */
static unsigned long many_load(const char *json, struct sl_err *err)
{
	static struct many_arena arena;
	struct rt_alloc a = { many_alloc, &arena };
	struct rt_config cfg;
	struct rt_tmp f;
	unsigned long compares = ULONG_MAX;

	memset(err, 0, sizeof(*err));
	if (rt_tmp_write(&f, json)) {
		if (rt_config_load(&cfg, f.path, &a, err) == 0)
			compares = cfg.key_compares;
		unlink(f.path);
	}
	while (arena.n > 0)
		free(arena.blocks[--arena.n]);
	return compares;
}

/* A string builder for the big files below. */
static char *many_text(size_t *used, char *buf, const char *fmt, int i)
{
	size_t room = 64 * (size_t)MANY + 4096 - *used;
	int w = snprintf(buf + *used, room, fmt, i, i);
	*used += w > 0 && (size_t)w < room ? (size_t)w : 0;
	return buf;
}

SL_TEST(rtapp_many_keys_load_with_constant_work_per_key)
{
	char *buf = sl_xmalloc(64 * (size_t)MANY + 4096);
	size_t used = 0;
	struct sl_err err;

	/* MANY resources (an ignored object, one key per line), MANY repeated
	 * "run" events in a phase (numbered), and MANY distinct mutexes */
	many_text(&used, buf, "{ \"resources\": {\n", 0);
	for (int i = 0; i < MANY; i++)
		many_text(&used, buf, "\"r%d\": {},\n", i);
	many_text(&used, buf, "\"last\": {} },\n\"tasks\": { \"t\": { \"loop\": 1, "
		  "\"phases\": { \"p\": {", 0);
	for (int i = 0; i < MANY; i++)
		many_text(&used, buf, "\"run\": 1, \"lock\": \"m%d\", \"unlock\": \"m%d\", ", i);
	many_text(&used, buf, "\"sleep\": 1 } } } } }", 0);
	unsigned long compares = many_load(buf, &err);
	/* a linear search made MANY^2/2 comparisons per kind of key */
	CHECKF(compares <= 4UL * MANY, "%lu comparisons for %d keys: %s", compares, 4 * MANY,
	       err.msg);

	/* a repeated key at the first and the last position is still found,
	 * at the line of its second occurrence */
	used = 0;
	many_text(&used, buf, "{ \"tasks\": { \"t\": { \"loop\": 1, \"run\": 1 } },\n"
		  "\"resources\": {\n", 0);
	for (int i = 0; i < MANY; i++)
		many_text(&used, buf, "\"r%d\": {},\n", i);
	many_text(&used, buf, "\"r0\": {} } }", 0);
	CHECK(many_load(buf, &err) == ULONG_MAX);
	char want[64];
	snprintf(want, sizeof(want), ":%d: resources.r0: key repeated", MANY + 3);
	CHECKF(strstr(err.msg, want) != NULL, "%s", err.msg);
	free(buf);
}

/* Keys are compared as json-c stores them, escapes decoded: json-c kept
 * only the last of "instance" and "inst\u0061nce", silently. */
SL_TEST(rtapp_repeated_keys_found_through_escapes)
{
	static const char *const dups[][2] = {
		{ "{ \"tasks\": { \"t\": { \"instance\": 1, \"inst\\u0061nce\": 3, \"run\": 1 } } }",
		  "tasks.t.instance: key repeated" },
		{ "{ \"tasks\": { \"t\": { \"run\": 1 } }, \"resources\": { \"a\": 1, \"a\\u0000b\": 2 } }",
		  "resources.a: key repeated" },		/* keys are C strings */
		{ "{ \"tasks\": { \"t\": { \"run\": 1 } }, \"resources\": { \"\\ud800\": 1, \"\\udc00\": 2 } }",
		  "key repeated" },			/* both U+FFFD */
		{ "{ \"tasks\": { \"t\": { \"run\": 1 } }, \"resources\": { \"\\ud83d\\ude00\": 1, "
		  "\"\xf0\x9f\x98\x80\": 2 } }", "key repeated" },	/* a pair is one character */
		{ "{ \"tasks\": { \"t\": { \"run\": 1 } }, \"resources\": { \"\\n\\/\": 1, \"\\u000a/\": 2 } }",
		  "key repeated" },
	};
	struct sl_err err;

	for (size_t i = 0; i < sizeof(dups) / sizeof(dups[0]); i++) {
		bool refused = many_load(dups[i][0], &err) == ULONG_MAX;
		CHECKF(refused && strstr(err.msg, dups[i][1]), "%s -> %s", dups[i][0], err.msg);
	}
	/* distinct after decoding: accepted */
	CHECK(many_load("{ \"tasks\": { \"t\": { \"run\": 1, \"loop\": 1 } }, \"resources\": "
			"{ \"\\u00e9\": 1, \"e\": 2, \"\\ud800\": 3 } }", &err) != ULONG_MAX);

	/* a repeated event written with an escape is numbered and runs */
	struct rt_result r;
	const char *json = "{ \"tasks\": { \"t\": { \"loop\": 1, \"phases\": {"
			   " \"p\": { \"run\": 1000, \"r\\u0075n\": 2000 } } } } }";
	if (rt_run(&r, ONE_CPU, json, NULL, 1))
		CHECKF(near_abs(metric(&r, "run_s"), 0.003, 1e-12), "%g", metric(&r, "run_s"));
	else
		CHECK(!"escaped repeated event");
}

/* MANY repeated events run in order: every one of them is simulated. */
SL_TEST(rtapp_many_repeated_events_all_run)
{
	char *buf = sl_xmalloc(64 * (size_t)MANY + 4096);
	size_t used = 0;
	struct rt_result r;

	many_text(&used, buf, "{ \"tasks\": { \"t\": { \"loop\": 1, \"phases\": { \"p\": {", 0);
	for (int i = 0; i < MANY; i++)
		many_text(&used, buf, "\"run\": 10, \"sleep\": 10, ", i);
	many_text(&used, buf, "\"run\": 10 } } } } }", 0);
	if (rt_run(&r, ONE_CPU, buf, NULL, 1))
		/* within half an event: a lost event would show */
		CHECKF(near_abs(metric(&r, "run_s"), (MANY + 1) * 10e-6, 5e-6), "%g",
		       metric(&r, "run_s"));
	else
		CHECK(!"many repeated events");
	free(buf);
}

/* The shipped examples run on an HT machine and give what their comments
 * describe; the same seed gives the same metrics. */
SL_TEST(rtapp_examples_run_and_are_deterministic)
{
	static const struct {
		const char *file;
		double threads;
	} ex[] = {
		{ "examples/rt-app/periodic.json", 4 },
		{ "examples/rt-app/lock-pair.json", 2 },
		{ "examples/rt-app/barrier-group.json", 4 },
	};
	for (size_t i = 0; i < sizeof(ex) / sizeof(ex[0]); i++) {
		struct rt_result a, b;
		if (!rt_run_path(&a, "p4dpe-2x2ht", ex[i].file, ",duration=0.3", 7) ||
		    !rt_run_path(&b, "p4dpe-2x2ht", ex[i].file, ",duration=0.3", 7)) {
			CHECKF(0, "%s ran", ex[i].file);
			continue;
		}
		CHECKF(metric(&a, "threads") == ex[i].threads, "%s: %g threads", ex[i].file,
		       metric(&a, "threads"));
		CHECKF(metric(&a, "loops") > 10, "%s: %g loops", ex[i].file, metric(&a, "loops"));
		CHECK(a.metrics.n == b.metrics.n);
		bool same = true;
		for (int m = 0; m < a.metrics.n && m < b.metrics.n; m++)
			same &= a.metrics.m[m].value == b.metrics.m[m].value;
		CHECKF(same, "%s differs between identical runs", ex[i].file);
	}
}

/* periodic.json: 0.72 of one CPU over four logical CPUs misses nothing.
 * audio's slack is its 10 ms period less its 1 ms run less the wakeup
 * latency, and a 2.6 nanosleep ends up to two jiffies (2 ms at o1's HZ)
 * after its time (sim/timers.c). */
SL_TEST(rtapp_periodic_example_meets_its_deadlines_on_ht)
{
	struct rt_result r;

	if (!rt_run_path(&r, "p4dpe-2x2ht", "examples/rt-app/periodic.json", ",duration=1", 1)) {
		CHECK(!"periodic example");
		return;
	}
	CHECK(metric(&r, "missed") == 0);
	CHECKF(metric(&r, "audio_slack_us") > 7000, "%g", metric(&r, "audio_slack_us"));
	CHECKF(metric(&r, "timers") > 250, "%g", metric(&r, "timers"));
	CHECK(near_abs(elapsed(&r), 1.0, 1e-9));
}
