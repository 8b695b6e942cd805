/* Tests of the IBA switch congestion settings (L1 swcc): MAD bytes against
   hand-computed images, round trips, validation of every field, the
   ibccconfig and OpenSM text forms, and applying settings to a marker. */
#ifndef IBCC_TEST_LINKED   /* make test links one implementation object */
#define IBCC_IMPLEMENTATION
#endif
#include "ibcc.h"
#include "t.h"

static uint64_t mem_[4096];

/* Control_Map 0x15 (victim mask, threshold + packet size, marking rate),
   victims ports 1, 2, 255, credit mask port 40, Threshold 15,
   Packet_Size 8, CS_Threshold 3, CS_ReturnDelay 2:1000, Marking_Rate 1. */
static ibcc_swcc sample(void)
{
    ibcc_swcc s;
    memset(&s, 0, sizeof s);
    s.control_map = 0x15;
    s.victim_mask[0] = 0x6;
    s.victim_mask[7] = 0x80000000u;
    s.credit_mask[1] = 0x100;
    s.threshold = 15;
    s.packet_size = 8;
    s.cs_threshold = 3;
    s.cs_return_delay_shift = 2;
    s.cs_return_delay_mult = 1000;
    s.marking_rate = 1;
    return s;
}

static void test_encode_bytes(void)
{
    ibcc_swcc s = sample(), d, e2;
    uint8_t b[IBCC_SWCC_MAD_BYTES], want[IBCC_SWCC_MAD_BYTES];
    memset(want, 0, sizeof want);
    want[3] = 0x15;
    want[4] = 0x80;           /* port 255: top bit of the 256-bit field */
    want[35] = 0x06;          /* ports 1, 2: bottom byte */
    want[62] = 0x01;          /* credit port 40: byte 67 - 40/8, bit 0 */
    want[68] = 0xf0;          /* Threshold 15 in the high nibble */
    want[69] = 0x08;
    want[70] = 0x30;          /* CS_Threshold 3 in the high nibble */
    want[72] = 0x83;          /* 2 << 14 | 1000 = 0x83e8 */
    want[73] = 0xe8;
    want[75] = 0x01;
    memset(b, 0xaa, sizeof b);
    T_EQ(ibcc_swcc_encode(&s, b, IBCC_SWCC_MAD_BYTES), IBCC_OK);
    T_CHECK(memcmp(b, want, sizeof b) == 0);
    T_EQ(ibcc_swcc_decode(&d, b, IBCC_SWCC_MAD_BYTES), IBCC_OK);
    T_CHECK(memcmp(&d, &s, sizeof s) == 0);
    /* reserved bits are ignored on decode */
    b[68] |= 0x0f; b[70] |= 0x0f; b[71] = 0xff;
    T_EQ(ibcc_swcc_decode(&d, b, IBCC_SWCC_MAD_BYTES), IBCC_OK);
    T_CHECK(memcmp(&d, &s, sizeof s) == 0);
    /* Marking_Rate and return delay at their widths */
    s.marking_rate = 0xfedc;
    s.cs_return_delay_shift = 3;
    s.cs_return_delay_mult = 16383;
    T_EQ(ibcc_swcc_encode(&s, b, IBCC_SWCC_MAD_BYTES), IBCC_OK);
    T_EQU(b[72], 0xff); T_EQU(b[73], 0xff);
    T_EQU(b[74], 0xfe); T_EQU(b[75], 0xdc);
    T_EQ(ibcc_swcc_decode(&d, b, IBCC_SWCC_MAD_BYTES), IBCC_OK);
    T_EQU(d.cs_return_delay_shift, 3);
    T_EQU(d.cs_return_delay_mult, 16383);
    T_EQU(d.marking_rate, 0xfedc);
    /* decode keeps unknown Control_Map bits; validate rejects them */
    b[0] = 0x80;
    T_EQ(ibcc_swcc_decode(&d, b, IBCC_SWCC_MAD_BYTES), IBCC_OK);
    T_EQU(d.control_map, 0x80000015u);
    T_EQ(ibcc_swcc_validate(&d), IBCC_ERR_RANGE);
    T_EQ(ibcc_swcc_encode(NULL, b, IBCC_SWCC_MAD_BYTES), IBCC_ERR_NULL);
    T_EQ(ibcc_swcc_encode(&s, NULL, IBCC_SWCC_MAD_BYTES), IBCC_ERR_NULL);
    T_EQ(ibcc_swcc_decode(NULL, b, IBCC_SWCC_MAD_BYTES), IBCC_ERR_NULL);
    T_EQ(ibcc_swcc_decode(&d, NULL, IBCC_SWCC_MAD_BYTES), IBCC_ERR_NULL);
    /* a buffer one byte short: NOMEM, nothing written or read */
    memset(b, 0xee, sizeof b);
    memset(&d, 0x5a, sizeof d);
    e2 = d;
    T_EQ(ibcc_swcc_encode(&s, b, IBCC_SWCC_MAD_BYTES - 1u), IBCC_ERR_NOMEM);
    T_EQU(b[0], 0xee);
    T_EQ(ibcc_swcc_decode(&d, b, IBCC_SWCC_MAD_BYTES - 1u), IBCC_ERR_NOMEM);
    T_CHECK(memcmp(&d, &e2, sizeof d) == 0);
}

