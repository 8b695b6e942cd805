/* Fuzz harness: VL arbitration (ibcc_vlarb) against a reference that
   follows the documented rules with its own bookkeeping, and its text
   forms.

   Input: byte 0 selects the mode. Even: a description (vls, possibly not
   1/2/4/8/15; limit, possibly above 255; up to 65 entries per table with
   VLs up to 15, possibly beyond the port's), then operations: picks with
   a ready mask (16 bits, VL15's bit included), sends of a length (1 ..
   65536, 0 now and then) of the picked VL or of another. Odd: the rest
   of the input is a table text, then a limit text.

   The reference keeps, per table, the current entry and the bytes its
   turn has sent (a turn ends when they reach the weight), and the
   high-priority bytes since the low table last sent or had nothing
   ready. A table can send when one of its entries of non-zero weight
   names a ready VL; the high table sends first unless the low table can
   and the limit (not 255) is reached (count > 0 and count >= limit *
   4096). Checked after every operation: pick result and VL, sent codes,
   per-VL byte counts; defaults, size and init agree on validity.
   Text: a table that parses prints and parses back to the same entries;
   a parse that fails leaves the outputs alone; spoiled text is PARSE;
   a limit that parses is at most 255. */
#include "fuzz.h"

typedef struct rtab { uint32_t cur; uint64_t used; } rtab;

static ibcc_vlarb_desc d_;
static rtab rt_[2];
static uint64_t run_, bytes_[16];
static int pend_;            /* 0 none, 1 high, 2 low */
static unsigned pend_vl_;

static const ibcc_vlarb_entry *tab(unsigned t, uint32_t *n)
{
    *n = t ? d_.n_low : d_.n_high;
    return t ? d_.low : d_.high;
}

/* The entry table t would serve for `ready`: -1 for none. Walks from the
   current entry: the current one counts with the bytes its turn has
   sent, the others (and the current one again, after a full round) as
   fresh turns. */
static long ref_find(unsigned t, uint32_t ready, uint64_t *used)
{
    uint32_t n, k;
    const ibcc_vlarb_entry *e = tab(t, &n);
    for (k = 0; k <= n && n > 0; k++) {
        uint32_t i = (rt_[t].cur + k) % n;
        uint64_t u = k == 0 ? rt_[t].used : 0;
        if (u < (uint64_t)e[i].weight * 64u && ((ready >> e[i].vl) & 1u)) {
            *used = u;
            return (long)i;
        }
    }
    return -1;
}

static int ref_pick(uint32_t ready, unsigned *vl)
{
    uint64_t uh = 0, ul = 0;
    long h, l;
    unsigned t;
    uint32_t n;
    ready &= (1u << d_.vls) - 1u;
    h = ref_find(0, ready, &uh);
    l = ref_find(1, ready, &ul);
    if (l < 0) run_ = 0;
    if (h >= 0 && l >= 0 && d_.high_limit != 255u && run_ > 0
        && run_ >= (uint64_t)d_.high_limit * 4096u) t = 1;
    else if (h >= 0) t = 0;
    else if (l >= 0) t = 1;
    else return 0;
    rt_[t].cur = (uint32_t)(t ? l : h);
    rt_[t].used = t ? ul : uh;
    pend_ = (int)t + 1;
    pend_vl_ = tab(t, &n)[rt_[t].cur].vl;
    *vl = pend_vl_;
    return 1;
}

static ibcc_result ref_sent(unsigned vl, uint32_t bytes)
{
    unsigned t;
    uint32_t n;
    const ibcc_vlarb_entry *e;
    if (vl >= d_.vls || bytes == 0) return IBCC_ERR_RANGE;
    if (!pend_ || vl != pend_vl_) return IBCC_ERR_MISMATCH;
    t = (unsigned)pend_ - 1u;
    e = tab(t, &n);
    rt_[t].used += bytes;
    if (rt_[t].used >= (uint64_t)e[rt_[t].cur].weight * 64u) {
        rt_[t].cur = (rt_[t].cur + 1u) % n;
        rt_[t].used = 0;
    }
    if (t == 0) run_ += bytes; else run_ = 0;
    bytes_[vl] += bytes;
    pend_ = 0;
    return IBCC_OK;
}

