/* The ibdiagnet readers of the InfiniBand loader: a two-switch, four-host
   fabric written by hand as ibnetdiscover + LFT dump, as ibdiagnet2.lst,
   as ibdiagnet2.db_csv and with ibdiagnet2.fdbs gives the same fabric
   (switches, hosts, names, GUIDs, LIDs, cables, rates) and the same
   routes in every form; the shipped capture of the example fat tree
   (examples/fabrics/ibdiagnet/) equals fattree.topo + fattree.lfts;
   every error with its code and line; private LFTs, UNREACHABLE entries,
   links that are not up, both directions of a link, quoted descriptions,
   lane speeds; random mutations never crash. */
#ifndef IBCC_TEST_LINKED
#define IBCC_IMPLEMENTATION
#endif
#include "ibcc.h"
#include "t.h"
#include <stdlib.h>

static char *slurp(const char *name, size_t *len)
{
    char path[512];
    const char *here = __FILE__, *slash = strrchr(here, '/');
    int dir = slash ? (int)(slash - here) : 0;
    FILE *fp;
    char *buf;
    long n;
    if (slash) snprintf(path, sizeof path, "%.*s/../examples/fabrics/%s",
                        dir, here, name);
    else snprintf(path, sizeof path, "../examples/fabrics/%s", name);
    fp = fopen(path, "rb");
    if (!fp) { fprintf(stderr, "cannot open %s\n", path); return NULL; }
    fseek(fp, 0, SEEK_END);
    n = ftell(fp);
    fseek(fp, 0, SEEK_SET);
    buf = (char *)malloc((size_t)n + 1u);
    if (!buf) { fclose(fp); return NULL; }
    *len = fread(buf, 1, (size_t)n, fp);
    buf[*len] = 0;
    fclose(fp);
    return buf;
}

/* ---- the two-switch fabric in four forms -------------------------------- */
static const char *const TOPO =
    "vendid=0x2c9\n"
    "devid=0xd2f0\n"
    "switchguid=0x2c90300000a01(2c90300000a01)\n"
    "Switch\t8 \"S-0002c90300000a01\"\t\t# \"sw1\" enhanced port 0 lid 1 lmc 0\n"
    "[1]\t\"H-0002c90300001001\"[1](2c90300001002) \t\t# \"h1 HCA-1\" lid 11 4xEDR\n"
    "[2]\t\"H-0002c90300001011\"[1](2c90300001012) \t\t# \"h2 HCA-1\" lid 12 4xEDR\n"
    "[7]\t\"S-0002c90300000a02\"[7]\t\t# \"sw2\" lid 2 4xEDR\n"
    "[8]\t\"S-0002c90300000a02\"[8]\t\t# \"sw2\" lid 2 4xEDR\n"
    "\n"
    "switchguid=0x2c90300000a02(2c90300000a02)\n"
    "Switch\t8 \"S-0002c90300000a02\"\t\t# \"sw2\" enhanced port 0 lid 2 lmc 0\n"
    "[1]\t\"H-0002c90300001021\"[1](2c90300001022) \t\t# \"h3 HCA-1\" lid 13 4xEDR\n"
    "[2]\t\"H-0002c90300001031\"[1](2c90300001032) \t\t# \"h4 HCA-1\" lid 14 4xEDR\n"
    "[7]\t\"S-0002c90300000a01\"[7]\t\t# \"sw1\" lid 1 4xEDR\n"
    "[8]\t\"S-0002c90300000a01\"[8]\t\t# \"sw1\" lid 1 4xEDR\n"
    "\n"
    "caguid=0x2c90300001001\n"
    "Ca\t1 \"H-0002c90300001001\"\t\t# \"h1 HCA-1\"\n"
    "[1](2c90300001002) \t\"S-0002c90300000a01\"[1]\t\t# lid 11 lmc 0 \"sw1\" lid 1 4xEDR\n"
    "caguid=0x2c90300001011\n"
    "Ca\t1 \"H-0002c90300001011\"\t\t# \"h2 HCA-1\"\n"
    "[1](2c90300001012) \t\"S-0002c90300000a01\"[2]\t\t# lid 12 lmc 0 \"sw1\" lid 1 4xEDR\n"
    "caguid=0x2c90300001021\n"
    "Ca\t1 \"H-0002c90300001021\"\t\t# \"h3 HCA-1\"\n"
    "[1](2c90300001022) \t\"S-0002c90300000a02\"[1]\t\t# lid 13 lmc 0 \"sw2\" lid 2 4xEDR\n"
    "caguid=0x2c90300001031\n"
    "Ca\t1 \"H-0002c90300001031\"\t\t# \"h4 HCA-1\"\n"
    "[1](2c90300001032) \t\"S-0002c90300000a02\"[2]\t\t# lid 14 lmc 0 \"sw2\" lid 2 4xEDR\n";

/* sw1 sends h3 on port 7 and h4 on port 8, sw2 sends h1 on 7, h2 on 8 */
static const char *const LFTS =
    "Unicast lids [0x0-0xe] of switch Lid 1 guid 0x0002c90300000a01 (sw1):\n"
    "  Lid  Out   Destination\n"
    "       Port     Info \n"
    "0x0001 000 : (Switch portguid 0x0002c90300000a01: 'sw1')\n"
    "0x0002 007 : (Switch portguid 0x0002c90300000a02: 'sw2')\n"
    "0x000b 001 : (Channel Adapter portguid 0x0002c90300001002: 'h1 HCA-1')\n"
    "0x000c 002 : (Channel Adapter portguid 0x0002c90300001012: 'h2 HCA-1')\n"
    "0x000d 007 : (Channel Adapter portguid 0x0002c90300001022: 'h3 HCA-1')\n"
    "0x000e 008 : (Channel Adapter portguid 0x0002c90300001032: 'h4 HCA-1')\n"
    "6 valid lids dumped \n"
    "Unicast lids [0x0-0xe] of switch Lid 2 guid 0x0002c90300000a02 (sw2):\n"
    "0x0001 007 : (Switch portguid 0x0002c90300000a01: 'sw1')\n"
    "0x0002 000 : (Switch portguid 0x0002c90300000a02: 'sw2')\n"
    "0x000b 007 : (Channel Adapter portguid 0x0002c90300001002: 'h1 HCA-1')\n"
    "0x000c 008 : (Channel Adapter portguid 0x0002c90300001012: 'h2 HCA-1')\n"
    "0x000d 001 : (Channel Adapter portguid 0x0002c90300001022: 'h3 HCA-1')\n"
    "0x000e 002 : (Channel Adapter portguid 0x0002c90300001032: 'h4 HCA-1')\n"
    "6 valid lids dumped \n";

