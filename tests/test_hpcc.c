/* Tests of the L1 hpcc engine: exact step sequences of Algorithm 1 of
   the HPCC paper (per-ACK and per-RTT updates, the EWMA of U over the
   base RTT, the queue and rate terms, the maximum over hops, the
   incStage / maxStage additive-increase phase), the edge rules (first
   ACK, a path change, a hop whose timestamp did not move) and every
   invalid description. T = 10 us, B = 100 Gb/s (12.5e9 B/s), so
   W_init = B T = 125000 bytes and W_AI = ceil(6.25e6 B/s x 10 us) = 63;
   utilizations in ppm. Expected values are worked out by hand. */
#ifndef IBCC_TEST_LINKED   /* make test links one implementation object */
#define IBCC_IMPLEMENTATION
#endif
#include "ibcc.h"
#include "t.h"

#define RATE UINT64_C(12500000000)

/* a one-hop record */
static ibcc_int_record rec1(ibcc_time ts, uint64_t qlen, uint64_t tx)
{
    ibcc_int_record r;
    ibcc_int_clear(&r);
    (void)ibcc_int_push(&r, ts, qlen, tx, RATE);
    return r;
}

static void test_defaults(void)
{
    ibcc_hpcc_desc d;
    ibcc_hpcc h;
    memset(&d, 0, sizeof d);
    T_EQ(ibcc_hpcc_defaults(&d), IBCC_OK);
    T_EQU(d.line_rate, RATE);
    T_EQU(d.base_rtt, IBCC_US(10));
    T_EQU(d.eta, 950000);
    T_EQU(d.max_stage, 5);
    T_EQU(d.w_init, 125000);
    T_EQU(d.w_ai, 63);
    T_EQ(ibcc_hpcc_defaults(&d), IBCC_OK);      /* idempotent */
    T_EQU(d.w_ai, 63);
    T_EQ(ibcc_hpcc_init(&h, NULL), IBCC_OK);
    T_EQU(ibcc_hpcc_window(&h), 125000);
    T_EQU(h.wc, 125000); T_EQU(h.u, IBCC_HPCC_ONE); T_EQU(h.inc_stage, 0);
    T_EQU(ibcc_hpcc_rate(&h), RATE);            /* W / T */
}

static void test_invalid(void)
{
    ibcc_hpcc_desc d, keep;
    ibcc_hpcc h;
    T_EQ(ibcc_hpcc_defaults(NULL), IBCC_ERR_NULL);
    T_EQ(ibcc_hpcc_init(NULL, NULL), IBCC_ERR_NULL);
#define BAD(field, v) do { memset(&d, 0, sizeof d); d.field = (v); keep = d; \
        T_EQ(ibcc_hpcc_init(&h, &d), IBCC_ERR_RANGE); \
        T_EQ(ibcc_hpcc_defaults(&d), IBCC_ERR_RANGE); \
        T_CHECK(memcmp(&d, &keep, sizeof d) == 0); } while (0)
    BAD(line_rate, (UINT64_C(1) << 62) + 1u);
    BAD(base_rtt, IBCC_S(1) + 1u);
    BAD(eta, IBCC_HPCC_ONE + 1u);
    BAD(max_stage, (UINT32_C(1) << 31) + 1u);
    BAD(w_init, (UINT64_C(1) << 48) + 1u);
    BAD(w_ai, 125001u);                         /* above W_init */
    BAD(base_rtt, 1u);                          /* B T below one byte */
#undef BAD
    memset(&d, 0, sizeof d);
    d.max_stage = IBCC_HPCC_STAGE_ZERO;
    T_EQ(ibcc_hpcc_init(&h, &d), IBCC_OK);
    T_EQU(h.p.max_stage, IBCC_HPCC_STAGE_ZERO);
    T_EQU(ibcc_hpcc_on_ack(NULL, 1, 1, NULL), 0);
    T_EQU(ibcc_hpcc_window(NULL), 0);
    T_EQU(ibcc_hpcc_rate(NULL), 0);
    T_EQU(ibcc_hpcc_on_ack(&h, 1, 1, NULL), 125000);  /* no record: no change */
    ibcc_hpcc_reset(NULL);
}

