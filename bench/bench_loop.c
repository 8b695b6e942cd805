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

int main(int argc, char **argv)
{
    ibcc_loop_desc d;
    size_t len;
    void *mem;
    int k;
    bench_open(argc, argv);
    hold_delays(delay_tab);
    d.capacity = (uint32_t)hold_n[HOLD_NCOUNT - 1];
    if (ibcc_loop_size(&d, &len) != IBCC_OK) { fprintf(stderr, "bench_loop: bad loop size\n"); return 1; }
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
            v[r] = hold_ibcc(mem, len, n, delay_tab);
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
