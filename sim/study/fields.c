/*
 * fields.c - an experiment as named fields: read from a YAML file (each field keeps its file and line),
 * overridden by pact sim's flags, and written back as the canonical experiment.yaml of an output folder, with
 * a digest of every file the experiment reads (resume and merge compare them).
 */
#include "pact_run.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <string.h>
#include <yaml.h>

#include "exp_int.h"
#include "pact_host.h"

typedef enum { K_TEXT, K_LIST, K_BOOL } kind_t;

/* The fields, in the order experiment.yaml lists them.  `study` fields (lists) expand into studies. */
static const struct {
    const char *name;
    kind_t kind;
    gboolean study;
    gboolean run;  /* how to run, not what: left out of experiment.yaml */
    gboolean tune; /* pact tune's own (objective, source, target, segsizes): left out too; pact sim refuses them */
} schema[] = {
    {"platform", K_LIST, TRUE, FALSE, FALSE},     {"hostfile", K_TEXT, FALSE, FALSE, FALSE},
    {"ranks-on", K_TEXT, FALSE, FALSE, FALSE},    {"rails", K_TEXT, FALSE, FALSE, FALSE},
    {"nodes", K_LIST, TRUE, FALSE, FALSE},        {"ppn", K_LIST, TRUE, FALSE, FALSE},
    {"mapping", K_TEXT, FALSE, FALSE, FALSE},     {"coll", K_LIST, TRUE, FALSE, FALSE},
    {"algs", K_LIST, FALSE, FALSE, FALSE},        {"sizes", K_LIST, FALSE, FALSE, FALSE},
    {"patterns", K_LIST, FALSE, FALSE, FALSE},    {"skew", K_TEXT, FALSE, FALSE, FALSE},
    {"skew-factor", K_TEXT, FALSE, FALSE, FALSE}, {"skew-mode", K_TEXT, FALSE, FALSE, FALSE},
    {"reps", K_TEXT, FALSE, FALSE, FALSE},        {"engine", K_TEXT, FALSE, FALSE, FALSE},
    {"seed", K_TEXT, FALSE, FALSE, FALSE},        {"gamma", K_TEXT, FALSE, FALSE, FALSE},
    {"dtype", K_TEXT, FALSE, FALSE, FALSE},       {"op", K_TEXT, FALSE, FALSE, FALSE},
    {"root", K_TEXT, FALSE, FALSE, FALSE},        {"check", K_BOOL, FALSE, FALSE, FALSE},
    {"batch", K_TEXT, FALSE, FALSE, FALSE},       {"shard", K_TEXT, FALSE, FALSE, FALSE},
    {"jobs", K_TEXT, FALSE, TRUE, FALSE},         {"output", K_TEXT, FALSE, TRUE, FALSE},
    {"objective", K_TEXT, FALSE, FALSE, TRUE}, {"source", K_TEXT, FALSE, FALSE, TRUE},
    {"target", K_TEXT, FALSE, FALSE, TRUE},    {"segsizes", K_LIST, FALSE, FALSE, TRUE},
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

GHashTable *pact_exp_copy(GHashTable *f, gboolean tune_fields)
{
    GHashTable *c = pact_exp_new();
    GHashTableIter it;
    gpointer k, v;
    g_hash_table_iter_init(&it, f);
    while (g_hash_table_iter_next(&it, &k, &v))
        if (tune_fields || !pact_exp_tune_field(k))
            pact_exp_set(c, k, ((fval *)v)->value, ((fval *)v)->origin);
    return c;
}

gboolean pact_exp_tune_field(const char *name)
{
    int i = field_index(name);
    return i >= 0 && schema[i].tune;
}

void pact_exp_set(GHashTable *f, const char *name, const char *value, const char *origin)
{
    fval *v = g_new0(fval, 1);
    v->value = g_strdup(value);
    v->origin = g_strdup(origin);
    g_hash_table_replace(f, g_strdup(name), v);
}

const char *pact_exp_get(GHashTable *f, const char *name)
{
    fval *v = g_hash_table_lookup(f, name);
    return v ? v->value : NULL;
}

/* How messages name a field: "--sizes" for a flag, "exp.yaml:7: sizes" for a file's field. */
char *pact_exp_what(GHashTable *f, const char *name)
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
    if (!(text = pact_read_file(path, &len, err)))
        return FALSE;
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
        const char *v = pact_exp_get(f, schema[i].name);
        if (!v || schema[i].run || schema[i].tune || (!with_shard && !strcmp(schema[i].name, "shard")))
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
    if (!(text = pact_read_file(path, &len, err)))
        return FALSE;
    g_autofree char *hex = g_compute_checksum_for_data(G_CHECKSUM_SHA256, (const guchar *)text, len);
    g_string_append_printf(o, DIGEST_TAG "%s %s\n", hex, path);
    g_hash_table_add(seen, g_strdup(path));
    return TRUE;
}

/* The digest lines of every file the fields name: platform files, the hostfile, file:PATH patterns. */
gboolean pact_exp_add_digests(GHashTable *f, GString *o, GError **err)
{
    g_autoptr(GHashTable) seen = g_hash_table_new_full(g_str_hash, g_str_equal, g_free, NULL);
    const char *names[] = {"platform", "hostfile", "patterns"};
    for (guint n = 0; n < G_N_ELEMENTS(names); n++) {
        const char *v = pact_exp_get(f, names[n]);
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

/* Re-labels an error about "--NAME" with the file and line the field came from. */
void pact_exp_relabel(GHashTable *f, GError *e)
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


const char *pact_exp_origin(GHashTable *f, const char *name)
{
    fval *v = g_hash_table_lookup(f, name);
    return v ? v->origin : NULL;
}
