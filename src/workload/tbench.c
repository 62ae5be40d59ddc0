/*
 * tbench.c - Andrew Tridgell's tbench: the TCP and process side of a
 * netbench run, without the file system.  N client processes replay the
 * netbench load (dbench's load file) as request/response exchanges with N
 * tbench_srv processes over loopback TCP.
 *
 * Model (docs/workloads.md, tbench): the tbench_srv parent forks one
 * server process per connection; the tbench parent forks the clients and
 * releases them together.  Per operation a client parses the load line
 * (`user_us`, INT), sends the request and blocks for the response; its
 * server wakes, receives, does its bit of work (`server_us`, INT) and sends
 * the response of the operation's size; the client wakes and receives it.
 * Sizes are sockio.c's (2002): NTCreateX 111/69 bytes, Close 45/39,
 * Unlink 83/39, QPathInfo 41+path/80, QFileInfo and QFSInfo 41/80,
 * FindFirst 41+path/200, Flush 41/39, Rename 41+2 paths/39, WriteX
 * 51+size/41, ReadX 55/size+4, with 40-byte paths.  A send costs
 * `send_us` of kernel work (TCP send, loopback delivery, the softirq's
 * receive processing) and a receive call `recv_us`, plus `copy_us` per KB
 * copied; kernel work is MEM class (sockets and skbs of up to hundreds of
 * connections), as in chat.c.  Each side reads a message in two calls,
 * its 4-byte header and then the rest (sockio.c do_packets, tbench_srv.c),
 * and the client reads the rest with MSG_TRUNC, which tcp_recvmsg does
 * not copy (2.4.27 and 6.12 net/ipv4/tcp.c): a response costs the client
 * two receive calls and 4 bytes' copy, a request the server two calls and
 * its whole copy.  A process's cache footprint
 * (`footprint_kb`) is its private lines only: the kernel's networking code
 * and shared data stay hot whichever client or server runs (see
 * net_workloads.h), so a switch among them refills only those.  A socket
 * is a channel of
 * the kernel's tcp_rmem default (87380 bytes, 6.12's 131072: net_tcp_bytes)
 * with a socket's wakeups (plain in 2.4
 * and 2.6, sync for its reader in 6.12: net_tcp_socket).  When its
 * load is done a client closes its connection and its server exits.
 *
 * Metric (tbench 2.x's final line, like dbench's): Throughput = 1e-6 x
 * the ReadX and WriteX payload bytes of all clients / time from the
 * release to the last client's exit, "MB/s".
 *
 * Sources: github.com/sahlberg/dbench (README, sockio.c and tbench_srv.c at
 * dbench 2.0; TCP_NODELAY, port 7003; the load of dbench.c); seed 004 (HT
 * speed-ups 22-31 % on 2.4.19, 33-36 % on 2.5.32, one Xeon MP 1.6 GHz).
 *
 * Calibrated against: footprint_kb (shared with chat.c) on seed 004's
 * tbench at 60 clients on 2.5.32 (docs/model.md, calibration ledger).
 * send_us and recv_us are chat.c's (5-20 us per message on 2002
 * hardware), copy_us dbench.c's.
 *
 * Omitted / simplified:
 *   - TCP is a cost, not a protocol (no segmentation at the loopback MTU,
 *     ACKs or windows); a response is delivered whole;
 *   - connection setup and the server's accept loop are not modelled;
 *   - the load is dbench.c's operation mix (see there), the same for every
 *     client; `ops` shortens it keeping the mix;
 *   - run-to-run variation: every piece of work is drawn lognormal around
 *     its mean (log-sd `jitter`, mean kept) from the task's own stream, an
 *     assumption standing for cache and interrupt noise.
 */
#include <math.h>
#include <stdbool.h>

#include "base/memsize.h"
#include "base/rng.h"
#include "sim/sim.h"
#include "workload/net_workloads.h"

#define TB_TRACE_SEED 2002		/* dbench.c's load: the same file */
#define TB_PATH_BYTES 40

struct tb_run;

struct tb_pair {
	struct tb_run *run;
	struct sl_chan *c2s, *s2c;
	int next;		/* the client's next operation */
	int served;		/* operations its server has answered */
	long cwant, swant;	/* bytes still to read of the current response, request */
	unsigned char cpc, spc;	/* client's and server's positions */
};