#define SW1_ "SW Ports:08 SystemGUID:0002c90300000a01 NodeGUID:0002c90300000a01 " \
             "PortGUID:0002c90300000a01 VenID:000002C9 DevID:D2F0 Rev:000000A0 {sw1} LID:0001"
#define SW2_ "SW Ports:08 SystemGUID:0002c90300000a02 NodeGUID:0002c90300000a02 " \
             "PortGUID:0002c90300000a02 VenID:000002C9 DevID:D2F0 Rev:000000A0 {sw2} LID:0002"
#define CA_(n, g, p, lid) "CA Ports:01 SystemGUID:" g "4 NodeGUID:" g "1 PortGUID:" g "2 " \
             "VenID:000002C9 DevID:1017 Rev:00000000 {" n " HCA-1} LID:" lid " PN:" p
static const char *const LST =
    "{ " SW1_ " PN:07 } { " SW2_ " PN:07 } PHY=4x LOG=ACT SPD=25\n"
    "{ " SW1_ " PN:08 } { " SW2_ " PN:08 } PHY=4x LOG=ACT SPD=25\n"
    "{ " CA_("h1", "0002c9030000100", "01", "000B") " } { " SW1_ " PN:01 } PHY=4x LOG=ACT SPD=25\n"
    "{ " CA_("h2", "0002c9030000101", "01", "000C") " } { " SW1_ " PN:02 } PHY=4x LOG=ACT SPD=25\n"
    "{ " SW2_ " PN:01 } { " CA_("h3", "0002c9030000102", "01", "000D") " } PHY=4x LOG=ACT SPD=25\n"
    "{ " CA_("h4", "0002c9030000103", "01", "000E") " } { " SW2_ " PN:02 } PHY=4x LOG=ACT SPD=25\n";

static const char *const DBCSV =
    "START_NODES\n"
    "NodeDesc,NumPorts,NodeType,ClassVersion,BaseVersion,SystemImageGUID,NodeGUID,PortGUID,DeviceID,PartitionCap,revision,VendorID,LocalPortNum\n"
    "\"sw1\",8,2,1,1,0x0002c90300000a01,0x0002c90300000a01,0x0002c90300000a01,53744,8,160,713,0\n"
    "\"sw2\",8,2,1,1,0x0002c90300000a02,0x0002c90300000a02,0x0002c90300000a02,53744,8,160,713,0\n"
    "\"h1 HCA-1\",1,1,1,1,0x0002c90300001004,0x0002c90300001001,0x0002c90300001002,4119,128,0,713,1\n"
    "\"h2 HCA-1\",1,1,1,1,0x0002c90300001014,0x0002c90300001011,0x0002c90300001012,4119,128,0,713,1\n"
    "\"h3 HCA-1\",1,1,1,1,0x0002c90300001024,0x0002c90300001021,0x0002c90300001022,4119,128,0,713,1\n"
    "\"h4 HCA-1\",1,1,1,1,0x0002c90300001034,0x0002c90300001031,0x0002c90300001032,4119,128,0,713,1\n"
    "END_NODES\n"
    "\n"
    "START_PORTS\n"
    "NodeGuid,PortGuid,PortNum,MKey,GIDPrfx,MSMLID,LID,CapMsk,LinkWidthActv,LinkSpeedActv,LMC,PortState\n"
    "0x0002c90300000a01,0x0002c90300000a01,0,0x0,0xfe80000000000000,1,1,0,N/A,N/A,0,4\n"
    "0x0002c90300000a01,0x0002c90300000a01,1,0x0,0xfe80000000000000,1,1,0,2,512,0,4\n"
    "0x0002c90300000a01,0x0002c90300000a01,2,0x0,0xfe80000000000000,1,1,0,2,512,0,4\n"
    "0x0002c90300000a01,0x0002c90300000a01,7,0x0,0xfe80000000000000,1,1,0,2,512,0,4\n"
    "0x0002c90300000a01,0x0002c90300000a01,8,0x0,0xfe80000000000000,1,1,0,2,512,0,4\n"
    "0x0002c90300000a02,0x0002c90300000a02,0,0x0,0xfe80000000000000,1,2,0,N/A,N/A,0,4\n"
    "0x0002c90300000a02,0x0002c90300000a02,1,0x0,0xfe80000000000000,1,2,0,2,512,0,4\n"
    "0x0002c90300000a02,0x0002c90300000a02,2,0x0,0xfe80000000000000,1,2,0,2,512,0,4\n"
    "0x0002c90300000a02,0x0002c90300000a02,7,0x0,0xfe80000000000000,1,2,0,2,512,0,4\n"
    "0x0002c90300000a02,0x0002c90300000a02,8,0x0,0xfe80000000000000,1,2,0,2,512,0,4\n"
    "0x0002c90300001001,0x0002c90300001002,1,0x0,0xfe80000000000000,1,11,0,2,512,0,4\n"
    "0x0002c90300001011,0x0002c90300001012,1,0x0,0xfe80000000000000,1,12,0,2,512,0,4\n"
    "0x0002c90300001021,0x0002c90300001022,1,0x0,0xfe80000000000000,1,13,0,2,512,0,4\n"
    "0x0002c90300001031,0x0002c90300001032,1,0x0,0xfe80000000000000,1,14,0,2,512,0,4\n"
    "END_PORTS\n"
    "\n"
    "START_LINKS\n"
    "NodeGuid1,PortNum1,NodeGuid2,PortNum2\n"
    "0x0002c90300000a01,7,0x0002c90300000a02,7\n"
    "0x0002c90300000a01,8,0x0002c90300000a02,8\n"
    "0x0002c90300000a01,1,0x0002c90300001001,1\n"
    "0x0002c90300000a01,2,0x0002c90300001011,1\n"
    "0x0002c90300001021,1,0x0002c90300000a02,1\n"
    "0x0002c90300000a02,2,0x0002c90300001031,1\n"
    "END_LINKS\n";

static const char *const FDBS =
    "osm_ucast_mgr_dump_ucast_routes: Switch 0x0002c90300000a01\n"
    "LID    : Port : Hops : Optimal\n"
    "0x0001 : 000  : 00   : yes\n"
    "0x0002 : 007  : 01   : yes\n"
    "0x000b : 001  : 01   : yes\n"
    "0x000c : 002  : 01   : yes\n"
    "0x000d : 007  : 02   : yes\n"
    "0x000e : 008  : 02   : yes\n"
    "\n"
    "osm_ucast_mgr_dump_ucast_routes: Switch 0x0002c90300000a02\n"
    "LID    : Port : Hops : Optimal\n"
    "0x0001 : 007  : 01   : yes\n"
    "0x0002 : 000  : 00   : yes\n"
    "0x000b : 007  : 02   : yes\n"
    "0x000c : 008  : 02   : yes\n"
    "0x000d : 001  : 01   : yes\n"
    "0x000e : 002  : 01   : yes\n";

