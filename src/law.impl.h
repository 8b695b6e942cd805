/* ---- L1 law: implementation ------------------------------------------- */

#define IBCC__LAW_ONE_Q32 UINT64_C(4294967296)  /* 1.0 in Q32.32 */
#define IBCC__LAW_Q32 4294967296.0
#define IBCC__LAW_EPS 1e-12                     /* relative slack when a
                                                   double result is compared
                                                   with a table rate */
#define IBCC__LAW_MAX_ACKS (UINT64_C(1) << 26)  /* recovery helper limit */
#define IBCC__LAW_TREC_MAX_ACKS 16777216u       /* checker: Trec limit */
#define IBCC__LAW_COMPILE_ACKS 1048576u         /* compile: ACKs per entry
                                                   stepped before the count
                                                   is extrapolated */

/* Clamp to [k, 1]; NaN becomes k. */
static double ibcc__law_clamp(double y, double k)
{
    if (!(y >= k)) return k;
    if (y > 1.0) return 1.0;
    return y;
}

/* The laws of MECHANISMS.md §4.2 [S03 §V] on normalised rates, before the
   clamp (the callers clamp). k = rmin. */
static double ibcc__law_inc_raw(const ibcc_law_desc *d, double x)
{
    switch (d->kind) {
    case IBCC_LAW_FIMD:
        /* finc(x) = x * m^(k/x) */
        return x * pow(d->m, d->rmin / x);
    case IBCC_LAW_AIMD:
        /* finc(x) = x + (m-1) * k^2 / x   (dr/dt = (m-1) Rmin^2) */
        return x + (d->m - 1.0) * d->rmin * d->rmin / x;
    case IBCC_LAW_CUSTOM:
        return d->finc(x, d->user);
    case IBCC_LAW_LIPD:
    default:
        /* finc(x) = x / (1 - k)   (IPD' + 1 = (IPD + 1)(1 - k)) */
        return x / (1.0 - d->rmin);
    }
}

static double ibcc__law_dec_raw(const ibcc_law_desc *d, double x)
{
    switch (d->kind) {
    case IBCC_LAW_FIMD:
    case IBCC_LAW_AIMD:
        /* fdec(x) = x / m */
        return x / d->m;
    case IBCC_LAW_CUSTOM:
        return d->fdec(x, d->user);
    case IBCC_LAW_LIPD:
    default:
        /* fdec(x) = 1 / (1/x + 1)   (IPD' = IPD + 1) */
        return 1.0 / (1.0 / x + 1.0);
    }
}

static double ibcc__law_inc(const ibcc_law_desc *d, double x)
{
    return ibcc__law_clamp(ibcc__law_inc_raw(d, x), d->rmin);
}

static double ibcc__law_dec(const ibcc_law_desc *d, double x)
{
    return ibcc__law_clamp(ibcc__law_dec_raw(d, x), d->rmin);
}

/* finc clamped below only (NaN becomes k): used where the clamp at Rmax
   would distort a count or an interpolation (compile, checker). */
static double ibcc__law_inc_lo(const ibcc_law_desc *d, double x)
{
    double y = ibcc__law_inc_raw(d, x);
    return (y >= d->rmin) ? y : d->rmin;
}

/* Number of IPD rates 1/(1+ipd) not below rmin: floor(1/rmin), with a
   relative slack so that rmin = 1/n (rounded to double) counts n. */
static uint32_t ibcc__law_ipd_count(double rmin)
{
    double c = floor((1.0 / rmin) * (1.0 + IBCC__LAW_EPS));
    if (c > 65536.0) c = 65536.0;
    return (uint32_t)c;
}

