/* Jobs on the fabric (L3 jobs): completion times on idle fabrics against
   their analytical bounds (within one packet time), two jobs interfering
   (the victim's completion grows), trace jobs and their dependencies, the
   trace reader's errors with file:line, and refusals. */
#include "ibcc.h"
#include "t.h"

#define MAXF 4096

typedef struct run_ {
    ibcc_topo topo;
    ibcc_fabric_desc d;
    ibcc_fabric_flow flows[MAXF];
    ibcc_fabric_source srcs[MAXF];
    ibcc_fabric *f;
    ibcc_jobs *js;
} run_;

/* 1: the jobs run on sources (ibcc_jobs_sources), 0: on flows. */
static int on_sources_;

/* Builds a fabric on t's topology with the jobs' flows (or sources) and
   attaches the jobs; 1 on success. */
static int setup(run_ *r, const ibcc_job_desc *jobs, uint32_t n,
                 int nic_fifo)
{
    uint32_t nf = 0;
    ibcc_fabric_error e;
    memset(&r->d, 0, sizeof r->d);
    T_EQ(ibcc_topo_apply(&r->topo, &r->d), IBCC_OK);
    if (on_sources_) {
        T_EQ(ibcc_jobs_sources(jobs, n, r->srcs, MAXF, &nf, &e), IBCC_OK);
        r->d.sources = r->srcs;
        r->d.source_count = nf;
    } else {
        T_EQ(ibcc_jobs_flows(jobs, n, r->flows, MAXF, &nf, &e), IBCC_OK);
        r->d.flows = r->flows;
        r->d.flow_count = nf;
    }
    r->d.nic_fifo = (uint32_t)nic_fifo;
    r->d.error = &e;
    if (ibcc_fabric_create(&r->f, &r->d) != IBCC_OK) {
        T_FAIL_("create: %s", e.reason);
        return 0;
    }
    if ((on_sources_ ? ibcc_jobs_create_on_sources(&r->js, r->f, jobs, n, 0,
                                                   &e)
                     : ibcc_jobs_create(&r->js, r->f, jobs, n, 0, &e))
        != IBCC_OK) {
        T_FAIL_("jobs: %s", e.reason);
        ibcc_fabric_destroy(r->f);
        return 0;
    }
    return 1;
}

static void teardown(run_ *r)
{
    ibcc_jobs_destroy(r->js);
    ibcc_fabric_destroy(r->f);
    ibcc_topo_free(&r->topo);
}

/* Runs until every job is done (at most `limit`). */
static void run_all(run_ *r, ibcc_time limit)
{
    ibcc_time t = 0;
    while (!ibcc_jobs_done(r->js) && t < limit) {
        t += IBCC_US(10);
        T_EQ(ibcc_fabric_run_until(r->f, t), IBCC_OK);
    }
    T_CHECK(ibcc_jobs_done(r->js));
    T_EQ(ibcc_fabric_check(r->f), IBCC_OK);
}

/* Time of one message of b bytes over h links (h - 1 switches), idle,
   packets of 2068 bytes at 1 GB/s: the source serialises every packet,
   the last one cuts through each switch after the forwarding delay. */
static ibcc_time msg_time(uint64_t b, unsigned h)
{
    ibcc_time w = b * 1000u;                    /* 1 ns per byte */
    return w + h * IBCC_NS(5) + (h - 1u) * IBCC_NS(40);
}

