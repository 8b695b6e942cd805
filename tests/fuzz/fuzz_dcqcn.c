/* Fuzz harness: DCQCN reaction and notification points (ibcc_dcqcn).

   Input: a description (any field values, zeros for defaults), then
   operations on two copies of one flow: CNPs, sends, time advances,
   rate queries, NP packets.

   Checked: init/defaults agree and refuse exactly the documented ranges
   (reference below); after every operation rate_min <= R_C <= R_T <=
   line_rate once cut (R_C = R_T = line_rate before), alpha <= 1, T and
   BC are 0 right after a CNP, the byte count stays below B; the lazy
   timers give the same state whether the flow is touched only at its
   events (copy a) or also at every half period in between (copy b);
   the NP sends a CNP exactly when the reference rule says. */
#include "fuzz.h"

static int valid_ref(const ibcc_dcqcn_desc *in)
{
    ibcc_dcqcn_desc d = *in;
    if (!d.line_rate) d.line_rate = IBCC_GBITS(40);
    if (d.line_rate > (UINT64_C(1) << 62)) return 0;
    if (!d.rate_min) d.rate_min = d.line_rate < 12500000u ? d.line_rate : 12500000u;
    if (!d.r_ai) d.r_ai = d.line_rate < 5000000u ? d.line_rate : 5000000u;
    if (!d.r_hai) d.r_hai = d.line_rate < 25000000u ? d.line_rate : 25000000u;
    return d.rate_min <= d.line_rate && d.g <= 65536u && d.alpha_init <= 65536u
        && d.f <= 65535u && d.gd_shift <= 15u && d.r_ai <= d.line_rate
        && d.r_hai <= d.line_rate && d.r_ai >= (d.line_rate >> 20)
        && d.r_hai >= (d.line_rate >> 20);
}

static void inv(const ibcc_dcqcn *d, const ibcc_dcqcn_rp *rp)
{
    const ibcc_dcqcn_desc *p = &d->p;
    if (!rp->active) {
        FZ_CHECK(rp->rc == p->line_rate && rp->rt == p->line_rate, "line rate before a CNP");
        return;
    }
    FZ_CHECK(rp->rc >= p->rate_min, "R_C %llu below rate_min", (unsigned long long)rp->rc);
    FZ_CHECK(rp->rc <= rp->rt || rp->rt < p->rate_min, "R_C above R_T");
    FZ_CHECK(rp->rt <= p->line_rate, "R_T above line rate");
    FZ_CHECK(rp->alpha <= IBCC_DCQCN_ONE, "alpha above 1");
    if (p->b != IBCC_DCQCN_OFF) FZ_CHECK(rp->bytes < p->b, "byte count below B");
}