IBCC_API ibcc_result ibcc_law_defaults(ibcc_law_desc *d)
{
    int kind, form, rates;
    if (!d) return IBCC_ERR_NULL;
    kind = (int)d->kind;
    form = (int)d->form;
    rates = (int)d->rates;
    if (kind == 0) d->kind = IBCC_LAW_LIPD;
    if (form == 0) d->form = IBCC_LAW_CONTINUOUS;
    if (d->rmin == 0.0) d->rmin = 1.0 / 256.0;
    if (d->m == 0.0) d->m = 2.0;
    if (kind < 0 || kind > (int)IBCC_LAW_CUSTOM) return IBCC_ERR_RANGE;
    if (form < 0 || form > (int)IBCC_LAW_TABLE) return IBCC_ERR_RANGE;
    if (rates < 0 || rates > (int)IBCC_LAW_RATES_GEOMETRIC) return IBCC_ERR_RANGE;
    /* rmin: (Rmin > Rmax), Rmin == Rmax, negative, NaN and too small are
       rejected; 2^-16 keeps Rmax/r - 1 within Q16.16 */
    if (!(d->rmin >= 1.0 / 65536.0 && d->rmin < 1.0)) return IBCC_ERR_RANGE;
    if (!(d->m > 1.0 && d->m <= 65536.0)) return IBCC_ERR_RANGE;
    if (d->kind == IBCC_LAW_CUSTOM && (!d->finc || !d->fdec))
        return IBCC_ERR_NULL;
    if (d->form == IBCC_LAW_TABLE) {
        if (rates == 0) d->rates = IBCC_LAW_RATES_IPD;
        if (d->rates == IBCC_LAW_RATES_IPD) {
            uint32_t c;
            if (d->rmin < 1.0 / 256.0) return IBCC_ERR_RANGE;
            c = ibcc__law_ipd_count(d->rmin);
            if (d->table_size == 0) d->table_size = c;
            if (d->table_size != c) return IBCC_ERR_RANGE;
        } else {
            if (d->table_size == 0) d->table_size = 256;
            if (d->table_size < 2 || d->table_size > 65536u)
                return IBCC_ERR_CAPACITY;
        }
    } else {
        /* rate sets and sizes only mean something for tables */
        if (rates != 0 || d->table_size != 0) return IBCC_ERR_UNSUPPORTED;
        if (d->form == IBCC_LAW_DISCRETE && d->rmin < 1.0 / 256.0)
            return IBCC_ERR_RANGE;
    }
    return IBCC_OK;
}

IBCC_API size_t ibcc_law_size(const ibcc_law_desc *d)
{
    ibcc_law_desc e;
    if (!d) return 0;
    e = *d;
    if (ibcc_law_defaults(&e) != IBCC_OK) return 0;
    if (e.form == IBCC_LAW_TABLE)
        return (size_t)e.table_size * sizeof(ibcc__law_entry);
    return sizeof(uint64_t);
}

/* Index of the highest table rate not above y (rates descend with the
   index); n-1 if every rate is above y. Binary search. */
static uint32_t ibcc__law_floor_index(const ibcc__law_entry *t, uint32_t n,
                                      double y)
{
    uint32_t lo = 0, hi = n - 1;        /* answer in [lo, hi] */
    double yy = y * (1.0 + IBCC__LAW_EPS);
    while (lo < hi) {
        uint32_t mid = lo + (hi - lo) / 2;
        if (t[mid].rate <= yy) hi = mid; else lo = mid + 1;
    }
    return lo;
}

/* Number of unmarked ACKs from a to b in the continuous limit:
     n = integral from a to b of dx / (finc(x) - x)
   composite Simpson rule on 256 intervals; +inf if the law does not
   increase somewhere on [a, b]. Used when a law needs more than 2^20 ACKs
   for one table step (then each ACK is a tiny step and the limit is
   accurate). */
static double ibcc__law_ack_integral(const ibcc_law_desc *d, double a, double b)
{
    double h = (b - a) / 256.0, sum = 0.0;
    int j;
    for (j = 0; j <= 256; j++) {
        double x = a + h * (double)j;
        double g = ibcc__law_inc_lo(d, x) - x;
        double w = (j == 0 || j == 256) ? 1.0 : ((j & 1) ? 4.0 : 2.0);
        if (!(g > 0.0)) return HUGE_VAL;
        sum += w / g;
    }
    return sum * h / 3.0;
}

