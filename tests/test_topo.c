/* Tests of the topology builders: sizes and port numbering, every host
   reaching every other host over the static routes, up/down legality (no
   descent followed by a climb: deadlock-free), hop counts against the
   topology (k-ary n-tree: 2L + 2 links for a lowest common stage L; n-fly:
   the shortest up/down path found by a separate breadth-first search),
   the routes pinned to those of the builder-only router that the shared
   up/down router replaced, allocator failures, and a fabric run on each. */
#ifndef IBCC_TEST_LINKED   /* make test links one implementation object */
#define IBCC_IMPLEMENTATION
#endif
#include "ibcc.h"
#include "t.h"
#include <stdlib.h>

/* Output port of switch sw toward host dst, from the route list. */
static uint32_t route_of(const ibcc_topo *t, uint32_t sw, uint32_t dst)
{
    uint32_t i;
    for (i = 0; i < t->route_count; i++)
        if (t->routes[i].sw == sw && t->routes[i].dst == dst)
            return t->routes[i].port;
    return UINT32_MAX;
}

/* Node on the other end of (node, port), or UINT32_MAX. */
static uint32_t peer(const ibcc_topo *t, uint32_t node, uint32_t port)
{
    uint32_t i;
    for (i = 0; i < t->link_count; i++) {
        const ibcc_fabric_link *k = &t->links[i];
        if (k->a == node && k->a_port == port) return k->b;
        if (k->b == node && k->b_port == port) return k->a;
    }
    return UINT32_MAX;
}

static int up(const ibcc_topo *t, uint32_t a, uint32_t b)
{
    if (t->rank[b] != t->rank[a]) return t->rank[b] > t->rank[a];
    return b < a;
}

/* Walks src -> dst: returns the links crossed, 0 on a missing route, a
   loop or an illegal turn (*bad set). */
static uint32_t walk(const ibcc_topo *t, uint32_t src, uint32_t dst, int *bad)
{
    uint32_t node = peer(t, src, 0), prev = src, links = 1;
    int descended = 0;
    while (node != dst) {
        uint32_t port, next;
        if (node == UINT32_MAX || node < t->host_count
            || links > t->node_count) { *bad = 1; return 0; }
        port = route_of(t, node, dst);
        if (port == UINT32_MAX) { *bad = 1; return 0; }
        next = peer(t, node, port);
        if (next == UINT32_MAX) { *bad = 1; return 0; }
        if (next >= t->host_count) {
            if (up(t, node, next)) {
                if (descended) { *bad = 2; return 0; }  /* down then up */
            } else {
                descended = 1;
            }
        }
        (void)prev;
        prev = node;
        node = next;
        links++;
    }
    return links;
}

/* Shortest legal up/down path length src -> dst by breadth-first search
   over (node, descended) states: an independent reference. */
static uint32_t shortest(const ibcc_topo *t, uint32_t src, uint32_t dst)
{
    uint32_t nn = t->node_count, *dist, *q, qh = 0, qt = 0, res = 0;
    dist = (uint32_t *)malloc(2u * nn * sizeof *dist);
    q = (uint32_t *)malloc(2u * nn * sizeof *q);
    if (!dist || !q) { free(dist); free(q); return 0; }
    memset(dist, 0xff, 2u * nn * sizeof *dist);
    dist[2u * src] = 0;
    q[qt++] = 2u * src;
    while (qh < qt) {
        uint32_t st = q[qh++], u = st / 2u, dsc = st % 2u, i;
        if (u == dst) { res = dist[st]; break; }
        if (u < t->host_count && u != src) continue;
        for (i = 0; i < t->link_count; i++) {
            const ibcc_fabric_link *k = &t->links[i];
            uint32_t v, nd, s2;
            if (k->a == u) v = k->b; else if (k->b == u) v = k->a; else continue;
            if (v < t->host_count && v != dst) continue;
            nd = dsc;
            if (u >= t->host_count && v >= t->host_count) {
                if (up(t, u, v)) { if (dsc) continue; }
                else nd = 1;
            }
            s2 = 2u * v + nd;
            if (dist[s2] == UINT32_MAX) {
                dist[s2] = dist[st] + 1u;
                q[qt++] = s2;
            }
        }
    }
    free(dist);
    free(q);
    return res;
}

/* Lowest stage at which hosts a and b of a k-ary n-tree meet. */
static uint32_t lca_stage(uint32_t k, uint32_t n, uint32_t a, uint32_t b)
{
    uint32_t s;
    for (s = 0; s < n; s++) {
        a /= k;
        b /= k;
        if (a == b) return s;
    }
    return n - 1u;
}

static void check_all_pairs(const ibcc_topo *t, int tree_k, uint32_t tree_n,
                            int exact)
{
    uint32_t a, b, bad_pairs = 0, wrong_len = 0;
    for (a = 0; a < t->host_count; a++)
        for (b = 0; b < t->host_count; b++) {
            int bad = 0;
            uint32_t len;
            if (a == b) continue;
            len = walk(t, a, b, &bad);
            if (bad) { bad_pairs++; continue; }
            if (tree_k) {
                if (len != 2u * lca_stage((uint32_t)tree_k, tree_n, a, b) + 2u)
                    wrong_len++;
            } else if (exact && len != shortest(t, a, b)) {
                wrong_len++;
            }
        }
    T_EQU(bad_pairs, 0);
    T_EQU(wrong_len, 0);
}

/* A short fabric run with a uniform load on a topology: creates (which
   walks every flow's routes), runs, conserves. */
static void run_fabric(const ibcc_topo *t, ibcc_switch_kind kind)
{
    static ibcc_fabric_flow flows[4096];
    uint32_t hosts[64], i, n = 0, nh = t->host_count < 64 ? t->host_count : 64;
    ibcc_fabric_desc d;
    ibcc_fabric *f = NULL;
    ibcc_fabric_counters c;
    for (i = 0; i < nh; i++) hosts[i] = i;
    T_EQ(ibcc_traffic_uniform(hosts, nh, IBCC_MBYTES(300), flows, 4096, &n),
         IBCC_OK);
    memset(&d, 0, sizeof d);
    T_EQ(ibcc_topo_apply(t, &d), IBCC_OK);
    d.flows = flows;
    d.flow_count = n;
    d.switch_kind = kind;
    d.seed = 3;
    T_EQ(ibcc_fabric_create(&f, &d), IBCC_OK);
    if (!f) return;
    T_EQ(ibcc_fabric_run_until(f, IBCC_US(300)), IBCC_OK);
    T_EQ(ibcc_fabric_check(f), IBCC_OK);
    T_EQ(ibcc_fabric_counters_get(f, &c), IBCC_OK);
    T_CHECK(c.data_delivered > 100);
    ibcc_fabric_destroy(f);
}

