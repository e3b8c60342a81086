/* cmd_platform.c - pact platform show NAME | export NAME --nodes N --ppn K -o DIR. */
#include <stdio.h>
#include <string.h>

#include "pact_cli.h"
#include "pact_host.h"
#include "pact_platforms.h"

int pact_cmd_platform(int argc, char **argv)
{
    char *mapping = NULL, *out = NULL;
    int nodes = 0, ppn = 0;
    GOptionEntry entries[] = {
        {"nodes", 0, 0, G_OPTION_ARG_INT, &nodes, "nodes to export (default: all)", "N"},
        {"ppn", 0, 0, G_OPTION_ARG_INT, &ppn, "processes per node (default: every core)", "K"},
        {"mapping", 0, 0, G_OPTION_ARG_STRING, &mapping, "block (default) or cyclic", "M"},
        {"output", 'o', 0, G_OPTION_ARG_FILENAME, &out, "folder for platform.xml and hostfile", "DIR"},
        {NULL, 0, 0, 0, NULL, NULL, NULL},
    };
    GOptionContext *ctx = g_option_context_new("show|export NAME");
    g_option_context_set_summary(ctx,
                                 "Shows a built-in machine or exports it to SimGrid.\n\n"
                                 "example: pact platform export generic32x32 --nodes 2 --ppn 32 -o /tmp/g");
    g_option_context_add_main_entries(ctx, entries, NULL);
    GError *err = NULL;
    int rc = 2;
    const pact_platform *p = NULL;
    if (!pact_cli_parse(ctx, &argc, &argv))
        goto out;
    if (argc != 3 || (strcmp(argv[1], "show") && strcmp(argv[1], "export"))) {
        fprintf(stderr, "pact platform: expected 'show NAME' or 'export NAME'\n");
        goto out;
    }
    if (!(p = pact_platform_find(argv[2]))) {
        fprintf(stderr, "pact platform: unknown machine '%s' (pact list platforms)\n", argv[2]);
        goto out;
    }
    if (!strcmp(argv[1], "show")) {
        printf("name         %s\ndescription  %s\nnodes        %d\ncores/node   %d\nbandwidth    %.6g B/s\n"
               "latency      %.3g s inter-node, %.3g s intra-node\ngamma        %.3g s/B\nsource       %s\n",
               p->name, p->description, p->nodes, p->cores, p->bw, 2 * p->lat_link, p->lat_intra, p->gamma,
               p->source);
        rc = 0;
        goto out;
    }
    if (!out) {
        fprintf(stderr, "pact platform export: -o DIR is required\n");
        goto out;
    }
    if (mapping && strcmp(mapping, "block") && strcmp(mapping, "cyclic")) {
        fprintf(stderr, "pact platform export: --mapping %s: expected block or cyclic\n", mapping);
        goto out;
    }
    if (g_mkdir_with_parents(out, 0755) != 0) {
        fprintf(stderr, "pact platform export: cannot create %s\n", out);
        rc = 1;
        goto out;
    }
    if (!pact_platform_export(p, nodes ? nodes : p->nodes, ppn ? ppn : p->cores,
                              mapping && !strcmp(mapping, "cyclic") ? PACT_MAP_CYCLIC : PACT_MAP_BLOCK, out,
                              &err)) {
        rc = pact_cli_fail(err);
        goto out;
    }
    rc = 0;
out:
    g_option_context_free(ctx);
    g_free(mapping);
    g_free(out);
    return rc;
}