static int same(const ibcc_dcqcn_rp *a, const ibcc_dcqcn_rp *b)
{
    return a->rc == b->rc && a->rt == b->rt && a->alpha == b->alpha
        && a->t_count == b->t_count && a->bc_count == b->bc_count && a->bytes == b->bytes
        && a->t_next == b->t_next && a->k_next == b->k_next && a->active == b->active
        && a->increases == b->increases && a->last_stage == b->last_stage;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    fz f;
    ibcc_dcqcn_desc e, c;
    ibcc_dcqcn d;
    ibcc_dcqcn_rp a, b;
    ibcc_dcqcn_np np;
    ibcc_time now = 0, np_last = 0;
    uint64_t np_sent = 0;
    unsigned ops = 0, sel;
    int want;
    fz_init(&f, data, size);
    memset(&e, 0, sizeof e);
    sel = fz_u16(&f);
    if (sel & 1u) e.line_rate = fz_u8(&f) < 200 ? IBCC_GBITS(fz_range(&f, 1, 400)) : fz_u64(&f);
    if (sel & 2u) e.rate_min = fz_u8(&f) < 200 ? (ibcc_rate)fz_u32(&f) * 16u : fz_u64(&f);
    if (sel & 4u) e.g = fz_range(&f, 0, 70000);
    if (sel & 8u) e.alpha_init = fz_range(&f, 0, 70000);
    if (sel & 16u) e.k = IBCC_NS(fz_range(&f, 1, 200000));
    if (sel & 32u) e.timer_t = IBCC_NS(fz_range(&f, 1, 200000));
    if (sel & 64u) e.b = fz_u8(&f) < 30 ? IBCC_DCQCN_OFF : fz_range(&f, 1, 20000000);
    if (sel & 128u) e.f = fz_range(&f, 0, 70000);
    if (sel & 256u) e.r_ai = fz_u8(&f) < 200 ? (ibcc_rate)fz_u32(&f) : fz_u64(&f);
    if (sel & 512u) e.r_hai = fz_u8(&f) < 200 ? (ibcc_rate)fz_u32(&f) * 8u : fz_u64(&f);
    if (sel & 1024u) e.gd_shift = fz_range(&f, 0, 17);
    if (sel & 2048u) e.n = IBCC_NS(fz_range(&f, 1, 200000));
    want = valid_ref(&e);
    c = e;
    FZ_CHECK((ibcc_dcqcn_init(&d, &e) == IBCC_OK) == want, "init vs reference");
    FZ_CHECK((ibcc_dcqcn_defaults(&c) == IBCC_OK) == want, "defaults vs reference");
    if (!want) return 0;
    ibcc_dcqcn_rp_init(&d, &a, 0);
    ibcc_dcqcn_rp_init(&d, &b, 0);
    ibcc_dcqcn_np_init(&np);
    while (fz_more(&f) && ops++ < 400u) {
        unsigned op = fz_u8(&f) % 5u;
        ibcc_time step = fz_u8(&f) < 220 ? (ibcc_time)fz_u16(&f) * IBCC_NS(10)
                                          : (ibcc_time)fz_u32(&f) * IBCC_NS(1);
        ibcc_time t, half = d.p.timer_t < d.p.k ? d.p.timer_t / 2u : d.p.k / 2u;
        if (half == 0) half = 1;
        /* copy b is also touched every half period on the way */
        for (t = now + half; t < now + step && t - now < 64u * half; t += half)
            ibcc_dcqcn_rp_advance(&d, &b, t);
        if (step > 64u * half) ibcc_dcqcn_rp_advance(&d, &b, now + step - 1u);
        now += step;
        if (op == 0) {
            FZ_CHECK(ibcc_dcqcn_rp_on_cnp(&d, &a, now) == ibcc_dcqcn_rp_on_cnp(&d, &b, now),
                     "cnp results");
            FZ_CHECK(a.t_count == 0 && a.bc_count == 0 && a.bytes == 0, "counters restart");
        } else if (op == 1) {
            uint64_t bytes = fz_u8(&f) < 200 ? fz_u16(&f) * 64u : fz_u32(&f);
            FZ_CHECK(ibcc_dcqcn_rp_on_send(&d, &a, bytes, now)
                     == ibcc_dcqcn_rp_on_send(&d, &b, bytes, now), "send results");
        } else if (op == 2) {
            ibcc_dcqcn_rp_advance(&d, &a, now);
            ibcc_dcqcn_rp_advance(&d, &b, now);
        } else if (op == 3) {
            FZ_CHECK(ibcc_dcqcn_rp_rate(&d, &a, now) == ibcc_dcqcn_rp_rate(&d, &b, now),
                     "rates");
        } else {
            unsigned pkt = fz_u8(&f) & 0x7fu;
            unsigned w = (!(pkt & (IBCC_ACK | IBCC_CNP)) && (pkt & IBCC_ECN)
                          && (np_sent == 0 || now - np_last >= d.p.n)) ? IBCC_CNP : 0u;
            FZ_CHECK(ibcc_dcqcn_np_on_packet(&d, &np, pkt, now) == w, "np rule");
            if (w) { np_last = now; np_sent++; }
        }
        ibcc_dcqcn_rp_advance(&d, &a, now);
        ibcc_dcqcn_rp_advance(&d, &b, now);
        inv(&d, &a);
        FZ_CHECK(same(&a, &b), "lazy and eager timers agree (op %u)", op);
    }
    return 0;
}
