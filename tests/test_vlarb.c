/* Tests of VL arbitration at an output port (L1 vlarb): weights in
   64-byte units and what a packet consumes, 0-weight entries, VLs with
   nothing ready, the high-priority table and its limit (special values
   0 and 255), the defaults, errors, and the OpenSM value forms. */
#ifndef IBCC_TEST_LINKED   /* make test links one implementation object */
#define IBCC_IMPLEMENTATION
#endif
#include "ibcc.h"
#include "t.h"

/* A desc with the given tables ("" for none) and limit. */
static ibcc_vlarb_desc desc(uint32_t vls, const char *high, const char *low,
                            uint32_t limit)
{
    ibcc_vlarb_desc d;
    memset(&d, 0, sizeof d);
    d.vls = vls;
    d.high_limit = limit;
    T_EQ(ibcc_vlarb_parse_table(high, d.high, 64, &d.n_high), IBCC_OK);
    T_EQ(ibcc_vlarb_parse_table(low, d.low, 64, &d.n_low), IBCC_OK);
    return d;
}

static void mk(ibcc_vlarb *a, uint32_t vls, const char *high, const char *low,
               uint32_t limit)
{
    ibcc_vlarb_desc d = desc(vls, high, low, limit);
    T_EQ(ibcc_vlarb_init(a, &d, NULL, 0), IBCC_OK);
}

/* One pick and its sent: the VL, or -1 when nothing was picked. */
static int step(ibcc_vlarb *a, uint32_t ready, uint32_t bytes)
{
    unsigned vl = 99;
    if (!ibcc_vlarb_pick(a, ready, &vl)) return -1;
    T_EQ(ibcc_vlarb_sent(a, vl, bytes), IBCC_OK);
    return (int)vl;
}

/* n steps with the same ready set and size, the VLs as digits
   ('a'.. for 10..14, '-' for none) into s. */
static const char *seq(ibcc_vlarb *a, uint32_t ready, uint32_t bytes, int n)
{
    static char s[256];
    int i;
    for (i = 0; i < n && i < 255; i++) {
        int v = step(a, ready, bytes);
        s[i] = (char)(v < 0 ? '-' : v < 10 ? '0' + v : 'a' + (v - 10));
    }
    s[i] = '\0';
    return s;
}

/* Weights 2:1 give bytes 2:1, exactly per round, whatever the packet
   size; within one packet at any moment. */
static void test_weights_2_1(void)
{
    ibcc_vlarb a;
    int i;
    mk(&a, 2, "", "0:2,1:1", 0);          /* 128 and 64 bytes per turn */
    T_STREQ(seq(&a, 3u, 64, 12), "001001001001");
    T_EQU(ibcc_vlarb_bytes(&a, 0), 8 * 64);
    T_EQU(ibcc_vlarb_bytes(&a, 1), 4 * 64);
    /* 4 KiB packets with weights in whole packets: 128:64 units */
    mk(&a, 2, "", "0:128,1:64", 0);
    T_STREQ(seq(&a, 3u, 4096, 12), "001001001001");
    /* 100-byte packets: VL0's 128 bytes take two packets (100, then 100
       with 28 left, overshooting), VL1's 64 one: still 200:100 */
    mk(&a, 2, "", "0:2,1:1", 0);
    for (i = 0; i < 300; i++) {
        int64_t b0, b1;
        (void)step(&a, 3u, 100);
        b0 = (int64_t)ibcc_vlarb_bytes(&a, 0);
        b1 = (int64_t)ibcc_vlarb_bytes(&a, 1);
        T_CHECK(b0 - 2 * b1 <= 200 && 2 * b1 - b0 <= 200);
    }
    T_EQU(ibcc_vlarb_bytes(&a, 0), 200 * 100);
    T_EQU(ibcc_vlarb_bytes(&a, 1), 100 * 100);
    T_EQU(a.packets[0], 200);
    T_EQU(a.packets[1], 100);
}

/* A packet longer than what is left is sent whole and ends the turn. */
static void test_overshoot(void)
{
    ibcc_vlarb a;
    mk(&a, 2, "", "0:1,1:1", 0);          /* 64 bytes a turn */
    T_STREQ(seq(&a, 3u, 2048, 6), "010101");
    T_EQU(ibcc_vlarb_bytes(&a, 0), 3 * 2048);
    mk(&a, 2, "", "0:2,1:4", 0);          /* 128 and 256 bytes */
    T_EQ(step(&a, 3u, 100), 0);
    T_EQ(a.left[1], 28);                  /* 128 - 100 */
    T_EQ(step(&a, 3u, 100), 0);           /* 28 left: it still goes */
    T_EQ(a.cur[1], 1);                    /* and the turn ended */
    T_EQ(a.left[1], 256);
    T_EQ(step(&a, 3u, 256), 1);           /* exactly the weight: ends */
    T_EQ(a.cur[1], 0);
    T_EQ(step(&a, 3u, 1), 0);
}

