/*
 * route.c - the routes of pact's SimGrid export (platforms/export.c) for the evaluator's shared links: for
 * two ranks, the links SimGrid 3.32 sends their message through, its latency (the sum over the links) and its
 * weight in the sharing (SMPI's network model: penalty = latency + weight-S x sum of 1/bandwidth, weight-S
 * 8775, src/surf/network_smpi.cpp and network_cm02.cpp; the LMM solver gives each flow a max-min fair rate in
 * proportion to 1/penalty).  Every network link of a CPU export is SPLITDUPLEX (one link per direction);
 * ranks of one node talk over a private FATPIPE shared-memory link (the cluster's loopback, or node-N-shm
 * under rail binding), which the evaluator treats as a flow of its own.
 *
 * Routes, as SimGrid builds them from the export:
 *   flat        node up, node down (ClusterZone, no backbone)
 *   fat_tree    in an island as flat; across islands node up, trunk of the source island up, trunk of the
 *               destination island down, node down (the Full zone's zoneRoute between island clusters)
 *   binding     hosts are (node, rail), ranks on rails round robin: rail up, rail down (explicit routes)
 *   dragonfly   DragonflyZone::get_local_route's minimal route: node up; to another group the green link to
 *               the blade numbered as the target group, the black link to chassis 0 if not there, the blue
 *               link; then the green link to the target blade, after which SimGrid's current router is the
 *               target group's chassis 0 router of that blade whatever chassis the route was in, hence a
 *               black link from chassis 0 to the target chassis when that is not 0; node down.  Links
 *               numbered per direction as the generator pairs them (UP from the lower index).
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "pact_host.h"
#include "pact_models.h"

#define WEIGHT_S 8775.0 /* SMPI's network/weight-S (surf_network_model_init_SMPI, smpirun's network/model)   \
                         */

struct pact_model_routes {
    pact_topology topo;
    gboolean binding;
    int P, nodes, ppn, R; /* R: hosts per node (rails under binding, else 1) */
    int *host, *node;     /* of each rank */
    uint32_t nlinks;
    double *cap, *lat;
    int island_nodes;
    uint32_t off_trunk;
    int G, C, B, N; /* dragonfly: groups, chassis per group, blades per chassis, nodes per blade */
    uint32_t off_green, off_black, off_blue;
    pact_link shm;
    double w_ref; /* penalty of a route of two node links: the weights are relative to it */
    double lat_min, lat_mean, lat_max;
};

static uint32_t host_up(int h)
{
    return 2u * (uint32_t)h;
}

static double penalty(const pact_model_routes *t, const uint32_t *l, int n)
{
    double lat = 0, w;
    for (int k = 0; k < n; k++)
        lat += t->lat[l[k]];
    w = lat;
    for (int k = 0; k < n; k++)
        w += WEIGHT_S / t->cap[l[k]];
    return w;
}

/* Directed links of the dragonfly: green within a chassis (blade a to b), black within a group (chassis a to
 * b at one blade), blue between groups.  Directions are distinct links (SPLITDUPLEX). */
static uint32_t green(const pact_model_routes *t, int g, int c, int a, int b)
{
    return t->off_green + (uint32_t)(((g * t->C + c) * t->B + a) * t->B + b);
}

static uint32_t black(const pact_model_routes *t, int g, int blade, int a, int b)
{
    return t->off_black + (uint32_t)(((g * t->B + blade) * t->C + a) * t->C + b);
}

static uint32_t blue(const pact_model_routes *t, int a, int b)
{
    return t->off_blue + (uint32_t)(a * t->G + b);
}

static int dragonfly_route(const pact_model_routes *t, int src, int dst, uint32_t *l)
{
    int per_g = t->C * t->B * t->N, per_c = t->B * t->N;
    int sg = src / per_g, sc = src % per_g / per_c, sb = src % per_c / t->N;
    int dg = dst / per_g, dc = dst % per_g / per_c, db = dst % per_c / t->N;
    int n = 0, cg = sg, cc = sc, cb = sb; /* the current router */
    l[n++] = host_up(src);
    if (!(sg == dg && sc == dc && sb == db)) {
        if (dg != sg) {
            if (cb != dg) {
                l[n++] = green(t, cg, cc, cb, dg);
                cb = dg;
            }
            if (cc != 0) {
                l[n++] = black(t, cg, cb, cc, 0);
                cc = 0;
            }
            l[n++] = blue(t, sg, dg);
            cg = dg;
            cc = 0;
            cb = sg;
        }
        if (db != cb) {
            l[n++] = green(t, cg, cc, cb, db);
            cb = db;
            cc = 0; /* SimGrid's current router: routers_[group * (C*B) + blade], chassis 0 */
        }
        if (dc != cc)
            l[n++] = black(t, cg, cb, cc, dc);
    }
    l[n++] = host_up(dst) + 1;
    return n;
}

