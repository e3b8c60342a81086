/*
 * pact_models.h - cost models of the registry's algorithms (layer 3): closed-form Hockney costs, a schedule
 * evaluator that runs the builders' own schedules under Hockney, shared-link or LogGP costs and per-rank
 * arrival offsets, and calibration of per-algorithm (alpha_a, beta_a) and a common gamma by least squares
 * (Nuriyev et al., SUARA, seeds/004 section 4.1 and Table 1).  Host side (GLib).
 *
 * Units: seconds, bytes, seconds per byte.  A size m is what one process passes to the collective
 * (DESIGN.md "Command line"): the vector for allreduce, reduce and bcast, one block for alltoall and
 * allgather.
 */
#ifndef PACT_MODELS_H
#define PACT_MODELS_H

#include <glib.h>

#include "pact_platforms.h"
#include "pact_coll.h"

/* ---- parameters -------------------------------------------------------------------------------------- */

typedef enum {
    /* Hockney, single-port full-duplex: a message costs T = alpha + beta*bytes; a rank's sends go out one
     * after another (T each) and its receives complete one after another (T after the later of the send's
     * start and the previous receive's end). */
    PACT_NET_PORT,
    /* What SimGrid does on a contention-free cluster: a message waits alpha (latency), then its bytes flow
     * at a max-min fair share of its sender node's up link and its receiver node's down link, each of
     * bandwidth 1/beta (ranks of one node talk over a private loopback of alpha_intra, beta_intra).  With
     * `platform` set, along the routes of its SimGrid export instead (route.c). */
    PACT_NET_SHARED,
    /* LogGP (Alexandrov et al. 1995) with L = alpha: o at each end, g between messages on a port, G per
     * byte after the first. */
    PACT_NET_LOGGP,
} pact_net;

typedef struct {
    double alpha, beta, gamma;      /* between nodes (or everywhere when ppn <= 1) */
    double alpha_intra, beta_intra; /* between two ranks of one node, used when ppn > 1 */
    int ppn;            /* ranks per node, block mapping (rank / ppn is the node); <= 1: one level */
    double envelope;    /* bytes added to every message (SMPI adds 16) */
    double eager_limit; /* sends below it complete at once (SMPI's send-is-detached-thresh); 0: none */
    double copy_beta;   /* seconds per byte of a local copy (the executor charges none: 0) */
    pact_net net;
    double o, g, G; /* LogGP */
    /* PACT_NET_SHARED along the routes of `platform`'s SimGrid export (models/route.c): set by
     * pact_model_params_platform where one switch does not describe it (fat tree, dragonfly, rail binding,
     * cyclic mapping); NULL: one switch, node up and down links of bandwidth 1/beta, block mapping. */
    const pact_platform *platform;
    pact_mapping mapping;
    pact_rails rails;
} pact_model_params;

/* SMPI 3.32's detached-send threshold (smpi/send-is-detached-thresh) and message envelope. */
#define PACT_SMPI_EAGER 65536.0
#define PACT_SMPI_ENVELOPE 16.0

/* Pure Hockney: one level, single port, no envelope, SMPI's eager limit, free copies. */
void pact_model_params_hockney(pact_model_params *m, double alpha, double beta, double gamma);

/* What SimGrid does on an export of `p` with `ppn` ranks per node (pact platform export, flat network, one
 * rank per core, the platform's default use of its rails): the network's latency and bandwidth between
 * nodes, shared memory within a node, SMPI's envelope and eager limit, shared links.  Uses the YAML's
 * hockney gamma.  Rail binding (a host per adapter) has no model here: callers refuse it. */
void pact_model_params_platform(pact_model_params *m, const pact_platform *p, int ppn);

/* The same for an export with `o`'s mapping and rails (o->nodes may be 0: any).  Where the model cannot
 * follow SimGrid (ranks on GPUs) FALSE with PACT_ERROR_INPUT, one line. */
gboolean pact_model_params_export(pact_model_params *m, const pact_platform *p, const pact_export_opts *o,
                                  GError **err);

/* For closed forms: alpha = the mean latency of the routes between the nodes of P ranks, beta = 1 / the
 * bandwidth of one flow alone on them (a node link: both rails under sharing, one under binding); sets
 * `what` (g_free it) to a line saying so, with the routes' latency range.  No-op for one switch. */
