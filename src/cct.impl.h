/* ---- L1 cct: implementation ------------------------------------------- */

/* a * b saturating at IBCC_TIME_MAX. */
static ibcc_time ibcc__cct_satmul(ibcc_time a, uint64_t b)
{
    if (b != 0 && a > IBCC_TIME_MAX / b) return IBCC_TIME_MAX;
    return a * b;
}

static ibcc_time ibcc__cct_satadd(ibcc_time a, ibcc_time b)
{
    return (a > IBCC_TIME_MAX - b) ? IBCC_TIME_MAX : a + b;
}

/* a*b/d rounded half up (d > 0), 128-bit intermediate. */
static ibcc_result ibcc__cct_muldiv_round(uint64_t a, uint64_t b, uint64_t d,
                                          uint64_t *out)
{
    return ibcc__muldiv(a, b, d, d / 2u, out);
}

IBCC_API ibcc_time ibcc_cct_entry_delay(uint16_t entry, ibcc_time max_pkt_time)
{
    /* delay = (max_pkt_time >> shift) * multiplier */
    return ibcc__cct_satmul(max_pkt_time >> IBCC_CCT_SHIFT(entry),
                            IBCC_CCT_MULT(entry));
}

IBCC_API ibcc_result ibcc_cct_entry_from_delay(ibcc_time delay,
                                               ibcc_time max_pkt_time,
                                               uint16_t *out)
{
    ibcc_time maxd, best_err = 0;
    unsigned s, best_s = 0;
    uint64_t best_m = 0;
    int found = 0;
    if (!out) return IBCC_ERR_NULL;
    if (max_pkt_time == 0) return IBCC_ERR_RANGE;
    /* largest delay: 16383 units of max_pkt_time; accept up to half a
       unit above it (it rounds down to the largest entry) */
    maxd = ibcc__cct_satmul(max_pkt_time, IBCC_CCT_MULT_MAX);
    if (delay > maxd && delay - maxd > max_pkt_time / 2) return IBCC_ERR_RANGE;
    if (delay == 0) { *out = 0; return IBCC_OK; }
    for (s = 0; s < 4; s++) {
        ibcc_time u = max_pkt_time >> s, val, err;
        uint64_t m, rem;
        if (u == 0) break;
        /* m = floor(delay / u + 1/2), capped at 16383 */
        m = delay / u;
        rem = delay % u;
        if (rem >= u - rem) m++;
        if (m > IBCC_CCT_MULT_MAX) m = IBCC_CCT_MULT_MAX;
        val = ibcc__cct_satmul(u, m);
        err = val > delay ? val - delay : delay - val;
        if (!found || err < best_err) {
            found = 1; best_err = err; best_s = s; best_m = m;
        }
    }
    *out = IBCC_CCT_ENTRY(best_s, best_m);
    return IBCC_OK;
}

IBCC_API ibcc_result ibcc_cct_fill_delays(uint16_t *out, const ibcc_time *delays,
                                          uint32_t n, ibcc_time max_pkt_time)
{
    uint32_t i;
    if (!out || !delays) return IBCC_ERR_NULL;
    if (n == 0 || n > IBCC_CCT_MAX_ENTRIES) return IBCC_ERR_CAPACITY;
    for (i = 0; i < n; i++) {
        ibcc_result r = ibcc_cct_entry_from_delay(delays[i], max_pkt_time, &out[i]);
        if (r != IBCC_OK) return r;
    }
    return IBCC_OK;
}

IBCC_API ibcc_result ibcc_cct_fill_us(uint16_t *out, const double *us,
                                      uint32_t n, ibcc_time max_pkt_time)
{
    uint32_t i;
    if (!out || !us) return IBCC_ERR_NULL;
    if (n == 0 || n > IBCC_CCT_MAX_ENTRIES) return IBCC_ERR_CAPACITY;
    for (i = 0; i < n; i++) {
        /* ps = floor(us * 10^6 + 1/2) */
        double ps = floor(us[i] * 1e6 + 0.5);
        ibcc_result r;
        if (!(ps >= 0.0 && ps < 1.8e19)) return IBCC_ERR_RANGE; /* NaN too */
        r = ibcc_cct_entry_from_delay((ibcc_time)ps, max_pkt_time, &out[i]);
        if (r != IBCC_OK) return r;
    }
    return IBCC_OK;
}

