/* Sources (L3 traffic): per-source generators against the pair flows they
   replace, exact message counts and order, the per-destination state's
   life, the GEN interface, refusals. */
#include "ibcc.h"
#include "t.h"

#define H 16u                   /* 4-ary 2-tree */

/* What the observer counts: delivered data packets per (src, dst),
   messages completed per (src, dst), and the order in which a source's
   messages completed. */
typedef struct obs {
    uint64_t pkts[H][H];
    uint64_t msgs[H][H];
    uint32_t first_dst[H][H];   /* ALLTOALL: k-th completed message's dst */
    uint32_t nfirst[H];
    uint32_t bad;               /* views that disagree with the packet */
} obs;

static void on_delivered(void *user, const ibcc_fabric_pkt *p)
{
    obs *o = (obs *)user;
    if (p->src >= H || p->dst >= H || p->node != p->dst) {
        o->bad++;
        return;
    }
    o->pkts[p->src][p->dst]++;
    if (p->last) {
        o->msgs[p->src][p->dst]++;
        if (o->nfirst[p->src] < H) o->first_dst[p->src][o->nfirst[p->src]++] = p->dst;
    }
}

static uint32_t hosts_[H];

/* The first H-1 data packets each host sends, by destination. */
static uint32_t sent_dst_[H][H], nsent_[H];
static void on_sent(void *user, const ibcc_fabric_pkt *p)
{
    (void)user;
    if (p->src < H && nsent_[p->src] < H - 1u)
        sent_dst_[p->src][nsent_[p->src]++] = p->dst;
}

static void tree(ibcc_topo *t)
{
    uint32_t i;
    T_EQ(ibcc_topo_fattree(t, 4, 2, NULL), IBCC_OK);
    for (i = 0; i < H; i++) hosts_[i] = i;
}

/* One run of uniform Poisson traffic at `load` of a link per host for
   `sim` ps, as pair flows (sources 0) or as sources (1): class 0's
   latency quantiles, generated packets per host, the observer's counts. */
typedef struct urun {
    double q[6];
    uint64_t gen[H];
    uint64_t delivered;
    uint64_t peak_queues;
} urun;

static const double qs_[6] = {0.1, 0.25, 0.5, 0.75, 0.9, 0.99};

static int uniform_run(int sources, uint64_t seed, double load, ibcc_time sim,
                       obs *o, urun *u)
{
    ibcc_topo t;
    ibcc_fabric_desc d;
    ibcc_fabric *f = NULL;
    static ibcc_fabric_flow fl[H * H];
    static ibcc_fabric_source sr[H];
    ibcc_fabric_counters c;
    uint32_t n = 0, i, k;
    ibcc_rate per_host = (ibcc_rate)(load * 1e9);
    int ok = 1;
    tree(&t);
    memset(&d, 0, sizeof d);
    memset(o, 0, sizeof *o);
    memset(u, 0, sizeof *u);
    (void)ibcc_topo_apply(&t, &d);
    if (sources) {
        T_EQ(ibcc_traffic_uniform_sources(hosts_, H, per_host, sr, H, &n),
             IBCC_OK);
        d.sources = sr;
        d.source_count = n;
    } else {
        T_EQ(ibcc_traffic_uniform(hosts_, H, per_host, fl, H * H, &n), IBCC_OK);
        d.flows = fl;
        d.flow_count = n;
    }
    d.seed = seed;
    d.observer.delivered = on_delivered;
    d.observer.user = o;
    if (ibcc_fabric_create(&f, &d) != IBCC_OK) { ibcc_topo_free(&t); return 0; }
    /* run in steps, checking conservation as it goes */
    for (k = 1; k <= 4u && ok; k++) {
        ok = ibcc_fabric_run_until(f, sim * k / 4u) == IBCC_OK
             && ibcc_fabric_check(f) == IBCC_OK;
    }
    for (k = 0; k < 6u && ok; k++) {
        ibcc_time lat = 0;
        ok = ibcc_fabric_latency_quantile(f, 0, qs_[k], &lat) == IBCC_OK;
        u->q[k] = (double)lat;
    }
    if (sources) {
        for (i = 0; i < H; i++) {
            ibcc_fabric_flow_stats st;
            T_EQ(ibcc_fabric_source_stats_get(f, i, &st), IBCC_OK);
            u->gen[i] = st.generated;
        }
    } else {
        for (i = 0; i < n; i++) {
            ibcc_fabric_flow_stats st;
            T_EQ(ibcc_fabric_flow_stats_get(f, i, &st), IBCC_OK);
            u->gen[fl[i].src] += st.generated;
        }
    }
    (void)ibcc_fabric_counters_get(f, &c);
    u->delivered = c.data_delivered;
    u->peak_queues = c.src_queues_peak;
    ibcc_fabric_destroy(f);
    ibcc_topo_free(&t);
    return ok;
}