static void test_fattree(void)
{
    static const uint32_t kn[4][2] = {{2, 3}, {4, 2}, {4, 3}, {3, 3}};
    uint32_t i;
    for (i = 0; i < 4; i++) {
        ibcc_topo t;
        uint32_t k = kn[i][0], n = kn[i][1], H = 1, S;
        uint32_t j;
        for (j = 0; j < n; j++) H *= k;
        S = H / k;
        T_EQ(ibcc_topo_fattree(&t, k, n, NULL), IBCC_OK);
        T_EQU(t.host_count, H);
        T_EQU(t.node_count, H + n * S);
        T_EQU(t.link_count, H + (n - 1u) * S * k);
        T_EQU(t.route_count, n * S * H);
        T_EQU(t.nodes[H].ports, n > 1u ? 2u * k : k);         /* a leaf */
        T_EQU(t.nodes[H + (n - 1u) * S].ports, k);           /* the top */
        T_EQU(peer(&t, 0, 0), H);                    /* host 0 on leaf 0 */
        T_EQU(peer(&t, H, 1), 1);                    /* port 1 = host 1 */
        check_all_pairs(&t, (int)k, n, 1);
        if (i == 1) run_fabric(&t, IBCC_SWITCH_VCT);
        ibcc_topo_free(&t);
    }
    {
        /* destination-mod-k: leaving leaf 0 of a 4-ary 2-tree, host d
           climbs on up port 4 + d mod 4 */
        ibcc_topo t;
        T_EQ(ibcc_topo_fattree(&t, 4, 2, NULL), IBCC_OK);
        T_EQU(route_of(&t, 16, 5), 4u + 5u % 4u);
        T_EQU(route_of(&t, 16, 14), 4u + 14u % 4u);
        T_EQU(route_of(&t, 16, 2), 2);               /* down to host 2 */
        ibcc_topo_free(&t);
    }
}

static void test_nfly(void)
{
    static const uint32_t kn[4][2] = {{2, 3}, {4, 2}, {4, 3}, {8, 2}};
    uint32_t i;
    for (i = 0; i < 4; i++) {
        ibcc_topo t;
        uint32_t k = kn[i][0], n = kn[i][1], H = 1, j, a, maxlen = 0;
        for (j = 0; j < n; j++) H *= k;
        T_EQ(ibcc_topo_nfly(&t, k, n, NULL), IBCC_OK);
        T_EQU(t.host_count, H);
        T_EQU(t.link_count, H + (n - 1u) * (H / k) * k);
        check_all_pairs(&t, 0, n, 1);
        for (a = 1; a < H; a++) {             /* longest: 2n links */
            int bad = 0;
            uint32_t len = walk(&t, 0, a, &bad);
            if (len > maxlen) maxlen = len;
        }
        T_EQU(maxlen, 2u * n);
        if (i == 2) run_fabric(&t, IBCC_SWITCH_CIOQ);
        ibcc_topo_free(&t);
    }
}

static void test_mesh_torus(void)
{
    uint32_t torus, root;
    for (torus = 0; torus < 2; torus++)
        for (root = 0; root < 9; root += 4) {
            ibcc_topo t;
            uint32_t a, b, bad = 0, longer = 0;
            T_EQ(ibcc_topo_mesh(&t, 3, 3, 4, (int)torus, root, NULL), IBCC_OK);
            T_EQU(t.host_count, 36);
            T_EQU(t.node_count, 45);
            T_EQU(t.link_count, 36 + 12 + (torus ? 6 : 0));
            T_EQU(t.nodes[36].ports, 8);
            check_all_pairs(&t, 0, 0, 0);
            /* legal up/down paths are at least as long as the shortest
               one, and the routes stay within 4 links of it here */
            for (a = 0; a < 36; a += 5)
                for (b = 0; b < 36; b += 3) {
                    int bd = 0;
                    uint32_t len, sh;
                    if (a == b) continue;
                    len = walk(&t, a, b, &bd);
                    sh = shortest(&t, a, b);
                    if (bd || len < sh) bad++;
                    if (len > sh + 4u) longer++;
                }
            T_EQU(bad, 0);
            T_EQU(longer, 0);
            if (torus && root == 0) run_fabric(&t, IBCC_SWITCH_VCT);
            ibcc_topo_free(&t);
        }
    {
        ibcc_topo t;
        T_EQ(ibcc_topo_mesh(&t, 5, 5, 4, 1, 12, NULL), IBCC_OK);
        T_EQU(t.host_count, 100);
        T_EQU(t.link_count, 100 + 50);
        check_all_pairs(&t, 0, 0, 0);
        ibcc_topo_free(&t);
    }
}

static void test_topo_errors(void)
{
    ibcc_topo t;
    ibcc_fabric_allocator half;
    ibcc_fabric_desc d;
    memset(&half, 0, sizeof half);
    half.alloc = NULL;
    T_EQ(ibcc_topo_fattree(NULL, 2, 2, NULL), IBCC_ERR_NULL);
    T_EQ(ibcc_topo_fattree(&t, 1, 2, NULL), IBCC_ERR_RANGE);
    T_EQ(ibcc_topo_fattree(&t, 2, 0, NULL), IBCC_ERR_RANGE);
    T_EQ(ibcc_topo_fattree(&t, 2, 21, NULL), IBCC_ERR_CAPACITY);
    T_EQ(ibcc_topo_fattree(&t, 129, 1, NULL), IBCC_ERR_CAPACITY);
    T_EQ(ibcc_topo_nfly(&t, 0, 2, NULL), IBCC_ERR_RANGE);
    T_EQ(ibcc_topo_mesh(&t, 0, 3, 1, 0, 0, NULL), IBCC_ERR_RANGE);
    T_EQ(ibcc_topo_mesh(&t, 3, 3, 0, 0, 0, NULL), IBCC_ERR_RANGE);
    T_EQ(ibcc_topo_mesh(&t, 3, 3, 1, 0, 9, NULL), IBCC_ERR_RANGE);
    T_EQ(ibcc_topo_mesh(&t, 3, 3, 253, 0, 0, NULL), IBCC_ERR_CAPACITY);
    T_EQ(ibcc_topo_mesh(&t, 2048, 2048, 1, 0, 0, NULL), IBCC_ERR_CAPACITY);
    T_EQ(ibcc_topo_apply(NULL, &d), IBCC_ERR_NULL);
    ibcc_topo_free(NULL);
    memset(&t, 0, sizeof t);
    ibcc_topo_free(&t);
    T_EQ(ibcc_topo_apply(&t, &d), IBCC_ERR_NULL);
    /* a mesh of one switch: its hosts reach each other */
    T_EQ(ibcc_topo_mesh(&t, 1, 1, 3, 1, 0, NULL), IBCC_OK);
    T_EQU(t.link_count, 3);
    check_all_pairs(&t, 0, 0, 1);
    ibcc_topo_free(&t);
}



/* kind 0 fattree (a, b), 1 nfly (a, b), 2 mesh / 3 torus (a x b, c hosts
   per switch, root d) */
static ibcc_result build(ibcc_topo *t, int kind, uint32_t a, uint32_t b,
                         uint32_t c, uint32_t d,
                         const ibcc_fabric_allocator *al)
{
    if (kind == 0) return ibcc_topo_fattree(t, a, b, al);
    if (kind == 1) return ibcc_topo_nfly(t, a, b, al);
    return ibcc_topo_mesh(t, a, b, c, kind == 3, d, al);
}

/* The builders and the fabric loader share one up/down router; the
   builders' routes are still exactly those of the builder-only router it
   replaced (the hashes and counts below were recorded from that code). */
static void test_routes_pinned(void)
{
    static const struct {
        int kind;
        uint32_t a, b, c, d, routes;
        uint64_t hash;
    } cs[] = {
        {0, 4, 3, 0, 0, 3072, UINT64_C(17092584444949482917)},
        {1, 4, 3, 0, 0, 3072, UINT64_C(8763265834774059941)},
        {0, 3, 3, 0, 0, 729, UINT64_C(15052744201983717831)},
        {1, 2, 4, 0, 0, 512, UINT64_C(17044846208759666661)},
        {2, 5, 4, 2, 7, 800, UINT64_C(15173429506834156581)},
        {3, 5, 5, 2, 12, 1250, UINT64_C(1428969527536154549)},
        {3, 4, 3, 1, 0, 144, UINT64_C(14295309948087256148)},
    };
    uint32_t i;
    for (i = 0; i < sizeof cs / sizeof cs[0]; i++) {
        ibcc_topo t;
        T_EQ(build(&t, cs[i].kind, cs[i].a, cs[i].b, cs[i].c, cs[i].d, NULL),
             IBCC_OK);
        T_EQU(t.route_count, cs[i].routes);
        T_EQU(t_routes_hash(T_FNV_START, t.routes, t.route_count), cs[i].hash);
        ibcc_topo_free(&t);
    }
}


