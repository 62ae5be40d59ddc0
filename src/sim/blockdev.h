/*
 * blockdev.h - the machine's disk as a request queue (blockdev.c) and the
 * page cache in front of it (pagecache.c), for workloads that do file I/O.
 *
 * Both are created on first use, so a run that never asks for them has
 * no disk events and no page-cache state: its results do not change.
 */
#ifndef SL_SIM_BLOCKDEV_H
#define SL_SIM_BLOCKDEV_H

#include <stdbool.h>

#include "base/units.h"

struct sl_sim;
struct sl_blockdev;
struct sl_pagecache;

/* ---- the disk (blockdev.c) ---- */

/* The run's disk, with the machine's parameters (hw/machine.h). */
struct sl_blockdev *sl_sim_disk(struct sl_sim *sim);
/* Time to serve one request: positioning (average seek + half a turn)
 * when `seek`, plus bytes at the media rate. */
sl_time sl_blockdev_service_ns(const struct sl_blockdev *d, long bytes, bool seek);
/* Queue a request that no task waits for (writeback); done(sim, arg) runs
 * when it completes.  Tasks use SL_ACT_DISK_IO (action.h). */
void sl_blockdev_submit(struct sl_sim *sim, struct sl_blockdev *d, long bytes, bool seek,
			void (*done)(struct sl_sim *sim, void *arg), void *arg);

struct sl_blockdev_stats {
	long requests;		/* completed */
	double bytes;		/* completed */
	sl_time busy_ns;	/* time serving requests */
	sl_time task_wait_ns;	/* summed queue + service time of tasks' requests */
	int queued;		/* now, the one in service included */
};
void sl_blockdev_stats(const struct sl_blockdev *d, struct sl_blockdev_stats *out);

/* ---- the page cache (pagecache.c) ---- */

/* The run's page cache: the machine's memory less the kernel's, with the
 * default writeback thresholds (pagecache.c). */
struct sl_pagecache *sl_sim_pagecache(struct sl_sim *sim);
/* Writeback thresholds in % of the cache's base (pagecache.c): the flusher
 * starts above bg_pct and stops at or below stop_pct; a writer above
 * limit_pct waits.  A background at or above the limit becomes half the
 * limit (2.6's and 6.12's rule), a stop above the background the
 * background. */
void sl_pagecache_set_ratios(struct sl_pagecache *pc, double bg_pct, double stop_pct,
			     double limit_pct);
/* The most a page cache on `m` can ever hold: its memory less the
 * kernel's (a check before the run, with no anonymous memory yet). */
struct sl_machine;
double sl_pagecache_most(const struct sl_machine *m);
/* Bytes the page cache can hold now: memory less the kernel's and less
 * the anonymous memory workloads said they use. */
double sl_pagecache_capacity(const struct sl_pagecache *pc);
/* Anonymous memory (process images, heaps) grows (+) or shrinks (-): it
 * takes room from the cache. */
void sl_pagecache_anon(struct sl_pagecache *pc, double bytes);
/* Fraction of reads from a file set of `set_bytes` (all the run's files)
 * that find their pages in the cache: 1 when the set fits, else the share
 * of it the cache holds (uniform access, any replacement order). */
double sl_pagecache_hit_ratio(const struct sl_pagecache *pc, double set_bytes);
double sl_pagecache_dirty(const struct sl_pagecache *pc);
/* The dirty limit now, and the background threshold, bytes. */
double sl_pagecache_limit(const struct sl_pagecache *pc);
double sl_pagecache_background(const struct sl_pagecache *pc);
/* The workload's file pages in the cache grow (+) or shrink (-): under
 * 2.4's rule the dirty thresholds are of free memory and lowmem's cache
 * (sim.h sl_set_writeback), which they move. */
void sl_pagecache_resident(struct sl_sim *sim, struct sl_pagecache *pc, double bytes);
/* Writeback pays positioning once per `bytes` written (a file's dirty
 * pages are contiguous); default: once per request. */
void sl_pagecache_set_extent(struct sl_pagecache *pc, double bytes);
/* Shrink (or grow) the memory by `factor`, thresholds in proportion; only
 * before the cache is used (a shortened load's miniature, pagecache.c). */
void sl_pagecache_scale(struct sl_pagecache *pc, double factor);
/* Dirty data of files deleted before writeback reaches them: counted in
 * the thresholds, never written back; sl_pagecache_discard drops it (the
 * files' deletion).  Kept data is dirtied with SL_ACT_DIRTY. */
void sl_pagecache_add_temporary(struct sl_sim *sim, struct sl_pagecache *pc, double bytes);
void sl_pagecache_discard(struct sl_sim *sim, struct sl_pagecache *pc, double bytes);
/* Writeback takes its bytes evenly from the kept dirty data: of the kept
 * data dirty at a mark, the share sl_pagecache_left() is dirty still. */
struct sl_pagecache_mark {
	long epoch;		/* bumped when writeback cleans everything */
	double log_left;	/* sum of log(1 - written / kept dirty) */
};
void sl_pagecache_mark(const struct sl_pagecache *pc, struct sl_pagecache_mark *m);
double sl_pagecache_left(const struct sl_pagecache *pc, const struct sl_pagecache_mark *since);

struct sl_pagecache_stats {
	double written_back;	/* bytes the flusher wrote */
	double discarded;	/* temporary bytes dropped dirty */
	long throttled;		/* writers that had to wait */
	sl_time throttle_ns;	/* summed waits of throttled writers */
	double dirty_peak;
};
void sl_pagecache_stats(const struct sl_pagecache *pc, struct sl_pagecache_stats *out);

#endif