struct tb_main {
	struct tb_run *run;
	bool client;
	int forked;
	unsigned char pc;
};

/* Request and response bytes of one op. */
struct tb_size {
	int32_t req, resp;
};

struct tb_run {
	int clients, nops;
	struct nb_op *ops;
	struct tb_size *sizes;	/* per op: tb_sizes, looked up at each step */
	double jitter;		/* log-sd of each piece of work */
	double user_ns, server_ns, send_ns, recv_ns, copy_ns_per_byte;
	unsigned footprint_kb;	/* private cache footprint per process */
	struct tb_pair *pairs;
	struct tb_main root, server, client;
	struct sl_barrier *start;
	int live;
	bool started;		/* the release has been seen */
	sl_time t_start, t_end;
	double bytes;
	long exchanges;
};

/* The bytes around a WriteX's payload in its request and a ReadX's in
 * its response, and a ReadX's request (sockio.c, 2002); every message
 * begins with a 4-byte length, read on its own. */
enum { TB_WRITEX_HEADER = 51, TB_READX_HEADER = 4, TB_READX_REQUEST = 55, TB_LENGTH_BYTES = 4 };

/* Request and response bytes of an operation (sockio.c, 2002). */
static void tb_sizes(const struct nb_op *op, long *req, long *resp)
{
	switch ((enum nb_op_kind)op->kind) {
	case NB_NTCREATEX: *req = 111; *resp = 69; return;
	case NB_CLOSE: *req = 45; *resp = 39; return;
	case NB_UNLINK: *req = 83; *resp = 39; return;
	case NB_QPATHINFO: *req = 41 + TB_PATH_BYTES; *resp = 80; return;
	case NB_QFILEINFO:
	case NB_QFSINFO: *req = 41; *resp = 80; return;
	case NB_FINDFIRST: *req = 41 + TB_PATH_BYTES; *resp = 200; return;
	case NB_FLUSH: *req = 41; *resp = 39; return;
	case NB_RENAME: *req = 41 + 2 * TB_PATH_BYTES; *resp = 39; return;
	case NB_WRITEX: *req = TB_WRITEX_HEADER + op->bytes; *resp = 41; return;
	case NB_READX: *req = TB_READX_REQUEST; *resp = op->bytes + TB_READX_HEADER; return;
	case NB_NKINDS: break;
	}
	*req = 41;
	*resp = 39;
}

/* The clock starts with the first task to run after the release. */
static void mark_start(struct sl_sim *sim, struct tb_run *run)
{
	if (!run->started) {
		run->started = true;
		run->t_start = sl_now(sim);
	}
}

/* Written in place (sim/action.h says why). */
static void act_net(struct sl_action *a, struct sl_task *t, const struct tb_run *run,
		    double base_ns, long bytes)
{
	double ns = sl_rng_vary(&t->rng, base_ns + bytes * run->copy_ns_per_byte, run->jitter);

	*a = sl_act_sys_as(ns, SL_WC_MEM);
}

/* ---- a client: parse, send the request, read the whole response ---- */

enum { C_START, C_PARSE, C_SEND, C_WRITE, C_READ, C_RECV, C_CLOSE, C_EXIT };

static void client_step(struct sl_sim *sim, struct sl_task *t, struct sl_action *next)
{
	struct tb_pair *p = t->prog_state;
	struct tb_run *run = p->run;

	/* the operation's sizes are read where they are needed (from C_SEND
	 * to C_RECV, p->next < run->nops): most steps need none */
	t->footprint_kb = run->footprint_kb;
	switch (p->cpc) {
	case C_START:
		p->cpc = C_PARSE;
		*next = sl_act_barrier(run->start);
		return;
	case C_PARSE:
		mark_start(sim, run);
		if (p->next == run->nops) {
			p->cpc = C_CLOSE;
			*next = sl_act_chan(SL_ACT_CHAN_CLOSE, p->c2s, 0);
			return;
		}
		p->cpc = C_SEND;
		*next = sl_act_run(sl_rng_vary(&t->rng, run->user_ns, run->jitter), SL_WC_INT);
		return;
	case C_SEND:
		p->cpc = C_WRITE;
		act_net(next, t, run, run->send_ns, run->sizes[p->next].req);
		return;
	case C_WRITE:
		p->cpc = C_READ;
		p->cwant = run->sizes[p->next].resp;
		*next = sl_act_chan(SL_ACT_CHAN_WRITE, p->c2s, run->sizes[p->next].req);
		return;
	case C_READ:
		p->cpc = C_RECV;
		*next = sl_act_recv(p->s2c, p->cwant);
		return;
	case C_RECV:
		p->cwant -= t->result;
		if (p->cwant > 0) {	/* the rest of a large response */
			*next = sl_act_recv(p->s2c, p->cwant);
			return;
		}
		p->cpc = C_PARSE;
		run->bytes += run->ops[p->next++].bytes;
		run->exchanges++;
		/* read_sock(4), then recv(MSG_WAITALL | MSG_TRUNC): no copy */
		act_net(next, t, run, 2 * run->recv_ns, TB_LENGTH_BYTES);
		return;
	case C_CLOSE:
		p->cpc = C_EXIT;
		if (--run->live == 0)
			run->t_end = sl_now(sim);
		*next = sl_act_exit();
		return;
	default:
		*next = sl_act_exit();
		return;
	}
}

