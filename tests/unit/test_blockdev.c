/*
 * test_blockdev.c - sim/blockdev.c and sim/pagecache.c: the disk's queue
 * order and service time, a task's uninterruptible wait for its request,
 * the machine's disk options, and the page cache's writeback and
 * throttling of writers above the dirty limit.
 */
#include <limits.h>
#include <math.h>
#include <string.h>

#include "hw/machine.h"
#include "policy/policy.h"
#include "sim/blockdev.h"
#include "sim/sim.h"
#include "test.h"

struct bd_env {
	struct sl_machine m;
	const struct sl_policy_ops *policy;
	struct sl_params knobs;
	struct sl_sim *sim;
};

static bool bd_open_policy(struct bd_env *e, const char *machine, const char *policy)
{
	struct sl_err err = { 0 };
	char label[64];

	memset(e, 0, sizeof(*e));
	if (sl_machine_load(&e->m, machine, &err) ||
	    sl_policy_parse(policy, &e->policy, &e->knobs, label, sizeof(label), &err)) {
		fprintf(stderr, "bd_open: %s\n", err.msg);
		return false;
	}
	struct sl_sim_config cfg = { .machine = &e->m, .policy = e->policy, .knobs = &e->knobs,
				     .seed = 1, .check = true };
	e->sim = sl_sim_create(&cfg, &err);
	return e->sim != NULL;
}

static bool bd_open(struct bd_env *e, const char *machine)
{
	return bd_open_policy(e, machine, "up");
}

static bool bd_run(struct bd_env *e)
{
	struct sl_err err = { 0 };
	int rc = sl_sim_run(e->sim, &err);
	if (rc)
		fprintf(stderr, "bd_run: %s\n", err.msg);
	return rc == 0;
}

/* ---- the disk ---- */

struct done_log {
	int n;
	int order[8];
	sl_time at[8];
};

struct done_arg {
	struct done_log *log;
	int id;
};

static void note_done(struct sl_sim *sim, void *arg)
{
	struct done_arg *a = arg;
	a->log->order[a->log->n] = a->id;
	a->log->at[a->log->n++] = sl_now(sim);
}

SL_TEST(blockdev_serves_in_arrival_order_one_at_a_time)
{
	struct bd_env e;
	struct done_log log = { 0 };
	struct done_arg args[3];
	const long bytes[3] = { 4096, 131072, 65536 };
	const bool seek[3] = { true, false, true };

	if (!bd_open(&e, "p4-2400")) {
		CHECK(!"sim created");
		return;
	}
	struct sl_blockdev *d = sl_sim_disk(e.sim);
	CHECK(d == sl_sim_disk(e.sim));		/* one disk per run */
	for (int i = 0; i < 3; i++) {
		args[i] = (struct done_arg){ &log, i };
		sl_blockdev_submit(e.sim, d, bytes[i], seek[i], note_done, &args[i]);
	}
	struct sl_blockdev_stats st;
	sl_blockdev_stats(d, &st);
	CHECK(st.queued == 3);
	CHECK(bd_run(&e));
	CHECK(log.n == 3);
	sl_time t = 0;
	for (int i = 0; i < 3; i++) {
		CHECK(log.order[i] == i);	/* arrival order */
		t += sl_blockdev_service_ns(d, bytes[i], seek[i]);
		CHECKF(log.at[i] == t, "request %d done at %lld, expected %lld", i,
		       (long long)log.at[i], (long long)t);	/* back to back */
	}
	sl_blockdev_stats(d, &st);
	CHECK(st.requests == 3 && st.queued == 0 && st.busy_ns == t);
	CHECK(fabs(st.bytes - (4096 + 131072 + 65536)) < 1);
	sl_sim_destroy(e.sim);
}

