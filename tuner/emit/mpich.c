/*
 * mpich.c - MPICH 4.0's collective selection (CSEL) JSON: written from a selection table, and checked.
 *
 * Followed: MPICH 4.0 src/mpi/coll/src/csel.c (parse_json_tree: members tried in file order, the first
 * algorithm=/composition= member of an object ends it; validate_tree: an ordering test such as comm_size<=N
 * needs a later sibling, =any must be last; MPIR_Csel_search: avg_msg_size, total_msg_size, count,
 * is_commutative, is_op_built_in, is_sendbuf_inplace and is_block_regular exist for some collectives only and
 * assert elsewhere, thresholds are read with atoi) and the built-in tree compiled into libmpich, whose
 * restrictions (count<pow2, is_op_built_in, comm_size=pow2, is_sendbuf_inplace) the emitter repeats around
 * each choice: MPICH skips its restriction checks on this path.  The names and the built-in tree come from
 * the installed library (scripts/mpich-csel-data.sh -> mpich_csel_data.inc).  json-glib reads and writes the
 * JSON; MPICH keeps member order and so does json-glib.
 */
#include "emit_int.h"

#include <json-glib/json-glib.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "pact_host.h"

#include "mpich_csel_data.inc"

const char *pact_emit_mpich_version(void)
{
    return PACT_MPICH_CSEL_VERSION;
}

const char *pact_emit_mpich_builtin(void)
{
    return mpich_csel_builtin;
}

static gboolean leaf_known(const char *key)
{
    for (size_t i = 0; mpich_csel_leaves[i]; i++)
        if (!strcmp(mpich_csel_leaves[i], key))
            return TRUE;
    return FALSE;
}

/* "MPIR_Reduce_scatter" for "reduce_scatter" (MPICH's function names capitalise the first letter). */
static char *mpir_prefix(const char *prefix, const char *coll)
{
    char *s = g_strdup_printf("%s%s", prefix, coll);
    char *c = s + strlen(prefix);
    *c = g_ascii_toupper(*c);
    return s;
}

gboolean pact_emit_mpich_knows(pact_coll c, const char *name)
{
    g_autofree char *pre = mpir_prefix("MPIR_", pact_coll_name(c));
    g_autofree char *key = g_strdup_printf("algorithm=%s_intra_%s", pre, name);
    return leaf_known(key);
}

/* ---- writer ------------------------------------------------------------------------------------------ */

static JsonObject *leaf(const char *coll, const char *name)
{
    g_autofree char *pre = mpir_prefix("MPIR_", coll);
    g_autofree char *key = g_strdup_printf("algorithm=%s_intra_%s", pre, name);
    JsonObject *o = json_object_new();
    json_object_set_object_member(o, key, json_object_new());
    return o;
}

/* An object of two members: key_a -> a, key_b -> b (both owned). */
static JsonObject *pair(const char *key_a, JsonObject *a, const char *key_b, JsonObject *b)
{
    JsonObject *o = json_object_new();
    json_object_set_object_member(o, key_a, a);
    json_object_set_object_member(o, key_b, b);
    return o;
}

