/* platform.c - built-in machines and their SimGrid export. */
#include "pact_platforms.h"

#include "pact_host.h"

static const pact_platform platforms[] = {
    {
        .name = "generic32x32",
        .description = "32 nodes x 32 cores, one switch, 10 Gb/s, 1 us intra-node, 2 us inter-node",
        .nodes = 32,
        .cores = 32,
        .bw = 10e9 / 8,    /* 10 Gb/s everywhere (Salimi Beni et al., section III-A) */
        .lat_link = 1e-6,  /* two links per inter-node route: 2 us (ibid.) */
        .lat_intra = 1e-6, /* 1 us (ibid.) */
        .speed = 1e9,
        .gamma = 2e-10, /* the seeds give none for this machine; SUARA's Shaheen-II value (section 5) */
        .source = "Salimi Beni, Cosenza, Hunold, section III-A",
    },
};

size_t pact_platform_count(void)
{
    return G_N_ELEMENTS(platforms);
}

const pact_platform *pact_platform_at(size_t i)
{
    return i < G_N_ELEMENTS(platforms) ? &platforms[i] : NULL;
}

const pact_platform *pact_platform_find(const char *name)
{
    for (size_t i = 0; i < G_N_ELEMENTS(platforms); i++)
        if (g_strcmp0(platforms[i].name, name) == 0)
            return &platforms[i];
    return NULL;
}

gboolean pact_platform_check(const pact_platform *p, int nodes, int ppn, GError **err)
{
    if (nodes < 1 || nodes > p->nodes) {
        g_set_error(err, PACT_ERROR, PACT_ERROR_INPUT, "--nodes %d: %s has 1 to %d nodes", nodes, p->name,
                    p->nodes);
        return FALSE;
    }
    if (ppn < 1 || ppn > p->cores) {
        g_set_error(err, PACT_ERROR, PACT_ERROR_INPUT, "--ppn %d: %s has 1 to %d cores per node", ppn,
                    p->name, p->cores);
        return FALSE;
    }
    return TRUE;
}

int pact_rank_node(int rank, int nodes, int ppn, pact_mapping map)
{
    return map == PACT_MAP_BLOCK ? rank / ppn : rank % nodes;
}

gboolean pact_platform_export(const pact_platform *p, int nodes, int ppn, pact_mapping map, const char *dir,
                              GError **err)
{
    if (!pact_platform_check(p, nodes, ppn, err))
        return FALSE;
    /* A SimGrid cluster without backbone: an inter-node route is the sender's link plus the receiver's,
     * SPLITDUPLEX so each direction has the full bandwidth; intra-node traffic uses the loopback. */
    g_autofree char *xml = g_strdup_printf(
        "<?xml version='1.0'?>\n"
        "<!DOCTYPE platform SYSTEM \"https://simgrid.org/simgrid.dtd\">\n"
        "<!-- pact platform %s: %s (%d of %d nodes). Source: %s -->\n"
        "<platform version=\"4.1\">\n"
        "  <cluster id=\"%s\" prefix=\"node-\" radical=\"0-%d\" suffix=\"\" speed=\"%.17gf\" core=\"%d\"\n"
        "           bw=\"%.17gBps\" lat=\"%.17gs\" sharing_policy=\"SPLITDUPLEX\"\n"
        "           loopback_bw=\"%.17gBps\" loopback_lat=\"%.17gs\"/>\n"
        "</platform>\n",
        p->name, p->description, nodes, p->nodes, p->source, p->name, nodes - 1, p->speed, p->cores, p->bw,
        p->lat_link, p->bw, p->lat_intra);
    GString *hosts = g_string_new(NULL);
    for (int r = 0; r < nodes * ppn; r++)
        g_string_append_printf(hosts, "node-%d\n", pact_rank_node(r, nodes, ppn, map));
    /* The smpirun options that make SMPI follow these numbers, one per line, for runs by hand:
     * smpirun -platform platform.xml -hostfile hostfile $(cat smpi-cfg) ./prog */
    g_autofree char *cfg = g_strjoinv("\n", (char **)pact_smpi_cfg());
    g_autofree char *cfg_text = g_strconcat(cfg, "\n", NULL);
    g_autofree char *xml_path = g_build_filename(dir, "platform.xml", NULL);
    g_autofree char *host_path = g_build_filename(dir, "hostfile", NULL);
    g_autofree char *cfg_path = g_build_filename(dir, "smpi-cfg", NULL);
    gboolean ok = g_file_set_contents(xml_path, xml, -1, err) &&
                  g_file_set_contents(host_path, hosts->str, (gssize)hosts->len, err) &&
                  g_file_set_contents(cfg_path, cfg_text, -1, err);
    g_string_free(hosts, TRUE);
    if (!ok && err && *err && (*err)->domain != PACT_ERROR) {
        GError *e = *err;
        *err = NULL;
        g_set_error(err, PACT_ERROR, PACT_ERROR_RUN, "%s", e->message);
        g_error_free(e);
    }
    return ok;
}

/*
 * SMPI's defaults would distort the platform's numbers (measured on SimGrid 3.32, see the foundation
 * commit): its piecewise bandwidth and latency factors put a ping-pong 1.06x-3x off latency + size/bw,
 * cross-traffic adds 5% to full-duplex flows, every MPI_Wtime call costs 1e-8 s and every MPI_Test
 * 1e-4 s, and smpi_execute() converts seconds at a default host speed of 20 kflop/s and drops anything
 * under 1 us.  With these options a message costs exactly latency + (bytes + 16)/bandwidth, the 16 bytes
 * being SMPI's envelope, and simulated compute is exactly what the executor charges.
 */
const char *const *pact_smpi_cfg(void)
{
    static const char *const cfg[] = {
        "--cfg=smpi/simulate-computation:no",
        "--cfg=smpi/host-speed:1Gf",
        "--cfg=smpi/cpu-threshold:-1",
        "--cfg=smpi/wtime:0",
        "--cfg=smpi/test:0",
        "--cfg=smpi/iprobe:0",
        "--cfg=smpi/bw-factor:0:1",
        "--cfg=smpi/lat-factor:0:1",
        "--cfg=network/crosstraffic:0",
        "--log=root.thres:warning",
        NULL,
    };
    return cfg;
}