/* Compiles the tables (docs/law.md "table form"). For entry i, rate x_i:
     next_on_mark[i]   = highest table rate <= fdec(x_i)
     if finc(x_i) >= x_{i-1} (one ACK passes the next rate up):
       next_on_unmark[i] = j = highest table rate <= finc(x_i),
       inc[i] = 1 + (finc(x_i) - x_j)/(x_{j-1} - x_j)   (carried fraction)
     else: n_i = real number of unmarked ACKs the continuous law needs from
       x_i to reach x_{i-1} (whole ACKs, plus linear interpolation in rate
       inside the last one; finc not clamped at Rmax here, so the clamp
       does not stretch the last step); next_on_unmark[i] = i-1,
       inc[i] = 1/n_i.
   inc is Q1.31 (2^31 = one step), rounded to nearest, at least 1. The
   count is stepped ACK by ACK up to 2^20 ACKs; a law slower than that
   adds the continuous-limit count of the rest (ibcc__law_ack_integral).
   An entry from which the law does not increase gets inc 0 (it stays, as
   the continuous law does; a custom finc that lowers the rate is treated
   the same way, the table only moves up on unmarked ACKs). */
static void ibcc__law_compile(ibcc_law *l)
{
    const ibcc_law_desc *d = &l->d;
    ibcc__law_entry *t = l->table;
    uint32_t n = l->n, i;
    for (i = 0; i < n; i++) {
        double x;
        if (d->rates == IBCC_LAW_RATES_IPD) {
            x = 1.0 / (1.0 + (double)i);
            t[i].gapq = i << 16;                 /* ipd in Q16.16 */
        } else {
            if (i == 0) x = 1.0;
            else if (i == n - 1) x = d->rmin;
            else x = pow(d->rmin, (double)i / (double)(n - 1));
            /* Rmax/x - 1 in Q16.16; <= 65535 * 65536 since x >= 2^-16 */
            t[i].gapq = (uint32_t)floor((1.0 / x - 1.0) * 65536.0 + 0.5);
        }
        t[i].rate = x;
    }
    for (i = 0; i < n; i++) {
        double x = t[i].rate;
        t[i].mark = (uint16_t)ibcc__law_floor_index(t, n, ibcc__law_dec(d, x));
        if (i == 0) {                           /* Rmax: nowhere to go */
            t[i].up = 0;
            t[i].inc = 0;
        } else {
            double target = t[i - 1].rate * (1.0 - IBCC__LAW_EPS);
            double z1 = ibcc__law_inc_lo(d, x);
            if (z1 >= target) {
                uint32_t j = ibcc__law_floor_index(t, n, z1);
                double frac = 0.0;
                if (j >= i) j = i - 1;           /* only by the slack */
                if (j > 0 && z1 < t[j - 1].rate) {
                    frac = (z1 - t[j].rate) / (t[j - 1].rate - t[j].rate);
                    if (!(frac > 0.0)) frac = 0.0;
                    if (frac > 2147483647.0 / 2147483648.0)
                        frac = 2147483647.0 / 2147483648.0;
                }
                t[i].up = (uint16_t)j;
                {
                    double inc = floor((1.0 + frac) * 2147483648.0 + 0.5);
                    if (inc > 4294967295.0) inc = 4294967295.0;
                    t[i].inc = (uint32_t)inc;
                }
            } else {
                double prev = z1, nreal = -1.0;
                uint32_t count = 1;
                while (count < IBCC__LAW_COMPILE_ACKS) {
                    double nz = ibcc__law_inc_lo(d, prev);
                    if (!(nz > prev)) break;      /* no progress: stuck */
                    count++;
                    if (nz >= target) {
                        nreal = (double)(count - 1)
                              + (t[i - 1].rate - prev) / (nz - prev);
                        break;
                    }
                    prev = nz;
                }
                if (count >= IBCC__LAW_COMPILE_ACKS && nreal < 0.0) {
                    double rest = ibcc__law_ack_integral(d, prev, t[i - 1].rate);
                    if (rest < 1e300) nreal = (double)count + rest;
                }
                t[i].up = (uint16_t)(i - 1);
                if (nreal < 0.0) {
                    t[i].up = (uint16_t)i;
                    t[i].inc = 0;
                } else {
                    double inc = floor(2147483648.0 / nreal + 0.5);
                    if (inc < 1.0) inc = 1.0;
                    if (inc > 2147483648.0) inc = 2147483648.0;
                    t[i].inc = (uint32_t)inc;
                }
            }
        }
    }
}

/* DISCRETE: applied ipd of the exact state q (Q32.32):
     ipd = ceil(2^32 / (q + 1/2)) - 1 = ceil(2^33 / (2q + 1)) - 1
   the highest IPD rate not above the exact rate; the half unit is the
   rounding of the state to Q32.32 (round to nearest), so that a state
   that is 1/n up to that rounding applies 1/n. q >= 2^24 (rmin >= 1/256)
   gives ipd <= 255. */
