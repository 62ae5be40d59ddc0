/*
 * trace/lines.h - perf script and ftrace text, line by line: the reader and
 * the field parsers that `trace import` (trace/import.c) and `trace stats`
 * (trace/stats.c) share.
 *
 * A line is "COMM TID [CPU] SECONDS: EVENT: FIELDS" (perf script --ns) or
 * "COMM-PID (TGID) [CPU] FLAGS SECONDS: EVENT: FIELDS" (ftrace's trace
 * file); fields are the TP_printk text of the event (key=value ...).  Every
 * error names the file and line and says what was expected.
 */
#ifndef SL_TRACE_LINES_H
#define SL_TRACE_LINES_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "base/err.h"
#include "base/units.h"

#define SL_TRACE_COMM 16		/* TASK_COMM_LEN */
#define SL_TRACE_MAX_CPU 65535
#define SL_TRACE_MAX_LINE 65536		/* bytes of one line */

/* The input being read: its name and line, and where errors go. */
struct sl_trace_src {
	const char *path;
	long lineno;
	struct sl_err *err;
	/* the event lines parsed so far: sl_trace_parse_line keeps them in
	 * time order and within SL_TIME_HORIZON of the first (one recording:
	 * sums of runtimes over longer spans overflowed) */
	bool seen;
	sl_time first, last;
};

/* One parsed event line; `event` (without "sched:") and `fields` point
 * into the line's text. */
struct sl_trace_line {
	char comm[SL_TRACE_COMM];
	int pid;		/* -1: perf's unknown */
	int tgid;		/* its thread group (perf's PID of PID/TID,
				 * ftrace's (TGID)); -1: not shown */
	int cpu;
	sl_time ts;
	char *event;
	char *fields;
};

/* prev_state: 'R' preempted, 'X'/'Z'/'x' dead, else asleep ('D' if any). */
enum sl_trace_prev { SL_PREV_PREEMPTED, SL_PREV_SLEEP, SL_PREV_SLEEP_D, SL_PREV_DEAD };

/* "path:line: what" as an input error; returns -1. */
int sl_trace_bad_line(struct sl_trace_src *m, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

/* Read `in` a line at a time (at most SL_TRACE_MAX_LINE bytes; a longer
 * line or a NUL byte is an input error): each event line (not blank, not a
 * '#' comment) goes to on_line(arg, text), which may modify it; schedlab's
 * end-of-run comment sets *end_ts.  0, or the first non-zero on_line
 * returned, or -1 with m->err set. */
int sl_trace_read(FILE *in, struct sl_trace_src *m, int (*on_line)(void *arg, char *text),
		  void *arg, sl_time *end_ts);

/* Parse the part of a line before its fields.  0, or -1 with err set. */
int sl_trace_parse_line(struct sl_trace_src *m, char *s, struct sl_trace_line *l);
/* The fields of a line: key=INTEGER in [lo, hi]; key=COMM (which may hold
 * blanks) up to the blank before next=; prev_state=.  0, or -1 with err. */
int sl_trace_field_int(struct sl_trace_src *m, const struct sl_trace_line *l, const char *key,
		       long lo, long hi, long *out);
int sl_trace_field_comm(struct sl_trace_src *m, const struct sl_trace_line *l, const char *key,
			const char *next, char out[SL_TRACE_COMM]);
int sl_trace_field_state(struct sl_trace_src *m, const struct sl_trace_line *l,
			 enum sl_trace_prev *out);

/* Small pieces the readers share: the value after "key=" at the start of
 * the fields or after a blank (NULL: none), ... */
const char *sl_trace_find_key(const char *f, const char *key);
bool sl_trace_to_time(const char *s, const char *e, sl_time *out);	/* "SECONDS[.FRACTION]" */
const char *sl_trace_skip_blank(const char *p);
void sl_trace_copy_comm(char out[SL_TRACE_COMM], const char *s, size_t len);

#endif
