/* Microbenchmarks of the channel-adapter engines: the CCT agent's BECN and
   delay lookup, the lazy SL timers against an eager per-expiry reference
   on the same event stream (10, 1 000 and 100 000 flows on one SL), and
   the MVCM ACK step. Usage: bench_ca [csv] */
#include "bench.h"
#define IBCC_IMPLEMENTATION
#include "ibcc.h"

#define P1 UINT64_C(1024000)          /* CCTI_Timer unit, ps */
#define EVENTS 20000
#define MAXF 100000

static uint64_t mem_[(MAXF * 16 + 65536) / 8];
static ibcc_time ev_t[EVENTS];
static uint32_t ev_f[EVENTS];
static uint8_t ev_k[EVENTS];          /* 1 = BECN, 0 = delay query */

/* Eager reference on one SL: every flow visited at every expiry. */
typedef struct eager {
    uint32_t flows;
    unsigned inc, min, limit;
    ibcc_time period, next;
    int running;
    uint16_t ccti[MAXF];
} eager;
static eager eg_;

static void e_adv(eager *e, ibcc_time now)
{
    while (e->running && e->next <= now) {
        uint32_t i;
        int any = 0;
        for (i = 0; i < e->flows; i++) {
            if (e->ccti[i] > e->min) e->ccti[i]--;
            if (e->ccti[i] > e->min) any = 1;
        }
        if (any) e->next += e->period; else e->running = 0;
    }
}

static unsigned e_event(eager *e, uint32_t f, int becn, ibcc_time now)
{
    e_adv(e, now);
    if (becn) {
        unsigned nv = e->ccti[f] + e->inc;
        e->ccti[f] = (uint16_t)(nv > e->limit ? e->limit : nv);
        if (!e->running) { e->running = 1; e->next = now + e->period; }
    }
    return e->ccti[f];
}

static void mk_cct(ibcc_cct *c, uint32_t flows)
{
    ibcc_cct_desc d;
    unsigned s;
    memset(&d, 0, sizeof d);
    d.flows = flows;
    for (s = 0; s < IBCC_CCT_SLS; s++) { d.sl[s].ccti_timer = 1; d.sl[s].ccti_increase = 2; }
    if (ibcc_cct_init(c, &d, mem_, sizeof mem_) != IBCC_OK) {
        fprintf(stderr, "bench_ca: cct init failed\n");
        exit(1);
    }
}

/* Event stream: one event every P1/4 on average, 30 % BECNs. */
static void mk_stream(uint32_t flows, uint64_t seed)
{
    ibcc_rng r;
    ibcc_time t = 0;
    int i;
    ibcc_rng_seed(&r, seed);
    for (i = 0; i < EVENTS; i++) {
        t += ibcc_rng_below(&r, P1 / 2);
        ev_t[i] = t;
        ev_f[i] = (uint32_t)ibcc_rng_below(&r, flows);
        ev_k[i] = (uint8_t)(ibcc_rng_below(&r, 10) < 3);
    }
}

static void bench_timers(uint32_t flows)
{
    double vl[BENCH_REPS], ve[BENCH_REPS], vr[BENCH_REPS];
    char name[96];
    int rep, i;
    ibcc_cct c;
    mk_stream(flows, 42 + flows);
    for (rep = 0; rep < BENCH_REPS; rep++) {
        double t0, t1, t2;
        uint64_t sl = 0, se = 0;
        mk_cct(&c, flows);
        memset(&eg_, 0, sizeof eg_);
        eg_.flows = flows; eg_.inc = 2; eg_.min = 0; eg_.limit = 127;
        eg_.period = P1;
        t0 = bench_now_ns();
        for (i = 0; i < EVENTS; i++)
            sl += ev_k[i] ? ibcc_cct_on_becn(&c, ev_f[i], ev_t[i])
                          : ibcc_cct_ccti(&c, ev_f[i], ev_t[i]);
        t1 = bench_now_ns();
        for (i = 0; i < EVENTS; i++)
            se += e_event(&eg_, ev_f[i], ev_k[i], ev_t[i]);
        t2 = bench_now_ns();
        if (sl != se) { fprintf(stderr, "bench_ca: lazy != eager\n"); exit(1); }
        BENCH_KEEP(sl);
        vl[rep] = (t1 - t0) / EVENTS;
        ve[rep] = (t2 - t1) / EVENTS;
        vr[rep] = ve[rep] / vl[rep];
    }
    sprintf(name, "cct SL timer lazy, %u flows/SL", (unsigned)flows);
    bench_row(name, bench_median(vl, BENCH_REPS), "ns/event");
    sprintf(name, "cct SL timer eager, %u flows/SL", (unsigned)flows);
    bench_row(name, bench_median(ve, BENCH_REPS), "ns/event");
    sprintf(name, "cct SL timer eager/lazy, %u flows/SL", (unsigned)flows);
    bench_row(name, bench_median(vr, BENCH_REPS), "ratio");
}

