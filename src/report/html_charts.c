/*
 * html_charts.c - the report's charts (html.h), as inline SVG:
 *   - latency CDFs: the fraction of waits at or below a time, a step per
 *     histogram bucket (base/hist.h: within 0.8 % of the true value), the
 *     time on a log scale in µs;
 *   - an experiment's rows: per column (policy) the simulated value with
 *     a band over the repetitions and the published value(s) beside it,
 *     one chart per section and unit, so that a swept parameter (jobs=1,
 *     2, 4, ...) reads left to right.
 */
#include "report/html.h"

#include <math.h>
#include <string.h>

/* Series colours (Okabe-Ito, for colour vision deficiencies). */
static const char *const series[] = {
	"#0072b2", "#d55e00", "#009e73", "#cc79a7", "#e69f00", "#56b4e9", "#000000", "#f0e442",
};
#define NSERIES ((int)(sizeof(series) / sizeof(series[0])))

static void legend(FILE *f, const char *const *labels, int n)
{
	fputs("<p class=\"legend\">", f);
	for (int i = 0; i < n; i++) {
		fprintf(f, "<span class=\"sw\" style=\"background:%s\"></span>", series[i % NSERIES]);
		sl_html_escape(f, labels[i]);
		fputc(' ', f);
	}
	fputs("</p>\n", f);
}

/* ---- CDFs ---- */

#define CDF_W 560
#define CDF_H 300
#define CDF_L 50	/* margins */
#define CDF_R 20
#define CDF_T 26
#define CDF_B 40

static const char *decade_label(int e, char *buf, size_t size)
{
	static const char *const unit[] = { "ns", "µs", "ms", "s" };
	int k = e + 3;		/* e: log10 of µs; k: of ns */
	int u = k / 3 > 3 ? 3 : k / 3;
	long v = 1;

	for (int i = 0; i < k - 3 * u; i++)
		v *= 10;
	snprintf(buf, size, "%ld %s", v, unit[u]);
	return buf;
}

void sl_html_cdf(FILE *f, const char *title, const struct sl_hist *const *h,
		 const char *const *labels, int n)
{
	double lo_us = INFINITY, hi_us = 0;
	int pw = CDF_W - CDF_L - CDF_R, ph = CDF_H - CDF_T - CDF_B;
	char buf[32];

	for (int i = 0; i < n; i++) {
		if (!h[i]->count)
			continue;
		for (unsigned b = 0; b < SL_HIST_BUCKETS; b++)
			if (h[i]->bucket[b] && sl_hist_bucket_high(b) > 0) {
				double us = (double)sl_hist_bucket_high(b) / 1e3;
				lo_us = us < lo_us ? us : lo_us;
				break;
			}
		hi_us = (double)h[i]->max / 1e3 > hi_us ? (double)h[i]->max / 1e3 : hi_us;
	}
	int e0 = isfinite(lo_us) ? (int)floor(log10(lo_us)) : 0;
	int e1 = hi_us > 0 ? (int)ceil(log10(hi_us)) : 1;
	e0 = e0 < -3 ? -3 : e0;
	e1 = e1 <= e0 ? e0 + 1 : e1;
	e1 = e1 > 7 ? 7 : e1;	/* 10 s */
	e0 = e0 >= e1 ? e1 - 1 : e0;

	fprintf(f, "<svg class=\"cdf\" viewBox=\"0 0 %d %d\" width=\"%d\" height=\"%d\" "
		"xmlns=\"http://www.w3.org/2000/svg\">\n<text class=\"ttl\" x=\"%d\" y=\"16\">",
		CDF_W, CDF_H, CDF_W, CDF_H, CDF_L);
	sl_html_escape(f, title);
	fputs("</text>\n", f);
	for (int e = e0; e <= e1; e++) {
		double x = CDF_L + (double)pw * (e - e0) / (e1 - e0);
		fprintf(f, "<line class=\"grid\" x1=\"%.1f\" y1=\"%d\" x2=\"%.1f\" y2=\"%d\"/>"
			"<text class=\"tk\" x=\"%.1f\" y=\"%d\">%s%s</text>\n",
			x, CDF_T, x, CDF_T + ph, x, CDF_T + ph + 14, e == e0 ? "&#8804;" : "",
			decade_label(e, buf, sizeof(buf)));
	}
	static const double yt[] = { 0, 0.25, 0.5, 0.75, 0.9, 1 };
	for (size_t k = 0; k < sizeof(yt) / sizeof(yt[0]); k++) {
		double y = CDF_T + ph * (1 - yt[k]);
		fprintf(f, "<line class=\"grid\" x1=\"%d\" y1=\"%.1f\" x2=\"%d\" y2=\"%.1f\"/>"
			"<text class=\"tky\" x=\"%d\" y=\"%.1f\">%g</text>\n",
			CDF_L, y, CDF_L + pw, y, CDF_L - 4, y + 4, yt[k]);
	}
	/* p99, labelled at the right: the tail the table's p99 reads */
	fprintf(f, "<line class=\"grid p99\" x1=\"%d\" y1=\"%.1f\" x2=\"%d\" y2=\"%.1f\"/>"
		"<text class=\"tk\" x=\"%d\" y=\"%.1f\">p99</text>\n", CDF_L, CDF_T + ph * 0.01,
		CDF_L + pw, CDF_T + ph * 0.01, CDF_L + pw + 10, CDF_T + ph * 0.01 + 4);
	for (int i = 0; i < n; i++) {
		double cum = 0, yprev = CDF_T + ph;
		if (!h[i]->count)
			continue;
		fprintf(f, "<path class=\"cdfline\" stroke=\"%s\" d=\"M%d %.1f", series[i % NSERIES],
			CDF_L, yprev);
		for (unsigned b = 0; b < SL_HIST_BUCKETS; b++) {
			if (!h[i]->bucket[b])
				continue;
			uint64_t v = sl_hist_bucket_high(b);
			v = v < h[i]->max ? v : h[i]->max;
			double us = (double)v / 1e3, lx = us > 0 ? log10(us) : e0;
			lx = lx < e0 ? e0 : lx > e1 ? e1 : lx;
			double x = CDF_L + pw * (lx - e0) / (e1 - e0);
			cum += (double)h[i]->bucket[b];
			double y = CDF_T + ph * (1 - cum / (double)h[i]->count);
			fprintf(f, " L%.1f %.1f L%.1f %.1f", x, yprev, x, y);
			yprev = y;
		}
		fprintf(f, " L%d %.1f\"><title>", CDF_L + pw, yprev);
		sl_html_escape(f, labels[i]);
		fprintf(f, ": %llu waits</title></path>\n", (unsigned long long)h[i]->count);
	}
	fprintf(f, "<text class=\"tk\" x=\"%d\" y=\"%d\">wait (log scale); y: fraction of waits "
		"at or below it</text>\n</svg>\n", CDF_L + pw / 2, CDF_H - 6);
	const char *shown[64];
	int m = n < 64 ? n : 64;
	char names[64][160];
	for (int i = 0; i < m; i++) {
		snprintf(names[i], sizeof(names[i]), "%s%s", labels[i],
			 h[i]->count ? "" : " (no waits)");
		shown[i] = names[i];
	}
	legend(f, shown, m);
}

