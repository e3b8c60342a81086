/* mem.c - transparent huge pages for the evaluator's per-operation workspace.
 *
 * The evaluation visits each rank's operations in order, but a thousand ranks interleave: with 4 KiB pages
 * nearly every visit missed the TLB, and a miss under nested paging costs a walk of both page tables.  On huge
 * pages the workspace of 1024 ranks of ring allreduce (42 MB) takes 21 TLB entries.  Only the workspace:
 * the schedule arrays grow by realloc while they are built, and growing a block of huge pages by mremap split
 * them (preparing took twice as long when they were advised).  glibc can advise its own large blocks
 * (GLIBC_TUNABLES=glibc.malloc.hugetlb=1), but only when set before the process starts. */
#define _DEFAULT_SOURCE /* MADV_HUGEPAGE */
#include <stdint.h>
#include <sys/mman.h>

#include "eval_int.h"

void pact_mem_huge(void *p, size_t bytes)
{
#ifdef MADV_HUGEPAGE
    const uintptr_t huge = (uintptr_t)2 << 20;
    if (bytes < 2 * huge)
        return;
    uintptr_t lo = ((uintptr_t)p + huge - 1) & ~(huge - 1), hi = ((uintptr_t)p + bytes) & ~(huge - 1);
    if (hi > lo)
        (void)madvise((void *)lo, hi - lo, MADV_HUGEPAGE); /* advice: where it is refused, small pages serve */
#else
    (void)p;
    (void)bytes;
#endif
}
