/* Unit tests of the fabric's WORMHOLE switch kind (section 10 of the
   fabric): exact byte timing of a worm through one switch, STOP/GO
   holding a blocked worm within the slack buffer, round robin per worm
   turning segment length into bandwidth [K], the shapes [K] reports on
   the two-host case, up/down routing on a torus without deadlock, byte
   conservation at every step, determinism, and refused configurations.
   Links 80 MB/s (12.5 ns per byte), 125 ns propagation (10 byte times),
   slack 80 bytes: STOP at 60, GO at 20. */
#ifndef IBCC_TEST_LINKED   /* make test links one implementation object */
#define IBCC_IMPLEMENTATION
#endif
#include "ibcc.h"
#include "t.h"
#include <stdlib.h>

#define RATE 80000000u
#define TAU  12500u             /* ps per byte */

typedef struct star {
    ibcc_fabric_node nodes[5];
    ibcc_fabric_link links[4];
    ibcc_fabric_route routes[4];
    ibcc_fabric_flow flows[3];
    ibcc_fabric_desc d;
} star;

/* One switch (node 0, 4 ports) with hosts 1..4 on ports 0..3. */
static void star_init(star *s)
{
    uint32_t i;
    memset(s, 0, sizeof *s);
    s->nodes[0].kind = IBCC_FABRIC_SWITCH;
    s->nodes[0].ports = 4;
    for (i = 0; i < 4; i++) {
        s->nodes[i + 1].kind = IBCC_FABRIC_HOST;
        s->links[i].a = i + 1;
        s->links[i].b = 0;
        s->links[i].b_port = i;
        s->routes[i].sw = 0;
        s->routes[i].dst = i + 1;
        s->routes[i].port = i;
    }
    s->d.nodes = s->nodes; s->d.node_count = 5;
    s->d.links = s->links; s->d.link_count = 4;
    s->d.routes = s->routes; s->d.route_count = 4;
    s->d.flows = s->flows;
    s->d.switch_kind = IBCC_SWITCH_WORMHOLE;
    s->d.link_rate = RATE;
    s->d.prop_delay = IBCC_NS(125);
    s->d.fwd_zero = 1;
}

typedef struct seen {
    ibcc_time t[8], gen[8], head[8], inject[8];
    uint32_t size[8], n;
} seen;

static void on_delivered(void *user, const ibcc_fabric_pkt *p)
{
    seen *s = (seen *)user;
    if (s->n < 8) {
        s->t[s->n] = p->t;
        s->gen[s->n] = p->t_gen;
        s->head[s->n] = p->t_head;
        s->inject[s->n] = p->t_inject;
        s->size[s->n] = p->size;
        s->n++;
    }
}

/* One 1000-byte worm H1 -> H3: its last byte is in after 1000 byte times
   plus two propagation delays (cut-through, zero routing delay); with a
   routing delay of 8 byte times it is 8 byte times later. */
static void test_one_worm_timing(void)
{
    ibcc_time fwd[2] = {0, 8u * TAU};
    int k;
    for (k = 0; k < 2; k++) {
        star s;
        seen sn;
        ibcc_fabric *f;
        star_init(&s);
        memset(&sn, 0, sizeof sn);
        s.flows[0].src = 1; s.flows[0].dst = 3;
        s.flows[0].msg_bytes = 1000;
        s.flows[0].packets = 1;         /* one message */
        s.flows[0].prio = 1;            /* whole */
        s.d.flow_count = 1;
        s.d.fwd_delay = fwd[k];
        s.d.fwd_zero = k == 0;
        s.d.observer.delivered = on_delivered;
        s.d.observer.user = &sn;
        T_EQ(ibcc_fabric_create(&f, &s.d), IBCC_OK);
        T_EQ(ibcc_fabric_run_until(f, IBCC_US(100)), IBCC_OK);
        T_EQ(ibcc_fabric_check(f), IBCC_OK);
        T_EQU(sn.n, 1);
        T_EQU(sn.size[0], 1000);
        T_EQU(sn.t[0], 1000u * TAU + 2u * IBCC_NS(125) + fwd[k]);
        /* [K]'s delay: it left its host at 0, its head is in after the
           two propagation delays and the routing delay, 1000 byte times
           before its last byte */
        T_EQU(sn.inject[0], 0);
        T_EQU(sn.head[0], 2u * IBCC_NS(125) + fwd[k]);
        T_EQU(sn.t[0] - sn.head[0], 1000u * TAU);
        ibcc_fabric_destroy(f);
    }
}

