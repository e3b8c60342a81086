/* test_compose.c - where ranks run (pact_place) and compositions through rank maps (pact_compose): a
 * hierarchical allreduce made of the registry's own builders on node groups and node leaders must give the
 * sum on every rank, for block, cyclic and uneven placements, run by the dry-run executor. */
#include <glib.h>
#include <string.h>

#include "pact_coll.h"
#include "pact_dryrun.h"

static void dsum(const void *in, void *inout, size_t n)
{
    const double *a = in;
    double *b = inout;
    for (size_t i = 0; i < n; i++)
        b[i] += a[i];
}

static void test_place(void)
{
    pact_place p;
    const int ids[] = {7, 7, 3, 7, 3, 9}; /* node ids in any order: numbered by first rank */
    g_assert_cmpint(pact_place_init(&p, 6, ids), ==, PACT_OK);
    g_assert_cmpint(p.nnodes, ==, 3);
    const int node_of[] = {0, 0, 1, 0, 1, 2}, local[] = {0, 1, 0, 2, 1, 0}, ranks[] = {0, 1, 3, 2, 4, 5};
    for (int r = 0; r < 6; r++) {
        g_assert_cmpint(p.node_of[r], ==, node_of[r]);
        g_assert_cmpint(p.local_rank[r], ==, local[r]);
        g_assert_cmpint(p.node_ranks[r], ==, ranks[r]);
    }
    g_assert_cmpint(pact_place_leader(&p, 1), ==, 2);
    g_assert_cmpint(pact_place_local_size(&p, 3), ==, 3);
    g_assert_cmpint(pact_place_local_size(&p, 5), ==, 1);
    pact_place_free(&p);
    g_assert_cmpint(pact_place_init(&p, 4, NULL), ==, PACT_OK); /* unknown: a node per rank */
    g_assert_cmpint(p.nnodes, ==, 4);
    g_assert_cmpint(p.node_of[3], ==, 3);
    pact_place_free(&p);
    g_assert_cmpint(pact_place_init(&p, 0, NULL), ==, PACT_ERR_ARG);
}

/* Maps translate peers, buffers with their offsets, and tags, through nested maps. */
static void test_map_translation(void)
{
    pact_sched s;
    pact_sched_init(&s);
    pact_sched_reset(&s, 5, 8, 8);
    const int outer_ranks[] = {1, 3, 5, 7}, inner_ranks[] = {2, 0};
    pact_rank_map outer = {.ranks = outer_ranks, .size = 4, .rank = 2, .tag = 100};
    outer.buf[PACT_BUF_SEND] = PACT_BUF_RECV;
    outer.buf[PACT_BUF_RECV] = PACT_BUF_TMP0;
    outer.off[PACT_BUF_RECV] = 40;
    pact_rank_map inner = {.ranks = inner_ranks, .size = 2, .rank = 1, .tag = 10};
    inner.buf[PACT_BUF_RECV] = PACT_BUF_RECV;
    inner.off[PACT_BUF_RECV] = 2;
    pact_sched_push(&s, &outer);
    pact_sched_push(&s, &inner);
    int x = pact_recv(&s, 0, pact_sl(PACT_BUF_RECV, 1, 3)); /* inner 0 -> outer 2 -> rank 5 */
    pact_set_tag(&s, 1);
    pact_need(&s, PACT_BUF_RECV, 8);
    pact_sched_pop(&s);
    int y = pact_send(&s, 3, pact_sl(PACT_BUF_SEND, 0, 4)); /* outer 3 -> rank 7, SEND -> RECV */
    pact_sched_pop(&s);
    int z = pact_send(&s, 6, pact_sl(PACT_BUF_SEND, 0, 4)); /* no map */
    g_assert_cmpint(s.err, ==, PACT_OK);
    g_assert_cmpint(s.ops[x].peer, ==, 5);
    g_assert_cmpint(s.ops[x].dst.buf, ==, PACT_BUF_TMP0);
    g_assert_cmpuint(s.ops[x].dst.off, ==, 1 + 2 + 40);
    g_assert_cmpint(s.ops[x].tag, ==, 1 + 10 + 100);
    g_assert_cmpuint(s.buf_count[PACT_BUF_TMP0], ==, 8 + 2 + 40);
    g_assert_cmpint(s.ops[y].peer, ==, 7);
    g_assert_cmpint(s.ops[y].src.buf, ==, PACT_BUF_RECV);
    g_assert_cmpint(s.ops[y].tag, ==, 100);
    g_assert_cmpint(s.ops[z].peer, ==, 6);
    g_assert_cmpint(s.ops[z].src.buf, ==, PACT_BUF_SEND);
    g_assert_cmpint(s.ops[z].tag, ==, 0);
    pact_sched_free(&s);
}