IBCC_API ibcc_result ibcc_cct_fill_quadratic(uint16_t *out, uint32_t n,
                                             ibcc_time max_pkt_time,
                                             ibcc_time coef, uint32_t root)
{
    uint32_t i;
    if (!out) return IBCC_ERR_NULL;
    if (n == 0 || n > IBCC_CCT_MAX_ENTRIES) return IBCC_ERR_CAPACITY;
    if (coef == 0 || root == 0 || max_pkt_time == 0) return IBCC_ERR_RANGE;
    for (i = 0; i < n; i++) {
        /* d_i = i^2 * coef / root^2, rounded half up to whole ps */
        uint64_t d;
        ibcc_result r = ibcc__cct_muldiv_round((uint64_t)i * i, coef,
                                               (uint64_t)root * root, &d);
        if (r != IBCC_OK) return IBCC_ERR_RANGE;
        r = ibcc_cct_entry_from_delay(d, max_pkt_time, &out[i]);
        if (r != IBCC_OK) return r;
    }
    return IBCC_OK;
}

IBCC_API ibcc_result ibcc_cct_fill_linear(uint16_t *out, uint32_t n)
{
    uint32_t i;
    if (!out) return IBCC_ERR_NULL;
    if (n == 0 || n > IBCC_CCT_MAX_ENTRIES) return IBCC_ERR_CAPACITY;
    for (i = 0; i < n; i++) out[i] = IBCC_CCT_ENTRY(0, i);
    return IBCC_OK;
}

IBCC_API ibcc_result ibcc_cct_fill_fdec(uint16_t *out, uint32_t n,
                                        ibcc_time max_pkt_time,
                                        ibcc_cct_fdec_fn fdec, void *user)
{
    uint32_t i;
    double r = 1.0;
    if (!out || !fdec) return IBCC_ERR_NULL;
    if (n == 0 || n > IBCC_CCT_MAX_ENTRIES) return IBCC_ERR_CAPACITY;
    if (max_pkt_time == 0) return IBCC_ERR_RANGE;
    out[0] = 0; /* r_0 = Rmax: no delay */
    for (i = 1; i < n; i++) {
        double d;
        ibcc_result res;
        r = fdec(user, r);
        if (!(r > 0.0 && r <= 1.0)) return IBCC_ERR_RANGE; /* NaN too */
        /* d_i = (1 / r_i - 1) * max_pkt_time, rounded to nearest ps */
        d = (1.0 / r - 1.0) * (double)max_pkt_time;
        if (!(d < 1.8e19)) return IBCC_ERR_RANGE;
        res = ibcc_cct_entry_from_delay((ibcc_time)floor(d + 0.5),
                                        max_pkt_time, &out[i]);
        if (res != IBCC_OK) return res;
    }
    return IBCC_OK;
}

static double ibcc__cct_law_fdec(void *user, double x)
{
    return ibcc_law_fdec((const ibcc_law *)user, x);
}

IBCC_API ibcc_result ibcc_cct_fill_law(uint16_t *out, uint32_t n,
                                       ibcc_time max_pkt_time,
                                       const ibcc_law *law)
{
    if (!law) return IBCC_ERR_NULL;
    return ibcc_cct_fill_fdec(out, n, max_pkt_time, ibcc__cct_law_fdec,
                              (void *)(uintptr_t)law);
}

/* ---- agent ------------------------------------------------------------ */

