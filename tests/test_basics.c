/* Unit tests for L0 basics: version, result strings, units, exact wire
   time, flag bits and the RNG (fixed-seed sequences and distributions). */
#ifndef IBCC_TEST_LINKED   /* make test links one implementation object */
#define IBCC_IMPLEMENTATION
#endif
#include "ibcc.h"
#include "t.h"

/* ---- version and results ---------------------------------------------- */

static void test_version(void)
{
    char buf[64];
    snprintf(buf, sizeof buf, "%d.%d.%d", IBCC_VERSION_MAJOR,
             IBCC_VERSION_MINOR, IBCC_VERSION_PATCH);
    T_STREQ(buf, IBCC_VERSION_STRING);
    T_STREQ(ibcc_version(), IBCC_VERSION_STRING);
    T_CHECK(IBCC_VERSION_MAJOR >= 0 && IBCC_VERSION_MINOR >= 0
            && IBCC_VERSION_PATCH >= 0);
}

static void test_result_str(void)
{
    /* every code from IBCC_OK down to the last one, -13 */
    const ibcc_result all[] = {
        IBCC_OK, IBCC_ERR_NULL, IBCC_ERR_RANGE, IBCC_ERR_CAPACITY,
        IBCC_ERR_NOMEM, IBCC_ERR_ALIGN, IBCC_ERR_FULL, IBCC_ERR_PAST,
        IBCC_ERR_OVERFLOW, IBCC_ERR_PARSE, IBCC_ERR_MISMATCH,
        IBCC_ERR_NOT_FOUND, IBCC_ERR_STATE, IBCC_ERR_UNSUPPORTED
    };
    const int n = (int)(sizeof all / sizeof all[0]);
    const char *unknown = ibcc_result_str((ibcc_result)-99);
    int i, j;
    T_EQ(IBCC_OK, 0);
    T_CHECK(unknown != NULL && unknown[0] != '\0');
    T_STREQ(ibcc_result_str((ibcc_result)1), unknown);
    T_STREQ(ibcc_result_str((ibcc_result)(IBCC_ERR_UNSUPPORTED - 1)), unknown);
    for (i = 0; i < n; i++) {
        const char *s = ibcc_result_str(all[i]);
        T_EQ(all[i], -i); /* codes are 0, -1, -2, ... without gaps */
        T_CHECK(s != NULL && s[0] != '\0');
        T_CHECK(strcmp(s, unknown) != 0);
        for (j = 0; j < i; j++) T_CHECK(strcmp(s, ibcc_result_str(all[j])) != 0);
    }
}

/* ---- units -------------------------------------------------------------- */

static void test_time_units(void)
{
    T_EQU(IBCC_PS(7), 7);
    T_EQU(IBCC_NS(1), UINT64_C(1000));
    T_EQU(IBCC_US(1), UINT64_C(1000000));
    T_EQU(IBCC_MS(1), UINT64_C(1000000000));
    T_EQU(IBCC_S(1), UINT64_C(1000000000000));
    T_EQU(IBCC_US(3), IBCC_NS(3000));
    T_EQU(IBCC_S(18446744), UINT64_C(18446744000000000000)); /* ~213 days fit */
    T_EQU(IBCC_TIME_MAX, UINT64_MAX);
    T_EQU(IBCC_GBYTES(1), UINT64_C(1000000000));
    T_EQU(IBCC_MBYTES(2500), UINT64_C(2500000000));
    T_EQU(IBCC_GBITS(8), IBCC_GBYTES(1));
    T_EQU(IBCC_GBITS(100), UINT64_C(12500000000));
}

/* Expected values: bytes * 10^12 / rate, rounded up, worked by hand from
   the ps-per-byte figure of each rate (1000, 500, 400, 80, 40, 10, 5 ps;
   13 Gbit/s = 1.625e9 B/s -> 615.38... ps/B; 3 GB/s -> 333.33... ps/B)
   and cross-checked once with exact integer arithmetic in python3
   (-(-(b * 10**12) // rate)). */
