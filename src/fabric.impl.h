#ifndef IBCC_NO_FABRIC
/* ---- L3 fabric: implementation ----------------------------------------

   Objects (all allocated at create through the allocator, except packets,
   which come from a pool of 1024-packet chunks that grows on demand):
   - channel: one direction of a link; the sender's transmitter, its view
     of the receiver's free credits per lane (packets and 64-byte units),
     counters for conservation (packets on the wire, credits returning).
   - buffer: a switch input port's FIFO for one lane, as an array of
     packet indices in arrival order (removal at any position for bypass),
     plus the packet currently crossing the crossbar (its tail is still in
     the buffer until the output finishes sending it).
   - switch: its marker and arbiter (L1 engines), a pending arbitration.
   - host: its ACK/CNP queue, its flows, a pending wake-up event.
   Events carry (type, index) packed in the 64-bit argument.

   Reading order: after the plumbing (memory, helpers, the same-instant
   to-do list and the event dispatcher), the file follows one packet:
     1. generation       a flow starts / toggles, RATE packets appear
     2. injection        its host picks it (ACK lane first) and sends it
     3. the link         transmitter busy, credits taken, arrival scheduled
     4. switch arrival   visible after the forwarding delay: marker, arbiter
     5. arbitration      oldest eligible packet starts on a free output
     6. the tail leaves  output free, input slot and credits released
     7. delivery         tail at the destination host: stats, echo -> ACK
     8. the ACK          back at the source (it crossed 2-6 on lane 1)
     9. source agents    window, pacer + law, CCT, MVCM
   then create/destroy, queries and the two-switch builder. */

#define IBCC__F_NONE     UINT32_C(0xffffffff)
#define IBCC__F_CHUNK    1024u
#define IBCC__F_E_ARRIVE 1u  /* packet visible at switch / tail at host */
#define IBCC__F_E_TXEND  2u  /* a channel's transmitter finished */
#define IBCC__F_E_CREDIT 3u  /* credits back at a channel's sender */
#define IBCC__F_E_FLUSH  4u  /* deferred switch arbitrations / host runs */
#define IBCC__F_E_HOST   5u  /* host may send (timed wake-up) */
#define IBCC__F_E_FLOW   6u  /* flow start / stop / ON-OFF toggle */
#define IBCC__F_E_GEN    7u  /* RATE traffic: next packet generated */
#define IBCC__F_E_RXDONE 8u  /* capped host finished absorbing a packet */

typedef struct ibcc__fpkt {
    uint32_t next;              /* free list / host ACK queue link */
    uint32_t flow;
    uint32_t size;
    uint32_t units;             /* 64-byte credits it occupies */
    uint32_t lane;
    unsigned hdr;
    uint32_t node;              /* node it is at or travelling to */
    uint32_t in_port;           /* input port at that node */
    uint32_t out_port;          /* routed output at a switch */
    uint32_t chan;              /* channel it is on / arrived by */
    ibcc_time t_inject;
    ibcc_time t_arrive;         /* visible at this switch (its age) */
    ibcc_time t_tail;           /* tail fully arrived at this node */
} ibcc__fpkt;

typedef struct ibcc__fchan {
    uint32_t from, from_port, to, to_port;
    ibcc_rate rate;
    ibcc_time prop;
    uint32_t sz_data, sz_ack;   /* wire-time cache keys */
    ibcc_time wt_data, wt_ack;
    int busy;                   /* a TXEND event is pending */
    uint32_t xmit_in, xmit_lane, xmit_units, xmit_size; /* what is being
                                   sent (switch): input, lane, credits, bytes */
    uint32_t cap_p[2], cap_u[2];/* receiver capacity (packets, units) */
    uint32_t av_p[2], av_u[2];  /* free credits seen by the sender */
    uint32_t wire_p[2], wire_u[2]; /* on the wire (sent, not arrived) */
    uint32_t ret_p[2], ret_u[2];   /* credits travelling back */
    uint32_t rx_p[2], rx_u[2];     /* held by a capped receiving host */
    uint64_t bytes;             /* total sent */
    ibcc_time busy_time;        /* total transmitter busy time */
} ibcc__fchan;

typedef struct ibcc__fbuf {
    uint32_t *q;                /* packet indices, arrival order */
    uint32_t n, cap;
    uint32_t occ_p, occ_u;      /* queued + crossing */
    uint32_t crossing;          /* packet whose tail is being sent */
} ibcc__fbuf;

typedef struct ibcc__fnode {
    uint32_t kind, ports, base; /* base: first index in per-port arrays */
    uint32_t idx;               /* index among switches or hosts */
} ibcc__fnode;

typedef struct ibcc__fsw {
    struct ibcc_fabric *f;      /* back pointer for the arbiter callback */
    uint32_t node;
    uint32_t lane;              /* lane the arbiter callback is asked for */
    int arb_pending;            /* on the current instant's to-do list */
    ibcc_arbiter arb[2];        /* one per lane (data, ACK) */
    ibcc_marker mark;           /* data lane marking engine */
    void *mem;                  /* arbiters' and marker's memory */
} ibcc__fsw;

typedef struct ibcc__fhost {
    uint32_t node;
    uint32_t chan;              /* its output channel */
    uint32_t ackq_head, ackq_tail, ackq_n;
    uint32_t first, nflows;     /* into ibcc_fabric.hflow */
    uint32_t rr;
    ibcc_event_id wake_id;
    ibcc_time wake_at;          /* IBCC_TIME_MAX: none pending */
    ibcc_time cap_next;         /* injection cap: next start allowed */
    ibcc_time rx_free;          /* absorption cap: receive side free at */
    int run_pending;            /* on the current instant's to-do list */
    ibcc_cct cct;               /* CCT agent of the host (if used) */
    ibcc_mvcm mvcm;             /* MVCM agent of the host (if used) */
    int has_cct, has_mvcm;
    void *agent_mem;
} ibcc__fhost;

typedef struct ibcc__fflow {
    ibcc_fabric_flow d;
    uint32_t local;             /* index among its host's flows */
    int on;                     /* active (start reached, ON period) */
    ibcc_pacer pacer;           /* NONE/WINDOW/LAW/FIXED agents */
    ibcc_law law;               /* LAW agent */
    ibcc_time next_ok;          /* CCT/MVCM: earliest next start */
    uint64_t backlog;           /* RATE traffic: packets waiting */
    uint32_t outstanding;       /* unacknowledged packets */
    ibcc_fabric_flow_stats st;
} ibcc__fflow;

struct ibcc_fabric {
    ibcc_fabric_desc d;
    ibcc_fabric_allocator al;
    ibcc_loop loop;
    void *loop_mem;
    ibcc_rng rng;
    uint32_t nn, nl, nch, nf, nsw, nh, nports;
    ibcc__fnode *node;
    uint32_t *out_ch, *in_ch;   /* [base + port] */
    uint32_t *route;            /* [switch idx * nn + dst] -> port */
    ibcc__fchan *ch;
    ibcc__fbuf *buf;            /* [(base + port) * 2 + lane] */
    uint32_t *bufmem;
    ibcc__fsw *sw;
    ibcc__fhost *host;
    ibcc__fflow *flow;
    uint32_t *hflow;
    ibcc__fpkt **chunk;
    uint32_t nchunk, chunk_cap, free_pkt;
    uint64_t injected, delivered, hops;
    uint64_t nbins;
    uint64_t *flow_bins, *ch_bins;
    ibcc_dest dest;
    ibcc_pairstate pairs;       /* persistent per-pair law state */
    void *pairs_mem;
    ibcc_law_desc lawd;         /* effective law description */
    ibcc_law law_proto;         /* compiled law copied into LAW flows */
    void *law_mem;
    uint32_t *todo;             /* switch arbitrations and host runs
                                   requested for the current instant, in
                                   request order (bit 31 set: host) */
    uint32_t ntodo;
    int flush_pending;          /* an E_FLUSH is scheduled at flush_at */
    ibcc_time flush_at;
    ibcc_result err;            /* first internal error (event heap full) */
};

/* ---- memory and the packet pool ------------------------------------------- */
static void *ibcc__fab_alloc(ibcc_fabric_allocator *a, size_t n)
{
    void *p;
    if (n == 0) return NULL;    /* ibcc__fab_mul overflowed: no memory */
    p = a->alloc ? a->alloc(a->user, n) : malloc(n);
    if (p) memset(p, 0, n);
    return p;
}
static void ibcc__fab_free(ibcc_fabric_allocator *a, void *p)
{
    if (!p) return;
    if (a->free) a->free(a->user, p); else free(p);
}
/* n * size with overflow check (0 on overflow). */
static size_t ibcc__fab_mul(size_t n, size_t size)
{
    if (size != 0 && n > ((size_t)-1) / size) return 0;
    return n * size;
}

static ibcc__fpkt *ibcc__fab_pkt(const ibcc_fabric *f, uint32_t i)
{
    return &f->chunk[i / IBCC__F_CHUNK][i % IBCC__F_CHUNK];
}

/* Takes a packet from the pool, growing it by one chunk when empty. */
static uint32_t ibcc__fab_pkt_new(ibcc_fabric *f)
{
    uint32_t i;
    ibcc__fpkt *p;
    if (f->free_pkt == IBCC__F_NONE) {
        ibcc__fpkt *c;
        uint32_t k;
        if (f->nchunk == f->chunk_cap) {
            uint32_t ncap = f->chunk_cap ? f->chunk_cap * 2u : 16u;
            ibcc__fpkt **nc = (ibcc__fpkt **)ibcc__fab_alloc(&f->al,
                                    ibcc__fab_mul(ncap, sizeof *nc));
            if (!nc || ncap > 0x3ffff0u) {
                ibcc__fab_free(&f->al, nc);
                return IBCC__F_NONE;
            }
            if (f->nchunk) memcpy(nc, f->chunk, f->nchunk * sizeof *nc);
            ibcc__fab_free(&f->al, f->chunk);
            f->chunk = nc;
            f->chunk_cap = ncap;
        }
        c = (ibcc__fpkt *)ibcc__fab_alloc(&f->al,
                                          IBCC__F_CHUNK * sizeof *c);
        if (!c) return IBCC__F_NONE;
        f->chunk[f->nchunk] = c;
        for (k = IBCC__F_CHUNK; k-- > 0;) {
            c[k].next = f->free_pkt;
            f->free_pkt = f->nchunk * IBCC__F_CHUNK + k;
        }
        f->nchunk++;
    }
    i = f->free_pkt;
    p = ibcc__fab_pkt(f, i);
    f->free_pkt = p->next;
    memset(p, 0, sizeof *p);
    p->next = IBCC__F_NONE;
    f->injected++;
    return i;
}

static void ibcc__fab_pkt_del(ibcc_fabric *f, uint32_t i)
{
    ibcc__fpkt *p = ibcc__fab_pkt(f, i);
    p->next = f->free_pkt;
    p->size = 0;                /* marks the slot free for the check */
    f->free_pkt = i;
    f->delivered++;
}

