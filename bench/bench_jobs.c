/* Jobs at scale: an all-to-all (linear shift, one 2048-byte message per
   ordered pair of ranks, one rank per host) on k-ary n-trees, no CC, VCT
   switches, defaults otherwise, run until the job is done. The job runs
   on flows (ibcc_jobs_flows: one PUSH flow per communicating pair, the
   form that grows with hosts squared) or on sources (ibcc_jobs_sources:
   one GEN source per host, state O(hosts + messages in flight)). Each
   run is a child process (fork), so that its peak resident memory
   (getrusage ru_maxrss) is its own; times are the child's CPU time. One
   run per row (a run of 4096 hosts takes about a minute). Rows per
   form and size: set-up ms (topology, flows or sources, fabric, jobs),
   run s (CPU), the job's completion in simulated us (the same job on
   flows and on sources may differ: a host serves its flows in index
   order and its sources' queues in the order they were made), the
   fabric's allocation peak (a counting allocator, the jobs' state
   included) and the process's peak resident memory, MiB. Flows stop at
   1024 hosts: 4096 hosts would need 16.8 M flows (about 17 GB). */
#define _XOPEN_SOURCE 600
#include "bench.h"   /* first: it sets _POSIX_C_SOURCE */
#include <sys/resource.h>
#define IBCC_IMPLEMENTATION
#include "ibcc.h"

static double cpu_ns(void)
{
    (void)bench_now_ns;          /* bench.h's wall clock: not used here */
    (void)bench_median;          /* one run a row */
    struct timespec ts;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
    return (double)ts.tv_sec * 1e9 + (double)ts.tv_nsec;
}

typedef struct jobs_fig {
    double setup_ms, run_s, done_us, mib, rss;
} jobs_fig;

/* One run in this process: fills *out, 1 on success. */
static int run_here(int on_src, uint32_t k, uint32_t n, jobs_fig *out)
{
    ibcc_topo t;
    ibcc_fabric_desc d;
    ibcc_fabric *f = NULL;
    ibcc_jobs *js = NULL;
    ibcc_fabric_flow *flows = NULL;
    ibcc_fabric_source *src = NULL;
    ibcc_fabric_error e;
    ibcc_job_desc j;
    ibcc_job_stats st;
    uint32_t *hosts = NULL, H, i, nx = 0;
    ibcc_time now = 0;
    double t0, t1, t2;
    int ok = 0;
    bench_cur_bytes = bench_peak_bytes = 0;
    t0 = cpu_ns();
    if (ibcc_topo_fattree(&t, k, n, NULL) != IBCC_OK) return 0;
    H = t.host_count;
    hosts = (uint32_t *)calloc(H, sizeof *hosts);
    if (!hosts) goto out;
    for (i = 0; i < H; i++) hosts[i] = i;
    memset(&d, 0, sizeof d);
    (void)ibcc_topo_apply(&t, &d);
    d.seed = 1;
    d.error = &e;
    d.allocator.alloc = bench_count_alloc;
    d.allocator.free = bench_count_free;
    memset(&j, 0, sizeof j);
    j.coll.kind = IBCC_COLL_ALLTOALL_SHIFT;
    j.coll.ranks = H;
    j.coll.bytes = 2048;
    j.hosts = hosts;
    if (on_src) {
        (void)ibcc_jobs_sources(&j, 1, NULL, 0, &nx, &e);
        src = (ibcc_fabric_source *)calloc(nx ? nx : 1u, sizeof *src);
        if (!src || ibcc_jobs_sources(&j, 1, src, nx, &nx, &e) != IBCC_OK)
            goto out;
        d.sources = src;
        d.source_count = nx;
    } else {
        (void)ibcc_jobs_flows(&j, 1, NULL, 0, &nx, &e);
        flows = (ibcc_fabric_flow *)calloc(nx ? nx : 1u, sizeof *flows);
        if (!flows || ibcc_jobs_flows(&j, 1, flows, nx, &nx, &e) != IBCC_OK)
            goto out;
        d.flows = flows;
        d.flow_count = nx;
    }
    if (ibcc_fabric_create(&f, &d) != IBCC_OK) goto out;
    if ((on_src ? ibcc_jobs_create_on_sources(&js, f, &j, 1, 0, &e)
                : ibcc_jobs_create(&js, f, &j, 1, 0, &e)) != IBCC_OK)
        goto out;
    t1 = cpu_ns();
    while (!ibcc_jobs_done(js) && now < IBCC_MS(1000)) {
        now += IBCC_US(100);
        if (ibcc_fabric_run_until(f, now) != IBCC_OK) goto out;
    }
    t2 = cpu_ns();
    ok = ibcc_jobs_done(js) && ibcc_jobs_stats(js, 0, &st) == IBCC_OK
         && st.delivered == (uint64_t)H * (H - 1u);
    if (ok) {
        struct rusage ru;
        out->setup_ms = (t1 - t0) * 1e-6;
        out->run_s = (t2 - t1) * 1e-9;
        out->done_us = (double)st.completion / 1e6;
        out->mib = (double)bench_peak_bytes / 1048576.0;
        getrusage(RUSAGE_SELF, &ru);
        out->rss = (double)ru.ru_maxrss / 1024.0;     /* KiB on Linux */
    } else {
        fprintf(stderr, "bench_jobs: %s\n", e.reason);
    }
out:
    ibcc_jobs_destroy(js);
    ibcc_fabric_destroy(f);
    ibcc_topo_free(&t);
    free(flows);
    free(src);
    free(hosts);
    return ok;
}

