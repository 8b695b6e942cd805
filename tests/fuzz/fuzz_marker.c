/* Fuzz harness: the switch marking engines (ibcc_marker) against a shadow
   model that keeps every packet.

   Input: a description (engine, unit, organisation, classification, hold,
   ports up to 70 so that port bitmaps span two words, capacities,
   trigger, T_out, MVPM thresholds, IBA fields, Victim_Mask, random or
   counted Marking_Rate; possibly invalid), then events: arrivals,
   departures (the oldest packet of the chosen input/output pair, as the
   arbiter keeps them), CIOQ leaves, hold releases, busy bits, IBA port
   settings and victim bits, clear, and events that must be rejected
   (ports out of range, departures with no packet, full buffers, leaves
   and releases with nothing to take).

   The model keeps the packets of each input buffer in arrival order, the
   held packets and the output buffers, and computes cnt1, occupancy and
   levels by scanning them. Its marking follows the documented rules:
   NAIVE flags every packet resident in the buffer (for BUSY: bound for a
   busy output) when an arrival makes occupancy reach the trigger, and a
   flagged packet is marked when it leaves; INPUT / INPUT_OUTPUT copy
   cnt2[o] = cnt1[o] for the outputs of the triggering buffer (and, I/O,
   for the arrival's output when cnt1 > T_out) and mark departures while
   cnt2 > 0; IBA marks when the queue behind the departing packet (level
   without it; CIOQ: the output buffer before it enters) > out_capacity
   (16 - w) / 16, the port
   has credits or its Victim_Mask bit, the packet is at least 64 *
   Packet_Size bytes and the Marking_Rate counter (or the same random
   draws) allows it; MVPM sets MB when the occupancy the packet finds is
   above the input threshold and VB when an MB packet leaves through an
   output whose level is above the output threshold; ECN marks with the
   RED probability on the queue behind the packet in bytes (credits x
   64), drawing from a mirror of the marker's own stream.

   Checked after every event: the returned bits, occupancy, packets,
   cnt1, cnt2 (and cnt2 <= cnt1), levels, waiting counts, NAIVE pending
   marks, IBA threshold levels and congestion state, every counter of the
   stats (rejected events counted with the right code, state untouched);
   marker_defaults, marker_size and marker_init agree on validity. */
#include "fuzz.h"

#define MP 70
#define MQ 128                      /* packets per input buffer */
#define MO 256                      /* packets per output buffer */

typedef struct pkt { uint32_t size; uint16_t out; uint8_t flag; } pkt;

typedef struct shadow {
    pkt q[MP][MQ];                  /* resident, arrival order */
    uint32_t qn[MP];
    uint32_t held[MP][MQ];          /* held (hold = 1) sizes, FIFO */
    uint32_t hn[MP];
    uint32_t ob[MP][MO];            /* CIOQ output buffers, FIFO */
    uint32_t on[MP];
    uint32_t cnt2[MP];
    unsigned iw[MP], ipsize[MP], irate[MP], iskip[MP];
    int busy[MP], victim[MP];
    ibcc_marker_stats st;
} shadow;

static shadow sh_;
static ibcc_marker_desc d_;         /* effective */
static ibcc_rng rng_lib_, rng_ref_;
static ibcc_rng rng_ecn_;           /* ECN: the marker's own stream, mirrored */

