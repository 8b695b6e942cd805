#include "ibccsim.h"
/* ---- wormhole: dual-priority segmentation on a wormhole network [K] ----
   Myrinet-like links (80 MB/s, 25 m: 125 ns at 5 ns/m), byte slack buffers
   with STOP/GO, round robin per worm, up/down routes. High-priority
   messages travel whole, low-priority ones in segments of --seg bytes (or
   the adaptive B x h). Messages: Poisson arrivals, exponential lengths of
   mean 1000 bytes. Two delays per message, for messages generated after
   the warm-up: ibcc's message delay (generation to last byte delivered)
   and [K]'s (section 2: its first segment entering the network, that is
   leaving its host, to the head of its last segment at the destination,
   so without the wait at the host and the message's own length). */



/* Switches on the route of every ordered pair of hosts (uniform
   destinations): the distribution of path lengths the up/down routes
   give. 0 when a route is missing or longer than 32 switches. */
static int wh_paths(const ibcc_fabric_desc *d, uint32_t nh, wh_res *r)
{
    uint32_t *nb = NULL, *port = NULL, *first = NULL, *use = NULL, i, s, t;
    uint64_t np = 0, pairs = 0;
    double sum = 0;
    int ok = 0;
    first = (uint32_t *)calloc(d->node_count + 1u, sizeof *first);
    if (!first) return 0;
    for (i = 0; i < d->node_count; i++) first[i + 1] = first[i] + d->nodes[i].ports;
    np = first[d->node_count];
    nb = (uint32_t *)malloc((np + 1u) * sizeof *nb);
    use = (uint32_t *)calloc(np + 1u, sizeof *use);
    port = (uint32_t *)malloc(((uint64_t)d->node_count * nh + 1u) * sizeof *port);
    if (!nb || !port || !use) goto out;
    for (i = 0; i < np; i++) nb[i] = UINT32_MAX;
    for (i = 0; i < d->node_count * nh; i++) port[i] = UINT32_MAX;
    for (i = 0; i < d->link_count; i++) {
        nb[first[d->links[i].a] + d->links[i].a_port] = d->links[i].b;
        nb[first[d->links[i].b] + d->links[i].b_port] = d->links[i].a;
    }
    for (i = 0; i < d->route_count; i++)
        if (d->routes[i].dst < nh) port[d->routes[i].sw * nh + d->routes[i].dst] = d->routes[i].port;
    for (s = 0; s < nh; s++)
        for (t = 0; t < nh; t++) {
            uint32_t u = nb[first[s]], k = 0;
            if (s == t) continue;
            while (u != t) {
                uint32_t p;
                if (u == UINT32_MAX || u < nh || ++k > 32) goto out;
                p = port[(uint64_t)u * nh + t];
                if (p == UINT32_MAX) goto out;
                use[first[u] + p]++;
                u = nb[first[u] + p];
            }
            r->path_frac[k] += 1;
            if (k > r->path_max) r->path_max = k;
            sum += k;
            pairs++;
        }
    for (i = 0; i <= 32; i++) r->path_frac[i] /= (double)pairs;
    r->path_mean = sum / (double)pairs;
    for (i = 0; i < np; i++)    /* each source spreads its load over nh - 1 */
        if (use[i] / (double)(nh - 1u) > r->route_load_max)
            r->route_load_max = use[i] / (double)(nh - 1u);
    ok = 1;
out:
    free(first);
    free(nb);
    free(port);
    free(use);
    return ok;
}

/* --seg BYTES|adaptive */
static int wh_seg(const opt *p, const char *v, void *base, char *buf, size_t len)
{
    wh_opts *o = (wh_opts *)base;
    unsigned long long u;
    (void)p;
    if (!v) {
        if (o->adaptive) snprintf(buf, len, "adaptive");
        else snprintf(buf, len, "%u", o->seg);
        return 0;
    }
    if (!strcmp(v, "adaptive")) o->adaptive = 1;
    else if (parse_uint(v, 1, 65535, &u)) { o->seg = (unsigned)u; o->adaptive = 0; }
    else return bad("--seg", v, "a segment length 1..65535 or 'adaptive'");
    return 0;
}

