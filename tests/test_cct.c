/* Tests of the L1 cct engine: CCT entry encoding and delay, conversions
   and populations, BECN / SL timer CCTI sequences worked by hand, the
   Trigger_Threshold log, settings, every error path, and the lazy SL
   timers against an eager per-expiry reference on long random streams. */
#ifndef IBCC_TEST_LINKED   /* make test links one implementation object */
#define IBCC_IMPLEMENTATION
#endif
#include "ibcc.h"
#include "t.h"
#include <stdlib.h>

#define P1 IBCC_PS(1024000) /* CCTI_Timer 1 = 1.024 us */

static uint64_t mem_[1 << 16];

/* Agent with `flows` flows on a linear table (entry i = i max packet
   times), max_pkt_time 1000 ps, every SL: timer, increase, min given. */
static ibcc_result mk(ibcc_cct *c, uint32_t flows, unsigned per_sl,
                      uint16_t timer, uint8_t inc, uint8_t min, uint16_t limit)
{
    static uint16_t lin[128];
    ibcc_cct_desc d;
    unsigned s;
    memset(&d, 0, sizeof d);
    ibcc_cct_fill_linear(lin, 128);
    d.flows = flows;
    d.max_pkt_time = 1000;
    d.per_sl = per_sl;
    d.table = lin;
    d.table_len = 128;
    d.ccti_limit = limit;
    for (s = 0; s < IBCC_CCT_SLS; s++) {
        d.sl[s].ccti_timer = timer;
        d.sl[s].ccti_increase = inc;
        d.sl[s].ccti_min = min;
    }
    return ibcc_cct_init(c, &d, mem_, sizeof mem_);
}

static void test_entry_encoding(void)
{
    T_EQU(IBCC_CCT_ENTRY(2, 100), 0x8064);
    T_EQU(IBCC_CCT_ENTRY(3, 16383), 0xffff);
    T_EQU(IBCC_CCT_ENTRY(1, 1), 0x4001);
    T_EQU(IBCC_CCT_SHIFT(0x8064), 2);
    T_EQU(IBCC_CCT_MULT(0x8064), 100);
    T_EQU(IBCC_CCT_SHIFT(0xffff), 3);
    T_EQU(IBCC_CCT_MULT(0xffff), 16383);
    /* (1037000 >> 2) * 100 = 259250 * 100 */
    T_EQU(ibcc_cct_entry_delay(0x8064, 1037000), 25925000u);
    /* (1037000 >> 3) * 16383 = 129625 * 16383 */
    T_EQU(ibcc_cct_entry_delay(0xffff, 1037000), UINT64_C(2123646375));
    T_EQU(ibcc_cct_entry_delay(0, 1037000), 0);
    T_EQU(ibcc_cct_entry_delay(0xc000, 1037000), 0); /* multiplier 0 */
    /* odd max_pkt_time: 1001 >> 1 = 500 (shift truncates) */
    T_EQU(ibcc_cct_entry_delay(IBCC_CCT_ENTRY(1, 3), 1001), 1500);
    /* saturation */
    T_EQU(ibcc_cct_entry_delay(IBCC_CCT_ENTRY(0, 16383), IBCC_TIME_MAX / 2),
          IBCC_TIME_MAX);
}

static void test_entry_from_delay(void)
{
    uint16_t e = 0x1234;
    /* mpt 1000: 2500 ps: shift 0 gives 3 (half up, error 500), shift 1
       (unit 500) gives 5 exactly */
    T_EQ(ibcc_cct_entry_from_delay(2500, 1000, &e), IBCC_OK);
    T_EQU(e, 0x4005);
    /* 130 ps: units 1000, 500, 250, 125 -> multipliers 0, 0, 1, 1; errors
       130, 130, 120, 5 -> shift 3, multiplier 1 */
    T_EQ(ibcc_cct_entry_from_delay(130, 1000, &e), IBCC_OK);
    T_EQU(e, 0xc001);
    /* 2000 ps: exact at shift 0 (2) and at shift 1 (4): tie -> shift 0 */
    T_EQ(ibcc_cct_entry_from_delay(2000, 1000, &e), IBCC_OK);
    T_EQU(e, 0x0002);
    /* 60 ps: every multiplier 0 -> entry 0 (delay rounds to none) */
    T_EQ(ibcc_cct_entry_from_delay(60, 1000, &e), IBCC_OK);
    T_EQU(e, 0);
    T_EQ(ibcc_cct_entry_from_delay(0, 1000, &e), IBCC_OK);
    T_EQU(e, 0);
    /* largest: 16383 * 1000 + 500 still rounds down to (0, 16383) */
    T_EQ(ibcc_cct_entry_from_delay(16383500, 1000, &e), IBCC_OK);
    T_EQU(e, 0x3fff);
    T_EQ(ibcc_cct_entry_from_delay(16383501, 1000, &e), IBCC_ERR_RANGE);
    T_EQ(ibcc_cct_entry_from_delay(5, 0, &e), IBCC_ERR_RANGE);
    T_EQ(ibcc_cct_entry_from_delay(5, 1000, NULL), IBCC_ERR_NULL);
    /* round trip: every entry with shift 0 maps back to itself */
    {
        unsigned m, bad = 0;
        for (m = 0; m <= 16383; m++) {
            uint16_t x;
            ibcc_cct_entry_from_delay(ibcc_cct_entry_delay((uint16_t)m, 1037000),
                                      1037000, &x);
            if (x != m) bad++;
        }
        T_EQ(bad, 0);
    }
    /* absolute-time table in and out */
    {
        ibcc_time d[3];
        uint16_t out[3];
        d[0] = 0; d[1] = IBCC_US(1); d[2] = IBCC_NS(2500);
        T_EQ(ibcc_cct_fill_delays(out, d, 3, IBCC_NS(1000)), IBCC_OK);
        T_EQU(out[0], 0);
        T_EQU(out[1], 1);
        T_EQU(out[2], 0x4005);
        T_EQU(ibcc_cct_entry_delay(out[2], IBCC_NS(1000)), IBCC_NS(2500));
        T_EQ(ibcc_cct_fill_delays(NULL, d, 3, 1000), IBCC_ERR_NULL);
        T_EQ(ibcc_cct_fill_delays(out, NULL, 3, 1000), IBCC_ERR_NULL);
        T_EQ(ibcc_cct_fill_delays(out, d, 0, 1000), IBCC_ERR_CAPACITY);
        T_EQ(ibcc_cct_fill_delays(out, d, 16385, 1000), IBCC_ERR_CAPACITY);
        T_EQ(ibcc_cct_fill_delays(out, d, 3, 10), IBCC_ERR_RANGE);
    }
    /* the same in microseconds: 0.0025 us -> 2500 ps; 0.0010004 us rounds
       to 1000 ps; 20 us is beyond 16383 x 1000 ps */
    {
        double us[3];
        uint16_t out[3];
        us[0] = 0.0; us[1] = 20.0; us[2] = 0.0025;
        T_EQ(ibcc_cct_fill_us(out, us, 3, 1000), IBCC_ERR_RANGE); /* > max */
        us[1] = 0.0010004;                                       /* 1000 ps */
        T_EQ(ibcc_cct_fill_us(out, us, 3, 1000), IBCC_OK);
        T_EQU(out[0], 0);
        T_EQU(out[1], 1);
        T_EQU(out[2], 0x4005);
        us[0] = -1.0;
        T_EQ(ibcc_cct_fill_us(out, us, 3, 1000), IBCC_ERR_RANGE);
        us[0] = NAN;
        T_EQ(ibcc_cct_fill_us(out, us, 3, 1000), IBCC_ERR_RANGE);
        us[0] = 1e300;
        T_EQ(ibcc_cct_fill_us(out, us, 3, 1000), IBCC_ERR_RANGE);
        T_EQ(ibcc_cct_fill_us(NULL, us, 3, 1000), IBCC_ERR_NULL);
        T_EQ(ibcc_cct_fill_us(out, NULL, 3, 1000), IBCC_ERR_NULL);
        T_EQ(ibcc_cct_fill_us(out, us, 0, 1000), IBCC_ERR_CAPACITY);
    }
}

