/*
 * test_workload_bench.c - sdet, schedbench and hackbench: their structure
 * (processes per script, messages and bytes per hackbench group), metric
 * arithmetic on runs small enough to work out by hand, determinism per
 * seed, and the rejection of every bad parameter by name.
 *
 * The workloads are bound directly through their ops (sl_spec_parse +
 * sl_spec_bind), so these tests do not depend on the registry.  Runs use
 * "up" on one-CPU machines and "o1" elsewhere, invariant checks on.
 */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "base/hist.h"
#include "hw/machine.h"
#include "policy/policy.h"
#include "sim/sim.h"
#include "workload/bench_workloads.h"
#include "workload/hackbench.h"
#include "workload/net_workloads.h"
#include "workload/workload.h"
#include "lt_watch.h"
#include "test.h"

/* ---- helpers ---- */

static int bind(const struct sl_workload_ops *ops, const char *text, struct sl_params *p,
		struct sl_err *err)
{
	struct sl_spec spec;

	if (sl_spec_parse(&spec, text, "workload", err) ||
	    sl_spec_bind(p, &spec, ops->params, NULL, ops->name, err))
		return -1;
	if (ops->validate && ops->validate(p, err))
		return -1;
	return 0;
}

/* `text` is rejected as bad input, and the message names `key`. */
static bool rejects(const struct sl_workload_ops *ops, const char *text, const char *key)
{
	struct sl_params p;
	struct sl_err err = { 0 };

	if (bind(ops, text, &p, &err) == 0)
		return false;
	return err.kind == SL_ERR_INPUT && strstr(err.msg, key) != NULL;
}

static bool accepts(const struct sl_workload_ops *ops, const char *text)
{
	struct sl_params p;
	struct sl_err err = { 0 };
	return bind(ops, text, &p, &err) == 0;
}

struct wb_run {
	struct sl_machine machine;
	const struct sl_policy_ops *policy;
	struct sl_params knobs, params;
	struct sl_sim *sim;
	void *state;
	struct sl_run_stats stats;
	struct sl_metrics metrics;
};

static bool wb_run_observed(struct wb_run *r, const char *machine,
			    const struct sl_workload_ops *ops, const char *text, uint64_t seed,
			    const struct sl_observer *obs);

static bool wb_run(struct wb_run *r, const char *machine, const struct sl_workload_ops *ops,
		   const char *text, uint64_t seed)
{
	return wb_run_observed(r, machine, ops, text, seed, NULL);
}

/* As wb_run, watched by `obs` (may be NULL). */
static bool wb_run_observed(struct wb_run *r, const char *machine,
			    const struct sl_workload_ops *ops, const char *text, uint64_t seed,
			    const struct sl_observer *obs)
{
	struct sl_err err = { 0 };
	char label[64];
	sl_time limit = 0;

	memset(r, 0, sizeof(*r));
	if (sl_machine_load(&r->machine, machine, &err))
		goto fail;
	const char *policy = r->machine.topo.ncpus == 1 ? "up" : "o1";
	if (sl_policy_parse(policy, &r->policy, &r->knobs, label, sizeof(label), &err) ||
	    bind(ops, text, &r->params, &err))
		goto fail;
	struct sl_sim_config cfg = {
		.machine = &r->machine, .policy = r->policy, .knobs = &r->knobs,
		.seed = seed, .check = true, .observer = obs,
	};
	r->sim = sl_sim_create(&cfg, &err);
	if (!r->sim)
		goto fail;
	r->state = ops->start(r->sim, &r->params, &limit);
	if (limit != 0) {
		sl_fail_internal(&err, "unexpected time limit");
		goto fail;
	}
	if (sl_sim_run(r->sim, &err))
		goto fail;
	sl_sim_stats(r->sim, &r->stats);
	ops->report(r->sim, r->state, &r->params, &r->metrics);
	return true;
fail:
	fprintf(stderr, "run %s on %s: %s\n", text, machine, err.msg);
	if (r->sim)
		sl_sim_destroy(r->sim);
	r->sim = NULL;
	return false;
}

static void wb_done(struct wb_run *r)
{
	if (r->sim)
		sl_sim_destroy(r->sim);
	r->sim = NULL;
}

static double metric(const struct wb_run *r, const char *name)
{
	const struct sl_metric *m = sl_metrics_find(&r->metrics, name);
	return m ? m->value : NAN;
}

static bool near(double a, double b, double rel)
{
	return fabs(a - b) <= rel * fabs(b);
}

#define ONE_CPU "pack:1 core:1 pu:1"
#define TWO_CPUS "pack:2 core:1 pu:1"

/* ---- hackbench ---- */

/* One group, one loop: each of the 20 senders writes one 100-byte message
 * to each of the 20 receivers. */
SL_TEST(hackbench_one_group_one_loop_moves_400_messages)
{
	struct wb_run r;

	if (!wb_run(&r, ONE_CPU, &sl_workload_hackbench, "hackbench:groups=1,loops=1", 1)) {
		CHECK(!"hackbench ran");
		return;
	}
	const struct hb_run *run = r.state;
	CHECK(metric(&r, "messages") == 20 * 20);
	CHECK(metric(&r, "bytes") == 20 * 20 * 100);
	CHECK(metric(&r, "processes") == 41);
	CHECK(r.stats.tasks == 41);
	CHECK(run->writes == 400 && run->bytes_written == 40000);
	CHECK(run->reads == 400);	/* whole messages: never a split read */
	CHECK(run->group_bytes[0] == 40000);
	CHECK(run->reaped == 40 && run->ready_read == 40);
	CHECK(run->t_go > run->t_start && run->t_end > run->t_go);
	wb_done(&r);
}

/* Senders and receivers are latency groups of their own: each side's
 * waits are counted there and in the run's; the main process is in
 * neither.  On one CPU every wakeup waits for whoever runs. */
SL_TEST(hackbench_reports_waits_per_side)
{
	struct wb_run r;

	if (!wb_run(&r, ONE_CPU, &sl_workload_hackbench, "hackbench:groups=1,loops=2", 1)) {
		CHECK(!"hackbench ran");
		return;
	}
	const struct sl_hist *all = sl_sim_latency(r.sim, SL_LAT_WAKEUP, 0);
	const struct sl_hist *snd = sl_sim_latency(r.sim, SL_LAT_WAKEUP, 1);
	const struct sl_hist *rcv = sl_sim_latency(r.sim, SL_LAT_WAKEUP, 2);
	CHECK(all && snd && rcv);
	if (all && snd && rcv) {
		CHECKF(all->count > snd->count + rcv->count, "all %llu senders %llu receivers %llu",
		       (unsigned long long)all->count, (unsigned long long)snd->count,
		       (unsigned long long)rcv->count);
		CHECK(snd->count >= 20 && rcv->count >= 20);	/* each forked at least */
		CHECK(snd->max <= all->max && rcv->max <= all->max);
		CHECK(metric(&r, "senders_wakeup_lat_us_max") == (double)snd->max / 1e3);
		CHECK(metric(&r, "receivers_runq_delay_us_p99") > 0);
	}
	wb_done(&r);
}

