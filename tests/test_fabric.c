/* Unit tests of the L3 fabric model: wire times, cut-through timing worked
   by hand, credit blocking, the ACK lane, same-instant arbitration,
   agents, statistics, conservation, errors and the allocator. Timings use
   the defaults: 1 GB/s links (1 ns per byte), 5 ns propagation, 40 ns
   forwarding delay, 2068-byte data packets (2068 ns), 20-byte ACKs. */
#define IBCC_IMPLEMENTATION
#include "ibcc.h"
#include "t.h"
#include <stdlib.h>

/* ---- a small topology: hosts 0..nh-1 on switch S (node nh); optional
   second switch. Built as data like a user would. ---------------------- */
typedef struct topo {
    ibcc_fabric_node nodes[16];
    ibcc_fabric_link links[16];
    ibcc_fabric_route routes[64];
    ibcc_fabric_flow flows[8];
    ibcc_fabric_desc d;
} topo;

/* line: H0 - S1 - S2 - H1 (nodes: 0 H0, 1 H1, 2 S1, 3 S2) */
static void topo_line(topo *t)
{
    memset(t, 0, sizeof *t);
    t->nodes[0].kind = IBCC_FABRIC_HOST;
    t->nodes[1].kind = IBCC_FABRIC_HOST;
    t->nodes[2].kind = IBCC_FABRIC_SWITCH; t->nodes[2].ports = 2;
    t->nodes[3].kind = IBCC_FABRIC_SWITCH; t->nodes[3].ports = 2;
    t->links[0].a = 0; t->links[0].a_port = 0; t->links[0].b = 2; t->links[0].b_port = 0;
    t->links[1].a = 2; t->links[1].a_port = 1; t->links[1].b = 3; t->links[1].b_port = 1;
    t->links[2].a = 3; t->links[2].a_port = 0; t->links[2].b = 1; t->links[2].b_port = 0;
    t->routes[0].sw = 2; t->routes[0].dst = 1; t->routes[0].port = 1;
    t->routes[1].sw = 2; t->routes[1].dst = 0; t->routes[1].port = 0;
    t->routes[2].sw = 3; t->routes[2].dst = 1; t->routes[2].port = 0;
    t->routes[3].sw = 3; t->routes[3].dst = 0; t->routes[3].port = 1;
    t->flows[0].src = 0; t->flows[0].dst = 1;
    t->d.nodes = t->nodes; t->d.node_count = 4;
    t->d.links = t->links; t->d.link_count = 3;
    t->d.routes = t->routes; t->d.route_count = 4;
    t->d.flows = t->flows; t->d.flow_count = 1;
}

/* star: hosts 0..n-1 on one switch (node n), port i = host i */
static void topo_star(topo *t, uint32_t n)
{
    uint32_t i, j, k = 0;
    memset(t, 0, sizeof *t);
    for (i = 0; i < n; i++) {
        t->nodes[i].kind = IBCC_FABRIC_HOST;
        t->links[i].a = i; t->links[i].b = n; t->links[i].b_port = i;
    }
    t->nodes[n].kind = IBCC_FABRIC_SWITCH;
    t->nodes[n].ports = n;
    for (j = 0; j < n; j++) {
        t->routes[k].sw = n; t->routes[k].dst = j; t->routes[k].port = j; k++;
    }
    t->d.nodes = t->nodes; t->d.node_count = n + 1;
    t->d.links = t->links; t->d.link_count = n;
    t->d.routes = t->routes; t->d.route_count = k;
    t->d.flows = t->flows; t->d.flow_count = 0;
}

/* observer log */
typedef struct olog {
    ibcc_fabric_pkt sent[64], deliv[64];
    int ns, nd, nmarked;
    int ack_while_blocked, acks_on_chan;
    uint32_t watch_chan;
    ibcc_fabric *f;
} olog;

static void o_sent(void *u, const ibcc_fabric_pkt *p)
{
    olog *l = (olog *)u;
    if (l->ns < 64) l->sent[l->ns] = *p;
    l->ns++;
}
static void o_deliv(void *u, const ibcc_fabric_pkt *p)
{
    olog *l = (olog *)u;
    if (l->nd < 64) l->deliv[l->nd] = *p;
    l->nd++;
}
static void o_marked(void *u, const ibcc_fabric_pkt *p)
{
    (void)p;
    ((olog *)u)->nmarked++;
}
/* ACK-lane starts on the watched channel while its data lane has no
   credit (peeks at the fabric's internals, which the test can see). */
static void o_busy(void *u, uint32_t c, ibcc_time s, ibcc_time e,
                   const ibcc_fabric_pkt *p)
{
    olog *l = (olog *)u;
    (void)s; (void)e;
    if (c != l->watch_chan || p->lane != 1 || !l->f) return;
    l->acks_on_chan++;
    if (l->f->ch[c].lc[0].av_p == 0) l->ack_while_blocked++;
}

static void observe(ibcc_fabric_desc *d, olog *l)
{
    memset(l, 0, sizeof *l);
    d->observer.sent = o_sent;
    d->observer.delivered = o_deliv;
    d->observer.marked = o_marked;
    d->observer.link_busy = o_busy;
    d->observer.user = l;
    l->watch_chan = UINT32_MAX;
}

static void test_wire_times(void)
{
    ibcc_time t = 0;
    T_EQ(ibcc_wire_time(2068, IBCC_GBYTES(1), &t), IBCC_OK);
    T_EQU(t, IBCC_NS(2068));
    T_EQ(ibcc_wire_time(20, IBCC_GBYTES(1), &t), IBCC_OK);
    T_EQU(t, IBCC_NS(20));
    T_EQ(ibcc_wire_time(2068, IBCC_GBITS(10), &t), IBCC_OK);
    T_EQU(t, IBCC_PS(1654400));
}

static void test_defaults(void)
{
    ibcc_fabric_desc d;
    memset(&d, 0, sizeof d);
    T_EQ(ibcc_fabric_defaults(&d), IBCC_OK);
    T_EQU(d.link_rate, IBCC_GBYTES(1));
    T_EQU(d.prop_delay, IBCC_NS(5));
    T_EQU(d.fwd_delay, IBCC_NS(40));
    T_EQU(d.data_size, 2068);
    T_EQU(d.buf_packets, 4);
    T_EQU(d.ack_buf_packets, 16);
    T_EQU(d.dest.ack_bytes, 20);
    T_EQU(d.bin, IBCC_US(100));
    d.fwd_delay = 0; d.fwd_zero = 1;
    T_EQ(ibcc_fabric_defaults(&d), IBCC_OK);
    T_EQU(d.fwd_delay, 0);
    T_EQ(ibcc_fabric_defaults(NULL), IBCC_ERR_NULL);
    d.data_size = 70000;
    T_EQ(ibcc_fabric_defaults(&d), IBCC_ERR_RANGE);
    d.data_size = 2068; d.buf_credits = 10;   /* < 33 credits of a packet */
    T_EQ(ibcc_fabric_defaults(&d), IBCC_ERR_RANGE);
}

/* One window-1 flow across two switches, worked by hand:
   H0 starts packet 1 at 0; S1 sees it at 5 + 40 = 45 ns and starts it on
   the inter-switch link at once (cut-through); that transmission ends at
   max(45 + 2068, tail at S1 = 2068 + 5) = 2113. S2 sees the header at
   45 + 5 + 40 = 90 and ends at max(90 + 2068, 2113 + 5) = 2158; H1 has
   the tail at 2163 = 2068 + 3*5 + 2*40.
   The 20-byte ACK leaves H1 at 2163 (ends 2183), S2 sees it at 2208 and
   sends it by 2228, S1 sees it at 2253 and sends it by 2273, H0 has it at
   2278: packet 2 starts at 2278 ns. */
