/* Virtual lanes and service levels in the fabric (docs/fabric.md
   "Virtual lanes"): VL arbitration at a shared output (weights, the
   high-priority limit, a VL without credits skipped), a victim on its
   own VL, per-VL marking, a flow's SL through SL-to-VL tables (per port
   and per input/output pair), refusals, and the stall watchdog on a
   ring of four switches whose routes all turn clockwise (a credit loop).
   Defaults: 1 GB/s links (1 ns per byte), 5 ns propagation, 40 ns
   forwarding delay; packets of 2048 bytes here (32 weight units). */
#include "ibcc.h"
#include "t.h"
#include <stdlib.h>

typedef struct net {
    ibcc_fabric_node nodes[16];
    ibcc_fabric_link links[16];
    ibcc_fabric_route routes[64];
    ibcc_fabric_flow flows[8];
    ibcc_fabric_desc d;
    ibcc_fabric_error err;
} net;

/* Hosts 0..nh-1 on one switch (node nh), host i on port i. */
static void net_star(net *t, uint32_t nh)
{
    uint32_t i;
    memset(t, 0, sizeof *t);
    for (i = 0; i < nh; i++) {
        t->nodes[i].kind = IBCC_FABRIC_HOST;
        t->links[i].a = i;
        t->links[i].b = nh;
        t->links[i].b_port = i;
        t->routes[i].sw = nh;
        t->routes[i].dst = i;
        t->routes[i].port = i;
    }
    t->nodes[nh].kind = IBCC_FABRIC_SWITCH;
    t->nodes[nh].ports = nh;
    t->d.nodes = t->nodes; t->d.node_count = nh + 1u;
    t->d.links = t->links; t->d.link_count = nh;
    t->d.routes = t->routes; t->d.route_count = nh;
    t->d.flows = t->flows;
    t->d.data_size = 2048u;
    t->d.error = &t->err;
}

/* Two switches S1 (node 4: hosts 0, 1 on ports 0, 1, ISL port 2) and S2
   (node 5: hosts 2, 3 on ports 0, 1, ISL port 2); host 3's link runs at
   `slow`. */
static void net_two(net *t, ibcc_rate slow)
{
    uint32_t i, k = 0;
    memset(t, 0, sizeof *t);
    for (i = 0; i < 4u; i++) {
        t->nodes[i].kind = IBCC_FABRIC_HOST;
        t->links[i].a = i;
        t->links[i].b = i < 2u ? 4u : 5u;
        t->links[i].b_port = i % 2u;
    }
    t->links[3].rate = slow;
    t->nodes[4].kind = t->nodes[5].kind = IBCC_FABRIC_SWITCH;
    t->nodes[4].ports = t->nodes[5].ports = 3;
    t->links[4].a = 4; t->links[4].a_port = 2;
    t->links[4].b = 5; t->links[4].b_port = 2;
    for (i = 0; i < 4u; i++) {
        t->routes[k].sw = 4; t->routes[k].dst = i;
        t->routes[k++].port = i < 2u ? i : 2u;
        t->routes[k].sw = 5; t->routes[k].dst = i;
        t->routes[k++].port = i < 2u ? 2u : i - 2u;
    }
    t->d.nodes = t->nodes; t->d.node_count = 6;
    t->d.links = t->links; t->d.link_count = 5;
    t->d.routes = t->routes; t->d.route_count = k;
    t->d.flows = t->flows;
    t->d.data_size = 2048u;
    t->d.error = &t->err;
}

static ibcc_fabric_flow *add_flow(net *t, uint32_t src, uint32_t dst,
                                  uint32_t sl)
{
    ibcc_fabric_flow *x = &t->flows[t->d.flow_count++];
    memset(x, 0, sizeof *x);
    x->src = src;
    x->dst = dst;
    x->sl = sl;
    x->cls = sl;
    return x;
}

/* the data packets started on one channel, in order (VL of each) */
typedef struct vlog {
    uint32_t chan;
    uint64_t bytes[16];
    uint32_t seq[4096];
    uint32_t n;
    int bad_vl;                 /* a data packet on a VL >= 2 */
} vlog;

