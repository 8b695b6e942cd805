#include "ibccsim.h"
/* ---- custom: a fabric composed from its parts ---------------------------
   The topology (a builder, the two-switch builder or a real fabric read by
   the InfiniBand loader), the switches, the marking engine, the source
   agent and the traffic, each named by a flag and composed through ibcc.h's
   public API only. Statistics are the library's, of DELIVERED packets: the
   class statistics are cleared at the end of the warm-up, so every figure
   covers [warmup, time]. Loads and throughputs are fractions of the
   reference rate: the slowest link that attaches a host. */
enum { CU_FATTREE, CU_NFLY, CU_MESH, CU_TORUS, CU_DRAGONFLY, CU_TWOSWITCH,
       CU_IBNET };
static const char *const cu_topos[] = {"fattree", "nfly", "mesh", "torus",
                                       "dragonfly", "twoswitch",
                                       "ibnetdiscover"};
enum { CU_UNIFORM, CU_PERMUTATION, CU_INCAST, CU_HOTSPOT, CU_VICTIM, CU_NONE,
       CU_SHIFT };
static const char *const cu_traffics[] = {"uniform", "permutation", "incast",
                                          "hotspot", "victim", "none", "shift"};
/* indexed by ibcc_marker_engine and by IBCC_AGENT_* */
static const char *const cu_markers[] = {"none", "naive", "input", "io",
                                         "iba", "mvpm", "ecn"};
static const char *const cu_agents[] = {"none", "window", "law", "fixed",
                                        "cct", "mvcm", "dcqcn", "hpcc"};
enum { CU_CREDIT, CU_PFC };     /* --flow-control: ibcc_flow_control */
#define CU_N(a) ((int)(sizeof a / sizeof a[0]))
static const int cu_kinds[] = {IBCC_SWITCH_VCT, IBCC_SWITCH_CIOQ};

enum { CU_DLID_RANDOM, CU_DLID_RR };

typedef struct cu_opts {
    int topo, traffic, marker, agent, law, kind, routing;
    unsigned k, n, x, y, hps, root, local, remote, a, p, h, groups, lmc;
    int dlid;                   /* CU_DLID_*: a flow's LID with LMC > 0 */
    unsigned shift;
    const char *ibnet, *lfts;
    unsigned buf_packets, buf_credits, out_buf_packets, speedup, bypass;
    unsigned data_size;
    int nic_fifo, fanout, defer;
    int arbiter;                /* ibcc_arb_policy */
    double link_gbytes, prop_ns, fwd_ns;
    int classify;               /* ibcc_classify */
    unsigned trigger, t_out, threshold, marking_rate, packet_size;
    unsigned mvpm_in, mvpm_out;
    unsigned window, rmin_div;
    int discrete;
    double fixed_rate;
    const char *cct;
    unsigned ccti_timer, ccti_increase, ccti_limit, dw_max, mvcm_hops;
    double load, load_bytes, background;
    unsigned msg_bytes, hot_sources;
    const char *hot_dst;
    unsigned long long hot_packets, start_after, seed;
    double victim_from, victim_to, time_ms, warmup_ms, bin_ms;
    unsigned vls, high_limit, sl, hot_sl, background_sl, victim_sl;
    int flow_control;
    unsigned pfc_xoff, pfc_xon, pfc_size, pfc_quanta;
    unsigned long long kmin, kmax;
    double pmax;
    /* DCQCN and HPCC parameters (docs/dcqcn.md, docs/hpcc.md); a zero
       rate or window is the library's line-rate dependent default */
    double dcqcn_g, dcqcn_k, dcqcn_t, dcqcn_n;        /* g; K, T, N in us */
    unsigned long long dcqcn_b;                       /* bytes, 0: off */
    unsigned dcqcn_f;
    double dcqcn_rai, dcqcn_rhai, dcqcn_rmin;         /* Mb/s, 0: default */
    double hpcc_t, hpcc_eta;                          /* us; fraction */
    unsigned hpcc_max_stage;
    unsigned long long hpcc_wai;                      /* bytes, 0: default */
    const char *sl2vl, *vlarb_high, *vlarb_low, *opensm_conf;
    const char *job[JB_MAX];    /* --job SPEC, in order */
    unsigned njob;
    const char *trace[JB_MAX];  /* --trace FILE, in order */
    unsigned ntrace;
    const char *job_csv;
    const char *series, *summary;
    int quiet;
} cu_opts;

/* --job SPEC (repeated): kept as given, read by jb_spec after the flags;
   printed back (params.csv) as the specs joined by " | ", which reads
   back as the same jobs (a '|' separates jobs in one value). */
static int cu_job_fn(const opt *p, const char *v, void *o, char *buf, size_t len);

/* --trace FILE (repeated): the file names in order (printed back joined
   by " | ", which reads back the same way). */
static int cu_trace_fn(const opt *p, const char *v, void *o, char *buf, size_t len)
{
    static char pool[1u << 14];
    static size_t used;
    cu_opts *c = (cu_opts *)o;
    unsigned i;
    size_t u = 0;
    (void)p;
    if (v) {
        const char *a = v;
        for (;;) {
            const char *e = strchr(a, '|');
            size_t n = e ? (size_t)(e - a) : strlen(a);
            while (n && (*a == ' ' || *a == '\t')) { a++; n--; }
            while (n && (a[n - 1] == ' ' || a[n - 1] == '\t')) n--;
            if (!n) return bad("--trace", v, "a file name");
            if (c->ntrace >= JB_MAX) return bad("--trace", v, "at most 16 traces");
            if (used + n + 1u > sizeof pool) return bad("--trace", v, "the names are too long");
            memcpy(pool + used, a, n);
            pool[used + n] = 0;
            c->trace[c->ntrace++] = pool + used;
            used += n + 1u;
            if (!e) break;
            a = e + 1;
        }
        return 0;
    }
    buf[0] = 0;
    for (i = 0; i < c->ntrace && u + 1 < len; i++)
        u += (size_t)snprintf(buf + u, len - u, "%s%s", i ? " | " : "", c->trace[i]);
    return 0;
}

static int cu_job_fn(const opt *p, const char *v, void *o, char *buf, size_t len)
{
    cu_opts *c = (cu_opts *)o;
    (void)p;
    return jb_specs_fn(v, c->job, &c->njob, buf, len);
}

/* The flags of custom, in the order of --help. A new flag is a field in
   cu_opts and one row here (opt.h: "How to add a flag"); a check that it
   applies only to some configurations goes in cu_check's `only` table. */