/* The same in a child process, so that ru_maxrss is the run's alone. */
typedef struct { int on_src; uint32_t k, n; } run_arg;
static int run_here_(const void *arg, void *out)
{
    const run_arg *a = (const run_arg *)arg;
    return run_here(a->on_src, a->k, a->n, (jobs_fig *)out);
}
static int run_child(int on_src, uint32_t k, uint32_t n, jobs_fig *out)
{
    run_arg a;
    a.on_src = on_src;
    a.k = k;
    a.n = n;
    return bench_in_child(run_here_, &a, out, sizeof *out);
}

static int rows(int on_src, uint32_t k, uint32_t n)
{
    static const char *const what[5] = {"setup_ms", "run_s", "done_us",
                                        "alloc_peak", "rss_peak"};
    static const char *const unit[5] = {"ms", "s", "us", "MiB", "MiB"};
    jobs_fig fg;
    double v[5];
    char name[96];
    uint32_t H = 1, i;
    int q;
    for (i = 0; i < n; i++) H *= k;
    if (!run_child(on_src, k, n, &fg)) {
        fprintf(stderr, "bench_jobs: %s run failed (%u hosts)\n",
                on_src ? "sources" : "flows", H);
        return 0;
    }
    v[0] = fg.setup_ms; v[1] = fg.run_s; v[2] = fg.done_us;
    v[3] = fg.mib; v[4] = fg.rss;
    for (q = 0; q < 5; q++) {
        snprintf(name, sizeof name, "jobs_alltoall_%s_%u_hosts_%s",
                 on_src ? "sources" : "flows", H, what[q]);
        bench_row(name, v[q], unit[q]);
    }
    return 1;
}

int main(int argc, char **argv)
{
    bench_open(argc, argv);
    printf("jobs at scale: all-to-all (linear shift, 2048-byte messages), "
           "no CC; on flows (one per pair) and on sources (one per host); "
           "one run each, CPU time\n");
    if (!rows(0, 4, 4) || !rows(1, 4, 4)        /* 256 hosts */
        || !rows(0, 4, 5) || !rows(1, 4, 5)     /* 1024 */
        || (getenv("BENCH_JOBS_4096") && !rows(1, 16, 3)))  /* 4096 */
        return 1;
    bench_close();
    return 0;
}
