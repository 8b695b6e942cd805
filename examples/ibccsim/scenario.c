#include "ibccsim.h"
#include "scn.h"
#include <sys/stat.h>
/* ---- run FILE, version 2: a scenario with sections -----------------------
   [fabric] a builder or a real fabric, [sm] OpenSM's settings, [traffic
   NAME] blocks (one class each), [run], [output]; lists make a study.
   docs/scenarios.md, "Scenario files" has every key. The file format is
   scn.c's; this file turns a parsed file into a fabric and runs it. */

/* the builders in tb_build's order (TB_*), then the two-switch one */
enum { SV_FATTREE, SV_NFLY, SV_MESH, SV_TORUS, SV_DRAGONFLY, SV_TWOSWITCH };
static const char *const sv_topos[] = {"fattree", "nfly", "mesh", "torus", "dragonfly",
                                       "twoswitch"};
enum { SV_UNIFORM, SV_PERMUTATION, SV_INCAST, SV_HOTSPOT };
static const char *const sv_patterns[] = {"uniform", "permutation", "incast",
                                          "hotspot"};
#define SV_MAX_CLASSES IBCC_FABRIC_CLASSES

typedef struct sv_fab {
    int topo, routing, dlid;
    unsigned k, n, x, y, hps, root, local, remote, a, p, h, groups, lmc, buf_packets,
             data_size;
    double link_gbytes, prop_ns, fwd_ns;
    const char *ibnet, *lfts, *ibdiag, *lst, *dbcsv, *fdbs;
} sv_fab;
#define OPT_T sv_fab
static const opt sv_fab_opt[] = {
    OPT_CHOICE("topology", topo, "fattree|nfly|mesh|torus|dragonfly|twoswitch", NULL,
               "a builder (or one of the fabric files below)"),
    OPT_BUILDER_ROWS
    OPT_ROUTING_ROWS
    OPT_CHOICE("dlid", dlid, "random|round-robin", "random",
               "with lmc: the LID each flow is sent to, drawn\n"
               "from the seed, or each host's flows in turn"),
    OPT_TEXT("ibnetdiscover", ibnet, "FILE", NULL, "the topology as ibnetdiscover prints it"),
    OPT_TEXT("lfts", lfts, "FILE", NULL, "with ibnetdiscover: forwarding tables"),
    OPT_TEXT("ibdiagnet", ibdiag, "DIR|FILE", NULL, "ibdiagnet's output folder, or its .lst or .db_csv"),
    OPT_TEXT("lst", lst, "FILE", NULL, "ibdiagnet2.lst"),
    OPT_TEXT("db_csv", dbcsv, "FILE", NULL, "ibdiagnet2.db_csv"),
    OPT_TEXT("fdbs", fdbs, "FILE", NULL, "with ibdiagnet, lst or db_csv: ibdiagnet2.fdbs"),
    OPT_DOUBLE("link-gbytes", link_gbytes, 1e-3, 1e4, "G", "GB/s", "1",
               "a builder's link rate (loaded links keep their own)"),
    OPT_DOUBLE("prop-ns", prop_ns, 1e-3, 1e6, "X", "ns", "5", "propagation delay per link"),
    OPT_DOUBLE("fwd-ns", fwd_ns, 0, 1e6, "X", "ns", "40", "switch forwarding delay"),
    OPT_UINT("buf-packets", buf_packets, 1, 65535, "N", "packets", "4", "input buffer"),
    OPT_UINT("data-size", data_size, 1, 65535, "BYTES", "bytes", "2068", "data packet on the wire"),
};
#undef OPT_T
const opt_cmd sv_fab_cmd = {"run [fabric]", NULL, NULL, sv_fab_opt, OPT_N(sv_fab_opt),
                            NULL, NULL, 0};

typedef struct sv_traf {
    int pattern;
    const char *src, *dst;
    double load, start_ms, stop_ms;
    unsigned msg_bytes, sl;
    unsigned long long packets;
} sv_traf;
#define OPT_T sv_traf
static const opt sv_traf_opt[] = {
    OPT_CHOICE("pattern", pattern, "uniform|permutation|incast|hotspot", NULL, "(required)"),
    OPT_TEXT("src", src, "HOSTS", "all", "sources: all, indexes 0.., ranges a-b, host\n"
             "names or GUIDs of a loaded fabric, comma-separated"),
    OPT_TEXT("dst", dst, "HOSTS", NULL, "destinations (uniform: all; incast, hotspot:\n"
             "one host, default the last)"),
    OPT_DOUBLE("load", load, 0, 1, "X", NULL, NULL, "offered per source, fraction of the\n"
               "reference rate (uniform, hotspot: required;\nincast: greedy without it)"),
    OPT_UINT("msg-bytes", msg_bytes, 1, 2147483648.0, "N", "bytes", NULL, "messages of N bytes"),
    OPT_DOUBLE("start", start_ms, 0, 10000, "MS", "ms", "0", "first active instant"),
    OPT_DOUBLE("stop", stop_ms, 0, 10000, "MS", "ms", "0", "stops then (0: at the end)"),
    OPT_U64("packets", packets, 1, 1e9, "N", "packets", "1000", "hotspot: packets per source"),
    OPT_UINT("sl", sl, 0, 15, "S", NULL, "0", "service level of the block's flows: the CA's\n"
             "per-SL CC settings and Control_Map bit apply"),
};
#undef OPT_T
const opt_cmd sv_traf_cmd = {"run [traffic]", NULL, NULL, sv_traf_opt, OPT_N(sv_traf_opt),
                             NULL, NULL, 0};

