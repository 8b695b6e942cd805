/* Fuzz harness: rate laws (every kind and form) and the pacer.

   Input: a law description (kind, form, rmin, m, rate set, table size,
   possibly invalid), a pacer description, then operations (ACKs marked,
   unmarked and sized, set_rate, state save/restore, reset, pacer sends
   and ACKs, per-pair store save/load).

   Checked:
   - validation agrees: ibcc_law_size is 0 exactly when ibcc_law_defaults
     fails, and ibcc_law_init returns the same code;
   - a TABLE law's compiled entries have the documented shape (rate 1 at
     index 0, strictly decreasing, ending at rmin (geometric) or the last
     IPD rate; next_on_mark is the highest rate not above fdec(x_i); the
     unmark target lies above unless inc is 0; gap_q16 as documented);
   - every step against the documented rule: CONTINUOUS x' = finc(x),
     fdec(x) or x + w (finc(x) - x) clamped; DISCRETE q' = round(x' 2^32)
     clamped to [qmin, 2^32] (the built-in laws' integer step within one
     unit, 1 + w for a sized ACK of weight w) and ipd = min(ceil(2^33/
     (2q'+1)) - 1, floor(1/rmin) - 1); TABLE the integer step of
     docs/law.md;
   - the applied rate stays within [rmin, 1], ipd and rate agree, at_max
     holds exactly at rate 1, and for monotone laws an unmarked ACK never
     lowers and a marked ACK never raises the applied rate;
   - the gap: DISCRETE ipd * tau, TABLE (tau * gap_q16) >> 16, both
     saturating; CONTINUOUS tau (1/x - 1) to the nearest ps;
   - the pacer against a model (outstanding, last start, wire time): the
     result code of every send and ACK, next = start + tau + gap (exact
     for a fixed rate: ceil(tau (rmax - rate) / rate)), earliest,
     can_send; the start times of accepted sends never decrease and next
     never precedes the end of the last packet;
   - the per-pair store against a small map (FULL, NOT_FOUND resets the
     law to Rmax, a load restores exactly the saved state). */
#include "fuzz.h"
#include <math.h>

__extension__ typedef unsigned __int128 fz_u128;

#define MAXN 4096u
static uint64_t tabmem_[MAXN * 3];          /* 24 bytes per entry */

/* custom laws: family 0 LIPD formulas, 1 geometric, 2 NaN, 3 erratic */
typedef struct claw { int fam; double a, b, k; } claw;
static double c_inc(double x, void *u)
{
    const claw *c = (const claw *)u;
    switch (c->fam) {
    case 0: return x / (1.0 - c->k);
    case 1: return x * c->a;
    case 2: return nan("");
    default: return 1.3 - x * c->a;
    }
}
static double c_dec(double x, void *u)
{
    const claw *c = (const claw *)u;
    switch (c->fam) {
    case 0: return 1.0 / (1.0 / x + 1.0);
    case 1: return x * c->b;
    case 2: return x > 0.5 ? nan("") : x / 2.0;
    default: return x * x * 3.0;
    }
}

static double clamp01(double y, double k)
{
    if (!(y >= k)) return k;
    if (y > 1.0) return 1.0;
    return y;
}

static uint32_t ipd_max_of(double rmin)
{
    double c = floor((1.0 / rmin) * (1.0 + 0x1p-40));  /* ibcc.h: 2^-40 slack */
    if (c > 65536.0) c = 65536.0;
    return (uint32_t)c - 1u;
}

static uint32_t ipd_of_q(uint64_t q, uint32_t cap)
{
    uint64_t den = 2u * q + 1u;
    uint64_t ipd = (UINT64_C(8589934592) + den - 1u) / den - 1u;
    return ipd > cap ? cap : (uint32_t)ipd;
}

static ibcc_law_entry entry(const ibcc_law *l, uint32_t i)
{
    ibcc_law_entry e;
    FZ_CHECK(ibcc_law_table_entry(l, i, &e) == IBCC_OK, "entry %u of %u", i,
             ibcc_law_table_size(l));
    return e;
}

