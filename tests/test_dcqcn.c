/* Tests of the L1 dcqcn engine: exact step sequences of the reaction
   point (the cut with alpha, alpha's rise and decay, fast recovery,
   additive and hyper increase from the timer and the byte counter, the
   F-stage transitions, the floor, the O(1) skip at line rate), the
   notification point's once-per-N rule, and every invalid description.
   Every expected value below is worked out by hand from the equations
   in the header (rates in bytes/s, alpha in 1/65536). */
#ifndef IBCC_TEST_LINKED   /* make test links one implementation object */
#define IBCC_IMPLEMENTATION
#endif
#include "ibcc.h"
#include "t.h"

#define LINE UINT64_C(5000000000)   /* 40 Gb/s in bytes/s */

static ibcc_dcqcn mk(ibcc_time timer_t, uint64_t b)
{
    ibcc_dcqcn d;
    ibcc_dcqcn_desc e;
    memset(&e, 0, sizeof e);
    e.timer_t = timer_t;
    e.b = b;
    T_EQ(ibcc_dcqcn_init(&d, &e), IBCC_OK);
    return d;
}

static void test_defaults(void)
{
    ibcc_dcqcn_desc e;
    ibcc_dcqcn d;
    memset(&e, 0, sizeof e);
    T_EQ(ibcc_dcqcn_defaults(&e), IBCC_OK);
    T_EQU(e.line_rate, LINE);
    T_EQU(e.rate_min, 12500000);
    T_EQU(e.g, 256);
    T_EQU(e.alpha_init, IBCC_DCQCN_ONE);
    T_EQU(e.k, IBCC_US(55));
    T_EQU(e.timer_t, IBCC_US(55));
    T_EQU(e.b, 10000000);
    T_EQU(e.f, 5);
    T_EQU(e.r_ai, 5000000);     /* 40 Mb/s */
    T_EQU(e.r_hai, 25000000);   /* 200 Mb/s */
    T_EQU(e.gd_shift, 1);
    T_EQU(e.n, IBCC_US(50));
    T_EQ(ibcc_dcqcn_defaults(&e), IBCC_OK);     /* idempotent */
    T_EQ(ibcc_dcqcn_init(&d, NULL), IBCC_OK);
    T_EQU(d.p.line_rate, LINE);
    /* a slow link: the rate defaults shrink to it */
    memset(&e, 0, sizeof e);
    e.line_rate = 1000000;
    T_EQ(ibcc_dcqcn_defaults(&e), IBCC_OK);
    T_EQU(e.rate_min, 1000000); T_EQU(e.r_ai, 1000000); T_EQU(e.r_hai, 1000000);
}

static void test_invalid(void)
{
    ibcc_dcqcn_desc e, keep;
    ibcc_dcqcn d;
    T_EQ(ibcc_dcqcn_defaults(NULL), IBCC_ERR_NULL);
    T_EQ(ibcc_dcqcn_init(NULL, NULL), IBCC_ERR_NULL);
#define BAD(field, v) do { memset(&e, 0, sizeof e); e.field = (v); keep = e; \
        T_EQ(ibcc_dcqcn_init(&d, &e), IBCC_ERR_RANGE); \
        T_EQ(ibcc_dcqcn_defaults(&e), IBCC_ERR_RANGE); \
        T_CHECK(memcmp(&e, &keep, sizeof e) == 0); } while (0)
    BAD(line_rate, (UINT64_C(1) << 62) + 1u);
    BAD(rate_min, LINE + 1u);
    BAD(g, IBCC_DCQCN_ONE + 1u);
    BAD(alpha_init, IBCC_DCQCN_ONE + 1u);
    BAD(f, 65536u);
    BAD(gd_shift, 16u);
    BAD(r_ai, LINE + 1u);
    BAD(r_hai, LINE + 1u);
    BAD(r_ai, (LINE >> 20) - 1u);       /* more than 2^20 steps to line */
    BAD(r_hai, (LINE >> 20) - 1u);