static void test_wire_time_table(void)
{
    static const uint64_t sizes[8] = {
        0, 1, 20, 2068, 4096, 4097, 65536, UINT64_C(1099511627776) /* 2^40 */
    };
    struct row { ibcc_rate rate; uint64_t ps[8]; };
    static const struct row rows[] = {
        { IBCC_GBYTES(1), { 0, 1000, 20000, 2068000, 4096000, 4097000,
                            65536000, UINT64_C(1099511627776000) } },
        { IBCC_GBYTES(2), { 0, 500, 10000, 1034000, 2048000, 2048500,
                            32768000, UINT64_C(549755813888000) } },
        { IBCC_MBYTES(2500), { 0, 400, 8000, 827200, 1638400, 1638800,
                               26214400, UINT64_C(439804651110400) } },
        { IBCC_GBITS(100), { 0, 80, 1600, 165440, 327680, 327760,
                             5242880, UINT64_C(87960930222080) } },
        { IBCC_GBYTES(25), { 0, 40, 800, 82720, 163840, 163880,
                             2621440, UINT64_C(43980465111040) } },
        { IBCC_GBYTES(100), { 0, 10, 200, 20680, 40960, 40970,
                              655360, UINT64_C(10995116277760) } },
        { IBCC_GBYTES(200), { 0, 5, 100, 10340, 20480, 20485,
                              327680, UINT64_C(5497558138880) } },
        /* not a whole number of ps per byte: rounding up applies */
        { IBCC_GBITS(13), { 0, 616, 12308, 1272616, 2520616, 2521231,
                            40329847, UINT64_C(676622540169847) } },
        { IBCC_GBYTES(3), { 0, 334, 6667, 689334, 1365334, 1365667,
                            21845334, UINT64_C(366503875925334) } }
    };
    size_t r, s;
    for (r = 0; r < sizeof rows / sizeof rows[0]; r++) {
        for (s = 0; s < 8; s++) {
            ibcc_time t = 12345;
            T_EQ(ibcc_wire_time(sizes[s], rows[r].rate, &t), IBCC_OK);
            if (t != rows[r].ps[s])
                T_FAIL_("rate %llu size %llu: %llu != %llu",
                        (unsigned long long)rows[r].rate,
                        (unsigned long long)sizes[s], (unsigned long long)t,
                        (unsigned long long)rows[r].ps[s]);
        }
    }
}

static void test_wire_time_exact_cases(void)
{
    ibcc_time t = 0;
    /* exact multiples of a fractional byte time need no rounding */
    T_EQ(ibcc_wire_time(13, IBCC_GBITS(13), &t), IBCC_OK);
    T_EQU(t, 8000);                 /* 13 B = 104 bit at 13 Gbit/s = 8 ns */
    T_EQ(ibcc_wire_time(3, IBCC_GBYTES(3), &t), IBCC_OK);
    T_EQU(t, 1000);
    /* faster than 1 byte per ps */
    T_EQ(ibcc_wire_time(1, UINT64_C(2000000000000), &t), IBCC_OK);
    T_EQU(t, 1);                    /* 0.5 ps rounds up to 1 */
    T_EQ(ibcc_wire_time(3, UINT64_C(2000000000000), &t), IBCC_OK);
    T_EQU(t, 2);
    T_EQ(ibcc_wire_time(1, UINT64_MAX, &t), IBCC_OK);
    T_EQU(t, 1);
    T_EQ(ibcc_wire_time(0, UINT64_MAX, &t), IBCC_OK);
    T_EQU(t, 0);
    /* slowest rate: 1 B/s */
    T_EQ(ibcc_wire_time(5, 1, &t), IBCC_OK);
    T_EQU(t, UINT64_C(5000000000000));
}

static void test_wire_time_limits(void)
{
    ibcc_time t = 77;
    /* whole-ps path: 1000 ps/B, the largest size that fits and one more */
    T_EQ(ibcc_wire_time(UINT64_C(18446744073709551), IBCC_GBYTES(1), &t), IBCC_OK);
    T_EQU(t, UINT64_C(18446744073709551000));
    T_EQ(ibcc_wire_time(UINT64_C(18446744073709552), IBCC_GBYTES(1), &t),
         IBCC_ERR_OVERFLOW);
    T_EQ(ibcc_wire_time(UINT64_MAX, IBCC_GBYTES(200), &t), IBCC_ERR_OVERFLOW);
    /* 128-bit path (bytes * 10^12 >= 2^64) at 3 GB/s: exact, rounded up,
       and the last size whose ceiling still fits in 64 bits */
    T_EQ(ibcc_wire_time(UINT64_C(55340232221128653), IBCC_GBYTES(3), &t), IBCC_OK);
    T_EQU(t, UINT64_C(18446744073709551000));
    T_EQ(ibcc_wire_time(UINT64_C(55340232221128654), IBCC_GBYTES(3), &t), IBCC_OK);
    T_EQU(t, UINT64_C(18446744073709551334));
    T_EQ(ibcc_wire_time(UINT64_C(55340232221128655), IBCC_GBYTES(3), &t),
         IBCC_ERR_OVERFLOW);
    T_EQ(ibcc_wire_time(UINT64_MAX, IBCC_GBYTES(3), &t), IBCC_ERR_OVERFLOW);
    /* 2^64 - 1 bytes at 10^12 B/s is exactly 2^64 - 1 ps */
    T_EQ(ibcc_wire_time(UINT64_MAX, UINT64_C(1000000000000), &t), IBCC_OK);
    T_EQU(t, UINT64_MAX);
    /* errors */
    T_EQ(ibcc_wire_time(100, 0, &t), IBCC_ERR_RANGE);
    T_EQ(ibcc_wire_time(0, 0, &t), IBCC_ERR_RANGE);
    T_EQ(ibcc_wire_time(100, IBCC_GBYTES(1), NULL), IBCC_ERR_NULL);
}