/* ---- small helpers -------------------------------------------------------- */
static void ibcc__fab_event(ibcc_loop *l, void *ctx, uint64_t arg);

static void ibcc__fab_at(ibcc_fabric *f, ibcc_time t, uint32_t type,
                         uint64_t idx, ibcc_event_id *id)
{
    ibcc_result r = ibcc_loop_at(&f->loop, t, ibcc__fab_event, f,
                                 (idx << 4) | type, id);
    if (r != IBCC_OK && f->err == IBCC_OK) f->err = r;
}

static ibcc_time ibcc__fab_wire(ibcc__fchan *c, uint32_t size)
{
    ibcc_time t = 0;
    if (size == c->sz_data) return c->wt_data;
    if (size == c->sz_ack) return c->wt_ack;
    (void)ibcc_wire_time(size, c->rate, &t); /* validated at create */
    return t;
}

static uint32_t ibcc__fab_units(uint32_t size)
{
    return (size + 63u) / 64u;
}

static void ibcc__fab_bin(ibcc_fabric *f, uint64_t *bins, ibcc_time t,
                          uint32_t bytes)
{
    uint64_t b;
    if (!bins) return;
    b = t / f->d.bin;
    if (b < f->nbins) bins[b] += bytes;
}

static void ibcc__fab_view(const ibcc_fabric *f, const ibcc__fpkt *p,
                           uint32_t node, ibcc_time t, ibcc_fabric_pkt *v)
{
    (void)f;
    v->flow = p->flow;
    v->node = node;
    v->size = p->size;
    v->lane = p->lane;
    v->hdr = p->hdr;
    v->t_inject = p->t_inject;
    v->t = t;
}

/* Can channel c accept a packet of `units` on lane ln now? */
static int ibcc__fab_room(const ibcc__fchan *ch, uint32_t ln, uint32_t units)
{
    return ch->av_p[ln] != 0 && ch->av_u[ln] >= units;
}

/* ---- the same-instant to-do list ------------------------------------------ */
/* Same-instant rule (SCENARIOS.md A): a switch arbitrates, and a host
   decides what to send, only after every event of the current instant has
   been applied. Requests for the current instant go on a to-do list (each
   switch and host at most once per instant, in request order). At the end
   of every fabric event the list is worked off at once if no other event
   is due at this instant (ibcc_loop_next_time), otherwise by one E_FLUSH
   event scheduled now, which the loop runs after every event already due
   at this instant (same-time events run in scheduling order). */
static void ibcc__fab_kick_sw(ibcc_fabric *f, uint32_t s)
{
    ibcc__fsw *w = &f->sw[s];
    if (w->arb_pending) return;     /* already on the list */
    w->arb_pending = 1;
    f->todo[f->ntodo++] = s;
}

/* Requests a host send attempt at time t (>= now). For the current
   instant it goes on the to-do list (and a later timed wake-up is dropped:
   the run re-requests what it needs); for a later time one timed E_HOST
   is kept, the earliest. */
static void ibcc__fab_wake_host(ibcc_fabric *f, uint32_t h, ibcc_time t)
{
    ibcc__fhost *o = &f->host[h];
    ibcc_time now = f->loop.now;
    if (t <= now) {
        if (o->wake_at != IBCC_TIME_MAX) {
            (void)ibcc_loop_cancel(&f->loop, o->wake_id);
            o->wake_at = IBCC_TIME_MAX;
        }
        if (o->run_pending) return;     /* already on the list */
        o->run_pending = 1;
        f->todo[f->ntodo++] = h | 0x80000000u;
        return;
    }
    if (o->wake_at != IBCC_TIME_MAX) {
        if (o->wake_at <= t) return;
        (void)ibcc_loop_cancel(&f->loop, o->wake_id);
    }
    o->wake_at = t;
    ibcc__fab_at(f, t, IBCC__F_E_HOST, h, &o->wake_id);
}

static void ibcc__fab_kick_node(ibcc_fabric *f, uint32_t node)
{
    const ibcc__fnode *n = &f->node[node];
    if (n->kind == IBCC_FABRIC_SWITCH) ibcc__fab_kick_sw(f, n->idx);
    else ibcc__fab_wake_host(f, n->idx, f->loop.now);
}

/* ---- event dispatch ------------------------------------------------------- */

/* Steps defined further down, in the packet's order (section number). */
static void ibcc__fab_flow_event(ibcc_fabric *f, uint32_t fi, int turn_on);
static void ibcc__fab_gen_event(ibcc_fabric *f, uint32_t fi);          /* 1 */
static void ibcc__fab_host_run(ibcc_fabric *f, uint32_t h);            /* 2 */
static void ibcc__fab_send(ibcc_fabric *f, uint32_t c, uint32_t pi,
                           ibcc_time tail_in);                         /* 3 */
static void ibcc__fab_arrive(ibcc_fabric *f, uint32_t pi);             /* 4 */
static void ibcc__fab_sw_arrive(ibcc_fabric *f, uint32_t pi);
static void ibcc__fab_sw_arb(ibcc_fabric *f, uint32_t s);              /* 5 */
static void ibcc__fab_txend(ibcc_fabric *f, uint32_t c);               /* 6 */
static void ibcc__fab_sw_txend(ibcc_fabric *f, uint32_t c);
static void ibcc__fab_credit_back(ibcc_fabric *f, uint64_t idx);
static void ibcc__fab_host_absorb(ibcc_fabric *f, uint32_t pi);        /* 7 */
static void ibcc__fab_host_receive(ibcc_fabric *f, uint32_t pi, int from_rx);
static void ibcc__fab_deliver(ibcc_fabric *f, uint32_t pi);
static void ibcc__fab_ack_at_source(ibcc_fabric *f, uint32_t pi);      /* 8 */

/* Works off the to-do list of the current instant. */
static void ibcc__fab_flush(ibcc_fabric *f)
{
    uint32_t k;
    for (k = 0; k < f->ntodo; k++) {
        uint32_t x = f->todo[k];
        if (x & 0x80000000u) {
            x &= 0x7fffffffu;
            f->host[x].run_pending = 0;
            ibcc__fab_host_run(f, x);
        } else {
            f->sw[x].arb_pending = 0;
            ibcc__fab_sw_arb(f, x);
        }
    }
    f->ntodo = 0;
}


/* The loop calls this for every fabric event; each case is one step of a
   packet's life (sections 1-8 below). At the end, the instant's to-do
   list is worked off if nothing else is due now, else by an E_FLUSH
   event queued behind everything already due now. */
static void ibcc__fab_event(ibcc_loop *l, void *ctx, uint64_t arg)
{
    ibcc_fabric *f = (ibcc_fabric *)ctx;
    uint64_t idx = arg >> 4;
    (void)l;
    switch ((uint32_t)(arg & 15u)) {
    case IBCC__F_E_FLOW:                  /* 1. generation */
        ibcc__fab_flow_event(f, (uint32_t)(idx >> 1), (int)(idx & 1u));
        break;
    case IBCC__F_E_GEN:                   /* 1. generation (RATE) */
        ibcc__fab_gen_event(f, (uint32_t)idx);
        break;
    case IBCC__F_E_HOST:                  /* 2. timed wake-up: join the
                                             instant's to-do list */
        f->host[idx].wake_at = IBCC_TIME_MAX;
        ibcc__fab_wake_host(f, (uint32_t)idx, f->loop.now);
        break;
    case IBCC__F_E_ARRIVE:                /* 4. switch / 7. host */
        ibcc__fab_arrive(f, (uint32_t)idx);
        break;
    case IBCC__F_E_TXEND:                 /* 6. transmitter free */
        ibcc__fab_txend(f, (uint32_t)idx);
        break;
    case IBCC__F_E_CREDIT:                /* 6. credits at the sender */
        ibcc__fab_credit_back(f, idx);
        break;
    case IBCC__F_E_RXDONE:                /* 7. capped host absorbed it */
        ibcc__fab_host_receive(f, (uint32_t)idx, 1);
        break;
    case IBCC__F_E_FLUSH:
        f->flush_pending = 0;
        break;
    default:
        break;
    }
    if (f->ntodo) {
        ibcc_time now = f->loop.now;
        if (ibcc_loop_next_time(&f->loop) > now) {
            ibcc__fab_flush(f);
        } else if (!(f->flush_pending && f->flush_at == now)) {
            f->flush_pending = 1;
            f->flush_at = now;
            ibcc__fab_at(f, now, IBCC__F_E_FLUSH, 0, NULL);
        }
    }
}

/* Source agent steps (section 9), used by sections 1, 2 and 8. */
/* Earliest time flow fi's agent lets it start its next packet, or
   IBCC_TIME_MAX when it waits for an ACK. The window (outstanding <
   window) is checked by the caller for every agent but MVCM. */
static ibcc_time ibcc__fab_agent_next(ibcc_fabric *f, uint32_t fi);
/* Flow fi started a data packet of wire time `wire` at now. */
static void ibcc__fab_agent_sent(ibcc_fabric *f, uint32_t fi, ibcc_time wire);
/* An ACK (header bits hdr) of flow fi reached its source. */
static void ibcc__fab_agent_ack(ibcc_fabric *f, uint32_t fi, unsigned hdr,
                                unsigned marks);
/* Flow fi starts a new ON period: fresh agent state at Rmax unless the
   pair's state persists. */
static void ibcc__fab_agent_restart(ibcc_fabric *f, uint32_t fi);
/* Flow fi's window allows another packet now. */
static int ibcc__fab_agent_window(const ibcc_fabric *f, uint32_t fi);
/* A flow period ends (stop or OFF): persistent state is saved. */
static void ibcc__fab_agent_end(ibcc_fabric *f, uint32_t fi);

/* ---- 1. generation: flows start, stop, toggle; RATE packets appear -------- */
static ibcc_time ibcc__fab_exp(ibcc_fabric *f, ibcc_time mean)
{
    double x = ibcc_rng_exp(&f->rng, (double)mean);
    if (x < 1.0) return 1;
    if (x >= 1.8e19) return IBCC_TIME_MAX / 4u;
    return (ibcc_time)x;
}

/* E_FLOW argument: flow << 1 | on. */
static void ibcc__fab_flow_event(ibcc_fabric *f, uint32_t fi, int turn_on)
{
    ibcc__fflow *fl = &f->flow[fi];
    ibcc_time now = f->loop.now;
    int stopped = fl->d.stop != 0 && now >= fl->d.stop;
    if (turn_on) {
        if (stopped || fl->on) return;
        fl->on = 1;
        ibcc__fab_agent_restart(f, fi);
        if (fl->d.traffic == IBCC_TRAFFIC_ONOFF) {
            ibcc_time t = now + ibcc__fab_exp(f, fl->d.on_mean);
            if (fl->d.stop == 0 || t < fl->d.stop)
                ibcc__fab_at(f, t, IBCC__F_E_FLOW, (uint64_t)fi << 1, NULL);
        }
        ibcc__fab_wake_host(f, f->node[fl->d.src].idx, now);
    } else {
        if (!fl->on) return;
        fl->on = 0;
        ibcc__fab_agent_end(f, fi);
        if (fl->d.traffic == IBCC_TRAFFIC_ONOFF && !stopped) {
            ibcc_time t = now + ibcc__fab_exp(f, fl->d.off_mean);
            if (fl->d.stop == 0 || t < fl->d.stop)
                ibcc__fab_at(f, t, IBCC__F_E_FLOW,
                             ((uint64_t)fi << 1) | 1u, NULL);
        }
    }
}

