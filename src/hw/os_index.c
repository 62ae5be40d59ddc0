/*
 * os_index.c - the OS indexes of an hwloc machine, bounded before hwloc
 * sees them.
 *
 * hwloc keeps cpusets and nodesets as bitmaps as long as the largest index
 * they hold: a PU numbered 4294967295 makes every bitmap above it 512 MB,
 * and hwloc_topology_load() spends a minute and gigabytes building them
 * (measured: 4.4 GB for "pu:2(indexes=4294967295,4294967294)", 983 MB and
 * 6.5 s in hwloc_topology_load() for an XML PU with os_index="4000000000";
 * hwloc_topology_set_xml() itself costs nothing).  So every index is
 * checked against HW_MAX_OS_INDEX in the text, before the load.
 *
 * Synthetic strings: every list "indexes=a,b,..." must hold plain decimal
 * numbers in range, no number twice (hwloc keeps one object per index:
 * "pu:4(indexes=0,0,0,0)" became one CPU), and, at a level of the string,
 * exactly one index per object of that level (hwloc ignores extra ones and
 * silently drops a short list).  Interleavings ("indexes=2*2:1*2") only
 * permute 0..n-1 and are left to hwloc.
 *
 * XML text: every os_index attribute must be a plain decimal number in
 * range.  The scan must see what the XML parser sees, so the text is
 * required to be ASCII-compatible (no NUL bytes, which UTF-16/32 have; an
 * encoding declaration, if any, of UTF-8 or ASCII, as lstopo writes) and
 * without an internal DTD subset (whose entities and default attributes
 * could supply an index the scan cannot read).  A DOCTYPE without a system
 * identifier is refused too: hwloc 2.9's libxml2 reader crashes on it.
 * Duplicate PU indexes in XML are found after the load (hwloc keeps both
 * objects), by hwloc_load.c.
 */
#include "hw/hw_internal.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

/* ---- synthetic strings ---- */

/* Objects at the level whose "type:N" token ends just before `attr` (the
 * '(' of its attributes): the product of the arities so far.  0 if the
 * attributes belong to no level (a "[numa(...)]" memory child). */
static unsigned long level_objects(const char *s, const char *attr)
{
	unsigned long n = 1;
	int depth = 0;
	const char *last_colon = NULL;

	for (const char *p = s; p < attr; p++) {
		depth += (*p == '(' || *p == '[') - (*p == ')' || *p == ']');
		if (*p == ':' && depth == 0) {
			unsigned long k = strtoul(p + 1, NULL, 10);
			n = k && n > (1UL << 40) / k ? 1UL << 40 : n * k;
			last_colon = p;
		}
	}
	if (depth != 0 || !last_colon)
		return 0;
	for (const char *p = last_colon + 1; p < attr; p++)
		if (!isdigit((unsigned char)*p))
			return 0;	/* "[numa]" or other text between level and '(' */
	return n;
}

/* One "indexes=" value [v, end): a list of plain numbers, or an interleaving. */
static int check_index_list(const char *v, const char *end, unsigned long objects,
			    const char *what, struct sl_err *err)
{
	bool seen[HW_MAX_OS_INDEX + 1] = { false };	/* 8 KB */
	unsigned long count = 0;
	int len = (int)(end - v);

	for (const char *p = v; p < end; p++)
		if (!isdigit((unsigned char)*p) && *p != ',')
			return 0;	/* an interleaving: a permutation of 0..n-1 */
	for (const char *p = v; p <= end; p++) {
		const char *num = p;
		unsigned long x = 0;
		while (p < end && isdigit((unsigned char)*p)) {
			x = x > HW_MAX_OS_INDEX ? x : x * 10 + (unsigned long)(*p - '0');
			p++;
		}
		if (p == num)
			return sl_fail(err, "%s: 'indexes=%.*s': expected decimal OS indexes "
				       "separated by single commas", what, len, v);
		if (x > HW_MAX_OS_INDEX)
			return sl_fail(err, "%s: OS index %.*s in 'indexes=' is out of range "
				       "(0 to %d)", what, (int)(p - num), num, HW_MAX_OS_INDEX);
		if (seen[x])
			return sl_fail(err, "%s: OS index %lu given twice in 'indexes=%.*s'",
				       what, x, len, v);
		seen[x] = true;
		count++;
	}
	if (objects && count != objects)
		return sl_fail(err, "%s: 'indexes=%.*s' gives %lu OS index(es) for %lu "
			       "object(s) at that level", what, len, v, count, objects);
	return 0;
}