/* Pearson's statistic of the per-pair delivered counts against equal
   shares (H*(H-1) cells, H*(H-1) - 1 degrees of freedom). */
static double pair_chi2(const obs *o)
{
    double tot = 0, e, x2 = 0;
    uint32_t i, j;
    for (i = 0; i < H; i++)
        for (j = 0; j < H; j++) tot += (double)o->pkts[i][j];
    e = tot / (double)(H * (H - 1u));
    for (i = 0; i < H; i++)
        for (j = 0; j < H; j++)
            if (i != j) x2 += ((double)o->pkts[i][j] - e)
                              * ((double)o->pkts[i][j] - e) / e;
    return x2;
}

/* The same traffic: offered load, per-destination shares and latency
   distribution of UNIFORM sources match the pair flows they replace on a
   16-host 4-ary 2-tree at 0.5 of a link per host (5 ms, about 19 000
   packets a run), over 4 seeds each. Margins:
   - packets generated per host: Poisson with mean m = 0.5 GB/s x 5 ms /
     2068 B = 1209; every host of every run within 5 sd (5 sqrt(m) = 174),
     the total of the 64 host-runs within 4 sd;
   - shares: Pearson's statistic over the 240 (src, dst) cells, df 239,
     below df + 5 sqrt(2 df) = 348 in every run (both forms);
   - latency quantiles (10% .. 99%): the two forms' means over 4 seeds
     differ by at most 4 standard errors of the difference, computed from
     the seed-to-seed spread, plus the histogram's 1/16 resolution. */
static void test_uniform_same_traffic(void)
{
    static obs o;
    urun u[2][4];
    double m = 0.5e9 * 5e-3 / 2068.0;
    int s, r;
    uint32_t i, k;
    for (s = 0; s < 2; s++)
        for (r = 0; r < 4; r++) {
            double tot = 0;
            T_CHECK(uniform_run(s, (uint64_t)(r + 1), 0.5, IBCC_MS(5), &o,
                                &u[s][r]));
            T_EQ(o.bad, 0);
            for (i = 0; i < H; i++) {
                T_NEAR((double)u[s][r].gen[i], m, 5.0 * sqrt(m));
                tot += (double)u[s][r].gen[i];
                T_EQ(o.pkts[i][i], 0);
            }
            T_NEAR(tot, m * H, 4.0 * sqrt(m * H));
            T_CHECK(pair_chi2(&o) < 239.0 + 5.0 * sqrt(2.0 * 239.0));
            if (s == 1) {
                /* per-destination state: at most the packets in flight,
                   far below the 240 pairs */
                T_CHECK(u[s][r].peak_queues > 0);
                T_CHECK(u[s][r].peak_queues < 120u);
            }
        }
    for (k = 0; k < 6u; k++) {
        double mean[2] = {0, 0}, var[2] = {0, 0}, se, tol;
        for (s = 0; s < 2; s++) {
            for (r = 0; r < 4; r++) mean[s] += u[s][r].q[k] / 4.0;
            for (r = 0; r < 4; r++)
                var[s] += (u[s][r].q[k] - mean[s]) * (u[s][r].q[k] - mean[s])
                          / 3.0;
        }
        se = sqrt(var[0] / 4.0 + var[1] / 4.0);
        tol = 4.0 * se + (mean[0] + mean[1]) / 2.0 / 16.0;
        if (getenv("T_VERBOSE") || !(fabs(mean[0] - mean[1]) <= tol))
            fprintf(stderr, "  q%.2f: flows %.0f ps, sources %.0f ps, "
                    "tol %.0f\n", qs_[k], mean[0], mean[1], tol);
        T_NEAR(mean[1], mean[0], tol);
    }
}

