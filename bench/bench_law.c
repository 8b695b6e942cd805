/* Microbenchmarks of the rate laws and the pacer:
   - ns per ACK step (ibcc_law_on_ack) of every built-in law (LIPD, FIMD,
     AIMD) in the continuous, discrete-IPD and table forms, on a fixed
     pseudo-random mark pattern (3 % marked), and per law the ratio
     continuous / table measured in the same repetition (median of the
     per-repetition ratios);
   - ns per ibcc_law_gap, continuous vs table;
   - ns per pacer cycle (on_send + on_ack + next) with a table law, and per
     ibcc_pacer_next alone;
   - ms per ibcc_law_init of TABLE laws (the compile): the default AIMD
     IPD table and 65536-entry geometric tables of slow laws (rmin 2^-16).
   Usage: bench_law [csv]. */
#include "bench.h" /* first: it sets _POSIX_C_SOURCE for clock_gettime */
#define IBCC_IMPLEMENTATION
#include "ibcc.h"

#define N_STEPS (1u << 20)
#define MARKS_MASK 4095u

static unsigned char marks_[MARKS_MASK + 1];
static uint64_t big_[65536 * 3];             /* 65536 table entries */
static uint64_t tab_[256 * 3];              /* one 256-entry table */

/* The library's name of a kind in upper case (the rows' names). */
static const char *kind_name(int k)
{
    static char up[32];
    const char *n = ibcc_law_kind_name((ibcc_law_kind)k);
    size_t i;
    for (i = 0; n[i] && i + 1 < sizeof up; i++)
        up[i] = (char)(n[i] >= 'a' && n[i] <= 'z' ? n[i] - 'a' + 'A' : n[i]);
    up[i] = 0;
    return up;
}

/* A kind its name alone describes (every built-in law; not CUSTOM). */
static int builtin(int k)
{
    ibcc_law_desc d;
    memset(&d, 0, sizeof d);
    d.kind = (ibcc_law_kind)k;
    return ibcc_law_defaults(&d) == IBCC_OK;
}
static const char *form_name(int f)
{
    return f == IBCC_LAW_CONTINUOUS ? "continuous"
         : f == IBCC_LAW_DISCRETE ? "discrete" : "table";
}

static void make_law(ibcc_law *l, int kind, int form)
{
    ibcc_law_desc d;
    memset(&d, 0, sizeof d);
    d.kind = (ibcc_law_kind)kind;
    d.form = (ibcc_law_form)form;
    if (ibcc_law_init(l, &d, tab_, sizeof tab_) != IBCC_OK) {
        fprintf(stderr, "bench_law: law init failed\n");
        exit(1);
    }
}

/* ns per ACK step over N_STEPS steps */
static double time_steps(ibcc_law *l)
{
    uint32_t i;
    double t0, t1;
    ibcc_law_reset(l);
    t0 = bench_now_ns();
    for (i = 0; i < N_STEPS; i++) ibcc_law_on_ack(l, marks_[i & MARKS_MASK]);
    t1 = bench_now_ns();
    BENCH_KEEP(l->s.index + l->s.q + (uint64_t)(l->s.x * 1e6));
    return (t1 - t0) / N_STEPS;
}

/* ns per gap computation, the law moving through its states */
static double time_gap(ibcc_law *l)
{
    uint32_t i;
    uint64_t acc = 0;
    double t0, t1;
    ibcc_law_reset(l);
    t0 = bench_now_ns();
    for (i = 0; i < N_STEPS; i++) {
        acc += ibcc_law_gap(l, IBCC_NS(2048) + (i & 7u));
        if ((i & 15u) == 0) ibcc_law_on_ack(l, marks_[(i >> 4) & MARKS_MASK]);
    }
    t1 = bench_now_ns();
    BENCH_KEEP(acc);
    return (t1 - t0) / N_STEPS;
}