#define OPT_T cu_opts
static const opt cu_opt[] = {
    OPT_HEAD("topology"),
    OPT_CHOICE("topology", topo, "fattree|nfly|mesh|torus|dragonfly|twoswitch|ibnetdiscover",
               NULL, "(required)"),
    OPT_BUILDER_ROWS
    OPT_ROUTING_ROWS
    OPT_CHOICE("dlid", dlid, "random|round-robin", "random",
               "with --lmc: the LID each flow is sent to, as a\n"
               "queue pair's DLID is chosen per connection (not\n"
               "per packet): uniform with --seed, or a source's\n"
               "flows in turn from its host index (mod 2^lmc)"),
    OPT_TEXT("ibnetdiscover", ibnet, "FILE", NULL, "ibnetdiscover: the topology (required)"),
    {"lfts", OT_TEXT, OPT_F(lfts), 0, 0, NULL, "FILE", NULL, NULL,
     "ibnetdiscover: forwarding tables", "up/down routes", NULL, 0, NULL, NULL, NULL},
    OPT_HEAD("switches and links"),
    OPT_CHOICEV("switch-kind", kind, "vct|cioq", cu_kinds, "vct", ""),
    OPT_UINT("buf-packets", buf_packets, 1, 65535, "N", "packets", "4", "input buffer"),
    {"buf-credits", OT_UINT, OPT_F(buf_credits), 1, 1u << 20, NULL, "N", "64-byte credits",
     NULL, "input buffer in credits", "packets only", NULL, 0, NULL, NULL, NULL},
    {"out-buf-packets", OT_UINT, OPT_F(out_buf_packets), 1, 65535, NULL, "N", "packets",
     NULL, "cioq: output buffer", "buf-packets", NULL, 0, NULL, NULL, NULL},
    OPT_UINT("speedup", speedup, 1, 16, "S", NULL, "2", "cioq: crossbar speedup"),
    OPT_SWITCH("input-fanout", fanout, 1, "vct: an input buffer sends to several outputs\n"
               "at once ([S02]/[S03]'s switch) [one at a time]"),
    OPT_CHOICE("arbiter", arbiter, "oldest|fifo|rr|voq", "oldest", ""),
    OPT_UINT("bypass", bypass, 1, 65535, "N", NULL, "4", "oldest: bypasses per head"),
    OPT_DOUBLE("link-gbytes", link_gbytes, 1e-3, 1e4, "G", "GB/s", "1",
               "link rate (a loaded fabric's links keep\n"
               "the rate of their width x speed)"),
    OPT_DOUBLE("prop-ns", prop_ns, 1e-3, 1e6, "X", "ns", "5", "propagation delay per link"),
    OPT_DOUBLE("fwd-ns", fwd_ns, 0, 1e6, "X", "ns", "40", "switch forwarding delay"),
    OPT_UINT("data-size", data_size, 1, 65535, "BYTES", "bytes", "2068", "data packet on the wire"),
    OPT_SWITCH("nic-fifo", nic_fifo, 1, "one FIFO per host instead of one queue per\n"
               "destination (uniform or hotspot traffic only)"),
    OPT_CHOICE("flow-control", flow_control, "credit|pfc", "credit",
               "link flow control: IBA credits, or PFC\n"
               "(IEEE 802.1Qbb PAUSE per priority = data VL)"),
    {"pfc-xoff", OT_UINT, OPT_F(pfc_xoff), 1, 2147483647.0, NULL, "BYTES", "bytes", NULL,
     "pfc: an input priority above this sends PAUSE", "4 data packets",
     NULL, 0, NULL, NULL, NULL},
    {"pfc-xon", OT_UINT, OPT_F(pfc_xon), 1, 2147483647.0, NULL, "BYTES", "bytes", NULL,
     "pfc: XON once at or below this", "pfc-xoff / 2", NULL, 0, NULL, NULL, NULL},
    {"pfc-size", OT_UINT, OPT_F(pfc_size), 1, 4194240, NULL, "BYTES", "bytes", NULL,
     "pfc: buffer of an input priority; its part\n"
     "above pfc-xoff is the headroom, which must hold\n"
     "rate x (2 prop + fwd) + 3 packets + 64 bytes",
     "pfc-xoff + that headroom", NULL, 0, NULL, NULL, NULL},
    OPT_UINT("pfc-quanta", pfc_quanta, 1, 65535, "N", "512 bit times", "65535",
             "pfc: pause time a PAUSE asks for (sent again\n"
             "every half of it while above pfc-xon)"),
    OPT_HEAD("marking engine"),
    OPT_CHOICE("marker", marker, "none|naive|input|io|iba|mvpm|ecn", "none", ""),
    OPT_CHOICE("classify", classify, "all|busy", "all", "naive, input, io"),
    {"trigger", OT_UINT, OPT_F(trigger), 1, 65535, NULL, "N", NULL, NULL,
     "naive, input, io: occupancy that triggers\n(at most the buffer)", "full",
     NULL, 0, NULL, NULL, NULL},
    OPT_SWITCH("defer-trigger", defer, 1, "naive, input, io: a full buffer triggers after the\n"
               "instant's packets started (cut-through) [off]"),
    OPT_UINT("out-threshold", t_out, 1, 65535, "N", "packets", "8", "io: output threshold T_out"),
    {"threshold", OT_UINT, OPT_F(threshold), 0, 15, NULL, "W", NULL, "15",
     "iba: Threshold", NULL, NULL, 0, NULL, "cc_sw_cong_setting_threshold", NULL},
    {"marking-rate", OT_UINT, OPT_F(marking_rate), 0, 65535, NULL, "N", NULL, "0",
     "iba: Marking_Rate", NULL, NULL, 0, NULL, "cc_sw_cong_setting_marking_rate", NULL},
    {"packet-size", OT_UINT, OPT_F(packet_size), 0, 255, NULL, "N", "64-byte units", "0",
     "iba: Packet_Size", NULL, NULL, 0, NULL, "cc_sw_cong_setting_packet_size", NULL},
    {"mvpm-in", OT_UINT, OPT_F(mvpm_in), 1, 65535, NULL, "N", NULL, NULL,
     "mvpm: marking level", "2/3", NULL, 0, NULL, NULL, NULL},
    {"mvpm-out", OT_UINT, OPT_F(mvpm_out), 1, IBCC_MARKER_MAX_OUT, NULL, "N", NULL, NULL,
     "mvpm: validation level", "1/3", NULL, 0, NULL, NULL, NULL},
    OPT_U64("kmin", kmin, 1, 4294967295.0, "BYTES", "bytes", "5000",
            "ecn: Kmin, egress queue where marking starts"),
    OPT_U64("kmax", kmax, 1, 4294967295.0, "BYTES", "bytes", "200000",
            "ecn: Kmax, where it reaches pmax (above: all)"),
    {"pmax", OT_DOUBLE, OPT_F(pmax), 1e-6, 1, NULL, "X", NULL, "0.01",
     "ecn: Pmax, marking probability at Kmax, a\n"
     "fraction (0.01 = 1%)", NULL, NULL, 0, NULL, NULL, NULL},
    OPT_HEAD("source agent"),
    OPT_CHOICE("agent", agent, "none|window|law|fixed|cct|mvcm|dcqcn|hpcc", "none",
               "dcqcn: the DCQCN reaction point with its\n"
               "defaults (docs/dcqcn.md; CNPs from the\n"
               "destination); hpcc: the HPCC window from\n"
               "the INT its ACKs echo (docs/hpcc.md)"),
    OPT_DOUBLE("dcqcn-g", dcqcn_g, 1.0 / 65536, 1, "X", NULL, "0.00390625",
               "dcqcn: g, alpha's gain, a fraction (1/256;\n"
               "in steps of 1/65536)"),
    OPT_DOUBLE("dcqcn-k", dcqcn_k, 1e-6, 1e6, "US", "us", "55",
               "dcqcn: K, the alpha timer"),
    OPT_DOUBLE("dcqcn-t", dcqcn_t, 1e-6, 1e6, "US", "us", "55",
               "dcqcn: T, the rate-increase timer"),
    {"dcqcn-b", OT_U64, OPT_F(dcqcn_b), 1, 1e18, NULL, "BYTES", "bytes", "10000000",
     "dcqcn: B, the byte counter (off: the timer\n"
     "alone drives the increase)", NULL, "off", 0, NULL, NULL, NULL},
    OPT_UINT("dcqcn-f", dcqcn_f, 1, 65535, "N", NULL, "5",
             "dcqcn: F, fast-recovery events"),
    {"dcqcn-rai", OT_DOUBLE, OPT_F(dcqcn_rai), 1e-6, 1e9, NULL, "MBPS", "Mb/s", NULL,
     "dcqcn: R_AI, additive increase step (at\n"
     "least line rate / 2^20)", "min(40, line rate)", NULL, 0, NULL, NULL, NULL},
    {"dcqcn-rhai", OT_DOUBLE, OPT_F(dcqcn_rhai), 1e-6, 1e9, NULL, "MBPS", "Mb/s", NULL,
     "dcqcn: R_HAI, hyper increase step (at\n"
     "least line rate / 2^20)", "min(200, line rate)", NULL, 0, NULL, NULL, NULL},
    {"dcqcn-rmin", OT_DOUBLE, OPT_F(dcqcn_rmin), 1e-6, 1e9, NULL, "MBPS", "Mb/s", NULL,
     "dcqcn: the minimum rate, floor of a cut",
     "min(100, line rate)", NULL, 0, NULL, NULL, NULL},
    OPT_DOUBLE("dcqcn-n", dcqcn_n, 1e-6, 1e6, "US", "us", "50",
               "dcqcn: N, the NP's CNP interval per flow"),
    OPT_DOUBLE("hpcc-t", hpcc_t, 1e-6, 1e6, "US", "us", "10",
               "hpcc: T, the base RTT"),
    OPT_DOUBLE("hpcc-eta", hpcc_eta, 1e-6, 1, "X", NULL, "0.95",
               "hpcc: eta, target utilization, a fraction\n"
               "(in steps of 10^-6)"),
    OPT_UINT("hpcc-max-stage", hpcc_max_stage, 0, 2147483648.0, "N", NULL, "5",
             "hpcc: maxStage, additive steps before a\n"
             "multiplicative update"),
    {"hpcc-wai", OT_U64, OPT_F(hpcc_wai), 1, 281474976710656.0, NULL, "BYTES", "bytes", NULL,
     "hpcc: W_AI, additive increase (at most\n"
     "line rate x T)", "50 Mb/s x T rounded up", NULL, 0, NULL, NULL, NULL},
    {"window", OT_UINT, OPT_F(window), 1, 1000000, NULL, "N", "packets", NULL,
     "every agent but mvcm: unacknowledged packets\nper flow (required by window)",
     "none", "none", 0, NULL, NULL, NULL},
    OPT_LAW("law", law, NULL, "lipd", "law: the rate law"),
    OPT_SWITCH("discrete", discrete, 1, "law: discrete IPD rates"),
    OPT_UINT("rmin-div", rmin_div, 2, 65536, "D", NULL, "256", "law: Rmin = Rmax / D"),
    OPT_DOUBLE("fixed-rate", fixed_rate, 1e-9, 1, "X", NULL, NULL,
               "fixed: each flow's rate, fraction (required)"),
    OPT_TEXT("cct", cct, "linear|quadratic|FILE", "linear",
             "cct: the table (FILE: OpenSM cc_cct or\n"
             "ibccconfig CongestionControlTable lines)"),
    {"ccti-timer", OT_UINT, OPT_F(ccti_timer), 1, 65535, NULL, "N", "1.024 us units", "150",
     "cct: CCTI_Timer", NULL, NULL, 0, NULL, "cc_ca_cong_setting_ccti_timer", NULL},
    {"ccti-increase", OT_UINT, OPT_F(ccti_increase), 1, 255, NULL, "N", NULL, "1",
     "cct: CCTI_Increase", NULL, NULL, 0, NULL, "cc_ca_cong_setting_ccti_increase", NULL},
    {"ccti-limit", OT_UINT, OPT_F(ccti_limit), 0, 16383, NULL, "N", NULL, NULL,
     "cct: CCTI_Limit", "the last entry", NULL, 0, NULL, NULL, NULL},
    OPT_UINT("dw-max", dw_max, 1, 65535, "N", "packets", "2", "mvcm: largest dynamic window"),
    {"mvcm-hops", OT_UINT, OPT_F(mvcm_hops), 1, 1024, NULL, "N", NULL, NULL,
     "mvcm: links of the longest path, for the\nwaiting slot RTTmin",
     "from the builder; required for ibnetdiscover", NULL, 0, NULL, NULL, NULL},
    OPT_HEAD("traffic (classes: 0 background or uniform, 1 incast/hot spot, 2 background\n"
             "to the hot host; victim: 0 locals, 1 remotes, 2 the victim)"),
    {"traffic", OT_CHOICE, OPT_F(traffic), 0, 0, "uniform|permutation|incast|hotspot|victim|none|shift",
     NULL, NULL, NULL, "victim: twoswitch's flows (locals then remotes\n"
     "start 100 us apart); none: the jobs only; shift:\n"
     "host i sends greedily to host i + the shift",
     "uniform; twoswitch: victim; with --job: none", NULL, 0, NULL, NULL, NULL},
    {"shift", OT_UINT, OPT_F(shift), 1, 1u << 20, NULL, "N", NULL, NULL,
     "shift: the distance (dragonfly: a*p, all of group\n"
     "i to group i + 1, minimal routing's worst case)",
     "1; dragonfly: a*p", NULL, 0, NULL, NULL, NULL},
    OPT_DOUBLE("load", load, 1e-9, 1, "X", NULL, NULL,
               "uniform: offered per host; hotspot: per source,\n"
               "fraction of the reference rate"),
    OPT_DOUBLE("load-bytes", load_bytes, 1, 1e13, "B", "bytes/s", NULL, "the same in bytes/s"),
    OPT_UINT("msg-bytes", msg_bytes, 1, 2147483648.0, "N", "bytes", NULL,
             "traffic in messages of N bytes"),
    {"hot-dst", OT_TEXT, OPT_F(hot_dst), 0, 0, NULL, "H", NULL, NULL,
     "incast, hotspot: destination host index (or a\nhost name of a loaded fabric)",
     "last host", NULL, 0, NULL, NULL, NULL},
    {"hot-sources", OT_UINT, OPT_F(hot_sources), 1, 1u << 20, NULL, "N", NULL, NULL,
     "incast, hotspot: sources, spread over\nthe other hosts", "all others",
     NULL, 0, NULL, NULL, NULL},
    OPT_U64("hot-packets", hot_packets, 1, 1e9, "N", "packets", "1000", "hotspot: packets per source"),
    OPT_U64("start-after", start_after, 0, 1e12, "N", "packets", "0",
            "hotspot: start once N data packets were delivered"),
    OPT_DOUBLE("background", background, 1e-9, 1, "X", NULL, NULL,
               "incast, hotspot: uniform traffic at X as well"),
    {"victim-from", OT_DOUBLE, OPT_F(victim_from), 0, 10000, NULL, "MS", "ms", NULL,
     "victim: its active window", "whole run", NULL, 0, NULL, NULL, NULL},
    {"victim-to", OT_DOUBLE, OPT_F(victim_to), 0, 10000, NULL, "MS", "ms", NULL,
     "victim: its active window", "whole run", NULL, 0, NULL, NULL, NULL},
    OPT_HEAD("virtual lanes and service levels (OpenSM's qos_* value forms; any of\n"
             "them turns qos on for every port: hosts as qos_ca_, switches as qos_swe_)"),
    {"vls", OT_UINT, OPT_F(vls), 1, 15, NULL, "N", NULL, NULL,
     "data VLs per port: 1, 2, 4, 8 or 15", "1; OpenSM's 15 once qos is on",
     NULL, 0, NULL, "qos_max_vls", NULL},
    {"sl2vl", OT_TEXT, OPT_F(sl2vl), 0, 0, NULL, "LIST", NULL, NULL,
     "16 VLs, one per SL 0..15, comma separated", "OpenSM's 0,1,...,14,7, VL & (vls - 1)", NULL, 0, NULL, "qos_sl2vl", NULL},
    {"vlarb-high", OT_TEXT, OPT_F(vlarb_high), 0, 0, NULL, "LIST", NULL, NULL,
     "high-priority VL arbitration table\n\"VL:weight,...\" (weights in 64-byte units)",
     "OpenSM's 0:4,1:0,...,14:0", NULL, 0, NULL, "qos_vlarb_high", NULL},
    {"vlarb-low", OT_TEXT, OPT_F(vlarb_low), 0, 0, NULL, "LIST", NULL, NULL,
     "low-priority table, same form", "OpenSM's 0:0,1:4,...,14:4",
     NULL, 0, NULL, "qos_vlarb_low", NULL},
    {"high-limit", OT_UINT, OPT_F(high_limit), 0, 255, NULL, "N", NULL, NULL,
     "Limit of High-Priority (4096-byte units; 255:\nno limit)", "0",
     NULL, 0, NULL, "qos_high_limit", NULL},
    {"opensm-conf", OT_TEXT, OPT_F(opensm_conf), 0, 0, NULL, "FILE", NULL, NULL,
     "an opensm.conf: its qos, qos_* and qos_ca_/\nqos_sw0_/qos_swe_/qos_rtr_ options (its other\n"
     "options are not read here; the flags above\noverride its unprefixed qos_ values)",
     "none", NULL, 0, NULL, NULL, NULL},
    OPT_UINT("sl", sl, 0, 15, "S", NULL, "0", "service level of every flow"),
    {"hot-sl", OT_UINT, OPT_F(hot_sl), 0, 15, NULL, "S", NULL, NULL,
     "incast, hotspot: SL of the hot flows (class 1)", "--sl", NULL, 0, NULL, NULL, NULL},
    {"background-sl", OT_UINT, OPT_F(background_sl), 0, 15, NULL, "S", NULL, NULL,
     "incast, hotspot: SL of the background (classes\n0 and 2)", "--sl", NULL, 0, NULL, NULL, NULL},
    {"victim-sl", OT_UINT, OPT_F(victim_sl), 0, 15, NULL, "S", NULL, NULL,
     "victim: SL of the victim flow (class 2)", "--sl", NULL, 0, NULL, NULL, NULL},
    OPT_HEAD("jobs (docs/jobs.md; each job's flows obey the source agent above)"),
    {"job", OT_FUNC, 0, 0, 0, NULL, "'NAME key=value ...'", NULL, NULL,
     "a job (repeatable), with the keys of a\n"
     "[job NAME] section of a scenario file: pattern,\n"
     "trace, hosts, ranks, place, bytes, root, dims,\n"
     "periodic, iterations, start, sl", "none", NULL, 0, cu_job_fn, NULL, NULL},
    {"trace", OT_FUNC, 0, 0, 0, NULL, "FILE", NULL, NULL,
     "an ibcc-trace 1 file as a job (repeatable):\n"
     "job traceN on hosts 0 .. its ranks - 1, the\n"
     "same as --job 'traceN trace=FILE'", "none", NULL, 0, cu_trace_fn, NULL, NULL},
    {"job-csv", OT_TEXT, OPT_F(job_csv), 0, 0, NULL, "FILE", NULL, NULL,
     "CSV: one row per job (completion, ideal,\nslowdown, message quantiles)", NULL, NULL,
     OPT_NOPARAM, NULL, NULL, NULL},
    OPT_HEAD("run and outputs"),
    OPT_DOUBLE("time", time_ms, 1e-6, 10000, "MS", "ms", "10", "simulated time"),
    {"warmup", OT_DOUBLE, OPT_F(warmup_ms), 0, 10000, NULL, "MS", "ms", NULL,
     "not measured (below time)", "time / 10", NULL, 0, NULL, NULL, NULL},
    OPT_U64("seed", seed, 0, 18446744073709551615.0, "N", NULL, "1",
            "random seed (Poisson arrivals, permutation)"),
    {"bin", OT_DOUBLE, OPT_F(bin_ms), 1e-6, 10000, NULL, "MS", "ms", NULL,
     "series resolution", "time / 100", NULL, 0, NULL, NULL, NULL},
    OPT_OUTPUTS("CSV: time_ms and each class's delivered rate",
                "CSV metric,value: per class throughput, mean and\n"
                "p99 latency, marked fraction; counters; identities\n"
                "and conserved (ibcc_fabric_check)",
                "no summary line on standard output"),
};
#undef OPT_T

