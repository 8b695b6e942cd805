/* Tests of the switch marking engines (L1 marker): hand-worked sequences
   with exact expected marks for every engine, both classifications, the
   IBA parameters, MVPM's class invariant, desc validation and the
   rejected-event (unmatched departure) handling. */
#ifndef IBCC_TEST_LINKED   /* make test links one implementation object */
#define IBCC_IMPLEMENTATION
#endif
#include "ibcc.h"
#include "t.h"

static uint64_t mem_[1 << 16];

/* Initialises *m from *d on the static memory; returns the init result. */
static ibcc_result mk(ibcc_marker *m, const ibcc_marker_desc *d)
{
    size_t need = t_size_marker(d);
    if (need == 0 || need > sizeof mem_) return IBCC_ERR_CAPACITY;
    return ibcc_marker_init(m, d, mem_, need);
}

static ibcc_marker_desc desc(ibcc_marker_engine e, uint32_t ports,
                             uint32_t cap)
{
    ibcc_marker_desc d;
    memset(&d, 0, sizeof d);
    d.engine = e;
    d.ports = ports;
    d.in_capacity = cap;
    return d;
}

#define SZ 2068u /* [S02] data packet: 20-byte header + 2048 payload */

static void test_defaults(void)
{
    ibcc_marker_desc d;
    memset(&d, 0, sizeof d);
    T_EQ(ibcc_marker_defaults(&d), IBCC_OK);
    T_EQ(d.engine, IBCC_MARKER_NONE);
    T_EQU(d.ports, 8);
    T_EQU(d.in_capacity, 4);
    T_EQU(d.out_capacity, 28);       /* the 7 other input buffers */
    T_EQU(d.trigger, 4);
    T_EQU(d.t_out, 8);
    T_EQU(d.mvpm_in_threshold, 2);   /* 4*2/3 */
    T_EQU(d.mvpm_out_threshold, 9);  /* 28/3 */
    T_EQU(d.iba_threshold, 0);
    memset(&d, 0, sizeof d);
    d.unit = IBCC_UNIT_CREDITS;
    T_EQ(ibcc_marker_defaults(&d), IBCC_OK);
    T_EQU(d.in_capacity, 128);
    T_EQU(d.out_capacity, 896);      /* 7 * 128 */
    T_EQU(d.mvpm_in_threshold, 85);  /* 256/3 */
    T_EQU(d.mvpm_out_threshold, 298);/* 896/3 */
    memset(&d, 0, sizeof d);
    d.unit = IBCC_UNIT_CREDITS;
    d.org = IBCC_ORG_CIOQ;           /* its own output buffer */
    T_EQ(ibcc_marker_defaults(&d), IBCC_OK);
    T_EQU(d.out_capacity, 128);
    T_EQU(d.mvpm_out_threshold, 42); /* 128/3 */
    memset(&d, 0, sizeof d);
    d.ports = 1;
    T_EQ(ibcc_marker_defaults(&d), IBCC_OK);
    T_EQU(d.out_capacity, 4);
    memset(&d, 0, sizeof d);
    d.in_capacity = 12; d.out_capacity = 12;
    T_EQ(ibcc_marker_defaults(&d), IBCC_OK);
    T_EQU(d.mvpm_in_threshold, 8);
    T_EQU(d.mvpm_out_threshold, 4);
    T_STREQ(ibcc_marker_engine_name(IBCC_MARKER_INPUT_OUTPUT), "input-output");
    T_STREQ(ibcc_marker_engine_name(IBCC_MARKER_NAIVE), "naive");
    T_STREQ(ibcc_marker_engine_name(IBCC_MARKER_MVPM), "mvpm");
    T_STREQ(ibcc_marker_engine_name(IBCC_MARKER_IBA), "iba");
    T_STREQ(ibcc_marker_engine_name(IBCC_MARKER_INPUT), "input");
    T_STREQ(ibcc_marker_engine_name(IBCC_MARKER_NONE), "none");
    T_STREQ(ibcc_marker_engine_name(IBCC_MARKER_ECN), "ecn");
    T_STREQ(ibcc_marker_engine_name((ibcc_marker_engine)9), "?");
}

/* Every invalid field is rejected with its code by defaults, size and
   init, and defaults leaves the desc untouched. */
static void check_bad(ibcc_marker_desc d, ibcc_result want)
{
    ibcc_marker_desc copy = d;
    ibcc_marker m;
    T_EQ(ibcc_marker_defaults(&d), want);
    T_CHECK(memcmp(&d, &copy, sizeof d) == 0);
    T_SIZE_ERR(ibcc_marker_size, &d, want);
    T_EQ(ibcc_marker_init(&m, &d, mem_, sizeof mem_), want);
}

static void test_invalid_desc(void)
{
    ibcc_marker_desc d, z;
    ibcc_marker m;
    memset(&z, 0, sizeof z);
    d = z; d.engine = (ibcc_marker_engine)7; check_bad(d, IBCC_ERR_RANGE);
    d = z; d.engine = IBCC_MARKER_ECN; check_bad(d, IBCC_ERR_UNSUPPORTED);  /* packets */
    d = z; d.engine = IBCC_MARKER_ECN; d.unit = IBCC_UNIT_CREDITS; d.ecn_kmin = 300000;
    check_bad(d, IBCC_ERR_RANGE);                     /* above the default Kmax */
    d = z; d.unit = (ibcc_buffer_unit)2; check_bad(d, IBCC_ERR_RANGE);
    d = z; d.org = (ibcc_switch_org)2; check_bad(d, IBCC_ERR_RANGE);
    d = z; d.classify = (ibcc_classify)2; check_bad(d, IBCC_ERR_RANGE);
    d = z; d.ports = 257; check_bad(d, IBCC_ERR_CAPACITY);
    d = z; d.in_capacity = 65536; check_bad(d, IBCC_ERR_CAPACITY);
    d = z; d.out_capacity = IBCC_MARKER_MAX_OUT + 1u;
    check_bad(d, IBCC_ERR_CAPACITY);
    d = z; d.in_capacity = 65535; d.ports = 256;   /* default 255 * 65535 */
    T_EQ(ibcc_marker_defaults(&d), IBCC_OK);
    T_EQU(d.out_capacity, 255u * 65535u);
    d = z; d.trigger = 5; check_bad(d, IBCC_ERR_RANGE);          /* > cap 4 */
    d = z; d.t_out = 0x80000001u; check_bad(d, IBCC_ERR_RANGE);
    d = z; d.mvpm_in_threshold = 5; check_bad(d, IBCC_ERR_RANGE);
    d = z; d.mvpm_out_threshold = 29; check_bad(d, IBCC_ERR_RANGE); /* > 28 */
    d = z; d.iba_threshold = 16; check_bad(d, IBCC_ERR_RANGE);
    d = z; d.iba_packet_size = 256; check_bad(d, IBCC_ERR_RANGE);
    d = z; d.iba_marking_rate = 65536; check_bad(d, IBCC_ERR_RANGE);
    d = z; d.victim_mask[0] = 1u << 8; check_bad(d, IBCC_ERR_RANGE); /* 8 ports */
    d = z; d.victim_mask[7] = 0x80000000u; check_bad(d, IBCC_ERR_RANGE);
    /* boundaries that are valid */
    d = z; d.ports = 256; d.victim_mask[7] = 0x80000000u; d.iba_threshold = 15;
    d.iba_packet_size = 255; d.iba_marking_rate = 65535; d.trigger = 4;
    T_EQ(ibcc_marker_defaults(&d), IBCC_OK);
    d = z; d.ports = 40; d.victim_mask[1] = 0xffu;   /* ports 32..39 */
    T_EQ(ibcc_marker_defaults(&d), IBCC_OK);
    d = z; d.ports = 40; d.victim_mask[1] = 0x100u;  /* port 40 */
    T_EQ(ibcc_marker_defaults(&d), IBCC_ERR_RANGE);
    /* NULL, alignment, memory */
    d = z;
    T_EQ(ibcc_marker_defaults(NULL), IBCC_ERR_NULL);
    T_SIZE_ERR(ibcc_marker_size, NULL, IBCC_ERR_NULL);
    T_EQ(ibcc_marker_init(NULL, &d, mem_, sizeof mem_), IBCC_ERR_NULL);
    T_EQ(ibcc_marker_init(&m, NULL, mem_, sizeof mem_), IBCC_ERR_NULL);
    T_EQ(ibcc_marker_init(&m, &d, NULL, sizeof mem_), IBCC_ERR_NULL);
    T_EQ(ibcc_marker_init(&m, &d, (char *)mem_ + 4, sizeof mem_ - 8), IBCC_ERR_ALIGN);
    T_EQ(ibcc_marker_init(&m, &d, mem_, t_size_marker(&d) - 1), IBCC_ERR_NOMEM);
    T_EQ(ibcc_marker_init(&m, &d, mem_, t_size_marker(&d)), IBCC_OK);
    /* NAIVE needs its per-(in, out) counters: more memory */
    d.engine = IBCC_MARKER_NAIVE;
    T_CHECK(t_size_marker(&d) > t_size_marker(&z));
    T_EQU(t_size_marker(&d) - t_size_marker(&z), 8 * 8 * 2);
}

