/*
 * smpi_clock.c - pact-smpi-clock.so: the thread CPU clock without a system call, for SMPI runs that never
 * use it.  pact preloads it into smpirun (LD_PRELOAD) when it runs pact-bench-smpi.
 *
 * SMPI reads the calling thread's CPU clock on entry to and on return from every MPI call
 * (smpi_bench_end / smpi_bench_begin, SimGrid 3.32 src/smpi/internals/smpi_bench.cpp), to charge the host
 * CPU time spent between calls as simulated computation.  pact runs with smpi/simulate-computation off and
 * charges compute explicitly (pact_charge), so that simulated times are deterministic: the readings are
 * then never used, yet each is a system call (the vDSO serves no CPU-time clock).  A 256-rank ring
 * allreduce makes three MPI calls per step from the application; those six system calls per step were a
 * sixth of the wall-clock of simulating it (results/reference/speed.md).
 *
 * A preloaded library's clock_gettime() comes before the C library's for SimGrid too; an executable's
 * would not, because smpirun dlopen()s the program.  Until the rank program calls
 * pact_smpi_clock_freeze(1) (bench.c does once it has read simulate-computation off from SimGrid's
 * configuration), every clock is the C library's.
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

static int frozen;
static struct timespec still; /* the thread CPU clock when it stopped */

static int libc_clock(clockid_t id, struct timespec *ts)
{
    static int (*libc)(clockid_t, struct timespec *);
    if (!libc)
        libc = (int (*)(clockid_t, struct timespec *))dlsym(RTLD_NEXT, "clock_gettime");
    return libc ? libc(id, ts) : (int)syscall(SYS_clock_gettime, id, ts);
}

void pact_smpi_clock_freeze(int on);

/* The clock stops at the value it has when first frozen: readings never go backwards, so an interval SMPI
 * started before it stopped is not negative.  (All simulated ranks share one thread.) */
void pact_smpi_clock_freeze(int on)
{
    if (on && !frozen)
        libc_clock(CLOCK_THREAD_CPUTIME_ID, &still);
    frozen = on;
}

int clock_gettime(clockid_t id, struct timespec *ts)
{
    if (frozen && id == CLOCK_THREAD_CPUTIME_ID) {
        *ts = still;
        return 0;
    }
    return libc_clock(id, ts);
}
