/* Scale of the fabric model, two workloads of 16, 64, 256 and 1024 hosts,
   VCT switches, defaults otherwise, a fixed amount of simulated traffic
   (about 400 000 packet-hops a run):
   - scale_*: 4-ary 2- to 5-trees under uniform Poisson traffic at 0.5 of
     a link per host, one flow per (source, destination) pair (so the
     flow count, and the set-up, grow as hosts squared);
   - leafspine_*: leaf-spine networks (k-ary 2-trees, k = 4, 8, 16, 32:
     k leaves and k spines of 2k ports) under a random permutation of
     greedy flows with input-triggered marking, LIPD and a window of 4
     (one flow per host). The timed part is the run only (create
     excluded), so the rows show the cost per packet-hop as the network
     grows.
   Rows per size: packet-hops per wall second, ns per packet-hop, loop
   events per hop, and the peak memory the fabric allocated (a counting
   allocator that writes every page it hands out, so the figure is an
   upper bound on what is resident). Median of 3 runs. */
#include "bench.h"   /* first: it sets _POSIX_C_SOURCE */
#define IBCC_IMPLEMENTATION
#include "ibcc.h"

static int one_run(uint32_t n, double *hops_s, double *ns_hop,
                   double *ev_hop, double *mib)
{
    ibcc_topo t;
    ibcc_fabric_desc d;
    ibcc_fabric *f = NULL;
    ibcc_fabric_counters c = {0, 0, 0, 0, 0, 0, 0, 0, 0};
    ibcc_fabric_flow *flows;
    uint32_t *hosts, H, i, nf = 0;
    ibcc_time sim;
    double t0, wall;
    int ok;
    if (ibcc_topo_fattree(&t, 4, n, NULL) != IBCC_OK) return 0;
    H = t.host_count;
    flows = (ibcc_fabric_flow *)calloc((size_t)H * (H - 1u), sizeof *flows);
    hosts = (uint32_t *)calloc(H, sizeof *hosts);
    if (!flows || !hosts) return 0;
    for (i = 0; i < H; i++) hosts[i] = i;
    if (ibcc_traffic_uniform(hosts, H, IBCC_MBYTES(500), flows,
                             H * (H - 1u), &nf) != IBCC_OK) return 0;
    memset(&d, 0, sizeof d);
    (void)ibcc_topo_apply(&t, &d);
    d.flows = flows;
    d.flow_count = nf;
    d.seed = 1;
    d.allocator.alloc = bench_count_alloc;
    d.allocator.free = bench_count_free;
    /* about 400 000 hops: H hosts x 0.5 GB/s / 2068 B x 2n hops x sim */
    sim = (ibcc_time)(4e5 / ((double)H * 0.5e9 / 2068.0 * 2.0 * n) * 1e12);
    bench_cur_bytes = bench_peak_bytes = 0;
    t0 = bench_now_ns();
    if (ibcc_fabric_create(&f, &d) != IBCC_OK) return 0;
    ok = ibcc_fabric_run_until(f, sim) == IBCC_OK;
    wall = bench_now_ns() - t0;
    ok = ok && ibcc_fabric_check(f) == IBCC_OK;
    (void)ibcc_fabric_counters_get(f, &c);
    ibcc_fabric_destroy(f);
    ibcc_topo_free(&t);
    free(flows);
    free(hosts);
    if (!ok || c.hops == 0) return 0;
    *hops_s = (double)c.hops / (wall * 1e-9);
    *ns_hop = wall / (double)c.hops;
    *ev_hop = (double)c.events / (double)c.hops;
    *mib = (double)bench_peak_bytes / 1048576.0;
    return 1;
}

/* Leaf-spine of k^2 hosts, permutation of greedy flows, input-triggered
   marking + LIPD, window 4; the run alone is timed. */