static void test_units(void)
{
    ibcc_marker m;
    ibcc_marker_desc d = desc(IBCC_MARKER_NONE, 4, 132);
    d.unit = IBCC_UNIT_CREDITS;
    T_EQ(mk(&m, &d), IBCC_OK);
    T_EQU(ibcc_marker_units(&m, 0), 1);
    T_EQU(ibcc_marker_units(&m, 1), 1);
    T_EQU(ibcc_marker_units(&m, 64), 1);
    T_EQU(ibcc_marker_units(&m, 65), 2);
    T_EQU(ibcc_marker_units(&m, 2068), 33);
    T_EQU(ibcc_marker_units(&m, 2048), 32);
    /* 4 packets of 33 credits fill 132 credits; a fifth is rejected */
    T_EQU(ibcc_marker_arrive(&m, 0, 1, SZ), 0);
    T_EQU(ibcc_marker_arrive(&m, 0, 1, SZ), 0);
    T_EQU(ibcc_marker_arrive(&m, 0, 2, SZ), 0);
    T_EQU(ibcc_marker_arrive(&m, 0, 2, SZ), 0);
    T_EQU(ibcc_marker_occupancy(&m, 0), 132);
    T_EQU(ibcc_marker_packets(&m, 0), 4);
    T_EQU(ibcc_marker_level(&m, 1), 66);
    T_EQU(ibcc_marker_errors(&m, NULL), 0);
    T_EQU(ibcc_marker_arrive(&m, 0, 1, 1), 0);
    T_EQU(ibcc_marker_errors(&m, NULL), 1);
    T_EQU(ibcc_marker_occupancy(&m, 0), 132);
    T_EQU(ibcc_marker_cnt1(&m, 1), 2);
    d.unit = IBCC_UNIT_PACKETS;
    T_EQ(mk(&m, &d), IBCC_OK);
    T_EQU(ibcc_marker_units(&m, 100000), 1);
}

/* The worked example of docs/marker.md: 4-port switch, 4-slot buffers.
   E (in1->o1), F (in1->o3) wait; then A (o1), B (o2), C (o1), D (o1) fill
   input 0. D's arrival triggers: outputs {1, 2} have a packet in input 0,
   so cnt2[1] = cnt1[1] = 4 (E, A, C, D) and cnt2[2] = 1 (B). */
static void fill_example(ibcc_marker *m)
{
    T_EQU(ibcc_marker_arrive(m, 1, 1, SZ), 0); /* E */
    T_EQU(ibcc_marker_arrive(m, 1, 3, SZ), 0); /* F */
    T_EQU(ibcc_marker_arrive(m, 0, 1, SZ), 0); /* A */
    T_EQU(ibcc_marker_arrive(m, 0, 2, SZ), 0); /* B */
    T_EQU(ibcc_marker_arrive(m, 0, 1, SZ), 0); /* C */
}

static void test_input_basic(void)
{
    ibcc_marker m;
    ibcc_marker_desc d = desc(IBCC_MARKER_INPUT, 4, 4);
    T_EQ(mk(&m, &d), IBCC_OK);
    fill_example(&m);
    T_EQU(ibcc_marker_cnt2(&m, 1), 0);
    T_EQU(ibcc_marker_get_stats(&m).in_triggers, 0);
    T_EQU(ibcc_marker_arrive(&m, 0, 1, SZ), 0);    /* D fills input 0 */
    T_EQU(ibcc_marker_get_stats(&m).in_triggers, 1);
    T_EQU(ibcc_marker_get_stats(&m).out_triggers, 2);
    T_EQU(ibcc_marker_cnt1(&m, 1), 4);
    T_EQU(ibcc_marker_cnt2(&m, 1), 4);
    T_EQU(ibcc_marker_cnt2(&m, 2), 1);
    T_EQU(ibcc_marker_cnt2(&m, 3), 0);             /* F's output: not in input 0 */
    T_EQU(ibcc_marker_waiting(&m, 0, 1), 3);
    T_EQU(ibcc_marker_depart(&m, 1, 1, SZ, 0, 1), IBCC_FECN); /* E */
    T_EQU(ibcc_marker_depart(&m, 1, 3, SZ, 0, 1), 0);         /* F */
    T_EQU(ibcc_marker_depart(&m, 0, 1, SZ, 0, 1), IBCC_FECN); /* A */
    T_EQU(ibcc_marker_depart(&m, 0, 2, SZ, 0, 1), IBCC_FECN); /* B */
    T_EQU(ibcc_marker_cnt2(&m, 2), 0);
    T_EQU(ibcc_marker_arrive(&m, 2, 1, SZ), 0);    /* G: after the trigger */
    T_EQU(ibcc_marker_cnt1(&m, 1), 3);
    T_EQU(ibcc_marker_cnt2(&m, 1), 2);
    T_EQU(ibcc_marker_depart(&m, 0, 1, SZ, 0, 1), IBCC_FECN); /* C */
    T_EQU(ibcc_marker_depart(&m, 0, 1, SZ, 0, 1), IBCC_FECN); /* D */
    T_EQU(ibcc_marker_depart(&m, 2, 1, SZ, 0, 1), 0);         /* G */
    T_EQU(ibcc_marker_get_stats(&m).fecn, 5);
    T_EQU(ibcc_marker_cnt1(&m, 1), 0);
    T_EQU(ibcc_marker_errors(&m, NULL), 0);
}

/* Counter version marks the first packets to leave: G (arrived after the
   trigger) leaves first and is marked; D, the last resident, is not. */
static void test_input_out_of_order(void)
{
    ibcc_marker m;
    ibcc_marker_desc d = desc(IBCC_MARKER_INPUT, 4, 4);
    T_EQ(mk(&m, &d), IBCC_OK);
    fill_example(&m);
    ibcc_marker_arrive(&m, 0, 1, SZ);              /* D: cnt2[1] = 4 */
    T_EQU(ibcc_marker_arrive(&m, 2, 1, SZ), 0);    /* G */
    T_EQU(ibcc_marker_depart(&m, 2, 1, SZ, 0, 1), IBCC_FECN); /* G */
    T_EQU(ibcc_marker_depart(&m, 0, 1, SZ, 0, 1), IBCC_FECN); /* A */
    T_EQU(ibcc_marker_depart(&m, 0, 1, SZ, 0, 1), IBCC_FECN); /* C */
    T_EQU(ibcc_marker_depart(&m, 1, 1, SZ, 0, 1), IBCC_FECN); /* E */
    T_EQU(ibcc_marker_depart(&m, 0, 1, SZ, 0, 1), 0);         /* D */
    T_EQU(ibcc_marker_depart(&m, 0, 2, SZ, 0, 1), IBCC_FECN); /* B */
}

/* Re-trigger before cnt2 reaches 0 copies (3), it does not add (2+3). */
static void test_input_retrigger(void)
{
    ibcc_marker m;
    ibcc_marker_desc d = desc(IBCC_MARKER_INPUT, 4, 4);
    T_EQ(mk(&m, &d), IBCC_OK);
    fill_example(&m);
    ibcc_marker_arrive(&m, 0, 1, SZ);              /* D: cnt2[1] = 4 */
    T_EQU(ibcc_marker_depart(&m, 1, 1, SZ, 0, 1), IBCC_FECN); /* E */
    T_EQU(ibcc_marker_depart(&m, 0, 1, SZ, 0, 1), IBCC_FECN); /* A */
    T_EQU(ibcc_marker_cnt2(&m, 1), 2);
    T_EQU(ibcc_marker_arrive(&m, 0, 1, SZ), 0);    /* H fills input 0 again */
    T_EQU(ibcc_marker_get_stats(&m).in_triggers, 2);
    T_EQU(ibcc_marker_cnt2(&m, 1), 3);             /* C, D, H */
    T_EQU(ibcc_marker_cnt2(&m, 2), 1);             /* B again */
    T_EQU(ibcc_marker_depart(&m, 0, 1, SZ, 0, 1), IBCC_FECN); /* C */
    T_EQU(ibcc_marker_depart(&m, 0, 1, SZ, 0, 1), IBCC_FECN); /* D */
    T_EQU(ibcc_marker_arrive(&m, 3, 1, SZ), 0);    /* I */
    T_EQU(ibcc_marker_depart(&m, 0, 1, SZ, 0, 1), IBCC_FECN); /* H */
    T_EQU(ibcc_marker_depart(&m, 3, 1, SZ, 0, 1), 0);         /* I */
    T_EQU(ibcc_marker_depart(&m, 0, 2, SZ, 0, 1), IBCC_FECN); /* B */
    T_EQU(ibcc_marker_depart(&m, 1, 3, SZ, 0, 1), 0);         /* F */
    T_EQU(ibcc_marker_get_stats(&m).fecn, 6);
}

/* BUSY classification: only output 2 is reported busy at the trigger. */
static void test_input_busy(void)
{
    ibcc_marker m;
    ibcc_marker_desc d = desc(IBCC_MARKER_INPUT, 4, 4);
    d.classify = IBCC_CLASSIFY_BUSY;
    T_EQ(mk(&m, &d), IBCC_OK);
    ibcc_marker_set_busy(&m, 2, 1);
    ibcc_marker_set_busy(&m, 3, 1);                /* busy but not in input 0 */
    fill_example(&m);
    ibcc_marker_arrive(&m, 0, 1, SZ);              /* D */
    T_EQU(ibcc_marker_cnt2(&m, 1), 0);
    T_EQU(ibcc_marker_cnt2(&m, 2), 1);
    T_EQU(ibcc_marker_cnt2(&m, 3), 0);
    T_EQU(ibcc_marker_get_stats(&m).out_triggers, 1);
    T_EQU(ibcc_marker_depart(&m, 0, 1, SZ, 0, 1), 0);
    T_EQU(ibcc_marker_depart(&m, 0, 2, SZ, 0, 1), IBCC_FECN);
    /* output 1 becomes busy, output 2 free; a new fill triggers only 1 */
    ibcc_marker_set_busy(&m, 1, 1);
    ibcc_marker_set_busy(&m, 2, 0);
    ibcc_marker_arrive(&m, 0, 2, SZ);
    ibcc_marker_arrive(&m, 0, 1, SZ);              /* full: C, D, J, K */
    T_EQU(ibcc_marker_cnt2(&m, 1), 4);             /* E, C, D, K */
    T_EQU(ibcc_marker_cnt2(&m, 2), 0);
    /* same run with ALL triggers both */
    d.classify = IBCC_CLASSIFY_ALL;
    T_EQ(mk(&m, &d), IBCC_OK);
    ibcc_marker_set_busy(&m, 2, 1);
    fill_example(&m);
    ibcc_marker_arrive(&m, 0, 1, SZ);
    T_EQU(ibcc_marker_cnt2(&m, 1), 4);
    T_EQU(ibcc_marker_cnt2(&m, 2), 1);
    /* set_busy out of range is a rejected event */
    ibcc_marker_set_busy(&m, 4, 1);
    {
        ibcc_result last;
        T_EQU(ibcc_marker_errors(&m, &last), 1);
        T_EQ(last, IBCC_ERR_RANGE);
    }
}

