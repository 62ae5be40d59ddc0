/*
 * sweep.c - running cells x repetitions on worker threads (see sweep.h).
 */
#include "report/sweep.h"

#include <limits.h>
#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "base/memsize.h"
#include "policy/policy.h"
#include "report/run.h"
#include "report/shard.h"

int sl_sweep_check_seeds(int reps, uint64_t seed, struct sl_err *err)
{
	if (reps > 1 && seed > (uint64_t)LONG_MAX - (uint64_t)(reps - 1))
		return sl_fail(err, "-s %llu with -r %d: the last repetition's seed would be %llu, "
			       "past %ld (expected -s at most %llu)", (unsigned long long)seed,
			       reps, (unsigned long long)(seed + (uint64_t)(reps - 1)), LONG_MAX,
			       (unsigned long long)((uint64_t)LONG_MAX - (uint64_t)(reps - 1)));
	return 0;
}

struct sl_sweep *sl_sweep_new(const char *machine, int reps, uint64_t seed,
			      struct sl_err *err)
{
	struct sl_sweep *s;

	if (reps < 1 || reps > SL_SWEEP_MAX_REPS) {
		sl_fail(err, "repetitions: %d is out of range [1, %d]", reps, SL_SWEEP_MAX_REPS);
		return NULL;
	}
	if (sl_sweep_check_seeds(reps, seed, err))
		return NULL;
	s = sl_xcalloc(1, sizeof(*s));
	if (sl_machine_load(&s->machine, machine, err)) {
		free(s);
		return NULL;
	}
	s->reps = reps;
	s->seed = seed;
	return s;
}

static int find_cell(const struct sl_sweep *s, const char *policy, const char *workload)
{
	for (int i = 0; i < s->ncells; i++)
		if (!strcmp(s->cells[i]->policy_text, policy) &&
		    !strcmp(s->cells[i]->workload_text, workload))
			return i;
	return -1;
}

/* What the sweep keeps per run besides the runs: results, errors, counts. */
static uint64_t results_mem(uint64_t njobs)
{
	return sl_sat_mul(njobs, sizeof(struct sl_metrics) + sizeof(struct sl_err) +
			  sizeof(int) + sizeof(uint64_t));
}

/* The most memory `k` runs at once may take: the k largest of the jobs
 * (each cell counts reps times), plus the results. */
static uint64_t peak_mem(const struct sl_sweep *s, int k)
{
	uint64_t total = results_mem((uint64_t)s->ncells * (uint64_t)s->reps), prev = UINT64_MAX;
	int taken = 0;

	while (taken < k) {
		uint64_t best = 0;
		int n = 0;
		/* the next largest estimate below the previous one, and how
		 * many jobs have it */
		for (int i = 0; i < s->ncells; i++)
			if (s->cells[i]->mem < prev && s->cells[i]->mem > best)
				best = s->cells[i]->mem;
		if (!best)
			break;
		for (int i = 0; i < s->ncells; i++)
			if (s->cells[i]->mem == best)
				n += s->reps;
		for (; n > 0 && taken < k; n--, taken++)
			total = sl_sat_add(total, best);
		prev = best;
	}
	return total;
}

/* Refuse a cell whose one run, with the sweep's results, exceeds the
 * memory limit: the sweep can always run one job at a time. */
static int check_mem(const struct sl_sweep *s, const struct sl_sweep_cell *c,
		     const char *workload, uint64_t tasks, struct sl_err *err)
{
	uint64_t need = sl_sat_add(c->mem, results_mem((uint64_t)(s->ncells + 1) *
							(uint64_t)s->reps));
	char what[1200], detail[160];

	if (need <= sl_mem_limit())
		return 0;
	snprintf(what, sizeof(what), "workload '%s' on %s", workload, s->machine.name);
	snprintf(detail, sizeof(detail), "%llu task%s on %d CPU%s, results of %llu run%s",
		 (unsigned long long)tasks, tasks == 1 ? "" : "s", s->machine.topo.ncpus,
		 s->machine.topo.ncpus == 1 ? "" : "s",
		 (unsigned long long)(s->ncells + 1) * (unsigned long long)s->reps,
		 (s->ncells + 1) * s->reps == 1 ? "" : "s");
	return sl_mem_refuse(err, what, need, detail);
}

