/*
 * dbench.c - Andrew Tridgell's dbench: N client processes replaying the
 * file-system side of a netbench run (the load Samba's smbd would put on
 * the server's file system), and the netbench load that dbench and tbench
 * share.
 *
 * Model (docs/workloads.md, dbench): the parent forks `clients`
 * children and releases them together (dbench signals the process group);
 * each replays the load once (dbench 1.x/2.x: closed loop, no think time)
 * in its own directory and exits; the parent reaps them.  The load is
 * dbench 2.0's client_oplocks.txt as an operation mix (nb_load_build): the
 * trace's proportions of ReadX, NTCreateX, Close, WriteX, ... and its
 * payload means, the same sequence for every client.  Per operation a
 * client parses the line (`user_us`, INT) and makes the system call: a
 * kernel cost per kind (metadata: dcache and inode lookups, memory-latency
 * bound: MEM) plus, for ReadX and WriteX, the copy between the page cache
 * and the client's buffer (`copy_us` per KB, MEM).  Flush: with `fsync_ms`
 * > 0 it is an fsync, an uninterruptible disk wait (exponential, mean
 * `fsync_ms`) served one at a time (one disk, one journal); `fsync_ms=0` is
 * dbench 2.0's fileio.c, in which Flush did nothing.
 *
 * Memory (pagecache=1): the machine's page cache and disk (sim/blockdev.h),
 * with what a client's files do to it counted from client_oplocks.txt
 * replayed file by file and page by page (scripts/dbench-load.py):
 *   - the opening: a client's first kept_mb (20.72 MB, 99 % of it in the
 *     first 845 lines) are the first writes of the files it keeps to the
 *     end - its first kept_mb / 65,471 WriteX, moved to the front;
 *   - after it, DB_HOT_SHARE of the bytes written rewrite hot_mb (2.05 MB)
 *     of kept pages, newly dirty as far as writeback cleaned them, and the
 *     rest go to temporary files, deleted before writeback reaches them:
 *     dirty, never written back, dropped by an Unlink (temp_mb, 1.63 MB,
 *     alive on average);
 *   - reads come from a read set of read_mb (7.59 MB) per client, in the
 *     cache with its hit ratio for all clients' sets;
 *   - writeback is positioned once per kept file (file_kb, 363.5 KB);
 *   - every group's writes pass balance_dirty_pages once: above the dirty
 *     limit the writer waits for writeback to bring dirty memory under it.
 * So on 2.5 GB 20 and 30 clients' openings fit under the limit and the
 * run is CPU-bound; from 60 the writers wait while the openings' excess is
 * written back.  A shorter load (`ops` < 62477) is a miniature: its data
 * and the memory shrink by ops / 62477 (sl_pagecache_scale), which holds
 * only while a client's load spans many time slices (docs/workloads.md).
 * Thresholds: the policy's kernel's (sim.h sl_set_writeback: 2.4.27's
 * bdflush, 2.6.11's or 6.12's); `dirty_bg`, `dirty_limit` override the
 * percentages.  Under 2.4's, which are of free memory and lowmem's page
 * cache, the client declares the file pages it adds and deletes
 * (sl_pagecache_resident): its kept files and live temporary ones.
 *
 * Events: a client replays its load in groups of up to DB_GROUP_MAX
 * operations, a burst of parsing and a burst of calls each, their writes
 * reaching the page cache at the group's end (group_end).
 *
 * Metric (dbench 2.x's final line): Throughput = 1e-6 x (bytes read +
 * bytes written by all clients) / time from the release to the last
 * client's exit, "MB/s" of payload (decimal MB).
 *
 * Sources: github.com/sahlberg/dbench (its history: README,
 * dbench.c, child.c, fileio.c of 2.0; client_oplocks.txt's mix, counted:
 * 62,477 ops, 199 MB read in 17,881 ReadX, 149 MB written in 7,475 WriteX;
 * Flush's fsync: mean 13 ms in a dbench 4 run on a modern array, 5-50 ms
 * for a 2002 disk); seed 004 (HT speed-ups 9-29 % on 2.4.19, 1-27 % on
 * 2.5.32, one Xeon MP 1.6 GHz, 2.5 GB).  Published magnitudes: "dbench 128
 * processes" 8.4 -> 13.2 MB/s between 2.4.19-pre4 and -pre5 (a disk-bound
 * box).
 *
 * Calibrated against: nothing.  The per-kind costs are estimates within
 * 2-20 us for metadata (UNVERIFIED: no 2002 measurement at hand); copy_us
 * (1 us per KB, ~1 GB/s) is a 2002 P4's copy_to_user from memory; fsync_ms
 * is the lower end of a 2002 disk's range (a dbench file's dirty data is
 * small); kept_mb, file_kb, hot_mb, temp_mb, read_mb, DB_HOT_SHARE and
 * DB_TEMP_NEW are counted from client_oplocks.txt (dbench 2.0, Feb 2002).
 *
 * Omitted / simplified:
 *   - the load is a mix with the trace's proportions, not the trace itself:
 *     no per-file state, offsets or directory tree; a shorter load (`ops`)
 *     keeps the mix;
 *   - the page cache is a mean field of the counted sizes, not per-file:
 *     no per-page LRU, no periodic writeback of expired dirty data
 *     (kupdate, 30 s), no anonymous memory of the clients (small);
 *   - each kernel's writer over the limit waits until writeback brings
 *     dirty memory under it (sim.h sl_set_writeback);
 *   - no VFS locks (dcache_lock, the BKL of 2.4's VFS) and no journal
 *     beyond the fsyncs' one-at-a-time disk;
 *   - the parent's once-a-second progress line is not printed;
 *   - run-to-run variation: every piece of work is drawn lognormal around
 *     its mean (log-sd `jitter`, mean kept) from the client's own stream,
 *     an assumption standing for cache and interrupt noise; a group's
 *     pieces as one lognormal of their sum's mean and variance.
 */
