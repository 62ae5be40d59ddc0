/*
 * chat.c - IBM LTC's chat room benchmark (Bill Hartner, chat 1.0.1, 2000):
 * a C re-implementation of VolanoMark's loopback test, the wakeup storm
 * Rusty Russell later distilled into hackbench.
 *
 * Model (docs/workloads.md, chat): `rooms` rooms of 20 users; each
 * user has a TCP connection and four threads - in the client process a
 * sender (CS) and a receiver (CR), in the server process a receiver (SR)
 * and a sender (SS):
 *   CS: `messages` times { compose (user); send 100 B to its socket }
 *   SR: `messages` times { receive 100 B; bump the user's semaphore }
 *   SS: `messages` times { wait on the semaphore; send the message to each
 *       of the room's 19 other users (19 sends) }
 *   CR: 19 x `messages` times { receive 100 B }
 * A socket is a channel (the receiver's buffer, the kernel's tcp_rmem
 * default, 87380 or 6.12's 131072 bytes, rounded down to whole messages:
 * net_tcp_bytes) whose wakeups are a socket's
 * (net_tcp_socket): loopback TCP delivered through the softirq and woke
 * the reader with wake_up_interruptible in 2.4 and 2.6, with
 * wake_up_interruptible_sync_poll in 6.12 (sock_def_readable), and a
 * writer plainly in every version (sk_stream_write_space).  The System V
 * semaphore is a channel of one byte per post.  Start: the client main
 * thread, user by user, connects (a send's kernel work, then the
 * connection queued on the server's listening socket, CHAT_BACKLOG) and
 * creates the user's two threads (cloning them itself, as with NPTL, or
 * through LinuxThreads' manager thread, as every libc of 2002:
 * pthreads=linuxthreads, workload/linuxthreads.h; then the last thread of
 * each process posts its main thread's "done"); the server main thread accepts each
 * connection (waiting for one, then a receive's kernel work) and creates
 * its two threads, and when all exist sends the start byte; the client
 * main thread, once it has created its own, releases them all at once (a
 * barrier) and takes the start time; the last client thread to finish
 * takes the end time.  The setup is not timed, but it decides where the
 * threads first run, which 2.4's goodness() then keeps them near
 * (docs/workloads.md, chat).  The sockets' buffers and the semaphores
 * exist from the start.
 *
 * Metric (chat_c's "Average throughput"): (messages sent + messages
 * received) / (end - start), sent = 20 x messages and received = 380 x
 * messages per room.  Work per message: `send_us` of kernel work per send
 * (the TCP send, loopback delivery and the softirq's receive processing)
 * and `recv_us` per receive (recv and, for SR, the semop), both MEM class:
 * the socket, skb and task structures of hundreds to thousands of
 * connections are far beyond a 2002 L2, so the kernel's networking is
 * memory-latency bound; and `user_us` of chat's own code (INT) per message
 * composed or handled.  Threads are clones of their process (shared mm)
 * whose cache footprint (`footprint_kb`, 2 KB) is their private lines: a
 * stack's hot top, the task_struct and the socket; the kernel's networking
 * code and shared data stay hot whichever thread runs (net_workloads.h).
 *
 * Sources: IBM's chat benchmark 1.0.1 (chat_s.c, chat_c.c, chat.h, Bill
 * Hartner); the VolanoMark workload description
 * (lse.sourceforge.net/benchmarks/volanomark/vmarkworkload.html); IBM's
 * OLS 2001 scheduling slides, "Chat": "1 room = 20 users = 80
 * threads; 100 messages per user = 38,000 msgs per room"); seed 004 (HT
 * speed-ups: 22-28 % on 2.4.19, 39-60 % on 2.5.32, one Xeon MP 1.6 GHz).
 * Published magnitudes: 59,500-61,900 messages/s for 30 rooms x 1000
 * messages on 2.5.33-2.5.37 (Paolo Ciarrocchi, hardware unstated);
 * run-to-run swings of +-10 % and more (Andrew Morton).
 *
 * Calibrated against: nothing.  send_us, recv_us and user_us are taken
 * from a 5-20 us range for 2002 hardware (UNVERIFIED: estimates, no
 * measurement of the time at hand); seed 004's
 * speed-ups are what the machine's SMT model and the policies make of it.
 *
 * Omitted / simplified:
 *   - the TCP stack is a cost, not a protocol: no ACKs, windows, Nagle or
 *     delayed ACK; the receive-side softirq work is charged to the sender
 *     (loopback delivered it in the sender's context);
 *   - the control connection is not modelled; a connection's setup costs
 *     one send's kernel work on the client and one receive's on the server
 *     (a choice, UNVERIFIED: chat's own setup was not measured), and the
 *     listen backlog is SOMAXCONN's, never reached here;
 *   - the client main thread's wait for the "done" semaphore is a wait for
 *     its threads to exit; the end byte to the server is not sent (server
 *     threads exit when they have handled their messages);
 *   - message sizes are fixed at 100 bytes; reads return whole messages;
 *   - a client receiver takes up to `drain` (8) queued messages in one
 *     receive, their kernel work and their handling two bursts (two events
 *     for k messages, not 2k): an approximation that keeps seed 004's
 *     published cells inside their repetitions' spread (docs/workloads.md,
 *     chat, "Events"); drain=1 is one message per receive, as chat_c;
 *   - run-to-run variation: every piece of work is drawn lognormal around
 *     its mean (log-sd `jitter`, mean kept) from the thread's own stream -
 *     an assumption standing for cache and interrupt noise; it lets the
 *     repetitions differ, as loopback runs did (+-10 %, Morton).
 */