/* On one CPU with 1 ms per call and no jitter, the measured time is the
 * 400 writes and 400 reads back to back, plus context switches and the
 * 40 exits: 0.8 s and a little. */
SL_TEST(hackbench_time_is_the_calls_on_one_cpu)
{
	struct wb_run r;

	if (!wb_run(&r, ONE_CPU, &sl_workload_hackbench,
		    "hackbench:groups=1,loops=1,msg_us=1000,jitter=0", 1)) {
		CHECK(!"hackbench ran");
		return;
	}
	double t = metric(&r, "time_s");
	CHECKF(t >= 0.8 && t < 0.81, "time %g", t);
	/* 20 socketpairs before the start, the 800 calls after it */
	double sys = sl_ns_to_s(r.stats.sys_ns);
	CHECKF(sys >= 0.82 && sys < 0.83, "sys %g", sys);
	CHECKF(sl_ns_to_s(r.stats.user_ns) < 0.01, "user %g", sl_ns_to_s(r.stats.user_ns));
	CHECKF(sl_ns_to_s(r.stats.elapsed_ns) > t + 0.02, "elapsed %g", sl_ns_to_s(r.stats.elapsed_ns));
	wb_done(&r);
}

/* ---- pingpong ---- */

/* One CPU, 1 ms per call: a round trip is four calls (write and read on
 * each side) and two context switches.  A write that fits wakes the reader
 * asynchronously (2.4.27 / 2.6.11 fs/pipe.c), and under up (2.6.0) the
 * woken reader's sleep credit mostly preempts the writer before its read:
 * one switch a sleep, the other a preemption. */
SL_TEST(pingpong_round_trip_is_four_calls_on_one_cpu)
{
	struct wb_run r;

	if (!wb_run(&r, ONE_CPU, &sl_workload_pingpong, "pingpong:loops=50,msg_us=1000", 1)) {
		CHECK(!"pingpong ran");
		return;
	}
	double rt = metric(&r, "round_trip_us");
	CHECKF(rt >= 4000 && rt < 4020, "round trip %g us", rt);
	CHECK(near(metric(&r, "time_s"), 50 * rt * 1e-6, 1e-9));
	CHECK(r.stats.tasks == 2);
	long sw = r.stats.nvcsw + r.stats.nivcsw;
	CHECKF(sw >= 100 && sw <= 106 && r.stats.nivcsw >= 40, "sleeps %ld, preempted %ld",
	       r.stats.nvcsw, r.stats.nivcsw);
	wb_done(&r);
}

/* Two CPUs: the partners run on both, and each trip pays two cross-CPU
 * wakeups, so a trip costs the four calls plus two IPI latencies. */
SL_TEST(pingpong_across_cpus_pays_the_wakeups)
{
	struct wb_run one, two;

	if (!wb_run(&one, ONE_CPU, &sl_workload_pingpong, "pingpong:loops=50,msg_us=10", 1) ||
	    !wb_run(&two, TWO_CPUS, &sl_workload_pingpong, "pingpong:loops=50,msg_us=10", 1)) {
		CHECK(!"pingpong ran");
		return;
	}
	double ipi_us = (double)sl_sim_machine(two.sim)->speed.ipi_ns / 1e3;
	double a = metric(&one, "round_trip_us"), b = metric(&two, "round_trip_us");
	CHECKF(b > 40 + 2 * ipi_us - 1e-9, "two CPUs %g us, one %g us, ipi %g us", b, a, ipi_us);
	wb_done(&one);
	wb_done(&two);
}

SL_TEST(hackbench_groups_and_loops_multiply)
{
	struct wb_run r;

	if (!wb_run(&r, TWO_CPUS, &sl_workload_hackbench,
		    "hackbench:groups=3,loops=2,mode=pipe", 2)) {
		CHECK(!"hackbench ran");
		return;
	}
	const struct hb_run *run = r.state;
	CHECK(metric(&r, "messages") == 3 * 20 * 20 * 2);
	CHECK(metric(&r, "processes") == 1 + 3 * 40);
	for (int g = 0; g < 3; g++)
		CHECKF(run->group_bytes[g] == 20 * 20 * 2 * 100, "group %d: %ld", g,
		       run->group_bytes[g]);
	CHECK(run->reads == run->writes);
	CHECK(run->cfg.buf == 0 && run->cfg.pipe);	/* the kernel's pipe */
	wb_done(&r);
}

SL_TEST(hackbench_fds_change_the_group)
{
	struct wb_run r;

	if (!wb_run(&r, TWO_CPUS, &sl_workload_hackbench, "hackbench:groups=2,fds=3,loops=5", 1)) {
		CHECK(!"hackbench ran");
		return;
	}
	CHECK(metric(&r, "messages") == 2 * 3 * 3 * 5);
	CHECK(metric(&r, "processes") == 1 + 2 * 6);
	wb_done(&r);
}

SL_TEST(hackbench_channel_capacity_in_whole_messages)
{
	CHECK(hb_chan_bytes(4096) == 4000);
	CHECK(hb_chan_bytes(150) == 100);
	CHECK(hb_chan_bytes(100) == 100);
}

/* A sim of `policy` on `machine`, for what the policy's kernel sets at init. */
static struct sl_sim *kernel_sim_on(const char *machine, const char *policy, struct sl_machine *m,
				    struct sl_params *knobs)
{
	struct sl_err err = { 0 };
	const struct sl_policy_ops *ops;
	char label[64];

	if (sl_machine_load(m, machine, &err) ||
	    sl_policy_parse(policy, &ops, knobs, label, sizeof(label), &err))
		return NULL;
	struct sl_sim_config cfg = { .machine = m, .policy = ops, .knobs = knobs, .seed = 1 };
	return sl_sim_create(&cfg, &err);
}

/* ... on two CPUs of the default (x86_64) arch. */
static struct sl_sim *kernel_sim(const char *policy, struct sl_machine *m, struct sl_params *knobs)
{
	return kernel_sim_on(TWO_CPUS, policy, m, knobs);
}

/*
 * Where sim.h's struct sk_buff sizes come from: the member lists of
 * 2.4.27's and 2.6.12.1's include/linux/skbuff.h, with netfilter and
 * traffic control configured (2.6.12.1: bridge netfilter too, not
 * CONFIG_NET_CLS_ACT, NETFILTER_DEBUG or HIPPI), laid out by the compiler
 * with a pointer and a long of 4 bytes (i386) and of 8 (LP64: ia64,
 * x86_64).  Every pointer member, a union of pointers and the destructor
 * is a W; timeval is two longs.  The i386 layouts give the 164 and 176
 * bytes read before, the LP64 ones 248 and 272.
 */
