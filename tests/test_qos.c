/* Tests of OpenSM's QoS options (L1 qos): an opensm.conf fragment read
   exactly (other options skipped and counted), the order in which a port
   type takes its values (prefixed, unprefixed, OpenSM's built-in), the
   VL masking of ports with fewer VLs, the "not given" forms OpenSM
   writes, and every refusal with its code and line. */
#ifndef IBCC_TEST_LINKED   /* make test links one implementation object */
#define IBCC_IMPLEMENTATION
#endif
#include "ibcc.h"
#include "t.h"

/* A table as "VL:weight,..." text. */
static const char *tab(const ibcc_vlarb_entry *e, uint32_t n)
{
    static char buf[512];
    T_EQ(ibcc_vlarb_print_table(e, n, buf, sizeof buf), IBCC_OK);
    return buf;
}

/* 16 SL2VL values as "a,b,...". */
static const char *map(const uint8_t *m)
{
    static char buf[64];
    size_t p = 0;
    unsigned i;
    for (i = 0; i < 16u; i++)
        p += (size_t)sprintf(buf + p, "%s%u", i ? "," : "", m[i]);
    return buf;
}

static const char conf[] =
    "# OpenSM configuration (part)\n"
    "guid 0x0000000000000000\n"
    "sweep_interval 10\n"
    "routing_engine ftree\n"
    "\n"
    "# QoS\n"
    "qos TRUE\n"
    "qos_policy_file /etc/opensm/qos-policy.conf\n"
    "qos_max_vls 8\n"
    "qos_high_limit 4\n"
    "qos_vlarb_high 0:64, 1:32\n"
    "qos_vlarb_low 0:0,1:0,2:16,3:16,4:8,5:8,6:4,7:4\n"
    "qos_sl2vl 0,1,2,3,4,5,6,7,0,1,2,3,4,5,6,15\n"
    "   \n"
    "qos_ca_max_vls 4\n"
    "qos_ca_high_limit -1\n"
    "qos_ca_vlarb_high 0:255\n"
    "qos_ca_vlarb_low 1:8,2:8,3:8,\n"
    "qos_ca_sl2vl 0,1,2,3,0,1,2,3,0,1,2,3,0,1,2,3\n"
    "\n"
    "qos_sw0_max_vls 0\n"
    "qos_sw0_vlarb_high (null)\n"
    "qos_swe_high_limit 0x10\n"
    "qos_rtr_max_vls 2\n"
    "qos_rtr_vlarb_high 0:4\n"
    "qos_rtr_vlarb_low 1:4\n"
    "qos_rtr_sl2vl 0,1,0,1,0,1,0,1,0,1,0,1,0,1,0,1\n"
    "log_flags 0x83\n";

static void test_fragment(void)
{
    ibcc_qos_config c;
    ibcc_vlarb_desc d;
    uint8_t m[16];
    unsigned bad = 99;
    memset(&c, 0, sizeof c);
    T_EQ(ibcc_qos_parse_opensm(&c, conf, &bad), IBCC_OK);
    T_EQU(bad, 0);
    T_EQ(c.qos, 1);
    T_EQU(c.other, 5);   /* guid, sweep_interval, routing_engine,
                            qos_policy_file, log_flags */
    /* the stored sets */
    T_EQU(c.set[IBCC_QOS_ANY].given, 31);
    T_EQU(c.set[IBCC_QOS_ANY].max_vls, 8);
    T_EQU(c.set[IBCC_QOS_ANY].line[0], 9);
    T_EQU(c.set[IBCC_QOS_ANY].line[4], 13);
    T_STREQ(tab(c.set[IBCC_QOS_ANY].high, c.set[IBCC_QOS_ANY].n_high),
            "0:64,1:32");
    T_EQU(c.set[IBCC_QOS_CA].given, IBCC_QOS_GIVEN_MAX_VLS
          | IBCC_QOS_GIVEN_VLARB_HIGH | IBCC_QOS_GIVEN_VLARB_LOW
          | IBCC_QOS_GIVEN_SL2VL);
    T_EQU(c.set[IBCC_QOS_SW0].given, 0);
    T_EQU(c.set[IBCC_QOS_SWE].given, IBCC_QOS_GIVEN_HIGH_LIMIT);
    T_EQU(c.set[IBCC_QOS_SWE].line[1], 23);
    /* CA: its own values; the limit from the unprefixed set */
    T_EQ(ibcc_qos_port_setting(&c, IBCC_QOS_CA, &d, m), IBCC_OK);
    T_EQU(d.vls, 4);
    T_EQU(d.high_limit, 4);
    T_STREQ(tab(d.high, d.n_high), "0:255");
    T_STREQ(tab(d.low, d.n_low), "1:8,2:8,3:8");
    T_STREQ(map(m), "0,1,2,3,0,1,2,3,0,1,2,3,0,1,2,3");
    /* switch port 0: everything unprefixed ("0" and "(null)" = not given) */
    T_EQ(ibcc_qos_port_setting(&c, IBCC_QOS_SW0, &d, m), IBCC_OK);
    T_EQU(d.vls, 8);
    T_EQU(d.high_limit, 4);
    T_STREQ(tab(d.high, d.n_high), "0:64,1:32");
    T_STREQ(tab(d.low, d.n_low), "0:0,1:0,2:16,3:16,4:8,5:8,6:4,7:4");
    T_STREQ(map(m), "0,1,2,3,4,5,6,7,0,1,2,3,4,5,6,15");
    /* external ports: own limit (0x10), the rest unprefixed */
    T_EQ(ibcc_qos_port_setting(&c, IBCC_QOS_SWE, &d, NULL), IBCC_OK);
    T_EQU(d.vls, 8);
    T_EQU(d.high_limit, 16);
    T_STREQ(tab(d.high, d.n_high), "0:64,1:32");
    /* router: 2 VLs */
    T_EQ(ibcc_qos_port_setting(&c, IBCC_QOS_RTR, &d, m), IBCC_OK);
    T_EQU(d.vls, 2);
    T_EQU(d.high_limit, 4);
    T_STREQ(tab(d.high, d.n_high), "0:4");
    T_STREQ(tab(d.low, d.n_low), "1:4");
    T_STREQ(map(m), "0,1,0,1,0,1,0,1,0,1,0,1,0,1,0,1");
    {   /* the result drives the engine: router, both VLs ready, 64-byte
           packets, limit 4 (16384 bytes): no starvation, VL0 first */
        ibcc_vlarb a;
        unsigned vl = 9;
        T_EQ(ibcc_vlarb_init(&a, &d, NULL, 0), IBCC_OK);
        T_EQ(ibcc_vlarb_pick(&a, 3u, &vl), 1);
        T_EQU(vl, 0);
    }
}

