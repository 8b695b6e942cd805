/* PFC links (flow_control IBCC_FLOW_PFC, docs/fabric.md "PFC links"):
   the PAUSE decision at the exact instant an input goes above XOFF, the
   frame's way back (its wait behind the reverse link's frame, its bytes,
   the cable), the sender stopped on that priority only (a packet already
   started finishes), the pause ending at quanta x 512 bit times without
   a refresh, XON, no input ever above pfc.size (nothing dropped) under an
   incast that spreads pauses through a fat tree, DCQCN taking most of
   them away, the headroom refusal, and a credit loop found by the stall
   watchdog. */
#ifndef IBCC_TEST_LINKED   /* make test links one implementation object */
#define IBCC_IMPLEMENTATION
#endif
#include "ibcc.h"
#include "t.h"

/* A line: host A (node 0) -- switch S (node 2) -- host C (node 1), and
   with `extra` a host D (node 3) on S port 2. A's link (S port 0) at
   rate_a, C's (port 1) at rate_c, D's 1 GB/s. */
typedef struct line {
    ibcc_fabric_node nodes[4];
    ibcc_fabric_link links[3];
    ibcc_fabric_route routes[3];
    ibcc_fabric_flow flows[2];
    ibcc_fabric_desc d;
} line;

static void line_make(line *t, ibcc_rate rate_a, ibcc_rate rate_c, int extra)
{
    uint32_t i, nh = extra ? 3u : 2u;
    memset(t, 0, sizeof *t);
    t->nodes[0].kind = t->nodes[1].kind = IBCC_FABRIC_HOST;
    t->nodes[3].kind = IBCC_FABRIC_HOST;
    t->nodes[2].kind = IBCC_FABRIC_SWITCH;
    t->nodes[2].ports = 3;
    t->links[0].a = 0; t->links[0].b = 2; t->links[0].b_port = 0;
    t->links[0].rate = rate_a;
    t->links[1].a = 1; t->links[1].b = 2; t->links[1].b_port = 1;
    t->links[1].rate = rate_c;
    t->links[2].a = 3; t->links[2].b = 2; t->links[2].b_port = 2;
    for (i = 0; i < 3; i++) {
        t->routes[i].sw = 2;
        t->routes[i].dst = i == 2 ? 3u : i;
        t->routes[i].port = i;
    }
    if (!extra) {               /* port 2 unused: a switch of two ports */
        t->nodes[2].ports = 2;
    }
    t->d.nodes = t->nodes; t->d.node_count = extra ? 4u : 3u;
    t->d.links = t->links; t->d.link_count = nh;
    t->d.routes = t->routes; t->d.route_count = nh;
    t->d.flows = t->flows; t->d.flow_count = 1;
    t->flows[0].src = 0;
    t->flows[0].dst = 1;
    t->d.data_size = 1000;
    t->d.flow_control = IBCC_FLOW_PFC;
}

/* Observer: the data packets each channel started (start, end). */
#define OBS_MAX 4096u
typedef struct obs {
    uint32_t ch;
    uint32_t n;
    ibcc_time start[OBS_MAX], end[OBS_MAX];
    uint32_t rn;                 /* the reverse channel's packets (any) */
    uint32_t rch;
    ibcc_time rstart[OBS_MAX], rend[OBS_MAX];
} obs;

static void on_busy(void *user, uint32_t c, ibcc_time s, ibcc_time e,
                    const ibcc_fabric_pkt *p)
{
    obs *o = (obs *)user;
    if (c == o->ch && p->lane != 1u && o->n < OBS_MAX) {
        o->start[o->n] = s;
        o->end[o->n++] = e;
    }
    if (c == o->rch && o->rn < OBS_MAX) {
        o->rstart[o->rn] = s;
        o->rend[o->rn++] = e;
    }
}

static ibcc_fabric_pfc_stats port_stats(const ibcc_fabric *f, uint32_t node,
                                        uint32_t port, uint32_t vl)
{
    ibcc_fabric_pfc_stats s;
    memset(&s, 0, sizeof s);
    T_EQ(ibcc_fabric_pfc_stats_get(f, node, port, vl, &s), IBCC_OK);
    return s;
}