static void test_swcc_validate(void)
{
    ibcc_swcc s, z;
    uint8_t b[IBCC_SWCC_MAD_BYTES];
    memset(&z, 0, sizeof z);
    T_EQ(ibcc_swcc_validate(&z), IBCC_OK);
    T_EQ(ibcc_swcc_validate(NULL), IBCC_ERR_NULL);
    s = z; s.control_map = 0x20; T_EQ(ibcc_swcc_validate(&s), IBCC_ERR_RANGE);
    s = z; s.control_map = 0x1f; T_EQ(ibcc_swcc_validate(&s), IBCC_OK);
    s = z; s.threshold = 16; T_EQ(ibcc_swcc_validate(&s), IBCC_ERR_RANGE);
    s = z; s.packet_size = 256; T_EQ(ibcc_swcc_validate(&s), IBCC_ERR_RANGE);
    s = z; s.cs_threshold = 16; T_EQ(ibcc_swcc_validate(&s), IBCC_ERR_RANGE);
    s = z; s.cs_return_delay_shift = 4; T_EQ(ibcc_swcc_validate(&s), IBCC_ERR_RANGE);
    s = z; s.cs_return_delay_mult = 16384; T_EQ(ibcc_swcc_validate(&s), IBCC_ERR_RANGE);
    s = z; s.marking_rate = 65536; T_EQ(ibcc_swcc_validate(&s), IBCC_ERR_RANGE);
    /* encode refuses and writes nothing */
    memset(b, 0x5a, sizeof b);
    T_EQ(ibcc_swcc_encode(&s, b, IBCC_SWCC_MAD_BYTES), IBCC_ERR_RANGE);
    T_EQU(b[0], 0x5a);
    T_EQU(b[75], 0x5a);
}

static void test_port_element(void)
{
    ibcc_swport e, d;
    uint8_t b[4];
    memset(&e, 0, sizeof e);
    e.valid = 1; e.threshold = 10; e.packet_size = 4; e.marking_rate = 300;
    T_EQ(ibcc_swport_encode(&e, b, IBCC_SWPORT_BYTES), IBCC_OK);
    T_EQU(b[0], 0x8a); T_EQU(b[1], 0x04); T_EQU(b[2], 0x01); T_EQU(b[3], 0x2c);
    T_EQ(ibcc_swport_decode(&d, b, IBCC_SWPORT_BYTES), IBCC_OK);
    T_CHECK(memcmp(&d, &e, sizeof e) == 0);
    e.control_type = 1; e.threshold = 15; e.packet_size = 255; e.marking_rate = 65535;
    T_EQ(ibcc_swport_encode(&e, b, IBCC_SWPORT_BYTES), IBCC_OK);
    T_EQU(b[0], 0xcf); T_EQU(b[1], 0xff); T_EQU(b[2], 0xff); T_EQU(b[3], 0xff);
    e.valid = 0; e.control_type = 0; e.threshold = 0;
    T_EQ(ibcc_swport_encode(&e, b, IBCC_SWPORT_BYTES), IBCC_OK);
    T_EQU(b[0], 0x00);
    /* reserved bits 5..4 of byte 0 ignored */
    b[0] = 0xb1;
    T_EQ(ibcc_swport_decode(&d, b, IBCC_SWPORT_BYTES), IBCC_OK);
    T_EQU(d.valid, 1); T_EQU(d.control_type, 0); T_EQU(d.threshold, 1);
    /* validation */
    memset(&e, 0, sizeof e);
    T_EQ(ibcc_swport_validate(NULL), IBCC_ERR_NULL);
    d = e; d.valid = 2; T_EQ(ibcc_swport_validate(&d), IBCC_ERR_RANGE);
    d = e; d.control_type = 2; T_EQ(ibcc_swport_validate(&d), IBCC_ERR_RANGE);
    d = e; d.threshold = 16; T_EQ(ibcc_swport_validate(&d), IBCC_ERR_RANGE);
    d = e; d.packet_size = 256; T_EQ(ibcc_swport_validate(&d), IBCC_ERR_RANGE);
    d = e; d.marking_rate = 65536; T_EQ(ibcc_swport_validate(&d), IBCC_ERR_RANGE);
    T_EQ(ibcc_swport_encode(&d, b, IBCC_SWPORT_BYTES), IBCC_ERR_RANGE);
    T_EQ(ibcc_swport_encode(NULL, b, IBCC_SWPORT_BYTES), IBCC_ERR_NULL);
    T_EQ(ibcc_swport_encode(&e, NULL, IBCC_SWPORT_BYTES), IBCC_ERR_NULL);
    T_EQ(ibcc_swport_decode(NULL, b, IBCC_SWPORT_BYTES), IBCC_ERR_NULL);
    T_EQ(ibcc_swport_decode(&d, NULL, IBCC_SWPORT_BYTES), IBCC_ERR_NULL);
    b[0] = 0xee;
    T_EQ(ibcc_swport_encode(&e, b, IBCC_SWPORT_BYTES - 1u), IBCC_ERR_NOMEM);
    T_EQU(b[0], 0xee);
    d = e;
    T_EQ(ibcc_swport_decode(&d, b, IBCC_SWPORT_BYTES - 1u), IBCC_ERR_NOMEM);
    T_CHECK(memcmp(&d, &e, sizeof d) == 0);
}