static uint32_t units(uint32_t size)
{
    uint32_t u;
    if (d_.unit != IBCC_UNIT_CREDITS) return 1;
    u = size / 64u + (size % 64u != 0);
    return u ? u : 1u;
}
static uint32_t occ(unsigned in)
{
    uint32_t k, s = 0;
    for (k = 0; k < sh_.qn[in]; k++) s += units(sh_.q[in][k].size);
    for (k = 0; k < sh_.hn[in]; k++) s += units(sh_.held[in][k]);
    return s;
}
static uint32_t cnt1(unsigned o)
{
    unsigned in;
    uint32_t k, n = 0;
    for (in = 0; in < d_.ports; in++)
        for (k = 0; k < sh_.qn[in]; k++) n += sh_.q[in][k].out == o;
    return n;
}
static uint32_t level(unsigned o)
{
    unsigned in;
    uint32_t k, s = 0;
    if (d_.org == IBCC_ORG_CIOQ) {
        for (k = 0; k < sh_.on[o]; k++) s += units(sh_.ob[o][k]);
        return s;
    }
    for (in = 0; in < d_.ports; in++)
        for (k = 0; k < sh_.qn[in]; k++)
            if (sh_.q[in][k].out == o) s += units(sh_.q[in][k].size);
    return s;
}
/* cnt1 and level of every output in one pass */
static void all_counts(uint32_t *c1, uint32_t *lv)
{
    unsigned in, o;
    uint32_t k;
    memset(c1, 0, MP * sizeof *c1);
    memset(lv, 0, MP * sizeof *lv);
    for (in = 0; in < d_.ports; in++)
        for (k = 0; k < sh_.qn[in]; k++) {
            c1[sh_.q[in][k].out]++;
            if (d_.org != IBCC_ORG_CIOQ) lv[sh_.q[in][k].out] += units(sh_.q[in][k].size);
        }
    if (d_.org == IBCC_ORG_CIOQ)
        for (o = 0; o < d_.ports; o++)
            for (k = 0; k < sh_.on[o]; k++) lv[o] += units(sh_.ob[o][k]);
}
static uint32_t iba_level(unsigned o)
{
    if (sh_.iw[o] == 0) return UINT32_MAX;
    return (uint32_t)(((uint64_t)d_.out_capacity * (16u - sh_.iw[o])) / 16u);
}
static void reject(ibcc_result r)
{
    sh_.st.errors++;
    sh_.st.last_error = r;
}

static void trigger(unsigned in)
{
    unsigned o;
    uint32_t k, c1[MP], lv[MP];
    all_counts(c1, lv);
    sh_.st.in_triggers++;
    for (o = 0; o < d_.ports; o++) {
        int has = 0;
        for (k = 0; k < sh_.qn[in]; k++) if (sh_.q[in][k].out == o) has = 1;
        if (!has || (d_.classify == IBCC_CLASSIFY_BUSY && !sh_.busy[o])) continue;
        sh_.st.out_triggers++;
        if (d_.engine == IBCC_MARKER_NAIVE) {
            for (k = 0; k < sh_.qn[in]; k++)
                if (sh_.q[in][k].out == o) sh_.q[in][k].flag = 1;
        } else {
            sh_.cnt2[o] = c1[o];
        }
    }
}

static unsigned ref_arrive(unsigned in, unsigned out, uint32_t size)
{
    uint32_t u, found;
    unsigned bits = 0;
    if (in >= d_.ports || out >= d_.ports) { reject(IBCC_ERR_RANGE); return 0; }
    u = units(size);
    found = occ(in);
    if (u > d_.in_capacity - found) { reject(IBCC_ERR_FULL); return 0; }
    sh_.q[in][sh_.qn[in]].size = size;
    sh_.q[in][sh_.qn[in]].out = (uint16_t)out;
    sh_.q[in][sh_.qn[in]].flag = 0;
    sh_.qn[in]++;
    sh_.st.arrivals++;
    switch (d_.engine) {
    case IBCC_MARKER_NAIVE: case IBCC_MARKER_INPUT:
        if (found + u >= d_.trigger) trigger(in);
        break;
    case IBCC_MARKER_INPUT_OUTPUT:
        if (found + u >= d_.trigger) trigger(in);
        if (cnt1(out) > d_.t_out) { sh_.cnt2[out] = cnt1(out); sh_.st.out_triggers++; }
        break;
    case IBCC_MARKER_MVPM:
        if (found > d_.mvpm_in_threshold) { bits = IBCC_MB; sh_.st.mb++; }
        break;
    default: break;
    }
    return bits;
}

/* index of the oldest packet in->out, or -1 */
static int oldest(unsigned in, unsigned out)
{
    uint32_t k;
    if (in >= d_.ports) return -1;
    for (k = 0; k < sh_.qn[in]; k++) if (sh_.q[in][k].out == out) return (int)k;
    return -1;
}

