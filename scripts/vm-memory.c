/*
 * vm-memory.c - what memory costs on the machine at hand (scripts/vm-memory.sh builds and runs it): first
 * touches of fresh anonymous memory on 4 KiB and on transparent huge pages, touches of memory the process
 * freed and mapped again, and a chain of dependent loads at random over a region on either page size.
 *
 * The model engine's one-cell processes and its 2^20-rank cells spend much of their time in these (session
 * 43, results/reference/model-speed.md): on this project's VM a 4 KiB page fault costs 14-17 us, a fresh MiB
 * on huge pages about 2.5 ms, and huge pages shorten a random load by 12-27% but not the 2^20-rank
 * evaluations.  Printing the costs beside a benchmark's figures says how much of a day's figures is the
 * machine.
 *
 * vm-memory MIB: one line per measurement, "name value unit".
 */
#define _DEFAULT_SOURCE /* MADV_HUGEPAGE */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>

static double now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

/* bytes of anonymous memory aligned to 2 MiB, advised onto huge pages or off them */
static char *region(size_t bytes, int huge)
{
    const size_t align = (size_t)2 << 20;
    char *p = mmap(NULL, bytes + align, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (p == MAP_FAILED) {
        perror("vm-memory: mmap");
        exit(1);
    }
    char *q = (char *)(((uintptr_t)p + align - 1) & ~(uintptr_t)(align - 1));
    if (madvise(q, bytes, huge ? MADV_HUGEPAGE : MADV_NOHUGEPAGE) != 0)
        perror("vm-memory: madvise (the kernel's default pages serve)");
    return q;
}

/* ms per MiB to write every byte of p[0 .. bytes) once */
static double touch(char *p, size_t bytes)
{
    const double t0 = now();
    memset(p, 1, bytes);
    return (now() - t0) * 1e3 / (double)(bytes >> 20);
}

/* ns per load of a chain of dependent loads over p[0 .. bytes): one 8-byte word per 64-byte line, linked in
 * a random cycle (Sattolo's shuffle, a fixed seed) */
static double chase(char *p, size_t bytes, size_t loads)
{
    const size_t lines = bytes / 64;
    uint32_t *perm = malloc(lines * sizeof(uint32_t));
    if (!perm) {
        perror("vm-memory: malloc");
        exit(1);
    }
    for (size_t i = 0; i < lines; i++)
        perm[i] = (uint32_t)i;
    uint64_t s = 0x9e3779b97f4a7c15ull;
    for (size_t i = lines - 1; i > 0; i--) {
        s ^= s << 13, s ^= s >> 7, s ^= s << 17;
        const size_t j = (size_t)(s % i);
        const uint32_t t = perm[i];
        perm[i] = perm[j];
        perm[j] = t;
    }
    for (size_t i = 0; i < lines; i++) /* line perm[i] points at line perm[i + 1] */
        *(uint64_t *)(p + 64 * (size_t)perm[i]) = 64 * (uint64_t)perm[(i + 1) % lines];
    free(perm);
    uint64_t at = 0;
    const double t0 = now();
    for (size_t i = 0; i < loads; i++)
        at = *(volatile uint64_t *)(p + at);
    const double ns = (now() - t0) * 1e9 / (double)loads;
    if (at == UINT64_MAX) /* never: keeps the chain */
        puts("");
    return ns;
}

int main(int argc, char **argv)
{
    const long mib = argc > 1 ? strtol(argv[1], NULL, 10) : 256;
    if (argc > 2 || mib < 4 || mib > (1L << 16)) {
        fprintf(stderr, "usage: vm-memory [MIB, 4 to 65536; default 256]\n");
        return 2;
    }
    const size_t bytes = (size_t)mib << 20;
    for (int huge = 0; huge <= 1; huge++) {
        const char *pg = huge ? "2M" : "4K";
        char *p = region(bytes, huge);
        printf("first_touch_%s %.3f ms/MiB\n", pg, touch(p, bytes));
        printf("random_load_%s %.1f ns\n", pg, chase(p, bytes, 4000000));
        munmap(p, bytes);
        p = region(bytes, huge); /* the pages the process just gave back, most likely */
        printf("touch_again_%s %.3f ms/MiB\n", pg, touch(p, bytes));
        munmap(p, bytes);
    }
    return 0;
}
