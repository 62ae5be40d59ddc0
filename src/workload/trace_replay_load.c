/*
 * trace_replay_load.c - the `trace` workload's file: the JSON `schedlab
 * trace import` writes (docs/traces.md, "Output"), read with json-c and
 * checked before anything runs - every field's type and range, ops
 * within the trace's span, forks, waits and wakes that agree across tasks
 * (a wait nothing wakes would sleep for ever) - with errors naming the
 * file and the JSON place (`tasks[3].ops[7]: ...`); and what loading it
 * takes, estimated from a scan of its tokens before json-c builds the tree.
 */
#include "workload/trace_replay_model.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include <json.h>

#include "base/json_text.h"
#include "base/memsize.h"
#include "base/readfile.h"

#define RP_MAX_FILE (1L << 30)	/* bytes of JSON */

static const char *const rp_kind_names[] = {
	[RP_RUN] = "run", [RP_SLEEP] = "sleep", [RP_WAIT] = "wait",
	[RP_WAIT_CHILD] = "wait_child", [RP_WAKE] = "wake", [RP_FORK] = "fork",
	[RP_EXEC] = "exec", [RP_EXIT] = "exit", [RP_REAP] = "reap",
};

#define RP_NKINDS ((int)(sizeof(rp_kind_names) / sizeof(rp_kind_names[0])))

static void *rp_alloc(struct rp_mem *mem, size_t n)
{
	if (mem->sim)
		return sl_sim_alloc(mem->sim, n);
	void *p = sl_xcalloc(1, n);
	mem->blocks[mem->n++] = p;
	return p;
}

void rp_mem_free(struct rp_mem *mem)
{
	for (int i = 0; i < mem->n; i++)
		free(mem->blocks[i]);
	mem->n = 0;
}

/* ---- loading ---- */

struct rp_load {
	const char *path;
	struct sl_err *err;
	char where[96];		/* "tasks[3].ops[7]" */
};

static int bad(struct rp_load *l, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

static int bad(struct rp_load *l, const char *fmt, ...)
{
	char what[320];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(what, sizeof(what), fmt, ap);
	va_end(ap);
	return sl_fail(l->err, "%s: %s%s%s", l->path, l->where, l->where[0] ? ": " : "", what);
}

/*
 * What json-c's tree of a text takes, from a scan of its tokens (outside
 * strings): every object, array and value (values are at most the colons
 * and commas, plus one).  The costs per token were measured (peak RSS of
 * loads of 9-56 MB files): an empty object 780 bytes (its hash table), an
 * empty array 150, a trace op {"op":"run","ns":1000} 1050; the constants
 * bound each.  A file of 3 million "{}" takes 2.3 GB: 260 times its size,
 * which is why the estimate counts tokens, not bytes.
 */
#define RP_JSON_OBJECT 800
#define RP_JSON_ARRAY 160
#define RP_JSON_VALUE 100

struct rp_scan {
	uint64_t objects, arrays, values;
	bool in_str, esc;
};

static void rp_scan_feed(struct rp_scan *s, const char *text, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		char ch = text[i];
		if (s->in_str) {
			if (s->esc)
				s->esc = false;
			else if (ch == '\\')
				s->esc = true;
			else if (ch == '"')
				s->in_str = false;
			continue;
		}
		s->in_str = ch == '"';
		s->objects += ch == '{';
		s->arrays += ch == '[';
		s->values += ch == ':' || ch == ',';
	}
}

static uint64_t rp_scan_cost(const struct rp_scan *s)
{
	return sl_sat_add(sl_sat_add(sl_sat_mul(s->objects, RP_JSON_OBJECT),
				     sl_sat_mul(s->arrays, RP_JSON_ARRAY)),
			  sl_sat_mul(sl_sat_add(s->values, 1), RP_JSON_VALUE));
}

/* Memory for parsing `text` (held in a buffer of `cap` bytes) into a
 * tree: refused, before json-c builds it, beyond the memory limit. */
