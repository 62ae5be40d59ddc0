/*
 * fuzz.h - what the libFuzzer harnesses of tests/fuzz/ share: the input as
 * a file the loaders can open by name, and a run of what loaded, bounded
 * in simulated time and in scheduling events, under the engine's
 * invariant checks (sim/check.c).
 *
 * The contract held (docs/robustness.md "Fuzzing"): an input is either
 * refused as bad input (SL_ERR_INPUT, one line) or simulates safely.  Any
 * other outcome - a crash, a sanitizer report, an internal error, a hang
 * or memory without bound - aborts, and libFuzzer keeps the input.
 */
#ifndef SL_FUZZ_H
#define SL_FUZZ_H

#include <stddef.h>
#include <stdint.h>

#include "base/err.h"
#include "base/units.h"
#include "hw/machine.h"
#include "workload/workload.h"

/* Inputs longer than this are skipped: each run stays short (the loaders'
 * own caps are far larger; make fuzz passes the same -max_len). */
#define FUZZ_MAX_LEN 8192

/* What a run may cost: simulated time, engine events (counted between
 * slices of simulated time), scheduling events seen by an observer
 * (switches, wakeups, forks, exits, migrations) and the programs' steps
 * (sl_sim_config.step_limit: actions that take no simulated time, which
 * none of the others bound; an rt-app file of 10,000 lock/unlock pairs
 * per microsecond of work ran 98 s, past the 10 s timeout); the run stops
 * at the first bound reached, as if complete. */
#define FUZZ_MAX_SIM_NS (2 * SL_SEC)
#define FUZZ_MIN_SIM_NS (3 * SL_MSEC)	/* what a big machine still gets (fuzz.c) */
#define FUZZ_SLICE_NS SL_MSEC
#define FUZZ_MAX_EVENTS 20000
#define FUZZ_MAX_SCHED_EVENTS 5000
#define FUZZ_MIN_EVENTS 50		/* what a big machine still gets (fuzz.c) */
#define FUZZ_MIN_SCHED_EVENTS 20
#define FUZZ_TASKS 250		/* most tasks a run gets the whole event budget with (fuzz.c) */
#define FUZZ_MAX_STEPS 200000
/* Runs whose estimated memory (sl_workload_mem) is above this are skipped,
 * as the command line refuses them above --max-mem. */
#define FUZZ_MAX_RUN_BYTES (256ull << 20)

/* The input as a file named by a path the loaders open ("/proc/self/fd/N"
 * of a memfd, rewritten for each input).  `slot` picks one of two files,
 * for harnesses that need both an input and a derived file. */
const char *fuzz_file(int slot, const uint8_t *data, size_t size);

/* The input as a NUL-terminated string (NULL if it holds a NUL byte);
 * valid until the next call. */
const char *fuzz_text(const uint8_t *data, size_t size);

/* An input error is an answer; anything else is a finding: print it and
 * abort so libFuzzer saves the input. */
void fuzz_expect_input_error(int rc, const struct sl_err *err, const char *what);

/* An answer that breaks what its parser promises: print it and abort. */
_Noreturn void fuzz_finding(const char *harness, const char *what, const char *text);

/* Run the bound workload on `machine` under the policy `policy` (a spec,
 * e.g. "o1") with invariant checks after every event, for at most
 * FUZZ_MAX_SIM_NS or FUZZ_MAX_SCHED_EVENTS.  An input error from the run
 * is an answer; an internal error is a finding. */
void fuzz_run(const struct sl_machine *machine, const char *policy,
	      const struct sl_workload_ops *ops, const struct sl_params *params, uint64_t seed);

/* A policy spec picked from the input's bytes, so that the corpus covers
 * every policy deterministically (each input always gets the same one). */
const char *fuzz_pick_policy(const uint8_t *data, size_t size);

/* One of a few small machines (1, 4 and 16 CPUs; SMT; NUMA), loaded once,
 * picked by the input's size. */
const struct sl_machine *fuzz_pick_machine(size_t size);

/* On a machine a harness loaded: one of two small workloads (wakeups
 * across CPUs; a CPU-bound task per CPU), picked by the input's size,
 * under a policy picked from the input. */
void fuzz_machine_workload(const struct sl_machine *m, const uint8_t *data, size_t size);

/* Bind `text` as a workload spec and, if it binds, run it (fuzz_run) on a
 * machine and policy picked from the input. */
void fuzz_workload(const char *text, const uint8_t *data, size_t size);

#endif