/* Entries of weight 0 are skipped; a table of only such entries sends
   nothing. */
static void test_zero_weight(void)
{
    ibcc_vlarb a;
    unsigned vl = 99;
    mk(&a, 4, "", "0:0,1:1,2:0,3:1", 0);
    T_STREQ(seq(&a, 15u, 64, 6), "131313");
    mk(&a, 4, "", "0:0,1:0", 0);
    T_EQ(ibcc_vlarb_pick(&a, 15u, &vl), 0);
    T_EQU(vl, 99);
    T_EQ(a.pending, 0);
}

/* A VL with nothing ready (no packet, or no credits downstream) is
   skipped at its turn and comes back at its place in the table. */
static void test_not_ready(void)
{
    ibcc_vlarb a;
    mk(&a, 4, "", "0:1,1:1,2:1", 0);
    T_STREQ(seq(&a, 7u, 64, 3), "012");
    T_EQ(step(&a, 7u, 64), 0);
    T_EQ(step(&a, 5u, 64), 2);            /* VL1 has no credits: skipped */
    T_STREQ(seq(&a, 7u, 64, 6), "012012"); /* VL1 in its place again */
    /* nothing ready: nothing picked and nothing moves */
    T_EQ(step(&a, 8u, 64), -1);           /* VL3 is in no entry */
    T_EQ(step(&a, 0u, 64), -1);
    T_STREQ(seq(&a, 7u, 64, 3), "012");
    /* a turn interrupted by an empty VL ends; the VL gets its next turn
       with its whole weight */
    mk(&a, 2, "", "0:4,1:4", 0);
    T_EQ(step(&a, 3u, 64), 0);            /* 192 bytes left to VL0 */
    T_EQ(step(&a, 2u, 64), 1);            /* VL0 empty: VL1's turn */
    T_STREQ(seq(&a, 3u, 64, 8), "11100001");
    /* only the table that sends moves: the high table keeps its entry
       and what is left of it while the low table sends */
    mk(&a, 4, "0:2,2:2", "1:4", 0);
    T_STREQ(seq(&a, 7u, 64, 9), "010121210");
}

/* The high table goes first, within its limit (units of 4096 bytes);
   then one low-priority packet. */
static void test_high_limit(void)
{
    ibcc_vlarb a;
    mk(&a, 2, "0:255", "1:255", 1);       /* 4096 bytes */
    /* a packet may start while fewer than 4096 bytes went: 5 of 1000 */
    T_STREQ(seq(&a, 3u, 1000, 18), "000001000001000001");
    mk(&a, 2, "0:255", "1:255", 2);       /* 8192 bytes: 2 of 4096 */
    T_STREQ(seq(&a, 3u, 4096, 9), "001001001");
    /* low table with nothing ready: the high table sends on, and the
       count restarts (the low table had its chance) */
    mk(&a, 2, "0:255", "1:255", 1);
    T_STREQ(seq(&a, 1u, 1000, 10), "0000000000");
    T_EQU(a.high_run, 1000);
    T_STREQ(seq(&a, 3u, 1000, 6), "000010");
    /* the high table with nothing ready: the low table sends */
    T_STREQ(seq(&a, 2u, 1000, 3), "111");
    /* the limit only matters when both tables have a VL ready */
    T_EQU(ibcc_vlarb_bytes(&a, 1), 4000);
}

/* LimitOfHighPriority 0: one high-priority packet, then a low-priority
   one; 255: no limit. */
static void test_limit_special(void)
{
    ibcc_vlarb a;
    mk(&a, 2, "0:255", "1:255", 0);
    T_STREQ(seq(&a, 3u, 4096, 8), "01010101");
    mk(&a, 2, "0:255", "1:255", 0);
    T_STREQ(seq(&a, 3u, 64, 8), "01010101");   /* even short packets */
    mk(&a, 2, "0:255", "1:255", 255);
    T_STREQ(seq(&a, 3u, 4096, 100),
            "0000000000000000000000000000000000000000000000000000000000000000"
            "000000000000000000000000000000000000");
    T_EQU(ibcc_vlarb_bytes(&a, 1), 0);
    T_STREQ(seq(&a, 2u, 4096, 2), "11");
    /* 254 is a limit: 254 * 4096 bytes, 254 packets of 4 KiB */
    mk(&a, 2, "0:255", "1:255", 254);
    T_STREQ(seq(&a, 3u, 4096, 254),
            "0000000000000000000000000000000000000000000000000000000000000000"
            "0000000000000000000000000000000000000000000000000000000000000000"
            "0000000000000000000000000000000000000000000000000000000000000000"
            "00000000000000000000000000000000000000000000000000000000000000");
    T_STREQ(seq(&a, 3u, 4096, 2), "10");
}

