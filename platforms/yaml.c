/*
 * yaml.c - the platform schema: reads a machine's YAML (libyaml's document API keeps every node's line)
 * into a pact_platform, checking every field's type, unit and range; errors name file, line and field.
 */
#include <errno.h>
#include <math.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <yaml.h>

#include "pact_host.h"
#include "pact_platforms.h"

typedef enum { F_STR, F_INT, F_NUM, F_BW, F_TIME, F_SPEED, F_TOPO, F_RAILS, F_PAIRS } ftype;

typedef struct {
    const char *path;
    ftype type;
    size_t off;
    double min, max; /* allowed range (numbers) */
} field;

#define OFF(m) offsetof(pact_platform, m)
#define BIG 1e300

static const field schema[] = {
    {"name", F_STR, OFF(name), 0, 0},
    {"description", F_STR, OFF(description), 0, 0},
    {"source", F_STR, OFF(source), 0, 0},
    {"nodes", F_INT, OFF(nodes), 1, 1e6},
    {"node.sockets", F_INT, OFF(sockets), 1, 16},
    {"node.cores_per_socket", F_INT, OFF(cores_per_socket), 1, 1024},
    {"node.core_speed", F_SPEED, OFF(speed), 1, BIG},
    {"node.shared_memory.bandwidth", F_BW, OFF(shm.bw), 1, BIG},
    {"node.shared_memory.latency", F_TIME, OFF(shm.lat), 0, 1},
    {"network.topology", F_TOPO, OFF(topology), 0, 0},
    {"network.adapters", F_INT, OFF(adapters), 1, 16},
    {"network.rails", F_RAILS, OFF(rails), 0, 0},
    {"network.adapter.bandwidth", F_BW, OFF(adapter.bw), 1, BIG},
    {"network.adapter.latency", F_TIME, OFF(adapter.lat), 1e-12, 1},
    {"network.island_nodes", F_INT, OFF(island_nodes), 1, 1e6},
    {"network.blocking", F_NUM, OFF(blocking), 1, 1024},
    {"network.cross_island_latency", F_TIME, OFF(cross_lat), 1e-12, 1},
    {"network.groups", F_INT, OFF(groups), 1, 1024},
    {"network.chassis_per_group", F_INT, OFF(chassis), 1, 1024},
    {"network.routers_per_chassis", F_INT, OFF(routers), 1, 1024},
    {"network.nodes_per_router", F_INT, OFF(nodes_per_router), 1, 1024},
    {"network.hop_latency", F_TIME, OFF(hop_lat), 1e-12, 1},
    {"gpu_node.gpus_per_socket", F_INT, OFF(gpus_per_socket), 1, 64},
    {"gpu_node.nvlink_between", F_PAIRS, OFF(nvlink_all), 0, 0},
    {"gpu_node.nvlink.bandwidth", F_BW, OFF(nvlink.bw), 1, BIG},
    {"gpu_node.nvlink.latency", F_TIME, OFF(nvlink.lat), 1e-12, 1},
    {"gpu_node.gpu_to_host.bandwidth", F_BW, OFF(gpu_host.bw), 1, BIG},
    {"gpu_node.gpu_to_host.latency", F_TIME, OFF(gpu_host.lat), 1e-12, 1},
    {"gpu_node.inter_socket.bandwidth", F_BW, OFF(inter_socket.bw), 1, BIG},
    {"gpu_node.inter_socket.latency", F_TIME, OFF(inter_socket.lat), 1e-12, 1},
    {"gpu_node.adapter_to_host.bandwidth", F_BW, OFF(adapter_host.bw), 1, BIG},
    {"gpu_node.adapter_to_host.latency", F_TIME, OFF(adapter_host.lat), 1e-12, 1},
    {"gpu_node.gpu_memory.bandwidth", F_BW, OFF(gpu_mem.bw), 1, BIG},
    {"gpu_node.gpu_memory.latency", F_TIME, OFF(gpu_mem.lat), 1e-12, 1},
    {"hockney.alpha", F_TIME, OFF(alpha), 0, 1},
    {"hockney.beta", F_TIME, OFF(beta), 0, 1},
    {"hockney.gamma", F_TIME, OFF(gamma), 0, 1},
};

/* Every field but these is required; the topology decides which of the network ones apply. */
static const char *const optional[] = {"network.rails", "hockney.alpha", "hockney.beta", NULL};

