/* Invariants after every fabric run (issue 13, item 4), for every switch
   kind (VCT, CIOQ, mixed per switch) x every traffic kind (GREEDY,
   ONOFF, RATE, POISSON) x NIC FIFO off/on x four source agents with the
   marking they react to (WINDOW without marking, LAW with the INPUT
   marker and ECN echo, CCT with IBA marking and BECN, MVCM with MVPM),
   and for WORMHOLE fabrics x every traffic kind (agent NONE: no ACK
   traffic; the NIC FIFO is refused).

   Each case is a 2-ary 2-tree (4 hosts, 4 switches): three flows into
   host 3 (congestion at its leaf), one back to host 0 that starts after
   5 deliveries, one of them in 5000-byte messages; every flow generates
   40 packets. The fabric runs to 6 ms in steps of 300 us; after every
   step:
   - ibcc_fabric_check == OK (no packet or credit lost or created);
   - counters: in_flight = injected - delivered, bytes_in_network =
     bytes_sent - bytes_delivered, bytes_delivered <= bytes_sent; the
     data counters equal the flows' sums; one ACK made per delivered data
     packet (no CNP here) and one consumed per ACK counted;
   - per flow: delivered <= sent <= generated <= 40, bytes = packets x
     size without messages, the window bounds sent - acks, nothing
     generated before 5 deliveries for the late flow;
   - per class: every counter the sum of its flows', lat_min / lat_max
     their min / max, latency quantiles monotone in q within them;
   - bins: a flow's binned bytes total its delivered bytes, and in every
     window (whole run, two sub-windows) the flows crossing a channel sum
     to at most its bytes, exactly its bytes with their ACKs over the
     whole run; a channel's busy time <= the elapsed time;
   at the end: everything delivered (40 packets per flow, all ACKed,
   nothing in flight); a second run with the same seed gives identical
   counters, flow and class stats, channel totals and bins. With the NIC
   FIFO, GREEDY and ONOFF flows (and wormhole fabrics) are refused
   (UNSUPPORTED). In a wormhole fabric no reply is made or consumed. */
#ifndef IBCC_TEST_LINKED   /* make test links one implementation object */
#define IBCC_IMPLEMENTATION
#endif
#include "ibcc.h"
#include "t.h"

#define NF 4u
#define PKTS 40u
#define STEP IBCC_US(300)
#define STEPS 20u
#define BIN IBCC_US(50)
#define HORIZON (STEP * STEPS)
#define MAXCH 32u

typedef struct snap {
    ibcc_fabric_counters cn;
    ibcc_fabric_flow_stats fs[NF];
    uint64_t cls[IBCC_FABRIC_CLASSES][15];
    uint64_t ch_bytes[MAXCH], ch_bins[MAXCH];
    ibcc_time ch_busy[MAXCH];
} snap;

typedef struct scase {
    ibcc_topo topo;
    ibcc_fabric_node nodes[16];
    ibcc_fabric_flow flows[NF];
    ibcc_fabric_desc d;
    uint32_t pc[NF][8], pn[NF], ac[NF][8], an[NF];
    int worm;                      /* WORMHOLE: no ACK traffic */
    char name[96];
} scase;

static const char *const kind_name[4] = { "VCT", "CIOQ", "mixed",
                                           "WORMHOLE" };
static const char *const traffic_name[4] = { "GREEDY", "ONOFF", "RATE",
                                             "POISSON" };
static const uint32_t agents[5] = { IBCC_AGENT_WINDOW, IBCC_AGENT_LAW,
                                    IBCC_AGENT_CCT, IBCC_AGENT_MVCM,
                                    IBCC_AGENT_NONE };
static const char *const agent_name[5] = { "WINDOW", "LAW+INPUT",
                                           "CCT+IBA", "MVCM+MVPM", "NONE" };

