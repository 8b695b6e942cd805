/* ibccsim - scenario driver for ibcc's fabric model (layer L3).

   This file holds the subcommand table (subs[] below: the one list of
   experiments; --help, `ibccsim help SUB`, `ibccsim run FILE` and the
   dispatch all read it) and is the one file of ibccsim that compiles the
   implementation of ibcc.h. Each experiment lives in a file of its own
   with its option table (opt.h says how to add a flag); common.c holds
   messages, file reading and sweeps in worker processes.

   Run `ibccsim --help` or `ibccsim help SUB` for every flag, and see
   docs/scenario_twoswitch.md for how to read the outputs. */
#define IBCC_IMPLEMENTATION
#include "ibccsim.h"

const char *g_self = "ibccsim";

static int sub_gran_sweep(int argc, char **argv)
{
    return cmd_gran_sweep(argc, argv, g_self);
}

/* Every subcommand: its name, its line in `ibccsim --help`, its function,
   its option table (NULL: none) and whether a scenario file may name it
   (experiment = NAME). */
const sub subs[] = {
    {"twoswitch", "two-switch victim scenario of [S02]/[S03] (runs 1-4)",
     cmd_twoswitch, &ts_cmd, 1},
    {"recovery", "rate recovery curve of a law ([S03] Fig. 5)", cmd_recovery,
     &rc_cmd, 1},
    {"law-table", "a law compiled to TABLE form: CSV, or a C file for firmware\n"
     "(--emit-c; loaded with ibcc_law_init_rom)", cmd_law_table, &lt_cmd, 0},
    {"gran", "the InfiniBand hardware testbed of [G] (FECN/BECN + CCT)",
     cmd_gran, &gr_cmd, 1},
    {"gran-sweep", "CCTI_Timer x Marking_Rate on it, in parallel processes",
     sub_gran_sweep, &gs_cmd, 1},
    {"mvcm", "MVCM and its comparators on a k-ary n-fly with a hot spot [F]",
     cmd_mvcm, &mv_cmd, 1},
    {"mvcm-sweep", "latency against accepted traffic for each CMM [F]",
     cmd_mvcm_sweep, &ms_cmd, 1},
    {"wormhole", "dual-priority segmentation on a wormhole network [K]",
     cmd_wormhole, &wh_cmd, 1},
    {"wormhole-sweep", "the same across loads or segment lengths, in parallel",
     cmd_wormhole_sweep, &whs_cmd, 1},
    {"fabric-check", "load an InfiniBand fabric (ibnetdiscover + LFTs) and\n"
     "check every host-to-host route", cmd_fabric_check, &fc_cmd, 1},
    {"custom", "a fabric composed from its parts: topology (builders, the\n"
     "two-switch builder or ibnetdiscover files), switches, marker,\n"
     "source agent, traffic; per-class delivered throughput", cmd_custom,
     &cu_cmd, 1},
    {"run", "FILE: the experiment a scenario file describes (examples/scenarios)",
     cmd_run, NULL, 0},
    {"demo", "headline table: no CC vs each marking engine with LIPD", cmd_demo,
     &demo_cmd, 1},
};
const unsigned nsubs = sizeof subs / sizeof subs[0];

const sub *sub_find(const char *name)
{
    unsigned i;
    for (i = 0; i < nsubs; i++)
        if (!strcmp(subs[i].name, name)) return &subs[i];
    return NULL;
}

static void usage_main(FILE *out)
{
    unsigned i;
    fprintf(out, "usage: ibccsim SUBCOMMAND [flags]\n");
    for (i = 0; i < nsubs; i++) {
        const char *b = subs[i].brief, *nl;
        fprintf(out, "  %-14s ", subs[i].name);
        while ((nl = strchr(b, '\n')) != NULL) {
            fprintf(out, "%.*s\n%17s", (int)(nl - b), b, "");
            b = nl + 1;
        }
        fprintf(out, "%s\n", b);
    }
    fprintf(out, "  help SUB       the flags of a subcommand (also: ibccsim SUB --help)\n"
                 "  --version      the version of ibccsim and ibcc\n"
                 "Results: docs/scenarios.md; the manual page: man ibccsim.\n");
}

/* The manual page, ibccsim(1), from the same tables as --help (make
   install writes it with `ibccsim --man`). */
