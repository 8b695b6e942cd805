/* Tests of the L1 segment policy: lengths (fixed and adaptive B*h),
   segment counts and sizes of messages, priority selection, and every
   invalid description. */
#ifndef IBCC_TEST_LINKED   /* make test links one implementation object */
#define IBCC_IMPLEMENTATION
#endif
#include "ibcc.h"
#include "t.h"

static void test_lengths(void)
{
    ibcc_segment s;
    ibcc_segment_desc d;
    T_EQ(ibcc_segment_init(&s, NULL), IBCC_OK);
    T_EQU(s.seg_bytes, 100);
    T_EQU(s.slack_bytes, 80);
    T_EQU(ibcc_segment_len(&s, IBCC_SEGMENT_LOW, 3), 100);
    T_EQU(ibcc_segment_len(&s, IBCC_SEGMENT_HIGH, 3), IBCC_SEGMENT_WHOLE);
    /* adaptive: L_l = B h; 80-byte slack, 4 hops: 320; 150-byte: 600 */
    T_EQU(ibcc_segment_adaptive_len(80, 4), 320);
    T_EQU(ibcc_segment_adaptive_len(150, 4), 600);
    T_EQU(ibcc_segment_adaptive_len(80, 0), 80);
    T_EQU(ibcc_segment_adaptive_len(0xffffffffu, 0xffffffffu),
          UINT64_C(0xfffffffe00000001));
    memset(&d, 0, sizeof d);
    d.adaptive = 1;
    d.slack_bytes = 150;
    T_EQ(ibcc_segment_init(&s, &d), IBCC_OK);
    T_EQU(ibcc_segment_len(&s, IBCC_SEGMENT_LOW, 2), 300);
    T_EQU(ibcc_segment_len(&s, IBCC_SEGMENT_HIGH, 2), IBCC_SEGMENT_WHOLE);
    T_EQU(ibcc_segment_len(NULL, IBCC_SEGMENT_LOW, 2), IBCC_SEGMENT_WHOLE);
}

static void test_messages(void)
{
    ibcc_segment s;
    ibcc_segment_iter it;
    ibcc_segment_desc d;
    uint64_t sizes[8], n = 0, x;
    memset(&d, 0, sizeof d);
    d.seg_bytes = 33;
    T_EQ(ibcc_segment_init(&s, &d), IBCC_OK);
    /* 100 bytes in 33-byte segments: 33 33 33 1 */
    T_EQU(ibcc_segment_count(&s, 100, IBCC_SEGMENT_LOW, 1), 4);
    ibcc_segment_begin(&it, &s, 100, IBCC_SEGMENT_LOW, 1);
    while ((x = ibcc_segment_next(&it)) != 0 && n < 8) sizes[n++] = x;
    T_EQU(n, 4);
    T_EQU(sizes[0], 33); T_EQU(sizes[1], 33); T_EQU(sizes[2], 33); T_EQU(sizes[3], 1);
    T_EQU(ibcc_segment_next(&it), 0);
    /* exact multiple: 99 = 3 x 33 */
    T_EQU(ibcc_segment_count(&s, 99, IBCC_SEGMENT_LOW, 1), 3);
    ibcc_segment_begin(&it, &s, 99, IBCC_SEGMENT_LOW, 1);
    T_EQU(ibcc_segment_next(&it), 33);
    T_EQU(ibcc_segment_next(&it), 33);
    T_EQU(ibcc_segment_next(&it), 33);
    T_EQU(ibcc_segment_next(&it), 0);
    /* high priority: one worm of the whole message */
    T_EQU(ibcc_segment_count(&s, 1000, IBCC_SEGMENT_HIGH, 1), 1);
    ibcc_segment_begin(&it, &s, 1000, IBCC_SEGMENT_HIGH, 1);
    T_EQU(ibcc_segment_next(&it), 1000);
    T_EQU(ibcc_segment_next(&it), 0);
    /* empty message */
    T_EQU(ibcc_segment_count(&s, 0, IBCC_SEGMENT_LOW, 1), 0);
    ibcc_segment_begin(&it, &s, 0, IBCC_SEGMENT_LOW, 1);
    T_EQU(ibcc_segment_next(&it), 0);
    /* huge message does not overflow */
    T_EQU(ibcc_segment_count(&s, UINT64_MAX, IBCC_SEGMENT_LOW, 1),
          UINT64_MAX / 33 + 1);
    T_EQU(ibcc_segment_count(&s, UINT64_MAX, IBCC_SEGMENT_HIGH, 1), 1);
    /* adaptive over 3 hops with 80-byte slack: 240 */
    d.adaptive = 1;
    T_EQ(ibcc_segment_init(&s, &d), IBCC_OK);
    T_EQU(ibcc_segment_count(&s, 1000, IBCC_SEGMENT_LOW, 3), 5);
    ibcc_segment_begin(&it, &s, 1000, IBCC_SEGMENT_LOW, 3);
    T_EQU(ibcc_segment_next(&it), 240);
    T_EQU(ibcc_segment_next(&it), 240);
    T_EQU(ibcc_segment_next(&it), 240);
    T_EQU(ibcc_segment_next(&it), 240);
    T_EQU(ibcc_segment_next(&it), 40);
    T_EQU(ibcc_segment_next(&it), 0);
    T_EQU(ibcc_segment_next(NULL), 0);
    ibcc_segment_begin(NULL, &s, 10, 0, 1);
}