static int setup(scase *s, unsigned kind, unsigned traffic, unsigned fifo,
                 unsigned ag, uint64_t seed)
{
    uint32_t i;
    ibcc_fabric_desc *d = &s->d;
    memset(d, 0, sizeof *d);
    if (ibcc_topo_fattree(&s->topo, 2, 2, NULL) != IBCC_OK) return 0;
    if (ibcc_topo_apply(&s->topo, d) != IBCC_OK
        || s->topo.node_count > 16u) return 0;
    memcpy(s->nodes, s->topo.nodes, s->topo.node_count * sizeof *s->nodes);
    s->worm = kind == 3;
    for (i = 0; i < s->topo.node_count; i++) {
        if (s->nodes[i].kind != IBCC_FABRIC_SWITCH) continue;
        s->nodes[i].switch_kind = kind == 0 ? IBCC_SWITCH_VCT
                                : kind == 1 ? IBCC_SWITCH_CIOQ
                                : kind == 3 ? IBCC_SWITCH_WORMHOLE
                                : (i % 2u ? IBCC_SWITCH_CIOQ : IBCC_SWITCH_VCT);
    }
    d->nodes = s->nodes;
    memset(s->flows, 0, sizeof s->flows);
    for (i = 0; i < NF; i++) {
        ibcc_fabric_flow *x = &s->flows[i];
        x->src = i < 3u ? i : 3u;
        x->dst = i < 3u ? 3u : 0u;
        x->traffic = traffic;
        x->agent = agents[ag];
        x->window = agents[ag] == IBCC_AGENT_MVCM
                    || agents[ag] == IBCC_AGENT_NONE ? 0u : 4u;
        x->size = 2068;                    /* wormhole: not the segment rule */
        x->cls = i % 3u;
        x->packets = PKTS;
        x->on_mean = IBCC_US(20);
        x->off_mean = IBCC_US(10);
        x->offered = IBCC_MBYTES(400);
        x->start = IBCC_US(3) * i;
    }
    s->flows[1].msg_bytes = 5000;          /* 2068 + 2068 + 864 */
    s->flows[3].start_after = 5;
    d->flows = s->flows;
    d->flow_count = NF;
    d->nic_fifo = fifo;
    d->seed = seed;
    d->horizon = HORIZON;
    d->bin = BIN;
    switch (agents[ag]) {
    case IBCC_AGENT_LAW:
        d->marker.engine = IBCC_MARKER_INPUT;
        break;
    case IBCC_AGENT_CCT:
        d->marker.engine = IBCC_MARKER_IBA;
        d->marker.iba_threshold = 15;
        d->dest.scheme = IBCC_DEST_IBA;
        break;
    case IBCC_AGENT_MVCM:
        d->marker.engine = IBCC_MARKER_MVPM;
        d->dest.scheme = IBCC_DEST_MVPM;
        d->mvcm.ws = IBCC_US(5);
        break;
    default:
        break;
    }
    snprintf(s->name, sizeof s->name, "%s %s fifo %u %s seed %llu",
             kind_name[kind], traffic_name[traffic], fifo, agent_name[ag],
             (unsigned long long)seed);
    return 1;
}

/* Channels from host src to host dst along the routes (the last route
   for a (switch, destination) wins, as in create). */
static uint32_t path(const ibcc_fabric *f, const scase *s, uint32_t src,
                     uint32_t dst, uint32_t *ch)
{
    uint32_t n = 0, node = src, port = 0, i;
    while (n < 8u) {
        uint32_t c = 0;
        const ibcc_fabric_link *k;
        if (ibcc_fabric_channel(f, node, port, &c) != IBCC_OK) return n;
        ch[n++] = c;
        k = &s->d.links[c / 2u];
        node = (c % 2u) == 0 ? k->b : k->a;
        if (s->nodes[node].kind == IBCC_FABRIC_HOST) return n;
        for (i = 0; i < s->d.route_count; i++)
            if (s->d.routes[i].sw == node && s->d.routes[i].dst == dst)
                port = s->d.routes[i].port;
    }
    return n;
}

static void take(const ibcc_fabric *f, const scase *s, snap *o)
{
    uint32_t i;
    memset(o, 0, sizeof *o);
    (void)ibcc_fabric_counters_get(f, &o->cn);
    for (i = 0; i < NF; i++) (void)ibcc_fabric_flow_stats_get(f, i, &o->fs[i]);
    for (i = 0; i < IBCC_FABRIC_CLASSES; i++) {
        ibcc_fabric_class_stats k;
        uint64_t *v = o->cls[i];
        (void)ibcc_fabric_class_stats_get(f, i, &k);
        v[0] = k.flows; v[1] = k.generated; v[2] = k.sent; v[3] = k.delivered;
        v[4] = k.delivered_bytes; v[5] = k.marked; v[6] = k.validated;
        v[7] = k.acks; v[8] = k.acks_marked; v[9] = k.msgs;
        v[10] = k.msg_time_sum; v[11] = k.msg_time_max; v[12] = k.lat_sum;
        v[13] = k.lat_min; v[14] = k.lat_max;
    }
    for (i = 0; i < 2u * s->d.link_count && i < MAXCH; i++) {
        (void)ibcc_fabric_channel_totals(f, i, &o->ch_bytes[i], &o->ch_busy[i]);
        (void)ibcc_fabric_channel_bytes(f, i, 0, HORIZON, &o->ch_bins[i]);
    }
}

