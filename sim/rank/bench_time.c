/* bench_time.c - clocks and arrivals (rank 0's clock, waiting until an arrival time) and the measurement
 * protocol (agree on a start, gather the records, share the verdict). */
#include "bench_int.h"

/* ---- time ---------------------------------------------------------------------------------------- */

double pb_now_global(const bench_t *b)
{
    return MPI_Wtime() + b->offset;
}

/* Waits until rank 0's clock reads `t`. */
void pb_wait_until(const bench_t *b, double t)
{
#ifdef PACT_SMPI
    /* Exact to the bit with smpi/wtime:0; nanosleep and usleep truncate. */
    if (t > pb_now_global(b))
        sg_actor_sleep_until(t);
#else
    /* Sleep through all but the last SPIN_S, then spin: a long spin would take a core from the ranks that
     * are due earlier (fatal when ranks share cores), and a sleep alone wakes up tens of us late. */
    double left;
    while ((left = t - pb_now_global(b)) > SLEEP_MIN_S) {
        double s = left - SPIN_S;
        struct timespec ts = {(time_t)s, (long)((s - (double)(time_t)s) * 1e9)};
        nanosleep(&ts, NULL);
    }
    while (pb_now_global(b) < t)
        sched_yield();
#endif
}

/* Estimates this rank's clock offset to rank 0: the sample with the shortest round trip of a few
 * ping-pongs, midpoint rule.  In simulation all clocks are one and the offset is 0. */
#ifndef PACT_SMPI
/* CLOCK_MONOTONIC - MPI_Wtime(), from the tightest of a few bracketing reads. */
static double mono_minus_wtime(void)
{
    double best = 1e30, d = 0;
    for (int k = 0; k < 10; k++) {
        struct timespec a, c;
        clock_gettime(CLOCK_MONOTONIC, &a);
        double w = MPI_Wtime();
        clock_gettime(CLOCK_MONOTONIC, &c);
        double ta = (double)a.tv_sec + a.tv_nsec * 1e-9, tc = (double)c.tv_sec + c.tv_nsec * 1e-9;
        if (tc - ta < best) {
            best = tc - ta;
            d = (ta + tc) / 2 - w;
        }
    }
    return d;
}
#endif

int pb_clock_sync(bench_t *b)
{
    int rc = PACT_OK;
    b->offset = 0;
#ifndef PACT_SMPI
    enum { ROUNDS = 100 };
    for (int r = 1; r < b->size; r++) {
        for (int k = 0; k < ROUNDS; k++) {
            if (b->rank == 0) {
                double t;
                PACT_MPI_CHECK(MPI_Recv(&t, 1, MPI_DOUBLE, r, 1, b->comm, MPI_STATUS_IGNORE));
                t = MPI_Wtime();
                PACT_MPI_CHECK(MPI_Send(&t, 1, MPI_DOUBLE, r, 2, b->comm));
            } else if (b->rank == r) {
                static double best_rtt = 1e30;
                if (k == 0)
                    best_rtt = 1e30;
                double t1 = MPI_Wtime(), t0;
                PACT_MPI_CHECK(MPI_Send(&t1, 1, MPI_DOUBLE, 0, 1, b->comm));
                PACT_MPI_CHECK(MPI_Recv(&t0, 1, MPI_DOUBLE, 0, 2, b->comm, MPI_STATUS_IGNORE));
                double t2 = MPI_Wtime();
                if (t2 - t1 < best_rtt) {
                    best_rtt = t2 - t1;
                    b->offset = t0 - (t1 + t2) / 2;
                }
            }
        }
    }
    /* The true offset where ranks share a machine: CLOCK_MONOTONIC is one clock for all its processes, so
     * (monotonic - MPI_Wtime) of this rank minus rank 0's is what the ping-pong estimates.  Recorded next
     * to the estimate so that a run on one machine can tell how well the synchronisation worked. */
    double m = mono_minus_wtime(), m0 = m;
    PACT_MPI_CHECK(MPI_Bcast(&m0, 1, MPI_DOUBLE, 0, b->comm));
    b->mono_offset = m - m0;
#endif
    goto out;
out:
    return rc;
}

