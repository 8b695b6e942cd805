/* ---- L1 marker: implementation ---------------------------------------- */

static size_t ibcc__marker_round8(size_t x) { return (x + 7u) & ~(size_t)7u; }

/* Validates *in and writes the effective desc (defaults filled) to *out.
   *in is not modified. */
static ibcc_result ibcc__marker_check(const ibcc_marker_desc *in,
                                      ibcc_marker_desc *out)
{
    ibcc_marker_desc d;
    unsigned w;
    if (!in || !out) return IBCC_ERR_NULL;
    d = *in;
    if ((unsigned)d.engine > (unsigned)IBCC_MARKER_MVPM) return IBCC_ERR_RANGE;
    if ((unsigned)d.unit > (unsigned)IBCC_UNIT_CREDITS) return IBCC_ERR_RANGE;
    if ((unsigned)d.org > (unsigned)IBCC_ORG_CIOQ) return IBCC_ERR_RANGE;
    if ((unsigned)d.classify > (unsigned)IBCC_CLASSIFY_BUSY) return IBCC_ERR_RANGE;
    if (d.ports == 0) d.ports = 8;
    if (d.ports > IBCC_MARKER_MAX_PORTS) return IBCC_ERR_CAPACITY;
    if (d.in_capacity == 0)
        d.in_capacity = (d.unit == IBCC_UNIT_CREDITS) ? 128u : 4u;
    if (d.in_capacity > IBCC_MARKER_MAX_CAPACITY) return IBCC_ERR_CAPACITY;
    if (d.out_capacity == 0) d.out_capacity = d.in_capacity;
    if (d.out_capacity > IBCC_MARKER_MAX_CAPACITY) return IBCC_ERR_CAPACITY;
    if (d.trigger == 0) d.trigger = d.in_capacity;
    if (d.trigger > d.in_capacity) return IBCC_ERR_RANGE;
    if (d.t_out == 0) d.t_out = 8;
    if (d.t_out > 0x80000000u) return IBCC_ERR_RANGE;
    if (d.mvpm_in_threshold == 0) d.mvpm_in_threshold = d.in_capacity * 2u / 3u;
    else if (d.mvpm_in_threshold > d.in_capacity) return IBCC_ERR_RANGE;
    if (d.mvpm_out_threshold == 0) d.mvpm_out_threshold = d.out_capacity / 3u;
    else if (d.mvpm_out_threshold > d.out_capacity) return IBCC_ERR_RANGE;
    if (d.iba_threshold > 15u) return IBCC_ERR_RANGE;
    if (d.iba_packet_size > 255u) return IBCC_ERR_RANGE;
    if (d.iba_marking_rate > 65535u) return IBCC_ERR_RANGE;
    if (d.hold > 1u) return IBCC_ERR_RANGE;
    for (w = 0; w < 8u; w++) {
        /* bits at or above `ports` must be clear */
        uint32_t lo = w * 32u, allowed;
        if (lo >= d.ports) allowed = 0;
        else if (d.ports - lo >= 32u) allowed = 0xffffffffu;
        else allowed = ((uint32_t)1u << (d.ports - lo)) - 1u;
        if (d.victim_mask[w] & ~allowed) return IBCC_ERR_RANGE;
    }
    *out = d;
    return IBCC_OK;
}

IBCC_API ibcc_result ibcc_marker_defaults(ibcc_marker_desc *d)
{
    ibcc_marker_desc e;
    ibcc_result r;
    if (!d) return IBCC_ERR_NULL;
    r = ibcc__marker_check(d, &e);
    if (r == IBCC_OK) *d = e;
    return r;
}

/* Byte offsets of the arrays in the caller's memory. */
typedef struct ibcc__marker_layout {
    size_t port, present, n, mk, total;
} ibcc__marker_layout;

static void ibcc__marker_layout_of(const ibcc_marker_desc *d,
                                   ibcc__marker_layout *l)
{
    size_t p = d->ports, words = (p + 63u) / 64u;
    l->port = 0;
    l->present = ibcc__marker_round8(l->port + p * sizeof(ibcc__mport));
    l->n = ibcc__marker_round8(l->present + p * words * sizeof(uint64_t));
    l->mk = ibcc__marker_round8(l->n + p * p * sizeof(uint16_t));
    l->total = l->mk;
    if (d->engine == IBCC_MARKER_NAIVE)
        l->total = ibcc__marker_round8(l->mk + p * p * sizeof(uint16_t));
}