#undef BAD
    /* NULL state: no effect, 0 */
    T_EQU(ibcc_dcqcn_rp_on_cnp(NULL, NULL, 0), 0);
    T_EQU(ibcc_dcqcn_rp_on_send(NULL, NULL, 1, 0), 0);
    T_EQU(ibcc_dcqcn_rp_rate(NULL, NULL, 0), 0);
    T_EQU(ibcc_dcqcn_np_on_packet(NULL, NULL, IBCC_ECN, 0), 0);
    ibcc_dcqcn_rp_init(NULL, NULL, 0);
    ibcc_dcqcn_rp_advance(NULL, NULL, 0);
    ibcc_dcqcn_np_init(NULL);
}

/* Before any CNP: line rate, alpha_init, no timer; a CNP with alpha 1
   halves R_C and sets R_T to the old R_C; alpha stays 1 ((1-g) 1 + g). */
static void test_cut(void)
{
    ibcc_dcqcn d = mk(0, 0);
    ibcc_dcqcn_rp rp;
    ibcc_dcqcn_rp_init(&d, &rp, 0);
    T_EQU(rp.rc, LINE); T_EQU(rp.rt, LINE); T_EQU(rp.alpha, 65536);
    T_EQU(rp.active, 0);
    T_EQU(ibcc_dcqcn_rp_rate(&d, &rp, IBCC_MS(10)), LINE);   /* no timer */
    T_EQU(ibcc_dcqcn_rp_on_send(&d, &rp, 100000000, IBCC_MS(10)), LINE);
    T_EQU(rp.bc_count, 0); T_EQU(rp.alpha, 65536);
    T_EQU(ibcc_dcqcn_rp_on_cnp(&d, &rp, IBCC_MS(10)), 2500000000u);
    T_EQU(rp.rt, LINE); T_EQU(rp.alpha, 65536); T_EQU(rp.active, 1);
    T_EQU(rp.t_next, IBCC_MS(10) + IBCC_US(55));
    T_EQU(rp.k_next, IBCC_MS(10) + IBCC_US(55));
    /* a second CNP at the same instant: R_T = 2.5e9, R_C = 1.25e9 */
    T_EQU(ibcc_dcqcn_rp_on_cnp(&d, &rp, IBCC_MS(10)), 1250000000u);
    T_EQU(rp.rt, 2500000000u); T_EQU(rp.cnps, 2);
}

/* Alpha without CNPs: alpha - ceil(alpha / 256) every K = 55 us after
   the last CNP: 65536, 65280, 65025, 64770; a CNP then uses the decayed
   alpha and raises it by g: (1 - g) alpha + g. An expiry at the CNP's
   own instant is applied first. */
