/*
 * html_timeline.c - the report's per-CPU timeline (html.h): what each
 * logical CPU ran, as a Gantt chart with one lane per CPU, grouped by
 * node and core, a colour per task name, idle as the bare lane.
 *
 * The slices come from the trace writer (trace/perf.c, SL_TRACE_SLICES),
 * which rebuilds each CPU's lane from the observer's callbacks, the
 * migration thread included.  Memory is bounded: after max_slices the
 * window closes at the end W of the first slice that did not fit; as
 * slices come in order of their end, every later one ends at or after W,
 * so keeping each CPU's first later slice (cut at W) makes [0, W]
 * complete on every CPU.  That costs at most one slice per CPU more.
 */
#include "report/html.h"

#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "trace/perf.h"

struct tl_slice {
	sl_time start, end;
	int cpu, pid, comm;	/* comm: index into the timeline's names */
};

struct tl_comm {
	char name[40];		/* comm, and " (group N)" */
	sl_time ns;		/* CPU time of the slices kept */
};

#define TL_HASH 512	/* > 2 x SL_TL_MAX_COMMS: open addressing stays short */

struct sl_timeline {
	const struct sl_machine *machine;
	int max, n, cap;
	struct tl_slice *s;
	bool cut;
	sl_time window, end;
	bool *crossed;		/* after the cut: the CPU's slice across W was seen */
	int ncomm;
	struct tl_comm comm[SL_TL_MAX_COMMS + 1];	/* the last: "other" */
	short hash[TL_HASH];	/* comm index + 1, 0 = empty */
};

#define TL_OTHER SL_TL_MAX_COMMS
#define TL_MIGRATION_NAME "migration thread"

struct sl_timeline *sl_timeline_new(const struct sl_machine *machine, int max_slices)
{
	struct sl_timeline *tl = sl_xcalloc(1, sizeof(*tl));

	tl->machine = machine;
	tl->max = max_slices > 0 ? max_slices : 1;
	tl->crossed = sl_xcalloc((size_t)machine->topo.ncpus, sizeof(*tl->crossed));
	snprintf(tl->comm[TL_OTHER].name, sizeof(tl->comm[TL_OTHER].name), "other");
	return tl;
}

void sl_timeline_free(struct sl_timeline *tl)
{
	if (!tl)
		return;
	free(tl->s);
	free(tl->crossed);
	free(tl);
}

/* The index of a task name and group (the migration threads share one). */
static int intern(struct sl_timeline *tl, const char *comm, int pid, int group)
{
	char name[sizeof(tl->comm[0].name)];
	uint32_t h = 2166136261u;	/* FNV-1a */

	if (pid >= SL_TRACE_KTHREAD_PID && pid < SL_TRACE_PID_BASE && !strncmp(comm, "migration/", 10))
		snprintf(name, sizeof(name), "%s", TL_MIGRATION_NAME);
	else if (group > 0)
		snprintf(name, sizeof(name), "%.16s (group %d)", comm, group);
	else
		snprintf(name, sizeof(name), "%.16s", comm);
	for (const unsigned char *p = (const unsigned char *)name; *p; p++)
		h = (h ^ *p) * 16777619u;
	for (unsigned i = h % TL_HASH;; i = (i + 1) % TL_HASH) {
		if (!tl->hash[i]) {
			if (tl->ncomm == SL_TL_MAX_COMMS)
				return TL_OTHER;
			memcpy(tl->comm[tl->ncomm].name, name, sizeof(name));
			tl->hash[i] = (short)++tl->ncomm;
			return tl->ncomm - 1;
		}
		if (!strcmp(tl->comm[tl->hash[i] - 1].name, name))
			return tl->hash[i] - 1;
	}
}

static void keep(struct sl_timeline *tl, int cpu, const char *comm, int pid, int group,
		 sl_time start, sl_time end)
{
	if (tl->n == tl->cap) {
		tl->cap = tl->cap ? 2 * tl->cap : 1024;
		tl->s = sl_xrealloc(tl->s, sizeof(*tl->s) * (size_t)tl->cap);
	}
	int k = intern(tl, comm, pid, group);
	tl->s[tl->n++] = (struct tl_slice){ start, end, cpu, pid, k };
	tl->comm[k].ns += end - start;
}