typedef struct sv_run {
    double time_ms, warmup_ms, bin_ms;
    unsigned long long seed;
    const char *dir;
    int series, summary;
} sv_run;
#define OPT_T sv_run
static const opt sv_run_opt[] = {
    OPT_DOUBLE("time", time_ms, 1e-6, 10000, "MS", "ms", "10", "[run] simulated time"),
    OPT_DOUBLE("warmup", warmup_ms, 0, 10000, "MS", "ms", NULL, "[run] not measured (default time / 10)"),
    OPT_DOUBLE("bin", bin_ms, 1e-6, 10000, "MS", "ms", NULL, "[run] series resolution (default time / 100)"),
    OPT_U64("seed", seed, 0, 18446744073709551615.0, "N", NULL, "1", "[run] random seed"),
    OPT_TEXT("directory", dir, "DIR", "results", "[output] results folder (beside the file)"),
    OPT_CHOICE("series", series, "no|yes", "yes", "[output] series.csv"),
    OPT_CHOICE("summary", summary, "no|yes", "yes", "[output] summary.csv"),
};
#undef OPT_T
const opt_cmd sv_run_cmd = {"run", NULL, NULL, sv_run_opt, OPT_N(sv_run_opt), NULL, NULL, 0};

/* Parses the entries of (section, name) with table c into o: each key
   becomes --key=value (a key with '_' also matches the row with '-'). */
static int sv_section(const scn *s, const char *const *secs, unsigned nsec,
                      const char *name, const opt_cmd *c, void *o)
{
    static char args[SCN_MAX_ENTRIES][600];
    char *argv[2 * SCN_MAX_ENTRIES];
    unsigned i, k, n = 0;
    g_file = s->file;
    g_nkeys = 0;
    for (i = 0; i < s->n && n < SCN_MAX_ENTRIES; i++) {
        const scn_entry *x = &s->e[i];
        char key[128];
        void *base;
        for (k = 0; k < nsec; k++) if (!strcmp(x->section, secs[k])) break;
        if (k == nsec || strcmp(x->name, name)) continue;
        snprintf(key, sizeof key, "%s", x->key);
        if (!opt_find(c, key, o, &base)) {
            char *p;
            for (p = key; *p; p++) if (*p == '_') *p = '-';
            if (!opt_find(c, key, o, &base)) snprintf(key, sizeof key, "%s", x->key);
        }
        snprintf(args[n], sizeof args[n], "--%s", key);
        argv[2 * n] = args[n];
        argv[2 * n + 1] = (char *)scn_value(x);
        if (x->line && g_nkeys < SC_MAX_KEYS) {
            g_key[g_nkeys] = args[n] + 2;
            g_line[g_nkeys++] = x->line;
        }
        n++;
    }
    i = (unsigned)opt_parse(c, (int)(2 * n), argv, o);
    return (int)i;
}

typedef struct sv_net {
    ibcc_topo topo;
    ibcc_twoswitch ts;
    ibcc_ibfabric ib;
    int loaded;
    uint32_t *hosts, nh;
    ibcc_rate ref;
    ibcc_fabric_flow *flows;
    uint32_t nf, cap;
    uint16_t cct[16384];
} sv_net;

static int sv_fail(const char *fmt, ...)
{
    va_list ap;
    fprintf(stderr, "ibccsim run: ");
    va_start(ap, fmt);
    vfprintf(stderr, fmt, ap);
    va_end(ap);
    fprintf(stderr, "\n");
    return 2;
}

static int sv_fabric(const scn *s, const sv_fab *fo, sv_net *net,
                     ibcc_fabric_desc *d, char *what, size_t wlen)
{
    ibcc_result r = IBCC_OK;
    uint32_t i;
    char msg[SCN_MSG];
    d->link_rate = (ibcc_rate)(fo->link_gbytes * 1e9 + 0.5);
    if (scn_is_ibfabric(s)) {
        if (fo->topo >= 0) return sv_fail("%s: [fabric] gives both topology and a fabric file", s->file);
        if (scn_load_ibfabric(s, &net->ib, what, msg, sizeof msg))
            return sv_fail("%s", msg);
        net->loaded = 1;
        fc_dup_names("run", &net->ib);
        (void)ibcc_ibfabric_to_desc(&net->ib, d);
    } else {
        switch (fo->topo) {
        case SV_FATTREE: case SV_NFLY: case SV_MESH: case SV_TORUS: case SV_DRAGONFLY: {
            static const char *const dkeys[] = {"a", "p", "h", "groups", "dlid"};
            tb_spec ts;
            tb_err e;
            for (i = 0; i < sizeof dkeys / sizeof dkeys[0]; i++)
                if (fo->topo != SV_DRAGONFLY && scn_get(s, "fabric", NULL, dkeys[i]))
                    return sv_fail("%s: [fabric] %s applies to topology = dragonfly",
                                   s->file, dkeys[i]);
            memset(&ts, 0, sizeof ts);
            ts.builder = fo->topo;      /* SV_ and TB_ share their order */
            ts.routing = scn_get(s, "fabric", NULL, "routing") ? fo->routing : -1;
            ts.k = fo->k; ts.n = fo->n; ts.x = fo->x; ts.y = fo->y; ts.hps = fo->hps;
            ts.root = fo->root; ts.a = fo->a; ts.p = fo->p; ts.h = fo->h;
            ts.groups = fo->groups; ts.lmc = fo->lmc;
            ts.lmc_given = scn_get(s, "fabric", NULL, "lmc") != NULL;
            if (tb_build(&ts, &net->topo, &e))
                return sv_fail("%s: [fabric] %s", s->file, e.why);
            break;
        }
        case SV_TWOSWITCH: {
            ibcc_fabric_error err;
            d->error = &err;
            r = ibcc_twoswitch_build(&net->ts, fo->local, fo->remote, d);
            d->error = NULL;
            if (r != IBCC_OK) return sv_fail("%s: [fabric] the two-switch builder: %s", s->file, err.reason);
            d->flows = NULL;
            d->flow_count = 0;
            break;
        }
        default:
            return sv_fail("%s: [fabric] needs topology = fattree|nfly|mesh|torus|dragonfly|twoswitch, "
                           "or ibnetdiscover, ibdiagnet, lst or db_csv", s->file);
        }
        if (net->topo.nodes) (void)ibcc_topo_apply(&net->topo, d);
        snprintf(what, wlen, "%s", sv_topos[fo->topo]);
    }
    net->hosts = (uint32_t *)calloc(d->node_count ? d->node_count : 1u, sizeof *net->hosts);
    if (!net->hosts) return sv_fail("out of memory");
    if (net->loaded) {
        for (i = 0; i < net->ib.host_count; i++) net->hosts[i] = net->ib.hosts[i].node;
        net->nh = net->ib.host_count;
    } else {
        for (i = 0; i < d->node_count; i++)
            if (d->nodes[i].kind == IBCC_FABRIC_HOST) net->hosts[net->nh++] = i;
    }
    if (net->nh < 2) return sv_fail("%s: the fabric has %u host(s): traffic needs two", s->file, net->nh);
    for (i = 0; i < d->link_count; i++) {
        const ibcc_fabric_link *l = &d->links[i];
        ibcc_rate x = l->rate ? l->rate : d->link_rate;
        if (d->nodes[l->a].kind != IBCC_FABRIC_HOST && d->nodes[l->b].kind != IBCC_FABRIC_HOST) continue;
        if (net->ref == 0 || x < net->ref) net->ref = x;
    }
    d->prop_delay = (ibcc_time)(fo->prop_ns * 1e3 + 0.5);
    d->fwd_delay = (ibcc_time)(fo->fwd_ns * 1e3 + 0.5);
    d->fwd_zero = d->fwd_delay == 0;
    d->data_size = fo->data_size;
    d->buf_packets = fo->buf_packets;
    return 0;
}

