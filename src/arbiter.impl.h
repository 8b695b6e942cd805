/* ---- L1 arbiter: implementation --------------------------------------- */

static ibcc_result ibcc__arb_check(const ibcc_arbiter_desc *in,
                                   ibcc_arbiter_desc *out)
{
    ibcc_arbiter_desc d;
    if (!in || !out) return IBCC_ERR_NULL;
    d = *in;
    if ((unsigned)d.policy > (unsigned)IBCC_ARB_RR) return IBCC_ERR_RANGE;
    if (d.ports == 0) d.ports = 8;
    if (d.ports > IBCC_ARBITER_MAX_PORTS) return IBCC_ERR_CAPACITY;
    if (d.capacity == 0) d.capacity = 4;
    if (d.capacity > IBCC_ARBITER_MAX_CAPACITY) return IBCC_ERR_CAPACITY;
    if (d.bypass_limit == 0) d.bypass_limit = 4;
    if (d.bypass_limit > 65535u) return IBCC_ERR_RANGE;
    *out = d;
    return IBCC_OK;
}

IBCC_API ibcc_result ibcc_arbiter_defaults(ibcc_arbiter_desc *d)
{
    ibcc_arbiter_desc e;
    ibcc_result r;
    if (!d) return IBCC_ERR_NULL;
    r = ibcc__arb_check(d, &e);
    if (r == IBCC_OK) *d = e;
    return r;
}

/* Layout (each part 8-byte aligned): inputs, entries, rr pointers,
   per (input, output) packet counts, per output bitmap of inputs. */
typedef struct ibcc__arb_layout {
    size_t q, rr, cnt, inq, total;
} ibcc__arb_layout;

static void ibcc__arb_layout_of(const ibcc_arbiter_desc *d,
                                ibcc__arb_layout *l)
{
    size_t p = d->ports, words = (p + 63u) / 64u;
    l->q = p * sizeof(ibcc__arb_input);
    l->rr = l->q + p * d->capacity * sizeof(ibcc__arb_entry);
    l->cnt = l->rr + ((p * sizeof(uint32_t) + 7u) & ~(size_t)7u);
    l->inq = l->cnt + ((p * p * sizeof(uint16_t) + 7u) & ~(size_t)7u);
    l->total = l->inq + p * words * sizeof(uint64_t);
}

IBCC_API size_t ibcc_arbiter_size(const ibcc_arbiter_desc *d)
{
    ibcc_arbiter_desc e;
    ibcc__arb_layout l;
    if (ibcc__arb_check(d, &e) != IBCC_OK) return 0;
    ibcc__arb_layout_of(&e, &l);
    return l.total;
}

IBCC_API ibcc_result ibcc_arbiter_init(ibcc_arbiter *a,
                                       const ibcc_arbiter_desc *d,
                                       void *mem, size_t len)
{
    ibcc_arbiter_desc e;
    ibcc_result r;
    ibcc__arb_layout l;
    unsigned char *base = (unsigned char *)mem;
    if (!a || !d || !mem) return IBCC_ERR_NULL;
    r = ibcc__arb_check(d, &e);
    if (r != IBCC_OK) return r;
    if (((uintptr_t)mem & 7u) != 0) return IBCC_ERR_ALIGN;
    ibcc__arb_layout_of(&e, &l);
    if (len < l.total) return IBCC_ERR_NOMEM;
    memset(a, 0, sizeof *a);
    memset(base, 0, l.total);
    a->d = e;
    a->words = (e.ports + 63u) / 64u;
    a->input = (ibcc__arb_input *)(void *)base;
    a->q = (ibcc__arb_entry *)(void *)(base + l.q);
    a->rr = (uint32_t *)(void *)(base + l.rr);
    a->cnt = (uint16_t *)(void *)(base + l.cnt);
    a->inq = (uint64_t *)(void *)(base + l.inq);
    a->out_ok[0] = a->out_ok[1] = a->out_ok[2] = a->out_ok[3] = ~(uint64_t)0;
    return IBCC_OK;
}

