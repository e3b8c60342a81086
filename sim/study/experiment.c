/*
 * experiment.c - an experiment as named fields: read from a YAML file (each field keeps its file and line),
 * overridden by pact sim's flags, checked and expanded into studies (one per platform x nodes x ppn x
 * collective), and written back as the canonical experiment.yaml of an output folder (resume and merge
 * compare it).
 */
#include "pact_run.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <string.h>
#include <yaml.h>

#include "pact_host.h"

typedef enum { K_TEXT, K_LIST, K_BOOL } kind_t;

/* The fields, in the order experiment.yaml lists them.  `study` fields (lists) expand into studies. */
static const struct {
    const char *name;
    kind_t kind;
    gboolean study;
    gboolean run; /* how to run, not what: left out of experiment.yaml */
} schema[] = {
    {"platform", K_LIST, TRUE, FALSE},     {"hostfile", K_TEXT, FALSE, FALSE},
    {"ranks-on", K_TEXT, FALSE, FALSE},    {"rails", K_TEXT, FALSE, FALSE},
    {"nodes", K_LIST, TRUE, FALSE},        {"ppn", K_LIST, TRUE, FALSE},
    {"mapping", K_TEXT, FALSE, FALSE},     {"coll", K_LIST, TRUE, FALSE},
    {"algs", K_LIST, FALSE, FALSE},        {"sizes", K_LIST, FALSE, FALSE},
    {"patterns", K_LIST, FALSE, FALSE},    {"skew", K_TEXT, FALSE, FALSE},
    {"skew-factor", K_TEXT, FALSE, FALSE}, {"skew-mode", K_TEXT, FALSE, FALSE},
    {"reps", K_TEXT, FALSE, FALSE},        {"engine", K_TEXT, FALSE, FALSE},
    {"seed", K_TEXT, FALSE, FALSE},        {"gamma", K_TEXT, FALSE, FALSE},
    {"dtype", K_TEXT, FALSE, FALSE},       {"op", K_TEXT, FALSE, FALSE},
    {"root", K_TEXT, FALSE, FALSE},        {"check", K_BOOL, FALSE, FALSE},
    {"batch", K_TEXT, FALSE, FALSE},       {"shard", K_TEXT, FALSE, FALSE},
    {"jobs", K_TEXT, FALSE, TRUE},         {"output", K_TEXT, FALSE, TRUE},
};

typedef struct {
    char *value;
    char *origin; /* "FILE:LINE" for a field read from a file, NULL for a flag */
} fval;

static void fval_free(gpointer p)
{
    fval *v = p;
    g_free(v->value);
    g_free(v->origin);
    g_free(v);
}

static int field_index(const char *name)
{
    for (guint i = 0; i < G_N_ELEMENTS(schema); i++)
        if (!strcmp(schema[i].name, name))
            return (int)i;
    return -1;
}

GHashTable *pact_exp_new(void)
{
    return g_hash_table_new_full(g_str_hash, g_str_equal, g_free, fval_free);
}

gboolean pact_exp_known(const char *name)
{
    return field_index(name) >= 0;
}

void pact_exp_set(GHashTable *f, const char *name, const char *value, const char *origin)
{
    fval *v = g_new0(fval, 1);
    v->value = g_strdup(value);
    v->origin = g_strdup(origin);
    g_hash_table_replace(f, g_strdup(name), v);
}

static const char *get(GHashTable *f, const char *name)
{
    fval *v = g_hash_table_lookup(f, name);
    return v ? v->value : NULL;
}

/* How messages name a field: "--sizes" for a flag, "exp.yaml:7: sizes" for a file's field. */
static char *what(GHashTable *f, const char *name)
{
    fval *v = g_hash_table_lookup(f, name);
    return v && v->origin ? g_strdup_printf("%s: %s", v->origin, name) : g_strdup_printf("--%s", name);
}

/* ---- YAML -------------------------------------------------------------------------------------------- */

static gboolean yfail(GError **err, const char *path, const yaml_node_t *n, const char *fmt, ...)
    G_GNUC_PRINTF(4, 5);

static gboolean yfail(GError **err, const char *path, const yaml_node_t *n, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    g_autofree char *msg = g_strdup_vprintf(fmt, ap);
    va_end(ap);
    g_set_error(err, PACT_ERROR, PACT_ERROR_INPUT, "%s:%d: %s", path, (int)n->start_mark.line + 1, msg);
    return FALSE;
}

