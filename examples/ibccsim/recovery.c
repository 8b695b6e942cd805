#include "ibccsim.h"

/* ---- recovery: a law's rate recovery curve ([S03] Fig. 5) -------------- */
typedef struct rc_opts {
    int law, discrete;
    double g;
    unsigned long long packet, div, points;
    const char *summary;
    int quiet;
} rc_opts;

#define OPT_T rc_opts
static const opt rc_opt[] = {
    OPT_LAW("law", law, NULL, NULL, "the law (required)"),
    OPT_SWITCH("discrete", discrete, 1, "discrete IPD rates"),
    OPT_DOUBLE("link-gbytes", g, 1e-6, 1e6, "G", "GB/s", "1", "link rate"),
    OPT_U64("packet", packet, 1, 65535, "BYTES", "bytes", "2048", "packet size on the wire"),
    OPT_U64("rmin-div", div, 2, 65536, "D", NULL, "256", "Rmin = Rmax / D"),
    OPT_U64("points", points, 0, 1000000, "N", NULL, "200",
            "curve points, evenly spaced in time;\n0 prints every ACK"),
    {"summary", OT_TEXT, OPT_F(summary), 0, 0, NULL, "FILE", NULL, NULL,
     "CSV metric,value: recovery_us, the time from\nRmin to Rmax", NULL, NULL,
     OPT_NOPARAM, NULL, NULL, NULL},
    {"quiet", OT_SWITCH, OPT_F(quiet), 0, 1, NULL, NULL, NULL, NULL,
     "no recovery_us=... line on standard error", NULL, NULL, OPT_NOPARAM,
     NULL, NULL, NULL},
};
#undef OPT_T

const opt_cmd rc_cmd = {
    "recovery", "--law LAW [flags]",
    "Rate recovery from Rmin to Rmax with no marks, one ACK per packet\n"
    "interval ([S03] Fig. 5). Prints the curve as CSV (time_us,rate_frac:\n"
    "the rate as a fraction of Rmax) and the recovery time, recovery_us,\n"
    "into --summary or else as recovery_us=<value> on standard error.\n",
    rc_opt, OPT_N(rc_opt), NULL, NULL, 0
};

int cmd_recovery(int argc, char **argv)
{
    ibcc_law_desc ld;
    ibcc_law law;
    ibcc_law_recovery_result rr;
    ibcc_law_point *curve;
    ibcc_time tau;
    double g;
    unsigned long long packet, div, points;
    int kind, discrete;
    size_t cap = 1u << 20, k;
    ibcc_time next_t = 0;
    ibcc_result r;
    void *mem;
    size_t ls;
    rc_opts o;
    memset(&o, 0, sizeof o);
    opt_defaults(&rc_cmd, &o);
    if ((r = (ibcc_result)opt_parse(&rc_cmd, argc, argv, &o)) != 0)
        return (int)r == 1 ? 0 : 2;
    kind = o.law;
    discrete = o.discrete;
    g = o.g;
    packet = o.packet;
    div = o.div;
    points = o.points;
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
    printf("time_us,rate_frac\n");
    /* every ACK (--points 0), or the first ACK at or after each of
       `points` instants evenly spaced in time, and always the last */
    for (k = 0; k < rr.points; k++) {
        int last = (k + 1 == rr.points);
        if (points && !last && curve[k].t < next_t) continue;
        printf("%.3f,%.6f\n", (double)curve[k].t / 1e6, curve[k].rate);
        if (points)
            while (next_t <= curve[k].t) next_t += rr.time / points + 1;
    }
    free(curve);
    free(mem);
    /* standard output holds the curve only: the recovery time goes to the
       summary, else to standard error */
    if (o.summary) {
        FILE *fp = fopen(o.summary, "w");
        if (!fp) {
            fprintf(stderr, "ibccsim: cannot write %s: %s\n", o.summary, strerror(errno));
            return 1;
        }
        fprintf(fp, "metric,value\nrecovery_us,%.3f\n", (double)rr.time / 1e6);
        if (!close_out(fp, o.summary) || !params_write(o.summary, &rc_cmd, &o, NULL, NULL))
            return 1;
    } else if (!o.quiet) {
        fprintf(stderr, "recovery_us=%.3f\n", (double)rr.time / 1e6);
    }
    return 0;
}