#define OPT_T wh_opts
static const opt wh_opt[] = {
    OPT_CHOICE("case", torus, "twohost|torus", "twohost",
               "H1 (high) and H2 (low) to one destination through\n"
               "one switch, or a torus with 4 hosts per switch"),
    OPT_DOUBLE("load", load, 1e-3, 1, "X", NULL, "0.3", "offered load per host"),
    OPT_FUNC("seg", wh_seg, "BYTES|adaptive", "100",
             "low-priority segment length (1..65535), or B x h"),
    OPT_UINT("slack", slack, 8, 1u << 20, "BYTES", "bytes", "80",
             "input slack buffer (STOP at slack minus a round\n"
             "trip, GO at a round trip)"),
    {"stop-mark", OT_UINT, OPT_F(stop_mark), 1, 1u << 20, NULL, "BYTES", "bytes", NULL,
     "STOP when the slack buffer holds this much", "slack - round trip",
     NULL, 0, NULL, NULL, NULL},
    {"go-mark", OT_UINT, OPT_F(go_mark), 1, 1u << 20, NULL, "BYTES", "bytes", NULL,
     "GO when it has drained to this much", "round trip", NULL, 0, NULL, NULL, NULL},
    OPT_UINT("size", size, 2, 16, "N", NULL, "3", "torus side"),
    OPT_CHOICE("pattern", pair, "mix|pair", "mix",
               "torus: every host mixes --high-frac high-priority\n"
               "traffic into uniform traffic, or one high-priority\n"
               "pair corner to opposite corner with uniform low-\n"
               "priority traffic from every other host"),
    OPT_CHOICE("routes", route_switch, "host|switch", "host",
               "torus: equal up/down next hops taken by destination\n"
               "host (spread, the builder's), or one route per\n"
               "destination switch (that of its first host)"),
    OPT_DOUBLE("high-frac", high_frac, 0, 1, "X", NULL, "0.3",
               "mix: high-priority share of each host's load"),
    OPT_UINT("msg", msg, 1, 1e6, "BYTES", "bytes", "1000", "mean message length"),
    OPT_SWITCH("switch-prio", switch_prio, 1, "switches also serve high-priority worms first"),
    OPT_DOUBLE("prop-ns", prop_ns, 1, 1e6, "NS", "ns", "125", "link propagation delay"),
    OPT_DOUBLE("fwd-ns", fwd_ns, 0, 1e6, "NS", "ns", "0", "switch routing delay"),
    OPT_DOUBLE("time", time_ms, 0.01, 1e5, "MS", "ms", "50", "simulated time"),
    OPT_DOUBLE("warmup", warmup_ms, 0, 1e5, "MS", "ms", "5", "statistics start"),
    OPT_U64("seed", seed, 0, 18446744073709551615.0, "N", NULL, "0", "random seed"),
    OPT_OUTPUTS("CSV per ms: accepted high and low (fraction of a link\n"
                "per sending host)", "CSV metric,value", "no table on stdout"),
};
#undef OPT_T

const opt_cmd wh_cmd = {
    "wormhole", NULL,
    "Dual-priority segmentation on a Myrinet-like wormhole network [K]: links\n"
    "80 MB/s, 25 m (125 ns), input slack buffers with STOP/GO, round robin per\n"
    "worm, up/down routes. Messages arrive as Poisson processes with\n"
    "exponential lengths; high-priority ones travel whole, low-priority ones\n"
    "cut into segments. Loads are fractions of one link per sending host.\n",
    wh_opt, OPT_N(wh_opt), NULL, NULL, 0
};

void wh_defaults(wh_opts *o)
{
    memset(o, 0, sizeof *o);
    opt_defaults(&wh_cmd, o);
}

/* The checks between flags (wormhole and wormhole-sweep); 0 or 2. */
int wh_check(wh_opts *o)
{
    if (o->warmup_ms >= o->time_ms) {
        fprintf(stderr, "ibccsim wormhole: --warmup %g must be below --time %g\n",
                o->warmup_ms, o->time_ms);
        return 2;
    }
    if (!o->torus && (o->pair || o->size != 3 || o->high_frac != 0.3 || o->route_switch)) {
        fprintf(stderr, "ibccsim wormhole: --pattern, --size, --high-frac and --routes are torus flags\n");
        return 2;
    }
    return 0;
}

/* Message delays, collected by the observer (last segment delivered). */
typedef struct wh_obs {
    const uint32_t *prio;       /* per flow */
    ibcc_time *enter;           /* per flow: its message's first segment
                                   left the host (0: next segment starts
                                   a message) */
    ibcc_time from;
    double *d[2], *k[2];        /* message delay, [K]'s delay */
    size_t n[2], cap[2];
    int oom;
} wh_obs;