/* MPICH's algorithm `name` for collective c, inside the guards MPICH's own tree puts around it. */
static JsonObject *guarded(pact_coll c, const char *name)
{
    const char *cn = pact_coll_name(c);
    switch (c) {
    case PACT_COLL_ALLREDUCE:
    case PACT_COLL_REDUCE: {
        const char *fallback = c == PACT_COLL_ALLREDUCE ? "recursive_doubling" : "binomial";
        if (!strcmp(name, "reduce_scatter_allgather") || !strcmp(name, "reduce_scatter_gather"))
            /* MPICH runs them for built-in operations (commutative) and count >= the largest power of two
             * <= P only */
            return pair("is_op_built_in=no", leaf(cn, fallback), "is_op_built_in=yes",
                        pair("count<pow2", leaf(cn, fallback), "count=any", leaf(cn, name)));
        if (!strcmp(name, "smp"))
            return pair("comm_hierarchy=parent",
                        pair("is_commutative=yes", leaf(cn, name), "is_commutative=no", leaf(cn, fallback)),
                        "comm_hierarchy=any", leaf(cn, fallback));
        break;
    }
    case PACT_COLL_BCAST:
    case PACT_COLL_BARRIER:
        if (!strcmp(name, "smp"))
            return pair("comm_hierarchy=parent", leaf(cn, name), "comm_hierarchy=any",
                        leaf(cn, c == PACT_COLL_BCAST ? "binomial" : "dissemination"));
        break;
    case PACT_COLL_ALLTOALL:
        /* in place, MPICH has pairwise_sendrecv_replace only; that one needs MPI_IN_PLACE */
        if (!strcmp(name, "pairwise_sendrecv_replace"))
            return pair("is_sendbuf_inplace=yes", leaf(cn, name), "is_sendbuf_inplace=no", leaf(cn, "pairwise"));
        return pair("is_sendbuf_inplace=yes", leaf(cn, "pairwise_sendrecv_replace"), "is_sendbuf_inplace=no",
                    leaf(cn, name));
    case PACT_COLL_ALLGATHER:
        if (!strcmp(name, "recursive_doubling")) /* asserts on other sizes; pact's runs Bruck's there */
            return pair("comm_size=pow2", leaf(cn, name), "comm_size=any", leaf(cn, "brucks"));
        break;
    case PACT_COLL_REDUCE_SCATTER:
        if (!strcmp(name, "recursive_halving") || !strcmp(name, "pairwise"))
            return pair("is_commutative=yes", leaf(cn, name), "is_commutative=no", leaf(cn, "recursive_doubling"));
        if (!strcmp(name, "noncommutative"))
            return pair("comm_size=pow2",
                        pair("is_block_regular=yes", leaf(cn, name), "is_block_regular=no",
                             leaf(cn, "recursive_doubling")),
                        "comm_size=any", leaf(cn, "recursive_doubling"));
        break;
    default:
        break;
    }
    return leaf(cn, name);
}

/* The comm_type=intra subtree of collective c from the table's groups. */
static JsonObject *intra_tree(const pact_table *t, pact_coll c, GArray *groups, GError **err)
{
    const char *size_key = c == PACT_COLL_BARRIER                                          ? NULL
                           : c == PACT_COLL_ALLGATHER || c == PACT_COLL_REDUCE_SCATTER ? "total_msg_size"
                                                                                       : "avg_msg_size";
    g_autoptr(JsonObject) by_size = json_object_new();
    for (guint j = 0; j < groups->len; j++) {
        const emit_group *e = &g_array_index(groups, emit_group, j);
        g_autoptr(JsonObject) by_msg = json_object_new();
        for (guint i = e->first; i < e->first + e->n; i++) {
            const pact_table_row *r = emit_row(t, i);
            if (!r->alg->mpich) {
                g_set_error(err, PACT_ERROR, PACT_ERROR_INPUT, "%s: %s is not an MPICH %s algorithm",
                            emit_where(r), r->alg->name, PACT_MPICH_CSEL_VERSION);
                return NULL;
            }
            size_t np = pact_alg_nparams(r->alg);
            long def[np ? np : 1];
            pact_params_defaults(r->alg, def);
            for (size_t k = 0; r->params && k < np; k++)
                if (r->params[k] != def[k]) {
                    g_set_error(err, PACT_ERROR, PACT_ERROR_INPUT,
                                "%s: %s with %s=%ld: MPICH's CSEL file carries no algorithm parameter",
                                emit_where(r), r->alg->name, r->alg->params[k].name, r->params[k]);
                    return NULL;
                }
            JsonObject *choice = guarded(c, r->alg->mpich);
            if (!size_key) {
                by_msg = choice; /* barrier: one row */
                break;
            }
            g_autofree char *key = NULL;
            if (r->max_bytes == PACT_TABLE_INF || i == e->first + e->n - 1)
                key = g_strdup_printf("%s=any", size_key);
            else {
                uint64_t scale = c == PACT_COLL_ALLGATHER ? (uint64_t)e->procs : 1;
                if (r->max_bytes > (uint64_t)INT_MAX / scale) {
                    json_object_unref(choice);
                    g_set_error(err, PACT_ERROR, PACT_ERROR_INPUT,
                                "%s: MPICH %s reads %s thresholds as int: %llu B cannot be written (tune sizes "
                                "whose boundaries stay under 2 GiB%s)",
                                emit_where(r), PACT_MPICH_CSEL_VERSION, size_key,
                                (unsigned long long)r->max_bytes * scale,
                                scale > 1 ? " once multiplied by the process count" : "");
                    return NULL;
                }
                key = g_strdup_printf("%s<=%llu", size_key, (unsigned long long)(r->max_bytes * scale));
            }
            json_object_set_object_member(by_msg, key, choice);
        }
        g_autofree char *skey = j + 1 < groups->len
                                    ? g_strdup_printf("comm_size<%d", g_array_index(groups, emit_group, j + 1).procs)
                                    : g_strdup("comm_size=any");
        json_object_set_object_member(by_size, skey, g_steal_pointer(&by_msg));
    }
    return g_steal_pointer(&by_size);
}

