/* exp_int.h - what fields.c (an experiment's named fields) gives experiment.c (the studies built from them). */
#ifndef PACT_EXP_INT_H
#define PACT_EXP_INT_H

#include <glib.h>

/* A field's value, or NULL when neither file nor flag set it. */
const char *pact_exp_get(GHashTable *f, const char *name);
/* How messages name a field: "--sizes" for a flag, "exp.yaml:7: sizes" for a file's field. */
char *pact_exp_what(GHashTable *f, const char *name);
/* "FILE:LINE" of a field read from a file, NULL for a flag or an unset field. */
const char *pact_exp_origin(GHashTable *f, const char *name);
/* A message "--NAME ..." about a field read from a file is rewritten as "FILE:LINE: NAME ...". */
void pact_exp_relabel(GHashTable *f, GError *e);
/* Appends "# sha256 HEX PATH" lines for every file the fields name (platform, hostfile, patterns). */
gboolean pact_exp_add_digests(GHashTable *f, GString *o, GError **err);

#endif
