/* Tests of the L1 mvcm engine: hand-worked ACK reaction sequences (warm,
   hot, cold, the recovery rule, reset), both SCENARIOS §C variants,
   saturation, the input-marks-only variant, the omega helper and its bounds, RTTmin, and every error. */
#ifndef IBCC_TEST_LINKED   /* make test links one implementation object */
#define IBCC_IMPLEMENTATION
#endif
#include "ibcc.h"
#include "t.h"

static uint64_t mem_[1024];

#define WARM IBCC_MB
#define HOT  (IBCC_MB | IBCC_VB)
#define COLD 0u

static void mk(ibcc_mvcm *a, uint32_t dw_max, uint32_t k, uint32_t n,
               unsigned flags)
{
    ibcc_mvcm_desc d;
    memset(&d, 0, sizeof d);
    d.flows = 4;
    d.dw_max = dw_max;
    d.k = k;
    d.n = n;
    d.ws = 1000;
    d.flags = flags;
    T_EQ(ibcc_mvcm_init(a, &d, mem_, sizeof mem_), IBCC_OK);
}

/* nWS of flow 0 (UINT64_MAX if there is no such flow). */
static uint64_t nws0(const ibcc_mvcm *a)
{
    const ibcc_mvcm_flow *f = ibcc_mvcm_state(a, 0);
    return f ? f->nws : UINT64_MAX;
}

/* Applies one ACK to flow 0 and checks (DW, nWS) afterwards. */
#define STEP(a, bits, dw_, nws_) do { ibcc_mvcm_on_ack(a, 0, bits); \
    T_EQU(ibcc_mvcm_window(a, 0), dw_); \
    T_EQU(nws0(a), nws_); } while (0)

static void test_class(void)
{
    T_EQ(ibcc_mvcm_class(0), IBCC_MVCM_COLD);
    T_EQ(ibcc_mvcm_class(IBCC_MB), IBCC_MVCM_WARM);
    T_EQ(ibcc_mvcm_class(IBCC_MB | IBCC_VB), IBCC_MVCM_HOT);
    T_EQ(ibcc_mvcm_class(IBCC_VB), IBCC_MVCM_COLD);     /* (0,1) impossible */
    T_EQ(ibcc_mvcm_class(IBCC_ACK | IBCC_MB), IBCC_MVCM_WARM);
}