/* ALLTOALL GREEDY: every source sends exactly one message to every other
   host (messages = 0: one round), made in shift order from its own
   place, so that the host's round robin over its queues sends its first
   packets to src+1, src+2, ... (mod H); every pair gets exactly its
   packets; all per-destination state is gone at the end. */
static void test_alltoall_exact(void)
{
    ibcc_topo t;
    ibcc_fabric_desc d;
    ibcc_fabric *f = NULL;
    ibcc_fabric_source sr[H];
    ibcc_fabric_counters c;
    static obs o;
    uint32_t i, j;
    tree(&t);
    memset(&d, 0, sizeof d);
    memset(&o, 0, sizeof o);
    memset(sr, 0, sizeof sr);
    (void)ibcc_topo_apply(&t, &d);
    for (i = 0; i < H; i++) {
        sr[i].kind = IBCC_SOURCE_ALLTOALL;
        sr[i].flow.src = i;
        sr[i].flow.traffic = IBCC_TRAFFIC_GREEDY;
        sr[i].flow.msg_bytes = 5000;       /* 3 packets: 2068, 2068, 864 */
        sr[i].flow.agent = IBCC_AGENT_WINDOW;
        sr[i].flow.window = 2;
        sr[i].hosts = hosts_;
        sr[i].host_count = H;
    }
    d.sources = sr;
    d.source_count = H;
    d.observer.delivered = on_delivered;
    d.observer.sent = on_sent;
    d.observer.user = &o;
    memset(nsent_, 0, sizeof nsent_);
    T_EQ(ibcc_fabric_create(&f, &d), IBCC_OK);
    T_EQ(ibcc_fabric_run_until(f, IBCC_US(20)), IBCC_OK);
    T_EQ(ibcc_fabric_check(f), IBCC_OK);
    T_EQ(ibcc_fabric_run_until(f, IBCC_MS(2)), IBCC_OK);
    T_EQ(ibcc_fabric_check(f), IBCC_OK);
    for (i = 0; i < H; i++)
        for (j = 0; j < H; j++) {
            T_EQU(o.msgs[i][j], i == j ? 0u : 1u);
            T_EQU(o.pkts[i][j], i == j ? 0u : 3u);
        }
    for (i = 0; i < H; i++) {
        T_EQ(o.nfirst[i], H - 1u);
        T_EQ(nsent_[i], H - 1u);
        for (j = 0; j + 1u < H; j++) T_EQ(sent_dst_[i][j], (i + 1u + j) % H);
    }
    T_EQ(ibcc_fabric_counters_get(f, &c), IBCC_OK);
    T_EQU(c.src_msgs, H * (H - 1u));
    T_EQU(c.src_queues_peak, H * (H - 1u));
    T_EQU(c.src_queues, 0);          /* every queue idle and released */
    {
        ibcc_fabric_flow_stats st;
        T_EQ(ibcc_fabric_source_stats_get(f, 3, &st), IBCC_OK);
        T_EQU(st.msgs, H - 1u);
        T_EQU(st.delivered, 3u * (H - 1u));
        T_EQU(st.delivered_bytes, 5000u * (H - 1u));
        T_EQU(st.acks, 3u * (H - 1u));
        T_EQ(ibcc_fabric_source_stats_get(f, H, &st), IBCC_ERR_RANGE);
    }
    ibcc_fabric_destroy(f);
    ibcc_topo_free(&t);
}

/* GEN: a two-step exchange. Source 0 sends one message to host 5; host
   5's source answers only once it has arrived (kicked from the
   observer), then source 0 sends its second message only when the
   answer is in. Messages complete in dependency order, ids come back. */
