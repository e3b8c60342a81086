/* test_emit.c - the emitters: a table written as Open MPI rules and as MPICH CSEL JSON (the numbers and keys
 * each library matches on), the checkers' refusals with FILE:LINE, and what the files cannot express. */
#include <glib.h>
#include <json-glib/json-glib.h>
#include <stdio.h>
#include <string.h>

#include "pact_emit.h"
#include "mpich_smp.h"
#include "pact_host.h"

static void add(pact_table *t, pact_coll c, int procs, int ppn, uint64_t lo, uint64_t hi, const char *alg,
                long *params)
{
    pact_table_row r = {.coll = c,
                        .procs = procs,
                        .ppn = ppn,
                        .min_bytes = lo,
                        .max_bytes = hi,
                        .alg = pact_alg_find(c, alg),
                        .params = params,
                        .objective = "robust",
                        .value = 1};
    g_assert_nonnull(r.alg);
    pact_table_add(t, &r);
}

/* Rules lines without comments, joined by '|'. */
static char *numbers(const char *text)
{
    GString *s = g_string_new(NULL);
    g_auto(GStrv) lines = g_strsplit(text, "\n", -1);
    for (char **l = lines; *l; l++)
        if (**l && **l != '#')
            g_string_append_printf(s, "%s%s", s->len ? "|" : "", *l);
    return g_string_free(s, FALSE);
}

static void test_ompi(void)
{
    pact_table t;
    pact_table_init(&t);
    add(&t, PACT_COLL_ALLREDUCE, 4, 1, 0, 1023, "recursive_doubling", NULL);
    add(&t, PACT_COLL_ALLREDUCE, 4, 1, 1024, PACT_TABLE_INF, "ring", NULL);
    add(&t, PACT_COLL_ALLREDUCE, 16, 1, 0, PACT_TABLE_INF, "rabenseifner", NULL);
    /* a second ppn at 16 processes: ppn 1 must not see it, ppn 4 must */
    add(&t, PACT_COLL_ALLREDUCE, 16, 4, 0, PACT_TABLE_INF, "ring", NULL);
    long seg[] = {8192};
    add(&t, PACT_COLL_BCAST, 4, 1, 0, 99, "binomial", NULL);
    add(&t, PACT_COLL_BCAST, 4, 1, 100, PACT_TABLE_INF, "pipeline", seg);
    /* alltoall counts per block: Open MPI's message size is x the communicator size */
    add(&t, PACT_COLL_ALLTOALL, 4, 1, 0, 255, "modified_bruck", NULL);
    add(&t, PACT_COLL_ALLTOALL, 4, 1, 256, PACT_TABLE_INF, "pairwise", NULL);
    add(&t, PACT_COLL_BARRIER, 4, 1, 0, PACT_TABLE_INF, "recursive_doubling", NULL);
    GError *err = NULL;
    pact_table_check(&t, &err);
    g_assert_no_error(err);
    GString *out = g_string_new(NULL);
    g_assert_true(pact_emit_ompi(&t, 1, out, &err));
    g_assert_no_error(err);
    if (g_test_verbose())
        g_printerr("%s", out->str);
    g_autofree char *n1 = numbers(out->str);
    /* 4 collectives by id: alltoall 3 (0 1024: 256 B x 4), allreduce 2, barrier 6, bcast 7 */
    g_assert_cmpstr(n1, ==,
                    "4|2 2|4 2|0 3 0 0|1024 4 0 0|16 1|0 6 0 0|3 1|4 2|0 3 0 0|1024 2 0 0|6 1|4 1|0 3 0 0|"
                    "7 1|4 2|0 6 0 0|100 3 0 8192");
    g_string_truncate(out, 0);
    g_assert_true(pact_emit_ompi(&t, 8, out, &err));
    g_autofree char *n4 = numbers(out->str);
    g_assert_nonnull(strstr(n4, "|16 1|0 4 0 0|")); /* ppn 8 takes the ppn 4 rows */
    g_string_free(out, TRUE);
    pact_table_clear(&t);

    /* what Open MPI cannot run or carry */
    pact_table_init(&t);
    add(&t, PACT_COLL_ALLREDUCE, 4, 1, 0, PACT_TABLE_INF, "ring", NULL);
    for (size_t i = 0; i < pact_alg_count(); i++) {
        const pact_alg *a = pact_alg_at(i);
        if (a->coll == PACT_COLL_ALLREDUCE || a->ompi_id != 0 || (a->restrictions & PACT_R_ORDER))
            continue;
        pact_table u;
        pact_table_init(&u);
        add(&u, a->coll, 4, 1, 0, PACT_TABLE_INF, a->name, NULL);
        out = g_string_new(NULL);
        g_assert_false(pact_emit_ompi(&u, 1, out, &err));
        g_assert_nonnull(strstr(err->message, "not an Open MPI algorithm"));
        g_clear_error(&err);
        g_string_free(out, TRUE);
        pact_table_clear(&u);
        break;
    }
    pact_table_clear(&t);
    pact_table_init(&t);
    long radix[] = {8};
    const pact_alg *kn = pact_alg_find(PACT_COLL_BCAST, "knomial");
    g_assert_nonnull(kn);
    g_assert_cmpint(pact_alg_nparams(kn), ==, 2);
    long kv[2];
    pact_params_defaults(kn, kv);
    int ri = pact_alg_param(kn, "radix", 5);
    g_assert_cmpint(ri, >=, 0);
    kv[ri] = radix[0];
    add(&t, PACT_COLL_BCAST, 4, 1, 0, PACT_TABLE_INF, "knomial", kv);
    out = g_string_new(NULL);
    g_assert_false(pact_emit_ompi(&t, 1, out, &err));
    g_assert_nonnull(strstr(err->message, "radix=8"));
    g_clear_error(&err);
    g_string_free(out, TRUE);
    pact_table_clear(&t);
}

