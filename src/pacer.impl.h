/* ---- L1 pacer: implementation ----------------------------------------- */

IBCC_API ibcc_result ibcc_pacer_defaults(ibcc_pacer_desc *d)
{
    if (!d) return IBCC_ERR_NULL;
    if (d->window == 0) d->window = 1;
    if (d->law && d->rate != 0) return IBCC_ERR_UNSUPPORTED;
    if (d->rate != 0) {
        if (d->rmax == 0 || d->rate > d->rmax) return IBCC_ERR_RANGE;
    } else if (d->rmax != 0) {
        return IBCC_ERR_UNSUPPORTED;    /* rmax only means something with rate */
    }
    return IBCC_OK;
}

IBCC_API ibcc_result ibcc_pacer_init(ibcc_pacer *p, const ibcc_pacer_desc *d)
{
    ibcc_pacer_desc e;
    ibcc_result r;
    if (!p || !d) return IBCC_ERR_NULL;
    e = *d;
    r = ibcc_pacer_defaults(&e);
    if (r != IBCC_OK) return r;
    memset(p, 0, sizeof *p);
    p->window = e.window;
    p->law = e.law;
    p->rate = e.rate;
    p->rmax = e.rmax;
    return IBCC_OK;
}

IBCC_API void ibcc_pacer_reset(ibcc_pacer *p)
{
    if (!p) return;
    p->outstanding = 0;
    p->has_sent = 0;
    p->last_start = 0;
    p->last_tau = 0;
    p->sent = 0;
    p->acked = 0;
}

IBCC_API ibcc_time ibcc_pacer_gap(const ibcc_pacer *p, ibcc_time tau)
{
    if (!p) return 0;
    if (p->law) return ibcc_law_gap(p->law, tau);
    if (p->rate != 0) {
        /* gap = ceil(tau * (rmax - rate) / rate) */
        uint64_t g;
        if (p->rate == p->rmax) return 0;
        if (ibcc__muldiv_ceil(tau, p->rmax - p->rate, p->rate, &g) != IBCC_OK)
            return IBCC_TIME_MAX;
        return g;
    }
    return 0;
}

IBCC_API ibcc_time ibcc_pacer_next(const ibcc_pacer *p)
{
    ibcc_time g, t;
    if (!p || !p->has_sent) return 0;
    /* next = last_start + last_tau + gap(last_tau), saturating */
    g = ibcc_pacer_gap(p, p->last_tau);
    t = p->last_start;
    if (p->last_tau > IBCC_TIME_MAX - t) return IBCC_TIME_MAX;
    t += p->last_tau;
    if (g > IBCC_TIME_MAX - t) return IBCC_TIME_MAX;
    return t + g;
}

IBCC_API int ibcc_pacer_window_open(const ibcc_pacer *p)
{
    if (!p) return 0;
    return p->window == IBCC_PACER_NO_WINDOW || p->outstanding < p->window;
}

IBCC_API ibcc_time ibcc_pacer_earliest(const ibcc_pacer *p)
{
    if (!ibcc_pacer_window_open(p)) return IBCC_TIME_MAX; /* p NULL too */
    return ibcc_pacer_next(p);
}

IBCC_API int ibcc_pacer_can_send(const ibcc_pacer *p, ibcc_time now)
{
    return ibcc_pacer_window_open(p) && now >= ibcc_pacer_next(p);
}

IBCC_API ibcc_result ibcc_pacer_on_send(ibcc_pacer *p, ibcc_time now,
                                        ibcc_time tau)
{
    if (!p) return IBCC_ERR_NULL;
    if (tau == 0) return IBCC_ERR_RANGE;
    if (!ibcc_pacer_window_open(p)) return IBCC_ERR_FULL;
    if (p->has_sent && (now < p->last_start || now < ibcc_pacer_next(p)))
        return IBCC_ERR_PAST;
    /* with no window limit the count saturates rather than wraps */
    if (p->outstanding != UINT32_MAX) p->outstanding++;
    p->has_sent = 1;
    p->last_start = now;
    p->last_tau = tau;
    p->sent++;
    return IBCC_OK;
}

IBCC_API ibcc_result ibcc_pacer_on_ack_sized(ibcc_pacer *p, int marked,
                                             uint32_t weight_q16)
{
    if (!p) return IBCC_ERR_NULL;
    if (p->outstanding == 0) return IBCC_ERR_MISMATCH;
    p->outstanding--;
    p->acked++;
    if (p->law) ibcc_law_on_ack_sized(p->law, marked, weight_q16);
    return IBCC_OK;
}

IBCC_API ibcc_result ibcc_pacer_on_ack(ibcc_pacer *p, int marked)
{
    if (!p) return IBCC_ERR_NULL;
    if (p->outstanding == 0) return IBCC_ERR_MISMATCH;
    p->outstanding--;
    p->acked++;
    if (p->law) ibcc_law_on_ack(p->law, marked);
    return IBCC_OK;
}

