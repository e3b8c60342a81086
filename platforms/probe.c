/*
 * probe.c - `pact platform probe`: a simulated ping-pong between a pair of hosts at each level of a machine
 * (same node, same switch or island, across islands or groups, GPU pairs), run with pact-probe-smpi under
 * smpirun on the exported platform.  The expected values are computed here from the YAML alone, not from
 * the XML, so that the probe checks the exporter.
 *
 * From the one-way times t(0) and t(m) of an empty and an m-byte message: bandwidth = m / (t(m) - t(0)),
 * latency = t(0) - 16 / bandwidth (SMPI sends a 16-byte envelope with every message).
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <glib/gstdio.h>

#include "pact_host.h"
#include "pact_platforms.h"

#define PROBE_BYTES 4194304.0

static void add(GArray *a, const char *name, const char *ha, const char *hb, double lat, double bw)
{
    pact_probe_level l = {.expect = {bw, lat}};
    g_strlcpy(l.name, name, sizeof l.name);
    g_strlcpy(l.host_a, ha, sizeof l.host_a);
    g_strlcpy(l.host_b, hb, sizeof l.host_b);
    g_array_append_val(a, l);
}

/* Links on SimGrid's minimal dragonfly route between nodes a and b (DragonflyZone::get_local_route in
 * SimGrid 3.32: via the router of the source's chassis wired to the target group, one blue link). */
static int dragonfly_links(const pact_platform *p, int a, int b)
{
    int C, R, N = p->nodes_per_router;
    pact_dragonfly_layout(p, &C, &R);
    int ra = a / N, rb = b / N;
    if (ra == rb)
        return 2;
    int ga = ra / (C * R), gb = rb / (C * R), ca = ra / R % C, cb = rb / R % C, ba = ra % R, bb = rb % R;
    int links = 2, cur_blade = ba, cur_chassis = ca;
    if (ga != gb) {
        if (cur_blade != gb)
            links++, cur_blade = gb;
        if (cur_chassis != 0)
            links++, cur_chassis = 0;
        links++; /* blue */
        cur_blade = ga;
        cur_chassis = 0;
    }
    if (bb != cur_blade)
        links++;
    if (cb != cur_chassis)
        links++;
    return links;
}

GArray *pact_probe_levels(const pact_platform *p, const pact_export_opts *o)
{
    GArray *a = g_array_new(FALSE, TRUE, sizeof(pact_probe_level));
    double net_bw = p->adapter.bw * (o->rails == PACT_RAILS_SHARING ? p->adapters : 1);
    if (o->ranks_on == PACT_ON_GPUS) {
        int G = p->sockets * p->gpus_per_socket;
        double adapter_path = MIN(p->adapter.bw, p->adapter_host.bw);
        add(a, "same socket (shared memory)", "node-0-cpu0", "node-0-cpu0", p->shm.lat, p->shm.bw);
        if (p->sockets > 1)
            add(a, "sockets of one node", "node-0-cpu0", "node-0-cpu1", p->inter_socket.lat, p->inter_socket.bw);
        add(a, "GPU and its socket", "node-0-gpu0", "node-0-cpu0", p->gpu_host.lat, p->gpu_host.bw);
        if (p->gpus_per_socket > 1)
            add(a, "GPUs of one socket (NVLink)", "node-0-gpu0", "node-0-gpu1", p->nvlink.lat, p->nvlink.bw);
        if (p->sockets > 1) {
            char other[32];
            snprintf(other, sizeof other, "node-0-gpu%d", G - 1);
            if (p->nvlink_all)
                add(a, "GPUs across sockets (NVLink)", "node-0-gpu0", other, p->nvlink.lat, p->nvlink.bw);
            else
                add(a, "GPUs across sockets (host)", "node-0-gpu0", other,
                    2 * p->gpu_host.lat + p->inter_socket.lat, MIN(p->gpu_host.bw, p->inter_socket.bw));
        }
        if (p->nodes > 1) {
            const char *lvl = p->topology == PACT_TOPO_FAT_TREE ? "same island" : "same switch";
            char name[48];
            snprintf(name, sizeof name, "%s, cores", lvl);
            add(a, name, "node-0-cpu0", "node-1-cpu0", p->adapter.lat, adapter_path);
            snprintf(name, sizeof name, "%s, GPUs", lvl);
            add(a, name, "node-0-gpu0", "node-1-gpu0", p->adapter.lat + 2 * p->gpu_host.lat,
                MIN(adapter_path, p->gpu_host.bw));
        }
        if (p->topology == PACT_TOPO_FAT_TREE && p->nodes > p->island_nodes) {
            char hb[32];
            snprintf(hb, sizeof hb, "node-%d-gpu0", p->island_nodes);
            add(a, "across islands, GPUs", "node-0-gpu0", hb, p->cross_lat + 2 * p->gpu_host.lat,
                MIN(adapter_path, p->gpu_host.bw));
        }
        return a;
    }
    if (o->rails == PACT_RAILS_BINDING && p->adapters > 1) {
        add(a, "same node, same rail", "node-0-rail0", "node-0-rail0", p->shm.lat, p->shm.bw);
        add(a, "same node, other rail", "node-0-rail0", "node-0-rail1", p->shm.lat, p->shm.bw);
        add(a, "same switch, one rail", "node-0-rail0", "node-1-rail0", p->adapter.lat, p->adapter.bw);
        return a;
    }
    add(a, "same node", "node-0", "node-0", p->shm.lat, p->shm.bw);
    if (p->nodes < 2)
        return a;
    char hb[32];
    switch (p->topology) {
    case PACT_TOPO_FLAT:
        add(a, p->adapters > 1 ? "same switch, rails shared" : "same switch", "node-0", "node-1", p->adapter.lat,
            net_bw);
        break;
    case PACT_TOPO_FAT_TREE:
        add(a, "same island", "node-0", "node-1", p->adapter.lat, net_bw);
        if (p->nodes > p->island_nodes) {
            snprintf(hb, sizeof hb, "node-%d", p->island_nodes);
            add(a, "across islands", "node-0", hb, p->cross_lat, MIN(net_bw, p->island_nodes * p->adapter.bw /
                                                                                  p->blocking));
        }
        break;
    case PACT_TOPO_DRAGONFLY: {
        int C, R, N = p->nodes_per_router;
        pact_dragonfly_layout(p, &C, &R);
        struct {
            const char *name;
            long node;
        } t[] = {{"same router", 1},
                 {"same chassis", N},
                 {"same group, other chassis", (long)N * R},
                 {"other group", (long)N * R * C},
                 {"farthest (last node)", (long)p->groups * C * R * N - 1}};
        for (size_t i = 0; i < G_N_ELEMENTS(t); i++) {
            if ((i == 0 && N < 2) || (i == 1 && R < 2) || (i == 2 && C < 2) || (i >= 3 && p->groups < 2))
                continue;
            snprintf(hb, sizeof hb, "node-%ld", t[i].node);
            add(a, t[i].name, "node-0", hb, dragonfly_links(p, 0, (int)t[i].node) * p->hop_lat, net_bw);
        }
        break;
    }
    }
    return a;
}