/* ---- populations ------------------------------------------------------ */

static double fdec_fimd(void *u, double r) { (void)u; r /= 2; return r < 1.0 / 256 ? 1.0 / 256 : r; }
static double fdec_lipd(void *u, double r)
{
    (void)u; r = 1.0 / (1.0 / r + 1.0);
    return r < 1.0 / 256 ? 1.0 / 256 : r;
}
static double fdec_bad(void *u, double r) { (void)u; (void)r; return 1.5; }
static double fdec_zero(void *u, double r) { (void)u; (void)r; return 0.0; }

static void test_populations(void)
{
    uint16_t t[300];
    unsigned i, bad;
    /* [G] quadratic, max_pkt_time 1037000 ps (2074 B at 2 GB/s):
       d_i = i^2 * 7e6 / 11236 ps rounded half up.
       i = 10: 62300 ps, below half of the finest unit (129625 ps): 0.
       i = 50: 1557494 ps; units 1037000/518500/259250/129625 give
         multipliers 2/3/6/12 with errors 516506/1994/1994/1994: (1, 3).
       i = 127: 10048327 ps; multipliers 10/19/39/78 with errors
         321673/196827/62423/62423: (2, 39) (tie to the smaller shift). */
    T_EQ(ibcc_cct_fill_quadratic(t, 128, 1037000, IBCC_CCT_QUAD_COEF,
                                 IBCC_CCT_QUAD_G_ROOT), IBCC_OK);
    T_EQU(t[0], 0);
    T_EQU(t[10], 0);
    T_EQU(t[50], IBCC_CCT_ENTRY(1, 3));
    T_EQU(t[127], IBCC_CCT_ENTRY(2, 39));
    /* vendor i^2 * 7e6 / 9025: i = 10: 77562 ps -> (3, 1) (error 52063);
       i = 50: 1939058 -> (3, 15); i = 127: 12510028 -> (3, 97) */
    T_EQ(ibcc_cct_fill_quadratic(t, 128, 1037000, IBCC_CCT_QUAD_COEF,
                                 IBCC_CCT_QUAD_VENDOR_ROOT), IBCC_OK);
    T_EQU(t[10], IBCC_CCT_ENTRY(3, 1));
    T_EQU(t[50], IBCC_CCT_ENTRY(3, 15));
    T_EQU(t[127], IBCC_CCT_ENTRY(3, 97));
    /* a coarser packet time (8 us, finest unit 1 us): i = 127:
       10048327 -> multipliers 1/3/5/10 errors 2048327/1951673/48327/48327
       -> (2, 5) */
    T_EQ(ibcc_cct_fill_quadratic(t, 128, IBCC_US(8), IBCC_CCT_QUAD_COEF,
                                 IBCC_CCT_QUAD_G_ROOT), IBCC_OK);
    T_EQU(t[127], IBCC_CCT_ENTRY(2, 5));
    T_EQ(ibcc_cct_fill_quadratic(NULL, 128, 1000, 1, 1), IBCC_ERR_NULL);
    T_EQ(ibcc_cct_fill_quadratic(t, 0, 1000, 1, 1), IBCC_ERR_CAPACITY);
    T_EQ(ibcc_cct_fill_quadratic(t, 16385, 1000, 1, 1), IBCC_ERR_CAPACITY);
    T_EQ(ibcc_cct_fill_quadratic(t, 10, 1000, 0, 1), IBCC_ERR_RANGE);
    T_EQ(ibcc_cct_fill_quadratic(t, 10, 1000, 1, 0), IBCC_ERR_RANGE);
    T_EQ(ibcc_cct_fill_quadratic(t, 10, 0, 1, 1), IBCC_ERR_RANGE);
    /* 16383^2 * 7 us / 106^2 = 167 ms > 16383 * 1.037 us: not encodable */
    {
        static uint16_t big[16384];
        T_EQ(ibcc_cct_fill_quadratic(big, 16384, 1037000, IBCC_CCT_QUAD_COEF,
                                     IBCC_CCT_QUAD_G_ROOT), IBCC_ERR_RANGE);
    }
    /* linear: entry i = (0, i) */
    T_EQ(ibcc_cct_fill_linear(t, 300), IBCC_OK);
    T_EQU(t[0], 0);
    T_EQU(t[1], 1);
    T_EQU(t[299], 299);
    T_EQU(ibcc_cct_entry_delay(t[7], 2068000), 7u * 2068000u);
    T_EQ(ibcc_cct_fill_linear(NULL, 3), IBCC_ERR_NULL);
    T_EQ(ibcc_cct_fill_linear(t, 0), IBCC_ERR_CAPACITY);
    /* from a law: FIMD m = 2: r_i = 2^-i (floor 1/256): IPD 2^i - 1 */
    T_EQ(ibcc_cct_fill_fdec(t, 12, 1000, fdec_fimd, NULL), IBCC_OK);
    T_EQU(t[0], 0);
    T_EQU(t[1], 1);
    T_EQU(t[2], 3);
    T_EQU(t[8], 255);
    T_EQU(t[11], 255);
    /* LIPD: r_i = 1/(1+i): IPD i, the linear table (to 255) */
    T_EQ(ibcc_cct_fill_fdec(t, 300, 1000, fdec_lipd, NULL), IBCC_OK);
    for (i = 0, bad = 0; i < 300; i++)
        if (t[i] != (i < 256 ? i : 255)) bad++;
    T_EQ(bad, 0);
    /* the same from the law section's ibcc_law (continuous forms) */
    {
        ibcc_law law;
        ibcc_law_desc ld;
        uint16_t u[300];
        memset(&ld, 0, sizeof ld);
        ld.kind = IBCC_LAW_LIPD;
        T_EQ(ibcc_law_init(&law, &ld, NULL, 0), IBCC_OK);
        T_EQ(ibcc_cct_fill_law(u, 300, 1000, &law), IBCC_OK);
        T_CHECK(memcmp(u, t, sizeof u) == 0);
        ld.kind = IBCC_LAW_FIMD;
        T_EQ(ibcc_law_init(&law, &ld, NULL, 0), IBCC_OK);
        T_EQ(ibcc_cct_fill_law(u, 12, 1000, &law), IBCC_OK);
        T_EQU(u[2], 3);
        T_EQU(u[7], 127);
        T_EQU(u[11], 255);
        ld.kind = IBCC_LAW_AIMD;                 /* same decrease as FIMD */
        T_EQ(ibcc_law_init(&law, &ld, NULL, 0), IBCC_OK);
        T_EQ(ibcc_cct_fill_law(u, 12, 1000, &law), IBCC_OK);
        T_EQU(u[5], 31);
        T_EQ(ibcc_cct_fill_law(u, 12, 1000, NULL), IBCC_ERR_NULL);
    }
    T_EQ(ibcc_cct_fill_fdec(t, 3, 1000, fdec_bad, NULL), IBCC_ERR_RANGE);
    T_EQ(ibcc_cct_fill_fdec(t, 3, 1000, fdec_zero, NULL), IBCC_ERR_RANGE);
    T_EQ(ibcc_cct_fill_fdec(t, 3, 1000, NULL, NULL), IBCC_ERR_NULL);
    T_EQ(ibcc_cct_fill_fdec(NULL, 3, 1000, fdec_fimd, NULL), IBCC_ERR_NULL);
    T_EQ(ibcc_cct_fill_fdec(t, 0, 1000, fdec_fimd, NULL), IBCC_ERR_CAPACITY);
    T_EQ(ibcc_cct_fill_fdec(t, 3, 0, fdec_fimd, NULL), IBCC_ERR_RANGE);
}

