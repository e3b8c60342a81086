/*
 * mpich_redscat.c - MPICH 4.0's reduce-scatter by recursive halving over whole blocks (mpich_redscat.h).
 *
 * Source:  MPICH 4.0 src/mpi/coll/allreduce/allreduce_intra_reduce_scatter_allgather.c and
 *          src/mpi/coll/reduce/reduce_intra_reduce_scatter_gather.c (the fold and the loop "while (mask <
 *          pof2)" of both).
 */
#include "mpich_redscat.h"

static pact_slice blocks(uint32_t buf, size_t n, int pof2, int from, int to)
{
    size_t a = pact_mrs_disp(n, pof2, from), b = pact_mrs_disp(n, pof2, to);
    return pact_sl(buf, a, b - a);
}

void pact_mrs_halving(pact_sched *s, const pact_build_args *a, uint32_t acc, uint32_t tmp, int odd, int prev,
                      pact_mrs *st)
{
    const size_t n = a->count;
    const int rank = a->rank, p = a->size;
    const int pof2 = pact_mrs_pof2(p);
    st->pof2 = pof2;
    st->rem = p - pof2;
    st->dep[0] = prev;
    st->dep[1] = -1;
    const pact_slice all = pact_sl(acc, 0, n), tall = pact_sl(tmp, 0, n);

    /* the fold: MPIC_Send of the whole vector, MPIC_Recv and MPIR_Reduce_local on the other side */
    if (rank < 2 * st->rem) {
        if (rank % 2 != odd) {
            st->dep[0] = pact_send(s, odd ? rank + 1 : rank - 1, all);
            pact_after(s, prev);
            st->newrank = -1;
        } else {
            int r = pact_recv(s, odd ? rank - 1 : rank + 1, tall);
            pact_after(s, prev);
            st->dep[0] = pact_reduce(s, all, tall);
            pact_after(s, r);
            st->newrank = rank / 2;
        }
    } else {
        st->newrank = rank - st->rem;
    }
    st->send_idx = st->recv_idx = 0;
    st->last_idx = pof2;
    if (st->newrank == -1)
        return;

    const int v = st->newrank;
    int mask = 1;
    while (mask < pof2) {
        const int dst = pact_mrs_real(v ^ mask, st->rem, odd);
        pact_slice snd, rcv;
        if (v < (v ^ mask)) {
            st->send_idx = st->recv_idx + pof2 / (mask * 2);
            snd = blocks(acc, n, pof2, st->send_idx, st->last_idx);
            rcv = blocks(tmp, n, pof2, st->recv_idx, st->send_idx);
        } else {
            st->recv_idx = st->send_idx + pof2 / (mask * 2);
            snd = blocks(acc, n, pof2, st->send_idx, st->recv_idx);
            rcv = blocks(tmp, n, pof2, st->recv_idx, st->last_idx);
        }
        /* MPIC_Sendrecv (the receive posted first), then MPIR_Reduce_local(tmp, acc) */
        int r = pact_recv(s, dst, rcv);
        pact_after2(s, st->dep);
        int x = pact_send(s, dst, snd);
        pact_after2(s, st->dep);
        st->dep[0] = pact_reduce(s, pact_sl(acc, rcv.off, rcv.count), rcv);
        pact_after(s, r);
        pact_after(s, x);
        st->dep[1] = -1;
        st->send_idx = st->recv_idx;
        mask <<= 1;
        if (mask < pof2)
            st->last_idx = st->recv_idx + pof2 / mask;
    }
}
