/*
 * test_workload_schbench.c - the schbench workload (src/workload/schbench.c)
 * on scenarios that can be worked by hand: one worker on an idle two-CPU
 * machine under the engine tests' FIFO test policy with the kernel's costs set to
 * zero (request latency = sleep + math exactly, no wakeup latency, RPS =
 * 1 / request); with the machine's own costs (the handoff's futex calls,
 * switches and IPIs bound the wakeup latency and the RPS); the per-CPU
 * lock on one CPU (spinning costs CPU time); rps mode's request count; the
 * per-role latency metrics; and the parameter checks.
 */
#include <math.h>
#include <string.h>

#include "hw/machine.h"
#include "policy/policy.h"
#include "sim/sim.h"
#include "workload/bench_workloads.h"
#include "workload/hackbench.h"
#include "workload/schbench.h"
#include "engine_harness.h"
#include "test.h"

#define TWO_CPUS "pack:1 core:2 pu:1"
#define ONE_CPU "pack:1 core:1 pu:1"

/* ---- running it ---- */

struct sch_result {
	struct sl_run_stats stats;
	struct sl_metrics metrics;
	struct sl_machine m;
};

static int sch_bind(const char *args, struct sl_params *p, struct sl_err *err)
{
	char text[256];
	struct sl_spec spec;

	snprintf(text, sizeof(text), "schbench%s%s", *args ? ":" : "", args);
	if (sl_spec_parse(&spec, text, "workload", err) ||
	    sl_spec_bind(p, &spec, sl_workload_schbench.params, NULL, "schbench", err))
		return -1;
	return sl_workload_schbench.validate(p, err);
}

/* Run schbench:`args` on `machine` under `policy_spec` (NULL: the FIFO
 * test policy of engine_harness.h), with the kernel's costs zeroed if `free_kernel`. */
static bool sch_run(struct sch_result *r, const char *machine, const char *policy_spec,
		    bool free_kernel, const char *args)
{
	struct sl_params knobs, params;
	const struct sl_policy_ops *policy = &fifo_ops;
	struct sl_err err = { 0 };
	struct sl_sim *sim = NULL;
	char label[64];
	sl_time limit = 0;

	memset(r, 0, sizeof(*r));
	if (sl_machine_load(&r->m, machine, &err) || sch_bind(args, &params, &err) ||
	    (policy_spec && sl_policy_parse(policy_spec, &policy, &knobs, label, sizeof(label),
					    &err)))
		goto fail;
	if (free_kernel) {
		struct sl_speed_model *s = &r->m.speed;
		s->ctx_switch_ns = s->fork_ns = s->exec_ns = s->exit_ns = 0;
		s->ipi_ns = s->migrate_ns = s->sched_pick_ns = s->sched_scan_ns = 0;
		for (int l = 0; l < 4; l++)
			s->refill_ns[l] = 0;
	}
	struct sl_sim_config cfg = { .machine = &r->m, .policy = policy,
				     .knobs = policy_spec ? &knobs : NULL, .seed = 1,
				     .check = true };
	sim = sl_sim_create(&cfg, &err);
	if (!sim)
		goto fail;
	void *state = sl_workload_schbench.start(sim, &params, &limit);
	sl_sim_set_time_limit(sim, limit);
	if (sl_sim_run(sim, &err))
		goto fail;
	sl_sim_stats(sim, &r->stats);
	sl_workload_schbench.report(sim, state, &params, &r->metrics);
	sl_sim_destroy(sim);
	return true;
fail:
	fprintf(stderr, "run schbench:%s on %s: %s\n", args, machine, err.msg);
	if (sim)
		sl_sim_destroy(sim);
	return false;
}

static double metric(const struct sch_result *r, const char *name)
{
	const struct sl_metric *m = sl_metrics_find(&r->metrics, name);
	return m ? m->value : NAN;
}

/* 24 KB: three 32 x 32 matrices, 32768 multiply-adds a multiplication. */
#define SMALL "footprint_kb=24,op_ns=0.5"
#define MATH_US(loops) ((loops) * 32768 * 0.5 / 1e3)

SL_TEST(schbench_matrix_side_as_schbench)
{
	CHECK(sch_matrix_n(256) == 104);	/* the README's 104 x 104 */
	CHECK(sch_matrix_n(24) == 32);
	CHECK(sch_matrix_n(1) == 6);
}