/* ---- an experiment's rows ---- */

#define EX_H 300
#define EX_T 26
#define EX_B 90		/* room for slanted row labels */
#define EX_L 100	/* room for the y labels and the first slanted row label */
#define EX_R 20

/* What a cell shows: its value and band, or false for none. */
static bool cell_span(const struct sl_exp_cell_result *x, double *v, double *lo, double *hi)
{
	if (x->derived) {
		*v = x->value;
		*lo = x->lo;
		*hi = x->hi;
	} else if (x->values) {
		*v = x->sim.median;
		*lo = x->sim.min;
		*hi = x->sim.max;
	} else {
		return false;
	}
	return isfinite(*v) && isfinite(*lo) && isfinite(*hi);
}

/* A round step for about five ticks over `span`. */
static double nice_step(double span)
{
	double p = pow(10, floor(log10(span / 5))), r = span / 5 / p;

	return p * (r < 1.5 ? 1 : r < 3.5 ? 2 : r < 7.5 ? 5 : 10);
}

static void exp_chart(FILE *f, const struct sl_exp_result *r, int from, int to,
		      const char *heading, const char *unit)
{
	const struct sl_experiment *e = r->exp;
	int nr = to - from, slot = 18, cat = e->ncols * slot + 24;
	int pw = nr * cat, width = EX_L + pw + EX_R, ph = EX_H - EX_T - EX_B;

	if (width < 420)	/* room for the title */
		width = 420;
	double ymin = INFINITY, ymax = -INFINITY, v, lo, hi;

	for (int row = from; row < to; row++)
		for (int c = 0; c < e->ncols; c++) {
			const struct sl_exp_cell *pub = &e->rows[row].cells[c];
			if (cell_span(sl_exp_cell(r, row, c), &v, &lo, &hi)) {
				ymin = fmin(ymin, lo);
				ymax = fmax(ymax, hi);
			}
			for (int k = 0; k < pub->npublished; k++) {
				ymin = fmin(ymin, pub->published[k]);
				ymax = fmax(ymax, pub->published[k]);
			}
		}
	if (!isfinite(ymin))
		return;
	if (ymax - ymin < 1e-9 * (fabs(ymax) + 1)) {
		ymin -= 1;
		ymax += 1;
	}
	double step = nice_step(ymax - ymin);
	ymin = floor(ymin / step) * step;
	ymax = ceil(ymax / step) * step;
#define EY(val) (EX_T + ph * (1 - ((val) - ymin) / (ymax - ymin)))

	fprintf(f, "<svg class=\"exp\" viewBox=\"0 0 %d %d\" width=\"%d\" height=\"%d\" "
		"xmlns=\"http://www.w3.org/2000/svg\">\n<text class=\"ttl\" x=\"%d\" y=\"16\">",
		width, EX_H, width, EX_H, EX_L);
	sl_html_escape(f, heading);
	fputs(" (", f);
	sl_html_escape(f, unit);
	fputs(")</text>\n", f);
	for (double y = ymin; y <= ymax + step / 2; y += step)
		fprintf(f, "<line class=\"grid\" x1=\"%d\" y1=\"%.1f\" x2=\"%d\" y2=\"%.1f\"/>"
			"<text class=\"tky\" x=\"%d\" y=\"%.1f\">%g</text>\n", EX_L, EY(y),
			EX_L + pw, EY(y), EX_L - 4, EY(y) + 4, fabs(y) < step / 1e6 ? 0 : y);
	for (int row = from; row < to; row++) {
		int x0 = EX_L + (row - from) * cat + 12;
		fprintf(f, "<text class=\"rowlbl\" transform=\"translate(%d,%d) rotate(-30)\">",
			x0 + e->ncols * slot / 2, EX_T + ph + 14);
		sl_html_escape(f, e->rows[row].label);
		fputs("</text>\n", f);
		for (int c = 0; c < e->ncols; c++) {
			const struct sl_exp_cell_result *x = sl_exp_cell(r, row, c);
			const struct sl_exp_cell *pub = &e->rows[row].cells[c];
			double xc = x0 + c * slot + 5;
			if (cell_span(x, &v, &lo, &hi)) {
				fprintf(f, "<g class=\"cell\"><rect class=\"band\" fill=\"%s\" x=\"%.1f\" "
					"y=\"%.1f\" width=\"8\" height=\"%.1f\"/><line class=\"mid\" "
					"stroke=\"%s\" x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\"/>"
					"<title>", series[c % NSERIES], xc - 4, EY(hi),
					fmax(EY(lo) - EY(hi), 1), series[c % NSERIES], xc - 6, EY(v),
					xc + 6, EY(v));
				sl_html_escape(f, e->rows[row].label);
				fputs(", ", f);
				sl_html_escape(f, e->cols[c].label);
				fprintf(f, ": %.4g (band %.4g to %.4g)</title></g>\n", v, lo, hi);
			}
			if (pub->interval && pub->npublished == 2) {
				fprintf(f, "<line class=\"pub%s\" x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" "
					"y2=\"%.1f\"><title>published: %g to %g</title></line>\n",
					x->miss ? " miss" : "", xc + 8, EY(pub->published[0]), xc + 8,
					EY(pub->published[1]), pub->published[0], pub->published[1]);
				continue;
			}
			for (int k = 0; k < pub->npublished; k++) {
				double py = EY(pub->published[k]);
				fprintf(f, "<path class=\"pub%s\" d=\"M%.1f %.1f l4 4 l-4 4 l-4 -4 z\">"
					"<title>published: %g%s</title></path>\n", x->miss ? " miss" : "",
					xc + 8, py - 4, pub->published[k],
					x->miss ? " (outside the tolerance)" : "");
			}
		}
	}
	fputs("</svg>\n", f);
#undef EY
}