static void test_pick(void)
{
    T_EQ(ibcc_segment_pick(1, 1, 1), IBCC_SEGMENT_PICK_NONE);
    T_EQ(ibcc_segment_pick(0, 1, 1), IBCC_SEGMENT_HIGH);
    T_EQ(ibcc_segment_pick(0, 1, 0), IBCC_SEGMENT_HIGH);
    T_EQ(ibcc_segment_pick(0, 0, 1), IBCC_SEGMENT_LOW);
    T_EQ(ibcc_segment_pick(0, 0, 0), IBCC_SEGMENT_PICK_NONE);
}

static void test_desc(void)
{
    ibcc_segment_desc d;
    ibcc_segment s;
    memset(&d, 0, sizeof d);
    T_EQ(ibcc_segment_defaults(&d), IBCC_OK);
    T_EQU(d.seg_bytes, 100);
    T_EQU(d.slack_bytes, 80);
    T_EQ(ibcc_segment_defaults(NULL), IBCC_ERR_NULL);
    T_EQ(ibcc_segment_init(NULL, &d), IBCC_ERR_NULL);
    d.adaptive = 2;
    T_EQ(ibcc_segment_init(&s, &d), IBCC_ERR_RANGE);
}

/* Regression (misuse review): a zeroed, never initialised ibcc_segment
   (length 0) gave a division by zero in ibcc_segment_count. */
static void test_misuse_regressions(void)
{
    ibcc_segment z;
    memset(&z, 0, sizeof z);
    T_EQU(ibcc_segment_count(&z, 1000, IBCC_SEGMENT_LOW, 3), 0);
}

/* The high-priority delay, by hand: 80 MB/s (tau = 12 500 ps), 1000-byte
   message, 3 switches (4 links of 125 ns), routing 50 ns: unloaded =
   1000*12.5 ns + 4*125 ns + 3*50 ns = 13 150 ns.
   [K]'s D_H3 (section 3.2), B = 80-byte slack buffers, L_h = 1000-byte
   high-priority worms, in bytes then times tau = 12.5 ns:
     L_l = 40:  (80/40) * (40 + 1000) = 2 * 1040 = 2080 bytes = 26 000 ns
     L_l = 80:  (80/80) * (80 + 1000) = 1080 bytes            = 13 500 ns
     L_l = 100: L_l > B: 100 + 1000 = 1100 bytes              = 13 750 ns
     L_l = 250: 250 + 1000 = 1250 bytes                       = 15 625 ns
     L_l = 33:  (80/33) * 1033 = 82 640/33 bytes = 31 303.0303... ns
   and with B = 150, L_l = 50: 3 * 1050 = 3150 bytes = 39 375 ns. */