/* The checks after one step; returns the number of failed checks (each
   reported with the case's name). */
#define CK(c, ...) do { if (!(c)) { bad++; if (bad <= 3) { \
    printf("  %s at %llu us: %s: ", s->name, \
           (unsigned long long)(now / 1000000u), #c); \
    printf(__VA_ARGS__); printf("\n"); } } } while (0)

static int check(const ibcc_fabric *f, const scase *s, ibcc_time now, int last)
{
    static const double qs[6] = { 0.01, 0.25, 0.5, 0.9, 0.99, 1.0 };
    ibcc_fabric_counters cn;
    ibcc_fabric_flow_stats fs[NF];
    uint64_t gen = 0, del = 0, db = 0, sb = 0, acks = 0;
    uint64_t want[MAXCH], sum[MAXCH];
    uint32_t i, j, c, k, nch = 2u * s->d.link_count;
    uint32_t ack = s->d.dest.scheme == IBCC_DEST_MVPM ? 22u : 20u;
    int bad = 0;
    CK(ibcc_fabric_check(f) == IBCC_OK, "conservation");
    CK(ibcc_fabric_counters_get(f, &cn) == IBCC_OK, "counters");
    CK(cn.delivered <= cn.injected && cn.in_flight == cn.injected - cn.delivered
       && cn.bytes_delivered <= cn.bytes_sent
       && cn.bytes_in_network == cn.bytes_sent - cn.bytes_delivered,
       "injected %llu delivered %llu", (unsigned long long)cn.injected,
       (unsigned long long)cn.delivered);
    for (i = 0; i < NF; i++) {
        const ibcc_fabric_flow *x = &s->flows[i];
        ibcc_fabric_flow_stats *t = &fs[i];
        CK(ibcc_fabric_flow_stats_get(f, i, t) == IBCC_OK, "flow %u", i);
        gen += t->generated; del += t->delivered;
        db += t->delivered_bytes; sb += t->sent_bytes; acks += t->acks;
        CK(t->delivered <= t->sent && t->sent <= t->generated
           && t->generated <= PKTS && t->acks <= t->delivered,
           "flow %u: generated %llu sent %llu delivered %llu acks %llu", i,
           (unsigned long long)t->generated, (unsigned long long)t->sent,
           (unsigned long long)t->delivered, (unsigned long long)t->acks);
        if (!x->msg_bytes)
            CK(t->delivered_bytes == 2068u * t->delivered
               && t->sent_bytes == 2068u * t->sent, "flow %u bytes", i);
        if (x->window)
            CK(t->sent - t->acks <= x->window, "flow %u window", i);
        if (x->start_after && t->generated)
            CK(cn.data_delivered >= x->start_after, "flow %u early", i);
    }
    CK(cn.data_delivered == del && cn.bytes_delivered == db
       && cn.bytes_sent == sb
       && cn.injected - gen == (s->worm ? 0u : del)
       && cn.delivered - del == acks && (!s->worm || acks == 0),
       "sums: data %llu/%llu replies %llu/%llu consumed %llu acks %llu",
       (unsigned long long)cn.data_delivered, (unsigned long long)del,
       (unsigned long long)(cn.injected - gen), (unsigned long long)del,
       (unsigned long long)(cn.delivered - del), (unsigned long long)acks);
    for (k = 0; k < IBCC_FABRIC_CLASSES; k++) {
        ibcc_fabric_class_stats cs;
        uint64_t v[6] = { 0, 0, 0, 0, 0, 0 };
        ibcc_time mn = 0, mx = 0, prev = 0, q = 0;
        (void)ibcc_fabric_class_stats_get(f, k, &cs);
        for (i = 0; i < NF; i++) {
            if (s->flows[i].cls != k) continue;
            v[0]++; v[1] += fs[i].generated; v[2] += fs[i].sent;
            v[3] += fs[i].delivered; v[4] += fs[i].delivered_bytes;
            v[5] += fs[i].lat_sum;
            if (fs[i].delivered) {
                if (mn == 0 || fs[i].lat_min < mn) mn = fs[i].lat_min;
                if (fs[i].lat_max > mx) mx = fs[i].lat_max;
            }
        }
        CK(cs.flows == v[0] && cs.generated == v[1] && cs.sent == v[2]
           && cs.delivered == v[3] && cs.delivered_bytes == v[4]
           && cs.lat_sum == v[5] && cs.lat_min == mn && cs.lat_max == mx,
           "class %u", k);
        for (j = 0; j < 6u && cs.delivered; j++) {
            CK(ibcc_fabric_latency_quantile(f, k, qs[j], &q) == IBCC_OK
               && q >= prev && q >= cs.lat_min && q <= cs.lat_max,
               "class %u quantile %g", k, qs[j]);
            prev = q;
        }
    }
    /* bins: flows, channel shares over three windows, busy */
    for (j = 0; j < 3u; j++) {
        ibcc_time t0 = j == 2u ? now / 2u / BIN * BIN : 0;
        ibcc_time t1 = j == 0u ? HORIZON : (j == 1u ? now / 2u / BIN * BIN
                                                    : HORIZON);
        memset(sum, 0, sizeof sum);
        memset(want, 0, sizeof want);
        for (i = 0; i < NF; i++) {
            uint64_t b = 0;
            CK(ibcc_fabric_flow_bytes(f, i, t0, t1, &b) == IBCC_OK, "bins");
            if (j == 0) CK(b == fs[i].delivered_bytes, "flow %u bins", i);
            for (c = 0; c < s->pn[i]; c++) sum[s->pc[i][c]] += b;
            for (c = 0; c < s->an[i]; c++) want[s->ac[i][c]] += fs[i].acks * ack;
        }
        for (c = 0; c < nch; c++) {
            uint64_t b = 0;
            CK(ibcc_fabric_channel_bytes(f, c, t0, t1, &b) == IBCC_OK, "ch");
            CK(sum[c] <= b, "channel %u window %u: flows %llu > %llu", c, j,
               (unsigned long long)sum[c], (unsigned long long)b);
            if (j == 0)
                CK(sum[c] + want[c] == b, "channel %u: data + ACK %llu, bins %llu",
                   c, (unsigned long long)(sum[c] + want[c]),
                   (unsigned long long)b);
        }
    }
    for (c = 0; c < nch; c++) {
        ibcc_time busy = 0;
        (void)ibcc_fabric_channel_totals(f, c, NULL, &busy);
        CK(busy <= now, "channel %u busy %llu", c, (unsigned long long)busy);
    }
    if (last) {
        CK(cn.in_flight == 0 && cn.bytes_in_network == 0, "not drained: %llu",
           (unsigned long long)cn.in_flight);
        for (i = 0; i < NF; i++)
            CK(fs[i].generated == PKTS && fs[i].delivered == PKTS
               && fs[i].acks == (s->worm ? 0u : PKTS),
               "flow %u: %llu of %u delivered", i,
               (unsigned long long)fs[i].delivered, PKTS);
    }
    return bad;
}

