/*
 * sync.c - wait queues and the synchronisation objects built on them:
 * byte channels (pipes, socket buffers), mutexes (futex-style: an unlock
 * wakes the first waiter, which retries, and may find the lock taken by
 * a task that came later: barging), and barriers.
 *
 * Wakeups go through the policy's wakeup op like any other.  A channel
 * made with sync_wakeups is a pipe: its wakeup is sync (SL_WAKE_SYNC) only
 * when the waker is about to sleep - a write that fills the pipe with bytes
 * still to go - and otherwise marked SL_WAKE_PIPE, the waker going on, for
 * the policy to read as its kernel's pipe code did.  2.4.27 and 2.6.11
 * fs/pipe.c wake synchronously only before pipe_wait ("We know that we are
 * going to sleep: signal writers synchronously"; "Synchronous wake-up: it
 * knows that this process is going to give up this CPU") and asynchronously
 * when the call returns ("Signal readers asynchronously that there is more
 * data", "... writers ... more room"), as does 2.6.12.1; 2.6.0, between
 * them, is read as the same (its pipe.c is not at hand).  6.12's
 * pipe_write and pipe_read wake with
 * wake_up_interruptible_sync_poll either way.  A read's wakeup is the one
 * at the end of the call, unless the pipe's kernel reads on
 * (sl_set_pipes: 2.4.27, 2.6.12.1): with bytes still wanted, the
 * pipe empty and a writer blocked, the read wakes it synchronously and
 * sleeps for more in the same call.  6.12 returns what it got.
 *
 * A pipe write of at most PIPE_BUF bytes is atomic (chan_write); a socket's
 * is taken in whatever room there is.  The kernel's pipe of 2.6.11+ is a
 * ring of pages (ring_write, ring_take): a write merges into the
 * newest page only before it first waits, and reads free pages.
 *
 * A read wakes blocked writers only when it leaves at most the channel's
 * write space queued: any read of a one-page pipe (pipe_read wakes the
 * writer once it took something), but an AF_UNIX socket's writer only once
 * its skbs take at most a quarter of sk_sndbuf (unix_write_space,
 * unix_writable; 2.4.27, 2.6.11, 6.12 net/unix/af_unix.c), the workload's
 * to set; a ring's as its kernel's pipe code has it (read_wakes_writers).
 *
 * Waiters queue as their kernel's do: a futex's (mutexes, barriers, plain
 * channels) oldest first, under 6.12 real-time ones ahead by priority
 * (futex_queue); a pipe's under 2.4.27 and 2.6.12.1 (pipe_wait),
 * a socket's (sk_sleep) and poll()'s in every kernel at the head, so that
 * a wake-all reaches the newest first; 6.12's pipe readers and writers
 * wait exclusively, oldest first, and a wakeup reaches one of them
 * (pipe_wake).
 *
 * A socket's wakeups (sl_chan_mark_socket) are marked SL_WAKE_SOCK: 2.4.27
 * and 2.6.11 wake its reader with wake_up_interruptible (sock_def_readable)
 * and its AF_UNIX writers the same (unix_write_space), 6.12 both with
 * wake_up_interruptible_sync_poll, the waker going on; the policy reads the
 * flag as its kernel did.  TCP's writers (sk_stream_write_space) are woken
 * plainly in every version.  Loopback TCP's wakeups, both ways, come from
 * the NET_RX softirq (2.6.11 loopback_xmit -> netif_rx; tcp_prequeue wakes
 * the reader, tcp_ack the writer) and carry SL_WAKE_IRQ.
 */
#include "sim/internal.h"

void sl__waitq_add(struct sl_waitq *wq, struct sl_task *t)
{
	t->waitq = wq;
	t->wq_next = NULL;
	if (wq->tail)
		wq->tail->wq_next = t;
	else
		wq->head = t;
	wq->tail = t;
}

/* add_wait_queue() and prepare_to_wait() put a non-exclusive waiter at
 * the head of the queue, which __wake_up_common walks from the head: the
 * newest is woken first (2.4.27, 2.6.12.1 and 6.12 kernel/sched*, wait.c). */
