/* Fuzz harness: the switch output arbiter (ibcc_arbiter) against a naive
   reference that scans every buffer on every pick.

   Input: a description (policy, ports up to 70, capacity, bypass limit,
   callback or bitmap mode; possibly invalid), then operations: pushes
   (some out of range or into full buffers), picks on one output, picks
   over all outputs, input busy bits, output bitmap bits and changes of
   what the callback answers.

   The reference applies the documented rules literally. OLDEST: a packet
   of a free input is eligible for its output o when o can take it and
   either it is the head, or (1) no older packet of its buffer is bound
   for o, (2) every older packet that is the first of its buffer for its
   own output cannot go now, and (3) the head has been bypassed fewer than
   bypass_limit times; the oldest eligible packet (push order) wins. FIFO:
   heads only. RR: from the output's pointer, the first free input whose
   head is bound for the output and fits; the pointer moves past the
   winner; pick_any tries the outputs round robin from its own pointer.
   VOQ: as RR, with each input offering its oldest packet for the output
   wherever it sits in the buffer.

   Checked after every operation: each grant (input, output, size, tag,
   bypassed) or "none" equals the reference's, return codes of pushes and
   setters, every buffer's contents in order (peek), lengths, head bypass
   counts, busy bits; the callback is only asked about packets that are
   in the buffers; arbiter_defaults, size and init agree on validity. */
#include "fuzz.h"

#define MP 70
#define MC 16

typedef struct rpkt { uint64_t seq, tag; uint32_t size; unsigned out; } rpkt;

typedef struct ref {
    rpkt q[MP][MC];
    uint32_t len[MP], bypassed[MP];
    int busy[MP];
    uint32_t rr[MP], rr_out;
    uint64_t seq, grants, bypasses;
    int out_ok[MP];
} ref;

static ref r_;
static ibcc_arbiter_desc d_;
/* callback mode: output o takes a packet of `size` from `in` when
   ok[o] and size <= limit[o] and the (o, in) pair is not blocked */
static int cb_ok_[MP];
static uint32_t cb_limit_[MP];
static uint8_t cb_block_[MP][MP];
static long cb_bad_calls_;

static int cb_can(void *user, unsigned out, unsigned in, uint32_t size)
{
    uint32_t k;
    int found = 0;
    (void)user;
    /* only asked about packets that are queued at `in` for `out` */
    if (out >= d_.ports || in >= d_.ports) cb_bad_calls_++;
    else {
        for (k = 0; k < r_.len[in]; k++)
            if (r_.q[in][k].out == out && r_.q[in][k].size == size) found = 1;
        if (!found) cb_bad_calls_++;
    }
    return out < d_.ports && in < d_.ports && cb_ok_[out] && size <= cb_limit_[out]
           && !cb_block_[out][in];
}

static int can(unsigned out, unsigned in, uint32_t size)
{
    if (d_.can_send)
        return cb_ok_[out] && size <= cb_limit_[out] && !cb_block_[out][in];
    return r_.out_ok[out];
}

/* first packet of `in` bound for o at or before index k? */
static int first_for(unsigned in, uint32_t k)
{
    uint32_t j;
    for (j = 0; j < k; j++) if (r_.q[in][j].out == r_.q[in][k].out) return 0;
    return 1;
}

/* may packet k of `in` start now on its output? (OLDEST / FIFO rules) */
static int eligible(unsigned in, uint32_t k)
{
    uint32_t j;
    const rpkt *p = &r_.q[in][k];
    if (r_.busy[in] || k >= r_.len[in]) return 0;
    if (!can(p->out, in, p->size)) return 0;
    if (k == 0) return 1;
    if (d_.policy != IBCC_ARB_OLDEST || r_.bypassed[in] >= d_.bypass_limit) return 0;
    if (!first_for(in, k)) return 0;
    for (j = 0; j < k; j++)
        if (first_for(in, j) && can(r_.q[in][j].out, in, r_.q[in][j].size)) return 0;
    return 1;
}

static void take(unsigned in, uint32_t k, ibcc_arb_grant *g)
{
    rpkt p = r_.q[in][k];
    g->in = in; g->out = p.out; g->size = p.size; g->tag = p.tag; g->bypassed = k > 0;
    memmove(&r_.q[in][k], &r_.q[in][k + 1], (r_.len[in] - k - 1u) * sizeof(rpkt));
    r_.len[in]--;
    if (k == 0) r_.bypassed[in] = 0;
    else { r_.bypassed[in]++; r_.bypasses++; }
    r_.busy[in] = 1;
    r_.grants++;
}

/* OLDEST / FIFO pick on `want` (or any output when want == UINT32_MAX) */
static int ref_oldest(uint32_t want, ibcc_arb_grant *g)
{
    unsigned in, bin = 0;
    uint32_t k, bk = UINT32_MAX;
    uint64_t bseq = UINT64_MAX;
    for (in = 0; in < d_.ports; in++)
        for (k = 0; k < r_.len[in]; k++) {
            if (want != UINT32_MAX && r_.q[in][k].out != want) continue;
            if (!eligible(in, k)) continue;
            if (r_.q[in][k].seq < bseq) { bseq = r_.q[in][k].seq; bin = in; bk = k; }
            break;              /* later packets of this input are younger */
        }
    if (bk == UINT32_MAX) return 0;
    take(bin, bk, g);
    return 1;
}