/* Low-priority messages are cut by the segment rule: 250 bytes at
   L_l = 100 -> 100, 100, 50; adaptive B*h with h = 1 switch -> 80, 80,
   80, 10. */
static void test_segments(void)
{
    int k;
    for (k = 0; k < 2; k++) {
        star s;
        seen sn;
        ibcc_fabric *f;
        ibcc_fabric_flow_stats st;
        memset(&st, 0, sizeof st);
        star_init(&s);
        memset(&sn, 0, sizeof sn);
        s.flows[0].src = 1; s.flows[0].dst = 2;
        s.flows[0].msg_bytes = 250;
        s.flows[0].packets = k ? 4 : 3;
        s.d.flow_count = 1;
        s.d.segment.adaptive = (unsigned)k;
        s.d.observer.delivered = on_delivered;
        s.d.observer.user = &sn;
        T_EQ(ibcc_fabric_create(&f, &s.d), IBCC_OK);
        T_EQ(ibcc_fabric_run_until(f, IBCC_US(100)), IBCC_OK);
        T_EQ(ibcc_fabric_flow_stats_get(f, 0, &st), IBCC_OK);
        T_EQU(st.msgs, 1);
        T_EQU(st.delivered_bytes, 250);
        if (k == 0) {
            T_EQU(sn.n, 3);
            T_EQU(sn.size[0], 100); T_EQU(sn.size[1], 100);
            T_EQU(sn.size[2], 50);
        } else {
            T_EQU(sn.n, 4);
            T_EQU(sn.size[0], 80); T_EQU(sn.size[3], 10);
        }
        /* back to back: 250 bytes, two propagation delays */
        T_EQU(sn.t[sn.n - 1], 250u * TAU + 2u * IBCC_NS(125));
        /* [K]'s delay of the message: the first segment left the host at
           0, the last one (from byte 200, or 240 adaptive) has its head
           in two propagation delays after it left */
        T_EQU(sn.inject[0], 0);
        T_EQU(sn.inject[sn.n - 1], (k ? 240u : 200u) * TAU);
        T_EQU(sn.head[sn.n - 1], (k ? 240u : 200u) * TAU + 2u * IBCC_NS(125));
        ibcc_fabric_destroy(f);
    }
}

/* A worm blocked at the switch stops upstream within the slack buffer:
   H1 sends 1000 bytes to H3 while H2's 2000-byte worm holds port 2 (H2
   started first). H1's worm waits; check() (slack never above 80, bytes
   conserved on every wire and buffer) holds at every byte time, and H1's
   worm arrives right after H2's (round robin: the output is free once
   H2's tail has been sent). */
