/*
 * trace/lines.c - perf script and ftrace text, line by line (see
 * trace/lines.h).  Nothing is allocated per line; a line is read into one
 * buffer of SL_TRACE_MAX_LINE bytes.
 */
#include "trace/lines.h"

#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "trace/perf.h"	/* SL_TRACE_END_COMMENT */

void sl_trace_copy_comm(char out[SL_TRACE_COMM], const char *s, size_t len)
{
	if (len > SL_TRACE_COMM - 1)
		len = SL_TRACE_COMM - 1;
	memcpy(out, s, len);
	out[len] = 0;
}

int sl_trace_bad_line(struct sl_trace_src *m, const char *fmt, ...)
{
	char what[384];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(what, sizeof(what), fmt, ap);
	va_end(ap);
	return sl_fail(m->err, "%s:%ld: %s", m->path, m->lineno, what);
}

static bool all_digits(const char *s, const char *e)
{
	if (s >= e)
		return false;
	for (; s < e; s++)
		if (!isdigit((unsigned char)*s))
			return false;
	return true;
}

/* "TID" or "PID/TID" (perf's pid column). */
static bool pid_token(const char *s, const char *e)
{
	const char *slash = memchr(s, '/', (size_t)(e - s));
	if (slash)
		return all_digits(s, slash) && all_digits(slash + 1, e);
	return all_digits(s, e);
}

static bool to_int(const char *s, const char *e, long lo, long hi, long *out)
{
	bool neg = s < e && *s == '-';
	long v = 0;

	if (!all_digits(s + neg, e) || e - s > 12)
		return false;
	for (const char *p = s + neg; p < e; p++)
		v = v * 10 + (*p - '0');
	v = neg ? -v : v;
	if (v < lo || v > hi)
		return false;
	*out = v;
	return true;
}

/* "SECONDS[.FRACTION]" to ns; digits past 9 decimals are dropped. */
bool sl_trace_to_time(const char *s, const char *e, sl_time *out)
{
	const char *dot = memchr(s, '.', (size_t)(e - s));
	const char *ie = dot ? dot : e;
	sl_time sec = 0, frac = 0;
	int nfrac = 0;

	if (!all_digits(s, ie) || ie - s > 10 || (dot && !all_digits(dot + 1, e)))
		return false;
	for (const char *p = s; p < ie; p++)
		sec = sec * 10 + (*p - '0');
	/* sl_time holds about 292 years of ns; a clock past that is no trace */
	if (sec > (INT64_MAX - SL_SEC) / SL_SEC)
		return false;
	if (dot)
		for (const char *p = dot + 1; p < e && nfrac < 9; p++, nfrac++)
			frac = frac * 10 + (*p - '0');
	for (; nfrac < 9; nfrac++)
		frac *= 10;
	*out = sec * SL_SEC + frac;
	return true;
}

const char *sl_trace_skip_blank(const char *p)
{
	while (*p == ' ' || *p == '\t')
		p++;
	return p;
}

static const char *token_end(const char *p)
{
	while (*p && *p != ' ' && *p != '\t')
		p++;
	return p;
}

/* The first " [CPU] " of the line. */
static char *find_cpu(char *p)
{
	for (char *q = p; (q = strchr(q, '[')); q++) {
		if (q == p || (q[-1] != ' ' && q[-1] != '\t'))
			continue;
		char *r = q + 1;
		while (isdigit((unsigned char)*r))
			r++;
		if (r > q + 1 && *r == ']' && (r[1] == ' ' || r[1] == '\t'))
			return q;
	}
	return NULL;
}

#define SL_TRACE_SYNTAX "expected 'COMM TID [CPU] SECONDS: EVENT: FIELDS' (perf script) or " \
		  "'COMM-PID [CPU] FLAGS SECONDS: EVENT: FIELDS' (ftrace)"

/* Split the task column ("COMM TID", "COMM PID/TID", "COMM-PID", each
 * maybe with " (TGID)") into comm, pid and tgid (-1 where the column
 * does not show it, or ftrace shows "(-----)"). */
static int parse_task(struct sl_trace_src *m, const char *p, const char *end,
		      struct sl_trace_line *l)
{
	long pid, tgid;

