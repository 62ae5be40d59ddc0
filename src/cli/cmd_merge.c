/*
 * cmd_merge.c - `schedlab merge OUT.json SHARD.json...`: the slices that
 * `run` or `reproduce` --shard K/N wrote, joined into the -o json result
 * of the unsharded command, byte for byte (report/shard.h).
 *
 * Every shard is read and checked before anything runs: the same command
 * line and N in all, and every run point present exactly once.  Then the
 * command is run again in merge mode - its runs come from the shards - with
 * its output going to OUT, which appears only when complete
 * (base/outfile.h) and never replaces an existing file.
 */
#include <errno.h>
#include <json.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base/outfile.h"
#include "cli/cli.h"
#include "report/shard.h"

struct shard_file {
	const char *path;
	struct json_object *root;
	struct json_object *command;	/* array of strings */
	int k, n;
	long points;
};

static struct json_object *member(struct json_object *o, const char *key, json_type type)
{
	struct json_object *v;

	if (!json_object_object_get_ex(o, key, &v) || !json_object_is_type(v, type))
		return NULL;
	return v;
}

static int int_member(struct json_object *o, const char *key, long lo, long hi, long *out)
{
	struct json_object *v = member(o, key, json_type_int);

	if (!v)
		return -1;
	int64_t x = json_object_get_int64(v);
	if (x < lo || x > hi)
		return -1;
	*out = (long)x;
	return 0;
}

static int read_header(struct shard_file *f, struct sl_err *err)
{
	struct json_object *fmt;
	long k, n;

	f->root = json_object_from_file(f->path);
	if (!f->root)
		return sl_fail(err, "merge: %s: cannot read it as JSON (%s)", f->path,
			       json_util_get_last_err() ? json_util_get_last_err() : "?");
	fmt = json_object_is_type(f->root, json_type_object) ?
	      member(f->root, "schedlab_shard", json_type_int) : NULL;
	if (!fmt)
		return sl_fail(err, "merge: %s: not a shard (expected the output of run or "
			       "reproduce --shard K/N)", f->path);
	if (json_object_get_int(fmt) != SL_SHARD_FORMAT)
		return sl_fail(err, "merge: %s: shard format %d (expected %d)", f->path,
			       json_object_get_int(fmt), SL_SHARD_FORMAT);
	f->command = member(f->root, "command", json_type_array);
	if (!f->command || !json_object_array_length(f->command))
		return sl_fail(err, "merge: %s: expected \"command\", the command line", f->path);
	for (size_t i = 0; i < json_object_array_length(f->command); i++)
		if (!json_object_is_type(json_object_array_get_idx(f->command, i),
					 json_type_string))
			return sl_fail(err, "merge: %s: command[%zu]: expected a string", f->path, i);
	if (int_member(f->root, "shards", 1, SL_SHARD_MAX, &n) ||
	    int_member(f->root, "shard", 0, n - 1, &k) ||
	    int_member(f->root, "points", 0, 1L << 40, &f->points) ||
	    !member(f->root, "results", json_type_array))
		return sl_fail(err, "merge: %s: expected \"shard\" K, \"shards\" N (0 <= K < N), "
			       "\"points\" and \"results\"", f->path);
	f->k = (int)k;
	f->n = (int)n;
	return 0;
}

static const char *arg(const struct shard_file *f, size_t i)
{
	return json_object_get_string(json_object_array_get_idx(f->command, i));
}

static int same_command(const struct shard_file *a, const struct shard_file *b)
{
	size_t n = json_object_array_length(a->command);

	if (n != json_object_array_length(b->command))
		return 0;
	for (size_t i = 0; i < n; i++)
		if (strcmp(arg(a, i), arg(b, i)))
			return 0;
	return 1;
}

/* "nan", "inf", "-inf" or a number. */
static int metric_value(struct json_object *v, double *out)
{
	if (json_object_is_type(v, json_type_double) || json_object_is_type(v, json_type_int)) {
		*out = json_object_get_double(v);
		return 0;
	}
	if (!json_object_is_type(v, json_type_string))
		return -1;
	const char *s = json_object_get_string(v);
	if (!strcmp(s, "nan"))
		*out = NAN;
	else if (!strcmp(s, "inf"))
		*out = INFINITY;
	else if (!strcmp(s, "-inf"))
		*out = -INFINITY;
	else
		return -1;
	return 0;
}

static int read_metrics(const struct shard_file *f, size_t r, struct json_object *ms,
			struct sl_metrics *out, struct sl_err *err)
{
	size_t n = json_object_array_length(ms);

	if (n > SL_MAX_METRICS)
		return sl_fail(err, "merge: %s: results[%zu]: more than %d metrics", f->path, r,
			       SL_MAX_METRICS);
	for (size_t i = 0; i < n; i++) {
		struct json_object *m = json_object_array_get_idx(ms, i);
		struct sl_metric *x = &out->m[i];
		if (!json_object_is_type(m, json_type_array) || json_object_array_length(m) != 4 ||
		    !json_object_is_type(json_object_array_get_idx(m, 0), json_type_string) ||
		    !json_object_is_type(json_object_array_get_idx(m, 1), json_type_string) ||
		    !json_object_is_type(json_object_array_get_idx(m, 2), json_type_int) ||
		    metric_value(json_object_array_get_idx(m, 3), &x->value) ||
		    strlen(json_object_get_string(json_object_array_get_idx(m, 0))) >= sizeof(x->name) ||
		    strlen(json_object_get_string(json_object_array_get_idx(m, 1))) >= sizeof(x->unit))
			return sl_fail(err, "merge: %s: results[%zu].metrics[%zu]: expected [name, "
				       "unit, better, value]", f->path, r, i);
		snprintf(x->name, sizeof(x->name), "%s",
			 json_object_get_string(json_object_array_get_idx(m, 0)));
		snprintf(x->unit, sizeof(x->unit), "%s",
			 json_object_get_string(json_object_array_get_idx(m, 1)));
		x->better = json_object_get_int(json_object_array_get_idx(m, 2));
	}
	out->n = (int)n;
	return 0;
}

