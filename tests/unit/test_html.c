/*
 * test_html.c - report/html: escaping, the timeline's slice bound (the
 * window it shows stays complete on every CPU), the CDF's steps, and a
 * run's page (the table as `run` prints it, one timeline per policy, the
 * two CDFs, lanes that never overlap).
 */
#include <stdlib.h>
#include <string.h>

#include "base/hist.h"
#include "report/html.h"
#include "report/output.h"
#include "report/run.h"
#include "trace/perf.h"
#include "test.h"

/* What `write` prints, as a string (free it). */
struct mem {
	char *text;
	size_t len;
	FILE *f;
};

static FILE *mem_open(struct mem *m)
{
	m->text = NULL;
	m->f = open_memstream(&m->text, &m->len);
	return m->f;
}

static char *mem_close(struct mem *m)
{
	fclose(m->f);
	return m->text;
}

static int count(const char *s, const char *what)
{
	int n = 0;

	for (const char *p = strstr(s, what); p; p = strstr(p + 1, what))
		n++;
	return n;
}

SL_TEST(html_escape_covers_markup_quotes_and_non_ascii)
{
	struct mem m;
	sl_html_escape(mem_open(&m), "<a href='x'>&\"\x01\xc3\xa9");
	char *s = mem_close(&m);
	CHECKF(!strcmp(s, "&lt;a href=&#39;x&#39;&gt;&amp;&quot;???"), "got %s", s);
	free(s);
}

SL_TEST(timeline_bound_keeps_the_first_window_complete)
{
	struct sl_machine mach;
	struct sl_err err = { 0 };
	CHECK(!sl_machine_load(&mach, "p4dpe-2x2ht", &err));	/* 4 CPUs */
	struct sl_timeline *tl = sl_timeline_new(&mach, 3);
	sl_timeline_slice(tl, 0, "a", 1000, 0, 0, 10);
	sl_timeline_slice(tl, 1, "b", 1001, 0, 0, 12);
	sl_timeline_slice(tl, 2, "c", 1002, 0, 5, 15);
	CHECK(!sl_timeline_cut(tl) && sl_timeline_count(tl) == 3);
	/* the 4th does not fit: the window closes at its end (20), it is kept */
	sl_timeline_slice(tl, 3, "d", 1003, 0, 2, 20);
	CHECK(sl_timeline_cut(tl) && sl_timeline_window(tl) == 20);
	CHECK(sl_timeline_count(tl) == 4);
	sl_timeline_slice(tl, 0, "a", 1000, 0, 10, 30);	/* crosses 20: kept, cut */
	sl_timeline_slice(tl, 0, "a", 1000, 0, 30, 40);	/* after it on CPU 0: not */
	sl_timeline_slice(tl, 1, "b", 1001, 0, 25, 35);	/* starts after 20: not */
	sl_timeline_slice(tl, 1, "b", 1001, 0, 35, 45);
	sl_timeline_slice(tl, 2, "<i>&", 1002, 0, 15, 50);	/* crosses: kept, cut */
	sl_timeline_slice(tl, 3, "d", 1003, 0, 20, 60);	/* starts at 20: not */
	sl_timeline_slice(tl, 7, "bad cpu", 1004, 0, 0, 1);	/* ignored */
	sl_timeline_end(tl, 60);
	CHECK(sl_timeline_count(tl) == 6 && sl_timeline_window(tl) == 20);

	struct sl_tl_colors *c = sl_tl_colors_new(&tl, 1);
	struct mem m;
	sl_timeline_html(mem_open(&m), tl, c, "t0");
	char *s = mem_close(&m);
	CHECK(count(s, "<title>") == 6);		/* one per slice kept */
	CHECK(count(s, "class=\"idle\"") == 4);		/* a lane per CPU */
	CHECK(strstr(s, "<svg id=\"t0\"") != NULL);
	CHECK(strstr(s, "&lt;i&gt;&amp; 1002, CPU 2: 0.000-0.000 ms") != NULL);
	CHECK(strstr(s, "<i>") == NULL);
	CHECK(strstr(s, "more than 3 slices") != NULL);
	free(s);
	sl_tl_colors_free(c);
	sl_timeline_free(tl);

	/* within the bound: the window is the whole run, no note */
	tl = sl_timeline_new(&mach, 100);
	sl_timeline_slice(tl, 0, "a", 1000, 0, 0, 10);
	sl_timeline_end(tl, 50);
	CHECK(!sl_timeline_cut(tl) && sl_timeline_window(tl) == 50);
	c = sl_tl_colors_new(&tl, 1);
	sl_timeline_html(mem_open(&m), tl, c, "t1");
	s = mem_close(&m);
	CHECK(strstr(s, "more than") == NULL);
	free(s);
	sl_tl_colors_free(c);
	sl_timeline_free(tl);
}