static int rp_check_json(struct rp_load *l, const char *text, size_t n, size_t cap)
{
	struct rp_scan s = { 0 };
	char what[1200], detail[160];
	uint64_t need;

	rp_scan_feed(&s, text, n);
	need = sl_sat_add(rp_scan_cost(&s), cap);
	if (need <= sl_mem_limit())
		return 0;
	snprintf(what, sizeof(what), "%s: loading it", l->path);
	snprintf(detail, sizeof(detail), "a JSON tree of %llu objects, %llu arrays and %llu values",
		 (unsigned long long)s.objects, (unsigned long long)s.arrays,
		 (unsigned long long)s.values + 1);
	return sl_mem_refuse(l->err, what, need, detail);
}

/* The file, parsed; NULL with err naming the line of a syntax error. */
static struct json_object *read_json(struct rp_load *l)
{
	struct json_object *root = NULL;

	/* the text alone must fit before it is read (its tree is checked
	 * once it is) */
	struct stat st;
	if (!stat(l->path, &st) && S_ISREG(st.st_mode) && st.st_size <= RP_MAX_FILE &&
	    (uint64_t)st.st_size > sl_mem_limit()) {
		char what[1200];
		snprintf(what, sizeof(what), "%s: loading it", l->path);
		sl_mem_refuse(l->err, what, (uint64_t)st.st_size, "its text alone");
		return NULL;
	}
	size_t n;
	char *text = sl_read_text(l->path, RP_MAX_FILE, l->path, "a trace workload's JSON", &n,
				  l->err);
	if (!text)
		return NULL;
	size_t cap = n + 1;
	if (rp_check_json(l, text, n, cap)) {
		free(text);
		return NULL;
	}
	root = sl_json_parse_text(l->path, text, n, l->err);
	free(text);
	return root;
}

static int get_int(struct rp_load *l, struct json_object *o, const char *key, int64_t lo,
		   int64_t hi, bool required, int64_t *out)
{
	struct json_object *v;

	if (!json_object_object_get_ex(o, key, &v) || json_object_is_type(v, json_type_null)) {
		if (required)
			return bad(l, "missing '%s'", key);
		return 0;
	}
	if (!json_object_is_type(v, json_type_int))
		return bad(l, "'%s' is a %s: expected an integer", key,
			   json_type_to_name(json_object_get_type(v)));
	errno = 0;
	int64_t x = json_object_get_int64(v);
	if (errno || x < lo || x > hi)
		return bad(l, "'%s' = %s: expected %lld to %lld", key, json_object_get_string(v),
			   (long long)lo, (long long)hi);
	*out = x;
	return 0;
}

/* An optional true or false (absent: false). */
static int get_flag(struct rp_load *l, struct json_object *o, const char *key, bool *out)
{
	struct json_object *v;

	*out = false;
	if (!json_object_object_get_ex(o, key, &v))
		return 0;
	if (!json_object_is_type(v, json_type_boolean))
		return bad(l, "'%s' is not true or false", key);
	*out = json_object_get_boolean(v);
	return 0;
}

static int get_str(struct rp_load *l, struct json_object *o, const char *key, char out[RP_COMM])
{
	struct json_object *v;

	if (!json_object_object_get_ex(o, key, &v) || !json_object_is_type(v, json_type_string))
		return bad(l, "missing '%s' (a string)", key);
	snprintf(out, RP_COMM, "%s", json_object_get_string(v));
	return 0;
}

static struct json_object *get_array(struct rp_load *l, struct json_object *o, const char *key)
{
	struct json_object *v;

	if (!json_object_object_get_ex(o, key, &v) || !json_object_is_type(v, json_type_array)) {
		bad(l, "missing '%s' (an array)", key);
		return NULL;
	}
	return v;
}

