#include "ibccsim.h"
/* ---- gran: the InfiniBand hardware testbed of [G] ------------------------
   Two switches S1 and S2 joined by a link twice as fast as the host links;
   H1..H3 on S1, H4..H7 on S2. Host links 20 Gbit/s signalling = 16 Gbit/s
   of data (8b/10b) = 2 GB/s; inter-switch link 4 GB/s; every host injects
   and absorbs at most 13 Gbit/s (its PCIe bus, [G]). 64 KiB messages in
   2048-byte MTU packets (2074 bytes on the wire with 26 bytes of headers),
   30-byte RC ACKs, one per 8 packets and at each message's end (coalesced,
   --ack-every). Switches ([G] do not describe theirs; ibcc's choice, see
   docs/scenario_gran.md): input and output buffers of --buffer packets
   (CIOQ, crossbar speedup 2), the crossbar taking per-output queues of
   the inputs in round robin (the arbiter's VOQ policy); IBA FECN marking
   on the output buffer's queue; sources: the IBA CCT agent per flow.
   Node order: S1, S2, H1..H7. Ports: S1 0..2 = H1..H3, 3 = ISL; S2 0..3 =
   H4..H7, 4 = ISL. */



static int gr_job_fn(const opt *p, const char *v, void *o, char *buf, size_t len)
{
    gr_opts *g = (gr_opts *)o;
    (void)p;
    return jb_specs_fn(v, g->job, &g->njob, buf, len);
}

static const int gr_ccs[] = {1, 0};
static const int gr_sws[] = {IBCC_SWITCH_CIOQ, IBCC_SWITCH_VCT};
static const int gr_arbs[] = {IBCC_ARB_VOQ, IBCC_ARB_OLDEST, IBCC_ARB_RR};
static const int gr_marks[] = {0, 1};

