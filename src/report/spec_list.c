/*
 * spec_list.c - expanding lists and ranges in specs (see spec_list.h).
 */
#include "report/spec_list.h"

#include <ctype.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/spec.h"

struct key_list {
	char *key;		/* "jobs" (points into the copy of the text) */
	int n;
	char **val;
};

struct parsed {
	char *copy;		/* the text, cut into tokens */
	int nkeys;
	struct key_list keys[SL_SPEC_MAX_PARAMS + 1];
};

static void add_value(struct key_list *k, const char *v)
{
	k->val = sl_xrealloc(k->val, sizeof(*k->val) * (unsigned long)(k->n + 1));
	k->val[k->n++] = sl_xstrdup(v);
}

/* v starts like a number: [-]digit. */
static bool numeric_start(const char *v)
{
	return isdigit((unsigned char)v[v[0] == '-']);
}

/* The product of the list lengths with `more` values added to k's list
 * stays within limit (each factor is <= limit, so no overflow). */
static int count_ok(const struct parsed *p, const struct key_list *k, long more, int limit)
{
	long total = k->n + more;

	for (int i = 0; i < p->nkeys && total <= limit; i++)
		if (&p->keys[i] != k && p->keys[i].n)
			total *= p->keys[i].n;
	return total <= limit;
}

/* One value of key k: a range A..B or a plain value. */
static int add_item(struct parsed *p, struct key_list *k, const char *v, const char *what,
		    const char *text, int limit, struct sl_err *err)
{
	const char *dots = strstr(v, "..");
	long a, b;

	if (!*v)
		return sl_fail(err, "%s '%s': empty value in the list of '%s'", what, text, k->key);
	if (!dots || !numeric_start(v)) {
		if (!count_ok(p, k, 1, limit))
			goto too_many;
		add_value(k, v);
		return 0;
	}
	char left[64];
	snprintf(left, sizeof(left), "%.*s", (int)(dots - v), v);
	if (sl_parse_long(left, &a) || sl_parse_long(dots + 2, &b))
		return sl_fail(err, "%s '%s': %s='%s' is not a range of integers A..B (write a list "
			       "of values: %s=0.5,1,2)", what, text, k->key, v, k->key);
	if (a > b)
		return sl_fail(err, "%s '%s': range %s=%s runs backwards", what, text, k->key, v);
	if (b - a >= limit || !count_ok(p, k, b - a + 1, limit))
		goto too_many;
	for (long x = a; x <= b; x++) {
		char buf[32];
		snprintf(buf, sizeof(buf), "%ld", x);
		add_value(k, buf);
	}
	return 0;
too_many:
	return sl_fail(err, "%s '%s': more than %d cells (expected at most %d; see "
		       "docs/experiments.md)", what, text, limit, limit);
}

static int parse_tokens(struct parsed *p, const char *text, const char *params, const char *what,
			int limit, struct sl_err *err)
{
	char *save = NULL, *tok;
	const char *s;

	p->copy = sl_xstrdup(params);
	/* strtok would merge empty tokens: find them first */
	for (s = params; *s; s++)
		if (*s == ',' && (s == params || s[1] == ',' || !s[1]))
			return sl_fail(err, "%s '%s': empty item between ','s", what, text);
	for (tok = strtok_r(p->copy, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
		char *eq = strchr(tok, '=');
		struct key_list *k;
		if (eq) {
			if (p->nkeys == SL_SPEC_MAX_PARAMS)
				return sl_fail(err, "%s '%s': too many parameters", what, text);
			*eq = 0;
			k = &p->keys[p->nkeys++];
			k->key = tok;
			tok = eq + 1;
			if (!*tok) {	/* the spec parser says it: "empty value for 'k'" */
				add_value(k, "");
				continue;
			}
		} else if (!p->nkeys) {
			return sl_fail(err, "%s '%s': expected key=value, got '%s' (a value without "
				       "a key continues the list of the key before it)", what, text, tok);
		} else {
			k = &p->keys[p->nkeys - 1];
		}
		if (add_item(p, k, tok, what, text, limit, err))
			return -1;
	}
	return 0;
}

static void append(char **buf, size_t *len, const char *s)
{
	size_t n = strlen(s);

	*buf = sl_xrealloc(*buf, *len + n + 1);
	memcpy(*buf + *len, s, n + 1);
	*len += n;
}

/* Spec number `idx` of the product (the first key varies slowest). */
static void build(const struct parsed *p, const char *name, int idx, char **spec, char **swept)
{
	int pos[SL_SPEC_MAX_PARAMS + 1];
	size_t slen = 0, wlen = 0;

	for (int i = p->nkeys - 1; i >= 0; i--) {
		pos[i] = idx % p->keys[i].n;
		idx /= p->keys[i].n;
	}
	*spec = NULL;
	*swept = sl_xstrdup("");
	append(spec, &slen, name);
	for (int i = 0; i < p->nkeys; i++) {
		append(spec, &slen, i ? "," : ":");
		append(spec, &slen, p->keys[i].key);
		append(spec, &slen, "=");
		append(spec, &slen, p->keys[i].val[pos[i]]);
		if (p->keys[i].n > 1) {
			if (wlen)
				append(swept, &wlen, " ");
			append(swept, &wlen, p->keys[i].key);
			append(swept, &wlen, "=");
			append(swept, &wlen, p->keys[i].val[pos[i]]);
		}
	}
}

static void parsed_free(struct parsed *p)
{
	for (int i = 0; i < p->nkeys; i++) {
		for (int v = 0; v < p->keys[i].n; v++)
			free(p->keys[i].val[v]);
		free(p->keys[i].val);
	}
	free(p->copy);
}

int sl_spec_list_expand(const char *text, const char *what, int limit, struct sl_spec_list *out,
			struct sl_err *err)
{
	const char *colon = strchr(text, ':');
	struct parsed p = { 0 };
	int n = 1, rc = -1;
	char *name;

	memset(out, 0, sizeof(*out));
	if (!colon || !colon[1]) {	/* no parameters: the spec parser judges it */
		out->n = 1;
		out->specs = sl_xcalloc(1, sizeof(*out->specs));
		out->swept = sl_xcalloc(1, sizeof(*out->swept));
		out->specs[0] = sl_xstrdup(text);
		out->swept[0] = sl_xstrdup("");
		return 0;
	}
	if (parse_tokens(&p, text, colon + 1, what, limit, err))
		goto done;
	for (int i = 0; i < p.nkeys; i++)
		n *= p.keys[i].n;
	for (int i = 0; i < p.nkeys && n > 1; i++)
		if (!strcmp(p.keys[i].key, "label")) {
			sl_fail(err, "%s '%s': label= with a list (each column needs its own label: "
				"without label= the expanded specs label the columns)", what, text);
			goto done;
		}
	name = sl_xmalloc((size_t)(colon - text) + 1);
	memcpy(name, text, (size_t)(colon - text));
	name[colon - text] = 0;
	out->n = n;
	out->specs = sl_xcalloc((unsigned long)n, sizeof(*out->specs));
	out->swept = sl_xcalloc((unsigned long)n, sizeof(*out->swept));
	for (int i = 0; i < n; i++)
		build(&p, name, i, &out->specs[i], &out->swept[i]);
	free(name);
	rc = 0;
done:
	parsed_free(&p);
	return rc;
}

void sl_spec_list_free(struct sl_spec_list *l)
{
	for (int i = 0; i < l->n; i++) {
		free(l->specs[i]);
		free(l->swept[i]);
	}
	free(l->specs);
	free(l->swept);
	memset(l, 0, sizeof(*l));
}