/* ---- desc, init, errors ---------------------------------------------- */

static void test_defaults_and_errors(void)
{
    ibcc_cct_desc d;
    ibcc_cct c;
    uint16_t tab[4] = {0, 1, 2, 3};
    unsigned s;
    memset(&d, 0, sizeof d);
    T_EQ(ibcc_cct_defaults(&d), IBCC_OK);
    T_EQ(d.flows, 1);
    T_EQ(d.entries, 128);
    T_EQ(d.log_capacity, 16);
    T_EQ(d.max_pkt_bytes, 2074);
    T_EQU(d.port_rate, IBCC_GBITS(16));
    T_EQU(d.max_pkt_time, 1037000);     /* 2074 B x 500 ps */
    T_EQ(d.ccti_limit, 127);
    for (s = 0; s < IBCC_CCT_SLS; s++) {
        T_EQ(d.sl[s].ccti_timer, 150);
        T_EQ(d.sl[s].ccti_increase, 1);
        T_EQ(d.sl[s].ccti_min, 0);
        T_EQ(d.sl[s].trigger_threshold, 0);
    }
    /* memory: 16 B per flow + 16 B per log slot + 2 B per entry */
    memset(&d, 0, sizeof d);
    d.flows = 1000;
    T_SIZE_EQ(ibcc_cct_size, &d, 16512);
    /* zero desc gives the [G] agent: quadratic table */
    memset(&d, 0, sizeof d);
    T_CHECK(t_size_cct(&d) > 0);
    T_EQ(ibcc_cct_init(&c, &d, mem_, sizeof mem_), IBCC_OK);
    T_EQU(ibcc_cct_table(&c)[127], IBCC_CCT_ENTRY(2, 39));
    T_EQ(ibcc_cct_limit(&c), 127);
    T_EQ(ibcc_cct_get_sl(&c, 3)->ccti_timer, 150);
    T_CHECK(ibcc_cct_get_sl(&c, 16) == NULL);
    /* errors */
    T_EQ(ibcc_cct_defaults(NULL), IBCC_ERR_NULL);
    T_SIZE_ERR(ibcc_cct_size, NULL, IBCC_ERR_NULL);
    memset(&d, 0, sizeof d); d.flows = 0x80000000u;
    T_EQ(ibcc_cct_defaults(&d), IBCC_ERR_CAPACITY);
    T_SIZE_ERR(ibcc_cct_size, &d, IBCC_ERR_CAPACITY);
    memset(&d, 0, sizeof d); d.entries = 16385;
    T_EQ(ibcc_cct_defaults(&d), IBCC_ERR_CAPACITY);
    memset(&d, 0, sizeof d); d.log_capacity = 65536;
    T_EQ(ibcc_cct_defaults(&d), IBCC_ERR_CAPACITY);
    memset(&d, 0, sizeof d); d.per_sl = 2;
    T_EQ(ibcc_cct_defaults(&d), IBCC_ERR_RANGE);
    memset(&d, 0, sizeof d); d.table_len = 4;
    T_EQ(ibcc_cct_defaults(&d), IBCC_ERR_NULL);
    memset(&d, 0, sizeof d); d.table = tab;
    T_EQ(ibcc_cct_defaults(&d), IBCC_ERR_CAPACITY);
    {
        static uint16_t big[300];
        memset(&d, 0, sizeof d); d.table = big; d.table_len = 300;
        T_EQ(ibcc_cct_defaults(&d), IBCC_OK);
        T_EQ(d.entries, 300);
        T_EQ(d.ccti_limit, 299);
    }
    memset(&d, 0, sizeof d); d.table = tab; d.table_len = 4; d.entries = 3;
    T_EQ(ibcc_cct_defaults(&d), IBCC_ERR_CAPACITY);
    memset(&d, 0, sizeof d); d.table = tab; d.table_len = 4; d.ccti_limit = 4;
    T_EQ(ibcc_cct_defaults(&d), IBCC_ERR_RANGE);  /* limit beyond table */
    memset(&d, 0, sizeof d); d.table = tab; d.table_len = 4;
    T_EQ(ibcc_cct_defaults(&d), IBCC_OK);
    T_EQ(d.ccti_limit, 3);
    memset(&d, 0, sizeof d); d.table = tab; d.table_len = 4; d.sl[5].ccti_min = 4;
    T_EQ(ibcc_cct_defaults(&d), IBCC_ERR_RANGE);  /* min above limit */
    memset(&d, 0, sizeof d); d.max_pkt_bytes = 0xffffffffu; d.port_rate = 1;
    T_EQ(ibcc_cct_defaults(&d), IBCC_ERR_OVERFLOW); /* 4.3e21 ps > 2^64 */
    memset(&d, 0, sizeof d); d.entries = 16384;    /* quadratic not encodable */
    T_EQ(ibcc_cct_init(&c, &d, mem_, sizeof mem_), IBCC_ERR_RANGE);
    memset(&d, 0, sizeof d);
    T_EQ(ibcc_cct_init(NULL, &d, mem_, sizeof mem_), IBCC_ERR_NULL);
    T_EQ(ibcc_cct_init(&c, NULL, mem_, sizeof mem_), IBCC_ERR_NULL);
    T_EQ(ibcc_cct_init(&c, &d, NULL, sizeof mem_), IBCC_ERR_NULL);
    T_EQ(ibcc_cct_init(&c, &d, (char *)mem_ + 4, sizeof mem_ - 8), IBCC_ERR_ALIGN);
    T_EQ(ibcc_cct_init(&c, &d, mem_, t_size_cct(&d) - 1), IBCC_ERR_NOMEM);
    T_EQ(ibcc_cct_init(&c, &d, mem_, t_size_cct(&d)), IBCC_OK);
    d.flows = 0x80000000u;
    T_EQ(ibcc_cct_init(&c, &d, mem_, sizeof mem_), IBCC_ERR_CAPACITY);
}

/* ---- hand-worked sequences ------------------------------------------- */

