/*
 * fuzz_real.c - libFuzzer harness for what `schedlab real` and `validate`
 * parse before and after a real run: the input's first line is a real
 * workload spec (real/registry.c sl_real_parse against the real
 * workloads' tables, then each one's resolve and memory estimate on a host
 * of 1 to 8 CPUs, as cli_real_setup does before any work), its second a
 * line of /proc/stat (real/host.c sl_real_host_parse_stat, other_cpu_pct's
 * source), and the rest lines of an rt-app log (real/rtapp.c
 * sl_real_rtapp_log_line).  Specs that would name a file ('/') are
 * skipped, as in fuzz_spec: resolve would read it.  The whole input is
 * also read as the host kernel's configuration (real/kconfig.c): each line
 * as a line of its .config, all of it as /proc/cmdline and as debugfs's
 * sched/preempt.
 *
 * Beyond the contract every harness holds (an answer, or one line of input
 * error), each answer is checked against what it promises: a bound spec
 * prints back as a spec that binds again, a CPU-time figure is -1 or
 * finite and not negative, and an rt-app log's rows count no more lines
 * than it was given, its timer rows no more than its rows, and its sums
 * stay finite; the kernel's configuration gives cfs knobs that bind as
 * cfs's, which is what validate runs with them.
 */
#include "fuzz.h"

#include <math.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "policy/policy.h"
#include "real/host.h"
#include "real/kconfig.h"
#include "real/real.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void real_spec(const char *text, size_t size)
{
	const struct sl_real_workload *w;
	struct sl_params params, again;
	struct sl_err err = { 0 };
	char printed[1024];

	int rc = sl_real_parse(text, &w, &params, &err);
	fuzz_expect_input_error(rc, &err, "real workload");
	if (rc || strchr(text, '/'))
		return;
	struct sl_real_env env = { .ncpus = 1 + (int)(size % 8), .seed = size };
	CPU_ZERO(&env.cpus);
	for (int i = 0; i < env.ncpus; i++)
		CPU_SET(i, &env.cpus);
	if (w->resolve)
		w->resolve(&params, &env);
	if (w->mem) {
		uint64_t procs = 0;
		(void)w->mem(&params, &env, &procs);
	}
	sl_real_spec_text(w, &params, printed, sizeof(printed));
	if (strlen(printed) < sizeof(printed) - 1) {
		const struct sl_real_workload *w2;
		rc = sl_real_parse(printed, &w2, &again, &err);
		if (rc || w2 != w)
			fuzz_finding("real", "a resolved spec that does not bind again", printed);
	}
}

static void kernel_config(const char *text)
{
	struct sl_kconfig k = { .nohz = SL_KC_UNKNOWN };
	char *copy = strdup(text), knobs[128], said[512], spec[160], label[160];
	const struct sl_policy_ops *ops;
	struct sl_params params;
	struct sl_err err = { 0 };

	sl_kconfig_parse_config(&k, copy);
	free(copy);
	sl_kconfig_parse_cmdline(&k, text);
	sl_kconfig_parse_debugfs_preempt(&k, text);
	sl_kconfig_cfs_knobs(&k, knobs, sizeof(knobs), said, sizeof(said));
	snprintf(spec, sizeof(spec), "cfs%s%s", knobs[0] ? ":" : "", knobs);
	if (sl_policy_parse(spec, &ops, &params, label, sizeof(label), &err))
		fuzz_finding("real", "a host kernel's cfs knobs that do not bind", spec);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *text = (char *)fuzz_text(data, size);

	if (!text)
		return 0;
	kernel_config(text);
	char *stat = strchr(text, '\n');
	if (stat)
		*stat++ = 0;
	real_spec(text, size);
	if (!stat)
		return 0;
	char *log = strchr(stat, '\n');
	if (log)
		*log++ = 0;
	double busy = sl_real_host_parse_stat(stat, 100.0);
	if (busy != -1 && !(busy >= 0 && isfinite(busy)))
		fuzz_finding("real", "a CPU-time figure neither -1 nor finite", stat);

	struct sl_real_rtapp_log st = { 0 };
	long lines = 0;
	while (log && *log) {
		char *next = strchr(log, '\n');
		if (next)
			*next++ = 0;
		sl_real_rtapp_log_line(log, &st);
		lines++;
		log = next;
	}
	if (st.rows > lines || st.timer_rows > st.rows || !isfinite(st.slack_sum) ||
	    !isfinite(st.wu_sum))
		fuzz_finding("real", "an rt-app log's sums out of their bounds", "(log)");
	return 0;
}
