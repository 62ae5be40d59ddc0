/*
 * parse.c - the loader of rt-app JSON files (docs/workloads.md, rtapp):
 * json-c reads the text (it accepts the comments and trailing commas of
 * rt-app's own examples, as rt-app does, since rt-app uses json-c too);
 * this file checks every key against the grammar and builds the struct
 * rt_config that rtapp.c runs.
 *
 * What is accepted (section 8.6's subset, checked against rt-app 1.0, the
 * Debian package, and rt-app's doc/tutorial.txt):
 *   - top level: "tasks" (required), "global", "resources" (legacy, its
 *     contents ignored: resources are created where they are named);
 *   - global: duration, calibration ("CPUn" or ns per loop), default_policy,
 *     log_basename, cumulative_slack, mem_buffer_size, and keys that only
 *     shape rt-app's own output or memory: logdir, log_size, ftrace,
 *     gnuplot, io_device, lock_pages, pi_enabled (false only), and "frag",
 *     an obsolete key of rt-app's older examples that rt-app 1.0 ignores;
 *   - a thread: instance, loop, delay, cpus, policy, priority, dl-runtime,
 *     dl-period, dl-deadline, phases, or its events directly (one phase);
 *   - a phase: loop, cpus, policy, priority and events;
 *   - events, recognised by key prefix in file order as rt-app does
 *     ("run1", "sleep_a"): runtime, run, sleep, timer {ref, period, mode},
 *     lock, unlock, barrier, fork, yield, wait {ref, mutex}, signal, broad,
 *     sync {ref, mutex}, suspend, resume, mem (and "memrun": N, which rt-app
 *     1.0 reads as mem by prefix), iorun.
 * Anything else is an error naming the file, the line of the key and the
 * key's path ("tasks.thread0.phases.p1.run"): unknown keys; keys of
 * upstream rt-app after 1.0 (taskgroup, util_min, memrun objects,
 * sem_post, ...); priorities outside their class's range; wrong types;
 * negative durations; a key repeated in one object (json-c would keep only the last)
 * other than an event or a phase name; a fork of an unknown thread; a
 * thread that repeats for ever without anything that takes time.
 *
 * Repeated events and phase names, as workgen-style files write them
 * ("run", "sleep", "run" in one phase: rt-app's own examples do), are taken
 * in order: they are numbered ("run#2") in the text before json-c reads it,
 * as workgen does before handing a file to rt-app; and workgen's bare
 * "suspend" key (`"suspend",`) becomes "suspend": "" (the thread's own).
 * Resources have a namespace per kind (rt-app 1.0's get_resource_index
 * looks up name and type).
 *
 * Sources: rt-app doc/tutorial.txt and doc/examples (Debian rt-app 1.0-1,
 * /usr/share/doc/rt-app); github.com/scheduler-tools/rt-app
 * src/rt-app_parse_config.c.
 *
 * Omitted / simplified:
 *   - json-c gives no positions for values, so a small scanner of the raw
 *     text (scan.c) finds the line of a key from its path; a key written with escape
 *     sequences gets no line number, and keys are compared as written when
 *     looking for repeated ones;
 *   - "resources" is not checked beyond being an object (rt-app ignores it).
 */
#include <errno.h>
#include <json-c/json.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/readfile.h"
#include "base/strmap.h"
#include "sim/task.h"
#include "workload/rtapp/config.h"
#include "workload/rtapp/scan.h"

#define RT_MAX_FILE (16L << 20)
#define RT_MAX_US 1000000000000LL	/* 11.6 days: keeps nanoseconds in range */
#define RT_MAX_DEPTH 16			/* key path kept for messages */

/* ---- event names ---- */

struct ev_name {
	const char *prefix;
	enum rt_ev_kind kind;
};

/* Longer names first: "runtime" before "run". */
static const struct ev_name ev_names[] = {
	{ "runtime", RT_EV_RUNTIME }, { "run", RT_EV_RUN }, { "sleep", RT_EV_SLEEP },
	{ "timer", RT_EV_TIMER }, { "lock", RT_EV_LOCK }, { "unlock", RT_EV_UNLOCK },
	{ "barrier", RT_EV_BARRIER }, { "fork", RT_EV_FORK }, { "yield", RT_EV_YIELD },
	{ "wait", RT_EV_WAIT }, { "signal", RT_EV_SIGNAL }, { "broad", RT_EV_BROAD },
	{ "sync", RT_EV_SYNC }, { "suspend", RT_EV_SUSPEND }, { "resume", RT_EV_RESUME },
	{ "mem", RT_EV_MEM }, { "iorun", RT_EV_IORUN },
};

/* Events of upstream rt-app after 1.0 that 1.0 refuses too (their prefixes). */
static const char *const ev_unsupported[] = { "sem_post", "sem_wait" };

/* Whether raw key text `s` (n bytes) names an event (rt_scan's event_key):
 * an event or an event of rt-app after 1.0, by prefix, as event_kind reads it. */
static bool is_event_name(const char *s, size_t n)
{
	for (size_t i = 0; i < sizeof(ev_names) / sizeof(ev_names[0]); i++)
		if (n >= strlen(ev_names[i].prefix) &&
		    !memcmp(s, ev_names[i].prefix, strlen(ev_names[i].prefix)))
			return true;
	for (size_t i = 0; i < sizeof(ev_unsupported) / sizeof(ev_unsupported[0]); i++)
		if (n >= strlen(ev_unsupported[i]) &&
		    !memcmp(s, ev_unsupported[i], strlen(ev_unsupported[i])))
			return true;
	return false;
}

/* ---- the loader ---- */

struct res {
	const char *name;		/* json-c's string, valid while parsing */
	enum rt_res_kind kind;
	int index;			/* within its kind */
	int last_task;			/* barriers: last task counted among its users */
};

struct loader {
	const char *path;
	const char *text;
	size_t len;
	const struct rt_alloc *a;
	struct sl_err *err;
	struct rt_config *cfg;
	const char *keys[RT_MAX_DEPTH];	/* path of the object being read */
	int depth;
	int nres, capres;
	struct res *res;
	struct sl_strmap res_ids[4];	/* per enum rt_res_kind: name -> index in res */
	int nuniq;			/* unique timers of the task being read */
	struct sl_strmap uniq_ids;	/* their names -> index */
	struct sl_strmap task_ids;	/* task name -> index in cfg->tasks */
	int task;			/* index of the task being read */
	const char **barrier_of;	/* per task: a barrier it uses, or NULL */
	int *parties;			/* per barrier: threads that use it */
};

