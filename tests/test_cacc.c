/* Tests of the L1 cacc section: MAD bytes of CACongestionSetting and
   CongestionControlTable against hand-computed layouts, block split and
   merge, ibccconfig and OpenSM text in and out (round trips and
   rejection of malformed text), and applying settings to an ibcc_cct. */
#ifndef IBCC_TEST_LINKED   /* make test links one implementation object */
#define IBCC_IMPLEMENTATION
#endif
#include "ibcc.h"
#include "t.h"

static uint64_t mem_[4096];

static void test_setting_bytes(void)
{
    ibcc_cacc_setting s, d;
    uint8_t buf[192], want[132];
    memset(&s, 0, sizeof s);
    s.port_control = 1;
    s.control_map = 0x0003;
    s.sl[0].ccti_timer = 150; s.sl[0].ccti_increase = 1;
    s.sl[1].ccti_timer = 0x1234; s.sl[1].ccti_increase = 0xab;
    s.sl[1].trigger_threshold = 7; s.sl[1].ccti_min = 5;
    s.sl[15].ccti_min = 0x42;
    /* by hand: Port_Control 00 01, Control_Map 00 03, entry s at 4 + 8 s:
       timer hi lo, increase, threshold, min, 3 reserved bytes */
    memset(want, 0, sizeof want);
    want[1] = 0x01; want[3] = 0x03;
    want[4] = 0x00; want[5] = 0x96; want[6] = 0x01;
    want[12] = 0x12; want[13] = 0x34; want[14] = 0xab; want[15] = 0x07; want[16] = 0x05;
    want[4 + 8 * 15 + 4] = 0x42;                      /* byte 128 */
    memset(buf, 0xee, sizeof buf);
    T_EQ(ibcc_cacc_setting_encode(&s, buf, sizeof buf), IBCC_OK);
    T_CHECK(memcmp(buf, want, 132) == 0);
    T_EQU(buf[132], 0xee);                            /* nothing beyond */
    T_EQ(ibcc_cacc_setting_decode(&d, buf, 132), IBCC_OK);
    T_CHECK(memcmp(&d, &s, sizeof s) == 0);
    /* reserved bits and bytes are ignored on decode */
    buf[0] = 0xff; buf[1] = 0xff; buf[9] = 0x5a; buf[10] = 0x5a; buf[11] = 0x5a;
    T_EQ(ibcc_cacc_setting_decode(&d, buf, 132), IBCC_OK);
    T_EQU(d.port_control, 1);
    T_EQU(d.sl[0].ccti_min, 0);
    T_EQU(d.sl[1].ccti_timer, 0x1234);
    /* errors */
    T_EQ(ibcc_cacc_setting_encode(&s, buf, 131), IBCC_ERR_NOMEM);
    T_EQ(ibcc_cacc_setting_decode(&d, buf, 131), IBCC_ERR_NOMEM);
    T_EQ(ibcc_cacc_setting_encode(NULL, buf, 132), IBCC_ERR_NULL);
    T_EQ(ibcc_cacc_setting_encode(&s, NULL, 132), IBCC_ERR_NULL);
    T_EQ(ibcc_cacc_setting_decode(NULL, buf, 132), IBCC_ERR_NULL);
    T_EQ(ibcc_cacc_setting_decode(&d, NULL, 132), IBCC_ERR_NULL);
    s.port_control = 2;
    T_EQ(ibcc_cacc_setting_encode(&s, buf, 132), IBCC_ERR_RANGE);
}

