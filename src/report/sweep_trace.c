/*
 * sweep_trace.c - run a sweep's one cell and repetition with a trace
 * writer on it (see sweep_trace.h).
 */
#include "report/sweep_trace.h"

#include <math.h>
#include <stdlib.h>

#include "report/run.h"

/* When the run ended: its elapsed time (runs start at 0). */
static sl_time run_end(const struct sl_metrics *m)
{
	const struct sl_metric *e = sl_metrics_find(m, "elapsed_s");
	return e ? (sl_time)llround(e->value * 1e9) : 0;
}

int sl_trace_sweep_run(struct sl_sweep *s, FILE *out, enum sl_trace_format format,
		       struct sl_err *err)
{
	if (s->ncells != 1 || s->reps != 1)
		return sl_fail(err, "a trace records one run: give one policy and one repetition "
			       "(got %d x %d runs)", s->ncells, s->reps);
	const struct sl_sweep_cell *c = s->cells[0];
	char title[512];
	snprintf(title, sizeof(title), "policy %s, workload %s, seed %llu", c->label,
		 c->workload_text, (unsigned long long)s->seed);
	struct sl_trace_writer *w = sl_trace_writer_new(out, format, &s->machine, title);
	struct sl_run_spec spec = sl_sweep_spec(s, 0, 0);
	spec.observer = sl_trace_writer_observer(w);
	struct sl_event_counts events = { 0 };

	free(s->metrics);
	s->metrics = sl_xcalloc(1, sizeof(*s->metrics));
	int rc = sl_run_once(&spec, &s->metrics[0], &events, err);
	if (rc)
		sl_err_prefix(err, "policy '%s', workload '%s', seed %llu: ", c->label,
			      c->workload_text, (unsigned long long)s->seed);
	else
		rc = sl_trace_writer_finish(w, run_end(&s->metrics[0]), err);
	s->events = events;
	sl_trace_writer_free(w);
	return rc;
}
