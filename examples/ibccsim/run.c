#include "ibccsim.h"
/* ---- run: a scenario file -----------------------------------------------
   A scenario file names one experiment and its settings, one per line:

       # the [G] testbed, scenario 1, CC on
       experiment = gran        # twoswitch gran gran-sweep mvcm mvcm-sweep
                                # recovery fabric-check demo custom
       cc = on
       cc_sw_cong_setting_threshold = 15     # OpenSM option names work too
       summary = gran1.csv

   Keys are the experiment's flags without the leading "--" (see
   `ibccsim SUBCOMMAND --help`); a flag without a value (sc_switches)
   takes yes/on/true or no/off/false, any other flag its value as written.
   The OpenSM congestion-control options that the experiment has a flag
   for are accepted under their opensm.conf names; per-SL options take
   OpenSM's "SL value" form and must be the same for every SL given.
   '#' starts a comment; blank lines are ignored. Errors name the file and
   line: a line without "key = value", an unknown key (reported by the
   experiment, with its line) or a bad value. */
static char *sc_trim(char *p)
{
    char *e;
    while (*p == ' ' || *p == '\t') p++;
    e = p + strlen(p);
    while (e > p && (e[-1] == ' ' || e[-1] == '\t' || e[-1] == '\r'
                     || e[-1] == '\n')) *--e = 0;
    return p;
}

/* The row of the experiment's table whose OpenSM name is key, or NULL. */
static const opt *sc_osm(const opt_cmd *c, const char *key)
{
    unsigned i;
    for (; c; c = c->also)
        for (i = 0; i < c->n; i++)
            if (c->opts[i].osm && !strcmp(c->opts[i].osm, key)) return &c->opts[i];
    return NULL;
}

/* The experiment names a scenario file can give, for messages. */
static const char *sc_names(char *buf, size_t len)
{
    unsigned i;
    size_t u = 0;
    buf[0] = 0;
    for (i = 0; i < nsubs; i++)
        if (subs[i].in_files) {
            snprintf(buf + u, len - u, "%s%s", u ? ", " : "", subs[i].name);
            u = strlen(buf);
        }
    return buf;
}

