/*
 * spec.h - "name:key=value,key=value" specifications and typed parameters.
 *
 * Policies (`o1:version=2.5.33`) and workloads (`kernbench:jobs=2`) are both
 * written this way on the command line.  A component declares its
 * parameters in a table of struct sl_param_def; sl_spec_bind() checks every
 * given key against the table (unknown key, malformed number, value out of
 * range or not among the choices: an error naming the key) and fills in
 * defaults for the rest.  Nothing is silently defaulted for a typo.
 */
#ifndef SL_BASE_SPEC_H
#define SL_BASE_SPEC_H

#include <stdbool.h>
#include <stddef.h>

#include "base/err.h"

#define SL_SPEC_MAX_PARAMS 40

enum sl_param_type {
	SL_PARAM_INT,		/* integer within [min, max] */
	SL_PARAM_REAL,		/* real number within [min, max] */
	SL_PARAM_CHOICE,	/* one of `choices`, a '|'-separated list */
	SL_PARAM_STRING,	/* free text (file names, labels) */
};

struct sl_param_def {
	const char *name;
	enum sl_param_type type;
	const char *def;	/* default as text; NULL = "derived" (see doc) */
	double min, max;	/* for INT and REAL */
	const char *choices;	/* for CHOICE: "a|b|c" */
	const char *doc;	/* one line */
};

/* A parsed "name:k=v,..." string, before binding. */
struct sl_spec {
	char name[64];
	int nkv;
	char key[SL_SPEC_MAX_PARAMS][64];
	char val[SL_SPEC_MAX_PARAMS][256];
};

/* Split text into name and key=value pairs.  `what` names the argument in
 * error messages ("policy", "workload").  Returns 0 or -1 with err set. */
int sl_spec_parse(struct sl_spec *spec, const char *text, const char *what,
		  struct sl_err *err);

/* Parameters bound to a definition table: every def has a value. */
struct sl_params {
	const struct sl_param_def *defs;
	int n;
	const char *text[SL_SPEC_MAX_PARAMS];	/* value as text, NULL = derived */
	bool given[SL_SPEC_MAX_PARAMS];		/* set explicitly by the user */
	double num[SL_SPEC_MAX_PARAMS];		/* INT/REAL value */
	int choice[SL_SPEC_MAX_PARAMS];		/* CHOICE index */
	char store[SL_SPEC_MAX_PARAMS][256];
};

/* Check spec's keys against defs (terminated by a def with name == NULL) and
 * fill p.  Keys named in `extra` (NULL-terminated, e.g. "label") are accepted
 * without a def.  `owner` names the component in messages. */
int sl_spec_bind(struct sl_params *p, const struct sl_spec *spec,
		 const struct sl_param_def *defs, const char *const *extra,
		 const char *owner, struct sl_err *err);

/* True if the table has a parameter of that name. */
bool sl_param_exists(const struct sl_params *p, const char *name);
/* True if the table has it and the user gave it (a knob shared by
 * policies whose tables differ, as o1's and up's). */
bool sl_param_user_gave(const struct sl_params *p, const char *name);
/* The choice the user gave for `name`, else `dflt` (a default derived from
 * the version or the machine, or a table without the knob). */
int sl_param_user_choice(const struct sl_params *p, const char *name, int dflt);
/* An "on|off" knob (on the first choice): the user's, else `dflt`. */
bool sl_param_user_on(const struct sl_params *p, const char *name, bool dflt);
/* Accessors; abort on a name not in the table (a programming error). */
bool sl_param_given(const struct sl_params *p, const char *name);
long sl_param_int(const struct sl_params *p, const char *name);
/* The int the user gave, or `dflt` where the default is derived (a knob
 * whose .def is NULL: the machine's, the version's). */
long sl_param_int_or(const struct sl_params *p, const char *name, long dflt);
double sl_param_real_or(const struct sl_params *p, const char *name, double dflt);
double sl_param_real(const struct sl_params *p, const char *name);
int sl_param_choice(const struct sl_params *p, const char *name);
const char *sl_param_str(const struct sl_params *p, const char *name);

/* Strict number parsing: the whole string must be a decimal number, an
 * optional '-' then digits (a double: also a '.' and an exponent, "1e-3").
 * No white space anywhere, no '+', no hex, inf or nan: strtol/strtod alone
 * took " 5" and "+5" but not "5 ".  Returns 0, or -1 leaving *out alone. */
int sl_parse_long(const char *s, long *out);
int sl_parse_double(const char *s, double *out);

/* Length of the longest prefix of s, at most max bytes, that is printable
 * UTF-8 text: no control character (C0, DEL, C1), no malformed, overlong
 * or surrogate sequence.  s is all printable text when s[result] == 0;
 * a prefix of max bytes ends on a character boundary. */
size_t sl_text_printable(const char *s, size_t max);

/* Value of key in spec or NULL (for keys outside any def table, e.g. label). */
const char *sl_spec_get(const struct sl_spec *spec, const char *key);

#endif