/* A path given in the file is relative to the file's folder; stored absolute so experiment.yaml is stable. */
static char *resolve(const char *dir, const char *p)
{
    return g_path_is_absolute(p) ? g_strdup(p) : g_canonicalize_filename(p, dir);
}

static char *resolve_item(const char *name, const char *dir, const char *item)
{
    if (!strcmp(name, "patterns") && g_str_has_prefix(item, "file:")) {
        g_autofree char *p = resolve(dir, item + 5);
        return g_strconcat("file:", p, NULL);
    }
    if ((!strcmp(name, "platform") && (g_str_has_suffix(item, ".xml") || g_str_has_suffix(item, ".yaml") ||
                                       g_str_has_suffix(item, ".yml"))) ||
        !strcmp(name, "hostfile"))
        return resolve(dir, item);
    return g_strdup(item);
}

void pact_exp_set_flag(GHashTable *f, const char *name, const char *value)
{
    g_autofree char *cwd = g_get_current_dir();
    g_auto(GStrv) items = g_strsplit(value, ",", -1);
    GString *v = g_string_new(NULL);
    for (int i = 0; items[i]; i++) {
        g_autofree char *it = resolve_item(name, cwd, g_strstrip(items[i]));
        g_string_append_printf(v, "%s%s", i ? "," : "", it);
    }
    pact_exp_set(f, name, v->str, NULL);
    g_string_free(v, TRUE);
    /* skew (absolute) and skew-factor (with skew-mode) are one setting: a flag for either replaces the file's
     * other one, as flags override the file (both as flags is still an error). */
    const char *other[] = {NULL, NULL};
    if (!strcmp(name, "skew"))
        other[0] = "skew-factor", other[1] = "skew-mode";
    else if (!strcmp(name, "skew-factor") || !strcmp(name, "skew-mode"))
        other[0] = "skew";
    for (int i = 0; i < 2 && other[i]; i++) {
        fval *o = g_hash_table_lookup(f, other[i]);
        if (o && o->origin)
            g_hash_table_remove(f, other[i]);
    }
}