/* Rounding rule on random inputs small enough to check in 64 bits:
   t is the least integer with t * rate >= bytes * 10^12. */
static void test_wire_time_rounding_property(void)
{
    ibcc_rng r;
    int i;
    ibcc_rng_seed(&r, 2026);
    for (i = 0; i < 20000; i++) {
        uint64_t bytes = ibcc_rng_below(&r, UINT64_C(1) << 23);
        ibcc_rate rate = 1u + ibcc_rng_below(&r, UINT64_C(1) << 40);
        uint64_t need = bytes * UINT64_C(1000000000000); /* < 2^63 */
        ibcc_time t = 0;
        if (ibcc_wire_time(bytes, rate, &t) != IBCC_OK) {
            T_FAIL_("unexpected error for %llu B at %llu B/s",
                    (unsigned long long)bytes, (unsigned long long)rate);
            return;
        }
        if (!(t * rate >= need && (t == 0 || (t - 1u) * rate < need))) {
            T_FAIL_("%llu B at %llu B/s gave %llu ps",
                    (unsigned long long)bytes, (unsigned long long)rate,
                    (unsigned long long)t);
            return;
        }
    }
}

static void test_flag_bits(void)
{
    const unsigned f[] = { IBCC_FECN, IBCC_BECN, IBCC_MB, IBCC_VB, IBCC_ACK,
                           IBCC_CNP, IBCC_MCAST };
    unsigned all = 0;
    size_t i;
    T_EQU(IBCC_ECN, IBCC_FECN);
    for (i = 0; i < sizeof f / sizeof f[0]; i++) {
        T_CHECK(f[i] != 0 && (f[i] & (f[i] - 1u)) == 0); /* one bit */
        T_CHECK((all & f[i]) == 0);                       /* distinct */
        all |= f[i];
    }
    T_EQU(all, 0x7fu);
}

/* ---- RNG ---------------------------------------------------------------- */

/* Reference outputs obtained once from an independent python3
   reimplementation of splitmix64 (seeding the four words in order) and
   xoshiro256** (Blackman & Vigna), integer arithmetic masked to 64 bits. */
static void test_rng_sequences(void)
{
    static const uint64_t seed0[5] = {
        UINT64_C(0x99ec5f36cb75f2b4), UINT64_C(0xbf6e1f784956452a),
        UINT64_C(0x1a5f849d4933e6e0), UINT64_C(0x6aa594f1262d2d2c),
        UINT64_C(0xbba5ad4a1f842e59) };
    static const uint64_t seed1[5] = {
        UINT64_C(0xb3f2af6d0fc710c5), UINT64_C(0x853b559647364cea),
        UINT64_C(0x92f89756082a4514), UINT64_C(0x642e1c7bc266a3a7),
        UINT64_C(0xb27a48e29a233673) };
    static const uint64_t seedx[5] = {        /* seed 0x123456789abcdef0 */
        UINT64_C(0xe01d6fafc557f1b9), UINT64_C(0xbd627ebe4406b404),
        UINT64_C(0x2c23132b578b57db), UINT64_C(0x2e8b319d4d1f276a),
        UINT64_C(0x608d57acf53888e4) };
    static const uint64_t seedm[5] = {        /* seed 2^64 - 1 */
        UINT64_C(0x8f5520d52a7ead08), UINT64_C(0xc476a018caa1802d),
        UINT64_C(0x81de31c0d260469e), UINT64_C(0xbf658d7e065f3c2f),
        UINT64_C(0x913593fda1bca32a) };
    ibcc_rng r;
    int i;
    ibcc_rng_seed(&r, 0);
    /* the state is splitmix64's first four outputs from 0 */
    T_EQU(r.s[0], UINT64_C(0xe220a8397b1dcdaf));
    T_EQU(r.s[3], UINT64_C(0xf88bb8a8724c81ec));
    for (i = 0; i < 5; i++) T_EQU(ibcc_rng_next(&r), seed0[i]);
    ibcc_rng_seed(&r, 1);
    for (i = 0; i < 5; i++) T_EQU(ibcc_rng_next(&r), seed1[i]);
    ibcc_rng_seed(&r, UINT64_C(0x123456789abcdef0));
    for (i = 0; i < 5; i++) T_EQU(ibcc_rng_next(&r), seedx[i]);
    ibcc_rng_seed(&r, UINT64_MAX);
    for (i = 0; i < 5; i++) T_EQU(ibcc_rng_next(&r), seedm[i]);
    ibcc_rng_seed(NULL, 1); /* ignored, no crash */
}

