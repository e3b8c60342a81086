/* ucx_yield.c - preloaded into MPICH's ranks by the tests (tests/integration/lib.sh, MPICH_YIELD): a progress
 * poll of UCX that finds nothing to do yields the core.
 *
 * MPICH 4.0.2 (ch4:ucx) waits by polling: each blocking call spins in its progress loop, which calls
 * ucp_worker_progress once a turn.  On this project's 2-core machines the tests run 3-9 ranks, so a rank
 * that waits spins out its time slice while the rank it waits for is not running: a 5-rank correctness
 * matrix took 87 s of which nearly all was spinning (0.4 s with this).  MPICH's own knob for it,
 * MPIR_CVAR_POLLS_BEFORE_YIELD, is read by ch3 only (set, it changed nothing here), and UCX has none, hence
 * this.  It changes when a rank runs, not what it computes; benchmarks of timing do not load it. */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>

typedef struct ucp_worker *ucp_worker_h;
typedef unsigned (*progress_fn)(ucp_worker_h);

unsigned ucp_worker_progress(ucp_worker_h worker)
{
    static progress_fn real;
    if (!real) {
        real = (progress_fn)dlsym(RTLD_NEXT, "ucp_worker_progress");
        if (!real) {
            fprintf(stderr, "ucx_yield.so: no ucp_worker_progress after it (%s)\n", dlerror());
            abort();
        }
    }
    unsigned n = real(worker);
    if (n == 0)
        sched_yield();
    return n;
}