/* RATE traffic: one packet joins the flow's queue every size/offered. */
static void ibcc__fab_gen_event(ibcc_fabric *f, uint32_t fi)
{
    ibcc__fflow *fl = &f->flow[fi];
    ibcc_time now = f->loop.now, gap = 0;
    if (fl->d.stop != 0 && now >= fl->d.stop) return;
    if (fl->backlog == 0 && fl->d.agent == IBCC_AGENT_MVCM)
        ibcc_mvcm_on_inject_empty(&f->host[f->node[fl->d.src].idx].mvcm,
                                  fl->local);
    fl->backlog++;
    (void)ibcc_wire_time(fl->d.size, fl->d.offered, &gap);
    ibcc__fab_at(f, now + gap, IBCC__F_E_GEN, fi, NULL);
    ibcc__fab_wake_host(f, f->node[fl->d.src].idx, now);
}

/* ---- 2. injection: a host picks what to send next ------------------------- */

/* Host h may send: ACK/CNP lane first, then data flows in round robin.
   A flow is ready when it is active, has a packet, its window and agent
   allow it and the first switch has room; the host otherwise sleeps until
   the earliest agent time, a credit return or its transmitter freeing. */
static void ibcc__fab_host_run(ibcc_fabric *f, uint32_t h)
{
    ibcc__fhost *o = &f->host[h];
    ibcc__fchan *ch = &f->ch[o->chan];
    ibcc_time now = f->loop.now, wake = IBCC_TIME_MAX;
    uint32_t k;
    if (ch->busy) return;                   /* TXEND wakes it */
    if (o->cap_next > now) {
        ibcc__fab_wake_host(f, h, o->cap_next);
        return;
    }
    if (o->ackq_n && ibcc__fab_room(ch, 1,
                                    ibcc__fab_pkt(f, o->ackq_head)->units)) {
        uint32_t pi = o->ackq_head;
        ibcc__fpkt *p = ibcc__fab_pkt(f, pi);
        o->ackq_head = p->next;
        if (--o->ackq_n == 0) o->ackq_tail = IBCC__F_NONE;
        p->next = IBCC__F_NONE;
        ibcc__fab_send(f, o->chan, pi, now);
        return;
    }
    for (k = 0; k < o->nflows; k++) {
        uint32_t pos = (o->rr + k) % o->nflows;
        uint32_t fi = f->hflow[o->first + pos];
        ibcc__fflow *fl = &f->flow[fi];
        ibcc_time t, wire;
        uint32_t pi;
        ibcc__fpkt *p;
        if (!fl->on) continue;
        if (fl->d.traffic == IBCC_TRAFFIC_RATE && fl->backlog == 0) continue;
        if (!ibcc__fab_agent_window(f, fi)) continue;
        t = ibcc__fab_agent_next(f, fi);
        if (t > now) {
            if (t < wake) wake = t;
            continue;
        }
        if (!ibcc__fab_room(ch, 0, ibcc__fab_units(fl->d.size))) continue;
        pi = ibcc__fab_pkt_new(f);
        if (pi == IBCC__F_NONE) {
            if (f->err == IBCC_OK) f->err = IBCC_ERR_NOMEM;
            return;
        }
        p = ibcc__fab_pkt(f, pi);
        p->flow = fi;
        p->size = fl->d.size;
        p->units = ibcc__fab_units(p->size);
        p->lane = 0;
        p->t_inject = now;
        if (fl->d.traffic == IBCC_TRAFFIC_RATE) fl->backlog--;
        fl->outstanding++;
        fl->st.sent++;
        fl->st.sent_bytes += p->size;
        ibcc__fab_bin(f, f->flow_bins ? f->flow_bins + (uint64_t)fi * f->nbins
                                      : NULL, now, p->size);
        if (f->d.observer.sent) {
            ibcc_fabric_pkt v;
            ibcc__fab_view(f, p, o->node, now, &v);
            f->d.observer.sent(f->d.observer.user, &v);
        }
        wire = ibcc__fab_wire(ch, p->size);
        ibcc__fab_agent_sent(f, fi, wire);
        o->rr = (pos + 1u) % o->nflows;
        if (f->d.host_cap) {
            ibcc_time tc = 0;
            (void)ibcc_wire_time(p->size, f->d.host_cap, &tc);
            o->cap_next = now + tc;
        }
        ibcc__fab_send(f, o->chan, pi, now);
        return;
    }
    if (wake != IBCC_TIME_MAX) ibcc__fab_wake_host(f, h, wake);
}

/* ---- 3. the link: a packet starts on a channel ---------------------------- */

/* Starts packet pi on channel c now. tail_in: when its tail is fully at
   the sender (now for a host). The transmitter stays busy until the tail
   has both arrived and been sent: end = max(now + wire, tail_in). */
static void ibcc__fab_send(ibcc_fabric *f, uint32_t c, uint32_t pi,
                           ibcc_time tail_in)
{
    ibcc__fchan *ch = &f->ch[c];
    ibcc__fpkt *p = ibcc__fab_pkt(f, pi);
    ibcc_time now = f->loop.now;
    ibcc_time end = now + ibcc__fab_wire(ch, p->size);
    uint32_t ln = p->lane;
    const ibcc__fnode *to = &f->node[ch->to];
    if (end < tail_in) end = tail_in;
    ch->busy = 1;
    ch->av_p[ln]--;
    ch->av_u[ln] -= p->units;
    ch->wire_p[ln]++;
    ch->wire_u[ln] += p->units;
    ch->bytes += p->size;
    ch->busy_time += end - now;
    f->hops++;
    ibcc__fab_bin(f, f->ch_bins ? f->ch_bins + (uint64_t)c * f->nbins : NULL,
                  now, p->size);
    if (f->d.observer.link_busy) {
        ibcc_fabric_pkt v;
        ibcc__fab_view(f, p, ch->from, now, &v);
        f->d.observer.link_busy(f->d.observer.user, c, now, end, &v);
    }
    ibcc__fab_at(f, end, IBCC__F_E_TXEND, c, NULL);
    p->node = ch->to;
    p->in_port = ch->to_port;
    p->chan = c;
    p->t_tail = end + ch->prop;
    if (to->kind == IBCC_FABRIC_SWITCH) {
        p->t_arrive = now + ch->prop + f->d.fwd_delay;
        ibcc__fab_at(f, p->t_arrive, IBCC__F_E_ARRIVE, pi, NULL);
    } else {
        ibcc__fab_at(f, p->t_tail, IBCC__F_E_ARRIVE, pi, NULL);
    }
}

/* ---- 4. arrival: at the node the packet was sent to ----------------------- */

/* E_ARRIVE: packet pi reached the node it was sent to: at a switch its
   header has been there for the forwarding delay (section 4), at a host
   its tail has arrived (section 7). */
static void ibcc__fab_arrive(ibcc_fabric *f, uint32_t pi)
{
    if (f->node[ibcc__fab_pkt(f, pi)->node].kind == IBCC_FABRIC_SWITCH)
        ibcc__fab_sw_arrive(f, pi);
    else if (f->d.host_cap)
        ibcc__fab_host_absorb(f, pi);
    else
        ibcc__fab_host_receive(f, pi, 0);
}

/* A packet became visible at switch input (in_port, lane): it enters the
   marker (data lane) and the lane's arbiter. */
static void ibcc__fab_sw_arrive(ibcc_fabric *f, uint32_t pi)
{
    ibcc__fpkt *p = ibcc__fab_pkt(f, pi);
    const ibcc__fnode *n = &f->node[p->node];
    ibcc__fsw *w = &f->sw[n->idx];
    ibcc__fchan *in = &f->ch[p->chan];
    ibcc__fbuf *b = &f->buf[(n->base + p->in_port) * 2u + p->lane];
    uint32_t dst = p->lane ? f->flow[p->flow].d.src : f->flow[p->flow].d.dst;
    p->out_port = f->route[(uint64_t)n->idx * f->nn + dst];
    in->wire_p[p->lane]--;
    in->wire_u[p->lane] -= p->units;
    b->occ_p++;
    b->occ_u += p->units;
    b->q[b->n++] = pi;
    if (p->lane == 0) {
        unsigned before = p->hdr;
        p->hdr |= ibcc_marker_arrive(&w->mark, p->in_port, p->out_port,
                                     p->size);
        if (p->hdr != before && f->d.observer.marked) {
            ibcc_fabric_pkt v;
            ibcc__fab_view(f, p, p->node, f->loop.now, &v);
            f->d.observer.marked(f->d.observer.user, &v);
        }
    }
    (void)ibcc_arbiter_push(&w->arb[p->lane], p->in_port, p->out_port,
                            p->size, pi);
    ibcc__fab_kick_sw(f, n->idx);
}

/* ---- 5. arbitration: which packet starts on a free switch output ---------- */

/* Arbiter callback: can output `out` of the switch take a packet of
   `size` bytes on the lane being arbitrated? The transmitter must be idle
   and the downstream buffer must have a packet slot and enough 64-byte
   credits for it. */
static int ibcc__fab_can_send(void *user, unsigned out, unsigned in,
                              uint32_t size)
{
    ibcc__fsw *w = (ibcc__fsw *)user;
    ibcc_fabric *f = w->f;
    const ibcc__fnode *n = &f->node[w->node];
    const ibcc__fchan *ch = &f->ch[f->out_ch[n->base + out]];
    (void)in;
    return !ch->busy && ibcc__fab_room(ch, w->lane, ibcc__fab_units(size));
}

/* BUSY classification state of a switch output for the marker: busy when
   its transmitter is sending or the downstream data buffer has no room
   for a data packet. */
static void ibcc__fab_sw_busy(ibcc_fabric *f, uint32_t s, uint32_t port)
{
    ibcc__fsw *w = &f->sw[s];
    const ibcc__fnode *n = &f->node[w->node];
    const ibcc__fchan *ch = &f->ch[f->out_ch[n->base + port]];
    int busy = ch->busy || !ibcc__fab_room(ch, 0,
                                           ibcc__fab_units(f->d.data_size));
    ibcc_marker_set_busy(&w->mark, port, busy);
}

