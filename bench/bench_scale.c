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
   upper bound on what is resident). Median of 3 runs.
   - routes_*: wall time of a topology builder, almost all of it the
     up/down routes (the router the fabric loader shares): fat tree and
     n-fly of 4096 hosts (16-ary 3-trees), a 32x32 torus of 4 hosts per
     switch (4096 hosts), a leaf-spine of 16384 hosts (128-ary 2-tree);
     median of 3 builds. */
#include "bench.h"   /* first: it sets _POSIX_C_SOURCE */
#define IBCC_IMPLEMENTATION
#include "ibcc.h"

/* One measured run of the fabric d up to `sim`: create (timed too when
   with_create), run, check; the rows' four figures. 0 on any error. */
typedef struct scale_fig { double hops_s, ns_hop, ev_hop, mib; } scale_fig;

static int measure(ibcc_fabric_desc *d, ibcc_time sim, int with_create,
                   scale_fig *out)
{
    ibcc_fabric *f = NULL;
    ibcc_fabric_counters c = {0, 0, 0, 0, 0, 0, 0, 0, 0};
    double t0 = 0, wall;
    int ok;
    d->allocator.alloc = bench_count_alloc;
    d->allocator.free = bench_count_free;
    bench_cur_bytes = bench_peak_bytes = 0;
    if (with_create) t0 = bench_now_ns();
    if (ibcc_fabric_create(&f, d) != IBCC_OK) return 0;
    if (!with_create) t0 = bench_now_ns();
    ok = ibcc_fabric_run_until(f, sim) == IBCC_OK;
    wall = bench_now_ns() - t0;
    ok = ok && ibcc_fabric_check(f) == IBCC_OK;
    (void)ibcc_fabric_counters_get(f, &c);
    ibcc_fabric_destroy(f);
    if (!ok || c.hops == 0) return 0;
    out->hops_s = (double)c.hops / (wall * 1e-9);
    out->ns_hop = wall / (double)c.hops;
    out->ev_hop = (double)c.events / (double)c.hops;
    out->mib = (double)bench_peak_bytes / 1048576.0;
    return 1;
}

/* 4-ary n-tree, uniform Poisson at 0.5 of a link per host; create
   included in the time. */
static int tree_run(uint32_t n, scale_fig *out)
{
    ibcc_topo t;
    ibcc_fabric_desc d;
    ibcc_fabric_flow *flows;
    uint32_t *hosts, H, i, nf = 0;
    int ok = 0;
    if (ibcc_topo_fattree(&t, 4, n, NULL) != IBCC_OK) return 0;
    H = t.host_count;
    flows = (ibcc_fabric_flow *)calloc((size_t)H * (H - 1u), sizeof *flows);
    hosts = (uint32_t *)calloc(H, sizeof *hosts);
    if (flows && hosts) {
        for (i = 0; i < H; i++) hosts[i] = i;
        if (ibcc_traffic_uniform(hosts, H, IBCC_MBYTES(500), flows,
                                 H * (H - 1u), &nf) == IBCC_OK) {
            memset(&d, 0, sizeof d);
            (void)ibcc_topo_apply(&t, &d);
            d.flows = flows;
            d.flow_count = nf;
            d.seed = 1;
            /* about 400 000 hops: H hosts x 0.5 GB/s / 2068 B x 2n hops */
            ok = measure(&d, (ibcc_time)(4e5 / ((double)H * 0.5e9 / 2068.0
                                                * 2.0 * n) * 1e12), 1, out);
        }
    }
    ibcc_topo_free(&t);
    free(flows);
    free(hosts);
    return ok;
}

/* Leaf-spine of k^2 hosts, permutation of greedy flows, input-triggered
   marking + LIPD, window 4; the run alone is timed. */
