/* mpich_spy.h: what mpich_spy.so (the LD_PRELOAD UCX send recorder) offers mpich_once. */
#ifndef MPICH_SPY_H
#define MPICH_SPY_H

#include <stddef.h>
#include <stdint.h>

struct mpich_spy_event {
    const void *ep; /* UCX endpoint the send went to; mpich_spy_peer maps it to a rank */
    uint64_t tag;   /* UCX tag (context id, source rank, MPI tag) */
    size_t count;   /* bytes when contig, else elements of a noncontiguous MPI datatype */
    int contig;
};

typedef void (*mpich_spy_record_fn)(int on);
typedef void (*mpich_spy_label_fn)(int peer);
typedef int (*mpich_spy_events_fn)(const struct mpich_spy_event **out);
typedef int (*mpich_spy_peer_fn)(const void *ep);
typedef int (*mpich_spy_label_context_fn)(void);

/* MPICH 4.0.2's UCX tag (src/mpid/ch4/netmod/ucx/ucx_types.h): context id (16 bits) | source rank | MPI tag
 */
#define MPICH_SPY_CONTEXT(tag) ((int)((tag) >> 48))

#endif