#include <math.h>
#include <stdbool.h>
#include <stdio.h>

#include "base/memsize.h"
#include "base/rng.h"
#include "sim/sim.h"
#include "workload/linuxthreads.h"
#include "workload/net_workloads.h"

#define CHAT_USERS_PER_ROOM 20
#define CHAT_SEM_BYTES (1L << 40)	/* a semaphore count never blocks the poster */

enum chat_role { CHAT_CS, CHAT_CR, CHAT_SR, CHAT_SS, CHAT_NROLES };

static const char *const chat_comm[CHAT_NROLES] = { "chat_c", "chat_c", "chat_s", "chat_s" };

struct chat_run;

struct chat_user {
	struct chat_run *run;
	int room;
	struct sl_chan *up;	/* client -> server: SR's receive buffer */
	struct sl_chan *down;	/* server -> client: CR's receive buffer */
	struct sl_chan *sem;	/* SR -> SS: the connection's semaphore */
};

/* One thread of a user: its role, position in its loop, what it has done. */
struct chat_thread {
	struct chat_user *user;
	unsigned char role;
	unsigned char pc;
	int peer;		/* SS: how many of the 19 sends are done */
	long done;		/* messages handled */
	long batch;		/* CR: messages taken by the receive in progress */
	double batch_user_ns;	/* ... and their handling's work, drawn with it */
};

/* A main thread (server or client) or the root shell. */
struct chat_main {
	struct chat_run *run;
	int forked;
	bool client;
	unsigned char pc;
	unsigned char conn;	/* the user's connection: its call, then its queueing */
	int live;		/* pthreads=linuxthreads: its threads not yet finished */
	struct sl_chan *done;	/* ... and the last one's word that all have */
	struct lt_manager lt;
	struct lt_create create;
};

