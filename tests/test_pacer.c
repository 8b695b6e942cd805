/* Unit tests of the L1 pacer (window + rate limit, next-send time) and the
   persistent per-(source, destination) law state store. */
#ifndef IBCC_TEST_LINKED   /* make test links one implementation object */
#define IBCC_IMPLEMENTATION
#endif
#include "ibcc.h"
#include "t.h"

#define TAU IBCC_NS(2048) /* 2048-byte packet at 1 GB/s */

static uint64_t tab_[256 * 3];
static uint64_t pmem_[1 << 16];

static ibcc_pacer_desc pdesc(void)
{
    ibcc_pacer_desc d;
    memset(&d, 0, sizeof d);
    return d;
}

static ibcc_law_desc ldesc(ibcc_law_kind kind, ibcc_law_form form)
{
    ibcc_law_desc d;
    memset(&d, 0, sizeof d);
    d.kind = kind;
    d.form = form;
    return d;
}

static void test_desc(void)
{
    ibcc_pacer_desc d = pdesc();
    ibcc_pacer p;
    ibcc_law l;
    ibcc_law_desc ld = ldesc(IBCC_LAW_LIPD, IBCC_LAW_CONTINUOUS);
    T_EQ(ibcc_pacer_defaults(&d), IBCC_OK);
    T_EQU(d.window, 1);                         /* [S03] window of 1 */
    T_EQ(ibcc_pacer_defaults(NULL), IBCC_ERR_NULL);
    T_EQ(ibcc_pacer_init(NULL, &d), IBCC_ERR_NULL);
    T_EQ(ibcc_pacer_init(&p, NULL), IBCC_ERR_NULL);
    T_EQ(ibcc_law_init(&l, &ld, NULL, 0), IBCC_OK);
    /* both a law and a fixed rate */
    d = pdesc(); d.law = &l; d.rate = 100; d.rmax = 1000;
    T_EQ(ibcc_pacer_init(&p, &d), IBCC_ERR_UNSUPPORTED);
    /* rate above the line rate, rate without line rate */
    d = pdesc(); d.rate = 1001; d.rmax = 1000;
    T_EQ(ibcc_pacer_init(&p, &d), IBCC_ERR_RANGE);
    d = pdesc(); d.rate = 1000;
    T_EQ(ibcc_pacer_init(&p, &d), IBCC_ERR_RANGE);
    /* line rate without a rate */
    d = pdesc(); d.rmax = 1000;
    T_EQ(ibcc_pacer_init(&p, &d), IBCC_ERR_UNSUPPORTED);
    /* extreme ratio: exact, saturating */
    d = pdesc(); d.rate = 1; d.rmax = UINT64_C(1) << 40;
    T_EQ(ibcc_pacer_init(&p, &d), IBCC_OK);
    T_EQU(ibcc_pacer_gap(&p, 3), 3 * ((UINT64_C(1) << 40) - 1));
    T_EQU(ibcc_pacer_gap(&p, UINT64_C(1) << 30), IBCC_TIME_MAX);
    /* rate == rmax: no gap */
    d = pdesc(); d.rate = 1000; d.rmax = 1000;
    T_EQ(ibcc_pacer_init(&p, &d), IBCC_OK);
    T_EQU(ibcc_pacer_gap(&p, TAU), 0);
}

