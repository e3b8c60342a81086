/* prepare.c - the schedules of all P ranks of one call, built by the registry's builders and flattened, with
 * messages paired up by (source, destination, tag): built once, evaluated under many arrival vectors. */
#include "eval_int.h"

/* ---- preparing ---- */

void pact_model_sched_free(pact_model_sched *s)
{
    if (!s)
        return;
    free(s->base);
    free(s->kind);
    free(s->owner);
    free(s->peer);
    free(s->chan);
    free(s->bytes);
    free(s->pending0);
    free(s->sfirst);
    free(s->succ);
    free(s->ready0);
    free(s->nready0);
    free(s->chan_base);
    free(s);
}

int pact_model_sched_ranks(const pact_model_sched *s)
{
    return s->P;
}

size_t pact_model_sched_messages(const pact_model_sched *s)
{
    return s->nmsg;
}

static guint64 chan_key(int src, int dst, int tag, int P)
{
    return ((guint64)((guint64)src * (guint64)P + (guint64)dst) << 32) | (guint32)tag;
}

pact_model_sched *pact_model_prepare(const pact_alg *alg, const pact_build_args *args, GError **err)
{
    const int P = args->size;
    if (P < 1) {
        g_set_error(err, PACT_ERROR, PACT_ERROR_INPUT, "model: %d processes", P);
        return NULL;
    }
    pact_model_sched *s = calloc(1, sizeof(*s));
    pact_sched *sc = calloc((size_t)P, sizeof(*sc));
    GHashTable *chans = g_hash_table_new_full(g_int64_hash, g_int64_equal, g_free, NULL);
    GArray *keys = g_array_new(FALSE, FALSE, sizeof(guint64));
    gboolean ok = FALSE;
    if (!s || !sc)
        goto out;
    s->P = P;
    size_t n = 0, nsucc = 0;
    for (int r = 0; r < P; r++) {
        pact_build_args a = *args;
        a.rank = r;
        pact_sched_init(&sc[r]);
        int rc = pact_build(alg, &a, &sc[r]);
        if (rc != PACT_OK) {
            const char *why = NULL;
            pact_alg_applies(alg, &a, &why);
            g_set_error(err, PACT_ERROR, PACT_ERROR_INPUT, "model: %s %s on %d ranks: %s",
                        pact_coll_name(alg->coll), alg->name, P,
                        rc == PACT_ERR_RESTRICTED && why ? why : "the builder failed");
            goto out;
        }
        n += sc[r].nops;
        nsucc += sc[r].ndeps;
    }
    s->n = n;
    s->base = malloc(((size_t)P + 1) * sizeof(uint32_t));
    s->kind = malloc((n + 1) * sizeof(uint8_t));
    s->owner = malloc((n + 1) * sizeof(int32_t));
    s->peer = malloc((n + 1) * sizeof(int32_t));
    s->chan = malloc((n + 1) * sizeof(uint32_t));
    s->bytes = malloc((n + 1) * sizeof(double));
    s->pending0 = malloc((n + 1) * sizeof(uint32_t));
    s->sfirst = calloc(n + 2, sizeof(uint32_t));
    s->succ = malloc((nsucc + 1) * sizeof(uint32_t));
    s->ready0 = malloc((n + 1) * sizeof(uint32_t));
    s->nready0 = calloc((size_t)P, sizeof(uint32_t));
    uint32_t *fill = calloc(n + 1, sizeof(uint32_t));
    if (!s->base || !s->kind || !s->owner || !s->peer || !s->chan || !s->bytes || !s->pending0 ||
        !s->sfirst || !s->succ || !s->ready0 || !s->nready0 || !fill) {
        free(fill);
        g_set_error(err, PACT_ERROR, PACT_ERROR_RUN, "model: out of memory");
        goto out;
    }
    /* Flatten; channels numbered in order of first appearance; successor lists in global indices. */
    size_t g = 0;
    for (int r = 0; r < P; r++) {
        s->base[r] = (uint32_t)g;
        const pact_sched *x = &sc[r];
        for (size_t i = 0; i < x->nops; i++, g++) {
            const pact_op *o = &x->ops[i];
            s->kind[g] = (uint8_t)o->kind;
            s->owner[g] = r;
            s->peer[g] = o->peer;
            s->bytes[g] = (double)pact_op_bytes(x, o);
            s->pending0[g] = o->ndeps;
            s->chan[g] = 0;
            if (o->ndeps == 0)
                s->ready0[s->base[r] + s->nready0[r]++] = (uint32_t)g;
            for (uint32_t d = 0; d < o->ndeps; d++)
                s->sfirst[s->base[r] + pact_op_deps(x, i)[d] + 1]++;
            if (o->kind == PACT_OP_SEND || o->kind == PACT_OP_RECV) {
                int src = o->kind == PACT_OP_SEND ? r : o->peer, dst = o->kind == PACT_OP_SEND ? o->peer : r;
                guint64 k = chan_key(src, dst, o->tag, P);
                gpointer v;
                if (!g_hash_table_lookup_extended(chans, &k, NULL, &v)) {
                    g_array_append_val(keys, k);
                    v = GUINT_TO_POINTER(keys->len - 1);
                    g_hash_table_insert(chans, g_memdup2(&k, sizeof(k)), v);
                }
                s->chan[g] = GPOINTER_TO_UINT(v);
            }
        }
    }
    s->base[P] = (uint32_t)g;
    for (size_t i = 0; i < n; i++)
        s->sfirst[i + 1] += s->sfirst[i];
    for (int r = 0; r < P; r++) {
        const pact_sched *x = &sc[r];
        for (size_t i = 0; i < x->nops; i++)
            for (uint32_t d = 0; d < x->ops[i].ndeps; d++) {
                uint32_t p = s->base[r] + pact_op_deps(x, i)[d];
                s->succ[s->sfirst[p] + fill[p]++] = s->base[r] + (uint32_t)i;
            }
    }
    free(fill);
    /* Channels: sends and receives must pair up, the k-th send with the k-th receive in schedule order. */
    s->nchan = keys->len;
    s->chan_base = calloc(s->nchan + 1, sizeof(uint32_t));
    uint32_t *nsend = calloc(s->nchan + 1, sizeof(uint32_t)), *nrecv = calloc(s->nchan + 1, sizeof(uint32_t));
    if (!s->chan_base || !nsend || !nrecv) {
        free(nsend);
        free(nrecv);
        g_set_error(err, PACT_ERROR, PACT_ERROR_RUN, "model: out of memory");
        goto out;
    }
    for (size_t i = 0; i < n; i++) {
        if (s->kind[i] == PACT_OP_SEND)
            nsend[s->chan[i]]++;
        else if (s->kind[i] == PACT_OP_RECV)
            nrecv[s->chan[i]]++;
    }
    for (size_t c = 0; c < s->nchan; c++) {
        if (nsend[c] != nrecv[c]) {
            guint64 k = g_array_index(keys, guint64, c);
            int pair = (int)(k >> 32);
            g_set_error(err, PACT_ERROR, PACT_ERROR_INPUT,
                        "model: %s %s on %d ranks: %u sends from rank %d to rank %d (tag %d) but %u receives",
                        pact_coll_name(alg->coll), alg->name, P, nsend[c], pair / P, pair % P,
                        (int)(guint32)k, nrecv[c]);
            free(nsend);
            free(nrecv);
            goto out;
        }
        s->chan_base[c + 1] = s->chan_base[c] + nsend[c];
    }
    s->nmsg = s->nchan ? s->chan_base[s->nchan] : 0;
    free(nsend);
    free(nrecv);
    ok = TRUE;
out:
    if (sc)
        for (int r = 0; r < P; r++)
            pact_sched_free(&sc[r]);
    free(sc);
    g_hash_table_destroy(chans);
    g_array_free(keys, TRUE);
    if (!ok) {
        if (err && !*err)
            g_set_error(err, PACT_ERROR, PACT_ERROR_RUN, "model: out of memory");
        pact_model_sched_free(s);
        return NULL;
    }
    return s;
}