struct chat_run {
	int rooms, nusers;
	long messages;
	double send_ns, recv_ns, user_ns;
	double jitter;			/* log-sd of each piece of work */
	long drain;			/* most messages one CR receive takes */
	bool linuxthreads;		/* threads created through LinuxThreads' manager */
	long sock_bytes;		/* a connection's buffer (net_tcp_bytes) */
	unsigned footprint_kb;		/* private cache footprint per thread */
	struct chat_user *users;
	struct chat_thread *threads;	/* [user * CHAT_NROLES + role] */
	struct chat_main root, server, client;
	struct sl_chan *listen;		/* the server's accept queue, a byte per connection */
	struct sl_chan *ready;		/* the server's start byte */
	struct sl_barrier *start;	/* client threads + client main */
	int client_live;		/* client threads not yet finished */
	bool started;			/* the release has been seen */
	sl_time t_start, t_end;
	long sent, received;
	long sends, recvs;		/* socket operations of all threads */
};

/* ---- actions ---- */

/* Kernel networking work: memory-latency bound (see the header).  The
 * helpers write the action in place (sim/action.h says why), out of line:
 * the last call of a step, a tail call (thread_step says why). */
static __attribute__((noinline)) void act_net(struct sl_action *a, struct sl_task *t,
					       const struct chat_run *run, double ns)
{
	*a = sl_act_sys_as(sl_rng_vary(&t->rng, ns, run->jitter), SL_WC_MEM);
}

static __attribute__((noinline)) void act_user(struct sl_action *a, struct sl_task *t,
						const struct chat_run *run)
{
	*a = sl_act_run(sl_rng_vary(&t->rng, run->user_ns, run->jitter), SL_WC_INT);
}

/* ---- the four threads of a user ---- */

/* Each loop iteration is: [block on a channel,] kernel work, user work,
 * [post]; pc walks through it. */
enum { P_BLOCK, P_KERNEL, P_USER, P_POST, P_BARRIER = 8, P_EXIT };

static long chat_quota(const struct chat_thread *th)
{
	long m = th->user->run->messages;
	return th->role == CHAT_CR ? (CHAT_USERS_PER_ROOM - 1) * m : m;
}

/* The user of the same room `k` places after u (skipping u itself). */
static struct chat_user *room_peer(struct chat_user *u, int k)
{
	struct chat_run *run = u->run;
	int base = u->room * CHAT_USERS_PER_ROOM, self = (int)(u - run->users) - base;
	int j = (self + 1 + k) % CHAT_USERS_PER_ROOM;

	return &run->users[base + j];
}

/* The clock starts with the first client task to run after the release. */
static void mark_start(struct sl_sim *sim, struct chat_run *run)
{
	if (!run->started) {
		run->started = true;
		run->t_start = sl_now(sim);
	}
}

static void thread_finish(struct sl_sim *sim, struct chat_thread *th, struct sl_action *next)
{
	struct chat_run *run = th->user->run;

	bool client = th->role == CHAT_CS || th->role == CHAT_CR;

	if (client && --run->client_live == 0)
		run->t_end = sl_now(sim);
	th->pc = P_EXIT;
	/* under LinuxThreads the threads are the manager's children: the
	 * last of a process's tells its main thread (chat_c's "done") */
	struct chat_main *m = client ? &run->client : &run->server;
	if (run->linuxthreads && --m->live == 0) {
		*next = sl_act_chan(SL_ACT_CHAN_WRITE, m->done, 1);
		return;
	}
	*next = sl_act_exit();
}

/* CS: compose, then send (the send's kernel work, then the write). */
static __attribute__((noinline)) void cs_step(struct sl_sim *sim, struct sl_task *t,
					       struct chat_thread *th, struct sl_action *next)
{
	struct chat_run *run = th->user->run;

	switch (th->pc) {
	case P_BLOCK:
		if (th->done == run->messages) {
			thread_finish(sim, th, next);
			return;
		}
		th->pc = P_KERNEL;
		act_user(next, t, run);
		return;
	case P_KERNEL:
		th->pc = P_POST;
		run->sends++;
		act_net(next, t, run, run->send_ns);
		return;
	default:
		th->pc = P_BLOCK;
		th->done++;
		run->sent++;
		*next = sl_act_chan(SL_ACT_CHAN_WRITE, th->user->up, CHAT_MSG_BYTES);
		return;
	}
}