#include <math.h>
#include <stdbool.h>

#include "base/memsize.h"
#include "base/rng.h"
#include "sim/blockdev.h"
#include "sim/sim.h"
#include "workload/net_workloads.h"

#define DB_STREAM_TRACE 0x6462656e63ULL	/* the load file's order */
#define DB_TRACE_SEED 2002			/* one fixed load for every run */
#define DB_FOOTPRINT_KB 8

/* client_oplocks.txt, counted by scripts/dbench-load.py: its length, and
 * how the bytes written after the opening divide - rewrites of kept
 * pages (63.25 MB into 2.05 MB of pages) and writes to temporary files
 * (65.13 MB into 61.99 MB of pages, deleted before the clean-up). */
#define DB_TRACE_OPS 62477
#define DB_GROUP_MAX 32		/* operations replayed as one pair of bursts, at most */
#define DB_HOT_SHARE (63.25 / (63.25 + 65.13))
#define DB_TEMP_NEW (61.99 / 65.13)

/* ---- the netbench load (shared with tbench.c) ---- */

const double nb_op_pct[NB_NKINDS] = {
	[NB_READX] = 28.6, [NB_NTCREATEX] = 17.6, [NB_CLOSE] = 13.4, [NB_WRITEX] = 12.0,
	[NB_QPATHINFO] = 11.8, [NB_FINDFIRST] = 5.7, [NB_UNLINK] = 3.4, [NB_QFILEINFO] = 3.0,
	[NB_QFSINFO] = 2.7, [NB_FLUSH] = 1.2, [NB_RENAME] = 0.7,
};

const char *const nb_op_name[NB_NKINDS] = {
	[NB_READX] = "ReadX", [NB_NTCREATEX] = "NTCreateX", [NB_CLOSE] = "Close",
	[NB_WRITEX] = "WriteX", [NB_QPATHINFO] = "QUERY_PATH_INFORMATION",
	[NB_FINDFIRST] = "FIND_FIRST", [NB_UNLINK] = "Unlink",
	[NB_QFILEINFO] = "QUERY_FILE_INFORMATION", [NB_QFSINFO] = "QUERY_FS_INFORMATION",
	[NB_FLUSH] = "Flush", [NB_RENAME] = "Rename",
};

/* Share of 65,471-byte transfers that gives the trace's mean size. */
static double large_share(double mean)
{
	return (mean - NB_SMALL_IO) / (NB_LARGE_IO - NB_SMALL_IO);
}

double nb_op_want(double n, int k)
{
	double total = 0;

	for (int i = 0; i < NB_NKINDS; i++)
		total += nb_op_pct[i];
	return n * nb_op_pct[k] / total;
}

double nb_load_payload_mean(double n)
{
	return floor(nb_op_want(n, NB_READX)) * NB_READ_MEAN +
	       floor(nb_op_want(n, NB_WRITEX)) * NB_WRITE_MEAN;
}

/* How many operations of each kind a load of n has: exact counts by
 * largest remainders, so any n keeps the mix. */
static void nb_load_counts(int n, int count[NB_NKINDS])
{
	int placed = 0;
	double rem[NB_NKINDS];

	for (int k = 0; k < NB_NKINDS; k++) {
		double want = nb_op_want(n, k);
		count[k] = (int)floor(want);
		rem[k] = want - count[k];
		placed += count[k];
	}
	while (placed < n) {
		int best = 0;
		for (int k = 1; k < NB_NKINDS; k++)
			if (rem[k] > rem[best])
				best = k;
		count[best]++;
		rem[best] = -1;
		placed++;
	}
}

/* Of a load of n writes, those of NB_LARGE_IO: their share gives the
 * trace's mean write. */
static int nb_large_writes(int writes)
{
	return (int)lround(writes * large_share(NB_WRITE_MEAN));
}

void nb_load_build(struct nb_op *ops, int n, uint64_t trace_seed)
{
	int count[NB_NKINDS];
	struct sl_rng r;

	nb_load_counts(n, count);
	int i = 0;
	for (int k = 0; k < NB_NKINDS; k++)
		for (int c = 0; c < count[k]; c++)
			ops[i++] = (struct nb_op){ .kind = (uint8_t)k, .bytes = 0 };
	/* sizes: exact numbers of large transfers, then one shuffle */
	int reads = count[NB_READX], writes = count[NB_WRITEX];
	int big_r = (int)lround(reads * large_share(NB_READ_MEAN));
	int big_w = nb_large_writes(writes);
	for (int j = 0; j < n; j++) {
		if (ops[j].kind == NB_READX)
			ops[j].bytes = big_r-- > 0 ? NB_LARGE_IO : NB_SMALL_IO;
		else if (ops[j].kind == NB_WRITEX)
			ops[j].bytes = big_w-- > 0 ? NB_LARGE_IO : NB_SMALL_IO;
	}
	sl_rng_derive(&r, trace_seed, DB_STREAM_TRACE, (uint64_t)n);
	for (int j = n - 1; j > 0; j--) {
		int k = (int)sl_rng_below(&r, (uint64_t)j + 1);
		struct nb_op tmp = ops[j];
		ops[j] = ops[k];
		ops[k] = tmp;
	}
}

