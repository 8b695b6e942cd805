/* Tests of the L1 ecn engine: RED-style marking on the instantaneous
   egress queue (probability at each threshold, exact draws against the
   caller's stream, no draw outside the ramp, the marked fraction), the
   INT hop record, and every invalid description. */
#ifndef IBCC_TEST_LINKED   /* make test links one implementation object */
#define IBCC_IMPLEMENTATION
#endif
#include "ibcc.h"
#include "t.h"

static int rng_same(const ibcc_rng *a, const ibcc_rng *b)
{
    return memcmp(a, b, sizeof *a) == 0;
}

static void test_defaults(void)
{
    ibcc_ecn_desc d;
    ibcc_ecn e;
    memset(&d, 0, sizeof d);
    T_EQ(ibcc_ecn_defaults(&d), IBCC_OK);
    T_EQU(d.kmin, 5000); T_EQU(d.kmax, 200000); T_EQU(d.pmax, 10000);
    T_EQ(ibcc_ecn_init(&e, NULL), IBCC_OK);
    T_EQU(e.kmin, 5000); T_EQU(e.kmax, 200000); T_EQU(e.pmax, 10000);
    /* defaults are idempotent */
    T_EQ(ibcc_ecn_defaults(&d), IBCC_OK);
    T_EQU(d.kmin, 5000);
}

static void test_invalid(void)
{
    ibcc_ecn_desc d;
    ibcc_ecn e;
    T_EQ(ibcc_ecn_defaults(NULL), IBCC_ERR_NULL);
    T_EQ(ibcc_ecn_init(NULL, NULL), IBCC_ERR_NULL);
    memset(&d, 0, sizeof d);
    d.kmin = 300000;                    /* above the default Kmax */
    T_EQ(ibcc_ecn_init(&e, &d), IBCC_ERR_RANGE);
    T_EQ(ibcc_ecn_defaults(&d), IBCC_ERR_RANGE);
    T_EQU(d.kmin, 300000); T_EQU(d.kmax, 0);    /* untouched on error */
    memset(&d, 0, sizeof d);
    d.pmax = IBCC_ECN_PPM + 1u;
    T_EQ(ibcc_ecn_init(&e, &d), IBCC_ERR_RANGE);
    memset(&d, 0, sizeof d);
    d.kmax = IBCC_ECN_KMAX_MAX + 1u;
    T_EQ(ibcc_ecn_init(&e, &d), IBCC_ERR_RANGE);
    d.kmax = IBCC_ECN_KMAX_MAX;
    T_EQ(ibcc_ecn_init(&e, &d), IBCC_OK);
    d.pmax = IBCC_ECN_PPM;
    T_EQ(ibcc_ecn_init(&e, &d), IBCC_OK);
    /* NULL engine: no mark, probability 0 */
    T_EQU(ibcc_ecn_mark(NULL, 1000000, NULL), 0);
    T_EQU(ibcc_ecn_prob_ppm(NULL, 1000000), 0);
}

/* p = 0 up to Kmin, Pmax (q - Kmin) / (Kmax - Kmin) on the ramp, 1 above */
static void test_prob(void)
{
    ibcc_ecn e;
    T_EQ(ibcc_ecn_init(&e, NULL), IBCC_OK);     /* 5 KB, 200 KB, 1% */
    T_EQU(ibcc_ecn_prob_ppm(&e, 0), 0);
    T_EQU(ibcc_ecn_prob_ppm(&e, 5000), 0);
    T_EQU(ibcc_ecn_prob_ppm(&e, 5001), 0);      /* 10000 / 195000 -> 0 */
    T_EQU(ibcc_ecn_prob_ppm(&e, 5020), 1);      /* 200000 / 195000 */
    T_EQU(ibcc_ecn_prob_ppm(&e, 102500), 5000); /* half way: Pmax / 2 */
    T_EQU(ibcc_ecn_prob_ppm(&e, 200000), 10000);
    T_EQU(ibcc_ecn_prob_ppm(&e, 200001), IBCC_ECN_PPM);
}

