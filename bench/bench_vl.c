/* What virtual lanes cost per packet-hop: the two-switch scenario
   ([S02]/[S03]; L = 10, R = 10, buffers of 4 packets per VL, window 1,
   no CC) for 100 ms simulated, with 1, 2, 4 and 8 data VLs (flow i on
   SL i mod V, SL s on VL s, the default VL arbitration). Rows: wall
   nanoseconds per packet-hop (link transmissions), medians over 7 runs.

   Built with -DBENCH_VL_PREV against the header of the last commit
   before the fabric had VLs (bench/vl_cost.sh does), it runs only the
   1-VL row (that header has no VL fields), so the two binaries measure
   the same simulation. */
#include "bench.h"   /* first: it sets _POSIX_C_SOURCE */
#define IBCC_IMPLEMENTATION
#ifdef BENCH_VL_PREV
#include "ibcc_prev.h"
#else
#include "ibcc.h"
#endif

#define RUNS 7

static ibcc_twoswitch ts;

static int vl_run(uint32_t vls, double *ns_hop, uint64_t *hops)
{
    ibcc_fabric_desc d;
    ibcc_fabric *f = NULL;
    ibcc_fabric_counters cn;
    uint32_t i;
    double t0, wall;
    int ok;
    memset(&d, 0, sizeof d);
    memset(&cn, 0, sizeof cn);
    if (ibcc_twoswitch_build(&ts, 10, 10, &d) != IBCC_OK) return 0;
#ifndef BENCH_VL_PREV
    d.vls = vls;
    d.sl2vl_set = 1;
    for (i = 0; i < 16u; i++)
        d.sl2vl[i] = (uint8_t)(i % vls);
#else
    if (vls != 1u) return 0;
#endif
    for (i = 0; i < ts.flow_count; i++) {
        ibcc_fabric_flow *x = &ts.flows[i];
        x->agent = IBCC_AGENT_WINDOW;
        x->window = 1;
        x->start = IBCC_US(100) * i;
#ifndef BENCH_VL_PREV
        x->sl = i % vls;
#endif
    }
    t0 = bench_now_ns();
    if (ibcc_fabric_create(&f, &d) != IBCC_OK) return 0;
    ok = ibcc_fabric_run_until(f, IBCC_MS(100)) == IBCC_OK;
    wall = bench_now_ns() - t0;
    ok = ok && ibcc_fabric_check(f) == IBCC_OK;
    (void)ibcc_fabric_counters_get(f, &cn);
    ibcc_fabric_destroy(f);
    *ns_hop = wall / (double)cn.hops;
    *hops = cn.hops;
    return ok;
}

int main(int argc, char **argv)
{
#ifdef BENCH_VL_PREV
    static const uint32_t vls[1] = {1};
    const int nv = 1;
#else
    static const uint32_t vls[4] = {1, 2, 4, 8};
    const int nv = 4;
#endif
    int k, r;
    bench_open(argc, argv);
    printf("fabric VLs: two-switch L=10 R=10, window 1, no CC, 100 ms "
           "simulated%s\n", nv == 1 ? " (header before VLs)" : "");
    for (k = 0; k < nv; k++) {
        double hop[RUNS];
        uint64_t hops = 0;
        char name[64];
        for (r = 0; r < RUNS; r++)
            if (!vl_run(vls[k], &hop[r], &hops)) {
                fprintf(stderr, "bench_vl: run failed (%u VLs)\n",
                        (unsigned)vls[k]);
                return 1;
            }
        printf("  %u VL%s: %llu hops per run\n", (unsigned)vls[k],
               vls[k] == 1u ? "" : "s", (unsigned long long)hops);
        snprintf(name, sizeof name, "fabric_%s%uvl_ns_per_hop",
                 nv == 1 ? "prev_" : "", (unsigned)vls[k]);
        bench_row(name, bench_median(hop, RUNS), "ns");
    }
    bench_close();
    return 0;
}