static int leafspine_run(uint32_t k, scale_fig *out)
{
    ibcc_topo t;
    ibcc_fabric_desc d;
    ibcc_fabric_flow *flows;
    uint32_t *hosts, H, i, nf = 0;
    int ok = 0;
    if (ibcc_topo_fattree(&t, k, 2, NULL) != IBCC_OK) return 0;
    H = t.host_count;
    flows = (ibcc_fabric_flow *)calloc(H, sizeof *flows);
    hosts = (uint32_t *)calloc(H, sizeof *hosts);
    if (flows && hosts) {
        for (i = 0; i < H; i++) hosts[i] = i;
        if (ibcc_traffic_permutation(hosts, H, 7, flows, H, &nf) == IBCC_OK) {
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
            /* about 400 000 hops: H hosts at up to a link each, 2068-byte
               packets, 3 hops (leaf, spine, leaf) on most paths */
            ok = measure(&d, (ibcc_time)(4e5 / ((double)H * 1e9 / 2068.0
                                                * 3.0) * 1e12), 0, out);
        }
    }
    ibcc_topo_free(&t);
    free(flows);
    free(hosts);
    return ok;
}

/* Median of 3 builds of one topology (kind 0 fattree k n, 1 nfly k n,
   2 torus k x n of 4 hosts per switch): its row routes_<name>_ms. */
static int routes_row(const char *name, int kind, uint32_t k, uint32_t n)
{
    double v[3];
    char row[64];
    int r;
    for (r = 0; r < 3; r++) {
        ibcc_topo t;
        ibcc_result res;
        double t0 = bench_now_ns();
        res = kind == 0 ? ibcc_topo_fattree(&t, k, n, NULL)
            : kind == 1 ? ibcc_topo_nfly(&t, k, n, NULL)
            : ibcc_topo_mesh(&t, k, n, 4, 1, 0, NULL);
        v[r] = (bench_now_ns() - t0) * 1e-6;
        if (res != IBCC_OK) {
            fprintf(stderr, "bench_scale: %s build failed\n", name);
            return 0;
        }
        ibcc_topo_free(&t);
    }
    snprintf(row, sizeof row, "routes_%s_ms", name);
    bench_row(row, bench_median(v, 3), "ms");
    return 1;
}

/* Three runs of one size; its four rows (medians) named prefix_H_hosts_*. */
static int rows(const char *prefix, uint32_t H, uint32_t param,
                int (*run)(uint32_t, scale_fig *))
{
    double v[4][3];
    static const char *const what[4] = {"hops_per_s", "ns_per_hop",
                                        "events_per_hop", "alloc_peak"};
    static const char *const unit[4] = {"hops/s", "ns", "ratio", "MiB"};
    char name[64];
    int r, k;
    for (r = 0; r < 3; r++) {
        scale_fig fg;
        if (!run(param, &fg)) {
            fprintf(stderr, "bench_scale: %s run failed (%u hosts)\n", prefix, H);
            return 0;
        }
        v[0][r] = fg.hops_s;
        v[1][r] = fg.ns_hop;
        v[2][r] = fg.ev_hop;
        v[3][r] = fg.mib;
    }
    for (k = 0; k < 4; k++) {
        snprintf(name, sizeof name, "%s_%u_hosts_%s", prefix, H, what[k]);
        bench_row(name, bench_median(v[k], 3), unit[k]);
    }
    return 1;
}

int main(int argc, char **argv)
{
    uint32_t n;
    bench_open(argc, argv);
    printf("fabric scale: 4-ary n-trees, uniform Poisson at 0.5 of a link "
           "per host, about 400k packet-hops a run\n");
    for (n = 2; n <= 5; n++)
        if (!rows("scale", 1u << (2u * n), n, tree_run)) return 1;
    printf("fabric scale: leaf-spine (k-ary 2-trees), permutation of greedy "
           "flows, input-triggered + LIPD, window 4; the run timed\n");
    for (n = 4; n <= 32; n *= 2)
        if (!rows("leafspine", n * n, n, leafspine_run)) return 1;
    printf("fabric scale: building a topology (its up/down routes), "
           "median of 3\n");
    if (!routes_row("fattree_4096_hosts", 0, 16, 3)
        || !routes_row("nfly_4096_hosts", 1, 16, 3)
        || !routes_row("torus_4096_hosts", 2, 32, 32)
        || !routes_row("leafspine_16384_hosts", 0, 128, 2))
        return 1;
    bench_close();
    return 0;
}
