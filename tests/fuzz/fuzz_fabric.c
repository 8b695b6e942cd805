/* Fuzz harness: the fabric (layer L3) built from decoded topologies,
   engines and flows, run in a few steps and checked through its public
   API after every step.

   Input, in order (reads past the end give zeros):
   - a topology: a k-ary n-tree or a k-ary n-fly (ibcc_topo_fattree /
     ibcc_topo_nfly), a mesh or torus (ibcc_topo_mesh), the two-switch
     topology (ibcc_twoswitch_build, optionally with its own flows), or a
     random tree of switches and hosts with its shortest routes; then
     optional damage (a route or link pointing nowhere, a switch as a
     route's destination, routes dropped) and per-link rate and
     propagation overrides (mismatched speeds);
   - the switch kind of the desc and of every node (VCT, CIOQ, 0 = the
     desc's, rarely WORMHOLE, or an unknown kind), buffers and credits,
     ACK buffers,
     speedup, CIOQ output buffers, host_cap, nic_fifo, forwarding delay,
     packet size, the arbiter, the marker (every engine and its
     thresholds), the destination echo (ECN, IBA with CNPs or UD, MVPM),
     the law of LAW flows (every kind and form, a custom pair), the CCT
     agent (settings, SLs, a table of its own with any entries) and the
     MVCM agent, stats bins, seed, loop capacity and a memory limit;
   - with a WORMHOLE desc kind, mostly a fabric the wormhole model
     accepts (every switch wormhole, one link rate with a whole number of
     ps per byte, no NIC FIFO, host cap or marking, agents NONE without
     windows, slack over the round trip), STOP/GO marks, switch priority
     and the segment rule;
   - up to 12 flows: endpoints, traffic (GREEDY, ONOFF, RATE, POISSON, PUSH),
     agent (NONE, WINDOW, LAW, FIXED, CCT, MVCM, DCQCN, HPCC), window, size, class,
     persistence, start, stop, ON/OFF means, offered load, fixed rate,
     packet limit, start_after, message size, exponential message
     lengths, priority (wormhole only);
   - the run: up to 5 steps, an optional stats reset, and how the twin
     run splits its steps;
   - PFC links (when nothing else is bad): XOFF, XON, size, quanta and
     refresh from anywhere, packet slots and credits derived or drawn.
   Every field is drawn mostly from a zone where any combination must be
   accepted ("sure"), sometimes from anywhere in its documented range
   (accepted or refused with an error code, never a crash) and sometimes
   outside it ("bad": ibcc_fabric_create must refuse it). Leading bytes
   allow wild (whole-range) and bad values for the desc and for each
   flow, so that most inputs build a fabric. The simulated time is
   scaled down so that the work is bounded whatever the rates (at most
   about BUDGET packet transmissions and generations), and is at most
   IBCC_FABRIC_MAX_TIME. FZ_FABRIC_DUMP=1 prints the decoded input.

   Checked after every step (docs/robustness.md lists the properties):
   - create: bad -> an error and *out NULL; sure (and enough memory) ->
     OK; NOMEM only when the allocator refused; an accepted fabric runs
     without error unless a memory limit or a loop capacity it was given
     runs out; every byte allocated is freed;
   - ibcc_fabric_check == OK; now is the time asked; run_until into the
     past (PAST) or beyond IBCC_FABRIC_MAX_TIME (RANGE) is refused and
     changes nothing;
   - counters: in_flight = injected - delivered, delivered <= injected,
     bytes_in_network = bytes_sent - bytes_delivered with bytes_delivered
     <= bytes_sent; data_delivered, bytes_sent and bytes_delivered equal
     the flows' sums; replies (ACK/CNP) made = injected - generated and
     consumed = delivered - delivered data, exactly one ACK per delivered
     data packet and one consumed per ACK counted when no CNP can exist;
   - per flow: delivered <= sent <= generated (= sent for greedy packets),
     the packet limit, bytes = packets x size (<= with messages),
     messages, marks, validations and ACKs bounded by deliveries, the
     latency histogram sums to the deliveries, min <= mean <= max (the
     sum may saturate: then mean <= max), the
     window (or MVCM's DWmax) bounds sent - acks, nothing generated before
     the start or before start_after deliveries, nothing after the stop,
     and a RATE flow's exact generation count;
   - per class: flows, every counter and sum equal the flows' sums,
     lat_min / lat_max the flows' min / max, msg_time_max <= lat_max,
     quantiles monotone in q within [lat_min, lat_max] with q = 1 giving
     lat_max, NOT_FOUND when nothing was delivered, RANGE for bad q/cls;
   - with bins: a flow's binned bytes total its delivered bytes (when the
     run is inside the bins), for every channel and several windows the
     flows crossing it sum to at most the channel's bytes, the channel's
     bins are its data plus the ACK bytes of the flows whose ACKs cross
     it (exactly when no CNP exists), at most its total; bad windows are
     RANGE;
   - ibcc_fabric_channel_totals: busy <= elapsed, bytes equal and busy at
     most what the link_busy observer reported, transmissions on a
     channel never overlap and each lasts its wire time;
   - observer: sent at the flow's source, delivered at its destination in
     generation order, t_gen <= t_inject <= t, marks at switches;
   - wormhole fabrics: the same, except what needs fixed packet sizes or
     link_busy reports (worms are reported on lane 2); no reply is made;
   - determinism: a second fabric from the same desc, its steps possibly
     cut into more run_until calls, gives identical counters, flow and
     class stats, channel totals, observer event hash and results. */
#include "fuzz.h"
#include <math.h>

#define MAXN 160u                  /* nodes */
#define MAXL 200u                  /* links */
#define MAXR 800u                  /* routes */
#define MAXF 12u                   /* flows */
#define MAXCH (2u * MAXL)
#define MAXSTEP 5u
#define NQ 7u
#define BUDGET 6000.0              /* transmissions + generations */

/* ---- input helpers ------------------------------------------------------ */
typedef struct ctx {
    fz in;
    int sure;                      /* every choice in its sure zone */
    int bad;                       /* some choice outside its range */
    int sure_line, bad_line;       /* where they were last changed (for
                                      the messages) */
    int allow_bad;                 /* this part of the input may choose
                                      values outside their ranges */
    int allow_wild;                /* ... and anywhere in their ranges
                                      (else only in the sure zones) */
} ctx;

#define BAD(c) ((c)->bad = 1, (c)->bad_line = __LINE__)
#define UNSURE(c) ((c)->sure = 0, (c)->sure_line = __LINE__)

/* Log-uniform value in [lo, hi]: a bit length between those of lo and
   hi, then that many random bits with the top one set (reads only the
   bytes it needs), clamped into [lo, hi]. */
static unsigned bitlen(uint64_t x)
{
    unsigned n = 0;
    while (n < 64u && (x >> n) != 0) n++;
    return n;
}
static uint64_t lu(fz *f, uint64_t lo, uint64_t hi)
{
    uint64_t v = 0;
    unsigned lb, hb, e, k;
    if (hi <= lo) return lo;
    lb = bitlen(lo);
    hb = bitlen(hi);
    e = lb + fz_below(f, hb - lb + 1u);
    for (k = 0; k < (e + 7u) / 8u; k++) v |= (uint64_t)fz_u8(f) << (8u * k);
    if (e < 64u) v &= ((uint64_t)1 << e) - 1u;
    if (e > 0) v |= (uint64_t)1 << (e - 1u);
    if (v < lo) v = lo;
    if (v > hi) v = hi;
    return v;
}

/* A field: mostly in the sure zone [slo, shi]; sometimes anywhere in the
   valid range [vlo, vhi] (or one of its edges), clearing c->sure when
   outside the zone; sometimes in [blo, bhi] (outside the valid range:
   c->bad), when blo <= bhi. */
static uint64_t pick_(ctx *c, int line, uint64_t slo, uint64_t shi,
                      uint64_t vlo, uint64_t vhi, uint64_t blo, uint64_t bhi)
{
    uint8_t sel = fz_u8(&c->in);
    uint64_t v;
    if (sel < 200u || (!c->allow_wild && (sel < 252u || !c->allow_bad)))
        return lu(&c->in, slo, shi);
    if (sel < 244u) v = lu(&c->in, vlo, vhi);
    else if (sel < 252u || blo > bhi || !c->allow_bad)
        v = (sel & 1u) ? vhi : vlo;
    else {
        BAD(c);
        c->bad_line = line;
        return lu(&c->in, blo, bhi);
    }
    if (v < slo || v > shi) { c->sure = 0; c->sure_line = line; }
    return v;
}
#define pick(c, ...) pick_((c), __LINE__, __VA_ARGS__)

/* One of n choices, the first `ok` valid (one byte: 250 of 256 values
   give a valid choice); the others set bad. */
static uint32_t choice_(ctx *c, int line, uint32_t ok, uint32_t n)
{
    uint8_t b = fz_u8(&c->in);
    if (b < 250u || ok >= n || !c->allow_bad) return b % ok;
    c->bad = 1;
    c->bad_line = line;
    return ok + b % (n - ok);
}
#define choice(c, ok, n) choice_((c), __LINE__, (ok), (n))

static int chance(ctx *c, unsigned in256)
{
    return fz_u8(&c->in) < in256;
}

/* A switch kind: WORMHOLE with chance worm/256, else 0 (the desc's),
   VCT or CIOQ, or (bad allowed) an unknown kind. */
static ibcc_switch_kind switch_kind_(ctx *c, int line, unsigned worm)
{
    uint8_t b = fz_u8(&c->in);
    if (b < worm) return IBCC_SWITCH_WORMHOLE;
    if (b >= 250u && c->allow_bad) {
        c->bad = 1;
        c->bad_line = line;
        return (ibcc_switch_kind)(4u + (b & 1u));
    }
    return (ibcc_switch_kind)(b % 3u);
}
#define switch_kind(c, worm) switch_kind_((c), __LINE__, (worm))

/* A chance of damage, only where bad values are allowed (high bytes:
   an input that ran out, all zeros, does no damage). */
static int harm(ctx *c, unsigned in256)
{
    return fz_u8(&c->in) >= 256u - in256 && c->allow_bad;
}

/* ---- a counting allocator with a limit ------------------------------------ */
typedef struct memacct {
    uint64_t live, limit, peak;
    uint64_t blocks;
    int refused;
} memacct;

static void *ma_alloc(void *user, size_t n)
{
    memacct *m = (memacct *)user;
    unsigned char *p;
    if (n > m->limit || m->live > m->limit - n) { m->refused = 1; return NULL; }
    p = (unsigned char *)malloc(n + 16u);
    if (!p) { m->refused = 1; return NULL; }
    memcpy(p, &n, sizeof n);
    m->live += n;
    m->blocks++;
    if (m->live > m->peak) m->peak = m->live;
    return p + 16;
}

static void ma_free(void *user, void *ptr)
{
    memacct *m = (memacct *)user;
    unsigned char *p = (unsigned char *)ptr - 16;
    size_t n;
    memcpy(&n, p, sizeof n);
    FZ_CHECK(m->blocks > 0 && m->live >= n, "free of %zu bytes, %llu live",
             n, (unsigned long long)m->live);
    m->live -= n;
    m->blocks--;
    free(p);
}

/* ---- the decoded configuration -------------------------------------------- */
typedef struct cfg {
    ibcc_fabric_desc d;
    ibcc_fabric_node nodes[MAXN];
    ibcc_fabric_link links[MAXL];
    ibcc_fabric_route routes[MAXR];
    ibcc_fabric_flow flows[MAXF];
    uint32_t hosts[MAXN], nhosts, nsw;
    uint8_t flow_sl[256];
    uint16_t cct_table[8];
    int routes_whole;              /* routes unchanged from a builder */
    int worm;                      /* every switch WORMHOLE */
    int worm_forced;               /* decode_wormhole made one */
    int run_may_fail;              /* memory limit or loop capacity */
    int law_used_bad, cct_bad, mvcm_bad, cct_sure;
    ibcc_time t_in;                /* requested run length */
    uint32_t nsteps;
    uint16_t step_frac[MAXSTEP];
    int reset_at;                  /* step index after which stats reset, -1 */
    uint8_t split;                 /* twin run: cut steps into more calls */
    memacct mem;
    /* effective values (after defaults) */
    uint32_t data_size, ack_bytes, cnp_bytes;
    ibcc_rate link_rate;
    uint32_t mvcm_dw_max;
} cfg;