#define OPT_T gr_opts
static const opt gr_opt[] = {
    OPT_UINT("scenario", scenario, 1, 2, "N", NULL, "1", "which flows"),
    OPT_CHOICEV("cc", cc, "on|off", gr_ccs, "on", "IBA congestion control"),
    OPT_DOUBLE("step", step_ms, 1e-3, 1e5, "MS", "ms", "1000", "time between flow starts"),
    {"time", OT_DOUBLE, OPT_F(time_ms), 1e-3, 1e5, NULL, "MS", "ms", NULL,
     "simulated time", "step x flows", NULL, 0, NULL, NULL, NULL},
    {"measure", OT_DOUBLE, OPT_F(measure_ms), 1e-3, 1e5, NULL, "MS", "ms", NULL,
     "measured window: the last MS of the run", "step", NULL, 0, NULL, NULL, NULL},
    OPT_UINT("buffer", buffer, 1, 65535, "N", "packets", "16", "switch buffers"),
    OPT_CHOICEV("switch", sw, "cioq|vct", gr_sws, "cioq",
                "input and output buffers of --buffer\n"
                "packets each (crossbar speedup 2), or\n"
                "input-buffered cut-through"),
    OPT_UINT("msg", msg_bytes, 1, 16777216, "BYTES", "bytes", "65536",
             "message payload, 2048-byte MTU packets"),
    OPT_UINT("ack-every", ack_every, 1, 65535, "N", "packets", "8",
             "one ACK per N packets and per message end\n"
             "(coalesced; 1 = every packet)"),
    {"threshold", OT_UINT, OPT_F(threshold), 0, 15, NULL, "W", NULL, "15",
     "switch Threshold", NULL, NULL, 0, NULL, "cc_sw_cong_setting_threshold", NULL},
    {"marking-rate", OT_UINT, OPT_F(marking_rate), 0, 65535, NULL, "N", NULL, "1",
     "Marking_Rate", NULL, NULL, 0, NULL, "cc_sw_cong_setting_marking_rate", NULL},
    OPT_CHOICEV("marking", mark_random, "counter|random", gr_marks, "counter",
                "Marking_Rate as a counter (one marked,\n"
                "then Marking_Rate eligible packets skipped)\n"
                "or at random (each eligible packet marked\n"
                "with probability 1/(Marking_Rate+1), from\n"
                "--seed): the same mean gap"),
    {"packet-size", OT_UINT, OPT_F(packet_size), 0, 255, NULL, "N", "64-byte units", "8",
     "Packet_Size", NULL, NULL, 0, NULL, "cc_sw_cong_setting_packet_size", NULL},
    {"ccti-timer", OT_UINT, OPT_F(ccti_timer), 1, 65535, NULL, "N", "1.024 us units", "150",
     "CCTI_Timer", NULL, NULL, 0, NULL, "cc_ca_cong_setting_ccti_timer", NULL},
    {"ccti-increase", OT_UINT, OPT_F(ccti_increase), 1, 255, NULL, "N", NULL, "1",
     "CCTI_Increase", NULL, NULL, 0, NULL, "cc_ca_cong_setting_ccti_increase", NULL},
    OPT_UINT("ccti-limit", ccti_limit, 0, 16383, "N", NULL, "127",
             "CCTI_Limit (< table length)"),
    OPT_TEXT("cct", cct, "quadratic|linear|FILE", "quadratic",
             "CCT: [G]'s i^2*7/106^2 us (128 entries),\n"
             "linear (entry i = i packet times, 128), or a\n"
             "file of OpenSM cc_cct or ibccconfig\n"
             "CongestionControlTable lines"),
    OPT_CHOICEV("arbiter", arbiter, "voq|oldest|rr", gr_arbs, "voq",
                "switch input buffers: per-output queues\n"
                "with round robin (the model's), FIFO with\n"
                "bypass 4 (the Santos scenarios), FIFO with\n"
                "round robin"),
    OPT_DOUBLE("bin", bin_ms, 1e-3, 1e5, "MS", "ms", "10", "series resolution"),
    OPT_U64("seed", seed, 0, 18446744073709551615.0, "N", NULL, "1",
            "random seed (only --marking random draws)"),
    OPT_TEXT("flows", flows, "LIST|all|none", "all",
             "the scenario's flows that run, by number\n"
             "(1,3,5); the others never start"),
    {"job", OT_FUNC, 0, 0, 0, NULL, "'NAME key=value ...'", NULL, NULL,
     "a job beside the flows (repeatable; docs/jobs.md),\n"
     "under --cc as they are, with the keys of\n"
     "custom --job: pattern, trace, hosts (0..6 =\n"
     "H1..H7), ranks, place, bytes, root, dims,\n"
     "periodic, iterations, start, sl; a trace's\n"
     "messages need sl= of at least 5 (scenario 2:\n"
     "3), the first class after the flows'", "none", NULL, 0, gr_job_fn, NULL, NULL},
    {"job-csv", OT_TEXT, OPT_F(job_csv), 0, 0, NULL, "FILE", NULL, NULL,
     "CSV: one row per job (completion, ideal,\nslowdown, message quantiles)", NULL, NULL,
     0, NULL, NULL, NULL},
    OPT_OUTPUTS("CSV: time_us (a bin's middle) and each\nflow's Gbit/s per bin",
                "CSV metric,value (parameters included)",
                "no table on standard output"),
};
#undef OPT_T

const opt_cmd gr_cmd = {
    "gran", NULL,
    "The InfiniBand congestion-control testbed of [G]: S1 (H1..H3) and S2\n"
    "(H4..H7) joined by a link twice the host rate; host links 16 Gbit/s of\n"
    "data, hosts inject and absorb at most 13 Gbit/s; 64 KiB messages, 2048-\n"
    "byte MTU; IBA FECN marking at the switches and the CCT agent at the\n"
    "sources. Flows start one per --step, F1 first.\n"
    "  scenario 1: F1 H1->H4 (victim), F2 H2->H5, F3 H3->H5, F4 H6->H5, F5 H7->H5\n"
    "  scenario 2: F1 H1->H4, F2 H2->H5, F3 H3->H6 (all cross S1->S2)\n"
    "Jobs can run beside them (e.g. [G] section VI's benchmarks in place of\n"
    "the victim: --flows 2,3,4,5 --job 'hpcc trace=FILE hosts=0,3'); the\n"
    "summary then gives each job's completion, ideal time and slowdown.\n",
    gr_opt, OPT_N(gr_opt), NULL, NULL, 0
};

