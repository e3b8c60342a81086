/* cmd_list.c - pact list algorithms|collectives|platforms|patterns. */
#include <stdio.h>
#include <string.h>

#include "pact_cli.h"
#include "pact_host.h"
#include "pact_patterns.h"
#include "pact_platforms.h"
#include "pact_coll.h"

static void restrictions(unsigned r, char *buf, size_t n)
{
    snprintf(buf, n, "%s%s%s%s%s%s%s%s%s%s%s", r & PACT_R_POF2 ? "pof2 " : "",
             r & PACT_R_COMMUTATIVE ? "commutative " : "", r & PACT_R_COUNT_GE_P ? "count>=P " : "",
             r & PACT_R_NOT_INPLACE ? "not-inplace " : "", r & PACT_R_INPLACE ? "inplace-only " : "",
             r & PACT_R_TWO_PROCS ? "P<=2 " : "", r & PACT_R_PLACE ? "nodes " : "",
             r & PACT_R_NODES ? "shared-node " : "", r & PACT_R_ORDER ? "arrival-order " : "",
             r & PACT_R_BYTE_SPLIT ? "byte-blocks " : "", r ? "" : "-");
    size_t l = strlen(buf);
    if (l > 1 && buf[l - 1] == ' ')
        buf[l - 1] = 0;
}

/* CSV field, quoted when it holds a comma or a quote. */
static void csv_field(const char *s, int last)
{
    s = s ? s : "";
    if (strpbrk(s, ",\"\n")) {
        putchar('"');
        for (; *s; s++) {
            if (*s == '"')
                putchar('"');
            putchar(*s);
        }
        putchar('"');
    } else {
        fputs(s, stdout);
    }
    putchar(last ? '\n' : ',');
}

static int list_algorithms(const char *coll, const char *format)
{
    int want = -1;
    if (coll && (want = pact_coll_from_name(coll)) < 0) {
        fprintf(stderr, "pact: --coll %s: unknown collective (%s)\n", coll, pact_coll_list());
        return 2;
    }
    int csv = !strcmp(format, "csv");
    if (!csv && strcmp(format, "table")) {
        fprintf(stderr, "pact: --format %s: expected table or csv\n", format);
        return 2;
    }
    /* What m is differs by collective (--sizes too): per process, or per block for alltoall and allgather. */
    GString *blocks = g_string_new(NULL);
    for (int c = 0; c < PACT_NCOLL; c++)
        if ((want < 0 || c == want) && pact_coll_m_per_block((pact_coll)c))
            g_string_append_printf(blocks, "%s%s", blocks->len ? ", " : "", pact_coll_name((pact_coll)c));
    if (csv)
        puts("collective,algorithm,ompi_id,mpich,smpi,smpi_params,restrictions,parameters,cost,source,m");
    else if (want >= 0)
        printf("%-14s %-20s %5s %-20s %-8s %-12s cost (m = bytes per %s)\n", "collective", "algorithm",
               "ompi", "mpich", "smpi", "restrictions",
               blocks->len ? "block: sent to each process" : "process");
    else
        printf("%-14s %-20s %5s %-20s %-8s %-12s cost (m = bytes per process; per block for %s)\n",
               "collective", "algorithm", "ompi", "mpich", "smpi", "restrictions", blocks->str);
    g_string_free(blocks, TRUE);
    for (size_t i = 0; i < pact_alg_count(); i++) {
        const pact_alg *a = pact_alg_at(i);
        if (want >= 0 && (int)a->coll != want)
            continue;
        char r[160], id[16], params[256] = "";
        restrictions(a->restrictions, r, sizeof(r));
        snprintf(id, sizeof(id), "%d", a->ompi_id);
        for (size_t k = 0; k < pact_alg_nparams(a); k++)
            snprintf(params + strlen(params), sizeof(params) - strlen(params), "%s%s=%ld", k ? " " : "",
                     a->params[k].name, a->params[k].def);
        if (csv) {
            csv_field(pact_coll_name(a->coll), 0);
            csv_field(a->name, 0);
            csv_field(a->ompi_id ? id : "", 0);
            csv_field(a->mpich, 0);
            csv_field(a->smpi, 0);
            csv_field(a->smpi_params, 0);
            csv_field(r, 0);
            csv_field(params, 0);
            csv_field(a->cost, 0);
            csv_field(a->source, 0);
            csv_field(pact_coll_m_per_block(a->coll) ? "bytes per block" : "bytes per process", 1);
        } else {
            printf("%-14s %-20s %5s %-20s %-8s %-12s %s\n", pact_coll_name(a->coll), a->name,
                   a->ompi_id ? id : "-", a->mpich ? a->mpich : "-", a->smpi ? a->smpi : "-", r, a->cost);
        }
    }
    return 0;
}

