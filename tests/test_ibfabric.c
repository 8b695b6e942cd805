/* The InfiniBand fabric loader: the example fat tree of examples/fabrics
   (exact counts, names, LIDs, rates, LFT routes, computed up/down routes
   that are legal, minimal and equal to the example's tables), the loop
   example (its line), every parse and route error with its line number,
   rate tokens, multi-port adapters, LID and LMC ranges, duplicate host
   names, rings (their up/down routes pinned to
   those of the loader-only router the shared one replaced), allocators,
   and random mutations of the example text that must never crash. */
#ifndef IBCC_TEST_LINKED   /* make test links one implementation object */
#define IBCC_IMPLEMENTATION
#endif
#include "ibcc.h"
#include "t.h"
#include <stdlib.h>

/* ---- helpers ------------------------------------------------------------ */
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

static ibcc_result parse_str(ibcc_ibfabric *f, const char *s,
                             ibcc_ibfabric_error *e)
{
    return ibcc_ibfabric_parse(f, s, strlen(s), "t.topo", NULL, e);
}

/* The port of switch sw toward host node dst, or UINT32_MAX. */
static uint32_t route_of(const ibcc_ibfabric *f, uint32_t sw, uint32_t dst)
{
    uint32_t i;
    for (i = 0; i < f->route_count; i++)
        if (f->routes[i].sw == sw && f->routes[i].dst == dst)
            return f->routes[i].port;
    return UINT32_MAX;
}
/* The node on the far side of (node, port), or UINT32_MAX. */
static uint32_t peer_of(const ibcc_ibfabric *f, uint32_t node, uint32_t port)
{
    uint32_t i;
    for (i = 0; i < f->link_count; i++) {
        const ibcc_fabric_link *k = &f->links[i];
        if (k->a == node && k->a_port == port) return k->b;
        if (k->b == node && k->b_port == port) return k->a;
    }
    return UINT32_MAX;
}
/* Switches on the path from host s to host d (0 on a broken path), the
   path into sw[]. */
static uint32_t path_of(const ibcc_ibfabric *f, uint32_t s, uint32_t d,
                        uint32_t *sw, uint32_t cap)
{
    uint32_t node = peer_of(f, f->hosts[s].node, 0), n = 0;
    while (node < f->switch_count) {
        uint32_t p;
        if (n >= cap) return 0;
        sw[n++] = node;
        p = route_of(f, node, f->hosts[d].node);
        if (p == UINT32_MAX) return 0;
        node = peer_of(f, node, p);
    }
    return node == f->hosts[d].node ? n : 0;
}
/* up = toward the lower (rank, guid), as the loader documents */
static int is_up(const ibcc_ibfabric *f, uint32_t from, uint32_t to)
{
    const ibcc_ibfabric_switch *a = &f->switches[from], *b = &f->switches[to];
    if (b->rank != a->rank) return b->rank < a->rank;
    return b->guid < a->guid;
}
/* Every host pair: the path exists, never turns up after going down, and
   *max_sw receives the longest path in switches. */
static int all_legal(const ibcc_ibfabric *f, uint32_t *max_sw)
{
    uint32_t s, d, sw[64];
    *max_sw = 0;
    for (s = 0; s < f->host_count; s++)
        for (d = 0; d < f->host_count; d++) {
            uint32_t n, k, down = 0;
            if (s == d) continue;
            n = path_of(f, s, d, sw, 64);
            if (n == 0) return 0;
            for (k = 1; k < n; k++) {
                if (is_up(f, sw[k - 1u], sw[k])) { if (down) return 0; }
                else down = 1;
            }
            if (n > *max_sw) *max_sw = n;
        }
    return 1;
}

/* ---- the example fat tree ------------------------------------------------ */
static void fattree_counts(void)
{
    size_t len = 0;
    char *topo = slurp("fattree.topo", &len);
    ibcc_ibfabric f;
    ibcc_ibfabric_error e;
    uint32_t h = 99, i;
    T_CHECK(topo != NULL);
    if (!topo) return;
    T_EQ(ibcc_ibfabric_parse(&f, topo, len, "fattree.topo", NULL, &e), IBCC_OK);
    T_EQ(e.code, IBCC_OK);
    T_EQU(f.switch_count, 6);
    T_EQU(f.host_count, 8);
    T_EQU(f.node_count, 14);
    T_EQU(f.link_count, 16);           /* 8 host cables + 8 spine-leaf */
    T_EQU(f.isl_count, 8);
    T_EQU(f.route_count, 0);
    T_EQU(f.line_count, 120);
    T_STREQ(f.switches[0].name, "spine1");
    T_EQU(f.switches[0].guid, UINT64_C(0x0002c90300000101));
    T_EQU(f.switches[0].lid, 1);
    T_EQU(f.switches[0].ports, 8);
    T_EQU(f.switches[5].lid, 6);
    T_STREQ(f.hosts[0].name, "node01 HCA-1");
    T_EQU(f.hosts[0].lid, 11);
    T_EQU(f.hosts[7].lid, 18);
    T_EQU(f.hosts[0].node_guid, UINT64_C(0x0002c90300001001));
    T_EQU(f.hosts[0].port_guid, UINT64_C(0x0002c90300001002));
    T_EQU(f.hosts[0].ca_port, 1);
    T_EQU(f.hosts[0].node, 6);         /* switches first */
    for (i = 0; i < f.node_count; i++)
        T_EQU(f.nodes[i].kind, i < 6 ? IBCC_FABRIC_SWITCH : IBCC_FABRIC_HOST);
    for (i = 0; i < f.link_count; i++)
        T_EQU(f.links[i].rate, IBCC_GBITS(32));        /* 4xQDR */
    T_EQ(ibcc_ibfabric_find_host(&f, "node05 HCA-1", &h), IBCC_OK);
    T_EQU(h, 4);
    T_EQ(ibcc_ibfabric_find_host(&f, "0x0002c90300001062", &h), IBCC_OK);
    T_EQU(h, 6);                       /* by port GUID */
    T_EQ(ibcc_ibfabric_find_host(&f, "0x2c90300001071", &h), IBCC_OK);
    T_EQU(h, 7);                       /* by node GUID */
    T_EQ(ibcc_ibfabric_find_host(&f, "node99", &h), IBCC_ERR_NOT_FOUND);
    /* leaf1's port 1 (fabric port 0) is node01's cable */
    T_EQU(peer_of(&f, 2, 0), 6);
    T_EQU(peer_of(&f, 2, 6), 0);       /* leaf1 [7] -> spine1 */
    ibcc_ibfabric_free(&f);
    T_CHECK(f.nodes == NULL && f.host_count == 0);
    ibcc_ibfabric_free(&f);            /* twice is fine */
    free(topo);
}