gboolean pact_model_params_closed(pact_model_params *m, int P, char **what, GError **err);

/* ---- routes of a SimGrid export (route.c) -------------------------------------------------------------- */

#define PACT_ROUTE_MAX 8 /* links of the longest route (dragonfly across groups: 7) */
typedef struct pact_model_routes pact_model_routes;
/* The routes of `p` exported with `o` (nodes and ppn given), built once and kept for the process. */
const pact_model_routes *pact_model_routes_get(const pact_platform *p, const pact_export_opts *o,
                                               GError **err);
/* TRUE when `p` under this mapping and rails is more than one switch of node links. */
gboolean pact_model_routes_needed(const pact_platform *p, pact_mapping mapping, pact_rails rails);
/* The links from rank a to rank b (at most PACT_ROUTE_MAX), their latency, the flow's weight in the sharing
 * relative to a two-link route (1/penalty, SMPI's), and its bandwidth alone; 0 links for two ranks of one
 * node (a private shared-memory link of latency *lat, bandwidth *bw). */
int pact_model_route(const pact_model_routes *t, int a, int b, uint32_t *links, double *lat, double *iw,
                     double *bw);
int pact_model_routes_ranks(const pact_model_routes *t);
uint32_t pact_model_routes_links(const pact_model_routes *t);
double pact_model_routes_capacity(const pact_model_routes *t, uint32_t link);
/* Latency of the routes between distinct nodes: least, mean, most. */
void pact_model_routes_latency(const pact_model_routes *t, double *min, double *mean, double *max);

/* ---- closed forms ----------------------------------------------------------------------------------------
 */

/* T = a*alpha + b*beta + c*gamma: the structure of an algorithm's cost at (P, m), linear in the parameters,
 * so that fitting is a linear least-squares problem. */
typedef pact_cost pact_model_terms;

/* The closed form's terms for algorithm `alg` with its default parameters (elements of 8 bytes when m is a
 * multiple of 8, else of 1).  FALSE when P < 1.  `source`, if not NULL, gets where the formula comes from. */
gboolean pact_model_terms_of(const pact_alg *alg, int P, double m, pact_model_terms *t, const char **source);

/* The closed form's time: the one-level terms, or with m->ppn > 1 the two-level form (intra-node and
 * inter-node terms, Tran et al., seeds/001 section 2.2) where the algorithm has one, else the one-level form
 * at the inter-node parameters. */
double pact_model_closed(const pact_alg *alg, int P, double m, const pact_model_params *prm);
/* TRUE when `alg` has a two-level closed form. */
gboolean pact_model_has_two_level(const pact_alg *alg);

/* ---- schedule evaluator -----------------------------------------------------------------------------------
 */

/* The schedules of all P ranks of one call, built by the registry's builders and flattened, with messages
 * paired up by (source, destination, tag); build once, evaluate under many arrival vectors. */
typedef struct pact_model_sched pact_model_sched;

/* Builds every rank's schedule for `args` (args->rank is ignored).  Errors (restricted algorithm, a
 * schedule whose sends and receives do not pair up) are PACT_ERROR_INPUT. */
pact_model_sched *pact_model_prepare(const pact_alg *alg, const pact_build_args *args, GError **err);
void pact_model_sched_free(pact_model_sched *s);
/* The set pact_model_prepare(alg, args) would give, made from `from` (a set of alg prepared for another size
 * on as many ranks) where the builds for args differ from from's in their sizes only, one to one: it shares
 * from's arrays (its own are the sizes).  NULL where they differ otherwise (then prepare), or with *err set
 * where memory ran out. */
pact_model_sched *pact_model_resize(const pact_model_sched *from, const pact_alg *alg,
                                    const pact_build_args *args, GError **err);
/* Another hold of s's arrays (a set to free as any); NULL: out of memory.  Sets that share arrays may be used
 * and freed in different threads. */
pact_model_sched *pact_model_sched_share(const pact_model_sched *s);
int pact_model_sched_ranks(const pact_model_sched *s);
size_t pact_model_sched_messages(const pact_model_sched *s);
/* The bytes its arrays hold (what keeping it costs; sim/study/engines.c keeps sets between waves). */
size_t pact_model_sched_bytes(const pact_model_sched *s);
/* A digest (XXH3 of 128 bits, hexadecimal; g_free it) of everything an evaluation reads of the schedule set:
 * two sets with one digest give the same times under the same arrivals and parameters (the model engine
 * evaluates once what two algorithms build alike: ring and segmented ring allreduce, an algorithm and its
 * fallback). */