/* window 1, no rate limit: send, blocked until the ACK, then at once */
static void test_window_only(void)
{
    ibcc_pacer_desc d = pdesc();
    ibcc_pacer p;
    T_EQ(ibcc_pacer_init(&p, &d), IBCC_OK);
    T_EQU(ibcc_pacer_next(&p), 0);
    T_CHECK(ibcc_pacer_can_send(&p, 0));
    T_EQ(ibcc_pacer_on_send(&p, 0, 1000), IBCC_OK);
    T_EQU(p.outstanding, 1);
    T_CHECK(!ibcc_pacer_window_open(&p));
    T_CHECK(!ibcc_pacer_can_send(&p, 5000));
    T_EQU(ibcc_pacer_earliest(&p), IBCC_TIME_MAX);
    T_EQ(ibcc_pacer_on_send(&p, 5000, 1000), IBCC_ERR_FULL);
    T_EQU(p.outstanding, 1);
    T_EQ(ibcc_pacer_on_ack(&p, 0), IBCC_OK);
    T_EQU(p.outstanding, 0);
    /* the link is busy until 1000: next = 0 + 1000 + gap 0 */
    T_EQU(ibcc_pacer_next(&p), 1000);
    T_EQU(ibcc_pacer_earliest(&p), 1000);
    T_CHECK(!ibcc_pacer_can_send(&p, 999));
    T_CHECK(ibcc_pacer_can_send(&p, 1000));
    T_EQ(ibcc_pacer_on_send(&p, 999, 1000), IBCC_ERR_PAST);
    T_EQ(ibcc_pacer_on_send(&p, 1000, 0), IBCC_ERR_RANGE);
    T_EQ(ibcc_pacer_on_send(&p, 1500, 1000), IBCC_OK);
    T_EQ(ibcc_pacer_on_ack(&p, 0), IBCC_OK);
    T_EQ(ibcc_pacer_on_ack(&p, 0), IBCC_ERR_MISMATCH);
    T_EQ(ibcc_pacer_on_ack_sized(&p, 0, 65536u), IBCC_ERR_MISMATCH);
    T_EQU(p.sent, 2);
    T_EQU(p.acked, 2);
    T_EQ(ibcc_pacer_on_send(NULL, 0, 1), IBCC_ERR_NULL);
    T_EQ(ibcc_pacer_on_ack(NULL, 0), IBCC_ERR_NULL);
    T_EQ(ibcc_pacer_on_ack_sized(NULL, 0, 1), IBCC_ERR_NULL);

    /* window 3 */
    d.window = 3;
    T_EQ(ibcc_pacer_init(&p, &d), IBCC_OK);
    T_EQ(ibcc_pacer_on_send(&p, 0, 10), IBCC_OK);
    T_EQ(ibcc_pacer_on_send(&p, 10, 10), IBCC_OK);
    T_EQ(ibcc_pacer_on_send(&p, 20, 10), IBCC_OK);
    T_EQ(ibcc_pacer_on_send(&p, 30, 10), IBCC_ERR_FULL);
    T_EQ(ibcc_pacer_on_ack(&p, 1), IBCC_OK);
    T_EQ(ibcc_pacer_on_send(&p, 30, 10), IBCC_OK);
    T_EQU(p.outstanding, 3);

    /* no window at all */
    d.window = IBCC_PACER_NO_WINDOW;
    T_EQ(ibcc_pacer_init(&p, &d), IBCC_OK);
    {
        int i, bad = 0;
        for (i = 0; i < 1000; i++)
            if (ibcc_pacer_on_send(&p, (ibcc_time)i * 10, 10) != IBCC_OK) bad++;
        T_EQ(bad, 0);
        T_EQU(p.outstanding, 1000);
        T_CHECK(ibcc_pacer_window_open(&p));
    }
    /* reset: a restarted flow may send at once */
    ibcc_pacer_reset(&p);
    T_EQU(p.outstanding, 0);
    T_EQU(p.sent, 0);
    T_EQU(ibcc_pacer_next(&p), 0);
    T_CHECK(ibcc_pacer_can_send(&p, 0));
    ibcc_pacer_reset(NULL);
}