/* Random valid settings survive encode -> decode; random bytes with the
   reserved bits cleared survive decode -> encode. */
static void test_round_trips(void)
{
    ibcc_rng r;
    int i, bad = 0;
    ibcc_rng_seed(&r, 11);
    for (i = 0; i < 5000; i++) {
        ibcc_swcc s, d;
        uint8_t b[IBCC_SWCC_MAD_BYTES], c[IBCC_SWCC_MAD_BYTES];
        unsigned k;
        ibcc_swport e, f;
        uint8_t pb[4], pc[4];
        for (k = 0; k < sizeof b; k++) b[k] = (uint8_t)ibcc_rng_next(&r);
        b[0] = b[1] = b[2] = 0; b[3] &= 0x1f;
        b[68] &= 0xf0; b[70] &= 0xf0; b[71] = 0;
        if (ibcc_swcc_decode(&s, b, IBCC_SWCC_MAD_BYTES) != IBCC_OK) bad++;
        if (ibcc_swcc_encode(&s, c, IBCC_SWCC_MAD_BYTES) != IBCC_OK) bad++;
        if (memcmp(b, c, sizeof b) != 0) bad++;
        if (ibcc_swcc_decode(&d, c, IBCC_SWCC_MAD_BYTES) != IBCC_OK || memcmp(&s, &d, sizeof s)) bad++;
        for (k = 0; k < 4; k++) pb[k] = (uint8_t)ibcc_rng_next(&r);
        pb[0] &= 0xcf;
        if (ibcc_swport_decode(&e, pb, IBCC_SWPORT_BYTES) != IBCC_OK) bad++;
        if (ibcc_swport_encode(&e, pc, IBCC_SWPORT_BYTES) != IBCC_OK) bad++;
        if (memcmp(pb, pc, 4) != 0) bad++;
        if (ibcc_swport_decode(&f, pc, IBCC_SWPORT_BYTES) != IBCC_OK || memcmp(&e, &f, sizeof e)) bad++;
    }
    T_EQ(bad, 0);
}

#define SAMPLE_ARGS "SwitchCongestionSetting 0x15 " \
    "0x8000000000000000000000000000000000000000000000000000000000000006 " \
    "0x10000000000 15 8 3 2:1000 1"

