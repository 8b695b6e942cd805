/* ibcc.h v0.1.0 - congestion-control mechanisms for lossless interconnects
   SPDX-License-Identifier: MIT
   Copyright (c) 2026 the ibcc authors. Licence text at the end of this file.

   WHAT IT IS
   ----------
   ibcc is a single-header C99 library (it also compiles as C++11 and later)
   of the congestion-control mechanisms of lossless, credit-flow-controlled
   interconnects such as InfiniBand: switch marking engines, port arbiters,
   source rate laws, the IBA channel-adapter CCT/CCTI agent, MVCM's window
   and waiting-slot actions, destination echo rules and dual-priority
   segmentation. Each is pure state plus step functions: no clock of its
   own, no allocation, no global state, so that switch/NIC firmware
   prototypes and other simulators (ns-3, OMNeT++, SST, ...) can embed it.
   Above the engines sit a minimal event loop and a small fabric model
   built from the same engines.

   QUICK START
   -----------
   In exactly one C or C++ file of your program:

       #define IBCC_IMPLEMENTATION
       #include "ibcc.h"

   Everywhere else just #include "ibcc.h". Link with -lm.

       ibcc_loop_desc d = {0};            // zero means "documented default"
       d.capacity = 1024;
       size_t need = ibcc_loop_size(&d);  // caller owns all memory
       void *mem = malloc(need);
       ibcc_loop loop;
       if (ibcc_loop_init(&loop, &d, mem, need) != IBCC_OK) ...
       ibcc_loop_after(&loop, IBCC_US(2), my_callback, my_ctx, 0, NULL);
       ibcc_loop_run(&loop);

   CONFIGURATION MACROS (define before including)
   --------------------
   IBCC_IMPLEMENTATION  emit the function definitions (one translation unit)
   IBCC_STATIC          make every function static (several private copies,
                        no exported symbols; implies IBCC_IMPLEMENTATION use
                        in each file that includes it)
   IBCC_API             override the decoration of public functions
   IBCC_NO_FABRIC       leave out layer L3 (fabric model)

   UNITS
   -----
   ibcc_time   uint64_t picoseconds. IBCC_PS/NS/US/MS/S(x) build times;
               2^64 ps is about 213 days of simulated time.
   ibcc_rate   uint64_t bytes per second. IBCC_GBYTES(x) (10^9 B/s) and
               IBCC_GBITS(x) (10^9 bit/s) build rates.
   wire time   ibcc_wire_time(bytes, rate, &t): t = ceil(bytes * 10^12 / rate)
               ps, exact integer arithmetic (128-bit intermediate), and
               IBCC_ERR_OVERFLOW when the result does not fit in 64 bits.

   MEMORY
   ------
   Engines and the loop never allocate. Where an object's size depends on
   its description (ports, flows, table entries, heap capacity) call
   ibcc_X_size(&desc) and pass that many bytes (aligned for uint64_t, as
   malloc returns) to ibcc_X_init(&x, &desc, mem, len). The caller frees
   the memory; there is nothing to tear down. The fabric model (L3) may
   allocate through the allocator in its description.

   ERRORS
   ------
   Functions that can fail return ibcc_result: IBCC_OK (0) or a negative
   IBCC_ERR_* code; ibcc_result_str() gives a one-line message. Bad input
   (NULL pointers, out-of-range fields, zero capacities, times in the past,
   full heaps, overflow) is reported this way and never asserts, aborts or
   invokes undefined behaviour. Validation happens at init; step functions
   on an initialised object do not fail.

   DESCRIPTIONS AND DEFAULTS
   -------------------------
   Every engine is configured by an ibcc_X_desc struct in which zero means
   "default" (so `ibcc_X_desc d = {0};` is valid); ibcc_X_defaults(&d)
   fills the zero fields with the effective values. The defaults of each
   engine are tabulated in the comment at the top of its section.

   CONTENTS (each section starts with a line "==== Lx name ====")
   --------
   L0  basics     version, ibcc_result, units and wire time, header flag
                  bits, RNG
   L1  marker     switch marking engines (naive, input, input-output, IBA
                  FECN, MVPM)
       arbiter    switch output arbitration (oldest-first with bypass, RR)
       swcc       IBA switch congestion settings (MAD encode/decode, text)
       law        source rate laws (AIMD, FIMD, LIPD; continuous, discrete
                  IPD, table) and the conditions checker
       pacer      window + rate limit, next-send time, persistent state
       cct        IBA channel-adapter agent: CCT, CCTI, SL timers
       cacc       IBA CA congestion settings (MAD encode/decode, text)
       mvcm       MVCM dynamic window and waiting slots
       dest       destination echo rules (ECN/FECN/MB/VB -> ACK/BECN/CNP)
       segment    dual-priority segmentation policy
   L2  loop       event loop: timed events on a heap in caller memory
   L3  fabric     hosts, links with credit flow control, switches (optional)
*/
#ifndef IBCC_H
#define IBCC_H

#include <stddef.h>
#include <stdint.h>

