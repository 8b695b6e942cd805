/* ---- L1 mvcm: implementation ------------------------------------------ */

IBCC_API ibcc_result ibcc_mvcm_defaults(ibcc_mvcm_desc *d)
{
    if (!d) return IBCC_ERR_NULL;
    if (d->flows == 0) d->flows = 1;
    if (d->dw_max == 0) d->dw_max = 2;
    if (d->k == 0) d->k = 4;
    if (d->n == 0) d->n = 3;
    if (d->flows > 0x7fffffffu) return IBCC_ERR_CAPACITY;
    if (d->dw_max > 65535u || d->k < 2 || d->k > 65535u || d->n > 64u)
        return IBCC_ERR_RANGE;
    if (d->ws == 0) return IBCC_ERR_RANGE; /* no default: RTTmin is required */
    if (d->flags & ~(IBCC_MVCM_NO_WARM | IBCC_MVCM_NO_CAP)) return IBCC_ERR_RANGE;
    return IBCC_OK;
}

IBCC_API size_t ibcc_mvcm_size(const ibcc_mvcm_desc *d)
{
    ibcc_mvcm_desc e;
    uint64_t n;
    if (!d) return 0;
    e = *d;
    if (ibcc_mvcm_defaults(&e) != IBCC_OK) return 0;
    n = (uint64_t)e.flows * sizeof(ibcc_mvcm_flow);
    n = (n + 7u) & ~(uint64_t)7u;
    if (n > (uint64_t)SIZE_MAX) return 0;
    return (size_t)n;
}

IBCC_API void ibcc_mvcm_flow_reset(const ibcc_mvcm *a, ibcc_mvcm_flow *f)
{
    if (!a || !f) return;
    f->dw = a->dw_max;
    f->nws = 0;
    f->mults = 0;
    f->cold_run = 1;
    f->pad = 0;
}

IBCC_API ibcc_result ibcc_mvcm_init(ibcc_mvcm *a, const ibcc_mvcm_desc *d,
                                    void *mem, size_t len)
{
    ibcc_mvcm_desc e;
    ibcc_result r;
    uint32_t i;
    if (!a || !d || !mem) return IBCC_ERR_NULL;
    e = *d;
    r = ibcc_mvcm_defaults(&e);
    if (r != IBCC_OK) return r;
    if (((uintptr_t)mem & 7u) != 0) return IBCC_ERR_ALIGN;
    if ((uint64_t)e.flows * sizeof(ibcc_mvcm_flow) > (uint64_t)len)
        return IBCC_ERR_NOMEM;
    a->flows = e.flows;
    a->dw_max = e.dw_max;
    a->k = e.k;
    a->n = e.n;
    a->ws = e.ws;
    a->flags = e.flags;
    a->flow = (ibcc_mvcm_flow *)mem;
    for (i = 0; i < a->flows; i++) ibcc_mvcm_flow_reset(a, &a->flow[i]);
    return IBCC_OK;
}

IBCC_API int ibcc_mvcm_step(const ibcc_mvcm *a, ibcc_mvcm_flow *f, unsigned bits)
{
    int cls;
    if (!a || !f) return -1;
    cls = ibcc_mvcm_class(bits);
    switch (cls) {
    case IBCC_MVCM_WARM:
        /* moderate: DW = max(1, DW - 1) */
        if (!(a->flags & IBCC_MVCM_NO_WARM) && f->dw > 1) f->dw--;
        f->cold_run = 0;
        break;
    case IBCC_MVCM_HOT:
        /* imminent: shrink the window first, then waiting slots:
           nWS = 1, then nWS *= k at most n times */
        if (f->dw > 1) {
            f->dw--;
        } else if (f->nws == 0) {
            f->nws = 1;
            f->mults = 0;
        } else if ((a->flags & IBCC_MVCM_NO_CAP) || f->mults < a->n) {
            uint64_t x = (uint64_t)f->nws * a->k;
            f->nws = x > 0xffffffffu ? 0xffffffffu : (uint32_t)x;
            if (f->mults < 0xffffu) f->mults++;
        }
        f->cold_run = 0;
        break;
    default:
        /* recovery: the first cold ACK of a run clears nWS, each further
           one grows DW by 1 up to DWmax */
        if (!f->cold_run) {
            f->nws = 0;
            f->mults = 0;
            f->cold_run = 1;
        } else if (f->dw < a->dw_max) {
            f->dw++;
        }
        break;
    }
    return cls;
}

IBCC_API int ibcc_mvcm_on_ack(ibcc_mvcm *a, uint32_t flow, unsigned bits)
{
    if (!a || flow >= a->flows) return -1;
    return ibcc_mvcm_step(a, &a->flow[flow], bits);
}