static void test_ring_two_hosts_bound(void)
{
    static run_ r;
    ibcc_job_desc j;
    ibcc_job_stats s;
    uint32_t hosts[2] = {0, 1};
    uint64_t N = 10u * 2068u * 2u;             /* 10 packets per message */
    ibcc_time bound, q;
    memset(&j, 0, sizeof j);
    T_EQ(ibcc_topo_mesh(&r.topo, 1, 1, 2, 0, 0, NULL), IBCC_OK);
    j.coll.kind = IBCC_COLL_ALLREDUCE_RING;
    j.coll.ranks = 2;
    j.coll.bytes = N;
    j.hosts = hosts;
    j.start = IBCC_US(3);
    if (!setup(&r, &j, 1, 0)) return;
    run_all(&r, IBCC_MS(1));
    T_EQ(ibcc_jobs_stats(r.js, 0, &s), IBCC_OK);
    T_EQU(s.messages, 4);
    T_EQU(s.delivered, 4);
    T_EQU(s.bytes, 2u * N);
    /* two steps, each one message of N/2 over 2 links; ACKs (20 bytes,
       served first) cost at most one packet time in all */
    bound = 2u * msg_time(N / 2u, 2);
    T_CHECK(s.completion >= bound);
    T_CHECK(s.completion <= bound + IBCC_NS(2068));
    T_EQU(s.end, s.start + s.completion);
    T_EQU(s.start, IBCC_US(3));
    T_CHECK(s.msg_min >= msg_time(N / 2u, 2));
    T_CHECK(s.msg_max <= msg_time(N / 2u, 2) + IBCC_NS(2068));
    T_EQ(ibcc_jobs_msg_quantile(r.js, 0, 0.5, &q), IBCC_OK);
    T_CHECK(q >= s.msg_min && q <= s.msg_max);
    teardown(&r);
}

static void test_bcast_fattree_bound(void)
{
    static run_ r;
    ibcc_job_desc j;
    ibcc_job_stats s;
    uint32_t hosts[4] = {0, 1, 2, 3};
    uint64_t B = 8u * 2068u;
    ibcc_time w = B * 1000u, bound;
    memset(&j, 0, sizeof j);
    /* 2-ary 2-tree: hosts 0, 1 on one leaf, 2, 3 on the other */
    T_EQ(ibcc_topo_fattree(&r.topo, 2, 2, NULL), IBCC_OK);
    j.coll.kind = IBCC_COLL_BCAST_BINOMIAL;
    j.coll.ranks = 4;
    j.coll.bytes = B;
    j.hosts = hosts;
    if (!setup(&r, &j, 1, 1)) return;      /* nic_fifo: sends in order */
    run_all(&r, IBCC_MS(1));
    T_EQ(ibcc_jobs_stats(r.js, 0, &s), IBCC_OK);
    T_EQU(s.delivered, 3);
    /* root -> 2 (4 links), then root -> 1 (2 links) after its first
       message left; 2 -> 3 (2 links) after its message arrived */
    bound = msg_time(B, 4) + msg_time(B, 2);
    if (w + msg_time(B, 2) > bound) bound = w + msg_time(B, 2);
    T_CHECK(s.completion >= bound);
    T_CHECK(s.completion <= bound + IBCC_NS(2068));
    teardown(&r);
}

/* Victim: ring allreduce on hosts 0..7 of a 4-ary 2-tree (16 hosts);
   aggressor: incast of 6 hosts (8..13) into host 5, which the ring
   crosses. Returns the victim's completion time, alone or with it. */
static ibcc_time victim(int with_aggressor, double *slow_q99)
{
    static run_ r;
    ibcc_job_desc j[2];
    ibcc_job_stats s;
    uint32_t vh[8], ah[7], i;
    ibcc_time c = 0, q = 0;
    memset(j, 0, sizeof j);
    for (i = 0; i < 8u; i++) vh[i] = i;
    for (i = 0; i < 6u; i++) ah[i] = 8u + i;
    ah[6] = 5;
    T_EQ(ibcc_topo_fattree(&r.topo, 4, 2, NULL), IBCC_OK);
    j[0].coll.kind = IBCC_COLL_ALLREDUCE_RING;
    j[0].coll.ranks = 8;
    j[0].coll.bytes = 8u * 4u * 2068u;
    j[0].hosts = vh;
    j[1].coll.kind = IBCC_COLL_INCAST;
    j[1].coll.ranks = 7;
    j[1].coll.root = 6;
    j[1].coll.bytes = 400u * 2068u;
    j[1].hosts = ah;
    j[1].cls = 1;
    if (!setup(&r, j, with_aggressor ? 2u : 1u, 0)) return 0;
    {
        ibcc_time t = 0;
        for (;;) {
            T_EQ(ibcc_jobs_stats(r.js, 0, &s), IBCC_OK);
            if (s.completion || t > IBCC_MS(5)) break;
            t += IBCC_US(10);
            T_EQ(ibcc_fabric_run_until(r.f, t), IBCC_OK);
        }
    }
    c = s.completion;
    T_EQ(ibcc_jobs_msg_quantile(r.js, 0, 0.99, &q), IBCC_OK);
    *slow_q99 = (double)q;
    if (with_aggressor) {
        ibcc_job_stats a;
        T_EQ(ibcc_jobs_stats(r.js, 1, &a), IBCC_OK);
        T_CHECK(a.completion == 0 || a.completion > c);
    }
    teardown(&r);
    return c;
}