IBCC_API size_t ibcc_marker_size(const ibcc_marker_desc *d)
{
    ibcc_marker_desc e;
    ibcc__marker_layout l;
    if (ibcc__marker_check(d, &e) != IBCC_OK) return 0;
    ibcc__marker_layout_of(&e, &l);
    return l.total ? l.total : 8u;
}

/* IBA threshold level for weight w (unit):
       level = out_capacity * (16 - w) / 16   (w = 1..15, rounded down)
   w = 0 never marks (UINT32_MAX: level(o) can never exceed it). */
static uint32_t ibcc__iba_level(uint32_t out_capacity, unsigned w)
{
    if (w == 0) return UINT32_MAX;
    return (uint32_t)(((uint64_t)out_capacity * (16u - w)) / 16u);
}

static void ibcc__marker_set_port_iba(ibcc_marker *m, unsigned p, unsigned w,
                                      unsigned psize, unsigned rate)
{
    ibcc__mport *q = &m->port[p];
    q->iba_weight = (uint8_t)w;
    q->iba_level = ibcc__iba_level(m->d.out_capacity, w);
    q->iba_min_bytes = (uint32_t)psize * IBCC_CREDIT_BYTES;
    q->iba_rate = (uint16_t)rate;
    q->iba_skip = 0;
}

IBCC_API ibcc_result ibcc_marker_init(ibcc_marker *m,
                                      const ibcc_marker_desc *d,
                                      void *mem, size_t len)
{
    ibcc_marker_desc e;
    ibcc__marker_layout l;
    ibcc_result r;
    unsigned p;
    unsigned char *base = (unsigned char *)mem;
    if (!m || !d || !mem) return IBCC_ERR_NULL;
    r = ibcc__marker_check(d, &e);
    if (r != IBCC_OK) return r;
    if (((uintptr_t)mem & 7u) != 0) return IBCC_ERR_ALIGN;
    ibcc__marker_layout_of(&e, &l);
    if (len < l.total) return IBCC_ERR_NOMEM;
    memset(m, 0, sizeof *m);
    m->d = e;
    m->words = (e.ports + 63u) / 64u;
    m->port = (ibcc__mport *)(void *)(base + l.port);
    m->present = (uint64_t *)(void *)(base + l.present);
    m->n = (uint16_t *)(void *)(base + l.n);
    m->mk = (e.engine == IBCC_MARKER_NAIVE) ? (uint16_t *)(void *)(base + l.mk)
                                            : NULL;
    for (p = 0; p < e.ports; p++) {
        if (e.victim_mask[p / 32u] & ((uint32_t)1u << (p % 32u)))
            m->victim[p / 64u] |= (uint64_t)1u << (p % 64u);
    }
    memset(base, 0, l.total);
    for (p = 0; p < e.ports; p++)
        ibcc__marker_set_port_iba(m, p, e.iba_threshold, e.iba_packet_size,
                                  e.iba_marking_rate);
    m->stats.last_error = IBCC_OK;
    return IBCC_OK;
}

IBCC_API void ibcc_marker_clear(ibcc_marker *m)
{
    unsigned p, P;
    if (!m || !m->port || !m->present || !m->n) return;  /* never initialised */
    P = m->d.ports;
    for (p = 0; p < P; p++) {
        ibcc__mport *q = &m->port[p];
        q->occ = q->pk = q->cnt1 = q->cnt2 = q->qunits = q->obuf = 0;
        q->held = q->held_pk = 0;
        q->iba_skip = 0;
    }
    memset(m->present, 0, (size_t)P * m->words * sizeof(uint64_t));
    memset(m->n, 0, (size_t)P * P * sizeof(uint16_t));
    if (m->mk) memset(m->mk, 0, (size_t)P * P * sizeof(uint16_t));
    memset(&m->stats, 0, sizeof m->stats);
    m->stats.last_error = IBCC_OK;
}

static void ibcc__marker_err(ibcc_marker *m, ibcc_result r)
{
    m->stats.errors++;
    m->stats.last_error = r;
}