static void waitq_add_head(struct sl_waitq *wq, struct sl_task *t)
{
	t->waitq = wq;
	t->wq_next = wq->head;
	wq->head = t;
	if (!wq->tail)
		wq->tail = t;
}

void sl__waitq_remove(struct sl_task *t)
{
	struct sl_waitq *wq = t->waitq;
	if (!wq)
		return;
	struct sl_task **pp = &wq->head, *prev = NULL;
	while (*pp && *pp != t) {
		prev = *pp;
		pp = &(*pp)->wq_next;
	}
	if (*pp) {
		*pp = t->wq_next;
		if (wq->tail == t)
			wq->tail = prev;
	}
	t->waitq = NULL;
	t->wq_next = NULL;
}

void sl__waitq_wake_all(struct sl_sim *sim, struct sl_waitq *wq, int waker_cpu, unsigned flags)
{
	struct sl_task *t;
	while ((t = wq->head)) {
		sl__waitq_remove(t);
		sl__wake(sim, t, waker_cpu, flags);
	}
}

void sl__waitq_wake_one(struct sl_sim *sim, struct sl_waitq *wq, int waker_cpu, unsigned flags)
{
	struct sl_task *t = wq->head;
	if (t) {
		sl__waitq_remove(t);
		sl__wake(sim, t, waker_cpu, flags);
	}
}

struct sl_chan *sl_chan_new(struct sl_sim *sim, long capacity, bool sync_wakeups)
{
	struct sl_chan *ch = sl_sim_alloc(sim, sizeof(*ch));
	ch->capacity = capacity > 0 ? capacity : 1;
	ch->write_space = ch->capacity - 1;
	ch->sync = ch->pipe = sync_wakeups;
	return ch;
}

void sl_set_pipes(struct sl_sim *sim, struct sl_pipes pipes)
{
	if (pipes.pages < 1)
		pipes.pages = 1;
	if (pipes.page_bytes <= 0 || pipes.page_bytes > SL_PAGE_BYTES_MAX)
		pipes.page_bytes = SL_PAGE_BYTES;
	sim->pipes = pipes;
}

bool sl_pipe_reads_on(const struct sl_sim *sim) { return sim->pipes.read_on; }

long sl_page_bytes(const struct sl_sim *sim) { return sim->pipes.page_bytes; }

void sl_set_sockets(struct sl_sim *sim, struct sl_sockets sockets)
{
	if (sockets.unix_small_truesize < 1)
		sockets.unix_small_truesize = 1;
	if (sockets.unix_sndbuf < 1)
		sockets.unix_sndbuf = 1;
	sim->sockets = sockets;
}

const struct sl_sockets *sl_sockets(const struct sl_sim *sim) { return &sim->sockets; }

void sl_set_writeback(struct sl_sim *sim, struct sl_writeback wb) { sim->writeback = wb; }

const struct sl_writeback *sl_writeback(const struct sl_sim *sim) { return &sim->writeback; }

long sl_unix_socket_writes(const struct sl_sim *sim)
{
	const struct sl_sockets *s = &sim->sockets;

	/* the last write is let in while the skbs take less than sk_sndbuf */
	return (s->unix_sndbuf + s->unix_small_truesize - 1) / s->unix_small_truesize;
}

long sl_unix_socket_writable(const struct sl_sim *sim)
{
	const struct sl_sockets *s = &sim->sockets;

	/* wmem_alloc << 2 <= sk_sndbuf */
	return s->unix_sndbuf / 4 / s->unix_small_truesize;
}

struct sl_chan *sl_unix_socket_new(struct sl_sim *sim, long bytes)
{
	struct sl_chan *c = sl_chan_new(sim, bytes, false);

	sl_chan_mark_socket(c, SL_SOCK_UNIX);
	/* the kernel's share of sk_sndbuf, in the same units: exactly its
	 * count of small writes for a buffer of the kernel's size (56 of 225
	 * under 2.4, 90 of 364 under 2.6.12), about a quarter of any other */
	long long share = (long long)c->capacity * sl_unix_socket_writable(sim);
	sl_chan_set_write_space(c, (long)(share / sl_unix_socket_writes(sim)));
	return c;
}