/* The results of `f` into points[] (owner[i]: the file that gave point i). */
static int read_results(struct shard_file *files, int fi, struct sl_shard_point *points,
			int *owner, struct sl_err *err)
{
	const struct shard_file *f = &files[fi];
	struct json_object *results = member(f->root, "results", json_type_array);

	for (size_t r = 0; r < json_object_array_length(results); r++) {
		struct json_object *o = json_object_array_get_idx(results, r), *ms, *seed;
		long i;
		struct sl_shard_point *p;
		if (!json_object_is_type(o, json_type_object) ||
		    int_member(o, "point", 0, f->points - 1, &i) || !member(o, "machine", json_type_string) ||
		    !member(o, "policy", json_type_string) ||
		    !member(o, "workload", json_type_string) ||
		    !(seed = member(o, "seed", json_type_int)) ||
		    !(ms = member(o, "metrics", json_type_array)))
			return sl_fail(err, "merge: %s: results[%zu]: expected \"point\" (below %ld), "
				       "\"machine\", \"policy\", \"workload\", \"seed\" and "
				       "\"metrics\"", f->path, r, f->points);
		if (i % f->n != f->k)
			return sl_fail(err, "merge: %s: results[%zu]: point %ld is not in shard %d/%d",
				       f->path, r, i, f->k, f->n);
		if (owner[i] >= 0)
			return sl_fail(err, "merge: point %ld is in both %s and %s", i,
				       files[owner[i]].path, f->path);
		owner[i] = fi;
		p = &points[i];
		p->machine = sl_xstrdup(json_object_get_string(member(o, "machine", json_type_string)));
		p->policy = sl_xstrdup(json_object_get_string(member(o, "policy", json_type_string)));
		p->workload = sl_xstrdup(json_object_get_string(member(o, "workload",
									 json_type_string)));
		p->seed = json_object_get_uint64(seed);
		p->metrics = sl_xcalloc(1, sizeof(*p->metrics));
		if (read_metrics(f, r, ms, p->metrics, err))
			return -1;
	}
	return 0;
}

/* Read and check every shard: 0, or -1 with err set (bad input). */
static int read_all(struct shard_file *files, int n, struct sl_shard_point **points,
		    struct sl_err *err)
{
	int *owner = NULL, rc = -1;
	long total;

	for (int i = 0; i < n; i++) {
		if (read_header(&files[i], err))
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
	if (strcmp(arg(&files[0], 0), "run") && strcmp(arg(&files[0], 0), "reproduce"))
		return sl_fail(err, "merge: %s: command '%s' (expected run or reproduce)",
			       files[0].path, arg(&files[0], 0));
	total = files[0].points;
	*points = sl_xcalloc((unsigned long)total + 1, sizeof(**points));
	owner = sl_xmalloc(sizeof(*owner) * ((unsigned long)total + 1));
	for (long i = 0; i < total; i++)
		owner[i] = -1;
	for (int i = 0; i < n; i++)
		if (read_results(files, i, *points, owner, err))
			goto out;
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

static void free_points(struct sl_shard_point *points, long n)
{
	for (long i = 0; points && i < n; i++) {
		free(points[i].machine);
		free(points[i].policy);
		free(points[i].workload);
		free(points[i].metrics);
	}
	free(points);
}

/* The command again, its runs from the shards, its stdout to `out`. */
static int rerun(const struct shard_file *f, struct sl_shard_point *points,
		 struct sl_outfile *out)
{
	int argc = (int)json_object_array_length(f->command), rc;
	char **argv = sl_xcalloc((unsigned long)argc + 1, sizeof(*argv));

	for (int i = 0; i < argc; i++)
		argv[i] = (char *)arg(f, (size_t)i);
	fflush(stdout);
	if (out->f != stdout && dup2(fileno(out->f), STDOUT_FILENO) < 0) {
		free(argv);
		fprintf(stderr, "schedlab: merge: %s: %s\n", out->path, strerror(errno));
		return EXIT_INTERNAL;
	}
	sl_shard_merge_points(points, f->points);
	rc = !strcmp(argv[0], "run") ? cmd_run(argc, argv) : cmd_reproduce(argc, argv);
	if (!rc && sl_shard_points_seen() != f->points)
		rc = cli_bad_input("merge: the command ran %ld points but the shards have %ld "
				   "(shards of another schedlab?)", sl_shard_points_seen(),
				   f->points);
	sl_shard_reset();
	free(argv);
	return rc;
}

int cmd_merge(int argc, char **argv)
{
	struct shard_file *files = NULL;
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
	for (int i = 0; i < n; i++)
		files[i].path = argv[i + 2];
	if (read_all(files, n, &points, &err) ||
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
	free_points(points, n ? files[0].points : 0);
	for (int i = 0; i < n; i++)
		json_object_put(files[i].root);
	free(files);
	return rc;
}