static void test_rng_derived_sequences(void)
{
    /* same python3 reference: ibcc_rng_below(r, 10) from seed 42, and the
       top 53 bits of the first outputs from seed 7 */
    static const uint64_t below10[8] = { 2, 2, 9, 3, 6, 4, 4, 7 };
    static const double top53[3] = { 6310231968177966.0, 2510767866374405.0,
                                     7562691848873359.0 };
    ibcc_rng r, r2;
    int i;
    ibcc_rng_seed(&r, 42);
    for (i = 0; i < 8; i++) T_EQU(ibcc_rng_below(&r, 10), below10[i]);
    ibcc_rng_seed(&r, 7);
    for (i = 0; i < 3; i++)
        T_CHECK(ibcc_rng_double(&r) == top53[i] / 9007199254740992.0);
    /* reseeding restarts the sequence; copies evolve identically */
    ibcc_rng_seed(&r, 99);
    r2 = r;
    for (i = 0; i < 100; i++) T_EQU(ibcc_rng_next(&r), ibcc_rng_next(&r2));
}

static void test_rng_below_bounds(void)
{
    static const uint64_t ns[] = { 1, 2, 3, 7, 10, 1000, UINT64_C(1) << 32,
        (UINT64_C(1) << 63) + 1u, UINT64_MAX - 1u, UINT64_MAX };
    ibcc_rng r;
    size_t k;
    int i, seen_max = 0;
    ibcc_rng_seed(&r, 5);
    T_EQU(ibcc_rng_below(&r, 0), 0);
    for (k = 0; k < sizeof ns / sizeof ns[0]; k++)
        for (i = 0; i < 2000; i++) {
            uint64_t v = ibcc_rng_below(&r, ns[k]);
            if (v >= ns[k]) {
                T_FAIL_("below(%llu) gave %llu", (unsigned long long)ns[k],
                        (unsigned long long)v);
                return;
            }
            if (ns[k] == 3 && v == 2) seen_max = 1;
        }
    T_CHECK(seen_max);
    for (i = 0; i < 100; i++) T_EQU(ibcc_rng_below(&r, 1), 0);
}

/* Chi-square goodness of fit. Thresholds are the 0.999 quantiles of the
   chi-square distribution (df 9: 27.88, df 2: 13.82), so a correct
   generator fails with probability 0.001 per seed; the seeds are fixed,
   so the outcome is deterministic. */
static double chi_square(const long *count, int k, long n)
{
    double e = (double)n / (double)k, x = 0.0;
    int i;
    for (i = 0; i < k; i++) x += ((double)count[i] - e) * ((double)count[i] - e) / e;
    return x;
}

static void test_rng_below_uniform(void)
{
    ibcc_rng r;
    long c[10], c3[3];
    long i, n = 100000;
    memset(c, 0, sizeof c);
    ibcc_rng_seed(&r, 11);
    for (i = 0; i < n; i++) c[ibcc_rng_below(&r, 10)]++;
    T_CHECK(chi_square(c, 10, n) < 27.88);
    /* n = 3 * 2^62: plain modulo would give [0, 2^62) twice the weight of
       the other two thirds (chi-square about n / 4 here); the rejection
       step must remove that bias. */
    memset(c3, 0, sizeof c3);
    for (i = 0; i < n; i++)
        c3[ibcc_rng_below(&r, UINT64_C(3) << 62) >> 62]++;
    T_CHECK(chi_square(c3, 3, n) < 13.82);
}