static void test_cut_through_by_hand(void)
{
    topo t;
    olog l;
    ibcc_fabric *f = NULL;
    ibcc_fabric_flow_stats st;
    topo_line(&t);
    t.flows[0].agent = IBCC_AGENT_WINDOW;
    t.flows[0].window = 1;
    observe(&t.d, &l);
    T_EQ(ibcc_fabric_create(&f, &t.d), IBCC_OK);
    if (!f) return;
    T_EQ(ibcc_fabric_run_until(f, IBCC_NS(5000)), IBCC_OK);
    T_CHECK(l.nd >= 2);
    T_EQU(l.sent[0].t, 0);
    T_EQU(l.deliv[0].t, IBCC_NS(2163));
    T_EQU(l.deliv[0].t - l.deliv[0].t_inject, IBCC_NS(2163));
    T_EQU(l.sent[1].t, IBCC_NS(2278));
    T_EQU(l.deliv[1].t, IBCC_NS(2278 + 2163));
    T_EQ(ibcc_fabric_flow_stats_get(f, 0, &st), IBCC_OK);
    T_EQU(st.lat_min, IBCC_NS(2163));
    T_EQU(st.acks, 2);
    T_EQ(ibcc_fabric_check(f), IBCC_OK);
    ibcc_fabric_destroy(f);
}

/* Without a window the host streams back to back: packet k starts at
   k * 2068 ns. Output faster than input: with the inter-switch link at
   2 GB/s (wire 1034 ns) S1 starts the packet late enough to end when its
   tail has arrived (2073): at 2073 - 1034 = 1039, not at 45 when it
   became visible, so the fast link is held only for its own wire time.
   Its header is at S2 at 1044, visible at 1084; S2 -> H1 runs at 1 GB/s
   from 1084 to 3152 (the tail, at S2 since 2078, never underruns), and
   H1 has the tail at 3157. */
static void test_streaming_and_fast_output(void)
{
    topo t;
    olog l;
    ibcc_fabric *f = NULL;
    topo_line(&t);
    t.links[1].rate = IBCC_GBYTES(2);
    observe(&t.d, &l);
    T_EQ(ibcc_fabric_create(&f, &t.d), IBCC_OK);
    if (!f) return;
    T_EQ(ibcc_fabric_run_until(f, IBCC_NS(10000)), IBCC_OK);
    T_CHECK(l.nd >= 3);
    T_EQU(l.sent[1].t, IBCC_NS(2068));
    T_EQU(l.sent[2].t, IBCC_NS(4136));
    T_EQU(l.deliv[0].t, IBCC_NS(3157));
    T_EQU(l.deliv[1].t, IBCC_NS(2068 + 3157));
    T_EQ(ibcc_fabric_check(f), IBCC_OK);
    ibcc_fabric_destroy(f);
}

/* Credit blocking with a one-packet buffer: H0 -> S -> H1, no window.
   Packet 1's tail leaves S's input buffer at max(45 + 2068, 2073) = 2113;
   the credit is back at H0 5 ns later, so packet 2 starts at 2118 (not
   at 2068 when the transmitter freed). With 64-byte credits, a buffer of
   33 credits (one 2068-byte packet) blocks the same way. */
static void test_credit_blocking(void)
{
    int mode;
    for (mode = 0; mode < 2; mode++) {
        topo t;
        olog l;
        ibcc_fabric *f = NULL;
        topo_star(&t, 2);
        t.flows[0].src = 0; t.flows[0].dst = 1;
        t.d.flow_count = 1;
        if (mode == 0) t.d.buf_packets = 1;
        else { t.d.buf_packets = 8; t.d.buf_credits = 33; }
        observe(&t.d, &l);
        T_EQ(ibcc_fabric_create(&f, &t.d), IBCC_OK);
        if (!f) return;
        T_EQ(ibcc_fabric_run_until(f, IBCC_NS(9000)), IBCC_OK);
        T_CHECK(l.ns >= 3);
        T_EQU(l.sent[1].t, IBCC_NS(2118));
        T_EQU(l.sent[2].t, IBCC_NS(2 * 2118));
        T_EQ(ibcc_fabric_check(f), IBCC_OK);
        ibcc_fabric_destroy(f);
    }
}

/* "Buffer full" counts a packet until its tail has left (virtual cut-
   through). H0 -> S -> H1 with S -> H1 at 0.5 GB/s, 2-packet buffers, no
   window, INPUT marking. P1 is visible at 45 and crosses until
   max(45 + 4136, 2073) = 4181; P2 (sent at 2068) is visible at 2113
   while P1's tail still holds its slot: the buffer is full, INPUT
   triggers (cnt2 = cnt1 = 1) and P2 is marked when it starts at 4181.
   P3 is sent when P1's credit is back (4186), is visible at 4231 while
   P2 crosses, triggers again, and so on: every packet after the first is
   marked. Regression: the marker used to forget a packet when its header
   left, saw one packet in the buffer at each arrival and marked none. */
static void test_marker_counts_crossing_tail(void)
{
    topo t;
    olog l;
    ibcc_fabric *f = NULL;
    int k;
    topo_star(&t, 2);
    t.flows[0].src = 0; t.flows[0].dst = 1;
    t.d.flow_count = 1;
    t.links[1].rate = IBCC_GBYTES(1) / 2u;
    t.d.buf_packets = 2;
    t.d.marker.engine = IBCC_MARKER_INPUT;
    observe(&t.d, &l);
    T_EQ(ibcc_fabric_create(&f, &t.d), IBCC_OK);
    if (!f) return;
    T_EQ(ibcc_fabric_run_until(f, IBCC_NS(17000)), IBCC_OK);
    T_EQ(l.nd, 4);
    T_EQU(l.sent[1].t, IBCC_NS(2068));
    T_EQU(l.sent[2].t, IBCC_NS(4186));
    for (k = 0; k < 4 && k < l.nd; k++) {
        T_EQU(l.deliv[k].t, IBCC_NS(4186 + 4136 * (uint64_t)k));
        T_EQU(l.deliv[k].hdr & IBCC_FECN, k ? IBCC_FECN : 0u);
    }
    T_EQ(l.nmarked, 4);     /* P2..P4, and P5 which started at 16589 */
    {
        /* the switch's marking counters: each mark came from a trigger
           (every crossing refills the 2-packet buffer), plus the trigger
           whose packet had not left by the end; a host is refused */
        ibcc_marker_stats ms;
        T_EQ(ibcc_fabric_marker_stats(f, 2, &ms), IBCC_OK);
        T_EQU(ms.fecn, 4);
        T_EQU(ms.in_triggers, 5);
        T_EQU(ms.errors, 0);
        T_EQ(ibcc_fabric_marker_stats(f, 0, &ms), IBCC_ERR_RANGE);
        T_EQ(ibcc_fabric_marker_stats(f, 3, &ms), IBCC_ERR_RANGE);
        T_EQ(ibcc_fabric_marker_stats(f, 2, NULL), IBCC_ERR_NULL);
        T_EQ(ibcc_fabric_marker_stats(NULL, 2, &ms), IBCC_ERR_NULL);
    }
    T_EQ(ibcc_fabric_check(f), IBCC_OK);
    ibcc_fabric_destroy(f);
}

/* ACKs are never blocked by data credits: in a two-switch fabric with
   one-packet buffers, H0 and H1 (on A) flood H2 (on B) so that B's input
   from A is full and A->B has no data credit most of the time; H3 (on B)
   sends to H4 (on A) with window 1, so its ACKs cross A->B. They must be
   sent while the data lane has no credit, and the flow keeps going. */