/* fixed rate: 1/10 of the line: gap 9 tau, sends every 10 tau */
static void test_fixed_rate(void)
{
    ibcc_pacer_desc d = pdesc();
    ibcc_pacer p;
    ibcc_time t = 0;
    int i;
    d.rate = IBCC_MBYTES(100);
    d.rmax = IBCC_GBYTES(1);
    d.window = IBCC_PACER_NO_WINDOW;
    T_EQ(ibcc_pacer_init(&p, &d), IBCC_OK);
    T_EQU(ibcc_pacer_gap(&p, TAU), 9 * TAU);
    for (i = 0; i < 5; i++) {
        T_EQU(ibcc_pacer_earliest(&p), t);
        T_EQ(ibcc_pacer_on_send(&p, t, TAU), IBCC_OK);
        t = ibcc_pacer_next(&p);
        T_EQU(t, (ibcc_time)(i + 1) * 10 * TAU);
    }
    /* a later start shifts the sequence */
    T_EQ(ibcc_pacer_on_send(&p, t + 7, TAU), IBCC_OK);
    T_EQU(ibcc_pacer_next(&p), t + 7 + 10 * TAU);

    /* 3/10 of the line: gap = tau * 7/3, rounded up */
    d.rate = IBCC_MBYTES(300);
    T_EQ(ibcc_pacer_init(&p, &d), IBCC_OK);
    T_EQU(ibcc_pacer_gap(&p, 3000), 7000);
    T_EQU(ibcc_pacer_gap(&p, 1000), 2334);       /* ceil(2333.33) */
    T_EQU(ibcc_pacer_gap(&p, UINT64_C(3) << 60), UINT64_C(7) << 60); /* 128-bit */
    T_EQU(ibcc_pacer_gap(&p, 0), 0);
    T_EQU(ibcc_pacer_gap(&p, IBCC_TIME_MAX / 2), IBCC_TIME_MAX);
    /* next saturates */
    T_EQ(ibcc_pacer_on_send(&p, IBCC_TIME_MAX - 10, 5), IBCC_OK);
    T_EQU(ibcc_pacer_next(&p), IBCC_TIME_MAX);
    T_EQ(ibcc_pacer_init(&p, &d), IBCC_OK);
    T_EQ(ibcc_pacer_on_send(&p, IBCC_TIME_MAX - 10, 20), IBCC_OK);
    T_EQU(ibcc_pacer_next(&p), IBCC_TIME_MAX);
}

/* rate from a law (LIPD discrete): marks lengthen the gaps by one tau */
static void test_law_rate(void)
{
    ibcc_law_desc ld = ldesc(IBCC_LAW_LIPD, IBCC_LAW_DISCRETE);
    ibcc_law l;
    ibcc_pacer_desc d = pdesc();
    ibcc_pacer p;
    T_EQ(ibcc_law_init(&l, &ld, NULL, 0), IBCC_OK);
    d.law = &l;
    T_EQ(ibcc_pacer_init(&p, &d), IBCC_OK);
    /* window 1: send 0, marked ACK -> ipd 1 -> next = 0 + 1000 + 1000 */
    T_EQ(ibcc_pacer_on_send(&p, 0, 1000), IBCC_OK);
    T_EQ(ibcc_pacer_on_ack(&p, 1), IBCC_OK);
    T_EQU(ibcc_law_ipd(&l), 1);
    T_EQU(ibcc_pacer_next(&p), 2000);
    T_EQ(ibcc_pacer_on_send(&p, 2000, 1000), IBCC_OK);
    T_EQ(ibcc_pacer_on_ack(&p, 1), IBCC_OK);    /* ipd 2 */
    T_EQU(ibcc_pacer_next(&p), 5000);
    T_EQ(ibcc_pacer_on_send(&p, 5000, 1000), IBCC_OK);
    T_EQ(ibcc_pacer_on_ack(&p, 0), IBCC_OK);    /* 1/x = 2.988: ipd 2 */
    T_EQU(ibcc_pacer_next(&p), 8000);
    T_EQU(ibcc_pacer_gap(&p, 500), 1000);

    /* window 2: the rate in force when asked decides, so a mark between
       two sends lengthens the pending gap */
    ibcc_law_reset(&l);
    d.window = 2;
    T_EQ(ibcc_pacer_init(&p, &d), IBCC_OK);
    T_EQ(ibcc_pacer_on_send(&p, 0, 1000), IBCC_OK);
    T_EQU(ibcc_pacer_next(&p), 1000);
    T_EQ(ibcc_pacer_on_send(&p, 1000, 1000), IBCC_OK);
    T_EQU(ibcc_pacer_next(&p), 2000);
    T_EQ(ibcc_pacer_on_ack(&p, 1), IBCC_OK);
    T_EQU(ibcc_pacer_next(&p), 3000);
    T_EQ(ibcc_pacer_on_send(&p, 2500, 1000), IBCC_ERR_PAST);
    T_EQ(ibcc_pacer_on_send(&p, 3000, 1000), IBCC_OK);

    /* sized ACKs reach the law */
    {
        ibcc_law_desc cd = ldesc(IBCC_LAW_AIMD, IBCC_LAW_CONTINUOUS);
        ibcc_law c;
        T_EQ(ibcc_law_init(&c, &cd, NULL, 0), IBCC_OK);
        d = pdesc();
        d.law = &c;
        T_EQ(ibcc_pacer_init(&p, &d), IBCC_OK);
        T_EQ(ibcc_pacer_on_send(&p, 0, 1000), IBCC_OK);
        T_EQ(ibcc_pacer_on_ack_sized(&p, 1, 65536u), IBCC_OK);
        T_NEAR(ibcc_law_rate(&c), 0.5, 0);
        T_EQ(ibcc_pacer_on_send(&p, 2000, 1000), IBCC_OK);
        T_EQ(ibcc_pacer_on_ack_sized(&p, 0, 32768u), IBCC_OK);
        T_NEAR(ibcc_law_rate(&c), 0.5 + 1.0 / 65536.0, 0);
    }
}