static uint32_t ibcc__law_ipd_of_q(uint64_t q)
{
    uint64_t den = 2u * q + 1u;
    return (uint32_t)((UINT64_C(8589934592) + den - 1u) / den - 1u);
}

/* DISCRETE: applied ipd, never below the lowest IPD rate at or above Rmin:
     ipd = min(ipd_of_q(q), ipd_max),  ipd_max = floor(1/rmin) - 1
   (the IPD table's last index). Matters only when rmin is not itself an
   IPD rate 1/n: then the highest IPD rate not above a state at the floor
   would lie below Rmin (e.g. rmin 0.3: 1/4 < 0.3), and the rate is
   applied as 1/floor(1/rmin) (1/3) instead, as the IPD table does. */
static uint32_t ibcc__law_ipd_applied(const ibcc_law *l, uint64_t q)
{
    uint32_t ipd = ibcc__law_ipd_of_q(q);
    return ipd > l->ipd_max ? l->ipd_max : ipd;
}

static uint64_t ibcc__law_q_of_x(const ibcc_law *l, double x)
{
    double qd = floor(x * IBCC__LAW_Q32 + 0.5);
    uint64_t q;
    if (!(qd >= (double)l->qmin)) return l->qmin;
    if (qd >= IBCC__LAW_Q32) return IBCC__LAW_ONE_Q32;
    q = (uint64_t)qd;
    return q < l->qmin ? l->qmin : q;
}

IBCC_API void ibcc_law_reset(ibcc_law *l)
{
    if (!l) return;
    memset(&l->s, 0, sizeof l->s);
    switch (l->d.form) {
    case IBCC_LAW_DISCRETE:
        l->s.q = IBCC__LAW_ONE_Q32;
        l->s.index = 0;
        break;
    case IBCC_LAW_TABLE:
        l->s.index = 0;
        break;
    case IBCC_LAW_CONTINUOUS:
    case IBCC_LAW_FORM_DEFAULT:
    default:
        l->s.x = 1.0;
        break;
    }
}

IBCC_API ibcc_result ibcc_law_init(ibcc_law *l, const ibcc_law_desc *d,
                                   void *mem, size_t len)
{
    ibcc_law_desc e;
    ibcc_result r;
    if (!l || !d) return IBCC_ERR_NULL;
    e = *d;
    r = ibcc_law_defaults(&e);
    if (r != IBCC_OK) return r;
    if (e.form == IBCC_LAW_TABLE) {
        if (!mem) return IBCC_ERR_NULL;
        if (((uintptr_t)mem) % sizeof(uint64_t) != 0) return IBCC_ERR_ALIGN;
        if (len < (size_t)e.table_size * sizeof(ibcc__law_entry))
            return IBCC_ERR_NOMEM;
    }
    memset(l, 0, sizeof *l);
    l->d = e;
    /* qmin = ceil(rmin * 2^32): the Q32.32 floor never goes below rmin */
    l->qmin = (uint64_t)ceil(e.rmin * IBCC__LAW_Q32);
    /* DISCRETE: lowest applied rate 1/(1 + ipd_max) >= rmin */
    l->ipd_max = ibcc__law_ipd_count(e.rmin) - 1u;
    if (e.form == IBCC_LAW_TABLE) {
        l->n = e.table_size;
        l->table = (ibcc__law_entry *)mem;
        ibcc__law_compile(l);
    }
    ibcc_law_reset(l);
    return IBCC_OK;
}

/* CONTINUOUS and DISCRETE step. w = weight_q16 / 2^16.
     marked:   x' = fdec(x)
     unmarked: x' = x + w * (finc(x) - x)      (w = 1: x' = finc(x))
   DISCRETE: x = q / 2^32, q' = round(x' * 2^32) clamped to [qmin, 2^32],
   ipd' = ceil(2^32 / q') - 1. */