static void test_args(void)
{
    ibcc_swcc s, want = sample();
    ibcc_swport e;
    unsigned port = 99;
    char buf[256];
    T_EQ(ibcc_swcc_parse_args(&s, SAMPLE_ARGS), IBCC_OK);
    T_CHECK(memcmp(&s, &want, sizeof s) == 0);
    T_EQ(ibcc_swcc_print_args(&s, buf, sizeof buf), IBCC_OK);
    T_STREQ(buf, SAMPLE_ARGS);
    /* without the command word, decimal numbers, tabs, decimal mask */
    T_EQ(ibcc_swcc_parse_args(&s, "21\t6 0 15 8 0 0:0 0\n"), IBCC_OK);
    T_EQU(s.control_map, 21);
    T_EQU(s.victim_mask[0], 6);
    T_EQU(s.victim_mask[7], 0);
    T_EQU(s.threshold, 15);
    T_EQ(ibcc_swcc_print_args(&s, buf, sizeof buf), IBCC_OK);
    T_STREQ(buf, "SwitchCongestionSetting 0x15 0x6 0x0 15 8 0 0:0 0");
    /* leading zeros: decimal, and hex leading zeros beyond 64 digits */
    T_EQ(ibcc_swcc_parse_args(&s, "010 0x00000000000000000000000000000000000000000000000000000000000000000001 0 0 0 0 0:0 0"), IBCC_OK);
    T_EQU(s.control_map, 10);
    T_EQU(s.victim_mask[0], 1);
    /* decimal mask of 64 bits */
    T_EQ(ibcc_swcc_parse_args(&s, "0 18446744073709551615 0 0 0 0 0:0 0"), IBCC_OK);
    T_EQU(s.victim_mask[0], 0xffffffffu);
    T_EQU(s.victim_mask[1], 0xffffffffu);
    T_EQU(s.victim_mask[2], 0);
    /* errors leave *s unchanged */
    s = want;
    T_EQ(ibcc_swcc_parse_args(&s, "0x15 0 0 15 8 3 2:1000"), IBCC_ERR_PARSE);
    T_EQ(ibcc_swcc_parse_args(&s, "0x15 0 0 15 8 3 2:1000 1 9"), IBCC_ERR_PARSE);
    T_EQ(ibcc_swcc_parse_args(&s, "0x15 0 0 16 8 3 2:1000 1"), IBCC_ERR_RANGE);
    T_EQ(ibcc_swcc_parse_args(&s, "0x15 0 0 15 256 3 2:1000 1"), IBCC_ERR_RANGE);
    T_EQ(ibcc_swcc_parse_args(&s, "0x15 0 0 15 8 16 2:1000 1"), IBCC_ERR_RANGE);
    T_EQ(ibcc_swcc_parse_args(&s, "0x15 0 0 15 8 3 4:1000 1"), IBCC_ERR_RANGE);
    T_EQ(ibcc_swcc_parse_args(&s, "0x15 0 0 15 8 3 2:16384 1"), IBCC_ERR_RANGE);
    T_EQ(ibcc_swcc_parse_args(&s, "0x15 0 0 15 8 3 2-1000 1"), IBCC_ERR_PARSE);
    T_EQ(ibcc_swcc_parse_args(&s, "0x15 0 0 15 8 3 :1000 1"), IBCC_ERR_PARSE);
    T_EQ(ibcc_swcc_parse_args(&s, "0x15 0 0 15 8 3 2:1000 65536"), IBCC_ERR_RANGE);
    T_EQ(ibcc_swcc_parse_args(&s, "0x20 0 0 15 8 3 2:1000 1"), IBCC_ERR_RANGE);
    T_EQ(ibcc_swcc_parse_args(&s, "0x1g 0 0 15 8 3 2:1000 1"), IBCC_ERR_PARSE);
    T_EQ(ibcc_swcc_parse_args(&s, "0x 0 0 15 8 3 2:1000 1"), IBCC_ERR_PARSE);
    T_EQ(ibcc_swcc_parse_args(&s, "-1 0 0 15 8 3 2:1000 1"), IBCC_ERR_PARSE);
    T_EQ(ibcc_swcc_parse_args(&s, "0 0x1zz 0 15 8 3 2:1000 1"), IBCC_ERR_PARSE);
    T_EQ(ibcc_swcc_parse_args(&s, "0 18446744073709551616 0 15 8 3 2:1000 1"), IBCC_ERR_RANGE);
    T_EQ(ibcc_swcc_parse_args(&s, "0 0x10000000000000000000000000000000000000000000000000000000000000000 0 15 8 3 2:1000 1"), IBCC_ERR_RANGE);
    T_EQ(ibcc_swcc_parse_args(&s, "0x100000000 0 0 0 0 0 0:0 0"), IBCC_ERR_RANGE);
    T_EQ(ibcc_swcc_parse_args(&s, ""), IBCC_ERR_PARSE);
    T_EQ(ibcc_swcc_parse_args(&s, "SwitchCongestionSetting"), IBCC_ERR_PARSE);
    T_EQ(ibcc_swcc_parse_args(NULL, "0"), IBCC_ERR_NULL);
    T_EQ(ibcc_swcc_parse_args(&s, NULL), IBCC_ERR_NULL);
    T_CHECK(memcmp(&s, &want, sizeof s) == 0);
    /* printing */
    T_EQ(ibcc_swcc_print_args(&s, buf, 10), IBCC_ERR_NOMEM);
    T_EQU(strlen(buf), 0);
    T_EQ(ibcc_swcc_print_args(&s, buf, 0), IBCC_ERR_NOMEM);
    T_EQ(ibcc_swcc_print_args(NULL, buf, 10), IBCC_ERR_NULL);
    s.threshold = 16;
    T_EQ(ibcc_swcc_print_args(&s, buf, sizeof buf), IBCC_ERR_RANGE);
    /* port form */
    T_EQ(ibcc_swport_parse_args(&e, &port,
         "SwitchPortCongestionSetting 7 1 0 10 4 300"), IBCC_OK);
    T_EQU(port, 7); T_EQU(e.valid, 1); T_EQU(e.control_type, 0);
    T_EQU(e.threshold, 10); T_EQU(e.packet_size, 4); T_EQU(e.marking_rate, 300);
    T_EQ(ibcc_swport_print_args(&e, port, buf, sizeof buf), IBCC_OK);
    T_STREQ(buf, "SwitchPortCongestionSetting 7 1 0 10 4 300");
    T_EQ(ibcc_swport_parse_args(&e, &port, "255 0 1 0 0 0x10"), IBCC_OK);
    T_EQU(port, 255); T_EQU(e.control_type, 1); T_EQU(e.marking_rate, 16);
    port = 5;
    T_EQ(ibcc_swport_parse_args(&e, &port, "256 1 0 1 1 1"), IBCC_ERR_RANGE);
    T_EQ(ibcc_swport_parse_args(&e, &port, "1 2 0 1 1 1"), IBCC_ERR_RANGE);
    T_EQ(ibcc_swport_parse_args(&e, &port, "1 1 2 1 1 1"), IBCC_ERR_RANGE);
    T_EQ(ibcc_swport_parse_args(&e, &port, "1 1 0 16 1 1"), IBCC_ERR_RANGE);
    T_EQ(ibcc_swport_parse_args(&e, &port, "1 1 0 1 256 1"), IBCC_ERR_RANGE);
    T_EQ(ibcc_swport_parse_args(&e, &port, "1 1 0 1 1 65536"), IBCC_ERR_RANGE);
    T_EQ(ibcc_swport_parse_args(&e, &port, "1 1 0 1 1"), IBCC_ERR_PARSE);
    T_EQ(ibcc_swport_parse_args(&e, &port, "1 1 0 1 1 1 1"), IBCC_ERR_PARSE);
    T_EQ(ibcc_swport_parse_args(&e, &port, "x 1 0 1 1 1"), IBCC_ERR_PARSE);
    T_EQ(ibcc_swport_parse_args(NULL, &port, "1 1 0 1 1 1"), IBCC_ERR_NULL);
    T_EQ(ibcc_swport_parse_args(&e, NULL, "1 1 0 1 1 1"), IBCC_ERR_NULL);
    T_EQ(ibcc_swport_parse_args(&e, &port, NULL), IBCC_ERR_NULL);
    T_EQU(port, 5);
    T_EQ(ibcc_swport_print_args(&e, 256, buf, sizeof buf), IBCC_ERR_RANGE);
    T_EQ(ibcc_swport_print_args(&e, 1, buf, 5), IBCC_ERR_NOMEM);
    T_EQU(strlen(buf), 0);
    T_EQ(ibcc_swport_print_args(&e, 1, buf, 0), IBCC_ERR_NOMEM);
    T_EQ(ibcc_swport_print_args(NULL, 1, buf, 5), IBCC_ERR_NULL);
    e.valid = 3;
    T_EQ(ibcc_swport_print_args(&e, 1, buf, sizeof buf), IBCC_ERR_RANGE);
}

