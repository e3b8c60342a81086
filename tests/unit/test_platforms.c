/* test_platforms.c - the platform schema (every built-in, every kind of bad file), request checks,
 * hostfiles and the XML layouts.  The simulated checks (probe, smpirun on every export) are in
 * tests/integration/integration.sh. */
#include <glib.h>
#include <glib/gstdio.h>
#include <string.h>

#include "pact_host.h"
#include "pact_platforms.h"

static const char *base = "name: tiny\n"
                          "description: a test machine\n"
                          "source: tests\n"
                          "nodes: 4\n"
                          "node:\n"
                          "  sockets: 2\n"
                          "  cores_per_socket: 4\n"
                          "  core_speed: 1Gf\n"
                          "  shared_memory: {bandwidth: 10GBps, latency: 0.5us}\n"
                          "network:\n"
                          "  topology: flat\n"
                          "  adapters: 1\n"
                          "  adapter:\n"
                          "    bandwidth: 100Gbps\n"
                          "    latency: 1us\n"
                          "hockney: {gamma: 0.2ns}\n";

static void test_builtins(void)
{
    const char *names[] = {"generic32x32", "cedar", "mist", "thor", "shaheen2"};
    g_assert_cmpuint(pact_platform_count(), ==, G_N_ELEMENTS(names));
    for (size_t i = 0; i < G_N_ELEMENTS(names); i++) {
        const pact_platform *p = pact_platform_find(names[i]);
        g_assert_nonnull(p);
        g_assert_true(g_str_has_prefix(p->file, "platforms/"));
        g_assert_cmpfloat(p->gamma, >, 0);
    }
    const pact_platform *g = pact_platform_find("generic32x32");
    g_assert_cmpint(g->nodes, ==, 32);
    g_assert_cmpint(g->sockets * g->cores_per_socket, ==, 32);
    g_assert_cmpfloat_with_epsilon(g->adapter.bw, 1.25e9, 1);
    g_assert_cmpfloat_with_epsilon(g->adapter.lat, 2e-6, 1e-15);
    g_assert_cmpfloat_with_epsilon(g->shm.lat, 1e-6, 1e-15);
    const pact_platform *c = pact_platform_find("cedar");
    g_assert_cmpint(c->topology, ==, PACT_TOPO_FAT_TREE);
    g_assert_cmpint(c->island_nodes, ==, 32);
    g_assert_cmpfloat(c->blocking, ==, 2);
    g_assert_cmpint(c->sockets * c->gpus_per_socket, ==, 4);
    g_assert_true(c->nvlink_all);
    const pact_platform *m = pact_platform_find("mist");
    g_assert_cmpint(m->nodes, ==, 54);
    g_assert_false(m->nvlink_all);
    g_assert_cmpfloat_with_epsilon(m->inter_socket.bw, 64e9, 1);
    const pact_platform *t = pact_platform_find("thor");
    g_assert_cmpint(t->adapters, ==, 2);
    g_assert_cmpint(t->rails, ==, PACT_RAILS_SHARING);
    const pact_platform *s = pact_platform_find("shaheen2");
    g_assert_cmpint(s->topology, ==, PACT_TOPO_DRAGONFLY);
    g_assert_cmpfloat_with_epsilon(s->alpha, 1.5e-6, 1e-15);
    g_assert_cmpfloat_with_epsilon(s->beta, 6.25e-11, 1e-20);
    int ch, r;
    pact_dragonfly_layout(s, &ch, &r); /* 18 groups need >= 18 routers per chassis; 6 x 16 -> 4 x 24 */
    g_assert_cmpint(ch * r, ==, 96);
    g_assert_cmpint(r, >=, 18);
    g_assert_null(pact_platform_find("nosuch"));
    GError *err = NULL;
    g_assert_null(pact_platform_get("nosuch", &err));
    g_assert_error(err, PACT_ERROR, PACT_ERROR_INPUT);
    g_clear_error(&err);
}

/* Applies "old=>new" to base and expects the parse to fail with `want` in the message. */
static void expect_bad(const char *old, const char *new_, const char *want)
{
    g_assert_nonnull(strstr(base, old));
    GString *t = g_string_new(base);
    g_string_replace(t, old, new_, 1);
    GError *err = NULL;
    pact_platform *p = pact_platform_parse("bad.yaml", t->str, &err);
    if (p || !err || !strstr(err->message, want))
        g_error("replacing '%s' by '%s': expected an error with '%s', got %s", old, new_, want,
                err ? err->message : "success");
    g_assert_error(err, PACT_ERROR, PACT_ERROR_INPUT);
    g_clear_error(&err);
    g_string_free(t, TRUE);
}

