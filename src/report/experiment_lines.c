/*
 * experiment_lines.c - lines of the fields of a JSON text (see
 * experiment_lines.h): one pass of a small recursive scanner that records
 * (field, line) for every object key and array element.
 */
#include "report/experiment_lines.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/err.h"

#define MAX_DEPTH 64	/* deeper values are scanned but not recorded */

struct entry {
	char *field;
	int line;
};

struct sl_json_lines {
	int n, cap;
	struct entry *e;
};

struct scan {
	const char *s;
	int line;
	struct sl_json_lines *out;
};

static void skip_space(struct scan *sc)
{
	for (; *sc->s && strchr(" \t\r\n", *sc->s); sc->s++)
		sc->line += *sc->s == '\n';
}

static void record(struct scan *sc, const char *field, int line)
{
	struct sl_json_lines *l = sc->out;

	if (l->n == l->cap) {
		l->cap = l->cap ? 2 * l->cap : 64;
		l->e = sl_xrealloc(l->e, sizeof(*l->e) * (unsigned long)l->cap);
	}
	l->e[l->n].field = sl_xstrdup(field);
	l->e[l->n++].line = line;
}

/* A string at sc->s (the opening quote); its raw text, escapes kept. */
static char *string(struct scan *sc)
{
	const char *start = ++sc->s;
	char *out;

	while (*sc->s && *sc->s != '"')
		sc->s += *sc->s == '\\' && sc->s[1] ? 2 : 1;
	out = sl_xmalloc((unsigned long)(sc->s - start) + 1);
	memcpy(out, start, (size_t)(sc->s - start));
	out[sc->s - start] = 0;
	if (*sc->s)
		sc->s++;
	return out;
}

static char *join(const char *parent, const char *sep, const char *name)
{
	size_t len = strlen(parent) + strlen(sep) + strlen(name) + 1;
	char *out = sl_xmalloc(len);

	strcpy(out, parent);
	strcat(out, *parent ? sep : "");
	strcat(out, name);
	return out;
}

static void value(struct scan *sc, const char *field, int depth);

static void object(struct scan *sc, const char *field, int depth)
{
	sc->s++;
	for (;;) {
		skip_space(sc);
		if (*sc->s != '"')
			break;
		int line = sc->line;
		char *key = string(sc), *sub = join(field, ".", key);
		if (depth < MAX_DEPTH)
			record(sc, sub, line);
		skip_space(sc);
		if (*sc->s == ':')
			sc->s++;
		value(sc, sub, depth + 1);
		free(key);
		free(sub);
		skip_space(sc);
		if (*sc->s != ',')
			break;
		sc->s++;
	}
	if (*sc->s == '}')
		sc->s++;
}

static void array(struct scan *sc, const char *field, int depth)
{
	char idx[32];

	sc->s++;
	for (int i = 0;; i++) {
		skip_space(sc);
		if (!*sc->s || *sc->s == ']')
			break;
		snprintf(idx, sizeof(idx), "[%d]", i);
		char *sub = sl_xmalloc(strlen(field) + sizeof(idx));
		strcpy(sub, field);
		strcat(sub, idx);
		if (depth < MAX_DEPTH)
			record(sc, sub, sc->line);
		value(sc, sub, depth + 1);
		free(sub);
		skip_space(sc);
		if (*sc->s != ',')
			break;
		sc->s++;
	}
	if (*sc->s == ']')
		sc->s++;
}

static void value(struct scan *sc, const char *field, int depth)
{
	skip_space(sc);
	if (*sc->s == '{')
		object(sc, field, depth);
	else if (*sc->s == '[')
		array(sc, field, depth);
	else if (*sc->s == '"')
		free(string(sc));
	else	/* number, true, false, null */
		while (*sc->s && !strchr(",}] \t\r\n", *sc->s))
			sc->s++;
}

struct sl_json_lines *sl_json_lines_scan(const char *text)
{
	struct sl_json_lines *l = sl_xcalloc(1, sizeof(*l));
	struct scan sc = { .s = text, .line = 1, .out = l };

	value(&sc, "", 0);
	return l;
}

static int lookup(const struct sl_json_lines *l, const char *field)
{
	for (int i = 0; i < l->n; i++)
		if (!strcmp(l->e[i].field, field))
			return l->e[i].line;
	return 0;
}

int sl_json_lines_find(const struct sl_json_lines *l, const char *field)
{
	char *f = sl_xstrdup(field);
	int line = 0;

	while (*f && !(line = lookup(l, f))) {
		char *dot = strrchr(f, '.'), *br = strrchr(f, '[');
		char *cut = dot > br ? dot : br;
		if (!cut)
			break;
		*cut = 0;
	}
	free(f);
	return line;
}

void sl_json_lines_free(struct sl_json_lines *l)
{
	if (!l)
		return;
	for (int i = 0; i < l->n; i++)
		free(l->e[i].field);
	free(l->e);
	free(l);
}
