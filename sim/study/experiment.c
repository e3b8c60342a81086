/*
 * experiment.c - an experiment's fields (fields.c) checked and expanded into studies, one per platform x
 * nodes x ppn x collective.
 */
#include "pact_run.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "exp_int.h"
#include "pact_host.h"

/* ---- building the studies ------------------------------------------------------------------------------ */

static gboolean parse_int(GHashTable *f, const char *name, const char *text, int lo, int *out, GError **err)
{
    gint64 v;
    if (!g_ascii_string_to_signed(text, 10, lo, G_MAXINT, &v, NULL)) {
        g_autofree char *w = pact_exp_what(f, name);
        g_set_error(err, PACT_ERROR, PACT_ERROR_INPUT, "%s %s: expected a whole number >= %d", w, text, lo);
        return FALSE;
    }
    *out = (int)v;
    return TRUE;
}

void pact_experiment_init(pact_experiment *e)
{
    memset(e, 0, sizeof(*e));
    e->studies = g_ptr_array_new();
    e->jobs = 1;
    e->figures = TRUE;
    e->batch = PACT_BATCH_AUTO;
}

void pact_experiment_clear(pact_experiment *e)
{
    for (guint i = 0; e->studies && i < e->studies->len; i++) {
        pact_sweep_clear(e->studies->pdata[i]);
        g_free(e->studies->pdata[i]);
    }
    if (e->studies)
        g_ptr_array_unref(e->studies);
    g_free(e->outdir);
    g_free(e->text);
    memset(e, 0, sizeof(*e));
}

static const char *const batch_names[] = {"auto", "alg", "size", "cell"};

/* Field `name`'s value `v` as one of `n` names; *out gets values[i] of the name it is (the names in the order
 * the message lists them). */
static gboolean choose(GHashTable *f, const char *name, const char *v, const char *const *names,
                       const int *values, guint n, int *out, GError **err)
{
    for (guint i = 0; i < n; i++)
        if (!strcmp(v, names[i])) {
            *out = values[i];
            return TRUE;
        }
    GString *list = g_string_new(NULL);
    for (guint i = 0; i < n; i++)
        g_string_append_printf(list, "%s%s", i == 0 ? "" : i + 1 < n ? ", " : " or ", names[i]);
    g_autofree char *w = pact_exp_what(f, name);
    g_set_error(err, PACT_ERROR, PACT_ERROR_INPUT, "%s %s: expected %s", w, v, list->str);
    g_string_free(list, TRUE);
    return FALSE;
}

