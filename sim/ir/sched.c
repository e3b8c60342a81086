/* sched.c - schedule IR: storage, builder calls, validation. */
#include "pact_ir.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void pact_sched_init(pact_sched *s)
{
    memset(s, 0, sizeof(*s));
    s->fence = -1;
}

void pact_sched_reset(pact_sched *s, int rank, int size, size_t elem_size)
{
    s->rank = rank;
    s->size = size;
    s->elem_size = elem_size;
    s->inplace = 0;
    memset(s->buf_count, 0, sizeof(s->buf_count));
    s->nops = 0;
    s->ndeps = 0;
    s->err = PACT_OK;
    s->fence = -1;
    s->map = NULL;
}

void pact_sched_free(pact_sched *s)
{
    free(s->ops);
    free(s->deps);
    pact_sched_init(s);
}

static int grow(void **p, size_t *cap, size_t need, size_t elem)
{
    if (need <= *cap)
        return PACT_OK;
    size_t ncap = *cap ? *cap * 2 : 64;
    while (ncap < need)
        ncap *= 2;
    void *np = realloc(*p, ncap * elem);
    if (!np)
        return PACT_ERR_NOMEM;
    *p = np;
    *cap = ncap;
    return PACT_OK;
}

static const pact_slice no_slice = {0, 0, 0};

/* A sub-schedule's slice as a slice of the group's buffers (through every pushed map). */
static pact_slice outer_slice(const pact_sched *s, pact_slice x)
{
    for (const pact_rank_map *m = s->map; m; m = m->outer) {
        x.off += m->off[x.buf];
        x.buf = m->buf[x.buf];
    }
    return x;
}

static int outer_tag(const pact_sched *s, int tag)
{
    for (const pact_rank_map *m = s->map; m; m = m->outer)
        tag += m->tag;
    return tag;
}

static int outer_peer(const pact_sched *s, int peer)
{
    for (const pact_rank_map *m = s->map; m; m = m->outer)
        peer = peer < 0 || peer >= m->size ? -1 : m->ranks ? m->ranks[peer] : peer;
    return peer;
}

void pact_sched_push(pact_sched *s, pact_rank_map *m)
{
    m->outer = s->map;
    s->map = m;
}

void pact_sched_pop(pact_sched *s)
{
    if (s->map)
        s->map = s->map->outer;
}

/* The builder calls' whole path (pact_ir.h has their fast one): a map's translation, the first error, growth,
 * and the fence's dependency. */
int pact_append_slow(pact_sched *s, pact_op_kind kind, int peer, pact_slice dst, pact_slice src)
{
    if (s->map) {
        if (kind == PACT_OP_SEND || kind == PACT_OP_RECV)
            peer = outer_peer(s, peer);
        if (kind == PACT_OP_RECV || kind == PACT_OP_REDUCE || kind == PACT_OP_COPY)
            dst = outer_slice(s, dst);
        if (kind == PACT_OP_SEND || kind == PACT_OP_REDUCE || kind == PACT_OP_COPY)
            src = outer_slice(s, src);
    }
    if (s->err != PACT_OK)
        return -1;
    if (grow((void **)&s->ops, &s->cap_ops, s->nops + 1, sizeof(pact_op)) != PACT_OK) {
        s->err = PACT_ERR_NOMEM;
        return -1;
    }
    pact_op *o = &s->ops[s->nops];
    o->kind = kind;
    o->peer = peer;
    o->tag = s->map ? outer_tag(s, 0) : 0;
    o->src = src;
    o->dst = dst;
    o->dep_first = (uint32_t)s->ndeps;
    o->ndeps = 0;
    int idx = (int)s->nops++;
    pact_after(s, s->fence);
    return idx;
}

void pact_after_slow(pact_sched *s, int dep)
{
    if (dep < 0 || s->err != PACT_OK || s->nops == 0)
        return;
    if ((size_t)dep >= s->nops - 1) {
        s->err = PACT_ERR_ARG; /* a dependency must point to an earlier operation */
        return;
    }
    if (grow((void **)&s->deps, &s->cap_deps, s->ndeps + 1, sizeof(uint32_t)) != PACT_OK) {
        s->err = PACT_ERR_NOMEM;
        return;
    }
    s->deps[s->ndeps++] = (uint32_t)dep;
    s->ops[s->nops - 1].ndeps++;
}

int pact_fence(pact_sched *s)
{
    if (s->err != PACT_OK)
        return -1;
    /* Sinks: operations since the last fence that no later operation depends on. */
    size_t from = s->fence >= 0 ? (size_t)s->fence + 1 : 0, n = s->nops;
    char *used = calloc(n + 1, 1);
    if (!used) {
        s->err = PACT_ERR_NOMEM;
        return -1;
    }
    for (size_t i = from; i < n; i++)
        for (uint32_t d = 0; d < s->ops[i].ndeps; d++)
            used[pact_op_deps(s, i)[d]] = 1;
    int nop = pact_append_slow(s, PACT_OP_NOP, -1, no_slice, no_slice);
    for (size_t i = from; i < n; i++)
        if (!used[i])
            pact_after(s, (int)i);
    free(used);
    s->fence = nop;
    return nop;
}