/* A hierarchical allreduce written as three compositions: reduce (binomial) to each node's leader, allreduce
 * (recursive doubling) among the leaders, bcast (binomial) from each leader within its node. */
static int hier_allreduce(pact_sched *s, const pact_build_args *a)
{
    const pact_place *pl = a->place;
    const int node = pl->node_of[a->rank], local = pl->local_rank[a->rank];
    const int *node_ranks = pl->node_ranks + pl->node_first[node];
    const int nlocal = pact_place_local_size(pl, a->rank);
    int leaders[64], rc;
    g_assert_cmpint(pl->nnodes, <=, 64);
    for (int k = 0; k < pl->nnodes; k++)
        leaders[k] = pact_place_leader(pl, k);

    pact_build_args b = *a;
    b.params = NULL;
    b.place = NULL;
    pact_rank_map in_node = {.ranks = node_ranks, .size = nlocal, .rank = local, .tag = 1000};
    for (int k = 0; k < PACT_NBUF; k++)
        in_node.buf[k] = (uint32_t)k;
    b.coll = PACT_COLL_REDUCE;
    b.size = nlocal;
    b.rank = local;
    b.root = 0;
    if ((rc = pact_compose(s, pact_alg_find(PACT_COLL_REDUCE, "binomial"), &b, &in_node)) != PACT_OK)
        return rc;
    pact_fence(s);
    if (local == 0) {
        pact_rank_map among = {.ranks = leaders, .size = pl->nnodes, .rank = node, .tag = 2000};
        for (int k = 0; k < PACT_NBUF; k++)
            among.buf[k] = (uint32_t)k;
        among.buf[PACT_BUF_SEND] = PACT_BUF_RECV; /* in place on the node's partial sum */
        b.coll = PACT_COLL_ALLREDUCE;
        b.size = pl->nnodes;
        b.rank = node;
        b.inplace = 1;
        if ((rc = pact_compose(s, pact_alg_find(PACT_COLL_ALLREDUCE, "recursive_doubling"), &b, &among)) !=
            PACT_OK)
            return rc;
        pact_fence(s);
    }
    in_node.tag = 3000;
    b.coll = PACT_COLL_BCAST;
    b.size = nlocal;
    b.rank = local;
    b.inplace = 0;
    return pact_compose(s, pact_alg_find(PACT_COLL_BCAST, "binomial"), &b, &in_node);
}