IBCC_API void ibcc_mvcm_on_inject_empty(ibcc_mvcm *a, uint32_t flow)
{
    if (!a || flow >= a->flows) return;
    ibcc_mvcm_flow_reset(a, &a->flow[flow]);
}

IBCC_API uint32_t ibcc_mvcm_window(const ibcc_mvcm *a, uint32_t flow)
{
    if (!a || flow >= a->flows) return 0;
    return a->flow[flow].dw;
}

IBCC_API ibcc_time ibcc_mvcm_wait(const ibcc_mvcm *a, uint32_t flow)
{
    uint32_t n;
    if (!a || flow >= a->flows) return 0;
    /* waiting interval = nWS * WS, saturating */
    n = a->flow[flow].nws;
    if (n != 0 && a->ws > IBCC_TIME_MAX / n) return IBCC_TIME_MAX;
    return a->ws * n;
}

IBCC_API const ibcc_mvcm_flow *ibcc_mvcm_state(const ibcc_mvcm *a, uint32_t flow)
{
    if (!a || flow >= a->flows) return NULL;
    return &a->flow[flow];
}

IBCC_API double ibcc_mvcm_hop_bytes(ibcc_time t_hop, ibcc_rate rate)
{
    return (double)t_hop * (double)rate / 1e12;
}

static int ibcc__mvcm_ok(double x) { return x >= 0.0 && x < 1e300; }

IBCC_API ibcc_result ibcc_mvcm_omega(uint32_t hops, double hop_bytes,
                                     double l_data, double l_ack, double *out)
{
    double w;
    if (!out) return IBCC_ERR_NULL;
    if (!ibcc__mvcm_ok(hop_bytes) || !ibcc__mvcm_ok(l_ack)
        || !ibcc__mvcm_ok(l_data) || l_data <= 0.0)
        return IBCC_ERR_RANGE;
    /* omega = (2 h t_hop B + L_data + L_ack) / L_data */
    w = (2.0 * hops * hop_bytes + l_data + l_ack) / l_data;
    if (!ibcc__mvcm_ok(w)) return IBCC_ERR_RANGE;     /* overflowed */
    *out = w;
    return IBCC_OK;
}

IBCC_API ibcc_result ibcc_mvcm_omega_bounds(uint32_t hops, double hop_bytes,
                                            double min_data, double max_data,
                                            double l_ack, double *lo, double *hi)
{
    double k;
    if (!lo || !hi) return IBCC_ERR_NULL;
    if (!ibcc__mvcm_ok(hop_bytes) || !ibcc__mvcm_ok(l_ack)
        || !ibcc__mvcm_ok(min_data) || !ibcc__mvcm_ok(max_data)
        || min_data <= 0.0 || max_data < min_data)
        return IBCC_ERR_RANGE;
    /* K = 2 h t_hop B + L_ack; (K + max)/max <= omega <= (K + min)/min */
    k = 2.0 * hops * hop_bytes + l_ack;
    if (!ibcc__mvcm_ok((k + min_data) / min_data)) return IBCC_ERR_RANGE;
    *lo = (k + max_data) / max_data;
    *hi = (k + min_data) / min_data;
    return IBCC_OK;
}

IBCC_API ibcc_result ibcc_mvcm_dw_max(double omega, uint32_t *out)
{
    double f;
    if (!out) return IBCC_ERR_NULL;
    if (!(omega >= 1.0 && omega < 65536.0)) return IBCC_ERR_RANGE;
    f = floor(omega);
    /* ceil, with an omega within 1e-9 above an integer taken as it */
    *out = (uint32_t)(omega - f <= 1e-9 ? f : f + 1.0);
    if (*out > 65535u) return IBCC_ERR_RANGE;
    return IBCC_OK;
}

IBCC_API ibcc_result ibcc_mvcm_rtt_min(uint32_t hops, ibcc_time t_hop,
                                       ibcc_rate rate, uint32_t l_data,
                                       uint32_t l_ack, ibcc_time *out)
{
    ibcc_time wd, wa, h;
    ibcc_result r;
    if (!out) return IBCC_ERR_NULL;
    if (rate == 0 || l_data == 0) return IBCC_ERR_RANGE;
    r = ibcc_wire_time(l_data, rate, &wd);
    if (r != IBCC_OK) return r;
    r = ibcc_wire_time(l_ack, rate, &wa);
    if (r != IBCC_OK) return r;
    /* RTTmin = 2 h t_hop + wire(L_data) + wire(L_ack) */
    if (t_hop != 0 && (uint64_t)hops * 2u > IBCC_TIME_MAX / t_hop)
        return IBCC_ERR_OVERFLOW;
    h = (ibcc_time)hops * 2u * t_hop;
    if (h > IBCC_TIME_MAX - wd || h + wd > IBCC_TIME_MAX - wa)
        return IBCC_ERR_OVERFLOW;
    *out = h + wd + wa;
    return IBCC_OK;
}
