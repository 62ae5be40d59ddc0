/*
 * blockdev.c - the machine's disk: one request queue served in arrival
 * order, one request at a time, each taking positioning (average seek +
 * half a turn, for a request that is not contiguous with the last) plus
 * its bytes at the media rate (hw/disk.c has the parameters).
 *
 * What it models: a 2002 IDE disk without tagged queueing (one command
 * outstanding), behind 2.4/2.5's elevator.  Arrival order stands for the
 * elevator's: the elevator sorts by sector and merges adjacent requests,
 * which the model folds into the per-request `seek` flag (a merged or
 * sequential request pays no positioning) rather than reordering - without
 * sector numbers there is nothing to sort by.  A task's request
 * (SL_ACT_DISK_IO) puts it in uninterruptible sleep (TASK_UNINTERRUPTIBLE
 * in wait_on_buffer / wait_on_page) until the completion interrupt wakes
 * it; writeback requests (sl_blockdev_submit) have a callback instead.
 *
 * Sources: 2.4.27 drivers/block/ll_rw_blk.c (__make_request: one queue per
 * device, merging), 2.4.27 include/linux/fs.h wait_on_buffer (the sleep is
 * uninterruptible); the service time is the textbook disk model with the
 * drive figures of hw/disk.c.
 *
 * Omitted: sector positions (so no elevator reordering and no seek-distance
 * dependence), tagged command queueing, the drive's cache, the CPU cost of
 * the interrupt (the completion wakes the task from no CPU: the waker is
 * its last CPU).
 */
#include "sim/internal.h"
#include "sim/blockdev.h"

struct bd_req {
	struct bd_req *next;
	long bytes;
	bool seek;
	sl_time queued_at;
	struct sl_task *task;			/* waiting for it, or NULL */
	void (*done)(struct sl_sim *sim, void *arg);
	void *arg;
};

struct sl_blockdev {
	struct sl_disk_params p;
	struct bd_req *head, *tail;	/* head is in service when the event is queued */
	struct bd_req *free;
	struct sl_event ev;
	struct sl_blockdev_stats st;
};

struct sl_blockdev *sl_sim_disk(struct sl_sim *sim)
{
	if (!sim->disk) {
		struct sl_blockdev *d = sl_sim_alloc(sim, sizeof(*d));
		d->p = sim->machine->disk;
		if (d->p.mb_s <= 0)	/* a machine not from sl_machine_load: keep
					 * the division defined; 1 MB/s shows up */
			d->p.mb_s = 1;
		sl_event_init(&d->ev, EV_DISK_DONE, -1, d);
		sim->disk = d;
	}
	return sim->disk;
}

sl_time sl_blockdev_service_ns(const struct sl_blockdev *d, long bytes, bool seek)
{
	/* MB/s (decimal) = 1e6 bytes per 1e9 ns; a transfer past the horizon
	 * (a run stops there) is just past it, never a wrapped integer */
	double x = (double)(bytes > 0 ? bytes : 0) * 1e3 / d->p.mb_s;
	sl_time xfer = x <= (double)SL_TIME_HORIZON ? (sl_time)x : SL_TIME_HORIZON + 1;
	/* + 1 ns: even an empty request completes after it was queued */
	return (seek ? d->p.seek_ns + d->p.rot_ns : 0) + xfer + 1;
}

static void start_next(struct sl_sim *sim, struct sl_blockdev *d)
{
	if (d->head && !sl_event_queued(&d->ev)) {
		sl_time svc = sl_blockdev_service_ns(d, d->head->bytes, d->head->seek);
		d->st.busy_ns += svc;
		sl_eventq_schedule(&sim->q, &d->ev, sl__after(sim, svc));
	}
}

static struct bd_req *enqueue(struct sl_sim *sim, struct sl_blockdev *d, long bytes, bool seek)
{
	struct bd_req *r = d->free;

	if (r)
		d->free = r->next;
	else
		r = sl_sim_alloc(sim, sizeof(*r));
	*r = (struct bd_req){ .bytes = bytes, .seek = seek, .queued_at = sim->now };
	if (d->tail)
		d->tail->next = r;
	else
		d->head = r;
	d->tail = r;
	d->st.queued++;
	return r;
}

void sl_blockdev_submit(struct sl_sim *sim, struct sl_blockdev *d, long bytes, bool seek,
			void (*done)(struct sl_sim *sim, void *arg), void *arg)
{
	struct bd_req *r = enqueue(sim, d, bytes, seek);

	r->done = done;
	r->arg = arg;
	start_next(sim, d);
}

int sl__apply_disk(struct sl_sim *sim, struct sl_cpu *c, struct sl_task *t)
{
	struct sl_action *a = &t->act;

	(void)c;
	if (t->act_phase++ > 0)
		return 1;	/* woken by the completion */
	struct bd_req *r = enqueue(sim, a->u.disk.dev, a->u.disk.bytes, a->u.disk.seek);
	r->task = t;
	sl__sleep_io(sim, NULL, t);
	start_next(sim, a->u.disk.dev);
	return 0;
}

void sl__disk_done(struct sl_sim *sim, struct sl_blockdev *d)
{
	struct bd_req *r = d->head;

	d->head = r->next;
	if (!d->head)
		d->tail = NULL;
	d->st.queued--;
	d->st.requests++;
	d->st.bytes += (double)r->bytes;
	/* the next request starts before this one's waiter runs: the
	 * interrupt handler restarts the queue (end_request) */
	start_next(sim, d);
	if (r->task) {
		d->st.task_wait_ns += sim->now - r->queued_at;
		sl__wake(sim, r->task, -1, SL_WAKE_IRQ);	/* the completion IRQ */
	} else if (r->done) {
		r->done(sim, r->arg);
	}
	r->next = d->free;
	d->free = r;
}

void sl_blockdev_stats(const struct sl_blockdev *d, struct sl_blockdev_stats *out)
{
	*out = d->st;
}
