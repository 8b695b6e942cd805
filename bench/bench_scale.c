/* Scale of the fabric model: VCT switches, defaults otherwise. Each run
   is a child process (fork), so that its peak resident memory
   (getrusage ru_maxrss) is its own; times are the child's CPU time
   (CLOCK_PROCESS_CPUTIME_ID), so that other load on the machine does not
   count. Median of 3 runs per row.
   - uniform_*: 4-ary n-trees (16 .. 4096 hosts) under uniform Poisson
     traffic at 0.5 of a link per host, as one UNIFORM source per host
     (state grows with hosts and packets in flight); uniform_pairs_*: the
     same traffic as one POISSON flow per (source, destination) pair, the
     form that grows with hosts squared (16 .. 1024 hosts). About 400 000
     packet-hops a run.
   - leafspine_*: leaf-spine networks (k-ary 2-trees, k = 4 .. 32: 16 ..
     1024 hosts) under a random permutation of greedy flows with
     input-triggered marking, LIPD and a window of 4; about 1.2 M
     packet-hops a run. leafspine_1024_over_16 is the ratio of the two
     hops/s medians: the cost per packet-hop as the network grows;
     leafspine_1024_hosts_data_hops_per_s its data packets' share (for
     bench/htsim.sh's comparison with CC).
   - leafspine_nocc_*: the 16- and 1024-host leaf-spines under the same
     permutation without CC (agent NONE, no marking), as fattree_* below;
     bench/htsim.sh runs csg-htsim on the 1024-host one.
   - fattree_*: k-ary n-trees of 16 .. 20 736 hosts (4-ary 2-, 4- and
     5-trees, 16-ary 3-tree, 12-ary 4-tree) under a random permutation of
     greedy flows, no CC; set-up = building the topology (its up/down
     routes), the flows and the fabric; about 400 000 packet-hops a run
     (at least 20 packets per host).
   Rows: set-up ms, packet-hops per CPU second, ns per packet-hop, loop
   events per hop, the fabric's allocation peak (a counting allocator)
   and the process's peak resident memory, MiB.
   - routes_*: CPU time of a topology builder, almost all of it the
     up/down routes (the router the fabric loader shares): fat tree and
     n-fly of 4096 hosts (16-ary 3-trees), a 32x32 torus of 4 hosts per
     switch, a leaf-spine of 16384 hosts (128-ary 2-tree), a 12-ary
     4-tree of 20 736 hosts; median of 3 builds.
   `bench_scale --row KIND K N [REPS]` runs one workload REPS times in
   this process and prints each run (for profiling and for comparing two
   builds in turn). */
#define _XOPEN_SOURCE 600
#include "bench.h"   /* first: it sets _POSIX_C_SOURCE */
#include <sys/resource.h>
#define IBCC_IMPLEMENTATION
#include "ibcc.h"

static double cpu_ns(void)
{
    (void)bench_now_ns;          /* bench.h's wall clock: not used here */
    struct timespec ts;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
    return (double)ts.tv_sec * 1e9 + (double)ts.tv_nsec;
}

typedef struct scale_fig {
    double setup_ms, hops_s, ns_hop, ev_hop, mib, rss, hops, data_share;
} scale_fig;

/* The workloads: kind, radix, stages. */
enum { W_UNIFORM, W_PAIRS, W_LEAFSPINE, W_FATTREE };