int main(int argc, char **argv)
{
    ibcc_rng r;
    int kind, form, rep;
    char name[96];
    bench_open(argc, argv);
    ibcc_rng_seed(&r, 7);
    for (rep = 0; rep <= (int)MARKS_MASK; rep++)
        marks_[rep] = (unsigned char)(ibcc_rng_below(&r, 100) < 3);

    printf("bench_law: %u ACK steps per run, median of %d runs\n", N_STEPS, BENCH_REPS);
    /* every built-in law, in the library's order */
    for (kind = 1; strcmp(ibcc_law_kind_name((ibcc_law_kind)kind), "?"); kind++) {
        double v[3][BENCH_REPS], ratio[BENCH_REPS];
        ibcc_law l[3];
        if (!builtin(kind)) continue;
        for (form = 0; form < 3; form++) make_law(&l[form], kind, form + 1);
        for (rep = 0; rep < BENCH_REPS; rep++) {
            for (form = 0; form < 3; form++) v[form][rep] = time_steps(&l[form]);
            ratio[rep] = v[0][rep] / v[2][rep];
        }
        for (form = 0; form < 3; form++) {
            snprintf(name, sizeof name, "law %s %s on_ack", kind_name(kind),
                     form_name(form + 1));
            bench_row(name, bench_median(v[form], BENCH_REPS), "ns/ack");
        }
        snprintf(name, sizeof name, "law %s on_ack continuous/table", kind_name(kind));
        bench_row(name, bench_median(ratio, BENCH_REPS), "ratio");
    }
    {
        double vc[BENCH_REPS], vt[BENCH_REPS], ratio[BENCH_REPS];
        ibcc_law c, t;
        make_law(&c, IBCC_LAW_LIPD, IBCC_LAW_CONTINUOUS);
        make_law(&t, IBCC_LAW_LIPD, IBCC_LAW_TABLE);
        for (rep = 0; rep < BENCH_REPS; rep++) {
            vc[rep] = time_gap(&c);
            vt[rep] = time_gap(&t);
            ratio[rep] = vc[rep] / vt[rep];
        }
        bench_row("law LIPD continuous gap", bench_median(vc, BENCH_REPS), "ns/op");
        bench_row("law LIPD table gap", bench_median(vt, BENCH_REPS), "ns/op");
        bench_row("law LIPD gap continuous/table", bench_median(ratio, BENCH_REPS), "ratio");
    }
    {
        double vcyc[BENCH_REPS], vnext[BENCH_REPS];
        ibcc_law l;
        ibcc_pacer p;
        ibcc_pacer_desc pd;
        make_law(&l, IBCC_LAW_LIPD, IBCC_LAW_TABLE);
        memset(&pd, 0, sizeof pd);
        pd.law = &l;
        pd.window = IBCC_PACER_NO_WINDOW;
        for (rep = 0; rep < BENCH_REPS; rep++) {
            uint32_t i;
            ibcc_time now = 0;
            uint64_t acc = 0;
            double t0, t1;
            ibcc_law_reset(&l);
            if (ibcc_pacer_init(&p, &pd) != IBCC_OK) return 1;
            t0 = bench_now_ns();
            for (i = 0; i < N_STEPS; i++) {
                (void)ibcc_pacer_on_send(&p, now, IBCC_NS(2048));
                (void)ibcc_pacer_on_ack(&p, marks_[i & MARKS_MASK]);
                now = ibcc_pacer_next(&p);
            }
            t1 = bench_now_ns();
            BENCH_KEEP(now);
            vcyc[rep] = (t1 - t0) / N_STEPS;
            t0 = bench_now_ns();
            for (i = 0; i < N_STEPS; i++) {
                p.last_tau = IBCC_NS(2048) + (i & 7u);
                acc += ibcc_pacer_next(&p);
            }
            t1 = bench_now_ns();
            BENCH_KEEP(acc);
            vnext[rep] = (t1 - t0) / N_STEPS;
        }
        bench_row("pacer cycle send+ack+next (LIPD table)", bench_median(vcyc, BENCH_REPS), "ns/pkt");
        bench_row("pacer next (LIPD table)", bench_median(vnext, BENCH_REPS), "ns/op");
    }
    {
        /* compile cost: kind, rate set, entries, rmin, m */
        static const struct { int kind, rates; uint32_t n; double rmin, m; const char *name; } c[] = {
            { IBCC_LAW_AIMD, IBCC_LAW_RATES_IPD, 0, 0.0, 0.0,
              "law init AIMD table IPD 256 (defaults)" },
            { IBCC_LAW_AIMD, IBCC_LAW_RATES_GEOMETRIC, 65536, 1.0 / 65536.0, 2.0,
              "law init AIMD geometric 65536 rmin 2^-16 m 2" },
            { IBCC_LAW_AIMD, IBCC_LAW_RATES_GEOMETRIC, 65536, 1.0 / 65536.0, 1.0001,
              "law init AIMD geometric 65536 rmin 2^-16 m 1.0001" },
            { IBCC_LAW_FIMD, IBCC_LAW_RATES_GEOMETRIC, 65536, 1.0 / 65536.0, 1.0001,
              "law init FIMD geometric 65536 rmin 2^-16 m 1.0001" }
        };
        size_t k;
        for (k = 0; k < sizeof c / sizeof c[0]; k++) {
            double v[BENCH_REPS];
            for (rep = 0; rep < BENCH_REPS; rep++) {
                ibcc_law_desc d;
                ibcc_law l;
                double t0, t1;
                memset(&d, 0, sizeof d);
                d.kind = (ibcc_law_kind)c[k].kind;
                d.form = IBCC_LAW_TABLE;
                d.rates = (ibcc_law_rates)c[k].rates;
                d.table_size = c[k].n;
                d.rmin = c[k].rmin;
                d.m = c[k].m;
                t0 = bench_now_ns();
                if (ibcc_law_init(&l, &d, big_, sizeof big_) != IBCC_OK) {
                    fprintf(stderr, "bench_law: %s failed\n", c[k].name);
                    return 1;
                }
                t1 = bench_now_ns();
                BENCH_KEEP(l.table[1].inc);
                v[rep] = (t1 - t0) / 1e6;
            }
            bench_row(c[k].name, bench_median(v, BENCH_REPS), "ms");
        }
    }
    bench_close();
    return 0;
}
