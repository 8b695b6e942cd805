#include "ibccsim.h"
/* ---- mvcm: MVCM on a k-ary n-fly [F] ---------------------------------------
   A k-ary n-fly bidirectional MIN of CIOQ switches (speedup 2, buffers in
   64-byte credits), links of 1 byte per cycle (1 GB/s: a cycle is 1 ns),
   3 cycles a hop, 22-byte headers and ACKs, one queue per destination at
   every source. Every host but the hot sources sends uniform traffic at
   the load; once the network has delivered --hot-after packets, the
   --hot-sources hosts send --hot-packets packets each to the hot host
   (the last one) at the same rate, then stop. Classes: 0 cold (not addressed to the hot host), 1 the
   hot spot flows, 2 uniform flows to the hot host. */

static const char *const mv_names[] = {"none", "rp", "pi", "mvcm", "window"};

/* hot-spot sources by default: 64, at most a quarter of the hosts (the
   number is in [F]'s Table 3, which the text lacks; docs/scenario_mvcm.md
   gives the reason for this choice) */
#define MV_HOT_DEFAULT(h) ((h) / 4u < 64u ? (h) / 4u : 64u)

/* [F] §4.3 and §5.1: a hop (routing, switching and link) takes 3 cycles;
   ibcc spends it as 1 ns on the wire and 2 ns in the switch. */
#define MV_PROP IBCC_NS(1)
#define MV_FWD IBCC_NS(2)


typedef struct mv_obs {
    const ibcc_fabric_flow *flows;
    ibcc_time t_hs, t_he, base0, span;
    int hs, want_hs;
    uint64_t count, hot_after, hot_bytes, hot_bytes_run;
    uint64_t cold_n, cold_bytes, base_n, all_n;
    double cold_lat, base_lat, all_lat;
    uint64_t cold_marked, cold_total, hot_marked, hot_valid, hot_total, cold_valid;
    double hot_lat, hs_lat, end_lat;
    uint64_t hs_n, end_n;
    ibcc_time end0, hot_last;    /* hot_last: the last hot delivery */
    /* series by delivery bin; s_hl: bytes into the hot host */
    uint64_t *s_n[2], *s_bytes[2], *s_hl;
    double *s_lat[2];
    uint64_t nbins;
    ibcc_time bin;
    /* the hot spot's first moments: hot packets in the network (sent,
       not delivered) now, at most, and at most per bin (s_hnet); when the
       first marked hot packet arrived and when the last hot source had
       one arrive (hot_seen: per hot flow, from flow hot0); s_hend: 1 +
       the level after the bin's last change (0: none, the level of the
       bin before holds through it); marks set at
       the switches of each stage (rank) on hot and cold packets while
       the hot spot lasts */
    uint64_t hot_net, hot_net_max, *s_hnet, *s_hend;
    ibcc_time first_mark, all_marked;
    uint32_t hot0, nhot, nseen;
    unsigned char *hot_seen;
    const uint32_t *rank;
    uint64_t marks[2][MV_MAXN + 1];
} mv_obs;

/* the hot packets in the network changed at t: the bin's highest level
   and its level after this change */
static void mv_hnet_bin(mv_obs *o, ibcc_time t)
{
    uint64_t b = o->nbins ? t / o->bin : 0;
    if (!o->nbins || b >= o->nbins) return;
    if (o->hot_net > o->s_hnet[b]) o->s_hnet[b] = o->hot_net;
    o->s_hend[b] = o->hot_net + 1u;
}

/* a hot packet left its source */
static void mv_sent(void *u, const ibcc_fabric_pkt *p)
{
    mv_obs *o = (mv_obs *)u;
    if (o->flows[p->flow].cls != 1) return;
    o->hot_net++;
    if (o->hot_net > o->hot_net_max) o->hot_net_max = o->hot_net;
    mv_hnet_bin(o, p->t);
}

/* a switch set a mark (MB, VB, FECN) on a packet */
static void mv_marked(void *u, const ibcc_fabric_pkt *p)
{
    mv_obs *o = (mv_obs *)u;
    unsigned c = o->flows[p->flow].cls, st = o->rank[p->node];
    if (!o->hs || p->t < o->t_hs || p->t >= o->t_he || c == 2 || st > MV_MAXN) return;
    o->marks[c == 1][st]++;
}