static void ompi_refused(const char *text, const char *want)
{
    GError *err = NULL;
    g_assert_false(pact_check_ompi_text(text, strlen(text), "r.conf", &err));
    if (g_test_verbose())
        g_printerr("%s\n", err->message);
    if (!strstr(err->message, want))
        g_error("'%s' lacks '%s'", err->message, want);
    g_error_free(err);
}

static void test_ompi_check(void)
{
    GError *err = NULL;
    const char *good = "# a comment\n1\n2 2 # allreduce\n4 1\n0 3 0 0\n8 2\n0 3 0 0\n8192 4 0 0\n";
    g_assert_true(pact_check_ompi_text(good, strlen(good), "r.conf", &err));
    ompi_refused("1\n2 1\n4 1\n010 3 0 0\n", "r.conf:4: a message size: '010': a leading zero");
    ompi_refused("1\n2 1\n4 1\n16 3 0 0\n",
                 "r.conf:4: allreduce at 4 processes: the first rule's message size "
                 "is 16, must be 0");
    ompi_refused("1\n2 2\n8 1\n0 3 0 0\n4 1\n0 3 0 0\n", "r.conf:5: allreduce: communicator size 4 after 8");
    ompi_refused("1\n2 1\n4 2\n0 3 0 0\n0 4 0 0\n",
                 "r.conf:5: allreduce at 4 processes: message size 0 after 0");
    ompi_refused("1\n2 1\n4 1\n0 9 0 0\n", "r.conf:4: allreduce: algorithm 9: Open MPI 4.1 has 6");
    ompi_refused("1\n5 1\n4 1\n0 1 0 0\n", "r.conf:2: collective id 5: not one coll_tuned");
    ompi_refused("2\n2 1\n4 1\n0 1 0 0\n2 1\n4 1\n0 1 0 0\n",
                 "r.conf:5: collective id 2 (allreduce) given twice");
    ompi_refused("1\n2 1\n4 1\n0 1 0\n", "r.conf:5: the file ends where a segment size should be");
    ompi_refused("1\n2 1\n4 1\n0 1 0 0 7\n", "r.conf:4: '7': more numbers than the 1 collectives announced");
    ompi_refused("1\n2 1\n4 1\n0 1 0 -1\n", "r.conf:4: a segment size: '-1': not a non-negative");
    ompi_refused("", "r.conf:1: the file ends where the number of collectives should be");
}