static const char *SAMPLE_OPENSM =
    "cc_sw_cong_setting_control_map 0x15\n"
    "cc_sw_cong_setting_victim_mask 0x8000000000000000000000000000000000000000000000000000000000000006\n"
    "cc_sw_cong_setting_credit_mask 0x10000000000\n"
    "cc_sw_cong_setting_threshold 0xf\n"
    "cc_sw_cong_setting_packet_size 0x8\n"
    "cc_sw_cong_setting_credit_starvation_threshold 0x3\n"
    "cc_sw_cong_setting_credit_starvation_return_delay 2:1000\n"
    "cc_sw_cong_setting_marking_rate 0x1\n";

static void test_opensm(void)
{
    ibcc_swcc s, want = sample();
    char buf[1024];
    unsigned bad = 0;
    memset(&s, 0, sizeof s);
    T_EQ(ibcc_swcc_print_opensm(&want, buf, sizeof buf), IBCC_OK);
    T_STREQ(buf, SAMPLE_OPENSM);
    T_EQ(ibcc_swcc_parse_opensm(&s, SAMPLE_OPENSM, &bad), IBCC_OK);
    T_CHECK(memcmp(&s, &want, sizeof s) == 0);
    /* a whole config with other options, comments, blank lines, decimal */
    memset(&s, 0, sizeof s);
    T_EQ(ibcc_swcc_parse_opensm(&s,
        "# OpenSM configuration\n"
        "congestion_control TRUE\n"
        "\n"
        "cc_key 0x0\n"
        "   cc_sw_cong_setting_threshold 12   \r\n"
        "cc_sw_cong_setting_control_map 4\n"
        "cc_sw_cong_setting_packet_size 8\n"
        "cc_ca_cong_setting_ccti_increase \"0 1\"\n"
        "cc_sw_cong_setting_bogus 1", &bad), IBCC_OK);
    T_EQU(s.threshold, 12);
    T_EQU(s.control_map, 4);
    T_EQU(s.packet_size, 8);
    /* single lines */
    T_EQ(ibcc_swcc_parse_opensm_line(&s, "# cc_sw_cong_setting_threshold 1"), IBCC_OK);
    T_EQU(s.threshold, 12);
    T_EQ(ibcc_swcc_parse_opensm_line(&s, ""), IBCC_OK);
    T_EQ(ibcc_swcc_parse_opensm_line(&s, "cc_sw_cong_setting_"), IBCC_ERR_NOT_FOUND);
    T_EQ(ibcc_swcc_parse_opensm_line(&s, "cc_sw_cong_setting_marking_rate 65535"), IBCC_OK);
    T_EQU(s.marking_rate, 65535);
    T_EQ(ibcc_swcc_parse_opensm_line(&s, "cc_sw_cong_setting_marking_rate 65536"), IBCC_ERR_RANGE);
    T_EQ(ibcc_swcc_parse_opensm_line(&s, "cc_sw_cong_setting_marking_rate"), IBCC_ERR_PARSE);
    T_EQ(ibcc_swcc_parse_opensm_line(&s, "cc_sw_cong_setting_marking_rate 1 2"), IBCC_ERR_PARSE);
    T_EQ(ibcc_swcc_parse_opensm_line(&s, "cc_sw_cong_setting_control_map 0x20"), IBCC_ERR_RANGE);
    T_EQ(ibcc_swcc_parse_opensm_line(&s, "cc_sw_cong_setting_threshold 16"), IBCC_ERR_RANGE);
    T_EQ(ibcc_swcc_parse_opensm_line(&s, "cc_sw_cong_setting_packet_size 256"), IBCC_ERR_RANGE);
    T_EQ(ibcc_swcc_parse_opensm_line(&s, "cc_sw_cong_setting_credit_starvation_threshold 16"), IBCC_ERR_RANGE);
    T_EQ(ibcc_swcc_parse_opensm_line(&s, "cc_sw_cong_setting_credit_starvation_return_delay 3"), IBCC_ERR_PARSE);
    T_EQ(ibcc_swcc_parse_opensm_line(&s, "cc_sw_cong_setting_credit_starvation_return_delay 3:5"), IBCC_OK);
    T_EQU(s.cs_return_delay_shift, 3); T_EQU(s.cs_return_delay_mult, 5);
    T_EQ(ibcc_swcc_parse_opensm_line(&s, "cc_sw_cong_setting_victim_mask zz"), IBCC_ERR_PARSE);
    T_EQ(ibcc_swcc_parse_opensm_line(&s, "cc_sw_cong_setting_credit_mask 0x3"), IBCC_OK);
    T_EQU(s.credit_mask[0], 3);
    T_EQ(ibcc_swcc_parse_opensm_line(&s, "cc_sw_cong_setting_credit_starvation_threshold 2"), IBCC_OK);
    T_EQU(s.cs_threshold, 2);
    T_EQ(ibcc_swcc_parse_opensm_line(NULL, "x"), IBCC_ERR_NULL);
    T_EQ(ibcc_swcc_parse_opensm_line(&s, NULL), IBCC_ERR_NULL);
    /* an error reports its line; earlier lines are kept */
    memset(&s, 0, sizeof s);
    T_EQ(ibcc_swcc_parse_opensm(&s,
        "cc_sw_cong_setting_threshold 3\n"
        "opensm_option 1\n"
        "cc_sw_cong_setting_packet_size 300\n"
        "cc_sw_cong_setting_marking_rate 2\n", &bad), IBCC_ERR_RANGE);
    T_EQU(bad, 3);
    T_EQU(s.threshold, 3);
    T_EQU(s.marking_rate, 0);
    T_EQ(ibcc_swcc_parse_opensm(NULL, "", &bad), IBCC_ERR_NULL);
    T_EQ(ibcc_swcc_parse_opensm(&s, NULL, &bad), IBCC_ERR_NULL);
    T_EQ(ibcc_swcc_parse_opensm(&s, "", NULL), IBCC_OK);
    {
        /* lines have no length limit: a long line of another option is
           skipped, a long mask of 666 hex digits is out of range, and the
           same mask with 660 leading zeros is read */
        static char big[700];
        memset(big, 'a', sizeof big - 1);
        T_EQ(ibcc_swcc_parse_opensm(&s, big, &bad), IBCC_OK);
        T_EQU(bad, 0);
        memcpy(big, "cc_sw_cong_setting_victim_mask 0x", 33);
        T_EQ(ibcc_swcc_parse_opensm(&s, big, &bad), IBCC_ERR_RANGE);
        T_EQU(bad, 1);
        memset(big + 33, '0', sizeof big - 1 - 33 - 6);
        T_EQ(ibcc_swcc_parse_opensm(&s, big, &bad), IBCC_OK);
        T_EQU(s.victim_mask[0], 0xaaaaaau);
        T_EQU(s.victim_mask[1], 0);
        /* malformed wins over out of range, wherever each is */
        T_EQ(ibcc_swcc_parse_opensm_line(&s, "cc_sw_cong_setting_threshold 99 x"),
             IBCC_ERR_PARSE);
        T_EQ(ibcc_swcc_parse_args(&s, "0 0 0 99 8 3 2:1000 1 extra"),
             IBCC_ERR_PARSE);
        T_EQ(ibcc_swcc_parse_args(&s, "0 0 0 99 8 3 2:1000 1"), IBCC_ERR_RANGE);
    }
    /* printing errors */
    T_EQ(ibcc_swcc_print_opensm(&want, buf, 40), IBCC_ERR_NOMEM);
    T_EQU(strlen(buf), 0);
    T_EQ(ibcc_swcc_print_opensm(&want, buf, 0), IBCC_ERR_NOMEM);
    T_EQ(ibcc_swcc_print_opensm(NULL, buf, 10), IBCC_ERR_NULL);
    want.packet_size = 256;
    T_EQ(ibcc_swcc_print_opensm(&want, buf, sizeof buf), IBCC_ERR_RANGE);
    /* print -> parse round trip of the all-zero default */
    memset(&want, 0, sizeof want);
    T_EQ(ibcc_swcc_print_opensm(&want, buf, sizeof buf), IBCC_OK);
    s = sample();
    T_EQ(ibcc_swcc_parse_opensm(&s, buf, &bad), IBCC_OK);
    T_CHECK(memcmp(&s, &want, sizeof s) == 0);
}

