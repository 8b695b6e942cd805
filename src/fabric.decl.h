#ifndef IBCC_NO_FABRIC
/* ==== L3 fabric =========================================================
   A small packet-level, event-driven model of a lossless, credit-flow-
   controlled fabric, built on the L2 loop and the L1 engines exactly as an
   embedding simulator would use them: switches ask the arbiter which packet
   starts on a free output and call the marker on arrival and departure;
   hosts ask their source agent (pacer + law, CCT agent, MVCM agent) when a
   flow may send next; destinations apply the dest echo rules. Sources:
   [S02] [S03] (two-switch scenario, Table I parameters), [G] (host
   injection/absorption cap, CNP, Victim_Mask), [F] (per-flow queues). docs/fabric.md lists every
   modelling choice.

   Model in one paragraph: virtual cut-through switches with input buffers
   (one FIFO per input port and lane); a packet becomes visible to its
   switch one forwarding delay after its header arrived and may start on a
   free output whose downstream buffer has room while its tail is still
   arriving; an output stays busy until the tail has both arrived and been
   sent; credits (packets and 64-byte units) return upstream one propagation
   delay after the tail leaves the buffer, and until then the packet also
   counts in its input buffer for the marker (hold/release). Lane 0 carries data, lane 1
   ACK/CNP; lane 1 has its own credits and is served first on every link.
   All same-instant events at a switch are applied before it arbitrates,
   and it arbitrates repeatedly until nothing more can start.

   Defaults (ibcc_fabric_desc, zero means default):
   | field           | default        | range                            |
   | link_rate       | 1 GB/s         | > 0 (per link override)          |
   | prop_delay      | 5 ns           | > 0 (per link override)          |
   | fwd_delay       | 40 ns          | any                              |
   | data_size       | 2068 bytes     | 1 .. 65535                       |
   | buf_packets     | 4              | 1 .. 65535 (data lane, per input)|
   | buf_credits     | 0 = unlimited  | 64-byte units, 0 .. 2^20         |
   | ack_buf_packets | 16             | 1 .. 65535 (ACK lane, per input) |
   | bin             | 100 us         | > 0 (stats bin)                  |
   | horizon         | 0 = no bins    | stats series length              |
   | host_cap        | 0 = none       | bytes/s, injection + absorption  |
   | arbiter         | oldest, bypass 4 | ibcc_arbiter_desc fields       |
   | marker          | NONE           | ibcc_marker_desc fields          |
   | law             | LIPD continuous, Rmin = Rmax/256                  |
   | dest            | ECN echo, 20-byte ACKs                            |
   | seed            | 0              | any                              |
   | loop_capacity   | computed       | events                           |
   | allocator       | malloc/free    | both functions or neither        |
   ====================================================================== */

#define IBCC_FABRIC_HOST    1u
#define IBCC_FABRIC_SWITCH  2u

#define IBCC_FABRIC_LANES   2u  /* lane 0 data, lane 1 ACK/CNP */

/* Traffic generation of a flow. */
#define IBCC_TRAFFIC_GREEDY 0u  /* always has a packet while active */
#define IBCC_TRAFFIC_ONOFF  1u  /* greedy in ON periods; ON/OFF exponential */
#define IBCC_TRAFFIC_RATE   2u  /* packets generated at `offered` B/s */

/* Source agent of a flow (what decides when it may send next). */
#define IBCC_AGENT_NONE     0u  /* no limit (window still applies if set) */
#define IBCC_AGENT_WINDOW   1u  /* window only */
#define IBCC_AGENT_LAW      2u  /* window + rate law + pacing (pacer) */
#define IBCC_AGENT_FIXED    3u  /* window + fixed rate `rate` (pacer) */
#define IBCC_AGENT_CCT      4u  /* IBA CCT/CCTI agent of the source host */
#define IBCC_AGENT_MVCM     5u  /* MVCM dynamic window + waiting slots */

/* Memory allocator used by the fabric (NULL functions = malloc/free). */
typedef struct ibcc_fabric_allocator {
    void *(*alloc)(void *user, size_t size);
    void  (*free)(void *user, void *ptr);
    void  *user;
} ibcc_fabric_allocator;