/* The worked sequence: one hop, lastUpdateSeq moving with snd_nxt. */
static void test_sequence(void)
{
    ibcc_hpcc h;
    ibcc_int_record r;
    unsigned i;
    uint64_t wc;
    T_EQ(ibcc_hpcc_init(&h, NULL), IBCC_OK);
    /* ACK 1: the first record is only stored */
    r = rec1(IBCC_US(1), 0, 0);
    T_EQU(ibcc_hpcc_on_ack(&h, 100, 1000, &r), 125000);
    T_EQU(h.last_update_seq, 1000); T_EQU(h.u, IBCC_HPCC_ONE);
    /* ACK 2, seq 500 <= 1000: per-ACK. 12500 B in 1 us = line rate:
       txRate term 10^6; queue term min(25000, 0) = 0; tau = 1 us:
       U = (9 us x 10^6 + 1 us x 10^6) / 10 us = 10^6 >= eta:
       W = floor(125000 x 0.95 / 1) + 63 = 118813; W_c unchanged */
    r = rec1(IBCC_US(2), 25000, 12500);
    T_EQU(ibcc_hpcc_on_ack(&h, 500, 2000, &r), 118813);
    T_EQU(h.u, 1000000); T_EQU(h.wc, 125000); T_EQU(h.inc_stage, 0);
    T_EQU(h.last_update_seq, 1000); T_EQU(h.ack_updates, 1);
    /* ACK 3, seq 1500 > 1000: per-RTT. tx 12500 B in 1 us (10^6) and
       queue min(25000, 25000) / 125000 = 200000: u = 1.2e6;
       U = (9 x 10^6 + 1 x 1.2e6) / 10 = 1020000;
       W = floor(125000 x 950000 / 1020000) + 63 = 116421 + 63 = 116484 */
    r = rec1(IBCC_US(3), 25000, 25000);
    T_EQU(ibcc_hpcc_on_ack(&h, 1500, 3000, &r), 116484);
    T_EQU(h.u, 1020000); T_EQU(h.wc, 116484); T_EQU(h.inc_stage, 0);
    T_EQU(h.last_update_seq, 3000); T_EQU(h.rtt_updates, 1);
    /* ACK 4, seq 2000: per-ACK. 6250 B in 1 us: 500000; queue min(0,
       25000) = 0; U = (9 x 1020000 + 1 x 500000) / 10 = 968000;
       W = floor(116484 x 950000 / 968000) + 63 = 114317 + 63 */
    r = rec1(IBCC_US(4), 0, 31250);
    T_EQU(ibcc_hpcc_on_ack(&h, 2000, 3000, &r), 114380);
    T_EQU(h.u, 968000); T_EQU(h.wc, 116484);
    /* ACKs 5-9, per-RTT, one base RTT apart (tau = T), half the line
       rate and no queue: U = 500000 < eta, incStage 0..4 < maxStage:
       additive increase W = W_c + 63 each */
    wc = 116484;
    for (i = 0; i < 5; i++) {
        r = rec1(IBCC_US(14) + i * IBCC_US(10), 0, 93750u + i * 62500u);
        wc += 63;
        T_EQU(ibcc_hpcc_on_ack(&h, 3500u + i * 1000u, 4000u + i * 1000u, &r), wc);
        T_EQU(h.u, 500000); T_EQU(h.wc, wc); T_EQU(h.inc_stage, i + 1u);
    }
    T_EQU(wc, 116799);
    /* ACK 10: incStage = maxStage: multiplicative step
       W = floor(116799 x 0.95 / 0.5) + 63 = 221981 -> capped at W_init */
    r = rec1(IBCC_US(64), 0, 93750u + 5u * 62500u);
    T_EQU(ibcc_hpcc_on_ack(&h, 8500, 9000, &r), 125000);
    T_EQU(h.wc, 125000); T_EQU(h.inc_stage, 0);
    /* R = W / T */
    T_EQU(ibcc_hpcc_rate(&h), RATE);
    /* reset: back to the start, parameters kept */
    ibcc_hpcc_reset(&h);
    T_EQU(h.w, 125000); T_EQU(h.have_l, 0); T_EQU(h.rtt_updates, 0);
    T_EQU(h.p.w_ai, 63);
}

