/* The DCQCN source agent in the fabric (IBCC_AGENT_DCQCN): an incast of
   four greedy senders into one receiver through one switch, IBA FECN
   marking at the switch and CNPs from the IBA echo. Against the same
   incast without congestion control the agent keeps the receiver's link
   busy while the queue at the hot output shrinks: fewer packets marked,
   lower latency. And the agent's refusals. Links 1 GB/s, 2068-byte
   packets. */
#ifndef IBCC_TEST_LINKED   /* make test links one implementation object */
#define IBCC_IMPLEMENTATION
#endif
#include "ibcc.h"
#include "t.h"

typedef struct star {
    ibcc_fabric_node nodes[8];
    ibcc_fabric_link links[8];
    ibcc_fabric_route routes[8];
    ibcc_fabric_flow flows[8];
    ibcc_fabric_desc d;
} star;

/* hosts 0..4 on switch node 5, host i on port i; flows 0..3 -> 4 */
static void incast(star *t, ibcc_agent agent)
{
    uint32_t i;
    memset(t, 0, sizeof *t);
    for (i = 0; i < 5; i++) {
        t->nodes[i].kind = IBCC_FABRIC_HOST;
        t->links[i].a = i;
        t->links[i].b = 5;
        t->links[i].b_port = i;
        t->routes[i].sw = 5; t->routes[i].dst = i; t->routes[i].port = i;
    }
    t->nodes[5].kind = IBCC_FABRIC_SWITCH;
    t->nodes[5].ports = 5;
    t->d.nodes = t->nodes; t->d.node_count = 6;
    t->d.links = t->links; t->d.link_count = 5;
    t->d.routes = t->routes; t->d.route_count = 5;
    t->d.flows = t->flows; t->d.flow_count = 4;
    for (i = 0; i < 4; i++) {
        t->flows[i].src = i;
        t->flows[i].dst = 4;
        t->flows[i].agent = agent;
    }
    t->d.marker.engine = IBCC_MARKER_IBA;
    t->d.marker.iba_threshold = 15;         /* above 1/16 of the buffering */
    t->d.dest.scheme = IBCC_DEST_IBA;
    t->d.dest.becn_by_cnp = 1;              /* a CNP per FECN packet */
    t->d.horizon = IBCC_MS(4);
    t->d.bin = IBCC_US(100);
}

typedef struct result {
    uint64_t delivered_bytes, marked, delivered, cnps_back;
    double lat_mean_ns;
} result;

static result run(ibcc_agent agent)
{
    star t;
    ibcc_fabric *f = NULL;
    result r;
    uint32_t i;
    memset(&r, 0, sizeof r);
    incast(&t, agent);
    T_EQ(ibcc_fabric_create(&f, &t.d), IBCC_OK);
    if (!f) return r;
    T_EQ(ibcc_fabric_run_until(f, IBCC_MS(2)), IBCC_OK);
    ibcc_fabric_stats_reset(f);                 /* measure the last 2 ms */
    T_EQ(ibcc_fabric_run_until(f, IBCC_MS(4)), IBCC_OK);
    T_EQ(ibcc_fabric_check(f), IBCC_OK);
    {
        ibcc_time lat = 0;
        for (i = 0; i < 4; i++) {
            ibcc_fabric_flow_stats st;
            T_EQ(ibcc_fabric_flow_stats_get(f, i, &st), IBCC_OK);
            r.delivered_bytes += st.delivered_bytes;
            r.delivered += st.delivered;
            r.marked += st.marked;
            r.cnps_back += st.acks_marked;
            lat += st.lat_sum;
        }
        r.lat_mean_ns = r.delivered ? (double)lat / (double)r.delivered / 1000.0 : 0;
    }
    ibcc_fabric_destroy(f);
    return r;
}

static void test_incast(void)
{
    result none = run(IBCC_AGENT_NONE), dc = run(IBCC_AGENT_DCQCN), again;
    /* one line for tests/docnums.sh, which checks docs/dcqcn.md */
    printf("dcqcn-incast none_marked=%llu none_delivered=%llu "
           "none_lat_us=%.1f dc_marked=%llu dc_delivered=%llu dc_lat_us=%.1f "
           "dc_util=%.3f\n",
           (unsigned long long)none.marked, (unsigned long long)none.delivered,
           none.lat_mean_ns / 1000.0, (unsigned long long)dc.marked,
           (unsigned long long)dc.delivered, dc.lat_mean_ns / 1000.0,
           (double)dc.delivered_bytes / 2e6);
    /* the receiver's link: 2 ms at 1 GB/s, less one packet at each end */
    T_CHECK(none.delivered_bytes >= 2000000u - 2u * 2068u);
    /* DCQCN gives some of it up for the short queue: after each cut the
       four flows recover in steps of R_AI (40 Mb/s, 0.5% of the link)
       every 55 us, and the queue drains between marks (0.914 of the
       link measured; the run is deterministic) */
    T_CHECK(dc.delivered_bytes >= 2000000u * 88u / 100u);
    /* without CC the hot output's queue stays above the marking level:
       nearly every packet is marked */
    T_CHECK(none.marked * 10u >= none.delivered * 9u);
    /* DCQCN: fewer marks and a shorter queue */
    T_CHECK(dc.marked * 2u < none.marked);
    T_CHECK(dc.lat_mean_ns * 2.0 < none.lat_mean_ns);
    /* deterministic */
    again = run(IBCC_AGENT_DCQCN);
    T_EQU(again.delivered_bytes, dc.delivered_bytes);
    T_EQU(again.marked, dc.marked);
}

