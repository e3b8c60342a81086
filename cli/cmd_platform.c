/* cmd_platform.c - pact platform list | show NAME | export NAME ... -o DIR | probe NAME. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "pact_cli.h"
#include "pact_host.h"
#include "pact_platforms.h"

static const char *topo_name(pact_topology t)
{
    return t == PACT_TOPO_FLAT ? "flat (one switch)" : t == PACT_TOPO_FAT_TREE ? "fat tree" : "dragonfly";
}

static void show(const pact_platform *p, const pact_export_opts *o)
{
    printf("name          %s\ndescription   %s\nsource        %s\nfile          %s\n", p->name,
           p->description, p->source, p->file);
    printf("nodes         %d x %d sockets x %d cores, %.4g Gflop/s per core\n", p->nodes, p->sockets,
           p->cores_per_socket, p->speed / 1e9);
    if (p->gpus_per_socket)
        printf("GPUs          %d per socket (NVLink between %s)\n", p->gpus_per_socket,
               p->nvlink_all ? "every GPU pair" : "GPUs of a socket");
    printf("network       %s, %d adapter%s of %.4g GB/s per node%s\n", topo_name(p->topology), p->adapters,
           p->adapters > 1 ? "s" : "", p->adapter.bw / 1e9,
           p->adapters > 1 ? (p->rails == PACT_RAILS_SHARING ? ", rails shared" : ", rails bound") : "");
    if (p->topology == PACT_TOPO_FAT_TREE)
        printf("islands       %d nodes each, %g:1 blocking between islands\n", p->island_nodes, p->blocking);
    if (p->topology == PACT_TOPO_DRAGONFLY) {
        int c, r;
        pact_dragonfly_layout(p, &c, &r);
        printf("dragonfly     %d groups x %d chassis x %d routers x %d nodes, %.4g us per link\n", p->groups,
               p->chassis, p->routers, p->nodes_per_router, p->hop_lat * 1e6);
        if (c != p->chassis)
            printf(
                "              exported as %d chassis x %d routers per group (SimGrid 3.32 needs routers per "
                "chassis >= groups)\n",
                c, r);
    }
    printf("hockney       alpha %.4g s, beta %.4g s/B, gamma %.4g s/B\n", p->alpha, p->beta, p->gamma);
    printf("levels        (what `pact platform probe %s%s` checks)\n", p->name,
           o->ranks_on == PACT_ON_GPUS ? " --ranks-on gpus" : "");
    GArray *lv = pact_probe_levels(p, o);
    for (guint i = 0; i < lv->len; i++) {
        pact_probe_level *l = &g_array_index(lv, pact_probe_level, i);
        printf("  %-30s %8.3f us %10.4g GB/s\n", l->name, l->expect.lat * 1e6, l->expect.bw / 1e9);
    }
    g_array_free(lv, TRUE);
}

static double dev(double measured, double expected)
{
    return fabs(measured / expected - 1) * 100;
}

static int probe(const pact_platform *p, const pact_export_opts *o, int pairs, GError **err)
{
    g_autofree char *bin = pact_find_tool("pact-probe-smpi", "PACT_PROBE_SMPI", err);
    if (!bin)
        return pact_exit_status(*err);
    GArray *lv = pact_probe_levels(p, o);
    if (!pact_probe_run(p, o, lv, bin, err)) {
        g_array_free(lv, TRUE);
        return pact_exit_status(*err);
    }
    printf("# %s%s: simulated ping-pong (SimGrid %s), expected = the YAML's values\n", p->name,
           p->adapters > 1 ? (o->rails == PACT_RAILS_SHARING ? ", rails shared" : ", rails bound") : "",
           "3.32");
    printf("%-30s %-13s %-13s %10s %10s %6s %11s %11s %6s\n", "level", "host_a", "host_b", "lat_us",
           "expect_us", "dev_%", "bw_GBps", "expect_GBps", "dev_%");
    int bad = 0;
    for (guint i = 0; i < lv->len; i++) {
        pact_probe_level *l = &g_array_index(lv, pact_probe_level, i);
        double dl = dev(l->measured_lat, l->expect.lat), db = dev(l->measured_bw, l->expect.bw);
        bad += dl > 5 || db > 5;
        printf("%-30s %-13s %-13s %10.4f %10.4f %6.2f %11.4f %11.4f %6.2f%s\n", l->name, l->host_a, l->host_b,
               l->measured_lat * 1e6, l->expect.lat * 1e6, dl, l->measured_bw / 1e9, l->expect.bw / 1e9, db,
               dl > 5 || db > 5 ? "  MISMATCH" : "");
    }
    g_array_free(lv, TRUE);
    if (pairs > 0) {
        /* Pairs crossing the widest level at once: islands on a fat tree, else the same switch. */
        int first = p->topology == PACT_TOPO_FAT_TREE ? p->island_nodes : pairs;
        if (p->topology == PACT_TOPO_FAT_TREE && pairs > p->island_nodes) {
            g_set_error(err, PACT_ERROR, PACT_ERROR_INPUT, "--pairs %d: an island of %s has %d nodes", pairs,
                        p->name, p->island_nodes);
            return 2;
        }
        double one = pact_probe_concurrent(p, o, 1, first, 8.0 * 1048576, bin, err);
        double all = one > 0 ? pact_probe_concurrent(p, o, pairs, first, 8.0 * 1048576, bin, err) : 0;
        if (all <= 0)
            return pact_exit_status(*err);
        printf("# %d node pairs at once, nodes 0..%d with %d..%d, 8 MiB each way\n", pairs, pairs - 1, first,
               first + pairs - 1);
        printf("concurrent_pairs %d per_pair_GBps %.4f single_pair_GBps %.4f ratio %.4f\n", pairs, all / 1e9,
               one / 1e9, all / one);
    }
    if (bad) {
        fprintf(stderr, "pact platform probe: %d level%s off the YAML's values by more than 5%%\n", bad,
                bad > 1 ? "s" : "");
        return 1;
    }
    return 0;
}