gboolean pact_emit_mpich(const pact_table *t, int ppn, GString *out, GError **err)
{
    g_autoptr(JsonParser) parser = json_parser_new();
    GError *e = NULL;
    if (!json_parser_load_from_data(parser, mpich_csel_builtin, -1, &e)) {
        g_set_error(err, PACT_ERROR, PACT_ERROR_INPUT, "internal error: MPICH's built-in tree: %s", e->message);
        g_error_free(e);
        return FALSE;
    }
    JsonObject *builtin = json_node_get_object(json_parser_get_root(parser));
    g_autoptr(JsonObject) root = json_object_new();
    gboolean tuned[PACT_NCOLL] = {0};
    int ntuned = 0;
    GList *members = json_object_get_members(builtin);
    for (GList *m = members; m; m = m->next) {
        const char *key = m->data;
        JsonNode *val = json_object_get_member(builtin, key);
        int c = g_str_has_prefix(key, "collective=") ? pact_coll_from_name(key + strlen("collective=")) : -1;
        g_autoptr(GArray) groups = c >= 0 ? emit_groups(t, c, ppn) : NULL;
        if (!groups || groups->len == 0) {
            json_object_set_member(root, key, json_node_copy(val));
            continue;
        }
        JsonObject *intra = intra_tree(t, c, groups, err);
        if (!intra) {
            g_list_free(members);
            return FALSE;
        }
        JsonObject *sub = json_object_new();
        JsonObject *old = JSON_NODE_HOLDS_OBJECT(val) ? json_node_get_object(val) : NULL;
        JsonNode *own = old ? json_object_get_member(old, "comm_type=intra") : NULL;
        if (own && (c == PACT_COLL_ALLREDUCE || c == PACT_COLL_REDUCE || c == PACT_COLL_BCAST ||
                    c == PACT_COLL_BARRIER)) {
            /* MPICH's smp compositions call these on the node and node-leader sub-communicators, which keep
             * MPICH's own choices: what pact's smp builders run (sim/coll/common/mpich_smp.c), and a table's
             * choice was tuned for a communicator of the whole machine's layout, not for one node's ranks */
            JsonObject *by_hier = json_object_new();
            json_object_set_member(by_hier, "comm_hierarchy=node", json_node_copy(own));
            json_object_set_member(by_hier, "comm_hierarchy=node_roots", json_node_copy(own));
            json_object_set_object_member(by_hier, "comm_hierarchy=any", intra);
            intra = by_hier;
        }
        json_object_set_object_member(sub, "comm_type=intra", intra);
        if (old && json_object_has_member(old, "comm_type=inter"))
            json_object_set_member(sub, "comm_type=inter", json_node_copy(json_object_get_member(old, "comm_type=inter")));
        json_object_set_object_member(root, key, sub);
        tuned[c] = TRUE;
        ntuned++;
    }
    g_list_free(members);
    for (int c = 0; c < PACT_NCOLL; c++) {
        g_autoptr(GArray) groups = emit_groups(t, c, ppn);
        if (groups->len && !tuned[c]) {
            g_set_error(err, PACT_ERROR, PACT_ERROR_INPUT, "%s: MPICH's built-in tree has no such collective",
                        pact_coll_name(c));
            return FALSE;
        }
    }
    if (ntuned == 0) {
        g_set_error(err, PACT_ERROR, PACT_ERROR_INPUT, "the table has no row: no MPICH tree to write");
        return FALSE;
    }
    g_autoptr(JsonNode) node = json_node_new(JSON_NODE_OBJECT);
    json_node_set_object(node, root);
    g_autoptr(JsonGenerator) gen = json_generator_new();
    json_generator_set_pretty(gen, TRUE);
    json_generator_set_indent(gen, 1);
    json_generator_set_root(gen, node);
    gsize len;
    g_autofree char *text = json_generator_to_data(gen, &len);
    g_string_append_len(out, text, (gssize)len);
    g_string_append_c(out, '\n');
    if (!pact_check_mpich_text(out->str, out->len, "(the tree pact wrote)", &e)) {
        g_set_error(err, PACT_ERROR, PACT_ERROR_INPUT, "internal error, refusing to write it: %s", e->message);
        g_error_free(e);
        return FALSE;
    }
    return TRUE;
}