/* Nothing given: OpenSM's built-in values; on fewer VLs the VLs keep
   their low bits, as OpenSM programs a port. */
static void test_defaults(void)
{
    ibcc_qos_config c;
    ibcc_vlarb_desc d;
    uint8_t m[16];
    unsigned t;
    memset(&c, 0, sizeof c);
    T_EQ(ibcc_qos_parse_opensm(&c, "qos FALSE\n", NULL), IBCC_OK);
    T_EQ(c.qos, 0);
    for (t = 0; t < 4u; t++) {
        T_EQ(ibcc_qos_port_setting(&c, (ibcc_qos_port)t, &d, m), IBCC_OK);
        T_EQU(d.vls, 15);
        T_EQU(d.high_limit, 0);
        T_STREQ(tab(d.high, d.n_high),
                "0:4,1:0,2:0,3:0,4:0,5:0,6:0,7:0,8:0,9:0,10:0,11:0,12:0,13:0,14:0");
        T_STREQ(tab(d.low, d.n_low),
                "0:0,1:4,2:4,3:4,4:4,5:4,6:4,7:4,8:4,9:4,10:4,11:4,12:4,13:4,14:4");
        T_STREQ(map(m), "0,1,2,3,4,5,6,7,8,9,10,11,12,13,14,7");
    }
    T_EQ(ibcc_qos_parse_opensm(&c, "qos_swe_max_vls 4\n", NULL), IBCC_OK);
    T_EQ(ibcc_qos_port_setting(&c, IBCC_QOS_SWE, &d, m), IBCC_OK);
    T_EQU(d.vls, 4);
    T_STREQ(tab(d.high, d.n_high),
            "0:4,1:0,2:0,3:0,0:0,1:0,2:0,3:0,0:0,1:0,2:0,3:0,0:0,1:0,2:0");
    T_STREQ(tab(d.low, d.n_low),
            "0:0,1:4,2:4,3:4,0:4,1:4,2:4,3:4,0:4,1:4,2:4,3:4,0:4,1:4,2:4");
    T_STREQ(map(m), "0,1,2,3,0,1,2,3,0,1,2,3,0,1,2,3");
    T_EQ(ibcc_qos_parse_opensm(&c, "qos_swe_max_vls 1\n", NULL), IBCC_OK);
    T_EQ(ibcc_qos_port_setting(&c, IBCC_QOS_SWE, &d, m), IBCC_OK);
    T_STREQ(map(m), "0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0");
    /* the other types keep 15 */
    T_EQ(ibcc_qos_port_setting(&c, IBCC_QOS_CA, &d, NULL), IBCC_OK);
    T_EQU(d.vls, 15);
}

/* A prefixed value wins over the unprefixed one wherever they come in
   the text; "not given" forms fall back again; a later line replaces. */