static void test_naive(void)
{
    ibcc_marker m;
    ibcc_marker_desc d = desc(IBCC_MARKER_NAIVE, 4, 4);
    T_EQ(mk(&m, &d), IBCC_OK);
    fill_example(&m);
    T_EQU(ibcc_marker_arrive(&m, 0, 1, SZ), 0);    /* D fills input 0 */
    T_EQU(ibcc_marker_naive_pending(&m, 0, 1), 3); /* A, C, D */
    T_EQU(ibcc_marker_naive_pending(&m, 0, 2), 1); /* B */
    T_EQU(ibcc_marker_naive_pending(&m, 1, 1), 0);
    T_EQU(ibcc_marker_cnt2(&m, 1), 0);             /* naive has no cnt2 */
    /* E and F are in input 1, not full: not marked */
    T_EQU(ibcc_marker_depart(&m, 1, 1, SZ, 0, 1), 0);
    T_EQU(ibcc_marker_depart(&m, 0, 1, SZ, 0, 1), IBCC_FECN); /* A */
    T_EQU(ibcc_marker_depart(&m, 0, 2, SZ, 0, 1), IBCC_FECN); /* B */
    T_EQU(ibcc_marker_arrive(&m, 0, 1, SZ), 0);    /* I: occupancy 3, no trigger */
    T_EQU(ibcc_marker_get_stats(&m).in_triggers, 1);
    T_EQU(ibcc_marker_depart(&m, 0, 1, SZ, 0, 1), IBCC_FECN); /* C */
    T_EQU(ibcc_marker_depart(&m, 0, 1, SZ, 0, 1), IBCC_FECN); /* D */
    T_EQU(ibcc_marker_depart(&m, 0, 1, SZ, 0, 1), 0);         /* I */
    T_EQU(ibcc_marker_depart(&m, 1, 3, SZ, 0, 1), 0);         /* F */
    T_EQU(ibcc_marker_get_stats(&m).fecn, 4);
    T_EQU(ibcc_marker_errors(&m, NULL), 0);
}

/* Packets of the full buffer leave in an order different from arrival
   across outputs (B before A): every one is still marked exactly once. */
static void test_naive_out_of_order_and_retrigger(void)
{
    ibcc_marker m;
    ibcc_marker_desc d = desc(IBCC_MARKER_NAIVE, 4, 4);
    T_EQ(mk(&m, &d), IBCC_OK);
    fill_example(&m);
    ibcc_marker_arrive(&m, 0, 1, SZ);                         /* D */
    T_EQU(ibcc_marker_depart(&m, 0, 2, SZ, 0, 1), IBCC_FECN); /* B first */
    T_EQU(ibcc_marker_depart(&m, 0, 1, SZ, 0, 1), IBCC_FECN); /* A */
    T_EQU(ibcc_marker_arrive(&m, 0, 3, SZ), 0);               /* J: occ 3 */
    T_EQU(ibcc_marker_arrive(&m, 0, 1, SZ), 0);               /* K: full again */
    T_EQU(ibcc_marker_get_stats(&m).in_triggers, 2);
    T_EQU(ibcc_marker_naive_pending(&m, 0, 1), 3);            /* C, D, K: copy */
    T_EQU(ibcc_marker_naive_pending(&m, 0, 3), 1);            /* J */
    T_EQU(ibcc_marker_depart(&m, 0, 3, SZ, 0, 1), IBCC_FECN); /* J */
    T_EQU(ibcc_marker_depart(&m, 0, 1, SZ, 0, 1), IBCC_FECN);
    T_EQU(ibcc_marker_depart(&m, 0, 1, SZ, 0, 1), IBCC_FECN);
    T_EQU(ibcc_marker_depart(&m, 0, 1, SZ, 0, 1), IBCC_FECN);
    T_EQU(ibcc_marker_get_stats(&m).fecn, 6);
    T_EQU(ibcc_marker_packets(&m, 0), 0);
}

/* Trigger level 3 of capacity 4: the 3rd and the 4th arrival trigger. */
static void test_naive_trigger_level(void)
{
    ibcc_marker m;
    ibcc_marker_desc d = desc(IBCC_MARKER_NAIVE, 4, 4);
    d.trigger = 3;
    T_EQ(mk(&m, &d), IBCC_OK);
    ibcc_marker_arrive(&m, 0, 1, SZ);
    ibcc_marker_arrive(&m, 0, 2, SZ);
    T_EQU(ibcc_marker_get_stats(&m).in_triggers, 0);
    ibcc_marker_arrive(&m, 0, 1, SZ);
    T_EQU(ibcc_marker_get_stats(&m).in_triggers, 1);
    T_EQU(ibcc_marker_naive_pending(&m, 0, 1), 2);
    T_EQU(ibcc_marker_naive_pending(&m, 0, 2), 1);
    ibcc_marker_arrive(&m, 0, 1, SZ);
    T_EQU(ibcc_marker_get_stats(&m).in_triggers, 2);
    T_EQU(ibcc_marker_naive_pending(&m, 0, 1), 3);
    T_EQU(ibcc_marker_depart(&m, 0, 1, SZ, 0, 1), IBCC_FECN);
    T_EQU(ibcc_marker_depart(&m, 0, 1, SZ, 0, 1), IBCC_FECN);
    T_EQU(ibcc_marker_depart(&m, 0, 2, SZ, 0, 1), IBCC_FECN);
    T_EQU(ibcc_marker_depart(&m, 0, 1, SZ, 0, 1), IBCC_FECN);
    /* below the level again: 2 arrivals do not trigger */
    ibcc_marker_arrive(&m, 0, 1, SZ);
    ibcc_marker_arrive(&m, 0, 1, SZ);
    T_EQU(ibcc_marker_depart(&m, 0, 1, SZ, 0, 1), 0);
    T_EQU(ibcc_marker_depart(&m, 0, 1, SZ, 0, 1), 0);
    /* default trigger = capacity: 3 packets do not trigger */
    d.trigger = 0;
    T_EQ(mk(&m, &d), IBCC_OK);
    ibcc_marker_arrive(&m, 0, 1, SZ);
    ibcc_marker_arrive(&m, 0, 1, SZ);
    ibcc_marker_arrive(&m, 0, 1, SZ);
    T_EQU(ibcc_marker_get_stats(&m).in_triggers, 0);
    ibcc_marker_arrive(&m, 0, 1, SZ);
    T_EQU(ibcc_marker_get_stats(&m).in_triggers, 1);
}

/* Naive BUSY: only the packets for busy outputs are marked (the victim
   packet B for the idle output 2 is spared). */
static void test_naive_busy(void)
{
    ibcc_marker m;
    ibcc_marker_desc d = desc(IBCC_MARKER_NAIVE, 4, 4);
    d.classify = IBCC_CLASSIFY_BUSY;
    T_EQ(mk(&m, &d), IBCC_OK);
    ibcc_marker_set_busy(&m, 1, 1);
    fill_example(&m);
    ibcc_marker_arrive(&m, 0, 1, SZ);                          /* D */
    T_EQU(ibcc_marker_naive_pending(&m, 0, 1), 3);
    T_EQU(ibcc_marker_naive_pending(&m, 0, 2), 0);
    T_EQU(ibcc_marker_depart(&m, 0, 2, SZ, 0, 1), 0);          /* B spared */
    T_EQU(ibcc_marker_depart(&m, 0, 1, SZ, 0, 1), IBCC_FECN);
    T_EQU(ibcc_marker_depart(&m, 0, 1, SZ, 0, 1), IBCC_FECN);
    T_EQU(ibcc_marker_depart(&m, 0, 1, SZ, 0, 1), IBCC_FECN);
    T_EQU(ibcc_marker_get_stats(&m).fecn, 3);
}

/* Output trigger: cnt1[o] > T_out = 2 at an arrival copies cnt1. */
static void test_input_output(void)
{
    ibcc_marker m;
    ibcc_marker_desc d = desc(IBCC_MARKER_INPUT_OUTPUT, 4, 4);
    unsigned i;
    d.t_out = 2;
    T_EQ(mk(&m, &d), IBCC_OK);
    ibcc_marker_arrive(&m, 0, 1, SZ);
    ibcc_marker_arrive(&m, 1, 1, SZ);
    T_EQU(ibcc_marker_cnt2(&m, 1), 0);                         /* 2 > 2 false */
    ibcc_marker_arrive(&m, 2, 1, SZ);
    T_EQU(ibcc_marker_cnt2(&m, 1), 3);
    ibcc_marker_arrive(&m, 3, 1, SZ);
    T_EQU(ibcc_marker_cnt2(&m, 1), 4);
    T_EQU(ibcc_marker_get_stats(&m).out_triggers, 2);
    T_EQU(ibcc_marker_get_stats(&m).in_triggers, 0);
    for (i = 0; i < 4; i++)
        T_EQU(ibcc_marker_depart(&m, i, 1, SZ, 0, 1), IBCC_FECN);
    ibcc_marker_arrive(&m, 0, 1, SZ);
    T_EQU(ibcc_marker_depart(&m, 0, 1, SZ, 0, 1), 0);
    /* the input trigger still works (T_out = 8 default, never reached) */
    d.t_out = 0;
    T_EQ(mk(&m, &d), IBCC_OK);
    fill_example(&m);
    ibcc_marker_arrive(&m, 0, 1, SZ);
    T_EQU(ibcc_marker_cnt2(&m, 1), 4);
    T_EQU(ibcc_marker_cnt2(&m, 2), 1);
    /* BUSY: the input trigger is classified, the output trigger is not */
    d.t_out = 3;
    d.classify = IBCC_CLASSIFY_BUSY;
    T_EQ(mk(&m, &d), IBCC_OK);
    ibcc_marker_set_busy(&m, 2, 1);
    fill_example(&m);                                          /* cnt1[1] = 3 */
    T_EQU(ibcc_marker_cnt2(&m, 1), 0);
    ibcc_marker_arrive(&m, 0, 1, SZ);            /* D: full, cnt1[1] = 4 > 3 */
    T_EQU(ibcc_marker_cnt2(&m, 2), 1);           /* input trigger, busy */
    T_EQU(ibcc_marker_cnt2(&m, 1), 4);           /* output trigger */
    T_EQU(ibcc_marker_get_stats(&m).out_triggers, 2);
}