/* ---- checker ----------------------------------------------------------------------------------------- */

typedef struct {
    JsonParser *parser;
    GArray *stack;     /* int: lines of the objects open */
    GHashTable *lines; /* JsonObject* -> line of its '{' */
    const char *name;
    GError **err;
} checker;

static void on_start(JsonParser *p, gpointer data)
{
    checker *ck = data;
    int line = (int)json_parser_get_current_line(p);
    g_array_append_val(ck->stack, line);
}

static void on_end(JsonParser *p, JsonObject *o, gpointer data)
{
    (void)p;
    checker *ck = data;
    if (ck->stack->len == 0)
        return;
    int line = g_array_index(ck->stack, int, ck->stack->len - 1);
    g_array_set_size(ck->stack, ck->stack->len - 1);
    g_hash_table_insert(ck->lines, o, GINT_TO_POINTER(line));
}

static int line_of(checker *ck, JsonObject *o)
{
    return GPOINTER_TO_INT(g_hash_table_lookup(ck->lines, o));
}

static gboolean bad(checker *ck, int line, const char *fmt, ...) G_GNUC_PRINTF(3, 4);
static gboolean bad(checker *ck, int line, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    g_autofree char *msg = g_strdup_vprintf(fmt, ap);
    va_end(ap);
    g_set_error(ck->err, PACT_ERROR, PACT_ERROR_INPUT, "%s:%d: %s", ck->name, line, msg);
    return FALSE;
}

static gboolean in_list(const char *s, const char *const *list)
{
    for (; *list; list++)
        if (!strcmp(s, *list))
            return TRUE;
    return FALSE;
}

/* Collectives for which MPIR_Csel_search defines each property (MPICH 4.0 csel.c); elsewhere it asserts. */
static const char *const has_avg[] = {"allreduce", "iallreduce", "bcast", "ibcast", "reduce", "ireduce",
                                      "alltoall", "ialltoall", NULL};
static const char *const has_total[] = {
    "allreduce", "bcast", "reduce", "alltoall", "alltoallv", "alltoallw", "allgather", "allgatherv", "gather",
    "scatter", "reduce_scatter", "reduce_scatter_block", "iallreduce", "ibcast", "ireduce", "ialltoall",
    "ialltoallv", "ialltoallw", "iallgather", "iallgatherv", "ireduce_scatter", "ireduce_scatter_block",
    "igather", "iscatter", NULL};
static const char *const has_count[] = {"bcast", "allreduce", "iallreduce", "reduce", "ireduce", "allgather",
                                        "allgatherv", "reduce_scatter", "reduce_scatter_block", "iallgather",
                                        "iallgatherv", "ireduce_scatter", "ireduce_scatter_block", NULL};
static const char *const has_commutative[] = {"allreduce", "iallreduce", "reduce", "ireduce", "reduce_scatter",
                                              "ireduce_scatter", "reduce_scatter_block", "ireduce_scatter_block",
                                              NULL};
