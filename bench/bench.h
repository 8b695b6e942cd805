/* Shared helpers for the microbenchmarks in bench/.
   Each bench program takes the CSV path as argv[1], appends rows
   "name,median,unit" to it and prints a readable table to stdout.
   Figures are medians over BENCH_REPS repeated runs; never assert on them. */
#ifndef IBCC_BENCH_H
#define IBCC_BENCH_H

#include <stdio.h>
#include <stdlib.h>
#include <stdint.h>
#include <string.h>
#include <time.h>

#ifndef BENCH_REPS
#define BENCH_REPS 7
#endif

static double bench_now_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec * 1e9 + (double)ts.tv_nsec;
}

static int bench_cmp_(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* Median of n values (sorts v in place). It also keeps the smallest and
   largest of them, which the next bench_row of that median writes beside
   it. */
static double bench_last_med_, bench_last_min_, bench_last_max_;
static double bench_median(double *v, int n)
{
    qsort(v, (size_t)n, sizeof *v, bench_cmp_);
    bench_last_min_ = v[0];
    bench_last_max_ = v[n - 1];
    bench_last_med_ = (n % 2) ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
    return bench_last_med_;
}

static FILE *bench_csv_;
static void bench_open(int argc, char **argv)
{
    bench_csv_ = (argc > 1) ? fopen(argv[1], "a") : NULL;
}
/* Appends one CSV row (name,median,unit,min,max) and echoes it. min and
   max are those of the repetitions bench_median just summarised when
   `median` is its result; a derived figure (a rate from a median, a
   ratio) has min = max = the figure. */
static void bench_row(const char *name, double median, const char *unit)
{
    double lo = median, hi = median;
    if (median == bench_last_med_) {
        lo = bench_last_min_;
        hi = bench_last_max_;
    }
    printf("  %-52s %14.3f %s\n", name, median, unit);
    if (bench_csv_)
        fprintf(bench_csv_, "%s,%.6g,%s,%.6g,%.6g\n", name, median, unit, lo, hi);
}
static void bench_close(void) { if (bench_csv_) fclose(bench_csv_); }

/* Counting allocator for the fabric's desc: a size header before each
   block, so peak_bytes is the most the fabric held at once. */
static size_t bench_cur_bytes, bench_peak_bytes;
static inline void *bench_count_alloc(void *user, size_t n)
{
    uint64_t *p = (uint64_t *)malloc(n + 8u);
    (void)user;
    if (!p) return NULL;
    p[0] = n;
    bench_cur_bytes += n;
    if (bench_cur_bytes > bench_peak_bytes) bench_peak_bytes = bench_cur_bytes;
    return p + 1;
}
static inline void bench_count_free(void *user, void *ptr)
{
    uint64_t *p = (uint64_t *)ptr - 1;
    (void)user;
    bench_cur_bytes -= (size_t)p[0];
    free(p);
}

/* Keeps the optimiser from discarding a computed value. */
static volatile uint64_t bench_sink_;
#define BENCH_KEEP(x) (bench_sink_ += (uint64_t)(x))
#endif
