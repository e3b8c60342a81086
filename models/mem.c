/* mem.c - transparent huge pages for the evaluator's large arrays, between 4 MiB and 128 MiB.
 *
 * The evaluation visits each rank's operations in order, but a thousand ranks interleave: with 4 KiB pages
 * nearly every visit missed the TLB, and a miss under nested paging costs a walk of both page tables.  On
 * huge pages the workspace of 1024 ranks of ring allreduce (42 MB) takes 21 TLB entries, and preparing them
 * (the operation records presized at once, 105 MB: a block of huge pages must not grow, mremap splits it)
 * takes a third of the time.  Above 128 MiB it was the other way on this project's virtual machine, for a
 * reason not found: recursive doubling at 2^19 ranks evaluated in 16.9 s with its 240 MB workspace on huge
 * pages, 13.1 s without (12.1 s before any), and 28.8 s with its message slots on them as well; so larger
 * blocks keep small pages, and so do the message slots and channel counts.  glibc can advise its own large
 * blocks (GLIBC_TUNABLES=glibc.malloc.hugetlb=1), but only when set before the process starts: since session
 * 41 pact starts again with it (cli/pact.c), its heap and every block on huge pages, blocks kept in the heap
 * once freed, and this advice matters only where PACT_HUGE_PAGES=0 or the user's own malloc tunables leave
 * pact as started; past 2^18 ranks the process goes back to small pages (pact_mem_large_p, below). */
#define _DEFAULT_SOURCE /* MADV_HUGEPAGE, MADV_POPULATE_WRITE */
#include <stdint.h>
#include <sys/mman.h>
#include <sys/prctl.h>

#include "eval_int.h"

void pact_mem_huge(void *p, size_t bytes)
{
#ifdef MADV_HUGEPAGE
    const uintptr_t huge = (uintptr_t)2 << 20;
    if (bytes < 2 * huge || bytes > ((size_t)128 << 20))
        return;
    uintptr_t lo = ((uintptr_t)p + huge - 1) & ~(huge - 1), hi = ((uintptr_t)p + bytes) & ~(huge - 1);
    if (hi > lo)
        (void)madvise((void *)lo, hi - lo, MADV_HUGEPAGE); /* advice: where it is refused, small pages serve */
#else
    (void)p;
    (void)bytes;
#endif
}

/* A large array written in order of index (a million flow records, a million posted starts: linear alltoall
 * at 1024 ranks) took a page fault per 4 KiB page, each an entry into the kernel; one madvise per chunk makes
 * the chunk's pages at once (Linux 5.14: MADV_POPULATE_WRITE; where it is refused, the faults do it).  The
 * pages are zeroed either way.  Linear alltoall at 1024 ranks, 1 MiB, random arrivals: 0.508 -> 0.494 s. */
void pact_mem_populate(void *p, size_t bytes)
{
#ifdef MADV_POPULATE_WRITE
    const uintptr_t page = 4096;
    const uintptr_t lo = ((uintptr_t)p + page - 1) & ~(page - 1), hi = ((uintptr_t)p + bytes) & ~(page - 1);
    if (hi > lo)
        (void)madvise((void *)lo, hi - lo, MADV_POPULATE_WRITE);
#else
    (void)p;
    (void)bytes;
#endif
}

/* Past 2^18 ranks small pages again, for what the process touches from now on (PR_SET_THP_DISABLE: the pages
 * it has keep their size).  On glibc's huge pages (cli/pact.c) Bruck allgather at 2^20 ranks, 8 B, prepared
 * in 10.5 s (17.9 s) but evaluated in 48.9 s (21.0 s), and at 2^19 ranks took 20.5 s against 18.0 s in all;
 * at 2^16-2^18 ranks huge pages were the faster (1.3 against 1.8 s, 2.9 against 4.1, 6.3 against 7.6), as for
 * recursive doubling at 2^18 (4.0 against 5.3 s).  The cause was not found (mem.c's note above saw the same
 * above 128 MiB). */
void pact_mem_large_p(int P)
{
    if (P > (1 << 18))
        (void)prctl(PR_SET_THP_DISABLE, 1, 0, 0, 0); /* refused (not Linux): as it was */
}