static void test_ack_lane_not_blocked(void)
{
    ibcc_fabric_node nodes[7];
    ibcc_fabric_link links[6];
    ibcc_fabric_route routes[10];
    ibcc_fabric_flow flows[3];
    ibcc_fabric_desc d;
    ibcc_fabric_flow_stats st;
    olog l;
    ibcc_fabric *f = NULL;
    uint32_t i, h, k = 0, isl = 0;
    memset(nodes, 0, sizeof nodes); memset(links, 0, sizeof links);
    memset(routes, 0, sizeof routes); memset(flows, 0, sizeof flows);
    memset(&d, 0, sizeof d);
    /* 0 A (ports 0 H0, 1 H1, 2 H4, 3 ISL), 1 B (0 H2, 1 H3, 3 ISL) */
    nodes[0].kind = IBCC_FABRIC_SWITCH; nodes[0].ports = 4;
    nodes[1].kind = IBCC_FABRIC_SWITCH; nodes[1].ports = 4;
    for (i = 2; i < 7; i++) nodes[i].kind = IBCC_FABRIC_HOST;
    /* hosts: node 2 H0, 3 H1, 4 H2, 5 H3, 6 H4 */
    links[0].a = 2; links[0].b = 0; links[0].b_port = 0;
    links[1].a = 3; links[1].b = 0; links[1].b_port = 1;
    links[2].a = 6; links[2].b = 0; links[2].b_port = 2;
    links[3].a = 4; links[3].b = 1; links[3].b_port = 0;
    links[4].a = 5; links[4].b = 1; links[4].b_port = 1;
    links[5].a = 0; links[5].a_port = 3; links[5].b = 1; links[5].b_port = 3;
    for (h = 2; h < 7; h++) {
        int on_a = (h == 2 || h == 3 || h == 6);
        routes[k].sw = 0; routes[k].dst = h;
        routes[k].port = on_a ? (h == 6 ? 2u : h - 2u) : 3u; k++;
        routes[k].sw = 1; routes[k].dst = h;
        routes[k].port = on_a ? 3u : h - 4u; k++;
    }
    flows[0].src = 2; flows[0].dst = 4;
    flows[1].src = 3; flows[1].dst = 4;
    flows[2].src = 5; flows[2].dst = 6;
    flows[2].agent = IBCC_AGENT_WINDOW; flows[2].window = 1;
    d.nodes = nodes; d.node_count = 7; d.links = links; d.link_count = 6;
    d.routes = routes; d.route_count = k; d.flows = flows; d.flow_count = 3;
    d.buf_packets = 1;
    observe(&d, &l);
    T_EQ(ibcc_fabric_create(&f, &d), IBCC_OK);
    if (!f) return;
    T_EQ(ibcc_fabric_channel(f, 0, 3, &isl), IBCC_OK);
    T_EQU(isl, 10);
    l.watch_chan = isl;
    l.f = f;
    T_EQ(ibcc_fabric_run_until(f, IBCC_US(500)), IBCC_OK);
    T_CHECK(l.acks_on_chan > 100);
    T_CHECK(l.ack_while_blocked > 10);
    T_EQ(ibcc_fabric_flow_stats_get(f, 2, &st), IBCC_OK);
    /* window 1 and an RTT of at least 2068 + 2*(3*45) + 60 ns: at most
       500 us / 2.4 us packets; it must get at least half of that */
    T_CHECK(st.acks > 100);
    T_EQ(ibcc_fabric_check(f), IBCC_OK);
    ibcc_fabric_destroy(f);
}

/* Same-instant arbitration: H1 (input 1) and H0 (input 0) send one packet
   each to H2 at time 0; H1's flow is listed first, so its packet is seen
   first at 45 ns. With round robin starting at input 0, arbitrating only
   after every event of the instant gives input 0 (H0) the output; an
   arbiter run at the first arrival would have chosen H1. The loser starts
   when the output frees at 2113 ns. Two packets for different outputs at
   the same instant both start (arbitrate until nothing more can). */
static void test_same_instant_arbitration(void)
{
    topo t;
    olog l;
    ibcc_fabric *f = NULL;
    topo_star(&t, 4);
    t.flows[0].src = 1; t.flows[0].dst = 2;
    t.flows[1].src = 0; t.flows[1].dst = 2;
    t.flows[2].src = 3; t.flows[2].dst = 0;
    t.flows[0].agent = t.flows[1].agent = t.flows[2].agent = IBCC_AGENT_WINDOW;
    t.flows[0].window = t.flows[1].window = t.flows[2].window = 1;
    t.flows[0].stop = t.flows[1].stop = t.flows[2].stop = IBCC_NS(10);
    t.d.flow_count = 3;
    t.d.arbiter.policy = IBCC_ARB_RR;
    observe(&t.d, &l);
    T_EQ(ibcc_fabric_create(&f, &t.d), IBCC_OK);
    if (!f) return;
    T_EQ(ibcc_fabric_run_until(f, IBCC_US(20)), IBCC_OK);
    T_EQ(l.ns, 3);
    T_EQ(l.nd, 3);
    /* deliveries: H0's (flow 1) and H3's (flow 2) at 2068 + 2*5 + 40 +
       ... = 2118 + 5; H1's (flow 0) after waiting: starts 2113 on the
       output, tail at H2 at 2113 + 2068 + 5 */
    T_EQU(l.deliv[0].t, IBCC_NS(2118));
    T_EQU(l.deliv[1].t, IBCC_NS(2118));
    T_CHECK((l.deliv[0].flow == 1 && l.deliv[1].flow == 2)
            || (l.deliv[0].flow == 2 && l.deliv[1].flow == 1));
    T_EQU(l.deliv[2].flow, 0);
    T_EQU(l.deliv[2].t, IBCC_NS(2113 + 2068 + 5));
    T_EQ(ibcc_fabric_check(f), IBCC_OK);
    ibcc_fabric_destroy(f);
}

/* Fixed-rate agent and injection cap: a FIXED flow at 1/4 of the link
   starts a packet every 4 * 2068 ns; a host capped at 0.5 GB/s every
   4136 ns. */
static void test_fixed_rate_and_cap(void)
{
    int mode;
    for (mode = 0; mode < 2; mode++) {
        topo t;
        olog l;
        ibcc_fabric *f = NULL;
        topo_star(&t, 2);
        t.flows[0].src = 0; t.flows[0].dst = 1;
        t.d.flow_count = 1;
        if (mode == 0) {
            t.flows[0].agent = IBCC_AGENT_FIXED;
            t.flows[0].rate = IBCC_MBYTES(250);
        } else {
            t.d.host_cap = IBCC_MBYTES(500);
        }
        observe(&t.d, &l);
        T_EQ(ibcc_fabric_create(&f, &t.d), IBCC_OK);
        if (!f) return;
        T_EQ(ibcc_fabric_run_until(f, IBCC_US(30)), IBCC_OK);
        T_CHECK(l.ns >= 3);
        T_EQU(l.sent[1].t, IBCC_NS(mode ? 4136 : 8272));
        T_EQU(l.sent[2].t, IBCC_NS(mode ? 8272 : 16544));
        T_EQ(ibcc_fabric_check(f), IBCC_OK);
        ibcc_fabric_destroy(f);
    }
}

/* Absorption cap: with host_cap = 0.5 GB/s the sender starts a packet
   every 4136 ns; the receiver has each tail at start + 2118 and absorbs it
   in 4136 ns: deliveries at 6254, 10390, ... The receive buffer (2
   packets) holds each packet until absorbed, so conservation counts it. */
static void test_absorb_cap(void)
{
    topo t;
    olog l;
    ibcc_fabric *f = NULL;
    topo_star(&t, 2);
    t.flows[0].src = 0; t.flows[0].dst = 1;
    t.d.flow_count = 1;
    t.d.host_cap = IBCC_MBYTES(500);
    t.d.buf_packets = 2;
    observe(&t.d, &l);
    T_EQ(ibcc_fabric_create(&f, &t.d), IBCC_OK);
    if (!f) return;
    T_EQ(ibcc_fabric_run_until(f, IBCC_NS(8000)), IBCC_OK);
    T_EQ(ibcc_fabric_check(f), IBCC_OK);      /* one packet being absorbed */
    T_EQ(ibcc_fabric_run_until(f, IBCC_US(30)), IBCC_OK);
    T_CHECK(l.nd >= 2);
    T_EQU(l.deliv[0].t, IBCC_NS(6254));
    T_EQU(l.deliv[1].t, IBCC_NS(10390));
    T_EQ(ibcc_fabric_check(f), IBCC_OK);
    ibcc_fabric_destroy(f);
}