static void bench_becn_delay(void)
{
    enum { N = 1000000, F = 1024 };
    double vb[BENCH_REPS], vd[BENCH_REPS];
    int rep;
    ibcc_cct c;
    mk_cct(&c, F);
    for (rep = 0; rep < BENCH_REPS; rep++) {
        double t0, t1, t2;
        uint64_t acc = 0;
        uint32_t i;
        ibcc_time t = (ibcc_time)rep * N * 100000u;
        t0 = bench_now_ns();
        for (i = 0; i < N; i++) {
            uint32_t f = (i * 2654435761u) & (F - 1);
            t += 100000;                       /* 100 ns per event */
            acc += ibcc_cct_on_becn(&c, f, t);
            acc += ibcc_cct_delay(&c, f ^ 5u, t);
        }
        t1 = bench_now_ns();
        for (i = 0; i < N; i++) {
            uint32_t f = (i * 2654435761u) & (F - 1);
            t += 100000;
            acc += ibcc_cct_delay(&c, f, t);
        }
        t2 = bench_now_ns();
        BENCH_KEEP(acc);
        vb[rep] = (t1 - t0) / N;
        vd[rep] = (t2 - t1) / N;
    }
    bench_row("cct BECN + delay lookup (1024 flows)", bench_median(vb, BENCH_REPS), "ns/op");
    bench_row("cct delay lookup (1024 flows)", bench_median(vd, BENCH_REPS), "ns/op");
}

static void bench_mvcm(void)
{
    enum { N = 2000000, F = 1024 };
    static uint8_t bits[4096];
    double v[BENCH_REPS];
    ibcc_mvcm a;
    ibcc_mvcm_desc d;
    ibcc_rng r;
    int rep;
    uint32_t i;
    memset(&d, 0, sizeof d);
    d.flows = F;
    d.ws = 1000;
    if (ibcc_mvcm_init(&a, &d, mem_, sizeof mem_) != IBCC_OK) exit(1);
    ibcc_rng_seed(&r, 7);
    for (i = 0; i < 4096; i++) {
        uint64_t x = ibcc_rng_below(&r, 3);
        bits[i] = (uint8_t)(x == 0 ? 0 : x == 1 ? IBCC_MB : (IBCC_MB | IBCC_VB));
    }
    for (rep = 0; rep < BENCH_REPS; rep++) {
        double t0, t1;
        uint64_t acc = 0;
        t0 = bench_now_ns();
        for (i = 0; i < N; i++) {
            uint32_t f = (i * 2654435761u) & (F - 1);
            acc += (uint64_t)ibcc_mvcm_on_ack(&a, f, bits[i & 4095]);
            acc += ibcc_mvcm_wait(&a, f);
        }
        t1 = bench_now_ns();
        BENCH_KEEP(acc);
        v[rep] = (t1 - t0) / N;
    }
    bench_row("mvcm ACK step + wait (1024 flows)", bench_median(v, BENCH_REPS), "ns/op");
}

int main(int argc, char **argv)
{
    bench_open(argc, argv);
    bench_becn_delay();
    bench_timers(10);
    bench_timers(1000);
    bench_timers(100000);
    bench_mvcm();
    bench_close();
    return 0;
}