#define SKB_2_4(W) struct { \
	W next, prev, list, sk; W stamp_sec, stamp_usec; W dev, real_dev; \
	W h, nh, mac, dst; char cb[48]; \
	uint32_t len, data_len, csum; unsigned char unused, cloned, pkt_type, ip_summed; \
	uint32_t priority; int32_t users; uint16_t protocol, security; uint32_t truesize; \
	W head, data, tail, end, destructor; \
	W nfmark; uint32_t nfcache; W nfct; \
	uint32_t tc_index; }
#define SKB_2_6_12(W) struct { \
	W next, prev, list, sk; W stamp_sec, stamp_usec; W dev, input_dev, real_dev; \
	W h, nh, mac, dst, sp; char cb[40]; \
	uint32_t len, data_len, mac_len, csum; \
	unsigned char local_df, cloned : 1, nohdr : 1, pkt_type, ip_summed; \
	uint32_t priority; uint16_t protocol, security; W destructor; \
	W nfmark; uint32_t nfcache, nfctinfo; W nfct; W nf_bridge; \
	uint32_t tc_index; \
	uint32_t truesize; int32_t users; W head, data, tail, end; }

SL_TEST(skb_sizes_from_the_kernels_member_lists)
{
	CHECK(sizeof(SKB_2_4(uint32_t)) == 164 && SL_SOCKETS_2_4.unix_small_truesize == 128 + 164);
	CHECK(sizeof(SKB_2_4(uint64_t)) == 248 &&
	      SL_SOCKETS_2_4_LP64.unix_small_truesize == 128 + 248);
	CHECK(sizeof(SKB_2_6_12(uint32_t)) == 176 &&
	      SL_SOCKETS_2_6_12.unix_small_truesize == 128 + 176);
	CHECK(sizeof(SKB_2_6_12(uint64_t)) == 272 &&
	      SL_SOCKETS_2_6_12_LP64.unix_small_truesize == 128 + 272 &&
	      SL_SOCKETS_2_6_12_LP64.unix_sndbuf == (272 + 256) * 256);
}

/* Each kernel's socket buffers (sim.h struct sl_sockets): an AF_UNIX
 * socket lets a writer queue one more skb while its skbs take less than
 * sk_sndbuf, so 2.4/2.5's 65535 / 292 holds 225 hackbench messages on
 * i386, 2.6.12's 110592 / 304 holds 364 and 6.12's 212992 / 768 holds 278
 * (the host's 6.18 holds 278); on a 64-bit arch the older kernels' larger
 * struct sk_buff gives 65535 / 376 = 175 and 135168 / 400 = 338; a
 * loopback TCP connection buffers tcp_rmem's default, 87380 or 131072
 * bytes. */
SL_TEST(sockets_hold_what_each_kernel_lets_in)
{
	/* writes: ceil(sk_sndbuf / truesize); writable: the queued writes at
	 * which a read wakes the writers, unix_writable()'s wmem_alloc x 4 <=
	 * sk_sndbuf: floor(65535 / 1168) = 56, floor(110592 / 1216) = 90,
	 * floor(212992 / 3072) = 69; LP64 floor(65535 / 1504) = 43,
	 * floor(135168 / 1600) = 84 */
	static const char i386[] = "pack:2 core:1 pu:1,arch=i386", ia64[] = "azusa-16";
	static const struct {
		const char *machine, *policy;
		long unix_msgs, writable, tcp_bytes;
	} k[] = {
		{ i386, "linux24", 225, 56, 87380 }, { i386, "o1", 225, 56, 87380 },
		{ i386, "ht", 225, 56, 87380 }, { i386, "domains", 364, 90, 87380 },
		{ i386, "domains:version=w26", 225, 56, 87380 },
		{ i386, "cfs", 278, 69, 131072 }, { i386, "sl", 278, 69, 131072 },
		{ TWO_CPUS, "linux24", 175, 43, 87380 }, { TWO_CPUS, "o1", 175, 43, 87380 },
		{ TWO_CPUS, "up", 175, 43, 87380 }, { ia64, "o1", 175, 43, 87380 },
		{ TWO_CPUS, "domains", 338, 84, 87380 },
		{ TWO_CPUS, "domains:version=w26", 175, 43, 87380 },
		{ TWO_CPUS, "cfs", 278, 69, 131072 },
	};
	for (size_t i = 0; i < sizeof(k) / sizeof(k[0]); i++) {
		struct sl_machine m;
		struct sl_params knobs;
		struct sl_sim *sim = kernel_sim_on(k[i].machine, k[i].policy, &m, &knobs);
		CHECKF(sim != NULL, "%s", k[i].policy);
		if (!sim)
			continue;
		CHECKF(hb_default_buf(sim, false) == k[i].unix_msgs * HB_MSG_BYTES, "%s on %s: %ld",
		       k[i].policy, k[i].machine, hb_default_buf(sim, false));
		CHECKF(sl_unix_socket_writable(sim) == k[i].writable, "%s: %ld", k[i].policy,
		       sl_unix_socket_writable(sim));
		/* hackbench's socket wakes its writers there, which a quarter of
		 * the rounded-up capacity need not (364 / 4 = 91) */
		struct sl_chan *c = hb_channel(sim, hb_default_buf(sim, false), false);
		CHECKF(sl_chan_write_space(c) / HB_MSG_BYTES == k[i].writable, "%s: %ld",
		       k[i].policy, sl_chan_write_space(c));
		CHECKF(net_tcp_bytes(sim, 1) == k[i].tcp_bytes, "%s", k[i].policy);
		CHECKF(net_tcp_bytes(sim, CHAT_MSG_BYTES) == k[i].tcp_bytes / 100 * 100, "%s",
		       k[i].policy);
		sl_sim_destroy(sim);
	}
	/* the rule at its edge: a buffer one byte over n skbs lets in n + 1 */
	struct sl_machine m;
	struct sl_params knobs;
	struct sl_sim *sim = kernel_sim("o1", &m, &knobs);
	if (sim) {
		sl_set_sockets(sim, (struct sl_sockets){ .unix_sndbuf = 3 * 768, .unix_small_truesize = 768 });
		CHECK(sl_unix_socket_writes(sim) == 3);
		sl_set_sockets(sim, (struct sl_sockets){ .unix_sndbuf = 3 * 768 + 1, .unix_small_truesize = 768 });
		CHECK(sl_unix_socket_writes(sim) == 4);
		sl_sim_destroy(sim);
	}
}

