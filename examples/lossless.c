/* lossless.c - InfiniBand congestion control beside lossless Ethernet's
   (PFC, DCQCN, HPCC) on one fat tree (docs/scenario_ethernet.md).

   One parameter set for every run: a 4-ary 2-tree (16 hosts on 4
   leaves, 4 spines), 100 Gb/s links of 1 us, 40 ns forwarding, packets
   of 1000 bytes on the wire; input buffers of 64 KB per port (credit
   links: 1024 credits of 64 bytes; PFC links: XOFF at 32 KB with the
   headroom the link needs above it, 61 KB in all). The schemes:
     credit   credit links, no congestion control
     iba      credit links, IBA CC with [G]'s Table I settings: FECN
              marking (Threshold 15, Marking_Rate 1), BECN on the ACKs,
              the CCT agent at the sources ([G]'s quadratic CCT,
              CCTI_Increase 1, CCTI_Timer 150 x 1.024 us)
     pfc      PFC links, no congestion control
     dcqcn    PFC links, ECN marking (Kmin 5 KB, Kmax 200 KB, Pmax 1%),
              CNPs, the DCQCN reaction point at the sources
     hpcc     PFC links, INT at every switch egress, HPCC at the sources
              (T = 9 us, eta 0.95, maxStage 5, W_AI 57 bytes)

   Build: make examples   (or: cc -std=c99 -I. examples/lossless.c -lm)
   Run:   build/lossless table [--scheme S] [--marking-rate N]
                                  [--ccti-timer N]
                                           the side-by-side table: a ring
                                           allreduce beside an incast (one
                                           scheme's row; IBA CC's settings)
          build/lossless converge CSV      two DCQCN flows into one host
          build/lossless incast SCHEME CSV the incast alone: the hot
                                           leaf's buffered bytes and the
                                           hot link's rate over time; PFC
                                           PAUSE frames per tier */
#define IBCC_IMPLEMENTATION
#include "ibcc.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { S_CREDIT, S_IBA, S_PFC, S_DCQCN, S_HPCC, S_N };
static const char *const scheme_name[S_N] = {
    "credit", "iba", "pfc", "dcqcn", "hpcc"
};

#define HOSTS 16u
#define PKT 1000u
#define HOT 5u                  /* the incast's receiver (leaf 1) */
#define LINK IBCC_GBITS(100)

typedef struct world {
    ibcc_topo topo;
    ibcc_fabric_desc d;
    ibcc_fabric_error e;
} world;

/* IBA CC's settings: [G]'s Table I unless the table's flags say so. */
static uint16_t iba_marking_rate = 1, iba_ccti_timer = 150;

/* The fat tree and the scheme's settings (flows are the caller's). */
static int world_init(world *w, int s)
{
    uint32_t q;
    memset(w, 0, sizeof *w);
    if (ibcc_topo_fattree(&w->topo, 4, 2, NULL) != IBCC_OK) return 1;
    (void)ibcc_topo_apply(&w->topo, &w->d);
    w->d.link_rate = LINK;
    w->d.prop_delay = IBCC_US(1);
    w->d.data_size = PKT;
    w->d.ack_buf_packets = 64;
    w->d.error = &w->e;
    if (s == S_CREDIT || s == S_IBA) {
        w->d.buf_credits = 1024;
        w->d.buf_packets = 64;
    } else {
        w->d.flow_control = IBCC_FLOW_PFC;
        w->d.pfc.xoff = 32768;
    }
    if (s == S_IBA) {
        w->d.marker.engine = IBCC_MARKER_IBA;
        w->d.marker.iba_threshold = 15;
        w->d.marker.iba_marking_rate = iba_marking_rate;
        for (q = 0; q < IBCC_CCT_SLS; q++)
            w->d.cct.sl[q].ccti_timer = iba_ccti_timer;
        w->d.dest.scheme = IBCC_DEST_IBA;
    } else if (s == S_DCQCN) {
        w->d.marker.engine = IBCC_MARKER_ECN;

        w->d.dest.scheme = IBCC_DEST_IBA;
        w->d.dest.becn_by_cnp = 1;
    } else if (s == S_HPCC) {
        w->d.hpcc.base_rtt = IBCC_US(9);
    }
    return 0;
}