static ibcc_result iba_marker(ibcc_marker *m, ibcc_marker_engine e)
{
    ibcc_marker_desc d;
    memset(&d, 0, sizeof d);
    d.engine = e;
    d.ports = 8;
    d.out_capacity = 16;
    return ibcc_marker_init(m, &d, mem_, t_size_marker(&d));
}

static void test_apply(void)
{
    ibcc_marker m;
    ibcc_swcc s = sample();
    ibcc_swport e;
    T_EQ(iba_marker(&m, IBCC_MARKER_IBA), IBCC_OK);
    /* port 255 victim on an 8-port switch */
    T_EQ(ibcc_marker_apply_swcc(&m, &s), IBCC_ERR_RANGE);
    s.victim_mask[7] = 0;
    T_EQ(ibcc_marker_apply_swcc(&m, &s), IBCC_OK);
    T_EQU(ibcc_marker_iba_level(&m, 1), 1);      /* 16 * (16-15) / 16 */
    /* port 1 is a victim port: marks without credit; Packet_Size 8. A
       departing packet is tested against the queue behind it: one packet
       from input 4 stays queued for output 1 throughout */
    ibcc_marker_arrive(&m, 4, 1, 600);
    ibcc_marker_arrive(&m, 0, 1, 512);
    ibcc_marker_arrive(&m, 0, 1, 511);
    ibcc_marker_arrive(&m, 0, 1, 600);
    ibcc_marker_arrive(&m, 0, 1, 600);
    T_EQU(ibcc_marker_depart(&m, 0, 1, 512, 0, 0), IBCC_FECN);
    T_EQU(ibcc_marker_depart(&m, 0, 1, 511, 0, 0), 0);  /* too small */
    T_EQU(ibcc_marker_depart(&m, 0, 1, 600, 0, 0), 0);  /* Marking_Rate 1 */
    T_EQU(ibcc_marker_depart(&m, 0, 1, 600, 0, 0), 0);  /* level 1: not > 1 */
    /* port 3 is not a victim port */
    ibcc_marker_arrive(&m, 0, 3, 600);
    ibcc_marker_arrive(&m, 0, 3, 600);
    T_EQU(ibcc_marker_depart(&m, 0, 3, 600, 0, 0), 0);
    T_EQU(ibcc_marker_depart(&m, 0, 3, 600, 0, 0), 0);
    /* Control_Map selects: only Marking_Rate (threshold stays 15) */
    memset(&s, 0, sizeof s);
    s.control_map = IBCC_SWCC_MARKING_RATE;
    s.marking_rate = 0;
    s.threshold = 2;                       /* ignored: bit 2 clear */
    T_EQ(ibcc_marker_apply_swcc(&m, &s), IBCC_OK);
    T_EQU(ibcc_marker_iba_level(&m, 1), 1);
    ibcc_marker_arrive(&m, 0, 1, 600);
    ibcc_marker_arrive(&m, 0, 1, 600);
    T_EQU(ibcc_marker_depart(&m, 0, 1, 600, 0, 0), IBCC_FECN);
    ibcc_marker_arrive(&m, 0, 1, 600);
    T_EQU(ibcc_marker_depart(&m, 0, 1, 600, 0, 0), IBCC_FECN); /* rate 0 */
    T_EQU(ibcc_marker_depart(&m, 0, 1, 600, 0, 0), 0);
    /* only Threshold + Packet_Size; victim mask untouched */
    s.control_map = IBCC_SWCC_THRESHOLD;
    s.threshold = 8; s.packet_size = 0;
    T_EQ(ibcc_marker_apply_swcc(&m, &s), IBCC_OK);
    T_EQU(ibcc_marker_iba_level(&m, 1), 8);
    T_EQ(ibcc_marker_iba_congested(&m, 1, 0), 0);   /* empty */
    /* only the victim mask: clear it */
    s.control_map = IBCC_SWCC_VICTIM_MASK;
    T_EQ(ibcc_marker_apply_swcc(&m, &s), IBCC_OK);
    T_EQU(ibcc_marker_iba_level(&m, 1), 8);
    {
        unsigned i;
        for (i = 0; i < 9; i++) ibcc_marker_arrive(&m, i % 3u, 1, 64);
        T_EQ(ibcc_marker_iba_congested(&m, 1, 0), 0);
        T_EQ(ibcc_marker_iba_congested(&m, 1, 1), 1);
    }
    /* refused: credit mask / credit starvation bits, nothing changes */
    s.control_map = IBCC_SWCC_THRESHOLD | IBCC_SWCC_CREDIT_MASK;
    s.threshold = 1;
    T_EQ(ibcc_marker_apply_swcc(&m, &s), IBCC_ERR_UNSUPPORTED);
    s.control_map = IBCC_SWCC_THRESHOLD | IBCC_SWCC_CS;
    T_EQ(ibcc_marker_apply_swcc(&m, &s), IBCC_ERR_UNSUPPORTED);
    T_EQU(ibcc_marker_iba_level(&m, 1), 8);
    s.control_map = 0x40;
    T_EQ(ibcc_marker_apply_swcc(&m, &s), IBCC_ERR_RANGE);
    T_EQ(ibcc_marker_apply_swcc(NULL, &s), IBCC_ERR_NULL);
    T_EQ(ibcc_marker_apply_swcc(&m, NULL), IBCC_ERR_NULL);
    /* per-port element */
    memset(&e, 0, sizeof e);
    e.valid = 0; e.threshold = 4;
    T_EQ(ibcc_marker_apply_swport(&m, 2, &e), IBCC_OK);
    T_EQU(ibcc_marker_iba_level(&m, 2), 8);          /* unchanged */
    e.valid = 1;
    T_EQ(ibcc_marker_apply_swport(&m, 2, &e), IBCC_OK);
    T_EQU(ibcc_marker_iba_level(&m, 2), 12);         /* 16*12/16 */
    T_EQU(ibcc_marker_iba_level(&m, 1), 8);
    e.control_type = 1;
    T_EQ(ibcc_marker_apply_swport(&m, 2, &e), IBCC_ERR_UNSUPPORTED);
    e.control_type = 0;
    T_EQ(ibcc_marker_apply_swport(&m, 8, &e), IBCC_ERR_RANGE);
    e.threshold = 16;
    T_EQ(ibcc_marker_apply_swport(&m, 2, &e), IBCC_ERR_RANGE);
    T_EQ(ibcc_marker_apply_swport(NULL, 2, &e), IBCC_ERR_NULL);
    T_EQ(ibcc_marker_apply_swport(&m, 2, NULL), IBCC_ERR_NULL);
    /* not an IBA marker */
    T_EQ(iba_marker(&m, IBCC_MARKER_INPUT), IBCC_OK);
    e.threshold = 3;
    T_EQ(ibcc_marker_apply_swport(&m, 2, &e), IBCC_ERR_STATE);
    s.control_map = IBCC_SWCC_THRESHOLD;
    T_EQ(ibcc_marker_apply_swcc(&m, &s), IBCC_ERR_STATE);
}

