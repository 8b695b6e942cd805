/* Whole-scenario throughput of the fabric model: a 500 ms run of the
   two-switch victim scenario ([S02]/[S03]; L = 10, R = 10, buffer 4,
   window 1, input-triggered marking, LIPD). Rows: wall time per run,
   simulated packet-hops (link transmissions) per wall second, loop
   events per simulated packet (data + ACK), and the ratio of events to
   hops. Medians over 5 runs.

   Buffer depth: the same scenario without CC for 100 ms with input
   buffers of 4, 64, 1024 and 65535 packets, with window 1 (the same
   traffic at every depth) and without a window (deeper buffers then hold
   more packets): wall time, ns per packet-hop and the peak bytes the
   fabric allocated (through a counting allocator; with the default
   allocator large blocks come from calloc and untouched pages cost no
   memory, so the resident size is lower). */
#include "bench.h"   /* first: it sets _POSIX_C_SOURCE */
#define IBCC_IMPLEMENTATION
#include "ibcc.h"

#define RUNS 5

static ibcc_twoswitch ts;

static int one_run(double *wall_ns, ibcc_fabric_counters *cn)
{
    ibcc_fabric_desc d;
    ibcc_fabric *f = NULL;
    uint32_t i;
    double t0;
    int ok;
    memset(&d, 0, sizeof d);
    if (ibcc_twoswitch_build(&ts, 10, 10, &d) != IBCC_OK) return 0;
    d.marker.engine = IBCC_MARKER_INPUT;
    d.law.kind = IBCC_LAW_LIPD;
    d.horizon = IBCC_MS(500);
    for (i = 0; i < ts.flow_count; i++) {
        ibcc_fabric_flow *x = &ts.flows[i];
        x->agent = IBCC_AGENT_LAW;
        x->window = 1;
        if (x->cls == IBCC_TS_VICTIM) {
            x->start = IBCC_MS(40);
            x->stop = IBCC_MS(60);
        } else {
            x->start = IBCC_US(100) * i;
        }
    }
    t0 = bench_now_ns();
    if (ibcc_fabric_create(&f, &d) != IBCC_OK) return 0;
    ok = ibcc_fabric_run_until(f, IBCC_MS(500)) == IBCC_OK;
    *wall_ns = bench_now_ns() - t0;
    ok = ok && ibcc_fabric_check(f) == IBCC_OK;
    (void)ibcc_fabric_counters_get(f, cn);
    ibcc_fabric_destroy(f);
    return ok;
}

static int depth_run(uint32_t buf, uint32_t window, double *wall_ns,
                     double *ns_hop, double *peak)
{
    ibcc_fabric_desc d;
    ibcc_fabric *f = NULL;
    ibcc_fabric_counters cn;
    uint32_t i;
    double t0;
    int ok;
    memset(&d, 0, sizeof d);
    if (ibcc_twoswitch_build(&ts, 10, 10, &d) != IBCC_OK) return 0;
    memset(&cn, 0, sizeof cn);
    d.buf_packets = buf;
    d.allocator.alloc = bench_count_alloc;
    d.allocator.free = bench_count_free;
    for (i = 0; i < ts.flow_count; i++) {
        ibcc_fabric_flow *x = &ts.flows[i];
        x->agent = window ? IBCC_AGENT_WINDOW : IBCC_AGENT_NONE;
        x->window = window;
        x->start = IBCC_US(100) * i;
    }
    bench_cur_bytes = bench_peak_bytes = 0;
    t0 = bench_now_ns();
    if (ibcc_fabric_create(&f, &d) != IBCC_OK) return 0;
    ok = ibcc_fabric_run_until(f, IBCC_MS(100)) == IBCC_OK;
    *wall_ns = bench_now_ns() - t0;
    ok = ok && ibcc_fabric_check(f) == IBCC_OK;
    (void)ibcc_fabric_counters_get(f, &cn);
    ibcc_fabric_destroy(f);
    *ns_hop = *wall_ns / (double)cn.hops;
    *peak = (double)bench_peak_bytes;
    return ok;
}

static int depth_rows(void)
{
    static const uint32_t depth[4] = {4, 64, 1024, 65535};
    int w, k, r;
    printf("fabric: buffer depth, two-switch L=10 R=10 no CC, 100 ms "
           "simulated\n");
    for (w = 1; w >= 0; w--) {
        for (k = 0; k < 4; k++) {
            double wall[3], hop[3], peak[3];
            char name[96];
            for (r = 0; r < 3; r++)
                if (!depth_run(depth[k], (uint32_t)w, &wall[r], &hop[r],
                               &peak[r])) {
                    fprintf(stderr, "bench_fabric: depth run failed\n");
                    return 0;
                }
            snprintf(name, sizeof name, "fabric_depth_%s_buf%u_wall",
                     w ? "window1" : "nowindow", (unsigned)depth[k]);
            bench_row(name, bench_median(wall, 3) * 1e-6, "ms");
            snprintf(name, sizeof name, "fabric_depth_%s_buf%u_ns_per_hop",
                     w ? "window1" : "nowindow", (unsigned)depth[k]);
            bench_row(name, bench_median(hop, 3), "ns");
            snprintf(name, sizeof name, "fabric_depth_%s_buf%u_alloc_peak",
                     w ? "window1" : "nowindow", (unsigned)depth[k]);
            bench_row(name, bench_median(peak, 3) / 1048576.0, "MiB");
        }
    }
    return 1;
}

int main(int argc, char **argv)
{
    double wall[RUNS], hops_s[RUNS], ev_pkt[RUNS], ev_hop[RUNS];
    ibcc_fabric_counters cn;
    int k;
    memset(&cn, 0, sizeof cn);
    bench_open(argc, argv);
    printf("fabric: two-switch L=10 R=10, input-triggered + LIPD, window 1, "
           "500 ms simulated\n");
    for (k = 0; k < RUNS; k++) {
        if (!one_run(&wall[k], &cn)) {
            fprintf(stderr, "bench_fabric: run failed\n");
            return 1;
        }
        hops_s[k] = (double)cn.hops / (wall[k] * 1e-9);
        ev_pkt[k] = (double)cn.events / (double)cn.injected;
        ev_hop[k] = (double)cn.events / (double)cn.hops;
        BENCH_KEEP(cn.events);
    }
    printf("  packets %llu, hops %llu, events %llu per run\n",
           (unsigned long long)cn.injected, (unsigned long long)cn.hops,
           (unsigned long long)cn.events);
    for (k = 0; k < RUNS; k++) wall[k] *= 1e-6;   /* ns -> ms */
    bench_row("fabric_twoswitch_500ms_wall", bench_median(wall, RUNS), "ms");
    bench_row("fabric_packet_hops_per_s", bench_median(hops_s, RUNS), "hops/s");
    bench_row("fabric_events_per_packet", bench_median(ev_pkt, RUNS),
              "events/packet");
    bench_row("fabric_events_per_hop", bench_median(ev_hop, RUNS), "ratio");
    if (!depth_rows()) return 1;
    bench_close();
    return 0;
}