/* The settings every study shares, from the fields into a study. */
static gboolean common(GHashTable *f, pact_sweep *s, GError **err)
{
    const char *v;
    g_autofree char *w = NULL;
    int k;
    if ((v = pact_exp_get(f, "ranks-on"))) {
        if (!choose(f, "ranks-on", v, (const char *const[]){"cores", "gpus"},
                    (const int[]){PACT_ON_CORES, PACT_ON_GPUS}, 2, &k, err))
            return FALSE;
        s->ranks_on = (pact_ranks_on)k;
    }
    if ((v = pact_exp_get(f, "rails"))) {
        if (!choose(f, "rails", v, (const char *const[]){"sharing", "binding"},
                    (const int[]){PACT_RAILS_SHARING, PACT_RAILS_BINDING}, 2, &k, err))
            return FALSE;
        s->rails = k;
    }
    if ((v = pact_exp_get(f, "mapping"))) {
        w = pact_exp_what(f, "mapping");
        if (!pact_mapping_parse(v, w, &s->mapping, err))
            return FALSE;
        g_clear_pointer(&w, g_free);
    }
    w = pact_exp_what(f, "sizes");
    if (!pact_parse_size_list((v = pact_exp_get(f, "sizes")) ? v : "8,1K,64K,1M", w, s->sizes, err))
        return FALSE;
    g_clear_pointer(&w, g_free);
    w = pact_exp_what(f, "patterns");
    if (!pact_split_list((v = pact_exp_get(f, "patterns")) ? v : "no_delay,last_delayed", w, s->patterns, err))
        return FALSE;
    g_clear_pointer(&w, g_free);
    const char *skew = pact_exp_get(f, "skew"), *factor = pact_exp_get(f, "skew-factor"), *mode = pact_exp_get(f, "skew-mode");
    if (skew && factor) {
        g_set_error(err, PACT_ERROR, PACT_ERROR_INPUT, "skew and skew-factor: give one of them");
        return FALSE;
    }
    if (skew && mode) {
        w = pact_exp_what(f, "skew-mode");
        g_set_error(err, PACT_ERROR, PACT_ERROR_INPUT,
                    "%s %s: goes with skew-factor (skew is absolute seconds)", w, mode);
        return FALSE;
    }
    if (skew) {
        s->skew_mode = PACT_SKEW_ABSOLUTE;
        w = pact_exp_what(f, "skew");
        if (!pact_parse_seconds(skew, w, &s->skew, err) || !pact_skew_check(s->skew, FALSE, w, err))
            return FALSE;
        g_clear_pointer(&w, g_free);
    } else {
        int m = mode ? pact_skew_mode_parse(mode) : PACT_SKEW_MEAN_NODELAY;
        if (m <= PACT_SKEW_ABSOLUTE) {
            w = pact_exp_what(f, "skew-mode");
            g_set_error(err, PACT_ERROR, PACT_ERROR_INPUT,
                        "%s %s: expected mean_nodelay, own_nodelay or mif (absolute seconds: skew)", w, mode);
            return FALSE;
        }
        s->skew_mode = (pact_skew_mode)m;
        char *end = NULL;
        s->skew = factor ? g_ascii_strtod(factor, &end) : 1.5;
        if (factor && (end == factor || *end || !(s->skew >= 0) || !isfinite(s->skew))) {
            w = pact_exp_what(f, "skew-factor");
            g_set_error(err, PACT_ERROR, PACT_ERROR_INPUT, "%s %s: expected a number >= 0", w, factor);
            return FALSE;
        }
        if (factor) {
            w = pact_exp_what(f, "skew-factor");
            if (!pact_skew_check(s->skew, TRUE, w, err))
                return FALSE;
            g_clear_pointer(&w, g_free);
        }
    }
    if ((v = pact_exp_get(f, "engine"))) {
        if (!choose(f, "engine", v, (const char *const[]){"smpi", "replay", "model"},
                    (const int[]){PACT_ENGINE_SMPI, PACT_ENGINE_REPLAY, PACT_ENGINE_MODEL}, 3, &k, err))
            return FALSE;
        s->engine = (pact_engine)k;
    }
    if ((v = pact_exp_get(f, "reps")) && !parse_int(f, "reps", v, 1, &s->reps, err))
        return FALSE;
    if ((v = pact_exp_get(f, "root")) && !parse_int(f, "root", v, 0, &s->root, err))
        return FALSE;
    if ((v = pact_exp_get(f, "seed"))) {
        guint64 seed;
        if (!g_ascii_string_to_unsigned(v, 10, 0, G_MAXUINT64, &seed, NULL)) {
            w = pact_exp_what(f, "seed");
            g_set_error(err, PACT_ERROR, PACT_ERROR_INPUT, "%s %s: expected a whole number >= 0", w, v);
            return FALSE;
        }
        s->seed = seed;
    }
    if ((v = pact_exp_get(f, "gamma"))) {
        w = pact_exp_what(f, "gamma");
        if (!pact_parse_seconds(v, w, &s->gamma, err))
            return FALSE;
        g_clear_pointer(&w, g_free);
    }
    if ((v = pact_exp_get(f, "dtype"))) {
        g_free(s->dtype);
        s->dtype = g_strdup(v);
    }
    if ((v = pact_exp_get(f, "op"))) {
        g_free(s->op);
        s->op = g_strdup(v);
    }
    s->check = !g_strcmp0(pact_exp_get(f, "check"), "true");
    return TRUE;
}