static void test_table_bytes(void)
{
    ibcc_cacc_block b, d;
    uint8_t buf[132];
    uint16_t tab[130], back[130];
    uint32_t i;
    memset(&b, 0, sizeof b);
    b.ccti_limit = 127;
    b.block = 1;
    b.entry[0] = IBCC_CCT_ENTRY(2, 100);
    b.entry[63] = IBCC_CCT_ENTRY(3, 16383);
    memset(buf, 0xee, sizeof buf);
    T_EQ(ibcc_cacc_block_encode(&b, buf, sizeof buf), IBCC_OK);
    /* by hand: 00 7f | 00 00 reserved | 80 64 ... ff ff */
    T_EQU(buf[0], 0x00); T_EQU(buf[1], 0x7f);
    T_EQU(buf[2], 0x00); T_EQU(buf[3], 0x00);
    T_EQU(buf[4], 0x80); T_EQU(buf[5], 0x64);
    T_EQU(buf[6], 0x00); T_EQU(buf[7], 0x00);
    T_EQU(buf[130], 0xff); T_EQU(buf[131], 0xff);
    buf[2] = 0x12;                                    /* reserved: ignored */
    T_EQ(ibcc_cacc_block_decode(&d, 1, buf, sizeof buf), IBCC_OK);
    T_CHECK(memcmp(&d, &b, sizeof b) == 0);
    /* errors */
    T_EQ(ibcc_cacc_block_encode(&b, buf, 131), IBCC_ERR_NOMEM);
    T_EQ(ibcc_cacc_block_decode(&d, 1, buf, 131), IBCC_ERR_NOMEM);
    T_EQ(ibcc_cacc_block_decode(&d, 256, buf, 132), IBCC_ERR_RANGE);
    T_EQ(ibcc_cacc_block_encode(NULL, buf, 132), IBCC_ERR_NULL);
    T_EQ(ibcc_cacc_block_decode(NULL, 0, buf, 132), IBCC_ERR_NULL);
    T_EQ(ibcc_cacc_block_decode(&d, 0, NULL, 132), IBCC_ERR_NULL);
    b.block = 256;
    T_EQ(ibcc_cacc_block_encode(&b, buf, 132), IBCC_ERR_RANGE);
    b.block = 1; b.ccti_limit = 16384;
    T_EQ(ibcc_cacc_block_encode(&b, buf, 132), IBCC_ERR_RANGE);
    buf[0] = 0x40; buf[1] = 0x00;                     /* limit 16384 */
    T_EQ(ibcc_cacc_block_decode(&d, 0, buf, 132), IBCC_ERR_RANGE);
    /* split a 130-entry table (limit 129) into 3 blocks and merge back */
    for (i = 0; i < 130; i++) tab[i] = (uint16_t)(i * 3 + 1);
    T_EQU(ibcc_cacc_blocks(129), 3);
    T_EQU(ibcc_cacc_blocks(0), 1);
    T_EQU(ibcc_cacc_blocks(63), 1);
    T_EQU(ibcc_cacc_blocks(64), 2);
    memset(back, 0, sizeof back);
    for (i = 0; i < 3; i++) {
        T_EQ(ibcc_cacc_block_from_table(&b, tab, 130, 129, (uint16_t)i), IBCC_OK);
        T_EQ(ibcc_cacc_block_encode(&b, buf, 132), IBCC_OK);
        T_EQ(ibcc_cacc_block_decode(&d, (uint16_t)i, buf, 132), IBCC_OK);
        T_EQ(ibcc_cacc_block_to_table(&d, back, 130), IBCC_OK);
    }
    T_CHECK(memcmp(tab, back, sizeof tab) == 0);
    T_EQ(ibcc_cacc_block_from_table(&b, tab, 130, 129, 2), IBCC_OK);
    T_EQU(b.entry[1], 129 * 3 + 1);
    T_EQU(b.entry[2], 0);                              /* beyond n */
    T_EQ(ibcc_cacc_block_to_table(&b, back, 129), IBCC_ERR_CAPACITY);
    b.ccti_limit = 10;                                 /* block 2 past limit */
    T_EQ(ibcc_cacc_block_to_table(&b, back, 1), IBCC_OK);
    T_EQ(ibcc_cacc_block_from_table(&b, tab, 130, 130, 0), IBCC_ERR_RANGE);
    T_EQ(ibcc_cacc_block_from_table(&b, tab, 130, 129, 3), IBCC_ERR_RANGE);
    T_EQ(ibcc_cacc_block_from_table(&b, NULL, 130, 129, 0), IBCC_ERR_NULL);
    T_EQ(ibcc_cacc_block_from_table(NULL, tab, 130, 129, 0), IBCC_ERR_NULL);
    T_EQ(ibcc_cacc_block_from_table(&b, tab, 16385, 129, 0), IBCC_ERR_CAPACITY);
    T_EQ(ibcc_cacc_block_from_table(&b, NULL, 0, 0, 0), IBCC_OK);
    T_EQU(b.entry[0], 0);
    T_EQ(ibcc_cacc_block_from_table(&b, NULL, 0, 1, 0), IBCC_ERR_RANGE);
    T_EQ(ibcc_cacc_block_to_table(NULL, back, 3), IBCC_ERR_NULL);
    T_EQ(ibcc_cacc_block_to_table(&b, NULL, 3), IBCC_ERR_NULL);
}

