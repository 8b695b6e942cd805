/* Collective schedules (L2 coll) and rank placement: exact message counts
   and sizes per pattern against the closed forms, the consistency of
   sends, waits and consumers, literal schedules of small cases, and the
   dependency order measured by an abstract executor (every message takes
   one time unit, a rank sends one message per unit). */
#include "ibcc.h"
#include "t.h"

#define MAXR 80

/* Every send has a consumer that lists it among its waits (or none), and
   every wait is a send whose consumer is that step; counts and bytes
   equal ibcc_coll_totals. Returns the number of failures seen. */
static void check_schedule(const ibcc_coll_desc *d0)
{
    ibcc_coll_desc d = *d0;
    uint64_t msgs = 0, bytes = 0, tm = 0, tb = 0, waited = 0, waits = 0;
    uint32_t r, s, i, j, steps, maxs = 0, tmax = 0;
    T_EQ(ibcc_coll_defaults(&d), IBCC_OK);
    T_EQ(ibcc_coll_totals(&d, &tm, &tb, &tmax), IBCC_OK);
    for (r = 0; r < d.ranks; r++) {
        T_EQ(ibcc_coll_steps(&d, r, &steps), IBCC_OK);
        if (steps > maxs) maxs = steps;
        for (s = 0; s < steps; s++) {
            uint32_t ns = 0, nw = 0;
            ibcc_coll_msg m, w;
            T_EQ(ibcc_coll_count(&d, r, s, &ns, &nw), IBCC_OK);
            T_EQ(ibcc_coll_send(&d, r, s, ns, &m), IBCC_ERR_RANGE);
            T_EQ(ibcc_coll_wait(&d, r, s, nw, &m), IBCC_ERR_RANGE);
            for (i = 0; i < ns; i++) {
                uint32_t k = 0, pns, pnw, mult = 0, found = 0;
                T_EQ(ibcc_coll_send(&d, r, s, i, &m), IBCC_OK);
                T_EQU(m.step, s);
                T_CHECK(m.peer != r && m.peer < d.ranks);
                T_CHECK(m.bytes > 0);
                msgs++;
                bytes += m.bytes;
                T_EQ(ibcc_coll_consumer(&d, m.peer, r, s, &k), IBCC_OK);
                if (k == IBCC_COLL_NONE) continue;
                waited++;
                /* the consumer's waits hold (r, s, bytes) as many times as
                   r sends to m.peer in step s */
                for (j = 0; j < ns; j++) {
                    ibcc_coll_msg x;
                    (void)ibcc_coll_send(&d, r, s, j, &x);
                    mult += x.peer == m.peer;
                }
                T_EQ(ibcc_coll_count(&d, m.peer, k, &pns, &pnw), IBCC_OK);
                for (j = 0; j < pnw; j++) {
                    T_EQ(ibcc_coll_wait(&d, m.peer, k, j, &w), IBCC_OK);
                    if (w.peer == r && w.step == s) {
                        found++;
                        T_EQU(w.bytes, m.bytes);
                    }
                }
                T_EQU(found, mult);
            }
            for (i = 0; i < nw; i++) {
                uint32_t k = 7;
                T_EQ(ibcc_coll_wait(&d, r, s, i, &w), IBCC_OK);
                T_EQ(ibcc_coll_consumer(&d, r, w.peer, w.step, &k), IBCC_OK);
                T_EQU(k, s);
                waits++;
            }
        }
    }
    T_EQU(msgs, tm);
    T_EQU(bytes, tb);
    T_EQU(maxs, tmax);
    T_EQU(waits, waited);
}

/* Abstract run: one time unit per message, one send at a time per rank;
   returns the arrival time of the last message, or -1 on a deadlock. */
