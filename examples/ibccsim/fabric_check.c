#include "ibccsim.h"
/* ---- fabric-check: a real InfiniBand fabric --------------------------- */
typedef struct fc_opts {
    const char *topo, *lfts, *lst, *dbcsv, *fdbs;
} fc_opts;

#define OPT_T fc_opts
static const opt fc_opt[] = {
    OPT_TEXT("ibnetdiscover", topo, "FILE", NULL,
             "topology as ibnetdiscover prints it"),
    OPT_TEXT("lfts", lfts, "FILE", NULL,
             "unicast forwarding tables (opensm-lfts.dump,\n"
             "ibroute or dump_lfts output); without it\n"
             "up/down routes are computed"),
    OPT_TEXT("lst", lst, "FILE", NULL,
             "topology as ibdiagnet writes it (ibdiagnet2.lst),\n"
             "in place of the ibnetdiscover text"),
    OPT_TEXT("db-csv", dbcsv, "FILE", NULL,
             "topology from ibdiagnet's ibdiagnet2.db_csv, in\n"
             "place of the ibnetdiscover text"),
    OPT_TEXT("fdbs", fdbs, "FILE", NULL,
             "forwarding tables as ibdiagnet writes them\n"
             "(ibdiagnet2.fdbs), in place of the LFT dump"),
};
#undef OPT_T

const opt_cmd fc_cmd = {
    "fabric-check", "--ibnetdiscover|--lst|--db-csv FILE [--lfts|--fdbs FILE]", NULL,
    fc_opt, OPT_N(fc_opt),
    "Loads the fabric, follows the route from every host to every other host,\n"
    "builds it with ibcc_fabric_create and prints\n"
    "  hosts=N switches=M links=L routes_ok=R credit_loops=K\n"
    "(K: cycles of the routes' channel dependency graph; 0 = the routes\n"
    "cannot deadlock; K > 0 adds a line `loop: ...` naming the ports of one\n"
    "and exits 3)\n"
    "or `file:line: reason` and exits 1. docs/topologies.md has the formats.\n",
    NULL, 0
};

/* A switch's name by fabric node, "?" when the node is no switch. */
static const char *fc_switch_name(const ibcc_ibfabric *ib, uint32_t node)
{
    uint32_t i;
    for (i = 0; i < ib->switch_count; i++)
        if (ib->switches[i].node == node) return ib->switches[i].name;
    return "?";
}

/* One credit loop as the ports a packet leaves by, in order:
   loop: 'spine1'/3 -> 'leaf2'/5 -> ... (IB port numbers). */
static void fc_print_loop(const ibcc_ibfabric *ib, const ibcc_credit_loops *o)
{
    uint32_t i, n = o->cycle_len < IBCC_CYCLE_SHOW ? o->cycle_len
                                                  : IBCC_CYCLE_SHOW;
    printf("loop: %u loop(s) over %u channels; one crosses %u:",
           o->loops, o->loop_channels, o->cycle_len);
    for (i = 0; i < n; i++) {
        const ibcc_fabric_link *l = &ib->links[o->cycle[i] / 2u];
        uint32_t from = (o->cycle[i] & 1u) ? l->b : l->a;
        uint32_t port = (o->cycle[i] & 1u) ? l->b_port : l->a_port;
        printf("%s '%s'/%u", i ? " ->" : "", fc_switch_name(ib, from),
               port + 1u);
    }
    printf("%s\n", n < o->cycle_len ? " ..." : "");
}

