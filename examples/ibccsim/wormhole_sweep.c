#include "ibccsim.h"
/* wormhole-sweep: one wormhole run per value of --vary (load or seg),
   each in a worker process; one CSV row per point. */
typedef struct whs_ctx {
    const wh_opts *base;
    int vary_seg;
    const double *vals;
    const char *dir;
} whs_ctx;

/* The settings of point idx: the base run with the varied value. */
static void whs_fill(const whs_ctx *c, unsigned idx, wh_opts *o)
{
    *o = *c->base;
    if (c->vary_seg) {
        o->adaptive = c->vals[idx] == 0;
        if (!o->adaptive) o->seg = (unsigned)c->vals[idx];
    } else {
        o->load = c->vals[idx];
    }
    o->series = NULL;
}

static int whs_point(unsigned idx, void *ctx)
{
    const whs_ctx *c = (const whs_ctx *)ctx;
    wh_opts o;
    wh_res r;
    char sum[256];
    whs_fill(c, idx, &o);
    snprintf(sum, sizeof sum, "%s/%u.csv", c->dir, idx);
    return wh_run(&o, &r) && wh_write_summary(sum, &o, &r) ? 0 : 1;
}

typedef struct whs_opts {
    int vary;
    const char *values, *out;
    unsigned jobs;
    int list;
    wh_opts w;
} whs_opts;

#define OPT_T whs_opts
static const opt whs_opt[] = {
    OPT_CHOICE("vary", vary, "load|seg", NULL, "what the points vary (required)"),
    OPT_TEXT("values", values, "V1,V2,...", NULL,
             "loads 0.001..1, or segment lengths 1..65535\n"
             "with 'adaptive' for B x h (at most 64)"),
    {"jobs", OT_UINT, OPT_F(jobs), 1, 64, NULL, "N", NULL, NULL,
     "worker processes", "cores", NULL, OPT_NOPARAM, NULL, NULL, NULL},
    {"out", OT_TEXT, OPT_F(out), 0, 0, NULL, "FILE", NULL, NULL, "CSV file",
     "standard output", NULL, OPT_NOPARAM, NULL, NULL, NULL},
    {"list", OT_SWITCH, OPT_F(list), 0, 1, NULL, NULL, NULL, NULL,
     "print one ibccsim command per point and exit", NULL, NULL, OPT_NOPARAM,
     NULL, NULL, NULL},
};
#undef OPT_T

const opt_cmd whs_cmd = {
    "wormhole-sweep", "--vary load|seg [--values V1,V2,...] [--jobs N] [--out FILE] [--list] [wormhole flags]",
    "One `ibccsim wormhole` run per value, each in a worker process;\n"
    "CSV: load_frac or seg, offered_high_frac,offered_low_frac,accepted_high_frac,\n"
    "accepted_low_frac,delay_mean_high_us,delay_p99_high_us,delay_mean_low_us,\n"
    "delay_p99_low_us,link_util_max_frac,conserved,kdelay_mean_high_us,kdelay_p99_high_us,\n"
    "kdelay_mean_low_us,kdelay_p99_low_us ([K]'s delay: first segment\n"
    "leaving its host to the head of the last one arriving).\n"
    "Defaults: loads 0.1..1 step 0.1; segments 33,50,100,200,300,500.\n"
    "--list prints the `ibccsim wormhole` command of every point instead (for\n"
    "GNU parallel or a job array).\n",
    whs_opt, OPT_N(whs_opt), NULL, &wh_cmd, offsetof(whs_opts, w)
};

int cmd_wormhole_sweep(int argc, char **argv)
{
    whs_opts so;
    static const char *const cols[] = {"offered_high_frac", "offered_low_frac",
        "accepted_high_frac", "accepted_low_frac", "delay_mean_high_us",
        "delay_p99_high_us", "delay_mean_low_us",
        "delay_p99_low_us", "link_util_max_frac", "conserved", "kdelay_mean_high_us",
        "kdelay_p99_high_us", "kdelay_mean_low_us", "kdelay_p99_low_us"};
    double vals[64];
    unsigned nv = 0, jobs = 0, k, c;
    int vary_seg = -1, rc;
    const char *out = NULL, *list = NULL;
    char dir[160];
    long nproc = sysconf(_SC_NPROCESSORS_ONLN);
    wh_opts o;
    FILE *fo;
    memset(&so, 0, sizeof so);
    opt_defaults(&whs_cmd, &so);
    rc = opt_parse(&whs_cmd, argc, argv, &so);
    if (rc == 1) return 0;
    if (rc) return rc;
    if (!opt_given("vary")) {
        fprintf(stderr, "ibccsim wormhole-sweep: --vary load|seg is required\n");
        return 2;
    }
    vary_seg = so.vary;
    list = so.values;
    jobs = so.jobs;
    out = so.out;
    o = so.w;
    if ((rc = wh_check(&o)) != 0) return rc;
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
    {
        whs_ctx cx;
        cx.base = &o;
        cx.vary_seg = vary_seg;
        cx.vals = vals;
        cx.dir = dir;
        if (so.list) {
            for (k = 0; k < nv; k++) {
                wh_opts po;
                char tail[160];
                whs_fill(&cx, k, &po);
                if (vary_seg && vals[k] == 0)
                    snprintf(tail, sizeof tail, "--quiet --summary wormhole_sweep_adaptive.csv");
                else
                    snprintf(tail, sizeof tail, "--quiet --summary wormhole_sweep_%g.csv", vals[k]);
                if (!sw_point_cmd(stdout, g_self, &wh_cmd, &po, NULL, tail)) break;
            }
            return fflush(stdout) == 0 && !ferror(stdout) ? 0 : 1;
        }
        if ((fo = sw_open_out("wormhole-sweep", out)) == NULL) return 1;
        if (!sw_mkdtemp(dir, sizeof dir, "whsweep")) return sw_fail(NULL, fo, out);
        if (!run_points("wormhole-sweep", nv, jobs, whs_point, &cx))
            return sw_fail(dir, fo, out);
    }
    fprintf(fo, "%s", vary_seg ? "seg" : "load_frac");
    for (c = 0; c < sizeof cols / sizeof cols[0]; c++) fprintf(fo, ",%s", cols[c]);
    fprintf(fo, "\n");
    for (k = 0; k < nv; k++) {
        char sum[256];
        snprintf(sum, sizeof sum, "%s/%u.csv", dir, k);
        if (vary_seg && vals[k] == 0) fprintf(fo, "adaptive");
        else fprintf(fo, "%g", vals[k]);
        for (c = 0; c < sizeof cols / sizeof cols[0]; c++) {
            double x = sw_metric(sum, cols[c]);
            if (x == x) fprintf(fo, ",%g", x);
            else fprintf(fo, ",");          /* missing in the point's summary */
        }
        fprintf(fo, "\n");
        remove(sum);
    }
    sw_rmtemp(dir);
    if (out) return close_out(fo, out) ? 0 : 1;
    return fflush(fo) == 0 ? 0 : 1;
}

