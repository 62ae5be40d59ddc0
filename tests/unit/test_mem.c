/*
 * test_mem.c - memory estimates and the memory limit (base/memsize.h,
 * sim/memest.c, the workloads' mem ops, the sweep's refusal).
 */
#include <stdint.h>
#include <string.h>

#include "base/memsize.h"
#include "hw/machine.h"
#include "policy/policy.h"
#include "report/sweep.h"
#include "test.h"
#include "workload/workload.h"

SL_TEST(mem_saturating_arithmetic)
{
	CHECK(sl_sat_add(UINT64_MAX - 1, 5) == UINT64_MAX);
	CHECK(sl_sat_add(2, 3) == 5);
	CHECK(sl_sat_mul(1ULL << 40, 1ULL << 40) == UINT64_MAX);
	CHECK(sl_sat_mul(0, UINT64_MAX) == 0);
	CHECK(sl_sat_mul(UINT64_MAX, 1) == UINT64_MAX);
	CHECK(sl_sat_mul(3, 7) == 21);
}

SL_TEST(mem_size_parsing)
{
	static const struct { const char *text; uint64_t bytes; } good[] = {
		{ "512M", 512ULL << 20 }, { "4G", 4ULL << 30 }, { "4g", 4ULL << 30 },
		{ "1024", 1024 }, { "64k", 64ULL << 10 }, { "2T", 2ULL << 40 },
		{ "16777215T", 16777215ULL << 40 },
	};
	static const char *const bad[] = {
		"", "0", "0M", "-1", "+5M", " 5M", "5M ", "1.5G", "5MB", "M", "5 M", "0x10",
		"99999999999999999999", "16777216T", "18446744073709551615K",
	};
	struct sl_err err = { 0 };
	uint64_t v;

	for (size_t i = 0; i < sizeof(good) / sizeof(good[0]); i++) {
		v = 0;
		CHECKF(!sl_mem_parse("--max-mem", good[i].text, &v, &err) && v == good[i].bytes,
		       "'%s' -> %llu", good[i].text, (unsigned long long)v);
	}
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		memset(&err, 0, sizeof(err));
		CHECKF(sl_mem_parse("--max-mem", bad[i], &v, &err) == -1 &&
		       err.kind == SL_ERR_INPUT && strstr(err.msg, "--max-mem '"), "'%s'", bad[i]);
	}
}

/* Every workload's default, on a small and a large preset, fits in far
 * less than any host's default limit (the presets and experiments must
 * run), and the largest in-range hackbench is priced above what it
 * really took (8 GB) without wrapping. */
SL_TEST(mem_estimates_defaults_and_extremes)
{
	static const char *const machines[] = { "p4dpe-2x2ht", "numaq-16", "xeon-2s-smt" };
	const struct sl_policy_ops *o1 = sl_policy_find("o1");
	struct sl_err err = { 0 };

	for (size_t m = 0; m < sizeof(machines) / sizeof(machines[0]); m++) {
		struct sl_machine mach;
		CHECK(!sl_machine_load(&mach, machines[m], &err));
		for (int i = 0; sl_workloads[i]; i++) {
			const struct sl_workload_ops *w = sl_workloads[i];
			const struct sl_workload_ops *got;
			struct sl_params p;
			uint64_t tasks = 0, bytes;
			if (!strcmp(w->name, "rtapp") || !strcmp(w->name, "trace"))
				continue;	/* need a file: tests/cli/test_mem.sh */
			CHECKF(!sl_workload_parse(w->name, &got, &p, &err), "%s: %s", w->name, err.msg);
			bytes = sl_workload_mem(w, &p, &mach, o1, &tasks);
			CHECKF(w->mem != NULL, "%s has no mem op", w->name);
			CHECKF(tasks >= 2 && bytes > (4ULL << 20) && bytes < (256ULL << 20),
			       "%s on %s: %llu bytes, %llu tasks", w->name, machines[m],
			       (unsigned long long)bytes, (unsigned long long)tasks);
		}
		if (m == 0) {
			const struct sl_workload_ops *hb;
			struct sl_params p;
			uint64_t tasks = 0, bytes;
			CHECK(!sl_workload_parse("hackbench:groups=10000,fds=1000,loops=1", &hb, &p,
						 &err));
			bytes = sl_workload_mem(hb, &p, &mach, o1, &tasks);
			CHECK(tasks == 20000001);
			CHECKF(bytes > (8ULL << 30) && bytes < (32ULL << 30), "%llu",
			       (unsigned long long)bytes);
		}
	}
}

/* A cell whose run exceeds the limit is refused when it is added, with
 * the one line the CLI prints; within it, the sweep runs. */
SL_TEST(mem_sweep_refuses_beyond_limit)
{
	struct sl_err err = { 0 };
	struct sl_sweep *s = sl_sweep_new("p4dpe-2x2ht", 2, 1, &err);

	CHECK(s != NULL);
	sl_mem_set_limit(4ULL << 20);
	CHECK(sl_sweep_add(s, "o1", "hackbench:groups=10,loops=1", &err) == -1);
	CHECK(err.kind == SL_ERR_INPUT);
	CHECKF(strstr(err.msg, "workload 'hackbench:groups=10,loops=1' on p4dpe-2x2ht needs "
		      "about ") && strstr(err.msg, "(401 tasks on 4 CPUs, results of 2 runs), "
					  "more than --max-mem 4.0 MiB"), "%s", err.msg);
	CHECK(s->ncells == 0);
	/* room for one run at a time but not two: it runs, on one thread */
	sl_mem_set_limit(0);
	CHECK(sl_sweep_add(s, "o1", "hackbench:groups=10,loops=1", &err) == 0);
	sl_mem_set_limit(s->cells[0]->mem + s->cells[0]->mem / 2);
	CHECK(sl_sweep_run(s, 2, &err) == 0);
	CHECK(sl_sweep_metrics(s, 0, 1)->n > 0);
	sl_mem_set_limit(0);
	CHECK(!sl_mem_limit_given());
	sl_sweep_free(s);
}

/* A policy's own queues count in the estimate (policy_ops.h): 2.4's scan
 * index keeps bits per task and per task and CPU, which on a big machine
 * outweigh the task itself; o1 says it adds nothing. */
SL_TEST(mem_estimate_counts_policy_queues)
{
	const struct sl_policy_ops *o1 = sl_policy_find("o1");
	const struct sl_policy_ops *l24 = sl_policy_find("linux24");
	struct sl_policy_ops with = *o1;
	struct sl_machine mach;
	struct sl_err err = { 0 };
	struct sl_mem_need need = { .tasks = 100000 };

	CHECK(!sl_machine_load(&mach, "numa:16 pack:1 core:32 pu:2", &err));
	CHECK(o1->queue_bytes_per_task == 0 && o1->queue_bits_per_task_cpu == 0);
	CHECK(l24->queue_bytes_per_task > 0 && l24->queue_bits_per_task_cpu > 0);
	with.queue_bytes_per_task = l24->queue_bytes_per_task;
	with.queue_bits_per_task_cpu = l24->queue_bits_per_task_cpu;
	uint64_t base = sl_sim_mem_estimate(&mach, o1, &need);
	uint64_t more = sl_sim_mem_estimate(&mach, &with, &need);
	uint64_t per_task = l24->queue_bytes_per_task + 1024 * l24->queue_bits_per_task_cpu / 8;
	/* the eighth of slack comes on top */
	CHECKF(more - base >= need.tasks * per_task && more - base <= need.tasks * per_task * 9 / 8 + 8,
	       "%llu more, %llu per task", (unsigned long long)(more - base),
	       (unsigned long long)per_task);
}