static int sv_addflow(sv_net *net, const ibcc_fabric_flow *x)
{
    if (net->nf >= net->cap) {
        uint32_t nc = net->cap ? net->cap * 2u : 256u;
        ibcc_fabric_flow *q;
        if (nc > (1u << 24)) return sv_fail("more than 2^24 flows");
        q = (ibcc_fabric_flow *)realloc(net->flows, nc * sizeof *q);
        if (!q) return sv_fail("out of memory");
        net->flows = q;
        net->cap = nc;
    }
    net->flows[net->nf++] = *x;
    return 0;
}

/* One [traffic NAME] block's flows, class cls. */
static int sv_block(const scn *s, const char *name, unsigned cls, const sv_run *ro,
                    sv_net *net, int *hot_dst)
{
    static const char *const sec[] = {"traffic"};
    sv_traf t;
    uint32_t src[4096], dst[4096], ns = 0, nd = 0, i, j;
    char msg[SCN_MSG];
    ibcc_fabric_flow x;
    double ref = (double)net->ref;
    memset(&t, 0, sizeof t);
    opt_defaults(&sv_traf_cmd, &t);
    t.pattern = -1;
    if (sv_section(s, sec, 1, name, &sv_traf_cmd, &t)) return 2;
    if (t.pattern < 0) return sv_fail("%s: [traffic %s] needs pattern = uniform|permutation|incast|hotspot", s->file, name);
    if (scn_hosts(t.src, net->nh, net->loaded ? &net->ib : NULL, src, 4096, &ns, msg, sizeof msg))
        return sv_fail("%s: [traffic %s] src: %s", s->file, name, msg);
    if (t.dst) {
        if (scn_hosts(t.dst, net->nh, net->loaded ? &net->ib : NULL, dst, 4096, &nd, msg, sizeof msg))
            return sv_fail("%s: [traffic %s] dst: %s", s->file, name, msg);
    } else if (t.pattern == SV_UNIFORM) {
        (void)scn_hosts("all", net->nh, NULL, dst, 4096, &nd, msg, sizeof msg);
    } else {
        dst[0] = net->nh - 1u;
        nd = 1;
    }
    if ((t.pattern == SV_INCAST || t.pattern == SV_HOTSPOT) && nd != 1)
        return sv_fail("%s: [traffic %s] %s has one destination (dst = one host)", s->file, name,
                       sv_patterns[t.pattern]);
    if ((t.pattern == SV_UNIFORM || t.pattern == SV_HOTSPOT) && t.load <= 0)
        return sv_fail("%s: [traffic %s] %s needs load = X (0 < X <= 1)", s->file, name,
                       sv_patterns[t.pattern]);
    if (t.stop_ms && t.stop_ms <= t.start_ms)
        return sv_fail("%s: [traffic %s] stop %g ms is not after start %g ms", s->file, name,
                       t.stop_ms, t.start_ms);
    if (t.start_ms >= ro->time_ms)
        return sv_fail("%s: [traffic %s] starts at %g ms, after the run (time %g ms)", s->file,
                       name, t.start_ms, ro->time_ms);
    memset(&x, 0, sizeof x);
    x.cls = cls;
    x.sl = t.sl;
    x.start = ms_time(t.start_ms);
    x.stop = t.stop_ms ? ms_time(t.stop_ms) : 0;
    x.msg_bytes = t.msg_bytes;
    if (t.pattern == SV_PERMUTATION) {
        ibcc_fabric_flow pf[4096];
        uint32_t hosts[4096], m = 0;
        for (i = 0; i < ns; i++) hosts[i] = net->hosts[src[i]];
        if (ns < 2) return sv_fail("%s: [traffic %s] a permutation needs two sources", s->file, name);
        if (ibcc_traffic_permutation(hosts, ns, ro->seed + cls, pf, 4096, &m) != IBCC_OK)
            return sv_fail("%s: [traffic %s] the permutation failed", s->file, name);
        for (i = 0; i < m; i++) {
            x.src = pf[i].src;
            x.dst = pf[i].dst;
            x.traffic = pf[i].traffic;
            if (sv_addflow(net, &x)) return 2;
        }
        return 0;
    }
    if (t.pattern != SV_UNIFORM) *hot_dst = (int)dst[0];
    for (i = 0; i < ns; i++) {
        uint32_t others = 0;
        for (j = 0; j < nd; j++) others += dst[j] != src[i];
        for (j = 0; j < nd; j++) {
            if (dst[j] == src[i]) continue;
            x.src = net->hosts[src[i]];
            x.dst = net->hosts[dst[j]];
            x.packets = 0;
            if (t.pattern == SV_UNIFORM) {
                x.traffic = IBCC_TRAFFIC_POISSON;
                x.offered = (ibcc_rate)(t.load * ref / others + 0.5);
                if (!x.offered) return sv_fail("%s: [traffic %s] load below 1 byte/s per pair", s->file, name);
            } else if (t.pattern == SV_HOTSPOT) {
                x.traffic = IBCC_TRAFFIC_RATE;
                x.offered = (ibcc_rate)(t.load * ref + 0.5);
                x.packets = t.packets;
            } else if (t.load > 0) {
                x.traffic = IBCC_TRAFFIC_RATE;
                x.offered = (ibcc_rate)(t.load * ref + 0.5);
            } else x.traffic = IBCC_TRAFFIC_GREEDY;
            if (sv_addflow(net, &x)) return 2;
        }
    }
    return 0;
}

