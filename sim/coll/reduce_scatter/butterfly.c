/*
 * reduce_scatter butterfly
 *
 * Source:   Open MPI ompi_coll_base_reduce_scatter_intra_butterfly (coll_base_reduce_scatter.c in
 *           ompi/mca/coll/base, 4.1), after Traff, "An improved algorithm for (non-commutative)
 *           reduce-scatter with an application", EuroPVM/MPI 2005.  The input is copied into one of two work
 *           buffers.  P not a power of two: the first 2r ranks fold as in blocks.h (the odd rank reduces its
 *           neighbour's vector, the even one sits out).  Then, with mask 1, 2, ..., each virtual rank sends
 *           half of the virtual blocks it still holds to virtual rank ^ mask and receives the other half (a
 *           sendrecv: receive posted first, blocking send, wait), and reduces with the lower rank's data on
 *           the left; the two buffers swap roles when the result lands in the receiving one.  The blocks end
 *           up at the mirror (bit reversal) of each virtual rank: a last sendrecv puts them right, and the
 *           ranks that sat out get theirs from the rank holding them.
 *           At one rank Open MPI returns without touching the receive buffer (coll/self serves that case in
 *           practice); pact copies the input, as coll/self does.
 * Restrict: none (the operands stay in rank order).
 * Cost:     log2(P)*alpha + (P-1)/P*m*(beta + gamma) + alpha + beta*m/P (the mirror exchange) for P a power
 *           of two above 2; P not a power of two adds alpha + m*(beta + gamma) (the fold) and, unless only
 *           virtual rank 0 (its own mirror) holds a second block, alpha + beta*m/P (the block of the rank
 *           that sat out, sent before the mirror exchange).
 *
 *   P = 4: after masks 1 and 2, virtual rank v holds block mirror(v): 0 -> b0, 1 -> b2, 2 -> b1, 3 -> b3;
 *   ranks 1 and 2 exchange.
 */
#include "blocks.h"
#include "cost.h"

/* The nbits low bits of x in reverse order (Open MPI's ompi_mirror_perm). */
static int mirror(int x, int nbits)
{
    int y = 0;
    for (int i = 0; i < nbits; i++)
        y |= ((x >> i) & 1) << (nbits - 1 - i);
    return y;
}

static int pact_reduce_scatter_butterfly_build(pact_sched *s, const pact_build_args *a)
{
    const size_t n = a->count;
    const int rank = a->rank, p = a->size, pof2 = pact_pof2_floor(p), rem = p - pof2;
    if (n == 0) /* MPI_Reduce_scatter returns at once when every recvcount is 0 */
        return PACT_OK;
    if (p == 1) {
        pact_copy(s, pact_sl(PACT_BUF_RECV, 0, n), pact_sl(PACT_BUF_SEND, 0, n));
        return PACT_OK;
    }
    int log2p = 0;
    while ((1 << log2p) < pof2)
        log2p++;
    uint32_t psend = PACT_BUF_TMP0, precv = PACT_BUF_TMP1;
    pact_need(s, psend, n);
    pact_need(s, precv, n);
    const pact_slice mine = pact_sl(PACT_BUF_RECV, 0, rs_len(n, p, rank));

    int vrank, last = rs_fold(s, rank, rem, n, psend, precv, &vrank);

    if (vrank < 0) { /* sat out: the block comes from whoever holds it after the mirror permutation */
        pact_recv(s, rs_real(mirror((rank + 1) / 2, log2p), rem), mine);
        pact_after(s, last);
        return PACT_OK;
    }
    int nblocks = pof2, send_index = 0, recv_index = 0;
    for (int mask = 1; mask < pof2; mask <<= 1) {
        const int vpeer = vrank ^ mask, peer = rs_real(vpeer, rem);
        nblocks /= 2;
        if ((vrank & mask) == 0)
            send_index += nblocks;
        else
            recv_index += nblocks;
        const pact_slice snd = rs_vslice(psend, n, p, pof2, send_index, send_index + nblocks);
        const pact_slice rcv = rs_vslice(precv, n, p, pof2, recv_index, recv_index + nblocks);
        int r = pact_recv(s, peer, rcv);
        pact_after(s, last);
        int x = pact_send(s, peer, snd);
        pact_after(s, last);
        if (vrank < vpeer) { /* precv = psend (op) precv, then the buffers swap */
            last = pact_reduce(s, rcv, pact_sl(psend, rcv.off, rcv.count));
            uint32_t t = psend;
            psend = precv;
            precv = t;
        } else {
            last = pact_reduce(s, pact_sl(psend, rcv.off, rcv.count), rcv);
        }
        pact_after(s, r);
        pact_after(s, x);
        send_index = recv_index;
    }

    const int vpeer = mirror(vrank, log2p), peer = rs_real(vpeer, rem);
    int index = send_index < rem ? 2 * send_index : rem + send_index;
    if (vpeer < rem) { /* two blocks here: the first goes to the rank that sat out */
        int x = pact_send(s, peer - 1, pact_sl(psend, rs_off(n, p, index), rs_len(n, p, index)));
        pact_after(s, last);
        last = x;
        index++;
    }
    if (vpeer != vrank) {
        pact_recv(s, peer, mine);
        pact_after(s, last);
        pact_send(s, peer, pact_sl(psend, rs_off(n, p, index), rs_len(n, p, index)));
        pact_after(s, last);
    } else {
        pact_copy(s, mine, pact_sl(psend, rs_off(n, p, rank), mine.count));
        pact_after(s, last);
    }
    return PACT_OK;
}

/* The closed form of the entry's cost (pact_cost_fn). */
static int terms(int P, double m, pact_cost *t, const char **src)
{
    const int L = pact_flog2(P), pof2 = 1 << L;
    const double b = pact_cost_big_block(m, P), f = (pof2 - 1.0) / pof2;
    *src = "Traff 2005: log2 P exchanges of halving size, the mirror exchange (P > 2), and for P not a "
           "power of two the fold and the block of the rank that sat out, sent before the mirror "
           "exchange by the same rank unless only virtual rank 0 (its own mirror) has one (derived from "
           "the schedule)";
    if (pof2 == P)
        pact_cost_set(t, L, f * m, f * m);
    else
        rs_halving_steps(P, m, 1, t);
    if (pof2 > 2)
        pact_cost_set(t, t->a + 1, t->b + b, t->c);
    if (pof2 != P)
        pact_cost_set(t, t->a + 1, t->b + m, t->c + m);
    if (pof2 != P && !(P - pof2 == 1 && pof2 > 2))
        pact_cost_set(t, t->a + 1, t->b + b, t->c);
    return 1;
}

const pact_alg pact_alg_reduce_scatter_butterfly = {
    .coll = PACT_COLL_REDUCE_SCATTER,
    .name = "butterfly",
    .build = pact_reduce_scatter_butterfly_build,
    .restrictions = 0,
    .ompi_id = 4,
    .mpich = NULL,
    .smpi = "ompi_butterfly",
    .source = "Open MPI ompi_coll_base_reduce_scatter_intra_butterfly (coll_base_reduce_scatter.c, 4.1); Traff "
              "2005",
    .cost = "(log2(P) + 1)*alpha + (P-1)/P*m*(beta + gamma) + beta*m/P [P pof2 > 2; + alpha + m*(beta + gamma) "
            "(+ alpha + beta*m/P) if P not pof2]",
    .terms = terms,
};