/* ---- helpers ------------------------------------------------------------ */
static uint32_t route_of(const ibcc_ibfabric *f, uint32_t sw, uint32_t dst)
{
    uint32_t i;
    for (i = 0; i < f->route_count; i++)
        if (f->routes[i].sw == sw && f->routes[i].dst == dst)
            return f->routes[i].port;
    return UINT32_MAX;
}
/* b's node for a's node n (switches by GUID, hosts by port GUID and
   adapter port), UINT32_MAX if none. */
static uint32_t map_node(const ibcc_ibfabric *a, const ibcc_ibfabric *b,
                         uint32_t n)
{
    uint32_t i;
    if (n < a->switch_count) {
        for (i = 0; i < b->switch_count; i++)
            if (b->switches[i].guid == a->switches[n].guid) return i;
        return UINT32_MAX;
    }
    for (i = 0; i < b->host_count; i++) {
        const ibcc_ibfabric_host *x = &a->hosts[n - a->switch_count];
        if (b->hosts[i].node_guid == x->node_guid
            && b->hosts[i].ca_port == x->ca_port) return b->hosts[i].node;
    }
    return UINT32_MAX;
}
static int has_link(const ibcc_ibfabric *a, const ibcc_ibfabric *f,
                    const ibcc_fabric_link *k)
{
    uint32_t i, ka = map_node(a, f, k->a), kb = map_node(a, f, k->b);
    for (i = 0; i < f->link_count; i++) {
        const ibcc_fabric_link *o = &f->links[i];
        if (o->rate != k->rate) continue;
        if (o->a == ka && o->a_port == k->a_port && o->b == kb
            && o->b_port == k->b_port) return 1;
        if (o->a == kb && o->a_port == k->b_port && o->b == ka
            && o->b_port == k->a_port) return 1;
    }
    return 0;
}
/* Same switches, hosts (names, GUIDs, LIDs), cables and routes, matched
   by GUID (the forms may list nodes in other orders). */
static void same_fabric(const ibcc_ibfabric *a, const ibcc_ibfabric *b)
{
    uint32_t i, d;
    T_EQU(a->node_count, b->node_count);
    T_EQU(a->switch_count, b->switch_count);
    T_EQU(a->host_count, b->host_count);
    T_EQU(a->link_count, b->link_count);
    T_EQU(a->isl_count, b->isl_count);
    T_EQU(a->route_count, b->route_count);
    if (a->node_count != b->node_count || a->switch_count != b->switch_count
        || a->host_count != b->host_count) return;
    for (i = 0; i < a->switch_count; i++) {
        uint32_t j = map_node(a, b, i);
        T_CHECK(j != UINT32_MAX);
        if (j == UINT32_MAX) return;
        T_EQU(a->switches[i].lid, b->switches[j].lid);
        T_EQU(a->switches[i].ports, b->switches[j].ports);
        T_EQU(a->nodes[i].ports, b->nodes[j].ports);
        T_STREQ(a->switches[i].name, b->switches[j].name);
    }
    for (i = 0; i < a->host_count; i++) {
        uint32_t j = map_node(a, b, a->hosts[i].node);
        const ibcc_ibfabric_host *y;
        T_CHECK(j != UINT32_MAX);
        if (j == UINT32_MAX) return;
        y = &b->hosts[j - b->switch_count];
        T_EQU(a->hosts[i].lid, y->lid);
        T_EQU(a->hosts[i].lmc, y->lmc);
        T_EQU(a->hosts[i].port_guid, y->port_guid);
        T_STREQ(a->hosts[i].name, y->name);
        T_EQ(b->nodes[j].kind, IBCC_FABRIC_HOST);
    }
    for (i = 0; i < a->link_count; i++) T_CHECK(has_link(a, b, &a->links[i]));
    for (i = 0; i < a->switch_count; i++)
        for (d = 0; d < a->host_count; d++)
            T_EQU(route_of(a, i, a->hosts[d].node),
                  route_of(b, map_node(a, b, i), map_node(a, b, a->hosts[d].node)));
}
/* Also the same order of switches and hosts. */
static void same_order(const ibcc_ibfabric *a, const ibcc_ibfabric *b)
{
    uint32_t i;
    for (i = 0; i < a->node_count && i < b->node_count; i++)
        T_EQU(map_node(a, b, i), i);
}

static ibcc_result lst(ibcc_ibfabric *f, const char *s, ibcc_ibfabric_error *e)
{
    return ibcc_ibfabric_parse_lst(f, s, strlen(s), "t.lst", NULL, e);
}
static ibcc_result csv(ibcc_ibfabric *f, const char *s, ibcc_ibfabric_error *e)
{
    return ibcc_ibfabric_parse_dbcsv(f, s, strlen(s), "t.db_csv", NULL, e);
}
static ibcc_result fdbs(ibcc_ibfabric *f, const char *s, ibcc_ibfabric_error *e)
{
    return ibcc_ibfabric_fdbs(f, s, strlen(s), "t.fdbs", e);
}

/* The reference: ibnetdiscover + LFT dump. */
static int reference(ibcc_ibfabric *r)
{
    ibcc_ibfabric_error e;
    if (ibcc_ibfabric_parse(r, TOPO, strlen(TOPO), "t.topo", NULL, &e) != IBCC_OK
        || ibcc_ibfabric_lfts(r, LFTS, strlen(LFTS), "t.lfts", &e) != IBCC_OK) {
        fprintf(stderr, "reference: %s:%u: %s\n", e.file, e.line, e.reason);
        return 0;
    }
    return 1;
}

/* ---- tests --------------------------------------------------------------- */
static void test_reference(void)
{
    ibcc_ibfabric r;
    uint64_t ok = 0;
    T_CHECK(reference(&r));
    T_EQU(r.switch_count, 2);
    T_EQU(r.host_count, 4);
    T_EQU(r.link_count, 6);
    T_EQU(r.isl_count, 2);
    T_EQU(r.route_count, 8);
    T_EQ(ibcc_ibfabric_check(&r, &ok, NULL), IBCC_OK);
    T_EQU(ok, 12);
    T_EQU(r.links[0].rate, UINT64_C(12500000000));     /* 4xEDR: 100 Gbit/s */
    ibcc_ibfabric_free(&r);
}