/* Refuse a cell whose workload asks for a scheduling class the policy
 * does not implement (chrt would get EINVAL from such a kernel). */
static int check_classes(const struct sl_sweep_cell *c, const char *policy,
			 const char *workload, struct sl_err *err)
{
	unsigned want = c->workload->sched_classes ? c->workload->sched_classes(&c->params) : 0;

	for (int k = 0; k < 32; k++)
		if ((want >> k) & 1 && !sl_policy_supports_sched(c->policy, k))
			return sl_fail(err, "policy '%s' has no %s: workload '%s' asks for it",
				       policy, sl_sched_policy_name(k), workload);
	return 0;
}

int sl_sweep_add(struct sl_sweep *s, const char *policy, const char *workload,
		 struct sl_err *err)
{
	int i = find_cell(s, policy, workload);
	struct sl_sweep_cell *c;
	uint64_t tasks;

	if (i >= 0)
		return i;
	c = sl_xcalloc(1, sizeof(*c));
	if (sl_policy_parse(policy, &c->policy, &c->knobs, c->label, sizeof(c->label), err) ||
	    sl_workload_parse(workload, &c->workload, &c->params, err)) {
		free(c);
		return -1;
	}
	/* the workload's own checks against this machine and policy (a CPU
	 * or a scheduling class that is not there), naming what asks for it */
	if (c->workload->check && c->workload->check(&c->params, &s->machine, c->policy, err)) {
		free(c);
		return -1;
	}
	sl_cpumask cpus;
	if (sl_workload_cpus(&c->params, s->machine.topo.ncpus, &cpus, err)) {
		sl_err_prefix(err, "workload '%s' on %s: ", workload, s->machine.name);
		free(c);
		return -1;
	}
	if (c->policy->cpu0_only && !sl_cpumask_test(&cpus, 0)) {
		sl_fail(err, "policy '%s' knows CPU 0 only (a uniprocessor kernel): workload '%s' "
			"is pinned elsewhere", policy, workload);
		free(c);
		return -1;
	}
	if (check_classes(c, policy, workload, err)) {
		free(c);
		return -1;
	}
	c->mem = sl_workload_mem(c->workload, &c->params, &s->machine, c->policy, &tasks);
	if (check_mem(s, c, workload, tasks, err)) {
		free(c);
		return -1;
	}
	c->policy_text = sl_xstrdup(policy);
	c->workload_text = sl_xstrdup(workload);
	s->cells = sl_xrealloc(s->cells, sizeof(*s->cells) * (unsigned long)(s->ncells + 1));
	s->cells[s->ncells] = c;
	return s->ncells++;
}

struct sl_run_spec sl_sweep_spec(const struct sl_sweep *s, int cell, int rep)
{
	const struct sl_sweep_cell *c = s->cells[cell];

	return (struct sl_run_spec){
		.machine = &s->machine,
		.policy = c->policy,
		.knobs = &c->knobs,
		.workload = c->workload,
		.params = &c->params,
		.seed = s->seed + (uint64_t)rep,
#ifdef SL_TESTING
		.check = true,	/* test builds verify invariants after every event */
#endif
	};
}

/* Shared by the workers: the next run to take, and one result slot per run. */
struct job_board {
	struct sl_sweep *sweep;
	atomic_int next;
	int njobs;
	bool *skip;		/* --shard, merge: jobs not run here (shard.h) */
	int *rc;
	struct sl_err *errs;
	struct sl_event_counts *events;
	struct sl_sweep_progress *progress;
};