static int op_kind(struct rp_load *l, struct json_object *o, enum rp_kind *kind)
{
	struct json_object *v;

	if (!json_object_object_get_ex(o, "op", &v) || !json_object_is_type(v, json_type_string))
		return bad(l, "missing 'op' (run, sleep, wait, wait_child, reap, wake, fork, exec or "
			   "exit)");
	for (int k = 0; k < RP_NKINDS; k++)
		if (!strcmp(json_object_get_string(v), rp_kind_names[k])) {
			*kind = (enum rp_kind)k;
			return 0;
		}
	return bad(l, "op '%s': expected run, sleep, wait, wait_child, reap, wake, fork, exec or "
		   "exit", json_object_get_string(v));
}

/* Count what to allocate: ops, run segments, exec names. */
static int count(struct rp_load *l, struct json_object *tasks, struct rp_model *m)
{
	m->ntasks = (int)json_object_array_length(tasks);
	for (int i = 0; i < m->ntasks; i++) {
		snprintf(l->where, sizeof(l->where), "tasks[%d]", i);
		struct json_object *t = json_object_array_get_idx(tasks, i), *ops, *seg;
		if (!json_object_is_type(t, json_type_object))
			return bad(l, "expected an object");
		if (!(ops = get_array(l, t, "ops")))
			return -1;
		int n = (int)json_object_array_length(ops);
		if (n > (1 << 28) - m->nops)
			return bad(l, "too many ops");
		m->nops += n;
		for (int j = 0; j < n; j++) {
			struct json_object *o = json_object_array_get_idx(ops, j);
			snprintf(l->where, sizeof(l->where), "tasks[%d].ops[%d]", i, j);
			if (!json_object_is_type(o, json_type_object))
				return bad(l, "expected an object");
			enum rp_kind k;
			if (op_kind(l, o, &k))
				return -1;
			if (k == RP_EXEC)
				m->ncomms++;
			if (k == RP_RUN && json_object_object_get_ex(o, "seg", &seg) &&
			    json_object_is_type(seg, json_type_array))
				m->nsegs += (int)json_object_array_length(seg);
		}
	}
	return 0;
}

#define RP_NS_MAX ((int64_t)1 << 62)

/*
 * What a trace may ask of the clock (docs/traces.md, "Replay"): an op is
 * an interval of one task's recorded life, so none is longer than the
 * trace's span ("duration_ns"), and a task's ops, which do not overlap,
 * add up to no more than the span either; RP_SLACK allows for rounding
 * in hand-made or converted files (an import's sums are within the span).
 * Without "duration_ns" the span is unknown and the simulated-time
 * horizon bounds both.  This bounds the replay's work by the trace's own
 * length: a run op is replayed in pieces of at most a tick.
 */
#define RP_SLACK(span) ((span) / 100 + SL_MSEC)	/* 1 % + 1 ms */

/* An op's recorded time, checked against the span. */
static int op_ns(struct rp_load *l, struct json_object *o, const struct rp_model *m,
		 const char *op, bool required, sl_time *ns)
{
	if (get_int(l, o, "ns", 0, RP_NS_MAX, required, ns))
		return -1;
	if (*ns <= m->op_max)
		return 0;
	if (m->op_max < SL_TIME_HORIZON)
		return bad(l, "%s of %lld ns is longer than the trace's span ('duration_ns' %lld ns)",
			   op, (long long)*ns, (long long)m->op_max);
	return bad(l, "%s of %lld ns is longer than the horizon of %lld ns (%lld s) a run can "
		   "simulate", op, (long long)*ns, (long long)SL_TIME_HORIZON,
		   (long long)(SL_TIME_HORIZON / SL_SEC));
}

/* A task's or a run's prio (0-139, read by get_int): the kernel's prio of
 * a real-time task is 99 - rt_priority, rt_priority 1..99, so 99 is
 * nobody's. */
static int check_prio(struct rp_load *l, int64_t prio)
{
	if (prio == SL_RT_PRIO_MAX)
		return bad(l, "'prio' = 99: no task has it (a real-time task's is 0-98, "
			   "99 - rt_priority; a normal one's 100-139, 120 + nice)");
	return 0;
}

