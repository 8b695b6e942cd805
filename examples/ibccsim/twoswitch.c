#include "ibccsim.h"
/* ---- twoswitch: the two-switch victim scenario of [S02]/[S03] ---------- */
static const int ts_arbs[] = {IBCC_ARB_OLDEST, IBCC_ARB_RR};

#define OPT_T ts_opts
static const opt ts_opt[] = {
    OPT_UINT("local", local, 1, IBCC_TWOSWITCH_MAX, "N", NULL, "10", "local sources on B"),
    OPT_UINT("remote", remote, 1, IBCC_TWOSWITCH_MAX, "N", NULL, "10", "remote sources on A"),
    OPT_UINT("buffer", buffer, 1, 65535, "N", "packets", "4", "packets per input buffer"),
    {"window", OT_UINT, OPT_F(window), 1, 1000000, NULL, "N", "packets", "1",
     "unacknowledged packets per flow", NULL, "none", 0, NULL, NULL, NULL},
    OPT_CHOICE("marking", marking, "none|naive|input|io|iba", "none",
               "switch marking engine; iba: IBA FECN (Threshold 15,\n"
               "Packet_Size 8, Marking_Rate 1, base 16 packets) with the CCT\n"
               "agent at every source (linear CCT of 256 entries,\n"
               "CCTI_Timer 150, CCTI_Increase 1), BECN on ACKs"),
    OPT_CHOICE("classify", classify, "all|busy", "all", "outputs a full buffer triggers"),
    OPT_UINT("out-threshold", out_threshold, 1, 65535, "N", "packets", "8",
             "io engine output threshold T_out"),
    OPT_CHOICEV("arbiter", arbiter, "oldest|rr", ts_arbs, "oldest", "switch scheduling"),
    OPT_UINT("bypass", bypass, 1, 65535, "N", NULL, "4", "oldest-first bypass limit"),
    OPT_UINT("input-fanout", fanout, 0, 1, "1|0", NULL, "1",
             "1: an input buffer sends to several outputs at\n"
             "once (the sources' switch); 0: one at a time"),
    OPT_CHOICE("trigger-at", trig_arrival, "settle|arrival", "settle",
               "naive, input, io: a full buffer triggers once the\n"
               "packets starting at the filling arrival's instant\n"
               "have started (settle), or at the arrival, classifying\n"
               "them too (arrival)"),
    OPT_LAW("law", law, "none", "none", "source rate law"),
    OPT_SWITCH("discrete", discrete, 1, "discrete IPD rates (256) for the law"),
    OPT_SWITCH("fixed-rates", fixed_rates, 1, "contributors at link/(L+R), victim at link/2"),
    OPT_CHOICE("dynamic", dynamic, "none|half|all", "none",
               "contributors with ON-OFF traffic ([S03] Fig. 7):\n"
               "half = the second half of the locals and of the\n"
               "remotes; the victim stays static"),
    {"on-ms", OT_DOUBLE, OPT_F(on_ms), 0, 10000, NULL, "MS", "ms", "1",
     "mean ON = mean OFF period, exponential", NULL, NULL, OPT_LO_OPEN, NULL, NULL, NULL},
    OPT_SWITCH("persistent", persistent, 1, "the law's state persists across a pair's flows"),
    {"time", OT_DOUBLE, OPT_F(time_ms), 0, 10000, NULL, "MS", "ms", "100",
     "simulated time", NULL, NULL, OPT_LO_OPEN, NULL, NULL, NULL},
    OPT_DOUBLE("victim-from", victim_from, 0, 10000, "MS", "ms", "40", "victim flow starts"),
    OPT_DOUBLE("victim-to", victim_to, 0, 10000, "MS", "ms", "60", "victim flow stops (after victim-from)"),
    OPT_UINT("victim-sl", victim_sl, 0, 15, "S", NULL, "0",
             "the victim flow's service level (the others: SL 0)"),
    OPT_UINT("vls", vls, 1, 15, "N", NULL, "1",
             "data VLs per port (1, 2, 4, 8, 15) with OpenSM's\n"
             "default SL-to-VL map (SL & (N - 1)) and the VL\n"
             "arbitration tables of ibcc_vlarb_defaults"),
    {"measure-from", OT_DOUBLE, OPT_F(measure_from), 0, 10000, NULL, "MS", "ms", NULL,
     "measured window start", "victim-from", NULL, 0, NULL, NULL, NULL},
    {"measure-to", OT_DOUBLE, OPT_F(measure_to), 0, 10000, NULL, "MS", "ms", NULL,
     "measured window end (<= --time)", "victim-to", NULL, 0, NULL, NULL, NULL},
    OPT_U64("seed", seed, 0, 18446744073709551615.0, "N", NULL, "1",
            "random seed (ON-OFF periods of --dynamic)"),
    OPT_OUTPUTS("CSV: 2 ms sliding-window delivered rates every 0.5 ms",
                "CSV metric,value of the measured window", "no table on standard output"),
};
#undef OPT_T