	l->tgid = -1;
	while (end > p && (end[-1] == ' ' || end[-1] == '\t'))
		end--;
	if (end > p && end[-1] == ')') {
		const char *open = end - 1;
		while (open > p && *open != '(')
			open--;
		if (*open != '(')
			return sl_trace_bad_line(m, SL_TRACE_SYNTAX);
		const char *g = sl_trace_skip_blank(open + 1);
		if (to_int(g, end - 1, 1, INT_MAX, &tgid))
			l->tgid = (int)tgid;
		end = open;
		while (end > p && (end[-1] == ' ' || end[-1] == '\t'))
			end--;
	}
	const char *tok = end;
	while (tok > p && tok[-1] != ' ' && tok[-1] != '\t')
		tok--;
	if (tok > p && end - tok == 2 && !strncmp(tok, "-1", 2)) {	/* perf: unknown */
		l->comm[0] = 0;
		l->pid = -1;
		return 0;
	}
	if (tok > p && pid_token(tok, end)) {		/* perf: COMM TID */
		const char *slash = memchr(tok, '/', (size_t)(end - tok));
		if (!to_int(slash ? slash + 1 : tok, end, 0, INT_MAX, &pid) ||
		    (slash && !to_int(tok, slash, 0, INT_MAX, &tgid)))
			return sl_trace_bad_line(m, "pid '%.*s' is out of range", (int)(end - tok), tok);
		if (slash && tgid > 0)
			l->tgid = (int)tgid;
		const char *ce = tok;
		while (ce > p && (ce[-1] == ' ' || ce[-1] == '\t'))
			ce--;
		sl_trace_copy_comm(l->comm, p, (size_t)(ce - p));
	} else {					/* ftrace: COMM-PID */
		const char *dash = end;
		while (dash > p && dash[-1] != '-')
			dash--;
		if (dash == p || !to_int(dash, end, 0, INT_MAX, &pid))
			return sl_trace_bad_line(m, SL_TRACE_SYNTAX);
		sl_trace_copy_comm(l->comm, p, (size_t)(dash - 1 - p));
	}
	l->pid = (int)pid;
	return 0;
}

/* Parse the part of a line before the fields.  0, or -1 with err set. */
int sl_trace_parse_line(struct sl_trace_src *m, char *s, struct sl_trace_line *l)
{
	const char *p = sl_trace_skip_blank(s);
	char *br = find_cpu((char *)p);
	long cpu;

	if (!br)
		return sl_trace_bad_line(m, "no [CPU] column: " SL_TRACE_SYNTAX);
	if (parse_task(m, p, br, l))
		return -1;
	char *close = strchr(br, ']');
	if (!to_int(br + 1, close, 0, SL_TRACE_MAX_CPU, &cpu))
		return sl_trace_bad_line(m, "CPU '%.*s': expected 0 to %d", (int)(close - br - 1), br + 1,
				SL_TRACE_MAX_CPU);
	l->cpu = (int)cpu;

	/* [flags] SECONDS: */
	const char *q = sl_trace_skip_blank(close + 1);
	const char *e = token_end(q);
	if (e == q || e[-1] != ':' || !sl_trace_to_time(q, e - 1, &l->ts)) {
		bool flags = e - q <= 6;
		for (const char *f = q; f < e && flags; f++)
			flags = isalnum((unsigned char)*f) || *f == '.';
		if (!flags || e == q)
			return sl_trace_bad_line(m, "'%.*s': expected a timestamp 'SECONDS.FRACTION:' "
					"after the CPU", (int)(e - q), q);
		q = sl_trace_skip_blank(e);
		e = token_end(q);
		if (e == q || e[-1] != ':' || !sl_trace_to_time(q, e - 1, &l->ts))
			return sl_trace_bad_line(m, "'%.*s': expected a timestamp 'SECONDS.FRACTION:'",
					(int)(e - q), q);
	}

	/* EVENT: */
	q = sl_trace_skip_blank(e);
	e = token_end(q);
	if (e == q)
		return sl_trace_bad_line(m, "no event name after the timestamp: " SL_TRACE_SYNTAX);
	if (all_digits(q, e) && *sl_trace_skip_blank(e)) {	/* perf's sample period */
		q = sl_trace_skip_blank(e);
		e = token_end(q);
	}
	char *ev = (char *)q, *eve = (char *)e;
	if (eve[-1] == ':')
		eve--;
	char *fields = (char *)sl_trace_skip_blank(e);
	*eve = 0;
	if (!strncmp(ev, "sched:", 6))
		ev += 6;
	l->event = ev;
	l->fields = fields;

	if (m->seen && l->ts < m->last)
		return sl_trace_bad_line(m, "time %lld.%09lld is before the previous line's "
					 "%lld.%09lld (expected lines in time order, as perf script "
					 "writes them)", (long long)(l->ts / SL_SEC),
					 (long long)(l->ts % SL_SEC), (long long)(m->last / SL_SEC),
					 (long long)(m->last % SL_SEC));
	if (!m->seen)
		m->first = l->ts;
	else if (l->ts - m->first > SL_TIME_HORIZON)
		return sl_trace_bad_line(m, "time %lld.%09lld is more than %lld s after the first "
					 "line's (expected one recording)", (long long)(l->ts / SL_SEC),
					 (long long)(l->ts % SL_SEC),
					 (long long)(SL_TIME_HORIZON / SL_SEC));
	m->seen = true;
	m->last = l->ts;
	return 0;
}

/* ---- fields ---- */

/* The value of key= in the fields: after "key=" at the start or a blank. */
const char *sl_trace_find_key(const char *f, const char *key)
{
	size_t n = strlen(key);

	for (const char *p = f; (p = strstr(p, key)); p++)
		if ((p == f || p[-1] == ' ') && p[n] == '=')
			return p + n + 1;
	return NULL;
}