const opt_cmd cu_cmd = {
    "custom", "--topology T [flags]",
    "A fabric composed from its parts through ibcc.h: topology, switches,\n"
    "marking engine, source agent and traffic. Every figure counts DELIVERED\n"
    "packets in [warmup, time]; rates are fractions of the reference rate, the\n"
    "slowest link that attaches a host. A flag that does not apply to the\n"
    "configuration (speedup with vct switches) is refused. In a scenario file:\n"
    "experiment = custom and these flags without '--' (ibccsim run FILE).\n",
    cu_opt, OPT_N(cu_opt), NULL, NULL, 0
};

static void cu_defaults(cu_opts *o)
{
    memset(o, 0, sizeof *o);
    opt_defaults(&cu_cmd, o);
    o->topo = o->traffic = -1;      /* not given: required / by topology */
}

static int cu_given(const cu_opts *o, const char *flag)
{
    (void)o;
    return opt_given(flag + 2);
}

/* A configuration error about `flag`: the message, after the file and
   line of the key when a scenario file gave it. Returns 2. */
static int cu_refuse(const char *flag, const char *fmt, ...)
{
    va_list ap;
    where(flag);
    fprintf(stderr, "ibccsim custom: ");
    va_start(ap, fmt);
    vfprintf(stderr, fmt, ap);
    va_end(ap);
    fprintf(stderr, "\n");
    return 2;
}

/* Refuses `flag` when it was given but does not apply. */
static int cu_only(const cu_opts *o, const char *flag, int applies,
                   const char *when)
{
    if (applies || !cu_given(o, flag)) return 0;
    return cu_refuse(flag, "%s applies only %s", flag, when);
}