/* Failing the k-th allocation of a builder, for every k until it
   succeeds: NOMEM with nothing left allocated; then the routes equal
   those built with malloc. */
static void test_topo_allocator(void)
{
    ibcc_fabric_allocator al;
    int kind;
    t_alloc_ctl ctl;
    al.alloc = t_alloc; al.free = t_free; al.user = &ctl;
    for (kind = 0; kind < 4; kind++) {
        ibcc_topo ref;
        int k, ok = 0;
        T_EQ(build(&ref, kind, 3, 3, 2, 4, NULL), IBCC_OK);
        for (k = 0; k < 100 && !ok; k++) {
            ibcc_topo t;
            ibcc_result r;
            ctl.fail_after = k;
            ctl.live = 0;
            r = build(&t, kind, 3, 3, 2, 4, &al);
            T_CHECK(r == IBCC_OK || r == IBCC_ERR_NOMEM);
            if (r == IBCC_OK) {
                ok = 1;
                T_CHECK(k > 4);                 /* the router's too failed */
                T_EQU(t.route_count, ref.route_count);
                T_EQU(t_routes_hash(T_FNV_START, t.routes, t.route_count),
                      t_routes_hash(T_FNV_START, ref.routes, ref.route_count));
                ibcc_topo_free(&t);
            }
            T_EQ(ctl.live, 0);
        }
        ctl.fail_after = -1;
        T_CHECK(ok);
        ibcc_topo_free(&ref);
    }
}


/* A leaf-spine of k^2 hosts (k = 4 or 8) under a random permutation of
   greedy LAW flows (window 4, input-triggered marking), the bench's
   scale workload, cut into runs of `step` ps (0: one run). */
static void leafspine_run(uint32_t k, ibcc_switch_kind kind, ibcc_time until,
                          ibcc_time step, ibcc_fabric_counters *c,
                          uint64_t *stats_hash)
{
    ibcc_topo t;
    ibcc_fabric_desc d;
    ibcc_fabric_flow fl[64];
    uint32_t hs[64], i, nf = 0;
    ibcc_fabric *f = NULL;
    ibcc_time now = 0;
    uint64_t h = 1469598103934665603ULL;
    memset(c, 0, sizeof *c);
    *stats_hash = 0;
    T_EQ(ibcc_topo_fattree(&t, k, 2, NULL), IBCC_OK);
    for (i = 0; i < t.host_count; i++) hs[i] = i;
    T_EQ(ibcc_traffic_permutation(hs, t.host_count, 7, fl, 64, &nf), IBCC_OK);
    for (i = 0; i < nf; i++) {
        fl[i].agent = IBCC_AGENT_LAW;
        fl[i].window = 4;
    }
    memset(&d, 0, sizeof d);
    T_EQ(ibcc_topo_apply(&t, &d), IBCC_OK);
    d.flows = fl;
    d.flow_count = nf;
    d.marker.engine = IBCC_MARKER_INPUT;
    d.switch_kind = kind;
    d.seed = 1;
    T_EQ(ibcc_fabric_create(&f, &d), IBCC_OK);
    if (f) {
        while (now < until) {
            now = step && now + step < until ? now + step : until;
            T_EQ(ibcc_fabric_run_until(f, now), IBCC_OK);
        }
        T_EQ(ibcc_fabric_check(f), IBCC_OK);
        T_EQ(ibcc_fabric_counters_get(f, c), IBCC_OK);
        for (i = 0; i < nf; i++) {
            ibcc_fabric_flow_stats s;
            const unsigned char *b = (const unsigned char *)&s;
            size_t j;
            T_EQ(ibcc_fabric_flow_stats_get(f, i, &s), IBCC_OK);
            for (j = 0; j < sizeof s; j++) h = (h ^ b[j]) * 1099511628211ULL;
        }
        *stats_hash = h;
    }
    ibcc_fabric_destroy(f);
    ibcc_topo_free(&t);
}

/* A transmitter finishing and credits coming back are applied when due,
   not as events: an event is spent only where something waits. Each hop
   costs its arrival (one event) plus the wake-ups of packets that wait
   for a busy output or input, of senders waiting for credits and of
   hosts with more to send; on this workload that is 1.40-1.47 events per
   hop (3.0 when both were events), so 1.5 is the bound. */
static void test_events_per_hop(void)
{
    ibcc_fabric_counters c;
    uint64_t h;
    uint32_t k;
    for (k = 4; k <= 8; k += 4) {
        leafspine_run(k, IBCC_SWITCH_VCT, IBCC_US(300), 0, &c, &h);
        T_CHECK(c.hops > 8000u);
        T_CHECK((double)c.events <= 1.5 * (double)c.hops);
        T_CHECK((double)c.events >= 1.0 * (double)c.hops); /* one arrival each */
    }
}

/* Completions and credits due but not yet applied when a run stops are
   applied the same way after it: cutting a run into many short ones, at
   instants that fall inside transmissions, changes nothing, for VCT and
   CIOQ switches. */
static void test_split_runs_identical(void)
{
    ibcc_fabric_counters a, b;
    uint64_t ha, hb;
    int kind;
    for (kind = 0; kind < 2; kind++) {
        ibcc_switch_kind sk = kind ? IBCC_SWITCH_CIOQ : IBCC_SWITCH_VCT;
        leafspine_run(4, sk, IBCC_US(200), 0, &a, &ha);
        leafspine_run(4, sk, IBCC_US(200), IBCC_NS(733) + 1u, &b, &hb);
        T_CHECK(a.hops > 5000u);
        T_EQU(a.hops, b.hops);
        T_EQU(a.delivered, b.delivered);
        T_EQU(a.bytes_delivered, b.bytes_delivered);
        T_EQU(ha, hb);
    }
}

/* Dimension-order routes on a mesh or torus built by ibcc_topo_mesh
   (hps hosts per switch): x first, then y, the shorter way round a ring
   (odd sizes: no ties). */
static void dor_routes(ibcc_topo *t, uint32_t x, uint32_t y, uint32_t hps,
                       int torus)
{
    uint32_t s, h, n = 0;
    for (h = 0; h < t->host_count; h++)
        for (s = 0; s < x * y; s++) {
            uint32_t sx = s % x, sy = s / x, d = h / hps, dx = d % x,
                     dy = d / x, port;
            if (sx != dx) {
                uint32_t fwd = (dx + x - sx) % x;
                port = hps + ((torus ? fwd <= x - fwd : dx > sx) ? 0u : 1u);
            } else if (sy != dy) {
                uint32_t fwd = (dy + y - sy) % y;
                port = hps + ((torus ? fwd <= y - fwd : dy > sy) ? 2u : 3u);
            } else {
                port = h % hps;
            }
            t->routes[n].sw = t->host_count + s;
            t->routes[n].dst = h;
            t->routes[n].port = port;
            n++;
        }
    t->route_count = n;
}