gboolean pact_exp_read(GHashTable *f, const char *path, GError **err)
{
    g_autofree char *text = NULL;
    gsize len = 0;
    GError *e = NULL;
    if (!g_file_get_contents(path, &text, &len, &e)) {
        g_set_error(err, PACT_ERROR, PACT_ERROR_INPUT, "%s", e->message);
        g_error_free(e);
        return FALSE;
    }
    yaml_parser_t parser;
    yaml_document_t doc;
    yaml_parser_initialize(&parser);
    yaml_parser_set_input_string(&parser, (const unsigned char *)text, len);
    if (!yaml_parser_load(&parser, &doc)) {
        g_set_error(err, PACT_ERROR, PACT_ERROR_INPUT, "%s:%d: %s", path, (int)parser.problem_mark.line + 1,
                    parser.problem ? parser.problem : "malformed YAML");
        yaml_parser_delete(&parser);
        return FALSE;
    }
    yaml_parser_delete(&parser);
    g_autofree char *abs = g_canonicalize_filename(path, NULL);
    g_autofree char *dir = g_path_get_dirname(abs);
    gboolean ok = FALSE;
    GHashTable *seen = g_hash_table_new(g_str_hash, g_str_equal);
    yaml_node_t *root = yaml_document_get_root_node(&doc);
    if (!root) {
        g_set_error(err, PACT_ERROR, PACT_ERROR_INPUT, "%s: empty experiment file", path);
        goto out;
    }
    if (root->type != YAML_MAPPING_NODE) {
        yfail(err, path, root, "expected a mapping of fields (pact sim's flags without --)");
        goto out;
    }
    for (yaml_node_pair_t *pr = root->data.mapping.pairs.start; pr < root->data.mapping.pairs.top; pr++) {
        yaml_node_t *k = yaml_document_get_node(&doc, pr->key), *v = yaml_document_get_node(&doc, pr->value);
        if (k->type != YAML_SCALAR_NODE) {
            yfail(err, path, k, "expected a field name");
            goto out;
        }
        g_autofree char *name = g_strdup((const char *)k->data.scalar.value);
        g_strdelimit(name, "_", '-');
        int fi = field_index(name);
        if (fi < 0 || !strcmp(name, "jobs") || !strcmp(name, "output")) {
            GString *names = g_string_new(NULL);
            for (guint i = 0; i < G_N_ELEMENTS(schema); i++)
                if (!schema[i].run)
                    g_string_append_printf(names, "%s%s", i ? ", " : "", schema[i].name);
            yfail(err, path, k, "unknown field '%s' (fields: %s; jobs and output are flags)",
                  (const char *)k->data.scalar.value, names->str);
            g_string_free(names, TRUE);
            goto out;
        }
        if (g_hash_table_contains(seen, schema[fi].name)) {
            yfail(err, path, k, "field '%s' given twice", name);
            goto out;
        }
        g_hash_table_add(seen, (gpointer)schema[fi].name);
        GString *val = g_string_new(NULL);
        if (v->type == YAML_SCALAR_NODE) {
            g_auto(GStrv) items = g_strsplit((const char *)v->data.scalar.value, ",", -1);
            for (int i = 0; items[i]; i++) {
                g_autofree char *it = resolve_item(name, dir, g_strstrip(items[i]));
                g_string_append_printf(val, "%s%s", i ? "," : "", it);
            }
        } else if (v->type == YAML_SEQUENCE_NODE && schema[fi].kind == K_LIST) {
            for (yaml_node_item_t *it = v->data.sequence.items.start; it < v->data.sequence.items.top; it++) {
                yaml_node_t *n = yaml_document_get_node(&doc, *it);
                if (n->type != YAML_SCALAR_NODE) {
                    g_string_free(val, TRUE);
                    yfail(err, path, n, "%s: expected a list of plain values", name);
                    goto out;
                }
                g_autofree char *r = resolve_item(name, dir, (const char *)n->data.scalar.value);
                if (strchr(r, ',')) {
                    g_string_free(val, TRUE);
                    yfail(err, path, n, "%s: one value per list item, '%s' has a comma", name, r);
                    goto out;
                }
                g_string_append_printf(val, "%s%s", val->len ? "," : "", r);
            }
            if (val->len == 0) {
                g_string_free(val, TRUE);
                yfail(err, path, v, "%s: empty list", name);
                goto out;
            }
        } else {
            g_string_free(val, TRUE);
            yfail(err, path, v, "%s: expected %s", name,
                  schema[fi].kind == K_LIST ? "a value or a list of values" : "a single value");
            goto out;
        }
        if (schema[fi].kind == K_BOOL && strcmp(val->str, "true") && strcmp(val->str, "false")) {
            yfail(err, path, v, "%s: expected true or false, got '%s'", name, val->str);
            g_string_free(val, TRUE);
            goto out;
        }
        g_autofree char *origin = g_strdup_printf("%s:%d", path, (int)k->start_mark.line + 1);
        pact_exp_set(f, schema[fi].name, val->str, origin);
        g_string_free(val, TRUE);
    }
    ok = TRUE;
out:
    g_hash_table_destroy(seen);
    yaml_document_delete(&doc);
    return ok;
}

/* A double-quoted YAML scalar. */
static void put_quoted(GString *o, const char *v)
{
    g_string_append_c(o, '"');
    for (const char *p = v; *p; p++) {
        if (*p == '"' || *p == '\\')
            g_string_append_c(o, '\\');
        g_string_append_c(o, *p);
    }
    g_string_append_c(o, '"');
}

char *pact_exp_dump(GHashTable *f, gboolean with_shard)
{
    GString *o = g_string_new("# pact sim experiment (canonical form: resume and pact merge compare it)\n");
    for (guint i = 0; i < G_N_ELEMENTS(schema); i++) {
        const char *v = get(f, schema[i].name);
        if (!v || schema[i].run || (!with_shard && !strcmp(schema[i].name, "shard")))
            continue;
        if (schema[i].kind == K_LIST) {
            g_auto(GStrv) items = g_strsplit(v, ",", -1);
            g_string_append_printf(o, "%s: [", schema[i].name);
            for (int k = 0; items[k]; k++) {
                g_string_append(o, k ? ", " : "");
                put_quoted(o, g_strstrip(items[k]));
            }
            g_string_append(o, "]\n");
        } else {
            g_string_append_printf(o, "%s: ", schema[i].name);
            put_quoted(o, v);
            g_string_append_c(o, '\n');
        }
    }
    return g_string_free(o, FALSE);
}