static void check_table(const ibcc_law *l, int monotone)
{
    uint32_t n = ibcc_law_table_size(l), i;
    ibcc_law_entry e0 = entry(l, 0);
    FZ_CHECK(n == l->d.table_size && n >= 1, "n %u", n);
    FZ_CHECK(e0.rate == 1.0 && e0.next_on_unmark == 0 && e0.inc == 0 && e0.gap_q16 == 0,
             "entry 0 rate %.17g up %u inc %u", e0.rate, e0.next_on_unmark, e0.inc);
    for (i = 0; i < n; i++) {
        ibcc_law_entry e = entry(l, i);
        double fd = ibcc_law_fdec(l, e.rate), slack = 1.0 + 1e-12;
        if (i > 0) {
            ibcc_law_entry p = entry(l, i - 1);
            FZ_CHECK(e.rate < p.rate, "rates not decreasing at %u", i);
            FZ_CHECK(e.next_on_unmark <= i, "entry %u moves up to %u", i, e.next_on_unmark);
            FZ_CHECK((e.inc == 0) == (e.next_on_unmark == i),
                     "entry %u: inc %u, up %u", i, e.inc, e.next_on_unmark);
            if (monotone) {
                /* one ACK passes the rate above: up = a rate not above
                   finc (carrying the rest); else one entry up after
                   2^31/inc ACKs */
                double z = ibcc_law_finc(l, e.rate);
                if (z >= p.rate * (1.0 - 1e-12)) {
                    FZ_CHECK(e.inc >= 0x80000000u && entry(l, e.next_on_unmark).rate <= z * slack,
                             "entry %u: fast step to %u, inc %u", i, e.next_on_unmark, e.inc);
                } else {
                    FZ_CHECK(e.inc <= 0x80000000u && (e.next_on_unmark == i - 1u || e.inc == 0),
                             "entry %u: slow step to %u, inc %u", i, e.next_on_unmark, e.inc);
                }
            }
        }
        FZ_CHECK(e.next_on_mark < n, "mark target %u", e.next_on_mark);
        /* (the lowest entry when every rate is above fdec: the IPD set's
           lowest rate 1/floor(1/rmin) lies above rmin) */
        FZ_CHECK(entry(l, e.next_on_mark).rate <= fd * slack || e.next_on_mark == n - 1u,
                 "entry %u: mark target above fdec", i);
        FZ_CHECK(e.next_on_mark == 0 || entry(l, e.next_on_mark - 1u).rate > fd * slack,
                 "entry %u: mark target not the highest rate <= fdec", i);
        if (l->d.rates == IBCC_LAW_RATES_IPD) {
            FZ_CHECK(e.gap_q16 == i << 16, "IPD gap %u at %u", e.gap_q16, i);
            FZ_CHECK(e.rate == 1.0 / (1.0 + (double)i), "IPD rate at %u", i);
        } else {
            FZ_CHECK(e.gap_q16 == (uint32_t)floor((1.0 / e.rate - 1.0) * 65536.0 + 0.5),
                     "geometric gap at %u", i);
        }
    }
    if (l->d.rates == IBCC_LAW_RATES_GEOMETRIC)
        FZ_CHECK(entry(l, n - 1).rate == l->d.rmin, "last geometric rate");
    else
        FZ_CHECK(entry(l, n - 1).rate >= l->d.rmin * (1.0 - 1e-12), "last IPD rate below rmin");
}