/* IBA: 4 ports, out_capacity 16 packets, Threshold 8 -> level 8. A
   departing packet is tested against the queue without itself. */
static void iba_setup(ibcc_marker *m, ibcc_marker_desc *d)
{
    unsigned i;
    *d = desc(IBCC_MARKER_IBA, 4, 4);
    d->out_capacity = 16;
    d->iba_threshold = 8;
    T_EQ(mk(m, d), IBCC_OK);
    for (i = 0; i < 10; i++)                      /* 10 packets for output 1 */
        T_EQU(ibcc_marker_arrive(m, i % 3u, 1, SZ), 0);
}

static void test_iba_levels(void)
{
    ibcc_marker m;
    ibcc_marker_desc d;
    unsigned w;
    iba_setup(&m, &d);
    T_EQU(ibcc_marker_iba_level(&m, 1), 8);
    for (w = 1; w <= 15; w++) {
        T_EQ(ibcc_marker_set_iba_port(&m, 0, w, 0, 0), IBCC_OK);
        T_EQU(ibcc_marker_iba_level(&m, 0), 16 - w);   /* 16*(16-w)/16 */
    }
    T_EQ(ibcc_marker_set_iba_port(&m, 0, 0, 0, 0), IBCC_OK);
    T_EQU(ibcc_marker_iba_level(&m, 0), UINT32_MAX);
    /* rounding down: capacity 10, w = 3 -> 10*13/16 = 8.125 -> 8 */
    d.out_capacity = 10;
    d.iba_threshold = 3;
    T_EQ(mk(&m, &d), IBCC_OK);
    T_EQU(ibcc_marker_iba_level(&m, 2), 8);
}

/* The Threshold -> queue level map with the default base, the input
   buffering that can feed one output (ports - 1 input buffers):
   floor(base * (16 - w) / 16) for w = 1..15, written out by hand for
   4 ports x 4 packets (base 12), 8 ports x 32 packets (224) and 4 ports
   x 128 credits (384). */
static void test_iba_threshold_map(void)
{
    static const uint32_t want[3][15] = {
        {11, 10, 9, 9, 8, 7, 6, 6, 5, 4, 3, 3, 2, 1, 0},
        {210, 196, 182, 168, 154, 140, 126, 112, 98, 84, 70, 56, 42, 28, 14},
        {360, 336, 312, 288, 264, 240, 216, 192, 168, 144, 120, 96, 72, 48,
         24}
    };
    static const uint32_t ports[3] = {4, 8, 4}, cap[3] = {4, 32, 128};
    unsigned k, w;
    for (k = 0; k < 3; k++) {
        ibcc_marker m;
        ibcc_marker_desc d = desc(IBCC_MARKER_IBA, ports[k], cap[k]);
        if (k == 2) d.unit = IBCC_UNIT_CREDITS;
        T_EQ(mk(&m, &d), IBCC_OK);
        T_EQU(m.d.out_capacity, (ports[k] - 1u) * cap[k]);
        for (w = 1; w <= 15; w++) {
            T_EQ(ibcc_marker_set_iba_port(&m, 1, w, 0, 0), IBCC_OK);
            T_EQU(ibcc_marker_iba_level(&m, 1), want[k][w - 1u]);
        }
    }
}

/* A lone flow at line rate: each packet leaves with nothing queued
   behind it for its output, so even Threshold 15 (level 0 on 4 x 4
   packets) never marks it; a second packet queued behind it does. */
static void test_iba_lone_flow(void)
{
    ibcc_marker m;
    ibcc_marker_desc d = desc(IBCC_MARKER_IBA, 4, 4);
    unsigned i;
    d.iba_threshold = 15;
    T_EQ(mk(&m, &d), IBCC_OK);
    T_EQU(ibcc_marker_iba_level(&m, 1), 0);
    for (i = 0; i < 100; i++) {
        ibcc_marker_arrive(&m, 0, 1, SZ);
        T_EQU(ibcc_marker_depart(&m, 0, 1, SZ, 0, 1), 0);
    }
    ibcc_marker_arrive(&m, 0, 1, SZ);
    ibcc_marker_arrive(&m, 2, 1, SZ);
    T_EQU(ibcc_marker_depart(&m, 0, 1, SZ, 0, 1), IBCC_FECN);
    T_EQU(ibcc_marker_depart(&m, 2, 1, SZ, 0, 1), 0);
}

static void test_iba_root_victim(void)
{
    ibcc_marker m;
    ibcc_marker_desc d;
    iba_setup(&m, &d);
    T_EQU(ibcc_marker_level(&m, 1), 10);
    T_EQ(ibcc_marker_iba_congested(&m, 1, 1), 1);
    T_EQ(ibcc_marker_iba_congested(&m, 1, 0), 0);
    /* root: 9 behind it > 8 and credits */
    T_EQU(ibcc_marker_depart(&m, 0, 1, SZ, 0, 1), IBCC_FECN);
    /* 8 behind it: not above the threshold */
    T_EQU(ibcc_marker_depart(&m, 1, 1, SZ, 0, 1), 0);
    ibcc_marker_arrive(&m, 0, 1, SZ);
    ibcc_marker_arrive(&m, 1, 1, SZ);             /* level 10 */
    /* victim: no credits -> no mark */
    T_EQU(ibcc_marker_depart(&m, 0, 1, SZ, 0, 0), 0);
    ibcc_marker_arrive(&m, 0, 1, SZ);             /* level 10 */
    T_EQ(ibcc_marker_set_victim(&m, 1, 1), IBCC_OK);
    T_EQ(ibcc_marker_iba_congested(&m, 1, 0), 1);
    T_EQU(ibcc_marker_depart(&m, 0, 1, SZ, 0, 0), IBCC_FECN);  /* Victim_Mask */
    T_EQ(ibcc_marker_set_victim(&m, 1, 0), IBCC_OK);
    ibcc_marker_arrive(&m, 0, 1, SZ);
    T_EQU(ibcc_marker_depart(&m, 0, 1, SZ, 0, 0), 0);
    /* Threshold 0 never marks */
    T_EQ(ibcc_marker_set_iba_port(&m, 1, 0, 0, 0), IBCC_OK);
    ibcc_marker_arrive(&m, 0, 1, SZ);
    T_EQU(ibcc_marker_level(&m, 1), 10);
    T_EQU(ibcc_marker_depart(&m, 0, 1, SZ, 0, 1), 0);
    /* Victim_Mask from the desc */
    d.victim_mask[0] = 1u << 1;
    T_EQ(mk(&m, &d), IBCC_OK);
    {
        unsigned i;
        for (i = 0; i < 10; i++) ibcc_marker_arrive(&m, i % 3u, 1, SZ);
    }
    T_EQU(ibcc_marker_depart(&m, 0, 1, SZ, 0, 0), IBCC_FECN);
    T_EQ(ibcc_marker_iba_congested(&m, 2, 1), 0);  /* empty output */
}

static void test_iba_packet_size(void)
{
    ibcc_marker m;
    ibcc_marker_desc d;
    iba_setup(&m, &d);
    T_EQ(ibcc_marker_set_iba_port(&m, 1, 8, 8, 0), IBCC_OK); /* 512 bytes */
    /* sizes in packets unit do not change occupancy */
    ibcc_marker_arrive(&m, 3, 1, 511);
    ibcc_marker_arrive(&m, 3, 1, 512);
    T_EQU(ibcc_marker_level(&m, 1), 12);
    T_EQU(ibcc_marker_depart(&m, 3, 1, 511, 0, 1), 0);         /* one below */
    T_EQU(ibcc_marker_depart(&m, 3, 1, 512, 0, 1), IBCC_FECN); /* exactly */
    /* Packet_Size 0: every size eligible */
    T_EQ(ibcc_marker_set_iba_port(&m, 1, 8, 0, 0), IBCC_OK);
    ibcc_marker_arrive(&m, 3, 1, 1);
    T_EQU(ibcc_marker_depart(&m, 3, 1, 1, 0, 1), IBCC_FECN);
    /* Packet_Size 255 = 16320 bytes */
    T_EQ(ibcc_marker_set_iba_port(&m, 1, 8, 255, 0), IBCC_OK);
    ibcc_marker_arrive(&m, 3, 1, 16319);
    ibcc_marker_arrive(&m, 3, 1, 16320);
    T_EQU(ibcc_marker_depart(&m, 3, 1, 16319, 0, 1), 0);
    T_EQU(ibcc_marker_depart(&m, 3, 1, 16320, 0, 1), IBCC_FECN);
}

/* Marks among n eligible departures at Marking_Rate `rate`; with `rng`
   the random variant. The output's level is kept at 10 > 8. */
static unsigned iba_run(unsigned rate, unsigned n, ibcc_rng *rng,
                        unsigned *first_marks)
{
    ibcc_marker m;
    ibcc_marker_desc d = desc(IBCC_MARKER_IBA, 4, 4);
    unsigned i, marks = 0;
    d.out_capacity = 16;
    d.iba_threshold = 8;
    d.iba_marking_rate = rate;
    d.iba_rng = rng;
    T_EQ(mk(&m, &d), IBCC_OK);
    for (i = 0; i < 9; i++) ibcc_marker_arrive(&m, i % 3u, 1, SZ);
    if (first_marks) *first_marks = 0;
    for (i = 0; i < n; i++) {
        unsigned b;
        ibcc_marker_arrive(&m, 3, 1, SZ);
        /* an ineligible (victim) departure in between never counts */
        ibcc_marker_arrive(&m, 3, 2, SZ);
        T_EQU(ibcc_marker_depart(&m, 3, 2, SZ, 0, 0), 0);
        b = ibcc_marker_depart(&m, 3, 1, SZ, 0, 1);
        if (b) { marks++; if (first_marks && i < 16) *first_marks |= 1u << i; }
    }
    T_EQU(ibcc_marker_errors(&m, NULL), 0);
    T_EQU(ibcc_marker_get_stats(&m).fecn, marks);
    return marks;
}