/* Free kernel, one worker, two CPUs: the message thread and the worker
 * each have a CPU, every handoff is instant, so each request takes its
 * sleep plus its math exactly, back to back: 181.92 us, 549 of them in
 * 0.1 s (the 550th would end at 100.056 ms), and no wakeup waits. */
SL_TEST(schbench_one_worker_free_kernel_exact)
{
	struct sch_result r;

	if (!sch_run(&r, TWO_CPUS, NULL, true,
		     "workers=1,runtime_s=0.1,sleep_us=100,loops=5," SMALL)) {
		CHECK(!"schbench ran");
		return;
	}
	double req = 100 + MATH_US(5);
	CHECKF(fabs(metric(&r, "request_us_max") - req) < 1e-6, "max %g", metric(&r, "request_us_max"));
	/* the histogram's percentiles are within 0.8 %, never below */
	double p50 = metric(&r, "request_us_p50");
	CHECKF(p50 >= req - 1e-6 && p50 <= req * 1.008, "p50 %g", p50);
	CHECK(metric(&r, "wakeup_us_max") == 0);
	CHECK(metric(&r, "requests") == 549);
	CHECK(fabs(metric(&r, "rps") - 5490) < 1e-6);
	/* the engine's view: the worker never waited for a CPU, nor did the
	 * message thread (schbench's sched delay line) */
	CHECK(metric(&r, "workers_wakeup_lat_us_max") == 0);
	CHECK(metric(&r, "sched_delay_us_workers") == 0);
	CHECK(metric(&r, "sched_delay_us_msg") == 0);
}

/* The warm-up drops what came before it: a warm-up of 0.05 s out of 0.1 s
 * keeps the requests that end after 50 ms (275 of 549: the 275th ends at
 * 50.03 ms), and rps counts them over the 0.05 s left. */
SL_TEST(schbench_warmup_drops_early_samples)
{
	struct sch_result r;

	if (!sch_run(&r, TWO_CPUS, NULL, true,
		     "workers=1,runtime_s=0.1,warmup_s=0.05,sleep_us=100,loops=5," SMALL)) {
		CHECK(!"schbench ran");
		return;
	}
	/* requests end at k x 181.92 us; those with k >= 275 are kept */
	CHECKF(metric(&r, "requests") == 549 - 274, "%g", metric(&r, "requests"));
	CHECK(fabs(metric(&r, "rps") - 275 / 0.05) < 1e-6);
}

/* The machine's own costs: every handoff now pays futex calls, switches
 * and an IPI, so the wakeup latency is positive but bounded by what one
 * handoff can cost, the request latency is still sleep + math plus at
 * most one wakeup's costs, and the RPS is 1 / (request + handoff) within
 * those bounds. */
SL_TEST(schbench_one_worker_handoff_bounds)
{
	struct sch_result r;

	if (!sch_run(&r, TWO_CPUS, NULL, false,
		     "workers=1,runtime_s=0.2,sleep_us=100,loops=5," SMALL)) {
		CHECK(!"schbench ran");
		return;
	}
	const struct sl_speed_model *s = &r.m.speed;
	double ctx = (double)s->ctx_switch_ns / 1e3, ipi = (double)s->ipi_ns / 1e3;
	double refill = (double)s->refill_ns[0] / 1e3;
	double futex = SCH_FUTEX_CTX * ctx, wake = HB_WAKE_CTX * ctx;
	/* stamped, then: the post (futex + wake; doubled at most by the
	 * cache refill of a message thread that changed CPU, as the engine
	 * charges a burst w + min(refill, w)), the IPI to the worker's idle
	 * CPU and the switch */
	double wake_max = 2 * (futex + wake) + ipi + ctx + 1e-3;
	double wmax = metric(&r, "wakeup_us_max"), wp50 = metric(&r, "wakeup_us_p50");
	CHECKF(wp50 > 0 && wmax <= wake_max, "p50 %g max %g bound %g", wp50, wmax, wake_max);
	double req = 100 + MATH_US(5);
	double rmax = metric(&r, "request_us_max"), rp50 = metric(&r, "request_us_p50");
	CHECKF(rp50 >= req && rmax <= req + ipi + ctx + refill + 1, "p50 %g max %g", rp50, rmax);
	/* a cycle: the request, then the worker's post and wait and the
	 * message thread's wakeup and post */
	double cycle_lo = req, cycle_hi = rmax + 2 * futex + wake + wmax;
	double rps = metric(&r, "rps");
	CHECKF(rps <= 1e6 / cycle_lo && rps >= 1e6 / cycle_hi * 0.99,
	       "rps %g in [%g, %g]", rps, 1e6 / cycle_hi, 1e6 / cycle_lo);
	/* a worker's wait on the runqueue is at most the IPI to its idle CPU
	 * (the switch is paid once it runs): so is its mean, sched delay */
	double sd = metric(&r, "sched_delay_us_workers");
	CHECKF(sd > 0 && sd <= ipi + 1e-3, "sched delay %g", sd);
	/* its wakeups are also in the engine's per-role latencies */
	CHECK(metric(&r, "workers_wakeup_lat_us_max") > 0);
	CHECK(!isnan(metric(&r, "msg_wakeup_lat_us_p99")));
}