typedef struct sv_cls {
    char name[128];
    ibcc_fabric_class_stats st;
    double p99_us;
    uint32_t sources;           /* hosts that send in the block */
} sv_cls;

/* Writes the results of one run into dir; 0 ok. */
static int sv_write(const scn *s, const char *dir, const sv_run *ro, const scn_sm *sm,
                    int cc, const sv_cls *cl, unsigned ncl, const sv_net *net,
                    const ibcc_fabric *f, const char *what, double secs)
{
    char path[1300];
    FILE *fp;
    unsigned c, i;
    if (ro->summary) {
        snprintf(path, sizeof path, "%s/summary.csv", dir);
        if (!(fp = fopen(path, "w"))) return sv_fail("cannot write %s: %s", path, strerror(errno));
        fprintf(fp, "class,flows,sources,delivered_packets,delivered_gbps,"
                "per_source_frac,latency_us,p99_latency_us,marked_frac\n");
        for (c = 0; c < ncl; c++) {
            const ibcc_fabric_class_stats *st = &cl[c].st;
            double n = st->delivered ? (double)st->delivered : 1.0;
            fprintf(fp, "%s,%u,%u,%llu,%.6f,%.6f,", cl[c].name, st->flows,
                    cl[c].sources, (unsigned long long)st->delivered,
                    (double)st->delivered_bytes * 8e-9 / secs,
                    (double)st->delivered_bytes / secs / (double)net->ref
                    / (cl[c].sources ? cl[c].sources : 1u));
            if (st->delivered)
                fprintf(fp, "%.4f,%.4f,%.6f\n", (double)st->lat_sum / n / 1e6, cl[c].p99_us,
                        (double)st->marked / n);
            else fprintf(fp, ",,\n");
        }
        if (!close_out(fp, path)) return 1;
    }
    if (ro->series) {
        ibcc_time end = ms_time(ro->time_ms), bin = ms_time(ro->bin_ms), t;
        snprintf(path, sizeof path, "%s/series.csv", dir);
        if (!(fp = fopen(path, "w"))) return sv_fail("cannot write %s: %s", path, strerror(errno));
        fprintf(fp, "time_us");
        for (c = 0; c < ncl; c++) fprintf(fp, ",%s_gbps", cl[c].name);
        fprintf(fp, "\n");
        for (t = 0; t < end; t += bin) {
            uint64_t b[SV_MAX_CLASSES];
            ibcc_time len = end - t < bin ? end - t : bin;
            memset(b, 0, sizeof b);
            for (i = 0; i < net->nf; i++) {
                uint64_t x = 0;
                (void)ibcc_fabric_flow_bytes(f, i, t, t + bin, &x);
                b[net->flows[i].cls] += x;
            }
            fprintf(fp, "%.3f", (double)(t + len / 2u) / 1e6);
            for (c = 0; c < ncl; c++)
                fprintf(fp, ",%.6f", (double)b[c] * 8.0 / ((double)len * 1e-12) * 1e-9);
            fprintf(fp, "\n");
        }
        if (!close_out(fp, path)) return 1;
    }
    snprintf(path, sizeof path, "%s/scenario.ini", dir);
    if (!(fp = fopen(path, "w"))) return sv_fail("cannot write %s: %s", path, strerror(errno));
    {
        char msg[SCN_MSG];
        if (scn_write_point(s, fp, msg, sizeof msg)) {
            fclose(fp);
            return sv_fail("%s", msg);
        }
    }
    if (!close_out(fp, path)) return 1;
    snprintf(path, sizeof path, "%s/params.csv", dir);
    if (!(fp = fopen(path, "w"))) return sv_fail("cannot write %s: %s", path, strerror(errno));
    fprintf(fp, "key,value\nibcc_version,%s\nscenario,%s\nfabric,%s\n", IBCC_VERSION_STRING,
            s->file, what);
    for (i = 0; i < s->n; i++) {
        const scn_entry *x = &s->e[i];
        const char *v = scn_value(x);
        int q = strchr(v, ',') || strchr(v, '"');
        if (x->name[0]) fprintf(fp, "%s.%s.%s,", x->section, x->name, x->key);
        else fprintf(fp, "%s.%s,", x->section, x->key);
        if (q) {
            const char *p;
            fputc('"', fp);
            for (p = v; *p; p++) { if (*p == '"') fputc('"', fp); fputc(*p, fp); }
            fputs("\"\n", fp);
        } else fprintf(fp, "%s\n", v);
    }
    fprintf(fp, "seed,%llu\ncongestion_control,%s\n", ro->seed, cc ? "TRUE" : "FALSE");
    if (cc) {
        static char buf[16384];
        char *p, *nl;
        if (ibcc_swcc_print_opensm(&sm->sw, buf, sizeof buf) == IBCC_OK)
            for (p = buf; (nl = strchr(p, '\n')) != NULL; p = nl + 1) {
                char *sp = strchr(p, ' ');
                *nl = 0;
                if (sp && sp < nl) { *sp = 0; fprintf(fp, "%s,%s\n", p, sp + 1); }
            }
        if (ibcc_cacc_print_opensm(&sm->ca, buf, sizeof buf) == IBCC_OK)
            for (p = buf; (nl = strchr(p, '\n')) != NULL; p = nl + 1) {
                char *a = strchr(p, ' '), *b;
                *nl = 0;
                if (!a) continue;
                *a = 0;
                b = strchr(a + 1, ' ');
                if (b && strncmp(p, "cc_cct", 6)) {     /* per SL: name SL value */
                    *b = 0;
                    fprintf(fp, "%s_sl%s,%s\n", p, a + 1, b + 1);
                } else if (!strncmp(p, "cc_cct", 6)) fprintf(fp, "%s,\"%s\"\n", p, a + 1);
                else fprintf(fp, "%s,%s\n", p, a + 1);
            }
    }
    return close_out(fp, path) ? 0 : 1;
}