static void test_sequence(void)
{
    ibcc_mvcm a;
    /* DWmax 3, k 4, n 2, WS 1000 ps */
    mk(&a, 3, 4, 2, 0);
    T_EQU(ibcc_mvcm_window(&a, 0), 3);
    T_EQU(ibcc_mvcm_wait(&a, 0), 0);
    STEP(&a, WARM, 2, 0);
    STEP(&a, WARM, 1, 0);
    STEP(&a, WARM, 1, 0);                /* floor 1 */
    STEP(&a, HOT, 1, 1);                 /* DW == 1: nWS = 1 */
    STEP(&a, HOT, 1, 4);                 /* x k (1st of n = 2) */
    STEP(&a, HOT, 1, 16);                /* x k (2nd) */
    STEP(&a, HOT, 1, 16);                /* cap reached */
    T_EQU(ibcc_mvcm_wait(&a, 0), 16000);
    T_CHECK(ibcc_mvcm_state(&a, 0) && ibcc_mvcm_state(&a, 0)->mults == 2);
    STEP(&a, COLD, 1, 0);                /* first cold: clear nWS */
    T_EQU(ibcc_mvcm_wait(&a, 0), 0);
    STEP(&a, COLD, 2, 0);
    STEP(&a, COLD, 3, 0);
    STEP(&a, COLD, 3, 0);                /* DWmax */
    /* hot with DW > 1 shrinks the window and leaves nWS */
    STEP(&a, HOT, 2, 0);
    STEP(&a, HOT, 1, 0);
    STEP(&a, HOT, 1, 1);
    STEP(&a, COLD, 1, 0);
    STEP(&a, HOT, 1, 1);                 /* nWS 0 again: back to 1 */
    STEP(&a, WARM, 1, 1);                /* warm: window only */
    STEP(&a, COLD, 1, 0);                /* slots in force: cleared */
    STEP(&a, COLD, 2, 0);
    /* window-only throttling ([F] 4.2.1): no waiting interval in force,
       so every cold ACK grows the window, from the first */
    STEP(&a, HOT, 1, 0);
    STEP(&a, COLD, 2, 0);
    STEP(&a, COLD, 3, 0);
    STEP(&a, WARM, 2, 0);
    STEP(&a, WARM, 1, 0);
    STEP(&a, COLD, 2, 0);                /* 1 -> 2 on the first cold ACK */
    STEP(&a, COLD, 3, 0);
    /* reset on injection into an empty queue */
    STEP(&a, HOT, 2, 0);
    STEP(&a, HOT, 1, 0);
    STEP(&a, HOT, 1, 1);
    ibcc_mvcm_on_inject_empty(&a, 0);
    T_EQU(ibcc_mvcm_window(&a, 0), 3);
    T_EQU(ibcc_mvcm_wait(&a, 0), 0);
    STEP(&a, COLD, 3, 0);
    /* waiting slots in force ([F] 4.2): the first cold ACK removes them
       and leaves the window, the next ones grow it: full rate from the
       worst state after DWmax cold ACKs */
    {
        STEP(&a, HOT, 2, 0); STEP(&a, HOT, 1, 0); STEP(&a, HOT, 1, 1);
        STEP(&a, HOT, 1, 4);
        STEP(&a, COLD, 1, 0);
        STEP(&a, COLD, 2, 0);
        STEP(&a, COLD, 3, 0);
        T_EQU(ibcc_mvcm_wait(&a, 0), 0);
    }
    /* other flows untouched */
    T_EQU(ibcc_mvcm_window(&a, 1), 3);
    /* return values and out-of-range flows */
    T_EQ(ibcc_mvcm_on_ack(&a, 1, HOT), IBCC_MVCM_HOT);
    T_EQ(ibcc_mvcm_on_ack(&a, 1, WARM), IBCC_MVCM_WARM);
    T_EQ(ibcc_mvcm_on_ack(&a, 1, COLD), IBCC_MVCM_COLD);
    T_EQ(ibcc_mvcm_on_ack(&a, 4, HOT), -1);
    T_EQ(ibcc_mvcm_on_ack(NULL, 0, HOT), -1);
    ibcc_mvcm_on_inject_empty(&a, 4);
    ibcc_mvcm_on_inject_empty(NULL, 0);
    T_EQU(ibcc_mvcm_window(&a, 4), 0);
    T_EQU(ibcc_mvcm_wait(&a, 4), 0);
    T_CHECK(ibcc_mvcm_state(&a, 4) == NULL);
    T_EQ(ibcc_mvcm_step(&a, NULL, HOT), -1);
}

static void test_single_flow_step(void)
{
    ibcc_mvcm a;
    ibcc_mvcm_flow f;
    mk(&a, 2, 8, 1, 0);
    ibcc_mvcm_flow_reset(&a, &f);
    T_EQU(f.dw, 2);
    ibcc_mvcm_step(&a, &f, HOT);
    ibcc_mvcm_step(&a, &f, HOT);
    ibcc_mvcm_step(&a, &f, HOT);
    ibcc_mvcm_step(&a, &f, HOT);
    T_EQU(f.dw, 1);
    T_EQU(f.nws, 8);                     /* 1, x8 once (n = 1), stays */
    T_EQU(ibcc_mvcm_window(&a, 0), 2);   /* the agent's flows untouched */
}