static long run_units(const ibcc_coll_desc *d0, uint64_t *delivered)
{
    ibcc_coll_desc d = *d0;
    static long arr[MAXR][4 * MAXR]; /* per rank and step: latest arrival */
    static uint32_t got[MAXR][4 * MAXR], cur[MAXR];
    static long nic[MAXR], started[MAXR];
    long last = 0;
    uint64_t n = 0;
    uint32_t r, steps[MAXR];
    int progress = 1;
    (void)ibcc_coll_defaults(&d);
    memset(arr, 0, sizeof arr);
    memset(got, 0, sizeof got);
    memset(cur, 0, sizeof cur);
    memset(nic, 0, sizeof nic);
    memset(started, 0, sizeof started);
    for (r = 0; r < d.ranks; r++) (void)ibcc_coll_steps(&d, r, &steps[r]);
    while (progress) {
        progress = 0;
        for (r = 0; r < d.ranks; r++) {
            uint32_t ns, nw, i;
            long t;
            if (cur[r] >= steps[r]) continue;
            (void)ibcc_coll_count(&d, r, cur[r], &ns, &nw);
            if (got[r][cur[r]] < nw) continue;
            t = started[r];
            if (arr[r][cur[r]] > t) t = arr[r][cur[r]];
            started[r] = t;
            for (i = 0; i < ns; i++) {
                ibcc_coll_msg m;
                uint32_t k;
                long go = nic[r] > t ? nic[r] : t;
                (void)ibcc_coll_send(&d, r, cur[r], i, &m);
                nic[r] = go + 1;
                n++;
                if (go + 1 > last) last = go + 1;
                (void)ibcc_coll_consumer(&d, m.peer, r, cur[r], &k);
                if (k == IBCC_COLL_NONE) continue;
                got[m.peer][k]++;
                if (go + 1 > arr[m.peer][k]) arr[m.peer][k] = go + 1;
            }
            cur[r]++;
            progress = 1;
        }
    }
    for (r = 0; r < d.ranks; r++)
        if (cur[r] < steps[r]) return -1;
    *delivered = n;
    return last;
}

static uint32_t ceil_log2(uint32_t x)
{
    uint32_t k = 0;
    while ((UINT32_C(1) << k) < x) k++;
    return k;
}

static void test_counts_every_pattern(void)
{
    uint32_t P, k;
    for (k = 1; k <= IBCC_COLL_KINDS; k++)
        for (P = 1; P <= 33; P++) {
            ibcc_coll_desc d = {0};
            d.kind = (ibcc_coll_kind)k;
            d.ranks = P;
            d.bytes = 1000;
            d.root = P / 3u;
            check_schedule(&d);
            if (k == IBCC_COLL_HALO2D || k == IBCC_COLL_HALO3D) {
                d.periodic = 1;
                d.iterations = 3;
                check_schedule(&d);
            }
        }
}

static void test_ring(void)
{
    ibcc_coll_desc d = {0};
    uint32_t P, s, steps;
    uint64_t want[6] = {3, 2, 2, 3, 3, 2}, n;
    d.kind = IBCC_COLL_ALLREDUCE_RING;
    for (P = 2; P <= 40; P++) {
        uint64_t m = 0, b = 0;
        uint32_t mx = 0, r;
        d.ranks = P;
        d.bytes = 1000u * P + 7u;
        T_EQ(ibcc_coll_totals(&d, &m, &b, &mx), IBCC_OK);
        T_EQU(m, 2u * P * (P - 1u));
        T_EQU(b, 2u * (P - 1u) * d.bytes);
        T_EQU(mx, 2u * (P - 1u));
        for (r = 0; r < P; r += 7) {
            uint32_t ns, nw;
            T_EQ(ibcc_coll_steps(&d, r, &steps), IBCC_OK);
            T_EQU(steps, 2u * (P - 1u));
            T_EQ(ibcc_coll_count(&d, r, 0, &ns, &nw), IBCC_OK);
            T_EQU(ns, 1);
            T_EQU(nw, 0);
            T_EQ(ibcc_coll_count(&d, r, steps - 1u, &ns, &nw), IBCC_OK);
            T_EQU(nw, 1);
        }
        T_EQ(run_units(&d, &n), (long)(2u * (P - 1u)));
        T_EQU(n, 2u * P * (P - 1u));
    }
    /* P = 4, N = 10: chunks 3, 3, 2, 2; rank 0 sends chunk (0 - s) mod 4 */
    d.ranks = 4;
    d.bytes = 10;
    for (s = 0; s < 6u; s++) {
        ibcc_coll_msg m;
        T_EQ(ibcc_coll_send(&d, 0, s, 0, &m), IBCC_OK);
        T_EQU(m.peer, 1);
        T_EQU(m.bytes, want[s]);
        if (s) {
            T_EQ(ibcc_coll_wait(&d, 0, s, 0, &m), IBCC_OK);
            T_EQU(m.peer, 3);
            T_EQU(m.step, s - 1u);
        }
    }
    d.bytes = 3;                     /* fewer bytes than ranks: refused */
    T_EQ(ibcc_coll_defaults(&d), IBCC_ERR_RANGE);
}