double nb_load_bytes(const struct nb_op *ops, int n)
{
	double sum = 0;

	for (int i = 0; i < n; i++)
		sum += ops[i].bytes;
	return sum;
}

/* ---- dbench ---- */

/* Kernel work per operation besides copies, us (estimates; see header).
 * QFSInfo makes no call in dbench 2.0, nor does Flush unless it is an
 * fsync (dbench_kernel_us). */
static const double db_op_us[NB_NKINDS] = {
	[NB_READX] = 3, [NB_NTCREATEX] = 15, [NB_CLOSE] = 4, [NB_WRITEX] = 5,
	[NB_QPATHINFO] = 6, [NB_FINDFIRST] = 25, [NB_UNLINK] = 20, [NB_QFILEINFO] = 2,
	[NB_QFSINFO] = 0, [NB_FLUSH] = 2, [NB_RENAME] = 20,
};

struct db_run;

struct db_client {
	struct db_run *run;
	int next;		/* next operation */
	int group_end;		/* the group being replayed ends before this one */
	int group;		/* ... and its index in run->groups */
	unsigned char pc;
	double hot_dirty;	/* bytes of its rewritten kept pages dirty, at hot_mark */
	struct sl_pagecache_mark hot_mark;
	double temp;		/* bytes of its live temporary files (all dirty) */
};

/*
 * A group of operations (group_end) and what its two bursts are, computed
 * once per run (groups_build): every client replays the same load from
 * operation 0, so its groups start at the same operations, and what
 * client_step would sum over a group's operations at each replay is the
 * same every time (those loops were a quarter of a dbench run's
 * instructions).
 */
struct db_group {
	int end;		/* its operations: the previous group's end up to this */
	int cache_first, cache_end;	/* its WriteX and Unlink: run->cache_ops[first, end) */
	int32_t bytes;		/* its payload, read and written */
	double kernel;		/* its calls' work, the sum of their means, ns */
	double kernel_sigma;	/* the log-sd of that sum's lognormal (vary_sigma) */
};

/* The parsing burst of a group of n operations: its mean and log-sd. */
struct db_parse {
	double user, sigma;
};

struct db_run {
	int clients, nops;
	struct nb_op *ops;
	struct db_group *groups;	/* the load's groups in order */
	int *cache_ops;		/* the operations that group_cache handles, in order */
	struct db_parse parse[DB_GROUP_MAX + 1];	/* by group size */
	double jitter;		/* log-sd of each piece of work */
	double jitter_cv2;	/* its squared coefficient of variation */
	double user_ns, copy_ns_per_byte, fsync_ns;
	struct db_client *client;
	struct sl_barrier *start;
	struct sl_mutex *disk;
	struct sl_pagecache *pc;	/* NULL: pagecache=0, unlimited memory */
	struct sl_blockdev *dev;
	/* the page cache's view of a client's files, scaled with the load */
	int n_open;		/* the first n_open operations: kept files' first writes */
	bool reads_may_miss;	/* the read set is larger than the cache */
	double hot;		/* bytes of kept pages rewritten after the opening */
	double read_set;	/* all clients' pages read, bytes */
	double unlink_share;	/* of a client's temporary data, what an Unlink deletes */
	int forked, live;
	bool started;		/* the release has been seen */
	sl_time t_start, t_end;
	double bytes;
	long fsyncs;
	sl_time fsync_wait;	/* summed disk waits of fsync */
	long read_misses;	/* ReadX that went to the disk */
	double dirtied;		/* kept bytes WriteX newly dirtied */
	double temporary;	/* bytes of temporary files written */
};

/* The clock starts with the first task to run after the release. */
static void mark_start(struct sl_sim *sim, struct db_run *run)
{
	if (!run->started) {
		run->started = true;
		run->t_start = sl_now(sim);
	}
}

/* A client's loop: parse (user), system call (kernel), and for an fsync
 * the disk: lock, wait, unlock. */
enum { C_START, C_PARSE, C_CALL, C_CACHE, C_WAIT, C_DISK, C_DISK_DONE, C_UNLOCK, C_EXIT };

/* The page cache's side of a WriteX past the opening ones (an opening
 * write is a kept file's first, all newly dirty: group_cache): DB_HOT_SHARE
 * of the bytes rewrite the client's hot kept pages (newly dirty as far as
 * writeback cleaned them) and the rest go to temporary files (newly dirty,
 * DB_TEMP_NEW of them: the rest rewrite pages of the same file).  Returns
 * the kept bytes newly dirtied; the temporary ones go to the cache at
 * once. */
static double write_dirties(struct sl_sim *sim, struct db_client *c, const struct nb_op *op)
{
	struct db_run *run = c->run;

	c->hot_dirty *= sl_pagecache_left(run->pc, &c->hot_mark);
	sl_pagecache_mark(run->pc, &c->hot_mark);
	double rewrite = op->bytes * DB_HOT_SHARE;
	double clean = run->hot > 0 ? 1.0 - c->hot_dirty / run->hot : 0;
	double fresh = rewrite * (clean > 0 ? clean : 0);
	double temp = (op->bytes - rewrite) * DB_TEMP_NEW;
	c->hot_dirty += fresh;
	c->temp += temp;
	run->dirtied += fresh;
	run->temporary += temp;
	sl_pagecache_add_temporary(sim, run->pc, temp);
	return fresh;
}

