/* ---- L0 basics: implementation ---------------------------------------- */

IBCC_API const char *ibcc_version(void) { return IBCC_VERSION_STRING; }

IBCC_API const char *ibcc_result_str(ibcc_result r)
{
    switch (r) {
    case IBCC_OK:              return "ok";
    case IBCC_ERR_NULL:        return "a required pointer argument is NULL";
    case IBCC_ERR_RANGE:       return "a parameter is outside its documented range";
    case IBCC_ERR_CAPACITY:    return "a size or count is zero or above its maximum";
    case IBCC_ERR_NOMEM:       return "not enough memory (smaller than the size query, or allocation failed)";
    case IBCC_ERR_ALIGN:       return "memory is not aligned for uint64_t";
    case IBCC_ERR_FULL:        return "a bounded container is full";
    case IBCC_ERR_PAST:        return "time is earlier than the current time";
    case IBCC_ERR_OVERFLOW:    return "result does not fit in 64 bits";
    case IBCC_ERR_PARSE:       return "text could not be parsed";
    case IBCC_ERR_MISMATCH:    return "event does not match the recorded state";
    case IBCC_ERR_NOT_FOUND:   return "unknown, expired or cancelled handle";
    case IBCC_ERR_STATE:       return "operation not allowed in the current state";
    case IBCC_ERR_UNSUPPORTED: return "unsupported combination of options";
    }
    return "unknown ibcc_result code";
}

/* 64x64 -> 128-bit product as (hi, lo), portable C99. */
static void ibcc__mul128(uint64_t a, uint64_t b, uint64_t *hi, uint64_t *lo)
{
    uint64_t a0 = a & 0xffffffffu, a1 = a >> 32;
    uint64_t b0 = b & 0xffffffffu, b1 = b >> 32;
    uint64_t p00 = a0 * b0, p01 = a0 * b1, p10 = a1 * b0, p11 = a1 * b1;
    uint64_t mid = (p00 >> 32) + (p01 & 0xffffffffu) + (p10 & 0xffffffffu);
    *lo = (mid << 32) | (p00 & 0xffffffffu);
    *hi = p11 + (p01 >> 32) + (p10 >> 32) + (mid >> 32);
}

/* floor((a*b + add) / d) for d > 0 and add < d, with a 128-bit
   intermediate; IBCC_ERR_OVERFLOW if the quotient needs more than 64 bits.
   add = d - 1 rounds up, add = d / 2 rounds half up, add = 0 truncates.
   Long division one bit at a time when the product exceeds 64 bits (only
   off the per-packet paths). */
static ibcc_result ibcc__muldiv(uint64_t a, uint64_t b, uint64_t d,
                                uint64_t add, uint64_t *out)
{
    uint64_t hi, lo, q = 0, rem;
    int i;
    ibcc__mul128(a, b, &hi, &lo);
    lo += add;
    if (lo < add) hi++;
    if (hi >= d) return IBCC_ERR_OVERFLOW; /* quotient >= 2^64 */
    if (hi == 0) { *out = lo / d; return IBCC_OK; }
    rem = hi;
    for (i = 63; i >= 0; i--) {
        /* rem < d here; shift in the next bit of lo */
        uint64_t top = rem >> 63;
        rem = (rem << 1) | ((lo >> i) & 1u);
        q <<= 1;
        if (top || rem >= d) { rem -= d; q |= 1u; }
    }
    *out = q;
    return IBCC_OK;
}

/* ceil(a*b / d), d > 0. */
static ibcc_result ibcc__muldiv_ceil(uint64_t a, uint64_t b, uint64_t d,
                                     uint64_t *out)
{
    return ibcc__muldiv(a, b, d, d - 1u, out);
}

IBCC_API ibcc_result ibcc_wire_time(uint64_t bytes, ibcc_rate rate,
                                    ibcc_time *out)
{
    const uint64_t ps_per_s = UINT64_C(1000000000000);
    if (!out) return IBCC_ERR_NULL;
    if (rate == 0) return IBCC_ERR_RANGE;
    if (ps_per_s % rate == 0) {           /* whole ps per byte: one multiply */
        uint64_t per = ps_per_s / rate;
        if (bytes != 0 && per > UINT64_MAX / bytes) return IBCC_ERR_OVERFLOW;
        *out = bytes * per;
        return IBCC_OK;
    }
    return ibcc__muldiv_ceil(bytes, ps_per_s, rate, out);
}

/* ---- RNG --------------------------------------------------------------- */
static uint64_t ibcc__splitmix64(uint64_t *x)
{
    uint64_t z = (*x += UINT64_C(0x9E3779B97F4A7C15));
    z = (z ^ (z >> 30)) * UINT64_C(0xBF58476D1CE4E5B9);
    z = (z ^ (z >> 27)) * UINT64_C(0x94D049BB133111EB);
    return z ^ (z >> 31);
}

IBCC_API void ibcc_rng_seed(ibcc_rng *r, uint64_t seed)
{
    int i;
    if (!r) return;
    for (i = 0; i < 4; i++) r->s[i] = ibcc__splitmix64(&seed);
}

IBCC_API uint64_t ibcc_rng_below(ibcc_rng *r, uint64_t n)
{
    /* reject the top (2^64 mod n) values so every residue is equally likely */
    uint64_t limit, x;
    if (n == 0 || !r) return 0;
    limit = UINT64_MAX - (UINT64_MAX % n + 1) % n;
    do { x = ibcc_rng_next(r); } while (x > limit);
    return x % n;
}

IBCC_API double ibcc_rng_double(ibcc_rng *r)
{
    /* top 53 bits scaled by 2^-53 */
    if (!r) return 0.0;
    return (double)(ibcc_rng_next(r) >> 11) * (1.0 / 9007199254740992.0);
}

IBCC_API double ibcc_rng_exp(ibcc_rng *r, double mean)
{
    /* inverse transform: -mean * ln(1 - u), 1 - u in (0, 1] */
    if (!(mean > 0.0) || !r) return 0.0;
    return -mean * log(1.0 - ibcc_rng_double(r));
}

IBCC_API int ibcc_rng_bernoulli(ibcc_rng *r, double p)
{
    if (!(p > 0.0) || !r) return 0;
    if (p >= 1.0) return 1;
    return ibcc_rng_double(r) < p;
}