typedef struct ibcc_fabric_node {
    uint32_t kind;              /* IBCC_FABRIC_HOST or IBCC_FABRIC_SWITCH */
    uint32_t ports;             /* switch ports (hosts have exactly 1) */
} ibcc_fabric_node;

/* A full-duplex link: channel 2*i carries a->b, channel 2*i+1 b->a. */
typedef struct ibcc_fabric_link {
    uint32_t a, a_port, b, b_port;
    ibcc_rate rate;             /* 0 = desc.link_rate */
    ibcc_time prop;             /* 0 = desc.prop_delay */
} ibcc_fabric_link;

/* Static route: at switch `sw`, packets for host `dst` leave on `port`. */
typedef struct ibcc_fabric_route {
    uint32_t sw, dst, port;
} ibcc_fabric_route;

typedef struct ibcc_fabric_flow {
    uint32_t src, dst;          /* host nodes */
    uint32_t traffic;           /* IBCC_TRAFFIC_* */
    uint32_t agent;             /* IBCC_AGENT_* */
    uint32_t window;            /* unacknowledged packets, 0 = no window */
    uint32_t size;              /* data packet bytes, 0 = desc.data_size */
    uint32_t cls;               /* free label (flow class) for the caller */
    uint32_t persistent;        /* 1: keep the pair's agent state across
                                   OFF periods; 0: restart at Rmax */
    ibcc_time start;            /* first active instant */
    ibcc_time stop;             /* stops at this time; 0 = never */
    ibcc_time on_mean, off_mean;/* ONOFF mean period lengths (> 0) */
    ibcc_rate offered;          /* RATE traffic: generated bytes/s */
    ibcc_rate rate;             /* FIXED agent: the rate limit */
} ibcc_fabric_flow;

/* What an observer sees of a packet. */
typedef struct ibcc_fabric_pkt {
    uint32_t flow;              /* data flow (ACKs: the flow they ack) */
    uint32_t node;              /* where the event happens */
    uint32_t size;              /* bytes on the wire */
    uint32_t lane;              /* 0 data, 1 ACK/CNP */
    unsigned hdr;               /* IBCC_FECN/BECN/MB/VB/ACK/CNP bits */
    ibcc_time t_inject;         /* when its source started sending it */
    ibcc_time t;                /* time of the event */
} ibcc_fabric_pkt;

/* Observation callbacks; any may be NULL. */
typedef struct ibcc_fabric_observer {
    void (*sent)(void *user, const ibcc_fabric_pkt *p);      /* data injected */
    void (*delivered)(void *user, const ibcc_fabric_pkt *p); /* data at dst */
    void (*marked)(void *user, const ibcc_fabric_pkt *p);    /* a switch set
                                                  a forward bit (node = it) */
    void (*link_busy)(void *user, uint32_t channel, ibcc_time start,
                      ibcc_time end, const ibcc_fabric_pkt *p);
    void *user;
} ibcc_fabric_observer;

typedef struct ibcc_fabric_desc {
    const ibcc_fabric_node  *nodes;  uint32_t node_count;
    const ibcc_fabric_link  *links;  uint32_t link_count;
    const ibcc_fabric_route *routes; uint32_t route_count;
    const ibcc_fabric_flow  *flows;  uint32_t flow_count;
    ibcc_rate link_rate;
    ibcc_time prop_delay;
    ibcc_time fwd_delay;
    uint32_t  fwd_zero;          /* 1: forwarding delay is really 0 */
    uint32_t  data_size;
    uint32_t  buf_packets;       /* data lane, per switch input and host */
    uint32_t  buf_credits;       /* 64-byte units, 0 = packets only */
    uint32_t  ack_buf_packets;   /* ACK/CNP lane, per input */
    ibcc_rate host_cap;          /* injection and absorption cap per
                                    host (bytes/s), 0 = none */
    /* Engines (zero fields = the engine's defaults). The fabric fills in
       what the topology fixes: arbiter ports/capacity/can_send; marker
       ports/unit/in_capacity (buffer unit: credits when buf_credits is
       set); cct flows (port_rate 0 = the host's link rate, max_pkt_bytes
       0 = data_size); mvcm flows (ws is required when a flow uses MVCM);
       dest ack_bytes (0 = 20 bytes, [S02] Table I). */
    ibcc_arbiter_desc arbiter;   /* policy, bypass_limit */
    ibcc_marker_desc  marker;    /* engine, classify, t_out, trigger, ... */
    ibcc_law_desc     law;       /* law of IBCC_AGENT_LAW flows */
    ibcc_cct_desc     cct;       /* IBCC_AGENT_CCT flows, one per host */
    ibcc_mvcm_desc    mvcm;      /* IBCC_AGENT_MVCM flows, one per host */
    ibcc_dest_desc    dest;      /* destination echo rules */
    ibcc_time bin;
    ibcc_time horizon;
    uint64_t  seed;
    uint32_t  loop_capacity;
    ibcc_fabric_observer  observer;
    ibcc_fabric_allocator allocator;
} ibcc_fabric_desc;

