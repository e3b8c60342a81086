/*
 * pact_patterns.h - process arrival patterns: rank i arrives d_i in [0, s] after the earliest, s the
 * maximum skew (DESIGN.md "Arrival patterns").  Host side; the bench driver reads the files these write.
 */
#ifndef PACT_PATTERNS_H
#define PACT_PATTERNS_H

#include <glib.h>

/* Names of the shapes, NULL-terminated, in DESIGN.md's order. */
const char *const *pact_pattern_shapes(void);
/* One line describing a shape, or NULL for an unknown name. */
const char *pact_pattern_describe(const char *shape);

/* Fills d[0..p-1] for `shape` with maximum skew `skew` seconds.  `seed` drives the random shapes. */
gboolean pact_pattern_gen(const char *shape, int p, double skew, guint64 seed, double *d, GError **err);

/* Writes one delay per line (full precision) to `path`, atomically. */
gboolean pact_pattern_write(const char *path, const double *d, int p, const char *comment, GError **err);

#endif
