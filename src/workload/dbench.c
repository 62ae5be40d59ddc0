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
 * Memory (pagecache=1): the machine's page cache and disk (sim/blockdev.h).
 * Each client owns a file set of `files_mb` (client_oplocks.txt, replayed
 * op by op with per-file sizes: each client writes 21.1 MB of filler files
 * in its first ~1000 lines and keeps them, and its working files add up to
 * 3 MB more; peak 24.0 MB).  A ReadX finds its pages in memory with the
 * cache's hit ratio for all clients' files (1 while they fit), else waits
 * for the disk (one request with positioning).  A WriteX dirties the share
 * of its bytes that were clean - a write lands anywhere in the client's
 * files, so the chance a page is already dirty is the dirty share of all
 * files - and passes balance_dirty_pages: above the dirty limit it waits
 * for writeback.  A shortened load (`ops` < 62477, as the experiments use)
 * starts, by assumption, where the full load stands after its opening phase: every
 * client's files written moments before and still dirty, up to the dirty
 * limit (the writers were held there by throttling).  So: clients x
 * files_mb below the dirty limit (40 % of memory) - nothing waits; above it
 * - writers wait for the disk; above the cache - reads miss too.
 * Thresholds `dirty_bg`, `dirty_limit`: 2.5/2.6's 10 % and 40 % (see
 * sim/pagecache.c for 2.4's bdflush numbers, which take lowmem only).
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
 * is the lower end of a 2002 disk's range (a dbench file's dirty data is small); files_mb is
 * counted from client_oplocks.txt (dbench 2.0, Feb 2002).
 *
 * Omitted / simplified:
 *   - the load is a mix with the trace's proportions, not the trace itself:
 *     no per-file state, offsets or directory tree; a shorter load (`ops`)
 *     keeps the mix (the experiments use one to keep runs short);
 *   - the page cache is a mean field, not per-file: no per-page LRU, no
 *     discard of dirty data by Unlink (the trace deletes only its 3 MB of
 *     working files), no periodic writeback of expired dirty data (the
 *     runs last seconds), no anonymous memory of the clients (small);
 *   - one set of thresholds for every kernel (2.4.19's bdflush is not
 *     told apart, sim/pagecache.c);
 *   - no VFS locks (dcache_lock, the BKL of 2.4's VFS) and no journal
 *     beyond the fsyncs' one-at-a-time disk;
 *   - the parent's once-a-second progress line is not printed;
 *   - run-to-run variation: every piece of work is drawn lognormal around
 *     its mean (log-sd `jitter`, mean kept) from the client's own stream,
 *     an assumption standing for cache and interrupt noise.
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

/* How many of n operations the mix gives kind k, before rounding (the
 * published percentages add up to 100.1: normalised). */
static double nb_op_want(double n, int k)
{
	double total = 0;

	for (int i = 0; i < NB_NKINDS; i++)
		total += nb_op_pct[i];
	return n * nb_op_pct[k] / total;
}

void nb_load_build(struct nb_op *ops, int n, uint64_t trace_seed)
{
	int count[NB_NKINDS], placed = 0;
	double rem[NB_NKINDS];
	struct sl_rng r;

	/* exact counts by largest remainders, so any n keeps the mix */
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
	int i = 0;
	for (int k = 0; k < NB_NKINDS; k++)
		for (int c = 0; c < count[k]; c++)
			ops[i++] = (struct nb_op){ .kind = (uint8_t)k, .bytes = 0 };
	/* sizes: exact numbers of large transfers, then one shuffle */
	int reads = count[NB_READX], writes = count[NB_WRITEX];
	int big_r = (int)lround(reads * large_share(NB_READ_MEAN));
	int big_w = (int)lround(writes * large_share(NB_WRITE_MEAN));
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

/* Kernel work per operation besides copies, us (estimates; see header). */
static const double db_op_us[NB_NKINDS] = {
	[NB_READX] = 3, [NB_NTCREATEX] = 15, [NB_CLOSE] = 4, [NB_WRITEX] = 5,
	[NB_QPATHINFO] = 6, [NB_FINDFIRST] = 25, [NB_UNLINK] = 20, [NB_QFILEINFO] = 2,
	[NB_QFSINFO] = 0, [NB_FLUSH] = 2, [NB_RENAME] = 20,
};

struct db_run;

struct db_client {
	struct db_run *run;
	int next;		/* next operation */
	unsigned char pc;
};

struct db_run {
	int clients, nops;
	struct nb_op *ops;
	double jitter;		/* log-sd of each piece of work */
	double user_ns, copy_ns_per_byte, fsync_ns;
	struct db_client *client;
	struct sl_barrier *start;
	struct sl_mutex *disk;
	struct sl_pagecache *pc;	/* NULL: pagecache=0, unlimited memory */
	struct sl_blockdev *dev;
	double files;		/* all clients' file sets, bytes */
	int forked, live;
	bool started;		/* the release has been seen */
	sl_time t_start, t_end;
	double bytes;
	long fsyncs;
	sl_time fsync_wait;	/* summed disk waits of fsync */
	long read_misses;	/* ReadX that went to the disk */
	double dirtied;		/* bytes WriteX newly dirtied */
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
enum { C_START, C_PARSE, C_CALL, C_CACHE, C_DISK, C_DISK_DONE, C_UNLOCK, C_EXIT };

/* After the call's CPU work: the page cache's side of a ReadX or WriteX.
 * A read finds its pages in memory with the cache's hit ratio for all the
 * clients' files, else it waits for the disk (one request, positioning
 * included); a write dirties the share of its bytes that were clean (a
 * write lands anywhere in the client's files: the chance a page is already
 * dirty is the dirty share of all files) and passes balance_dirty_pages.
 * Returns false when the operation needs nothing more. */
static bool cache_action(struct db_run *run, struct sl_task *t, const struct nb_op *op,
			 struct sl_action *next)
{
	if (!run->pc)
		return false;
	if (op->kind == NB_READX) {
		double hit = sl_pagecache_hit_ratio(run->pc, run->files);
		if (hit >= 1.0 || sl_rng_uniform(&t->rng) < hit)
			return false;
		run->read_misses++;
		*next = sl_act_disk_io(run->dev, op->bytes, true);
		return true;
	}
	if (op->kind == NB_WRITEX) {
		double clean = 1.0 - sl_pagecache_dirty(run->pc) / run->files;
		if (clean <= 0)
			return false;
		run->dirtied += op->bytes * clean;
		*next = sl_act_dirty(run->pc, op->bytes * clean);
		return true;
	}
	return false;
}

static void client_step(struct sl_sim *sim, struct sl_task *t, struct sl_action *next)
{
	struct db_client *c = t->prog_state;
	struct db_run *run = c->run;
	const struct nb_op *op = &run->ops[c->next < run->nops ? c->next : 0];

	t->footprint_kb = DB_FOOTPRINT_KB;
	switch (c->pc) {
	case C_START:
		c->pc = C_PARSE;
		*next = sl_act_barrier(run->start);
		return;
	case C_PARSE:
		mark_start(sim, run);
		if (c->next == run->nops) {
			c->pc = C_EXIT;
			if (--run->live == 0)
				run->t_end = sl_now(sim);
			*next = sl_act_exit();
			return;
		}
		c->pc = C_CALL;
		*next = sl_act_run(sl_rng_vary(&t->rng, run->user_ns, run->jitter), SL_WC_INT);
		return;
	case C_CALL:
		c->pc = op->kind == NB_FLUSH && run->fsync_ns > 0 ? C_DISK : C_CACHE;
		run->bytes += op->bytes;
		*next = sl_act_sys_as(sl_rng_vary(&t->rng, db_op_us[op->kind] * 1e3 +
							  op->bytes * run->copy_ns_per_byte, run->jitter),
				      SL_WC_MEM);
		return;
	case C_CACHE:
		c->pc = C_PARSE;
		c->next++;
		if (cache_action(run, t, op, next))
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
		c->next++;
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
		*next = (struct sl_action){ .kind = SL_ACT_FORK,
					    .u.fork = { .prog = &db_client_prog, .state = c,
							.comm = "dbench" } };
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
	{ "files_mb", SL_PARAM_REAL, "24", 0.001, 1e6, NULL,
	  "each client's file set, MB (client_oplocks.txt: 21 MB of filler files kept, 3 MB more at peak)" },
	{ "dirty_bg", SL_PARAM_REAL, "10", 1, 100, NULL,
	  "% of memory dirty that starts writeback (2.5/2.6 dirty_background_ratio; 2.4 bdflush: 30)" },
	{ "dirty_limit", SL_PARAM_REAL, "40", 1, 100, NULL,
	  "% of memory dirty above which writers wait (2.5/2.6 dirty_ratio; 2.4 bdflush nfract_sync: 60)" },
	{ NULL, 0, NULL, 0, 0, NULL, NULL },
};

static void *db_start(struct sl_sim *sim, const struct sl_params *p, sl_time *limit_out)
{
	struct db_run *run = sl_sim_alloc(sim, sizeof(*run));

	run->clients = (int)sl_param_int(p, "clients");
	run->nops = (int)sl_param_int(p, "ops");
	run->ops = sl_sim_alloc(sim, sizeof(*run->ops) * (size_t)run->nops);
	nb_load_build(run->ops, run->nops, DB_TRACE_SEED);
	run->user_ns = sl_param_real(p, "user_us") * 1e3;
	run->jitter = sl_param_real(p, "jitter");
	run->copy_ns_per_byte = sl_param_real(p, "copy_us") * 1e3 / 1024;
	run->fsync_ns = sl_param_real(p, "fsync_ms") * 1e6;
	run->client = sl_sim_alloc(sim, sizeof(*run->client) * (size_t)run->clients);
	for (int i = 0; i < run->clients; i++)
		run->client[i].run = run;
	run->start = sl_barrier_new(sim, run->clients + 1);
	run->disk = sl_mutex_new(sim);
	run->live = run->clients;
	run->files = run->clients * sl_param_real(p, "files_mb") * 1024 * 1024;
	if (sl_param_int(p, "pagecache")) {
		double bg = sl_param_real(p, "dirty_bg"), limit = sl_param_real(p, "dirty_limit");
		run->pc = sl_sim_pagecache(sim);
		run->dev = sl_sim_disk(sim);
		sl_pagecache_set_ratios(run->pc, bg < limit ? bg : limit, bg < limit ? bg : limit,
					limit);
		/* the state after the load's opening phase (see the header):
		 * the files written moments ago, dirty up to the limit */
		double limit_bytes = sl_pagecache_limit(run->pc);
		sl_pagecache_set_dirty(sim, run->pc, run->files < limit_bytes ? run->files
									      : limit_bytes);
	}
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
		sl_metrics_add(out, "writeback_mb", "MB", pst.written_back / 1e6, 0);
		sl_metrics_add(out, "throttled", "count", (double)pst.throttled, 0);
		sl_metrics_add(out, "throttle_s", "s", sl_ns_to_s(pst.throttle_ns), 0);
		sl_metrics_add(out, "disk_busy_s", "s", sl_ns_to_s(bst.busy_ns), 0);
	}
}

/* the driver and its clients; the load's operations, the clients' states,
 * and a disk request per client at most */
static void db_mem(const struct sl_params *p, const struct sl_topo *topo,
		   struct sl_mem_need *need)
{
	uint64_t clients = (uint64_t)sl_param_int(p, "clients");
	uint64_t ops = (uint64_t)sl_param_int(p, "ops");
	uint64_t b = sl_sim_alloc_cost(sizeof(struct db_run));

	(void)topo;
	b = sl_sat_add(b, sl_sim_alloc_cost(sl_sat_mul(ops, sizeof(((struct db_run *)0)->ops[0]))));
	b = sl_sat_add(b, sl_sim_alloc_cost(sl_sat_mul(clients, sizeof(struct db_client))));
	b = sl_sat_add(b, sl_sim_allocs_cost(clients, 64));
	b = sl_sat_add(b, sl_sat_add(sl_sim_barriers_cost(1), sl_sim_mutexes_cost(1)));
	need->tasks = sl_sat_add(need->tasks, clients);
	need->bytes = sl_sat_add(need->bytes, b);
}

/*
 * The disk serves one request at a time.  Of each client's ReadX, those
 * missing the cache each wait for a positioned request (cache_action),
 * and its Flushes with fsync_ms wait one at a time: sums of many random
 * draws, so half their expected total is a lower bound that no run falls
 * below (refused only when that half is already past the horizon: 10^8
 * and more draws, far from their mean by a fraction of a percent).  The
 * cache holds at most the machine's memory less the kernel's.
 */
static int db_check(const struct sl_params *p, const struct sl_machine *m,
		    const struct sl_policy_ops *policy, struct sl_err *err)
{
	double clients = (double)sl_param_int(p, "clients"), ops = (double)sl_param_int(p, "ops");
	/* nb_load_build's counts round these down or up */
	double reads = floor(nb_op_want(ops, NB_READX));
	double flushes = floor(nb_op_want(ops, NB_FLUSH));
	char what[160];

	(void)policy;
	if (sl_param_int(p, "pagecache")) {
		double files = clients * sl_param_real(p, "files_mb") * 1024 * 1024;
		double cache = sl_pagecache_most(m);
		double miss = files > cache ? 1 - cache / files : 0;
		double s = 0.5 * clients * reads * miss * (double)(m->disk.seek_ns + m->disk.rot_ns) /
			   SL_SEC;
		snprintf(what, sizeof(what), "%.0f clients' reads of %.0f MB of files through a "
			 "%.0f MB page cache, one disk request each", clients, files / 1048576,
			 cache / 1048576);
		if (sl_workload_fits_horizon("dbench", s, what, err))
			return -1;
	}
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
