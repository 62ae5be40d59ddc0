/*
 * net_workloads.h - the multithreaded server loads of seed 004 (IBM's chat
 * room benchmark, dbench and tbench), and what dbench and tbench share: the
 * netbench load file that both replay (dbench 2.0's client_oplocks.txt, as
 * an operation mix; github.com/sahlberg/dbench).
 *
 * The public faces are the three workload ops below (the lead registers
 * them in registry.c); the rest is for dbench.c, tbench.c and the tests.
 */
#ifndef SL_WORKLOAD_NET_WORKLOADS_H
#define SL_WORKLOAD_NET_WORKLOADS_H

#include <stdbool.h>
#include <stdint.h>

#include "base/units.h"
#include "sim/sim.h"
#include "workload/workload.h"

extern const struct sl_workload_ops sl_workload_chat;
extern const struct sl_workload_ops sl_workload_dbench;
extern const struct sl_workload_ops sl_workload_tbench;

/* How many whole messages a chat client receive asks for: up to `drain`
 * and the `left` it still has to receive, and no more than half the room
 * its socket of `sock_bytes` has beyond one message from each other user
 * of the room (`level` bytes queued), at least one (chat.c,
 * docs/workloads.md). */
long chat_drain_limit(long sock_bytes, long drain, long level, long left);

#define CHAT_MSG_BYTES 100

/* What a loopback TCP connection's receiver buffers before its sender
 * blocks (the model's whole flow control): the kernel's tcp_rmem default
 * (sim.h struct sl_sockets; 87380 bytes in 2.4 to 2.6.12, 131072 in
 * 6.12), in whole messages of `msg_bytes`. */
static inline long net_tcp_bytes(const struct sl_sim *sim, long msg_bytes)
{
	long b = sl_sockets(sim)->tcp_rmem;
	return msg_bytes > 1 ? b / msg_bytes * msg_bytes : b;
}

/* One direction of a loopback TCP connection (chat, tbench): a channel of
 * `bytes` with a socket's wakeups, its readers' sync in 6.12
 * (sock_def_readable) and its writers' plain in every version
 * (sk_stream_write_space). */
static inline struct sl_chan *net_tcp_socket(struct sl_sim *sim, long bytes)
{
	struct sl_chan *c = sl_chan_new(sim, bytes, false);
	sl_chan_mark_socket(c, SL_SOCK_TCP_LOOPBACK);
	return c;
}

/* Cache footprint of a chat thread or a tbench process, KB: only its
 * private lines (the top of its user and kernel stacks, its task_struct,
 * its socket and skb heads).  The kernel's networking code and the data
 * every connection's path shares (TCP/IP, loopback, scheduler) are touched
 * by whichever of them runs, so they stay in the cache across switches
 * between them and are not part of what a switch makes one refill.
 * Fitted: docs/model.md, calibration ledger (tbench on 2.5.32 at 60
 * clients); the default of both workloads' `footprint_kb`. */
#define NET_FOOTPRINT_KB "2"

/* ---- the netbench load (dbench.c) ---- */

/* SMB operations of dbench 2.0's client_oplocks.txt and what dbench's
 * fileio.c (dbench 2.0) does for each. */
enum nb_op_kind {
	NB_READX,	/* pread at the traced offset */
	NB_NTCREATEX,	/* open, creating files and directories as needed */
	NB_CLOSE,
	NB_WRITEX,	/* pwrite */
	NB_QPATHINFO,	/* stat */
	NB_FINDFIRST,	/* opendir + readdir to the end */
	NB_UNLINK,
	NB_QFILEINFO,	/* fstat */
	NB_QFSINFO,	/* nothing in dbench 2.0 (statfs later) */
	NB_FLUSH,	/* nothing in 2.0 (nor 3.x); fsync from dbench 4 (Jul 2007) */
	NB_RENAME,
	NB_NKINDS,
};

struct nb_op {
	uint8_t kind;		/* enum nb_op_kind */
	int32_t bytes;		/* payload of ReadX / WriteX, else 0 */
};

/* Percent of all operations per kind in client_oplocks.txt (dbench 2.0),
 * counted from the file (they add up to 100.1; nb_load_build normalises). */
extern const double nb_op_pct[NB_NKINDS];
extern const char *const nb_op_name[NB_NKINDS];

/* Operations in one pass of client_oplocks.txt per client. */
#define NB_TRACE_OPS 62477
/* Request and response sizes are two-point mixtures: 4 KB blocks and
 * 65,471-byte SMB maximum transfers, mixed to the trace's means (ReadX
 * 199 MB in 17,881 reads = 11,129 B; WriteX 149 MB in 7,475 = 19,933 B). */
#define NB_SMALL_IO 4096
#define NB_LARGE_IO 65471
#define NB_READ_MEAN 11129.0
#define NB_WRITE_MEAN 19933.0

/* Fill ops[0..n) with the load: kinds in the trace's proportions and
 * payload sizes with its means, in an order fixed by `trace_seed` (the load
 * file is the same for every client and every run).  Exactly round(n * pct)
 * of each kind (largest remainders), so short loads keep the mix. */
void nb_load_build(struct nb_op *ops, int n, uint64_t trace_seed);

/* How many of n operations the mix gives kind k, before rounding (the
 * published percentages add up to 100.1: normalised). */
double nb_op_want(double n, int k);
/* The expected ReadX and WriteX payload bytes of an n-operation load (the
 * workloads' checks bound their runs' CPU work with it). */
double nb_load_payload_mean(double n);

/* dbench: the kernel work of an operation of `kind` besides its copies,
 * us (estimates: dbench.c).  A Flush costs some only when it is an fsync
 * (`fsync`: fsync_ms > 0); dbench 2.0's nb_flush is find_handle() and
 * nothing else (fileio.c: "noop"), as it stayed until dbench 4 (Jul
 * 2007).  Until Dec 2026 a no-op Flush was charged 2 us. */
double dbench_kernel_us(int kind, bool fsync);

/* Payload bytes of a load (what dbench/tbench count for MB/s). */
double nb_load_bytes(const struct nb_op *ops, int n);

#endif