static double cf_inc(double x, void *u) { (void)u; return x * 1.25 + 0.001; }
static double cf_dec(double x, void *u) { (void)u; return x * 0.5; }

/* ---- topologies ----------------------------------------------------------- */
static int take_topo(ctx *c, cfg *g, const ibcc_topo *t)
{
    if (t->node_count > MAXN || t->link_count > MAXL || t->route_count > MAXR)
        return 0;
    memcpy(g->nodes, t->nodes, t->node_count * sizeof *g->nodes);
    memcpy(g->links, t->links, t->link_count * sizeof *g->links);
    memcpy(g->routes, t->routes, t->route_count * sizeof *g->routes);
    g->d.node_count = t->node_count;
    g->d.link_count = t->link_count;
    g->d.route_count = t->route_count;
    (void)c;
    return 1;
}

/* A random tree of 1..5 switches with 2..10 hosts on them, spare ports,
   shuffled port numbers and the unique (shortest) routes. */
static int random_tree(ctx *c, cfg *g)
{
    uint32_t nsw = fz_range(&c->in, 1, 5), nh = fz_range(&c->in, 2, 10);
    uint32_t parent[5], att[10], ports[5], used[5], perm[5][16];
    uint32_t i, s, h, nl = 0, nr = 0;
    uint32_t up_port[5], child_port[5], host_port[10];
    for (s = 0; s < nsw; s++) {
        parent[s] = s ? fz_below(&c->in, s) : 0;
        used[s] = 0;
    }
    for (h = 0; h < nh; h++) att[h] = fz_below(&c->in, nsw);
    /* ports: hosts, children, parent, 0..2 spare; at most 16 */
    for (s = 0; s < nsw; s++) {
        uint32_t need = (s ? 1u : 0u);
        for (h = 0; h < nh; h++) need += att[h] == s;
        for (i = 1; i < nsw; i++) need += parent[i] == s;
        need += fz_below(&c->in, 3);
        if (need > 16u) return 0;
        if (need == 0) need = 1;
        ports[s] = need;
        for (i = 0; i < need; i++) perm[s][i] = i;
        for (i = need; i-- > 1;) {          /* Fisher-Yates from the input */
            uint32_t j = fz_below(&c->in, i + 1u), x = perm[s][i];
            perm[s][i] = perm[s][j];
            perm[s][j] = x;
        }
    }
    /* nodes: hosts 0..nh-1, switch s = nh + s */
    for (h = 0; h < nh; h++) {
        g->nodes[h].kind = IBCC_FABRIC_HOST;
        g->nodes[h].ports = fz_below(&c->in, 8) == 0 ? 0u : 1u;
    }
    for (s = 0; s < nsw; s++) {
        g->nodes[nh + s].kind = IBCC_FABRIC_SWITCH;
        g->nodes[nh + s].ports = ports[s];
    }
    for (h = 0; h < nh; h++) {
        ibcc_fabric_link *k = &g->links[nl++];
        s = att[h];
        host_port[h] = perm[s][used[s]++];
        k->a = h; k->a_port = 0;
        k->b = nh + s; k->b_port = host_port[h];
        if (fz_u8(&c->in) & 1u) {             /* either direction */
            k->a = nh + s; k->a_port = host_port[h]; k->b = h; k->b_port = 0;
        }
    }
    for (s = 1; s < nsw; s++) {
        ibcc_fabric_link *k = &g->links[nl++];
        child_port[s] = perm[parent[s]][used[parent[s]]++];
        up_port[s] = perm[s][used[s]++];
        k->a = nh + s; k->a_port = up_port[s];
        k->b = nh + parent[s]; k->b_port = child_port[s];
    }
    /* routes: at switch s toward host h: down to the child whose subtree
       holds att[h], or the host port, or up */
    for (s = 0; s < nsw; s++)
        for (h = 0; h < nh; h++) {
            ibcc_fabric_route *r = &g->routes[nr++];
            uint32_t x = att[h], prev = x;
            r->sw = nh + s;
            r->dst = h;
            if (x == s) { r->port = host_port[h]; continue; }
            /* walk from att[h] up to the root; if s is on the way, go
               down toward the switch we came from */
            r->port = s ? up_port[s] : 0;
            while (x != 0) {
                prev = x;
                x = parent[x];
                if (x == s) { r->port = child_port[prev]; break; }
            }
            if (x != s && s == 0) r->port = 0xffffu;  /* not reached (no port) */
        }
    for (i = 0; i < nr; i++)
        if (g->routes[i].port == 0xffffu) return 0;
    g->d.node_count = nh + nsw;
    g->d.link_count = nl;
    g->d.route_count = nr;
    return 1;
}

static int decode_topology(ctx *c, cfg *g)
{
    uint32_t sel = fz_below(&c->in, 5), i;
    ibcc_topo t;
    ibcc_result r = IBCC_OK;
    int ok = 1;
    memset(&t, 0, sizeof t);
    g->routes_whole = 1;
    if (sel <= 1u) {
        /* k^n hosts, at most 16 here (valid k >= 2, n >= 1) */
        static const uint8_t kn[8][2] = { {2,1}, {2,2}, {2,3}, {2,4}, {3,1},
                                          {3,2}, {4,1}, {4,2} };
        uint32_t v = fz_below(&c->in, 10), k, n;
        if (v < 8u) { k = kn[v][0]; n = kn[v][1]; }
        else { k = v == 8u ? 1u : 2u; n = v == 8u ? 2u : 0u; }
        r = sel == 0u ? ibcc_topo_fattree(&t, k, n, NULL)
                      : ibcc_topo_nfly(&t, k, n, NULL);
        FZ_CHECK((v < 8u) == (r == IBCC_OK), "tree builder k %u n %u: %s", k,
                 n, ibcc_result_str(r));
    } else if (sel == 2u) {
        uint32_t x = fz_range(&c->in, 0, 3), y = fz_range(&c->in, 1, 3);
        uint32_t hps = fz_range(&c->in, 0, 2), root = fz_below(&c->in, 10);
        int torus = fz_u8(&c->in) & 1;
        r = ibcc_topo_mesh(&t, x, y, hps, torus, root, NULL);
        FZ_CHECK((x >= 1 && hps >= 1 && root < x * y) == (r == IBCC_OK),
                 "mesh %u x %u hps %u root %u: %s", x, y, hps, root,
                 ibcc_result_str(r));
    } else if (sel == 3u) {
        static ibcc_twoswitch ts;
        ibcc_fabric_desc dd;
        uint32_t L = fz_range(&c->in, 1, 6), R = fz_range(&c->in, 1, 6);
        uint32_t v = fz_u8(&c->in);
        if (v >= 250u) { L = v & 1u ? 0u : 65u; }
        else if (v >= 244u) { L = 64u; }
        memset(&dd, 0, sizeof dd);
        r = ibcc_twoswitch_build(&ts, L, R, &dd);
        FZ_CHECK((L >= 1 && L <= 64 && R >= 1 && R <= 64) == (r == IBCC_OK),
                 "twoswitch %u %u: %s", L, R, ibcc_result_str(r));
        if (r != IBCC_OK) return 0;
        memcpy(g->nodes, ts.nodes, ts.node_count * sizeof *g->nodes);
        memcpy(g->links, ts.links, ts.link_count * sizeof *g->links);
        memcpy(g->routes, ts.routes, ts.route_count * sizeof *g->routes);
        g->d.node_count = ts.node_count;
        g->d.link_count = ts.link_count;
        g->d.route_count = ts.route_count;
        if (fz_u8(&c->in) & 1u) {            /* its own flows, first ones */
            uint32_t nf = ts.flow_count < MAXF ? ts.flow_count : MAXF;
            memcpy(g->flows, ts.flows, nf * sizeof *g->flows);
            g->d.flow_count = nf;
        }
    } else {
        ok = random_tree(c, g);
        if (!ok) return 0;
    }
    if (sel <= 2u) {
        if (r != IBCC_OK) { ibcc_topo_free(&t); return 0; }
        ok = take_topo(c, g, &t);
        ibcc_topo_free(&t);
        if (!ok) return 0;
    }
    /* hosts and switches */
    g->nhosts = g->nsw = 0;
    for (i = 0; i < g->d.node_count; i++) {
        if (g->nodes[i].kind == IBCC_FABRIC_HOST) g->hosts[g->nhosts++] = i;
        else g->nsw++;
    }
    if (chance(c, 10) && g->d.route_count) {   /* fewer routes: maybe
                                                  unreachable */
        g->d.route_count = fz_below(&c->in, g->d.route_count);
        g->routes_whole = 0;
        UNSURE(c);
    }
    /* damage: each refused at create */
    if (harm(c, 40) && g->d.route_count && g->nsw) {
        ibcc_fabric_route *x = &g->routes[fz_below(&c->in, g->d.route_count)];
        uint32_t k;
        switch (fz_below(&c->in, 4)) {
        case 0: x->port = g->nodes[x->sw].ports + fz_below(&c->in, 3); break;
        case 1: x->dst = g->d.node_count + fz_below(&c->in, 3); break;
        case 2: x->sw = g->hosts[fz_below(&c->in, g->nhosts)]; break;
        default:
            for (k = 0; g->nodes[k].kind != IBCC_FABRIC_SWITCH; k++) {}
            x->dst = k;
            break;
        }
        BAD(c);
        g->routes_whole = 0;
    }
    if (harm(c, 20)) {
        ibcc_fabric_link *k = &g->links[fz_below(&c->in, g->d.link_count)];
        if (fz_u8(&c->in) & 1u) k->b = g->d.node_count + fz_below(&c->in, 3);
        else k->a_port = (g->nodes[k->a].kind == IBCC_FABRIC_HOST
                          ? 1u : g->nodes[k->a].ports) + fz_below(&c->in, 3);
        BAD(c);
    }
    /* per-link rate and propagation overrides */
    for (i = 0; i < g->d.link_count; i++) {
        if (chance(c, 40))
            g->links[i].rate = pick(c, IBCC_MBYTES(100), IBCC_GBYTES(50), 1u,
                                    UINT64_MAX, 1, 0);
        if (chance(c, 24))
            g->links[i].prop = pick(c, 1, IBCC_US(2), 1, IBCC_FABRIC_MAX_DELAY,
                                    IBCC_FABRIC_MAX_DELAY + 1u, UINT64_MAX);
    }
    return 1;
}

