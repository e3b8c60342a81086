/* cmd_replay.c - pact replay: one cell through SMPI trace replay (sim/pact_replay.h), for tests and checks
 * against the smpi engine.  Prints last_delay_s,total_delay_s. */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include <glib/gstdio.h>

#include "pact_cli.h"
#include "pact_host.h"
#include "pact_patterns.h"
#include "pact_platforms.h"
#include "pact_replay.h"

int pact_cmd_replay(int argc, char **argv)
{
    char *platform = NULL, *coll = NULL, *alg = NULL, *bytes = NULL, *pattern = NULL, *gamma = NULL,
         *keep = NULL, *dtype = NULL, *mapping = NULL;
    int nodes = 0, ppn = 0, root = 0, rc = 2;
    GOptionEntry entries[] = {
        {"platform", 0, 0, G_OPTION_ARG_STRING, &platform,
         "built-in machine or platform YAML (default generic32x32)", "NAME"},
        {"nodes", 0, 0, G_OPTION_ARG_INT, &nodes, "nodes used (required)", "N"},
        {"ppn", 0, 0, G_OPTION_ARG_INT, &ppn, "processes per node (required)", "K"},
        {"mapping", 0, 0, G_OPTION_ARG_STRING, &mapping, "block (default) or cyclic", "M"},
        {"coll", 0, 0, G_OPTION_ARG_STRING, &coll, "collective (default allreduce)", "C"},
        {"alg", 0, 0, G_OPTION_ARG_STRING, &alg, "algorithm, with parameters as NAME:param=value", "A"},
        {"bytes", 0, 0, G_OPTION_ARG_STRING, &bytes, "bytes per process (8, 64K, 1M)", "B"},
        {"dtype", 0, 0, G_OPTION_ARG_STRING, &dtype, "int, float or double (default)", "T"},
        {"root", 0, 0, G_OPTION_ARG_INT, &root, "root of rooted collectives (default 0)", "R"},
        {"pattern", 0, 0, G_OPTION_ARG_FILENAME, &pattern, "arrival delays, one per rank (default: none)",
         "FILE"},
        {"gamma", 0, 0, G_OPTION_ARG_STRING, &gamma, "seconds per byte reduced (default: the platform's)",
         "G"},
        {"keep", 0, 0, G_OPTION_ARG_FILENAME, &keep, "write traces, platform and log here and keep them",
         "DIR"},
        {NULL, 0, 0, 0, NULL, NULL, NULL},
    };
    GOptionContext *ctx = g_option_context_new("");
    g_option_context_set_summary(
        ctx,
        "Runs one collective call as SMPI time-independent traces (smpirun -replay, no payload) and prints\n"
        "last_delay_s,total_delay_s: d^ = last exit - last arrival, d* = last exit - first arrival.\n\n"
        "example:\n  pact replay --platform generic32x32 --nodes 2 --ppn 8 --coll allreduce --alg ring "
        "--bytes 64K");
    g_option_context_add_main_entries(ctx, entries, NULL);
    GError *err = NULL;
    GArray *delays = NULL;
    g_autofree char *dir = NULL, *xml = NULL, *hosts = NULL;
    gboolean made = FALSE;
    if (!pact_cli_parse(ctx, &argc, &argv))
        goto out;
    if (argc != 1 || !alg || !bytes || nodes < 1 || ppn < 1) {
        fprintf(stderr, "pact replay: --nodes, --ppn, --alg and --bytes are required (pact replay --help)\n");
        goto out;
    }
    const pact_platform *p = pact_platform_get(platform ? platform : "generic32x32", &err);
    if (!p)
        goto fail;
    pact_export_opts o = {.nodes = nodes, .ppn = ppn, .rails = p->rails};
    if ((mapping && !pact_mapping_parse(mapping, "--mapping", &o.mapping, &err)) ||
        !pact_platform_check(p, &o, &err))
        goto fail;
    int c = pact_coll_from_name(coll ? coll : "allreduce");
    if (c < 0) {
        g_set_error(&err, PACT_ERROR, PACT_ERROR_INPUT, "--coll %s: unknown collective", coll);
        goto fail;
    }
    size_t es = !dtype || !strcmp(dtype, "double")                 ? 8
                : !strcmp(dtype, "int") || !strcmp(dtype, "float") ? 4
                                                                   : 0;
    uint64_t b = 0;
    if (es == 0) {
        g_set_error(&err, PACT_ERROR, PACT_ERROR_INPUT, "--dtype %s: expected int, float or double", dtype);
        goto fail;
    }
    if (pact_parse_size(bytes, &b) != PACT_OK) {
        g_set_error(&err, PACT_ERROR, PACT_ERROR_INPUT, "--bytes %s: expected a size (8, 64K, 1M)", bytes);
        goto fail;
    }
    int P = o.nodes * o.ppn;
    pact_replay_cell cell = {.coll = (pact_coll)c,
                             .alg = alg,
                             .P = P,
                             .root = root,
                             .count = (size_t)(b / es),
                             .elem_size = es,
                             .commutative = 1,
                             .gamma = p->gamma};
    if (gamma && !pact_parse_number(gamma, "--gamma", &cell.gamma, &err))
        goto fail;
    if (pattern) {
        if (!(delays = pact_pattern_read(pattern, P, &err)))
            goto fail;
        cell.delays = (const double *)delays->data;
    }
    if (keep) {
        dir = g_strdup(keep);
        if (g_mkdir_with_parents(dir, 0755) != 0) {
            g_set_error(&err, PACT_ERROR, PACT_ERROR_RUN, "--keep %s: %s", keep, g_strerror(errno));
            goto fail;
        }
    } else if (!(dir = g_dir_make_tmp("pact-replay-XXXXXX", &err))) {
        goto fail;
    } else {
        made = TRUE;
    }
    xml = g_build_filename(dir, "platform.xml", NULL);
    hosts = g_build_filename(dir, "hostfile", NULL);
    double last, total;
    if (!pact_platform_export(p, &o, dir, &err) || !pact_replay_write(&cell, dir, &err) ||
        !pact_replay_run(dir, xml, hosts, P, &last, &total, &err))
        goto fail;
    printf("last_delay_s,total_delay_s\n%.17g,%.17g\n", last, total);
    rc = 0;
    goto out;
fail:
    rc = pact_cli_fail(err);
out:
    if (made)
        pact_rm_rf(dir);
    if (delays)
        g_array_unref(delays);
    g_option_context_free(ctx);
    g_free(platform);
    g_free(coll);
    g_free(alg);
    g_free(bytes);
    g_free(pattern);
    g_free(gamma);
    g_free(keep);
    g_free(dtype);
    g_free(mapping);
    return rc;
}