/* One case: 0 = passed, else failed checks; *refused = create said
   UNSUPPORTED. */
static int run_case(unsigned kind, unsigned traffic, unsigned fifo,
                    unsigned ag, uint64_t seed, snap *out, int *refused)
{
    static scase s;
    ibcc_fabric *f = NULL;
    ibcc_result r;
    uint32_t i, step;
    int bad = 0;
    *refused = 0;
    memset(out, 0, sizeof *out);
    if (!setup(&s, kind, traffic, fifo, ag, seed)) return 1;
    r = ibcc_fabric_create(&f, &s.d);
    if (fifo && (traffic == IBCC_TRAFFIC_GREEDY
                 || traffic == IBCC_TRAFFIC_ONOFF || kind == 3)) {
        *refused = 1;
        ibcc_topo_free(&s.topo);
        if (r != IBCC_ERR_UNSUPPORTED || f != NULL) {
            printf("  %s: create %s, want UNSUPPORTED\n", s.name,
                   ibcc_result_str(r));
            ibcc_fabric_destroy(f);
            return 1;
        }
        return 0;
    }
    if (r != IBCC_OK) {
        printf("  %s: create %s\n", s.name, ibcc_result_str(r));
        ibcc_topo_free(&s.topo);
        return 1;
    }
    for (i = 0; i < NF; i++) {
        s.pn[i] = path(f, &s, s.flows[i].src, s.flows[i].dst, s.pc[i]);
        s.an[i] = path(f, &s, s.flows[i].dst, s.flows[i].src, s.ac[i]);
    }
    for (step = 1; step <= STEPS; step++) {
        ibcc_time now = STEP * step;
        if (ibcc_fabric_run_until(f, now) != IBCC_OK) {
            printf("  %s: run_until failed\n", s.name);
            bad++;
            break;
        }
        bad += check(f, &s, now, step == STEPS);
    }
    take(f, &s, out);
    ibcc_fabric_destroy(f);
    ibcc_topo_free(&s.topo);
    return bad;
}