typedef struct dep {
    ibcc_fabric *f;
    int got[3];                 /* step k's message delivered */
    uint32_t order[3], n;
    uint32_t ids[3];
    int asked0, asked5;
} dep;

static int gen_next(void *user, uint32_t source, ibcc_time now,
                    ibcc_fabric_msg *m)
{
    dep *g = (dep *)user;
    m->t = now;
    m->cls = 2;
    if (source == 0) {          /* host 0: step 0 at once, step 2 after 1 */
        if (g->asked0 == 0) {
            g->asked0 = 1;
            m->dst = 5; m->bytes = 3000; m->id = 100;
            return 1;
        }
        if (g->asked0 == 1 && g->got[1]) {
            g->asked0 = 2;
            m->dst = 5; m->bytes = 100; m->id = 102;
            return 1;
        }
        return 0;
    }
    if (g->asked5 == 0 && g->got[0]) {  /* host 5: step 1 after step 0 */
        g->asked5 = 1;
        m->dst = 0; m->bytes = 7000; m->id = 101;
        m->t = now + IBCC_US(1);
        return 1;
    }
    return 0;
}

static void gen_delivered(void *user, const ibcc_fabric_pkt *p)
{
    dep *g = (dep *)user;
    uint32_t step = p->msg - 100u;
    if (!p->last || p->source == IBCC_FABRIC_NONE || step > 2u) return;
    g->got[step] = 1;
    g->ids[g->n] = p->msg;
    g->order[g->n++] = step;
    /* the other side may go on */
    (void)ibcc_fabric_source_kick(g->f, p->source == 0 ? 1u : 0u);
}

static void test_gen_dependencies(void)
{
    ibcc_topo t;
    ibcc_fabric_desc d;
    ibcc_fabric_source sr[2];
    ibcc_fabric_class_stats cs;
    dep g;
    tree(&t);
    memset(&d, 0, sizeof d);
    memset(&g, 0, sizeof g);
    memset(sr, 0, sizeof sr);
    (void)ibcc_topo_apply(&t, &d);
    sr[0].kind = sr[1].kind = IBCC_SOURCE_GEN;
    sr[0].flow.src = 0;
    sr[1].flow.src = 5;
    sr[0].next = sr[1].next = gen_next;
    sr[0].user = sr[1].user = &g;
    d.sources = sr;
    d.source_count = 2;
    d.observer.delivered = gen_delivered;
    d.observer.user = &g;
    T_EQ(ibcc_fabric_create(&g.f, &d), IBCC_OK);
    T_EQ(ibcc_fabric_run_until(g.f, IBCC_MS(1)), IBCC_OK);
    T_EQ(ibcc_fabric_check(g.f), IBCC_OK);
    T_EQ(g.n, 3);
    T_EQ(g.order[0], 0); T_EQ(g.order[1], 1); T_EQ(g.order[2], 2);
    T_EQ(g.ids[0], 100); T_EQ(g.ids[1], 101); T_EQ(g.ids[2], 102);
    T_EQ(ibcc_fabric_class_stats_get(g.f, 2, &cs), IBCC_OK);
    T_EQU(cs.msgs, 3);
    T_EQU(cs.delivered_bytes, 3000u + 7000u + 100u);
    T_EQ(ibcc_fabric_source_kick(g.f, 2), IBCC_ERR_RANGE);
    T_EQ(ibcc_fabric_source_kick(NULL, 0), IBCC_ERR_NULL);
    ibcc_fabric_destroy(g.f);
    ibcc_topo_free(&t);
}

/* A GEN message to the source's own host stops the run with RANGE. */
static int gen_self(void *user, uint32_t source, ibcc_time now,
                    ibcc_fabric_msg *m)
{
    (void)user; (void)source;
    m->t = now;
    m->dst = 3;
    m->bytes = 100;
    return 1;
}