/* ---- engines and desc ----------------------------------------------------- */
static void decode_desc(ctx *c, cfg *g)
{
    ibcc_fabric_desc *d = &g->d;
    uint32_t i, minports = 256;
    d->link_rate = chance(c, 128) ? 0 : pick(c, IBCC_MBYTES(100),
                                             IBCC_GBYTES(50), 1, UINT64_MAX, 1, 0);
    d->prop_delay = chance(c, 128) ? 0 : pick(c, 1, IBCC_US(2), 1,
                                              IBCC_FABRIC_MAX_DELAY,
                                              IBCC_FABRIC_MAX_DELAY + 1u,
                                              UINT64_MAX);
    d->fwd_zero = (uint32_t)pick(c, 0, 1, 0, 1, 2, 0xffffffffu);
    d->fwd_delay = chance(c, 100) ? 0 : pick(c, 1, IBCC_US(1), 1,
                                             IBCC_FABRIC_MAX_DELAY,
                                             IBCC_FABRIC_MAX_DELAY + 1u,
                                             UINT64_MAX);
    d->data_size = chance(c, 100) ? 0 : (uint32_t)pick(c, 64, 4096, 1, 65535,
                                                       65536, 0xffffffffu);
    d->buf_packets = (uint32_t)pick(c, 0, 16, 0, 65535, 65536, 0xffffffffu);
    d->buf_credits = 0;
    if (chance(c, 90)) {
        /* room for 1..8 packets of the effective size (or of the largest
           packet of the sure zone, 4096 bytes), or anything */
        uint32_t ds = d->data_size ? d->data_size : 2068u;
        uint32_t u = ((ds > 4096u ? ds : 4096u) + 63u) / 64u;
        d->buf_credits = (uint32_t)pick(c, u, 8u * u, 0, 1u << 20,
                                        (1u << 20) + 1u, 0xffffffffu);
        if (d->buf_credits && d->buf_credits < (ds + 63u) / 64u) BAD(c);
        if (d->buf_credits > 65535u) UNSURE(c);
    }
    d->ack_buf_packets = (uint32_t)pick(c, 0, 32, 0, 65535, 65536, 0xffffffffu);
    d->switch_kind = switch_kind(c, 20);
    d->speedup = (uint32_t)pick(c, 0, 16, 0, 16, 17, 0xffffffffu);
    d->out_buf_packets = (uint32_t)pick(c, 0, 16, 0, 65535, 65536, 0xffffffffu);
    d->out_buf_credits = 0;
    if (d->buf_credits && chance(c, 100)) {
        uint32_t ds = d->data_size ? d->data_size : 2068u;
        uint32_t u = ((ds > 4096u ? ds : 4096u) + 63u) / 64u;
        d->out_buf_credits = (uint32_t)pick(c, u, 8u * u, 0, 1u << 20,
                                            (1u << 20) + 1u, 0xffffffffu);
        if (d->out_buf_credits && d->out_buf_credits < (ds + 63u) / 64u)
            BAD(c);
    } else if (harm(c, 16)) {
        d->out_buf_credits = 1u + fz_u8(&c->in);  /* without buf_credits */
        if (!d->buf_credits) BAD(c);
    }
    d->nic_fifo = chance(c, 40) ? (uint32_t)pick(c, 1, 1, 0, 1, 2, 0xffffffffu)
                                : 0u;
    d->host_cap = chance(c, 60) ? pick(c, IBCC_MBYTES(100), IBCC_GBYTES(50),
                                       1, UINT64_MAX, 1, 0) : 0;
    /* per node switch kinds: mixed (WORMHOLE rarely: a fabric is
       wormhole throughout) */
    for (i = 0; i < d->node_count; i++) {
        g->nodes[i].switch_kind = (ibcc_switch_kind)0;
        if (chance(c, 80))
            g->nodes[i].switch_kind = switch_kind(c,
                d->switch_kind == IBCC_SWITCH_WORMHOLE ? 160u : 4u);
        if (g->nodes[i].kind == IBCC_FABRIC_SWITCH && g->nodes[i].ports < minports)
            minports = g->nodes[i].ports;
    }
    /* arbiter */
    d->arbiter.policy = (ibcc_arb_policy)choice(c, 4, 5);
    d->arbiter.bypass_limit = (uint32_t)pick(c, 0, 8, 0, 65535, 65536,
                                             0xffffffffu);
    /* marker */
    d->marker.engine = (ibcc_marker_engine)choice(c, 7, 8);
    /* ECN marks on queue bytes: credits only (mostly) */
    if (d->marker.engine == IBCC_MARKER_ECN && d->buf_credits == 0) {
        if (fz_u8(&c->in) < 240u) d->marker.engine = IBCC_MARKER_NONE;
        else BAD(c);
    }
    d->marker.classify = (ibcc_classify)choice(c, 2, 3);
    if (chance(c, 60)) {
        /* thresholds within the input capacity (unit: credits when
           buf_credits is set) */
        uint32_t cap = d->buf_credits ? d->buf_credits
                                      : (d->buf_packets ? d->buf_packets : 4u);
        if (cap > 65535u) cap = 65535u;
        d->marker.trigger = (uint32_t)pick(c, 0, cap, 0, cap, cap + 1u,
                                           cap + 100u);
        d->marker.mvpm_in_threshold = (uint32_t)pick(c, 0, cap, 0, cap,
                                                     cap + 1u, cap + 100u);
        d->marker.t_out = (uint32_t)pick(c, 0, 64, 0, 0x80000000u,
                                         0x80000001u, 0xffffffffu);
    }
    d->marker.iba_threshold = (uint32_t)pick(c, 0, 15, 0, 15, 16, 255);
    d->marker.iba_packet_size = (uint32_t)pick(c, 0, 255, 0, 255, 256, 1000);
    d->marker.iba_marking_rate = (uint32_t)pick(c, 0, 16, 0, 65535, 65536,
                                                0x7fffffffu);
    if (chance(c, 30) && minports < 256u) {
        /* victim bits below the smallest switch's ports */
        uint32_t p = fz_below(&c->in, minports);
        d->marker.victim_mask[p / 32u] |= 1u << (p % 32u);
        if (harm(c, 40)) {                 /* a bit some switch lacks */
            d->marker.victim_mask[minports / 32u] |= 1u << (minports % 32u);
            BAD(c);
        }
    }
    d->marker.hold = fz_u8(&c->in);        /* the fabric sets it to 1 */
    /* destination */
    d->dest.scheme = choice(c, 3, 4);
    if (d->dest.scheme == IBCC_DEST_IBA && chance(c, 100)) {
        d->dest.becn_by_cnp = fz_below(&c->in, 2);
        d->dest.transport = fz_below(&c->in, 2);
    } else if (harm(c, 16)) {
        d->dest.transport = 1;             /* UD only with IBA */
        if (d->dest.scheme != IBCC_DEST_IBA) BAD(c);
    }
    if (chance(c, 60))
        d->dest.ack_bytes = (uint32_t)pick(c, 1, 256, 1, 65535, 65536,
                                           0xffffffffu);
    if (chance(c, 40))
        d->dest.cnp_bytes = (uint32_t)pick(c, 1, 256, 1, 65535, 65536,
                                           0xffffffffu);
    /* law (always validated) */
    d->law.kind = (ibcc_law_kind)choice(c, 5, 6);
    d->law.form = (ibcc_law_form)choice(c, 4, 5);
    if (d->law.kind == IBCC_LAW_CUSTOM) {
        if (!harm(c, 40)) { d->law.finc = cf_inc; d->law.fdec = cf_dec; }
        else BAD(c);
    }
    if (d->law.form == IBCC_LAW_TABLE && chance(c, 128)) {
        d->law.rates = IBCC_LAW_RATES_GEOMETRIC;
        d->law.table_size = (uint32_t)pick(c, 0, 512, 0, 65536, 65537, 70000);
        if (d->law.table_size == 1u) BAD(c);
        if (d->law.table_size > 4096u) UNSURE(c);
    } else if (harm(c, 16)) {
        /* only TABLE has a size, and the IPD set's is fixed by rmin */
        d->law.table_size = 5;
        BAD(c);
    } else if (harm(c, 16)) {
        d->law.rates = (ibcc_law_rates)3;
        BAD(c);
    }
    if (chance(c, 120)) {
        static const double rm[8] = { 0.0, 1.0 / 256, 0.5, 0.01, 1.0 / 65536,
                                      0.999, 1.0, -0.5 };
        uint32_t v = fz_below(&c->in, c->allow_bad ? 8u : 6u);
        d->law.rmin = rm[v];
        if (v >= 6u) BAD(c);
        /* DISCRETE and the IPD table need rmin >= 1/256 */
        if (v == 4u && (d->law.form == IBCC_LAW_DISCRETE
                        || (d->law.form == IBCC_LAW_TABLE
                            && d->law.rates != IBCC_LAW_RATES_GEOMETRIC)))
            BAD(c);
    }
    if (chance(c, 120)) {
        static const double mm[6] = { 0.0, 2.0, 1.0001, 65536.0, 1.0, 70000.0 };
        uint32_t v = fz_below(&c->in, c->allow_bad ? 6u : 4u);
        d->law.m = mm[v];
        if (v >= 4u) BAD(c);
    }
    /* CCT agent: counted only when a flow uses it */
    {
        ctx cc = *c;
        cc.bad = 0;
        cc.sure = 1;
        d->cct.per_sl = (unsigned)choice(&cc, 2, 3);
        d->cct.disabled_sls = (uint16_t)(chance(&cc, 40) ? fz_u16(&cc.in) : 0u);
        d->cct.sl[0].ccti_timer = (uint16_t)pick(&cc, 0, 300, 0, 65535, 1, 0);
        d->cct.sl[0].ccti_increase = (uint8_t)pick(&cc, 0, 8, 0, 255, 1, 0);
        d->cct.sl[0].trigger_threshold = (uint8_t)pick(&cc, 0, 255, 0, 255, 1, 0);
        if (chance(&cc, 40)) {
            /* larger tables need longer packet times (the default table
               must fit): valid, not sure */
            d->cct.entries = (uint32_t)pick(&cc, 0, 0, 0, 16384, 16385, 70000);
        }
        if (chance(&cc, 30)) {
            uint8_t a = fz_u8(&cc.in), b = fz_u8(&cc.in);
            for (i = 0; i < 256u; i++) g->flow_sl[i] = (uint8_t)((a + i * b) & 15u);
            d->cct.flow_sl = g->flow_sl;
        }
        if (chance(&cc, 40)) {
            /* a table of its own: any entries (large delays included) */
            uint32_t n = fz_range(&cc.in, 1, 8);
            for (i = 0; i < n; i++) g->cct_table[i] = fz_u16(&cc.in);
            d->cct.table = g->cct_table;
            d->cct.table_len = n;
        }
        g->cct_bad = cc.bad ? cc.bad_line : 0;
        g->cct_sure = cc.sure;
        c->in = cc.in;
    }
    /* MVCM agent */
    {
        ctx cc = *c;
        cc.bad = 0;
        d->mvcm.ws = pick(&cc, 1, IBCC_US(20), 1, UINT64_MAX, 0, 0);
        d->mvcm.dw_max = (uint32_t)pick(&cc, 0, 8, 0, 65535, 65536, 0xffffffffu);
        d->mvcm.k = chance(&cc, 60) ? 0u
                    : (uint32_t)pick(&cc, 2, 8, 2, 65535, 65536, 0xffffffffu);
        if (harm(&cc, 24)) {
            d->mvcm.k = 1;
            BAD(&cc);
        }
        d->mvcm.n = (uint32_t)pick(&cc, 0, 8, 0, 64, 65, 1000);
        d->mvcm.flags = (unsigned)choice(&cc, 4, 5);
        g->mvcm_bad = cc.bad ? cc.bad_line : 0;
        g->mvcm_dw_max = d->mvcm.dw_max ? d->mvcm.dw_max : 2u;
        if (!cc.sure) UNSURE(c);
        c->in = cc.in;
    }
    /* bins, seed, loop capacity, memory */
    d->seed = fz_u64(&c->in);
    g->t_in = pick(c, IBCC_US(5), IBCC_US(300), 1, IBCC_FABRIC_MAX_TIME, 1, 0);
    if (chance(c, 180)) {
        uint64_t nb = lu(&c->in, 1, 200);
        d->horizon = g->t_in / 4u * (1u + fz_below(&c->in, 8));
        if (d->horizon == 0) d->horizon = 1;
        d->bin = d->horizon / nb ? d->horizon / nb : 1u;
        if (harm(c, 12)) {                 /* too many bins */
            d->bin = 1;
            d->horizon = (uint64_t)1 << 40;
            BAD(c);
        }
    } else if (chance(c, 20)) {
        d->bin = lu(&c->in, 1, UINT64_MAX);  /* bin without horizon */
    }
    if (d->horizon) {
        uint64_t bin = d->bin ? d->bin : IBCC_US(100);
        uint64_t nb = d->horizon / bin + (d->horizon % bin != 0);
        if (nb > ((uint64_t)1 << 26)) BAD(c);      /* CAPACITY */
    }
    if (chance(c, 10)) {
        d->loop_capacity = (uint32_t)lu(&c->in, 1, 100000);
        g->run_may_fail = 1;
        UNSURE(c);
    }
    g->mem.limit = (uint64_t)1 << 29;    /* 512 MB: a bounded run needs less */
    if (chance(c, 16)) {
        g->mem.limit = lu(&c->in, 0, 1u << 24);
        g->run_may_fail = 1;
        UNSURE(c);
    }
    d->allocator.alloc = ma_alloc;
    d->allocator.free = ma_free;
}

/* ---- flows ------------------------------------------------------------------ */
/* The rate of the link of host node h (its override, the desc's, 1 GB/s). */
static ibcc_rate host_rate(const cfg *g, uint32_t h)
{
    uint32_t i;
    for (i = 0; i < g->d.link_count; i++)
        if ((g->links[i].a == h || g->links[i].b == h) && g->links[i].rate)
            return g->links[i].rate;
    return g->d.link_rate ? g->d.link_rate : IBCC_GBYTES(1);
}

/* The packet size of flow x: its size, else the data size; a
   low-priority flow of a WORMHOLE fabric without a size is cut by the
   segment rule, into worms that may be far shorter (the fixed L_l, or
   B x h, at least B). */