IBCC_API ibcc_result ibcc_arbiter_push(ibcc_arbiter *a, unsigned in,
                                       unsigned out, uint32_t size,
                                       uint64_t tag)
{
    ibcc__arb_input *ip;
    ibcc__arb_entry *e;
    if (!a) return IBCC_ERR_NULL;
    if (in >= a->d.ports || out >= a->d.ports) return IBCC_ERR_RANGE;
    ip = &a->input[in];
    if (ip->len >= a->d.capacity) return IBCC_ERR_FULL;
    e = &a->q[(size_t)in * a->d.capacity + ip->len];
    e->seq = a->seq++;
    e->tag = tag;
    e->size = size;
    e->out = out;
    if (ip->len == 0) ip->bypassed = 0;   /* a new head */
    ip->len++;
    if (a->cnt[(size_t)in * a->d.ports + out]++ == 0)
        a->inq[(size_t)out * a->words + in / 64u] |= (uint64_t)1u << (in % 64u);
    return IBCC_OK;
}

/* Can output `out` take a packet of `size` from `in` now? */
static int ibcc__arb_can(const ibcc_arbiter *a, unsigned out, unsigned in,
                         uint32_t size)
{
    if (a->d.can_send) return a->d.can_send(a->d.user, out, in, size) != 0;
    return (int)((a->out_ok[out / 64u] >> (out % 64u)) & 1u);
}

/* Removes entry k of input `in`, fills *g, marks the input busy. */
static void ibcc__arb_take(ibcc_arbiter *a, unsigned in, uint32_t k,
                           ibcc_arb_grant *g)
{
    ibcc__arb_input *ip = &a->input[in];
    ibcc__arb_entry *q = &a->q[(size_t)in * a->d.capacity];
    g->in = in;
    g->out = q[k].out;
    g->size = q[k].size;
    g->tag = q[k].tag;
    g->bypassed = k > 0;
    if (--a->cnt[(size_t)in * a->d.ports + g->out] == 0)
        a->inq[(size_t)g->out * a->words + in / 64u] &= ~((uint64_t)1u << (in % 64u));
    if (k + 1u < ip->len)
        memmove(&q[k], &q[k + 1u], (size_t)(ip->len - k - 1u) * sizeof *q);
    ip->len--;
    if (k == 0) ip->bypassed = 0;          /* the next packet is a new head */
    else { ip->bypassed++; a->bypasses++; } /* the head was passed */
    ip->busy = 1;
    a->grants++;
}

/* OLDEST / FIFO candidate of input `in`: the index of its oldest packet
   that may start now (on output `want`, or on any output when want is
   UINT32_MAX), or UINT32_MAX. Walks the buffer from the head:
   - a packet is a candidate only if it is the first of its buffer for its
     output (per input/output order) and its output can take it;
   - a packet that is first for its output and can go blocks every younger
     packet (it is not "waiting for an output that cannot take it");
   - going past the head needs the OLDEST policy and head bypasses below
     bypass_limit. */
static uint32_t ibcc__arb_candidate(const ibcc_arbiter *a, unsigned in,
                                    uint32_t want)
{
    const ibcc__arb_input *ip = &a->input[in];
    const ibcc__arb_entry *q = &a->q[(size_t)in * a->d.capacity];
    uint64_t seen[4] = {0, 0, 0, 0};      /* outputs of older packets */
    uint32_t k, len = ip->len;
    unsigned o = q[0].out;
    /* the head */
    if (o == want) return ibcc__arb_can(a, o, in, q[0].size) ? 0u : UINT32_MAX;
    if (ibcc__arb_can(a, o, in, q[0].size))
        return (want == UINT32_MAX) ? 0u : UINT32_MAX;
    /* going past it */
    if (len < 2u || a->d.policy != IBCC_ARB_OLDEST ||
        ip->bypassed >= a->d.bypass_limit)
        return UINT32_MAX;
    seen[o / 64u] = (uint64_t)1u << (o % 64u);
    for (k = 1; k < len; k++) {
        uint64_t bit;
        o = q[k].out;
        if (o == want)                    /* the first packet for `want` */
            return ibcc__arb_can(a, o, in, q[k].size) ? k : UINT32_MAX;
        bit = (uint64_t)1u << (o % 64u);
        if (seen[o / 64u] & bit) continue; /* behind an older one for o */
        if (ibcc__arb_can(a, o, in, q[k].size))
            return (want == UINT32_MAX) ? k : UINT32_MAX;
        seen[o / 64u] |= bit;
    }
    return UINT32_MAX;
}