static void test_recursive_doubling(void)
{
    ibcc_coll_desc d = {0};
    uint32_t P;
    uint64_t n;
    /* P = 6: p' = 4, q = 2; even ranks 0, 2 hand their vectors to 1, 3 */
    static const uint32_t peers[6][3] = {
        {1, 99, 99}, {3, 4, 0}, {3, 99, 99}, {1, 5, 2}, {5, 1, 99},
        {4, 3, 99}};
    static const uint32_t nsteps[6] = {1, 3, 1, 3, 2, 2};
    uint32_t r, s;
    d.kind = IBCC_COLL_ALLREDUCE_RD;
    d.ranks = 6;
    d.bytes = 64;
    for (r = 0; r < 6u; r++) {
        uint32_t st;
        T_EQ(ibcc_coll_steps(&d, r, &st), IBCC_OK);
        T_EQU(st, nsteps[r]);
        for (s = 0; s < st; s++) {
            ibcc_coll_msg m;
            T_EQ(ibcc_coll_send(&d, r, s, 0, &m), IBCC_OK);
            T_EQU(m.peer, peers[r][s]);
        }
    }
    {   /* rank 1's step 0 waits for rank 0's vector */
        ibcc_coll_msg m;
        uint32_t ns, nw;
        T_EQ(ibcc_coll_count(&d, 1, 0, &ns, &nw), IBCC_OK);
        T_EQU(nw, 1);
        T_EQ(ibcc_coll_wait(&d, 1, 0, 0, &m), IBCC_OK);
        T_EQU(m.peer, 0);
        T_EQ(ibcc_coll_count(&d, 4, 0, &ns, &nw), IBCC_OK);
        T_EQU(nw, 0);
    }
    for (P = 1; P <= 70; P++) {
        uint32_t L = 0, q;
        long want;
        uint64_t m, b;
        uint32_t mx;
        while ((UINT32_C(2) << L) <= P) L++;
        q = P - (UINT32_C(1) << L);
        d.ranks = P;
        T_EQ(ibcc_coll_totals(&d, &m, &b, &mx), IBCC_OK);
        T_EQU(m, ((uint64_t)1 << L) * L + 2u * q);
        T_EQU(mx, L + (q ? 1u : 0u));
        want = (long)L + (q ? 2 : 0);
        T_EQ(run_units(&d, &n), want);
        T_EQU(n, m);
    }
}

static void test_binomial(void)
{
    ibcc_coll_desc d = {0};
    uint32_t P, root;
    uint64_t n;
    ibcc_coll_msg m;
    d.kind = IBCC_COLL_BCAST_BINOMIAL;
    d.bytes = 5;
    for (P = 1; P <= 70; P++)
        for (root = 0; root < P; root += 5) {
            d.ranks = P;
            d.root = root;
            T_EQ(run_units(&d, &n), (long)ceil_log2(P));
            T_EQU(n, P - 1u);
        }
    /* P = 6, root 2: relative ranks 4, 2, 1 are ranks 0, 4, 3 */
    d.ranks = 6;
    d.root = 2;
    T_EQ(ibcc_coll_send(&d, 2, 0, 0, &m), IBCC_OK);
    T_EQU(m.peer, 0);
    T_EQ(ibcc_coll_send(&d, 2, 0, 1, &m), IBCC_OK);
    T_EQU(m.peer, 4);
    T_EQ(ibcc_coll_send(&d, 2, 0, 2, &m), IBCC_OK);
    T_EQU(m.peer, 3);
    T_EQ(ibcc_coll_send(&d, 2, 0, 3, &m), IBCC_ERR_RANGE);
    T_EQ(ibcc_coll_wait(&d, 5, 0, 0, &m), IBCC_OK);     /* v 3 <- v 2 */
    T_EQU(m.peer, 4);
}

