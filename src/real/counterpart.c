/*
 * counterpart.c - the simulated workload that stands for a real one (see
 * validate.h).
 *
 * spin keeps its tasks, time, nice, work class and CPUs (cpus=).  kernbench keeps -j,
 * takes the shape of a tinyconfig build of 6.1 from the recorded build
 * (compile units, serial tail, today's kbuild; the simulator's defaults describe a 2.6
 * defconfig on a 2002 Xeon) and its CPU work from the real runs (or the
 * recorded build).  Every other workload maps by name: each real
 * parameter the simulated workload also has is passed as it is, plus
 * schedbench's measured work per task and schbench's measured cost of a
 * multiply-add (hackbench's readsize is one of the shared parameters:
 * both read one message per call by default).
 */
#include "real/validate.h"

#include <stdio.h>
#include <string.h>

#include "workload/workload.h"

/* Append ",key=value" (or ":key=value" for the first). */
static void add(char *spec, size_t size, const char *key, const char *value)
{
	size_t len = strlen(spec);

	snprintf(spec + len, size - len, "%c%s=%s", strchr(spec, ':') ? ',' : ':', key, value);
}

static void add_num(char *spec, size_t size, const char *key, double value)
{
	char buf[64];

	snprintf(buf, sizeof(buf), "%.10g", value);
	add(spec, size, key, buf);
}

static int kernbench(const struct sl_params *p, const struct sl_metrics *real, int nreal,
		     char *spec, size_t size, struct sl_err *err)
{
	double user = SL_VAL_KB_USER_S, sys = SL_VAL_KB_SYS_PER_USER;

	if (sl_param_choice(p, "config") != 0)	/* tinyconfig */
		return sl_fail(err, "kernbench config other than tinyconfig has no calibrated "
			       "simulated counterpart (give one with --sim)");
	if (nreal > 0) {
		user = sl_val_mean(real, nreal, "user_s");
		sys = sl_val_mean(real, nreal, "sys_s") / user;
	}
	snprintf(spec, size, "kernbench");
	add_num(spec, size, "jobs", (double)sl_param_int(p, "jobs"));
	add_num(spec, size, "size", user);
	add_num(spec, size, "sys", sys);
	add_num(spec, size, "units", SL_VAL_KB_UNITS);
	add_num(spec, size, "tail", SL_VAL_KB_TAIL_PCT);
	add(spec, size, "kbuild", "6");	/* the host builds with today's kbuild */
	return 0;
}

static int spin(const struct sl_params *p, char *spec, size_t size)
{
	snprintf(spec, size, "spin");
	add_num(spec, size, "tasks", (double)sl_param_int(p, "tasks"));
	add_num(spec, size, "seconds", sl_param_real(p, "seconds"));
	add_num(spec, size, "nice", (double)sl_param_int(p, "nice"));
	add(spec, size, "class", sl_param_str(p, "class"));
	if (strcmp(sl_param_str(p, "cpus"), "all"))	/* pinned: alike */
		add(spec, size, "cpus", sl_param_str(p, "cpus"));
	return 0;
}

/* Same name, shared parameters passed through. */
static int by_name(const struct sl_real_workload *w, const struct sl_params *p, char *spec,
		   size_t size, struct sl_err *err)
{
	const struct sl_workload_ops *sim = sl_workload_find(w->name);

	if (!sim)
		return sl_fail(err, "the simulator has no workload '%s' yet (give one with --sim)",
			       w->name);
	snprintf(spec, size, "%s", w->name);
	for (int i = 0; i < p->n; i++) {
		bool shared = false;
		for (int k = 0; sim->params && sim->params[k].name; k++)
			shared |= !strcmp(sim->params[k].name, p->defs[i].name);
		if (shared && p->text[i])
			add(spec, size, p->defs[i].name, p->text[i]);
	}
	return 0;
}

/* schedbench: by name, and each task's work is the walkers' mean user
 * time (the simulated `size`, seconds of one task alone) when measured. */
static int schedbench(const struct sl_real_workload *w, const struct sl_params *p,
		      const struct sl_metrics *real, int nreal, char *spec, size_t size,
		      struct sl_err *err)
{
	const struct sl_workload_ops *sim = sl_workload_find(w->name);
	double user = sl_val_mean(real, nreal, "avg_user_s");

	if (by_name(w, p, spec, size, err))
		return -1;
	for (int k = 0; sim->params[k].name; k++)
		if (!strcmp(sim->params[k].name, "size") && nreal > 0 && user > 0)
			add_num(spec, size, "size", user);
	return 0;
}

/* schbench: by name, and a multiply-add costs what the real runs' math
 * measured (op_ns: the host's clock as hwloc reads it need not be the
 * speed a VM's CPU runs at). */
static int schbench(const struct sl_real_workload *w, const struct sl_params *p,
		    const struct sl_metrics *real, int nreal, char *spec, size_t size,
		    struct sl_err *err)
{
	double op_ns = nreal > 0 ? sl_val_mean(real, nreal, "op_ns") : 0;

	if (by_name(w, p, spec, size, err))
		return -1;
	if (op_ns > 0)
		add_num(spec, size, "op_ns", op_ns);
	return 0;
}

int sl_real_counterpart(const struct sl_real_workload *w, const struct sl_params *p,
			const struct sl_metrics *real, int nreal, char *spec, size_t size,
			struct sl_err *err)
{
	if (!sl_workload_find(w->name))
		return by_name(w, p, spec, size, err);
	if (w == &sl_real_kernbench)
		return kernbench(p, real, nreal, spec, size, err);
	if (w == &sl_real_spin)
		return spin(p, spec, size);
	if (w == &sl_real_schedbench)
		return schedbench(w, p, real, nreal, spec, size, err);
	if (w == &sl_real_schbench)
		return schbench(w, p, real, nreal, spec, size, err);
	return by_name(w, p, spec, size, err);
}