/* The documented per-form step, applied to a copy of the state. */
static void expect_step(const ibcc_law *l, const ibcc_law_state *s, int marked,
                        uint32_t w, ibcc_law_state *out)
{
    *out = *s;
    if (l->d.form == IBCC_LAW_TABLE) {
        ibcc_law_entry e = entry(l, s->index);
        if (marked) {
            out->index = e.next_on_mark;
            out->acc = 0;
        } else {
            uint64_t a = (uint64_t)s->acc + (((uint64_t)e.inc * w) >> 16);
            if (a >= 0x80000000u) {
                uint32_t j = e.next_on_unmark;
                a -= 0x80000000u;
                if (a >= 0x80000000u && j > 0) { j--; a -= 0x80000000u; }
                if (a >= 0x80000000u) a = 0x7fffffffu;
                if (j == 0) a = 0;
                out->index = j;
            }
            out->acc = (uint32_t)a;
        }
    } else {
        double x = l->d.form == IBCC_LAW_DISCRETE ? (double)s->q / 4294967296.0 : s->x, y;
        if (marked) {
            y = ibcc_law_fdec(l, x);
        } else {
            y = ibcc_law_finc(l, x);
            if (w != 65536u) y = clamp01(x + ((double)w / 65536.0) * (y - x), l->d.rmin);
        }
        if (l->d.form == IBCC_LAW_DISCRETE) {
            double qd = floor(y * 4294967296.0 + 0.5);
            uint64_t qmin = (uint64_t)ceil(l->d.rmin * 4294967296.0), q;
            if (!(qd >= (double)qmin)) q = qmin;
            else if (qd >= 4294967296.0) q = UINT64_C(4294967296);
            else q = (uint64_t)qd;
            if (q < qmin) q = qmin;
            out->q = q;
            out->index = ipd_of_q(q, ipd_max_of(l->d.rmin));
        } else {
            out->x = y;
        }
    }
}

/* The law's step against expect_step's: exact, except that the built-in
   laws' DISCRETE step computes in integers (ibcc.h, "DISCRETE in integer
   arithmetic"): its state may differ from the double formula's by one
   unit of 2^-32, and a sized ACK scales that by its weight; the applied
   ipd must then be the one of the state reached. */
static int step_ok(const ibcc_law *l, const ibcc_law_state *want, uint32_t w)
{
    uint64_t tol, d;
    if (l->d.form != IBCC_LAW_DISCRETE || l->d.kind == IBCC_LAW_CUSTOM)
        return memcmp(want, &l->s, sizeof *want) == 0;
    tol = 1u + ((uint64_t)w + 65535u) / 65536u;
    d = want->q > l->s.q ? want->q - l->s.q : l->s.q - want->q;
    return d <= tol && l->s.index == ipd_of_q(l->s.q, ipd_max_of(l->d.rmin))
        && l->s.acc == 0 && l->s.x == 0.0;
}

static void check_invariants(const ibcc_law *l)
{
    double r = ibcc_law_rate(l);
    uint32_t ipd = ibcc_law_ipd(l);
    int at = ibcc_law_at_max(l);
    FZ_CHECK(r <= 1.0 && r >= l->d.rmin * (1.0 - 1e-12), "rate %.17g outside [%.17g, 1]",
             r, l->d.rmin);
    if (l->d.form == IBCC_LAW_CONTINUOUS) {
        FZ_CHECK(at == (r == 1.0), "continuous at_max %d at rate %.17g", at, r);
        if (at) FZ_CHECK(ipd == 0, "at max with ipd %u", ipd);
    } else {
        FZ_CHECK(at == (r == 1.0) && at == (ipd == 0),
                 "form %d: at_max %d, rate %.17g, ipd %u", (int)l->d.form, at, r, ipd);
    }
    if (l->d.form == IBCC_LAW_DISCRETE) {
        uint64_t qmin = (uint64_t)ceil(l->d.rmin * 4294967296.0);
        FZ_CHECK(l->s.q >= qmin && l->s.q <= UINT64_C(4294967296), "q %llu",
                 (unsigned long long)l->s.q);
        FZ_CHECK(r == 1.0 / (1.0 + (double)ipd), "discrete rate vs ipd");
    }
    if (l->d.form == IBCC_LAW_TABLE)
        FZ_CHECK(l->s.index < ibcc_law_table_size(l) && l->s.acc < 0x80000000u,
                 "table state %u %u", l->s.index, l->s.acc);
}