/* IBA root/victim test through the fabric: two hosts flood a host that
   absorbs at 0.25 GB/s. The switch port facing it keeps running out of
   credits, so it is a victim and IBA marking (Threshold 15) stays silent
   unless its Victim_Mask bit is set ([G]: the mask is for ports facing a
   slow adapter). With a fast host the same port is a root and marks. */
static void test_iba_victim_mask(void)
{
    int mode;
    uint64_t marks[3];
    for (mode = 0; mode < 3; mode++) {
        topo t;
        olog l;
        ibcc_fabric *f = NULL;
        topo_star(&t, 3);
        t.flows[0].src = 0; t.flows[0].dst = 2;
        t.flows[1].src = 1; t.flows[1].dst = 2;
        t.d.flow_count = 2;
        t.d.marker.engine = IBCC_MARKER_IBA;
        t.d.marker.iba_threshold = 15;
        t.d.dest.scheme = IBCC_DEST_IBA;
        if (mode < 2) t.d.host_cap = IBCC_MBYTES(250);
        if (mode == 1) t.d.marker.victim_mask[0] = 1u << 2;   /* port 2 */
        observe(&t.d, &l);
        T_EQ(ibcc_fabric_create(&f, &t.d), IBCC_OK);
        if (!f) return;
        T_EQ(ibcc_fabric_run_until(f, IBCC_US(500)), IBCC_OK);
        T_EQ(ibcc_fabric_check(f), IBCC_OK);
        marks[mode] = (uint64_t)l.nmarked;
        ibcc_fabric_destroy(f);
    }
    /* measured 3 / 64 / 242 */
    T_CHECK(marks[0] <= 4);       /* only while the buffer first fills */
    T_CHECK(marks[1] > 10u * marks[0] + 20u);
    T_CHECK(marks[2] > 10u * marks[0] + 20u);
}

/* RATE traffic (open loop): 0.25 GB/s offered gives one packet per
   8272 ns; ON/OFF flows only send during ON periods. */
static void test_traffic_kinds(void)
{
    topo t;
    olog l;
    ibcc_fabric *f = NULL;
    ibcc_fabric_flow_stats st, st2;
    topo_star(&t, 3);
    t.flows[0].src = 0; t.flows[0].dst = 2;
    t.flows[0].traffic = IBCC_TRAFFIC_RATE;
    t.flows[0].offered = IBCC_MBYTES(250);
    t.flows[1].src = 1; t.flows[1].dst = 2;
    t.flows[1].traffic = IBCC_TRAFFIC_ONOFF;
    t.flows[1].on_mean = IBCC_US(50);
    t.flows[1].off_mean = IBCC_US(50);
    t.d.flow_count = 2;
    t.d.seed = 7;
    observe(&t.d, &l);
    T_EQ(ibcc_fabric_create(&f, &t.d), IBCC_OK);
    if (!f) return;
    T_EQ(ibcc_fabric_run_until(f, IBCC_MS(2)), IBCC_OK);
    T_EQ(ibcc_fabric_flow_stats_get(f, 0, &st), IBCC_OK);
    /* 2 ms / 8272 ns = 241.8: packets generated at 0, 8272, ... */
    T_EQU(st.sent, 242);
    T_EQ(ibcc_fabric_flow_stats_get(f, 1, &st2), IBCC_OK);
    /* ON half the time on average, sharing BC with flow 0 (1/4 link):
       expect about 0.5 * 2 ms / 2068 ns = 484 packets; exponential
       periods of 50 us over 2 ms give about 20 cycles, so allow +-40% */
    T_CHECK(st2.sent > 290 && st2.sent < 680);
    T_EQ(ibcc_fabric_check(f), IBCC_OK);
    ibcc_fabric_destroy(f);
}

/* Law agent with input-triggered marking on a 2:1 congested star: both
   flows are marked and slowed, the root stays busy, conservation holds. */
static void test_law_and_marking(void)
{
    topo t;
    olog l;
    ibcc_fabric *f = NULL;
    ibcc_fabric_flow_stats s0, s1;
    uint64_t b = 0;
    uint32_t root = 0;
    topo_star(&t, 3);
    t.flows[0].src = 0; t.flows[0].dst = 2;
    t.flows[1].src = 1; t.flows[1].dst = 2;
    t.flows[0].agent = t.flows[1].agent = IBCC_AGENT_LAW;   /* no window */
    t.d.flow_count = 2;
    t.d.marker.engine = IBCC_MARKER_INPUT;
    t.d.horizon = IBCC_MS(5);
    observe(&t.d, &l);
    T_EQ(ibcc_fabric_create(&f, &t.d), IBCC_OK);
    if (!f) return;
    T_EQ(ibcc_fabric_run_until(f, IBCC_MS(5)), IBCC_OK);
    T_EQ(ibcc_fabric_flow_stats_get(f, 0, &s0), IBCC_OK);
    T_EQ(ibcc_fabric_flow_stats_get(f, 1, &s1), IBCC_OK);
    T_CHECK(s0.marked > 0 && s1.marked > 0);
    T_CHECK(s0.acks_marked > 0);
    /* one switch marks: every marked delivery was reported once; at most
       the packets still in flight (2, window 1) were marked and not yet
       delivered */
    T_CHECK((uint64_t)l.nmarked >= s0.marked + s1.marked);
    T_CHECK((uint64_t)l.nmarked <= s0.marked + s1.marked + 2u);
    T_EQ(ibcc_fabric_channel(f, 3, 2, &root), IBCC_OK);
    T_EQ(ibcc_fabric_channel_bytes(f, root, IBCC_MS(1), IBCC_MS(5), &b), IBCC_OK);
    /* window 1 with two sources: the root cannot exceed 1 GB/s (4 MB in
       4 ms) and LIPD must not starve it below half */
    T_CHECK(b <= 4000000u + 2068u && b > 2000000u);
    T_EQ(ibcc_fabric_check(f), IBCC_OK);
    ibcc_fabric_destroy(f);
}

/* CCT agent (IBA FECN/BECN) and MVCM agent (MVPM MB/VB) run end to end. */
static void test_cct_and_mvcm_agents(void)
{
    int mode;
    for (mode = 0; mode < 2; mode++) {
        topo t;
        olog l;
        ibcc_fabric *f = NULL;
        ibcc_fabric_flow_stats s0;
        topo_star(&t, 3);
        t.flows[0].src = 0; t.flows[0].dst = 2;
        t.flows[1].src = 1; t.flows[1].dst = 2;
        t.d.flow_count = 2;
        if (mode == 0) {
            t.flows[0].agent = t.flows[1].agent = IBCC_AGENT_CCT;
            t.d.marker.engine = IBCC_MARKER_IBA;
            t.d.marker.iba_threshold = 15;
            t.d.dest.scheme = IBCC_DEST_IBA;
            t.d.cct.sl[0].ccti_timer = 10;
        } else {
            /* MVCM flows have DW = 2: two flows share host 0 so its
               input buffer gets above MVPM's input threshold (2 of 4) */
            t.flows[2].src = 0; t.flows[2].dst = 2;
            t.flows[2].agent = IBCC_AGENT_MVCM;
            t.d.flow_count = 3;
            t.flows[0].agent = t.flows[1].agent = IBCC_AGENT_MVCM;
            t.d.marker.engine = IBCC_MARKER_MVPM;
            t.d.dest.scheme = IBCC_DEST_MVPM;
            t.d.mvcm.ws = IBCC_NS(2300);
        }
        observe(&t.d, &l);
        T_EQ(ibcc_fabric_create(&f, &t.d), IBCC_OK);
        if (!f) return;
        T_EQ(ibcc_fabric_run_until(f, IBCC_MS(2)), IBCC_OK);
        T_EQ(ibcc_fabric_flow_stats_get(f, 0, &s0), IBCC_OK);
        T_CHECK(s0.delivered > 100);
        T_CHECK(s0.acks_marked > 0);
        T_EQ(ibcc_fabric_check(f), IBCC_OK);
        ibcc_fabric_destroy(f);
    }
}