/* Runs pact-probe-smpi on `hosts` (one per rank) with the sizes given; returns its stdout. */
static char *run_probe(const char *dir, const char *probe_bin, GPtrArray *hosts, const char *const *sizes,
                       GError **err)
{
    GString *hf = g_string_new(NULL);
    for (guint i = 0; i < hosts->len; i++)
        g_string_append_printf(hf, "%s\n", (char *)g_ptr_array_index(hosts, i));
    g_autofree char *hpath = g_build_filename(dir, "probe-hosts", NULL);
    gboolean ok = g_file_set_contents(hpath, hf->str, (gssize)hf->len, err);
    g_string_free(hf, TRUE);
    if (!ok)
        return NULL;
    GPtrArray *argv = g_ptr_array_new_with_free_func(g_free);
    g_ptr_array_add(argv, g_strdup("smpirun"));
    g_ptr_array_add(argv, g_strdup("-np"));
    g_ptr_array_add(argv, g_strdup_printf("%u", hosts->len));
    g_ptr_array_add(argv, g_strdup("-platform"));
    g_ptr_array_add(argv, g_build_filename(dir, "platform.xml", NULL));
    g_ptr_array_add(argv, g_strdup("-hostfile"));
    g_ptr_array_add(argv, g_strdup(hpath));
    for (const char *const *c = pact_smpi_cfg(); *c; c++)
        g_ptr_array_add(argv, g_strdup(*c));
    g_ptr_array_add(argv, g_strdup(probe_bin));
    for (const char *const *s = sizes; *s; s++)
        g_ptr_array_add(argv, g_strdup(*s));
    g_ptr_array_add(argv, NULL);
    char *out = NULL, *errout = NULL;
    int status = 0;
    GError *e = NULL;
    ok = g_spawn_sync(dir, (char **)argv->pdata, NULL, G_SPAWN_SEARCH_PATH, NULL, NULL, &out, &errout, &status, &e);
    g_ptr_array_free(argv, TRUE);
    if (!ok) {
        g_set_error(err, PACT_ERROR, PACT_ERROR_RUN, "cannot run smpirun: %s", e->message);
        g_error_free(e);
    } else if (!g_spawn_check_wait_status(status, NULL)) {
        g_set_error(err, PACT_ERROR, PACT_ERROR_RUN, "smpirun %s failed:\n%s", probe_bin, errout);
        ok = FALSE;
    }
    g_free(errout);
    if (!ok) {
        g_free(out);
        return NULL;
    }
    return out;
}

/* The one-way time of pair `lower` for `bytes` in probe output, or -1. */
static double pair_time(const char *out, int lower, long bytes)
{
    g_auto(GStrv) lines = g_strsplit(out, "\n", -1);
    for (char **l = lines; *l; l++) {
        int a, b;
        long m;
        double t;
        if (sscanf(*l, "pair %d %d %ld %lf", &a, &b, &m, &t) == 4 && a == lower && m == bytes)
            return t;
    }
    return -1;
}