/* Every channel of a reported cycle leads into the next one's switch. */
static int cycle_closed(const ibcc_topo *t, const ibcc_credit_loops *o)
{
    uint32_t i;
    if (o->cycle_len < 2 || o->cycle_len > IBCC_CYCLE_SHOW) return 0;
    for (i = 0; i < o->cycle_len; i++) {
        uint32_t c = o->cycle[i], n = o->cycle[(i + 1) % o->cycle_len];
        const ibcc_fabric_link *a = &t->links[c / 2], *b = &t->links[n / 2];
        uint32_t into = (c & 1) ? a->a : a->b, from = (n & 1) ? b->b : b->a;
        if (into != from) return 0;
    }
    return 1;
}

/* SL of a path on the clockwise ring: the source switch's index (host
   h hangs on switch h). */
static uint32_t ring_sl(void *user, uint32_t src, uint32_t dst)
{
    (void)user;
    (void)dst;
    return 1u << src;
}

/* The clockwise ring of four (t, applied to d) with VLs: two VLs with
   OpenSM's default tables keep a loop on each VL that SLs use; the
   dateline tables (a packet of SL s, the SL of source switch s, leaves
   switch j on VL 1 once it has passed switch 0: j < s) leave none. */
static void ring_datelines(ibcc_topo *t, ibcc_fabric_desc *d)
{
    ibcc_credit_loops o;
    ibcc_credit_loops_sls sls;
    ibcc_fabric_port_vl pv[4];
    ibcc_fabric_error e;
    uint32_t j, s;
    ibcc_fabric *f = NULL;
    ibcc_fabric_flow fl[12];
    d->vls = 2;         /* SL s on VL s & 1 everywhere: a loop per VL */
    T_EQ(ibcc_fabric_credit_loops(d, &o, NULL), IBCC_OK);
    T_EQU(o.vls, 2);
    T_EQU(o.channels, 8);
    T_EQU(o.loops, 2);
    T_EQU(o.loop_channels, 8);
    T_EQU(o.cycle_len, 4);
    T_EQU(o.cycle_vl[0], 0);
    memset(&sls, 0, sizeof sls);
    sls.mask = 1u << 3;             /* SL 3 alone: the loop on VL 1 */
    T_EQ(ibcc_fabric_credit_loops_sl(d, &sls, &o, NULL), IBCC_OK);
    T_EQU(o.loops, 1);
    T_EQU(o.cycle_len, 4);
    for (j = 0; j < 4; j++) T_EQU(o.cycle_vl[j], 1);
    T_CHECK(cycle_closed(t, &o));
    /* the dateline: VL 0 everywhere but on the +x ports, where SL s
       leaves switch j on VL 1 when j < s */
    d->sl2vl_set = 1;
    memset(d->sl2vl, 0, sizeof d->sl2vl);
    memset(pv, 0, sizeof pv);
    for (j = 0; j < 4; j++) {
        pv[j].node = t->host_count + j;
        pv[j].port = 1;             /* +x */
        pv[j].sl2vl_set = 1;
        for (s = 0; s < 16; s++)
            pv[j].sl2vl[s] = (uint8_t)(j < s && s < 4 ? 1 : 0);
    }
    d->port_vls = pv;
    d->port_vl_count = 4;
    sls.mask = 0;
    sls.pair = ring_sl;
    T_EQ(ibcc_fabric_credit_loops_sl(d, &sls, &o, NULL), IBCC_OK);
    T_EQU(o.loops, 0);
    T_EQU(o.unrouted, 0);
    /* on VL 0: 0->1 -> 1->2 -> 2->3 -> 3->0 (SL 0, 1, 2); 3->0 leads
       onto 0->1 on VL 1 only (SL 2, 3), which leads to 1->2 on VL 1
       (SL 3): 5 dependencies, a chain */
    T_EQU(o.dependencies, 5);
    /* the same tables with every SL from every source: loops */
    T_EQ(ibcc_fabric_credit_loops(d, &o, NULL), IBCC_OK);
    T_CHECK(o.loops > 0);
    /* and the fabric takes those tables for the 12 flows at their SLs */
    memset(fl, 0, sizeof fl);
    for (j = 0, s = 0; s < 4; s++) {
        uint32_t k;
        for (k = 0; k < 4; k++)
            if (k != s) {
                fl[j].src = s;
                fl[j].dst = k;
                fl[j].sl = s;
                fl[j].packets = 3;
                j++;
            }
    }
    d->flows = fl;
    d->flow_count = 12;
    d->error = &e;
    T_EQ(ibcc_fabric_create(&f, d), IBCC_OK);
    T_EQ(ibcc_fabric_run_until(f, IBCC_MS(1)), IBCC_OK);
    {
        ibcc_fabric_counters cn;
        T_EQ(ibcc_fabric_counters_get(f, &cn), IBCC_OK);
        T_EQU(cn.data_delivered, 36);
    }
    ibcc_fabric_destroy(f);
    d->flows = NULL;
    d->flow_count = 0;
    d->error = NULL;
    /* a drop (VL 15) ends the dependencies there: SL 3 at switch 0 */
    pv[0].sl2vl[3] = 15;
    T_EQ(ibcc_fabric_credit_loops_sl(d, &sls, &o, NULL), IBCC_OK);
    T_EQU(o.dependencies, 4);
    /* a mask over 16 bits is refused */
    sls.mask = 1u << 16;
    T_EQ(ibcc_fabric_credit_loops_sl(d, &sls, &o, NULL), IBCC_ERR_RANGE);
    d->vls = 1;
    d->sl2vl_set = 0;
    d->port_vls = NULL;
    d->port_vl_count = 0;
}

