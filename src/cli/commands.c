/*
 * commands.c - the command table (git's builtin/ pattern), dispatch,
 * --version and help.
 */
#include <stdio.h>
#include <string.h>

#include "cli/cli.h"
#include "cli/cmd_real.h"

struct command {
	const char *name;
	int (*fn)(int argc, char **argv);
	const char *summary;
	const char *usage;
};

static const struct command commands[] = {
	{ "list", cmd_list, "list machines, policies, workloads or experiments",
	  "usage: schedlab list machines|policies|workloads|experiments\n" },
	{ "run", cmd_run, "run a workload under one or more policies on a machine",
	  "usage: schedlab run -m MACHINE [-m MACHINE ...] -p POLICY [-p POLICY ...]\n"
	  "                    -w WORKLOAD [-r REPS] [-s SEED] [-o table|json|csv]\n"
	  "                    [--metric NAME ...] [-j N] [--quiet|--progress] [--stats]\n"
	  "                    [--max-mem SIZE] [--shard K/N]\n"
	  "\n"
	  "  -m, --machine MACHINE   preset, hwloc synthetic string, hwloc XML file or 'host'\n"
	  "                          (append ',noht' for one logical CPU per core); repeat\n"
	  "                          for a table per machine\n"
	  "  -p, --policy POLICY     name[:knob=value,...]; repeat to compare policies;\n"
	  "                          label=TEXT names the column\n"
	  "  -w, --workload WORKLOAD name[:param=value,...]\n"
	  "                          -w and -p take lists and ranges: jobs=1..16, jobs=1,2,4,\n"
	  "                          base_slice_us=750,1500 - a sweep: a row per value, a\n"
	  "                          column per policy (docs/experiments.md)\n"
	  "      --metric NAME       the sweep table's metric (default: the workload's\n"
	  "                          headline); repeat for several\n"
	  "  -j, --jobs N            worker threads (default: the CPUs available); the\n"
	  "                          results are the same for every N\n"
	  "  -q, --quiet             no progress line (drawn on stderr when it is a terminal)\n"
	  "      --progress          the progress line even when stderr is not a terminal\n"
	  "  -r, --reps REPS         repetitions (default 1); repetition i uses seed + i\n"
	  "  -s, --seed SEED         first seed (default 1)\n"
	  "  -o, --output FORMAT     table (default), json, csv, or sdet / sdet-percent (SDET's\n"
	  "                          tables: throughput per policy, absolute or as % of the first)\n"
	  "      --stats             events processed (by kind, and the re-timings behind them),\n"
	  "                          events/s, CPU seconds on stderr\n"
	  "      --max-mem SIZE      refuse a run whose estimated memory exceeds SIZE (e.g.\n"
	  "                          512M, 4G; default half of physical memory; see\n"
	  "                          docs/robustness.md)\n"
	  "      --trace FILE        write the run's schedule as a trace (one -p, -r 1):\n"
	  "                          sched_switch, wakeups, fork, exec, exit per CPU; the\n"
	  "                          file appears only if the run succeeds; - is stdout\n"
	  "                          (the results then go to stderr)\n"
	  "      --trace-format FMT  perf (default: perf script text), ftrace (Perfetto) or\n"
	  "                          chrome (trace-event JSON: Perfetto, chrome://tracing)\n"
	  "      --html FILE         also write the page 'schedlab report' writes (tables,\n"
	  "                          per-CPU timelines, latency CDFs; docs/report.md)\n"
	  "      --rtapp-logdir DIR  with -w rtapp:...: write rt-app's per-thread log files\n"
	  "                          of the run in DIR (one -p, -r 1; created if missing;\n"
	  "                          existing logs of the file's threads are refused)\n"
	  "      --shard K/N         run slice K (from 0) of N of the runs and print it as a\n"
	  "                          shard for 'schedlab merge' (docs/scale-out.md)\n" },
	{ "reproduce", cmd_reproduce, "run experiments and print them beside the published numbers",
	  "usage: schedlab reproduce [EXPERIMENT|FILE.json ...] [-r REPS] [-o table|json]\n"
	  "                          [-j N] [--quiet|--progress] [--stats] [--max-mem SIZE]\n"
	  "                          [--shard K/N]\n"
	  "\n"
	  "  EXPERIMENT              an experiment name (schedlab list experiments); default: all\n"
	  "                          (with more than one: a scoreboard of the published cells\n"
	  "                          within tolerance, per experiment and in all, ends the output)\n"
	  "  FILE.json               your own experiment file (an argument with a '/' or ending\n"
	  "                          in .json; the format: docs/experiments.md)\n"
	  "  -r, --reps REPS         repetitions per cell (default: the experiment's own)\n"
	  "  -o, --output FORMAT     table (default) or json\n"
	  "  -j, --jobs N            worker threads (default: the CPUs available); the\n"
	  "                          results are the same for every N\n"
	  "  -q, --quiet             no progress line (drawn on stderr when it is a terminal)\n"
	  "      --progress          the progress line even when stderr is not a terminal\n"
	  "      --stats             events processed (by kind, and the re-timings behind them),\n"
	  "                          events/s, CPU seconds on stderr\n"
	  "      --max-mem SIZE      refuse a run whose estimated memory exceeds SIZE (e.g.\n"
	  "                          512M, 4G; default half of physical memory; see\n"
	  "                          docs/robustness.md)\n"
	  "      --shard K/N         run slice K (from 0) of N of the runs and print it as a\n"
	  "                          shard for 'schedlab merge' (docs/scale-out.md)\n" },
	{ "report", cmd_report, "run as run or reproduce would, and write an HTML page of it",
	  "usage: schedlab report -m MACHINE -p POLICY [-p POLICY ...] -w WORKLOAD\n"
	  "                       [-r REPS] [-s SEED] -o FILE\n"
	  "       schedlab report EXPERIMENT [EXPERIMENT ...] [-r REPS] [--row LABEL] -o FILE\n"
	  "\n"
	  "  -m, -p, -w, -r, -s      as 'schedlab run' takes them\n"
	  "  EXPERIMENT              as 'schedlab reproduce' takes them (at least one)\n"
	  "      --row LABEL         the row of the experiments whose runs the timelines and\n"
	  "                          CDFs show (default: the first), e.g. 'make -j2 bzImage'\n"
	  "  -o, --output FILE       the page (one self-contained HTML file); it appears\n"
	  "                          only if everything succeeds; - is standard output\n"
	  "\n"
	  "The page has the tables the command prints, a per-CPU timeline and the\n"
	  "latency CDFs of repetition 0 of each policy (of an experiment's row),\n"
	  "and an experiment's rows as charts beside the published values\n"
	  "(docs/report.md).\n" },
	{ "real", cmd_real, "run a workload as real processes on this host and time it",
	  "usage: schedlab real -w WORKLOAD [--cpus LIST] [-r REPS] [-s SEED]\n"
	  "                     [-o table|json|csv] [--latency] [--max-mem SIZE]\n"
	  "\n"
	  "  -w, --workload WORKLOAD name[:param=value,...]: spin, hackbench, schedbench,\n"
	  "                          kernbench (a real kernel build; see docs/validation.md)\n"
	  "      --cpus LIST         pin every process to these CPUs, e.g. 0 or 0-1,3\n"
	  "  -r, --reps REPS         repetitions (default 1)\n"
	  "  -s, --seed SEED         first seed (default 1): schedbench's random indices\n"
	  "  -o, --output FORMAT     table (default), json or csv, as 'run' prints them\n"
	  "      --latency           record each repetition with 'perf sched record -a' and\n"
	  "                          add the wakeup_lat_us / runq_delay_us percentiles of\n"
	  "                          the processes it started (needs perf and tracefs)\n"
	  "      --max-mem SIZE      refuse a workload that would touch more than SIZE of\n"
	  "                          memory (e.g. 512M, 4G; default half of physical memory);\n"
	  "                          it is refused beyond MemAvailable in any case\n"
	  "\n"
	  "Metrics are GNU time's, summed over every process waited for (wait4 rusage):\n"
	  "elapsed_s, user_s, sys_s, cpu_pct, ctx_switches (involuntary), sleeps\n"
	  "(voluntary).  Ctrl-C kills every process the run started.\n" },
	{ "validate", cmd_validate, "run a workload for real and simulated, side by side",
	  "usage: schedlab validate -w WORKLOAD [-p POLICY] [-m MACHINE] [--sim WORKLOAD]\n"
	  "                         [--work measured|recorded] [-r REPS] [-s SEED]\n"
	  "                         [-o table|json|csv] [--latency] [--calibrate]\n"
	  "                         [--max-mem SIZE]\n"
	  "\n"
	  "  -w, --workload WORKLOAD a real workload (see 'schedlab real --help')\n"
	  "  -p, --policy POLICY     simulated policy (default cfs with the host kernel's\n"
	  "                          preemption model, HZ and NO_HZ; o1 without cfs)\n"
	  "  -m, --machine MACHINE   simulated machine (default host)\n"
	  "      --sim WORKLOAD      simulated workload instead of the built-in counterpart\n"
	  "                          (e.g. a replay of a recorded trace)\n"
	  "      --work SOURCE       the work the model is given (kernbench CPU seconds,\n"
	  "                          schedbench seconds per task, schbench ns per\n"
	  "                          multiply-add): measured in the real runs (default) or\n"
	  "                          recorded (the host figures in the source)\n"
	  "  -r, --reps REPS         repetitions of each (default 1)\n"
	  "  -s, --seed SEED         first seed (default 1)\n"
	  "  -o, --output FORMAT     table (default), json or csv\n"
	  "      --latency           the real runs' wait percentiles too, recorded by perf\n"
	  "                          (see 'schedlab real --help'), beside the simulated ones\n"
	  "      --calibrate         first measure this host's kernel-path speed: a pinned\n"
	  "                          pingpong, real and simulated, gives kcost=F, and the\n"
	  "                          model is simulated on host,kcost=F (machine 'host' only);\n"
	  "                          a socket pair's round trip cross-checks F, with a\n"
	  "                          warning when the two are more than 1.25x apart\n"
	  "      --max-mem SIZE      the memory limit of the real and the simulated runs\n"
	  "                          (e.g. 512M, 4G; default half of physical memory)\n"
	  "\n"
	  "The real runs go first; the error is (simulated - real) / real of the means.\n" },
	{ "trace", cmd_trace, "import a kernel scheduling trace as a workload, record one, or "
	  "summarise its waits",
	  "usage: schedlab trace import FILE -o WORKLOAD.json [--all | --pid PID ...]\n"
	  "       schedlab trace record -o FILE [--] COMMAND [ARG ...]\n"
	  "       schedlab trace stats [--tree PID] FILE\n"
	  "\n"
	  "  import                  read perf script (or ftrace) text of 'perf sched record'\n"
	  "                          and write a workload: -w trace:file=WORKLOAD.json\n"
	  "    -o, --output FILE     the workload JSON ('-': standard output)\n"
	  "        --all             keep every task (default: the command perf recorded and\n"
	  "                          its descendants; every task if perf recorded none)\n"
	  "        --pid PID         keep task PID and its descendants (repeatable)\n"
	  "  record                  run COMMAND under 'perf sched record' and write the\n"
	  "                          'perf script --ns' text of it (needs perf and tracefs)\n"
	  "    -o, --output FILE     the trace\n"
	  "  stats                   perf sched latency's per-task table (runtime, switches,\n"
	  "                          average and longest wait) of a trace, real or --trace's,\n"
	  "                          and the wakeup_lat_us / runq_delay_us percentiles\n"
	  "    --tree PID            only the tasks PID forked, directly or not (a system-\n"
	  "                          wide recording of one program)\n" },
	/* issue 13: saved results compared (report/compare.h) */
	{ "compare", cmd_compare, "compare saved results of run, real or reproduce (mmtests-style)",
	  "usage: schedlab compare BASELINE.json OTHER.json [OTHER.json ...] [--metric NAME ...]\n"
	  "\n"
	  "  BASELINE.json, OTHER.json  results of 'run', 'real' or 'reproduce' -o json, in any\n"
	  "                          mix; cells match by workload, column (policy) and metric,\n"
	  "                          or, where a file has one column for a workload (real's\n"
	  "                          host), that column against every policy of the baseline\n"
	  "      --metric NAME       only this metric (repeatable; default: every metric)\n"
	  "\n"
	  "One line per metric and cell: the mean of the repetitions in each file and its\n"
	  "difference to the baseline in percent, marked as mmtests marks them:\n"
	  "*x%* significant (Welch's t-test, two-sided, alpha 0.05), (x%) not significant,\n"
	  "[x%] not tested (fewer than two repetitions).  See docs/report.md.\n" },
	/* issue 13: shards joined (report/shard.h, docs/scale-out.md) */
	{ "merge", cmd_merge, "join the slices of run or reproduce --shard K/N",
	  "usage: schedlab merge OUT.json SHARD.json [SHARD.json ...]\n"
	  "\n"
	  "  OUT.json                the merged result, byte for byte what the command prints\n"
	  "                          with -o json unsharded; it must not exist yet (- is\n"
	  "                          standard output) and appears only when complete\n"
	  "  SHARD.json              what 'run' or 'reproduce' ... --shard K/N printed: one\n"
	  "                          command line and N in all, every run point once\n"
	  "\n"
	  "--shard K/N (run, reproduce) runs the run points (one repetition of one cell)\n"
	  "numbered K, K+N, K+2N, ... and prints them as a shard; docs/scale-out.md has\n"
	  "recipes for GNU parallel, Slurm job arrays and mpirun.\n" },
	{ "help", cmd_help, "show this help, or a command's usage",
	  "usage: schedlab help [COMMAND]\n" },
};

