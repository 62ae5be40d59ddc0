/*
 * scan.c - the raw-text scanner of rt-app files (scan.h): keys'
 * lines, repeated keys, and workgen's numbering of repeated events and
 * phases and its bare "suspend" (rt-app's doc/tutorial.txt and workgen;
 * docs/workloads.md, rtapp).  A key written with escape sequences is
 * compared as json-c decodes it; the frames nest as deep as SCAN_MAX_DEPTH
 * (json-c itself stops at 32).
 */
#include "workload/rtapp/scan.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/err.h"
#include "base/strmap.h"

#define SCAN_MAX_DEPTH 64		/* json-c itself stops at 32 */

struct scan_key {
	const char *s;
	size_t n;
};

struct scan_frame {
	bool object;
	bool want_key;
	struct scan_key key;		/* the key whose value is being read */
	struct sl_strmap keys;		/* keys seen so far -> times seen */
};

static bool key_eq(struct scan_key k, const char *s)
{
	return strlen(s) == k.n && !memcmp(k.s, s, k.n);
}

static bool path_matches(const struct rt_scan *sc, const struct scan_frame *fr, int depth,
			 struct scan_key k)
{
	int n = 0;

	for (int i = 0; i < depth; i++) {
		if (!fr[i].object)
			continue;
		if (n >= sc->nwant || !key_eq(fr[i].key, sc->want[n]))
			return false;
		n++;
	}
	return n == sc->nwant - 1 && key_eq(k, sc->want[n]);
}

static void dup_path(struct rt_scan *sc, const struct scan_frame *fr, int depth, struct scan_key k)
{
	size_t used = 0;

	sc->dup[0] = 0;
	for (int i = 0; i <= depth; i++) {
		struct scan_key part = i < depth ? fr[i].key : k;
		if (i < depth && !fr[i].object)
			continue;
		int w = snprintf(sc->dup + used, sizeof(sc->dup) - used, "%s%.*s",
				 used ? "." : "", (int)part.n, part.s);
		if (w < 0 || (size_t)w >= sizeof(sc->dup) - used)
			return;
		used += (size_t)w;
	}
}

/* May key `k` of the object at frames[depth] repeat?  Phase names (in
 * "phases") and events (in a thread of "tasks" or in a phase) may: their
 * order is their meaning, as workgen writes them. */
static bool sequence_key(const struct rt_scan *sc, const struct scan_frame *fr, int depth,
			 struct scan_key k)
{
	if (depth >= 1 && key_eq(fr[depth - 1].key, "phases"))
		return true;
	bool events = depth >= 2 && (key_eq(fr[depth - 2].key, "phases") ||
				     (depth == 2 && key_eq(fr[0].key, "tasks")));
	return events && sc->event_key(k.s, k.n);
}

static void add_rename(struct rt_scan *sc, size_t at, int n)
{
	if (sc->nren == sc->capren) {
		sc->capren = sc->capren ? 2 * sc->capren : 16;
		sc->ren = sl_xrealloc(sc->ren, sizeof(*sc->ren) * (unsigned long)sc->capren);
	}
	sc->ren[sc->nren++] = (struct rt_scan_rename){ at, n };
}

/* A key of the object at frames[depth], as json-c reads it; its closing
 * quote is at text[end].  True to stop the scan. */
static bool on_key(struct rt_scan *sc, struct scan_frame *fr, int depth, struct scan_key k,
		   size_t end, int line)
{
	struct scan_frame *f = &fr[depth];

	if (sc->want) {
		if (!path_matches(sc, fr, depth, k))
			return false;
		sc->line = line;
		return true;
	}
	/* a hash map, not a search of the earlier keys: 200,000 events in a
	 * phase took a minute that way */
	int added, *seen = sl_strmap_put(&f->keys, k.s, k.n, &added);
	if (!added && !(sc->rename && sequence_key(sc, fr, depth, k))) {
		sc->line = line;
		dup_path(sc, fr, depth, k);
		return true;
	}
	if (!added)
		add_rename(sc, end, *seen + 1);
	++*seen;
	return false;
}

/* Done with the keys of the object at f. */
static void frame_end(struct rt_scan *sc, struct scan_frame *f)
{
	sc->compares += f->keys.compares;
	sl_strmap_free(&f->keys);
}

static unsigned hex4(const char *s, size_t n)
{
	unsigned v = 0;

	for (size_t i = 0; i < 4; i++) {
		int d = i >= n ? -1 : isdigit((unsigned char)s[i]) ? s[i] - '0' :
			isxdigit((unsigned char)s[i]) ? (tolower((unsigned char)s[i]) - 'a' + 10) : -1;
		if (d < 0)
			return ~0u;
		v = v << 4 | (unsigned)d;
	}
	return v;
}

static size_t put_utf8(char *out, unsigned cp)
{
	if (cp < 0x80) {
		out[0] = (char)cp;
		return 1;
	}
	if (cp < 0x800) {
		out[0] = (char)(0xc0 | cp >> 6);
		out[1] = (char)(0x80 | (cp & 0x3f));
		return 2;
	}
	if (cp < 0x10000) {
		out[0] = (char)(0xe0 | cp >> 12);
		out[1] = (char)(0x80 | (cp >> 6 & 0x3f));
		out[2] = (char)(0x80 | (cp & 0x3f));
		return 3;
	}
	out[0] = (char)(0xf0 | cp >> 18);
	out[1] = (char)(0x80 | (cp >> 12 & 0x3f));
	out[2] = (char)(0x80 | (cp >> 6 & 0x3f));
	out[3] = (char)(0x80 | (cp & 0x3f));
	return 4;
}