void sl_timeline_slice(void *ctx, int cpu, const char *comm, int pid, int group, sl_time start,
		       sl_time end)
{
	struct sl_timeline *tl = ctx;

	if (cpu < 0 || cpu >= tl->machine->topo.ncpus || end <= start)
		return;
	if (!tl->cut && tl->n < tl->max) {
		keep(tl, cpu, comm, pid, group, start, end);
		return;
	}
	if (!tl->cut) {
		tl->cut = true;
		tl->window = end;
	}
	if (tl->crossed[cpu])
		return;
	tl->crossed[cpu] = true;
	if (start < tl->window)
		keep(tl, cpu, comm, pid, group, start, end < tl->window ? end : tl->window);
}

void sl_timeline_end(struct sl_timeline *tl, sl_time end)
{
	tl->end = end;
	if (!tl->cut)
		tl->window = end;
}

int sl_timeline_count(const struct sl_timeline *tl)
{
	return tl->n;
}

bool sl_timeline_cut(const struct sl_timeline *tl)
{
	return tl->cut;
}

sl_time sl_timeline_window(const struct sl_timeline *tl)
{
	return tl->window;
}

/* ---- colours ---- */

/* Tableau 10: distinct in print and for most colour vision. */
static const char *const palette[] = {
	"#4e79a7", "#f28e2b", "#e15759", "#76b7b2", "#59a14f",
	"#edc948", "#b07aa1", "#ff9da7", "#9c755f", "#86bcb6",
};
#define NPALETTE ((int)(sizeof(palette) / sizeof(palette[0])))
#define COLOR_OTHER "#bab0ac"
#define COLOR_MIGRATION "#222222"

struct tl_named {
	const char *name;
	sl_time ns;
};

struct sl_tl_colors {
	int n;
	struct tl_named *names;	/* ranked by CPU time; colour i for i < NPALETTE */
};

static int by_time(const void *a, const void *b)
{
	const struct tl_named *x = a, *y = b;

	if (x->ns != y->ns)
		return x->ns < y->ns ? 1 : -1;
	return strcmp(x->name, y->name);
}

struct sl_tl_colors *sl_tl_colors_new(struct sl_timeline *const *tl, int n)
{
	struct sl_tl_colors *c = sl_xcalloc(1, sizeof(*c));
	int cap = 0;

	for (int i = 0; i < n; i++)
		cap += tl[i]->ncomm;
	c->names = sl_xcalloc((size_t)(cap ? cap : 1), sizeof(*c->names));
	for (int i = 0; i < n; i++)
		for (int k = 0; k < tl[i]->ncomm; k++) {
			const struct tl_comm *m = &tl[i]->comm[k];
			int j = 0;
			while (j < c->n && strcmp(c->names[j].name, m->name))
				j++;
			if (j == c->n)
				c->names[c->n++] = (struct tl_named){ m->name, 0 };
			c->names[j].ns += m->ns;
		}
	qsort(c->names, (size_t)c->n, sizeof(*c->names), by_time);
	return c;
}

void sl_tl_colors_free(struct sl_tl_colors *c)
{
	if (!c)
		return;
	free(c->names);
	free(c);
}

/* The CSS class of a name: "kN" (palette), "kx" (other), "km" (migration). */
static const char *color_class(const struct sl_tl_colors *c, const char *name, char *buf,
			       size_t size)
{
	if (!strcmp(name, TL_MIGRATION_NAME))
		return "km";
	for (int i = 0, k = 0; i < c->n && k < NPALETTE; i++) {
		if (!strcmp(c->names[i].name, TL_MIGRATION_NAME))
			continue;	/* black, not a palette colour */
		if (!strcmp(c->names[i].name, name)) {
			snprintf(buf, size, "k%d", k);
			return buf;
		}
		k++;
	}
	return "kx";
}