static void test_interference(void)
{
    double q_alone = 0, q_with = 0;
    ibcc_time alone = victim(0, &q_alone);
    ibcc_time with = victim(1, &q_with);
    /* alone: 14 steps of 4 packets each, about 14 x 8.4 us; with the
       incast, messages into host 5 share its link with 6 sources */
    T_CHECK(alone > 14u * msg_time(4u * 2068u, 2));
    T_CHECK(alone < 14u * (msg_time(4u * 2068u, 4) + IBCC_NS(2068)));
    T_CHECK(with > 2u * alone);
    T_CHECK(q_with > 2.0 * q_alone);
}

static const char trace_text[] =
    "# two ranks: a request, a reply 1 us after it arrived, and a\n"
    "# message at 2.5 us from the start\n"
    "ibcc-trace 1\n"
    "ranks 2\n"
    "10 0 1 4136            # two packets\n"
    "20 1 0 2068 sl=3 after=10 at=1us\n"
    "30 0 1 100 at=2.5us\n";

static void test_trace_job(void)
{
    static run_ r;
    ibcc_trace_msg msgs[4];
    uint32_t deps[4];
    ibcc_trace t;
    ibcc_fabric_error e;
    ibcc_job_desc j;
    ibcc_job_stats s;
    ibcc_fabric_class_stats cs;
    uint32_t hosts[2] = {1, 0}, nf = 0;
    memset(&t, 0, sizeof t);
    T_EQ(ibcc_trace_parse(&t, trace_text, sizeof trace_text - 1u, "x.trace",
                          &e), IBCC_ERR_CAPACITY);
    T_EQU(t.count, 3);
    T_EQU(t.ndeps, 1);
    t.msgs = msgs;
    t.deps = deps;
    t.msg_cap = 4;
    t.dep_cap = 4;
    T_EQ(ibcc_trace_parse(&t, trace_text, sizeof trace_text - 1u, "x.trace",
                          &e), IBCC_OK);
    T_EQU(t.ranks, 2);
    T_EQU(msgs[1].ndeps, 1);
    T_EQU(deps[msgs[1].first], 0);
    T_EQU(msgs[1].at, IBCC_US(1));
    T_EQU(msgs[1].sl, 3);
    T_EQU(msgs[2].at, IBCC_NS(2500));
    memset(&j, 0, sizeof j);
    j.trace = &t;
    j.hosts = hosts;
    T_EQ(ibcc_jobs_flows(&j, 1, NULL, 0, &nf, NULL), IBCC_ERR_CAPACITY);
    T_EQU(nf, 2);                  /* 0->1 class 0 (twice), 1->0 class 3 */
    T_EQ(ibcc_topo_mesh(&r.topo, 1, 1, 2, 0, 0, NULL), IBCC_OK);
    if (!setup(&r, &j, 1, 0)) return;
    run_all(&r, IBCC_MS(1));
    T_EQ(ibcc_jobs_stats(r.js, 0, &s), IBCC_OK);
    T_EQU(s.delivered, 3);
    /* the reply: request (4136 bytes) + 1 us + reply (2068 bytes) */
    T_CHECK(s.completion >= msg_time(4136, 2) + IBCC_US(1)
                            + msg_time(2068, 2));
    T_CHECK(s.completion <= msg_time(4136, 2) + IBCC_US(1)
                            + msg_time(2068, 2) + IBCC_NS(2068));
    T_EQ(ibcc_fabric_class_stats_get(r.f, 3, &cs), IBCC_OK);
    T_EQU(cs.msgs, 1);
    teardown(&r);
}