static void test_becn_timer_sequence(void)
{
    ibcc_cct c;
    /* 2 flows on SL 0, per QP, timer 1 (1.024 us), increase 2, min 1,
       limit 10, linear table, max_pkt_time 1000 ps */
    T_EQ(mk(&c, 2, 0, 1, 2, 1, 10), IBCC_OK);
    /* t = 0: flow 0 BECN: 0 -> 2; timer starts, expiry at P1 */
    T_EQ(ibcc_cct_on_becn(&c, 0, 0), 2);
    T_EQ(ibcc_cct_timer_running(&c, 0, 0), 1);
    T_EQ(ibcc_cct_ccti(&c, 0, P1 - 1), 2);
    /* expiry 1 at P1: 2 -> 1 = Min: the timer stops */
    T_EQ(ibcc_cct_ccti(&c, 0, P1), 1);
    T_EQ(ibcc_cct_timer_running(&c, 0, P1), 0);
    T_EQ(ibcc_cct_ccti(&c, 0, IBCC_US(5)), 1);
    T_EQU(ibcc_cct_timer_expiries(&c, 0, IBCC_US(5)), 1);
    /* t = 3 us: flow 0 BECN 1 -> 3, timer restarts (expiries at 4.024,
       5.048 us); t = 3.5 us flow 1 BECN 0 -> 2 */
    T_EQ(ibcc_cct_on_becn(&c, 0, IBCC_US(3)), 3);
    T_EQ(ibcc_cct_on_becn(&c, 1, IBCC_NS(3500)), 2);
    T_EQ(ibcc_cct_ccti(&c, 0, IBCC_US(3) + P1 - 1), 3);
    /* expiry 2 (4.024 us): flow 0 3 -> 2, flow 1 2 -> 1 */
    T_EQ(ibcc_cct_ccti(&c, 0, IBCC_US(3) + P1), 2);
    T_EQ(ibcc_cct_ccti(&c, 1, IBCC_US(3) + P1), 1);
    T_EQ(ibcc_cct_timer_running(&c, 0, IBCC_US(3) + P1), 1);
    /* delay from the linear table: CCTI 2 -> 2 x 1000 ps; gap adds pkt */
    T_EQU(ibcc_cct_delay(&c, 0, IBCC_US(3) + P1), 2000);
    T_EQU(ibcc_cct_interval(&c, 0, IBCC_US(3) + P1, 500), 2500);
    T_EQU(ibcc_cct_delay(&c, 1, IBCC_US(3) + P1), 1000);
    /* expiry 3 (5.048 us): flow 0 -> 1, flow 1 stays 1: timer stops */
    T_EQ(ibcc_cct_ccti(&c, 0, IBCC_US(3) + 2 * P1), 1);
    T_EQ(ibcc_cct_ccti(&c, 1, IBCC_US(3) + 2 * P1), 1);
    T_EQ(ibcc_cct_timer_running(&c, 0, IBCC_US(3) + 2 * P1), 0);
    T_EQU(ibcc_cct_timer_expiries(&c, 0, IBCC_MS(1)), 3);
    /* cap at CCTI_Limit 10: 1 -> 3 5 7 9 10 10 */
    {
        unsigned i, seq[6] = {3, 5, 7, 9, 10, 10};
        for (i = 0; i < 6; i++)
            T_EQ(ibcc_cct_on_becn(&c, 0, IBCC_US(10)), seq[i]);
    }
    /* decays one per period down to Min 1: 9 expiries from 10 us */
    T_EQ(ibcc_cct_ccti(&c, 0, IBCC_US(10) + 4 * P1), 6);
    T_EQ(ibcc_cct_ccti(&c, 0, IBCC_US(10) + 9 * P1), 1);
    T_EQ(ibcc_cct_timer_running(&c, 0, IBCC_US(10) + 9 * P1 - 1), 1);
    T_EQ(ibcc_cct_timer_running(&c, 0, IBCC_US(10) + 9 * P1), 0);
    /* advance: applies the due expiries to the SL state only */
    ibcc_cct_advance(&c, IBCC_US(10) + 20 * P1);
    T_EQU(ibcc_cct_timer_expiries(&c, 0, 0), 3 + 9);
    T_EQ(ibcc_cct_ccti(&c, 0, 0), 1);
    ibcc_cct_advance(NULL, 0);
    /* out-of-range flow: no effect */
    T_EQ(ibcc_cct_on_becn(&c, 2, IBCC_US(30)), 0);
    T_EQ(ibcc_cct_ccti(&c, 2, IBCC_US(30)), 0);
    T_EQU(ibcc_cct_delay(&c, 2, IBCC_US(30)), 0);
    T_EQ(ibcc_cct_timer_running(&c, 16, 0), 0);
    T_EQU(ibcc_cct_timer_expiries(&c, 16, 0), 0);
    /* a time earlier than the latest state-changing call (the advance to
       10 us + 20 P1) counts as that time */
    T_EQ(ibcc_cct_on_becn(&c, 0, 0), 3);
    T_EQ(ibcc_cct_ccti(&c, 0, IBCC_US(10) + 20 * P1 - 5), 3);
    ibcc_cct_reset(&c);
    T_EQ(ibcc_cct_ccti(&c, 0, 0), 0);
    T_EQU(ibcc_cct_timer_expiries(&c, 0, IBCC_MS(1)), 0);
}

static void test_timer_phase(void)
{
    ibcc_cct c;
    /* min 3, increase 1: a BECN that leaves CCTI at or below Min still
       starts the timer, and later BECNs do not move its phase */
    T_EQ(mk(&c, 1, 0, 1, 1, 3, 20), IBCC_OK);
    T_EQ(ibcc_cct_on_becn(&c, 0, 0), 1);             /* timer: P1 */
    T_EQ(ibcc_cct_on_becn(&c, 0, P1 / 2), 2);
    T_EQ(ibcc_cct_on_becn(&c, 0, P1 / 2 + 1), 3);
    T_EQ(ibcc_cct_on_becn(&c, 0, P1 - 1), 4);
    T_EQ(ibcc_cct_ccti(&c, 0, P1), 3);               /* 4 -> 3 at P1 */
    T_EQ(ibcc_cct_timer_running(&c, 0, P1), 0);
    /* started timer with nothing above Min runs one period, then stops */
    ibcc_cct_reset(&c);
    T_EQ(ibcc_cct_on_becn(&c, 0, 100), 1);
    T_EQ(ibcc_cct_timer_running(&c, 0, 100 + P1 - 1), 1);
    T_EQ(ibcc_cct_timer_running(&c, 0, 100 + P1), 0);
    T_EQU(ibcc_cct_timer_expiries(&c, 0, 100 + P1), 1);
    /* a BECN at exactly an expiry instant comes after the expiry */
    ibcc_cct_reset(&c);
    T_EQ(ibcc_cct_on_becn(&c, 0, 0), 1);
    T_EQ(ibcc_cct_on_becn(&c, 0, 1), 2);
    T_EQ(ibcc_cct_on_becn(&c, 0, 2), 3);
    T_EQ(ibcc_cct_on_becn(&c, 0, 3), 4);
    T_EQ(ibcc_cct_on_becn(&c, 0, 4), 5);             /* reach count 2 */
    T_EQ(ibcc_cct_on_becn(&c, 0, P1), 5);            /* 5 -> 4, +1 = 5 */
    T_EQ(ibcc_cct_ccti(&c, 0, 2 * P1), 4);
    T_EQ(ibcc_cct_ccti(&c, 0, 3 * P1), 3);
    T_EQ(ibcc_cct_timer_running(&c, 0, 3 * P1), 0);
    /* timer 0 = off: no decrease ever */
    T_EQ(mk(&c, 1, 0, 1, 1, 0, 20), IBCC_OK);
    {
        ibcc_cct_sl p = *ibcc_cct_get_sl(&c, 0);
        p.ccti_timer = 0;
        T_EQ(ibcc_cct_set_sl(&c, 0, &p, 0), IBCC_OK);
    }
    T_EQ(ibcc_cct_on_becn(&c, 0, 0), 1);
    T_EQ(ibcc_cct_on_becn(&c, 0, 0), 2);
    T_EQ(ibcc_cct_ccti(&c, 0, IBCC_S(1)), 2);
    T_EQ(ibcc_cct_timer_running(&c, 0, 0), 0);
}