/* After a group's calls, its page-cache side, in order: each WriteX
 * dirties (write_dirties), each Unlink deletes its share of the client's
 * temporary data, dirty; then, if it wrote, the client passes
 * balance_dirty_pages once with all it dirtied (sl_act_dirty in *next:
 * true).  Nothing here waits but that check. */
static bool group_cache(struct sl_sim *sim, struct db_client *c, const struct db_group *g,
			struct sl_action *next)
{
	struct db_run *run = c->run;
	double fresh = 0, opened = 0, temp_before = c->temp;
	bool wrote = false;

	if (!run->pc)
		return false;
	/* the group's WriteX and Unlink, in order: its other operations do
	 * nothing here */
	for (int j = g->cache_first; j < g->cache_end; j++) {
		int i = run->cache_ops[j];
		const struct nb_op *op = &run->ops[i];
		if (op->kind == NB_WRITEX) {
			if (i < run->n_open) {	/* a kept file's new pages */
				opened += op->bytes;
				fresh += op->bytes;
				run->dirtied += op->bytes;
			} else {
				fresh += write_dirties(sim, c, op);
			}
			wrote = true;
		} else if (op->kind == NB_UNLINK) {
			double gone = c->temp * run->unlink_share;
			c->temp -= gone;
			sl_pagecache_discard(sim, run->pc, gone);
		}
	}
	/* the file pages the group added or deleted (2.4's thresholds) */
	double held = opened + c->temp - temp_before;
	if (held != 0)
		sl_pagecache_resident(sim, run->pc, held);
	if (wrote)
		*next = sl_act_dirty(run->pc, fresh);
	return wrote;
}

/* A ReadX finds its pages in memory with the cache's hit ratio for all
 * clients' read sets, else waits for the disk (one request, positioning
 * included): true with the request in *next. */
static bool read_misses(struct db_run *run, struct sl_task *t, const struct nb_op *op,
			struct sl_action *next)
{
	if (!run->pc || op->kind != NB_READX || !run->reads_may_miss)
		return false;
	double hit = sl_pagecache_hit_ratio(run->pc, run->read_set);
	if (hit >= 1.0 || sl_rng_uniform(&t->rng) < hit)
		return false;
	run->read_misses++;
	*next = sl_act_disk_io(run->dev, op->bytes, true);
	return true;
}

/* Whether an operation may wait on its own after its call: an fsync, or a
 * read while the read set does not fit. */
static bool may_wait(const struct db_run *run, const struct nb_op *op)
{
	if (op->kind == NB_FLUSH)
		return run->fsync_ns > 0;
	return run->pc && op->kind == NB_READX && run->reads_may_miss;
}

/* The group that starts at operation `from`: DB_GROUP_MAX operations, or
 * fewer up to one that may wait.  A group's parsing is one burst and its
 * calls another, and its writes and deletions reach the page cache at its
 * end, at most DB_GROUP_MAX operations (about half a millisecond) late:
 * an approximation (docs/workloads.md, dbench, "Events"). */
static int group_end(const struct db_run *run, int from)
{
	int j = from;

	while (j < run->nops && j - from < DB_GROUP_MAX)
		if (may_wait(run, &run->ops[j++]))
			break;
	return j;
}

/* A group's work: the sum of its pieces, each of which would be drawn
 * lognormal around its mean (log-sd `jitter`, a squared coefficient of
 * variation of cv2 = expm1(jitter^2)); drawn as one lognormal of the same
 * mean and variance (Fenton-Wilkinson), sum_sq being the sum of the
 * pieces' squared means: sl_rng_vary(sum, vary_sigma(sum, sum_sq, cv2)).
 * Its log-sd, or 0 where the sum is not to vary (no jitter, no work):
 * sl_rng_vary then returns the sum without a draw. */
static double vary_sigma(double sum, double sum_sq, double cv2)
{
	if (cv2 <= 0 || sum <= 0)
		return 0;
	return sqrt(log1p(cv2 * sum_sq / (sum * sum)));
}

/* An operation's kernel work besides copies, us (net_workloads.h). */
double dbench_kernel_us(int kind, bool fsync)
{
	return kind == NB_FLUSH && !fsync ? 0 : db_op_us[kind];
}

/* The load's groups (struct db_group) and the parsing bursts by group
 * size, once the load's order (move_opening_first) and what may wait
 * (may_wait) are known.  Each sum is the loop that client_step ran over
 * the group at every replay, so each is the same double.  The payload
 * bytes are whole numbers: their sums are exact in a double below 2^53
 * (9 PB in a run), in any grouping. */