static const struct sl_prog tb_client_prog = { .name = "tbench-client", .step = client_step };

/* ---- a server process: read a request, answer it, until EOF ---- */

enum { S_READ, S_MORE, S_WORK, S_SEND, S_WRITE, S_EXIT };

static void server_step(struct sl_sim *sim, struct sl_task *t, struct sl_action *next)
{
	struct tb_pair *p = t->prog_state;
	struct tb_run *run = p->run;

	/* the operation's sizes are read where they are needed (p->served
	 * < run->nops but in a last S_READ, which the client's close ends) */
	(void)sim;
	t->footprint_kb = run->footprint_kb;
	switch (p->spc) {
	case S_READ: {
		long req = run->sizes[p->served < run->nops ? p->served : 0].req;
		p->spc = S_MORE;
		p->swant = req;
		*next = sl_act_recv(p->c2s, req);
		return;
	}
	case S_MORE:
		if (t->result <= 0) {	/* the client closed the connection */
			p->spc = S_EXIT;
			*next = sl_act_exit();
			return;
		}
		p->swant -= t->result;
		if (p->swant > 0) {
			*next = sl_act_recv(p->c2s, p->swant);
			return;
		}
		p->spc = S_WORK;
		/* read_sock(4), then read_sock of the rest */
		act_net(next, t, run, 2 * run->recv_ns, run->sizes[p->served].req);
		return;
	case S_WORK:
		p->spc = S_SEND;
		*next = sl_act_run(sl_rng_vary(&t->rng, run->server_ns, run->jitter), SL_WC_INT);
		return;
	case S_SEND:
		p->spc = S_WRITE;
		act_net(next, t, run, run->send_ns, run->sizes[p->served].resp);
		return;
	case S_WRITE:
		p->spc = S_READ;
		*next = sl_act_chan(SL_ACT_CHAN_WRITE, p->s2c, run->sizes[p->served++].resp);
		return;
	default:
		*next = sl_act_exit();
		return;
	}
}

static const struct sl_prog tb_server_prog = { .name = "tbench-server", .step = server_step };

/* ---- tbench_srv and tbench parents, and the shell that starts them ---- */

enum { M_EXEC, M_FORK, M_START, M_WAIT };

static void main_step(struct sl_sim *sim, struct sl_task *t, struct sl_action *next)
{
	struct tb_main *m = t->prog_state;
	struct tb_run *run = m->run;

	t->footprint_kb = run->footprint_kb;	/* a process of tbench's, as its clients */
	switch (m->pc) {
	case M_EXEC:
		m->pc = M_FORK;
		*next = sl_act_exec(m->client ? "tbench" : "tbench_srv");
		return;
	case M_FORK:
		if (m->forked < run->clients) {
			struct tb_pair *p = &run->pairs[m->forked++];
			*next = sl_act_fork(m->client ? &tb_client_prog : &tb_server_prog, p,
					    m->client ? "tbench" : "tbench_srv", false);
			return;
		}
		if (m->client) {
			m->pc = M_START;
			*next = sl_act_barrier(run->start);
			return;
		}
		m->pc = M_WAIT;
		*next = sl_act_wait();
		return;
	case M_START:
		mark_start(sim, run);
		m->pc = M_WAIT;
		*next = sl_act_wait();
		return;
	default:
		*next = t->result < 0 ? sl_act_exit() : sl_act_wait();
		return;
	}
}