static int fail(struct loader *L, const char *key, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

/* "FILE:LINE: a.b.key: message" (no line when the key cannot be found). */
static int fail(struct loader *L, const char *key, const char *fmt, ...)
{
	const char *want[RT_MAX_DEPTH + 1];
	char msg[384], path[256] = "";
	size_t used = 0;
	int n = 0;
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	for (int i = 0; i < L->depth && i < RT_MAX_DEPTH; i++)
		want[n++] = L->keys[i];
	if (key)
		want[n++] = key;
	for (int i = 0; i < n && used < sizeof(path); i++) {
		int w = snprintf(path + used, sizeof(path) - used, "%s%s", i ? "." : "", want[i]);
		used += w > 0 ? (size_t)w : 0;
	}
	struct rt_scan sc = { .want = want, .nwant = n, .event_key = is_event_name };
	if (n > 0)
		rt_scan_text(&sc, L->text, L->len);
	if (n == 0)
		return sl_fail(L->err, "%s: %s", L->path, msg);
	if (sc.line > 0)
		return sl_fail(L->err, "%s:%d: %s: %s", L->path, sc.line, path, msg);
	return sl_fail(L->err, "%s: %s: %s", L->path, path, msg);
}

static void push(struct loader *L, const char *key)
{
	if (L->depth < RT_MAX_DEPTH)
		L->keys[L->depth] = key;
	L->depth++;
}

static void pop(struct loader *L)
{
	L->depth--;
}

static void *alloc(struct loader *L, size_t size)
{
	return L->a->alloc(L->a->ctx, size ? size : 1);
}

static const char *copy_str(struct loader *L, const char *s)
{
	size_t n = strlen(s) + 1;
	char *p = alloc(L, n);
	memcpy(p, s, n);
	return p;
}

static const char *type_name(json_object *v)
{
	switch (json_object_get_type(v)) {
	case json_type_null:
		return "null";
	case json_type_boolean:
		return "a boolean";
	case json_type_double:
		return "a fractional number";
	case json_type_int:
		return "an integer";
	case json_type_object:
		return "an object";
	case json_type_array:
		return "an array";
	case json_type_string:
		return "a string";
	}
	return "something else";
}

static int want_type(struct loader *L, const char *key, json_object *v, enum json_type t,
		     const char *what)
{
	if (json_object_is_type(v, t))
		return 0;
	return fail(L, key, "expected %s, got %s", what, type_name(v));
}

static int get_int(struct loader *L, const char *key, json_object *v, long long min,
		   long long max, const char *what, long long *out)
{
	if (want_type(L, key, v, json_type_int, what))
		return -1;
	errno = 0;
	long long x = json_object_get_int64(v);
	if (errno || x < min || x > max)
		return fail(L, key, "%lld is out of range: expected %s", x, what);
	*out = x;
	return 0;
}

/* A duration in microseconds, as rt-app writes them, to nanoseconds. */
static int get_us(struct loader *L, const char *key, json_object *v, sl_time *ns)
{
	long long us;

	if (json_object_is_type(v, json_type_int) && json_object_get_int64(v) < 0)
		return fail(L, key, "negative duration %lld: expected microseconds >= 0",
			    (long long)json_object_get_int64(v));
	if (get_int(L, key, v, 0, RT_MAX_US, "an integer number of microseconds", &us))
		return -1;
	*ns = (sl_time)us * SL_USEC;
	return 0;
}

/* A loop count: -1 (for ever) or >= 0. */
static int get_loop(struct loader *L, const char *key, json_object *v, long *out)
{
	long long x;

	if (get_int(L, key, v, -1, 1000000000000LL, "a loop count (-1 for ever, or >= 0)", &x))
		return -1;
	*out = (long)x;
	return 0;
}

static int get_string(struct loader *L, const char *key, json_object *v, bool empty_ok,
		      const char **out)
{
	if (want_type(L, key, v, json_type_string, "a string"))
		return -1;
	*out = json_object_get_string(v);
	if (!empty_ok && !**out)
		return fail(L, key, "expected a non-empty name");
	return 0;
}

/* rt-app's policy names (string_to_policy) and the kernel's numbers. */
static const struct {
	const char *name;
	int policy;
} policies[] = {
	{ "SCHED_OTHER", SL_SCHED_NORMAL }, { "SCHED_FIFO", SL_SCHED_FIFO },
	{ "SCHED_RR", SL_SCHED_RR }, { "SCHED_BATCH", SL_SCHED_BATCH },
	{ "SCHED_IDLE", SL_SCHED_IDLE }, { "SCHED_DEADLINE", SL_SCHED_DEADLINE },
};

const char *rt_policy_name(int policy)
{
	for (size_t i = 0; i < sizeof(policies) / sizeof(policies[0]); i++)
		if (policies[i].policy == policy)
			return policies[i].name;
	return "SCHED_?";
}

static int parse_policy(struct loader *L, const char *key, json_object *v, int *out)
{
	const char *p;

	if (get_string(L, key, v, false, &p))
		return -1;
	for (size_t i = 0; i < sizeof(policies) / sizeof(policies[0]); i++)
		if (!strcmp(p, policies[i].name)) {
			*out = policies[i].policy;
			return 0;
		}
	return fail(L, key, "unknown policy '%s' (rt-app knows SCHED_OTHER, SCHED_FIFO, "
		    "SCHED_RR, SCHED_BATCH, SCHED_IDLE, SCHED_DEADLINE)", p);
}

/* "priority" under `policy`: the nice value (-20..19) of the time-sharing
 * classes, rt_priority 1..99 of FIFO and RR, 0 under DEADLINE (rt-app's
 * set_thread_param: the kernel refuses anything else). */
static int check_prio(struct loader *L, const char *key, long long x, int policy)
{
	if (rt_class(policy) && (x < 1 || x > SL_RT_PRIO_MAX))
		return fail(L, key, "%lld is out of range: %s takes a priority 1..%d", x,
			    rt_policy_name(policy), SL_RT_PRIO_MAX);
	if (policy == SL_SCHED_DEADLINE && x != 0)
		return fail(L, key, "%lld: SCHED_DEADLINE takes no priority (0)", x);
	if (!rt_class(policy) && policy != SL_SCHED_DEADLINE && (x < -20 || x > 19))
		return fail(L, key, "%lld is out of range: %s takes a nice value -20..19", x,
			    rt_policy_name(policy));
	return 0;
}

/* The keys of rt-app's sched_data in `obj` (a thread or a phase): policy,
 * priority and SCHED_DEADLINE's dl-runtime, dl-period, dl-deadline.  A
 * thread's missing policy is global.default_policy; a phase's is the
 * thread's current one (checked at the end of the thread: check_phase_prio). */
static int parse_sched(struct loader *L, json_object *obj, struct rt_sched *s, bool phase)
{
	static const char *const dl_keys[] = { "dl-runtime", "dl-period", "dl-deadline" };
	json_object *v, *prio = NULL;
	sl_time dl[3] = { 0, 0, 0 };
	bool any_dl = false;
	long long x;

	s->policy = L->cfg->default_policy;
	s->same_policy = phase;
	if (json_object_object_get_ex(obj, "policy", &v)) {
		if (parse_policy(L, "policy", v, &s->policy))
			return -1;
		s->same_policy = false;
		s->set = true;
	}
	if (json_object_object_get_ex(obj, "priority", &prio)) {
		if (get_int(L, "priority", prio, -1000000, 1000000, "an integer priority", &x))
			return -1;
		s->prio = (int)x;
		s->prio_given = true;
		s->set = true;
	}
	for (int i = 0; i < 3; i++)
		if (json_object_object_get_ex(obj, dl_keys[i], &v)) {
			if (get_us(L, dl_keys[i], v, &dl[i]))
				return -1;
			any_dl = true;
		}
	if (any_dl && (s->same_policy || s->policy != SL_SCHED_DEADLINE))
		return fail(L, json_object_object_get_ex(obj, "dl-runtime", &v) ? "dl-runtime" :
			    json_object_object_get_ex(obj, "dl-period", &v) ? "dl-period" :
			    "dl-deadline", "deadline parameters without \"policy\": "
			    "\"SCHED_DEADLINE\" here (rt-app would ignore them)");
	if (!s->prio_given && !s->same_policy)
		s->prio = rt_class(s->policy) ? 10 : 0;	/* rt-app's defaults */
	if (s->prio_given && !s->same_policy && check_prio(L, "priority", s->prio, s->policy))
		return -1;
	if (!s->same_policy && s->policy == SL_SCHED_DEADLINE) {
		s->dl_runtime = dl[0];
		s->dl_period = dl[1] ? dl[1] : dl[0];
		s->dl_deadline = dl[2] ? dl[2] : s->dl_period;
		if (s->dl_runtime == 0)
			return fail(L, "policy", "SCHED_DEADLINE needs \"dl-runtime\" > 0");
		if (s->dl_runtime > s->dl_deadline || s->dl_deadline > s->dl_period)
			return fail(L, "dl-runtime", "expected dl-runtime <= dl-deadline <= "
				    "dl-period (sched_setattr refuses others)");
		L->cfg->has_deadline = true;
	}
	return 0;
}

/* A "cpus" list: CPU numbers (rt-app's CPU_SET of each); checked against
 * the machine before the run (rtapp.c). */
static int parse_cpus(struct loader *L, json_object *v, struct rt_cpus *c)
{
	if (want_type(L, "cpus", v, json_type_array, "an array of CPU numbers ([0, 2])"))
		return -1;
	size_t n = json_object_array_length(v);
	if (n == 0)
		return fail(L, "cpus", "an empty CPU list (sched_setaffinity refuses it)");
	sl_cpumask_clear(&c->mask);
	c->max = -1;
	for (size_t i = 0; i < n; i++) {
		long long x;
		if (get_int(L, "cpus", json_object_array_get_idx(v, i), 0, SL_MAX_CPUS - 1,
			    "CPU numbers 0..255", &x))
			return -1;
		sl_cpumask_set(&c->mask, (int)x);
		if (x > c->max)
			c->max = (int)x;
	}
	c->set = true;
	return 0;
}

/* The index of resource `name` of `kind`, created at its first mention.
 * Each kind has its own names, as in rt-app 1.0 (get_resource_index looks
 * up name and type): a mutex and a barrier may both be called "x". */
static int resource(struct loader *L, const char *key, const char *name, enum rt_res_kind kind,
		    int *index)
{
	int added, *id = sl_strmap_put(&L->res_ids[kind], name, strlen(name), &added);

	(void)key;
	if (!added) {
		*index = *id;
		return 0;
	}
	*id = L->nres;
	if (L->nres == L->capres) {
		L->capres = L->capres ? 2 * L->capres : 16;
		L->res = sl_xrealloc(L->res, sizeof(*L->res) * (unsigned long)L->capres);
	}
	L->res[L->nres] = (struct res){ .name = name, .kind = kind,
					.index = L->cfg->nres[kind]++, .last_task = -1 };
	if (kind == RT_RES_BARRIER) {
		int n = L->cfg->nres[RT_RES_BARRIER];
		L->parties = sl_xrealloc(L->parties, sizeof(int) * (unsigned long)n);
		L->parties[n - 1] = 0;
	}
	*index = L->nres++;
	return 0;
}

static int task_index(struct loader *L, const char *name)
{
	int *id = sl_strmap_find(&L->task_ids, name, strlen(name));

	return id ? *id : -1;
}

/* ---- events ---- */

static int parse_timer(struct loader *L, const char *key, json_object *v, struct rt_event *ev)
{
	const char *ref = NULL, *mode = "relative";
	bool have_period = false;

	if (want_type(L, key, v, json_type_object,
		      "an object {\"ref\": name, \"period\": microseconds, \"mode\": ...}"))
		return -1;
	push(L, key);
	json_object_object_foreach(v, k, x) {
		if (!strcmp(k, "ref")) {
			if (get_string(L, k, x, false, &ref))
				goto fail;
		} else if (!strcmp(k, "period")) {
			if (get_us(L, k, x, &ev->ns))
				goto fail;
			have_period = true;
		} else if (!strcmp(k, "mode")) {
			if (get_string(L, k, x, false, &mode))
				goto fail;
			if (strcmp(mode, "relative") && strcmp(mode, "absolute")) {
				fail(L, k, "expected \"relative\" or \"absolute\", got \"%s\"", mode);
				goto fail;
			}
		} else {
			fail(L, k, "unknown key in a timer (expected ref, period, mode)");
			goto fail;
		}
	}
	pop(L);
	if (!ref)
		return fail(L, key, "the timer needs a \"ref\" (its name)");
	if (!have_period)
		return fail(L, key, "the timer needs a \"period\" in microseconds");
	ev->absolute = !strcmp(mode, "absolute");
	ev->unique = !strncmp(ref, "unique", 6);
	if (!ev->unique) {
		int r;
		if (resource(L, key, ref, RT_RES_TIMER, &r))
			return -1;
		ev->res = L->res[r].index;
		return 0;
	}
	int added, *id = sl_strmap_put(&L->uniq_ids, ref, strlen(ref), &added);
	if (added)
		*id = L->nuniq++;
	ev->res = *id;
	return 0;
fail:
	pop(L);
	return -1;
}

/* {"ref": condition, "mutex": mutex} of wait and sync. */
static int parse_cond_wait(struct loader *L, const char *key, json_object *v, struct rt_event *ev)
{
	const char *ref = NULL, *mutex = NULL;
	int r;

	if (want_type(L, key, v, json_type_object, "an object {\"ref\": name, \"mutex\": name}"))
		return -1;
	push(L, key);
	json_object_object_foreach(v, k, x) {
		const char **dst = !strcmp(k, "ref") ? &ref : !strcmp(k, "mutex") ? &mutex : NULL;
		if (!dst) {
			fail(L, k, "unknown key (expected ref, mutex)");
			pop(L);
			return -1;
		}
		if (get_string(L, k, x, false, dst)) {
			pop(L);
			return -1;
		}
	}
	pop(L);
	if (!ref || !mutex)
		return fail(L, key, "needs both \"ref\" (the condition) and \"mutex\"");
	if (resource(L, key, ref, RT_RES_COND, &r))
		return -1;
	ev->res = L->res[r].index;
	if (resource(L, key, mutex, RT_RES_MUTEX, &r))
		return -1;
	ev->mutex = L->res[r].index;
	return 0;
}

static bool prefixed(const char *key, const char *prefix)
{
	return !strncmp(key, prefix, strlen(prefix));
}

/* -1: not an event key; else the kind.  Unsupported events are errors. */
static int event_kind(struct loader *L, const char *key, bool *bad)
{
	*bad = false;
	for (size_t i = 0; i < sizeof(ev_unsupported) / sizeof(ev_unsupported[0]); i++)
		if (prefixed(key, ev_unsupported[i])) {
			*bad = true;
			return fail(L, key, "'%s' is an event of upstream rt-app after 1.0, not of "
				    "rt-app 1.0 (Debian's), and is not simulated", ev_unsupported[i]);
		}
	for (size_t i = 0; i < sizeof(ev_names) / sizeof(ev_names[0]); i++)
		if (prefixed(key, ev_names[i].prefix))
			return (int)ev_names[i].kind;
	return -1;
}

static int parse_event(struct loader *L, const char *key, json_object *v, enum rt_ev_kind kind,
		       struct rt_event *ev)
{
	const char *name;
	int r;

	*ev = (struct rt_event){ .kind = kind };
	switch (kind) {
	case RT_EV_RUN:
	case RT_EV_RUNTIME:
	case RT_EV_SLEEP:
		return get_us(L, key, v, &ev->ns);
	case RT_EV_TIMER:
		L->cfg->has_timers = true;
		L->cfg->tasks[L->task].has_timer = true;
		return parse_timer(L, key, v, ev);
	case RT_EV_LOCK:
	case RT_EV_UNLOCK:
		if (get_string(L, key, v, false, &name) || resource(L, key, name, RT_RES_MUTEX, &r))
			return -1;
		ev->res = L->res[r].index;
		return 0;
	case RT_EV_BARRIER:
		if (get_string(L, key, v, false, &name) ||
		    resource(L, key, name, RT_RES_BARRIER, &r))
			return -1;
		ev->res = L->res[r].index;
		if (L->res[r].last_task != L->task) {	/* count each thread once */
			L->res[r].last_task = L->task;
			L->parties[ev->res] += L->cfg->tasks[L->task].instance;
		}
		if (!L->barrier_of[L->task])
			L->barrier_of[L->task] = name;
		return 0;
	case RT_EV_MEM:
	case RT_EV_IORUN:
		if (kind == RT_EV_MEM && json_object_is_type(v, json_type_object))
			return fail(L, key, "memrun objects {type, size, count} are upstream "
				    "rt-app's, after 1.0, and are not simulated: rt-app 1.0 takes "
				    "\"mem\": bytes");
		if (get_int(L, key, v, 0, 1LL << 40, "a size in bytes", &ev->bytes))
			return -1;
		if (kind == RT_EV_MEM)
			L->cfg->has_mem = true;
		else
			L->cfg->has_io = true;
		return 0;
	case RT_EV_FORK:
		if (get_string(L, key, v, false, &name))
			return -1;
		ev->res = task_index(L, name);
		if (ev->res < 0)
			return fail(L, key, "fork of '%s', which is not a thread of \"tasks\"", name);
		L->cfg->tasks[ev->res].forked = true;
		L->cfg->has_forks = true;
		return 0;
	case RT_EV_YIELD:
		return get_string(L, key, v, true, &name);
	case RT_EV_WAIT:
	case RT_EV_SYNC:
		return parse_cond_wait(L, key, v, ev);
	case RT_EV_SIGNAL:
	case RT_EV_BROAD:
	case RT_EV_RESUME:
	case RT_EV_SUSPEND:
		if (get_string(L, key, v, kind == RT_EV_SUSPEND, &name))
			return -1;
		if (!*name)	/* suspend "": the thread's own name (workgen fills it in) */
			name = L->cfg->tasks[L->task].name;
		if (resource(L, key, name, RT_RES_COND, &r))
			return -1;
		ev->res = L->res[r].index;
		if (kind == RT_EV_SIGNAL || kind == RT_EV_BROAD)
			return 0;
		/* suspend and resume NAME hold the mutex NAME (rt-app 1.0) */
		if (resource(L, key, name, RT_RES_MUTEX, &r))
			return -1;
		ev->mutex = L->res[r].index;
		return 0;
	}
	return fail(L, key, "internal: unhandled event");
}

/* ---- phases and threads ---- */

/* Keys of rt-app's thread and phase objects that the simulation cannot
 * honour. */
static const char *const unsupported_keys[] = {
	"nodes_membind", "util_min", "util_max", "taskgroup", NULL,
};

static int unsupported(struct loader *L, const char *key)
{
	for (int i = 0; unsupported_keys[i]; i++)
		if (!strcmp(key, unsupported_keys[i]))
			return fail(L, key, "upstream rt-app's '%s' (after 1.0) is not supported "
				    "by the simulation (no memory-policy, clamp or cgroup model)", key);
	return 0;
}

/* Keys of a phase (or a thread) other than events. */
static bool sched_key(const char *key)
{
	static const char *const keys[] = {
		"cpus", "policy", "priority", "dl-runtime", "dl-period", "dl-deadline", NULL,
	};
	for (int i = 0; keys[i]; i++)
		if (!strcmp(key, keys[i]))
			return true;
	return false;
}

static bool thread_key(const char *key);

/* The events of `obj`: a phase, or a thread without "phases" (`thread`),
 * whose other keys have been read already. */
static int parse_events(struct loader *L, json_object *obj, struct rt_phase *ph, bool thread)
{
	ph->ev = alloc(L, sizeof(*ph->ev) * (size_t)json_object_object_length(obj));
	json_object_object_foreach(obj, key, v) {
		bool bad;
		if (thread ? thread_key(key) : !strcmp(key, "loop") || sched_key(key))
			continue;
		int kind = event_kind(L, key, &bad);
		if (bad)
			return -1;
		if (kind < 0) {
			if (unsupported(L, key))
				return -1;
			return fail(L, key, "unknown key (not an rt-app event or %s key)",
				    thread ? "thread" : "phase");
		}
		if (parse_event(L, key, v, (enum rt_ev_kind)kind, &ph->ev[ph->nev]))
			return -1;
		ph->nev++;
	}
	if (ph->nev == 0)
		return fail(L, NULL, "no events (run, sleep, timer, ...)");
	return 0;
}

static bool thread_key(const char *key)
{
	static const char *const keys[] = {
		"instance", "loop", "phases", "delay", NULL,
	};
	if (sched_key(key))
		return true;
	for (int i = 0; keys[i]; i++)
		if (!strcmp(key, keys[i]))
			return true;
	return false;
}

static int parse_phase(struct loader *L, const char *name, json_object *obj, struct rt_phase *ph)
{
	int rc = -1;

	if (want_type(L, name, obj, json_type_object, "an object (a phase)"))
		return -1;
	push(L, name);
	ph->name = copy_str(L, name);
	ph->loop = 1;
	json_object *v;
	if (json_object_object_get_ex(obj, "loop", &v) && get_loop(L, "loop", v, &ph->loop))
		goto out;
	if (json_object_object_get_ex(obj, "cpus", &v) && parse_cpus(L, v, &ph->cpus))
		goto out;
	if (parse_sched(L, obj, &ph->sched, true))
		goto out;
	rc = parse_events(L, obj, ph, false);
out:
	pop(L);
	return rc;
}

/* Does the task's repeating part contain something that takes time or
 * can block?  Otherwise the simulated clock would stand still. */
static bool advances(const struct rt_config *cfg, const struct rt_task *t)
{
	for (int p = 0; p < t->nphases; p++) {
		if (t->phases[p].loop == 0)
			continue;
		for (int e = 0; e < t->phases[p].nev; e++) {
			const struct rt_event *ev = &t->phases[p].ev[e];
			switch (ev->kind) {
			case RT_EV_RUN:
			case RT_EV_RUNTIME:
			case RT_EV_SLEEP:
			case RT_EV_TIMER:
				if (ev->ns > 0)
					return true;
				break;
			case RT_EV_MEM:
			case RT_EV_IORUN:
				if (ev->bytes > 0)
					return true;
				break;
			case RT_EV_BARRIER:
				if (cfg->barrier_parties[ev->res] > 1)
					return true;
				break;
			case RT_EV_LOCK:
			case RT_EV_WAIT:
			case RT_EV_SYNC:
			case RT_EV_SUSPEND:
				return true;
			default:
				break;
			}
		}
	}
	return false;
}

/* Saturating arithmetic on simulated times: a sum or a product beyond
 * SL_TIME_MAX is SL_TIME_MAX (each duration is at most RT_MAX_US, but
 * loops multiply them). */
static sl_time sat_add(sl_time a, sl_time b)
{
	sl_time r;
	return __builtin_add_overflow(a, b, &r) ? SL_TIME_MAX : r;
}

static sl_time sat_mul(sl_time a, long n)
{
	sl_time r;
	return __builtin_mul_overflow(a, (sl_time)n, &r) ? SL_TIME_MAX : r;
}

sl_time rt_task_time(const struct rt_task *t, sl_time iter_ns, sl_time event_ns)
{
	sl_time pass = 0;

	if (t->forever)
		return 0;
	for (int p = 0; p < t->nphases; p++) {
		const struct rt_phase *ph = &t->phases[p];
		sl_time once = sat_add(iter_ns, sat_mul(event_ns, ph->nev));
		for (int e = 0; e < ph->nev; e++) {
			enum rt_ev_kind k = ph->ev[e].kind;
			if (k == RT_EV_RUN || k == RT_EV_RUNTIME || k == RT_EV_SLEEP ||
			    k == RT_EV_TIMER)
				once = sat_add(once, ph->ev[e].ns);
		}
		pass = sat_add(pass, sat_mul(once, ph->loop));
	}
	return sat_add(t->delay, sat_mul(pass, t->loop));
}

/* A phase's "priority" without "policy" applies to the thread's class at
 * that phase, which earlier phases may have changed: check it against the
 * class it has there on the first pass and on every later one. */
static int check_phase_prio(struct loader *L, const struct rt_task *t, const char *const *pname)
{
	int cur = t->sched.policy;

	for (int k = 0; k < 2 * t->nphases; k++) {
		const struct rt_phase *ph = &t->phases[k % t->nphases];
		if (!ph->sched.same_policy)
			cur = ph->sched.policy;
		else if (ph->sched.prio_given) {
			push(L, "phases");
			push(L, pname[k % t->nphases]);
			int rc = check_prio(L, "priority", ph->sched.prio, cur);
			pop(L);
			pop(L);
			if (rc)
				return -1;
		}
	}
	return 0;
}

static int parse_task(struct loader *L, struct rt_task *t, json_object *obj)
{
	json_object *v, *phases = NULL;
	long long x;

	if (want_type(L, t->name, obj, json_type_object, "an object describing a thread"))
		return -1;
	push(L, t->name);
	t->instance = 1;
	t->loop = -1;
	L->nuniq = 0;
	L->cfg->key_compares += L->uniq_ids.compares;
	sl_strmap_free(&L->uniq_ids);
	json_object_object_get_ex(obj, "phases", &phases);
	if (parse_sched(L, obj, &t->sched, false))
		goto fail;
	json_object_object_foreach(obj, key, val) {
		if (!strcmp(key, "instance")) {
			if (get_int(L, key, val, 0, RT_MAX_THREADS, "an instance count >= 0", &x))
				goto fail;
			t->instance = (int)x;
		} else if (!strcmp(key, "loop")) {
			if (get_loop(L, key, val, &t->loop))
				goto fail;
		} else if (!strcmp(key, "delay")) {
			if (get_us(L, key, val, &t->delay))
				goto fail;
		} else if (!strcmp(key, "cpus")) {
			if (parse_cpus(L, val, &t->cpus))
				goto fail;
		} else if (sched_key(key)) {
			continue;	/* parse_sched */
		} else if (!strcmp(key, "phases")) {
			if (want_type(L, key, val, json_type_object, "an object of named phases"))
				goto fail;
		} else if (unsupported(L, key)) {
			goto fail;
		} else if (phases) {
			bool bad;
			if (event_kind(L, key, &bad) >= 0)
				fail(L, key, "events of a thread with \"phases\" belong in a phase");
			else if (!bad)
				fail(L, key, "unknown key (not an rt-app thread key)");
			goto fail;
		}
	}
	if (phases) {
		t->nphases = json_object_object_length(phases);
		if (t->nphases == 0) {
			fail(L, "phases", "no phases");
			goto fail;
		}
		t->phases = alloc(L, sizeof(*t->phases) * (size_t)t->nphases);
		const char **names = sl_xcalloc((unsigned long)t->nphases, sizeof(*names));
		push(L, "phases");
		int p = 0;
		json_object_object_foreach(phases, pname, pobj) {
			names[p] = pname;
			if (parse_phase(L, pname, pobj, &t->phases[p++])) {
				pop(L);
				free(names);
				goto fail;
			}
		}
		pop(L);
		int rc = check_phase_prio(L, t, names);
		free(names);
		if (rc)
			goto fail;
	} else {
		/* rt-app 1.0: the thread object is its only phase; "loop" counts
		 * that phase's iterations and the thread repeats it for ever. */
		t->nphases = 1;
		t->phases = alloc(L, sizeof(*t->phases));
		t->phases[0].name = "";
		t->phases[0].loop = json_object_object_get_ex(obj, "loop", &v) ? t->loop : 1;
		t->loop = -1;
		if (parse_events(L, obj, &t->phases[0], true))
			goto fail;
	}
	t->nunique = L->nuniq;
	bool finite_phases = true;
	for (int p = 0; p < t->nphases; p++)
		finite_phases &= t->phases[p].loop >= 0;
	t->forever = t->loop != 0 && (t->loop < 0 || !finite_phases);
	pop(L);
	return 0;
fail:
	pop(L);
	return -1;
}

static int parse_tasks(struct loader *L, json_object *tasks)
{
	struct rt_config *cfg = L->cfg;
	int i = 0;

	if (want_type(L, "tasks", tasks, json_type_object, "an object of named threads"))
		return -1;
	cfg->ntasks = json_object_object_length(tasks);
	if (cfg->ntasks == 0)
		return fail(L, "tasks", "no threads");
	cfg->tasks = alloc(L, sizeof(*cfg->tasks) * (size_t)cfg->ntasks);
	L->barrier_of = sl_xcalloc((unsigned long)cfg->ntasks, sizeof(*L->barrier_of));
	json_object_object_foreach(tasks, name, obj) {	/* names first: forks look them up */
		int added;
		(void)obj;
		cfg->tasks[i].name = copy_str(L, name);
		*sl_strmap_put(&L->task_ids, cfg->tasks[i].name, strlen(name), &added) = i;
		i++;
	}
	/* Parties per barrier need each task's instance count before its events. */
	i = 0;
	json_object_object_foreach(tasks, name2, obj2) {
		json_object *v;
		long long x;
		(void)name2;
		cfg->tasks[i].instance = 1;
		if (json_object_is_type(obj2, json_type_object) &&
		    json_object_object_get_ex(obj2, "instance", &v) &&
		    json_object_is_type(v, json_type_int)) {
			x = json_object_get_int64(v);
			cfg->tasks[i].instance = x >= 0 && x <= RT_MAX_THREADS ? (int)x : 0;
		}
		i++;
	}
	push(L, "tasks");
	i = 0;
	json_object_object_foreach(tasks, name3, obj3) {
		(void)name3;
		L->task = i;
		if (parse_task(L, &cfg->tasks[i], obj3)) {
			pop(L);
			return -1;
		}
		cfg->threads += cfg->tasks[i].instance;
		if (cfg->threads > RT_MAX_THREADS) {
			fail(L, cfg->tasks[i].name, "more than %d threads in all", RT_MAX_THREADS);
			pop(L);
			return -1;
		}
		i++;
	}
	cfg->barrier_parties = alloc(L, sizeof(int) * (size_t)cfg->nres[RT_RES_BARRIER]);
	for (i = 0; i < cfg->nres[RT_RES_BARRIER]; i++)
		cfg->barrier_parties[i] = L->parties[i];
	cfg->forever_task = -1;
	for (i = 0; i < cfg->ntasks; i++) {
		struct rt_task *t = &cfg->tasks[i];
		if (t->forked && L->barrier_of[i]) {
			fail(L, t->name, "uses barrier '%s' but is started by fork: a barrier's "
			     "party count is the threads that exist from the start",
			     L->barrier_of[i]);
			pop(L);
			return -1;
		}
		if (t->forever && !advances(cfg, t)) {
			fail(L, t->name, "repeats for ever but nothing in it takes time or blocks "
			     "(run, runtime, sleep, timer, lock, wait, barrier): the simulated "
			     "clock would stand still");
			pop(L);
			return -1;
		}
		if (t->forever && (t->instance > 0 || t->forked) && cfg->forever_task < 0)
			cfg->forever_task = i;
	}
	pop(L);
	return 0;
}

static int parse_global(struct loader *L, json_object *g)
{
	long long x;
	int rc = -1;

	if (want_type(L, "global", g, json_type_object, "an object"))
		return -1;
	push(L, "global");
	json_object_object_foreach(g, key, v) {
		if (!strcmp(key, "duration")) {
			if (get_int(L, key, v, -1, SL_TIME_HORIZON / SL_SEC,
				    "-1 (until the threads end) or seconds > 0, at most 1000000 "
				    "(the simulated-time horizon)", &x))
				goto out;
			if (x == 0) {
				fail(L, key, "0 s: expected -1 (until the threads end) or seconds > 0");
				goto out;
			}
			L->cfg->duration = x > 0 ? (sl_time)x * SL_SEC : 0;
		} else if (!strcmp(key, "calibration")) {
			/* Run events are reference work whatever the value (rtapp.c). */
			if (json_object_is_type(v, json_type_string)) {
				const char *s = json_object_get_string(v);
				size_t d = strncmp(s, "CPU", 3) ? 0 : strspn(s + 3, "0123456789");
				if (d == 0 || s[3 + d]) {
					fail(L, key, "expected \"CPUn\" or ns per loop, got \"%s\"", s);
					goto out;
				}
			} else if (get_int(L, key, v, 1, 1000000000, "\"CPUn\" or ns per loop > 0", &x)) {
				goto out;
			} else {
				L->cfg->ns_per_loop = (long)x;
			}
		} else if (!strcmp(key, "default_policy")) {
			if (parse_policy(L, key, v, &L->cfg->default_policy))
				goto out;
			if (L->cfg->default_policy == SL_SCHED_DEADLINE) {
				fail(L, key, "SCHED_DEADLINE as every thread's default: give each "
				     "thread its policy and dl-runtime");
				goto out;
			}
		} else if (!strcmp(key, "pi_enabled")) {
			if (want_type(L, key, v, json_type_boolean, "a boolean"))
				goto out;
			if (json_object_get_boolean(v)) {
				fail(L, key, "priority-inheritance mutexes are not modelled");
				goto out;
			}
		} else if (!strcmp(key, "lock_pages") || !strcmp(key, "gnuplot") ||
			   !strcmp(key, "cumulative_slack")) {
			if (want_type(L, key, v, json_type_boolean, "a boolean"))
				goto out;
			if (!strcmp(key, "cumulative_slack"))
				L->cfg->cumulative_slack = json_object_get_boolean(v);
		} else if (!strcmp(key, "logdir") || !strcmp(key, "log_basename") ||
			   !strcmp(key, "io_device")) {
			if (want_type(L, key, v, json_type_string, "a string"))
				goto out;
			if (!strcmp(key, "log_basename")) {
				const char *b = json_object_get_string(v);
				if (!*b || strchr(b, '/')) {
					fail(L, key, "expected a file name prefix without '/'");
					goto out;
				}
				L->cfg->log_basename = copy_str(L, b);
			}
		} else if (!strcmp(key, "frag")) {
			/* in rt-app's older examples; rt-app 1.0 itself ignores it */
			if (get_int(L, key, v, 0, 1000000, "an integer (obsolete, ignored)", &x))
				goto out;
		} else if (!strcmp(key, "mem_buffer_size")) {
			if (get_int(L, key, v, 1, 1LL << 40, "a size in bytes > 0", &x))
				goto out;
			L->cfg->mem_buffer = x;
		} else if (!strcmp(key, "log_size")) {
			if (!json_object_is_type(v, json_type_string) &&
			    get_int(L, key, v, 0, 1 << 20, "MB or \"file\", \"disable\", \"auto\"", &x))
				goto out;
		} else if (!strcmp(key, "ftrace")) {
			if (!json_object_is_type(v, json_type_boolean) &&
			    want_type(L, key, v, json_type_string, "a boolean or a category list"))
				goto out;
		} else {
			fail(L, key, "unknown key (not an rt-app global key)");
			goto out;
		}
	}
	rc = 0;
out:
	pop(L);
	return rc;
}

/* ---- the file ---- */

static char *read_file(const char *path, size_t *len, struct sl_err *err)
{
	return sl_read_text(path, RT_MAX_FILE, path, "an rt-app JSON file", len, err);
}

static int line_at(const char *text, size_t off)
{
	int line = 1;
	for (size_t i = 0; i < off; i++)
		line += text[i] == '\n';
	return line;
}

/* Only white space and comments may follow the JSON value. */
static size_t skip_blank(const char *s, size_t i, size_t len)
{
	while (i < len) {
		if (s[i] == ' ' || s[i] == '\t' || s[i] == '\n' || s[i] == '\r') {
			i++;
		} else if (s[i] == '/' && i + 1 < len && s[i + 1] == '/') {
			while (i < len && s[i] != '\n')
				i++;
		} else if (s[i] == '/' && i + 1 < len && s[i + 1] == '*') {
			const char *end = strstr(s + i + 2, "*/");
			if (!end)
				return i;
			i = (size_t)(end - s) + 2;
		} else {
			break;
		}
	}
	return i;
}

static json_object *parse_json(struct loader *L)
{
	struct json_tokener *tok = json_tokener_new();
	json_object *root = json_tokener_parse_ex(tok, L->text, (int)L->len);
	enum json_tokener_error e = json_tokener_get_error(tok);
	size_t end = json_tokener_get_parse_end(tok);

	json_tokener_free(tok);
	if (skip_blank(L->text, 0, L->len) == L->len) {
		sl_fail(L->err, "%s: not valid JSON: the file is empty", L->path);
		json_object_put(root);
		return NULL;
	}
	if (!root && e == json_tokener_continue) {
		sl_fail(L->err, "%s:%d: not valid JSON: the text ends inside an object or a value",
			L->path, line_at(L->text, L->len));
		return NULL;
	}
	if (!root || e != json_tokener_success) {
		sl_fail(L->err, "%s:%d: not valid JSON: %s", L->path, line_at(L->text, end),
			json_tokener_error_desc(e));
		json_object_put(root);
		return NULL;
	}
	size_t rest = skip_blank(L->text, end, L->len);
	if (rest < L->len) {
		sl_fail(L->err, "%s:%d: not valid JSON: text after the end of the top-level object",
			L->path, line_at(L->text, rest));
		json_object_put(root);
		return NULL;
	}
	return root;
}

static int load(struct loader *L, json_object *root)
{
	json_object *tasks = NULL, *global = NULL;

	if (!json_object_is_type(root, json_type_object))
		return fail(L, NULL, "expected a JSON object with \"tasks\", got %s", type_name(root));
	json_object_object_foreach(root, key, v) {
		if (!strcmp(key, "tasks")) {
			tasks = v;
		} else if (!strcmp(key, "global")) {
			global = v;
		} else if (!strcmp(key, "resources")) {
			if (want_type(L, key, v, json_type_object, "an object"))
				return -1;
		} else {
			return fail(L, key, "unknown key (rt-app files have tasks, global, resources)");
		}
	}
	if (global && parse_global(L, global))
		return -1;
	if (!tasks)
		return fail(L, NULL, "no \"tasks\" object");
	return parse_tasks(L, tasks);
}

/* `text` with each recorded insertion made: "#n" (a numbered repeat) or,
 * for n = 0, ` : ""` (a bare suspend). */
static char *apply_renames(struct loader *L, const char *text, const struct rt_scan *sc)
{
	char *out = sl_xmalloc(L->len + 16 * (unsigned long)sc->nren + 1);
	size_t from = 0, to = 0;

	for (int i = 0; i < sc->nren; i++) {
		memcpy(out + to, text + from, sc->ren[i].at - from);
		to += sc->ren[i].at - from;
		if (sc->ren[i].n)
			to += (size_t)sprintf(out + to, "#%d", sc->ren[i].n);
		else
			to += (size_t)sprintf(out + to, " : \"\"");
		from = sc->ren[i].at;
	}
	memcpy(out + to, text + from, L->len - from);
	to += L->len - from;
	out[to] = 0;
	L->len = to;
	return out;
}

/* A file that json-c refuses may be in workgen's dialect with bare
 * "suspend" keys: the text with them completed, or NULL if it has none. */
static char *complete_bare_suspends(struct loader *L, const char *text)
{
	struct rt_scan sc = { .bare = true, .event_key = is_event_name };

	rt_scan_text(&sc, text, L->len);
	char *out = sc.nren ? apply_renames(L, text, &sc) : NULL;
	free(sc.ren);
	return out;
}

/* Number the repeated events and phase names of workgen-style files
 * ("run", "run" -> "run", "run#2"): json-c would keep only the last.  Other
 * repeated keys are errors.  Returns the text to parse (maybe `text`
 * itself) or NULL with the error set. */
static char *number_repeats(struct loader *L, char *text)
{
	struct rt_scan sc = { .rename = true, .event_key = is_event_name };

	rt_scan_text(&sc, text, L->len);
	L->cfg->key_compares += sc.compares;
	if (sc.line > 0) {
		free(sc.ren);
		sl_fail(L->err, "%s:%d: %s: key repeated in one object (json-c keeps only the last)",
			L->path, sc.line, sc.dup);
		return NULL;
	}
	if (sc.nren == 0)
		return text;
	char *out = apply_renames(L, text, &sc);
	free(sc.ren);
	return out;
}

char *rt_workgen_text(const char *path, size_t *len, struct sl_err *err)
{
	struct rt_config cfg;
	struct loader L = { .path = path, .err = err, .cfg = &cfg };

	memset(&cfg, 0, sizeof(cfg));
	char *text = read_file(path, &L.len, err);
	if (!text)
		return NULL;
	char *completed = complete_bare_suspends(&L, text);
	if (completed) {
		free(text);
		text = completed;
	}
	char *numbered = number_repeats(&L, text);
	if (numbered != text)
		free(text);
	if (numbered)
		*len = L.len;
	return numbered;
}

int rt_config_load(struct rt_config *cfg, const char *path, const struct rt_alloc *a,
		   struct sl_err *err)
{
	return rt_config_load_keys(cfg, path, a, true, err);
}

int rt_config_load_keys(struct rt_config *cfg, const char *path, const struct rt_alloc *a,
			bool workgen, struct sl_err *err)
{
	struct loader L = { .path = path, .a = a, .err = err, .cfg = cfg };

	memset(cfg, 0, sizeof(*cfg));
	cfg->forever_task = -1;
	cfg->mem_buffer = 4194304;	/* rt-app's default */
	cfg->log_basename = "rt-app";
	char *text = read_file(path, &L.len, err);
	if (!text)
		return -1;
	L.text = text;
	cfg->path = copy_str(&L, path);
	json_object *root = parse_json(&L);
	if (!workgen)	/* rt-app's own reading: json-c's, repeated keys and all */
		goto loaded;
	if (!root) {	/* workgen's bare "suspend" keys, or the first error stands */
		char *completed = complete_bare_suspends(&L, text);
		struct sl_err first = *err;
		if (completed) {
			free(text);
			text = completed;
			L.text = text;
			root = parse_json(&L);
			if (!root)
				*err = first;	/* the file's own error, at its own line */
		}
	}
	if (root) {	/* syntax first, then repeated keys on the text as written */
		char *numbered = number_repeats(&L, text);
		if (numbered != text) {
			json_object_put(root);
			root = NULL;
		}
		if (numbered && numbered != text) {
			free(text);
			text = numbered;
			L.text = text;
			root = parse_json(&L);
		}
	}
loaded:;
	int rc = root ? load(&L, root) : -1;
	json_object_put(root);
	cfg->key_compares += L.uniq_ids.compares + L.task_ids.compares;
	for (int k = 0; k < 4; k++) {
		cfg->key_compares += L.res_ids[k].compares;
		sl_strmap_free(&L.res_ids[k]);
	}
	sl_strmap_free(&L.uniq_ids);
	sl_strmap_free(&L.task_ids);
	free(L.res);
	free(L.barrier_of);
	free(L.parties);
	free(text);
	return rc;
}