static void groups_build(struct sl_sim *sim, struct db_run *run)
{
	int ngroups = 0, ncache = 0, k = 0;

	for (int from = 0; from < run->nops; from = group_end(run, from))
		ngroups++;
	for (int i = 0; i < run->nops; i++)
		ncache += run->ops[i].kind == NB_WRITEX || run->ops[i].kind == NB_UNLINK;
	run->groups = sl_sim_alloc(sim, sizeof(*run->groups) * (size_t)ngroups);
	if (run->pc && ncache)
		run->cache_ops = sl_sim_alloc(sim, sizeof(*run->cache_ops) * (size_t)ncache);
	for (int n = 0, from = 0; from < run->nops; from = run->groups[n++].end) {
		struct db_group *g = &run->groups[n];
		double kernel = 0, kernel_sq = 0;
		int32_t bytes = 0;

		g->end = group_end(run, from);
		g->cache_first = k;
		for (int i = from; i < g->end; i++) {
			const struct nb_op *o = &run->ops[i];
			double w = dbench_kernel_us(o->kind, run->fsync_ns > 0) * 1e3 +
				   o->bytes * run->copy_ns_per_byte;
			bytes += o->bytes;
			kernel += w;
			kernel_sq += w * w;
			if (run->cache_ops && (o->kind == NB_WRITEX || o->kind == NB_UNLINK))
				run->cache_ops[k++] = i;
		}
		g->cache_end = k;
		g->bytes = bytes;
		g->kernel = kernel;
		g->kernel_sigma = vary_sigma(kernel, kernel_sq, run->jitter_cv2);
	}
	for (int n = 1; n <= DB_GROUP_MAX; n++) {
		double user = n * run->user_ns;
		run->parse[n] = (struct db_parse){
			.user = user,
			.sigma = vary_sigma(user, user * run->user_ns, run->jitter_cv2),
		};
	}
}

static void client_step(struct sl_sim *sim, struct sl_task *t, struct sl_action *next)
{
	struct db_client *c = t->prog_state;
	struct db_run *run = c->run;
	const struct db_group *g = &run->groups[c->group];
	/* the group's last operation: the one that may interact */
	const struct nb_op *op = &run->ops[c->group_end > 0 ? c->group_end - 1 : 0];

	t->footprint_kb = DB_FOOTPRINT_KB;
	switch (c->pc) {
	case C_START:
		c->pc = C_PARSE;
		if (run->pc) {
			/* its hot pages are among the kept files it writes first */
			c->hot_dirty = run->hot;
			sl_pagecache_mark(run->pc, &c->hot_mark);
		}
		*next = sl_act_barrier(run->start);
		return;
	case C_PARSE: {
		mark_start(sim, run);
		if (c->next == run->nops) {
			c->pc = C_EXIT;
			if (--run->live == 0)
				run->t_end = sl_now(sim);
			*next = sl_act_exit();
			return;
		}
		c->group_end = g->end;
		const struct db_parse *parse = &run->parse[c->group_end - c->next];
		c->pc = C_CALL;
		*next = sl_act_run(sl_rng_vary(&t->rng, parse->user, parse->sigma), SL_WC_INT);
		return;
	}
	case C_CALL:
		run->bytes += g->bytes;
		c->pc = C_CACHE;
		*next = sl_act_sys_as(sl_rng_vary(&t->rng, g->kernel, g->kernel_sigma), SL_WC_MEM);
		return;
	case C_CACHE:
		c->pc = C_WAIT;
		if (group_cache(sim, c, g, next))
			return;
		client_step(sim, t, next);
		return;
	case C_WAIT:
		/* the group's last operation may wait on its own */
		if (op->kind == NB_FLUSH && run->fsync_ns > 0) {
			c->pc = C_DISK;
			client_step(sim, t, next);
			return;
		}
		c->pc = C_PARSE;
		c->next = c->group_end;
		c->group++;
		if (read_misses(run, t, op, next))
			return;
		client_step(sim, t, next);	/* nothing to wait for: parse the next */
		return;
	case C_DISK:
		c->pc = C_DISK_DONE;
		*next = sl_act_mutex(SL_ACT_LOCK, run->disk);
		return;
	case C_DISK_DONE: {
		sl_time wait = (sl_time)sl_rng_exp(&t->rng, run->fsync_ns) + 1;
		run->fsyncs++;
		run->fsync_wait += wait;
		c->pc = C_UNLOCK;
		*next = sl_act_io_wait(wait);
		return;
	}
	case C_UNLOCK:
		c->pc = C_PARSE;
		c->next = c->group_end;
		c->group++;
		*next = sl_act_mutex(SL_ACT_UNLOCK, run->disk);
		return;
	default:
		*next = sl_act_exit();
		return;
	}
}

static const struct sl_prog db_client_prog = { .name = "dbench-client", .step = client_step };

/* The parent: fork the clients, release them, reap them. */
static void parent_step(struct sl_sim *sim, struct sl_task *t, struct sl_action *next)
{
	struct db_run *run = t->prog_state;

	if (run->forked < run->clients) {
		struct db_client *c = &run->client[run->forked++];
		*next = sl_act_fork(&db_client_prog, c, "dbench", false);
		return;
	}
	if (run->forked == run->clients) {
		run->forked++;
		*next = sl_act_barrier(run->start);
		return;
	}
	if (run->forked == run->clients + 1) {
		run->forked++;
		mark_start(sim, run);
		*next = sl_act_wait();
		return;
	}
	*next = t->result < 0 ? sl_act_exit() : sl_act_wait();
}

static const struct sl_prog db_parent_prog = { .name = "dbench", .step = parent_step };

