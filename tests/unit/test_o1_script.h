/*
 * test_o1_script.h - helpers shared by the scenario tests of the O(1)
 * family (test_o1*.c, test_ht*.c): a scripted task program that does its
 * actions in order and notes when and on which CPU each was asked for,
 * building a run on a machine with a policy string, and binding or
 * initialising a policy to look at its errors.
 */
#ifndef SL_TESTS_TEST_O1_SCRIPT_H
#define SL_TESTS_TEST_O1_SCRIPT_H

#include <stdbool.h>

#include "base/err.h"
#include "base/spec.h"
#include "hw/machine.h"
#include "sim/sim.h"

#define O1T_MAX_ACTS 64

struct o1t_script {
	int n, pc;
	struct sl_action acts[O1T_MAX_ACTS];
	sl_time at[O1T_MAX_ACTS + 1];	/* when act i was asked for */
	int cpu[O1T_MAX_ACTS + 1];	/* on which CPU */
};

extern const struct sl_prog o1t_prog;

struct o1t_script *o1t_new(struct sl_sim *sim);
void o1t_add(struct o1t_script *s, struct sl_action a);
/* Fork `child` running o1t_prog, named comm, at `nice`. */
void o1t_fork(struct o1t_script *s, struct o1t_script *child, const char *comm, int nice);
/* An exec action renaming the task to comm. */
void o1t_exec(struct o1t_script *s, const char *comm);
void o1t_yield(struct o1t_script *s);
/* A task that computes `ms` and exits. */
struct o1t_script *o1t_hog(struct sl_sim *sim, double ms);
/* A root forking `n` (<= 10) hogs h0.. of `ms` each at `nice`, then reaping. */
struct o1t_script *o1t_hogs(struct sl_sim *sim, int n, double ms, int nice);
/* `n` (<= 10) hogs h0.. of `ms` each, started together as the run's roots
 * (queued on CPU 0 at time 0, as a forking loop does not: each fork costs
 * its parent time, and a child that runs first delays the next fork). */
void o1t_spawn_hogs(struct sl_sim *sim, int n, double ms);

struct o1t_run {
	struct sl_machine machine;
	struct sl_params knobs;
	struct sl_sim *sim;
	struct sl_err err;
};

/* Build a run (seed 1, invariant checks on, `limit` 0 = none). */
bool o1t_start(struct o1t_run *r, const char *machine, const char *policy, sl_time limit);
bool o1t_run(struct o1t_run *r);
struct sl_task *o1t_find(struct sl_sim *sim, const char *comm);

/* Parse and bind a policy string: 0, or -1 with *err. */
int o1t_bind(const char *policy, struct sl_err *err);
/* Bind and initialise on `machine`: 0, or -1 with *err (init-time checks). */
int o1t_init(const char *machine, const char *policy, struct sl_err *err);

/* Two hogs forked on CPU 0 of a two-CPU machine (queued behind the root
 * with fork_place=tail, so that the root has blocked in wait before either
 * runs): when the second first runs on CPU 1 (-1 if it did not), for the
 * cache-hot tests.  `policy` must have the fork_place knob (o1, ht). */
sl_time o1t_second_hog_start(const char *policy);

#endif