static void test_flow_sl_desc(void)
{
    ibcc_cct_desc d;
    ibcc_cct c;
    uint8_t sl[3] = {0, 4, 15};
    memset(&d, 0, sizeof d);
    d.flows = 3;
    d.flow_sl = sl;
    T_EQ(ibcc_cct_init(&c, &d, mem_, sizeof mem_), IBCC_OK);
    T_EQ(ibcc_cct_flow_sl(&c, 0), 0);
    T_EQ(ibcc_cct_flow_sl(&c, 1), 4);
    T_EQ(ibcc_cct_flow_sl(&c, 2), 15);
    T_EQ(ibcc_cct_on_becn(&c, 2, 5), 1);
    T_EQ(ibcc_cct_timer_running(&c, 15, 5), 1);
    T_EQ(ibcc_cct_timer_running(&c, 0, 5), 0);
    ibcc_cct_reset(&c);                       /* SLs kept, CCTIs cleared */
    T_EQ(ibcc_cct_flow_sl(&c, 1), 4);
    T_EQ(ibcc_cct_ccti(&c, 2, 5), 0);
    sl[1] = 16;
    T_EQ(ibcc_cct_defaults(&d), IBCC_ERR_RANGE);
    T_EQ(ibcc_cct_init(&c, &d, mem_, sizeof mem_), IBCC_ERR_RANGE);
}

static void test_per_sl_and_control_map(void)
{
    ibcc_cct c;
    /* per-SL: flows 0 and 1 on SL 0 share one CCTI; flow 2 on SL 5 */
    T_EQ(mk(&c, 3, 1, 1, 1, 0, 20), IBCC_OK);
    T_EQ(ibcc_cct_set_flow_sl(&c, 2, 5, 0), IBCC_OK);
    T_EQ(ibcc_cct_flow_sl(&c, 2), 5);
    T_EQ(ibcc_cct_flow_sl(&c, 3), 0);
    T_EQ(ibcc_cct_on_becn(&c, 0, 0), 1);
    T_EQ(ibcc_cct_on_becn(&c, 1, 0), 2);
    T_EQ(ibcc_cct_ccti(&c, 0, 0), 2);
    T_EQ(ibcc_cct_ccti(&c, 1, 0), 2);
    T_EQ(ibcc_cct_ccti(&c, 2, 0), 0);
    T_EQ(ibcc_cct_on_becn(&c, 2, 10), 1);
    T_EQ(ibcc_cct_ccti(&c, 0, P1), 1);
    T_EQ(ibcc_cct_ccti(&c, 2, P1 + 10), 0);
    /* per-SL: moving a flow is always allowed (no per-flow CCTI) */
    T_EQ(ibcc_cct_set_flow_sl(&c, 1, 5, P1 + 10), IBCC_OK);
    T_EQ(ibcc_cct_ccti(&c, 1, P1 + 10), 0);
    /* control map: SL 0 off -> BECN ignored, delay 0, CCTI reset */
    T_EQ(ibcc_cct_set_port(&c, 1, (uint16_t)0xfffeu, P1 + 20), IBCC_OK);
    T_EQ(ibcc_cct_ccti(&c, 0, P1 + 20), 0);
    T_EQ(ibcc_cct_on_becn(&c, 0, P1 + 30), 0);
    T_EQU(ibcc_cct_delay(&c, 0, P1 + 30), 0);
    T_EQ(ibcc_cct_on_becn(&c, 1, P1 + 30), 1);        /* SL 5 still on */
    /* switching to per-QP resets every CCTI */
    T_EQ(ibcc_cct_set_port(&c, 0, 0xffff, P1 + 40), IBCC_OK);
    T_EQ(ibcc_cct_ccti(&c, 1, P1 + 40), 0);
    T_EQ(ibcc_cct_on_becn(&c, 0, P1 + 50), 1);
    T_EQ(ibcc_cct_on_becn(&c, 3, P1 + 50), 0);        /* flow out of range */
    T_EQ(ibcc_cct_ccti(&c, 2, P1 + 50), 0);
    T_EQ(ibcc_cct_set_port(&c, 2, 0xffff, 0), IBCC_ERR_RANGE);
    T_EQ(ibcc_cct_set_port(NULL, 0, 0xffff, 0), IBCC_ERR_NULL);
    /* per-QP: a flow above Min cannot move SL */
    T_EQ(ibcc_cct_set_flow_sl(&c, 0, 2, P1 + 60), IBCC_ERR_STATE);
    T_EQ(ibcc_cct_set_flow_sl(&c, 0, 2, 2 * P1 + 50), IBCC_OK);
    T_EQ(ibcc_cct_set_flow_sl(&c, 0, 16, 0), IBCC_ERR_RANGE);
    T_EQ(ibcc_cct_set_flow_sl(&c, 3, 1, 0), IBCC_ERR_RANGE);
    T_EQ(ibcc_cct_set_flow_sl(NULL, 0, 1, 0), IBCC_ERR_NULL);
    /* a flow at CCTI 2 with Min 2 on its SL cannot move to an SL with
       Min 0 (it would be above Min there) */
    {
        ibcc_cct_sl p = *ibcc_cct_get_sl(&c, 2);
        p.ccti_min = 2;
        T_EQ(ibcc_cct_set_sl(&c, 2, &p, 3 * P1), IBCC_OK);
        T_EQ(ibcc_cct_on_becn(&c, 0, 3 * P1), 1);
        T_EQ(ibcc_cct_on_becn(&c, 0, 3 * P1), 2);
        T_EQ(ibcc_cct_ccti(&c, 0, 10 * P1), 2);
        T_EQ(ibcc_cct_set_flow_sl(&c, 0, 4, 10 * P1), IBCC_ERR_STATE);
    }
}

static void test_trigger_log(void)
{
    ibcc_cct_desc d;
    ibcc_cct c;
    ibcc_cct_event ev[4];
    memset(&d, 0, sizeof d);
    d.flows = 2;
    d.log_capacity = 2;
    d.sl[0].trigger_threshold = 3;
    T_EQ(ibcc_cct_init(&c, &d, mem_, sizeof mem_), IBCC_OK);
    /* CCTI 1, 2, 3, 4, 5 at 10..50 ps: logged at 3, 4, 5; the ring of 2
       keeps the last two */
    T_EQ(ibcc_cct_on_becn(&c, 1, 10), 1);
    T_EQ(ibcc_cct_on_becn(&c, 1, 20), 2);
    T_EQU(ibcc_cct_log_total(&c), 0);
    T_EQ(ibcc_cct_on_becn(&c, 1, 30), 3);
    T_EQU(ibcc_cct_log_total(&c), 1);
    T_EQ(ibcc_cct_on_becn(&c, 1, 40), 4);
    T_EQ(ibcc_cct_on_becn(&c, 1, 50), 5);
    T_EQU(ibcc_cct_log_total(&c), 3);
    T_EQU(ibcc_cct_log_lost(&c), 1);
    T_EQU(ibcc_cct_log_count(&c), 2);
    T_EQU(ibcc_cct_log_read(&c, ev, 1), 1);
    T_EQU(ev[0].time, 40);
    T_EQU(ev[0].flow, 1);
    T_EQU(ev[0].ccti, 4);
    T_EQU(ev[0].sl, 0);
    T_EQU(ibcc_cct_log_read(&c, ev, 4), 1);
    T_EQU(ev[0].time, 50);
    T_EQU(ev[0].ccti, 5);
    T_EQU(ibcc_cct_log_read(&c, ev, 4), 0);
    T_EQU(ibcc_cct_log_count(&c), 0);
    /* ring wraps correctly after draining */
    T_EQ(ibcc_cct_on_becn(&c, 0, 60), 1);
    T_EQ(ibcc_cct_on_becn(&c, 1, 70), 6);
    T_EQU(ibcc_cct_log_read(&c, ev, 4), 1);
    T_EQU(ev[0].time, 70);
    T_EQU(ibcc_cct_log_read(NULL, ev, 4), 0);
    T_EQU(ibcc_cct_log_read(&c, NULL, 4), 0);
    T_EQU(ibcc_cct_log_count(NULL), 0);
}