const opt_cmd ts_cmd = {
    "twoswitch", NULL,
    "Switches A and B joined by one link (ISL). On A: remote sources A1..AR and\n"
    "the victim source AV; on B: local sources B1..BL, the congested\n"
    "destination BC and the victim destination BV. Locals then remotes start\n"
    "one every 100 us (locals first); AV -> BV only in [victim-from, victim-to].\n"
    "Links 1 GB/s, 2068-byte data packets, 20-byte ACKs, 40 ns forwarding\n"
    "delay, 5 ns propagation delay ([S02] Table I).\n",
    ts_opt, OPT_N(ts_opt), NULL, NULL, 0
};

void ts_defaults(ts_opts *o)
{
    memset(o, 0, sizeof *o);
    opt_defaults(&ts_cmd, o);
}

/* Returns 0 ok, 1 help shown, 2 error. */
static int parse_twoswitch(int argc, char **argv, ts_opts *o)
{
    int rc = opt_parse(&ts_cmd, argc, argv, o);
    if (rc) return rc;
    if (opt_given("seed") && !o->dynamic)
        /* greedy flows, fixed start times: nothing is drawn */
        fprintf(stderr, "ibccsim twoswitch: note: these runs draw no "
                "random numbers (greedy flows, fixed start times); "
                "--seed changes nothing without --dynamic\n");
    if (!opt_given("measure-from")) o->measure_from = o->victim_from;
    if (!opt_given("measure-to")) o->measure_to = o->victim_to;
    if (o->victim_to <= o->victim_from) {
        fprintf(stderr, "ibccsim twoswitch: --victim-to must be after --victim-from\n");
        return 2;
    }
    if (o->measure_to <= o->measure_from || o->measure_to > o->time_ms) {
        fprintf(stderr, "ibccsim twoswitch: measured window [%g, %g] ms must be"
                " non-empty and within --time %g ms\n",
                o->measure_from, o->measure_to, o->time_ms);
        return 2;
    }
    if (o->discrete && !o->law) {
        char laws[256];
        fprintf(stderr, "ibccsim twoswitch: --discrete needs --law %s\n",
                law_list(laws, sizeof laws, "", "|"));
        return 2;
    }
    if (o->vls != 1 && o->vls != 2 && o->vls != 4 && o->vls != 8 && o->vls != 15) {
        fprintf(stderr, "ibccsim twoswitch: --vls %u: a port has 1, 2, 4, 8 or 15 "
                "data VLs\n", o->vls);
        return 2;
    }
    if (o->persistent && !o->law) {
        fprintf(stderr, "ibccsim twoswitch: --persistent keeps a law's state: it needs --law\n");
        return 2;
    }
    if (o->law && o->fixed_rates) {
        fprintf(stderr, "ibccsim twoswitch: --law and --fixed-rates exclude each other\n");
        return 2;
    }
    if (o->marking == IBCC_MARKER_IBA && (o->law || o->fixed_rates)) {
        fprintf(stderr, "ibccsim twoswitch: --marking iba runs the CCT agent "
                "at the sources: no --law or --fixed-rates\n");
        return 2;
    }
    return 0;
}



/* ---- the run ------------------------------------------------------------- */

typedef struct ts_obs {
    const ibcc_twoswitch *ts;
    ibcc_time m0, m1;
    uint64_t delivered[3], marked[3];
    uint64_t root_marked[3];    /* marks set at switch B, whole run */
    double lat_sum[3];
} ts_obs;