static void test_stop_go(void)
{
    star s;
    seen sn;
    ibcc_fabric *f;
    ibcc_time t;
    int bad = 0;
    star_init(&s);
    memset(&sn, 0, sizeof sn);
    s.flows[0].src = 2; s.flows[0].dst = 3; s.flows[0].msg_bytes = 2000;
    s.flows[0].packets = 1; s.flows[0].prio = 1;
    s.flows[1].src = 1; s.flows[1].dst = 3; s.flows[1].msg_bytes = 1000;
    s.flows[1].packets = 1; s.flows[1].prio = 1;
    s.flows[1].start = 100u * TAU;
    s.d.flow_count = 2;
    s.d.observer.delivered = on_delivered;
    s.d.observer.user = &sn;
    T_EQ(ibcc_fabric_create(&f, &s.d), IBCC_OK);
    for (t = TAU; t <= 3200u * TAU; t += TAU) {
        if (ibcc_fabric_run_until(f, t) != IBCC_OK
            || ibcc_fabric_check(f) != IBCC_OK) {
            bad = 1;
            break;
        }
    }
    T_CHECK(!bad);
    T_EQU(sn.n, 2);
    T_EQU(sn.size[0], 2000);
    T_EQU(sn.t[0], 2000u * TAU + 2u * IBCC_NS(125));
    /* H1's first 80 bytes waited in the slack buffer (STOP at 60 + a
       round trip of 20), the rest at H1; once the output is free the
       buffered bytes flow at once and GO brings the rest in time: its
       tail leaves the switch 1000 byte times after H2's */
    T_EQU(sn.t[1], sn.t[0] + 1000u * TAU);
    /* H1's head reaches H3 as H2's tail does: the output passes to it
       the instant H2's last byte leaves */
    T_EQU(sn.head[1], sn.t[0]);
    T_EQU(sn.inject[1], 100u * TAU);
    {   /* the destination's link carried both worms, byte for byte */
        uint32_t c;
        uint64_t bytes = 0;
        ibcc_time busy = 0;
        T_EQ(ibcc_fabric_channel(f, 0, 2, &c), IBCC_OK);
        T_EQ(ibcc_fabric_channel_totals(f, c, &bytes, &busy), IBCC_OK);
        T_EQU(bytes, 3000);
        T_EQU(busy, 3000u * TAU);
    }
    ibcc_fabric_destroy(f);
}

/* A worm enters the network when its first byte leaves its host ([K]
   section 2), not when the host takes it while a STOP is in force: H2's
   2000-byte worm holds the port to H3 from time 0; H1's low message of
   two 80-byte segments starts at byte time 100, and its first segment
   fills the slack buffer (STOP at 60, reaching H1 at 180 as the segment's
   last byte leaves); a 50-byte high-priority message arrives at H1 at 150
   and is taken at 180, under STOP. H2's tail leaves the switch at 2010,
   the segment drains and the buffer reaches GO (20) at 2070, which
   reaches H1 at 2080: the high worm's first byte leaves then, its head
   is at H3 20 byte times later ([K]'s delay 20 byte times, not 1920). */
static void test_enter_after_go(void)
{
    star s;
    seen sn;
    ibcc_fabric *f;
    uint32_t i, hi = 8;
    star_init(&s);
    memset(&sn, 0, sizeof sn);
    s.flows[0].src = 2; s.flows[0].dst = 3; s.flows[0].msg_bytes = 2000;
    s.flows[0].packets = 1; s.flows[0].prio = 1;
    s.flows[1].src = 1; s.flows[1].dst = 3; s.flows[1].msg_bytes = 160;
    s.flows[1].packets = 2; s.flows[1].start = 100u * TAU;
    s.flows[2].src = 1; s.flows[2].dst = 3; s.flows[2].msg_bytes = 50;
    s.flows[2].packets = 1; s.flows[2].prio = 1; s.flows[2].start = 150u * TAU;
    s.d.flow_count = 3;
    s.d.segment.seg_bytes = 80;
    s.d.observer.delivered = on_delivered;
    s.d.observer.user = &sn;
    T_EQ(ibcc_fabric_create(&f, &s.d), IBCC_OK);
    T_EQ(ibcc_fabric_run_until(f, IBCC_US(100)), IBCC_OK);
    T_EQ(ibcc_fabric_check(f), IBCC_OK);
    T_EQU(sn.n, 4);
    for (i = 0; i < sn.n; i++) if (sn.size[i] == 50) hi = i;
    T_CHECK(hi < sn.n);
    if (hi < sn.n) {
        T_EQU(sn.inject[hi], 2080u * TAU);
        T_EQU(sn.head[hi], 2100u * TAU);
    }
    T_EQU(sn.size[1], 80);              /* the first segment, after H2 */
    T_EQU(sn.inject[1], 100u * TAU);
    T_EQU(sn.head[1], 2020u * TAU);
    ibcc_fabric_destroy(f);
}

