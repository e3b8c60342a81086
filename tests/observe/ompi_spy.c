/*
 * ompi_spy.c - LD_PRELOAD observer of the Open MPI 4.1 coll/base algorithm that really ran.
 *
 * coll_tuned (mca_coll_tuned.so) calls the exported ompi_coll_base_* algorithms of libmpi.so.40 through its PLT,
 * so a preloaded definition of the same name wins.  Each wrapper forwards to the real function (dlsym RTLD_NEXT)
 * and, while recording is on and no other wrapped call is active (outermost only: e.g. allreduce nonoverlapping
 * calls reduce and bcast), appends "RANK FUNCTION CALLER\n" to the file named by PACT_SPY_LOG, CALLER being the
 * file name of the DSO the call came from (dladdr of the return address), e.g. mca_coll_tuned.so: coll basic and
 * others call the same ompi_coll_base_* functions, and only calls from coll_tuned say what coll_tuned chose.
 * Recording is off until the program calls pact_spy_record(1), so MPI_Init/Finalize collectives are not seen.
 * Prototypes follow ompi/mca/coll/base/coll_base_functions.h of Open MPI 4.1.4; Open MPI's types stay opaque.
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

struct ompi_datatype_t;
struct ompi_op_t;
struct ompi_communicator_t;
struct mca_coll_base_module_t;

typedef struct ompi_datatype_t dtype_t;
typedef struct ompi_op_t op_t;
typedef struct ompi_communicator_t comm_t;
typedef struct mca_coll_base_module_t module_t;

static int spy_on;
static int spy_depth;

void pact_spy_record(int on);
void pact_spy_record(int on) { spy_on = on; }

static void *spy_real(const char *name)
{
    void *fn = dlsym(RTLD_NEXT, name);
    if (!fn) {
        fprintf(stderr, "ompi_spy: no real %s: %s\n", name, dlerror());
        abort();
    }
    return fn;
}

static void spy_log(const char *name, const void *ret)
{
    const char *path = getenv("PACT_SPY_LOG");
    if (!path || !*path)
        return;
    const char *rank = getenv("OMPI_COMM_WORLD_RANK");
    const char *caller = "?";
    Dl_info info;
    if (dladdr(ret, &info) && info.dli_fname) {
        const char *slash = strrchr(info.dli_fname, '/');
        caller = slash ? slash + 1 : info.dli_fname;
    }
    char line[512];
    int n = snprintf(line, sizeof line, "%s %s %s\n", rank ? rank : "?", name, caller);
    if (n <= 0 || (size_t)n >= sizeof line)
        return;
    int fd = open(path, O_WRONLY | O_CREAT | O_APPEND, 0644);
    if (fd < 0)
        return;
    ssize_t w = write(fd, line, (size_t)n);
    (void)w;
    close(fd);
}

static void spy_enter(const char *name, const void *ret)
{
    if (spy_on && spy_depth == 0)
        spy_log(name, ret);
    spy_depth++;
}

static void spy_leave(void) { spy_depth--; }

/* SPY(name, (params), (args)): define name(params), log, forward args to the real name. */
#define SPY(name, params, args)                                                                                  \
    int name params;                                                                                             \
    int name params                                                                                              \
    {                                                                                                            \
        static int(*real) params;                                                                                \
        if (!real)                                                                                               \
            *(void **)&real = spy_real(#name);                                                                   \
        spy_enter(#name, __builtin_return_address(0));                                                           \
        int rc = real args;                                                                                      \
        spy_leave();                                                                                             \
        return rc;                                                                                               \
    }

#define AR_P (const void *sb, void *rb, int n, dtype_t *dt, op_t *op, comm_t *c, module_t *m)
#define AR_A (sb, rb, n, dt, op, c, m)
#define RD_P const void *sb, void *rb, int n, dtype_t *dt, op_t *op, int root, comm_t *c, module_t *m
#define RD_A sb, rb, n, dt, op, root, c, m
#define BC_P void *b, int n, dtype_t *dt, int root, comm_t *c, module_t *m
#define BC_A b, n, dt, root, c, m
#define A2_P const void *sb, int sn, dtype_t *sdt, void *rb, int rn, dtype_t *rdt, comm_t *c, module_t *m
#define A2_A sb, sn, sdt, rb, rn, rdt, c, m
#define BA_P (comm_t *c, module_t *m)
#define BA_A (c, m)
#define RS_P (const void *sb, void *rb, const int rcounts[], dtype_t *dt, op_t *op, comm_t *c, module_t *m)
#define RS_A (sb, rb, rcounts, dt, op, c, m)
#define RB_P (const void *sb, void *rb, int rn, dtype_t *dt, op_t *op, comm_t *c, module_t *m)
#define RB_A (sb, rb, rn, dt, op, c, m)

/* allreduce */
SPY(ompi_coll_base_allreduce_intra_basic_linear, AR_P, AR_A)
SPY(ompi_coll_base_allreduce_intra_nonoverlapping, AR_P, AR_A)
SPY(ompi_coll_base_allreduce_intra_recursivedoubling, AR_P, AR_A)
SPY(ompi_coll_base_allreduce_intra_ring, AR_P, AR_A)
SPY(ompi_coll_base_allreduce_intra_ring_segmented, (const void *sb, void *rb, int n, dtype_t *dt, op_t *op, comm_t *c,
    module_t *m, uint32_t seg), (sb, rb, n, dt, op, c, m, seg))
SPY(ompi_coll_base_allreduce_intra_redscat_allgather, AR_P, AR_A)

/* reduce */
SPY(ompi_coll_base_reduce_intra_basic_linear, (RD_P), (RD_A))
SPY(ompi_coll_base_reduce_intra_chain, (RD_P, uint32_t seg, int fanout, int maxreq), (RD_A, seg, fanout, maxreq))
SPY(ompi_coll_base_reduce_intra_pipeline, (RD_P, uint32_t seg, int maxreq), (RD_A, seg, maxreq))
SPY(ompi_coll_base_reduce_intra_binary, (RD_P, uint32_t seg, int maxreq), (RD_A, seg, maxreq))
SPY(ompi_coll_base_reduce_intra_binomial, (RD_P, uint32_t seg, int maxreq), (RD_A, seg, maxreq))
SPY(ompi_coll_base_reduce_intra_in_order_binary, (RD_P, uint32_t seg, int maxreq), (RD_A, seg, maxreq))
SPY(ompi_coll_base_reduce_intra_redscat_gather, (RD_P), (RD_A))

/* bcast */
SPY(ompi_coll_base_bcast_intra_basic_linear, (BC_P), (BC_A))
SPY(ompi_coll_base_bcast_intra_chain, (BC_P, uint32_t seg, int32_t chains), (BC_A, seg, chains))
SPY(ompi_coll_base_bcast_intra_pipeline, (BC_P, uint32_t seg), (BC_A, seg))
SPY(ompi_coll_base_bcast_intra_split_bintree, (BC_P, uint32_t seg), (BC_A, seg))
SPY(ompi_coll_base_bcast_intra_bintree, (BC_P, uint32_t seg), (BC_A, seg))
SPY(ompi_coll_base_bcast_intra_binomial, (BC_P, uint32_t seg), (BC_A, seg))
SPY(ompi_coll_base_bcast_intra_knomial, (BC_P, uint32_t seg, int radix), (BC_A, seg, radix))
SPY(ompi_coll_base_bcast_intra_scatter_allgather, (BC_P, uint32_t seg), (BC_A, seg))
SPY(ompi_coll_base_bcast_intra_scatter_allgather_ring, (BC_P, uint32_t seg), (BC_A, seg))

/* alltoall */
SPY(ompi_coll_base_alltoall_intra_basic_linear, (A2_P), (A2_A))
SPY(ompi_coll_base_alltoall_intra_pairwise, (A2_P), (A2_A))
SPY(ompi_coll_base_alltoall_intra_bruck, (A2_P), (A2_A))
SPY(ompi_coll_base_alltoall_intra_linear_sync, (A2_P, int maxreq), (A2_A, maxreq))
SPY(ompi_coll_base_alltoall_intra_two_procs, (A2_P), (A2_A))

/* allgather (same argument list as alltoall) */
SPY(ompi_coll_base_allgather_intra_basic_linear, (A2_P), (A2_A))
SPY(ompi_coll_base_allgather_intra_bruck, (A2_P), (A2_A))
SPY(ompi_coll_base_allgather_intra_recursivedoubling, (A2_P), (A2_A))
SPY(ompi_coll_base_allgather_intra_ring, (A2_P), (A2_A))
SPY(ompi_coll_base_allgather_intra_neighborexchange, (A2_P), (A2_A))
SPY(ompi_coll_base_allgather_intra_two_procs, (A2_P), (A2_A))

/* barrier */
SPY(ompi_coll_base_barrier_intra_basic_linear, BA_P, BA_A)
SPY(ompi_coll_base_barrier_intra_doublering, BA_P, BA_A)
SPY(ompi_coll_base_barrier_intra_recursivedoubling, BA_P, BA_A)
SPY(ompi_coll_base_barrier_intra_bruck, BA_P, BA_A)
SPY(ompi_coll_base_barrier_intra_two_procs, BA_P, BA_A)
SPY(ompi_coll_base_barrier_intra_tree, BA_P, BA_A)

/* reduce_scatter */
SPY(ompi_coll_base_reduce_scatter_intra_nonoverlapping, RS_P, RS_A)
SPY(ompi_coll_base_reduce_scatter_intra_basic_recursivehalving, RS_P, RS_A)
SPY(ompi_coll_base_reduce_scatter_intra_ring, RS_P, RS_A)
SPY(ompi_coll_base_reduce_scatter_intra_butterfly, RS_P, RS_A)

/* reduce_scatter_block */
SPY(ompi_coll_base_reduce_scatter_block_basic_linear, RB_P, RB_A)
SPY(ompi_coll_base_reduce_scatter_block_intra_recursivedoubling, RB_P, RB_A)
SPY(ompi_coll_base_reduce_scatter_block_intra_recursivehalving, RB_P, RB_A)
SPY(ompi_coll_base_reduce_scatter_block_intra_butterfly, RB_P, RB_A)