static unsigned ref_depart(unsigned in, unsigned out, uint32_t size, unsigned hdr,
                           int credit)
{
    int k;
    pkt p;
    uint32_t lvl, u;
    unsigned bits = 0;
    if (in >= d_.ports || out >= d_.ports) { reject(IBCC_ERR_RANGE); return 0; }
    k = oldest(in, out);
    if (k < 0) { reject(IBCC_ERR_MISMATCH); return 0; }
    p = sh_.q[in][k];
    (void)size;                               /* the harness passes p.size */
    u = units(p.size);
    (void)u;
    lvl = level(out);
    memmove(&sh_.q[in][k], &sh_.q[in][k + 1], (sh_.qn[in] - (uint32_t)k - 1u) * sizeof(pkt));
    sh_.qn[in]--;
    if (d_.hold) sh_.held[in][sh_.hn[in]++] = p.size;
    if (d_.org == IBCC_ORG_CIOQ) sh_.ob[out][sh_.on[out]++] = p.size;
    sh_.st.departures++;
    switch (d_.engine) {
    case IBCC_MARKER_NAIVE:
        if (p.flag) bits = IBCC_FECN;
        break;
    case IBCC_MARKER_INPUT: case IBCC_MARKER_INPUT_OUTPUT:
        if (sh_.cnt2[out] > 0) { sh_.cnt2[out]--; bits = IBCC_FECN; }
        break;
    case IBCC_MARKER_IBA:
        /* the queue the packet leaves behind: input-buffered, without
           itself; CIOQ, the output buffer before it enters */
        if ((d_.org == IBCC_ORG_CIOQ ? lvl : lvl - units(p.size)) > iba_level(out)
            && (credit || sh_.victim[out])
            && p.size >= 64u * sh_.ipsize[out]) {
            int mark;
            if (d_.iba_rng) {
                mark = ibcc_rng_below(&rng_ref_, (uint64_t)sh_.irate[out] + 1u) == 0;
            } else if (sh_.iskip[out] == 0) {
                mark = 1;
                sh_.iskip[out] = sh_.irate[out];
            } else {
                mark = 0;
                sh_.iskip[out]--;
            }
            if (mark) bits = IBCC_FECN;
        }
        break;
    case IBCC_MARKER_MVPM:
        if ((hdr & IBCC_MB) && lvl > d_.mvpm_out_threshold) { bits = IBCC_VB; sh_.st.vb++; }
        break;
    case IBCC_MARKER_ECN: {
        /* the queue left behind (as IBA), in bytes of credits: p = 0 up
           to Kmin, Pmax (q - Kmin) / (Kmax - Kmin), 1 above Kmax, one draw
           below 10^6 (Kmax - Kmin) exactly when 0 < p < 1 */
        uint64_t q = 64u * (uint64_t)(d_.org == IBCC_ORG_CIOQ ? lvl : lvl - units(p.size));
        if (q > d_.ecn_kmax) bits = IBCC_FECN;
        else if (q > d_.ecn_kmin) {
            uint64_t num = (uint64_t)d_.ecn_pmax * (q - d_.ecn_kmin);
            uint64_t den = UINT64_C(1000000) * (d_.ecn_kmax - d_.ecn_kmin);
            if (num >= den || ibcc_rng_below(&rng_ecn_, den) < num) bits = IBCC_FECN;
        }
        break;
    }
    default: break;
    }
    if (bits & IBCC_FECN) sh_.st.fecn++;
    return bits;
}