/* ---- the files an experiment reads ------------------------------------------------------------------ */

/* experiment.yaml names its files by path only: a platform YAML or a pattern file edited between a run and
 * its resume would mix rows of both.  The SHA-256 of each follows the fields as comments (the YAML reader
 * skips them, so merge reads the file as before), one "# sha256 HEX PATH" per file. */
#define DIGEST_TAG "# sha256 "

static gboolean add_digest(GString *o, GHashTable *seen, const char *path, GError **err)
{
    if (g_hash_table_contains(seen, path))
        return TRUE;
    g_autofree char *text = NULL;
    gsize len = 0;
    GError *e = NULL;
    if (!g_file_get_contents(path, &text, &len, &e)) {
        g_set_error(err, PACT_ERROR, PACT_ERROR_INPUT, "%s", e->message);
        g_error_free(e);
        return FALSE;
    }
    g_autofree char *hex = g_compute_checksum_for_data(G_CHECKSUM_SHA256, (const guchar *)text, len);
    g_string_append_printf(o, DIGEST_TAG "%s %s\n", hex, path);
    g_hash_table_add(seen, g_strdup(path));
    return TRUE;
}

/* The digest lines of every file the fields name: platform files, the hostfile, file:PATH patterns. */
static gboolean add_digests(GHashTable *f, GString *o, GError **err)
{
    g_autoptr(GHashTable) seen = g_hash_table_new_full(g_str_hash, g_str_equal, g_free, NULL);
    const char *names[] = {"platform", "hostfile", "patterns"};
    for (guint n = 0; n < G_N_ELEMENTS(names); n++) {
        const char *v = get(f, names[n]);
        if (!v)
            continue;
        g_auto(GStrv) items = g_strsplit(v, ",", -1);
        for (int i = 0; items[i]; i++) {
            const char *it = g_strstrip(items[i]), *path = NULL;
            if (n == 2)
                path = g_str_has_prefix(it, "file:") ? it + 5 : NULL;
            else if (n == 1 || g_str_has_suffix(it, ".xml") || g_str_has_suffix(it, ".yaml") ||
                     g_str_has_suffix(it, ".yml"))
                path = it;
            if (path && !add_digest(o, seen, path, err))
                return FALSE;
        }
    }
    return TRUE;
}

/* The text without its digest lines, and the digests by path. */
static char *split_digests(const char *text, GHashTable *digests)
{
    GString *rest = g_string_new(NULL);
    g_auto(GStrv) lines = g_strsplit(text, "\n", -1);
    for (int i = 0; lines[i]; i++) {
        if (g_str_has_prefix(lines[i], DIGEST_TAG)) {
            const char *hex = lines[i] + strlen(DIGEST_TAG), *sp = strchr(hex, ' ');
            if (sp)
                g_hash_table_replace(digests, g_strdup(sp + 1), g_strndup(hex, (gsize)(sp - hex)));
            continue;
        }
        g_string_append(rest, lines[i]);
        if (lines[i + 1])
            g_string_append_c(rest, '\n');
    }
    return g_string_free(rest, FALSE);
}

gboolean pact_exp_same(const char *old, const char *now, const char *outdir, gboolean files_only,
                       GError **err)
{
    g_autoptr(GHashTable) od = g_hash_table_new_full(g_str_hash, g_str_equal, g_free, g_free);
    g_autoptr(GHashTable) nd = g_hash_table_new_full(g_str_hash, g_str_equal, g_free, g_free);
    g_autofree char *o = split_digests(old, od), *n = split_digests(now, nd);
    if (!files_only && strcmp(o, n)) {
        g_set_error(err, PACT_ERROR, PACT_ERROR_INPUT,
                    "-o %s: holds another experiment (its experiment.yaml differs from this one); choose "
                    "another folder, or give the same settings to resume it",
                    outdir);
        return FALSE;
    }
    GHashTableIter it;
    gpointer path, hex;
    g_hash_table_iter_init(&it, nd);
    while (g_hash_table_iter_next(&it, &path, &hex)) {
        const char *was = g_hash_table_lookup(od, path); /* none: a folder from before the digests */
        if (was && strcmp(was, hex)) {
            g_set_error(
                err, PACT_ERROR, PACT_ERROR_INPUT,
                "%s: changed since the run in %s began (sha256 %.12s..., now %.12s...); its rows would "
                "mix both: restore the file or choose another folder",
                (char *)path, outdir, was, (char *)hex);
            return FALSE;
        }
    }
    return TRUE;
}