static unsigned ibcc__arb_ctz64(uint64_t x)
{
#if defined(__GNUC__) || defined(__clang__)
    return (unsigned)__builtin_ctzll(x);
#else
    unsigned n = 0;
    while (!(x & 1u)) { x >>= 1; n++; }
    return n;
#endif
}

/* Considers input `in` for the oldest-first pick (want as in
   ibcc__arb_candidate); keeps the oldest candidate in *best_*. */
static void ibcc__arb_consider(const ibcc_arbiter *a, unsigned in,
                               uint32_t want, unsigned *best_in,
                               uint32_t *best_k, uint64_t *best_seq)
{
    const ibcc__arb_entry *q = &a->q[(size_t)in * a->d.capacity];
    uint32_t k;
    if (a->input[in].busy || a->input[in].len == 0) return;
    /* the head is the oldest packet of its buffer: an input whose head is
       not older than the best so far cannot win */
    if (q[0].seq >= *best_seq) return;
    k = ibcc__arb_candidate(a, in, want);
    if (k == UINT32_MAX || q[k].seq >= *best_seq) return;
    *best_seq = q[k].seq;
    *best_in = in;
    *best_k = k;
}

static int ibcc__arb_oldest(ibcc_arbiter *a, uint32_t want, ibcc_arb_grant *g)
{
    unsigned in, best_in = 0;
    uint32_t best_k = UINT32_MAX;
    uint64_t best_seq = UINT64_MAX;
    if (want == UINT32_MAX) {
        for (in = 0; in < a->d.ports; in++)
            ibcc__arb_consider(a, in, want, &best_in, &best_k, &best_seq);
    } else {
        /* only the inputs holding a packet for `want` */
        const uint64_t *bm = &a->inq[(size_t)want * a->words];
        uint32_t w;
        for (w = 0; w < a->words; w++) {
            uint64_t bits = bm[w];
            while (bits) {
                in = w * 64u + ibcc__arb_ctz64(bits);
                bits &= bits - 1u;
                ibcc__arb_consider(a, in, want, &best_in, &best_k, &best_seq);
            }
        }
    }
    if (best_k == UINT32_MAX) return 0;
    ibcc__arb_take(a, best_in, best_k, g);
    return 1;
}

/* RR for one output: first input at or after rr[out] whose head is bound
   for `out` and fits; the pointer moves past the winner. Only inputs
   holding a packet for `out` are visited: those at or after the pointer,
   then those before it. */
static int ibcc__arb_rr(ibcc_arbiter *a, unsigned out, ibcc_arb_grant *g)
{
    unsigned P = a->d.ports, start = a->rr[out], pass;
    const uint64_t *bm = &a->inq[(size_t)out * a->words];
    for (pass = 0; pass < 2u; pass++) {
        uint32_t w;
        for (w = 0; w < a->words; w++) {
            unsigned lo = w * 64u;
            uint64_t bits = bm[w];
            if (pass == 0) {                      /* inputs >= start */
                if (lo + 64u <= start) continue;
                if (start > lo) bits &= ~(uint64_t)0 << (start - lo);
            } else {                              /* inputs < start */
                if (lo >= start) break;
                if (start < lo + 64u)
                    bits &= ((uint64_t)1u << (start - lo)) - 1u;
            }
            while (bits) {
                unsigned in = lo + ibcc__arb_ctz64(bits);
                const ibcc__arb_entry *h = &a->q[(size_t)in * a->d.capacity];
                bits &= bits - 1u;
                if (a->input[in].busy || h->out != out ||
                    !ibcc__arb_can(a, out, in, h->size))
                    continue;
                a->rr[out] = (in + 1u < P) ? in + 1u : 0u;
                ibcc__arb_take(a, in, 0, g);
                return 1;
            }
        }
    }
    return 0;
}