/* Same seed, same result; another seed moves the per-call jitter. */
SL_TEST(hackbench_seed_gives_the_spread)
{
	struct wb_run a, b, c;
	const char *spec = "hackbench:groups=2,loops=5";

	if (!wb_run(&a, TWO_CPUS, &sl_workload_hackbench, spec, 4) ||
	    !wb_run(&b, TWO_CPUS, &sl_workload_hackbench, spec, 4) ||
	    !wb_run(&c, TWO_CPUS, &sl_workload_hackbench, spec, 5)) {
		CHECK(!"hackbench runs");
		wb_done(&a);
		wb_done(&b);
		return;
	}
	CHECK(metric(&a, "time_s") == metric(&b, "time_s"));
	CHECK(metric(&a, "time_s") != metric(&c, "time_s"));
	CHECK(metric(&a, "messages") == metric(&c, "messages"));
	wb_done(&a);
	wb_done(&b);
	wb_done(&c);
}

SL_TEST(hackbench_bad_params_fail)
{
	const struct sl_workload_ops *h = &sl_workload_hackbench;

	CHECK(accepts(h, "hackbench"));
	CHECK(accepts(h, "hackbench:groups=20,loops=1,fds=1,mode=pipe,buf=65536,msg_us=0,jitter=0"));
	CHECK(rejects(h, "hackbench:groups=0", "groups"));
	CHECK(rejects(h, "hackbench:groups=abc", "groups"));
	CHECK(rejects(h, "hackbench:loops=0", "loops"));
	CHECK(rejects(h, "hackbench:fds=0", "fds"));
	CHECK(rejects(h, "hackbench:mode=tcp", "mode"));
	CHECK(rejects(h, "hackbench:buf=99", "buf"));
	CHECK(rejects(h, "hackbench:msg_us=-1", "msg_us"));
	CHECK(rejects(h, "hackbench:readsize=50", "readsize"));
	CHECK(rejects(h, "hackbench:jitter=3", "jitter"));
	CHECK(rejects(h, "hackbench:group=2", "group"));
}

/* ---- schedbench ---- */

/* Two tasks of 1 s on one CPU (one node), no hackbench, no page-fault
 * cost: each task's user time is its 1 s (plus cache refills when they
 * share the CPU), the run is their sum, and every second is at home. */
SL_TEST(schedbench_one_cpu_arithmetic)
{
	struct wb_run r;

	if (!wb_run(&r, ONE_CPU, &sl_workload_schedbench,
		    "schedbench:tasks=2,size=1,hackbench=0,fault_us=0", 1)) {
		CHECK(!"schedbench ran");
		return;
	}
	const struct sl_schedbench_task *rows;
	CHECK(sl_schedbench_tasks(r.state, &rows) == 2);
	double avg = metric(&r, "avg_user_s");
	CHECKF(avg >= 1.0 && avg < 1.02, "avg user %g", avg);
	CHECK(near(avg, (rows[0].user_s + rows[1].user_s) / 2, 1e-12));
	CHECK(metric(&r, "max_user_s") == fmax(rows[0].user_s, rows[1].user_s));
	/* TotalUser: the two tasks and dispatch's own (cache refills only) */
	double total = metric(&r, "total_user_s");
	CHECKF(total >= 2 * avg && total < 2 * avg + 0.01, "total %g avg %g", total, avg);
	double elapsed = metric(&r, "bench_elapsed_s");
	CHECKF(elapsed >= 2.0 && elapsed < 2.05, "elapsed %g", elapsed);
	CHECKF(near(elapsed, sl_ns_to_s(r.stats.elapsed_ns), 1e-3), "bench %g engine %g", elapsed,
	       sl_ns_to_s(r.stats.elapsed_ns));
	/* exec, exit and 32 startup pages at 0 us: a few hundred us each */
	CHECKF(metric(&r, "total_sys_s") < 0.01, "sys %g", metric(&r, "total_sys_s"));
	CHECK(metric(&r, "home_pct") == 100);
	CHECK(metric(&r, "home_pct_min") == 100);
	CHECK(metric(&r, "moved") == 0);
	CHECK(metric(&r, "hackbench_s") == 0);
	for (int i = 0; i < 2; i++) {
		CHECK(rows[i].isched == 0 && rows[i].msched == 0 && rows[i].home == 0);
		CHECK(rows[i].node_pct[0] == 100);
		CHECK(isnan(rows[i].node_pct[1]));
		CHECK(rows[i].end_s > 0.99 && rows[i].end_s <= elapsed);
	}
	wb_done(&r);
}

/* dispatch forks in a loop: each fork returns before the next begins (the
 * engine charges a fork's cost before the child exists), so
 * the children are born one fork cost apart, not all at once (a burst of
 * children queued at one instant skews exec balancing on NUMA machines). */
SL_TEST(schedbench_forks_one_after_the_other)
{
	struct wb_run r;

	if (!wb_run(&r, ONE_CPU, &sl_workload_schedbench,
		    "schedbench:tasks=4,size=0.1,hackbench=0", 1)) {
		CHECK(!"schedbench ran");
		return;
	}
	const struct sl_schedbench_task *rows;
	CHECK(sl_schedbench_tasks(r.state, &rows) == 4);
	double fork_s = sl_ns_to_s(r.machine.speed.fork_ns);
	CHECK(fork_s > 0);
	for (int i = 1; i < 4; i++)
		CHECKF(rows[i].start_s - rows[i - 1].start_s >= fork_s * (1 - 1e-9),
		       "child %d born %g s after child %d (fork %g s)", i,
		       rows[i].start_s - rows[i - 1].start_s, i - 1, fork_s);
	wb_done(&r);
}

/* The first-touch page faults are system time: 20 MB = 5120 pages. */
SL_TEST(schedbench_page_faults_are_system_time)
{
	struct wb_run r;

	if (!wb_run(&r, ONE_CPU, &sl_workload_schedbench,
		    "schedbench:tasks=1,size=0.1,hackbench=0,fault_us=100", 1)) {
		CHECK(!"schedbench ran");
		return;
	}
	const struct sl_schedbench_task *rows;
	sl_schedbench_tasks(r.state, &rows);
	/* (5120 + 32 startup pages) x 100 us, plus exec and exit */
	double faults = (5120 + 32) * 100e-6;
	CHECKF(rows[0].sys_s >= faults && rows[0].sys_s < faults + 0.002, "sys %g", rows[0].sys_s);
	CHECKF(near(rows[0].user_s, 0.1, 0.01), "user %g", rows[0].user_s);
	wb_done(&r);
}

/* hackbench 1 in the background: its processes run and are timed, but
 * TotalUser/TotalSys cover only dispatch and the jobs it reaps. */
