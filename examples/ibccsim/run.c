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
static const char *const sc_opensm[][2] = {
    {"cc_sw_cong_setting_threshold", "threshold"},
    {"cc_sw_cong_setting_marking_rate", "marking-rate"},
    {"cc_sw_cong_setting_packet_size", "packet-size"},
    {"cc_ca_cong_setting_ccti_timer", "ccti-timer"},
    {"cc_ca_cong_setting_ccti_increase", "ccti-increase"},
};

/* The flags of each experiment that take no value (switches): in a
   scenario file they take yes/on/true or no/off/false; every other key is
   handed to the experiment with its value, whatever it is (so "cc = no"
   is the experiment's error, never a key dropped). tests/scenarios.sh
   compares this table with every experiment's --help. */
static const char *const sc_switches[][2] = {
    {"twoswitch", " discrete fixed-rates persistent quiet "},
    {"recovery", " discrete "},
    {"gran", " quiet "},
    {"gran-sweep", " list "},
    {"mvcm", " no-warm no-cap input-only validated formula vct tree quiet "},
    {"mvcm-sweep", " "},
    {"wormhole", " switch-prio quiet "},
    {"wormhole-sweep", " switch-prio quiet "},  /* wormhole's, passed on */
    {"fabric-check", " "},
    {"demo", " "},
    {"custom", " input-fanout nic-fifo defer-trigger discrete quiet "},
};

static char *sc_trim(char *p)
{
    char *e;
    while (*p == ' ' || *p == '\t') p++;
    e = p + strlen(p);
    while (e > p && (e[-1] == ' ' || e[-1] == '\t' || e[-1] == '\r'
                     || e[-1] == '\n')) *--e = 0;
    return p;
}

