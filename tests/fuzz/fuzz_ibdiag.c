/* Fuzz harness: the InfiniBand loader's text readers (layer L3):
   ibnetdiscover output, ibdiagnet2.lst, ibdiagnet2.db_csv, and the
   forwarding tables of an LFT dump or ibdiagnet2.fdbs.

   Input: a selector byte, then text. Selectors 0..2 give the whole text
   to ibcc_ibfabric_parse, _parse_lst or _parse_dbcsv; 3 and 4 split it at
   the first NUL into a topology (ibdiagnet2.lst for 3, ibnetdiscover for
   4) and tables (ibdiagnet2.fdbs for 3, an LFT dump for 4), the tables
   read only when the topology loads.

   Checked:
   - results are OK or a documented error (PARSE, RANGE, MISMATCH,
     NOT_FOUND, CAPACITY), the error record carries the same code, a
     reason and a line within the text (0 allowed);
   - a loaded fabric is consistent: switches then hosts, host i at node
     switch_count + i with one port, every link between existing nodes on
     ports in range and no port cabled twice, ISLs counted, to_desc
     points at the arrays; reading the same text again gives the same
     counts;
   - computed up/down routes either fail with NOT_FOUND (no legal path)
     or reach every pair: check gives host_count x (host_count - 1);
   - tables: OK means LFT routing that ibcc_ibfabric_check passes with
     every pair; a failure leaves no routes. */
#include "fuzz.h"

#define MAXT 65536

static int known_error(ibcc_result r)
{
    return r == IBCC_ERR_PARSE || r == IBCC_ERR_RANGE || r == IBCC_ERR_MISMATCH
        || r == IBCC_ERR_NOT_FOUND || r == IBCC_ERR_CAPACITY;
}

static uint32_t count_lines(const char *t, size_t n)
{
    uint32_t k = n ? 1u : 0u;
    size_t i;
    for (i = 0; i + 1u < n; i++) if (t[i] == '\n') k++;
    return k;
}

static void check_error(ibcc_result r, const ibcc_ibfabric_error *e,
                        const char *t, size_t n)
{
    FZ_CHECK(known_error(r), "unexpected result %d", (int)r);
    FZ_CHECK(e->code == r, "error record code %d for result %d", (int)e->code, (int)r);
    FZ_CHECK(e->reason[0] != 0, "an error without a reason");
    FZ_CHECK(e->line <= count_lines(t, n) + 1u, "line %u beyond the text (%u lines)",
             e->line, count_lines(t, n));
}

static void check_fabric(const ibcc_ibfabric *f)
{
    uint32_t i, isl = 0, total = 0;
    static unsigned char used[1u << 16];
    ibcc_fabric_desc d;
    FZ_CHECK(f->host_count > 0, "a loaded fabric without hosts");
    FZ_CHECK(f->node_count == f->switch_count + f->host_count, "node count");
    for (i = 0; i < f->switch_count; i++) {
        FZ_CHECK(f->nodes[i].kind == IBCC_FABRIC_SWITCH, "switch %u kind", i);
        FZ_CHECK(f->nodes[i].ports >= 1 && f->nodes[i].ports <= 255, "switch ports");
        FZ_CHECK(f->switches[i].node == i, "switch node index");
        total += f->nodes[i].ports;
    }
    for (i = 0; i < f->host_count; i++) {
        FZ_CHECK(f->hosts[i].node == f->switch_count + i, "host node index");
        FZ_CHECK(f->nodes[f->hosts[i].node].kind == IBCC_FABRIC_HOST, "host kind");
        FZ_CHECK(f->nodes[f->hosts[i].node].ports == 1, "host ports");
        FZ_CHECK(f->hosts[i].lid <= 0xbfffu && f->hosts[i].lmc <= 7u, "host LID range");
    }
    if (total + f->host_count <= sizeof used) {
        uint32_t *base = (uint32_t *)calloc((size_t)f->node_count + 1u, sizeof *base);
        FZ_CHECK(base != NULL, "memory");
        for (i = 0; i < f->node_count; i++)
            base[i + 1u] = base[i] + f->nodes[i].ports;
        memset(used, 0, sizeof used);
        for (i = 0; i < f->link_count; i++) {
            const ibcc_fabric_link *k = &f->links[i];
            FZ_CHECK(k->a < f->node_count && k->b < f->node_count && k->a != k->b,
                     "link %u endpoints", i);
            FZ_CHECK(k->a_port < f->nodes[k->a].ports && k->b_port < f->nodes[k->b].ports,
                     "link %u ports", i);
            FZ_CHECK(!used[base[k->a] + k->a_port] && !used[base[k->b] + k->b_port],
                     "a port cabled twice (link %u)", i);
            used[base[k->a] + k->a_port] = used[base[k->b] + k->b_port] = 1;
            if (k->a < f->switch_count && k->b < f->switch_count) isl++;
        }
        for (i = 0; i < f->host_count; i++)
            FZ_CHECK(used[base[f->hosts[i].node]], "host %u not cabled", i);
        free(base);
    }
    FZ_CHECK(isl == f->isl_count, "ISL count %u, counted %u", f->isl_count, isl);
    memset(&d, 0, sizeof d);
    FZ_CHECK(ibcc_ibfabric_to_desc(f, &d) == IBCC_OK && d.nodes == f->nodes
             && d.links == f->links && d.node_count == f->node_count, "to_desc");
}