void pact_set_tag(pact_sched *s, int tag)
{
    if (s->err == PACT_OK && s->nops > 0)
        s->ops[s->nops - 1].tag = s->map ? outer_tag(s, tag) : tag;
}

void pact_need(pact_sched *s, uint32_t buf, size_t count)
{
    if (buf >= PACT_NBUF)
        return;
    pact_slice x = outer_slice(s, pact_sl(buf, 0, count));
    if (s->buf_count[x.buf] < x.off + x.count)
        s->buf_count[x.buf] = x.off + x.count;
}

int pact_sched_successors(const pact_sched *s, uint32_t **pending, uint32_t **first, uint32_t **succ)
{
    const size_t n = s->nops;
    uint32_t *pe = calloc(n + 1, sizeof(*pe)), *fi = calloc(n + 2, sizeof(*fi));
    uint32_t *su = malloc((s->ndeps + 1) * sizeof(*su)), *fill = calloc(n + 1, sizeof(*fill));
    if (!pe || !fi || !su || !fill) {
        free(pe);
        free(fi);
        free(su);
        free(fill);
        *pending = *first = *succ = NULL;
        return PACT_ERR_NOMEM;
    }
    for (size_t i = 0; i < n; i++) {
        pe[i] = s->ops[i].ndeps;
        for (uint32_t d = 0; d < s->ops[i].ndeps; d++)
            fi[pact_op_deps(s, i)[d] + 1]++;
    }
    for (size_t i = 0; i < n; i++)
        fi[i + 1] += fi[i];
    for (size_t i = 0; i < n; i++)
        for (uint32_t d = 0; d < s->ops[i].ndeps; d++) {
            uint32_t p = pact_op_deps(s, i)[d];
            su[fi[p] + fill[p]++] = (uint32_t)i;
        }
    free(fill);
    *pending = pe;
    *first = fi;
    *succ = su;
    return PACT_OK;
}

static int slice_ok(const pact_sched *s, pact_slice x)
{
    return x.buf < PACT_NBUF && x.off <= s->buf_count[x.buf] && x.count <= s->buf_count[x.buf] - x.off;
}

int pact_sched_validate(const pact_sched *s, char *why, size_t whylen)
{
    static const char *kinds[] = {"send", "recv", "reduce", "copy", "nop"};
    char dummy[8];
    if (!why) {
        why = dummy;
        whylen = sizeof(dummy);
    }
    if (s->err != PACT_OK) {
        snprintf(why, whylen, "builder error %d", s->err);
        return PACT_ERR_ARG;
    }
    for (size_t i = 0; i < s->nops; i++) {
        const pact_op *o = &s->ops[i];
        const char *k = kinds[o->kind];
        int reads = o->kind != PACT_OP_RECV && o->kind != PACT_OP_NOP;
        int writes = o->kind != PACT_OP_SEND && o->kind != PACT_OP_NOP;
        if ((o->kind == PACT_OP_SEND || o->kind == PACT_OP_RECV) &&
            (o->peer < 0 || o->peer >= s->size || o->peer == s->rank)) {
            snprintf(why, whylen, "rank %d op %zu (%s): bad peer %d", s->rank, i, k, o->peer);
            return PACT_ERR_ARG;
        }
        if (reads && !slice_ok(s, o->src)) {
            snprintf(why, whylen, "rank %d op %zu (%s): source buf %u [%zu,+%zu) outside its %zu elements",
                     s->rank, i, k, o->src.buf, o->src.off, o->src.count,
                     o->src.buf < PACT_NBUF ? s->buf_count[o->src.buf] : 0);
            return PACT_ERR_ARG;
        }
        if (writes && (!slice_ok(s, o->dst) || o->dst.buf == PACT_BUF_SEND)) {
            snprintf(why, whylen, "rank %d op %zu (%s): destination buf %u [%zu,+%zu) not writable", s->rank,
                     i, k, o->dst.buf, o->dst.off, o->dst.count);
            return PACT_ERR_ARG;
        }
        if ((o->kind == PACT_OP_REDUCE || o->kind == PACT_OP_COPY) && o->src.count != o->dst.count) {
            snprintf(why, whylen, "rank %d op %zu (%s): source and destination differ in length", s->rank, i,
                     k);
            return PACT_ERR_ARG;
        }
        for (uint32_t d = 0; d < o->ndeps; d++) {
            if (pact_op_deps(s, i)[d] >= i) {
                snprintf(why, whylen, "rank %d op %zu: dependency %u is not earlier", s->rank, i,
                         pact_op_deps(s, i)[d]);
                return PACT_ERR_ARG;
            }
        }
    }
    return PACT_OK;
}