void sl_tl_colors_css(FILE *f)
{
	for (int i = 0; i < NPALETTE; i++)
		fprintf(f, ".k%d{fill:%s;background:%s}\n", i, palette[i], palette[i]);
	fprintf(f, ".kx{fill:%s;background:%s}\n.km{fill:%s;background:%s}\n", COLOR_OTHER,
		COLOR_OTHER, COLOR_MIGRATION, COLOR_MIGRATION);
}

void sl_tl_colors_legend(FILE *f, const struct sl_tl_colors *c)
{
	char buf[16];
	bool other = false, migration = false;

	fputs("<p class=\"legend\">", f);
	for (int i = 0; i < c->n; i++) {
		const char *k = color_class(c, c->names[i].name, buf, sizeof(buf));
		if (!strcmp(k, "km")) {
			migration = true;
			continue;
		}
		if (!strcmp(k, "kx")) {
			other = true;
			continue;
		}
		fprintf(f, "<span class=\"sw %s\"></span>", k);
		sl_html_escape(f, c->names[i].name);
		fputc(' ', f);
	}
	if (other)
		fputs("<span class=\"sw kx\"></span>other tasks ", f);
	if (migration)
		fputs("<span class=\"sw km\"></span>migration thread ", f);
	fputs("<span class=\"sw idle\"></span>idle</p>\n", f);
}

/* ---- drawing ---- */

#define TL_LABEL_W 150	/* node / core / CPU labels */
#define TL_CHART_W 900
#define TL_LANE_H 14
#define TL_LANE_GAP 2
#define TL_CORE_GAP 4
#define TL_NODE_GAP 10
#define TL_TICKS 10

/* Lanes in node, core, thread order: order[i] is the CPU of lane i. */
static void lane_order(const struct sl_topo *t, int *order)
{
	int n = 0;

	for (int node = 0; node < t->nnodes; node++)
		for (int core = 0; core < t->ncores; core++)
			for (int c = 0; c < t->ncpus; c++)
				if (t->cpu_node[c] == node && t->cpu_core[c] == core)
					order[n++] = c;
	/* (a CPU whose ids are out of range would be missing: add it) */
	for (int c = 0; c < t->ncpus && n < t->ncpus; c++) {
		bool seen = false;
		for (int i = 0; i < n; i++)
			seen |= order[i] == c;
		if (!seen)
			order[n++] = c;
	}
}

/* The time label of an axis tick: as the zoom script writes it. */
static void tick_label(char *buf, size_t size, double ms, double span_ms)
{
	if (span_ms >= 1000)
		snprintf(buf, size, "%.3f s", ms / 1000);
	else
		snprintf(buf, size, "%.3f ms", ms);
}

static double ms_of(sl_time ns)
{
	return (double)ns / 1e6;
}

