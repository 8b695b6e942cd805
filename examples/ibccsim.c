/* ibccsim - scenario driver for ibcc's fabric model (layer L3).

   Subcommands:
     twoswitch   the two-switch victim scenario of [S02]/[S03] (runs 1-4)
     recovery    a law's rate recovery curve ([S03] Fig. 5)
     law-table   a law compiled to TABLE form, as CSV or (--emit-c) as a
                 C file for firmware (ibcc_law_init_rom)
     fabric-check  loads a real InfiniBand fabric and checks its routes
     custom      a fabric composed from its parts (topology, switches,
                 marker, source agent, traffic)
     run FILE    the experiment a scenario file describes
     demo        the headline table (`make demo`)

   Run `ibccsim --help` or `ibccsim twoswitch --help` for every flag.
   See docs/scenario_twoswitch.md for how to read the outputs. */
#define _POSIX_C_SOURCE 200809L  /* fork, wait, mkdtemp, sysconf */
#define IBCC_IMPLEMENTATION
#include "ibcc.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <errno.h>
#include <math.h>
#include <unistd.h>
#include <sys/types.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <dirent.h>

/* ---- options ----------------------------------------------------------- */
typedef struct ts_opts {
    unsigned local, remote, buffer;
    unsigned window;            /* 0 = none */
    ibcc_marker_engine marking;
    ibcc_classify classify;
    unsigned out_threshold;
    ibcc_arb_policy arbiter;
    unsigned bypass;
    int law;                    /* 0 none, else ibcc_law_kind */
    int discrete, fixed_rates;
    int fanout;                 /* desc.input_fanout */
    int dynamic;                /* 0 none, 1 half, 2 all contributors ON-OFF */
    double on_ms;               /* mean ON = mean OFF period */
    int persistent;
    double time_ms, victim_from, victim_to, measure_from, measure_to;
    int measure_set_from, measure_set_to;
    unsigned long long seed;
    const char *series, *summary;
    int quiet;
} ts_opts;

static void ts_defaults(ts_opts *o)
{
    memset(o, 0, sizeof *o);
    o->local = 10; o->remote = 10; o->buffer = 4; o->window = 1;
    o->marking = IBCC_MARKER_NONE; o->classify = IBCC_CLASSIFY_ALL;
    o->out_threshold = 8; o->arbiter = IBCC_ARB_OLDEST; o->bypass = 4;
    o->law = 0; o->time_ms = 100; o->victim_from = 40; o->victim_to = 60;
    o->seed = 1; o->fanout = 1; o->on_ms = 1;
}

static void usage_main(FILE *out)
{
    fprintf(out,
"usage: ibccsim SUBCOMMAND [flags]\n"
"  twoswitch  two-switch victim scenario of [S02]/[S03] (runs 1-4)\n"
"  recovery   rate recovery curve of a law ([S03] Fig. 5)\n"
"  law-table  a law compiled to TABLE form: CSV, or a C file for firmware\n"
"             (--emit-c; loaded with ibcc_law_init_rom)\n"
"  gran       the InfiniBand hardware testbed of [G] (FECN/BECN + CCT)\n"
"  gran-sweep CCTI_Timer x Marking_Rate on it, in parallel processes\n"
"  mvcm       MVCM and its comparators on a k-ary n-fly with a hot spot [F]\n"
"  mvcm-sweep latency against accepted traffic for each CMM [F]\n"
"  wormhole   dual-priority segmentation on a wormhole network [K]\n"
"  wormhole-sweep  the same across loads or segment lengths, in parallel\n"
"  fabric-check  load an InfiniBand fabric (ibnetdiscover + LFTs) and\n"
"             check every host-to-host route\n"
"  custom     a fabric composed from its parts: topology (builders, the\n"
"             two-switch builder or ibnetdiscover files), switches, marker,\n"
"             source agent, traffic; per-class delivered throughput\n"
"  run FILE   the experiment a scenario file describes (examples/scenarios)\n"
"  demo       headline table: no CC vs each marking engine with LIPD\n"
"ibccsim SUBCOMMAND --help lists the flags of a subcommand.\n");
}

static void usage_twoswitch(FILE *out)
{
    fprintf(out,
"usage: ibccsim twoswitch [flags]\n"
"Switches A and B joined by one link (ISL). On A: remote sources A1..AR and\n"
"the victim source AV; on B: local sources B1..BL, the congested\n"
"destination BC and the victim destination BV. Locals then remotes start\n"
"one every 100 us (locals first); AV -> BV only in [victim-from, victim-to].\n"
"Links 1 GB/s, 2068-byte data packets, 20-byte ACKs, 40 ns forwarding\n"
"delay, 5 ns propagation delay ([S02] Table I).\n"
"  --local N           local sources on B (1..64)              [10]\n"
"  --remote N          remote sources on A (1..64)             [10]\n"
"  --buffer N          packets per input buffer (1..65535)     [4]\n"
"  --window N|none     unacknowledged packets per flow (1..10^6) [1]\n"
"  --marking none|naive|input|io|iba  switch marking engine    [none]\n"
"                      iba: IBA FECN (Threshold 15, Packet_Size 8,\n"
"                      Marking_Rate 1, base 16 packets) with the CCT\n"
"                      agent at every source (linear CCT of 256 entries,\n"
"                      CCTI_Timer 150, CCTI_Increase 1), BECN on ACKs\n"
"  --classify all|busy outputs a full buffer triggers         [all]\n"
"  --out-threshold N   io engine output threshold T_out (1..65535) [8]\n"
"  --arbiter oldest|rr switch scheduling                       [oldest]\n"
"  --bypass N          oldest-first bypass limit (1..65535)    [4]\n"
"  --input-fanout 1|0  1: an input buffer sends to several outputs at\n"
"                      once (the sources' switch); 0: one at a time [1]\n"
"  --law none|aimd|fimd|lipd   source rate law                 [none]\n"
"  --discrete          discrete IPD rates (256) for the law    [off]\n"
"  --fixed-rates       contributors at link/(L+R), victim at link/2 [off]\n"
"  --dynamic none|half|all  contributors with ON-OFF traffic ([S03] Fig. 7):\n"
"                      half = the second half of the locals and of the\n"
"                      remotes; the victim stays static          [none]\n"
"  --on-ms MS          mean ON = mean OFF period, exponential (> 0) [1]\n"
"  --persistent        the law's state persists across a pair's flows [off]\n"
"  --time MS           simulated time (0 < MS <= 10000)        [100]\n"
"  --victim-from MS    victim flow starts (0..10000)           [40]\n"
"  --victim-to MS      victim flow stops (after victim-from)   [60]\n"
"  --measure-from MS   measured window start                   [victim-from]\n"
"  --measure-to MS     measured window end (<= --time)         [victim-to]\n"
"  --seed N            random seed (ON-OFF periods of --dynamic) [1]\n"
"  --series FILE       CSV: 2 ms sliding-window delivered rates every 0.5 ms\n"
"  --summary FILE      CSV metric,value of the measured window\n"
"  --quiet             no table on standard output\n");
}

static void usage_recovery(FILE *out)
{
    fprintf(out,
"usage: ibccsim recovery --law aimd|fimd|lipd [flags]\n"
"Rate recovery from Rmin to Rmax with no marks, one ACK per packet\n"
"interval ([S03] Fig. 5). Prints time_ms,rate lines and a final\n"
"line recovery_ms=<value>.\n"
"  --law aimd|fimd|lipd  the law (required)\n"
"  --discrete            discrete IPD rates                     [off]\n"
"  --link-gbytes G       link rate in GB/s                      [1]\n"
"  --packet BYTES        packet size on the wire                [2048]\n"
"  --rmin-div D          Rmin = Rmax / D (2..65536)             [256]\n"
"  --points N            curve points, evenly spaced in time;\n"
"                        0 prints every ACK                     [200]\n");
}

/* Where flags came from when a scenario file is run (ibccsim run): the
   file and the line of each flag, so that errors name the line. */
#define SC_MAX_KEYS 64
static const char *g_file;
static const char *g_key[SC_MAX_KEYS];
static unsigned g_line[SC_MAX_KEYS], g_nkeys;

static void where(const char *flag)
{
    unsigned i;
    if (!g_file) return;
    for (i = 0; i < g_nkeys; i++)
        if (!strcmp(g_key[i], flag + 2)) {
            fprintf(stderr, "%s:%u: ", g_file, g_line[i]);
            return;
        }
    fprintf(stderr, "%s: ", g_file);
}

static int bad(const char *flag, const char *val, const char *why)
{
    where(flag);
    fprintf(stderr, "ibccsim: bad value '%s' for %s: %s\n",
            val ? val : "(missing)", flag, why);
    return 2;
}

/* --law: a law kind of the library by its name (ibcc_law_kind_name),
   one that its name alone describes (not a custom law, which needs its
   functions); 0 for another text. */
static int law_parse(const char *v, int *kind)
{
    ibcc_law_desc d;
    memset(&d, 0, sizeof d);
    if (!v || ibcc_law_kind_parse(v, &d.kind) != IBCC_OK
        || ibcc_law_defaults(&d) != IBCC_OK) return 0;
    *kind = (int)d.kind;
    return 1;
}

/* head, then the names law_parse takes, in the library's order, joined
   by sep: the text of --law's errors. */
static const char *law_list(char *buf, size_t len, const char *head,
                            const char *sep)
{
    const char *name;
    int k, any = 0, kind;
    snprintf(buf, len, "%s", head);
    for (k = 1; strcmp(name = ibcc_law_kind_name((ibcc_law_kind)k), "?"); k++) {
        size_t n = strlen(buf);
        if (!law_parse(name, &kind)) continue;
        snprintf(buf + n, len - n, "%s%s", any ? sep : "", name);
        any = 1;
    }
    return buf;
}

static int unknown(const char *cmd, const char *flag)
{
    where(flag);
    fprintf(stderr, "ibccsim %s: unknown flag '%s' (see --help)\n", cmd, flag);
    return 2;
}

/* The value after flag argv[i], or NULL when there is none: the next
   argument is missing or is itself a flag (so `--summary --quiet` is an
   error, not a file named "--quiet"). */
static const char *flag_value(int argc, char **argv, int i)
{
    if (i + 1 >= argc || strncmp(argv[i + 1], "--", 2) == 0) return NULL;
    return argv[i + 1];
}

static int parse_uint(const char *s, unsigned long long lo,
                      unsigned long long hi, unsigned long long *out)
{
    char *end;
    unsigned long long v;
    if (!s || !*s || *s == '-') return 0;
    errno = 0;
    v = strtoull(s, &end, 10);
    if (errno || *end || v < lo || v > hi) return 0;
    *out = v;
    return 1;
}

static int parse_double(const char *s, double lo, double hi, double *out)
{
    char *end;
    double v;
    if (!s || !*s) return 0;
    errno = 0;
    v = strtod(s, &end);
    if (errno || *end || !(v >= lo && v <= hi)) return 0;
    *out = v;
    return 1;
}

/* Returns 0 ok, 1 help shown, 2 error. */
static int parse_twoswitch(int argc, char **argv, ts_opts *o)
{
    int i, seed_set = 0;
    for (i = 0; i < argc; i++) {
        const char *a = argv[i], *v = flag_value(argc, argv, i);
        unsigned long long u;
        double x;
        if (!strcmp(a, "--help") || !strcmp(a, "-h")) {
            usage_twoswitch(stdout);
            return 1;
        } else if (!strcmp(a, "--discrete")) { o->discrete = 1; continue; }
        else if (!strcmp(a, "--fixed-rates")) { o->fixed_rates = 1; continue; }
        else if (!strcmp(a, "--quiet")) { o->quiet = 1; continue; }
        else if (!strcmp(a, "--persistent")) { o->persistent = 1; continue; }
        if (strncmp(a, "--", 2) != 0) {
            fprintf(stderr, "ibccsim twoswitch: unexpected argument '%s'\n", a);
            return 2;
        }
        if (!strcmp(a, "--local") || !strcmp(a, "--remote")) {
            if (!parse_uint(v, 1, IBCC_TWOSWITCH_MAX, &u))
                return bad(a, v, "an integer 1..64");
            if (a[2] == 'l') o->local = (unsigned)u; else o->remote = (unsigned)u;
        } else if (!strcmp(a, "--buffer")) {
            if (!parse_uint(v, 1, 65535, &u)) return bad(a, v, "an integer 1..65535");
            o->buffer = (unsigned)u;
        } else if (!strcmp(a, "--window")) {
            if (v && !strcmp(v, "none")) o->window = 0;
            else if (parse_uint(v, 1, 1000000, &u)) o->window = (unsigned)u;
            else return bad(a, v, "an integer 1..1000000 or 'none'");
        } else if (!strcmp(a, "--marking")) {
            if (v && !strcmp(v, "none")) o->marking = IBCC_MARKER_NONE;
            else if (v && !strcmp(v, "naive")) o->marking = IBCC_MARKER_NAIVE;
            else if (v && !strcmp(v, "input")) o->marking = IBCC_MARKER_INPUT;
            else if (v && !strcmp(v, "io")) o->marking = IBCC_MARKER_INPUT_OUTPUT;
            else if (v && !strcmp(v, "iba")) o->marking = IBCC_MARKER_IBA;
            else return bad(a, v, "one of none, naive, input, io, iba");
        } else if (!strcmp(a, "--classify")) {
            if (v && !strcmp(v, "all")) o->classify = IBCC_CLASSIFY_ALL;
            else if (v && !strcmp(v, "busy")) o->classify = IBCC_CLASSIFY_BUSY;
            else return bad(a, v, "one of all, busy");
        } else if (!strcmp(a, "--out-threshold")) {
            if (!parse_uint(v, 1, 65535, &u)) return bad(a, v, "an integer 1..65535");
            o->out_threshold = (unsigned)u;
        } else if (!strcmp(a, "--arbiter")) {
            if (v && !strcmp(v, "oldest")) o->arbiter = IBCC_ARB_OLDEST;
            else if (v && !strcmp(v, "rr")) o->arbiter = IBCC_ARB_RR;
            else return bad(a, v, "one of oldest, rr");
        } else if (!strcmp(a, "--bypass")) {
            if (!parse_uint(v, 1, 65535, &u)) return bad(a, v, "an integer 1..65535");
            o->bypass = (unsigned)u;
        } else if (!strcmp(a, "--input-fanout")) {
            if (!parse_uint(v, 0, 1, &u)) return bad(a, v, "0 or 1");
            o->fanout = (int)u;
        } else if (!strcmp(a, "--dynamic")) {
            if (v && !strcmp(v, "none")) o->dynamic = 0;
            else if (v && !strcmp(v, "half")) o->dynamic = 1;
            else if (v && !strcmp(v, "all")) o->dynamic = 2;
            else return bad(a, v, "one of none, half, all");
        } else if (!strcmp(a, "--on-ms")) {
            if (!parse_double(v, 1e-6, 10000, &x)) return bad(a, v, "milliseconds, > 0 and <= 10000");
            o->on_ms = x;
        } else if (!strcmp(a, "--law")) {
            char why[256];
            if (v && !strcmp(v, "none")) o->law = 0;
            else if (!law_parse(v, &o->law))
                return bad(a, v, law_list(why, sizeof why, "one of none, ", ", "));
        } else if (!strcmp(a, "--time") || !strcmp(a, "--victim-from")
                   || !strcmp(a, "--victim-to") || !strcmp(a, "--measure-from")
                   || !strcmp(a, "--measure-to")) {
            if (!parse_double(v, 0, 10000, &x) || (a[2] == 't' && x <= 0))
                return bad(a, v, a[2] == 't' ? "milliseconds, > 0 and <= 10000"
                                             : "milliseconds, 0..10000");
            if (!strcmp(a, "--time")) o->time_ms = x;
            else if (!strcmp(a, "--victim-from")) o->victim_from = x;
            else if (!strcmp(a, "--victim-to")) o->victim_to = x;
            else if (!strcmp(a, "--measure-from")) { o->measure_from = x; o->measure_set_from = 1; }
            else { o->measure_to = x; o->measure_set_to = 1; }
        } else if (!strcmp(a, "--seed")) {
            if (!parse_uint(v, 0, ~0ull, &u)) return bad(a, v, "a non-negative integer");
            o->seed = u;
            seed_set = 1;
        } else if (!strcmp(a, "--series") || !strcmp(a, "--summary")) {
            if (!v || !*v) return bad(a, v, "a file name");
            if (a[3] == 'e') o->series = v; else o->summary = v;
        } else {
            return unknown("twoswitch", a);
        }
        i++;
    }
    if (seed_set && !o->dynamic)
        /* greedy flows, fixed start times: nothing is drawn */
        fprintf(stderr, "ibccsim twoswitch: note: these runs draw no "
                "random numbers (greedy flows, fixed start times); "
                "--seed changes nothing without --dynamic\n");
    if (!o->measure_set_from) o->measure_from = o->victim_from;
    if (!o->measure_set_to) o->measure_to = o->victim_to;
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

/* Closes an output file; a write that failed anywhere (full disk, a
   closed pipe) is reported with the file name and gives 0. */
static int close_out(FILE *fp, const char *path)
{
    int err = ferror(fp);
    if (fclose(fp) != 0 || err) {
        fprintf(stderr, "ibccsim: writing %s failed: %s\n", path,
                strerror(errno ? errno : EIO));
        return 0;
    }
    return 1;
}

/* ibcc_fabric_create with the library's reason for a refusal printed as
   "ibccsim WHO: fabric: REASON" (the field and the rule it broke). */
static ibcc_result fabric_create(const char *who, ibcc_fabric **f,
                                 ibcc_fabric_desc *d)
{
    ibcc_fabric_error err;
    ibcc_result r;
    d->error = &err;
    r = ibcc_fabric_create(f, d);
    d->error = NULL;
    if (r != IBCC_OK)
        fprintf(stderr, "ibccsim%s%s: fabric: %s\n", *who ? " " : "", who,
                err.reason[0] ? err.reason : ibcc_result_str(r));
    return r;
}

/* ---- the run ------------------------------------------------------------- */
typedef struct ts_result {
    double root_util, isl_util, victim_share_isl;
    double local_share_root, remote_share_root, remote_local_ratio;
    double victim_gbps, jain_contributors;
    double static_share_root, dynamic_share_root;
    double jain_local, jain_remote;  /* within each class */
    double marked_fraction[3];
    double mean_latency_us[3];
    ibcc_fabric_counters counters;
    int conserved;
    double wall_s;
} ts_result;

typedef struct ts_obs {
    const ibcc_twoswitch *ts;
    ibcc_time m0, m1;
    uint64_t delivered[3], marked[3];
    double lat_sum[3];
} ts_obs;

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

static ibcc_time ms_time(double ms) { return (ibcc_time)(ms * 1e9 + 0.5); }

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
    d->marker.defer = 1;        /* full-buffer trigger after the instant's
                                   cut-through starts ([S02]/[S03]) */
    d->marker.engine = o->marking;
    d->marker.classify = o->classify;
    d->marker.t_out = o->out_threshold;
    if (o->law) {
        d->law.kind = (ibcc_law_kind)o->law;
        d->law.form = o->discrete ? IBCC_LAW_DISCRETE : IBCC_LAW_CONTINUOUS;
    }
    d->seed = o->seed;
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
    fprintf(fp, "time_ms,local,remote,victim,root_link,isl_link,victim_link\n");
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
        fprintf(fp, "%.1f,%.6f,%.6f,%.6f,%.6f,%.6f,%.6f\n", (double)t / 1e9,
                cls[0] / link, cls[1] / link, cls[2] / link,
                lk[0] / link, lk[1] / link, lk[2] / link);
    }
    return close_out(fp, o->series);
}

static int ts_run(const ts_opts *o, ts_result *res)
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
    r = ibcc_fabric_run_until(f, ms_time(o->time_ms));
    if (r != IBCC_OK) {
        fprintf(stderr, "ibccsim: run: %s\n", ibcc_result_str(r));
        ibcc_fabric_destroy(f);
        return 0;
    }
    res->conserved = ibcc_fabric_check(f) == IBCC_OK;
    (void)ibcc_fabric_counters_get(f, &res->counters);
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
    fprintf(fp, "measure_from_ms,%.3f\nmeasure_to_ms,%.3f\n",
            o->measure_from, o->measure_to);
    fprintf(fp, "root_util,%.6f\n", r->root_util);
    fprintf(fp, "isl_util,%.6f\n", r->isl_util);
    fprintf(fp, "victim_share_isl,%.6f\n", r->victim_share_isl);
    fprintf(fp, "local_share_root,%.6f\n", r->local_share_root);
    fprintf(fp, "remote_share_root,%.6f\n", r->remote_share_root);
    fprintf(fp, "remote_local_ratio,%.6f\n", r->remote_local_ratio);
    fprintf(fp, "victim_gbps,%.6f\n", r->victim_gbps);
    fprintf(fp, "victim_ideal_share_isl,%.6f\n", 1.0 - r->remote_share_root);
    fprintf(fp, "jain_contributors,%.6f\n", r->jain_contributors);
    fprintf(fp, "jain_local,%.6f\njain_remote,%.6f\n", r->jain_local,
            r->jain_remote);
    fprintf(fp, "static_share_root,%.6f\n", r->static_share_root);
    fprintf(fp, "dynamic_share_root,%.6f\n", r->dynamic_share_root);
    fprintf(fp, "marked_fraction_local,%.6f\n", r->marked_fraction[0]);
    fprintf(fp, "marked_fraction_remote,%.6f\n", r->marked_fraction[1]);
    fprintf(fp, "marked_fraction_victim,%.6f\n", r->marked_fraction[2]);
    fprintf(fp, "latency_us_local,%.3f\n", r->mean_latency_us[0]);
    fprintf(fp, "latency_us_remote,%.3f\n", r->mean_latency_us[1]);
    fprintf(fp, "latency_us_victim,%.3f\n", r->mean_latency_us[2]);
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