static int sv_mkdirs(const char *dir)
{
    char tmp[1100];
    size_t i, n = strlen(dir);
    if (n >= sizeof tmp) return sv_fail("%s: a path too long", dir);
    memcpy(tmp, dir, n + 1u);
    for (i = 1; i <= n; i++)
        if (tmp[i] == '/' || tmp[i] == 0) {
            char c = tmp[i];
            tmp[i] = 0;
            if (mkdir(tmp, 0777) != 0 && errno != EEXIST)
                return sv_fail("cannot create %s: %s", tmp, strerror(errno));
            tmp[i] = c;
        }
    return 0;
}

/* The [job NAME] sections, in file order, into js; their flows after
   the blocks' (classes from ncl on). */
static int sv_jobs(const scn *s, jb_set *js, unsigned ncl, const sv_run *ro, sv_net *net)
{
    static const char *const sec[] = {"job"};
    static char tpath[JB_MAX][1100];
    ibcc_fabric_flow t;
    unsigned i, k;
    memset(js, 0, sizeof *js);
    js->who = "ibccsim run";
    js->file = s->file;
    for (i = 0; i < s->n; i++) {
        const scn_entry *x = &s->e[i];
        jb_opts o;
        if (strcmp(x->section, "job")) continue;
        for (k = 0; k < js->n; k++) if (!strcmp(js->job[k].name, x->name)) break;
        if (k < js->n) continue;
        if (js->n >= JB_MAX) return sv_fail("%s: more than %u [job] sections", s->file, JB_MAX);
        jb_defaults(&o);
        if (sv_section(s, sec, 1, x->name, &jb_cmd, &o)) return 2;
        if (o.trace) {          /* relative to the scenario file's folder */
            if (scn_path(s, o.trace, tpath[js->n], sizeof tpath[js->n]))
                return sv_fail("%s: [job %s] trace: a path too long", s->file, x->name);
            o.trace = tpath[js->n];
        }
        if (jb_add(js, x->name, &o)) return 2;
    }
    if (!js->n) return 0;
    if (jb_resolve(js, net->nh, net->hosts, net->loaded ? &net->ib : NULL, ro->seed,
                   ro->time_ms))
        return 2;
    if (jb_classes(js, ncl, "the [traffic] blocks")) return 2;
    memset(&t, 0, sizeof t);
    if (jb_flows(js, &t, &net->flows, &net->nf)) return 2;
    net->cap = net->nf;
    return 0;
}