/* The same incast with the switch marking as DCQCN deployments do: ECN
   (RED) on the queue for the receiver, in 64-byte credits (16 KB input
   buffers, Kmin 5 KB, Kmax 20 KB, Pmax 10%). */
static void test_incast_ecn(void)
{
    star t;
    ibcc_fabric *f = NULL;
    uint64_t bytes = 0, marked = 0, delivered = 0;
    ibcc_time lat = 0;
    uint32_t i;
    ibcc_agent ag;
    double lat_us[2] = {0, 0}, util[2] = {0, 0}, mk[2] = {0, 0};
    for (ag = IBCC_AGENT_NONE; ; ag = IBCC_AGENT_DCQCN) {
        int k = ag == IBCC_AGENT_DCQCN;
        incast(&t, ag);
        t.d.buf_credits = 256;
        t.d.marker.engine = IBCC_MARKER_ECN;
        t.d.marker.ecn_kmin = 5000;
        t.d.marker.ecn_kmax = 20000;
        t.d.marker.ecn_pmax = 100000;
        T_EQ(ibcc_fabric_create(&f, &t.d), IBCC_OK);
        if (!f) return;
        T_EQ(ibcc_fabric_run_until(f, IBCC_MS(2)), IBCC_OK);
        ibcc_fabric_stats_reset(f);
        T_EQ(ibcc_fabric_run_until(f, IBCC_MS(4)), IBCC_OK);
        T_EQ(ibcc_fabric_check(f), IBCC_OK);
        bytes = marked = delivered = 0; lat = 0;
        for (i = 0; i < 4; i++) {
            ibcc_fabric_flow_stats st;
            T_EQ(ibcc_fabric_flow_stats_get(f, i, &st), IBCC_OK);
            bytes += st.delivered_bytes;
            marked += st.marked;
            delivered += st.delivered;
            lat += st.lat_sum;
        }
        ibcc_fabric_destroy(f);
        f = NULL;
        lat_us[k] = delivered ? (double)lat / (double)delivered / 1e6 : 0;
        util[k] = (double)bytes / 2e6;
        mk[k] = delivered ? (double)marked / (double)delivered : 0;
        if (k) break;
    }
    printf("dcqcn-incast-ecn none_marked_frac=%.3f none_lat_us=%.1f "
           "dc_marked_frac=%.3f dc_lat_us=%.1f dc_util=%.3f\n",
           mk[0], lat_us[0], mk[1], lat_us[1], util[1]);
    T_CHECK(util[0] > 0.99);
    T_CHECK(mk[0] > 0.5);                   /* a standing queue */
    T_CHECK(mk[1] * 2.0 < mk[0]);
    T_CHECK(lat_us[1] * 2.0 < lat_us[0]);
    T_CHECK(util[1] > 0.85);
}

static void test_refusals(void)
{
    star t;
    ibcc_fabric *f = NULL;
    ibcc_fabric_error err;
    /* BECNs only come with the IBA echo */
    incast(&t, IBCC_AGENT_DCQCN);
    t.d.dest.scheme = IBCC_DEST_ECN;
    t.d.dest.becn_by_cnp = 0;
    t.d.error = &err;
    T_EQ(ibcc_fabric_create(&f, &t.d), IBCC_ERR_UNSUPPORTED);
    T_CHECK(f == NULL);
    T_CHECK(strstr(err.reason, "DCQCN") != NULL);
    /* a DCQCN description out of range */
    incast(&t, IBCC_AGENT_DCQCN);
    t.d.dcqcn.g = IBCC_DCQCN_ONE + 1u;
    t.d.error = &err;
    T_EQ(ibcc_fabric_create(&f, &t.d), IBCC_ERR_RANGE);
    T_CHECK(strstr(err.reason, "DCQCN agent") != NULL);
    /* an agent beyond the last */
    incast(&t, IBCC_AGENT_DCQCN);
    t.flows[0].agent = (ibcc_agent)(IBCC_AGENT_HPCC + 1);
    T_EQ(ibcc_fabric_create(&f, &t.d), IBCC_ERR_RANGE);
}

int main(void)
{
    T_RUN(test_incast);
    T_RUN(test_incast_ecn);
    T_RUN(test_refusals);
    return t_summary();
}