/* MVCM's immediate reset ([F] 4.2.2) needs an empty injection queue, and
   [F] 5.1's per-destination queue holds a flow's packets until their ACKs
   release them: a packet generated while an earlier one is still
   outstanding must not reset the flow. Star of three hosts: a greedy
   flow without CMM from host 1 and an MVCM flow from host 0 offering 0.4
   of the link, both into host 2. The MVCM flow's packets wait behind the
   greedy one's and are marked and validated (MVPM input threshold 1
   unit); each new packet finds the queue empty but its predecessor
   still outstanding. The flow must reach waiting slots and never reset;
   the rule that looked at the queue alone reset it at 184 of its 184
   hot ACKs and never let nWS leave 0. */
static void test_mvcm_reset_needs_nothing_outstanding(void)
{
    topo t;
    ibcc_fabric *f = NULL;
    ibcc_mvcm_stats st;
    topo_star(&t, 3);
    t.d.link_rate = IBCC_GBYTES(1);
    t.flows[0].src = 1; t.flows[0].dst = 2;          /* greedy, no CMM */
    t.flows[1].src = 0; t.flows[1].dst = 2;
    t.flows[1].traffic = IBCC_TRAFFIC_RATE;
    t.flows[1].offered = IBCC_GBYTES(1) / 5u * 2u;
    t.flows[1].agent = IBCC_AGENT_MVCM;
    t.d.flow_count = 2;
    t.d.marker.engine = IBCC_MARKER_MVPM;
    t.d.marker.mvpm_in_threshold = 1;
    t.d.dest.scheme = IBCC_DEST_MVPM;
    t.d.mvcm.ws = IBCC_NS(10);
    t.d.mvcm.dw_max = 4;
    T_EQ(ibcc_fabric_create(&f, &t.d), IBCC_OK);
    if (!f) return;
    T_EQ(ibcc_fabric_run_until(f, IBCC_MS(1)), IBCC_OK);
    T_EQ(ibcc_fabric_mvcm_stats(f, &st), IBCC_OK);
    T_CHECK(st.acks[IBCC_MVCM_WARM] + st.acks[IBCC_MVCM_HOT] > 20);
    T_CHECK(st.nws_max >= 1);
    T_EQU(st.resets, 0);
    T_EQ(ibcc_fabric_mvcm_stats(NULL, &st), IBCC_ERR_NULL);
    T_EQ(ibcc_fabric_mvcm_stats(f, NULL), IBCC_ERR_NULL);
    T_EQ(ibcc_fabric_check(f), IBCC_OK);
    ibcc_fabric_destroy(f);
}

/* Coalesced ACKs (dest.ack_every = 4): two CCT flows into one host, in
   messages of 10 packets, with a window of 8 packets. A message's ACKs
   follow its packets 4, 8 and 10, so 3 ACKs per 10 packets, each
   closing the packets it covers (the window keeps moving); a BECN
   still reaches the sources. ack_every 1 gives an ACK per packet. */
static void test_coalesced_acks(void)
{
    int mode;
    for (mode = 0; mode < 2; mode++) {
        topo t;
        ibcc_fabric *f = NULL;
        ibcc_fabric_flow_stats s;
        uint32_t i;
        topo_star(&t, 3);
        for (i = 0; i < 2; i++) {
            t.flows[i].src = i; t.flows[i].dst = 2;
            t.flows[i].agent = IBCC_AGENT_CCT;
            t.flows[i].window = 8;
            t.flows[i].msg_bytes = 10u * 2068u;
        }
        t.d.flow_count = 2;
        t.d.marker.engine = IBCC_MARKER_IBA;
        t.d.marker.iba_threshold = 15;
        t.d.dest.scheme = IBCC_DEST_IBA;
        t.d.dest.ack_every = mode ? 4u : 1u;
        t.d.cct.sl[0].ccti_timer = 10;
        T_EQ(ibcc_fabric_create(&f, &t.d), IBCC_OK);
        if (!f) return;
        T_EQ(ibcc_fabric_run_until(f, IBCC_MS(2)), IBCC_OK);
        T_EQ(ibcc_fabric_flow_stats_get(f, 0, &s), IBCC_OK);
        T_CHECK(s.delivered > 300);
        T_CHECK(s.acks_marked > 0);
        if (mode) {
            /* ACKs of the last packets may still be on their way */
            T_CHECK(s.acks * 10u <= s.delivered * 3u + 10u);
            T_CHECK(s.acks * 10u + 30u >= s.delivered * 3u);
        } else {
            T_CHECK(s.acks <= s.delivered && s.acks + 8u >= s.delivered);
        }
        T_EQ(ibcc_fabric_check(f), IBCC_OK);
        ibcc_fabric_destroy(f);
    }
}

/* Persistent per-pair state [S03 VI-B.2]: a LAW flow that ends an ON
   period saves its rate and the next period starts from it; without
   persistence the next period starts at Rmax. The ON/OFF toggles are
   driven by hand (internal event handler) after 2 ms of marking. */
static void test_persistent_state(void)
{
    int pers;
    for (pers = 0; pers < 2; pers++) {
        topo t;
        ibcc_fabric *f = NULL;
        double x;
        topo_star(&t, 3);
        t.flows[0].src = 0; t.flows[0].dst = 2;
        t.flows[1].src = 1; t.flows[1].dst = 2;
        t.flows[0].agent = t.flows[1].agent = IBCC_AGENT_LAW;
        t.flows[0].traffic = IBCC_TRAFFIC_ONOFF;
        t.flows[0].on_mean = t.flows[0].off_mean = IBCC_S(100);
        t.flows[0].persistent = (uint32_t)pers;
        t.d.flow_count = 2;
        t.d.marker.engine = IBCC_MARKER_INPUT;
        T_EQ(ibcc_fabric_create(&f, &t.d), IBCC_OK);
        if (!f) return;
        T_EQ(ibcc_fabric_run_until(f, IBCC_MS(2)), IBCC_OK);
        x = ibcc_law_exact_rate(ibcc_fabric_flow_law(f, 0));
        T_CHECK(x < 0.9);                  /* marks have slowed it */
        ibcc_fab_flow_event_(f, 0, 0);     /* OFF */
        T_CHECK(!f->flow[0].on);
        ibcc_fab_flow_event_(f, 0, 1);     /* ON again */
        T_CHECK(f->flow[0].on);
        if (pers) T_NEAR(ibcc_law_exact_rate(ibcc_fabric_flow_law(f, 0)), x, 0);
        else T_NEAR(ibcc_law_exact_rate(ibcc_fabric_flow_law(f, 0)), 1.0, 0);
        T_EQ(ibcc_fabric_run_until(f, IBCC_MS(3)), IBCC_OK);
        T_EQ(ibcc_fabric_check(f), IBCC_OK);
        ibcc_fabric_destroy(f);
    }
}

/* Property: over random two-switch configurations (sizes, buffers in
   packets or credits, windows, arbiters, all six marking engines,
   classifications, laws, traffic kinds, data sizes), packets and credits
   are conserved at every checkpoint, every marker agrees with its buffers
   (ibcc_fabric_check) and the model reports no error. */
