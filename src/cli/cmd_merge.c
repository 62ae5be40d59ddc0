/*
 * cmd_merge.c - `schedlab merge OUT.json SHARD.json...`: the slices that
 * `run` or `reproduce` --shard K/N wrote, joined into the -o json result
 * of the unsharded command, byte for byte (report/shard.h).
 *
 * Every shard is read and checked before anything runs: the same command
 * line, N and number of points in all, and every run point present
 * exactly once.  Then the command is run again in merge mode - its runs
 * come from the shards - with its output going to OUT, which appears only
 * when complete (base/outfile.h) and never replaces an existing file.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base/outfile.h"
#include "cli/cli.h"
#include "report/shard.h"

static bool same_command(const struct sl_shard_file *a, const struct sl_shard_file *b)
{
	if (a->argc != b->argc)
		return false;
	for (int i = 0; i < a->argc; i++)
		if (strcmp(a->argv[i], b->argv[i]))
			return false;
	return true;
}

/* Every point of the shards, by number, or -1 with err (bad input). */
static int join(const struct sl_shard_file *files, int n, struct sl_shard_point *points,
		struct sl_err *err)
{
	long total = files[0].points;
	int *owner = sl_xmalloc(sizeof(*owner) * ((unsigned long)total + 1));
	int rc = -1;

	for (long i = 0; i < total; i++)
		owner[i] = -1;
	for (int fi = 0; fi < n; fi++) {
		const struct sl_shard_file *f = &files[fi];
		for (long r = 0; r < f->nresults; r++) {
			long i = f->index[r];
			if (owner[i] >= 0) {
				sl_fail(err, "merge: point %ld is in both %s and %s", i,
					files[owner[i]].path, f->path);
				goto out;
			}
			owner[i] = fi;
			points[i] = f->results[r];
		}
	}
	for (long i = 0; i < total; i++)
		if (owner[i] < 0) {
			sl_fail(err, "merge: point %ld is missing (expected shard %ld/%d among the "
				"files)", i, i % files[0].n, files[0].n);
			goto out;
		}
	rc = 0;
out:
	free(owner);
	return rc;
}

/* Read and check every shard. */
static int read_all(struct sl_shard_file *files, int n, char **paths,
		    struct sl_shard_point **points, struct sl_err *err)
{
	for (int i = 0; i < n; i++) {
		if (sl_shard_read(&files[i], paths[i], err))
			return -1;
		if (i && !same_command(&files[0], &files[i]))
			return sl_fail(err, "merge: %s and %s are shards of different commands "
				       "(expected one command line in all)", files[0].path,
				       files[i].path);
		if (i && (files[i].n != files[0].n || files[i].points != files[0].points))
			return sl_fail(err, "merge: %s is shard %d/%d of %ld points but %s is %d/%d "
				       "of %ld", files[i].path, files[i].k, files[i].n,
				       files[i].points, files[0].path, files[0].k, files[0].n,
				       files[0].points);
	}
	*points = sl_xcalloc((unsigned long)files[0].points + 1, sizeof(**points));
	return join(files, n, *points, err);
}

/* The command again, its runs from the shards, its stdout to `out`. */
static int rerun(const struct sl_shard_file *f, const struct sl_shard_point *points,
		 struct sl_outfile *out)
{
	int rc;

	fflush(stdout);
	if (out->f != stdout && dup2(fileno(out->f), STDOUT_FILENO) < 0) {
		fprintf(stderr, "schedlab: merge: %s: %s\n", out->path, strerror(errno));
		return EXIT_INTERNAL;
	}
	sl_shard_merge_points(points, f->points);
	rc = !strcmp(f->argv[0], "run") ? cmd_run(f->argc, f->argv) :
					  cmd_reproduce(f->argc, f->argv);
	if (!rc && sl_shard_points_seen() != f->points)
		rc = cli_bad_input("merge: the command ran %ld points but the shards have %ld "
				   "(shards of another schedlab?)", sl_shard_points_seen(),
				   f->points);
	sl_shard_reset();
	return rc;
}

int cmd_merge(int argc, char **argv)
{
	struct sl_shard_file *files = NULL;
	struct sl_shard_point *points = NULL;
	struct sl_outfile out = { 0 };
	struct sl_err err = { 0 };
	struct stat st;
	int n = argc - 2, rc;

	if (argc == 2 && cli_is_help(argv[1])) {
		fputs(cli_usage("merge"), stdout);
		return cli_finish_output();
	}
	for (int i = 1; i < argc; i++)
		if (argv[i][0] == '-' && argv[i][1])
			return cli_bad_input("merge: unknown option '%s' (expected OUT.json "
					     "SHARD.json...)", argv[i]);
	if (argc < 3)
		return cli_bad_input("merge: expected OUT.json and at least one shard file");
	if (strcmp(argv[1], "-") && lstat(argv[1], &st) == 0)
		return cli_bad_input("merge: '%s' exists (expected a new file for the merged "
				     "result; remove it first)", argv[1]);
	files = sl_xcalloc((unsigned long)n, sizeof(*files));
	if (read_all(files, n, argv + 2, &points, &err) ||
	    sl_outfile_open(&out, argv[1], "merge: OUT", &err)) {
		rc = cli_report(&err);
		goto done;
	}
	rc = rerun(&files[0], points, &out);
	if (rc) {
		sl_outfile_abort(&out);
		goto done;
	}
	if (fflush(stdout) || ferror(stdout)) {
		fputs("schedlab: merge: error writing the result\n", stderr);
		sl_outfile_abort(&out);
		rc = EXIT_INTERNAL;
		goto done;
	}
	if (sl_outfile_commit(&out, "merge: OUT", &err))
		rc = cli_report(&err);
done:
	free(points);	/* its entries belong to the files */
	for (int i = 0; i < n; i++)
		sl_shard_file_free(&files[i]);
	free(files);
	return rc;
}
