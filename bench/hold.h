/* The event-loop hold model, shared by bench/bench_loop.c (ibcc) and
   bench/ns3_hold.cc (ns-3's schedulers) so both run the same workload.

   Hold model: N events are pending; executing one schedules exactly one
   more at now + d, so the queue size stays N. Delays d are exponential
   with mean HOLD_MEAN_PS (1 us), drawn once from ibcc's RNG
   (xoshiro256**, seed HOLD_SEED), rounded down to whole ps plus 1 ps so
   none is 0, and stored in a table of HOLD_DELAYS entries that both
   sides walk cyclically: the random-number cost stays out of the timed
   loop and both schedulers see the identical sequence of times.
   Per repetition: insert N events at times delay[0..N-1] (cyclic), run
   warm-up events (max(N, 2^17)) to reach the steady state, then time
   HOLD_EVENTS(N) further events. Needs ibcc.h included before it. */
#ifndef IBCC_BENCH_HOLD_H
#define IBCC_BENCH_HOLD_H

#define HOLD_DELAYS   4096u                 /* power of two */
#define HOLD_MEAN_PS  1000000.0             /* 1 us in ps */
#define HOLD_SEED     20260101u
#define HOLD_NCOUNT   5

static const unsigned long hold_n[HOLD_NCOUNT] = { 1, 16, 1024, 65536, 1048576 };

/* timed events per repetition and repetitions, per N: the ibcc side takes
   about 10 s in all, the four ns-3 variants about 100 s */
static unsigned long hold_events(unsigned long n)
{
    return n >= 1048576 ? 1000000ul : (n >= 65536 ? 2000000ul : 3000000ul);
}
static int hold_reps(unsigned long n) { return n >= 1048576 ? 3 : (n >= 65536 ? 5 : 7); }
static unsigned long hold_warm(unsigned long n) { return n > 131072ul ? n : 131072ul; }

static void hold_delays(ibcc_time *tab)
{
    ibcc_rng r;
    unsigned i;
    ibcc_rng_seed(&r, HOLD_SEED);
    for (i = 0; i < HOLD_DELAYS; i++)
        tab[i] = 1u + (ibcc_time)ibcc_rng_exp(&r, HOLD_MEAN_PS);
}
/* One repetition of the hold model on ibcc's loop, in caller memory of
   `len` bytes (room for n events), on the delay table `tab`; returns ns
   per event, or -1 on an error. Needs bench.h (bench_now_ns). */
typedef struct hold_ibcc_ctx {
    const ibcc_time *tab;
    uint64_t next, failed;
} hold_ibcc_ctx;

static void hold_ibcc_cb(ibcc_loop *l, void *ctx, uint64_t arg)
{
    hold_ibcc_ctx *h = (hold_ibcc_ctx *)ctx;
    ibcc_time d = h->tab[h->next++ & (HOLD_DELAYS - 1u)];
    if (ibcc_loop_after(l, d, hold_ibcc_cb, ctx, arg, NULL) != IBCC_OK)
        h->failed++;
}

static double hold_ibcc(void *mem, size_t len, unsigned long n,
                        const ibcc_time *tab)
{
    ibcc_loop l;
    ibcc_loop_desc d;
    hold_ibcc_ctx h;
    unsigned long i, m = hold_events(n), w = hold_warm(n);
    double t0, t1;
    d.capacity = (uint32_t)n;
    h.tab = tab;
    h.next = 0;
    h.failed = 0;
    if (ibcc_loop_init(&l, &d, mem, len) != IBCC_OK) return -1.0;
    for (i = 0; i < n; i++)
        if (ibcc_loop_at(&l, tab[h.next++ & (HOLD_DELAYS - 1u)], hold_ibcc_cb,
                         &h, 0, NULL) != IBCC_OK) return -1.0;
    for (i = 0; i < w; i++) ibcc_loop_step(&l);
    t0 = bench_now_ns();
    for (i = 0; i < m; i++) ibcc_loop_step(&l);
    t1 = bench_now_ns();
    BENCH_KEEP(ibcc_loop_now(&l));
    if (h.failed || ibcc_loop_pending(&l) != n) return -1.0;
    return (t1 - t0) / (double)m;
}
#endif
