/* common.h - small helpers shared by the schedule builders. */
#ifndef PACT_COLL_COMMON_H
#define PACT_COLL_COMMON_H

#include "pact_coll.h"

/* Block b of n elements split into p blocks, the first n mod p holding one element more (Open MPI's
 * COLL_BASE_COMPUTE_BLOCKCOUNT split, used by ring and Rabenseifner-style algorithms). */
static inline void pact_block(size_t n, int p, int b, size_t *off, size_t *len)
{
    size_t late = n / (size_t)p, split = n % (size_t)p;
    size_t early = split ? late + 1 : late;
    if ((size_t)b < split) {
        *off = (size_t)b * early;
        *len = early;
    } else {
        *off = (size_t)b * late + split;
        *len = late;
    }
}

/* Appends a dependency on each of dep[0] and dep[1] (-1: none) to the operation appended last: a step that
 * waits for both halves of the previous blocking sendrecv. */
static inline void pact_after2(pact_sched *s, const int dep[2])
{
    pact_after(s, dep[0]);
    pact_after(s, dep[1]);
}

/* One blocking sendrecv step (MPI_Sendrecv, MPIC_Sendrecv, ompi_coll_base_sendrecv): the receive of rs from
 * `from` posted first, then the send of ss to `to`, both after the two halves of the previous step, dep[0]
 * and dep[1] (-1: none); dep becomes this step's halves. */
static inline void pact_sendrecv_step(pact_sched *s, int to, pact_slice ss, int from, pact_slice rs,
                                      int dep[2])
{
    int r = pact_recv(s, from, rs);
    pact_after2(s, dep);
    int x = pact_send(s, to, ss);
    pact_after2(s, dep);
    dep[0] = r;
    dep[1] = x;
}

/* Elements per segment for a segment size in bytes (Open MPI's COLL_BASE_COMPUTED_SEGCOUNT): 0 or a size
 * not below the message means one segment of `count`. */
static inline size_t pact_seg_count(long segsize, size_t elem_size, size_t count)
{
    if (segsize <= 0 || elem_size == 0 || (size_t)segsize >= count * elem_size || (size_t)segsize < elem_size)
        return count;
    return (size_t)segsize / elem_size;
}

#endif