static void on_busy(void *user, uint32_t c, ibcc_time s, ibcc_time e,
                    const ibcc_fabric_pkt *p)
{
    vlog *l = (vlog *)user;
    (void)s; (void)e;
    if (p->lane != 0) return;
    if (p->vl >= 2u) l->bad_vl = 1;
    if (c != l->chan) return;
    l->bytes[p->vl] += p->size;
    if (l->n < 4096u) l->seq[l->n++] = p->vl;
}

static void watch(net *t, vlog *l, uint32_t chan)
{
    memset(l, 0, sizeof *l);
    l->chan = chan;
    t->d.observer.link_busy = on_busy;
    t->d.observer.user = l;
}

/* Runs to t in 50 steps, checking conservation at each. */
static int run_checked(ibcc_fabric *f, ibcc_time t)
{
    uint32_t k;
    for (k = 1; k <= 50u; k++) {
        if (ibcc_fabric_run_until(f, t / 50u * k) != IBCC_OK) return 0;
        if (ibcc_fabric_check(f) != IBCC_OK) return 0;
    }
    return 1;
}

static void two_vls(net *t)
{
    uint32_t s;
    t->d.vls = 2;
    t->d.sl2vl_set = 1;
    for (s = 0; s < 16u; s++) t->d.sl2vl[s] = (uint8_t)(s & 1u);
}

/* Weights 2:1 (64 and 32 units of 64 bytes, packets of 32 units) on the
   low table: of the bytes the shared output sends, VL0 has twice VL1's,
   within a packet; the order is VL0, VL0, VL1 over and over. */
static void test_weights_two_to_one(void)
{
    net t;
    vlog l;
    ibcc_fabric *f = NULL;
    uint32_t k, bad = 0;
    int64_t diff;
    net_star(&t, 3);
    two_vls(&t);
    t.d.vlarb.n_low = 2;
    t.d.vlarb.low[0].vl = 0; t.d.vlarb.low[0].weight = 64;
    t.d.vlarb.low[1].vl = 1; t.d.vlarb.low[1].weight = 32;
    add_flow(&t, 0, 2, 0);
    add_flow(&t, 1, 2, 1);
    watch(&t, &l, 2u * 2u + 1u);                /* switch -> host 2 */
    T_EQ(ibcc_fabric_create(&f, &t.d), IBCC_OK);
    if (!f) return;
    T_CHECK(run_checked(f, IBCC_US(300)));
    T_CHECK(l.n > 100u);
    T_EQ(l.bad_vl, 0);
    diff = (int64_t)l.bytes[0] - 2 * (int64_t)l.bytes[1];
    T_CHECK(diff >= -2048 * 2 && diff <= 2048 * 2);
    /* steady state: after the first packets, every third is VL1 */
    for (k = 6; k + 3u <= l.n; k += 3u) {
        uint32_t ones = l.seq[k] + l.seq[k + 1u] + l.seq[k + 2u];
        if (ones != 1u) bad++;
    }
    T_EQU(bad, 0);
    ibcc_fabric_destroy(f);
}

/* The same arbitration at a host's port: host 0 sends to host 1 on SL 0
   and to host 2 on SL 1; its link carries VL0 and VL1 bytes 2:1. */
static void test_host_port_arbitration(void)
{
    net t;
    vlog l;
    ibcc_fabric *f = NULL;
    int64_t diff;
    net_star(&t, 3);
    two_vls(&t);
    t.d.vlarb.n_low = 2;
    t.d.vlarb.low[0].vl = 0; t.d.vlarb.low[0].weight = 64;
    t.d.vlarb.low[1].vl = 1; t.d.vlarb.low[1].weight = 32;
    add_flow(&t, 0, 1, 0);
    add_flow(&t, 0, 2, 1);
    watch(&t, &l, 0);                           /* host 0 -> switch */
    T_EQ(ibcc_fabric_create(&f, &t.d), IBCC_OK);
    if (!f) return;
    T_CHECK(run_checked(f, IBCC_US(300)));
    T_CHECK(l.n > 100u);
    diff = (int64_t)l.bytes[0] - 2 * (int64_t)l.bytes[1];
    T_CHECK(diff >= -2048 * 2 && diff <= 2048 * 2);
    ibcc_fabric_destroy(f);
}

/* A high-priority VL within its limit: VL1 on the high table (weight
   255), VL0 on the low one, limit 1 (4096 bytes): two 2048-byte VL1
   packets, then one VL0 packet, over and over; the high VL gets 2/3. */