SL_TEST(blockdev_service_time_is_seek_rotation_and_transfer)
{
	struct bd_env e, f;

	if (!bd_open(&e, "p4-2400") || !bd_open(&f, "p4-2400,seek=4.9,xfer=50")) {
		CHECK(!"sims created");
		return;
	}
	struct sl_blockdev *d = sl_sim_disk(e.sim), *g = sl_sim_disk(f.sim);
	/* 2002 7200 rpm default: 8.5 ms + 4.167 ms + 128 KB at 35 MB/s (3.745 ms) */
	double ms = (double)sl_blockdev_service_ns(d, 131072, true) / 1e6;
	CHECKF(fabs(ms - 16.412) < 0.01, "%.3f ms", ms);
	ms = (double)sl_blockdev_service_ns(d, 131072, false) / 1e6;	/* sequential */
	CHECKF(fabs(ms - 3.745) < 0.01, "%.3f ms", ms);
	ms = (double)sl_blockdev_service_ns(g, 131072, true) / 1e6;	/* options */
	CHECKF(fabs(ms - (4.9 + 4.167 + 2.621)) < 0.01, "%.3f ms", ms);
	/* a transfer that cannot fit the run lands just past the horizon,
	 * not on a wrapped (negative) time: LONG_MAX bytes at 35 MB/s */
	sl_time huge = sl_blockdev_service_ns(d, LONG_MAX, true);
	CHECKF(huge > SL_TIME_HORIZON && huge < 2 * SL_TIME_HORIZON, "%lld", (long long)huge);
	sl_sim_destroy(e.sim);
	sl_sim_destroy(f.sim);

	struct sl_machine m;
	struct sl_err err = { 0 };
	CHECK(sl_machine_load(&m, "p4-2400,seek=-1", &err) != 0);
	CHECK(strstr(err.msg, "seek=-1") != NULL);
	CHECK(sl_machine_load(&m, "p4-2400,xfer=fast", &err) != 0);
	CHECK(strstr(err.msg, "MB/s") != NULL);
}

/* A task's request: uninterruptible sleep for exactly queue + service. */
struct io_state {
	struct sl_blockdev *d;
	int pc;
	sl_time issued, done;
	bool saw_uninterruptible;
};

static void io_step(struct sl_sim *sim, struct sl_task *t, struct sl_action *next)
{
	struct io_state *s = t->prog_state;

	switch (s->pc++) {
	case 0:
		s->issued = sl_now(sim);
		*next = sl_act_disk_io(s->d, 65536, true);
		return;
	case 1:
		s->done = sl_now(sim);
		s->saw_uninterruptible = t->uninterruptible;
		*next = sl_act_exit();
		return;
	default:
		*next = sl_act_exit();
	}
}

static const struct sl_prog io_prog = { .name = "io", .step = io_step };

SL_TEST(blockdev_task_sleeps_uninterruptibly_until_its_request_is_done)
{
	struct bd_env e;
	struct done_log log = { 0 };
	struct done_arg arg = { &log, 0 };

	if (!bd_open(&e, "p4-2400")) {
		CHECK(!"sim created");
		return;
	}
	struct io_state *s = sl_sim_alloc(e.sim, sizeof(*s));
	s->d = sl_sim_disk(e.sim);
	/* a writeback request is ahead of the task's in the queue */
	sl_blockdev_submit(e.sim, s->d, 131072, true, note_done, &arg);
	sl_sim_spawn_root(e.sim, &io_prog, s, "io");
	CHECK(bd_run(&e));
	CHECK(s->saw_uninterruptible);
	sl_time svc = sl_blockdev_service_ns(s->d, 131072, true) +
		      sl_blockdev_service_ns(s->d, 65536, true);
	/* woken at the completion; then only the switch back in */
	CHECKF(s->done >= svc && s->done - s->issued <= svc + 100 * SL_USEC,
	       "issued %lld done %lld, service %lld", (long long)s->issued, (long long)s->done,
	       (long long)svc);
	struct sl_blockdev_stats st;
	sl_blockdev_stats(s->d, &st);
	CHECK(st.requests == 2);
	sl_sim_destroy(e.sim);
}

/* ---- the page cache ---- */