/* Runs hier_allreduce on P ranks placed by node_of; returns the number of wrong elements. */
static long run_hier(int P, const int *node_of, size_t n, int inplace)
{
    pact_place pl;
    g_assert_cmpint(pact_place_init(&pl, P, node_of), ==, PACT_OK);
    pact_sched *s = g_new0(pact_sched, P);
    const pact_sched **sp = g_new0(const pact_sched *, P);
    void *(*bufs)[PACT_NBUF] = g_malloc0(sizeof(*bufs) * (size_t)P);
    for (int r = 0; r < P; r++) {
        pact_build_args a = {.coll = PACT_COLL_ALLREDUCE, .rank = r, .size = P, .count = n, .elem_size = 8,
                             .commutative = 1, .inplace = inplace, .place = &pl};
        pact_sched_init(&s[r]);
        pact_sched_reset(&s[r], r, P, 8);
        s[r].inplace = inplace;
        s[r].buf_count[PACT_BUF_SEND] = s[r].buf_count[PACT_BUF_RECV] = n;
        g_assert_cmpint(hier_allreduce(&s[r], &a), ==, PACT_OK);
        g_assert_cmpint(s[r].err, ==, PACT_OK);
        char why[256];
        if (pact_sched_validate(&s[r], why, sizeof why) != PACT_OK)
            g_error("hier P=%d rank %d: %s", P, r, why);
        sp[r] = &s[r];
        double *recv = g_new0(double, n + 1), *send = inplace ? recv : g_new0(double, n + 1);
        for (size_t i = 0; i < n; i++)
            send[i] = (double)(r * 1000 + (long)i);
        bufs[r][PACT_BUF_SEND] = send;
        bufs[r][PACT_BUF_RECV] = recv;
        for (int b = PACT_BUF_TMP0; b < PACT_NBUF; b++)
            bufs[r][b] = g_malloc0(s[r].buf_count[b] * 8 + 8);
    }
    char why[256] = "";
    if (pact_dryrun(sp, P, bufs, dsum, why, sizeof why) != PACT_OK)
        g_error("hier P=%d: %s", P, why);
    long bad = 0;
    for (int r = 0; r < P; r++) {
        const double *got = bufs[r][PACT_BUF_RECV];
        for (size_t i = 0; i < n; i++)
            bad += got[i] != 1000.0 * P * (P - 1) / 2 + (double)P * (double)i;
    }
    for (int r = 0; r < P; r++) {
        for (int b = PACT_BUF_RECV; b < PACT_NBUF; b++)
            g_free(bufs[r][b]);
        if (!inplace)
            g_free(bufs[r][PACT_BUF_SEND]);
        pact_sched_free(&s[r]);
    }
    g_free(bufs);
    g_free(sp);
    g_free(s);
    pact_place_free(&pl);
    return bad;
}

static void test_hierarchical_allreduce(void)
{
    const int block[] = {0, 0, 0, 0, 1, 1, 1, 1, 2, 2, 2, 2};             /* 3 nodes x 4, block */
    const int cyclic[] = {0, 1, 2, 0, 1, 2};                              /* 3 nodes x 2, cyclic */
    const int uneven[] = {4, 9, 9, 9, 2, 2, 5, 5, 5, 5, 5};               /* 1, 3, 2 and 5 ranks */
    const int one[] = {0, 0, 0, 0, 0};                                    /* one node */
    const struct {
        int P;
        const int *node_of;
    } cases[] = {{12, block}, {6, cyclic}, {11, uneven}, {5, one}, {7, NULL}, {1, NULL}};
    const size_t counts[] = {1, 7, 100};
    for (size_t c = 0; c < G_N_ELEMENTS(cases); c++)
        for (size_t k = 0; k < G_N_ELEMENTS(counts); k++)
            for (int inplace = 0; inplace < 2; inplace++)
                g_assert_cmpint(run_hier(cases[c].P, cases[c].node_of, counts[k], inplace), ==, 0);
}

/* A composition refuses what the composed algorithm refuses, and arguments that do not fit the map. */
static void test_compose_checks(void)
{
    pact_sched s;
    pact_sched_init(&s);
    pact_sched_reset(&s, 0, 6, 8);
    const int ranks[] = {0, 2, 4};
    pact_rank_map m = {.ranks = ranks, .size = 3, .rank = 0};
    pact_build_args b = {.coll = PACT_COLL_REDUCE, .size = 3, .rank = 0, .count = 4, .elem_size = 8};
    /* binomial reduce needs a commutative operation */
    g_assert_cmpint(pact_compose(&s, pact_alg_find(PACT_COLL_REDUCE, "binomial"), &b, &m), ==,
                    PACT_ERR_RESTRICTED);
    b.commutative = 1;
    b.rank = 1; /* not the map's rank */
    g_assert_cmpint(pact_compose(&s, pact_alg_find(PACT_COLL_REDUCE, "binomial"), &b, &m), ==, PACT_ERR_ARG);
    g_assert_null(s.map);
    pact_sched_free(&s);
}

int main(int argc, char **argv)
{
    g_test_init(&argc, &argv, NULL);
    g_test_add_func("/compose/place", test_place);
    g_test_add_func("/compose/map-translation", test_map_translation);
    g_test_add_func("/compose/hierarchical-allreduce", test_hierarchical_allreduce);
    g_test_add_func("/compose/checks", test_compose_checks);
    return g_test_run();
}