/* Lowest set bit index of a non-zero word. */
static unsigned ibcc__marker_ctz64(uint64_t x)
{
#if defined(__GNUC__) || defined(__clang__)
    return (unsigned)__builtin_ctzll(x);
#else
    unsigned n = 0;
    while (!(x & 1u)) { x >>= 1; n++; }
    return n;
#endif
}

/* Input buffer `in` triggered. Classified outputs: those with a packet in
   the buffer (present bitmap), and with BUSY only those also in the busy
   bitmap. No packet is visited: the bitmap words are (ports + 63) / 64.
     NAIVE:        mk[in][o] = n[in][o]   (mark the next n departures in->o)
     INPUT, I/O:   cnt2[o] = cnt1[o]      (copy, never add) */
static void ibcc__marker_trigger(ibcc_marker *m, unsigned in)
{
    unsigned w, P = m->d.ports;
    const uint64_t *pres = m->present + (size_t)in * m->words;
    int busy_only = (m->d.classify == IBCC_CLASSIFY_BUSY);
    m->stats.in_triggers++;
    for (w = 0; w < m->words; w++) {
        uint64_t bits = pres[w];
        if (busy_only) bits &= m->busy[w];
        while (bits) {
            unsigned o = w * 64u + ibcc__marker_ctz64(bits);
            bits &= bits - 1u;
            if (m->mk) {
                m->mk[(size_t)in * P + o] = m->n[(size_t)in * P + o];
            } else {
                m->port[o].cnt2 = m->port[o].cnt1;
            }
            m->stats.out_triggers++;
        }
    }
}

IBCC_API unsigned ibcc_marker_arrive(ibcc_marker *m, unsigned in,
                                     unsigned out, uint32_t size)
{
    ibcc__mport *ip, *op;
    uint32_t u, found;
    size_t idx;
    unsigned bits = 0;
    if (!m) return 0;
    if (in >= m->d.ports || out >= m->d.ports) {
        ibcc__marker_err(m, IBCC_ERR_RANGE);
        return 0;
    }
    u = ibcc_marker_units(m, size);
    ip = &m->port[in];
    if (u > m->d.in_capacity - ip->occ) {
        ibcc__marker_err(m, IBCC_ERR_FULL);
        return 0;
    }
    found = ip->occ;
    ip->occ += u;
    ip->pk++;
    idx = (size_t)in * m->d.ports + out;
    if (m->n[idx]++ == 0)
        m->present[(size_t)in * m->words + out / 64u] |= (uint64_t)1u << (out % 64u);
    op = &m->port[out];
    op->cnt1++;
    op->qunits += u;
    m->stats.arrivals++;
    switch (m->d.engine) {
    case IBCC_MARKER_NAIVE:
    case IBCC_MARKER_INPUT:
        if (ip->occ >= m->d.trigger) ibcc__marker_trigger(m, in);
        break;
    case IBCC_MARKER_INPUT_OUTPUT:
        if (ip->occ >= m->d.trigger) ibcc__marker_trigger(m, in);
        /* output trigger [S02 §IV-C]: cnt1[o] > T_out -> cnt2[o] = cnt1[o] */
        if (op->cnt1 > m->d.t_out) {
            op->cnt2 = op->cnt1;
            m->stats.out_triggers++;
        }
        break;
    case IBCC_MARKER_MVPM:
        /* [F §4.1]: MB when the occupancy the packet finds > threshold */
        if (found > m->d.mvpm_in_threshold) {
            bits = IBCC_MB;
            m->stats.mb++;
        }
        break;
    case IBCC_MARKER_NONE:
    case IBCC_MARKER_IBA:
        break;
    }
    return bits;
}