static void test_iba_marking_rate(void)
{
    unsigned pat;
    ibcc_rng rng;
    unsigned marks;
    T_EQU(iba_run(0, 1000, NULL, &pat), 1000);
    T_EQU(pat, 0xffff);
    T_EQU(iba_run(1, 1000, NULL, &pat), 500);
    T_EQU(pat, 0x5555);                    /* mark, skip, mark, ... */
    T_EQU(iba_run(2, 1000, NULL, &pat), 334);   /* ceil(1000 / 3) */
    T_EQU(pat, 0x9249);                    /* eligible 0, 3, 6, 9, 12, 15 */
    T_EQU(iba_run(7, 1000, NULL, NULL), 125);
    T_EQU(iba_run(15, 1000, NULL, NULL), 63);   /* ceil(1000 / 16) */
    T_EQU(iba_run(65535, 1000, NULL, NULL), 1);
    /* random variant: Binomial(100000, 1/4): mean 25000, sd 137; 5 sd */
    ibcc_rng_seed(&rng, 42);
    marks = iba_run(3, 100000, &rng, NULL);
    T_NEAR(marks, 25000, 685);
    T_CHECK(marks != 25000);               /* not the deterministic count */
    ibcc_rng_seed(&rng, 7);
    T_EQU(iba_run(0, 1000, &rng, NULL), 1000); /* p = 1 */
}

static void test_iba_set_errors(void)
{
    ibcc_marker m;
    ibcc_marker_desc d = desc(IBCC_MARKER_INPUT, 4, 4);
    T_EQ(mk(&m, &d), IBCC_OK);
    T_EQ(ibcc_marker_set_iba_port(&m, 0, 1, 1, 1), IBCC_ERR_STATE);
    T_EQ(ibcc_marker_set_victim(&m, 0, 1), IBCC_ERR_STATE);
    T_EQ(ibcc_marker_iba_congested(&m, 0, 1), 0);
    d.engine = IBCC_MARKER_IBA;
    T_EQ(mk(&m, &d), IBCC_OK);
    T_EQ(ibcc_marker_set_iba_port(NULL, 0, 1, 1, 1), IBCC_ERR_NULL);
    T_EQ(ibcc_marker_set_iba_port(&m, 4, 1, 1, 1), IBCC_ERR_RANGE);
    T_EQ(ibcc_marker_set_iba_port(&m, 0, 16, 1, 1), IBCC_ERR_RANGE);
    T_EQ(ibcc_marker_set_iba_port(&m, 0, 1, 256, 1), IBCC_ERR_RANGE);
    T_EQ(ibcc_marker_set_iba_port(&m, 0, 1, 1, 65536), IBCC_ERR_RANGE);
    T_EQ(ibcc_marker_set_iba_port(&m, 3, 15, 255, 65535), IBCC_OK);
    T_EQ(ibcc_marker_set_victim(NULL, 0, 1), IBCC_ERR_NULL);
    T_EQ(ibcc_marker_set_victim(&m, 4, 1), IBCC_ERR_RANGE);
    T_EQ(ibcc_marker_set_victim(&m, 3, 1), IBCC_OK);
}

/* MVPM, input-buffered: capacities 12 -> thresholds 8 (in) and 4 (out). */
static void test_mvpm(void)
{
    ibcc_marker m;
    ibcc_marker_desc d = desc(IBCC_MARKER_MVPM, 4, 12);
    unsigned i;
    d.out_capacity = 12;
    T_EQ(mk(&m, &d), IBCC_OK);
    for (i = 0; i < 9; i++)                   /* find 0..8: none > 8 */
        T_EQU(ibcc_marker_arrive(&m, 0, 1, SZ), 0);
    T_EQU(ibcc_marker_arrive(&m, 0, 1, SZ), IBCC_MB);  /* finds 9 */
    T_EQU(ibcc_marker_arrive(&m, 0, 2, SZ), IBCC_MB);  /* finds 10 */
    T_EQU(ibcc_marker_get_stats(&m).mb, 2);
    /* level(1) = 10 > 4: MB packets validated, others not */
    T_EQU(ibcc_marker_depart(&m, 0, 1, SZ, 0, 1), 0);
    T_EQU(ibcc_marker_depart(&m, 0, 1, SZ, IBCC_MB, 0), IBCC_VB);
    /* level(2) = 1: not saturated */
    T_EQU(ibcc_marker_depart(&m, 0, 2, SZ, IBCC_MB, 1), 0);
    /* drain output 1 to level 5, then 4 */
    for (i = 0; i < 3; i++) ibcc_marker_depart(&m, 0, 1, SZ, 0, 1);
    T_EQU(ibcc_marker_level(&m, 1), 5);
    T_EQU(ibcc_marker_depart(&m, 0, 1, SZ, IBCC_MB, 1), IBCC_VB); /* 5 > 4 */
    T_EQU(ibcc_marker_depart(&m, 0, 1, SZ, IBCC_MB, 1), 0);       /* 4 */
    T_EQU(ibcc_marker_get_stats(&m).vb, 2);
    /* MVPM never returns FECN */
    T_EQU(ibcc_marker_get_stats(&m).fecn, 0);
}

/* MVPM in a CIOQ switch: level(o) = output buffer before the packet. */
static void test_mvpm_cioq(void)
{
    ibcc_marker m;
    ibcc_marker_desc d = desc(IBCC_MARKER_MVPM, 4, 12);
    unsigned i;
    d.out_capacity = 6;                        /* out threshold 2 */
    d.org = IBCC_ORG_CIOQ;
    T_EQ(mk(&m, &d), IBCC_OK);
    for (i = 0; i < 5; i++) ibcc_marker_arrive(&m, i % 4u, 1, SZ);
    T_EQU(ibcc_marker_level(&m, 1), 0);
    T_EQU(ibcc_marker_depart(&m, 0, 1, SZ, IBCC_MB, 1), 0);  /* finds 0 */
    T_EQU(ibcc_marker_depart(&m, 1, 1, SZ, IBCC_MB, 1), 0);  /* finds 1 */
    T_EQU(ibcc_marker_depart(&m, 2, 1, SZ, IBCC_MB, 1), 0);  /* finds 2 */
    T_EQU(ibcc_marker_depart(&m, 3, 1, SZ, IBCC_MB, 1), IBCC_VB); /* 3 */
    T_EQU(ibcc_marker_level(&m, 1), 4);
    ibcc_marker_leave(&m, 1, SZ);
    ibcc_marker_leave(&m, 1, SZ);
    T_EQU(ibcc_marker_level(&m, 1), 2);
    T_EQU(ibcc_marker_depart(&m, 0, 1, SZ, IBCC_MB, 1), 0);  /* finds 2 */
    T_EQU(ibcc_marker_errors(&m, NULL), 0);
    /* leave with an empty output buffer: rejected */
    for (i = 0; i < 3; i++) ibcc_marker_leave(&m, 1, SZ);
    T_EQU(ibcc_marker_level(&m, 1), 0);
    ibcc_marker_leave(&m, 1, SZ);
    {
        ibcc_result last;
        T_EQU(ibcc_marker_errors(&m, &last), 1);
        T_EQ(last, IBCC_ERR_MISMATCH);
        ibcc_marker_leave(&m, 4, SZ);
        T_EQU(ibcc_marker_errors(&m, &last), 2);
        T_EQ(last, IBCC_ERR_RANGE);
    }
}

/* Random run: (MB, VB) = (0, 1) never happens, whatever hdr the packet
   brings from upstream; each packet's bits are checked. */
static void test_mvpm_never_01(void)
{
    ibcc_marker m;
    ibcc_marker_desc d = desc(IBCC_MARKER_MVPM, 8, 9);
    ibcc_rng rng;
    /* resident packets: (in, out, hdr) */
    unsigned pin[72], pout[72], phdr[72], n = 0, i;
    unsigned long cls[4] = {0, 0, 0, 0};
    d.out_capacity = 9;
    T_EQ(mk(&m, &d), IBCC_OK);
    ibcc_rng_seed(&rng, 2026);
    for (i = 0; i < 200000; i++) {
        if (n < 72 && (n == 0 || ibcc_rng_below(&rng, 100) < 52)) {
            unsigned in = (unsigned)ibcc_rng_below(&rng, 8);
            /* half the packets go to hot output 0, the rest anywhere */
            unsigned out = ibcc_rng_below(&rng, 2) ? 0u
                         : (unsigned)ibcc_rng_below(&rng, 8);
            unsigned up = ibcc_rng_below(&rng, 8) == 0 ? IBCC_MB : 0u;
            unsigned b;
            if (ibcc_marker_occupancy(&m, in) >= 9) continue;
            b = ibcc_marker_arrive(&m, in, out, SZ);
            T_CHECK((b & ~IBCC_MB) == 0);
            pin[n] = in; pout[n] = out; phdr[n] = up | b; n++;
        } else {
            unsigned k = (unsigned)ibcc_rng_below(&rng, n);
            unsigned b = ibcc_marker_depart(&m, pin[k], pout[k], SZ, phdr[k],
                                            (int)ibcc_rng_below(&rng, 2));
            unsigned h = phdr[k] | b;
            T_CHECK((b & ~IBCC_VB) == 0);
            if ((h & IBCC_VB) && !(h & IBCC_MB)) T_CHECK(!"(0,1) produced");
            cls[((h & IBCC_MB) ? 2 : 0) + ((h & IBCC_VB) ? 1 : 0)]++;
            n--;
            pin[k] = pin[n]; pout[k] = pout[n]; phdr[k] = phdr[n];
        }
    }
    T_EQU(cls[1], 0);
    /* the run exercises all three real classes */
    T_CHECK(cls[0] > 1000 && cls[2] > 1000 && cls[3] > 1000);
    T_EQU(ibcc_marker_errors(&m, NULL), 0);
}