SL_TEST(schedbench_hackbench_is_outside_the_totals)
{
	struct wb_run r;

	if (!wb_run(&r, TWO_CPUS, &sl_workload_schedbench,
		    "schedbench:tasks=2,size=1,hackbench=1,hackbench_at=0.2", 3)) {
		CHECK(!"schedbench ran");
		return;
	}
	const struct sl_schedbench_task *rows;
	int n = sl_schedbench_tasks(r.state, &rows);
	CHECK(n == 2);
	CHECK(r.stats.tasks == 1 + 2 + 1 + 40);	/* dispatch, jobs, hackbench and its 40 */
	double hb = metric(&r, "hackbench_s");
	CHECKF(hb > 0 && hb < metric(&r, "bench_elapsed_s"), "hackbench %g", hb);
	double jobs_sys = rows[0].sys_s + rows[1].sys_s;
	CHECKF(metric(&r, "total_sys_s") >= jobs_sys &&
	       metric(&r, "total_sys_s") < sl_ns_to_s(r.stats.sys_ns), "sys %g of %g",
	       metric(&r, "total_sys_s"), sl_ns_to_s(r.stats.sys_ns));
	CHECK(metric(&r, "total_user_s") <= sl_ns_to_s(r.stats.user_ns));
	CHECK(metric(&r, "bench_elapsed_s") <= sl_ns_to_s(r.stats.elapsed_ns) + 1e-9);
	/* the jobs lost CPU to hackbench: more than 1 s of wall time each */
	CHECK(rows[0].end_s > 1.0 && rows[1].end_s > 1.0);
	wb_done(&r);
}

/* A schedbench run `spec` on `machine` with seed 2 and its per-task rows:
 * their number, or -1 (a failed check) when it did not run. */
static int sb_rows(struct wb_run *r, const char *machine, const char *spec,
		   const struct sl_schedbench_task **rows)
{
	if (!wb_run(r, machine, &sl_workload_schedbench, spec, 2)) {
		CHECK(!"schedbench ran");
		return -1;
	}
	return sl_schedbench_tasks(r->state, rows);
}

/* On two nodes the rows are consistent: shares add up to 100 %, MSched is
 * the node with the largest share, the summaries are their means. */
SL_TEST(schedbench_rows_are_consistent_on_two_nodes)
{
	struct wb_run r;
	const struct sl_schedbench_task *rows;
	int n = sb_rows(&r, "node:2 pack:1 core:2 pu:1",
			"schedbench:tasks=6,size=0.5,hackbench=1,hackbench_at=0.1", &rows);

	if (n < 0)
		return;
	double home = 0, min = 100;
	int moved = 0;
	CHECK(n == 6);
	for (int i = 0; i < n; i++) {
		const struct sl_schedbench_task *t = &rows[i];
		double sum = t->node_pct[0] + t->node_pct[1];
		CHECKF(near(sum, 100, 1e-9), "task %d: %g", i, sum);
		CHECK(isnan(t->node_pct[2]) && isnan(t->node_pct[3]));
		CHECK(t->msched == (t->node_pct[1] > t->node_pct[0] ? 1 : 0));
		CHECK(t->isched >= 0 && t->isched < 2 && t->home >= 0 && t->home < 2);
		home += t->node_pct[t->home];
		min = fmin(min, t->node_pct[t->home]);
		moved += t->msched != t->isched;
	}
	CHECK(near(metric(&r, "home_pct"), home / n, 1e-9));
	CHECK(metric(&r, "home_pct_min") == min);
	CHECK(metric(&r, "moved") == moved);
	wb_done(&r);
}

/* Memory split by first touch (sim/first_touch.c), under the engine's
 * checks (every node's demand summed at every event, the drawing CPUs in
 * their masks): on four bandwidth-limited nodes, 32 walkers forked on one
 * CPU are spread by the balancer while their inits touch their arrays, and
 * some end with memory on several nodes (6-8 of 32 in seeds 1-3 under o1
 * 2.6.0); `split` counts them, and each row says on how many nodes its
 * memory lies. */
SL_TEST(schedbench_split_memory_is_counted)
{
	struct wb_run r;
	const struct sl_schedbench_task *rows;
	int n = sb_rows(&r, "node:4 pack:1 core:4 pu:1,bw=0.5",
			"schedbench:tasks=32,size=0.5,hackbench=1,hackbench_at=0.05", &rows), split = 0;

	if (n < 0)
		return;
	CHECK(n == 32);
	for (int i = 0; i < n; i++) {
		CHECKF(rows[i].mem_nodes >= 1 && rows[i].mem_nodes <= 4, "task %d: %d nodes", i,
		       rows[i].mem_nodes);
		split += rows[i].mem_nodes > 1;
	}
	CHECKF(split > 0 && metric(&r, "split") == split, "split %d, metric %g", split,
	       metric(&r, "split"));
	wb_done(&r);
}

SL_TEST(schedbench_same_seed_same_run)
{
	struct wb_run a, b;
	const char *spec = "schedbench:tasks=3,size=0.3,hackbench=1,hackbench_at=0.05";

	if (!wb_run(&a, TWO_CPUS, &sl_workload_schedbench, spec, 7) ||
	    !wb_run(&b, TWO_CPUS, &sl_workload_schedbench, spec, 7)) {
		CHECK(!"schedbench runs");
		wb_done(&a);
		return;
	}
	for (int i = 0; i < a.metrics.n; i++)
		CHECKF(a.metrics.m[i].value == b.metrics.m[i].value ||
		       (isnan(a.metrics.m[i].value) && isnan(b.metrics.m[i].value)),
		       "%s", a.metrics.m[i].name);
	wb_done(&a);
	wb_done(&b);
}

SL_TEST(schedbench_bad_params_fail)
{
	const struct sl_workload_ops *s = &sl_workload_schedbench;

	CHECK(accepts(s, "schedbench"));
	CHECK(accepts(s, "schedbench:tasks=64,size=1,mb=1,hackbench=0,hackbench_at=0,fault_us=0"));
	CHECK(rejects(s, "schedbench:tasks=0", "tasks"));
	CHECK(rejects(s, "schedbench:tasks=many", "tasks"));
	CHECK(rejects(s, "schedbench:size=0", "size"));
	CHECK(rejects(s, "schedbench:mb=0", "mb"));
	CHECK(rejects(s, "schedbench:hackbench=-1", "hackbench"));
	CHECK(rejects(s, "schedbench:hackbench_at=-3", "hackbench_at"));
	CHECK(rejects(s, "schedbench:fault_us=x", "fault_us"));
	CHECK(rejects(s, "schedbench:task=4", "task"));
}

/* ---- sdet ---- */

/* Per script: the shell, 80 single commands (61 light, 19 medium), two
 * nroff | col (4), spell with deroff | spellprog (3), two cc with cpp,
 * ccom, as, ld (10), make with a cc (6), two sh -c with a cat (4) and
 * time ls (2): 110 processes; plus the driver. */