void sl_timeline_html(FILE *f, const struct sl_timeline *tl, const struct sl_tl_colors *c,
		      const char *id)
{
	const struct sl_topo *t = &tl->machine->topo;
	int *order = sl_xcalloc((size_t)t->ncpus, sizeof(*order));
	int *lane_y = sl_xcalloc((size_t)t->ncpus, sizeof(*lane_y));
	double span = ms_of(tl->window) > 0 ? ms_of(tl->window) : 1e-3;
	int y = 0, top = 4;
	char buf[64];

	lane_order(t, order);
	for (int i = 0; i < t->ncpus; i++) {
		int cpu = order[i];
		if (i) {
			int prev = order[i - 1];
			y += TL_LANE_GAP;
			if (t->cpu_node[prev] != t->cpu_node[cpu])
				y += TL_NODE_GAP;
			else if (t->cpu_core[prev] != t->cpu_core[cpu])
				y += TL_CORE_GAP;
		}
		lane_y[cpu] = y;
		y += TL_LANE_H;
	}
	int height = y, total_h = top + height + 22;

	fprintf(f, "<div class=\"zoom\">zoom: <button onclick=\"tz('%s','all')\">whole</button>"
		"<button onclick=\"tz('%s','in')\">in</button>"
		"<button onclick=\"tz('%s','out')\">out</button>"
		"<button onclick=\"tz('%s','l')\">&#9664;</button>"
		"<button onclick=\"tz('%s','r')\">&#9654;</button> (or click the chart to zoom in "
		"there)</div>\n", id, id, id, id, id);
	fprintf(f, "<svg class=\"timeline\" viewBox=\"0 0 %d %d\" width=\"%d\" height=\"%d\" "
		"xmlns=\"http://www.w3.org/2000/svg\">\n",
		TL_LABEL_W + TL_CHART_W + 40, total_h, TL_LABEL_W + TL_CHART_W + 40, total_h);
	/* labels: node and core at their first lane, every CPU at its own */
	for (int i = 0; i < t->ncpus; i++) {
		int cpu = order[i], ly = top + lane_y[cpu] + TL_LANE_H - 3;
		if (!i || t->cpu_node[order[i - 1]] != t->cpu_node[cpu])
			fprintf(f, "<text x=\"2\" y=\"%d\" class=\"lbl\">node %d</text>", ly,
				t->cpu_node[cpu]);
		if (!i || t->cpu_core[order[i - 1]] != t->cpu_core[cpu])
			fprintf(f, "<text x=\"52\" y=\"%d\" class=\"lbl\">core %d</text>", ly,
				t->cpu_core[cpu]);
		fprintf(f, "<text x=\"102\" y=\"%d\" class=\"lbl\">CPU %d</text>\n", ly, cpu);
	}
	/* the lanes: the inner SVG's x is time in ms, its y the outer's */
	fprintf(f, "<svg id=\"%s\" class=\"lanes\" x=\"%d\" y=\"%d\" width=\"%d\" height=\"%d\" "
		"viewBox=\"0 0 %.6f %d\" preserveAspectRatio=\"none\" data-t=\"%.6f\" "
		"onclick=\"tc(evt,'%s')\">\n",
		id, TL_LABEL_W, top, TL_CHART_W, height, span, height, span, id);
	for (int cpu = 0; cpu < t->ncpus; cpu++)
		fprintf(f, "<rect class=\"idle\" x=\"0\" y=\"%d\" width=\"%.6f\" height=\"%d\"/>\n",
			lane_y[cpu], span, TL_LANE_H);
	for (int i = 0; i < tl->n; i++) {
		const struct tl_slice *s = &tl->s[i];
		const char *name = tl->comm[s->comm].name;
		double x = ms_of(s->start), w = ms_of(s->end - s->start);
		fprintf(f, "<rect class=\"%s\" x=\"%.3f\" y=\"%d\" width=\"%.3f\" height=\"%d\">"
			"<title>", color_class(c, name, buf, sizeof(buf)), x, lane_y[s->cpu], w,
			TL_LANE_H);
		sl_html_escape(f, name);
		fprintf(f, " %d, CPU %d: %.3f-%.3f ms</title></rect>\n", s->pid, s->cpu, x,
			ms_of(s->end));
	}
	fputs("</svg>\n", f);
	/* the axis: labels at fixed places, rewritten by the zoom script */
	for (int k = 0; k <= TL_TICKS; k++) {
		int x = TL_LABEL_W + TL_CHART_W * k / TL_TICKS;
		tick_label(buf, sizeof(buf), span * k / TL_TICKS, span);
		fprintf(f, "<line class=\"grid\" x1=\"%d\" y1=\"%d\" x2=\"%d\" y2=\"%d\"/>"
			"<text class=\"tk tk-%s\" x=\"%d\" y=\"%d\">%s</text>\n",
			x, top, x, top + height + 4, id, x, top + height + 16, buf);
	}
	fputs("</svg>\n", f);
	if (tl->cut)
		fprintf(f, "<p class=\"note\">The run had more than %d slices (a task's stretch on a "
			"CPU): this timeline shows its first %.3f ms of %.3f ms, complete on every "
			"CPU.</p>\n", tl->max, ms_of(tl->window), ms_of(tl->end));
	free(order);
	free(lane_y);
}