char *pact_model_sched_digest(const pact_model_sched *s);

/* A reusable workspace: evaluations through one workspace reuse its memory.  Not shared between threads. */
typedef struct pact_model_eval pact_model_eval;
/* The model engine's environment variables are well formed (PACT_MODEL_FILL_SCAN, a test knob). */
gboolean pact_model_env_check(GError **err);
pact_model_eval *pact_model_eval_new(void);
void pact_model_eval_free(pact_model_eval *w);

typedef struct {
    double dstar;       /* max(e_i) - min(a_i) */
    double dhat;        /* max(e_i) - max(a_i) */
    const double *exit; /* e_i, P entries, valid until the workspace's next evaluation */
    size_t events;      /* events processed, or on the direct path the ranks' runs (for speed measurements) */
    int direct;         /* what evaluated it: 0 the events, 1 the direct path (models/direct.c, no events), 2
                         * the posted path (eval.c: each rank run once, then the network's events) */
} pact_model_result;

/* Runs the P schedules: rank i starts at arrivals[i] (NULL: all at 0) and proceeds as the MPI executor
 * does (sim/rank/exec.c): ready operations in schedule order, sends and receives posted at once, reductions
 * gamma*bytes of busy time, completed requests collected in posting order.  A send below the eager limit
 * completes when posted; its bytes move once the receive is posted (SMPI 3.32 with async-small-thresh 0),
 * as do those of every other message.  FALSE with PACT_ERROR_RUN when the schedules deadlock. */
gboolean pact_model_evaluate(pact_model_eval *w, const pact_model_sched *s, const double *arrivals,
                             const pact_model_params *prm, pact_model_result *out, GError **err);

/* A lower bound of the d^ that pact_model_evaluate gives for these arrivals, in one pass over the schedules
 * (no events, no sharing): every operation starts no earlier than its rank's arrival and its dependencies'
 * ends; a message moves no earlier than both its send and its receive are posted and takes at least its
 * latency and its bytes at the fastest rate its route allows (shared links, ports and gaps only slow it); a
 * reduction or copy takes its cost.  Where a (source, destination, tag) carries several messages, which one
 * a receive gets depends on the posting order, so its receive is bounded by the sender's arrival and the
 * channel's smallest message.  On shared links, also: no link carries more than its capacity, so a link
 * whose messages can flow from instant t on carry W bytes is busy until t + W / capacity (alltoall: within
 * 10% of d^ where each message alone gave a third or less).  Rounding is covered by a margin (1e-6 of the
 * bound and 1e-12 s, more with large arrival times).  pact tune skips the evaluations this proves useless
 * (tuner/README.md).  FALSE (PACT_ERROR_RUN) when the schedules cannot all complete. */
gboolean pact_model_bound(pact_model_eval *w, const pact_model_sched *s, const double *arrivals,
                          const pact_model_params *prm, double *dhat_lb, GError **err);

/* The same under K patterns at once (1 to PACT_MODEL_BOUND_LANES; arrivals[k] NULL: no delay), into
 * dhat_lb[0..K): the values pact_model_bound gives one at a time, in one pass over the schedules (pact tune
 * bounds a candidate's patterns, the 11 shapes, in one pass where its memory allows: sim/study/engines.c).
 * The pass holds a time per operation and per message between nodes for each pattern. */
#define PACT_MODEL_BOUND_LANES 12
gboolean pact_model_bounds(pact_model_eval *w, const pact_model_sched *s, const double *const *arrivals,
                           unsigned K, const pact_model_params *prm, double *dhat_lb, GError **err);

/* A quicker, looser lower bound of the same d^ under K patterns: each rank's operations from its arrival
 * through its own dependencies, a message no earlier than the other end's rank arrives (not than its post)
 * and taking at least its channel's smallest message's least transfer; on shared links, the link-load term
 * with those times.  One rank's times at a time (in cache) instead of every operation's: pact tune bounds
 * every candidate with it first, and with pact_model_bounds only those it cannot rule out (tuner/README.md).
 */