static void mv_deliv(void *u, const ibcc_fabric_pkt *p)
{
    mv_obs *o = (mv_obs *)u;
    unsigned c = o->flows[p->flow].cls;
    double lat = (double)(p->t - p->t_gen) / 1000.0;   /* cycles (ns) */
    int mk = (p->hdr & (IBCC_FECN | IBCC_MB)) != 0;
    o->count++;
    if (c == 1) {
        o->hot_net--;
        mv_hnet_bin(o, p->t);
        if (mk && p->flow >= o->hot0 && p->flow - o->hot0 < o->nhot
            && !o->hot_seen[p->flow - o->hot0]) {
            o->hot_seen[p->flow - o->hot0] = 1;
            if (o->nseen++ == 0) o->first_mark = p->t;
            if (o->nseen == o->nhot) o->all_marked = p->t;
        }
    }
    if (o->want_hs && !o->hs && o->count == o->hot_after) {
        o->hs = 1;                       /* the hot flows open now */
        o->t_hs = p->t;
        o->t_he = p->t + o->span;
    }
    if (o->hs && c != 0 && p->t >= o->t_hs && p->t < o->t_he)
        o->hot_bytes += p->size;         /* into the hot host */
    if (o->hs && c != 0 && p->t >= o->t_hs) o->hot_bytes_run += p->size;
    o->all_n++;
    o->all_lat += lat;
    if (o->hs && p->t_gen >= o->t_hs && p->t_gen < o->t_he) { o->hs_n++; o->hs_lat += lat; }
    if (o->end0 && p->t >= o->end0) { o->end_n++; o->end_lat += lat; }
    if (c == 0) {
        if (o->hs && p->t_gen >= o->t_hs && p->t_gen < o->t_he) {
            o->cold_n++;
            o->cold_lat += lat;
        } else if (!o->hs || p->t_gen < o->t_hs) {
            if (p->t_gen >= o->base0) { o->base_n++; o->base_lat += lat; }
        }
        if (o->hs && p->t >= o->t_hs && p->t < o->t_he) o->cold_bytes += p->size;
        o->cold_total++;
        o->cold_marked += (uint64_t)mk;
        o->cold_valid += (uint64_t)((p->hdr & IBCC_VB) != 0);
    } else if (c == 1) {
        o->hot_last = p->t;
        o->hot_lat += lat;
        o->hot_total++;
        o->hot_marked += (uint64_t)mk;
        o->hot_valid += (uint64_t)((p->hdr & IBCC_VB) != 0);
    }
    if (o->nbins) {
        uint64_t b = p->t / o->bin;
        unsigned s = c == 1 ? 1u : 0u;
        if (c != 0 && b < o->nbins) o->s_hl[b] += p->size;
        if (c == 2) return;
        if (b < o->nbins) {
            o->s_n[s][b]++;
            o->s_bytes[s][b] += p->size;
            o->s_lat[s][b] += lat;
        }
    }
}

/* --payload 256|512|1024|variable */
static int mv_payload(const opt *p, const char *v, void *base, char *buf,
                      size_t len)
{
    mv_opts *o = (mv_opts *)base;
    unsigned long long u;
    (void)p;
    if (!v) {
        if (o->variable) snprintf(buf, len, "variable");
        else snprintf(buf, len, "%u", o->payload);
        return 0;
    }
    if (!strcmp(v, "variable")) { o->variable = 1; o->payload = 1024; }
    else if (parse_uint(v, 256, 1024, &u) && (u == 256 || u == 512 || u == 1024)) {
        o->payload = (unsigned)u;
        o->variable = 0;
    } else return bad("--payload", v, "256, 512, 1024 or variable");
    return 0;
}

#define OPT_T mv_opts
static const opt mv_opt[] = {
    OPT_UINT("k", k, 2, 16, "K", NULL, "4", "the k-ary n-fly: k"),
    OPT_UINT("n", n, 1, MV_MAXN, "N", NULL, "3", "the k-ary n-fly: n"),
    OPT_CHOICE("cmm", cmm, "none|rp|pi|mvcm|window", "mvcm",
               "congestion management\n"
               "rp: input-triggered marking + LIPD, window 1\n"
               "pi: IBA output-buffer marking + CCT delays,\n"
               "    CCTI_Increase = hot-spot degree - 1\n"
               "mvcm: MVPM marking/validation + MVCM\n"
               "window: a static window only ([F] Fig 4)"),
    {"window", OT_UINT, OPT_F(window), 1, 65535, NULL, "W", "packets", NULL,
     "window: packets in flight per flow", "2", NULL, 0, NULL, NULL, NULL},
    OPT_SWITCH("no-warm", nowarm, 1, "mvcm: ignore warm (MB-only) ACKs"),
    OPT_SWITCH("no-cap", nocap, 1, "mvcm: no cap on the waiting-slot growth"),
    OPT_SWITCH("input-only", mbonly, 1, "mvcm: act on input marks alone (MB is hot)"),
    OPT_SWITCH("validated", validated, 1, "pi: MVPM marks, the CCT reacts to validated ACKs"),
    OPT_UINT("link-bytes", link_bytes, 1, 64, "B", "bytes/cycle", "1", "link rate"),
    {"formula", OT_SWITCH, OPT_F(formula), 0, 1, NULL, NULL, NULL, NULL,
     "print RTTmin, omega and DWmax and stop", NULL, NULL, OPT_NOPARAM, NULL, NULL, NULL},
    OPT_UINT("speedup", speedup, 1, 16, "S", NULL, "2", "CIOQ crossbar speedup"),
    OPT_SWITCH("vct", vct, 1, "input-buffered cut-through switches instead"),
    OPT_SWITCH("tree", tree, 1, "wire the stages as a k-ary n-tree (the same\n"
               "BMIN) instead of by the perfect shuffle"),
    OPT_DOUBLE("load-sw", load, 1e-4, 64, "L", "bytes/cycle", "0.45",
               "bytes/cycle per first-stage switch ([F]'s\nunit: L/k per host)"),
    {"load", OT_DOUBLE, OPT_F(load_h), 1e-4, 1, NULL, "L", "bytes/cycle", NULL,
     "bytes/cycle per host instead", NULL, NULL, 0, NULL, NULL, NULL},
    OPT_FUNC("payload", mv_payload, "256|512|1024|variable", "256",
             "payload bytes (buffers 1, 2, 4, 3 KB;\n"
             "variable: each flow a payload 256..1024)"),
    {"hot-sources", OT_UINT, OPT_F(hot_sources), 0, 1u << 20, NULL, "N", NULL, NULL,
     "hot-spot sources, hosts that send nothing\nelse (0: no hot spot)",
     "64, at most hosts/4", NULL, 0, NULL, NULL, NULL},
    OPT_UINT("hot-packets", hot_packets, 1, 1e9, "N", "packets", "1000",
             "packets each hot source sends"),
    OPT_U64("hot-after", hot_after, 1, 1e9, "N", "packets", "50000",
            "delivered packets before the hot spot"),
    {"time", OT_DOUBLE, OPT_F(time_us), 0.001, 1e7, NULL, "US", "us", NULL,
     "simulated time", "until the hot spot has ended and as long again",
     NULL, 0, NULL, NULL, NULL},
    OPT_DOUBLE("bin", bin_us, 0.001, 1e7, "US", "us", "20", "series resolution"),
    OPT_U64("seed", seed, 0, 18446744073709551615.0, "N", NULL, "1", "random seed"),
    OPT_OUTPUTS("CSV: per bin cold and hot latency (cycles) and\n"
                "throughput (bytes/cycle/host), by delivery time,\n"
                "and the most hot packets in the network",
                "CSV metric,value", "no table"),
};
#undef OPT_T

