/* What HPCC costs per packet-hop against IBA CC on the same fabric: a
   4-ary 2-tree of 100 Gb/s links of 1 us (1000-byte packets, credit
   links with 64 KB input buffers), a 6:1 incast (hosts 8-13 -> host 5)
   and a permutation among hosts 0-7 (host i -> host (i + 4) mod 8), all
   greedy, for 2 ms simulated. IBA CC: FECN marking (Threshold 15,
   Marking_Rate 1), BECNs on the ACKs, the CCT agent. HPCC: INT pushed
   at every switch egress, echoed in the ACKs, the HPCC agent (T = 9 us).
   Rows: wall nanoseconds per packet-hop (link transmissions, data and
   ACKs) of each, medians over 7 runs, run in turn (IBA, HPCC, IBA, ...)
   so that both see the same machine load; and the median of the
   per-round ratios HPCC / IBA. */
#include "bench.h"   /* first: it sets _POSIX_C_SOURCE */
#define IBCC_IMPLEMENTATION
#include "ibcc.h"

#define RUNS 7

static int one_run(int hpcc, double *ns_hop, uint64_t *hops)
{
    ibcc_topo topo;
    ibcc_fabric_desc d;
    ibcc_fabric_flow flows[14];
    ibcc_fabric *f = NULL;
    ibcc_fabric_counters cn;
    uint32_t i;
    double t0;
    int ok;
    memset(&d, 0, sizeof d);
    memset(flows, 0, sizeof flows);
    memset(&cn, 0, sizeof cn);
    if (ibcc_topo_fattree(&topo, 4, 2, NULL) != IBCC_OK) return 0;
    (void)ibcc_topo_apply(&topo, &d);
    d.link_rate = IBCC_GBITS(100);
    d.prop_delay = IBCC_US(1);
    d.data_size = 1000;
    d.buf_credits = 1024;
    d.buf_packets = 64;
    d.ack_buf_packets = 64;
    for (i = 0; i < 6u; i++) {
        flows[i].src = 8u + i;
        flows[i].dst = 5;
    }
    for (i = 0; i < 8u; i++) {
        flows[6u + i].src = i;
        flows[6u + i].dst = (i + 4u) % 8u;
    }
    for (i = 0; i < 14u; i++)
        flows[i].agent = hpcc ? IBCC_AGENT_HPCC : IBCC_AGENT_CCT;
    d.flows = flows;
    d.flow_count = 14;
    if (hpcc) {
        d.hpcc.base_rtt = IBCC_US(9);
    } else {
        d.marker.engine = IBCC_MARKER_IBA;
        d.marker.iba_threshold = 15;
        d.marker.iba_marking_rate = 1;
        d.dest.scheme = IBCC_DEST_IBA;
    }
    t0 = bench_now_ns();
    if (ibcc_fabric_create(&f, &d) != IBCC_OK) {
        ibcc_topo_free(&topo);
        return 0;
    }
    ok = ibcc_fabric_run_until(f, IBCC_MS(2)) == IBCC_OK;
    (void)ibcc_fabric_counters_get(f, &cn);
    *ns_hop = (bench_now_ns() - t0) / (double)(cn.hops ? cn.hops : 1u);
    *hops = cn.hops;
    ok = ok && ibcc_fabric_check(f) == IBCC_OK;
    ibcc_fabric_destroy(f);
    ibcc_topo_free(&topo);
    return ok;
}

int main(int argc, char **argv)
{
    double iba[RUNS], hp[RUNS], ratio[RUNS];
    uint64_t h_iba = 0, h_hp = 0;
    int r;
    bench_open(argc, argv);
    printf("HPCC against IBA CC per packet-hop (4-ary 2-tree, 100 Gb/s, "
           "6:1 incast + permutation, 2 ms; medians of %d)\n", RUNS);
    for (r = 0; r < RUNS; r++) {
        if (!one_run(0, &iba[r], &h_iba) || !one_run(1, &hp[r], &h_hp)) {
            fprintf(stderr, "bench_hpcc: a run failed\n");
            return 1;
        }
        ratio[r] = hp[r] / iba[r];
    }
    bench_row("fabric_iba_cc_ns_per_hop", bench_median(iba, RUNS), "ns");
    bench_row("fabric_hpcc_ns_per_hop", bench_median(hp, RUNS), "ns");
    bench_row("fabric_hpcc_over_iba_cc_ratio", bench_median(ratio, RUNS), "x");
    printf("  (packet-hops per run: IBA CC %llu, HPCC %llu)\n",
           (unsigned long long)h_iba, (unsigned long long)h_hp);
    bench_close();
    return 0;
}