gboolean pact_model_bounds_quick(pact_model_eval *w, const pact_model_sched *s, const double *const *arrivals,
                                 unsigned K, const pact_model_params *prm, double *dhat_lb, GError **err);

/* The time of each operation of one evaluation (pact timeline): off by default, since it costs 24 bytes per
 * operation.  Sends and receives start when the rank posts them and end when MPI would complete them (an
 * eager send at once); reductions and copies run from start to end; `match` is the operation at the other
 * end of a message (UINT32_MAX: none). */
typedef struct {
    double start, end;
    uint32_t match;
} pact_model_op_time;
void pact_model_eval_record(pact_model_eval *w, gboolean on);
/* After an evaluation with recording on: operation i's times, i < pact_model_sched_ops(s); else NULL. */
const pact_model_op_time *pact_model_eval_times(const pact_model_eval *w);
/* The flattened schedules' operations: rank r's are pact_model_sched_first(s, r) .. (s, r + 1) - 1, in
 * schedule order; each one's kind and bytes. */
size_t pact_model_sched_ops(const pact_model_sched *s);
size_t pact_model_sched_first(const pact_model_sched *s, int r);
void pact_model_sched_op(const pact_model_sched *s, size_t i, int *rank, pact_op_kind *kind, double *bytes);

/*
 * One cell of a sweep: d* and d^ of algorithm `alg` (default parameters) on P ranks, `bytes` per process,
 * root 0, doubles summed (bytes not a multiple of 8: bytes of one byte), under `arrivals` (P entries, or
 * NULL) and `prm`.  Keeps the last prepared schedule set and a workspace per thread, so calls that differ
 * only in arrivals or parameters do not rebuild.  Restricted algorithms are PACT_ERROR_INPUT.
 */
/* The build arguments of pact_model_cell: root 0, 8-byte elements (1-byte where bytes is not a multiple of 8),
 * a commutative operation. */
void pact_model_cell_args(const pact_alg *alg, int P, size_t bytes, pact_build_args *a);
gboolean pact_model_cell(const pact_alg *alg, int P, size_t bytes, const double *arrivals,
                         const pact_model_params *prm, double *dstar, double *dhat, GError **err);
/* Frees the calling thread's cache of pact_model_cell. */
void pact_model_cell_cache_clear(void);

/* ---- fitted parameters ------------------------------------------------------------------------------------
 */

typedef struct {
    pact_coll coll;
    char *alg;
    double alpha, beta; /* alpha_a, beta_a */
    double r2;          /* of this algorithm's points under the fitted model */
    int points;
} pact_model_fit_alg;

typedef struct {
    double gamma;
    GArray *algs; /* pact_model_fit_alg */
    char *source; /* what it was fitted from */
} pact_model_fit;

void pact_model_fit_init(pact_model_fit *f);
void pact_model_fit_clear(pact_model_fit *f);
/* The entry of (coll, alg), or NULL. */
const pact_model_fit_alg *pact_model_fit_find(const pact_model_fit *f, pact_coll coll, const char *alg);

/* Reads a parameter file written by pact_model_fit_write; errors name file, line and field. */
gboolean pact_model_fit_read(const char *path, pact_model_fit *f, GError **err);
/* Writes YAML atomically (temporary file, then rename). */
gboolean pact_model_fit_write(const char *path, const pact_model_fit *f, GError **err);

/* One measurement: the time of `alg` at (P, m). */
typedef struct {
    const pact_alg *alg;
    int P;
    double m, t;
    int line; /* in the results file, for reports */
} pact_model_point;

/* Reads the no_delay rows with status ok of a results.csv of `pact sim` (last_delay_s is the time; rows of
 * SimGrid built-ins "smpi:..." are skipped).  Errors: "file:line: field: problem", PACT_ERROR_INPUT. */
GArray *pact_model_points_read(const char *path, GError **err);

/* Least squares over `pts`: alpha_a, beta_a per algorithm and one gamma for all, minimizing the squared
 * relative error (times span orders of magnitude).  Algorithms without gamma terms do not inform gamma;
 * with none at all, gamma is 0.  `resid`, if not NULL, gets each point's relative residual
 * (model / measured - 1), in order. */
gboolean pact_model_fit_points(const GArray *pts, pact_model_fit *f, GArray *resid, GError **err);

#endif