struct dirty_state {
	struct sl_pagecache *pc;
	double mb;
	int pc_step;
	sl_time done;
	double dirty_later;	/* 20 s after the write */
};

static void dirty_step(struct sl_sim *sim, struct sl_task *t, struct sl_action *next)
{
	struct dirty_state *s = t->prog_state;

	switch (s->pc_step++) {
	case 0:
		*next = sl_act_dirty(s->pc, s->mb * 1024 * 1024);
		return;
	case 1:
		s->done = sl_now(sim);
		*next = sl_act_sleep(20 * SL_SEC);
		return;
	case 2:
		s->dirty_later = sl_pagecache_dirty(s->pc);
		*next = sl_act_exit();
		return;
	default:
		*next = sl_act_exit();
	}
}

static const struct sl_prog dirty_prog = { .name = "dirty", .step = dirty_step };

/* Dirty `mb` at once on p4-2400 (256 MB: 224 MB of cache base, limit 40 %
 * = 89.6 MB, background 10 % = 22.4 MB). */
static bool dirty_run(double mb, struct dirty_state *out, struct sl_pagecache_stats *st)
{
	struct bd_env e;

	if (!bd_open(&e, "p4-2400"))
		return false;
	struct dirty_state *s = sl_sim_alloc(e.sim, sizeof(*s));
	s->pc = sl_sim_pagecache(e.sim);
	s->mb = mb;
	sl_sim_spawn_root(e.sim, &dirty_prog, s, "dirty");
	bool ok = bd_run(&e);
	*out = *s;
	sl_pagecache_stats(s->pc, st);
	sl_sim_destroy(e.sim);
	return ok;
}

SL_TEST(pagecache_throttles_a_writer_above_the_dirty_limit)
{
	struct dirty_state below, above;
	struct sl_pagecache_stats sb, sa;
	double mib = 1024 * 1024;

	if (!dirty_run(50, &below, &sb) || !dirty_run(120, &above, &sa)) {
		CHECK(!"runs");
		return;
	}
	/* below the limit: no wait, but background writeback down to 10 % */
	CHECK(sb.throttled == 0);
	CHECK(below.done < 1000000);
	double end_b = below.dirty_later;
	CHECKF(end_b <= 22.4 * mib && end_b > 22.4 * mib - 131072, "dirty later %.1f MB",
	       end_b / mib);
	CHECK(fabs(sb.written_back - (50 * mib - end_b)) < 1);
	CHECK(above.dirty_later <= 22.4 * mib);
	/* above: the writer waits until writeback brought dirty to 40 % */
	CHECK(sa.throttled == 1);
	CHECKF(sa.written_back >= (120 - 89.6) * mib, "written back %.1f MB",
	       sa.written_back / mib);
	/* (120 - 89.6) MB in 128 KB requests of 16.4 ms: about 4 s */
	CHECKF(above.done > 3 * SL_SEC && above.done < 5 * SL_SEC, "writer done at %.2f s",
	       (double)above.done / 1e9);
	CHECK(sa.throttle_ns > 3 * SL_SEC);
	CHECK(sa.dirty_peak >= 120 * mib);
}

SL_TEST(pagecache_capacity_and_hit_ratio_follow_memory)
{
	struct bd_env e;

	if (!bd_open(&e, "p4-2400")) {
		CHECK(!"sim created");
		return;
	}
	struct sl_pagecache *pc = sl_sim_pagecache(e.sim);
	double mib = 1024 * 1024;
	CHECK(fabs(sl_pagecache_capacity(pc) - 224 * mib) < 1);
	CHECK(sl_pagecache_hit_ratio(pc, 200 * mib) == 1.0);
	CHECK(fabs(sl_pagecache_hit_ratio(pc, 448 * mib) - 0.5) < 1e-9);
	sl_pagecache_anon(pc, 24 * mib);	/* process memory shrinks the cache */
	CHECK(fabs(sl_pagecache_hit_ratio(pc, 400 * mib) - 0.5) < 1e-9);
	sl_pagecache_anon(pc, -24 * mib);
	CHECK(fabs(sl_pagecache_capacity(pc) - 224 * mib) < 1);
	/* a miniature: memory and thresholds shrink alike */
	sl_pagecache_scale(pc, 0.25);
	CHECK(fabs(sl_pagecache_capacity(pc) - 56 * mib) < 1);
	CHECK(fabs(sl_pagecache_limit(pc) - 0.4 * 56 * mib) < 1);
	sl_sim_destroy(e.sim);
}

