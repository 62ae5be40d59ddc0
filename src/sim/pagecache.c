/*
 * pagecache.c - the page cache in front of the disk: its size from the
 * machine's memory, dirty pages, a flusher that writes them back, and the
 * throttling of writers that dirty memory faster than the disk takes it.
 *
 * Shape modelled: 2.5/2.6's pdflush and balance_dirty_pages (2.6.11
 * mm/page-writeback.c: dirty_background_ratio 10, vm_dirty_ratio 40, of
 * the machine's pages).  Above the background threshold the flusher
 * (background_writeout) writes dirty pages back until they are below it
 * again; a writer that finds dirty + under-writeback pages above the dirty
 * limit (balance_dirty_pages) waits, uninterruptibly, until writeback has
 * brought them under it.  2.4's bdflush has the same shape with other
 * numbers (2.4.27 fs/buffer.c bdf_prm: wake bdflush above nfract 30 %,
 * block writers above nfract_sync 60 %, stop at nfract_stop_bdflush 20 %,
 * of nr_free_buffer_pages(): lowmem's page cache plus all free memory,
 * 2.4.27 mm/page_alloc.c), 6.12 with a limit of 20 %: the policy names its
 * kernel's (sim.h sl_set_writeback), sl_pagecache_set_ratios() overrides
 * the percentages.  For 2.4's base the cache must know what it holds:
 * workloads declare their file pages (sl_pagecache_resident), which fill
 * highmem first (2.4.27 page cache pages are GFP_HIGHUSER), the memory
 * above the kernel's lowmem (sl_writeback's lowmem_mb, its arch's).
 *
 * Simplified (each an assumption, not a source rule):
 *   - the flusher is not a task: its writeback costs disk time but no CPU
 *     (pdflush/bdflush spend little CPU next to the disk time);
 *   - it keeps one request of WB_CHUNK bytes at the disk at a time, so
 *     reads queue between its requests in arrival order, and it pays
 *     positioning once per `extent` bytes (sl_pagecache_set_extent): a
 *     file's dirty pages go out in index order, in contiguous blocks
 *     (2.6.11 mpage_writepages(); 2.4.27 flush_dirty_buffers() writes
 *     buffers in the order they were dirtied, which for a file written
 *     front to back is its order on disk), and each file is elsewhere on
 *     the disk.  The default extent is one request: every request is
 *     positioned, as for many small files.  No elevator: requests are not
 *     sorted, so every positioning costs the average seek;
 *   - in 2.6 the throttled writer writes its own chunk
 *     (writeback_inodes(write_chunk)) and then waits; here the flusher
 *     writes and the writer waits for the limit - the same disk time, in
 *     one queue;
 *   - no periodic writeback of old dirty data (kupdate / wb_kupdate, 30 s
 *     expiry): the workloads that use the cache run for seconds;
 *   - the kernel's own memory (image, mem_map, slab, free-page reserve) is
 *     a fixed KERNEL_MB [estimate], and anonymous memory (process images)
 *     is what workloads declare with sl_pagecache_anon();
 *   - dirty data is of two kinds.  *Kept* data is written back, the
 *     flusher taking it evenly from all of it (sl_pagecache_left says how
 *     much of what was dirty at a mark still is).  *Temporary* data belongs
 *     to files deleted before the flusher comes to them: pdflush and
 *     bdflush write the oldest dirty data first (2.6.11 sync_sb_inodes()
 *     walks s_io oldest first; 2.4.27 flush_dirty_buffers() the BUF_DIRTY
 *     list), so a file that lives for a fraction of a second behind a
 *     backlog is deleted dirty, and truncate drops its pages without
 *     writeback (2.6.11 truncate_complete_page() -> clear_page_dirty()).
 *     Temporary data counts toward the thresholds and is never written;
 *     a throttled writer whose excess is all temporary goes on (2.6's
 *     balance_dirty_pages would write it; here it is about to be deleted).
 *
 * A run may shrink the cache with sl_pagecache_scale() before anything
 * uses it: a workload that replays a fraction of its load keeps its data
 * in proportion to the memory, and every time in the run shrinks by the
 * same fraction (dbench's shortened load, docs/workloads.md).
 */
#include <math.h>

#include "sim/internal.h"
#include "sim/blockdev.h"

#define KERNEL_MB 32.0			/* memory the kernel keeps, estimate */
#define WB_CHUNK (128L * 1024)		/* one writeback request: an IDE disk's
					 * largest (256 sectors), estimate */

