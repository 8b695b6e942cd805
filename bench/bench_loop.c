/* Event-loop benchmark: the hold model (see bench/hold.h) on ibcc's loop
   for N = 1, 16, 1024, 65536, 1048576 pending events. Each timed event is
   one ibcc_loop_step(): pop the earliest event, call its callback, which
   schedules the next one with ibcc_loop_after(). Rows:
     loop_hold_N<N>  ns/event   median over repetitions
     loop_hold_N<N>  events/s   10^9 / that median
   bench/ns3.sh reads the ns/event rows back to form ibcc/ns-3 ratios. */
#include "bench.h" /* first: it sets _POSIX_C_SOURCE for clock_gettime */
#define IBCC_IMPLEMENTATION
#include "ibcc.h"
#include "hold.h"

static ibcc_time delay_tab[HOLD_DELAYS];

typedef struct hold_ctx { uint64_t next; uint64_t failed; } hold_ctx;

static void hold_cb(ibcc_loop *l, void *ctx, uint64_t arg)
{
    hold_ctx *h = (hold_ctx *)ctx;
    ibcc_time d = delay_tab[h->next++ & (HOLD_DELAYS - 1u)];
    if (ibcc_loop_after(l, d, hold_cb, ctx, arg, NULL) != IBCC_OK) h->failed++;
}

/* One repetition; returns ns per event, or -1 on an error. */
static double hold_once(void *mem, size_t len, unsigned long n)
{
    ibcc_loop l;
    ibcc_loop_desc d;
    hold_ctx h;
    unsigned long i, m = hold_events(n), w = hold_warm(n);
    double t0, t1;
    d.capacity = (uint32_t)n;
    h.next = 0;
    h.failed = 0;
    if (ibcc_loop_init(&l, &d, mem, len) != IBCC_OK) return -1.0;
    for (i = 0; i < n; i++)
        if (ibcc_loop_at(&l, delay_tab[h.next++ & (HOLD_DELAYS - 1u)], hold_cb,
                         &h, 0, NULL) != IBCC_OK) return -1.0;
    for (i = 0; i < w; i++) ibcc_loop_step(&l);
    t0 = bench_now_ns();
    for (i = 0; i < m; i++) ibcc_loop_step(&l);
    t1 = bench_now_ns();
    BENCH_KEEP(ibcc_loop_now(&l));
    if (h.failed || ibcc_loop_pending(&l) != n) return -1.0;
    return (t1 - t0) / (double)m;
}

int main(int argc, char **argv)
{
    ibcc_loop_desc d;
    size_t len;
    void *mem;
    int k;
    bench_open(argc, argv);
    hold_delays(delay_tab);
    d.capacity = (uint32_t)hold_n[HOLD_NCOUNT - 1];
    len = ibcc_loop_size(&d);
    mem = malloc(len);
    if (!mem) { fprintf(stderr, "bench_loop: out of memory\n"); return 1; }
    printf("loop hold model: exponential delays, mean 1 us (table of %u)\n",
           HOLD_DELAYS);
    for (k = 0; k < HOLD_NCOUNT; k++) {
        unsigned long n = hold_n[k];
        double v[16], med;
        int r, reps = hold_reps(n);
        char name[64];
        for (r = 0; r < reps; r++) {
            v[r] = hold_once(mem, len, n);
            if (v[r] < 0) { fprintf(stderr, "bench_loop: hold N=%lu failed\n", n); return 1; }
        }
        med = bench_median(v, reps);
        snprintf(name, sizeof name, "loop_hold_N%lu", n);
        bench_row(name, med, "ns/event");
        bench_row(name, 1e9 / med, "events/s");
    }
    free(mem);
    bench_close();
    return 0;
}