static void test_mark_draws(void)
{
    ibcc_ecn e;
    ibcc_ecn_desc d;
    ibcc_rng r, before, ref;
    uint64_t q;
    memset(&d, 0, sizeof d);
    d.kmin = 1000; d.kmax = 3000; d.pmax = 500000;   /* 50% at Kmax */
    T_EQ(ibcc_ecn_init(&e, &d), IBCC_OK);
    ibcc_rng_seed(&r, 7);
    /* below and at Kmin: never marked, nothing drawn */
    before = r;
    T_EQU(ibcc_ecn_mark(&e, 0, &r), 0);
    T_EQU(ibcc_ecn_mark(&e, 1000, &r), 0);
    T_CHECK(rng_same(&r, &before));
    /* above Kmax: always marked, nothing drawn */
    T_EQU(ibcc_ecn_mark(&e, 3001, &r), IBCC_ECN);
    T_EQU(ibcc_ecn_mark(&e, UINT64_MAX, &r), IBCC_ECN);
    T_CHECK(rng_same(&r, &before));
    /* on the ramp: exactly one draw below 10^6 (Kmax - Kmin), marked iff
       it is below Pmax (q - Kmin) */
    for (q = 1001; q <= 3000; q += 37) {
        uint64_t num = 500000u * (q - 1000u), den = 1000000u * 2000u;
        unsigned want;
        ref = r;
        want = ibcc_rng_below(&ref, den) < num ? IBCC_ECN : 0u;
        T_EQU(ibcc_ecn_mark(&e, q, &r), want);
        T_CHECK(rng_same(&r, &ref));
    }
    /* Pmax = 1: at Kmax p = 1, marked with no draw */
    d.pmax = IBCC_ECN_PPM;
    T_EQ(ibcc_ecn_init(&e, &d), IBCC_OK);
    before = r;
    T_EQU(ibcc_ecn_mark(&e, 3000, &r), IBCC_ECN);
    T_CHECK(rng_same(&r, &before));
    /* Kmin = Kmax: a step */
    d.kmin = d.kmax = 4000; d.pmax = 10000;
    T_EQ(ibcc_ecn_init(&e, &d), IBCC_OK);
    T_EQU(ibcc_ecn_mark(&e, 4000, &r), 0);
    T_EQU(ibcc_ecn_mark(&e, 4001, &r), IBCC_ECN);
    T_CHECK(rng_same(&r, &before));
}

/* The same seed gives the same marks; the marked fraction at p = 1/2 is
   1/2 within 1% (200000 draws: sd 0.0011, the margin is 9 sd). */
static void test_mark_fraction(void)
{
    ibcc_ecn e;
    ibcc_ecn_desc d;
    ibcc_rng a, b;
    unsigned i, n = 200000, marks = 0, same = 1;
    memset(&d, 0, sizeof d);
    d.kmin = 10000; d.kmax = 30000; d.pmax = IBCC_ECN_PPM;
    T_EQ(ibcc_ecn_init(&e, &d), IBCC_OK);
    T_EQU(ibcc_ecn_prob_ppm(&e, 20000), 500000);
    ibcc_rng_seed(&a, 12345);
    ibcc_rng_seed(&b, 12345);
    for (i = 0; i < n; i++) {
        unsigned x = ibcc_ecn_mark(&e, 20000, &a);
        if (x != ibcc_ecn_mark(&e, 20000, &b)) same = 0;
        marks += x ? 1u : 0u;
    }
    T_CHECK(same);
    T_NEAR((double)marks / n, 0.5, 0.01);
}

static void test_int(void)
{
    ibcc_int_record r;
    ibcc_int_hop h;
    unsigned i;
    ibcc_int_stamp(&h, IBCC_US(3), 4096, 123456789, IBCC_GBITS(100));
    T_EQU(h.ts, IBCC_US(3)); T_EQU(h.qlen, 4096);
    T_EQU(h.tx_bytes, 123456789); T_EQU(h.rate, IBCC_GBITS(100));
    ibcc_int_stamp(NULL, 0, 0, 0, 0);                   /* no effect */
    memset(&r, 0xab, sizeof r);
    ibcc_int_clear(&r);
    T_EQU(r.nhop, 0); T_EQU(r.dropped, 0);
    for (i = 0; i < IBCC_INT_MAX_HOPS; i++)
        T_EQ(ibcc_int_push(&r, IBCC_NS(100) * (i + 1u), i * 1000u, i * 7u,
                           IBCC_GBITS(25)), 1);
    T_EQU(r.nhop, IBCC_INT_MAX_HOPS);
    T_EQU(r.hop[3].ts, IBCC_NS(400)); T_EQU(r.hop[3].qlen, 3000);
    T_EQU(r.hop[3].tx_bytes, 21); T_EQU(r.hop[3].rate, IBCC_GBITS(25));
    /* full: refused and counted */
    T_EQ(ibcc_int_push(&r, 1, 1, 1, 1), 0);
    T_EQ(ibcc_int_push(&r, 1, 1, 1, 1), 0);
    T_EQU(r.nhop, IBCC_INT_MAX_HOPS); T_EQU(r.dropped, 2);
    T_EQ(ibcc_int_push(NULL, 1, 1, 1, 1), 0);
}

int main(void)
{
    T_RUN(test_defaults);
    T_RUN(test_invalid);
    T_RUN(test_prob);
    T_RUN(test_mark_draws);
    T_RUN(test_mark_fraction);
    T_RUN(test_int);
    return t_summary();
}