static void test_settings(void)
{
    ibcc_cct c;
    ibcc_cct_sl p;
    uint16_t tab[8] = {0, 1, 2, 3, 4, 5, 6, 7};
    T_EQ(mk(&c, 2, 0, 2, 3, 0, 20), IBCC_OK);
    T_EQ(ibcc_cct_on_becn(&c, 0, 0), 3);
    T_EQ(ibcc_cct_on_becn(&c, 0, 0), 6);
    T_EQ(ibcc_cct_on_becn(&c, 0, 0), 9);
    /* table with limit 4: CCTI 9 is lowered to 4 */
    T_EQ(ibcc_cct_set_table(&c, tab, 8, 4, 10), IBCC_OK);
    T_EQ(ibcc_cct_ccti(&c, 0, 10), 4);
    T_EQ(ibcc_cct_limit(&c), 4);
    T_EQU(ibcc_cct_table(&c)[7], 7);
    T_EQU(ibcc_cct_table(&c)[8], 0);
    T_EQ(ibcc_cct_on_becn(&c, 0, 20), 4);
    /* timer period 2 x 1.024 us: 4 -> 0 after 4 expiries at 2P1.. 8P1 */
    T_EQ(ibcc_cct_ccti(&c, 0, 8 * P1 - 1), 1);
    T_EQ(ibcc_cct_ccti(&c, 0, 8 * P1), 0);
    /* raise Min with the timer stopped and a flow below it: nothing;
       then lower Min while a flow sits at the old Min: it stays (parked)
       until a BECN of the SL starts the timer */
    p = *ibcc_cct_get_sl(&c, 0);
    p.ccti_min = 3;
    T_EQ(ibcc_cct_set_sl(&c, 0, &p, 9 * P1), IBCC_OK);
    T_EQ(ibcc_cct_on_becn(&c, 0, 9 * P1), 3);   /* timer: 11 P1 */
    T_EQ(ibcc_cct_ccti(&c, 0, 20 * P1), 3);
    p.ccti_min = 0;
    T_EQ(ibcc_cct_set_sl(&c, 0, &p, 20 * P1), IBCC_OK);
    T_EQ(ibcc_cct_ccti(&c, 0, 40 * P1), 3);     /* parked */
    T_EQ(ibcc_cct_on_becn(&c, 1, 40 * P1), 3);  /* flow 1 starts the timer */
    /* both decay from 3 at 42, 44, 46 P1 */
    T_EQ(ibcc_cct_ccti(&c, 0, 46 * P1 - 1), 1);
    T_EQ(ibcc_cct_ccti(&c, 0, 46 * P1), 0);
    T_EQ(ibcc_cct_ccti(&c, 1, 46 * P1), 0);
    T_EQ(ibcc_cct_timer_running(&c, 0, 46 * P1), 0);
    /* errors */
    T_EQ(ibcc_cct_set_sl(&c, 16, &p, 0), IBCC_ERR_RANGE);
    p.ccti_min = 5;
    T_EQ(ibcc_cct_set_sl(&c, 0, &p, 0), IBCC_ERR_RANGE);   /* > limit 4 */
    T_EQ(ibcc_cct_set_sl(&c, 0, NULL, 0), IBCC_ERR_NULL);
    T_EQ(ibcc_cct_set_sl(NULL, 0, &p, 0), IBCC_ERR_NULL);
    T_EQ(ibcc_cct_set_table(&c, tab, 8, 8, 0), IBCC_ERR_RANGE);
    T_EQ(ibcc_cct_set_table(&c, NULL, 8, 1, 0), IBCC_ERR_NULL);
    T_EQ(ibcc_cct_set_table(NULL, tab, 8, 1, 0), IBCC_ERR_NULL);
    T_EQ(ibcc_cct_set_table(&c, tab, 129, 1, 0), IBCC_ERR_CAPACITY);
    T_EQ(ibcc_cct_set_table(&c, NULL, 0, 1, 0), IBCC_ERR_RANGE);
    p.ccti_min = 2;
    T_EQ(ibcc_cct_set_sl(&c, 7, &p, 50 * P1), IBCC_OK);
    T_EQ(ibcc_cct_set_table(&c, tab, 8, 1, 50 * P1), IBCC_ERR_RANGE); /* < min */
    p.ccti_min = 0;
    T_EQ(ibcc_cct_set_sl(&c, 7, &p, 50 * P1), IBCC_OK);
    /* empty table: limit 0, every delay 0 */
    T_EQ(ibcc_cct_set_table(&c, NULL, 0, 0, 50 * P1), IBCC_OK);
    T_EQ(ibcc_cct_on_becn(&c, 0, 50 * P1), 0);
    T_EQU(ibcc_cct_delay(&c, 0, 50 * P1), 0);
    T_CHECK(ibcc_cct_table(NULL) == NULL);
    T_EQ(ibcc_cct_limit(NULL), 0);
}

/* ---- eager reference: visits every flow at every expiry --------------- */

#define EF 1200
typedef struct eager {
    uint32_t flows;
    unsigned per_sl;
    uint16_t map, limit;
    ibcc_cct_sl p[16];
    ibcc_time period[16], next[16];
    int running[16];
    uint64_t count[16];
    uint16_t ccti[EF], sccti[16];
    uint8_t sl[EF];
} eager;

static void e_fire(eager *e, unsigned s)
{
    unsigned min = e->p[s].ccti_min;
    int any = 0;
    uint32_t i;
    if (e->per_sl) {
        if (e->sccti[s] > min) e->sccti[s]--;
        any = e->sccti[s] > min;
    } else {
        for (i = 0; i < e->flows; i++) {
            if (e->sl[i] != s) continue;
            if (e->ccti[i] > min) e->ccti[i]--;
            if (e->ccti[i] > min) any = 1;
        }
    }
    e->count[s]++;
    if (any) e->next[s] += e->period[s]; else e->running[s] = 0;
}

static void e_adv(eager *e, ibcc_time now)
{
    unsigned s;
    for (s = 0; s < 16; s++)
        while (e->running[s] && e->next[s] <= now) e_fire(e, s);
}

static uint16_t *e_ref(eager *e, uint32_t f)
{
    return e->per_sl ? &e->sccti[e->sl[f]] : &e->ccti[f];
}

static unsigned e_becn(eager *e, uint32_t f, ibcc_time now)
{
    unsigned s, nv;
    uint16_t *v;
    if (f >= e->flows) return 0;
    s = e->sl[f];
    if (!((e->map >> s) & 1u)) return 0;
    e_adv(e, now);
    v = e_ref(e, f);
    nv = *v + e->p[s].ccti_increase;
    if (nv > e->limit) nv = e->limit;
    *v = (uint16_t)nv;
    if (!e->running[s] && e->period[s]) {
        e->running[s] = 1;
        e->next[s] = now + e->period[s];
    }
    return nv;
}