static void fattree_lfts(void)
{
    size_t tl = 0, ll = 0;
    char *topo = slurp("fattree.topo", &tl), *lft = slurp("fattree.lfts", &ll);
    ibcc_ibfabric f;
    ibcc_ibfabric_error e;
    uint64_t pairs = 0;
    uint32_t maxsw = 0;
    T_CHECK(topo && lft);
    if (!topo || !lft) { free(topo); free(lft); return; }
    T_EQ(ibcc_ibfabric_parse(&f, topo, tl, "fattree.topo", NULL, &e), IBCC_OK);
    T_EQ(ibcc_ibfabric_lfts(&f, lft, ll, "fattree.lfts", &e), IBCC_OK);
    T_EQ(e.code, IBCC_OK);
    T_EQU(f.routing, IBCC_IBF_ROUTES_LFT);
    T_EQU(f.route_count, 48);          /* 6 switches x 8 host LIDs */
    T_EQ(ibcc_ibfabric_check(&f, &pairs, &e), IBCC_OK);
    T_EQU(pairs, 56);
    T_EQU(f.switches[0].lft_line, 1);
    T_EQU(f.route_line[0], 10);        /* spine1, LID 11 */
    /* the tables give minimal paths: 1 switch on a leaf, 3 across */
    {
        uint32_t sw[8];
        T_EQU(path_of(&f, 0, 1, sw, 8), 1);
        T_EQU(path_of(&f, 0, 7, sw, 8), 3);
    }
    {   /* and the fabric model accepts them for every pair */
        ibcc_fabric_desc d;
        ibcc_fabric_flow fl[56];
        ibcc_fabric *fab = NULL;
        uint32_t s, t, k = 0;
        memset(&d, 0, sizeof d);
        memset(fl, 0, sizeof fl);
        for (s = 0; s < 8; s++)
            for (t = 0; t < 8; t++)
                if (s != t) {
                    fl[k].src = f.hosts[s].node;
                    fl[k].dst = f.hosts[t].node;
                    k++;
                }
        T_EQ(ibcc_ibfabric_to_desc(&f, &d), IBCC_OK);
        d.flows = fl;
        d.flow_count = k;
        T_EQ(ibcc_fabric_create(&fab, &d), IBCC_OK);
        if (fab) {
            T_EQ(ibcc_fabric_run_until(fab, IBCC_US(20)), IBCC_OK);
            T_EQ(ibcc_fabric_check(fab), IBCC_OK);
        }
        ibcc_fabric_destroy(fab);
    }
    /* computed up/down routes: both spines are roots, legal, minimal,
       and the same as the example's tables (d mod k over the uplinks) */
    {
        ibcc_fabric_route saved[48];
        uint32_t i, same = 0;
        memcpy(saved, f.routes, sizeof saved);
        T_EQ(ibcc_ibfabric_updown(&f, &e), IBCC_OK);
        T_EQU(f.routing, IBCC_IBF_ROUTES_UPDOWN);
        T_EQU(f.roots, 2);
        T_EQU(f.switches[0].rank, 0);
        T_EQU(f.switches[1].rank, 0);
        for (i = 2; i < 6; i++) T_EQU(f.switches[i].rank, 1);
        T_EQU(f.route_count, 48);
        T_CHECK(all_legal(&f, &maxsw));
        T_EQU(maxsw, 3);
        {
            uint32_t sw[8];
            T_EQU(path_of(&f, 0, 1, sw, 8), 1);
            T_EQU(path_of(&f, 2, 7, sw, 8), 3);
            T_EQU(sw[1], 1);           /* node08 (odd) via spine2 */
            T_EQU(path_of(&f, 2, 6, sw, 8), 3);
            T_EQU(sw[1], 0);           /* node07 (even) via spine1 */
        }
        for (i = 0; i < 48; i++)
            if (route_of(&f, saved[i].sw, saved[i].dst) == saved[i].port) same++;
        T_EQU(same, 48);
        T_EQ(ibcc_ibfabric_check(&f, &pairs, &e), IBCC_OK);
        T_EQU(pairs, 56);
        T_EQU(f.route_line[0], 0);
    }
    ibcc_ibfabric_free(&f);
    free(topo);
    free(lft);
}

