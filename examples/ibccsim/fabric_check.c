#include "ibccsim.h"
/* ---- fabric-check: a real InfiniBand fabric --------------------------- */
typedef struct fc_opts {
    const char *topo, *lfts, *lst, *dbcsv, *fdbs, *opensm_conf;
    int builder, routing;
    unsigned k, n, x, y, hps, root, local, remote, a, p, h, groups, vls;
    unsigned lmc;
} fc_opts;

enum { FC_NONE, FC_FATTREE, FC_NFLY, FC_MESH, FC_TORUS, FC_DRAGONFLY };

#define OPT_T fc_opts
static const opt fc_opt[] = {
    OPT_HEAD("a loaded fabric"),
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
    OPT_TEXT("opensm-conf", opensm_conf, "FILE", NULL,
             "an opensm.conf whose qos and qos_* options\n"
             "give the ports' VLs and SL-to-VL tables"),
    OPT_HEAD("or a builder's fabric (as custom builds it)"),
    OPT_CHOICE("topology", builder, "none|fattree|nfly|mesh|torus|dragonfly", "none",
               "the builder"),
    OPT_BUILDER_ROWS
    OPT_ROUTING_ROWS
    {"vls", OT_UINT, OPT_F(vls), 1, 15, NULL, "N", NULL, NULL,
     "data VLs per port (dragonfly: 1, 2, 4, 8)", "what the routing needs; dragonfly 2\n(valiant 4)",
     NULL, 0, NULL, NULL, NULL},
};
#undef OPT_T