static const struct sl_param_def db_params[] = {
	{ "clients", SL_PARAM_INT, "10", 1, 100000, NULL,
	  "client processes, each replaying the load in its own directory" },
	{ "ops", SL_PARAM_INT, "62477", 1, 10000000, NULL,
	  "operations per client: client_oplocks.txt's 62477, or a shorter load with its mix" },
	{ "user_us", SL_PARAM_REAL, "2", 0, 1e6, NULL,
	  "user work per operation (parsing the load line), us" },
	{ "copy_us", SL_PARAM_REAL, "1", 0, 1e6, NULL,
	  "kernel work per KB copied between page cache and buffer (ReadX, WriteX), us" },
	{ "jitter", SL_PARAM_REAL, "0.2", 0, 2, NULL,
	  "log-sd of each piece of work around its mean (run seed; 0: none)" },
	{ "fsync_ms", SL_PARAM_REAL, "0", 0, 1e6, NULL,
	  "mean disk wait of a Flush (fsync), one at a time; 0 = dbench 2.0 (Flush does nothing)" },
	{ "pagecache", SL_PARAM_INT, "1", 0, 1, NULL,
	  "1: the machine's page cache and disk (reads miss, writes dirty and throttle); 0: unlimited memory" },
	{ "kept_mb", SL_PARAM_REAL, "20.72", 0, 1e6, NULL,
	  "a client's kept files, written first (the load's opening), MB of 10^6 bytes" },
	{ "file_kb", SL_PARAM_REAL, "363.5", 4, 1e9, NULL,
	  "a kept file's mean size, KB: writeback is positioned once per file" },
	{ "hot_mb", SL_PARAM_REAL, "2.05", 0, 1e6, NULL,
	  "of a client's kept pages, those rewritten after the opening, MB" },
	{ "temp_mb", SL_PARAM_REAL, "1.63", 0, 1e6, NULL,
	  "a client's temporary files alive on average (deleted dirty), MB" },
	{ "read_mb", SL_PARAM_REAL, "7.59", 0.001, 1e6, NULL,
	  "a client's pages read (its read set), MB" },
	{ "dirty_bg", SL_PARAM_REAL, NULL, 1, 100, NULL,
	  "% dirty that starts writeback; at or above dirty_limit, half of it (default: the kernel's: "
	  "2.4 bdflush 30, 2.5/2.6 dirty_background_ratio 10, 6.12 10)" },
	{ "dirty_limit", SL_PARAM_REAL, NULL, 1, 100, NULL,
	  "% dirty above which writers wait (default: the kernel's: 2.4 nfract_sync 60, "
	  "2.5/2.6 vm_dirty_ratio 40, 6.12 20)" },
	{ NULL, 0, NULL, 0, 0, NULL, NULL },
};

static bool large_write(const struct nb_op *op)
{
	return op->kind == NB_WRITEX && op->bytes == NB_LARGE_IO;
}

/* A load of `nops` operations shrinks the data (and the machine's memory)
 * by nops / DB_TRACE_OPS (cache_setup). */
static double db_scale(int nops)
{
	return nops < DB_TRACE_OPS ? (double)nops / DB_TRACE_OPS : 1.0;
}

/* The WriteX of NB_LARGE_IO bytes that write kept_mb, at a load's scale. */
static long db_kept_writes(double kept_mb, int nops)
{
	return lround(kept_mb * 1e6 * db_scale(nops) / NB_LARGE_IO);
}

/* The load's opening: its first `n` 65,471-byte WriteX (kept files are
 * written in such chunks) moved to the front, everything else in order.
 * In place, from the back: a load may have 10^7 operations. */
static void move_opening_first(struct nb_op *ops, int nops, int n)
{
	int seen = 0, last = -1, w = nops;

	for (int i = 0; i < nops && seen < n; i++)
		if (large_write(&ops[i]) && ++seen == n)
			last = i;
	for (int i = nops - 1; i >= 0; i--)
		if (i > last || !large_write(&ops[i]))
			ops[--w] = ops[i];
	for (int i = 0; i < w; i++)
		ops[i] = (struct nb_op){ .kind = NB_WRITEX, .bytes = NB_LARGE_IO };
}

/* The page cache's side of the load, scaled with it: a load of `ops` <
 * DB_TRACE_OPS operations is a miniature of the whole, its data and the
 * machine's memory both shrunk by ops / DB_TRACE_OPS, so that what fits,
 * what waits and every time in the run shrink alike (docs/workloads.md,
 * dbench); a longer load keeps the full sizes. */
static void cache_setup(struct sl_sim *sim, struct db_run *run, const struct sl_params *p)
{
	double scale = db_scale(run->nops);
	const struct sl_writeback *wb = sl_writeback(sim);
	double bg = sl_param_real_or(p, "dirty_bg", wb->bg_pct);
	double limit = sl_param_real_or(p, "dirty_limit", wb->limit_pct);
	int large = 0, unlinks = 0;
	double steady_written = 0;

	run->pc = sl_sim_pagecache(sim);
	run->dev = sl_sim_disk(sim);
	sl_pagecache_scale(run->pc, scale);
	sl_pagecache_set_extent(run->pc, sl_param_real(p, "file_kb") * 1e3);
	sl_pagecache_set_ratios(run->pc, bg, wb->stop_pct, limit);
	for (int i = 0; i < run->nops; i++) {
		large += large_write(&run->ops[i]);
		unlinks += run->ops[i].kind == NB_UNLINK;
	}
	long open = db_kept_writes(sl_param_real(p, "kept_mb"), run->nops);
	run->n_open = open < large ? (int)open : large;	/* (db_check refuses more) */
	move_opening_first(run->ops, run->nops, run->n_open);
	for (int i = run->n_open; i < run->nops; i++)
		if (run->ops[i].kind == NB_WRITEX)
			steady_written += run->ops[i].bytes;
	run->hot = sl_param_real(p, "hot_mb") * 1e6 * scale;
	run->read_set = run->clients * sl_param_real(p, "read_mb") * 1e6 * scale;
	run->reads_may_miss = sl_pagecache_hit_ratio(run->pc, run->read_set) < 1.0;
	/* an Unlink deletes what the writes between two Unlinks add, on
	 * average, so the client's temporary data stays at temp_mb */
	double temp_mean = sl_param_real(p, "temp_mb") * 1e6 * scale;
	double per_unlink = unlinks ? steady_written * (1 - DB_HOT_SHARE) * DB_TEMP_NEW / unlinks : 0;
	run->unlink_share = temp_mean <= 0 || per_unlink >= temp_mean ? 1.0 : per_unlink / temp_mean;
}