/* One point: the scenario as selected, results into dir. */
static int sv_point(const scn *s, const char *dir, int quiet)
{
    static jb_set js;
    static const char *const fsec[] = {"fabric"};
    static const char *const rsec[] = {"run", "output"};
    static sv_net net;
    sv_fab fo;
    sv_run ro;
    scn_sm sm;
    ibcc_fabric_desc d;
    ibcc_fabric *f = NULL;
    prog pg;
    sv_cls cl[SV_MAX_CLASSES];
    unsigned ncl = 0, i, c;
    int rc = 0, cc, hot = -1;
    char msg[SCN_MSG], what[256] = "";
    ibcc_result r;
    double secs;
    memset(&net, 0, sizeof net);
    memset(&d, 0, sizeof d);
    memset(&fo, 0, sizeof fo);
    opt_defaults(&sv_fab_cmd, &fo);
    fo.topo = -1;
    memset(&ro, 0, sizeof ro);
    opt_defaults(&sv_run_cmd, &ro);
    ro.warmup_ms = ro.bin_ms = -1;
    if (sv_section(s, fsec, 1, "", &sv_fab_cmd, &fo)) return 2;
    if (sv_section(s, rsec, 2, "", &sv_run_cmd, &ro)) return 2;
    if (ro.warmup_ms < 0) ro.warmup_ms = ro.time_ms / 10;
    if (ro.bin_ms < 0) ro.bin_ms = ro.time_ms / 100;
    if (ro.warmup_ms >= ro.time_ms)
        return sv_fail("%s: warmup %g ms leaves nothing of time %g ms", s->file, ro.warmup_ms, ro.time_ms);
    memset(&sm, 0, sizeof sm);         /* ibccsim custom's defaults */
    sm.sw.threshold = 15;
    sm.ca.setting.control_map = 0xffffu;
    for (c = 0; c < IBCC_CCT_SLS; c++) {
        sm.ca.setting.sl[c].ccti_timer = 150;
        sm.ca.setting.sl[c].ccti_increase = 1;
    }
    if (scn_read_sm(s, &sm, msg, sizeof msg)) return sv_fail("%s", msg);
    cc = sm.cc == 1;
    if (sm.nskipped && !quiet)
        fprintf(stderr, "ibccsim run: opensm.conf options not modelled (%u): %s\n",
                sm.nskipped, sm.skipped);
    if ((rc = sv_fabric(s, &fo, &net, &d, what, sizeof what))) goto out;
    for (i = 0; i < s->n; i++) {        /* the blocks, in file order */
        const scn_entry *x = &s->e[i];
        unsigned k;
        if (strcmp(x->section, "traffic")) continue;
        for (k = 0; k < ncl; k++) if (!strcmp(cl[k].name, x->name)) break;
        if (k < ncl) continue;
        if (ncl >= SV_MAX_CLASSES) { rc = sv_fail("%s: more than %u [traffic] blocks", s->file, SV_MAX_CLASSES); goto out; }
        memset(&cl[ncl], 0, sizeof cl[ncl]);
        snprintf(cl[ncl].name, sizeof cl[ncl].name, "%s", x->name);
        if ((rc = sv_block(s, x->name, ncl, &ro, &net, &hot))) goto out;
        ncl++;
    }
    if ((rc = sv_jobs(s, &js, ncl, &ro, &net))) goto out;
    if (net.topo.nodes) {       /* the flows' LIDs and path SLs */
        tb_err e;
        if (fo.topo == SV_DRAGONFLY && sm.qos_given) {
            rc = sv_fail("%s: [sm] qos settings would replace the dragonfly's SL-to-VL "
                         "tables (SL s on VL 2s before its global hop, 2s + 1 after)", s->file);
            goto out;
        }
        if (tb_flows(&net.topo, net.flows, 0, net.nf, fo.dlid == 1, ro.seed, &e)) {
            rc = sv_fail("%s: %s (a [traffic] block's or a [job]'s sl)", s->file, e.why);
            goto out;
        }
    }
    if ((!ncl && !js.n) || !net.nf) {
        rc = sv_fail("%s: no [traffic NAME] block with flows and no [job NAME]", s->file);
        goto out;
    }
    for (c = 0; c < ncl; c++) {         /* distinct sources per class */
        uint32_t a, b;
        for (a = 0; a < net.nf; a++) {
            if (net.flows[a].cls != c) continue;
            for (b = 0; b < a; b++)
                if (net.flows[b].cls == c && net.flows[b].src == net.flows[a].src) break;
            if (b == a) cl[c].sources++;
        }
    }
    (void)hot;
    d.flows = net.flows;
    d.flow_count = net.nf;
    d.seed = ro.seed;
    if (cc) {
        ibcc_time mpt = 0;
        uint32_t len;
        d.marker.engine = IBCC_MARKER_IBA;
        d.marker.iba_threshold = sm.sw.threshold;
        d.marker.iba_marking_rate = sm.sw.marking_rate;
        d.marker.iba_packet_size = sm.sw.packet_size;
        d.dest.scheme = IBCC_DEST_IBA;
        if (sm.ca.cct_len) {
            for (len = 0; len < sm.ca.cct_len; len++) net.cct[len] = sm.ca.cct[len];
        } else {
            (void)ibcc_wire_time(fo.data_size, net.ref, &mpt);
            len = gr_load_cct("run", "linear", mpt, net.cct, 16384);
            if (!quiet)
                fprintf(stderr, "ibccsim run: no cc_cct: the linear table of ibccsim custom\n");
        }
        d.cct.table = net.cct;
        d.cct.table_len = len;
        d.cct.ccti_limit = (uint16_t)(len - 1u);
        for (c = 0; c < IBCC_CCT_SLS; c++) {
            d.cct.sl[c].ccti_timer = (uint16_t)sm.ca.setting.sl[c].ccti_timer;
            d.cct.sl[c].ccti_increase = (uint8_t)sm.ca.setting.sl[c].ccti_increase;
            d.cct.sl[c].ccti_min = (uint16_t)sm.ca.setting.sl[c].ccti_min;
            d.cct.sl[c].trigger_threshold = (uint16_t)sm.ca.setting.sl[c].trigger_threshold;
        }
        /* the CA's Control_Map enables CC per SL (a block's `sl`, 0 by
           default): the flows of an SL left out are marked at the
           switches but their sources do not react */
        {
            unsigned out = 0;
            for (i = 0; i < net.nf; i++) {
                if (sm.ca.setting.control_map >> net.flows[i].sl & 1u)
                    net.flows[i].agent = IBCC_AGENT_CCT;
                else
                    out |= 1u << net.flows[i].sl;
            }
            if (out && !quiet)
                fprintf(stderr, "ibccsim run: cc_ca_cong_setting_control_map 0x%x leaves "
                        "the SLs 0x%x of the traffic out: the switches mark, those "
                        "sources do not react\n", (unsigned)sm.ca.setting.control_map, out);
        }
    }
    if (ro.series) {
        d.bin = ms_time(ro.bin_ms);
        d.horizon = ms_time(ro.time_ms) + d.bin;
    }
    if ((rc = sv_mkdirs(dir))) goto out;
    if (sm.qos_given) d.qos = &sm.qos;  /* [sm] qos: the ports' VLs */
    if ((r = fabric_create("run", &f, &d)) != IBCC_OK) { rc = 1; goto out; }
    if (js.n && jb_attach(&js, f)) { rc = 2; goto out; }
    /* progress on stderr like the other experiments' (none in a study's
       workers, nor with --quiet; the option tables' parsers above reset
       g_quiet) */
    g_quiet = quiet;
    prog_start(&pg, "run", f, ms_time(ro.time_ms));
    if ((r = prog_run(&pg, f, ms_time(ro.warmup_ms))) == IBCC_OK) {
        (void)ibcc_fabric_stats_reset(f);
        r = prog_run(&pg, f, ms_time(ro.time_ms));
    }
    prog_end(&pg);
    if (r != IBCC_OK) { rc = sv_fail("the run: %s", ibcc_result_str(r)); goto out; }
    if (js.n) {                 /* each job alone: its ideal time */
        char path[1300];
        jb_collect(&js);
        if ((rc = jb_ideal(&js, &d, net.flows, ms_time(ro.time_ms)))) goto out;
        snprintf(path, sizeof path, "%s/jobs.csv", dir);
        if ((rc = jb_csv(&js, path))) goto out;
    }
    secs = (ro.time_ms - ro.warmup_ms) * 1e-3;
    for (c = 0; c < ncl; c++) {
        ibcc_time q = 0;
        (void)ibcc_fabric_class_stats_get(f, c, &cl[c].st);
        if (ibcc_fabric_latency_quantile(f, c, 0.99, &q) == IBCC_OK) cl[c].p99_us = (double)q / 1e6;
    }
    if ((rc = sv_write(s, dir, &ro, &sm, cc, cl, ncl, &net, f, what, secs))) goto out;
    if (!quiet) {
        printf("%s: %u hosts, %u flows, CC %s, %g..%g ms", what, net.nh, net.nf, cc ? "on" : "off",
               ro.warmup_ms, ro.time_ms);
        for (c = 0; c < ncl; c++) {
            const ibcc_fabric_class_stats *st = &cl[c].st;
            printf("; %s %.3f Gb/s", cl[c].name, (double)st->delivered_bytes * 8e-9 / secs);
            if (st->delivered)
                printf(" p99 %.2f us", cl[c].p99_us);
        }
        printf(" -> %s\n", dir);
        if (js.n) jb_print(&js, stdout);
    }
    if (js.n && !jb_all_done(&js)) {
        fprintf(stderr, "ibccsim run: %s: a job is not done after time = %g ms (jobs.csv says "
                "how far each got)\n", s->file, ro.time_ms);
        rc = 1;
    }
out:
    jb_free(&js);
    ibcc_fabric_destroy(f);
    ibcc_topo_free(&net.topo);
    ibcc_ibfabric_free(&net.ib);
    free(net.hosts);
    free(net.flows);
    return rc;
}

