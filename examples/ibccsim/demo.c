#include "ibccsim.h"
/* ---- demo ------------------------------------------------------------------ */
typedef struct demo_row {
    const char *name;
    ibcc_marker_engine marking;
    ibcc_classify classify;
    unsigned t_out;
    int law;
} demo_row;

typedef struct demo_opts {
    double time_ms;
} demo_opts;

#define OPT_T demo_opts
static const opt demo_opt[] = {
    OPT_DOUBLE("time", time_ms, 61, 1e4, "MS", "ms", "100",
               "simulated time of each run (the victim\nwindow [40, 60] ms must fit)"),
};
#undef OPT_T

const opt_cmd demo_cmd = {
    "demo", NULL,
    "Runs the two-switch victim scenario (L=10, R=10, buffer 4,\n"
    "window 1) without CC and with each marking engine + LIPD,\n"
    "and prints one table with a plain reading of it.\n",
    demo_opt, OPT_N(demo_opt), NULL, NULL, 0
};

int cmd_demo(int argc, char **argv)
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
    {
        int rc;
        demo_opts o;
        memset(&o, 0, sizeof o);
        opt_defaults(&demo_cmd, &o);
        if ((rc = opt_parse(&demo_cmd, argc, argv, &o)) != 0) return rc == 1 ? 0 : 2;
        ms = o.time_ms;
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