IBCC_API ibcc_result ibcc_cct_defaults(ibcc_cct_desc *d)
{
    unsigned s;
    uint32_t len;
    if (!d) return IBCC_ERR_NULL;
    if (d->flows == 0) d->flows = 1;
    if (d->entries == 0)
        d->entries = (d->table && d->table_len > 128u) ? d->table_len : 128u;
    if (d->log_capacity == 0) d->log_capacity = 16;
    if (d->max_pkt_bytes == 0) d->max_pkt_bytes = 2074;
    if (d->port_rate == 0) d->port_rate = IBCC_GBITS(16);
    if (d->flows > 0x7fffffffu || d->entries > IBCC_CCT_MAX_ENTRIES
        || d->log_capacity > 65535u)
        return IBCC_ERR_CAPACITY;
    if (d->per_sl > 1) return IBCC_ERR_RANGE;
    if (d->max_pkt_time == 0) {
        ibcc_result r = ibcc_wire_time(d->max_pkt_bytes, d->port_rate,
                                       &d->max_pkt_time);
        if (r != IBCC_OK) return r;
    }
    if (d->table) {
        if (d->table_len == 0 || d->table_len > d->entries)
            return IBCC_ERR_CAPACITY;
        len = d->table_len;
    } else {
        if (d->table_len != 0) return IBCC_ERR_NULL;
        len = d->entries;
    }
    if (d->ccti_limit == 0) d->ccti_limit = (uint16_t)(len - 1);
    if (d->ccti_limit >= len) return IBCC_ERR_RANGE;
    if (d->flow_sl) {
        uint32_t i;
        for (i = 0; i < d->flows; i++)
            if (d->flow_sl[i] >= IBCC_CCT_SLS) return IBCC_ERR_RANGE;
    }
    for (s = 0; s < IBCC_CCT_SLS; s++) {
        ibcc_cct_sl *p = &d->sl[s];
        if (p->ccti_timer == 0) p->ccti_timer = 150;
        if (p->ccti_increase == 0) p->ccti_increase = 1;
        if (p->ccti_min > d->ccti_limit) return IBCC_ERR_RANGE;
    }
    return IBCC_OK;
}

/* Byte offsets of the parts in the agent's memory. */
static uint64_t ibcc__cct_layout(const ibcc_cct_desc *d, uint64_t *off_log,
                                 uint64_t *off_table)
{
    uint64_t o = (uint64_t)d->flows * sizeof(ibcc__cct_flow);
    *off_log = o;
    o += (uint64_t)d->log_capacity * sizeof(ibcc_cct_event);
    *off_table = o;
    o += (uint64_t)d->entries * sizeof(uint16_t);
    return (o + 7u) & ~(uint64_t)7u;
}

IBCC_API size_t ibcc_cct_size(const ibcc_cct_desc *d)
{
    ibcc_cct_desc e;
    uint64_t a, b, n;
    if (!d) return 0;
    e = *d;
    if (ibcc_cct_defaults(&e) != IBCC_OK) return 0;
    n = ibcc__cct_layout(&e, &a, &b);
    if (n > (uint64_t)SIZE_MAX) return 0;
    return (size_t)n;
}

IBCC_API ibcc_result ibcc_cct_init(ibcc_cct *c, const ibcc_cct_desc *d,
                                   void *mem, size_t len)
{
    ibcc_cct_desc e;
    uint64_t need, off_log, off_table;
    unsigned char *base = (unsigned char *)mem;
    ibcc_result r;
    unsigned s;
    if (!c || !d || !mem) return IBCC_ERR_NULL;
    e = *d;
    r = ibcc_cct_defaults(&e);
    if (r != IBCC_OK) return r;
    if (((uintptr_t)mem & 7u) != 0) return IBCC_ERR_ALIGN;
    need = ibcc__cct_layout(&e, &off_log, &off_table);
    if (need > (uint64_t)len) return IBCC_ERR_NOMEM;
    memset(c, 0, sizeof *c);
    c->flows = e.flows;
    c->entries = e.entries;
    c->log_cap = e.log_capacity;
    c->per_sl = e.per_sl;
    c->control_map = (uint16_t)~e.disabled_sls;
    c->ccti_limit = e.ccti_limit;
    c->max_pkt_time = e.max_pkt_time;
    c->flow = (ibcc__cct_flow *)(void *)base;
    c->log = (ibcc_cct_event *)(void *)(base + off_log);
    c->table = (uint16_t *)(void *)(base + off_table);
    memset(c->table, 0, (size_t)e.entries * sizeof(uint16_t));
    if (e.table) {
        memcpy(c->table, e.table, (size_t)e.table_len * sizeof(uint16_t));
    } else {
        r = ibcc_cct_fill_quadratic(c->table, e.entries, e.max_pkt_time,
                                    IBCC_CCT_QUAD_COEF, IBCC_CCT_QUAD_G_ROOT);
        if (r != IBCC_OK) return r;
    }
    for (s = 0; s < IBCC_CCT_SLS; s++) {
        c->sl[s].p = e.sl[s];
        c->sl[s].period = ibcc__cct_satmul(IBCC_CCT_TIMER_UNIT_PS,
                                           e.sl[s].ccti_timer);
    }
    memset(c->flow, 0, (size_t)c->flows * sizeof(ibcc__cct_flow));
    if (e.flow_sl) {
        uint32_t i;
        for (i = 0; i < c->flows; i++) c->flow[i].sl = e.flow_sl[i];
    }
    ibcc_cct_reset(c);
    return IBCC_OK;
}