static void test_ibccconfig(void)
{
    ibcc_cacc_setting s;
    ibcc_cacc_block b;
    char out[400];
    unsigned i;
    T_EQ(ibcc_cacc_setting_parse_args(&s, "CACongestionSetting 0 0x3 150 1 0 0"), IBCC_OK);
    T_EQU(s.port_control, 0);
    T_EQU(s.control_map, 3);
    T_EQU(s.sl[0].ccti_timer, 150);
    T_EQU(s.sl[1].ccti_increase, 1);
    T_EQU(s.sl[2].ccti_timer, 0);                     /* not in the map */
    T_EQ(ibcc_cacc_setting_print_args(&s, out, sizeof out), IBCC_OK);
    T_STREQ(out, "CACongestionSetting 0 0x3 150 1 0 0");
    T_EQ(ibcc_cacc_setting_parse_args(&s, "  CACongestionSetting 1 65535 0xffff 255 9 3 \n"), IBCC_OK);
    for (i = 0; i < 16; i++) T_EQU(s.sl[i].ccti_timer, 65535);
    T_EQ(ibcc_cacc_setting_print_args(&s, out, sizeof out), IBCC_OK);
    T_STREQ(out, "CACongestionSetting 1 0xffff 65535 255 9 3");
    T_EQ(ibcc_cacc_setting_print_args(&s, out, 10), IBCC_ERR_NOMEM);
    T_STREQ(out, "");
    /* not expressible in this form */
    s.sl[4].ccti_min = 0;
    T_EQ(ibcc_cacc_setting_print_args(&s, out, sizeof out), IBCC_ERR_UNSUPPORTED);
    T_EQ(ibcc_cacc_setting_parse_args(&s, "CACongestionSetting 0 0x1 150 1 0 0"), IBCC_OK);
    s.sl[9].ccti_timer = 1;
    T_EQ(ibcc_cacc_setting_print_args(&s, out, sizeof out), IBCC_ERR_UNSUPPORTED);
    /* malformed */
    T_EQ(ibcc_cacc_setting_parse_args(&s, "CACongestionSetting 0 3 150 1 0"), IBCC_ERR_PARSE);
    T_EQ(ibcc_cacc_setting_parse_args(&s, "CACongestionSetting 0 3 150 1 0 0 7"), IBCC_ERR_PARSE);
    T_EQ(ibcc_cacc_setting_parse_args(&s, "CACongestionSettings 0 3 150 1 0 0"), IBCC_ERR_PARSE);
    T_EQ(ibcc_cacc_setting_parse_args(&s, "CACongestionSetting 0 3 15x 1 0 0"), IBCC_ERR_PARSE);
    T_EQ(ibcc_cacc_setting_parse_args(&s, "CACongestionSetting 0 0x 150 1 0 0"), IBCC_ERR_PARSE);
    T_EQ(ibcc_cacc_setting_parse_args(&s, "CACongestionSetting 0 3 -1 1 0 0"), IBCC_ERR_PARSE);
    T_EQ(ibcc_cacc_setting_parse_args(&s, ""), IBCC_ERR_PARSE);
    T_EQ(ibcc_cacc_setting_parse_args(&s, "CACongestionSetting 2 3 150 1 0 0"), IBCC_ERR_RANGE);
    T_EQ(ibcc_cacc_setting_parse_args(&s, "CACongestionSetting 0 0x10000 150 1 0 0"), IBCC_ERR_RANGE);
    T_EQ(ibcc_cacc_setting_parse_args(&s, "CACongestionSetting 0 3 65536 1 0 0"), IBCC_ERR_RANGE);
    T_EQ(ibcc_cacc_setting_parse_args(&s, "CACongestionSetting 0 3 150 256 0 0"), IBCC_ERR_RANGE);
    T_EQ(ibcc_cacc_setting_parse_args(&s, "CACongestionSetting 0 3 150 1 256 0"), IBCC_ERR_RANGE);
    T_EQ(ibcc_cacc_setting_parse_args(&s, "CACongestionSetting 0 3 150 1 0 256"), IBCC_ERR_RANGE);
    T_EQ(ibcc_cacc_setting_parse_args(&s, "CACongestionSetting 0 3 99999999999999999999999 1 0 0"),
         IBCC_ERR_RANGE);
    T_EQ(ibcc_cacc_setting_parse_args(NULL, "x"), IBCC_ERR_NULL);
    T_EQ(ibcc_cacc_setting_parse_args(&s, NULL), IBCC_ERR_NULL);
    T_EQ(ibcc_cacc_setting_print_args(NULL, out, 9), IBCC_ERR_NULL);
    /* CongestionControlTable */
    T_EQ(ibcc_cacc_block_parse_args(&b, "CongestionControlTable 65 1 2:100 3:16383"), IBCC_OK);
    T_EQU(b.ccti_limit, 65);
    T_EQU(b.block, 1);
    T_EQU(b.entry[0], 0x8064);
    T_EQU(b.entry[1], 0xffff);
    T_EQU(b.entry[2], 0);
    T_EQ(ibcc_cacc_block_print_args(&b, out, sizeof out), IBCC_OK);
    T_STREQ(out, "CongestionControlTable 65 1 2:100 3:16383");
    b.block = 2;                                      /* beyond the limit */
    T_EQ(ibcc_cacc_block_print_args(&b, out, sizeof out), IBCC_OK);
    T_STREQ(out, "CongestionControlTable 65 2");
    T_EQ(ibcc_cacc_block_parse_args(&b, "CongestionControlTable 0 0 0:0"), IBCC_OK);
    T_EQ(ibcc_cacc_block_print_args(&b, out, sizeof out), IBCC_OK);
    T_STREQ(out, "CongestionControlTable 0 0 0:0");
    T_EQ(ibcc_cacc_block_print_args(&b, out, 20), IBCC_ERR_NOMEM);
    /* a block the parser and the encoder refuse is not printed either */
    b.ccti_limit = 16384;
    T_EQ(ibcc_cacc_block_print_args(&b, out, sizeof out), IBCC_ERR_RANGE);
    b.ccti_limit = 0; b.block = 256;
    T_EQ(ibcc_cacc_block_print_args(&b, out, sizeof out), IBCC_ERR_RANGE);
    b.block = 255;
    T_EQ(ibcc_cacc_block_print_args(&b, out, sizeof out), IBCC_OK);
    T_STREQ(out, "CongestionControlTable 0 255");
    T_EQ(ibcc_cacc_block_parse_args(&b, "CongestionControlTable 2 0 4:1"), IBCC_ERR_RANGE);
    T_EQ(ibcc_cacc_block_parse_args(&b, "CongestionControlTable 2 0 1:16384"), IBCC_ERR_RANGE);
    T_EQ(ibcc_cacc_block_parse_args(&b, "CongestionControlTable 16384 0 1:1"), IBCC_ERR_RANGE);
    T_EQ(ibcc_cacc_block_parse_args(&b, "CongestionControlTable 2 256 1:1"), IBCC_ERR_RANGE);
    T_EQ(ibcc_cacc_block_parse_args(&b, "CongestionControlTable 2 0 1-2"), IBCC_ERR_PARSE);
    T_EQ(ibcc_cacc_block_parse_args(&b, "CongestionControlTable 2 0 1:2,3:4"), IBCC_ERR_PARSE);
    T_EQ(ibcc_cacc_block_parse_args(&b, "CongestionControlTable 2 0 1:"), IBCC_ERR_PARSE);
    T_EQ(ibcc_cacc_block_parse_args(&b, "CongestionControlTable 2 0 :1"), IBCC_ERR_PARSE);
    T_EQ(ibcc_cacc_block_parse_args(&b, "CongestionControlTable 2"), IBCC_ERR_PARSE);
    T_EQ(ibcc_cacc_block_parse_args(&b, "CongestionControl 2 0"), IBCC_ERR_PARSE);
    T_EQ(ibcc_cacc_block_parse_args(NULL, "x"), IBCC_ERR_NULL);
    T_EQ(ibcc_cacc_block_print_args(NULL, out, 9), IBCC_ERR_NULL);
    {
        /* 64 entries fit, 65 do not */
        char t[800];
        strcpy(t, "CongestionControlTable 63 0");
        for (i = 0; i < 64; i++) strcat(t, " 0:7");
        T_EQ(ibcc_cacc_block_parse_args(&b, t), IBCC_OK);
        T_EQU(b.entry[63], 7);
        strcat(t, " 0:7");
        T_EQ(ibcc_cacc_block_parse_args(&b, t), IBCC_ERR_RANGE);
    }
}

