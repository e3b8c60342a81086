/* pact_cli.h - the `pact` command: one dispatcher (pact.c), one file per command. */
#ifndef PACT_CLI_H
#define PACT_CLI_H

#include <glib.h>

/* Each command gets argv from its own name on and returns the exit status (0, 1 run failed, 2 bad input). */
int pact_cmd_list(int argc, char **argv);
int pact_cmd_sim(int argc, char **argv);
int pact_cmd_replay(int argc, char **argv);
int pact_cmd_merge(int argc, char **argv);
int pact_cmd_pattern(int argc, char **argv);
int pact_cmd_platform(int argc, char **argv);
int pact_cmd_model(int argc, char **argv);
int pact_cmd_report(int argc, char **argv);
int pact_cmd_tune(int argc, char **argv);
int pact_cmd_timeline(int argc, char **argv);
int pact_cmd_explain(int argc, char **argv);

/* Prints "pact: message" to stderr and returns the error's exit status; frees the error. */
int pact_cli_fail(GError *err);

/* Parses options with GLib; on failure prints the message and returns FALSE (exit 2). */
gboolean pact_cli_parse(GOptionContext *ctx, int *argc, char ***argv);

#endif
