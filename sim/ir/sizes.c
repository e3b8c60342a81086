/* sizes.c - message sizes as people write them: 8, 1K, 64K, 1M, 2G (powers of 1024). */
#include "pact_ir.h"

#include <ctype.h>
#include <errno.h>
#include <stdlib.h>

int pact_parse_size(const char *s, uint64_t *out)
{
    char *end;
    if (!s || !isdigit((unsigned char)s[0]))
        return PACT_ERR_ARG;
    errno = 0;
    unsigned long long v = strtoull(s, &end, 10);
    if (errno)
        return PACT_ERR_ARG;
    unsigned shift = 0;
    switch (*end) {
    case 0:
        break;
    case 'k':
    case 'K':
        shift = 10;
        end++;
        break;
    case 'm':
    case 'M':
        shift = 20;
        end++;
        break;
    case 'g':
    case 'G':
        shift = 30;
        end++;
        break;
    default:
        return PACT_ERR_ARG;
    }
    if (*end == 'B' || *end == 'b') /* "1KB", "8B" */
        end++;
    if (*end || (shift && v > (UINT64_MAX >> shift)))
        return PACT_ERR_ARG;
    *out = (uint64_t)v << shift;
    return PACT_OK;
}