/* Rejected events leave every counter untouched. */
static void test_unmatched(void)
{
    ibcc_marker m;
    ibcc_marker_desc d = desc(IBCC_MARKER_INPUT, 4, 4);
    ibcc_result last;
    ibcc_marker_stats s0;
    T_EQ(mk(&m, &d), IBCC_OK);
    T_EQU(ibcc_marker_errors(&m, &last), 0);
    T_EQ(last, IBCC_OK);
    /* depart on an empty switch */
    T_EQU(ibcc_marker_depart(&m, 0, 1, SZ, 0, 1), 0);
    T_EQU(ibcc_marker_errors(&m, &last), 1);
    T_EQ(last, IBCC_ERR_MISMATCH);
    T_EQU(ibcc_marker_cnt1(&m, 1), 0);
    T_EQU(ibcc_marker_occupancy(&m, 0), 0);
    /* a trigger, then a depart for the wrong output: nothing changes */
    fill_example(&m);
    ibcc_marker_arrive(&m, 0, 1, SZ);
    s0 = ibcc_marker_get_stats(&m);
    T_EQU(ibcc_marker_depart(&m, 0, 3, SZ, 0, 1), 0);   /* nothing in0->o3 */
    T_EQU(ibcc_marker_depart(&m, 2, 1, SZ, 0, 1), 0);   /* input 2 empty */
    T_EQU(ibcc_marker_depart(&m, 4, 1, SZ, 0, 1), 0);   /* in out of range */
    T_EQU(ibcc_marker_errors(&m, &last), 4);
    T_EQ(last, IBCC_ERR_RANGE);
    T_EQU(ibcc_marker_depart(&m, 0, 4, SZ, 0, 1), 0);   /* out of range */
    T_EQU(ibcc_marker_arrive(&m, 7, 0, SZ), 0);
    T_EQU(ibcc_marker_arrive(&m, 0, 9, SZ), 0);
    T_EQU(ibcc_marker_arrive(&m, 0, 1, SZ), 0);         /* input 0 full */
    T_EQU(ibcc_marker_errors(&m, &last), 8);
    T_EQ(last, IBCC_ERR_FULL);
    T_EQU(ibcc_marker_get_stats(&m).arrivals, s0.arrivals);
    T_EQU(ibcc_marker_get_stats(&m).departures, s0.departures);
    T_EQU(ibcc_marker_get_stats(&m).in_triggers, s0.in_triggers);
    T_EQU(ibcc_marker_cnt1(&m, 1), 4);
    T_EQU(ibcc_marker_cnt2(&m, 1), 4);
    T_EQU(ibcc_marker_occupancy(&m, 0), 4);
    T_EQU(ibcc_marker_waiting(&m, 0, 1), 3);
    /* leave is only for CIOQ */
    ibcc_marker_leave(&m, 1, SZ);
    T_EQU(ibcc_marker_errors(&m, &last), 9);
    T_EQ(last, IBCC_ERR_STATE);
    /* the real departures still mark as before */
    T_EQU(ibcc_marker_depart(&m, 1, 1, SZ, 0, 1), IBCC_FECN);
    /* credits: a depart larger than the occupancy is rejected */
    d.unit = IBCC_UNIT_CREDITS;
    d.in_capacity = 100;
    T_EQ(mk(&m, &d), IBCC_OK);
    ibcc_marker_arrive(&m, 0, 1, 640);                  /* 10 credits */
    T_EQU(ibcc_marker_depart(&m, 0, 1, 704, 0, 1), 0);  /* 11 credits */
    T_EQU(ibcc_marker_errors(&m, &last), 1);
    T_EQ(last, IBCC_ERR_MISMATCH);
    T_EQU(ibcc_marker_occupancy(&m, 0), 10);
    T_EQU(ibcc_marker_depart(&m, 0, 1, 640, 0, 1), 0);
    T_EQU(ibcc_marker_occupancy(&m, 0), 0);
    T_EQU(ibcc_marker_errors(&m, NULL), 1);
    /* queries out of range and NULL */
    T_EQU(ibcc_marker_occupancy(&m, 4), 0);
    T_EQU(ibcc_marker_packets(&m, 4), 0);
    T_EQU(ibcc_marker_waiting(&m, 4, 0), 0);
    T_EQU(ibcc_marker_cnt1(&m, 4), 0);
    T_EQU(ibcc_marker_cnt2(&m, 4), 0);
    T_EQU(ibcc_marker_level(&m, 4), 0);
    T_EQU(ibcc_marker_iba_level(&m, 4), 0);
    T_EQU(ibcc_marker_naive_pending(&m, 0, 0), 0);      /* not naive */
    T_EQU(ibcc_marker_arrive(NULL, 0, 0, SZ), 0);
    T_EQU(ibcc_marker_depart(NULL, 0, 0, SZ, 0, 1), 0);
    ibcc_marker_leave(NULL, 0, SZ);
    ibcc_marker_set_busy(NULL, 0, 1);
    T_EQU(ibcc_marker_errors(NULL, &last), 0);
    T_EQ(last, IBCC_ERR_NULL);
    T_EQU(ibcc_marker_get_stats(NULL).arrivals, 0);
}

/* hold = 1 (virtual cut-through): a departed packet keeps its room until
   ibcc_marker_release, so an arrival while the head's tail is still in
   the buffer finds it full and triggers; with hold = 0 the same sequence
   does not. Regression: the fabric used to call depart at the header's
   start and thereby missed most "buffer full" arrivals of INPUT. */
static void test_hold_release(void)
{
    ibcc_marker m;
    ibcc_marker_desc d;
    ibcc_result last;
    int hold;
    for (hold = 0; hold < 2; hold++) {
        d = desc(IBCC_MARKER_INPUT, 4, 4);
        d.hold = (uint32_t)hold;
        T_EQ(mk(&m, &d), IBCC_OK);
        T_EQU(ibcc_marker_arrive(&m, 0, 1, SZ), 0);
        T_EQU(ibcc_marker_arrive(&m, 0, 1, SZ), 0);
        T_EQU(ibcc_marker_arrive(&m, 0, 2, SZ), 0);
        /* head starts on output 1; no trigger yet, so no mark */
        T_EQU(ibcc_marker_depart(&m, 0, 1, SZ, 0, 1), 0);
        T_EQU(ibcc_marker_occupancy(&m, 0), hold ? 3u : 2u);
        T_EQU(ibcc_marker_packets(&m, 0), hold ? 3u : 2u);
        T_EQU(ibcc_marker_cnt1(&m, 1), 1);
        /* an arrival while the head's tail is still in the buffer */
        T_EQU(ibcc_marker_arrive(&m, 0, 2, SZ), 0);
        T_EQU(ibcc_marker_occupancy(&m, 0), hold ? 4u : 3u);
        T_EQU(ibcc_marker_get_stats(&m).in_triggers, hold ? 1u : 0u);
        T_EQU(ibcc_marker_cnt2(&m, 1), hold ? 1u : 0u);
        T_EQU(ibcc_marker_cnt2(&m, 2), hold ? 2u : 0u);
        T_EQU(ibcc_marker_depart(&m, 0, 2, SZ, 0, 1), hold ? IBCC_FECN : 0u);
        if (hold) {
            /* full: a fifth arrival is rejected until the tail leaves */
            T_EQU(ibcc_marker_occupancy(&m, 0), 4);
            T_EQU(ibcc_marker_arrive(&m, 0, 1, SZ), 0);
            T_EQU(ibcc_marker_errors(&m, &last), 1);
            T_EQ(last, IBCC_ERR_FULL);
            ibcc_marker_release(&m, 0, SZ);
            ibcc_marker_release(&m, 0, SZ);
            T_EQU(ibcc_marker_occupancy(&m, 0), 2);
            T_EQU(ibcc_marker_packets(&m, 0), 2);
            /* nothing held any more: MISMATCH, state untouched */
            ibcc_marker_release(&m, 0, SZ);
            T_EQU(ibcc_marker_errors(&m, &last), 2);
            T_EQ(last, IBCC_ERR_MISMATCH);
            ibcc_marker_release(&m, 9, SZ);
            T_EQU(ibcc_marker_errors(&m, &last), 3);
            T_EQ(last, IBCC_ERR_RANGE);
            T_EQU(ibcc_marker_occupancy(&m, 0), 2);
            /* the last two leave (marked: cnt2 still counts them); they
               stay held, and a held packet cannot depart a second time */
            T_EQU(ibcc_marker_depart(&m, 0, 2, SZ, 0, 1), IBCC_FECN);
            T_EQU(ibcc_marker_depart(&m, 0, 1, SZ, 0, 1), IBCC_FECN);
            T_EQU(ibcc_marker_occupancy(&m, 0), 2);
            T_EQU(ibcc_marker_depart(&m, 0, 1, SZ, 0, 1), 0);
            T_EQU(ibcc_marker_errors(&m, &last), 4);
            T_EQ(last, IBCC_ERR_MISMATCH);
            ibcc_marker_reset(&m);
            ibcc_marker_release(&m, 0, SZ);     /* clear dropped the hold */
            T_EQ(ibcc_marker_get_stats(&m).last_error, IBCC_ERR_MISMATCH);
        } else {
            /* release without hold: STATE, state untouched */
            ibcc_marker_release(&m, 0, SZ);
            T_EQU(ibcc_marker_errors(&m, &last), 1);
            T_EQ(last, IBCC_ERR_STATE);
            T_EQU(ibcc_marker_occupancy(&m, 0), 2);
        }
    }
    ibcc_marker_release(NULL, 0, SZ);           /* ignored */
    T_EQU(ibcc_marker_units(NULL, SZ), 1);      /* R1 F1: no crash */
    d = desc(IBCC_MARKER_INPUT, 4, 4);
    d.hold = 2;
    T_EQ(ibcc_marker_defaults(&d), IBCC_ERR_RANGE);
}

/* defer = 1: an arrival that fills a buffer triggers at the next
   ibcc_marker_settle, after the caller started what leaves at that
   instant. The packet whose arrival filled the buffer cuts through at
   once: its output is not classified and it is not marked; the packets
   still waiting are. With defer = 0 the same sequence classifies its
   output at the arrival and marks it. The NAIVE engine defers the same
   way; settle takes each pending input once; a reset drops pending
   triggers. */