/* ---- building the studies ------------------------------------------------------------------------------ */

/* Re-labels an error about "--NAME" with the file and line the field came from. */
static void relabel(GHashTable *f, GError *e)
{
    if (!e || !g_str_has_prefix(e->message, "--"))
        return;
    for (guint i = 0; i < G_N_ELEMENTS(schema); i++) {
        size_t n = strlen(schema[i].name);
        fval *v = g_hash_table_lookup(f, schema[i].name);
        if (strncmp(e->message + 2, schema[i].name, n) ||
            (e->message[2 + n] != ':' && e->message[2 + n] != ' '))
            continue;
        if (v && v->origin) {
            char *m = g_strdup_printf("%s: %s%s", v->origin, schema[i].name, e->message + 2 + n);
            g_free(e->message);
            e->message = m;
        }
        return;
    }
}

static gboolean parse_int(GHashTable *f, const char *name, const char *text, int lo, int *out, GError **err)
{
    gint64 v;
    if (!g_ascii_string_to_signed(text, 10, lo, G_MAXINT, &v, NULL)) {
        g_autofree char *w = what(f, name);
        g_set_error(err, PACT_ERROR, PACT_ERROR_INPUT, "%s %s: expected a whole number >= %d", w, text, lo);
        return FALSE;
    }
    *out = (int)v;
    return TRUE;
}

void pact_experiment_init(pact_experiment *e)
{
    memset(e, 0, sizeof(*e));
    e->studies = g_ptr_array_new();
    e->jobs = 1;
    e->figures = TRUE;
    e->batch = PACT_BATCH_SIZE;
}

void pact_experiment_clear(pact_experiment *e)
{
    for (guint i = 0; e->studies && i < e->studies->len; i++) {
        pact_sweep_clear(e->studies->pdata[i]);
        g_free(e->studies->pdata[i]);
    }
    if (e->studies)
        g_ptr_array_unref(e->studies);
    g_free(e->outdir);
    g_free(e->text);
    memset(e, 0, sizeof(*e));
}

static const char *const batch_names[] = {"alg", "size", "cell"};

/* Field `name`'s value `v` as one of `n` names; *out gets values[i] of the name it is (the names in the order
 * the message lists them). */
static gboolean choose(GHashTable *f, const char *name, const char *v, const char *const *names,
                       const int *values, guint n, int *out, GError **err)
{
    for (guint i = 0; i < n; i++)
        if (!strcmp(v, names[i])) {
            *out = values[i];
            return TRUE;
        }
    GString *list = g_string_new(NULL);
    for (guint i = 0; i < n; i++)
        g_string_append_printf(list, "%s%s", i == 0 ? "" : i + 1 < n ? ", " : " or ", names[i]);
    g_autofree char *w = what(f, name);
    g_set_error(err, PACT_ERROR, PACT_ERROR_INPUT, "%s %s: expected %s", w, v, list->str);
    g_string_free(list, TRUE);
    return FALSE;
}