/* When the reverse channel's frame under way at t (if any) ends. */
static ibcc_time frame_after(const obs *o, ibcc_time t)
{
    uint32_t k;
    for (k = 0; k < o->rn; k++)
        if (o->rstart[k] <= t && o->rend[k] > t) return o->rend[k];
    return t;
}

/* A at 2 GB/s into C at 0.9 GB/s, 1000-byte packets: a packet is seen
   at S every 500 ns and leaves every 1111.112 ns (never at the same
   instant), so the input holds (k + 1) - (packets out) after the k-th
   arrival. The PAUSE goes at the first arrival that takes it above
   xoff 4500, exactly; A stops at the frame's arrival, finishing the
   packet it is sending; an XON comes once the input is down to xon. */
static void test_xoff_exact(void)
{
    line t;
    ibcc_fabric *f = NULL;
    obs *o = (obs *)calloc(1, sizeof *o);
    ibcc_fabric_pfc_stats s;
    ibcc_time w_a = 500000, w_c = 1111112, t0, tx, ta, tq, wf;
    uint32_t k, out = 0, occ = 0, i;
    if (!o) return;
    line_make(&t, IBCC_GBYTES(2), 900000000u, 0);
    t.d.pfc.xoff = 4500;
    t.d.pfc.xon = 2000;
    t.d.observer.link_busy = on_busy;
    t.d.observer.user = o;
    o->ch = 0;                          /* A -> S (link 0, channel 0) */
    o->rch = 1;                         /* S -> A */
    T_EQ(ibcc_fabric_create(&f, &t.d), IBCC_OK);
    if (!f) { free(o); return; }
    /* the expected crossing: visible at t0 + k w_a */
    t0 = IBCC_NS(5) + IBCC_NS(40);
    for (k = 0; ; k++) {
        ibcc_time tk = t0 + k * w_a;
        while (t0 + (ibcc_time)(out + 1u) * w_c < tk) out++;
        occ = k + 1u - out;
        if (occ * 1000u > 4500u) break;
    }
    tx = t0 + k * w_a;
    T_EQ(ibcc_fabric_run_until(f, tx - 1u), IBCC_OK);
    s = port_stats(f, 2, 0, 0);
    T_EQU(s.pause_sent, 0);
    T_CHECK(s.bytes <= 4500u);
    T_EQ(ibcc_fabric_run_until(f, tx), IBCC_OK);
    s = port_stats(f, 2, 0, 0);
    T_EQU(s.pause_sent, 1);
    T_EQU(s.bytes, occ * 1000u);
    T_EQU(s.peak, occ * 1000u);
    printf("pfc-xoff k=%u at_ps=%llu bytes=%u\n", k,
           (unsigned long long)tx, s.bytes);
    /* the frame: behind the ACK S is sending to A (if any), 64 bytes at
       2 GB/s, then 5 ns of cable */
    wf = 32000;
    ta = frame_after(o, tx) + wf + IBCC_NS(5);
    T_EQ(ibcc_fabric_run_until(f, ta - 1u), IBCC_OK);
    T_EQU(port_stats(f, 0, 0, 0).pause_received, 0);
    T_EQ(ibcc_fabric_run_until(f, ta), IBCC_OK);
    s = port_stats(f, 0, 0, 0);
    T_EQU(s.pause_received, 1);
    /* run on until the XON has come back; A sent nothing new in between,
       and the packet under way at ta finished */
    for (i = 1; i < 40000u; i++) {
        T_EQ(ibcc_fabric_run_until(f, ta + (ibcc_time)i * IBCC_NS(1)),
             IBCC_OK);
        if (port_stats(f, 0, 0, 0).xon_received) break;
    }
    s = port_stats(f, 0, 0, 0);
    T_EQU(s.xon_received, 1);
    T_EQU(s.pause_received, 1);
    T_EQU(port_stats(f, 2, 0, 0).xon_sent, 1);
    T_CHECK(port_stats(f, 2, 0, 0).bytes <= 2000u);
    {
        int under_way = 0;
        ibcc_time resume = 0;
        for (i = 0; i < o->n; i++) {
            if (o->start[i] < ta && o->end[i] > ta) under_way = 1;
            if (o->start[i] >= ta) { resume = o->start[i]; break; }
        }
        T_CHECK(under_way);
        T_CHECK(resume > ta);
        /* paused from ta to the XON's arrival: the start after ta is that
           arrival (A's transmitter was idle by then) */
        tq = s.paused;
        T_EQU(resume, ta + tq);
    }
    T_EQ(ibcc_fabric_run_until(f, IBCC_US(40)), IBCC_OK);
    T_EQ(ibcc_fabric_check(f), IBCC_OK);
    ibcc_fabric_destroy(f);
    free(o);
}

