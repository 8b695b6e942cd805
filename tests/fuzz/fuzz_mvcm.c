/* Fuzz harness: MVCM's dynamic window and waiting slots (ibcc_mvcm) and
   its window-size helpers.

   Input: a description (flows, DWmax, k, n, WS, flags; possibly invalid),
   then ACKs carrying any header bits, resets on injection into an empty
   queue, single-flow steps on caller-held state, and helper calls with
   arbitrary numbers.

   The reference is the rule list of the header: warm (MB only) lowers DW
   by one down to 1 unless NO_WARM; hot (MB and VB) lowers DW while it is
   above 1, then sets nWS = 1 and multiplies it by k at most n times
   (always with NO_CAP, saturating at 2^32 - 1); a cold ACK clears nWS
   when it is above 0 and otherwise raises DW by one up to DWmax; a reset
   (or init) gives DW = DWmax, nWS = 0. With MB_ONLY a warm ACK is hot.

   Checked: class, DW, nWS and mults of every flow after
   every ACK; 1 <= DW <= DWmax; with the cap, nWS is 0 or k^mults with
   mults <= n; the waiting interval nWS * WS saturating; the single-flow
   step equals the array step; flows out of range are ignored; defaults,
   size and init agree. Helpers: omega against its formula and >= 1,
   omega_bounds enclose omega over the data sizes, dw_max = the smallest
   integer >= omega - 1e-9, rtt_min = 2 h t_hop + ceil(L_data 10^12 / B) +
   ceil(L_ack 10^12 / B) or OVERFLOW, exactly. */
#include "fuzz.h"
#include <math.h>

__extension__ typedef unsigned __int128 fz_u128;

#define MF 16

typedef struct rflow { uint32_t dw, nws, mults; } rflow;

static uint32_t dwmax_, k_, n_;
static unsigned flags_;

static int ref_step(rflow *f, unsigned bits)
{
    int cls = !(bits & IBCC_MB) ? 0 : ((bits & IBCC_VB) ? 2 : 1);
    if (cls == 1 && (flags_ & IBCC_MVCM_MB_ONLY)) cls = 2;
    if (cls == 1) {
        if (!(flags_ & IBCC_MVCM_NO_WARM) && f->dw > 1) f->dw--;
    } else if (cls == 2) {
        if (f->dw > 1) f->dw--;
        else if (f->nws == 0) { f->nws = 1; f->mults = 0; }
        else if ((flags_ & IBCC_MVCM_NO_CAP) || f->mults < n_) {
            uint64_t x = (uint64_t)f->nws * k_;
            f->nws = x > 0xffffffffu ? 0xffffffffu : (uint32_t)x;
            if (f->mults < 0xffffu) f->mults++;
        }
    } else {
        if (f->nws > 0) { f->nws = 0; f->mults = 0; }
        else if (f->dw < dwmax_) f->dw++;
    }
    return cls;
}

static void ref_reset(rflow *f)
{
    f->dw = dwmax_; f->nws = 0; f->mults = 0;
}

static void same(const ibcc_mvcm_flow *g, const rflow *r, uint32_t i)
{
    FZ_CHECK(g->dw == r->dw && g->nws == r->nws && g->mults == r->mults,
             "flow %u: dw %u nws %u mults %u, reference dw %u nws %u mults %u",
             i, g->dw, g->nws, g->mults, r->dw, r->nws, r->mults);
    FZ_CHECK(g->dw >= 1 && g->dw <= dwmax_, "window %u outside [1, %u]", g->dw, dwmax_);
    if (!(flags_ & IBCC_MVCM_NO_CAP) && g->nws != 0) {
        uint64_t p = 1;
        uint32_t j;
        FZ_CHECK(g->mults <= n_, "mults %u above n %u", g->mults, n_);
        for (j = 0; j < g->mults && p <= 0xffffffffu; j++) p *= k_;
        FZ_CHECK(p == g->nws || (p > 0xffffffffu && g->nws == 0xffffffffu),
                 "nws %u is not k^mults (k %u, mults %u)", g->nws, k_, g->mults);
    }
}

