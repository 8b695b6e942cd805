/* ---- L1 segment: implementation --------------------------------------- */

IBCC_API ibcc_result ibcc_segment_defaults(ibcc_segment_desc *d)
{
    if (!d) return IBCC_ERR_NULL;
    if (d->seg_bytes == 0) d->seg_bytes = 100;
    if (d->slack_bytes == 0) d->slack_bytes = 80;
    if (d->adaptive > 1) return IBCC_ERR_RANGE;
    return IBCC_OK;
}

IBCC_API ibcc_result ibcc_segment_init(ibcc_segment *s, const ibcc_segment_desc *desc)
{
    ibcc_segment_desc e;
    ibcc_result r;
    if (!s) return IBCC_ERR_NULL;
    if (desc) e = *desc; else memset(&e, 0, sizeof e);
    r = ibcc_segment_defaults(&e);
    if (r != IBCC_OK) return r;
    s->seg_bytes = e.seg_bytes;
    s->slack_bytes = e.slack_bytes;
    s->adaptive = e.adaptive;
    return IBCC_OK;
}

IBCC_API uint64_t ibcc_segment_adaptive_len(uint32_t slack_bytes, uint32_t hops)
{
    /* L_l = B * h [K] */
    return (uint64_t)slack_bytes * (hops ? hops : 1u);
}

IBCC_API uint64_t ibcc_segment_len(const ibcc_segment *s, int priority, uint32_t hops)
{
    if (!s || priority == IBCC_SEGMENT_HIGH) return IBCC_SEGMENT_WHOLE;
    if (s->adaptive) return ibcc_segment_adaptive_len(s->slack_bytes, hops);
    return s->seg_bytes;
}

IBCC_API uint64_t ibcc_segment_count(const ibcc_segment *s, uint64_t msg_bytes,
                                     int priority, uint32_t hops)
{
    uint64_t l = ibcc_segment_len(s, priority, hops);
    if (msg_bytes == 0 || l == 0) return 0; /* l 0: zeroed, uninitialised s */
    /* ceil(M / L) without overflow */
    return msg_bytes / l + (msg_bytes % l != 0);
}

IBCC_API void ibcc_segment_begin(ibcc_segment_iter *it, const ibcc_segment *s,
                                 uint64_t msg_bytes, int priority, uint32_t hops)
{
    if (!it) return;
    it->left = msg_bytes;
    it->len = ibcc_segment_len(s, priority, hops);
}

IBCC_API uint64_t ibcc_segment_next(ibcc_segment_iter *it)
{
    uint64_t n;
    if (!it || it->left == 0 || it->len == 0) return 0;
    n = it->left < it->len ? it->left : it->len;
    it->left -= n;
    return n;
}
