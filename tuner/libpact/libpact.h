/*
 * libpact.h - what libpact-ompi.so and libpact-mpich.so offer a program beyond the MPI calls they wrap.
 *
 * libpact wraps MPI_Allreduce, MPI_Reduce, MPI_Bcast, MPI_Alltoall, MPI_Allgather, MPI_Barrier,
 * MPI_Reduce_scatter and MPI_Reduce_scatter_block through PMPI (LD_PRELOAD on an unmodified binary, or at link
 * time).  Environment (read once, at MPI_Init):
 *   PACT_TABLE=FILE       a table.csv of `pact tune`: each call runs the algorithm its row names, with pact's
 *                         kernel; unset: every call goes to the library (and may still be traced)
 *   PACT_STRICT=1         a table that cannot be read, or a plan that cannot be made, is fatal (MPI_Abort)
 *                         instead of falling back to the library's collective
 *   PACT_VERBOSE=1        at MPI_Finalize, rank 0 prints the routed and fallback counts per collective
 *   PACT_TRACE=FILE       the arrival tracer: writes FILE (rank,call,arrival_s,collective,bytes) at MPI_Finalize
 *   PACT_TRACE_EVERY=K    trace one call in K (default 1)
 *   PACT_TRACE_COLLS=LIST trace these collectives only (default all)
 * A program that wants to know what libpact did declares these weak and tests them for NULL, or finds them
 * with dlsym(RTLD_DEFAULT, ...): they exist only where libpact is loaded.
 */
#ifndef LIBPACT_H
#define LIBPACT_H

/* The next call of collective `coll` ("allreduce", ...) in this process runs algorithm `spec` (pact's spec
 * syntax, "knomial:radix=4"), whatever the table says, or the library's own collective when spec is
 * "mpi"; every rank of the communicator must ask the same.  Returns 0, or -1 for an unknown collective,
 * algorithm or parameter (the reason in pact_lib_last()). */
int pact_lib_force_next(const char *coll, const char *spec);

/* What this process's last wrapped call did, as one line: "routed allreduce ring", "fallback allreduce: no
 * table row covers it", ... (static storage, overwritten by the next call). */
const char *pact_lib_last(void);

#endif