static int ref_rr(unsigned out, ibcc_arb_grant *g)
{
    unsigned j, P = d_.ports;
    for (j = 0; j < P; j++) {
        unsigned in = (r_.rr[out] + j) % P;
        if (r_.busy[in] || r_.len[in] == 0 || r_.q[in][0].out != out) continue;
        if (!can(out, in, r_.q[in][0].size)) continue;
        r_.rr[out] = (in + 1u) % P;
        take(in, 0, g);
        return 1;
    }
    return 0;
}

/* VOQ: as RR, but an input offers its oldest packet for `out`, wherever
   it sits in the buffer */
static int ref_voq(unsigned out, ibcc_arb_grant *g)
{
    unsigned j, P = d_.ports;
    for (j = 0; j < P; j++) {
        unsigned in = (r_.rr[out] + j) % P;
        uint32_t k;
        if (r_.busy[in]) continue;
        for (k = 0; k < r_.len[in] && r_.q[in][k].out != out; k++) {}
        if (k == r_.len[in] || !can(out, in, r_.q[in][k].size)) continue;
        r_.rr[out] = (in + 1u) % P;
        take(in, k, g);
        return 1;
    }
    return 0;
}

static int ref_rr_any(ibcc_arb_grant *g)
{
    unsigned j, P = d_.ports;
    for (j = 0; j < P; j++) {
        unsigned o = (r_.rr_out + j) % P;
        if (d_.policy == IBCC_ARB_VOQ ? ref_voq(o, g) : ref_rr(o, g)) {
            r_.rr_out = (o + 1u) % P;
            return 1;
        }
    }
    return 0;
}

static void check_grant(int got, const ibcc_arb_grant *g, int want, const ibcc_arb_grant *w,
                        const char *what)
{
    FZ_CHECK(got == want, "%s: picked %d, reference %d", what, got, want);
    if (!got) return;
    FZ_CHECK(g->in == w->in && g->out == w->out && g->size == w->size && g->tag == w->tag
             && g->bypassed == w->bypassed,
             "%s: grant in %u out %u tag %llu bypassed %d, reference in %u out %u tag %llu bypassed %d",
             what, g->in, g->out, (unsigned long long)g->tag, g->bypassed, w->in, w->out,
             (unsigned long long)w->tag, w->bypassed);
}