static double pick_double(fz *f)
{
    switch (fz_u8(f) % 6u) {
    case 0: return (double)fz_u16(f);
    case 1: return (double)fz_u32(f) / 1000.0;
    case 2: return -(double)fz_u8(f);
    case 3: return fz_u8(f) & 1u ? nan("") : HUGE_VAL;
    case 4: return 1e300 * (double)fz_u8(f);
    default: return (double)fz_u8(f) / 16.0;
    }
}

static void helpers(fz *f)
{
    uint32_t h = fz_u8(f) < 250 ? fz_range(f, 0, 10) : fz_u32(f);
    double hb = pick_double(f), ld = pick_double(f), la = pick_double(f), w = -1.0;
    double lo = -1, hi = -1, mx = pick_double(f);
    ibcc_result r = ibcc_mvcm_omega(h, hb, ld, la, &w);
    int ok_in = hb >= 0 && hb < 1e300 && la >= 0 && la < 1e300 && ld > 0 && ld < 1e300;
    if (!ok_in) FZ_CHECK(r == IBCC_ERR_RANGE, "omega accepted a bad input");
    if (r == IBCC_OK) {
        double want = (2.0 * h * hb + ld + la) / ld;
        uint32_t dw = 0;
        ibcc_result rd;
        FZ_CHECK(w == want && w >= 1.0, "omega %.17g, formula %.17g", w, want);
        rd = ibcc_mvcm_dw_max(w, &dw);
        if (rd == IBCC_OK)
            /* the smallest integer >= omega - 1e-9 (1e-11: rounding of
               the subtraction) */
            FZ_CHECK((double)dw >= w - 1e-9 - 1e-11 && (double)dw < w - 1e-9 + 1.0 + 1e-11
                     && dw >= 1 && dw <= 65535u, "dw_max %u for omega %.17g", dw, w);
        else
            FZ_CHECK(rd == IBCC_ERR_RANGE && w > 65535.0, "dw_max refused omega %.17g", w);
        /* bounds over [ld, mx] enclose omega(ld) and omega(mx) */
        if (ibcc_mvcm_omega_bounds(h, hb, ld, mx, la, &lo, &hi) == IBCC_OK) {
            double wm = -1.0;
            FZ_CHECK(lo <= w * (1 + 1e-12) && w <= hi * (1 + 1e-12), "omega(min) outside its bounds");
            if (ibcc_mvcm_omega(h, hb, mx, la, &wm) == IBCC_OK)
                FZ_CHECK(lo <= wm * (1 + 1e-12) && wm <= hi * (1 + 1e-12), "omega(max) outside its bounds");
        } else {
            FZ_CHECK(!(mx >= ld && mx < 1e300), "omega_bounds refused %.17g..%.17g", ld, mx);
        }
    }
    FZ_CHECK(ibcc_mvcm_dw_max(pick_double(f), NULL) == IBCC_ERR_NULL, "dw_max NULL");
    {
        ibcc_time th = fz_u8(f) < 200 ? fz_u32(f) : fz_u64(f), out = 0;
        ibcc_rate rate = fz_u8(f) < 8 ? 0 : fz_u64(f) >> (fz_u8(f) % 64u);
        uint32_t lda = fz_u8(f) < 8 ? 0 : fz_u32(f), lak = fz_u32(f);
        ibcc_result rr = ibcc_mvcm_rtt_min(h, th, rate, lda, lak, &out), want = IBCC_OK;
        fz_u128 tot = 0;
        if (rate == 0 || lda == 0) want = IBCC_ERR_RANGE;
        else {
            fz_u128 wd = ((fz_u128)lda * 1000000000000u + rate - 1u) / rate;
            fz_u128 wa = ((fz_u128)lak * 1000000000000u + rate - 1u) / rate;
            tot = (fz_u128)h * 2u * th + wd + wa;
            if (wd > UINT64_MAX || wa > UINT64_MAX || tot > UINT64_MAX) want = IBCC_ERR_OVERFLOW;
        }
        FZ_CHECK(rr == want, "rtt_min %d, reference %d", (int)rr, (int)want);
        if (rr == IBCC_OK) FZ_CHECK(out == (uint64_t)tot, "rtt_min value");
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static uint64_t mem[MF];
    fz f;
    ibcc_mvcm_desc d, e;
    ibcc_mvcm a;
    ibcc_result rd, ri;
    size_t need;
    rflow rf[MF];
    uint32_t i, flows;
    unsigned ops = 0;

    fz_init(&f, data, size);
    memset(&d, 0, sizeof d);
    d.flows = fz_u8(&f) < 250 ? fz_range(&f, 0, MF) : UINT32_C(0x80000000);
    d.dw_max = fz_u8(&f) < 250 ? fz_range(&f, 0, 12) : 70000u;
    d.k = fz_u8(&f) < 250 ? fz_range(&f, 0, 9) : 65536u;
    d.n = fz_range(&f, 0, 66);
    d.ws = fz_u8(&f) < 8 ? 0 : (fz_u8(&f) < 200 ? fz_u32(&f) : fz_u64(&f));
    d.flags = fz_below(&f, 9);   /* 8: an unknown flag */
    e = d;
    rd = ibcc_mvcm_defaults(&e);
    {
        ibcc_result rs = ibcc_mvcm_size(&d, &need);
        FZ_CHECK(rs == rd && (rd == IBCC_OK ? need != 0 : need == 0),
                 "size %d (%zu bytes) vs defaults %d", (int)rs, need, (int)rd);
    }
    if (rd == IBCC_OK && need > sizeof mem) return 0;
    ri = ibcc_mvcm_init(&a, &d, mem, sizeof mem);
    FZ_CHECK(ri == rd, "init %d vs defaults %d", (int)ri, (int)rd);
    if (ri != IBCC_OK) { helpers(&f); return 0; }
    dwmax_ = e.dw_max; k_ = e.k; n_ = e.n; flags_ = e.flags;
    flows = e.flows;
    for (i = 0; i < flows; i++) {
        ref_reset(&rf[i]);
        same(ibcc_mvcm_state(&a, i), &rf[i], i);
    }
    while (fz_more(&f) && ops++ < 5000u) {
        uint8_t op = fz_u8(&f);
        uint32_t fl = fz_below(&f, flows + 1u);
        switch (op % 8u) {
        case 0: case 1: case 2: case 3: case 4: {
            unsigned bits = fz_u8(&f);
            int got = ibcc_mvcm_on_ack(&a, fl, bits);
            if (fl >= flows) { FZ_CHECK(got == -1, "ACK of an unknown flow"); break; }
            FZ_CHECK(got == ref_step(&rf[fl], bits), "class of bits %#x", bits);
            FZ_CHECK(got == ((flags_ & IBCC_MVCM_MB_ONLY) && ibcc_mvcm_class(bits) == IBCC_MVCM_WARM
                             ? IBCC_MVCM_HOT : ibcc_mvcm_class(bits)),
                     "class vs ibcc_mvcm_class (MB_ONLY: warm applied as hot)");
            break;
        }
        case 5:
            ibcc_mvcm_on_inject_empty(&a, fl);
            if (fl < flows) ref_reset(&rf[fl]);
            break;
        case 6: {                                    /* caller-held state */
            ibcc_mvcm_flow g;
            rflow r;
            unsigned bits = fz_u8(&f);
            if (fl >= flows) break;
            g = *ibcc_mvcm_state(&a, fl);
            r = rf[fl];
            FZ_CHECK(ibcc_mvcm_step(&a, &g, bits) == ref_step(&r, bits), "step class");
            same(&g, &r, fl);
            if (op & 0x80) { ibcc_mvcm_flow_reset(&a, &g); ref_reset(&r); same(&g, &r, fl); }
            break;
        }
        default:
            helpers(&f);
            break;
        }
        if (fl < flows) {
            ibcc_time want;
            same(ibcc_mvcm_state(&a, fl), &rf[fl], fl);
            FZ_CHECK(ibcc_mvcm_window(&a, fl) == rf[fl].dw, "window");
            want = (rf[fl].nws != 0 && e.ws > UINT64_MAX / rf[fl].nws) ? UINT64_MAX
                   : e.ws * rf[fl].nws;
            FZ_CHECK(ibcc_mvcm_wait(&a, fl) == want, "wait");
        } else {
            FZ_CHECK(ibcc_mvcm_window(&a, fl) == 0 && ibcc_mvcm_wait(&a, fl) == 0
                     && ibcc_mvcm_state(&a, fl) == NULL, "unknown flow queries");
        }
    }
    for (i = 0; i < flows; i++) same(ibcc_mvcm_state(&a, i), &rf[i], i);
    return 0;
}