static void test_bad_files(void)
{
    GError *err = NULL;
    pact_platform *p = pact_platform_parse("good.yaml", base, &err);
    g_assert_no_error(err);
    g_assert_cmpint(p->sockets * p->cores_per_socket, ==, 8);
    g_assert_cmpfloat_with_epsilon(p->adapter.bw, 12.5e9, 1);
    g_assert_cmpfloat_with_epsilon(p->shm.lat, 0.5e-6, 1e-15);
    pact_platform_free(p);
    expect_bad("nodes: 4", "nodes: [4", "bad.yaml:");
    expect_bad("nodes: 4", "nodes: many", "bad.yaml:4: nodes: 'many' is not a number");
    expect_bad("nodes: 4", "nodes: -3", "bad.yaml:4: nodes: -3 is out of range");
    expect_bad("nodes: 4", "nodes: 2.5", "bad.yaml:4: nodes: '2.5' is not a whole number");
    expect_bad("  sockets: 2", "  sockts: 2", "bad.yaml:6: node.sockts: unknown field");
    expect_bad("    bandwidth: 100Gbps", "    bandwidth: 100 furlongs",
               "bad.yaml:14: network.adapter.bandwidth: '100 furlongs': unknown unit");
    expect_bad("    latency: 1us", "    latency: 0us", "bad.yaml:15: network.adapter.latency: 0us is out of range");
    /* A number without its unit was read as B/s or s (issue 16.8). */
    expect_bad("    bandwidth: 100Gbps", "    bandwidth: 10",
               "bad.yaml:14: network.adapter.bandwidth: '10': needs a unit (Gbps");
    expect_bad("    latency: 1us", "    latency: 2",
               "bad.yaml:15: network.adapter.latency: '2': needs a unit (s, ms");
    expect_bad("    latency: 1us\n", "", "bad.yaml:1: network.adapter.latency: missing");
    expect_bad("  topology: flat", "  topology: torus", "bad.yaml:11: network.topology: 'torus': expected flat");
    expect_bad("  adapters: 1", "  adapters: 1\n  blocking: 2", "bad.yaml:13: network.blocking: does not apply");
    expect_bad("  adapters: 1", "  adapters: 1\n  adapters: 2", "bad.yaml:13: network.adapters: given twice");
    expect_bad("  topology: flat", "  topology: fat_tree", "network.island_nodes: missing");
    expect_bad("  topology: flat", "  topology: fat_tree\n  island_nodes: 2\n  blocking: 2\n"
               "  cross_island_latency: 0.5us", "network.cross_island_latency: 5e-07 s is below");
    expect_bad("name: tiny", "name: Tiny Machine", "bad.yaml:1: name: 'Tiny Machine'");
    expect_bad("hockney: {gamma: 0.2ns}", "hockney: 7", "bad.yaml:16: hockney: expected a mapping");
    expect_bad("hockney: {gamma: 0.2ns}\n", "hockney: {gamma: 0.2ns}\ngpu_node: {gpus_per_socket: 2}\n",
               "gpu_node.nvlink_between: missing (required once gpu_node is given)");
    g_assert_null(pact_platform_load("/nonexistent/x.yaml", &err));
    g_assert_error(err, PACT_ERROR, PACT_ERROR_INPUT);
    g_clear_error(&err);
}

static gboolean request(const char *name, int nodes, int ppn, pact_ranks_on on, pact_rails rails)
{
    pact_export_opts o = {.nodes = nodes, .ppn = ppn, .ranks_on = on, .rails = rails};
    GError *err = NULL;
    gboolean ok = pact_platform_check(pact_platform_find(name), &o, &err);
    if (!ok) {
        g_assert_error(err, PACT_ERROR, PACT_ERROR_INPUT);
        g_clear_error(&err);
    }
    return ok;
}

static void test_requests(void)
{
    g_assert_true(request("generic32x32", 32, 32, PACT_ON_CORES, PACT_RAILS_SHARING));
    g_assert_false(request("generic32x32", 2, 33, PACT_ON_CORES, PACT_RAILS_SHARING)); /* --ppn 33, 32 cores */
    g_assert_false(request("generic32x32", 33, 1, PACT_ON_CORES, PACT_RAILS_SHARING));
    g_assert_false(request("generic32x32", 2, 1, PACT_ON_GPUS, PACT_RAILS_SHARING));    /* no GPUs */
    g_assert_false(request("generic32x32", 2, 1, PACT_ON_CORES, PACT_RAILS_BINDING)); /* one adapter */
    g_assert_false(request("mist", 200, 1, PACT_ON_CORES, PACT_RAILS_SHARING));       /* --nodes 200 */
    g_assert_true(request("mist", 54, 4, PACT_ON_GPUS, PACT_RAILS_SHARING));
    g_assert_false(request("cedar", 2, 5, PACT_ON_GPUS, PACT_RAILS_SHARING));
    g_assert_true(request("thor", 32, 32, PACT_ON_CORES, PACT_RAILS_BINDING));
    g_assert_true(request("shaheen2", 6174, 32, PACT_ON_CORES, PACT_RAILS_SHARING));
    g_assert_false(request("shaheen2", 6175, 1, PACT_ON_CORES, PACT_RAILS_SHARING));
    pact_export_opts o = {0};
    GError *err = NULL;
    g_assert_true(pact_platform_check(pact_platform_find("cedar"), &o, &err));
    g_assert_cmpint(o.nodes, ==, 192); /* 0 = the whole machine */
    g_assert_cmpint(o.ppn, ==, 32);
}