SL_TEST(sdet_processes_per_script)
{
	struct wb_run r;

	if (!wb_run(&r, TWO_CPUS, &sl_workload_sdet, "sdet:scripts=3,size=0.2", 1)) {
		CHECK(!"sdet ran");
		return;
	}
	CHECK(metric(&r, "commands") == 119);
	CHECK(metric(&r, "processes") == 1 + 3 * 110);
	CHECK(r.stats.tasks == 1 + 3 * 110);
	double tp = metric(&r, "throughput");
	CHECKF(tp > 0, "throughput %g", tp);
	CHECK(metric(&r, "script_s_max") >= metric(&r, "script_s_mean"));
	wb_done(&r);
}

/* One script on one CPU without jitter: the CPU never idles (ramfs, no
 * waits), so the run is its CPU time; half of the commands' work is
 * kernel time, the engine adds fork/exec/exit and switches; throughput
 * is 3600 / the script's time. */
SL_TEST(sdet_one_script_arithmetic)
{
	struct wb_run r;

	if (!wb_run(&r, ONE_CPU, &sl_workload_sdet, "sdet:scripts=1,size=2,jitter=0,sys=0.5", 1)) {
		CHECK(!"sdet ran");
		return;
	}
	double user = sl_ns_to_s(r.stats.user_ns), sys = sl_ns_to_s(r.stats.sys_ns);
	double elapsed = sl_ns_to_s(r.stats.elapsed_ns);
	/* the shell's parsing and the builtins (0.45 % of the table) are user */
	CHECKF(user >= 1.0 && user < 1.02, "user %g", user);
	CHECKF(sys >= 0.99 && sys < 1.05, "sys %g", sys);
	CHECKF(near(elapsed, user + sys, 1e-3), "elapsed %g cpu %g", elapsed, user + sys);
	double t = metric(&r, "script_s_max");
	CHECK(t == metric(&r, "script_s_mean"));
	CHECKF(near(metric(&r, "throughput"), 3600 / t, 1e-3), "throughput %g time %g",
	       metric(&r, "throughput"), t);
	wb_done(&r);
}

/* sys= moves the commands' work between user and system time. */
SL_TEST(sdet_sys_share)
{
	struct wb_run r;

	if (!wb_run(&r, ONE_CPU, &sl_workload_sdet, "sdet:scripts=1,size=2,jitter=0,sys=0", 1)) {
		CHECK(!"sdet ran");
		return;
	}
	double user = sl_ns_to_s(r.stats.user_ns), sys = sl_ns_to_s(r.stats.sys_ns);
	CHECKF(user >= 2.0 && user < 2.03, "user %g", user);
	CHECKF(sys < 0.05, "sys %g", sys);
	wb_done(&r);
}

/* Two CPUs run two scripts nearly twice as fast as one. */
SL_TEST(sdet_throughput_scales_with_cpus)
{
	struct wb_run one, two;

	if (!wb_run(&one, TWO_CPUS, &sl_workload_sdet, "sdet:scripts=1,size=0.5", 1) ||
	    !wb_run(&two, TWO_CPUS, &sl_workload_sdet, "sdet:scripts=2,size=0.5", 1)) {
		CHECK(!"sdet runs");
		wb_done(&one);
		return;
	}
	double t1 = metric(&one, "throughput"), t2 = metric(&two, "throughput");
	CHECKF(t2 > 1.6 * t1 && t2 < 2.1 * t1, "1 script %g, 2 scripts %g", t1, t2);
	wb_done(&one);
	wb_done(&two);
}

/* The run seed shuffles the scripts and draws the work factors: the same
 * seed repeats a run exactly, another differs but has the same structure. */
SL_TEST(sdet_seed_gives_the_spread)
{
	struct wb_run a, b, c;
	const char *spec = "sdet:scripts=4,size=0.3";

	if (!wb_run(&a, TWO_CPUS, &sl_workload_sdet, spec, 11) ||
	    !wb_run(&b, TWO_CPUS, &sl_workload_sdet, spec, 11) ||
	    !wb_run(&c, TWO_CPUS, &sl_workload_sdet, spec, 12)) {
		CHECK(!"sdet runs");
		wb_done(&a);
		wb_done(&b);
		return;
	}
	CHECK(metric(&a, "throughput") == metric(&b, "throughput"));
	CHECK(metric(&a, "throughput") != metric(&c, "throughput"));
	CHECK(metric(&a, "processes") == metric(&c, "processes"));
	wb_done(&a);
	wb_done(&b);
	wb_done(&c);
}

SL_TEST(sdet_bad_params_fail)
{
	const struct sl_workload_ops *s = &sl_workload_sdet;

	CHECK(accepts(s, "sdet"));
	CHECK(accepts(s, "sdet:scripts=999,size=1,sys=1,jitter=0"));
	CHECK(rejects(s, "sdet:scripts=0", "scripts"));
	CHECK(rejects(s, "sdet:scripts=1000", "scripts"));
	CHECK(rejects(s, "sdet:scripts=2.5", "scripts"));
	CHECK(rejects(s, "sdet:size=0", "size"));
	CHECK(rejects(s, "sdet:sys=1.5", "sys"));
	CHECK(rejects(s, "sdet:jitter=-0.1", "jitter"));
	CHECK(rejects(s, "sdet:script=4", "script"));
}

/* ---- the per-part message costs (hackbench.h) ---- */

/* One CPU, the machine's costs: a round trip is, on each side, a write
 * that wakes the partner, a read of one hot message, and a context switch
 * (plus the policy's pick).  Pipes are cheaper than sockets per call, as
 * measured, where the old single msg_us made them equal. */
SL_TEST(pingpong_round_trip_is_the_sum_of_its_parts)
{
	struct wb_run p, s;

	if (!wb_run(&p, ONE_CPU, &sl_workload_pingpong, "pingpong:loops=200,mode=pipe", 1) ||
	    !wb_run(&s, ONE_CPU, &sl_workload_pingpong, "pingpong:loops=200,mode=socket", 1)) {
		CHECK(!"pingpong ran");
		wb_done(&p);
		return;
	}
	struct hb_costs c;
	double ctx = (double)sl_cost_ctx_switch(p.sim);
	hb_machine_costs(p.sim, true, &c);
	double parts = 2 * (c.write_ns + c.wake_ns + c.read_ns + c.msg_ns + ctx) / 1e3;
	double rt = metric(&p, "round_trip_us");
	CHECKF(rt >= parts && rt < parts * 1.1, "pipe round trip %g us, parts %g us", rt, parts);
	CHECKF(c.wake_ns > 0 && c.cold_ns > 0, "wake %g cold %g", c.wake_ns, c.cold_ns);
	CHECKF(metric(&s, "round_trip_us") > rt * 1.2, "socket %g us, pipe %g us",
	       metric(&s, "round_trip_us"), rt);
	wb_done(&p);
	wb_done(&s);
}