/* Two hops: the larger u decides, with its own tau. hop 0: 5000 B in
   2 us (2.5e9 B/s: 200000); hop 1: 25000 B in 4 us (6.25e9: 500000);
   U = (6 us x 10^6 + 4 us x 500000) / 10 us = 800000. */
static void test_hops(void)
{
    ibcc_hpcc h;
    ibcc_int_record a, b, c;
    T_EQ(ibcc_hpcc_init(&h, NULL), IBCC_OK);
    ibcc_int_clear(&a);
    (void)ibcc_int_push(&a, 0, 0, 0, RATE);
    (void)ibcc_int_push(&a, 0, 0, 0, RATE);
    T_EQU(ibcc_hpcc_on_ack(&h, 1, 10, &a), 125000);
    ibcc_int_clear(&b);
    (void)ibcc_int_push(&b, IBCC_US(2), 0, 5000, RATE);
    (void)ibcc_int_push(&b, IBCC_US(4), 0, 25000, RATE);
    (void)ibcc_hpcc_on_ack(&h, 11, 20, &b);
    T_EQU(h.u, 800000);
    T_EQU(h.w, 125000);             /* 125000 + 63 capped */
    T_EQU(h.inc_stage, 1);
    /* a hop whose timestamp did not move is skipped: only hop 0 counts
       (10000 B in 2 us = 5e9 B/s: 400000; tau 2 us):
       U = (8 x 800000 + 2 x 400000) / 10 = 720000 */
    ibcc_int_clear(&c);
    (void)ibcc_int_push(&c, IBCC_US(4), 0, 15000, RATE);
    (void)ibcc_int_push(&c, IBCC_US(4), 0, 99999, RATE);
    (void)ibcc_hpcc_on_ack(&h, 12, 20, &c);
    T_EQU(h.u, 720000);
    T_EQU(h.ack_updates, 1);
    /* the path changes (one hop): stored, nothing measured */
    a = rec1(IBCC_US(9), 0, 0);
    (void)ibcc_hpcc_on_ack(&h, 30, 40, &a);
    T_EQU(h.u, 720000); T_EQU(h.l.nhop, 1); T_EQU(h.last_update_seq, 40);
}

/* maxStage 0: every update is the multiplicative rule; U = 0 (an idle
   path) gives W_init. Large counter jumps saturate, no wrap. */
static void test_stage_zero_and_extremes(void)
{
    ibcc_hpcc h;
    ibcc_hpcc_desc d;
    ibcc_int_record r;
    memset(&d, 0, sizeof d);
    d.max_stage = IBCC_HPCC_STAGE_ZERO;
    T_EQ(ibcc_hpcc_init(&h, &d), IBCC_OK);
    r = rec1(IBCC_US(1), 0, 0);
    (void)ibcc_hpcc_on_ack(&h, 1, 2, &r);
    /* 6250 B in 1 us: 500000, tau 1 us: U = (9 x 10^6 + 500000) / 10 =
       950000 = eta: W = floor(125000 x 1) + 63 capped = 125000 */
    r = rec1(IBCC_US(2), 0, 6250);
    T_EQU(ibcc_hpcc_on_ack(&h, 3, 4, &r), 125000);
    T_EQU(h.u, 950000); T_EQU(h.inc_stage, 0);
    /* idle for a whole RTT: U = 0 -> W = W_init */
    r = rec1(IBCC_US(12), 0, 6250);
    T_EQU(ibcc_hpcc_on_ack(&h, 5, 6, &r), 125000);
    T_EQU(h.u, 0);
    /* a huge queue and counter jump: U saturates, W = W_c x eta / U + W_AI
       rounds to W_AI */
    r = rec1(IBCC_US(22), UINT64_MAX, UINT64_MAX);
    (void)ibcc_hpcc_on_ack(&h, 7, 8, &r);
    r = rec1(IBCC_US(32), UINT64_MAX, UINT64_MAX - 1u);
    T_EQU(ibcc_hpcc_on_ack(&h, 9, 10, &r), 63);
    T_CHECK(h.u > UINT64_C(1) << 40);
}

int main(void)
{
    T_RUN(test_defaults);
    T_RUN(test_invalid);
    T_RUN(test_sequence);
    T_RUN(test_hops);
    T_RUN(test_stage_zero_and_extremes);
    return t_summary();
}