typedef struct {
    const char *file;
    yaml_document_t *doc;
    pact_platform *p;
    GHashTable *lines; /* path -> line of the value (GINT_TO_POINTER) */
} ctx;

typedef struct {
    const char *suffix;
    double scale;
} unit;

static const unit bw_units[] = {{"GBps", 1e9}, {"MBps", 1e6}, {"kBps", 1e3}, {"KBps", 1e3}, {"Bps", 1},
                                {"GiBps", 1073741824.0}, {"MiBps", 1048576.0}, {"Gbps", 1e9 / 8},
                                {"Mbps", 1e6 / 8}, {"kbps", 1e3 / 8}, {"bps", 1.0 / 8}, {NULL, 0}};
static const unit time_units[] = {{"ns", 1e-9}, {"us", 1e-6}, {"ms", 1e-3}, {"s", 1}, {NULL, 0}};
static const unit speed_units[] = {{"Tf", 1e12}, {"Gf", 1e9}, {"Mf", 1e6}, {"kf", 1e3}, {"f", 1}, {NULL, 0}};

static gboolean fail(ctx *c, int line, const char *path, GError **err, const char *fmt, ...) G_GNUC_PRINTF(5, 6);

static gboolean fail(ctx *c, int line, const char *path, GError **err, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    g_autofree char *msg = g_strdup_vprintf(fmt, ap);
    va_end(ap);
    g_set_error(err, PACT_ERROR, PACT_ERROR_INPUT, "%s:%d: %s%s%s", c->file, line, path ? path : "",
                path ? ": " : "", msg);
    return FALSE;
}

static gboolean parse_number(ctx *c, int line, const field *f, const char *text, GError **err)
{
    const unit *units = f->type == F_BW ? bw_units : f->type == F_TIME ? time_units
                        : f->type == F_SPEED ? speed_units
                                             : NULL;
    errno = 0;
    char *end;
    double v = strtod(text, &end);
    if (end == text || errno)
        return fail(c, line, f->path, err, "'%s' is not a number", text);
    while (*end == ' ')
        end++;
    /* "bandwidth: 10" read as 10 B/s (and "latency: 2" as 2 s) is a silent factor of 1e9: units are required
     * where there are units. */
    if (!*end && units && f->type != F_SPEED)
        return fail(c, line, f->path, err, "'%s': needs a unit%s", text,
                    f->type == F_BW ? " (Gbps, GBps, MBps, Bps ...)" : " (s, ms, us, ns)");
    if (*end) {
        const unit *u = units;
        for (; u && u->suffix; u++)
            if (!strcmp(end, u->suffix))
                break;
        if (!u || !u->suffix)
            return fail(c, line, f->path, err, "'%s': unknown unit '%s'%s", text, end,
                        f->type == F_BW     ? " (Gbps, GBps, MBps, Bps ...)"
                        : f->type == F_TIME ? " (s, ms, us, ns)"
                        : f->type == F_SPEED ? " (Gf, Mf, f)"
                                             : " (a plain number is expected)");
        v *= u->scale;
    }
    if (!isfinite(v) || v < f->min || v > f->max)
        return fail(c, line, f->path, err, "%s is out of range [%g, %g]", text, f->min, f->max);
    if (f->type == F_INT) {
        if (v != floor(v))
            return fail(c, line, f->path, err, "'%s' is not a whole number", text);
        *(int *)((char *)c->p + f->off) = (int)v;
    } else {
        *(double *)((char *)c->p + f->off) = v;
    }
    return TRUE;
}

static gboolean parse_scalar(ctx *c, const field *f, yaml_node_t *n, GError **err)
{
    int line = (int)n->start_mark.line + 1;
    if (n->type != YAML_SCALAR_NODE)
        return fail(c, line, f->path, err, "expected a single value");
    const char *text = (const char *)n->data.scalar.value;
    g_hash_table_insert(c->lines, (gpointer)f->path, GINT_TO_POINTER(line));
    switch (f->type) {
    case F_STR:
        g_free(*(char **)((char *)c->p + f->off));
        *(char **)((char *)c->p + f->off) = g_strdup(text);
        return TRUE;
    case F_TOPO: {
        pact_topology t = !strcmp(text, "flat")        ? PACT_TOPO_FLAT
                          : !strcmp(text, "fat_tree")  ? PACT_TOPO_FAT_TREE
                          : !strcmp(text, "dragonfly") ? PACT_TOPO_DRAGONFLY
                                                       : (pact_topology)-1;
        if ((int)t < 0)
            return fail(c, line, f->path, err, "'%s': expected flat, fat_tree or dragonfly", text);
        c->p->topology = t;
        return TRUE;
    }
    case F_RAILS:
        if (strcmp(text, "sharing") && strcmp(text, "binding"))
            return fail(c, line, f->path, err, "'%s': expected sharing or binding", text);
        c->p->rails = !strcmp(text, "binding") ? PACT_RAILS_BINDING : PACT_RAILS_SHARING;
        return TRUE;
    case F_PAIRS:
        if (strcmp(text, "all") && strcmp(text, "socket"))
            return fail(c, line, f->path, err, "'%s': expected all (every GPU pair) or socket", text);
        c->p->nvlink_all = !strcmp(text, "all");
        return TRUE;
    default:
        return parse_number(c, line, f, text, err);
    }
}

