/* ==== L0 basics ========================================================
   Version, result codes, units (time, rate, wire time), the packet header
   flag bits shared by every engine, and a small deterministic RNG.
   ====================================================================== */

#define IBCC_VERSION_MAJOR 0
#define IBCC_VERSION_MINOR 1
#define IBCC_VERSION_PATCH 0
#define IBCC_VERSION_STRING "0.1.0"

/* Returns IBCC_VERSION_STRING of the implementation that was compiled. */
IBCC_API const char *ibcc_version(void);

/* ---- results --------------------------------------------------------- */
typedef enum ibcc_result {
    IBCC_OK              =   0,
    IBCC_ERR_NULL        =  -1, /* a required pointer argument is NULL */
    IBCC_ERR_RANGE       =  -2, /* a parameter is outside its documented range */
    IBCC_ERR_CAPACITY    =  -3, /* a size or count is 0 or above its maximum */
    IBCC_ERR_NOMEM       =  -4, /* memory passed is smaller than ibcc_X_size()
                                   or an allocator returned NULL */
    IBCC_ERR_ALIGN       =  -5, /* memory passed is not aligned for uint64_t */
    IBCC_ERR_FULL        =  -6, /* a bounded container (heap, log) is full */
    IBCC_ERR_PAST        =  -7, /* a time earlier than the current time */
    IBCC_ERR_OVERFLOW    =  -8, /* the result does not fit its 64-bit type */
    IBCC_ERR_PARSE       =  -9, /* text input could not be parsed */
    IBCC_ERR_MISMATCH    = -10, /* event contradicts the recorded state
                                   (e.g. a departure with no arrival) */
    IBCC_ERR_NOT_FOUND   = -11, /* unknown, expired or cancelled handle/id */
    IBCC_ERR_STATE       = -12, /* not allowed in the object's current state */
    IBCC_ERR_UNSUPPORTED = -13  /* valid values, unsupported combination */
} ibcc_result;

/* One-line English description of a result code; never NULL. */
IBCC_API const char *ibcc_result_str(ibcc_result r);

/* ---- units ----------------------------------------------------------- */
/* Simulated time in picoseconds. Exact for byte times at every link rate
   whose byte time is a whole number of ps; 2^64 ps is about 213 days. */
typedef uint64_t ibcc_time;
#define IBCC_TIME_MAX UINT64_MAX
#define IBCC_PS(x) ((ibcc_time)(x))
#define IBCC_NS(x) ((ibcc_time)(x) * UINT64_C(1000))
#define IBCC_US(x) ((ibcc_time)(x) * UINT64_C(1000000))
#define IBCC_MS(x) ((ibcc_time)(x) * UINT64_C(1000000000))
#define IBCC_S(x)  ((ibcc_time)(x) * UINT64_C(1000000000000))

/* Link rate in bytes per second. */
typedef uint64_t ibcc_rate;
#define IBCC_GBYTES(x) ((ibcc_rate)(x) * UINT64_C(1000000000)) /* 10^9 B/s */
#define IBCC_MBYTES(x) ((ibcc_rate)(x) * UINT64_C(1000000))    /* 10^6 B/s */
#define IBCC_GBITS(x)  ((ibcc_rate)(x) * UINT64_C(125000000))  /* 10^9 bit/s */

/* Wire time of `bytes` at `rate` bytes/s, in ps, rounded up:
       *out = ceil(bytes * 10^12 / rate)
   computed exactly with a 128-bit intermediate. Rounding up means a packet
   never finishes before its last bit could have. Errors: IBCC_ERR_NULL
   (out), IBCC_ERR_RANGE (rate 0), IBCC_ERR_OVERFLOW (result >= 2^64). */
IBCC_API ibcc_result ibcc_wire_time(uint64_t bytes, ibcc_rate rate,
                                    ibcc_time *out);

/* ---- packet header flag bits ------------------------------------------
   One bit set shared by all engines; engines return them, callers OR them
   into their own packet header representation. */
#define IBCC_FECN  0x01u /* forward congestion mark (Santos' ECN, IBA FECN) */
#define IBCC_ECN   IBCC_FECN
#define IBCC_BECN  0x02u /* backward mark echoed to the source (ACK or CNP) */
#define IBCC_MB    0x04u /* MVPM marking bit [F] */
#define IBCC_VB    0x08u /* MVPM validation bit [F] */
#define IBCC_ACK   0x10u /* packet is an acknowledgement */
#define IBCC_CNP   0x20u /* packet is a congestion notification packet */
#define IBCC_MCAST 0x40u /* packet is multicast */

/* ---- RNG ---------------------------------------------------------------
   xoshiro256** (Blackman & Vigna, 2018) seeded through splitmix64. State is
   the caller's; the same seed gives the same sequence on every platform. */
typedef struct ibcc_rng { uint64_t s[4]; } ibcc_rng;

/* Seeds the state from one 64-bit value (any value, 0 included). */
IBCC_API void ibcc_rng_seed(ibcc_rng *r, uint64_t seed);

/* Next 64 random bits (0 for r NULL). Inline (hot path). */
IBCC_INLINE uint64_t ibcc_rng_next(ibcc_rng *r)
{
    uint64_t *s, x, out, t;
    if (!r) return 0;
    s = r->s;
    x = s[1] * 5u;
    out = ((x << 7) | (x >> 57)) * 9u;
    t = s[1] << 17;
    s[2] ^= s[0];
    s[3] ^= s[1];
    s[1] ^= s[2];
    s[0] ^= s[3];
    s[2] ^= t;
    s[3] = (s[3] << 45) | (s[3] >> 19);
    return out;
}

/* The draws below return 0 (0.0) when r is NULL and draw nothing.
   Uniform integer in [0, n), unbiased (rejection); returns 0 when n == 0. */
IBCC_API uint64_t ibcc_rng_below(ibcc_rng *r, uint64_t n);
/* Uniform double in [0, 1) with 53 random bits. */
IBCC_API double ibcc_rng_double(ibcc_rng *r);
/* Exponential variate with the given mean (mean <= 0 or NaN gives 0). */
IBCC_API double ibcc_rng_exp(ibcc_rng *r, double mean);
/* 1 with probability p (p <= 0 or NaN: never, p >= 1: always), else 0. */
IBCC_API int ibcc_rng_bernoulli(ibcc_rng *r, double p);