static void test_high_limit(void)
{
    net t;
    vlog l;
    ibcc_fabric *f = NULL;
    uint32_t k, k0, run = 0, maxrun = 0, lows = 0;
    net_star(&t, 3);
    two_vls(&t);
    t.d.vlarb.high_limit = 1;
    t.d.vlarb.n_high = 1;
    t.d.vlarb.high[0].vl = 1; t.d.vlarb.high[0].weight = 255;
    t.d.vlarb.n_low = 1;
    t.d.vlarb.low[0].vl = 0; t.d.vlarb.low[0].weight = 255;
    add_flow(&t, 0, 2, 0);
    add_flow(&t, 1, 2, 1);
    watch(&t, &l, 2u * 2u + 1u);
    T_EQ(ibcc_fabric_create(&f, &t.d), IBCC_OK);
    if (!f) return;
    T_CHECK(run_checked(f, IBCC_US(300)));
    for (k0 = 0; k0 < l.n && l.seq[k0] != 0u; k0++) {}
    T_CHECK(k0 < 4u);
    for (k = k0 + 1u; k < l.n; k++) {
        if (l.seq[k] == 1u) {
            run++;
            if (run > maxrun) maxrun = run;
        } else {
            T_EQU(run, 2);                      /* after a full high run */
            run = 0;
            lows++;
        }
    }
    if (getenv("VLDEBUG")) { for (k = 0; k < 40u && k < l.n; k++) printf("%u", l.seq[k]); printf("\n"); }
    T_EQU(maxrun, 2);
    T_CHECK(l.n > 100u && lows * 3u + 3u >= l.n - k0 && lows * 3u <= l.n - k0);
    /* limit 255: no limit, the low VL starves once both are busy */
    ibcc_fabric_destroy(f);
    t.d.vlarb.high_limit = 255;
    watch(&t, &l, 2u * 2u + 1u);
    T_EQ(ibcc_fabric_create(&f, &t.d), IBCC_OK);
    if (!f) return;
    T_CHECK(run_checked(f, IBCC_US(300)));
    T_CHECK(l.bytes[1] > 50u * l.bytes[0]);
    ibcc_fabric_destroy(f);
}

/* A VL without credits is skipped: host 1 sends on VL1 to host 3 behind
   a link ten times slower, host 0 on VL0 to host 2; equal weights on the
   ISL. VL1's buffer at S2 fills and the ISL's VL1 runs out of credits:
   the ISL serves VL0 meanwhile, so host 0's flow keeps nearly the whole
   rate (the ISL carries what VL1's slow link drains plus VL0). With both
   SLs on one VL, host 0's packets wait behind host 3's in S2's input
   buffer: a victim at about the slow link's rate. */
static double victim_rate(int vls, int marker, uint64_t *marked0,
                          uint64_t *marked1)
{
    net t;
    ibcc_fabric *f = NULL;
    ibcc_fabric_flow_stats s0, s1;
    double r;
    net_two(&t, IBCC_MBYTES(100));
    if (vls == 2) two_vls(&t);
    add_flow(&t, 0, 2, 0);
    add_flow(&t, 1, 3, 1);
    if (marker) {               /* host 0 offers half the link rate */
        t.d.marker.engine = IBCC_MARKER_IBA;
        t.d.marker.iba_threshold = 13;
        t.flows[0].traffic = IBCC_TRAFFIC_RATE;
        t.flows[0].offered = IBCC_MBYTES(500);
    }
    if (ibcc_fabric_create(&f, &t.d) != IBCC_OK) return -1.0;
    if (!run_checked(f, IBCC_US(400))) {
        ibcc_fabric_destroy(f);
        return -2.0;
    }
    (void)ibcc_fabric_stats_reset(f);
    (void)ibcc_fabric_run_until(f, IBCC_US(1400));
    (void)ibcc_fabric_flow_stats_get(f, 0, &s0);
    (void)ibcc_fabric_flow_stats_get(f, 1, &s1);
    *marked0 = s0.marked;
    *marked1 = s1.marked;
    r = (double)s0.delivered_bytes / 1e-3 / 1e9;    /* of 1 GB/s */
    T_EQ(ibcc_fabric_check(f), IBCC_OK);
    ibcc_fabric_destroy(f);
    return r;
}