static void test_credit_loops(void)
{
    ibcc_topo t;
    ibcc_fabric_desc d;
    ibcc_credit_loops o;
    ibcc_fabric_error e;
    ibcc_fabric_route keep;
    int kind;
    /* every builder's up/down routes are free of credit loops */
    for (kind = 0; kind < 4; kind++) {
        T_EQ(build(&t, kind, 3, 3, 2, 4, NULL), IBCC_OK);
        memset(&d, 0, sizeof d);
        ibcc_topo_apply(&t, &d);
        T_EQ(ibcc_fabric_credit_loops(&d, &o, NULL), IBCC_OK);
        T_EQU(o.loops, 0);
        T_EQU(o.loop_channels, 0);
        T_EQU(o.cycle_len, 0);
        T_EQU(o.unrouted, 0);
        T_CHECK(o.dependencies > 0);
        ibcc_topo_free(&t);
    }
    /* a 3-ary 2-tree: 9 leaf-top links, 18 switch-to-switch channels;
       an up channel (leaf -> top) feeds the top's down channels to the
       two other leaves, a down channel feeds only host channels: 9 x 2
       dependencies */
    T_EQ(ibcc_topo_fattree(&t, 3, 2, NULL), IBCC_OK);
    memset(&d, 0, sizeof d);
    ibcc_topo_apply(&t, &d);
    T_EQ(ibcc_fabric_credit_loops(&d, &o, NULL), IBCC_OK);
    T_EQU(o.channels, 18);
    T_EQU(o.dependencies, 18);
    ibcc_topo_free(&t);
    /* a ring of four switches whose routes all turn clockwise: one loop
       of the four clockwise channels */
    T_EQ(ibcc_topo_mesh(&t, 4, 1, 1, 1, 0, NULL), IBCC_OK);
    dor_routes(&t, 4, 1, 1, 0);
    {
        uint32_t i;
        for (i = 0; i < t.route_count; i++)
            if (t.routes[i].port != 0) t.routes[i].port = 1;   /* +x */
    }
    memset(&d, 0, sizeof d);
    ibcc_topo_apply(&t, &d);
    T_EQ(ibcc_fabric_credit_loops(&d, &o, NULL), IBCC_OK);
    T_EQU(o.loops, 1);
    T_EQU(o.loop_channels, 4);
    T_EQU(o.channels, 8);
    T_EQU(o.dependencies, 4);
    T_EQU(o.cycle_len, 4);
    T_CHECK(cycle_closed(&t, &o));
    T_EQU(o.vls, 1);
    T_EQU(o.cycle_vl[0], 0);
    ring_datelines(&t, &d);
    ibcc_topo_free(&t);
    /* dimension order on a 5x5 torus: each ring direction of each row and
       column is a loop of 5 channels (20 loops over all 100 channels); on
       the mesh none */
    T_EQ(ibcc_topo_mesh(&t, 5, 5, 2, 1, 0, NULL), IBCC_OK);
    dor_routes(&t, 5, 5, 2, 1);
    memset(&d, 0, sizeof d);
    ibcc_topo_apply(&t, &d);
    T_EQ(ibcc_fabric_credit_loops(&d, &o, NULL), IBCC_OK);
    T_EQU(o.loops, 20);
    T_EQU(o.loop_channels, 100);
    T_EQU(o.channels, 100);
    T_EQU(o.cycle_len, 5);
    T_CHECK(cycle_closed(&t, &o));
    T_EQU(o.unrouted, 0);
    ibcc_topo_free(&t);
    T_EQ(ibcc_topo_mesh(&t, 5, 5, 2, 0, 0, NULL), IBCC_OK);
    dor_routes(&t, 5, 5, 2, 0);
    memset(&d, 0, sizeof d);
    ibcc_topo_apply(&t, &d);
    T_EQ(ibcc_fabric_credit_loops(&d, &o, NULL), IBCC_OK);
    T_EQU(o.loops, 0);
    T_EQU(o.channels, 80);
    /* a missing route is counted, not followed; a bad one refused */
    keep = t.routes[7];
    t.routes[7].port = 0;       /* switch 7 sends host 0 to its own host */
    T_EQ(ibcc_fabric_credit_loops(&d, &o, NULL), IBCC_OK);
    T_EQU(o.unrouted, 1);
    t.routes[7].port = 99;
    d.error = &e;
    T_EQ(ibcc_fabric_credit_loops(&d, &o, NULL), IBCC_ERR_RANGE);
    T_CHECK(strstr(e.reason, "route 7") != NULL);
    t.routes[7] = keep;
    T_EQ(ibcc_fabric_credit_loops(NULL, &o, NULL), IBCC_ERR_NULL);
    T_EQ(ibcc_fabric_credit_loops(&d, NULL, NULL), IBCC_ERR_NULL);
    ibcc_topo_free(&t);
}

/* Walks every host pair's path (hops between switches) and counts the
   longest; 0 when some path does not arrive. */
static uint32_t longest_path(const ibcc_topo *t)
{
    uint32_t s, d, most = 0, H = t->host_count;
    for (s = 0; s < H; s++)
        for (d = 0; d < H; d++) {
            uint32_t node = t->links[s].b, hops = 0, i;
            if (s == d) continue;
            for (;;) {
                uint32_t port = 0xffffffffu, far = 0xffffffffu;
                for (i = 0; i < t->route_count; i++)
                    if (t->routes[i].sw == node && t->routes[i].dst == d) {
                        port = t->routes[i].port;
                        break;
                    }
                for (i = 0; i < t->link_count && port != 0xffffffffu; i++) {
                    if (t->links[i].a == node && t->links[i].a_port == port)
                        far = t->links[i].b;
                    if (t->links[i].b == node && t->links[i].b_port == port)
                        far = t->links[i].a;
                }
                if (far == 0xffffffffu || hops > 64) return 0;
                if (far == d) break;
                if (far < H) return 0;
                node = far;
                hops++;
            }
            if (hops > most) most = hops;
        }
    return most;
}

/* All-pairs flows at their paths' SLs (class cls) deliver every packet:
   the fabric takes the builder's VLs and routes, and does not stall. */
static void run_all_pairs(ibcc_topo *t, ibcc_fabric_desc *d, uint32_t cls)
{
    uint32_t H = t->host_count, n = 0, s, k;
    ibcc_fabric_flow *fl = (ibcc_fabric_flow *)calloc((size_t)H * H,
                                                       sizeof *fl);
    ibcc_fabric *f = NULL;
    ibcc_fabric_counters cn;
    ibcc_fabric_error e;
    T_CHECK(fl != NULL);
    if (!fl) return;
    for (s = 0; s < H; s++)
        for (k = 0; k < H; k++)
            if (k != s) {
                fl[n].src = s;
                fl[n].dst = k;
                fl[n].sl = ibcc_topo_path_sl(t, s, k, cls);
                fl[n].packets = 2;
                n++;
            }
    d->flows = fl;
    d->flow_count = n;
    d->error = &e;
    T_EQ(ibcc_fabric_create(&f, d), IBCC_OK);
    if (f) {
        T_EQ(ibcc_fabric_run_until(f, IBCC_MS(20)), IBCC_OK);
        T_EQ(ibcc_fabric_counters_get(f, &cn), IBCC_OK);
        T_EQU(cn.data_delivered, 2u * n);
    } else {
        printf("  %s\n", e.reason);
    }
    ibcc_fabric_destroy(f);
    free(fl);
    d->flows = NULL;
    d->flow_count = 0;
    d->error = NULL;
}

/* Routing with VLs: dimension order with datelines on tori, minimal
   routing on dragonflies; the channel dependency graph over (channel,
   VL) checks every one. */
