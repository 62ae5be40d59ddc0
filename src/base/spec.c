/*
 * spec.c - parsing and binding of "name:key=value,..." specifications.
 */
#include "base/spec.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* s starts a plain decimal number: [-]digit or [-].digit (strto* would
 * skip white space and take '+' first). */
static bool plain_start(const char *s, bool point)
{
	if (*s == '-')
		s++;
	return isdigit((unsigned char)s[0]) ||
	       (point && s[0] == '.' && isdigit((unsigned char)s[1]));
}

int sl_parse_long(const char *s, long *out)
{
	char *end;
	errno = 0;
	if (!plain_start(s, false))
		return -1;
	long v = strtol(s, &end, 10);
	if (errno || *end)
		return -1;
	*out = v;
	return 0;
}

int sl_parse_double(const char *s, double *out)
{
	char *end;
	errno = 0;
	/* "0x1p4" is strtod's hex float */
	if (!plain_start(s, true) || strpbrk(s, "xX"))
		return -1;
	double v = strtod(s, &end);
	if (errno || *end || !isfinite(v))
		return -1;
	*out = v;
	return 0;
}

/* Bytes of the UTF-8 character at s if it is well formed and printable, else 0. */
static size_t printable_char(const unsigned char *s)
{
	unsigned c = s[0], len, cp;

	if (c < 0x80)
		return c >= 0x20 && c != 0x7f;
	len = c >= 0xf0 ? 4 : c >= 0xe0 ? 3 : c >= 0xc0 ? 2 : 0;
	if (!len || c > 0xf4)
		return 0;
	cp = c & (0x3f >> (len - 1));
	for (unsigned i = 1; i < len; i++) {
		if ((s[i] & 0xc0) != 0x80)
			return 0;
		cp = cp << 6 | (s[i] & 0x3f);
	}
	static const unsigned least[5] = { 0, 0, 0x80, 0x800, 0x10000 };
	if (cp < least[len] || cp > 0x10ffff || (cp >= 0xd800 && cp <= 0xdfff) ||
	    (cp >= 0x80 && cp < 0xa0))	/* overlong, beyond Unicode, surrogate, C1 */
		return 0;
	return len;
}

size_t sl_text_printable(const char *s, size_t max)
{
	size_t i = 0;

	while (s[i] && i < max) {
		size_t n = printable_char((const unsigned char *)s + i);
		if (!n || i + n > max)
			break;
		i += n;
	}
	return i;
}

int sl_spec_parse(struct sl_spec *spec, const char *text, const char *what,
		  struct sl_err *err)
{
	memset(spec, 0, sizeof(*spec));
	const char *colon = strchr(text, ':');
	size_t nlen = colon ? (size_t)(colon - text) : strlen(text);
	if (nlen == 0)
		return sl_fail(err, "%s '%s': missing name before ':'", what, text);
	if (nlen >= sizeof(spec->name))
		return sl_fail(err, "%s '%s': name too long", what, text);
	memcpy(spec->name, text, nlen);
	if (!colon)
		return 0;

	const char *p = colon + 1;
	if (!*p)
		return sl_fail(err, "%s '%s': expected key=value after ':'", what, text);
	while (*p) {
		const char *comma = strchr(p, ',');
		size_t len = comma ? (size_t)(comma - p) : strlen(p);
		const char *eq = memchr(p, '=', len);
		if (!eq || eq == p)
			return sl_fail(err, "%s '%s': expected key=value, got '%.*s'",
				       what, text, (int)len, p);
		size_t klen = (size_t)(eq - p), vlen = len - klen - 1;
		if (spec->nkv == SL_SPEC_MAX_PARAMS)
			return sl_fail(err, "%s '%s': too many parameters", what, text);
		if (klen >= sizeof(spec->key[0]) || vlen >= sizeof(spec->val[0]))
			return sl_fail(err, "%s '%s': parameter too long", what, text);
		if (vlen == 0)
			return sl_fail(err, "%s '%s': empty value for '%.*s'", what,
				       text, (int)klen, p);
		memcpy(spec->key[spec->nkv], p, klen);
		memcpy(spec->val[spec->nkv], eq + 1, vlen);
		for (int i = 0; i < spec->nkv; i++)
			if (!strcmp(spec->key[i], spec->key[spec->nkv]))
				return sl_fail(err, "%s '%s': '%s' given twice", what,
					       text, spec->key[i]);
		spec->nkv++;
		if (!comma)
			break;
		p = comma + 1;
		if (!*p)
			return sl_fail(err, "%s '%s': trailing ','", what, text);
	}
	return 0;
}

const char *sl_spec_get(const struct sl_spec *spec, const char *key)
{
	for (int i = 0; i < spec->nkv; i++)
		if (!strcmp(spec->key[i], key))
			return spec->val[i];
	return NULL;
}

static int choice_index(const char *choices, const char *v)
{
	int idx = 0;
	size_t vlen = strlen(v);
	for (const char *c = choices; *c; idx++) {
		const char *bar = strchr(c, '|');
		size_t len = bar ? (size_t)(bar - c) : strlen(c);
		if (len == vlen && !strncmp(c, v, len))
			return idx;
		if (!bar)
			break;
		c = bar + 1;
	}
	return -1;
}