static void fattree_loop(void)
{
    size_t tl = 0, ll = 0;
    char *topo = slurp("fattree.topo", &tl), *lft = slurp("fattree-loop.lfts", &ll);
    ibcc_ibfabric f;
    ibcc_ibfabric_error e;
    T_CHECK(topo && lft);
    if (!topo || !lft) { free(topo); free(lft); return; }
    T_EQ(ibcc_ibfabric_parse(&f, topo, tl, "fattree.topo", NULL, &e), IBCC_OK);
    T_EQ(ibcc_ibfabric_lfts(&f, lft, ll, "fattree-loop.lfts", &e), IBCC_ERR_RANGE);
    T_EQ(e.code, IBCC_ERR_RANGE);
    T_EQU(e.line, 15);                 /* spine1's entry for LID 17 */
    T_STREQ(e.file, "fattree-loop.lfts");
    T_CHECK(strstr(e.reason, "loops") != NULL);
    T_EQU(f.route_count, 0);           /* no routes kept */
    T_EQU(f.routing, IBCC_IBF_ROUTES_NONE);
    T_EQ(ibcc_ibfabric_updown(&f, &e), IBCC_OK);       /* still usable */
    ibcc_ibfabric_free(&f);
    free(topo);
    free(lft);
}

/* ---- topology errors: each kind of bad line gives its line ---------------- */
/* One switch (4 ports, LID 1) with hosts a (LID 2) and b (LID 3). */
#define SW  "Switch\t4 \"S-0000000000000010\"\t\t# \"sw\" base port 0 lid 1 lmc 0\n"
#define SWA "[1]\t\"H-0000000000000020\"[1](21) \t\t# \"a\" lid 2 4xQDR\n"
#define SWB "[2]\t\"H-0000000000000030\"[1](31) \t\t# \"b\" lid 3 4xQDR\n"
#define CAA "Ca\t1 \"H-0000000000000020\"\t\t# \"a\"\n" \
            "[1](21) \t\"S-0000000000000010\"[1]\t\t# lid 2 lmc 0 \"sw\" lid 1 4xQDR\n"
#define CAB "Ca\t1 \"H-0000000000000030\"\t\t# \"b\"\n" \
            "[1](31) \t\"S-0000000000000010\"[2]\t\t# lid 3 lmc 0 \"sw\" lid 1 4xQDR\n"

static void expect(const char *text, ibcc_result code, uint32_t line)
{
    ibcc_ibfabric f;
    ibcc_ibfabric_error e;
    ibcc_result r = parse_str(&f, text, &e);
    T_EQ(r, code);
    T_EQ(e.code, code);
    T_EQU(e.line, line);
    T_CHECK(e.reason[0] != 0);
    if (r != code || e.line != line)
        fprintf(stderr, "  got %s:%u: %s\n", e.file, e.line, e.reason);
    if (r != IBCC_OK) T_CHECK(f.nodes == NULL && f.hosts == NULL);
    ibcc_ibfabric_free(&f);
}