/* Removes packet pi from buffer b's queue (it starts crossing). */
static void ibcc__fab_buf_take(ibcc__fbuf *b, uint32_t pi)
{
    uint32_t k;
    for (k = 0; k < b->n; k++) {
        if (b->q[k] == pi) {
            memmove(&b->q[k], &b->q[k + 1], (b->n - k - 1u) * sizeof *b->q);
            b->n--;
            break;
        }
    }
    b->crossing = pi;
}

/* Arbitration of switch s: the ACK lane first (so ACKs take free outputs
   before data), then the data lane, each picking until nothing more can
   start. A data start never frees anything for the ACK lane, so one pass
   of each is the fixed point. */
static void ibcc__fab_sw_arb(ibcc_fabric *f, uint32_t s)
{
    ibcc__fsw *w = &f->sw[s];
    const ibcc__fnode *n = &f->node[w->node];
    ibcc_arb_grant g;
    uint32_t lane;
    for (lane = 2; lane-- > 0;) {
        w->lane = lane;
        while (ibcc_arbiter_pick_any(&w->arb[lane], &g)) {
            uint32_t pi = (uint32_t)g.tag;
            ibcc__fpkt *p = ibcc__fab_pkt(f, pi);
            uint32_t c = f->out_ch[n->base + g.out];
            ibcc__fchan *ch = &f->ch[c];
            ibcc__fbuf *b = &f->buf[(n->base + g.in) * 2u + lane];
            if (lane == 0) {
                unsigned before = p->hdr;
                /* IBA root test: downstream can take another packet like
                   this one after it (a port that is about to run out of
                   credits is treated as a victim) */
                int credit = ch->av_p[0] >= 2u && ch->av_u[0] >= 2u * p->units;
                p->hdr |= ibcc_marker_depart(&w->mark, g.in, g.out, p->size,
                                             p->hdr, credit);
                if (p->hdr != before && f->d.observer.marked) {
                    ibcc_fabric_pkt v;
                    ibcc__fab_view(f, p, w->node, f->loop.now, &v);
                    f->d.observer.marked(f->d.observer.user, &v);
                }
            }
            ibcc__fab_buf_take(b, pi);
            ch->xmit_in = g.in;
            ch->xmit_lane = lane;
            ch->xmit_units = p->units;
            ch->xmit_size = p->size;
            ibcc__fab_send(f, c, pi, p->t_tail);
            ibcc__fab_sw_busy(f, s, g.out);
        }
    }
}

/* ---- 6. the tail leaves: output free, input slot and credits back --------- */

/* E_TXEND: channel c's transmitter finished sending (the tail has left
   the sender): a switch frees the input buffer slot, a host may send
   again. */
static void ibcc__fab_txend(ibcc_fabric *f, uint32_t c)
{
    ibcc__fchan *ch = &f->ch[c];
    ch->busy = 0;
    if (f->node[ch->from].kind == IBCC_FABRIC_SWITCH)
        ibcc__fab_sw_txend(f, c);
    else
        ibcc__fab_wake_host(f, f->node[ch->from].idx, f->loop.now);
}

/* Transmitter of a switch output finished: the tail left input buffer
   (xmit_in, xmit_lane); its credits start back upstream, which they
   reach one propagation delay later. */
static void ibcc__fab_sw_txend(ibcc_fabric *f, uint32_t c)
{
    ibcc__fchan *ch = &f->ch[c];
    const ibcc__fnode *n = &f->node[ch->from];
    ibcc__fsw *w = &f->sw[n->idx];
    uint32_t ln = ch->xmit_lane, in = ch->xmit_in;
    ibcc__fbuf *b = &f->buf[(n->base + in) * 2u + ln];
    uint32_t up = f->in_ch[n->base + in];
    ibcc__fchan *u = &f->ch[up];
    b->occ_p--;
    b->occ_u -= ch->xmit_units;
    b->crossing = IBCC__F_NONE;
    if (ln == 0) ibcc_marker_release(&w->mark, in, ch->xmit_size);
    (void)ibcc_arbiter_set_input_busy(&w->arb[ln], in, 0);
    u->ret_p[ln]++;
    u->ret_u[ln] += ch->xmit_units;
    ibcc__fab_at(f, f->loop.now + u->prop, IBCC__F_E_CREDIT,
                 ((uint64_t)up << 17) | ((uint64_t)ch->xmit_units << 1) | ln,
                 NULL);
    ibcc__fab_sw_busy(f, n->idx, ch->from_port);
    ibcc__fab_kick_sw(f, n->idx);
}

/* E_CREDIT (argument: channel << 17 | units << 1 | lane): credits of one
   packet are back at the channel's sender, which may start another
   packet on that lane. */
static void ibcc__fab_credit_back(ibcc_fabric *f, uint64_t idx)
{
    uint32_t c = (uint32_t)(idx >> 17), ln = (uint32_t)(idx & 1u);
    uint32_t units = (uint32_t)((idx >> 1) & 0xffffu);
    ibcc__fchan *ch = &f->ch[c];
    ch->ret_p[ln]--;
    ch->ret_u[ln] -= units;
    ch->av_p[ln]++;
    ch->av_u[ln] += units;
    if (f->node[ch->from].kind == IBCC_FABRIC_SWITCH)
        ibcc__fab_sw_busy(f, f->node[ch->from].idx, ch->from_port);
    ibcc__fab_kick_node(f, ch->from);
}

/* ---- 7. delivery at the destination host ---------------------------------- */

/* Tail of packet pi reached a host with an absorption cap: the host takes
   packets one after another at host_cap (e.g. a PCIe-limited adapter,
   [G]); the packet holds its receive buffer space until absorbed. */
static void ibcc__fab_host_absorb(ibcc_fabric *f, uint32_t pi)
{
    ibcc__fpkt *p = ibcc__fab_pkt(f, pi);
    ibcc__fchan *in = &f->ch[p->chan];
    ibcc__fhost *o = &f->host[f->node[p->node].idx];
    ibcc_time now = f->loop.now, t = 0;
    in->wire_p[p->lane]--;
    in->wire_u[p->lane] -= p->units;
    in->rx_p[p->lane]++;
    in->rx_u[p->lane] += p->units;
    (void)ibcc_wire_time(p->size, f->d.host_cap, &t);
    if (o->rx_free < now) o->rx_free = now;
    o->rx_free += t;
    ibcc__fab_at(f, o->rx_free, IBCC__F_E_RXDONE, pi, NULL);
}

/* Tail of packet pi reached host `node` (or a capped host finished
   absorbing it): it is consumed at once and its credits start back, one
   propagation delay to the sender. Data goes on to ibcc__fab_deliver
   (section 7), an ACK/CNP to ibcc__fab_ack_at_source (section 8). */
static void ibcc__fab_host_receive(ibcc_fabric *f, uint32_t pi, int from_rx)
{
    ibcc__fpkt *p = ibcc__fab_pkt(f, pi);
    uint32_t c = p->chan, ln = p->lane;
    ibcc__fchan *in = &f->ch[c];
    ibcc_time now = f->loop.now;
    if (from_rx) {
        in->rx_p[ln]--;
        in->rx_u[ln] -= p->units;
    } else {
        in->wire_p[ln]--;
        in->wire_u[ln] -= p->units;
    }
    in->ret_p[ln]++;
    in->ret_u[ln] += p->units;
    ibcc__fab_at(f, now + in->prop, IBCC__F_E_CREDIT,
                 ((uint64_t)c << 17) | ((uint64_t)p->units << 1) | ln, NULL);
    if (ln == 0) ibcc__fab_deliver(f, pi);
    else ibcc__fab_ack_at_source(f, pi);
    ibcc__fab_pkt_del(f, pi);
}

/* A data packet's tail is at its destination host: statistics and the
   observer, then the destination's echo rule (ibcc_dest) builds the ACK
   and/or CNP, queued on the host's ACK lane (section 2 sends it first). */
static void ibcc__fab_deliver(ibcc_fabric *f, uint32_t pi)
{
    ibcc__fpkt *p = ibcc__fab_pkt(f, pi);
    uint32_t hidx = f->node[p->node].idx;
    ibcc__fflow *fl = &f->flow[p->flow];
    ibcc_time now = f->loop.now;
    ibcc_time lat = now - p->t_inject;
    ibcc__fhost *o = &f->host[hidx];
    fl->st.delivered++;
    fl->st.delivered_bytes += p->size;
    if (p->hdr & (IBCC_FECN | IBCC_MB)) fl->st.marked++;
    fl->st.lat_sum += lat;
    if (lat > fl->st.lat_max) fl->st.lat_max = lat;
    if (fl->st.lat_min == 0 || lat < fl->st.lat_min) fl->st.lat_min = lat;
    {
        uint64_t ns = lat / 1000u;
        unsigned k = 0;
        while (ns > 1u && k < 31u) {
            ns >>= 1;
            k++;
        }
        fl->st.lat_hist[k]++;
    }
    if (f->d.observer.delivered) {
        ibcc_fabric_pkt v;
        ibcc__fab_view(f, p, p->node, now, &v);
        f->d.observer.delivered(f->d.observer.user, &v);
    }
    {
        /* destination echo rule: an ACK and/or a CNP on lane 1 */
        ibcc_dest_reply r = ibcc_dest_on_packet(&f->dest, p->hdr);
        unsigned k2, flags[2];
        flags[0] = r.ack;
        flags[1] = r.cnp;
        for (k2 = 0; k2 < 2u; k2++) {
            uint32_t ai;
            ibcc__fpkt *a;
            if (!flags[k2]) continue;
            ai = ibcc__fab_pkt_new(f);
            if (ai == IBCC__F_NONE) {
                if (f->err == IBCC_OK) f->err = IBCC_ERR_NOMEM;
                break;
            }
            a = ibcc__fab_pkt(f, ai);
            p = ibcc__fab_pkt(f, pi);        /* pool may have grown */
            a->flow = p->flow;
            a->size = ibcc_dest_reply_bytes(&f->dest, flags[k2]);
            a->units = ibcc__fab_units(a->size);
            a->lane = 1;
            a->hdr = flags[k2];
            a->t_inject = now;
            if (o->ackq_n) ibcc__fab_pkt(f, o->ackq_tail)->next = ai;
            else o->ackq_head = ai;
            o->ackq_tail = ai;
            o->ackq_n++;
        }
        if (o->ackq_n) ibcc__fab_wake_host(f, hidx, now);
    }
}

/* ---- 8. the ACK back at its source (lane 1 through steps 2-6) ------------- */

/* An ACK or CNP of flow p->flow reached the flow's source host: an ACK
   closes one packet of the window; the source agent reacts to the echoed
   bits (section 9); the host may send again. */
static void ibcc__fab_ack_at_source(ibcc_fabric *f, uint32_t pi)
{
    const ibcc__fpkt *p = ibcc__fab_pkt(f, pi);
    ibcc__fflow *fl = &f->flow[p->flow];
    ibcc_time now = f->loop.now;
    uint32_t src = f->node[fl->d.src].idx;
    unsigned marks = ibcc_dest_marks(&f->dest, p->hdr);
    if (p->hdr & IBCC_ACK) {
        if (fl->outstanding) fl->outstanding--;
        fl->st.acks++;
        if (marks) fl->st.acks_marked++;
    }
    ibcc__fab_agent_ack(f, p->flow, p->hdr, marks);
    ibcc__fab_wake_host(f, src, now);
}