/* ---- the measurement protocol: agree on a start, gather the records, share the verdict ---------------
 *
 * On a real machine these are MPI calls.  Under SMPI they would be simulated messages too, and the records
 * that ranks leaving the call early send to rank 0, then the next call's barrier, would share links with
 * the ranks still inside it: d^ up to 3.3% off the replay's (generic32x32 4 x 4, root 5: 203 of 620 cells of
 * tests/data/equivalence/eq-a.yaml beyond 1e-12).  The ranks of one smpirun are actors of one process
 * (smpi/privatization:no, pact_smpi_cfg), so under SMPI the records go to memory they share and the ranks
 * meet at a SimGrid barrier, which costs no simulated time and sends nothing: the network carries the
 * collective alone, as in a replay. */
#ifdef PACT_SMPI
struct shm {
    sg_bar_t bar;
    int verdict;
    double rec[]; /* NREC per rank */
};

/* Rank 0 makes the shared state and every rank takes its address from rank 0's copy of `made`; a rank of
 * a privatized run (its own globals) sees NULL, and then all ranks keep to MPI messages. */
static struct shm *made;

int pb_shm_setup(bench_t *b)
{
    int rc = PACT_OK, seen, all = 0;
    if (b->rank == 0 && (made = malloc(sizeof(*made) + NREC * sizeof(double) * (size_t)b->size)))
        made->bar = sg_barrier_init((unsigned)b->size);
    PACT_MPI_CHECK(MPI_Barrier(b->comm));
    seen = made != NULL;
    PACT_MPI_CHECK(MPI_Allreduce(&seen, &all, 1, MPI_INT, MPI_MIN, b->comm));
    if (all)
        b->shm = made;
    else if (b->rank == 0)
        fprintf(stderr,
                "pact-bench: ranks do not share memory (smpi/privatization on?): the records go by "
                "MPI messages, which share links with ranks still in the call (d^ up to ~1%% high)\n");
out:
    return rc;
}

/* After the last call: every rank is past its last use (main's final MPI_Allreduce). */
void pb_shm_free(bench_t *b)
{
    if (b->rank == 0 && made) {
        sg_barrier_destroy(made->bar);
        free(made);
        made = NULL;
    }
    b->shm = NULL;
}
#endif

/* Waits for every rank and returns the common reference time, `margin` after the last rank came. */
int pb_proto_start(bench_t *b, double *ref)
{
    int rc = PACT_OK;
    double t;
#ifdef PACT_SMPI
    if (b->shm) { /* all ranks leave the barrier at once, on one clock */
        sg_barrier_wait(b->shm->bar);
        *ref = pb_now_global(b) + b->margin;
        goto out;
    }
#endif
    PACT_MPI_CHECK(MPI_Barrier(b->comm));
    t = pb_now_global(b);
    PACT_MPI_CHECK(MPI_Allreduce(&t, ref, 1, MPI_DOUBLE, MPI_MAX, b->comm));
    *ref += b->margin;
out:
    return rc;
}

/* Rank 0 gets every rank's NREC records in rank order. */
int pb_proto_gather(bench_t *b, const double *mine, double *gathered)
{
    int rc = PACT_OK;
#ifdef PACT_SMPI
    if (b->shm) { /* the barrier waits until every rank has left the call and written its records */
        memcpy(b->shm->rec + NREC * (size_t)b->rank, mine, NREC * sizeof(double));
        sg_barrier_wait(b->shm->bar);
        if (b->rank == 0)
            memcpy(gathered, b->shm->rec, NREC * sizeof(double) * (size_t)b->size);
        goto out;
    }
#endif
    PACT_MPI_CHECK(MPI_Gather(mine, NREC, MPI_DOUBLE, gathered, NREC, MPI_DOUBLE, 0, b->comm));
out:
    return rc;
}

/* Every rank gets rank 0's *v. */
int pb_proto_share(bench_t *b, int *v)
{
    int rc = PACT_OK;
#ifdef PACT_SMPI
    if (b->shm) {
        if (b->rank == 0)
            b->shm->verdict = *v;
        sg_barrier_wait(b->shm->bar);
        *v = b->shm->verdict; /* read before rank 0 can write the next one: that takes two more barriers */
        goto out;
    }
#endif
    PACT_MPI_CHECK(MPI_Bcast(v, 1, MPI_INT, 0, b->comm));
out:
    return rc;
}