/* SR: receive a message, the receive's kernel work, the handling, then
 * post the connection's semaphore. */
static __attribute__((noinline)) void server_recv_step(struct sl_sim *sim, struct sl_task *t,
							struct chat_thread *th,
							struct sl_action *next)
{
	struct chat_run *run = th->user->run;

	switch (th->pc) {
	case P_BLOCK:
		if (th->done == chat_quota(th)) {
			thread_finish(sim, th, next);
			return;
		}
		th->pc = P_KERNEL;
		*next = sl_act_recv(th->user->up, CHAT_MSG_BYTES);
		return;
	case P_KERNEL:
		th->pc = P_USER;
		run->recvs++;
		act_net(next, t, run, run->recv_ns);
		return;
	case P_USER:
		th->done++;
		th->pc = P_POST;
		act_user(next, t, run);
		return;
	default:
		th->pc = P_BLOCK;
		*next = sl_act_chan(SL_ACT_CHAN_WRITE, th->user->sem, 1);
		return;
	}
}

/* How much one CR receive asks for (net_workloads.h). */
long chat_drain_limit(long sock_bytes, long drain, long level, long left)
{
	long room = (sock_bytes - level) / CHAT_MSG_BYTES;
	long k = (room - (CHAT_USERS_PER_ROOM - 1)) / 2;

	if (k > drain)
		k = drain;
	if (k > left)
		k = left;
	return k > 1 ? k : 1;
}

/* CR: receive, the receive's kernel work, the handling.  One receive
 * takes up to `drain` of the whole messages queued, and the kernel work
 * and the handling of those k messages are two bursts of the k receives'
 * and the k handlings' work, drawn from the thread's stream in the order k
 * single receives draw them: two events per receive instead of two per
 * message.  An approximation (docs/workloads.md, chat, "Events"): the k
 * messages leave the socket at the start instead of one by one, and the
 * receive and handling work are not interleaved.  So that no sender finds
 * the socket full where it would not have, k is also kept to half the room
 * left beyond one message from each other user of the room. */
static __attribute__((noinline)) void client_recv_step(struct sl_sim *sim, struct sl_task *t,
							struct chat_thread *th,
							struct sl_action *next)
{
	struct chat_run *run = th->user->run;
	struct sl_chan *sock = th->user->down;

	switch (th->pc) {
	case P_BLOCK:
		if (th->done == chat_quota(th)) {
			thread_finish(sim, th, next);
			return;
		}
		th->pc = P_KERNEL;
		*next = sl_act_recv(sock,
				 chat_drain_limit(run->sock_bytes, run->drain, sl_chan_level(sock),
						  chat_quota(th) - th->done) * CHAT_MSG_BYTES);
		return;
	case P_KERNEL: {
		double recv, user;
		th->batch = t->result > CHAT_MSG_BYTES ? t->result / CHAT_MSG_BYTES : 1;
		/* each message's receive and handling, in that order */
		sl_rng_vary_pairs(&t->rng, run->recv_ns, run->user_ns, run->jitter, th->batch,
				  &recv, &user);
		th->batch_user_ns = user;
		th->pc = P_USER;
		run->recvs += th->batch;
		*next = sl_act_sys_as(recv, SL_WC_MEM);
		return;
	}
	default:
		th->done += th->batch;
		run->received += th->batch;
		th->pc = P_BLOCK;
		*next = sl_act_run(th->batch_user_ns, SL_WC_INT);
		return;
	}
}

/* SS: wait for the semaphore, then 19 x { send's kernel work, write }. */
static __attribute__((noinline)) void ss_step(struct sl_sim *sim, struct sl_task *t,
					       struct chat_thread *th, struct sl_action *next)
{
	struct chat_run *run = th->user->run;