/* ---- 9. source agents ----------------------------------------------------
   NONE / WINDOW / LAW / FIXED flows use an ibcc_pacer (window + rate
   limit; LAW points it at the flow's ibcc_law). CCT flows use their host's
   ibcc_cct (delay from CCT[CCTI] after each packet) plus the flow window;
   MVCM flows use their host's ibcc_mvcm (dynamic window, waiting slots). */
static int ibcc__fab_uses_pacer(uint32_t agent)
{
    return agent <= IBCC_AGENT_FIXED;
}

static int ibcc__fab_agent_window(const ibcc_fabric *f, uint32_t fi)
{
    const ibcc__fflow *fl = &f->flow[fi];
    if (ibcc__fab_uses_pacer(fl->d.agent))
        return ibcc_pacer_window_open(&fl->pacer);
    if (fl->d.agent == IBCC_AGENT_MVCM)
        return fl->outstanding <
               ibcc_mvcm_window(&f->host[f->node[fl->d.src].idx].mvcm,
                                fl->local);
    return fl->d.window == 0 || fl->outstanding < fl->d.window;
}

static ibcc_time ibcc__fab_agent_next(ibcc_fabric *f, uint32_t fi)
{
    const ibcc__fflow *fl = &f->flow[fi];
    if (ibcc__fab_uses_pacer(fl->d.agent))
        return ibcc_pacer_next(&fl->pacer);
    return fl->next_ok;
}

static void ibcc__fab_agent_sent(ibcc_fabric *f, uint32_t fi, ibcc_time wire)
{
    ibcc__fflow *fl = &f->flow[fi];
    ibcc__fhost *o = &f->host[f->node[fl->d.src].idx];
    ibcc_time now = f->loop.now;
    if (ibcc__fab_uses_pacer(fl->d.agent)) {
        (void)ibcc_pacer_on_send(&fl->pacer, now, wire);
    } else if (fl->d.agent == IBCC_AGENT_CCT) {
        /* IBA: the injection rate delay CCT[CCTI] follows each packet */
        fl->next_ok = now + ibcc_cct_gap(&o->cct, fl->local, now, wire);
    } else {
        /* MVCM: nWS x WS between consecutive injections */
        ibcc_time w = ibcc_mvcm_wait(&o->mvcm, fl->local);
        fl->next_ok = (w > IBCC_TIME_MAX - now - wire) ? IBCC_TIME_MAX
                                                       : now + wire + w;
    }
}

static void ibcc__fab_agent_ack(ibcc_fabric *f, uint32_t fi, unsigned hdr,
                                unsigned marks)
{
    ibcc__fflow *fl = &f->flow[fi];
    ibcc__fhost *o = &f->host[f->node[fl->d.src].idx];
    ibcc_time now = f->loop.now;
    if (ibcc__fab_uses_pacer(fl->d.agent)) {
        if (hdr & IBCC_ACK)
            (void)ibcc_pacer_on_ack(&fl->pacer, marks != 0);
        else if (marks && fl->d.agent == IBCC_AGENT_LAW)
            ibcc_law_on_ack(&fl->law, 1);   /* BECN in a CNP: fdec only */
    } else if (fl->d.agent == IBCC_AGENT_CCT) {
        if (marks & IBCC_BECN) (void)ibcc_cct_on_becn(&o->cct, fl->local, now);
    } else {
        if (hdr & IBCC_ACK) (void)ibcc_mvcm_on_ack(&o->mvcm, fl->local, marks);
    }
}

static void ibcc__fab_agent_restart(ibcc_fabric *f, uint32_t fi)
{
    ibcc__fflow *fl = &f->flow[fi];
    ibcc__fhost *o = &f->host[f->node[fl->d.src].idx];
    if (fl->d.agent == IBCC_AGENT_LAW) {
        if (fl->d.persistent)
            (void)ibcc_pairstate_load(&f->pairs, fl->d.src, fl->d.dst,
                                      &fl->law);
        else
            ibcc_law_reset(&fl->law);
    } else if (fl->d.agent == IBCC_AGENT_MVCM) {
        ibcc_mvcm_on_inject_empty(&o->mvcm, fl->local);
        fl->next_ok = 0;
    } else if (fl->d.agent == IBCC_AGENT_CCT && !fl->d.persistent) {
        fl->next_ok = 0;
    }
}

/* A flow period ends: persistent LAW flows save their pair's state. */
static void ibcc__fab_agent_end(ibcc_fabric *f, uint32_t fi)
{
    ibcc__fflow *fl = &f->flow[fi];
    if (fl->d.agent == IBCC_AGENT_LAW && fl->d.persistent)
        (void)ibcc_pairstate_save(&f->pairs, fl->d.src, fl->d.dst, &fl->law);
}

/* ---- create / destroy -------------------------------------------------- */
IBCC_API ibcc_result ibcc_fabric_defaults(ibcc_fabric_desc *d)
{
    if (!d) return IBCC_ERR_NULL;
    if (d->link_rate == 0) d->link_rate = IBCC_GBYTES(1);
    if (d->prop_delay == 0) d->prop_delay = IBCC_NS(5);
    if (d->fwd_delay == 0 && !d->fwd_zero) d->fwd_delay = IBCC_NS(40);
    if (d->data_size == 0) d->data_size = 2068u;
    if (d->buf_packets == 0) d->buf_packets = 4u;
    if (d->ack_buf_packets == 0) d->ack_buf_packets = 16u;
    if (d->bin == 0) d->bin = IBCC_US(100);
    if (d->dest.ack_bytes == 0 && d->dest.scheme != IBCC_DEST_MVPM)
        d->dest.ack_bytes = 20u;
    if (d->data_size > 65535u || d->buf_packets > 65535u
        || d->ack_buf_packets > 65535u || d->buf_credits > (1u << 20)
        || d->fwd_zero > 1u)
        return IBCC_ERR_RANGE;
    if (d->buf_credits && d->buf_credits < ibcc__fab_units(d->data_size))
        return IBCC_ERR_RANGE;   /* a data packet could never enter */
    return IBCC_OK;
}

static void ibcc__fab_release(ibcc_fabric *f)
{
    ibcc_fabric_allocator a = f->al;
    uint32_t i;
    if (f->sw) for (i = 0; i < f->nsw; i++) ibcc__fab_free(&a, f->sw[i].mem);
    if (f->host)
        for (i = 0; i < f->nh; i++) ibcc__fab_free(&a, f->host[i].agent_mem);
    for (i = 0; i < f->nchunk; i++) ibcc__fab_free(&a, f->chunk[i]);
    ibcc__fab_free(&a, f->chunk);
    ibcc__fab_free(&a, f->loop_mem);
    ibcc__fab_free(&a, f->node);
    ibcc__fab_free(&a, f->out_ch);
    ibcc__fab_free(&a, f->in_ch);
    ibcc__fab_free(&a, f->route);
    ibcc__fab_free(&a, f->ch);
    ibcc__fab_free(&a, f->buf);
    ibcc__fab_free(&a, f->bufmem);
    ibcc__fab_free(&a, f->sw);
    ibcc__fab_free(&a, f->todo);
    ibcc__fab_free(&a, f->host);
    ibcc__fab_free(&a, f->flow);
    ibcc__fab_free(&a, f->hflow);
    ibcc__fab_free(&a, f->pairs_mem);
    ibcc__fab_free(&a, f->law_mem);
    ibcc__fab_free(&a, f->flow_bins);
    ibcc__fab_free(&a, f->ch_bins);
    ibcc__fab_free(&a, f);
}

IBCC_API void ibcc_fabric_destroy(ibcc_fabric *f)
{
    if (f) ibcc__fab_release(f);
}

/* Follows the static routes from host src to host dst. */
static ibcc_result ibcc__fab_walk(const ibcc_fabric *f, uint32_t src,
                                  uint32_t dst)
{
    uint32_t node = src, hops = 0;
    uint32_t c = f->out_ch[f->node[src].base];
    for (;;) {
        const ibcc__fnode *n;
        uint32_t port;
        node = f->ch[c].to;
        n = &f->node[node];
        if (n->kind == IBCC_FABRIC_HOST) return node == dst ? IBCC_OK
                                                             : IBCC_ERR_RANGE;
        if (++hops > f->nn) return IBCC_ERR_RANGE;      /* routing loop */
        port = f->route[(uint64_t)n->idx * f->nn + dst];
        if (port == IBCC__F_NONE) return IBCC_ERR_RANGE;
        c = f->out_ch[n->base + port];
    }
}