static void test_vl_routing(void)
{
    static const uint32_t tor[][3] = {{5, 5, 2}, {4, 4, 1}, {6, 3, 1},
                                      {8, 1, 1}, {3, 3, 2}};
    ibcc_topo t;
    ibcc_fabric_desc d;
    ibcc_credit_loops o;
    ibcc_credit_loops_sls sls;
    ibcc_fabric_error e;
    uint32_t i;
    memset(&sls, 0, sizeof sls);
    for (i = 0; i < sizeof tor / sizeof tor[0]; i++) {
        uint32_t bits = (tor[i][0] >= 4) + (tor[i][1] >= 4);
        T_EQ(ibcc_topo_mesh_dor(&t, tor[i][0], tor[i][1], tor[i][2], 1,
                                NULL), IBCC_OK);
        T_EQU(t.sl_bits, bits);
        T_EQU(t.vls, 1u << bits);
        T_EQU(t.route_count, t.host_count * tor[i][0] * tor[i][1]);
        T_EQU(longest_path(&t), tor[i][0] / 2 + tor[i][1] / 2);
        memset(&d, 0, sizeof d);
        ibcc_topo_apply(&t, &d);
        T_EQU(d.vls, bits ? 1u << bits : 0);
        sls.pair = ibcc_topo_path_sls;
        sls.user = &t;
        T_EQ(ibcc_fabric_credit_loops_sl(&d, &sls, &o, NULL), IBCC_OK);
        T_EQU(o.loops, 0);
        T_EQU(o.unrouted, 0);
        T_EQU(o.vls, 1u << bits);
        if (bits) {
            /* every SL from every host: the dateline classes mix */
            T_EQ(ibcc_fabric_credit_loops(&d, &o, NULL), IBCC_OK);
            T_CHECK(o.loops > 0);
            /* one VL: the rings of 4 or more are loops again */
            d.vls = 1;
            T_EQ(ibcc_fabric_credit_loops_sl(&d, &sls, &o, NULL), IBCC_OK);
            T_CHECK(o.loops > 0);
            d.vls = t.vls;
        }
        if (i == 1) run_all_pairs(&t, &d, 0);
        if (i == 2) {
            d.vls = 4;          /* class 1 of 2: VLs 2 and 3 */
            T_EQ(ibcc_fabric_credit_loops_sl(&d, &sls, &o, NULL), IBCC_OK);
            T_EQU(o.loops, 0);
            run_all_pairs(&t, &d, 1);
        }
        ibcc_topo_free(&t);
    }
    /* a mesh needs no VL for dimension order */
    T_EQ(ibcc_topo_mesh_dor(&t, 5, 4, 1, 0, NULL), IBCC_OK);
    T_EQU(t.sl_bits, 0);
    T_EQU(t.vls, 1);
    T_EQU(ibcc_topo_path_sls(&t, 0, 7), 0xFFFFu);
    T_EQU(ibcc_topo_path_sl(&t, 0, 7, 5), 5);
    memset(&d, 0, sizeof d);
    ibcc_topo_apply(&t, &d);
    T_EQ(ibcc_fabric_credit_loops(&d, &o, NULL), IBCC_OK);
    T_EQU(o.loops, 0);
    T_EQU(o.vls, 1);
    ibcc_topo_free(&t);
    /* the torus path SLs: on a 5x5 torus x 4 -> 0 wraps (bit 0), y 0 ->
       3 goes 0, 4, 3 (bit 1: the - way crosses the wrap) */
    T_EQ(ibcc_topo_mesh_dor(&t, 5, 5, 1, 1, NULL), IBCC_OK);
    T_EQU(ibcc_topo_path_sl(&t, 4, 0, 0), 1);
    T_EQU(ibcc_topo_path_sl(&t, 0, 15, 0), 2);
    T_EQU(ibcc_topo_path_sl(&t, 4, 15, 3), 3 * 4 + 3);
    T_EQU(ibcc_topo_path_sl(&t, 4, 15, 4), IBCC_FABRIC_NONE);
    T_EQU(ibcc_topo_path_sls(&t, 0, 1), 0x1111u);
    ibcc_topo_free(&t);
    /* dragonfly, balanced a = 2p = 2h = 4, 9 groups (a*h + 1: every
       global port used), 5 groups (some unused) */
    for (i = 0; i < 2; i++) {
        uint32_t g = i ? 5 : 9, k, S = 4 * g, H = S * 2, glob = 0;
        uint32_t pairs[9][9];
        T_EQ(ibcc_topo_dragonfly(&t, 4, 2, 2, g, IBCC_TOPO_MINIMAL, 2, NULL),
             IBCC_OK);
        T_EQU(t.host_count, H);
        T_EQU(t.node_count, H + S);
        T_EQU(t.link_count, H + g * 6 + g * (g - 1) / 2);
        memset(pairs, 0, sizeof pairs);
        for (k = H; k < t.link_count; k++) {
            uint32_t ga = (t.links[k].a - H) / 4, gb = (t.links[k].b - H) / 4;
            T_EQU(t.nodes[t.links[k].a].ports, 7);
            if (ga != gb) { pairs[ga][gb]++; pairs[gb][ga]++; glob++; }
        }
        T_EQU(glob, g * (g - 1) / 2);
        for (k = 0; k < g * g; k++)
            if (k / g != k % g) T_EQU(pairs[k / g][k % g], 1);
        T_EQU(longest_path(&t), 3);
        T_EQU(t.sl2vl_count, g * (g - 1) * 3);  /* used globals x locals */
        memset(&d, 0, sizeof d);
        ibcc_topo_apply(&t, &d);
        T_EQU(d.vls, 2);
        T_EQ(ibcc_fabric_credit_loops(&d, &o, NULL), IBCC_OK);
        T_EQU(o.loops, 0);
        T_EQU(o.unrouted, 0);
        T_EQU(o.vls, 2);
        if (i == 1) run_all_pairs(&t, &d, 3);
        /* without the global hop's table every SL stays on its VL */
        d.sl2vl_count = 0;
        T_EQ(ibcc_fabric_credit_loops(&d, &o, NULL), IBCC_OK);
        T_CHECK(o.loops > 0);
        ibcc_topo_free(&t);
    }
    /* one VL: loops; four VLs: SL s on VLs 2s, 2s + 1 (mod 4) */
    T_EQ(ibcc_topo_dragonfly(&t, 4, 2, 2, 9, IBCC_TOPO_MINIMAL, 1, NULL),
         IBCC_OK);
    memset(&d, 0, sizeof d);
    ibcc_topo_apply(&t, &d);
    T_EQ(ibcc_fabric_credit_loops(&d, &o, NULL), IBCC_OK);
    T_CHECK(o.loops > 0);
    T_EQU(o.vls, 1);
    ibcc_topo_free(&t);
    T_EQ(ibcc_topo_dragonfly(&t, 4, 2, 2, 9, IBCC_TOPO_MINIMAL, 4, NULL),
         IBCC_OK);
    T_EQU(t.sl2vl[1], 2);
    T_EQU(t.sl2vls[0].vl[1], 3);
    T_EQU(t.sl2vls[0].vl[2], 1);
    memset(&d, 0, sizeof d);
    ibcc_topo_apply(&t, &d);
    T_EQ(ibcc_fabric_credit_loops(&d, &o, NULL), IBCC_OK);
    T_EQU(o.loops, 0);
    T_EQU(o.vls, 4);
    ibcc_topo_free(&t);
    /* refusals */
    T_EQ(ibcc_topo_dragonfly(&t, 4, 2, 2, 9, IBCC_TOPO_VALIANT, 2, NULL),
         IBCC_ERR_RANGE);
    T_CHECK(strstr(t.error.reason, "3 VLs") != NULL);
    T_CHECK(t.nodes == NULL);
    T_EQ(ibcc_topo_dragonfly_lmc(&t, 4, 2, 2, 9, IBCC_TOPO_VALIANT, 4, 0,
                                 NULL), IBCC_ERR_RANGE);
    T_CHECK(strstr(t.error.reason, "lmc 0") != NULL);
    T_EQ(ibcc_topo_dragonfly_lmc(&t, 4, 2, 2, 9, IBCC_TOPO_MINIMAL, 2, 8,
                                 NULL), IBCC_ERR_RANGE);
    T_EQ(ibcc_topo_dragonfly(&t, 4, 2, 2, 10, IBCC_TOPO_MINIMAL, 2, NULL),
         IBCC_ERR_RANGE);
    T_CHECK(strstr(t.error.reason, "groups 10") != NULL);
    T_EQ(ibcc_topo_dragonfly(&t, 4, 2, 2, 9, IBCC_TOPO_MINIMAL, 3, NULL),
         IBCC_ERR_RANGE);
    T_EQ(ibcc_topo_dragonfly(&t, 0, 2, 2, 9, IBCC_TOPO_MINIMAL, 2, NULL),
         IBCC_ERR_RANGE);
    T_EQ(ibcc_topo_dragonfly(&t, 200, 2, 100, 9, IBCC_TOPO_MINIMAL, 2,
                             NULL), IBCC_ERR_CAPACITY);
    T_EQ(ibcc_topo_dragonfly(NULL, 4, 2, 2, 9, IBCC_TOPO_MINIMAL, 2, NULL),
         IBCC_ERR_NULL);
    T_EQ(ibcc_topo_mesh_dor(&t, 0, 2, 1, 1, NULL), IBCC_ERR_RANGE);
    T_EQU(ibcc_topo_path_sls(NULL, 0, 1), 0);
    T_EQU(ibcc_topo_path_sl(NULL, 0, 1, 0), IBCC_FABRIC_NONE);
    T_EQ(ibcc_topo_mesh_dor(&t, 4, 4, 1, 1, NULL), IBCC_OK);
    T_EQU(ibcc_topo_path_sls(&t, 0, 16), 0);          /* 16: a switch */
    T_EQU(ibcc_topo_path_sl(&t, 16, 0, 0), IBCC_FABRIC_NONE);
    memset(&d, 0, sizeof d);
    ibcc_topo_apply(&t, &d);
    T_EQ(ibcc_fabric_credit_loops_sl(NULL, &sls, &o, NULL), IBCC_ERR_NULL);
    T_EQ(ibcc_fabric_credit_loops_sl(&d, &sls, NULL, NULL), IBCC_ERR_NULL);
    /* VL settings the fabric refuses are refused here, with its reason */
    d.sl2vl_set = 1;
    memset(d.sl2vl, 0, sizeof d.sl2vl);
    d.sl2vl[2] = 9;
    d.error = &e;
    T_EQ(ibcc_fabric_credit_loops(&d, &o, NULL), IBCC_ERR_RANGE);
    T_CHECK(strstr(e.reason, "SL 2 to VL 9") != NULL);
    ibcc_topo_free(&t);
}