/* table-form law through the pacer: a recovery sequence of next-send
   times equals tau * (1 + ipd) per packet, integer-exact */
static void test_law_table_sequence(void)
{
    ibcc_law_desc ld = ldesc(IBCC_LAW_FIMD, IBCC_LAW_TABLE);
    ibcc_law l;
    ibcc_pacer_desc d = pdesc();
    ibcc_pacer p;
    ibcc_time t = 0;
    int i, bad = 0;
    T_EQ(ibcc_law_init(&l, &ld, tab_, sizeof tab_), IBCC_OK);
    T_EQ(ibcc_law_set_rate(&l, 1.0 / 256.0), IBCC_OK);
    d.law = &l;
    T_EQ(ibcc_pacer_init(&p, &d), IBCC_OK);
    for (i = 0; i < 400; i++) {
        uint32_t ipd;
        T_EQ(ibcc_pacer_on_send(&p, t, TAU), IBCC_OK);
        T_EQ(ibcc_pacer_on_ack(&p, 0), IBCC_OK);
        ipd = ibcc_law_ipd(&l);
        if (ibcc_pacer_next(&p) != t + TAU * (1u + ipd)) bad++;
        t = ibcc_pacer_next(&p);
    }
    T_EQ(bad, 0);
    T_CHECK(ibcc_law_at_max(&l));               /* 360 ACKs suffice */
    /* first steps by hand: ipd 255 -> 127 (x doubles) -> 90 */
    T_EQ(ibcc_law_set_rate(&l, 1.0 / 256.0), IBCC_OK);
    ibcc_pacer_reset(&p);
    T_EQ(ibcc_pacer_on_send(&p, 0, TAU), IBCC_OK);
    T_EQ(ibcc_pacer_on_ack(&p, 0), IBCC_OK);
    T_EQU(ibcc_pacer_next(&p), 128 * TAU);
    T_EQ(ibcc_pacer_on_send(&p, 128 * TAU, TAU), IBCC_OK);
    T_EQ(ibcc_pacer_on_ack(&p, 0), IBCC_OK);
    T_EQU(ibcc_pacer_next(&p), 128 * TAU + 91 * TAU);
}

/* ---- persistent per-pair state ----------------------------------------- */