static void topo_errors(void)
{
    /* the good one, both sides listed and each side alone */
    expect(SW SWA SWB CAA CAB, IBCC_OK, 0);
    expect(SW SWA SWB "Ca\t1 \"H-0000000000000020\" # \"a\"\n"
           "Ca\t1 \"H-0000000000000030\" # \"b\"\n", IBCC_OK, 0);
    expect(SW "Ca\t1 \"H-0000000000000020\" # \"a\"\n"
           "[1](21) \"S-0000000000000010\"[1] # lid 2 lmc 0 \"sw\" lid 1\n",
           IBCC_OK, 0);
    /* comments, ids, blank lines, CRLF and grouping lines are fine */
    expect("# c\r\n\r\nvendid=0x2c9\ndevid=0x1\nsysimgguid=0x10\n"
           "switchguid=0x10(10)\n" SW SWA SWB "\nNon-Chassis Nodes\n"
           "caguid=0x20\n" CAA "rtguid=0x30\n" CAB, IBCC_OK, 0);
    /* an unknown line */
    expect(SW SWA "Bogus line here\n" SWB, IBCC_ERR_PARSE, 3);
    /* a port line with no node above it, or after an id line */
    expect("# x\n" SWA, IBCC_ERR_PARSE, 2);
    expect(SW SWA "vendid=0x1\n" SWB, IBCC_ERR_PARSE, 4);
    /* bad headers */
    expect(SW SWA "Switch\tx \"S-0000000000000011\"\n", IBCC_ERR_PARSE, 3);
    expect(SW SWA "Switch\t4 \"H-0000000000000011\"\n", IBCC_ERR_PARSE, 3);
    expect(SW SWA "Switch\t4 \"S-00000000000000110000\"\n", IBCC_ERR_PARSE, 3);
    expect(SW SWA "Switch\t0 \"S-0000000000000011\"\n", IBCC_ERR_RANGE, 3);
    expect(SW SWA "Switch\t4 \"S-0000000000000011\" trailing\n",
           IBCC_ERR_PARSE, 3);
    expect(SW SWA "Switch\t4 \"S-0000000000000011\" # \"unclosed\n",
           IBCC_ERR_PARSE, 3);
    expect(SW SWA "Switch\t4 \"S-0000000000000011\" # lid x\n",
           IBCC_ERR_PARSE, 3);
    expect("vendid=zz\n" SW, IBCC_ERR_PARSE, 1);
    /* bad port lines */
    expect(SW "[1 \"H-0000000000000020\"[1]\n", IBCC_ERR_PARSE, 2);
    expect(SW "[1]\t\"H-0000000000000020\"\n", IBCC_ERR_PARSE, 2);
    expect(SW "[1]\t\"H-0000000000000020\"[1](zz)\n", IBCC_ERR_PARSE, 2);
    expect(SW "[1][ext x]\t\"H-0000000000000020\"[1]\n", IBCC_ERR_PARSE, 2);
    expect(SW "[1]\t\"H-0000000000000020\"[1] junk\n", IBCC_ERR_PARSE, 2);
    /* a port beyond the node's ports, either side */
    expect(SW "[5]\t\"H-0000000000000020\"[1]\n" CAA, IBCC_ERR_RANGE, 2);
    expect(SW "[1]\t\"H-0000000000000020\"[2]\n" CAA, IBCC_ERR_RANGE, 2);
    expect(SW "[0]\t\"H-0000000000000020\"[1]\n" CAA, IBCC_ERR_RANGE, 2);
    /* a link to a node never declared */
    expect(SW SWA SWB CAA, IBCC_ERR_NOT_FOUND, 3);
    /* a peer of the wrong kind */
    expect(SW "[1]\t\"S-0000000000000020\"[1]\n" CAA, IBCC_ERR_MISMATCH, 2);
    /* a port linked twice: two switch ports claim a's port 1 */
    expect(SW SWA "[3]\t\"H-0000000000000020\"[1]\n" CAA, IBCC_ERR_MISMATCH, 3);
    /* the two sides disagree: a says it is on port 2 */
    expect(SW SWA SWB "Ca\t1 \"H-0000000000000020\"\n"
           "[1](21) \"S-0000000000000010\"[2] # lid 2\n" CAB,
           IBCC_ERR_MISMATCH, 5);
    /* a port listed twice by its own node */
    expect(SW SWA SWA CAA, IBCC_ERR_MISMATCH, 3);
    /* a port cabled to its own node */
    expect(SW "[1]\t\"S-0000000000000010\"[2]\n" SWA CAA, IBCC_ERR_MISMATCH, 2);
    /* a GUID declared twice */
    expect(SW SWA CAA "Switch\t4 \"S-0000000000000020\"\n", IBCC_ERR_MISMATCH, 5);
    /* a LID assigned twice (b has a's LID) */
    expect(SW SWA "[2]\t\"H-0000000000000030\"[1](31) # \"b\" lid 2 4xQDR\n"
           CAA "Ca\t1 \"H-0000000000000030\"\t\t# \"b\"\n", IBCC_ERR_MISMATCH, 6);
    /* no host at all */
    expect(SW, IBCC_ERR_NOT_FOUND, 0);
    expect("", IBCC_ERR_NOT_FOUND, 0);
    {   /* the file name is kept, a NULL one named */
        ibcc_ibfabric f;
        ibcc_ibfabric_error e;
        T_EQ(ibcc_ibfabric_parse(&f, "x\n", 2, NULL, NULL, &e), IBCC_ERR_PARSE);
        T_STREQ(e.file, "(topology)");
        T_EQ(ibcc_ibfabric_parse(&f, "x\n", 2, "a/b.topo", NULL, NULL),
             IBCC_ERR_PARSE);
    }
}

/* ---- LFT errors -------------------------------------------------------- */
#define HDR "Unicast lids [0x0-0x3] of switch Lid 1 guid 0x0000000000000010 (sw):\n"
#define HDR_OSM "Unicast lids [0-3] of switch Lid 1 guid 0x0000000000000010 ('sw'):\n"
#define E2 "0x0002 001 : (Channel Adapter portguid 0x0000000000000021: 'a')\n"
#define E3 "0x0003 002 : (Channel Adapter portguid 0x0000000000000031: 'b')\n"

static void lexpect(const char *lft, ibcc_result code, uint32_t line,
                    const char *file_is)
{
    ibcc_ibfabric f;
    ibcc_ibfabric_error e;
    ibcc_result r;
    T_EQ(parse_str(&f, SW SWA SWB CAA CAB, &e), IBCC_OK);
    r = ibcc_ibfabric_lfts(&f, lft, strlen(lft), "t.lfts", &e);
    T_EQ(r, code);
    T_EQ(e.code, code);
    T_EQU(e.line, line);
    T_STREQ(e.file, file_is);
    if (r != code || e.line != line)
        fprintf(stderr, "  got %s:%u: %s\n", e.file, e.line, e.reason);
    if (r == IBCC_OK) T_EQU(f.route_count, 2);
    else T_EQU(f.route_count, 0);
    ibcc_ibfabric_free(&f);
}