const opt_cmd fc_cmd = {
    "fabric-check", "--ibnetdiscover|--lst|--db-csv FILE [--lfts|--fdbs FILE] | --topology T",
    NULL, fc_opt, OPT_N(fc_opt),
    "Loads the fabric (or builds it), follows the route from every host to\n"
    "every other host, builds it with ibcc_fabric_create and prints\n"
    "  hosts=N switches=M links=L routes_ok=R credit_loops=K [vls=V]\n"
    "(K: cycles of the routes' channel dependency graph over (channel, VL),\n"
    "every SL a path can take, V the VLs when more than one; 0 = the routes\n"
    "cannot deadlock; K > 0 adds a line `loop: ...` naming the ports (and\n"
    "VLs) of one and exits 3)\n"
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
   loop: 'spine1'/3 -> 'leaf2'/5 -> ... (IB port numbers) for a loaded
   fabric (ib), switch 17/5 -> ... (node and port as the builder numbers
   them) for a builder's; " vl1" after each when the graph has VLs. */
static void fc_print_loop(const ibcc_ibfabric *ib, const ibcc_fabric_link *links,
                          const ibcc_credit_loops *o)
{
    uint32_t i, n = o->cycle_len < IBCC_CYCLE_SHOW ? o->cycle_len
                                                  : IBCC_CYCLE_SHOW;
    printf("loop: %u loop(s) over %u channels; one crosses %u:",
           o->loops, o->loop_channels, o->cycle_len);
    for (i = 0; i < n; i++) {
        const ibcc_fabric_link *l = &links[o->cycle[i] / 2u];
        uint32_t from = (o->cycle[i] & 1u) ? l->b : l->a;
        uint32_t port = (o->cycle[i] & 1u) ? l->b_port : l->a_port;
        if (ib)
            printf("%s '%s'/%u", i ? " ->" : "", fc_switch_name(ib, from),
                   port + 1u);
        else
            printf("%s switch %u/%u", i ? " ->" : "", from, port);
        if (o->vls > 1u) printf(" vl%u", o->cycle_vl[i]);
    }
    printf("%s\n", n < o->cycle_len ? " ..." : "");
}

/* Flows from every host to every other host (at most 2^20; beyond, each
   host to its next and its opposite host) at their paths' SLs, so that
   ibcc_fabric_create walks every route and takes every SL-to-VL path;
   then the channel dependency graph. 0, or 1 after the message. */
static int fc_check_desc(ibcc_fabric_desc *d, const uint32_t *hosts,
                         uint32_t nh, const ibcc_topo *t,
                         ibcc_credit_loops *loops)
{
    uint32_t nl = 1u << d->lmc, lid;    /* every LID of every host */
    uint64_t all = (uint64_t)nh * (nh - 1u) * nl, k = 0;
    uint64_t nf = all <= (1u << 20) ? all : 2u * (uint64_t)nh * nl;
    ibcc_fabric_flow *fl = (ibcc_fabric_flow *)calloc(nf ? nf : 1u, sizeof *fl);
    ibcc_fabric *f = NULL;
    ibcc_credit_loops_sls sls;
    ibcc_result r;
    uint32_t s, u;
    if (!fl) {
        fprintf(stderr, "ibccsim fabric-check: out of memory\n");
        return 1;
    }
    for (s = 0; s < nh; s++)
        for (u = 0; u < nh; u++)
            for (lid = 0; lid < nl; lid++) {
                int take = all == nf ? s != u
                    : (u == (s + 1u) % nh || u == (s + nh / 2u) % nh);
                if (!take || s == u || k >= nf) continue;
                fl[k].src = hosts[s];
                fl[k].dst = hosts[u];
                fl[k].dlid = lid;
                fl[k].sl = t ? ibcc_topo_path_sl_lid(t, hosts[s], hosts[u],
                                                     lid, 0) : 0;
                k++;
            }
    d->flows = fl;
    d->flow_count = (uint32_t)k;
    r = fabric_create("fabric-check", &f, d);
    ibcc_fabric_destroy(f);
    free(fl);
    d->flows = NULL;
    d->flow_count = 0;
    if (r != IBCC_OK) return 1;
    memset(&sls, 0, sizeof sls);
    if (t && t->sl_bits) {      /* the SLs the paths take, per LID */
        sls.pair_lid = ibcc_topo_path_sls_lid;
        sls.user = (void *)(uintptr_t)t;
    }
    if (ibcc_fabric_credit_loops_sl(d, &sls, loops, NULL) != IBCC_OK) {
        fprintf(stderr, "ibccsim fabric-check: out of memory\n");
        return 1;
    }
    return 0;
}

/* fabric-check --topology T: a builder's fabric. */
static int fc_builder(const fc_opts *o)
{
    ibcc_topo t;
    ibcc_fabric_desc d;
    ibcc_credit_loops loops;
    uint32_t *hosts, i, sw = 0;
    int rc = 1, dfly = o->builder == FC_DRAGONFLY;
    tb_spec ts;
    tb_err e;
    memset(&t, 0, sizeof t);
    memset(&d, 0, sizeof d);
    memset(&ts, 0, sizeof ts);
    ts.builder = o->builder - FC_FATTREE;   /* FC_ after none, in TB_'s order */
    ts.routing = opt_given("routing") ? o->routing : -1;
    ts.k = o->k; ts.n = o->n; ts.x = o->x; ts.y = o->y; ts.hps = o->hps;
    ts.root = o->root; ts.a = o->a; ts.p = o->p; ts.h = o->h;
    ts.groups = o->groups; ts.lmc = o->lmc; ts.vls = o->vls;
    ts.lmc_given = opt_given("lmc");
    ts.vls_given = dfly && opt_given("vls");  /* elsewhere: below the
                                                  routing's need, to see loops */
    if (tb_build(&ts, &t, &e)) {
        fprintf(stderr, "ibccsim fabric-check: %s\n", e.why);
        return e.nomem ? 1 : 2;
    }
    (void)ibcc_topo_apply(&t, &d);
    if (!dfly && opt_given("vls")) {
        if (o->vls != 1 && o->vls != 2 && o->vls != 4 && o->vls != 8
            && o->vls != 15) {
            fprintf(stderr, "ibccsim fabric-check: --vls %u: 1, 2, 4, 8 or 15\n",
                    o->vls);
            ibcc_topo_free(&t);
            return 2;
        }
        d.vls = o->vls;     /* below what the routing needs: loops show */
    }
    hosts = (uint32_t *)calloc(t.host_count ? t.host_count : 1u, sizeof *hosts);
    if (!hosts) {
        fprintf(stderr, "ibccsim fabric-check: out of memory\n");
        ibcc_topo_free(&t);
        return 1;
    }
    for (i = 0; i < t.host_count; i++) hosts[i] = i;
    for (i = 0; i < t.node_count; i++)
        sw += t.nodes[i].kind == IBCC_FABRIC_SWITCH;
    if (fc_check_desc(&d, hosts, t.host_count, &t, &loops) == 0) {
        printf("hosts=%u switches=%u links=%u routes_ok=%llu credit_loops=%u",
               t.host_count, sw, t.link_count,
               (unsigned long long)t.host_count * (t.host_count - 1u)
               << t.lmc, loops.loops);
        if (loops.vls > 1u) printf(" vls=%u", loops.vls);
        if (t.lmc) printf(" lmc=%u", t.lmc);
        printf("\n");
        if (loops.loops) fc_print_loop(NULL, t.links, &loops);
        rc = fflush(stdout) != 0 ? 1 : loops.loops ? 3 : 0;
    }
    free(hosts);
    ibcc_topo_free(&t);
    return rc;
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
    const char *conf = NULL;
    ibcc_qos_config qos;
    memset(&ib, 0, sizeof ib);
    memset(&loops, 0, sizeof loops);
    {
        fc_opts o;
        memset(&o, 0, sizeof o);
        opt_defaults(&fc_cmd, &o);
        if ((i = opt_parse(&fc_cmd, argc, argv, &o)) != 0) return i == 1 ? 0 : 2;
        if (o.builder != FC_NONE) {
            if (o.topo || o.lst || o.dbcsv || o.lfts || o.fdbs || o.opensm_conf) {
                fprintf(stderr, "ibccsim fabric-check: --topology builds a "
                        "fabric: give it or a loaded fabric's files, not both\n");
                return 2;
            }
            return fc_builder(&o);
        }
        conf = o.opensm_conf;
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
        ibcc_fabric_desc d;
        uint32_t *hosts = (uint32_t *)calloc(ib.host_count ? ib.host_count
                                             : 1u, sizeof *hosts);
        uint32_t s;
        int bad;
        if (!hosts) {
            fprintf(stderr, "ibccsim fabric-check: out of memory\n");
            goto out;
        }
        for (s = 0; s < ib.host_count; s++) hosts[s] = ib.hosts[s].node;
        memset(&d, 0, sizeof d);
        (void)ibcc_ibfabric_to_desc(&ib, &d);
        if (conf) {         /* the ports' VLs from opensm.conf's qos */
            uint32_t line = 0;
            ibcc_result r;
            if (!(text = fc_read("fabric-check", "--opensm-conf", conf, &len))) {
                free(hosts);
                goto out;
            }
            memset(&qos, 0, sizeof qos);
            r = ibcc_qos_parse_opensm(&qos, text, &line);
            free(text);
            if (r != IBCC_OK) {
                fprintf(stderr, "%s:%u: %s\n", conf, line, ibcc_result_str(r));
                free(hosts);
                goto out;
            }
            d.qos = &qos;
        }
        bad = fc_check_desc(&d, hosts, ib.host_count, NULL, &loops);
        free(hosts);
        if (bad) goto out;
    }
    printf("hosts=%u switches=%u links=%u routes_ok=%llu credit_loops=%u",
           ib.host_count, ib.switch_count, ib.link_count,
           (unsigned long long)pairs, loops.loops);
    if (loops.vls > 1u) printf(" vls=%u", loops.vls);
    printf("\n");
    if (loops.loops) fc_print_loop(&ib, ib.links, &loops);
    rc = fflush(stdout) != 0 ? 1 : loops.loops ? 3 : 0;
out:
    ibcc_ibfabric_free(&ib);
    return rc;
}