long sl_pipe_bytes(const struct sl_sim *sim)
{
	return (long)sim->pipes.pages * sim->pipes.page_bytes;
}

struct sl_chan *sl_pipe_new(struct sl_sim *sim, long bytes)
{
	struct sl_chan *ch = sl_chan_new(sim, bytes > 0 ? bytes : sl_pipe_bytes(sim), true);
	ch->read_on = sim->pipes.read_on;
	/* 6.12's readers and writers wait exclusively whatever the pipe's
	 * size (F_SETPIPE_SZ changes only max_usage): a wakeup reaches one */
	ch->exclusive = sim->pipes.exclusive;
	ch->newest_first = !ch->exclusive;
	if (sim->pipes.pages > 1 && bytes <= 0) {
		/* the kernel's own pipe of 2.6.11+: its ring of pages */
		ch->ring.max = (uint8_t)sim->pipes.pages;
	} else if (sim->pipes.pages > 1 && ch->capacity > sim->pipes.page_bytes) {
		/* a pipe of a given size under a kernel of pages: a read
		 * wakes writers once it leaves a page's share free */
		sl_chan_set_write_space(ch, ch->capacity - ch->capacity / sim->pipes.pages);
	}
	return ch;
}

void sl_chan_set_write_space(struct sl_chan *c, long bytes)
{
	c->write_space = bytes < 0 ? 0 : bytes < c->capacity ? bytes : c->capacity - 1;
}

long sl_chan_write_space(const struct sl_chan *c) { return c->write_space; }

bool sl_chan_read_woke_writer(const struct sl_chan *c) { return c->read_woke_writer; }

void sl_chan_mark_socket(struct sl_chan *c, enum sl_sock_kind kind)
{
	bool tcp = kind == SL_SOCK_TCP_LOOPBACK;

	c->reader_wake = SL_WAKE_SOCK | (tcp ? SL_WAKE_IRQ : 0);
	c->writer_wake = tcp ? SL_WAKE_IRQ : SL_WAKE_SOCK;
	/* unix_stream_data_wait, sock_wait_for_wmem, sk_wait_data and
	 * sk_stream_wait_memory wait non-exclusively (2.4.27 to 6.12) */
	c->newest_first = true;
}

void sl_chan_mark_polled(struct sl_chan *c)
{
	/* poll_wait's entry is not exclusive: a wakeup reaches every poller */
	c->newest_first = true;
	c->exclusive = false;
}

void sl_chan_sync_always(struct sl_chan *c)
{
	c->sync = c->sync_always = true;
}

long sl_chan_level(const struct sl_chan *c) { return c->level; }
bool sl_chan_reader_waits(const struct sl_chan *c) { return c->readers.head != NULL; }

struct sl_mutex *sl_mutex_new(struct sl_sim *sim)
{
	return sl_sim_alloc(sim, sizeof(struct sl_mutex));
}

struct sl_mutex *sl_mutex_new_io(struct sl_sim *sim)
{
	struct sl_mutex *m = sl_mutex_new(sim);
	m->io = true;
	return m;
}

struct sl_barrier *sl_barrier_new(struct sl_sim *sim, int parties)
{
	struct sl_barrier *b = sl_sim_alloc(sim, sizeof(*b));
	b->parties = parties > 0 ? parties : 1;
	return b;
}

static int sleep_now(struct sl_sim *sim, struct sl_task *t)
{
	t->uninterruptible = false;
	t->slept_at = sim->now;
	t->state = SL_TASK_SLEEPING;
	t->nvcsw++;
	sim->nr_runnable--;
	return 0;
}

void sl_set_futex_by_prio(struct sl_sim *sim, bool by_prio) { sim->futex_by_prio = by_prio; }

/* 6.12's plist key of a futex waiter, min(normal_prio, MAX_RT_PRIO): the
 * lower, the sooner woken. */
static int futex_prio(const struct sl_task *t)
{
	if (t->sched_policy == SL_SCHED_DEADLINE)
		return -1;
	return sl_task_rt(t) ? SL_RT_PRIO_MAX - t->rt_priority : SL_RT_PRIO_MAX + 1;
}