static void ts_on_marked(void *user, const ibcc_fabric_pkt *p)
{
    ts_obs *ob = (ts_obs *)user;
    if (p->node == ob->ts->sw_b && p->flow < ob->ts->flow_count)
        ob->root_marked[ob->ts->flows[p->flow].cls]++;
}

static void ts_on_delivered(void *user, const ibcc_fabric_pkt *p)
{
    ts_obs *ob = (ts_obs *)user;
    unsigned c;
    if (p->t < ob->m0 || p->t >= ob->m1) return;
    c = ob->ts->flows[p->flow].cls;
    ob->delivered[c]++;
    if (p->hdr & IBCC_FECN) ob->marked[c]++;
    ob->lat_sum[c] += (double)(p->t - p->t_inject);
}


/* Flow i of the builder (locals, then remotes, then the victim) has
   ON-OFF traffic: every contributor (--dynamic all) or the second half of
   the locals and of the remotes (half). */
static int ts_dynamic(const ts_opts *o, unsigned i)
{
    if (o->dynamic == 2) return i < o->local + o->remote;
    if (o->dynamic != 1) return 0;
    if (i < o->local) return i >= o->local / 2u;
    return i < o->local + o->remote && i - o->local >= o->remote / 2u;
}

/* Fills a fabric description for the options; ts and ob must outlive it. */
static int ts_setup(const ts_opts *o, ibcc_twoswitch *ts, ts_obs *ob,
                    ibcc_fabric_desc *d)
{
    unsigned i, contributors = o->local + o->remote;
    memset(d, 0, sizeof *d);
    if (ibcc_twoswitch_build(ts, o->local, o->remote, d) != IBCC_OK) return 0;
    d->buf_packets = o->buffer;
    d->arbiter.policy = o->arbiter;
    d->arbiter.bypass_limit = o->bypass;
    d->input_fanout = (uint32_t)o->fanout;
    d->marker.defer = o->trig_arrival ? 0u : 1u;  /* full-buffer trigger
                                   after the instant's cut-through starts
                                   ([S02]/[S03]), or at the arrival */
    d->marker.engine = o->marking;
    d->marker.classify = o->classify;
    d->marker.t_out = o->out_threshold;
    if (o->law) {
        d->law.kind = (ibcc_law_kind)o->law;
        d->law.form = o->discrete ? IBCC_LAW_DISCRETE : IBCC_LAW_CONTINUOUS;
    }
    d->seed = o->seed;
    d->vls = o->vls;
    d->horizon = ms_time(o->time_ms) + IBCC_MS(1);
    if (o->marking == IBCC_MARKER_IBA) {
        /* the IBA mechanism with a window of 1: [G]'s quadratic CCT tops
           out near 10 us, under the 40 us a window-1 flow already waits
           per packet here, so the table is linear (IPD of i packets) */
        static uint16_t cct[256];
        unsigned s2;
        d->marker.iba_threshold = 15;
        d->marker.iba_packet_size = 8;
        d->marker.iba_marking_rate = 1;
        d->marker.out_capacity = 16;
        d->dest.scheme = IBCC_DEST_IBA;
        (void)ibcc_cct_fill_linear(cct, 256);
        d->cct.table = cct;
        d->cct.table_len = 256;
        for (s2 = 0; s2 < IBCC_CCT_SLS; s2++) {
            d->cct.sl[s2].ccti_timer = 150;
            d->cct.sl[s2].ccti_increase = 1;
        }
    }
    for (i = 0; i < ts->flow_count; i++) {
        ibcc_fabric_flow *x = &ts->flows[i];
        x->window = o->window;
        if (o->marking == IBCC_MARKER_IBA) x->agent = IBCC_AGENT_CCT;
        else if (o->law) x->agent = IBCC_AGENT_LAW;
        else if (o->fixed_rates) {
            x->agent = IBCC_AGENT_FIXED;
            x->rate = x->cls == IBCC_TS_VICTIM ? IBCC_GBYTES(1) / 2u
                                               : IBCC_GBYTES(1) / contributors;
        } else x->agent = o->window ? IBCC_AGENT_WINDOW : IBCC_AGENT_NONE;
        if (x->cls == IBCC_TS_VICTIM) {
            x->sl = o->victim_sl;
            x->start = ms_time(o->victim_from);
            x->stop = ms_time(o->victim_to);
        } else {
            x->start = IBCC_US(100) * i;   /* locals first, then remotes */
        }
        if (ts_dynamic(o, i)) {
            x->traffic = IBCC_TRAFFIC_ONOFF;
            x->on_mean = x->off_mean = (ibcc_time)(o->on_ms * 1e9 + 0.5);
            x->persistent = (uint32_t)o->persistent;
        }
    }
    memset(ob, 0, sizeof *ob);
    ob->ts = ts;
    ob->m0 = ms_time(o->measure_from);
    ob->m1 = ms_time(o->measure_to);
    d->observer.delivered = ts_on_delivered;
    d->observer.marked = ts_on_marked;
    d->observer.user = ob;
    return 1;
}

