/*
 * cmd_list.c - `schedlab list machines|policies|workloads|experiments`.
 */
#include <stdio.h>
#include <string.h>

#include "cli/cli.h"
#include "hw/machine.h"
#include "policy/policy.h"
#include "report/experiment.h"
#include "report/experiment_data.h"
#include "workload/workload.h"

/* "name=<int 1..64>", "version=2.5.33|2.6.0", ... */
static void param_form(char *buf, size_t size, const struct sl_param_def *d)
{
	switch (d->type) {
	case SL_PARAM_INT:
		snprintf(buf, size, "%s=<int %.0f..%.0f>", d->name, d->min, d->max);
		break;
	case SL_PARAM_REAL:
		snprintf(buf, size, "%s=<real %g..%g>", d->name, d->min, d->max);
		break;
	case SL_PARAM_CHOICE:
		snprintf(buf, size, "%s=%s", d->name, d->choices);
		break;
	case SL_PARAM_STRING:
		snprintf(buf, size, "%s=<text>", d->name);
		break;
	}
}

/* One line per parameter, aligned: form, default, doc. */
static void print_params(const struct sl_param_def *defs)
{
	int wform = 0, wdef = 0;
	char form[320];

	for (int i = 0; defs && defs[i].name; i++) {
		param_form(form, sizeof(form), &defs[i]);
		if ((int)strlen(form) > wform)
			wform = (int)strlen(form);
		int dl = defs[i].def ? (int)strlen(defs[i].def) : (int)strlen("derived");
		if (dl > wdef)
			wdef = dl;
	}
	if (!defs || !defs[0].name) {
		printf("    (no parameters)\n");
		return;
	}
	for (int i = 0; defs[i].name; i++) {
		param_form(form, sizeof(form), &defs[i]);
		printf("    %-*s  default %-*s  %s\n", wform, form, wdef,
		       defs[i].def ? defs[i].def : "derived", defs[i].doc ? defs[i].doc : "");
	}
}

static int list_policies(void)
{
	for (int i = 0; sl_policies[i]; i++) {
		const struct sl_policy_ops *p = sl_policies[i];
		printf("%s%s - %s\n", i ? "\n" : "", p->name, p->summary);
		print_params(p->knobs);
	}
	printf("\nEvery policy also takes label=TEXT: its column label in the output\n"
	       "(default: the policy string as given).  Example: -p o1:version=2.5.33,label=stock\n");
	return cli_finish_output();
}

static int list_workloads(void)
{
	for (int i = 0; sl_workloads[i]; i++) {
		const struct sl_workload_ops *w = sl_workloads[i];
		printf("%s%s - %s (headline metric: %s)\n", i ? "\n" : "", w->name, w->summary,
		       w->metric);
		print_params(w->params);
	}
	printf("\nEvery run also reports elapsed_s, user_s, sys_s, cpu_pct, ctx_switches\n"
	       "(involuntary), sleeps (voluntary) and migrations.\n");
	return cli_finish_output();
}

static int list_machines(void)
{
	int n, w = 0;
	const struct sl_machine_preset *p = sl_machine_presets(&n);

	for (int i = 0; i < n; i++)
		if ((int)strlen(p[i].name) > w)
			w = (int)strlen(p[i].name);
	for (int i = 0; i < n; i++)
		printf("%-*s  %-6s  %s\n", w, p[i].name, p[i].arch, p[i].summary);
	printf("\nAlso accepted: an hwloc synthetic string (e.g. \"pack:2 core:1 pu:2\"),\n"
	       "the path of an hwloc XML file, or \"host\" (this machine): x86_64 kernels\n"
	       "unless hwloc names another.  Append \",noht\" to any of them for one logical\n"
	       "CPU per core (e.g. \"p4dpe-2x2ht,noht\"), \",arch=i386|ia64|x86_64\" for another\n"
	       "kernel architecture (its HZ and scheduler constants), \",mhz=N\" for another\n"
	       "clock.  \",like=PRESET\" gives a machine that is not a preset that preset's\n"
	       "model numbers (SMT, kernel costs, caches, NUMA) instead of a modern server's:\n"
	       "\"numa:2 pack:4 core:1 pu:2,like=p4dpe-2x2ht\".  docs/model.md lists every option.\n");
	return cli_finish_output();
}

static int list_experiments(void)
{
	int w = 0;

	for (int i = 0; sl_experiment_files[i].name; i++)
		if ((int)strlen(sl_experiment_files[i].name) > w)
			w = (int)strlen(sl_experiment_files[i].name);
	for (int i = 0; sl_experiment_files[i].name; i++) {
		struct sl_experiment e;
		struct sl_err err = { 0 };
		if (sl_experiment_load(&e, sl_experiment_files[i].name, &err))
			return cli_report(&err);
		printf("%-*s  %s (%s, %d repetitions)\n", w, e.name, e.title, e.machine, e.reps);
		sl_experiment_free(&e);
	}
	return cli_finish_output();
}

int cmd_list(int argc, char **argv)
{
	static const char *const expected = "expected machines, policies, workloads or experiments";

	if (argc == 2 && cli_is_help(argv[1])) {
		fputs(cli_usage("list"), stdout);
		return cli_finish_output();
	}
	if (argc < 2)
		return cli_bad_input("list: missing what to list (%s)", expected);
	if (argc > 2)
		return cli_bad_input("list: unexpected argument '%s' (%s, one of them)", argv[2],
				     expected);
	if (!strcmp(argv[1], "machines"))
		return list_machines();
	if (!strcmp(argv[1], "policies"))
		return list_policies();
	if (!strcmp(argv[1], "workloads"))
		return list_workloads();
	if (!strcmp(argv[1], "experiments"))
		return list_experiments();
	return cli_bad_input("list: unknown list '%s' (%s)", argv[1], expected);
}