/* The groups the path from host s to LID lid of host k visits, as a
   bit set, and its global hops (*glob), read from t's routes (listed by
   destination, LID, switch). */
static uint32_t dfly_groups(const ibcc_topo *t, uint32_t s, uint32_t k,
                            uint32_t lid, uint32_t *glob)
{
    uint32_t H = t->host_count, S = t->node_count - H, ga = t->a;
    uint32_t node = t->links[s].b, hops = 0, seen = 0, last;
    *glob = 0;
    last = (node - H) / ga;
    while (node >= H && hops++ < 16) {
        const ibcc_fabric_route *r =
            &t->routes[((uint64_t)k * (1u << t->lmc) + lid) * S + node - H];
        uint32_t i, nx = UINT32_MAX;
        seen |= 1u << (node - H) / ga;
        if ((node - H) / ga != last) (*glob)++;
        last = (node - H) / ga;
        if (r->sw != node || r->dst != k || r->lid != lid) return 0;
        for (i = 0; i < t->link_count; i++) {
            if (t->links[i].a == node && t->links[i].a_port == r->port)
                nx = t->links[i].b;
            if (t->links[i].b == node && t->links[i].b_port == r->port)
                nx = t->links[i].a;
        }
        node = nx;
    }
    return node == k ? seen : 0;
}

/* Greedy flows from every host of group i to the host at the same place
   in group i + 1 (the pattern minimal routing puts on one global link
   per group): delivered bytes in 400 us after 100 us, LID 0 for all
   (valiant 0) or LID 1 + (host mod (2^lmc - 1)). */
static uint64_t dfly_adversarial(ibcc_topo *t, int valiant)
{
    uint32_t H = t->host_count, n, per = t->a * t->p;
    ibcc_fabric_flow fl[72];
    ibcc_fabric_desc d;
    ibcc_fabric *f = NULL;
    ibcc_fabric_counters c0, c1;
    uint64_t got = 0;
    memset(fl, 0, sizeof fl);
    memset(&d, 0, sizeof d);
    ibcc_topo_apply(t, &d);
    for (n = 0; n < H && n < 72; n++) {
        fl[n].src = n;
        fl[n].dst = (n + per) % H;
        fl[n].dlid = valiant ? 1u + n % ((1u << t->lmc) - 1u) : 0;
        fl[n].sl = ibcc_topo_path_sl_lid(t, n, fl[n].dst, fl[n].dlid, 0);
    }
    d.flows = fl;
    d.flow_count = n;
    T_EQ(ibcc_fabric_create(&f, &d), IBCC_OK);
    if (!f) return 0;
    T_EQ(ibcc_fabric_run_until(f, IBCC_US(100)), IBCC_OK);
    T_EQ(ibcc_fabric_counters_get(f, &c0), IBCC_OK);
    T_EQ(ibcc_fabric_run_until(f, IBCC_US(500)), IBCC_OK);
    T_EQ(ibcc_fabric_counters_get(f, &c1), IBCC_OK);
    got = c1.data_delivered - c0.data_delivered;
    ibcc_fabric_destroy(f);
    return got;
}

/* Valiant routing on a dragonfly through LMC: LID 0 minimal, LIDs 1..
   through the intermediate group of the other parity; three VLs keep
   the (channel, VL) graph acyclic for the paths' SLs; every pair is
   delivered on every LID; the adversarial pattern gains. */