static void check_all(const ibcc_marker *m, int full)
{
    ibcc_marker_stats s = ibcc_marker_get_stats(m);
    ibcc_result last;
    unsigned p, q;
    uint32_t c1a[MP], lva[MP];
    all_counts(c1a, lva);
    FZ_CHECK(s.arrivals == sh_.st.arrivals && s.departures == sh_.st.departures,
             "arrivals %llu/%llu departures %llu/%llu",
             (unsigned long long)s.arrivals, (unsigned long long)sh_.st.arrivals,
             (unsigned long long)s.departures, (unsigned long long)sh_.st.departures);
    FZ_CHECK(s.in_triggers == sh_.st.in_triggers && s.out_triggers == sh_.st.out_triggers,
             "triggers in %llu/%llu out %llu/%llu",
             (unsigned long long)s.in_triggers, (unsigned long long)sh_.st.in_triggers,
             (unsigned long long)s.out_triggers, (unsigned long long)sh_.st.out_triggers);
    FZ_CHECK(s.fecn == sh_.st.fecn && s.mb == sh_.st.mb && s.vb == sh_.st.vb, "mark counters");
    FZ_CHECK(ibcc_marker_errors(m, &last) == sh_.st.errors && s.errors == sh_.st.errors,
             "errors %llu, model %llu", (unsigned long long)s.errors,
             (unsigned long long)sh_.st.errors);
    FZ_CHECK(last == sh_.st.last_error, "last error %d, model %d", (int)last,
             (int)sh_.st.last_error);
    for (p = 0; p < d_.ports; p++) {
        uint32_t c1 = c1a[p], oc = occ(p), lv = lva[p];
        FZ_CHECK(ibcc_marker_occupancy(m, p) == oc, "occupancy of %u: %u, model %u", p,
                 ibcc_marker_occupancy(m, p), oc);
        FZ_CHECK(oc <= d_.in_capacity, "occupancy above capacity");
        FZ_CHECK(ibcc_marker_packets(m, p) == sh_.qn[p] + sh_.hn[p], "packets of %u", p);
        FZ_CHECK(ibcc_marker_cnt1(m, p) == c1, "cnt1 of %u: %u, model %u", p,
                 ibcc_marker_cnt1(m, p), c1);
        FZ_CHECK(ibcc_marker_cnt2(m, p) == sh_.cnt2[p], "cnt2 of %u: %u, model %u", p,
                 ibcc_marker_cnt2(m, p), sh_.cnt2[p]);
        FZ_CHECK(sh_.cnt2[p] <= c1, "cnt2 above cnt1");
        FZ_CHECK(ibcc_marker_level(m, p) == lv, "level of %u: %u, model %u", p,
                 ibcc_marker_level(m, p), lv);
        FZ_CHECK(ibcc_marker_iba_level(m, p) == iba_level(p), "IBA level of %u", p);
        FZ_CHECK(ibcc_marker_iba_congested(m, p, 0) ==
                 (d_.engine == IBCC_MARKER_IBA && lv > iba_level(p) && sh_.victim[p]),
                 "IBA congested (no credit) of %u", p);
        FZ_CHECK(ibcc_marker_iba_congested(m, p, 1) ==
                 (d_.engine == IBCC_MARKER_IBA && lv > iba_level(p)),
                 "IBA congested of %u", p);
        if (!full) continue;
        for (q = 0; q < d_.ports; q++) {
            uint32_t k, w = 0, fl = 0;
            for (k = 0; k < sh_.qn[p]; k++)
                if (sh_.q[p][k].out == q) { w++; fl += sh_.q[p][k].flag; }
            FZ_CHECK(ibcc_marker_waiting(m, p, q) == w, "waiting %u->%u", p, q);
            FZ_CHECK(ibcc_marker_naive_pending(m, p, q) == fl, "NAIVE pending %u->%u: %u, model %u",
                     p, q, ibcc_marker_naive_pending(m, p, q), fl);
        }
    }
    FZ_CHECK(ibcc_marker_occupancy(m, d_.ports) == 0 && ibcc_marker_cnt1(m, d_.ports) == 0,
             "out-of-range queries");
}