static void test_variants(void)
{
    ibcc_mvcm a;
    int i;
    /* no warm marking */
    mk(&a, 3, 4, 2, IBCC_MVCM_NO_WARM);
    STEP(&a, WARM, 3, 0);
    STEP(&a, HOT, 2, 0);
    STEP(&a, WARM, 2, 0);
    /* cold ACKs grow the window at once (no waiting slots in force) */
    STEP(&a, COLD, 3, 0);
    STEP(&a, COLD, 3, 0);
    /* no cap: 1, 4, 16, ... 4^15, then saturation at 2^32 - 1 */
    mk(&a, 1, 4, 2, IBCC_MVCM_NO_CAP);
    STEP(&a, HOT, 1, 1);
    for (i = 0; i < 15; i++) ibcc_mvcm_on_ack(&a, 0, HOT);
    T_EQU(nws0(&a), UINT64_C(1073741824));
    STEP(&a, HOT, 1, UINT64_C(4294967295));
    STEP(&a, HOT, 1, UINT64_C(4294967295));
    T_EQU(ibcc_mvcm_wait(&a, 0), UINT64_C(4294967295) * 1000u);
    /* input marks only ([F] Fig 13): a warm ACK acts as a hot one
       (window first, then nWS 1, k, k^2 up to the cap n), VB changes
       nothing, cold ACKs recover as usual */
    mk(&a, 2, 4, 2, IBCC_MVCM_MB_ONLY);
    STEP(&a, WARM, 1, 0);
    STEP(&a, WARM, 1, 1);
    STEP(&a, HOT, 1, 4);
    STEP(&a, WARM, 1, 16);
    STEP(&a, WARM, 1, 16);               /* cap: n = 2 multiplications */
    STEP(&a, COLD, 1, 0);
    STEP(&a, COLD, 2, 0);
    STEP(&a, IBCC_VB, 2, 0);             /* VB without MB: cold */
    T_EQ(ibcc_mvcm_on_ack(&a, 0, WARM), IBCC_MVCM_HOT);
    /* with NO_WARM too, input marks still act (they are hot now) */
    mk(&a, 2, 4, 2, IBCC_MVCM_MB_ONLY | IBCC_MVCM_NO_WARM);
    STEP(&a, WARM, 1, 0);
    STEP(&a, WARM, 1, 1);
    /* waiting interval saturates */
    {
        ibcc_mvcm_desc d;
        memset(&d, 0, sizeof d);
        d.ws = IBCC_TIME_MAX / 2;
        T_EQ(ibcc_mvcm_init(&a, &d, mem_, sizeof mem_), IBCC_OK);
        ibcc_mvcm_on_ack(&a, 0, HOT);   /* DW 2 -> 1 */
        ibcc_mvcm_on_ack(&a, 0, HOT);   /* nWS 1 */
        T_EQU(ibcc_mvcm_wait(&a, 0), IBCC_TIME_MAX / 2);
        ibcc_mvcm_on_ack(&a, 0, HOT);   /* nWS 4 */
        T_EQU(ibcc_mvcm_wait(&a, 0), IBCC_TIME_MAX);
    }
}

/* The counters of ibcc_mvcm_on_ack / _on_inject_empty: ACKs by the class
   of their bits, warm ACKs that lowered DW, hot ACKs the cap held,
   resets that changed the state, the largest nWS. */
static void test_stats(void)
{
    ibcc_mvcm a;
    int i;
    mk(&a, 2, 4, 2, 0);
    T_EQU(a.stats.acks[0] + a.stats.acks[1] + a.stats.acks[2], 0);
    ibcc_mvcm_on_inject_empty(&a, 0);      /* at DWmax: no change */
    T_EQU(a.stats.resets, 0);
    STEP(&a, WARM, 1, 0);                   /* lowers DW */
    STEP(&a, WARM, 1, 0);                   /* floor: does not */
    T_EQU(a.stats.warm_shrunk, 1);
    STEP(&a, HOT, 1, 1);
    STEP(&a, HOT, 1, 4);
    STEP(&a, HOT, 1, 16);                   /* n = 2 multiplications */
    T_EQU(a.stats.ws_capped, 0);
    STEP(&a, HOT, 1, 16);
    STEP(&a, HOT, 1, 16);
    T_EQU(a.stats.ws_capped, 2);
    T_EQU(a.stats.nws_max, 16);
    T_EQU(a.stats.ws_flows, 1);             /* flow 0, counted once */
    STEP(&a, COLD, 1, 0);
    T_EQU(a.stats.acks[IBCC_MVCM_COLD], 1);
    T_EQU(a.stats.acks[IBCC_MVCM_WARM], 2);
    T_EQU(a.stats.acks[IBCC_MVCM_HOT], 5);
    ibcc_mvcm_on_inject_empty(&a, 0);      /* DW 1 -> 2: a reset */
    ibcc_mvcm_on_inject_empty(&a, 0);      /* nothing left to reset */
    T_EQU(a.stats.resets, 1);
    /* a flow that had waiting slots before a reset is not counted again;
       another flow is */
    ibcc_mvcm_on_ack(&a, 0, HOT);           /* DW 2 -> 1 */
    ibcc_mvcm_on_ack(&a, 0, HOT);           /* nWS 1 again */
    T_EQU(a.stats.ws_flows, 1);
    ibcc_mvcm_on_ack(&a, 1, HOT);
    T_EQU(a.stats.ws_flows, 1);             /* flow 1: DW 2 -> 1 only */
    ibcc_mvcm_on_ack(&a, 1, HOT);
    T_EQU(a.stats.ws_flows, 2);
    /* the variants: NO_WARM never lowers DW; NO_CAP never holds nWS;
       MB_ONLY counts a warm ACK under its bits (warm) but acts as hot */
    mk(&a, 2, 4, 1, IBCC_MVCM_NO_WARM | IBCC_MVCM_NO_CAP);
    STEP(&a, WARM, 2, 0);
    T_EQU(a.stats.warm_shrunk, 0);
    for (i = 0; i < 5; i++) ibcc_mvcm_on_ack(&a, 0, HOT);
    T_EQU(a.stats.ws_capped, 0);
    T_EQU(a.stats.nws_max, 64);
    mk(&a, 2, 4, 1, IBCC_MVCM_MB_ONLY);
    STEP(&a, WARM, 1, 0);
    STEP(&a, WARM, 1, 1);
    T_EQU(a.stats.acks[IBCC_MVCM_WARM], 2);
    T_EQU(a.stats.acks[IBCC_MVCM_HOT], 0);
    T_EQU(a.stats.warm_shrunk, 0);          /* applied as hot */
    /* out-of-range flows count nothing */
    T_EQ(ibcc_mvcm_on_ack(&a, 9, HOT), -1);
    T_EQU(a.stats.acks[IBCC_MVCM_HOT], 0);
}

