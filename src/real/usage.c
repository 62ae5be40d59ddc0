/*
 * usage.c - rusage arithmetic (see usage.h).
 */
#include "real/usage.h"

double sl_real_tv_s(const struct timeval *tv)
{
	return (double)tv->tv_sec + (double)tv->tv_usec / 1e6;
}

void sl_real_usage_add(struct sl_real_usage *u, const struct rusage *ru)
{
	u->user_s += sl_real_tv_s(&ru->ru_utime);
	u->sys_s += sl_real_tv_s(&ru->ru_stime);
	u->nivcsw += ru->ru_nivcsw;
	u->nvcsw += ru->ru_nvcsw;
	if (ru->ru_maxrss > u->maxrss_kb)
		u->maxrss_kb = ru->ru_maxrss;
	u->nproc++;
}

void sl_real_usage_merge(struct sl_real_usage *a, const struct sl_real_usage *b)
{
	a->user_s += b->user_s;
	a->sys_s += b->sys_s;
	a->nivcsw += b->nivcsw;
	a->nvcsw += b->nvcsw;
	if (b->maxrss_kb > a->maxrss_kb)
		a->maxrss_kb = b->maxrss_kb;
	a->nproc += b->nproc;
}

double sl_real_usage_cpu_pct(const struct sl_real_usage *u)
{
	return u->elapsed_s > 0 ? (u->user_s + u->sys_s) / u->elapsed_s * 100 : 0;
}

void sl_real_usage_metrics(const struct sl_real_usage *u, struct sl_metrics *out)
{
	sl_metrics_add(out, "elapsed_s", "s", u->elapsed_s, -1);
	sl_metrics_add(out, "user_s", "s", u->user_s, -1);
	sl_metrics_add(out, "sys_s", "s", u->sys_s, -1);
	sl_metrics_add(out, "cpu_pct", "%", sl_real_usage_cpu_pct(u), 0);
	sl_metrics_add(out, "ctx_switches", "count", (double)u->nivcsw, 0);
	sl_metrics_add(out, "sleeps", "count", (double)u->nvcsw, 0);
	sl_metrics_add(out, "maxrss_mb", "MB", (double)u->maxrss_kb / 1024, 0);
}