static void test_no_credit_vl_skipped(void)
{
    uint64_t m0 = 0, m1 = 0;
    double two = victim_rate(2, 0, &m0, &m1);
    double one = victim_rate(1, 0, &m0, &m1);
    T_CHECK(two > 0.85);        /* 1 GB/s less the slow VL's share */
    T_CHECK(one > 0.0 && one < 0.3);
}

/* Marking per (port, VL): with the IBA marker (threshold weight 13: a
   level of 8 * 3 / 16 = 1 packet of the 8 that can feed an output of a
   VL), the congested VL1's packets are marked at S2's output
   to host 3 (a root: the host takes them); host 0's packets, offered at
   half the link rate on VL0, share the ISL with VL1 but find their own
   VL's buffers short, and are never marked. */
static void test_marking_per_vl(void)
{
    uint64_t m0 = 0, m1 = 0;
    double r = victim_rate(2, 1, &m0, &m1);
    T_CHECK(r > 0.49 && r < 0.51);
    if (getenv("VLDEBUG")) printf("marked %llu %llu r %g\n", (unsigned long long)m0, (unsigned long long)m1, r);
    T_EQU(m0, 0);
    T_CHECK(m1 > 10u);
}

/* The CCT agent keeps a flow on its SL: host 1's flow to host 3, behind
   a link at half the rate, is marked (IBA marker, FECN -> BECN); on SL 0
   its BECNs raise its CCTI (by 50 each) and its injection delay ([G]'s
   table) throttles it below the slow link's rate; on
   SL 1, whose CC the agent has off (Control_Map, disabled_sls bit 1),
   the same BECNs are ignored and it keeps the slow link full. */
static double cct_rate(uint32_t sl)
{
    net t;
    ibcc_fabric *f = NULL;
    ibcc_fabric_flow_stats s;
    double r;
    net_two(&t, IBCC_MBYTES(500));
    two_vls(&t);
    t.d.marker.engine = IBCC_MARKER_IBA;
    t.d.marker.iba_threshold = 13;
    t.d.dest.scheme = IBCC_DEST_IBA;
    t.d.cct.disabled_sls = 1u << 1;
    t.d.cct.sl[0].ccti_increase = t.d.cct.sl[1].ccti_increase = 50;
    add_flow(&t, 1, 3, sl)->agent = IBCC_AGENT_CCT;
    if (ibcc_fabric_create(&f, &t.d) != IBCC_OK) return -1.0;
    if (!run_checked(f, IBCC_MS(1))) {
        ibcc_fabric_destroy(f);
        return -2.0;
    }
    (void)ibcc_fabric_stats_reset(f);
    (void)ibcc_fabric_run_until(f, IBCC_MS(3));
    (void)ibcc_fabric_flow_stats_get(f, 0, &s);
    r = (double)s.delivered_bytes / 2e-3 / 5e8;    /* of 500 MB/s */
    if (getenv("VLDEBUG")) printf("acks %llu marked %llu del %llu\n", (unsigned long long)s.acks, (unsigned long long)s.acks_marked, (unsigned long long)s.marked);
    ibcc_fabric_destroy(f);
    return r;
}

static void test_cct_per_sl(void)
{
    double on = cct_rate(0), off = cct_rate(1);
    if (getenv("VLDEBUG")) printf("cct on %g off %g\n", on, off);
    T_CHECK(off > 0.97);
    T_CHECK(on > 0.0 && on < 0.9);
}

/* SL-to-VL per (input, output) pair at a switch: packets of SL 0 leave S1
   towards S2 on VL1 (a table for input port 0 -> port 2), and the port
   tables elsewhere keep VL0; a packet changes VL only at that hop. */