IBCC_API void ibcc__law_step(ibcc_law *l, int marked, uint32_t weight_q16)
{
    double x, y;
    if (!l) return;
    if (l->d.form == IBCC_LAW_DISCRETE) x = (double)l->s.q / IBCC__LAW_Q32;
    else x = l->s.x;
    if (marked) {
        y = ibcc__law_dec(&l->d, x);
    } else {
        y = ibcc__law_inc(&l->d, x);
        if (weight_q16 != 65536u)
            y = ibcc__law_clamp(x + ((double)weight_q16 / 65536.0) * (y - x),
                                l->d.rmin);
    }
    if (l->d.form == IBCC_LAW_DISCRETE) {
        l->s.q = ibcc__law_q_of_x(l, y);
        l->s.index = ibcc__law_ipd_applied(l, l->s.q);
    } else {
        l->s.x = y;
    }
}

IBCC_API ibcc_time ibcc_law_gap(const ibcc_law *l, ibcc_time tau)
{
    if (!l) return 0;
    switch (l->d.form) {
    case IBCC_LAW_DISCRETE: {
        /* gap = ipd * tau */
        uint64_t ipd = l->s.index;
        if (ipd != 0 && tau > IBCC_TIME_MAX / ipd) return IBCC_TIME_MAX;
        return tau * ipd;
    }
    case IBCC_LAW_TABLE: {
        /* gap = (tau * gap_q16) >> 16; one 64-bit product when tau < 2^32
           ps (4.3 ms), else a 128-bit one */
        uint64_t hi, lo, gq = l->table[l->s.index].gapq;
        if ((tau >> 32) == 0) return (tau * gq) >> 16;
        ibcc__mul128(tau, gq, &hi, &lo);
        if (hi >> 16) return IBCC_TIME_MAX;
        return (hi << 48) | (lo >> 16);
    }
    case IBCC_LAW_CONTINUOUS:
    case IBCC_LAW_FORM_DEFAULT:
    default: {
        /* gap = tau * (1/x - 1), nearest ps */
        double g = (double)tau * (1.0 / l->s.x - 1.0);
        if (!(g < 18446744073709549568.0)) return IBCC_TIME_MAX;
        return (ibcc_time)floor(g + 0.5);
    }
    }
}

IBCC_API double ibcc_law_rate(const ibcc_law *l)
{
    if (!l) return 0.0;
    switch (l->d.form) {
    case IBCC_LAW_DISCRETE: return 1.0 / (1.0 + (double)l->s.index);
    case IBCC_LAW_TABLE: return l->table[l->s.index].rate;
    case IBCC_LAW_CONTINUOUS:
    case IBCC_LAW_FORM_DEFAULT:
    default: return l->s.x;
    }
}

IBCC_API double ibcc_law_exact_rate(const ibcc_law *l)
{
    if (!l) return 0.0;
    if (l->d.form == IBCC_LAW_DISCRETE) return (double)l->s.q / IBCC__LAW_Q32;
    return ibcc_law_rate(l);
}

IBCC_API ibcc_rate ibcc_law_rate_bytes(const ibcc_law *l, ibcc_rate rmax)
{
    double v;
    if (!l) return 0;
    if (l->d.form == IBCC_LAW_DISCRETE)
        return rmax / (1u + (uint64_t)l->s.index);
    if (l->d.form == IBCC_LAW_TABLE && l->d.rates == IBCC_LAW_RATES_IPD)
        return rmax / (1u + (uint64_t)l->s.index);
    v = floor((double)rmax * ibcc_law_rate(l));
    if (v >= (double)rmax) return rmax;
    if (!(v > 0.0)) return 0;
    return (ibcc_rate)v;
}

IBCC_API uint32_t ibcc_law_ipd(const ibcc_law *l)
{
    double c;
    if (!l) return 0;
    if (l->d.form == IBCC_LAW_DISCRETE) return l->s.index;
    if (l->d.form == IBCC_LAW_TABLE && l->d.rates == IBCC_LAW_RATES_IPD)
        return l->s.index;
    /* ceil(1/x) - 1, with slack so that x = 1/n (in double) gives n - 1 */
    c = ceil((1.0 / ibcc_law_rate(l)) * (1.0 - IBCC__LAW_EPS)) - 1.0;
    if (c < 0.0) c = 0.0;
    return (uint32_t)c;
}