static char *slurp(const char *dir, const char *name)
{
    g_autofree char *path = g_build_filename(dir, name, NULL);
    char *text = NULL;
    g_assert_true(g_file_get_contents(path, &text, NULL, NULL));
    g_unlink(path);
    return text;
}

static void export_to(const char *name, pact_export_opts o, char **xml, char **hosts)
{
    GError *err = NULL;
    g_autofree char *dir = g_dir_make_tmp("pact-test-XXXXXX", &err);
    g_assert_no_error(err);
    g_assert_true(pact_platform_export(pact_platform_find(name), &o, dir, &err));
    g_assert_no_error(err);
    *xml = slurp(dir, "platform.xml");
    *hosts = slurp(dir, "hostfile");
    g_free(slurp(dir, "smpi-cfg"));
    g_rmdir(dir);
}

static void test_export(void)
{
    char *xml, *hosts;
    export_to("generic32x32", (pact_export_opts){.nodes = 3, .ppn = 2, .mapping = PACT_MAP_CYCLIC}, &xml, &hosts);
    g_assert_cmpstr(hosts, ==, "node-0\nnode-1\nnode-2\nnode-0\nnode-1\nnode-2\n");
    g_assert_nonnull(strstr(xml, "radical=\"0-2\""));
    g_assert_nonnull(strstr(xml, "lat=\"9.9999999999999995e-07s\"")); /* 2 us end to end = 2 x 1 us */
    g_free(xml);
    g_free(hosts);
    /* Cedar: two islands, each with a trunk of 32 x 12.5 GB/s / 2. */
    export_to("cedar", (pact_export_opts){.nodes = 40, .ppn = 1}, &xml, &hosts);
    g_assert_nonnull(strstr(xml, "<cluster id=\"island-1\" prefix=\"node-\" radical=\"32-39\""));
    g_assert_nonnull(strstr(xml, "<link id=\"island-0-trunk\" bandwidth=\"200000000000Bps\""));
    g_assert_null(strstr(xml, "island-2"));
    g_free(xml);
    g_free(hosts);
    /* Cedar on GPUs: node zones, one rank per GPU. */
    export_to("cedar", (pact_export_opts){.nodes = 2, .ppn = 4, .ranks_on = PACT_ON_GPUS}, &xml, &hosts);
    g_assert_cmpstr(hosts, ==, "node-0-gpu0\nnode-0-gpu1\nnode-0-gpu2\nnode-0-gpu3\n"
                               "node-1-gpu0\nnode-1-gpu1\nnode-1-gpu2\nnode-1-gpu3\n");
    g_assert_nonnull(strstr(xml, "<link id=\"node-1-nvlink0-3\""));
    g_free(xml);
    g_free(hosts);
    /* Mist: NVLink only within a socket. */
    export_to("mist", (pact_export_opts){.nodes = 1, .ppn = 4, .ranks_on = PACT_ON_GPUS}, &xml, &hosts);
    g_assert_nonnull(strstr(xml, "node-0-nvlink0-1"));
    g_assert_null(strstr(xml, "node-0-nvlink0-2"));
    g_free(xml);
    g_free(hosts);
    /* Thor, rails bound: ranks round robin over the two adapters of their node. */
    export_to("thor", (pact_export_opts){.nodes = 2, .ppn = 3, .rails = PACT_RAILS_BINDING}, &xml, &hosts);
    g_assert_cmpstr(hosts, ==,
                    "node-0-rail0\nnode-0-rail1\nnode-0-rail0\nnode-1-rail0\nnode-1-rail1\nnode-1-rail0\n");
    g_free(xml);
    g_free(hosts);
    /* Thor, rails shared: one node link of twice the adapter bandwidth. */
    export_to("thor", (pact_export_opts){.nodes = 2, .ppn = 1}, &xml, &hosts);
    g_assert_nonnull(strstr(xml, "bw=\"25000000000Bps\""));
    g_free(xml);
    g_free(hosts);
    export_to("shaheen2", (pact_export_opts){.nodes = 4, .ppn = 1}, &xml, &hosts);
    g_assert_nonnull(strstr(xml, "topo_parameters=\"18,1;4,1;24,1;4\""));
    g_free(xml);
    g_free(hosts);
}

int main(int argc, char **argv)
{
    g_test_init(&argc, &argv, NULL);
    g_test_add_func("/platforms/builtins", test_builtins);
    g_test_add_func("/platforms/bad-files", test_bad_files);
    g_test_add_func("/platforms/requests", test_requests);
    g_test_add_func("/platforms/export", test_export);
    return g_test_run();
}