/* Runs the two-host case of [K]: H1 high priority unsegmented, H2 low
   priority in seg-byte segments, both at `load` to H3, for 200 ms;
   accepted per class as a fraction of the link; mean message delay of
   the high class (us). */
static void twohost(double load, uint32_t seg, uint64_t seed, double acc[2],
                    double *dhigh, ibcc_fabric_counters *cnt)
{
    star s;
    ibcc_fabric *f;
    ibcc_fabric_class_stats cs;
    int i, bad = 0;
    memset(&cs, 0, sizeof cs);
    star_init(&s);
    for (i = 0; i < 2; i++) {
        s.flows[i].src = (uint32_t)i + 1u;
        s.flows[i].dst = 3;
        s.flows[i].traffic = IBCC_TRAFFIC_POISSON;
        s.flows[i].offered = (ibcc_rate)(load * RATE);
        s.flows[i].msg_bytes = 1000;
        s.flows[i].msg_exp = 1;
        s.flows[i].prio = i == 0;
        s.flows[i].cls = i == 0;
    }
    s.d.flow_count = 2;
    s.d.segment.seg_bytes = seg;
    s.d.seed = seed;
    T_EQ(ibcc_fabric_create(&f, &s.d), IBCC_OK);
    for (i = 1; i <= 20; i++)
        if (ibcc_fabric_run_until(f, IBCC_MS(10) * (ibcc_time)i) != IBCC_OK
            || ibcc_fabric_check(f) != IBCC_OK)
            bad = 1;
    T_CHECK(!bad);
    for (i = 0; i < 2; i++) {
        T_EQ(ibcc_fabric_class_stats_get(f, (uint32_t)(1 - i), &cs), IBCC_OK);
        acc[i] = (double)cs.delivered_bytes / 0.2 / RATE;
        if (i == 0) *dhigh = cs.msgs ? (double)cs.msg_time_sum / cs.msgs / 1e6 : 0;
    }
    if (cnt) T_EQ(ibcc_fabric_counters_get(f, cnt), IBCC_OK);
    ibcc_fabric_destroy(f);
}

/* [K]'s must-show shapes on the two-host case.
   - Below saturation (0.3 per host, 0.6 in all) both classes get what
     they offer: 200 ms at 0.3 is ~4800 messages per class; the delivered
     bytes of a Poisson stream of exponential messages have a relative
     standard deviation of sqrt(2/4800) = 2%, so 8% is four sigma.
   - Above saturation (1.0 per host) the link is full (within 2%) and
     round robin per worm gives each class a share in proportion to its
     mean worm length: 1000 : 100, so high takes 1000/1100 = 0.91; we
     require high above 0.85 and low below 0.15.
   - High-priority delay grows with the low-priority segment length at
     a load both classes get (0.45 per host): the mean over ~7000
     messages moves by several microseconds between 10-byte and 500-byte
     segments (each low segment in the way costs up to L bytes); we
     require 10 < 100 < 500 with 1 us between each. */
static void test_twohost_shapes(void)
{
    double acc[2], d10, d100, d500;
    twohost(0.3, 100, 1, acc, &d10, NULL);
    T_NEAR(acc[0], 0.3, 0.3 * 0.08);
    T_NEAR(acc[1], 0.3, 0.3 * 0.08);
    twohost(1.0, 100, 1, acc, &d10, NULL);
    T_NEAR(acc[0] + acc[1], 1.0, 0.02);
    T_CHECK(acc[0] > 0.85);
    T_CHECK(acc[1] < 0.15);
    twohost(0.45, 10, 2, acc, &d10, NULL);
    twohost(0.45, 100, 2, acc, &d100, NULL);
    twohost(0.45, 500, 2, acc, &d500, NULL);
    T_CHECK(d10 + 1.0 < d100);
    T_CHECK(d100 + 1.0 < d500);
}

