#define IBCC_IMPLEMENTATION
#include "ibccsim.h"

static void usage_main(FILE *out)
{
    fprintf(out,
"usage: ibccsim SUBCOMMAND [flags]\n"
"  twoswitch  two-switch victim scenario of [S02]/[S03] (runs 1-4)\n"
"  recovery   rate recovery curve of a law ([S03] Fig. 5)\n"
"  law-table  a law compiled to TABLE form: CSV, or a C file for firmware\n"
"             (--emit-c; loaded with ibcc_law_init_rom)\n"
"  gran       the InfiniBand hardware testbed of [G] (FECN/BECN + CCT)\n"
"  gran-sweep CCTI_Timer x Marking_Rate on it, in parallel processes\n"
"  mvcm       MVCM and its comparators on a k-ary n-fly with a hot spot [F]\n"
"  mvcm-sweep latency against accepted traffic for each CMM [F]\n"
"  wormhole   dual-priority segmentation on a wormhole network [K]\n"
"  wormhole-sweep  the same across loads or segment lengths, in parallel\n"
"  fabric-check  load an InfiniBand fabric (ibnetdiscover + LFTs) and\n"
"             check every host-to-host route\n"
"  custom     a fabric composed from its parts: topology (builders, the\n"
"             two-switch builder or ibnetdiscover files), switches, marker,\n"
"             source agent, traffic; per-class delivered throughput\n"
"  run FILE   the experiment a scenario file describes (examples/scenarios)\n"
"  demo       headline table: no CC vs each marking engine with LIPD\n"
"ibccsim SUBCOMMAND --help lists the flags of a subcommand.\n");
}

static int run_sub(int argc, char **argv);

/* A write error on standard output (a full disk, a closed pipe's reader
   gone) fails the run like one on a results file: stdio keeps the error,
   so one look after the subcommand (and its final flush) sees it. */
int main(int argc, char **argv)
{
    int rc = run_sub(argc, argv);
    errno = 0;
    if (fflush(stdout) != 0 || ferror(stdout)) {
        fprintf(stderr, "ibccsim: writing standard output failed%s%s\n",
                errno ? ": " : "", errno ? strerror(errno) : "");
        return rc ? rc : 1;
    }
    return rc;
}

static int run_sub(int argc, char **argv)
{
    if (argc < 2) {
        usage_main(stderr);
        return 2;
    }
    if (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h")) {
        usage_main(stdout);
        return 0;
    }
    if (!strcmp(argv[1], "twoswitch")) return cmd_twoswitch(argc - 2, argv + 2);
    if (!strcmp(argv[1], "recovery")) return cmd_recovery(argc - 2, argv + 2);
    if (!strcmp(argv[1], "law-table")) return cmd_law_table(argc - 2, argv + 2);
    if (!strcmp(argv[1], "demo")) return cmd_demo(argc - 2, argv + 2);
    if (!strcmp(argv[1], "gran")) return cmd_gran(argc - 2, argv + 2);
    if (!strcmp(argv[1], "mvcm")) return cmd_mvcm(argc - 2, argv + 2);
    if (!strcmp(argv[1], "mvcm-sweep")) return cmd_mvcm_sweep(argc - 2, argv + 2);
    if (!strcmp(argv[1], "wormhole")) return cmd_wormhole(argc - 2, argv + 2);
    if (!strcmp(argv[1], "wormhole-sweep")) return cmd_wormhole_sweep(argc - 2, argv + 2);
    if (!strcmp(argv[1], "fabric-check"))
        return cmd_fabric_check(argc - 2, argv + 2);
    if (!strcmp(argv[1], "run")) return cmd_run(argc - 2, argv + 2);
    if (!strcmp(argv[1], "custom")) return cmd_custom(argc - 2, argv + 2);
    if (!strcmp(argv[1], "gran-sweep"))
        return cmd_gran_sweep(argc - 2, argv + 2, argv[0]);
    fprintf(stderr, "ibccsim: unknown subcommand '%s'\n", argv[1]);
    usage_main(stderr);
    return 2;
}