static int cmd_twoswitch(int argc, char **argv)
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
    if (!o.quiet) ts_print(&r);
    return r.conserved ? 0 : 1;
}

/* ---- recovery ------------------------------------------------------------ */
static int cmd_recovery(int argc, char **argv)
{
    ibcc_law_desc ld;
    ibcc_law law;
    ibcc_law_recovery_result rr;
    ibcc_law_point *curve;
    ibcc_time tau;
    double g = 1.0;
    unsigned long long packet = 2048, div = 256, points = 200;
    int i, kind = 0, discrete = 0;
    size_t cap = 1u << 20, k;
    ibcc_time next_t = 0;
    ibcc_result r;
    void *mem;
    size_t ls;
    for (i = 0; i < argc; i++) {
        const char *a = argv[i], *v = flag_value(argc, argv, i);
        if (!strcmp(a, "--help") || !strcmp(a, "-h")) {
            usage_recovery(stdout);
            return 0;
        } else if (!strcmp(a, "--discrete")) { discrete = 1; continue; }
        else if (!strcmp(a, "--law")) {
            char why[256];
            if (!law_parse(v, &kind))
                return bad(a, v, law_list(why, sizeof why, "one of ", ", "));
        } else if (!strcmp(a, "--link-gbytes")) {
            if (!parse_double(v, 1e-6, 1e6, &g))
                return bad(a, v, "GB/s, from 1e-6 to 1e6");
        } else if (!strcmp(a, "--packet")) {
            if (!parse_uint(v, 1, 65535, &packet)) return bad(a, v, "bytes 1..65535");
        } else if (!strcmp(a, "--rmin-div")) {
            if (!parse_uint(v, 2, 65536, &div)) return bad(a, v, "an integer 2..65536");
        } else if (!strcmp(a, "--points")) {
            if (!parse_uint(v, 0, 1000000, &points)) return bad(a, v, "an integer 0..1000000");
        } else {
            return unknown("recovery", a);
        }
        i++;
    }
    if (!kind) {
        fprintf(stderr, "ibccsim recovery: --law is required\n");
        return 2;
    }
    memset(&ld, 0, sizeof ld);
    ld.kind = (ibcc_law_kind)kind;
    ld.form = discrete ? IBCC_LAW_DISCRETE : IBCC_LAW_CONTINUOUS;
    ld.rmin = 1.0 / (double)div;
    r = ibcc_law_defaults(&ld);
    if (r != IBCC_OK) {
        fprintf(stderr, "ibccsim recovery: law: %s (discrete needs --rmin-div <= 256)\n",
                ibcc_result_str(r));
        return 2;
    }
    if (ibcc_law_size(&ld, &ls) != IBCC_OK) ls = 0;
    mem = malloc(ls ? ls : 8);
    if (!mem || ibcc_law_init(&law, &ld, mem, ls) != IBCC_OK) {
        fprintf(stderr, "ibccsim recovery: cannot initialise the law\n");
        free(mem);
        return 1;
    }
    if (ibcc_wire_time(packet, (ibcc_rate)(g * 1e9 + 0.5), &tau) != IBCC_OK) {
        fprintf(stderr, "ibccsim recovery: bad link rate / packet size\n");
        free(mem);
        return 2;
    }
    curve = (ibcc_law_point *)malloc(cap * sizeof *curve);
    if (!curve) { free(mem); return 1; }
    r = ibcc_law_recovery(&law, tau, curve, cap, &rr);
    if (r != IBCC_OK) {
        fprintf(stderr, "ibccsim recovery: %s\n", ibcc_result_str(r));
        free(curve);
        free(mem);
        return 1;
    }
    printf("time_ms,rate\n");
    /* every ACK (--points 0), or the first ACK at or after each of
       `points` instants evenly spaced in time, and always the last */
    for (k = 0; k < rr.points; k++) {
        int last = (k + 1 == rr.points);
        if (points && !last && curve[k].t < next_t) continue;
        printf("%.6f,%.6f\n", (double)curve[k].t / 1e9, curve[k].rate);
        if (points)
            while (next_t <= curve[k].t) next_t += rr.time / points + 1;
    }
    printf("recovery_ms=%.6f\n", (double)rr.time / 1e9);
    free(curve);
    free(mem);
    return 0;
}

/* ---- law-table ------------------------------------------------------------ */
static void usage_law_table(FILE *out)
{
    fprintf(out,
"usage: ibccsim law-table --law aimd|fimd|lipd [flags]\n"
"Compiles a rate law in TABLE form (docs/law.md) and prints its entries:\n"
"a CSV (index,rate,next_on_mark,next_on_unmark,inc,gap_q16) or, with\n"
"--emit-c, a C99 file for firmware: the entries as a const array, the\n"
"description and an ibcc_law_rom to pass to ibcc_law_init_rom, which\n"
"checks them and steps exactly as ibcc_law_init would have compiled them.\n"
"The flags are the fields of ibcc_law_desc:\n"
"  --law aimd|fimd|lipd   kind (required)\n"
"  --rmin X               Rmin / Rmax, in [2^-16, 1) (decimal or C hex\n"
"                         float; the IPD set needs >= 1/256)    [1/256]\n"
"  --rmin-div D           Rmin = Rmax / D (2..65536), instead of --rmin\n"
"  --m M                  decrease factor, (1, 65536]; AIMD, FIMD [2]\n"
"  --rates ipd|geometric  the table's rate set                   [ipd]\n"
"  --size N               entries of a geometric set, 2..65536   [256]\n"
"  --emit-c               print the C file instead of the CSV\n"
"  --name NAME            prefix of the emitted C names    [ibcc_rom_law]\n"
"  --static               emitted objects are static (for #including the\n"
"                         file into the one C file that uses it)\n");
}

static int cid_ok(const char *s)
{
    size_t i;
    if (!s || !*s || (s[0] >= '0' && s[0] <= '9') || strlen(s) > 64) return 0;
    for (i = 0; s[i]; i++)
        if (!((s[i] >= 'a' && s[i] <= 'z') || (s[i] >= 'A' && s[i] <= 'Z')
              || (s[i] >= '0' && s[i] <= '9') || s[i] == '_')) return 0;
    return 1;
}

static int cmd_law_table(int argc, char **argv)
{
    ibcc_law_desc ld;
    ibcc_law law;
    ibcc_law_rom rom;
    ibcc_law_entry e;
    ibcc_result r;
    unsigned long long div = 0, size = 0;
    double rmin = 0.0, m = 0.0;
    int i, kind = 0, emit = 0, is_static = 0, geometric = 0, have_rmin = 0;
    const char *name = "ibcc_rom_law", *st;
    char kind_c[80];
    uint32_t k;
    void *mem;
    size_t ls;
    for (i = 0; i < argc; i++) {
        const char *a = argv[i], *v = flag_value(argc, argv, i);
        if (!strcmp(a, "--help") || !strcmp(a, "-h")) {
            usage_law_table(stdout);
            return 0;
        } else if (!strcmp(a, "--emit-c")) { emit = 1; continue; }
        else if (!strcmp(a, "--static")) { is_static = 1; continue; }
        else if (!strcmp(a, "--law")) {
            char why[256];
            if (!law_parse(v, &kind))
                return bad(a, v, law_list(why, sizeof why, "one of ", ", "));
        } else if (!strcmp(a, "--rmin")) {
            if (!parse_double(v, 1.0 / 65536.0, 1.0, &rmin) || rmin >= 1.0)
                return bad(a, v, "a number in [2^-16, 1)");
            have_rmin = 1;
        } else if (!strcmp(a, "--rmin-div")) {
            if (!parse_uint(v, 2, 65536, &div)) return bad(a, v, "an integer 2..65536");
        } else if (!strcmp(a, "--m")) {
            if (!parse_double(v, 1.0, 65536.0, &m) || m <= 1.0)
                return bad(a, v, "a number in (1, 65536]");
        } else if (!strcmp(a, "--rates")) {
            if (v && !strcmp(v, "ipd")) geometric = 0;
            else if (v && !strcmp(v, "geometric")) geometric = 1;
            else return bad(a, v, "ipd or geometric");
        } else if (!strcmp(a, "--size")) {
            if (!parse_uint(v, 2, 65536, &size)) return bad(a, v, "an integer 2..65536");
        } else if (!strcmp(a, "--name")) {
            if (!cid_ok(v)) return bad(a, v, "a C identifier of at most 64 characters");
            name = v;
        } else {
            return unknown("law-table", a);
        }
        i++;
    }
    if (!kind) {
        fprintf(stderr, "ibccsim law-table: --law is required\n");
        return 2;
    }
    if (have_rmin && div) {
        fprintf(stderr, "ibccsim law-table: give --rmin or --rmin-div, not both\n");
        return 2;
    }
    if (size && !geometric) {
        fprintf(stderr, "ibccsim law-table: --size applies to --rates geometric"
                " (the IPD set has one entry per IPD rate >= Rmin)\n");
        return 2;
    }
    memset(&ld, 0, sizeof ld);
    ld.kind = (ibcc_law_kind)kind;
    ld.form = IBCC_LAW_TABLE;
    ld.rmin = div ? 1.0 / (double)div : rmin;
    ld.m = m;
    ld.rates = geometric ? IBCC_LAW_RATES_GEOMETRIC : IBCC_LAW_RATES_IPD;
    ld.table_size = (uint32_t)size;
    r = ibcc_law_defaults(&ld);
    if (r != IBCC_OK) {
        fprintf(stderr, "ibccsim law-table: law: %s (the IPD set needs Rmin >= 1/256)\n",
                ibcc_result_str(r));
        return 2;
    }
    if (ibcc_law_size(&ld, &ls) != IBCC_OK) ls = 0;
    mem = malloc(ls ? ls : 8);
    if (!mem || ibcc_law_init(&law, &ld, mem, ls) != IBCC_OK
        || ibcc_law_to_rom(&law, &rom) != IBCC_OK) {
        fprintf(stderr, "ibccsim law-table: cannot compile the law\n");
        free(mem);
        return 1;
    }
    if (!emit) {
        printf("index,rate,next_on_mark,next_on_unmark,inc,gap_q16\n");
        for (k = 0; k < rom.n; k++) {
            ibcc_law_table_entry(&law, k, &e);
            printf("%lu,%.17g,%lu,%lu,%lu,%lu\n", (unsigned long)k, e.rate,
                   (unsigned long)e.next_on_mark, (unsigned long)e.next_on_unmark,
                   (unsigned long)e.inc, (unsigned long)e.gap_q16);
        }
        free(mem);
        return 0;
    }
    st = is_static ? "static " : "";
    /* the kind's enumerator: IBCC_LAW_ and its name in upper case */
    snprintf(kind_c, sizeof kind_c, "IBCC_LAW_%s", ibcc_law_kind_name(ld.kind));
    for (k = 9; kind_c[k]; k++)
        if (kind_c[k] >= 'a' && kind_c[k] <= 'z') kind_c[k] = (char)(kind_c[k] - 'a' + 'A');
    printf("/* Generated by: ibccsim law-table --law %s --rmin %a --m %a",
           ibcc_law_kind_name(ld.kind), ld.rmin, ld.m);
    if (geometric)
        printf(" --rates geometric --size %lu", (unsigned long)ld.table_size);
    printf(" --emit-c --name %s%s\n", name, is_static ? " --static" : "");
    printf("   (ibcc %s). A rate law in TABLE form compiled ahead of time:\n"
           "   %s law, Rmin/Rmax = %.17g, m = %.17g, %s rate set, %lu entries.\n"
           "   Load it with\n"
           "       ibcc_law law;\n"
           "       ibcc_result r = ibcc_law_init_rom(&law, &%s_rom);\n"
           "   which validates the description, every entry and the check word\n"
           "   (IBCC_ERR_MISMATCH if anything differs); the law then steps\n"
           "   exactly as ibcc_law_init would compile it. C99 (designated\n"
            "   initializers, hexadecimal floating constants: exact values).\n",
            ibcc_version(), ibcc_law_kind_name(ld.kind), ld.rmin, ld.m,
           geometric ? "geometric" : "IPD", (unsigned long)ld.table_size, name);
    if (is_static)
        printf("   Build: #include this file, after ibcc.h, in the one C file that\n"
               "   loads the law; it follows that file's profile. */\n");
    else
        printf("   Build: a translation unit of its own; it takes only types from\n"
               "   ibcc.h and, unless IBCC_FIRMWARE or ibcc.h came first, selects the\n"
               "   firmware profile, so it compiles freestanding as it is, e.g.\n"
               "       cc -std=c99 -Os -ffreestanding -I<ibcc.h's folder> -c %s.c\n"
               "   (-DIBCC_FIRMWARE is fine too); the firmware then declares\n"
               "       extern const ibcc_law_rom %s_rom;  */\n", name, name);
    printf("#if !defined(IBCC_H) && !defined(IBCC_FIRMWARE)\n"
           "#define IBCC_FIRMWARE\n"
           "#endif\n"
           "#include \"ibcc.h\"\n\n");
    if (!is_static)
        printf("extern const ibcc_law_desc %s_desc;\n"
               "extern const ibcc_law_rom %s_rom;\n\n", name, name);
    printf("%sconst ibcc_law_desc %s_desc = {\n"
           "    .kind = %s,\n"
           "    .form = IBCC_LAW_TABLE,\n"
           "    .rmin = %a, /* %.17g */\n"
           "    .m = %a, /* %.17g */\n"
           "    .rates = %s,\n"
           "    .table_size = %luu\n"
           "};\n\n", st, name, kind_c, ld.rmin, ld.rmin, ld.m, ld.m,
           geometric ? "IBCC_LAW_RATES_GEOMETRIC" : "IBCC_LAW_RATES_IPD",
           (unsigned long)ld.table_size);
    printf("/* {rate, inc (Q1.31), gap (Q16.16), next_on_mark, next_on_unmark} */\n"
           "static const ibcc_law_rom_entry %s_table[%lu] = {\n",
           name, (unsigned long)rom.n);
    for (k = 0; k < rom.n; k++) {
        const ibcc_law_rom_entry *t = rom.table + k;
        printf("    {%a, %luu, %luu, %u, %u}%s /* %lu */\n", t->rate,
               (unsigned long)t->inc, (unsigned long)t->gapq, (unsigned)t->mark,
               (unsigned)t->up, k + 1 < rom.n ? "," : "", (unsigned long)k);
    }
    printf("};\n\n%sconst ibcc_law_rom %s_rom = {\n"
           "    &%s_desc, %s_table, %luu, 0x%08lxu\n"
           "};\n", st, name, name, name, (unsigned long)rom.n,
           (unsigned long)rom.check);
    free(mem);
    return 0;
}

/* ---- demo ------------------------------------------------------------------ */
typedef struct demo_row {
    const char *name;
    ibcc_marker_engine marking;
    ibcc_classify classify;
    unsigned t_out;
    int law;
} demo_row;

static int cmd_demo(int argc, char **argv)
{
    demo_row rows[7] = {
        {"no CC (window 1)",           IBCC_MARKER_NONE,         IBCC_CLASSIFY_ALL,  8, 0},
        {"naive + LIPD",               IBCC_MARKER_NAIVE,        IBCC_CLASSIFY_ALL,  8, IBCC_LAW_LIPD},
        {"input (all) + LIPD",         IBCC_MARKER_INPUT,        IBCC_CLASSIFY_ALL,  8, IBCC_LAW_LIPD},
        {"input (busy) + LIPD",        IBCC_MARKER_INPUT,        IBCC_CLASSIFY_BUSY, 8, IBCC_LAW_LIPD},
        {"input-output T=4 + LIPD",    IBCC_MARKER_INPUT_OUTPUT, IBCC_CLASSIFY_ALL,  4, IBCC_LAW_LIPD},
        {"input-output T=8 + LIPD",    IBCC_MARKER_INPUT_OUTPUT, IBCC_CLASSIFY_ALL,  8, IBCC_LAW_LIPD},
        {"IBA FECN + CCT",             IBCC_MARKER_IBA,          IBCC_CLASSIFY_ALL,  8, 0},
    };
    static struct { ts_result r; } res[7];
    unsigned i, n = 7;
    double ms = 100;
    for (i = 0; i < (unsigned)argc; i++) {
        if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h")) {
            printf("usage: ibccsim demo [--time MS]   (61..10000, default 100)\n"
                   "Runs the two-switch victim scenario (L=10, R=10, buffer 4,\n"
                   "window 1) without CC and with each marking engine + LIPD,\n"
                   "and prints one table with a plain reading of it.\n");
            return 0;
        } else if (!strcmp(argv[i], "--time")) {
            const char *v = i + 1 < (unsigned)argc ? argv[i + 1] : NULL;
            if (!parse_double(v, 61, 1e4, &ms))
                return bad("--time", v, "milliseconds, 61..10000 (the "
                           "victim window [40, 60] ms must fit)");
            i++;
        } else {
            fprintf(stderr, "ibccsim demo: unknown or bad flag '%s'\n", argv[i]);
            return 2;
        }
    }
    printf("Two-switch victim scenario [S02]/[S03]: 10 local + 10 remote sources\n"
           "-> one congested host BC; a victim flow A->B (AV->BV) active 40-60 ms.\n"
           "Links 1 GB/s, input buffers of 4 packets, window 1, %.0f ms runs;\n"
           "figures are averages over the victim's active window [40, 60] ms.\n\n",
           ms);
    for (i = 0; i < n; i++) {
        ts_opts o;
        ts_defaults(&o);
        o.marking = rows[i].marking;
        o.classify = rows[i].classify;
        o.out_threshold = rows[i].t_out;
        o.law = rows[i].law;
        o.time_ms = ms;
        o.measure_from = o.victim_from;
        o.measure_to = o.victim_to;
        if (!ts_run(&o, &res[i].r) || !res[i].r.conserved) {
            fprintf(stderr, "ibccsim demo: run '%s' failed\n", rows[i].name);
            return 1;
        }
    }
    printf("%-26s %6s %6s %7s %6s %6s %6s\n", "configuration", "root", "ISL",
           "victim", "local", "remote", "Jain");
    printf("%-26s %6s %6s %7s %6s %6s %6s\n", "", "util", "util", "share",
           "share", "share", "index");
    for (i = 0; i < n; i++) {
        const ts_result *r = &res[i].r;
        printf("%-26s %6.3f %6.3f %7.3f %6.3f %6.3f %6.3f\n", rows[i].name,
               r->root_util, r->isl_util, r->victim_share_isl,
               r->local_share_root, r->remote_share_root,
               r->jain_contributors);
    }
    printf("\nReading:\n");
    {
        const ts_result *nc = &res[0].r, *nv = &res[1].r, *ia = &res[2].r,
                        *ib = &res[3].r, *t4 = &res[4].r, *t8 = &res[5].r,
                        *iba = &res[6].r;
        double lo = 1, hi = 0;
        for (i = 1; i < 6; i++) {
            if (i == 3) continue;                /* the busy row */
            if (res[i].r.victim_share_isl < lo) lo = res[i].r.victim_share_isl;
            if (res[i].r.victim_share_isl > hi) hi = res[i].r.victim_share_isl;
        }
        printf("- No CC: the congestion at BC spreads back over the "
               "inter-switch link (ISL).\n  The victim, which never uses "
               "the congested link, gets %.0f%% of the ISL\n  while the "
               "ISL is only %.0f%% busy.\n",
               100 * nc->victim_share_isl, 100 * nc->isl_util);
        {
            unsigned low = 1;
            for (i = 1; i < 6; i++)
                if (i != 3 && res[i].r.victim_share_isl
                              < res[low].r.victim_share_isl) low = i;
            printf("- With the sources' classification ('all') every marking "
                   "engine %s the\n  spreading: the victim gets %.0f%%-%.0f%% "
                   "of the ISL (input-triggered marking marks\n  %.1f%% of "
                   "its packets); the lowest is %s.\n",
                   lo > 3 * nc->victim_share_isl ? "avoids" : "does not avoid",
                   100 * lo, 100 * hi, 100 * ia->marked_fraction[2],
                   rows[low].name);
        }
        printf("- Marking only outputs that are busy or out of credits "
               "('busy') marks %.1f%% of\n  the victim's packets: it gets "
               "%.0f%% of the ISL, %s with 'all' (%.0f%%).\n",
               100 * ib->marked_fraction[2], 100 * ib->victim_share_isl,
               ib->victim_share_isl > ia->victim_share_isl + 0.05 ? "more than"
               : ib->victim_share_isl < ia->victim_share_isl - 0.05
               ? "less than" : "about as much as",
               100 * ia->victim_share_isl);
        printf("- Naive marking %s:\n  "
               "remote/local = %.2f (%s). Input-triggered %s it to "
               "%.2f,\n  input-output T=8 %s %.2f (Jain %.2f -> %.2f -> "
               "%.2f).\n",
               nv->marked_fraction[0] == 0
               ? "marks no local packet (only B's ISL buffer fills)"
               : "marks local packets too",
               nv->remote_local_ratio,
               nv->remote_local_ratio < 0.5 ? "unfair" : "fair enough",
               ia->remote_local_ratio > nv->remote_local_ratio ? "raises"
                                                               : "lowers",
               ia->remote_local_ratio,
               t8->remote_local_ratio > ia->remote_local_ratio + 0.02
               ? "raises it further to"
               : t8->remote_local_ratio < ia->remote_local_ratio - 0.02
               ? "lowers it to" : "gives about the same,",
               t8->remote_local_ratio,
               nv->jain_contributors, ia->jain_contributors,
               t8->jain_contributors);
        {
            int fairest = 1;
            for (i = 1; i < 6; i++)
                if (res[i].r.jain_contributors > t4->jain_contributors)
                    fairest = 0;
            printf("- Input-output T=4 %s (Jain %.2f); its root link is "
                   "%.0f%% busy\n  (T=8: %.0f%%)%s.\n",
                   fairest ? "is the fairest" : "is not the fairest",
                   t4->jain_contributors,
                   100 * t4->root_util, 100 * t8->root_util,
                   t4->root_util < t8->root_util - 0.03
                   ? ": the lower output threshold costs utilisation" : "");
        }
        printf("- IBA (FECN at the switches, BECN on the ACK, CCT delays at "
               "the sources) marks\n  %.1f%% of the victim's packets and "
               "gives it %.0f%% of the ISL (Jain %.2f,\n  root link %.0f%% "
               "busy): the root/victim test spares ports without credits.\n",
               100 * iba->marked_fraction[2], 100 * iba->victim_share_isl,
               iba->jain_contributors, 100 * iba->root_util);
    }
    return 0;
}

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
#define GR_HOSTS 7u
#define GR_FLOWS 5u