#define NCOMMANDS ((int)(sizeof(commands) / sizeof(commands[0])))

static const struct command *find_command(const char *name)
{
	for (int i = 0; i < NCOMMANDS; i++)
		if (!strcmp(commands[i].name, name))
			return &commands[i];
	return NULL;
}

const char *cli_usage(const char *cmd)
{
	const struct command *c = find_command(cmd);
	return c ? c->usage : NULL;
}

static void print_overview(void)
{
	printf("usage: schedlab <command> [<args>]\n"
	       "       schedlab --version\n\n"
	       "schedlab simulates the Linux CPU schedulers of the 2002-2004 SMT/NUMA\n"
	       "debate on SMT, multicore and NUMA machines and runs the benchmarks of\n"
	       "that time.\n\ncommands:\n");
	for (int i = 0; i < NCOMMANDS; i++)
		printf("  %-10s %s\n", commands[i].name, commands[i].summary);
	printf("\nexamples:\n"
	       "  schedlab reproduce seed-000\n"
	       "  schedlab run -m p4dpe-2x2ht -p ht -p o1 -w kernbench:jobs=2 -r 5\n"
	       "  schedlab list policies\n");
}

/* "list, run, ..., help": the command names, for error messages. */
static const char *command_names(void)
{
	static char names[256];
	size_t n = sizeof(commands) / sizeof(commands[0]);

	if (names[0])
		return names;
	for (size_t k = 0; k < n; k++) {
		if (!commands[k].name)
			break;
		strncat(names, k ? (k + 1 < n && commands[k + 1].name ? ", " : " or ") : "",
			sizeof(names) - strlen(names) - 1);
		strncat(names, commands[k].name, sizeof(names) - strlen(names) - 1);
	}
	return names;
}

int cmd_help(int argc, char **argv)
{
	if (argc > 2)
		return cli_bad_input("help: unexpected argument '%s' (expected one command name)",
				     argv[2]);
	if (argc == 2) {
		const char *usage = cli_usage(argv[1]);
		if (!usage)
			return cli_bad_input("help: unknown command '%s' (expected %s)", argv[1],
					     command_names());
		fputs(usage, stdout);
		return cli_finish_output();
	}
	print_overview();
	return cli_finish_output();
}

int cli_main(int argc, char **argv)
{
	const struct command *cmd;

	if (argc < 2)
		return cli_bad_input("missing command (expected %s; see 'schedlab help')",
				     command_names());
	if (!strcmp(argv[1], "--version")) {
		printf("schedlab %s\n", SL_VERSION);
		return cli_finish_output();
	}
	if (cli_is_help(argv[1]))
		return cmd_help(1, argv + 1);
	cmd = find_command(argv[1]);
	if (!cmd)
		return cli_bad_input("unknown command '%s' (expected %s)", argv[1],
				     command_names());
	return cmd->fn(argc - 1, argv + 1);
}