static void test_random_configs_conserve(void)
{
    static ibcc_twoswitch ts;
    ibcc_rng rng;
    int k, bad = 0, runs = 0, moved = 0;
    ibcc_rng_seed(&rng, 2024);
    for (k = 0; k < 24; k++) {
        ibcc_fabric_desc d;
        ibcc_fabric *f = NULL;
        uint32_t i, L = 1u + (uint32_t)ibcc_rng_below(&rng, 6);
        uint32_t R = 1u + (uint32_t)ibcc_rng_below(&rng, 6);
        int cp;
        memset(&d, 0, sizeof d);
        if (ibcc_twoswitch_build(&ts, L, R, &d) != IBCC_OK) { bad++; continue; }
        d.buf_packets = 1u + (uint32_t)ibcc_rng_below(&rng, 6);
        if (ibcc_rng_below(&rng, 2)) d.buf_credits = 33u * (1u + (uint32_t)ibcc_rng_below(&rng, 4));
        d.ack_buf_packets = 1u + (uint32_t)ibcc_rng_below(&rng, 4);
        d.arbiter.policy = (ibcc_arb_policy)ibcc_rng_below(&rng, 3);
        d.arbiter.bypass_limit = 1u + (uint32_t)ibcc_rng_below(&rng, 5);
        d.marker.engine = (ibcc_marker_engine)ibcc_rng_below(&rng, 6);
        d.marker.iba_threshold = (uint32_t)ibcc_rng_below(&rng, 16);
        d.marker.classify = (ibcc_classify)ibcc_rng_below(&rng, 2);
        d.marker.t_out = 1u + (uint32_t)ibcc_rng_below(&rng, 8);
        d.law.kind = (ibcc_law_kind)(1u + ibcc_rng_below(&rng, 3));
        d.law.form = (ibcc_law_form)(1u + ibcc_rng_below(&rng, 3));
        d.host_cap = ibcc_rng_below(&rng, 3) == 0 ? IBCC_MBYTES(700) : 0;
        d.seed = (uint64_t)k;
        for (i = 0; i < ts.flow_count; i++) {
            ibcc_fabric_flow *x = &ts.flows[i];
            x->agent = (uint32_t)ibcc_rng_below(&rng, 4);   /* NONE..FIXED */
            x->rate = IBCC_MBYTES(100 + ibcc_rng_below(&rng, 900));
            x->window = (uint32_t)ibcc_rng_below(&rng, 4);
            x->size = ibcc_rng_below(&rng, 2) ? 0u
                      : 64u + (uint32_t)ibcc_rng_below(&rng, 2000);
            x->traffic = (uint32_t)ibcc_rng_below(&rng, 3);
            x->on_mean = IBCC_US(20 + ibcc_rng_below(&rng, 200));
            x->off_mean = IBCC_US(20 + ibcc_rng_below(&rng, 200));
            x->offered = IBCC_MBYTES(50 + ibcc_rng_below(&rng, 500));
            x->persistent = (uint32_t)ibcc_rng_below(&rng, 2);
            x->start = IBCC_US(ibcc_rng_below(&rng, 300));
            x->stop = ibcc_rng_below(&rng, 2) ? 0 : x->start + IBCC_US(500);
        }
        if (ibcc_fabric_create(&f, &d) != IBCC_OK) { bad++; continue; }
        runs++;
        for (cp = 1; cp <= 8; cp++) {
            if (ibcc_fabric_run_until(f, IBCC_US(250) * (ibcc_time)cp) != IBCC_OK
                || ibcc_fabric_check(f) != IBCC_OK) {
                bad++;
                break;
            }
        }
        {
            ibcc_fabric_counters cn;
            (void)ibcc_fabric_counters_get(f, &cn);
            if (cn.delivered > 200u) moved++;   /* 2 ms: real traffic */
        }
        ibcc_fabric_destroy(f);
    }
    T_EQ(bad, 0);
    T_EQ(runs, 24);
    T_EQ(moved, 24);
}

/* Stats helpers: bins, channels, Jain. */
static void test_stats(void)
{
    double eq[3] = {1, 1, 1}, one[4] = {1, 0, 0, 0};
    topo t;
    ibcc_fabric *f = NULL;
    uint64_t b = 0;
    uint32_t c = 0;
    ibcc_fabric_counters cn;
    T_NEAR(ibcc_jain(eq, 3), 1.0, 1e-12);
    T_NEAR(ibcc_jain(one, 4), 0.25, 1e-12);
    T_NEAR(ibcc_jain(NULL, 0), 1.0, 0);
    topo_star(&t, 2);
    t.flows[0].src = 0; t.flows[0].dst = 1;
    t.d.flow_count = 1;
    t.d.horizon = IBCC_US(300);
    t.d.bin = IBCC_US(10);
    T_EQ(ibcc_fabric_create(&f, &t.d), IBCC_OK);
    if (!f) return;
    T_EQ(ibcc_fabric_run_until(f, IBCC_US(300)), IBCC_OK);
    /* back to back from 0: packet k starts at k*2068 ns and H1 receives
       it during [k*2068 + 50, k*2068 + 2118) (5 ns to S, visible 40 ns
       later, 2068 ns on S -> H1, 5 ns): delivered bytes are spread over
       that reception, which is continuous from 50 ns on, so [0, 100 us)
       holds exactly 100000 - 50 bytes; the channel H0 -> S counts the
       same delivered bytes at the same times */
    T_EQ(ibcc_fabric_flow_bytes(f, 0, 0, IBCC_US(100), &b), IBCC_OK);
    T_EQU(b, 99950u);
    T_EQ(ibcc_fabric_channel(f, 0, 0, &c), IBCC_OK);
    T_EQ(ibcc_fabric_channel_bytes(f, c, 0, IBCC_US(100), &b), IBCC_OK);
    T_EQU(b, 99950u);
    T_EQ(ibcc_fabric_flow_bytes(f, 0, 0, IBCC_US(400), &b), IBCC_ERR_RANGE);
    T_EQ(ibcc_fabric_flow_bytes(f, 1, 0, IBCC_US(100), &b), IBCC_ERR_RANGE);
    T_EQ(ibcc_fabric_flow_bytes(f, 0, IBCC_US(100), 0, &b), IBCC_ERR_RANGE);
    T_EQ(ibcc_fabric_flow_bytes(f, 0, 0, IBCC_US(100), NULL), IBCC_ERR_NULL);
    T_EQ(ibcc_fabric_channel_bytes(f, 99, 0, IBCC_US(100), &b), IBCC_ERR_RANGE);
    T_EQ(ibcc_fabric_channel(f, 2, 5, &c), IBCC_ERR_RANGE);
    T_EQ(ibcc_fabric_channel(f, 9, 0, &c), IBCC_ERR_RANGE);
    T_EQ(ibcc_fabric_channel(NULL, 0, 0, &c), IBCC_ERR_NULL);
    {
        double r = 0;
        ibcc_fabric_flow_stats st;
        /* centred window [50, 150) us: reception is continuous there,
           the rate is the link rate (up to the rounding of bins) */
        T_EQ(ibcc_fabric_rate(f, IBCC_FABRIC_FLOW, 0, IBCC_US(100),
                              IBCC_US(100), &r), IBCC_OK);
        T_NEAR(r, 1e9, 1e-3);
        T_EQ(ibcc_fabric_rate(f, IBCC_FABRIC_CHANNEL, c, IBCC_US(100),
                              IBCC_US(100), &r), IBCC_OK);
        T_NEAR(r, 1e9, 1e-3);
        T_EQ(ibcc_fabric_rate(f, IBCC_FABRIC_FLOW, 0, IBCC_US(20),
                              IBCC_US(100), &r), IBCC_ERR_RANGE);
        T_EQ(ibcc_fabric_rate(f, IBCC_FABRIC_FLOW, 0, IBCC_US(250),
                              IBCC_US(200), &r), IBCC_ERR_RANGE);
        T_EQ(ibcc_fabric_rate(f, IBCC_FABRIC_FLOW, 0, IBCC_US(100),
                              IBCC_US(5), &r), IBCC_ERR_RANGE);
        T_EQ(ibcc_fabric_rate(f, 2, 0, IBCC_US(100), IBCC_US(100), &r),
             IBCC_ERR_RANGE);
        T_EQ(ibcc_fabric_rate(f, IBCC_FABRIC_FLOW, 5, IBCC_US(100),
                              IBCC_US(100), &r), IBCC_ERR_RANGE);
        T_EQ(ibcc_fabric_rate(f, IBCC_FABRIC_FLOW, 0, IBCC_US(100),
                              IBCC_US(100), NULL), IBCC_ERR_NULL);
        /* every latency is 2068 + 2*5 + 40 = 2118 ns: bucket 11
           (2048 <= 2118 < 4096) */
        T_EQ(ibcc_fabric_flow_stats_get(f, 0, &st), IBCC_OK);
        T_EQU(st.lat_min, IBCC_NS(2118));
        T_EQU(st.lat_max, IBCC_NS(2118));
        T_EQU(st.lat_hist[11], st.delivered);
    }
    {
        /* 300 us back to back: 146 packets started (k*2068 < 300000), the
           last one at 299860 ns, still on the wire: its bytes count, its
           time only up to now, so busy = 300 us (busy <= elapsed; it was
           146 * 2068 ns = 301.9 us, utilisation above 1, when a packet
           under way counted whole) */
        uint64_t tb = 0;
        ibcc_time busy = 0;
        T_EQ(ibcc_fabric_channel_totals(f, c, &tb, &busy), IBCC_OK);
        T_EQU(tb, 146u * 2068u);
        T_EQU(busy, IBCC_US(300));
        T_EQ(ibcc_fabric_channel_totals(f, c, NULL, NULL), IBCC_OK);
        T_EQ(ibcc_fabric_channel_totals(f, 99, &tb, &busy), IBCC_ERR_RANGE);
        T_EQ(ibcc_fabric_channel_totals(NULL, c, &tb, &busy), IBCC_ERR_NULL);
    }
    T_EQ(ibcc_fabric_counters_get(f, &cn), IBCC_OK);
    T_EQU(cn.in_flight, cn.injected - cn.delivered);
    T_CHECK(cn.hops >= 2u * cn.delivered);
    T_CHECK(cn.events > cn.hops);
    T_EQ(ibcc_fabric_counters_get(f, NULL), IBCC_ERR_NULL);
    T_EQ(ibcc_fabric_flow_stats_get(f, 3, NULL), IBCC_ERR_NULL);
    T_EQU(ibcc_fabric_now(f), IBCC_US(300));
    T_CHECK(ibcc_fabric_loop(f) != NULL);
    T_EQ(ibcc_fabric_run_until(f, IBCC_US(100)), IBCC_ERR_PAST);
    ibcc_fabric_destroy(f);
    T_EQ(ibcc_fabric_run_until(NULL, 0), IBCC_ERR_NULL);
    T_EQ(ibcc_fabric_check(NULL), IBCC_ERR_NULL);
    ibcc_fabric_destroy(NULL);
}