int sl_trace_field_int(struct sl_trace_src *m, const struct sl_trace_line *l, const char *key,
		       long lo, long hi, long *out)
{
	const char *v = sl_trace_find_key(l->fields, key);

	if (!v)
		return sl_trace_bad_line(m, "%s: no field '%s='", l->event, key);
	const char *e = token_end(v);
	if (!to_int(v, e, lo, hi, out))
		return sl_trace_bad_line(m, "%s: %s='%.*s': expected an integer from %ld to %ld", l->event,
				key, (int)(e - v), v, lo, hi);
	return 0;
}

/* A comm (which may hold blanks): from key= to the blank before next=. */
int sl_trace_field_comm(struct sl_trace_src *m, const struct sl_trace_line *l, const char *key,
			const char *next, char out[SL_TRACE_COMM])
{
	const char *v = sl_trace_find_key(l->fields, key);

	if (!v)
		return sl_trace_bad_line(m, "%s: no field '%s='", l->event, key);
	const char *nv = sl_trace_find_key(v, next);
	if (!nv)
		return sl_trace_bad_line(m, "%s: no field '%s=' after '%s='", l->event, next, key);
	const char *e = nv - strlen(next) - 1;
	while (e > v && e[-1] == ' ')
		e--;
	sl_trace_copy_comm(out, v, (size_t)(e - v));
	return 0;
}

int sl_trace_field_state(struct sl_trace_src *m, const struct sl_trace_line *l,
			 enum sl_trace_prev *out)
{
	const char *v = sl_trace_find_key(l->fields, "prev_state");

	if (!v)
		return sl_trace_bad_line(m, "%s: no field 'prev_state='", l->event);
	const char *e = token_end(v);
	bool dead = false, d = false, ok = e > v;
	for (const char *p = v; p < e; p++) {
		ok &= isalpha((unsigned char)*p) || *p == '|' || *p == '+';
		dead |= *p == 'X' || *p == 'Z' || *p == 'x';
		d |= *p == 'D';
	}
	if (!ok)
		return sl_trace_bad_line(m, "%s: prev_state='%.*s': expected state letters (R, S, D, Z, "
				"X, ...)", l->event, (int)(e - v), v);
	*out = *v == 'R' ? SL_PREV_PREEMPTED : dead ? SL_PREV_DEAD : d ? SL_PREV_SLEEP_D : SL_PREV_SLEEP;
	return 0;
}

/* The next line into buf (at most SL_TRACE_MAX_LINE bytes and a NUL),
 * without its end: its length, -1 at the end of the input, -2 if it is
 * longer, -3 if it holds a NUL byte. */
static long next_line(FILE *in, char *buf)
{
	long n = 0;
	bool nul = false;
	int c;

	while ((c = getc_unlocked(in)) != EOF && c != '\n') {
		if (n == SL_TRACE_MAX_LINE)
			return -2;
		nul |= c == 0;
		buf[n++] = (char)c;
	}
	if (c == EOF && n == 0)
		return -1;
	buf[n] = 0;
	return nul ? -3 : n;
}


int sl_trace_read(FILE *in, struct sl_trace_src *m, int (*on_line)(void *arg, char *text),
		  void *arg, sl_time *end_ts)
{
	char *buf = sl_xmalloc(SL_TRACE_MAX_LINE + 1);
	long n;
	int rc = 0;

	errno = 0;
	while ((n = next_line(in, buf)) != -1) {
		m->lineno++;
		if (n == -2) {
			rc = sl_trace_bad_line(m, "a line longer than %d bytes (expected perf script "
					       "or ftrace text)", SL_TRACE_MAX_LINE);
			break;
		}
		if (n == -3) {
			rc = sl_trace_bad_line(m, "a NUL byte: expected text");
			break;
		}
		while (n > 0 && buf[n - 1] == '\r')
			buf[--n] = 0;
		const char *p = sl_trace_skip_blank(buf);
		if (!strncmp(p, SL_TRACE_END_COMMENT, strlen(SL_TRACE_END_COMMENT))) {
			const char *v = p + strlen(SL_TRACE_END_COMMENT);
			if (!sl_trace_to_time(v, v + strcspn(v, " \t"), end_ts))
				*end_ts = 0;
		}
		if (!*p || *p == '#')
			continue;
		if ((rc = on_line(arg, buf)))
			break;
	}
	if (!rc && ferror(in))
		rc = sl_fail(m->err, "%s: read error (%s)", m->path, strerror(errno));
	/* the end of run belongs to the same recording as the lines */
	if (!rc && m->seen && *end_ts - m->first > SL_TIME_HORIZON)
		rc = sl_fail(m->err, "%s: its end-of-run comment's time %lld.%09lld is more than "
			     "%lld s after the first line's (expected one recording)", m->path,
			     (long long)(*end_ts / SL_SEC), (long long)(*end_ts % SL_SEC),
			     (long long)(SL_TIME_HORIZON / SL_SEC));
	free(buf);
	return rc;
}