#ifndef IBCC_API
#  ifdef IBCC_STATIC
#    if defined(__GNUC__) || defined(__clang__)
#      define IBCC_API static __attribute__((unused))
#    else
#      define IBCC_API static
#    endif
#  else
#    define IBCC_API extern
#  endif
#endif

/* Small hot step functions are defined in the declaration part as
   IBCC_INLINE so they inline into the caller; their comments say so. */
#define IBCC_INLINE static inline

#ifdef __cplusplus
extern "C" {
#endif

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

/* Next 64 random bits. Inline (hot path). */
IBCC_INLINE uint64_t ibcc_rng_next(ibcc_rng *r)
{
    uint64_t *s = r->s;
    uint64_t x = s[1] * 5u;
    uint64_t out = ((x << 7) | (x >> 57)) * 9u;
    uint64_t t = s[1] << 17;
    s[2] ^= s[0];
    s[3] ^= s[1];
    s[1] ^= s[2];
    s[0] ^= s[3];
    s[2] ^= t;
    s[3] = (s[3] << 45) | (s[3] >> 19);
    return out;
}

/* Uniform integer in [0, n), unbiased (rejection); returns 0 when n == 0. */
IBCC_API uint64_t ibcc_rng_below(ibcc_rng *r, uint64_t n);
/* Uniform double in [0, 1) with 53 random bits. */
IBCC_API double ibcc_rng_double(ibcc_rng *r);
/* Exponential variate with the given mean (mean <= 0 gives 0). */
IBCC_API double ibcc_rng_exp(ibcc_rng *r, double mean);
/* 1 with probability p (p <= 0: never, p >= 1: always), else 0. */
IBCC_API int ibcc_rng_bernoulli(ibcc_rng *r, double p);

/* ==== L2 loop ===========================================================
   Minimal discrete-event loop: timed events on a binary heap held in caller
   memory. Events at the same time run in the order they were scheduled.
   Nothing is allocated; there is no global state.

   Defaults (ibcc_loop_desc, zero means default):
   | field    | default | range          |
   | capacity | 1024    | 1 .. 2^31 - 1  |
   ====================================================================== */

typedef struct ibcc_loop ibcc_loop;

/* Event callback: `ctx` and `arg` are whatever was given when scheduling.
   The callback may schedule and cancel events. */
typedef void (*ibcc_event_fn)(ibcc_loop *loop, void *ctx, uint64_t arg);

/* Handle of a scheduled event; 0 is never a valid handle. */
typedef uint64_t ibcc_event_id;

typedef struct ibcc_loop_desc {
    uint32_t capacity;          /* maximum pending events (default 1024) */
} ibcc_loop_desc;

/* Internal event slot (do not touch). */
typedef struct ibcc__event {
    ibcc_time t;                /* due time */
    uint64_t seq;               /* scheduling order, ties broken by it */
    ibcc_event_fn fn;
    void *ctx;
    uint64_t arg;
    uint32_t pos;               /* index in heap, or free-list link */
    uint32_t gen;               /* generation, part of the handle */
} ibcc__event;

struct ibcc_loop {
    ibcc_time now;              /* time of the event running or last run */
    uint64_t seq;               /* next scheduling sequence number */
    uint64_t executed;          /* events run so far */
    uint32_t cap;               /* capacity */
    uint32_t count;             /* pending events */
    uint32_t free_head;         /* first free slot */
    ibcc__event *slot;          /* cap slots */
    uint32_t *heap;             /* cap slot indices, heap-ordered */
};

/* Fills zero fields of *d with defaults. IBCC_ERR_NULL / IBCC_ERR_CAPACITY. */
IBCC_API ibcc_result ibcc_loop_defaults(ibcc_loop_desc *d);
/* Bytes of memory ibcc_loop_init needs for this desc (0 if desc invalid). */
IBCC_API size_t ibcc_loop_size(const ibcc_loop_desc *d);
/* Initialises an empty loop at time 0 on caller memory `mem` of `len`
   bytes (uint64_t-aligned). */
IBCC_API ibcc_result ibcc_loop_init(ibcc_loop *l, const ibcc_loop_desc *d,
                                    void *mem, size_t len);
/* Schedules fn(l, ctx, arg) at absolute time t >= now. *id (optional)
   receives the handle. Errors: NULL (l, fn), PAST, FULL. */
IBCC_API ibcc_result ibcc_loop_at(ibcc_loop *l, ibcc_time t, ibcc_event_fn fn,
                                  void *ctx, uint64_t arg, ibcc_event_id *id);
/* Same, at now + delay. Errors as ibcc_loop_at, plus OVERFLOW. */
IBCC_API ibcc_result ibcc_loop_after(ibcc_loop *l, ibcc_time delay,
                                     ibcc_event_fn fn, void *ctx, uint64_t arg,
                                     ibcc_event_id *id);
/* Cancels a pending event. IBCC_ERR_NOT_FOUND if it already ran, was
   cancelled, or is not a handle of this loop. */
IBCC_API ibcc_result ibcc_loop_cancel(ibcc_loop *l, ibcc_event_id id);
/* Runs the earliest pending event; returns 1, or 0 if none is pending. */
IBCC_API int ibcc_loop_step(ibcc_loop *l);
/* Runs every event due at or before t, then sets now = t. Events scheduled
   at or before t by those events run too. *ran (optional) = events run.
   Errors: NULL, PAST (t < now). */
IBCC_API ibcc_result ibcc_loop_run_until(ibcc_loop *l, ibcc_time t,
                                         uint64_t *ran);
/* Runs until no event is pending; returns the number of events run. */
IBCC_API uint64_t ibcc_loop_run(ibcc_loop *l);
/* Current time and pending-event count. */
IBCC_API ibcc_time ibcc_loop_now(const ibcc_loop *l);
IBCC_API uint32_t ibcc_loop_pending(const ibcc_loop *l);

#ifdef __cplusplus
} /* extern "C" */
#endif
#endif /* IBCC_H */