/* A script of page-cache steps on p4-2400 (limit 89.6 MB, background and
 * stop 22.4 MB), each run by one task: add temporary data, dirty kept
 * data (and pass the throttle), sleep, discard, mark, read `left`. */
enum pc_op { PC_TEMP, PC_KEPT, PC_SLEEP, PC_DISCARD, PC_MARK, PC_LEFT, PC_END };
struct pc_step {
	enum pc_op op;
	double mb;
};

struct pc_script {
	struct sl_pagecache *pc;
	const struct pc_step *steps;
	int at;
	struct sl_pagecache_mark mark;
	double left[4], dirty[4];
	sl_time when[4];
	int nleft, ndirty;
	struct sl_pagecache_stats st;	/* at the end */
	struct sl_blockdev_stats bst;
};

static void script_step(struct sl_sim *sim, struct sl_task *t, struct sl_action *next)
{
	struct pc_script *s = t->prog_state;
	double mib = 1024 * 1024;

	for (;;) {
		double mb = s->steps[s->at].mb;
		switch (s->steps[s->at++].op) {
		case PC_TEMP:
			sl_pagecache_add_temporary(sim, s->pc, mb * mib);
			continue;
		case PC_DISCARD:
			sl_pagecache_discard(sim, s->pc, mb * mib);
			continue;
		case PC_MARK:
			sl_pagecache_mark(s->pc, &s->mark);
			continue;
		case PC_LEFT:
			s->left[s->nleft++] = sl_pagecache_left(s->pc, &s->mark);
			s->when[s->ndirty] = sl_now(sim);
			s->dirty[s->ndirty++] = sl_pagecache_dirty(s->pc);
			continue;
		case PC_KEPT:
			*next = sl_act_dirty(s->pc, mb * mib);
			return;
		case PC_SLEEP:
			*next = sl_act_sleep((sl_time)(mb * SL_SEC));
			return;
		default:
			*next = sl_act_exit();
			return;
		}
	}
}

static const struct sl_prog script_prog = { .name = "pagecache-script", .step = script_step };

/* Run `steps` (one writeback positioning per extent_kb, 0: the default)
 * into *s and the stats; false (and a failed check) if the run failed. */
static bool script_run(const struct pc_step *steps, double extent_kb, struct pc_script *s)
{
	struct bd_env e;

	memset(s, 0, sizeof(*s));
	s->steps = steps;
	if (!bd_open(&e, "p4-2400")) {
		CHECK(!"sim created");
		return false;
	}
	struct pc_script *live = sl_sim_alloc(e.sim, sizeof(*live));
	*live = *s;
	live->pc = sl_sim_pagecache(e.sim);
	if (extent_kb > 0)
		sl_pagecache_set_extent(live->pc, extent_kb * 1024);
	sl_sim_spawn_root(e.sim, &script_prog, live, "script");
	bool ok = bd_run(&e);
	*s = *live;
	sl_pagecache_stats(live->pc, &s->st);
	sl_blockdev_stats(sl_sim_disk(e.sim), &s->bst);
	sl_sim_destroy(e.sim);
	CHECK(ok);
	return ok;
}

/* Temporary data (files deleted before writeback reaches them) counts
 * toward the limit but is never written: the throttled writer waits only
 * for its kept data, the flusher stops when none is left, a deletion
 * drops the rest dirty, and a writer whose excess is all temporary goes
 * on. */