static void test_alltoall(void)
{
    ibcc_coll_desc d = {0};
    uint32_t P, r, s, st;
    uint64_t n;
    ibcc_coll_msg m;
    d.bytes = 100;
    /* pairwise on odd P = 5: rank r meets (s - r) mod 5, idle once */
    d.kind = IBCC_COLL_ALLTOALL_PAIRWISE;
    d.ranks = 5;
    for (r = 0; r < 5u; r++) {
        uint32_t idle = 0, seen = 0;
        T_EQ(ibcc_coll_steps(&d, r, &st), IBCC_OK);
        T_EQU(st, 5);
        for (s = 0; s < 5u; s++) {
            uint32_t ns, nw;
            T_EQ(ibcc_coll_count(&d, r, s, &ns, &nw), IBCC_OK);
            if (ns == 0) {
                idle++;
                T_EQU((2u * r) % 5u, s);
                continue;
            }
            T_EQ(ibcc_coll_send(&d, r, s, 0, &m), IBCC_OK);
            T_EQU(m.peer, (s + 5u - r) % 5u);
            seen |= 1u << m.peer;
        }
        T_EQU(idle, 1);
        T_EQU(seen, 31u & ~(1u << r));
    }
    /* even, not a power of two: P = 6, rank 5 meets s * 3 mod 5 */
    d.ranks = 6;
    for (s = 0; s < 5u; s++) {
        T_EQ(ibcc_coll_send(&d, 5, s, 0, &m), IBCC_OK);
        T_EQU(m.peer, (s * 3u) % 5u);
        T_EQ(ibcc_coll_send(&d, m.peer, s, 0, &m), IBCC_OK);
        T_EQU(m.peer, 5);
    }
    /* power of two: XOR */
    d.ranks = 8;
    T_EQ(ibcc_coll_send(&d, 5, 2, 0, &m), IBCC_OK);
    T_EQU(m.peer, 5u ^ 3u);
    for (P = 2; P <= 40; P++) {
        uint32_t steps = (P & (P - 1u)) == 0 || !(P & 1u) ? P - 1u : P;
        d.kind = IBCC_COLL_ALLTOALL_PAIRWISE;
        d.ranks = P;
        T_EQ(run_units(&d, &n), (long)steps);
        T_EQU(n, (uint64_t)P * (P - 1u));
        d.kind = IBCC_COLL_ALLTOALL_SHIFT;
        T_EQ(run_units(&d, &n), (long)(P - 1u));
        T_EQU(n, (uint64_t)P * (P - 1u));
    }
    d.kind = IBCC_COLL_ALLTOALL_SHIFT;
    d.ranks = 7;
    T_EQ(ibcc_coll_send(&d, 5, 3, 0, &m), IBCC_OK);
    T_EQU(m.peer, 2);                               /* 5 + 4 mod 7 */
    T_EQ(ibcc_coll_wait(&d, 5, 3, 0, &m), IBCC_OK);
    T_EQU(m.peer, 2);                               /* 5 - 3 */
    T_EQU(m.step, 2);
}