static void lft_errors(void)
{
    /* ibroute / dump_lfts form, OpenSM form, -n (no destinations) form */
    lexpect(HDR "  Lid  Out   Destination\n       Port     Info \n"
            "0x0001 000 : (Switch portguid 0x0000000000000010: 'sw')\n"
            E2 E3 "3 valid lids dumped \n", IBCC_OK, 0, "t.lfts");
    lexpect(HDR_OSM "0x0001 000 # Switch portguid 0x10: 'sw'\n"
            "0x0002 001 # Channel Adapter portguid 0x21: 'a'\n"
            "0x0003 002 # Channel Adapter portguid 0x31: 'b'\n"
            "3 lids dumped\n", IBCC_OK, 0, "t.lfts");
    lexpect("# c\n\n" HDR "0x0002 001\n0x0003 002\n0x0004 255\n0x0099 003\n",
            IBCC_OK, 0, "t.lfts");
    /* unknown line, entry before a header, bad entry */
    lexpect(HDR E2 "route everything\n" E3, IBCC_ERR_PARSE, 3, "t.lfts");
    lexpect(E2 HDR E3, IBCC_ERR_PARSE, 1, "t.lfts");
    lexpect(HDR "0x0002\n", IBCC_ERR_PARSE, 2, "t.lfts");
    lexpect(HDR "0x0002 xyz\n", IBCC_ERR_PARSE, 2, "t.lfts");
    lexpect(HDR "0x0002 001 extra\n", IBCC_ERR_PARSE, 2, "t.lfts");
    lexpect(HDR "0x10000 001\n", IBCC_ERR_PARSE, 2, "t.lfts");
    lexpect("Unicast lids [0-3] of switch Lid 1 (sw):\n", IBCC_ERR_PARSE, 1,
            "t.lfts");
    /* unknown switch, second table */
    lexpect("Unicast lids [0-3] of switch Lid 9 guid 0x99 (x):\n",
            IBCC_ERR_NOT_FOUND, 1, "t.lfts");
    lexpect(HDR E2 E3 HDR, IBCC_ERR_MISMATCH, 4, "t.lfts");
    /* port beyond the switch, port with no link, host LID to port 0 */
    lexpect(HDR E2 "0x0003 009\n", IBCC_ERR_RANGE, 3, "t.lfts");
    lexpect(HDR E2 "0x0003 004\n", IBCC_ERR_RANGE, 3, "t.lfts");
    lexpect(HDR "0x0002 000\n" E3, IBCC_ERR_RANGE, 2, "t.lfts");
    /* a LID twice in one table */
    lexpect(HDR E2 E3 E2, IBCC_ERR_MISMATCH, 4, "t.lfts");
    /* a host LID the reached switch does not route: its table's line */
    lexpect("# x\n" HDR E2, IBCC_ERR_NOT_FOUND, 2, "t.lfts");
    /* a route that ends at the wrong host: the entry's line */
    lexpect(HDR "0x0002 002\n" E3, IBCC_ERR_RANGE, 2, "t.lfts");
    /* a switch with no table at all: its line in the topology */
    lexpect("# nothing\n", IBCC_ERR_NOT_FOUND, 1, "t.topo");
    /* multicast tables are not read */
    lexpect("Multicast mlids [0xc000-0xc001] of switch Lid 1 guid 0x10 (sw):\n",
            IBCC_ERR_PARSE, 1, "t.lfts");
}

/* ---- rates, multi-port adapters, a ring, allocators ---------------------- */
static ibcc_rate rate_of(const char *tok)
{
    char buf[512];
    ibcc_ibfabric f;
    ibcc_ibfabric_error e;
    ibcc_rate r = 1;
    snprintf(buf, sizeof buf, SW "[1]\t\"H-0000000000000020\"[1](21) # \"a\" "
             "lid 2 %s\n[2]\t\"H-0000000000000030\"[1](31) # \"b\" lid 3\n"
             "Ca\t1 \"H-0000000000000020\"\nCa\t1 \"H-0000000000000030\"\n", tok);
    if (parse_str(&f, buf, &e) == IBCC_OK) r = f.links[0].rate;
    ibcc_ibfabric_free(&f);
    return r;
}

static void rates(void)
{
    T_EQU(rate_of("4xQDR"), IBCC_GBITS(32));
    T_EQU(rate_of("4xDDR"), IBCC_GBITS(16));
    T_EQU(rate_of("4xSDR"), IBCC_GBITS(8));
    T_EQU(rate_of("1xSDR"), IBCC_GBITS(2));
    T_EQU(rate_of("12xQDR"), IBCC_GBITS(96));
    T_EQU(rate_of("4xFDR10"), IBCC_GBITS(40));
    T_EQU(rate_of("4xEDR"), IBCC_GBITS(100));
    T_EQU(rate_of("4xHDR"), IBCC_GBITS(200));
    T_EQU(rate_of("4xNDR"), IBCC_GBITS(400));
    T_EQU(rate_of("4xFDR"), UINT64_C(6818181818)); /* 54.5 Gbit/s */
    T_EQU(rate_of("4xQDR s=4 w=2 v=4"), IBCC_GBITS(32));
    T_EQU(rate_of(""), 0);                         /* desc.link_rate */
    T_EQU(rate_of("3xQDR"), 0);
    T_EQU(rate_of("4x???"), 0);
    T_EQU(rate_of("4xQDRX"), 0);
}

