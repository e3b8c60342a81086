/*
 * allreduce segmented_ring
 *
 * Source:   Open MPI ompi_coll_base_allreduce_intra_ring_segmented (coll_base_allreduce.c in
 *           ompi/mca/coll/base): the ring allreduce with its reduce-scatter run in phases: each of the P
 *           blocks (the first count mod P one element longer) is cut into num_phases pieces, and phase k
 *           runs a whole ring reduce-scatter on the pieces k of all blocks, so messages stay near one
 *           segment.  The allgather then moves whole blocks, as in the ring (both phases are the ring's,
 *           ring_phases.h).  Open MPI runs the plain ring (pact's "ring", which itself falls back to
 *           recursive doubling when count < P) when count < P * segcount, segcount being segsize in
 *           elements (the whole vector when segsize is 0, Open MPI's default, so that the default is the
 *           ring).  num_phases = count / (P*segcount), one more when the remainder is at least P and more
 *           than half of P*segcount.
 * Restrict: commutative operation (the ring reduces in rotated order).
 * Cost:     (P-1)*(num_phases*alpha + beta*m/P + gamma*m/P) + (P-1)*(alpha + beta*m/P).
 *
 *   P = 3, 2 phases (pieces a, b of each block):
 *   phase a: a ring reduce-scatter on 0a 1a 2a; phase b: the same on 0b 1b 2b; then the ring allgather
 *   of the whole blocks 0 1 2 (rank r ends up owning block r+1, as in the ring).
 */
#include "ring_phases.h"
#include "cost.h"

int pact_allreduce_segmented_ring_build(pact_sched *s, const pact_build_args *a)
{
    const size_t n = a->count;
    const int rank = a->rank, p = a->size;
    if (n == 0)
        return PACT_OK;
    if (p == 1) {
        pact_copy(s, pact_sl(PACT_BUF_RECV, 0, n), pact_sl(PACT_BUF_SEND, 0, n));
        return PACT_OK;
    }
    const size_t segcount = pact_seg_count(a->params[0], a->elem_size, n);
    const size_t span = (size_t)p * segcount;
    if (n < span)
        return pact_allreduce_ring_build(s, a);

    int phases = (int)(n / span);
    if (n % span >= (size_t)p && n % span > span / 2)
        phases++;
    const size_t early = (n + (size_t)p - 1) / (size_t)p;
    const size_t maxseg = (early + (size_t)phases - 1) / (size_t)phases;
    pact_need(s, PACT_BUF_TMP0, maxseg);
    pact_need(s, PACT_BUF_TMP1, maxseg);

    /* Each phase is the ring's reduce-scatter on the pieces of that phase, and starts, receive and send
     * alike, after the previous phase's last reduction (the first phase after the copy). */
    int last = pact_copy(s, pact_sl(PACT_BUF_RECV, 0, n), pact_sl(PACT_BUF_SEND, 0, n));
    for (int ph = 0; ph < phases; ph++)
        last = pact_allreduce_ring_reduce_scatter(s, rank, p, n, phases, ph, last, last);

    /* Allgather of whole blocks, as in the ring. */
    pact_allreduce_ring_allgather(s, rank, p, n, last);
    return PACT_OK;
}

/* The closed form of the entry's cost (pact_cost_fn). */
static int terms(int P, double m, pact_cost *t, const char **src)
{
    /* the default segsize 0 is the ring (SUARA eq. 7 with n_s = 1 is eq. 6) */
    return pact_alg_find(PACT_COLL_ALLREDUCE, "ring")->terms(P, m, t, src);
}

/* As the ring's (pact_alg.rotates): equal blocks cut into equal pieces per phase, whatever the segment size
 * (and the ring where it falls back to it). */
static int rotates(const pact_build_args *a)
{
    return pact_alg_find(PACT_COLL_ALLREDUCE, "ring")->rotates(a);
}

const pact_alg pact_alg_allreduce_segmented_ring = {
    .coll = PACT_COLL_ALLREDUCE,
    .name = "segmented_ring",
    .build = pact_allreduce_segmented_ring_build,
    .restrictions = PACT_R_COMMUTATIVE,
    .ompi_id = 5,
    .mpich = NULL,
    .smpi = "ompi_ring_segmented",
    .smpi_params = "segsize=1M",
    .source = "Open MPI ompi_coll_base_allreduce_intra_ring_segmented (coll_base_allreduce.c)",
    .cost = "(P-1)*(phases*alpha + beta*m/P + gamma*m/P) + (P-1)*(alpha + beta*m/P)",
    .terms = terms,
    .rotates = rotates,
    .params =
        (const pact_param_desc[]){
            {"segsize", 0, "segment size in bytes; 0 (Open MPI's default) or count < P*segment: plain ring"},
            {NULL, 0, NULL}},
};