static void test_gen_bad_message(void)
{
    ibcc_topo t;
    ibcc_fabric_desc d;
    ibcc_fabric *f = NULL;
    ibcc_fabric_source sr;
    tree(&t);
    memset(&d, 0, sizeof d);
    memset(&sr, 0, sizeof sr);
    (void)ibcc_topo_apply(&t, &d);
    sr.kind = IBCC_SOURCE_GEN;
    sr.flow.src = 3;
    sr.next = gen_self;
    d.sources = &sr;
    d.source_count = 1;
    T_EQ(ibcc_fabric_create(&f, &d), IBCC_OK);
    T_EQ(ibcc_fabric_run_until(f, IBCC_US(10)), IBCC_ERR_RANGE);
    ibcc_fabric_destroy(f);
    ibcc_topo_free(&t);
}

/* Per-SL CCT on sources: one CCTI per SL in the host engine, queues
   made and released; per-QP CCT and MVCM are refused with a reason. */
static void test_refusals(void)
{
    ibcc_topo t;
    ibcc_fabric_desc d;
    ibcc_fabric *f = NULL;
    ibcc_fabric_source sr[H];
    ibcc_fabric_error err;
    uint32_t n = 0, i;
    tree(&t);
    memset(&d, 0, sizeof d);
    (void)ibcc_topo_apply(&t, &d);
    T_EQ(ibcc_traffic_uniform_sources(hosts_, H, IBCC_MBYTES(300), sr, H, &n),
         IBCC_OK);
    T_EQ(ibcc_traffic_uniform_sources(hosts_, H, IBCC_MBYTES(300), sr, 3, &n),
         IBCC_ERR_CAPACITY);
    T_EQ(n, H);
    T_EQ(ibcc_traffic_uniform_sources(hosts_, 1, IBCC_MBYTES(300), sr, H, &n),
         IBCC_ERR_RANGE);
    T_EQ(ibcc_traffic_uniform_sources(NULL, H, 1, sr, H, &n), IBCC_ERR_NULL);
    d.sources = sr;
    d.source_count = H;
    d.error = &err;
    for (i = 0; i < H; i++) sr[i].flow.agent = IBCC_AGENT_CCT;
    T_EQ(ibcc_fabric_create(&f, &d), IBCC_ERR_UNSUPPORTED);
    T_CHECK(strstr(err.reason, "per_sl") != NULL);
    d.cct.per_sl = 1;
    T_EQ(ibcc_fabric_create(&f, &d), IBCC_OK);
    T_EQ(ibcc_fabric_run_until(f, IBCC_US(500)), IBCC_OK);
    T_EQ(ibcc_fabric_check(f), IBCC_OK);
    ibcc_fabric_destroy(f);
    for (i = 0; i < H; i++) sr[i].flow.agent = IBCC_AGENT_MVCM;
    d.mvcm.ws = IBCC_NS(100);
    T_EQ(ibcc_fabric_create(&f, &d), IBCC_ERR_UNSUPPORTED);
    T_CHECK(strstr(err.reason, "MVCM") != NULL);
    for (i = 0; i < H; i++) sr[i].flow.agent = IBCC_AGENT_NONE;
    sr[2].flow.dst = 4;
    T_EQ(ibcc_fabric_create(&f, &d), IBCC_ERR_UNSUPPORTED);
    T_CHECK(strstr(err.reason, "sources[2]: flow.dst") != NULL);
    sr[2].flow.dst = 0;
    sr[3].kind = (ibcc_source_kind)9;
    T_EQ(ibcc_fabric_create(&f, &d), IBCC_ERR_RANGE);
    sr[3].kind = IBCC_SOURCE_UNIFORM;
    sr[4].flow.traffic = IBCC_TRAFFIC_GREEDY;
    T_EQ(ibcc_fabric_create(&f, &d), IBCC_ERR_UNSUPPORTED);
    sr[4].flow.traffic = IBCC_TRAFFIC_POISSON;
    sr[5].flow.src = 16;                 /* a switch */
    T_EQ(ibcc_fabric_create(&f, &d), IBCC_ERR_RANGE);
    sr[5].flow.src = 5;
    sr[6].kind = IBCC_SOURCE_GEN;         /* no next */
    T_EQ(ibcc_fabric_create(&f, &d), IBCC_ERR_NULL);
    sr[6].kind = IBCC_SOURCE_UNIFORM;
    d.sources = NULL;
    T_EQ(ibcc_fabric_create(&f, &d), IBCC_ERR_NULL);
    d.sources = sr;
    T_EQ(ibcc_fabric_create(&f, &d), IBCC_OK);
    ibcc_fabric_destroy(f);
    ibcc_topo_free(&t);
}

