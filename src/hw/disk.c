/*
 * disk.c - the machine's one disk: the parameters sim/blockdev.c turns into
 * a service time (positioning + transfer) per request.
 *
 * Default (every preset, and machines named by hwloc): a 2002 desktop/server
 * 7200 rpm ATA disk - average seek 8.5 ms, half a turn at 7200 rpm 4.17 ms,
 * 35 MB/s media rate (the middle of the 25-48 MB/s zone range of drives of
 * that class, e.g. IBM's Deskstar 120GXP data sheet: 8.5 ms, 7200 rpm, up
 * to 48 MB/s) [drive data sheet figures, not measured on the seed
 * machines: none of the seeds names its disk].  A 10k rpm SCSI disk of the
 * time (about 4.9 ms seek, 3 ms rotation, 50 MB/s) is
 * ",seek=4.9,xfer=50" less the rotation difference; rotation is fixed.
 *
 * Machine options: seek=MS overrides the average seek, xfer=MB/S the media
 * rate.  A preset may name its own disk in its profile; all-zero means the
 * default.
 */
#include "hw/hw_internal.h"

const struct sl_disk_params hw_disk_default = {
	.seek_ns = 8500 * SL_USEC,
	.rot_ns = 4167 * SL_USEC,
	.mb_s = 35.0,
};

void hw_disk_init(struct sl_machine *m, const struct hw_profile *p, const struct hw_options *o)
{
	const struct sl_disk_params *d = p->disk.mb_s > 0 ? &p->disk : &hw_disk_default;

	m->disk = *d;
	if (o->seek_ms > 0)
		m->disk.seek_ns = (sl_time)(o->seek_ms * SL_MSEC);
	if (o->xfer_mb_s > 0)
		m->disk.mb_s = o->xfer_mb_s;
}
