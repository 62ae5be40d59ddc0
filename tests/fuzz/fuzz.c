/*
 * fuzz.c - the harnesses' shared part (fuzz.h): input files in memory and
 * a bounded, checked run.
 */
#include "fuzz.h"

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "policy/policy.h"
#include "sim/sim.h"

const char *fuzz_file(int slot, const uint8_t *data, size_t size)
{
	static int fd[2] = { -1, -1 };
	static char path[2][32];

	if (fd[slot] < 0) {
		fd[slot] = memfd_create("schedlab-fuzz", 0);
		if (fd[slot] < 0) {
			perror("memfd_create");
			abort();
		}
		snprintf(path[slot], sizeof(path[slot]), "/proc/self/fd/%d", fd[slot]);
	}
	if (ftruncate(fd[slot], 0) || (size && pwrite(fd[slot], data, size, 0) != (ssize_t)size)) {
		perror("memfd write");
		abort();
	}
	return path[slot];
}

const char *fuzz_text(const uint8_t *data, size_t size)
{
	static char buf[FUZZ_MAX_LEN + 1];

	if (size > FUZZ_MAX_LEN || memchr(data, 0, size))
		return NULL;
	memcpy(buf, data, size);
	buf[size] = 0;
	return buf;
}

void fuzz_expect_input_error(int rc, const struct sl_err *err, const char *what)
{
	if (rc == 0)
		return;
	if (err->kind == SL_ERR_INPUT && err->msg[0] && !strchr(err->msg, '\n'))
		return;
	fprintf(stderr, "fuzz: %s: not a one-line input error (kind %d): %s\n", what,
		(int)err->kind, err->msg);
	abort();
}

_Noreturn void fuzz_finding(const char *harness, const char *what, const char *text)
{
	fprintf(stderr, "fuzz: %s: %s for '%s'\n", harness, what, text);
	abort();
}

const char *fuzz_pick_policy(const uint8_t *data, size_t size)
{
	unsigned sum = 0;
	int n = 0;

	for (size_t i = 0; i < size; i++)
		sum = sum * 31 + data[i];
	while (sl_policies[n])
		n++;
	return sl_policies[sum % (unsigned)n]->name;
}

/* The observer that ends a run after FUZZ_MAX_SCHED_EVENTS. */
struct budget {
	struct sl_sim *sim;
	long left;
};

static void spend(struct budget *b)
{
	if (--b->left == 0)
		sl_sim_stop(b->sim);
}

static void on_switch(void *ctx, sl_time now, int cpu, const struct sl_task *prev,
		      const struct sl_task *next)
{
	(void)now, (void)cpu, (void)prev, (void)next;
	spend(ctx);
}

static void on_wakeup(void *ctx, sl_time now, const struct sl_task *t, int waker_cpu)
{
	(void)now, (void)t, (void)waker_cpu;
	spend(ctx);
}

static void on_fork(void *ctx, sl_time now, const struct sl_task *parent,
		    const struct sl_task *child)
{
	(void)now, (void)parent, (void)child;
	spend(ctx);
}

static void on_task(void *ctx, sl_time now, const struct sl_task *t)
{
	(void)now, (void)t;
	spend(ctx);
}

static void on_migrate(void *ctx, sl_time now, const struct sl_task *t, int from, int to)
{
	(void)now, (void)t, (void)from, (void)to;
	spend(ctx);
}