void gr_defaults(gr_opts *o)
{
    memset(o, 0, sizeof *o);
    opt_defaults(&gr_cmd, o);
}

/* The flows --flows names, as a bit mask over the scenario's nf flows;
   0 with a message when the list is bad. */
static int gr_flow_mask(const char *s, unsigned nf, unsigned *mask)
{
    unsigned v[SW_MAX], n = 0, i;
    if (!strcmp(s, "all")) { *mask = (1u << nf) - 1u; return 1; }
    if (!strcmp(s, "none")) { *mask = 0; return 1; }
    if (!sw_list(s, 1, nf, v, &n)) {
        fprintf(stderr, "ibccsim gran: --flows '%s': a list of flow "
                "numbers 1..%u (scenario %u), all or none\n", s, nf,
                nf == 5u ? 1u : 2u);
        return 0;
    }
    for (*mask = 0, i = 0; i < n; i++) *mask |= 1u << (v[i] - 1u);
    return 1;
}

static int gr_parse(int argc, char **argv, gr_opts *o)
{
    int rc = opt_parse(&gr_cmd, argc, argv, o);
    if (rc) return rc;
    if (opt_given("seed") && !o->mark_random)
        fprintf(stderr, "ibccsim gran: note: these runs draw no random "
                "numbers (greedy senders, fixed start times, counter "
                "marking); --seed changes nothing without --marking "
                "random\n");
    {
        unsigned nf = o->scenario == 1 ? 5u : 3u;
        if (!opt_given("time")) o->time_ms = o->step_ms * nf;
        if (!opt_given("measure")) o->measure_ms = o->step_ms;
        if (o->time_ms > 1e5) {
            fprintf(stderr, "ibccsim gran: --time %g ms: at most 100000\n",
                    o->time_ms);
            return 2;
        }
        if (o->measure_ms > o->time_ms) {
            fprintf(stderr, "ibccsim gran: --measure %g ms is longer than "
                    "the run (%g ms)\n", o->measure_ms, o->time_ms);
            return 2;
        }
        if (o->bin_ms > o->measure_ms) {
            fprintf(stderr, "ibccsim gran: --bin %g ms is longer than the "
                    "measured window (%g ms)\n", o->bin_ms, o->measure_ms);
            return 2;
        }
        {
            unsigned m;
            if (!gr_flow_mask(o->flows, nf, &m)) return 2;
        }
        if (o->job_csv && !o->njob) {
            fprintf(stderr, "ibccsim gran: --job-csv applies only with --job\n");
            return 2;
        }
    }
    return 0;
}

static const uint32_t gr_src[2][GR_FLOWS] = {{0, 1, 2, 5, 6}, {0, 1, 2, 0, 0}};
static const uint32_t gr_dst[2][GR_FLOWS] = {{3, 4, 4, 4, 4}, {3, 4, 5, 0, 0}};