/* hackbench reads one message per call; readsize=65536 (schedlab's real
 * hackbench) takes whatever is queued, so reads are fewer than messages. */
SL_TEST(hackbench_readsize_batches_the_reads)
{
	struct wb_run one, many;

	if (!wb_run(&one, ONE_CPU, &sl_workload_hackbench, "hackbench:groups=1,loops=20", 1) ||
	    !wb_run(&many, ONE_CPU, &sl_workload_hackbench,
		    "hackbench:groups=1,loops=20,readsize=65536", 1)) {
		CHECK(!"hackbench ran");
		wb_done(&one);
		return;
	}
	const struct hb_run *a = one.state, *b = many.state;
	CHECK(a->reads == 20 * 20 * 20 && a->bytes_read == 20 * 20 * 20 * 100);
	CHECKF(b->reads < 20 * 20 * 20 / 4, "%ld reads", b->reads);
	CHECK(b->bytes_read == 20 * 20 * 20 * 100 && b->writes == a->writes);
	CHECK(metric(&many, "time_s") < metric(&one, "time_s"));
	wb_done(&one);
	wb_done(&many);
}

/* One sender and one receiver on one CPU: the sender fills the socket
 * (204 messages) before the receiver runs, so nearly every message is
 * read from behind others and pays the cold cost; the system time is
 * the messages' parts, a few wakeups and switches, and the fork/exit. */
SL_TEST(hackbench_queued_messages_are_read_cold)
{
	struct wb_run r;

	if (!wb_run(&r, ONE_CPU, &sl_workload_hackbench,
		    "hackbench:groups=1,fds=1,loops=1000,jitter=0", 1)) {
		CHECK(!"hackbench ran");
		return;
	}
	struct hb_costs c;
	hb_machine_costs(r.sim, false, &c);
	double hot = 1000 * (c.write_ns + c.read_ns + c.msg_ns);
	double sys = (double)r.stats.sys_ns;
	CHECKF(c.cold_ns > 0.2 * c.write_ns, "cold %g ns", c.cold_ns);
	CHECKF(sys > hot + 900 * c.cold_ns, "sys %g ns, hot parts %g ns", sys, hot);
	/* two forks and three exits (70 + 40 us each on this machine), the
	 * socketpair, some wakeups and switches */
	double rest = 2 * (double)sl_sim_machine(r.sim)->speed.fork_ns +
		      3 * (double)sl_cost_exit(r.sim) + 20 * (c.wake_ns + sl_cost_ctx_switch(r.sim));
	CHECKF(sys < hot + 1000 * c.cold_ns + rest, "sys %g ns, hot parts %g ns, rest %g ns", sys,
	       hot, rest);
	wb_done(&r);
}

/* The same hackbench on two CPUs pays for shared lines that on one it
 * does not: a message written while the other CPU runs the run too pays
 * them (hackbench.h, SHARED), half of it with two CPUs; here at least
 * three quarters of the writes do (both CPUs run children to the end).  (Until Dec 2026 the test compared the runs'
 * system times, in which the one CPU's many more switches hide it.) */
SL_TEST(hackbench_two_cpus_pay_the_shared_lines)
{
	struct wb_run one, two;
	const char *spec = "hackbench:groups=2,loops=20,jitter=0";

	if (!wb_run(&one, ONE_CPU, &sl_workload_hackbench, spec, 1) ||
	    !wb_run(&two, TWO_CPUS, &sl_workload_hackbench, spec, 1)) {
		CHECK(!"hackbench ran");
		wb_done(&one);
		return;
	}
	struct hb_costs c;
	hb_machine_costs(two.sim, false, &c);
	const struct hb_run *run1 = one.state, *run = two.state;
	double writes = (double)run->writes;
	CHECKF(run1->shared_paid_ns == 0, "one CPU paid %g ns", run1->shared_paid_ns);
	CHECKF(c.shared_ns > 0 && run->shared_paid_ns > writes * 3 / 4 * c.shared_ns / 2,
	       "two CPUs paid %g ns for %g writes, shared %g ns", run->shared_paid_ns, writes,
	       c.shared_ns);
	wb_done(&one);
	wb_done(&two);
}

/* The shared lines are a message's, not a call's: reading one message
 * per call on two CPUs costs the extra reads little more than their
 * calls (the real run: 0.35 us per extra read against a call's 0.27), not
 * the shared lines of each. */
SL_TEST(hackbench_reads_of_one_message_pay_no_shared_lines)
{
	struct wb_run one_msg, batched;

	if (!wb_run(&one_msg, TWO_CPUS, &sl_workload_hackbench,
		    "hackbench:groups=2,loops=20,jitter=0", 1) ||
	    !wb_run(&batched, TWO_CPUS, &sl_workload_hackbench,
		    "hackbench:groups=2,loops=20,jitter=0,readsize=65536", 1)) {
		CHECK(!"hackbench ran");
		wb_done(&one_msg);
		return;
	}
	struct hb_costs c;
	hb_machine_costs(one_msg.sim, false, &c);
	const struct hb_run *r1 = one_msg.state, *rb = batched.state;
	double more_reads = (double)(r1->reads - rb->reads);
	double extra = (double)one_msg.stats.sys_ns - (double)batched.stats.sys_ns;
	CHECKF(more_reads > 10000 && extra < more_reads * (c.read_ns + 0.2 * c.shared_ns),
	       "one message per read %g ns, batched %g ns, %g more reads, read %g ns, shared %g ns",
	       (double)one_msg.stats.sys_ns, (double)batched.stats.sys_ns, more_reads, c.read_ns,
	       c.shared_ns);
	wb_done(&one_msg);
	wb_done(&batched);
}

/* ---- javabench ---- */

/* class= gives javabench's work another class: two workers on the two
 * siblings of one HT package run FP + FP at 0.55 each and MEM + MEM at
 * 0.65 (docs/model.md [SMT]), so the fp run takes longer; a bad class is
 * rejected by name. */
SL_TEST(javabench_class_sets_the_work_class)
{
	struct wb_run mem, fp;
	const char *base = "javabench:threads=2,size=1,gc_ms=0,lock_us=0,compile_every=1e9";
	char spec[128];

	CHECK(rejects(&sl_workload_javabench, "javabench:class=vector", "class"));
	CHECK(accepts(&sl_workload_javabench, "javabench:class=int"));
	snprintf(spec, sizeof(spec), "%s,class=mem", base);
	bool ok = wb_run(&mem, "pack:1 core:1 pu:2", &sl_workload_javabench, spec, 1);
	snprintf(spec, sizeof(spec), "%s,class=fp", base);
	ok = wb_run(&fp, "pack:1 core:1 pu:2", &sl_workload_javabench, spec, 1) && ok;
	CHECK(ok);
	if (ok) {
		double m = sl_ns_to_s(mem.stats.elapsed_ns), f = sl_ns_to_s(fp.stats.elapsed_ns);
		/* 0.5 s of work per worker: 0.77 s at 0.65, 0.91 s at 0.55 */
		CHECKF(m > 0.70 && m < 0.82 && f > 0.85 && f < 0.97, "mem %g s, fp %g s", m, f);
	}
	wb_done(&mem);
	wb_done(&fp);
}