int pact_model_route(const pact_model_routes *t, int a, int b, uint32_t *links, double *lat, double *iw,
                     double *bw)
{
    int n = 0;
    if (t->node[a] == t->node[b]) {
        *lat = t->shm.lat;
        *bw = t->shm.bw;
        *iw = 1;
        return 0;
    }
    int ha = t->host[a], hb = t->host[b];
    if (t->topo == PACT_TOPO_DRAGONFLY) {
        n = dragonfly_route(t, ha, hb, links);
    } else {
        links[n++] = host_up(ha);
        if (t->topo == PACT_TOPO_FAT_TREE && !t->binding) {
            int ia = t->node[a] / t->island_nodes, ib = t->node[b] / t->island_nodes;
            if (ia != ib) {
                links[n++] = t->off_trunk + 2u * (uint32_t)ia;
                links[n++] = t->off_trunk + 2u * (uint32_t)ib + 1;
            }
        }
        links[n++] = host_up(hb) + 1;
    }
    double l = 0, c = INFINITY;
    for (int k = 0; k < n; k++) {
        l += t->lat[links[k]];
        c = fmin(c, t->cap[links[k]]);
    }
    *lat = l;
    *bw = c;
    *iw = t->w_ref / penalty(t, links, n);
    return n;
}

gboolean pact_model_routes_needed(const pact_platform *p, pact_mapping mapping, pact_rails rails)
{
    return p->topology != PACT_TOPO_FLAT || mapping != PACT_MAP_BLOCK ||
           (rails == PACT_RAILS_BINDING && p->adapters > 1);
}

static void routes_free(pact_model_routes *t)
{
    if (!t)
        return;
    free(t->host);
    free(t->node);
    free(t->cap);
    free(t->lat);
    free(t);
}