/* One run in this process: fills *out, 1 on success. */
static int run_here(int kind, uint32_t k, uint32_t n, scale_fig *out)
{
    ibcc_topo t;
    ibcc_fabric_desc d;
    ibcc_fabric *f = NULL;
    ibcc_fabric_flow *flows = NULL;
    ibcc_fabric_source *src = NULL;
    ibcc_fabric_counters c;
    uint32_t *hosts = NULL, H, i, nf = 0;
    double t0, t1, t2, hops, sim_s;
    int ok = 0;
    memset(&c, 0, sizeof c);
    bench_cur_bytes = bench_peak_bytes = 0;
    t0 = cpu_ns();
    if (ibcc_topo_fattree(&t, k, n, NULL) != IBCC_OK) return 0;
    H = t.host_count;
    hosts = (uint32_t *)calloc(H, sizeof *hosts);
    if (!hosts) goto out;
    for (i = 0; i < H; i++) hosts[i] = i;
    memset(&d, 0, sizeof d);
    (void)ibcc_topo_apply(&t, &d);
    d.seed = 1;
    d.allocator.alloc = bench_count_alloc;
    d.allocator.free = bench_count_free;
    if (kind == W_UNIFORM) {
        src = (ibcc_fabric_source *)calloc(H, sizeof *src);
        if (!src || ibcc_traffic_uniform_sources(hosts, H, IBCC_MBYTES(500),
                                                 src, H, &nf) != IBCC_OK)
            goto out;
        d.sources = src;
        d.source_count = nf;
    } else if (kind == W_PAIRS) {
        flows = (ibcc_fabric_flow *)calloc((size_t)H * (H - 1u), sizeof *flows);
        if (!flows || ibcc_traffic_uniform(hosts, H, IBCC_MBYTES(500), flows,
                                           H * (H - 1u), &nf) != IBCC_OK)
            goto out;
    } else {
        flows = (ibcc_fabric_flow *)calloc(H, sizeof *flows);
        if (!flows || ibcc_traffic_permutation(hosts, H, 7, flows, H, &nf)
                      != IBCC_OK)
            goto out;
        if (kind == W_LEAFSPINE) {
            for (i = 0; i < nf; i++) {
                flows[i].agent = IBCC_AGENT_LAW;
                flows[i].window = 4;
            }
            d.marker.engine = IBCC_MARKER_INPUT;
        }
    }
    if (flows) {
        d.flows = flows;
        d.flow_count = nf;
    }
    if (ibcc_fabric_create(&f, &d) != IBCC_OK) goto out;
    t1 = cpu_ns();
    /* simulated time for the hops wanted: packets of 2068 bytes, each
       host at 0.5 (uniform) or up to 1 link, hops per packet about 2n
       (uniform, random pairs), 3 (leaf-spine) or 2n (permutation) */
    if (kind == W_UNIFORM || kind == W_PAIRS)
        sim_s = 4e5 / ((double)H * 0.5e9 / 2068.0 * 2.0 * n);
    else if (kind == W_LEAFSPINE)
        sim_s = 1.2e6 / ((double)H * 1e9 / 2068.0 * 3.0);
    else
        sim_s = 4e5 / ((double)H * 1e9 / 2068.0 * 2.0 * n);
    if (kind == W_FATTREE && sim_s < 20.0 * 2068.0 / 1e9)
        sim_s = 20.0 * 2068.0 / 1e9;
    ok = ibcc_fabric_run_until(f, (ibcc_time)(sim_s * 1e12)) == IBCC_OK;
    t2 = cpu_ns();
    ok = ok && ibcc_fabric_check(f) == IBCC_OK;
    (void)ibcc_fabric_counters_get(f, &c);
    hops = (double)c.hops;
    if (ok && hops > 0) {
        struct rusage ru;
        out->setup_ms = (t1 - t0) * 1e-6;
        out->hops_s = hops / ((t2 - t1) * 1e-9);
        out->ns_hop = (t2 - t1) / hops;
        out->ev_hop = (double)c.events / hops;
        out->hops = hops;
        out->data_share = c.delivered
            ? (double)c.data_delivered / (double)c.delivered : 0;
        out->mib = (double)bench_peak_bytes / 1048576.0;
        getrusage(RUSAGE_SELF, &ru);
        out->rss = (double)ru.ru_maxrss / 1024.0;     /* KiB on Linux */
    } else {
        ok = 0;
    }
out:
    ibcc_fabric_destroy(f);
    ibcc_topo_free(&t);
    free(flows);
    free(src);
    free(hosts);
    return ok;
}