/* The key `raw` (as written, between its quotes) as json-c stores it:
 * escapes decoded, a \uXXXX surrogate pair as one character and a lone
 * surrogate as U+FFFD (json-c 0.16), cut at a NUL (object keys are C
 * strings).  Otherwise "run" and "r\u0075n", or "a" and "a\u0000b", were
 * two keys to this scan and one to json-c, which kept the last silently.
 * Decoded text is never longer than the escapes it comes from. */
static struct scan_key json_key(struct rt_scan *sc, struct scan_key raw)
{
	if (!memchr(raw.s, '\\', raw.n))
		return raw;
	char *out = sl_xmalloc(raw.n + 1);
	size_t o = 0;
	for (size_t i = 0; i < raw.n; i++) {
		char c = raw.s[i];
		if (c != '\\' || i + 1 >= raw.n) {
			out[o++] = c;
			continue;
		}
		c = raw.s[++i];
		unsigned cp = c == 'u' ? hex4(raw.s + i + 1, raw.n - i - 1) : ~0u;
		if (c != 'u' || cp == ~0u) {	/* json-c refused a bad \u before this scan */
			out[o++] = c == 'b' ? '\b' : c == 'f' ? '\f' : c == 'n' ? '\n' :
				   c == 'r' ? '\r' : c == 't' ? '\t' : c;
			continue;
		}
		i += 4;
		unsigned lo = i + 2 < raw.n && raw.s[i + 1] == '\\' && raw.s[i + 2] == 'u' ?
			      hex4(raw.s + i + 3, raw.n - i - 3) : ~0u;
		if (cp >= 0xd800 && cp < 0xdc00 && lo >= 0xdc00 && lo < 0xe000) {
			cp = 0x10000 + ((cp - 0xd800) << 10) + (lo - 0xdc00);
			i += 6;
		} else if (cp >= 0xd800 && cp < 0xe000) {
			cp = 0xfffd;
		}
		o += put_utf8(out + o, cp);
	}
	out[o] = 0;
	if (sc->nowned == sc->capowned) {
		sc->capowned = sc->capowned ? 2 * sc->capowned : 16;
		sc->owned = sl_xrealloc(sc->owned, sizeof(*sc->owned) * (unsigned long)sc->capowned);
	}
	sc->owned[sc->nowned++] = out;
	return (struct scan_key){ out, strlen(out) };
}

/* workgen's shorthand: a "suspend" key with no value (rt-app's video
 * examples write `"suspend",`), which workgen turns into "suspend" : "<the
 * thread's name>".  Recorded with n = 0: ` : ""` goes after its quote
 * (suspend "" is the thread's own name here). */
static void bare_key(struct rt_scan *sc, const char *text, size_t len, struct scan_key k, size_t end)
{
	size_t j = end + 1;

	while (j < len && (text[j] == ' ' || text[j] == '\t' || text[j] == '\r' || text[j] == '\n'))
		j++;
	if (j < len && (text[j] == ',' || text[j] == '}') && k.n >= 7 && !memcmp(k.s, "suspend", 7))
		add_rename(sc, end + 1, 0);
}

void rt_scan_text(struct rt_scan *sc, const char *text, size_t len)
{
	struct scan_frame fr[SCAN_MAX_DEPTH];
	int depth = -1, line = 1;
	bool stop = false;

	for (size_t i = 0; i < len && !stop; i++) {
		char c = text[i];
		if (c == '\n') {
			line++;
		} else if (c == '/' && i + 1 < len && text[i + 1] == '/') {
			while (i + 1 < len && text[i + 1] != '\n')
				i++;
		} else if (c == '/' && i + 1 < len && text[i + 1] == '*') {
			for (i += 2; i + 1 < len && !(text[i] == '*' && text[i + 1] == '/'); i++)
				line += text[i] == '\n';
			i++;
		} else if (c == '"' || c == '\'') {
			size_t start = ++i;
			for (; i < len && text[i] != c; i++) {
				if (text[i] == '\\')
					i++;
				else if (text[i] == '\n')
					line++;
			}
			size_t end = i < len ? i : len;
			struct scan_key k = json_key(sc, (struct scan_key){ text + start, end - start });
			if (depth >= 0 && depth < SCAN_MAX_DEPTH && fr[depth].object &&
			    fr[depth].want_key) {
				fr[depth].want_key = false;
				fr[depth].key = k;
				if (sc->bare)
					bare_key(sc, text, len, k, end);
				else
					stop = on_key(sc, fr, depth, k, end, line);
			}
		} else if (c == '{' || c == '[') {
			if (++depth < SCAN_MAX_DEPTH)
				fr[depth] = (struct scan_frame){ .object = c == '{', .want_key = c == '{' };
		} else if (c == '}' || c == ']') {
			if (depth >= 0 && depth < SCAN_MAX_DEPTH)
				frame_end(sc, &fr[depth]);
			if (depth >= 0)	/* the bare-suspend scan reads text json-c refused */
				depth--;
		} else if (c == ',') {
			if (depth >= 0 && depth < SCAN_MAX_DEPTH && fr[depth].object)
				fr[depth].want_key = true;
		}
	}
	for (; depth >= 0; depth--)
		if (depth < SCAN_MAX_DEPTH)
			frame_end(sc, &fr[depth]);
	while (sc->nowned > 0)
		free(sc->owned[--sc->nowned]);
	free(sc->owned);
	sc->owned = NULL;
	sc->capowned = 0;
}