static void test_precedence(void)
{
    ibcc_qos_config c;
    ibcc_vlarb_desc d;
    uint8_t m[16];
    memset(&c, 0, sizeof c);
    T_EQ(ibcc_qos_parse_opensm(&c,
        "qos_ca_high_limit 7\n"
        "qos_high_limit 3\n"
        "qos_sw0_sl2vl 1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1\n"
        "qos_sl2vl 2,2,2,2,2,2,2,2,2,2,2,2,2,2,2,2\n", NULL), IBCC_OK);
    T_EQ(ibcc_qos_port_setting(&c, IBCC_QOS_CA, &d, m), IBCC_OK);
    T_EQU(d.high_limit, 7);
    T_STREQ(map(m), "2,2,2,2,2,2,2,2,2,2,2,2,2,2,2,2");
    T_EQ(ibcc_qos_port_setting(&c, IBCC_QOS_SW0, &d, m), IBCC_OK);
    T_EQU(d.high_limit, 3);
    T_STREQ(map(m), "1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1");
    T_EQ(ibcc_qos_parse_opensm(&c, "qos_ca_high_limit -1\nqos_sl2vl (null)\n"
                               "qos_high_limit 255\n", NULL), IBCC_OK);
    T_EQ(ibcc_qos_port_setting(&c, IBCC_QOS_CA, &d, m), IBCC_OK);
    T_EQU(d.high_limit, 255);
    T_STREQ(map(m), "0,1,2,3,4,5,6,7,8,9,10,11,12,13,14,7");
    T_EQU(c.set[IBCC_QOS_CA].given, 0);
    /* a prefix alone or an unknown qos_ name is another option */
    T_EQ(ibcc_qos_parse_opensm(&c, "qos_ca_ 1\nqos_ca_foo 2\nqos_swe x\n",
                               NULL), IBCC_OK);
    T_EQU(c.other, 3);
}

/* One refusal: code and line, and the config keeps the lines before. */
static void refuse(const char *text, ibcc_result code, unsigned line)
{
    ibcc_qos_config c;
    unsigned bad = 0;
    memset(&c, 0, sizeof c);
    T_EQ(ibcc_qos_parse_opensm(&c, text, &bad), code);
    if (bad != line) T_FAIL_("\"%s\": line %u, want %u", text, bad, line);
}

static void test_refusals(void)
{
    ibcc_qos_config c;
    unsigned bad = 0;
    /* sl2vl: count, values */
    refuse("# x\nqos_sl2vl 0,1,2\n", IBCC_ERR_PARSE, 2);
    refuse("qos_sl2vl 0,1,2,3,4,5,6,7,8,9,10,11,12,13,14\n", IBCC_ERR_PARSE, 1);
    refuse("qos_sl2vl 0,1,2,3,4,5,6,7,8,9,10,11,12,13,14,7,0\n", IBCC_ERR_PARSE, 1);
    refuse("qos_ca_sl2vl 0,1,2,3,5,5,5,12,12,0,\n", IBCC_ERR_PARSE, 1);
    refuse("a 1\n\nqos_rtr_sl2vl 0,1,2,3,4,5,6,7,8,9,10,11,12,13,14,16\n",
           IBCC_ERR_RANGE, 3);
    refuse("qos_sl2vl 0,1,2,3,4,5,6,7,8,9,10,11,12,13,14,x\n", IBCC_ERR_PARSE, 1);
    refuse("qos_sl2vl 0,,1\n", IBCC_ERR_PARSE, 1);
    refuse("qos_sl2vl\n", IBCC_ERR_PARSE, 1);
    /* VLs beyond max_vls, checked after the last line */
    refuse("qos_sl2vl 0,1,2,3,4,5,6,7,0,1,2,3,4,5,6,15\nqos_max_vls 4\n",
           IBCC_ERR_RANGE, 1);
    refuse("qos_max_vls 4\nqos_swe_max_vls 8\n"
           "qos_swe_vlarb_low 0:1,7:1\n", IBCC_OK, 0);
    refuse("qos_max_vls 4\nqos_swe_max_vls 8\nqos_vlarb_low 0:1,7:1\n",
           IBCC_ERR_RANGE, 3);
    refuse("qos_max_vls 8\nqos_ca_max_vls 2\nqos_ca_vlarb_high 0:1,1:1\n"
           "qos_ca_vlarb_low 2:0\n", IBCC_ERR_RANGE, 4);
    /* the unprefixed table is fine when every 2-VL type has its own */
    refuse("qos_ca_max_vls 2\nqos_vlarb_high 7:1\nqos_ca_vlarb_high 1:1\n",
           IBCC_OK, 0);
    /* max_vls, limits, weights */
    refuse("qos_max_vls 3\n", IBCC_ERR_RANGE, 1);
    refuse("x\nqos_sw0_max_vls 16\n", IBCC_ERR_RANGE, 2);
    refuse("qos_max_vls 256\n", IBCC_ERR_RANGE, 1);
    refuse("qos_max_vls four\n", IBCC_ERR_PARSE, 1);
    refuse("qos_max_vls 4 8\n", IBCC_ERR_PARSE, 1);
    refuse("qos_high_limit 256\n", IBCC_ERR_RANGE, 1);
    refuse("qos_high_limit -2\n", IBCC_ERR_PARSE, 1);
    refuse("qos_swe_vlarb_high 0:256\n", IBCC_ERR_RANGE, 1);
    refuse("qos_vlarb_low 15:1\n", IBCC_ERR_RANGE, 1);
    refuse("qos_vlarb_low 1;2\n", IBCC_ERR_PARSE, 1);
    refuse("qos_vlarb_low (null) x\n", IBCC_ERR_PARSE, 1);
    refuse("qos maybe\n", IBCC_ERR_PARSE, 1);
    refuse("qos TRUE FALSE\n", IBCC_ERR_PARSE, 1);
    refuse("qos\n", IBCC_ERR_PARSE, 1);
    {   /* 65 entries */
        char big[1024];
        size_t p = 0;
        unsigned i;
        p += (size_t)sprintf(big, "qos_vlarb_high ");
        for (i = 0; i < 65u; i++) p += (size_t)sprintf(big + p, "0:1,");
        refuse(big, IBCC_ERR_CAPACITY, 1);
    }
    /* lines before the error stay applied; nothing of the failing one */
    memset(&c, 0, sizeof c);
    T_EQ(ibcc_qos_parse_opensm(&c, "qos_high_limit 9\nqos_high_limit 300\n",
                               &bad), IBCC_ERR_RANGE);
    T_EQU(bad, 2);
    T_EQU(c.set[IBCC_QOS_ANY].high_limit, 9);
}