/* Without a refresh (pfc.refresh far away) and with XON only at empty
   (xon 1 byte), A's pause ends on its own after quanta x 512 bit times:
   100 quanta at 2 GB/s = 6400 bytes = 3.2 us after the frame arrived,
   and A's next packet starts exactly then. */
static void test_quanta_expiry(void)
{
    line t;
    ibcc_fabric *f = NULL;
    obs *o = (obs *)calloc(1, sizeof *o);
    ibcc_fabric_pfc_stats s;
    ibcc_time ta = 0, exp;
    uint32_t i;
    if (!o) return;
    line_make(&t, IBCC_GBYTES(2), 900000000u, 0);
    t.d.pfc.xoff = 4500;
    t.d.pfc.xon = 1;
    t.d.pfc.quanta = 100;
    t.d.pfc.refresh = IBCC_S(1);
    t.d.observer.link_busy = on_busy;
    t.d.observer.user = o;
    o->ch = 0;
    o->rch = 1;
    T_EQ(ibcc_fabric_create(&f, &t.d), IBCC_OK);
    if (!f) { free(o); return; }
    /* find the frame's arrival: step in 1 ns until A has it */
    for (i = 0; i < 20000u; i++) {
        ibcc_time at = (ibcc_time)i * IBCC_NS(1);
        T_EQ(ibcc_fabric_run_until(f, at), IBCC_OK);
        if (port_stats(f, 0, 0, 0).pause_received) { ta = at; break; }
    }
    T_CHECK(ta != 0);
    T_EQ(ibcc_fabric_run_until(f, ta + IBCC_US(5)), IBCC_OK);
    s = port_stats(f, 0, 0, 0);
    T_EQU(s.pause_received, 1);
    T_EQU(s.xon_received, 0);
    /* the arrival lies within the ns stepped to: the pause ends 3.2 us
       after it, and A starts then */
    exp = 0;
    for (i = 0; i < o->n; i++)
        if (o->start[i] >= ta - IBCC_NS(1)) { exp = o->start[i]; break; }
    T_CHECK(exp >= ta - IBCC_NS(1) + IBCC_NS(3200) && exp <= ta + IBCC_NS(3200));
    T_EQU(s.paused, IBCC_NS(3200));
    ibcc_fabric_destroy(f);
    free(o);
}

/* Two priorities on A's link: flow 0 (SL 0, VL 0) to C behind a 0.25
   GB/s link, flow 1 (SL 1, VL 1) to D at 1 GB/s. PFC pauses VL 0 of A's
   link; VL 1 goes on at the rest of A's 1 GB/s. With one VL the pause
   stops both flows alike (the slow flow's rate). */
static double two_prio(uint32_t vls, ibcc_fabric_pfc_stats *s0,
                       ibcc_fabric_pfc_stats *s1, double *slow)
{
    line t;
    ibcc_fabric *f = NULL;
    uint64_t b0 = 0, b1 = 0;
    line_make(&t, IBCC_GBYTES(1), 250000000u, 1);
    t.d.flow_count = 2;
    t.flows[1].src = 0;
    t.flows[1].dst = 3;
    t.flows[1].sl = 1;
    t.d.vls = vls;
    t.d.horizon = IBCC_MS(2);
    T_EQ(ibcc_fabric_create(&f, &t.d), IBCC_OK);
    if (!f) return 0;
    T_EQ(ibcc_fabric_run_until(f, IBCC_MS(2)), IBCC_OK);
    T_EQ(ibcc_fabric_check(f), IBCC_OK);
    T_EQ(ibcc_fabric_flow_bytes(f, 0, IBCC_MS(1), IBCC_MS(2), &b0), IBCC_OK);
    T_EQ(ibcc_fabric_flow_bytes(f, 1, IBCC_MS(1), IBCC_MS(2), &b1), IBCC_OK);
    *s0 = port_stats(f, 0, 0, 0);
    *s1 = port_stats(f, 0, 0, 1);
    ibcc_fabric_destroy(f);
    *slow = (double)b0 / 1e6;           /* GB/s over 1 ms */
    return (double)b1 / 1e6;
}