const opt_cmd mv_cmd = {
    "mvcm", NULL,
    "MVCM and its comparators on a k-ary n-fly BMIN ([F]): CIOQ switches with\n"
    "speedup 2 and 64-byte credits, 1 byte/cycle links (a cycle is 1 ns),\n"
    "22-byte headers and ACKs, per-destination queues at the sources. Uniform\n"
    "traffic from every other host at --load-sw; after --hot-after delivered\n"
    "packets the --hot-sources hosts send --hot-packets each to the last host\n"
    "at the same rate (and nothing else).\n"
    "Hops take 3 cycles ([F] 4.3); DWmax and WS come from [F]'s RTTmin formula.\n",
    mv_opt, OPT_N(mv_opt), NULL, NULL, 0
};

void mv_defaults(mv_opts *o)
{
    memset(o, 0, sizeof *o);
    opt_defaults(&mv_cmd, o);
}

static int mv_parse(int argc, char **argv, mv_opts *o)
{
    int rc = opt_parse(&mv_cmd, argc, argv, o);
    if (rc) return rc;
    o->time_set = opt_given("time");
    o->hot_set = opt_given("hot-sources");
    if (opt_given("load") && opt_given("load-sw")) {
        fprintf(stderr, "ibccsim mvcm: give --load or --load-sw, not both\n");
        return 2;
    }
    o->load_host = opt_given("load");
    if ((o->nowarm || o->nocap || o->mbonly) && o->cmm != MV_MVCM) {
        fprintf(stderr, "ibccsim mvcm: --no-warm, --no-cap and --input-only are MVCM variants (--cmm mvcm)\n");
        return 2;
    }
    if (o->window && o->cmm != MV_WINDOW) {
        fprintf(stderr, "ibccsim mvcm: --window is the static window's size (--cmm window)\n");
        return 2;
    }
    if (o->validated && o->cmm != MV_PI) {
        fprintf(stderr, "ibccsim mvcm: --validated is a PI variant (--cmm pi)\n");
        return 2;
    }
    return 0;
}