/* Two MEM threads on the two packages of a dual Xeon DP (noht: one CPU
 * each) share its front-side bus.  A 0.4 GB/s bus serves 0.76 fully
 * memory-bound tasks (512 KB L2 refilled in 1 ms: 0.52 GB/s each), so
 * their demand 2 x 0.6 stretches their stalls by 1.57: 1 / (0.4 + 0.6 x
 * 1.57) = 0.74 of their speed; the preset's own 3.2 GB/s bus (6.1 tasks)
 * leaves them at full speed, and one thread alone is not slowed by 0.4. */
SL_TEST(javabench_threads_share_the_bus)
{
	struct wb_run own, narrow, alone;
	const char *two = "javabench:threads=2,size=1,gc_ms=0,lock_us=0,compile_every=1e9";
	const char *one = "javabench:threads=1,size=0.5,gc_ms=0,lock_us=0,compile_every=1e9";

	bool ok = wb_run(&own, "xeon-1800-2x2ht,noht", &sl_workload_javabench, two, 1);
	ok = wb_run(&narrow, "xeon-1800-2x2ht,noht,bus=0.4", &sl_workload_javabench, two, 1) && ok;
	ok = wb_run(&alone, "xeon-1800-2x2ht,noht,bus=0.4", &sl_workload_javabench, one, 1) && ok;
	CHECK(ok);
	if (ok) {
		double o = (double)own.stats.user_ns, n = (double)narrow.stats.user_ns;
		double a = (double)alone.stats.user_ns;
		double k = 1.2 / (0.4 / (512.0 * 1024 / 1e6));
		double want = 0.4 + 0.6 * k;	/* 1.34 */
		CHECKF(fabs(o - 1e9) < 0.01e9, "own bus: %g ns of user time for 1 s of work", o);
		CHECKF(fabs(n / o - want) < 0.02, "narrow bus: %g x the user time, want %g", n / o,
		       want);
		CHECKF(fabs(a - 0.5e9) < 0.005e9, "alone on the narrow bus: %g ns", a);
	}
	wb_done(&own);
	wb_done(&narrow);
	wb_done(&alone);
}

/* split=pool: three FP workers on two HT packages, where one package runs
 * two of them on its siblings at 0.55 each and the other one alone.  With
 * even shares the lone worker finishes first and its CPU idles; taking
 * bursts from one pool they all work until the pool is empty (user time
 * about 3 x elapsed, as a job with a work queue shows), which is sooner. */
SL_TEST(javabench_pool_keeps_every_worker_busy)
{
	struct wb_run even, pool;
	const char *base = "javabench:threads=3,size=3,gc_every_ms=1e6,gc_ms=0,lock_us=0,"
			   "compile_every=1e9,class=fp";
	char spec[160];

	CHECK(rejects(&sl_workload_javabench, "javabench:split=dynamic", "split"));
	snprintf(spec, sizeof(spec), "%s,split=even", base);
	bool ok = wb_run(&even, "xeon-1800-2x2ht", &sl_workload_javabench, spec, 1);
	snprintf(spec, sizeof(spec), "%s,split=pool", base);
	ok = wb_run(&pool, "xeon-1800-2x2ht", &sl_workload_javabench, spec, 1) && ok;
	CHECK(ok);
	if (ok) {
		double ee = (double)even.stats.elapsed_ns, eu = (double)even.stats.user_ns;
		double pe = (double)pool.stats.elapsed_ns, pu = (double)pool.stats.user_ns;
		CHECKF(eu < 2.8 * ee, "even: user %g ns in %g ns", eu, ee);
		/* the run ends at the watcher's wakeup after the work, a
		 * 50 ms period's phase: 2.90 x under 2.6's jiffy timers,
		 * 2.95 x with exact ones (o1:timers=exact) */
		CHECKF(pu > 2.85 * pe && pe < 0.9 * ee, "pool: user %g ns in %g ns (even %g)", pu,
		       pe, ee);
	}
	wb_done(&even);
	wb_done(&pool);
}

/* pthreads=linuxthreads (workload/linuxthreads.h): main clones one thread,
 * LinuxThreads' manager, which clones the VM's five (compiler, watcher,
 * three workers) while main waits for each, and reaps them before it
 * exits; main reaps it after the last worker's word.  The work done is
 * the same as with nptl. */
SL_TEST(javabench_linuxthreads_manager_clones_the_threads)
{
	struct wb_run nptl, lt;
	struct lt_watch w = { 0 };
	struct sl_observer obs = lt_watch_observer(&w);
	const char *base = "javabench:threads=3,size=1,gc_ms=5,gc_every_ms=50,compile_every=10";
	char spec[160];

	CHECK(rejects(&sl_workload_javabench, "javabench:pthreads=ngpt", "pthreads"));
	snprintf(spec, sizeof(spec), "%s,pthreads=nptl", base);
	bool ok = wb_run(&nptl, "pack:1 core:2 pu:2", &sl_workload_javabench, spec, 1);
	snprintf(spec, sizeof(spec), "%s,pthreads=linuxthreads", base);
	ok = wb_run_observed(&lt, "pack:1 core:2 pu:2", &sl_workload_javabench, spec, 1, &obs) &&
	     ok;
	CHECK(ok);
	if (ok) {
		CHECKF(w.by_creator == 1 && w.by_manager == 5 && w.creator_awake == 0,
		       "main cloned %d, the manager %d, %d while main ran", w.by_creator,
		       w.by_manager, w.creator_awake);
		CHECKF(w.managers_exited == 1 && w.exited_unreaped == 0,
		       "%d managers exited, %d with threads not reaped", w.managers_exited,
		       w.exited_unreaped);
		/* main, compiler, watcher, 3 workers; and the manager */
		CHECKF(nptl.stats.tasks == 6 && lt.stats.tasks == 7, "tasks %ld and %ld",
		       (long)nptl.stats.tasks, (long)lt.stats.tasks);
		double nu = (double)nptl.stats.user_ns, lu = (double)lt.stats.user_ns;
		CHECKF(lu > 0.95 * nu && lu < 1.05 * nu, "user %g ns and %g ns", nu, lu);
	}
	wb_done(&nptl);
	wb_done(&lt);
}