int cmd_fabric_check(int argc, char **argv)
{
    const char *topo = NULL, *lfts = NULL, *topo_flag, *lfts_flag;
    int lst = 0, dbcsv = 0, fdbs = 0;
    char *text = NULL;
    size_t len = 0;
    int i, rc = 1;
    ibcc_ibfabric ib;
    ibcc_ibfabric_error e;
    ibcc_credit_loops loops;
    uint64_t pairs = 0;
    memset(&ib, 0, sizeof ib);
    memset(&loops, 0, sizeof loops);
    {
        fc_opts o;
        memset(&o, 0, sizeof o);
        if ((i = opt_parse(&fc_cmd, argc, argv, &o)) != 0) return i == 1 ? 0 : 2;
        topo = o.topo ? o.topo : o.lst ? o.lst : o.dbcsv;
        topo_flag = o.topo ? "--ibnetdiscover" : o.lst ? "--lst" : "--db-csv";
        lfts = o.lfts ? o.lfts : o.fdbs;
        lfts_flag = o.lfts ? "--lfts" : "--fdbs";
        if ((!!o.topo + !!o.lst + !!o.dbcsv) > 1 || (o.lfts && o.fdbs)) {
            fprintf(stderr, "ibccsim fabric-check: give one topology "
                    "(--ibnetdiscover, --lst or --db-csv) and at most one "
                    "table file (--lfts or --fdbs)\n");
            return 2;
        }
        lst = o.lst != NULL;
        dbcsv = o.dbcsv != NULL;
        fdbs = o.fdbs != NULL;
    }
    if (!topo) {
        fprintf(stderr, "ibccsim fabric-check: a topology is required: "
                "--ibnetdiscover, --lst or --db-csv FILE\n");
        opt_help(&fc_cmd, stderr);
        return 2;
    }
    if (!(text = fc_read("fabric-check", topo_flag, topo, &len))) return 1;
    if ((lst ? ibcc_ibfabric_parse_lst(&ib, text, len, topo, NULL, &e)
         : dbcsv ? ibcc_ibfabric_parse_dbcsv(&ib, text, len, topo, NULL, &e)
         : ibcc_ibfabric_parse(&ib, text, len, topo, NULL, &e)) != IBCC_OK) {
        free(text);
        return fc_error(&e);
    }
    free(text);
    fc_dup_names("fabric-check", &ib);
    if (lfts) {
        if (!(text = fc_read("fabric-check", lfts_flag, lfts, &len))) goto out;
        if ((fdbs ? ibcc_ibfabric_fdbs(&ib, text, len, lfts, &e)
             : ibcc_ibfabric_lfts(&ib, text, len, lfts, &e)) != IBCC_OK) {
            free(text);
            rc = fc_error(&e);
            goto out;
        }
        free(text);
    } else if (ibcc_ibfabric_updown(&ib, &e) != IBCC_OK) {
        rc = fc_error(&e);
        goto out;
    }
    if (ibcc_ibfabric_check(&ib, &pairs, &e) != IBCC_OK) {
        rc = fc_error(&e);
        goto out;
    }
    {
        /* a flow from every host to every other host (at most 2^20
           flows; beyond, each host to its next and its opposite host)
           so that ibcc_fabric_create walks every route too */
        uint64_t nh = ib.host_count, all = nh * (nh - 1u), k = 0;
        uint64_t nf = all <= (1u << 20) ? all : 2u * nh;
        ibcc_fabric_flow *fl = (ibcc_fabric_flow *)calloc(nf ? nf : 1u, sizeof *fl);
        ibcc_fabric_desc d;
        ibcc_fabric *f = NULL;
        ibcc_result r;
        uint32_t s, t;
        if (!fl) {
            fprintf(stderr, "ibccsim fabric-check: out of memory\n");
            goto out;
        }
        for (s = 0; s < ib.host_count; s++)
            for (t = 0; t < ib.host_count; t++) {
                int take = all == nf ? s != t
                    : (t == (s + 1u) % ib.host_count
                       || t == (s + ib.host_count / 2u) % ib.host_count);
                if (!take || s == t || k >= nf) continue;
                fl[k].src = ib.hosts[s].node;
                fl[k].dst = ib.hosts[t].node;
                k++;
            }
        memset(&d, 0, sizeof d);
        (void)ibcc_ibfabric_to_desc(&ib, &d);
        d.flows = fl;
        d.flow_count = (uint32_t)k;
        r = fabric_create("fabric-check", &f, &d);
        ibcc_fabric_destroy(f);
        free(fl);
        if (r != IBCC_OK) goto out;
        if (ibcc_fabric_credit_loops(&d, &loops, NULL) != IBCC_OK) {
            fprintf(stderr, "ibccsim fabric-check: out of memory\n");
            goto out;
        }
    }
    printf("hosts=%u switches=%u links=%u routes_ok=%llu credit_loops=%u\n",
           ib.host_count, ib.switch_count, ib.link_count,
           (unsigned long long)pairs, loops.loops);
    if (loops.loops) fc_print_loop(&ib, &loops);
    rc = fflush(stdout) != 0 ? 1 : loops.loops ? 3 : 0;
out:
    ibcc_ibfabric_free(&ib);
    return rc;
}

