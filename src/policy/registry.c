/*
 * registry.c - the policy table and spec parsing.
 */
#include "policy/policy.h"

#include <stdio.h>
#include <string.h>

const struct sl_policy_ops *const sl_policies[] = {
	&sl_policy_up,
	&sl_policy_linux24,
	&sl_policy_o1,
	&sl_policy_ht,
	&sl_policy_domains,
	&sl_policy_cfs,
	&sl_policy_sl,
	NULL,
};

const struct sl_policy_ops *sl_policy_find(const char *name)
{
	for (int i = 0; sl_policies[i]; i++)
		if (!strcmp(sl_policies[i]->name, name))
			return sl_policies[i];
	return NULL;
}

int sl_policy_parse(const char *text, const struct sl_policy_ops **ops,
		    struct sl_params *knobs, char *label_out, size_t label_size,
		    struct sl_err *err)
{
	static const char *const extra[] = { "label", NULL };
	struct sl_spec spec;
	/* the text and its label= reach tables, CSV and JSON (the label, the
	 * default label, "policy_spec"): printable UTF-8 only.  Checked first,
	 * and not echoed, so that no message carries the bytes to a terminal. */
	size_t ok = sl_text_printable(text, (size_t)-1);

	if (text[ok])
		return sl_fail(err, "policy: byte %zu of the policy text is a control character "
			       "or invalid UTF-8 (expected printable text: it labels tables and "
			       "JSON)", ok + 1);
	if (sl_spec_parse(&spec, text, "policy", err))
		return -1;
	*ops = sl_policy_find(spec.name);
	if (!*ops) {
		char known[256] = "";
		for (int i = 0; sl_policies[i]; i++) {
			strncat(known, i ? ", " : "", sizeof(known) - strlen(known) - 1);
			strncat(known, sl_policies[i]->name, sizeof(known) - strlen(known) - 1);
		}
		return sl_fail(err, "policy '%s': unknown policy (known: %s)", spec.name, known);
	}
	char owner[96];
	snprintf(owner, sizeof(owner), "policy '%s'", spec.name);
	if (sl_spec_bind(knobs, &spec, (*ops)->knobs, extra, owner, err))
		return -1;
	const char *label = sl_spec_get(&spec, "label");
	const char *shown = label ? label : text;
	if (label && strlen(label) >= label_size)
		return sl_fail(err, "policy '%s': label= is %zu bytes, at most %zu", spec.name,
			       strlen(label), label_size - 1);
	/* a long policy text is cut, on a character boundary */
	ok = sl_text_printable(shown, label_size - 1);
	snprintf(label_out, label_size, "%.*s", (int)ok, shown);
	return 0;
}