/* docs/swcc.md example: the [G] settings from the ibccconfig form. */
static void test_g_example(void)
{
    ibcc_marker m;
    ibcc_swcc s;
    unsigned i, marks = 0;
    T_EQ(ibcc_swcc_parse_args(&s, "SwitchCongestionSetting 0x14 0 0 15 8 0 0:0 1"), IBCC_OK);
    T_EQ(iba_marker(&m, IBCC_MARKER_IBA), IBCC_OK);
    T_EQ(ibcc_marker_apply_swcc(&m, &s), IBCC_OK);
    T_EQU(ibcc_marker_iba_level(&m, 5), 1);
    /* two packets stay queued: a departing one finds 2 > 1 behind it */
    ibcc_marker_arrive(&m, 0, 5, 1000);
    ibcc_marker_arrive(&m, 0, 5, 1000);
    for (i = 0; i < 10; i++) {
        ibcc_marker_arrive(&m, 1, 5, 1000);
        ibcc_marker_arrive(&m, 2, 5, 500);
        T_EQU(ibcc_marker_depart(&m, 2, 5, 500, 0, 1), 0);  /* < 512 */
        if (ibcc_marker_depart(&m, 1, 5, 1000, 0, 1)) marks++;
    }
    T_EQU(marks, 5);                          /* every other eligible */
}

int main(void)
{
    T_RUN(test_encode_bytes);
    T_RUN(test_swcc_validate);
    T_RUN(test_port_element);
    T_RUN(test_round_trips);
    T_RUN(test_args);
    T_RUN(test_opensm);
    T_RUN(test_apply);
    T_RUN(test_g_example);
    return t_summary();
}