static uint32_t flow_unit(const cfg *g, const ibcc_fabric_flow *x)
{
    const ibcc_fabric_desc *d = &g->d;
    uint32_t sz = x->size ? x->size : (d->data_size ? d->data_size : 2068u);
    if (g->worm_forced && x->size == 0) {
        uint32_t seg = d->segment.adaptive == 1
            ? (d->segment.slack_bytes ? d->segment.slack_bytes : d->slack_bytes)
            : (d->segment.seg_bytes ? d->segment.seg_bytes : 100u);
        if (seg && seg < sz) sz = seg;
    }
    if (sz > 65535u) sz = 65535u;
    return sz ? sz : 1u;
}

static void decode_flows(ctx *c, cfg *g)
{
    ibcc_fabric_desc *d = &g->d;
    uint32_t nf = fz_below(&c->in, MAXF + 1u), i, base = d->flow_count;
    int used[6] = { 0, 0, 0, 0, 0, 0 }, desc_bad = c->allow_bad;
    if (base + nf > MAXF) nf = MAXF - base;
    if (g->nhosts < 2u) nf = 0;
    for (i = 0; i < base + nf; i++) {
        ibcc_fabric_flow *x = &g->flows[i];
        uint32_t sz, u;
        c->allow_bad = fz_u8(&c->in) >= (desc_bad ? 192u : 244u);
        c->allow_wild = fz_u8(&c->in) >= 200u;
        if (i >= base) {
            uint32_t si = fz_below(&c->in, g->nhosts);
            uint32_t di = (si + 1u + fz_below(&c->in, g->nhosts - 1u)) % g->nhosts;
            memset(x, 0, sizeof *x);
            x->src = g->hosts[si];
            x->dst = g->hosts[di];
            if (harm(c, 40)) {
                uint32_t k;
                switch (fz_below(&c->in, 3)) {
                case 0: x->dst = x->src; break;
                case 1: x->src = d->node_count + fz_below(&c->in, 4); break;
                default:
                    for (k = 0; k < d->node_count; k++)
                        if (g->nodes[k].kind == IBCC_FABRIC_SWITCH) break;
                    if (k < d->node_count) x->dst = k;
                    break;
                }
            }
        }
        if (x->src == x->dst || x->src >= d->node_count || x->dst >= d->node_count
            || g->nodes[x->src].kind != IBCC_FABRIC_HOST
            || g->nodes[x->dst].kind != IBCC_FABRIC_HOST)
            BAD(c);
        /* one FIFO per host: generated traffic only (mostly); no ACKs: no
           window, LAW or MVCM (mostly) */
        if (d->nic_fifo == 1u && fz_u8(&c->in) < 240u)
            x->traffic = IBCC_TRAFFIC_RATE + fz_below(&c->in, 2);
        else
            x->traffic = choice(c, 5, 6);
        if (x->traffic == IBCC_TRAFFIC_PUSH) UNSURE(c); /* its own rules */
        x->agent = choice(c, 8, 9);
        if (d->dest.transport == 1u && x->agent != 8u && fz_u8(&c->in) < 240u) {
            static const uint8_t ud[4] = { IBCC_AGENT_NONE, IBCC_AGENT_WINDOW,
                                           IBCC_AGENT_FIXED, IBCC_AGENT_CCT };
            x->agent = ud[x->agent % 4u];
            x->window = 0;
        } else {
            x->window = chance(c, 100) ? 0 : (uint32_t)pick(c, 1, 8, 1,
                                                            0xffffffffu, 1, 0);
        }
        if (g->worm_forced && x->agent < 8u && !harm(c, 8)) {
            x->agent = IBCC_AGENT_NONE;    /* no ACKs in a wormhole fabric */
            x->window = 0;
        }
        /* DCQCN reacts to BECNs: the IBA echo only (mostly) */
        if (x->agent == IBCC_AGENT_DCQCN && d->dest.scheme != IBCC_DEST_IBA) {
            if (fz_u8(&c->in) < 240u) x->agent = IBCC_AGENT_NONE;
            else BAD(c);
        }
        /* HPCC's INT queues are in bytes: credits only (mostly) */
        if (x->agent == IBCC_AGENT_HPCC && d->buf_credits == 0) {
            if (fz_u8(&c->in) < 240u) x->agent = IBCC_AGENT_NONE;
            else BAD(c);
        }
        x->size = chance(c, 100) ? 0 : (uint32_t)pick(c, 64, 4096, 1, 65535,
                                                      65536, 0xffffffffu);
        x->cls = (uint32_t)pick(c, 0, 15, 0, 15, 16, 0xffffffffu);
        x->persistent = (uint32_t)pick(c, 0, 1, 0, 1, 2, 100);
        x->start = chance(c, 128) ? 0 : pick(c, 1, IBCC_US(50), 1, UINT64_MAX,
                                             1, 0);
        if (chance(c, 50)) {
            x->stop = x->start + pick(c, 1, IBCC_US(200), 1,
                                      UINT64_MAX - x->start, 1, 0);
            if (harm(c, 24)) x->stop = x->start;
            if (x->stop == 0) x->stop = 1;  /* wrapped */
            if (x->stop <= x->start) BAD(c);
        }
        if (x->traffic == IBCC_TRAFFIC_ONOFF || chance(c, 20)) {
            x->on_mean = pick(c, IBCC_US(2), IBCC_US(100), 1, UINT64_MAX, 1, 0);
            x->off_mean = pick(c, IBCC_US(2), IBCC_US(100), 1, UINT64_MAX, 1, 0);
            if (harm(c, 24)) {
                if (fz_u8(&c->in) & 1u) x->on_mean = 0; else x->off_mean = 0;
                if (x->traffic == IBCC_TRAFFIC_ONOFF) BAD(c);
            }
        }
        if (x->traffic == IBCC_TRAFFIC_RATE || x->traffic == IBCC_TRAFFIC_POISSON
            || chance(c, 20)) {
            x->offered = pick(c, IBCC_MBYTES(10), IBCC_GBYTES(2), 1, UINT64_MAX,
                              1, 0);
            if (harm(c, 24)) {
                x->offered = 0;
                if (x->traffic == IBCC_TRAFFIC_RATE
                    || x->traffic == IBCC_TRAFFIC_POISSON) BAD(c);
            }
        }
        if (x->agent == IBCC_AGENT_FIXED || chance(c, 20)) {
            x->rate = pick(c, IBCC_MBYTES(10), IBCC_MBYTES(100), 1, UINT64_MAX,
                           1, 0);
            if (harm(c, 24)) x->rate = 0;
            else if (x->agent == IBCC_AGENT_FIXED && x->src < d->node_count
                     && x->rate > host_rate(g, x->src) && !c->allow_bad)
                x->rate = host_rate(g, x->src);
            /* the pacer takes 1 .. the source's link rate */
            if (x->agent == IBCC_AGENT_FIXED
                && (x->rate == 0 || (x->src < d->node_count
                                     && x->rate > host_rate(g, x->src))))
                BAD(c);
        }
        if (chance(c, 60)) x->packets = pick(c, 1, 200, 1, UINT64_MAX, 1, 0);
        if (chance(c, 30)) x->start_after = pick(c, 1, 50, 1, UINT64_MAX, 1, 0);
        sz = flow_unit(g, x);
        if (chance(c, 60)) {
            uint64_t m = pick(c, 1, 20000, 1, 0xffffffffu, 1, 0);
            /* a message's packets are made at once: at most 4096 of them
               unless a packet limit stops earlier (bounded work) */
            if ((m + sz - 1u) / sz > 4096u && (x->packets == 0 || x->packets > 4096u))
                m = (uint64_t)sz * 4096u - fz_below(&c->in, sz);
            x->msg_bytes = (uint32_t)m;
            /* exponential lengths (mean msg_bytes): at most 200 packets
               on average, so a message beyond 4096 is e^-20 rare */
            if (chance(c, 40)) {
                if (x->msg_bytes > 200u * sz) x->msg_bytes = 200u * sz;
                x->msg_exp = 1;
            }
        }
        if (harm(c, 12)) {                 /* not 0/1, or without messages */
            x->msg_exp = x->msg_bytes ? 2u : 1u;
            BAD(c);
        }
        if (g->worm_forced) x->prio = chance(c, 64);  /* WORMHOLE only */
        if (harm(c, 12)) {                 /* 2, or 1 where no wormhole */
            x->prio = 1u + (fz_u8(&c->in) & 1u);
            if (x->prio == 2u) BAD(c);
        }
        /* cross-field rules */
        u = (sz + 63u) / 64u;
        if (d->buf_credits && u > d->buf_credits) BAD(c);
        if (d->out_buf_credits && u > d->out_buf_credits) BAD(c);
        if (d->nic_fifo == 1u && x->traffic != IBCC_TRAFFIC_RATE
            && x->traffic != IBCC_TRAFFIC_POISSON)
            BAD(c);
        if (d->dest.transport == 1u
            && (x->window || x->agent == IBCC_AGENT_MVCM
                || x->agent == IBCC_AGENT_LAW))
            BAD(c);
        if (x->agent < 6u) used[x->agent] = 1;
    }
    d->flow_count = base + nf;
    c->allow_bad = desc_bad;
    c->allow_wild = 1;
    if (used[IBCC_AGENT_CCT]) {
        if (g->cct_bad) { c->bad = 1; c->bad_line = g->cct_bad; }
        if (!g->cct_sure) UNSURE(c);
    }
    if (used[IBCC_AGENT_MVCM] && g->mvcm_bad) {
        c->bad = 1;
        c->bad_line = g->mvcm_bad;
    }
}

/* A wormhole fabric (desc kind WORMHOLE), mostly one it can accept:
   every switch wormhole, one link rate with a whole number of ps per
   byte, no NIC FIFO, host cap or marking, agents NONE without windows,
   a slack buffer that holds the STOP mark plus the longest round trip;
   then STOP/GO marks, switch priority and the segment rule. */
static void decode_wormhole(ctx *c, cfg *g)
{
    static const ibcc_rate rates[6] = { 0, IBCC_GBYTES(1), IBCC_MBYTES(500),
                                        IBCC_GBYTES(2), IBCC_MBYTES(100),
                                        IBCC_GBYTES(10) };
    ibcc_fabric_desc *d = &g->d;
    ibcc_time maxprop = d->prop_delay ? d->prop_delay : IBCC_NS(5), wbt;
    uint64_t rtt;
    uint32_t i;
    if (d->switch_kind != IBCC_SWITCH_WORMHOLE || harm(c, 32)) return;
    for (i = 0; i < d->node_count; i++)       /* (unknown kinds stay) */
        if ((g->nodes[i].switch_kind == IBCC_SWITCH_VCT
             || g->nodes[i].switch_kind == IBCC_SWITCH_CIOQ) && !harm(c, 8))
            g->nodes[i].switch_kind = (ibcc_switch_kind)0;
    for (i = 0; i < d->link_count; i++)
        if (!harm(c, 8)) g->links[i].rate = 0;
    d->link_rate = rates[fz_below(&c->in, 6)];
    if (!harm(c, 16)) {
        d->nic_fifo = 0;
        d->host_cap = 0;
        d->marker.engine = IBCC_MARKER_NONE;
    }
    g->worm_forced = 1;                   /* flows: agent NONE, no window */
    for (i = 0; i < d->link_count; i++)
        if (g->links[i].prop > maxprop) maxprop = g->links[i].prop;
    wbt = IBCC_S(1) / (d->link_rate ? d->link_rate : IBCC_GBYTES(1));
    rtt = 2u * ((maxprop + wbt - 1u) / wbt);
    /* slack: the round trip plus 2 .. 4096 bytes (any, when wild) */
    d->slack_bytes = rtt + 4098u <= (1u << 20)
        ? (uint32_t)(rtt + 2u + lu(&c->in, 0, 4096)) : (1u << 20);
    if (chance(c, 40))
        d->slack_bytes = (uint32_t)pick(c, d->slack_bytes, d->slack_bytes, 1,
                                        1u << 20, (1u << 20) + 1u, 0xffffffffu);
    if (chance(c, 60) && d->slack_bytes > rtt + 1u)
        d->stop_mark = (uint32_t)lu(&c->in, 2, d->slack_bytes - rtt);
    if (d->stop_mark > 1u && chance(c, 60))
        d->go_mark = (uint32_t)lu(&c->in, 1, d->stop_mark - 1u);
    d->worm_priority = chance(c, 100);
    if (chance(c, 120))
        d->segment.seg_bytes = (uint32_t)pick(c, 1, 10000, 1, 0xffffffffu, 1, 0);
    d->segment.adaptive = choice(c, 2, 3);
    if (chance(c, 40))
        d->segment.slack_bytes = (uint32_t)pick(c, 1, 4096, 1, 0xffffffffu, 1, 0);
}