int hw_synthetic_check_indexes(const char *s, const char *what, struct sl_err *err)
{
	for (const char *p = strstr(s, "indexes="); p; p = strstr(p + 1, "indexes=")) {
		const char *open = p, *v = p + strlen("indexes=");
		while (open > s && *open != '(' && *open != ')')
			open--;
		if (*open != '(')
			continue;	/* not inside attributes: hwloc will refuse it */
		const char *end = v + strcspn(v, " )]");
		if (check_index_list(v, end, level_objects(s, open), what, err))
			return -1;
	}
	return 0;
}

/* ---- XML text ---- */

static const char *skip_space(const char *p, const char *end)
{
	while (p < end && (*p == ' ' || *p == '\t' || *p == '\r' || *p == '\n'))
		p++;
	return p;
}

/* Line number of p in buf, for messages. */
static unsigned long line_of(const char *buf, const char *p)
{
	unsigned long line = 1;

	for (const char *q = buf; q < p; q++)
		line += *q == '\n';
	return line;
}

/* The encoding declared in "<?xml ... encoding='X'?>", if any, is UTF-8 or ASCII. */
static bool encoding_ok(const char *buf, const char *end)
{
	const char *p = skip_space(buf, end);

	if (end - p < 5 || strncmp(p, "<?xml", 5))
		return true;
	const char *close = memchr(p, '>', (size_t)(end - p));
	const char *enc = close ? memmem(p, (size_t)(close - p), "encoding", 8) : NULL;
	if (!enc)
		return true;
	enc = skip_space(enc + 8, close);
	if (enc >= close || *enc != '=')
		return false;
	enc = skip_space(enc + 1, close);
	if (enc >= close || (*enc != '"' && *enc != '\''))
		return false;
	const char *name = enc + 1, *stop = memchr(name, *enc, (size_t)(close - name));
	size_t n = stop ? (size_t)(stop - name) : 0;
	return (n == 5 && !strncasecmp(name, "UTF-8", 5)) ||
	       (n == 8 && !strncasecmp(name, "US-ASCII", 8)) ||
	       (n == 5 && !strncasecmp(name, "ASCII", 5));
}

/* A DOCTYPE, if any, names an external DTD and has no internal subset. */
static const char *doctype_problem(const char *buf, const char *end)
{
	const char *d = memmem(buf, (size_t)(end - buf), "<!DOCTYPE", 9);

	if (!d)
		return NULL;
	const char *close = memchr(d, '>', (size_t)(end - d));
	if (!close)
		return NULL;	/* the parser will refuse it */
	if (memchr(d, '[', (size_t)(close - d)))
		return "an internal DTD subset ('[...]' in <!DOCTYPE>) is not supported";
	if (!memmem(d, (size_t)(close - d), "SYSTEM", 6) &&
	    !memmem(d, (size_t)(close - d), "PUBLIC", 6))
		return "<!DOCTYPE> without a system identifier (such as \"hwloc2.dtd\") "
		       "is not supported";
	return NULL;
}

int hw_xml_check_indexes(const char *buf, size_t len, const char *what, struct sl_err *err)
{
	const char *end = buf + len, *problem;

	if (memchr(buf, 0, len))
		return sl_fail(err, "%s: holds NUL bytes (expected UTF-8 XML, as lstopo writes)",
			       what);
	if (!encoding_ok(buf, end))
		return sl_fail(err, "%s: declares an encoding other than UTF-8 (expected UTF-8 "
			       "XML, as lstopo writes)", what);
	if ((problem = doctype_problem(buf, end)))
		return sl_fail(err, "%s: %s", what, problem);
	for (const char *p = buf; (p = memmem(p, (size_t)(end - p), "os_index", 8)); p += 8) {
		if (p == buf || !strchr(" \t\r\n", p[-1]))
			continue;	/* part of another name or of a text */
		const char *q = skip_space(p + 8, end);
		if (q >= end || *q != '=')
			continue;
		q = skip_space(q + 1, end);
		if (q >= end || (*q != '"' && *q != '\''))
			continue;
		const char *v = ++q;
		unsigned long x = 0;
		while (q < end && isdigit((unsigned char)*q)) {
			x = x > HW_MAX_OS_INDEX ? x : x * 10 + (unsigned long)(*q - '0');
			q++;
		}
		if (q == v || q >= end || *q != v[-1])
			return sl_fail(err, "%s: line %lu: os_index must be a plain decimal "
				       "number from 0 to %d", what, line_of(buf, p),
				       HW_MAX_OS_INDEX);
		if (x > HW_MAX_OS_INDEX)
			return sl_fail(err, "%s: line %lu: os_index %.*s is out of range "
				       "(0 to %d)", what, line_of(buf, p),
				       q - v > 24 ? 24 : (int)(q - v), v, HW_MAX_OS_INDEX);
	}
	return 0;
}