static void test_defer_settle(void)
{
    ibcc_marker m;
    ibcc_marker_desc d;
    int defer;
    for (defer = 0; defer < 2; defer++) {
        d = desc(IBCC_MARKER_INPUT, 4, 4);
        d.hold = 1;
        d.defer = (uint32_t)defer;
        T_EQ(mk(&m, &d), IBCC_OK);
        T_EQU(ibcc_marker_arrive(&m, 0, 1, SZ), 0);
        T_EQU(ibcc_marker_arrive(&m, 0, 1, SZ), 0);
        T_EQU(ibcc_marker_arrive(&m, 0, 1, SZ), 0);
        T_EQU(ibcc_marker_arrive(&m, 0, 2, SZ), 0);     /* fills input 0 */
        T_EQU(ibcc_marker_get_stats(&m).in_triggers, defer ? 0u : 1u);
        /* the same instant: the last packet cuts through to output 2 */
        T_EQU(ibcc_marker_depart(&m, 0, 2, SZ, 0, 1), defer ? 0u : IBCC_FECN);
        ibcc_marker_settle(&m);
        T_EQU(ibcc_marker_get_stats(&m).in_triggers, 1);
        T_EQU(ibcc_marker_cnt2(&m, 1), 3);
        T_EQU(ibcc_marker_cnt2(&m, 2), 0);
        ibcc_marker_settle(&m);                         /* nothing pending */
        T_EQU(ibcc_marker_get_stats(&m).in_triggers, 1);
        T_EQU(ibcc_marker_depart(&m, 0, 1, SZ, 0, 1), IBCC_FECN);
        T_EQU(ibcc_marker_cnt2(&m, 1), 2);
        T_EQU(ibcc_marker_errors(&m, NULL), 0);
    }
    /* NAIVE: only the waiting packets of the full buffer are marked */
    d = desc(IBCC_MARKER_NAIVE, 4, 2);
    d.hold = 1;
    d.defer = 1;
    T_EQ(mk(&m, &d), IBCC_OK);
    T_EQU(ibcc_marker_arrive(&m, 0, 1, SZ), 0);
    T_EQU(ibcc_marker_arrive(&m, 0, 2, SZ), 0);
    T_EQU(ibcc_marker_depart(&m, 0, 2, SZ, 0, 1), 0);
    ibcc_marker_settle(&m);
    T_EQU(ibcc_marker_naive_pending(&m, 0, 1), 1);
    T_EQU(ibcc_marker_naive_pending(&m, 0, 2), 0);
    /* a reset drops a pending trigger */
    ibcc_marker_release(&m, 0, SZ);
    T_EQU(ibcc_marker_arrive(&m, 0, 2, SZ), 0);         /* full again */
    ibcc_marker_reset(&m);
    ibcc_marker_settle(&m);
    T_EQU(ibcc_marker_get_stats(&m).in_triggers, 0);
    ibcc_marker_settle(NULL);                            /* ignored */
    d = desc(IBCC_MARKER_INPUT, 4, 4);
    d.defer = 2;
    T_EQ(ibcc_marker_defaults(&d), IBCC_ERR_RANGE);
}

static void test_clear_and_none(void)
{
    ibcc_marker m, z;
    ibcc_marker_desc d = desc(IBCC_MARKER_NONE, 4, 4);
    unsigned i;
    /* R1 F2: clearing a zeroed, never initialised marker touches no
       memory (it used to memset NULL with length 0: UB, UBSan reports) */
    memset(&z, 0, sizeof z);
    ibcc_marker_reset(&z);
    ibcc_marker_reset(NULL);
    T_EQU(ibcc_marker_errors(&z, NULL), 0);
    T_CHECK(z.port == NULL && z.present == NULL);
    T_EQ(mk(&m, &d), IBCC_OK);
    for (i = 0; i < 4; i++) T_EQU(ibcc_marker_arrive(&m, 0, 1, SZ), 0);
    T_EQU(ibcc_marker_get_stats(&m).in_triggers, 0);   /* NONE: no trigger */
    for (i = 0; i < 4; i++) T_EQU(ibcc_marker_depart(&m, 0, 1, SZ, IBCC_MB, 1), 0);
    d.engine = IBCC_MARKER_NAIVE;
    T_EQ(mk(&m, &d), IBCC_OK);
    fill_example(&m);
    ibcc_marker_arrive(&m, 0, 1, SZ);
    T_EQU(ibcc_marker_naive_pending(&m, 0, 1), 3);
    ibcc_marker_depart(&m, 5, 1, SZ, 0, 1);
    ibcc_marker_reset(&m);
    T_EQU(ibcc_marker_naive_pending(&m, 0, 1), 0);
    T_EQU(ibcc_marker_occupancy(&m, 0), 0);
    T_EQU(ibcc_marker_cnt1(&m, 1), 0);
    T_EQU(ibcc_marker_waiting(&m, 0, 1), 0);
    T_EQU(ibcc_marker_errors(&m, NULL), 0);
    T_EQU(ibcc_marker_get_stats(&m).arrivals, 0);
    /* works as new after clear: the example gives the same counts */
    fill_example(&m);
    ibcc_marker_arrive(&m, 0, 1, SZ);
    T_EQU(ibcc_marker_naive_pending(&m, 0, 1), 3);
    T_EQU(ibcc_marker_naive_pending(&m, 0, 2), 1);
    ibcc_marker_reset(NULL);
}

/* 256 ports: Victim_Mask and busy bits above 64 and the last port. */
static void test_many_ports(void)
{
    ibcc_marker m;
    ibcc_marker_desc d = desc(IBCC_MARKER_IBA, 256, 4);
    d.iba_threshold = 15;                          /* level 4*1/16 = 0 */
    d.out_capacity = 4;
    d.victim_mask[7] = 0x80000000u;                /* port 255 */
    T_EQ(mk(&m, &d), IBCC_OK);
    ibcc_marker_arrive(&m, 200, 255, SZ);
    ibcc_marker_arrive(&m, 201, 255, SZ);          /* behind it */
    ibcc_marker_arrive(&m, 200, 254, SZ);
    ibcc_marker_arrive(&m, 201, 254, SZ);
    T_EQU(ibcc_marker_depart(&m, 200, 255, SZ, 0, 0), IBCC_FECN);
    T_EQU(ibcc_marker_depart(&m, 200, 254, SZ, 0, 0), 0);
    d = desc(IBCC_MARKER_INPUT, 256, 2);
    d.classify = IBCC_CLASSIFY_BUSY;
    T_EQ(mk(&m, &d), IBCC_OK);
    ibcc_marker_set_busy(&m, 130, 1);
    ibcc_marker_arrive(&m, 255, 130, SZ);
    ibcc_marker_arrive(&m, 255, 193, SZ);
    T_EQU(ibcc_marker_cnt2(&m, 130), 1);
    T_EQU(ibcc_marker_cnt2(&m, 193), 0);
    T_EQU(ibcc_marker_depart(&m, 255, 193, SZ, 0, 1), 0);
    T_EQU(ibcc_marker_depart(&m, 255, 130, SZ, 0, 1), IBCC_FECN);
}

/* ---- differential test against a scan reference ------------------------
   A straightforward model that keeps the packets of every buffer and
   recomputes every count by scanning; the marker must return the same bits
   for every event. Random traffic (hot output 0), random busy bits,
   credits, sizes, and CIOQ output buffers. */
#define RP 6u
#define RCAP 8u
typedef struct rp_ { unsigned out, size, units, flag, hdr; } rp_;
typedef struct rmodel {
    ibcc_marker_desc d;
    rp_ b[RP][RCAP];
    unsigned len[RP], cnt2[RP], skip[RP], busy[RP], victim[RP];
    unsigned obuf[RP], oq[RP][RP * RCAP], oql[RP];
} rmodel;

static unsigned r_units(const rmodel *r, unsigned size)
{
    unsigned u;
    if (r->d.unit != IBCC_UNIT_CREDITS) return 1;
    u = (size + 63u) / 64u;
    return u ? u : 1u;
}
static unsigned r_occ(const rmodel *r, unsigned in)
{
    unsigned j, s = 0;
    for (j = 0; j < r->len[in]; j++) s += r->b[in][j].units;
    return s;
}
static unsigned r_count(const rmodel *r, unsigned o, int units)
{
    unsigned i, j, c = 0;
    for (i = 0; i < RP; i++)
        for (j = 0; j < r->len[i]; j++)
            if (r->b[i][j].out == o) c += units ? r->b[i][j].units : 1u;
    return c;
}

static unsigned r_arrive(rmodel *r, unsigned in, unsigned o, unsigned size)
{
    rp_ *p = &r->b[in][r->len[in]];
    unsigned found = r_occ(r, in), bits = 0, j, q;
    unsigned char cls[RP];
    p->out = o; p->size = size; p->units = r_units(r, size);
    p->flag = 0; p->hdr = 0;
    r->len[in]++;
    switch (r->d.engine) {
    case IBCC_MARKER_NAIVE:
    case IBCC_MARKER_INPUT:
    case IBCC_MARKER_INPUT_OUTPUT:
        if (r_occ(r, in) >= r->d.trigger) {
            memset(cls, 0, sizeof cls);
            for (j = 0; j < r->len[in]; j++) {
                unsigned oo = r->b[in][j].out;
                if (r->d.classify == IBCC_CLASSIFY_ALL || r->busy[oo]) cls[oo] = 1;
            }
            for (j = 0; j < r->len[in]; j++)
                if (cls[r->b[in][j].out] && r->d.engine == IBCC_MARKER_NAIVE)
                    r->b[in][j].flag = 1;
            if (r->d.engine != IBCC_MARKER_NAIVE)
                for (q = 0; q < RP; q++)
                    if (cls[q]) r->cnt2[q] = r_count(r, q, 0);
        }
        if (r->d.engine == IBCC_MARKER_INPUT_OUTPUT && r_count(r, o, 0) > r->d.t_out)
            r->cnt2[o] = r_count(r, o, 0);
        break;
    case IBCC_MARKER_MVPM:
        if (found > r->d.mvpm_in_threshold) bits = IBCC_MB;
        break;
    default:
        break;
    }
    p->hdr = bits;
    return bits;
}