static double ts_flow_rate(const ibcc_fabric *f, unsigned flow, ibcc_time t0,
                           ibcc_time t1)
{
    uint64_t b = 0;
    (void)ibcc_fabric_flow_bytes(f, flow, t0, t1, &b);
    return (double)b / ((double)(t1 - t0) * 1e-12); /* bytes/s */
}

static double ts_chan_rate(const ibcc_fabric *f, unsigned c, ibcc_time t0,
                           ibcc_time t1)
{
    uint64_t b = 0;
    (void)ibcc_fabric_channel_bytes(f, c, t0, t1, &b);
    return (double)b / ((double)(t1 - t0) * 1e-12);
}

static int ts_write_series(const ts_opts *o, const ibcc_twoswitch *ts,
                           const ibcc_fabric *f)
{
    FILE *fp = fopen(o->series, "w");
    ibcc_time t, end = ms_time(o->time_ms), half = IBCC_MS(1);
    double link = 1e9;
    if (!fp) {
        fprintf(stderr, "ibccsim: cannot write %s\n", o->series);
        return 0;
    }
    fprintf(fp, "time_us,local_frac,remote_frac,victim_frac,root_link_frac,"
            "isl_link_frac,victim_link_frac\n");
    for (t = half; t + half <= end; t += IBCC_US(500)) {
        double cls[3] = {0, 0, 0};
        double lk[3] = {0, 0, 0}, x = 0;
        uint32_t chans[3];
        unsigned i;
        chans[0] = ts->root_channel;
        chans[1] = ts->isl_channel;
        chans[2] = ts->victim_channel;
        for (i = 0; i < ts->flow_count; i++) {
            if (ibcc_fabric_rate(f, IBCC_FABRIC_FLOW, i, t, 2 * half, &x)
                == IBCC_OK) cls[ts->flows[i].cls] += x;
        }
        for (i = 0; i < 3; i++)
            if (ibcc_fabric_rate(f, IBCC_FABRIC_CHANNEL, chans[i], t,
                                 2 * half, &x) == IBCC_OK) lk[i] = x;
        fprintf(fp, "%.1f,%.6f,%.6f,%.6f,%.6f,%.6f,%.6f\n", (double)t / 1e6,
                cls[0] / link, cls[1] / link, cls[2] / link,
                lk[0] / link, lk[1] / link, lk[2] / link);
    }
    return close_out(fp, o->series);
}

