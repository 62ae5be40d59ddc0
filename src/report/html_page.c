/*
 * html_page.c - the report's page (html.h): the tables exactly as the
 * command prints them (the same printers, into a <pre>), then the
 * pictures of one repetition per policy - a per-CPU timeline and the
 * latency CDFs - and, for experiments, their rows as charts.
 *
 * The sweep keeps only metrics, so the pictures come from repetition 0
 * of each policy run again with an observer (trace/perf.h's
 * slices) and its latency histograms kept (sl_run_spec.latency_out).  A
 * run is deterministic in its seed; the page is refused (internal error)
 * if the re-run's metrics differ from the table's repetition 0.
 */
#include "report/html.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "report/output.h"
#include "report/run.h"
#include "trace/perf.h"

void sl_html_escape(FILE *f, const char *s)
{
	for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
		switch (*p) {
		case '&': fputs("&amp;", f); break;
		case '<': fputs("&lt;", f); break;
		case '>': fputs("&gt;", f); break;
		case '"': fputs("&quot;", f); break;
		case '\'': fputs("&#39;", f); break;
		default:
			fputc((*p < 0x20 && *p != '\n' && *p != '\t') || *p >= 0x7f ? '?' : *p, f);
		}
	}
}

/* ---- the page's frame ---- */

static const char css[] =
	"body{font-family:sans-serif;margin:1em auto;max-width:1150px;padding:0 1em;color:#222}\n"
	"h1{font-size:1.5em}h2{font-size:1.25em;border-bottom:1px solid #ccc;margin-top:1.6em}\n"
	"h3{font-size:1.05em}pre{background:#f7f7f7;padding:.6em;overflow-x:auto;font-size:12px}\n"
	"code{background:#f2f2f2;padding:0 .2em}.note{font-size:.9em;color:#555}\n"
	"svg{max-width:100%;height:auto;display:block}svg text{font-size:11px;fill:#333}\n"
	".lbl{font-size:11px}.tk{text-anchor:middle;font-size:10px}"
	".tky{text-anchor:end;font-size:10px}.ttl{font-size:13px;font-weight:bold}\n"
	".grid{stroke:#ccc;stroke-width:.5}.grid.p99{stroke-dasharray:3 3;stroke:#999}\n"
	".idle{fill:#efefef;background:#efefef}.lanes{cursor:zoom-in}\n"
	".cdfline{fill:none;stroke-width:1.6}.band{opacity:.35}.mid{stroke-width:2}\n"
	".pub{fill:#fff;stroke:#000;stroke-width:1.3}line.pub{stroke-width:2}"
	".pub.miss{stroke:#d00}\n.rowlbl{text-anchor:end}\n"
	".legend{font-size:.9em}.sw{display:inline-block;width:11px;height:11px;"
	"margin:0 4px 0 10px;vertical-align:middle;border:1px solid #999}\n"
	".zoom{font-size:.85em;margin:.3em 0}.zoom button{margin-right:.2em}\n";

/* The zoom of the timelines: the lanes are an inner SVG whose viewBox x
 * is time in ms; the axis labels are rewritten for the new window. */
static const char script[] =
	"<script>\n"
	"function tz(id,a,fr){var s=document.getElementById(id),v=s.viewBox.baseVal,"
	"T=+s.dataset.t,x=v.x,w=v.width;\n"
	"if(a=='in'){x+=w*(fr==null?.5:fr)-w/8;w/=4}else if(a=='out'){x-=w*1.5;w*=4}"
	"else if(a=='l')x-=w/2;else if(a=='r')x+=w/2;else{x=0;w=T}\n"
	"w=Math.min(Math.max(w,T/65536),T);x=Math.min(Math.max(x,0),T-w);"
	"s.setAttribute('viewBox',x+' 0 '+w+' '+v.height);\n"
	"var l=document.getElementsByClassName('tk-'+id);for(var i=0;i<l.length;i++){"
	"var t=x+w*i/(l.length-1);l[i].textContent=w>=1000?(t/1e3).toFixed(3)+' s':"
	"t.toFixed(3)+' ms'}}\n"
	"function tc(e,id){var r=e.currentTarget.getBoundingClientRect();"
	"tz(id,'in',(e.clientX-r.left)/r.width)}\n"
	"</script>\n";