static void test_priorities(void)
{
    ibcc_fabric_pfc_stats a0, a1, b0, b1;
    double slow2, slow1;
    double fast2 = two_prio(2, &a0, &a1, &slow2);
    double fast1 = two_prio(1, &b0, &b1, &slow1);
    printf("pfc-priorities vls2_fast=%.3f vls2_slow=%.3f vl0_pauses=%llu "
           "vl1_pauses=%llu vls1_fast=%.3f vls1_slow=%.3f\n", fast2, slow2,
           (unsigned long long)a0.pause_received,
           (unsigned long long)a1.pause_received, fast1, slow1);
    T_CHECK(a0.pause_received > 0u);
    T_EQU(a1.pause_received, 0);
    T_EQU(a1.paused, 0);
    /* the slow flow has its link's 0.25 GB/s either way */
    T_NEAR(slow2, 0.25, 0.01);
    T_NEAR(slow1, 0.25, 0.01);
    /* two VLs: the other priority gets the rest of A's link */
    T_CHECK(fast2 > 0.70);
    /* one VL: the pauses hold it to about the slow flow's rate */
    T_CHECK(fast1 < 0.35);
}

/* An incast on a 4-ary 2-tree (16 hosts, 8 switches of 8 ports, 1 GB/s):
   the 12 hosts of leaves 1-3 send to host 0 (leaf 0). Without CC the
   hot input ports of leaf 0 pause the spines, whose inputs fill and
   pause leaves 1-3, which pause their hosts: pause frames at every
   stage upstream of the hot spot. With DCQCN (ECN at egress: Kmin 5 KB,
   Kmax 20 KB, Pmax 10%) the rates come down and the pauses mostly stop.
   No input is ever above pfc.size. */
typedef struct incast_r {
    uint64_t frames, leaf0, spines, leaves, warm;
    double paused_frac;
    uint32_t peak, size;
    double util;
} incast_r;

static incast_r incast(ibcc_agent agent)
{
    ibcc_topo topo;
    ibcc_fabric_desc d;
    ibcc_fabric_flow fl[12];
    ibcc_fabric *f = NULL;
    ibcc_fabric_pfc_totals tot;
    incast_r r;
    uint32_t i, p, sw;
    uint64_t b = 0;
    memset(&r, 0, sizeof r);
    memset(&d, 0, sizeof d);
    memset(fl, 0, sizeof fl);
    T_EQ(ibcc_topo_fattree(&topo, 4, 2, NULL), IBCC_OK);
    T_EQ(ibcc_topo_apply(&topo, &d), IBCC_OK);
    for (i = 0; i < 12; i++) {
        fl[i].src = 4u + i;
        fl[i].dst = 0;
        fl[i].agent = agent;
    }
    d.flows = fl;
    d.flow_count = 12;
    d.flow_control = IBCC_FLOW_PFC;
    d.pfc.xoff = 20000;
    d.pfc.xon = 10000;
    d.marker.engine = IBCC_MARKER_ECN;
    d.marker.ecn_kmin = 5000;
    d.marker.ecn_kmax = 20000;
    d.marker.ecn_pmax = 100000;
    d.dest.scheme = IBCC_DEST_IBA;
    d.dest.becn_by_cnp = 1;
    d.horizon = IBCC_MS(4);
    T_EQ(ibcc_fabric_create(&f, &d), IBCC_OK);
    if (!f) { ibcc_topo_free(&topo); return r; }
    for (i = 1; i <= 8; i++) {
        T_EQ(ibcc_fabric_run_until(f, IBCC_US(500) * i), IBCC_OK);
        T_EQ(ibcc_fabric_check(f), IBCC_OK);
        if (i == 4) {
            T_EQ(ibcc_fabric_pfc_totals_get(f, &tot), IBCC_OK);
            r.warm = tot.pause_frames;
        }
    }
    T_EQ(ibcc_fabric_pfc_totals_get(f, &tot), IBCC_OK);
    r.frames = tot.pause_frames;
    r.paused_frac = (double)tot.paused / ((double)tot.pairs
                                          * (double)IBCC_MS(4));
    r.peak = tot.peak;
    T_EQU(tot.overflows, 0);
    /* frames by where they were sent: leaf 0 (node 16), the spines
       (nodes 20-23), leaves 1-3 (nodes 17-19) */
    for (sw = 16; sw < 24; sw++)
        for (p = 0; p < (sw < 20 ? 8u : 4u); p++) {
            ibcc_fabric_pfc_stats s = port_stats(f, sw, p, 0);
            if (sw == 16) r.leaf0 += s.pause_sent;
            else if (sw >= 20) r.spines += s.pause_sent;
            else r.leaves += s.pause_sent;
        }
    T_EQ(ibcc_fabric_channel_bytes(f, 0, IBCC_MS(2), IBCC_MS(4), &b),
         IBCC_OK);
    {
        uint32_t c;
        T_EQ(ibcc_fabric_channel(f, 16, 0, &c), IBCC_OK);
        T_EQ(ibcc_fabric_channel_bytes(f, c, IBCC_MS(2), IBCC_MS(4), &b),
             IBCC_OK);
    }
    r.util = (double)b / 2e6;
    ibcc_fabric_destroy(f);
    ibcc_topo_free(&topo);
    return r;
}

