/*
 * spec.c - the one parser of algorithm specs: NAME[:param=value...] as pact sim's --algs, pact replay's
 * --alg and the tuner write them, and the plan file's "param=value,param=value" (sim/rank/bench.c).
 * Values are sizes (digits with an optional K, M or G suffix, powers of 1024), so segsize=64K reads as
 * 65536.  Plain C: host tools and rank programs share it.
 */
#include "pact_coll.h"

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

size_t pact_alg_nparams(const pact_alg *a)
{
    size_t n = 0;
    while (a->params && a->params[n].name)
        n++;
    return n;
}

int pact_alg_param(const pact_alg *a, const char *name, size_t len)
{
    for (size_t k = 0; a->params && a->params[k].name; k++)
        if (strlen(a->params[k].name) == len && strncmp(a->params[k].name, name, len) == 0)
            return (int)k;
    return -1;
}

void pact_params_defaults(const pact_alg *a, long *values)
{
    for (size_t k = 0; k < pact_alg_nparams(a); k++)
        values[k] = a->params[k].def;
}

/* "expected NAME:param=value with param one of: a, b" (or "(none)"). */
static void expected(const pact_alg *a, char *why, size_t whylen)
{
    int n = snprintf(why, whylen, "expected %s:param=value with param one of: ", a->name);
    size_t np = pact_alg_nparams(a);
    for (size_t k = 0; k < np && n >= 0 && (size_t)n < whylen; k++)
        n += snprintf(why + n, whylen - (size_t)n, "%s%s", k ? ", " : "", a->params[k].name);
    if (np == 0 && n >= 0 && (size_t)n < whylen)
        snprintf(why + n, whylen - (size_t)n, "(none)");
}

int pact_params_parse(const pact_alg *a, const char *text, char sep, long *values, char *why, size_t whylen)
{
    unsigned char seen[64] = {0}; /* a parameter given twice; more than 64 parameters skip the check */
    for (const char *p = text; p && *p;) {
        const char *end = strchr(p, sep), *eq = memchr(p, '=', end ? (size_t)(end - p) : strlen(p));
        size_t len = end ? (size_t)(end - p) : strlen(p);
        int k = eq ? pact_alg_param(a, p, (size_t)(eq - p)) : -1;
        if (k < 0) {
            expected(a, why, whylen);
            return PACT_ERR_ARG;
        }
        char val[64];
        uint64_t v = 0;
        size_t vlen = len - (size_t)(eq + 1 - p);
        snprintf(val, sizeof val, "%.*s", (int)(vlen < sizeof val ? vlen : sizeof val - 1), eq + 1);
        if (vlen >= sizeof val || pact_parse_size(val, &v) != PACT_OK || v > LONG_MAX) {
            snprintf(why, whylen, "%s:%s=%.*s: expected a whole number of bytes (8, 1K, 64K, 1M)", a->name,
                     a->params[k].name, (int)vlen, eq + 1);
            return PACT_ERR_ARG;
        }
        if ((size_t)k < sizeof seen && seen[k]++) {
            snprintf(why, whylen, "parameter %s given twice", a->params[k].name);
            return PACT_ERR_ARG;
        }
        values[k] = (long)v;
        p = end ? end + 1 : NULL;
    }
    return PACT_OK;
}

int pact_spec_parse(pact_coll c, const char *spec, const pact_alg **alg, long **values, char *why,
                    size_t whylen)
{
    const char *colon = strchr(spec, ':');
    size_t len = colon ? (size_t)(colon - spec) : strlen(spec);
    *alg = NULL;
    *values = NULL;
    for (size_t i = 0; i < pact_alg_count() && !*alg; i++) {
        const pact_alg *a = pact_alg_at(i);
        if (a->coll == c && strlen(a->name) == len && strncmp(a->name, spec, len) == 0)
            *alg = a;
    }
    if (!*alg) {
        snprintf(why, whylen, "no such %s algorithm '%.*s' (pact list algorithms --coll %s)", pact_coll_name(c),
                 (int)len, spec, pact_coll_name(c));
        return PACT_ERR_ARG;
    }
    size_t np = pact_alg_nparams(*alg);
    if (!(*values = calloc(np ? np : 1, sizeof(long)))) {
        snprintf(why, whylen, "out of memory");
        return PACT_ERR_NOMEM;
    }
    pact_params_defaults(*alg, *values);
    int rc = pact_params_parse(*alg, colon ? colon + 1 : NULL, ':', *values, why, whylen);
    if (rc != PACT_OK) {
        free(*values);
        *values = NULL;
        *alg = NULL;
    }
    return rc;
}

int pact_params_format(const pact_alg *a, const long *values, char *buf, size_t len)
{
    int n = 0;
    buf[0] = 0;
    for (size_t k = 0; k < pact_alg_nparams(a); k++)
        if (values[k] != a->params[k].def) {
            n += snprintf(buf + n, len - (size_t)n, "%s%s=%ld", n ? "," : "", a->params[k].name, values[k]);
            if ((size_t)n >= len)
                return PACT_ERR_ARG;
        }
    return PACT_OK;
}