static void check_routes(ibcc_ibfabric *f, ibcc_result r, const ibcc_ibfabric_error *e)
{
    uint64_t ok = 0;
    if (r == IBCC_OK) {
        FZ_CHECK(ibcc_ibfabric_check(f, &ok, NULL) == IBCC_OK, "routes accepted but check fails");
        FZ_CHECK(ok == (uint64_t)f->host_count * (f->host_count - 1u), "pairs %llu",
                 (unsigned long long)ok);
    } else {
        FZ_CHECK(e->code == r && e->reason[0], "route error record");
        FZ_CHECK(f->route_count == 0 && f->routing == IBCC_IBF_ROUTES_NONE,
                 "routes left after a failure");
    }
}

typedef ibcc_result (*loadfn)(ibcc_ibfabric *, const char *, size_t, const char *,
                              const ibcc_fabric_allocator *, ibcc_ibfabric_error *);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static const loadfn load[3] = {ibcc_ibfabric_parse, ibcc_ibfabric_parse_lst,
                                   ibcc_ibfabric_parse_dbcsv};
    static char text[MAXT];
    unsigned sel;
    size_t n, tn, sn = 0;
    const char *tables = NULL;
    ibcc_ibfabric f, g;
    ibcc_ibfabric_error e;
    ibcc_result r;
    loadfn fn;
    if (size == 0) return 0;
    sel = data[0] % 5u;
    n = size - 1u < MAXT ? size - 1u : MAXT;
    memcpy(text, data + 1, n);
    tn = n;
    if (sel >= 3u) {
        const char *z = (const char *)memchr(text, 0, n);
        if (z) {
            tn = (size_t)(z - text);
            tables = z + 1;
            sn = n - tn - 1u;
        }
    }
    fn = sel == 0 ? load[0] : sel == 1 || sel == 3 ? load[1] : sel == 2 ? load[2] : load[0];
    r = fn(&f, text, tn, "in", NULL, &e);
    if (r != IBCC_OK) {
        check_error(r, &e, text, tn);
        return 0;
    }
    check_fabric(&f);
    FZ_CHECK(fn(&g, text, tn, "in", NULL, &e) == IBCC_OK && g.node_count == f.node_count
             && g.link_count == f.link_count && g.host_count == f.host_count,
             "a second read differs");
    ibcc_ibfabric_free(&g);
    if (tables) {
        r = sel == 3 ? ibcc_ibfabric_fdbs(&f, tables, sn, "t", &e)
                     : ibcc_ibfabric_lfts(&f, tables, sn, "t", &e);
        if (r != IBCC_OK) {
            FZ_CHECK(known_error(r), "tables: unexpected result %d", (int)r);
        } else {
            FZ_CHECK(f.routing == IBCC_IBF_ROUTES_LFT, "tables: routing");
        }
        check_routes(&f, r, &e);
    } else if (f.switch_count * (uint64_t)f.host_count <= 4096u) {
        r = ibcc_ibfabric_updown(&f, &e);
        FZ_CHECK(r == IBCC_OK || r == IBCC_ERR_NOT_FOUND, "updown: %d", (int)r);
        check_routes(&f, r, &e);
    }
    ibcc_ibfabric_free(&f);
    return 0;
}