static void steps(fz *f)
{
    static const uint32_t vls[8] = { 1, 2, 4, 8, 15, 0, 3, 16 };
    ibcc_vlarb_desc d, e;
    ibcc_vlarb a;
    ibcc_result rd, rs, ri;
    size_t sz = 1;
    uint32_t i;
    int ops = 0;
    memset(&d, 0, sizeof d);
    d.vls = vls[fz_u8(f) & 7u];
    d.high_limit = fz_u8(f);
    if (d.high_limit == 254u && fz_u8(f) == 0) d.high_limit = 256u;
    d.n_high = fz_below(f, 66);
    d.n_low = fz_below(f, 66);
    for (i = 0; i < 64u && i < d.n_high; i++) {
        d.high[i].vl = (uint8_t)(fz_u8(f) % 16u);
        d.high[i].weight = fz_u8(f);
    }
    for (i = 0; i < 64u && i < d.n_low; i++) {
        d.low[i].vl = (uint8_t)(fz_u8(f) % 16u);
        d.low[i].weight = fz_u8(f);
    }
    e = d;
    rd = ibcc_vlarb_defaults(&e);
    rs = ibcc_vlarb_size(&d, &sz);
    ri = ibcc_vlarb_init(&a, &d, NULL, 0);
    FZ_CHECK(rd == rs && rs == ri, "defaults %d size %d init %d", rd, rs, ri);
    if (rd != IBCC_OK) {
        FZ_CHECK(sz == 0 && memcmp(&e, &d, sizeof d) == 0, "refused desc changed");
        return;
    }
    FZ_CHECK(sz == 0, "size %zu", sz);
    d_ = e;
    memset(rt_, 0, sizeof rt_);
    memset(bytes_, 0, sizeof bytes_);
    run_ = 0;
    pend_ = 0;
    while (fz_more(f) && ops++ < 4000) {
        uint8_t op = fz_u8(f);
        if (op < 160) {
            uint32_t ready = fz_u16(f);
            unsigned vl = 99, rvl = 98;
            int got = ibcc_vlarb_pick(&a, ready, &vl);
            int want = ref_pick(ready, &rvl);
            FZ_CHECK(got == want, "pick %d, reference %d (ready %x)", got, want, ready);
            if (got) FZ_CHECK(vl == rvl, "pick VL %u, reference %u", vl, rvl);
            if (got && op < 150) {         /* usually send what was picked */
                uint32_t len = (uint32_t)fz_u16(f) + 1u;
                ibcc_result r = ibcc_vlarb_sent(&a, vl, len);
                ibcc_result w = ref_sent(vl, len);
                FZ_CHECK(r == w && r == IBCC_OK, "sent %d, reference %d", r, w);
            }
        } else {
            unsigned vl = fz_u8(f) % 17u;
            uint32_t len = op < 200 ? 0u : (uint32_t)fz_u16(f) + 1u;
            ibcc_result r = ibcc_vlarb_sent(&a, vl, len);
            ibcc_result w = ref_sent(vl, len);
            FZ_CHECK(r == w, "stray sent %d, reference %d", r, w);
        }
        for (i = 0; i < 16u; i++)
            FZ_CHECK(ibcc_vlarb_bytes(&a, i) == (i < d_.vls ? bytes_[i] : 0u),
                     "bytes of VL %u", i);
    }
}

static void text(fz *f)
{
    char t[FZ_MAXTEXT + 1], out[1024];
    ibcc_vlarb_entry e[64], e2[64];
    uint32_t n = 777, n2 = 0, cap, lim = 777;
    size_t len = 0;
    ibcc_result r;
    cap = fz_below(f, 70);
    while (fz_more(f) && len < FZ_MAXTEXT) {
        char ch = (char)fz_u8(f);
        if (ch == '\0') break;
        t[len++] = ch;
    }
    t[len] = '\0';
    memset(e, 0xa5, sizeof e);
    r = ibcc_vlarb_parse_table(t, e, cap, &n);
    if (r == IBCC_OK) {
        FZ_CHECK(n <= cap && n <= 64u, "n %u cap %u", n, cap);
        FZ_CHECK(ibcc_vlarb_print_table(e, n, out, sizeof out) == IBCC_OK, "print");
        FZ_CHECK(ibcc_vlarb_parse_table(out, e2, 64, &n2) == IBCC_OK && n2 == n
                 && memcmp(e, e2, n * sizeof e[0]) == 0, "round trip of '%s'", out);
    } else {
        uint32_t i;
        FZ_CHECK(r == IBCC_ERR_PARSE || r == IBCC_ERR_RANGE || r == IBCC_ERR_CAPACITY,
                 "code %d", r);
        FZ_CHECK(n == 777u, "n written on error");
        for (i = 0; i < 64u; i++)
            FZ_CHECK(e[i].vl == 0xa5 && e[i].weight == 0xa5, "entry written on error");
    }
    FZ_CHECK(ibcc_vlarb_parse_table(fz_spoiled(t), e, 64, &n2) == IBCC_ERR_PARSE,
             "spoiled table text");
    r = ibcc_vlarb_parse_limit(t, &lim);
    if (r == IBCC_OK) FZ_CHECK(lim <= 255u, "limit %u", lim);
    else FZ_CHECK(lim == 777u, "limit written on error");
    FZ_CHECK(ibcc_vlarb_parse_limit(fz_spoiled(t), &lim) == IBCC_ERR_PARSE,
             "spoiled limit text");
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    fz f;
    fz_init(&f, data, size);
    if (fz_u8(&f) & 1u) text(&f);
    else steps(&f);
    return 0;
}