static void page_head(FILE *f, const char *title, const char *cmdline)
{
	fputs("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
	      "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n<title>",
	      f);
	sl_html_escape(f, title);
	fprintf(f, "</title>\n<style>\n%s", css);
	sl_tl_colors_css(f);
	fputs("</style>\n</head>\n<body>\n<h1>", f);
	sl_html_escape(f, title);
	fputs("</h1>\n<p class=\"note\">Written by <code>", f);
	sl_html_escape(f, cmdline);
	fputs("</code>. Simulated by schedlab; every number below is of the simulation.</p>\n", f);
}

static void page_foot(FILE *f)
{
	fputs(script, f);
	fputs("</body>\n</html>\n", f);
}

/* What a printer writes, as a <pre>. */
struct printed {
	char *text;
	size_t len;
	FILE *mem;
};

static FILE *print_begin(struct printed *p)
{
	p->text = NULL;
	p->mem = open_memstream(&p->text, &p->len);
	if (!p->mem) {	/* as sl_xmalloc */
		fputs("schedlab: out of memory\n", stderr);
		exit(1);
	}
	return p->mem;
}

static void print_end(FILE *f, struct printed *p)
{
	fclose(p->mem);
	fputs("<pre>", f);
	sl_html_escape(f, p->text);
	fputs("</pre>\n", f);
	free(p->text);
}

/* ---- the pictures of one run ---- */

struct pic {
	char label[160];
	struct sl_timeline *tl;
	struct sl_hist lat[2];	/* SL_LAT_WAKEUP, SL_LAT_RUNQ */
};

static sl_time run_end(const struct sl_metrics *m)
{
	const struct sl_metric *e = sl_metrics_find(m, "elapsed_s");
	return e ? (sl_time)llround(e->value * 1e9) : 0;
}

static bool same_metrics(const struct sl_metrics *a, const struct sl_metrics *b)
{
	if (a->n != b->n)
		return false;
	for (int i = 0; i < a->n; i++)
		if (strcmp(a->m[i].name, b->m[i].name) ||
		    memcmp(&a->m[i].value, &b->m[i].value, sizeof(double)))
			return false;
	return true;
}

/* Run repetition 0 of sweep cell `cell` again, watched. */
static int trace_pic(struct sl_sweep *s, int cell, int max_slices, struct pic *p,
		     struct sl_err *err)
{
	const struct sl_sweep_cell *c = s->cells[cell];
	struct sl_metrics *m = sl_xcalloc(1, sizeof(*m));
	struct sl_trace_writer *w;
	int rc;

	p->tl = sl_timeline_new(&s->machine, max_slices);
	w = sl_trace_writer_slices(&s->machine, sl_timeline_slice, p->tl);
	struct sl_run_spec spec = sl_sweep_spec(s, cell, 0);
	spec.observer = sl_trace_writer_observer(w);
	spec.latency_out = p->lat;
	rc = sl_run_once(&spec, m, NULL, err);
	if (rc)
		sl_err_prefix(err, "report: policy '%s', workload '%s', seed %llu: ", c->label,
			      c->workload_text, (unsigned long long)s->seed);
	else
		rc = sl_trace_writer_finish(w, run_end(m), err);
	if (!rc) {
		sl_timeline_end(p->tl, run_end(m));
		if (!same_metrics(m, sl_sweep_metrics(s, cell, 0)))
			rc = sl_fail_internal(err, "report: policy '%s', workload '%s': the watched "
					      "re-run of repetition 0 differs from it", c->label,
					      c->workload_text);
	}
	sl_trace_writer_free(w);
	free(m);
	return rc;
}

static int per_timeline(int ntimelines)
{
	int n = ntimelines > 0 ? SL_HTML_SLICE_BUDGET / ntimelines : SL_HTML_SLICE_BUDGET;
	return n < SL_HTML_MIN_SLICES ? SL_HTML_MIN_SLICES : n;
}

static void pics_free(struct pic *p, int n)
{
	for (int i = 0; p && i < n; i++)
		sl_timeline_free(p[i].tl);
	free(p);
}