int ts_run(const ts_opts *o, ts_result *res)
{
    static ibcc_twoswitch ts;
    ts_obs ob;
    ibcc_fabric_desc d;
    ibcc_fabric *f = NULL;
    ibcc_result r;
    ibcc_time m0, m1;
    double link = 1e9, contrib[2 * IBCC_TWOSWITCH_MAX], loc = 0, rem = 0;
    double cl[2][IBCC_TWOSWITCH_MAX];
    unsigned i, nc = 0, c, ncl[2] = {0, 0};
    memset(res, 0, sizeof *res);
    if (!ts_setup(o, &ts, &ob, &d)) {
        fprintf(stderr, "ibccsim: bad topology parameters\n");
        return 0;
    }
    if ((r = fabric_create("", &f, &d)) != IBCC_OK) return 0;
    {
        prog pg;
        prog_start(&pg, "twoswitch", f, ms_time(o->time_ms));
        r = prog_run(&pg, f, ms_time(o->time_ms));
        prog_end(&pg);
    }
    if (r != IBCC_OK) {
        fprintf(stderr, "ibccsim: run: %s\n", ibcc_result_str(r));
        ibcc_fabric_destroy(f);
        return 0;
    }
    res->conserved = ibcc_fabric_check(f) == IBCC_OK;
    (void)ibcc_fabric_counters_get(f, &res->counters);
    {
        ibcc_marker_stats ms;
        if (ibcc_fabric_marker_stats(f, ts.sw_b, &ms) == IBCC_OK)
            res->root_in_triggers = ms.in_triggers;
        for (c = 0; c < 3; c++) res->root_marked[c] = ob.root_marked[c];
    }
    m0 = ob.m0;
    m1 = ob.m1;
    for (i = 0; i < ts.flow_count; i++) {
        double x = ts_flow_rate(f, i, m0, m1);
        if (ts.flows[i].cls != IBCC_TS_VICTIM) {
            if (ts_dynamic(o, i)) res->dynamic_share_root += x / link;
            else res->static_share_root += x / link;
        }
        if (ts.flows[i].cls == IBCC_TS_LOCAL) loc += x;
        else if (ts.flows[i].cls == IBCC_TS_REMOTE) rem += x;
        else res->victim_gbps = x * 8e-9;
        if (ts.flows[i].cls != IBCC_TS_VICTIM) contrib[nc++] = x;
        if (ts.flows[i].cls == IBCC_TS_LOCAL) cl[0][ncl[0]++] = x;
        if (ts.flows[i].cls == IBCC_TS_REMOTE) cl[1][ncl[1]++] = x;
    }
    res->jain_local = ibcc_jain(cl[0], ncl[0]);
    res->jain_remote = ibcc_jain(cl[1], ncl[1]);
    res->root_util = ts_chan_rate(f, ts.root_channel, m0, m1) / link;
    res->isl_util = ts_chan_rate(f, ts.isl_channel, m0, m1) / link;
    res->victim_share_isl = res->victim_gbps / 8e-9 / link;
    res->local_share_root = loc / link;
    res->remote_share_root = rem / link;
    res->remote_local_ratio = loc > 0 ? rem / loc : 0;
    res->jain_contributors = ibcc_jain(contrib, nc);
    for (c = 0; c < 3; c++) {
        res->delivered[c] = ob.delivered[c];
        res->marked_fraction[c] = ob.delivered[c]
            ? (double)ob.marked[c] / (double)ob.delivered[c] : 0;
        res->mean_latency_us[c] = ob.delivered[c]
            ? ob.lat_sum[c] / (double)ob.delivered[c] / 1e6 : 0;
    }
    if (o->series && !ts_write_series(o, &ts, f)) {
        ibcc_fabric_destroy(f);
        return 0;
    }
    ibcc_fabric_destroy(f);
    return 1;
}