static void test_desc(void)
{
    ibcc_mvcm_desc d;
    ibcc_mvcm a;
    memset(&d, 0, sizeof d);
    T_EQ(ibcc_mvcm_defaults(&d), IBCC_ERR_RANGE);   /* ws is required */
    d.ws = 5;
    T_EQ(ibcc_mvcm_defaults(&d), IBCC_OK);
    T_EQ(d.flows, 1); T_EQ(d.dw_max, 2); T_EQ(d.k, 4); T_EQ(d.n, 3);
    T_SIZE_EQ(ibcc_mvcm_size, &d, 16);
    T_EQ(ibcc_mvcm_defaults(NULL), IBCC_ERR_NULL);
    T_SIZE_ERR(ibcc_mvcm_size, NULL, IBCC_ERR_NULL);
    d.flows = 0x80000000u;
    T_EQ(ibcc_mvcm_defaults(&d), IBCC_ERR_CAPACITY);
    T_SIZE_ERR(ibcc_mvcm_size, &d, IBCC_ERR_CAPACITY);
    d.flows = 1; d.dw_max = 65536;
    T_EQ(ibcc_mvcm_defaults(&d), IBCC_ERR_RANGE);
    d.dw_max = 2; d.k = 1;
    T_EQ(ibcc_mvcm_defaults(&d), IBCC_ERR_RANGE);
    d.k = 65536;
    T_EQ(ibcc_mvcm_defaults(&d), IBCC_ERR_RANGE);
    d.k = 4; d.n = 65;
    T_EQ(ibcc_mvcm_defaults(&d), IBCC_ERR_RANGE);
    d.n = 3; d.flags = 8;
    T_EQ(ibcc_mvcm_defaults(&d), IBCC_ERR_RANGE);
    d.flags = IBCC_MVCM_NO_WARM | IBCC_MVCM_NO_CAP | IBCC_MVCM_MB_ONLY;
    T_EQ(ibcc_mvcm_defaults(&d), IBCC_OK);
    d.flags = 0; d.flows = 3;
    T_EQ(ibcc_mvcm_init(NULL, &d, mem_, sizeof mem_), IBCC_ERR_NULL);
    T_EQ(ibcc_mvcm_init(&a, NULL, mem_, sizeof mem_), IBCC_ERR_NULL);
    T_EQ(ibcc_mvcm_init(&a, &d, NULL, sizeof mem_), IBCC_ERR_NULL);
    T_EQ(ibcc_mvcm_init(&a, &d, (char *)mem_ + 4, 100), IBCC_ERR_ALIGN);
    T_EQ(ibcc_mvcm_init(&a, &d, mem_, 35), IBCC_ERR_NOMEM);
    T_EQ(ibcc_mvcm_init(&a, &d, mem_, t_size_mvcm(&d)), IBCC_OK);
    d.ws = 0;
    T_EQ(ibcc_mvcm_init(&a, &d, mem_, sizeof mem_), IBCC_ERR_RANGE);
}