typedef struct gr_opts {
    unsigned scenario, cc, buffer;
    double step_ms, time_ms, measure_ms, bin_ms;
    unsigned threshold, marking_rate, packet_size, ccti_timer, ccti_increase;
    unsigned ccti_limit;
    unsigned msg_bytes;         /* payload bytes per message */
    unsigned ack_every;         /* coalesced ACKs: 1 = every packet */
    ibcc_switch_kind sw;        /* VCT or CIOQ */
    const char *cct;            /* quadratic | linear | FILE */
    ibcc_arb_policy arbiter;    /* switch input organisation */
    unsigned long long seed;
    const char *series, *summary;
    int quiet, time_set, measure_set;
} gr_opts;

typedef struct gr_result {
    unsigned nflows;
    double gbps[GR_FLOWS], jain, mean_gbps, sd_gbps, isl_util;
    double marked_fraction;
    unsigned long long becn, delivered;
    int conserved;
} gr_result;

static void gr_defaults(gr_opts *o)
{
    memset(o, 0, sizeof *o);
    o->scenario = 1; o->cc = 1; o->buffer = 16;
    o->step_ms = 1000; o->bin_ms = 10;
    o->threshold = 15; o->marking_rate = 1; o->packet_size = 8;
    o->ccti_timer = 150; o->ccti_increase = 1; o->ccti_limit = 127;
    o->msg_bytes = 65536; o->ack_every = 8; o->sw = IBCC_SWITCH_CIOQ;
    o->cct = "quadratic";
    o->arbiter = IBCC_ARB_VOQ;
    o->seed = 1;
}

static void usage_gran(FILE *out)
{
    fprintf(out,
"usage: ibccsim gran [flags]\n"
"The InfiniBand congestion-control testbed of [G]: S1 (H1..H3) and S2\n"
"(H4..H7) joined by a link twice the host rate; host links 16 Gbit/s of\n"
"data, hosts inject and absorb at most 13 Gbit/s; 64 KiB messages, 2048-\n"
"byte MTU; IBA FECN marking at the switches and the CCT agent at the\n"
"sources. Flows start one per --step, F1 first.\n"
"  scenario 1: F1 H1->H4 (victim), F2 H2->H5, F3 H3->H5, F4 H6->H5, F5 H7->H5\n"
"  scenario 2: F1 H1->H4, F2 H2->H5, F3 H3->H6 (all cross S1->S2)\n"
"  --scenario 1|2        which flows                              [1]\n"
"  --cc on|off           IBA congestion control                   [on]\n"
"  --step MS             time between flow starts (> 0)           [1000]\n"
"  --time MS             simulated time (<= 100000)       [step x flows]\n"
"  --measure MS          measured window: the last MS of the run  [step]\n"
"  --buffer N            switch buffers, packets (1..65535)       [16]\n"
"  --switch cioq|vct     input and output buffers of --buffer\n"
"                        packets each (crossbar speedup 2), or\n"
"                        input-buffered cut-through              [cioq]\n"
"  --msg BYTES           message payload, 2048-byte MTU packets   [65536]\n"
"  --ack-every N         one ACK per N packets and per message end\n"
"                        (coalesced; 1 = every packet)           [8]\n"
"  --threshold W         switch Threshold 0..15                   [15]\n"
"  --marking-rate N      Marking_Rate 0..65535                    [1]\n"
"  --packet-size N       Packet_Size, 64-byte units 0..255        [8]\n"
"  --ccti-timer N        CCTI_Timer, 1.024 us units 1..65535      [150]\n"
"  --ccti-increase N     CCTI_Increase 1..255                     [1]\n"
"  --ccti-limit N        CCTI_Limit (< table length)              [127]\n"
"  --cct quadratic|linear|FILE  CCT: [G]'s i^2*7/106^2 us (128 entries),\n"
"                        linear (entry i = i packet times, 128), or a\n"
"                        file of OpenSM cc_cct or ibccconfig\n"
"                        CongestionControlTable lines         [quadratic]\n"
"  --arbiter voq|oldest|rr  switch input buffers: per-output queues\n"
"                        with round robin (the model's), FIFO with\n"
"                        bypass 4 (the Santos scenarios), FIFO with\n"
"                        round robin                            [voq]\n"
"  --bin MS              series resolution                        [10]\n"
"  --seed N              random seed (nothing here is random)     [1]\n"
"  --series FILE         CSV: time_ms and each flow's Gbit/s per bin\n"
"  --summary FILE        CSV metric,value (parameters included)\n"
"  --quiet               no table on standard output\n");
}

static int gr_parse(int argc, char **argv, gr_opts *o)
{
    int i;
    for (i = 0; i < argc; i++) {
        const char *a = argv[i], *v = flag_value(argc, argv, i);
        unsigned long long u;
        double x;
        if (!strcmp(a, "--help") || !strcmp(a, "-h")) {
            usage_gran(stdout);
            return 1;
        } else if (!strcmp(a, "--quiet")) { o->quiet = 1; continue; }
        if (strncmp(a, "--", 2) != 0) {
            fprintf(stderr, "ibccsim gran: unexpected argument '%s'\n", a);
            return 2;
        }
        if (!strcmp(a, "--scenario")) {
            if (!parse_uint(v, 1, 2, &u)) return bad(a, v, "1 or 2");
            o->scenario = (unsigned)u;
        } else if (!strcmp(a, "--cc")) {
            if (v && !strcmp(v, "on")) o->cc = 1;
            else if (v && !strcmp(v, "off")) o->cc = 0;
            else return bad(a, v, "on or off");
        } else if (!strcmp(a, "--step") || !strcmp(a, "--time")
                   || !strcmp(a, "--measure") || !strcmp(a, "--bin")) {
            if (!parse_double(v, 1e-3, 1e5, &x))
                return bad(a, v, "milliseconds, from 0.001 to 100000");
            if (a[2] == 's') o->step_ms = x;
            else if (a[2] == 't') { o->time_ms = x; o->time_set = 1; }
            else if (a[2] == 'm') { o->measure_ms = x; o->measure_set = 1; }
            else o->bin_ms = x;
        } else if (!strcmp(a, "--buffer")) {
            if (!parse_uint(v, 1, 65535, &u)) return bad(a, v, "an integer 1..65535");
            o->buffer = (unsigned)u;
        } else if (!strcmp(a, "--switch")) {
            if (v && !strcmp(v, "vct")) o->sw = IBCC_SWITCH_VCT;
            else if (v && !strcmp(v, "cioq")) o->sw = IBCC_SWITCH_CIOQ;
            else return bad(a, v, "vct or cioq");
        } else if (!strcmp(a, "--msg")) {
            if (!parse_uint(v, 1, 16777216, &u)) return bad(a, v, "bytes 1..16777216");
            o->msg_bytes = (unsigned)u;
        } else if (!strcmp(a, "--ack-every")) {
            if (!parse_uint(v, 1, 65535, &u)) return bad(a, v, "an integer 1..65535");
            o->ack_every = (unsigned)u;
        } else if (!strcmp(a, "--threshold")) {
            if (!parse_uint(v, 0, 15, &u)) return bad(a, v, "an integer 0..15");
            o->threshold = (unsigned)u;
        } else if (!strcmp(a, "--marking-rate")) {
            if (!parse_uint(v, 0, 65535, &u)) return bad(a, v, "an integer 0..65535");
            o->marking_rate = (unsigned)u;
        } else if (!strcmp(a, "--packet-size")) {
            if (!parse_uint(v, 0, 255, &u)) return bad(a, v, "an integer 0..255");
            o->packet_size = (unsigned)u;
        } else if (!strcmp(a, "--ccti-timer")) {
            if (!parse_uint(v, 1, 65535, &u)) return bad(a, v, "an integer 1..65535");
            o->ccti_timer = (unsigned)u;
        } else if (!strcmp(a, "--ccti-increase")) {
            if (!parse_uint(v, 1, 255, &u)) return bad(a, v, "an integer 1..255");
            o->ccti_increase = (unsigned)u;
        } else if (!strcmp(a, "--ccti-limit")) {
            if (!parse_uint(v, 0, 16383, &u)) return bad(a, v, "an integer 0..16383");
            o->ccti_limit = (unsigned)u;
        } else if (!strcmp(a, "--cct")) {
            if (!v || !*v) return bad(a, v, "quadratic, linear or a file name");
            o->cct = v;
        } else if (!strcmp(a, "--arbiter")) {
            if (v && !strcmp(v, "voq")) o->arbiter = IBCC_ARB_VOQ;
            else if (v && !strcmp(v, "oldest")) o->arbiter = IBCC_ARB_OLDEST;
            else if (v && !strcmp(v, "rr")) o->arbiter = IBCC_ARB_RR;
            else return bad(a, v, "one of voq, oldest, rr");
        } else if (!strcmp(a, "--seed")) {
            if (!parse_uint(v, 0, ~0ull, &u)) return bad(a, v, "a non-negative integer");
            o->seed = u;
            fprintf(stderr, "ibccsim gran: note: these runs draw no random "
                    "numbers (greedy senders, fixed start times); --seed "
                    "changes nothing\n");
        } else if (!strcmp(a, "--series") || !strcmp(a, "--summary")) {
            if (!v || !*v) return bad(a, v, "a file name");
            if (a[3] == 'e') o->series = v; else o->summary = v;
        } else {
            return unknown("gran", a);
        }
        i++;
    }
    {
        unsigned nf = o->scenario == 1 ? 5u : 3u;
        if (!o->time_set) o->time_ms = o->step_ms * nf;
        if (!o->measure_set) o->measure_ms = o->step_ms;
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
    }
    return 0;
}

/* Loads a CCT: quadratic ([G]'s delays in units of mpt, the maximum
   packet's wire time), linear, or a file of OpenSM cc_cct lines or
   ibccconfig CongestionControlTable lines. `cmd` names the subcommand in
   messages. Returns entries, 0 on error. */
static char *fc_read(const char *cmd, const char *flag, const char *path,
                     size_t *len);
static uint32_t gr_cct_blocks(const char *cmd, const char *what, char *text,
                              uint16_t *cct, uint32_t cap);
static uint32_t gr_load_cct(const char *cmd, const char *what, ibcc_time mpt,
                            uint16_t *cct, uint32_t cap)
{
    char *text;
    size_t n;
    uint32_t got;
    unsigned line = 0;
    ibcc_cacc_config cfg;
    if (!strcmp(what, "quadratic")) {
        if (ibcc_cct_fill_quadratic(cct, 128, mpt, IBCC_CCT_QUAD_COEF,
                                    IBCC_CCT_QUAD_G_ROOT) != IBCC_OK) {
            fprintf(stderr, "ibccsim %s: --cct quadratic: the delays do not "
                    "fit the table at this packet time\n", cmd);
            return 0;
        }
        return 128;
    }
    if (!strcmp(what, "linear"))
        return ibcc_cct_fill_linear(cct, 128) == IBCC_OK ? 128u : 0u;
    /* the whole file, whatever its size (fc_read refuses NUL bytes and
       what cannot be read, naming the file) */
    if (!(text = fc_read(cmd, "--cct", what, &n))) return 0;
    {
        char *t = (char *)realloc(text, n + 1u);
        if (!t) {
            free(text);
            fprintf(stderr, "ibccsim %s: out of memory\n", cmd);
            return 0;
        }
        text = t;
        text[n] = 0;
    }
    memset(&cfg, 0, sizeof cfg);
    if (ibcc_cacc_parse_opensm(&cfg, text, &line) == IBCC_OK && cfg.cct_len) {
        memcpy(cct, cfg.cct, cfg.cct_len * sizeof *cct);
        free(text);
        return cfg.cct_len;
    }
    got = gr_cct_blocks(cmd, what, text, cct, cap);
    free(text);
    return got;
}

/* ibccconfig CongestionControlTable lines, one block per line: the
   table's entries, 0 on error (with a message). */
static uint32_t gr_cct_blocks(const char *cmd, const char *what, char *text,
                              uint16_t *cct, uint32_t cap)
{
    unsigned line;
    {
        /* ibccconfig: one CongestionControlTable block per line */
        char *p = text, *nl;
        uint32_t len = 0;
        line = 0;
        memset(cct, 0, cap * sizeof *cct);
        while (*p) {
            ibcc_cacc_block b;
            nl = strchr(p, '\n');
            if (nl) *nl = 0;
            line++;
            if (*p && *p != '#') {
                if (ibcc_cacc_block_parse_args(&b, p) != IBCC_OK
                    || ibcc_cacc_block_to_table(&b, cct, cap) != IBCC_OK) {
                    fprintf(stderr, "ibccsim %s: --cct %s:%u: not a cc_cct "
                            "or CongestionControlTable line\n", cmd, what,
                            line);
                    return 0;
                }
                if ((uint32_t)b.ccti_limit + 1u > len) len = b.ccti_limit + 1u;
            }
            if (!nl) break;
            p = nl + 1;
        }
        if (len == 0)
            fprintf(stderr, "ibccsim %s: --cct %s: no table found\n", cmd,
                    what);
        return len;
    }
}

static const uint32_t gr_src[2][GR_FLOWS] = {{0, 1, 2, 5, 6}, {0, 1, 2, 0, 0}};
static const uint32_t gr_dst[2][GR_FLOWS] = {{3, 4, 4, 4, 4}, {3, 4, 5, 0, 0}};

/* Runs one configuration; fills *res; writes the series if asked. */
static int gr_run(const gr_opts *o, gr_result *res)
{
    ibcc_fabric_node nodes[2 + GR_HOSTS];
    ibcc_fabric_link links[GR_HOSTS + 1];
    ibcc_fabric_route routes[2 * GR_HOSTS];
    ibcc_fabric_flow flows[GR_FLOWS];
    static uint16_t cct[16384];
    ibcc_fabric_desc d;
    ibcc_fabric *f = NULL;
    ibcc_result r;
    unsigned i, s = o->scenario - 1u, nf = o->scenario == 1 ? 5u : 3u;
    uint32_t nr = 0, isl = 0, cct_len = 0;
    ibcc_time end = ms_time(o->time_ms), m0, bin = ms_time(o->bin_ms);
    ibcc_time mpt = 0;          /* the CCT's maximum packet time */
    double secs;
    memset(res, 0, sizeof *res);
    memset(nodes, 0, sizeof nodes);
    memset(links, 0, sizeof links);
    memset(flows, 0, sizeof flows);
    memset(&d, 0, sizeof d);
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
        flows[i].cls = i;
        flows[i].agent = o->cc ? IBCC_AGENT_CCT : IBCC_AGENT_NONE;
    }
    d.nodes = nodes; d.node_count = 2 + GR_HOSTS;
    d.links = links; d.link_count = GR_HOSTS + 1;
    d.routes = routes; d.route_count = nr;
    d.flows = flows; d.flow_count = nf;
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
        /* Victim_Mask on the ports that face channel adapters: a slow
           adapter keeps its port short of credits, and only the mask lets
           such a root port mark ([G], IBA Annex A10) */
        d.marker.victim_mask[0] = 0x0fu;          /* ports 0..3 */
        (void)ibcc_wire_time(2074u, IBCC_GBITS(16), &mpt);
        cct_len = gr_load_cct("gran", o->cct, mpt, cct, 16384);
        if (cct_len == 0) return 0;
        if (o->ccti_limit >= cct_len) {
            fprintf(stderr, "ibccsim gran: --ccti-limit %u: the table has "
                    "%u entries (at most %u)\n", o->ccti_limit, cct_len,
                    cct_len - 1u);
            return 0;
        }
        d.cct.table = cct;
        d.cct.table_len = cct_len;
        d.cct.ccti_limit = (uint16_t)o->ccti_limit;
        for (i = 0; i < IBCC_CCT_SLS; i++) {
            d.cct.sl[i].ccti_timer = (uint16_t)o->ccti_timer;
            d.cct.sl[i].ccti_increase = (uint8_t)o->ccti_increase;
        }
    }
    if ((r = fabric_create("gran", &f, &d)) != IBCC_OK) return 0;
    r = ibcc_fabric_run_until(f, end);
    if (r != IBCC_OK) {
        fprintf(stderr, "ibccsim gran: run: %s\n", ibcc_result_str(r));
        ibcc_fabric_destroy(f);
        return 0;
    }
    res->conserved = ibcc_fabric_check(f) == IBCC_OK;
    res->nflows = nf;
    m0 = end - ms_time(o->measure_ms);
    m0 = m0 / bin * bin;
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
            ibcc_fabric_destroy(f);
            return 0;
        }
        fprintf(fp, "time_ms");
        for (i = 0; i < nf; i++) fprintf(fp, ",F%u_gbps", i + 1u);
        fprintf(fp, "\n");
        for (t = 0; t + bin <= end; t += bin) {
            fprintf(fp, "%.3f", (double)(t + bin / 2u) / 1e9);
            for (i = 0; i < nf; i++) {
                uint64_t bb = 0;
                (void)ibcc_fabric_flow_bytes(f, i, t, t + bin, &bb);
                fprintf(fp, ",%.4f", (double)bb * 8e-9
                                     / ((double)bin * 1e-12));
            }
            fprintf(fp, "\n");
        }
        if (!close_out(fp, o->series)) {
            ibcc_fabric_destroy(f);
            return 0;
        }
    }
    ibcc_fabric_destroy(f);
    return 1;
}

static int gr_write_summary(const char *path, const gr_opts *o,
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
    fprintf(fp, "scenario,%u\ncc,%s\nstep_ms,%g\ntime_ms,%g\nmeasure_ms,%g\n",
            o->scenario, o->cc ? "on" : "off", o->step_ms, o->time_ms,
            o->measure_ms);
    fprintf(fp, "arbiter,%s\nswitch,%s\nmsg_bytes,%u\nack_every,%u\n",
            ibcc_arb_policy_name(o->arbiter),
            o->sw == IBCC_SWITCH_CIOQ ? "cioq" : "vct", o->msg_bytes,
            o->ack_every);
    fprintf(fp, "buffer_packets,%u\nthreshold,%u\nmarking_rate,%u\n"
            "packet_size,%u\nccti_timer,%u\nccti_increase,%u\n"
            "ccti_limit,%u\ncct,%s\n", o->buffer, o->threshold,
            o->marking_rate, o->packet_size, o->ccti_timer,
            o->ccti_increase, o->ccti_limit, o->cct);
    for (i = 0; i < r->nflows; i++)
        fprintf(fp, "flow%u_gbps,%.4f\n", i + 1u, r->gbps[i]);
    if (o->scenario == 1) fprintf(fp, "jain_contributors,%.4f\n", r->jain);
    fprintf(fp, "mean_gbps,%.4f\nsd_gbps,%.4f\n", r->mean_gbps, r->sd_gbps);
    fprintf(fp, "isl_util,%.4f\nmarked_fraction,%.6f\nbecn_count,%llu\n",
            r->isl_util, r->marked_fraction, r->becn);
    fprintf(fp, "conserved,%d\n", r->conserved);
    return close_out(fp, path);
}

static int cmd_gran(int argc, char **argv)
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
    if (o.summary && !gr_write_summary(o.summary, &o, &r)) return 1;
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
    }
    return r.conserved ? 0 : 1;
}