/* The settings every study shares, from the fields into a study. */
static gboolean common(GHashTable *f, pact_sweep *s, GError **err)
{
    const char *v;
    g_autofree char *w = NULL;
    int k;
    if ((v = get(f, "ranks-on"))) {
        if (!choose(f, "ranks-on", v, (const char *const[]){"cores", "gpus"},
                    (const int[]){PACT_ON_CORES, PACT_ON_GPUS}, 2, &k, err))
            return FALSE;
        s->ranks_on = (pact_ranks_on)k;
    }
    if ((v = get(f, "rails"))) {
        if (!choose(f, "rails", v, (const char *const[]){"sharing", "binding"},
                    (const int[]){PACT_RAILS_SHARING, PACT_RAILS_BINDING}, 2, &k, err))
            return FALSE;
        s->rails = k;
    }
    if ((v = get(f, "mapping"))) {
        w = what(f, "mapping");
        if (!pact_mapping_parse(v, w, &s->mapping, err))
            return FALSE;
        g_clear_pointer(&w, g_free);
    }
    w = what(f, "sizes");
    if (!pact_parse_size_list((v = get(f, "sizes")) ? v : "8,1K,64K,1M", w, s->sizes, err))
        return FALSE;
    g_clear_pointer(&w, g_free);
    w = what(f, "patterns");
    if (!pact_split_list((v = get(f, "patterns")) ? v : "no_delay,last_delayed", w, s->patterns, err))
        return FALSE;
    g_clear_pointer(&w, g_free);
    const char *skew = get(f, "skew"), *factor = get(f, "skew-factor"), *mode = get(f, "skew-mode");
    if (skew && factor) {
        g_set_error(err, PACT_ERROR, PACT_ERROR_INPUT, "skew and skew-factor: give one of them");
        return FALSE;
    }
    if (skew && mode) {
        w = what(f, "skew-mode");
        g_set_error(err, PACT_ERROR, PACT_ERROR_INPUT,
                    "%s %s: goes with skew-factor (skew is absolute seconds)", w, mode);
        return FALSE;
    }
    if (skew) {
        s->skew_mode = PACT_SKEW_ABSOLUTE;
        w = what(f, "skew");
        if (!pact_parse_seconds(skew, w, &s->skew, err) || !pact_skew_check(s->skew, FALSE, w, err))
            return FALSE;
        g_clear_pointer(&w, g_free);
    } else {
        int m = mode ? pact_skew_mode_parse(mode) : PACT_SKEW_MEAN_NODELAY;
        if (m <= PACT_SKEW_ABSOLUTE) {
            w = what(f, "skew-mode");
            g_set_error(err, PACT_ERROR, PACT_ERROR_INPUT,
                        "%s %s: expected mean_nodelay, own_nodelay or mif (absolute seconds: skew)", w, mode);
            return FALSE;
        }
        s->skew_mode = (pact_skew_mode)m;
        char *end = NULL;
        s->skew = factor ? g_ascii_strtod(factor, &end) : 1.5;
        if (factor && (end == factor || *end || !(s->skew >= 0) || !isfinite(s->skew))) {
            w = what(f, "skew-factor");
            g_set_error(err, PACT_ERROR, PACT_ERROR_INPUT, "%s %s: expected a number >= 0", w, factor);
            return FALSE;
        }
        if (factor) {
            w = what(f, "skew-factor");
            if (!pact_skew_check(s->skew, TRUE, w, err))
                return FALSE;
            g_clear_pointer(&w, g_free);
        }
    }
    if ((v = get(f, "engine"))) {
        if (!choose(f, "engine", v, (const char *const[]){"smpi", "replay", "model"},
                    (const int[]){PACT_ENGINE_SMPI, PACT_ENGINE_REPLAY, PACT_ENGINE_MODEL}, 3, &k, err))
            return FALSE;
        s->engine = (pact_engine)k;
    }
    if ((v = get(f, "reps")) && !parse_int(f, "reps", v, 1, &s->reps, err))
        return FALSE;
    if ((v = get(f, "root")) && !parse_int(f, "root", v, 0, &s->root, err))
        return FALSE;
    if ((v = get(f, "seed"))) {
        guint64 seed;
        if (!g_ascii_string_to_unsigned(v, 10, 0, G_MAXUINT64, &seed, NULL)) {
            w = what(f, "seed");
            g_set_error(err, PACT_ERROR, PACT_ERROR_INPUT, "%s %s: expected a whole number >= 0", w, v);
            return FALSE;
        }
        s->seed = seed;
    }
    if ((v = get(f, "gamma"))) {
        w = what(f, "gamma");
        if (!pact_parse_seconds(v, w, &s->gamma, err))
            return FALSE;
        g_clear_pointer(&w, g_free);
    }
    if ((v = get(f, "dtype"))) {
        g_free(s->dtype);
        s->dtype = g_strdup(v);
    }
    if ((v = get(f, "op"))) {
        g_free(s->op);
        s->op = g_strdup(v);
    }
    s->check = !g_strcmp0(get(f, "check"), "true");
    return TRUE;
}