IBCC_API unsigned ibcc_marker_depart(ibcc_marker *m, unsigned in,
                                     unsigned out, uint32_t size,
                                     unsigned hdr, int out_has_credit)
{
    ibcc__mport *ip, *op;
    uint32_t u, level;
    size_t idx;
    unsigned bits = 0;
    if (!m) return 0;
    if (in >= m->d.ports || out >= m->d.ports) {
        ibcc__marker_err(m, IBCC_ERR_RANGE);
        return 0;
    }
    u = ibcc_marker_units(m, size);
    ip = &m->port[in];
    op = &m->port[out];
    idx = (size_t)in * m->d.ports + out;
    if (m->n[idx] == 0 || ip->occ - ip->held < u || op->qunits < u) {
        ibcc__marker_err(m, IBCC_ERR_MISMATCH);
        return 0;
    }
    level = (m->d.org == IBCC_ORG_CIOQ) ? op->obuf : op->qunits;
    if (m->d.hold) {            /* room kept until ibcc_marker_release */
        ip->held += u;
        ip->held_pk++;
    } else {
        ip->occ -= u;
        ip->pk--;
    }
    if (--m->n[idx] == 0)
        m->present[(size_t)in * m->words + out / 64u] &= ~((uint64_t)1u << (out % 64u));
    op->cnt1--;
    op->qunits -= u;
    if (m->d.org == IBCC_ORG_CIOQ) op->obuf += u;
    m->stats.departures++;
    switch (m->d.engine) {
    case IBCC_MARKER_NAIVE:
        if (m->mk[idx] > 0) {
            m->mk[idx]--;
            bits = IBCC_FECN;
        }
        break;
    case IBCC_MARKER_INPUT:
    case IBCC_MARKER_INPUT_OUTPUT:
        /* [S02 §IV-B]: mark on transmission while cnt2[o] > 0 */
        if (op->cnt2 > 0) {
            op->cnt2--;
            bits = IBCC_FECN;
        }
        break;
    case IBCC_MARKER_IBA: {
        /* congestion state: level > threshold level, and root (credits)
           or Victim_Mask; eligible: size >= 64 * Packet_Size */
        int victim_ok = (int)((m->victim[out / 64u] >> (out % 64u)) & 1u);
        if (level > op->iba_level && (out_has_credit || victim_ok) &&
            size >= op->iba_min_bytes) {
            int mark;
            if (m->d.iba_rng) {
                /* P(mark) = 1 / (Marking_Rate + 1): mean gap Marking_Rate */
                mark = ibcc_rng_below(m->d.iba_rng, (uint64_t)op->iba_rate + 1u) == 0;
            } else if (op->iba_skip == 0) {
                mark = 1;
                op->iba_skip = op->iba_rate;   /* skip the next rate */
            } else {
                mark = 0;
                op->iba_skip--;
            }
            if (mark) bits = IBCC_FECN;
        }
        break;
    }
    case IBCC_MARKER_MVPM:
        /* [F §4.1]: VB only for MB packets through a saturated output */
        if ((hdr & IBCC_MB) && level > m->d.mvpm_out_threshold) {
            bits = IBCC_VB;
            m->stats.vb++;
        }
        break;
    case IBCC_MARKER_NONE:
        break;
    }
    if (bits & IBCC_FECN) m->stats.fecn++;
    return bits;
}

IBCC_API void ibcc_marker_leave(ibcc_marker *m, unsigned out, uint32_t size)
{
    uint32_t u;
    if (!m) return;
    if (m->d.org != IBCC_ORG_CIOQ) {
        ibcc__marker_err(m, IBCC_ERR_STATE);
        return;
    }
    if (out >= m->d.ports) {
        ibcc__marker_err(m, IBCC_ERR_RANGE);
        return;
    }
    u = ibcc_marker_units(m, size);
    if (m->port[out].obuf < u) {
        ibcc__marker_err(m, IBCC_ERR_MISMATCH);
        return;
    }
    m->port[out].obuf -= u;
}

IBCC_API void ibcc_marker_release(ibcc_marker *m, unsigned in, uint32_t size)
{
    ibcc__mport *ip;
    uint32_t u;
    if (!m) return;
    if (!m->d.hold) {
        ibcc__marker_err(m, IBCC_ERR_STATE);
        return;
    }
    if (in >= m->d.ports) {
        ibcc__marker_err(m, IBCC_ERR_RANGE);
        return;
    }
    u = ibcc_marker_units(m, size);
    ip = &m->port[in];
    if (ip->held_pk == 0 || ip->held < u) {
        ibcc__marker_err(m, IBCC_ERR_MISMATCH);
        return;
    }
    ip->held -= u;
    ip->held_pk--;
    ip->occ -= u;
    ip->pk--;
}