static int cu_check(cu_opts *o)
{
    int tree = o->topo == CU_FATTREE || o->topo == CU_NFLY;
    int grid = o->topo == CU_MESH || o->topo == CU_TORUS;
    int dfly = o->topo == CU_DRAGONFLY;
    int santos = o->marker >= IBCC_MARKER_NAIVE
                 && o->marker <= IBCC_MARKER_INPUT_OUTPUT;
    int hot, ratey, i, rc;
    ibcc_law_desc ld;
    if (o->topo < 0)
        return cu_refuse("--topology", "--topology is required (fattree, "
                         "nfly, mesh, torus, dragonfly, twoswitch, "
                         "ibnetdiscover)");
    if (dfly && !cu_given(o, "--routing")) o->routing = IBCC_TOPO_MINIMAL;
    if (o->traffic < 0)
        o->traffic = o->njob || o->ntrace ? CU_NONE
                     : o->topo == CU_TWOSWITCH ? CU_VICTIM : CU_UNIFORM;
    if (o->traffic == CU_NONE && !o->njob && !o->ntrace)
        return cu_refuse("--traffic", "traffic = none leaves nothing to run: "
                         "give --job SPEC or --trace FILE");
    if (o->job_csv && !o->njob && !o->ntrace)
        return cu_refuse("--job-csv", "--job-csv applies only with --job or --trace");
    hot = o->traffic == CU_INCAST || o->traffic == CU_HOTSPOT;
    ratey = o->traffic == CU_UNIFORM || o->traffic == CU_HOTSPOT;
    {
        const struct { const char *flag; int applies; const char *when; }
        only[] = {
            {"--k", tree, "to topology = fattree or nfly"},
            {"--n", tree, "to topology = fattree or nfly"},
            {"--x", grid, "to topology = mesh or torus"},
            {"--y", grid, "to topology = mesh or torus"},
            {"--hps", grid, "to topology = mesh or torus"},
            {"--root", grid && o->routing == IBCC_TOPO_UPDOWN,
             "to topology = mesh or torus with routing = updown"},
            {"--routing", grid || dfly || o->routing == IBCC_TOPO_UPDOWN,
             "to topology = mesh, torus or dragonfly"},
            {"--a", dfly, "to topology = dragonfly"},
            {"--p", dfly, "to topology = dragonfly"},
            {"--h", dfly, "to topology = dragonfly"},
            {"--groups", dfly, "to topology = dragonfly"},
            {"--lmc", dfly, "to topology = dragonfly"},
            {"--dlid", dfly, "to topology = dragonfly"},
            {"--sl2vl", !dfly, "to topologies other than dragonfly (the "
             "dragonfly's tables put SL s on VL 2s before its global hop "
             "and 2s + 1 after)"},
            {"--opensm-conf", !dfly, "to topologies other than dragonfly "
             "(its SL-to-VL tables are the routing's)"},
            {"--vlarb-high", !dfly, "to topologies other than dragonfly "
             "(qos settings would replace its SL-to-VL tables)"},
            {"--vlarb-low", !dfly, "to topologies other than dragonfly "
             "(qos settings would replace its SL-to-VL tables)"},
            {"--high-limit", !dfly, "to topologies other than dragonfly "
             "(qos settings would replace its SL-to-VL tables)"},
            {"--local", o->topo == CU_TWOSWITCH, "to topology = twoswitch"},
            {"--remote", o->topo == CU_TWOSWITCH, "to topology = twoswitch"},
            {"--ibnetdiscover", o->topo == CU_IBNET, "to topology = ibnetdiscover"},
            {"--lfts", o->topo == CU_IBNET, "to topology = ibnetdiscover"},
            {"--out-buf-packets", o->kind == IBCC_SWITCH_CIOQ,
             "to switch-kind = cioq (output buffers)"},
            {"--speedup", o->kind == IBCC_SWITCH_CIOQ,
             "to switch-kind = cioq (crossbar speedup)"},
            {"--input-fanout", o->kind == IBCC_SWITCH_VCT,
             "to switch-kind = vct"},
            {"--bypass", o->arbiter == IBCC_ARB_OLDEST, "to arbiter = oldest"},
            {"--classify", santos, "to marker = naive, input or io"},
            {"--trigger", santos, "to marker = naive, input or io"},
            {"--defer-trigger", santos, "to marker = naive, input or io"},
            {"--out-threshold", o->marker == IBCC_MARKER_INPUT_OUTPUT,
             "to marker = io"},
            {"--threshold", o->marker == IBCC_MARKER_IBA, "to marker = iba"},
            {"--marking-rate", o->marker == IBCC_MARKER_IBA, "to marker = iba"},
            {"--packet-size", o->marker == IBCC_MARKER_IBA, "to marker = iba"},
            {"--mvpm-in", o->marker == IBCC_MARKER_MVPM, "to marker = mvpm"},
            {"--mvpm-out", o->marker == IBCC_MARKER_MVPM, "to marker = mvpm"},
            {"--window", o->agent != IBCC_AGENT_MVCM,
             "to agents other than mvcm (its dynamic window replaces it)"},
            {"--law", o->agent == IBCC_AGENT_LAW, "to agent = law"},
            {"--discrete", o->agent == IBCC_AGENT_LAW, "to agent = law"},
            {"--rmin-div", o->agent == IBCC_AGENT_LAW, "to agent = law"},
            {"--fixed-rate", o->agent == IBCC_AGENT_FIXED, "to agent = fixed"},
            {"--cct", o->agent == IBCC_AGENT_CCT, "to agent = cct"},
            {"--ccti-timer", o->agent == IBCC_AGENT_CCT, "to agent = cct"},
            {"--ccti-increase", o->agent == IBCC_AGENT_CCT, "to agent = cct"},
            {"--ccti-limit", o->agent == IBCC_AGENT_CCT, "to agent = cct"},
            {"--dw-max", o->agent == IBCC_AGENT_MVCM, "to agent = mvcm"},
            {"--mvcm-hops", o->agent == IBCC_AGENT_MVCM, "to agent = mvcm"},
            {"--dcqcn-g", o->agent == IBCC_AGENT_DCQCN, "to agent = dcqcn"},
            {"--dcqcn-k", o->agent == IBCC_AGENT_DCQCN, "to agent = dcqcn"},
            {"--dcqcn-t", o->agent == IBCC_AGENT_DCQCN, "to agent = dcqcn"},
            {"--dcqcn-b", o->agent == IBCC_AGENT_DCQCN, "to agent = dcqcn"},
            {"--dcqcn-f", o->agent == IBCC_AGENT_DCQCN, "to agent = dcqcn"},
            {"--dcqcn-rai", o->agent == IBCC_AGENT_DCQCN, "to agent = dcqcn"},
            {"--dcqcn-rhai", o->agent == IBCC_AGENT_DCQCN, "to agent = dcqcn"},
            {"--dcqcn-rmin", o->agent == IBCC_AGENT_DCQCN, "to agent = dcqcn"},
            {"--dcqcn-n", o->agent == IBCC_AGENT_DCQCN, "to agent = dcqcn"},
            {"--hpcc-t", o->agent == IBCC_AGENT_HPCC, "to agent = hpcc"},
            {"--hpcc-eta", o->agent == IBCC_AGENT_HPCC, "to agent = hpcc"},
            {"--hpcc-max-stage", o->agent == IBCC_AGENT_HPCC, "to agent = hpcc"},
            {"--hpcc-wai", o->agent == IBCC_AGENT_HPCC, "to agent = hpcc"},
            {"--kmin", o->marker == IBCC_MARKER_ECN, "to marker = ecn"},
            {"--kmax", o->marker == IBCC_MARKER_ECN, "to marker = ecn"},
            {"--pmax", o->marker == IBCC_MARKER_ECN, "to marker = ecn"},
            {"--pfc-xoff", o->flow_control == CU_PFC, "to flow-control = pfc"},
            {"--pfc-xon", o->flow_control == CU_PFC, "to flow-control = pfc"},
            {"--pfc-size", o->flow_control == CU_PFC, "to flow-control = pfc"},
            {"--pfc-quanta", o->flow_control == CU_PFC,
             "to flow-control = pfc"},
            {"--load", ratey, "to traffic = uniform or hotspot"},
            {"--load-bytes", ratey, "to traffic = uniform or hotspot"},
            {"--nic-fifo", ratey, "to traffic = uniform or hotspot (one FIFO "
             "orders generated packets; greedy flows have no such order)"},
            {"--hot-dst", hot, "to traffic = incast or hotspot"},
            {"--hot-sources", hot, "to traffic = incast or hotspot"},
            {"--background", hot, "to traffic = incast or hotspot"},
            {"--hot-packets", o->traffic == CU_HOTSPOT, "to traffic = hotspot"},
            {"--start-after", o->traffic == CU_HOTSPOT, "to traffic = hotspot"},
            {"--victim-from", o->traffic == CU_VICTIM, "to traffic = victim"},
            {"--shift", o->traffic == CU_SHIFT, "to traffic = shift"},
            {"--victim-to", o->traffic == CU_VICTIM, "to traffic = victim"},
            {"--victim-sl", o->traffic == CU_VICTIM, "to traffic = victim"},
            {"--hot-sl", hot, "to traffic = incast or hotspot"},
            {"--background-sl", hot && o->background > 0,
             "to traffic = incast or hotspot with --background"},
        };
        for (i = 0; i < CU_N(only); i++)
            if ((rc = cu_only(o, only[i].flag, only[i].applies, only[i].when)))
                return rc;
    }
    if (o->topo == CU_IBNET && !o->ibnet)
        return cu_refuse("--topology", "topology = ibnetdiscover needs "
                         "--ibnetdiscover FILE (and optionally --lfts FILE)");
    if (o->traffic == CU_VICTIM && o->topo != CU_TWOSWITCH)
        return cu_refuse("--traffic", "traffic = victim is the two-switch "
                         "builder's flows: it needs topology = twoswitch");
    if (o->flow_control == CU_PFC && (santos || o->marker == IBCC_MARKER_MVPM))
        return cu_refuse("--marker", "marker = %s counts IBA buffers in "
                         "packets; with flow-control = pfc use none, iba or "
                         "ecn", cu_markers[o->marker]);
    if (o->marker == IBCC_MARKER_ECN && o->flow_control != CU_PFC
        && !o->buf_credits)
        return cu_refuse("--marker", "marker = ecn marks on queue bytes: it "
                         "needs --buf-credits N (or flow-control = pfc)");
    if (o->marker == IBCC_MARKER_ECN && o->kmin > o->kmax)
        return cu_refuse("--kmin", "--kmin %llu is above --kmax %llu",
                         o->kmin, o->kmax);
    if (o->agent == IBCC_AGENT_DCQCN && o->marker != IBCC_MARKER_ECN
        && o->marker != IBCC_MARKER_IBA)
        return cu_refuse("--agent", "agent = dcqcn reacts to CNPs for marked "
                         "packets: it needs marker = ecn or iba");
    if (o->flow_control == CU_PFC && cu_given(o, "--pfc-xon")
        && o->pfc_xon > (cu_given(o, "--pfc-xoff") ? o->pfc_xoff
                                                    : 4u * o->data_size))
        return cu_refuse("--pfc-xon", "--pfc-xon %u is above pfc-xoff (%u)",
                         o->pfc_xon, cu_given(o, "--pfc-xoff") ? o->pfc_xoff
                                                   : 4u * o->data_size);
    if (o->agent == IBCC_AGENT_WINDOW && !o->window)
        return cu_refuse("--agent", "agent = window needs --window N");
    if (o->agent == IBCC_AGENT_FIXED && !o->fixed_rate)
        return cu_refuse("--agent", "agent = fixed needs --fixed-rate X");
    if (o->agent == IBCC_AGENT_CCT && o->marker != IBCC_MARKER_IBA
        && o->marker != IBCC_MARKER_MVPM)
        return cu_refuse("--agent", "agent = cct reacts to BECNs (marker = "
                         "iba) or validated marks (marker = mvpm), not to "
                         "marker = %s", cu_markers[o->marker]);
    if (o->agent == IBCC_AGENT_MVCM && o->marker != IBCC_MARKER_MVPM)
        return cu_refuse("--agent", "agent = mvcm needs marker = mvpm");
    if (o->agent == IBCC_AGENT_HPCC && o->flow_control != CU_PFC
        && !o->buf_credits)
        return cu_refuse("--agent", "agent = hpcc reads the queues of its "
                         "INT records in bytes: it needs --buf-credits N "
                         "(or flow-control = pfc)");
    if (o->agent == IBCC_AGENT_MVCM && o->topo == CU_IBNET && !o->mvcm_hops)
        return cu_refuse("--agent", "agent = mvcm on a loaded fabric needs "
                         "--mvcm-hops N (links of the longest path)");
    if (o->load && o->load_bytes)
        return cu_refuse("--load-bytes", "give --load or --load-bytes, not both");
    if (ratey && !o->load && !o->load_bytes)
        return cu_refuse("--traffic", "traffic = %s needs --load X (a fraction "
                         "of the reference rate) or --load-bytes B",
                         cu_traffics[o->traffic]);
    if (cu_given(o, "--vls") && o->vls != 1 && o->vls != 2 && o->vls != 4
        && o->vls != 8 && o->vls != 15)
        return cu_refuse("--vls", "--vls %u: a port has 1, 2, 4, 8 or 15 data "
                         "VLs", o->vls);
    if (!cu_given(o, "--hot-sl")) o->hot_sl = o->sl;
    if (!cu_given(o, "--background-sl")) o->background_sl = o->sl;
    if (!cu_given(o, "--victim-sl")) o->victim_sl = o->sl;
    if (!cu_given(o, "--warmup")) o->warmup_ms = o->time_ms / 10;
    if (!cu_given(o, "--bin")) o->bin_ms = o->time_ms / 100;
    if (o->warmup_ms >= o->time_ms)
        return cu_refuse("--warmup", "--warmup %g ms leaves nothing of "
                         "--time %g ms to measure", o->warmup_ms, o->time_ms);
    if (o->bin_ms > o->time_ms)
        return cu_refuse("--bin", "--bin %g ms is longer than --time %g ms",
                         o->bin_ms, o->time_ms);
    if (o->traffic == CU_VICTIM) {
        if (o->victim_from >= o->time_ms)
            return cu_refuse("--victim-from", "the victim starts at %g ms, "
                             "after the run (--time %g ms)", o->victim_from,
                             o->time_ms);
        if (cu_given(o, "--victim-to") && o->victim_to <= o->victim_from)
            return cu_refuse("--victim-to", "--victim-to %g ms must be after "
                             "--victim-from %g ms", o->victim_to, o->victim_from);
    }
    {
        /* marker levels are counted in the buffer's unit */
        unsigned in_cap = o->buf_credits ? o->buf_credits : o->buf_packets;
        if (o->trigger > in_cap)
            return cu_refuse("--trigger", "--trigger %u is above the input "
                             "buffer (%u %s)", o->trigger, in_cap,
                             o->buf_credits ? "credits" : "packets");
        if (o->mvpm_in > in_cap)
            return cu_refuse("--mvpm-in", "--mvpm-in %u is above the input "
                             "buffer (%u %s)", o->mvpm_in, in_cap,
                             o->buf_credits ? "credits" : "packets");
    }
    if (o->agent == IBCC_AGENT_LAW) {
        memset(&ld, 0, sizeof ld);
        ld.kind = (ibcc_law_kind)o->law;
        ld.form = o->discrete ? IBCC_LAW_DISCRETE : IBCC_LAW_CONTINUOUS;
        ld.rmin = 1.0 / o->rmin_div;
        if (ibcc_law_defaults(&ld) != IBCC_OK)
            return cu_refuse("--rmin-div", "the law refuses Rmin = Rmax / %u"
                             "%s", o->rmin_div, o->discrete
                             ? " (discrete rates need --rmin-div <= 256)" : "");
    }
    return 0;
}

