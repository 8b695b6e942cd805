/* Whole-scenario throughput of the fabric model: a 500 ms run of the
   two-switch victim scenario (SCENARIOS.md A; L = 10, R = 10, buffer 4,
   window 1, input-triggered marking, LIPD). Rows: wall time per run,
   simulated packet-hops (link transmissions) per wall second, loop
   events per simulated packet (data + ACK), and the ratio of events to
   hops. Medians over 5 runs. */
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

int main(int argc, char **argv)
{
    double wall[RUNS], hops_s[RUNS], ev_pkt[RUNS], ev_hop[RUNS];
    ibcc_fabric_counters cn;
    int k;
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
    bench_row("fabric_twoswitch_500ms_wall", bench_median(wall, RUNS) * 1e-6,
              "ms");
    bench_row("fabric_packet_hops_per_s", bench_median(hops_s, RUNS), "hops/s");
    bench_row("fabric_events_per_packet", bench_median(ev_pkt, RUNS),
              "events/packet");
    bench_row("fabric_events_per_hop", bench_median(ev_hop, RUNS), "ratio");
    bench_close();
    return 0;
}