/* The conservation check detects a broken invariant. */
static void test_check_detects(void)
{
    topo t;
    ibcc_fabric *f = NULL;
    topo_star(&t, 2);
    t.flows[0].src = 0; t.flows[0].dst = 1;
    t.d.flow_count = 1;
    T_EQ(ibcc_fabric_create(&f, &t.d), IBCC_OK);
    if (!f) return;
    T_EQ(ibcc_fabric_run_until(f, IBCC_NS(3000)), IBCC_OK);
    T_EQ(ibcc_fabric_check(f), IBCC_OK);
    f->ch[0].lc[0].av_p++;                  /* a credit out of nowhere */
    T_EQ(ibcc_fabric_check(f), IBCC_ERR_MISMATCH);
    f->ch[0].lc[0].av_p--;
    f->injected++;                       /* a packet lost */
    T_EQ(ibcc_fabric_check(f), IBCC_ERR_MISMATCH);
    f->injected--;
    T_EQ(ibcc_fabric_check(f), IBCC_OK);
    /* the marker must hold what the buffer holds: a packet that entered
       the marker but not the buffer is found */
    T_EQU(ibcc_marker_packets(&f->sw[0].mk[0], 0), f->buf[(f->node[2].base) * f->nlanes].occ_p);
    (void)ibcc_marker_arrive(&f->sw[0].mk[0], 0, 1, 2068u);
    T_EQ(ibcc_fabric_check(f), IBCC_ERR_MISMATCH);
    ibcc_fabric_destroy(f);
    /* a rejected marker event is found */
    T_EQ(ibcc_fabric_create(&f, &t.d), IBCC_OK);
    if (!f) return;
    T_EQ(ibcc_fabric_run_until(f, IBCC_NS(3000)), IBCC_OK);
    ibcc_marker_release(&f->sw[0].mk[0], 1, 2068u);  /* nothing held at 1 */
    T_EQ(ibcc_fabric_check(f), IBCC_ERR_MISMATCH);
    ibcc_fabric_destroy(f);
}

