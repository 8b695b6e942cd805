#include "ibccsim.h"

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

/* ---- recovery ------------------------------------------------------------ */
int cmd_recovery(int argc, char **argv)
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

