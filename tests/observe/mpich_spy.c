/* mpich_spy.c: LD_PRELOAD library that records the UCX tag sends MPICH 4.0.2 (ch4:ucx) makes.
 *
 * libmpich.so.12 calls ucp_tag_send_nbx and ucp_tag_send_sync_nbx from libucp.so.0 for every
 * point-to-point message of its netmod (src/mpid/ch4/netmod/ucx/ucx_send.h, MPIDI_UCX_send).
 * This Debian build sends between ranks of one node through that netmod too (no POSIX shared-memory
 * point-to-point was seen), so the MPIR collective algorithms' sends all pass here.  Recording is off
 * until mpich_once turns it on around the one collective it observes.  The endpoint of each send
 * is kept, and the tag, whose context id tells the communicator; a calibration round (mpich_spy_label:
 * "the next send goes to rank P") maps endpoints to ranks afterwards. */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <stddef.h>
#include <stdint.h>
#include <ucp/api/ucp.h>

#include "mpich_spy.h"

#define SPY_MAX_EVENTS 1024
#define SPY_MAX_EPS 64

typedef ucs_status_ptr_t (*send_fn)(ucp_ep_h, const void *, size_t, ucp_tag_t, const ucp_request_param_t *);

static struct mpich_spy_event events[SPY_MAX_EVENTS];
static int n_events;
static int overflow;
static int recording;
static int label = -1;
static int label_context = -1;
static void *ep_of[SPY_MAX_EPS];
static int peer_of[SPY_MAX_EPS];
static int n_eps;

static void note(ucp_ep_h ep, size_t count, ucp_tag_t tag, const ucp_request_param_t *param)
{
    if (label >= 0) {
        if (n_eps < SPY_MAX_EPS) {
            ep_of[n_eps] = ep;
            peer_of[n_eps] = label;
            n_eps++;
        }
        label_context = MPICH_SPY_CONTEXT(tag);
        label = -1;
        return;
    }
    if (!recording)
        return;
    if (n_events >= SPY_MAX_EVENTS) {
        overflow = 1;
        return;
    }
    struct mpich_spy_event *e = &events[n_events++];
    e->ep = ep;
    e->tag = tag;
    e->count = count;
    /* MPICH passes a UCX datatype only for a noncontiguous MPI datatype; count is then in
     * elements of that MPI datatype, otherwise in bytes. */
    e->contig = !(param != NULL && (param->op_attr_mask & UCP_OP_ATTR_FIELD_DATATYPE));
}

static send_fn real(send_fn *slot, const char *name)
{
    if (*slot == NULL)
        *slot = (send_fn)dlsym(RTLD_NEXT, name);
    return *slot;
}

ucs_status_ptr_t ucp_tag_send_nbx(ucp_ep_h ep, const void *buffer, size_t count, ucp_tag_t tag,
                                  const ucp_request_param_t *param)
{
    static send_fn fn;
    note(ep, count, tag, param);
    return real(&fn, "ucp_tag_send_nbx")(ep, buffer, count, tag, param);
}

ucs_status_ptr_t ucp_tag_send_sync_nbx(ucp_ep_h ep, const void *buffer, size_t count, ucp_tag_t tag,
                                       const ucp_request_param_t *param)
{
    static send_fn fn;
    note(ep, count, tag, param);
    return real(&fn, "ucp_tag_send_sync_nbx")(ep, buffer, count, tag, param);
}

void mpich_spy_record(int on)
{
    recording = on;
}

void mpich_spy_label(int peer)
{
    label = peer;
}

int mpich_spy_events(const struct mpich_spy_event **out)
{
    *out = events;
    return overflow ? -1 : n_events;
}

/* context id of the last calibration send: MPI_COMM_WORLD's point-to-point one */
int mpich_spy_label_context(void)
{
    return label_context;
}

int mpich_spy_peer(const void *ep)
{
    for (int i = 0; i < n_eps; i++)
        if (ep_of[i] == ep)
            return peer_of[i];
    return -1;
}