static unsigned e_ccti(eager *e, uint32_t f, ibcc_time now)
{
    e_adv(e, now);
    return *e_ref(e, f);
}

static void e_set_sl(eager *e, unsigned s, const ibcc_cct_sl *p, ibcc_time now)
{
    e_adv(e, now);
    e->p[s] = *p;
    e->period[s] = (ibcc_time)p->ccti_timer * 1024000u;
    if (e->period[s] == 0) e->running[s] = 0;
}

static void e_set_limit(eager *e, uint16_t limit, ibcc_time now)
{
    uint32_t i;
    e_adv(e, now);
    e->limit = limit;
    for (i = 0; i < e->flows; i++) if (e->ccti[i] > limit) e->ccti[i] = limit;
    for (i = 0; i < 16; i++) if (e->sccti[i] > limit) e->sccti[i] = limit;
}

static ibcc_result e_move(eager *e, uint32_t f, unsigned s, ibcc_time now)
{
    e_adv(e, now);
    if (!e->per_sl && (e->ccti[f] > e->p[e->sl[f]].ccti_min
                       || e->ccti[f] > e->p[s].ccti_min))
        return IBCC_ERR_STATE;
    e->sl[f] = (uint8_t)s;
    return IBCC_OK;
}

static void rand_sl(ibcc_rng *r, ibcc_cct_sl *p, int allow_off)
{
    memset(p, 0, sizeof *p);
    p->ccti_timer = (uint16_t)(allow_off && ibcc_rng_below(r, 8) == 0
                                   ? 0 : 1 + ibcc_rng_below(r, 4));
    p->ccti_increase = (uint8_t)(1 + ibcc_rng_below(r, 4));
    p->ccti_min = (uint8_t)ibcc_rng_below(r, 4);
}

/* Runs `events` random events on `flows` flows spread over `nsl` SLs and
   counts every disagreement between the lazy agent and the reference. */
static long lazy_vs_eager(unsigned per_sl, uint32_t flows, unsigned nsl,
                          long events, uint64_t seed, int settings)
{
    static uint16_t lin[128];
    static eager e;
    ibcc_cct_desc d;
    ibcc_cct c;
    ibcc_rng r;
    ibcc_time now = 0;
    long ev, bad = 0;
    unsigned s;
    uint32_t i;
    ibcc_rng_seed(&r, seed);
    ibcc_cct_fill_linear(lin, 128);
    memset(&d, 0, sizeof d);
    memset(&e, 0, sizeof e);
    d.flows = flows;
    d.per_sl = per_sl;
    d.max_pkt_time = 1000;
    d.table = lin;
    d.table_len = 128;
    d.ccti_limit = 30;
    for (s = 0; s < 16; s++) {
        rand_sl(&r, &d.sl[s], 0);
        e.p[s] = d.sl[s];
        e.period[s] = (ibcc_time)d.sl[s].ccti_timer * 1024000u;
    }
    if (ibcc_cct_init(&c, &d, mem_, sizeof mem_) != IBCC_OK) return -1;
    e.flows = flows; e.per_sl = per_sl; e.map = 0xffff; e.limit = 30;
    for (i = 0; i < flows; i++) {
        unsigned sl = (unsigned)ibcc_rng_below(&r, nsl);
        if (ibcc_cct_set_flow_sl(&c, i, sl, 0) != IBCC_OK) bad++;
        e.sl[i] = (uint8_t)sl;
    }
    for (ev = 0; ev < events; ev++) {
        uint64_t k = ibcc_rng_below(&r, 1000);
        uint32_t f = (uint32_t)ibcc_rng_below(&r, flows);
        /* time steps: small, on quarter-period grid (ties with expiries),
           or long idle gaps */
        uint64_t g = ibcc_rng_below(&r, 10);
        if (g < 6) now += ibcc_rng_below(&r, P1 / 3);
        else if (g < 9) now += (P1 / 4) * ibcc_rng_below(&r, 4);
        else now += ibcc_rng_below(&r, 40 * P1);
        if (k < 400) {
            if (ibcc_cct_on_becn(&c, f, now) != e_becn(&e, f, now)) bad++;
        } else if (k < 900) {
            unsigned v = e_ccti(&e, f, now);
            if (ibcc_cct_ccti(&c, f, now) != v) bad++;
            if (ibcc_cct_delay(&c, f, now) != (ibcc_time)v * 1000u) bad++;
        } else if (k < 980 || !settings) {
            s = (unsigned)ibcc_rng_below(&r, nsl);
            e_adv(&e, now);
            if (k & 1) ibcc_cct_advance(&c, now);
            if (ibcc_cct_timer_running(&c, s, now) != e.running[s]) bad++;
            if (ibcc_cct_timer_expiries(&c, s, now) != e.count[s]) bad++;
        } else if (k < 990) {
            ibcc_cct_sl p;
            s = (unsigned)ibcc_rng_below(&r, nsl);
            rand_sl(&r, &p, 1);
            if (ibcc_cct_set_sl(&c, s, &p, now) != IBCC_OK) bad++;
            e_set_sl(&e, s, &p, now);
        } else if (k < 996) {
            s = (unsigned)ibcc_rng_below(&r, nsl);
            if (ibcc_cct_set_flow_sl(&c, f, s, now) != e_move(&e, f, s, now)) bad++;
        } else {
            uint16_t lim = (uint16_t)(4 + ibcc_rng_below(&r, 40));
            if (ibcc_cct_set_table(&c, lin, 128, lim, now) != IBCC_OK) bad++;
            e_set_limit(&e, lim, now);
        }
    }
    /* final sweep: every flow, every SL */
    now += 3 * P1;
    for (i = 0; i < flows; i++)
        if (ibcc_cct_ccti(&c, i, now) != e_ccti(&e, i, now)) bad++;
    for (s = 0; s < 16; s++)
        if (ibcc_cct_timer_expiries(&c, s, now) != e.count[s]) bad++;
    return bad;
}

static void test_lazy_equals_eager(void)
{
    T_EQ(lazy_vs_eager(0, 1, 1, 50000, 1, 0), 0);
    T_EQ(lazy_vs_eager(0, 40, 4, 200000, 2, 0), 0);
    T_EQ(lazy_vs_eager(0, 1000, 3, 60000, 3, 0), 0);
    T_EQ(lazy_vs_eager(1, 40, 6, 200000, 4, 0), 0);
    T_EQ(lazy_vs_eager(0, 40, 4, 200000, 5, 1), 0);   /* settings too */
    T_EQ(lazy_vs_eager(1, 40, 4, 200000, 6, 1), 0);
    T_EQ(lazy_vs_eager(0, 300, 16, 100000, 7, 1), 0);
}

/* Regression (misuse review): a timer started within one period of
   IBCC_TIME_MAX has its first expiry beyond 2^64 - 1 ps (saturated). It
   must never fire; before the fix every call at IBCC_TIME_MAX fired it
   once more and the CCTI fell by one per call. */