static void check_gap(const ibcc_law *l, ibcc_time tau)
{
    ibcc_time g = ibcc_law_gap(l, tau);
    if (l->d.form == IBCC_LAW_DISCRETE) {
        fz_u128 p = (fz_u128)tau * ibcc_law_ipd(l);
        FZ_CHECK(g == (p > UINT64_MAX ? UINT64_MAX : (uint64_t)p), "discrete gap");
    } else if (l->d.form == IBCC_LAW_TABLE) {
        fz_u128 p = ((fz_u128)tau * entry(l, l->s.index).gap_q16) >> 16;
        FZ_CHECK(g == (p > UINT64_MAX ? UINT64_MAX : (uint64_t)p), "table gap");
    } else {
        double want = (double)tau * (1.0 / l->s.x - 1.0);
        if (want < 1e18)
            FZ_CHECK(fabs((double)g - want) <= 0.5 + want * 1e-12,
                     "continuous gap %llu vs %.3f", (unsigned long long)g, want);
    }
}

/* ---- pacer model ------------------------------------------------------- */
typedef struct pmodel {
    uint32_t window, outstanding;
    int has_sent, fixed;
    ibcc_rate rate, rmax;
    ibcc_time last_start, last_tau, last_next;
} pmodel;

static ibcc_time sat_add(ibcc_time a, ibcc_time b)
{
    return a > UINT64_MAX - b ? UINT64_MAX : a + b;
}

static ibcc_time model_gap(const pmodel *m, const ibcc_pacer *p, const ibcc_law *l,
                           ibcc_time tau)
{
    if (m->fixed) {
        fz_u128 num, q;
        if (m->rate == m->rmax) return 0;
        num = (fz_u128)tau * (m->rmax - m->rate);
        q = (num + m->rate - 1u) / m->rate;
        return q > UINT64_MAX ? UINT64_MAX : (uint64_t)q;
    }
    if (p->law) return ibcc_law_gap(l, tau);
    return 0;
}

static ibcc_time model_next(const pmodel *m, const ibcc_pacer *p, const ibcc_law *l)
{
    if (!m->has_sent) return 0;
    return sat_add(sat_add(m->last_start, m->last_tau), model_gap(m, p, l, m->last_tau));
}

static int model_open(const pmodel *m)
{
    return m->window == IBCC_PACER_NO_WINDOW || m->outstanding < m->window;
}

static void check_pacer(const pmodel *m, const ibcc_pacer *p, const ibcc_law *l,
                        ibcc_time probe)
{
    ibcc_time nx = model_next(m, p, l);
    FZ_CHECK(ibcc_pacer_next(p) == nx, "pacer next %llu, model %llu",
             (unsigned long long)ibcc_pacer_next(p), (unsigned long long)nx);
    FZ_CHECK(ibcc_pacer_window_open(p) == model_open(m), "window_open");
    FZ_CHECK(ibcc_pacer_earliest(p) == (model_open(m) ? nx : IBCC_TIME_MAX), "earliest");
    FZ_CHECK(ibcc_pacer_can_send(p, probe) == (model_open(m) && probe >= nx), "can_send");
    if (m->has_sent)
        FZ_CHECK(nx >= sat_add(m->last_start, m->last_tau), "next before the end of the packet");
    FZ_CHECK(ibcc_pacer_gap(p, 1000) == model_gap(m, p, l, 1000), "pacer gap");
}

/* ---- per-pair store model ---------------------------------------------- */
#define PAIRS 8
typedef struct pairmodel {
    uint32_t cap, count;
    uint32_t src[PAIRS], dst[PAIRS];
    ibcc_law_state st[PAIRS];
} pairmodel;