static int load_op(struct rp_load *l, struct json_object *o, struct rp_model *m, int self,
		   struct rp_op *op)
{
	int64_t v = 0;
	struct json_object *seg;
	char state[RP_COMM] = "S";

	memset(op, 0, sizeof(*op));
	op->arg = -1;
	op->prio = -1;
	if (op_kind(l, o, &op->kind))
		return -1;
	switch (op->kind) {
	case RP_RUN:
		if (op_ns(l, o, m, "a run", true, &op->ns))
			return -1;
		v = -1;
		if (get_int(l, o, "prio", 0, 139, false, &v) || check_prio(l, v))
			return -1;
		op->prio = (int)v;
		if (json_object_object_get_ex(o, "seg", &seg)) {
			if (!json_object_is_type(seg, json_type_array))
				return bad(l, "'seg' is not an array of ns");
			int n = (int)json_object_array_length(seg);
			sl_time sum = 0;
			op->seg0 = m->nsegs;
			op->nseg = n;
			for (int i = 0; i < n; i++) {
				struct json_object *s = json_object_array_get_idx(seg, i);
				if (!json_object_is_type(s, json_type_int) ||
				    json_object_get_int64(s) < 0 || json_object_get_int64(s) > RP_NS_MAX)
					return bad(l, "seg[%d]: expected a non-negative integer (ns)", i);
				sum += json_object_get_int64(s);
				if (sum > op->ns)	/* and stop before a sum can overflow */
					return bad(l, "the segments add up to more than 'ns' (%lld)",
						   (long long)op->ns);
				m->segs[m->nsegs++] = sum;
			}
			if (n && sum != op->ns)
				return bad(l, "the segments add up to %lld ns, 'ns' says %lld",
					   (long long)sum, (long long)op->ns);
			if (n < 2)
				op->nseg = 0;
		}
		m->recorded_cpu += (double)op->ns;
		return 0;
	case RP_SLEEP:
	case RP_WAIT:
	case RP_WAIT_CHILD:
		if (op_ns(l, o, m, op->kind == RP_SLEEP ? "a sleep" : op->kind == RP_WAIT ? "a wait"
				   : "a wait_child", true, &op->ns))
			return -1;
		if (json_object_object_get_ex(o, "state", &seg) && get_str(l, o, "state", state))
			return -1;
		if (strcmp(state, "S") && strcmp(state, "D"))
			return bad(l, "state '%s': expected S or D", state);
		op->io = state[0] == 'D';
		if (op->kind == RP_SLEEP)
			return 0;
		if (get_int(l, o, op->kind == RP_WAIT ? "waker" : "child", 0, m->ntasks - 1, true, &v))
			return -1;
		if (v == self)
			return bad(l, "a task cannot wait for itself");
		op->arg = (int)v;
		if (op->kind == RP_WAIT_CHILD &&
		    (get_flag(l, o, "signal", &op->signal) ||
		     get_flag(l, o, "outside_wait", &op->outside_wait)))
			return -1;
		if (op->signal && op->io)
			return bad(l, "a signal does not wake an uninterruptible sleep (state D)");
		if (op->outside_wait && !op->signal)
			return bad(l, "'outside_wait' needs 'signal': a child's exit wakes a sleep "
				   "outside wait() only by a SIGCHLD its parent catches");
		return 0;
	case RP_WAKE:
	case RP_FORK:
		if (get_int(l, o, op->kind == RP_WAKE ? "task" : "child", 0, m->ntasks - 1, true, &v))
			return -1;
		if (v == self)
			return bad(l, "a task cannot %s itself", rp_kind_names[op->kind]);
		op->arg = (int)v;
		/* a vforked child ends its parent's wait at its exec or at
		 * its exit, which every task's ops end with */
		if (op->kind == RP_FORK)
			return get_flag(l, o, "vfork", &op->vfork) ||
			       get_flag(l, o, "thread", &op->thread);
		return 0;
	case RP_EXEC:
		op->comm = m->ncomms;
		return get_str(l, o, "comm", m->comms[m->ncomms++]);
	case RP_EXIT:
		return op_ns(l, o, m, "an exit", false, &op->ns);
	case RP_REAP:
		return 0;
	}
	return 0;
}