/* What the run is built from; static in cmd_custom (the two-switch
   topology and the CCT are large). */
typedef struct cu_net {
    ibcc_topo topo;             /* fattree, nfly, mesh, torus */
    ibcc_twoswitch ts;          /* twoswitch */
    ibcc_ibfabric ib;           /* ibnetdiscover */
    uint32_t *hosts, nh, dst;   /* host node indices; the hot host's index */
    ibcc_rate ref;              /* slowest link that attaches a host */
    ibcc_fabric_flow *flows;
    uint32_t nf;
    uint16_t cct[16384];
    ibcc_qos_config qos;        /* --opensm-conf and the VL flags */
    jb_set *jobs;               /* --job, or NULL */
} cu_net;

static void cu_free(cu_net *net)
{
    ibcc_topo_free(&net->topo);
    ibcc_ibfabric_free(&net->ib);
    free(net->hosts);
    free(net->flows);
}

/* Reads the InfiniBand fabric: topology, then tables or up/down routes. */
static int cu_load_fabric(const cu_opts *o, cu_net *net, ibcc_fabric_desc *d)
{
    ibcc_ibfabric_error e;
    ibcc_result r;
    size_t len = 0;
    char *text = fc_read("custom", "--ibnetdiscover", o->ibnet, &len);
    if (!text) return 2;
    r = ibcc_ibfabric_parse(&net->ib, text, len, o->ibnet, NULL, &e);
    free(text);
    if (r == IBCC_OK) fc_dup_names("custom", &net->ib);
    if (r == IBCC_OK && o->lfts) {
        if (!(text = fc_read("custom", "--lfts", o->lfts, &len))) return 2;
        r = ibcc_ibfabric_lfts(&net->ib, text, len, o->lfts, &e);
        free(text);
    } else if (r == IBCC_OK) {
        r = ibcc_ibfabric_updown(&net->ib, &e);
    }
    if (r != IBCC_OK) return fc_error(&e) + 1;
    return ibcc_ibfabric_to_desc(&net->ib, d) == IBCC_OK ? 0 : 2;
}

/* The topology into d, the host list and the reference rate. */
static int cu_topology(const cu_opts *o, cu_net *net, ibcc_fabric_desc *d)
{
    ibcc_result r = IBCC_OK;
    uint32_t i;
    int rc;
    d->link_rate = (ibcc_rate)(o->link_gbytes * 1e9 + 0.5);
    switch (o->topo) {
    case CU_FATTREE: case CU_NFLY: case CU_MESH: case CU_TORUS: case CU_DRAGONFLY:
    {
        tb_spec ts;
        tb_err e;
        memset(&ts, 0, sizeof ts);
        ts.builder = o->topo;           /* CU_ and TB_ share their order */
        ts.routing = o->routing;
        ts.k = o->k; ts.n = o->n; ts.x = o->x; ts.y = o->y; ts.hps = o->hps;
        ts.root = o->root; ts.a = o->a; ts.p = o->p; ts.h = o->h;
        ts.groups = o->groups; ts.lmc = o->lmc; ts.vls = o->vls;
        ts.lmc_given = cu_given(o, "--lmc");
        ts.vls_given = cu_given(o, "--vls");
        if (tb_build(&ts, &net->topo, &e)) return cu_refuse(e.flag, "%s", e.why);
        break;
    }
    case CU_TWOSWITCH: {
        ibcc_fabric_error err;
        d->error = &err;
        r = ibcc_twoswitch_build(&net->ts, o->local, o->remote, d);
        d->error = NULL;
        if (r != IBCC_OK)             /* "L (local) 0: 1..64 sources" */
            return cu_refuse(err.reason[0] == 'R' ? "--remote" : "--local",
                             "the two-switch builder: %s", err.reason);
        break;
    }
    default:
        if ((rc = cu_load_fabric(o, net, d)) != 0) return rc;
        break;
    }
    if (net->topo.nodes) (void)ibcc_topo_apply(&net->topo, d);
    net->hosts = (uint32_t *)calloc(d->node_count, sizeof *net->hosts);
    if (!net->hosts) {
        fprintf(stderr, "ibccsim custom: out of memory\n");
        return 1;
    }
    if (o->topo == CU_IBNET) {          /* host i = the loader's host i */
        for (i = 0; i < net->ib.host_count; i++)
            net->hosts[i] = net->ib.hosts[i].node;
        net->nh = net->ib.host_count;
    } else {
        for (i = 0; i < d->node_count; i++)
            if (d->nodes[i].kind == IBCC_FABRIC_HOST) net->hosts[net->nh++] = i;
    }
    if (net->nh < 2)
        return cu_refuse("--topology", "the fabric has %u host%s: traffic "
                         "needs two", net->nh, net->nh == 1 ? "" : "s");
    net->ref = 0;
    for (i = 0; i < d->link_count; i++) {
        const ibcc_fabric_link *l = &d->links[i];
        ibcc_rate x = l->rate ? l->rate : d->link_rate;
        if (d->nodes[l->a].kind != IBCC_FABRIC_HOST
            && d->nodes[l->b].kind != IBCC_FABRIC_HOST) continue;
        if (net->ref == 0 || x < net->ref) net->ref = x;
    }
    return 0;
}

/* The hot host (--hot-dst: an index, or a host name of a loaded fabric). */
static int cu_hot_dst(const cu_opts *o, cu_net *net)
{
    unsigned long long u;
    uint32_t h;
    net->dst = net->nh - 1u;
    if (!o->hot_dst) return 0;
    if (parse_uint(o->hot_dst, 0, net->nh - 1u, &u)) {
        net->dst = (uint32_t)u;
        return 0;
    }
    if (o->topo == CU_IBNET) {
        ibcc_result r = ibcc_ibfabric_find_host(&net->ib, o->hot_dst, &h);
        if (r == IBCC_OK) {
            net->dst = h;
            return 0;
        }
        if (r == IBCC_ERR_MISMATCH)
            return cu_refuse("--hot-dst", "--hot-dst %s: more than one host "
                             "answers to it; give a host index or a port GUID",
                             o->hot_dst);
    }
    return cu_refuse("--hot-dst", "--hot-dst %s: not a host index 0..%u%s",
                     o->hot_dst, net->nh - 1u, o->topo == CU_IBNET
                     ? " nor a host name or GUID of the fabric" : "");
}

/* The flows of the traffic pattern, then each flow's agent. */
static int cu_traffic(const cu_opts *o, cu_net *net, ibcc_fabric_desc *d)
{
    uint32_t nh = net->nh, ns = 0, n = 0, m = 0, k, *pick = NULL;
    uint64_t cap = 0;
    int hot = o->traffic == CU_INCAST || o->traffic == CU_HOTSPOT, rc;
    int uniform = o->traffic == CU_UNIFORM || o->background > 0;
    double ref = (double)net->ref;
    ibcc_rate rate = o->load_bytes ? (ibcc_rate)(o->load_bytes + 0.5)
                                   : (ibcc_rate)(o->load * ref + 0.5);
    ibcc_result r = IBCC_OK;
    if (o->load_bytes > ref)
        return cu_refuse("--load-bytes", "--load-bytes %g is above the "
                         "reference rate (%.0f bytes/s)", o->load_bytes, ref);
    if (hot) {
        if ((rc = cu_hot_dst(o, net)) != 0) return rc;
        ns = o->hot_sources ? o->hot_sources : nh - 1u;
        if (ns > nh - 1u)
            return cu_refuse("--hot-sources", "--hot-sources %u: the fabric "
                             "has %u other hosts", ns, nh - 1u);
        cap += ns;
    }
    if (uniform) cap += (uint64_t)nh * (nh - 1u);
    if (o->traffic == CU_PERMUTATION || o->traffic == CU_SHIFT) cap += nh;
    if (o->traffic == CU_VICTIM) cap += net->ts.flow_count;
    if (cap > (1u << 24))
        return cu_refuse("--traffic", "%llu flows: at most 2^24",
                         (unsigned long long)cap);
    net->flows = (ibcc_fabric_flow *)calloc((size_t)(cap ? cap : 1u), sizeof *net->flows);
    pick = (uint32_t *)calloc(ns ? ns : 1u, sizeof *pick);
    if (!net->flows || !pick) {
        free(pick);
        fprintf(stderr, "ibccsim custom: out of memory\n");
        return 1;
    }
    if (o->traffic == CU_VICTIM) {
        /* the builder's flows, started as ibccsim twoswitch starts them */
        for (k = 0; k < net->ts.flow_count; k++) {
            ibcc_fabric_flow *x = &net->flows[n++];
            *x = net->ts.flows[k];
            if (x->cls == IBCC_TS_VICTIM) {
                x->start = ms_time(o->victim_from);
                x->stop = cu_given(o, "--victim-to") ? ms_time(o->victim_to) : 0;
            } else {
                x->start = IBCC_US(100) * k;
            }
        }
    }
    if (uniform) {
        r = ibcc_traffic_uniform(net->hosts, nh, o->traffic == CU_UNIFORM ? rate
                                 : (ibcc_rate)(o->background * ref + 0.5),
                                 net->flows + n, (uint32_t)(cap - n), &m);
        if (r != IBCC_OK) {
            free(pick);
            return cu_refuse(o->background > 0 ? "--background" : o->load_bytes
                             ? "--load-bytes" : "--load", "the uniform load is "
                             "below 1 byte/s per destination (%u hosts)", nh);
        }
        for (k = 0; k < m; k++)         /* to the hot host: class 2 */
            net->flows[n + k].cls = hot && net->flows[n + k].dst
                                           == net->hosts[net->dst] ? 2u : 0u;
        n += m;
    }
    /* sources spread evenly over the hosts other than the hot one */
    for (k = 0; k < ns; k++) {
        uint32_t j = (uint32_t)((uint64_t)k * (nh - 1u) / ns);
        pick[k] = net->hosts[j + (j >= net->dst)];
    }
    if (o->traffic == CU_PERMUTATION || o->traffic == CU_SHIFT)
        r = ibcc_traffic_permutation(net->hosts, nh, o->seed, net->flows + n,
                                     (uint32_t)(cap - n), &m);
    else if (o->traffic == CU_INCAST)
        r = ibcc_traffic_incast(pick, ns, net->hosts[net->dst], net->flows + n,
                                (uint32_t)(cap - n), &m);
    else if (o->traffic == CU_HOTSPOT)
        r = ibcc_traffic_hotspot(pick, ns, net->hosts[net->dst], o->hot_packets,
                                 rate, o->start_after, net->flows + n,
                                 (uint32_t)(cap - n), &m);
    else
        m = 0;
    if (o->traffic == CU_SHIFT && r == IBCC_OK) {
        /* the permutation's greedy flows, host i to host i + shift */
        uint32_t sh = cu_given(o, "--shift") ? o->shift
                      : o->topo == CU_DRAGONFLY ? o->a * o->p : 1u;
        if (sh % nh == 0) {
            free(pick);
            return cu_refuse("--shift", "--shift %u: a multiple of the %u "
                             "hosts sends to itself", sh, nh);
        }
        for (k = 0; k < m; k++) {
            net->flows[n + k].src = net->hosts[k];
            net->flows[n + k].dst = net->hosts[(k + sh) % nh];
        }
    }
    free(pick);
    if (r != IBCC_OK) {
        fprintf(stderr, "ibccsim custom: the %s pattern: %s\n",
                cu_traffics[o->traffic], ibcc_result_str(r));
        return 1;
    }
    for (k = n; k < n + m; k++) net->flows[k].cls = hot ? 1u : 0u;
    n += m;
    for (k = 0; k < n; k++) {
        ibcc_fabric_flow *x = &net->flows[k];
        x->agent = (uint32_t)o->agent;
        x->window = o->window;
        x->msg_bytes = o->msg_bytes;
        if (o->traffic == CU_VICTIM)
            x->sl = x->cls == IBCC_TS_VICTIM ? o->victim_sl : o->sl;
        else
            x->sl = !hot ? o->sl : x->cls == 1u ? o->hot_sl : o->background_sl;
        if (o->agent == IBCC_AGENT_FIXED)
            x->rate = (ibcc_rate)(o->fixed_rate * ref + 0.5);
    }
    {
        tb_err e;
        if (tb_flows(&net->topo, net->flows, 0, n, o->dlid == CU_DLID_RR,
                     (uint64_t)o->seed, &e))
            return cu_refuse(e.nomem ? "--dlid" : !hot ? "--sl"
                             : net->flows[e.flow].cls == 1u ? "--hot-sl"
                             : "--background-sl", "%s", e.why);
    }
    net->nf = n;
    d->flows = net->flows;
    d->flow_count = n;
    return 0;
}