static double pick_rmin(fz *f)
{
    switch (fz_u8(f) % 8u) {
    case 0: return 1.0 / (double)fz_range(f, 1, 256);       /* 1/n, n = 1: invalid */
    case 1: return 1.0 / (double)fz_range(f, 2, 65536);
    case 2: return (double)fz_u16(f) / 65536.0;              /* 0: default */
    case 3: return 1.0 / 65536.0 + (double)fz_u32(f) / 4294967296.0;
    case 4: return -(double)fz_u8(f);                        /* invalid */
    case 5: return nan("");
    default: return 0.0;
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static ibcc_pacer p;
    static uint64_t pairmem[256];
    fz f;
    ibcc_law_desc d, e;
    ibcc_law l, l2;
    claw cl;
    ibcc_result rd, ri;
    size_t need;
    int monotone;
    unsigned ops = 0;
    ibcc_pacer_desc pd;
    pmodel pm;
    pairmodel mm;
    ibcc_pairstate ps;
    ibcc_pairstate_desc psd;
    ibcc_time last_accepted = 0;

    fz_init(&f, data, size);
    memset(&d, 0, sizeof d);
    d.kind = (ibcc_law_kind)(fz_u8(&f) % 6u);               /* 5: invalid */
    d.form = (ibcc_law_form)(fz_u8(&f) % 5u);               /* 4: invalid */
    d.rmin = pick_rmin(&f);
    d.m = fz_u8(&f) < 16 ? 0.0 : 1.0 + (double)fz_u16(&f) / 256.0 + 1.0 / 4096.0;
    if (fz_u8(&f) == 255) d.m = 1.0;                        /* invalid */
    memset(&cl, 0, sizeof cl);
    cl.fam = (int)(fz_u8(&f) % 4u);
    cl.a = 1.0 + (double)(fz_u8(&f) + 1u) / 64.0;
    cl.b = (double)(fz_u8(&f) % 255u + 1u) / 256.0;
    cl.k = d.rmin > 0.0 && d.rmin < 1.0 ? d.rmin : 1.0 / 256.0;
    if (d.kind == IBCC_LAW_CUSTOM) {
        d.finc = c_inc;
        d.fdec = c_dec;
        d.user = &cl;
        if (fz_u8(&f) == 7) d.finc = NULL;                  /* invalid */
    }
    if (d.form == IBCC_LAW_TABLE || fz_u8(&f) == 1) {       /* also misuse */
        d.rates = (ibcc_law_rates)(fz_u8(&f) % 4u);         /* 3: invalid */
        d.table_size = fz_u8(&f) < 128 ? 0u : fz_below(&f, MAXN + 2u);
    }
    monotone = d.kind != IBCC_LAW_CUSTOM || cl.fam <= 1;

    /* validation agrees between defaults, size and init */
    e = d;
    rd = ibcc_law_defaults(&e);
    {
        ibcc_result rs = ibcc_law_size(&d, &need);
        FZ_CHECK(rs == rd && (rd == IBCC_OK || need == 0),
                 "size %d (%zu bytes) vs defaults %d", (int)rs, need, (int)rd);
    }
    if (rd == IBCC_OK && need > sizeof tabmem_) return 0;   /* beyond this harness */
    ri = ibcc_law_init(&l, &d, tabmem_, sizeof tabmem_);
    FZ_CHECK(ri == rd, "init %d vs defaults %d", (int)ri, (int)rd);
    if (ri != IBCC_OK) return 0;
    FZ_CHECK(ibcc_law_at_max(&l) && ibcc_law_rate(&l) == 1.0, "a new law starts at Rmax");
    if (l.d.form == IBCC_LAW_TABLE) check_table(&l, monotone);
    check_invariants(&l);

    /* pacer: window, then law / fixed rate / none */
    memset(&pd, 0, sizeof pd);
    memset(&pm, 0, sizeof pm);
    {
        uint8_t w = fz_u8(&f);
        pd.window = w >= 250 ? IBCC_PACER_NO_WINDOW : w % 6u;
        switch (fz_u8(&f) % 3u) {
        case 0: pd.law = &l; break;
        case 1:
            pd.rmax = (ibcc_rate)fz_u32(&f) + 1u;
            pd.rate = 1u + fz_u64(&f) % pd.rmax;
            pm.fixed = 1;
            break;
        default: break;
        }
    }
    FZ_CHECK(ibcc_pacer_init(&p, &pd) == IBCC_OK, "pacer init");
    pm.window = pd.window ? pd.window : 1u;
    pm.rate = pd.rate;
    pm.rmax = pd.rmax;

    memset(&mm, 0, sizeof mm);
    memset(&psd, 0, sizeof psd);
    mm.cap = psd.capacity = fz_range(&f, 1, 6);
    {
        size_t pn = 0;
        FZ_CHECK(ibcc_pairstate_size(&psd, &pn) == IBCC_OK && pn <= sizeof pairmem,
                 "pair store size");
    }
    FZ_CHECK(ibcc_pairstate_init(&ps, &psd, pairmem, sizeof pairmem) == IBCC_OK, "pair init");

    while (fz_more(&f) && ops++ < 3000u) {
        uint8_t op = fz_u8(&f);
        ibcc_law_state s0, want;
        double r0 = ibcc_law_rate(&l);
        ibcc_law_get_state(&l, &s0);
        switch (op % 10u) {
        case 0: case 1: case 2: {                           /* ACK */
            int marked = (op >> 4) & 1;
            ibcc_law_on_ack(&l, marked);
            expect_step(&l, &s0, marked, 65536u, &want);
            FZ_CHECK(step_ok(&l, &want, 65536u),
                     "form %d kind %d %s step differs (index %u->%u, want %u)",
                     (int)l.d.form, (int)l.d.kind, marked ? "marked" : "unmarked",
                     s0.index, l.s.index, want.index);
            if (monotone)
                FZ_CHECK(marked ? ibcc_law_rate(&l) <= r0 : ibcc_law_rate(&l) >= r0,
                         "%s ACK moved the rate from %.17g to %.17g",
                         marked ? "marked" : "unmarked", r0, ibcc_law_rate(&l));
            break;
        }
        case 3: {                                            /* sized ACK */
            int marked = (op >> 4) & 1;
            uint32_t w = fz_u8(&f) < 200 ? fz_u32(&f) % (1u << 20) : fz_u32(&f);
            ibcc_law_on_ack_sized(&l, marked, w);
            expect_step(&l, &s0, marked, w, &want);
            FZ_CHECK(step_ok(&l, &want, w), "sized step differs (w %u)", w);
            if (monotone)
                FZ_CHECK(marked ? ibcc_law_rate(&l) <= r0 : ibcc_law_rate(&l) >= r0,
                         "sized ACK moved the rate the wrong way");
            break;
        }
        case 4: {                                            /* set_rate */
            double x = (double)fz_u16(&f) / 40000.0 - 0.3;
            if (op & 0x80) x = nan("");
            if (x != x) {
                FZ_CHECK(ibcc_law_set_rate(&l, x) == IBCC_ERR_RANGE, "NaN rate");
                FZ_CHECK(memcmp(&s0, &l.s, sizeof s0) == 0, "rejected set_rate changed state");
            } else {
                FZ_CHECK(ibcc_law_set_rate(&l, x) == IBCC_OK, "set_rate");
                if (l.d.form == IBCC_LAW_CONTINUOUS)
                    FZ_CHECK(l.s.x == clamp01(x, l.d.rmin), "set_rate continuous");
                if (l.d.form == IBCC_LAW_TABLE) {
                    /* highest table rate not above x */
                    double xc = clamp01(x, l.d.rmin) * (1.0 + 1e-12);
                    FZ_CHECK(entry(&l, l.s.index).rate <= xc || l.s.index + 1u == l.n,
                             "set_rate table above x");
                    FZ_CHECK(l.s.index == 0 || entry(&l, l.s.index - 1u).rate > xc,
                             "set_rate table not highest");
                }
            }
            break;
        }
        case 5: {                                            /* state */
            ibcc_law_state bad = s0;
            switch (fz_u8(&f) % 4u) {
            case 0: bad.x += 1.0; break;
            case 1: bad.q += UINT64_C(1) << 33; break;
            case 2: bad.index += 70000u; break;
            default: bad.acc |= 0x80000000u; break;
            }
            FZ_CHECK(ibcc_law_set_state(&l, &bad) == IBCC_ERR_RANGE, "invalid state accepted");
            FZ_CHECK(memcmp(&s0, &l.s, sizeof s0) == 0, "rejected set_state changed state");
            ibcc_law_reset(&l);
            FZ_CHECK(ibcc_law_set_state(&l, &s0) == IBCC_OK, "own state refused");
            FZ_CHECK(memcmp(&s0, &l.s, sizeof s0) == 0, "state round trip");
            break;
        }
        case 6: {                                            /* pacer send */
            ibcc_time tau = fz_u8(&f) < 8 ? 0 : (ibcc_time)fz_u32(&f) + 1u;
            ibcc_time nx = model_next(&pm, &p, &l), now;
            ibcc_result want_r, got;
            uint8_t how = fz_u8(&f);
            if (fz_u8(&f) == 0xff) tau = UINT64_MAX - fz_u16(&f);
            now = how < 128 ? sat_add(nx, how) : (how < 200 ? (nx > how ? nx - how : 0)
                                                             : fz_u64(&f));
            if (tau == 0) want_r = IBCC_ERR_RANGE;
            else if (!model_open(&pm)) want_r = IBCC_ERR_FULL;
            else if (pm.has_sent && (now < pm.last_start || now < nx)) want_r = IBCC_ERR_PAST;
            else want_r = IBCC_OK;
            got = ibcc_pacer_on_send(&p, now, tau);
            FZ_CHECK(got == want_r, "on_send %d, model %d", (int)got, (int)want_r);
            if (got == IBCC_OK) {
                FZ_CHECK(!pm.has_sent || now >= last_accepted, "send starts went backwards");
                last_accepted = now;
                if (pm.outstanding != UINT32_MAX) pm.outstanding++;
                pm.has_sent = 1;
                pm.last_start = now;
                pm.last_tau = tau;
                FZ_CHECK(ibcc_pacer_next(&p) >= nx || !pm.has_sent, "next moved back on a send");
            }
            check_pacer(&pm, &p, &l, fz_u64(&f));
            break;
        }
        case 7: {                                            /* pacer ACK */
            int marked = (op >> 4) & 1;
            ibcc_result got = (op & 0x20) ? ibcc_pacer_on_ack_sized(&p, marked, 32768u)
                                          : ibcc_pacer_on_ack(&p, marked);
            if (pm.outstanding == 0) {
                FZ_CHECK(got == IBCC_ERR_MISMATCH, "ACK with nothing outstanding");
                FZ_CHECK(memcmp(&s0, &l.s, sizeof s0) == 0, "refused ACK stepped the law");
            } else {
                FZ_CHECK(got == IBCC_OK, "ACK refused");
                pm.outstanding--;
                if (p.law) {
                    expect_step(&l, &s0, marked, (op & 0x20) ? 32768u : 65536u, &want);
                    FZ_CHECK(step_ok(&l, &want, (op & 0x20) ? 32768u : 65536u),
                             "pacer ACK step");
                }
            }
            check_pacer(&pm, &p, &l, fz_u64(&f));
            break;
        }
        case 8: {                                            /* pair store */
            uint32_t src = fz_below(&f, 4), dst = fz_below(&f, 4), k;
            for (k = 0; k < mm.count; k++) if (mm.src[k] == src && mm.dst[k] == dst) break;
            if (op & 0x10) {
                ibcc_result got = ibcc_pairstate_save(&ps, src, dst, &l);
                if (k == mm.count && mm.count == mm.cap) {
                    FZ_CHECK(got == IBCC_ERR_FULL, "save into a full store: %d", (int)got);
                } else {
                    FZ_CHECK(got == IBCC_OK, "save");
                    if (k == mm.count) { mm.src[k] = src; mm.dst[k] = dst; mm.count++; }
                    mm.st[k] = l.s;
                }
            } else {
                ibcc_result got;
                l2 = l;                                      /* tables shared */
                got = ibcc_pairstate_load(&ps, src, dst, &l2);
                if (k == mm.count) {
                    FZ_CHECK(got == IBCC_ERR_NOT_FOUND, "load of a pair never saved");
                    FZ_CHECK(ibcc_law_at_max(&l2), "NOT_FOUND must reset to Rmax");
                } else {
                    FZ_CHECK(got == IBCC_OK, "load");
                    FZ_CHECK(memcmp(&l2.s, &mm.st[k], sizeof l2.s) == 0, "loaded state");
                }
            }
            break;
        }
        default:                                             /* reset / gap */
            if (op & 0x80) {
                ibcc_law_reset(&l);
                FZ_CHECK(ibcc_law_at_max(&l), "reset");
            }
            check_gap(&l, (op & 0x40) ? fz_u64(&f) : fz_u32(&f));
            break;
        }
        check_invariants(&l);
    }
    return 0;
}