/* ---- sweeps: independent points in worker processes -----------------
   Runs point(idx, ctx) for idx = 0 .. total-1, each in a child process
   (at most `jobs` at once), with a progress line on stderr. A point
   returns 0 on success. Returns 1 when every point succeeded. */
static int run_points(const char *what, unsigned total, unsigned jobs,
                      int (*point)(unsigned idx, void *ctx), void *ctx)
{
    unsigned next = 0, done = 0, running = 0;
    int ok = 1;
    while (done < total) {
        int st;
        pid_t pid;
        while (ok && running < jobs && next < total) {
            pid = fork();
            if (pid < 0) {
                fprintf(stderr, "ibccsim %s: fork: %s\n", what, strerror(errno));
                ok = 0;
                break;
            }
            if (pid == 0) _exit(point(next, ctx) ? 1 : 0);
            next++;
            running++;
        }
        if (running == 0) break;
        pid = wait(&st);
        if (pid < 0) break;
        running--;
        done++;
        if (!WIFEXITED(st) || WEXITSTATUS(st) != 0) {
            if (ok) fprintf(stderr, "\nibccsim %s: a run failed\n", what);
            ok = 0;
        }
        fprintf(stderr, "\r%s: %u of %u points done", what, done, total);
    }
    fprintf(stderr, "\n");
    return ok && done == total;
}

/* A sweep's temporary folder: ibccsim-NAME-XXXXXX under $TMPDIR (when set
   and at most 120 characters) or /tmp. 0, said on stderr, when it cannot
   be made. */
static int sw_mkdtemp(char *dir, size_t len, const char *what)
{
    const char *t = getenv("TMPDIR");
    if (!t || !*t || strlen(t) > 120) t = "/tmp";
    snprintf(dir, len, "%s/ibccsim-%s-XXXXXX", t, what);
    if (mkdtemp(dir)) return 1;
    fprintf(stderr, "ibccsim %s: no temporary directory in %s: %s\n", what, t,
            strerror(errno));
    return 0;
}

/* Removes a sweep's temporary folder with whatever its points wrote. */
static void sw_rmtemp(const char *dir)
{
    DIR *d = opendir(dir);
    struct dirent *e;
    char f[256];
    if (d) {
        while ((e = readdir(d)) != NULL) {
            if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, "..")) continue;
            if (snprintf(f, sizeof f, "%s/%s", dir, e->d_name) < (int)sizeof f)
                remove(f);
        }
        closedir(d);
    }
    rmdir(dir);
}

/* A sweep's output, opened before any point runs (so a path in a missing
   folder costs no simulation); standard output when out is NULL. */
static FILE *sw_open_out(const char *what, const char *out)
{
    FILE *fo = out ? fopen(out, "w") : stdout;
    if (!fo)
        fprintf(stderr, "ibccsim %s: cannot write %s: %s\n", what, out,
                strerror(errno));
    return fo;
}

/* A failed sweep: its temporary folder removed, its output file (empty:
   nothing was written yet) closed and removed. Returns 1. */
static int sw_fail(const char *dir, FILE *fo, const char *out)
{
    if (dir) sw_rmtemp(dir);
    if (out && fo) {
        fclose(fo);
        remove(out);
    }
    return 1;
}

/* ---- gran-sweep: CCTI_Timer x Marking_Rate on scenario 1 ([G] §B.3) ----
   Every point is an independent `ibccsim gran` run with CC on, executed in
   worker processes (--jobs); one CSV row per point. --list prints the
   command of every point instead, for GNU parallel or a job array. */
#define SW_MAX 64

static int sw_list(const char *s, unsigned lo, unsigned hi, unsigned *v,
                   unsigned *n)
{
    char buf[512], *p, *tok;
    unsigned long long u;
    if (!s || strlen(s) >= sizeof buf) return 0;
    strcpy(buf, s);
    *n = 0;
    for (p = buf; (tok = strtok(p, ",")) != NULL; p = NULL) {
        if (*n >= SW_MAX || !parse_uint(tok, lo, hi, &u)) return 0;
        v[(*n)++] = (unsigned)u;
    }
    return *n > 0;
}

/* Reads metric `name` from a summary CSV; NAN when absent. */
static double sw_metric(const char *path, const char *name)
{
    FILE *fp = fopen(path, "r");
    char line[256];
    size_t k = strlen(name);
    double v = NAN;
    if (!fp) return v;
    while (fgets(line, sizeof line, fp))
        if (!strncmp(line, name, k) && line[k] == ',') v = atof(line + k + 1);
    fclose(fp);
    return v;
}

/* Treatment variation of [G]: at every series time point with the four
   contributors active (from the start of F5 on), max - min of their
   throughputs; Var = the variance of that series. */
static double sw_var(const char *path, double from_ms)
{
    FILE *fp = fopen(path, "r");
    char line[512];
    double sum = 0, sq = 0;
    unsigned long n = 0;
    if (!fp) return NAN;
    if (!fgets(line, sizeof line, fp)) { fclose(fp); return NAN; }
    while (fgets(line, sizeof line, fp)) {
        double t, f[5], lo, hi;
        int k;
        if (sscanf(line, "%lf,%lf,%lf,%lf,%lf,%lf", &t, &f[0], &f[1], &f[2],
                   &f[3], &f[4]) != 6 || t < from_ms) continue;
        lo = hi = f[1];
        for (k = 2; k < 5; k++) {
            if (f[k] < lo) lo = f[k];
            if (f[k] > hi) hi = f[k];
        }
        sum += hi - lo;
        sq += (hi - lo) * (hi - lo);
        n++;
    }
    fclose(fp);
    return n > 1 ? (sq - sum * sum / (double)n) / (double)(n - 1u) : NAN;
}

typedef struct sw_ctx {
    const unsigned *timers, *rates;
    unsigned nr;
    double step;
    const char *dir;
} sw_ctx;

/* One grid point: scenario 1, CC on, its summary and series in dir. */
static int sw_point(unsigned idx, void *ctx)
{
    const sw_ctx *c = (const sw_ctx *)ctx;
    gr_opts o;
    gr_result r;
    char sum[256], ser[256];
    gr_defaults(&o);
    o.step_ms = c->step;
    o.time_ms = c->step * 5;
    o.measure_ms = c->step;
    o.ccti_timer = c->timers[idx / c->nr];
    o.marking_rate = c->rates[idx % c->nr];
    snprintf(sum, sizeof sum, "%s/%u.csv", c->dir, idx);
    snprintf(ser, sizeof ser, "%s/%u_s.csv", c->dir, idx);
    o.summary = sum;
    o.series = ser;
    o.bin_ms = c->step / 100 < 10 ? c->step / 100 : 10;
    return gr_run(&o, &r) && gr_write_summary(sum, &o, &r) && r.conserved
           ? 0 : 1;
}

static int cmd_gran_sweep(int argc, char **argv, const char *self)
{
    unsigned timers[SW_MAX], rates[SW_MAX], nt = 0, nr = 0, jobs = 0;
    double step = 1000;
    int list = 0, i;
    const char *out = NULL, *tl = "10,50,150,500,1000,2000",
               *rl = "0,1,2,4,8,15";
    char dir[160];
    FILE *fo;
    unsigned total, p;
    long nproc = sysconf(_SC_NPROCESSORS_ONLN);
    for (i = 0; i < argc; i++) {
        const char *a = argv[i], *v = flag_value(argc, argv, i);
        unsigned long long u;
        if (!strcmp(a, "--help") || !strcmp(a, "-h")) {
            printf("usage: ibccsim gran-sweep [flags]\n"
"Scenario 1 of [G] with CC on over a grid of CCTI_Timer x Marking_Rate;\n"
"each point an independent run in a worker process. CSV columns:\n"
"ccti_timer,marking_rate,victim_gbps,contributor_gbps,jain,var\n"
"(contributor_gbps: mean of F2..F5; var: variance of max - min of the\n"
"contributors' throughputs over the series points with all running).\n"
"  --timers LIST   CCTI_Timer values, 1.024 us units [10,50,150,500,1000,2000]\n"
"  --rates LIST    Marking_Rate values                [0,1,2,4,8,15]\n"
"  --step MS       time between flow starts           [1000]\n"
"  --jobs N        worker processes (1..64)           [cores]\n"
"  --out FILE      CSV file                           [standard output]\n"
"  --list          print one ibccsim command per point and exit\n");
            return 0;
        } else if (!strcmp(a, "--list")) { list = 1; continue; }
        if (!strcmp(a, "--timers")) {
            if (!sw_list(v, 1, 65535, timers, &nt) || !v)
                return bad(a, v, "comma-separated integers 1..65535 (at most 64)");
            tl = v;
        } else if (!strcmp(a, "--rates")) {
            if (!sw_list(v, 0, 65535, rates, &nr) || !v)
                return bad(a, v, "comma-separated integers 0..65535 (at most 64)");
            rl = v;
        } else if (!strcmp(a, "--step")) {
            if (!parse_double(v, 1e-3, 2e4, &step))
                return bad(a, v, "milliseconds, from 0.001 to 20000");
        } else if (!strcmp(a, "--jobs")) {
            if (!parse_uint(v, 1, 64, &u)) return bad(a, v, "an integer 1..64");
            jobs = (unsigned)u;
        } else if (!strcmp(a, "--out")) {
            if (!v || !*v) return bad(a, v, "a file name");
            out = v;
        } else {
            return unknown("gran-sweep", a);
        }
        i++;
    }
    if (!nt) (void)sw_list(tl, 1, 65535, timers, &nt);
    if (!nr) (void)sw_list(rl, 0, 65535, rates, &nr);
    if (!jobs) jobs = nproc > 0 ? (unsigned)nproc : 1u;
    total = nt * nr;
    if (list) {
        for (p = 0; p < total; p++)
            printf("%s gran --scenario 1 --cc on --step %g --ccti-timer %u "
                   "--marking-rate %u --quiet --summary sweep_%u_%u.csv "
                   "--series sweep_%u_%u_series.csv\n", self, step,
                   timers[p / nr], rates[p % nr], timers[p / nr],
                   rates[p % nr], timers[p / nr], rates[p % nr]);
        return 0;
    }
    if ((fo = sw_open_out("gran-sweep", out)) == NULL) return 1;
    if (!sw_mkdtemp(dir, sizeof dir, "sweep")) return sw_fail(NULL, fo, out);
    {
        sw_ctx c;
        c.timers = timers;
        c.rates = rates;
        c.nr = nr;
        c.step = step;
        c.dir = dir;
        if (!run_points("gran-sweep", total, jobs, sw_point, &c))
            return sw_fail(dir, fo, out);
    }
    fprintf(fo, "ccti_timer,marking_rate,victim_gbps,contributor_gbps,jain,var\n");
    for (p = 0; p < total; p++) {
        char sum[256], ser[256];
        double c = 0;
        unsigned k;
        snprintf(sum, sizeof sum, "%s/%u.csv", dir, p);
        snprintf(ser, sizeof ser, "%s/%u_s.csv", dir, p);
        for (k = 2; k <= 5; k++) {
            char name[16];
            snprintf(name, sizeof name, "flow%u_gbps", k);
            c += sw_metric(sum, name) / 4;
        }
        fprintf(fo, "%u,%u,%.4f,%.4f,%.4f,%.5f\n", timers[p / nr],
                rates[p % nr], sw_metric(sum, "flow1_gbps"), c,
                sw_metric(sum, "jain_contributors"), sw_var(ser, 4 * step));
        remove(sum);
        remove(ser);
    }
    sw_rmtemp(dir);
    if (out) return close_out(fo, out) ? 0 : 1;
    return fflush(stdout) == 0 ? 0 : 1;
}


/* ---- mvcm: MVCM on a k-ary n-fly [F] ---------------------------------------
   A k-ary n-fly bidirectional MIN of CIOQ switches (speedup 2, buffers in
   64-byte credits), links of 1 byte per cycle (1 GB/s: a cycle is 1 ns),
   3 cycles a hop, 22-byte headers and ACKs, one queue per destination at
   every source. Every host but the hot sources sends uniform traffic at
   the load; once the network has delivered --hot-after packets, the
   --hot-sources hosts send --hot-packets packets each to the hot host
   (the last one) at the same rate, then stop. Classes: 0 cold (not addressed to the hot host), 1 the
   hot spot flows, 2 uniform flows to the hot host. */
typedef struct mv_opts {
    unsigned k, n, payload, hot_sources, hot_packets, variable;
    unsigned long long hot_after, seed;
    double load, bin_us, time_us;
    int cmm, nowarm, nocap, validated, quiet, time_set, hot_set, vct, shuffle;
    int mbonly, load_host, formula;
    unsigned speedup, window, link_bytes;
    const char *series, *summary;
} mv_opts;

enum { MV_NONE, MV_RP, MV_PI, MV_MVCM, MV_WINDOW };
static const char *const mv_names[] = {"none", "rp", "pi", "mvcm", "window"};

/* hot-spot sources by default: 64, at most a quarter of the hosts (the
   number is in [F]'s Table 3, which the text lacks; docs/scenario_mvcm.md
   gives the reason for this choice) */
#define MV_HOT_DEFAULT(h) ((h) / 4u < 64u ? (h) / 4u : 64u)

/* [F] §4.3 and §5.1: a hop (routing, switching and link) takes 3 cycles;
   ibcc spends it as 1 ns on the wire and 2 ns in the switch. */
#define MV_PROP IBCC_NS(1)
#define MV_FWD IBCC_NS(2)

typedef struct mv_res {
    double lat_cold, lat_base, thr_cold, hot_util;
    double marked_cold, marked_hot, validated_hot, accepted, lat_all, validated_cold;
    double t_hs, t_he;
    double lat_cold_peak, lat_hot, lat_hot_peak, lat_end, lat_hs_all;
    double hot_util_min, load_host, rtt_min, omega, omega_hi;
    unsigned dw_max, hsd, ccti_increase;
    unsigned long long delivered;
    int conserved, hot_started;
} mv_res;

typedef struct mv_obs {
    const ibcc_fabric_flow *flows;
    ibcc_time t_hs, t_he, base0, span;
    int hs, want_hs;
    uint64_t count, hot_after, hot_bytes;
    uint64_t cold_n, cold_bytes, base_n, all_n;
    double cold_lat, base_lat, all_lat;
    uint64_t cold_marked, cold_total, hot_marked, hot_valid, hot_total, cold_valid;
    double hot_lat, hs_lat, end_lat;
    uint64_t hs_n, end_n;
    ibcc_time end0;
    /* series by delivery bin; s_hl: bytes into the hot host */
    uint64_t *s_n[2], *s_bytes[2], *s_hl;
    double *s_lat[2];
    uint64_t nbins;
    ibcc_time bin;
} mv_obs;