static void test_io_table(void)
{
    net t;
    vlog l;
    ibcc_fabric *f = NULL;
    ibcc_fabric_sl2vl io;
    ibcc_fabric_flow_stats s;
    net_two(&t, 0);
    two_vls(&t);
    memset(&io, 0, sizeof io);
    io.sw = 4; io.in_port = 0; io.out_port = 2;
    memset(io.vl, 1, sizeof io.vl);
    t.d.sl2vls = &io;
    t.d.sl2vl_count = 1;
    add_flow(&t, 0, 2, 0)->packets = 20;
    watch(&t, &l, 2u * 4u);                     /* the ISL, S1 -> S2 */
    T_EQ(ibcc_fabric_create(&f, &t.d), IBCC_OK);
    if (!f) return;
    T_CHECK(run_checked(f, IBCC_US(100)));
    T_EQU(l.n, 20);
    T_EQU(l.bytes[1], 20u * 2048u);
    (void)ibcc_fabric_flow_stats_get(f, 0, &s);
    T_EQU(s.delivered, 20);
    ibcc_fabric_destroy(f);
    /* and to another VL than the switch's table gives: refused clearly */
    io.vl[0] = 3;
    T_EQ(ibcc_fabric_create(&f, &t.d), IBCC_ERR_RANGE);
    T_CHECK(strstr(t.err.reason, "sl2vls[0]") != NULL);
}

/* A link of one VL in a fabric of two: host 3's port runs one VL (and
   its own table says so: the desc's names VL1), so its link does; S2's table for that port is taken to it (SL 1: VL 1 & 0 =
   VL0), and host 1's SL-1 packets reach it on VL0 while the ISL carries
   them on VL1. */
static void test_mixed_vls(void)
{
    net t;
    vlog l;
    ibcc_fabric *f = NULL;
    ibcc_fabric_port_vl pv;
    ibcc_fabric_flow_stats s;
    net_two(&t, 0);
    two_vls(&t);
    memset(&pv, 0, sizeof pv);
    pv.node = 3; pv.port = 0; pv.vls = 1;
    pv.sl2vl_set = 1;           /* its own table names VL0 only */
    t.d.port_vls = &pv;
    t.d.port_vl_count = 1;
    add_flow(&t, 1, 3, 1)->packets = 30;
    add_flow(&t, 0, 3, 0)->packets = 30;
    watch(&t, &l, 2u * 3u + 1u);                /* S2 -> host 3 */
    T_EQ(ibcc_fabric_create(&f, &t.d), IBCC_OK);
    if (!f) return;
    T_CHECK(run_checked(f, IBCC_US(200)));
    T_EQU(l.n, 60);
    T_EQU(l.bytes[0], 60u * 2048u);
    (void)ibcc_fabric_flow_stats_get(f, 0, &s);
    T_EQU(s.delivered, 30);
    (void)ibcc_fabric_flow_stats_get(f, 1, &s);
    T_EQU(s.delivered, 30);
    ibcc_fabric_destroy(f);
}

/* The QoS settings decide per port type: qos_ca_ and qos_swe_ give 2
   VLs, SL 1 on VL1; the 2:1 arbitration of test_weights_two_to_one comes
   from qos_swe_vlarb_low. */
static void test_qos_config(void)
{
    net t;
    vlog l;
    ibcc_fabric *f = NULL;
    ibcc_qos_config q;
    unsigned bad = 0;
    int64_t diff;
    const char *conf =
        "qos TRUE\n"
        "qos_max_vls 2\n"
        "qos_sl2vl 0,1,0,1,0,1,0,1,0,1,0,1,0,1,0,1\n"
        "qos_vlarb_high 0:0\n"
        "qos_vlarb_low 0:64,1:32\n";
    memset(&q, 0, sizeof q);
    T_EQ(ibcc_qos_parse_opensm(&q, conf, &bad), IBCC_OK);
    net_star(&t, 3);
    t.d.qos = &q;
    add_flow(&t, 0, 2, 0);
    add_flow(&t, 1, 2, 1);
    watch(&t, &l, 2u * 2u + 1u);
    T_EQ(ibcc_fabric_create(&f, &t.d), IBCC_OK);
    if (!f) return;
    T_CHECK(run_checked(f, IBCC_US(300)));
    diff = (int64_t)l.bytes[0] - 2 * (int64_t)l.bytes[1];
    T_CHECK(l.bytes[1] > 0u && diff >= -4096 && diff <= 4096);
    ibcc_fabric_destroy(f);
    /* qos FALSE: the settings are not applied, one VL */
    q.qos = 0;
    watch(&t, &l, 2u * 2u + 1u);
    T_EQ(ibcc_fabric_create(&f, &t.d), IBCC_OK);
    if (!f) return;
    T_CHECK(run_checked(f, IBCC_US(50)));
    T_EQU(l.bytes[1], 0);
    ibcc_fabric_destroy(f);
}