static ibcc_agent scheme_agent(int s)
{
    switch (s) {
    case S_IBA: return IBCC_AGENT_CCT;
    case S_DCQCN: return IBCC_AGENT_DCQCN;
    case S_HPCC: return IBCC_AGENT_HPCC;
    default: return IBCC_AGENT_NONE;
    }
}

static int scheme_of(const char *name)
{
    int s;
    for (s = 0; s < S_N; s++)
        if (strcmp(name, scheme_name[s]) == 0) return s;
    fprintf(stderr, "lossless: unknown scheme '%s' (credit, iba, pfc, "
            "dcqcn, hpcc)\n", name);
    return -1;
}

/* The leaf switch of host h. */
static uint32_t leaf_of(const world *w, uint32_t h)
{
    uint32_t i;
    for (i = 0; i < w->topo.link_count; i++) {
        if (w->topo.links[i].a == h) return w->topo.links[i].b;
        if (w->topo.links[i].b == h) return w->topo.links[i].a;
    }
    return 0;
}

/* ---- the table: a ring allreduce beside an incast ---------------------- */

/* The jobs: a ring allreduce of 4 MiB on hosts 0-7 (leaves 0 and 1) and
   an incast of 6 x 1 MB from hosts 8-13 (leaves 2, 3) into host 5, one
   of the allreduce's. */
typedef struct table_row {
    ibcc_job_stats st[2];
    ibcc_time p99[2];
    uint64_t pauses, marked, delivered;
    double ring_share;          /* the allreduce's flow into host 5: its
                                   share of what host 5 received while
                                   the incast ran */
} table_row;

static uint32_t vh[8], ah[7];

static void jobs_desc(ibcc_job_desc *j, int s)
{
    uint32_t i;
    memset(j, 0, 2 * sizeof *j);
    for (i = 0; i < 8u; i++) vh[i] = i;
    for (i = 0; i < 6u; i++) ah[i] = 8u + i;
    ah[6] = HOT;
    j[0].coll.kind = IBCC_COLL_ALLREDUCE_RING;
    j[0].coll.ranks = 8;
    j[0].coll.bytes = 4u << 20;
    j[0].hosts = vh;
    j[1].coll.kind = IBCC_COLL_INCAST;
    j[1].coll.ranks = 7;
    j[1].coll.root = 6;                         /* rank 6 is host 5 */
    j[1].coll.bytes = 1000000u;
    j[1].hosts = ah;
    j[1].cls = 1;
    for (i = 0; i < 2u; i++) j[i].flow.agent = scheme_agent(s);
}