static void *db_start(struct sl_sim *sim, const struct sl_params *p, sl_time *limit_out)
{
	struct db_run *run = sl_sim_alloc(sim, sizeof(*run));

	run->clients = (int)sl_param_int(p, "clients");
	run->nops = (int)sl_param_int(p, "ops");
	run->ops = sl_sim_alloc(sim, sizeof(*run->ops) * (size_t)run->nops);
	nb_load_build(run->ops, run->nops, DB_TRACE_SEED);
	run->user_ns = sl_param_real(p, "user_us") * 1e3;
	run->jitter = sl_param_real(p, "jitter");
	run->jitter_cv2 = expm1(run->jitter * run->jitter);
	run->copy_ns_per_byte = sl_param_real(p, "copy_us") * 1e3 / 1024;
	run->fsync_ns = sl_param_real(p, "fsync_ms") * 1e6;
	run->client = sl_sim_alloc(sim, sizeof(*run->client) * (size_t)run->clients);
	for (int i = 0; i < run->clients; i++)
		run->client[i].run = run;
	run->start = sl_barrier_new(sim, run->clients + 1);
	run->disk = sl_mutex_new(sim);
	run->live = run->clients;
	if (sl_param_int(p, "pagecache"))
		cache_setup(sim, run, p);
	groups_build(sim, run);
	sl_sim_spawn_root(sim, &db_parent_prog, run, "dbench");
	*limit_out = 0;
	return run;
}

static void db_report(struct sl_sim *sim, void *state, const struct sl_params *p,
		      struct sl_metrics *out)
{
	const struct db_run *run = state;
	double window = sl_ns_to_s(run->t_end - run->t_start);

	(void)sim;
	(void)p;
	sl_metrics_add(out, "throughput", "MB/s", window > 0 ? run->bytes / 1e6 / window : 0, +1);
	sl_metrics_add(out, "bytes", "MB", run->bytes / 1e6, 0);
	sl_metrics_add(out, "timed_s", "s", window, -1);
	sl_metrics_add(out, "fsyncs", "count", (double)run->fsyncs, 0);
	sl_metrics_add(out, "fsync_wait_s", "s", sl_ns_to_s(run->fsync_wait), 0);
	if (run->pc) {
		struct sl_pagecache_stats pst;
		struct sl_blockdev_stats bst;
		sl_pagecache_stats(run->pc, &pst);
		sl_blockdev_stats(run->dev, &bst);
		sl_metrics_add(out, "read_misses", "count", (double)run->read_misses, 0);
		sl_metrics_add(out, "dirtied_mb", "MB", run->dirtied / 1e6, 0);
		sl_metrics_add(out, "temporary_mb", "MB", run->temporary / 1e6, 0);
		sl_metrics_add(out, "discarded_mb", "MB", pst.discarded / 1e6, 0);
		sl_metrics_add(out, "writeback_mb", "MB", pst.written_back / 1e6, 0);
		sl_metrics_add(out, "throttled", "count", (double)pst.throttled, 0);
		sl_metrics_add(out, "throttle_s", "s", sl_ns_to_s(pst.throttle_ns), 0);
		sl_metrics_add(out, "disk_busy_s", "s", sl_ns_to_s(bst.busy_ns), 0);
	}
}

/* the driver and its clients; the load's operations and groups (at most
 * one per DB_GROUP_MAX operations and one per operation that may wait, a
 * ReadX or a Flush, plus the last), the clients' states, and a disk
 * request per client at most */
static void db_mem(const struct sl_params *p, const struct sl_topo *topo,
		   struct sl_mem_need *need)
{
	uint64_t clients = (uint64_t)sl_param_int(p, "clients");
	uint64_t ops = (uint64_t)sl_param_int(p, "ops");
	uint64_t b = sl_sim_alloc_cost(sizeof(struct db_run));
	int count[NB_NKINDS];

	(void)topo;
	nb_load_counts((int)ops, count);
	uint64_t groups = ops / DB_GROUP_MAX + (uint64_t)count[NB_READX] + (uint64_t)count[NB_FLUSH] + 1;
	uint64_t cache_ops = (uint64_t)count[NB_WRITEX] + (uint64_t)count[NB_UNLINK];
	b = sl_sat_add(b, sl_sim_alloc_cost(sl_sat_mul(ops, sizeof(((struct db_run *)0)->ops[0]))));
	b = sl_sat_add(b, sl_sim_alloc_cost(sl_sat_mul(groups, sizeof(struct db_group))));
	b = sl_sat_add(b, sl_sim_alloc_cost(sl_sat_mul(cache_ops, sizeof(int))));
	b = sl_sat_add(b, sl_sim_alloc_cost(sl_sat_mul(clients, sizeof(struct db_client))));
	b = sl_sat_add(b, sl_sim_allocs_cost(clients, 64));
	b = sl_sat_add(b, sl_sat_add(sl_sim_barriers_cost(1), sl_sim_mutexes_cost(1)));
	need->tasks = sl_sat_add(need->tasks, clients);
	need->bytes = sl_sat_add(need->bytes, b);
}