	switch (th->pc) {
	case P_BLOCK:
		if (th->done == run->messages) {
			thread_finish(sim, th, next);
			return;
		}
		th->pc = P_USER;
		th->peer = 0;
		*next = sl_act_chan(SL_ACT_CHAN_READ, th->user->sem, 1);
		return;
	case P_USER:
		th->pc = P_KERNEL;
		act_user(next, t, run);
		return;
	case P_KERNEL:
		th->pc = P_POST;
		run->sends++;
		act_net(next, t, run, run->send_ns);
		return;
	default:
		*next = sl_act_chan(SL_ACT_CHAN_WRITE, room_peer(th->user, th->peer)->down,
				 CHAT_MSG_BYTES);
		if (++th->peer < CHAT_USERS_PER_ROOM - 1) {
			th->pc = P_KERNEL;
		} else {
			th->pc = P_BLOCK;
			th->done++;
		}
		return;
	}
}

/* Each role's step is out of line, and called last: thread_step needs no
 * frame, and a step saves only the registers its own path needs (the
 * frame of all four inlined here, taken at every step, was 0.3-0.7 % of a
 * chat run). */
static void thread_step(struct sl_sim *sim, struct sl_task *t, struct sl_action *next)
{
	struct chat_thread *th = t->prog_state;
	struct chat_run *run = th->user->run;

	t->footprint_kb = run->footprint_kb;
	if (th->pc >= P_BARRIER) {	/* P_BARRIER or P_EXIT: one test for the rare two */
		if (th->pc == P_BARRIER) {	/* client threads start together */
			th->pc = P_BLOCK;
			*next = sl_act_barrier(run->start);
			return;
		}
		*next = sl_act_exit();
		return;
	}
	/* SS first: it takes a step per send, 19 per message */
	if (th->role == CHAT_SS) {
		ss_step(sim, t, th, next);
		return;
	}
	if (th->role == CHAT_SR) {
		server_recv_step(sim, t, th, next);
		return;
	}
	mark_start(sim, run);	/* a client thread's step */
	if (th->role == CHAT_CR)
		client_recv_step(sim, t, th, next);
	else
		cs_step(sim, t, th, next);
}

static const struct sl_prog chat_thread_prog = { .name = "chat-thread", .step = thread_step };

/* ---- the two main threads and the shell that starts them ---- */

enum { M_EXEC, M_FORK, M_READY, M_START, M_WAIT, M_DONE, M_REAP };

/* listen()'s backlog: 2.4.27's and 2.6.11's sys_listen cap it at
 * sysctl_somaxconn, SOMAXCONN = 128 (chat_s's own argument is not at
 * hand: UNVERIFIED) */
#define CHAT_BACKLOG 128

/*
 * A user's connection, before its two threads: the client's connect() -
 * its kernel work (the handshake over loopback, a send's), then the
 * connection queued on the listening socket, waiting for room when the
 * backlog is full - and the server's accept() - the queued connection
 * taken, waiting for one, then its kernel work (a receive's).  Returns
 * false once both steps are done.
 */
static bool connect_step(struct sl_task *t, struct chat_main *m, struct sl_action *next)
{
	struct chat_run *run = m->run;

	switch (m->conn++) {
	case 0:
		if (m->client)
			act_net(next, t, run, run->send_ns);
		else
			*next = sl_act_recv(run->listen, 1);
		return true;
	case 1:
		if (m->client)
			*next = sl_act_chan(SL_ACT_CHAN_WRITE, run->listen, 1);
		else
			act_net(next, t, run, run->recv_ns);
		return true;
	default:
		return false;
	}
}