static void test_every_kind(void)
{
    static snap a, b;
    unsigned kind, traffic, fifo, ag, cases = 0, refused_n = 0, diff = 0;
    uint64_t delivered = 0, marked[5] = { 0, 0, 0, 0, 0 };
    int bad = 0;
    for (kind = 0; kind < 4u; kind++)
        for (traffic = 0; traffic < 4u; traffic++)
            for (fifo = 0; fifo < 2u; fifo++)
                for (ag = kind == 3 ? 4u : 0u; ag < (kind == 3 ? 5u : 4u); ag++) {
                    uint64_t seed = 1000u + 97u * cases;
                    int refused = 0, r1, r2;
                    r1 = run_case(kind, traffic, fifo, ag, seed, &a, &refused);
                    bad += r1;
                    cases++;
                    if (refused) { refused_n++; continue; }
                    r2 = run_case(kind, traffic, fifo, ag, seed, &b, &refused);
                    bad += r2;
                    delivered += a.cn.data_delivered;
                    {
                        uint32_t i;
                        for (i = 0; i < NF; i++) marked[ag] += a.fs[i].acks_marked;
                    }
                    if (memcmp(&a, &b, sizeof a) != 0) {
                        diff++;
                        printf("  %s %s fifo %u %s: the same seed differs\n",
                               kind_name[kind], traffic_name[traffic], fifo,
                               agent_name[ag]);
                    }
                }
    T_EQ(cases, 3u * 4u * 2u * 4u + 4u * 2u);
    /* FIFO x GREEDY, ONOFF; WORMHOLE with the FIFO */
    T_EQ(refused_n, 3u * 2u * 4u + 4u);
    T_EQ(bad, 0);
    T_EQ(diff, 0);
    /* every run delivered everything; the marking agents saw marks */
    T_EQU(delivered, (uint64_t)(cases - refused_n) * NF * PKTS);
    T_EQU(marked[0], 0);
    T_EQU(marked[4], 0);
    T_CHECK(marked[1] > 0 && marked[2] > 0 && marked[3] > 0);
}

/* The checks can fail: a run whose flows never finish (cut at 300 us)
   is caught as not drained, and two seeds give different POISSON runs. */
static void test_checks_discriminate(void)
{
    static scase s;
    static snap a, b;
    ibcc_fabric *f = NULL;
    int refused = 0;
    T_CHECK(setup(&s, 0, IBCC_TRAFFIC_POISSON, 0, 0, 7));
    T_EQ(ibcc_fabric_create(&f, &s.d), IBCC_OK);
    if (f) {
        uint32_t i;
        for (i = 0; i < NF; i++) {
            s.pn[i] = path(f, &s, s.flows[i].src, s.flows[i].dst, s.pc[i]);
            s.an[i] = path(f, &s, s.flows[i].dst, s.flows[i].src, s.ac[i]);
        }
        T_EQ(ibcc_fabric_run_until(f, IBCC_US(60)), IBCC_OK);
        printf("  (expected: the next lines report an undrained run)\n");
        T_CHECK(check(f, &s, IBCC_US(60), 1) > 0);
        ibcc_fabric_destroy(f);
    }
    ibcc_topo_free(&s.topo);
    T_EQ(run_case(0, IBCC_TRAFFIC_POISSON, 0, 0, 7, &a, &refused), 0);
    T_EQ(run_case(0, IBCC_TRAFFIC_POISSON, 0, 0, 8, &b, &refused), 0);
    T_CHECK(memcmp(&a, &b, sizeof a) != 0);
}

int main(void)
{
    T_RUN(test_every_kind);
    T_RUN(test_checks_discriminate);
    return t_summary();
}