static void mv_deliv(void *u, const ibcc_fabric_pkt *p)
{
    mv_obs *o = (mv_obs *)u;
    unsigned c = o->flows[p->flow].cls;
    double lat = (double)(p->t - p->t_gen) / 1000.0;   /* cycles (ns) */
    int mk = (p->hdr & (IBCC_FECN | IBCC_MB)) != 0;
    o->count++;
    if (o->want_hs && !o->hs && o->count == o->hot_after) {
        o->hs = 1;                       /* the hot flows open now */
        o->t_hs = p->t;
        o->t_he = p->t + o->span;
    }
    if (o->hs && c != 0 && p->t >= o->t_hs && p->t < o->t_he)
        o->hot_bytes += p->size;         /* into the hot host */
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

static void mv_defaults(mv_opts *o)
{
    memset(o, 0, sizeof *o);
    o->k = 4; o->n = 3; o->payload = 256; o->hot_packets = 1000;
    o->hot_after = 50000; o->seed = 1; o->load = 0.45; o->bin_us = 20;
    o->link_bytes = 1;
    o->cmm = MV_MVCM;
    o->shuffle = 1;
}

static void usage_mvcm(FILE *out)
{
    fprintf(out,
"usage: ibccsim mvcm [flags]\n"
"MVCM and its comparators on a k-ary n-fly BMIN ([F]): CIOQ switches with\n"
"speedup 2 and 64-byte credits, 1 byte/cycle links (a cycle is 1 ns),\n"
"22-byte headers and ACKs, per-destination queues at the sources. Uniform\n"
"traffic from every other host at --load-sw; after --hot-after delivered\n"
"packets the --hot-sources hosts send --hot-packets each to the last host\n"
"at the same rate (and nothing else).\n"
"Hops take 3 cycles ([F] 4.3); DWmax and WS come from [F]'s RTTmin formula.\n"
"  --k K, --n N          the k-ary n-fly (k 2..16, n 1..6)         [4, 3]\n"
"  --cmm none|rp|pi|mvcm|window  congestion management             [mvcm]\n"
"                        rp: input-triggered marking + LIPD, window 1\n"
"                        pi: IBA output-buffer marking + CCT delays,\n"
"                            CCTI_Increase = hot-spot degree - 1\n"
"                        mvcm: MVPM marking/validation + MVCM\n"
"                        window: a static window only ([F] Fig 4)\n"
"  --window W            window: packets in flight per flow          [2]\n"
"  --no-warm             mvcm: ignore warm (MB-only) ACKs\n"
"  --no-cap              mvcm: no cap on the waiting-slot growth\n"
"  --input-only          mvcm: act on input marks alone (MB is hot)\n"
"  --validated           pi: MVPM marks, the CCT reacts to validated ACKs\n"
"  --link-bytes B        link rate, bytes/cycle (1..64)            [1]\n"
"  --formula             print RTTmin, omega and DWmax and stop\n"
"  --speedup S           CIOQ crossbar speedup (1..16)            [2]\n"
"  --vct                 input-buffered cut-through switches instead\n"
"  --tree                wire the stages as a k-ary n-tree (the same\n"
"                        BMIN) instead of by the perfect shuffle\n"
"  --load-sw L           bytes/cycle per first-stage switch ([F]'s\n"
"                        unit: L/k per host)                      [0.45]\n"
"  --load L              bytes/cycle per host instead (0 < L <= 1)\n"
"  --payload 256|512|1024|variable  payload bytes (buffers 1, 2, 4, 3 KB;\n"
"                        variable: each flow a payload 256..1024)  [256]\n"
"  --hot-sources N       hot-spot sources, hosts that send nothing\n"
"                        else (0: no hot spot)     [64, at most hosts/4]\n"
"  --hot-packets N       packets each hot source sends            [1000]\n"
"  --hot-after N         delivered packets before the hot spot    [50000]\n"
"  --time US             simulated time; default: until the hot spot\n"
"                        has ended and as long again\n"
"  --bin US              series resolution                        [20]\n"
"  --seed N              random seed                              [1]\n"
"  --series FILE         CSV: per bin cold and hot latency (cycles) and\n"
"                        throughput (bytes/cycle/host), by delivery time\n"
"  --summary FILE        CSV metric,value\n"
"  --quiet               no table\n");
}

static int mv_parse(int argc, char **argv, mv_opts *o)
{
    int i;
    for (i = 0; i < argc; i++) {
        const char *a = argv[i], *v = flag_value(argc, argv, i);
        unsigned long long u;
        double x;
        if (!strcmp(a, "--help") || !strcmp(a, "-h")) { usage_mvcm(stdout); return 1; }
        else if (!strcmp(a, "--quiet")) { o->quiet = 1; continue; }
        else if (!strcmp(a, "--no-warm")) { o->nowarm = 1; continue; }
        else if (!strcmp(a, "--no-cap")) { o->nocap = 1; continue; }
        else if (!strcmp(a, "--validated")) { o->validated = 1; continue; }
        else if (!strcmp(a, "--input-only")) { o->mbonly = 1; continue; }
        else if (!strcmp(a, "--formula")) { o->formula = 1; continue; }
        else if (!strcmp(a, "--vct")) { o->vct = 1; continue; }
        else if (!strcmp(a, "--tree")) { o->shuffle = 0; continue; }
        if (strncmp(a, "--", 2) != 0) {
            fprintf(stderr, "ibccsim mvcm: unexpected argument '%s'\n", a);
            return 2;
        }
        if (!strcmp(a, "--k")) {
            if (!parse_uint(v, 2, 16, &u)) return bad(a, v, "an integer 2..16");
            o->k = (unsigned)u;
        } else if (!strcmp(a, "--n")) {
            if (!parse_uint(v, 1, 6, &u)) return bad(a, v, "an integer 1..6");
            o->n = (unsigned)u;
        } else if (!strcmp(a, "--cmm")) {
            int c;
            for (c = 0; c < 5; c++) if (v && !strcmp(v, mv_names[c])) break;
            if (c == 5) return bad(a, v, "one of none, rp, pi, mvcm, window");
            o->cmm = c;
        } else if (!strcmp(a, "--window")) {
            if (!parse_uint(v, 1, 65535, &u)) return bad(a, v, "an integer 1..65535");
            o->window = (unsigned)u;
        } else if (!strcmp(a, "--link-bytes")) {
            if (!parse_uint(v, 1, 64, &u)) return bad(a, v, "an integer 1..64");
            o->link_bytes = (unsigned)u;
        } else if (!strcmp(a, "--load-sw")) {
            if (!parse_double(v, 1e-4, 64, &x)) return bad(a, v, "bytes/cycle, from 0.0001 to 64");
            o->load = x; o->load_host = 0;
        } else if (!strcmp(a, "--speedup")) {
            if (!parse_uint(v, 1, 16, &u)) return bad(a, v, "an integer 1..16");
            o->speedup = (unsigned)u;
        } else if (!strcmp(a, "--load")) {
            if (!parse_double(v, 1e-4, 1, &x)) return bad(a, v, "bytes/cycle, from 0.0001 to 1");
            o->load = x; o->load_host = 1;
        } else if (!strcmp(a, "--payload")) {
            if (v && !strcmp(v, "variable")) { o->variable = 1; o->payload = 1024; }
            else if (parse_uint(v, 256, 1024, &u) && (u == 256 || u == 512 || u == 1024)) {
                o->payload = (unsigned)u; o->variable = 0;
            } else return bad(a, v, "256, 512, 1024 or variable");
        } else if (!strcmp(a, "--hot-sources")) {
            if (!parse_uint(v, 0, 1u << 20, &u)) return bad(a, v, "an integer 0..2^20");
            o->hot_sources = (unsigned)u; o->hot_set = 1;
        } else if (!strcmp(a, "--hot-packets")) {
            if (!parse_uint(v, 1, 1000000000, &u)) return bad(a, v, "an integer 1..10^9");
            o->hot_packets = (unsigned)u;
        } else if (!strcmp(a, "--hot-after")) {
            if (!parse_uint(v, 1, 1000000000, &u)) return bad(a, v, "an integer 1..10^9");
            o->hot_after = u;
        } else if (!strcmp(a, "--time") || !strcmp(a, "--bin")) {
            if (!parse_double(v, 0.001, 1e7, &x)) return bad(a, v, "microseconds, from 0.001 to 10^7");
            if (a[2] == 't') { o->time_us = x; o->time_set = 1; } else o->bin_us = x;
        } else if (!strcmp(a, "--seed")) {
            if (!parse_uint(v, 0, ~0ull, &u)) return bad(a, v, "a non-negative integer");
            o->seed = u;
        } else if (!strcmp(a, "--series") || !strcmp(a, "--summary")) {
            if (!v || !*v) return bad(a, v, "a file name");
            if (a[3] == 'e') o->series = v; else o->summary = v;
        } else {
            return unknown("mvcm", a);
        }
        i++;
    }
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

static int mv_run(const mv_opts *o, mv_res *res)
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
    double lh = o->load_host ? o->load : o->load / o->k;   /* bytes/cycle/host */
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
    if ((o->shuffle ? ibcc_topo_nfly(&t, o->k, o->n, NULL)
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
    ob.bin = (ibcc_time)(o->bin_us * 1e6 + 0.5);
    (void)ibcc_wire_time(size, hrate, &gap);
    ob.want_hs = ns != 0;
    ob.hot_after = o->hot_after;
    ob.span = gap * o->hot_packets;
    d.observer.delivered = mv_deliv;
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
        if (!ob.s_hl) goto out;
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
    if (end > ibcc_fabric_now(f) && ibcc_fabric_run_until(f, end) != IBCC_OK) goto out;
    res->conserved = ibcc_fabric_check(f) == IBCC_OK;
    {
        ibcc_fabric_counters c;
        memset(&c, 0, sizeof c);
        (void)ibcc_fabric_counters_get(f, &c);
        res->delivered = c.data_delivered;
        res->lat_cold = ob.cold_n ? ob.cold_lat / (double)ob.cold_n : 0;
        res->lat_base = ob.base_n ? ob.base_lat / (double)ob.base_n : 0;
        res->lat_all = ob.all_n ? ob.all_lat / (double)ob.all_n : 0;
        res->accepted = (double)c.bytes_delivered / (double)H
                        / ((double)ibcc_fabric_now(f) / 1000.0);
        if (ob.hs) {
            double cyc = (double)(ob.t_he - ob.t_hs) / 1000.0;
            res->thr_cold = (double)ob.cold_bytes / (double)H / cyc;
            res->hot_util = (double)ob.hot_bytes / cyc / o->link_bytes;
        }
        res->lat_hot = ob.hot_total ? ob.hot_lat / (double)ob.hot_total : 0;
        res->lat_hs_all = ob.hs_n ? ob.hs_lat / (double)ob.hs_n : 0;
        res->lat_end = ob.end_n ? ob.end_lat / (double)ob.end_n : 0;
        {
            /* over the whole bins of the run: the highest mean cold and
               hot latency of a bin (by delivery time), and the least busy
               bin of the hot host's link inside the hot spot */
            uint64_t bb;
            double bc = (double)ob.bin / 1000.0;
            res->hot_util_min = ob.hs ? 1e9 : 0;
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
                if (ob.hs && bb * ob.bin >= ob.t_hs && (bb + 1u) * ob.bin <= ob.t_he) {
                    x = (double)ob.s_hl[bb] / bc / o->link_bytes;
                    if (x < res->hot_util_min) res->hot_util_min = x;
                }
            }
            if (res->hot_util_min > 1e8) res->hot_util_min = 0;
        }
        res->marked_cold = ob.cold_total ? 100.0 * (double)ob.cold_marked / (double)ob.cold_total : 0;
        res->marked_hot = ob.hot_total ? 100.0 * (double)ob.hot_marked / (double)ob.hot_total : 0;
        res->validated_hot = ob.hot_total ? 100.0 * (double)ob.hot_valid / (double)ob.hot_total : 0;
        res->validated_cold = ob.cold_total ? 100.0 * (double)ob.cold_valid / (double)ob.cold_total : 0;
        res->t_hs = (double)ob.t_hs / 1000.0;
        res->t_he = (double)ob.t_he / 1000.0;
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
            fprintf(fp, "time_us,cold_latency,hot_latency,cold_throughput,hot_throughput,hot_spot\n");
            for (bb = 0; bb < ob.nbins && bb * ob.bin < end; bb++) {
                ibcc_time tm = bb * ob.bin + ob.bin / 2u;
                fprintf(fp, "%.3f,%.1f,%.1f,%.5f,%.5f,%d\n", (double)tm / 1e6,
                        ob.s_n[0][bb] ? ob.s_lat[0][bb] / (double)ob.s_n[0][bb] : 0.0,
                        ob.s_n[1][bb] ? ob.s_lat[1][bb] / (double)ob.s_n[1][bb] : 0.0,
                        (double)ob.s_bytes[0][bb] / (double)H / cyc,
                        (double)ob.s_bytes[1][bb] / (double)H / cyc,
                        ob.hs && tm >= ob.t_hs && tm < ob.t_he);
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
    }
    ibcc_fabric_destroy(f);
    ibcc_topo_free(&t);
    free(flows);
    free(hosts);
    return ok;
}

static int mv_write_summary(const char *path, const mv_opts *o, const mv_res *r)
{
    FILE *fp = fopen(path, "w");
    if (!fp) {
        fprintf(stderr, "ibccsim: cannot write %s: %s\n", path, strerror(errno));
        return 0;
    }
    fprintf(fp, "metric,value\nk,%u\nn,%u\nwiring,%s\ncmm,%s%s%s%s%s\nload,%g\npayload,%s\n",
            o->k, o->n, o->shuffle ? "shuffle" : "tree", mv_names[o->cmm], o->nowarm ? "-nowarm" : "",
            o->nocap ? "-nocap" : "", o->validated ? "-validated" : "",
            o->mbonly ? "-inputonly" : "", r->load_host,
            o->variable ? "variable" : (o->payload == 256 ? "256" : o->payload == 512 ? "512" : "1024"));
    fprintf(fp, "link_bytes,%u\nhot_sources,%u\nrtt_min,%.1f\nomega,%.4f\nomega_hi,%.4f\ndw_max,%u\n",
            o->link_bytes, r->hsd, r->rtt_min, r->omega, r->omega_hi, r->dw_max);
    if (o->cmm == MV_PI) fprintf(fp, "ccti_increase,%u\n", r->ccti_increase);
    if (o->cmm == MV_WINDOW) fprintf(fp, "window,%u\n", o->window ? o->window : 2u);
    fprintf(fp, "hot_start_cycles,%.0f\nhot_end_cycles,%.0f\n", r->t_hs, r->t_he);
    fprintf(fp, "cold_latency_mean,%.1f\ncold_latency_base,%.1f\n", r->lat_cold, r->lat_base);
    fprintf(fp, "cold_latency_peak,%.1f\nhot_latency_mean,%.1f\nhot_latency_peak,%.1f\n",
            r->lat_cold_peak, r->lat_hot, r->lat_hot_peak);
    fprintf(fp, "latency_hot_spot,%.1f\nlatency_end,%.1f\n", r->lat_hs_all, r->lat_end);
    fprintf(fp, "cold_throughput,%.5f\nhot_link_util,%.4f\nhot_link_util_min,%.4f\n",
            r->thr_cold, r->hot_util, r->hot_util_min);
    fprintf(fp, "marked_pct_cold,%.3f\nmarked_pct_hot,%.3f\nvalidated_pct_hot,%.3f\nvalidated_pct_cold,%.3f\n",
            r->marked_cold, r->marked_hot, r->validated_hot, r->validated_cold);
    fprintf(fp, "accepted,%.5f\nlatency_mean,%.1f\ndelivered,%llu\nconserved,%d\n",
            r->accepted, r->lat_all, r->delivered, r->conserved);
    return close_out(fp, path);
}

static int cmd_mvcm(int argc, char **argv)
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
        printf("  marked %% cold / hot      %.2f / %.2f (validated hot %.2f)\n",
               r.marked_cold, r.marked_hot, r.validated_hot);
        printf("  accepted                 %.4f bytes/cycle/host, mean latency %.1f\n",
               r.accepted, r.lat_all);
        printf("  conserved                %s\n", r.conserved ? "yes" : "NO");
    }
    return r.conserved ? 0 : 1;
}

/* mvcm-sweep: average latency against accepted traffic for each CMM, no
   hot spot, one worker process per point. */
typedef struct mw_ctx {
    const double *loads;
    unsigned nl, k, n, hot;
    const char *dir;
} mw_ctx;

static int mw_point(unsigned idx, void *ctx)
{
    const mw_ctx *c = (const mw_ctx *)ctx;
    mv_opts o;
    mv_res r;
    char sum[256];
    mv_defaults(&o);
    o.k = c->k;
    o.n = c->n;
    o.cmm = (int)(idx / c->nl);
    o.load = c->loads[idx % c->nl];
    o.load_host = 1;
    if (c->hot) {
        o.hot_packets = c->hot;          /* the default hot sources */
    } else {
        o.hot_set = 1;
        o.hot_sources = 0;
        o.hot_after = 20000;
    }
    snprintf(sum, sizeof sum, "%s/%u.csv", c->dir, idx);
    return mv_run(&o, &r) && mv_write_summary(sum, &o, &r) ? 0 : 1;
}

static int cmd_mvcm_sweep(int argc, char **argv)
{
    static const char *const cm[] = {"none", "rp", "pi", "mvcm"};
    double loads[32];
    unsigned nl = 0, jobs = 0, k = 4, n = 3, p, total, hot = 0;
    const char *out = NULL;
    char dir[160];
    long nproc = sysconf(_SC_NPROCESSORS_ONLN);
    int i;
    FILE *fo;
    for (i = 0; i < argc; i++) {
        const char *a = argv[i], *v = flag_value(argc, argv, i);
        unsigned long long u;
        if (!strcmp(a, "--help") || !strcmp(a, "-h")) {
            printf("usage: ibccsim mvcm-sweep [--k K] [--n N] [--loads L1,L2,...] [--hot-spot P]\n"
                   "                          [--jobs N] [--out FILE]\n"
                   "Average latency (cycles) against accepted traffic (bytes/cycle/host)\n"
                   "for each CMM under uniform traffic at each load (per host); with\n"
                   "--hot-spot P the default hot sources also send P packets each to\n"
                   "the hot host ([F] Fig 9a), else there is no hot spot. Each point\n"
                   "an independent run in a worker process. CSV: cmm,load,accepted,latency.\n");
            return 0;
        }
        if (!strcmp(a, "--loads")) {
            char buf[512], *q, *tok;
            if (!v || strlen(v) >= sizeof buf) return bad(a, v, "comma-separated loads");
            strcpy(buf, v);
            nl = 0;
            for (q = buf; (tok = strtok(q, ",")) != NULL; q = NULL) {
                if (nl >= sizeof loads / sizeof loads[0])
                    return bad(a, v, "at most 32 loads");
                if (!parse_double(tok, 1e-3, 1, &loads[nl++]))
                    return bad(a, v, "comma-separated loads 0.001..1");
            }
            if (!nl) return bad(a, v, "comma-separated loads 0.001..1");
        } else if (!strcmp(a, "--k") || !strcmp(a, "--n") || !strcmp(a, "--jobs")) {
            if (!parse_uint(v, 1, 64, &u)) return bad(a, v, "an integer 1..64");
            if (a[2] == 'k') k = (unsigned)u; else if (a[2] == 'n') n = (unsigned)u;
            else jobs = (unsigned)u;
        } else if (!strcmp(a, "--out")) {
            if (!v || !*v) return bad(a, v, "a file name");
            out = v;
        } else if (!strcmp(a, "--hot-spot")) {
            if (!parse_uint(v, 0, 1000000, &u)) return bad(a, v, "an integer 0..10^6");
            hot = (unsigned)u;
        } else {
            return unknown("mvcm-sweep", a);
        }
        i++;
    }
    if (!nl) {
        static const double def[] = {0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8,
                                     0.9, 1.0};
        for (nl = 0; nl < 10; nl++) loads[nl] = def[nl];
    }
    if (!jobs) jobs = nproc > 0 ? (unsigned)nproc : 1u;
    total = 4u * nl;
    if ((fo = sw_open_out("mvcm-sweep", out)) == NULL) return 1;
    if (!sw_mkdtemp(dir, sizeof dir, "mvsweep")) return sw_fail(NULL, fo, out);
    {
        mw_ctx c;
        c.loads = loads;
        c.nl = nl;
        c.k = k;
        c.n = n;
        c.hot = hot;
        c.dir = dir;
        if (!run_points("mvcm-sweep", total, jobs, mw_point, &c))
            return sw_fail(dir, fo, out);
    }
    fprintf(fo, "cmm,load,accepted,latency\n");
    for (p = 0; p < total; p++) {
        char sum[256];
        snprintf(sum, sizeof sum, "%s/%u.csv", dir, p);
        fprintf(fo, "%s,%g,%.5f,%.1f\n", cm[p / nl], loads[p % nl],
                sw_metric(sum, "accepted"), sw_metric(sum, "latency_mean"));
        remove(sum);
    }
    sw_rmtemp(dir);
    if (out) return close_out(fo, out) ? 0 : 1;
    return fflush(stdout) == 0 ? 0 : 1;
}

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
#define WH_RATE 80000000u

typedef struct wh_opts {
    int torus;                  /* 0 twohost, 1 torus */
    int pair;                   /* torus: one high pair + uniform low */
    double load, high_frac;
    unsigned seg, adaptive, slack, size, msg, switch_prio;
    unsigned stop_mark, go_mark;        /* 0: the fabric's defaults */
    double time_ms, warmup_ms, prop_ns, fwd_ns;
    unsigned long long seed;
    const char *series, *summary;
    int quiet;
} wh_opts;

typedef struct wh_res {
    double offered[2], accepted[2];      /* [0] low, [1] high */
    double delay_mean[2], delay_p99[2];  /* us */
    double kdelay_mean[2], kdelay_p99[2];  /* us, [K]'s metric */
    unsigned long long msgs[2];
    unsigned senders[2];
    double link_util_max;               /* busiest link after the warm-up */
    double path_frac[33];               /* host pairs whose route crosses k
                                           switches, k = 1..32 */
    double path_mean;
    double route_load_max;              /* busiest switch output: its share
                                           of uniform traffic, in units of
                                           the per-host load */
    unsigned path_max;
    ibcc_fabric_counters counters;
    int conserved;
} wh_res;

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

static void wh_defaults(wh_opts *o)
{
    memset(o, 0, sizeof *o);
    o->load = 0.3;
    o->high_frac = 0.3;
    o->seg = 100;
    o->slack = 80;
    o->size = 3;
    o->msg = 1000;
    o->time_ms = 50;
    o->warmup_ms = 5;
    o->prop_ns = 125;
    o->fwd_ns = 0;
}

static void usage_wormhole(FILE *out)
{
    fprintf(out,
"usage: ibccsim wormhole [flags]\n"
"Dual-priority segmentation on a Myrinet-like wormhole network [K]: links\n"
"80 MB/s, 25 m (125 ns), input slack buffers with STOP/GO, round robin per\n"
"worm, up/down routes. Messages arrive as Poisson processes with\n"
"exponential lengths; high-priority ones travel whole, low-priority ones\n"
"cut into segments. Loads are fractions of one link per sending host.\n"
"  --case twohost|torus  H1 (high) and H2 (low) to one destination through\n"
"                      one switch, or a torus with 4 hosts per switch [twohost]\n"
"  --load X            offered load per host (0.001..1)          [0.3]\n"
"  --seg BYTES|adaptive  low-priority segment length, or B x h    [100]\n"
"  --slack BYTES       input slack buffer (STOP at slack minus a round\n"
"                      trip, GO at a round trip)                 [80]\n"
"  --stop-mark BYTES   STOP when the slack buffer holds this much  [slack - round trip]\n"
"  --go-mark BYTES     GO when it has drained to this much         [round trip]\n"
"  --size N            torus side (2..16)                        [3]\n"
"  --pattern mix|pair  torus: every host mixes --high-frac high-priority\n"
"                      traffic into uniform traffic, or one high-priority\n"
"                      pair corner to opposite corner with uniform low-\n"
"                      priority traffic from every other host    [mix]\n"
"  --high-frac X       mix: high-priority share of each host's load [0.3]\n"
"  --msg BYTES         mean message length                       [1000]\n"
"  --switch-prio       switches also serve high-priority worms first\n"
"  --prop-ns NS        link propagation delay                    [125]\n"
"  --fwd-ns NS         switch routing delay                      [0]\n"
"  --time MS           simulated time                            [50]\n"
"  --warmup MS         statistics start                          [5]\n"
"  --seed N            random seed                               [0]\n"
"  --series FILE       CSV per ms: accepted high and low (fraction of a link\n"
"                      per sending host)\n"
"  --summary FILE      CSV metric,value\n"
"  --quiet             no table on stdout\n");
}

static int wh_parse(int argc, char **argv, wh_opts *o)
{
    int i;
    for (i = 0; i < argc; i++) {
        const char *a = argv[i], *v = flag_value(argc, argv, i);
        unsigned long long u;
        double x;
        if (!strcmp(a, "--help") || !strcmp(a, "-h")) {
            usage_wormhole(stdout);
            return 1;
        }
        if (!strcmp(a, "--switch-prio")) { o->switch_prio = 1; continue; }
        if (!strcmp(a, "--quiet")) { o->quiet = 1; continue; }
        if (!strcmp(a, "--case")) {
            if (v && !strcmp(v, "twohost")) o->torus = 0;
            else if (v && !strcmp(v, "torus")) o->torus = 1;
            else return bad(a, v, "twohost or torus");
        } else if (!strcmp(a, "--pattern")) {
            if (v && !strcmp(v, "mix")) o->pair = 0;
            else if (v && !strcmp(v, "pair")) o->pair = 1;
            else return bad(a, v, "mix or pair");
        } else if (!strcmp(a, "--seg")) {
            if (v && !strcmp(v, "adaptive")) o->adaptive = 1;
            else if (parse_uint(v, 1, 65535, &u)) { o->seg = (unsigned)u; o->adaptive = 0; }
            else return bad(a, v, "a segment length 1..65535 or 'adaptive'");
        } else if (!strcmp(a, "--slack")) {
            if (!parse_uint(v, 8, 1u << 20, &u)) return bad(a, v, "bytes 8..1048576");
            o->slack = (unsigned)u;
        } else if (!strcmp(a, "--stop-mark") || !strcmp(a, "--go-mark")) {
            if (!parse_uint(v, 1, 1u << 20, &u)) return bad(a, v, "bytes 1..1048576");
            if (a[2] == 's') o->stop_mark = (unsigned)u; else o->go_mark = (unsigned)u;
        } else if (!strcmp(a, "--size")) {
            if (!parse_uint(v, 2, 16, &u)) return bad(a, v, "a torus side 2..16");
            o->size = (unsigned)u;
        } else if (!strcmp(a, "--msg")) {
            if (!parse_uint(v, 1, 1000000, &u)) return bad(a, v, "bytes 1..10^6");
            o->msg = (unsigned)u;
        } else if (!strcmp(a, "--seed")) {
            if (!parse_uint(v, 0, ~0ull, &u)) return bad(a, v, "an unsigned integer");
            o->seed = u;
        } else if (!strcmp(a, "--load") || !strcmp(a, "--high-frac")) {
            if (!parse_double(v, a[2] == 'l' ? 1e-3 : 0, 1, &x))
                return bad(a, v, a[2] == 'l' ? "a load 0.001..1" : "a fraction 0..1");
            if (a[2] == 'l') o->load = x; else o->high_frac = x;
        } else if (!strcmp(a, "--time") || !strcmp(a, "--warmup")) {
            if (!parse_double(v, a[2] == 't' ? 0.01 : 0, 1e5, &x))
                return bad(a, v, "milliseconds (time 0.01..10^5, warmup 0..10^5)");
            if (a[2] == 't') o->time_ms = x; else o->warmup_ms = x;
        } else if (!strcmp(a, "--prop-ns") || !strcmp(a, "--fwd-ns")) {
            if (!parse_double(v, a[2] == 'p' ? 1 : 0, 1e6, &x))
                return bad(a, v, "nanoseconds (prop 1..10^6, fwd 0..10^6)");
            if (a[2] == 'p') o->prop_ns = x; else o->fwd_ns = x;
        } else if (!strcmp(a, "--series") || !strcmp(a, "--summary")) {
            if (!v || !*v) return bad(a, v, "a file name");
            if (a[3] == 'e') o->series = v; else o->summary = v;
        } else {
            return unknown("wormhole", a);
        }
        i++;
    }
    if (o->warmup_ms >= o->time_ms) {
        fprintf(stderr, "ibccsim wormhole: --warmup %g must be below --time %g\n",
                o->warmup_ms, o->time_ms);
        return 2;
    }
    if (!o->torus && (o->pair || o->size != 3 || o->high_frac != 0.3)) {
        fprintf(stderr, "ibccsim wormhole: --pattern, --size and --high-frac are torus flags\n");
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

/* Builds the flows of the case: twohost (hosts 1, 2 -> 3 through switch
   0) or torus (builder ibcc_topo_mesh, root switch 0). */
static int wh_run(const wh_opts *o, wh_res *r)
{
    ibcc_fabric_node tn[4];
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
    if ((rr = ibcc_fabric_run_until(f, from)) != IBCC_OK
        || (rr = ibcc_fabric_stats_reset(f)) != IBCC_OK) {
        fprintf(stderr, "ibccsim wormhole: run: %s\n", ibcc_result_str(rr));
        goto done;
    }
    busy0 = (ibcc_time *)calloc(2u * d.link_count, sizeof *busy0);
    if (!busy0) goto oom;
    for (i = 0; i < 2u * d.link_count; i++)
        ibcc_fabric_channel_totals(f, i, NULL, &busy0[i]);
    if ((rr = ibcc_fabric_run_until(f, end)) != IBCC_OK) {
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
        fprintf(sf, "t_ms,accepted_high,accepted_low\n");
        for (t = 0; t + IBCC_MS(1) <= end; t += IBCC_MS(1)) {
            double acc[2] = {0, 0};
            for (i = 0; i < nf; i++) {
                uint64_t b = 0;
                ibcc_fabric_flow_bytes(f, i, t, t + IBCC_MS(1), &b);
                acc[prio[i]] += (double)b;
            }
            fprintf(sf, "%g,%.5f,%.5f\n", t / 1e9,
                    r->senders[1] ? acc[1] / 1e-3 / WH_RATE / r->senders[1] : 0.0,
                    r->senders[0] ? acc[0] / 1e-3 / WH_RATE / r->senders[0] : 0.0);
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

static int wh_write_summary(const char *path, const wh_opts *o, const wh_res *r)
{
    FILE *fp = fopen(path, "w");
    char seg[16];
    if (!fp) {
        fprintf(stderr, "ibccsim: cannot write %s: %s\n", path, strerror(errno));
        return 0;
    }
    if (o->adaptive) snprintf(seg, sizeof seg, "adaptive");
    else snprintf(seg, sizeof seg, "%u", o->seg);
    fprintf(fp, "metric,value\ncase,%s\npattern,%s\nload,%g\nseg,%s\nslack,%u\nsize,%u\n",
            o->torus ? "torus" : "twohost", o->torus ? (o->pair ? "pair" : "mix") : "-",
            o->load, seg, o->slack, o->torus ? o->size : 1u);
    fprintf(fp, "offered_high,%.5f\noffered_low,%.5f\naccepted_high,%.5f\naccepted_low,%.5f\n",
            r->offered[1], r->offered[0], r->accepted[1], r->accepted[0]);
    fprintf(fp, "delay_mean_high_us,%.3f\ndelay_p99_high_us,%.3f\n"
                "delay_mean_low_us,%.3f\ndelay_p99_low_us,%.3f\n",
            r->delay_mean[1], r->delay_p99[1], r->delay_mean[0], r->delay_p99[0]);
    fprintf(fp, "link_util_max,%.4f\n", r->link_util_max);
    fprintf(fp, "kdelay_mean_high_us,%.3f\nkdelay_p99_high_us,%.3f\n"
                "kdelay_mean_low_us,%.3f\nkdelay_p99_low_us,%.3f\n",
            r->kdelay_mean[1], r->kdelay_p99[1], r->kdelay_mean[0], r->kdelay_p99[0]);
    fprintf(fp, "path_switches_mean,%.4f\npath_switches_max,%u\nroute_load_max,%.4f\n",
            r->path_mean, r->path_max, r->route_load_max);
    {
        unsigned k;
        for (k = 1; k <= r->path_max; k++)
            fprintf(fp, "path_switches_%u,%.4f\n", k, r->path_frac[k]);
    }
    fprintf(fp, "messages_high,%llu\nmessages_low,%llu\nevents,%llu\nconserved,%d\n",
            r->msgs[1], r->msgs[0], (unsigned long long)r->counters.events, r->conserved);
    return close_out(fp, path);
}

static int cmd_wormhole(int argc, char **argv)
{
    wh_opts o;
    wh_res r;
    int rc;
    wh_defaults(&o);
    rc = wh_parse(argc, argv, &o);
    if (rc == 1) return 0;
    if (rc) return rc;
    if (!wh_run(&o, &r)) return 1;
    if (o.summary && !wh_write_summary(o.summary, &o, &r)) return 1;
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

/* wormhole-sweep: one wormhole run per value of --vary (load or seg),
   each in a worker process; one CSV row per point. */
typedef struct whs_ctx {
    const wh_opts *base;
    int vary_seg;
    const double *vals;
    const char *dir;
} whs_ctx;

static int whs_point(unsigned idx, void *ctx)
{
    const whs_ctx *c = (const whs_ctx *)ctx;
    wh_opts o = *c->base;
    wh_res r;
    char sum[256];
    if (c->vary_seg) {
        o.adaptive = c->vals[idx] == 0;
        if (!o.adaptive) o.seg = (unsigned)c->vals[idx];
    } else {
        o.load = c->vals[idx];
    }
    o.series = NULL;
    snprintf(sum, sizeof sum, "%s/%u.csv", c->dir, idx);
    return wh_run(&o, &r) && wh_write_summary(sum, &o, &r) ? 0 : 1;
}

static int cmd_wormhole_sweep(int argc, char **argv)
{
    static const char *const cols[] = {"offered_high", "offered_low", "accepted_high",
        "accepted_low", "delay_mean_high_us", "delay_p99_high_us", "delay_mean_low_us",
        "delay_p99_low_us", "link_util_max", "conserved", "kdelay_mean_high_us",
        "kdelay_p99_high_us", "kdelay_mean_low_us", "kdelay_p99_low_us"};
    double vals[64];
    unsigned nv = 0, jobs = 0, k, c;
    int vary_seg = -1, rc, nargs = 0, i;
    const char *out = NULL, *list = NULL;
    char *args[64];
    char dir[160];
    long nproc = sysconf(_SC_NPROCESSORS_ONLN);
    wh_opts o;
    FILE *fo;
    for (i = 0; i < argc; i++) {
        const char *a = argv[i], *v = flag_value(argc, argv, i);
        unsigned long long u;
        if (!strcmp(a, "--help") || !strcmp(a, "-h")) {
            printf("usage: ibccsim wormhole-sweep --vary load|seg [--values V1,V2,...]\n"
                   "                              [--jobs N] [--out FILE] [wormhole flags]\n"
                   "One `ibccsim wormhole` run per value (loads 0.001..1, or segment\n"
                   "lengths in bytes with 'adaptive' for B x h), each in a worker process;\n"
                   "CSV: value,offered_high,offered_low,accepted_high,accepted_low,\n"
                   "delay_mean_high_us,delay_p99_high_us,delay_mean_low_us,delay_p99_low_us,\n"
                   "link_util_max,conserved,kdelay_mean_high_us,kdelay_p99_high_us,\n"
                   "kdelay_mean_low_us,kdelay_p99_low_us ([K]'s delay: first segment\n"
                   "leaving its host to the head of the last one arriving).\nDefaults: loads 0.1..1 step 0.1; segments 33,50,100,200,300,500.\n");
            return 0;
        }
        if (!strcmp(a, "--vary")) {
            if (v && !strcmp(v, "load")) vary_seg = 0;
            else if (v && !strcmp(v, "seg")) vary_seg = 1;
            else return bad(a, v, "load or seg");
        } else if (!strcmp(a, "--values")) {
            if (!v) return bad(a, v, "comma-separated values");
            list = v;
        } else if (!strcmp(a, "--jobs")) {
            if (!parse_uint(v, 1, 64, &u)) return bad(a, v, "an integer 1..64");
            jobs = (unsigned)u;
        } else if (!strcmp(a, "--out")) {
            if (!v || !*v) return bad(a, v, "a file name");
            out = v;
        } else {
            if (nargs + 2 >= 64) return bad(a, v, "fewer flags");
            args[nargs++] = argv[i];
            if (v && strcmp(a, "--switch-prio") && strcmp(a, "--quiet")) args[nargs++] = argv[++i];
            continue;
        }
        i++;
    }
    if (vary_seg < 0) {
        fprintf(stderr, "ibccsim wormhole-sweep: --vary load|seg is required\n");
        return 2;
    }
    wh_defaults(&o);
    args[nargs] = NULL;
    rc = wh_parse(nargs, args, &o);
    if (rc == 1) return 0;
    if (rc) return rc;
    if (list) {
        char buf[512], *q, *tok;
        if (strlen(list) >= sizeof buf) return bad("--values", list, "a shorter list");
        strcpy(buf, list);
        for (q = buf; (tok = strtok(q, ",")) != NULL; q = NULL) {
            unsigned long long u;
            if (nv >= 64) return bad("--values", list, "at most 64 values");
            if (vary_seg && !strcmp(tok, "adaptive")) vals[nv++] = 0;
            else if (vary_seg && parse_uint(tok, 1, 65535, &u)) vals[nv++] = (double)u;
            else if (!vary_seg && parse_double(tok, 1e-3, 1, &vals[nv])) nv++;
            else return bad("--values", list, vary_seg ? "segment lengths 1..65535 or 'adaptive'"
                                                        : "loads 0.001..1");
        }
    } else if (vary_seg) {
        static const double def[] = {33, 50, 100, 200, 300, 500};
        for (nv = 0; nv < 6; nv++) vals[nv] = def[nv];
    } else {
        for (nv = 0; nv < 10; nv++) vals[nv] = 0.1 * (nv + 1);
    }
    if (!jobs) jobs = nproc > 0 ? (unsigned)nproc : 1u;
    if ((fo = sw_open_out("wormhole-sweep", out)) == NULL) return 1;
    if (!sw_mkdtemp(dir, sizeof dir, "whsweep")) return sw_fail(NULL, fo, out);
    {
        whs_ctx cx;
        cx.base = &o;
        cx.vary_seg = vary_seg;
        cx.vals = vals;
        cx.dir = dir;
        if (!run_points("wormhole-sweep", nv, jobs, whs_point, &cx))
            return sw_fail(dir, fo, out);
    }
    fprintf(fo, "%s", vary_seg ? "seg" : "load");
    for (c = 0; c < sizeof cols / sizeof cols[0]; c++) fprintf(fo, ",%s", cols[c]);
    fprintf(fo, "\n");
    for (k = 0; k < nv; k++) {
        char sum[256];
        snprintf(sum, sizeof sum, "%s/%u.csv", dir, k);
        if (vary_seg && vals[k] == 0) fprintf(fo, "adaptive");
        else fprintf(fo, "%g", vals[k]);
        for (c = 0; c < sizeof cols / sizeof cols[0]; c++)
            fprintf(fo, ",%g", sw_metric(sum, cols[c]));
        fprintf(fo, "\n");
        remove(sum);
    }
    sw_rmtemp(dir);
    if (out) return close_out(fo, out) ? 0 : 1;
    return fflush(fo) == 0 ? 0 : 1;
}

/* ---- fabric-check: a real InfiniBand fabric --------------------------- */
static void usage_fabric_check(FILE *out)
{
    fprintf(out,
"usage: ibccsim fabric-check --ibnetdiscover FILE [--lfts FILE]\n"
"  --ibnetdiscover FILE  topology as ibnetdiscover prints it (required)\n"
"  --lfts FILE           unicast forwarding tables (opensm-lfts.dump,\n"
"                        ibroute or dump_lfts output); without it\n"
"                        up/down routes are computed\n"
"Loads the fabric, follows the route from every host to every other host,\n"
"builds it with ibcc_fabric_create and prints\n"
"  hosts=N switches=M links=L routes_ok=R\n"
"or `file:line: reason` and exits 1. docs/topologies.md has the formats.\n");
}

/* The whole file in a malloc'd buffer (at most 256 MiB), or NULL with a
   message. */
static char *fc_read(const char *cmd, const char *flag, const char *path,
                     size_t *len)
{
    FILE *fp = fopen(path, "rb");
    char *buf = NULL;
    size_t cap = 0, n = 0;
    if (!fp) {
        where(flag);
        fprintf(stderr, "ibccsim %s: cannot read %s: %s\n", cmd, path,
                strerror(errno));
        return NULL;
    }
    for (;;) {
        size_t got;
        if (n == cap) {
            char *nb;
            if (cap >= ((size_t)256 << 20)) {
                where(flag);
                fprintf(stderr, "ibccsim %s: %s is too large\n", cmd, path);
                free(buf);
                fclose(fp);
                return NULL;
            }
            cap = cap ? cap * 2u : 65536u;
            nb = (char *)realloc(buf, cap);
            if (!nb) {
                free(buf);
                fclose(fp);
                fprintf(stderr, "ibccsim %s: out of memory\n", cmd);
                return NULL;
            }
            buf = nb;
        }
        got = fread(buf + n, 1, cap - n, fp);
        n += got;
        if (got == 0) break;
    }
    if (ferror(fp)) {
        int e = errno;
        where(flag);
        fprintf(stderr, "ibccsim %s: cannot read %s: %s\n", cmd, path,
                strerror(e));
        free(buf);
        fclose(fp);
        return NULL;
    }
    fclose(fp);
    if (n && memchr(buf, 0, n)) {
        where(flag);
        fprintf(stderr, "ibccsim %s: %s has a NUL byte at offset %lu: not "
                "a text file\n", cmd, path,
                (unsigned long)((char *)memchr(buf, 0, n) - buf));
        free(buf);
        return NULL;
    }
    *len = n;
    return buf;
}

static int fc_error(const ibcc_ibfabric_error *e)
{
    if (e->line)
        fprintf(stderr, "%s:%u: %s\n", e->file, e->line, e->reason);
    else
        fprintf(stderr, "%s: %s\n", e->file, e->reason);
    return 1;
}

/* A loaded fabric whose hosts share a name (adapters left with their
   default description): one warning on stderr, naming the first such
   name and its lines, since a lookup by that name is refused
   (ibcc_ibfabric_find_host: MISMATCH). */
static const ibcc_ibfabric *g_dup_f;
static int dup_cmp(const void *a, const void *b)
{
    uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
    int c = strcmp(g_dup_f->hosts[x].name, g_dup_f->hosts[y].name);
    return c ? c : (x > y) - (x < y);
}
static void fc_dup_names(const char *cmd, const ibcc_ibfabric *f)
{
    uint32_t *ix, i, n = 0, first = 0;
    if (f->host_count < 2) return;
    ix = (uint32_t *)malloc(f->host_count * sizeof *ix);
    if (!ix) return;
    for (i = 0; i < f->host_count; i++) ix[i] = i;
    g_dup_f = f;
    qsort(ix, f->host_count, sizeof *ix, dup_cmp);
    for (i = 0; i < f->host_count; i++)
        if ((i > 0 && !strcmp(f->hosts[ix[i]].name, f->hosts[ix[i - 1]].name))
            || (i + 1 < f->host_count
                && !strcmp(f->hosts[ix[i]].name, f->hosts[ix[i + 1]].name))) {
            if (!n++) first = i;
        }
    if (n)
        fprintf(stderr, "ibccsim %s: warning: %s: %lu hosts share their name "
                "with another (\"%s\" on lines %lu and %lu); lookups by such a "
                "name are refused: give a host index or a port GUID\n", cmd, f->topo_file, (unsigned long)n,
                f->hosts[ix[first]].name, (unsigned long)f->hosts[ix[first]].line,
                (unsigned long)f->hosts[ix[first + 1]].line);
    free(ix);
}

static int cmd_fabric_check(int argc, char **argv)
{
    const char *topo = NULL, *lfts = NULL;
    char *text = NULL;
    size_t len = 0;
    int i, rc = 1;
    ibcc_ibfabric ib;
    ibcc_ibfabric_error e;
    uint64_t pairs = 0;
    memset(&ib, 0, sizeof ib);
    for (i = 0; i < argc; i++) {
        const char *a = argv[i], *v = flag_value(argc, argv, i);
        if (!strcmp(a, "--help") || !strcmp(a, "-h")) {
            usage_fabric_check(stdout);
            return 0;
        } else if (!strcmp(a, "--ibnetdiscover")) {
            if (!v || !*v) return bad(a, v, "a file name");
            topo = v;
        } else if (!strcmp(a, "--lfts")) {
            if (!v || !*v) return bad(a, v, "a file name");
            lfts = v;
        } else {
            return unknown("fabric-check", a);
        }
        i++;
    }
    if (!topo) {
        fprintf(stderr, "ibccsim fabric-check: --ibnetdiscover FILE is required\n");
        usage_fabric_check(stderr);
        return 2;
    }
    if (!(text = fc_read("fabric-check", "--ibnetdiscover", topo, &len))) return 1;
    if (ibcc_ibfabric_parse(&ib, text, len, topo, NULL, &e) != IBCC_OK) {
        free(text);
        return fc_error(&e);
    }
    free(text);
    fc_dup_names("fabric-check", &ib);
    if (lfts) {
        if (!(text = fc_read("fabric-check", "--lfts", lfts, &len))) goto out;
        if (ibcc_ibfabric_lfts(&ib, text, len, lfts, &e) != IBCC_OK) {
            free(text);
            rc = fc_error(&e);
            goto out;
        }
        free(text);
    } else if (ibcc_ibfabric_updown(&ib, &e) != IBCC_OK) {
        rc = fc_error(&e);
        goto out;
    }
    if (ibcc_ibfabric_check(&ib, &pairs, &e) != IBCC_OK) {
        rc = fc_error(&e);
        goto out;
    }
    {
        /* a flow from every host to every other host (at most 2^20
           flows; beyond, each host to its next and its opposite host)
           so that ibcc_fabric_create walks every route too */
        uint64_t nh = ib.host_count, all = nh * (nh - 1u), k = 0;
        uint64_t nf = all <= (1u << 20) ? all : 2u * nh;
        ibcc_fabric_flow *fl = (ibcc_fabric_flow *)calloc(nf ? nf : 1u, sizeof *fl);
        ibcc_fabric_desc d;
        ibcc_fabric *f = NULL;
        ibcc_result r;
        uint32_t s, t;
        if (!fl) {
            fprintf(stderr, "ibccsim fabric-check: out of memory\n");
            goto out;
        }
        for (s = 0; s < ib.host_count; s++)
            for (t = 0; t < ib.host_count; t++) {
                int take = all == nf ? s != t
                    : (t == (s + 1u) % ib.host_count
                       || t == (s + ib.host_count / 2u) % ib.host_count);
                if (!take || s == t || k >= nf) continue;
                fl[k].src = ib.hosts[s].node;
                fl[k].dst = ib.hosts[t].node;
                k++;
            }
        memset(&d, 0, sizeof d);
        (void)ibcc_ibfabric_to_desc(&ib, &d);
        d.flows = fl;
        d.flow_count = (uint32_t)k;
        r = fabric_create("fabric-check", &f, &d);
        ibcc_fabric_destroy(f);
        free(fl);
        if (r != IBCC_OK) goto out;
    }
    printf("hosts=%u switches=%u links=%u routes_ok=%llu\n", ib.host_count,
           ib.switch_count, ib.link_count, (unsigned long long)pairs);
    rc = fflush(stdout) == 0 ? 0 : 1;
out:
    ibcc_ibfabric_free(&ib);
    return rc;
}

/* ---- custom: a fabric composed from its parts ---------------------------
   The topology (a builder, the two-switch builder or a real fabric read by
   the InfiniBand loader), the switches, the marking engine, the source
   agent and the traffic, each named by a flag and composed through ibcc.h's
   public API only. Statistics are the library's, of DELIVERED packets: the
   class statistics are cleared at the end of the warm-up, so every figure
   covers [warmup, time]. Loads and throughputs are fractions of the
   reference rate: the slowest link that attaches a host. */
enum { CU_FATTREE, CU_NFLY, CU_MESH, CU_TORUS, CU_TWOSWITCH, CU_IBNET };
static const char *const cu_topos[] = {"fattree", "nfly", "mesh", "torus",
                                       "twoswitch", "ibnetdiscover"};
enum { CU_UNIFORM, CU_PERMUTATION, CU_INCAST, CU_HOTSPOT, CU_VICTIM };
static const char *const cu_traffics[] = {"uniform", "permutation", "incast",
                                          "hotspot", "victim"};
/* indexed by ibcc_marker_engine and by IBCC_AGENT_* */
static const char *const cu_markers[] = {"none", "naive", "input", "io",
                                         "iba", "mvpm"};
static const char *const cu_agents[] = {"none", "window", "law", "fixed",
                                        "cct", "mvcm"};
#define CU_N(a) ((int)(sizeof a / sizeof a[0]))
#define CU_MAX_GIVEN 96

typedef struct cu_opts {
    int topo, traffic, marker, agent, law, kind;
    unsigned k, n, x, y, hps, root, local, remote;
    const char *ibnet, *lfts;
    unsigned buf_packets, buf_credits, out_buf_packets, speedup, bypass;
    unsigned data_size, nic_fifo, fanout, defer;
    ibcc_arb_policy arbiter;
    double link_gbytes, prop_ns, fwd_ns;
    ibcc_classify classify;
    unsigned trigger, t_out, threshold, marking_rate, packet_size;
    unsigned mvpm_in, mvpm_out;
    unsigned window, discrete, rmin_div;
    double fixed_rate;
    const char *cct;
    unsigned ccti_timer, ccti_increase, ccti_limit, dw_max, mvcm_hops;
    double load, load_bytes, background;
    unsigned msg_bytes, hot_sources;
    const char *hot_dst;
    unsigned long long hot_packets, start_after, seed;
    double victim_from, victim_to, time_ms, warmup_ms, bin_ms;
    const char *series, *summary;
    int quiet;
    const char *given[CU_MAX_GIVEN];
    unsigned ngiven;
} cu_opts;

static void cu_defaults(cu_opts *o)
{
    memset(o, 0, sizeof *o);
    o->topo = -1; o->traffic = -1;
    o->k = 2; o->n = 3; o->x = 4; o->y = 4; o->hps = 1;
    o->local = 10; o->remote = 10;
    o->kind = IBCC_SWITCH_VCT; o->buf_packets = 4; o->bypass = 4;
    o->data_size = 2068; o->arbiter = IBCC_ARB_OLDEST;
    o->link_gbytes = 1; o->prop_ns = 5; o->fwd_ns = 40;
    o->threshold = 15; o->law = IBCC_LAW_LIPD; o->rmin_div = 256;
    o->cct = "linear"; o->ccti_timer = 150; o->ccti_increase = 1;
    o->dw_max = 2; o->hot_packets = 1000;
    o->time_ms = 10; o->seed = 1;
}

static void usage_custom(FILE *out)
{
    fprintf(out,
"usage: ibccsim custom --topology T [flags]\n"
"A fabric composed from its parts through ibcc.h: topology, switches,\n"
"marking engine, source agent and traffic. Every figure counts DELIVERED\n"
"packets in [warmup, time]; rates are fractions of the reference rate, the\n"
"slowest link that attaches a host. A flag that does not apply to the\n"
"configuration (speedup with vct switches) is refused. In a scenario file:\n"
"experiment = custom and these flags without '--' (ibccsim run FILE).\n"
"topology\n"
"  --topology fattree|nfly|mesh|torus|twoswitch|ibnetdiscover   (required)\n"
"  --k K --n N           fattree, nfly: k-ary n-tree / n-fly (2..16, 1..6)\n"
"                                                               [2, 3]\n"
"  --x X --y Y           mesh, torus: switches per dimension (1..1024) [4, 4]\n"
"  --hps H               mesh, torus: hosts per switch (1..64)  [1]\n"
"  --root R              mesh, torus: up/down root switch (0..2^20) [0]\n"
"  --local L --remote R  twoswitch: sources on B and on A (1..64) [10, 10]\n"
"  --ibnetdiscover FILE  ibnetdiscover: the topology (required)\n"
"  --lfts FILE           ibnetdiscover: forwarding tables [up/down routes]\n"
"switches and links\n"
"  --switch-kind vct|cioq                                       [vct]\n"
"  --buf-packets N       input buffer, packets (1..65535)       [4]\n"
"  --buf-credits N       input buffer, 64-byte credits (1..2^20) [packets only]\n"
"  --out-buf-packets N   cioq: output buffer, packets (1..65535) [buf-packets]\n"
"  --speedup S           cioq: crossbar speedup (1..16)         [2]\n"
"  --input-fanout        vct: an input buffer sends to several outputs\n"
"                        at once ([S02]/[S03]'s switch) [one at a time]\n"
"  --arbiter oldest|fifo|rr|voq                                 [oldest]\n"
"  --bypass N            oldest: bypasses per head (1..65535)   [4]\n"
"  --link-gbytes G       link rate, GB/s (0.001..10000; a loaded fabric's\n"
"                        links keep the rate of their width x speed) [1]\n"
"  --prop-ns X           propagation delay per link, ns (0.001..10^6) [5]\n"
"  --fwd-ns X            switch forwarding delay, ns (0..10^6)  [40]\n"
"  --data-size BYTES     data packet on the wire (1..65535)     [2068]\n"
"  --nic-fifo            one FIFO per host instead of one queue per\n"
"                        destination (uniform or hotspot traffic only)\n"
);
    fprintf(out,
"marking engine\n"
"  --marker none|naive|input|io|iba|mvpm                        [none]\n"
"  --classify all|busy   naive, input, io                       [all]\n"
"  --trigger N           naive, input, io: occupancy that triggers\n"
"                        (1..65535, at most the buffer)         [full]\n"
"  --defer-trigger       naive, input, io: a full buffer triggers after the\n"
"                        instant's packets started (cut-through)  [off]\n"
"  --out-threshold N     io: output threshold T_out (1..65535)  [8]\n"
"  --threshold W         iba: Threshold (0..15)                 [15]\n"
"  --marking-rate N      iba: Marking_Rate (0..65535)           [0]\n"
"  --packet-size N       iba: Packet_Size, 64-byte units (0..255) [0]\n"
"  --mvpm-in N --mvpm-out N  mvpm: marking and validation levels\n"
"                        (1..65535, 1..16776960)                [2/3, 1/3]\n"
"source agent\n"
"  --agent none|window|law|fixed|cct|mvcm                       [none]\n"
"  --window N|none       every agent but mvcm: unacknowledged packets\n"
"                        per flow (1..10^6; required by window) [none]\n"
"  --law lipd|fimd|aimd  law: the rate law                      [lipd]\n"
"  --discrete            law: discrete IPD rates\n"
"  --rmin-div D          law: Rmin = Rmax / D (2..65536)        [256]\n"
"  --fixed-rate X        fixed: each flow's rate, fraction (10^-9..1; required)\n"
"  --cct linear|quadratic|FILE  cct: the table (FILE: OpenSM cc_cct or\n"
"                        ibccconfig CongestionControlTable lines) [linear]\n"
"  --ccti-timer N        cct: CCTI_Timer, 1.024 us units (1..65535) [150]\n"
"  --ccti-increase N     cct: CCTI_Increase (1..255)            [1]\n"
"  --ccti-limit N        cct: CCTI_Limit (0..16383)             [the last entry]\n"
"  --dw-max N            mvcm: largest dynamic window (1..65535) [2]\n"
"  --mvcm-hops N         mvcm: links of the longest path (1..1024), for the\n"
"                        waiting slot RTTmin [from the builder; required\n"
"                        for ibnetdiscover]\n"
);
    fprintf(out,
"traffic (classes: 0 background or uniform, 1 incast/hot spot, 2 background\n"
"to the hot host; victim: 0 locals, 1 remotes, 2 the victim)\n"
"  --traffic uniform|permutation|incast|hotspot|victim\n"
"                        victim: twoswitch's flows (locals then remotes\n"
"                        start 100 us apart) [uniform; twoswitch: victim]\n"
"  --load X              uniform: offered per host; hotspot: per source,\n"
"                        fraction of the reference rate (10^-9..1)\n"
"  --load-bytes B        the same in bytes/s (1..10^13)\n"
"  --msg-bytes N         traffic in messages of N bytes (1..2^31)\n"
"  --hot-dst H           incast, hotspot: destination host index (or a\n"
"                        host name of a loaded fabric)          [last host]\n"
"  --hot-sources N       incast, hotspot: sources (1..2^20), spread over\n"
"                        the other hosts                        [all others]\n"
"  --hot-packets N       hotspot: packets per source (1..10^9)  [1000]\n"
"  --start-after N       hotspot: start once N data packets were delivered\n"
"                        (0..10^12)                             [0]\n"
"  --background X        incast, hotspot: uniform traffic at X as well\n"
"                        (10^-9..1)\n"
"  --victim-from MS --victim-to MS  victim: its active window (0..10000)\n"
"                                                         [whole run]\n"
"run and outputs\n"
"  --time MS             simulated time (10^-6..10000)          [10]\n"
"  --warmup MS           not measured (0..10000, below time)    [time / 10]\n"
"  --seed N              random seed (Poisson arrivals, permutation;\n"
"                        0..2^64-1)                             [1]\n"
"  --bin MS              series resolution (10^-6..10000)       [time / 100]\n"
"  --series FILE         CSV: time_ms and each class's delivered rate\n"
"  --summary FILE        CSV metric,value: per class throughput, mean and\n"
"                        p99 latency, marked fraction; counters; identities\n"
"                        and conserved (ibcc_fabric_check)\n"
"  --quiet               no summary line on standard output\n");
}

/* Value parsers: 0, or 2 after the message (bad() names the file line). */
static int cu_uint(const char *a, const char *v, unsigned long long lo,
                   unsigned long long hi, unsigned *out)
{
    unsigned long long u;
    char why[64];
    if (!parse_uint(v, lo, hi, &u)) {
        snprintf(why, sizeof why, "an integer %llu..%llu", lo, hi);
        return bad(a, v, why);
    }
    *out = (unsigned)u;
    return 0;
}

static int cu_u64(const char *a, const char *v, unsigned long long lo,
                  unsigned long long hi, unsigned long long *out)
{
    char why[64];
    if (!parse_uint(v, lo, hi, out)) {
        snprintf(why, sizeof why, "an integer %llu..%llu", lo, hi);
        return bad(a, v, why);
    }
    return 0;
}

static int cu_double(const char *a, const char *v, double lo, double hi,
                     const char *why, double *out)
{
    return parse_double(v, lo, hi, out) ? 0 : bad(a, v, why);
}

static int cu_text(const char *a, const char *v, const char *why,
                   const char **out)
{
    if (!v || !*v) return bad(a, v, why);
    *out = v;
    return 0;
}

static int cu_name(const char *a, const char *v, const char *const *names,
                   int n, int *out)
{
    char why[128] = "one of";
    int i;
    for (i = 0; i < n; i++)
        if (v && !strcmp(v, names[i])) {
            *out = i;
            return 0;
        }
    for (i = 0; i < n; i++) {
        strcat(why, i ? ", " : " ");
        strcat(why, names[i]);
    }
    return bad(a, v, why);
}

static int cu_given(const cu_opts *o, const char *flag)
{
    unsigned i;
    for (i = 0; i < o->ngiven; i++)
        if (!strcmp(o->given[i], flag)) return 1;
    return 0;
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

/* A topology builder's refusal: its reason names the argument ("root 16:
   a switch 0..15"), which is the flag of the same name. */
static int cu_topo_refused(const ibcc_topo *t)
{
    char flag[16];
    size_t n = strcspn(t->error.reason, " :");
    if (n == 0 || n > 8 || t->error.code == IBCC_ERR_NOMEM)
        return cu_refuse("--topology", "the topology cannot be built: %s",
                         t->error.reason);
    snprintf(flag, sizeof flag, "--%.*s", (int)n, t->error.reason);
    return cu_refuse(flag, "--%s", t->error.reason);
}

/* Refuses `flag` when it was given but does not apply. */
static int cu_only(const cu_opts *o, const char *flag, int applies,
                   const char *when)
{
    if (applies || !cu_given(o, flag)) return 0;
    return cu_refuse(flag, "%s applies only %s", flag, when);
}

static int cu_parse(int argc, char **argv, cu_opts *o)
{
    int i, rc, t;
    for (i = 0; i < argc; i++) {
        const char *a = argv[i], *v = flag_value(argc, argv, i);
        if (!strcmp(a, "--help") || !strcmp(a, "-h")) {
            usage_custom(stdout);
            return 1;
        }
        if (strncmp(a, "--", 2) != 0) {
            fprintf(stderr, "ibccsim custom: unexpected argument '%s'\n", a);
            return 2;
        }
        if (o->ngiven < CU_MAX_GIVEN) o->given[o->ngiven++] = a;
        if (!strcmp(a, "--quiet")) { o->quiet = 1; continue; }
        if (!strcmp(a, "--nic-fifo")) { o->nic_fifo = 1; continue; }
        if (!strcmp(a, "--input-fanout")) { o->fanout = 1; continue; }
        if (!strcmp(a, "--defer-trigger")) { o->defer = 1; continue; }
        if (!strcmp(a, "--discrete")) { o->discrete = 1; continue; }
        rc = 0;
        if (!strcmp(a, "--topology"))
            rc = cu_name(a, v, cu_topos, CU_N(cu_topos), &o->topo);
        else if (!strcmp(a, "--k")) rc = cu_uint(a, v, 2, 16, &o->k);
        else if (!strcmp(a, "--n")) rc = cu_uint(a, v, 1, 6, &o->n);
        else if (!strcmp(a, "--x")) rc = cu_uint(a, v, 1, 1024, &o->x);
        else if (!strcmp(a, "--y")) rc = cu_uint(a, v, 1, 1024, &o->y);
        else if (!strcmp(a, "--hps")) rc = cu_uint(a, v, 1, 64, &o->hps);
        else if (!strcmp(a, "--root")) rc = cu_uint(a, v, 0, 1u << 20, &o->root);
        else if (!strcmp(a, "--local"))
            rc = cu_uint(a, v, 1, IBCC_TWOSWITCH_MAX, &o->local);
        else if (!strcmp(a, "--remote"))
            rc = cu_uint(a, v, 1, IBCC_TWOSWITCH_MAX, &o->remote);
        else if (!strcmp(a, "--ibnetdiscover"))
            rc = cu_text(a, v, "a file name", &o->ibnet);
        else if (!strcmp(a, "--lfts")) rc = cu_text(a, v, "a file name", &o->lfts);
        else if (!strcmp(a, "--series"))
            rc = cu_text(a, v, "a file name", &o->series);
        else if (!strcmp(a, "--summary"))
            rc = cu_text(a, v, "a file name", &o->summary);
        else if (!strcmp(a, "--cct"))
            rc = cu_text(a, v, "linear, quadratic or a file name", &o->cct);
        else if (!strcmp(a, "--hot-dst"))
            rc = cu_text(a, v, "a host index or name", &o->hot_dst);
        else if (!strcmp(a, "--switch-kind")) {
            static const char *const kinds[] = {"vct", "cioq"};
            rc = cu_name(a, v, kinds, 2, &t);
            o->kind = t ? IBCC_SWITCH_CIOQ : IBCC_SWITCH_VCT;
        } else if (!strcmp(a, "--buf-packets"))
            rc = cu_uint(a, v, 1, 65535, &o->buf_packets);
        else if (!strcmp(a, "--buf-credits"))
            rc = cu_uint(a, v, 1, 1u << 20, &o->buf_credits);
        else if (!strcmp(a, "--out-buf-packets"))
            rc = cu_uint(a, v, 1, 65535, &o->out_buf_packets);
        else if (!strcmp(a, "--speedup")) rc = cu_uint(a, v, 1, 16, &o->speedup);
        else if (!strcmp(a, "--arbiter")) {
            /* in ibcc_arb_policy order */
            static const char *const arbs[] = {"oldest", "fifo", "rr", "voq"};
            rc = cu_name(a, v, arbs, 4, &t);
            o->arbiter = (ibcc_arb_policy)t;
        } else if (!strcmp(a, "--bypass")) rc = cu_uint(a, v, 1, 65535, &o->bypass);
        else if (!strcmp(a, "--link-gbytes"))
            rc = cu_double(a, v, 1e-3, 1e4, "GB/s, from 0.001 to 10000",
                           &o->link_gbytes);
        else if (!strcmp(a, "--prop-ns"))
            rc = cu_double(a, v, 1e-3, 1e6, "ns, from 0.001 to 10^6", &o->prop_ns);
        else if (!strcmp(a, "--fwd-ns"))
            rc = cu_double(a, v, 0, 1e6, "ns, from 0 to 10^6", &o->fwd_ns);
        else if (!strcmp(a, "--data-size"))
            rc = cu_uint(a, v, 1, 65535, &o->data_size);
        else if (!strcmp(a, "--marker"))
            rc = cu_name(a, v, cu_markers, CU_N(cu_markers), &o->marker);
        else if (!strcmp(a, "--classify")) {
            static const char *const cls[] = {"all", "busy"};
            rc = cu_name(a, v, cls, 2, &t);
            o->classify = t ? IBCC_CLASSIFY_BUSY : IBCC_CLASSIFY_ALL;
        } else if (!strcmp(a, "--trigger")) rc = cu_uint(a, v, 1, 65535, &o->trigger);
        else if (!strcmp(a, "--out-threshold"))
            rc = cu_uint(a, v, 1, 65535, &o->t_out);
        else if (!strcmp(a, "--threshold")) rc = cu_uint(a, v, 0, 15, &o->threshold);
        else if (!strcmp(a, "--marking-rate"))
            rc = cu_uint(a, v, 0, 65535, &o->marking_rate);
        else if (!strcmp(a, "--packet-size"))
            rc = cu_uint(a, v, 0, 255, &o->packet_size);
        else if (!strcmp(a, "--mvpm-in")) rc = cu_uint(a, v, 1, 65535, &o->mvpm_in);
        else if (!strcmp(a, "--mvpm-out"))
            rc = cu_uint(a, v, 1, IBCC_MARKER_MAX_OUT, &o->mvpm_out);
        else if (!strcmp(a, "--agent"))
            rc = cu_name(a, v, cu_agents, CU_N(cu_agents), &o->agent);
        else if (!strcmp(a, "--window")) {
            unsigned long long u;
            if (v && !strcmp(v, "none")) o->window = 0;
            else if (parse_uint(v, 1, 1000000, &u)) o->window = (unsigned)u;
            else rc = bad(a, v, "an integer 1..1000000 or 'none'");
        } else if (!strcmp(a, "--law")) {
            char why[256];
            if (!law_parse(v, &o->law))
                rc = bad(a, v, law_list(why, sizeof why, "one of ", ", "));
        } else if (!strcmp(a, "--rmin-div"))
            rc = cu_uint(a, v, 2, 65536, &o->rmin_div);
        else if (!strcmp(a, "--fixed-rate"))
            rc = cu_double(a, v, 1e-9, 1, "a fraction of the reference rate, 10^-9..1",
                           &o->fixed_rate);
        else if (!strcmp(a, "--ccti-timer"))
            rc = cu_uint(a, v, 1, 65535, &o->ccti_timer);
        else if (!strcmp(a, "--ccti-increase"))
            rc = cu_uint(a, v, 1, 255, &o->ccti_increase);
        else if (!strcmp(a, "--ccti-limit"))
            rc = cu_uint(a, v, 0, 16383, &o->ccti_limit);
        else if (!strcmp(a, "--dw-max")) rc = cu_uint(a, v, 1, 65535, &o->dw_max);
        else if (!strcmp(a, "--mvcm-hops"))
            rc = cu_uint(a, v, 1, 1024, &o->mvcm_hops);
        else if (!strcmp(a, "--traffic"))
            rc = cu_name(a, v, cu_traffics, CU_N(cu_traffics), &o->traffic);
        else if (!strcmp(a, "--load") || !strcmp(a, "--background"))
            rc = cu_double(a, v, 1e-9, 1, "a fraction of the reference rate, 10^-9..1",
                           !strcmp(a, "--load") ? &o->load : &o->background);
        else if (!strcmp(a, "--load-bytes"))
            rc = cu_double(a, v, 1, 1e13, "bytes/s, from 1 to 10^13", &o->load_bytes);
        else if (!strcmp(a, "--msg-bytes"))
            rc = cu_uint(a, v, 1, 1u << 31, &o->msg_bytes);
        else if (!strcmp(a, "--hot-sources"))
            rc = cu_uint(a, v, 1, 1u << 20, &o->hot_sources);
        else if (!strcmp(a, "--hot-packets"))
            rc = cu_u64(a, v, 1, 1000000000, &o->hot_packets);
        else if (!strcmp(a, "--start-after"))
            rc = cu_u64(a, v, 0, 1000000000000ull, &o->start_after);
        else if (!strcmp(a, "--victim-from") || !strcmp(a, "--victim-to"))
            rc = cu_double(a, v, 0, 10000, "milliseconds, 0..10000",
                           !strcmp(a, "--victim-from") ? &o->victim_from
                                                       : &o->victim_to);
        else if (!strcmp(a, "--time"))
            rc = cu_double(a, v, 1e-6, 10000, "milliseconds, 10^-6..10000",
                           &o->time_ms);
        else if (!strcmp(a, "--warmup"))
            rc = cu_double(a, v, 0, 10000, "milliseconds, 0..10000",
                           &o->warmup_ms);
        else if (!strcmp(a, "--bin"))
            rc = cu_double(a, v, 1e-6, 10000, "milliseconds, 10^-6..10000",
                           &o->bin_ms);
        else if (!strcmp(a, "--seed")) rc = cu_u64(a, v, 0, ~0ull, &o->seed);
        else return unknown("custom", a);
        if (rc) return rc;
        i++;
    }
    return 0;
}

/* Checks that involve several flags, and the defaults that depend on
   others. 0, or 2 after a message naming the flag to blame. */
static int cu_check(cu_opts *o)
{
    int tree = o->topo == CU_FATTREE || o->topo == CU_NFLY;
    int grid = o->topo == CU_MESH || o->topo == CU_TORUS;
    int santos = o->marker >= IBCC_MARKER_NAIVE
                 && o->marker <= IBCC_MARKER_INPUT_OUTPUT;
    int hot, ratey, i, rc;
    ibcc_law_desc ld;
    if (o->topo < 0)
        return cu_refuse("--topology", "--topology is required (fattree, "
                         "nfly, mesh, torus, twoswitch, ibnetdiscover)");
    if (o->traffic < 0)
        o->traffic = o->topo == CU_TWOSWITCH ? CU_VICTIM : CU_UNIFORM;
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
            {"--root", grid, "to topology = mesh or torus"},
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
            {"--victim-to", o->traffic == CU_VICTIM, "to traffic = victim"},
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
    if (o->agent == IBCC_AGENT_MVCM && o->topo == CU_IBNET && !o->mvcm_hops)
        return cu_refuse("--agent", "agent = mvcm on a loaded fabric needs "
                         "--mvcm-hops N (links of the longest path)");
    if (o->load && o->load_bytes)
        return cu_refuse("--load-bytes", "give --load or --load-bytes, not both");
    if (ratey && !o->load && !o->load_bytes)
        return cu_refuse("--traffic", "traffic = %s needs --load X (a fraction "
                         "of the reference rate) or --load-bytes B",
                         cu_traffics[o->traffic]);
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
    case CU_FATTREE:
    case CU_NFLY:
        r = o->topo == CU_FATTREE ? ibcc_topo_fattree(&net->topo, o->k, o->n, NULL)
                                  : ibcc_topo_nfly(&net->topo, o->k, o->n, NULL);
        if (r != IBCC_OK)
            return cu_topo_refused(&net->topo);
        break;
    case CU_MESH:
    case CU_TORUS:
        r = ibcc_topo_mesh(&net->topo, o->x, o->y, o->hps,
                           o->topo == CU_TORUS, o->root, NULL);
        if (r != IBCC_OK)
            return cu_topo_refused(&net->topo);
        break;
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
    if (o->traffic == CU_PERMUTATION) cap += nh;
    if (o->traffic == CU_VICTIM) cap += net->ts.flow_count;
    if (cap > (1u << 24))
        return cu_refuse("--traffic", "%llu flows: at most 2^24",
                         (unsigned long long)cap);
    net->flows = (ibcc_fabric_flow *)calloc((size_t)cap, sizeof *net->flows);
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
    if (o->traffic == CU_PERMUTATION)
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
        if (o->agent == IBCC_AGENT_FIXED)
            x->rate = (ibcc_rate)(o->fixed_rate * ref + 0.5);
    }
    net->nf = n;
    d->flows = net->flows;
    d->flow_count = n;
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
    }
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
    fprintf(fp, "time_ms");
    for (c = 0; c < IBCC_FABRIC_CLASSES; c++)
        if (res->cls[c].flows) fprintf(fp, ",class%u_rate", c);
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
        fprintf(fp, "%.4f", (double)(t + len / 2u) / 1e9);
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
    if ((r = ibcc_fabric_run_until(f, warm)) != IBCC_OK) goto out;
    (void)ibcc_fabric_counters_get(f, &res->c0);
    (void)ibcc_fabric_stats_reset(f);
    if ((r = ibcc_fabric_run_until(f, end)) != IBCC_OK) goto out;
    res->conserved = ibcc_fabric_check(f) == IBCC_OK;
    (void)ibcc_fabric_counters_get(f, &res->c1);
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
        fprintf(stderr, "ibccsim custom: run: %s\n", ibcc_result_str(r));
    ibcc_fabric_destroy(f);
    return ok;
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
    fprintf(fp, "ref_gbytes,%.6f\ntime_ms,%g\nwarmup_ms,%g\nseed,%llu\n",
            ref * 1e-9, o->time_ms, o->warmup_ms, o->seed);
    fprintf(fp, "accepted_per_host,%.6f\n",
            (double)r->bytes / r->secs / net->nh / ref);
    for (c = 0; c < IBCC_FABRIC_CLASSES; c++) {
        const ibcc_fabric_class_stats *s = &r->cls[c];
        double n = s->delivered ? (double)s->delivered : 1.0;
        if (!s->flows) continue;
        fprintf(fp, "class%u_flows,%u\nclass%u_packets,%llu\n", c, s->flows,
                c, (unsigned long long)s->delivered);
        fprintf(fp, "class%u_rate,%.6f\nclass%u_gbps,%.6f\n", c,
                (double)s->delivered_bytes / r->secs / ref, c,
                (double)s->delivered_bytes * 8e-9 / r->secs);
        fprintf(fp, "class%u_latency_us,%.4f\nclass%u_p99_us,%.4f\n", c,
                (double)s->lat_sum / n / 1e6, c, r->p99_us[c]);
        fprintf(fp, "class%u_marked_fraction,%.6f\n", c, (double)s->marked / n);
    }
    fprintf(fp, "packets_injected,%llu\npackets_delivered,%llu\n"
            "data_delivered,%llu\nbytes_sent,%llu\nbytes_delivered,%llu\n"
            "bytes_in_network,%llu\nlink_hops,%llu\n",
            (unsigned long long)r->c1.injected,
            (unsigned long long)r->c1.delivered,
            (unsigned long long)r->c1.data_delivered,
            (unsigned long long)r->c1.bytes_sent,
            (unsigned long long)r->c1.bytes_delivered,
            (unsigned long long)r->c1.bytes_in_network,
            (unsigned long long)r->c1.hops);
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
    printf("; conserved=%d\n", r->conserved && r->identities);
}

static int cmd_custom(int argc, char **argv)
{
    static cu_net net;
    cu_opts o;
    cu_res res;
    ibcc_fabric_desc d;
    int rc;
    cu_defaults(&o);
    rc = cu_parse(argc, argv, &o);
    if (rc == 1) return 0;
    if (rc) return rc;
    if ((rc = cu_check(&o)) != 0) return rc;
    memset(&net, 0, sizeof net);
    memset(&d, 0, sizeof d);
    memset(&res, 0, sizeof res);
    rc = cu_topology(&o, &net, &d);
    if (!rc) rc = cu_traffic(&o, &net, &d);
    if (!rc) rc = cu_engines(&o, &net, &d);
    if (!rc && !cu_run(&o, &net, &d, &res)) rc = 1;
    if (!rc && o.summary && !cu_write_summary(&o, &net, &d, &res)) rc = 1;
    if (!rc && !o.quiet) cu_print(&o, &net, &res);
    if (!rc && !(res.conserved && res.identities)) {
        fprintf(stderr, "ibccsim custom: %s\n", res.conserved
                ? "the counters' identities do not hold"
                : "ibcc_fabric_check: packets or credits not conserved");
        rc = 1;
    }
    cu_free(&net);
    return rc;
}

/* ---- run: a scenario file -----------------------------------------------
   A scenario file names one experiment and its settings, one per line:

       # the [G] testbed, scenario 1, CC on
       experiment = gran        # twoswitch gran gran-sweep mvcm mvcm-sweep
                                # recovery fabric-check demo custom
       cc = on
       cc_sw_cong_setting_threshold = 15     # OpenSM option names work too
       summary = gran1.csv

   Keys are the experiment's flags without the leading "--" (see
   `ibccsim SUBCOMMAND --help`); a flag without a value (sc_switches)
   takes yes/on/true or no/off/false, any other flag its value as written.
   The OpenSM congestion-control options that the experiment has a flag
   for are accepted under their opensm.conf names; per-SL options take
   OpenSM's "SL value" form and must be the same for every SL given.
   '#' starts a comment; blank lines are ignored. Errors name the file and
   line: a line without "key = value", an unknown key (reported by the
   experiment, with its line) or a bad value. */
static const char *const sc_opensm[][2] = {
    {"cc_sw_cong_setting_threshold", "threshold"},
    {"cc_sw_cong_setting_marking_rate", "marking-rate"},
    {"cc_sw_cong_setting_packet_size", "packet-size"},
    {"cc_ca_cong_setting_ccti_timer", "ccti-timer"},
    {"cc_ca_cong_setting_ccti_increase", "ccti-increase"},
};

/* The flags of each experiment that take no value (switches): in a
   scenario file they take yes/on/true or no/off/false; every other key is
   handed to the experiment with its value, whatever it is (so "cc = no"
   is the experiment's error, never a key dropped). tests/scenarios.sh
   compares this table with every experiment's --help. */
static const char *const sc_switches[][2] = {
    {"twoswitch", " discrete fixed-rates persistent quiet "},
    {"recovery", " discrete "},
    {"gran", " quiet "},
    {"gran-sweep", " list "},
    {"mvcm", " no-warm no-cap input-only validated formula vct tree quiet "},
    {"mvcm-sweep", " "},
    {"wormhole", " switch-prio quiet "},
    {"wormhole-sweep", " switch-prio quiet "},  /* wormhole's, passed on */
    {"fabric-check", " "},
    {"demo", " "},
    {"custom", " input-fanout nic-fifo defer-trigger discrete quiet "},
};

static char *sc_trim(char *p)
{
    char *e;
    while (*p == ' ' || *p == '\t') p++;
    e = p + strlen(p);
    while (e > p && (e[-1] == ' ' || e[-1] == '\t' || e[-1] == '\r'
                     || e[-1] == '\n')) *--e = 0;
    return p;
}

static int cmd_run(int argc, char **argv)
{
    static char text[1 << 16], vals[SC_MAX_KEYS][256], flags[SC_MAX_KEYS][80];
    int sls[SC_MAX_KEYS], sl;       /* each key's SL when per-SL, else -1 */
    char *args[2 * SC_MAX_KEYS + 1], *line, *next;
    const char *path, *kind = NULL;
    unsigned ln = 0, nargs = 0, kind_line = 0;
    size_t n;
    FILE *fp;
    int rc;
    if (argc != 1 || !strcmp(argv[0], "--help") || !strcmp(argv[0], "-h")) {
        printf("usage: ibccsim run FILE\n"
               "Runs the experiment a scenario file describes: 'key = value' lines,\n"
               "the key 'experiment' naming the subcommand (twoswitch, gran,\n"
               "gran-sweep, mvcm, mvcm-sweep, recovery, fabric-check, demo, custom,\n"
               "wormhole, wormhole-sweep)\n"
               "and the others its flags without '--' (yes or no for flags without a\n"
               "value, also on/off, true/false; other flags take their value) or\n"
               "OpenSM cc_* option names; '#' comments. examples/scenarios/\n"
               "has one per experiment; docs/topologies.md describes the format and\n"
               "the keys of custom. Relative summary, series and out files go to the\n"
               "folder $IBCCSIM_OUT (default out/, created; '.' for here).\n");
        return argc == 1 ? 0 : 2;
    }
    path = argv[0];
    fp = fopen(path, "r");
    if (!fp) {
        fprintf(stderr, "ibccsim run: cannot read %s: %s\n", path, strerror(errno));
        return 2;
    }
    n = fread(text, 1, sizeof text - 1u, fp);
    if (!feof(fp)) {
        fprintf(stderr, "ibccsim run: %s: more than %u bytes\n", path,
                (unsigned)sizeof text - 1u);
        fclose(fp);
        return 2;
    }
    fclose(fp);
    text[n] = 0;
    g_file = path;
    g_nkeys = 0;
    for (line = text; line && *line; line = next) {
        char *eq, *key, *val, *hash;
        unsigned i;
        next = strchr(line, '\n');
        if (next) *next++ = 0;
        ln++;
        if ((hash = strchr(line, '#')) != NULL) *hash = 0;
        line = sc_trim(line);
        if (!*line) continue;
        eq = strchr(line, '=');
        if (!eq) {
            fprintf(stderr, "%s:%u: expected 'key = value'\n", path, ln);
            return 2;
        }
        *eq = 0;
        key = sc_trim(line);
        val = sc_trim(eq + 1);
        if (!*key || !*val) {
            fprintf(stderr, "%s:%u: expected 'key = value' (empty %s)\n",
                    path, ln, *key ? "value" : "key");
            return 2;
        }
        if (!strcmp(key, "experiment")) {
            if (kind) {
                fprintf(stderr, "%s:%u: 'experiment' given twice (first at line %u)\n",
                        path, ln, kind_line);
                return 2;
            }
            kind = args[0] = vals[0];
            snprintf(vals[0], sizeof vals[0], "%s", val);
            kind_line = ln;
            continue;
        }
        sl = -1;
        for (i = 0; i < sizeof sc_opensm / sizeof sc_opensm[0]; i++)
            if (!strcmp(key, sc_opensm[i][0])) {
                /* per-SL options: "SL value", the SL 0..15 */
                char *sp = strpbrk(val, " \t");
                if (!strncmp(key, "cc_ca_", 6) && sp) {
                    unsigned long long u;
                    *sp = 0;
                    if (!parse_uint(val, 0, 15, &u)) {
                        fprintf(stderr, "%s:%u: bad SL '%s' for %s: a service"
                                " level 0..15\n", path, ln, val, key);
                        return 2;
                    }
                    sl = (int)u;
                    val = sc_trim(sp + 1);
                }
                key = (char *)sc_opensm[i][1];
                break;
            }
        if (g_nkeys + 1u >= SC_MAX_KEYS || strlen(key) > 70 || strlen(val) > 250) {
            fprintf(stderr, "%s:%u: too many keys or a key or value too long\n",
                    path, ln);
            return 2;
        }
        for (i = 0; i < g_nkeys; i++)
            if (!strcmp(g_key[i], key)) {
                /* one value serves every SL: a per-SL line for another SL
                   with the same value says nothing new */
                if (sl >= 0 && sls[i] >= 0 && sl != sls[i]
                    && !strcmp(vals[i + 1u], val)) break;
                fprintf(stderr, "%s:%u: '%s' given twice (first at line %u)%s\n",
                        path, ln, key, g_line[i], sl >= 0 && sls[i] >= 0
                        && sl != sls[i] ? ": ibccsim takes one value for every SL" : "");
                return 2;
            }
        if (i < g_nkeys) continue;
        sls[g_nkeys] = sl;
        snprintf(flags[g_nkeys + 1u], sizeof flags[0], "--%s", key);
        snprintf(vals[g_nkeys + 1u], sizeof vals[0], "%s", val);
        /* a relative output file goes to the output folder IBCCSIM_OUT
           (default "out", created; "." or empty: the current directory) */
        if ((!strcmp(key, "summary") || !strcmp(key, "series") || !strcmp(key, "out"))
            && val[0] != '/') {
            const char *od = getenv("IBCCSIM_OUT");
            if (!od) od = "out";
            if (*od && strcmp(od, ".")) {
                if (strlen(od) + strlen(val) > 250) {
                    fprintf(stderr, "%s:%u: output path too long\n", path, ln);
                    return 2;
                }
                if (mkdir(od, 0777) != 0 && errno != EEXIST) {
                    fprintf(stderr, "%s:%u: cannot create the output folder %s: %s\n",
                            path, ln, od, strerror(errno));
                    return 2;
                }
                snprintf(vals[g_nkeys + 1u], sizeof vals[0], "%s/%s", od, val);
            }
        }
        g_key[g_nkeys] = flags[g_nkeys + 1u] + 2;
        g_line[g_nkeys] = ln;
        g_nkeys++;
    }
    if (!kind) {
        fprintf(stderr, "%s: no 'experiment = ...' line\n", path);
        return 2;
    }
    {
        /* the experiment's switches take yes or no; other keys their value */
        const char *sw = NULL;
        unsigned i, k;
        char pat[84];
        for (k = 0; k < sizeof sc_switches / sizeof sc_switches[0]; k++)
            if (!strcmp(kind, sc_switches[k][0])) sw = sc_switches[k][1];
        for (i = 1; sw && i <= g_nkeys; i++) {
            const char *v = vals[i];
            snprintf(pat, sizeof pat, " %s ", flags[i] + 2);
            if (!strstr(sw, pat)) {
                args[nargs++] = flags[i];
                args[nargs++] = vals[i];
            } else if (!strcmp(v, "yes") || !strcmp(v, "on") || !strcmp(v, "true")) {
                args[nargs++] = flags[i];
            } else if (strcmp(v, "no") && strcmp(v, "off") && strcmp(v, "false")) {
                fprintf(stderr, "%s:%u: bad value '%s' for %s: a flag without a"
                        " value takes yes, on, true, no, off or false\n",
                        path, g_line[i - 1u], v, flags[i] + 2);
                return 2;
            }
        }
    }
    args[nargs] = NULL;
    if (!strcmp(kind, "twoswitch")) rc = cmd_twoswitch((int)nargs, args);
    else if (!strcmp(kind, "gran")) rc = cmd_gran((int)nargs, args);
    else if (!strcmp(kind, "gran-sweep")) rc = cmd_gran_sweep((int)nargs, args, "ibccsim");
    else if (!strcmp(kind, "mvcm")) rc = cmd_mvcm((int)nargs, args);
    else if (!strcmp(kind, "mvcm-sweep")) rc = cmd_mvcm_sweep((int)nargs, args);
    else if (!strcmp(kind, "recovery")) rc = cmd_recovery((int)nargs, args);
    else if (!strcmp(kind, "fabric-check")) rc = cmd_fabric_check((int)nargs, args);
    else if (!strcmp(kind, "demo")) rc = cmd_demo((int)nargs, args);
    else if (!strcmp(kind, "wormhole")) rc = cmd_wormhole((int)nargs, args);
    else if (!strcmp(kind, "wormhole-sweep")) rc = cmd_wormhole_sweep((int)nargs, args);
    else if (!strcmp(kind, "custom")) rc = cmd_custom((int)nargs, args);
    else {
        fprintf(stderr, "%s:%u: unknown experiment '%s' (twoswitch, gran, gran-sweep,"
                " mvcm, mvcm-sweep, recovery, fabric-check, demo, custom, wormhole,"
                " wormhole-sweep)\n",
                path, kind_line, kind);
        rc = 2;
    }
    g_file = NULL;
    return rc;
}

static int run_sub(int argc, char **argv);

/* A write error on standard output (a full disk, a closed pipe's reader
   gone) fails the run like one on a results file: stdio keeps the error,
   so one look after the subcommand (and its final flush) sees it. */
int main(int argc, char **argv)
{
    int rc = run_sub(argc, argv);
    errno = 0;
    if (fflush(stdout) != 0 || ferror(stdout)) {
        fprintf(stderr, "ibccsim: writing standard output failed%s%s\n",
                errno ? ": " : "", errno ? strerror(errno) : "");
        return rc ? rc : 1;
    }
    return rc;
}

static int run_sub(int argc, char **argv)
{
    if (argc < 2) {
        usage_main(stderr);
        return 2;
    }
    if (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h")) {
        usage_main(stdout);
        return 0;
    }
    if (!strcmp(argv[1], "twoswitch")) return cmd_twoswitch(argc - 2, argv + 2);
    if (!strcmp(argv[1], "recovery")) return cmd_recovery(argc - 2, argv + 2);
    if (!strcmp(argv[1], "law-table")) return cmd_law_table(argc - 2, argv + 2);
    if (!strcmp(argv[1], "demo")) return cmd_demo(argc - 2, argv + 2);
    if (!strcmp(argv[1], "gran")) return cmd_gran(argc - 2, argv + 2);
    if (!strcmp(argv[1], "mvcm")) return cmd_mvcm(argc - 2, argv + 2);
    if (!strcmp(argv[1], "mvcm-sweep")) return cmd_mvcm_sweep(argc - 2, argv + 2);
    if (!strcmp(argv[1], "wormhole")) return cmd_wormhole(argc - 2, argv + 2);
    if (!strcmp(argv[1], "wormhole-sweep")) return cmd_wormhole_sweep(argc - 2, argv + 2);
    if (!strcmp(argv[1], "fabric-check"))
        return cmd_fabric_check(argc - 2, argv + 2);
    if (!strcmp(argv[1], "run")) return cmd_run(argc - 2, argv + 2);
    if (!strcmp(argv[1], "custom")) return cmd_custom(argc - 2, argv + 2);
    if (!strcmp(argv[1], "gran-sweep"))
        return cmd_gran_sweep(argc - 2, argv + 2, argv[0]);
    fprintf(stderr, "ibccsim: unknown subcommand '%s'\n", argv[1]);
    usage_main(stderr);
    return 2;
}