static void test_alpha(void)
{
    ibcc_dcqcn d = mk(IBCC_S(1), IBCC_DCQCN_OFF);   /* no increases */
    ibcc_dcqcn_rp rp;
    uint32_t a, i;
    ibcc_dcqcn_rp_init(&d, &rp, 0);
    (void)ibcc_dcqcn_rp_on_cnp(&d, &rp, 0);
    T_EQU(rp.rc, 2500000000u); T_EQU(rp.alpha, 65536);
    ibcc_dcqcn_rp_advance(&d, &rp, IBCC_US(55) - 1u);
    T_EQU(rp.alpha, 65536);
    ibcc_dcqcn_rp_advance(&d, &rp, IBCC_US(55));
    T_EQU(rp.alpha, 65280);
    /* the CNP at 110 us comes after the expiry at 110 us */
    (void)ibcc_dcqcn_rp_on_cnp(&d, &rp, IBCC_US(110));
    /* alpha was 65025: cut = floor(2.5e9 * 65025 / 2^17) = 1240253448 */
    T_EQU(rp.rt, 2500000000u);
    T_EQU(rp.rc, 2500000000u - 1240253448u);
    T_EQU(rp.alpha, 65025u - 255u + 256u);
    T_EQU(rp.k_next, IBCC_US(165));
    /* a long quiet spell: the same recurrence as an independent loop,
       then 0 for good (ceil makes alpha reach 0) */
    a = rp.alpha;
    for (i = 1; i <= 3000; i++) {
        a -= (uint32_t)(((uint64_t)a * 256u + 65535u) / 65536u);
        ibcc_dcqcn_rp_advance(&d, &rp, IBCC_US(110) + i * IBCC_US(55));
        if (rp.alpha != a) break;
    }
    T_EQU(i, 3001);
    T_EQU(rp.alpha, 0);
    /* alpha 0: the rest is skipped; a CNP cuts nothing and sets alpha g
       (R_C has meanwhile risen through 99 rate-timer expiries) */
    {
        ibcc_rate before = ibcc_dcqcn_rp_rate(&d, &rp, IBCC_S(100) - 1u);
        T_EQU(rp.alpha, 0);
        T_EQU(rp.t_count, 99);
        T_CHECK(rp.k_next > IBCC_S(100) - 1u && rp.k_next <= IBCC_S(100) + IBCC_US(55));
        T_EQU(ibcc_dcqcn_rp_on_cnp(&d, &rp, IBCC_S(100) - 1u), before);
        T_EQU(rp.rt, before);
        T_EQU(rp.alpha, 256);
    }
}

/* Timer only (byte counter off), F = 5: expiries 1-4 fast recovery,
   the 5th (T = F) additive increase, then hyper increase. From R_T =
   2.5e9, R_C = 1.25e9 (two CNPs at alpha 1). */
static void test_timer_stages(void)
{
    static const uint64_t rc[] = { 1875000000u, 2187500000u, 2343750000u,
        2421875000u, 2463437500u, 2496718750u, 2525859375u };
    static const uint64_t rt[] = { 2500000000u, 2500000000u, 2500000000u,
        2500000000u, 2505000000u, 2530000000u, 2555000000u };
    static const unsigned st[] = { 1, 1, 1, 1, 2, 3, 3 };
    ibcc_dcqcn d = mk(0, IBCC_DCQCN_OFF);
    ibcc_dcqcn_rp rp;
    unsigned i;
    ibcc_dcqcn_rp_init(&d, &rp, 0);
    (void)ibcc_dcqcn_rp_on_cnp(&d, &rp, 0);
    (void)ibcc_dcqcn_rp_on_cnp(&d, &rp, 0);
    T_EQU(rp.rc, 1250000000u); T_EQU(rp.rt, 2500000000u);
    T_EQU(rp.last_stage, IBCC_DCQCN_NONE);
    for (i = 0; i < 7; i++) {
        T_EQU(ibcc_dcqcn_rp_rate(&d, &rp, (i + 1u) * IBCC_US(55) - 1u),
              i ? rc[i - 1] : 1250000000u);
        T_EQU(ibcc_dcqcn_rp_rate(&d, &rp, (i + 1u) * IBCC_US(55)), rc[i]);
        T_EQU(rp.rt, rt[i]);
        T_EQU(rp.t_count, i + 1u);
        T_EQU(rp.last_stage, st[i]);
    }
    T_EQU(rp.increases, 7);
    /* bytes do nothing with the byte counter off */
    (void)ibcc_dcqcn_rp_on_send(&d, &rp, UINT64_C(1) << 40, IBCC_US(385));
    T_EQU(rp.bc_count, 0); T_EQU(rp.rc, 2525859375u);
    /* a CNP resets the stage: R_T = R_C, the counters restart */
    (void)ibcc_dcqcn_rp_on_cnp(&d, &rp, IBCC_US(400));
    T_EQU(rp.rt, 2525859375u); T_EQU(rp.t_count, 0);
    T_EQU(rp.t_next, IBCC_US(455));
}

/* Byte counter B = 10^6 with the timer far away: BC events 1-4 fast
   recovery, 5 and 6 additive (BC >= F but T = 0 < F); then timer
   expiries T = 1..4 stay additive (min(T, BC) < F) and T = 5 turns to
   hyper increase (both >= F). */
