/* Fuzz harness: HPCC sender window (ibcc_hpcc).

   Input: a description (any field values, zeros for defaults), then ACKs
   with INT records (0 to 9 hops, timestamps moving forward or not,
   counters and queues of any size).

   Checked: init/defaults agree and refuse exactly the documented ranges
   (reference below); after every ACK W_AI <= W <= W_init (W_init before
   the first measured ACK), W_c <= W_init, incStage <= maxStage + 1 (it
   is reset once it reaches maxStage), lastUpdateSeq moves to snd_nxt
   exactly on a first record, a path change or an ACK above it, the rate
   is floor(W 10^12 / T), and the stored record equals the ACK's. */
#include "fuzz.h"

static int valid_ref(const ibcc_hpcc_desc *in, uint64_t *w_init, uint64_t *w_ai)
{
    const uint64_t ps = UINT64_C(1000000000000);
    ibcc_hpcc_desc d = *in;
    if (!d.line_rate) d.line_rate = IBCC_GBITS(100);
    if (!d.base_rtt) d.base_rtt = IBCC_US(10);
    if (!d.eta) d.eta = 950000u;
    if (!d.max_stage) d.max_stage = 5u;
    if (d.line_rate > (UINT64_C(1) << 62) || d.base_rtt > IBCC_S(1) || d.eta > 1000000u
        || (d.max_stage > (UINT32_C(1) << 31) && d.max_stage != IBCC_HPCC_STAGE_ZERO))
        return 0;
    if (!d.w_init) {
        /* line_rate x T / 10^12 as (line_rate / 10^6) x (T / 10^6)
           plus the cross terms, exactly */
        uint64_t ah = d.line_rate / 1000000u, al = d.line_rate % 1000000u;
        uint64_t bh = d.base_rtt / 1000000u, bl = d.base_rtt % 1000000u;
        d.w_init = ah * bh + (ah * bl + al * bh + (al * bl) / 1000000u) / 1000000u;
        if (d.w_init == 0) return 0;
    }
    if (!d.w_ai) {
        d.w_ai = (UINT64_C(6250000) * d.base_rtt + ps - 1u) / ps;
        if (!d.w_ai) d.w_ai = 1;
    }
    *w_init = d.w_init;
    *w_ai = d.w_ai;
    return d.w_init <= (UINT64_C(1) << 48) && d.w_ai <= d.w_init;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    fz f;
    ibcc_hpcc_desc e, c;
    ibcc_hpcc h;
    ibcc_int_record r;
    ibcc_time ts[IBCC_INT_MAX_HOPS] = {0};
    uint64_t tx[IBCC_INT_MAX_HOPS] = {0}, w_init = 0, w_ai = 0, seq = 0, nxt = 0;
    unsigned ops = 0, sel, i, max_stage;
    int want, measured = 0;
    fz_init(&f, data, size);
    memset(&e, 0, sizeof e);
    sel = fz_u8(&f);
    if (sel & 1u) e.line_rate = fz_u8(&f) < 200 ? IBCC_GBITS(fz_range(&f, 1, 800)) : fz_u64(&f);
    if (sel & 2u) e.base_rtt = fz_u8(&f) < 200 ? IBCC_NS(fz_range(&f, 1, 100000)) : fz_u64(&f);
    if (sel & 4u) e.eta = fz_u8(&f) < 200 ? fz_range(&f, 1, 1000000) : fz_u32(&f);
    if (sel & 8u) e.max_stage = fz_u8(&f) < 200 ? fz_range(&f, 0, 12) : fz_u32(&f);
    if (sel & 16u) e.w_ai = fz_u8(&f) < 200 ? fz_range(&f, 1, 5000) : fz_u64(&f);
    if (sel & 32u) e.w_init = fz_u8(&f) < 200 ? fz_range(&f, 1, 1000000) : fz_u64(&f);
    want = valid_ref(&e, &w_init, &w_ai);
    c = e;
    FZ_CHECK((ibcc_hpcc_init(&h, &e) == IBCC_OK) == want, "init vs reference");
    FZ_CHECK((ibcc_hpcc_defaults(&c) == IBCC_OK) == want, "defaults vs reference");
    if (!want) return 0;
    FZ_CHECK(h.p.w_init == w_init && h.p.w_ai == w_ai, "effective windows");
    max_stage = h.p.max_stage == IBCC_HPCC_STAGE_ZERO ? 0u : h.p.max_stage;
    while (fz_more(&f) && ops++ < 300u) {
        unsigned n = fz_range(&f, 0, 9);
        uint64_t ack, w, prev_last = h.last_update_seq;
        int first = !h.have_l || h.l.nhop != (n < IBCC_INT_MAX_HOPS ? n : IBCC_INT_MAX_HOPS);
        ibcc_int_clear(&r);
        for (i = 0; i < n; i++) {
            uint8_t k = fz_u8(&f);
            unsigned j = i < IBCC_INT_MAX_HOPS ? i : 0u;
            ibcc_rate rate = k < 240 ? IBCC_GBITS(fz_range(&f, 0, 400)) : fz_u64(&f);
            ts[j] += k < 200 ? (ibcc_time)fz_u16(&f) * IBCC_NS(1) : (k < 230 ? 0 : fz_u64(&f));
            tx[j] += k < 200 ? fz_u16(&f) : fz_u64(&f);
            (void)ibcc_int_push(&r, ts[j], k < 220 ? fz_u16(&f) : fz_u64(&f), tx[j], rate);
        }
        seq += fz_u8(&f) * 64u;
        nxt = seq + fz_u16(&f);
        ack = fz_u8(&f) < 240 ? seq : fz_u64(&f);
        w = ibcc_hpcc_on_ack(&h, ack, nxt, &r);
        if (!first) measured = 1;
        FZ_CHECK(w == h.w && w <= w_init, "W %llu above W_init", (unsigned long long)w);
        if (measured) FZ_CHECK(w >= w_ai, "W below W_AI");
        else FZ_CHECK(w == w_init, "W_init before any measurement");
        FZ_CHECK(h.wc <= w_init, "W_c above W_init");
        FZ_CHECK(h.inc_stage <= max_stage + 1u, "incStage beyond maxStage");
        FZ_CHECK(h.last_update_seq == ((first || ack > prev_last) ? nxt : prev_last),
                 "lastUpdateSeq");
        FZ_CHECK(h.l.nhop == r.nhop && memcmp(h.l.hop, r.hop, r.nhop * sizeof r.hop[0]) == 0,
                 "L = the ACK's record");
        if (w <= UINT32_MAX && h.p.base_rtt >= IBCC_US(1)) {
            /* floor(W 10^12 / T) in two exact steps (W 10^6 < 2^53) */
            uint64_t q = w * 1000000u;
            ibcc_rate want_rate = (q / h.p.base_rtt) * 1000000u
                                  + ((q % h.p.base_rtt) * 1000000u) / h.p.base_rtt;
            FZ_CHECK(ibcc_hpcc_rate(&h) == want_rate, "rate W / T");
        }
    }
    return 0;
}