/* ---- persistent per-pair state ---------------------------------------- */

/* Slots: the smallest power of two >= 2 * capacity (load <= 1/2). */
static uint32_t ibcc__pair_slots(uint32_t capacity)
{
    uint32_t s = 2;
    while (s < 2u * capacity) s <<= 1;
    return s;
}

/* splitmix64 finaliser of the pair key */
static uint64_t ibcc__pair_hash(uint64_t k)
{
    k ^= k >> 30; k *= UINT64_C(0xbf58476d1ce4e5b9);
    k ^= k >> 27; k *= UINT64_C(0x94d049bb133111eb);
    k ^= k >> 31;
    return k;
}

IBCC_API ibcc_result ibcc_pairstate_defaults(ibcc_pairstate_desc *d)
{
    if (!d) return IBCC_ERR_NULL;
    if (d->capacity == 0) d->capacity = 1024;
    if (d->capacity > (UINT32_C(1) << 24)) return IBCC_ERR_CAPACITY;
    return IBCC_OK;
}

IBCC_API size_t ibcc_pairstate_size(const ibcc_pairstate_desc *d)
{
    ibcc_pairstate_desc e;
    if (!d) return 0;
    e = *d;
    if (ibcc_pairstate_defaults(&e) != IBCC_OK) return 0;
    return (size_t)ibcc__pair_slots(e.capacity) * sizeof(ibcc__pair_slot);
}

IBCC_API ibcc_result ibcc_pairstate_init(ibcc_pairstate *ps,
                                         const ibcc_pairstate_desc *d,
                                         void *mem, size_t len)
{
    ibcc_pairstate_desc e;
    ibcc_result r;
    uint32_t slots;
    if (!ps || !d || !mem) return IBCC_ERR_NULL;
    e = *d;
    r = ibcc_pairstate_defaults(&e);
    if (r != IBCC_OK) return r;
    if (((uintptr_t)mem) % sizeof(uint64_t) != 0) return IBCC_ERR_ALIGN;
    slots = ibcc__pair_slots(e.capacity);
    if (len < (size_t)slots * sizeof(ibcc__pair_slot)) return IBCC_ERR_NOMEM;
    ps->capacity = e.capacity;
    ps->count = 0;
    ps->mask = slots - 1;
    ps->slot = (ibcc__pair_slot *)mem;
    memset(ps->slot, 0, (size_t)slots * sizeof(ibcc__pair_slot));
    return IBCC_OK;
}

/* Slot holding `key`, or the empty slot where it would go. Terminates:
   the table is never more than half full. */
static uint32_t ibcc__pair_find(const ibcc_pairstate *ps, uint64_t key)
{
    uint32_t i = (uint32_t)(ibcc__pair_hash(key) & ps->mask);
    while (ps->slot[i].used && ps->slot[i].key != key) i = (i + 1) & ps->mask;
    return i;
}

IBCC_API ibcc_result ibcc_pairstate_save(ibcc_pairstate *ps, uint32_t src,
                                         uint32_t dst, const ibcc_law *l)
{
    uint64_t key;
    uint32_t i;
    if (!ps || !l) return IBCC_ERR_NULL;
    if (!ps->slot) return IBCC_ERR_STATE;       /* zeroed, never initialised */
    key = ((uint64_t)src << 32) | dst;
    i = ibcc__pair_find(ps, key);
    if (!ps->slot[i].used) {
        if (ps->count >= ps->capacity) return IBCC_ERR_FULL;
        ps->slot[i].used = 1;
        ps->slot[i].key = key;
        ps->count++;
    }
    ps->slot[i].st = l->s;
    return IBCC_OK;
}

IBCC_API ibcc_result ibcc_pairstate_load(const ibcc_pairstate *ps,
                                         uint32_t src, uint32_t dst,
                                         ibcc_law *l)
{
    uint64_t key;
    uint32_t i;
    ibcc_result r;
    if (!ps || !l) return IBCC_ERR_NULL;
    ibcc_law_reset(l);
    if (!ps->slot) return IBCC_ERR_STATE;       /* zeroed, never initialised */
    key = ((uint64_t)src << 32) | dst;
    i = ibcc__pair_find(ps, key);
    if (!ps->slot[i].used) return IBCC_ERR_NOT_FOUND;
    r = ibcc_law_set_state(l, &ps->slot[i].st);
    if (r != IBCC_OK) ibcc_law_reset(l);
    return r;
}

IBCC_API void ibcc_pairstate_clear(ibcc_pairstate *ps)
{
    if (!ps || !ps->slot) return;
    memset(ps->slot, 0, (size_t)(ps->mask + 1u) * sizeof(ibcc__pair_slot));
    ps->count = 0;
}