/* The algorithm MPICH's tree picks, walked like MPIR_Csel_search for an intra communicator of `size` and
 * hierarchy `hier` ("parent", "node", "node_roots", or NULL: none of them), a built-in commutative operation,
 * not in place, `avg`/`total` bytes and `count` elements. */
static const char *csel_pick_h(JsonObject *o, const char *hier, int size, long avg, long total, long count)
{
    for (;;) {
        GList *members = json_object_get_members(o);
        JsonObject *next = NULL;
        for (GList *m = members; m && !next; m = m->next) {
            const char *k = m->data;
            JsonObject *v = json_object_get_object_member(o, k);
            int pof2 = 1;
            while (pof2 * 2 <= size)
                pof2 *= 2;
            gboolean hit = FALSE;
            if (g_str_has_prefix(k, "algorithm=")) {
                g_list_free(members);
                return k + strlen("algorithm=");
            } else if (g_str_has_suffix(k, "=any") || !strcmp(k, "comm_type=intra") ||
                       !strcmp(k, "is_op_built_in=yes") || !strcmp(k, "is_commutative=yes") ||
                       !strcmp(k, "is_sendbuf_inplace=no"))
                hit = TRUE;
            else if (g_str_has_prefix(k, "comm_size<="))
                hit = size <= atol(k + 11);
            else if (g_str_has_prefix(k, "comm_size<"))
                hit = size < atol(k + 10);
            else if (!strcmp(k, "comm_size=pow2"))
                hit = (size & (size - 1)) == 0;
            else if (g_str_has_prefix(k, "avg_msg_size<="))
                hit = avg <= atol(k + 14);
            else if (g_str_has_prefix(k, "total_msg_size<="))
                hit = total <= atol(k + 16);
            else if (!strcmp(k, "count<pow2"))
                hit = count < pof2;
            else if (g_str_has_prefix(k, "comm_hierarchy="))
                hit = hier && !strcmp(k + strlen("comm_hierarchy="), hier);
            if (hit)
                next = v;
        }
        g_list_free(members);
        g_assert_nonnull(next);
        o = next;
    }
}

static const char *csel_pick(JsonObject *o, int size, long avg, long total, long count)
{
    return csel_pick_h(o, NULL, size, avg, total, count);
}

/* The MPICH algorithm (its MPIR function) of pact algorithm `a` of collective c, where pact's builder runs
 * MPICH's fallback itself (count below the power of two) as MPICH's tree does. */
static const char *mpir_of(pact_coll c, const pact_alg *a, int size, long count)
{
    static char buf[128];
    int pof2 = 1;
    while (pof2 * 2 <= size)
        pof2 *= 2;
    const char *name = a->mpich;
    if (!name) { /* Open MPI's scatter bcast standing in where MPICH's byte blocks split elements */
        g_autofree char *twin = g_strconcat("mpich_", a->name, NULL);
        g_assert_nonnull(pact_alg_find(c, twin));
        name = pact_alg_find(c, twin)->mpich;
    }
    if (!strcmp(name, "reduce_scatter_allgather") && count < pof2)
        name = "recursive_doubling";
    if (!strcmp(name, "reduce_scatter_gather") && count < pof2)
        name = "binomial";
    g_autofree char *cn = g_strdup(pact_coll_name(c));
    cn[0] = g_ascii_toupper(cn[0]);
    snprintf(buf, sizeof buf, "MPIR_%s_intra_%s", cn, name);
    return buf;
}