/* The same seed gives the same counters and statistics; another seed
   different ones. */
static void test_determinism(void)
{
    double a1[2], a2[2], a3[2], d1, d2, d3;
    ibcc_fabric_counters c1, c2, c3;
    twohost(0.6, 100, 7, a1, &d1, &c1);
    twohost(0.6, 100, 7, a2, &d2, &c2);
    twohost(0.6, 100, 8, a3, &d3, &c3);
    T_CHECK(memcmp(&c1, &c2, sizeof c1) == 0);
    T_CHECK(a1[0] == a2[0] && a1[1] == a2[1] && d1 == d2);
    T_CHECK(c1.events != c3.events);
}

/* A 3x3 torus with 4 hosts per switch and up/down routes from switch 0:
   uniform traffic at 0.15 per host (30% high priority), 100-byte
   segments, 100 ms. Up/down routes cannot deadlock; the run must keep
   delivering (every 10 ms window at least 90% of what is offered in
   10 ms: ~5800 messages, so a Poisson shortfall of 10% is over six
   standard deviations), keep bytes conserved, and end with under 2 ms
   of offered traffic in flight. */
static void test_torus_no_deadlock(void)
{
    ibcc_topo topo;
    ibcc_fabric_desc d;
    ibcc_fabric_flow *fl;
    ibcc_fabric *f;
    ibcc_fabric_counters c;
    uint32_t hosts[36], n = 0, i, j;
    uint64_t last = 0;
    int bad = 0, stalled = 0;
    memset(&topo, 0, sizeof topo);
    memset(&d, 0, sizeof d);
    T_EQ(ibcc_topo_mesh(&topo, 3, 3, 4, 1, 0, NULL), IBCC_OK);
    T_EQ(ibcc_topo_apply(&topo, &d), IBCC_OK);
    for (i = 0; i < 36; i++) hosts[i] = i;
    fl = (ibcc_fabric_flow *)calloc(2u * 36u * 35u, sizeof *fl);
    T_CHECK(fl != NULL);
    if (!fl) return;
    for (i = 0; i < 36; i++)
        for (j = 0; j < 36; j++) {
            uint32_t p;
            if (i == j) continue;
            for (p = 0; p < 2; p++) {
                fl[n].src = hosts[i];
                fl[n].dst = hosts[j];
                fl[n].traffic = IBCC_TRAFFIC_POISSON;
                fl[n].offered = (ibcc_rate)(0.15 * (p ? 0.3 : 0.7) * RATE / 35);
                fl[n].msg_bytes = 1000;
                fl[n].msg_exp = 1;
                fl[n].prio = p;
                fl[n].cls = p;
                n++;
            }
        }
    d.flows = fl;
    d.flow_count = n;
    d.switch_kind = IBCC_SWITCH_WORMHOLE;
    d.link_rate = RATE;
    d.prop_delay = IBCC_NS(125);
    d.fwd_zero = 1;
    d.seed = 3;
    T_EQ(ibcc_fabric_create(&f, &d), IBCC_OK);
    for (i = 1; i <= 10; i++) {
        uint64_t now;
        if (ibcc_fabric_run_until(f, IBCC_MS(10) * i) != IBCC_OK
            || ibcc_fabric_check(f) != IBCC_OK) {
            bad = 1;
            break;
        }
        ibcc_fabric_counters_get(f, &c);
        now = c.bytes_delivered;
        if (i > 1 && (double)(now - last) < 0.9 * 0.15 * RATE * 0.01 * 36)
            stalled = 1;
        last = now;
    }
    T_CHECK(!bad);
    T_CHECK(!stalled);
    ibcc_fabric_counters_get(f, &c);
    /* under 2 ms of offered traffic left in flight */
    T_CHECK((double)c.bytes_in_network < 0.15 * RATE * 0.002 * 36);
    ibcc_fabric_destroy(f);
    ibcc_topo_free(&topo);
    free(fl);
}