IBCC_API ibcc_result ibcc_marker_set_iba_port(ibcc_marker *m, unsigned port,
                                              unsigned threshold,
                                              unsigned packet_size,
                                              unsigned marking_rate)
{
    if (!m) return IBCC_ERR_NULL;
    if (m->d.engine != IBCC_MARKER_IBA) return IBCC_ERR_STATE;
    if (port >= m->d.ports || threshold > 15u || packet_size > 255u ||
        marking_rate > 65535u)
        return IBCC_ERR_RANGE;
    ibcc__marker_set_port_iba(m, port, threshold, packet_size, marking_rate);
    return IBCC_OK;
}

IBCC_API ibcc_result ibcc_marker_set_victim(ibcc_marker *m, unsigned port,
                                            int on)
{
    uint64_t bit;
    if (!m) return IBCC_ERR_NULL;
    if (m->d.engine != IBCC_MARKER_IBA) return IBCC_ERR_STATE;
    if (port >= m->d.ports) return IBCC_ERR_RANGE;
    bit = (uint64_t)1u << (port % 64u);
    if (on) m->victim[port / 64u] |= bit;
    else m->victim[port / 64u] &= ~bit;
    return IBCC_OK;
}

IBCC_API uint32_t ibcc_marker_occupancy(const ibcc_marker *m, unsigned in)
{
    return (m && in < m->d.ports) ? m->port[in].occ : 0u;
}
IBCC_API uint32_t ibcc_marker_packets(const ibcc_marker *m, unsigned in)
{
    return (m && in < m->d.ports) ? m->port[in].pk : 0u;
}
IBCC_API uint32_t ibcc_marker_waiting(const ibcc_marker *m, unsigned in,
                                      unsigned out)
{
    if (!m || in >= m->d.ports || out >= m->d.ports) return 0;
    return m->n[(size_t)in * m->d.ports + out];
}
IBCC_API uint32_t ibcc_marker_cnt1(const ibcc_marker *m, unsigned out)
{
    return (m && out < m->d.ports) ? m->port[out].cnt1 : 0u;
}
IBCC_API uint32_t ibcc_marker_cnt2(const ibcc_marker *m, unsigned out)
{
    return (m && out < m->d.ports) ? m->port[out].cnt2 : 0u;
}
IBCC_API uint32_t ibcc_marker_naive_pending(const ibcc_marker *m,
                                            unsigned in, unsigned out)
{
    if (!m || !m->mk || in >= m->d.ports || out >= m->d.ports) return 0;
    return m->mk[(size_t)in * m->d.ports + out];
}
IBCC_API uint32_t ibcc_marker_level(const ibcc_marker *m, unsigned out)
{
    if (!m || out >= m->d.ports) return 0;
    return (m->d.org == IBCC_ORG_CIOQ) ? m->port[out].obuf : m->port[out].qunits;
}
IBCC_API int ibcc_marker_iba_congested(const ibcc_marker *m, unsigned out,
                                       int out_has_credit)
{
    int victim_ok;
    if (!m || m->d.engine != IBCC_MARKER_IBA || out >= m->d.ports) return 0;
    victim_ok = (int)((m->victim[out / 64u] >> (out % 64u)) & 1u);
    return ibcc_marker_level(m, out) > m->port[out].iba_level &&
           (out_has_credit || victim_ok);
}
IBCC_API uint32_t ibcc_marker_iba_level(const ibcc_marker *m, unsigned out)
{
    if (!m || out >= m->d.ports) return 0;
    return m->port[out].iba_level;
}
IBCC_API uint64_t ibcc_marker_errors(const ibcc_marker *m, ibcc_result *last)
{
    if (!m) { if (last) *last = IBCC_ERR_NULL; return 0; }
    if (last) *last = m->stats.last_error;
    return m->stats.errors;
}
IBCC_API ibcc_marker_stats ibcc_marker_get_stats(const ibcc_marker *m)
{
    ibcc_marker_stats s;
    if (m) return m->stats;
    memset(&s, 0, sizeof s);
    return s;
}
IBCC_API const char *ibcc_marker_engine_name(ibcc_marker_engine e)
{
    switch (e) {
    case IBCC_MARKER_NONE: return "none";
    case IBCC_MARKER_NAIVE: return "naive";
    case IBCC_MARKER_INPUT: return "input";
    case IBCC_MARKER_INPUT_OUTPUT: return "input-output";
    case IBCC_MARKER_IBA: return "iba";
    case IBCC_MARKER_MVPM: return "mvpm";
    }
    return "?";
}