static const char *conf_ =
    "# opensm.conf excerpt\n"
    "congestion_control TRUE\n"
    "cc_ca_cong_setting_port_control 0x0\n"
    "cc_ca_cong_setting_control_map 0x0001\n"
    "cc_ca_cong_setting_ccti_timer 0 10\n"
    "cc_ca_cong_setting_ccti_increase 0 2\n"
    "cc_ca_cong_setting_trigger_threshold 0 0\n"
    "cc_ca_cong_setting_ccti_min 0 1\n"
    "cc_sw_cong_setting_threshold 0xf\n"
    "\n"
    "cc_cct 0:0, 0:5,1:10\n";

static void test_opensm(void)
{
    static char out[8192];
    ibcc_cacc_config c, d;
    unsigned line = 99;
    uint32_t i;
    memset(&c, 0, sizeof c);
    T_EQ(ibcc_cacc_parse_opensm(&c, conf_, &line), IBCC_OK);
    T_EQ(line, 0);
    T_EQU(c.setting.control_map, 1);
    T_EQU(c.setting.sl[0].ccti_timer, 10);
    T_EQU(c.setting.sl[0].ccti_increase, 2);
    T_EQU(c.setting.sl[0].ccti_min, 1);
    T_EQU(c.cct_len, 3);
    T_EQU(c.cct[1], 5);
    T_EQU(c.cct[2], IBCC_CCT_ENTRY(1, 10));
    T_EQ(ibcc_cacc_print_opensm(&c, out, sizeof out), IBCC_OK);
    T_CHECK(strncmp(out, "cc_ca_cong_setting_port_control 0x0\n"
                         "cc_ca_cong_setting_control_map 0x1\n"
                         "cc_ca_cong_setting_ccti_timer 0 10\n"
                         "cc_ca_cong_setting_ccti_timer 1 0\n", 140) == 0);
    T_CHECK(strstr(out, "\ncc_ca_cong_setting_ccti_min 0 1\n") != NULL);
    T_CHECK(strstr(out, "\ncc_ca_cong_setting_trigger_threshold 15 0\n") != NULL);
    T_CHECK(strstr(out, "\ncc_cct 0:0,0:5,1:10\n") != NULL);
    {
        /* 2 + 4 x 16 + 1 lines */
        unsigned nl = 0;
        const char *p;
        for (p = out; *p; p++) nl += (*p == '\n');
        T_EQ(nl, 67);
    }
    memset(&d, 0, sizeof d);
    T_EQ(ibcc_cacc_parse_opensm(&d, out, NULL), IBCC_OK);
    T_CHECK(memcmp(&c.setting, &d.setting, sizeof c.setting) == 0);
    T_EQU(d.cct_len, 3);
    T_CHECK(memcmp(c.cct, d.cct, 3 * sizeof c.cct[0]) == 0);
    /* no table */
    T_EQ(ibcc_cacc_parse_opensm_line(&d, "cc_cct (null)"), IBCC_OK);
    T_EQU(d.cct_len, 0);
    T_EQ(ibcc_cacc_print_opensm(&d, out, sizeof out), IBCC_OK);
    T_CHECK(strstr(out, "\ncc_cct (null)\n") != NULL);
    T_EQ(ibcc_cacc_parse_opensm_line(&d, "cc_cct 1:1"), IBCC_OK);
    T_EQU(d.cct_len, 1);
    T_EQ(ibcc_cacc_parse_opensm_line(&d, "cc_cct"), IBCC_OK);
    T_EQU(d.cct_len, 0);
    /* 128 entries accepted, 129 rejected */
    {
        static char t[2048];
        strcpy(t, "cc_cct 0:1");
        for (i = 1; i < 128; i++) strcat(t, ",0:1");
        T_EQ(ibcc_cacc_parse_opensm_line(&d, t), IBCC_OK);
        T_EQU(d.cct_len, 128);
        strcat(t, ",0:1");
        T_EQ(ibcc_cacc_parse_opensm_line(&d, t), IBCC_ERR_RANGE);
        T_EQU(d.cct_len, 128);                        /* unchanged */
        T_EQ(ibcc_cacc_print_opensm(&d, out, sizeof out), IBCC_OK);
        T_EQ(ibcc_cacc_print_opensm(&d, out, 100), IBCC_ERR_NOMEM);
        d.cct_len = 129;
        T_EQ(ibcc_cacc_print_opensm(&d, out, sizeof out), IBCC_ERR_RANGE);
    }
    /* other options and comments */
    T_EQ(ibcc_cacc_parse_opensm_line(&d, "cc_sw_cong_setting_threshold 0xf"), IBCC_ERR_NOT_FOUND);
    T_EQ(ibcc_cacc_parse_opensm_line(&d, "cc_cctx 1:1"), IBCC_ERR_NOT_FOUND);
    T_EQ(ibcc_cacc_parse_opensm_line(&d, "   # cc_cct 1:1"), IBCC_OK);
    T_EQ(ibcc_cacc_parse_opensm_line(&d, ""), IBCC_OK);
    /* malformed */
    T_EQ(ibcc_cacc_parse_opensm_line(&d, "cc_ca_cong_setting_ccti_timer 16 5"), IBCC_ERR_RANGE);
    T_EQ(ibcc_cacc_parse_opensm_line(&d, "cc_ca_cong_setting_ccti_timer 3 65536"), IBCC_ERR_RANGE);
    T_EQ(ibcc_cacc_parse_opensm_line(&d, "cc_ca_cong_setting_ccti_min 0 256"), IBCC_ERR_RANGE);
    T_EQ(ibcc_cacc_parse_opensm_line(&d, "cc_ca_cong_setting_ccti_increase 0 0x100"), IBCC_ERR_RANGE);
    T_EQ(ibcc_cacc_parse_opensm_line(&d, "cc_ca_cong_setting_trigger_threshold 0 300"), IBCC_ERR_RANGE);
    T_EQ(ibcc_cacc_parse_opensm_line(&d, "cc_ca_cong_setting_port_control 2"), IBCC_ERR_RANGE);
    {   /* what the parser refuses is not printed either */
        ibcc_cacc_config e = c;
        e.setting.port_control = 2;
        T_EQ(ibcc_cacc_print_opensm(&e, out, sizeof out), IBCC_ERR_RANGE);
        e.setting.port_control = 1;
        T_EQ(ibcc_cacc_print_opensm(&e, out, sizeof out), IBCC_OK);
        T_CHECK(strncmp(out, "cc_ca_cong_setting_port_control 0x1\n", 36) == 0);
    }
    T_EQ(ibcc_cacc_parse_opensm_line(&d, "cc_ca_cong_setting_control_map 0x10000"), IBCC_ERR_RANGE);
    T_EQ(ibcc_cacc_parse_opensm_line(&d, "cc_ca_cong_setting_ccti_timer 3"), IBCC_ERR_PARSE);
    T_EQ(ibcc_cacc_parse_opensm_line(&d, "cc_ca_cong_setting_ccti_timer 3 4 5"), IBCC_ERR_PARSE);
    T_EQ(ibcc_cacc_parse_opensm_line(&d, "cc_ca_cong_setting_control_map"), IBCC_ERR_PARSE);
    T_EQ(ibcc_cacc_parse_opensm_line(&d, "cc_ca_cong_setting_control_map 1 2"), IBCC_ERR_PARSE);
    T_EQ(ibcc_cacc_parse_opensm_line(&d, "cc_ca_cong_setting_port_control x"), IBCC_ERR_PARSE);
    T_EQ(ibcc_cacc_parse_opensm_line(&d, "cc_ca_cong_setting_port_control 0 0"), IBCC_ERR_PARSE);
    T_EQ(ibcc_cacc_parse_opensm_line(&d, "cc_cct 0:1,,0:2"), IBCC_ERR_PARSE);
    T_EQ(ibcc_cacc_parse_opensm_line(&d, "cc_cct 0:1 0:2"), IBCC_ERR_PARSE);
    T_EQ(ibcc_cacc_parse_opensm_line(&d, "cc_cct 0:1,"), IBCC_ERR_PARSE);
    T_EQ(ibcc_cacc_parse_opensm_line(&d, "cc_cct 5:1"), IBCC_ERR_RANGE);
    T_EQ(ibcc_cacc_parse_opensm_line(&d, "cc_cct (null) 1"), IBCC_ERR_PARSE);
    T_EQ(ibcc_cacc_parse_opensm_line(NULL, "x"), IBCC_ERR_NULL);
    T_EQ(ibcc_cacc_parse_opensm_line(&d, NULL), IBCC_ERR_NULL);
    T_EQ(ibcc_cacc_parse_opensm(&d, "cc_cct 1:1\n\ncc_ca_cong_setting_ccti_min 0 999\n", &line),
         IBCC_ERR_RANGE);
    T_EQ(line, 3);
    T_EQ(ibcc_cacc_parse_opensm(NULL, "", &line), IBCC_ERR_NULL);
    T_EQ(ibcc_cacc_print_opensm(NULL, out, 10), IBCC_ERR_NULL);
}