static void test_lst_same(void)
{
    ibcc_ibfabric r, f;
    ibcc_ibfabric_error e;
    T_CHECK(reference(&r));
    T_EQ(lst(&f, LST, &e), IBCC_OK);
    if (e.code) fprintf(stderr, "%s:%u: %s\n", e.file, e.line, e.reason);
    T_EQU(f.line_count, 6);
    T_STREQ(f.switches[0].name, "sw1");
    T_STREQ(f.hosts[2].name, "h3 HCA-1");
    T_EQU(f.hosts[2].lid, 13);
    T_EQU(f.hosts[2].port_guid, UINT64_C(0x0002c90300001022));
    T_EQU(f.hosts[0].line, 3);
    T_EQU(f.switches[1].line, 1);
    T_EQ(fdbs(&f, FDBS, &e), IBCC_OK);
    if (e.code) fprintf(stderr, "%s:%u: %s\n", e.file, e.line, e.reason);
    T_EQ(f.routing, IBCC_IBF_ROUTES_LFT);
    T_EQU(f.switches[1].lft_line, 10);
    same_fabric(&r, &f);
    same_order(&r, &f);
    /* the LFT dump on the lst fabric gives the same too */
    T_EQ(ibcc_ibfabric_lfts(&f, LFTS, strlen(LFTS), "t.lfts", &e), IBCC_OK);
    same_fabric(&r, &f);
    ibcc_ibfabric_free(&f);
    ibcc_ibfabric_free(&r);
}

static void test_csv_same(void)
{
    ibcc_ibfabric r, f;
    ibcc_ibfabric_error e;
    T_CHECK(reference(&r));
    T_EQ(csv(&f, DBCSV, &e), IBCC_OK);
    if (e.code) fprintf(stderr, "%s:%u: %s\n", e.file, e.line, e.reason);
    T_EQU(f.switches[0].line, 3);
    T_EQU(f.hosts[3].line, 8);
    T_EQ(fdbs(&f, FDBS, &e), IBCC_OK);
    same_fabric(&r, &f);
    same_order(&r, &f);
    ibcc_ibfabric_free(&f);
    ibcc_ibfabric_free(&r);
}

/* Up/down routes of each form are the reference topology's. */
static void test_updown_same(void)
{
    ibcc_ibfabric r, a, b;
    ibcc_ibfabric_error e;
    T_EQ(ibcc_ibfabric_parse(&r, TOPO, strlen(TOPO), "t.topo", NULL, &e), IBCC_OK);
    T_EQ(lst(&a, LST, &e), IBCC_OK);
    T_EQ(csv(&b, DBCSV, &e), IBCC_OK);
    T_EQ(ibcc_ibfabric_updown(&r, &e), IBCC_OK);
    T_EQ(ibcc_ibfabric_updown(&a, &e), IBCC_OK);
    T_EQ(ibcc_ibfabric_updown(&b, &e), IBCC_OK);
    same_fabric(&r, &a);
    same_fabric(&r, &b);
    ibcc_ibfabric_free(&r);
    ibcc_ibfabric_free(&a);
    ibcc_ibfabric_free(&b);
}

/* The shipped capture of the example fat tree equals its ibnetdiscover
   form and LFT dump. */
static void test_fattree_capture(void)
{
    size_t nt = 0, nl = 0, ns = 0, nc = 0, nf = 0;
    char *topo = slurp("fattree.topo", &nt), *lfts = slurp("fattree.lfts", &nl);
    char *l = slurp("ibdiagnet/ibdiagnet2.lst", &ns);
    char *c = slurp("ibdiagnet/ibdiagnet2.db_csv", &nc);
    char *d = slurp("ibdiagnet/ibdiagnet2.fdbs", &nf);
    ibcc_ibfabric r, a, b;
    ibcc_ibfabric_error e;
    T_CHECK(topo && lfts && l && c && d);
    if (!topo || !lfts || !l || !c || !d) goto out;
    T_EQ(ibcc_ibfabric_parse(&r, topo, nt, "fattree.topo", NULL, &e), IBCC_OK);
    T_EQ(ibcc_ibfabric_lfts(&r, lfts, nl, "fattree.lfts", &e), IBCC_OK);
    T_EQ(ibcc_ibfabric_parse_lst(&a, l, ns, "ibdiagnet2.lst", NULL, &e), IBCC_OK);
    if (e.code) fprintf(stderr, "%s:%u: %s\n", e.file, e.line, e.reason);
    T_EQ(ibcc_ibfabric_fdbs(&a, d, nf, "ibdiagnet2.fdbs", &e), IBCC_OK);
    if (e.code) fprintf(stderr, "%s:%u: %s\n", e.file, e.line, e.reason);
    T_EQ(ibcc_ibfabric_parse_dbcsv(&b, c, nc, "ibdiagnet2.db_csv", NULL, &e), IBCC_OK);
    if (e.code) fprintf(stderr, "%s:%u: %s\n", e.file, e.line, e.reason);
    T_EQ(ibcc_ibfabric_fdbs(&b, d, nf, "ibdiagnet2.fdbs", &e), IBCC_OK);
    T_EQU(r.switch_count, 6);
    T_EQU(r.host_count, 8);
    same_fabric(&r, &a);
    same_fabric(&r, &b);
    ibcc_ibfabric_free(&r);
    ibcc_ibfabric_free(&a);
    ibcc_ibfabric_free(&b);
out:
    free(topo); free(lfts); free(l); free(c); free(d);
}

/* An error: code, line and (part of) the reason. */
static void expect(ibcc_result got, const ibcc_ibfabric_error *e,
                   ibcc_result code, uint32_t line, const char *part,
                   const char *what)
{
    if (got != code || e->code != code || e->line != line
        || (part && !strstr(e->reason, part)))
        T_FAIL_("%s: got %d %s:%u: %s; want %d line %u \"%s\"", what, (int)got,
                e->file, e->line, e->reason, (int)code, line, part ? part : "");
}

/* Replaces the first `from` in base by `to` (into a static buffer). */
static const char *edit(const char *base, const char *from, const char *to)
{
    static char bufs[2][16384];
    static int which;
    char *buf = bufs[which ^= 1];
    const char *at = strstr(base, from);
    size_t n;
    if (!at) { fprintf(stderr, "edit: no \"%s\"\n", from); return base; }
    n = (size_t)(at - base);
    snprintf(buf, sizeof bufs[0], "%.*s%s%s", (int)n, base, to, at + strlen(from));
    return buf;
}