/* Runs one configuration; fills *res; writes the series if asked. */
int gr_run(const gr_opts *o, gr_result *res)
{
    ibcc_fabric_node nodes[2 + GR_HOSTS];
    ibcc_fabric_link links[GR_HOSTS + 1];
    ibcc_fabric_route routes[2 * GR_HOSTS];
    ibcc_fabric_flow *flows = NULL;
    static uint16_t cct[16384];
    static ibcc_rng mrng;       /* --marking random: every switch's draws */
    ibcc_fabric_desc d;
    ibcc_fabric *f = NULL;
    ibcc_result r;
    static jb_set js;
    uint32_t hnodes[GR_HOSTS], nfl;
    unsigned i, s = o->scenario - 1u, nf = o->scenario == 1 ? 5u : 3u;
    unsigned fmask = 0;
    int ok = 0;
    uint32_t nr = 0, isl = 0, cct_len = 0;
    ibcc_time end = ms_time(o->time_ms), m0, bin = ms_time(o->bin_ms);
    ibcc_time mpt = 0;          /* the CCT's maximum packet time */
    double secs;
    memset(res, 0, sizeof *res);
    memset(nodes, 0, sizeof nodes);
    memset(links, 0, sizeof links);
    memset(&d, 0, sizeof d);
    memset(&js, 0, sizeof js);
    js.who = "ibccsim gran";
    if (!gr_flow_mask(o->flows, nf, &fmask)) return 0;
    flows = (ibcc_fabric_flow *)calloc(GR_FLOWS, sizeof *flows);
    if (!flows) {
        fprintf(stderr, "ibccsim gran: out of memory\n");
        return 0;
    }
    nodes[0].kind = nodes[1].kind = IBCC_FABRIC_SWITCH;
    nodes[0].ports = 4;
    nodes[1].ports = 5;
    for (i = 0; i < GR_HOSTS; i++) {
        int on1 = i < 3u;
        nodes[2 + i].kind = IBCC_FABRIC_HOST;
        links[i].a = 2 + i;
        links[i].b = on1 ? 0u : 1u;
        links[i].b_port = on1 ? i : i - 3u;
    }
    links[GR_HOSTS].a = 0; links[GR_HOSTS].a_port = 3;
    links[GR_HOSTS].b = 1; links[GR_HOSTS].b_port = 4;
    links[GR_HOSTS].rate = IBCC_GBYTES(4);             /* twice the hosts */
    for (i = 0; i < GR_HOSTS; i++) {                    /* routes */
        int on1 = i < 3u;
        routes[nr].sw = 0; routes[nr].dst = 2 + i;
        routes[nr++].port = on1 ? i : 3u;
        routes[nr].sw = 1; routes[nr].dst = 2 + i;
        routes[nr++].port = on1 ? 4u : i - 3u;
    }
    for (i = 0; i < nf; i++) {
        flows[i].src = 2 + gr_src[s][i];
        flows[i].dst = 2 + gr_dst[s][i];
        flows[i].traffic = IBCC_TRAFFIC_GREEDY;
        /* payload in 2048-byte MTU packets, 26 bytes of headers each */
        flows[i].msg_bytes = o->msg_bytes + 26u * ((o->msg_bytes + 2047u) / 2048u);
        flows[i].start = ms_time(o->step_ms * i);
        if (!(fmask >> i & 1u))             /* not run: starts after the end */
            flows[i].start = end + 2u * bin;
        flows[i].cls = i;
        flows[i].agent = o->cc ? IBCC_AGENT_CCT : IBCC_AGENT_NONE;
    }
    d.nodes = nodes; d.node_count = 2 + GR_HOSTS;
    d.links = links; d.link_count = GR_HOSTS + 1;
    d.routes = routes; d.route_count = nr;
    nfl = nf;
    if (o->njob) {      /* the jobs: hosts 0..6 = H1..H7, classes after the flows' */
        ibcc_fabric_flow t;
        res->jobs = &js;
        for (i = 0; i < GR_HOSTS; i++) hnodes[i] = 2u + i;
        for (i = 0; i < o->njob; i++)
            if (jb_spec(&js, o->job[i])) goto out;
        if (jb_resolve(&js, GR_HOSTS, hnodes, NULL, o->seed, o->time_ms)) goto out;
        if (jb_classes(&js, nf, "the scenario's flows")) goto out;
        memset(&t, 0, sizeof t);
        t.agent = o->cc ? IBCC_AGENT_CCT : IBCC_AGENT_NONE;
        if (jb_flows(&js, &t, &flows, &nfl)) goto out;
    }
    d.flows = flows; d.flow_count = nfl;
    d.link_rate = IBCC_GBITS(16);                 /* 20 Gbit/s signalling */
    d.host_cap = IBCC_GBITS(13);                  /* PCIe-limited hosts */
    d.data_size = 2074;
    d.buf_packets = o->buffer;
    d.arbiter.policy = o->arbiter;
    d.switch_kind = o->sw;
    d.dest.ack_bytes = 30;
    d.seed = o->seed;
    d.bin = bin;
    d.horizon = end + bin;
    if (o->cc) {
        d.dest.scheme = IBCC_DEST_IBA;
        d.dest.ack_every = o->ack_every;
        d.marker.engine = IBCC_MARKER_IBA;
        d.marker.iba_threshold = o->threshold;
        d.marker.iba_marking_rate = o->marking_rate;
        d.marker.iba_packet_size = o->packet_size;
        if (o->mark_random) {
            ibcc_rng_seed(&mrng, o->seed);
            d.marker.iba_rng = &mrng;
        }
        /* Victim_Mask on the ports that face channel adapters: a slow
           adapter keeps its port short of credits, and only the mask lets
           such a root port mark ([G], IBA Annex A10) */
        d.marker.victim_mask[0] = 0x0fu;          /* ports 0..3 */
        (void)ibcc_wire_time(2074u, IBCC_GBITS(16), &mpt);
        cct_len = gr_load_cct("gran", o->cct, mpt, cct, 16384);
        if (cct_len == 0) goto out;
        if (o->ccti_limit >= cct_len) {
            fprintf(stderr, "ibccsim gran: --ccti-limit %u: the table has "
                    "%u entries (at most %u)\n", o->ccti_limit, cct_len,
                    cct_len - 1u);
            goto out;
        }
        d.cct.table = cct;
        d.cct.table_len = cct_len;
        d.cct.ccti_limit = (uint16_t)o->ccti_limit;
        for (i = 0; i < IBCC_CCT_SLS; i++) {
            d.cct.sl[i].ccti_timer = (uint16_t)o->ccti_timer;
            d.cct.sl[i].ccti_increase = (uint8_t)o->ccti_increase;
        }
    }
    if ((r = fabric_create("gran", &f, &d)) != IBCC_OK) goto out;
    if (o->njob && jb_attach(&js, f)) goto out;
    {
        /* to the measured window's start, where the flows' counters are
           read, then to the end */
        prog pg;
        ibcc_fabric_flow_stats st;
        m0 = end - ms_time(o->measure_ms);
        m0 = m0 / bin * bin;
        prog_start(&pg, "gran", f, end);
        r = prog_run(&pg, f, m0);
        for (i = 0; r == IBCC_OK && i < nf; i++) {
            memset(&st, 0, sizeof st);
            (void)ibcc_fabric_flow_stats_get(f, i, &st);
            res->w_becn[i] = st.acks_marked;
            res->w_pkts[i] = st.delivered;
            res->w_marked[i] = st.marked;
        }
        if (r == IBCC_OK) r = prog_run(&pg, f, end);
        prog_end(&pg);
    }
    if (r != IBCC_OK) {
        run_error("gran", f, r);
        goto out;
    }
    if (o->njob) jb_collect(&js);
    res->conserved = ibcc_fabric_check(f) == IBCC_OK;
    res->nflows = nf;
    secs = (double)(end - m0) * 1e-12;
    {
        double sum = 0, sq = 0, x[GR_FLOWS];
        uint64_t nsamp = 0, marked = 0, delivered = 0, becn = 0;
        unsigned nc = 0;
        ibcc_time t;
        for (i = 0; i < nf; i++) {
            uint64_t b = 0;
            ibcc_fabric_flow_stats st;
            memset(&st, 0, sizeof st);
            (void)ibcc_fabric_flow_bytes(f, i, m0, end, &b);
            res->gbps[i] = (double)b * 8e-9 / secs;
            if (o->scenario == 1 && i > 0) x[nc++] = res->gbps[i];
            (void)ibcc_fabric_flow_stats_get(f, i, &st);
            marked += st.marked;
            delivered += st.delivered;
            becn += st.acks_marked;
            res->w_becn[i] = st.acks_marked - res->w_becn[i];
            res->w_pkts[i] = st.delivered - res->w_pkts[i];
            res->w_marked[i] = st.marked - res->w_marked[i];
            for (t = m0; t + bin <= end; t += bin) {
                uint64_t bb = 0;
                double g;
                (void)ibcc_fabric_flow_bytes(f, i, t, t + bin, &bb);
                g = (double)bb * 8e-9 / ((double)bin * 1e-12);
                sum += g;
                sq += g * g;
                nsamp++;
            }
        }
        res->jain = o->scenario == 1 ? ibcc_jain(x, nc) : 0;
        {
            double mean = 0;
            for (i = 0; i < nf; i++) mean += res->gbps[i];
            res->mean_gbps = mean / nf;
        }
        res->sd_gbps = nsamp > 1 ? sqrt((sq - sum * sum / (double)nsamp)
                                        / (double)(nsamp - 1u)) : 0;
        res->marked_fraction = delivered ? (double)marked / (double)delivered
                                         : 0;
        res->becn = becn;
        res->delivered = delivered;
        (void)ibcc_fabric_channel(f, 0, 3, &isl);
        {
            uint64_t b = 0;
            (void)ibcc_fabric_channel_bytes(f, isl, m0, end, &b);
            res->isl_util = (double)b / (4e9 * secs);
        }
    }
    if (o->series) {
        FILE *fp = fopen(o->series, "w");
        ibcc_time t;
        if (!fp) {
            fprintf(stderr, "ibccsim: cannot write %s: %s\n", o->series,
                    strerror(errno));
            goto out;
        }
        fprintf(fp, "time_us");
        for (i = 0; i < nf; i++) fprintf(fp, ",F%u_gbps", i + 1u);
        fprintf(fp, "\n");
        for (t = 0; t + bin <= end; t += bin) {
            fprintf(fp, "%.3f", (double)(t + bin / 2u) / 1e6);
            for (i = 0; i < nf; i++) {
                uint64_t bb = 0;
                (void)ibcc_fabric_flow_bytes(f, i, t, t + bin, &bb);
                fprintf(fp, ",%.4f", (double)bb * 8e-9
                                     / ((double)bin * 1e-12));
            }
            fprintf(fp, "\n");
        }
        if (!close_out(fp, o->series)) goto out;
    }
    /* each job alone on the idle fabric: its ideal time, by a run */
    if (o->njob && jb_ideal(&js, &d, flows, end)) goto out;
    ok = 1;
out:
    if (!ok && o->njob) {
        jb_free(&js);
        res->jobs = NULL;
    }
    ibcc_fabric_destroy(f);
    free(flows);
    return ok;
}