/* Virtual lanes: --opensm-conf's text, then one qos_ line per VL flag
   given (and qos TRUE), read by ibcc.h's OpenSM QoS parser, so the flags
   take OpenSM's value forms and ranges; nothing given: one VL. */
static int cu_vls(const cu_opts *o, cu_net *net, ibcc_fabric_desc *d)
{
    static const struct { const char *flag, *key; } vf[] = {
        {"--vls", "qos_max_vls"}, {"--high-limit", "qos_high_limit"},
        {"--vlarb-high", "qos_vlarb_high"}, {"--vlarb-low", "qos_vlarb_low"},
        {"--sl2vl", "qos_sl2vl"}};
    const char *val[5];
    char num[2][16], *text, *conf = NULL;
    size_t len = 0, cap;
    unsigned i, line, file_lines = 0, flag_line[5], nflags = 0;
    ibcc_result r;
    sprintf(num[0], "%u", o->vls);
    sprintf(num[1], "%u", o->high_limit);
    val[0] = num[0]; val[1] = num[1];
    val[2] = o->vlarb_high; val[3] = o->vlarb_low; val[4] = o->sl2vl;
    for (i = 0; i < 5u; i++) nflags += cu_given(o, vf[i].flag) ? 1u : 0u;
    if (o->topo == CU_DRAGONFLY) return 0;  /* the builder took --vls */
    if (!o->opensm_conf && !nflags) return 0;
    if (o->opensm_conf
        && !(conf = fc_read("custom", "--opensm-conf", o->opensm_conf, &len)))
        return 2;
    cap = len + 64u;
    for (i = 0; i < 5u; i++) {
        flag_line[i] = 0;
        if (cu_given(o, vf[i].flag))
            cap += strlen(vf[i].key) + strlen(val[i]) + 4u;
    }
    if (!(text = (char *)malloc(cap))) {
        free(conf);
        fprintf(stderr, "ibccsim custom: out of memory\n");
        return 1;
    }
    text[0] = 0;
    if (conf) {
        const char *c;
        strcpy(text, conf);
        for (c = conf; *c; c++) file_lines += *c == '\n';
        if (len && conf[len - 1] != '\n') {
            strcat(text, "\n");
            file_lines++;
        }
        free(conf);
    }
    line = file_lines;
    if (nflags) {
        strcat(text, "qos TRUE\n");
        line++;
    }
    for (i = 0; i < 5u; i++) {
        if (!cu_given(o, vf[i].flag)) continue;
        sprintf(text + strlen(text), "%s %s\n", vf[i].key, val[i]);
        flag_line[i] = ++line;
    }
    memset(&net->qos, 0, sizeof net->qos);
    r = ibcc_qos_parse_opensm(&net->qos, text, &line);
    free(text);
    if (r != IBCC_OK) {
        for (i = 0; i < 5u; i++)
            if (cu_given(o, vf[i].flag) && flag_line[i] == line)
                return cu_refuse(vf[i].flag, "%s %s: %s (OpenSM's %s)",
                                 vf[i].flag, val[i], ibcc_result_str(r),
                                 vf[i].key);
        return cu_refuse("--opensm-conf", "%s:%u: %s", o->opensm_conf
                         ? o->opensm_conf : "--opensm-conf", line,
                         ibcc_result_str(r));
    }
    d->qos = &net->qos;
    return 0;
}

/* us as written (--dcqcn-k 55) to ps; Mb/s to bytes/s (at least 1) */
static ibcc_time cu_ps(double us) { return (ibcc_time)(us * 1e6 + 0.5); }
static ibcc_rate cu_mbps(double mbps)
{
    ibcc_rate r = (ibcc_rate)(mbps * 1e6 / 8 + 0.5);
    return r ? r : 1u;
}

/* --dcqcn-*: the DCQCN parameters (line_rate 0: each flow's link); the
   ranges that depend on the line rate are checked at the slowest host
   link, the one every flow has at least (the fabric checks each flow's
   own again). Nonzero on a refusal. */
static int cu_dcqcn(const cu_opts *o, const cu_net *net, ibcc_dcqcn_desc *p)
{
    ibcc_dcqcn_desc e;
    double mb = (double)net->ref * 8 / 1e6;         /* the link in Mb/s */
    memset(p, 0, sizeof *p);
    p->g = (uint32_t)(o->dcqcn_g * IBCC_DCQCN_ONE + 0.5);
    p->k = cu_ps(o->dcqcn_k);
    p->timer_t = cu_ps(o->dcqcn_t);
    p->n = cu_ps(o->dcqcn_n);
    p->b = o->dcqcn_b ? o->dcqcn_b : IBCC_DCQCN_OFF;
    p->f = o->dcqcn_f;
    if (o->dcqcn_rai) p->r_ai = cu_mbps(o->dcqcn_rai);
    if (o->dcqcn_rhai) p->r_hai = cu_mbps(o->dcqcn_rhai);
    if (o->dcqcn_rmin) p->rate_min = cu_mbps(o->dcqcn_rmin);
    if (p->rate_min > net->ref)
        return cu_refuse("--dcqcn-rmin", "--dcqcn-rmin %g Mb/s is above the "
                         "line rate (%g Mb/s)", o->dcqcn_rmin, mb);
    if (p->r_ai > net->ref || (p->r_ai && p->r_ai < (net->ref >> 20)))
        return cu_refuse("--dcqcn-rai", "--dcqcn-rai %g Mb/s: R_AI is between "
                         "line rate / 2^20 and the line rate (%g .. %g Mb/s)",
                         o->dcqcn_rai, mb / 1048576, mb);
    if (p->r_hai > net->ref || (p->r_hai && p->r_hai < (net->ref >> 20)))
        return cu_refuse("--dcqcn-rhai", "--dcqcn-rhai %g Mb/s: R_HAI is "
                         "between line rate / 2^20 and the line rate (%g .. "
                         "%g Mb/s)", o->dcqcn_rhai, mb / 1048576, mb);
    e = *p;
    e.line_rate = net->ref;
    if (ibcc_dcqcn_defaults(&e) != IBCC_OK)
        return cu_refuse("--agent", "the DCQCN parameters are out of range "
                         "(docs/dcqcn.md gives the ranges)");
    return 0;
}

/* --hpcc-*: the HPCC parameters, checked as cu_dcqcn's. */
static int cu_hpcc(const cu_opts *o, const cu_net *net, ibcc_hpcc_desc *p)
{
    ibcc_hpcc_desc e;
    memset(p, 0, sizeof *p);
    p->base_rtt = cu_ps(o->hpcc_t);
    p->eta = (uint32_t)(o->hpcc_eta * IBCC_HPCC_ONE + 0.5);
    p->max_stage = o->hpcc_max_stage ? o->hpcc_max_stage : IBCC_HPCC_STAGE_ZERO;
    p->w_ai = o->hpcc_wai;
    e = *p;
    e.line_rate = net->ref;
    e.w_ai = 0;                                     /* T alone first */
    if (ibcc_hpcc_defaults(&e) != IBCC_OK)
        return cu_refuse("--hpcc-t", "--hpcc-t %g us: line rate x T is below "
                         "1 byte or above 2^48 bytes", o->hpcc_t);
    if (p->w_ai > e.w_init)
        return cu_refuse("--hpcc-wai", "--hpcc-wai %llu bytes: W_AI is at "
                         "most line rate x T (%llu bytes)", o->hpcc_wai,
                         (unsigned long long)e.w_init);
    return 0;
}