static void test_lst_errors(void)
{
    ibcc_ibfabric f;
    ibcc_ibfabric_error e;
    const char *s;
    s = edit(LST, "PHY=4x LOG=ACT SPD=25\n{ CA", "PHY=4x LOG=ACT SPD=25\n{ XX");
    expect(lst(&f, s, &e), &e, IBCC_ERR_PARSE, 3, "SW, CA", "node type");
    s = edit(LST, "{sw2} LID:0002 PN:08", "{sw2} LID:0002 PN:1FF");
    expect(lst(&f, s, &e), &e, IBCC_ERR_RANGE, 2, "PN:", "PN range");
    s = edit(LST, "{h2 HCA-1} LID:000C", "{h2 HCA-1} LID:C000");
    expect(lst(&f, s, &e), &e, IBCC_ERR_RANGE, 4, "unicast", "LID range");
    s = edit(LST, "{h2 HCA-1} LID:000C", "{h2 HCA-1 LID:000C");
    expect(lst(&f, s, &e), &e, IBCC_ERR_PARSE, 4, "'{'", "no brace");
    s = edit(LST, "PN:07 } PHY=4x", "PN:07 } PHY=3x");
    expect(lst(&f, s, &e), &e, IBCC_ERR_PARSE, 1, "PHY=", "width");
    s = edit(LST, "PN:07 } PHY=4x LOG=ACT SPD=25", "PN:07 } PHY=4x LOG=ACT SPD=7");
    expect(lst(&f, s, &e), &e, IBCC_ERR_PARSE, 1, "SPD=7", "speed");
    s = edit(LST, "PN:07 } PHY=4x LOG=ACT SPD=25", "PN:07 } PHY=4x LOG=ACT SPD=25 junk");
    expect(lst(&f, s, &e), &e, IBCC_ERR_PARSE, 1, "KEY=VALUE", "trailing");
    s = edit(LST, "PN:07 } PHY=4x", "PN:07 PHY=4x");
    expect(lst(&f, s, &e), &e, IBCC_ERR_PARSE, 1, "'}'", "no close");
    /* the same port on two lines */
    s = edit(LST, "{sw2} LID:0002 PN:08", "{sw2} LID:0002 PN:07");
    expect(lst(&f, s, &e), &e, IBCC_ERR_MISMATCH, 2, "linked twice", "twice");
    /* a node with another port count on a later line */
    s = edit(LST, "{ SW Ports:08 SystemGUID:0002c90300000a01 NodeGUID:0002c90300000a01 "
             "PortGUID:0002c90300000a01 VenID:000002C9 DevID:D2F0 Rev:000000A0 {sw1} LID:0001 PN:08",
             "{ SW Ports:10 SystemGUID:0002c90300000a01 NodeGUID:0002c90300000a01 "
             "PortGUID:0002c90300000a01 VenID:000002C9 DevID:D2F0 Rev:000000A0 {sw1} LID:0001 PN:08");
    expect(lst(&f, s, &e), &e, IBCC_ERR_MISMATCH, 2, "differs", "ports differ");
    /* a port beyond its node's ports */
    s = edit(LST, "{sw1} LID:0001 PN:02", "{sw1} LID:0001 PN:09");
    expect(lst(&f, s, &e), &e, IBCC_ERR_RANGE, 4, "not one of the 8", "port range");
    /* two hosts on one LID */
    s = edit(LST, "{h2 HCA-1} LID:000C", "{h2 HCA-1} LID:000B");
    expect(lst(&f, s, &e), &e, IBCC_ERR_MISMATCH, 4, "assigned twice", "LID twice");
    /* no host at all */
    expect(lst(&f, "# nothing\n", &e), &e, IBCC_ERR_NOT_FOUND, 0, "no host", "empty");
}

static void test_lst_forms(void)
{
    ibcc_ibfabric f, r;
    ibcc_ibfabric_error e;
    char buf[16384];
    const char *s;
    /* a link that is not up is no cable: h4 missing */
    s = edit(LST, "{h4 HCA-1} LID:000E PN:01 } { " SW2_ " PN:02 } PHY=4x LOG=ACT",
             "{h4 HCA-1} LID:000E PN:01 } { " SW2_ " PN:02 } PHY=4x LOG=DWN");
    T_EQ(lst(&f, s, &e), IBCC_OK);
    T_EQU(f.host_count, 3);
    T_EQU(f.link_count, 5);
    ibcc_ibfabric_free(&f);
    /* both directions of every link, and a description with spaces and
       braces, an unknown KEY=VALUE after SPD, an lst without SPD (rate 0) */
    snprintf(buf, sizeof buf, "%s%s", LST,
             "{ " SW2_ " PN:07 } { " SW1_ " PN:07 } PHY=4x LOG=ACT SPD=25 FEC=RS\n");
    T_EQ(lst(&f, buf, &e), IBCC_OK);
    T_CHECK(reference(&r));
    T_EQ(fdbs(&f, FDBS, &e), IBCC_OK);
    same_fabric(&r, &f);
    ibcc_ibfabric_free(&f);
    s = edit(LST, "{h1 HCA-1}", "{h1 {x} HCA-1}");
    T_EQ(lst(&f, s, &e), IBCC_OK);
    T_STREQ(f.hosts[0].name, "h1 {x} HCA-1");
    ibcc_ibfabric_free(&f);
    s = edit(LST, "PN:07 } PHY=4x LOG=ACT SPD=25", "PN:07 } PHY=12x LOG=INI SPD=FDR10");
    T_EQ(lst(&f, s, &e), IBCC_OK);
    T_EQU(f.links[0].rate, UINT64_C(15000000000));     /* 12 x 10 Gbit/s */
    ibcc_ibfabric_free(&f);
    s = edit(LST, "PN:07 } PHY=4x LOG=ACT SPD=25", "PN:07 } PHY=4x LOG=ACT");
    T_EQ(lst(&f, s, &e), IBCC_OK);
    T_EQU(f.links[0].rate, 0);
    ibcc_ibfabric_free(&f);
    s = edit(LST, "PN:07 } PHY=4x LOG=ACT SPD=25", "PN:07 } PHY=4x LOG=ACT SPD=200");
    T_EQ(lst(&f, s, &e), IBCC_OK);
    T_EQU(f.links[0].rate, UINT64_C(100000000000));    /* 4xXDR: 800 Gbit/s */
    ibcc_ibfabric_free(&f);
    s = edit(LST, "{ CA Ports:01 SystemGUID:0002c90300001004", "{ CA-SM Ports:01 SystemGUID:0002c90300001004");
    T_EQ(lst(&f, s, &e), IBCC_OK);
    T_EQU(f.host_count, 4);
    ibcc_ibfabric_free(&f);
    ibcc_ibfabric_free(&r);
}