int gr_write_summary(const char *path, const gr_opts *o,
                            const gr_result *r)
{
    FILE *fp = fopen(path, "w");
    unsigned i;
    if (!fp) {
        fprintf(stderr, "ibccsim: cannot write %s: %s\n", path,
                strerror(errno));
        return 0;
    }
    fprintf(fp, "metric,value\n");
    fprintf(fp, "scenario,%u\ncc,%s\nstep_us,%g\ntime_us,%g\nmeasure_us,%g\n",
            o->scenario, o->cc ? "on" : "off", o->step_ms * 1e3, o->time_ms * 1e3,
            o->measure_ms * 1e3);
    fprintf(fp, "arbiter,%s\nswitch,%s\nmsg_bytes,%u\nack_every,%u\n",
            ibcc_arb_policy_name(o->arbiter),
            o->sw == IBCC_SWITCH_CIOQ ? "cioq" : "vct", o->msg_bytes,
            o->ack_every);
    fprintf(fp, "marking,%s\nseed,%llu\n", o->mark_random ? "random" : "counter",
            o->seed);
    fprintf(fp, "buffer_packets,%u\nthreshold,%u\nmarking_rate,%u\n"
            "packet_size,%u\nccti_timer,%u\nccti_increase,%u\n"
            "ccti_limit,%u\ncct,%s\n", o->buffer, o->threshold,
            o->marking_rate, o->packet_size, o->ccti_timer,
            o->ccti_increase, o->ccti_limit, o->cct);
    for (i = 0; i < r->nflows; i++)
        fprintf(fp, "flow%u_gbps,%.4f\n", i + 1u, r->gbps[i]);
    /* per flow, in the measured window: BECNs back at its source, and the
       share of its delivered packets that carried FECN */
    for (i = 0; i < r->nflows; i++)
        fprintf(fp, "flow%u_becn,%llu\nflow%u_marked_frac,%.6f\n", i + 1u,
                r->w_becn[i], i + 1u,
                r->w_pkts[i] ? (double)r->w_marked[i] / (double)r->w_pkts[i] : 0.0);
    if (o->scenario == 1) fprintf(fp, "jain_contributors,%.4f\n", r->jain);
    fprintf(fp, "mean_gbps,%.4f\nsd_gbps,%.4f\n", r->mean_gbps, r->sd_gbps);
    fprintf(fp, "isl_util_frac,%.4f\n", r->isl_util);
    if (r->delivered) fprintf(fp, "marked_frac,%.6f\n", r->marked_fraction);
    else fprintf(fp, "marked_frac,\n");           /* nothing delivered */
    fprintf(fp, "becn_count,%llu\n", r->becn);
    fprintf(fp, "conserved,%d\n", r->conserved);
    if (r->jobs) jb_summary(r->jobs, fp);
    return close_out(fp, path);
}

