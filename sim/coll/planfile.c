/* planfile.c - the plan file, the one format in which the sweep (sim/study/engines.c) hands the bench driver
 * (sim/rank/bench.c) the cells of one simulation: written and read here only. */
#include "pact_coll.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int pact_plan_line_format(const pact_plan_line *l, char *buf, size_t len)
{
    int n = snprintf(buf, len, "%s %s %s %zu %s %s %d %d %.17g %s %s\n", l->id, pact_coll_name(l->coll), l->alg,
                     l->count, l->dtype, l->op, l->root, l->reps, l->gamma, l->pattern[0] ? l->pattern : "-",
                     l->params[0] ? l->params : "-");
    return n < 0 || (size_t)n >= len || strpbrk(l->pattern, " \t\n") ? PACT_ERR_ARG : PACT_OK;
}

int pact_plan_line_parse(const char *line, pact_plan_line *l)
{
    char coll[32], count[32], params[sizeof l->params] = "-", *end;
    memset(l, 0, sizeof(*l));
    int n = sscanf(line, "%63s %31s %63s %31s %15s %15s %d %d %lf %4095s %255s", l->id, coll, l->alg, count,
                   l->dtype, l->op, &l->root, &l->reps, &l->gamma, l->pattern, params);
    int c = n >= 10 ? pact_coll_from_name(coll) : -1;
    errno = 0;
    unsigned long long v = c >= 0 && count[0] >= '0' && count[0] <= '9' ? strtoull(count, &end, 10) : 0;
    if (c < 0 || errno || !(count[0] >= '0' && count[0] <= '9') || *end || l->reps < 1 || !(l->gamma >= 0))
        return PACT_ERR_ARG;
    l->coll = (pact_coll)c;
    l->count = (size_t)v;
    if (!strcmp(l->pattern, "-"))
        l->pattern[0] = 0;
    snprintf(l->params, sizeof l->params, "%s", strcmp(params, "-") ? params : "");
    return PACT_OK;
}