/* Topology checks and the node / channel / route tables. */
static ibcc_result ibcc__fab_topology(ibcc_fabric *f)
{
    const ibcc_fabric_desc *d = &f->d;
    uint32_t i, base = 0;
    f->node = (ibcc__fnode *)ibcc__fab_alloc(&f->al,
                                    ibcc__fab_mul(f->nn, sizeof *f->node));
    if (!f->node) return IBCC_ERR_NOMEM;
    for (i = 0; i < f->nn; i++) {
        const ibcc_fabric_node *n = &d->nodes[i];
        uint32_t ports = n->kind == IBCC_FABRIC_HOST ? 1u : n->ports;
        if (n->kind != IBCC_FABRIC_HOST && n->kind != IBCC_FABRIC_SWITCH)
            return IBCC_ERR_RANGE;
        if (n->kind == IBCC_FABRIC_HOST && n->ports > 1u)
            return IBCC_ERR_RANGE;
        if (ports == 0 || ports > IBCC_ARBITER_MAX_PORTS)
            return IBCC_ERR_CAPACITY;
        f->node[i].kind = n->kind;
        f->node[i].ports = ports;
        f->node[i].base = base;
        f->node[i].idx = n->kind == IBCC_FABRIC_HOST ? f->nh++ : f->nsw++;
        base += ports;
        if (base > (1u << 26)) return IBCC_ERR_CAPACITY;  /* total ports */
    }
    f->nports = base;
    if (f->nh == 0) return IBCC_ERR_CAPACITY;
    f->out_ch = (uint32_t *)ibcc__fab_alloc(&f->al, ibcc__fab_mul(base, 4));
    f->in_ch = (uint32_t *)ibcc__fab_alloc(&f->al, ibcc__fab_mul(base, 4));
    f->ch = (ibcc__fchan *)ibcc__fab_alloc(&f->al,
                                    ibcc__fab_mul(f->nch, sizeof *f->ch));
    f->route = (uint32_t *)ibcc__fab_alloc(&f->al,
              ibcc__fab_mul(ibcc__fab_mul(f->nsw ? f->nsw : 1u, f->nn), 4));
    if (!f->out_ch || !f->in_ch || !f->ch || !f->route) return IBCC_ERR_NOMEM;
    for (i = 0; i < base; i++) f->out_ch[i] = f->in_ch[i] = IBCC__F_NONE;
    {
        uint64_t k, nr = (uint64_t)f->nsw * f->nn;
        for (k = 0; k < nr; k++) f->route[k] = IBCC__F_NONE;
    }
    for (i = 0; i < f->nl; i++) {
        const ibcc_fabric_link *k = &d->links[i];
        uint32_t dir;
        ibcc_time wt_max;
        if (k->a >= f->nn || k->b >= f->nn || k->a == k->b
            || k->a_port >= f->node[k->a].ports
            || k->b_port >= f->node[k->b].ports)
            return IBCC_ERR_RANGE;
        if (f->out_ch[f->node[k->a].base + k->a_port] != IBCC__F_NONE
            || f->out_ch[f->node[k->b].base + k->b_port] != IBCC__F_NONE)
            return IBCC_ERR_RANGE;                      /* port linked twice */
        for (dir = 0; dir < 2u; dir++) {
            uint32_t c = 2u * i + dir;
            ibcc__fchan *ch = &f->ch[c];
            ch->from = dir ? k->b : k->a;
            ch->from_port = dir ? k->b_port : k->a_port;
            ch->to = dir ? k->a : k->b;
            ch->to_port = dir ? k->a_port : k->b_port;
            ch->rate = k->rate ? k->rate : d->link_rate;
            ch->prop = k->prop ? k->prop : d->prop_delay;
            ch->sz_data = d->data_size;
            ch->sz_ack = d->dest.ack_bytes;
            /* every packet size (<= 65535) must have a wire time */
            if (ibcc_wire_time(ch->sz_data, ch->rate, &ch->wt_data) != IBCC_OK
                || ibcc_wire_time(ch->sz_ack, ch->rate, &ch->wt_ack) != IBCC_OK
                || ibcc_wire_time(65535u, ch->rate, &wt_max) != IBCC_OK)
                return IBCC_ERR_RANGE;
            ch->xmit_in = IBCC__F_NONE;
            f->out_ch[f->node[ch->from].base + ch->from_port] = c;
            f->in_ch[f->node[ch->to].base + ch->to_port] = c;
        }
    }
    for (i = 0; i < f->nn; i++)
        if (f->node[i].kind == IBCC_FABRIC_HOST
            && f->out_ch[f->node[i].base] == IBCC__F_NONE)
            return IBCC_ERR_RANGE;                      /* host not linked */
    for (i = 0; i < d->route_count; i++) {
        const ibcc_fabric_route *r = &d->routes[i];
        if (r->sw >= f->nn || r->dst >= f->nn
            || f->node[r->sw].kind != IBCC_FABRIC_SWITCH
            || f->node[r->dst].kind != IBCC_FABRIC_HOST
            || r->port >= f->node[r->sw].ports
            || f->out_ch[f->node[r->sw].base + r->port] == IBCC__F_NONE)
            return IBCC_ERR_RANGE;
        f->route[(uint64_t)f->node[r->sw].idx * f->nn + r->dst] = r->port;
    }
    return IBCC_OK;
}

/* Channel capacities as seen by their senders (receiver's buffers). */
static void ibcc__fab_credits(ibcc_fabric *f)
{
    uint32_t c, ln;
    for (c = 0; c < f->nch; c++) {
        ibcc__fchan *ch = &f->ch[c];
        ch->cap_p[0] = f->d.buf_packets;
        ch->cap_u[0] = f->d.buf_credits ? f->d.buf_credits
                                        : f->d.buf_packets * 1024u;
        ch->cap_p[1] = f->d.ack_buf_packets;
        ch->cap_u[1] = f->d.ack_buf_packets * 1024u;
        for (ln = 0; ln < 2u; ln++) {
            ch->av_p[ln] = ch->cap_p[ln];
            ch->av_u[ln] = ch->cap_u[ln];
        }
    }
}

static ibcc_result ibcc__fab_switches(ibcc_fabric *f)
{
    uint32_t i, s = 0, nb = 0, k;
    f->sw = (ibcc__fsw *)ibcc__fab_alloc(&f->al,
                                ibcc__fab_mul(f->nsw ? f->nsw : 1u, sizeof *f->sw));
    f->todo = (uint32_t *)ibcc__fab_alloc(&f->al,
                                ibcc__fab_mul((size_t)f->nsw + f->nh, 4));
    if (!f->todo) return IBCC_ERR_NOMEM;
    f->buf = (ibcc__fbuf *)ibcc__fab_alloc(&f->al,
                                ibcc__fab_mul(f->nports * 2u, sizeof *f->buf));
    f->bufmem = (uint32_t *)ibcc__fab_alloc(&f->al, ibcc__fab_mul(
            f->nports, ((size_t)f->d.buf_packets + f->d.ack_buf_packets) * 4u));
    if (!f->sw || !f->buf || !f->bufmem) return IBCC_ERR_NOMEM;
    for (i = 0; i < f->nports * 2u; i++) {
        ibcc__fbuf *b = &f->buf[i];
        b->cap = (i & 1u) ? f->d.ack_buf_packets : f->d.buf_packets;
        b->q = f->bufmem + nb;
        b->crossing = IBCC__F_NONE;
        nb += b->cap;
    }
    for (i = 0; i < f->nn; i++) {
        ibcc__fsw *w;
        ibcc_arbiter_desc ad[2];
        ibcc_marker_desc md;
        size_t sz[3], off = 0, tot;
        ibcc_result r;
        char *mem;
        if (f->node[i].kind != IBCC_FABRIC_SWITCH) continue;
        w = &f->sw[s++];
        w->f = f;
        w->node = i;
        for (k = 0; k < 2u; k++) {
            ad[k] = f->d.arbiter;
            ad[k].ports = f->node[i].ports;
            ad[k].capacity = k ? f->d.ack_buf_packets : f->d.buf_packets;
            ad[k].can_send = ibcc__fab_can_send;
            ad[k].user = w;
            if ((r = ibcc_arbiter_defaults(&ad[k])) != IBCC_OK) return r;
            sz[k] = (ibcc_arbiter_size(&ad[k]) + 7u) & ~(size_t)7u;
            if (sz[k] == 0) return IBCC_ERR_RANGE;
        }
        md = f->d.marker;
        md.ports = f->node[i].ports;
        md.unit = f->d.buf_credits ? IBCC_UNIT_CREDITS : IBCC_UNIT_PACKETS;
        md.in_capacity = f->d.buf_credits ? f->d.buf_credits
                                          : f->d.buf_packets;
        /* virtual cut-through: a departed packet's tail keeps its room in
           the input buffer until the output has sent it (released at
           TXEND), so "buffer full" means what the credits say */
        md.hold = 1;
        if ((r = ibcc_marker_defaults(&md)) != IBCC_OK) return r;
        sz[2] = (ibcc_marker_size(&md) + 7u) & ~(size_t)7u;
        if (sz[2] == 0) return IBCC_ERR_RANGE;
        tot = sz[0] + sz[1] + sz[2];
        w->mem = ibcc__fab_alloc(&f->al, tot);
        if (!w->mem) return IBCC_ERR_NOMEM;
        mem = (char *)w->mem;
        for (k = 0; k < 2u; k++) {
            r = ibcc_arbiter_init(&w->arb[k], &ad[k], mem + off, sz[k]);
            if (r != IBCC_OK) return r;
            off += sz[k];
        }
        r = ibcc_marker_init(&w->mark, &md, mem + off, sz[2]);
        if (r != IBCC_OK) return r;
    }
    return IBCC_OK;
}

static ibcc_result ibcc__fab_flows(ibcc_fabric *f)
{
    const ibcc_fabric_desc *d = &f->d;
    uint32_t i, h, *fill;
    ibcc_result r;
    f->flow = (ibcc__fflow *)ibcc__fab_alloc(&f->al,
                          ibcc__fab_mul(f->nf ? f->nf : 1u, sizeof *f->flow));
    f->hflow = (uint32_t *)ibcc__fab_alloc(&f->al,
                          ibcc__fab_mul(f->nf ? f->nf : 1u, 4));
    f->host = (ibcc__fhost *)ibcc__fab_alloc(&f->al,
                          ibcc__fab_mul(f->nh, sizeof *f->host));
    if (!f->flow || !f->hflow || !f->host) return IBCC_ERR_NOMEM;
    for (i = 0; i < f->nn; i++) {
        ibcc__fhost *o;
        if (f->node[i].kind != IBCC_FABRIC_HOST) continue;
        o = &f->host[f->node[i].idx];
        o->node = i;
        o->chan = f->out_ch[f->node[i].base];
        o->ackq_head = o->ackq_tail = IBCC__F_NONE;
        o->wake_at = IBCC_TIME_MAX;
    }
    for (i = 0; i < f->nf; i++) {
        const ibcc_fabric_flow *x = &d->flows[i];
        ibcc__fflow *fl = &f->flow[i];
        if (x->src >= f->nn || x->dst >= f->nn || x->src == x->dst
            || f->node[x->src].kind != IBCC_FABRIC_HOST
            || f->node[x->dst].kind != IBCC_FABRIC_HOST
            || x->traffic > IBCC_TRAFFIC_RATE || x->agent > IBCC_AGENT_MVCM
            || x->persistent > 1u || x->size > 65535u
            || (x->stop != 0 && x->stop <= x->start))
            return IBCC_ERR_RANGE;
        if (x->traffic == IBCC_TRAFFIC_ONOFF
            && (x->on_mean == 0 || x->off_mean == 0)) return IBCC_ERR_RANGE;
        if (x->traffic == IBCC_TRAFFIC_RATE && x->offered == 0)
            return IBCC_ERR_RANGE;
        if (x->agent == IBCC_AGENT_FIXED && x->rate == 0)
            return IBCC_ERR_RANGE;
        /* without ACKs a window would never open again and a law would
           never increase */
        if (f->dest.transport == IBCC_DEST_UNACKED
            && (x->window || x->agent == IBCC_AGENT_MVCM
                || x->agent == IBCC_AGENT_LAW))
            return IBCC_ERR_UNSUPPORTED;
        if ((r = ibcc__fab_walk(f, x->src, x->dst)) != IBCC_OK) return r;
        if ((r = ibcc__fab_walk(f, x->dst, x->src)) != IBCC_OK) return r;
        fl->d = *x;
        if (fl->d.size == 0) fl->d.size = d->data_size;
        if (d->buf_credits && ibcc__fab_units(fl->d.size) > d->buf_credits)
            return IBCC_ERR_RANGE;
        h = f->node[x->src].idx;
        fl->local = f->host[h].nflows++;
        if (x->agent == IBCC_AGENT_CCT) f->host[h].has_cct = 1;
        if (x->agent == IBCC_AGENT_MVCM) f->host[h].has_mvcm = 1;
    }
    /* host flow lists: hflow[first .. first + nflows) */
    fill = (uint32_t *)ibcc__fab_alloc(&f->al, ibcc__fab_mul(f->nh, 4));
    if (!fill) return IBCC_ERR_NOMEM;
    for (h = 0, i = 0; h < f->nh; h++) {
        f->host[h].first = i;
        fill[h] = i;
        i += f->host[h].nflows;
    }
    for (i = 0; i < f->nf; i++) {
        h = f->node[f->flow[i].d.src].idx;
        f->hflow[fill[h]++] = i;
    }
    ibcc__fab_free(&f->al, fill);
    /* per-host CCT / MVCM agents */
    for (h = 0; h < f->nh; h++) {
        ibcc__fhost *o = &f->host[h];
        ibcc_cct_desc cd = d->cct;
        ibcc_mvcm_desc vd = d->mvcm;
        size_t s1 = 0, s2 = 0;
        if (!o->has_cct && !o->has_mvcm) continue;
        cd.flows = vd.flows = o->nflows;
        if (cd.port_rate == 0) cd.port_rate = f->ch[o->chan].rate;
        if (cd.max_pkt_bytes == 0) cd.max_pkt_bytes = d->data_size;
        if (o->has_cct && (s1 = (ibcc_cct_size(&cd) + 7u) & ~(size_t)7u) == 0)
            return IBCC_ERR_RANGE;
        if (o->has_mvcm && (s2 = (ibcc_mvcm_size(&vd) + 7u) & ~(size_t)7u) == 0)
            return IBCC_ERR_RANGE;
        o->agent_mem = ibcc__fab_alloc(&f->al, s1 + s2);
        if (!o->agent_mem) return IBCC_ERR_NOMEM;
        if (o->has_cct && (r = ibcc_cct_init(&o->cct, &cd, o->agent_mem, s1))
                          != IBCC_OK) return r;
        if (o->has_mvcm && (r = ibcc_mvcm_init(&o->mvcm, &vd,
                               (char *)o->agent_mem + s1, s2)) != IBCC_OK)
            return r;
    }
    /* pacers and laws */
    for (i = 0; i < f->nf; i++) {
        ibcc__fflow *fl = &f->flow[i];
        ibcc_pacer_desc pd;
        if (!ibcc__fab_uses_pacer(fl->d.agent)) continue;
        memset(&pd, 0, sizeof pd);
        pd.window = fl->d.window ? fl->d.window : IBCC_PACER_NO_WINDOW;
        if (fl->d.agent == IBCC_AGENT_LAW) {
            if (!f->law_mem) {
                /* one law compiled once (TABLE form: its tables); every
                   flow gets a copy of the object, sharing the tables */
                size_t ls = ibcc_law_size(&f->lawd);
                if (ls == 0) return IBCC_ERR_RANGE;
                f->law_mem = ibcc__fab_alloc(&f->al, ls);
                if (!f->law_mem) return IBCC_ERR_NOMEM;
                r = ibcc_law_init(&f->law_proto, &f->lawd, f->law_mem, ls);
                if (r != IBCC_OK) return r;
            }
            fl->law = f->law_proto;
            pd.law = &fl->law;
        } else if (fl->d.agent == IBCC_AGENT_FIXED) {
            pd.rate = fl->d.rate;
            pd.rmax = f->ch[f->host[f->node[fl->d.src].idx].chan].rate;
        }
        if ((r = ibcc_pacer_init(&fl->pacer, &pd)) != IBCC_OK) return r;
    }
    return IBCC_OK;
}