static const struct sl_prog tb_main_prog = { .name = "tbench-main", .step = main_step };

static void root_step(struct sl_sim *sim, struct sl_task *t, struct sl_action *next)
{
	struct tb_main *m = t->prog_state;
	struct tb_run *run = m->run;

	(void)sim;
	if (m->forked < 2) {
		struct tb_main *child = m->forked++ ? &run->client : &run->server;
		*next = sl_act_fork(&tb_main_prog, child, "sh", false);
		return;
	}
	*next = t->result < 0 ? sl_act_exit() : sl_act_wait();
}

static const struct sl_prog tb_root_prog = { .name = "tbench-root", .step = root_step };

/* ---- parameters, start, report ---- */

static const struct sl_param_def tb_params[] = {
	{ "clients", SL_PARAM_INT, "10", 1, 100000, NULL,
	  "client processes, each with its own tbench_srv process" },
	{ "ops", SL_PARAM_INT, "62477", 1, 10000000, NULL,
	  "operations per client: the load file's 62477, or a shorter load with its mix" },
	{ "user_us", SL_PARAM_REAL, "2", 0, 1e6, NULL,
	  "client's user work per operation (parsing the load line), us" },
	{ "server_us", SL_PARAM_REAL, "1", 0, 1e6, NULL,
	  "server's user work per request, us" },
	{ "send_us", SL_PARAM_REAL, "12", 0, 1e6, NULL,
	  "kernel work of one loopback TCP send and its delivery, us (as chat)" },
	{ "recv_us", SL_PARAM_REAL, "6", 0, 1e6, NULL,
	  "kernel work of one receive, us (as chat)" },
	{ "copy_us", SL_PARAM_REAL, "1", 0, 1e6, NULL,
	  "kernel work per KB copied into or out of a socket, us (as dbench)" },
	{ "jitter", SL_PARAM_REAL, "0.2", 0, 2, NULL,
	  "log-sd of each piece of work around its mean (run seed; 0: none)" },
	{ "footprint_kb", SL_PARAM_INT, NET_FOOTPRINT_KB, 1, 1 << 20, NULL,
	  "private cache footprint of a client or server process, KB (the shared "
	  "kernel networking lines stay hot and are not in it)" },
	{ NULL, 0, NULL, 0, 0, NULL, NULL },
};

static void *tb_start(struct sl_sim *sim, const struct sl_params *p, sl_time *limit_out)
{
	struct tb_run *run = sl_sim_alloc(sim, sizeof(*run));

	run->clients = (int)sl_param_int(p, "clients");
	run->nops = (int)sl_param_int(p, "ops");
	run->ops = sl_sim_alloc(sim, sizeof(*run->ops) * (size_t)run->nops);
	nb_load_build(run->ops, run->nops, TB_TRACE_SEED);
	/* the sizes once, not a switch on a random kind at every step (6 %
	 * of a run: a mispredicted jump each time) */
	run->sizes = sl_sim_alloc(sim, sizeof(*run->sizes) * (size_t)run->nops);
	for (int i = 0; i < run->nops; i++) {
		long req, resp;
		tb_sizes(&run->ops[i], &req, &resp);
		run->sizes[i] = (struct tb_size){ (int32_t)req, (int32_t)resp };
	}
	run->user_ns = sl_param_real(p, "user_us") * 1e3;
	run->jitter = sl_param_real(p, "jitter");
	run->footprint_kb = (unsigned)sl_param_int(p, "footprint_kb");
	run->server_ns = sl_param_real(p, "server_us") * 1e3;
	run->send_ns = sl_param_real(p, "send_us") * 1e3;
	run->recv_ns = sl_param_real(p, "recv_us") * 1e3;
	run->copy_ns_per_byte = sl_param_real(p, "copy_us") * 1e3 / 1024;
	run->pairs = sl_sim_alloc(sim, sizeof(*run->pairs) * (size_t)run->clients);
	for (int i = 0; i < run->clients; i++) {
		run->pairs[i].run = run;
		run->pairs[i].c2s = net_tcp_socket(sim, net_tcp_bytes(sim, 1));
		run->pairs[i].s2c = net_tcp_socket(sim, net_tcp_bytes(sim, 1));
	}
	run->start = sl_barrier_new(sim, run->clients + 1);
	run->live = run->clients;
	run->root.run = run->server.run = run->client.run = run;
	run->client.client = true;
	sl_sim_spawn_root(sim, &tb_root_prog, &run->root, "sh");
	*limit_out = 0;
	return run;
}