/* Runs jobs `first` .. first + n - 1 of the pair under scheme s. */
static int run_jobs(int s, uint32_t first, uint32_t n, table_row *r)
{
    world w;
    ibcc_job_desc j[2];
    ibcc_fabric *f = NULL;
    ibcc_jobs *js = NULL;
    ibcc_fabric_flow *flows;
    uint32_t nf = 0, k, i;
    ibcc_time t = 0;
    memset(r, 0, sizeof *r);
    if (world_init(&w, s)) return 1;
    jobs_desc(j, s);
    if (ibcc_jobs_flows(j + first, n, NULL, 0, &nf, &w.e) != IBCC_ERR_CAPACITY)
        return 1;
    flows = (ibcc_fabric_flow *)calloc(nf, sizeof *flows);
    if (!flows || ibcc_jobs_flows(j + first, n, flows, nf, &nf, &w.e) != IBCC_OK)
        return 1;
    w.d.flows = flows;
    w.d.flow_count = nf;
    if (ibcc_fabric_create(&f, &w.d) != IBCC_OK
        || ibcc_jobs_create(&js, f, j + first, n, 0, &w.e) != IBCC_OK) {
        fprintf(stderr, "lossless %s: %s\n", scheme_name[s], w.e.reason);
        return 1;
    }
    while (!ibcc_jobs_done(js) && t < IBCC_MS(100)) {
        ibcc_job_stats inc;
        t += IBCC_US(10);
        if (ibcc_fabric_run_until(f, t) != IBCC_OK) break;
        if (n == 2 && ibcc_jobs_stats(js, 1, &inc) == IBCC_OK
            && inc.end == 0) {               /* the incast still runs */
            uint64_t ring = 0, all = 0;
            for (i = 0; i < nf; i++) {
                ibcc_fabric_flow_stats st;
                memset(&st, 0, sizeof st);
                if (flows[i].dst != HOT) continue;
                (void)ibcc_fabric_flow_stats_get(f, i, &st);
                all += st.delivered_bytes;
                if (flows[i].cls == 0) ring += st.delivered_bytes;
            }
            r->ring_share = all ? (double)ring / (double)all : 0.0;
        }
    }
    if (!ibcc_jobs_done(js) || ibcc_fabric_check(f) != IBCC_OK) {
        fprintf(stderr, "lossless %s: not done or not conserved\n",
                scheme_name[s]);
        return 1;
    }
    for (k = 0; k < n; k++) {
        (void)ibcc_jobs_stats(js, k, &r->st[first + k]);
        (void)ibcc_jobs_msg_quantile(js, k, 0.99, &r->p99[first + k]);
    }
    {
        ibcc_fabric_pfc_totals pt;
        memset(&pt, 0, sizeof pt);
        (void)ibcc_fabric_pfc_totals_get(f, &pt);
        r->pauses = pt.pause_frames;
    }
    for (i = 0; i < nf; i++) {
        ibcc_fabric_flow_stats st;
        memset(&st, 0, sizeof st);
        (void)ibcc_fabric_flow_stats_get(f, i, &st);
        r->marked += st.marked;
        r->delivered += st.delivered;
    }
    ibcc_jobs_destroy(js);
    ibcc_fabric_destroy(f);
    ibcc_topo_free(&w.topo);
    free(flows);
    return 0;
}

static int table(int only)
{
    int s;
    printf("%-7s %8s %11s %8s %9s %10s %10s %12s %12s %11s\n", "scheme",
           "ar_us", "ar_alone_us", "slowdown", "incast_us", "incast_thr",
           "ring_share", "ar_msg_p99_us", "pause_frames", "marked_frac");
    for (s = 0; s < S_N; s++) {
        table_row both, alone;
        if (only >= 0 && s != only) continue;
        double thr;
        if (run_jobs(s, 0, 2, &both) || run_jobs(s, 0, 1, &alone)) return 1;
        /* the incast's 6 MB over its completion time, as a fraction of
           the receiver's link */
        thr = (double)both.st[1].bytes
              / ((double)both.st[1].completion / 1e12) / 12.5e9;
        printf("%-7s %8.1f %11.1f %8.2f %9.1f %10.3f %10.3f %12.1f %12llu "
               "%11.4f\n", scheme_name[s],
               (double)both.st[0].completion / 1e6,
               (double)alone.st[0].completion / 1e6,
               (double)both.st[0].completion / (double)alone.st[0].completion,
               (double)both.st[1].completion / 1e6, thr, both.ring_share,
               (double)both.p99[0] / 1e6,
               (unsigned long long)both.pauses,
               both.delivered ? (double)both.marked / (double)both.delivered
                              : 0.0);
    }
    return 0;
}

/* ---- the incast alone, over time ----------------------------------------
   Greedy flows from hosts 8-13 into host 5 for 2 ms. Every 10 us: the
   bytes buffered at the hot leaf's inputs (PFC links) and the rate of
   the hot link over the last 10 us. At the end, PAUSE frames sent by
   the switches of each tier: the hot leaf, the spines, the sources'
   leaves. */