IBCC_API ibcc_result ibcc_fabric_create(ibcc_fabric **out,
                                        const ibcc_fabric_desc *desc)
{
    ibcc_fabric_desc d;
    ibcc_fabric_allocator al;
    ibcc_fabric *f;
    ibcc_loop_desc ld;
    ibcc_pairstate_desc pd;
    ibcc_result r;
    uint64_t cap;
    size_t sz;
    uint32_t i;
    if (!out) return IBCC_ERR_NULL;
    *out = NULL;
    if (!desc || !desc->nodes || !desc->links) return IBCC_ERR_NULL;
    if ((desc->route_count && !desc->routes)
        || (desc->flow_count && !desc->flows)) return IBCC_ERR_NULL;
    if ((desc->allocator.alloc == NULL) != (desc->allocator.free == NULL))
        return IBCC_ERR_NULL;
    if (desc->node_count == 0 || desc->link_count == 0
        || desc->node_count > (1u << 24) || desc->link_count > (1u << 24)
        || desc->flow_count > (1u << 24))
        return IBCC_ERR_CAPACITY;
    d = *desc;
    if ((r = ibcc_fabric_defaults(&d)) != IBCC_OK) return r;
    al = d.allocator;
    f = (ibcc_fabric *)ibcc__fab_alloc(&al, sizeof *f);
    if (!f) return IBCC_ERR_NOMEM;
    f->al = al;
    f->d = d;
    f->nn = d.node_count;
    f->nl = d.link_count;
    f->nch = 2u * d.link_count;
    f->nf = d.flow_count;
    f->free_pkt = IBCC__F_NONE;
    ibcc_rng_seed(&f->rng, d.seed);
    if ((r = ibcc_dest_init(&f->dest, &d.dest)) != IBCC_OK) goto fail;
    f->d.dest.ack_bytes = f->dest.ack_bytes;
    f->lawd = d.law;
    if ((r = ibcc_law_defaults(&f->lawd)) != IBCC_OK) goto fail;
    if ((r = ibcc__fab_topology(f)) != IBCC_OK) goto fail;
    ibcc__fab_credits(f);
    if ((r = ibcc__fab_switches(f)) != IBCC_OK) goto fail;
    if ((r = ibcc__fab_flows(f)) != IBCC_OK) goto fail;
    memset(&pd, 0, sizeof pd);
    pd.capacity = f->nf ? f->nf : 1u;
    if ((r = ibcc_pairstate_defaults(&pd)) != IBCC_OK) goto fail;
    sz = ibcc_pairstate_size(&pd);
    f->pairs_mem = ibcc__fab_alloc(&f->al, sz);
    if (!f->pairs_mem) { r = IBCC_ERR_NOMEM; goto fail; }
    if ((r = ibcc_pairstate_init(&f->pairs, &pd, f->pairs_mem, sz)) != IBCC_OK)
        goto fail;
    /* Pending events are bounded: per channel one TXEND, one ARRIVE per
       packet on the wire, one RXDONE per packet a capped host holds and
       one CREDIT per credit returning (each at most the receiver's
       capacity per lane); per host one timed wake-up; one flush; per
       flow a start, a stop or toggle and a generation. */
    cap = 64u + 2u * (uint64_t)f->nh + f->nsw + 3u * (uint64_t)f->nf;
    cap += (uint64_t)f->nch * (1u + 3u * ((uint64_t)d.buf_packets
                                         + d.ack_buf_packets));
    if (d.loop_capacity) cap = d.loop_capacity;
    if (cap > 0x7fffffffu) { r = IBCC_ERR_CAPACITY; goto fail; }
    ld.capacity = (uint32_t)cap;
    sz = ibcc_loop_size(&ld);
    f->loop_mem = sz ? ibcc__fab_alloc(&f->al, sz) : NULL;
    if (!f->loop_mem) { r = sz ? IBCC_ERR_NOMEM : IBCC_ERR_CAPACITY; goto fail; }
    if ((r = ibcc_loop_init(&f->loop, &ld, f->loop_mem, sz)) != IBCC_OK)
        goto fail;
    if (d.horizon) {
        f->nbins = (d.horizon + d.bin - 1u) / d.bin;
        if (f->nbins > (1u << 26)) { r = IBCC_ERR_CAPACITY; goto fail; }
        f->flow_bins = (uint64_t *)ibcc__fab_alloc(&f->al,
               ibcc__fab_mul((size_t)f->nbins * (f->nf ? f->nf : 1u), 8));
        f->ch_bins = (uint64_t *)ibcc__fab_alloc(&f->al,
               ibcc__fab_mul((size_t)f->nbins * f->nch, 8));
        if (!f->flow_bins || !f->ch_bins) { r = IBCC_ERR_NOMEM; goto fail; }
    }
    for (i = 0; i < f->nf; i++) {
        const ibcc_fabric_flow *x = &f->flow[i].d;
        ibcc__fab_at(f, x->start, IBCC__F_E_FLOW, ((uint64_t)i << 1) | 1u, NULL);
        if (x->stop) ibcc__fab_at(f, x->stop, IBCC__F_E_FLOW, (uint64_t)i << 1,
                                  NULL);
        if (x->traffic == IBCC_TRAFFIC_RATE)
            ibcc__fab_at(f, x->start, IBCC__F_E_GEN, i, NULL);
    }
    if (f->err != IBCC_OK) { r = f->err; goto fail; }
    *out = f;
    return IBCC_OK;
fail:
    ibcc__fab_release(f);
    return r;
}

/* ---- running and queries ----------------------------------------------- */
IBCC_API ibcc_result ibcc_fabric_run_until(ibcc_fabric *f, ibcc_time t)
{
    ibcc_result r;
    if (!f) return IBCC_ERR_NULL;
    if (f->err != IBCC_OK) return f->err;
    r = ibcc_loop_run_until(&f->loop, t, NULL);
    if (r != IBCC_OK) return r;
    return f->err;
}

IBCC_API ibcc_time ibcc_fabric_now(const ibcc_fabric *f)
{
    return f ? f->loop.now : 0;
}

IBCC_API ibcc_loop *ibcc_fabric_loop(ibcc_fabric *f)
{
    return f ? &f->loop : NULL;
}

