/* place.c - where the ranks of a group run (pact_place), the one constructor every consumer fills the build
 * arguments' topology with. */
#include "pact_coll.h"

#include <stdlib.h>
#include <string.h>

void pact_place_free(pact_place *p)
{
    free(p->node_of);
    free(p->local_rank);
    free(p->node_first);
    free(p->node_ranks);
    free(p->rail_of);
    free(p->gpu_of);
    memset(p, 0, sizeof(*p));
}

int pact_place_init(pact_place *p, int size, const int *node_of)
{
    memset(p, 0, sizeof(*p));
    if (size < 1)
        return PACT_ERR_ARG;
    size_t n = (size_t)size;
    int *ids = malloc(n * sizeof(int)); /* the node id of each node number, in order of first rank */
    p->size = size;
    p->node_of = malloc(n * sizeof(int));
    p->local_rank = malloc(n * sizeof(int));
    p->node_first = calloc(n + 1, sizeof(int));
    p->node_ranks = malloc(n * sizeof(int));
    if (!ids || !p->node_of || !p->local_rank || !p->node_first || !p->node_ranks) {
        free(ids);
        pact_place_free(p);
        return PACT_ERR_NOMEM;
    }
    /* Renumber the ids by first appearance; a linear search per new node is fine for the node counts of
     * real machines, and a hash would be the first thing to add for a million nodes. */
    for (int r = 0; r < size; r++) {
        int id = node_of ? node_of[r] : r, k = p->nnodes - 1;
        if (!node_of)
            k = -1;
        else
            while (k >= 0 && ids[k] != id)
                k--;
        if (k < 0) {
            k = p->nnodes++;
            ids[k] = id;
        }
        p->node_of[r] = k;
        p->local_rank[r] = p->node_first[k + 1]++; /* counts the node's ranks so far */
    }
    for (int k = 0; k < p->nnodes; k++)
        p->node_first[k + 1] += p->node_first[k];
    for (int r = 0; r < size; r++)
        p->node_ranks[p->node_first[p->node_of[r]] + p->local_rank[r]] = r;
    free(ids);
    return PACT_OK;
}