/* Zero desc: one data VL, OpenSM's built-in tables; with 4 VLs the low
   table gets VL1..3 at weight 4. */
static void test_defaults(void)
{
    ibcc_vlarb_desc d;
    ibcc_vlarb a;
    size_t n = 9;
    char buf[128];
    memset(&d, 0, sizeof d);
    T_EQ(ibcc_vlarb_defaults(&d), IBCC_OK);
    T_EQU(d.vls, 1);
    T_EQU(d.high_limit, 0);
    T_EQU(d.n_high, 1);
    T_EQU(d.n_low, 0);
    T_EQ(ibcc_vlarb_print_table(d.high, d.n_high, buf, sizeof buf), IBCC_OK);
    T_STREQ(buf, "0:4");
    T_EQ(ibcc_vlarb_size(&d, &n), IBCC_OK);
    T_EQU(n, 0);
    memset(&d, 0, sizeof d);
    d.vls = 4;
    T_EQ(ibcc_vlarb_defaults(&d), IBCC_OK);
    T_EQ(ibcc_vlarb_print_table(d.low, d.n_low, buf, sizeof buf), IBCC_OK);
    T_STREQ(buf, "1:4,2:4,3:4");
    T_EQ(ibcc_vlarb_init(&a, &d, NULL, 0), IBCC_OK);
    /* limit 0: VL0 (high) alternates with the low VLs in turn, each low
       entry 256 bytes: four 64-byte packets per turn */
    T_STREQ(seq(&a, 15u, 64, 16), "0101010102020202");
    /* OpenSM's 15-VL default templates parse and load on a 15-VL port */
    memset(&d, 0, sizeof d);
    d.vls = 15;
    T_EQ(ibcc_vlarb_parse_table("0:4,1:0,2:0,3:0,4:0,5:0,6:0,7:0,8:0,9:0,"
                                "10:0,11:0,12:0,13:0,14:0", d.high, 64,
                                &d.n_high), IBCC_OK);
    T_EQ(ibcc_vlarb_parse_table("0:0,1:4,2:4,3:4,4:4,5:4,6:4,7:4,8:4,9:4,"
                                "10:4,11:4,12:4,13:4,14:4", d.low, 64,
                                &d.n_low), IBCC_OK);
    T_EQU(d.n_high, 15);
    T_EQU(d.n_low, 15);
    T_EQ(ibcc_vlarb_init(&a, &d, NULL, 0), IBCC_OK);
    T_STREQ(seq(&a, 0x7fffu, 256, 8), "01020304");
    T_STREQ(seq(&a, 0x7ffeu, 256, 15), "56789abcde12345");
    /* defaults are applied to a copy by init; defaults leaves a bad
       desc exactly as given */
    memset(&d, 0, sizeof d);
    d.vls = 3;
    T_EQ(ibcc_vlarb_defaults(&d), IBCC_ERR_RANGE);
    T_EQU(d.vls, 3);
    T_EQU(d.n_high, 0);
}