static void main_step(struct sl_sim *sim, struct sl_task *t, struct sl_action *next)
{
	struct chat_main *m = t->prog_state;
	struct chat_run *run = m->run;
	int first = m->client ? CHAT_CS : CHAT_SR;

	t->footprint_kb = run->footprint_kb;	/* a process of chat's, as its threads */

	switch (m->pc) {
	case M_EXEC:
		m->pc = M_FORK;
		*next = sl_act_exec(m->client ? "chat_c" : "chat_s");
		return;
	case M_FORK:	/* per user a connection, then two threads: CS, CR or SR, SS */
		while (m->forked < 2 * run->nusers) {
			/* (conn < 3: a LinuxThreads creation comes back here
			 * at each of its steps, the connection made) */
			if (m->forked % 2 == 0 && m->conn < 3 && connect_step(t, m, next))
				return;
			int u = m->forked / 2, role = first + m->forked % 2;
			struct chat_thread *th = &run->threads[u * CHAT_NROLES + role];
			if (!run->linuxthreads) {
				m->conn = 0;
				m->forked++;
				*next = sl_act_fork(&chat_thread_prog, th, chat_comm[role], true);
				return;
			}
			if (lt_create_step(&m->lt, &m->create, &chat_thread_prog, th,
					   chat_comm[role], next))
				return;
			m->conn = 0;
			m->forked++;
		}
		m->pc = M_READY;
		/* the server says "start"; the client waits for it */
		*next = sl_act_chan(m->client ? SL_ACT_CHAN_READ : SL_ACT_CHAN_WRITE, run->ready, 1);
		if (!m->client)
			m->pc = M_WAIT;
		return;
	case M_READY:
		m->pc = M_START;
		*next = sl_act_barrier(run->start);
		return;
	case M_START:
		mark_start(sim, run);
		/* fall through */
	case M_WAIT:
		if (run->linuxthreads) {	/* the threads' "done", then the manager's */
			m->pc = M_DONE;
			*next = sl_act_chan(SL_ACT_CHAN_READ, m->done, 1);
			return;
		}
		m->pc = M_REAP;
		*next = sl_act_wait();
		return;
	case M_DONE:
		m->pc = M_REAP;
		*next = lt_done(&m->lt);
		return;
	default:	/* reap the threads (LinuxThreads: the manager), then exit */
		*next = t->result < 0 ? sl_act_exit() : sl_act_wait();
		return;
	}
}

static const struct sl_prog chat_main_prog = { .name = "chat-main", .step = main_step };

/* The shell: start the server, then the client, wait for both. */
static void root_step(struct sl_sim *sim, struct sl_task *t, struct sl_action *next)
{
	struct chat_main *m = t->prog_state;
	struct chat_run *run = m->run;

	(void)sim;
	if (m->forked < 2) {
		struct chat_main *child = m->forked ? &run->client : &run->server;
		m->forked++;
		*next = sl_act_fork(&chat_main_prog, child, "sh", false);
		return;
	}
	*next = t->result < 0 ? sl_act_exit() : sl_act_wait();
}

static const struct sl_prog chat_root_prog = { .name = "chat-root", .step = root_step };

/* ---- parameters, start, report ---- */

static const struct sl_param_def chat_params[] = {
	{ "rooms", SL_PARAM_INT, "10", 1, 1000, NULL,
	  "chat rooms of 20 users, 4 threads per user (chat_c's default 10)" },
	{ "messages", SL_PARAM_INT, "100", 1, 1000000, NULL,
	  "messages each user sends (chat_c's default 100)" },
	{ "send_us", SL_PARAM_REAL, "12", 0, 1e6, NULL,
	  "kernel work of one 100-byte loopback TCP send and its delivery, us" },
	{ "recv_us", SL_PARAM_REAL, "6", 0, 1e6, NULL,
	  "kernel work of one receive (and SR's semop), us" },
	{ "user_us", SL_PARAM_REAL, "1", 0, 1e6, NULL,
	  "chat's own work per message composed or handled, us" },
	{ "jitter", SL_PARAM_REAL, "0.2", 0, 2, NULL,
	  "log-sd of each piece of work around its mean (run seed; 0: none)" },
	{ "drain", SL_PARAM_INT, "8", 1, 1000000, NULL,
	  "most queued messages a client receiver takes in one receive, its work two "
	  "bursts (1: one message per receive, as chat_c)" },
	LT_PTHREADS_PARAM,
	{ "footprint_kb", SL_PARAM_INT, NET_FOOTPRINT_KB, 1, 1 << 20, NULL,
	  "private cache footprint of a thread or main thread, KB (the shared kernel "
	  "networking lines stay hot and are not in it)" },
	{ NULL, 0, NULL, 0, 0, NULL, NULL },
};