SL_TEST(pagecache_never_writes_temporary_data_back)
{
	static const struct pc_step steps[] = {
		{ PC_TEMP, 60 }, { PC_KEPT, 40 },	/* 100 MB > 89.6: waits */
		{ PC_LEFT, 0 }, { PC_SLEEP, 20 }, { PC_LEFT, 0 },
		{ PC_DISCARD, 60 }, { PC_LEFT, 0 },
		{ PC_TEMP, 100 }, { PC_KEPT, 0 }, { PC_LEFT, 0 },	/* goes on at once */
		{ PC_END, 0 },
	};
	struct pc_script s;
	double mib = 1024 * 1024;

	if (!script_run(steps, 0, &s))
		return;
	CHECK(s.st.throttled == 1);
	/* released at 89.6 MB: 10.4 MB of the kept 40 written back */
	CHECKF(s.dirty[0] <= 89.6 * mib && s.dirty[0] > 89.6 * mib - 131072, "dirty %.2f MB",
	       s.dirty[0] / mib);
	/* then every kept byte and no temporary one */
	CHECKF(fabs(s.dirty[1] - 60 * mib) < 1, "dirty later %.2f MB", s.dirty[1] / mib);
	CHECK(fabs(s.st.written_back - 40 * mib) < 1);
	CHECK(fabs(s.dirty[2]) < 1 && fabs(s.st.discarded - 60 * mib) < 1);
	CHECK(s.when[3] == s.when[2]);	/* 100 MB over the limit, nothing to write */
}

/* Writeback takes its bytes evenly from all kept dirty data: of what was
 * dirty at a mark, the share left is dirty-now / dirty-then while nothing
 * new is dirtied, 1 for a mark taken after, and 0 once all is clean. */
SL_TEST(pagecache_left_is_the_share_writeback_spared)
{
	static const struct pc_step steps[] = {
		{ PC_KEPT, 50 }, { PC_MARK, 0 }, { PC_LEFT, 0 },
		{ PC_SLEEP, 20 }, { PC_LEFT, 0 },	/* written back to 22.4 */
		{ PC_MARK, 0 }, { PC_LEFT, 0 },
		{ PC_TEMP, 30 }, { PC_KEPT, 1 }, { PC_SLEEP, 20 }, { PC_LEFT, 0 },
		{ PC_END, 0 },
	};
	struct pc_script s;
	double mib = 1024 * 1024;

	if (!script_run(steps, 0, &s))
		return;
	CHECK(s.left[0] == 1.0);
	CHECKF(s.dirty[1] <= 22.4 * mib && s.dirty[1] < s.dirty[0], "dirty %.2f MB",
	       s.dirty[1] / mib);
	CHECKF(fabs(s.left[1] - s.dirty[1] / s.dirty[0]) < 1e-9, "left %.6f, dirty share %.6f",
	       s.left[1], s.dirty[1] / s.dirty[0]);
	CHECK(s.left[2] == 1.0);
	/* 30 MB of temporary data keeps the flusher going until every kept
	 * byte is clean */
	CHECK(s.left[3] == 0.0);
	CHECK(fabs(s.dirty[3] - 30 * mib) < 1);
}

/* Writeback is positioned once per extent (a file's pages lie together
 * on the disk), by default once per 128 KB request. */
SL_TEST(pagecache_positions_writeback_once_per_extent)
{
	static const struct pc_step steps[] = {
		{ PC_KEPT, 86.375 }, { PC_SLEEP, 30 }, { PC_END, 0 },	/* 64 MB to write */
	};
	double per_req[2], mib = 1024 * 1024;
	const double extent_kb[2] = { 0, 512 };

	for (int i = 0; i < 2; i++) {
		struct pc_script s;
		if (!script_run(steps, extent_kb[i], &s))
			return;
		CHECKF(fabs(s.st.written_back - 64 * mib) < 1, "written %.2f MB",
		       s.st.written_back / mib);
		CHECK(s.bst.requests == 512);
		per_req[i] = (double)s.bst.busy_ns / (double)s.bst.requests;
	}
	/* a request of 128 KB at 35 MB/s takes 3.7 ms; positioning 12.7 ms,
	 * paid by every request, then by one in four */
	double xfer = 131072 / 35e6 * 1e9, pos = 12.67e6;
	CHECKF(fabs(per_req[0] - (xfer + pos)) < 0.02e6, "per request %.3f ms", per_req[0] / 1e6);
	CHECKF(fabs(per_req[1] - (xfer + pos / 4)) < 0.02e6, "per request %.3f ms",
	       per_req[1] / 1e6);
}

