/*
 * host.h - how busy the rest of the host was during a real run: the CPU
 * time every CPU spent busy (/proc/stat) minus our own and our children's
 * (getrusage), over the wall time.  A real run shares the host with
 * whatever else runs there; this says how much it had to share.
 */
#ifndef SL_REAL_HOST_H
#define SL_REAL_HOST_H

struct sl_real_host_mark {
	double wall_s;		/* monotonic */
	double busy_s;		/* all CPUs busy, incl. steal; -1 if unknown */
	double ours_s;		/* our own and our reaped children's CPU */
};

/* Take a mark now. */
void sl_real_host_mark(struct sl_real_host_mark *m);

/* CPU used by other processes (and the hypervisor's steal) between two
 * marks, in % of one CPU; NaN if /proc/stat could not be read. */
double sl_real_host_other_pct(const struct sl_real_host_mark *from,
			      const struct sl_real_host_mark *to);

/* Busy seconds from an aggregate "cpu ..." line of /proc/stat with
 * `hz` ticks per second; -1 if the line is not one. */
double sl_real_host_parse_stat(const char *line, double hz);

#endif
