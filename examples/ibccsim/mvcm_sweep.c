#include "ibccsim.h"
/* mvcm-sweep: average latency against accepted traffic for each CMM, no
   hot spot, one worker process per point. */
typedef struct mw_ctx {
    const double *loads;
    unsigned nl, k, n, hot;
    const char *dir;
} mw_ctx;

/* The settings of point idx: the CMM varies slowest, then the load. */
static void mw_fill(const mw_ctx *c, unsigned idx, mv_opts *o)
{
    mv_defaults(o);
    o->k = c->k;
    o->n = c->n;
    o->cmm = (int)(idx / c->nl);
    o->load_h = c->loads[idx % c->nl];
    o->load_host = 1;
    if (c->hot) {
        o->hot_packets = c->hot;         /* the default hot sources */
    } else {
        o->hot_set = 1;
        o->hot_sources = 0;
        o->hot_after = 20000;
    }
}

static int mw_point(unsigned idx, void *ctx)
{
    const mw_ctx *c = (const mw_ctx *)ctx;
    mv_opts o;
    mv_res r;
    char sum[256];
    mw_fill(c, idx, &o);
    snprintf(sum, sizeof sum, "%s/%u.csv", c->dir, idx);
    return mv_run(&o, &r) && mv_write_summary(sum, &o, &r) ? 0 : 1;
}

typedef struct ms_opts {
    unsigned k, n, jobs, hot;
    const char *loads, *out;
    int list;
} ms_opts;

#define OPT_T ms_opts
static const opt ms_opt[] = {
    OPT_UINT("k", k, 1, 64, "K", NULL, "4", "the k-ary n-fly: k"),
    OPT_UINT("n", n, 1, 64, "N", NULL, "3", "the k-ary n-fly: n"),
    {"loads", OT_TEXT, OPT_F(loads), 0, 0, NULL, "L1,L2,...", NULL, NULL,
     "loads per host, 0.001..1 (at most 32)", "0.1,0.2,...,1.0", NULL, 0, NULL, NULL, NULL},
    OPT_UINT("hot-spot", hot, 0, 1e6, "P", "packets", "0",
             "the default hot sources also send P packets\n"
             "each to the hot host ([F] Fig 9a); 0: no hot spot"),
    {"jobs", OT_UINT, OPT_F(jobs), 1, 64, NULL, "N", NULL, NULL,
     "worker processes", "cores", NULL, OPT_NOPARAM, NULL, NULL, NULL},
    {"out", OT_TEXT, OPT_F(out), 0, 0, NULL, "FILE", NULL, NULL, "CSV file",
     "standard output", NULL, OPT_NOPARAM, NULL, NULL, NULL},
    {"list", OT_SWITCH, OPT_F(list), 0, 1, NULL, NULL, NULL, NULL,
     "print one ibccsim command per point and exit", NULL, NULL, OPT_NOPARAM,
     NULL, NULL, NULL},
};
#undef OPT_T

const opt_cmd ms_cmd = {
    "mvcm-sweep", NULL,
    "Average latency (cycles) against accepted traffic (bytes/cycle/host)\n"
    "for each CMM under uniform traffic at each load (per host). Each point\n"
    "an independent run in a worker process. CSV: cmm,load_bytes_per_cycle,\n"
    "accepted_bytes_per_cycle,latency_cycles. --list prints the `ibccsim mvcm`\n"
    "command of every point instead (for GNU parallel or a job array).\n",
    ms_opt, OPT_N(ms_opt), NULL, NULL, 0
};

int cmd_mvcm_sweep(int argc, char **argv)
{
    ms_opts so;
    static const char *const cm[] = {"none", "rp", "pi", "mvcm"};
    double loads[32];
    unsigned nl = 0, jobs = 0, k = 4, n = 3, p, total, hot = 0;
    const char *out = NULL;
    char dir[160];
    long nproc = sysconf(_SC_NPROCESSORS_ONLN);
    int i;
    FILE *fo;
    memset(&so, 0, sizeof so);
    opt_defaults(&ms_cmd, &so);
    if ((i = opt_parse(&ms_cmd, argc, argv, &so)) != 0) return i == 1 ? 0 : 2;
    k = so.k;
    n = so.n;
    jobs = so.jobs;
    out = so.out;
    hot = so.hot;
    if (so.loads) {
        const char *a = "--loads", *v = so.loads;
        char buf[512], *q, *tok;
        if (strlen(v) >= sizeof buf) return bad(a, v, "comma-separated loads");
        strcpy(buf, v);
        nl = 0;
        for (q = buf; (tok = strtok(q, ",")) != NULL; q = NULL) {
            if (nl >= sizeof loads / sizeof loads[0])
                return bad(a, v, "at most 32 loads");
            if (!parse_double(tok, 1e-3, 1, &loads[nl++]))
                return bad(a, v, "comma-separated loads 0.001..1");
        }
        if (!nl) return bad(a, v, "comma-separated loads 0.001..1");
    }
    if (!nl) {
        static const double def[] = {0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8,
                                     0.9, 1.0};
        for (nl = 0; nl < 10; nl++) loads[nl] = def[nl];
    }
    if (!jobs) jobs = nproc > 0 ? (unsigned)nproc : 1u;
    total = 4u * nl;
    {
        mw_ctx c;
        c.loads = loads;
        c.nl = nl;
        c.k = k;
        c.n = n;
        c.hot = hot;
        c.dir = dir;
        if (so.list) {
            /* the flags that matter by being given: --load (a per-host
               load) and, without a hot spot, --hot-sources 0 */
            static const char *const given[] = {"load", "hot-sources", NULL};
            static const char *const given_hot[] = {"load", NULL};
            for (p = 0; p < total; p++) {
                mv_opts o;
                char tail[160];
                mw_fill(&c, p, &o);
                snprintf(tail, sizeof tail, "--quiet --summary mvcm_sweep_%s_%g.csv",
                         cm[p / nl], loads[p % nl]);
                if (!sw_point_cmd(stdout, g_self, &mv_cmd, &o, hot ? given_hot : given,
                                  tail))
                    break;
            }
            return fflush(stdout) == 0 && !ferror(stdout) ? 0 : 1;
        }
        if ((fo = sw_open_out("mvcm-sweep", out)) == NULL) return 1;
        if (!sw_mkdtemp(dir, sizeof dir, "mvsweep")) return sw_fail(NULL, fo, out);
        if (!run_points("mvcm-sweep", total, jobs, mw_point, &c))
            return sw_fail(dir, fo, out);
    }
    fprintf(fo, "cmm,load_bytes_per_cycle,accepted_bytes_per_cycle,latency_cycles\n");
    for (p = 0; p < total; p++) {
        char sum[256];
        snprintf(sum, sizeof sum, "%s/%u.csv", dir, p);
        fprintf(fo, "%s,%g", cm[p / nl], loads[p % nl]);
        sw_put(fo, "%.5f", sw_metric(sum, "accepted_bytes_per_cycle"));
        sw_put(fo, "%.1f", sw_metric(sum, "latency_mean_cycles"));
        fprintf(fo, "\n");
        remove(sum);
    }
    sw_rmtemp(dir);
    if (out) return close_out(fo, out) ? 0 : 1;
    return fflush(stdout) == 0 ? 0 : 1;
}