/* ---- run length --------------------------------------------------------------- */
static ibcc_time wt(uint64_t bytes, ibcc_rate rate)
{
    ibcc_time t = 0;
    if (ibcc_wire_time(bytes, rate, &t) != IBCC_OK) return IBCC_TIME_MAX;
    return t;
}

/* Hops from host src toward dst along links and routes (stops where
   they stop; at most node_count + 1). */
static uint32_t walk_len(const cfg *g, uint32_t src, uint32_t dst)
{
    uint32_t node = src, port = 0, n = 0, i;
    while (n <= g->d.node_count) {
        uint32_t next = 0xffffffffu;
        for (i = 0; i < g->d.link_count; i++) {
            const ibcc_fabric_link *k = &g->links[i];
            if (k->a == node && k->a_port == port) { next = k->b; break; }
            if (k->b == node && k->b_port == port) { next = k->a; break; }
        }
        n++;
        if (next >= g->d.node_count
            || g->nodes[next].kind != IBCC_FABRIC_SWITCH) return n;
        node = next;
        port = 0xffffffffu;
        for (i = 0; i < g->d.route_count; i++)
            if (g->routes[i].sw == node && g->routes[i].dst == dst)
                port = g->routes[i].port;
        if (port == 0xffffffffu) return n;
    }
    return n;
}

/* Scales the run down so that transmissions and generations stay below
   BUDGET: a host sends at most as many data packets per ps as its
   fastest flow alone could (a unit, packet or message, per wire time of
   the unit at its link rate and cap), each crossing its path and making
   at most two replies that cross the way back; a RATE / POISSON flow
   makes its units; an ONOFF flow toggles. */
static ibcc_time run_length(const cfg *g)
{
    const ibcc_fabric_desc *d = &g->d;
    double per_ps = 1e-300;
    uint32_t i, k;
    for (k = 0; k < g->nhosts; k++) {
        uint32_t h = g->hosts[k], hops = 0;
        ibcc_rate rate = host_rate(g, h);
        ibcc_time w;
        double pkt_per_ps = 0.0;
        for (i = 0; i < d->flow_count; i++) {
            const ibcc_fabric_flow *x = &g->flows[i];
            uint32_t sz = flow_unit(g, x), n;
            uint64_t unit;
            double r;
            if (x->src != h) continue;
            /* one flow alone sends at most a unit (packet or message,
               ceil(unit / size) packets) per wire time of the unit */
            unit = x->msg_bytes ? x->msg_bytes : sz;
            w = wt(unit, rate);
            if (d->host_cap && wt(unit, d->host_cap) > w) w = wt(unit, d->host_cap);
            r = (double)((unit + sz - 1u) / sz) / (double)(w ? w : 1u);
            if (r > pkt_per_ps) pkt_per_ps = r;
            n = walk_len(g, x->src, x->dst) + 2u * walk_len(g, x->dst, x->src);
            if (n > hops) hops = n;
        }
        per_ps += (double)hops * pkt_per_ps;
    }
    for (i = 0; i < d->flow_count; i++) {
        const ibcc_fabric_flow *x = &g->flows[i];
        uint32_t sz = flow_unit(g, x);
        if (x->traffic == IBCC_TRAFFIC_RATE || x->traffic == IBCC_TRAFFIC_POISSON) {
            uint64_t unit = x->msg_bytes ? x->msg_bytes : sz;
            double ppu = (double)((unit + sz - 1u) / sz);
            per_ps += ppu / (double)wt(unit, x->offered ? x->offered : 1u);
        }
        if (x->traffic == IBCC_TRAFFIC_ONOFF && x->on_mean && x->off_mean)
            per_ps += 2.0 / (double)x->on_mean + 2.0 / (double)x->off_mean;
    }
    {
        double t = BUDGET / per_ps;
        if (t < (double)g->t_in) return t < 1.0 ? 1u : (ibcc_time)t;
        return g->t_in;
    }
}

/* ---- observation ------------------------------------------------------------ */
typedef struct obs {
    const cfg *g;
    uint64_t hash, events;
    ibcc_time last_end[MAXCH];
    uint64_t ch_bytes[MAXCH];
    ibcc_time ch_busy[MAXCH];
    ibcc_rate ch_rate[MAXCH];
    ibcc_time last_gen[MAXF], last_inj[MAXF];
    uint64_t delivered[MAXF], sent[MAXF];
} obs;

static void ob_mix(obs *o, uint64_t v)
{
    unsigned k;
    for (k = 0; k < 8u; k++) {
        o->hash ^= (v >> (8u * k)) & 0xffu;
        o->hash *= UINT64_C(1099511628211);
    }
}
static void ob_pkt(obs *o, unsigned type, const ibcc_fabric_pkt *p)
{
    o->events++;
    ob_mix(o, type);
    ob_mix(o, p->flow);
    ob_mix(o, p->node);
    ob_mix(o, ((uint64_t)p->size << 32) | ((uint64_t)p->lane << 16) | p->hdr);
    ob_mix(o, p->t_inject);
    ob_mix(o, p->t);
    ob_mix(o, p->t_gen);
}
static void ob_sent(void *u, const ibcc_fabric_pkt *p)
{
    obs *o = (obs *)u;
    const ibcc_fabric_flow *x;
    ob_pkt(o, 1, p);
    FZ_CHECK(p->flow < o->g->d.flow_count, "sent: flow %u", p->flow);
    x = &o->g->flows[p->flow];
    FZ_CHECK(p->node == x->src && p->lane == (o->g->worm ? 2u : 0u)
             && p->t == p->t_inject
             && p->t_gen <= p->t_inject,
             "sent: flow %u node %u (src %u) lane %u t %llu inject %llu gen %llu",
             p->flow, p->node, x->src, p->lane, (unsigned long long)p->t,
             (unsigned long long)p->t_inject, (unsigned long long)p->t_gen);
    FZ_CHECK(p->t_gen >= o->last_gen[p->flow],
             "sent: flow %u sends a packet generated at %llu after one of %llu",
             p->flow, (unsigned long long)p->t_gen,
             (unsigned long long)o->last_gen[p->flow]);
    o->last_gen[p->flow] = p->t_gen;
    o->sent[p->flow]++;
}
static void ob_deliv(void *u, const ibcc_fabric_pkt *p)
{
    obs *o = (obs *)u;
    const ibcc_fabric_flow *x;
    ob_pkt(o, 2, p);
    FZ_CHECK(p->flow < o->g->d.flow_count, "delivered: flow %u", p->flow);
    x = &o->g->flows[p->flow];
    FZ_CHECK(p->node == x->dst && p->lane == (o->g->worm ? 2u : 0u)
             && p->t_gen <= p->t_inject
             && p->t_inject < p->t,
             "delivered: flow %u node %u (dst %u) lane %u gen %llu inject %llu t %llu",
             p->flow, p->node, x->dst, p->lane, (unsigned long long)p->t_gen,
             (unsigned long long)p->t_inject, (unsigned long long)p->t);
    /* in order: per flow, static routes, per input/output order kept */
    FZ_CHECK(p->t_inject >= o->last_inj[p->flow],
             "delivered out of order: flow %u injected %llu after %llu",
             p->flow, (unsigned long long)p->t_inject,
             (unsigned long long)o->last_inj[p->flow]);
    o->last_inj[p->flow] = p->t_inject;
    o->delivered[p->flow]++;
}
static void ob_marked(void *u, const ibcc_fabric_pkt *p)
{
    obs *o = (obs *)u;
    ob_pkt(o, 3, p);
    FZ_CHECK(p->node < o->g->d.node_count
             && o->g->nodes[p->node].kind == IBCC_FABRIC_SWITCH
             && (p->hdr & (IBCC_FECN | IBCC_MB | IBCC_VB)) != 0,
             "marked at node %u hdr %#x", p->node, p->hdr);
}
static void ob_busy(void *u, uint32_t ch, ibcc_time start, ibcc_time end,
                    const ibcc_fabric_pkt *p)
{
    obs *o = (obs *)u;
    ob_pkt(o, 4, p);
    ob_mix(o, ch);
    ob_mix(o, start);
    ob_mix(o, end);
    FZ_CHECK(ch < 2u * o->g->d.link_count, "link_busy channel %u", ch);
    FZ_CHECK(start >= o->last_end[ch] && end > start,
             "channel %u: transmission [%llu, %llu) overlaps one ending %llu",
             ch, (unsigned long long)start, (unsigned long long)end,
             (unsigned long long)o->last_end[ch]);
    FZ_CHECK(end - start == wt(p->size, o->ch_rate[ch]),
             "channel %u: %u bytes took %llu ps at %llu B/s", ch, p->size,
             (unsigned long long)(end - start), (unsigned long long)o->ch_rate[ch]);
    o->last_end[ch] = end;
    o->ch_bytes[ch] += p->size;
    o->ch_busy[ch] += end - start;
}

/* ---- snapshots (determinism) -------------------------------------------------- */
typedef struct snap {
    ibcc_fabric_counters cn;
    ibcc_fabric_flow_stats fs[MAXF];
    uint64_t cls[IBCC_FABRIC_CLASSES][15];
    uint64_t ch_bytes[MAXCH];
    ibcc_time ch_busy[MAXCH];
    uint64_t hash, events;
    int64_t r;
} snap;

static void take_snap(const ibcc_fabric *f, const cfg *g, const obs *o,
                      ibcc_result r, snap *s)
{
    uint32_t i;
    memset(s, 0, sizeof *s);
    s->r = r;
    s->hash = o->hash;
    s->events = o->events;
    (void)ibcc_fabric_counters_get(f, &s->cn);
    for (i = 0; i < g->d.flow_count; i++) (void)ibcc_fabric_flow_stats_get(f, i, &s->fs[i]);
    for (i = 0; i < IBCC_FABRIC_CLASSES; i++) {
        ibcc_fabric_class_stats k;
        uint64_t *v = s->cls[i];
        (void)ibcc_fabric_class_stats_get(f, i, &k);
        v[0] = k.flows; v[1] = k.generated; v[2] = k.sent; v[3] = k.delivered;
        v[4] = k.delivered_bytes; v[5] = k.marked; v[6] = k.validated;
        v[7] = k.acks; v[8] = k.acks_marked; v[9] = k.msgs;
        v[10] = k.msg_time_sum; v[11] = k.msg_time_max; v[12] = k.lat_sum;
        v[13] = k.lat_min; v[14] = k.lat_max;
    }
    for (i = 0; i < 2u * g->d.link_count; i++)
        (void)ibcc_fabric_channel_totals(f, i, &s->ch_bytes[i], &s->ch_busy[i]);
}

/* ---- paths ------------------------------------------------------------------ */
/* The channels from host src to host dst along the static routes (the
   last route given for a (switch, destination) wins, as in create). */
static uint32_t path(const ibcc_fabric *f, const cfg *g, uint32_t src,
                     uint32_t dst, uint32_t *ch)
{
    uint32_t n = 0, node = src, port = 0, i;
    for (;;) {
        uint32_t c = 0;
        const ibcc_fabric_link *k;
        FZ_CHECK(ibcc_fabric_channel(f, node, port, &c) == IBCC_OK && n < MAXN,
                 "path %u -> %u: no channel at node %u port %u", src, dst,
                 node, port);
        ch[n++] = c;
        k = &g->links[c / 2u];
        node = (c % 2u) == 0 ? k->b : k->a;
        if (g->nodes[node].kind == IBCC_FABRIC_HOST) {
            FZ_CHECK(node == dst, "path %u -> %u ends at %u", src, dst, node);
            return n;
        }
        port = 0xffffffffu;
        for (i = 0; i < g->d.route_count; i++)
            if (g->routes[i].sw == node && g->routes[i].dst == dst)
                port = g->routes[i].port;
    }
}

/* ---- the checks ---------------------------------------------------------------- */
typedef struct runst {
    ibcc_time stop_seen_gen[MAXF];
    int stop_seen[MAXF];
    int reset_done;
    uint64_t last_events, last_hops;
    uint32_t pc[MAXF][MAXN], pn[MAXF];       /* data paths */
    uint32_t ac[MAXF][MAXN], an[MAXF];       /* ACK paths */
} runst;

static int has_cnp(const cfg *g)
{
    return g->d.dest.scheme == IBCC_DEST_IBA
           && (g->d.dest.becn_by_cnp || g->d.dest.transport == IBCC_DEST_UNACKED);
}

