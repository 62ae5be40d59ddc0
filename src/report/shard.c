/*
 * shard.c - the run points of a sliced command, kept and written; those
 * of a merge, handed to the sweeps (shard.h).
 */
#include "report/shard.h"

#include <json.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "report/sweep.h"

static struct {
	enum sl_shard_mode mode;
	int k, n;
	long next;				/* the next sweep's first point */
	/* slice: the points run, in order */
	struct kept {
		long index;
		struct sl_shard_point p;
	} *kept;
	long nkept;
	/* merge: every point */
	const struct sl_shard_point *points;
	long npoints;
} sh;

enum sl_shard_mode sl_shard_mode(void)
{
	return sh.mode;
}

void sl_shard_set_slice(int k, int n)
{
	sl_shard_reset();
	sh.mode = SL_SHARD_SLICE;
	sh.k = k;
	sh.n = n;
}

void sl_shard_merge_points(const struct sl_shard_point *points, long npoints)
{
	sl_shard_reset();
	sh.mode = SL_SHARD_MERGE;
	sh.points = points;
	sh.npoints = npoints;
}

long sl_shard_points_seen(void)
{
	return sh.next;
}

void sl_shard_reset(void)
{
	for (long i = 0; i < sh.nkept; i++) {
		free(sh.kept[i].p.machine);
		free(sh.kept[i].p.policy);
		free(sh.kept[i].p.workload);
		free(sh.kept[i].p.metrics);
	}
	free(sh.kept);
	memset(&sh, 0, sizeof(sh));
}

static bool same_run(const struct sl_shard_point *p, const struct sl_sweep *s, int cell,
		     uint64_t seed)
{
	return !strcmp(p->machine, s->machine.name) &&
	       !strcmp(p->policy, s->cells[cell]->policy_text) &&
	       !strcmp(p->workload, s->cells[cell]->workload_text) && p->seed == seed;
}

int sl_shard_sweep_begin(struct sl_sweep *s, bool **skip, struct sl_err *err)
{
	long njobs = (long)s->ncells * s->reps, first = sh.next;

	*skip = NULL;
	if (sh.mode == SL_SHARD_OFF)
		return 0;
	sh.next += njobs;
	*skip = sl_xcalloc((unsigned long)njobs + 1, sizeof(**skip));
	for (long job = 0; job < njobs; job++) {
		long index = first + job;
		int cell = (int)(job / s->reps), rep = (int)(job % s->reps);
		uint64_t seed = s->seed + (uint64_t)rep;
		if (sh.mode == SL_SHARD_SLICE) {
			(*skip)[job] = index % sh.n != sh.k;
			continue;
		}
		(*skip)[job] = true;
		if (index >= sh.npoints || !same_run(&sh.points[index], s, cell, seed)) {
			free(*skip);
			*skip = NULL;
			if (index >= sh.npoints)
				return sl_fail(err, "merge: the command runs more than the shards' %ld "
					       "points (policy '%s', workload '%s', seed %llu)",
					       sh.npoints, s->cells[cell]->policy_text,
					       s->cells[cell]->workload_text,
					       (unsigned long long)seed);
			return sl_fail(err, "merge: point %ld is policy '%s', workload '%s', seed "
				       "%llu on %s in the shards but the command now runs policy "
				       "'%s', workload '%s', seed %llu on %s there (shards of "
				       "another schedlab?)", index, sh.points[index].policy,
				       sh.points[index].workload,
				       (unsigned long long)sh.points[index].seed,
				       sh.points[index].machine, s->cells[cell]->policy_text,
				       s->cells[cell]->workload_text, (unsigned long long)seed,
				       s->machine.name);
		}
		s->metrics[job] = *sh.points[index].metrics;
	}
	return 0;
}

void sl_shard_sweep_end(const struct sl_sweep *s, bool *skip)
{
	long njobs = (long)s->ncells * s->reps, first = sh.next - njobs;

	if (sh.mode == SL_SHARD_SLICE) {
		for (long job = 0; job < njobs; job++) {
			struct kept *k;
			int cell = (int)(job / s->reps), rep = (int)(job % s->reps);
			if (skip[job])
				continue;
			sh.kept = sl_xrealloc(sh.kept, sizeof(*sh.kept) * (unsigned long)(sh.nkept + 1));
			k = &sh.kept[sh.nkept++];
			k->index = first + job;
			k->p.machine = sl_xstrdup(s->machine.name);
			k->p.policy = sl_xstrdup(s->cells[cell]->policy_text);
			k->p.workload = sl_xstrdup(s->cells[cell]->workload_text);
			k->p.seed = s->seed + (uint64_t)rep;
			k->p.metrics = sl_xmalloc(sizeof(*k->p.metrics));
			*k->p.metrics = s->metrics[job];
		}
	}
	free(skip);
}

/* ---- the file ---- */

static struct json_object *value(double v)
{
	char buf[40];

	if (isnan(v))
		return json_object_new_string("nan");
	if (isinf(v))
		return json_object_new_string(v > 0 ? "inf" : "-inf");
	snprintf(buf, sizeof(buf), "%.17g", v);
	return json_object_new_double_s(v, buf);
}

static struct json_object *point_object(const struct kept *k)
{
	struct json_object *o = json_object_new_object(), *ms = json_object_new_array();
	const struct sl_metrics *m = k->p.metrics;

	json_object_object_add(o, "point", json_object_new_int64(k->index));
	json_object_object_add(o, "machine", json_object_new_string(k->p.machine));
	json_object_object_add(o, "policy", json_object_new_string(k->p.policy));
	json_object_object_add(o, "workload", json_object_new_string(k->p.workload));
	json_object_object_add(o, "seed", json_object_new_uint64(k->p.seed));
	for (int i = 0; i < m->n; i++) {
		struct json_object *a = json_object_new_array();
		json_object_array_add(a, json_object_new_string(m->m[i].name));
		json_object_array_add(a, json_object_new_string(m->m[i].unit));
		json_object_array_add(a, json_object_new_int(m->m[i].better));
		json_object_array_add(a, value(m->m[i].value));
		json_object_array_add(ms, a);
	}
	json_object_object_add(o, "metrics", ms);
	return o;
}

void sl_shard_write(FILE *f, int argc, char *const *argv)
{
	struct json_object *root = json_object_new_object();
	struct json_object *cmd = json_object_new_array(), *results = json_object_new_array();

	for (int i = 0; i < argc; i++)
		json_object_array_add(cmd, json_object_new_string(argv[i]));
	json_object_object_add(root, "schedlab_shard", json_object_new_int(SL_SHARD_FORMAT));
	json_object_object_add(root, "command", cmd);
	json_object_object_add(root, "shard", json_object_new_int(sh.k));
	json_object_object_add(root, "shards", json_object_new_int(sh.n));
	json_object_object_add(root, "points", json_object_new_int64(sh.next));
	for (long i = 0; i < sh.nkept; i++)
		json_object_array_add(results, point_object(&sh.kept[i]));
	json_object_object_add(root, "results", results);
	fputs(json_object_to_json_string_ext(root, JSON_C_TO_STRING_PRETTY |
					     JSON_C_TO_STRING_SPACED |
					     JSON_C_TO_STRING_NOSLASHESCAPE), f);
	fputc('\n', f);
	json_object_put(root);
}
