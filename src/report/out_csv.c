/*
 * out_csv.c - CSV output of `run`: a header, then one row per run x metric
 * (policy,rep,seed,metric,value,unit).  Fields holding a comma, a quote or
 * a line break are quoted (RFC 4180); policy specs often hold commas.
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

void sl_out_run_csv(FILE *f, const struct sl_sweep *s)
{
	fputs("policy,rep,seed,metric,value,unit\n", f);
	for (int c = 0; c < s->ncells; c++) {
		for (int rep = 0; rep < s->reps; rep++) {
			const struct sl_metrics *ms = sl_sweep_metrics(s, c, rep);
			for (int i = 0; i < ms->n; i++) {
				field(f, s->cells[c]->label);
				fprintf(f, ",%d,%llu,", rep,
					(unsigned long long)(s->seed + (uint64_t)rep));
				field(f, ms->m[i].name);
				fprintf(f, ",%.10g,", ms->m[i].value);
				field(f, ms->m[i].unit);
				fputc('\n', f);
			}
		}
	}
}