static void expect_error(const char *text, ibcc_result code, uint32_t line,
                         const char *part)
{
    ibcc_trace_msg msgs[8];
    uint32_t deps[8];
    ibcc_trace t;
    ibcc_fabric_error e;
    memset(&t, 0, sizeof t);
    t.msgs = msgs;
    t.deps = deps;
    t.msg_cap = 8;
    t.dep_cap = 8;
    T_EQ(ibcc_trace_parse(&t, text, strlen(text), "bad.trace", &e), code);
    T_EQU(e.line, line);
    T_STREQ(e.file, "bad.trace");
    if (!strstr(e.reason, part)) T_FAIL_("reason \"%s\" lacks \"%s\"",
                                         e.reason, part);
}

static void test_trace_errors(void)
{
    expect_error("", IBCC_ERR_PARSE, 1, "header");
    expect_error("# only\n1 0 1 5\n", IBCC_ERR_PARSE, 2, "header");
    expect_error("ibcc-trace 2\n", IBCC_ERR_RANGE, 1, "version 1");
    expect_error("ibcc-trace 1\n1 0 1 5\n1 1 0 5\n", IBCC_ERR_RANGE, 3,
                 "not above");
    expect_error("ibcc-trace 1\n1 0 0 5\n", IBCC_ERR_RANGE, 2, "both rank");
    expect_error("ibcc-trace 1\nranks 2\n1 0 2 5\n", IBCC_ERR_RANGE, 3,
                 "not below ranks 2");
    expect_error("ibcc-trace 1\n1 0 1 0\n", IBCC_ERR_RANGE, 2, "bytes");
    expect_error("ibcc-trace 1\n1 0 1 5 sl=16\n", IBCC_ERR_RANGE, 2, "sl");
    expect_error("ibcc-trace 1\n1 0 1 5 at=3\n", IBCC_ERR_PARSE, 2, "unit");
    expect_error("ibcc-trace 1\n1 0 1 5 at=3xs\n", IBCC_ERR_PARSE, 2, "unit");
    expect_error("ibcc-trace 1\n1 0 1 5\n2 1 0 5 after=3\n", IBCC_ERR_RANGE,
                 3, "earlier");
    expect_error("ibcc-trace 1\n1 0 1 5\n3 1 0 5 after=2\n", IBCC_ERR_RANGE,
                 3, "earlier");
    expect_error("ibcc-trace 1\n1 0 1 5 after=\n", IBCC_ERR_PARSE, 2, "ids");
    expect_error("ibcc-trace 1\n1 0 1 5 foo=1\n", IBCC_ERR_PARSE, 2,
                 "unknown field \"foo=1\"");
    expect_error("ibcc-trace 1\n1 0 1 5\nranks 4\n", IBCC_ERR_PARSE, 3,
                 "before the first");
    expect_error("ibcc-trace 1\n\n\n1 0 x 5\n", IBCC_ERR_PARSE, 4, "ranks");
    {   /* a time is exact to the picosecond */
        ibcc_trace_msg m[2];
        ibcc_trace t;
        const char *s = "ibcc-trace 1\n5 0 1 5 at=1.234567us\n";
        memset(&t, 0, sizeof t);
        t.msgs = m;
        t.msg_cap = 2;
        T_EQ(ibcc_trace_parse(&t, s, strlen(s), "t", NULL), IBCC_OK);
        T_EQU(m[0].at, 1234567u);
        T_EQU(t.ranks, 2);
        T_EQ(ibcc_trace_parse(NULL, s, strlen(s), "t", NULL), IBCC_ERR_NULL);
    }
}