typedef struct sv_study {
    scn *s;
    const char *dir;
    int quiet;
} sv_study;

static int sv_study_point(unsigned idx, void *ctx)
{
    sv_study *st = (sv_study *)ctx;
    char dir[1200];
    scn_select(st->s, idx);
    snprintf(dir, sizeof dir, "%s/point-%03u", st->dir, idx);
    return sv_point(st->s, dir, 1);
}

/* "metric of class c" from a summary.csv (the column's value), or NaN. */
static void sv_study_row(FILE *fo, const char *sum)
{
    FILE *fp = fopen(sum, "r");
    char line[1024];
    if (!fp) return;
    if (!fgets(line, sizeof line, fp)) { fclose(fp); return; }
    while (fgets(line, sizeof line, fp)) {
        char *c1 = strchr(line, ','), *nl = strchr(line, '\n');
        if (nl) *nl = 0;
        if (!c1) continue;
        *c1 = 0;
        fprintf(fo, ",%s", c1 + 1);     /* flows .. marked_frac of class */
    }
    fclose(fp);
}

/* A jobs.csv row's fields (the hosts field is quoted) into f[]. */
static unsigned sv_csv_split(char *line, char **f, unsigned cap)
{
    unsigned n = 0;
    char *p = line;
    while (n < cap) {
        if (*p == '"') {
            char *e = strchr(p + 1, '"');
            f[n++] = p + 1;
            if (!e) break;
            *e = 0;
            p = e + 1;
        } else {
            f[n++] = p;
            p += strcspn(p, ",\n");
        }
        if (*p != ',') { *p = 0; break; }
        *p++ = 0;
    }
    return n;
}

/* The jobs' columns of study.csv from a point's jobs.csv: per job its
   completion, ideal, slowdown and message p99 (header: names only). */
static void sv_study_jobs(FILE *fo, const char *path, int header)
{
    FILE *fp = fopen(path, "r");
    char line[8192], *f[32];
    if (!fp) return;
    if (!fgets(line, sizeof line, fp)) { fclose(fp); return; }
    while (fgets(line, sizeof line, fp)) {
        if (sv_csv_split(line, f, 32) < 17) continue;
        if (header)
            fprintf(fo, ",%s_completion_us,%s_ideal_us,%s_slowdown,%s_msg_p99_us", f[0], f[0],
                    f[0], f[0]);
        else        /* job_completion_us, job_ideal_us, slowdown, msg_p99_us */
            fprintf(fo, ",%s,%s,%s,%s", f[9], f[10], f[12], f[16]);
    }
    fclose(fp);
}

/* --check: the fabric alone, as fabric-check prints it. */
static int sv_check(const scn *s)
{
    static const char *const fsec[] = {"fabric"};
    static sv_net net;
    sv_fab fo;
    ibcc_fabric_desc d;
    char what[256] = "";
    uint64_t ok = 0;
    int rc;
    memset(&net, 0, sizeof net);
    memset(&d, 0, sizeof d);
    memset(&fo, 0, sizeof fo);
    opt_defaults(&sv_fab_cmd, &fo);
    fo.topo = -1;
    if (sv_section(s, fsec, 1, "", &sv_fab_cmd, &fo)) return 2;
    if ((rc = sv_fabric(s, &fo, &net, &d, what, sizeof what)) == 0) {
        if (net.loaded) {
            ibcc_ibfabric_error e;
            if (ibcc_ibfabric_check(&net.ib, &ok, &e) != IBCC_OK)
                rc = sv_fail("%s:%u: %s", e.file, e.line, e.reason);
        } else ok = (uint64_t)net.nh * (net.nh - 1u) << net.topo.lmc;
        if (!rc)
            printf("hosts=%u switches=%u links=%u routes_ok=%llu\n", net.nh,
                   d.node_count - net.nh, d.link_count, (unsigned long long)ok);
    }
    ibcc_topo_free(&net.topo);
    ibcc_ibfabric_free(&net.ib);
    free(net.hosts);
    return rc;
}

