/*
 * out_csv.c - CSV output of `run` (and `real`): a header, then one row per
 * run x metric.  The first six columns are policy,rep,seed,metric,value,
 * unit (as before the sweeps); the coordinates follow - machine, workload
 * spec, policy spec - and one column per parameter of the workload, so
 * that concatenated results lose nothing (docs/experiments.md).  Fields
 * holding a comma, a quote or a line break are quoted (RFC 4180); policy
 * and workload specs often hold commas.
 */
#include "report/output.h"

#include <string.h>

static void field(FILE *f, const char *s)
{
	if (!strpbrk(s, ",\"\r\n")) {
		fputs(s, f);
		return;
	}
	fputc('"', f);
	for (; *s; s++) {
		if (*s == '"')
			fputc('"', f);
		fputc(*s, f);
	}
	fputc('"', f);
}

/* The parameters of the sweep's workload: of its first cell (one -w). */
static const struct sl_params *first_params(const struct sl_sweep_plan *p)
{
	const struct sl_sweep *s;
	int cell;

	for (int i = 0; i < p->ncells; i++)
		if (sl_sweep_plan_get(p, i, &s, &cell))
			return &s->cells[cell]->params;
	return NULL;
}

static void cell_rows(FILE *f, const struct sl_sweep *s, int cell, int nparams)
{
	const struct sl_sweep_cell *c = s->cells[cell];

	for (int rep = 0; rep < s->reps; rep++) {
		const struct sl_metrics *ms = sl_sweep_metrics(s, cell, rep);
		for (int i = 0; i < ms->n; i++) {
			field(f, c->label);
			fprintf(f, ",%d,%llu,", rep, (unsigned long long)(s->seed + (uint64_t)rep));
			field(f, ms->m[i].name);
			fprintf(f, ",%.10g,", ms->m[i].value);
			field(f, ms->m[i].unit);
			fputc(',', f);
			field(f, s->machine.name);
			fputc(',', f);
			field(f, c->workload_text);
			fputc(',', f);
			field(f, c->policy_text);
			for (int k = 0; k < nparams; k++) {
				fputc(',', f);
				if (k < c->params.n && c->params.text[k])
					field(f, c->params.text[k]);
			}
			fputc('\n', f);
		}
	}
}

void sl_out_plan_csv(FILE *f, const struct sl_sweep_plan *p)
{
	const struct sl_params *params = first_params(p);
	int nparams = params ? params->n : 0;
	const struct sl_sweep *s;
	int cell;

	fputs("policy,rep,seed,metric,value,unit,machine,workload,policy_spec", f);
	for (int k = 0; k < nparams; k++) {
		fputc(',', f);
		field(f, params->defs[k].name);
	}
	fputc('\n', f);
	for (int i = 0; i < p->ncells; i++)
		if (sl_sweep_plan_get(p, i, &s, &cell))
			cell_rows(f, s, cell, nparams);
}

void sl_out_run_csv(FILE *f, const struct sl_sweep *s)
{
	struct sl_sweep_plan p;

	sl_sweep_plan_wrap(&p, s);
	sl_out_plan_csv(f, &p);
	sl_sweep_plan_free(&p);
}