/* The same in a child process, so that ru_maxrss is the run's alone. */
typedef struct { int kind; uint32_t k, n; } run_arg;
static int run_here_(const void *arg, void *out)
{
    const run_arg *a = (const run_arg *)arg;
    return run_here(a->kind, a->k, a->n, (scale_fig *)out);
}
static int run_child(int kind, uint32_t k, uint32_t n, scale_fig *out)
{
    run_arg a;
    a.kind = kind;
    a.k = k;
    a.n = n;
    return bench_in_child(run_here_, &a, out, sizeof *out);
}

static double med_hops_[64];
static int nmed_;
static double last_data_share_;     /* median of the last rows() call */

/* Three runs of one size; its rows (medians) named prefix_H_hosts_*. */
static int rows(const char *prefix, int kind, uint32_t k, uint32_t n)
{
    double v[6][3], ds[3];
    static const char *const what[6] = {"setup_ms", "hops_per_s",
        "ns_per_hop", "events_per_hop", "alloc_peak", "rss_peak"};
    static const char *const unit[6] = {"ms", "hops/s", "ns", "ratio",
                                        "MiB", "MiB"};
    char name[80];
    uint32_t H = 1, j;
    int r, q;
    for (j = 0; j < n; j++) H *= k;
    for (r = 0; r < 3; r++) {
        scale_fig fg;
        if (!run_child(kind, k, n, &fg)) {
            fprintf(stderr, "bench_scale: %s run failed (%u hosts)\n",
                    prefix, H);
            return 0;
        }
        v[0][r] = fg.setup_ms;
        v[1][r] = fg.hops_s;
        v[2][r] = fg.ns_hop;
        v[3][r] = fg.ev_hop;
        v[4][r] = fg.mib;
        v[5][r] = fg.rss;
        ds[r] = fg.data_share;
    }
    last_data_share_ = bench_median(ds, 3);
    for (q = 0; q < 6; q++) {
        double m;
        snprintf(name, sizeof name, "%s_%u_hosts_%s", prefix, H, what[q]);
        m = bench_median(v[q], 3);
        bench_row(name, m, unit[q]);
        if (q == 1 && nmed_ < 64) med_hops_[nmed_++] = m;
    }
    return 1;
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
        double t0 = cpu_ns();
        res = kind == 0 ? ibcc_topo_fattree(&t, k, n, NULL)
            : kind == 1 ? ibcc_topo_nfly(&t, k, n, NULL)
            : ibcc_topo_mesh(&t, k, n, 4, 1, 0, NULL);
        v[r] = (cpu_ns() - t0) * 1e-6;
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

/* bench_scale --htsim-cm K FILE: the permutation the leaf-spine rows use
   (ibcc_traffic_permutation of k^2 hosts, seed 7) as a csg-htsim
   connection matrix of long flows, for bench/htsim.sh. */
static int htsim_cm(uint32_t k, const char *path)
{
    uint32_t H = k * k, i, nf = 0;
    uint32_t *hosts = (uint32_t *)calloc(H, sizeof *hosts);
    ibcc_fabric_flow *fl = (ibcc_fabric_flow *)calloc(H, sizeof *fl);
    FILE *o = fopen(path, "w");
    int ok = hosts && fl && o;
    for (i = 0; ok && i < H; i++) hosts[i] = i;
    ok = ok && ibcc_traffic_permutation(hosts, H, 7, fl, H, &nf) == IBCC_OK;
    if (ok) {
        fprintf(o, "Nodes %u\nConnections %u\n", H, nf);
        for (i = 0; i < nf; i++)
            fprintf(o, "%u->%u id %u start 0 size 2000000000\n", fl[i].src,
                    fl[i].dst, i + 1u);
    }
    if (o && fclose(o) != 0) ok = 0;
    free(hosts);
    free(fl);
    return ok ? 0 : 1;
}

/* bench_scale --row KIND K N [REPS]: one workload (KIND leafspine,
   leafspine_nocc, uniform or fattree) on the k-ary n-tree, REPS runs
   (default 3) in this process, one line per run: hops/s, ns/hop, events
   per hop, and the packet-hop count (for comparing two builds). */
static int one_row(int argc, char **argv)
{
    uint32_t k = (uint32_t)atoi(argv[3]), n = (uint32_t)atoi(argv[4]);
    int kind = strcmp(argv[2], "leafspine") == 0 ? W_LEAFSPINE
             : strcmp(argv[2], "uniform") == 0 ? W_UNIFORM
             : (strcmp(argv[2], "fattree") == 0
                || strcmp(argv[2], "leafspine_nocc") == 0) ? W_FATTREE : -1;
    int reps = argc > 5 ? atoi(argv[5]) : 3, r;
    if (kind < 0 || k < 2 || n < 1 || reps < 1) {
        fprintf(stderr, "bench_scale --row: leafspine|leafspine_nocc|uniform"
                "|fattree K N [REPS]\n");
        return 2;
    }
    for (r = 0; r < reps; r++) {
        scale_fig fg;
        if (!run_here(kind, k, n, &fg)) return 1;
        printf("%s %u %u: %.4g hops/s %.1f ns/hop %.3f ev/hop %.0f hops\n",
               argv[2], k, n, fg.hops_s, fg.ns_hop, fg.ev_hop,
               fg.hops);
    }
    return 0;
}

int main(int argc, char **argv)
{
    uint32_t n;
    double ls16;
    if (argc == 4 && strcmp(argv[1], "--htsim-cm") == 0)
        return htsim_cm((uint32_t)atoi(argv[2]), argv[3]);
    if (argc >= 5 && strcmp(argv[1], "--row") == 0) return one_row(argc, argv);
    bench_open(argc, argv);
    printf("fabric scale: 4-ary n-trees, uniform Poisson at 0.5 of a link "
           "per host, one UNIFORM source per host; CPU time\n");
    for (n = 2; n <= 6; n++)
        if (!rows("uniform", W_UNIFORM, 4, n)) return 1;
    printf("fabric scale: the same traffic as one flow per (source, "
           "destination) pair\n");
    for (n = 2; n <= 5; n += (n == 2 ? 2 : 1))
        if (!rows("uniform_pairs", W_PAIRS, 4, n)) return 1;
    printf("fabric scale: leaf-spine (k-ary 2-trees), permutation of greedy "
           "flows, input-triggered + LIPD, window 4\n");
    nmed_ = 0;
    for (n = 4; n <= 32; n *= 2)
        if (!rows("leafspine", W_LEAFSPINE, n, 2)) return 1;
    ls16 = med_hops_[0];
    bench_row("leafspine_1024_over_16", med_hops_[3] / ls16, "ratio");
    /* data packets' share of the hops (each data packet is acknowledged
       over as many links as it crossed, so hops x delivered data packets
       / delivered packets), for bench/htsim.sh's comparison with CC */
    bench_row("leafspine_1024_hosts_data_hops_per_s",
              med_hops_[3] * last_data_share_, "hops/s");
    printf("fabric scale: the same leaf-spines and permutation, no CC "
           "(bench/htsim.sh compares csg-htsim with the 1024-host row)\n");
    if (!rows("leafspine_nocc", W_FATTREE, 4, 2)
        || !rows("leafspine_nocc", W_FATTREE, 32, 2))
        return 1;
    printf("fabric scale: k-ary n-trees of 16 .. 20736 hosts, permutation of "
           "greedy flows, no CC\n");
    if (!rows("fattree", W_FATTREE, 4, 2) || !rows("fattree", W_FATTREE, 4, 4)
        || !rows("fattree", W_FATTREE, 4, 5)
        || !rows("fattree", W_FATTREE, 16, 3)
        || !rows("fattree", W_FATTREE, 12, 4))
        return 1;
    printf("fabric scale: building a topology (its up/down routes), "
           "median of 3, CPU time\n");
    if (!routes_row("fattree_4096_hosts", 0, 16, 3)
        || !routes_row("nfly_4096_hosts", 1, 16, 3)
        || !routes_row("torus_4096_hosts", 2, 32, 32)
        || !routes_row("leafspine_16384_hosts", 0, 128, 2)
        || !routes_row("fattree_20736_hosts", 0, 12, 4))
        return 1;
    bench_close();
    return 0;
}
