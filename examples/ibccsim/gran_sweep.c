#include "ibccsim.h"
/* ---- gran-sweep: CCTI_Timer x Marking_Rate on scenario 1 ([G] §B.3) ----
   Every point is an independent `ibccsim gran` run with CC on, executed in
   worker processes (--jobs); one CSV row per point. --list prints the
   command of every point instead, for GNU parallel or a job array. */

static double sw_var(const char *path, double from_us)
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
                   &f[3], &f[4]) != 6 || t < from_us) continue;
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

/* The settings of grid point idx: scenario 1, CC on, the timer varying
   slowest; the outputs are the caller's. */
static void sw_fill(const sw_ctx *c, unsigned idx, gr_opts *o)
{
    gr_defaults(o);
    o->step_ms = c->step;
    o->time_ms = c->step * 5;
    o->measure_ms = c->step;
    o->ccti_timer = c->timers[idx / c->nr];
    o->marking_rate = c->rates[idx % c->nr];
    o->bin_ms = c->step / 100 < 10 ? c->step / 100 : 10;
}

/* One grid point: its summary and series in dir. */
static int sw_point(unsigned idx, void *ctx)
{
    const sw_ctx *c = (const sw_ctx *)ctx;
    gr_opts o;
    gr_result r;
    char sum[256], ser[256];
    sw_fill(c, idx, &o);
    snprintf(sum, sizeof sum, "%s/%u.csv", c->dir, idx);
    snprintf(ser, sizeof ser, "%s/%u_s.csv", c->dir, idx);
    o.summary = sum;
    o.series = ser;
    return gr_run(&o, &r) && gr_write_summary(sum, &o, &r) && r.conserved
           ? 0 : 1;
}

typedef struct gs_opts {
    const char *timers, *rates, *out;
    double step;
    unsigned jobs;
    int list;
} gs_opts;

#define OPT_T gs_opts
static const opt gs_opt[] = {
    OPT_TEXT("timers", timers, "LIST", "10,50,150,500,1000,2000",
             "CCTI_Timer values, 1.024 us units, 1..65535\n(at most 64)"),
    OPT_TEXT("rates", rates, "LIST", "0,1,2,4,8,15",
             "Marking_Rate values, 0..65535 (at most 64)"),
    OPT_DOUBLE("step", step, 1e-3, 2e4, "MS", "ms", "1000", "time between flow starts"),
    {"jobs", OT_UINT, OPT_F(jobs), 1, 64, NULL, "N", NULL, NULL,
     "worker processes", "cores", NULL, OPT_NOPARAM, NULL, NULL, NULL},
    {"out", OT_TEXT, OPT_F(out), 0, 0, NULL, "FILE", NULL, NULL, "CSV file",
     "standard output", NULL, OPT_NOPARAM, NULL, NULL, NULL},
    {"list", OT_SWITCH, OPT_F(list), 0, 1, NULL, NULL, NULL, NULL,
     "print one ibccsim command per point and exit", NULL, NULL, OPT_NOPARAM,
     NULL, NULL, NULL},
};
#undef OPT_T

const opt_cmd gs_cmd = {
    "gran-sweep", NULL,
    "Scenario 1 of [G] with CC on over a grid of CCTI_Timer x Marking_Rate;\n"
    "each point an independent run in a worker process. CSV columns:\n"
    "ccti_timer,marking_rate,victim_gbps,contributor_gbps,jain,var_gbps2\n"
    "(contributor_gbps: mean of F2..F5; var_gbps2: variance of max - min of the\n"
    "contributors' throughputs over the series points with all running).\n",
    gs_opt, OPT_N(gs_opt), NULL, NULL, 0
};

int cmd_gran_sweep(int argc, char **argv, const char *self)
{
    gs_opts so;
    unsigned timers[SW_MAX], rates[SW_MAX], nt = 0, nr = 0, jobs = 0;
    double step = 1000;
    int list = 0, i;
    const char *out = NULL, *tl = "10,50,150,500,1000,2000",
               *rl = "0,1,2,4,8,15";
    char dir[160];
    FILE *fo;
    unsigned total, p;
    long nproc = sysconf(_SC_NPROCESSORS_ONLN);
    memset(&so, 0, sizeof so);
    opt_defaults(&gs_cmd, &so);
    if ((i = opt_parse(&gs_cmd, argc, argv, &so)) != 0) return i == 1 ? 0 : 2;
    if (!sw_list(so.timers, 1, 65535, timers, &nt))
        return bad("--timers", so.timers, "comma-separated integers 1..65535 (at most 64)");
    if (!sw_list(so.rates, 0, 65535, rates, &nr))
        return bad("--rates", so.rates, "comma-separated integers 0..65535 (at most 64)");
    tl = so.timers;
    rl = so.rates;
    step = so.step;
    jobs = so.jobs;
    out = so.out;
    list = so.list;
    if (!nt) (void)sw_list(tl, 1, 65535, timers, &nt);
    if (!nr) (void)sw_list(rl, 0, 65535, rates, &nr);
    if (!jobs) jobs = nproc > 0 ? (unsigned)nproc : 1u;
    total = nt * nr;
    {
        sw_ctx c;
        c.timers = timers;
        c.rates = rates;
        c.nr = nr;
        c.step = step;
        c.dir = dir;
        if (list) {
            /* every point as the gran command that runs it, settings
               from gran's own table (the series bin included) */
            for (p = 0; p < total; p++) {
                gr_opts o;
                char tail[200];
                sw_fill(&c, p, &o);
                snprintf(tail, sizeof tail, "--quiet --summary sweep_%u_%u.csv "
                         "--series sweep_%u_%u_series.csv", timers[p / nr],
                         rates[p % nr], timers[p / nr], rates[p % nr]);
                if (!sw_point_cmd(stdout, self, &gr_cmd, &o, NULL, tail)) break;
            }
            return fflush(stdout) == 0 && !ferror(stdout) ? 0 : 1;
        }
        if ((fo = sw_open_out("gran-sweep", out)) == NULL) return 1;
        if (!sw_mkdtemp(dir, sizeof dir, "sweep")) return sw_fail(NULL, fo, out);
        if (!run_points("gran-sweep", total, jobs, sw_point, &c))
            return sw_fail(dir, fo, out);
    }
    fprintf(fo, "ccti_timer,marking_rate,victim_gbps,contributor_gbps,jain,var_gbps2\n");
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
        fprintf(fo, "%u,%u", timers[p / nr], rates[p % nr]);
        sw_put(fo, "%.4f", sw_metric(sum, "flow1_gbps"));
        sw_put(fo, "%.4f", c);
        sw_put(fo, "%.4f", sw_metric(sum, "jain_contributors"));
        sw_put(fo, "%.5f", sw_var(ser, 4e3 * step));
        fprintf(fo, "\n");
        remove(sum);
        remove(ser);
    }
    sw_rmtemp(dir);
    if (out) return close_out(fo, out) ? 0 : 1;
    return fflush(stdout) == 0 ? 0 : 1;
}