static void test_omega(void)
{
    double w, lo, hi;
    uint32_t dw = 0;
    ibcc_time rtt;
    /* [F]-like numbers: 3 hops, t_hop 20 ns at 1 GB/s (20 bytes), 256 B
       payload + 22 B header = 278 B data, 22 B ACK:
       omega = (2*3*20 + 278 + 22) / 278 = 420 / 278 */
    T_NEAR(ibcc_mvcm_hop_bytes(IBCC_NS(20), IBCC_GBYTES(1)), 20.0, 1e-12);
    T_EQ(ibcc_mvcm_omega(3, 20.0, 278.0, 22.0, &w), IBCC_OK);
    T_NEAR(w, 420.0 / 278.0, 1e-15);
    T_EQ(ibcc_mvcm_dw_max(w, &dw), IBCC_OK);
    T_EQU(dw, 2);
    /* variable payloads 256..1024: K = 120 + 22 = 142;
       lo = (142 + 1046) / 1046, hi = (142 + 278) / 278 */
    T_EQ(ibcc_mvcm_omega_bounds(3, 20.0, 278.0, 1046.0, 22.0, &lo, &hi), IBCC_OK);
    T_NEAR(lo, 1188.0 / 1046.0, 1e-15);
    T_NEAR(hi, 420.0 / 278.0, 1e-15);
    /* omega = RTTmin * B / L_data: 2*3*20 ns + 278 ns + 22 ns = 420 ns */
    T_EQ(ibcc_mvcm_rtt_min(3, IBCC_NS(20), IBCC_GBYTES(1), 278, 22, &rtt), IBCC_OK);
    T_EQU(rtt, IBCC_NS(420));
    /* [F] 4.3's own example: 4-ary 5-fly, h = 9, t_hop 3 cycles at
       1 byte/cycle, L_ack = L_head = 22: K = 76, omega = 354/278 = 1.27
       (payload 256; [F] prints 1.28), DWmax 2; the bound for a payload
       tending to 0 is 98/22 = 4.45; at 16 bytes/cycle omega = 1164/278 =
       4.19 ([F]: 4.18), DWmax 5; RTTmin = 354 cycles */
    T_EQ(ibcc_mvcm_omega(9, ibcc_mvcm_hop_bytes(IBCC_NS(3), IBCC_GBYTES(1)),
                         278.0, 22.0, &w), IBCC_OK);
    T_NEAR(w, 354.0 / 278.0, 1e-12);
    T_EQ(ibcc_mvcm_dw_max(w, &dw), IBCC_OK);
    T_EQU(dw, 2);
    T_EQ(ibcc_mvcm_omega_bounds(9, 3.0, 22.0, 278.0, 22.0, &lo, &hi), IBCC_OK);
    T_NEAR(hi, 98.0 / 22.0, 1e-12);
    T_NEAR(lo, 354.0 / 278.0, 1e-12);
    T_EQ(ibcc_mvcm_omega(9, ibcc_mvcm_hop_bytes(IBCC_NS(3), IBCC_GBYTES(16)),
                         278.0, 22.0, &w), IBCC_OK);
    T_NEAR(w, (2.0 * 9 * 3 * 16 + 300.0) / 278.0, 1e-12);
    T_EQ(ibcc_mvcm_dw_max(w, &dw), IBCC_OK);
    T_EQU(dw, 5);
    T_EQ(ibcc_mvcm_rtt_min(9, IBCC_NS(3), IBCC_GBYTES(1), 278, 22, &rtt), IBCC_OK);
    T_EQU(rtt, IBCC_NS(354));
    /* dw_max rounding */
    T_EQ(ibcc_mvcm_dw_max(1.0, &dw), IBCC_OK); T_EQU(dw, 1);
    T_EQ(ibcc_mvcm_dw_max(2.0, &dw), IBCC_OK); T_EQU(dw, 2);
    T_EQ(ibcc_mvcm_dw_max(2.0 + 1e-12, &dw), IBCC_OK); T_EQU(dw, 2);
    T_EQ(ibcc_mvcm_dw_max(2.00001, &dw), IBCC_OK); T_EQU(dw, 3);
    T_EQ(ibcc_mvcm_dw_max(65535.5, &dw), IBCC_ERR_RANGE);
    T_EQ(ibcc_mvcm_dw_max(0.99, &dw), IBCC_ERR_RANGE);
    T_EQ(ibcc_mvcm_dw_max(65536.0, &dw), IBCC_ERR_RANGE);
    T_EQ(ibcc_mvcm_dw_max(NAN, &dw), IBCC_ERR_RANGE);
    T_EQ(ibcc_mvcm_dw_max(2.0, NULL), IBCC_ERR_NULL);
    /* errors */
    T_EQ(ibcc_mvcm_omega(3, 20.0, 0.0, 22.0, &w), IBCC_ERR_RANGE);
    T_EQ(ibcc_mvcm_omega(3, -1.0, 278.0, 22.0, &w), IBCC_ERR_RANGE);
    T_EQ(ibcc_mvcm_omega(3, 20.0, 278.0, -1.0, &w), IBCC_ERR_RANGE);
    T_EQ(ibcc_mvcm_omega(3, NAN, 278.0, 22.0, &w), IBCC_ERR_RANGE);
    T_EQ(ibcc_mvcm_omega(3, INFINITY, 278.0, 22.0, &w), IBCC_ERR_RANGE);
    T_EQ(ibcc_mvcm_omega(3, 20.0, 278.0, 22.0, NULL), IBCC_ERR_NULL);
    T_EQ(ibcc_mvcm_omega_bounds(3, 20.0, 0.0, 10.0, 22.0, &lo, &hi), IBCC_ERR_RANGE);
    T_EQ(ibcc_mvcm_omega_bounds(3, 20.0, 20.0, 10.0, 22.0, &lo, &hi), IBCC_ERR_RANGE);
    T_EQ(ibcc_mvcm_omega_bounds(3, -2.0, 10.0, 20.0, 22.0, &lo, &hi), IBCC_ERR_RANGE);
    T_EQ(ibcc_mvcm_omega_bounds(3, 2.0, 10.0, 20.0, NAN, &lo, &hi), IBCC_ERR_RANGE);
    T_EQ(ibcc_mvcm_omega_bounds(3, 2.0, 10.0, 20.0, 22.0, NULL, &hi), IBCC_ERR_NULL);
    T_EQ(ibcc_mvcm_omega_bounds(3, 2.0, 10.0, 20.0, 22.0, &lo, NULL), IBCC_ERR_NULL);
    T_EQ(ibcc_mvcm_rtt_min(3, 1, 0, 278, 22, &rtt), IBCC_ERR_RANGE);
    T_EQ(ibcc_mvcm_rtt_min(3, 1, 1, 0, 22, &rtt), IBCC_ERR_RANGE);
    T_EQ(ibcc_mvcm_rtt_min(3, 1, 1, 278, 22, NULL), IBCC_ERR_NULL);
    T_EQ(ibcc_mvcm_rtt_min(0xffffffffu, IBCC_TIME_MAX / 4, 1000, 1, 1, &rtt),
         IBCC_ERR_OVERFLOW);
    T_EQ(ibcc_mvcm_rtt_min(1, IBCC_TIME_MAX / 2 - 1, IBCC_GBYTES(1000), 1000, 1000, &rtt),
         IBCC_ERR_OVERFLOW);
    T_EQ(ibcc_mvcm_rtt_min(1, 1, 1, 0xffffffffu, 1, &rtt), IBCC_ERR_OVERFLOW);
}

/* Regression (misuse review): finite inputs whose omega overflows to
   infinity are RANGE, not an infinite omega; dw_max boundary. */
static void test_misuse_regressions(void)
{
    double w = 0.0, lo = 0.0, hi = 0.0;
    uint32_t dw = 0;
    T_EQ(ibcc_mvcm_omega(UINT32_MAX, 1e299, 1e-10, 0.0, &w), IBCC_ERR_RANGE);
    T_CHECK(w == 0.0);
    T_EQ(ibcc_mvcm_omega_bounds(UINT32_MAX, 1e299, 1e-10, 1.0, 0.0, &lo, &hi),
         IBCC_ERR_RANGE);
    T_EQ(ibcc_mvcm_dw_max(65535.0 + 1e-10, &dw), IBCC_OK);
    T_EQU(dw, 65535);
    T_EQ(ibcc_mvcm_dw_max(65535.5, &dw), IBCC_ERR_RANGE);
}

int main(void)
{
    T_RUN(test_class);
    T_RUN(test_sequence);
    T_RUN(test_single_flow_step);
    T_RUN(test_variants);
    T_RUN(test_stats);
    T_RUN(test_desc);
    T_RUN(test_omega);
    T_RUN(test_misuse_regressions);
    return t_summary();
}