int pact_cmd_platform(int argc, char **argv)
{
    char *mapping = NULL, *out = NULL, *on = NULL, *rails = NULL;
    int nodes = 0, ppn = 0, pairs = 0;
    GOptionEntry entries[] = {
        {"nodes", 0, 0, G_OPTION_ARG_INT, &nodes, "export: nodes (default: all)", "N"},
        {"ppn", 0, 0, G_OPTION_ARG_INT, &ppn, "export: processes per node (default: every core or GPU)", "K"},
        {"mapping", 0, 0, G_OPTION_ARG_STRING, &mapping, "export: ranks to nodes, block (default) or cyclic",
         "M"},
        {"ranks-on", 0, 0, G_OPTION_ARG_STRING, &on, "cores (default) or gpus (cedar, mist)", "WHERE"},
        {"rails", 0, 0, G_OPTION_ARG_STRING, &rails,
         "several adapters per node: sharing (stripe) or binding (one each); default: the YAML's", "MODE"},
        {"pairs", 0, 0, G_OPTION_ARG_INT, &pairs,
         "probe: also N node pairs exchanging at once across islands (fat tree) or the switch", "N"},
        {"output", 'o', 0, G_OPTION_ARG_FILENAME, &out, "export: folder for platform.xml and hostfile",
         "DIR"},
        {NULL, 0, 0, 0, NULL, NULL, NULL},
    };
    GOptionContext *ctx = g_option_context_new("list | show NAME | export NAME -o DIR | probe NAME");
    g_option_context_set_summary(
        ctx, "Lists, shows, exports to SimGrid or probes the machines of platforms/*.yaml (or a YAML file of "
             "yours: NAME = path/to/file.yaml).\n\nexamples:\n"
             "  pact platform show cedar\n"
             "  pact platform export cedar --nodes 64 --ppn 4 --ranks-on gpus -o /tmp/cedar\n"
             "  pact platform probe thor --rails binding\n"
             "  pact platform probe cedar --pairs 32");
    g_option_context_add_main_entries(ctx, entries, NULL);
    GError *err = NULL;
    int rc = 2;
    const pact_platform *p = NULL;
    if (!pact_cli_parse(ctx, &argc, &argv))
        goto out;
    if (argc == 2 && !strcmp(argv[1], "list")) {
        for (size_t i = 0; i < pact_platform_count(); i++)
            printf("%-14s %s\n", pact_platform_at(i)->name, pact_platform_at(i)->description);
        rc = 0;
        goto out;
    }
    if (argc != 3 || (strcmp(argv[1], "show") && strcmp(argv[1], "export") && strcmp(argv[1], "probe"))) {
        fprintf(stderr, "pact platform: expected 'list', 'show NAME', 'export NAME' or 'probe NAME'\n");
        goto out;
    }
    if (!(p = pact_platform_get(argv[2], &err))) {
        rc = pact_cli_fail(err);
        goto out;
    }
    pact_export_opts o = {.nodes = nodes, .ppn = ppn, .rails = p->rails};
    if (mapping && !pact_mapping_parse(mapping, "--mapping", &o.mapping, &err)) {
        rc = pact_cli_fail(err);
        goto out;
    }
    if (on && strcmp(on, "cores") && strcmp(on, "gpus")) {
        fprintf(stderr, "pact platform: --ranks-on %s: expected cores or gpus\n", on);
        goto out;
    }
    o.ranks_on = on && !strcmp(on, "gpus") ? PACT_ON_GPUS : PACT_ON_CORES;
    if (rails && strcmp(rails, "sharing") && strcmp(rails, "binding")) {
        fprintf(stderr, "pact platform: --rails %s: expected sharing or binding\n", rails);
        goto out;
    }
    if (rails)
        o.rails = !strcmp(rails, "binding") ? PACT_RAILS_BINDING : PACT_RAILS_SHARING;
    if (nodes < 0 || ppn < 0 || pairs < 0) {
        fprintf(stderr, "pact platform: --nodes, --ppn and --pairs must be positive\n");
        goto out;
    }
    if (!strcmp(argv[1], "show")) {
        show(p, &o);
        rc = 0;
        goto out;
    }
    if (!strcmp(argv[1], "probe")) {
        pact_export_opts chk = o;
        chk.nodes = chk.ppn = 0;
        if (!pact_platform_check(p, &chk, &err) || (rc = probe(p, &o, pairs, &err)) != 0)
            rc = err ? pact_cli_fail(err) : rc;
        goto out;
    }
    if (!out) {
        fprintf(stderr, "pact platform export: -o DIR is required\n");
        goto out;
    }
    if (!pact_platform_check(p, &o, &err)) {
        rc = pact_cli_fail(err);
        goto out;
    }
    if (g_mkdir_with_parents(out, 0755) != 0) {
        fprintf(stderr, "pact platform export: cannot create %s\n", out);
        rc = 1;
        goto out;
    }
    if (!pact_platform_export(p, &o, out, &err)) {
        rc = pact_cli_fail(err);
        goto out;
    }
    rc = 0;
out:
    g_option_context_free(ctx);
    g_free(mapping);
    g_free(out);
    g_free(on);
    g_free(rails);
    return rc;
}