static void test_halo_incast(void)
{
    ibcc_coll_desc d = {0};
    ibcc_coll_msg m;
    uint32_t ns, nw, i;
    uint64_t n, tm, tb;
    uint32_t mx;
    static const uint32_t want4[3] = {3, 5, 1};
    d.kind = IBCC_COLL_HALO2D;
    d.ranks = 12;
    d.bytes = 8;
    T_EQ(ibcc_coll_defaults(&d), IBCC_OK);
    T_EQU(d.dims[0], 4);
    T_EQU(d.dims[1], 3);
    T_EQU(d.dims[2], 1);
    T_EQU(d.iterations, 1);
    d.kind = IBCC_COLL_HALO3D;
    d.dims[0] = d.dims[1] = d.dims[2] = 0;
    T_EQ(ibcc_coll_defaults(&d), IBCC_OK);
    T_EQU(d.dims[0], 3);
    T_EQU(d.dims[1], 2);
    T_EQU(d.dims[2], 2);
    /* 3 x 2, open: rank 4 (x 1, y 1) sends to 3, 5, 1 */
    d.kind = IBCC_COLL_HALO2D;
    d.ranks = 6;
    d.dims[0] = 3;
    d.dims[1] = 2;
    d.dims[2] = 0;
    d.iterations = 4;
    T_EQ(ibcc_coll_count(&d, 4, 1, &ns, &nw), IBCC_OK);
    T_EQU(ns, 3);
    T_EQU(nw, 3);
    for (i = 0; i < 3u; i++) {
        T_EQ(ibcc_coll_send(&d, 4, 1, i, &m), IBCC_OK);
        T_EQU(m.peer, want4[i]);
    }
    T_EQ(ibcc_coll_totals(&d, &tm, &tb, &mx), IBCC_OK);
    T_EQU(tm, 4u * 2u * (2u * 2u + 3u * 1u));    /* 4 x (x links + y) */
    T_EQ(run_units(&d, &n), 4 * 3);     /* 3 sends per step, 4 steps */
    /* periodic 2 x 1 x 1 in 3D: two messages to the same neighbour */
    d.kind = IBCC_COLL_HALO3D;
    d.ranks = 2;
    d.dims[0] = 2;
    d.dims[1] = d.dims[2] = 1;
    d.periodic = 1;
    d.iterations = 1;
    T_EQ(ibcc_coll_count(&d, 0, 0, &ns, &nw), IBCC_OK);
    T_EQU(ns, 2);
    d.dims[0] = 3;                       /* product != ranks */
    T_EQ(ibcc_coll_defaults(&d), IBCC_ERR_RANGE);
    /* incast: P - 1 messages into the root, the root has no step */
    d = (ibcc_coll_desc){0};
    d.kind = IBCC_COLL_INCAST;
    d.ranks = 9;
    d.root = 4;
    d.bytes = 1u << 20;
    T_EQ(ibcc_coll_steps(&d, 4, &ns), IBCC_OK);
    T_EQU(ns, 0);
    T_EQ(run_units(&d, &n), 1);
    T_EQU(n, 8);
    T_EQ(ibcc_coll_send(&d, 0, 0, 0, &m), IBCC_OK);
    T_EQU(m.peer, 4);
    T_EQ(ibcc_coll_consumer(&d, 4, 0, 0, &ns), IBCC_OK);
    T_EQU(ns, IBCC_COLL_NONE);
    T_EQ(ibcc_coll_consumer(&d, 3, 0, 0, &ns), IBCC_ERR_RANGE);
}

static void test_desc_errors(void)
{
    ibcc_coll_desc d = {0};
    uint32_t x;
    ibcc_coll_msg m;
    T_EQ(ibcc_coll_defaults(NULL), IBCC_ERR_NULL);
    T_EQ(ibcc_coll_defaults(&d), IBCC_ERR_RANGE);       /* kind 0 */
    d.kind = (ibcc_coll_kind)9;
    d.ranks = 4;
    d.bytes = 1;
    T_EQ(ibcc_coll_defaults(&d), IBCC_ERR_RANGE);
    d.kind = IBCC_COLL_BCAST_BINOMIAL;
    d.root = 4;
    T_EQ(ibcc_coll_defaults(&d), IBCC_ERR_RANGE);
    T_EQU(d.root, 4);                                   /* left as given */
    d.root = 0;
    d.iterations = 2;                   /* a halo field on a broadcast */
    T_EQ(ibcc_coll_defaults(&d), IBCC_ERR_RANGE);
    d.iterations = 0;
    d.bytes = 0;
    T_EQ(ibcc_coll_defaults(&d), IBCC_ERR_RANGE);
    d.bytes = (UINT64_C(1) << 48) + 1u;
    T_EQ(ibcc_coll_defaults(&d), IBCC_ERR_RANGE);
    d.bytes = 1;
    d.ranks = (UINT32_C(1) << 24) + 1u;
    T_EQ(ibcc_coll_defaults(&d), IBCC_ERR_RANGE);
    d.ranks = 4;
    T_EQ(ibcc_coll_steps(&d, 4, &x), IBCC_ERR_RANGE);
    T_EQ(ibcc_coll_steps(&d, 0, NULL), IBCC_ERR_NULL);
    T_EQ(ibcc_coll_send(&d, 0, 1, 0, &m), IBCC_ERR_RANGE);  /* one step */
    T_EQ(ibcc_coll_send(&d, 0, 0, 0, NULL), IBCC_ERR_NULL);
    T_EQ(ibcc_coll_count(NULL, 0, 0, &x, &x), IBCC_ERR_NULL);
    T_EQ(ibcc_coll_consumer(&d, 0, 0, 0, &x), IBCC_ERR_RANGE); /* to self */
    T_STREQ(ibcc_coll_name(IBCC_COLL_ALLREDUCE_RD), "allreduce-rd");
    T_STREQ(ibcc_coll_name((ibcc_coll_kind)0), "?");
    T_EQ(ibcc_coll_parse("halo3d"), IBCC_COLL_HALO3D);
    T_EQ(ibcc_coll_parse("halo3"), 0);
    T_EQ(ibcc_coll_parse(NULL), 0);
    for (x = 1; x <= IBCC_COLL_KINDS; x++)
        T_EQ(ibcc_coll_parse(ibcc_coll_name((ibcc_coll_kind)x)), (int)x);
}