static void test_csv_errors(void)
{
    ibcc_ibfabric f;
    ibcc_ibfabric_error e;
    const char *s;
    s = edit(DBCSV, "NodeDesc,NumPorts,NodeType", "NodeDesc,Ports,NodeType");
    expect(csv(&f, s, &e), &e, IBCC_ERR_PARSE, 2, "no NumPorts column", "header");
    s = edit(DBCSV, "\"sw2\",8,2", "\"sw2,8,2");
    expect(csv(&f, s, &e), &e, IBCC_ERR_PARSE, 4, "not closed", "quote");
    s = edit(DBCSV, "\"h1 HCA-1\",1,1", "\"h1 HCA-1\",1,4");
    expect(csv(&f, s, &e), &e, IBCC_ERR_RANGE, 5, "NodeType 4", "type");
    s = edit(DBCSV, "\"h1 HCA-1\",1,1", "\"h1 HCA-1\",0,1");
    expect(csv(&f, s, &e), &e, IBCC_ERR_RANGE, 5, "0 ports", "0 ports");
    s = edit(DBCSV, "\"h1 HCA-1\",1,1", "\"h1 HCA-1\",x1,1");
    expect(csv(&f, s, &e), &e, IBCC_ERR_PARSE, 5, "NumPorts", "number");
    s = edit(DBCSV, "\"h1 HCA-1\",1,1", "\"h1 HCA-1\",256,1");
    expect(csv(&f, s, &e), &e, IBCC_ERR_RANGE, 5, "NumPorts", "ports range");
    s = edit(DBCSV, "0x0002c90300001031,0x0002c90300001032,1,0x0,0xfe80000000000000,1,14",
             "0x0002c90300001031,0x0002c90300001032,1,0x0,0xfe80000000000000,1,49152");
    expect(csv(&f, s, &e), &e, IBCC_ERR_RANGE, 26, "unicast", "lid");
    s = edit(DBCSV, "0x0002c90300001031,0x0002c90300001032,1,0x0,0xfe80000000000000,1,14,0,2,512,0",
             "0x0002c90300001031,0x0002c90300001032,1,0x0,0xfe80000000000000,1,14,0,2,512,8");
    expect(csv(&f, s, &e), &e, IBCC_ERR_RANGE, 26, "LMC 8", "lmc");
    s = edit(DBCSV, "0x0002c90300001031,0x0002c90300001032,1,0x0,0xfe80000000000000,1,14,0,2,512",
             "0x0002c90300001031,0x0002c90300001032,1,0x0,0xfe80000000000000,1,14,0,2,3");
    expect(csv(&f, s, &e), &e, IBCC_ERR_RANGE, 26, "LinkSpeedActv 3", "speed");
    s = edit(DBCSV, "0x0002c90300001031,0x0002c90300001032,1,", "0x0002c90300001039,0x0002c90300001032,1,");
    expect(csv(&f, s, &e), &e, IBCC_ERR_NOT_FOUND, 26, "not in NODES", "ports node");
    s = edit(DBCSV, "0x0002c90300001031,0x0002c90300001032,1,", "0x0002c90300001031,0x0002c90300001032,2,");
    expect(csv(&f, s, &e), &e, IBCC_ERR_RANGE, 26, "not one of the 1", "ports port");
    s = edit(DBCSV, "0x0002c90300001031,0x0002c90300001032,1,", "0x0002c90300001021,0x0002c90300001032,1,");
    expect(csv(&f, s, &e), &e, IBCC_ERR_MISMATCH, 26, "listed twice", "ports twice");
    s = edit(DBCSV, "0x0002c90300000a02,2,0x0002c90300001031,1", "0x0002c90300000a02,2,0x0002c90300001039,1");
    expect(csv(&f, s, &e), &e, IBCC_ERR_NOT_FOUND, 36, "not in NODES", "links node");
    s = edit(DBCSV, "0x0002c90300000a02,2,0x0002c90300001031,1", "0x0002c90300000a02,2,0x0002c90300001031");
    expect(csv(&f, s, &e), &e, IBCC_ERR_PARSE, 36, "PortNum2", "short row");
    s = edit(DBCSV, "0x0002c90300000a02,2,0x0002c90300001031,1", "0x0002c90300000a02,1,0x0002c90300001031,1");
    expect(csv(&f, s, &e), &e, IBCC_ERR_MISMATCH, 36, "linked twice", "cable twice");
    s = edit(DBCSV, "\"h4 HCA-1\",1,1,1,1,0x0002c90300001034,0x0002c90300001031",
             "\"h4 HCA-1\",1,1,1,1,0x0002c90300001034,0x0002c90300001021");
    expect(csv(&f, s, &e), &e, IBCC_ERR_MISMATCH, 8, "declared twice", "guid twice");
    s = edit(DBCSV, "END_LINKS\n", "");
    expect(csv(&f, s, &e), &e, IBCC_ERR_PARSE, 29, "no END_LINKS", "unclosed");
    s = edit(DBCSV, "END_NODES\n", "END_PORTS\n");
    expect(csv(&f, s, &e), &e, IBCC_ERR_PARSE, 9, "another table", "wrong end");
    s = edit(DBCSV, "START_PORTS\n", "START_NODES\n");
    expect(csv(&f, s, &e), &e, IBCC_ERR_MISMATCH, 11, "second NODES", "second table");
    s = edit(edit(DBCSV, "START_LINKS", "START_CABLES"), "END_LINKS", "END_CABLES");
    expect(csv(&f, s, &e), &e, IBCC_ERR_NOT_FOUND, 0, "no LINKS", "no links");
    s = edit(DBCSV, "START_NODES\n", "stray\nSTART_NODES\n");
    expect(csv(&f, s, &e), &e, IBCC_ERR_PARSE, 1, "outside", "stray");
    s = edit(DBCSV, "START_PORTS\n", "START_PORTS\nSTART_X\n");
    expect(csv(&f, s, &e), &e, IBCC_ERR_PARSE, 12, "inside PORTS", "nested");
}