/* Bad VL settings are refused with their reason. */
static void test_refusals(void)
{
    net t;
    ibcc_fabric *f = NULL;
    ibcc_fabric_port_vl pv;
    net_star(&t, 3);
    add_flow(&t, 0, 2, 0);
    t.d.vls = 3;
    T_EQ(ibcc_fabric_create(&f, &t.d), IBCC_ERR_RANGE);
    T_CHECK(strstr(t.err.reason, "vls 3") != NULL);
    t.d.vls = 2;
    t.d.sl2vl_set = 1;
    t.d.sl2vl[0] = 2;                           /* VL 2 of 2 VLs */
    T_EQ(ibcc_fabric_create(&f, &t.d), IBCC_ERR_RANGE);
    T_CHECK(strstr(t.err.reason, "SL 0 to VL 2") != NULL);
    t.d.sl2vl[0] = 15;                          /* dropped */
    T_EQ(ibcc_fabric_create(&f, &t.d), IBCC_ERR_RANGE);
    T_CHECK(strstr(t.err.reason, "drops") != NULL);
    t.d.sl2vl[0] = 0;
    t.d.switch_kind = IBCC_SWITCH_CIOQ;         /* one data VL */
    T_EQ(ibcc_fabric_create(&f, &t.d), IBCC_ERR_UNSUPPORTED);
    T_CHECK(strstr(t.err.reason, "switch kind runs 1") != NULL);
    t.d.switch_kind = IBCC_SWITCH_VCT;
    t.flows[0].sl = 16;
    T_EQ(ibcc_fabric_create(&f, &t.d), IBCC_ERR_RANGE);
    T_CHECK(strstr(t.err.reason, "sl 16") != NULL);
    t.flows[0].sl = 0;
    memset(&pv, 0, sizeof pv);
    pv.node = 3; pv.port = 0; pv.vls = 4;       /* the switch's port 0 */
    t.d.port_vls = &pv;
    t.d.port_vl_count = 1;
    T_EQ(ibcc_fabric_create(&f, &t.d), IBCC_OK);  /* link: 2 VLs */
    ibcc_fabric_destroy(f);
    pv.port = 7;
    T_EQ(ibcc_fabric_create(&f, &t.d), IBCC_ERR_RANGE);
    T_CHECK(strstr(t.err.reason, "port_vls[0]") != NULL);
    pv.port = 0;
    t.d.vlarb.n_low = 1;
    t.d.vlarb.low[0].vl = 14;                   /* beyond 4 VLs: kept low */
    T_EQ(ibcc_fabric_create(&f, &t.d), IBCC_OK);
    ibcc_fabric_destroy(f);
}

/* A ring of four switches (nodes 4..7), host i on switch 4+i port 0;
   switch s's port 1 goes to the next switch clockwise (its port 2);
   every route turns clockwise. Each host sends to the host two switches
   on: every ISL carries two flows and the four ISLs' buffers wait on one
   another (a credit loop): the run stops with a stall naming them. */
static void ring(net *t)
{
    uint32_t i, h, k = 0;
    memset(t, 0, sizeof *t);
    for (i = 0; i < 4u; i++) {
        t->nodes[i].kind = IBCC_FABRIC_HOST;
        t->nodes[4u + i].kind = IBCC_FABRIC_SWITCH;
        t->nodes[4u + i].ports = 3;
        t->links[i].a = i; t->links[i].b = 4u + i; t->links[i].b_port = 0;
        t->links[4u + i].a = 4u + i; t->links[4u + i].a_port = 1;
        t->links[4u + i].b = 4u + (i + 1u) % 4u; t->links[4u + i].b_port = 2;
    }
    for (i = 0; i < 4u; i++)
        for (h = 0; h < 4u; h++) {
            t->routes[k].sw = 4u + i;
            t->routes[k].dst = h;
            t->routes[k++].port = h == i ? 0u : 1u;
        }
    t->d.nodes = t->nodes; t->d.node_count = 8;
    t->d.links = t->links; t->d.link_count = 8;
    t->d.routes = t->routes; t->d.route_count = k;
    t->d.flows = t->flows;
    t->d.error = &t->err;
    for (i = 0; i < 4u; i++) add_flow(t, i, (i + 2u) % 4u, 0);
}

