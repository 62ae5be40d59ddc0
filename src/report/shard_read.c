/*
 * shard_read.c - a shard file read back for `merge` (shard.h): the
 * header, and every point with its metrics, checked field by field.
 */
#include "report/shard.h"

#include <json.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/json_text.h"
#include "base/readfile.h"
#include "report/json_member.h"

static int int_member(struct json_object *o, const char *key, long lo, long hi, long *out)
{
	struct json_object *v = sl_json_member(o, key, json_type_int);

	if (!v)
		return -1;
	int64_t x = json_object_get_int64(v);
	if (x < lo || x > hi)
		return -1;
	*out = (long)x;
	return 0;
}

static int read_header(struct sl_shard_file *f, struct json_object *root, struct sl_err *err)
{
	struct json_object *fmt, *cmd;
	long k, n;

	fmt = json_object_is_type(root, json_type_object) ?
	      sl_json_member(root, "schedlab_shard", json_type_int) : NULL;
	if (!fmt)
		return sl_fail(err, "merge: %s: not a shard (expected the output of run or "
			       "reproduce --shard K/N)", f->path);
	if (json_object_get_int(fmt) != SL_SHARD_FORMAT)
		return sl_fail(err, "merge: %s: shard format %d (expected %d)", f->path,
			       json_object_get_int(fmt), SL_SHARD_FORMAT);
	cmd = sl_json_member(root, "command", json_type_array);
	if (!cmd || !json_object_array_length(cmd))
		return sl_fail(err, "merge: %s: expected \"command\", the command line", f->path);
	f->argv = sl_xcalloc(json_object_array_length(cmd) + 1, sizeof(*f->argv));
	for (size_t i = 0; i < json_object_array_length(cmd); i++) {
		struct json_object *a = json_object_array_get_idx(cmd, i);
		if (!json_object_is_type(a, json_type_string))
			return sl_fail(err, "merge: %s: command[%zu]: expected a string", f->path, i);
		f->argv[f->argc++] = sl_xstrdup(json_object_get_string(a));
	}
	if (strcmp(f->argv[0], "run") && strcmp(f->argv[0], "reproduce"))
		return sl_fail(err, "merge: %s: command '%.64s' (expected run or reproduce)",
			       f->path, f->argv[0]);
	if (int_member(root, "shards", 1, SL_SHARD_MAX, &n) ||
	    int_member(root, "shard", 0, n - 1, &k) ||
	    int_member(root, "points", 0, 1L << 40, &f->points) ||
	    !sl_json_member(root, "results", json_type_array))
		return sl_fail(err, "merge: %s: expected \"shard\" K, \"shards\" N (0 <= K < N), "
			       "\"points\" and \"results\"", f->path);
	f->k = (int)k;
	f->n = (int)n;
	return 0;
}