static void test_incast(void)
{
    incast_r none = incast(IBCC_AGENT_NONE), dc = incast(IBCC_AGENT_DCQCN);
    /* two lines for tests/docnums.sh, which checks docs/pfc.md */
    printf("pfc-incast none_frames=%llu none_leaf0=%llu none_spines=%llu "
           "none_leaves=%llu none_last2=%llu none_paused=%.3f none_peak=%u "
           "none_util=%.3f\n",
           (unsigned long long)none.frames, (unsigned long long)none.leaf0,
           (unsigned long long)none.spines, (unsigned long long)none.leaves,
           (unsigned long long)(none.frames - none.warm), none.paused_frac,
           none.peak, none.util);
    printf("pfc-incast-dcqcn dc_frames=%llu dc_leaf0=%llu dc_spines=%llu "
           "dc_leaves=%llu dc_last2=%llu dc_paused=%.3f dc_peak=%u "
           "dc_util=%.3f\n",
           (unsigned long long)dc.frames, (unsigned long long)dc.leaf0,
           (unsigned long long)dc.spines, (unsigned long long)dc.leaves,
           (unsigned long long)(dc.frames - dc.warm), dc.paused_frac,
           dc.peak, dc.util);
    /* without CC: pauses at every stage upstream of the hot spot */
    T_CHECK(none.leaf0 > 0u);
    T_CHECK(none.spines > 0u);
    T_CHECK(none.leaves > 0u);
    T_CHECK(none.util > 0.99);
    /* with DCQCN: after the first 2 ms (the flows start at line rate)
       none or nearly none; the hot link still nearly full */
    T_CHECK(none.frames - none.warm > 100u);
    T_CHECK((dc.frames - dc.warm) * 20u < none.frames - none.warm);
    T_CHECK(dc.frames * 4u < none.frames);
    T_CHECK(dc.paused_frac * 5.0 < none.paused_frac);
    T_CHECK(dc.util > 0.85);
}

/* The headroom at work: 2 us cables (4000 bytes at 1 GB/s both ways)
   into a 0.25 GB/s output. After the crossing the input takes most of
   the headroom, never more: no input ever above pfc.size. */
static void test_headroom(void)
{
    line t;
    ibcc_fabric *f = NULL;
    ibcc_fabric_pfc_totals tot;
    ibcc_fabric_desc d;
    uint32_t i;
    line_make(&t, 0, 250000000u, 0);
    t.d.prop_delay = IBCC_US(2);
    t.d.pfc.xoff = 3000;
    t.d.pfc.xon = 1000;
    d = t.d;
    T_EQ(ibcc_fabric_defaults(&d), IBCC_OK);
    /* 4040 bytes of cable and forwarding, 3 packets, the frame */
    T_EQU(d.pfc.size, 3000u + 4040u + 3000u + 64u);
    T_EQ(ibcc_fabric_create(&f, &t.d), IBCC_OK);
    if (!f) return;
    for (i = 1; i <= 20; i++) {
        T_EQ(ibcc_fabric_run_until(f, IBCC_US(10) * i), IBCC_OK);
        T_EQ(ibcc_fabric_check(f), IBCC_OK);
    }
    T_EQ(ibcc_fabric_pfc_totals_get(f, &tot), IBCC_OK);
    printf("pfc-headroom size=%u peak=%u frames=%llu\n", d.pfc.size,
           tot.peak, (unsigned long long)tot.pause_frames);
    /* 4 packets when it crosses, 4 more during the round trip (4.04 us
       at 1 GB/s), 1 out at 0.25 GB/s meanwhile */
    T_CHECK(tot.peak >= 7000u);
    T_CHECK(tot.peak <= d.pfc.size);
    T_EQU(tot.overflows, 0);
    ibcc_fabric_destroy(f);
}