/* Switches, marker, destination echo and the source agents' engines. */
static int cu_engines(const cu_opts *o, cu_net *net, ibcc_fabric_desc *d)
{
    unsigned s;
    d->prop_delay = (ibcc_time)(o->prop_ns * 1e3 + 0.5);
    d->fwd_delay = (ibcc_time)(o->fwd_ns * 1e3 + 0.5);
    d->fwd_zero = d->fwd_delay == 0;
    d->data_size = o->data_size;
    d->buf_packets = o->buf_packets;
    d->buf_credits = o->buf_credits;
    if (o->flow_control == CU_PFC) {
        /* PFC: buffers in bytes (pfc.size); slots and credits follow
           unless given */
        d->flow_control = IBCC_FLOW_PFC;
        if (!cu_given(o, "--buf-packets")) d->buf_packets = 0;
        d->pfc.xoff = o->pfc_xoff;
        d->pfc.xon = o->pfc_xon;
        d->pfc.size = o->pfc_size;
        d->pfc.quanta = o->pfc_quanta;
    }
    d->switch_kind = (ibcc_switch_kind)o->kind;
    d->out_buf_packets = o->out_buf_packets;     /* 0: buf_packets */
    d->speedup = o->speedup;                     /* 0: 2 */
    d->nic_fifo = o->nic_fifo;
    d->input_fanout = o->fanout;
    d->marker.defer = o->defer;
    d->arbiter.policy = o->arbiter;
    d->arbiter.bypass_limit = o->bypass;
    d->marker.engine = (ibcc_marker_engine)o->marker;
    d->marker.classify = o->classify;
    d->marker.trigger = o->trigger;
    d->marker.t_out = o->t_out;
    if (o->marker == IBCC_MARKER_IBA) {
        d->marker.iba_threshold = o->threshold;
        d->marker.iba_marking_rate = o->marking_rate;
        d->marker.iba_packet_size = o->packet_size;
        d->dest.scheme = IBCC_DEST_IBA;
    } else if (o->marker == IBCC_MARKER_MVPM) {
        /* the output level the marker sees: a CIOQ output buffer, or
           what the other inputs of the smallest switch can hold */
        uint32_t out_cap = 0, i;
        for (i = 0; i < d->node_count; i++) {
            uint32_t c = d->nodes[i].ports - 1u;
            if (d->nodes[i].kind != IBCC_FABRIC_SWITCH) continue;
            c *= o->buf_credits ? o->buf_credits : o->buf_packets;
            if (out_cap == 0 || c < out_cap) out_cap = c;
        }
        if (o->kind == IBCC_SWITCH_CIOQ)
            out_cap = o->buf_credits ? o->buf_credits
                      : o->out_buf_packets ? o->out_buf_packets : o->buf_packets;
        if (o->mvpm_out > out_cap)
            return cu_refuse("--mvpm-out", "--mvpm-out %u is above the output "
                             "level a switch can reach (%u %s)", o->mvpm_out,
                             out_cap, o->buf_credits ? "credits" : "packets");
        d->marker.mvpm_in_threshold = o->mvpm_in;
        d->marker.mvpm_out_threshold = o->mvpm_out;
        d->dest.scheme = IBCC_DEST_MVPM;
    } else if (o->marker == IBCC_MARKER_ECN) {
        d->marker.ecn_kmin = o->kmin;
        d->marker.ecn_kmax = o->kmax;
        d->marker.ecn_pmax = (uint32_t)(o->pmax * 1e6 + 0.5);
        d->dest.scheme = IBCC_DEST_IBA;        /* the mark comes back */
    }
    if (o->agent == IBCC_AGENT_DCQCN) {
        d->dest.becn_by_cnp = 1;                           /* CNPs */
        if (cu_dcqcn(o, net, &d->dcqcn)) return 2;
    }
    if (o->agent == IBCC_AGENT_HPCC && cu_hpcc(o, net, &d->hpcc)) return 2;
    if (o->agent == IBCC_AGENT_LAW) {
        d->law.kind = (ibcc_law_kind)o->law;
        d->law.form = o->discrete ? IBCC_LAW_DISCRETE : IBCC_LAW_CONTINUOUS;
        d->law.rmin = 1.0 / o->rmin_div;
    } else if (o->agent == IBCC_AGENT_CCT) {
        ibcc_time mpt = 0;
        uint32_t len;
        (void)ibcc_wire_time(o->data_size, net->ref, &mpt);
        len = gr_load_cct("custom", o->cct, mpt, net->cct, 16384);
        if (len == 0) return cu_refuse("--cct", "no CCT loaded from '%s'", o->cct);
        if (cu_given(o, "--ccti-limit") && o->ccti_limit >= len)
            return cu_refuse("--ccti-limit", "--ccti-limit %u: the table has "
                             "%u entries (at most %u)", o->ccti_limit, len,
                             len - 1u);
        d->cct.table = net->cct;
        d->cct.table_len = len;
        d->cct.ccti_limit = (uint16_t)(cu_given(o, "--ccti-limit")
                                       ? o->ccti_limit : len - 1u);
        for (s = 0; s < IBCC_CCT_SLS; s++) {
            d->cct.sl[s].ccti_timer = (uint16_t)o->ccti_timer;
            d->cct.sl[s].ccti_increase = (uint8_t)o->ccti_increase;
        }
    } else if (o->agent == IBCC_AGENT_MVCM) {
        /* the waiting slot: RTTmin over the longest path (links one way) */
        unsigned hops = o->mvcm_hops;
        ibcc_time ws = 0;
        if (!hops) {
            if (o->topo == CU_FATTREE || o->topo == CU_NFLY) hops = 2u * o->n;
            else if (o->topo == CU_MESH) hops = o->x + o->y;
            else if (o->topo == CU_TORUS) hops = o->x / 2u + o->y / 2u + 2u;
            else if (o->topo == CU_DRAGONFLY) hops = 5u;
            else hops = 3u;                          /* twoswitch */
        }
        if (ibcc_mvcm_rtt_min(hops, d->prop_delay + d->fwd_delay, net->ref,
                              o->data_size, 22, &ws) != IBCC_OK)
            return cu_refuse("--mvcm-hops", "no RTTmin for %u hops", hops);
        d->mvcm.ws = ws;
        d->mvcm.dw_max = o->dw_max;
        if (o->topo == CU_FATTREE || o->topo == CU_NFLY) {
            d->mvcm.k = o->k;
            d->mvcm.n = o->n;
        }
    }
    d->seed = o->seed;
    return 0;
}

typedef struct cu_res {
    ibcc_fabric_class_stats cls[IBCC_FABRIC_CLASSES];
    double p99_us[IBCC_FABRIC_CLASSES];
    ibcc_fabric_counters c0, c1;    /* at the end of the warm-up, at the end */
    ibcc_fabric_pfc_totals p0, p1;  /* the same for PFC */
    double secs;                    /* measured: time - warmup */
    uint64_t bytes;                 /* data bytes delivered in the window */
    int conserved, identities;
} cu_res;

/* CSV: per bin, each class's delivered rate (fraction of the reference
   rate); the last bin may be shorter. Adds every bin's bytes to *total. */
static int cu_write_series(const cu_opts *o, const cu_net *net,
                           const ibcc_fabric *f, const cu_res *res,
                           uint64_t *total)
{
    FILE *fp = fopen(o->series, "w");
    ibcc_time end = ms_time(o->time_ms), bin = ms_time(o->bin_ms), t;
    unsigned c;
    uint32_t i;
    if (!fp) {
        fprintf(stderr, "ibccsim: cannot write %s: %s\n", o->series,
                strerror(errno));
        return 0;
    }
    fprintf(fp, "time_us");
    for (c = 0; c < IBCC_FABRIC_CLASSES; c++)
        if (res->cls[c].flows) fprintf(fp, ",class%u_links", c);
    fprintf(fp, "\n");
    *total = 0;
    /* through the bin that holds `end` itself (a delivery at the last
       instant), printing the bins that start before it */
    for (t = 0; t <= end; t += bin) {
        uint64_t b[IBCC_FABRIC_CLASSES];
        ibcc_time len = end - t < bin ? end - t : bin;
        memset(b, 0, sizeof b);
        for (i = 0; i < net->nf; i++) {
            uint64_t x = 0;
            (void)ibcc_fabric_flow_bytes(f, i, t, t + bin, &x);
            b[net->flows[i].cls] += x;
            *total += x;
        }
        if (len == 0) break;
        fprintf(fp, "%.1f", (double)(t + len / 2u) / 1e6);
        for (c = 0; c < IBCC_FABRIC_CLASSES; c++)
            if (res->cls[c].flows)
                fprintf(fp, ",%.6f", (double)b[c] / ((double)len * 1e-12)
                                     / (double)net->ref);
        fprintf(fp, "\n");
    }
    return close_out(fp, o->series);
}

/* Runs the warm-up, clears the statistics, runs the measured window and
   reads the results; checks conservation and the counters' identities. */
static int cu_run(const cu_opts *o, const cu_net *net, ibcc_fabric_desc *d,
                  cu_res *res)
{
    ibcc_fabric *f = NULL;
    prog pg;
    ibcc_time end = ms_time(o->time_ms), warm = ms_time(o->warmup_ms);
    ibcc_result r;
    uint64_t packets = 0, series_bytes = 0;
    unsigned c;
    int ok = 0;
    memset(res, 0, sizeof *res);
    if (o->series) {
        d->bin = ms_time(o->bin_ms);
        d->horizon = end + d->bin;
        if ((double)(d->horizon / d->bin) * ((double)net->nf + 2.0 * d->link_count)
            > (double)(1u << 27))
        {
            (void)cu_refuse("--bin", "--bin %g ms: the series of %u flows "
                            "would take more than 1 GiB", o->bin_ms, net->nf);
            return 0;
        }
    }
    if ((r = fabric_create("custom", &f, d)) != IBCC_OK) {
        return 0;
    }
    if (net->jobs && jb_attach(net->jobs, f)) {
        ibcc_fabric_destroy(f);
        return 0;
    }
    prog_start(&pg, "custom", f, end);
    if ((r = prog_run(&pg, f, warm)) != IBCC_OK) goto out;
    (void)ibcc_fabric_counters_get(f, &res->c0);
    (void)ibcc_fabric_pfc_totals_get(f, &res->p0);
    (void)ibcc_fabric_stats_reset(f);
    r = prog_run(&pg, f, end);
    prog_end(&pg);
    if (r != IBCC_OK) goto out;
    res->conserved = ibcc_fabric_check(f) == IBCC_OK;
    (void)ibcc_fabric_counters_get(f, &res->c1);
    (void)ibcc_fabric_pfc_totals_get(f, &res->p1);
    res->secs = (double)(end - warm) * 1e-12;
    for (c = 0; c < IBCC_FABRIC_CLASSES; c++) {
        ibcc_time q = 0;
        (void)ibcc_fabric_class_stats_get(f, c, &res->cls[c]);
        if (ibcc_fabric_latency_quantile(f, c, 0.99, &q) == IBCC_OK)
            res->p99_us[c] = (double)q / 1e6;
        res->bytes += res->cls[c].delivered_bytes;
        packets += res->cls[c].delivered;
    }
    /* what the classes delivered is what the fabric counted since the
       warm-up; every packet is delivered or still in the fabric */
    res->identities =
        res->bytes == res->c1.bytes_delivered - res->c0.bytes_delivered
        && packets == res->c1.data_delivered - res->c0.data_delivered
        && res->c1.bytes_sent == res->c1.bytes_delivered + res->c1.bytes_in_network
        && res->c1.injected == res->c1.delivered + res->c1.in_flight;
    if (o->series) {
        if (!cu_write_series(o, net, f, res, &series_bytes)) goto out;
        /* the series bins hold every delivery since time 0 */
        if (series_bytes != res->c1.bytes_delivered) res->identities = 0;
    }
    ok = 1;
out:
    if (r != IBCC_OK)
        run_error("custom", f, r);
    if (net->jobs && net->jobs->js) jb_collect(net->jobs);
    ibcc_fabric_destroy(f);
    return ok;
}