IBCC_API void ibcc_cct_reset(ibcc_cct *c)
{
    unsigned s;
    uint32_t i;
    if (!c) return;
    for (i = 0; i < c->flows; i++) {
        c->flow[i].ccti = 0;
        c->flow[i].seen = 0;
    }
    for (s = 0; s < IBCC_CCT_SLS; s++) {
        ibcc__cct_slstate *q = &c->sl[s];
        q->next = 0; q->count = 0; q->stop = 0;
        q->running = 0; q->parked = 0;
        memset(&q->agg, 0, sizeof q->agg);
    }
    c->last = 0;
    c->log_head = 0; c->log_count = 0;
    c->log_total = 0; c->log_lost = 0;
}

/* Expiries due by `now` (>= next) of a running timer:
       k = 1 + (now - next) / period
   without a division when fewer than two are due. */
static uint64_t ibcc__cct_due(const ibcc__cct_slstate *q, ibcc_time now)
{
    ibcc_time d = now - q->next;
    return d < q->period ? 1u : 1u + d / q->period;
}

/* Expiry count of an SL timer at `now` (not stored), and whether it is
   still running then. Expiries at next, next + P, ...; the timer stops
   at the expiry that brings count to stop. next is saturated at
   IBCC_TIME_MAX when the true expiry lies beyond 2^64 - 1 ps: such an
   expiry never fires (else every call at IBCC_TIME_MAX would fire it
   again). */
static uint64_t ibcc__cct_count_at(const ibcc__cct_slstate *q, ibcc_time now,
                                   int *running)
{
    uint64_t k;
    if (!q->running || now < q->next || q->next == IBCC_TIME_MAX) {
        if (running) *running = q->running;
        return q->count;
    }
    k = ibcc__cct_due(q, now);
    if (k >= q->stop - q->count) {
        if (running) *running = 0;
        return q->stop;
    }
    if (running) *running = 1;
    return q->count + k;
}

/* Applies the expiries due at or before `now` to the SL's timer state. */
static void ibcc__cct_advance(ibcc__cct_slstate *q, ibcc_time now)
{
    uint64_t k;
    if (!q->running || now < q->next || q->next == IBCC_TIME_MAX) return;
    k = ibcc__cct_due(q, now);
    if (k >= q->stop - q->count) {
        q->count = q->stop;
        q->running = 0;
        return;
    }
    q->count += k;
    q->next = ibcc__cct_satadd(q->next, ibcc__cct_satmul(q->period, k));
}

/* CCTI of a flow at SL expiry count `count`:
       CCTI > Min ? max(Min, CCTI - (count - seen)) : CCTI */
static unsigned ibcc__cct_value(const ibcc__cct_flow *f, uint64_t count,
                                 unsigned min)
{
    uint64_t el = count - f->seen;
    if (f->ccti <= min) return f->ccti;
    if (el >= (uint64_t)(f->ccti - min)) return min;
    return (unsigned)(f->ccti - el);
}

static ibcc_time ibcc__cct_now(const ibcc_cct *c, ibcc_time now)
{
    return now < c->last ? c->last : now;
}

/* Brings every flow of SL s up to date at the SL's current count (call
   ibcc__cct_advance first). O(flows). */
static void ibcc__cct_settle(ibcc_cct *c, unsigned s)
{
    ibcc__cct_slstate *q = &c->sl[s];
    uint32_t i;
    if (c->per_sl) {
        q->agg.ccti = (uint16_t)ibcc__cct_value(&q->agg, q->count, q->p.ccti_min);
        q->agg.seen = q->count;
        return;
    }
    for (i = 0; i < c->flows; i++) {
        ibcc__cct_flow *f = &c->flow[i];
        if (f->sl != s) continue;
        f->ccti = (uint16_t)ibcc__cct_value(f, q->count, q->p.ccti_min);
        f->seen = q->count;
    }
}

