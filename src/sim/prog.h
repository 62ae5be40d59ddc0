/*
 * prog.h - a task's behaviour program.  The engine calls step() whenever the
 * task's previous action has finished (task->result holds its outcome) and
 * the task is on a CPU; step() writes the next action.  Programs are small
 * state machines over task->prog_state, which the workload owns.
 */
#ifndef SL_SIM_PROG_H
#define SL_SIM_PROG_H

#include "sim/action.h"

struct sl_sim;
struct sl_task;

struct sl_prog {
	const char *name;
	void (*step)(struct sl_sim *sim, struct sl_task *t, struct sl_action *next);
	/* Optional: called when the task is reaped, to free prog_state. */
	void (*release)(struct sl_sim *sim, struct sl_task *t);
};

#endif