struct sl_pagecache {
	double mem;			/* bytes: machine memory less the kernel's */
	double anon;
	double dirty;			/* includes those under writeback */
	double temporary;		/* of dirty: never written back */
	double writeback;		/* in the flusher's request now */
	double bg_pct, stop_pct, limit_pct;
	enum sl_dirty_of of;		/* what the percentages are of */
	double highmem;			/* of mem, bytes above the kernel's lowmem */
	double resident;		/* file pages workloads said it holds */
	double bg, stop, limit;		/* thresholds, bytes */
	struct sl_pagecache_mark cleaned; /* kept data left dirty, since the start */
	double extent;			/* contiguous bytes per positioning */
	double run_left;		/* of the extent being written */
	struct sl_blockdev *disk;
	struct sl_waitq throttled;
	struct sl_pagecache_stats st;
};

/* The bytes the kernel's percentages are of (sl_set_writeback): all of
 * the cache's memory, or 2.4's free memory and lowmem's page cache. */
static double dirty_base(const struct sl_pagecache *pc)
{
	if (pc->of == SL_DIRTY_OF_MEMORY)
		return pc->mem;
	double cap = sl_pagecache_capacity(pc);
	double held = pc->resident < cap ? pc->resident : cap;
	double low_cache = held > pc->highmem ? held - pc->highmem : 0;
	return cap - held + low_cache;
}

static void update_thresholds(struct sl_pagecache *pc)
{
	double base = dirty_base(pc);

	pc->bg = base * pc->bg_pct / 100;
	pc->stop = base * pc->stop_pct / 100;
	pc->limit = base * pc->limit_pct / 100;
}

/* The percentages (a kernel's, or a workload's override of them): a
 * background at or above the limit becomes half the limit, as 2.6.11
 * get_dirty_limits() and 6.12 domain_dirty_limits() have it (2.4.27's
 * bdflush has no such rule; taken the same), and the flusher's stop is at
 * most its start. */
static void set_thresholds(struct sl_pagecache *pc, double bg, double stop, double limit)
{
	if (bg >= limit)
		bg = limit / 2;
	if (stop > bg)
		stop = bg;
	pc->bg_pct = bg;
	pc->stop_pct = stop;
	pc->limit_pct = limit;
	update_thresholds(pc);
}

/* Dirty data the flusher may write (kept), under writeback included. */
static double kept_dirty(const struct sl_pagecache *pc)
{
	double k = pc->dirty - pc->temporary;
	return k > 0 ? k : 0;
}

double sl_pagecache_most(const struct sl_machine *m)
{
	double mem = (double)m->mem_mb - KERNEL_MB;

	return (mem > 1 ? mem : 1) * 1024 * 1024;
}

struct sl_pagecache *sl_sim_pagecache(struct sl_sim *sim)
{
	if (!sim->pcache) {
		struct sl_pagecache *pc = sl_sim_alloc(sim, sizeof(*pc));
		const struct sl_writeback *wb = &sim->writeback;
		pc->mem = sl_pagecache_most(sim->machine);
		if (wb->lowmem_mb > 0 && sim->machine->mem_mb > wb->lowmem_mb)
			pc->highmem = (double)(sim->machine->mem_mb - wb->lowmem_mb) * 1024 * 1024;
		if (pc->highmem > pc->mem)
			pc->highmem = pc->mem;
		pc->of = wb->of;
		pc->disk = sl_sim_disk(sim);
		set_thresholds(pc, wb->bg_pct, wb->stop_pct, wb->limit_pct);
		pc->extent = (double)WB_CHUNK;
		sim->pcache = pc;
	}
	return sim->pcache;
}

void sl_pagecache_set_ratios(struct sl_pagecache *pc, double bg_pct, double stop_pct,
			     double limit_pct)
{
	set_thresholds(pc, bg_pct, stop_pct, limit_pct);
}

void sl_pagecache_set_extent(struct sl_pagecache *pc, double bytes)
{
	pc->extent = bytes > 1 ? bytes : 1;
}

void sl_pagecache_scale(struct sl_pagecache *pc, double factor)
{
	pc->mem *= factor;
	pc->highmem *= factor;
	pc->anon *= factor;
	pc->resident *= factor;
	update_thresholds(pc);
}

double sl_pagecache_capacity(const struct sl_pagecache *pc)
{
	double c = pc->mem - pc->anon;
	return c > 0 ? c : 0;
}

void sl_pagecache_anon(struct sl_pagecache *pc, double bytes)
{
	pc->anon += bytes;
	if (pc->anon < 0)
		pc->anon = 0;
	update_thresholds(pc);
}

double sl_pagecache_hit_ratio(const struct sl_pagecache *pc, double set_bytes)
{
	double c = sl_pagecache_capacity(pc);
	return set_bytes <= c ? 1.0 : c / set_bytes;
}

double sl_pagecache_dirty(const struct sl_pagecache *pc) { return pc->dirty; }
double sl_pagecache_limit(const struct sl_pagecache *pc) { return pc->limit; }
double sl_pagecache_background(const struct sl_pagecache *pc) { return pc->bg; }

