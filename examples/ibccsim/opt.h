/* ibccsim's option tables.

   Every subcommand describes its settings in ONE table of `opt` rows. The
   same rows serve the command line (--name value and --name=value), the
   scenario files (name = value, ibccsim run FILE), --help (generated, with
   ranges, units and defaults), the range checks (whose message states the
   range), the defaults (opt_defaults) and the parameter echo params.csv.

   HOW TO ADD A FLAG: add a field to the experiment's options struct and one
   row to its table, in the order --help should list it, with one of the
   OPT_* macros below (OPT_T names the struct above the table):

       OPT_UINT("buffer", buffer, 1, 65535, "N", "packets", "4",
                "packets per input buffer"),

   That is all: parsing, "did you mean", the scenario-file key, --help and
   params.csv follow. Give the default in the row (def), never in code; a
   default that depends on other flags is computed by the experiment's
   check function after opt_parse (opt_given tells whether the user gave
   the flag) and described by defdoc. Checks between flags stay in the
   experiment's own check function. A row written out in full (not by a
   macro) can also set: osm, the OpenSM option name a scenario file may
   use for it (cc_sw_cong_setting_threshold); flags OPT_NOPARAM for a
   setting that does not shape the results (outputs, --quiet, --jobs:
   left out of params.csv), OPT_LO_OPEN / OPT_HI_OPEN for an open end of
   the range; zero, a word read as 0 ("none"). The manual page
   (ibccsim --man) is printed from the same rows.

   For readers of settings (scenario files, sweeps): opt_find gives a
   flag's row and the struct that holds it, opt_value its value as text,
   opt_is_default whether that is the default, opt_params every
   parameter as key,value rows. */
#ifndef IBCCSIM_OPT_H
#define IBCCSIM_OPT_H
#include <stddef.h>
#include <stdio.h>

typedef enum opt_type {
    OT_HEAD,    /* not a flag: a heading line of --help (help = the text) */
    OT_SWITCH,  /* no value: the int field is set to hi. Files: yes/no */
    OT_UINT,    /* unsigned field, an integer in lo..hi (zero: a word for 0) */
    OT_U64,     /* unsigned long long field, an integer in lo..hi (zero: as OT_UINT) */
    OT_DOUBLE,  /* double field in [lo, hi] ((lo, hi] with OPT_LO_OPEN) */
    OT_CHOICE,  /* int field: the value's index in names "a|b|c" (or vals[it]) */
    OT_TEXT,    /* const char * field: a file name or a word, not empty */
    OT_LAW,     /* int field: a law kind by ibcc_law_kind_name (zero: 0) */
    OT_FUNC     /* parsed and printed by fn (values the others do not cover) */
} opt_type;

#define OPT_LO_OPEN 1    /* OT_DOUBLE: lo itself is refused */
#define OPT_NOPARAM 2    /* not a parameter of the results (quiet, outputs) */
#define OPT_HI_OPEN 4    /* OT_DOUBLE: hi itself is refused */

typedef struct opt opt;
/* OT_FUNC: parses v into the options struct o (0 ok, else the message is
   bad()'s), or with v NULL prints the field's value into buf. */
typedef int (*opt_fn)(const opt *p, const char *v, void *o, char *buf,
                      size_t len);
struct opt {
    const char *name;   /* the flag without "--"; the scenario file's key */
    opt_type type;
    size_t off;         /* offsetof the field in the options struct */
    double lo, hi;      /* the range; OT_SWITCH: the value it sets */
    const char *names;  /* OT_CHOICE: "a|b|c"; OT_FUNC, OT_LAW: the value
                           words in --help */
    const char *arg;    /* the value's name in --help: N, MS, FILE */
    const char *unit;   /* the value's unit ("ms", "packets"), or NULL */
    const char *def;    /* default as written on the command line; NULL:
                           the field's zero */
    const char *help;   /* --help text; '\n' starts a continuation line */
    const char *defdoc; /* the default in --help when def does not say it */
    const char *zero;   /* OT_UINT, OT_U64, OT_LAW: a word that means 0 ("none") */
    int flags;          /* OPT_LO_OPEN, OPT_NOPARAM */
    opt_fn fn;          /* OT_FUNC */
    const char *osm;    /* OpenSM's name for the setting (opensm.conf) */
    const int *vals;    /* OT_CHOICE: the value of each name (NULL: its
                           index) */
};