/* The traits table (sim/coll/collectives.inc): what a size counts and what in place means. */
static void list_collectives(void)
{
    static const char *const shape[] = {"-", "count", "count at root", "count x P", "own block of count"};
    static const char *const inpl[] = {"no", "yes", "at the root", "own block of recv", "input in recv"};
    printf("%-22s %-6s %-7s %-10s %-18s %-18s %-18s %-15s %s\n", "collective", "rooted", "reduces", "size per",
           "send elements", "recv elements", "in place", "MPI call", "ompi rules id");
    for (int c = 0; c < PACT_NCOLL; c++) {
        const pact_coll_traits *t = pact_coll_traits_of((pact_coll)c);
        printf("%-22s %-6s %-7s %-10s %-18s %-18s %-18s %-15s %d\n", t->name, t->rooted ? "yes" : "no",
               t->reduces ? "yes" : "no", t->size_per == PACT_PER_BLOCK ? "block" : "process", shape[t->send],
               shape[t->recv], inpl[t->inplace], t->mpi, t->ompi_coll_id);
    }
}

int pact_cmd_list(int argc, char **argv)
{
    char *coll = NULL, *format = NULL;
    GOptionEntry entries[] = {
        {"coll", 0, 0, G_OPTION_ARG_STRING, &coll, "only this collective", "C"},
        {"format", 0, 0, G_OPTION_ARG_STRING, &format, "table (default) or csv", "F"},
        {NULL, 0, 0, 0, NULL, NULL, NULL},
    };
    GOptionContext *ctx = g_option_context_new("algorithms|collectives|platforms|patterns");
    g_option_context_set_summary(
        ctx, "Lists what pact knows.\n\nexample: pact list algorithms --coll allreduce --format csv");
    g_option_context_add_main_entries(ctx, entries, NULL);
    int rc = 2;
    if (!pact_cli_parse(ctx, &argc, &argv))
        goto out;
    if (argc != 2) {
        fprintf(stderr, "pact list: say what to list: algorithms, collectives, platforms or patterns\n");
        goto out;
    }
    if (!strcmp(argv[1], "algorithms")) {
        rc = list_algorithms(coll, format ? format : "table");
    } else if (!strcmp(argv[1], "collectives")) {
        list_collectives();
        rc = 0;
    } else if (!strcmp(argv[1], "platforms")) {
        for (size_t i = 0; i < pact_platform_count(); i++)
            printf("%-14s %s\n", pact_platform_at(i)->name, pact_platform_at(i)->description);
        rc = 0;
    } else if (!strcmp(argv[1], "patterns")) {
        for (const char *const *s = pact_pattern_shapes(); *s; s++)
            printf("%-16s %s\n", *s, pact_pattern_describe(*s));
        printf("%-16s %s\n", "file:PATH", pact_pattern_describe("file"));
        rc = 0;
    } else {
        fprintf(stderr, "pact list: unknown list '%s' (algorithms, collectives, platforms, patterns)\n", argv[1]);
    }
out:
    g_option_context_free(ctx);
    g_free(coll);
    g_free(format);
    return rc;
}