static void *chat_start(struct sl_sim *sim, const struct sl_params *p, sl_time *limit_out)
{
	struct chat_run *run = sl_sim_alloc(sim, sizeof(*run));

	run->rooms = (int)sl_param_int(p, "rooms");
	run->nusers = run->rooms * CHAT_USERS_PER_ROOM;
	run->messages = sl_param_int(p, "messages");
	run->send_ns = sl_param_real(p, "send_us") * 1e3;
	run->recv_ns = sl_param_real(p, "recv_us") * 1e3;
	run->user_ns = sl_param_real(p, "user_us") * 1e3;
	run->jitter = sl_param_real(p, "jitter");
	run->drain = sl_param_int(p, "drain");
	run->sock_bytes = net_tcp_bytes(sim, CHAT_MSG_BYTES);
	run->footprint_kb = (unsigned)sl_param_int(p, "footprint_kb");
	run->linuxthreads = sl_param_choice(p, "pthreads") == 1;
	run->users = sl_sim_alloc(sim, sizeof(*run->users) * (size_t)run->nusers);
	run->threads = sl_sim_alloc(sim, sizeof(*run->threads) *
				    (size_t)(run->nusers * CHAT_NROLES));
	for (int u = 0; u < run->nusers; u++) {
		struct chat_user *user = &run->users[u];
		user->run = run;
		user->room = u / CHAT_USERS_PER_ROOM;
		user->up = net_tcp_socket(sim, run->sock_bytes);
		user->down = net_tcp_socket(sim, run->sock_bytes);
		user->sem = sl_chan_new(sim, CHAT_SEM_BYTES, false);
		for (int r = 0; r < CHAT_NROLES; r++) {
			struct chat_thread *th = &run->threads[u * CHAT_NROLES + r];
			th->user = user;
			th->role = (unsigned char)r;
			th->pc = r == CHAT_CS || r == CHAT_CR ? P_BARRIER : P_BLOCK;
		}
	}
	run->listen = net_tcp_socket(sim, CHAT_BACKLOG);
	run->ready = sl_chan_new(sim, 1, false);
	run->start = sl_barrier_new(sim, 2 * run->nusers + 1);
	run->client_live = 2 * run->nusers;
	run->root.run = run->server.run = run->client.run = run;
	run->client.client = true;
	if (run->linuxthreads) {
		struct chat_main *mains[] = { &run->server, &run->client };
		for (int i = 0; i < 2; i++) {
			lt_manager_init(sim, &mains[i]->lt);
			lt_create_init(sim, &mains[i]->create);
			mains[i]->done = sl_chan_new(sim, 1, false);
			mains[i]->live = 2 * run->nusers;
		}
	}
	sl_sim_spawn_root(sim, &chat_root_prog, &run->root, "sh");
	*limit_out = 0;
	return run;
}

static void chat_report(struct sl_sim *sim, void *state, const struct sl_params *p,
			struct sl_metrics *out)
{
	const struct chat_run *run = state;
	double window = sl_ns_to_s(run->t_end - run->t_start);

