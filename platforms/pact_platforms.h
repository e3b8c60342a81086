/*
 * pact_platforms.h - machines described in YAML (platforms/NAME.yaml, built into the binary) and their
 * export to SimGrid 3.32 (platform XML + hostfile), plus the probe that checks an export.
 *
 * A platform is nodes of sockets x cores (and optionally GPUs) joined by one of three networks:
 *   flat       every node on one switch (generic32x32, thor, mist)
 *   fat_tree   islands of nodes, non-blocking inside, `blocking`:1 between islands (cedar)
 *   dragonfly  groups x chassis x routers x nodes per router (shaheen2), SimGrid's DRAGONFLY cluster
 * Latencies in the YAML are end to end, one way, as an MPI ping-pong measures them; the exporter splits
 * them over the links of a route.  Units: bandwidth in bytes/s, time in s, speed in flop/s.
 */
#ifndef PACT_PLATFORMS_H
#define PACT_PLATFORMS_H

#include <glib.h>

typedef enum { PACT_MAP_BLOCK, PACT_MAP_CYCLIC } pact_mapping;
typedef enum { PACT_TOPO_FLAT, PACT_TOPO_FAT_TREE, PACT_TOPO_DRAGONFLY } pact_topology;
typedef enum { PACT_RAILS_SHARING, PACT_RAILS_BINDING } pact_rails;
typedef enum { PACT_ON_CORES, PACT_ON_GPUS } pact_ranks_on;

typedef struct {
    double bw;  /* bytes/s */
    double lat; /* s, one way */
} pact_link;

typedef struct {
    char *name, *description, *source;
    char *file; /* where it was read from, for messages */
    int nodes, sockets, cores_per_socket;
    double speed;     /* flop/s of one core */
    pact_link shm;    /* two ranks of one node (CPU node model) */
    /* network */
    pact_topology topology;
    int adapters;     /* network adapters (rails) per node */
    pact_rails rails; /* default use of several adapters */
    pact_link adapter; /* one adapter; latency = node to node through one switch */
    int island_nodes;  /* fat_tree */
    double blocking;   /* fat_tree: island bandwidth / bandwidth leaving the island */
    double cross_lat;  /* fat_tree: node to node across islands, one way */
    int groups, chassis, routers, nodes_per_router; /* dragonfly: per machine, group, chassis, router */
    double hop_lat;                                 /* dragonfly: latency of every link of a route */
    /* GPU node model (gpus_per_socket > 0), used when ranks sit on GPUs: a nested zone of sockets and GPUs */
    int gpus_per_socket;
    gboolean nvlink_all; /* NVLink between every GPU pair (else only within a socket) */
    pact_link nvlink, gpu_host, inter_socket, adapter_host, gpu_mem;
    /* default Hockney parameters */
    double alpha, beta, gamma;
} pact_platform;

/* The built-in machines, parsed once from the YAML compiled into the binary. */
size_t pact_platform_count(void);
const pact_platform *pact_platform_at(size_t i);
const pact_platform *pact_platform_find(const char *name);

/* A built-in by name, or a user's YAML file by path (ending in .yaml); NULL with an input error. */
const pact_platform *pact_platform_get(const char *name_or_path, GError **err);

/* Parses one YAML description (`name` is used in messages).  Errors name file, line and field. */
pact_platform *pact_platform_parse(const char *name, const char *text, GError **err);
pact_platform *pact_platform_load(const char *path, GError **err);
void pact_platform_free(pact_platform *p);

typedef struct {
    int nodes, ppn;
    pact_mapping mapping;
    pact_ranks_on ranks_on;
    pact_rails rails;
} pact_export_opts;

/* A node's bandwidth to the network (bytes/s) under `rails`: every adapter's with sharing, one with binding.
 * The export's node link and the model engine's both ask here. */
double pact_platform_node_bw(const pact_platform *p, pact_rails rails);

/* Fills nodes/ppn 0 with the whole machine, then checks the request fits it. */
gboolean pact_platform_check(const pact_platform *p, pact_export_opts *o, GError **err);

/* "block" or "cyclic"; `what` names the flag or field in the message. */
gboolean pact_mapping_parse(const char *text, const char *what, pact_mapping *m, GError **err);

/* The node of a rank. */
int pact_rank_node(int rank, int nodes, int ppn, pact_mapping map);

/* Writes dir/platform.xml, dir/hostfile (one host per rank) and dir/smpi-cfg (the smpirun options of
 * pact_smpi_cfg, one per line). */
gboolean pact_platform_export(const pact_platform *p, const pact_export_opts *o, const char *dir,
                              GError **err);

/* The SimGrid host of rank `rank` under `o` (what the hostfile lists); g_free it. */
char *pact_platform_host(const pact_platform *p, const pact_export_opts *o, int rank);

/* SimGrid's dragonfly layout for p: chassis per group and routers per chassis, regrouped so that routers
 * per chassis >= groups (SimGrid 3.32's generator crashes otherwise). */
void pact_dragonfly_layout(const pact_platform *p, int *chassis, int *routers);

/* smpirun --cfg options that make SMPI follow the platform's numbers (see the file for why each). */
const char *const *pact_smpi_cfg(void);

/* One level of the machine (same node, same island, ...) with the values the YAML implies. */
typedef struct {
    char name[48];
    char host_a[64], host_b[64]; /* the pair probed */
    pact_link expect;
    double measured_lat, measured_bw;
} pact_probe_level;

/* The levels of `p` under `o` and their expected latency and bandwidth. */
GArray *pact_probe_levels(const pact_platform *p, const pact_export_opts *o);

/* Runs a simulated ping-pong for each level (pact-probe-smpi under smpirun), filling measured_*. */
gboolean pact_probe_run(const pact_platform *p, const pact_export_opts *o, GArray *levels, const char *probe_bin,
                        GError **err);

/* `pairs` node pairs exchanging `bytes` at once, nodes 0..pairs-1 with nodes first..first+pairs-1, one rank
 * per node; returns the bandwidth each pair obtained (bytes/s), or 0 with err set. */
double pact_probe_concurrent(const pact_platform *p, const pact_export_opts *o, int pairs, int first,
                             double bytes, const char *probe_bin, GError **err);

#endif
