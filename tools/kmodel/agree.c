/* agree: the same message trace through ibcc's WORMHOLE fabric, printed
 * as kmodel -T prints it, so tools/kmodel/run.sh agree can compare the
 * two models message by message. Network: two switches (nodes 0 and 1,
 * five ports: 0-3 hosts, 4 the link between them), hosts 2..9 (kmodel's
 * hosts 0..7 on the 2x2 torus, whose other two switches carry nothing),
 * 80 MB/s, 125 ns links, no routing delay. One flow per message (the
 * host serves its flows round robin, as kmodel -o ptr).
 * usage: agree SEG TRACE [SLACK]; TRACE lines: byte-time src dst prio bytes */
#define IBCC_IMPLEMENTATION
#include "ibcc.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define TAU 12500u              /* ps per byte */
#define MAXM 4096

static struct { long long t; int src, dst, prio, len; } tr[MAXM];
static int ntr, left[MAXM];
static ibcc_time first[MAXM];   /* t_inject + 1 of the first worm, 0 none */

static void on_del(void *u, const ibcc_fabric_pkt *p)
{
    int i = (int)p->flow;
    (void)u;
    if (first[i] == 0) first[i] = p->t_inject + 1;
    if (--left[i] == 0)
        printf("msg %d->%d prio %d len %d: gen %lld first %llu lasthead %llu done %llu\n",
               tr[i].src, tr[i].dst, tr[i].prio, tr[i].len, tr[i].t,
               (unsigned long long)((first[i] - 1) / TAU),
               (unsigned long long)(p->t_head / TAU), (unsigned long long)(p->t / TAU));
}

int main(int argc, char **argv)
{
    static ibcc_fabric_flow fl[MAXM];
    ibcc_fabric_node nodes[10];
    ibcc_fabric_link links[9];
    ibcc_fabric_route routes[16];
    ibcc_fabric_desc d;
    ibcc_fabric_error er;
    ibcc_fabric *f;
    FILE *fp;
    unsigned L;
    int i, n = 0;
    if (argc < 3 || (L = (unsigned)atoi(argv[1])) == 0 || !(fp = fopen(argv[2], "r"))) {
        fprintf(stderr, "usage: agree SEG TRACE [SLACK]\n");
        return 2;
    }
    while (ntr < MAXM && fscanf(fp, "%lld %d %d %d %d", &tr[ntr].t, &tr[ntr].src,
                                &tr[ntr].dst, &tr[ntr].prio, &tr[ntr].len) == 5) {
        if (tr[ntr].src < 0 || tr[ntr].src > 7 || tr[ntr].dst < 0 || tr[ntr].dst > 7
            || tr[ntr].src == tr[ntr].dst || tr[ntr].len < 1 || tr[ntr].t < 0) {
            fprintf(stderr, "agree: bad trace line %d\n", ntr + 1);
            return 2;
        }
        left[ntr] = tr[ntr].prio ? 1 : (int)((tr[ntr].len + L - 1) / L);
        ntr++;
    }
    fclose(fp);
    memset(nodes, 0, sizeof nodes); memset(links, 0, sizeof links);
    memset(routes, 0, sizeof routes); memset(&d, 0, sizeof d); memset(&er, 0, sizeof er);
    nodes[0].kind = nodes[1].kind = IBCC_FABRIC_SWITCH;
    nodes[0].ports = nodes[1].ports = 5;
    for (i = 0; i < 8; i++) {
        nodes[i + 2].kind = IBCC_FABRIC_HOST;
        links[i].a = (uint32_t)i + 2;
        links[i].b = (uint32_t)i / 4;
        links[i].b_port = (uint32_t)i % 4;
        routes[n].sw = 0; routes[n].dst = (uint32_t)i + 2;
        routes[n++].port = (uint16_t)(i < 4 ? i : 4);
        routes[n].sw = 1; routes[n].dst = (uint32_t)i + 2;
        routes[n++].port = (uint16_t)(i >= 4 ? i - 4 : 4);
    }
    links[8].a = 0; links[8].a_port = 4; links[8].b = 1; links[8].b_port = 4;
    for (i = 0; i < ntr; i++) {
        fl[i].src = (uint32_t)tr[i].src + 2;
        fl[i].dst = (uint32_t)tr[i].dst + 2;
        fl[i].prio = (uint32_t)tr[i].prio;
        fl[i].msg_bytes = (uint32_t)tr[i].len;
        fl[i].packets = (uint64_t)left[i];
        fl[i].start = (ibcc_time)tr[i].t * TAU;
    }
    d.nodes = nodes; d.node_count = 10;
    d.links = links; d.link_count = 9;
    d.routes = routes; d.route_count = (uint32_t)n;
    d.flows = fl; d.flow_count = (uint32_t)ntr;
    d.switch_kind = IBCC_SWITCH_WORMHOLE;
    d.link_rate = 80000000u;
    d.prop_delay = IBCC_NS(125);
    d.fwd_zero = 1;
    d.segment.seg_bytes = L;
    if (argc > 3) d.slack_bytes = (uint32_t)atoi(argv[3]);
    d.observer.delivered = on_del;
    d.error = &er;
    if (ibcc_fabric_create(&f, &d) != IBCC_OK) {
        fprintf(stderr, "agree: %s\n", er.reason);
        return 1;
    }
    /* every message is in long before: a trace spans at most MAXM
       messages of at most a few thousand bytes each */
    if (ibcc_fabric_run_until(f, IBCC_MS(1000)) != IBCC_OK
        || ibcc_fabric_check(f) != IBCC_OK) {
        fprintf(stderr, "agree: the run failed\n");
        ibcc_fabric_destroy(f);
        return 1;
    }
    ibcc_fabric_destroy(f);
    return 0;
}