static void tb_report(struct sl_sim *sim, void *state, const struct sl_params *p,
		      struct sl_metrics *out)
{
	const struct tb_run *run = state;
	double window = sl_ns_to_s(run->t_end - run->t_start);

	(void)sim;
	(void)p;
	sl_metrics_add(out, "throughput", "MB/s", window > 0 ? run->bytes / 1e6 / window : 0, +1);
	sl_metrics_add(out, "bytes", "MB", run->bytes / 1e6, 0);
	sl_metrics_add(out, "timed_s", "s", window, -1);
	sl_metrics_add(out, "exchanges", "count", (double)run->exchanges, 0);
}

/*
 * Every operation costs the pair user_us + server_us and a send and a
 * receive each way, every payload byte a copy into and one out of a
 * socket: that CPU work less four standard deviations of its draws, over
 * every CPU (no CPU runs faster than the reference), is a lower bound of
 * the run, refused before it starts if past the horizon.
 */
static int tb_check(const struct sl_params *p, const struct sl_machine *m,
		    const struct sl_policy_ops *policy, struct sl_err *err)
{
	double clients = (double)sl_param_int(p, "clients"), ops = (double)sl_param_int(p, "ops");
	double per_op = sl_param_real(p, "user_us") + sl_param_real(p, "server_us") +
			2 * (sl_param_real(p, "send_us") + sl_param_real(p, "recv_us"));
	double bytes = nb_load_payload_mean(ops), copy_us = sl_param_real(p, "copy_us");
	/* the largest single piece: a user part, or a send or receive of
	 * the largest message (a WriteX request of NB_LARGE_IO bytes) */
	double largest = fmax(fmax(sl_param_real(p, "user_us"), sl_param_real(p, "server_us")),
			      fmax(sl_param_real(p, "send_us"), sl_param_real(p, "recv_us")) +
			      (NB_LARGE_IO + TB_WRITEX_HEADER) / 1024.0 * copy_us) * 1e-6;
	double s = sl_workload_sum_floor(clients * (ops * per_op + 2 * bytes / 1024 * copy_us) * 1e-6,
					 largest, sl_param_real(p, "jitter")) / m->topo.ncpus;
	char what[160];

	(void)policy;
	snprintf(what, sizeof(what), "%.0f client pairs' %.0f operations of %.0f us each and %.0f MB "
		 "copied twice at copy_us=%g per KB on %d CPU%s", clients, ops, per_op, bytes / 1e6,
		 copy_us, m->topo.ncpus, m->topo.ncpus > 1 ? "s" : "");
	return sl_workload_fits_horizon("tbench", s, what, err);
}

/* the driver, a client and a server process per client pair, their
 * socket channels, and the load's operations */
static void tb_mem(const struct sl_params *p, const struct sl_topo *topo,
		   struct sl_mem_need *need)
{
	uint64_t clients = (uint64_t)sl_param_int(p, "clients");
	uint64_t ops = (uint64_t)sl_param_int(p, "ops");
	uint64_t b = sl_sim_alloc_cost(sizeof(struct tb_run));

	(void)topo;
	b = sl_sat_add(b, sl_sim_alloc_cost(sl_sat_mul(ops, sizeof(((struct tb_run *)0)->ops[0]))));
	b = sl_sat_add(b, sl_sim_alloc_cost(sl_sat_mul(ops, sizeof(struct tb_size))));
	b = sl_sat_add(b, sl_sim_alloc_cost(sl_sat_mul(clients, sizeof(struct tb_pair))));
	b = sl_sat_add(b, sl_sim_chans_cost(sl_sat_mul(2, clients)));
	b = sl_sat_add(b, sl_sim_barriers_cost(1));
	need->tasks = sl_sat_add(need->tasks, sl_sat_add(sl_sat_mul(2, clients), 2));
	need->bytes = sl_sat_add(need->bytes, b);
}

const struct sl_workload_ops sl_workload_tbench = {
	.name = "tbench",
	.summary = "tbench 2.x: N client/server process pairs exchange the netbench load over loopback TCP",
	.metric = "throughput",
	.params = tb_params,
	.start = tb_start,
	.report = tb_report,
	.mem = tb_mem,
	.check = tb_check,
};