/* A futex waiter queues in arrival order, or under a kernel that orders
 * them by priority (sl_set_futex_by_prio) behind every waiter of its
 * priority or a higher one (plist_add).  Everything not real time has the
 * largest key, so only a real-time waiter walks the queue. */
static void futex_queue(struct sl_sim *sim, struct sl_waitq *wq, struct sl_task *t)
{
	int prio = futex_prio(t);
	if (!sim->futex_by_prio || prio > SL_RT_PRIO_MAX || !wq->head ||
	    futex_prio(wq->tail) <= prio) {
		sl__waitq_add(wq, t);
		return;
	}
	struct sl_task **pp = &wq->head;
	while (futex_prio(*pp) <= prio)
		pp = &(*pp)->wq_next;
	t->waitq = wq;
	t->wq_next = *pp;
	*pp = t;
}

static int sleep_on(struct sl_sim *sim, struct sl_waitq *wq, struct sl_task *t)
{
	futex_queue(sim, wq, t);
	return sleep_now(sim, t);
}

/* A plain channel (sl_chan_new without sync wakeups, not marked a socket
 * or polled): the engine's futex, whose waiters queue as its futex's (futex_queue). */
static inline bool chan_is_futex(const struct sl_chan *ch)
{
	return !ch->pipe && !ch->reader_wake && !ch->newest_first;
}

/* A channel's waiter queues as its kind's do (sl_chan_new). */
static int sleep_on_chan(struct sl_sim *sim, const struct sl_chan *ch, struct sl_waitq *wq,
			 struct sl_task *t)
{
	if (ch->newest_first)
		waitq_add_head(wq, t);
	else if (chan_is_futex(ch))
		futex_queue(sim, wq, t);
	else
		sl__waitq_add(wq, t);
	return sleep_now(sim, t);
}

void sl__sleep_io(struct sl_sim *sim, struct sl_waitq *wq, struct sl_task *t)
{
	if (wq)
		sl__waitq_add(wq, t);
	t->uninterruptible = true;
	t->slept_at = sim->now;
	t->state = SL_TASK_SLEEPING;
	t->nvcsw++;
	sim->nr_runnable--;
}

/* POSIX's PIPE_BUF, 4096 in Linux on every arch (include/linux/limits.h). */
#define SL_PIPE_BUF 4096

/* A wakeup of a channel's readers or writers: one waiter of a 6.12 pipe,
 * whose waiters wait exclusively, else all of them. */
static void pipe_wake(struct sl_sim *sim, const struct sl_chan *ch, struct sl_waitq *wq,
		      int waker_cpu, unsigned flags)
{
	if (ch->exclusive)
		sl__waitq_wake_one(sim, wq, waker_cpu, flags);
	else
		sl__waitq_wake_all(sim, wq, waker_cpu, flags);
}

/*
 * A writer's sleep for room and its retry, counted as 2.4.27's pipe_write
 * and 2.6.12.1's pipe_writev count PIPE_WAITING_WRITERS: raised before
 * pipe_wait(), lowered only once the woken writer runs and has the pipe's
 * semaphore again.  A read that reads on tests the count, not the wait
 * queue, so a writer woken but not yet run still keeps it waiting.
 */
static int writer_sleeps(struct sl_sim *sim, struct sl_chan *ch, struct sl_task *t)
{
	t->act_phase = 1;
	ch->waiting_writers++;
	return sleep_on_chan(sim, ch, &ch->writers, t);
}

static void writer_retries(struct sl_sim *sim, struct sl_chan *ch, const struct sl_task *t)
{
	if (ch->waiting_writers > 0) {
		ch->waiting_writers--;
		return;
	}
	/* every retry follows a counted sleep: a count gone wrong is the
	 * engine's bug (test builds stop on it) */
	if (sim->check) {
		sl_fail_internal(sim->run_err, "task %d retried a write no sleep counted", t->id);
		sim->stopped = true;
	}
}