int mv_run(const mv_opts *o, mv_res *res)
{
    ibcc_topo t;
    ibcc_fabric_desc d;
    ibcc_fabric *f = NULL;
    ibcc_fabric_flow *flows = NULL;
    uint32_t *hosts = NULL, H, nu = 0, nh = 0, i, hot, ns;
    mv_obs ob;
    ibcc_result r;
    ibcc_rng rng;
    ibcc_time gap = 0, end, step = IBCC_US(10);
    static uint16_t cct[1024];
    unsigned buf = o->variable ? 48u : o->payload / 16u;   /* credits */
    uint32_t size = 22u + o->payload;
    ibcc_rate lrate = IBCC_GBYTES(1) * o->link_bytes;
    double lh = o->load_host ? o->load_h : o->load / o->k;   /* bytes/cycle/host */
    ibcc_rate hrate = (ibcc_rate)(lh * 1e9 + 0.5);
    int ok = 0;
    memset(res, 0, sizeof *res);
    memset(&ob, 0, sizeof ob);
    res->load_host = lh;
    {
        /* [F] 4.3: h = the switches of the longest path (2n - 1: [F]'s h 9
           for five stages), t_hop 3 cycles, B the link's bytes per cycle;
           RTTmin = 2 h t_hop + (L_data + L_ack) / B, omega = RTTmin B /
           L_data, DWmax = the integer at or above omega; omega_hi is the
           bound for a payload tending to 0 (L_data = the 22-byte header) */
        uint32_t h = 2u * o->n - 1u, ld = o->variable ? 22u + 256u : size;
        double hb = ibcc_mvcm_hop_bytes(MV_PROP + MV_FWD, lrate), lo;
        ibcc_time rtt = 0;
        if (ibcc_mvcm_omega(h, hb, ld, 22, &res->omega) != IBCC_OK
            || ibcc_mvcm_omega_bounds(h, hb, 22, ld, 22, &lo, &res->omega_hi) != IBCC_OK
            || ibcc_mvcm_dw_max(res->omega, &res->dw_max) != IBCC_OK
            || ibcc_mvcm_rtt_min(h, MV_PROP + MV_FWD, lrate, ld, 22, &rtt) != IBCC_OK) {
            fprintf(stderr, "ibccsim mvcm: no RTTmin for this network\n");
            return 0;
        }
        res->rtt_min = (double)rtt / 1000.0;
        if (o->formula) return 1;
    }
    if (lh > o->link_bytes) {
        fprintf(stderr, "ibccsim mvcm: load %g bytes/cycle per host is above the link rate\n", lh);
        return 0;
    }
    if ((!o->tree ? ibcc_topo_nfly(&t, o->k, o->n, NULL)
                    : ibcc_topo_fattree(&t, o->k, o->n, NULL)) != IBCC_OK) {
        fprintf(stderr, "ibccsim mvcm: the %u-ary %u-fly is too large\n", o->k, o->n);
        return 0;
    }
    H = t.host_count;
    hot = H - 1u;
    ns = o->hot_set ? o->hot_sources : MV_HOT_DEFAULT(H);
    if (ns > H - 1u) {
        fprintf(stderr, "ibccsim mvcm: --hot-sources %u: at most %u (hosts - 1)\n", ns, H - 1u);
        ibcc_topo_free(&t);
        return 0;
    }
    flows = (ibcc_fabric_flow *)calloc((size_t)H * H + 1u, sizeof *flows);
    hosts = (uint32_t *)calloc(H, sizeof *hosts);
    if (!flows || !hosts) goto out;
    for (i = 0; i < H; i++) hosts[i] = i;
    if (ibcc_traffic_uniform(hosts, H, hrate, flows, H * H, &nu) != IBCC_OK) {
        fprintf(stderr, "ibccsim mvcm: load %g is too small for %u hosts\n", lh, H);
        goto out;
    }
    if (ns) {
        uint32_t k2, j, w = 0;
        /* hot sources spread over the hosts: every (H-1)/ns-th; [F] 5.1:
           they stay silent until the hot spot and then send only to it,
           so they send no uniform traffic (their uniform flows go) */
        uint32_t *pick = (uint32_t *)calloc(ns, sizeof *pick);
        unsigned char *isHot = (unsigned char *)calloc(H, 1);
        if (!pick || !isHot) { free(pick); free(isHot); goto out; }
        for (k2 = 0; k2 < ns; k2++) {
            pick[k2] = (uint32_t)(((uint64_t)k2 * (H - 1u)) / ns);
            isHot[pick[k2]] = 1;
        }
        for (j = 0; j < nu; j++)
            if (!isHot[flows[j].src]) flows[w++] = flows[j];
        nu = w;
        r = ibcc_traffic_hotspot(pick, ns, hot, o->hot_packets, hrate, o->hot_after,
                                 flows + nu, H * H + 1u - nu, &nh);
        free(pick);
        free(isHot);
        if (r != IBCC_OK) goto out;
    }
    res->hsd = ns;
    ibcc_rng_seed(&rng, o->seed ^ 0x5eedu);
    for (i = 0; i < nu + nh; i++) {
        ibcc_fabric_flow *x = &flows[i];
        x->size = o->variable ? 22u + 256u + (uint32_t)ibcc_rng_below(&rng, 769) : size;
        x->cls = i >= nu ? 1u : (x->dst == hot ? 2u : 0u);
        switch (o->cmm) {
        case MV_RP: x->agent = IBCC_AGENT_LAW; x->window = 1; break;
        case MV_PI: x->agent = IBCC_AGENT_CCT; break;
        case MV_MVCM: x->agent = IBCC_AGENT_MVCM; break;
        case MV_WINDOW: x->agent = IBCC_AGENT_WINDOW; x->window = o->window ? o->window : 2u; break;
        default: x->agent = IBCC_AGENT_NONE; break;
        }
    }
    memset(&d, 0, sizeof d);
    (void)ibcc_topo_apply(&t, &d);
    d.flows = flows;
    d.flow_count = nu + nh;
    d.switch_kind = o->vct ? IBCC_SWITCH_VCT : IBCC_SWITCH_CIOQ;
    d.speedup = o->speedup ? o->speedup : 2u;
    d.link_rate = lrate;
    d.prop_delay = MV_PROP;
    d.fwd_delay = MV_FWD;
    d.data_size = size;
    d.buf_credits = buf;
    d.buf_packets = 64;
    d.out_buf_packets = 64;
    d.dest.ack_bytes = 22;
    d.seed = o->seed;
    {
        /* buffers hold only a few packets here (3 of 278 bytes in 16
           credits), so the marker levels are set in what a packet finds:
           an input is "full" when it has no room for another packet
           (trigger = capacity - units + 1), and MVPM marks when the
           occupancy with the arriving packet passes 2/3 of the buffer
           (found > 2/3 capacity - units); the output threshold stays at
           1/3 of the output buffer */
        unsigned u = (o->variable ? 22u + 1024u : size) / 64u + 1u;
        unsigned in_thr = 2u * buf / 3u > u ? 2u * buf / 3u - u : 1u;
        d.marker.trigger = buf >= u ? buf - u + 1u : 1u;
        d.marker.mvpm_in_threshold = in_thr;
    }
    if (o->cmm == MV_RP) {
        d.marker.engine = IBCC_MARKER_INPUT;
        d.law.kind = IBCC_LAW_LIPD;
    } else if (o->cmm == MV_PI) {
        if (o->validated) {
            d.marker.engine = IBCC_MARKER_MVPM;
            d.dest.scheme = IBCC_DEST_MVPM;
        } else {
            /* IBA output-buffer threshold ([F] 3.2.2 leaves the level to
               the vendor): Threshold 11, a level of 5/16 of the output
               buffer, the same as MVPM's validation level (1/3, [F]
               4.3), every eligible packet marked */
            d.marker.engine = IBCC_MARKER_IBA;
            d.marker.iba_threshold = 11;
            /* [F] 3.2.2's PI marks on the output queue's level alone
               (OPM): the down ports 0..k-1 (every switch has them) in
               Victim_Mask, so a down port short of downstream credits
               (inside a tree, not only at its root) marks too; up ports
               keep IBA's root test (the mask is one for all switches and
               top-stage switches have only k ports) */
            d.marker.victim_mask[0] = o->k >= 32u ? 0xffffffffu : (1u << o->k) - 1u;
            d.dest.scheme = IBCC_DEST_IBA;
        }
        /* CCT-based delay insertion with no cap that matters: a linear
           table of 1024 entries (IPD up to 1023 packet times); [F] 3.2.2:
           each marked ACK raises the index by a constant set by the
           hot-spot degree: HSD - 1, the delay (in packet times) that
           gives each of HSD sources its share of the hot link */
        (void)ibcc_cct_fill_linear(cct, 1024);
        d.cct.table = cct;
        d.cct.table_len = 1024;
        d.cct.max_pkt_bytes = size;
        res->ccti_increase = ns > 2u ? ns - 1u : 1u;
        for (i = 0; i < IBCC_CCT_SLS; i++) {
            d.cct.sl[i].ccti_timer = 10;
            d.cct.sl[i].ccti_increase = res->ccti_increase;
        }
    } else if (o->cmm == MV_MVCM) {
        ibcc_time ws = 0;
        d.marker.engine = IBCC_MARKER_MVPM;
        d.dest.scheme = IBCC_DEST_MVPM;
        d.mvcm.dw_max = res->dw_max;
        d.mvcm.k = o->k;
        d.mvcm.n = o->n;
        d.mvcm.flags = (o->nowarm ? IBCC_MVCM_NO_WARM : 0u)
                     | (o->nocap ? IBCC_MVCM_NO_CAP : 0u)
                     | (o->mbonly ? IBCC_MVCM_MB_ONLY : 0u);
        /* WS = RTTmin ([F] 4.3, computed above) */
        ws = (ibcc_time)(res->rtt_min * 1000.0 + 0.5);
        d.mvcm.ws = ws;
    }
    ob.flows = flows;
    ob.rank = t.rank;
    ob.hot0 = nu;
    ob.nhot = nh;
    if (nh && !(ob.hot_seen = (unsigned char *)calloc(nh, 1))) goto out;
    ob.bin = (ibcc_time)(o->bin_us * 1e6 + 0.5);
    (void)ibcc_wire_time(size, hrate, &gap);
    ob.want_hs = ns != 0;
    ob.hot_after = o->hot_after;
    ob.span = gap * o->hot_packets;
    d.observer.delivered = mv_deliv;
    d.observer.sent = mv_sent;
    d.observer.marked = mv_marked;
    d.observer.user = &ob;
    if ((r = fabric_create("mvcm", &f, &d)) != IBCC_OK) goto out;
    {
        /* series from time 0: room for the warm-up (estimated from the
           load, with margin), the hot spot and as long again */
        double warm = (double)o->hot_after * size / ((double)H * lh);
        ibcc_time guess = (ibcc_time)(3.0 * warm * 1000.0) + 3u * ob.span;
        unsigned s2;
        if (o->time_set) guess = (ibcc_time)(o->time_us * 1e6 + 0.5);
        ob.nbins = guess / ob.bin + 1u;
        for (s2 = 0; s2 < 2; s2++) {
            ob.s_n[s2] = (uint64_t *)calloc(ob.nbins, 8);
            ob.s_bytes[s2] = (uint64_t *)calloc(ob.nbins, 8);
            ob.s_lat[s2] = (double *)calloc(ob.nbins, sizeof(double));
            if (!ob.s_n[s2] || !ob.s_bytes[s2] || !ob.s_lat[s2]) goto out;
        }
        ob.s_hl = (uint64_t *)calloc(ob.nbins, 8);
        ob.s_hnet = (uint64_t *)calloc(ob.nbins, 8);
        ob.s_hend = (uint64_t *)calloc(ob.nbins, 8);
        if (!ob.s_hl || !ob.s_hnet || !ob.s_hend) goto out;
    }
    /* run until the hot spot starts (or the time given) */
    end = o->time_set ? (ibcc_time)(o->time_us * 1e6 + 0.5) : IBCC_TIME_MAX;
    while (ibcc_fabric_now(f) < end) {
        ibcc_fabric_counters c;
        memset(&c, 0, sizeof c);
        (void)ibcc_fabric_counters_get(f, &c);
        if (ns && c.data_delivered >= o->hot_after) break;
        if (!ns && !o->time_set && c.data_delivered >= o->hot_after) break;
        if (ibcc_fabric_now(f) > IBCC_S(1)) break;               /* stuck */
        if (ibcc_fabric_run_until(f, ibcc_fabric_now(f) + step) != IBCC_OK) goto out;
    }
    ob.base0 = ibcc_fabric_now(f) / 2u;
    /* the hot flows opened at the hot_after-th delivery (the observer
       holds the instant); the base latency is that of cold packets
       generated in the second half of the time before */
    if (ob.hs) {
        ob.base0 = ob.t_hs / 2u;
        res->hot_started = 1;
    }
    if (!o->time_set)
        end = ob.hs ? ob.t_he + (ob.t_he - ob.t_hs) : ibcc_fabric_now(f) * 2u;
    /* the end window: the last tenth of the run after the hot spot
       started (of the whole run without one) */
    ob.end0 = end - (end - (ob.hs ? ob.t_hs : 0)) / 10u;
    if (end > ibcc_fabric_now(f)) {
        prog pg;
        ibcc_result pr;
        prog_start(&pg, "mvcm", f, end);
        pr = prog_run(&pg, f, end);
        prog_end(&pg);
        if (pr != IBCC_OK) goto out;
    }
    res->conserved = ibcc_fabric_check(f) == IBCC_OK;
    (void)ibcc_fabric_mvcm_stats(f, &res->mv);
    {
        ibcc_fabric_counters c;
        memset(&c, 0, sizeof c);
        (void)ibcc_fabric_counters_get(f, &c);
        res->delivered = c.data_delivered;
        res->n_cold = ob.cold_n;
        res->n_base = ob.base_n;
        res->n_all = ob.all_n;
        res->n_hot = ob.hot_total;
        res->n_hs = ob.hs_n;
        res->n_end = ob.end_n;
        res->n_cold_total = ob.cold_total;
        res->lat_cold = ob.cold_n ? ob.cold_lat / (double)ob.cold_n : 0;
        res->lat_base = ob.base_n ? ob.base_lat / (double)ob.base_n : 0;
        res->lat_all = ob.all_n ? ob.all_lat / (double)ob.all_n : 0;
        res->accepted = (double)c.bytes_delivered / (double)H
                        / ((double)ibcc_fabric_now(f) / 1000.0);
        if (ob.hs) {
            double cyc = (double)(ob.t_he - ob.t_hs) / 1000.0;
            res->thr_cold = (double)ob.cold_bytes / (double)H / cyc;
            res->hot_util = (double)ob.hot_bytes / cyc / o->link_bytes;
            /* from the hot spot's start to the end of the run */
            res->hot_util_run = (double)ob.hot_bytes_run
                                / ((double)(end - ob.t_hs) / 1000.0) / o->link_bytes;
        }
        res->lat_hot = ob.hot_total ? ob.hot_lat / (double)ob.hot_total : 0;
        res->hot_delivered = ob.hot_total;
        res->hot_generated = (unsigned long long)nh * o->hot_packets;
        res->lat_hs_all = ob.hs_n ? ob.hs_lat / (double)ob.hs_n : 0;
        res->lat_end = ob.end_n ? ob.end_lat / (double)ob.end_n : 0;
        {
            /* over the whole bins of the run: the highest mean cold and
               hot latency of a bin (by delivery time), and the least busy
               bin of the hot host's link inside the hot spot */
            uint64_t bb, na = 0;
            double bc = (double)ob.bin / 1000.0, prev = -1, osc = 0;
            res->hot_util_min = ob.hs ? 1e9 : 0;
            res->hot_util_min_run = res->hot_util_min;
            for (bb = 0; bb < ob.nbins && (bb + 1u) * ob.bin <= end; bb++) {
                double x;
                if (ob.s_n[0][bb]) {
                    x = ob.s_lat[0][bb] / (double)ob.s_n[0][bb];
                    if (x > res->lat_cold_peak) res->lat_cold_peak = x;
                }
                if (ob.s_n[1][bb]) {
                    x = ob.s_lat[1][bb] / (double)ob.s_n[1][bb];
                    if (x > res->lat_hot_peak) res->lat_hot_peak = x;
                }
                if (ob.hs && bb * ob.bin >= ob.t_hs) {
                    /* in the hot spot, and from its start to the last
                       hot delivery (while the hot backlog lasts) */
                    x = (double)ob.s_hl[bb] / bc / o->link_bytes;
                    if ((bb + 1u) * ob.bin <= ob.t_he && x < res->hot_util_min)
                        res->hot_util_min = x;
                    if ((bb + 1u) * ob.bin <= ob.hot_last && x < res->hot_util_min_run)
                        res->hot_util_min_run = x;
                    /* after the hot spot: how much the link's busy
                       fraction changes from one bin to the next */
                    if (bb * ob.bin >= ob.t_he) {
                        if (prev >= 0) { osc += fabs(x - prev); na++; }
                        prev = x;
                    }
                }
            }
            res->hot_osc_after = na ? osc / (double)na : 0;
            if (res->hot_util_min > 1e8) res->hot_util_min = 0;
            if (res->hot_util_min_run > 1e8) res->hot_util_min_run = 0;
        }
        res->marked_cold = ob.cold_total ? 100.0 * (double)ob.cold_marked / (double)ob.cold_total : 0;
        res->marked_hot = ob.hot_total ? 100.0 * (double)ob.hot_marked / (double)ob.hot_total : 0;
        res->validated_hot = ob.hot_total ? 100.0 * (double)ob.hot_valid / (double)ob.hot_total : 0;
        res->validated_cold = ob.cold_total ? 100.0 * (double)ob.cold_valid / (double)ob.cold_total : 0;
        res->t_hs = (double)ob.t_hs / 1000.0;
        res->t_he = (double)ob.t_he / 1000.0;
        res->hot_net_max = ob.hot_net_max;
        res->first_mark = ob.nseen ? (double)(ob.first_mark - ob.t_hs) / 1000.0 : -1;
        res->all_marked = ob.nhot && ob.nseen == ob.nhot
                          ? (double)(ob.all_marked - ob.t_hs) / 1000.0 : -1;
        memcpy(res->marks, ob.marks, sizeof res->marks);
    }
    ok = 1;
out:
    if (ok && o->series) {
        FILE *fp = fopen(o->series, "w");
        uint64_t bb;
        if (!fp) {
            fprintf(stderr, "ibccsim: cannot write %s: %s\n", o->series, strerror(errno));
            ok = 0;
        } else {
            double cyc = (double)ob.bin / 1000.0;
            uint64_t lvl = 0;       /* hot packets in the network */
            fprintf(fp, "time_us,cold_latency_cycles,hot_latency_cycles,"
                    "cold_throughput_bytes_per_cycle,hot_throughput_bytes_per_cycle,hot_spot,"
                    "hot_in_network_max\n");
            for (bb = 0; bb < ob.nbins && bb * ob.bin < end; bb++) {
                ibcc_time tm = bb * ob.bin + ob.bin / 2u;
                unsigned s2;
                /* a bin without a packet of a class has no latency: empty */
                fprintf(fp, "%.3f", (double)tm / 1e6);
                for (s2 = 0; s2 < 2; s2++) {
                    if (ob.s_n[s2][bb])
                        fprintf(fp, ",%.1f", ob.s_lat[s2][bb] / (double)ob.s_n[s2][bb]);
                    else
                        fprintf(fp, ",");
                }
                fprintf(fp, ",%.5f,%.5f,%d,%llu\n",
                        (double)ob.s_bytes[0][bb] / (double)H / cyc,
                        (double)ob.s_bytes[1][bb] / (double)H / cyc,
                        ob.hs && tm >= ob.t_hs && tm < ob.t_he,
                        (unsigned long long)(ob.s_hnet[bb] > lvl ? ob.s_hnet[bb] : lvl));
                if (ob.s_hend[bb]) lvl = ob.s_hend[bb] - 1u;
            }
            if (!close_out(fp, o->series)) ok = 0;
        }
    }
    {
        unsigned s2;
        for (s2 = 0; s2 < 2; s2++) {
            free(ob.s_n[s2]); free(ob.s_bytes[s2]); free(ob.s_lat[s2]);
        }
        free(ob.s_hl);
        free(ob.s_hnet);
        free(ob.s_hend);
        free(ob.hot_seen);
    }
    ibcc_fabric_destroy(f);
    ibcc_topo_free(&t);
    free(flows);
    free(hosts);
    return ok;
}