typedef struct ibcc_fabric ibcc_fabric;

/* Per-flow totals. Latency = tail delivered - first bit sent. */
typedef struct ibcc_fabric_flow_stats {
    uint64_t sent, sent_bytes;
    uint64_t delivered, delivered_bytes;
    uint64_t marked;            /* delivered with FECN or MB set */
    uint64_t acks, acks_marked; /* ACKs back at the source, with BECN/MB */
    ibcc_time lat_sum, lat_min, lat_max;
    uint64_t lat_hist[32];      /* latency distribution: bucket k counts
                                   latencies in [2^k, 2^(k+1)) ns (bucket
                                   0 also below 1 ns, 31 also above) */
} ibcc_fabric_flow_stats;

/* Whole-fabric counters. */
typedef struct ibcc_fabric_counters {
    uint64_t injected;          /* packets created (data + ACK) */
    uint64_t delivered;         /* packets consumed at their destination */
    uint64_t in_flight;         /* injected - delivered */
    uint64_t hops;              /* link transmissions started */
    uint64_t events;            /* loop events run */
} ibcc_fabric_counters;

/* Fills zero fields with defaults; checks ranges (not the topology). */
IBCC_API ibcc_result ibcc_fabric_defaults(ibcc_fabric_desc *d);
/* Validates the topology, routes and flows, allocates and wires the
   fabric at time 0. On error nothing is left allocated and *out = NULL.
   Errors: NULL, RANGE (bad ids/ports, unreachable or looping route,
   unconnected port, port linked twice), CAPACITY, NOMEM. */
IBCC_API ibcc_result ibcc_fabric_create(ibcc_fabric **out,
                                        const ibcc_fabric_desc *d);
/* Frees everything the fabric allocated (NULL is fine). */
IBCC_API void ibcc_fabric_destroy(ibcc_fabric *f);
/* Runs the model up to time t. Errors: NULL, PAST, FULL (event heap). */
IBCC_API ibcc_result ibcc_fabric_run_until(ibcc_fabric *f, ibcc_time t);
IBCC_API ibcc_time ibcc_fabric_now(const ibcc_fabric *f);
/* The fabric's event loop, to add the embedder's own events. */
IBCC_API ibcc_loop *ibcc_fabric_loop(ibcc_fabric *f);
/* Packet and credit conservation at the current instant: every injected
   packet is delivered or located (on a wire, in a buffer, in a host
   queue), and on every channel and lane, free credits + credits in use +
   credits returning = capacity; every switch's arbiter and marker agree
   with its buffers and no marker rejected an event. IBCC_OK or
   IBCC_ERR_MISMATCH. */
IBCC_API ibcc_result ibcc_fabric_check(const ibcc_fabric *f);
IBCC_API ibcc_result ibcc_fabric_counters_get(const ibcc_fabric *f,
                                              ibcc_fabric_counters *c);
IBCC_API ibcc_result ibcc_fabric_flow_stats_get(const ibcc_fabric *f,
                                 uint32_t flow, ibcc_fabric_flow_stats *s);
/* Channel leaving (node, port). Errors: NULL, RANGE. */
IBCC_API ibcc_result ibcc_fabric_channel(const ibcc_fabric *f, uint32_t node,
                                         uint32_t port, uint32_t *channel);