static void test_pairstate_errors(void)
{
    ibcc_pairstate_desc d;
    ibcc_pairstate ps;
    ibcc_law l;
    ibcc_law_desc ld = ldesc(IBCC_LAW_LIPD, IBCC_LAW_CONTINUOUS);
    memset(&d, 0, sizeof d);
    T_EQ(ibcc_pairstate_defaults(&d), IBCC_OK);
    T_EQU(d.capacity, 1024);
    T_SIZE_EQ(ibcc_pairstate_size, &d, 2048 * sizeof(ibcc_pair_slot_));
    T_EQ(ibcc_pairstate_defaults(NULL), IBCC_ERR_NULL);
    T_SIZE_ERR(ibcc_pairstate_size, NULL, IBCC_ERR_NULL);
    d.capacity = (1u << 24) + 1;
    T_EQ(ibcc_pairstate_defaults(&d), IBCC_ERR_CAPACITY);
    T_SIZE_ERR(ibcc_pairstate_size, &d, IBCC_ERR_CAPACITY);
    T_EQ(ibcc_pairstate_init(&ps, &d, pmem_, sizeof pmem_), IBCC_ERR_CAPACITY);
    d.capacity = 4;
    T_EQ(ibcc_pairstate_init(NULL, &d, pmem_, sizeof pmem_), IBCC_ERR_NULL);
    T_EQ(ibcc_pairstate_init(&ps, NULL, pmem_, sizeof pmem_), IBCC_ERR_NULL);
    T_EQ(ibcc_pairstate_init(&ps, &d, NULL, sizeof pmem_), IBCC_ERR_NULL);
    T_EQ(ibcc_pairstate_init(&ps, &d, (char *)pmem_ + 4, sizeof pmem_ - 8),
         IBCC_ERR_ALIGN);
    T_EQ(ibcc_pairstate_init(&ps, &d, pmem_, t_size_pairstate(&d) - 1),
         IBCC_ERR_NOMEM);
    T_EQ(ibcc_pairstate_init(&ps, &d, pmem_, t_size_pairstate(&d)), IBCC_OK);
    T_EQ(ibcc_law_init(&l, &ld, NULL, 0), IBCC_OK);
    T_EQ(ibcc_pairstate_save(NULL, 1, 2, &l), IBCC_ERR_NULL);
    T_EQ(ibcc_pairstate_save(&ps, 1, 2, NULL), IBCC_ERR_NULL);
    T_EQ(ibcc_pairstate_load(NULL, 1, 2, &l), IBCC_ERR_NULL);
    T_EQ(ibcc_pairstate_load(&ps, 1, 2, NULL), IBCC_ERR_NULL);
    ibcc_pairstate_reset(NULL);
}

/* a flow ends at a reduced rate; the pair's next flow resumes from it;
   other pairs start at Rmax */
static void test_pairstate_restore(void)
{
    ibcc_pairstate_desc d;
    ibcc_pairstate ps;
    ibcc_law_desc ld = ldesc(IBCC_LAW_LIPD, IBCC_LAW_DISCRETE);
    ibcc_law a, b;
    memset(&d, 0, sizeof d);
    d.capacity = 2;
    T_EQ(ibcc_pairstate_init(&ps, &d, pmem_, sizeof pmem_), IBCC_OK);
    T_EQ(ibcc_law_init(&a, &ld, NULL, 0), IBCC_OK);
    T_EQ(ibcc_law_init(&b, &ld, NULL, 0), IBCC_OK);
    /* flow 1 -> 2 ends at ipd 5 */
    T_EQ(ibcc_law_set_rate(&a, 1.0 / 6.0), IBCC_OK);
    T_EQU(ibcc_law_ipd(&a), 5);
    T_EQ(ibcc_pairstate_save(&ps, 1, 2, &a), IBCC_OK);
    T_EQU(ps.count, 1);
    /* next flow of the same pair */
    ibcc_law_on_ack(&b, 1);
    T_EQ(ibcc_pairstate_load(&ps, 1, 2, &b), IBCC_OK);
    T_EQU(ibcc_law_ipd(&b), 5);
    T_EQU(b.s.q, a.s.q);
    /* the reverse pair and another were never saved: Rmax */
    ibcc_law_on_ack(&b, 1);
    T_EQ(ibcc_pairstate_load(&ps, 2, 1, &b), IBCC_ERR_NOT_FOUND);
    T_CHECK(ibcc_law_at_max(&b));
    /* overwrite keeps the count; a third pair does not fit */
    ibcc_law_on_ack(&a, 1);
    T_EQ(ibcc_pairstate_save(&ps, 1, 2, &a), IBCC_OK);
    T_EQU(ps.count, 1);
    T_EQ(ibcc_pairstate_save(&ps, 7, 8, &a), IBCC_OK);
    T_EQU(ps.count, 2);
    T_EQ(ibcc_pairstate_save(&ps, 9, 9, &a), IBCC_ERR_FULL);
    T_EQ(ibcc_pairstate_load(&ps, 1, 2, &b), IBCC_OK);
    T_EQU(ibcc_law_ipd(&b), 6);
    /* clear forgets everything */
    ibcc_pairstate_reset(&ps);
    T_EQU(ps.count, 0);
    T_EQ(ibcc_pairstate_load(&ps, 1, 2, &b), IBCC_ERR_NOT_FOUND);
    T_CHECK(ibcc_law_at_max(&b));
    T_EQ(ibcc_pairstate_save(&ps, 9, 9, &a), IBCC_OK);

    /* a state saved from another form is refused; the law is at Rmax */
    {
        ibcc_law_desc cd = ldesc(IBCC_LAW_LIPD, IBCC_LAW_CONTINUOUS);
        ibcc_law c;
        T_EQ(ibcc_law_init(&c, &cd, NULL, 0), IBCC_OK);
        ibcc_law_on_ack(&c, 1);
        T_EQ(ibcc_pairstate_load(&ps, 9, 9, &c), IBCC_ERR_RANGE);
        T_CHECK(ibcc_law_at_max(&c));
    }
}