/* The algorithms of one study: `all`, or the listed names that exist for its collective. */
static gboolean study_algs(GHashTable *f, pact_sweep *s, GError **err)
{
    const char *v = pact_exp_get(f, "algs");
    if (!v || !strcmp(v, "all")) {
        for (size_t i = 0; i < pact_alg_count(); i++)
            if (pact_alg_at(i)->coll == s->coll)
                g_ptr_array_add(s->algs, g_strdup(pact_alg_at(i)->name));
        return TRUE;
    }
    g_autofree char *w = pact_exp_what(f, "algs");
    g_autoptr(GPtrArray) all = g_ptr_array_new_with_free_func(g_free);
    if (!pact_split_list(v, w, all, err))
        return FALSE;
    g_auto(GStrv) colls = g_strsplit(pact_exp_get(f, "coll") ? pact_exp_get(f, "coll") : "allreduce", ",", -1);
    for (guint i = 0; i < all->len; i++) {
        const char *a = all->pdata[i];
        g_auto(GStrv) base = g_strsplit(a, ":", 2);
        if (g_str_has_prefix(a, "smpi:") || pact_alg_find(s->coll, base[0]) || g_strv_length(colls) == 1)
            g_ptr_array_add(s->algs, g_strdup(a)); /* one collective: validate names the unknown ones */
        else {
            gboolean any = FALSE;
            for (int c = 0; colls[c]; c++) {
                int cc = pact_coll_from_name(g_strstrip(colls[c]));
                any |= cc >= 0 && pact_alg_find((pact_coll)cc, base[0]) != NULL;
            }
            if (!any) {
                g_set_error(err, PACT_ERROR, PACT_ERROR_INPUT,
                            "%s: '%s' is an algorithm of none of the collectives (pact list algorithms)", w,
                            base[0]);
                return FALSE;
            }
        }
    }
    if (s->algs->len == 0) {
        g_set_error(err, PACT_ERROR, PACT_ERROR_INPUT, "%s: no algorithm of %s listed", w,
                    pact_coll_name(s->coll));
        return FALSE;
    }
    return TRUE;
}