static void test_bad_topology(void)
{
    topo t;
    ibcc_fabric *f = (ibcc_fabric *)&t;  /* must be reset to NULL */
    topo_line(&t);
    T_EQ(ibcc_fabric_create(NULL, &t.d), IBCC_ERR_NULL);
    T_EQ(ibcc_fabric_create(&f, NULL), IBCC_ERR_NULL);
    T_CHECK(f == NULL);
    topo_line(&t); t.nodes[2].kind = 7;
    T_EQ(ibcc_fabric_create(&f, &t.d), IBCC_ERR_RANGE);
    topo_line(&t); t.nodes[2].ports = 0;
    T_EQ(ibcc_fabric_create(&f, &t.d), IBCC_ERR_CAPACITY);
    topo_line(&t); t.nodes[2].ports = 300;
    T_EQ(ibcc_fabric_create(&f, &t.d), IBCC_ERR_CAPACITY);
    topo_line(&t); t.nodes[0].ports = 2;              /* hosts have 1 port */
    T_EQ(ibcc_fabric_create(&f, &t.d), IBCC_ERR_RANGE);
    topo_line(&t); t.links[1].b_port = 5;              /* port out of range */
    T_EQ(ibcc_fabric_create(&f, &t.d), IBCC_ERR_RANGE);
    topo_line(&t); t.links[1].b = 9;                   /* node out of range */
    T_EQ(ibcc_fabric_create(&f, &t.d), IBCC_ERR_RANGE);
    topo_line(&t); t.links[1].a = 2; t.links[1].b = 2; /* self loop */
    T_EQ(ibcc_fabric_create(&f, &t.d), IBCC_ERR_RANGE);
    topo_line(&t); t.links[1].a_port = 0;              /* port linked twice */
    T_EQ(ibcc_fabric_create(&f, &t.d), IBCC_ERR_RANGE);
    topo_line(&t); t.d.link_count = 2;                 /* H1 not linked */
    T_EQ(ibcc_fabric_create(&f, &t.d), IBCC_ERR_RANGE);
    topo_line(&t); t.d.route_count = 3;                /* no route to H0 */
    T_EQ(ibcc_fabric_create(&f, &t.d), IBCC_ERR_RANGE);
    topo_line(&t); t.routes[2].port = 1;               /* S2 sends H1 back */
    T_EQ(ibcc_fabric_create(&f, &t.d), IBCC_ERR_RANGE);   /* routing loop */
    topo_line(&t); t.routes[0].port = 3;               /* port out of range */
    T_EQ(ibcc_fabric_create(&f, &t.d), IBCC_ERR_RANGE);
    topo_line(&t); t.routes[0].sw = 0;                 /* not a switch */
    T_EQ(ibcc_fabric_create(&f, &t.d), IBCC_ERR_RANGE);
    topo_line(&t); t.routes[0].dst = 2;                /* not a host */
    T_EQ(ibcc_fabric_create(&f, &t.d), IBCC_ERR_RANGE);
    topo_line(&t); t.flows[0].dst = 0;                 /* src == dst */
    T_EQ(ibcc_fabric_create(&f, &t.d), IBCC_ERR_RANGE);
    topo_line(&t); t.flows[0].dst = 2;                 /* dst a switch */
    T_EQ(ibcc_fabric_create(&f, &t.d), IBCC_ERR_RANGE);
    topo_line(&t); t.flows[0].agent = 9;
    T_EQ(ibcc_fabric_create(&f, &t.d), IBCC_ERR_RANGE);
    topo_line(&t); t.flows[0].traffic = IBCC_TRAFFIC_ONOFF;
    T_EQ(ibcc_fabric_create(&f, &t.d), IBCC_ERR_RANGE);   /* means 0 */
    topo_line(&t); t.flows[0].traffic = IBCC_TRAFFIC_RATE;
    T_EQ(ibcc_fabric_create(&f, &t.d), IBCC_ERR_RANGE);   /* offered 0 */
    topo_line(&t); t.flows[0].start = 10; t.flows[0].stop = 5;
    T_EQ(ibcc_fabric_create(&f, &t.d), IBCC_ERR_RANGE);
    topo_line(&t); t.flows[0].agent = IBCC_AGENT_FIXED;   /* rate 0 */
    T_EQ(ibcc_fabric_create(&f, &t.d), IBCC_ERR_RANGE);
    topo_line(&t); t.flows[0].agent = IBCC_AGENT_MVCM;    /* ws missing */
    T_EQ(ibcc_fabric_create(&f, &t.d), IBCC_ERR_RANGE);
    topo_line(&t); t.d.dest.scheme = IBCC_DEST_IBA;     /* no ACKs ... */
    t.d.dest.transport = IBCC_DEST_UNACKED;
    t.flows[0].window = 1;                             /* ... and a window */
    T_EQ(ibcc_fabric_create(&f, &t.d), IBCC_ERR_UNSUPPORTED);
    t.flows[0].window = 0;
    t.flows[0].agent = IBCC_AGENT_LAW;                 /* never increases */
    T_EQ(ibcc_fabric_create(&f, &t.d), IBCC_ERR_UNSUPPORTED);
    t.flows[0].agent = IBCC_AGENT_CCT;                 /* CNPs only: fine */
    T_EQ(ibcc_fabric_create(&f, &t.d), IBCC_OK);
    ibcc_fabric_destroy(f);
    f = NULL;
    topo_line(&t); t.d.dest.scheme = 9;
    T_EQ(ibcc_fabric_create(&f, &t.d), IBCC_ERR_RANGE);
    topo_line(&t); t.d.law.rmin = 2.0;
    t.flows[0].agent = IBCC_AGENT_LAW;
    T_EQ(ibcc_fabric_create(&f, &t.d), IBCC_ERR_RANGE);
    topo_line(&t); t.d.buf_packets = 70000;
    T_EQ(ibcc_fabric_create(&f, &t.d), IBCC_ERR_RANGE);
    topo_line(&t); t.d.marker.engine = (ibcc_marker_engine)42;
    T_EQ(ibcc_fabric_create(&f, &t.d), IBCC_ERR_RANGE);
    topo_line(&t); t.d.routes = NULL;
    T_EQ(ibcc_fabric_create(&f, &t.d), IBCC_ERR_NULL);
    topo_line(&t); t.d.node_count = 0;
    T_EQ(ibcc_fabric_create(&f, &t.d), IBCC_ERR_CAPACITY);
    T_CHECK(f == NULL);
}

/* Counting allocator: everything allocated is freed, on success and on
   every failure point. */
typedef struct counting { long live, calls, fail_at; } counting;
static void *c_alloc(void *u, size_t n)
{
    counting *c = (counting *)u;
    if (c->fail_at >= 0 && c->calls++ == c->fail_at) return NULL;
    c->live++;
    return malloc(n);
}
static void c_free(void *u, void *p)
{
    ((counting *)u)->live--;
    free(p);
}

static void test_allocator(void)
{
    topo t;
    counting c;
    ibcc_fabric *f = NULL;
    long k, failures = 0;
    topo_line(&t);
    c.live = 0; c.calls = 0; c.fail_at = -1;
    t.d.allocator.alloc = c_alloc;
    t.d.allocator.free = c_free;
    t.d.allocator.user = &c;
    t.d.horizon = IBCC_US(10);
    T_EQ(ibcc_fabric_create(&f, &t.d), IBCC_OK);
    T_CHECK(c.live > 5);
    T_EQ(ibcc_fabric_run_until(f, IBCC_US(10)), IBCC_OK);
    ibcc_fabric_destroy(f);
    T_EQ(c.live, 0);
    for (k = 0; k < 40; k++) {
        c.live = 0; c.calls = 0; c.fail_at = k;
        f = NULL;
        if (ibcc_fabric_create(&f, &t.d) == IBCC_ERR_NOMEM) {
            failures++;
            T_CHECK(f == NULL);
        } else {
            ibcc_fabric_destroy(f);
        }
        T_EQ(c.live, 0);
    }
    T_CHECK(failures >= 10);
    t.d.allocator.free = NULL;          /* half an allocator */
    T_EQ(ibcc_fabric_create(&f, &t.d), IBCC_ERR_NULL);
}

static void test_twoswitch_builder(void)
{
    ibcc_twoswitch *ts = (ibcc_twoswitch *)malloc(sizeof *ts);
    ibcc_fabric_desc d;
    ibcc_fabric *f = NULL;
    uint32_t c = 0;
    if (!ts) return;
    memset(&d, 0, sizeof d);
    T_EQ(ibcc_twoswitch_build(ts, 3, 2, &d), IBCC_OK);
    T_EQU(ts->node_count, 2u + 2u + 1u + 3u + 2u);
    T_EQU(ts->flow_count, 6);
    T_EQU(ts->flows[0].cls, IBCC_TS_LOCAL);
    T_EQU(ts->flows[3].cls, IBCC_TS_REMOTE);
    T_EQU(ts->flows[5].src, ts->av);
    T_EQU(ts->flows[5].dst, ts->bv);
    T_EQ(ibcc_fabric_create(&f, &d), IBCC_OK);
    if (f) {
        T_EQ(ibcc_fabric_channel(f, ts->sw_a, 3, &c), IBCC_OK);
        T_EQU(c, ts->isl_channel);
        T_EQ(ibcc_fabric_channel(f, ts->sw_b, 3, &c), IBCC_OK);
        T_EQU(c, ts->root_channel);
        T_EQ(ibcc_fabric_channel(f, ts->sw_b, 4, &c), IBCC_OK);
        T_EQU(c, ts->victim_channel);
        ibcc_fabric_destroy(f);
    }
    T_EQ(ibcc_twoswitch_build(ts, 0, 2, &d), IBCC_ERR_RANGE);
    T_EQ(ibcc_twoswitch_build(ts, 3, 65, &d), IBCC_ERR_RANGE);
    T_EQ(ibcc_twoswitch_build(NULL, 3, 2, &d), IBCC_ERR_NULL);
    free(ts);
}

int main(void)
{
    T_RUN(test_wire_times);
    T_RUN(test_defaults);
    T_RUN(test_cut_through_by_hand);
    T_RUN(test_streaming_and_fast_output);
    T_RUN(test_credit_blocking);
    T_RUN(test_marker_counts_crossing_tail);
    T_RUN(test_ack_lane_not_blocked);
    T_RUN(test_same_instant_arbitration);
    T_RUN(test_fixed_rate_and_cap);
    T_RUN(test_absorb_cap);
    T_RUN(test_iba_victim_mask);
    T_RUN(test_traffic_kinds);
    T_RUN(test_law_and_marking);
    T_RUN(test_cct_and_mvcm_agents);
    T_RUN(test_mvcm_reset_needs_nothing_outstanding);
    T_RUN(test_coalesced_acks);
    T_RUN(test_persistent_state);
    T_RUN(test_random_configs_conserve);
    T_RUN(test_stats);
    T_RUN(test_check_detects);
    T_RUN(test_bad_topology);
    T_RUN(test_allocator);
    T_RUN(test_twoswitch_builder);
    return t_summary();
}