static gboolean walk(ctx *c, yaml_node_t *map, const char *prefix, GError **err)
{
    if (map->type != YAML_MAPPING_NODE)
        return fail(c, (int)map->start_mark.line + 1, *prefix ? prefix : NULL, err, "expected a mapping of fields");
    for (yaml_node_pair_t *pr = map->data.mapping.pairs.start; pr < map->data.mapping.pairs.top; pr++) {
        yaml_node_t *k = yaml_document_get_node(c->doc, pr->key);
        yaml_node_t *v = yaml_document_get_node(c->doc, pr->value);
        int line = (int)k->start_mark.line + 1;
        if (k->type != YAML_SCALAR_NODE)
            return fail(c, line, NULL, err, "a field name must be a plain word");
        g_autofree char *path = *prefix ? g_strdup_printf("%s.%s", prefix, (char *)k->data.scalar.value)
                                        : g_strdup((char *)k->data.scalar.value);
        const field *f = NULL;
        gboolean parent = FALSE;
        size_t len = strlen(path);
        for (size_t i = 0; i < G_N_ELEMENTS(schema); i++) {
            if (!strcmp(schema[i].path, path))
                f = &schema[i];
            else if (!strncmp(schema[i].path, path, len) && schema[i].path[len] == '.')
                parent = TRUE;
        }
        if (f) {
            if (g_hash_table_contains(c->lines, f->path))
                return fail(c, line, path, err, "given twice");
            if (!parse_scalar(c, f, v, err))
                return FALSE;
        } else if (parent) {
            if (!walk(c, v, path, err))
                return FALSE;
        } else {
            return fail(c, line, path, err, "unknown field");
        }
    }
    return TRUE;
}

static int line_of(ctx *c, const char *path)
{
    return GPOINTER_TO_INT(g_hash_table_lookup(c->lines, path));
}

static gboolean is_optional(const char *path)
{
    for (const char *const *o = optional; *o; o++)
        if (!strcmp(*o, path))
            return TRUE;
    return FALSE;
}