static void test_stall_ring(void)
{
    net t;
    ibcc_fabric *f = NULL;
    const ibcc_fabric_error *e;
    ibcc_result r;
    ring(&t);
    T_EQ(ibcc_fabric_create(&f, &t.d), IBCC_OK);
    if (!f) return;
    r = ibcc_fabric_run_until(f, IBCC_MS(100));
    T_EQ(r, IBCC_ERR_STATE);
    e = ibcc_fabric_last_error(f);
    T_EQ(e->code, IBCC_ERR_STATE);
    /* the four ISLs (S4 port 1 -> S5 port 2, ...) are named */
    T_CHECK(strstr(e->reason, "4:1->5:2 vl0") != NULL);
    T_CHECK(strstr(e->reason, "5:1->6:2 vl0") != NULL);
    T_CHECK(strstr(e->reason, "6:1->7:2 vl0") != NULL);
    T_CHECK(strstr(e->reason, "7:1->4:2 vl0") != NULL);
    T_CHECK(strstr(e->reason, "4 blocked") != NULL);
    if (getenv("VLDEBUG")) printf("%s\n", e->reason);
    /* found within two stall times (10 ms default) of the last move */
    T_CHECK(ibcc_fabric_now(f) <= IBCC_MS(21));
    T_EQ(ibcc_fabric_check(f), IBCC_OK);
    T_EQ(ibcc_fabric_run_until(f, IBCC_MS(200)), IBCC_ERR_STATE);
    ibcc_fabric_destroy(f);
    /* a shorter stall time finds it sooner */
    t.d.stall = IBCC_US(100);
    T_EQ(ibcc_fabric_create(&f, &t.d), IBCC_OK);
    if (!f) return;
    T_EQ(ibcc_fabric_run_until(f, IBCC_MS(100)), IBCC_ERR_STATE);
    T_CHECK(ibcc_fabric_now(f) < IBCC_US(300));
    ibcc_fabric_destroy(f);
    /* light traffic on the same ring never fills a buffer: no stall */
    t.d.stall = 0;
    {
        uint32_t i;
        for (i = 0; i < 4u; i++) {
            t.flows[i].traffic = IBCC_TRAFFIC_RATE;
            t.flows[i].offered = IBCC_MBYTES(100);
        }
    }
    T_EQ(ibcc_fabric_create(&f, &t.d), IBCC_OK);
    if (!f) return;
    T_EQ(ibcc_fabric_run_until(f, IBCC_MS(30)), IBCC_OK);
    T_EQ(ibcc_fabric_last_error(f)->code, IBCC_OK);
    ibcc_fabric_destroy(f);
}

/* A link so slow that one packet takes 0.2 s (10 kB/s) while others wait
   behind it is slow, not stalled: no error over a second. */
static void test_slow_not_stalled(void)
{
    net t;
    ibcc_fabric *f = NULL;
    ibcc_fabric_flow_stats s;
    net_star(&t, 2);
    t.links[1].rate = 10000;
    add_flow(&t, 0, 1, 0)->packets = 8;
    T_EQ(ibcc_fabric_create(&f, &t.d), IBCC_OK);
    if (!f) return;
    T_EQ(ibcc_fabric_run_until(f, IBCC_MS(1000)), IBCC_OK);
    (void)ibcc_fabric_flow_stats_get(f, 0, &s);
    T_EQU(s.delivered, 4);              /* 0.2048 s each: the 5th at 1.02 s */
    T_EQ(ibcc_fabric_check(f), IBCC_OK);
    ibcc_fabric_destroy(f);
}

int main(void)
{
    T_RUN(test_weights_two_to_one);
    T_RUN(test_host_port_arbitration);
    T_RUN(test_high_limit);
    T_RUN(test_no_credit_vl_skipped);
    T_RUN(test_marking_per_vl);
    T_RUN(test_cct_per_sl);
    T_RUN(test_io_table);
    T_RUN(test_mixed_vls);
    T_RUN(test_qos_config);
    T_RUN(test_refusals);
    T_RUN(test_stall_ring);
    T_RUN(test_slow_not_stalled);
    return t_summary();
}