/* After a settle and a settings change: recomputes the stop count (timer
   running) or the parked excess (timer stopped) of SL s exactly, from the
   settled CCTIs, clamping them to the limit. O(flows). */
static void ibcc__cct_rescan(ibcc_cct *c, unsigned s)
{
    ibcc__cct_slstate *q = &c->sl[s];
    unsigned min = q->p.ccti_min, maxex = 0;
    uint32_t i;
    if (c->per_sl) {
        if (q->agg.ccti > c->ccti_limit) q->agg.ccti = c->ccti_limit;
        if (q->agg.ccti > min) maxex = q->agg.ccti - min;
    } else {
        for (i = 0; i < c->flows; i++) {
            ibcc__cct_flow *f = &c->flow[i];
            if (f->sl != s) continue;
            if (f->ccti > c->ccti_limit) f->ccti = c->ccti_limit;
            if (f->ccti > min && f->ccti - min > maxex) maxex = f->ccti - min;
        }
    }
    if (q->running && q->period == 0) q->running = 0;
    if (q->running) {
        q->stop = q->count + (maxex > 1 ? maxex : 1);
        q->parked = 0;
    } else {
        q->stop = q->count;
        q->parked = (uint16_t)maxex;
    }
}

static void ibcc__cct_log(ibcc_cct *c, uint32_t flow, unsigned sl,
                          unsigned ccti, ibcc_time now)
{
    uint32_t slot;
    ibcc_cct_event *e;
    if (c->log_count == c->log_cap) {       /* full: overwrite the oldest */
        slot = c->log_head;
        c->log_head = (c->log_head + 1 == c->log_cap) ? 0 : c->log_head + 1;
        c->log_lost++;
    } else {
        slot = c->log_head + c->log_count;
        if (slot >= c->log_cap) slot -= c->log_cap;
        c->log_count++;
    }
    e = &c->log[slot];
    e->time = now;
    e->flow = flow;
    e->ccti = (uint16_t)ccti;
    e->sl = (uint8_t)sl;
    e->reserved = 0;
    c->log_total++;
}

IBCC_API unsigned ibcc_cct_on_becn(ibcc_cct *c, uint32_t flow, ibcc_time now)
{
    ibcc__cct_flow *f, *g;
    ibcc__cct_slstate *q;
    unsigned sl, v, nv, min;
    if (!c || flow >= c->flows) return 0;
    f = &c->flow[flow];
    sl = f->sl;
    if (!((c->control_map >> sl) & 1u)) return 0;
    now = ibcc__cct_now(c, now);
    c->last = now;
    q = &c->sl[sl];
    ibcc__cct_advance(q, now);
    g = c->per_sl ? &q->agg : f;
    min = q->p.ccti_min;
    v = ibcc__cct_value(g, q->count, min);
    /* CCTI = min(CCTI + CCTI_Increase, CCTI_Limit) */
    nv = v + q->p.ccti_increase;
    if (nv > c->ccti_limit) nv = c->ccti_limit;
    if (v > nv) nv = v; /* never lowers (v <= limit after set_table) */
    g->ccti = (uint16_t)nv;
    g->seen = q->count;
    if (q->period != 0) {
        if (!q->running) {                   /* start: at least one expiry */
            q->running = 1;
            q->next = ibcc__cct_satadd(now, q->period);
            q->stop = q->count + (q->parked > 1 ? q->parked : 1);
            q->parked = 0;
        }
        /* this flow reaches Min at count + (nv - Min) */
        if (nv > min && q->count + (nv - min) > q->stop)
            q->stop = q->count + (nv - min);
    }
    if (q->p.trigger_threshold != 0 && nv >= q->p.trigger_threshold)
        ibcc__cct_log(c, flow, sl, nv, now);
    return nv;
}