/* The algorithms of one study: `all`, or the listed names that exist for its collective. */
static gboolean study_algs(GHashTable *f, pact_sweep *s, GError **err)
{
    const char *v = get(f, "algs");
    if (!v || !strcmp(v, "all")) {
        for (size_t i = 0; i < pact_alg_count(); i++)
            if (pact_alg_at(i)->coll == s->coll)
                g_ptr_array_add(s->algs, g_strdup(pact_alg_at(i)->name));
        return TRUE;
    }
    g_autofree char *w = what(f, "algs");
    g_autoptr(GPtrArray) all = g_ptr_array_new_with_free_func(g_free);
    if (!pact_split_list(v, w, all, err))
        return FALSE;
    g_auto(GStrv) colls = g_strsplit(get(f, "coll") ? get(f, "coll") : "allreduce", ",", -1);
    for (guint i = 0; i < all->len; i++) {
        const char *a = all->pdata[i];
        g_auto(GStrv) base = g_strsplit(a, ":", 2);
        if (g_str_has_prefix(a, "smpi:") || pact_alg_find(s->coll, base[0]) || g_strv_length(colls) == 1)
            g_ptr_array_add(s->algs, g_strdup(a)); /* one collective: validate names the unknown ones */
        else {
            gboolean any = FALSE;
            for (int c = 0; colls[c]; c++) {
                int cc = pact_coll_from_name(g_strstrip(colls[c]));
                any |= cc >= 0 && pact_alg_find((pact_coll)cc, base[0]) != NULL;
            }
            if (!any) {
                g_set_error(err, PACT_ERROR, PACT_ERROR_INPUT,
                            "%s: '%s' is an algorithm of none of the collectives (pact list algorithms)", w,
                            base[0]);
                return FALSE;
            }
        }
    }
    if (s->algs->len == 0) {
        g_set_error(err, PACT_ERROR, PACT_ERROR_INPUT, "%s: no algorithm of %s listed", w,
                    pact_coll_name(s->coll));
        return FALSE;
    }
    return TRUE;
}