/* A LAW agent under load: queues whose law was cut stay while it
   recovers, and the packets and ACKs all come home (conservation), with
   the memory of queues bounded by what is in flight. */
static void test_law_queues(void)
{
    ibcc_topo t;
    ibcc_fabric_desc d;
    ibcc_fabric *f = NULL;
    ibcc_fabric_source sr[H];
    ibcc_fabric_counters c;
    uint32_t n = 0, i;
    tree(&t);
    memset(&d, 0, sizeof d);
    (void)ibcc_topo_apply(&t, &d);
    T_EQ(ibcc_traffic_uniform_sources(hosts_, H, IBCC_MBYTES(900), sr, H, &n),
         IBCC_OK);
    for (i = 0; i < H; i++) {
        sr[i].flow.agent = IBCC_AGENT_LAW;
        sr[i].flow.window = 4;
        sr[i].flow.stop = IBCC_US(400);
    }
    d.sources = sr;
    d.source_count = H;
    d.marker.engine = IBCC_MARKER_INPUT;
    T_EQ(ibcc_fabric_create(&f, &d), IBCC_OK);
    T_EQ(ibcc_fabric_run_until(f, IBCC_US(300)), IBCC_OK);
    T_EQ(ibcc_fabric_check(f), IBCC_OK);
    T_EQ(ibcc_fabric_run_until(f, IBCC_MS(20)), IBCC_OK);
    T_EQ(ibcc_fabric_check(f), IBCC_OK);
    T_EQ(ibcc_fabric_counters_get(f, &c), IBCC_OK);
    T_EQU(c.in_flight, 0);
    T_CHECK(c.src_msgs > 1000u);
    T_CHECK(c.src_queues_peak <= H * (H - 1u));
    ibcc_fabric_destroy(f);
    ibcc_topo_free(&t);
}

/* Out of memory at every allocation in turn, at creation and while
   queues are made during the run: NOMEM (nothing else), and every block
   comes back at destroy. */
static void test_nomem(void)
{
    ibcc_topo t;
    ibcc_fabric_desc d;
    ibcc_fabric_source sr[H];
    uint32_t n = 0;
    int k, made = 0, ran_out = 0;
    tree(&t);
    memset(&d, 0, sizeof d);
    (void)ibcc_topo_apply(&t, &d);
    T_EQ(ibcc_traffic_uniform_sources(hosts_, H, IBCC_MBYTES(500), sr, H, &n),
         IBCC_OK);
    d.sources = sr;
    d.source_count = H;
    for (k = 0; k < 400; k++) {
        t_alloc_ctl c;
        ibcc_fabric *f = NULL;
        ibcc_result r;
        c.live = 0;
        c.fail_after = k;
        d.allocator.alloc = t_alloc;
        d.allocator.free = t_free;
        d.allocator.user = &c;
        r = ibcc_fabric_create(&f, &d);
        if (r == IBCC_OK) {
            made++;
            r = ibcc_fabric_run_until(f, IBCC_US(50));
            T_CHECK(r == IBCC_OK || r == IBCC_ERR_NOMEM);
            ran_out += r == IBCC_ERR_NOMEM;
            ibcc_fabric_destroy(f);
        } else {
            T_EQ(r, IBCC_ERR_NOMEM);
        }
        T_EQ(c.live, 0);
    }
    T_CHECK(made > 0);
    T_CHECK(ran_out > 0);          /* some limits hit during the run */
    ibcc_topo_free(&t);
}