int cmd_gran(int argc, char **argv)
{
    gr_opts o;
    gr_result r;
    unsigned i;
    int rc;
    gr_defaults(&o);
    rc = gr_parse(argc, argv, &o);
    if (rc == 1) return 0;
    if (rc) return rc;
    if (!gr_run(&o, &r)) return 1;
    rc = 0;
    if (o.summary && !gr_write_summary(o.summary, &o, &r)) rc = 1;
    if (!rc && o.job_csv && jb_csv(r.jobs, o.job_csv)) rc = 1;
    if (rc) {
        if (r.jobs) jb_free(r.jobs);
        return rc;
    }
    {
        ibcc_swcc sw;
        ibcc_cacc_config ca;
        params_iba(&sw, &ca, o.threshold, o.packet_size, o.marking_rate, 0x0fu,
                   o.ccti_timer, o.ccti_increase);
        if (!params_write(o.summary, &gr_cmd, &o, o.cc ? &sw : NULL, o.cc ? &ca : NULL)) {
            if (r.jobs) jb_free(r.jobs);
            return 1;
        }
    }
    if (!o.quiet) {
        printf("[G] testbed, scenario %u, CC %s: Gbit/s delivered over the "
               "last %g ms\n", o.scenario, o.cc ? "on" : "off", o.measure_ms);
        for (i = 0; i < r.nflows; i++)
            printf("  F%u %6.2f%s\n", i + 1u, r.gbps[i],
                   o.scenario == 1 && i == 0 ? "   (victim)" : "");
        if (o.scenario == 1)
            printf("  Jain index of F2..F5   %.3f\n", r.jain);
        printf("  mean %.2f, sd of %g ms samples %.2f Gbit/s\n", r.mean_gbps,
               o.bin_ms, r.sd_gbps);
        printf("  ISL utilisation        %.3f\n", r.isl_util);
        printf("  marked fraction        %.4f (%llu BECNs)\n",
               r.marked_fraction, r.becn);
        printf("  conserved              %s\n", r.conserved ? "yes" : "NO");
        if (r.jobs) jb_print(r.jobs, stdout);
    }
    rc = r.conserved ? 0 : 1;
    if (r.jobs && !jb_all_done(r.jobs)) {
        fprintf(stderr, "ibccsim gran: a job is not done after --time %g ms (its row "
                "says how far it got)\n", o.time_ms);
        rc = 1;
    }
    if (r.jobs) jb_free(r.jobs);
    return rc;
}


