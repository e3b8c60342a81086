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

/* This rank's clock offset to rank 0 (comm.c): 100 ping-pongs per rank. */
int pb_clock_sync(bench_t *b)
{
    return pact_clock_sync(b->comm, 100, &b->offset, &b->mono_offset);
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
    sg_sem_t *turn; /* per rank: its turn to leave the start barrier (pb_proto_start) */
    int verdict;
    double rec[]; /* NREC per rank */
};

/* Rank 0 makes the shared state and every rank takes its address from rank 0's copy of `made`; a rank of
 * a privatized run (its own globals) sees NULL, and then all ranks keep to MPI messages. */
static struct shm *made;

int pb_shm_setup(bench_t *b)
{
    int rc = PACT_OK, seen, all = 0;
    if (b->rank == 0 && (made = malloc(sizeof(*made) + NREC * sizeof(double) * (size_t)b->size))) {
        made->bar = sg_barrier_init((unsigned)b->size);
        if ((made->turn = malloc(sizeof(sg_sem_t) * (size_t)b->size)))
            for (int i = 0; i < b->size; i++)
                made->turn[i] = sg_sem_init(i == 0);
        else {
            sg_barrier_destroy(made->bar);
            free(made);
            made = NULL;
        }
    }
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
        for (int i = 0; i < b->size; i++)
            sg_sem_destroy(made->turn[i]);
        free(made->turn);
        free(made);
        made = NULL;
    }
    b->shm = NULL;
}
#endif

/* Waits for every rank and returns the common reference time, `margin` after the last rank came.
 *
 * Under SMPI the ranks then leave in rank order.  Ranks that arrive at one instant (no_delay, or equal
 * delays) run at that instant in the order SimGrid resumes them, which is the order in which they went to
 * sleep; and where their first posts meet at that instant, the order sets the outcome.  Resumed by the
 * barrier alone they went to sleep in an order the previous call's exits left: SimGrid's own ompi_binary
 * reduce on 8 x 4 ranks of generic32x32, 1 KiB, no delay, gave 20.312, 22.184, 20.312 us in three calls (on
 * 8 x 32 ranks 118.992 and 143.978 us, by turns), pact's binary 22.184 us each (its last sends synchronous,
 * which its exits follow), and pact's binary with detached sends 22.184 and 20.312 by turns.  In rank order
 * every call of both gives 22.184 us (143.978), the replay's and the model's, which order ties by rank; in
 * reverse rank order 20.312 (118.992).  A chain of semaphores takes no simulated time: one scheduling round
 * per rank. PACT_BENCH_ANY_ORDER=1 leaves the order to the barrier (the tests show the difference). */
int pb_proto_start(bench_t *b, double *ref)
{
    int rc = PACT_OK;
    double t;
#ifdef PACT_SMPI
    if (b->shm) { /* all ranks leave the barrier at one instant, on one clock */
        sg_barrier_wait(b->shm->bar);
        *ref = pb_now_global(b) + b->margin;
        if (!b->any_order) {
            sg_sem_acquire(b->shm->turn[b->rank]);
            sg_sem_release(b->shm->turn[(b->rank + 1) % b->size]);
        }
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