/* ======================================================================
   IMPLEMENTATION
   ====================================================================== */
#if defined(IBCC_IMPLEMENTATION) && !defined(IBCC__IMPLEMENTED)
#define IBCC__IMPLEMENTED

#include <string.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#ifdef __cplusplus
extern "C" {
#endif

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

/* ceil((a*b)/d) for d > 0; IBCC_ERR_OVERFLOW if the quotient needs more
   than 64 bits. Long division of the 128-bit product, one bit at a time
   (only used when the fast paths below do not apply). */
static ibcc_result ibcc__muldiv_ceil(uint64_t a, uint64_t b, uint64_t d,
                                     uint64_t *out)
{
    uint64_t hi, lo, q = 0, rem = 0;
    int i;
    ibcc__mul128(a, b, &hi, &lo);
    if (hi == 0) {
        q = lo / d;
        *out = q + (lo % d != 0);
        if (*out < q) return IBCC_ERR_OVERFLOW;
        return IBCC_OK;
    }
    if (hi >= d) return IBCC_ERR_OVERFLOW; /* quotient >= 2^64 */
    rem = hi;
    for (i = 63; i >= 0; i--) {
        /* rem < d here; shift in the next bit of lo */
        uint64_t top = rem >> 63;
        rem = (rem << 1) | ((lo >> i) & 1u);
        q <<= 1;
        if (top || rem >= d) { rem -= d; q |= 1u; }
    }
    if (rem != 0) {
        if (q == UINT64_MAX) return IBCC_ERR_OVERFLOW;
        q++;
    }
    *out = q;
    return IBCC_OK;
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
    if (n == 0) return 0;
    limit = UINT64_MAX - (UINT64_MAX % n + 1) % n;
    do { x = ibcc_rng_next(r); } while (x > limit);
    return x % n;
}

IBCC_API double ibcc_rng_double(ibcc_rng *r)
{
    /* top 53 bits scaled by 2^-53 */
    return (double)(ibcc_rng_next(r) >> 11) * (1.0 / 9007199254740992.0);
}

IBCC_API double ibcc_rng_exp(ibcc_rng *r, double mean)
{
    /* inverse transform: -mean * ln(1 - u), 1 - u in (0, 1] */
    if (!(mean > 0.0)) return 0.0;
    return -mean * log(1.0 - ibcc_rng_double(r));
}

IBCC_API int ibcc_rng_bernoulli(ibcc_rng *r, double p)
{
    if (!(p > 0.0)) return 0;
    if (p >= 1.0) return 1;
    return ibcc_rng_double(r) < p;
}

#ifdef __cplusplus
} /* extern "C" */
#endif
#endif /* IBCC_IMPLEMENTATION */

/*
   LICENCE (MIT)
   -------------
   Copyright (c) 2026 the ibcc authors

   Permission is hereby granted, free of charge, to any person obtaining a
   copy of this software and associated documentation files (the
   "Software"), to deal in the Software without restriction, including
   without limitation the rights to use, copy, modify, merge, publish,
   distribute, sublicense, and/or sell copies of the Software, and to
   permit persons to whom the Software is furnished to do so, subject to
   the following conditions:

   The above copyright notice and this permission notice shall be included
   in all copies or substantial portions of the Software.

   THE SOFTWARE IS PROVIDED "AS IS", WITHOUT WARRANTY OF ANY KIND, EXPRESS
   OR IMPLIED, INCLUDING BUT NOT LIMITED TO THE WARRANTIES OF
   MERCHANTABILITY, FITNESS FOR A PARTICULAR PURPOSE AND NONINFRINGEMENT.
   IN NO EVENT SHALL THE AUTHORS OR COPYRIGHT HOLDERS BE LIABLE FOR ANY
   CLAIM, DAMAGES OR OTHER LIABILITY, WHETHER IN AN ACTION OF CONTRACT,
   TORT OR OTHERWISE, ARISING FROM, OUT OF OR IN CONNECTION WITH THE
   SOFTWARE OR THE USE OR OTHER DEALINGS IN THE SOFTWARE.
*/