static void run_job(struct job_board *b, int job)
{
	struct sl_sweep *s = b->sweep;
	const struct sl_sweep_cell *c = s->cells[job / s->reps];
	int rep = job % s->reps;
	struct sl_run_spec spec = sl_sweep_spec(s, job / s->reps, rep);

	if (b->skip && b->skip[job])
		return;
	b->rc[job] = sl_run_once(&spec, &s->metrics[job], &b->events[job], &b->errs[job]);
	if (b->rc[job])
		sl_err_prefix(&b->errs[job], "policy '%s', workload '%s', seed %llu: ",
			      c->label, c->workload_text, (unsigned long long)spec.seed);
}

static void *worker(void *arg)
{
	struct job_board *b = arg;

	for (;;) {
		int job = atomic_fetch_add(&b->next, 1);
		if (job >= b->njobs)
			return NULL;
		run_job(b, job);
		if (b->progress)
			b->progress->run_done(b->progress);
	}
}

/* Workers plus the calling thread; if a thread cannot be started, the
 * others simply take its share. */
static void run_on_threads(struct job_board *b, int nthreads)
{
	pthread_t *tid;
	int started = 0;

	if (nthreads > SL_SWEEP_MAX_THREADS)
		nthreads = SL_SWEEP_MAX_THREADS;
	if (nthreads > b->njobs)
		nthreads = b->njobs;
	/* as many runs at once as fit in the memory limit (one always
	 * does: sl_sweep_add checked it) */
	while (nthreads > 1 && peak_mem(b->sweep, nthreads) > sl_mem_limit())
		nthreads--;
	tid = sl_xcalloc((unsigned long)(nthreads > 1 ? nthreads : 1), sizeof(*tid));
	for (; started < nthreads - 1; started++)
		if (pthread_create(&tid[started], NULL, worker, b))
			break;
	worker(b);
	for (int i = 0; i < started; i++)
		pthread_join(tid[i], NULL);
	free(tid);
}

int sl_sweep_default_threads(void)
{
	cpu_set_t set;
	int n = 1;

	if (!sched_getaffinity(0, sizeof(set), &set))
		n = CPU_COUNT(&set);
	return n < 1 ? 1 : n > SL_SWEEP_MAX_THREADS ? SL_SWEEP_MAX_THREADS : n;
}

int sl_sweep_run(struct sl_sweep *s, int nthreads, struct sl_err *err)
{
	return sl_sweep_run_progress(s, nthreads, NULL, err);
}

int sl_sweep_run_progress(struct sl_sweep *s, int nthreads, struct sl_sweep_progress *progress,
			  struct sl_err *err)
{
	struct job_board b = { .sweep = s, .njobs = s->ncells * s->reps, .progress = progress };
	int rc = 0;

	atomic_init(&b.next, 0);
	free(s->metrics);
	s->metrics = sl_xcalloc((unsigned long)b.njobs, sizeof(*s->metrics));
	b.rc = sl_xcalloc((unsigned long)b.njobs, sizeof(*b.rc));
	b.errs = sl_xcalloc((unsigned long)b.njobs, sizeof(*b.errs));
	b.events = sl_xcalloc((unsigned long)b.njobs, sizeof(*b.events));
	if (sl_shard_sweep_begin(s, &b.skip, err)) {
		free(b.rc);
		free(b.errs);
		free(b.events);
		return -1;
	}
	if (b.njobs)
		run_on_threads(&b, nthreads);
	sl_shard_sweep_end(s, b.skip);
	s->events = (struct sl_event_counts){ 0 };
	for (int i = 0; i < b.njobs && !rc; i++) {
		if (b.rc[i]) {
			*err = b.errs[i];
			rc = -1;
		}
		sl_event_counts_add(&s->events, &b.events[i]);
	}
	free(b.rc);
	free(b.errs);
	free(b.events);
	return rc;
}

void sl_sweep_free(struct sl_sweep *s)
{
	if (!s)
		return;
	for (int i = 0; i < s->ncells; i++) {
		free(s->cells[i]->policy_text);
		free(s->cells[i]->workload_text);
		free(s->cells[i]);
	}
	free(s->cells);
	free(s->metrics);
	free(s);
}