static void test_valiant(void)
{
    ibcc_topo t;
    ibcc_fabric_desc d;
    ibcc_credit_loops o;
    ibcc_credit_loops_sls sls;
    uint32_t H, S, s, k, lid, G = 9, bad = 0, ok_groups = 0;
    uint64_t minimal, valiant;
    T_EQ(ibcc_topo_dragonfly(&t, 4, 2, 2, G, IBCC_TOPO_VALIANT, 4, NULL),
         IBCC_OK);
    H = t.host_count;
    S = t.node_count - H;
    T_EQU(t.lmc, 3);                    /* 5 candidates: 7 LIDs cover */
    T_EQU(t.sl_bits, 2);
    T_EQU(t.route_count, H * S * 8u);
    /* group 0 (even): odd groups 1, 3, 5, 7, again 1, 3, 5 */
    T_EQU(ibcc_topo_valiant_group(&t, 0, 1), 1);
    T_EQU(ibcc_topo_valiant_group(&t, 0, 4), 7);
    T_EQU(ibcc_topo_valiant_group(&t, 0, 5), 1);
    /* group 8 (even): 1, 3, 5, 7; group 1 (odd): 2, 4, 6, 8, 0 */
    T_EQU(ibcc_topo_valiant_group(&t, 8 * 8, 1), 1);
    T_EQU(ibcc_topo_valiant_group(&t, 8, 5), 0);
    T_EQU(ibcc_topo_valiant_group(&t, 8, 0), IBCC_FABRIC_NONE);
    T_EQU(ibcc_topo_valiant_group(&t, 8, 8), IBCC_FABRIC_NONE);
    for (s = 0; s < H; s++)
        for (k = 0; k < H; k++)
            for (lid = 0; lid < 8u && k != s; lid++) {
                uint32_t glob, seen = dfly_groups(&t, s, k, lid, &glob);
                uint32_t gs = s / 8, gd = k / 8, via, want;
                via = lid ? ibcc_topo_valiant_group(&t, k, lid) : gd;
                want = gs == gd ? 1u << gs
                       : (1u << gs) | (1u << gd) | (1u << via);
                if (!seen || seen != want
                    || glob != (gs == gd ? 0u : (via == gs || via == gd)
                                ? 1u : 2u))
                    bad++;
                if (glob == 2u) ok_groups++;
                /* kind: 0 on one global hop, else the via group's parity */
                if (ibcc_topo_path_sl_lid(&t, s, k, lid, 1)
                    != (4u | (glob == 2u ? 1u + (via & 1u) : 0u)))
                    bad++;
            }
    T_EQU(bad, 0);
    T_CHECK(ok_groups > H * (H - 8) * 6u);
    T_EQU(ibcc_topo_path_sl_lid(&t, 0, 9, 8, 0), IBCC_FABRIC_NONE);
    T_EQU(ibcc_topo_path_sls_lid(&t, 0, 9, 8), 0);
    T_EQU(ibcc_topo_path_sls_lid(&t, 0, 17, 1), 0x4444u); /* via odd 3 */
    memset(&d, 0, sizeof d);
    ibcc_topo_apply(&t, &d);
    T_EQU(d.lmc, 3);
    T_EQU(d.vls, 4);
    memset(&sls, 0, sizeof sls);
    sls.pair_lid = ibcc_topo_path_sls_lid;
    sls.user = &t;
    T_EQ(ibcc_fabric_credit_loops_sl(&d, &sls, &o, NULL), IBCC_OK);
    T_EQU(o.loops, 0);
    T_EQU(o.unrouted, 0);
    T_EQU(o.vls, 4);
    /* every SL on every path: kind 0 through a third group keeps VL 1
       from the intermediate group to the end and closes loops */
    T_EQ(ibcc_fabric_credit_loops(&d, &o, NULL), IBCC_OK);
    T_CHECK(o.loops > 0);
    /* the pair callback alone (no LID) gives LID 0's SLs to every LID:
       the same loops */
    sls.pair_lid = NULL;
    sls.pair = ibcc_topo_path_sls;
    T_EQ(ibcc_fabric_credit_loops_sl(&d, &sls, &o, NULL), IBCC_OK);
    T_CHECK(o.loops > 0);
    /* the adversarial pattern: minimal sends each group's 8 hosts over
       one global link, a hard cap of 1/8 of a link each; through LIDs
       1..7 the load spreads over 4 or 5 groups' links (2 hops each):
       3.2 times as many packets today (5485 against 1737); 2 times
       leaves room for scheduling changes, and a Valiant that did not
       leave the direct link (LID routes ignored) gives 1 */
    minimal = dfly_adversarial(&t, 0);
    valiant = dfly_adversarial(&t, 1);
    printf("  adversarial: minimal %llu, valiant %llu packets\n",
           (unsigned long long)minimal, (unsigned long long)valiant);
    T_CHECK(valiant > 2u * minimal);
    ibcc_topo_free(&t);
    /* every pair on every LID delivered: a 5-group dragonfly (a 2, p 1,
       h 2), 2 classes on 8 VLs */
    T_EQ(ibcc_topo_dragonfly_lmc(&t, 2, 1, 2, 5, IBCC_TOPO_VALIANT, 8, 2,
                                 NULL), IBCC_OK);
    {
        uint32_t n = 0, cls;
        ibcc_fabric_flow *fl;
        ibcc_fabric *f = NULL;
        ibcc_fabric_counters cn;
        ibcc_fabric_error e;
        H = t.host_count;
        fl = (ibcc_fabric_flow *)calloc((size_t)H * H * 8u, sizeof *fl);
        T_CHECK(fl != NULL);
        if (!fl) return;
        memset(&d, 0, sizeof d);
        ibcc_topo_apply(&t, &d);
        T_EQU(d.vls, 8);
        sls.pair_lid = ibcc_topo_path_sls_lid;
        T_EQ(ibcc_fabric_credit_loops_sl(&d, &sls, &o, NULL), IBCC_OK);
        T_EQU(o.loops, 0);
        for (s = 0; s < H; s++)
            for (k = 0; k < H; k++)
                for (lid = 0; lid < 4u && k != s; lid++)
                    for (cls = 0; cls < 2u; cls++) {
                        fl[n].src = s;
                        fl[n].dst = k;
                        fl[n].dlid = lid;
                        fl[n].sl = ibcc_topo_path_sl_lid(&t, s, k, lid, cls);
                        fl[n].packets = 2;
                        n++;
                    }
        d.flows = fl;
        d.flow_count = n;
        d.error = &e;
        T_EQ(ibcc_fabric_create(&f, &d), IBCC_OK);
        if (f) {
            T_EQ(ibcc_fabric_run_until(f, IBCC_MS(20)), IBCC_OK);
            T_EQ(ibcc_fabric_counters_get(f, &cn), IBCC_OK);
            T_EQU(cn.data_delivered, 2u * n);
        } else {
            printf("  %s\n", e.reason);
        }
        ibcc_fabric_destroy(f);
        /* a LID the host does not have is refused */
        fl[0].dlid = 4;
        T_EQ(ibcc_fabric_create(&f, &d), IBCC_ERR_RANGE);
        T_CHECK(strstr(e.reason, "dlid 4") != NULL);
        fl[0].dlid = 0;
        /* so is a route to one, and an LMC over 7 */
        t.routes[5].lid = 4;
        T_EQ(ibcc_fabric_create(&f, &d), IBCC_ERR_RANGE);
        T_CHECK(strstr(e.reason, "routes[5]: lid 4") != NULL);
        T_EQ(ibcc_fabric_credit_loops(&d, &o, NULL), IBCC_ERR_RANGE);
        t.routes[5].lid = 1;
        d.lmc = 8;
        T_EQ(ibcc_fabric_create(&f, &d), IBCC_ERR_RANGE);
        T_CHECK(strstr(e.reason, "lmc 8") != NULL);
        T_EQ(ibcc_fabric_credit_loops(&d, &o, NULL), IBCC_ERR_RANGE);
        free(fl);
    }
    ibcc_topo_free(&t);
    /* bad input */
    T_EQU(ibcc_topo_path_sl_lid(NULL, 0, 1, 0, 0), IBCC_FABRIC_NONE);
    T_EQU(ibcc_topo_path_sls_lid(NULL, 0, 1, 0), 0);
    T_EQU(ibcc_topo_valiant_group(NULL, 0, 1), IBCC_FABRIC_NONE);
    T_EQ(ibcc_topo_dragonfly_lmc(NULL, 4, 2, 2, 9, IBCC_TOPO_VALIANT, 4, 2,
                                 NULL), IBCC_ERR_NULL);
    /* one LID: a route's lid is not read (an embedder's old routes with
       garbage there still load) */
    T_EQ(ibcc_topo_dragonfly(&t, 2, 1, 2, 5, IBCC_TOPO_MINIMAL, 2, NULL),
         IBCC_OK);
    T_EQU(ibcc_topo_valiant_group(&t, 0, 1), IBCC_FABRIC_NONE);
    for (k = 0; k < t.route_count; k++) t.routes[k].lid = 0xBEEF;
    memset(&d, 0, sizeof d);
    ibcc_topo_apply(&t, &d);
    T_EQU(d.lmc, 0);
    run_all_pairs(&t, &d, 0);
    T_EQ(ibcc_fabric_credit_loops(&d, &o, NULL), IBCC_OK);
    T_EQU(o.loops, 0);
    ibcc_topo_free(&t);
    /* minimal routing with LMC: every LID takes the minimal route */
    T_EQ(ibcc_topo_dragonfly_lmc(&t, 4, 2, 2, 9, IBCC_TOPO_MINIMAL, 2, 1,
                                 NULL), IBCC_OK);
    H = t.host_count;
    for (k = 0, bad = 0; k < t.route_count; k += 2u * (t.node_count - H))
        for (s = 0; s < t.node_count - H; s++)
            bad += t.routes[k + s].port
                   != t.routes[k + t.node_count - H + s].port;
    T_EQU(bad, 0);
    memset(&d, 0, sizeof d);
    ibcc_topo_apply(&t, &d);
    T_EQ(ibcc_fabric_credit_loops(&d, &o, NULL), IBCC_OK);
    T_EQU(o.loops, 0);
    ibcc_topo_free(&t);
}

int main(void)
{
    T_RUN(test_fattree);
    T_RUN(test_nfly);
    T_RUN(test_mesh_torus);
    T_RUN(test_topo_errors);
    T_RUN(test_routes_pinned);
    T_RUN(test_topo_allocator);
    T_RUN(test_events_per_hop);
    T_RUN(test_split_runs_identical);
    T_RUN(test_credit_loops);
    T_RUN(test_vl_routing);
    T_RUN(test_valiant);
    return t_summary();
}
