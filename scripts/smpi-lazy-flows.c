/*
 * smpi-lazy-flows.c - eight 64 KiB messages whose times SimGrid 3.32's default network update (network/optim
 * Lazy) gets wrong, where its Full update and pact's model agree (results/reference/model-vs-sim.md, the
 * routed machines).  Built with smpicc and run by scripts/smpi-lazy-flows.sh on 64 nodes of shaheen2 (the
 * Aries dragonfly export, one rank per node, four nodes per router): ranks 4, 5, 6 (router 1) send to rank +
 * 4 (router 2) and rank + 8 (router 3) at t0; rank 7 (router 1) sends to 15 (router 3) and 23 (router 5) at
 * t0 + D.  The three flows to router 3 and, after D, 7 -> 15 share one green link (16 GB/s); the three to
 * router 2 share another.  Each receiver prints when its message arrived, in us after t0.
 *
 *   smpirun -np 64 -platform P.xml -hostfile H [pact's --cfg options] ./smpi-lazy-flows D_US
 */
#include <mpi.h>
#include <simgrid/actor.h>
#include <stdio.h>
#include <stdlib.h>

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    int r;
    MPI_Comm_rank(MPI_COMM_WORLD, &r);
    const double d = (argc > 1 ? atof(argv[1]) : 2.236) * 1e-6;
    static char a[65536], b[65536];
    MPI_Barrier(MPI_COMM_WORLD);
    const double t0 = MPI_Wtime() + 1e-3; /* every rank past the barrier's messages */
    sg_actor_sleep_until(t0);
    int to[2] = {-1, -1};
    if (r >= 4 && r <= 6) {
        to[0] = r + 4;
        to[1] = r + 8;
    } else if (r == 7) {
        sg_actor_sleep_until(t0 + d);
        to[0] = 15;
        to[1] = 23;
    }
    if (to[0] >= 0) {
        MPI_Request q[2];
        MPI_Isend(a, 65536, MPI_CHAR, to[0], 0, MPI_COMM_WORLD, &q[0]);
        MPI_Isend(b, 65536, MPI_CHAR, to[1], 0, MPI_COMM_WORLD, &q[1]);
        MPI_Waitall(2, q, MPI_STATUSES_IGNORE);
    }
    const int from = r >= 8 && r <= 10 ? r - 4 : r >= 12 && r <= 14 ? r - 8 : r == 15 || r == 23 ? 7 : -1;
    if (from >= 0) {
        MPI_Recv(a, 65536, MPI_CHAR, from, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        printf("%d<-%d %.4f\n", r, from, (MPI_Wtime() - t0) * 1e6);
    }
    MPI_Finalize();
    return 0;
}