/* "name,value" with fmt, or "name," when there is no value */
static void mv_val(FILE *fp, const char *name, const char *fmt, double v, int have)
{
    fprintf(fp, "%s,", name);
    if (have) fprintf(fp, fmt, v);
    fprintf(fp, "\n");
}

int mv_write_summary(const char *path, const mv_opts *o, const mv_res *r)
{
    FILE *fp = fopen(path, "w");
    if (!fp) {
        fprintf(stderr, "ibccsim: cannot write %s: %s\n", path, strerror(errno));
        return 0;
    }
    fprintf(fp, "metric,value\nk,%u\nn,%u\nwiring,%s\ncmm,%s%s%s%s%s\n"
            "load_bytes_per_cycle,%g\npayload,%s\n",
            o->k, o->n, !o->tree ? "shuffle" : "tree", mv_names[o->cmm], o->nowarm ? "-nowarm" : "",
            o->nocap ? "-nocap" : "", o->validated ? "-validated" : "",
            o->mbonly ? "-inputonly" : "", r->load_host,
            o->variable ? "variable" : (o->payload == 256 ? "256" : o->payload == 512 ? "512" : "1024"));
    fprintf(fp, "link_bytes_per_cycle,%u\nhot_sources,%u\nrtt_min_cycles,%.1f\nomega,%.4f\n"
            "omega_hi,%.4f\ndw_max,%u\n",
            o->link_bytes, r->hsd, r->rtt_min, r->omega, r->omega_hi, r->dw_max);
    if (o->cmm == MV_PI) fprintf(fp, "ccti_increase,%u\n", r->ccti_increase);
    if (o->cmm == MV_WINDOW) fprintf(fp, "window,%u\n", o->window ? o->window : 2u);
    /* a value with nothing to average (no hot spot, no packet of the
       class) is empty */
    mv_val(fp, "hot_start_cycles", "%.0f", r->t_hs, r->hot_started);
    mv_val(fp, "hot_end_cycles", "%.0f", r->t_he, r->hot_started);
    mv_val(fp, "cold_latency_mean_cycles", "%.1f", r->lat_cold, r->n_cold > 0);
    mv_val(fp, "cold_latency_base_cycles", "%.1f", r->lat_base, r->n_base > 0);
    mv_val(fp, "cold_latency_peak_cycles", "%.1f", r->lat_cold_peak, r->n_cold_total > 0);
    mv_val(fp, "hot_latency_mean_cycles", "%.1f", r->lat_hot, r->n_hot > 0);
    mv_val(fp, "hot_latency_peak_cycles", "%.1f", r->lat_hot_peak, r->n_hot > 0);
    mv_val(fp, "latency_hot_spot_cycles", "%.1f", r->lat_hs_all, r->n_hs > 0);
    mv_val(fp, "latency_end_cycles", "%.1f", r->lat_end, r->n_end > 0);
    mv_val(fp, "cold_throughput_bytes_per_cycle", "%.5f", r->thr_cold, r->hot_started);
    mv_val(fp, "hot_link_util_frac", "%.4f", r->hot_util, r->hot_started);
    mv_val(fp, "hot_link_util_min_frac", "%.4f", r->hot_util_min, r->hot_started);
    mv_val(fp, "hot_link_util_run_frac", "%.4f", r->hot_util_run, r->hot_started);
    mv_val(fp, "hot_link_util_min_run_frac", "%.4f", r->hot_util_min_run, r->hot_started);
    mv_val(fp, "hot_link_osc_after_frac", "%.4f", r->hot_osc_after, r->hot_started);
    fprintf(fp, "hot_in_network_max,%llu\n", r->hot_net_max);
    mv_val(fp, "hot_first_mark_cycles", "%.0f", r->first_mark, r->first_mark >= 0);
    mv_val(fp, "hot_all_marked_cycles", "%.0f", r->all_marked, r->all_marked >= 0);
    {
        unsigned s;
        for (s = 1; s <= o->n; s++)
            fprintf(fp, "marks_hot_stage_%u,%llu\nmarks_cold_stage_%u,%llu\n",
                    s, (unsigned long long)r->marks[1][s], s, (unsigned long long)r->marks[0][s]);
    }
    fprintf(fp, "hot_delivered,%llu\nhot_packets_total,%llu\n", r->hot_delivered, r->hot_generated);
    mv_val(fp, "marked_cold_frac", "%.5f", r->marked_cold / 100, r->n_cold_total > 0);
    mv_val(fp, "marked_hot_frac", "%.5f", r->marked_hot / 100, r->n_hot > 0);
    mv_val(fp, "validated_hot_frac", "%.5f", r->validated_hot / 100, r->n_hot > 0);
    mv_val(fp, "validated_cold_frac", "%.5f", r->validated_cold / 100, r->n_cold_total > 0);
    fprintf(fp, "accepted_bytes_per_cycle,%.5f\n", r->accepted);
    mv_val(fp, "latency_mean_cycles", "%.1f", r->lat_all, r->n_all > 0);
    fprintf(fp, "delivered,%llu\nconserved,%d\n", r->delivered, r->conserved);
    if (o->cmm == MV_MVCM)
        fprintf(fp, "mvcm_acks_cold,%llu\nmvcm_acks_warm,%llu\nmvcm_acks_hot,%llu\n"
                "mvcm_warm_shrunk,%llu\nmvcm_ws_capped,%llu\nmvcm_resets,%llu\nmvcm_nws_max,%u\n"
                "mvcm_ws_flows,%u\n",
                (unsigned long long)r->mv.acks[IBCC_MVCM_COLD],
                (unsigned long long)r->mv.acks[IBCC_MVCM_WARM],
                (unsigned long long)r->mv.acks[IBCC_MVCM_HOT],
                (unsigned long long)r->mv.warm_shrunk, (unsigned long long)r->mv.ws_capped,
                (unsigned long long)r->mv.resets, (unsigned)r->mv.nws_max,
                (unsigned)r->mv.ws_flows);
    return close_out(fp, path);
}

