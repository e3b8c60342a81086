/* exp_int.h - what fields.c (an experiment's named fields) gives experiment.c (the studies built from them). */
#ifndef PACT_EXP_INT_H
#define PACT_EXP_INT_H

#include <glib.h>

/* A message "--NAME ..." about a field read from a file is rewritten as "FILE:LINE: NAME ...". */
void pact_exp_relabel(GHashTable *f, GError *e);
/* Appends "# sha256 HEX PATH" lines for every file the fields name (platform, hostfile, patterns). */
gboolean pact_exp_add_digests(GHashTable *f, GString *o, GError **err);

#endif