static void test_errors(void)
{
    ibcc_vlarb_desc d;
    ibcc_vlarb a;
    unsigned vl = 0;
    uint32_t bad[] = { 3, 5, 7, 9, 14, 16, 255 };
    size_t i;
    for (i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        memset(&d, 0, sizeof d);
        d.vls = bad[i];
        T_EQ(ibcc_vlarb_defaults(&d), IBCC_ERR_RANGE);
    }
    memset(&d, 0, sizeof d); d.high_limit = 256;
    T_EQ(ibcc_vlarb_defaults(&d), IBCC_ERR_RANGE);
    memset(&d, 0, sizeof d); d.n_high = 65;
    T_EQ(ibcc_vlarb_defaults(&d), IBCC_ERR_CAPACITY);
    memset(&d, 0, sizeof d); d.n_low = 65;
    T_SIZE_ERR(ibcc_vlarb_size, &d, IBCC_ERR_CAPACITY);
    memset(&d, 0, sizeof d); d.n_high = 64; d.n_low = 64; d.vls = 1;
    T_EQ(ibcc_vlarb_defaults(&d), IBCC_OK);      /* 64 entries of VL0 */
    /* a VL the port lacks, in either table */
    d = desc(2, "0:1", "2:1", 0);
    T_EQ(ibcc_vlarb_init(&a, &d, NULL, 0), IBCC_ERR_RANGE);
    d = desc(8, "8:1", "", 0);
    T_EQ(ibcc_vlarb_defaults(&d), IBCC_ERR_RANGE);
    d = desc(8, "7:1", "", 0);
    T_EQ(ibcc_vlarb_defaults(&d), IBCC_OK);
    /* entries past n are not looked at */
    d = desc(2, "0:1", "1:1", 0);
    d.low[5].vl = 14;
    T_EQ(ibcc_vlarb_init(&a, &d, NULL, 0), IBCC_OK);
    /* sent must follow a pick of the same VL */
    T_EQ(ibcc_vlarb_sent(&a, 0, 64), IBCC_ERR_MISMATCH);
    T_EQ(ibcc_vlarb_pick(&a, 3u, &vl), 1);
    T_EQU(vl, 0);
    T_EQ(ibcc_vlarb_sent(&a, 1, 64), IBCC_ERR_MISMATCH);
    T_EQ(ibcc_vlarb_sent(&a, 2, 64), IBCC_ERR_RANGE);
    T_EQ(ibcc_vlarb_sent(&a, 0, 0), IBCC_ERR_RANGE);
    T_EQU(ibcc_vlarb_bytes(&a, 0), 0);
    T_EQ(ibcc_vlarb_sent(&a, 0, 64), IBCC_OK);
    T_EQ(ibcc_vlarb_sent(&a, 0, 64), IBCC_ERR_MISMATCH);
    T_EQU(ibcc_vlarb_bytes(&a, 0), 64);
    T_EQU(ibcc_vlarb_bytes(&a, 2), 0);
    /* a later pick replaces an unsent one */
    T_EQ(ibcc_vlarb_pick(&a, 1u, &vl), 1);       /* VL0 (limit 0) */
    T_EQ(ibcc_vlarb_pick(&a, 2u, &vl), 1);
    T_EQU(vl, 1);
    T_EQ(ibcc_vlarb_sent(&a, 0, 64), IBCC_ERR_MISMATCH);
    T_EQ(ibcc_vlarb_sent(&a, 1, 64), IBCC_OK);
}