IBCC_API int ibcc_law_at_max(const ibcc_law *l)
{
    if (!l) return 0;
    switch (l->d.form) {
    case IBCC_LAW_DISCRETE: return l->s.q >= IBCC__LAW_ONE_Q32;
    case IBCC_LAW_TABLE: return l->s.index == 0;
    case IBCC_LAW_CONTINUOUS:
    case IBCC_LAW_FORM_DEFAULT:
    default: return l->s.x >= 1.0;
    }
}

IBCC_API ibcc_result ibcc_law_set_rate(ibcc_law *l, double x)
{
    if (!l) return IBCC_ERR_NULL;
    if (x != x) return IBCC_ERR_RANGE;
    x = ibcc__law_clamp(x, l->d.rmin);
    memset(&l->s, 0, sizeof l->s);
    switch (l->d.form) {
    case IBCC_LAW_DISCRETE:
        l->s.q = ibcc__law_q_of_x(l, x);
        l->s.index = ibcc__law_ipd_applied(l, l->s.q);
        break;
    case IBCC_LAW_TABLE:
        l->s.index = ibcc__law_floor_index(l->table, l->n, x);
        break;
    case IBCC_LAW_CONTINUOUS:
    case IBCC_LAW_FORM_DEFAULT:
    default:
        l->s.x = x;
        break;
    }
    return IBCC_OK;
}

IBCC_API ibcc_result ibcc_law_get_state(const ibcc_law *l, ibcc_law_state *s)
{
    if (!l || !s) return IBCC_ERR_NULL;
    *s = l->s;
    return IBCC_OK;
}

IBCC_API ibcc_result ibcc_law_set_state(ibcc_law *l, const ibcc_law_state *s)
{
    if (!l || !s) return IBCC_ERR_NULL;
    switch (l->d.form) {
    case IBCC_LAW_DISCRETE:
        if (s->x != 0.0 || s->acc != 0) return IBCC_ERR_RANGE;
        if (s->q < l->qmin || s->q > IBCC__LAW_ONE_Q32) return IBCC_ERR_RANGE;
        if (s->index != ibcc__law_ipd_applied(l, s->q)) return IBCC_ERR_RANGE;
        break;
    case IBCC_LAW_TABLE:
        if (s->x != 0.0 || s->q != 0) return IBCC_ERR_RANGE;
        if (s->index >= l->n || s->acc >= IBCC__LAW_STEP) return IBCC_ERR_RANGE;
        break;
    case IBCC_LAW_CONTINUOUS:
    case IBCC_LAW_FORM_DEFAULT:
    default:
        if (!(s->x >= l->d.rmin && s->x <= 1.0)) return IBCC_ERR_RANGE;
        if (s->q != 0 || s->index != 0 || s->acc != 0) return IBCC_ERR_RANGE;
        break;
    }
    l->s = *s;
    return IBCC_OK;
}

IBCC_API double ibcc_law_finc(const ibcc_law *l, double x)
{
    if (!l) return 0.0;
    return ibcc__law_inc(&l->d, ibcc__law_clamp(x, l->d.rmin));
}

IBCC_API double ibcc_law_fdec(const ibcc_law *l, double x)
{
    if (!l) return 0.0;
    return ibcc__law_dec(&l->d, ibcc__law_clamp(x, l->d.rmin));
}

IBCC_API uint32_t ibcc_law_table_size(const ibcc_law *l)
{
    if (!l || l->d.form != IBCC_LAW_TABLE) return 0;
    return l->n;
}

IBCC_API ibcc_result ibcc_law_table_entry(const ibcc_law *l, uint32_t i,
                                          ibcc_law_entry *out)
{
    const ibcc__law_entry *e;
    if (!l || !out) return IBCC_ERR_NULL;
    if (l->d.form != IBCC_LAW_TABLE) return IBCC_ERR_STATE;
    if (i >= l->n) return IBCC_ERR_RANGE;
    e = l->table + i;
    out->rate = e->rate;
    out->next_on_mark = e->mark;
    out->next_on_unmark = e->up;
    out->inc = e->inc;
    out->gap_q16 = e->gapq;
    return IBCC_OK;
}

/* ---- recovery helper --------------------------------------------------- */