static void test_csv_forms(void)
{
    ibcc_ibfabric f, r;
    ibcc_ibfabric_error e;
    char buf[16384];
    const char *s;
    T_CHECK(reference(&r));
    /* other tables skipped, "" inside a quoted name, no PORTS table:
       no LIDs (so up/down routes) */
    snprintf(buf, sizeof buf, "START_CABLE_INFO\nPortGuid,SN\n0x1,\"a,\"\"b\"\nEND_CABLE_INFO\n%s",
             edit(DBCSV, "\"h2 HCA-1\"", "\"h2 \"\"x\"\", HCA-1\""));
    T_EQ(csv(&f, buf, &e), IBCC_OK);
    if (e.code) fprintf(stderr, "%s:%u: %s\n", e.file, e.line, e.reason);
    T_STREQ(f.hosts[1].name, "h2 \"x\", HCA-1");
    T_EQU(f.hosts[1].lid, 12);
    ibcc_ibfabric_free(&f);
    s = strstr(DBCSV, "START_LINKS");
    snprintf(buf, sizeof buf, "%.*s%s", (int)(strstr(DBCSV, "START_PORTS") - DBCSV), DBCSV, s);
    T_EQ(csv(&f, buf, &e), IBCC_OK);
    T_EQU(f.hosts[0].lid, 0);
    T_EQU(f.links[0].rate, 0);
    T_EQ(ibcc_ibfabric_updown(&f, &e), IBCC_OK);
    ibcc_ibfabric_free(&f);
    /* columns in another order with CRLF line ends */
    {
        const char *p = DBCSV;
        char *o = buf;
        while (*p && o < buf + sizeof buf - 2) {
            if (*p == '\n') *o++ = '\r';
            *o++ = *p++;
        }
        *o = 0;
    }
    T_EQ(csv(&f, buf, &e), IBCC_OK);
    T_EQ(fdbs(&f, FDBS, &e), IBCC_OK);
    same_fabric(&r, &f);
    ibcc_ibfabric_free(&f);
    s = edit(DBCSV, "NodeGuid1,PortNum1,NodeGuid2,PortNum2", "NodeGuid2,PortNum2,NodeGuid1,PortNum1");
    T_EQ(csv(&f, s, &e), IBCC_OK);      /* the same links read backwards */
    if (e.code) fprintf(stderr, "%s:%u: %s\n", e.file, e.line, e.reason);
    T_EQ(fdbs(&f, FDBS, &e), IBCC_OK);
    same_fabric(&r, &f);
    ibcc_ibfabric_free(&f);
    /* an LMC of 2 on h1 */
    s = edit(DBCSV, "0x0002c90300001001,0x0002c90300001002,1,0x0,0xfe80000000000000,1,11,0,2,512,0",
             "0x0002c90300001001,0x0002c90300001002,1,0x0,0xfe80000000000000,1,20,0,2,512,2");
    T_EQ(csv(&f, s, &e), IBCC_OK);
    if (e.code) fprintf(stderr, "%s:%u: %s\n", e.file, e.line, e.reason);
    T_EQU(f.hosts[0].lid, 20);
    T_EQU(f.hosts[0].lmc, 2);
    ibcc_ibfabric_free(&f);
    ibcc_ibfabric_free(&r);
}

static void test_fdbs_errors(void)
{
    ibcc_ibfabric f;
    ibcc_ibfabric_error e;
    const char *s;
    T_EQ(lst(&f, LST, &e), IBCC_OK);
    s = edit(FDBS, "Switch 0x0002c90300000a02", "Switch 0x0002c90300000a09");
    expect(fdbs(&f, s, &e), &e, IBCC_ERR_NOT_FOUND, 10, "not in", "unknown switch");
    s = edit(FDBS, "Switch 0x0002c90300000a02", "Switch 0x0002c90300000a01");
    expect(fdbs(&f, s, &e), &e, IBCC_ERR_MISMATCH, 10, "second table", "twice");
    s = edit(FDBS, "0x000d : 007  : 02", "0x000d : 009  : 02");
    expect(fdbs(&f, s, &e), &e, IBCC_ERR_RANGE, 7, "not one of the 8", "port range");
    s = edit(FDBS, "0x000d : 007  : 02", "0x000d : 003  : 02");
    expect(fdbs(&f, s, &e), &e, IBCC_ERR_RANGE, 7, "no link", "dead port");
    s = edit(FDBS, "0x000b : 001  : 01", "0x000b : 000  : 01");
    expect(fdbs(&f, s, &e), &e, IBCC_ERR_RANGE, 5, "port 0", "port 0");
    s = edit(FDBS, "0x000c : 002  : 01", "0x000b : 002  : 01");
    expect(fdbs(&f, s, &e), &e, IBCC_ERR_MISMATCH, 6, "listed twice", "lid twice");
    s = edit(FDBS, "0x000c : 002  : 01", "0x000c 002  : 01");
    expect(fdbs(&f, s, &e), &e, IBCC_ERR_PARSE, 6, "not a line", "no colon");
    s = edit(FDBS, "0x000c : 002  : 01", "0x000c : UNREACHABLE x");
    expect(fdbs(&f, s, &e), &e, IBCC_ERR_PARSE, 6, "not a line", "unreachable junk");
    s = edit(FDBS, "osm_ucast_mgr_dump_ucast_routes: Switch 0x0002c90300000a01\n", "");
    expect(fdbs(&f, s, &e), &e, IBCC_ERR_PARSE, 2, "before any table", "no header");
    s = edit(FDBS, "Switch 0x0002c90300000a01", "Switch 0x0002c90300000a01 extra");
    expect(fdbs(&f, s, &e), &e, IBCC_ERR_PARSE, 1, "table header", "header junk");
    /* sw1 cannot reach h2: the route into sw1 finds no entry */
    s = edit(FDBS, "0x000c : 002  : 01   : yes\n", "0x000c : UNREACHABLE\n");
    expect(fdbs(&f, s, &e), &e, IBCC_ERR_NOT_FOUND, 1, "does not route LID 12", "unreachable");
    T_EQU(f.route_count, 0);
    T_EQ(fdbs(&f, FDBS, &e), IBCC_OK);
    T_EQ(ibcc_ibfabric_fdbs(NULL, FDBS, 3, NULL, &e), IBCC_ERR_NULL);
    ibcc_ibfabric_free(&f);
    memset(&f, 0, sizeof f);
    T_EQ(fdbs(&f, FDBS, &e), IBCC_ERR_STATE);
}