static char *export_tmp(const pact_platform *p, const pact_export_opts *o, GError **err)
{
    GError *e = NULL;
    char *dir = g_dir_make_tmp("pact-probe-XXXXXX", &e);
    if (!dir) {
        g_set_error(err, PACT_ERROR, PACT_ERROR_RUN, "%s", e->message);
        g_error_free(e);
        return NULL;
    }
    if (!pact_platform_export(p, o, dir, err)) {
        g_free(dir);
        return NULL;
    }
    return dir;
}

static void remove_tmp(char *dir)
{
    if (!dir)
        return;
    const char *names[] = {"platform.xml", "hostfile", "smpi-cfg", "probe-hosts"};
    for (size_t i = 0; i < G_N_ELEMENTS(names); i++) {
        g_autofree char *f = g_build_filename(dir, names[i], NULL);
        g_remove(f);
    }
    g_rmdir(dir);
    g_free(dir);
}

/* Nodes the probe's pairs need in the export: the whole machine for a dragonfly (SimGrid builds it anyway),
 * one island and a node for a fat tree, two nodes otherwise. */
static int probe_nodes(const pact_platform *p)
{
    if (p->topology == PACT_TOPO_DRAGONFLY)
        return 1;
    if (p->topology == PACT_TOPO_FAT_TREE)
        return MIN(p->nodes, p->island_nodes + 1);
    return MIN(p->nodes, 2);
}

gboolean pact_probe_run(const pact_platform *p, const pact_export_opts *o_in, GArray *levels, const char *probe_bin,
                        GError **err)
{
    pact_export_opts o = *o_in;
    o.nodes = probe_nodes(p);
    o.ppn = 1;
    char *dir = export_tmp(p, &o, err);
    if (!dir)
        return FALSE;
    gboolean ok = TRUE;
    const char *const sizes[] = {"0", "4194304", NULL};
    for (guint i = 0; ok && i < levels->len; i++) {
        pact_probe_level *l = &g_array_index(levels, pact_probe_level, i);
        GPtrArray *hosts = g_ptr_array_new();
        g_ptr_array_add(hosts, l->host_a);
        g_ptr_array_add(hosts, l->host_b);
        char *out = run_probe(dir, probe_bin, hosts, sizes, err);
        g_ptr_array_free(hosts, TRUE);
        if (!out) {
            ok = FALSE;
            break;
        }
        double t0 = pair_time(out, 0, 0), t1 = pair_time(out, 0, (long)PROBE_BYTES);
        g_free(out);
        if (t0 < 0 || t1 <= t0) {
            g_set_error(err, PACT_ERROR, PACT_ERROR_RUN, "probe %s: no timing in pact-probe-smpi's output", l->name);
            ok = FALSE;
            break;
        }
        l->measured_bw = PROBE_BYTES / (t1 - t0);
        l->measured_lat = t0 - 16 / l->measured_bw;
    }
    remove_tmp(dir);
    return ok;
}

double pact_probe_concurrent(const pact_platform *p, const pact_export_opts *o_in, int pairs, int first,
                             double bytes, const char *probe_bin, GError **err)
{
    pact_export_opts o = *o_in;
    o.ppn = 1;
    o.nodes = p->topology == PACT_TOPO_DRAGONFLY ? 1 : first + pairs;
    if (first < pairs || first + pairs > p->nodes) {
        g_set_error(err, PACT_ERROR, PACT_ERROR_INPUT, "%d pairs from node %d do not fit %s (%d nodes)", pairs,
                    first, p->name, p->nodes);
        return 0;
    }
    char *dir = export_tmp(p, &o, err);
    if (!dir)
        return 0;
    GPtrArray *hosts = g_ptr_array_new_with_free_func(g_free);
    for (int i = 0; i < pairs; i++)
        g_ptr_array_add(hosts, pact_platform_host(p, &o, i));
    for (int i = 0; i < pairs; i++)
        g_ptr_array_add(hosts, pact_platform_host(p, &o, first + i));
    g_autofree char *m = g_strdup_printf("%.0f", bytes);
    const char *const sizes[] = {"0", m, NULL};
    char *out = run_probe(dir, probe_bin, hosts, sizes, err);
    g_ptr_array_free(hosts, TRUE);
    remove_tmp(dir);
    if (!out)
        return 0;
    /* The slowest pair: they all start together, so this is the bandwidth each gets while all share. */
    double worst = HUGE_VAL;
    for (int i = 0; i < pairs; i++) {
        double t0 = pair_time(out, i, 0), t1 = pair_time(out, i, (long)bytes);
        if (t0 < 0 || t1 <= t0) {
            g_free(out);
            g_set_error(err, PACT_ERROR, PACT_ERROR_RUN, "pair %d: no timing in pact-probe-smpi's output", i);
            return 0;
        }
        worst = MIN(worst, bytes / (t1 - t0));
    }
    g_free(out);
    return worst;
}