static void check_flow(const ibcc_fabric *f, const cfg *g, runst *rs,
                       const obs *o, uint32_t i, const ibcc_fabric_flow_stats *s,
                       const ibcc_fabric_counters *cn, ibcc_time now)
{
    const ibcc_fabric_flow *x = &g->flows[i];
    uint32_t sz = x->size ? x->size : g->data_size;
    uint64_t hs = 0;
    unsigned b;
    (void)f;
    FZ_CHECK(s->marked <= s->delivered && s->validated <= s->delivered
             && s->acks_marked <= s->acks && s->msgs <= s->delivered,
             "flow %u: marked %llu validated %llu acks %llu/%llu msgs %llu delivered %llu",
             i, (unsigned long long)s->marked, (unsigned long long)s->validated,
             (unsigned long long)s->acks_marked, (unsigned long long)s->acks,
             (unsigned long long)s->msgs, (unsigned long long)s->delivered);
    for (b = 0; b < 32u; b++) hs += s->lat_hist[b];
    FZ_CHECK(hs == s->delivered, "flow %u: histogram %llu, delivered %llu", i,
             (unsigned long long)hs, (unsigned long long)s->delivered);
    if (s->delivered == 0) {
        FZ_CHECK(s->lat_min == 0 && s->lat_max == 0 && s->lat_sum == 0
                 && s->delivered_bytes == 0 && s->msg_time_sum == 0,
                 "flow %u: latency without deliveries", i);
    } else {
        /* the sum saturates at IBCC_TIME_MAX: then only mean <= max */
        uint64_t mean = s->lat_sum / s->delivered;
        int sat = s->lat_sum == IBCC_TIME_MAX;
        FZ_CHECK(s->lat_min > 0 && s->lat_min <= s->lat_max
                 && (sat || mean >= s->lat_min) && mean <= s->lat_max
                 && (mean < s->lat_max || s->lat_sum % s->delivered == 0),
                 "flow %u: latency min %llu mean %llu max %llu", i,
                 (unsigned long long)s->lat_min, (unsigned long long)mean,
                 (unsigned long long)s->lat_max);
        FZ_CHECK(s->delivered_bytes >= s->delivered
                 && (g->worm || s->delivered_bytes <= s->delivered * (uint64_t)sz),
                 "flow %u: %llu bytes in %llu packets of at most %u", i,
                 (unsigned long long)s->delivered_bytes,
                 (unsigned long long)s->delivered, sz);
        if (x->msg_bytes == 0 && !g->worm)
            FZ_CHECK(s->delivered_bytes == s->delivered * (uint64_t)sz,
                     "flow %u: %llu bytes in %llu packets of %u", i,
                     (unsigned long long)s->delivered_bytes,
                     (unsigned long long)s->delivered, sz);
    }
    if (x->msg_bytes == 0) FZ_CHECK(s->msgs == 0, "flow %u: messages", i);
    else FZ_CHECK(s->msgs * (uint64_t)x->msg_bytes <= s->delivered_bytes
                  || rs->reset_done || x->msg_exp,
                  "flow %u: %llu messages of %u bytes in %llu bytes", i,
                  (unsigned long long)s->msgs, x->msg_bytes,
                  (unsigned long long)s->delivered_bytes);
    if (!rs->reset_done) {
        FZ_CHECK(s->delivered <= s->sent && s->sent <= s->generated,
                 "flow %u: delivered %llu sent %llu generated %llu", i,
                 (unsigned long long)s->delivered, (unsigned long long)s->sent,
                 (unsigned long long)s->generated);
        FZ_CHECK(s->sent_bytes >= s->sent
                 && (g->worm || (s->sent_bytes <= s->sent * (uint64_t)sz
                                 && (x->msg_bytes
                                     || s->sent_bytes == s->sent * (uint64_t)sz))),
                 "flow %u: sent %llu bytes in %llu packets of %u", i,
                 (unsigned long long)s->sent_bytes, (unsigned long long)s->sent, sz);
        FZ_CHECK(s->acks <= s->delivered, "flow %u: %llu acks, %llu delivered",
                 i, (unsigned long long)s->acks, (unsigned long long)s->delivered);
        if ((x->traffic == IBCC_TRAFFIC_GREEDY || x->traffic == IBCC_TRAFFIC_ONOFF)
            && x->msg_bytes == 0 && !g->worm)
            FZ_CHECK(s->generated == s->sent,
                     "flow %u greedy: generated %llu sent %llu", i,
                     (unsigned long long)s->generated, (unsigned long long)s->sent);
        if (x->packets)
            FZ_CHECK(s->generated <= x->packets, "flow %u: %llu generated, limit %llu",
                     i, (unsigned long long)s->generated,
                     (unsigned long long)x->packets);
        /* the window: unacknowledged packets */
        if (g->d.dest.transport == 0) {
            uint64_t w = x->agent == IBCC_AGENT_MVCM ? g->mvcm_dw_max : x->window;
            if (w) FZ_CHECK(s->sent - s->acks <= w,
                            "flow %u (agent %u): %llu sent, %llu acked, window %llu",
                            i, x->agent, (unsigned long long)s->sent,
                            (unsigned long long)s->acks, (unsigned long long)w);
        }
        FZ_CHECK(o->sent[i] == s->sent && o->delivered[i] == s->delivered,
                 "flow %u: observer saw %llu sent %llu delivered, stats %llu %llu",
                 i, (unsigned long long)o->sent[i],
                 (unsigned long long)o->delivered[i],
                 (unsigned long long)s->sent, (unsigned long long)s->delivered);
        if (s->generated) {
            FZ_CHECK(now >= x->start && cn->data_delivered >= x->start_after,
                     "flow %u: generated %llu before its start (%llu, after %llu;"
                     " now %llu, %llu delivered)", i,
                     (unsigned long long)s->generated, (unsigned long long)x->start,
                     (unsigned long long)x->start_after, (unsigned long long)now,
                     (unsigned long long)cn->data_delivered);
        }
        /* stopped: nothing more generated */
        if (x->stop && now >= x->stop) {
            if (rs->stop_seen[i])
                FZ_CHECK(s->generated == rs->stop_seen_gen[i],
                         "flow %u: generated %llu after its stop (%llu then)", i,
                         (unsigned long long)s->generated,
                         (unsigned long long)rs->stop_seen_gen[i]);
            rs->stop_seen[i] = 1;
            rs->stop_seen_gen[i] = s->generated;
        }
        /* RATE: one unit at the start, then one every wire time of a unit
           at the offered load, cut into packets, up to the limit */
        if (x->traffic == IBCC_TRAFFIC_RATE && x->start_after == 0
            && !x->msg_exp && !g->worm
            && (x->stop == 0 || now < x->stop) && now >= x->start) {
            uint64_t unit = x->msg_bytes ? x->msg_bytes : sz;
            uint64_t ppu = (unit + sz - 1u) / sz;
            ibcc_time gap = wt(unit, x->offered);
            uint64_t units = (now - x->start) / (gap ? gap : 1u) + 1u, want;
            want = units > UINT64_MAX / ppu ? UINT64_MAX : units * ppu;
            if (x->packets && want > x->packets) want = x->packets;
            FZ_CHECK(s->generated == want,
                     "flow %u RATE: generated %llu, want %llu (gap %llu)", i,
                     (unsigned long long)s->generated, (unsigned long long)want,
                     (unsigned long long)gap);
        }
    }
}

static uint64_t sat_add(uint64_t a, uint64_t b)
{
    return b > UINT64_MAX - a ? UINT64_MAX : a + b;
}

static void check_classes(const ibcc_fabric *f, const cfg *g,
                          const ibcc_fabric_flow_stats *fs)
{
    static const double qs[NQ] = { 0.001, 0.1, 0.25, 0.5, 0.9, 0.999, 1.0 };
    uint32_t k, i;
    ibcc_time lat;
    for (k = 0; k < IBCC_FABRIC_CLASSES; k++) {
        ibcc_fabric_class_stats s;
        uint64_t v[13];
        ibcc_time mn = 0, mx = 0, prev = 0;
        uint32_t q;
        memset(v, 0, sizeof v);
        FZ_CHECK(ibcc_fabric_class_stats_get(f, k, &s) == IBCC_OK, "class %u", k);
        for (i = 0; i < g->d.flow_count; i++) {
            const ibcc_fabric_flow_stats *x = &fs[i];
            if (g->flows[i].cls != k) continue;
            v[0]++; v[1] += x->generated; v[2] += x->sent; v[3] += x->delivered;
            v[4] += x->delivered_bytes; v[5] += x->marked; v[6] += x->validated;
            v[7] += x->acks; v[8] += x->acks_marked; v[9] += x->msgs;
            v[10] = sat_add(v[10], x->msg_time_sum);
            v[11] = sat_add(v[11], x->lat_sum);
            if (x->delivered) {
                if (mn == 0 || x->lat_min < mn) mn = x->lat_min;
                if (x->lat_max > mx) mx = x->lat_max;
            }
        }
        FZ_CHECK(s.flows == v[0] && s.generated == v[1] && s.sent == v[2]
                 && s.delivered == v[3] && s.delivered_bytes == v[4]
                 && s.marked == v[5] && s.validated == v[6] && s.acks == v[7]
                 && s.acks_marked == v[8] && s.msgs == v[9]
                 && s.msg_time_sum == v[10] && s.lat_sum == v[11]
                 && s.lat_min == mn && s.lat_max == mx,
                 "class %u: stats differ from the sums of its flows "
                 "(flows %u/%llu delivered %llu/%llu lat %llu..%llu / %llu..%llu)",
                 k, s.flows, (unsigned long long)v[0],
                 (unsigned long long)s.delivered, (unsigned long long)v[3],
                 (unsigned long long)s.lat_min, (unsigned long long)s.lat_max,
                 (unsigned long long)mn, (unsigned long long)mx);
        FZ_CHECK(s.msg_time_max <= s.lat_max
                 && (s.msgs == 0 || s.msg_time_sum / s.msgs <= s.msg_time_max),
                 "class %u: message time max %llu, latency max %llu", k,
                 (unsigned long long)s.msg_time_max, (unsigned long long)s.lat_max);
        for (q = 0; q < NQ; q++) {
            ibcc_result r = ibcc_fabric_latency_quantile(f, k, qs[q], &lat);
            if (s.delivered == 0) {
                FZ_CHECK(r == IBCC_ERR_NOT_FOUND, "class %u: quantile of nothing: %s",
                         k, ibcc_result_str(r));
                continue;
            }
            FZ_CHECK(r == IBCC_OK && lat >= s.lat_min && lat <= s.lat_max
                     && lat >= prev,
                     "class %u: quantile %g = %llu (%s), min %llu max %llu, previous %llu",
                     k, qs[q], (unsigned long long)lat, ibcc_result_str(r),
                     (unsigned long long)s.lat_min, (unsigned long long)s.lat_max,
                     (unsigned long long)prev);
            prev = lat;
        }
        if (s.delivered)
            FZ_CHECK(prev == s.lat_max, "class %u: quantile 1 = %llu, max %llu", k,
                     (unsigned long long)prev, (unsigned long long)s.lat_max);
    }
    FZ_CHECK(ibcc_fabric_latency_quantile(f, 0, 0.0, &lat) == IBCC_ERR_RANGE
             && ibcc_fabric_latency_quantile(f, 0, 1.5, &lat) == IBCC_ERR_RANGE
             && ibcc_fabric_latency_quantile(f, 0, NAN, &lat) == IBCC_ERR_RANGE
             && ibcc_fabric_latency_quantile(f, 16, 0.5, &lat) == IBCC_ERR_RANGE,
             "latency quantile accepts a bad q or class");
}