IBCC_API unsigned ibcc_cct_ccti(const ibcc_cct *c, uint32_t flow, ibcc_time now)
{
    const ibcc__cct_flow *f;
    const ibcc__cct_slstate *q;
    if (!c || flow >= c->flows) return 0;
    f = &c->flow[flow];
    q = &c->sl[f->sl];
    return ibcc__cct_value(c->per_sl ? &q->agg : f,
                           ibcc__cct_count_at(q, ibcc__cct_now(c, now), NULL),
                           q->p.ccti_min);
}

IBCC_API ibcc_time ibcc_cct_delay(const ibcc_cct *c, uint32_t flow, ibcc_time now)
{
    unsigned i;
    if (!c || flow >= c->flows) return 0;
    if (!((c->control_map >> c->flow[flow].sl) & 1u)) return 0;
    i = ibcc_cct_ccti(c, flow, now);
    return ibcc_cct_entry_delay(c->table[i], c->max_pkt_time);
}

IBCC_API ibcc_time ibcc_cct_gap(const ibcc_cct *c, uint32_t flow, ibcc_time now,
                                ibcc_time pkt_time)
{
    return ibcc__cct_satadd(pkt_time, ibcc_cct_delay(c, flow, now));
}

IBCC_API void ibcc_cct_advance(ibcc_cct *c, ibcc_time now)
{
    unsigned s;
    if (!c) return;
    now = ibcc__cct_now(c, now);
    c->last = now;
    for (s = 0; s < IBCC_CCT_SLS; s++) ibcc__cct_advance(&c->sl[s], now);
}

IBCC_API unsigned ibcc_cct_flow_sl(const ibcc_cct *c, uint32_t flow)
{
    if (!c || flow >= c->flows) return 0;
    return c->flow[flow].sl;
}

IBCC_API ibcc_result ibcc_cct_set_flow_sl(ibcc_cct *c, uint32_t flow,
                                          unsigned sl, ibcc_time now)
{
    ibcc__cct_flow *f;
    ibcc__cct_slstate *qo, *qn;
    unsigned v;
    if (!c) return IBCC_ERR_NULL;
    if (flow >= c->flows || sl >= IBCC_CCT_SLS) return IBCC_ERR_RANGE;
    f = &c->flow[flow];
    now = ibcc__cct_now(c, now);
    c->last = now;
    qo = &c->sl[f->sl];
    qn = &c->sl[sl];
    ibcc__cct_advance(qo, now);
    ibcc__cct_advance(qn, now);
    if (c->per_sl) { f->sl = (uint8_t)sl; return IBCC_OK; }
    v = ibcc__cct_value(f, qo->count, qo->p.ccti_min);
    if (v > qo->p.ccti_min || v > qn->p.ccti_min) return IBCC_ERR_STATE;
    f->ccti = (uint16_t)v;
    f->sl = (uint8_t)sl;
    f->seen = qn->count;
    return IBCC_OK;
}

IBCC_API int ibcc_cct_timer_running(const ibcc_cct *c, unsigned sl, ibcc_time now)
{
    int run = 0;
    if (!c || sl >= IBCC_CCT_SLS) return 0;
    (void)ibcc__cct_count_at(&c->sl[sl], ibcc__cct_now(c, now), &run);
    return run;
}

IBCC_API uint64_t ibcc_cct_timer_expiries(const ibcc_cct *c, unsigned sl,
                                          ibcc_time now)
{
    if (!c || sl >= IBCC_CCT_SLS) return 0;
    return ibcc__cct_count_at(&c->sl[sl], ibcc__cct_now(c, now), NULL);
}

IBCC_API ibcc_result ibcc_cct_set_sl(ibcc_cct *c, unsigned sl,
                                     const ibcc_cct_sl *p, ibcc_time now)
{
    ibcc__cct_slstate *q;
    if (!c || !p) return IBCC_ERR_NULL;
    if (sl >= IBCC_CCT_SLS || p->ccti_min > c->ccti_limit) return IBCC_ERR_RANGE;
    now = ibcc__cct_now(c, now);
    c->last = now;
    q = &c->sl[sl];
    ibcc__cct_advance(q, now);
    ibcc__cct_settle(c, sl);
    q->p = *p;
    q->period = ibcc__cct_satmul(IBCC_CCT_TIMER_UNIT_PS, p->ccti_timer);
    ibcc__cct_rescan(c, sl);
    return IBCC_OK;
}