static void test_byte_counter(void)
{
    static const uint64_t rc[] = { 2500859375u, 2510429688u, 2517714844u,
        2523857422u, 2539428711u, 2559714356u, 2582357178u };
    static const uint64_t rt[] = { 2515000000u, 2520000000u, 2525000000u,
        2530000000u, 2555000000u, 2580000000u, 2605000000u };
    ibcc_dcqcn d = mk(IBCC_MS(1), 1000000);
    ibcc_dcqcn_rp rp;
    unsigned i;
    ibcc_dcqcn_rp_init(&d, &rp, 0);
    (void)ibcc_dcqcn_rp_on_cnp(&d, &rp, 0);
    (void)ibcc_dcqcn_rp_on_cnp(&d, &rp, 0);
    T_EQU(ibcc_dcqcn_rp_on_send(&d, &rp, 999999, 1), 1250000000u);
    T_EQU(rp.bc_count, 0); T_EQU(rp.bytes, 999999);
    T_EQU(ibcc_dcqcn_rp_on_send(&d, &rp, 1, 2), 1875000000u);
    T_EQU(rp.bc_count, 1); T_EQU(rp.bytes, 0);
    T_EQU(rp.last_stage, IBCC_DCQCN_FAST);
    /* four events in one call (and 123 bytes left over) */
    T_EQU(ibcc_dcqcn_rp_on_send(&d, &rp, 4000123, 3), 2463437500u);
    T_EQU(rp.bc_count, 5); T_EQU(rp.bytes, 123);
    T_EQU(rp.rt, 2505000000u); T_EQU(rp.last_stage, IBCC_DCQCN_ADDITIVE);
    T_EQU(ibcc_dcqcn_rp_on_send(&d, &rp, 999877, 4), 2486718750u);
    T_EQU(rp.bc_count, 6); T_EQU(rp.rt, 2510000000u);
    for (i = 0; i < 7; i++) {
        T_EQU(ibcc_dcqcn_rp_rate(&d, &rp, (i + 1u) * IBCC_MS(1)), rc[i]);
        T_EQU(rp.rt, rt[i]);
        T_EQU(rp.t_count, i + 1u);
        T_EQU(rp.last_stage, i < 4 ? IBCC_DCQCN_ADDITIVE : IBCC_DCQCN_HYPER);
    }
}

/* Recovery all the way: R_T and R_C reach line rate (halves round up, so
   R_C does reach R_T), and from then on a second of expiries is counted
   in O(1) without increase events. */
static void test_line_rate(void)
{
    ibcc_dcqcn d = mk(0, IBCC_DCQCN_OFF);
    ibcc_dcqcn_rp rp;
    uint64_t inc;
    ibcc_dcqcn_rp_init(&d, &rp, 0);
    (void)ibcc_dcqcn_rp_on_cnp(&d, &rp, 0);
    T_EQU(ibcc_dcqcn_rp_rate(&d, &rp, IBCC_MS(100)), LINE);
    T_EQU(rp.rt, LINE);
    inc = rp.increases;
    T_CHECK(inc > 5 && inc < 100);
    T_EQU(rp.t_count, IBCC_MS(100) / IBCC_US(55));
    ibcc_dcqcn_rp_advance(&d, &rp, IBCC_S(1) + IBCC_MS(100));
    T_EQU(rp.increases, inc);
    T_EQU(rp.t_count, (IBCC_S(1) + IBCC_MS(100)) / IBCC_US(55));
    T_EQU(rp.t_next, ((IBCC_S(1) + IBCC_MS(100)) / IBCC_US(55) + 1u) * IBCC_US(55));
    /* times in the past are taken as the latest time */
    T_EQU(ibcc_dcqcn_rp_rate(&d, &rp, 5), LINE);
    T_EQU(rp.last, IBCC_S(1) + IBCC_MS(100));
}