static int ts_write_summary(const char *path, const ts_opts *o,
                            const ts_result *r)
{
    FILE *fp = fopen(path, "w");
    if (!fp) {
        fprintf(stderr, "ibccsim: cannot write %s\n", path);
        return 0;
    }
    fprintf(fp, "metric,value\n");
    fprintf(fp, "measure_from_us,%.3f\nmeasure_to_us,%.3f\n",
            o->measure_from * 1e3, o->measure_to * 1e3);
    fprintf(fp, "root_util_frac,%.6f\n", r->root_util);
    fprintf(fp, "isl_util_frac,%.6f\n", r->isl_util);
    fprintf(fp, "victim_share_isl_frac,%.6f\n", r->victim_share_isl);
    fprintf(fp, "local_share_root_frac,%.6f\n", r->local_share_root);
    fprintf(fp, "remote_share_root_frac,%.6f\n", r->remote_share_root);
    fprintf(fp, "remote_local_ratio,%.6f\n", r->remote_local_ratio);
    fprintf(fp, "victim_gbps,%.6f\n", r->victim_gbps);
    fprintf(fp, "victim_ideal_share_isl_frac,%.6f\n", 1.0 - r->remote_share_root);
    fprintf(fp, "jain_contributors,%.6f\n", r->jain_contributors);
    fprintf(fp, "jain_local,%.6f\njain_remote,%.6f\n", r->jain_local,
            r->jain_remote);
    fprintf(fp, "static_share_root_frac,%.6f\n", r->static_share_root);
    fprintf(fp, "dynamic_share_root_frac,%.6f\n", r->dynamic_share_root);
    {
        /* per class; a class with no packet delivered in the window has
           no marked fraction and no latency: empty */
        static const char *const cls[3] = {"local", "remote", "victim"};
        unsigned c;
        for (c = 0; c < 3; c++)
            if (r->delivered[c]) fprintf(fp, "marked_%s_frac,%.6f\n", cls[c], r->marked_fraction[c]);
            else fprintf(fp, "marked_%s_frac,\n", cls[c]);
        for (c = 0; c < 3; c++)
            if (r->delivered[c]) fprintf(fp, "latency_%s_us,%.3f\n", cls[c], r->mean_latency_us[c]);
            else fprintf(fp, "latency_%s_us,\n", cls[c]);
    }
    /* the root switch (B), whole run: how many packets of each class its
       marking marked per input-buffer trigger ([S02] footnote 6) */
    fprintf(fp, "root_in_triggers,%llu\n", (unsigned long long)r->root_in_triggers);
    if (r->root_in_triggers)
        fprintf(fp, "root_marked_remote_per_trigger,%.4f\n"
                "root_marked_local_per_trigger,%.4f\n",
                (double)r->root_marked[1] / (double)r->root_in_triggers,
                (double)r->root_marked[0] / (double)r->root_in_triggers);
    else fprintf(fp, "root_marked_remote_per_trigger,\nroot_marked_local_per_trigger,\n");
    fprintf(fp, "packets_injected,%llu\n",
            (unsigned long long)r->counters.injected);
    fprintf(fp, "link_hops,%llu\n", (unsigned long long)r->counters.hops);
    fprintf(fp, "conserved,%d\n", r->conserved);
    return close_out(fp, path);
}

static void ts_print(const ts_result *r)
{
    printf("root_util               %.3f\n", r->root_util);
    printf("isl_util                %.3f\n", r->isl_util);
    printf("victim_share_isl        %.3f\n", r->victim_share_isl);
    printf("local_share_root        %.3f\n", r->local_share_root);
    printf("remote_share_root       %.3f\n", r->remote_share_root);
    printf("remote_local_ratio      %.3f\n", r->remote_local_ratio);
    printf("victim_gbps             %.3f\n", r->victim_gbps);
    printf("jain_contributors       %.3f\n", r->jain_contributors);
    if (r->dynamic_share_root > 0) {
        printf("static_share_root       %.3f\n", r->static_share_root);
        printf("dynamic_share_root      %.3f\n", r->dynamic_share_root);
    }
    printf("marked_fraction_local   %.3f\n", r->marked_fraction[0]);
    printf("marked_fraction_remote  %.3f\n", r->marked_fraction[1]);
    printf("marked_fraction_victim  %.3f\n", r->marked_fraction[2]);
    printf("conserved               %s\n", r->conserved ? "yes" : "NO");
}

int cmd_twoswitch(int argc, char **argv)
{
    ts_opts o;
    ts_result r;
    int rc;
    ts_defaults(&o);
    rc = parse_twoswitch(argc, argv, &o);
    if (rc == 1) return 0;
    if (rc) return rc;
    if (!ts_run(&o, &r)) return 1;
    if (o.summary && !ts_write_summary(o.summary, &o, &r)) return 1;
    {
        ibcc_swcc sw;
        ibcc_cacc_config ca;
        int iba = o.marking == IBCC_MARKER_IBA;
        if (iba) params_iba(&sw, &ca, 15, 8, 1, 0, 150, 1);
        if (!params_write(o.summary, &ts_cmd, &o, iba ? &sw : NULL, iba ? &ca : NULL))
            return 1;
    }
    if (!o.quiet) ts_print(&r);
    return r.conserved ? 0 : 1;
}