gboolean pact_experiment_build(GHashTable *f, pact_experiment *e, GError **err)
{
    GError *e2 = NULL;
    const char *v;
    g_autofree char *w = NULL;
    g_autoptr(GPtrArray) platforms = g_ptr_array_new_with_free_func(g_free);
    g_autoptr(GPtrArray) colls = g_ptr_array_new_with_free_func(g_free);
    g_autoptr(GArray) nodes = g_array_new(FALSE, FALSE, sizeof(int));
    g_autoptr(GArray) ppns = g_array_new(FALSE, FALSE, sizeof(int));
    if ((v = get(f, "jobs")) && !parse_int(f, "jobs", v, 1, &e->jobs, &e2))
        goto fail;
    if ((v = get(f, "batch"))) {
        int b;
        if (!choose(f, "batch", v, batch_names,
                    (const int[]){PACT_BATCH_ALG, PACT_BATCH_SIZE, PACT_BATCH_CELL},
                    G_N_ELEMENTS(batch_names), &b, &e2))
            goto fail;
        e->batch = (pact_batch)b;
    }
    if ((v = get(f, "shard"))) {
        int k = 0, n = 0;
        char tail = 0;
        if (sscanf(v, "%d/%d%c", &k, &n, &tail) != 2 || n < 1 || k < 1 || k > n) {
            w = what(f, "shard");
            g_set_error(&e2, PACT_ERROR, PACT_ERROR_INPUT, "%s %s: expected K/N with 1 <= K <= N", w, v);
            goto fail;
        }
        e->shard_k = k;
        e->shard_n = n;
    }
    w = what(f, "platform");
    if (!pact_split_list((v = get(f, "platform")) ? v : "generic32x32", w, platforms, &e2))
        goto fail;
    g_clear_pointer(&w, g_free);
    w = what(f, "coll");
    if (!pact_split_list((v = get(f, "coll")) ? v : "allreduce", w, colls, &e2))
        goto fail;
    g_clear_pointer(&w, g_free);
    const char *lists[] = {"nodes", "ppn"};
    GArray *outs[] = {nodes, ppns};
    for (int l = 0; l < 2; l++) {
        g_autoptr(GPtrArray) items = g_ptr_array_new_with_free_func(g_free);
        w = what(f, lists[l]);
        if (!pact_split_list((v = get(f, lists[l])) ? v : l == 0 ? "2" : "0", w, items, &e2))
            goto fail;
        g_clear_pointer(&w, g_free);
        for (guint i = 0; i < items->len; i++) {
            int n;
            /* ppn 0: every core of the node (the default) */
            if (!parse_int(f, lists[l], items->pdata[i], l == 0 || get(f, "ppn") ? 1 : 0, &n, &e2))
                goto fail;
            g_array_append_val(outs[l], n);
        }
    }
    for (guint i = 0; i < colls->len; i++)
        if (pact_coll_from_name(colls->pdata[i]) < 0) {
            w = what(f, "coll");
            g_set_error(&e2, PACT_ERROR, PACT_ERROR_INPUT,
                        "%s %s: unknown collective (%s)", w, (char *)colls->pdata[i], pact_coll_list());
            goto fail;
        }
    const char *hostfile = get(f, "hostfile");
    for (guint pi = 0; pi < platforms->len; pi++) {
        const char *pl = platforms->pdata[pi];
        gboolean xml = g_str_has_suffix(pl, ".xml");
        const pact_platform *plat = NULL;
        if (!xml && hostfile) {
            w = what(f, "hostfile");
            g_set_error(&e2, PACT_ERROR, PACT_ERROR_INPUT, "%s: goes with a SimGrid XML platform", w);
            goto fail;
        }
        if (!xml && !(plat = pact_platform_get(pl, &e2))) {
            fval *fv = g_hash_table_lookup(f, "platform");
            if (fv && fv->origin) {
                char *m = g_strdup_printf("%s: platform: %s", fv->origin, e2->message);
                g_free(e2->message);
                e2->message = m;
            }
            goto fail;
        }
        for (guint ni = 0; ni < nodes->len; ni++)
            for (guint ki = 0; ki < ppns->len; ki++)
                for (guint ci = 0; ci < colls->len; ci++) {
                    pact_sweep *s = g_new0(pact_sweep, 1);
                    pact_sweep_init(s);
                    g_ptr_array_add(e->studies, s);
                    s->platform = plat;
                    if (xml) {
                        s->user_xml = g_strdup(pl);
                        s->user_hostfile = g_strdup(hostfile);
                    }
                    s->nodes = g_array_index(nodes, int, ni);
                    s->ppn = g_array_index(ppns, int, ki);
                    s->coll = (pact_coll)pact_coll_from_name(colls->pdata[ci]);
                    if (!common(f, s, &e2) || !study_algs(f, s, &e2) || !pact_sweep_validate(s, &e2))
                        goto fail;
                }
    }
    /* Two studies that come out the same (an XML's hostfile fixes nodes and ppn) would duplicate rows. */
    for (guint i = 0; i < e->studies->len; i++)
        for (guint j = 0; j < i; j++) {
            pact_sweep *a = e->studies->pdata[i], *b = e->studies->pdata[j];
            if (a->platform == b->platform && !g_strcmp0(a->user_xml, b->user_xml) && a->nodes == b->nodes &&
                a->ppn == b->ppn && a->coll == b->coll) {
                g_set_error(&e2, PACT_ERROR, PACT_ERROR_INPUT,
                            "two studies are the same (%s, %d nodes x %d ppn, %s): check the nodes and ppn "
                            "lists",
                            a->platform ? a->platform->name : a->user_xml, a->nodes, a->ppn,
                            pact_coll_name(a->coll));
                goto fail;
            }
        }
    e->text = pact_exp_dump(f, TRUE);
    GString *t = g_string_new(e->text);
    if (!add_digests(f, t, &e2)) {
        g_string_free(t, TRUE);
        goto fail;
    }
    g_free(e->text);
    e->text = g_string_free(t, FALSE);
    if ((v = get(f, "output"))) {
        e->outdir = g_strdup(v);
    } else {
        g_autoptr(GDateTime) now = g_date_time_new_now_local();
        g_autofree char *stamp = g_date_time_format(now, "%Y%m%d-%H%M%S");
        e->outdir = g_strdup_printf("results/sim-%s", stamp);
        e->outdir_default = TRUE;
    }
    return TRUE;
fail:
    relabel(f, e2);
    g_propagate_error(err, e2);
    return FALSE;
}