/* Bytes sent (first bit in [t0, t1)) by a flow (data) or on a channel
   (data + ACK), from the stats bins: t0 and t1 are rounded down to bins
   and must lie within the horizon. Errors: NULL, RANGE. */
IBCC_API ibcc_result ibcc_fabric_flow_bytes(const ibcc_fabric *f,
        uint32_t flow, ibcc_time t0, ibcc_time t1, uint64_t *bytes);
IBCC_API ibcc_result ibcc_fabric_channel_bytes(const ibcc_fabric *f,
        uint32_t channel, ibcc_time t0, ibcc_time t1, uint64_t *bytes);
/* Totals of a channel since time 0 (no bins needed): bytes sent and time
   its transmitter was busy (utilisation = busy / elapsed). Either output
   pointer may be NULL. Errors: NULL (f), RANGE (channel). */
IBCC_API ibcc_result ibcc_fabric_channel_totals(const ibcc_fabric *f,
        uint32_t channel, uint64_t *bytes, ibcc_time *busy);
/* Sliding-window rate in bytes/s of a flow (what = IBCC_FABRIC_FLOW, data
   sent) or a channel (IBCC_FABRIC_CHANNEL, everything sent) over the
   window of `width` centred on `center`: bytes whose first bit left in
   [center - width/2, center + width/2), bin-aligned, divided by the
   aligned window length. Errors: NULL, RANGE (unknown what or id, width
   below one bin, window outside [0, horizon]). */
#define IBCC_FABRIC_FLOW    0u
#define IBCC_FABRIC_CHANNEL 1u
IBCC_API ibcc_result ibcc_fabric_rate(const ibcc_fabric *f, uint32_t what,
        uint32_t id, ibcc_time center, ibcc_time width, double *bytes_per_s);
/* Jain's fairness index (sum x)^2 / (n sum x^2); 1 when all equal;
   returns 1 for n == 0 or all zero. */
IBCC_API double ibcc_jain(const double *x, uint32_t n);

/* ---- two-switch topology builder (SCENARIOS.md A) ---------------------
   Switch A: remote sources A1..AR and victim source AV; switch B: local
   sources B1..BL, congested destination BC and victim destination BV; one
   inter-switch link (ISL). Node order: A, B, A1..AR, AV, B1..BL, BC, BV.
   Flows: L local (B_i -> BC, cls 0), R remote (A_i -> BC, cls 1), then the
   victim AV -> BV (cls 2); all greedy, agent NONE, active from 0 (the
   caller edits them). Ports: A: 0..R-1 remotes, R victim, R+1 ISL; B:
   0..L-1 locals, L BC, L+1 BV, L+2 ISL. */
#define IBCC_TWOSWITCH_MAX 64u
#define IBCC_TS_LOCAL  0u
#define IBCC_TS_REMOTE 1u
#define IBCC_TS_VICTIM 2u
typedef struct ibcc_twoswitch {
    uint32_t L, R;
    uint32_t sw_a, sw_b, bc, bv, av;
    uint32_t isl_channel;       /* A -> B */
    uint32_t root_channel;      /* B -> BC */
    uint32_t victim_channel;    /* B -> BV */
    ibcc_fabric_node  nodes[2u * IBCC_TWOSWITCH_MAX + 5u];
    ibcc_fabric_link  links[2u * IBCC_TWOSWITCH_MAX + 4u];
    ibcc_fabric_route routes[2u * (2u * IBCC_TWOSWITCH_MAX + 3u)];
    ibcc_fabric_flow  flows[2u * IBCC_TWOSWITCH_MAX + 1u];
    uint32_t node_count, link_count, route_count, flow_count;
} ibcc_twoswitch;

/* Builds the topology for L local and R remote sources (1..64 each) and
   points d's topology fields at ts. Errors: NULL, RANGE. */
IBCC_API ibcc_result ibcc_twoswitch_build(ibcc_twoswitch *ts, uint32_t L,
                                          uint32_t R, ibcc_fabric_desc *d);
#endif /* IBCC_NO_FABRIC */