/* The headroom rule and the refusals. */
static void test_refusals(void)
{
    line t;
    ibcc_fabric *f = NULL;
    ibcc_fabric_error err;
    ibcc_fabric_desc d;
    /* 1 GB/s, 5 ns both ways, 40 ns forwarding: 50 bytes of cable and
       forwarding, 3 packets of 1000 bytes, a 64-byte frame: 3114 */
    line_make(&t, 0, 0, 0);
    t.d.pfc.xoff = 4000;
    t.d.pfc.size = 4000 + 3113;
    t.d.error = &err;
    T_EQ(ibcc_fabric_create(&f, &t.d), IBCC_ERR_RANGE);
    T_CHECK(f == NULL);
    T_CHECK(strstr(err.reason, "pfc.size 7113") != NULL);
    T_CHECK(strstr(err.reason, "3114 bytes") != NULL);
    t.d.pfc.size = 4000 + 3114;
    T_EQ(ibcc_fabric_create(&f, &t.d), IBCC_OK);
    ibcc_fabric_destroy(f);
    f = NULL;
    /* the default size is just that */
    d = t.d;
    d.pfc.size = 0;
    T_EQ(ibcc_fabric_defaults(&d), IBCC_OK);
    T_EQU(d.pfc.size, 7114);
    T_EQU(d.pfc.xon, 2000);
    T_EQU(d.buf_packets, (7114u + 3114u) / 64u + 1u);
    T_EQU(d.buf_credits, 2u * d.buf_packets);
    T_EQ(ibcc_fabric_defaults(&d), IBCC_OK);    /* idempotent */
    T_EQU(d.pfc.size, 7114);
    /* xon above xoff, quanta above 65535, a bad kind, too few slots */
    line_make(&t, 0, 0, 0);
    t.d.error = &err;
    t.d.pfc.xoff = 3000; t.d.pfc.xon = 3001;
    T_EQ(ibcc_fabric_create(&f, &t.d), IBCC_ERR_RANGE);
    T_CHECK(strstr(err.reason, "pfc.xon 3001") != NULL);
    line_make(&t, 0, 0, 0);
    t.d.error = &err;
    t.d.pfc.quanta = 65536;
    T_EQ(ibcc_fabric_create(&f, &t.d), IBCC_ERR_RANGE);
    line_make(&t, 0, 0, 0);
    t.d.error = &err;
    t.d.flow_control = (ibcc_flow_control)2;
    T_EQ(ibcc_fabric_create(&f, &t.d), IBCC_ERR_RANGE);
    T_CHECK(strstr(err.reason, "flow_control") != NULL);
    line_make(&t, 0, 0, 0);
    t.d.error = &err;
    t.d.buf_packets = 4;
    T_EQ(ibcc_fabric_create(&f, &t.d), IBCC_ERR_RANGE);
    T_CHECK(strstr(err.reason, "buf_packets 4") != NULL);
    /* Ethernet frames: no data packet under 64 bytes (the packet slots
       are counted in 64-byte frames) */
    line_make(&t, 0, 0, 0);
    t.d.error = &err;
    t.d.data_size = 63;
    T_EQ(ibcc_fabric_create(&f, &t.d), IBCC_ERR_RANGE);
    T_CHECK(strstr(err.reason, "data_size 63: PFC links carry frames of "
                   "at least 64 bytes") != NULL);
    line_make(&t, 0, 0, 0);
    t.d.error = &err;
    t.flows[0].size = 40;
    T_EQ(ibcc_fabric_create(&f, &t.d), IBCC_ERR_RANGE);
    T_CHECK(strstr(err.reason, "flows[0].size 40") != NULL);
    line_make(&t, 0, 0, 0);
    t.d.data_size = 64;
    T_EQ(ibcc_fabric_create(&f, &t.d), IBCC_OK);
    ibcc_fabric_destroy(f);
    f = NULL;
    /* hosts never pause: no capped hosts */
    line_make(&t, 0, 0, 0);
    t.d.error = &err;
    t.d.host_cap = IBCC_GBYTES(1);
    T_EQ(ibcc_fabric_create(&f, &t.d), IBCC_ERR_UNSUPPORTED);
    T_CHECK(strstr(err.reason, "host_cap") != NULL);
    /* wormhole switches run STOP/GO only */
    line_make(&t, 0, 0, 0);
    t.d.error = &err;
    t.d.switch_kind = IBCC_SWITCH_WORMHOLE;
    T_EQ(ibcc_fabric_create(&f, &t.d), IBCC_ERR_UNSUPPORTED);
    T_CHECK(strstr(err.reason, "cannot run PFC") != NULL);
    T_CHECK(f == NULL);
    /* counters of a credit fabric are zero; bad arguments */
    line_make(&t, 0, 0, 0);
    t.d.flow_control = IBCC_FLOW_CREDIT;
    T_EQ(ibcc_fabric_create(&f, &t.d), IBCC_OK);
    if (f) {
        ibcc_fabric_pfc_totals tot;
        ibcc_fabric_pfc_stats s;
        T_EQ(ibcc_fabric_run_until(f, IBCC_US(50)), IBCC_OK);
        T_EQ(ibcc_fabric_pfc_totals_get(f, &tot), IBCC_OK);
        T_EQU(tot.pause_frames + tot.pairs, 0);
        T_EQ(ibcc_fabric_pfc_stats_get(f, 2, 0, 0, &s), IBCC_OK);
        T_EQU(s.pause_sent + s.bytes, 0);
        T_EQ(ibcc_fabric_pfc_stats_get(f, 9, 0, 0, &s), IBCC_ERR_RANGE);
        T_EQ(ibcc_fabric_pfc_stats_get(f, 2, 5, 0, &s), IBCC_ERR_RANGE);
        T_EQ(ibcc_fabric_pfc_stats_get(f, 2, 0, 16, &s), IBCC_ERR_RANGE);
        T_EQ(ibcc_fabric_pfc_stats_get(f, 2, 0, 0, NULL), IBCC_ERR_NULL);
        T_EQ(ibcc_fabric_pfc_totals_get(NULL, &tot), IBCC_ERR_NULL);
        ibcc_fabric_destroy(f);
    }
}