/* What MPICH's smp compositions run on their sub-communicators (sim/coll/common/mpich_smp.c) is what the
 * built-in tree compiled into libmpich picks there, for node and node-leader communicators of 2..40 ranks and
 * 1 B..4 MiB; and a tree pact writes sends both hierarchies to that built-in subtree, not to the table's. */
static void test_smp_choices(void)
{
    g_autoptr(JsonParser) p = json_parser_new();
    GError *err = NULL;
    g_assert_true(json_parser_load_from_data(p, pact_emit_mpich_builtin(), -1, &err));
    JsonObject *root = json_node_get_object(json_parser_get_root(p));
    const pact_coll colls[] = {PACT_COLL_ALLREDUCE, PACT_COLL_REDUCE, PACT_COLL_BCAST, PACT_COLL_BARRIER};
    const char *hiers[] = {"node", "node_roots"};
    int n = 0;
    for (size_t ci = 0; ci < G_N_ELEMENTS(colls); ci++) {
        g_autofree char *key = g_strdup_printf("collective=%s", pact_coll_name(colls[ci]));
        JsonObject *tree = json_object_get_object_member(root, key);
        for (int size = 2; size <= 40; size++)
            for (long q = 4; q <= 4L << 20; q = q % 3 ? q * 3 / 2 : q / 3 * 4) /* 4, 6, 8, 12, 16, ... */
                for (long m = q - 4; m <= q + 4;
                     m += 4) /* around MPICH's thresholds (8 B, 2 KiB, 12 KiB, ...) */
                    for (int h = 0; h < 2; h++) {
                        long count = m / 4 ? m / 4 : 1; /* ints */
                        const pact_alg *a = pact_smp_choice(colls[ci], size, (size_t)count, 4);
                        g_assert_nonnull(a);
                        const char *want =
                            csel_pick_h(tree, hiers[h], size, count * 4, count * 4 * size, count);
                        if (strcmp(mpir_of(colls[ci], a, size, count), want))
                            g_error(
                                "%s on a %s communicator of %d ranks, %ld B: pact_smp_choice gives %s (%s), "
                                "MPICH's tree %s",
                                pact_coll_name(colls[ci]), hiers[h], size, count * 4, a->name,
                                mpir_of(colls[ci], a, size, count), want);
                        n++;
                    }
    }
    g_assert_cmpint(n, >, 5000);
    /* MPICH's scatter bcasts split bytes: its own builders where the blocks are whole elements, Open MPI's
     * element blocks where they are not (16 KiB of ints: 1,024 B blocks on 16 ranks, 1,366 B on 12) */
    g_assert_cmpstr(pact_smp_choice(PACT_COLL_BCAST, 16, 4096, 4)->name, ==, "mpich_scatter_allgather");
    g_assert_cmpstr(pact_smp_choice(PACT_COLL_BCAST, 12, 4096, 4)->name, ==, "scatter_allgather_ring");
    g_assert_cmpstr(pact_smp_choice(PACT_COLL_BCAST, 12, 16384, 1)->name, ==, "mpich_scatter_allgather_ring");
    g_assert_cmpstr(pact_smp_choice(PACT_COLL_BCAST, 16, 1 << 20, 4)->name, ==,
                    "mpich_scatter_allgather_ring");

    pact_table t;
    pact_table_init(&t);
    add(&t, PACT_COLL_REDUCE, 4, 2, 0, PACT_TABLE_INF, "smp", NULL);
    add(&t, PACT_COLL_BCAST, 4, 2, 0, PACT_TABLE_INF, "mpich_binomial", NULL);
    GString *out = g_string_new(NULL);
    g_assert_true(pact_emit_mpich(&t, 2, out, &err));
    g_autoptr(JsonParser) q = json_parser_new();
    g_assert_true(json_parser_load_from_data(q, out->str, -1, &err));
    JsonObject *w = json_node_get_object(json_parser_get_root(q));
    JsonObject *red = json_object_get_object_member(w, "collective=reduce");
    JsonObject *bc = json_object_get_object_member(w, "collective=bcast");
    /* the table's choice on the communicator, MPICH's on its sub-communicators (4 KiB: reduce_scatter_gather
     * where the table says smp; 64 KiB at 16 ranks: scatter + recursive doubling where the table says
     * binomial) */
    g_assert_cmpstr(csel_pick_h(red, "parent", 4, 4096, 0, 1024), ==, "MPIR_Reduce_intra_smp");
    g_assert_cmpstr(csel_pick_h(red, "node", 4, 4096, 0, 1024), ==,
                    "MPIR_Reduce_intra_reduce_scatter_gather");
    g_assert_cmpstr(csel_pick_h(bc, "parent", 16, 65536, 0, 16384), ==, "MPIR_Bcast_intra_binomial");
    g_assert_cmpstr(csel_pick_h(bc, "node_roots", 16, 65536, 0, 16384), ==,
                    "MPIR_Bcast_intra_scatter_recursive_doubling_allgather");
    g_string_free(out, TRUE);
    pact_table_clear(&t);
}