/* The mean fraction of [warmup, time] an output priority of a link was
   paused (PFC). */
static double cu_paused_frac(const cu_res *r)
{
    if (!r->p1.pairs || r->secs <= 0) return 0;
    return (double)(r->p1.paused - r->p0.paused) * 1e-12
           / ((double)r->p1.pairs * r->secs);
}

static int cu_write_summary(const cu_opts *o, const cu_net *net,
                            const ibcc_fabric_desc *d, const cu_res *r)
{
    FILE *fp = fopen(o->summary, "w");
    double ref = (double)net->ref;
    unsigned c;
    if (!fp) {
        fprintf(stderr, "ibccsim: cannot write %s: %s\n", o->summary,
                strerror(errno));
        return 0;
    }
    fprintf(fp, "metric,value\ntopology,%s\ntraffic,%s\nmarker,%s\nagent,%s\n",
            cu_topos[o->topo], cu_traffics[o->traffic], cu_markers[o->marker],
            cu_agents[o->agent]);
    fprintf(fp, "hosts,%u\nswitches,%u\nlinks,%u\nflows,%u\n", net->nh,
            d->node_count - net->nh, d->link_count, net->nf);
    fprintf(fp, "ref_gbps,%.6f\ntime_us,%g\nwarmup_us,%g\nseed,%llu\n",
            ref * 8e-9, o->time_ms * 1e3, o->warmup_ms * 1e3, o->seed);
    fprintf(fp, "accepted_per_host_frac,%.6f\n",
            (double)r->bytes / r->secs / net->nh / ref);
    for (c = 0; c < IBCC_FABRIC_CLASSES; c++) {
        const ibcc_fabric_class_stats *s = &r->cls[c];
        double n = s->delivered ? (double)s->delivered : 1.0;
        if (!s->flows) continue;
        fprintf(fp, "class%u_flows,%u\nclass%u_packets,%llu\n", c, s->flows,
                c, (unsigned long long)s->delivered);
        /* links: multiples of the reference rate (a class's sum over its
           hosts can pass 1); latency and marks of a class with nothing
           delivered are empty */
        fprintf(fp, "class%u_links,%.6f\nclass%u_gbps,%.6f\n", c,
                (double)s->delivered_bytes / r->secs / ref, c,
                (double)s->delivered_bytes * 8e-9 / r->secs);
        if (s->delivered) {
            fprintf(fp, "class%u_latency_us,%.4f\nclass%u_p99_us,%.4f\n", c,
                    (double)s->lat_sum / n / 1e6, c, r->p99_us[c]);
            fprintf(fp, "class%u_marked_frac,%.6f\n", c, (double)s->marked / n);
        } else {
            fprintf(fp, "class%u_latency_us,\nclass%u_p99_us,\nclass%u_marked_frac,\n",
                    c, c, c);
        }
    }
    fprintf(fp, "packets_injected,%llu\npackets_delivered,%llu\n"
            "data_delivered,%llu\nsent_bytes,%llu\ndelivered_bytes,%llu\n"
            "in_network_bytes,%llu\nlink_hops,%llu\n",
            (unsigned long long)r->c1.injected,
            (unsigned long long)r->c1.delivered,
            (unsigned long long)r->c1.data_delivered,
            (unsigned long long)r->c1.bytes_sent,
            (unsigned long long)r->c1.bytes_delivered,
            (unsigned long long)r->c1.bytes_in_network,
            (unsigned long long)r->c1.hops);
    if (o->flow_control == CU_PFC)
        fprintf(fp, "pfc_pause_frames,%llu\npfc_xon_frames,%llu\n"
                "pfc_paused_frac,%.6f\npfc_peak_bytes,%u\n",
                (unsigned long long)(r->p1.pause_frames - r->p0.pause_frames),
                (unsigned long long)(r->p1.xon_frames - r->p0.xon_frames),
                cu_paused_frac(r), r->p1.peak);
    fprintf(fp, "identities,%d\nconserved,%d\n", r->identities, r->conserved);
    return close_out(fp, o->summary);
}

/* One line: the fabric, the accepted load and each class. */
static void cu_print(const cu_opts *o, const cu_net *net, const cu_res *r)
{
    unsigned c;
    printf("%s %u hosts %u flows %s, %g..%g ms: accepted/host %.4f",
           cu_topos[o->topo], net->nh, net->nf, cu_traffics[o->traffic],
           o->warmup_ms, o->time_ms,
           (double)r->bytes / r->secs / net->nh / (double)net->ref);
    for (c = 0; c < IBCC_FABRIC_CLASSES; c++) {
        const ibcc_fabric_class_stats *s = &r->cls[c];
        double n = s->delivered ? (double)s->delivered : 1.0;
        if (!s->flows) continue;
        printf("; class%u rate %.4f lat %.2f p99 %.2f us marked %.4f", c,
               (double)s->delivered_bytes / r->secs / (double)net->ref,
               (double)s->lat_sum / n / 1e6, r->p99_us[c],
               (double)s->marked / n);
    }
    if (o->flow_control == CU_PFC)
        printf("; pfc_pause_frames %llu pfc_paused_frac %.4f",
               (unsigned long long)(r->p1.pause_frames - r->p0.pause_frames),
               cu_paused_frac(r));
    printf("; conserved=%d\n", r->conserved && r->identities);
}

/* The jobs of --job: parsed, placed on the fabric's hosts and their
   flows appended to the traffic's (the source agent's template). */
static int cu_jobs(const cu_opts *o, cu_net *net, ibcc_fabric_desc *d)
{
    static jb_set js;
    ibcc_fabric_flow t;
    unsigned i;
    uint32_t ff;
    memset(&js, 0, sizeof js);
    js.who = "ibccsim custom";
    net->jobs = &js;
    for (i = 0; i < o->njob; i++)
        if (jb_spec(&js, o->job[i])) return 2;
    for (i = 0; i < o->ntrace; i++) {
        jb_opts t;
        char name[32];
        jb_defaults(&t);
        t.pattern = 0;
        t.trace = o->trace[i];
        snprintf(name, sizeof name, "trace%u", i);
        if (jb_add(&js, name, &t)) return 2;
    }
    if (jb_resolve(&js, net->nh, net->hosts, o->topo == CU_IBNET ? &net->ib : NULL,
                   o->seed, o->time_ms))
        return 2;
    {   /* the classes after the traffic's */
        unsigned first = 0;
        for (i = 0; i < net->nf; i++)
            if (net->flows[i].cls + 1u > first) first = net->flows[i].cls + 1u;
        if (jb_classes(&js, first, "the traffic's classes")) return 2;
    }
    memset(&t, 0, sizeof t);
    t.agent = (uint32_t)o->agent;
    t.window = o->window;
    if (o->agent == IBCC_AGENT_FIXED)
        t.rate = (ibcc_rate)(o->fixed_rate * (double)net->ref + 0.5);
    ff = net->nf;
    if (jb_flows(&js, &t, &net->flows, &net->nf)) return 2;
    {   /* the jobs' LIDs and path SLs, as the traffic's */
        tb_err e;
        if (tb_flows(&net->topo, net->flows, ff, net->nf, o->dlid == CU_DLID_RR,
                     (uint64_t)o->seed, &e))
            return cu_refuse(e.nomem ? "--dlid" : "--job", "--job: %s (sl=, a "
                             "trace's sl=)", e.why);
    }
    d->flows = net->flows;
    d->flow_count = net->nf;
    return 0;
}

/* The jobs' rows of summary.csv (jobspec.c writes them, as for gran). */
static int cu_job_summary(const cu_opts *o, const jb_set *js)
{
    FILE *fp = fopen(o->summary, "a");
    if (!fp) {
        fprintf(stderr, "ibccsim: cannot write %s: %s\n", o->summary, strerror(errno));
        return 0;
    }
    jb_summary(js, fp);
    return close_out(fp, o->summary);
}

int cmd_custom(int argc, char **argv)
{
    static cu_net net;
    cu_opts o;
    cu_res res;
    ibcc_fabric_desc d;
    int rc;
    cu_defaults(&o);
    rc = opt_parse(&cu_cmd, argc, argv, &o);
    if (rc == 1) return 0;
    if (rc) return rc;
    if ((rc = cu_check(&o)) != 0) return rc;
    memset(&net, 0, sizeof net);
    memset(&d, 0, sizeof d);
    memset(&res, 0, sizeof res);
    rc = cu_topology(&o, &net, &d);
    if (!rc) rc = cu_traffic(&o, &net, &d);
    if (!rc) rc = cu_engines(&o, &net, &d);
    if (!rc && (o.njob || o.ntrace)) rc = cu_jobs(&o, &net, &d);
    if (!rc) rc = cu_vls(&o, &net, &d);
    if (!rc && !cu_run(&o, &net, &d, &res)) rc = 1;
    /* each job alone on the idle fabric: its ideal time, by a run */
    if (!rc && net.jobs && jb_ideal(net.jobs, &d, net.flows, ms_time(o.time_ms))) rc = 1;
    if (!rc && o.summary && !cu_write_summary(&o, &net, &d, &res)) rc = 1;
    if (!rc && o.summary && net.jobs && !cu_job_summary(&o, net.jobs)) rc = 1;
    if (!rc && o.job_csv && jb_csv(net.jobs, o.job_csv)) rc = 1;
    if (!rc) {
        ibcc_swcc sw;
        ibcc_cacc_config ca;
        int iba = o.marker == IBCC_MARKER_IBA, cct = o.agent == IBCC_AGENT_CCT;
        params_iba(&sw, &ca, o.threshold, o.packet_size, o.marking_rate, 0,
                   o.ccti_timer, o.ccti_increase);
        if (!params_write(o.summary, &cu_cmd, &o, iba ? &sw : NULL, cct ? &ca : NULL))
            rc = 1;
    }
    if (!rc && !o.quiet) cu_print(&o, &net, &res);
    if (!rc && !o.quiet && net.jobs) jb_print(net.jobs, stdout);
    if (!rc && net.jobs && !jb_all_done(net.jobs)) {
        fprintf(stderr, "ibccsim custom: a job is not done after --time %g ms (its row "
                "says how far it got)\n", o.time_ms);
        rc = 1;
    }
    if (!rc && !(res.conserved && res.identities)) {
        fprintf(stderr, "ibccsim custom: %s\n", res.conserved
                ? "the counters' identities do not hold"
                : "ibcc_fabric_check: packets or credits not conserved");
        rc = 1;
    }
    if (net.jobs) jb_free(net.jobs);
    cu_free(&net);
    return rc;
}

