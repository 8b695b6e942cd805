/* What PFC links cost per packet-hop against credit links: the incast
   of tests/test_fabric_pfc.c (a 4-ary 2-tree of 16 hosts at 1 GB/s, the
   12 hosts of leaves 1-3 sending greedily to host 0, no CC) for 50 ms
   simulated, with credit links (4-packet input buffers), with PFC links
   (xoff 20000, xon 10000, the default headroom) and with credit links
   as deep as PFC's (the packet slots and credits PFC derives: what the
   buffer depth alone costs), in turn, 7 times. Rows: wall nanoseconds
   per packet-hop (link transmissions) of each, medians, and the ratios
   to the first in the same run.

   `bench_pfc --once credit|pfc|deep` runs one of them once and prints
   its packet-hops, for an instruction count that does not depend on
   the machine's load (valgrind --tool=callgrind, docs/pfc.md "Cost").

   Built with -DBENCH_PFC_PREV against the header of the last commit
   before PFC (bench/pfc_cost.sh does), it runs only the credit row, so
   that the two binaries measure the same simulation: what the PFC hooks
   cost a credit fabric. */
#include "bench.h"   /* first: it sets _POSIX_C_SOURCE */
#define IBCC_IMPLEMENTATION
#ifdef BENCH_PFC_PREV
#include "ibcc_prev.h"
#else
#include "ibcc.h"
#endif

#define RUNS 7

static int incast_run(int mode, double *ns_hop, uint64_t *hops)
{
    ibcc_topo topo;
    ibcc_fabric_desc d;
    ibcc_fabric_flow fl[12];
    ibcc_fabric *f = NULL;
    ibcc_fabric_counters cn;
    uint32_t i;
    double t0, wall;
    int ok;
    memset(&d, 0, sizeof d);
    memset(fl, 0, sizeof fl);
    memset(&cn, 0, sizeof cn);
    if (ibcc_topo_fattree(&topo, 4, 2, NULL) != IBCC_OK) return 0;
    (void)ibcc_topo_apply(&topo, &d);
    for (i = 0; i < 12; i++) {
        fl[i].src = 4u + i;
        fl[i].dst = 0;
    }
    d.flows = fl;
    d.flow_count = 12;
#ifndef BENCH_PFC_PREV
    if (mode) {
        ibcc_fabric_desc e = d;
        e.flow_control = IBCC_FLOW_PFC;
        e.pfc.xoff = 20000;
        e.pfc.xon = 10000;
        if (ibcc_fabric_defaults(&e) != IBCC_OK) {
            ibcc_topo_free(&topo);
            return 0;
        }
        if (mode == 1) {
            d = e;
        } else {                        /* credits as deep as PFC's */
            d.buf_packets = e.buf_packets;
            d.buf_credits = e.buf_credits;
        }
    }
#else
    if (mode) { ibcc_topo_free(&topo); return 0; }
#endif
    t0 = bench_now_ns();
    if (ibcc_fabric_create(&f, &d) != IBCC_OK) {
        ibcc_topo_free(&topo);
        return 0;
    }
    ok = ibcc_fabric_run_until(f, IBCC_MS(50)) == IBCC_OK;
    wall = bench_now_ns() - t0;
    ok = ok && ibcc_fabric_check(f) == IBCC_OK;
    (void)ibcc_fabric_counters_get(f, &cn);
    ibcc_fabric_destroy(f);
    ibcc_topo_free(&topo);
    *ns_hop = wall / (double)cn.hops;
    *hops = cn.hops;
    return ok;
}

int main(int argc, char **argv)
{
#ifdef BENCH_PFC_PREV
    const int nk = 1;
#else
    const int nk = 3;
#endif
    static const char *const row[3] = {"fabric_credit_ns_per_hop",
        "fabric_pfc_ns_per_hop", "fabric_credit_deep_ns_per_hop"};
    double hop[3][RUNS], med[3];
    uint64_t hops[3] = {0, 0, 0};
    int k, r;
    if (argc > 2 && strcmp(argv[1], "--once") == 0) {
        double ns = 0;
        uint64_t h = 0;
        int m = strcmp(argv[2], "pfc") == 0 ? 1 : strcmp(argv[2], "deep") == 0 ? 2
                : strcmp(argv[2], "credit") == 0 ? 0 : -1;
        if (m < 0 || !incast_run(m, &ns, &h)) {
            fprintf(stderr, "bench_pfc --once credit|pfc|deep\n");
            return 1;
        }
        printf("%s: %llu packet-hops\n", argv[2], (unsigned long long)h);
        return 0;
    }
    bench_open(argc, argv);
    printf("fabric PFC: 4-ary 2-tree incast 12:1, 1 GB/s, no CC, 50 ms "
           "simulated%s\n", nk == 1 ? " (header before PFC)" : "");
    for (r = 0; r < RUNS; r++)          /* in turn: the same load */
        for (k = 0; k < nk; k++)
            if (!incast_run(k, &hop[k][r], &hops[k])) {
                fprintf(stderr, "bench_pfc: run failed\n");
                return 1;
            }
    for (k = 0; k < nk; k++) {
        med[k] = bench_median(hop[k], RUNS);
        bench_row(row[k], med[k], "ns");
        printf("  (%llu packet-hops)\n", (unsigned long long)hops[k]);
    }
    if (nk == 3) {
        double ratio[RUNS];
        for (r = 0; r < RUNS; r++) ratio[r] = hop[1][r] / hop[0][r];
        bench_row("fabric_pfc_over_credit", bench_median(ratio, RUNS), "x");
        for (r = 0; r < RUNS; r++) ratio[r] = hop[2][r] / hop[0][r];
        bench_row("fabric_credit_deep_over_credit",
                  bench_median(ratio, RUNS), "x");
    }
    bench_close();
    return 0;
}