static void test_mpich(void)
{
    pact_table t;
    pact_table_init(&t);
    add(&t, PACT_COLL_ALLREDUCE, 4, 1, 0, 1023, "recursive_doubling", NULL);
    add(&t, PACT_COLL_ALLREDUCE, 4, 1, 1024, PACT_TABLE_INF, "mpich_reduce_scatter_allgather", NULL);
    add(&t, PACT_COLL_ALLREDUCE, 16, 1, 0, PACT_TABLE_INF, "recursive_doubling", NULL);
    add(&t, PACT_COLL_ALLGATHER, 4, 1, 0, 63, "recursive_doubling", NULL);
    add(&t, PACT_COLL_ALLGATHER, 4, 1, 64, PACT_TABLE_INF, "ring", NULL);
    GError *err = NULL;
    GString *out = g_string_new(NULL);
    g_assert_true(pact_emit_mpich(&t, 1, out, &err));
    g_assert_no_error(err);
    g_autoptr(JsonParser) p = json_parser_new();
    g_assert_true(json_parser_load_from_data(p, out->str, -1, &err));
    JsonObject *root = json_node_get_object(json_parser_get_root(p));
    JsonObject *ar = json_object_get_object_member(root, "collective=allreduce");
    JsonObject *ag = json_object_get_object_member(root, "collective=allgather");
    /* the tuned process counts, and those between them (the largest tuned <= the size) */
    g_assert_cmpstr(csel_pick(ar, 4, 1023, 0, 1023), ==, "MPIR_Allreduce_intra_recursive_doubling");
    g_assert_cmpstr(csel_pick(ar, 4, 1024, 0, 1024), ==, "MPIR_Allreduce_intra_reduce_scatter_allgather");
    g_assert_cmpstr(csel_pick(ar, 15, 1 << 20, 0, 1 << 20), ==,
                    "MPIR_Allreduce_intra_reduce_scatter_allgather");
    g_assert_cmpstr(csel_pick(ar, 16, 1 << 20, 0, 1 << 20), ==, "MPIR_Allreduce_intra_recursive_doubling");
    /* MPICH's own restriction: count below the power of two -> its fallback */
    g_assert_cmpstr(csel_pick(ar, 7, 2048, 0, 2), ==, "MPIR_Allreduce_intra_recursive_doubling");
    /* allgather: total_msg_size = block x P; recursive doubling only on powers of two */
    g_assert_cmpstr(csel_pick(ag, 4, 0, 63 * 4, 63), ==, "MPIR_Allgather_intra_recursive_doubling");
    g_assert_cmpstr(csel_pick(ag, 4, 0, 64 * 4, 64), ==, "MPIR_Allgather_intra_ring");
    /* recursive doubling at 5 ranks: Bruck's, as pact's recursive_doubling runs (and the model timed) */
    g_assert_cmpstr(csel_pick(ag, 5, 0, 10, 2), ==, "MPIR_Allgather_intra_brucks");
    /* the collectives not tuned keep MPICH's own subtree */
    g_assert_true(json_object_has_member(root, "collective=ibcast"));
    g_assert_cmpstr(csel_pick(json_object_get_object_member(root, "collective=bcast"), 3, 100, 0, 100), ==,
                    "MPIR_Bcast_intra_binomial");
    g_string_free(out, TRUE);
    pact_table_clear(&t);

    /* a threshold MPICH reads as int */
    pact_table_init(&t);
    add(&t, PACT_COLL_ALLGATHER, 1024, 1, 0, (64u << 20) - 1, "ring", NULL);
    add(&t, PACT_COLL_ALLGATHER, 1024, 1, 64u << 20, PACT_TABLE_INF, "bruck", NULL);
    out = g_string_new(NULL);
    g_assert_false(pact_emit_mpich(&t, 1, out, &err));
    g_assert_nonnull(strstr(err->message, "as int"));
    g_clear_error(&err);
    g_string_free(out, TRUE);
    pact_table_clear(&t);
    /* an algorithm MPICH lacks */
    pact_table_init(&t);
    add(&t, PACT_COLL_REDUCE, 4, 1, 0, PACT_TABLE_INF, "chain", NULL);
    out = g_string_new(NULL);
    g_assert_false(pact_emit_mpich(&t, 1, out, &err));
    g_assert_nonnull(strstr(err->message, "not an MPICH"));
    g_clear_error(&err);
    g_string_free(out, TRUE);
    pact_table_clear(&t);
}