int cmd_run(int argc, char **argv)
{
    static char text[1 << 16], vals[SC_MAX_KEYS][256], flags[SC_MAX_KEYS][80];
    int sls[SC_MAX_KEYS], sl;       /* each key's SL when per-SL, else -1 */
    char *args[2 * SC_MAX_KEYS + 1], *line, *next;
    const char *path, *kind = NULL;
    unsigned ln = 0, nargs = 0, kind_line = 0;
    size_t n;
    FILE *fp;
    int rc;
    if (argc != 1 || !strcmp(argv[0], "--help") || !strcmp(argv[0], "-h")) {
        printf("usage: ibccsim run FILE\n"
               "Runs the experiment a scenario file describes: 'key = value' lines,\n"
               "the key 'experiment' naming the subcommand (twoswitch, gran,\n"
               "gran-sweep, mvcm, mvcm-sweep, recovery, fabric-check, demo, custom,\n"
               "wormhole, wormhole-sweep)\n"
               "and the others its flags without '--' (yes or no for flags without a\n"
               "value, also on/off, true/false; other flags take their value) or\n"
               "OpenSM cc_* option names; '#' comments. examples/scenarios/\n"
               "has one per experiment; docs/topologies.md describes the format and\n"
               "the keys of custom. Relative summary, series and out files go to the\n"
               "folder $IBCCSIM_OUT (default out/, created; '.' for here).\n");
        return argc == 1 ? 0 : 2;
    }
    path = argv[0];
    fp = fopen(path, "r");
    if (!fp) {
        fprintf(stderr, "ibccsim run: cannot read %s: %s\n", path, strerror(errno));
        return 2;
    }
    n = fread(text, 1, sizeof text - 1u, fp);
    if (!feof(fp)) {
        fprintf(stderr, "ibccsim run: %s: more than %u bytes\n", path,
                (unsigned)sizeof text - 1u);
        fclose(fp);
        return 2;
    }
    fclose(fp);
    text[n] = 0;
    g_file = path;
    g_nkeys = 0;
    for (line = text; line && *line; line = next) {
        char *eq, *key, *val, *hash;
        unsigned i;
        next = strchr(line, '\n');
        if (next) *next++ = 0;
        ln++;
        if ((hash = strchr(line, '#')) != NULL) *hash = 0;
        line = sc_trim(line);
        if (!*line) continue;
        eq = strchr(line, '=');
        if (!eq) {
            fprintf(stderr, "%s:%u: expected 'key = value'\n", path, ln);
            return 2;
        }
        *eq = 0;
        key = sc_trim(line);
        val = sc_trim(eq + 1);
        if (!*key || !*val) {
            fprintf(stderr, "%s:%u: expected 'key = value' (empty %s)\n",
                    path, ln, *key ? "value" : "key");
            return 2;
        }
        if (!strcmp(key, "experiment")) {
            if (kind) {
                fprintf(stderr, "%s:%u: 'experiment' given twice (first at line %u)\n",
                        path, ln, kind_line);
                return 2;
            }
            kind = args[0] = vals[0];
            snprintf(vals[0], sizeof vals[0], "%s", val);
            kind_line = ln;
            continue;
        }
        sl = -1;
        for (i = 0; i < sizeof sc_opensm / sizeof sc_opensm[0]; i++)
            if (!strcmp(key, sc_opensm[i][0])) {
                /* per-SL options: "SL value", the SL 0..15 */
                char *sp = strpbrk(val, " \t");
                if (!strncmp(key, "cc_ca_", 6) && sp) {
                    unsigned long long u;
                    *sp = 0;
                    if (!parse_uint(val, 0, 15, &u)) {
                        fprintf(stderr, "%s:%u: bad SL '%s' for %s: a service"
                                " level 0..15\n", path, ln, val, key);
                        return 2;
                    }
                    sl = (int)u;
                    val = sc_trim(sp + 1);
                }
                key = (char *)sc_opensm[i][1];
                break;
            }
        if (g_nkeys + 1u >= SC_MAX_KEYS || strlen(key) > 70 || strlen(val) > 250) {
            fprintf(stderr, "%s:%u: too many keys or a key or value too long\n",
                    path, ln);
            return 2;
        }
        for (i = 0; i < g_nkeys; i++)
            if (!strcmp(g_key[i], key)) {
                /* one value serves every SL: a per-SL line for another SL
                   with the same value says nothing new */
                if (sl >= 0 && sls[i] >= 0 && sl != sls[i]
                    && !strcmp(vals[i + 1u], val)) break;
                fprintf(stderr, "%s:%u: '%s' given twice (first at line %u)%s\n",
                        path, ln, key, g_line[i], sl >= 0 && sls[i] >= 0
                        && sl != sls[i] ? ": ibccsim takes one value for every SL" : "");
                return 2;
            }
        if (i < g_nkeys) continue;
        sls[g_nkeys] = sl;
        snprintf(flags[g_nkeys + 1u], sizeof flags[0], "--%s", key);
        snprintf(vals[g_nkeys + 1u], sizeof vals[0], "%s", val);
        /* a relative output file goes to the output folder IBCCSIM_OUT
           (default "out", created; "." or empty: the current directory) */
        if ((!strcmp(key, "summary") || !strcmp(key, "series") || !strcmp(key, "out"))
            && val[0] != '/') {
            const char *od = getenv("IBCCSIM_OUT");
            if (!od) od = "out";
            if (*od && strcmp(od, ".")) {
                if (strlen(od) + strlen(val) > 250) {
                    fprintf(stderr, "%s:%u: output path too long\n", path, ln);
                    return 2;
                }
                if (mkdir(od, 0777) != 0 && errno != EEXIST) {
                    fprintf(stderr, "%s:%u: cannot create the output folder %s: %s\n",
                            path, ln, od, strerror(errno));
                    return 2;
                }
                snprintf(vals[g_nkeys + 1u], sizeof vals[0], "%s/%s", od, val);
            }
        }
        g_key[g_nkeys] = flags[g_nkeys + 1u] + 2;
        g_line[g_nkeys] = ln;
        g_nkeys++;
    }
    if (!kind) {
        fprintf(stderr, "%s: no 'experiment = ...' line\n", path);
        return 2;
    }
    {
        /* the experiment's switches take yes or no; other keys their value */
        const char *sw = NULL;
        unsigned i, k;
        char pat[84];
        for (k = 0; k < sizeof sc_switches / sizeof sc_switches[0]; k++)
            if (!strcmp(kind, sc_switches[k][0])) sw = sc_switches[k][1];
        for (i = 1; sw && i <= g_nkeys; i++) {
            const char *v = vals[i];
            snprintf(pat, sizeof pat, " %s ", flags[i] + 2);
            if (!strstr(sw, pat)) {
                args[nargs++] = flags[i];
                args[nargs++] = vals[i];
            } else if (!strcmp(v, "yes") || !strcmp(v, "on") || !strcmp(v, "true")) {
                args[nargs++] = flags[i];
            } else if (strcmp(v, "no") && strcmp(v, "off") && strcmp(v, "false")) {
                fprintf(stderr, "%s:%u: bad value '%s' for %s: a flag without a"
                        " value takes yes, on, true, no, off or false\n",
                        path, g_line[i - 1u], v, flags[i] + 2);
                return 2;
            }
        }
    }
    args[nargs] = NULL;
    if (!strcmp(kind, "twoswitch")) rc = cmd_twoswitch((int)nargs, args);
    else if (!strcmp(kind, "gran")) rc = cmd_gran((int)nargs, args);
    else if (!strcmp(kind, "gran-sweep")) rc = cmd_gran_sweep((int)nargs, args, "ibccsim");
    else if (!strcmp(kind, "mvcm")) rc = cmd_mvcm((int)nargs, args);
    else if (!strcmp(kind, "mvcm-sweep")) rc = cmd_mvcm_sweep((int)nargs, args);
    else if (!strcmp(kind, "recovery")) rc = cmd_recovery((int)nargs, args);
    else if (!strcmp(kind, "fabric-check")) rc = cmd_fabric_check((int)nargs, args);
    else if (!strcmp(kind, "demo")) rc = cmd_demo((int)nargs, args);
    else if (!strcmp(kind, "wormhole")) rc = cmd_wormhole((int)nargs, args);
    else if (!strcmp(kind, "wormhole-sweep")) rc = cmd_wormhole_sweep((int)nargs, args);
    else if (!strcmp(kind, "custom")) rc = cmd_custom((int)nargs, args);
    else {
        fprintf(stderr, "%s:%u: unknown experiment '%s' (twoswitch, gran, gran-sweep,"
                " mvcm, mvcm-sweep, recovery, fabric-check, demo, custom, wormhole,"
                " wormhole-sweep)\n",
                path, kind_line, kind);
        rc = 2;
    }
    g_file = NULL;
    return rc;
}