static pact_model_routes *routes_build(const pact_platform *p, const pact_export_opts *o)
{
    pact_model_routes *t = calloc(1, sizeof(*t));
    if (!t)
        return NULL;
    int P = o->nodes * o->ppn;
    t->topo = p->topology;
    t->binding = o->rails == PACT_RAILS_BINDING && p->adapters > 1;
    t->P = P;
    t->nodes = o->nodes;
    t->ppn = o->ppn;
    t->R = t->binding ? p->adapters : 1;
    t->shm = p->shm;
    t->host = malloc((size_t)P * sizeof(int));
    t->node = malloc((size_t)P * sizeof(int));
    if (!t->host || !t->node)
        goto fail;
    for (int r = 0; r < P; r++) {
        int n = pact_rank_node(r, o->nodes, o->ppn, o->mapping);
        int local = o->mapping == PACT_MAP_BLOCK ? r % o->ppn : r / o->nodes; /* as pact_platform_host */
        t->node[r] = n;
        t->host[r] = t->binding ? n * t->R + local % t->R : n;
    }
    /* Node (or rail) links of the export: up 2h, down 2h+1. */
    double bw = pact_platform_node_bw(p, t->binding ? PACT_RAILS_BINDING : o->rails);
    double lat = p->topology == PACT_TOPO_DRAGONFLY ? p->hop_lat : p->adapter.lat / 2;
    uint32_t hosts = (uint32_t)(o->nodes * t->R);
    t->nlinks = 2 * hosts;
    int islands = 0;
    if (p->topology == PACT_TOPO_FAT_TREE) {
        t->island_nodes = p->island_nodes;
        islands = (o->nodes + p->island_nodes - 1) / p->island_nodes;
        t->off_trunk = t->nlinks;
        t->nlinks += 2u * (uint32_t)islands;
    } else if (p->topology == PACT_TOPO_DRAGONFLY) {
        pact_dragonfly_layout(p, &t->C, &t->B);
        t->N = p->nodes_per_router;
        int per_g = t->C * t->B * t->N;
        t->G = (o->nodes + per_g - 1) / per_g; /* the groups the ranks use: routes stay within them */
        t->off_green = t->nlinks;
        t->nlinks += (uint32_t)(t->G * t->C * t->B * t->B);
        t->off_black = t->nlinks;
        t->nlinks += (uint32_t)(t->G * t->B * t->C * t->C);
        t->off_blue = t->nlinks;
        t->nlinks += (uint32_t)(t->G * t->G);
    }
    t->cap = malloc(t->nlinks * sizeof(double));
    t->lat = malloc(t->nlinks * sizeof(double));
    if (!t->cap || !t->lat)
        goto fail;
    for (uint32_t l = 0; l < t->nlinks; l++) {
        t->cap[l] = bw;
        t->lat[l] = lat;
    }
    for (int i = 0; i < islands; i++)
        for (int d = 0; d < 2; d++) {
            t->cap[t->off_trunk + 2u * (uint32_t)i + (uint32_t)d] =
                p->island_nodes * p->adapter.bw / p->blocking;
            t->lat[t->off_trunk + 2u * (uint32_t)i + (uint32_t)d] = (p->cross_lat - p->adapter.lat) / 2;
        }
    uint32_t two[2] = {0, 1};
    t->w_ref = penalty(t, two, 2);
    /* Latency between nodes over the node pairs (every pair up to 256 nodes, then a stride). */
    int step = o->nodes > 256 ? o->nodes / 256 : 1;
    double sum = 0;
    long cnt = 0;
    t->lat_min = INFINITY;
    t->lat_max = 0;
    int rank_of_node[2];
    for (int a = 0; a < o->nodes; a += step)
        for (int b = 0; b < o->nodes; b += step) {
            if (a == b)
                continue;
            uint32_t l[PACT_ROUTE_MAX];
            double la, iw, c;
            rank_of_node[0] = o->mapping == PACT_MAP_BLOCK ? a * o->ppn : a;
            rank_of_node[1] = o->mapping == PACT_MAP_BLOCK ? b * o->ppn : b;
            pact_model_route(t, rank_of_node[0], rank_of_node[1], l, &la, &iw, &c);
            sum += la;
            cnt++;
            t->lat_min = fmin(t->lat_min, la);
            t->lat_max = fmax(t->lat_max, la);
        }
    t->lat_mean = cnt ? sum / (double)cnt : 0;
    if (!cnt)
        t->lat_min = 0;
    return t;
fail:
    routes_free(t);
    return NULL;
}

/* Built once per (platform, nodes, ppn, mapping, rails) and kept: evaluations share them, threads too.  The
 * key names the platform's file too, so a YAML platform freed and another loaded at its address differ. */
static GMutex lock;
static GHashTable *interned;

const pact_model_routes *pact_model_routes_get(const pact_platform *p, const pact_export_opts *o,
                                               GError **err)
{
    pact_export_opts q = *o;
    if (q.ranks_on != PACT_ON_CORES) {
        g_set_error(err, PACT_ERROR, PACT_ERROR_INPUT,
                    "model: %s: ranks on GPUs: the model has no GPU node model", p->name);
        return NULL;
    }
    if (!pact_platform_check(p, &q, err))
        return NULL;
    g_autofree char *key =
        g_strdup_printf("%p/%s/%s/%d/%d/%d/%d", (const void *)p, p->name, p->file ? p->file : "", q.nodes,
                        q.ppn, (int)q.mapping, (int)q.rails);
    g_mutex_lock(&lock);
    if (!interned)
        interned = g_hash_table_new_full(g_str_hash, g_str_equal, g_free, NULL);
    pact_model_routes *t = g_hash_table_lookup(interned, key);
    if (!t && (t = routes_build(p, &q)))
        g_hash_table_insert(interned, g_strdup(key), t);
    g_mutex_unlock(&lock);
    if (!t)
        g_set_error(err, PACT_ERROR, PACT_ERROR_RUN, "model: out of memory");
    return t;
}

int pact_model_routes_ranks(const pact_model_routes *t)
{
    return t->P;
}

uint32_t pact_model_routes_links(const pact_model_routes *t)
{
    return t->nlinks;
}

double pact_model_routes_capacity(const pact_model_routes *t, uint32_t link)
{
    return t->cap[link];
}

void pact_model_routes_latency(const pact_model_routes *t, double *min, double *mean, double *max)
{
    *min = t->lat_min;
    *mean = t->lat_mean;
    *max = t->lat_max;
}