static void mpich_refused(const char *text, const char *want)
{
    GError *err = NULL;
    g_autofree char *full = g_strdup_printf("%s", text);
    g_assert_false(pact_check_mpich_text(full, strlen(full), "c.json", &err));
    if (g_test_verbose())
        g_printerr("%s\n", err->message);
    if (!strstr(err->message, want))
        g_error("'%s' lacks '%s'", err->message, want);
    g_error_free(err);
}

/* MPICH's built-in tree with its allreduce subtree replaced by `sub` (pretty-printed, one key a line). */
static char *with_allreduce(const char *sub)
{
    g_autoptr(JsonParser) p = json_parser_new();
    g_assert_true(json_parser_load_from_data(p, pact_emit_mpich_builtin(), -1, NULL));
    g_autoptr(JsonParser) q = json_parser_new();
    g_assert_true(json_parser_load_from_data(q, sub, -1, NULL));
    JsonObject *root = json_node_get_object(json_parser_get_root(p));
    json_object_set_member(root, "collective=allreduce", json_node_copy(json_parser_get_root(q)));
    g_autoptr(JsonGenerator) g = json_generator_new();
    json_generator_set_pretty(g, TRUE);
    json_generator_set_root(g, json_parser_get_root(p));
    return json_generator_to_data(g, NULL);
}