static int leafspine_run(uint32_t k, double *hops_s, double *ns_hop,
                         double *ev_hop, double *mib)
{
    ibcc_topo t;
    ibcc_fabric_desc d;
    ibcc_fabric *f = NULL;
    ibcc_fabric_counters c = {0, 0, 0, 0, 0, 0, 0, 0, 0};
    ibcc_fabric_flow *flows;
    uint32_t *hosts, H, i, nf = 0;
    ibcc_time sim;
    double t0, wall;
    int ok;
    if (ibcc_topo_fattree(&t, k, 2, NULL) != IBCC_OK) return 0;
    H = t.host_count;
    flows = (ibcc_fabric_flow *)calloc(H, sizeof *flows);
    hosts = (uint32_t *)calloc(H, sizeof *hosts);
    if (!flows || !hosts) return 0;
    for (i = 0; i < H; i++) hosts[i] = i;
    if (ibcc_traffic_permutation(hosts, H, 7, flows, H, &nf) != IBCC_OK)
        return 0;
    for (i = 0; i < nf; i++) {
        flows[i].agent = IBCC_AGENT_LAW;
        flows[i].window = 4;
    }
    memset(&d, 0, sizeof d);
    (void)ibcc_topo_apply(&t, &d);
    d.flows = flows;
    d.flow_count = nf;
    d.marker.engine = IBCC_MARKER_INPUT;
    d.seed = 1;
    d.allocator.alloc = bench_count_alloc;
    d.allocator.free = bench_count_free;
    /* about 400 000 hops: H hosts at up to a link each, 2068-byte
       packets, 3 hops (leaf, spine, leaf) on most paths */
    sim = (ibcc_time)(4e5 / ((double)H * 1e9 / 2068.0 * 3.0) * 1e12);
    bench_cur_bytes = bench_peak_bytes = 0;
    if (ibcc_fabric_create(&f, &d) != IBCC_OK) return 0;
    t0 = bench_now_ns();
    ok = ibcc_fabric_run_until(f, sim) == IBCC_OK;
    wall = bench_now_ns() - t0;
    ok = ok && ibcc_fabric_check(f) == IBCC_OK;
    (void)ibcc_fabric_counters_get(f, &c);
    ibcc_fabric_destroy(f);
    ibcc_topo_free(&t);
    free(flows);
    free(hosts);
    if (!ok || c.hops == 0) return 0;
    *hops_s = (double)c.hops / (wall * 1e-9);
    *ns_hop = wall / (double)c.hops;
    *ev_hop = (double)c.events / (double)c.hops;
    *mib = (double)bench_peak_bytes / 1048576.0;
    return 1;
}

int main(int argc, char **argv)
{
    uint32_t n;
    bench_open(argc, argv);
    printf("fabric scale: 4-ary n-trees, uniform Poisson at 0.5 of a link "
           "per host, about 400k packet-hops a run\n");
    for (n = 2; n <= 5; n++) {
        double hs[3], nh[3], eh[3], mb[3];
        char name[64];
        int r;
        uint32_t H = 1;
        for (r = 0; r < (int)n; r++) H *= 4u;
        for (r = 0; r < 3; r++)
            if (!one_run(n, &hs[r], &nh[r], &eh[r], &mb[r])) {
                fprintf(stderr, "bench_scale: run failed (%u hosts)\n", H);
                return 1;
            }
        snprintf(name, sizeof name, "scale_%u_hosts_hops_per_s", H);
        bench_row(name, bench_median(hs, 3), "hops/s");
        snprintf(name, sizeof name, "scale_%u_hosts_ns_per_hop", H);
        bench_row(name, bench_median(nh, 3), "ns");
        snprintf(name, sizeof name, "scale_%u_hosts_events_per_hop", H);
        bench_row(name, bench_median(eh, 3), "ratio");
        snprintf(name, sizeof name, "scale_%u_hosts_alloc_peak", H);
        bench_row(name, bench_median(mb, 3), "MiB");
    }
    printf("fabric scale: leaf-spine (k-ary 2-trees), permutation of greedy "
           "flows, input-triggered + LIPD, window 4; the run timed\n");
    for (n = 4; n <= 32; n *= 2) {
        double hs[3], nh[3], eh[3], mb[3];
        char name[64];
        int r;
        for (r = 0; r < 3; r++)
            if (!leafspine_run(n, &hs[r], &nh[r], &eh[r], &mb[r])) {
                fprintf(stderr, "bench_scale: leaf-spine run failed (k = %u)\n", n);
                return 1;
            }
        snprintf(name, sizeof name, "leafspine_%u_hosts_hops_per_s", n * n);
        bench_row(name, bench_median(hs, 3), "hops/s");
        snprintf(name, sizeof name, "leafspine_%u_hosts_ns_per_hop", n * n);
        bench_row(name, bench_median(nh, 3), "ns");
        snprintf(name, sizeof name, "leafspine_%u_hosts_events_per_hop", n * n);
        bench_row(name, bench_median(eh, 3), "ratio");
        snprintf(name, sizeof name, "leafspine_%u_hosts_alloc_peak", n * n);
        bench_row(name, bench_median(mb, 3), "MiB");
    }
    bench_close();
    return 0;
}