void sl_html_exp_charts(FILE *f, const struct sl_exp_result *r)
{
	const struct sl_experiment *e = r->exp;
	const char *heading = NULL;	/* the section's, else the metric's name */
	int from = -1;
	char unit[24] = "", u[24];

	for (int row = 0; row <= e->nrows; row++) {
		bool end = row == e->nrows || e->rows[row].kind == SL_ROW_SECTION;
		if (!end) {
			const struct sl_exp_cell_result *x = sl_exp_cell(r, row, 0);
			snprintf(u, sizeof(u), "%s", x->derived ? "%" : x->unit);
			end = from >= 0 && strcmp(u, unit);
		}
		if (end && from >= 0) {
			const char *metric = e->rows[from].metric ? e->rows[from].metric : "value";
			exp_chart(f, r, from, row, heading ? heading : metric, unit);
			from = -1;
		}
		if (row == e->nrows)
			break;
		if (e->rows[row].kind == SL_ROW_SECTION) {
			heading = e->rows[row].label;
			continue;
		}
		if (from < 0) {
			from = row;
			snprintf(unit, sizeof(unit), "%s", u);
		}
	}
	const char *labels[64];
	int n = e->ncols < 64 ? e->ncols : 64;
	for (int c = 0; c < n; c++)
		labels[c] = e->cols[c].label;
	legend(f, labels, n);
}