/* Means over N = 10^6 samples must fall within 5 standard errors
   (5 * sigma / sqrt(N)) of the true mean:
     double      mean 1/2, sigma 1/sqrt(12) = 0.2887 -> tol 0.00144
     exp(3)      mean 3,   sigma 3                   -> tol 0.015
     bernoulli   mean 0.3, sigma sqrt(0.21) = 0.458  -> tol 0.00229 */
static void test_rng_means(void)
{
    const long n = 1000000;
    ibcc_rng r;
    double sd = 0.0, se = 0.0, lo = 1.0, hi = 0.0;
    long i, sb = 0;
    int bad = 0;
    ibcc_rng_seed(&r, 3);
    for (i = 0; i < n; i++) {
        double u = ibcc_rng_double(&r);
        if (!(u >= 0.0 && u < 1.0)) bad = 1;
        if (u < lo) lo = u;
        if (u > hi) hi = u;
        sd += u;
    }
    T_CHECK(!bad);
    T_NEAR(sd / (double)n, 0.5, 5.0 * 0.2887 / 1000.0);
    T_CHECK(lo < 1e-5 && hi > 1.0 - 1e-5);
    for (i = 0; i < n; i++) {
        double x = ibcc_rng_exp(&r, 3.0);
        if (!(x >= 0.0)) bad = 1;
        se += x;
    }
    T_CHECK(!bad);
    T_NEAR(se / (double)n, 3.0, 5.0 * 3.0 / 1000.0);
    for (i = 0; i < n; i++) sb += ibcc_rng_bernoulli(&r, 0.3);
    T_NEAR((double)sb / (double)n, 0.3, 5.0 * 0.4583 / 1000.0);
}

static void test_rng_edge_parameters(void)
{
    ibcc_rng r;
    int i, ok_never = 1, ok_always = 1, ok_zero = 1;
    ibcc_rng_seed(&r, 8);
    for (i = 0; i < 1000; i++) {
        if (ibcc_rng_bernoulli(&r, 0.0) != 0) ok_never = 0;
        if (ibcc_rng_bernoulli(&r, -1.0) != 0) ok_never = 0;
        if (ibcc_rng_bernoulli(&r, NAN) != 0) ok_never = 0;
        if (ibcc_rng_bernoulli(&r, 1.0) != 1) ok_always = 0;
        if (ibcc_rng_bernoulli(&r, 2.5) != 1) ok_always = 0;
        if (ibcc_rng_exp(&r, 0.0) != 0.0) ok_zero = 0;
        if (ibcc_rng_exp(&r, -2.0) != 0.0) ok_zero = 0;
        if (ibcc_rng_exp(&r, NAN) != 0.0) ok_zero = 0;
    }
    T_CHECK(ok_never);
    T_CHECK(ok_always);
    T_CHECK(ok_zero);
}

/* Regression (misuse review): every draw accepts a NULL generator and
   returns 0 without touching memory. */
static void test_misuse_regressions(void)
{
    volatile double z = 0.0;
    T_EQU(ibcc_rng_next(NULL), 0);
    T_EQU(ibcc_rng_below(NULL, 7), 0);
    T_CHECK(ibcc_rng_double(NULL) == 0.0);
    T_CHECK(ibcc_rng_exp(NULL, 3.0) == 0.0);
    T_EQ(ibcc_rng_bernoulli(NULL, 0.5), 0);
    {
        ibcc_rng r;
        ibcc_rng_seed(&r, 1);
        T_CHECK(ibcc_rng_exp(&r, z / z) == 0.0);     /* NaN mean */
        T_EQ(ibcc_rng_bernoulli(&r, z / z), 0);      /* NaN p */
    }
}

int main(void)
{
    T_RUN(test_version);
    T_RUN(test_result_str);
    T_RUN(test_time_units);
    T_RUN(test_wire_time_table);
    T_RUN(test_wire_time_exact_cases);
    T_RUN(test_wire_time_limits);
    T_RUN(test_wire_time_rounding_property);
    T_RUN(test_flag_bits);
    T_RUN(test_rng_sequences);
    T_RUN(test_rng_derived_sequences);
    T_RUN(test_rng_below_bounds);
    T_RUN(test_rng_below_uniform);
    T_RUN(test_rng_means);
    T_RUN(test_rng_edge_parameters);
    T_RUN(test_misuse_regressions);
    return t_summary();
}