static void test_refusals(void)
{
    static run_ r;
    ibcc_job_desc j;
    ibcc_fabric_error e;
    uint32_t hosts[3] = {0, 1, 1}, nf = 0;
    ibcc_jobs *js = NULL;
    memset(&j, 0, sizeof j);
    j.coll.kind = IBCC_COLL_ALLREDUCE_RING;
    j.coll.ranks = 3;
    j.coll.bytes = 300;
    j.hosts = hosts;                   /* ranks 1 and 2 share host 1 */
    T_EQ(ibcc_jobs_flows(&j, 1, r.flows, MAXF, &nf, &e), IBCC_ERR_RANGE);
    T_CHECK(strstr(e.reason, "one host") != NULL);
    j.hosts = NULL;
    T_EQ(ibcc_jobs_flows(&j, 1, r.flows, MAXF, &nf, &e), IBCC_ERR_NULL);
    hosts[2] = 2;
    j.hosts = hosts;
    j.cls = 16;
    T_EQ(ibcc_jobs_flows(&j, 1, r.flows, MAXF, &nf, &e), IBCC_ERR_RANGE);
    j.cls = 0;
    j.coll.bytes = 2;                  /* ring: fewer bytes than ranks */
    T_EQ(ibcc_jobs_flows(&j, 1, r.flows, MAXF, &nf, &e), IBCC_ERR_RANGE);
    j.coll.bytes = 300;
    /* a fabric whose flows are not the jobs' */
    T_EQ(ibcc_topo_fattree(&r.topo, 2, 2, NULL), IBCC_OK);
    memset(&r.d, 0, sizeof r.d);
    T_EQ(ibcc_topo_apply(&r.topo, &r.d), IBCC_OK);
    T_EQ(ibcc_jobs_flows(&j, 1, r.flows, MAXF, &nf, &e), IBCC_OK);
    T_EQU(nf, 3);
    r.flows[1].dst = 3;
    r.d.flows = r.flows;
    r.d.flow_count = nf;
    T_EQ(ibcc_fabric_create(&r.f, &r.d), IBCC_OK);
    T_EQ(ibcc_jobs_create(&js, r.f, &j, 1, 0, &e), IBCC_ERR_MISMATCH);
    T_CHECK(js == NULL);
    T_EQ(ibcc_jobs_create(&js, r.f, &j, 1, 1, &e), IBCC_ERR_MISMATCH);
    T_EQ(ibcc_fabric_push(r.f, 0, 0), IBCC_ERR_RANGE);
    T_EQ(ibcc_fabric_push(r.f, 3, 10), IBCC_ERR_RANGE);
    T_EQ(ibcc_fabric_push(NULL, 0, 10), IBCC_ERR_NULL);
    T_EQ(ibcc_jobs_stats(NULL, 0, NULL), IBCC_ERR_NULL);
    ibcc_jobs_destroy(NULL);
    ibcc_fabric_destroy(r.f);
    /* a PUSH flow with a packet limit is refused */
    r.flows[1].dst = 2;
    r.flows[1].packets = 5;
    r.d.error = &e;
    T_EQ(ibcc_fabric_create(&r.f, &r.d), IBCC_ERR_RANGE);
    T_CHECK(strstr(e.reason, "PUSH") != NULL);
    ibcc_topo_free(&r.topo);
}

/* Counting allocator: the most the fabric and its jobs held at once. */
static size_t cur_bytes_, peak_bytes_;
static void *count_alloc(void *user, size_t n)
{
    size_t *p = (size_t *)malloc(n + sizeof(size_t) * 2u);
    (void)user;
    if (!p) return NULL;
    p[0] = n;
    cur_bytes_ += n;
    if (cur_bytes_ > peak_bytes_) peak_bytes_ = cur_bytes_;
    return p + 2;
}
static void count_free(void *user, void *ptr)
{
    size_t *p = (size_t *)ptr - 2;
    (void)user;
    cur_bytes_ -= p[0];
    free(p);
}

/* An all-to-all (one 2048-byte message per ordered pair) on a 4-ary
   n-tree, on sources or flows: the allocation peak of the fabric and the
   jobs, and the counters; every message delivered. */