/* A background ratio at or above the limit becomes half the limit (2.6.11
 * get_dirty_limits(), 6.12 domain_dirty_limits()); one below it stays. */
SL_TEST(pagecache_background_over_the_limit_is_half_of_it)
{
	struct bd_env e;
	if (!bd_open(&e, "xeon-1600ht")) {
		CHECK(!"sim created");
		return;
	}
	struct sl_pagecache *pc = sl_sim_pagecache(e.sim);
	double cap = sl_pagecache_capacity(pc);
	sl_pagecache_set_ratios(pc, 50, 50, 20);
	CHECKF(fabs(sl_pagecache_background(pc) - cap * 0.10) < 1, "background %.1f%%",
	       100 * sl_pagecache_background(pc) / cap);
	sl_pagecache_set_ratios(pc, 20, 20, 20);
	CHECK(fabs(sl_pagecache_background(pc) - cap * 0.10) < 1);
	sl_pagecache_set_ratios(pc, 15, 10, 20);
	CHECK(fabs(sl_pagecache_background(pc) - cap * 0.15) < 1);
	sl_sim_destroy(e.sim);
}

/* Each kernel's dirty limit (sim.h sl_set_writeback): 2.6.11's 40 % and
 * 6.12's 20 % of the cache's memory; 2.4.27's 60 % of free memory and
 * lowmem's page cache, which shrinks as file pages fill highmem (on
 * xeon-1600ht's i386 kernel, the 1,664 MB above 896) and then lowmem. */
SL_TEST(pagecache_dirty_limit_is_the_kernels)
{
	const struct { const char *policy; double pct; } rule[] = {
		{ "o1", 40 }, { "domains", 40 }, { "cfs", 20 }, { "sl", 20 }, { "linux24", 60 },
	};
	double mib = 1024 * 1024;

	for (size_t i = 0; i < sizeof(rule) / sizeof(rule[0]); i++) {
		struct bd_env e;
		if (!bd_open_policy(&e, "xeon-1600ht", rule[i].policy)) {
			CHECK(!"sim created");
			return;
		}
		struct sl_pagecache *pc = sl_sim_pagecache(e.sim);
		double cap = sl_pagecache_capacity(pc);
		CHECKF(fabs(sl_pagecache_limit(pc) - cap * rule[i].pct / 100) < 1, "%s: limit %.1f MB",
		       rule[i].policy, sl_pagecache_limit(pc) / mib);
		if (!strcmp(rule[i].policy, "linux24")) {
			/* highmem first: the base loses what is cached there */
			sl_pagecache_resident(e.sim, pc, 1000 * mib);
			CHECK(fabs(sl_pagecache_limit(pc) - 0.6 * (cap - 1000 * mib)) < 1);
			/* then lowmem: its page cache counts again */
			sl_pagecache_resident(e.sim, pc, 1000 * mib);
			double low_cache = 2000 * mib - 1664 * mib;
			CHECKF(fabs(sl_pagecache_limit(pc) - 0.6 * (cap - 2000 * mib + low_cache)) < 1,
			       "limit %.1f MB", sl_pagecache_limit(pc) / mib);
			sl_pagecache_resident(e.sim, pc, -2000 * mib);
			CHECK(fabs(sl_pagecache_limit(pc) - 0.6 * cap) < 1);
		} else {
			sl_pagecache_resident(e.sim, pc, 1000 * mib);	/* no effect */
			CHECK(fabs(sl_pagecache_limit(pc) - cap * rule[i].pct / 100) < 1);
		}
		sl_sim_destroy(e.sim);
	}
}