static int set_value(struct sl_params *p, int i, const char *v, const char *owner,
		     struct sl_err *err)
{
	const struct sl_param_def *d = &p->defs[i];
	snprintf(p->store[i], sizeof(p->store[i]), "%s", v);
	p->text[i] = p->store[i];
	switch (d->type) {
	case SL_PARAM_INT: {
		long l;
		if (sl_parse_long(v, &l))
			return sl_fail(err, "%s: %s='%s' is not an integer", owner, d->name, v);
		if (l < d->min || l > d->max)
			return sl_fail(err, "%s: %s=%ld is out of range [%.0f, %.0f]",
				       owner, d->name, l, d->min, d->max);
		p->num[i] = (double)l;
		break;
	}
	case SL_PARAM_REAL: {
		double x;
		if (sl_parse_double(v, &x))
			return sl_fail(err, "%s: %s='%s' is not a number", owner, d->name, v);
		if (x < d->min || x > d->max)
			return sl_fail(err, "%s: %s=%g is out of range [%g, %g]",
				       owner, d->name, x, d->min, d->max);
		p->num[i] = x;
		break;
	}
	case SL_PARAM_CHOICE: {
		int c = choice_index(d->choices, v);
		if (c < 0)
			return sl_fail(err, "%s: %s='%s' is not one of %s", owner,
				       d->name, v, d->choices);
		p->choice[i] = c;
		break;
	}
	case SL_PARAM_STRING:
		break;
	}
	return 0;
}

int sl_spec_bind(struct sl_params *p, const struct sl_spec *spec,
		 const struct sl_param_def *defs, const char *const *extra,
		 const char *owner, struct sl_err *err)
{
	memset(p, 0, sizeof(*p));
	p->defs = defs;
	while (defs && defs[p->n].name)
		p->n++;
	if (p->n > SL_SPEC_MAX_PARAMS)
		return sl_fail_internal(err, "%s: too many parameter definitions", owner);

	for (int i = 0; i < p->n; i++)
		if (defs[i].def && set_value(p, i, defs[i].def, owner, err))
			return sl_fail_internal(err, "%s: bad default for %s", owner,
						defs[i].name);

	for (int k = 0; k < spec->nkv; k++) {
		int found = -1;
		for (int i = 0; i < p->n; i++)
			if (!strcmp(defs[i].name, spec->key[k]))
				found = i;
		if (found < 0) {
			bool ok = false;
			for (int e = 0; extra && extra[e]; e++)
				ok |= !strcmp(extra[e], spec->key[k]);
			if (ok)
				continue;
			char known[512] = "";
			for (int i = 0; i < p->n; i++) {
				strncat(known, i ? ", " : "", sizeof(known) - strlen(known) - 1);
				strncat(known, defs[i].name, sizeof(known) - strlen(known) - 1);
			}
			return sl_fail(err, "%s: unknown parameter '%s' (known: %s)", owner,
				       spec->key[k], p->n ? known : "none");
		}
		if (set_value(p, found, spec->val[k], owner, err))
			return -1;
		p->given[found] = true;
	}
	return 0;
}

bool sl_param_exists(const struct sl_params *p, const char *name)
{
	for (int i = 0; i < p->n; i++)
		if (!strcmp(p->defs[i].name, name))
			return true;
	return false;
}

static int find(const struct sl_params *p, const char *name)
{
	for (int i = 0; i < p->n; i++)
		if (!strcmp(p->defs[i].name, name))
			return i;
	fprintf(stderr, "schedlab: internal error: no parameter '%s'\n", name);
	abort();
}

bool sl_param_given(const struct sl_params *p, const char *name) { return p->given[find(p, name)]; }

bool sl_param_user_gave(const struct sl_params *p, const char *name)
{
	return sl_param_exists(p, name) && sl_param_given(p, name);
}

int sl_param_user_choice(const struct sl_params *p, const char *name, int dflt)
{
	return sl_param_user_gave(p, name) ? sl_param_choice(p, name) : dflt;
}

bool sl_param_user_on(const struct sl_params *p, const char *name, bool dflt)
{
	return sl_param_user_choice(p, name, dflt ? 0 : 1) == 0;
}
long sl_param_int(const struct sl_params *p, const char *name) { return (long)p->num[find(p, name)]; }
double sl_param_real(const struct sl_params *p, const char *name) { return p->num[find(p, name)]; }

long sl_param_int_or(const struct sl_params *p, const char *name, long dflt)
{
	int i = find(p, name);
	return p->given[i] ? (long)p->num[i] : dflt;
}

double sl_param_real_or(const struct sl_params *p, const char *name, double dflt)
{
	int i = find(p, name);
	return p->given[i] ? p->num[i] : dflt;
}
int sl_param_choice(const struct sl_params *p, const char *name) { return p->choice[find(p, name)]; }
const char *sl_param_str(const struct sl_params *p, const char *name) { return p->text[find(p, name)]; }