static void wh_delivered(void *user, const ibcc_fabric_pkt *p)
{
    wh_obs *w = (wh_obs *)user;
    unsigned c;
    ibcc_time enter;
    /* segments of a flow arrive in order, one message after another */
    if (w->enter[p->flow] == 0) w->enter[p->flow] = p->t_inject + 1;
    if (!p->last) return;
    enter = w->enter[p->flow] - 1;
    w->enter[p->flow] = 0;
    if (p->t_gen < w->from) return;
    c = w->prio[p->flow] ? 1u : 0u;
    if (w->n[c] == w->cap[c]) {
        size_t nc = w->cap[c] ? 2 * w->cap[c] : 4096;
        double *nd = (double *)realloc(w->d[c], nc * sizeof *nd);
        double *nk;
        if (!nd) { w->oom = 1; return; }
        w->d[c] = nd;
        nk = (double *)realloc(w->k[c], nc * sizeof *nk);
        if (!nk) { w->oom = 1; return; }
        w->k[c] = nk;
        w->cap[c] = nc;
    }
    w->k[c][w->n[c]] = (double)(p->t_head - enter) / 1e6;
    w->d[c][w->n[c]++] = (double)(p->t - p->t_gen) / 1e6;
}

static int wh_cmp(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

/* --routes switch: every host of a switch takes the routes of the
   switch's first host, so the up/down routes toward one switch share
   their links (the builder spreads equal next hops over the hosts). */
static void wh_route_per_switch(ibcc_topo *t, uint32_t hps)
{
    uint32_t i, j;
    for (i = 0; i < t->route_count; i++) {
        ibcc_fabric_route *r = &t->routes[i];
        uint32_t h0 = r->dst - r->dst % hps;
        if (r->dst >= t->host_count || r->dst == h0
            || r->sw == t->host_count + r->dst / hps)
            continue;                   /* a first host, or the leaf */
        for (j = 0; j < t->route_count; j++)
            if (t->routes[j].sw == r->sw && t->routes[j].dst == h0) {
                r->port = t->routes[j].port;
                break;
            }
    }
}

/* Builds the flows of the case: twohost (hosts 1, 2 -> 3 through switch
   0) or torus (builder ibcc_topo_mesh, root switch 0). */
int wh_run(const wh_opts *o, wh_res *r)
{
    ibcc_fabric_node tn[4];
    prog pg;
    ibcc_fabric_link tl[3];
    ibcc_fabric_route tr[3];
    ibcc_topo topo;
    ibcc_fabric_desc d;
    ibcc_fabric_flow *fl = NULL;
    uint32_t *prio = NULL, nf = 0, nh, i, j, *hosts = NULL;
    ibcc_time *busy0 = NULL;
    ibcc_fabric *f = NULL;
    wh_obs ob;
    ibcc_result rr;
    ibcc_time end = (ibcc_time)(o->time_ms * 1e9), from = (ibcc_time)(o->warmup_ms * 1e9);
    double secs = (o->time_ms - o->warmup_ms) / 1e3;
    FILE *sf = NULL;
    int ok = 0;
    memset(r, 0, sizeof *r);
    memset(&ob, 0, sizeof ob);
    memset(&topo, 0, sizeof topo);
    memset(&d, 0, sizeof d);
    if (!o->torus) {
        memset(tn, 0, sizeof tn);
        tn[0].kind = IBCC_FABRIC_SWITCH;
        tn[0].ports = 3;
        for (i = 1; i < 4; i++) tn[i].kind = IBCC_FABRIC_HOST;
        memset(tl, 0, sizeof tl);
        for (i = 0; i < 3; i++) {
            tl[i].a = i + 1;
            tl[i].b = 0;
            tl[i].b_port = i;
            tr[i].sw = 0;
            tr[i].dst = i + 1;
            tr[i].port = i;
        }
        d.nodes = tn; d.node_count = 4;
        d.links = tl; d.link_count = 3;
        d.routes = tr; d.route_count = 3;
        nf = 2;
        fl = (ibcc_fabric_flow *)calloc(2, sizeof *fl);
        prio = (uint32_t *)calloc(2, sizeof *prio);
        if (!fl || !prio) goto oom;
        for (i = 0; i < 2; i++) {
            fl[i].src = 1 + i;
            fl[i].dst = 3;
            fl[i].prio = prio[i] = i == 0;      /* H1 high, H2 low */
            fl[i].offered = (ibcc_rate)(o->load * WH_RATE);
            r->senders[prio[i]]++;
            r->offered[prio[i]] += o->load;
        }
    } else {
        uint32_t cap, pair_dst;
        if ((rr = ibcc_topo_mesh(&topo, o->size, o->size, 4, 1, 0, NULL)) != IBCC_OK) {
            fprintf(stderr, "ibccsim wormhole: torus: %s\n",
                    topo.error.reason);
            return 0;
        }
        if (o->route_switch) wh_route_per_switch(&topo, 4);
        ibcc_topo_apply(&topo, &d);
        nh = topo.host_count;
        pair_dst = (o->size * o->size - 1u) * 4u;   /* first host of the opposite corner */
        cap = 2u * nh * (nh - 1u);
        fl = (ibcc_fabric_flow *)calloc(cap, sizeof *fl);
        prio = (uint32_t *)calloc(cap, sizeof *prio);
        hosts = (uint32_t *)calloc(nh, sizeof *hosts);
        if (!fl || !prio || !hosts) goto oom;
        for (i = 0; i < nh; i++) hosts[i] = i;
        for (i = 0; i < nh; i++) {
            int sends_high = o->pair ? i == 0 : o->high_frac > 0;
            int sends_low = o->pair ? i != 0 : o->high_frac < 1;
            if (o->pair && i == 0) {
                fl[nf].src = 0;
                fl[nf].dst = pair_dst;
                fl[nf].prio = prio[nf] = 1;
                fl[nf].offered = (ibcc_rate)(o->load * WH_RATE);
                nf++;
            } else {
                double share[2];
                share[1] = o->pair ? 0 : o->high_frac;
                share[0] = 1 - share[1];
                for (j = 0; j < nh; j++) {
                    unsigned c;
                    if (j == i) continue;
                    for (c = 0; c < 2; c++) {
                        ibcc_rate b = (ibcc_rate)(o->load * share[c] * WH_RATE / (nh - 1));
                        if (b == 0) continue;
                        fl[nf].src = i;
                        fl[nf].dst = j;
                        fl[nf].prio = prio[nf] = c;
                        fl[nf].offered = b;
                        nf++;
                    }
                }
            }
            if (sends_high) {
                r->senders[1]++;
                r->offered[1] += o->pair ? o->load : o->load * o->high_frac;
            }
            if (sends_low) {
                r->senders[0]++;
                r->offered[0] += o->pair ? o->load : o->load * (1 - o->high_frac);
            }
        }
    }
    for (i = 0; i < nf; i++) {
        fl[i].traffic = IBCC_TRAFFIC_POISSON;
        fl[i].msg_bytes = o->msg;
        fl[i].msg_exp = 1;
        fl[i].cls = fl[i].prio;
    }
    if (!o->torus) {                    /* every route crosses the switch */
        r->path_frac[1] = 1;
        r->path_mean = 1;
        r->path_max = 1;
        r->route_load_max = 2;          /* the destination's link */
    } else if (!wh_paths(&d, topo.host_count, r)) {
        fprintf(stderr, "ibccsim wormhole: a route is missing or loops\n");
        goto done;
    }
    d.flows = fl;
    d.flow_count = nf;
    d.switch_kind = IBCC_SWITCH_WORMHOLE;
    d.link_rate = WH_RATE;
    d.prop_delay = (ibcc_time)(o->prop_ns * 1e3);
    d.fwd_delay = (ibcc_time)(o->fwd_ns * 1e3);
    d.fwd_zero = o->fwd_ns == 0;
    d.slack_bytes = o->slack;
    d.stop_mark = o->stop_mark;
    d.go_mark = o->go_mark;
    d.worm_priority = o->switch_prio;
    d.segment.seg_bytes = o->seg;
    d.segment.adaptive = o->adaptive;
    d.seed = o->seed;
    d.bin = IBCC_MS(1);
    d.horizon = o->series ? end : 0;
    ob.prio = prio;
    ob.from = from;
    ob.enter = (ibcc_time *)calloc(nf ? nf : 1u, sizeof *ob.enter);
    if (!ob.enter) goto oom;
    d.observer.delivered = wh_delivered;
    d.observer.user = &ob;
    if ((rr = fabric_create("wormhole", &f, &d)) != IBCC_OK) goto done;
    prog_start(&pg, "wormhole", f, end);
    if ((rr = prog_run(&pg, f, from)) != IBCC_OK
        || (rr = ibcc_fabric_stats_reset(f)) != IBCC_OK) {
        fprintf(stderr, "ibccsim wormhole: run: %s\n", ibcc_result_str(rr));
        goto done;
    }
    busy0 = (ibcc_time *)calloc(2u * d.link_count, sizeof *busy0);
    if (!busy0) goto oom;
    for (i = 0; i < 2u * d.link_count; i++)
        ibcc_fabric_channel_totals(f, i, NULL, &busy0[i]);
    rr = prog_run(&pg, f, end);
    prog_end(&pg);
    if (rr != IBCC_OK) {
        fprintf(stderr, "ibccsim wormhole: run: %s\n", ibcc_result_str(rr));
        goto done;
    }
    for (i = 0; i < 2u * d.link_count; i++) {
        ibcc_time b = 0;
        double u;
        ibcc_fabric_channel_totals(f, i, NULL, &b);
        u = (double)(b - busy0[i]) / (double)(end - from);
        if (u > r->link_util_max) r->link_util_max = u;
    }
    if (ob.oom) goto oom;
    r->conserved = ibcc_fabric_check(f) == IBCC_OK;
    ibcc_fabric_counters_get(f, &r->counters);
    for (i = 0; i < 2; i++) {
        ibcc_fabric_class_stats cs;
        double sum = 0;
        size_t k;
        ibcc_fabric_class_stats_get(f, i, &cs);
        if (r->senders[i]) {
            r->offered[i] /= r->senders[i];
            r->accepted[i] = cs.delivered_bytes / secs / WH_RATE / r->senders[i];
        }
        r->msgs[i] = ob.n[i];
        if (ob.n[i]) {
            qsort(ob.d[i], ob.n[i], sizeof *ob.d[i], wh_cmp);
            for (k = 0; k < ob.n[i]; k++) sum += ob.d[i][k];
            r->delay_mean[i] = sum / ob.n[i];
            k = (size_t)ceil(0.99 * ob.n[i]);
            r->delay_p99[i] = ob.d[i][k ? k - 1 : 0];
            qsort(ob.k[i], ob.n[i], sizeof *ob.k[i], wh_cmp);
            for (sum = 0, k = 0; k < ob.n[i]; k++) sum += ob.k[i][k];
            r->kdelay_mean[i] = sum / ob.n[i];
            k = (size_t)ceil(0.99 * ob.n[i]);
            r->kdelay_p99[i] = ob.k[i][k ? k - 1 : 0];
        }
    }
    if (o->series) {
        ibcc_time t;
        sf = fopen(o->series, "w");
        if (!sf) {
            fprintf(stderr, "ibccsim: cannot write %s: %s\n", o->series, strerror(errno));
            goto done;
        }
        fprintf(sf, "time_us,accepted_high_frac,accepted_low_frac\n");
        for (t = 0; t + IBCC_MS(1) <= end; t += IBCC_MS(1)) {
            double acc[2] = {0, 0};
            for (i = 0; i < nf; i++) {
                uint64_t b = 0;
                ibcc_fabric_flow_bytes(f, i, t, t + IBCC_MS(1), &b);
                acc[prio[i]] += (double)b;
            }
            /* a class without senders has no accepted traffic: empty */
            fprintf(sf, "%g", t / 1e6);
            for (i = 2; i-- > 0;) {
                if (r->senders[i])
                    fprintf(sf, ",%.5f", acc[i] / 1e-3 / WH_RATE / r->senders[i]);
                else
                    fprintf(sf, ",");
            }
            fprintf(sf, "\n");
        }
        if (!close_out(sf, o->series)) goto done;
    }
    ok = 1;
    goto done;
oom:
    fprintf(stderr, "ibccsim wormhole: out of memory\n");
done:
    ibcc_fabric_destroy(f);
    ibcc_topo_free(&topo);
    free(fl);
    free(prio);
    free(hosts);
    free(busy0);
    free(ob.d[0]);
    free(ob.d[1]);
    free(ob.k[0]);
    free(ob.k[1]);
    free(ob.enter);
    return ok;
}

int wh_write_summary(const char *path, const wh_opts *o, const wh_res *r)
{
    FILE *fp = fopen(path, "w");
    char seg[16];
    if (!fp) {
        fprintf(stderr, "ibccsim: cannot write %s: %s\n", path, strerror(errno));
        return 0;
    }
    if (o->adaptive) snprintf(seg, sizeof seg, "adaptive");
    else snprintf(seg, sizeof seg, "%u", o->seg);
    fprintf(fp, "metric,value\ncase,%s\npattern,%s\nload_frac,%g\nseg,%s\nslack_bytes,%u\nsize,%u\n",
            o->torus ? "torus" : "twohost", o->torus ? (o->pair ? "pair" : "mix") : "-",
            o->load, seg, o->slack, o->torus ? o->size : 1u);
    {
        /* per priority (high, low); a class without senders has no
           traffic figures, one without messages no delays: empty */
        static const char *const pn[2] = {"low", "high"};
        int i;
        for (i = 1; i >= 0; i--)
            if (r->senders[i]) fprintf(fp, "offered_%s_frac,%.5f\n", pn[i], r->offered[i]);
            else fprintf(fp, "offered_%s_frac,\n", pn[i]);
        for (i = 1; i >= 0; i--)
            if (r->senders[i]) fprintf(fp, "accepted_%s_frac,%.5f\n", pn[i], r->accepted[i]);
            else fprintf(fp, "accepted_%s_frac,\n", pn[i]);
        for (i = 1; i >= 0; i--)
            if (r->msgs[i]) fprintf(fp, "delay_mean_%s_us,%.3f\ndelay_p99_%s_us,%.3f\n",
                                    pn[i], r->delay_mean[i], pn[i], r->delay_p99[i]);
            else fprintf(fp, "delay_mean_%s_us,\ndelay_p99_%s_us,\n", pn[i], pn[i]);
        fprintf(fp, "link_util_max_frac,%.4f\n", r->link_util_max);
        for (i = 1; i >= 0; i--)
            if (r->msgs[i]) fprintf(fp, "kdelay_mean_%s_us,%.3f\nkdelay_p99_%s_us,%.3f\n",
                                    pn[i], r->kdelay_mean[i], pn[i], r->kdelay_p99[i]);
            else fprintf(fp, "kdelay_mean_%s_us,\nkdelay_p99_%s_us,\n", pn[i], pn[i]);
    }
    fprintf(fp, "path_switches_mean,%.4f\npath_switches_max,%u\nroute_load_max,%.4f\n",
            r->path_mean, r->path_max, r->route_load_max);
    {
        unsigned k;
        for (k = 1; k <= r->path_max; k++)
            fprintf(fp, "path_switches_%u_frac,%.4f\n", k, r->path_frac[k]);
    }
    fprintf(fp, "messages_high,%llu\nmessages_low,%llu\nevents,%llu\nconserved,%d\n",
            r->msgs[1], r->msgs[0], (unsigned long long)r->counters.events, r->conserved);
    return close_out(fp, path);
}

int cmd_wormhole(int argc, char **argv)
{
    wh_opts o;
    wh_res r;
    int rc;
    wh_defaults(&o);
    rc = opt_parse(&wh_cmd, argc, argv, &o);
    if (rc == 1) return 0;
    if (rc || (rc = wh_check(&o)) != 0) return rc;
    if (!wh_run(&o, &r)) return 1;
    if (o.summary && !wh_write_summary(o.summary, &o, &r)) return 1;
    if (!params_write(o.summary, &wh_cmd, &o, NULL, NULL)) return 1;
    if (!o.quiet) {
        printf("%s, load %g per host, segments %s%.0u, slack %u bytes\n",
               o.torus ? (o.pair ? "torus, high-priority pair" : "torus, mixed priorities")
                       : "two hosts, one destination",
               o.load, o.adaptive ? "adaptive" : "", o.adaptive ? 0u : o.seg, o.slack);
        printf("  class  offered  accepted  delay mean us  p99 us   [K] delay mean us  p99 us   messages\n");
        printf("  high   %7.4f  %8.4f  %13.2f  %8.2f  %17.2f  %8.2f  %llu\n", r.offered[1],
               r.accepted[1], r.delay_mean[1], r.delay_p99[1], r.kdelay_mean[1],
               r.kdelay_p99[1], r.msgs[1]);
        printf("  low    %7.4f  %8.4f  %13.2f  %8.2f  %17.2f  %8.2f  %llu\n", r.offered[0],
               r.accepted[0], r.delay_mean[0], r.delay_p99[0], r.kdelay_mean[0],
               r.kdelay_p99[0], r.msgs[0]);
        printf("  (delay: generation to last byte; [K] delay: first segment leaves\n"
               "   its host to the head of the last segment at the destination)\n");
        printf("  busiest link %.3f, conserved %s\n", r.link_util_max,
               r.conserved ? "yes" : "NO");
    }
    return r.conserved ? 0 : 1;
}