/*
 * A write to a pipe of pages (2.6.12.1 pipe_writev, 6.12 pipe_write).  A
 * call that has not slept yet first merges the part of its bytes short of
 * a whole page into the newest page if they fit there; what is left takes
 * fresh pages while the ring has one free, and the writer sleeps when it
 * has none.  A writer woken with bytes to go takes fresh pages only: a
 * 100-byte message written after a wait has a page to itself.
 *
 * Readers: 2.6.12.1 wakes them whenever the call wrote (do_wakeup), 6.12
 * only when the pipe was empty as the call began or woke again
 * (was_empty), one of them.  A 6.12 writer that slept and leaves room
 * wakes the next writer (wake_next_writer).  Each wakeup is sync before
 * the writer sleeps, else the pipe's (SL_WAKE_PIPE).
 */
static int ring_write(struct sl_sim *sim, struct sl_cpu *c, struct sl_task *t, struct sl_chan *ch)
{
	struct sl_pipe_ring *r = &ch->ring;
	long want = t->act.u.chan.bytes, wrote = 0;
	bool woken = t->act_phase > 0;
	bool was_empty = r->n == 0;

	if (woken)
		writer_retries(sim, ch, t);
	if (ch->closed)		/* EPIPE: nothing is written */
		return 1;
	long page = sim->pipes.page_bytes;
	long part = want % page;
	if (!woken && r->n > 0 && part > 0 && r->last_end + part <= page) {
		r->len[(r->head + r->n - 1) % SL_PIPE_BUFFERS] += (int16_t)part;
		r->last_end += (int16_t)part;
		want -= part;
		wrote += part;
	}
	while (want > 0 && r->n < r->max) {
		long chars = want < page ? want : page;
		r->len[(r->head + r->n) % SL_PIPE_BUFFERS] = (int16_t)chars;
		r->last_end = (int16_t)chars;
		r->n++;
		want -= chars;
		wrote += chars;
	}
	ch->level += wrote;
	t->act.u.chan.bytes = want;
	bool done = want <= 0;
	if (wrote > 0 && (!ch->exclusive || was_empty))
		pipe_wake(sim, ch, &ch->readers, c->id,
			  done && !ch->sync_always ? SL_WAKE_PIPE : SL_WAKE_SYNC);
	if (!done)
		return writer_sleeps(sim, ch, t);
	if (ch->exclusive && woken && r->n < r->max)
		sl__waitq_wake_one(sim, &ch->writers, c->id, SL_WAKE_PIPE);
	return 1;
}

/* Take n bytes from the oldest pages of a ring; the pages it empties are
 * freed.  Returns how many. */
static int ring_take(struct sl_pipe_ring *r, long n)
{
	int freed = 0;
	while (n > 0 && r->n > 0) {
		long take = n < r->len[r->head] ? n : r->len[r->head];
		r->len[r->head] -= (int16_t)take;
		n -= take;
		if (r->len[r->head] == 0) {
			r->head = (uint8_t)((r->head + 1) % SL_PIPE_BUFFERS);
			r->n--;
			freed++;
		}
	}
	return freed;
}

/* n bytes were posted to ch: wake its readers, with `flags` (a pipe's or
 * a socket's).  A futex's FUTEX_WAKE asks for one waiter per byte
 * (pthread_cond_signal: one; a broadcast writes one for each), oldest
 * first (2.6.12.1 kernel/futex.c futex_wake stops at nr_wake; 6.12
 * kernel/futex/waitwake.c the same); a kernel wait queue wakes them all,
 * or its first exclusive waiter (a 6.12 pipe's). */
static void chan_wake_readers(struct sl_sim *sim, struct sl_chan *ch, long n, int waker_cpu,
			      unsigned flags)
{
	if (!chan_is_futex(ch)) {
		pipe_wake(sim, ch, &ch->readers, waker_cpu, flags);
		return;
	}
	for (long k = 0; k < n && ch->readers.head; k++)
		sl__waitq_wake_one(sim, &ch->readers, waker_cpu, flags);
}