static void check_bins(const ibcc_fabric *f, const cfg *g, const runst *rs,
                       const ibcc_fabric_flow_stats *fs, ibcc_time now, fz *pick_in)
{
    const ibcc_fabric_desc *d = &g->d;
    uint32_t nch = 2u * d->link_count, c, i, j, w;
    uint64_t nb, end, b = 0;
    int all_in;
    if (d->horizon == 0) {
        FZ_CHECK(ibcc_fabric_flow_bytes(f, 0, 0, 0, &b) == IBCC_ERR_RANGE
                 || d->flow_count == 0, "flow bytes without bins");
        FZ_CHECK(ibcc_fabric_channel_bytes(f, 0, 0, 0, &b) == IBCC_ERR_RANGE,
                 "channel bytes without bins");
        return;
    }
    nb = d->horizon / d->bin + (d->horizon % d->bin != 0);
    end = nb > UINT64_MAX / d->bin ? UINT64_MAX : nb * d->bin;
    all_in = now <= end && !rs->reset_done;
    FZ_CHECK((end > UINT64_MAX - d->bin
              || ibcc_fabric_channel_bytes(f, 0, 0, end + d->bin, &b)
                 == IBCC_ERR_RANGE)
             && ibcc_fabric_channel_bytes(f, 0, d->bin, 0, &b) == IBCC_ERR_RANGE
             && ibcc_fabric_channel_bytes(f, nch, 0, end, &b) == IBCC_ERR_RANGE,
             "channel bytes accept a bad window or channel");
    for (w = 0; w < 3u; w++) {
        uint64_t t0 = 0, t1 = end, sum[MAXCH];
        if (w) {
            uint64_t a = fz_below(pick_in, (uint32_t)(nb > 65535u ? 65535u : nb) + 1u);
            uint64_t z = fz_below(pick_in, (uint32_t)(nb > 65535u ? 65535u : nb) + 1u);
            if (a > z) { uint64_t x = a; a = z; z = x; }
            t0 = a > UINT64_MAX / d->bin ? UINT64_MAX : a * d->bin;
            t1 = z > UINT64_MAX / d->bin ? UINT64_MAX : z * d->bin;
        }
        memset(sum, 0, sizeof sum);
        for (i = 0; i < d->flow_count; i++) {
            uint64_t fb = 0;
            FZ_CHECK(ibcc_fabric_flow_bytes(f, i, t0, t1, &fb) == IBCC_OK,
                     "flow %u bytes [%llu, %llu)", i, (unsigned long long)t0,
                     (unsigned long long)t1);
            if (w == 0 && all_in)
                FZ_CHECK(fb == fs[i].delivered_bytes,
                         "flow %u: bins hold %llu bytes, delivered %llu", i,
                         (unsigned long long)fb,
                         (unsigned long long)fs[i].delivered_bytes);
            for (j = 0; j < rs->pn[i]; j++) sum[rs->pc[i][j]] += fb;
            if (w == 0 && all_in) {
                uint64_t ab = fs[i].acks * (uint64_t)g->ack_bytes;
                for (j = 0; j < rs->an[i]; j++) sum[rs->ac[i][j]] += ab;
            }
        }
        for (c = 0; c < nch; c++) {
            uint64_t cb = 0, tot = 0;
            FZ_CHECK(ibcc_fabric_channel_bytes(f, c, t0, t1, &cb) == IBCC_OK,
                     "channel %u bytes", c);
            FZ_CHECK(sum[c] <= cb,
                     "channel %u [%llu, %llu): flows crossing it %llu bytes, "
                     "channel %llu", c, (unsigned long long)t0,
                     (unsigned long long)t1, (unsigned long long)sum[c],
                     (unsigned long long)cb);
            if (w == 0 && all_in && !has_cnp(g))
                FZ_CHECK(sum[c] == cb,
                         "channel %u: data + ACK bytes of its flows %llu, bins %llu",
                         c, (unsigned long long)sum[c], (unsigned long long)cb);
            if (w == 0) {
                (void)ibcc_fabric_channel_totals(f, c, &tot, NULL);
                FZ_CHECK(cb <= tot, "channel %u: bins %llu above total %llu", c,
                         (unsigned long long)cb, (unsigned long long)tot);
            }
        }
    }
}

static void check_step(const ibcc_fabric *f, const cfg *g, runst *rs,
                       const obs *o, ibcc_time now, fz *pick_in)
{
    ibcc_fabric_counters cn;
    ibcc_fabric_flow_stats fs[MAXF];
    uint64_t gen = 0, del = 0, dbytes = 0, sbytes = 0, acks = 0, marked = 0;
    uint64_t made, consumed;
    uint32_t i, c;
    ibcc_result r = ibcc_fabric_check(f);
    FZ_CHECK(r == IBCC_OK, "ibcc_fabric_check at %llu: %s",
             (unsigned long long)now, ibcc_result_str(r));
    FZ_CHECK(ibcc_fabric_now(f) == now, "now %llu, asked %llu",
             (unsigned long long)ibcc_fabric_now(f), (unsigned long long)now);
    FZ_CHECK(ibcc_fabric_counters_get(f, &cn) == IBCC_OK, "counters");
    FZ_CHECK(cn.delivered <= cn.injected && cn.in_flight == cn.injected - cn.delivered
             && cn.bytes_delivered <= cn.bytes_sent
             && cn.bytes_in_network == cn.bytes_sent - cn.bytes_delivered
             && cn.data_delivered <= cn.delivered
             && cn.events >= rs->last_events && cn.hops >= rs->last_hops,
             "counters: injected %llu delivered %llu in_flight %llu bytes sent %llu"
             " delivered %llu in network %llu", (unsigned long long)cn.injected,
             (unsigned long long)cn.delivered, (unsigned long long)cn.in_flight,
             (unsigned long long)cn.bytes_sent, (unsigned long long)cn.bytes_delivered,
             (unsigned long long)cn.bytes_in_network);
    rs->last_events = cn.events;
    rs->last_hops = cn.hops;
    for (i = 0; i < g->d.flow_count; i++) {
        FZ_CHECK(ibcc_fabric_flow_stats_get(f, i, &fs[i]) == IBCC_OK, "flow %u", i);
        check_flow(f, g, rs, o, i, &fs[i], &cn, now);
        gen += fs[i].generated; del += fs[i].delivered;
        dbytes += fs[i].delivered_bytes; sbytes += fs[i].sent_bytes;
        acks += fs[i].acks; marked += fs[i].marked;
    }
    if (!rs->reset_done) {
        FZ_CHECK(cn.data_delivered == del && cn.bytes_delivered == dbytes
                 && cn.bytes_sent == sbytes && cn.injected >= gen
                 && cn.delivered >= del,
                 "counters vs flows: data delivered %llu/%llu bytes %llu/%llu sent "
                 "%llu/%llu injected %llu generated %llu",
                 (unsigned long long)cn.data_delivered, (unsigned long long)del,
                 (unsigned long long)cn.bytes_delivered, (unsigned long long)dbytes,
                 (unsigned long long)cn.bytes_sent, (unsigned long long)sbytes,
                 (unsigned long long)cn.injected, (unsigned long long)gen);
        /* replies: made at deliveries, consumed at sources */
        made = cn.injected - gen;
        consumed = cn.delivered - del;
        FZ_CHECK(consumed <= made && acks <= consumed,
                 "replies: made %llu consumed %llu acks %llu", (unsigned long long)made,
                 (unsigned long long)consumed, (unsigned long long)acks);
        if (g->worm)
            FZ_CHECK(made == 0 && consumed == 0,
                     "wormhole: %llu replies made, %llu consumed",
                     (unsigned long long)made, (unsigned long long)consumed);
        else if (g->d.dest.transport == IBCC_DEST_UNACKED)
            FZ_CHECK(made <= marked && acks == 0,
                     "UD: %llu replies for %llu marked deliveries, %llu acks",
                     (unsigned long long)made, (unsigned long long)marked,
                     (unsigned long long)acks);
        else if (has_cnp(g))
            FZ_CHECK(made >= del && made <= del + marked,
                     "ACK + CNP: %llu replies, %llu delivered, %llu marked",
                     (unsigned long long)made, (unsigned long long)del,
                     (unsigned long long)marked);
        else
            FZ_CHECK(made == del && consumed == acks,
                     "ACKs: %llu made for %llu deliveries, %llu consumed, %llu counted",
                     (unsigned long long)made, (unsigned long long)del,
                     (unsigned long long)consumed, (unsigned long long)acks);
    }
    check_classes(f, g, fs);
    check_bins(f, g, rs, fs, now, pick_in);
    for (c = 0; c < 2u * g->d.link_count; c++) {
        uint64_t bytes = 0;
        ibcc_time busy = 0;
        FZ_CHECK(ibcc_fabric_channel_totals(f, c, &bytes, &busy) == IBCC_OK,
                 "channel totals %u", c);
        FZ_CHECK(busy <= now, "channel %u: busy %llu ps in %llu ps", c,
                 (unsigned long long)busy, (unsigned long long)now);
        if (g->worm) continue;             /* no link_busy reports */
        FZ_CHECK(bytes == o->ch_bytes[c],
                 "channel %u: totals %llu bytes, observer %llu", c,
                 (unsigned long long)bytes, (unsigned long long)o->ch_bytes[c]);
        FZ_CHECK(busy <= o->ch_busy[c],
                 "channel %u: busy %llu, observed transmissions %llu", c,
                 (unsigned long long)busy, (unsigned long long)o->ch_busy[c]);
    }
    FZ_CHECK(ibcc_fabric_channel_totals(f, 2u * g->d.link_count, NULL, NULL)
             == IBCC_ERR_RANGE, "channel totals past the last channel");
}

/* ---- one run ------------------------------------------------------------------- */
/* Runs a fabric created from g's desc to the step times; checks (full)
   or only records. Returns the creation result. */
static ibcc_result run(cfg *g, const ibcc_time *t, uint32_t nsteps, int full,
                       snap *out, fz *pick_in, uint8_t split)
{
    static obs o;
    static runst rs;
    ibcc_fabric *f = NULL;
    ibcc_result r;
    uint32_t i, k;
    memset(&o, 0, sizeof o);
    memset(&rs, 0, sizeof rs);
    o.g = g;
    g->d.observer.user = &o;
    g->d.observer.sent = ob_sent;
    g->d.observer.delivered = ob_deliv;
    g->d.observer.marked = ob_marked;
    g->d.observer.link_busy = ob_busy;
    g->mem.live = g->mem.blocks = 0;
    g->mem.refused = 0;
    g->d.allocator.user = &g->mem;
    {
        ibcc_fabric_error why;
        memset(&why, 0x5a, sizeof why);
        g->d.error = &why;
        r = ibcc_fabric_create(&f, &g->d);
        g->d.error = NULL;
        /* the record says the same as the result, with a reason when
           refused and none on success */
        FZ_CHECK(why.code == r && why.line == 0 && why.file[0] == 0
                 && (r == IBCC_OK) == (why.reason[0] == 0)
                 && memchr(why.reason, 0, sizeof why.reason) != NULL,
                 "error record (%d, \"%.60s\") for result %s", (int)why.code,
                 why.reason, ibcc_result_str(r));
    }
    if (r != IBCC_OK) {
        FZ_CHECK(f == NULL && g->mem.live == 0 && g->mem.blocks == 0,
                 "create failed (%s) leaving %p and %llu bytes", ibcc_result_str(r),
                 (void *)f, (unsigned long long)g->mem.live);
        return r;
    }
    for (i = 0; i < 2u * g->d.link_count; i++) {
        const ibcc_fabric_link *k2 = &g->links[i / 2u];
        o.ch_rate[i] = k2->rate ? k2->rate : g->link_rate;
    }
    for (i = 0; i < g->d.flow_count; i++) {
        rs.pn[i] = path(f, g, g->flows[i].src, g->flows[i].dst, rs.pc[i]);
        rs.an[i] = path(f, g, g->flows[i].dst, g->flows[i].src, rs.ac[i]);
    }
    for (k = 0; k < nsteps; k++) {
        ibcc_time from = ibcc_fabric_now(f);
        if (!full && (split >> k) & 1u && t[k] > from) {
            ibcc_time mid = from + (t[k] - from) / ((split & 3u) + 2u);
            r = ibcc_fabric_run_until(f, mid);
            if (r == IBCC_OK) r = ibcc_fabric_run_until(f, mid);  /* again */
        } else {
            r = IBCC_OK;
        }
        if (r == IBCC_OK) r = ibcc_fabric_run_until(f, t[k]);
        if (r != IBCC_OK) {
            FZ_CHECK(g->run_may_fail
                     && ((r == IBCC_ERR_NOMEM && g->mem.refused)
                         || (r == IBCC_ERR_FULL && g->d.loop_capacity)),
                     "run_until %llu: %s (memory limit %llu, loop capacity %u)",
                     (unsigned long long)t[k], ibcc_result_str(r),
                     (unsigned long long)g->mem.limit, g->d.loop_capacity);
            /* the state after an internal error is not compared (the
               loop ran on to the step's end) */
            for (i = k; i < nsteps; i++) {
                memset(&out[i], 0, sizeof out[i]);
                out[i].r = r;
            }
            break;
        }
        if (full) {
            check_step(f, g, &rs, &o, t[k], pick_in);
            if (k == 0) {
                snap a, b;
                ibcc_result rp = IBCC_OK;
                take_snap(f, g, &o, IBCC_OK, &a);
                if (t[k] > 0) rp = ibcc_fabric_run_until(f, t[k] - 1u);
                take_snap(f, g, &o, IBCC_OK, &b);
                FZ_CHECK((t[k] == 0 || rp == IBCC_ERR_PAST)
                         && memcmp(&a, &b, sizeof a) == 0
                         && ibcc_fabric_now(f) == t[k],
                         "run_until into the past: %s", ibcc_result_str(rp));
                rp = ibcc_fabric_run_until(f, IBCC_FABRIC_MAX_TIME + 1u);
                take_snap(f, g, &o, IBCC_OK, &b);
                FZ_CHECK(rp == IBCC_ERR_RANGE && memcmp(&a, &b, sizeof a) == 0
                         && ibcc_fabric_now(f) == t[k],
                         "run_until beyond the time limit: %s",
                         ibcc_result_str(rp));
            }
        }
        take_snap(f, g, &o, IBCC_OK, &out[k]);
        if ((int)k == g->reset_at) {
            FZ_CHECK(ibcc_fabric_stats_reset(f) == IBCC_OK, "stats reset");
            rs.reset_done = 1;
        }
    }
    if (full && getenv("FZ_FABRIC_DUMP")) {
        ibcc_fabric_counters cn;
        (void)ibcc_fabric_counters_get(f, &cn);
        fprintf(stderr, "ran: events %llu hops %llu data delivered %llu\n",
                (unsigned long long)cn.events, (unsigned long long)cn.hops,
                (unsigned long long)cn.data_delivered);
    }
    ibcc_fabric_destroy(f);
    FZ_CHECK(g->mem.live == 0 && g->mem.blocks == 0,
             "destroy left %llu bytes in %llu blocks",
             (unsigned long long)g->mem.live, (unsigned long long)g->mem.blocks);
    return IBCC_OK;
}