static void test_mpich_check(void)
{
    GError *err = NULL;
    const char *b = pact_emit_mpich_builtin();
    g_assert_true(pact_check_mpich_text(b, strlen(b), "builtin", &err)); /* MPICH's own tree passes */
    g_assert_no_error(err);
    g_assert_cmpstr(pact_emit_mpich_version(), ==, "4.0.2");
    mpich_refused("{\"collective=allreduce\": {\n", "c.json:");
    mpich_refused("[1]", "c.json:1: the file must hold one JSON object");
    struct {
        const char *sub, *want;
    } cases[] = {
        {"{\"comm_type=intra\":{\"algorithm=MPIR_Allreduce_intra_ring\":{}}}",
         "not an algorithm of MPICH 4.0.2"},
        {"{\"comm_type=intra\":{\"algorithm=MPIR_Bcast_intra_binomial\":{}}}",
         "not an algorithm of collective=allreduce"},
        {"{\"comm_type=intra\":{\"comm_size<8\":{\"algorithm=MPIR_Allreduce_intra_recursive_doubling\":{}}}}",
         "'comm_size<8' is the last of its object"},
        {"{\"comm_type=intra\":{\"comm_size=any\":{\"algorithm=MPIR_Allreduce_intra_recursive_doubling\":{}},"
         "\"comm_size<8\":{\"algorithm=MPIR_Allreduce_intra_recursive_doubling\":{}}}}",
         "'comm_size=any' must be the last"},
        {"{\"comm_type=intra\":{\"total_bytes<=8\":{\"algorithm=MPIR_Allreduce_intra_recursive_doubling\":{}}"
         ","
         "\"comm_size=any\":{\"algorithm=MPIR_Allreduce_intra_recursive_doubling\":{}}}}",
         "'total_bytes<=8': not a key"},
        {"{\"comm_type=intra\":{\"avg_msg_size<=3000000000\":{\"algorithm=MPIR_Allreduce_intra_recursive_"
         "doubling\":{}},"
         "\"comm_size=any\":{\"algorithm=MPIR_Allreduce_intra_recursive_doubling\":{}}}}",
         "over INT_MAX"},
        {"{\"comm_type=intra\":{\"is_sendbuf_inplace=yes\":{\"algorithm=MPIR_Allreduce_intra_recursive_"
         "doubling\":{}},"
         "\"comm_size=any\":{\"algorithm=MPIR_Allreduce_intra_recursive_doubling\":{}}}}",
         "(it asserts)"},
        {"{\"comm_type=intra\":{\"is_commutative=yes\":{\"algorithm=MPIR_Allreduce_intra_reduce_scatter_"
         "allgather\":{}}}}",
         "no test of this object matches every call"},
        {"{\"comm_type=intra\":{\"algorithm=MPIR_Allreduce_intra_recursive_doubling\":{},"
         "\"comm_size=any\":{\"algorithm=MPIR_Allreduce_intra_recursive_doubling\":{}}}}",
         "it must be alone"},
        {"{\"comm_type=intra\":{\"comm_size<8\":[]}}", "its value must be an object"},
    };
    for (size_t i = 0; i < G_N_ELEMENTS(cases); i++) {
        g_autofree char *text = with_allreduce(cases[i].sub);
        mpich_refused(text, cases[i].want);
    }
    /* the line is the key's */
    g_autofree char *text = with_allreduce(cases[0].sub);
    const char *at = strstr(text, "algorithm=MPIR_Allreduce_intra_ring");
    int line = 1;
    for (const char *c = text; c < at; c++)
        line += *c == '\n';
    g_autofree char *want = g_strdup_printf("c.json:%d: 'algorithm=MPIR_Allreduce_intra_ring'", line);
    mpich_refused(text, want);
    /* a missing collective */
    g_autoptr(JsonParser) p = json_parser_new();
    g_assert_true(json_parser_load_from_data(p, b, -1, NULL));
    json_object_remove_member(json_node_get_object(json_parser_get_root(p)), "collective=ibcast");
    g_autoptr(JsonGenerator) g = json_generator_new();
    json_generator_set_root(g, json_parser_get_root(p));
    g_autofree char *less = json_generator_to_data(g, NULL);
    mpich_refused(less, "'collective=ibcast' is missing");
}

int main(int argc, char **argv)
{
    g_test_init(&argc, &argv, NULL);
    g_test_add_func("/emit/ompi", test_ompi);
    g_test_add_func("/emit/ompi_check", test_ompi_check);
    g_test_add_func("/emit/smp-choices", test_smp_choices);
    g_test_add_func("/emit/mpich", test_mpich);
    g_test_add_func("/emit/mpich_check", test_mpich_check);
    return g_test_run();
}
