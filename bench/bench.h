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
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

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

/* Runs fn(arg, out) in a child process and copies its `size` bytes of
   out back through a pipe, so that a figure the child takes of itself
   (getrusage's ru_maxrss, the counting allocator's peak) is that run's
   alone. 1 when fn returned non-zero and every byte arrived. */
static inline int bench_in_child(int (*fn)(const void *arg, void *out),
                                 const void *arg, void *out, size_t size)
{
    int fd[2], st = 0;
    pid_t pid;
    ssize_t got;
    if (pipe(fd) != 0) return 0;
    fflush(stdout);
    pid = fork();
    if (pid < 0) {
        close(fd[0]);
        close(fd[1]);
        return 0;
    }
    if (pid == 0) {
        int ok;
        close(fd[0]);
        memset(out, 0, size);
        ok = fn(arg, out);
        if (ok && write(fd[1], out, size) != (ssize_t)size) ok = 0;
        close(fd[1]);
        _exit(ok ? 0 : 1);
    }
    close(fd[1]);
    got = read(fd[0], out, size);
    close(fd[0]);
    if (waitpid(pid, &st, 0) != pid) return 0;
    return got == (ssize_t)size && WIFEXITED(st) && WEXITSTATUS(st) == 0;
}

/* Keeps the optimiser from discarding a computed value. */
static volatile uint64_t bench_sink_;
#define BENCH_KEEP(x) (bench_sink_ += (uint64_t)(x))
#endif