static void test_apply(void)
{
    ibcc_cct_desc d;
    ibcc_cct c;
    ibcc_cacc_config cfg;
    ibcc_cacc_setting s;
    memset(&d, 0, sizeof d);
    d.flows = 2;
    if (ibcc_cct_init(&c, &d, mem_, sizeof mem_) != IBCC_OK) {
        T_CHECK(!"ibcc_cct_init");
        return;
    }
    T_EQ(ibcc_cct_set_flow_sl(&c, 1, 1, 0), IBCC_OK);
    memset(&cfg, 0, sizeof cfg);
    T_EQ(ibcc_cacc_parse_opensm(&cfg, conf_, NULL), IBCC_OK);
    {
        /* the bytes quoted in docs/cacc.md */
        static const uint8_t set0[12] = {0, 0, 0, 1, 0, 0x0a, 2, 0, 1, 0, 0, 0};
        static const uint8_t tab0[10] = {0, 2, 0, 0, 0, 0, 0, 5, 0x40, 0x0a};
        uint8_t buf[132];
        ibcc_cacc_block b;
        T_EQ(ibcc_cacc_setting_encode(&cfg.setting, buf, sizeof buf), IBCC_OK);
        T_CHECK(memcmp(buf, set0, sizeof set0) == 0);
        T_EQ(ibcc_cacc_block_from_table(&b, cfg.cct, cfg.cct_len, 2, 0), IBCC_OK);
        T_EQ(ibcc_cacc_block_encode(&b, buf, sizeof buf), IBCC_OK);
        T_CHECK(memcmp(buf, tab0, sizeof tab0) == 0);
    }
    T_EQ(ibcc_cacc_apply_config(&c, &cfg, 0), IBCC_OK);
    T_EQ(ibcc_cct_limit(&c), 2);
    T_EQU(ibcc_cct_table(&c)[1], 5);
    T_EQU(ibcc_cct_table(&c)[3], 0);
    /* BECN: 0 + 2 = 2 (limit 2); delay of 1:10 = (1037000 >> 1) * 10 */
    T_EQ(ibcc_cct_on_becn(&c, 0, 0), 2);
    T_EQU(ibcc_cct_delay(&c, 0, 0), 5185000u);
    /* timer 10 x 1.024 us: 2 -> 1 (Min) at 10.24 us */
    T_EQ(ibcc_cct_ccti(&c, 0, IBCC_NS(10240)), 1);
    T_EQ(ibcc_cct_ccti(&c, 0, IBCC_MS(1)), 1);
    /* SL 1 is not in Control_Map: CC off */
    T_EQ(ibcc_cct_on_becn(&c, 1, IBCC_MS(1)), 0);
    T_EQ(ibcc_cacc_from_cct(&s, &c), IBCC_OK);
    T_CHECK(memcmp(&s, &cfg.setting, sizeof s) == 0);
    /* a bigger table and a Min above the old limit: applied in order */
    cfg.cct_len = 128;
    cfg.setting.sl[3].ccti_min = 100;
    T_EQ(ibcc_cacc_apply_config(&c, &cfg, IBCC_MS(2)), IBCC_OK);
    T_EQ(ibcc_cct_limit(&c), 127);
    T_EQ(ibcc_cct_get_sl(&c, 3)->ccti_min, 100);
    /* back to a small table: Min 100 > limit 2 must be rejected first */
    cfg.cct_len = 3;
    T_EQ(ibcc_cacc_apply_config(&c, &cfg, IBCC_MS(3)), IBCC_ERR_RANGE);
    T_EQ(ibcc_cct_limit(&c), 127);                   /* nothing applied */
    cfg.setting.sl[3].ccti_min = 0;
    T_EQ(ibcc_cacc_apply_config(&c, &cfg, IBCC_MS(3)), IBCC_OK);
    T_EQ(ibcc_cct_limit(&c), 2);
    /* empty table: limit 0 */
    cfg.cct_len = 0;
    cfg.setting.sl[0].ccti_min = 0;
    T_EQ(ibcc_cacc_apply_config(&c, &cfg, IBCC_MS(4)), IBCC_OK);
    T_EQ(ibcc_cct_limit(&c), 0);
    T_EQ(ibcc_cct_on_becn(&c, 0, IBCC_MS(4)), 0);
    /* errors */
    cfg.cct_len = 129;
    T_EQ(ibcc_cacc_apply_config(&c, &cfg, IBCC_MS(5)), IBCC_ERR_RANGE);
    cfg.cct_len = 3;
    cfg.setting.port_control = 2;
    T_EQ(ibcc_cacc_apply_config(&c, &cfg, IBCC_MS(5)), IBCC_ERR_RANGE);
    T_EQ(ibcc_cacc_apply(&c, &cfg.setting, IBCC_MS(5)), IBCC_ERR_RANGE);
    cfg.setting.port_control = 1;
    T_EQ(ibcc_cacc_apply(&c, &cfg.setting, IBCC_MS(5)), IBCC_OK);
    T_EQ(ibcc_cacc_from_cct(&s, &c), IBCC_OK);
    T_EQU(s.port_control, 1);
    cfg.setting.sl[0].ccti_min = 1;                  /* limit is 0 */
    T_EQ(ibcc_cacc_apply(&c, &cfg.setting, IBCC_MS(5)), IBCC_ERR_RANGE);
    T_EQ(ibcc_cacc_apply(NULL, &cfg.setting, 0), IBCC_ERR_NULL);
    T_EQ(ibcc_cacc_apply(&c, NULL, 0), IBCC_ERR_NULL);
    T_EQ(ibcc_cacc_apply_config(NULL, &cfg, 0), IBCC_ERR_NULL);
    T_EQ(ibcc_cacc_apply_config(&c, NULL, 0), IBCC_ERR_NULL);
    T_EQ(ibcc_cacc_from_cct(NULL, &c), IBCC_ERR_NULL);
    T_EQ(ibcc_cacc_from_cct(&s, NULL), IBCC_ERR_NULL);
    {
        /* agent table smaller than the configuration */
        ibcc_cct small;
        uint16_t two[2] = {0, 1};
        memset(&d, 0, sizeof d);
        d.entries = 2; d.table = two; d.table_len = 2;
        T_EQ(ibcc_cct_init(&small, &d, mem_, sizeof mem_), IBCC_OK);
        cfg.setting.sl[0].ccti_min = 0;
        cfg.cct_len = 3;
        T_EQ(ibcc_cacc_apply_config(&small, &cfg, 0), IBCC_ERR_CAPACITY);
    }
}

/* Regression (misuse review): applying to a zeroed, never initialised
   agent is refused before anything is changed. */
static void test_misuse_regressions(void)
{
    ibcc_cct z;
    ibcc_cacc_config cfg;
    memset(&z, 0, sizeof z);
    memset(&cfg, 0, sizeof cfg);
    T_EQ(ibcc_cacc_apply_config(&z, &cfg, 0), IBCC_ERR_STATE);
}

int main(void)
{
    T_RUN(test_setting_bytes);
    T_RUN(test_table_bytes);
    T_RUN(test_ibccconfig);
    T_RUN(test_opensm);
    T_RUN(test_apply);
    T_RUN(test_misuse_regressions);
    return t_summary();
}