static uint32_t pick_size(fz *f)
{
    uint8_t b = fz_u8(f);
    if (b < 200) return fz_range(f, 1, 2048);
    if (b < 250) return fz_range(f, 0, 300);
    return fz_u32(f);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static uint64_t mem[4096];               /* 32 KiB: 70 NAIVE ports need 24 KiB */
    fz f;
    ibcc_marker_desc d;
    ibcc_marker m;
    ibcc_result rd, ri;
    size_t need;
    unsigned ops = 0, p;
    uint64_t seed;

    fz_init(&f, data, size);
    memset(&d, 0, sizeof d);
    d.engine = (ibcc_marker_engine)(fz_u8(&f) % 8u);            /* 7: invalid */
    {
        uint8_t ub = fz_u8(&f);
        d.unit = (ibcc_buffer_unit)(ub == 255 ? 2u : ub & 1u);  /* 2: invalid */
    }
    d.org = (ibcc_switch_org)(fz_u8(&f) & 1u);
    d.classify = (ibcc_classify)(fz_u8(&f) & 1u);
    d.hold = fz_u8(&f) % 3u == 1 ? 1u : 0u;
    d.ports = fz_u8(&f) < 250 ? fz_range(&f, 0, MP) : fz_range(&f, 257, 300);
    d.in_capacity = fz_range(&f, 0, d.unit == IBCC_UNIT_CREDITS ? 96 : 24);
    d.out_capacity = fz_u8(&f) < 128 ? 0 : fz_range(&f, 1, 200);
    d.trigger = fz_u8(&f) < 128 ? 0 : fz_range(&f, 1, 30);
    d.t_out = fz_u8(&f) < 128 ? 0 : fz_range(&f, 1, 12);
    d.mvpm_in_threshold = fz_u8(&f) < 128 ? 0 : fz_range(&f, 1, 30);
    d.mvpm_out_threshold = fz_u8(&f) < 128 ? 0 : fz_range(&f, 1, 60);
    d.iba_threshold = fz_range(&f, 0, 16);
    d.iba_packet_size = fz_u8(&f) < 128 ? 0 : fz_range(&f, 0, 40);
    d.iba_marking_rate = fz_u8(&f) < 128 ? 0 : fz_range(&f, 0, 5);
    if (fz_u8(&f) < 64) {
        d.victim_mask[0] = fz_u32(&f);
        d.victim_mask[1] = fz_u32(&f) & (fz_u8(&f) < 128 ? 0x3fu : 0xffffffffu);
    }
    if (d.engine == IBCC_MARKER_ECN) {
        /* bytes of credits: up to 200 * 64 (0: the defaults) */
        d.ecn_kmin = fz_u8(&f) < 32 ? 0 : fz_range(&f, 1, 6000);
        d.ecn_kmax = fz_u8(&f) < 32 ? 0 : d.ecn_kmin + fz_range(&f, 0, 8000);
        d.ecn_pmax = fz_u8(&f) < 32 ? 0 : fz_range(&f, 1, 1000000);
        d.ecn_seed = fz_u64(&f);
    }
    seed = fz_u64(&f);
    if (fz_u8(&f) & 1u) d.iba_rng = &rng_lib_;
    ibcc_rng_seed(&rng_lib_, seed);
    ibcc_rng_seed(&rng_ref_, seed);

    d_ = d;
    rd = ibcc_marker_defaults(&d_);
    {
        ibcc_result rs = ibcc_marker_size(&d, &need);
        FZ_CHECK(rs == rd && (rd == IBCC_OK ? need != 0 : need == 0),
                 "size %d (%zu bytes) vs defaults %d", (int)rs, need, (int)rd);
    }
    if (rd != IBCC_OK) {
        FZ_CHECK(ibcc_marker_init(&m, &d, mem, sizeof mem) == rd, "init vs defaults");
        return 0;
    }
    if (need > sizeof mem) return 0;
    ri = ibcc_marker_init(&m, &d, mem, sizeof mem);
    FZ_CHECK(ri == IBCC_OK, "init %d after defaults OK", (int)ri);
    ibcc_rng_seed(&rng_ecn_, d.ecn_seed);
    memset(&sh_, 0, sizeof sh_);
    for (p = 0; p < d_.ports; p++) {
        sh_.iw[p] = d_.iba_threshold;
        sh_.ipsize[p] = d_.iba_packet_size;
        sh_.irate[p] = d_.iba_marking_rate;
        sh_.victim[p] = (int)((d_.victim_mask[p / 32u] >> (p % 32u)) & 1u);
    }
    check_all(&m, 1);

    while (fz_more(&f) && ops++ < 1500u) {
        uint8_t op = fz_u8(&f);
        unsigned P = d_.ports;
        switch (op % 12u) {
        case 0: case 1: case 2: case 3: {                        /* arrive */
            unsigned in = fz_below(&f, P + (op >> 7)), out = fz_below(&f, P + ((op >> 6) & 1u));
            uint32_t sz = pick_size(&f);
            unsigned got, want;
            if (in < P && sh_.qn[in] >= MQ) break;
            want = ref_arrive(in, out, sz);
            got = ibcc_marker_arrive(&m, in, out, sz);
            FZ_CHECK(got == want, "arrive %u->%u size %u: bits %u, model %u", in, out, sz, got, want);
            break;
        }
        case 4: case 5: case 6: {                                /* depart */
            unsigned in = fz_below(&f, P + (op >> 7)), out, hdr;
            int k, credit = fz_u8(&f) & 1;
            uint32_t sz;
            unsigned got, want;
            /* mostly a packet that is there: the head's output, or any */
            if (in < P && sh_.qn[in] > 0 && (op & 0x40) == 0)
                out = sh_.q[in][fz_below(&f, sh_.qn[in])].out;
            else
                out = fz_below(&f, P + 1u);
            k = oldest(in, out);
            sz = k >= 0 ? sh_.q[in][k].size : pick_size(&f);
            if (out < P && sh_.on[out] >= MO) break;
            hdr = (op & 0x20) ? IBCC_MB : 0u;
            want = ref_depart(in, out, sz, hdr, credit);
            got = ibcc_marker_depart(&m, in, out, sz, hdr, credit);
            FZ_CHECK(got == want, "depart %u->%u size %u: bits %u, model %u", in, out, sz, got, want);
            break;
        }
        case 7: {                                                /* leave (CIOQ) */
            unsigned out = fz_below(&f, P + 1u);
            uint32_t sz = (out < P && sh_.on[out] > 0) ? sh_.ob[out][0] : pick_size(&f);
            ibcc_marker_leave(&m, out, sz);
            if (d_.org != IBCC_ORG_CIOQ) reject(IBCC_ERR_STATE);
            else if (out >= P) reject(IBCC_ERR_RANGE);
            else if (level(out) < units(sz)) reject(IBCC_ERR_MISMATCH);
            else {
                memmove(&sh_.ob[out][0], &sh_.ob[out][1], (sh_.on[out] - 1u) * sizeof(uint32_t));
                sh_.on[out]--;
            }
            break;
        }
        case 8: {                                                /* release (hold) */
            unsigned in = fz_below(&f, P + 1u);
            uint32_t sz = (in < P && sh_.hn[in] > 0) ? sh_.held[in][0] : pick_size(&f);
            ibcc_marker_release(&m, in, sz);
            if (!d_.hold) reject(IBCC_ERR_STATE);
            else if (in >= P) reject(IBCC_ERR_RANGE);
            else if (sh_.hn[in] == 0) reject(IBCC_ERR_MISMATCH);
            else {
                memmove(&sh_.held[in][0], &sh_.held[in][1], (sh_.hn[in] - 1u) * sizeof(uint32_t));
                sh_.hn[in]--;
            }
            break;
        }
        case 9: {                                                /* busy bits */
            unsigned out = fz_below(&f, P + 1u);
            int b = fz_u8(&f) & 1;
            ibcc_marker_set_busy(&m, out, b);
            if (out >= P) reject(IBCC_ERR_RANGE); else sh_.busy[out] = b;
            break;
        }
        case 10: {                                               /* IBA settings */
            unsigned port = fz_below(&f, P + 1u), thr = fz_range(&f, 0, 16);
            unsigned ps = fz_u8(&f) < 200 ? fz_range(&f, 0, 40) : fz_range(&f, 0, 256);
            unsigned rate = fz_u8(&f) < 250 ? fz_range(&f, 0, 5) : fz_u32(&f) % 70000u;
            ibcc_result r, want;
            if (op & 0x80) {
                int on = fz_u8(&f) & 1;
                want = d_.engine != IBCC_MARKER_IBA ? IBCC_ERR_STATE
                     : port >= P ? IBCC_ERR_RANGE : IBCC_OK;
                r = ibcc_marker_set_victim(&m, port, on);
                FZ_CHECK(r == want, "set_victim %d, model %d", (int)r, (int)want);
                if (r == IBCC_OK) sh_.victim[port] = on;
                break;
            }
            want = d_.engine != IBCC_MARKER_IBA ? IBCC_ERR_STATE
                 : (port >= P || thr > 15 || ps > 255 || rate > 65535) ? IBCC_ERR_RANGE : IBCC_OK;
            r = ibcc_marker_set_iba_port(&m, port, thr, ps, rate);
            FZ_CHECK(r == want, "set_iba_port %d, model %d", (int)r, (int)want);
            if (r == IBCC_OK) {
                sh_.iw[port] = thr; sh_.ipsize[port] = ps; sh_.irate[port] = rate;
                sh_.iskip[port] = 0;
            }
            break;
        }
        default:                                                 /* clear */
            if ((op & 0xe0) == 0xe0) {
                ibcc_marker_reset(&m);
                ibcc_rng_seed(&rng_ecn_, d_.ecn_seed);
                memset(sh_.qn, 0, sizeof sh_.qn);
                memset(sh_.hn, 0, sizeof sh_.hn);
                memset(sh_.on, 0, sizeof sh_.on);
                memset(sh_.cnt2, 0, sizeof sh_.cnt2);
                memset(sh_.iskip, 0, sizeof sh_.iskip);
                memset(&sh_.st, 0, sizeof sh_.st);
            }
            check_all(&m, 1);
            break;
        }
        check_all(&m, (ops & 15u) == 0);
    }
    check_all(&m, 1);
    return 0;
}