/* departs the first packet of `in` for `o`; `up` = bits set upstream */
static unsigned r_depart(rmodel *r, unsigned in, unsigned o, int cred,
                         unsigned up, unsigned *size_out, unsigned *hdr_out)
{
    unsigned j, level, bits = 0, w;
    rp_ p;
    for (j = 0; r->b[in][j].out != o; j++) {}
    level = (r->d.org == IBCC_ORG_CIOQ) ? r->obuf[o] : r_count(r, o, 1);
    p = r->b[in][j];
    for (; j + 1u < r->len[in]; j++) r->b[in][j] = r->b[in][j + 1u];
    r->len[in]--;
    p.hdr |= up;
    *size_out = p.size;
    *hdr_out = p.hdr;
    if (r->d.org == IBCC_ORG_CIOQ) {
        r->obuf[o] += p.units;
        r->oq[o][r->oql[o]++] = p.size;
    }
    switch (r->d.engine) {
    case IBCC_MARKER_NAIVE:
        if (p.flag) bits = IBCC_FECN;
        break;
    case IBCC_MARKER_INPUT:
    case IBCC_MARKER_INPUT_OUTPUT:
        if (r->cnt2[o]) { r->cnt2[o]--; bits = IBCC_FECN; }
        break;
    case IBCC_MARKER_IBA:
        w = r->d.iba_threshold;
        /* the queue without the departing packet (CIOQ: the output
           buffer before it enters) */
        if (r->d.org != IBCC_ORG_CIOQ) level -= p.units;
        if (w && level > r->d.out_capacity * (16u - w) / 16u &&
            (cred || r->victim[o]) && p.size >= 64u * r->d.iba_packet_size) {
            if (r->skip[o] == 0) { bits = IBCC_FECN; r->skip[o] = r->d.iba_marking_rate; }
            else r->skip[o]--;
        }
        break;
    case IBCC_MARKER_MVPM:
        if ((p.hdr & IBCC_MB) && level > r->d.mvpm_out_threshold) bits = IBCC_VB;
        break;
    default:
        break;
    }
    return bits;
}

static int diff_run(ibcc_marker_desc d, uint64_t seed, unsigned events)
{
    static rmodel r;
    ibcc_marker m;
    ibcc_rng g;
    unsigned i, bad = 0, marks = 0;
    memset(&r, 0, sizeof r);
    if (mk(&m, &d) != IBCC_OK) return -1;
    r.d = m.d;
    ibcc_rng_seed(&g, seed);
    for (i = 0; i < RP; i++) {
        r.victim[i] = (d.victim_mask[0] >> i) & 1u;
    }
    for (i = 0; i < events; i++) {
        unsigned act = (unsigned)ibcc_rng_below(&g, 100);
        unsigned in = (unsigned)ibcc_rng_below(&g, RP);
        if (act < 5) {                              /* busy bit changes */
            unsigned o = (unsigned)ibcc_rng_below(&g, RP);
            int b = (int)ibcc_rng_below(&g, 2);
            r.busy[o] = (unsigned)b;
            ibcc_marker_set_busy(&m, o, b);
        } else if (act < 15 && d.org == IBCC_ORG_CIOQ) { /* output leave */
            unsigned o = (unsigned)ibcc_rng_below(&g, RP), k;
            if (r.oql[o] == 0) continue;
            r.obuf[o] -= r_units(&r, r.oq[o][0]);
            ibcc_marker_leave(&m, o, r.oq[o][0]);
            for (k = 0; k + 1u < r.oql[o]; k++) r.oq[o][k] = r.oq[o][k + 1u];
            r.oql[o]--;
        } else if (act < 58) {                      /* arrival */
            unsigned o = ibcc_rng_below(&g, 2) ? 0u : (unsigned)ibcc_rng_below(&g, RP);
            unsigned size = 1u + (unsigned)ibcc_rng_below(&g, 1100);
            unsigned a, b;
            if (r.len[in] == RCAP || r_occ(&r, in) + r_units(&r, size) > r.d.in_capacity)
                continue;
            a = ibcc_marker_arrive(&m, in, o, size);
            b = r_arrive(&r, in, o, size);
            if (a != b) bad++;
        } else if (r.len[in]) {                     /* departure */
            unsigned k = (unsigned)ibcc_rng_below(&g, r.len[in]);
            unsigned o = r.b[in][k].out, size, hdr, a, b;
            int cred = (int)ibcc_rng_below(&g, 2);
            unsigned up = ibcc_rng_below(&g, 10) == 0 ? IBCC_MB : 0u;
            if (r.oql[o] == RP * RCAP) continue;    /* output buffer full */
            b = r_depart(&r, in, o, cred, up, &size, &hdr);
            a = ibcc_marker_depart(&m, in, o, size, hdr, cred);
            if (a != b) bad++;
            if (a) marks++;
        }
    }
    if (m.stats.errors) bad++;
    if (marks == 0 && d.engine != IBCC_MARKER_NONE) bad++;   /* not trivial */
    return (int)bad;
}

static void test_differential(void)
{
    static const ibcc_marker_engine engs[5] = {
        IBCC_MARKER_NAIVE, IBCC_MARKER_INPUT, IBCC_MARKER_INPUT_OUTPUT,
        IBCC_MARKER_IBA, IBCC_MARKER_MVPM
    };
    unsigned e, cls, unit, org;
    for (e = 0; e < 5; e++)
        for (cls = 0; cls < 2; cls++)
            for (unit = 0; unit < 2; unit++)
                for (org = 0; org < 2; org++) {
                    ibcc_marker_desc d = desc(engs[e], RP, 0);
                    int bad;
                    d.classify = (ibcc_classify)cls;
                    d.unit = (ibcc_buffer_unit)unit;
                    d.org = (ibcc_switch_org)org;
                    d.in_capacity = unit ? 60u : 5u;
                    d.out_capacity = unit ? 48u : 6u;
                    d.t_out = 7;
                    d.iba_threshold = 9;
                    d.iba_packet_size = 4;
                    d.iba_marking_rate = 2;
                    d.victim_mask[0] = 0x5;
                    bad = diff_run(d, 100u + e * 8u + cls * 4u + unit * 2u + org, 30000);
                    if (bad) {
                        fprintf(stderr, "  engine %u classify %u unit %u org %u: %d\n",
                                e, cls, unit, org, bad);
                        T_EQ(bad, 0);
                    }
                }
}

/* ECN: RED on the queue left behind, in bytes (credits x 64): 20
   packets of 640 bytes (10 credits) wait for output 2; Kmin 1000 B,
   Kmax 3000 B, Pmax 100%. Departures leave 19, 18, ... 0 packets
   behind: 6400 bytes down to 0; above 3000 (5+ packets) always marked
   with no draw, at 1280 and 1920..2560 (2, 3, 4 packets) one draw each
   against p = (q - 1000) / 2000, at 640 and 0 never. The draws come from
   the marker's own stream seeded with ecn_seed; reset reseeds it. */
static void test_ecn(void)
{
    ibcc_marker_desc d;
    ibcc_marker m;
    ibcc_rng ref;
    unsigned i, pass, bits, want, behind;
    memset(&d, 0, sizeof d);
    d.engine = IBCC_MARKER_ECN;
    d.unit = IBCC_UNIT_CREDITS;
    d.ports = 3;
    d.in_capacity = 200;
    d.ecn_kmin = 1000; d.ecn_kmax = 3000; d.ecn_pmax = IBCC_ECN_PPM;
    d.ecn_seed = 99;
    T_EQ(ibcc_marker_init(&m, &d, mem_, sizeof mem_), IBCC_OK);
    T_EQU(m.d.ecn_kmin, 1000); T_EQU(m.d.ecn_pmax, IBCC_ECN_PPM);
    for (pass = 0; pass < 2; pass++) {
        ibcc_rng_seed(&ref, 99);
        for (i = 0; i < 20; i++)
            T_EQU(ibcc_marker_arrive(&m, i % 2u, 2, 640), 0);
        for (i = 0; i < 20; i++) {
            behind = 19u - i;                   /* packets left behind */
            if (behind * 640u > 3000u) want = IBCC_FECN;
            else if (behind * 640u <= 1000u) want = 0;
            else want = ibcc_rng_below(&ref, UINT64_C(1000000) * 2000u)
                        < UINT64_C(1000000) * (behind * 640u - 1000u) ? IBCC_FECN : 0u;
            bits = ibcc_marker_depart(&m, i % 2u, 2, 640, 0, 1);
            T_EQU(bits, want);
        }
        /* exactly three draws were made */
        T_CHECK(memcmp(&ref, &m.ecn_rng, sizeof ref) == 0);
        T_EQU(m.stats.errors, 0);
        ibcc_marker_reset(&m);                  /* the same again */
    }
}

int main(void)
{
    T_RUN(test_defaults);
    T_RUN(test_invalid_desc);
    T_RUN(test_units);
    T_RUN(test_input_basic);
    T_RUN(test_input_out_of_order);
    T_RUN(test_input_retrigger);
    T_RUN(test_input_busy);
    T_RUN(test_naive);
    T_RUN(test_hold_release);
    T_RUN(test_defer_settle);
    T_RUN(test_naive_out_of_order_and_retrigger);
    T_RUN(test_naive_trigger_level);
    T_RUN(test_naive_busy);
    T_RUN(test_input_output);
    T_RUN(test_iba_levels);
    T_RUN(test_iba_threshold_map);
    T_RUN(test_iba_lone_flow);
    T_RUN(test_iba_root_victim);
    T_RUN(test_iba_packet_size);
    T_RUN(test_iba_marking_rate);
    T_RUN(test_iba_set_errors);
    T_RUN(test_mvpm);
    T_RUN(test_mvpm_cioq);
    T_RUN(test_mvpm_never_01);
    T_RUN(test_unmatched);
    T_RUN(test_clear_and_none);
    T_RUN(test_many_ports);
    T_RUN(test_differential);
    T_RUN(test_ecn);
    return t_summary();
}