static int load_task(struct rp_load *l, struct json_object *t, struct rp_model *m, int i)
{
	struct rp_task *rt = &m->tasks[i];
	int64_t v = -1, prio = 120;
	struct json_object *ops = get_array(l, t, "ops");

	if (get_int(l, t, "id", i, i, true, &v) || get_str(l, t, "comm", rt->comm) ||
	    get_int(l, t, "prio", 0, 139, false, &prio))
		return -1;
	v = -1;
	if (get_int(l, t, "parent", 0, m->ntasks - 1, false, &v))
		return -1;
	if (v == i)
		return bad(l, "a task cannot be its own parent");
	rt->parent = (int)v;
	if (check_prio(l, prio))
		return -1;
	rt->prio = (int)prio;
	rt->op0 = m->nops;
	rt->nops = (int)json_object_array_length(ops);
	if (!rt->nops)
		return bad(l, "no ops: expected at least an exit");
	sl_time total = 0;	/* at most task_max + op_max: no overflow */
	for (int j = 0; j < rt->nops; j++) {
		snprintf(l->where, sizeof(l->where), "tasks[%d].ops[%d]", i, j);
		if (load_op(l, json_object_array_get_idx(ops, j), m, i, &m->ops[m->nops++]))
			return -1;
		enum rp_kind k = m->ops[m->nops - 1].kind;
		if ((k == RP_EXIT) != (j == rt->nops - 1))
			return bad(l, k == RP_EXIT ? "ops after the exit" : "the last op must be exit");
		total += m->ops[m->nops - 1].ns;
		if (total <= m->task_max)
			continue;
		snprintf(l->where, sizeof(l->where), "tasks[%d] (%s)", i, rt->comm);
		if (m->op_max < SL_TIME_HORIZON)
			return bad(l, "its ops take %lld ns by ops[%d], more than the trace's span "
				   "('duration_ns' %lld ns) and its slack (1 %% + 1 ms)",
				   (long long)total, j, (long long)m->op_max);
		return bad(l, "its ops take %lld ns by ops[%d], more than the horizon of %lld ns "
			   "(%lld s) a run can simulate", (long long)total, j,
			   (long long)SL_TIME_HORIZON, (long long)(SL_TIME_HORIZON / SL_SEC));
	}
	return 0;
}

/* Cross-task rules: forks, children, waits and wakes agree. */
static int check_links(struct rp_load *l, struct rp_model *m)
{
	for (int i = 0; i < m->ntasks; i++) {
		const struct rp_task *t = &m->tasks[i];
		for (int j = 0; j < t->nops; j++) {
			const struct rp_op *op = &m->ops[t->op0 + j];
			snprintf(l->where, sizeof(l->where), "tasks[%d].ops[%d]", i, j);
			if ((op->kind == RP_FORK || op->kind == RP_WAIT_CHILD) &&
			    m->tasks[op->arg].parent != i)
				return bad(l, "task %d is not a child of task %d (its parent is %d)",
					   op->arg, i, m->tasks[op->arg].parent);
			if (op->kind == RP_FORK)
				m->tasks[op->arg].forked++;
			if (op->kind == RP_WAIT)
				m->tasks[i].waits++;
			if (op->kind == RP_WAIT_CHILD && op->outside_wait)
				m->tasks[i].signals++;
			if (op->kind == RP_WAKE)
				m->tasks[op->arg].wakes++;
		}
	}
	l->where[0] = 0;
	for (int i = 0; i < m->ntasks; i++) {
		const struct rp_task *t = &m->tasks[i];
		if (t->parent >= 0 && t->forked != 1)
			return bad(l, "task %d is forked %d times by its parent %d: expected once", i,
				   t->forked, t->parent);
		if (t->waits > t->wakes)
			return bad(l, "task %d waits %d times to be woken but other tasks wake it %d "
				   "times: it would sleep for ever", i, t->waits, t->wakes);
	}
	return 0;
}