/* The timelines of pictures [from, to) and their latency CDFs. */
static void pics_html(FILE *f, const struct pic *p, int from, int to,
		      const struct sl_tl_colors *colors, const char *idbase, uint64_t seed)
{
	char id[32];

	fprintf(f, "<p class=\"note\">Repetition 0 (seed %llu) of each policy, run again with an "
		"observer; its metrics are checked to equal the table's repetition 0. One lane per "
		"logical CPU, grouped by node and core; a colour per task name (the ten with the "
		"most CPU time in this page; hover a slice for its task and times); the bare lane "
		"is idle.</p>\n", (unsigned long long)seed);
	sl_tl_colors_legend(f, colors);
	for (int i = from; i < to; i++) {
		fputs("<h3>", f);
		sl_html_escape(f, p[i].label);
		fputs("</h3>\n", f);
		snprintf(id, sizeof(id), "%s%d", idbase, i);
		sl_timeline_html(f, p[i].tl, colors, id);
	}
	int n = to - from;
	const struct sl_hist **h = sl_xcalloc((size_t)(n ? n : 1), sizeof(*h));
	const char **labels = sl_xcalloc((size_t)(n ? n : 1), sizeof(*labels));
	static const char *const title[] = {
		"Wakeup latency: woken (or forked) until running",
		"Run-queue delay: every wait for a CPU, preemptions included",
	};
	fputs("<h3>Waits for a CPU (repetition 0)</h3>\n<p class=\"note\">The distribution of "
	      "each wait in the run, from the engine's histograms (buckets within 0.8 %); the "
	      "table's wakeup_lat_us_* and runq_delay_us_* are its percentiles.</p>\n", f);
	for (int k = 0; k < 2; k++) {
		for (int i = 0; i < n; i++) {
			h[i] = &p[from + i].lat[k];
			labels[i] = p[from + i].label;
		}
		sl_html_cdf(f, title[k], h, labels, n);
	}
	free(h);
	free(labels);
}

static void bounds_note(FILE *f, int max_slices)
{
	fprintf(f, "<h2>About this page</h2>\n<p class=\"note\">One file: inline SVG and CSS and a "
		"few lines of script for the zoom; nothing is fetched. Each timeline keeps at most "
		"%d slices; a run with more shows its first part, complete on every CPU, and says "
		"so under it. docs/report.md tells how to read the page.</p>\n", max_slices);
}

/* ---- run ---- */

int sl_html_run_page(FILE *f, struct sl_sweep *s, const char *cmdline, struct sl_err *err)
{
	int n = s->ncells, max = per_timeline(n);
	struct pic *p = sl_xcalloc((size_t)(n ? n : 1), sizeof(*p));
	struct printed pr;

	for (int i = 0; i < n; i++) {
		snprintf(p[i].label, sizeof(p[i].label), "%s", s->cells[i]->label);
		if (trace_pic(s, i, max, &p[i], err)) {
			pics_free(p, n);
			return -1;
		}
	}
	struct sl_timeline **tls = sl_xcalloc((size_t)(n ? n : 1), sizeof(*tls));
	for (int i = 0; i < n; i++)
		tls[i] = p[i].tl;
	struct sl_tl_colors *colors = sl_tl_colors_new(tls, n);

	page_head(f, "schedlab run report", cmdline);
	fputs("<h2>Results</h2>\n", f);
	sl_out_run_table(print_begin(&pr), s);
	print_end(f, &pr);
	fputs("<h2>What the CPUs ran</h2>\n", f);
	pics_html(f, p, 0, n, colors, "tl", s->seed);
	bounds_note(f, max);
	page_foot(f);
	sl_tl_colors_free(colors);
	free(tls);
	pics_free(p, n);
	return 0;
}

/* ---- experiments ---- */

int sl_html_exp_row(const struct sl_experiment *e, const char *label)
{
	for (int r = 0; r < e->nrows; r++)
		if (e->rows[r].kind == SL_ROW_DATA && (!label || !strcmp(e->rows[r].label, label)))
			return r;
	return -1;
}

/* Pictures of experiment r: one per column (policy), of row `label`
 * (NULL: the first data row); metric columns share one policy, so one
 * picture. */