/* Sets every CCTI of SL s to 0 and stops its timer (count kept). */
static void ibcc__cct_clear_sl(ibcc_cct *c, unsigned s)
{
    ibcc__cct_slstate *q = &c->sl[s];
    uint32_t i;
    q->running = 0;
    q->stop = q->count;
    q->parked = 0;
    q->agg.ccti = 0;
    q->agg.seen = q->count;
    for (i = 0; i < c->flows; i++) {
        if (c->flow[i].sl != s) continue;
        c->flow[i].ccti = 0;
        c->flow[i].seen = q->count;
    }
}

IBCC_API ibcc_result ibcc_cct_set_port(ibcc_cct *c, uint16_t port_control,
                                       uint16_t control_map, ibcc_time now)
{
    unsigned s, per_sl;
    if (!c) return IBCC_ERR_NULL;
    if (port_control & ~1u) return IBCC_ERR_RANGE;
    now = ibcc__cct_now(c, now);
    c->last = now;
    per_sl = port_control & 1u;
    for (s = 0; s < IBCC_CCT_SLS; s++) {
        int off = ((c->control_map >> s) & 1u) && !((control_map >> s) & 1u);
        ibcc__cct_advance(&c->sl[s], now);
        if (per_sl != c->per_sl || off) ibcc__cct_clear_sl(c, s);
    }
    c->per_sl = per_sl;
    c->control_map = control_map;
    return IBCC_OK;
}

IBCC_API ibcc_result ibcc_cct_set_table(ibcc_cct *c, const uint16_t *entries,
                                        uint32_t n, uint16_t limit, ibcc_time now)
{
    unsigned s;
    if (!c) return IBCC_ERR_NULL;
    if (!c->table) return IBCC_ERR_STATE;       /* zeroed, never initialised */
    if (n > 0 && !entries) return IBCC_ERR_NULL;
    if (n > c->entries) return IBCC_ERR_CAPACITY;
    if (limit >= (n > 0 ? n : 1u)) return IBCC_ERR_RANGE;
    for (s = 0; s < IBCC_CCT_SLS; s++)
        if (c->sl[s].p.ccti_min > limit) return IBCC_ERR_RANGE;
    now = ibcc__cct_now(c, now);
    c->last = now;
    for (s = 0; s < IBCC_CCT_SLS; s++) {
        ibcc__cct_advance(&c->sl[s], now);
        ibcc__cct_settle(c, s);
    }
    memset(c->table, 0, (size_t)c->entries * sizeof(uint16_t));
    if (n > 0) memcpy(c->table, entries, (size_t)n * sizeof(uint16_t));
    c->ccti_limit = limit;
    for (s = 0; s < IBCC_CCT_SLS; s++) ibcc__cct_rescan(c, s);
    return IBCC_OK;
}

IBCC_API const ibcc_cct_sl *ibcc_cct_get_sl(const ibcc_cct *c, unsigned sl)
{
    if (!c || sl >= IBCC_CCT_SLS) return NULL;
    return &c->sl[sl].p;
}

IBCC_API uint16_t ibcc_cct_limit(const ibcc_cct *c) { return c ? c->ccti_limit : 0; }

IBCC_API const uint16_t *ibcc_cct_table(const ibcc_cct *c)
{
    return c ? c->table : NULL;
}

IBCC_API uint32_t ibcc_cct_log_read(ibcc_cct *c, ibcc_cct_event *out, uint32_t max)
{
    uint32_t i, n;
    if (!c || !out) return 0;
    n = c->log_count < max ? c->log_count : max;
    for (i = 0; i < n; i++) {
        out[i] = c->log[c->log_head];
        c->log_head = (c->log_head + 1 == c->log_cap) ? 0 : c->log_head + 1;
    }
    c->log_count -= n;
    return n;
}

IBCC_API uint32_t ibcc_cct_log_count(const ibcc_cct *c) { return c ? c->log_count : 0; }
IBCC_API uint64_t ibcc_cct_log_total(const ibcc_cct *c) { return c ? c->log_total : 0; }
IBCC_API uint64_t ibcc_cct_log_lost(const ibcc_cct *c) { return c ? c->log_lost : 0; }