static void man_page(FILE *out)
{
    unsigned i;
    fprintf(out, ".TH IBCCSIM 1 \"\" \"ibcc %s\" \"ibcc\"\n"
            ".SH NAME\nibccsim \\- congestion control on simulated InfiniBand fabrics "
            "(the scenario driver of ibcc)\n"
            ".SH SYNOPSIS\n.B ibccsim\n.I SUBCOMMAND\n[flags]\n.br\n"
            ".B ibccsim run\n.I FILE\n[flags]\n.br\n"
            ".B ibccsim help\n.I SUBCOMMAND\n.br\n.B ibccsim \\-\\-version\n"
            ".SH DESCRIPTION\n"
            "ibccsim runs the experiments of ibcc, an embeddable C99 library of\n"
            "congestion-control mechanisms for lossless interconnects, on its fabric\n"
            "model: the scenarios of the papers it reproduces and fabrics composed\n"
            "from their parts or loaded from ibnetdiscover output.\n"
            "Every flag is written \\-\\-name value or \\-\\-name=value; a scenario\n"
            "file gives the same settings as name = value lines (ibccsim run).\n"
            "A value outside its range is refused with the range; a misspelt\n"
            "flag gets the nearest one.\n"
            ".SH OUTPUTS\n"
            "\\-\\-summary FILE writes metric,value rows, \\-\\-series FILE a time\n"
            "series; beside the summary goes params.csv (summary.csv) or\n"
            "NAME_params.csv (NAME.csv): key,value rows of the experiment, the ibcc\n"
            "version, every parameter with the seed, and the IBA settings in\n"
            "OpenSM's option names (cc_sw_cong_setting_*, cc_ca_cong_setting_*_slN).\n"
            ".B ibccsim run\n.I DIR/params.csv\nruns it again.\n"
            "A run expected to take more than about 2 s shows its progress on\n"
            "standard error (a line per 10%% when that is not a terminal);\n"
            "\\-\\-quiet silences it and the table on standard output.\n"
            ".SH SUBCOMMANDS\n", ibcc_version());
    for (i = 0; i < nsubs; i++)
        if (subs[i].opts) opt_man(subs[i].opts, out);
    fprintf(out, ".SS run\n.B ibccsim run\n.I FILE\n[flags]\n.PP\n"
            "Runs the experiment a scenario file names (experiment = NAME) with\n"
            "its other lines as flags (name = value; yes/no for flags without a\n"
            "value; OpenSM cc_* option names for the IBA settings; # comments).\n"
            "FILE may be a params.csv. Flags after FILE are passed on.\n"
            ".SH EXIT STATUS\n0 on success, 1 when a run fails or a result cannot be\n"
            "written, 2 for bad flags or files.\n"
            ".SH SEE ALSO\nThe documentation in docs/ of the ibcc sources: scenarios.md,\n"
            "topologies.md and the scenario pages of each paper.\n");
}

static int run_sub(int argc, char **argv)
{
    const sub *s;
    if (argc < 2) {
        usage_main(stderr);
        return 2;
    }
    if (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h")) {
        usage_main(stdout);
        return 0;
    }
    if (!strcmp(argv[1], "--man")) {
        man_page(stdout);
        return 0;
    }
    if (!strcmp(argv[1], "--version")) {
        printf("ibccsim (ibcc %s)\n", ibcc_version());
        return 0;
    }
    if (!strcmp(argv[1], "help")) {
        if (argc < 3) {
            usage_main(stdout);
            return 0;
        }
        if ((s = sub_find(argv[2])) != NULL) {
            char help[] = "--help";
            char *hv[1];
            hv[0] = help;
            return s->run(1, hv);
        }
        fprintf(stderr, "ibccsim help: unknown subcommand '%s'\n", argv[2]);
        return 2;
    }
    if ((s = sub_find(argv[1])) != NULL) return s->run(argc - 2, argv + 2);
    fprintf(stderr, "ibccsim: unknown subcommand '%s'\n", argv[1]);
    usage_main(stderr);
    return 2;
}

/* A write error on standard output (a full disk, a closed pipe's reader
   gone) fails the run like one on a results file: stdio keeps the error,
   so one look after the subcommand (and its final flush) sees it. */
int main(int argc, char **argv)
{
    int rc;
    if (argc > 0 && argv[0]) g_self = argv[0];
    rc = run_sub(argc, argv);
    errno = 0;
    if (fflush(stdout) != 0 || ferror(stdout)) {
        fprintf(stderr, "ibccsim: writing standard output failed%s%s\n",
                errno ? ": " : "", errno ? strerror(errno) : "");
        return rc ? rc : 1;
    }
    return rc;
}