static void multiport(void)
{
    ibcc_ibfabric f;
    ibcc_ibfabric_error e;
    uint32_t h = 9;
    /* a 2-port CA cabled twice is two hosts; b has 2 ports, one cabled */
    T_EQ(parse_str(&f, SW
        "[1]\t\"H-0000000000000020\"[1](21) # \"a\" lid 2 4xQDR\n"
        "[3]\t\"H-0000000000000020\"[2](22) # \"a\" lid 4 4xQDR\n"
        "[2]\t\"H-0000000000000030\"[2](32) # \"b\" lid 3 4xQDR\n"
        "Ca\t2 \"H-0000000000000020\" # \"a\"\n"
        "Ca\t2 \"H-0000000000000030\" # \"b\"\n", &e), IBCC_OK);
    T_EQU(f.host_count, 3);
    T_STREQ(f.hosts[0].name, "a/P1");
    T_STREQ(f.hosts[1].name, "a/P2");
    T_STREQ(f.hosts[2].name, "b");
    T_EQU(f.hosts[1].lid, 4);
    T_EQU(f.hosts[1].ca_port, 2);
    T_EQU(f.hosts[1].port_guid, 0x22);
    T_EQU(f.hosts[2].ca_port, 2);
    T_EQ(ibcc_ibfabric_find_host(&f, "a/P2", &h), IBCC_OK);
    T_EQU(h, 1);
    T_EQ(ibcc_ibfabric_updown(&f, &e), IBCC_OK);
    T_EQU(f.route_count, 3);
    ibcc_ibfabric_free(&f);
}

/* IBA's ranges (issue 26): a port's LID is unicast, 1..0xBFFF (0: none
   assigned), LMC 0..7, and the 2^LMC LIDs of a port stay unicast; each a
   RANGE error on its line, on a node line or on either side's port line.
   The ends of the ranges load. */
static void lid_ranges(void)
{
    expect("Switch\t4 \"S-0000000000000010\" # \"sw\" base port 0 lid 49151 lmc 0\n"
           SWA SWB CAA CAB, IBCC_OK, 0);
    expect("Switch\t4 \"S-0000000000000010\" # \"sw\" base port 0 lid 49152 lmc 0\n"
           SWA SWB CAA CAB, IBCC_ERR_RANGE, 1);
    expect("Switch\t4 \"S-0000000000000010\" # \"sw\" base port 0 lid 65535 lmc 0\n"
           SWA SWB CAA CAB, IBCC_ERR_RANGE, 1);
    expect("Switch\t4 \"S-0000000000000010\" # \"sw\" base port 0 lid 70000 lmc 0\n"
           SWA SWB CAA CAB, IBCC_ERR_RANGE, 1);
    expect("Switch\t4 \"S-0000000000000010\" # \"sw\" base port 0 lid 1 lmc 8\n"
           SWA SWB CAA CAB, IBCC_ERR_RANGE, 1);
    /* the switch's line about a host's LID */
    expect(SW "[1]\t\"H-0000000000000020\"[1](21) # \"a\" lid 49152 4xQDR\n"
           SWB CAA CAB, IBCC_ERR_RANGE, 2);
    /* the adapter's own line: LMC 7 ends at 0xBFFF, LMC 8 is out, and
       LIDs 49145..49152 (LMC 3) cross into multicast */
    expect(SW "Ca\t1 \"H-0000000000000020\" # \"a\"\n"
           "[1](21) \"S-0000000000000010\"[1] # lid 49024 lmc 7 \"sw\" lid 1\n",
           IBCC_OK, 0);
    expect(SW "Ca\t1 \"H-0000000000000020\" # \"a\"\n"
           "[1](21) \"S-0000000000000010\"[1] # lid 2 lmc 8 \"sw\" lid 1\n",
           IBCC_ERR_RANGE, 3);
    expect(SW "Ca\t1 \"H-0000000000000020\" # \"a\"\n"
           "[1](21) \"S-0000000000000010\"[1] # lid 49145 lmc 3 \"sw\" lid 1\n",
           IBCC_ERR_RANGE, 3);
    expect(SW "Ca\t1 \"H-0000000000000020\" # \"a\"\n"
           "[1](21) \"S-0000000000000010\"[1] # lid 2 lmc 0 \"sw\" lid 49152\n",
           IBCC_ERR_RANGE, 3);
}

/* Two hosts with one name (issue 26): both load, a lookup by that name
   is refused (MISMATCH: it could be either), by a port GUID it finds its
   host; the node GUID of an adapter cabled twice is ambiguous too. */
static void dup_names(void)
{
    ibcc_ibfabric f;
    ibcc_ibfabric_error e;
    uint32_t h = 9;
    T_EQ(parse_str(&f, SW
        "[1]\t\"H-0000000000000020\"[1](21) # \"same\" lid 2 4xQDR\n"
        "[2]\t\"H-0000000000000030\"[1](31) # \"same\" lid 3 4xQDR\n"
        "[3]\t\"H-0000000000000040\"[1](41) # \"c\" lid 4 4xQDR\n"
        "[4]\t\"H-0000000000000040\"[2](42) # \"c\" lid 5 4xQDR\n"
        "Ca\t1 \"H-0000000000000020\" # \"same\"\n"
        "Ca\t1 \"H-0000000000000030\" # \"same\"\n"
        "Ca\t2 \"H-0000000000000040\" # \"c\"\n", &e), IBCC_OK);
    T_EQU(f.host_count, 4);
    T_EQ(ibcc_ibfabric_find_host(&f, "same", &h), IBCC_ERR_MISMATCH);
    T_EQU(h, 9);
    T_EQ(ibcc_ibfabric_find_host(&f, "0x31", &h), IBCC_OK);
    T_EQU(h, 1);
    T_EQ(ibcc_ibfabric_find_host(&f, "0x30", &h), IBCC_OK);  /* node GUID */
    T_EQU(h, 1);
    T_EQ(ibcc_ibfabric_find_host(&f, "0x40", &h), IBCC_ERR_MISMATCH);
    T_EQ(ibcc_ibfabric_find_host(&f, "0x42", &h), IBCC_OK);
    T_EQU(h, 3);
    T_EQ(ibcc_ibfabric_find_host(&f, "c/P1", &h), IBCC_OK);
    T_EQU(h, 2);
    ibcc_ibfabric_free(&f);
}

