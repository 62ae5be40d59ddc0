/*
 * host.c - the rest of the host's CPU use during a real run (see host.h).
 */
#include "real/host.h"

#include <math.h>
#include <stdio.h>
#include <string.h>
#include <sys/resource.h>
#include <unistd.h>

#include "real/proc.h"
#include "real/usage.h"

double sl_real_host_parse_stat(const char *line, double hz)
{
	unsigned long long v[8] = { 0 };	/* user nice system idle iowait irq softirq steal */

	if (strncmp(line, "cpu ", 4) || hz <= 0)
		return -1;
	if (sscanf(line + 4, "%llu %llu %llu %llu %llu %llu %llu %llu", &v[0], &v[1], &v[2],
		   &v[3], &v[4], &v[5], &v[6], &v[7]) < 4)
		return -1;
	return (double)(v[0] + v[1] + v[2] + v[5] + v[6] + v[7]) / hz;
}

static double busy_now(void)
{
	char line[512];
	FILE *f = fopen("/proc/stat", "r");
	double busy = -1;

	if (!f)
		return -1;
	if (fgets(line, sizeof(line), f))
		busy = sl_real_host_parse_stat(line, (double)sysconf(_SC_CLK_TCK));
	fclose(f);
	return busy;
}

static double ours_now(void)
{
	struct rusage self, kids;

	getrusage(RUSAGE_SELF, &self);
	getrusage(RUSAGE_CHILDREN, &kids);
	return sl_real_tv_s(&self.ru_utime) + sl_real_tv_s(&self.ru_stime) +
	       sl_real_tv_s(&kids.ru_utime) + sl_real_tv_s(&kids.ru_stime);
}

void sl_real_host_mark(struct sl_real_host_mark *m)
{
	m->wall_s = sl_real_now();
	m->busy_s = busy_now();
	m->ours_s = ours_now();
}

double sl_real_host_other_pct(const struct sl_real_host_mark *from,
			      const struct sl_real_host_mark *to)
{
	double wall = to->wall_s - from->wall_s;
	double other;

	if (from->busy_s < 0 || to->busy_s < 0 || wall <= 0)
		return NAN;
	other = (to->busy_s - from->busy_s) - (to->ours_s - from->ours_s);
	return fmax(0, other) / wall * 100;
}