void fuzz_run(const struct sl_machine *machine, const char *policy,
	      const struct sl_workload_ops *ops, const struct sl_params *params, uint64_t seed)
{
	const struct sl_policy_ops *pops;
	struct sl_params knobs;
	struct sl_err err = { 0 };
	char label[64];
	/* The checks after every event walk every CPU, and some policies'
	 * check ops every pair of CPUs (o1's replays each runqueue's balance
	 * memos against a scan of the machine: a flat 764-CPU machine under
	 * ht took 20 s for hackbench's 687 events, past the 10 s timeout),
	 * so a big machine's event budgets shrink by the square of its size
	 * against a 16-CPU one's, down to a few dozen events. */
	long scale = machine->topo.ncpus > 16 ? machine->topo.ncpus / 16 : 1;
	long max_events = FUZZ_MAX_EVENTS / (scale * scale);
	long max_sched = FUZZ_MAX_SCHED_EVENTS / (scale * scale);
	if (max_events < FUZZ_MIN_EVENTS)
		max_events = FUZZ_MIN_EVENTS;
	if (max_sched < FUZZ_MIN_SCHED_EVENTS)
		max_sched = FUZZ_MIN_SCHED_EVENTS;
	struct budget b = { .left = max_sched };
	const struct sl_observer obs = {
		.ctx = &b, .sched_switch = on_switch, .sched_wakeup = on_wakeup,
		.sched_fork = on_fork, .sched_exec = on_task, .sched_exit = on_task,
		.sched_migrate = on_migrate,
	};

	if (sl_policy_parse(policy, &pops, &knobs, label, sizeof(label), &err)) {
		fuzz_expect_input_error(-1, &err, policy);
		return;
	}
	/* what the command line checks before any run (report/sweep.c): the
	 * pinned CPUs against the machine, and the run's memory, here against
	 * the harness's own budget */
	sl_cpumask cpus;
	if (sl_workload_cpus(params, machine->topo.ncpus, &cpus, &err)) {
		fuzz_expect_input_error(-1, &err, "cpus");
		return;
	}
	if (ops->check && ops->check(params, machine, pops, &err)) {
		fuzz_expect_input_error(-1, &err, "check");
		return;
	}
	uint64_t tasks = 0;
	if (sl_workload_mem(ops, params, machine, pops, &tasks) > FUZZ_MAX_RUN_BYTES)
		return;
	/* The checks also walk every task after each event: a run of many
	 * tasks gets fewer events, so that events x tasks stay what
	 * FUZZ_TASKS tasks would spend (cfs's hackbench of 25 groups, 1,001
	 * tasks on numaq-16, took 6.1 s for its 20,000 events, near the
	 * 10 s timeout; 60 us an event of checks whatever the tasks, 0.24 us
	 * more per task).  Not the scheduling events: creating the tasks
	 * spends two each, and the run would end before its first message. */
	if (tasks > FUZZ_TASKS) {
		max_events = (long)((uint64_t)max_events * FUZZ_TASKS / tasks);
		if (max_events < FUZZ_MIN_EVENTS)
			max_events = FUZZ_MIN_EVENTS;
	}
	struct sl_sim_config cfg = {
		.machine = machine, .policy = pops, .knobs = &knobs,
		.seed = seed, .check = true, .observer = &obs, .step_limit = FUZZ_MAX_STEPS,
	};
	struct sl_sim *sim = sl_sim_create(&cfg, &err);
	if (!sim) {
		fuzz_expect_input_error(-1, &err, "sl_sim_create");
		return;
	}
	b.sim = sim;
	sl_time limit = 0;
	void *state = ops->start(sim, params, &limit);
	/* and less simulated time, by the square: a tick is one event, but
	 * each idle CPU's balance may read every CPU (sched domains on a flat
	 * 766-CPU machine: 766 x 766 loads a tick, 0.2 s a tick under the
	 * sanitizers, 7 s an input); a few ticks at least */
	sl_time max_sim = FUZZ_MAX_SIM_NS / (scale * scale);
	if (max_sim < FUZZ_MIN_SIM_NS)
		max_sim = FUZZ_MIN_SIM_NS;
	if (!limit || limit > max_sim)
		limit = max_sim;
	/* In slices of simulated time, so that engine events can be counted
	 * between them (some workloads do 10^5 events per simulated second
	 * with no switch); a slice ending early means the run ended. */
	struct sl_run_stats st;
	int rc;
	sl_time t = 0;
	do {
		t = t + FUZZ_SLICE_NS < limit ? t + FUZZ_SLICE_NS : limit;
		sl_sim_set_time_limit(sim, t);
		rc = sl_sim_run(sim, &err);
		sl_sim_stats(sim, &st);
	} while (rc == 0 && sl_now(sim) == t && t < limit && st.events.total < (uint64_t)max_events);
	if (rc == 0) {
		struct sl_metrics m = { 0 };
		ops->report(sim, state, params, &m);
	}
	sl_sim_destroy(sim);
	fuzz_expect_input_error(rc, &err, "run");
}

const struct sl_machine *fuzz_pick_machine(size_t size)
{
	static const char *const names[] = { "p4-2400", "p4dpe-2x2ht", "numaq-16" };
	static struct sl_machine m[3];
	static bool loaded[3];
	size_t i = size % 3;

	if (!loaded[i]) {
		struct sl_err err = { 0 };
		if (sl_machine_load(&m[i], names[i], &err)) {
			fprintf(stderr, "fuzz: machine %s: %s\n", names[i], err.msg);
			abort();
		}
		loaded[i] = true;
	}
	return &m[i];
}

void fuzz_machine_workload(const struct sl_machine *m, const uint8_t *data, size_t size)
{
	static const char *const workloads[] = { "hackbench:groups=1,fds=4,loops=20",
						  "spin:seconds=0.05" };
	const char *w = workloads[size % 2];
	const struct sl_workload_ops *ops;
	struct sl_params params;
	struct sl_err err = { 0 };

	if (sl_workload_parse(w, &ops, &params, &err))
		fuzz_expect_input_error(-1, &err, w);
	else
		fuzz_run(m, fuzz_pick_policy(data, size), ops, &params, size);
}

void fuzz_workload(const char *text, const uint8_t *data, size_t size)
{
	const struct sl_workload_ops *ops;
	struct sl_params params;
	struct sl_err err = { 0 };
	int rc = sl_workload_parse(text, &ops, &params, &err);

	fuzz_expect_input_error(rc, &err, "workload");
	if (rc == 0)
		fuzz_run(fuzz_pick_machine(size), fuzz_pick_policy(data, size), ops, &params,
			 size);
}