static int incast(int s, const char *csv)
{
    world w;
    ibcc_fabric_flow flows[6];
    ibcc_fabric *f = NULL;
    FILE *out;
    uint32_t i, hot_leaf, c_hot = 0, port;
    uint64_t last = 0, tier[3] = {0, 0, 0}, qsum = 0, nq = 0, p_half = 0;
    ibcc_time t;
    if (world_init(&w, s)) return 1;
    memset(flows, 0, sizeof flows);
    for (i = 0; i < 6u; i++) {
        flows[i].src = 8u + i;
        flows[i].dst = HOT;
        flows[i].agent = scheme_agent(s);
    }
    w.d.flows = flows;
    w.d.flow_count = 6;
    w.d.horizon = IBCC_MS(2);
    if (ibcc_fabric_create(&f, &w.d) != IBCC_OK) {
        fprintf(stderr, "lossless %s: %s\n", scheme_name[s], w.e.reason);
        return 1;
    }
    hot_leaf = leaf_of(&w, HOT);
    for (i = 0; i < w.topo.link_count; i++) {       /* hot leaf -> host 5 */
        const ibcc_fabric_link *l = &w.topo.links[i];
        if (l->a == HOT) c_hot = 2u * i + 1u;
        if (l->b == HOT) c_hot = 2u * i;
    }
    out = fopen(csv, "w");
    if (!out) {
        fprintf(stderr, "lossless: cannot write %s\n", csv);
        return 1;
    }
    fprintf(out, "time_us,hot_leaf_kbytes,hot_link_frac,pause_frames\n");
    for (t = IBCC_US(10); t <= IBCC_MS(2); t += IBCC_US(10)) {
        uint64_t bytes = 0, q = 0;
        ibcc_fabric_pfc_totals pt;
        if (ibcc_fabric_run_until(f, t) != IBCC_OK) break;
        memset(&pt, 0, sizeof pt);
        (void)ibcc_fabric_pfc_totals_get(f, &pt);
        if (t == IBCC_MS(1)) p_half = pt.pause_frames;
        (void)ibcc_fabric_channel_totals(f, c_hot, &bytes, NULL);
        for (port = 0; port < w.topo.nodes[hot_leaf].ports; port++) {
            ibcc_fabric_pfc_stats ps;
            if (ibcc_fabric_pfc_stats_get(f, hot_leaf, port, 0, &ps) == IBCC_OK)
                q += ps.bytes;
        }
        if (t > IBCC_MS(1)) {
            qsum += q;
            nq++;
        }
        fprintf(out, "%.0f,%.3f,%.4f,%llu\n", (double)t / 1e6,
                (double)q / 1e3, (double)(bytes - last) / (12.5e9 * 10e-6),
                (unsigned long long)pt.pause_frames);
        last = bytes;
    }
    fclose(out);
    for (i = HOSTS; i < w.topo.node_count; i++) {
        uint32_t k, tr = i == hot_leaf ? 0u : 2u;
        uint64_t sum = 0;
        for (k = 0; k < w.topo.link_count; k++) {
            const ibcc_fabric_link *l = &w.topo.links[k];
            if ((l->a == i && l->b < HOSTS) || (l->b == i && l->a < HOSTS))
                break;
        }
        if (k == w.topo.link_count) tr = 1u;        /* no host: a spine */
        for (port = 0; port < w.topo.nodes[i].ports; port++) {
            ibcc_fabric_pfc_stats ps;
            if (ibcc_fabric_pfc_stats_get(f, i, port, 0, &ps) == IBCC_OK)
                sum += ps.pause_sent;
        }
        tier[tr] += sum;
    }
    {
        uint64_t b0 = 0, b1 = 0;
        (void)ibcc_fabric_channel_totals(f, c_hot, &b1, NULL);
        (void)b0;
        printf("incast %s pauses_hot_leaf=%llu pauses_spines=%llu "
               "pauses_src_leaves=%llu hot_leaf_kbytes_mean=%.1f "
               "hot_link_frac=%.3f pauses_last_ms=%llu\n", scheme_name[s],
               (unsigned long long)tier[0], (unsigned long long)tier[1],
               (unsigned long long)tier[2],
               nq ? (double)qsum / (double)nq / 1e3 : 0.0,
               (double)b1 / (12.5e9 * 2e-3),
               (unsigned long long)(tier[0] + tier[1] + tier[2] - p_half));
    }
    if (ibcc_fabric_check(f) != IBCC_OK) {
        fprintf(stderr, "lossless %s: not conserved\n", scheme_name[s]);
        return 1;
    }
    ibcc_fabric_destroy(f);
    ibcc_topo_free(&w.topo);
    return 0;
}

/* ---- two DCQCN flows into one host ---------------------------------------
   Host 8 -> host 5 from 0, host 12 -> host 5 from 5 ms (other leaves,
   so that they share only the hot leaf's link to host 5), 40 ms; their
   rates every 0.1 ms. */