/* Sources on two VLs (SL s on VL s & 1 at every port): GEN sources whose
   messages alternate SLs 0 and 1 (sls 0x3) to every other host; each
   packet reaches its destination on its SL's VL, every message arrives,
   no queue is left. A conflict in the switches' tables for an SL a
   source may use is refused at creation and named; an SL dropped, an SL
   outside sls, and sls on a UNIFORM source are refused. */
typedef struct vlgen {
    uint32_t sent[H];           /* per source: messages given */
    uint64_t onvl[2], wrongvl, msgs[2];
} vlgen;

static int vl_next(void *user, uint32_t source, ibcc_time now,
                   ibcc_fabric_msg *m)
{
    vlgen *g = (vlgen *)user;
    uint32_t k = g->sent[source];
    if (k >= 2u * (H - 1u)) return 0;
    g->sent[source]++;
    m->t = now;
    m->dst = (source + 1u + k % (H - 1u)) % H;
    m->bytes = 3000;
    m->sl = k / (H - 1u);        /* a round on SL 0, then one on SL 1 */
    m->id = k;
    return 1;
}

static void vl_delivered(void *user, const ibcc_fabric_pkt *p)
{
    vlgen *g = (vlgen *)user;
    uint32_t sl = p->msg / (H - 1u);
    if (p->source == IBCC_FABRIC_NONE || sl > 1u) return;
    if (p->vl == sl) g->onvl[sl]++; else g->wrongvl++;
    if (p->last) g->msgs[sl]++;
}

static int gen_sl5(void *user, uint32_t source, ibcc_time now,
                   ibcc_fabric_msg *m)
{
    (void)user; (void)source;
    m->t = now;
    m->dst = 7;
    m->bytes = 100;
    m->sl = 5;
    return 1;
}