int cmd_run(int argc, char **argv)
{
    static char vals[SC_MAX_KEYS][256], flags[SC_MAX_KEYS][80];
    char *keys[SC_MAX_KEYS];
    int sls[SC_MAX_KEYS];            /* each key's SL when per-SL, else -1 */
    char *args[2 * SC_MAX_KEYS + 64], *line, *next, *text;
    const char *path, *kind = NULL;
    unsigned ln = 0, nargs = 0, kind_line = 0, nraw = 0, lines[SC_MAX_KEYS], i, k;
    size_t n;
    int rc, csv = -1;
    const sub *s;
    char names[256];
    if (argc < 1 || !strcmp(argv[0], "--help") || !strcmp(argv[0], "-h")) {
        printf("usage: ibccsim run FILE [flags]\n"
               "Runs the experiment a scenario file describes: 'key = value' lines,\n"
               "the key 'experiment' naming the subcommand (%s)\n"
               "and the others its flags without '--' (yes or no for flags without a\n"
               "value, also on/off, true/false; other flags take their value) or\n"
               "OpenSM cc_* option names; '#' comments. examples/scenarios/\n"
               "has one per experiment; docs/topologies.md describes the format and\n"
               "the keys of custom. Relative summary, series and out files go to the\n"
               "folder $IBCCSIM_OUT (default out/, created; '.' for here).\n"
               "FILE may also be the params.csv a run wrote beside its summary\n"
               "(key,value lines): the same run again. Flags after FILE are\n"
               "passed to the experiment after the file's (e.g. --summary).\n"
               "A file with [sections] ([fabric], [sm], [traffic NAME], [run],\n"
               "[output]) composes a fabric, opensm.conf and traffic classes:\n"
               "ibccsim run FILE [section.key=value ...] [--check] [--jobs N]\n"
               "[--list] [--quiet]; every key in docs/scenario_files.md.\n",
               sc_names(names, sizeof names));
        return argc >= 1 ? 0 : 2;
    }
    path = argv[0];
    if (run_is_v2(path))        /* [sections]: scenario.c */
        return cmd_run_v2(path, argc - 1, argv + 1);
    if (!(text = fc_read("run", "", path, &n))) return 2;
    {
        char *t2 = (char *)realloc(text, n + 1u);
        if (!t2) { free(text); return 1; }
        text = t2;
        text[n] = 0;
    }
    g_file = path;
    g_nkeys = 0;
    for (line = text; line && *line; line = next) {
        char *eq, *key, *val, *hash;
        next = strchr(line, '\n');
        if (next) *next++ = 0;
        ln++;
        if ((hash = strchr(line, '#')) != NULL) *hash = 0;
        line = sc_trim(line);
        if (!*line) continue;
        if (csv < 0) {
            /* params.csv: "key,value" then key,value lines */
            csv = !strcmp(line, "key,value");
            if (csv) continue;
        }
        eq = strchr(line, csv ? ',' : '=');
        if (!eq) {
            fprintf(stderr, "%s:%u: expected '%s'\n", path, ln,
                    csv ? "key,value" : "key = value");
            free(text);
            return 2;
        }
        *eq = 0;
        key = sc_trim(line);
        val = sc_trim(eq + 1);
        if (csv && (!strncmp(key, "cc_", 3) || !strcmp(key, "ibcc_version")
                    || !strcmp(key, "congestion_control"))) {
            /* the echo of the settings in OpenSM's names, and the version
               that wrote the file: the flags carry the values */
            if (!strcmp(key, "ibcc_version") && strcmp(val, ibcc_version()))
                fprintf(stderr, "%s:%u: note: written by ibcc %s, run by %s\n",
                        path, ln, val, ibcc_version());
            continue;
        }
        if (!*key || (!*val && !csv)) {
            fprintf(stderr, "%s:%u: expected 'key = value' (empty %s)\n",
                    path, ln, *key ? "value" : "key");
            free(text);
            return 2;
        }
        if (csv && !*val) continue;          /* a setting left unset */
        if (!strcmp(key, "experiment")) {
            if (kind) {
                fprintf(stderr, "%s:%u: 'experiment' given twice (first at line %u)\n",
                        path, ln, kind_line);
                free(text);
                return 2;
            }
            kind = val;
            kind_line = ln;
            continue;
        }
        if (nraw + 1u >= SC_MAX_KEYS || strlen(key) > 70 || strlen(val) > 250) {
            fprintf(stderr, "%s:%u: too many keys or a key or value too long\n",
                    path, ln);
            free(text);
            return 2;
        }
        keys[nraw] = key;
        lines[nraw] = ln;
        snprintf(vals[nraw], sizeof vals[0], "%s", val);
        nraw++;
    }
    if (!kind) {
        fprintf(stderr, "%s: no 'experiment = ...' line\n", path);
        free(text);
        return 2;
    }
    s = sub_find(kind);
    if (!s || !s->in_files) {
        fprintf(stderr, "%s:%u: unknown experiment '%s' (%s)\n", path, kind_line,
                kind, sc_names(names, sizeof names));
        free(text);
        g_file = NULL;
        return 2;
    }
    for (i = 0; i < nraw; i++) {
        char *key = keys[i], *val = vals[i];
        const opt *p = sc_osm(s->opts, key), *row;
        int sl = -1;
        ln = lines[i];
        /* params.csv holds every parameter: those at their default are
           left to it (a flag given is one that applies); an empty value
           is a row without a default that was not given; a row without
           a default written with a value was given (its zero too) */
        if (csv && (row = opt_find(s->opts, key, NULL, NULL)) != NULL
            && (!*val || (row->def && opt_is_default(row, val))))
            continue;
        if (p) {
            /* an OpenSM name; per-SL options "SL value", the SL 0..15 */
            char *sp = strpbrk(val, " \t");
            if (!strncmp(key, "cc_ca_", 6) && sp) {
                unsigned long long u;
                *sp = 0;
                if (!parse_uint(val, 0, 15, &u)) {
                    fprintf(stderr, "%s:%u: bad SL '%s' for %s: a service"
                            " level 0..15\n", path, ln, val, key);
                    free(text);
                    return 2;
                }
                sl = (int)u;
                memmove(val, sc_trim(sp + 1), strlen(sc_trim(sp + 1)) + 1u);
            }
            key = (char *)p->name;
        }
        for (k = 0; k < g_nkeys; k++)
            if (!strcmp(g_key[k], key)) {
                /* one value serves every SL: a per-SL line for another SL
                   with the same value says nothing new */
                if (sl >= 0 && sls[k] >= 0 && sl != sls[k]
                    && !strcmp(vals[k], val)) break;
                fprintf(stderr, "%s:%u: '%s' given twice (first at line %u)%s\n",
                        path, ln, key, g_line[k], sl >= 0 && sls[k] >= 0
                        && sl != sls[k] ? ": ibccsim takes one value for every SL" : "");
                free(text);
                return 2;
            }
        if (k < g_nkeys) continue;
        sls[g_nkeys] = sl;
        snprintf(flags[g_nkeys], sizeof flags[0], "--%s", key);
        if (g_nkeys != i) memmove(vals[g_nkeys], val, strlen(val) + 1u);
        /* a relative output file goes to the output folder IBCCSIM_OUT
           (default "out", created; "." or empty: the current directory) */
        if ((!strcmp(key, "summary") || !strcmp(key, "series") || !strcmp(key, "out"))
            && val[0] != '/') {
            const char *od = getenv("IBCCSIM_OUT");
            if (!od) od = "out";
            if (*od && strcmp(od, ".")) {
                char tmp[256];
                if (strlen(od) + strlen(val) > 250) {
                    fprintf(stderr, "%s:%u: output path too long\n", path, ln);
                    free(text);
                    return 2;
                }
                if (mkdir(od, 0777) != 0 && errno != EEXIST) {
                    fprintf(stderr, "%s:%u: cannot create the output folder %s: %s\n",
                            path, ln, od, strerror(errno));
                    free(text);
                    return 2;
                }
                snprintf(tmp, sizeof tmp, "%s/%s", od, val);
                snprintf(vals[g_nkeys], sizeof vals[0], "%s", tmp);
            }
        }
        g_key[g_nkeys] = flags[g_nkeys] + 2;
        g_line[g_nkeys] = ln;
        g_nkeys++;
    }
    /* the experiment's switches take yes or no; other keys their value
       (so "cc = no" is the experiment's error, never a key dropped) */
    for (i = 0; i < g_nkeys; i++) {
        const char *v = vals[i];
        const opt *p = opt_find(s->opts, flags[i] + 2, NULL, NULL);
        if (!p || p->type != OT_SWITCH) {
            args[nargs++] = flags[i];
            args[nargs++] = vals[i];
        } else if (!strcmp(v, "yes") || !strcmp(v, "on") || !strcmp(v, "true")) {
            args[nargs++] = flags[i];
        } else if (strcmp(v, "no") && strcmp(v, "off") && strcmp(v, "false")) {
            fprintf(stderr, "%s:%u: bad value '%s' for %s: a flag without a"
                    " value takes yes, on, true, no, off or false\n",
                    path, g_line[i], v, flags[i] + 2);
            free(text);
            return 2;
        }
    }
    for (k = 1; k < (unsigned)argc && nargs + 1u < sizeof args / sizeof args[0]; k++)
        args[nargs++] = argv[k];
    args[nargs] = NULL;
    rc = s->run((int)nargs, args);
    g_file = NULL;
    free(text);
    return rc;
}