static void ibcc__law_set_min(ibcc_law *l)
{
    memset(&l->s, 0, sizeof l->s);
    switch (l->d.form) {
    case IBCC_LAW_DISCRETE:
        l->s.q = l->qmin;
        l->s.index = ibcc__law_ipd_applied(l, l->qmin);
        break;
    case IBCC_LAW_TABLE:
        l->s.index = l->n - 1;
        break;
    case IBCC_LAW_CONTINUOUS:
    case IBCC_LAW_FORM_DEFAULT:
    default:
        l->s.x = l->d.rmin;
        break;
    }
}

IBCC_API ibcc_result ibcc_law_recovery(const ibcc_law *l, ibcc_time tau,
                                       ibcc_law_point *curve, size_t cap,
                                       ibcc_law_recovery_result *out)
{
    ibcc_law c;
    ibcc_time t = 0;
    double t_tau = 0.0;
    uint64_t acks = 0;
    size_t pts = 0;
    int cont;
    if (!l || !out || (cap > 0 && !curve)) return IBCC_ERR_NULL;
    if (tau == 0) return IBCC_ERR_RANGE;
    c = *l;                           /* tables shared, read-only */
    ibcc__law_set_min(&c);
    cont = (c.d.form != IBCC_LAW_DISCRETE && c.d.form != IBCC_LAW_TABLE);
    if (pts < cap) { curve[pts].t = 0; curve[pts].rate = ibcc_law_rate(&c); pts++; }
    while (!ibcc_law_at_max(&c)) {
        if (acks >= IBCC__LAW_MAX_ACKS) return IBCC_ERR_RANGE;
        if (cont) {
            /* interval at rate x: tau / x; time kept exactly in tau units */
            double tp;
            t_tau += 1.0 / c.s.x;
            tp = floor(t_tau * (double)tau + 0.5);
            if (!(tp < 18446744073709549568.0)) return IBCC_ERR_OVERFLOW;
            t = (ibcc_time)tp;
        } else {
            /* interval = tau + gap(tau), integer ps */
            ibcc_time g = ibcc_law_gap(&c, tau);
            if (g > IBCC_TIME_MAX - tau || t > IBCC_TIME_MAX - tau - g)
                return IBCC_ERR_OVERFLOW;
            t += tau + g;
            t_tau += 1.0 + (double)g / (double)tau;
        }
        ibcc_law_on_ack(&c, 0);
        acks++;
        if (pts < cap) { curve[pts].t = t; curve[pts].rate = ibcc_law_rate(&c); pts++; }
    }
    out->time = t;
    out->time_tau = t_tau;
    out->acks = acks;
    out->points = pts;
    return IBCC_OK;
}

IBCC_API ibcc_result ibcc_law_recovery_closed(const ibcc_law_desc *d,
                                              double *tau_units)
{
    ibcc_law_desc e;
    ibcc_result r;
    double k;
    if (!d || !tau_units) return IBCC_ERR_NULL;
    e = *d;
    r = ibcc_law_defaults(&e);
    if (r != IBCC_OK) return r;
    k = e.rmin;
    switch (e.kind) {
    case IBCC_LAW_FIMD:
        /* ln x grows by (k/x) ln m per ACK of duration 1/x:
           d(ln x)/dt = k ln m  =>  T = ln(1/k) / (k ln m) */
        *tau_units = log(1.0 / k) / (k * log(e.m));
        return IBCC_OK;
    case IBCC_LAW_LIPD:
        /* 1/x falls by k/x per ACK of duration 1/x: d(1/x)/dt = -k
           =>  T = (1/k - 1) / k */
        *tau_units = (1.0 / k - 1.0) / k;
        return IBCC_OK;
    case IBCC_LAW_AIMD:
        /* x grows by (m-1)k^2/x per ACK of duration 1/x:
           dx/dt = (m-1) k^2  =>  T = (1 - k) / ((m-1) k^2) */
        *tau_units = (1.0 - k) / ((e.m - 1.0) * k * k);
        return IBCC_OK;
    case IBCC_LAW_CUSTOM:
    case IBCC_LAW_KIND_DEFAULT:
    default:
        return IBCC_ERR_UNSUPPORTED;
    }
}

/* ---- conditions checker ------------------------------------------------ */

/* Trec(r): time in units of tau from fdec(r) back to r, one ACK per
   interval 1/z, geometric interpolation inside the last ACK; +inf if the
   law stops increasing or needs more than 2^24 ACKs. */