static size_t alltoall_peak(uint32_t n, int on_src, ibcc_fabric_counters *c)
{
    static uint32_t hosts[256];
    static ibcc_fabric_flow fl[256u * 255u];
    static ibcc_fabric_source sr[256];
    ibcc_topo t;
    ibcc_fabric_desc d;
    ibcc_fabric *f = NULL;
    ibcc_jobs *js = NULL;
    ibcc_job_desc j;
    ibcc_job_stats st;
    ibcc_fabric_error e;
    ibcc_time now = 0;
    uint32_t H, i, nx = 0;
    T_EQ(ibcc_topo_fattree(&t, 4, n, NULL), IBCC_OK);
    H = t.host_count;
    for (i = 0; i < H; i++) hosts[i] = i;
    memset(&d, 0, sizeof d);
    (void)ibcc_topo_apply(&t, &d);
    d.allocator.alloc = count_alloc;
    d.allocator.free = count_free;
    d.error = &e;
    memset(&j, 0, sizeof j);
    j.coll.kind = IBCC_COLL_ALLTOALL_SHIFT;
    j.coll.ranks = H;
    j.coll.bytes = 2048;
    j.hosts = hosts;
    if (on_src) {
        T_EQ(ibcc_jobs_sources(&j, 1, sr, 256, &nx, &e), IBCC_OK);
        d.sources = sr;
        d.source_count = nx;
    } else {
        T_EQ(ibcc_jobs_flows(&j, 1, fl, 256u * 255u, &nx, &e), IBCC_OK);
        d.flows = fl;
        d.flow_count = nx;
    }
    T_EQU(nx, on_src ? H : H * (H - 1u));
    cur_bytes_ = peak_bytes_ = 0;
    T_EQ(ibcc_fabric_create(&f, &d), IBCC_OK);
    if (!f) return 0;
    T_EQ(on_src ? ibcc_jobs_create_on_sources(&js, f, &j, 1, 0, &e)
                : ibcc_jobs_create(&js, f, &j, 1, 0, &e), IBCC_OK);
    while (js && !ibcc_jobs_done(js) && now < IBCC_MS(100)) {
        now += IBCC_US(100);
        T_EQ(ibcc_fabric_run_until(f, now), IBCC_OK);
    }
    T_CHECK(ibcc_jobs_done(js));
    T_EQ(ibcc_jobs_stats(js, 0, &st), IBCC_OK);
    T_EQU(st.delivered, H * (H - 1u));
    T_EQ(ibcc_fabric_check(f), IBCC_OK);
    T_EQ(ibcc_fabric_counters_get(f, c), IBCC_OK);
    ibcc_jobs_destroy(js);
    ibcc_fabric_destroy(f);
    ibcc_topo_free(&t);
    T_EQU(cur_bytes_, 0);                       /* everything given back */
    return peak_bytes_;
}

/* A job's state on sources grows with hosts and messages in flight, not
   with pairs: from 64 to 256 hosts (16 times the pairs) the peak grows
   less than 6 times (4 times the hosts, with a few per-rank counters per
   step: 4 bytes per (rank, step) in the all-to-all's 2^16 steps); on
   flows more than 10 times (a flow per pair); at 256 hosts the sources'
   peak is under an eighth of the flows'. No queue is left at the end, and
   the peak of queues stays below hosts x 8 (each host has few
   destinations in flight at once, not its 255). */
static void test_state_on_sources(void)
{
    ibcc_fabric_counters c64, c256, cf;
    size_t s64 = alltoall_peak(3, 1, &c64), s256 = alltoall_peak(4, 1, &c256);
    size_t f64 = alltoall_peak(3, 0, &cf), f256 = alltoall_peak(4, 0, &cf);
    if (getenv("JOBSDEBUG"))
        printf("sources 64: %zu, 256: %zu; flows 64: %zu, 256: %zu; queues "
               "peak %llu %llu\n", s64, s256, f64, f256,
               (unsigned long long)c64.src_queues_peak,
               (unsigned long long)c256.src_queues_peak);
    T_CHECK(s64 > 0 && s256 > 0 && f64 > 0);
    T_CHECK(s256 < 6u * s64);
    T_CHECK(f256 > 10u * f64);
    T_CHECK(8u * s256 < f256);
    T_EQU(c64.src_queues, 0);
    T_EQU(c256.src_queues, 0);
    T_CHECK(c256.src_queues_peak > 0 && c256.src_queues_peak < 256u * 8u);
}

int main(void)
{
    T_RUN(test_ring_two_hosts_bound);
    T_RUN(test_bcast_fattree_bound);
    T_RUN(test_interference);
    T_RUN(test_trace_job);
    T_RUN(test_trace_errors);
    T_RUN(test_refusals);
    on_sources_ = 1;            /* the same jobs on sources */
    T_RUN(test_ring_two_hosts_bound);
    T_RUN(test_bcast_fattree_bound);
    T_RUN(test_interference);
    T_RUN(test_trace_job);
    on_sources_ = 0;
    T_RUN(test_state_on_sources);
    return t_summary();
}