/* Configurations a wormhole fabric refuses. */
static void test_refused(void)
{
    star s;
    ibcc_fabric *f;
    star_init(&s);
    s.flows[0].src = 1; s.flows[0].dst = 2;
    s.d.flow_count = 1;
    T_EQ(ibcc_fabric_create(&f, &s.d), IBCC_OK);
    ibcc_fabric_destroy(f);
    s.d.link_rate = 3000000u;            /* 333 333.3 ps per byte */
    T_EQ(ibcc_fabric_create(&f, &s.d), IBCC_ERR_RANGE);
    T_CHECK(f == NULL);
    star_init(&s);
    s.flows[0].src = 1; s.flows[0].dst = 2;
    s.d.flow_count = 1;
    s.d.slack_bytes = 20;                /* a round trip is 20 bytes */
    T_EQ(ibcc_fabric_create(&f, &s.d), IBCC_ERR_RANGE);
    s.d.slack_bytes = 80;
    s.d.stop_mark = 70;                  /* 70 + 20 > 80 */
    T_EQ(ibcc_fabric_create(&f, &s.d), IBCC_ERR_RANGE);
    s.d.stop_mark = 60;
    s.d.go_mark = 60;                    /* GO must be below STOP */
    T_EQ(ibcc_fabric_create(&f, &s.d), IBCC_ERR_RANGE);
    s.d.go_mark = 0;
    s.flows[0].agent = IBCC_AGENT_LAW;   /* no ACKs in a wormhole fabric */
    T_EQ(ibcc_fabric_create(&f, &s.d), IBCC_ERR_UNSUPPORTED);
    s.flows[0].agent = IBCC_AGENT_NONE;
    s.flows[0].window = 2;
    T_EQ(ibcc_fabric_create(&f, &s.d), IBCC_ERR_UNSUPPORTED);
    s.flows[0].window = 0;
    s.d.marker.engine = IBCC_MARKER_INPUT;
    T_EQ(ibcc_fabric_create(&f, &s.d), IBCC_ERR_UNSUPPORTED);
    s.d.marker.engine = IBCC_MARKER_NONE;
    s.links[1].rate = RATE * 2u;          /* one rate for every link */
    T_EQ(ibcc_fabric_create(&f, &s.d), IBCC_ERR_UNSUPPORTED);
    s.links[1].rate = 0;
    s.flows[0].prio = 2;
    T_EQ(ibcc_fabric_create(&f, &s.d), IBCC_ERR_RANGE);
    s.flows[0].prio = 0;
    s.flows[0].msg_exp = 1;              /* needs a mean length */
    T_EQ(ibcc_fabric_create(&f, &s.d), IBCC_ERR_RANGE);
    /* priorities mean nothing without wormhole switches */
    star_init(&s);
    s.d.switch_kind = IBCC_SWITCH_VCT;
    s.flows[0].src = 1; s.flows[0].dst = 2; s.flows[0].prio = 1;
    s.d.flow_count = 1;
    T_EQ(ibcc_fabric_create(&f, &s.d), IBCC_ERR_UNSUPPORTED);
    /* one wormhole switch among VCT ones */
    s.flows[0].prio = 0;
    s.nodes[0].switch_kind = IBCC_SWITCH_WORMHOLE;
    s.d.switch_kind = IBCC_SWITCH_VCT;
    T_EQ(ibcc_fabric_create(&f, &s.d), IBCC_OK);   /* the only switch */
    ibcc_fabric_destroy(f);
}

int main(void)
{
    T_RUN(test_one_worm_timing);
    T_RUN(test_segments);
    T_RUN(test_stop_go);
    T_RUN(test_enter_after_go);
    T_RUN(test_twohost_shapes);
    T_RUN(test_determinism);
    T_RUN(test_torus_no_deadlock);
    T_RUN(test_refused);
    return t_summary();
}