/* 1 when the file at path has a [section] line (a version 2 file). */
int run_is_v2(const char *path)
{
    static scn s;
    char msg[SCN_MSG], *text;
    size_t len = 0;
    int v2;
    if (!(text = scn_read_file(path, &len, msg, sizeof msg))) return 0;
    v2 = !scn_parse(&s, text, len, path, msg, sizeof msg) && !s.v1;
    if (!v2) {             /* a parse error: a [ line means version 2 */
        const char *p = text;
        while (*p == ' ' || *p == '\t' || *p == '\n' || *p == '\r') p++;
        v2 = *p == '[' || strstr(text, "\n[") != NULL;
    }
    scn_free(&s);
    free(text);
    return v2;
}

int cmd_run_v2(const char *path, int argc, char **argv)
{
    static scn s;
    char msg[SCN_MSG], dir[1100], *text;
    const char *odir;
    size_t len = 0;
    int i, list = 0, quiet = 0, check = 0;
    unsigned jobs = 1;
    unsigned long n, k;
    if (!(text = scn_read_file(path, &len, msg, sizeof msg))) return sv_fail("%s", msg);
    i = scn_parse(&s, text, len, path, msg, sizeof msg);
    free(text);
    if (i) return sv_fail("%s", msg);
    for (i = 0; i < argc; i++) {
        if (!strcmp(argv[i], "--list")) list = 1;
        else if (!strcmp(argv[i], "--check")) check = 1;
        else if (!strcmp(argv[i], "--quiet")) quiet = g_quiet = 1;  /* the study's count too */
        else if (!strncmp(argv[i], "--jobs", 6)) {
            unsigned long long j;
            const char *v = argv[i][6] == '=' ? argv[i] + 7 : i + 1 < argc ? argv[++i] : NULL;
            if (!v || !parse_uint(v, 1, 64, &j)) return sv_fail("--jobs takes 1..64");
            jobs = (unsigned)j;
        } else if (argv[i][0] != '-' && strchr(argv[i], '=')) {
            if (scn_override(&s, argv[i], msg, sizeof msg)) return sv_fail("%s", msg);
        } else return sv_fail("unexpected argument '%s' (section.key=value, --jobs N, --list, "
                              "--check, --quiet)", argv[i]);
    }
    if (check) {
        int rc = sv_check(&s);
        scn_free(&s);
        return rc;
    }
    odir = scn_get(&s, "output", NULL, "directory");
    if (!odir) odir = "results";
    if (scn_path(&s, odir, dir, sizeof dir)) return sv_fail("%s: a path too long", path);
    if (!(n = scn_points(&s, msg, sizeof msg))) return sv_fail("%s", msg);
    if (n == 1 && !list) {
        int rc = sv_point(&s, dir, quiet);
        scn_free(&s);
        return rc;
    }
    if (list) {
        char args[4096];
        for (k = 0; k < n; k++) {
            scn_select(&s, k);
            if (scn_point_args(&s, args, sizeof args)) return sv_fail("a point's arguments are too long");
            /* the folder as the file names it: the command resolves it
               against the file's folder again */
            printf("ibccsim run '%s' %s output.directory='%s/point-%03lu'\n", path, args, odir, k);
        }
        scn_free(&s);
        return 0;
    }
    {
        sv_study st;
        char sum[1300], args[4096];
        FILE *fo;
        if (sv_mkdirs(dir)) return 2;
        snprintf(sum, sizeof sum, "%s/study.csv", dir);
        if (!(fo = fopen(sum, "w"))) return sv_fail("cannot write %s: %s", sum, strerror(errno));
        st.s = &s;
        st.dir = dir;
        st.quiet = quiet;
        if (!run_points("run", (unsigned)n, jobs, sv_study_point, &st)) {
            fclose(fo);
            remove(sum);
            return 1;
        }
        fprintf(fo, "point,values");
        {   /* the classes' columns, from point 0's summary */
            FILE *fp;
            char line[1024];
            snprintf(args, sizeof args, "%s/point-000/summary.csv", dir);
            if ((fp = fopen(args, "r")) != NULL) {
                if (fgets(line, sizeof line, fp)) {
                    while (fgets(line, sizeof line, fp)) {
                        char *c1 = strchr(line, ',');
                        if (c1) *c1 = 0;
                        fprintf(fo, ",%s_flows,%s_sources,%s_delivered_packets,"
                                "%s_delivered_gbps,%s_per_source_frac,%s_latency_us,"
                                "%s_p99_latency_us,%s_marked_frac",
                                line, line, line, line, line, line, line, line);
                    }
                }
                fclose(fp);
            }
        }
        snprintf(args, sizeof args, "%s/point-000/jobs.csv", dir);
        sv_study_jobs(fo, args, 1);
        fprintf(fo, "\n");
        for (k = 0; k < n; k++) {
            scn_select(&s, k);
            (void)scn_point_args(&s, args, sizeof args);
            fprintf(fo, "%lu,\"%s\"", k, args);
            snprintf(sum, sizeof sum, "%s/point-%03lu/summary.csv", dir, k);
            sv_study_row(fo, sum);
            snprintf(sum, sizeof sum, "%s/point-%03lu/jobs.csv", dir, k);
            sv_study_jobs(fo, sum, 0);
            fprintf(fo, "\n");
        }
        snprintf(sum, sizeof sum, "%s/study.csv", dir);
        if (!close_out(fo, sum)) return 1;
        if (!quiet) printf("%lu points -> %s\n", n, sum);
    }
    scn_free(&s);
    return 0;
}
