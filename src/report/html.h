/*
 * html.h - the HTML report (`schedlab report`, `run --html FILE`): one
 * self-contained page (inline CSS and SVG, a few lines of inline script
 * for zooming, nothing fetched) that shows what a run or an experiment
 * printed and what the scheduler did.  docs/report.md describes the page.
 *
 *   html_page.c      the page: the tables as the command prints them, the
 *                    pictures of one traced repetition per policy, notes;
 *   html_timeline.c  a run's per-CPU lanes, collected in bounded memory
 *                    from the trace writer's slices, drawn as a Gantt chart;
 *   html_charts.c    latency CDFs, and an experiment's rows per policy with
 *                    min-max bands and the published values as markers.
 *
 * Every string that comes from input (task names, labels, experiment
 * text, the command line) goes through sl_html_escape().
 */
#ifndef SL_REPORT_HTML_H
#define SL_REPORT_HTML_H

#include <stdbool.h>
#include <stdio.h>

#include "base/err.h"
#include "base/hist.h"
#include "base/units.h"
#include "hw/machine.h"
#include "report/reproduce.h"
#include "report/sweep.h"

/* Slices (one task's stretch on one CPU) the timelines of one page keep in
 * all; each of a page's timelines gets an equal share, at least
 * SL_HTML_MIN_SLICES. */
#define SL_HTML_SLICE_BUDGET 40000
#define SL_HTML_MIN_SLICES 2000
/* Distinct task names a timeline tells apart; the rest are "other".  A
 * task in a latency group (hackbench's senders, 1, and receivers, 2) is
 * told apart by it: "hackbench (group 1)". */
#define SL_TL_MAX_COMMS 256

/* Write s with & < > " ' as entities; bytes >= 0x80 and controls as '?'
 * (task names are ASCII: never emit invalid UTF-8). */
void sl_html_escape(FILE *f, const char *s);

/* ---- the timeline (html_timeline.c) ---- */

struct sl_timeline;

/* A timeline of a run on `machine` (kept by pointer) that keeps at most
 * `max_slices` slices: once more come, it shows the first window of the
 * run those cover, [0, sl_timeline_window()], complete on every CPU. */
struct sl_timeline *sl_timeline_new(const struct sl_machine *machine, int max_slices);
/* A slice, as sl_trace_slice_fn (trace/perf.h): called in order of `end`. */
void sl_timeline_slice(void *tl, int cpu, const char *comm, int pid, int group, sl_time start,
		       sl_time end);
/* The run ended at `end`. */
void sl_timeline_end(struct sl_timeline *tl, sl_time end);
int sl_timeline_count(const struct sl_timeline *tl);
/* Whether slices were left out, and the end of the window shown (the
 * run's end when none were). */
bool sl_timeline_cut(const struct sl_timeline *tl);
sl_time sl_timeline_window(const struct sl_timeline *tl);
void sl_timeline_free(struct sl_timeline *tl);

/* Colours: task names ranked by CPU time over every timeline of a page,
 * the first ones with a colour of their own. */
struct sl_tl_colors;
struct sl_tl_colors *sl_tl_colors_new(struct sl_timeline *const *tl, int n);
void sl_tl_colors_free(struct sl_tl_colors *c);
/* The CSS of the colour classes, and the legend (HTML). */
void sl_tl_colors_css(FILE *f);
void sl_tl_colors_legend(FILE *f, const struct sl_tl_colors *c);

/* The timeline as an HTML block (zoom buttons, SVG, a note when cut);
 * `id` is unique in the page (letters and digits). */
void sl_timeline_html(FILE *f, const struct sl_timeline *tl, const struct sl_tl_colors *c,
		      const char *id);

/* ---- charts (html_charts.c) ---- */

/* Step CDFs of n histograms (ns) on one chart, x in µs on a log scale. */
void sl_html_cdf(FILE *f, const char *title, const struct sl_hist *const *h,
		 const char *const *labels, int n);
/* An experiment's rows, one chart per section and unit: per column the
 * simulated value with its band, the published values beside it. */
void sl_html_exp_charts(FILE *f, const struct sl_exp_result *r);

/* ---- pages (html_page.c) ---- */

/* The page of `run`: `s` has run (sl_sweep_run); the pictures are of
 * repetition 0 of each policy, run again with an observer (and checked
 * to give the same metrics).  `cmdline` is shown as given.  -1 + err. */
int sl_html_run_page(FILE *f, struct sl_sweep *s, const char *cmdline, struct sl_err *err);
/* The page of `reproduce` for n experiment results (a scoreboard with
 * n > 1); pictures of each one's data row labelled `row` (NULL: its
 * first data row). */
int sl_html_exp_page(FILE *f, const struct sl_exp_result *r, int n, const char *row,
		     const char *cmdline, struct sl_err *err);
/* The data row of `e` labelled `label` (NULL: the first), or -1. */
int sl_html_exp_row(const struct sl_experiment *e, const char *label);

#endif