/* Which fields the topology and node model call for, and cross-field rules. */
static gboolean check(ctx *c, GError **err)
{
    pact_platform *p = c->p;
    gboolean gpu = FALSE;
    GHashTableIter it;
    gpointer key;
    g_hash_table_iter_init(&it, c->lines);
    while (g_hash_table_iter_next(&it, &key, NULL))
        if (g_str_has_prefix(key, "gpu_node."))
            gpu = TRUE;
    for (size_t i = 0; i < G_N_ELEMENTS(schema); i++) {
        const char *path = schema[i].path;
        gboolean wanted = !is_optional(path);
        if (g_str_has_prefix(path, "gpu_node."))
            wanted = gpu;
        else if (!strcmp(path, "network.adapter.latency"))
            wanted = p->topology != PACT_TOPO_DRAGONFLY; /* there every link has hop_latency */
        else if (!strcmp(path, "network.island_nodes") || !strcmp(path, "network.blocking") ||
                 !strcmp(path, "network.cross_island_latency"))
            wanted = p->topology == PACT_TOPO_FAT_TREE;
        else if (!strcmp(path, "network.groups") || !strcmp(path, "network.chassis_per_group") ||
                 !strcmp(path, "network.routers_per_chassis") || !strcmp(path, "network.nodes_per_router") ||
                 !strcmp(path, "network.hop_latency"))
            wanted = p->topology == PACT_TOPO_DRAGONFLY;
        gboolean given = g_hash_table_contains(c->lines, path);
        if (wanted && !given)
            return fail(c, 1, path, err, "missing (required%s)",
                        g_str_has_prefix(path, "gpu_node.") ? " once gpu_node is given"
                        : g_str_has_prefix(path, "network.") && strcmp(path, "network.topology") &&
                                strcmp(path, "network.adapters") && !g_str_has_prefix(path, "network.adapter.")
                            ? " by this topology"
                            : "");
        if (!wanted && given && !is_optional(path))
            return fail(c, line_of(c, path), path, err, "does not apply to %s",
                        g_str_has_prefix(path, "network.") ? "this topology" : "this platform");
    }
    if (!g_regex_match_simple("^[a-z0-9_]+$", p->name, 0, 0))
        return fail(c, line_of(c, "name"), "name", err, "'%s': use lower-case letters, digits and _", p->name);
    if (p->topology == PACT_TOPO_FAT_TREE && p->cross_lat < p->adapter.lat)
        return fail(c, line_of(c, "network.cross_island_latency"), "network.cross_island_latency", err,
                    "%g s is below the in-island latency %g s (network.adapter.latency)", p->cross_lat,
                    p->adapter.lat);
    if (p->topology == PACT_TOPO_DRAGONFLY) {
        long total = (long)p->groups * p->chassis * p->routers * p->nodes_per_router;
        if (p->nodes > total)
            return fail(c, line_of(c, "nodes"), "nodes", err,
                        "%d nodes do not fit %d groups x %d chassis x %d routers x %d nodes = %ld", p->nodes,
                        p->groups, p->chassis, p->routers, p->nodes_per_router, total);
        if (p->adapters != 1)
            return fail(c, line_of(c, "network.adapters"), "network.adapters", err,
                        "a dragonfly has one adapter per node here");
    }
    if (p->topology != PACT_TOPO_FLAT && p->rails == PACT_RAILS_BINDING)
        return fail(c, line_of(c, "network.rails"), "network.rails", err, "rail binding needs a flat network");
    if (gpu && p->topology == PACT_TOPO_DRAGONFLY)
        return fail(c, line_of(c, "gpu_node.gpus_per_socket"), "gpu_node", err,
                    "the GPU node model is not available on a dragonfly");
    if (gpu && p->adapter.lat <= 2 * p->adapter_host.lat)
        return fail(c, line_of(c, "gpu_node.adapter_to_host.latency"), "gpu_node.adapter_to_host.latency", err,
                    "twice %g s leaves nothing of network.adapter.latency (%g s) for the network", p->adapter_host.lat,
                    p->adapter.lat);
    if (gpu && p->adapters != 1)
        return fail(c, line_of(c, "network.adapters"), "network.adapters", err,
                    "the GPU node model has one adapter per node");
    return TRUE;
}

pact_platform *pact_platform_parse(const char *name, const char *text, GError **err)
{
    yaml_parser_t parser;
    yaml_document_t doc;
    ctx c = {.file = name, .doc = &doc, .p = g_new0(pact_platform, 1)};
    c.p->file = g_strdup(name);
    c.p->adapters = 1;
    c.lines = g_hash_table_new(g_str_hash, g_str_equal);
    gboolean ok = FALSE, have_doc = FALSE;
    yaml_parser_initialize(&parser);
    yaml_parser_set_input_string(&parser, (const unsigned char *)text, strlen(text));
    if (!yaml_parser_load(&parser, &doc)) {
        fail(&c, (int)parser.problem_mark.line + 1, NULL, err, "YAML syntax: %s",
             parser.problem ? parser.problem : "unreadable");
        goto out;
    }
    have_doc = TRUE;
    yaml_node_t *root = yaml_document_get_root_node(&doc);
    if (!root) {
        fail(&c, 1, NULL, err, "empty file");
        goto out;
    }
    ok = walk(&c, root, "", err) && check(&c, err);
out:
    if (have_doc)
        yaml_document_delete(&doc);
    yaml_parser_delete(&parser);
    g_hash_table_destroy(c.lines);
    if (!ok) {
        pact_platform_free(c.p);
        return NULL;
    }
    return c.p;
}

pact_platform *pact_platform_load(const char *path, GError **err)
{
    g_autofree char *text = NULL;
    if (!(text = pact_read_file(path, NULL, err)))
        return NULL;
    return pact_platform_parse(path, text, err);
}

void pact_platform_free(pact_platform *p)
{
    if (!p)
        return;
    g_free(p->name);
    g_free(p->description);
    g_free(p->source);
    g_free(p->file);
    g_free(p);
}