static void test_misuse_regressions(void)
{
    ibcc_cct_desc d;
    ibcc_cct c;
    static uint64_t mem[4096];
    int i;
    memset(&d, 0, sizeof d);
    d.sl[0].ccti_increase = 5;
    T_EQ(ibcc_cct_init(&c, &d, mem, sizeof mem), IBCC_OK);
    T_EQU(ibcc_cct_on_becn(&c, 0, IBCC_TIME_MAX - 1000), 5);
    for (i = 0; i < 3; i++) ibcc_cct_advance(&c, IBCC_TIME_MAX);
    T_EQU(ibcc_cct_timer_expiries(&c, 0, IBCC_TIME_MAX), 0);
    T_EQU(ibcc_cct_ccti(&c, 0, IBCC_TIME_MAX), 5);
    T_EQU(ibcc_cct_on_becn(&c, 0, IBCC_TIME_MAX), 10);
    T_EQ(ibcc_cct_timer_running(&c, 0, IBCC_TIME_MAX), 1);
    /* a timer one period before the end still fires its last expiry */
    ibcc_cct_reset(&c);
    T_EQU(ibcc_cct_on_becn(&c, 0, IBCC_TIME_MAX - 150u * 1024000u - 1u), 5);
    T_EQU(ibcc_cct_ccti(&c, 0, IBCC_TIME_MAX - 1u), 4);
    T_EQU(ibcc_cct_ccti(&c, 0, IBCC_TIME_MAX), 4);
    /* a zeroed, never initialised agent: set_table passed a NULL table to
       memset (undefined even for 0 bytes) */
    {
        ibcc_cct z;
        uint16_t t[1] = {0};
        memset(&z, 0, sizeof z);
        T_EQ(ibcc_cct_set_table(&z, t, 0, 0, 0), IBCC_ERR_STATE);
        T_EQU(ibcc_cct_on_becn(&z, 0, 0), 0);
        T_EQU(ibcc_cct_delay(&z, 0, 0), 0);
    }
}

/* Regression (fuzzing finding): ibcc_cct_set_flow_sl rejected with
   IBCC_ERR_STATE still made `now` the agent's latest time and applied the
   SL timers' expiries, so a later call at an earlier time saw them. A
   rejected call now changes no byte of the agent or its memory. */
static void test_set_flow_sl_rejected_changes_nothing(void)
{
    static uint64_t snap[1 << 16];
    ibcc_cct c, c0;
    T_EQ(mk(&c, 4, 0, 10, 1, 0, 100), IBCC_OK);
    T_EQU(ibcc_cct_on_becn(&c, 0, 0), 1);
    T_EQU(ibcc_cct_on_becn(&c, 0, 0), 2);   /* SL 0 timer: 10 P1 period */
    memcpy(&c0, &c, sizeof c);
    memcpy(snap, mem_, sizeof snap);
    /* at 15 P1 one expiry is due: CCTI 1 > CCTI_Min 0 */
    T_EQ(ibcc_cct_set_flow_sl(&c, 0, 3, 15 * P1), IBCC_ERR_STATE);
    T_CHECK(memcmp(&c, &c0, sizeof c) == 0);
    T_CHECK(memcmp(snap, mem_, sizeof snap) == 0);
    /* so an earlier time is still earlier: no expiry before 10 P1 */
    T_EQU(ibcc_cct_timer_expiries(&c, 0, 5 * P1), 0);
    T_EQU(ibcc_cct_ccti(&c, 0, 5 * P1), 2);
    T_EQU(ibcc_cct_flow_sl(&c, 0), 0);
    /* per-flow CCTI at the new SL's Min is also checked: the new SL's
       CCTI_Min is 0 and the flow's CCTI 2 > 0 */
    T_EQ(ibcc_cct_set_flow_sl(&c, 0, 3, 5 * P1), IBCC_ERR_STATE);
    T_CHECK(memcmp(&c, &c0, sizeof c) == 0);
    /* accepted moves do advance the time */
    T_EQ(ibcc_cct_set_flow_sl(&c, 1, 3, 15 * P1), IBCC_OK);
    T_EQU(ibcc_cct_flow_sl(&c, 1), 3);
    T_EQU(ibcc_cct_timer_expiries(&c, 0, 5 * P1), 1);
    T_EQU(ibcc_cct_ccti(&c, 0, 5 * P1), 1);
    /* once the flow is back at CCTI_Min it may move */
    T_EQ(ibcc_cct_set_flow_sl(&c, 0, 3, 25 * P1), IBCC_OK);
    T_EQU(ibcc_cct_ccti(&c, 0, 25 * P1), 0);
}

/* Regression (fuzzing finding): with max_pkt_time 10 ps and the default
   quadratic table, ibcc_cct_defaults said OK and ibcc_cct_size 560 but
   ibcc_cct_init said RANGE (the table's delays exceed 16383 * 10 ps). The
   three now share one validation: the default table must exist. Its last
   entry (127^2 * 7/106^2 us = 10.048 us for 128 entries) fits from
   max_pkt_time 614 ps (16383 * 613 + 306 < 10048 ns <= 16383 * 614). */
static void test_defaults_size_init_agree(void)
{
    static const ibcc_time mpt[] = { 1, 10, 613, 614, 1000, 2 * 1037000 };
    static const uint32_t ent[] = { 0, 1, 2, 16, 128, 1000, 16384 };
    size_t a, b;
    for (a = 0; a < sizeof mpt / sizeof mpt[0]; a++) {
        for (b = 0; b < sizeof ent / sizeof ent[0]; b++) {
            ibcc_cct_desc d, e;
            ibcc_cct c;
            ibcc_result rd, ri;
            size_t sz;
            memset(&d, 0, sizeof d);
            d.max_pkt_time = mpt[a];
            d.entries = ent[b];
            e = d;
            rd = ibcc_cct_defaults(&e);
            sz = t_size_cct(&d);
            ri = ibcc_cct_init(&c, &d, mem_, sizeof mem_);
            T_EQ(ri, rd);
            T_CHECK((sz != 0) == (rd == IBCC_OK));
            if (rd == IBCC_OK) T_CHECK(sz <= sizeof mem_);
        }
    }
    {
        ibcc_cct_desc d;
        memset(&d, 0, sizeof d);
        d.max_pkt_time = 10;
        T_EQ(ibcc_cct_defaults(&d), IBCC_ERR_RANGE);
        memset(&d, 0, sizeof d);
        d.max_pkt_time = 10;
        T_SIZE_ERR(ibcc_cct_size, &d, IBCC_ERR_RANGE);
        d.max_pkt_time = 613;
        T_SIZE_ERR(ibcc_cct_size, &d, IBCC_ERR_RANGE);
        d.max_pkt_time = 614;
        T_CHECK(t_size_cct(&d) > 0);
        /* a small table fits a small max_pkt_time: 2 entries, 0 and
           7/106^2 us = 623 ps = 62.3 units of 10 ps */
        d.max_pkt_time = 10;
        d.entries = 2;
        T_CHECK(t_size_cct(&d) > 0);
        /* a table given by the caller is not checked against the default */
        {
            static const uint16_t one[1] = { 0 };
            d.entries = 0;
            d.table = one;
            d.table_len = 1;
            T_CHECK(t_size_cct(&d) > 0);
        }
    }
}

int main(void)
{
    T_RUN(test_entry_encoding);
    T_RUN(test_entry_from_delay);
    T_RUN(test_populations);
    T_RUN(test_defaults_and_errors);
    T_RUN(test_becn_timer_sequence);
    T_RUN(test_timer_phase);
    T_RUN(test_flow_sl_desc);
    T_RUN(test_per_sl_and_control_map);
    T_RUN(test_trigger_log);
    T_RUN(test_settings);
    T_RUN(test_lazy_equals_eager);
    T_RUN(test_misuse_regressions);
    T_RUN(test_set_flow_sl_rejected_changes_nothing);
    T_RUN(test_defaults_size_init_agree);
    return t_summary();
}