/* A subcommand's table: its rows, the text of its --help, and optionally
   a second table (another experiment's, e.g. the sweep of it) whose
   struct is the member at also_off. */
typedef struct opt_cmd {
    const char *name;
    const char *usage;      /* after "ibccsim NAME " on the usage line */
    const char *about;      /* the paragraph under the usage line */
    const opt *opts;
    unsigned n;
    const char *after;      /* text after the flags, or NULL */
    const struct opt_cmd *also;
    size_t also_off;
} opt_cmd;

#define OPT_N(a) ((unsigned)(sizeof a / sizeof a[0]))
#define OPT_F(f) offsetof(OPT_T, f)
#define OPT_HEAD(text) {NULL, OT_HEAD, 0, 0, 0, NULL, NULL, NULL, NULL, text, NULL, NULL, 0, NULL, NULL, NULL}
#define OPT_SWITCH(nm, f, val, help) \
    {nm, OT_SWITCH, OPT_F(f), 0, val, NULL, NULL, NULL, NULL, help, NULL, NULL, 0, NULL, NULL, NULL}
#define OPT_UINT(nm, f, lo, hi, arg, unit, def, help) \
    {nm, OT_UINT, OPT_F(f), lo, hi, NULL, arg, unit, def, help, NULL, NULL, 0, NULL, NULL, NULL}
#define OPT_U64(nm, f, lo, hi, arg, unit, def, help) \
    {nm, OT_U64, OPT_F(f), lo, hi, NULL, arg, unit, def, help, NULL, NULL, 0, NULL, NULL, NULL}
#define OPT_DOUBLE(nm, f, lo, hi, arg, unit, def, help) \
    {nm, OT_DOUBLE, OPT_F(f), lo, hi, NULL, arg, unit, def, help, NULL, NULL, 0, NULL, NULL, NULL}
#define OPT_CHOICE(nm, f, names, def, help) \
    {nm, OT_CHOICE, OPT_F(f), 0, 0, names, NULL, NULL, def, help, NULL, NULL, 0, NULL, NULL, NULL}
#define OPT_CHOICEV(nm, f, names, vals, def, help) \
    {nm, OT_CHOICE, OPT_F(f), 0, 0, names, NULL, NULL, def, help, NULL, NULL, 0, NULL, NULL, vals}
#define OPT_TEXT(nm, f, arg, def, help) \
    {nm, OT_TEXT, OPT_F(f), 0, 0, NULL, arg, NULL, def, help, NULL, NULL, 0, NULL, NULL, NULL}
#define OPT_LAW(nm, f, zero, def, help) \
    {nm, OT_LAW, OPT_F(f), 0, 0, NULL, NULL, NULL, def, help, NULL, zero, 0, NULL, NULL, NULL}
#define OPT_FUNC(nm, fn, arg, def, help) \
    {nm, OT_FUNC, 0, 0, 0, NULL, arg, NULL, def, help, NULL, NULL, 0, fn, NULL, NULL}

/* The outputs every experiment has: --series FILE, --summary FILE and
   --quiet (fields series, summary, quiet), none of them a parameter. */
#define OPT_OUTPUTS(series_help, summary_help, quiet_help) \
    {"series", OT_TEXT, OPT_F(series), 0, 0, NULL, "FILE", NULL, NULL, series_help, \
     NULL, NULL, OPT_NOPARAM, NULL, NULL, NULL}, \
    {"summary", OT_TEXT, OPT_F(summary), 0, 0, NULL, "FILE", NULL, NULL, summary_help, \
     NULL, NULL, OPT_NOPARAM, NULL, NULL, NULL}, \
    {"quiet", OT_SWITCH, OPT_F(quiet), 0, 1, NULL, NULL, NULL, NULL, quiet_help, \
     NULL, NULL, OPT_NOPARAM, NULL, NULL, NULL}

/* Sets every field of o that a row names to the row's default (the other
   bytes of o are left as they are: clear o first). */
void opt_defaults(const opt_cmd *c, void *o);
/* Parses argv (without the subcommand) into o. 0 ok, 1 --help printed,
   2 error (said on stderr, with the scenario file's line when there is
   one, the range of a value, "did you mean" for a misspelt flag). */