static void effective(cfg *g)
{
    ibcc_fabric_desc e = g->d;
    (void)ibcc_fabric_defaults(&e);
    g->data_size = e.data_size;
    g->link_rate = e.link_rate;
    g->ack_bytes = e.dest.ack_bytes ? e.dest.ack_bytes
                   : (e.dest.scheme == IBCC_DEST_MVPM ? 22u : 20u);
    g->cnp_bytes = e.dest.cnp_bytes ? e.dest.cnp_bytes : g->ack_bytes;
}

/* FZ_FABRIC_DUMP=1 in the environment prints the decoded input (to read
   a finding). */
static void dump(const cfg *g, const ctx *c, const ibcc_time *t)
{
    const ibcc_fabric_desc *d = &g->d;
    uint32_t i;
#define U(x) ((unsigned long long)(x))
    fprintf(stderr, "sure %d (line %d) bad %d (line %d); nodes %u links %u "
            "routes %u flows %u; steps", c->sure, c->sure_line, c->bad,
            c->bad_line, d->node_count, d->link_count, d->route_count,
            d->flow_count);
    for (i = 0; i < g->nsteps; i++) fprintf(stderr, " %llu", U(t[i]));
    fprintf(stderr, "\nlink_rate %llu prop %llu fwd %llu (zero %u) data %u buf %u "
            "credits %u ack_buf %u kind %u speedup %u out %u/%u nic_fifo %u "
            "host_cap %llu\n", U(d->link_rate), U(d->prop_delay),
            U(d->fwd_delay), d->fwd_zero, d->data_size, d->buf_packets,
            d->buf_credits, d->ack_buf_packets, (unsigned)d->switch_kind,
            d->speedup, d->out_buf_packets, d->out_buf_credits, d->nic_fifo,
            U(d->host_cap));
    fprintf(stderr, "flow_control %u pfc xoff %u xon %u size %u quanta %u "
            "refresh %llu\n", (unsigned)d->flow_control, d->pfc.xoff,
            d->pfc.xon, d->pfc.size, d->pfc.quanta, U(d->pfc.refresh));
    fprintf(stderr, "arbiter %u/%u marker %u cls %u trig %u mvpm %u t_out %u "
            "iba %u/%u/%u; dest %u/%u/%u ack %u cnp %u; law %u/%u rmin %g m %g "
            "rates %u size %u; mvcm ws %llu dw %u k %u n %u; horizon %llu bin "
            "%llu loop %u mem %llu seed %llu; slack %u stop %u go %u prio %u seg %u/%u/%u\n",
            (unsigned)d->arbiter.policy, d->arbiter.bypass_limit,
            (unsigned)d->marker.engine, (unsigned)d->marker.classify,
            d->marker.trigger, d->marker.mvpm_in_threshold, d->marker.t_out,
            d->marker.iba_threshold, d->marker.iba_packet_size,
            d->marker.iba_marking_rate, d->dest.scheme, d->dest.transport,
            d->dest.becn_by_cnp, d->dest.ack_bytes, d->dest.cnp_bytes,
            (unsigned)d->law.kind, (unsigned)d->law.form, d->law.rmin, d->law.m,
            (unsigned)d->law.rates, d->law.table_size, U(d->mvcm.ws),
            d->mvcm.dw_max, d->mvcm.k, d->mvcm.n, U(d->horizon), U(d->bin),
            d->loop_capacity, U(g->mem.limit), U(d->seed), d->slack_bytes,
            d->stop_mark, d->go_mark, d->worm_priority, d->segment.seg_bytes,
            d->segment.adaptive, d->segment.slack_bytes);
    for (i = 0; i < d->node_count; i++)
        fprintf(stderr, "node %u: kind %u ports %u switch %u\n", i,
                g->nodes[i].kind, g->nodes[i].ports,
                (unsigned)g->nodes[i].switch_kind);
    for (i = 0; i < d->link_count; i++)
        fprintf(stderr, "link %u: %u.%u - %u.%u rate %llu prop %llu\n", i,
                g->links[i].a, g->links[i].a_port, g->links[i].b,
                g->links[i].b_port, U(g->links[i].rate), U(g->links[i].prop));
    for (i = 0; i < d->flow_count; i++) {
        const ibcc_fabric_flow *x = &g->flows[i];
        fprintf(stderr, "flow %u: %u -> %u traffic %u agent %u window %u size %u "
                "cls %u pers %u start %llu stop %llu on %llu off %llu offered "
                "%llu rate %llu packets %llu after %llu msg %u exp %u prio %u\n",
                i, x->src,
                x->dst, x->traffic, x->agent, x->window, x->size, x->cls,
                x->persistent, U(x->start), U(x->stop), U(x->on_mean),
                U(x->off_mean), U(x->offered), U(x->rate), U(x->packets),
                U(x->start_after), x->msg_bytes, x->msg_exp, x->prio);
    }
#undef U
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static cfg g;
    static snap a[MAXSTEP], b[MAXSTEP];
    ctx c;
    ibcc_time t[MAXSTEP], total;
    uint32_t k;
    ibcc_result ra, rb;
    fz pick_in;
    memset(&g, 0, sizeof g);
    fz_init(&c.in, data, size);
    c.sure = 1;
    c.bad = 0;
    c.sure_line = c.bad_line = 0;
    g.reset_at = -1;
    c.allow_bad = fz_u8(&c.in) >= 208u;
    c.allow_wild = fz_u8(&c.in) >= 128u;
    if (!decode_topology(&c, &g)) return 0;
    decode_desc(&c, &g);
    decode_wormhole(&c, &g);
    decode_flows(&c, &g);
    {
        /* switch kinds: wormhole throughout or not at all; priorities
           only in wormhole fabrics */
        uint32_t i, nw = 0;
        for (i = 0; i < g.d.node_count; i++) {
            uint32_t k = (uint32_t)g.nodes[i].switch_kind;
            if (g.nodes[i].kind != IBCC_FABRIC_SWITCH) continue;
            if (k == 0) k = (uint32_t)g.d.switch_kind;
            nw += k == IBCC_SWITCH_WORMHOLE;
        }
        g.worm = nw > 0 && nw == g.nsw;
        if (nw > 0 && nw < g.nsw) BAD(&c);           /* UNSUPPORTED */
        if (g.worm) UNSURE(&c);
        for (i = 0; i < g.d.flow_count && !g.worm; i++)
            if (g.flows[i].prio) BAD(&c);
    }
    g.nsteps = fz_range(&c.in, 1, MAXSTEP);
    for (k = 0; k < g.nsteps; k++) g.step_frac[k] = fz_u16(&c.in);
    if (chance(&c, 20)) g.reset_at = (int)fz_below(&c.in, g.nsteps);
    g.split = fz_u8(&c.in);
    /* PFC links (last, so that older inputs decode as before): only on
       an input nothing made bad (PFC sizes the buffers itself), its
       thresholds from anywhere; accepted or refused, never a crash, and
       every property below holds for an accepted one */
    if (!c.bad && chance(&c, 48)) {
        ibcc_pfc_desc *pf = &g.d.pfc;
        g.d.flow_control = IBCC_FLOW_PFC;
        g.d.buf_packets = fz_u8(&c.in) < 224u ? 0u : fz_u16(&c.in);
        g.d.buf_credits = fz_u8(&c.in) < 224u ? 0u : fz_u16(&c.in);
        g.d.out_buf_credits = 0;
        pf->xoff = chance(&c, 128) ? 0u : (uint32_t)fz_u16(&c.in) * 4u;
        pf->xon = chance(&c, 128) ? 0u : (uint32_t)fz_u16(&c.in) * 2u;
        pf->size = chance(&c, 160) ? 0u : (uint32_t)fz_u16(&c.in) * 16u;
        pf->quanta = chance(&c, 128) ? 0u : fz_u16(&c.in);
        pf->refresh = chance(&c, 192) ? 0u
                      : (ibcc_time)fz_u16(&c.in) * IBCC_NS(10);
        UNSURE(&c);
    }
    pick_in = c.in;                          /* the rest picks bin windows */
    g.d.nodes = g.nodes;
    g.d.links = g.links;
    g.d.routes = g.routes;
    g.d.flows = g.d.flow_count ? g.flows : NULL;
    effective(&g);
    /* step times: increasing fractions of the (bounded) run */
    total = run_length(&g);
    {
        uint64_t acc = 0, sum = 0;
        for (k = 0; k < g.nsteps; k++) sum += 1u + g.step_frac[k];
        for (k = 0; k < g.nsteps; k++) {
            acc += 1u + g.step_frac[k];
            t[k] = (ibcc_time)((double)total * ((double)acc / (double)sum));
        }
        t[g.nsteps - 1u] = total;
    }
    if (getenv("FZ_FABRIC_DUMP")) dump(&g, &c, t);
    ra = run(&g, t, g.nsteps, 1, a, &pick_in, 0);
    if (c.bad)
        FZ_CHECK(ra != IBCC_OK, "a description outside the documented ranges "
                 "was accepted (fuzz_fabric.c line %d)", c.bad_line);
    if (getenv("FZ_FABRIC_DUMP"))
        fprintf(stderr, "create: %s, run length %llu ps\n", ibcc_result_str(ra),
                (unsigned long long)total);
    /* out of memory only when the allocator said so */
    FZ_CHECK(ra != IBCC_ERR_NOMEM || g.mem.refused,
             "create: NOMEM without a refused allocation");
    if (c.sure && !c.bad && !g.mem.refused)
        FZ_CHECK(ra == IBCC_OK, "a description inside the sure zone was refused:"
                 " %s", ibcc_result_str(ra));
    (void)c.sure_line;
    if (ra != IBCC_OK) return 0;
    /* the twin: same desc, steps possibly cut into more calls */
    rb = run(&g, t, g.nsteps, 0, b, &pick_in, g.split);
    FZ_CHECK(rb == IBCC_OK, "twin creation: %s", ibcc_result_str(rb));
    for (k = 0; k < g.nsteps; k++)
        FZ_CHECK(memcmp(&a[k], &b[k], sizeof a[k]) == 0,
                 "step %u: the twin run differs (events %llu / %llu, delivered "
                 "%llu / %llu, hash %llx / %llx)", k,
                 (unsigned long long)a[k].cn.events, (unsigned long long)b[k].cn.events,
                 (unsigned long long)a[k].cn.delivered,
                 (unsigned long long)b[k].cn.delivered,
                 (unsigned long long)a[k].hash, (unsigned long long)b[k].hash);
    return 0;
}