/* A ring of n switches (GUID 0x100 + gid(i)), host i on switch i; with
   `shuffled` the GUIDs go 1, 3, 2, 4, ... around the ring. */
static uint32_t gid(uint32_t i, int shuffled)
{
    if (!shuffled || i == 0) return i;
    return i % 2u ? i + 1u : i - 1u;
}
static char *ring_g(uint32_t n, int broken, int shuffled)
{
    size_t cap = 4096u + 512u * n, o = 0;
    char *t = (char *)malloc(cap);
    uint32_t i;
    if (!t) return NULL;
    for (i = 0; i < n; i++) {
        uint32_t nx = (i + 1u) % n, pv = (i + n - 1u) % n;
        o += (size_t)snprintf(t + o, cap - o,
            "Switch\t3 \"S-%016x\" # \"r%u\" base port 0 lid %u lmc 0\n"
            "[1]\t\"H-%016x\"[1](%x) # \"h%u\" lid %u 4xEDR\n",
            0x100u + gid(i, shuffled), i, 1u + i, 0x1000u + i, 0x1001u + i, i,
            100u + i);
        if (!broken || (i != 0 && nx != 0))
            o += (size_t)snprintf(t + o, cap - o,
                "[2]\t\"S-%016x\"[3] # \"r%u\" lid %u 4xEDR\n", 0x100u + gid(nx, shuffled),
                nx, 1u + nx);
        if (!broken || (i != 0 && pv != 0))
            o += (size_t)snprintf(t + o, cap - o,
                "[3]\t\"S-%016x\"[2] # \"r%u\" lid %u 4xEDR\n", 0x100u + gid(pv, shuffled),
                pv, 1u + pv);
    }
    for (i = 0; i < n; i++)
        o += (size_t)snprintf(t + o, cap - o, "Ca\t1 \"H-%016x\" # \"h%u\"\n",
                              0x1000u + i, i);
    return t;
}
static char *ring(uint32_t n, int broken) { return ring_g(n, broken, 0); }


static void ring_updown(void)
{
    uint32_t n, sh;
    uint64_t hash = UINT64_C(14695981039346656037);
    for (sh = 0; sh < 2u; sh++)
    for (n = 3; n <= 9; n++) {
        char *t = ring_g(n, 0, (int)sh);
        ibcc_ibfabric f;
        ibcc_ibfabric_error e;
        uint64_t pairs = 0;
        uint32_t maxsw = 0;
        T_CHECK(t != NULL);
        if (!t) return;
        T_EQ(parse_str(&f, t, &e), IBCC_OK);
        T_EQU(f.isl_count, n);
        T_EQ(ibcc_ibfabric_updown(&f, &e), IBCC_OK);
        /* every switch is as far from hosts, so all are roots, ordered by
           GUID; shuffled GUIDs leave a switch whose neighbours are both
           above it (r2 for n >= 4): the single root of lowest GUID */
        if (sh && n >= 4) {
            T_EQU(f.roots, 1);
            T_EQU(f.switches[0].rank, 0);
            T_EQU(f.switches[1].rank, 1);
        } else {
            T_EQU(f.roots, n);
        }
        T_CHECK(all_legal(&f, &maxsw));
        T_CHECK(maxsw <= n);
        T_EQ(ibcc_ibfabric_check(&f, &pairs, &e), IBCC_OK);
        T_EQU(pairs, (uint64_t)n * (n - 1u));
        hash = t_routes_hash(hash, f.routes, f.route_count);
        {
            ibcc_fabric_desc d;
            ibcc_fabric *fab = NULL;
            ibcc_fabric_flow fl[1];
            memset(&d, 0, sizeof d);
            memset(fl, 0, sizeof fl);
            fl[0].src = f.hosts[0].node;
            fl[0].dst = f.hosts[n - 1u].node;
            T_EQ(ibcc_ibfabric_to_desc(&f, &d), IBCC_OK);
            d.flows = fl;
            d.flow_count = 1;
            T_EQ(ibcc_fabric_create(&fab, &d), IBCC_OK);
            ibcc_fabric_destroy(fab);
        }
        ibcc_ibfabric_free(&f);
        free(t);
    }
    /* the loader shares its up/down router with the topology builders;
       the routes are still exactly those of the loader-only router it
       replaced (recorded from that code) */
    T_EQU(hash, UINT64_C(6556576859704228261));
    {   /* switch 0 cut off: no legal path, reported */
        char *t = ring(5, 1);
        ibcc_ibfabric f;
        ibcc_ibfabric_error e;
        T_EQ(parse_str(&f, t, &e), IBCC_OK);
        T_EQ(ibcc_ibfabric_updown(&f, &e), IBCC_ERR_NOT_FOUND);
        T_CHECK(strstr(e.reason, "not connected") != NULL);
        T_EQU(f.route_count, 0);
        ibcc_ibfabric_free(&f);
        free(t);
    }
}