IBCC_API ibcc_result ibcc_fabric_check(const ibcc_fabric *f)
{
    uint64_t located = 0, live = 0;
    uint32_t c, ln, i, k;
    if (!f) return IBCC_ERR_NULL;
    for (c = 0; c < f->nch; c++) {
        const ibcc__fchan *ch = &f->ch[c];
        const ibcc__fnode *to = &f->node[ch->to];
        for (ln = 0; ln < 2u; ln++) {
            uint64_t op = 0, ou = 0;
            if (to->kind == IBCC_FABRIC_SWITCH) {
                const ibcc__fbuf *b = &f->buf[(to->base + ch->to_port) * 2u + ln];
                uint64_t up = 0, uu = 0;
                for (k = 0; k < b->n; k++) {
                    up++;
                    uu += ibcc__fab_pkt(f, b->q[k])->units;
                }
                if (b->crossing != IBCC__F_NONE) {
                    const ibcc__fchan *oc = NULL;
                    uint32_t p2;
                    up++;
                    /* the crossing packet's units are those its output
                       channel records as being sent from this input */
                    for (p2 = 0; p2 < to->ports; p2++) {
                        uint32_t c2 = f->out_ch[to->base + p2];
                        if (c2 != IBCC__F_NONE && f->ch[c2].busy
                            && f->ch[c2].xmit_in == ch->to_port
                            && f->ch[c2].xmit_lane == ln) oc = &f->ch[c2];
                    }
                    if (!oc) return IBCC_ERR_MISMATCH;
                    uu += oc->xmit_units;
                }
                if (up != b->occ_p || uu != b->occ_u) return IBCC_ERR_MISMATCH;
                if (ibcc_arbiter_len(&f->sw[to->idx].arb[ln], ch->to_port)
                    != b->n) return IBCC_ERR_MISMATCH;
                /* the data lane's marker holds the same packets (the
                   crossing one included: hold = 1) in its unit */
                if (ln == 0) {
                    const ibcc_marker *mk = &f->sw[to->idx].mark;
                    if (ibcc_marker_packets(mk, ch->to_port) != up
                        || ibcc_marker_occupancy(mk, ch->to_port)
                           != (f->d.buf_credits ? uu : up))
                        return IBCC_ERR_MISMATCH;
                }
                op = up;
                ou = uu;
                located += b->n;
            } else {
                op = ch->rx_p[ln];
                ou = ch->rx_u[ln];
                located += op;
            }
            if ((uint64_t)ch->av_p[ln] + ch->wire_p[ln] + ch->ret_p[ln] + op
                    != ch->cap_p[ln]
                || (uint64_t)ch->av_u[ln] + ch->wire_u[ln] + ch->ret_u[ln] + ou
                    != ch->cap_u[ln])
                return IBCC_ERR_MISMATCH;
            located += ch->wire_p[ln];
        }
    }
    for (i = 0; i < f->nh; i++) {
        uint32_t n = 0, pi = f->host[i].ackq_head;
        while (pi != IBCC__F_NONE && n <= f->host[i].ackq_n) {
            n++;
            pi = ibcc__fab_pkt(f, pi)->next;
        }
        if (n != f->host[i].ackq_n) return IBCC_ERR_MISMATCH;
        located += n;
    }
    for (i = 0; i < f->nsw; i++)          /* no rejected marker event */
        if (ibcc_marker_errors(&f->sw[i].mark, NULL) != 0)
            return IBCC_ERR_MISMATCH;
    for (i = 0; i < f->nchunk; i++)
        for (k = 0; k < IBCC__F_CHUNK; k++)
            if (f->chunk[i][k].size != 0) live++;
    if (located != f->injected - f->delivered || live != located)
        return IBCC_ERR_MISMATCH;
    return IBCC_OK;
}

IBCC_API ibcc_result ibcc_fabric_counters_get(const ibcc_fabric *f,
                                              ibcc_fabric_counters *c)
{
    if (!f || !c) return IBCC_ERR_NULL;
    c->injected = f->injected;
    c->delivered = f->delivered;
    c->in_flight = f->injected - f->delivered;
    c->hops = f->hops;
    c->events = f->loop.executed;
    return IBCC_OK;
}

IBCC_API ibcc_result ibcc_fabric_flow_stats_get(const ibcc_fabric *f,
                                 uint32_t flow, ibcc_fabric_flow_stats *s)
{
    if (!f || !s) return IBCC_ERR_NULL;
    if (flow >= f->nf) return IBCC_ERR_RANGE;
    *s = f->flow[flow].st;
    return IBCC_OK;
}

IBCC_API ibcc_result ibcc_fabric_channel(const ibcc_fabric *f, uint32_t node,
                                         uint32_t port, uint32_t *channel)
{
    uint32_t c;
    if (!f || !channel) return IBCC_ERR_NULL;
    if (node >= f->nn || port >= f->node[node].ports) return IBCC_ERR_RANGE;
    c = f->out_ch[f->node[node].base + port];
    if (c == IBCC__F_NONE) return IBCC_ERR_RANGE;
    *channel = c;
    return IBCC_OK;
}

static ibcc_result ibcc__fab_sum(const ibcc_fabric *f, const uint64_t *bins,
                                 ibcc_time t0, ibcc_time t1, uint64_t *bytes)
{
    uint64_t b0, b1, b, s = 0;
    if (!bytes) return IBCC_ERR_NULL;
    if (!bins || t1 < t0) return IBCC_ERR_RANGE;
    b0 = t0 / f->d.bin;
    b1 = t1 / f->d.bin;
    if (b1 > f->nbins) return IBCC_ERR_RANGE;
    for (b = b0; b < b1; b++) s += bins[b];
    *bytes = s;
    return IBCC_OK;
}

IBCC_API ibcc_result ibcc_fabric_flow_bytes(const ibcc_fabric *f,
        uint32_t flow, ibcc_time t0, ibcc_time t1, uint64_t *bytes)
{
    if (!f) return IBCC_ERR_NULL;
    if (flow >= f->nf) return IBCC_ERR_RANGE;
    return ibcc__fab_sum(f, f->flow_bins ? f->flow_bins
                         + (uint64_t)flow * f->nbins : NULL, t0, t1, bytes);
}

IBCC_API ibcc_result ibcc_fabric_channel_bytes(const ibcc_fabric *f,
        uint32_t channel, ibcc_time t0, ibcc_time t1, uint64_t *bytes)
{
    if (!f) return IBCC_ERR_NULL;
    if (channel >= f->nch) return IBCC_ERR_RANGE;
    return ibcc__fab_sum(f, f->ch_bins ? f->ch_bins
                         + (uint64_t)channel * f->nbins : NULL, t0, t1, bytes);
}

IBCC_API ibcc_result ibcc_fabric_channel_totals(const ibcc_fabric *f,
        uint32_t channel, uint64_t *bytes, ibcc_time *busy)
{
    if (!f) return IBCC_ERR_NULL;
    if (channel >= f->nch) return IBCC_ERR_RANGE;
    if (bytes) *bytes = f->ch[channel].bytes;
    if (busy) *busy = f->ch[channel].busy_time;
    return IBCC_OK;
}

IBCC_API ibcc_result ibcc_fabric_rate(const ibcc_fabric *f, uint32_t what,
        uint32_t id, ibcc_time center, ibcc_time width, double *bytes_per_s)
{
    ibcc_time h, t0, t1;
    uint64_t b = 0;
    ibcc_result r;
    if (!f || !bytes_per_s) return IBCC_ERR_NULL;
    h = width / 2u;
    if (what > IBCC_FABRIC_CHANNEL || width < f->d.bin || center < h)
        return IBCC_ERR_RANGE;
    t0 = (center - h) / f->d.bin * f->d.bin;
    t1 = (center - h + width) / f->d.bin * f->d.bin;
    if (t1 <= t0) return IBCC_ERR_RANGE;
    r = what == IBCC_FABRIC_FLOW ? ibcc_fabric_flow_bytes(f, id, t0, t1, &b)
                                 : ibcc_fabric_channel_bytes(f, id, t0, t1, &b);
    if (r != IBCC_OK) return r;
    *bytes_per_s = (double)b * 1e12 / (double)(t1 - t0);
    return IBCC_OK;
}

IBCC_API double ibcc_jain(const double *x, uint32_t n)
{
    double s = 0.0, q = 0.0;
    uint32_t i;
    if (!x || n == 0) return 1.0;
    for (i = 0; i < n; i++) {
        s += x[i];
        q += x[i] * x[i];
    }
    if (q <= 0.0) return 1.0;
    return s * s / ((double)n * q);
}

/* ---- two-switch builder -------------------------------------------------- */
IBCC_API ibcc_result ibcc_twoswitch_build(ibcc_twoswitch *ts, uint32_t L,
                                          uint32_t R, ibcc_fabric_desc *d)
{
    uint32_t i, nh, h, n = 0;
    if (!ts || !d) return IBCC_ERR_NULL;
    if (L == 0 || R == 0 || L > IBCC_TWOSWITCH_MAX || R > IBCC_TWOSWITCH_MAX)
        return IBCC_ERR_RANGE;
    memset(ts, 0, sizeof *ts);
    ts->L = L;
    ts->R = R;
    ts->sw_a = 0;
    ts->sw_b = 1;
    ts->nodes[0].kind = IBCC_FABRIC_SWITCH;
    ts->nodes[0].ports = R + 2u;
    ts->nodes[1].kind = IBCC_FABRIC_SWITCH;
    ts->nodes[1].ports = L + 3u;
    nh = R + 1u + L + 2u;
    for (i = 0; i < nh; i++) {
        ts->nodes[2u + i].kind = IBCC_FABRIC_HOST;
        ts->nodes[2u + i].ports = 1u;
    }
    ts->node_count = 2u + nh;
    ts->av = 2u + R;
    ts->bc = 2u + R + 1u + L;
    ts->bv = ts->bc + 1u;
    /* links: remotes and AV on A, locals, BC, BV on B, then the ISL */
    for (i = 0; i <= R; i++) {
        ibcc_fabric_link *k = &ts->links[n++];
        k->a = 2u + i; k->a_port = 0; k->b = 0; k->b_port = i;
    }
    for (i = 0; i < L + 2u; i++) {
        ibcc_fabric_link *k = &ts->links[n++];
        k->a = 2u + R + 1u + i; k->a_port = 0; k->b = 1; k->b_port = i;
    }
    ts->links[n].a = 0; ts->links[n].a_port = R + 1u;
    ts->links[n].b = 1; ts->links[n].b_port = L + 2u;
    ts->isl_channel = 2u * n;                   /* a -> b direction */
    ts->root_channel = 2u * (R + 1u + L) + 1u;  /* B -> BC */
    ts->victim_channel = 2u * (R + 1u + L + 1u) + 1u;
    ts->link_count = ++n;
    /* routes: every switch to every host */
    n = 0;
    for (h = 2u; h < ts->node_count; h++) {
        ibcc_fabric_route *ra = &ts->routes[n++], *rb = &ts->routes[n++];
        ra->sw = 0; ra->dst = h;
        rb->sw = 1; rb->dst = h;
        if (h <= ts->av) {                      /* host on A */
            ra->port = h - 2u;
            rb->port = L + 2u;
        } else {                                /* host on B */
            ra->port = R + 1u;
            rb->port = h - (2u + R + 1u);
        }
    }
    ts->route_count = n;
    n = 0;
    for (i = 0; i < L; i++) {
        ibcc_fabric_flow *x = &ts->flows[n++];
        x->src = 2u + R + 1u + i; x->dst = ts->bc; x->cls = IBCC_TS_LOCAL;
    }
    for (i = 0; i < R; i++) {
        ibcc_fabric_flow *x = &ts->flows[n++];
        x->src = 2u + i; x->dst = ts->bc; x->cls = IBCC_TS_REMOTE;
    }
    ts->flows[n].src = ts->av;
    ts->flows[n].dst = ts->bv;
    ts->flows[n].cls = IBCC_TS_VICTIM;
    ts->flow_count = ++n;
    d->nodes = ts->nodes; d->node_count = ts->node_count;
    d->links = ts->links; d->link_count = ts->link_count;
    d->routes = ts->routes; d->route_count = ts->route_count;
    d->flows = ts->flows; d->flow_count = ts->flow_count;
    return IBCC_OK;
}
#endif /* IBCC_NO_FABRIC */
