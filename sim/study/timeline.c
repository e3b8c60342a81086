/* timeline.c - one cell of a validated sweep through the model engine with the time of every operation
 * (pact timeline, issue 20).  The platform's model parameters, gamma, the pattern and the build arguments are
 * made as the sweep makes them for pact sim --engine model (engines.c, setup.c), so that d^ and d* here are
 * the sweep's for the same cell; tests/integration/timeline.sh compares them. */
#include <math.h>
#include <string.h>

#include "pact_host.h"
#include "pact_models.h"
#include "pact_patterns.h"
#include "sweep_int.h"

void pact_timeline_clear(pact_timeline *t)
{
    g_free(t->arrival);
    g_free(t->exit);
    g_free(t->node_of);
    g_free(t->ops);
    memset(t, 0, sizeof *t);
}

/* The cell's arrivals: a pattern file's delays, or the shape generated with the absolute skew and seed. */
static gboolean arrivals(const pact_sweep *s, guint pat, double *d, GError **err)
{
    int P = s->procs;
    GArray *file = s->pattern_data->pdata[pat];
    if (file) {
        memcpy(d, file->data, sizeof(double) * (gsize)P);
        return TRUE;
    }
    const char *shape = s->patterns->pdata[pat];
    if (s->skew_mode != PACT_SKEW_ABSOLUTE && strcmp(shape, "no_delay") != 0) {
        g_set_error(err, PACT_ERROR, PACT_ERROR_INPUT,
                    "a timeline needs the skew in seconds (--skew S), not a factor of other cells");
        return FALSE;
    }
    pact_pattern_opts po = {.skew = s->skew, .seed = s->seed, .node_of = s->node_of, .intra = -1};
    return pact_pattern_gen(shape, P, &po, d, err);
}

gboolean pact_timeline_model(const pact_sweep *s, guint alg_i, guint size_i, guint pat_i, pact_timeline *t,
                             GError **err)
{
    memset(t, 0, sizeof *t);
    if (!s->platform) {
        g_set_error(err, PACT_ERROR, PACT_ERROR_INPUT,
                    "the model engine needs a built-in platform or a platform YAML (not a SimGrid XML)");
        return FALSE;
    }
    const char *spec = s->algs->pdata[alg_i];
    if (pact_sw_smpi_name(spec)) {
        g_set_error(err, PACT_ERROR, PACT_ERROR_INPUT,
                    "'%s': SimGrid's own algorithms have no schedule to show", spec);
        return FALSE;
    }
    int P = s->procs;
    pact_model_params prm;
    pact_export_opts eo = pact_sw_export_opts(s);
    if (!pact_model_params_export(&prm, s->platform, &eo, err))
        return FALSE;
    prm.gamma = s->gamma >= 0 ? s->gamma : s->platform->gamma;

    const pact_alg *alg = NULL;
    g_autofree long *params = NULL;
    char msg[256];
    if (pact_spec_parse(s->coll, spec, &alg, &params, msg, sizeof msg) != PACT_OK) {
        g_set_error(err, PACT_ERROR, PACT_ERROR_INPUT, "%s", msg);
        return FALSE;
    }
    pact_place place;
    if (pact_place_init(&place, P, s->node_of) != PACT_OK) {
        g_set_error(err, PACT_ERROR, PACT_ERROR_RUN, "out of memory");
        return FALSE;
    }
    pact_build_args a = {.coll = s->coll,
                         .size = P,
                         .root = s->root,
                         .commutative = 1,
                         .elem_size = pact_dtype_size(s->dtype),
                         .params = params,
                         .place = &place};
    t->bytes = g_array_index(s->sizes, guint64, size_i);
    a.count = (size_t)(t->bytes / a.elem_size);
    const char *why = NULL;
    pact_model_eval *w = NULL;
    pact_model_sched *ms = NULL;
    gboolean ok = FALSE;
    if (pact_alg_applies(alg, &a, &why) != PACT_OK) {
        g_set_error(err, PACT_ERROR, PACT_ERROR_INPUT, "%s does not apply here: %s", spec, why);
        goto out;
    }
    t->P = P;
    t->arrival = g_new0(double, (gsize)P);
    t->exit = g_new0(double, (gsize)P);
    t->node_of = g_new0(int, (gsize)P);
    for (int r = 0; r < P; r++)
        t->node_of[r] = s->node_of ? s->node_of[r] : r;
    if (!arrivals(s, pat_i, t->arrival, err))
        goto out;
    if (!(ms = pact_model_prepare(alg, &a, err)))
        goto out;
    w = pact_model_eval_new();
    pact_model_eval_record(w, TRUE);
    pact_model_result r;
    if (!pact_model_evaluate(w, ms, t->arrival, &prm, &r, err))
        goto out;
    t->dhat = r.dhat;
    t->dstar = r.dstar;
    memcpy(t->exit, r.exit, sizeof(double) * (gsize)P);
    const pact_model_op_time *tm = pact_model_eval_times(w);
    t->nops = pact_model_sched_ops(ms);
    t->ops = g_new0(pact_timeline_op, t->nops);
    for (size_t i = 0; i < t->nops; i++) {
        pact_timeline_op *o = &t->ops[i];
        pact_model_sched_op(ms, i, &o->rank, &o->kind, &o->bytes);
        o->start = tm[i].start;
        o->end = tm[i].end;
        o->peer = -1;
        o->match = tm[i].match == UINT32_MAX ? -1 : (long)tm[i].match;
        if (o->match >= 0) {
            int pr;
            pact_op_kind pk;
            double pb;
            pact_model_sched_op(ms, (size_t)o->match, &pr, &pk, &pb);
            o->peer = pr;
        }
        if (isnan(o->start) || isnan(o->end)) {
            g_set_error(err, PACT_ERROR, PACT_ERROR_RUN, "model: operation %zu of rank %d has no time", i,
                        o->rank);
            goto out;
        }
    }
    ok = TRUE;
out:
    if (!ok)
        pact_timeline_clear(t);
    pact_model_sched_free(ms);
    pact_model_eval_free(w);
    pact_place_free(&place);
    return ok;
}
