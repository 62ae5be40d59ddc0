/*
 * latency_metrics.c - the latency percentiles every run reports, from the
 * engine's histograms (sim/latency.c): wakeup_lat_us_* (runnable after a
 * wakeup or fork -> running) and runq_delay_us_* (every wait for a CPU,
 * preemptions included), each as p50, p90, p99, p99.9 and max.
 */
#include <stdio.h>

#include "base/hist.h"
#include "workload/workload.h"

static void add_one(struct sl_metrics *out, const struct sl_hist *h, const char *prefix,
		    const char *base)
{
	static const struct { const char *name; double p; } pct[] = {
		{ "p50", 50 }, { "p90", 90 }, { "p99", 99 }, { "p99.9", 99.9 }, { "max", 100 },
	};
	char name[64];

	for (size_t i = 0; i < sizeof(pct) / sizeof(pct[0]); i++) {
		snprintf(name, sizeof(name), "%s%s%s_%s", prefix, *prefix ? "_" : "", base,
			 pct[i].name);
		double us = h ? (double)sl_hist_percentile(h, pct[i].p) / 1e3 : 0;
		sl_metrics_add(out, name, "us", us, -1);
	}
}

void sl_metrics_add_waits(struct sl_metrics *out, const struct sl_hist *wakeup,
			  const struct sl_hist *runq, const char *prefix)
{
	add_one(out, wakeup, prefix, "wakeup_lat_us");
	add_one(out, runq, prefix, "runq_delay_us");
}

void sl_metrics_add_latency(struct sl_metrics *out, const struct sl_sim *sim, int group,
			    const char *prefix)
{
	sl_metrics_add_waits(out, sl_sim_latency(sim, SL_LAT_WAKEUP, group),
			     sl_sim_latency(sim, SL_LAT_RUNQ, group), prefix);
}