static void flush(struct sl_sim *sim, struct sl_pagecache *pc);

/* Throttled writers go on once dirty memory is at or under the limit, or
 * when all that is over it is temporary (nothing left to write). */
static void release_writers(struct sl_sim *sim, struct sl_pagecache *pc)
{
	if (pc->dirty <= pc->limit || kept_dirty(pc) <= 0)
		sl__waitq_wake_all(sim, &pc->throttled, -1, 0);
}

static void wb_done(struct sl_sim *sim, void *arg)
{
	struct sl_pagecache *pc = arg;
	double kept = kept_dirty(pc);

	/* the request took its bytes evenly from all kept dirty data */
	if (pc->writeback >= kept) {
		pc->cleaned.epoch++;
		pc->cleaned.log_left = 0;
	} else if (pc->writeback > 0) {
		pc->cleaned.log_left += log1p(-pc->writeback / kept);
	}
	pc->dirty -= pc->writeback;
	if (pc->dirty < pc->temporary)
		pc->dirty = pc->temporary;
	pc->st.written_back += pc->writeback;
	pc->writeback = 0;
	release_writers(sim, pc);
	flush(sim, pc);
}

/* The flusher: one request at a time while above the stop threshold once
 * started, which happens above the background threshold (or for a
 * throttled writer). */
static void flush(struct sl_sim *sim, struct sl_pagecache *pc)
{
	bool waiting = pc->throttled.head != NULL;

	double kept = kept_dirty(pc);

	if (pc->writeback > 0 || kept <= 0)
		return;
	if (pc->dirty <= pc->stop && !waiting)
		return;
	bool seek = pc->run_left <= 0;
	if (seek)
		pc->run_left = pc->extent;
	double n = pc->run_left < (double)WB_CHUNK ? pc->run_left : (double)WB_CHUNK;
	if (n >= kept) {
		n = kept;
		pc->run_left = 0;	/* what is dirtied next lies elsewhere */
	} else {
		pc->run_left -= n;
	}
	pc->writeback = n;
	sl_blockdev_submit(sim, pc->disk, (long)n, seek, wb_done, pc);
}

static void note_dirty(struct sl_sim *sim, struct sl_pagecache *pc)
{
	if (pc->dirty > pc->st.dirty_peak)
		pc->st.dirty_peak = pc->dirty;
	if (pc->dirty > pc->bg)
		flush(sim, pc);
}

void sl_pagecache_add_temporary(struct sl_sim *sim, struct sl_pagecache *pc, double bytes)
{
	if (bytes <= 0)
		return;
	pc->dirty += bytes;
	pc->temporary += bytes;
	note_dirty(sim, pc);
}

void sl_pagecache_resident(struct sl_sim *sim, struct sl_pagecache *pc, double bytes)
{
	pc->resident += bytes;
	if (pc->resident < 0)
		pc->resident = 0;
	if (pc->of == SL_DIRTY_OF_MEMORY)
		return;
	update_thresholds(pc);
	release_writers(sim, pc);
	note_dirty(sim, pc);
}

void sl_pagecache_discard(struct sl_sim *sim, struct sl_pagecache *pc, double bytes)
{
	if (bytes > pc->temporary)
		bytes = pc->temporary;
	if (bytes <= 0)
		return;
	pc->temporary -= bytes;
	pc->dirty -= bytes;
	pc->st.discarded += bytes;
	release_writers(sim, pc);
}

void sl_pagecache_mark(const struct sl_pagecache *pc, struct sl_pagecache_mark *m)
{
	*m = pc->cleaned;
}

double sl_pagecache_left(const struct sl_pagecache *pc, const struct sl_pagecache_mark *since)
{
	if (since->epoch != pc->cleaned.epoch)
		return 0;
	return exp(pc->cleaned.log_left - since->log_left);
}

int sl__apply_dirty(struct sl_sim *sim, struct sl_cpu *c, struct sl_task *t)
{
	struct sl_pagecache *pc = t->act.u.dirty.pc;

	(void)c;
	if (t->act_phase == 0) {
		if (t->act.u.dirty.bytes > 0)
			pc->dirty += t->act.u.dirty.bytes;
		note_dirty(sim, pc);
	} else {
		pc->st.throttle_ns += sim->now - t->slept_at;
	}
	/* balance_dirty_pages: over the limit, wait for writeback of kept
	 * data (temporary data is not written: see the header) */
	if (pc->dirty > pc->limit && kept_dirty(pc) > 0) {
		if (t->act_phase++ == 0)
			pc->st.throttled++;
		sl__sleep_io(sim, &pc->throttled, t);
		flush(sim, pc);
		return 0;
	}
	return 1;
}

void sl_pagecache_stats(const struct sl_pagecache *pc, struct sl_pagecache_stats *out)
{
	*out = pc->st;
}