int opt_parse(const opt_cmd *c, int argc, char **argv, void *o);
/* Whether the last opt_parse was given flag `name` (without "--"). */
int opt_given(const char *name);
/* Prints the --help of c. */
void opt_help(const opt_cmd *c, FILE *out);
/* The same as a section of the manual page (roff, from the table). */
void opt_man(const opt_cmd *c, FILE *out);
/* The row of flag `name` in c (or its second table), and the struct that
   holds its field; NULL when c has no such flag. */
const opt *opt_find(const opt_cmd *c, const char *name, void *o, void **base);
/* Parses v into row p's field of base (the struct opt_find gave), as a
   flag's value, without counting it as given (a value inside another
   flag's, such as custom --job's keys). 0, or 2 after the message. */
int opt_set_value(const opt *p, const char *v, void *base);
/* The value of row p in o, as the command line would take it. */
void opt_value(const opt *p, const void *o, char *buf, size_t len);
/* "key,value" lines for every parameter of c in o (not OPT_NOPARAM).
   Returns 0 on a write error. */
int opt_params(const opt_cmd *c, const void *o, FILE *fp);
/* Whether value (as opt_value prints it) is row p's default. */
int opt_is_default(const opt *p, const char *value);
/* The flag of c nearest to `name` by edit distance (at most 2 edits, or a
   third of the name), or NULL. */
const char *opt_suggest(const opt_cmd *c, const char *name);

/* The topology builders' settings, shared by `custom` and the [fabric]
   section of scenario files: OPT_T must have unsigned fields k, n, x, y,
   hps, root, local, remote. */
#define OPT_BUILDER_ROWS \
    OPT_UINT("k", k, 2, 16, "K", NULL, "2", "fattree, nfly: k-ary n-tree / n-fly"), \
    OPT_UINT("n", n, 1, 6, "N", NULL, "3", "fattree, nfly: k-ary n-tree / n-fly"), \
    OPT_UINT("x", x, 1, 1024, "X", "switches", "4", "mesh, torus: switches per dimension"), \
    OPT_UINT("y", y, 1, 1024, "Y", "switches", "4", "mesh, torus: switches per dimension"), \
    OPT_UINT("hps", hps, 1, 64, "H", NULL, "1", "mesh, torus: hosts per switch"), \
    OPT_UINT("root", root, 0, 1u << 20, "R", NULL, "0", "mesh, torus: up/down root switch"), \
    OPT_UINT("local", local, 1, IBCC_TWOSWITCH_MAX, "L", NULL, "10", \
             "twoswitch: sources on B"), \
    OPT_UINT("remote", remote, 1, IBCC_TWOSWITCH_MAX, "R", NULL, "10", \
             "twoswitch: sources on A"),

/* Routing and the dragonfly builder (custom, fabric-check): OPT_T must
   have int routing and unsigned a, p, h, groups, lmc. */
#define OPT_ROUTING_ROWS \
    {"routing", OT_CHOICE, OPT_F(routing), 0, 0, "updown|dor|minimal|valiant", NULL, NULL, \
     NULL, "mesh, torus: updown, or dor (dimension order;\n" \
     "a torus path's SL says which datelines it\ncrosses); dragonfly: minimal, or valiant\n" \
     "(LID 0 minimal, the host's other LIDs through\nan intermediate group; 3 VLs)", \
     "updown; dragonfly: minimal", NULL, 0, NULL, NULL, NULL}, \
    OPT_UINT("a", a, 1, 256, "A", "switches", "4", "dragonfly: switches per group"), \
    OPT_UINT("p", p, 1, 256, "P", NULL, "2", "dragonfly: hosts per switch"), \
    OPT_UINT("h", h, 1, 256, "H", NULL, "2", "dragonfly: global links per switch"), \
    {"groups", OT_UINT, OPT_F(groups), 2, 65537, NULL, "G", NULL, NULL, \
     "dragonfly: groups (at most a*h + 1)", "a*h + 1", NULL, 0, NULL, NULL, NULL}, \
    {"lmc", OT_UINT, OPT_F(lmc), 0, 7, NULL, "N", NULL, NULL, \
     "dragonfly: 2^N LIDs per host (InfiniBand's LMC),\neach with its own routes", \
     "0; valiant: the fewest that cover them", NULL, 0, NULL, NULL, NULL},

#endif