static void check_state(const ibcc_arbiter *a)
{
    unsigned in;
    uint32_t k;
    FZ_CHECK(a->grants == r_.grants && a->bypasses == r_.bypasses, "grant counters");
    for (in = 0; in < d_.ports; in++) {
        FZ_CHECK(ibcc_arbiter_len(a, in) == r_.len[in], "len of %u: %u, reference %u", in,
                 ibcc_arbiter_len(a, in), r_.len[in]);
        FZ_CHECK(ibcc_arbiter_head_bypassed(a, in) == r_.bypassed[in], "bypass count of %u", in);
        FZ_CHECK(ibcc_arbiter_input_busy(a, in) == r_.busy[in], "busy of %u", in);
        for (k = 0; k < r_.len[in]; k++) {
            unsigned out;
            uint32_t size;
            uint64_t tag;
            FZ_CHECK(ibcc_arbiter_peek(a, in, k, &out, &size, &tag) == IBCC_OK, "peek");
            FZ_CHECK(out == r_.q[in][k].out && size == r_.q[in][k].size && tag == r_.q[in][k].tag,
                     "packet %u of input %u", k, in);
        }
        FZ_CHECK(ibcc_arbiter_peek(a, in, r_.len[in], NULL, NULL, NULL) == IBCC_ERR_RANGE,
                 "peek beyond the buffer");
    }
    FZ_CHECK(cb_bad_calls_ == 0, "can_send asked about a packet that is not queued");
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static uint64_t mem[6144];                 /* 70 ports x 16 packets: 40 KiB */
    fz f;
    ibcc_arbiter_desc d;
    ibcc_arbiter a;
    ibcc_result rd, ri;
    size_t need;
    unsigned ops = 0, i, j;

    fz_init(&f, data, size);
    memset(&d, 0, sizeof d);
    d.policy = (ibcc_arb_policy)(fz_u8(&f) % 5u);                /* 4: invalid */
    d.ports = fz_u8(&f) < 250 ? fz_range(&f, 0, MP) : fz_range(&f, 257, 300);
    d.capacity = fz_range(&f, 0, MC);
    d.bypass_limit = fz_u8(&f) < 250 ? fz_range(&f, 0, 6) : 70000u;
    if (fz_u8(&f) & 1u) d.can_send = cb_can;

    d_ = d;
    rd = ibcc_arbiter_defaults(&d_);
    {
        ibcc_result rs = ibcc_arbiter_size(&d, &need);
        FZ_CHECK(rs == rd && (rd == IBCC_OK ? need != 0 : need == 0),
                 "size %d (%zu bytes) vs defaults %d", (int)rs, need, (int)rd);
    }
    if (rd != IBCC_OK) {
        FZ_CHECK(ibcc_arbiter_init(&a, &d, mem, sizeof mem) == rd, "init vs defaults");
        return 0;
    }
    if (need > sizeof mem) return 0;
    ri = ibcc_arbiter_init(&a, &d, mem, sizeof mem);
    FZ_CHECK(ri == IBCC_OK, "init %d", (int)ri);
    memset(&r_, 0, sizeof r_);
    cb_bad_calls_ = 0;
    for (i = 0; i < MP; i++) {
        r_.out_ok[i] = 1;
        cb_ok_[i] = 1;
        cb_limit_[i] = UINT32_MAX;
        for (j = 0; j < MP; j++) cb_block_[i][j] = 0;
    }

    while (fz_more(&f) && ops++ < 3000u) {
        uint8_t op = fz_u8(&f);
        unsigned P = d_.ports;
        switch (op % 8u) {
        case 0: case 1: case 2: {                                /* push */
            unsigned in = fz_below(&f, P + (op >> 7)), out = fz_below(&f, P + ((op >> 6) & 1u));
            uint32_t sz = fz_range(&f, 1, 4096);
            uint64_t tag = fz_u64(&f);
            ibcc_result want = IBCC_OK, got;
            if (in >= P || out >= P) want = IBCC_ERR_RANGE;
            else if (r_.len[in] >= d_.capacity) want = IBCC_ERR_FULL;
            got = ibcc_arbiter_push(&a, in, out, sz, tag);
            FZ_CHECK(got == want, "push %d, reference %d", (int)got, (int)want);
            if (got == IBCC_OK) {
                rpkt *p = &r_.q[in][r_.len[in]];
                p->seq = r_.seq++; p->tag = tag; p->size = sz; p->out = out;
                if (r_.len[in] == 0) r_.bypassed[in] = 0;
                r_.len[in]++;
            }
            break;
        }
        case 3: {                                                /* pick(out) */
            unsigned out = fz_below(&f, P + 1u);
            ibcc_arb_grant g, w;
            int got, want = 0;
            memset(&g, 0, sizeof g);
            memset(&w, 0, sizeof w);
            got = ibcc_arbiter_pick(&a, out, &g);      /* first: the callback reads r_ */
            if (out < P)
                want = d_.policy == IBCC_ARB_RR ? ref_rr(out, &w)
                     : d_.policy == IBCC_ARB_VOQ ? ref_voq(out, &w)
                     : ref_oldest(out, &w);
            check_grant(got, &g, want, &w, "pick");
            break;
        }
        case 4: {                                                /* pick_any */
            ibcc_arb_grant g, w;
            int got, want;
            memset(&g, 0, sizeof g);
            memset(&w, 0, sizeof w);
            got = ibcc_arbiter_pick_any(&a, &g);
            want = (d_.policy == IBCC_ARB_RR || d_.policy == IBCC_ARB_VOQ)
                 ? ref_rr_any(&w) : ref_oldest(UINT32_MAX, &w);
            check_grant(got, &g, want, &w, "pick_any");
            break;
        }
        case 5: {                                                /* input busy */
            unsigned in = fz_below(&f, P + 1u);
            int b = fz_u8(&f) < 96;
            ibcc_result got = ibcc_arbiter_set_input_busy(&a, in, b);
            FZ_CHECK(got == (in < P ? IBCC_OK : IBCC_ERR_RANGE), "set_input_busy");
            if (in < P) r_.busy[in] = b;
            break;
        }
        case 6: {                                                /* outputs */
            unsigned out = fz_below(&f, P + 1u);
            int ok = fz_u8(&f) >= 96;
            ibcc_result got = ibcc_arbiter_set_output(&a, out, ok);
            FZ_CHECK(got == (out < P ? IBCC_OK : IBCC_ERR_RANGE), "set_output");
            if (out < P) r_.out_ok[out] = ok;
            if (out < P) {                                       /* callback answers */
                cb_ok_[out] = ok;
                cb_limit_[out] = fz_u8(&f) < 128 ? UINT32_MAX : fz_range(&f, 1, 4096);
                cb_block_[out][fz_below(&f, P)] = (uint8_t)(fz_u8(&f) & 1u);
            }
            break;
        }
        default:                                                 /* errors */
            FZ_CHECK(ibcc_arbiter_pick(&a, P, NULL) == 0, "pick with no grant");
            FZ_CHECK(ibcc_arbiter_push(NULL, 0, 0, 1, 0) == IBCC_ERR_NULL, "push NULL");
            break;
        }
        check_state(&a);
    }
    return 0;
}
