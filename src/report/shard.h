/*
 * shard.h - `--shard K/N` and `schedlab merge`: a command's runs cut into
 * N deterministic slices, run anywhere, and joined again.
 *
 * The unit is the run point: one repetition of one sweep cell (machine x
 * policy x workload x seed), numbered 0, 1, ... in the order the command
 * runs its sweeps and, within a sweep, cell by cell and repetition by
 * repetition (sweep.h's job order).  Slice K of N takes the points whose
 * number is K modulo N (round robin, so that the slow cells of one row
 * spread over the slices).  The numbering depends only on the command line,
 * never on threads or timing.
 *
 * This process's shard mode, set by the CLI before anything runs:
 *   slice: sl_sweep_run runs only the slice's points and keeps their
 *          metrics; the command then writes them (sl_shard_write) instead
 *          of its results;
 *   merge: sl_sweep_run runs nothing: every point's metrics come from the
 *          shard files read by `merge`, which runs the command again
 *          (sl_shard_merge_points), so the result is printed by the very
 *          code that prints an unsharded run - byte for byte the same.
 *
 * The shard file (JSON, one object):
 *   { "schedlab_shard": 1, "command": ["run", "-m", "...", ...],
 *     "shard": K, "shards": N, "points": TOTAL,
 *     "results": [ { "point": 3, "machine": "p4dpe-2x2ht", "policy": "o1",
 *                    "workload": "kernbench:jobs=2", "seed": 2,
 *                    "metrics": [ [ "elapsed_s", "s", -1, 117.25000000000001 ],
 *                                 ... ] } ] }
 * "command" is the command line less --shard; metric values are written
 * with 17 significant digits (read back to the same double) and a value
 * that is not finite as the string "nan", "inf" or "-inf".
 */
#ifndef SL_REPORT_SHARD_H
#define SL_REPORT_SHARD_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "base/err.h"
#include "workload/workload.h"

struct sl_sweep;

#define SL_SHARD_FORMAT 1
#define SL_SHARD_MAX 1000000

enum sl_shard_mode {
	SL_SHARD_OFF,
	SL_SHARD_SLICE,
	SL_SHARD_MERGE,
};

/* One run point of a shard file. */
struct sl_shard_point {
	char *machine, *policy, *workload;
	uint64_t seed;
	struct sl_metrics *metrics;
};

enum sl_shard_mode sl_shard_mode(void);
/* Slice mode: run the points k, k + n, ... (0 <= k < n). */
void sl_shard_set_slice(int k, int n);
/* Merge mode: point i's results are points[i] (npoints of them; the caller
 * keeps them until sl_shard_reset). */
void sl_shard_merge_points(const struct sl_shard_point *points, long npoints);
/* Run points numbered so far (merge: used, to check they all were). */
long sl_shard_points_seen(void);
void sl_shard_reset(void);

/* sl_sweep_run's hooks.  begin: *skip (NULL when not sharding) marks the
 * jobs not to run; in merge mode their metrics are filled in, after a
 * check that the point is the same run (-1 with err otherwise).  end: in
 * slice mode, keep the metrics of the jobs run. */
int sl_shard_sweep_begin(struct sl_sweep *s, bool **skip, struct sl_err *err);
void sl_shard_sweep_end(const struct sl_sweep *s, bool *skip);

/* Slice mode: the shard file of the points run, for command line
 * argv[0..argc) (without --shard). */
void sl_shard_write(FILE *f, int argc, char *const *argv);

/* A shard file read back (merge): its header and its points, every one
 * checked - a number below "points" and in the file's slice, once, with
 * well-formed metrics. */
struct sl_shard_file {
	char *path;
	char **argv;			/* "command" */
	int argc;
	int k, n;
	long points;
	long nresults;
	long *index;			/* results[i] is point index[i] */
	struct sl_shard_point *results;
};

/* The largest shard file read (a slice of a sweep of 10,000 runs is about
 * 20 MB; json-c's tree of it takes several times its text). */
#define SL_SHARD_MAX_FILE (256 << 20)

/* 0, or -1 with err (bad input) naming the file and what is wrong. */
int sl_shard_read(struct sl_shard_file *f, const char *path, struct sl_err *err);
void sl_shard_file_free(struct sl_shard_file *f);

#endif