IBCC_API int ibcc_arbiter_pick(ibcc_arbiter *a, unsigned out,
                               ibcc_arb_grant *g)
{
    if (!a || !g || out >= a->d.ports) return 0;
    if (a->d.policy == IBCC_ARB_RR) return ibcc__arb_rr(a, out, g);
    return ibcc__arb_oldest(a, out, g);
}

IBCC_API int ibcc_arbiter_pick_any(ibcc_arbiter *a, ibcc_arb_grant *g)
{
    uint64_t heads[4] = {0, 0, 0, 0};
    unsigned in, j, P;
    if (!a || !g) return 0;
    if (a->d.policy != IBCC_ARB_RR) return ibcc__arb_oldest(a, UINT32_MAX, g);
    /* RR: outputs that some free input's head is bound for, tried in
       round-robin order from rr_out */
    P = a->d.ports;
    for (in = 0; in < P; in++) {
        unsigned o;
        if (a->input[in].busy || a->input[in].len == 0) continue;
        o = a->q[(size_t)in * a->d.capacity].out;
        heads[o / 64u] |= (uint64_t)1u << (o % 64u);
    }
    for (j = 0; j < P; j++) {
        unsigned o = a->rr_out + j;
        if (o >= P) o -= P;
        if (!((heads[o / 64u] >> (o % 64u)) & 1u)) continue;
        if (ibcc__arb_rr(a, o, g)) {
            a->rr_out = (o + 1u < P) ? o + 1u : 0u;
            return 1;
        }
    }
    return 0;
}

IBCC_API ibcc_result ibcc_arbiter_set_input_busy(ibcc_arbiter *a,
                                                 unsigned in, int busy)
{
    if (!a) return IBCC_ERR_NULL;
    if (in >= a->d.ports) return IBCC_ERR_RANGE;
    a->input[in].busy = busy ? 1u : 0u;
    return IBCC_OK;
}

IBCC_API ibcc_result ibcc_arbiter_set_output(ibcc_arbiter *a, unsigned out,
                                             int can_take)
{
    uint64_t bit;
    if (!a) return IBCC_ERR_NULL;
    if (out >= a->d.ports) return IBCC_ERR_RANGE;
    bit = (uint64_t)1u << (out % 64u);
    if (can_take) a->out_ok[out / 64u] |= bit;
    else a->out_ok[out / 64u] &= ~bit;
    return IBCC_OK;
}

IBCC_API uint32_t ibcc_arbiter_len(const ibcc_arbiter *a, unsigned in)
{
    return (a && in < a->d.ports) ? a->input[in].len : 0u;
}
IBCC_API uint32_t ibcc_arbiter_head_bypassed(const ibcc_arbiter *a,
                                             unsigned in)
{
    return (a && in < a->d.ports) ? a->input[in].bypassed : 0u;
}
IBCC_API int ibcc_arbiter_input_busy(const ibcc_arbiter *a, unsigned in)
{
    return (a && in < a->d.ports) ? (int)a->input[in].busy : 0;
}
IBCC_API ibcc_result ibcc_arbiter_peek(const ibcc_arbiter *a, unsigned in,
                                       uint32_t k, unsigned *out,
                                       uint32_t *size, uint64_t *tag)
{
    const ibcc__arb_entry *e;
    if (!a) return IBCC_ERR_NULL;
    if (in >= a->d.ports || k >= a->input[in].len) return IBCC_ERR_RANGE;
    e = &a->q[(size_t)in * a->d.capacity + k];
    if (out) *out = e->out;
    if (size) *size = e->size;
    if (tag) *tag = e->tag;
    return IBCC_OK;
}
IBCC_API const char *ibcc_arb_policy_name(ibcc_arb_policy p)
{
    switch (p) {
    case IBCC_ARB_OLDEST: return "oldest";
    case IBCC_ARB_FIFO: return "fifo";
    case IBCC_ARB_RR: return "rr";
    }
    return "?";
}
