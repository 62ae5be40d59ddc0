/*
 * policy.h - the table of scheduler policies (one file per policy, each
 * exporting a `const struct sl_policy_ops`).
 */
#ifndef SL_POLICY_POLICY_H
#define SL_POLICY_POLICY_H

#include "sim/policy_ops.h"

extern const struct sl_policy_ops sl_policy_up;
extern const struct sl_policy_ops sl_policy_linux24;
extern const struct sl_policy_ops sl_policy_o1;
extern const struct sl_policy_ops sl_policy_ht;
extern const struct sl_policy_ops sl_policy_domains;
extern const struct sl_policy_ops sl_policy_cfs;
extern const struct sl_policy_ops sl_policy_sl;

/* NULL-terminated, in the order `list policies` prints them. */
extern const struct sl_policy_ops *const sl_policies[];

const struct sl_policy_ops *sl_policy_find(const char *name);

/* Parse "name[:knob=value,...]" into ops + bound knobs.  The knob "label"
 * is accepted by every policy (it names the column in output).  label_out
 * receives the label (the text as given, or label=). */
int sl_policy_parse(const char *text, const struct sl_policy_ops **ops,
		    struct sl_params *knobs, char *label_out, size_t label_size,
		    struct sl_err *err);

#endif