/* The cut never goes below rate_min; gd_shift scales the cut. */
static void test_floor_and_gd(void)
{
    ibcc_dcqcn d;
    ibcc_dcqcn_desc e;
    ibcc_dcqcn_rp rp;
    memset(&e, 0, sizeof e);
    e.rate_min = 2000000000u;
    T_EQ(ibcc_dcqcn_init(&d, &e), IBCC_OK);
    ibcc_dcqcn_rp_init(&d, &rp, 0);
    T_EQU(ibcc_dcqcn_rp_on_cnp(&d, &rp, 0), 2500000000u);
    T_EQU(ibcc_dcqcn_rp_on_cnp(&d, &rp, 0), 2000000000u);
    memset(&e, 0, sizeof e);
    e.gd_shift = 3;                             /* cut by alpha / 8 */
    e.alpha_init = 32768;                       /* 0.5 */
    T_EQ(ibcc_dcqcn_init(&d, &e), IBCC_OK);
    ibcc_dcqcn_rp_init(&d, &rp, 0);
    /* 5e9 * 32768 / 2^19 = 312500000 */
    T_EQU(ibcc_dcqcn_rp_on_cnp(&d, &rp, 0), 5000000000u - 312500000u);
    T_EQU(rp.alpha, 32768u - 128u + 256u);
}

/* NP: a CNP for the first marked packet, then none until N = 50 us has
   passed since the last CNP; unmarked packets, ACKs and CNPs never. */
static void test_np(void)
{
    ibcc_dcqcn d = mk(0, 0);
    ibcc_dcqcn_np np, other;
    ibcc_dcqcn_np_init(&np);
    ibcc_dcqcn_np_init(&other);
    T_EQU(ibcc_dcqcn_np_on_packet(&d, &np, 0, IBCC_US(1)), 0);
    T_EQU(ibcc_dcqcn_np_on_packet(&d, &np, IBCC_ECN, IBCC_US(10)), IBCC_CNP);
    T_EQU(ibcc_dcqcn_np_on_packet(&d, &np, IBCC_ECN, IBCC_US(10)), 0);
    T_EQU(ibcc_dcqcn_np_on_packet(&d, &np, IBCC_ECN, IBCC_US(30)), 0);
    T_EQU(ibcc_dcqcn_np_on_packet(&d, &np, IBCC_ECN, IBCC_US(60) - 1u), 0);
    /* another flow is independent */
    T_EQU(ibcc_dcqcn_np_on_packet(&d, &other, IBCC_ECN, IBCC_US(30)), IBCC_CNP);
    T_EQU(ibcc_dcqcn_np_on_packet(&d, &np, IBCC_ECN | IBCC_ACK, IBCC_US(60)), 0);
    T_EQU(ibcc_dcqcn_np_on_packet(&d, &np, IBCC_ECN | IBCC_CNP, IBCC_US(60)), 0);
    T_EQU(ibcc_dcqcn_np_on_packet(&d, &np, IBCC_ECN, IBCC_US(60)), IBCC_CNP);
    T_EQU(np.last, IBCC_US(60)); T_EQU(np.cnps, 2);
    /* the window counts from the last CNP, not the last marked packet */
    T_EQU(ibcc_dcqcn_np_on_packet(&d, &np, IBCC_ECN, IBCC_US(100)), 0);
    T_EQU(ibcc_dcqcn_np_on_packet(&d, &np, IBCC_ECN, IBCC_US(110)), IBCC_CNP);
    /* a time before the last CNP sends nothing */
    T_EQU(ibcc_dcqcn_np_on_packet(&d, &np, IBCC_ECN, IBCC_US(5)), 0);
}

int main(void)
{
    T_RUN(test_defaults);
    T_RUN(test_invalid);
    T_RUN(test_cut);
    T_RUN(test_alpha);
    T_RUN(test_timer_stages);
    T_RUN(test_byte_counter);
    T_RUN(test_line_rate);
    T_RUN(test_floor_and_gd);
    T_RUN(test_np);
    return t_summary();
}