static void test_high_delay(void)
{
    ibcc_segment_delay dl;
    T_EQ(ibcc_segment_high_delay(1000, 40, 80, 1000, 3, 4, 12500, 125000,
                                 50000, &dl), IBCC_OK);
    T_NEAR(dl.unloaded, 13150000.0, 1e-6);
    T_NEAR(dl.dh3, 26000000.0, 1e-6);
    T_NEAR(dl.wait_max, 4 * 26000000.0, 1e-6);
    T_EQ(ibcc_segment_high_delay(1000, 80, 80, 1000, 3, 4, 12500, 125000,
                                 50000, &dl), IBCC_OK);
    T_NEAR(dl.dh3, 13500000.0, 1e-6);
    T_EQ(ibcc_segment_high_delay(1000, 100, 80, 1000, 3, 4, 12500, 125000,
                                 50000, &dl), IBCC_OK);
    T_NEAR(dl.dh3, 13750000.0, 1e-6);
    T_EQ(ibcc_segment_high_delay(1000, 250, 80, 1000, 3, 1, 12500, 125000,
                                 50000, &dl), IBCC_OK);
    T_NEAR(dl.dh3, 15625000.0, 1e-6);
    T_NEAR(dl.wait_max, 15625000.0, 1e-6);
    T_EQ(ibcc_segment_high_delay(1000, 33, 80, 1000, 3, 1, 12500, 125000,
                                 50000, &dl), IBCC_OK);
    T_NEAR(dl.dh3, 82640.0 / 33.0 * 12500.0, 1e-3);
    T_NEAR(dl.dh3, 31303030.303, 1e-3);
    T_EQ(ibcc_segment_high_delay(1000, 50, 150, 1000, 3, 1, 12500, 125000,
                                 50000, &dl), IBCC_OK);
    T_NEAR(dl.dh3, 39375000.0, 1e-6);
    /* the minimum is at L_l = B: one byte either side costs more */
    {
        ibcc_segment_delay lo, at, hi;
        T_EQ(ibcc_segment_high_delay(1, 79, 80, 1000, 1, 1, 1, 0, 0, &lo), IBCC_OK);
        T_EQ(ibcc_segment_high_delay(1, 80, 80, 1000, 1, 1, 1, 0, 0, &at), IBCC_OK);
        T_EQ(ibcc_segment_high_delay(1, 81, 80, 1000, 1, 1, 1, 0, 0, &hi), IBCC_OK);
        T_NEAR(at.dh3, 1080.0, 1e-9);
        T_NEAR(lo.dh3, 80.0 * 1079.0 / 79.0, 1e-9);    /* 1092.66 */
        T_NEAR(hi.dh3, 1081.0, 1e-9);
        T_CHECK(lo.dh3 > at.dh3 && hi.dh3 > at.dh3);
    }
    /* a direct link (0 switches): M*tau + one propagation delay */
    T_EQ(ibcc_segment_high_delay(10, 1, 80, 0, 0, 0, 1000, 5000, 7, &dl),
         IBCC_OK);
    T_NEAR(dl.unloaded, 15000.0, 1e-9);
    T_NEAR(dl.wait_max, 0.0, 0.0);
    T_EQ(ibcc_segment_high_delay(1, 0, 80, 1, 1, 1, 1, 1, 1, &dl),
         IBCC_ERR_RANGE);
    T_EQ(ibcc_segment_high_delay(1, 1, 0, 1, 1, 1, 1, 1, 1, &dl),
         IBCC_ERR_RANGE);
    T_EQ(ibcc_segment_high_delay(1, 1, 1, 1, 1, 1, 1, 1, 1, NULL),
         IBCC_ERR_NULL);
}

int main(void)
{
    T_RUN(test_high_delay);
    T_RUN(test_lengths);
    T_RUN(test_messages);
    T_RUN(test_pick);
    T_RUN(test_desc);
    T_RUN(test_misuse_regressions);
    return t_summary();
}