static int exp_pics(const struct sl_exp_result *r, const char *label, int max, struct pic **p,
		    int *np, struct sl_err *err)
{
	const struct sl_experiment *e = r->exp;
	int row = sl_html_exp_row(e, label);
	int ncols = sl_exp_metric_columns(e) ? 1 : e->ncols;

	if (row < 0)
		return 0;
	for (int c = 0; c < ncols; c++) {
		const char *policy = sl_exp_metric_columns(e) ? e->policy : e->cols[c].policy;
		int before = r->sweep->ncells;
		int cell = sl_sweep_add(r->sweep, policy, e->rows[row].workload, err);
		if (cell < 0)
			return -1;
		if (cell >= before)	/* not a cell the experiment ran */
			return sl_fail_internal(err, "report: %s: no run of rows[%d] x columns[%d]",
						e->path, row, c);
		*p = sl_xrealloc(*p, sizeof(**p) * (size_t)(*np + 1));
		struct pic *x = &(*p)[(*np)++];
		memset(x, 0, sizeof(*x));
		snprintf(x->label, sizeof(x->label), "%s",
			 sl_exp_metric_columns(e) ? e->policy : e->cols[c].label);
		if (trace_pic(r->sweep, cell, max, x, err))
			return -1;
	}
	return 0;
}

static int count_timelines(const struct sl_exp_result *r, int n, const char *label)
{
	int k = 0;

	for (int i = 0; i < n; i++)
		if (sl_html_exp_row(r[i].exp, label) >= 0)
			k += sl_exp_metric_columns(r[i].exp) ? 1 : r[i].exp->ncols;
	return k;
}

static void exp_section(FILE *f, const struct sl_exp_result *r, const char *label,
			const struct pic *p, int from, int to, const struct sl_tl_colors *colors,
			int index)
{
	const struct sl_experiment *e = r->exp;
	struct printed pr;
	char idbase[16];

	fputs("<h2>", f);
	sl_html_escape(f, e->name);
	fputs(": ", f);
	sl_html_escape(f, e->title);
	fputs("</h2>\n<p class=\"note\">Source: ", f);
	sl_html_escape(f, e->source);
	fputs(". Machine ", f);
	sl_html_escape(f, r->sweep->machine.name);
	fputs(" (", f);
	sl_html_escape(f, r->sweep->machine.summary);
	fputs(").</p>\n", f);
	sl_out_exp_table(print_begin(&pr), r);
	print_end(f, &pr);
	fputs("<h3>Simulated beside published</h3>\n<p class=\"note\">Per row and column: ", f);
	if (e->form == SL_FORM_SPEEDUP)
		fputs("the speed-up (line) and the range of the paired repetitions' speed-ups "
		      "(band)", f);
	else if (e->form == SL_FORM_PCT_FIRST)
		fputs("the percentage of the first column (line), plus and minus its standard "
		      "deviation (band)", f);
	else
		fprintf(f, "the median of the %d repetition%s (line) and their minimum to maximum "
			"(band)", r->reps, r->reps == 1 ? "" : "s");
	fputs("; the published value(s) as diamonds beside it (a bar for a published "
	      "interval), red when the simulation misses it.</p>\n", f);
	sl_html_exp_charts(f, r);
	if (to > from) {
		fputs("<h3>What the CPUs ran: ", f);
		sl_html_escape(f, e->rows[sl_html_exp_row(e, label)].label);
		fputs("</h3>\n", f);
		snprintf(idbase, sizeof(idbase), "x%dt", index);
		pics_html(f, p, from, to, colors, idbase, r->sweep->seed);
	}
}

int sl_html_exp_page(FILE *f, const struct sl_exp_result *r, int n, const char *row,
		     const char *cmdline, struct sl_err *err)
{
	int max = per_timeline(count_timelines(r, n, row)), np = 0;
	int *first = sl_xcalloc((size_t)n + 1, sizeof(*first));
	struct pic *p = NULL;
	struct printed pr;

	for (int i = 0; i < n; i++) {
		first[i] = np;
		if (exp_pics(&r[i], row, max, &p, &np, err)) {
			pics_free(p, np);
			free(first);
			return -1;
		}
	}
	first[n] = np;
	struct sl_timeline **tls = sl_xcalloc((size_t)(np ? np : 1), sizeof(*tls));
	for (int i = 0; i < np; i++)
		tls[i] = p[i].tl;
	struct sl_tl_colors *colors = sl_tl_colors_new(tls, np);

	page_head(f, "schedlab reproduce report", cmdline);
	for (int i = 0; i < n; i++)
		exp_section(f, &r[i], row, p, first[i], first[i + 1], colors, i);
	if (n > 1) {
		fputs("<h2>Scoreboard</h2>\n", f);
		sl_out_exp_scoreboard(print_begin(&pr), r, n);
		print_end(f, &pr);
	}
	bounds_note(f, max);
	page_foot(f);
	sl_tl_colors_free(colors);
	free(tls);
	pics_free(p, np);
	free(first);
	return 0;
}
