/*
 * pact_platforms.h - the built-in machines and their export to SimGrid (platform XML + hostfile).
 * First cut: flat single-switch clusters described in C; the platforms issue replaces the table with
 * YAML files and adds fat-trees, dragonflies, rails and GPU-level nodes behind the same calls.
 */
#ifndef PACT_PLATFORMS_H
#define PACT_PLATFORMS_H

#include <glib.h>

typedef enum { PACT_MAP_BLOCK, PACT_MAP_CYCLIC } pact_mapping;

typedef struct {
    const char *name;
    const char *description;
    int nodes;        /* nodes in the machine */
    int cores;        /* cores per node */
    double bw;        /* bytes/s, node link and intra-node alike */
    double lat_link;  /* s, one node's link to the switch: inter-node latency is twice this */
    double lat_intra; /* s, between two cores of one node */
    double speed;     /* flop/s of one core */
    double gamma;     /* s/byte, default cost of a local reduction */
    const char *source;
} pact_platform;

size_t pact_platform_count(void);
const pact_platform *pact_platform_at(size_t i);
const pact_platform *pact_platform_find(const char *name);

/* Checks that `nodes` x `ppn` fits the machine. */
gboolean pact_platform_check(const pact_platform *p, int nodes, int ppn, GError **err);

/* The node of a rank. */
int pact_rank_node(int rank, int nodes, int ppn, pact_mapping map);

/* Writes dir/platform.xml (only the `nodes` used), dir/hostfile (one host per rank) and dir/smpi-cfg
 * (the smpirun options of pact_smpi_cfg, one per line). */
gboolean pact_platform_export(const pact_platform *p, int nodes, int ppn, pact_mapping map, const char *dir,
                              GError **err);

/* smpirun --cfg options that make SMPI follow the platform's numbers (see the file for why each). */
const char *const *pact_smpi_cfg(void);

#endif