static void test_place(void)
{
    uint32_t hosts[10], out[10], ranks[3] = {3, 2, 4}, i, j;
    static const uint32_t inter[9] = {10, 13, 16, 11, 14, 12, 15, 17, 18};
    uint32_t seen[10];
    for (i = 0; i < 10u; i++) hosts[i] = 10u + i;
    T_EQ(ibcc_place(hosts, 10, ranks, 3, IBCC_PLACE_LINEAR, 0, out), IBCC_OK);
    for (i = 0; i < 9u; i++) T_EQU(out[i], 10u + i);
    /* round 0: 10, 11, 12; round 1: 13, 14, 15; round 2: 16 (job 0), 17
       (job 2); round 3: 18 (job 2) */
    T_EQ(ibcc_place(hosts, 10, ranks, 3, IBCC_PLACE_INTERLEAVED, 0, out),
         IBCC_OK);
    for (i = 0; i < 9u; i++) T_EQU(out[i], inter[i]);
    for (j = 0; j < 2u; j++) {
        uint32_t o2[10];
        memset(seen, 0, sizeof seen);
        T_EQ(ibcc_place(hosts, 10, ranks, 3, IBCC_PLACE_RANDOM, 77, out),
             IBCC_OK);
        T_EQ(ibcc_place(hosts, 10, ranks, 3, IBCC_PLACE_RANDOM, 77, o2),
             IBCC_OK);
        for (i = 0; i < 9u; i++) {
            T_EQU(out[i], o2[i]);
            T_CHECK(out[i] >= 10u && out[i] < 20u);
            seen[out[i] - 10u]++;
        }
        for (i = 0; i < 10u; i++) T_CHECK(seen[i] <= 1u);
    }
    {   /* every host equally likely for rank 0 (chi-square-free check:
           each of 10 hosts within 30% of 2000 draws / 10) */
        uint32_t cnt[10] = {0}, one = 1;
        uint64_t sd;
        for (sd = 0; sd < 2000u; sd++) {
            T_EQ(ibcc_place(hosts, 10, &one, 1, IBCC_PLACE_RANDOM, sd, out),
                 IBCC_OK);
            cnt[out[0] - 10u]++;
        }
        for (i = 0; i < 10u; i++) T_CHECK(cnt[i] > 140u && cnt[i] < 260u);
    }
    ranks[2] = 6;
    T_EQ(ibcc_place(hosts, 10, ranks, 3, IBCC_PLACE_LINEAR, 0, out),
         IBCC_ERR_CAPACITY);
    T_EQ(ibcc_place(hosts, 10, ranks, 0, IBCC_PLACE_LINEAR, 0, out),
         IBCC_ERR_RANGE);
    T_EQ(ibcc_place(hosts, 10, ranks, 1, (ibcc_place_policy)3, 0, out),
         IBCC_ERR_RANGE);
    T_EQ(ibcc_place(NULL, 10, ranks, 1, IBCC_PLACE_LINEAR, 0, out),
         IBCC_ERR_NULL);
}

int main(void)
{
    T_RUN(test_counts_every_pattern);
    T_RUN(test_ring);
    T_RUN(test_recursive_doubling);
    T_RUN(test_binomial);
    T_RUN(test_alltoall);
    T_RUN(test_halo_incast);
    T_RUN(test_desc_errors);
    T_RUN(test_place);
    return t_summary();
}
