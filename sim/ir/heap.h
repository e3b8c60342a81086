/* heap.h - min-heap of operation indices: among ready operations the earliest in the schedule starts
 * first, so a builder's emission order is its posting order, as in the library code it follows. */
#ifndef PACT_HEAP_H
#define PACT_HEAP_H

#include <stddef.h>
#include <stdint.h>

typedef struct {
    uint32_t *v;
    size_t n;
} pact_heap;

static inline void pact_heap_push(pact_heap *h, uint32_t x)
{
    size_t i = h->n++;
    while (i > 0 && h->v[(i - 1) / 2] > x) {
        h->v[i] = h->v[(i - 1) / 2];
        i = (i - 1) / 2;
    }
    h->v[i] = x;
}

static inline uint32_t pact_heap_pop(pact_heap *h)
{
    uint32_t top = h->v[0], x = h->v[--h->n];
    size_t i = 0;
    for (;;) {
        size_t c = 2 * i + 1;
        if (c >= h->n)
            break;
        if (c + 1 < h->n && h->v[c + 1] < h->v[c])
            c++;
        if (h->v[c] >= x)
            break;
        h->v[i] = h->v[c];
        i = c;
    }
    if (h->n > 0)
        h->v[i] = x;
    return top;
}

/* Operation i has completed: its successors lose one pending dependency, and those left with none are ready.
 */
static inline void pact_release(pact_heap *ready, uint32_t *pending, const uint32_t *first,
                                const uint32_t *succ, uint32_t i)
{
    for (uint32_t k = first[i]; k < first[i + 1]; k++)
        if (--pending[succ[k]] == 0)
            pact_heap_push(ready, succ[k]);
}

#endif