static void allocators(void)
{
    size_t tl = 0, ll = 0;
    char *topo = slurp("fattree.topo", &tl), *lft = slurp("fattree.lfts", &ll);
    ibcc_fabric_allocator al;
    int k, ok_seen = 0;
    t_alloc_ctl ctl;
    al.alloc = t_alloc; al.free = t_free; al.user = &ctl;
    T_CHECK(topo && lft);
    if (!topo || !lft) { free(topo); free(lft); return; }
    /* fail the k-th allocation for every k: NOMEM, nothing left behind */
    for (k = 0; k < 200 && !ok_seen; k++) {
        ibcc_ibfabric f;
        ibcc_ibfabric_error e;
        ibcc_result r;
        ctl.fail_after = k;
        ctl.live = 0;
        r = ibcc_ibfabric_parse(&f, topo, tl, "t", &al, &e);
        if (r == IBCC_OK) r = ibcc_ibfabric_lfts(&f, lft, ll, "l", &e);
        if (r == IBCC_OK) r = ibcc_ibfabric_updown(&f, &e);
        T_CHECK(r == IBCC_OK || r == IBCC_ERR_NOMEM);
        if (r == IBCC_OK) ok_seen = 1;
        ibcc_ibfabric_free(&f);
        T_EQ(ctl.live, 0);
    }
    T_CHECK(ok_seen);
    ctl.fail_after = -1;
    free(topo);
    free(lft);
}

/* ---- random garbage never crashes ---------------------------------------- */
static uint64_t rng_state = 12345;
static uint32_t rnd(uint32_t n)
{
    rng_state = rng_state * UINT64_C(6364136223846793005) + 1442695040888963407u;
    return n ? (uint32_t)((rng_state >> 33) % n) : 0;
}

static void mutate(char *buf, size_t *len, size_t cap)
{
    static const char alphabet[] = "[]()\"#-x0123456789abcdefSHRC \t\n:lid";
    uint32_t k, edits = 1u + rnd(8);
    for (k = 0; k < edits && *len > 0; k++) {
        size_t at = rnd((uint32_t)*len);
        switch (rnd(4)) {
        case 0:                                        /* replace a byte */
            buf[at] = alphabet[rnd(sizeof alphabet - 1u)];
            break;
        case 1:                                        /* random byte */
            buf[at] = (char)rnd(256);
            break;
        case 2: {                                      /* delete a span */
            size_t n = 1u + rnd(40);
            if (at + n > *len) n = *len - at;
            memmove(buf + at, buf + at + n, *len - at - n);
            *len -= n;
            break;
        }
        default: {                                     /* duplicate a span */
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

static void fuzz(void)
{
    size_t tl = 0, ll = 0, cap;
    char *topo = slurp("fattree.topo", &tl), *lft = slurp("fattree.lfts", &ll);
    char *buf;
    uint32_t it, ok_topo = 0, ok_lft = 0;
    T_CHECK(topo && lft);
    if (!topo || !lft) { free(topo); free(lft); return; }
    cap = 2u * (tl > ll ? tl : ll) + 1024u;
    buf = (char *)malloc(cap);
    T_CHECK(buf != NULL);
    if (!buf) { free(topo); free(lft); return; }
    for (it = 0; it < 2000; it++) {
        ibcc_ibfabric f;
        ibcc_ibfabric_error e;
        ibcc_result r;
        size_t len = tl;
        memcpy(buf, topo, tl);
        if (it % 2u == 0) mutate(buf, &len, cap);
        r = ibcc_ibfabric_parse(&f, buf, len, "fuzz.topo", NULL, &e);
        T_EQ(e.code, r);
        if (r != IBCC_OK) {
            T_CHECK(e.reason[0] != 0);
            T_CHECK(e.line <= 2000u);
            continue;
        }
        ok_topo++;
        if (it % 2u == 1) {             /* a good topology, mutated tables */
            len = ll;
            memcpy(buf, lft, ll);
            mutate(buf, &len, cap);
            r = ibcc_ibfabric_lfts(&f, buf, len, "fuzz.lfts", &e);
            T_EQ(e.code, r);
            if (r == IBCC_OK) {
                uint64_t pairs = 0;
                ok_lft++;
                T_EQ(ibcc_ibfabric_check(&f, &pairs, &e), IBCC_OK);
                T_EQU(pairs, (uint64_t)f.host_count * (f.host_count - 1u));
            }
        } else {
            r = ibcc_ibfabric_updown(&f, &e);
            T_EQ(e.code, r);
            if (r == IBCC_OK) {
                uint32_t maxsw = 0;
                T_CHECK(all_legal(&f, &maxsw));
            }
        }
        ibcc_ibfabric_free(&f);
    }
    T_CHECK(ok_topo > 100u);            /* the unmutated half at least */
    T_CHECK(ok_lft > 0u);
    free(buf);
    free(topo);
    free(lft);
}

int main(void)
{
    T_RUN(fattree_counts);
    T_RUN(fattree_lfts);
    T_RUN(fattree_loop);
    T_RUN(topo_errors);
    T_RUN(lft_errors);
    T_RUN(rates);
    T_RUN(multiport);
    T_RUN(lid_ranges);
    T_RUN(dup_names);
    T_RUN(ring_updown);
    T_RUN(allocators);
    T_RUN(fuzz);
    return t_summary();
}