static const char *const has_builtin_op[] = {"allreduce", "iallreduce", "reduce", "ireduce", NULL};
static const char *const has_inplace[] = {"alltoall", "ialltoall", "alltoallv", "ialltoallv", "alltoallw",
                                          "ialltoallw", NULL};
static const char *const has_regular[] = {"reduce_scatter", "ireduce_scatter", NULL};

/* The collectives MPICH 4.0 knows as collective=NAME. */
static const char *const csel_colls[] = {
    "allgather", "allgatherv", "allreduce", "alltoall", "alltoallv", "alltoallw", "barrier", "bcast", "exscan",
    "gather", "gatherv", "iallgather", "iallgatherv", "iallreduce", "ialltoall", "ialltoallv", "ialltoallw",
    "ibarrier", "ibcast", "iexscan", "igather", "igatherv", "ineighbor_allgather", "ineighbor_allgatherv",
    "ineighbor_alltoall", "ineighbor_alltoallv", "ineighbor_alltoallw", "ireduce", "ireduce_scatter",
    "ireduce_scatter_block", "iscan", "iscatter", "iscatterv", "neighbor_allgather", "neighbor_allgatherv",
    "neighbor_alltoall", "neighbor_alltoallv", "neighbor_alltoallw", "reduce", "reduce_scatter",
    "reduce_scatter_block", "scan", "scatter", "scatterv", NULL};

typedef enum { K_BAD, K_ANY, K_BOOL, K_ORDER, K_COLL, K_LEAF } key_kind;

/* What kind of test `key` is (spaces removed, as MPICH does); *family gets the part before '=' or '<' for
 * boolean tests, *truth whether it tests for true. */
static key_kind classify(checker *ck, int line, const char *key, const char *coll, char *family, size_t flen,
                         gboolean *truth)
{
    static const struct {
        const char *prefix;
        const char *const *only; /* collectives it applies to, NULL: all */
    } ordered[] = {{"comm_size<=", NULL},      {"comm_size<", NULL},          {"count<=", has_count},
                   {"avg_msg_size<=", has_avg}, {"avg_msg_size<", has_avg},     {"total_msg_size<=", has_total},
                   {"total_msg_size<", has_total}, {"comm_avg_ppn<=", NULL},   {"comm_avg_ppn<", NULL}};
    static const struct {
        const char *key;
        gboolean truth;
        const char *const *only;
    } booleans[] = {{"is_multi_threaded=yes", 1, NULL},   {"is_multi_threaded=no", 0, NULL},
                    {"comm_type=intra", 1, NULL},         {"comm_type=inter", 0, NULL},
                    {"is_commutative=yes", 1, has_commutative}, {"is_commutative=no", 0, has_commutative},
                    {"is_sendbuf_inplace=yes", 1, has_inplace}, {"is_sendbuf_inplace=no", 0, has_inplace},
                    {"is_op_built_in=yes", 1, has_builtin_op},  {"is_op_built_in=no", 0, has_builtin_op},
                    {"is_block_regular=yes", 1, has_regular},   {"is_block_regular=no", 0, has_regular},
                    {"is_node_consecutive=yes", 1, NULL},  {"is_node_consecutive=no", 0, NULL},
                    {"comm_hierarchy=parent", 1, NULL},    {"comm_hierarchy=node_roots", 0, NULL},
                    {"comm_hierarchy=node", 0, NULL},      {"comm_hierarchy=flat", 0, NULL}};
    if (g_str_has_prefix(key, "algorithm=") || g_str_has_prefix(key, "composition="))
        return K_LEAF;
    if (g_str_has_prefix(key, "collective="))
        return K_COLL;
    if (!strcmp(key, "any") || g_str_has_suffix(key, "=any"))
        return K_ANY;
    if (!strcmp(key, "comm_size=pow2") || !strcmp(key, "comm_size=node_comm_size"))
        return K_ORDER;
    if (!strcmp(key, "count<pow2")) {
        if (coll && !in_list(coll, has_count))
            return bad(ck, line, "'%s': MPICH defines no count for %s (it asserts)", key, coll), K_BAD;
        return K_ORDER;
    }
    for (size_t i = 0; i < G_N_ELEMENTS(booleans); i++)
        if (!strcmp(key, booleans[i].key)) {
            if (coll && booleans[i].only && !in_list(coll, booleans[i].only))
                return bad(ck, line, "'%s': MPICH tests this for other collectives than %s (it asserts)", key,
                           coll),
                       K_BAD;
            g_strlcpy(family, key, flen);
            *strchr(family, '=') = '\0';
            *truth = booleans[i].truth;
            return K_BOOL;
        }
    for (size_t i = 0; i < G_N_ELEMENTS(ordered); i++)
        if (g_str_has_prefix(key, ordered[i].prefix)) {
            const char *num = key + strlen(ordered[i].prefix);
            if (!*num || strspn(num, "0123456789") != strlen(num))
                return bad(ck, line, "'%s': '%s' is not a non-negative integer (MPICH would read it as 0)", key,
                           num),
                       K_BAD;
            if (strlen(num) > 10 || g_ascii_strtoull(num, NULL, 10) > INT_MAX)
                return bad(ck, line, "'%s': %s is over INT_MAX (MPICH reads it with atoi)", key, num), K_BAD;
            if (coll && ordered[i].only && !in_list(coll, ordered[i].only))
                return bad(ck, line, "'%.*s': MPICH defines it for other collectives than %s (it asserts)",
                           (int)(strchr(key, '<') - key), key, coll),
                       K_BAD;
            return K_ORDER;
        }
    return bad(ck, line, "'%s': not a key MPICH %s knows", key, PACT_MPICH_CSEL_VERSION), K_BAD;
}