	(void)sim;
	(void)p;
	sl_metrics_add(out, "throughput", "msg/s",
		       window > 0 ? (double)(run->sent + run->received) / window : 0, +1);
	sl_metrics_add(out, "messages_sent", "count", (double)run->sent, 0);
	sl_metrics_add(out, "messages_received", "count", (double)run->received, 0);
	sl_metrics_add(out, "timed_s", "s", window, -1);
	sl_metrics_add(out, "threads", "count", (double)(run->nusers * CHAT_NROLES), 0);
	sl_metrics_add(out, "socket_sends", "count", (double)run->sends, 0);
	sl_metrics_add(out, "socket_receives", "count", (double)run->recvs, 0);
}

/* the driver, the server and client processes and every user's four
 * threads, their states and three channels per user (LinuxThreads: and
 * the processes' managers) */
static void chat_mem(const struct sl_params *p, const struct sl_topo *topo,
		     struct sl_mem_need *need)
{
	uint64_t users = sl_sat_mul((uint64_t)sl_param_int(p, "rooms"), CHAT_USERS_PER_ROOM);
	uint64_t threads = sl_sat_mul(users, CHAT_NROLES);
	uint64_t b = sl_sim_alloc_cost(sizeof(struct chat_run));

	(void)topo;
	b = sl_sat_add(b, sl_sim_alloc_cost(sl_sat_mul(users, sizeof(struct chat_user))));
	b = sl_sat_add(b, sl_sim_alloc_cost(sl_sat_mul(threads, sizeof(struct chat_thread))));
	b = sl_sat_add(b, sl_sim_chans_cost(sl_sat_add(sl_sat_mul(3, users), 2)));
	b = sl_sat_add(b, sl_sim_barriers_cost(1));
	if (sl_param_choice(p, "pthreads") == 1) {	/* two managers, three channels each */
		threads = sl_sat_add(threads, 2);
		b = sl_sat_add(b, sl_sim_chans_cost(6));
	}
	need->tasks = sl_sat_add(need->tasks, sl_sat_add(threads, 2));
	need->bytes = sl_sat_add(need->bytes, b);
}

/*
 * Each user's every message is composed and sent once (CS), received and
 * handled once by the server (SR), handled and sent to the 19 others by
 * the server's sender (SS), and received and handled by each of those 19
 * (CR): 22 handlings, 20 sends and 20 receives.  That CPU work less four
 * standard deviations of its draws, over every CPU (none runs faster than
 * the reference), is a lower bound of the run, refused before it starts
 * if past the horizon.
 */
static int chat_check(const struct sl_params *p, const struct sl_machine *m,
		      const struct sl_policy_ops *policy, struct sl_err *err)
{
	double users = (double)sl_param_int(p, "rooms") * CHAT_USERS_PER_ROOM;
	double messages = (double)sl_param_int(p, "messages");
	double user = sl_param_real(p, "user_us"), send = sl_param_real(p, "send_us");
	double recv = sl_param_real(p, "recv_us"), others = CHAT_USERS_PER_ROOM - 1;
	double per_msg = (others + 3) * user + (others + 1) * (send + recv);
	double largest = fmax(user, fmax(send, recv)) * 1e-6;
	double s = sl_workload_sum_floor(users * messages * per_msg * 1e-6, largest,
					 sl_param_real(p, "jitter")) / m->topo.ncpus;
	char what[160];

	(void)policy;
	snprintf(what, sizeof(what), "%.0f users' %.0f messages of %.0f us of work each on %d CPU%s",
		 users, messages, per_msg, m->topo.ncpus, m->topo.ncpus > 1 ? "s" : "");
	return sl_workload_fits_horizon("chat", s, what, err);
}

const struct sl_workload_ops sl_workload_chat = {
	.name = "chat",
	.summary = "IBM chat rooms (VolanoMark loopback): 20 users x 4 threads per room, 100-byte messages",
	.metric = "throughput",
	.params = chat_params,
	.start = chat_start,
	.report = chat_report,
	.mem = chat_mem,
	.check = chat_check,
};