gboolean pact_experiment_build(GHashTable *f, pact_experiment *e, GError **err)
{
    GError *e2 = NULL;
    const char *v;
    GHashTableIter it;
    gpointer key;
    g_hash_table_iter_init(&it, f);
    while (g_hash_table_iter_next(&it, &key, NULL))
        if (pact_exp_tune_field(key)) {
            g_autofree char *tw = pact_exp_what(f, key);
            g_set_error(err, PACT_ERROR, PACT_ERROR_INPUT, "%s: a pact tune field, not one of pact sim's", tw);
            return FALSE;
        }
    g_autofree char *w = NULL;
    g_autoptr(GPtrArray) platforms = g_ptr_array_new_with_free_func(g_free);
    g_autoptr(GPtrArray) colls = g_ptr_array_new_with_free_func(g_free);
    g_autoptr(GArray) nodes = g_array_new(FALSE, FALSE, sizeof(int));
    g_autoptr(GArray) ppns = g_array_new(FALSE, FALSE, sizeof(int));
    if ((v = pact_exp_get(f, "jobs")) && !parse_int(f, "jobs", v, 1, &e->jobs, &e2))
        goto fail;
    if ((v = pact_exp_get(f, "batch"))) {
        int b;
        if (!choose(f, "batch", v, batch_names,
                    (const int[]){PACT_BATCH_AUTO, PACT_BATCH_ALG, PACT_BATCH_SIZE, PACT_BATCH_CELL},
                    G_N_ELEMENTS(batch_names), &b, &e2))
            goto fail;
        e->batch = (pact_batch)b;
    }
    if ((v = pact_exp_get(f, "shard"))) {
        int k = 0, n = 0;
        char tail = 0;
        if (sscanf(v, "%d/%d%c", &k, &n, &tail) != 2 || n < 1 || k < 1 || k > n) {
            w = pact_exp_what(f, "shard");
            g_set_error(&e2, PACT_ERROR, PACT_ERROR_INPUT, "%s %s: expected K/N with 1 <= K <= N", w, v);
            goto fail;
        }
        e->shard_k = k;
        e->shard_n = n;
    }
    w = pact_exp_what(f, "platform");
    if (!pact_split_list((v = pact_exp_get(f, "platform")) ? v : "generic32x32", w, platforms, &e2))
        goto fail;
    g_clear_pointer(&w, g_free);
    w = pact_exp_what(f, "coll");
    if (!pact_split_list((v = pact_exp_get(f, "coll")) ? v : "allreduce", w, colls, &e2))
        goto fail;
    g_clear_pointer(&w, g_free);
    const char *lists[] = {"nodes", "ppn"};
    GArray *outs[] = {nodes, ppns};
    for (int l = 0; l < 2; l++) {
        g_autoptr(GPtrArray) items = g_ptr_array_new_with_free_func(g_free);
        w = pact_exp_what(f, lists[l]);
        if (!pact_split_list((v = pact_exp_get(f, lists[l])) ? v : l == 0 ? "2" : "0", w, items, &e2))
            goto fail;
        g_clear_pointer(&w, g_free);
        for (guint i = 0; i < items->len; i++) {
            int n;
            /* ppn 0: every core of the node (the default) */
            if (!parse_int(f, lists[l], items->pdata[i], l == 0 || pact_exp_get(f, "ppn") ? 1 : 0, &n, &e2))
                goto fail;
            g_array_append_val(outs[l], n);
        }
    }
    for (guint i = 0; i < colls->len; i++)
        if (pact_coll_from_name(colls->pdata[i]) < 0) {
            w = pact_exp_what(f, "coll");
            g_set_error(&e2, PACT_ERROR, PACT_ERROR_INPUT,
                        "%s %s: unknown collective (%s)", w, (char *)colls->pdata[i], pact_coll_list());
            goto fail;
        }
    const char *hostfile = pact_exp_get(f, "hostfile");
    for (guint pi = 0; pi < platforms->len; pi++) {
        const char *pl = platforms->pdata[pi];
        gboolean xml = g_str_has_suffix(pl, ".xml");
        const pact_platform *plat = NULL;
        if (!xml && hostfile) {
            w = pact_exp_what(f, "hostfile");
            g_set_error(&e2, PACT_ERROR, PACT_ERROR_INPUT, "%s: goes with a SimGrid XML platform", w);
            goto fail;
        }
        if (!xml && !(plat = pact_platform_get(pl, &e2))) {
            const char *origin = pact_exp_origin(f, "platform");
            if (origin) {
                char *m = g_strdup_printf("%s: platform: %s", origin, e2->message);
                g_free(e2->message);
                e2->message = m;
            }
            goto fail;
        }
        for (guint ni = 0; ni < nodes->len; ni++)
            for (guint ki = 0; ki < ppns->len; ki++)
                for (guint ci = 0; ci < colls->len; ci++) {
                    pact_sweep *s = g_new0(pact_sweep, 1);
                    pact_sweep_init(s);
                    g_ptr_array_add(e->studies, s);
                    s->platform = plat;
                    if (xml) {
                        s->user_xml = g_strdup(pl);
                        s->user_hostfile = g_strdup(hostfile);
                    }
                    s->nodes = g_array_index(nodes, int, ni);
                    s->ppn = g_array_index(ppns, int, ki);
                    s->coll = (pact_coll)pact_coll_from_name(colls->pdata[ci]);
                    if (!common(f, s, &e2) || !study_algs(f, s, &e2) || !pact_sweep_validate(s, &e2))
                        goto fail;
                }
    }
    /* Two studies that come out the same (an XML's hostfile fixes nodes and ppn) would duplicate rows. */
    for (guint i = 0; i < e->studies->len; i++)
        for (guint j = 0; j < i; j++) {
            pact_sweep *a = e->studies->pdata[i], *b = e->studies->pdata[j];
            if (a->platform == b->platform && !g_strcmp0(a->user_xml, b->user_xml) && a->nodes == b->nodes &&
                a->ppn == b->ppn && a->coll == b->coll) {
                g_set_error(&e2, PACT_ERROR, PACT_ERROR_INPUT,
                            "two studies are the same (%s, %d nodes x %d ppn, %s): check the nodes and ppn "
                            "lists",
                            a->platform ? a->platform->name : a->user_xml, a->nodes, a->ppn,
                            pact_coll_name(a->coll));
                goto fail;
            }
        }
    e->text = pact_exp_dump(f, TRUE);
    GString *t = g_string_new(e->text);
    if (!pact_exp_add_digests(f, t, &e2)) {
        g_string_free(t, TRUE);
        goto fail;
    }
    g_free(e->text);
    e->text = g_string_free(t, FALSE);
    if ((v = pact_exp_get(f, "output"))) {
        e->outdir = g_strdup(v);
    } else {
        g_autoptr(GDateTime) now = g_date_time_new_now_local();
        g_autofree char *stamp = g_date_time_format(now, "%Y%m%d-%H%M%S");
        e->outdir = g_strdup_printf("results/sim-%s", stamp);
        e->outdir_default = TRUE;
    }
    return TRUE;
fail:
    pact_exp_relabel(f, e2);
    g_propagate_error(err, e2);
    return FALSE;
}