/* Without the page cache (unlimited memory) its parameters would do
 * nothing: refused. */
static int db_check_no_cache(const struct sl_params *p, struct sl_err *err)
{
	static const char *const cache[] = { "kept_mb", "file_kb", "hot_mb", "temp_mb",
					     "read_mb", "dirty_bg", "dirty_limit", NULL };

	for (int i = 0; cache[i]; i++)
		if (sl_param_user_gave(p, cache[i]))
			return sl_fail(err, "workload 'dbench': %s: the page cache is off "
				       "(pagecache=0)", cache[i]);
	return 0;
}

/* With the page cache: kept files the load can write (its first large
 * writes), and reads that miss within the horizon. */
static int db_check_cache(const struct sl_params *p, const struct sl_machine *m, double clients,
			  double ops, struct sl_err *err)
{
	int count[NB_NKINDS];
	char what[160];

	nb_load_counts((int)ops, count);
	int large = nb_large_writes(count[NB_WRITEX]);
	double kept_mb = sl_param_real(p, "kept_mb");
	if (db_kept_writes(kept_mb, (int)ops) > large)
		return sl_fail(err, "workload 'dbench': kept_mb=%g is more than the load writes: at "
			       "most %.2f with ops=%.0f (its %d writes of %d bytes)", kept_mb,
			       large * (double)NB_LARGE_IO / db_scale((int)ops) / 1e6, ops, large,
			       NB_LARGE_IO);
	/* the read set and the cache shrink alike with a short load; nb_load_build's
	 * counts round the reads down or up */
	double reads = floor(nb_op_want(ops, NB_READX));
	double files = clients * sl_param_real(p, "read_mb") * 1e6;
	double cache = sl_pagecache_most(m);
	double miss = files > cache ? 1 - cache / files : 0;
	double s = 0.5 * clients * reads * miss * (double)(m->disk.seek_ns + m->disk.rot_ns) / SL_SEC;
	snprintf(what, sizeof(what), "%.0f clients' reads of %.0f MB of files through a %.0f MB "
		 "page cache, one disk request each", clients, files / 1e6, cache / 1e6);
	return sl_workload_fits_horizon("dbench", s, what, err);
}

/*
 * The disk serves one request at a time.  Of each client's ReadX, those
 * missing the cache each wait for a positioned request (cache_action),
 * and its Flushes with fsync_ms wait one at a time: sums of many random
 * draws, so half their expected total is a lower bound that no run falls
 * below (refused only when that half is already past the horizon: 10^8
 * and more draws, far from their mean by a fraction of a percent).  The
 * cache holds at most the machine's memory less the kernel's.  The
 * clients' CPU work (user_us per operation, copy_us per KB of payload)
 * is bounded by its mean less four standard deviations of its draws,
 * spread over every CPU.
 */
static int db_check(const struct sl_params *p, const struct sl_machine *m,
		    const struct sl_policy_ops *policy, struct sl_err *err)
{
	double clients = (double)sl_param_int(p, "clients"), ops = (double)sl_param_int(p, "ops");
	/* nb_load_build's counts round these down or up */
	double flushes = floor(nb_op_want(ops, NB_FLUSH));
	char what[160];

	(void)policy;
	if (sl_param_int(p, "pagecache") ? db_check_cache(p, m, clients, ops, err)
					 : db_check_no_cache(p, err))
		return -1;
	/* the clients' CPU work: every operation's parse, every payload byte's
	 * copy; no CPU runs faster than the reference */
	double bytes = nb_load_payload_mean(ops);
	double user_us = sl_param_real(p, "user_us"), copy_us = sl_param_real(p, "copy_us");
	double largest = fmax(user_us, NB_LARGE_IO / 1024.0 * copy_us) * 1e-6;
	double cpu = sl_workload_sum_floor(clients * (ops * user_us + bytes / 1024 * copy_us) * 1e-6,
					   largest, sl_param_real(p, "jitter")) / m->topo.ncpus;
	snprintf(what, sizeof(what), "%.0f clients' %.0f operations of user_us=%g and %.0f MB "
		 "copied at copy_us=%g per KB on %d CPU%s", clients, ops, user_us, bytes / 1e6,
		 copy_us, m->topo.ncpus, m->topo.ncpus > 1 ? "s" : "");
	if (sl_workload_fits_horizon("dbench", cpu, what, err))
		return -1;
	double fsync = 0.5 * clients * flushes * sl_param_real(p, "fsync_ms") / 1e3;
	snprintf(what, sizeof(what), "%.0f clients' %.0f fsyncs of fsync_ms=%g, one at a time",
		 clients, flushes, sl_param_real(p, "fsync_ms"));
	return sl_workload_fits_horizon("dbench", fsync, what, err);
}

const struct sl_workload_ops sl_workload_dbench = {
	.name = "dbench",
	.summary = "dbench 2.x: N clients replay the netbench file-system load (page cache, fsync waits)",
	.metric = "throughput",
	.params = db_params,
	.start = db_start,
	.report = db_report,
	.mem = db_mem,
	.check = db_check,
};