static double ibcc__law_trec(const ibcc_law_desc *d, double r)
{
    double z = ibcc__law_dec(d, r), t = 0.0;
    uint32_t count = 0;
    for (;;) {
        double nz;
        if (z >= r) return t;
        /* not clamped at Rmax: the clamp would stretch the last ACK */
        nz = ibcc__law_inc_lo(d, z);
        if (!(nz > z)) return HUGE_VAL;
        /* the last ACK counts for the fraction ln(r/z) / ln(nz/z) of its
           interval (geometric interpolation: exact for FIMD, whose ln x is
           linear in time; second order for small steps) */
        if (nz >= r) return t + (log(r / z) / log(nz / z)) / z;
        t += 1.0 / z;
        z = nz;
        if (++count > IBCC__LAW_TREC_MAX_ACKS) return HUGE_VAL;
    }
}

static int ibcc__law_tol_bad(double t)
{
    return !(t >= 0.0) || t > 1e300;   /* negative, NaN or infinite */
}

IBCC_API ibcc_result ibcc_law_check(const ibcc_law_desc *d,
                                    const ibcc_law_check_desc *c,
                                    ibcc_law_check_result *out)
{
    ibcc_law_desc e;
    ibcc_law_check_desc cd;
    ibcc_result r;
    uint32_t i, n, evaluated = 0;
    double k, tmax = 0.0;
    if (!d || !out) return IBCC_ERR_NULL;
    e = *d;
    r = ibcc_law_defaults(&e);
    if (r != IBCC_OK) return r;
    if (c) cd = *c; else memset(&cd, 0, sizeof cd);
    if (cd.points == 0) cd.points = 256;
    if (cd.tol1 == 0.0) cd.tol1 = 1e-9;
    if (cd.tol2 == 0.0) cd.tol2 = 1e-3;
    if (cd.tol3 == 0.0) cd.tol3 = 1e-3;
    if (cd.points < 2 || cd.points > 65536u) return IBCC_ERR_RANGE;
    if (ibcc__law_tol_bad(cd.tol1) || ibcc__law_tol_bad(cd.tol2)
        || ibcc__law_tol_bad(cd.tol3)) return IBCC_ERR_RANGE;
    memset(out, 0, sizeof *out);
    n = cd.points;
    k = e.rmin;
    for (i = 0; i < 3; i++) out->cond[i].worst = -HUGE_VAL;
    for (i = 0; i < n; i++) {
        double x, fd, v1, tr, v2, v3;
        /* r_i = k^(1 - i/(n-1)): k at i = 0, 1 at i = n-1 */
        if (i == n - 1) x = 1.0;
        else if (i == 0) x = k;
        else x = pow(k, 1.0 - (double)i / (double)(n - 1));
        fd = ibcc__law_dec(&e, x);
        if (!(fd > k * (1.0 + IBCC__LAW_EPS))) continue;  /* floor hit */
        evaluated++;
        /* C1: finc(fdec(r)) <= r, relative excess */
        v1 = (ibcc__law_inc(&e, fd) - x) / x;
        if (v1 > out->cond[0].worst) { out->cond[0].worst = v1; out->cond[0].rate = x; }
        tr = ibcc__law_trec(&e, x);
        /* C2: Trec non-decreasing: relative drop below the running max */
        if (tr >= tmax) { v2 = 0.0; tmax = tr; }
        else if (tmax > 1e300) v2 = 1.0;       /* finite after infinite */
        else v2 = (tmax - tr) / tmax;
        if (v2 > out->cond[1].worst) { out->cond[1].worst = v2; out->cond[1].rate = x; }
        /* C3: Trec = 1/Rmin, i.e. Trec * k = 1 in tau units */
        v3 = fabs(tr * k - 1.0);
        if (v3 > out->cond[2].worst) { out->cond[2].worst = v3; out->cond[2].rate = x; }
    }
    out->points = n;
    out->evaluated = evaluated;
    out->tol = cd;
    if (evaluated == 0) return IBCC_ERR_CAPACITY;
    out->cond[0].pass = out->cond[0].worst <= cd.tol1;
    out->cond[1].pass = out->cond[1].worst <= cd.tol2;
    out->cond[2].pass = out->cond[2].worst <= cd.tol3;
    return IBCC_OK;
}