static gboolean walk(checker *ck, JsonObject *o, const char *coll)
{
    int oline = line_of(ck, o);
    GList *members = json_object_get_members(o);
    guint n = g_list_length(members);
    if (n == 0) {
        g_list_free(members);
        return bad(ck, oline, "an empty object where a test or an algorithm should be");
    }
    gboolean ok = TRUE, has_any = FALSE, has_order = FALSE;
    char family[64] = "";
    int truths = 0; /* bit 0: a false test seen, bit 1: a true one, of one family */
    guint i = 0;
    for (GList *m = members; ok && m; m = m->next, i++) {
        g_autofree char *key = g_strdup(m->data); /* without spaces, as MPICH reads it */
        char *w = key;
        for (const char *r = m->data; *r; r++)
            if (*r != ' ')
                *w++ = *r;
        *w = '\0';
        JsonNode *val = json_object_get_member(o, m->data);
        JsonObject *vo = JSON_NODE_HOLDS_OBJECT(val) ? json_node_get_object(val) : NULL;
        int line = vo ? line_of(ck, vo) : oline;
        if (!vo) {
            ok = bad(ck, line, "'%s': its value must be an object", key);
            break;
        }
        char fam[64] = "";
        gboolean truth = FALSE;
        key_kind k = classify(ck, line, key, coll, fam, sizeof fam, &truth);
        switch (k) {
        case K_BAD:
            ok = FALSE;
            break;
        case K_LEAF: {
            if (i != 0 || n != 1) {
                ok = bad(ck, line, "'%s': MPICH stops at the first algorithm of an object; it must be alone", key);
                break;
            }
            if (!coll) {
                ok = bad(ck, line, "'%s': an algorithm outside any collective=", key);
                break;
            }
            if (!leaf_known(key)) {
                ok = bad(ck, line, "'%s': not an algorithm of MPICH %s", key, PACT_MPICH_CSEL_VERSION);
                break;
            }
            const char *fn = strchr(key, '=') + 1;
            g_autofree char *pre = mpir_prefix(g_str_has_prefix(fn, "MPIDI_") ? "MPIDI_" : "MPIR_", coll);
            size_t pl = strlen(pre);
            const char *rest = fn + pl;
            if (strncmp(fn, pre, pl) || rest[0] != '_' ||
                !(g_str_has_prefix(rest, "_intra_") || g_str_has_prefix(rest, "_inter_") ||
                  g_str_has_prefix(rest, "_allcomm_"))) {
                ok = bad(ck, line, "'%s': not an algorithm of collective=%s", key, coll);
                break;
            }
            break;
        }
        case K_COLL: {
            const char *cn = key + strlen("collective=");
            if (coll) {
                ok = bad(ck, line, "'%s' inside collective=%s", key, coll);
                break;
            }
            if (!in_list(cn, csel_colls)) {
                ok = bad(ck, line, "'%s': not a collective MPICH %s knows", key, PACT_MPICH_CSEL_VERSION);
                break;
            }
            ok = walk(ck, vo, cn);
            break;
        }
        case K_ANY:
            if (i != n - 1) {
                ok = bad(ck, line, "'%s' must be the last of its object (MPICH asserts)", key);
                break;
            }
            has_any = TRUE;
            ok = walk(ck, vo, coll);
            break;
        case K_ORDER:
            if (i == n - 1) {
                ok = bad(ck, line, "'%s' is the last of its object: MPICH needs a later test for when it fails "
                         "(end with ...=any)", key);
                break;
            }
            has_order = TRUE;
            ok = walk(ck, vo, coll);
            break;
        case K_BOOL:
            if (family[0] && strcmp(family, fam))
                truths = 0;
            g_strlcpy(family, fam, sizeof family);
            truths |= truth ? 2 : 1;
            ok = walk(ck, vo, coll);
            break;
        }
        if (ok && !coll && k != K_COLL)
            ok = bad(ck, line, "'%s': the top level holds collective=NAME keys only", key);
    }
    g_list_free(members);
    if (!ok)
        return FALSE;
    if (coll && !has_any && truths != 3 && !(n == 1 && json_object_get_size(o) == 1 && !has_order && !family[0]))
        return bad(ck, oline, "no test of this object matches every call (end it with ...=any, or test both "
                   "values of %s): MPICH aborts on a call that falls through", family[0] ? family : "a property");
    return TRUE;
}

