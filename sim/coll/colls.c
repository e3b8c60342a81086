/* colls.c - the traits of the collectives (collectives.inc) and what follows from them: names, buffer
 * sizes, in-place rules.  Nothing else in pact lists the collectives. */
#include "pact_coll.h"

#include <stdio.h>
#include <string.h>

static const pact_coll_traits traits[PACT_NCOLL] = {
#define PACT_COLLECTIVE(n, E, root, red, snd, rcv, inpl, per, call, id)                                      \
    {#n, root, red, PACT_SHAPE_##snd, PACT_SHAPE_##rcv, PACT_INPLACE_##inpl, PACT_PER_##per, call, id},
#include "collectives.inc"
#undef PACT_COLLECTIVE
};

const pact_coll_traits *pact_coll_traits_of(pact_coll c)
{
    return (unsigned)c < PACT_NCOLL ? &traits[c] : NULL;
}

const char *pact_coll_name(pact_coll c)
{
    return (unsigned)c < PACT_NCOLL ? traits[c].name : "?";
}

int pact_coll_from_name(const char *name)
{
    for (int c = 0; c < PACT_NCOLL; c++)
        if (strcmp(name, traits[c].name) == 0)
            return c;
    return -1;
}

int pact_coll_rooted(pact_coll c)
{
    return (unsigned)c < PACT_NCOLL && traits[c].rooted;
}

const char *pact_coll_list(void)
{
    static char list[256];
    if (!list[0]) /* the same text whoever writes it first: no harm in a race */
        for (int c = 0; c < PACT_NCOLL; c++) {
            size_t n = strlen(list);
            snprintf(list + n, sizeof list - n, "%s%s", c ? ", " : "", traits[c].name);
        }
    return list;
}

int pact_coll_m_per_block(pact_coll c)
{
    return (unsigned)c < PACT_NCOLL && traits[c].size_per == PACT_PER_BLOCK;
}

int pact_coll_dataless(pact_coll c)
{
    return (unsigned)c < PACT_NCOLL && traits[c].send == PACT_SHAPE_NONE && traits[c].recv == PACT_SHAPE_NONE;
}

int pact_coll_inplace_whole(pact_coll c)
{
    return (unsigned)c < PACT_NCOLL && traits[c].inplace == PACT_INPLACE_WHOLE;
}

int pact_coll_rank_inplace(pact_coll c, int rank, int root, int inplace)
{
    pact_inplace r = traits[c].inplace;
    return inplace && r != PACT_INPLACE_NONE && (r != PACT_INPLACE_ROOT || rank == root);
}

/* Elements of one buffer of the given shape. */
static size_t shape_count(pact_shape sh, int rank, int size, int root, size_t count)
{
    switch (sh) {
    case PACT_SHAPE_VECTOR:
        return count;
    case PACT_SHAPE_AT_ROOT:
        return rank == root ? count : 0;
    case PACT_SHAPE_BLOCKS:
        return count * (size_t)size;
    case PACT_SHAPE_MY_BLOCK: /* the first count mod P blocks are one element longer */
        return count / (size_t)size + ((size_t)rank < count % (size_t)size);
    default:
        return 0;
    }
}

void pact_coll_buf_counts(pact_coll c, int rank, int size, int root, size_t count, size_t *send, size_t *recv)
{
    *send = shape_count(traits[c].send, rank, size, root, count);
    *recv = shape_count(traits[c].recv, rank, size, root, count);
}

size_t pact_coll_inplace_offset(pact_coll c, int rank, int size, size_t count)
{
    (void)size;
    return traits[c].inplace == PACT_INPLACE_MY_BLOCK ? (size_t)rank * count : 0;
}
