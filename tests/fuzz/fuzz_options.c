/*
 * fuzz_options.c - libFuzzer harness: the input's first byte picks one of
 * the command line's value parsers, the rest is the value as a user would
 * type it: -r and -j (cli_parse_reps, cli_parse_jobs), --seed
 * (cli_parse_seed), -o (cli_parse_format, each command's set of formats),
 * --max-mem (base/memsize.c sl_mem_parse), `real --cpus` (real/cpus.c
 * sl_real_cpus_parse) and a workload's cpus= (base/cpulist.c
 * sl_cpulist_parse, on machines of 1 to 256 CPUs).
 *
 * Beyond the contract every harness holds (an answer, or one line of input
 * error), each parser's answer is checked against what it promises: a
 * count inside its range, a size that is not zero, a CPU set neither
 * empty nor outside the CPUs allowed, and for CPU lists the round trip
 * through the list form the messages print.
 */
#include "fuzz.h"

#include <sched.h>
#include <string.h>

#include "base/cpulist.h"
#include "base/memsize.h"
#include "cli/cli.h"
#include "real/cpus.h"
#include "report/sweep.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* A count option (-r, -j): an answer from 1 to `max`, or an input error. */
static void count_option(int (*parse)(const char *, const char *, int *, struct sl_err *),
			 const char *opt, const char *text, int max, struct sl_err *err)
{
	int n;
	int rc = parse(opt, text, &n, err);

	fuzz_expect_input_error(rc, err, opt);
	if (!rc && (n < 1 || n > max))
		fuzz_finding("options", "a count out of range", text);
}

/* `real --cpus` against a fixed set of allowed CPUs (0-5 and 9: a hole
 * and a gap, as an affinity mask may have), so that runs do not depend
 * on the host. */
static void real_cpus(const char *text, struct sl_err *err)
{
	cpu_set_t allowed, set, again;
	char form[256];

	CPU_ZERO(&allowed);
	for (int c = 0; c <= 5; c++)
		CPU_SET(c, &allowed);
	CPU_SET(9, &allowed);
	int rc = sl_real_cpus_parse("--cpus", text, &allowed, &set, err);
	fuzz_expect_input_error(rc, err, "options: --cpus");
	if (rc)
		return;
	cpu_set_t outside;
	CPU_AND(&outside, &set, &allowed);
	if (!CPU_COUNT(&set) || !CPU_EQUAL(&outside, &set))
		fuzz_finding("options", "--cpus: an empty set or CPUs not allowed", text);
	sl_real_cpus_format(&set, form, sizeof(form));
	if (sl_real_cpus_parse("--cpus", form, &allowed, &again, err) || !CPU_EQUAL(&set, &again))
		fuzz_finding("options", "--cpus: the list form does not read back", text);
}

/* A workload's cpus= on a machine of `ncpus` CPUs. */
static void workload_cpus(const char *text, int ncpus, struct sl_err *err)
{
	sl_cpumask m;
	int rc = sl_cpulist_parse(text, ncpus, "cpus", &m, err);

	fuzz_expect_input_error(rc, err, "options: cpus=");
	if (rc)
		return;
	int n = sl_cpumask_weight(&m);
	if (n == 0 || n > ncpus || sl_cpumask_next(&m, ncpus) >= 0)
		fuzz_finding("options", "cpus=: an empty set or CPUs beyond the machine", text);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct sl_err err = { 0 };

	if (size < 1 || size > FUZZ_MAX_LEN)
		return 0;
	const char *text = fuzz_text(data + 1, size - 1);
	if (!text)
		return 0;
	int rc;
	uint64_t u;
	enum sl_format format;

	switch (data[0] % 7) {
	case 0:
		count_option(cli_parse_reps, "-r", text, SL_SWEEP_MAX_REPS, &err);
		break;
	case 1:
		count_option(cli_parse_jobs, "-j", text, SL_SWEEP_MAX_THREADS, &err);
		break;
	case 2:
		rc = cli_parse_seed("--seed", text, &u, &err);
		fuzz_expect_input_error(rc, &err, "options: --seed");
		break;
	case 3:
		/* data[0] / 7 picks the formats a command allows */
		rc = cli_parse_format("-o", text, (unsigned)(data[0] / 7) & 3u, &format, &err);
		fuzz_expect_input_error(rc, &err, "options: -o");
		break;
	case 4:
		rc = sl_mem_parse("--max-mem", text, &u, &err);
		fuzz_expect_input_error(rc, &err, "options: --max-mem");
		if (!rc && u == 0)
			fuzz_finding("options", "--max-mem: a size of 0", text);
		if (!rc) {
			char buf[64];
			sl_mem_format(u, buf, sizeof(buf));
		}
		break;
	case 5:
		real_cpus(text, &err);
		break;
	default:
		workload_cpus(text, 1 + (int)((data[0] * 37u) % 256u), &err);
		break;
	}
	return 0;
}