/* rps mode, free kernel, two CPUs: 100 requests a second to one worker
 * that needs 181.92 us each: every second's 100 are posted at its start
 * and done back to back, so 0.5 s hold 100 (the first second's) and the
 * requests all take sleep + math. */
SL_TEST(schbench_rps_mode_posts_the_rate)
{
	struct sch_result r;

	if (!sch_run(&r, TWO_CPUS, NULL, true,
		     "workers=1,runtime_s=1.5,rps=100,sleep_us=100,loops=5," SMALL)) {
		CHECK(!"schbench ran");
		return;
	}
	/* seconds 0 and 1 post 100 each; all done by 1.02 s */
	CHECKF(metric(&r, "requests") == 200, "%g", metric(&r, "requests"));
	CHECK(fabs(metric(&r, "request_us_max") - (100 + MATH_US(5))) < 1e-6);
	CHECK(fabs(metric(&r, "rps") - 200 / 1.5) < 1e-6);
}

/* The per-CPU lock on one CPU under CFS: two workers whose math is longer
 * than a slice share one CPU lock.  A worker preempted in its math keeps
 * the lock; the one that then runs spins on it.  Spinning is CPU time
 * that does no request, so the lock costs requests; without it (lock=off)
 * the CPU only does work. */
SL_TEST(schbench_lock_spins_cost_requests)
{
	struct sch_result with, without;
	const char *args = "workers=2,runtime_s=1,sleep_us=100,loops=1,footprint_kb=24,op_ns=300";

	char a1[160], a0[160];
	snprintf(a1, sizeof(a1), "%s,lock=on", args);
	snprintf(a0, sizeof(a0), "%s,lock=off", args);
	if (!sch_run(&with, ONE_CPU, "cfs", false, a1) ||
	    !sch_run(&without, ONE_CPU, "cfs", false, a0)) {
		CHECK(!"schbench ran");
		return;
	}
	double rq1 = metric(&with, "requests"), rq0 = metric(&without, "requests");
	CHECKF(rq1 < rq0, "lock %g, no lock %g requests", rq1, rq0);
	/* without the lock the one CPU's user time is the math done */
	double math_s = MATH_US(1) * 600 / 1e6;	/* op_ns=300 */
	CHECKF(sl_ns_to_s(without.stats.user_ns) <= (rq0 + 2) * math_s * 1.01,
	       "user %g s for %g requests", sl_ns_to_s(without.stats.user_ns), rq0);
}

SL_TEST(schbench_default_workers_per_cpu)
{
	struct sch_result r;

	if (!sch_run(&r, "pack:2 core:2 pu:1", NULL, true,
		     "message_threads=3,runtime_s=0.01," SMALL)) {
		CHECK(!"schbench ran");
		return;
	}
	/* main, 3 message threads, ceil(4 / 3) = 2 workers each */
	CHECK(r.stats.tasks == 1 + 3 + 3 * 2);
}

SL_TEST(schbench_rejects_bad_parameters)
{
	struct sl_params p;
	struct sl_err err = { 0 };

	CHECK(sch_bind("warmup_s=30", &p, &err) == -1);
	CHECK(strstr(err.msg, "warmup_s") != NULL);
	CHECK(sch_bind("message_threads=1000,workers=1000", &p, &err) == -1);
	CHECK(strstr(err.msg, "more than") != NULL);
	CHECK(sch_bind("message_threads=4,rps=3", &p, &err) == -1);
	CHECK(sch_bind("lock=2", &p, &err) == -1);
	CHECK(sch_bind("footprint_kb=0", &p, &err) == -1);
	CHECK(sch_bind("runtime_s=0", &p, &err) == -1);
	CHECK(sch_bind("message_threads=2,rps=2,workers=3", &p, &err) == 0);
}