/* "nan", "inf", "-inf" or a number. */
static int metric_value(struct json_object *v, double *out)
{
	const char *s;

	if (json_object_is_type(v, json_type_double) || json_object_is_type(v, json_type_int)) {
		*out = json_object_get_double(v);
		return 0;
	}
	if (!json_object_is_type(v, json_type_string))
		return -1;
	s = json_object_get_string(v);
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

static int copy_str(char *dst, size_t size, struct json_object *v)
{
	if (!json_object_is_type(v, json_type_string) ||
	    strlen(json_object_get_string(v)) >= size)
		return -1;
	snprintf(dst, size, "%s", json_object_get_string(v));
	return 0;
}

static int read_metrics(const struct sl_shard_file *f, size_t r, struct json_object *ms,
			struct sl_metrics *out, struct sl_err *err)
{
	size_t n = json_object_array_length(ms);

	if (n > SL_MAX_METRICS)
		return sl_fail(err, "merge: %s: results[%zu]: more than %d metrics", f->path, r,
			       SL_MAX_METRICS);
	for (size_t i = 0; i < n; i++) {
		struct json_object *m = json_object_array_get_idx(ms, i), *better;
		struct sl_metric *x = &out->m[i];
		if (!json_object_is_type(m, json_type_array) || json_object_array_length(m) != 4 ||
		    copy_str(x->name, sizeof(x->name), json_object_array_get_idx(m, 0)) ||
		    copy_str(x->unit, sizeof(x->unit), json_object_array_get_idx(m, 1)) ||
		    !json_object_is_type(better = json_object_array_get_idx(m, 2), json_type_int) ||
		    metric_value(json_object_array_get_idx(m, 3), &x->value))
			return sl_fail(err, "merge: %s: results[%zu].metrics[%zu]: expected [name, "
				       "unit, better, value]", f->path, r, i);
		int64_t b = json_object_get_int64(better);
		if (b < -1 || b > 1)
			return sl_fail(err, "merge: %s: results[%zu].metrics[%zu]: better %lld "
				       "(expected -1, 0 or 1)", f->path, r, i, (long long)b);
		x->better = (int)b;
	}
	out->n = (int)n;
	return 0;
}

static int read_results(struct sl_shard_file *f, struct json_object *results, struct sl_err *err)
{
	size_t n = json_object_array_length(results);

	f->index = sl_xcalloc(n + 1, sizeof(*f->index));
	f->results = sl_xcalloc(n + 1, sizeof(*f->results));
	for (size_t r = 0; r < n; r++) {
		struct json_object *o = json_object_array_get_idx(results, r), *ms, *seed;
		const char *machine, *policy, *workload;
		struct sl_shard_point *p = &f->results[r];
		long i;
		if (!json_object_is_type(o, json_type_object) ||
		    int_member(o, "point", 0, f->points - 1, &i) ||
		    !(machine = sl_json_str_member(o, "machine")) || !(policy = sl_json_str_member(o, "policy")) ||
		    !(workload = sl_json_str_member(o, "workload")) ||
		    !(seed = sl_json_member(o, "seed", json_type_int)) || json_object_get_int64(seed) < 0 ||
		    !(ms = sl_json_member(o, "metrics", json_type_array)))
			return sl_fail(err, "merge: %s: results[%zu]: expected \"point\" (below %ld), "
				       "\"machine\", \"policy\", \"workload\", \"seed\" and "
				       "\"metrics\"", f->path, r, f->points);
		if (i % f->n != f->k)
			return sl_fail(err, "merge: %s: results[%zu]: point %ld is not in shard %d/%d",
				       f->path, r, i, f->k, f->n);
		if (r && i <= f->index[r - 1])
			return sl_fail(err, "merge: %s: results[%zu]: point %ld after point %ld "
				       "(expected increasing points, each once)", f->path, r, i,
				       f->index[r - 1]);
		f->index[r] = i;
		f->nresults = (long)r + 1;
		p->machine = sl_xstrdup(machine);
		p->policy = sl_xstrdup(policy);
		p->workload = sl_xstrdup(workload);
		p->seed = json_object_get_uint64(seed);
		p->metrics = sl_xcalloc(1, sizeof(*p->metrics));
		if (read_metrics(f, r, ms, p->metrics, err))
			return -1;
	}
	return 0;
}

/* The file's JSON: NULL with err naming what is wrong. */
static struct json_object *read_json(const char *path, struct sl_err *err)
{
	char what[4200];
	size_t len;

	snprintf(what, sizeof(what), "merge: %s", path);
	char *text = sl_read_text(path, SL_SHARD_MAX_FILE, what, "a shard file", &len, err);
	if (!text)
		return NULL;
	struct json_object *root = sl_json_parse_text(what, text, len, err);

	free(text);
	return root;
}

int sl_shard_read(struct sl_shard_file *f, const char *path, struct sl_err *err)
{
	struct json_object *root;
	int rc;

	memset(f, 0, sizeof(*f));
	f->path = sl_xstrdup(path);
	root = read_json(path, err);
	if (!root)
		return -1;
	rc = read_header(f, root, err);
	if (!rc)
		rc = read_results(f, sl_json_member(root, "results", json_type_array), err);
	json_object_put(root);
	return rc;
}

void sl_shard_file_free(struct sl_shard_file *f)
{
	for (int i = 0; i < f->argc; i++)
		free(f->argv[i]);
	for (long i = 0; f->results && i < f->nresults; i++) {
		free(f->results[i].machine);
		free(f->results[i].policy);
		free(f->results[i].workload);
		free(f->results[i].metrics);
	}
	free(f->argv);
	free(f->index);
	free(f->results);
	free(f->path);
	memset(f, 0, sizeof(*f));
}