int cmd_mvcm(int argc, char **argv)
{
    mv_opts o;
    mv_res r;
    int rc;
    mv_defaults(&o);
    rc = mv_parse(argc, argv, &o);
    if (rc == 1) return 0;
    if (rc) return rc;
    if (!mv_run(&o, &r)) return 1;
    if (o.formula) {
        /* [F] 4.3's window for this network and link, no simulation */
        printf("rtt_min %.1f cycles, omega %.4f (payload -> 0: %.4f), dw_max %u\n",
               r.rtt_min, r.omega, r.omega_hi, r.dw_max);
        return 0;
    }
    if (o.summary && !mv_write_summary(o.summary, &o, &r)) return 1;
    if (!params_write(o.summary, &mv_cmd, &o, NULL, NULL)) return 1;
    if (!o.quiet) {
        printf("%u-ary %u-fly, CMM %s%s%s%s%s, load %g bytes/cycle/host\n", o.k, o.n,
               mv_names[o.cmm], o.nowarm ? " (no warm)" : "",
               o.nocap ? " (no cap)" : "", o.validated ? " (validated)" : "",
               o.mbonly ? " (input marks only)" : "", r.load_host);
        printf("  RTTmin %.0f cycles, omega %.2f, DWmax %u, %u hot sources\n",
               r.rtt_min, r.omega, r.dw_max, r.hsd);
        if (r.hot_started)
            printf("  hot spot                 %.0f .. %.0f cycles\n", r.t_hs, r.t_he);
        printf("  cold latency, hot spot   %.1f cycles (before: %.1f, peak %.1f)\n",
               r.lat_cold, r.lat_base, r.lat_cold_peak);
        printf("  cold throughput          %.4f bytes/cycle/host\n", r.thr_cold);
        printf("  hot link utilisation     %.3f (least busy bin %.3f)\n", r.hot_util, r.hot_util_min);
        printf("  hot latency              %.1f cycles (peak %.1f)\n", r.lat_hot, r.lat_hot_peak);
        printf("  hot in the network       at most %llu packets; first marked hot packet %.0f cycles after the start, every source %.0f\n",
               r.hot_net_max, r.first_mark, r.all_marked);
        printf("  marked %% cold / hot      %.2f / %.2f (validated hot %.2f)\n",
               r.marked_cold, r.marked_hot, r.validated_hot);
        printf("  accepted                 %.4f bytes/cycle/host, mean latency %.1f\n",
               r.accepted, r.lat_all);
        if (o.cmm == MV_MVCM)
            printf("  MVCM ACKs cold/warm/hot  %llu / %llu / %llu (warm lowered DW %llu; cap held nWS %llu, nWS max %u; resets %llu)\n",
                   (unsigned long long)r.mv.acks[IBCC_MVCM_COLD],
                   (unsigned long long)r.mv.acks[IBCC_MVCM_WARM],
                   (unsigned long long)r.mv.acks[IBCC_MVCM_HOT],
                   (unsigned long long)r.mv.warm_shrunk, (unsigned long long)r.mv.ws_capped,
                   (unsigned)r.mv.nws_max, (unsigned long long)r.mv.resets);
        printf("  conserved                %s\n", r.conserved ? "yes" : "NO");
    }
    return r.conserved ? 0 : 1;
}