/* CIOQ switches carry PFC too: the line with its slow output. */
static void test_cioq(void)
{
    line t;
    ibcc_fabric *f = NULL;
    ibcc_fabric_pfc_totals tot;
    uint32_t i;
    line_make(&t, IBCC_GBYTES(2), 900000000u, 0);
    t.d.switch_kind = IBCC_SWITCH_CIOQ;
    t.d.out_buf_packets = 4;
    T_EQ(ibcc_fabric_create(&f, &t.d), IBCC_OK);
    if (!f) return;
    for (i = 1; i <= 10; i++) {
        T_EQ(ibcc_fabric_run_until(f, IBCC_US(20) * i), IBCC_OK);
        T_EQ(ibcc_fabric_check(f), IBCC_OK);
    }
    T_EQ(ibcc_fabric_pfc_totals_get(f, &tot), IBCC_OK);
    T_CHECK(tot.pause_frames > 0u);
    T_CHECK(tot.xon_frames > 0u);
    T_CHECK(tot.peak <= t.d.pfc.size || t.d.pfc.size == 0);
    T_EQU(tot.overflows, 0);
    ibcc_fabric_destroy(f);
}

/* A credit loop under PFC: four switches in a ring, each host sending
   two hops clockwise; the pauses close the loop and the stall watchdog
   names the blocked channels (ibcc_fabric_credit_loops finds the cycle
   in the routes whatever the flow control). */