/* ibcc_qos_port_setting on a struct filled by hand. */
static void test_setting_errors(void)
{
    ibcc_qos_config c;
    ibcc_vlarb_desc d;
    uint8_t m[16];
    memset(&c, 0, sizeof c);
    memset(&d, 0x5a, sizeof d);
    T_EQ(ibcc_qos_port_setting(&c, IBCC_QOS_ANY, &d, m), IBCC_ERR_RANGE);
    T_EQ(ibcc_qos_port_setting(&c, (ibcc_qos_port)5, &d, m), IBCC_ERR_RANGE);
    c.set[IBCC_QOS_CA].given = IBCC_QOS_GIVEN_MAX_VLS;
    c.set[IBCC_QOS_CA].max_vls = 3;
    T_EQ(ibcc_qos_port_setting(&c, IBCC_QOS_CA, &d, m), IBCC_ERR_RANGE);
    c.set[IBCC_QOS_CA].given = IBCC_QOS_GIVEN_HIGH_LIMIT;
    c.set[IBCC_QOS_CA].high_limit = 256;
    T_EQ(ibcc_qos_port_setting(&c, IBCC_QOS_CA, &d, m), IBCC_ERR_RANGE);
    c.set[IBCC_QOS_CA].given = IBCC_QOS_GIVEN_VLARB_HIGH;
    c.set[IBCC_QOS_CA].n_high = 65;
    T_EQ(ibcc_qos_port_setting(&c, IBCC_QOS_CA, &d, m), IBCC_ERR_CAPACITY);
    c.set[IBCC_QOS_CA].n_high = 1;
    c.set[IBCC_QOS_CA].high[0].vl = 15;
    T_EQ(ibcc_qos_port_setting(&c, IBCC_QOS_CA, &d, m), IBCC_ERR_RANGE);
    c.set[IBCC_QOS_CA].given = IBCC_QOS_GIVEN_VLARB_HIGH
                               | IBCC_QOS_GIVEN_VLARB_LOW;
    c.set[IBCC_QOS_CA].n_high = 0;
    c.set[IBCC_QOS_CA].n_low = 0;
    T_EQ(ibcc_qos_port_setting(&c, IBCC_QOS_CA, &d, m), IBCC_ERR_RANGE);
    c.set[IBCC_QOS_CA].given = IBCC_QOS_GIVEN_SL2VL;
    c.set[IBCC_QOS_CA].sl2vl[3] = 16;
    T_EQ(ibcc_qos_port_setting(&c, IBCC_QOS_CA, &d, m), IBCC_ERR_RANGE);
    T_EQU(d.vls, 0x5a5a5a5au);   /* untouched by every refusal */
}

int main(void)
{
    T_RUN(test_fragment);
    T_RUN(test_defaults);
    T_RUN(test_precedence);
    T_RUN(test_refusals);
    T_RUN(test_setting_errors);
    return t_summary();
}