static int chan_write(struct sl_sim *sim, struct sl_cpu *c, struct sl_task *t)
{
	struct sl_chan *ch = t->act.u.chan.chan;
	if (ch->ring.max)
		return ring_write(sim, c, t, ch);
	long room = ch->capacity - ch->level;
	long want = t->act.u.chan.bytes;

	/* A pipe write of at most PIPE_BUF is atomic: it waits for room for
	 * all of it before copying anything (2.4.27 and 2.6.11 pipe_write,
	 * "If count <= PIPE_BUF, we have to make it atomic"; POSIX).  (One
	 * larger than the pipe could never fit: it goes in pieces.) */
	bool woken = t->act_phase > 0, was_empty = ch->level == 0;
	if (woken)
		writer_retries(sim, ch, t);
	if (ch->pipe && want <= SL_PIPE_BUF && want <= ch->capacity && want > room &&
	    !ch->closed)
		return writer_sleeps(sim, ch, t);
	long n = want < room ? want : room;

	ch->level += n;
	t->act.u.chan.bytes -= n;
	bool done = t->act.u.chan.bytes <= 0 || ch->closed;
	/* 6.12 pipe_write wakes a reader only if the pipe was empty as the
	 * call began or woke again (was_empty) */
	if (n > 0 && (!ch->exclusive || was_empty))
		chan_wake_readers(sim, ch, n, c->id,
				  !ch->sync ? ch->reader_wake
				  : done && !ch->sync_always ? SL_WAKE_PIPE : SL_WAKE_SYNC);
	if (!done)
		return writer_sleeps(sim, ch, t);
	/* 6.12: a writer that waited and leaves room wakes the next
	 * (wake_next_writer); room as a read counts it (read_wakes_writers) */
	if (ch->exclusive && woken && ch->level <= ch->write_space)
		sl__waitq_wake_one(sim, &ch->writers, c->id, SL_WAKE_PIPE);
	return 1;
}

/*
 * Whether a read that took its bytes (`freed`: the call emptied a page,
 * now or before it read on; a ring full as the call began: `was_full`)
 * wakes the blocked writers: a one-page pipe's any read, a socket's the
 * read that leaves its write space; a ring's the call that freed a page
 * (2.6.12.1 pipe_readv's do_wakeup), or under 6.12 one that began on a
 * full pipe, whatever it freed (pipe_read's was_full).
 */
static bool read_wakes_writers(const struct sl_chan *ch, bool freed, bool was_full)
{
	if (!ch->writers.head)
		return false;
	if (!ch->ring.max)
		return ch->level <= ch->write_space;
	return ch->exclusive ? was_full : freed;
}

static int chan_read(struct sl_sim *sim, struct sl_cpu *c, struct sl_task *t)
{
	struct sl_chan *ch = t->act.u.chan.chan;
	if (t->act_phase++ == 0)
		t->result = 0;	/* what the call has read (a pipe may read on) */
	if (t->act.u.chan.bytes <= 0)
		return 1;	/* "Null read succeeds" (2.6.12.1 pipe_readv) */
	if (ch->level == 0) {
		/* EOF, or what the call read before it read on, once no
		 * writer waits to add to it (2.6.12.1 pipe_readv: "if (ret)
		 * break") */
		if (ch->closed || (t->result > 0 && !ch->waiting_writers))
			return 1;
		return sleep_on_chan(sim, ch, &ch->readers, t);
	}
	long n = t->act.u.chan.bytes < ch->level ? t->act.u.chan.bytes : ch->level;
	bool was_full = ch->ring.max && ch->ring.n == ch->ring.max;
	int freed = ch->ring.max ? ring_take(&ch->ring, n) : 0;
	/* 2.6.12.1 pipe_readv's do_wakeup: once a page is freed it stays
	 * set for the rest of the call, through a read-on's sync wakeup and
	 * wait, and the call's end wakes the writers again even if what it
	 * read last freed no page.  A call that read before it read on has
	 * freed one: it emptied the pipe to wait. */
	bool call_freed = freed > 0 || t->result > 0;
	ch->level -= n;
	t->result += n;
	t->act.u.chan.bytes -= n;
	if (ch->read_on && t->act.u.chan.bytes > 0 && ch->level == 0 && ch->waiting_writers &&
	    !ch->closed) {
		/* Bytes still wanted, the pipe empty and a writer blocked:
		 * 2.4.27 pipe_read and 2.6.12.1 pipe_readv wake the writers
		 * synchronously ("We know that we are going to sleep") and
		 * wait for more in the same call. */
		ch->read_woke_writer = true;
		sl__waitq_wake_all(sim, &ch->writers, c->id, SL_WAKE_SYNC);
		return sleep_on_chan(sim, ch, &ch->readers, t);
	}
	ch->read_woke_writer = read_wakes_writers(ch, call_freed, was_full);
	if (ch->read_woke_writer)
		pipe_wake(sim, ch, &ch->writers, c->id,
			  ch->sync_always ? SL_WAKE_SYNC
			  : ch->sync ? SL_WAKE_PIPE : ch->writer_wake);
	/* 6.12 pipe_read: a reader that waited and leaves bytes wakes the
	 * next (wake_next_reader) */
	if (ch->exclusive && t->act_phase > 1 && ch->level > 0)
		sl__waitq_wake_one(sim, &ch->readers, c->id, SL_WAKE_PIPE);
	return 1;
}