gboolean pact_check_mpich_text(const char *text, gsize len, const char *name, GError **err)
{
    checker ck = {.name = name, .err = err};
    ck.parser = json_parser_new();
    ck.stack = g_array_new(FALSE, FALSE, sizeof(int));
    ck.lines = g_hash_table_new(NULL, NULL);
    g_signal_connect(ck.parser, "object-start", G_CALLBACK(on_start), &ck);
    g_signal_connect(ck.parser, "object-end", G_CALLBACK(on_end), &ck);
    GError *e = NULL;
    gboolean ok = json_parser_load_from_data(ck.parser, text, (gssize)len, &e);
    if (!ok) {
        const char *msg = e->message;
        if (g_str_has_prefix(msg, "<data>:"))
            msg += strlen("<data>:");
        g_set_error(err, PACT_ERROR, PACT_ERROR_INPUT, "%s:%s", name, msg);
        g_error_free(e);
    } else {
        JsonNode *root = json_parser_get_root(ck.parser);
        if (!root || !JSON_NODE_HOLDS_OBJECT(root))
            ok = bad(&ck, 1, "the file must hold one JSON object");
        else {
            JsonObject *top = json_node_get_object(root);
            ok = walk(&ck, top, NULL);
            /* every collective of MPICH's built-in tree: a program that reaches a missing one aborts */
            for (const char *const *c = csel_colls; ok && *c; c++) {
                g_autofree char *key = g_strdup_printf("collective=%s", *c);
                if (!json_object_has_member(top, key) && strstr(mpich_csel_builtin, key))
                    ok = bad(&ck, line_of(&ck, top), "'%s' is missing: MPICH %s aborts in a program that calls "
                             "it", key, PACT_MPICH_CSEL_VERSION);
            }
        }
    }
    g_hash_table_destroy(ck.lines);
    g_array_free(ck.stack, TRUE);
    g_object_unref(ck.parser);
    return ok;
}

gboolean pact_check_mpich(const char *path, GError **err)
{
    gsize len;
    g_autofree char *text = pact_read_file(path, &len, err);
    return text && pact_check_mpich_text(text, len, path, err);
}