SL_TEST(timeline_colors_rank_names_by_cpu_time)
{
	struct sl_machine mach;
	struct sl_err err = { 0 };
	CHECK(!sl_machine_load(&mach, "p4dpe-2x2ht", &err));
	struct sl_timeline *tl[2] = { sl_timeline_new(&mach, 100), sl_timeline_new(&mach, 100) };
	sl_timeline_slice(tl[0], 0, "small", 1000, 0, 0, 5);
	sl_timeline_slice(tl[0], 1, "big", 1001, 0, 0, 10);
	sl_timeline_slice(tl[1], 0, "big", 1001, 0, 0, 10);
	sl_timeline_slice(tl[1], 1, "migration/1", SL_TRACE_KTHREAD_PID + 1, 0, 10, 12);
	sl_timeline_slice(tl[1], 2, "hb", 1005, 2, 0, 1);	/* a latency group's task */
	struct sl_tl_colors *c = sl_tl_colors_new(tl, 2);
	struct mem m;
	sl_tl_colors_legend(mem_open(&m), c);
	char *s = mem_close(&m);
	/* big (20) before small (5); the migration threads share one swatch */
	CHECK(strstr(s, "k0\"></span>big") && strstr(s, "k1\"></span>small"));
	CHECK(strstr(s, "km\"></span>migration thread") && !strstr(s, "migration/1"));
	CHECK(strstr(s, "k2\"></span>hb (group 2)") != NULL);
	free(s);
	sl_tl_colors_free(c);
	sl_timeline_free(tl[0]);
	sl_timeline_free(tl[1]);
}

SL_TEST(html_cdf_steps_at_the_buckets)
{
	static struct sl_hist h;
	sl_hist_reset(&h);
	for (int i = 0; i < 3; i++)
		sl_hist_record(&h, 100);	/* 0.1 us, exact */
	sl_hist_record(&h, 1000000);		/* 1 ms */
	const struct sl_hist *hs[] = { &h };
	const char *labels[] = { "a<b" };
	struct mem m;
	sl_html_cdf(mem_open(&m), "t", hs, labels, 1);
	char *s = mem_close(&m);
	/* plot 26 + 234 high: three quarters of the waits reach y = 84.5, all y = 26 */
	CHECK(count(s, "<path class=\"cdfline\"") == 1);
	CHECK(strstr(s, " 84.5 L") != NULL && strstr(s, " 26.0\"") != NULL);
	CHECK(strstr(s, "a&lt;b: 4 waits") != NULL);
	CHECK(strstr(s, "100 ns") != NULL && strstr(s, "1 ms") != NULL);
	free(s);
}

SL_TEST(html_run_page_has_the_table_timelines_and_cdfs)
{
	struct sl_err err = { 0 };
	struct sl_sweep *s = sl_sweep_new("p4dpe-2x2ht", 2, 1, &err);
	CHECK(s != NULL);
	CHECK(sl_sweep_add(s, "ht", "kernbench:jobs=2,size=2,units=20", &err) == 0);
	CHECK(sl_sweep_add(s, "o1:version=2.5.33,label=o1 <&>",
			   "kernbench:jobs=2,size=2,units=20", &err) == 1);
	CHECK(!sl_sweep_run(s, 1, &err));
	struct mem table, page;
	sl_out_run_table(mem_open(&table), s);
	char *t = mem_close(&table);
	CHECKF(!sl_html_run_page(mem_open(&page), s, "schedlab report <x>", &err), "%s", err.msg);
	char *p = mem_close(&page);
	/* the table as run prints it (escaped: the label has < & >) */
	struct mem esc;
	sl_html_escape(mem_open(&esc), t);
	char *e = mem_close(&esc);
	CHECK(strstr(p, e) != NULL);
	CHECK(strstr(p, "o1 &lt;&amp;&gt;") != NULL && strstr(p, "o1 <&>") == NULL);
	CHECK(strstr(p, "schedlab report &lt;x&gt;") != NULL);
	CHECK(count(p, "<svg class=\"timeline\"") == 2);
	CHECK(strstr(p, "<svg id=\"tl0\"") && strstr(p, "<svg id=\"tl1\""));
	CHECK(count(p, "<svg class=\"cdf\"") == 2 && count(p, "class=\"cdfline\"") == 4);
	/* self-contained: nothing to fetch */
	CHECK(!strstr(p, "src=") && !strstr(p, "href=") && !strstr(p, "url("));
	CHECK(!strstr(p, "more than"));		/* a small run fits */
	free(t);
	free(e);
	free(p);
	sl_sweep_free(s);
}

/* The lanes the trace writer hands over never overlap on a CPU. */
struct lanes {
	sl_time last_end[64];
	int slices, overlaps;
};

static void on_slice(void *ctx, int cpu, const char *comm, int pid, int group, sl_time start,
		     sl_time end)
{
	struct lanes *l = ctx;
	(void)comm;
	(void)pid;
	(void)group;
	l->slices++;
	if (start < l->last_end[cpu] || end < start)
		l->overlaps++;
	l->last_end[cpu] = end;
}

SL_TEST(trace_slices_do_not_overlap)
{
	struct sl_err err = { 0 };
	struct sl_sweep *s = sl_sweep_new("p4dpe-2x2ht", 1, 1, &err);
	CHECK(sl_sweep_add(s, "o1:version=2.5.33", "kernbench:jobs=4,size=2,units=20", &err) == 0);
	struct lanes l = { { 0 }, 0, 0 };
	struct sl_trace_writer *w = sl_trace_writer_slices(&s->machine, on_slice, &l);
	struct sl_run_spec spec = {
		.machine = &s->machine, .policy = s->cells[0]->policy, .knobs = &s->cells[0]->knobs,
		.workload = s->cells[0]->workload, .params = &s->cells[0]->params, .seed = 1,
		.observer = sl_trace_writer_observer(w),
	};
	struct sl_metrics *m = calloc(1, sizeof(*m));
	CHECK(!sl_run_once(&spec, m, NULL, &err));
	CHECK(!sl_trace_writer_finish(w, (sl_time)(sl_metrics_find(m, "elapsed_s")->value * 1e9),
				      &err));
	CHECK(l.slices > 100 && l.overlaps == 0);
	sl_trace_writer_free(w);
	free(m);
	sl_sweep_free(s);
}