void sl__chan_post(struct sl_sim *sim, struct sl_chan *ch, long bytes, int waker_cpu)
{
	long room = ch->capacity - ch->level;
	long n = bytes < room ? bytes : room;

	if (n <= 0 || ch->ring.max)
		return;	/* (a pipe of pages takes only writes) */
	ch->level += n;
	chan_wake_readers(sim, ch, n, waker_cpu, 0);
}

static int barrier_wait(struct sl_sim *sim, struct sl_cpu *c, struct sl_task *t)
{
	struct sl_barrier *b = t->act.u.barrier;
	if (t->act_phase++ == 0) {
		if (++b->arrived < b->parties) {
			t->barrier_gen = b->gen;
			return sleep_on(sim, &b->waiters, t);
		}
		b->arrived = 0;
		b->gen++;
		sl__waitq_wake_all(sim, &b->waiters, c->id, 0);
		return 1;
	}
	if (b->gen != t->barrier_gen)
		return 1;
	return sleep_on(sim, &b->waiters, t);
}

int sl__apply_sync(struct sl_sim *sim, struct sl_cpu *c, struct sl_task *t)
{
	struct sl_action *a = &t->act;

	switch (a->kind) {
	case SL_ACT_CHAN_WRITE:
		return chan_write(sim, c, t);
	case SL_ACT_CHAN_READ:
		return chan_read(sim, c, t);
	case SL_ACT_CHAN_CLOSE:
		a->u.chan.chan->closed = true;
		sl__waitq_wake_all(sim, &a->u.chan.chan->readers, c->id, 0);
		sl__waitq_wake_all(sim, &a->u.chan.chan->writers, c->id, 0);
		return 1;
	case SL_ACT_LOCK:
		if (!a->u.mutex->owner || a->u.mutex->owner == t) {
			a->u.mutex->owner = t;
			return 1;
		}
		if (a->u.mutex->io) {
			sl__sleep_io(sim, &a->u.mutex->waiters, t);
			return 0;
		}
		return sleep_on(sim, &a->u.mutex->waiters, t);
	case SL_ACT_UNLOCK:
		if (a->u.mutex->owner == t) {
			/* glibc's unlock asks FUTEX_WAKE for one waiter (2.6.12.1
			 * futex_wake stops at nr_wake), which takes the lock if
			 * it is still free when it runs, else sleeps again */
			a->u.mutex->owner = NULL;
			sl__waitq_wake_one(sim, &a->u.mutex->waiters, c->id, 0);
		}
		return 1;
	case SL_ACT_BARRIER:
		return barrier_wait(sim, c, t);
	case SL_ACT_DISK_IO:
		return sl__apply_disk(sim, c, t);
	case SL_ACT_DIRTY:
		return sl__apply_dirty(sim, c, t);
	default:
		sl_fail_internal(sim->run_err, "task %d: unknown action %d", t->id, (int)a->kind);
		sim->stopped = true;
		return 1;
	}
}