static int converge(const char *csv)
{
    world w;
    ibcc_fabric_flow flows[2];
    ibcc_fabric *f = NULL;
    FILE *out;
    ibcc_time t, end = IBCC_MS(40), step = IBCC_US(100);
    double late[2] = {0, 0}, early[2] = {0, 0};
    uint32_t i, nl = 0, ne = 0;
    if (world_init(&w, S_DCQCN)) return 1;
    memset(flows, 0, sizeof flows);
    flows[0].src = 8;
    flows[1].src = 12;
    flows[0].dst = flows[1].dst = HOT;
    flows[0].agent = flows[1].agent = IBCC_AGENT_DCQCN;
    flows[1].start = IBCC_MS(5);
    w.d.flows = flows;
    w.d.flow_count = 2;
    w.d.horizon = end;
    w.d.bin = step;
    if (ibcc_fabric_create(&f, &w.d) != IBCC_OK) {
        fprintf(stderr, "lossless dcqcn: %s\n", w.e.reason);
        return 1;
    }
    if (ibcc_fabric_run_until(f, end) != IBCC_OK
        || ibcc_fabric_check(f) != IBCC_OK) {
        fprintf(stderr, "lossless dcqcn: run failed\n");
        return 1;
    }
    out = fopen(csv, "w");
    if (!out) {
        fprintf(stderr, "lossless: cannot write %s\n", csv);
        return 1;
    }
    fprintf(out, "time_ms,flow0_frac,flow1_frac\n");
    for (t = 0; t + step <= end; t += step) {
        double r[2];
        for (i = 0; i < 2u; i++) {
            uint64_t b = 0;
            (void)ibcc_fabric_flow_bytes(f, i, t, t + step, &b);
            r[i] = (double)b / (12.5e9 * 1e-4);
            if (t >= end - IBCC_MS(10)) late[i] += r[i];
            if (t >= IBCC_MS(5) && t < IBCC_MS(10)) early[i] += r[i];
        }
        if (t >= end - IBCC_MS(10)) nl++;
        if (t >= IBCC_MS(5) && t < IBCC_MS(10)) ne++;
        fprintf(out, "%.1f,%.4f,%.4f\n", (double)(t + step / 2u) / 1e9,
                r[0], r[1]);
    }
    fclose(out);
    printf("converge 5_10ms flow0=%.3f flow1=%.3f jain=%.4f last_10ms "
           "flow0=%.3f flow1=%.3f jain=%.4f\n", early[0] / ne, early[1] / ne,
           ibcc_jain(early, 2), late[0] / nl, late[1] / nl,
           ibcc_jain(late, 2));
    ibcc_fabric_destroy(f);
    ibcc_topo_free(&w.topo);
    return 0;
}

int main(int argc, char **argv)
{
    int s, i, only = -1;
    if (argc >= 2 && strcmp(argv[1], "table") == 0) {
        for (i = 2; i + 1 < argc; i += 2) {
            long v = strtol(argv[i + 1], NULL, 10);
            if (strcmp(argv[i], "--scheme") == 0) {
                if ((only = scheme_of(argv[i + 1])) < 0) return 2;
            } else if (strcmp(argv[i], "--marking-rate") == 0 && v >= 0
                       && v <= 65535)
                iba_marking_rate = (uint16_t)v;
            else if (strcmp(argv[i], "--ccti-timer") == 0 && v >= 1
                     && v <= 65535)
                iba_ccti_timer = (uint16_t)v;
            else
                break;
        }
        if (i == argc) return table(only);
        fprintf(stderr, "lossless table: --scheme NAME, --marking-rate "
                "0..65535, --ccti-timer 1..65535\n");
        return 2;
    }
    if (argc == 3 && strcmp(argv[1], "converge") == 0) return converge(argv[2]);
    if (argc == 4 && strcmp(argv[1], "incast") == 0) {
        if ((s = scheme_of(argv[2])) < 0) return 2;
        return incast(s, argv[3]);
    }
    fprintf(stderr, "usage: lossless table [--scheme S] [--marking-rate N] "
            "[--ccti-timer N] | converge CSV | incast "
            "credit|iba|pfc|dcqcn|hpcc CSV\n");
    return 2;
}