/* table-form state (index and progress) round trip, many pairs */
static void test_pairstate_many(void)
{
    ibcc_pairstate_desc d;
    ibcc_pairstate ps;
    ibcc_law_desc ld = ldesc(IBCC_LAW_AIMD, IBCC_LAW_TABLE);
    ibcc_law l;
    uint32_t i;
    int bad = 0;
    memset(&d, 0, sizeof d);
    d.capacity = 1000;
    T_CHECK(t_size_pairstate(&d) <= sizeof pmem_);
    T_EQ(ibcc_pairstate_init(&ps, &d, pmem_, sizeof pmem_), IBCC_OK);
    T_EQ(ibcc_law_init(&l, &ld, tab_, sizeof tab_), IBCC_OK);
    for (i = 0; i < 1000; i++) {
        ibcc_law_state s;
        memset(&s, 0, sizeof s);
        s.index = i % 256;
        s.acc = i * 1000u;
        if (ibcc_law_set_state(&l, &s) != IBCC_OK) bad++;
        /* pairs on a 32 x 32 grid of hosts, and a big id */
        if (ibcc_pairstate_save(&ps, i / 32, i == 999 ? UINT32_MAX : i % 32, &l)
            != IBCC_OK) bad++;
    }
    T_EQ(bad, 0);
    T_EQU(ps.count, 1000);
    for (i = 0; i < 1000; i++) {
        ibcc_law_reset(&l);
        if (ibcc_pairstate_load(&ps, i / 32, i == 999 ? UINT32_MAX : i % 32, &l)
            != IBCC_OK) bad++;
        if (l.s.index != i % 256 || l.s.acc != i * 1000u) bad++;
    }
    T_EQ(bad, 0);
    T_EQ(ibcc_pairstate_load(&ps, 999, 31, &l), IBCC_ERR_NOT_FOUND);
}

/* Regression (misuse review): queries of a NULL pacer (were NULL
   dereferences). */
static void test_misuse_regressions(void)
{
    T_EQU(ibcc_pacer_gap(NULL, 10), 0);
    T_EQU(ibcc_pacer_next(NULL), 0);
    T_EQ(ibcc_pacer_window_open(NULL), 0);
    T_EQU(ibcc_pacer_earliest(NULL), IBCC_TIME_MAX);
    T_EQ(ibcc_pacer_can_send(NULL, 5), 0);
    /* a zeroed, never initialised pair store (was a NULL dereference) */
    {
        ibcc_pairstate ps;
        ibcc_law_desc d;
        ibcc_law l;
        memset(&ps, 0, sizeof ps);
        memset(&d, 0, sizeof d);
        T_EQ(ibcc_law_init(&l, &d, NULL, 0), IBCC_OK);
        ibcc_law_on_ack(&l, 1);
        T_EQ(ibcc_pairstate_save(&ps, 1, 2, &l), IBCC_ERR_STATE);
        T_EQ(ibcc_pairstate_load(&ps, 1, 2, &l), IBCC_ERR_STATE);
        T_EQ(ibcc_law_at_max(&l), 1);            /* load reset it anyway */
        ibcc_pairstate_reset(&ps);
    }
}

int main(void)
{
    T_RUN(test_desc);
    T_RUN(test_window_only);
    T_RUN(test_fixed_rate);
    T_RUN(test_law_rate);
    T_RUN(test_law_table_sequence);
    T_RUN(test_pairstate_errors);
    T_RUN(test_pairstate_restore);
    T_RUN(test_pairstate_many);
    T_RUN(test_misuse_regressions);
    return t_summary();
}