/* Private LFTs: only PLFT 0's entries route; the old OpenSM header form. */
static void test_fdbs_plft(void)
{
    ibcc_ibfabric f, r;
    ibcc_ibfabric_error e;
    char buf[8192];
    T_CHECK(reference(&r));
    T_EQ(lst(&f, LST, &e), IBCC_OK);
    /* each switch: PLFT 1 with wrong ports first, then PLFT 0 */
    snprintf(buf, sizeof buf,
             "osm_ucast_mgr_dump_ucast_routes: Switch 0x0002c90300000a01\n"
             "PLFT_NUM: 1\nLID    : Port : Hops : Optimal\n0x000b : 005  : 01   : yes\n"
             "osm_ucast_mgr_dump_ucast_routes: Switch 0x0002c90300000a02\n"
             "PLFT_NUM: 1\n0x000b : 005  : 01   : yes\n%s",
             edit(edit(FDBS, "LID    : Port : Hops : Optimal\n", "PLFT_NUM: 0\n"),
                  "osm_ucast_mgr_dump_ucast_routes: Switch 0x0002c90300000a02",
                  "dump_ucast_routes: Switch 0x0002c90300000a02"));
    T_EQ(fdbs(&f, buf, &e), IBCC_OK);
    if (e.code) fprintf(stderr, "%s:%u: %s\n", e.file, e.line, e.reason);
    same_fabric(&r, &f);
    /* within one header: PLFT 0 entries then PLFT 2's ignored */
    snprintf(buf, sizeof buf, "%sPLFT_NUM: 2\n0x000b : 003  : 01   : yes\n", FDBS);
    T_EQ(fdbs(&f, buf, &e), IBCC_OK);
    same_fabric(&r, &f);
    ibcc_ibfabric_free(&f);
    ibcc_ibfabric_free(&r);
}

static void test_args(void)
{
    ibcc_ibfabric f;
    ibcc_ibfabric_error e;
    T_EQ(ibcc_ibfabric_parse_lst(NULL, LST, 3, NULL, NULL, &e), IBCC_ERR_NULL);
    T_EQ(ibcc_ibfabric_parse_lst(&f, NULL, 3, NULL, NULL, &e), IBCC_ERR_NULL);
    T_STREQ(e.file, "(ibdiagnet2.lst)");
    T_EQ(ibcc_ibfabric_parse_dbcsv(&f, NULL, 3, NULL, NULL, &e), IBCC_ERR_NULL);
    T_STREQ(e.file, "(ibdiagnet2.db_csv)");
    T_EQ(ibcc_ibfabric_parse_dbcsv(&f, "", 0, NULL, NULL, &e), IBCC_ERR_NOT_FOUND);
    T_EQ(ibcc_ibfabric_parse_lst(&f, LST, strlen(LST), NULL, NULL, NULL), IBCC_OK);
    ibcc_ibfabric_free(&f);
    {   /* a failing allocator: every point of failure, nothing leaked */
        int k, ok = 0;
        for (k = 0; k < 60 && !ok; k++) {
            t_alloc_ctl ctl;
            ibcc_fabric_allocator al;
            ibcc_result r;
            memset(&ctl, 0, sizeof ctl);
            ctl.fail_after = k;
            al.alloc = t_alloc;
            al.free = t_free;
            al.user = &ctl;
            r = ibcc_ibfabric_parse_dbcsv(&f, DBCSV, strlen(DBCSV), NULL, &al, &e);
            if (r == IBCC_OK) {
                ok = 1;
                r = ibcc_ibfabric_fdbs(&f, FDBS, strlen(FDBS), NULL, &e);
                ibcc_ibfabric_free(&f);
            } else T_EQ(r, IBCC_ERR_NOMEM);
            T_EQ(ctl.live, 0);
        }
        T_CHECK(ok);
    }
}

/* ---- random mutations: never a crash, an error always has a reason -------- */
static uint32_t rng = 12345u;
static uint32_t rnd(uint32_t n)
{
    rng = rng * 1103515245u + 12345u;
    return n ? (rng >> 8) % n : 0;
}
static void mutate(char *buf, size_t *len, size_t cap)
{
    static const char alphabet[] = "{}:,\"x0123456789ABCDEFabcdef \n_=PNLIDSWCA";
    uint32_t k, edits = 1u + rnd(8);
    for (k = 0; k < edits && *len > 0; k++) {
        size_t at = rnd((uint32_t)*len);
        switch (rnd(4)) {
        case 0: buf[at] = alphabet[rnd(sizeof alphabet - 1u)]; break;
        case 1: buf[at] = (char)rnd(256); break;
        case 2: {
            size_t n = 1u + rnd(40);
            if (at + n > *len) n = *len - at;
            memmove(buf + at, buf + at + n, *len - at - n);
            *len -= n;
            break;
        }
        default: {
            char span[80];
            size_t n = 1u + rnd(80), from = rnd((uint32_t)*len);
            if (from + n > *len) n = *len - from;
            if (*len + n > cap) break;
            memcpy(span, buf + from, n);
            memmove(buf + at + n, buf + at, *len - at);
            memcpy(buf + at, span, n);
            *len += n;
        }
        }
    }
}
static void test_mutations(void)
{
    static char buf[20000];
    const char *base[3];
    uint32_t i, bad = 0;
    base[0] = LST; base[1] = DBCSV; base[2] = FDBS;
    for (i = 0; i < 3000u; i++) {
        unsigned which = i % 3u;
        size_t len = strlen(base[which]);
        ibcc_ibfabric f;
        ibcc_ibfabric_error e;
        ibcc_result r;
        memcpy(buf, base[which], len);
        mutate(buf, &len, sizeof buf);
        if (which == 0) r = ibcc_ibfabric_parse_lst(&f, buf, len, "m", NULL, &e);
        else if (which == 1) r = ibcc_ibfabric_parse_dbcsv(&f, buf, len, "m", NULL, &e);
        else {
            r = lst(&f, LST, &e);
            if (r == IBCC_OK) {
                r = ibcc_ibfabric_fdbs(&f, buf, len, "m", &e);
                if (r == IBCC_OK) {
                    uint64_t ok = 0;
                    T_EQ(ibcc_ibfabric_check(&f, &ok, NULL), IBCC_OK);
                    T_EQU(ok, 12);
                }
                ibcc_ibfabric_free(&f);
            }
            if (r != IBCC_OK && (e.reason[0] == 0 || e.code != r)) bad++;
            continue;
        }
        if (r == IBCC_OK) {
            T_EQ(ibcc_ibfabric_updown(&f, &e) == IBCC_OK
                 || e.code == IBCC_ERR_NOT_FOUND, 1);
            ibcc_ibfabric_free(&f);
        } else if (e.reason[0] == 0 || e.code != r) bad++;
    }
    T_EQU(bad, 0);
}

int main(void)
{
    T_RUN(test_reference);
    T_RUN(test_lst_same);
    T_RUN(test_csv_same);
    T_RUN(test_updown_same);
    T_RUN(test_fattree_capture);
    T_RUN(test_lst_errors);
    T_RUN(test_lst_forms);
    T_RUN(test_csv_errors);
    T_RUN(test_csv_forms);
    T_RUN(test_fdbs_errors);
    T_RUN(test_fdbs_plft);
    T_RUN(test_args);
    T_RUN(test_mutations);
    return t_summary();
}