static void loop_run(ibcc_time start, uint32_t nflows)
{
    ibcc_fabric_node nodes[8];
    ibcc_fabric_link links[8];
    ibcc_fabric_route routes[16];
    ibcc_fabric_flow fl[4];
    ibcc_fabric_desc d;
    ibcc_fabric *f = NULL;
    const ibcc_fabric_error *le;
    uint32_t i, j, nr = 0;
    ibcc_result r = IBCC_OK;
    memset(nodes, 0, sizeof nodes);
    memset(links, 0, sizeof links);
    memset(fl, 0, sizeof fl);
    memset(&d, 0, sizeof d);
    /* hosts 0-3 on switches 4-7 port 0; ring: switch 4+i port 1 -> switch
       4+(i+1)%4 port 2 */
    for (i = 0; i < 4; i++) {
        nodes[i].kind = IBCC_FABRIC_HOST;
        nodes[4 + i].kind = IBCC_FABRIC_SWITCH;
        nodes[4 + i].ports = 3;
        links[i].a = i; links[i].b = 4 + i; links[i].b_port = 0;
        links[4 + i].a = 4 + i; links[4 + i].a_port = 1;
        links[4 + i].b = 4 + (i + 1) % 4; links[4 + i].b_port = 2;
    }
    /* clockwise routes to every host */
    for (j = 0; j < 4; j++)
        for (i = 0; i < 4; i++) {
            routes[nr].sw = 4 + i;
            routes[nr].dst = j;
            routes[nr].port = i == j ? 0u : 1u;
            nr++;
        }
    for (i = 0; i < 4; i++) {
        fl[i].src = i;
        fl[i].dst = (i + 2) % 4;
        fl[i].start = start;
    }
    d.nodes = nodes; d.node_count = 8;
    d.links = links; d.link_count = 8;
    d.routes = routes; d.route_count = nr;
    d.flows = fl; d.flow_count = nflows;
    d.flow_control = IBCC_FLOW_PFC;
    d.stall = IBCC_US(100);
    T_EQ(ibcc_fabric_create(&f, &d), IBCC_OK);
    if (!f) return;
    if (nflows == 0) {
        /* idle to the end of time: one look, not 2^63 ps / 100 us */
        T_EQ(ibcc_fabric_run_until(f, IBCC_FABRIC_MAX_TIME), IBCC_OK);
        T_EQU(ibcc_fabric_now(f), IBCC_FABRIC_MAX_TIME);
        T_EQ(ibcc_fabric_check(f), IBCC_OK);
        ibcc_fabric_destroy(f);
        return;
    }
    if (start == 0) {
        for (i = 1; i <= 50 && r == IBCC_OK; i++)
            r = ibcc_fabric_run_until(f, IBCC_US(100) * i);
    } else {
        r = ibcc_fabric_run_until(f, start + IBCC_S(1));
    }
    le = ibcc_fabric_last_error(f);
    T_EQ(r, IBCC_ERR_STATE);
    T_CHECK(strstr(le->reason, "stalled") != NULL);
    T_CHECK(strstr(le->reason, "4 blocked: 4:1->5:2 vl0, 5:1->6:2 vl0, "
                   "6:1->7:2 vl0, 7:1->4:2 vl0") != NULL);
    /* found within a stall period of the stop, after the start */
    T_CHECK(ibcc_fabric_now(f) > start
            && ibcc_fabric_now(f) < start + IBCC_MS(5));
    T_EQ(ibcc_fabric_check(f), IBCC_OK);
    ibcc_fabric_destroy(f);
}

static void test_loop(void) { loop_run(0, 4); }

/* The watchdog across a long idle stretch: the same loop's flows start
   after an hour of nothing and the stall is still caught within a few
   stall periods of the traffic; with no flows a run to the end of time
   ends (it once looked every 100 us of it: a minute of CPU). */
static void test_loop_after_idle(void)
{
    loop_run(IBCC_S(3600), 4);
    loop_run(0, 0);
}

int main(void)
{
    T_RUN(test_xoff_exact);
    T_RUN(test_quanta_expiry);
    T_RUN(test_priorities);
    T_RUN(test_incast);
    T_RUN(test_headroom);
    T_RUN(test_refusals);
    T_RUN(test_cioq);
    T_RUN(test_loop);
    T_RUN(test_loop_after_idle);
    return t_summary();
}