static void test_vl_sources(void)
{
    ibcc_topo t;
    ibcc_fabric_desc d;
    ibcc_fabric *f = NULL;
    ibcc_fabric_source sr[H];
    ibcc_fabric_counters c;
    ibcc_fabric_error err;
    ibcc_fabric_sl2vl io[8];
    vlgen g;
    uint32_t i, s, sw = 0, port = 0, nio = 0;
    tree(&t);
    memset(&d, 0, sizeof d);
    memset(&g, 0, sizeof g);
    memset(sr, 0, sizeof sr);
    (void)ibcc_topo_apply(&t, &d);
    d.vls = 2;
    d.sl2vl_set = 1;
    for (s = 0; s < 16u; s++) d.sl2vl[s] = (uint8_t)(s & 1u);
    d.error = &err;
    for (i = 0; i < H; i++) {
        sr[i].kind = IBCC_SOURCE_GEN;
        sr[i].flow.src = i;
        sr[i].next = vl_next;
        sr[i].user = &g;
        sr[i].sls = 0x3;
    }
    d.sources = sr;
    d.source_count = H;
    d.observer.delivered = vl_delivered;
    d.observer.user = &g;
    T_EQ(ibcc_fabric_create(&f, &d), IBCC_OK);
    if (!f) return;
    T_EQ(ibcc_fabric_run_until(f, IBCC_MS(1)), IBCC_OK);
    T_EQ(ibcc_fabric_check(f), IBCC_OK);
    T_EQU(g.msgs[0], H * (H - 1u));
    T_EQU(g.msgs[1], H * (H - 1u));
    T_EQU(g.onvl[0], H * (H - 1u) * 2u);      /* 3000 bytes: 2 packets */
    T_EQU(g.onvl[1], H * (H - 1u) * 2u);
    T_EQU(g.wrongvl, 0);
    T_EQ(ibcc_fabric_counters_get(f, &c), IBCC_OK);
    T_EQU(c.src_queues, 0);
    T_CHECK(c.src_queues_peak > 0);
    ibcc_fabric_destroy(f);
    f = NULL;
    /* a table at host 0's leaf that sends SL 0 and SL 2 (both VL 0
       from host 0) on to the leaf's other hosts on VLs 1 and 0 */
    for (i = 0; i < d.link_count; i++)
        if (d.links[i].a == 0 || d.links[i].b == 0) {
            sw = d.links[i].a == 0 ? d.links[i].b : d.links[i].a;
            port = d.links[i].a == 0 ? d.links[i].b_port : d.links[i].a_port;
        }
    memset(io, 0, sizeof io);
    for (i = 0; i < d.link_count; i++) {
        uint32_t hp;            /* the leaf's ports to its other hosts */
        if (d.links[i].a == sw && d.links[i].b < H && d.links[i].b != 0)
            hp = d.links[i].a_port;
        else if (d.links[i].b == sw && d.links[i].a < H && d.links[i].a != 0)
            hp = d.links[i].b_port;
        else
            continue;
        io[nio].sw = sw;
        io[nio].in_port = port;
        io[nio].out_port = hp;
        for (s = 0; s < 16u; s++) io[nio].vl[s] = (uint8_t)(s & 1u);
        io[nio].vl[0] = 1;
        nio++;
    }
    d.sl2vls = io;
    d.sl2vl_count = nio;
    sr[0].sls = 0x5;
    memset(&err, 0, sizeof err);
    T_EQ(ibcc_fabric_create(&f, &d), IBCC_ERR_UNSUPPORTED);
    T_CHECK(f == NULL);
    T_CHECK(strstr(err.reason, "sources[0]: SL 2 to host node") != NULL);
    T_CHECK(strstr(err.reason, "one VL per input VL and output") != NULL);
    sr[0].sls = 0x3;              /* SL 0 alone on VL 0 out of that port */
    memset(&g, 0, sizeof g);
    T_EQ(ibcc_fabric_create(&f, &d), IBCC_OK);
    if (f) {
        T_EQ(ibcc_fabric_run_until(f, IBCC_MS(1)), IBCC_OK);
        T_EQ(ibcc_fabric_check(f), IBCC_OK);
        T_EQU(g.msgs[0] + g.msgs[1], 2u * H * (H - 1u));
        ibcc_fabric_destroy(f);
        f = NULL;
    }
    d.sl2vls = NULL;
    d.sl2vl_count = 0;
    /* an SL the host's table drops */
    d.sl2vl[4] = 15;
    sr[3].sls = 0x13;
    T_EQ(ibcc_fabric_create(&f, &d), IBCC_ERR_RANGE);
    T_CHECK(strstr(err.reason, "sources[3]: SL 4: host node 3") != NULL);
    sr[3].sls = 0x3;
    /* a message on an SL outside sls stops the run */
    sr[2].next = gen_sl5;
    T_EQ(ibcc_fabric_create(&f, &d), IBCC_OK);
    if (f) {
        T_EQ(ibcc_fabric_run_until(f, IBCC_US(10)), IBCC_ERR_RANGE);
        ibcc_fabric_destroy(f);
        f = NULL;
    }
    sr[2].next = vl_next;
    /* sls: GEN only, SLs 0..15 */
    sr[1].sls = 0x10000;
    T_EQ(ibcc_fabric_create(&f, &d), IBCC_ERR_RANGE);
    T_CHECK(strstr(err.reason, "sources[1]: sls") != NULL);
    sr[1].sls = 0x3;
    sr[1].kind = IBCC_SOURCE_UNIFORM;
    sr[1].hosts = hosts_;
    sr[1].host_count = H;
    sr[1].flow.traffic = IBCC_TRAFFIC_POISSON;
    sr[1].flow.offered = IBCC_MBYTES(100);
    T_EQ(ibcc_fabric_create(&f, &d), IBCC_ERR_RANGE);
    T_CHECK(strstr(err.reason, "GEN only") != NULL);
    ibcc_topo_free(&t);
}

int main(void)
{
    T_RUN(test_uniform_same_traffic);
    T_RUN(test_alltoall_exact);
    T_RUN(test_gen_dependencies);
    T_RUN(test_gen_bad_message);
    T_RUN(test_refusals);
    T_RUN(test_law_queues);
    T_RUN(test_nomem);
    T_RUN(test_vl_sources);
    return t_summary();
}