int rp_model_load(const char *path, struct rp_mem *mem, struct rp_model *m, struct sl_err *err)
{
	struct rp_load l = { .path = path, .err = err };
	struct json_object *root = read_json(&l), *tasks;
	int64_t version = 0, duration = 0;
	int rc = -1;

	memset(m, 0, sizeof(*m));
	if (!root)
		return -1;
	if (!json_object_is_type(root, json_type_object) ||
	    get_int(&l, root, "schedlab_trace", 1, 1, true, &version)) {
		sl_fail(err, "%s: not a trace workload (expected an object with \"schedlab_trace\": "
			"1, as 'schedlab trace import' writes)", path);
		goto out;
	}
	duration = -1;
	if (get_int(&l, root, "duration_ns", 0, RP_NS_MAX, false, &duration))
		goto out;
	if (duration > SL_TIME_HORIZON) {
		bad(&l, "'duration_ns' = %lld: longer than the horizon of %lld ns (%lld s) a run "
		    "can simulate", (long long)duration, (long long)SL_TIME_HORIZON,
		    (long long)(SL_TIME_HORIZON / SL_SEC));
		goto out;
	}
	if (!(tasks = get_array(&l, root, "tasks")) || count(&l, tasks, m))
		goto out;
	if (!m->ntasks) {
		l.where[0] = 0;
		bad(&l, "no tasks");
		goto out;
	}
	m->duration = duration >= 0 ? duration : 0;
	m->op_max = duration >= 0 ? duration : SL_TIME_HORIZON;
	m->task_max = duration >= 0 ? duration + RP_SLACK(duration) : SL_TIME_HORIZON;
	m->tasks = rp_alloc(mem, sizeof(*m->tasks) * (size_t)m->ntasks);
	m->ops = rp_alloc(mem, sizeof(*m->ops) * (size_t)(m->nops ? m->nops : 1));
	m->segs = rp_alloc(mem, sizeof(*m->segs) * (size_t)(m->nsegs ? m->nsegs : 1));
	m->comms = rp_alloc(mem, sizeof(*m->comms) * (size_t)(m->ncomms ? m->ncomms : 1));
	m->nops = m->nsegs = m->ncomms = 0;
	for (int i = 0; i < m->ntasks; i++) {
		snprintf(l.where, sizeof(l.where), "tasks[%d]", i);
		if (load_task(&l, json_object_array_get_idx(tasks, i), m, i))
			goto out;
	}
	rc = check_links(&l, m);
out:
	json_object_put(root);
	return rc;
}

/* The file's bytes and tokens, read in blocks: what read_json's buffer
 * and json-c's tree will take. */
bool rp_file_scan(const char *path, uint64_t *objects, uint64_t *transient)
{
	FILE *f = fopen(path, "r");
	struct rp_scan s = { 0 };
	char buf[65536];
	uint64_t size = 0, cap = 1 << 20;
	size_t got;

	if (!f)
		return false;
	while (size <= RP_MAX_FILE && (got = fread(buf, 1, sizeof(buf), f)) > 0) {
		rp_scan_feed(&s, buf, got);
		size = sl_sat_add(size, got);
	}
	fclose(f);
	while (cap < sl_sat_add(size, 65536) && cap < UINT64_MAX / 2)
		cap *= 2;	/* read_json's buffer at its peak (sl_read_file doubles it) */
	*objects = s.objects;
	*transient = sl_sat_add(rp_scan_cost(&s), cap);
	return true;
}