/* OpenSM's value forms: round trips and refusals with their codes. */
static void test_text(void)
{
    ibcc_vlarb_entry e[64], keep;
    uint32_t n = 99, lim = 99;
    char buf[512], big[1024];
    const char *rt[] = { "0:4", "0:0,1:64,2:128,3:192,4:0,5:64,6:64,7:64",
                         "1:192,2:128,3:64", "14:255,0:0", "" };
    size_t i;
    for (i = 0; i < sizeof rt / sizeof rt[0]; i++) {
        T_EQ(ibcc_vlarb_parse_table(rt[i], e, 64, &n), IBCC_OK);
        T_EQ(ibcc_vlarb_print_table(e, n, buf, sizeof buf), IBCC_OK);
        T_STREQ(buf, rt[i]);
    }
    /* blanks around separators (as in OpenSM configurations seen in the
       wild), a trailing comma, hex */
    T_EQ(ibcc_vlarb_parse_table(" 1:192, 2 : 128 ,3:64, ", e, 64, &n), IBCC_OK);
    T_EQU(n, 3);
    T_EQU(e[1].vl, 2); T_EQU(e[1].weight, 128);
    T_EQ(ibcc_vlarb_parse_table("0xe:0xff", e, 64, &n), IBCC_OK);
    T_EQU(n, 1); T_EQU(e[0].vl, 14); T_EQU(e[0].weight, 255);
    T_EQ(ibcc_vlarb_parse_table("   ", e, 64, &n), IBCC_OK);
    T_EQU(n, 0);
    /* refusals: outputs untouched */
    e[0].vl = 7; e[0].weight = 7; n = 99;
    T_EQ(ibcc_vlarb_parse_table("15:4", e, 64, &n), IBCC_ERR_RANGE);
    T_EQ(ibcc_vlarb_parse_table("0:256", e, 64, &n), IBCC_ERR_RANGE);
    T_EQ(ibcc_vlarb_parse_table("0:99999999999999999999999", e, 64, &n),
         IBCC_ERR_RANGE);
    T_EQ(ibcc_vlarb_parse_table("0:256,x", e, 64, &n), IBCC_ERR_PARSE);
    T_EQ(ibcc_vlarb_parse_table("0:4;1:2", e, 64, &n), IBCC_ERR_PARSE);
    T_EQ(ibcc_vlarb_parse_table("0:4 1:2", e, 64, &n), IBCC_ERR_PARSE);
    T_EQ(ibcc_vlarb_parse_table("0:4,,1:2", e, 64, &n), IBCC_ERR_PARSE);
    T_EQ(ibcc_vlarb_parse_table(",0:4", e, 64, &n), IBCC_ERR_PARSE);
    T_EQ(ibcc_vlarb_parse_table("0:4,,", e, 64, &n), IBCC_ERR_PARSE);
    T_EQ(ibcc_vlarb_parse_table("0", e, 64, &n), IBCC_ERR_PARSE);
    T_EQ(ibcc_vlarb_parse_table("0:", e, 64, &n), IBCC_ERR_PARSE);
    T_EQ(ibcc_vlarb_parse_table(":4", e, 64, &n), IBCC_ERR_PARSE);
    T_EQ(ibcc_vlarb_parse_table("-1:4", e, 64, &n), IBCC_ERR_PARSE);
    T_EQ(ibcc_vlarb_parse_table("0:4x", e, 64, &n), IBCC_ERR_PARSE);
    T_EQ(ibcc_vlarb_parse_table("0:4:5", e, 64, &n), IBCC_ERR_PARSE);
    T_EQ(ibcc_vlarb_parse_table("0:4,1:2", e, 1, &n), IBCC_ERR_CAPACITY);
    T_EQU(e[0].vl, 7); T_EQU(e[0].weight, 7); T_EQU(n, 99);
    /* 64 entries fit, 65 do not */
    big[0] = '\0';
    for (i = 0; i < 64; i++) strcat(big, i ? ",1:1" : "1:1");
    T_EQ(ibcc_vlarb_parse_table(big, e, 64, &n), IBCC_OK);
    T_EQU(n, 64);
    T_EQ(ibcc_vlarb_print_table(e, n, buf, sizeof buf), IBCC_OK);
    T_STREQ(buf, big);
    strcat(big, ",1:1");
    T_EQ(ibcc_vlarb_parse_table(big, e, 64, &n), IBCC_ERR_CAPACITY);
    T_EQ(ibcc_vlarb_parse_table(big, e, 100, &n), IBCC_ERR_CAPACITY);
    T_EQU(n, 64);
    /* the limit */
    T_EQ(ibcc_vlarb_parse_limit("0", &lim), IBCC_OK); T_EQU(lim, 0);
    T_EQ(ibcc_vlarb_parse_limit(" 255 ", &lim), IBCC_OK); T_EQU(lim, 255);
    T_EQ(ibcc_vlarb_parse_limit("0x6", &lim), IBCC_OK); T_EQU(lim, 6);
    T_EQ(ibcc_vlarb_parse_limit("256", &lim), IBCC_ERR_RANGE);
    T_EQ(ibcc_vlarb_parse_limit("6x", &lim), IBCC_ERR_PARSE);
    T_EQ(ibcc_vlarb_parse_limit("6 7", &lim), IBCC_ERR_PARSE);
    T_EQ(ibcc_vlarb_parse_limit("", &lim), IBCC_ERR_PARSE);
    T_EQ(ibcc_vlarb_parse_limit("-1", &lim), IBCC_ERR_PARSE);
    T_EQU(lim, 6);
    /* printing */
    keep.vl = 15; keep.weight = 1;
    strcpy(buf, "untouched");
    T_EQ(ibcc_vlarb_print_table(&keep, 1, buf, sizeof buf), IBCC_ERR_RANGE);
    T_STREQ(buf, "untouched");
    T_EQ(ibcc_vlarb_print_table(e, 65, buf, sizeof buf), IBCC_ERR_CAPACITY);
    T_EQ(ibcc_vlarb_parse_table("0:4,1:2", e, 64, &n), IBCC_OK);
    T_EQ(ibcc_vlarb_print_table(e, n, buf, 8), IBCC_OK);   /* "0:4,1:2" */
    T_STREQ(buf, "0:4,1:2");
    T_EQ(ibcc_vlarb_print_table(e, n, buf, 7), IBCC_ERR_NOMEM);
    T_STREQ(buf, "");
    T_EQ(ibcc_vlarb_print_table(NULL, 0, buf, 1), IBCC_OK);
    T_STREQ(buf, "");
}

int main(void)
{
    T_RUN(test_weights_2_1);
    T_RUN(test_overshoot);
    T_RUN(test_zero_weight);
    T_RUN(test_not_ready);
    T_RUN(test_high_limit);
    T_RUN(test_limit_special);
    T_RUN(test_defaults);
    T_RUN(test_errors);
    T_RUN(test_text);
    return t_summary();
}
