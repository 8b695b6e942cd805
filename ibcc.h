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

   A switch port and a source in a few lines (zero desc fields mean the
   documented defaults; the caller owns all memory):

       ibcc_marker_desc md = {0};
       md.engine = IBCC_MARKER_INPUT;          // input-triggered [S02]
       md.ports = 8; md.in_capacity = 4;       // 4-packet input buffers
       size_t need;
       ibcc_marker mk;
       if (ibcc_marker_size(&md, &need) != IBCC_OK) ...  // bad desc: why
       void *mem = malloc(need);
       if (ibcc_marker_init(&mk, &md, mem, need) != IBCC_OK) ...
       // in your switch model, per packet:
       ibcc_marker_arrive(&mk, in, out, bytes);                 // queued
       hdr |= ibcc_marker_depart(&mk, in, out, bytes, hdr, 1); // leaves

       ibcc_law_desc ld = {0};                 // LIPD, Rmin = Rmax/256
       ibcc_law law;
       ibcc_law_init(&law, &ld, NULL, 0);      // continuous form: no memory
       // at the source, per ACK, then when the next packet may start:
       ibcc_law_on_ack(&law, (ack_hdr & IBCC_ECN) != 0);
       next = start + tau + ibcc_law_gap(&law, tau);  // tau = wire time

   examples/ has complete programs (firmware hooks, a NIC loop, a C++
   simulator embedding, the scenario driver); docs/ has a page per engine.

   CONFIGURATION MACROS (define before including)
   --------------------
   IBCC_IMPLEMENTATION  emit the function definitions (one translation unit)
   IBCC_STATIC          make every function static (several private copies,
                        no exported symbols; each file that defines
                        IBCC_IMPLEMENTATION gets its own copy)
   IBCC_API             override the decoration of public functions
   IBCC_NO_FABRIC       leave out layer L3 (fabric model)
   IBCC_NO_STDIO        leave out text input and output (the swcc,
                        cacc and vlarb text parsers and printers): the
                        implementation then calls no C library function
                        but memcpy and memset and includes no C library
                        header but <string.h> (for those two)
   IBCC_NO_FLOAT        leave out every function that takes, returns or
                        computes with floating point (see FIRMWARE
                        PROFILE); <math.h> is not included and no
                        floating-point operation is compiled
   IBCC_FIRMWARE        the firmware profile: IBCC_NO_STDIO and
                        IBCC_NO_FLOAT
   IBCC_NO_STDIO and IBCC_NO_FLOAT each imply IBCC_NO_FABRIC (the fabric
   model reads text files, allocates and computes statistics in floating
   point).

   COST OF THE IMPLEMENTATION (sh tools/header_cost.sh; gcc 12, -O2,
   x86-64, measured 2026-11-26 on the project's 2-core machine)
   The file that defines IBCC_IMPLEMENTATION compiles in about 5.1 s to
   a 249 KiB object with the fabric, 1.9 s and 90 KiB without it
   (IBCC_NO_FABRIC), and 1.4 s and 58 KiB in the firmware profile
   (IBCC_FIRMWARE); every other file compiles the declarations alone.

   FIRMWARE PROFILE (IBCC_FIRMWARE; docs/embedding.md)
   ----------------
   The per-packet and per-ACK engines (marker, arbiter, vlarb, law in DISCRETE
   and TABLE form, pacer, pairstate, cct, mvcm, dest, segment, ecn, dcqcn,
   hpcc, loop) and
   the binary MAD encoders/decoders (swcc, cacc) compile with
   -ffreestanding and link with -nostdlib: the only external symbols are
   memcpy, memset and the compiler's integer helpers (64-bit division
   and count-trailing-zeros on 32-bit targets: __aeabi_uldivmod,
   __aeabi_ldivmod, __ctzdi2 on ARM; __udivdi3, __umoddi3, __divdi3,
   __udivmoddi4, __ctzdi2 on i386). `make firmware-check` proves it.
   Left out, so that a call is a compile error rather than a silent
   difference:
     - text: the ibcc_swcc_/ibcc_swport_ parse and print functions, the
       ibcc_cacc_ parse and print functions and the OpenSM line parsers,
       the ibcc_vlarb_ parse and print functions;
     - floating point: ibcc_rng_double, _exp, _bernoulli;
       ibcc_law_rate, _exact_rate, _set_rate, _finc, _fdec, _recovery,
       _recovery_closed, _check; ibcc_cct_fill_us, _fill_fdec,
       _fill_law (build a law's CCT on a host and load it with
       ibcc_cct_set_table); ibcc_mvcm_hop_bytes, _omega, _omega_bounds,
       _dw_max; ibcc_segment_high_delay. ibcc_law_init refuses the
       CONTINUOUS form, the CUSTOM kind and the TABLE form (whose
       compile computes in floating point) with IBCC_ERR_UNSUPPORTED:
       a TABLE law comes from ROM (ibcc_law_init_rom, tables printed by
       `ibccsim law-table --emit-c`).
   Double-typed fields stay in the structs (the same layout in every
   profile) and are read through their IEEE 754 bits: a law desc's rmin
   and m are written as constants (ld.rmin = 1.0 / 256) and validated
   and converted with integer operations. The DISCRETE and TABLE steps,
   ibcc_law_gap, _rate_bytes and _ipd of those forms, and the geometric
   rate set of the TABLE compile use integer arithmetic in every
   profile, so every target and profile steps a law identically.

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
   ibcc_X_size(&desc, &bytes) (IBCC_OK with the bytes, or the desc's
   error and 0) and pass that many bytes (aligned for uint64_t, as malloc
   returns; NULL when 0) to ibcc_X_init(&x, &desc, mem, len). The caller
   frees the memory; there is nothing to tear down. The fabric model (L3) may
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
   fills the zero fields with the effective values and checks every
   range, or returns the error and leaves d exactly as given. size and
   init take the desc as given and apply the same defaults to a copy.
   The defaults of each engine are tabulated in the comment at the top of
   its section.

   CONTENTS
   --------
   The declarations come first, one section per engine in layer order,
   each opening with a line "==== Lx name ====", what the engine does, its
   sources and its defaults table. The definitions follow under
   IBCC_IMPLEMENTATION in the same order, each opening with a line
   "---- Lx name: implementation". Lower layers never call upper ones.
   L3's parts open the same way ("==== L3 topologies ====", "---- L3
   switch kinds and link flow control: implementation").

   L0  basics     version, ibcc_result, units and wire time, header flag
                  bits, RNG (its implementation also holds the one text
                  layer and the big-endian fields every format shares)
   L1  marker     switch marking engines: naive, input-triggered,
                  input-output-triggered [S02], IBA FECN [G], MVPM [F],
                  RED-style ECN [DCQCN]
       arbiter    switch output arbitration: oldest-first with bounded
                  bypass, FIFO, round robin
       vlarb      IBA VL arbitration at an output port: high- and
                  low-priority (VL, weight) tables, LimitOfHighPriority;
                  OpenSM's table and limit text
       qos        OpenSM's QoS options per port type (qos_ca_, qos_sw0_,
                  qos_swe_, qos_rtr_, qos_): max VLs, limit, tables, SL2VL
       swcc       IBA switch congestion settings: MAD encode/decode,
                  ibccconfig and OpenSM text
       law        source rate laws AIMD, FIMD, LIPD and custom [S03]:
                  continuous, discrete IPD, table; recovery; conditions
       pacer      window + rate limit, next-send time, per-pair state
       cct        IBA channel-adapter agent: CCT, CCTI, lazy SL timers
       cacc       IBA CA congestion settings: MAD encode/decode, text
       mvcm       MVCM dynamic window and waiting slots [F]
       dest       destination echo rules (ECN/FECN/MB/VB -> ACK/BECN/CNP)
       segment    dual-priority segmentation policy [K]
       ecn        lossless Ethernet: RED-style ECN marking on the egress
                  queue (Kmin, Kmax, Pmax) [DCQCN]; INT hop records [HPCC]
       dcqcn      DCQCN reaction point (rate, alpha, timer and byte
                  counter stages) and notification point (CNPs) [DCQCN]
       hpcc       HPCC sender window from INT records [HPCC]
   L2  loop       event loop: timed events on a heap in caller memory
       coll       collective schedules (all-to-all shift and pairwise,
                  ring and recursive-doubling allreduce, binomial
                  broadcast, 2D/3D halo, incast) and rank placement:
                  pure functions, per rank the steps, their sends and
                  the messages they wait for (docs/jobs.md)
   L3  fabric     (IBCC_NO_FABRIC leaves L3 out) the core: hosts,
                  links, packets from generation to their ACK, the
                  packet switches' input buffers and arbitration,
                  delivered-byte statistics, creation, the checks and
                  queries; its private interface (the tables below) is
                  described at the top of its implementation
       switch kinds  (implementation only) one table per kind: VCT,
                  CIOQ, WORMHOLE; each names its link flow control:
                  credits (VCT, CIOQ) or STOP/GO with byte slack
                  buffers (WORMHOLE)
       source agents (implementation only) one table per agent: NONE,
                  WINDOW, LAW, FIXED, CCT, MVCM, DCQCN
       traffic patterns  uniform, permutation, incast, hot spot
       jobs       collectives and traces as traffic sources (PUSH flows):
                  steps released when their messages are delivered,
                  job completion and message quantiles; the trace text
                  reader (docs/jobs.md)
       topologies builders (k-ary n-tree, k-ary n-fly, mesh, torus,
                  two-switch) on one up/down router; credit loops (the
                  channel dependency graph of any routes)
       InfiniBand loader  ibnetdiscover or ibdiagnet (lst, db_csv)
                  topology, OpenSM / ibroute / ibdiagnet (fdbs)
                  forwarding tables, up/down routes

   A packet through the fabric (L3): its flow generates it into a queue
   at the source host; the flow's source agent (pacer + law, cct, mvcm)
   says when it may go; the link delivers it under credit flow control;
   at a switch the marker sees it arrive, the switch kind forwards it (the
   arbiter picks it for its output or, CIOQ, for the crossbar), the marker
   sees it depart and returns the bits to set; at the destination it is
   counted as delivered and the dest rules build the ACK or CNP, whose
   marks go back to the agent. docs/fabric.md follows it step by step.

   SOURCES (cited by tag)
   -------
   [S02] Santos, Turner, Janakiraman, "Evaluation of Congestion Detection
         Mechanisms for InfiniBand Switches", IEEE GLOBECOM 2002.
   [S03] Santos, Turner, Janakiraman, "End-to-End Congestion Control for
         InfiniBand", IEEE INFOCOM 2003.
   [F]   Ferrer, Baydal, Robles, Lopez, Duato, "Progressive Congestion
         Management Based on Packet Marking and Validation Techniques",
         IEEE Transactions on Computers, 2012.
   [G]   Gran, Eimot, Reinemo, Skeie, Lysne, Huse, Shainer, "First
         Experiences with Congestion Control in InfiniBand Hardware",
         IPDPS 2010 (InfiniBand Architecture 1.2.1, Annex A10).
   [K]   Kwan, Hu, Bambos, Kleinrock, Xu, Touch, "Best-Effort Bandwidth
         Reservation in High Speed LANs using Wormhole Routing", 1996.
   [DCQCN] Zhu et al., "Congestion Control for Large-Scale RDMA
         Deployments", ACM SIGCOMM 2015.
   [HPCC] Li et al., "HPCC: High Precision Congestion Control", ACM SIGCOMM 2019.
*/
#ifndef IBCC_H
#define IBCC_H

#include <stddef.h>
#include <stdint.h>

/* The firmware profile and what each profile macro implies (see
   CONFIGURATION MACROS above). */
#ifdef IBCC_FIRMWARE
#  ifndef IBCC_NO_STDIO
#    define IBCC_NO_STDIO
#  endif
#  ifndef IBCC_NO_FLOAT
#    define IBCC_NO_FLOAT
#  endif
#endif
#if defined(IBCC_NO_STDIO) || defined(IBCC_NO_FLOAT)
#  ifndef IBCC_NO_FABRIC
#    define IBCC_NO_FABRIC
#  endif
#endif

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

/* The casts of the declarations (inline functions, unit macros) are
   static_cast in C++, so a C++ file that includes ibcc.h stays quiet
   under -Wold-style-cast; a C cast in C. */
#ifdef __cplusplus
#  define IBCC_CAST(T, x) (static_cast<T>(x))
#else
#  define IBCC_CAST(T, x) ((T)(x))
#endif

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
    IBCC_ERR_NOMEM       =  -4, /* memory or a buffer passed is smaller than
                                   needed (ibcc_X_size(), a MAD attribute,
                                   a printed text) or an allocator
                                   returned NULL */
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
#define IBCC_PS(x) IBCC_CAST(ibcc_time, x)
#define IBCC_NS(x) (IBCC_CAST(ibcc_time, x) * UINT64_C(1000))
#define IBCC_US(x) (IBCC_CAST(ibcc_time, x) * UINT64_C(1000000))
#define IBCC_MS(x) (IBCC_CAST(ibcc_time, x) * UINT64_C(1000000000))
#define IBCC_S(x)  (IBCC_CAST(ibcc_time, x) * UINT64_C(1000000000000))

/* Link rate in bytes per second. */
typedef uint64_t ibcc_rate;
#define IBCC_GBYTES(x) (IBCC_CAST(ibcc_rate, x) * UINT64_C(1000000000)) /* 10^9 B/s */
#define IBCC_MBYTES(x) (IBCC_CAST(ibcc_rate, x) * UINT64_C(1000000))    /* 10^6 B/s */
#define IBCC_GBITS(x)  (IBCC_CAST(ibcc_rate, x) * UINT64_C(125000000))  /* 10^9 bit/s */

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
#ifndef IBCC_NO_FLOAT
/* Uniform double in [0, 1) with 53 random bits. */
IBCC_API double ibcc_rng_double(ibcc_rng *r);
/* Exponential variate with the given mean (mean <= 0 or NaN gives 0). */
IBCC_API double ibcc_rng_exp(ibcc_rng *r, double mean);
/* 1 with probability p (p <= 0 or NaN: never, p >= 1: always), else 0. */
IBCC_API int ibcc_rng_bernoulli(ibcc_rng *r, double p);
#endif /* IBCC_NO_FLOAT */

/* ==== L1 marker =========================================================
   Switch marking engines: one ibcc_marker object per switch (per virtual
   lane, if the caller models several data VLs: VLs are independent), the
   engine chosen in its desc:
     NONE          counts only, never marks (a switch without CC)
     NAIVE         [S02 §IV-A, S03 §IV-A] mark every packet in an input
                   buffer that an arrival makes full
     INPUT         [S02 §IV-B, S03 §IV-A] input-triggered: cnt1/cnt2 per
                   output, the outputs that have a packet in the full buffer
                   are triggered (cnt2 = cnt1), packets are marked as they
                   are transmitted while cnt2 > 0
     INPUT_OUTPUT  [S02 §IV-C] INPUT plus an output trigger when
                   cnt1[o] > T_out, evaluated at every arrival
     IBA           [G §II-A, IBA Annex A10] per-port Threshold (0..15),
                   root/victim test, Victim_Mask, Packet_Size, Marking_Rate
     MVPM          [F §4.1] MB on arrival above the input threshold, VB on
                   departure through a saturated output when MB is set
     ECN           [DCQCN] RED-style ECN on level(o) in bytes (Kmin, Kmax,
                   Pmax of the ecn section; CREDITS unit, level x 64),
                   drawing from the marker's own stream (ecn_seed)
   See docs/marker.md for behaviour, choices and worked examples.

   Two step functions per packet (plus one for CIOQ switches):
     ibcc_marker_arrive(m, in, out, size)        packet entered input buffer
                                                 `in`, headed for `out`
     ibcc_marker_depart(m, in, out, size, hdr, out_has_credit)
                                                 packet left input buffer
                                                 `in` through output `out`
     ibcc_marker_leave(m, out, size)             CIOQ only: packet left the
                                                 output buffer onto the link
   arrive/depart return header bits (IBCC_FECN, IBCC_MB, IBCC_VB) to OR into
   the packet's header. `size` is in bytes; the buffer unit of the desc says
   how much room it takes: 1 (packets) or ceil(size / 64) (credits).

   Buffers and levels (all in the desc's unit unless "packets" is said):
     occupancy(in)  data in input buffer `in`
     cnt1[o]        PACKETS in the input buffers waiting for output o
     cnt2[o]        PACKETS still to be marked when transmitted on o
     level(o)       the queue of output o used by IBA and MVPM: in an
                    input-buffered switch (org INPUT_BUFFERED) the data
                    waiting for o in all input buffers; in a CIOQ switch
                    the data in o's output buffer (entered at depart, left
                    at ibcc_marker_leave)

   No packet is ever visited. A trigger (an arrival after which
   occupancy(in) >= trigger) walks a per-input bitmap of the outputs that
   have a packet in buffer `in` (ANDed with the busy bitmap for the BUSY
   classification) and for each such output o copies
     INPUT, INPUT_OUTPUT:  cnt2[o] = cnt1[o]
     NAIVE:                mk[in][o] = n[in][o]  (mark the next n[in][o]
                           departures in->o: exactly the packets resident
                           at the trigger when packets of one input and one
                           output leave in order, as the arbiter keeps
                           them; otherwise the same number, first to leave)
   IBA threshold weight w -> queue level: out_capacity * (16 - w) / 16,
   where out_capacity defaults to the buffering that can feed the output
   (every other input buffer, input-buffered; its output buffer, CIOQ):
   weight 15 marks once more than 1/16 of it waits, weight 1 once more
   than 15/16. A departing packet is not counted in the queue it is
   tested against, so a lone flow at line rate is never marked.

   Events that contradict the recorded state (port out of range, a depart
   with no matching arrive, an arrival beyond the input capacity, a leave
   with no matching depart) leave the state untouched, return 0 and are
   counted: stats.errors, stats.last_error (IBCC_ERR_RANGE, IBCC_ERR_MISMATCH,
   IBCC_ERR_FULL); read them with ibcc_marker_errors(). A NULL marker is
   ignored (returns 0).

   Defaults (ibcc_marker_desc, zero means default):
   | field              | default                      | range                 |
   | engine             | NONE                         | NONE..MVPM            |
   | ports              | 8                            | 1 .. 256              |
   | unit               | PACKETS                      | PACKETS, CREDITS (64B)|
   | org                | INPUT_BUFFERED               | INPUT_BUFFERED, CIOQ  |
   | in_capacity        | 4 packets / 128 credits      | 1 .. 65535            |
   | out_capacity       | in_capacity * (ports - 1);   | 1 .. 256 * 65535      |
   |                    | CIOQ: in_capacity            |                       |
   | trigger            | in_capacity (buffer full)    | 1 .. in_capacity      |
   | t_out (packets)    | 8                            | 1 .. 2^31             |
   | classify           | ALL                          | ALL, BUSY             |
   | mvpm_in_threshold  | in_capacity * 2 / 3          | 1 .. in_capacity      |
   | mvpm_out_threshold | out_capacity / 3             | 1 .. out_capacity     |
   | iba_threshold      | 0 (never mark, as IBA/OpenSM)| 0 .. 15               |
   | iba_packet_size    | 0 (every size eligible)      | 0 .. 255 (64B units)  |
   | iba_marking_rate   | 0 (mark every eligible)      | 0 .. 65535            |
   | victim_mask        | all 0                        | bits 0..ports-1       |
   | iba_rng            | NULL (deterministic counter) | caller's ibcc_rng     |
   | hold               | 0 (depart frees the room)    | 0, 1                  |
   | defer              | 0 (trigger at the arrival)   | 0, 1 (at settle)      |
   | ecn_kmin, ecn_kmax, ecn_pmax | ECN only: the ecn section's defaults (5000 B, 200000 B, 1%) and ranges |
   | ecn_seed           | 0 (any value)                | ECN's random stream   |
   ====================================================================== */

typedef enum ibcc_marker_engine {
    IBCC_MARKER_NONE = 0,         /* counts only, never marks (default) */
    IBCC_MARKER_NAIVE = 1,        /* [S02 §IV-A] */
    IBCC_MARKER_INPUT = 2,        /* [S02 §IV-B] input-triggered */
    IBCC_MARKER_INPUT_OUTPUT = 3, /* [S02 §IV-C] input-output-triggered */
    IBCC_MARKER_IBA = 4,          /* [G], IBA Annex A10 FECN marking */
    IBCC_MARKER_MVPM = 5,         /* [F §4.1] marking + validation */
    IBCC_MARKER_ECN = 6           /* [DCQCN] RED-style ECN (docs/ecn.md) */
} ibcc_marker_engine;

/* Unit in which buffers, capacities and thresholds are counted. */
typedef enum ibcc_buffer_unit {
    IBCC_UNIT_PACKETS = 0,        /* one unit per packet (default) */
    IBCC_UNIT_CREDITS = 1         /* 64-byte credits: ceil(size / 64) */
} ibcc_buffer_unit;

/* Switch organisation: where the output queue level is measured. */
typedef enum ibcc_switch_org {
    IBCC_ORG_INPUT_BUFFERED = 0,  /* level(o) = data waiting for o in the
                                     input buffers (default) */
    IBCC_ORG_CIOQ = 1             /* level(o) = data in o's output buffer;
                                     depart moves a packet into it and
                                     ibcc_marker_leave takes it out */
} ibcc_switch_org;

/* Trigger classification of docs/mechanisms.md (NAIVE, INPUT,
   INPUT_OUTPUT). */
typedef enum ibcc_classify {
    IBCC_CLASSIFY_ALL = 0,        /* every output with a packet in the full
                                     buffer (the sources' rule, default) */
    IBCC_CLASSIFY_BUSY = 1        /* only those the caller reported busy or
                                     out of credits (ibcc_marker_set_busy) */
} ibcc_classify;

#define IBCC_MARKER_MAX_PORTS 256u
#define IBCC_MARKER_MAX_CAPACITY 65535u
#define IBCC_MARKER_MAX_OUT (256u * 65535u)  /* out_capacity */
#define IBCC_CREDIT_BYTES 64u

typedef struct ibcc_marker_desc {
    ibcc_marker_engine engine;
    uint32_t ports;               /* inputs = outputs = ports, numbered
                                     0..ports-1 (port p = Victim_Mask bit p) */
    ibcc_buffer_unit unit;
    ibcc_switch_org org;
    uint32_t in_capacity;         /* capacity of each input buffer (unit) */
    uint32_t out_capacity;        /* output queue capacity (unit): the base
                                     of IBA thresholds and MVPM's default;
                                     input-buffered, the input buffering
                                     that can feed one output */
    uint32_t trigger;             /* NAIVE/INPUT/INPUT_OUTPUT: an arrival
                                     after which occupancy >= trigger
                                     triggers marking (unit) */
    uint32_t t_out;               /* INPUT_OUTPUT: trigger o when
                                     cnt1[o] > t_out (packets) */
    ibcc_classify classify;
    uint32_t mvpm_in_threshold;   /* MVPM: MB when occupancy found by the
                                     arriving packet > this (unit) */
    uint32_t mvpm_out_threshold;  /* MVPM: VB when level(o) > this (unit) */
    uint32_t iba_threshold;       /* IBA Threshold weight, every port */
    uint32_t iba_packet_size;     /* IBA Packet_Size (64-byte units): a
                                     packet of fewer than 64*N bytes is
                                     never marked */
    uint32_t iba_marking_rate;    /* IBA Marking_Rate: eligible packets
                                     skipped between two marks */
    uint32_t victim_mask[8];      /* IBA Victim_Mask, bit p of word p/32 =
                                     port p */
    ibcc_rng *iba_rng;            /* non-NULL: random Marking_Rate (each
                                     eligible packet marked with probability
                                     1/(rate+1), same mean gap); the
                                     generator is the caller's and must
                                     outlive the marker */
    uint32_t hold;                /* 0: depart frees the packet's room in
                                     its input buffer; 1: the room stays
                                     counted in occupancy(in) until
                                     ibcc_marker_release (virtual cut-
                                     through: the tail is still in the
                                     buffer while the header leaves) */
    uint32_t defer;               /* NAIVE/INPUT/INPUT_OUTPUT input trigger:
                                     0 at the arrival that fills the
                                     buffer; 1 at the next
                                     ibcc_marker_settle, once the caller
                                     has started the packets that leave
                                     at that instant (cut-through) */
    uint64_t ecn_kmin;            /* ECN: Kmin, bytes of level(o) */
    uint64_t ecn_kmax;            /* ECN: Kmax, bytes */
    uint32_t ecn_pmax;            /* ECN: Pmax, ppm */
    uint32_t ecn_reserved;
    uint64_t ecn_seed;            /* ECN: seed of the marker's own random
                                     stream (init and reset seed it) */
} ibcc_marker_desc;

/* Counters kept by every engine. */
typedef struct ibcc_marker_stats {
    uint64_t arrivals;            /* accepted arrive() calls */
    uint64_t departures;          /* accepted depart() calls */
    uint64_t in_triggers;         /* input-buffer triggers (NAIVE, INPUT,
                                     INPUT_OUTPUT) */
    uint64_t out_triggers;        /* outputs classified congested: cnt2
                                     copies (INPUT, INPUT_OUTPUT, incl. the
                                     T_out test) or NAIVE (in, out) counter
                                     loads */
    uint64_t fecn;                /* packets returned IBCC_FECN */
    uint64_t mb;                  /* packets returned IBCC_MB */
    uint64_t vb;                  /* packets returned IBCC_VB */
    uint64_t errors;              /* rejected events (state untouched) */
    ibcc_result last_error;       /* code of the last rejected event */
} ibcc_marker_stats;

/* Per-port state (internal; read it through the queries). */
typedef struct ibcc_mport_ {
    uint32_t occ;                 /* input: units in the input buffer */
    uint32_t pk;                  /* input: packets in the input buffer */
    uint32_t cnt1;                /* output: packets waiting for it */
    uint32_t cnt2;                /* output: packets still to be marked */
    uint32_t qunits;              /* output: units waiting for it in the
                                     input buffers */
    uint32_t obuf;                /* output: units in its output buffer */
    uint32_t iba_level;           /* output: IBA threshold level (unit);
                                     congested when level(o) > iba_level */
    uint32_t iba_min_bytes;       /* output: 64 * Packet_Size */
    uint16_t iba_rate;            /* output: Marking_Rate */
    uint16_t iba_skip;            /* output: eligible packets still to skip */
    uint8_t iba_weight;           /* output: Threshold 0..15 */
    uint8_t pad_[3];
    uint32_t held;                /* input (hold): units of departed
                                     packets still in the buffer */
    uint32_t held_pk;             /* input (hold): such packets */
} ibcc_mport_;

typedef struct ibcc_marker {
    ibcc_marker_desc d;           /* effective desc (defaults filled) */
    uint32_t words;               /* 64-bit words per port bitmap */
    uint64_t busy[4];             /* outputs busy / out of credits (BUSY) */
    uint64_t pending[4];          /* defer: inputs whose trigger waits for
                                     ibcc_marker_settle */
    uint64_t victim[4];           /* IBA Victim_Mask, bit p = port p */
    ibcc_mport_ *port;            /* ports entries */
    uint16_t *n;                  /* n[in * ports + out]: packets from in
                                     waiting for out */
    uint16_t *mk;                 /* NAIVE: mk[in * ports + out]: next
                                     departures in->out still to mark */
    uint64_t *present;            /* present[in * words + w]: bit o set
                                     when n[in][o] > 0 */
    ibcc_marker_stats stats;
    ibcc_rng ecn_rng;             /* ECN: the marker's random stream */
} ibcc_marker;

/* Fills the zero fields of *d with their defaults (the table above).
   Errors: IBCC_ERR_NULL; IBCC_ERR_RANGE for an unknown engine, unit, org or
   classify value, a threshold/trigger/IBA field outside its range, or a
   Victim_Mask bit at or above `ports`; IBCC_ERR_CAPACITY for ports or a
   capacity above its maximum. The fields are left as given on error. */
IBCC_API ibcc_result ibcc_marker_defaults(ibcc_marker_desc *d);
/* *bytes = the memory ibcc_marker_init needs:
   ports*(40 + 8*ceil(ports/64) + 2*ports) bytes (rounded up to 8 per
   array), plus 2*ports*ports for NAIVE. Errors: as defaults (then *bytes
   = 0), NULL (bytes), CAPACITY (more than size_t holds). */
IBCC_API ibcc_result ibcc_marker_size(const ibcc_marker_desc *d, size_t *bytes);
/* Initialises an empty switch on caller memory (uint64_t-aligned, at least
   ibcc_marker_size bytes). Errors: as ibcc_marker_defaults, plus
   IBCC_ERR_ALIGN, IBCC_ERR_NOMEM. */
IBCC_API ibcc_result ibcc_marker_init(ibcc_marker *m,
                                      const ibcc_marker_desc *d,
                                      void *mem, size_t len);
/* Back to the state right after init, as every ibcc_X_reset: empties
   every buffer and counter (keeps the configuration, the busy bitmap and
   per-port IBA settings; clears stats). A NULL or never initialised
   (zeroed) marker is left alone. */
IBCC_API void ibcc_marker_reset(ibcc_marker *m);

/* Room a packet of `size` bytes takes in this marker's unit: 1 packet, or
   ceil(size / 64) credits with a minimum of 1 (a packet always has a
   header). A NULL marker counts packets (returns 1). Inline. */
IBCC_INLINE uint32_t ibcc_marker_units(const ibcc_marker *m, uint32_t size)
{
    uint32_t u;
    if (!m || m->d.unit != IBCC_UNIT_CREDITS) return 1u;
    u = size / IBCC_CREDIT_BYTES + IBCC_CAST(uint32_t, size % IBCC_CREDIT_BYTES != 0u);
    return u ? u : 1u;
}

/* Packet of `size` bytes entered input buffer `in`, headed for output
   `out`. Returns IBCC_MB (MVPM) or 0; NAIVE/INPUT/INPUT_OUTPUT triggers
   happen here and show up in later depart() results. */
IBCC_API unsigned ibcc_marker_arrive(ibcc_marker *m, unsigned in,
                                     unsigned out, uint32_t size);
/* Packet left input buffer `in` through output `out` (must match an
   earlier arrive with the same in, out, size). `hdr` = the packet's header
   bits as they are now (MVPM validates only when IBCC_MB is in hdr: OR the
   bits arrive returned into it first); `out_has_credit` = the downstream
   buffer of `out` has credits (IBA root test). Returns the bits to OR into
   the header: IBCC_FECN (NAIVE, INPUT, INPUT_OUTPUT, IBA) or IBCC_VB
   (MVPM). IBA and MVPM test level(out) as the packet finds it: input-
   buffered, the data waiting for `out` including this packet (it is still
   queued when it starts); CIOQ, the output buffer before this packet
   enters it. A depart is checked against the counts (packets in->out,
   occupancy and level at least its units); sizes that differ from the
   arrival's cannot be detected and are the caller's responsibility. */
IBCC_API unsigned ibcc_marker_depart(ibcc_marker *m, unsigned in,
                                     unsigned out, uint32_t size,
                                     unsigned hdr, int out_has_credit);
/* CIOQ only: the packet left output buffer `out` onto the link. In an
   input-buffered marker this is a rejected event (IBCC_ERR_STATE). */
IBCC_API void ibcc_marker_leave(ibcc_marker *m, unsigned out, uint32_t size);
/* desc.hold = 1 only: the tail of a departed packet of `size` bytes has
   left input buffer `in`; its room leaves occupancy(in) now. Rejected
   events: STATE (hold = 0), RANGE (in), MISMATCH (no such departed
   packet still held). */
IBCC_API void ibcc_marker_release(ibcc_marker *m, unsigned in, uint32_t size);
/* desc.defer = 1: takes the input triggers that arrivals since the last
   call made due (each input at most once), classifying the outputs of
   the packets still waiting in the buffer now: a packet that has started
   since its arrival made the buffer full is no longer waiting, so its
   output is not classified for it and it is not marked. Call it once the
   instant's forwarding decisions are made. A no-op with defer = 0. */
IBCC_API void ibcc_marker_settle(ibcc_marker *m);

/* BUSY classification: output `out` is busy or out of credits (busy != 0)
   or can take a packet (busy == 0). Keep it up to date as links start and
   finish packets and credits run out and return; it is read only when an
   input buffer triggers. All outputs start not busy. An out-of-range port
   is a rejected event (IBCC_ERR_RANGE). Inline (one bit operation). */
IBCC_INLINE void ibcc_marker_set_busy(ibcc_marker *m, unsigned out, int busy)
{
    uint64_t bit;
    if (!m) return;
    if (out >= m->d.ports) {
        m->stats.errors++;
        m->stats.last_error = IBCC_ERR_RANGE;
        return;
    }
    bit = UINT64_C(1) << (out & 63u);
    if (busy) m->busy[out >> 6] |= bit;
    else m->busy[out >> 6] &= ~bit;
}

/* IBA per-port setting (SwitchPortCongestionSetting): Threshold 0..15,
   Packet_Size 0..255 (64-byte units), Marking_Rate 0..65535. Restarts the
   port's Marking_Rate counter (its next eligible packet is marked).
   Errors: NULL, RANGE (port or a field out of range), STATE (engine is
   not IBA). */
IBCC_API ibcc_result ibcc_marker_set_iba_port(ibcc_marker *m, unsigned port,
                                              unsigned threshold,
                                              unsigned packet_size,
                                              unsigned marking_rate);
/* IBA Victim_Mask bit of one port. Errors: NULL, RANGE, STATE. */
IBCC_API ibcc_result ibcc_marker_set_victim(ibcc_marker *m, unsigned port,
                                            int on);

/* ---- queries (out-of-range ports give 0) ------------------------------ */
/* Input buffer occupancy (unit) and packet count. */
IBCC_API uint32_t ibcc_marker_occupancy(const ibcc_marker *m, unsigned in);
IBCC_API uint32_t ibcc_marker_packets(const ibcc_marker *m, unsigned in);
/* Packets in input buffer `in` waiting for `out`. */
IBCC_API uint32_t ibcc_marker_waiting(const ibcc_marker *m, unsigned in,
                                      unsigned out);
/* cnt1[o], cnt2[o] (packets). */
IBCC_API uint32_t ibcc_marker_cnt1(const ibcc_marker *m, unsigned out);
IBCC_API uint32_t ibcc_marker_cnt2(const ibcc_marker *m, unsigned out);
/* NAIVE: departures from `in` to `out` still to be marked. */
IBCC_API uint32_t ibcc_marker_naive_pending(const ibcc_marker *m,
                                            unsigned in, unsigned out);
/* level(o) (unit): see the section comment. */
IBCC_API uint32_t ibcc_marker_level(const ibcc_marker *m, unsigned out);
/* IBA: 1 if port `out` is in the congestion state now: level(o) above
   its threshold level, Threshold != 0, and out_has_credit or its
   Victim_Mask bit set; else 0. (A departing packet is tested against the
   queue without itself: level(o) minus its own units, input-buffered.) */
IBCC_API int ibcc_marker_iba_congested(const ibcc_marker *m, unsigned out,
                                       int out_has_credit);
/* IBA threshold level of a port (unit): out_capacity * (16 - w) / 16,
   rounded down, for Threshold w = 1..15 (UINT32_MAX for w = 0, never). */
IBCC_API uint32_t ibcc_marker_iba_level(const ibcc_marker *m, unsigned out);
/* Rejected events so far; *last (optional) = code of the last one. */
IBCC_API uint64_t ibcc_marker_errors(const ibcc_marker *m,
                                     ibcc_result *last);
/* Copy of the counters. */
IBCC_API ibcc_marker_stats ibcc_marker_get_stats(const ibcc_marker *m);
/* Engine name ("none", "naive", "input", "input-output", "iba", "mvpm",
   "ecn"),
   "?" if unknown. */
IBCC_API const char *ibcc_marker_engine_name(ibcc_marker_engine e);

/* ==== L1 arbiter ========================================================
   Switch output arbitration as pure state. The arbiter mirrors the order of
   the packets in each input buffer of one switch (one VL): the caller
   pushes (in, out, size, tag) when a packet enters input buffer `in`, and
   asks for the next packet to start on an output; the arbiter returns
   (in, tag) and forgets the packet. The caller keeps its packets; `tag` is
   whatever identifies one to it (an index, a pointer cast to uintptr_t).
   See docs/arbiter.md.

   Policies (docs/scenarios.md (A) "Switch scheduling"):
     OLDEST  (default) oldest first with bounded bypass. Age = push order at
             this switch. A packet is eligible for output o when o can take
             it now and either it is the head of its input buffer, or
             - every older packet in its buffer waits for an output that
               cannot take that packet now, and
             - the head has been bypassed fewer than bypass_limit times.
             Among eligible packets of all inputs the oldest starts. A
             packet never passes an older packet of its own buffer bound
             for the same output (per input/output order is kept, as IB's
             in-order delivery needs). The bypass count belongs to the head
             and restarts at 0 whenever a packet becomes head.
     FIFO    heads only, oldest head first (OLDEST with no bypass).
     RR      round robin over inputs, heads only: output o keeps a pointer;
             the first input at or after it whose head is bound for o (and
             fits) wins, and the pointer moves just past the winner.
     VOQ     each input buffer holds one queue per output (sharing the
             buffer's room): output o takes, in round robin over inputs as
             RR, the oldest packet for o of an input, wherever it sits in
             the buffer. Head-of-line blocking remains only through the
             buffer's room (the crossbar of `ibccsim gran`).
   An input sends one packet at a time: a pick marks the winning input
   busy until the caller calls ibcc_arbiter_set_input_busy(a, in, 0) (when
   the packet's tail has left the buffer). Busy inputs are skipped.

   "Output o can take a packet of `size` bytes from input `in` now" comes
   from the caller, in one of two ways chosen by the desc:
     can_send != NULL  the arbiter calls can_send(user, out, in, size)
                       (non-zero = yes), e.g. "link free and downstream
                       credits >= units(size)";
     can_send == NULL  a bitmap of outputs the caller keeps up to date with
                       ibcc_arbiter_set_output(a, out, can_take) (initially
                       every output can take), sizes not considered.
   The callback is called only during picks, never stored results.
   Either way the caller may close an output it knows cannot take anything
   (ibcc_arbiter_close_output): a closed output is refused without a
   call, and a pick skips an input whose packets all wait for closed
   outputs without reading its buffer. With a callback, a caller closes an
   output only while can_send would answer no with no other effect, so
   the picks stay the same; it saves the callback's reads (the fabric
   closes an output whose transmitter is busy and whose wake-up at its
   end is already due).

   Defaults (ibcc_arbiter_desc, zero means default):
   | field        | default | range          |
   | ports        | 8       | 1 .. 256       |
   | capacity     | 4       | 1 .. 65535     |
   | policy       | OLDEST  | OLDEST, FIFO, RR, VOQ |
   | bypass_limit | 4       | 1 .. 65535 (OLDEST; FIFO = no bypass) |
   | can_send     | NULL    | (bitmap mode)  |
   ====================================================================== */

typedef enum ibcc_arb_policy {
    IBCC_ARB_OLDEST = 0,          /* oldest first, bounded bypass (default) */
    IBCC_ARB_FIFO = 1,            /* oldest head first, no bypass */
    IBCC_ARB_RR = 2,              /* round robin over inputs, heads only */
    IBCC_ARB_VOQ = 3              /* per-output queues in each input
                                     buffer, round robin over inputs */
} ibcc_arb_policy;

#define IBCC_ARBITER_MAX_PORTS 256u
#define IBCC_ARBITER_MAX_CAPACITY 65535u

/* Can output `out` take a packet of `size` bytes from input `in` now?
   Non-zero = yes. */
typedef int (*ibcc_can_send_fn)(void *user, unsigned out, unsigned in,
                                uint32_t size);

typedef struct ibcc_arbiter_desc {
    uint32_t ports;               /* inputs = outputs = ports */
    uint32_t capacity;            /* packets each input buffer can hold */
    ibcc_arb_policy policy;
    uint32_t bypass_limit;        /* OLDEST: bypasses allowed per head */
    ibcc_can_send_fn can_send;    /* NULL: output bitmap mode */
    void *user;                   /* passed to can_send */
} ibcc_arbiter_desc;

/* Result of a pick. */
typedef struct ibcc_arb_grant {
    unsigned in;                  /* input buffer the packet leaves */
    unsigned out;                 /* output it starts on */
    uint32_t size;                /* its size as pushed */
    uint64_t tag;                 /* the caller's tag as pushed */
    int bypassed;                 /* 1 if it passed its buffer's head */
} ibcc_arb_grant;

/* Internal: one queued packet, in its input's pool of `capacity` slots,
   linked in arrival order and in its (input, output) FIFO. */
typedef struct ibcc_arb_entry_ {
    uint64_t seq;                 /* push order (age) */
    uint64_t tag;
    uint32_t size;
    uint16_t out;
    uint16_t prev, next;          /* arrival order in its input (slot
                                     indices, 0xffff: none) */
    uint16_t onext;               /* next younger entry for the same output */
} ibcc_arb_entry_;

/* Internal: one input buffer. */
typedef struct ibcc_arb_input_ {
    uint32_t len;
    uint32_t bypassed;            /* times the current head was bypassed */
    uint32_t busy;                /* sending a packet now */
    uint32_t head, tail;          /* arrival order (slot indices) */
    uint32_t free;                /* free slot list */
    uint32_t fresh;               /* slots never used: fresh .. capacity-1 */
    uint32_t pad_;
} ibcc_arb_input_;

/* Internal: the packets of one input bound for one output, a FIFO through
   the entries' onext links. One record per (input, output) pair, so that
   a push or a pick touches one cache line of them, not three. */
typedef struct ibcc_arb_io_ {
    uint16_t cnt;                 /* packets queued */
    uint16_t head;                /* oldest slot (valid when cnt > 0) */
    uint16_t tail;                /* youngest slot */
} ibcc_arb_io_;

typedef struct ibcc_arbiter {
    ibcc_arbiter_desc d;          /* effective desc */
    uint64_t seq;                 /* next push order number */
    uint64_t out_ok[4];           /* bitmap mode: outputs that can take */
    uint64_t closed[4];           /* outputs closed by the caller */
    ibcc_arb_input_ *input;       /* ports */
    ibcc_arb_entry_ *q;           /* q[in * capacity + slot] */
    uint32_t *rr;                 /* RR: next input to consider, per output */
    ibcc_arb_io_ *io;             /* io[in * ports + out]: the packets of
                                     `in` bound for `out` */
    uint64_t *inq;                /* inq[out * words + w]: bit `in` set when
                                     input `in` holds a packet for out */
    uint64_t *outs;               /* outs[in * words + w]: bit `out` set
                                     when input `in` holds a packet for it */
    uint64_t *ready;              /* ready[w]: bit `in` set when input `in`
                                     holds a packet and is not busy */
    uint32_t rr_out;              /* RR pick_any: next output to try */
    uint32_t words;               /* 64-bit words per port bitmap */
    uint64_t grants;              /* packets picked */
    uint64_t bypasses;            /* picks that passed a head */
} ibcc_arbiter;

/* Fills zero fields with defaults. Errors: NULL; RANGE (unknown policy,
   bypass_limit above 65535); CAPACITY (ports or capacity above maximum). */
IBCC_API ibcc_result ibcc_arbiter_defaults(ibcc_arbiter_desc *d);
/* *bytes = the memory ibcc_arbiter_init needs, about ports * (32 + 32 *
   capacity + 4 + 6 * ports + 16 * ceil(ports / 64)) + 8 * ceil(ports /
   64). Errors: as defaults (then *bytes = 0), NULL, CAPACITY. Only
   the slots packets have used are ever written, so pages of a large
   capacity that is never filled stay untouched. A pick costs
   O(ports * outputs present in an input), whatever the buffers' depth. */
IBCC_API ibcc_result ibcc_arbiter_size(const ibcc_arbiter_desc *d,
                                       size_t *bytes);
/* Errors: as defaults, plus NULL, ALIGN, NOMEM. */
IBCC_API ibcc_result ibcc_arbiter_init(ibcc_arbiter *a,
                                       const ibcc_arbiter_desc *d,
                                       void *mem, size_t len);

/* A packet entered input buffer `in` bound for `out`. Errors: NULL,
   RANGE (in or out >= ports), FULL (the input already holds `capacity`
   packets; nothing changes). */
IBCC_API ibcc_result ibcc_arbiter_push(ibcc_arbiter *a, unsigned in,
                                       unsigned out, uint32_t size,
                                       uint64_t tag);
/* Picks the packet that starts on output `out` now, removes it, marks its
   input busy and fills *g. Returns 1, or 0 when no packet can start on
   `out` (or out >= ports). */
IBCC_API int ibcc_arbiter_pick(ibcc_arbiter *a, unsigned out,
                               ibcc_arb_grant *g);
/* Picks the best start over all outputs at once: OLDEST/FIFO: the oldest
   eligible packet of any output; RR: outputs are tried in round-robin
   order from a rotating output pointer, the first that can start wins.
   Returns 1 (packet removed, input busy, *g filled) or 0. Calling it until
   it returns 0 (updating can_send's answers between calls as outputs
   start) is "arbitrate repeatedly until nothing more can start". */
IBCC_API int ibcc_arbiter_pick_any(ibcc_arbiter *a, ibcc_arb_grant *g);

/* Input `in` is sending (busy != 0) or free. Errors: NULL, RANGE. */
IBCC_API ibcc_result ibcc_arbiter_set_input_busy(ibcc_arbiter *a,
                                                 unsigned in, int busy);
/* Bitmap mode: output `out` can take packets now (can_take != 0) or not.
   Errors: NULL, RANGE. Inline-cheap; ignored when can_send is set. */
IBCC_API ibcc_result ibcc_arbiter_set_output(ibcc_arbiter *a, unsigned out,
                                             int can_take);
/* Output `out` is closed (closed != 0: refused without asking can_send or
   the bitmap) or open again (initially every output is open). Errors:
   NULL, RANGE. */
IBCC_API ibcc_result ibcc_arbiter_close_output(ibcc_arbiter *a, unsigned out,
                                               int closed);

/* Queries (out-of-range: 0). Packets queued at `in`; times its head has
   been bypassed; whether it is busy. */
IBCC_API uint32_t ibcc_arbiter_len(const ibcc_arbiter *a, unsigned in);
IBCC_API uint32_t ibcc_arbiter_head_bypassed(const ibcc_arbiter *a,
                                             unsigned in);
IBCC_API int ibcc_arbiter_input_busy(const ibcc_arbiter *a, unsigned in);
/* k-th queued packet of `in` (0 = head): fills out/size/tag (each
   optional). Errors: NULL, RANGE (in >= ports or k >= len). */
IBCC_API ibcc_result ibcc_arbiter_peek(const ibcc_arbiter *a, unsigned in,
                                       uint32_t k, unsigned *out,
                                       uint32_t *size, uint64_t *tag);
/* Policy name ("oldest", "fifo", "rr"), "?" if unknown. */
IBCC_API const char *ibcc_arb_policy_name(ibcc_arb_policy p);

/* ==== L1 vlarb ==========================================================
   Virtual-lane arbitration at one output port, as pure state: given which
   data VLs have a packet ready to go (a packet at the head of the VL whose
   downstream has the credits for it), which VL sends next. The rules are
   those of the InfiniBand Architecture Specification (IBA 1.2.1, Vol 1,
   the VLArbitration section, 7.6.9, and the VLArbitrationTable
   attribute, 14.2.5.9), as ibcc reads them; see docs/vlarb.md.

   A port has two tables of (VL, weight) entries, a high-priority and a
   low-priority one, each of up to 64 entries, and a LimitOfHighPriority:
     - a weight counts 64-byte units (0..255); an entry of weight 0 is
       skipped; a VL may appear in several entries and in both tables;
     - each table keeps a current entry and what is left of its weight.
       The current entry's VL sends while it has a ready packet and
       weight left. A packet is always sent whole: when it is longer than
       what is left, it still goes, and the entry's turn ends (what is
       left is at most 0). An entry's turn also ends when its VL has no
       ready packet at a pick: the table moves on to the next entry, with
       that entry's whole weight, in table order and around the end.
       A table whose current entry is not served (the other table sends)
       keeps that entry and what is left of its weight;
     - the high-priority table is served first. The limit counts the
       high-priority bytes that may be sent while a low-priority packet
       waits, in units of 4096 bytes: a high-priority packet may start
       while fewer than limit * 4096 bytes were sent from the high table
       since the low table last sent (or last had nothing ready); when
       the limit is reached, one low-priority packet goes, then the count
       restarts at 0. The last high-priority packet may overshoot the
       limit (packets are sent whole). Limit 0: one high-priority packet,
       then a low-priority one. Limit 255: no limit (low-priority VLs may
       starve);
     - when neither table has an entry with a ready VL nothing is sent;
       when only one has, it sends (the limit never idles the link).
   VL15 (subnet management) is not arbitrated: it goes before every data
   VL, so the caller sends it without asking. Entries name data VLs only:
   VL 0 .. vls - 1 of the port (a VL the port lacks is refused).

   Use: when the output's link is free to start a packet, call
   ibcc_vlarb_pick(a, ready, &vl) with bit v of `ready` set for each data
   VL v that can send a packet now; it returns 1 and the VL, or 0. Then
   send that VL's head packet and call ibcc_vlarb_sent(a, vl, bytes) with
   its length, which charges the entry picked. The decision does not
   depend on the packet's length (only what it consumes does). A pick
   costs O(entries of both tables); sent is O(1).

   Defaults (ibcc_vlarb_desc, zero means default):
   | field      | default | range                                     |
   | vls        | 1       | 1, 2, 4, 8, 15 (data VLs of the port)     |
   | high_limit | 0       | 0 .. 255 (units of 4096 bytes; 255 = none)|
   | n_high     | see below | 0 .. 64 entries in high[]               |
   | n_low      | see below | 0 .. 64 entries in low[]                |
   | entries    | -       | vl 0 .. vls - 1, weight 0 .. 255          |
   n_high and n_low both 0: OpenSM's built-in QoS defaults for the port's
   VLs: high table "0:4", low table "1:4,2:4,...,(vls-1):4" (VL0 alone,
   vls 1: the high table only), limit as given (OpenSM's default is 0).
   The engine needs no memory: ibcc_vlarb_size gives 0 and
   ibcc_vlarb_init takes mem NULL and len 0.
   ====================================================================== */

#define IBCC_VLARB_MAX_ENTRIES 64u   /* per table */
#define IBCC_VLARB_MAX_VLS 15u       /* data VLs 0..14 */
#define IBCC_VLARB_UNLIMITED 255u    /* high_limit: no limit */
#define IBCC_VLARB_LIMIT_UNIT 4096u  /* bytes per unit of high_limit */
#define IBCC_VLARB_WEIGHT_UNIT 64u   /* bytes per unit of weight */

/* One arbitration table entry. */
typedef struct ibcc_vlarb_entry {
    uint8_t vl;                   /* data VL 0 .. vls - 1 */
    uint8_t weight;               /* 64-byte units, 0 = skipped */
} ibcc_vlarb_entry;

typedef struct ibcc_vlarb_desc {
    uint32_t vls;                 /* data VLs of the port: 1, 2, 4, 8, 15 */
    uint32_t high_limit;          /* LimitOfHighPriority, 0..255 */
    uint32_t n_high, n_low;       /* entries used in high[] and low[] */
    ibcc_vlarb_entry high[IBCC_VLARB_MAX_ENTRIES];
    ibcc_vlarb_entry low[IBCC_VLARB_MAX_ENTRIES];
} ibcc_vlarb_desc;

typedef struct ibcc_vlarb {
    ibcc_vlarb_desc d;            /* effective desc */
    uint32_t cur[2];              /* current entry: [0] high, [1] low table */
    int64_t left[2];              /* bytes its weight still allows */
    uint64_t high_run;            /* high-table bytes since the low table
                                     last sent or had nothing ready */
    uint32_t pending;             /* last pick awaiting its sent: 0 none,
                                     1 high table, 2 low table */
    uint32_t pending_vl;          /* its VL */
    uint64_t bytes[IBCC_VLARB_MAX_VLS];   /* bytes sent per VL */
    uint64_t packets[IBCC_VLARB_MAX_VLS]; /* packets sent per VL */
} ibcc_vlarb;

/* Fills zero fields with defaults (the tables too, when both are empty).
   Errors: NULL; RANGE (vls not 1, 2, 4, 8 or 15, high_limit above 255,
   an entry of a used part naming a VL >= vls); CAPACITY (n_high or n_low
   above 64). */
IBCC_API ibcc_result ibcc_vlarb_defaults(ibcc_vlarb_desc *d);
/* *bytes = 0 (no memory needed). Errors: as defaults (then *bytes = 0). */
IBCC_API ibcc_result ibcc_vlarb_size(const ibcc_vlarb_desc *d, size_t *bytes);
/* Starts both tables at their first entry with its whole weight and the
   high-priority count at 0. mem may be NULL (len ignored). Errors: as
   defaults, NULL (a or d). */
IBCC_API ibcc_result ibcc_vlarb_init(ibcc_vlarb *a, const ibcc_vlarb_desc *d,
                                     void *mem, size_t len);
/* The VL that sends next, given `ready` (bit v: data VL v has a packet
   that can go now; bits of VLs >= vls are ignored). Returns 1 and *vl,
   or 0 (nothing ready, a or vl NULL). Moves the chosen table past
   entries whose VL is not ready and remembers the pick for
   ibcc_vlarb_sent; a later pick replaces an unsent one. */
IBCC_API int ibcc_vlarb_pick(ibcc_vlarb *a, uint32_t ready, unsigned *vl);
/* The picked VL's packet of `bytes` bytes went: charges the picked entry
   (its turn ends when what is left reaches 0 or less) and the
   high-priority count. Errors: NULL, RANGE (vl >= vls, bytes 0),
   MISMATCH (no pick is pending, or it chose another VL; nothing
   changes). */
IBCC_API ibcc_result ibcc_vlarb_sent(ibcc_vlarb *a, unsigned vl,
                                     uint32_t bytes);
/* Bytes sent from VL `vl` so far (0 for a NULL or vl out of range). */
IBCC_API uint64_t ibcc_vlarb_bytes(const ibcc_vlarb *a, unsigned vl);

#ifndef IBCC_NO_STDIO /* text forms: not in the firmware profile */
/* OpenSM's value forms (opensm.conf qos_vlarb_high, qos_vlarb_low and
   their qos_ca_ / qos_sw0_ / qos_swe_ / qos_rtr_ variants): a table is
   "VL:weight,VL:weight,..." (numbers decimal or 0x-hex, blanks allowed
   around ':' and ',', one trailing ',' allowed, an empty or blank text
   is a table of no entries); the limit (qos_high_limit) is one number.
   A malformed text is PARSE; a well-formed one with a VL above 14, a
   weight above 255 or a limit above 255 is RANGE; more entries than
   `cap` (or 64) is CAPACITY. Outputs are written only on success.
   Whether a VL exists on a port is checked by ibcc_vlarb_defaults/init.
   Errors: NULL, PARSE, RANGE, CAPACITY. */
IBCC_API ibcc_result ibcc_vlarb_parse_table(const char *text,
                                            ibcc_vlarb_entry *out,
                                            uint32_t cap, uint32_t *n);
IBCC_API ibcc_result ibcc_vlarb_parse_limit(const char *text,
                                            uint32_t *limit);
/* Prints n entries as "VL:weight,..." (decimal, no blanks; "" for none).
   Errors: NULL, CAPACITY (n above 64), RANGE (a VL above 14; buf
   untouched), NOMEM (buf too small: an empty string in buf when
   len > 0). */
IBCC_API ibcc_result ibcc_vlarb_print_table(const ibcc_vlarb_entry *e,
                                            uint32_t n, char *buf,
                                            size_t len);
#endif /* IBCC_NO_STDIO */

/* ==== L1 qos ============================================================
   OpenSM's QoS settings for SL-to-VL mapping and VL arbitration, read in
   OpenSM's own option names and value forms (opensm.conf; OpenSM's
   doc/qos-config.txt and the Mellanox OpenSM manual, "SL2VL Mapping and
   VL Arbitration"; docs/vlarb.md). Five sets of the same five values:
   the unprefixed qos_* set and one set per port type, qos_ca_ (channel
   adapters), qos_sw0_ (switch port 0), qos_swe_ (switch external ports),
   qos_rtr_ (routers):
     <set>max_vls     the port's data VLs (1, 2, 4, 8, 15)
     <set>high_limit  LimitOfHighPriority, 0..255 (see L1 vlarb)
     <set>vlarb_high  the high-priority table, "VL:weight,..."
     <set>vlarb_low   the low-priority table, same form
     <set>sl2vl       16 VLs, one per SL 0..15, comma separated; VL 15
                      means packets of that SL are dropped
   and `qos TRUE|FALSE` (OpenSM sets these tables only when TRUE).
   A port type's value is its prefixed one when given, else the
   unprefixed one, else OpenSM's built-in default: max_vls 15,
   high_limit 0, vlarb_high "0:4,1:0,...,14:0", vlarb_low
   "0:0,1:4,...,14:4", sl2vl "0,1,...,14,7". The "not given" forms
   OpenSM writes into opensm.conf are accepted as such: max_vls 0,
   high_limit -1, a table or sl2vl "(null)".
   When OpenSM programs a port with fewer VLs it keeps only the low bits
   of every VL (VL & (vls - 1); a VL 15 in sl2vl stays 15):
   ibcc_qos_port_setting does the same, so the defaults on a 4-VL port
   give VL0 low-table entries too (unlike ibcc_vlarb's own defaults).
   Not in the firmware profile's text part: the struct and
   ibcc_qos_port_setting are, the parser is left out under
   IBCC_NO_STDIO.
   ====================================================================== */

#define IBCC_QOS_SLS 16u
/* Which set: a port type, or the unprefixed qos_* values. */
typedef enum ibcc_qos_port {
    IBCC_QOS_CA = 0,              /* qos_ca_  */
    IBCC_QOS_SW0 = 1,             /* qos_sw0_ */
    IBCC_QOS_SWE = 2,             /* qos_swe_ */
    IBCC_QOS_RTR = 3,             /* qos_rtr_ */
    IBCC_QOS_ANY = 4              /* qos_ (where no prefixed value) */
} ibcc_qos_port;
#define IBCC_QOS_SETS 5u
/* ibcc_qos_set.given bits: the value was given. */
#define IBCC_QOS_GIVEN_MAX_VLS    1u
#define IBCC_QOS_GIVEN_HIGH_LIMIT 2u
#define IBCC_QOS_GIVEN_VLARB_HIGH 4u
#define IBCC_QOS_GIVEN_VLARB_LOW  8u
#define IBCC_QOS_GIVEN_SL2VL      16u

typedef struct ibcc_qos_set {
    uint32_t given;               /* IBCC_QOS_GIVEN_* bits */
    uint32_t max_vls;             /* 1, 2, 4, 8, 15 */
    uint32_t high_limit;          /* 0..255 */
    uint32_t n_high, n_low;       /* entries used, 0..64 */
    ibcc_vlarb_entry high[IBCC_VLARB_MAX_ENTRIES];
    ibcc_vlarb_entry low[IBCC_VLARB_MAX_ENTRIES];
    uint8_t sl2vl[IBCC_QOS_SLS];  /* VL per SL, 0..14 or 15 (drop) */
    uint32_t line[5];             /* text line of each value (bit order
                                     of given; 0: not from text) */
} ibcc_qos_set;

typedef struct ibcc_qos_config {
    int qos;                      /* qos TRUE: 1; FALSE (default): 0 */
    uint32_t other;               /* lines of other options skipped */
    ibcc_qos_set set[IBCC_QOS_SETS];  /* indexed by ibcc_qos_port */
} ibcc_qos_config;

/* The effective settings of port type t (CA, SW0, SWE or RTR): *d with
   vls, high_limit and both tables (VLs kept to their low bits as OpenSM
   does, see above; ready for ibcc_vlarb_init) and, when sl2vl is not
   NULL, the 16 VLs per SL (15: dropped). *d and sl2vl are written only
   on success. Errors: NULL (c, d), RANGE (t not a port type; a value
   out of its range in a struct filled by hand: max_vls, high_limit,
   an sl2vl VL above 15; both tables empty, which ibcc_vlarb would read
   as its own defaults), CAPACITY (n_high or n_low above 64). */
IBCC_API ibcc_result ibcc_qos_port_setting(const ibcc_qos_config *c,
                                           ibcc_qos_port t,
                                           ibcc_vlarb_desc *d,
                                           uint8_t *sl2vl);

#ifndef IBCC_NO_STDIO /* text forms: not in the firmware profile */
/* Applies the lines of an opensm.conf text to *c ('#' comments, blank
   lines, "name value" lines; the QoS options above are read, every other
   option's line is skipped and counted in c->other). Values: numbers
   decimal or 0x-hex, tables as ibcc_vlarb_parse_table. After the last
   line each set's VLs are checked against the max_vls in force for it
   (its own, else the unprefixed one, else 15; for the unprefixed set
   every port type that takes its max_vls from it counts). Errors:
   NULL; PARSE (a malformed value, qos not TRUE or FALSE, an sl2vl of
   other than 16 VLs); RANGE (max_vls not 0, 1, 2, 4, 8 or 15, a limit
   above 255, a weight above 255, a VL above 14 in a table or above 15
   in sl2vl, a VL not below the max_vls in force, 15 in sl2vl
   excepted); CAPACITY (more than 64 table entries). Stops at the first
   error; *bad_line (optional): 0 on success, else the 1-based number of
   the failing line (for a VL beyond max_vls, the line of that table);
   *c keeps the lines before it. */
IBCC_API ibcc_result ibcc_qos_parse_opensm(ibcc_qos_config *c,
                                           const char *text,
                                           unsigned *bad_line);
#endif /* IBCC_NO_STDIO */

/* ==== L1 swcc ===========================================================
   IBA switch congestion settings (IBA Annex A10; docs/mechanisms.md, [G]):
   the SwitchCongestionSetting and SwitchPortCongestionSetting attributes as
   plain structs, with
     - encode/decode to the MAD attribute bytes,
     - range validation,
     - the rdma-core ibccconfig argument forms (parse and print),
     - the OpenSM cc_sw_cong_setting_* option lines (parse and print),
     - applying a setting to an IBA marker (ibcc_marker_apply_swcc/_swport).
   See docs/swcc.md.

   MAD layouts (big-endian, as every IBA MAD; bit offsets below are those of
   the libibmad field tables, counted from the most significant bit of the
   first byte):
   SwitchCongestionSetting, 76 bytes:
     bytes  0..3   Control_Map   (bit offset   0, 32 bits)
     bytes  4..35  Victim_Mask   (bit offset  32, 256 bits; port p = bit p
                                  of the 256-bit big-endian number, i.e.
                                  byte 35 - p/8, bit p%8)
     bytes 36..67  Credit_Mask   (bit offset 288, same numbering)
     byte  68      Threshold     (bit offset 544, 4 bits: the high nibble;
                                  the low nibble is reserved)
     byte  69      Packet_Size   (bit offset 552, 8 bits, 64-byte units)
     byte  70      CS_Threshold  (bit offset 560, 4 bits: the high nibble;
                                  the rest of bytes 70..71 is reserved)
     bytes 72..73  CS_ReturnDelay(bit offset 576, 16 bits: shift in bits
                                  15..14, multiplier in bits 13..0)
     bytes 74..75  Marking_Rate  (bit offset 592, 16 bits)
   SwitchPortCongestionSetting: blocks of 32 elements of 4 bytes (attribute
   modifier = block = port / 32), element for port p at byte 4*(p % 32):
     byte 0: Valid = bit 7 (0x80), Control_Type = bit 6 (0x40), bits 5..4
             reserved, Threshold = bits 3..0
     byte 1: Packet_Size
     bytes 2..3: Marking_Rate (Cong_Parm), big-endian
   Reserved bits are written as 0 and ignored when decoding.

   Control_Map bits (which fields a switch applies):
   | bit | constant               | fields                               |
   | 0   | IBCC_SWCC_VICTIM_MASK  | Victim_Mask                          |
   | 1   | IBCC_SWCC_CREDIT_MASK  | Credit_Mask                          |
   | 2   | IBCC_SWCC_THRESHOLD    | Threshold and Packet_Size            |
   | 3   | IBCC_SWCC_CS           | CS_Threshold and CS_ReturnDelay      |
   | 4   | IBCC_SWCC_MARKING_RATE | Marking_Rate                         |

   Ranges (ibcc_swcc_validate / ibcc_swport_validate, IBCC_ERR_RANGE):
   | field              | range                         |
   | control_map        | bits 0..4 only                |
   | threshold          | 0..15 (0 none, 1 loose .. 15 aggressive) |
   | packet_size        | 0..255 (64-byte units)        |
   | cs_threshold       | 0..15                         |
   | cs_return_delay    | shift 0..3, multiplier 0..16383 |
   | marking_rate       | 0..65535                      |
   | port element valid, control_type | 0..1            |
   Every field zero (the OpenSM default) means: nothing enabled.
   ====================================================================== */

#define IBCC_SWCC_VICTIM_MASK  0x01u
#define IBCC_SWCC_CREDIT_MASK  0x02u
#define IBCC_SWCC_THRESHOLD    0x04u
#define IBCC_SWCC_CS           0x08u
#define IBCC_SWCC_MARKING_RATE 0x10u
#define IBCC_SWCC_MAD_BYTES    76u   /* SwitchCongestionSetting */
#define IBCC_SWPORT_BYTES      4u    /* one port element */
#define IBCC_SWPORT_BLOCK      32u   /* elements per attribute block */

/* SwitchCongestionSetting. Masks: bit p of word p/32 = port p. */
typedef struct ibcc_swcc {
    uint32_t control_map;
    uint32_t victim_mask[8];
    uint32_t credit_mask[8];
    uint32_t threshold;
    uint32_t packet_size;
    uint32_t cs_threshold;
    uint32_t cs_return_delay_shift;   /* CS_ReturnDelay bits 15..14 */
    uint32_t cs_return_delay_mult;    /* CS_ReturnDelay bits 13..0 */
    uint32_t marking_rate;
} ibcc_swcc;

/* One SwitchPortCongestionSetting element. */
typedef struct ibcc_swport {
    uint32_t valid;                   /* 1: the switch applies this element */
    uint32_t control_type;            /* 0 congestion control, 1 credit
                                         starvation */
    uint32_t threshold;
    uint32_t packet_size;
    uint32_t marking_rate;            /* Cong_Parm */
} ibcc_swport;

/* IBCC_OK or IBCC_ERR_RANGE (first field out of range), IBCC_ERR_NULL. */
IBCC_API ibcc_result ibcc_swcc_validate(const ibcc_swcc *s);
IBCC_API ibcc_result ibcc_swport_validate(const ibcc_swport *e);

/* Encodes a valid setting into out[0 .. IBCC_SWCC_MAD_BYTES - 1] (the
   attribute data of the MAD). Errors: NULL, NOMEM (len <
   IBCC_SWCC_MAD_BYTES), RANGE (nothing written). */
IBCC_API ibcc_result ibcc_swcc_encode(const ibcc_swcc *s, uint8_t *out,
                                      size_t len);
/* Decodes in[0 .. IBCC_SWCC_MAD_BYTES - 1]; reserved bits are ignored.
   Every field width fits its range except control_map, which is kept as
   received (validate rejects unknown bits). Errors: NULL, NOMEM (len <
   IBCC_SWCC_MAD_BYTES). */
IBCC_API ibcc_result ibcc_swcc_decode(ibcc_swcc *s, const uint8_t *in,
                                      size_t len);
/* One element to/from IBCC_SWPORT_BYTES (4) bytes. Errors: NULL, NOMEM
   (len < 4), RANGE (encode). */
IBCC_API ibcc_result ibcc_swport_encode(const ibcc_swport *e, uint8_t *out,
                                        size_t len);
IBCC_API ibcc_result ibcc_swport_decode(ibcc_swport *e, const uint8_t *in,
                                        size_t len);

#ifndef IBCC_NO_STDIO /* text forms: not in the firmware profile */
/* ibccconfig argument forms. Numbers are decimal or 0x-hex (a leading 0 is
   decimal, not octal); masks take up to 64 hex digits (256 bits) or a
   decimal below 2^64; the return delay is "shift:mult". The command word
   may be present or not. Tokens are separated by blanks (space, tab, CR,
   LF, VT, FF). The text forms here and in cacc share one set of rules:
     SwitchCongestionSetting <controlmap> <victimmask> <creditmask>
         <threshold> <packetsize> <csthreshold> <csreturndelay shift:mult>
         <markingrate>
     SwitchPortCongestionSetting <port> <valid> <control_type> <threshold>
         <packet_size> <marking_rate>
   a text malformed anywhere (a missing or extra token, a bad character)
   is IBCC_ERR_PARSE; a well-formed text with a value outside its field
   is IBCC_ERR_RANGE; the output is written only on success. A printed
   text that does not fit its buffer is IBCC_ERR_NOMEM, with an empty
   string in buf (when len > 0).
   Errors: NULL, PARSE, RANGE. */
IBCC_API ibcc_result ibcc_swcc_parse_args(ibcc_swcc *s, const char *text);
IBCC_API ibcc_result ibcc_swport_parse_args(ibcc_swport *e, unsigned *port,
                                            const char *text);
/* Prints the same forms (with the command word; masks and control map in
   hex, the rest decimal) into buf. Errors: NULL, RANGE (invalid setting;
   buf untouched), NOMEM (buf too small). */
IBCC_API ibcc_result ibcc_swcc_print_args(const ibcc_swcc *s, char *buf,
                                          size_t len);
IBCC_API ibcc_result ibcc_swport_print_args(const ibcc_swport *e,
                                            unsigned port, char *buf,
                                            size_t len);

/* OpenSM option lines (opensm.conf): one "name value" line:
     cc_sw_cong_setting_control_map, _victim_mask, _credit_mask,
     _threshold, _packet_size, _credit_starvation_threshold,
     _credit_starvation_return_delay (shift:mult), _marking_rate
   Returns IBCC_OK when the line set a field of *s (or is blank or a
   # comment: nothing changes), IBCC_ERR_NOT_FOUND when it is another
   option (left for other parsers), IBCC_ERR_PARSE / IBCC_ERR_RANGE for a
   bad value of one of these options (*s unchanged), IBCC_ERR_NULL. Lines
   have no length limit. */
IBCC_API ibcc_result ibcc_swcc_parse_opensm_line(ibcc_swcc *s,
                                                 const char *line);
/* Every line of `text` (a whole opensm.conf, say): lines of other options
   are skipped. *bad_line (optional): 0 on success; on a PARSE/RANGE error
   the 1-based number of the failing line (*s keeps the lines before
   it). */
IBCC_API ibcc_result ibcc_swcc_parse_opensm(ibcc_swcc *s, const char *text,
                                            unsigned *bad_line);
/* The 8 option lines, each ending in '\n' (numbers in 0x-hex, the return
   delay as shift:mult). Errors: NULL, RANGE, NOMEM (as print_args). */
IBCC_API ibcc_result ibcc_swcc_print_opensm(const ibcc_swcc *s, char *buf,
                                            size_t len);
#endif /* IBCC_NO_STDIO */

/* Applies a SwitchCongestionSetting to an IBA marker the way a switch
   does, field groups selected by Control_Map: bit 0 sets the Victim_Mask,
   bit 2 Threshold and Packet_Size of every port, bit 4 Marking_Rate of
   every port (restarting their counters). Credit masks and credit
   starvation (bits 1 and 3) are not modelled by the marker: a setting
   with either bit set is refused (IBCC_ERR_UNSUPPORTED) and nothing
   changes. Errors: NULL, RANGE (invalid setting or a Victim_Mask bit at
   or above the marker's ports), STATE (marker engine is not IBA),
   UNSUPPORTED. */
IBCC_API ibcc_result ibcc_marker_apply_swcc(ibcc_marker *m,
                                            const ibcc_swcc *s);
/* Applies one port element: valid = 0 changes nothing (IBCC_OK);
   control_type 1 (credit starvation) is IBCC_ERR_UNSUPPORTED; otherwise
   the port gets Threshold, Packet_Size and Marking_Rate. Errors: NULL,
   RANGE (element or port), STATE, UNSUPPORTED. */
IBCC_API ibcc_result ibcc_marker_apply_swport(ibcc_marker *m, unsigned port,
                                              const ibcc_swport *e);

/* ==== L1 law ============================================================
   Source rate laws: how a flow's rate limit answers each ACK. An unmarked
   ACK applies r = finc(r), a marked one r = fdec(r), always within
   [Rmin, Rmax] [S03 §V]. Laws: AIMD, FIMD, LIPD (formulas below, from
   docs/mechanisms.md) and a caller-supplied finc/fdec pair. Each law runs
   in one of three forms chosen by the description:

     CONTINUOUS  reference: the exact rate in a double.
     DISCRETE    IBA IPD rates only: the applied rate is always
                 Rmax/(1+ipd), ipd integer 0..255. The exact state is kept
                 in fixed point (Q32.32 fraction of Rmax, 2^32 = Rmax) and
                 stepped by the law's formula rounded to nearest, in
                 integer arithmetic for the built-in laws (the same
                 states on every target and profile; it agrees with the
                 double formula on the same state, tested to never be
                 more than one unit off) and in double for CUSTOM;
                 only the applied rate is quantised, with the rule
                 "highest allowed rate not above the exact rate":
                 ipd = ceil(2^32/(q + 1/2)) - 1 (the half unit absorbs the
                 state's own rounding), at most floor(1/rmin) - 1 so the
                 applied rate is never below Rmin (this cap acts only
                 when rmin is not an IPD rate 1/n). So slow increases
                 accumulate in the state and never freeze (docs/mechanisms.md).
     TABLE       the law compiled at init (or ahead of time into ROM:
                 ibcc_law_init_rom) into per-entry tables over a
                 finite rate set (default: the 256 IPD rates, index = ipd;
                 or a geometric set, computed in integer arithmetic so
                 it is the same on every target): next_on_mark[i], next_on_unmark[i]
                 and a progress increment inc[i] (Q1.31: 2^31 = one
                 step). The per-ACK step is integer-only: a marked ACK
                 moves to next_on_mark[i]; an unmarked ACK adds inc[i] to
                 a progress accumulator and moves to next_on_unmark[i]
                 when it reaches one step (2^31).
                 This deterministic fractional counter is how the table
                 avoids freezing slow increases (docs/law.md).

   RATE UNITS. Rates are normalised: x = r / Rmax, x in [rmin, 1]; Rmax is
   the flow's line rate (the rate at which a packet takes its wire time
   tau). ibcc_law_rate_bytes() converts to bytes/s for a given Rmax. Time
   between packets comes from ibcc_law_gap(): after a packet that took tau
   to transmit the source waits gap = tau * (Rmax/r - 1) = ipd * tau
   [S03 §IV-B].

   VARIABLE PACKET SIZES [S03 §IV-B]: ibcc_law_on_ack_sized() takes the
   acknowledged size relative to a reference packet as a Q16.16 weight
   (65536 = one reference packet); an unmarked ACK's increase is scaled by
   the weight (continuous/discrete: r += w * (finc(r) - r); table: progress
   += w * inc[i]). A marked ACK applies fdec once whatever its size.

   Sources: [S03] §IV-B (window + rate, IPD form), §V (response functions,
   design conditions 1-3, discrete rates, tables), §VI-B.2 (persistent
   state). The laws (x normalised, k = rmin):
     FIMD  fdec(x) = max(x/m, k)             finc(x) = min(x * m^(k/x), 1)
     LIPD  fdec(x) = max(1/(1/x + 1), k)     finc(x) = min(x / (1 - k), 1)
     AIMD  fdec(x) = max(x/m, k)             finc(x) = min(x + (m-1)k^2/x, 1)
   Results of a custom pair are clamped the same way (NaN becomes rmin).

   Defaults (ibcc_law_desc, zero means default):
   | field      | default              | range                              |
   | kind       | IBCC_LAW_LIPD        | LIPD, FIMD, AIMD, CUSTOM           |
   | form       | IBCC_LAW_CONTINUOUS  | CONTINUOUS, DISCRETE, TABLE        |
   | rmin       | 1/256 (of Rmax)      | [2^-16, 1); DISCRETE and the IPD   |
   |            |                      | table set: [1/256, 1)              |
   | m          | 2                    | (1, 65536] (AIMD, FIMD; ignored by |
   |            |                      | LIPD and CUSTOM but still checked) |
   | finc, fdec | NULL                 | both required for CUSTOM           |
   | rates      | IBCC_LAW_RATES_IPD   | IPD, GEOMETRIC (TABLE form only)   |
   | table_size | IPD: number of rates | IPD: 0 or exactly that number;     |
   |            | Rmax/(1+ipd) >= rmin;| GEOMETRIC: 2 .. 65536              |
   |            | GEOMETRIC: 256       |                                    |
   A new law starts at Rmax (no slow start, docs/mechanisms.md).
   Each kind is one entry of a private operation table (ibcc_law_kinds_:
   its name, steps, constants, closed form and rule), the only code that
   knows it: docs/law.md "Adding a law".
   ====================================================================== */

/* A 0 field means the default (LIPD, CONTINUOUS, IPD), which
   ibcc_law_defaults writes in; 0 is not an enumerator, so code that
   switches on a validated desc has no case for it. */
typedef enum ibcc_law_kind {
    IBCC_LAW_LIPD   = 1,        /* linear inter-packet delay [S03 §V] */
    IBCC_LAW_FIMD   = 2,        /* fast increase, multiplicative decrease */
    IBCC_LAW_AIMD   = 3,        /* additive increase (in time), mult. decrease */
    IBCC_LAW_CUSTOM = 4         /* caller's finc/fdec */
} ibcc_law_kind;

typedef enum ibcc_law_form {
    IBCC_LAW_CONTINUOUS = 1,    /* reference, double state */
    IBCC_LAW_DISCRETE   = 2,    /* IPD rates, exact state in Q32.32 */
    IBCC_LAW_TABLE      = 3     /* compiled tables, integer-only step */
} ibcc_law_form;

typedef enum ibcc_law_rates {
    IBCC_LAW_RATES_IPD       = 1, /* x_i = 1/(1+i), i = 0 .. (index = ipd) */
    IBCC_LAW_RATES_GEOMETRIC = 2  /* x_i = rmin^(i/(n-1)), i = 0 .. n-1 */
} ibcc_law_rates;

/* A custom increase or decrease function: maps a normalised rate x in
   [rmin, 1] to the next one. `user` is ibcc_law_desc.user. Called per ACK
   in the CONTINUOUS and DISCRETE forms, only at init in the TABLE form
   (and by the checker/recovery helpers). Must be deterministic. */
typedef double (*ibcc_law_fn)(double x, void *user);

typedef struct ibcc_law_desc {
    ibcc_law_kind kind;     /* default IBCC_LAW_LIPD */
    ibcc_law_form form;     /* default IBCC_LAW_CONTINUOUS */
    double rmin;            /* Rmin / Rmax, default 1/256 */
    double m;               /* decrease factor (AIMD, FIMD), default 2 */
    ibcc_law_fn finc;       /* CUSTOM only: unmarked-ACK function */
    ibcc_law_fn fdec;       /* CUSTOM only: marked-ACK function */
    void *user;             /* passed to finc/fdec */
    ibcc_law_rates rates;   /* TABLE only: rate set, default IPD */
    uint32_t table_size;    /* TABLE only: entries (see table above) */
} ibcc_law_desc;

/* The dynamic state of a law (what persistent per-pair state saves).
   Which fields are meaningful depends on the form; the others are 0. */
typedef struct ibcc_law_state {
    double   x;             /* CONTINUOUS: rate / Rmax in [rmin, 1] */
    uint64_t q;             /* DISCRETE: exact rate, Q32.32 (2^32 = Rmax) */
    uint32_t index;         /* DISCRETE: applied ipd; TABLE: entry index */
    uint32_t acc;           /* TABLE: progress to next_on_unmark, Q1.31
                               (2^31 = one step), always < 2^31 */
} ibcc_law_state;

/* One compiled table entry: the layout ibcc_law_init compiles into the
   caller's memory, and the element of a table compiled ahead of time
   into ROM (ibcc_law_rom below; `ibccsim law-table --emit-c` prints one
   as an initializer list in this field order). Read entries with
   ibcc_law_table_entry. */
typedef struct ibcc_law_rom_entry {
    double   rate;          /* x_i, normalised (read through its bits in
                               the IBCC_NO_FLOAT profile) */
    uint32_t inc;           /* progress per unmarked ACK, Q1.31 */
    uint32_t gapq;          /* Rmax/x_i - 1, Q16.16 (exactly ipd<<16 on
                               the IPD set) */
    uint16_t mark;          /* next_on_mark[i] */
    uint16_t up;            /* next_on_unmark[i] */
} ibcc_law_rom_entry;

typedef struct ibcc_law {
    ibcc_law_desc d;        /* effective description (after defaults) */
    ibcc_law_state s;       /* current state */
    uint64_t qmin;          /* DISCRETE: rmin in Q32.32 (rounded up) */
    uint32_t ipd_max;       /* DISCRETE: largest applied ipd,
                               floor(1/rmin) - 1 */
    uint32_t n;             /* TABLE: entries */
    const ibcc_law_rom_entry *table; /* TABLE: n entries in caller memory
                               (compiled at init) or in ROM */
    uint64_t k63;           /* DISCRETE: rmin 2^63, to nearest */
    uint64_t m47;           /* DISCRETE: m 2^47, to nearest */
    uint64_t cq;            /* DISCRETE AIMD: (m-1) rmin^2 2^64, to
                               nearest, saturated; FIMD: log2(m) 2^58 */
} ibcc_law;

/* Public view of one table entry. */
typedef struct ibcc_law_entry {
    double   rate;          /* x_i = r_i / Rmax */
    uint32_t next_on_mark;  /* index after a marked ACK */
    uint32_t next_on_unmark;/* index once progress reaches 1.0 */
    uint32_t inc;           /* progress per unmarked ACK, Q1.31: 2^31
                               means every ACK moves; above 2^31 the excess
                               is carried (the continuous law passed
                               next_on_unmark's rate in one ACK); 0: the
                               law does not increase from this entry.
                               Resolution: a step needing n ACKs gets
                               round(2^31/n), so counts are exact to 0.1 %
                               up to n = 2^21 and saturate at 2^31 */
    uint32_t gap_q16;       /* Rmax/x_i - 1 in Q16.16 */
} ibcc_law_entry;

/* A kind's name for text: "lipd", "fimd", "aimd", "custom" (the enum's
   name in lower case); "?" if the kind is unknown. Kinds are numbered
   from 1 without gaps, so k = 1, 2, ... while the name is not "?" lists
   them all. */
IBCC_API const char *ibcc_law_kind_name(ibcc_law_kind kind);
/* *kind = the kind ibcc_law_kind_name spells `text` (exact match).
   Errors: NULL (text, kind), PARSE (no kind of that name; *kind
   unchanged). */
IBCC_API ibcc_result ibcc_law_kind_parse(const char *text,
                                         ibcc_law_kind *kind);

/* Fills zero fields of *d with the effective defaults and validates the
   whole description. Errors: NULL (d; finc/fdec of CUSTOM), RANGE (kind,
   form, rates out of the enum; rmin outside its range or NaN; m <= 1,
   > 65536 or NaN; table_size out of range), CAPACITY (GEOMETRIC
   table_size 1 or > 65536), UNSUPPORTED (rates or table_size set for a
   form other than TABLE). */
IBCC_API ibcc_result ibcc_law_defaults(ibcc_law_desc *d);
/* *bytes = the caller memory ibcc_law_init needs: the table for TABLE, 0
   for the other forms (pass NULL, 0). Errors: as defaults (then *bytes =
   0), NULL, CAPACITY. */
IBCC_API ibcc_result ibcc_law_size(const ibcc_law_desc *d, size_t *bytes);
/* Initialises a law at Rmax. TABLE compiles the tables into `mem`
   (uint64_t-aligned, at least ibcc_law_size bytes); the other forms accept
   mem = NULL, len = 0. Errors: those of ibcc_law_defaults, NULL (l; mem
   for TABLE), ALIGN, NOMEM. The desc is copied; `mem` must outlive l.
   Cost of the TABLE compile: at most 2^24 + 17 * table_size calls of
   finc (about 1.8e7) and table_size of fdec, whatever the law (a few
   hundred ms at worst for FIMD's pow; see docs/law.md).
   IBCC_NO_FLOAT: UNSUPPORTED for the CONTINUOUS form, the CUSTOM kind
   and the TABLE form (whose compile computes in floating point: load
   its tables with ibcc_law_init_rom). */
IBCC_API ibcc_result ibcc_law_init(ibcc_law *l, const ibcc_law_desc *d,
                                   void *mem, size_t len);

/* ---- tables compiled ahead of time (ROM) ------------------------------
   A TABLE law's tables depend only on its description, so a host can
   compile them once and firmware can link them as a const array:
   `ibccsim law-table --emit-c` prints the entries, the description and
   an ibcc_law_rom for a law given by flags (docs/law.md), and
   ibcc_law_init_rom points a law at them: no memory, no compile, no
   floating point. The law then steps exactly as one whose tables
   ibcc_law_init compiled from the same description. */
typedef struct ibcc_law_rom {
    const ibcc_law_desc *desc;        /* the description (form TABLE) */
    const ibcc_law_rom_entry *table;  /* its compiled entries */
    uint32_t n;                       /* entries: the desc's table_size */
    uint32_t check;                   /* ibcc_law_rom_check() of the above */
} ibcc_law_rom;

/* Check word of a compiled table: 32-bit FNV-1a over the effective
   description's kind, rates, table_size, rmin and m (IEEE 754 bits) and
   every entry's fields in order, each little-endian, so the same on
   every target. Errors: NULL (d, t, out), the desc errors, UNSUPPORTED
   (not the TABLE form), MISMATCH (n is not the desc's table_size). */
IBCC_API ibcc_result ibcc_law_rom_check(const ibcc_law_desc *d,
                                        const ibcc_law_rom_entry *t,
                                        uint32_t n, uint32_t *out);
/* Describes an initialised TABLE law's tables as a ROM: desc -> l's
   effective description, table -> its entries, n, check. Valid while l
   is. Errors: NULL, STATE (not a TABLE law). */
IBCC_API ibcc_result ibcc_law_to_rom(const ibcc_law *l, ibcc_law_rom *rom);
/* Initialises a TABLE law at Rmax on tables compiled ahead of time (the
   table must outlive l; *rom need not). Validated first, nothing written
   on error: the description (its errors; UNSUPPORTED if the form is not
   TABLE), then MISMATCH if n is not the desc's table_size, the check
   word differs, or an entry breaks the compiled shape (an index >= n;
   entry 0 not rate 1 with gap, inc and next_on_unmark 0; rates not
   strictly decreasing and positive; gap_q16 not ipd << 16 on the IPD
   set or decreasing on the geometric one; an entry other than 0 whose
   unmarked move does not go up with inc > 0 or stay with inc 0).
   Errors: NULL (l, rom, its desc or table). Available in every
   profile. */
IBCC_API ibcc_result ibcc_law_init_rom(ibcc_law *l, const ibcc_law_rom *rom);

/* One step of table progress (ibcc_law_state.acc), Q1.31: 2^31. */
#define IBCC_LAW_STEP UINT64_C(0x80000000)

/* Per-ACK step for variable packet sizes: weight_q16 is the acknowledged
   size divided by the reference packet size, Q16.16 (65536 = one reference
   packet; e.g. (acked_bytes << 16) / ref_bytes). Unmarked: the increase is
   scaled by the weight (TABLE: progress += inc[i] * w, with the same
   move rule as ibcc_law_on_ack: at most one entry beyond next_on_unmark
   per ACK, the remainder capped below one step). Marked: fdec
   once. TABLE path integer-only. ibcc_law_on_ack below is this with
   weight 65536, its TABLE path inline. */
IBCC_API void ibcc_law_on_ack_sized(ibcc_law *l, int marked,
                                    uint32_t weight_q16);

/* (private) The TABLE form's step, `inc` the progress an unmarked ACK
   brings (inc[i], or inc[i] * w >> 16 for a sized ACK). Marked: to the
   mark target. Unmarked: progress (Q1.31) += inc; at one step (2^31)
   move to up[i]; a carry of another whole step moves one entry further
   up; what is left is capped just under one step (0 at Rmax). */
IBCC_INLINE void ibcc_law_table_step_(ibcc_law *l, int marked, uint64_t inc)
{
    const ibcc_law_rom_entry *e = l->table + l->s.index;
    uint64_t a;
    if (marked) {
        l->s.index = e->mark;
        l->s.acc = 0;
        return;
    }
    a = IBCC_CAST(uint64_t, l->s.acc) + inc;
    if (a >= IBCC_LAW_STEP) {
        uint32_t j = e->up;
        a -= IBCC_LAW_STEP;
        if (a >= IBCC_LAW_STEP && j > 0) { j--; a -= IBCC_LAW_STEP; }
        if (a >= IBCC_LAW_STEP) a = IBCC_LAW_STEP - 1u;
        if (j == 0) a = 0;
        l->s.index = j;
    }
    l->s.acc = IBCC_CAST(uint32_t, a);
}

/* Per-ACK step. marked != 0: r = fdec(r); else r = finc(r). Inline: the
   TABLE form runs entirely here (two loads, an add, a compare). A NULL l
   is ignored (as by every step and query below: queries of a NULL law
   return 0). */
IBCC_INLINE void ibcc_law_on_ack(ibcc_law *l, int marked)
{
    if (!l) return;
    if (l->d.form == IBCC_LAW_TABLE)
        ibcc_law_table_step_(l, marked, l->table[l->s.index].inc);
    else
        ibcc_law_on_ack_sized(l, marked, 65536u);
}

/* Inter-packet delay after a packet that took `tau` (its wire time at
   Rmax): gap = tau * (Rmax/r - 1) = ipd * tau at the APPLIED rate.
   DISCRETE: tau * ipd exactly; TABLE: (tau * gap_q16) >> 16 (exact on the
   IPD set); CONTINUOUS: rounded to the nearest ps. Integer-only except
   CONTINUOUS. Saturates at IBCC_TIME_MAX. */
IBCC_API ibcc_time ibcc_law_gap(const ibcc_law *l, ibcc_time tau);

#ifndef IBCC_NO_FLOAT
/* Applied normalised rate r/Rmax: CONTINUOUS x; DISCRETE 1/(1+ipd); TABLE
   x_index. */
IBCC_API double ibcc_law_rate(const ibcc_law *l);
/* Exact normalised rate: CONTINUOUS x; DISCRETE q/2^32; TABLE x_index. */
IBCC_API double ibcc_law_exact_rate(const ibcc_law *l);
#endif /* IBCC_NO_FLOAT */
/* Applied rate in bytes/s for a line rate rmax: floor(rmax * r/Rmax),
   exact integer arithmetic for DISCRETE and TABLE (the entry's rate
   taken at its exact binary value). */
IBCC_API ibcc_rate ibcc_law_rate_bytes(const ibcc_law *l, ibcc_rate rmax);
/* Applied IPD, ceil(Rmax/r) - 1 ("highest IPD rate not above r"); for
   DISCRETE and the IPD table this is the exact ipd of the applied rate.
   Integer-only for DISCRETE and TABLE. */
IBCC_API uint32_t ibcc_law_ipd(const ibcc_law *l);
/* True (1) when the applied rate is Rmax (so exactly when ibcc_law_rate
   is 1 and ibcc_law_ipd 0). DISCRETE: applied ipd 0, which for rmin > 1/2
   holds in every state (the applied rate never leaves Rmax there). */
IBCC_API int ibcc_law_at_max(const ibcc_law *l);

/* Back to Rmax (what a new flow starts with). */
IBCC_API void ibcc_law_reset(ibcc_law *l);
#ifndef IBCC_NO_FLOAT
/* Sets the exact rate to x (clamped to [rmin, 1]); TABLE: the entry of
   the highest table rate not above x. Errors: NULL, RANGE (x NaN). */
IBCC_API ibcc_result ibcc_law_set_rate(ibcc_law *l, double x);
#endif /* IBCC_NO_FLOAT */
/* Copies the dynamic state out / in (persistent per-pair state). set
   validates it for this law: RANGE if a field is outside the form's
   domain (x not in [rmin,1], q not in [qmin, 2^32], index >= entries or
   not the ipd of q, acc >= 2^31). */
IBCC_API ibcc_result ibcc_law_get_state(const ibcc_law *l, ibcc_law_state *s);
IBCC_API ibcc_result ibcc_law_set_state(ibcc_law *l, const ibcc_law_state *s);

/* The law's continuous functions with the clamp to [rmin, 1] (whatever
   the form; a TABLE was compiled from these). Useful to build other
   tables (e.g. an IBA CCT) from a law. */
#ifndef IBCC_NO_FLOAT
IBCC_API double ibcc_law_finc(const ibcc_law *l, double x);
IBCC_API double ibcc_law_fdec(const ibcc_law *l, double x);
#endif /* IBCC_NO_FLOAT */

/* TABLE form: number of entries (0 for other forms) and entry i.
   Errors: NULL, STATE (not a TABLE law), RANGE (i >= entries). */
IBCC_API uint32_t ibcc_law_table_size(const ibcc_law *l);
IBCC_API ibcc_result ibcc_law_table_entry(const ibcc_law *l, uint32_t i,
                                          ibcc_law_entry *out);

/* ---- recovery helper (SCENARIOS §A run 8) ------------------------------
   Runs a copy of the law (same form, tables shared read-only) from Rmin
   to Rmax with no marks, one ACK per packet interval at the applied rate:
   the interval at rate r is tau*Rmax/r = tau + ibcc_law_gap(tau), tau the
   packet's wire time at Rmax. Point j is (t_j, applied rate after j ACKs);
   point 0 is (0, Rmin's applied rate), the last is (time, 1.0). Points
   beyond `cap` are not stored (`points` says how many were); the totals
   are still computed. */
typedef struct ibcc_law_point {
    ibcc_time t;            /* time since the start, ps */
    double rate;            /* applied rate / Rmax */
} ibcc_law_point;

typedef struct ibcc_law_recovery_result {
    ibcc_time time;         /* time at which the applied rate reaches Rmax */
    double time_tau;        /* the same in units of tau (exact sum for
                               CONTINUOUS, not rounded to ps) */
    uint64_t acks;          /* unmarked ACKs taken */
    size_t points;          /* points written to the curve */
} ibcc_law_recovery_result;

/* Errors: NULL (l, out; curve with cap > 0), RANGE (tau 0; the law does
   not reach Rmax within 2^26 ACKs), OVERFLOW (time beyond IBCC_TIME_MAX). */
#ifndef IBCC_NO_FLOAT
IBCC_API ibcc_result ibcc_law_recovery(const ibcc_law *l, ibcc_time tau,
                                       ibcc_law_point *curve, size_t cap,
                                       ibcc_law_recovery_result *out);

/* Closed-form recovery time Rmin -> Rmax in units of tau, continuous
   limit, one ACK per interval 1/r (derivations in docs/law.md), k = rmin:
     FIMD  (1/k) * log_m(1/k)          (= 2048 tau for k = 1/256, m = 2)
     LIPD  (1/k) * (1/k - 1)           (= 65280 tau)
     AIMD  (1 - k) / ((m - 1) k^2)     (= 65280 tau for m = 2)
   For these three the ACK-by-ACK sum of the CONTINUOUS form is exact up
   to the final ACK's clamp at Rmax: closed <= helper < closed + last
   interval. Errors: NULL, the desc errors, UNSUPPORTED (CUSTOM). */
IBCC_API ibcc_result ibcc_law_recovery_closed(const ibcc_law_desc *d,
                                              double *tau_units);
#endif /* IBCC_NO_FLOAT */

/* ---- design-conditions checker [S03 §V], docs/mechanisms.md ---------------
   Evaluates, for the desc's law (its continuous functions, whatever the
   form), over a geometric grid of `points` rates r_i = k^(1 - i/(n-1)),
   i = 0..n-1 (Rmin .. Rmax), restricted to the rates where fdec does not
   hit the floor (fdec(r) > Rmin: below that a decrease is truncated by
   the clamp and the conditions do not apply):
     C1  worst (finc(fdec(r)) - r) / r               pass if <= tol1
     C2  worst relative drop of Trec: max over r of
         (max_{r' <= r} Trec(r') - Trec(r)) / max_{r'<=r} Trec(r')
                                                      pass if <= tol2
     C3  worst |Trec(r) * Rmin - 1|                   pass if <= tol3
   Trec(r): time (in units of 1/Rmax, i.e. tau) from fdec(r) back to r
   with no marks, ACKs one per interval 1/x, stepped ACK by ACK; the last
   ACK counts for the fraction ln(r/z)/ln(z'/z) of its interval (z before,
   z' after it, z' not clamped at Rmax). This geometric interpolation
   removes the staircase of whole ACKs; it is exact for FIMD (ln r linear
   in time) and second order in the step size otherwise (LIPD: 3.3e-4 at
   k = 1/256, hence tol3 = 1e-3). A law that stops
   increasing below r gives Trec = +inf (reported; fails C3,
   and C2 if a finite Trec follows at a higher rate). */
typedef struct ibcc_law_check_desc {
    uint32_t points;        /* grid size, default 256, range 2 .. 65536 */
    double tol1;            /* default 1e-9 (rounding only) */
    double tol2;            /* default 1e-3 */
    double tol3;            /* default 1e-3 */
} ibcc_law_check_desc;

typedef struct ibcc_law_condition {
    double worst;           /* worst measure over the grid (see above) */
    double rate;            /* normalised rate where it occurs */
    int pass;               /* worst <= tolerance */
} ibcc_law_condition;

typedef struct ibcc_law_check_result {
    ibcc_law_condition cond[3]; /* C1, C2, C3 */
    uint32_t points;        /* grid size used */
    uint32_t evaluated;     /* grid rates in the domain (fdec(r) > Rmin) */
    ibcc_law_check_desc tol;/* effective tolerances */
} ibcc_law_check_result;

/* c may be NULL (all defaults). Errors: NULL (d, out), the desc errors,
   RANGE (points out of range, a tolerance negative, NaN or infinite),
   CAPACITY (no grid rate in the domain). */
#ifndef IBCC_NO_FLOAT
IBCC_API ibcc_result ibcc_law_check(const ibcc_law_desc *d,
                                    const ibcc_law_check_desc *c,
                                    ibcc_law_check_result *out);
#endif /* IBCC_NO_FLOAT */

/* ==== L1 pacer ==========================================================
   Per-flow injection control [S03 §IV-B]: a window limit (packets sent and
   not yet acknowledged) AND a rate limit (from a rate law, a fixed rate, or
   none). After a packet that took tau to transmit and started at s, the
   next may start at
       next = s + tau + gap(tau)          gap = tau * (Rmax/r - 1)
   with r the rate limit's CURRENT rate (so an ACK that lowers the rate
   between two sends lengthens the pending gap), and only while fewer than
   `window` packets are outstanding. The pacer only computes; the caller
   owns the clock and the packets.

   Granularity: one ibcc_pacer per flow (window, outstanding count, last
   send; it points at the flow's ibcc_law, which the caller owns). Optional
   persistent state [S03 §VI-B.2] lives in a separate ibcc_pairstate store
   keyed by (source, destination) in caller memory: save a flow's law state
   when it ends, load it when the pair's next flow starts (a pair never
   seen starts at Rmax).

   Defaults (ibcc_pacer_desc, zero means default):
   | field  | default | range                                             |
   | window | 1       | 1 .. 2^32-2, or IBCC_PACER_NO_WINDOW (no limit)   |
   | law    | NULL    | an initialised ibcc_law (rate from the law)       |
   | rate   | 0       | fixed rate, bytes/s, 1 .. rmax (0: none)          |
   | rmax   | 0       | line rate, bytes/s; required with `rate`          |
   At most one of law and rate; neither means no rate limit (gap 0).

   Defaults (ibcc_pairstate_desc):
   | field    | default | range       |
   | capacity | 1024    | 1 .. 2^24   |  (pairs; full store: IBCC_ERR_FULL)
   ====================================================================== */

#define IBCC_PACER_NO_WINDOW UINT32_MAX

typedef struct ibcc_pacer_desc {
    uint32_t window;        /* outstanding packets allowed, default 1 */
    ibcc_law *law;          /* rate from this law (caller-owned) */
    ibcc_rate rate;         /* or a fixed rate in bytes/s */
    ibcc_rate rmax;         /* line rate (bytes/s) for `rate` */
} ibcc_pacer_desc;

typedef struct ibcc_pacer {
    uint32_t window;        /* limit, IBCC_PACER_NO_WINDOW = none */
    uint32_t outstanding;   /* sent and not yet acknowledged */
    ibcc_law *law;          /* rate source, or NULL */
    ibcc_rate rate;         /* fixed rate (bytes/s), 0 when not fixed */
    ibcc_rate rmax;         /* line rate for the fixed rate */
    int has_sent;           /* a packet has been sent since init/reset */
    ibcc_time last_start;   /* start time of the last packet sent */
    ibcc_time last_tau;     /* its wire time */
    uint64_t sent, acked;   /* counters since init/reset */
} ibcc_pacer;

/* Fills zero fields (window = 1) and validates. Errors: NULL, RANGE (rate
   > rmax; rmax 0 with rate), UNSUPPORTED (both law and rate; rmax without
   rate). */
IBCC_API ibcc_result ibcc_pacer_defaults(ibcc_pacer_desc *d);
/* Initialises an idle flow (nothing outstanding, may send at once).
   Errors: those of ibcc_pacer_defaults, NULL (p). */
IBCC_API ibcc_result ibcc_pacer_init(ibcc_pacer *p, const ibcc_pacer_desc *d);
/* Flow restart: nothing outstanding, no last send, counters 0. The law is
   NOT touched (reset it, or load it from an ibcc_pairstate). */
IBCC_API void ibcc_pacer_reset(ibcc_pacer *p);

/* Queries of a NULL pacer: gap, next, window_open, can_send 0; earliest
   IBCC_TIME_MAX.
   Rate gap after a packet of wire time tau at the current rate: law ->
   ibcc_law_gap; fixed -> ceil(tau * (rmax - rate) / rate), exact integer
   arithmetic (one 64-bit division; 128-bit product when needed), so the
   fixed rate is never exceeded; none -> 0. Saturates at IBCC_TIME_MAX. */
IBCC_API ibcc_time ibcc_pacer_gap(const ibcc_pacer *p, ibcc_time tau);
/* Earliest start time allowed by the rate limit alone:
   last_start + last_tau + gap(last_tau), or 0 before the first send.
   Saturates at IBCC_TIME_MAX. */
IBCC_API ibcc_time ibcc_pacer_next(const ibcc_pacer *p);
/* 1 when fewer than `window` packets are outstanding. */
IBCC_API int ibcc_pacer_window_open(const ibcc_pacer *p);
/* Earliest start time allowed by both limits: IBCC_TIME_MAX while the
   window is full (an ACK must come first), else ibcc_pacer_next. */
IBCC_API ibcc_time ibcc_pacer_earliest(const ibcc_pacer *p);
/* 1 when a packet may start at `now` (window open and now >= next). */
IBCC_API int ibcc_pacer_can_send(const ibcc_pacer *p, ibcc_time now);

/* A packet of wire time tau (> 0) starts at `now`. Errors (nothing
   changes): FULL (window full), PAST (now < next, or earlier than the
   previous start), RANGE (tau 0). */
IBCC_API ibcc_result ibcc_pacer_on_send(ibcc_pacer *p, ibcc_time now,
                                        ibcc_time tau);
/* An ACK for one outstanding packet arrived; steps the law (if any) with
   ibcc_law_on_ack(marked). Error: MISMATCH (nothing outstanding; the law
   is not stepped). */
IBCC_API ibcc_result ibcc_pacer_on_ack(ibcc_pacer *p, int marked);
/* Same, with the acknowledged size as a Q16.16 weight (see
   ibcc_law_on_ack_sized). */
IBCC_API ibcc_result ibcc_pacer_on_ack_sized(ibcc_pacer *p, int marked,
                                             uint32_t weight_q16);

/* ---- persistent per-(source, destination) law state -------------------
   Open-addressing hash table (linear probing, power-of-two slots, at most
   half full) in caller memory. A store holds states of laws of one
   description; ibcc_law_set_state validates each on load. */
typedef struct ibcc_pairstate_desc {
    uint32_t capacity;      /* maximum pairs, default 1024 */
} ibcc_pairstate_desc;

typedef struct ibcc_pair_slot_ {
    uint64_t key;           /* (src << 32) | dst */
    ibcc_law_state st;
    uint32_t used;
} ibcc_pair_slot_;

typedef struct ibcc_pairstate {
    uint32_t capacity;      /* maximum pairs */
    uint32_t count;         /* pairs stored */
    uint32_t mask;          /* slots - 1 */
    ibcc_pair_slot_ *slot;
} ibcc_pairstate;

/* Fills zero fields; errors NULL, CAPACITY (capacity > 2^24). */
IBCC_API ibcc_result ibcc_pairstate_defaults(ibcc_pairstate_desc *d);
/* *bytes = the memory ibcc_pairstate_init needs. Errors: as defaults
   (then *bytes = 0), NULL, CAPACITY. */
IBCC_API ibcc_result ibcc_pairstate_size(const ibcc_pairstate_desc *d,
                                         size_t *bytes);
/* Empty store on caller memory. Errors: desc errors, NULL, ALIGN, NOMEM. */
IBCC_API ibcc_result ibcc_pairstate_init(ibcc_pairstate *ps,
                                         const ibcc_pairstate_desc *d,
                                         void *mem, size_t len);
/* Stores (or overwrites) the pair's law state, typically when its flow
   ends. Errors: NULL, FULL (a new pair and `capacity` pairs stored),
   STATE (a zeroed store that was never initialised; load too). */
IBCC_API ibcc_result ibcc_pairstate_save(ibcc_pairstate *ps, uint32_t src,
                                         uint32_t dst, const ibcc_law *l);
/* Loads the pair's saved state into l, typically when a flow starts.
   Returns OK if restored; NOT_FOUND if the pair was never saved, in which
   case l is reset to Rmax (the new-flow rule). Errors: NULL, and those of
   ibcc_law_set_state (l left at Rmax). */
IBCC_API ibcc_result ibcc_pairstate_load(const ibcc_pairstate *ps,
                                         uint32_t src, uint32_t dst,
                                         ibcc_law *l);
/* Back to the state right after init: removes every pair. */
IBCC_API void ibcc_pairstate_reset(ibcc_pairstate *ps);

/* ==== L1 cct ============================================================
   IBA channel-adapter congestion-control agent: the Congestion Control
   Table (CCT), one CCT index (CCTI) per flow (QP) or per SL, BECN
   reaction, one CCTI_Timer per SL, the Trigger_Threshold event log, and
   table populations. [G §II-B], IBA 1.2.1 Annex A10, docs/mechanisms.md

   Behaviour
   - CCT entry (16 bits, IBA encoding): CCT_Shift = bits 15..14,
     CCT_Multiplier = bits 13..0. Its inter-packet delay (IRD) is
         delay = (max_pkt_time >> shift) * multiplier            (ps)
     where max_pkt_time is the wire time of a maximum-size packet at the
     port rate (as real CA code applies it). Entry 0 means no delay.
   - Control level (Port_Control bit 0): 0 = one CCTI per flow (QP),
     1 = one CCTI per SL shared by all flows of that SL. Exclusive.
   - BECN on a flow of SL s (CC enabled on s by control_map):
         CCTI = min(CCTI + CCTI_Increase[s], CCTI_Limit)
     then the timer of SL s is started if it is not running; if
     Trigger_Threshold[s] != 0 and the new CCTI >= Trigger_Threshold[s] an
     event is logged.
   - SL timer (period CCTI_Timer[s] x 1.024 us = x 1024 ns exactly; 0 =
     timer off, the CCTI never decreases): at each expiry every flow of SL
     s with CCTI > CCTI_Min[s] has CCTI -= 1; the timer then re-arms if at
     least one flow of s is still above CCTI_Min[s], else it stops. A
     started timer always runs at least one period. Expiries are periodic
     from the start instant (start + k x period), as a re-armed hardware
     timer. An expiry at time t is applied before any event at time t.
     An expiry due at or beyond IBCC_TIME_MAX never fires.
   - Lazy timers: the agent never visits the flows of an SL at an expiry.
     Each SL keeps (count of expiries so far, next expiry time, running,
     stop count); each flow keeps its CCTI and the SL expiry count it was
     last brought up to. Touching a flow applies the expiries it missed:
         CCTI = CCTI > Min ? max(Min, CCTI - (count - seen)) : CCTI
     in O(1). The timer's running state is exact without visiting flows:
     a flow at CCTI c > Min after a BECN at expiry count E reaches Min at
     count E + (c - Min) and never later, so the SL keeps
         stop = max(start count + 1, max over BECNs of E + (c - Min))
     and the timer runs until its count reaches stop. (A flow left above
     a lowered CCTI_Min by a setter while the timer is stopped is
     "parked": its excess enters stop when a BECN restarts the timer.) Every per-event
     operation is O(1) however many flows share the SL, and the CCTI
     sequence equals an eager per-expiry simulation of the rule above
     (tests/test_cct.c checks it on long random streams).
   - Time: every call takes `now` (ps). Times must be non-decreasing
     across calls on one agent; a time earlier than the latest
     state-changing call (BECN, setter) is treated as that latest time
     (expiries already applied are never undone).
   - Trigger_Threshold log: a ring of log_capacity events in the agent's
     memory; when full the oldest event is overwritten and counted as
     lost. ibcc_cct_log_read() drains it oldest first (as reading the IBA
     CongestionLog clears it).
   - Control_Map bit s clear: CC is off on SL s: BECNs of its flows are
     ignored and their delay is 0.

   Choices where the sources leave one (documented in docs/cct.md)
   - BECN increase is capped at CCTI_Limit (docs/mechanisms.md); the hfi1
     driver instead skips an increase that would exceed the limit.
   - The trigger test uses the CCTI after the increase ("reaches").
   - CCTI_Timer 0 disables the timer.
   - Per-SL mode keeps an independent CCTI per SL (hfi1 programs one port
     rate from the highest CCTI of all SLs; ibcc does not merge them).
   - A flow may move to another SL only while its CCTI is at or below
     CCTI_Min of both SLs (e.g. a fresh flow at CCTI 0); otherwise
     IBCC_ERR_STATE. Settings changes (ibcc_cct_set_*) bring the affected
     flows up to date eagerly (O(flows), configuration path, not per
     event); a running timer keeps its pending expiry and uses the new
     period from then on.

   Defaults (ibcc_cct_desc, zero means default; the defaults are the [G]
   testbed values so that a zero desc gives a working agent. The setters
   ibcc_cct_set_* take literal IBA values, where 0 means 0.)
   | field            | default                       | range                 |
   | flows            | 1                             | 1 .. 2^31 - 1         |
   | entries          | 128, or table_len if larger   | 1 .. 16384            |
   | log_capacity     | 16                            | 1 .. 65535            |
   | max_pkt_bytes    | 2074 (2048 MTU + 26 B hdrs)   | 1 .. 2^32 - 1         |
   | port_rate        | IBCC_GBITS(16) (4x DDR data)  | > 0                   |
   | max_pkt_time     | wire time of max_pkt_bytes at port_rate | > 0 ps      |
   | per_sl           | 0 (per-QP CCTI)               | 0, 1                  |
   | disabled_sls     | 0 (CC on for all 16 SLs)      | 16-bit mask           |
   | ccti_limit       | table length - 1              | < table length        |
   | table, table_len | NULL: quadratic [G] i^2*7/106^2 us over `entries` | table_len <= entries |
   | sl[s].ccti_timer | 150 (x 1.024 us)              | 1 .. 65535            |
   | sl[s].ccti_increase | 1                          | 1 .. 255              |
   | sl[s].trigger_threshold | 0 (no log)             | 0 .. 255              |
   | sl[s].ccti_min   | 0                             | 0 .. ccti_limit       |
   | flow_sl          | NULL: every flow on SL 0      | entries 0 .. 15       |
   ====================================================================== */

#define IBCC_CCT_SLS 16                 /* service levels per port */
#define IBCC_CCT_MAX_ENTRIES 16384u     /* table capacity ibcc supports
                                           (256 blocks of 64; CCTI_Limit
                                           <= 16383) */
#define IBCC_CCT_MULT_MAX 16383u        /* 14-bit CCT_Multiplier */
#define IBCC_CCT_TIMER_UNIT_PS 1024000u /* CCTI_Timer unit: 1.024 us */
/* Builds / splits a CCT entry: entry = shift << 14 | multiplier. */
#define IBCC_CCT_ENTRY(shift, mult) \
    IBCC_CAST(uint16_t, ((IBCC_CAST(unsigned, shift) & 3u) << 14) \
                        | (IBCC_CAST(unsigned, mult) & 0x3fffu))
#define IBCC_CCT_SHIFT(e) ((IBCC_CAST(unsigned, e) >> 14) & 3u)
#define IBCC_CCT_MULT(e)  (IBCC_CAST(unsigned, e) & 0x3fffu)
/* [G] quadratic population i^2 * 7 / 106^2 us, vendor default i^2*7/95^2. */
#define IBCC_CCT_QUAD_COEF IBCC_US(7)
#define IBCC_CCT_QUAD_G_ROOT 106u
#define IBCC_CCT_QUAD_VENDOR_ROOT 95u

/* One per-SL entry of CACongestionSetting (literal IBA values). */
typedef struct ibcc_cct_sl {
    uint16_t ccti_timer;        /* period in 1.024 us units; 0 = off */
    uint8_t ccti_increase;      /* CCTI added per BECN */
    uint8_t trigger_threshold;  /* log when CCTI >= this; 0 = no log */
    uint8_t ccti_min;           /* floor of timer decrements */
} ibcc_cct_sl;

typedef struct ibcc_cct_desc {
    uint32_t flows;             /* flows (QPs), default 1 */
    uint32_t entries;           /* table capacity, default 128 (or
                                   table_len if larger) */
    uint32_t log_capacity;      /* trigger-event ring, default 16 */
    uint32_t max_pkt_bytes;     /* default 2074 */
    ibcc_rate port_rate;        /* default IBCC_GBITS(16) */
    ibcc_time max_pkt_time;     /* ps; 0 = wire time of the two above */
    unsigned per_sl;            /* Port_Control bit 0 (0 per QP, 1 per SL) */
    uint16_t disabled_sls;      /* bit s set: CC off on SL s (default 0) */
    uint16_t ccti_limit;        /* 0 = table length - 1 */
    const uint16_t *table;      /* initial CCT (copied); NULL = [G] quad. */
    uint32_t table_len;         /* entries in `table` (1 .. entries) */
    ibcc_cct_sl sl[IBCC_CCT_SLS]; /* zero fields = defaults above */
    const uint8_t *flow_sl;     /* SL of each flow (`flows` entries, each
                                   < 16; copied); NULL = every flow on SL 0 */
} ibcc_cct_desc;

/* One Trigger_Threshold event. */
typedef struct ibcc_cct_event {
    ibcc_time time;             /* time of the BECN */
    uint32_t flow;              /* flow that received it */
    uint16_t ccti;              /* CCTI after the increase */
    uint8_t sl;                 /* SL of the flow */
    uint8_t reserved;
} ibcc_cct_event;

/* Internal per-flow and per-SL state (do not touch). */
typedef struct ibcc_cct_flow_ {
    uint64_t seen;              /* SL expiry count this CCTI is as of */
    uint16_t ccti;
    uint8_t sl;
    uint8_t pad[5];
} ibcc_cct_flow_;

typedef struct ibcc_cct_slstate_ {
    ibcc_time next;             /* next expiry (valid while running) */
    ibcc_time period;           /* ccti_timer x 1024 ns, 0 = off */
    uint64_t count;             /* expiries fired so far (cumulative) */
    uint64_t stop;              /* the timer stops when count reaches it */
    ibcc_cct_flow_ agg;         /* the SL's CCTI in per-SL mode */
    ibcc_cct_sl p;              /* settings */
    uint8_t running;
    uint16_t parked;            /* largest CCTI - Min of a flow above Min
                                   while the timer is stopped (only after
                                   settings changes) */
} ibcc_cct_slstate_;

typedef struct ibcc_cct {
    uint32_t flows, entries, log_cap;
    uint32_t log_head, log_count; /* ring: oldest at log_head */
    unsigned per_sl;
    uint16_t control_map;       /* bit s: CC on for SL s */
    uint16_t ccti_limit;
    ibcc_time max_pkt_time;
    ibcc_time last;             /* latest time seen */
    uint64_t log_total;         /* events ever logged */
    uint64_t log_lost;          /* events overwritten in the ring */
    ibcc_cct_slstate_ sl[IBCC_CCT_SLS];
    ibcc_cct_flow_ *flow;       /* flows */
    uint16_t *table;            /* entries (beyond the loaded length: 0) */
    ibcc_cct_event *log;        /* log_cap */
} ibcc_cct;

/* ---- entries and populations (pure functions) ------------------------ */

/* Delay of one entry: (max_pkt_time >> shift) * multiplier, in ps,
   saturating at IBCC_TIME_MAX. */
IBCC_API ibcc_time ibcc_cct_entry_delay(uint16_t entry, ibcc_time max_pkt_time);

/* Entry whose delay is nearest to `delay` (ps). For each shift 0..3 with
   unit u = max_pkt_time >> shift (u > 0) the multiplier is
   m = floor(delay / u + 1/2), capped at 16383; the (shift, m) with the
   smallest |m*u - delay| wins, ties to the smaller shift. delay 0 gives
   entry 0. Errors: NULL (out), RANGE (max_pkt_time 0, or delay more than
   half a unit above 16383 * max_pkt_time, the largest delay). */
IBCC_API ibcc_result ibcc_cct_entry_from_delay(ibcc_time delay,
                                               ibcc_time max_pkt_time,
                                               uint16_t *out);

/* out[i] = entry nearest to delays[i] (as ibcc_cct_entry_from_delay),
   i < n. Errors: NULL, CAPACITY (n 0 or > 16384), RANGE. */
IBCC_API ibcc_result ibcc_cct_fill_delays(uint16_t *out, const ibcc_time *delays,
                                          uint32_t n, ibcc_time max_pkt_time);

#ifndef IBCC_NO_FLOAT
/* The same from delays in microseconds, as [G] publishes its tables:
   out[i] = entry nearest to floor(us[i] * 10^6 + 1/2) ps. Errors: as
   ibcc_cct_fill_delays, plus RANGE (a value negative, not finite or
   beyond the largest entry). */
IBCC_API ibcc_result ibcc_cct_fill_us(uint16_t *out, const double *us,
                                      uint32_t n, ibcc_time max_pkt_time);
#endif /* IBCC_NO_FLOAT */

/* Quadratic population: out[i] = entry nearest to
       d_i = i^2 * coef / root^2   ps (rounded half up to whole ps)
   [G]: coef IBCC_CCT_QUAD_COEF (7 us), root 106; vendor default root 95.
   Errors: NULL, CAPACITY (n), RANGE (coef or root 0, or an entry beyond
   the largest delay). */
IBCC_API ibcc_result ibcc_cct_fill_quadratic(uint16_t *out, uint32_t n,
                                             ibcc_time max_pkt_time,
                                             ibcc_time coef, uint32_t root);

/* Linear (LIPD-equivalent) population: out[i] = IBCC_CCT_ENTRY(0, i), an
   IPD of i maximum-size packet times, i.e. rate Rmax / (1 + i) for
   maximum-size packets. Errors: NULL, CAPACITY (n 0 or > 16384). */
IBCC_API ibcc_result ibcc_cct_fill_linear(uint16_t *out, uint32_t n);

/* Decrease function of a rate law on rates given as fractions of Rmax
   (1 = Rmax): returns fdec(rate). */
typedef double (*ibcc_cct_fdec_fn)(void *user, double rate_fraction);

#ifndef IBCC_NO_FLOAT

/* Population from a law's decrease function: r_0 = 1, r_i = fdec(r_{i-1});
   entry i is the entry nearest to the IPD of rate r_i in maximum-size
   packet times:
       d_i = (1 / r_i - 1) * max_pkt_time   (ps, rounded to nearest)
   so that CCTI = i reproduces the rate after i marks from Rmax (for
   maximum-size packets). Errors: NULL, CAPACITY (n), RANGE (fdec returned
   a value outside (0, 1] or not finite, or a delay beyond the largest
   entry). */
IBCC_API ibcc_result ibcc_cct_fill_fdec(uint16_t *out, uint32_t n,
                                        ibcc_time max_pkt_time,
                                        ibcc_cct_fdec_fn fdec, void *user);

/* Population from a rate law of the law section (ibcc_law, any kind and
   form): as ibcc_cct_fill_fdec with the law's continuous decrease
   function ibcc_law_fdec (clamped to [rmin, 1]). With rmin = 1/256, LIPD
   gives the linear table up to IPD 255 and FIMD/AIMD (m = 2) the entries
   2^i - 1 up to 255. Errors as ibcc_cct_fill_fdec. */
IBCC_API ibcc_result ibcc_cct_fill_law(uint16_t *out, uint32_t n,
                                       ibcc_time max_pkt_time,
                                       const ibcc_law *law);
#endif /* IBCC_NO_FLOAT: a firmware build gets a law's CCT from the host
          (e.g. ibcc_cct_fill_law there, loaded with ibcc_cct_set_table) */

/* ---- the agent ------------------------------------------------------- */

/* Fills zero fields of *d with the defaults; checks every range. It is
   the one validation of a description: ibcc_cct_size and ibcc_cct_init
   accept exactly the descriptions it accepts.
   Errors: NULL (also table_len != 0 with table NULL), CAPACITY (flows,
   entries, log_capacity, table_len), RANGE (also: no table given and the
   default quadratic table does not fit max_pkt_time, i.e. its last delay
   is more than half a unit above 16383 * max_pkt_time; with 128 entries,
   max_pkt_time below 614 ps), OVERFLOW (max_pkt_time 0 and the wire time
   of max_pkt_bytes at port_rate >= 2^64 ps). */
IBCC_API ibcc_result ibcc_cct_defaults(ibcc_cct_desc *d);
/* *bytes = the memory ibcc_cct_init needs. Errors: as defaults (then
   *bytes = 0), NULL, CAPACITY. */
IBCC_API ibcc_result ibcc_cct_size(const ibcc_cct_desc *d, size_t *bytes);
/* Initialises the agent at time 0: every CCTI 0, flows on the SLs of
   desc.flow_sl (default 0), timers stopped, log empty. Errors: those of
   ibcc_cct_defaults, plus NULL (c, mem), ALIGN, NOMEM. */
IBCC_API ibcc_result ibcc_cct_init(ibcc_cct *c, const ibcc_cct_desc *d,
                                   void *mem, size_t len);
/* Back to the state right after init (settings, table and the flows'
   SLs kept). */
IBCC_API void ibcc_cct_reset(ibcc_cct *c);

/* BECN received for `flow` at `now`. Returns the new CCTI (0 and no
   effect when flow >= flows or CC is off on the flow's SL). O(1). */
IBCC_API unsigned ibcc_cct_on_becn(ibcc_cct *c, uint32_t flow, ibcc_time now);
/* CCTI of `flow` at `now` (timer expiries up to `now` applied; 0 if
   flow >= flows). O(1). */
IBCC_API unsigned ibcc_cct_ccti(const ibcc_cct *c, uint32_t flow, ibcc_time now);
/* Inter-packet delay (IRD) of `flow` at `now`: the delay of CCT[CCTI]
   (0 if flow >= flows or CC off on its SL). O(1), integer only. */
IBCC_API ibcc_time ibcc_cct_delay(const ibcc_cct *c, uint32_t flow, ibcc_time now);
/* Start-to-start interval after a packet of wire time pkt_time that
   starts at `now`: pkt_time + ibcc_cct_delay(c, flow, now). Saturates.
   (ibcc_cct_delay is the wait after the packet, like ibcc_law_gap.) */
IBCC_API ibcc_time ibcc_cct_interval(const ibcc_cct *c, uint32_t flow,
                                     ibcc_time now, ibcc_time pkt_time);

/* Applies the timer expiries due at `now` to the state of all 16 SL
   timers (no flow is visited; O(16)) and makes `now` the latest time.
   Optional: every call above works without it. The timer state is
   otherwise brought forward by BECNs and setters only, and a query made
   one or more periods after that does one 64-bit division per query; a
   firmware loop that calls ibcc_cct_advance at least once per CCTI_Timer
   period keeps every BECN, CCTI and delay lookup division-free. */
IBCC_API void ibcc_cct_advance(ibcc_cct *c, ibcc_time now);

/* SL of a flow (0 if flow >= flows). */
IBCC_API unsigned ibcc_cct_flow_sl(const ibcc_cct *c, uint32_t flow);
/* Moves `flow` to SL `sl` at `now`. Errors: NULL, RANGE (flow, sl),
   STATE (CCTI above CCTI_Min of the old or the new SL). A rejected move
   changes nothing: not the flow, the SL timers nor the latest time. */
IBCC_API ibcc_result ibcc_cct_set_flow_sl(ibcc_cct *c, uint32_t flow,
                                          unsigned sl, ibcc_time now);

/* Timer of SL `sl` at `now`: running (1/0) and expiries fired so far
   (cumulative since init). 0 for sl >= 16. */
IBCC_API int ibcc_cct_timer_running(const ibcc_cct *c, unsigned sl, ibcc_time now);
IBCC_API uint64_t ibcc_cct_timer_expiries(const ibcc_cct *c, unsigned sl,
                                          ibcc_time now);

/* ---- settings (literal IBA values; configuration path, O(flows)) ----- */

/* Sets the per-SL entry of SL `sl` at `now`. Flows of the SL are brought
   up to date first; a CCTI above the new CCTI_Min with the timer stopped
   stays until the next BECN of the SL starts the timer. Errors: NULL,
   RANGE (sl >= 16, ccti_min > CCTI_Limit). */
IBCC_API ibcc_result ibcc_cct_set_sl(ibcc_cct *c, unsigned sl,
                                     const ibcc_cct_sl *p, ibcc_time now);
/* Port_Control (bit 0: per SL) and Control_Map (bit s: CC on for SL s) at
   `now`. Changing the control level resets every CCTI to 0 and stops the
   timers; disabling an SL resets its CCTIs to 0 and stops its timer.
   Errors: NULL, RANGE (port_control bits other than bit 0). */
IBCC_API ibcc_result ibcc_cct_set_port(ibcc_cct *c, uint16_t port_control,
                                       uint16_t control_map, ibcc_time now);
/* Loads a CCT: entries[0 .. n-1] (the rest of the capacity becomes 0) and
   CCTI_Limit `limit` (highest valid index). A CCTI above the new limit is
   lowered to it. n 0 means an empty table (limit must be 0).
   Errors: NULL (c, or entries with n > 0), CAPACITY (n > capacity),
   RANGE (limit >= max(n, 1), or limit < some SL's CCTI_Min), STATE (c
   zeroed and never initialised: no table memory). */
IBCC_API ibcc_result ibcc_cct_set_table(ibcc_cct *c, const uint16_t *entries,
                                        uint32_t n, uint16_t limit, ibcc_time now);
/* Current settings. */
IBCC_API const ibcc_cct_sl *ibcc_cct_get_sl(const ibcc_cct *c, unsigned sl);
IBCC_API uint16_t ibcc_cct_limit(const ibcc_cct *c);
IBCC_API const uint16_t *ibcc_cct_table(const ibcc_cct *c); /* capacity entries */

/* ---- Trigger_Threshold log ------------------------------------------- */

/* Copies up to `max` logged events, oldest first, into out and removes
   them from the ring. Returns the number copied. */
IBCC_API uint32_t ibcc_cct_log_read(ibcc_cct *c, ibcc_cct_event *out, uint32_t max);
/* Events currently in the ring, ever logged, and overwritten (lost). */
IBCC_API uint32_t ibcc_cct_log_count(const ibcc_cct *c);
IBCC_API uint64_t ibcc_cct_log_total(const ibcc_cct *c);
IBCC_API uint64_t ibcc_cct_log_lost(const ibcc_cct *c);

/* ==== L1 cacc ===========================================================
   IBA channel-adapter congestion settings exactly as a subnet manager
   programs them (docs/mechanisms.md, IBA 1.2.1 Annex A10): the
   CACongestionSetting and CongestionControlTable attributes as MAD bytes,
   the rdma-core ibccconfig argument forms, the OpenSM option lines
   cc_ca_cong_setting_* and cc_cct, in and out, and applying them to an
   ibcc_cct agent.

   MAD layouts (bytes of the attribute data, i.e. starting at offset 64
   of the 256-byte CC MAD, after the 24-byte common header, the 8-byte
   CC_Key and 32 reserved bytes; all fields big-endian). Field order and
   widths from docs/mechanisms.md; the positions of the reserved fields
   were checked against the packed structures of the OpenSM development
   headers (ib_ca_cong_setting_t / ib_ca_cong_entry_t / ib_cc_tbl_t in
   iba/ib_types.h) and agree with libibmad's field table:
     CACongestionSetting (132 bytes)
       0  Port_Control 16   (bit 0: 0 per-QP, 1 per-SL; bits 15..1 reserved)
       2  Control_Map  16   (bit s: SL s)
       4 + 8 s, s = 0..15, one CACongestionEntry of 8 bytes:
         +0 CCTI_Timer 16   (1.024 us units)
         +2 CCTI_Increase 8
         +3 Trigger_Threshold 8
         +4 CCTI_Min 8
         +5 reserved 24
     CongestionControlTable (132 bytes; attribute modifier = block index)
       0  CCTI_Limit 16
       2  reserved 16
       4 + 2 i, i = 0..63: CCT entry (block * 64 + i): shift 2 | mult 14
   Encode writes reserved fields as 0; decode ignores them (IBA receiver
   rule) and never reads beyond 132 bytes.

   Text forms
   - ibccconfig (rdma-core):
       CACongestionSetting <port_control> <control_map> <ccti_timer>
                           <ccti_increase> <trigger_threshold> <ccti_min>
     sets the four values on every SL whose Control_Map bit is set (the
     other entries are 0);
       CongestionControlTable <cctilimit> <index> <shift:mult>...
     with index the block index (attribute modifier), at most 64 entries
     (the rest of the block is 0).
   - OpenSM (opensm.conf), one option per line, everything 0 / off by
     default:
       cc_ca_cong_setting_port_control <v>
       cc_ca_cong_setting_control_map <v>
       cc_ca_cong_setting_ccti_timer <SL> <v>        (one line per SL)
       cc_ca_cong_setting_ccti_increase <SL> <v>
       cc_ca_cong_setting_trigger_threshold <SL> <v>
       cc_ca_cong_setting_ccti_min <SL> <v>
       cc_cct <shift:mult>,<shift:mult>,...          (at most 128 entries;
                                                      "(null)" or nothing:
                                                      none, CCTI_Limit 0)
     With n entries OpenSM programs CCTI_Limit n - 1.
   - The text rules are those of the swcc forms: numbers decimal or
     0x-hexadecimal, blanks between tokens, the command word optional; a
     text malformed anywhere (including trailing text) is IBCC_ERR_PARSE,
     a well-formed one with a value beyond its field IBCC_ERR_RANGE, and
     the output is written only on success. Printing uses 0x hex for
     Control_Map (and, in the OpenSM form, Port_Control), decimal
     elsewhere; a text buffer too small for the output gives
     IBCC_ERR_NOMEM and an empty string (when len > 0).

   Defaults: none (plain data; every zero field is the IBA value 0).
   ====================================================================== */

#define IBCC_CACC_SETTING_BYTES 132u
#define IBCC_CACC_TABLE_BYTES   132u
#define IBCC_CACC_BLOCK_ENTRIES 64u
#define IBCC_CACC_MAX_BLOCKS    256u /* IBCC_CCT_MAX_ENTRIES / 64 */
#define IBCC_CACC_OPENSM_CCT_MAX 128u

/* CACongestionSetting. */
typedef struct ibcc_cacc_setting {
    uint16_t port_control;      /* bit 0: per-SL control */
    uint16_t control_map;       /* bit s: SL s */
    ibcc_cct_sl sl[IBCC_CCT_SLS];
} ibcc_cacc_setting;

/* One CongestionControlTable attribute (a block of 64 entries). */
typedef struct ibcc_cacc_block {
    uint16_t ccti_limit;        /* highest valid index of the whole CCT */
    uint16_t block;             /* attribute modifier (block index) */
    uint16_t entry[IBCC_CACC_BLOCK_ENTRIES]; /* entries block*64 + i */
} ibcc_cacc_block;

/* What OpenSM's options describe: one setting and up to 128 entries. */
typedef struct ibcc_cacc_config {
    ibcc_cacc_setting setting;
    uint32_t cct_len;           /* 0 .. 128 */
    uint16_t cct[IBCC_CACC_OPENSM_CCT_MAX];
} ibcc_cacc_config;

/* ---- MAD bytes --------------------------------------------------------- */

/* Writes the 132 attribute bytes. Errors: NULL, NOMEM (len < 132),
   RANGE (reserved Port_Control bits set). */
IBCC_API ibcc_result ibcc_cacc_setting_encode(const ibcc_cacc_setting *s,
                                              uint8_t *buf, size_t len);
/* Reads them (reserved fields ignored). Errors: NULL, NOMEM (len < 132). */
IBCC_API ibcc_result ibcc_cacc_setting_decode(ibcc_cacc_setting *s,
                                              const uint8_t *buf, size_t len);
/* Writes one CongestionControlTable attribute (132 bytes; b->block goes in
   the attribute modifier, not in the bytes). Errors: NULL, NOMEM, RANGE
   (ccti_limit > 16383 or block > 255). */
IBCC_API ibcc_result ibcc_cacc_block_encode(const ibcc_cacc_block *b,
                                            uint8_t *buf, size_t len);
/* Reads one, with its attribute modifier `block`. Errors: NULL, NOMEM,
   RANGE (block > 255, CCTI_Limit > 16383). */
IBCC_API ibcc_result ibcc_cacc_block_decode(ibcc_cacc_block *b, uint16_t block,
                                            const uint8_t *buf, size_t len);
/* Number of blocks that carry a table with CCTI_Limit `limit`:
   limit / 64 + 1. */
IBCC_API uint32_t ibcc_cacc_blocks(uint16_t limit);
/* Block `block` of a table entries[0 .. n-1] with CCTI_Limit `limit`
   (entries beyond n are 0). Errors: NULL (b; entries with n > 0), RANGE
   (limit >= max(n, 1), block > limit / 64), CAPACITY (n > 16384). */
IBCC_API ibcc_result ibcc_cacc_block_from_table(ibcc_cacc_block *b,
                                                const uint16_t *entries,
                                                uint32_t n, uint16_t limit,
                                                uint16_t block);
/* Stores a block's entries into entries[block*64 ..] (capacity cap); the
   caller takes CCTI_Limit from b->ccti_limit. Entries that fall beyond
   cap are an error only if the block carries valid entries there
   (index <= ccti_limit). Errors: NULL, CAPACITY. */
IBCC_API ibcc_result ibcc_cacc_block_to_table(const ibcc_cacc_block *b,
                                              uint16_t *entries, uint32_t cap);

#ifndef IBCC_NO_STDIO /* text forms: not in the firmware profile */
/* ---- ibccconfig forms ------------------------------------------------- */

/* Parses "[CACongestionSetting] <pc> <map> <timer> <inc> <thr> <min>".
   Errors: NULL, PARSE, RANGE. */
IBCC_API ibcc_result ibcc_cacc_setting_parse_args(ibcc_cacc_setting *s,
                                                  const char *text);
/* Prints that form (with the command word, no newline). Errors: NULL,
   NOMEM, RANGE (reserved Port_Control bits), UNSUPPORTED (the SL entries
   in Control_Map differ, or an SL outside it is not all 0: the form
   cannot express the setting). */
IBCC_API ibcc_result ibcc_cacc_setting_print_args(const ibcc_cacc_setting *s,
                                                  char *buf, size_t len);
/* Parses "[CongestionControlTable] <limit> <index> <shift:mult>...".
   Errors: NULL, PARSE, RANGE (values; more than 64 entries; index > 255;
   limit > 16383). */
IBCC_API ibcc_result ibcc_cacc_block_parse_args(ibcc_cacc_block *b,
                                                const char *text);
/* Prints that form with the block's valid entries (those with index <=
   ccti_limit; none when the block lies beyond it). Errors: NULL, NOMEM,
   RANGE (block > 255, limit > 16383: what the parser refuses). */
IBCC_API ibcc_result ibcc_cacc_block_print_args(const ibcc_cacc_block *b,
                                                char *buf, size_t len);

/* ---- OpenSM options --------------------------------------------------- */

/* Applies one opensm.conf line to *c. Blank lines and '#' comments: OK,
   nothing changed. Another option's line: IBCC_ERR_NOT_FOUND, nothing
   changed (so the same text can be offered to other parsers). Errors:
   NULL, PARSE, RANGE (SL > 15, values beyond the field, more than 128
   CCT entries). */
IBCC_API ibcc_result ibcc_cacc_parse_opensm_line(ibcc_cacc_config *c,
                                                 const char *line);
/* Applies every line of a text (lines of other options are skipped).
   Stops at the first error; *bad_line (optional): 0 on success, else the
   1-based number of the failing line (*c keeps the lines before it). */
IBCC_API ibcc_result ibcc_cacc_parse_opensm(ibcc_cacc_config *c,
                                            const char *text,
                                            unsigned *bad_line);
/* Prints every cc_ca_* option (the per-SL ones once per SL) and cc_cct,
   one per line, in the order listed above. Errors: NULL, NOMEM, RANGE
   (cct_len > 128, reserved Port_Control bits). */
IBCC_API ibcc_result ibcc_cacc_print_opensm(const ibcc_cacc_config *c,
                                            char *buf, size_t len);
#endif /* IBCC_NO_STDIO */

/* ---- agent ------------------------------------------------------------ */

/* Reads an agent's current setting. Errors: NULL. */
IBCC_API ibcc_result ibcc_cacc_from_cct(ibcc_cacc_setting *s, const ibcc_cct *c);
/* Programs a setting into an agent at `now` (ibcc_cct_set_port, then
   ibcc_cct_set_sl for the 16 SLs). Checked first, applied only if valid.
   Errors: NULL, RANGE (reserved Port_Control bits, CCTI_Min above the
   agent's CCTI_Limit). */
IBCC_API ibcc_result ibcc_cacc_apply(ibcc_cct *c, const ibcc_cacc_setting *s,
                                     ibcc_time now);
/* Programs an OpenSM configuration: the CCT (cct_len entries, CCTI_Limit
   cct_len - 1, or an empty table with CCTI_Limit 0) and the setting.
   Checked first, applied only if valid. Errors: NULL, CAPACITY (more
   entries than the agent's table), RANGE (as ibcc_cacc_apply against
   the new limit; cct_len > 128), STATE (an agent never initialised). */
IBCC_API ibcc_result ibcc_cacc_apply_config(ibcc_cct *c, const ibcc_cacc_config *cfg,
                                            ibcc_time now);

/* ==== L1 mvcm ===========================================================
   MVCM corrective actions at the source [F §4.2-4.3], docs/mechanisms.md:
   a dynamic window DW and waiting slots nWS per flow, driven by the
   (MB, VB) class echoed in each ACK, plus the window-size helper omega.

   Behaviour, per flow (DW in [1, DWmax], nWS >= 0, mults = times nWS was
   multiplied since it was last set to 1):
   - ACK (1,0) warm, moderate congestion:  DW = max(1, DW - 1). Nothing
     else.
   - ACK (1,1) hot, imminent congestion: if DW > 1: DW -= 1. Otherwise
     (DW == 1): if nWS == 0: nWS = 1, mults = 0; else if mults < n:
     nWS *= k, mults += 1; else nWS stays.
   - ACK (0,0) cold, recovery [F §4.2]: when a waiting interval is in
     force (nWS > 0) the cold ACK removes it (nWS = 0) and leaves DW;
     otherwise (the flow was throttled by its window only, [F §4.2.1])
     it does DW = min(DW + 1, DWmax). So from waiting slots full rate
     returns after at most DWmax cold ACKs, and from a window-only
     throttle after DWmax - DW. (0,1) cannot happen [F]; VB without MB
     is treated as cold.
   - Waiting interval between consecutive injections of the flow:
     nWS x WS, WS = RTTmin (saturating at IBCC_TIME_MAX).
   - Immediate reset when the host injects into an empty injection queue
     of the flow (ibcc_mvcm_on_inject_empty): DW = DWmax, nWS = 0.
   - Counters (a->stats, ibcc_mvcm_stats): ACKs by class, warm ACKs that
     lowered DW, hot ACKs the cap held, resets that changed the state,
     the largest nWS; kept by on_ack / on_inject_empty, not by step.
   - Variants named by docs/scenarios.md (C): IBCC_MVCM_NO_WARM (warm ACKs have
     no effect) and IBCC_MVCM_NO_CAP (nWS keeps multiplying by k; it
     saturates at 2^32 - 1 instead of wrapping); IBCC_MVCM_MB_ONLY, the
     pure input-marking variant of [F] Fig 13: validation is ignored and
     every ACK with MB takes the hot (imminent) actions.

   Window helper: omega = (2 h t_hop B + L_data + L_ack) / L_data, with
   t_hop B given as hop_bytes (bytes one link carries during one hop's
   routing + switching + link delay). Note omega = RTTmin * B / L_data.
   For payloads between min and max L_data, with K = 2 h t_hop B + L_ack:
       (K + max L_data) / max L_data <= omega <= (K + min L_data) / min L_data.
   DWmax = ceil(omega) (the nearest integer at or above; [F] used 2).

   Defaults (ibcc_mvcm_desc, zero means default):
   | field  | default              | range                      |
   | flows  | 1                    | 1 .. 2^31 - 1              |
   | dw_max | 2 ([F] base network) | 1 .. 65535                 |
   | k      | 4 (switch radix)     | 2 .. 65535                 |
   | n      | 3 (stages)           | 1 .. 64                    |
   | ws     | none: required (RTTmin, ps; see ibcc_mvcm_rtt_min) | > 0 |
   | flags  | 0                    | IBCC_MVCM_NO_WARM | _NO_CAP | _MB_ONLY |
   ====================================================================== */

#define IBCC_MVCM_NO_WARM 0x1u  /* warm (1,0) ACKs are ignored */
#define IBCC_MVCM_NO_CAP  0x2u  /* nWS multiplies without the n cap */
#define IBCC_MVCM_MB_ONLY 0x4u  /* MB alone is hot: no validation ([F]
                                   Fig 13, pure input marking) */

typedef struct ibcc_mvcm_desc {
    uint32_t flows;             /* default 1 */
    uint32_t dw_max;            /* default 2 */
    uint32_t k;                 /* nWS multiplier (radix), default 4 */
    uint32_t n;                 /* max multiplications (stages), default 3 */
    ibcc_time ws;               /* waiting slot = RTTmin in ps, required */
    unsigned flags;             /* IBCC_MVCM_* */
} ibcc_mvcm_desc;

/* Per-flow state (read it freely; change it only through the API). */
typedef struct ibcc_mvcm_flow {
    uint32_t dw;                /* dynamic window, 1 .. dw_max */
    uint32_t nws;               /* waiting slots */
    uint16_t mults;             /* multiplications since nWS was set to 1 */
    uint16_t ws_seen;           /* 1 once the flow has had waiting slots */
} ibcc_mvcm_flow;

/* What the corrective actions did, counted by ibcc_mvcm_on_ack and
   ibcc_mvcm_on_inject_empty (not by ibcc_mvcm_step): the evidence for
   whether a variant (IBCC_MVCM_NO_WARM / _NO_CAP / _MB_ONLY) can change
   a run. */
typedef struct ibcc_mvcm_stats {
    uint64_t acks[3];           /* ACKs received, by IBCC_MVCM_* class of
                                   their bits (before IBCC_MVCM_MB_ONLY) */
    uint64_t warm_shrunk;       /* warm ACKs that lowered DW */
    uint64_t ws_capped;         /* hot ACKs at DW 1 that left nWS as it
                                   was because it had been multiplied n
                                   times (the cap held) */
    uint64_t resets;            /* immediate resets that changed DW or nWS */
    uint32_t nws_max;           /* the largest nWS any flow reached */
    uint32_t ws_flows;          /* flows that inserted waiting slots at
                                   least once (the window alone did not
                                   hold them) */
} ibcc_mvcm_stats;

typedef struct ibcc_mvcm {
    uint32_t flows, dw_max, k, n;
    ibcc_time ws;
    unsigned flags;
    ibcc_mvcm_flow *flow;       /* flows */
    ibcc_mvcm_stats stats;      /* zeroed by ibcc_mvcm_init */
} ibcc_mvcm;

/* ACK classes returned by ibcc_mvcm_class(). */
#define IBCC_MVCM_COLD 0
#define IBCC_MVCM_WARM 1
#define IBCC_MVCM_HOT  2

/* Class of an ACK from its header bits (IBCC_MB, IBCC_VB): hot if MB and
   VB, warm if MB only, cold otherwise. Inline (hot path). */
IBCC_INLINE int ibcc_mvcm_class(unsigned bits)
{
    if (!(bits & IBCC_MB)) return IBCC_MVCM_COLD;
    return (bits & IBCC_VB) ? IBCC_MVCM_HOT : IBCC_MVCM_WARM;
}

/* Fills zero fields with defaults and checks ranges. Errors: NULL,
   CAPACITY (flows), RANGE (dw_max, k, n, ws 0, unknown flags). */
IBCC_API ibcc_result ibcc_mvcm_defaults(ibcc_mvcm_desc *d);
/* *bytes = the memory ibcc_mvcm_init needs. Errors: as defaults (then
   *bytes = 0), NULL, CAPACITY. */
IBCC_API ibcc_result ibcc_mvcm_size(const ibcc_mvcm_desc *d, size_t *bytes);
/* Every flow starts at DW = DWmax, nWS = 0. Errors as defaults, plus
   ALIGN and NOMEM. */
IBCC_API ibcc_result ibcc_mvcm_init(ibcc_mvcm *a, const ibcc_mvcm_desc *d,
                                    void *mem, size_t len);

/* ACK of `flow` carrying header bits `bits` (IBCC_MB / IBCC_VB). Returns
   the class applied (IBCC_MVCM_*: with IBCC_MVCM_MB_ONLY a warm ACK is
   applied as hot; -1 and no effect if flow >= flows). */
IBCC_API int ibcc_mvcm_on_ack(ibcc_mvcm *a, uint32_t flow, unsigned bits);
/* The host put a packet into the flow's empty injection queue: reset to
   DW = DWmax, nWS = 0. No effect if flow >= flows. */
IBCC_API void ibcc_mvcm_on_inject_empty(ibcc_mvcm *a, uint32_t flow);
/* Current window (max outstanding packets) and waiting interval
   nWS x WS (ps) of the flow (0 for flow >= flows). */
IBCC_API uint32_t ibcc_mvcm_window(const ibcc_mvcm *a, uint32_t flow);
IBCC_API ibcc_time ibcc_mvcm_wait(const ibcc_mvcm *a, uint32_t flow);
/* Read-only state of a flow (NULL if flow >= flows). */
IBCC_API const ibcc_mvcm_flow *ibcc_mvcm_state(const ibcc_mvcm *a, uint32_t flow);

/* Single-flow step on caller-held state (same rules; for embedders that
   keep the flow state in their own structures). `a` supplies the
   parameters; its flow array is not used. */
IBCC_API int ibcc_mvcm_step(const ibcc_mvcm *a, ibcc_mvcm_flow *f, unsigned bits);
/* Puts a flow back to DW = DWmax and no waiting slots (ws_seen, its
   history, is left as it is; ibcc_mvcm_init clears it). */
IBCC_API void ibcc_mvcm_flow_reset(const ibcc_mvcm *a, ibcc_mvcm_flow *f);

/* ---- window-size helper ---------------------------------------------- */

#ifndef IBCC_NO_FLOAT
/* Bytes a link of `rate` carries during `t_hop` ps: t_hop * rate / 10^12. */
IBCC_API double ibcc_mvcm_hop_bytes(ibcc_time t_hop, ibcc_rate rate);
/* omega = (2 * hops * hop_bytes + l_data + l_ack) / l_data.
   Errors: NULL (out), RANGE (l_data <= 0, hop_bytes or l_ack < 0 or not
   finite, or omega itself not finite). */
IBCC_API ibcc_result ibcc_mvcm_omega(uint32_t hops, double hop_bytes,
                                     double l_data, double l_ack, double *out);
/* Bounds of omega over data sizes in [min_data, max_data]:
   *lo = (K + max_data) / max_data, *hi = (K + min_data) / min_data,
   K = 2 * hops * hop_bytes + l_ack. Errors: NULL, RANGE (min_data <= 0,
   max_data < min_data, negative or non-finite inputs or bounds). */
IBCC_API ibcc_result ibcc_mvcm_omega_bounds(uint32_t hops, double hop_bytes,
                                            double min_data, double max_data,
                                            double l_ack, double *lo, double *hi);
/* DWmax = ceil(omega) (an omega within 1e-9 above an integer counts as
   that integer, absorbing rounding of the inputs). Errors: NULL, RANGE
   (omega < 1 or not finite, or the result above 65535, i.e. omega above
   65535 + 1e-9). */
IBCC_API ibcc_result ibcc_mvcm_dw_max(double omega, uint32_t *out);
#endif /* IBCC_NO_FLOAT */
/* RTTmin = 2 * hops * t_hop + wire(l_data) + wire(l_ack) at `rate`, the
   time to send a packet and receive its ACK in an empty network (WS).
   Errors: NULL, RANGE (rate 0, l_data 0), OVERFLOW. */
IBCC_API ibcc_result ibcc_mvcm_rtt_min(uint32_t hops, ibcc_time t_hop,
                                       ibcc_rate rate, uint32_t l_data,
                                       uint32_t l_ack, ibcc_time *out);

/* ==== L1 dest ===========================================================
   Destination echo rules, docs/mechanisms.md: what a destination sends back
   for a received packet, as pure functions of the packet's header bits.

   Schemes (ibcc_dest_desc.scheme):
   - IBCC_DEST_ECN (Santos [S02][S03]): every data packet is acknowledged;
     the ACK carries IBCC_ECN iff the data packet carried IBCC_ECN.
   - IBCC_DEST_IBA ([G], IBA Annex A10): a data packet with FECN gives a
     BECN; it rides the ACK (reliable connection, becn_by_cnp = 0) or goes
     in an explicit CNP (becn_by_cnp = 1: the ACK, if any, carries no
     BECN). With transport IBCC_DEST_UNACKED (UD/UC: no ACKs) the BECN
     always goes in a CNP. FECN on multicast, ACK or CNP packets is
     ignored.
   - IBCC_DEST_MVPM ([F]): the ACK copies both IBCC_MB and IBCC_VB.
   Packets that are themselves ACKs or CNPs get no reply; multicast
   packets get no ACK (IBA multicast is unreliable) and no BECN.
   Reply flags always include IBCC_ACK (for an ACK) or IBCC_CNP (for a
   CNP); a returned 0 means "send nothing".

   Defaults (ibcc_dest_desc, zero means default):
   | field       | default                                   | range        |
   | scheme      | IBCC_DEST_ECN                             | ECN, IBA, MVPM |
   | transport   | IBCC_DEST_ACKED (every data packet ACKed) | ACKED, UNACKED (IBA only) |
   | becn_by_cnp | 0 (BECN rides the ACK)                    | 0, 1 (IBA only) |
   | ack_bytes   | 20 ([S02] Table I); 22 for MVPM ([F])     | 1 .. 65535   |
   | cnp_bytes   | ack_bytes                                 | 1 .. 65535   |
   | ack_every   | 0 (an ACK per data packet)                | 0 .. 65535 (IBA only above 1) |
   ====================================================================== */

typedef enum ibcc_dest_scheme {
    IBCC_DEST_ECN  = 0,         /* Santos: ECN echoed in the ACK's ECN bit */
    IBCC_DEST_IBA  = 1,         /* IBA: FECN -> BECN on ACK or CNP */
    IBCC_DEST_MVPM = 2          /* MVCM: MB and VB echoed */
} ibcc_dest_scheme;

typedef enum ibcc_dest_transport {
    IBCC_DEST_ACKED   = 0,      /* every data packet is acknowledged (RC) */
    IBCC_DEST_UNACKED = 1       /* no ACKs (UD/UC): CNPs only (IBA scheme) */
} ibcc_dest_transport;

typedef struct ibcc_dest_desc {
    ibcc_dest_scheme scheme;    /* IBCC_DEST_ECN / _IBA / _MVPM */
    ibcc_dest_transport transport; /* IBCC_DEST_ACKED / _UNACKED */
    unsigned becn_by_cnp;       /* IBA: 1 = BECN in an explicit CNP */
    uint32_t ack_bytes;         /* default 20 (22 for MVPM) */
    uint32_t cnp_bytes;         /* default ack_bytes */
    uint32_t ack_every;         /* IBA, fabric: coalesced ACKs. 0 or 1 =
                                   an ACK per data packet; N > 1 = one ACK
                                   per N data packets of a flow and at the
                                   last packet of each message, with BECN
                                   if any packet it covers had FECN */
} ibcc_dest_desc;

/* Validated rules (a copy of the effective desc). */
typedef struct ibcc_dest {
    ibcc_dest_scheme scheme;
    ibcc_dest_transport transport;
    unsigned becn_by_cnp;
    uint32_t ack_bytes, cnp_bytes;
    uint32_t ack_every;         /* 0 or 1: every packet; see the desc */
} ibcc_dest;

/* The reply to one received packet. */
typedef struct ibcc_dest_reply {
    unsigned ack;               /* flags of the ACK to send, 0 = no ACK */
    unsigned cnp;               /* flags of the CNP to send, 0 = no CNP */
} ibcc_dest_reply;

/* Fills zero fields with defaults and checks ranges. Errors: NULL, RANGE
   (unknown scheme / transport, becn_by_cnp > 1, sizes > 65535),
   UNSUPPORTED (UNACKED or becn_by_cnp with a scheme other than IBA). */
IBCC_API ibcc_result ibcc_dest_defaults(ibcc_dest_desc *d);
/* Validates `desc` (NULL = all defaults) into *d. Errors as defaults. */
IBCC_API ibcc_result ibcc_dest_init(ibcc_dest *d, const ibcc_dest_desc *desc);

/* Reply to a received packet with header bits `pkt` (IBCC_FECN/ECN, MB,
   VB, ACK, CNP, MCAST). Pure. */
IBCC_API ibcc_dest_reply ibcc_dest_on_packet(const ibcc_dest *d, unsigned pkt);
/* Convenience: flags of the ACK only (0 = none). */
IBCC_API unsigned ibcc_dest_ack(const ibcc_dest *d, unsigned pkt);
/* Source side: congestion bits a received reply carries for the source
   under this scheme: ECN: IBCC_ECN of an ACK; IBA: IBCC_BECN of an ACK or
   CNP; MVPM: IBCC_MB | IBCC_VB of an ACK. 0 = unmarked / not a reply. */
IBCC_API unsigned ibcc_dest_marks(const ibcc_dest *d, unsigned reply);
/* Wire size in bytes of a reply with these flags (ack_bytes for an ACK,
   cnp_bytes for a CNP, 0 otherwise). */
IBCC_API uint32_t ibcc_dest_reply_bytes(const ibcc_dest *d, unsigned reply);

/* ==== L1 segment ========================================================
   Dual-priority segmentation policy for wormhole / cut-through networks
   [K], docs/mechanisms.md: high-priority messages travel unsegmented (one
   worm); low-priority messages are cut into segments (worms) of at most
   L_l bytes, so that under round-robin output arbitration the larger
   high-priority worms win more bandwidth ("best-effort bandwidth
   reservation"). Pure functions and a small iterator; the caller owns
   messages, worms, queues and headers.

   Behaviour
   - Segment length: high priority: unlimited (the whole message);
     low priority: L_l = seg_bytes (fixed rule), or the adaptive rule
     L_l = B * h [K] with B = slack_bytes (input slack buffer per switch)
     and h the hops the segment travels (h = 0 is taken as 1): a blocked
     segment that long fills the slack buffers of its own path, so no
     further worm queues behind it there (higher-order blocking, [K]
     section 3.2; ibcc_segment_high_delay gives its D_H3).
   - A message of M bytes gives ceil(M / L_l) segments: full segments of
     L_l first, then the remainder (1 .. L_l bytes). M = 0 gives none.
     Sizes are payload bytes; the caller adds its per-worm header.
   - Host selection (non-preemptive priority [K]): while a worm is being
     sent nothing else starts; when the link is free a waiting
     high-priority worm goes first, else a low-priority one. The same rule
     serves an optional non-preemptive priority at switch outputs.

   Defaults (ibcc_segment_desc, zero means default):
   | field       | default                          | range          |
   | seg_bytes   | 100 ([K] 3.1, two-host case)     | 1 .. 2^32 - 1  |
   | slack_bytes | 80 (Myrinet slack buffer)        | 1 .. 2^32 - 1  |
   | adaptive    | 0 (fixed L_l = seg_bytes)        | 0, 1 (B * h)   |
   ====================================================================== */

#define IBCC_SEGMENT_WHOLE UINT64_MAX  /* "no cut": high-priority length */

/* Message priorities. */
#define IBCC_SEGMENT_LOW  0
#define IBCC_SEGMENT_HIGH 1
/* ibcc_segment_pick() results. */
#define IBCC_SEGMENT_PICK_NONE (-1)

typedef struct ibcc_segment_desc {
    uint32_t seg_bytes;         /* fixed L_l, default 100 */
    uint32_t slack_bytes;       /* B for the adaptive rule, default 80 */
    unsigned adaptive;          /* 1: L_l = B * h */
} ibcc_segment_desc;

typedef struct ibcc_segment {
    uint32_t seg_bytes, slack_bytes;
    unsigned adaptive;
} ibcc_segment;

/* Iterator over the segment sizes of one message. */
typedef struct ibcc_segment_iter {
    uint64_t left;              /* bytes not yet handed out */
    uint64_t len;               /* segment length limit */
} ibcc_segment_iter;

/* Fills zero fields and validates. Errors: NULL, RANGE (adaptive > 1). */
IBCC_API ibcc_result ibcc_segment_defaults(ibcc_segment_desc *d);
/* Validates `desc` (NULL = defaults) into *s. Errors as defaults. */
IBCC_API ibcc_result ibcc_segment_init(ibcc_segment *s, const ibcc_segment_desc *desc);

/* Adaptive rule alone: L_l = slack_bytes * hops (hops 0 taken as 1). */
IBCC_API uint64_t ibcc_segment_adaptive_len(uint32_t slack_bytes, uint32_t hops);
/* Segment length limit of a message of this priority travelling `hops`
   hops: IBCC_SEGMENT_WHOLE for high priority, else L_l. */
IBCC_API uint64_t ibcc_segment_len(const ibcc_segment *s, int priority, uint32_t hops);
/* Number of segments of a message of msg_bytes: ceil(msg_bytes / L);
   0 for an empty message; 1 for high priority. */
IBCC_API uint64_t ibcc_segment_count(const ibcc_segment *s, uint64_t msg_bytes,
                                     int priority, uint32_t hops);
/* Starts iterating over the segments of a message. */
IBCC_API void ibcc_segment_begin(ibcc_segment_iter *it, const ibcc_segment *s,
                                 uint64_t msg_bytes, int priority, uint32_t hops);
/* Size of the next segment, 0 when the message is exhausted. */
IBCC_API uint64_t ibcc_segment_next(ibcc_segment_iter *it);

/* Delay of a high-priority message under segmentation, with [K]'s own
   expression for the wait (section 3.2, the D_H3 of its Fig 9 and 10).
   A message of M bytes crosses `hops` switches (hops + 1 links) with
   cut-through, so unloaded it takes
       unloaded = M*tau + (hops + 1)*link + hops*route
   (tau = byte time, link = one link's propagation delay, route = a
   switch's routing delay). [K]'s D_H3 is the wait of a high-priority
   worm that reaches a switch's slack buffer (B bytes) behind buffered
   low-priority segments of L_l bytes, whose output the switch shares
   round robin with a stream of high-priority worms of mean length L_h:
   each segment ahead costs one segment and one high-priority worm, and
   B / L_l segments fit in the buffer (one when L_l > B):
       dh3 = (B / L_l) * (L_l + L_h) * tau    L_l <= B
       dh3 = (L_l + L_h) * tau                L_l >  B
   B / L_l is [K]'s plain ratio (not rounded to whole segments); the two
   branches meet at L_l = B (B + L_h bytes), the minimum. wait_max =
   points * dh3 charges that wait at each of `points` contention points. */
typedef struct ibcc_segment_delay {
    double unloaded;            /* ps */
    double dh3;                 /* ps, [K]'s D_H3 at one contention point */
    double wait_max;            /* ps, points * dh3 */
} ibcc_segment_delay;
/* Errors: NULL (out), RANGE (seg_bytes or slack_bytes 0). */
#ifndef IBCC_NO_FLOAT
IBCC_API ibcc_result ibcc_segment_high_delay(uint64_t msg_bytes,
        uint64_t seg_bytes, uint64_t slack_bytes, uint64_t high_bytes,
        uint32_t hops, uint32_t points, ibcc_time byte_time,
        ibcc_time link, ibcc_time route, ibcc_segment_delay *out);
#endif /* IBCC_NO_FLOAT */

/* Non-preemptive priority selection: returns IBCC_SEGMENT_PICK_NONE while
   `busy` (a worm is being sent) or when nothing waits, else
   IBCC_SEGMENT_HIGH if a high-priority worm waits, else IBCC_SEGMENT_LOW. */
IBCC_INLINE int ibcc_segment_pick(int busy, int high_waiting, int low_waiting)
{
    if (busy) return IBCC_SEGMENT_PICK_NONE;
    if (high_waiting) return IBCC_SEGMENT_HIGH;
    return low_waiting ? IBCC_SEGMENT_LOW : IBCC_SEGMENT_PICK_NONE;
}

/* ==== L1 ecn ============================================================
   Lossless-Ethernet switch signals, docs/ecn.md: RED-style ECN marking at
   an egress queue as DCQCN deployments configure it [DCQCN], and the per-hop
   in-band telemetry (INT) record HPCC reads [HPCC]. Pure
   functions of validated parameters; the caller owns the queue, the
   packet and the random stream.

   Marking (ibcc_ecn_mark): with q the egress queue in bytes at the moment
   the caller decides (instantaneous, not averaged),
       q <= Kmin          p = 0       (no mark, no draw)
       Kmin < q <= Kmax   p = Pmax * (q - Kmin) / (Kmax - Kmin)
       q > Kmax           p = 1       (always marked, no draw)
   Pmax is in parts per million (IBCC_ECN_PPM = 1.0), so 1% is 10000 and
   p is an exact fraction: the packet is marked iff
       ibcc_rng_below(rng, 10^6 * (Kmax - Kmin)) < Pmax * (q - Kmin)
   with one draw exactly when 0 < p < 1. The outcome is a function of
   (q, the stream's state) only: the same stream (e.g. one per egress
   queue, seeded by the caller) gives the same marks on every platform.
   Kmin = Kmax is a step at Kmin (p = 0 up to it, 1 above).

   INT (ibcc_int_stamp, ibcc_int_push): at egress each hop appends one
   record of (ts = the time the packet leaves, qlen = the egress queue in
   bytes, tx_bytes = the port's cumulative transmitted-bytes counter,
   rate = the link rate) [HPCC]. A record holds up to
   IBCC_INT_MAX_HOPS hops; a full record refuses further hops (counted in
   `dropped`). The destination echoes the record in the ACK (the caller
   copies it); ibcc_hpcc_on_ack reads it.

   Defaults (ibcc_ecn_desc, zero means default; DCQCN-style thresholds,
   configure your own):
   | field | default              | range                           |
   | kmin  | 5000 bytes           | 1 .. kmax                       |
   | kmax  | 200000 bytes         | kmin .. 2^40 bytes              |
   | pmax  | 10000 ppm (1%)       | 1 .. 10^6 ppm                   |
   ====================================================================== */

#define IBCC_ECN_PPM 1000000u         /* probability 1 in ppm */
#define IBCC_ECN_KMAX_MAX (UINT64_C(1) << 40)
#define IBCC_INT_MAX_HOPS 8u

typedef struct ibcc_ecn_desc {
    uint64_t kmin;              /* bytes, default 5000 */
    uint64_t kmax;              /* bytes, default 200000 */
    uint32_t pmax;              /* ppm at Kmax, default 10000 (1%) */
} ibcc_ecn_desc;

/* Validated marking parameters (a copy of the effective desc). */
typedef struct ibcc_ecn {
    uint64_t kmin, kmax;
    uint32_t pmax;
} ibcc_ecn;

/* Fills zero fields with defaults and checks ranges. Errors: NULL, RANGE
   (kmin > kmax, kmax > 2^40, pmax > 10^6). */
IBCC_API ibcc_result ibcc_ecn_defaults(ibcc_ecn_desc *d);
/* Validates `desc` (NULL = defaults) into *e. Errors as defaults. */
IBCC_API ibcc_result ibcc_ecn_init(ibcc_ecn *e, const ibcc_ecn_desc *desc);
/* Marking probability at queue q in ppm, rounded down (10^6 above Kmax).
   0 for e NULL. */
IBCC_API uint32_t ibcc_ecn_prob_ppm(const ibcc_ecn *e, uint64_t q);
/* IBCC_ECN if a packet leaving with the egress queue at q bytes is
   marked, else 0; draws from `rng` only when 0 < p < 1 (then rng must not
   be NULL: a NULL rng draws 0, i.e. marks). 0 for e NULL. */
IBCC_API unsigned ibcc_ecn_mark(const ibcc_ecn *e, uint64_t q, ibcc_rng *rng);

/* One hop's INT record, stamped at egress. */
typedef struct ibcc_int_hop {
    ibcc_time ts;               /* when the packet left the hop (ps) */
    uint64_t qlen;              /* egress queue then, bytes */
    uint64_t tx_bytes;          /* port's cumulative transmitted bytes */
    ibcc_rate rate;             /* link rate, bytes/s */
} ibcc_int_hop;

/* The INT stack a packet carries (and its ACK echoes). Zero it (or
   ibcc_int_clear) before the first hop. */
typedef struct ibcc_int_record {
    uint32_t nhop;              /* hops stamped, <= IBCC_INT_MAX_HOPS */
    uint32_t dropped;           /* hops refused because the record was full */
    ibcc_int_hop hop[IBCC_INT_MAX_HOPS];
} ibcc_int_record;

/* Fills one hop record. Inline (per packet). */
IBCC_INLINE void ibcc_int_stamp(ibcc_int_hop *h, ibcc_time now, uint64_t qlen,
                                uint64_t tx_bytes, ibcc_rate rate)
{
    if (!h) return;
    h->ts = now;
    h->qlen = qlen;
    h->tx_bytes = tx_bytes;
    h->rate = rate;
}
/* Empties a record. */
IBCC_API void ibcc_int_clear(ibcc_int_record *r);
/* Appends this hop's record; returns 1, or 0 (and counts it in dropped)
   when the record already holds IBCC_INT_MAX_HOPS hops; 0 for r NULL. */
IBCC_API int ibcc_int_push(ibcc_int_record *r, ibcc_time now, uint64_t qlen,
                           uint64_t tx_bytes, ibcc_rate rate);

/* ==== L1 dcqcn ==========================================================
   DCQCN [DCQCN] for RoCE: the reaction point (RP, the sender's rate
   limiter per flow) and the notification point (NP, the receiver's CNP
   generator per flow), docs/dcqcn.md. Integer state per flow plus one
   validated parameter set shared by all flows; every call takes `now`
   (ps, non-decreasing per flow). Names are the paper's: R_C current
   rate, R_T target rate, alpha, g, K, T, B, F, R_AI, R_HAI.

   Behaviour (alpha in units of IBCC_DCQCN_ONE = 2^16 = 1.0)
   - NP: a data packet carrying IBCC_ECN gets a CNP back iff no CNP was
     sent for its flow in the last N (the first marked packet of a flow
     always gets one); marked packets inside the window get none.
   - RP, CNP at time t (after every timer expiry due at or before t):
         R_T = R_C
         R_C = max(R_C - floor(R_C * alpha / 2^(16 + gd_shift)), rate_min)
         alpha = alpha - ceil(alpha * g / 2^16) + g
     (gd_shift 1: the paper's R_C (1 - alpha/2)); the counters T, BC and
     the byte count restart at 0, the rate-increase timer restarts (next
     expiry t + timer_t) and the alpha timer restarts (next t + K).
   - Alpha timer: at each expiry (K after the last CNP, then every K)
         alpha = alpha - ceil(alpha * g / 2^16)
     i.e. (1 - g) alpha rounded so that alpha reaches 0.
   - Rate increase events: each expiry of the rate timer (every timer_t)
     adds 1 to T; each B bytes sent add 1 to BC. After the increment, with
     F = the fast-recovery count:
         max(T, BC) <  F            fast recovery  R_C = (R_T + R_C) / 2
         min(T, BC) >= F            hyper increase R_T += R_HAI, then FR
         otherwise                  additive       R_T += R_AI,  then FR
     (R_T capped at line_rate; halves round down). With the byte counter
     off (b = IBCC_DCQCN_OFF) the stage is T's alone: T < F fast
     recovery, T = F additive, T > F hyper.
   - Before its first CNP a flow sends at line_rate, alpha = alpha_init,
     and no timer runs (nothing to recover).
   - Timer expiries are applied lazily when the flow is next touched
     (ibcc_dcqcn_rp_advance, _on_send, _on_cnp); an expiry at time t comes
     before any event at t. Once R_C = R_T = line_rate and alpha = 0, the
     remaining expiries change only the counters and are applied in O(1).

   Choices where the public descriptions differ (docs/dcqcn.md lists them
   with the NIC parameters each corresponds to): one cut per CNP (no
   rate-reduction period; the NP's N already spaces CNPs); alpha updated
   at the CNP and decayed by a timer restarted at each CNP; hyper
   increase adds R_HAI once per event.

   Defaults (ibcc_dcqcn_desc, zero means default):
   | field      | paper  | default                      | range            |
   | line_rate  |        | IBCC_GBITS(40)               | 1 .. 2^62 B/s    |
   | rate_min   |        | 12500000 B/s (100 Mb/s)      | 1 .. line_rate   |
   | g          | g      | 256 (1/256)                  | 1 .. 65536       |
   | alpha_init |        | 65536 (1.0)                  | 1 .. 65536       |
   | k          | K      | 55 us                        | > 0 ps           |
   | timer_t    | T      | 55 us                        | > 0 ps           |
   | b          | B      | 10^7 bytes (10 MB)           | >= 1, or IBCC_DCQCN_OFF |
   | f          | F      | 5                            | 1 .. 65535       |
   | r_ai       | R_AI   | 40 Mb/s (5*10^6 B/s)         | 1 .. line_rate   |
   | r_hai      | R_HAI  | 200 Mb/s (2.5*10^7 B/s)      | 1 .. line_rate   |
   | gd_shift   |        | 1 (cut by alpha/2)           | 1 .. 15          |
   | n          | N      | 50 us                        | > 0 ps           |
   ====================================================================== */

#define IBCC_DCQCN_ONE 65536u           /* alpha = 1.0 */
#define IBCC_DCQCN_OFF UINT64_MAX       /* b: byte counter off */

/* Increase stages (ibcc_dcqcn_rp.last_stage). */
typedef enum ibcc_dcqcn_stage {
    IBCC_DCQCN_NONE = 0,        /* no increase since the last cut */
    IBCC_DCQCN_FAST = 1,        /* fast recovery */
    IBCC_DCQCN_ADDITIVE = 2,    /* additive increase */
    IBCC_DCQCN_HYPER = 3        /* hyper increase */
} ibcc_dcqcn_stage;

typedef struct ibcc_dcqcn_desc {
    ibcc_rate line_rate;        /* link rate and R_T cap */
    ibcc_rate rate_min;         /* floor of a cut */
    uint32_t g;                 /* g x 2^16 */
    uint32_t alpha_init;        /* alpha before the first CNP, x 2^16 */
    ibcc_time k;                /* alpha timer K, ps */
    ibcc_time timer_t;          /* rate-increase timer T, ps */
    uint64_t b;                 /* byte counter B, bytes (IBCC_DCQCN_OFF: off) */
    uint32_t f;                 /* F, fast-recovery count */
    ibcc_rate r_ai;             /* R_AI, bytes/s */
    ibcc_rate r_hai;            /* R_HAI, bytes/s */
    uint32_t gd_shift;          /* cut = R_C * alpha / 2^gd_shift */
    ibcc_time n;                /* NP: at most one CNP per N per flow, ps */
} ibcc_dcqcn_desc;

/* Validated parameters (a copy of the effective desc), shared by flows. */
typedef struct ibcc_dcqcn {
    ibcc_dcqcn_desc p;
} ibcc_dcqcn;

/* Reaction-point state of one flow (read the fields; change them only
   through the functions). */
typedef struct ibcc_dcqcn_rp {
    ibcc_rate rc;               /* R_C, current rate */
    ibcc_rate rt;               /* R_T, target rate */
    uint32_t alpha;             /* x 2^16 */
    uint32_t t_count;           /* T: rate-timer expiries since the cut */
    uint32_t bc_count;          /* BC: byte-counter events since the cut */
    uint32_t last_stage;        /* ibcc_dcqcn_stage of the last increase */
    uint64_t bytes;             /* bytes since the last byte-counter event */
    ibcc_time t_next;           /* next rate-timer expiry (active only) */
    ibcc_time k_next;           /* next alpha-timer expiry (active only) */
    ibcc_time last;             /* latest time seen */
    uint32_t active;            /* 1 once a CNP has cut the rate */
    uint32_t reserved;
    uint64_t cnps;              /* CNPs received */
    uint64_t increases;         /* increase events applied */
} ibcc_dcqcn_rp;

/* Notification-point state of one flow. */
typedef struct ibcc_dcqcn_np {
    ibcc_time last;             /* time of the last CNP sent */
    uint64_t cnps;              /* CNPs sent (0: none yet) */
} ibcc_dcqcn_np;

/* Fills zero fields with defaults and checks ranges. Errors: NULL, RANGE
   (see the table; rate_min, r_ai, r_hai above line_rate). */
IBCC_API ibcc_result ibcc_dcqcn_defaults(ibcc_dcqcn_desc *d);
/* Validates `desc` (NULL = defaults) into *d. Errors as defaults. */
IBCC_API ibcc_result ibcc_dcqcn_init(ibcc_dcqcn *d, const ibcc_dcqcn_desc *desc);

/* A flow's RP at `now`: R_C = R_T = line_rate, alpha = alpha_init, no
   timer running. Nothing for a NULL argument. */
IBCC_API void ibcc_dcqcn_rp_init(const ibcc_dcqcn *d, ibcc_dcqcn_rp *rp,
                                 ibcc_time now);
/* Applies the timer expiries due at or before `now`. */
IBCC_API void ibcc_dcqcn_rp_advance(const ibcc_dcqcn *d, ibcc_dcqcn_rp *rp,
                                    ibcc_time now);
/* A CNP for the flow at `now`: the cut. Returns the new R_C. */
IBCC_API ibcc_rate ibcc_dcqcn_rp_on_cnp(const ibcc_dcqcn *d, ibcc_dcqcn_rp *rp,
                                        ibcc_time now);
/* `bytes` sent by the flow at `now` (feeds the byte counter, after the
   expiries due). Returns R_C. */
IBCC_API ibcc_rate ibcc_dcqcn_rp_on_send(const ibcc_dcqcn *d, ibcc_dcqcn_rp *rp,
                                         uint64_t bytes, ibcc_time now);
/* R_C after the expiries due at `now` (the rate the flow may send at). */
IBCC_API ibcc_rate ibcc_dcqcn_rp_rate(const ibcc_dcqcn *d, ibcc_dcqcn_rp *rp,
                                      ibcc_time now);

/* A flow's NP, no CNP sent yet. */
IBCC_API void ibcc_dcqcn_np_init(ibcc_dcqcn_np *np);
/* A packet of the flow with header bits `pkt` arrived at `now`: returns
   IBCC_CNP if a CNP is to be sent (a data packet, not an ACK or CNP, with
   IBCC_ECN, and no CNP sent in the last N), else 0. */
IBCC_API unsigned ibcc_dcqcn_np_on_packet(const ibcc_dcqcn *d, ibcc_dcqcn_np *np,
                                          unsigned pkt, ibcc_time now);

/* ==== L1 hpcc ===========================================================
   HPCC [HPCC, Algorithm 1], docs/hpcc.md: a sender window computed
   from the INT records its ACKs echo. One object per flow; integer
   arithmetic throughout, utilizations in parts per million
   (IBCC_HPCC_ONE = 10^6 = 1.0). Names are the paper's: T (base RTT), eta,
   maxStage, W_AI, W_c (reference window), U, incStage.

   Behaviour, per ACK with its INT record L' (ibcc_hpcc_on_ack):
   - MeasureInflight: for each hop i (L = the records of the previous ACK)
         dt_i    = L'[i].ts - L[i].ts                (ps; hop skipped if 0)
         txRate  = floor((L'[i].tx_bytes - L[i].tx_bytes) * 10^12 / dt_i)
         bdp_i   = max(1, floor(L'[i].rate * T / 10^12))     (B * T bytes)
         u_i     = floor(min(L'[i].qlen, L[i].qlen) * 10^6 / bdp_i)
                   + floor(txRate * 10^6 / L'[i].rate)
     u = the largest u_i (the first hop among equals) and tau its dt_i,
     then tau = min(tau, T) and
         U = floor(((T - tau) * U + tau * u) / T)
     (no hop measured: U unchanged).
   - ComputeWind(U, updateWc):
         U >= eta or incStage >= maxStage:
             W = floor(W_c * eta / U) + W_AI     (U = 0: W = W_init)
             if updateWc: incStage = 0, W_c = W
         else
             W = W_c + W_AI
             if updateWc: incStage += 1, W_c = W
     with W capped at W_init (line rate x T).
   - Per-RTT vs per-ACK: updateWc is 1 when the ACK's sequence is above
     lastUpdateSeq (then lastUpdateSeq = snd_nxt), else 0. Then L = L'.
   - The first ACK (and one whose hop count differs from L's) only
     stores L' and sets lastUpdateSeq = snd_nxt: there is nothing to
     difference yet. The window starts at W_init with W_c = W_init,
     U = 1.0, incStage = 0 (as the HPCC authors' simulator). The sending
     rate is R = W / T (ibcc_hpcc_rate).

   Defaults (ibcc_hpcc_desc, zero means default):
   | field     | paper    | default                        | range          |
   | line_rate |          | IBCC_GBITS(100)                | 1 .. 2^62 B/s  |
   | base_rtt  | T        | 10 us                          | 1 ps .. 1 s    |
   | eta       | eta      | 950000 (0.95)                  | 1 .. 10^6      |
   | max_stage | maxStage | 5 (IBCC_HPCC_STAGE_ZERO: 0)    | 0 .. 2^31      |
   | w_ai      | W_AI     | ceil(50 Mb/s x T) bytes        | 1 .. w_init    |
   | w_init    | W_init   | floor(line_rate x T) bytes     | 1 .. 2^48      |
   ====================================================================== */

#define IBCC_HPCC_ONE 1000000u          /* U = 1.0 */
#define IBCC_HPCC_STAGE_ZERO UINT32_MAX /* max_stage: maxStage = 0 */

typedef struct ibcc_hpcc_desc {
    ibcc_rate line_rate;        /* the NIC's rate, bytes/s */
    ibcc_time base_rtt;         /* T, ps */
    uint32_t eta;               /* target utilization, ppm */
    uint32_t max_stage;         /* maxStage */
    uint64_t w_ai;              /* W_AI, bytes */
    uint64_t w_init;            /* W_init (and the window's cap), bytes */
} ibcc_hpcc_desc;

/* One flow's sender state (read the fields; change them only through the
   functions). */
typedef struct ibcc_hpcc {
    ibcc_hpcc_desc p;           /* effective parameters */
    uint64_t w;                 /* W, bytes */
    uint64_t wc;                /* W_c, bytes */
    uint64_t u;                 /* U, ppm */
    uint32_t inc_stage;         /* incStage */
    uint32_t have_l;            /* 1 once an INT record is stored */
    uint64_t last_update_seq;   /* lastUpdateSeq */
    uint64_t rtt_updates;       /* ACKs that updated W_c */
    uint64_t ack_updates;       /* ACKs that did not */
    ibcc_int_record l;          /* L: the previous ACK's records */
} ibcc_hpcc;

/* Fills zero fields with defaults and checks ranges. Errors: NULL, RANGE
   (see the table). */
IBCC_API ibcc_result ibcc_hpcc_defaults(ibcc_hpcc_desc *d);
/* Validates `desc` (NULL = defaults) and starts the flow: W = W_c =
   W_init, U = 1.0. Errors as defaults. */
IBCC_API ibcc_result ibcc_hpcc_init(ibcc_hpcc *h, const ibcc_hpcc_desc *desc);
/* Back to the state right after init (parameters kept). */
IBCC_API void ibcc_hpcc_reset(ibcc_hpcc *h);
/* An ACK of sequence `ack_seq` with the INT record it echoes arrives
   while the sender's next sequence to send is `snd_nxt`. Returns W (the
   window, bytes); a NULL record changes nothing. */
IBCC_API uint64_t ibcc_hpcc_on_ack(ibcc_hpcc *h, uint64_t ack_seq,
                                   uint64_t snd_nxt, const ibcc_int_record *rec);
/* W (bytes) and R = W / T (bytes/s, rounded down). 0 for h NULL. */
IBCC_API uint64_t ibcc_hpcc_window(const ibcc_hpcc *h);
IBCC_API ibcc_rate ibcc_hpcc_rate(const ibcc_hpcc *h);

/* ==== L2 loop ===========================================================
   Minimal discrete-event loop: timed events on a 4-ary heap held in caller
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

/* Internal heap entry (do not touch): due time and the event's slot, so
   heap comparisons read only the heap array. */
typedef struct ibcc_hent_ {
    ibcc_time t;                /* due time */
    uint32_t slot;              /* index of the event's slot */
    uint32_t gen;               /* the slot's generation when scheduled:
                                   differs once the event is cancelled */
} ibcc_hent_;

/* Internal event slot (do not touch). */
typedef struct ibcc_event_ {
    uint64_t seq;               /* scheduling order, ties broken by it */
    ibcc_event_fn fn;           /* NULL while the slot is free */
    void *ctx;
    uint64_t arg;
    uint32_t next;              /* free-list link */
    uint32_t gen;               /* generation, part of the handle */
} ibcc_event_;

struct ibcc_loop {
    ibcc_time now;              /* time of the event running or last run */
    uint64_t seq;               /* next scheduling sequence number */
    uint64_t cur;               /* seq of the event running or last run */
    uint64_t executed;          /* events run so far */
    ibcc_event_fn idle;         /* end-of-instant hook, or NULL */
    void *idle_ctx;
    uint32_t cap;               /* capacity */
    uint32_t count;             /* pending events */
    uint32_t hn;                /* heap entries: pending + cancelled ones
                                   not yet dropped (never the top) */
    uint32_t free_head;         /* first free slot */
    ibcc_hent_ *heap;           /* cap entries, hn of them heap-ordered */
    ibcc_event_ *slot;          /* cap slots */
};

/* Fills zero fields of *d with defaults. IBCC_ERR_NULL / IBCC_ERR_CAPACITY. */
IBCC_API ibcc_result ibcc_loop_defaults(ibcc_loop_desc *d);
/* *bytes = the memory ibcc_loop_init needs for this desc. Errors: as
   defaults (then *bytes = 0), NULL, CAPACITY (also: more than size_t
   holds, e.g. 2^31 - 1 events with a 32-bit size_t). */
IBCC_API ibcc_result ibcc_loop_size(const ibcc_loop_desc *d, size_t *bytes);
/* Initialises an empty loop at time 0 on caller memory `mem` of `len`
   bytes (uint64_t-aligned). Errors: NULL (l, d, mem), CAPACITY, ALIGN,
   NOMEM (len < ibcc_loop_size). */
IBCC_API ibcc_result ibcc_loop_init(ibcc_loop *l, const ibcc_loop_desc *d,
                                    void *mem, size_t len);
/* Moves an initialised loop into a new, larger block of caller memory
   (capacity d->capacity >= the current one, at least ibcc_loop_size
   bytes): time, pending events, their order and their handles are kept,
   and the new slots are free. The old block is no longer used (the caller
   frees it). May be called from inside an event callback, e.g. when
   ibcc_loop_at returned FULL. Errors: NULL, CAPACITY (smaller than now or
   above the maximum), ALIGN, NOMEM. */
IBCC_API ibcc_result ibcc_loop_grow(ibcc_loop *l, const ibcc_loop_desc *d,
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
/* Current time and pending-event count (0 for a NULL loop; step and run
   return 0 for it too). */
IBCC_API ibcc_time ibcc_loop_now(const ibcc_loop *l);
IBCC_API uint32_t ibcc_loop_pending(const ibcc_loop *l);
/* Due time of the earliest pending event, IBCC_TIME_MAX if none (O(1)).
   Lets a caller act inline when nothing else is due at the same instant. */
IBCC_API ibcc_time ibcc_loop_next_time(const ibcc_loop *l);
/* End-of-instant hook: fn(l, ctx, 0) is called by ibcc_loop_step after
   the last event of each instant, i.e. whenever the event just run leaves
   no other event due at the current time. It may schedule events, also at
   the current time (they run next, and the hook is called again after
   them). A model that must decide only once everything of an instant has
   happened (arbitration, a host's next send) does it here instead of in
   an extra event. fn NULL removes the hook. Errors: NULL (l). */
IBCC_API ibcc_result ibcc_loop_set_idle(ibcc_loop *l, ibcc_event_fn fn,
                                        void *ctx);

/* ==== L2 coll ===========================================================
   Collective schedules and rank placement: pure functions of a small
   description, no memory, no clock, no fabric, so that any simulator can
   run the same patterns. A collective on P ranks is, for every rank, an
   ordered list of steps 0, 1, ...; a step sends messages (peer, bytes)
   and may first wait for messages other ranks send. Rule of execution:
   a rank starts step k once it has started step k-1 and every message
   step k waits for has arrived; it then releases that step's sends in
   their order (a NIC sends them one after another). A message is named
   by its sender, the sender's step and its destination; the receiver's
   step that waits for it is ibcc_coll_consumer's answer (none for the
   messages nobody waits for, e.g. a collective's last receives). The
   collective is complete when every message has arrived.

   Patterns (N = desc.bytes; P = ranks; messages per rank and in total):
   ALLTOALL_SHIFT     P-1 steps; step s sends N to rank r+s+1 (mod P) and
                      (s >= 1) waits for the message rank r-s sent in its
                      step s-1: a sendrecv per step. P(P-1) messages.
   ALLTOALL_PAIRWISE  pairs exchange N both ways in each step. P a power
                      of two: P-1 steps, partner r XOR (s+1). Otherwise
                      a round-robin tournament: P odd, P steps, partner
                      (s - r) mod P, each rank idle (no message) in the
                      one step where that is r itself; P even, P-1 steps,
                      ranks 0..P-2 play the odd tournament of P-1 and the
                      rank left idle meets rank P-1. Step s >= 1 waits
                      for the partner's message of step s-1 (if any).
                      P(P-1) messages.
   ALLREDUCE_RING     reduce-scatter then allgather on a ring: 2(P-1)
                      steps; in step s rank r sends chunk (r - s) mod P
                      to r+1 and (s >= 1) waits for r-1's message of step
                      s-1. Chunk i holds N/P bytes, one more for i < N mod
                      P (N >= P). 2P(P-1) messages, 2(P-1)N bytes.
   ALLREDUCE_RD       recursive doubling, N bytes per message. P a power
                      of two: log2 P steps, partner r XOR 2^s, step s
                      waits for the partner's step s-1 message. Other P
                      (the variant of MPICH, Thakur et al. 2005): with
                      p' the largest power of two below P and q = P - p',
                      each even rank r < 2q sends its vector to r+1 (its
                      only step) and takes no further part; ranks r+1
                      (odd, < 2q) and ranks >= 2q run the power-of-two
                      exchange among p' ranks (an odd rank's step 0 also
                      waits for its even neighbour's vector), then each
                      odd rank < 2q sends the result back to r-1 in an
                      extra step. p' log2 p' + 2q messages.
   BCAST_BINOMIAL     from `root`; with v = (r - root) mod P, rank v
                      receives from v minus its lowest set bit and in its
                      one step (after that message) sends N to v + m for
                      m = its lowest set bit / 2, ..., 1 (the root: the
                      largest power of two below P, ..., 1) where v + m
                      < P, largest subtree first. P-1 messages; with one
                      send at a time per rank the last arrives after
                      ceil(log2 P) message times.
   HALO2D, HALO3D     a grid of dims[0] x dims[1] (x dims[2]) ranks, x
                      fastest (r = x + X(y + Y z)); each of `iterations`
                      steps sends N to each face neighbour in the order
                      -x, +x, -y, +y, -z, +z (periodic: wrapping; a
                      dimension of 1 has none; of 2, periodic: the same
                      rank twice) and step s >= 1 waits for every
                      neighbour's message of step s-1. Zero dims are
                      chosen: the most nearly square (cubic) factors.
   INCAST             every rank but `root` sends N to the root in one
                      step; the root has no step. P-1 messages.

   | field       | default          | range                             |
   | kind        | (required)       | IBCC_COLL_ALLTOALL_SHIFT .. INCAST |
   | ranks       | (required)       | 1 .. 2^24                         |
   | bytes       | (required)       | 1 .. 2^48 (RING: >= ranks)        |
   | root        | 0                | < ranks (BCAST, INCAST)           |
   | dims        | chosen           | product = ranks (HALO)            |
   | periodic    | 0                | 0, 1 (HALO)                       |
   | iterations  | 1                | 1 .. 2^20 (HALO)                  |
   Errors: NULL, RANGE (fields, rank, step, index, a message the schedule
   does not send). */
typedef enum ibcc_coll_kind {
    IBCC_COLL_ALLTOALL_SHIFT    = 1,
    IBCC_COLL_ALLTOALL_PAIRWISE = 2,
    IBCC_COLL_ALLREDUCE_RING    = 3,
    IBCC_COLL_ALLREDUCE_RD      = 4,
    IBCC_COLL_BCAST_BINOMIAL    = 5,
    IBCC_COLL_HALO2D            = 6,
    IBCC_COLL_HALO3D            = 7,
    IBCC_COLL_INCAST            = 8
} ibcc_coll_kind;
#define IBCC_COLL_KINDS 8u
#define IBCC_COLL_NONE UINT32_C(0xffffffff) /* no step waits for it */

typedef struct ibcc_coll_desc {
    ibcc_coll_kind kind;
    uint32_t ranks;
    uint64_t bytes;
    uint32_t root;
    uint32_t dims[3];
    uint32_t periodic;
    uint32_t iterations;
} ibcc_coll_desc;

/* One message of a step: to (sends) or from (waits) rank `peer`, sent in
   the sender's step `step`. */
typedef struct ibcc_coll_msg {
    uint32_t peer;
    uint32_t step;
    uint64_t bytes;
} ibcc_coll_msg;

/* Fills zero fields (dims, iterations) and checks every range, or returns
   the error and leaves *d as given. The queries below apply the same to a
   copy of the desc they are given. */
IBCC_API ibcc_result ibcc_coll_defaults(ibcc_coll_desc *d);
/* Steps of rank r (0 when it takes no part, e.g. the incast root). */
IBCC_API ibcc_result ibcc_coll_steps(const ibcc_coll_desc *d, uint32_t r,
                                     uint32_t *steps);
/* Messages step s of rank r sends and waits for. */
IBCC_API ibcc_result ibcc_coll_count(const ibcc_coll_desc *d, uint32_t r,
        uint32_t s, uint32_t *sends, uint32_t *waits);
/* The i-th of them (sends in the order released). */
IBCC_API ibcc_result ibcc_coll_send(const ibcc_coll_desc *d, uint32_t r,
        uint32_t s, uint32_t i, ibcc_coll_msg *m);
IBCC_API ibcc_result ibcc_coll_wait(const ibcc_coll_desc *d, uint32_t r,
        uint32_t s, uint32_t i, ibcc_coll_msg *m);
/* The step of rank dst that waits for the message src sends it in src's
   step src_step (IBCC_COLL_NONE: no step waits for it). RANGE when src
   sends dst nothing in that step. */
IBCC_API ibcc_result ibcc_coll_consumer(const ibcc_coll_desc *d,
        uint32_t dst, uint32_t src, uint32_t src_step, uint32_t *step);
/* The closed forms of the table above: messages and bytes in total, and
   the most steps of any rank. */
IBCC_API ibcc_result ibcc_coll_totals(const ibcc_coll_desc *d,
        uint64_t *messages, uint64_t *bytes, uint32_t *max_steps);
/* "alltoall-shift", "alltoall-pairwise", "allreduce-ring",
   "allreduce-rd", "bcast-binomial", "halo2d", "halo3d", "incast" ("?"
   for others); parse gives the kind of a name, 0 if none. */
IBCC_API const char *ibcc_coll_name(ibcc_coll_kind k);
IBCC_API ibcc_coll_kind ibcc_coll_parse(const char *name);

/* Placement of the ranks of several jobs onto hosts: job j has ranks[j]
   ranks; out receives sum(ranks) host ids, job 0's ranks first, from the
   list hosts[0 .. nh) (ids are copied, never interpreted):
   LINEAR       job j takes the next ranks[j] hosts of the list in order
   INTERLEAVED  the list is dealt round robin to the jobs still short of
                ranks (job 0 takes hosts 0, J, 2J, ... while all need)
   RANDOM       a uniformly random choice and order (from seed; the
                same seed gives the same placement everywhere)
   A range of hosts is a list made by the caller. Errors: NULL, RANGE
   (unknown policy, no job), CAPACITY (more ranks than hosts). */
typedef enum ibcc_place_policy {
    IBCC_PLACE_LINEAR      = 0,
    IBCC_PLACE_INTERLEAVED = 1,
    IBCC_PLACE_RANDOM      = 2
} ibcc_place_policy;
IBCC_API ibcc_result ibcc_place(const uint32_t *hosts, uint32_t nh,
        const uint32_t *ranks, uint32_t jobs, ibcc_place_policy policy,
        uint64_t seed, uint32_t *out);

#ifndef IBCC_NO_FABRIC
/* ==== L3 fabric =========================================================
   A small packet-level, event-driven model of a lossless, credit-flow-
   controlled fabric, built on the L2 loop and the L1 engines exactly as an
   embedding simulator would use them. It grows through four interfaces,
   each chosen per element, never through special cases in shared code
   (the first two are tables of operations inside; docs/fabric.md lists
   the steps to add one):
     switch kind    how a switch buffers and forwards: VCT (input-buffered
                    virtual cut-through, [S02] [S03]), CIOQ (input and
                    output buffers, internal speedup, [F]) or WORMHOLE
                    (byte slack buffers with STOP/GO, worms spanning
                    switches, [K]; a fabric is wormhole throughout)
     source agent   when a flow may send: NONE, WINDOW, LAW (window + rate
                    law + pacer, [S03]), FIXED (window + fixed rate), CCT
                    (IBA CCT/CCTI agent, [G]), MVCM ([F])
     traffic        what a flow generates: GREEDY, ONOFF, RATE, POISSON,
                    PUSH (messages given by ibcc_fabric_push: jobs),
                    packets or messages, a packet limit, a start time or a
                    start after K delivered packets; the pattern helpers
                    (uniform, permutation, incast, hot spot) fill flow
                    arrays; or per source host (desc.sources, "L3
                    traffic"): a generator asked for its next message,
                    UNIFORM, ALLTOALL or the embedder's GEN, with state
                    per message in flight
     topology       nodes, links (rate, propagation delay) and static
                    routes as data; the builders (k-ary n-tree, k-ary
                    n-fly, mesh, torus, two-switch); the InfiniBand
                    fabric loader (a real subnet's topology and tables)
   docs/fabric.md follows one packet from generation to its ACK and lists
   every modelling choice.

   Model in one paragraph: a flow's packets are generated into its queue
   at the source host (latency counts from generation); the host sends
   ACK/CNP first, then serves its flows in round robin (one queue per flow,
   i.e. per destination: virtual output queues) or, with nic_fifo, only
   the oldest packet it holds; a flow's source agent says when it may
   send. At a switch a packet becomes visible one forwarding delay after
   its header arrived. VCT: it waits in its input buffer (one per input
   port and lane) until the arbiter starts it on a free output whose
   downstream buffer has room, possibly while its tail is still arriving;
   an input sends one packet at a time (input_fanout = 1: several, one
   per output).
   CIOQ: the arbiter moves it through the crossbar (speedup S times the
   output's link rate) into the output's buffer when that has room; the
   output sends its buffer in order. A packet never starts on a faster
   link so early that it would outrun its own tail (it starts late enough
   to end when the tail is in), a slower output paces it, and an input
   fed by a faster link is free for its next packet once that link's wire
   time has passed. Credits (packets and 64-byte units) return upstream
   one propagation delay after the tail left the buffer; until then the
   packet counts in its input buffer for the marker (hold/release). Data
   travels on virtual lanes (1 by default; 2, 4, 8 or 15 per port): a
   flow's SL and the SL-to-VL tables (per port, per switch input/output
   pair) give its VL on each link; each VL has its own input buffers,
   credits, packet arbitration and marker, and every output with several
   VLs serves them by IBA VL arbitration (ibcc_vlarb). ACK/CNP have one
   lane of their own with its own credits, served first on every link.
   A run in which nothing moves for `stall` while packets wait (a credit
   loop) stops with an error naming the blocked channels. All
   same-instant events at a node are applied before it decides, and it
   decides until nothing more can start; nodes deciding at the same
   instant do so in node order. A transmitter
   finishing and credits coming back are not events: they are applied
   when due, and only what waits for them costs an event.

   Statistics count DELIVERED packets: a flow's bytes when its packet's
   tail reaches the destination, a channel's bytes when a packet that
   crossed it is delivered (so every share of a channel is a part of that
   channel's total over any window), latency from generation to delivery,
   per flow and per class (the flow's `cls`, 0..15) with percentiles.
   A delivered packet's bytes are spread over its reception time at the
   destination, so the last link's series never exceeds its rate; an
   earlier channel's window can count more than it carried in that window
   only while a backlog beyond it drains (ibcc_fabric_channel_totals gives
   its transmitter's busy time).
   Every random draw comes from a stream of its own per flow, derived from
   (seed, flow index): adding a flow changes no other flow's draws.

   Defaults (ibcc_fabric_desc, zero means default):
   | field           | default        | range                            |
   | link_rate       | 1 GB/s         | > 0 (per link override)          |
   | prop_delay      | 5 ns           | 1 .. 2^60 ps (per link override) |
   | fwd_delay       | 40 ns          | 0 .. 2^60 ps                     |
   | data_size       | 2068 bytes     | 1 .. 65535                       |
   | buf_packets     | 4              | 1 .. 65535 (data lane, per input)|
   | buf_credits     | 0 = unlimited  | 64-byte units, 0 .. 2^20         |
   | ack_buf_packets | 16             | 1 .. 65535 (ACK lane, per input) |
   | switch_kind     | VCT            | VCT, CIOQ (per node override),   |
   |                 |                | WORMHOLE (every switch)          |
   | speedup         | 2              | CIOQ crossbar speedup, 1 .. 16   |
   | input_fanout    | 0              | VCT: 1 = an input may feed several|
   |                 |                | outputs at once                  |
   | out_buf_packets | buf_packets    | CIOQ output buffer, 1 .. 65535   |
   | out_buf_credits | buf_credits    | CIOQ output buffer, 64-byte units|
   | slack_bytes     | 80 (Myrinet)   | WORMHOLE input slack, 1 .. 2^20  |
   | stop_mark       | slack - 2d/tau | WORMHOLE: STOP at this fill      |
   | go_mark         | min(2d/tau, stop/2) | WORMHOLE: GO at this fill   |
   | worm_priority   | 0              | 1: switches serve high-priority  |
   |                 |                | worms first (non-preemptive)     |
   | segment         | L_l 100 bytes  | ibcc_segment_desc: cuts low-     |
   |                 |                | priority messages (WORMHOLE)     |
   | nic_fifo        | 0 (VOQ)        | 0: a queue per flow, round robin;|
   |                 |                | 1: one FIFO per host             |
   | bin             | 100 us         | > 0 (stats bin)                  |
   | horizon         | 0 = no bins    | stats series length              |
   | host_cap        | 0 = none       | bytes/s, injection + absorption  |
   | arbiter         | oldest, bypass 4 | ibcc_arbiter_desc fields       |
   | marker          | NONE           | ibcc_marker_desc fields          |
   | law             | LIPD continuous, Rmin = Rmax/256                  |
   | dest            | ECN echo, 20-byte ACKs                            |
   | seed            | 0              | any                              |
   | loop_capacity   | computed       | events                           |
   | allocator       | malloc/free    | both functions or neither        |
   | vls             | 1              | 1, 2, 4, 8, 15 data VLs per port |
   | sl2vl           | 0..14,7 masked | VL per SL (sl2vl_set), 15 = drop |
   | vlarb           | ibcc_vlarb's   | every output of several VLs      |
   | qos             | NULL           | OpenSM settings per port type    |
   | port_vls, sl2vls| none           | per port; per switch (in, out)   |
   | stall           | 10 ms          | no progress this long: STATE     |
   ====================================================================== */

typedef enum ibcc_node_kind {
    IBCC_FABRIC_HOST   = 1,
    IBCC_FABRIC_SWITCH = 2
} ibcc_node_kind;

#define IBCC_FABRIC_LANES   2u  /* lane 0 data, lane 1 ACK/CNP */
#define IBCC_FABRIC_CLASSES 16u /* flow classes (cls) with class stats */
/* Time limits: every delay (propagation, forwarding) is at most
   IBCC_FABRIC_MAX_DELAY (2^60 ps, about 13 days) and a fabric runs up to
   IBCC_FABRIC_MAX_TIME (2^63 ps, about 106 days), so that no event time
   (the current time plus a few delays and wire times) wraps. */
#define IBCC_FABRIC_MAX_DELAY (UINT64_C(1) << 60)
#define IBCC_FABRIC_MAX_TIME  (UINT64_C(1) << 63)

/* Switch kinds. 0 in a node means the desc's switch_kind, 0 there VCT. */
typedef enum ibcc_switch_kind {
    IBCC_SWITCH_VCT = 1,        /* input-buffered virtual cut-through */
    IBCC_SWITCH_CIOQ = 2,       /* input + output buffers, speedup S */
    IBCC_SWITCH_WORMHOLE = 3    /* byte slack buffers, STOP/GO, worms */
} ibcc_switch_kind;

/* Traffic generation of a flow. */
typedef enum ibcc_traffic {
    IBCC_TRAFFIC_GREEDY  = 0,   /* always has a packet while active */
    IBCC_TRAFFIC_ONOFF   = 1,   /* greedy in ON periods; ON/OFF exponential */
    IBCC_TRAFFIC_RATE    = 2,   /* a packet (message) every unit/offered */
    IBCC_TRAFFIC_POISSON = 3,   /* Poisson arrivals at `offered` B/s */
    IBCC_TRAFFIC_PUSH    = 4    /* only the messages ibcc_fabric_push
                                   gives it (jobs, traces) */
} ibcc_traffic;

/* Source agent of a flow (what decides when it may send next). */
typedef enum ibcc_agent {
    IBCC_AGENT_NONE   = 0,      /* no limit (window still applies if set) */
    IBCC_AGENT_WINDOW = 1,      /* window only */
    IBCC_AGENT_LAW    = 2,      /* window + rate law + pacing (pacer) */
    IBCC_AGENT_FIXED  = 3,      /* window + fixed rate `rate` (pacer) */
    IBCC_AGENT_CCT    = 4,      /* IBA CCT/CCTI agent of the source host */
    IBCC_AGENT_MVCM   = 5,      /* MVCM dynamic window + waiting slots */
    IBCC_AGENT_DCQCN  = 6       /* DCQCN reaction point (docs/dcqcn.md) */
} ibcc_agent;

/* Memory allocator used by the fabric (NULL functions = malloc/free). */
typedef struct ibcc_fabric_allocator {
    void *(*alloc)(void *user, size_t size);
    void  (*free)(void *user, void *ptr);
    void  *user;
} ibcc_fabric_allocator;

typedef struct ibcc_fabric_node {
    ibcc_node_kind kind;        /* IBCC_FABRIC_HOST or IBCC_FABRIC_SWITCH */
    uint32_t ports;             /* switch ports (hosts have exactly 1) */
    ibcc_switch_kind switch_kind; /* 0 = desc.switch_kind */
} ibcc_fabric_node;

/* A full-duplex link: channel 2*i carries a->b, channel 2*i+1 b->a. */
typedef struct ibcc_fabric_link {
    uint32_t a, a_port, b, b_port;
    ibcc_rate rate;             /* 0 = desc.link_rate */
    ibcc_time prop;             /* 0 = desc.prop_delay */
} ibcc_fabric_link;

/* Static route: at switch `sw`, packets for host `dst` leave on `port`. */
typedef struct ibcc_fabric_route {
    uint32_t sw, dst, port;
    uint32_t lid;               /* which of dst's 2^desc.lmc LIDs (0: its
                                   base LID; 0 whenever lmc is 0) */
} ibcc_fabric_route;

typedef struct ibcc_fabric_flow {
    uint32_t src, dst;          /* host nodes */
    ibcc_traffic traffic;       /* IBCC_TRAFFIC_* */
    ibcc_agent agent;           /* IBCC_AGENT_* */
    uint32_t window;            /* unacknowledged packets, 0 = no window */
    uint32_t size;              /* data packet bytes, 0 = desc.data_size */
    uint32_t cls;               /* flow class 0..15 (class statistics) */
    uint32_t persistent;        /* 1: keep the pair's agent state across
                                   OFF periods; 0: restart at Rmax */
    ibcc_time start;            /* first active instant */
    ibcc_time stop;             /* stops at this time; 0 = never */
    ibcc_time on_mean, off_mean;/* ONOFF mean period lengths (> 0) */
    ibcc_rate offered;          /* RATE, POISSON: generated bytes/s */
    ibcc_rate rate;             /* FIXED agent: the rate limit */
    uint64_t packets;           /* generate at most this many packets,
                                   then stop; 0 = no limit */
    uint64_t start_after;       /* also wait until the network has
                                   delivered this many data packets (a
                                   hot spot after warm-up); 0 = no wait */
    uint32_t msg_bytes;         /* > 0: traffic comes in messages of this
                                   many bytes, cut into `size`-byte
                                   packets (the last one shorter); the
                                   unit RATE/POISSON/GREEDY generate is a
                                   message; completion times are kept */
    uint32_t msg_exp;           /* 1: message lengths are exponential
                                   with mean msg_bytes (at least 1 byte) */
    uint32_t prio;              /* WORMHOLE: 1 high priority (one worm
                                   per message, served first), 0 low
                                   (cut by desc.segment) */
    uint32_t sl;                /* service level 0..15: the SL-to-VL
                                   tables give its VL on each link; the
                                   CCT agent keeps its CCTI per SL when
                                   its control level says so */
    uint32_t dlid;              /* which of dst's 2^desc.lmc LIDs the
                                   flow's data packets are addressed to
                                   (0: the base LID); chosen per flow, as
                                   a queue pair's DLID is per connection;
                                   ACKs go to src's base LID */
} ibcc_fabric_flow;

/* Sources (see "L3 traffic" below for the whole interface): traffic
   generated per source host, one message at a time, to a destination
   picked per message. IBCC_FABRIC_NONE stands for "no flow" / "no
   source" in a packet's view. */
#define IBCC_FABRIC_NONE UINT32_C(0xffffffff)

typedef enum ibcc_source_kind {
    IBCC_SOURCE_UNIFORM  = 1,   /* each message to a uniformly random
                                   other host of `hosts` */
    IBCC_SOURCE_ALLTOALL = 2,   /* messages to the other hosts of `hosts`
                                   in shift order, round after round */
    IBCC_SOURCE_GEN      = 3    /* the embedder's generator `next` */
} ibcc_source_kind;

/* One message, as a generator answers "next message: when, to whom, how
   big, which class". */
typedef struct ibcc_fabric_msg {
    ibcc_time t;                /* when it is generated (>= now) */
    uint32_t dst;               /* destination host node (not the source's
                                   own host) */
    uint32_t bytes;             /* 1 .. 2^32 - 1, cut into `size`-byte
                                   packets (the last one shorter) */
    uint32_t cls;               /* class 0..15 (class statistics) */
    uint32_t id;                /* the generator's own tag, given back in
                                   ibcc_fabric_pkt.msg */
} ibcc_fabric_msg;

typedef struct ibcc_fabric_source {
    ibcc_source_kind kind;
    ibcc_fabric_flow flow;      /* the template of every per-destination
                                   queue of the source: src (its host),
                                   agent, window, size, cls, prio, rate,
                                   start, stop; UNIFORM and ALLTOALL also
                                   take traffic (POISSON or RATE at
                                   `offered`; GREEDY, ALLTOALL only: all
                                   its messages at `start`), msg_bytes
                                   (0: one packet of `size`) and msg_exp.
                                   dst, packets, start_after, on_mean,
                                   off_mean and persistent must be 0 */
    const uint32_t *hosts;      /* UNIFORM, ALLTOALL: the destination set */
    uint32_t host_count;        /* (host nodes; the source's own skipped) */
    uint64_t messages;          /* at most this many messages, 0 = no
                                   limit (ALLTOALL GREEDY: 0 = one round) */
    /* GEN: fill *m with the source's next message and return 1, or return
       0 when it has none now (ibcc_fabric_source_kick asks again) */
    int (*next)(void *user, uint32_t source, ibcc_time now,
                ibcc_fabric_msg *m);
    void *user;
} ibcc_fabric_source;

/* What an observer sees of a packet. */
typedef struct ibcc_fabric_pkt {
    uint32_t flow;              /* data flow (ACKs: the flow they ack) */
    uint32_t node;              /* where the event happens */
    uint32_t size;              /* bytes on the wire */
    uint32_t lane;              /* 0 data, 1 ACK/CNP, 2 a data worm (in
                                   a WORMHOLE fabric) */
    uint32_t vl;                /* data: its VL on the link it is on or
                                   leaves (0 for ACK/CNP and worms) */
    uint32_t last;              /* 1: the last packet of its message */
    unsigned hdr;               /* IBCC_FECN/BECN/MB/VB/ACK/CNP bits */
    ibcc_time t_inject;         /* when its source started sending it */
    ibcc_time t;                /* time of the event */
    ibcc_time t_gen;            /* when it was generated (its message was,
                                   for messages); = t_inject for greedy */
    ibcc_time t_head;           /* delivered: when its first byte reached
                                   the destination (0 in other callbacks) */
    uint32_t src, dst;          /* its data flow's source and destination
                                   host nodes (an ACK's too) */
    uint32_t source;            /* a source's packet: the source's index
                                   (flow is then IBCC_FABRIC_NONE);
                                   IBCC_FABRIC_NONE for a flow's */
    uint32_t msg;               /* a source's packet: its message's id
                                   (ibcc_fabric_msg.id); 0 for a flow's */
} ibcc_fabric_pkt;

/* Observation callbacks; any may be NULL. */
typedef struct ibcc_fabric_observer {
    void (*sent)(void *user, const ibcc_fabric_pkt *p);      /* data injected */
    void (*delivered)(void *user, const ibcc_fabric_pkt *p); /* data at dst */
    void (*marked)(void *user, const ibcc_fabric_pkt *p);    /* a switch set
                                                  a forward bit (node = it) */
    void (*link_busy)(void *user, uint32_t channel, ibcc_time start,
                      ibcc_time end, const ibcc_fabric_pkt *p);
    void *user;
} ibcc_fabric_observer;

/* Why a configuration was refused. ibcc_fabric_defaults,
   ibcc_fabric_create, ibcc_twoswitch_build (through the desc's `error`),
   the topology builders (through ibcc_topo's `error`) and the InfiniBand
   fabric loader (its `err` argument) fill it on a refusal: the code they
   return and a one-line reason that names the field and the rule, for
   example "buf_packets 70000: at most 65535" or "links[3]: b_port 9:
   node 12 has 8 ports". `file` and `line` are the loader's (empty and 0
   otherwise). Print it as "file:line: reason" when file is set, else as
   the reason. On success its code is IBCC_OK and its reason empty (the
   loader's: "ok", with the file name). */
typedef struct ibcc_fabric_error {
    ibcc_result code;
    uint32_t line;                  /* 1-based; 0 = no line to blame */
    char file[128];                 /* the name given (truncated) */
    char reason[208];
} ibcc_fabric_error;

/* Virtual lanes of one port, overriding the desc's and the QoS
   settings' (docs/fabric.md "Virtual lanes"). */
typedef struct ibcc_fabric_port_vl {
    uint32_t node, port;
    uint32_t vls;               /* data VLs 1, 2, 4, 8, 15; 0: keep */
    uint32_t sl2vl_set;         /* 1: sl2vl is the port's SL-to-VL table
                                   (at a switch: for every input) */
    uint8_t  sl2vl[16];         /* VL per SL; 15: packets dropped */
    uint32_t vlarb_set;         /* 1: vlarb is the port's VL arbitration */
    ibcc_vlarb_desc vlarb;      /* its vls field is ignored (the link's) */
} ibcc_fabric_port_vl;

/* A switch's SL-to-VL table of one (input port, output port) pair; it
   wins over the output port's table. */
typedef struct ibcc_fabric_sl2vl {
    uint32_t sw, in_port, out_port;
    uint8_t  vl[16];            /* VL per SL; 15: packets dropped */
} ibcc_fabric_sl2vl;

typedef struct ibcc_fabric_desc {
    const ibcc_fabric_node  *nodes;  uint32_t node_count;
    const ibcc_fabric_link  *links;  uint32_t link_count;
    const ibcc_fabric_route *routes; uint32_t route_count;
    const ibcc_fabric_flow  *flows;  uint32_t flow_count;
    const ibcc_fabric_source *sources; uint32_t source_count;
    ibcc_rate link_rate;
    ibcc_time prop_delay;
    ibcc_time fwd_delay;
    uint32_t  fwd_zero;          /* 1: forwarding delay is really 0 */
    uint32_t  data_size;
    uint32_t  buf_packets;       /* data lane, per switch input and host */
    uint32_t  buf_credits;       /* 64-byte units, 0 = packets only */
    uint32_t  ack_buf_packets;   /* ACK/CNP lane, per input */
    ibcc_switch_kind switch_kind;/* switches whose node says 0 */
    uint32_t  speedup;           /* CIOQ crossbar speedup */
    uint32_t  input_fanout;      /* VCT: 1 = an input buffer may send to
                                    several outputs at once (each output
                                    reads its packet on its own, the
                                    switch of [S02]/[S03]); 0 = one packet
                                    at a time per input */
    uint32_t  out_buf_packets;   /* CIOQ output buffer, data lane */
    uint32_t  out_buf_credits;   /* CIOQ output buffer, 64-byte units */
    uint32_t  nic_fifo;          /* 1: one FIFO per host, 0: VOQ */
    uint32_t  slack_bytes;       /* WORMHOLE input slack buffer */
    uint32_t  stop_mark, go_mark;/* WORMHOLE STOP / GO fill levels */
    uint32_t  worm_priority;     /* WORMHOLE: high worms first at switches */
    ibcc_segment_desc segment;   /* WORMHOLE: low-priority segment length
                                    (slack_bytes 0 = the desc's) */
    ibcc_rate host_cap;          /* injection and absorption cap per
                                    host (bytes/s), 0 = none */
    /* Engines (zero fields = the engine's defaults). The fabric fills in
       what the topology fixes: arbiter ports/capacity/can_send; marker
       ports/unit/in_capacity (buffer unit: credits when buf_credits is
       set); cct flows (port_rate 0 = the host's link rate, max_pkt_bytes
       0 = data_size); mvcm flows (ws is required when a flow uses MVCM);
       dest ack_bytes (0 = 20 bytes, [S02] Table I). */
    ibcc_arbiter_desc arbiter;   /* policy, bypass_limit */
    ibcc_marker_desc  marker;    /* engine, classify, t_out, trigger, ... */
    ibcc_law_desc     law;       /* law of IBCC_AGENT_LAW flows */
    ibcc_cct_desc     cct;       /* IBCC_AGENT_CCT flows, one per host */
    ibcc_mvcm_desc    mvcm;      /* IBCC_AGENT_MVCM flows, one per host */
    ibcc_dcqcn_desc   dcqcn;     /* IBCC_AGENT_DCQCN flows (line_rate 0 =
                                    the source host's link rate) */
    ibcc_dest_desc    dest;      /* destination echo rules */
    /* Virtual lanes (docs/fabric.md "Virtual lanes"). A port's settings:
       its port_vls entry, else (qos set and qos->qos TRUE) its type's
       QoS settings through ibcc_qos_port_setting (hosts CA, switch
       ports SWE), else these fields. A link runs the fewer of its two
       ports' VLs (and at most its switch kind's); a port's tables are
       taken to the link's VLs as OpenSM does (VL & (vls - 1)). */
    uint32_t  vls;               /* data VLs per port: 1, 2, 4, 8, 15 */
    uint32_t  sl2vl_set;         /* 1: sl2vl below; 0: OpenSM's default
                                    0,1,...,14,7 */
    uint8_t   sl2vl[16];         /* VL per SL at every port */
    ibcc_vlarb_desc vlarb;       /* every output's VL arbitration (vls
                                    ignored; zero: ibcc_vlarb's defaults
                                    for the link's VLs) */
    const ibcc_qos_config *qos;  /* OpenSM's QoS settings, or NULL */
    const ibcc_fabric_port_vl *port_vls; uint32_t port_vl_count;
    const ibcc_fabric_sl2vl   *sl2vls;   uint32_t sl2vl_count;
    uint32_t  lmc;               /* LID mask control 0..7: every host has
                                    2^lmc LIDs, each with its own routes
                                    (ibcc_fabric_route.lid); 0: one */
    ibcc_time stall;             /* a run that moves no packet for this
                                    long while packets wait in the
                                    network stops (IBCC_ERR_STATE,
                                    ibcc_fabric_last_error names the
                                    blocked channels); 0 = 10 ms */
    ibcc_time bin;
    ibcc_time horizon;
    uint64_t  seed;
    uint32_t  loop_capacity;
    ibcc_fabric_observer  observer;
    ibcc_fabric_allocator allocator;
    ibcc_fabric_error *error;    /* NULL, or filled with the reason of a
                                    refusal (cleared on success) */
} ibcc_fabric_desc;

typedef struct ibcc_fabric ibcc_fabric;

/* Per-flow totals since time 0 (or the last ibcc_fabric_stats_reset).
   Latency = tail delivered - generation (source queueing included). The
   time sums (lat_sum, msg_time_sum) saturate at IBCC_TIME_MAX. */
typedef struct ibcc_fabric_flow_stats {
    uint64_t generated;         /* packets generated (greedy: when sent) */
    uint64_t sent, sent_bytes;  /* packets the source started sending */
    uint64_t delivered, delivered_bytes;
    uint64_t marked;            /* delivered with FECN or MB set */
    uint64_t validated;         /* delivered with VB set (MVPM) */
    uint64_t acks, acks_marked; /* ACKs back at the source, with BECN/MB */
    uint64_t msgs;              /* messages completely delivered */
    ibcc_time msg_time_sum;     /* their completion times (generation to
                                   last tail delivered), summed */
    ibcc_time lat_sum, lat_min, lat_max;
    uint64_t lat_hist[32];      /* latency distribution: bucket k counts
                                   latencies in [2^k, 2^(k+1)) ns (bucket
                                   0 also below 1 ns, 31 also above) */
} ibcc_fabric_flow_stats;

/* Per-class totals (flows with the same `cls`), same definitions, plus a
   fine latency histogram read through ibcc_fabric_latency_quantile. */
typedef struct ibcc_fabric_class_stats {
    uint32_t flows;             /* flows of this class */
    uint64_t generated, sent, delivered, delivered_bytes;
    uint64_t marked, validated, acks, acks_marked;
    uint64_t msgs;
    ibcc_time msg_time_sum, msg_time_max;
    ibcc_time lat_sum, lat_min, lat_max;
} ibcc_fabric_class_stats;

/* Whole-fabric counters. */
typedef struct ibcc_fabric_counters {
    uint64_t injected;          /* packets created (data + ACK) */
    uint64_t delivered;         /* packets consumed at their destination */
    uint64_t in_flight;         /* injected - delivered (includes data
                                   generated and queued at its source) */
    uint64_t hops;              /* link transmissions started */
    uint64_t events;            /* loop events run */
    uint64_t data_delivered;    /* data packets delivered (drives
                                   start_after) */
    uint64_t bytes_sent;        /* data bytes their sources started */
    uint64_t bytes_delivered;   /* data bytes delivered */
    uint64_t bytes_in_network;  /* data bytes sent, not yet delivered:
                                   bytes_sent = bytes_delivered + this */
    uint64_t src_queues;        /* sources' per-destination queues alive
                                   now (their state; see L3 traffic) */
    uint64_t src_queues_peak;   /* ... at most, since time 0 */
    uint64_t src_msgs;          /* messages the sources generated */
} ibcc_fabric_counters;

/* Fills zero fields with defaults; checks ranges (not the topology). */
IBCC_API ibcc_result ibcc_fabric_defaults(ibcc_fabric_desc *d);
/* Validates the topology, routes and flows, allocates and wires the
   fabric at time 0. On error nothing is left allocated and *out = NULL.
   Errors: NULL, RANGE (bad ids/ports, unreachable or looping route,
   unconnected port, port linked twice, a link's prop above
   IBCC_FABRIC_MAX_DELAY), CAPACITY, NOMEM. */
IBCC_API ibcc_result ibcc_fabric_create(ibcc_fabric **out,
                                        const ibcc_fabric_desc *d);
/* Frees everything the fabric allocated (NULL is fine). */
IBCC_API void ibcc_fabric_destroy(ibcc_fabric *f);
/* Runs the model up to time t. Errors: NULL, PAST, RANGE (t above
   IBCC_FABRIC_MAX_TIME), FULL (event heap), STATE (stalled: no packet
   moved for desc.stall while packets waited in the network, a deadlock;
   the fabric stays at the instant it was found, every later run returns
   STATE, and ibcc_fabric_last_error names the blocked channels). */
IBCC_API ibcc_result ibcc_fabric_run_until(ibcc_fabric *f, ibcc_time t);
IBCC_API ibcc_time ibcc_fabric_now(const ibcc_fabric *f);
/* Why the last run stopped with an error (code IBCC_OK and an empty
   reason otherwise): for a stall, "stalled: no packet moved for T ns
   with N packets in the network; blocked: ..." listing channels as
   node:port->node:port and the VL their packets wait on. NULL for a
   NULL f. */
IBCC_API const ibcc_fabric_error *ibcc_fabric_last_error(const ibcc_fabric *f);
/* The fabric's event loop, to add the embedder's own events (the fabric
   uses the loop's end-of-instant hook, ibcc_loop_set_idle: leave it). */
IBCC_API ibcc_loop *ibcc_fabric_loop(ibcc_fabric *f);
/* Packet and credit conservation at the current instant: every injected
   packet is delivered or located (on a wire, in a buffer, in a host
   queue), and on every channel and lane, free credits + credits in use +
   credits returning = capacity (credits sent back when the packet
   started downstream, while its tail still holds the room, counted
   once); every switch's arbiter and marker agree
   with its buffers and no marker rejected an event. IBCC_OK or
   IBCC_ERR_MISMATCH. */
IBCC_API ibcc_result ibcc_fabric_check(const ibcc_fabric *f);
IBCC_API ibcc_result ibcc_fabric_counters_get(const ibcc_fabric *f,
                                              ibcc_fabric_counters *c);
/* The MVCM agents' counters (ibcc_mvcm_stats), summed over the hosts
   (nws_max: the largest); all zero without MVCM flows. Errors: NULL. */
IBCC_API ibcc_result ibcc_fabric_mvcm_stats(const ibcc_fabric *f,
                                            ibcc_mvcm_stats *s);
IBCC_API ibcc_result ibcc_fabric_flow_stats_get(const ibcc_fabric *f,
                                 uint32_t flow, ibcc_fabric_flow_stats *s);
/* Channel leaving (node, port). Errors: NULL, RANGE. */
IBCC_API ibcc_result ibcc_fabric_channel(const ibcc_fabric *f, uint32_t node,
                                         uint32_t port, uint32_t *channel);
/* The marking counters of switch `node` since the fabric's start
   (ibcc_marker_stats summed over its data VLs' engines): input-buffer
   triggers, outputs classified congested, packets marked. Errors: NULL,
   RANGE (node out of range or not a switch). */
IBCC_API ibcc_result ibcc_fabric_marker_stats(const ibcc_fabric *f,
                                 uint32_t node, ibcc_marker_stats *s);
/* The rate law of a LAW flow (its current state, read only), or NULL
   (f NULL, flow out of range, or not a LAW flow). */
IBCC_API const ibcc_law *ibcc_fabric_flow_law(const ibcc_fabric *f,
                                              uint32_t flow);
/* Per-class totals (cls 0..15). Errors: NULL, RANGE. */
IBCC_API ibcc_result ibcc_fabric_class_stats_get(const ibcc_fabric *f,
                                 uint32_t cls, ibcc_fabric_class_stats *s);
/* Latency quantile q (0 < q <= 1) of class cls's delivered packets, from
   a log-linear histogram (16 sub-buckets per power of two: the value
   returned is the upper edge of the bucket holding the quantile, at most
   1/16 above the true value; exact below 16 ps). Errors: NULL, RANGE
   (cls, q), NOT_FOUND (nothing delivered). */
IBCC_API ibcc_result ibcc_fabric_latency_quantile(const ibcc_fabric *f,
                                 uint32_t cls, double q, ibcc_time *lat);
/* Clears flow and class statistics (not the series bins, not the
   counters): what is measured from now on excludes a warm-up. */
IBCC_API ibcc_result ibcc_fabric_stats_reset(ibcc_fabric *f);
/* Messages given to a flow from outside (jobs, traces, an embedder's own
   workload). ibcc_fabric_push generates a message of `bytes` now into a
   PUSH flow's queue, cut into the flow's packets (the last shorter), as
   a RATE flow generates its messages; its latency counts from now.
   Errors: NULL, RANGE (flow, not a PUSH flow, bytes 0 or above 2^48),
   NOMEM. ibcc_fabric_on_message sets the function called when the last
   packet of a message of any flow is delivered (messages of one flow
   complete in the order they were generated), with the flow, the
   message's generation time and now; NULL removes it. It may push. */
typedef void (*ibcc_fabric_msg_fn)(void *user, uint32_t flow,
                                   ibcc_time t_gen, ibcc_time now);
IBCC_API ibcc_result ibcc_fabric_push(ibcc_fabric *f, uint32_t flow,
                                      uint64_t bytes);
IBCC_API ibcc_result ibcc_fabric_on_message(ibcc_fabric *f,
                                            ibcc_fabric_msg_fn fn,
                                            void *user);
/* DELIVERED bytes in [t0, t1) of a flow (data, binned when the tail
   reached the destination) or of a channel (data + ACK that crossed the
   channel, binned when the packet was delivered at its destination), from
   the stats bins: t0 and t1 are rounded down to bins and must lie within
   the horizon. Every packet counted for a flow in a window is counted in
   that window for every channel on its path. Errors: NULL, RANGE. */
IBCC_API ibcc_result ibcc_fabric_flow_bytes(const ibcc_fabric *f,
        uint32_t flow, ibcc_time t0, ibcc_time t1, uint64_t *bytes);
IBCC_API ibcc_result ibcc_fabric_channel_bytes(const ibcc_fabric *f,
        uint32_t channel, ibcc_time t0, ibcc_time t1, uint64_t *bytes);
/* Totals of a channel since time 0 (no bins needed): bytes started on
   it (a packet under way included) and the time its transmitter was
   sending up to now (a packet under way counts up to now, so busy <=
   elapsed; utilisation = busy / elapsed); in a wormhole fabric the
   bytes sent so far and the time they took (a worm stopped by STOP/GO
   holds the link without sending). Either output pointer may be NULL.
   Errors: NULL (f), RANGE (channel). */
IBCC_API ibcc_result ibcc_fabric_channel_totals(const ibcc_fabric *f,
        uint32_t channel, uint64_t *bytes, ibcc_time *busy);
/* Sliding-window rate in bytes/s of a flow (what = IBCC_FABRIC_FLOW, data
   delivered) or a channel (IBCC_FABRIC_CHANNEL, everything delivered
   across it) over the
   window of `width` centred on `center`: bytes whose first bit left in
   [center - width/2, center + width/2), bin-aligned, divided by the
   aligned window length. Errors: NULL, RANGE (unknown what or id, width
   below one bin, window outside [0, horizon]). */
typedef enum ibcc_fabric_what {
    IBCC_FABRIC_FLOW    = 0,
    IBCC_FABRIC_CHANNEL = 1
} ibcc_fabric_what;
IBCC_API ibcc_result ibcc_fabric_rate(const ibcc_fabric *f, ibcc_fabric_what what,
        uint32_t id, ibcc_time center, ibcc_time width, double *bytes_per_s);
/* Jain's fairness index (sum x)^2 / (n sum x^2); 1 when all equal;
   returns 1 for n == 0 or all zero. */
IBCC_API double ibcc_jain(const double *x, uint32_t n);
/* Totals of source `source` since time 0 (or the last
   ibcc_fabric_stats_reset), over all its destinations, with the
   definitions of ibcc_fabric_flow_stats. Errors: NULL, RANGE. */
IBCC_API ibcc_result ibcc_fabric_source_stats_get(const ibcc_fabric *f,
                                 uint32_t source, ibcc_fabric_flow_stats *s);
/* Asks a GEN source's generator again now (after its `next` returned 0:
   a step's dependencies arrived), at the end of the current instant's
   events of the embedder; safe from an observer callback. Nothing
   happens while the source waits for a message it was already given or
   has stopped. Errors: NULL, RANGE (no such source). */
IBCC_API ibcc_result ibcc_fabric_source_kick(ibcc_fabric *f, uint32_t source);

/* ==== L3 traffic patterns ==============================================
   Two ways to describe traffic. A flow (ibcc_fabric_flow) is one
   (source, destination) pair with its own queue, agent state, random
   stream and statistics, for the life of the fabric. A source
   (ibcc_fabric_source) is one host's generator: its traffic state grows
   with hosts and messages in flight, not with host pairs.

   Sources. The fabric asks a source one question, "next message: when,
   to whom, how big, which class" (ibcc_fabric_msg), once at its start
   and again each time the answered message has been generated:
     UNIFORM   POISSON (or RATE) arrivals at flow.offered bytes/s; each
               message goes to a host of `hosts` drawn uniformly (the
               source's own host excluded); the same traffic as one flow
               per pair at offered/(n-1) each, since splitting a Poisson
               process by independent random choices gives independent
               Poisson processes (tests/test_sources.c checks loads,
               shares and latency distributions against the pair flows)
     ALLTOALL  messages to the other hosts of `hosts` in shift order
               (from the source's place in `hosts`: +1, +2, ..., wrapping),
               round after round, at POISSON or RATE arrivals, or GREEDY:
               every message of `messages` (0: one round) at flow.start
     GEN       the embedder's `next(user, source, now, &msg)`: 1 and the
               message, or 0 for none now; ibcc_fabric_source_kick makes
               the fabric ask again (a step whose messages have arrived).
               A message to a node that is no host or is the source's,
               of 0 bytes or of a class above 15, or whose route (either
               way) fails, stops the run: ibcc_fabric_run_until returns
               RANGE. `next` must not create, run or destroy the fabric
   Message length: msg.bytes (UNIFORM/ALLTOALL: flow.msg_bytes, with
   msg_exp exponential, 0 = one packet of flow.size). Random draws come
   from a stream of the source's own, derived from (seed, source index).
   Each message goes into the source's queue for its destination (VOQ:
   the host serves its queues in round robin, or nic_fifo in generation
   order). That queue and its source agent's state (the flow template's
   agent and window) are created when a message for a destination finds
   none, and released when the queue is empty, none of its packets or
   ACKs is in the network, and its agent is at rest (ibcc_fagent_'s
   `idle`: a pacer that may send now; a law at its full rate); a state
   not at rest stays until it is reused or found at rest later. State is
   per pair only where the agent keeps state per pair: a CCT agent in
   per-SL mode (cct.per_sl) shares one CCTI per SL among all of a
   source's queues. Refused for sources: a CCT agent in per-QP mode and
   MVCM (their host engines have a fixed flow count), ONOFF traffic,
   start_after, persistent, a packet limit, a WORMHOLE fabric, and
   SL-to-VL tables that spread data over several VLs or drop an SL.
   Statistics: per class as for flows, per source
   (ibcc_fabric_source_stats_get), per packet through the observer (its
   view names source, src, dst and the message id; `last` marks a
   message's last packet, delivered in order); counters count the live
   per-destination queues (src_queues, src_queues_peak).

   Flow helpers fill a flow array for the common patterns over host node
   indices. Each writes its flows to out[0 .. *n) (all other fields zero:
   agent NONE, no window, cls 0, start 0, size 0 = desc.data_size; set
   them afterwards) and returns IBCC_OK, or CAPACITY with *n = the flows
   it needs when cap is too small (out may then be NULL), NULL, RANGE.
   uniform      every host generates Poisson arrivals of `per_host` bytes/s
                to uniformly random other hosts: written as nh*(nh-1)
                POISSON flows of per_host/(nh-1) each (splitting a Poisson
                process by independent random choices gives independent
                Poisson processes, so the two are the same traffic)
   permutation  a random cyclic permutation (Sattolo's shuffle from
                `seed`): every host sends greedily to one other host and
                receives from one
   incast       every source sends greedily to dst
   hotspot      every source sends `packets` packets to dst at `offered`
                bytes/s (RATE), starting once the network has delivered
                start_after data packets (0: at the flows' start time) */
IBCC_API ibcc_result ibcc_traffic_uniform(const uint32_t *hosts, uint32_t nh,
        ibcc_rate per_host, ibcc_fabric_flow *out, uint32_t cap, uint32_t *n);
IBCC_API ibcc_result ibcc_traffic_permutation(const uint32_t *hosts,
        uint32_t nh, uint64_t seed, ibcc_fabric_flow *out, uint32_t cap,
        uint32_t *n);
IBCC_API ibcc_result ibcc_traffic_incast(const uint32_t *sources, uint32_t ns,
        uint32_t dst, ibcc_fabric_flow *out, uint32_t cap, uint32_t *n);
IBCC_API ibcc_result ibcc_traffic_hotspot(const uint32_t *sources,
        uint32_t ns, uint32_t dst, uint64_t packets, ibcc_rate offered,
        uint64_t start_after, ibcc_fabric_flow *out, uint32_t cap,
        uint32_t *n);
/* Source helper: one UNIFORM source per host of `hosts` (nh >= 2), each
   POISSON at per_host bytes/s to the others (the per-source form of
   ibcc_traffic_uniform: the same traffic); out[0 .. nh) point at `hosts`
   (it must outlive the fabric's creation), other fields as above.
   Errors: NULL, RANGE, CAPACITY (cap < nh; *n = nh). */
IBCC_API ibcc_result ibcc_traffic_uniform_sources(const uint32_t *hosts,
        uint32_t nh, ibcc_rate per_host, ibcc_fabric_source *out,
        uint32_t cap, uint32_t *n);

/* ==== L3 jobs ===========================================================
   Jobs on the fabric: a job is a set of ranks placed on hosts (rank r on
   host node hosts[r], ibcc_place) running a collective (L2 coll) or a
   trace, each step released when the messages it waits for have been
   delivered, several jobs at once. A job's messages travel on flows of
   PUSH traffic, one per (source rank, destination rank, class) it uses,
   made by ibcc_jobs_flows from a template (agent, window, packet size;
   the fabric's source agents and congestion control apply to them as
   to any flow); the jobs keep only per-rank progress and the messages
   in flight. Use:
       ibcc_jobs_flows(jobs, n, NULL, 0, &nf);   -> CAPACITY, nf
       ... append nf flows after the fabric's own (first index ff) ...
       ibcc_fabric_create(&f, &desc);
       ibcc_jobs_create(&js, f, jobs, n, ff, &err);
       ibcc_fabric_run_until(f, t);   then ibcc_jobs_stats per job
   The jobs take the fabric's message hook (ibcc_fabric_on_message).
   Metrics (docs/jobs.md): a job's completion time is the delivery of its
   last message minus its start; each message's completion time runs
   from its release (its step started) to the delivery of its last byte,
   with quantiles from a log-linear histogram as the fabric's latency
   quantiles. The ideal time of a job (alone on an idle fabric) is the
   same job run alone: its slowdown is the ratio of the two.

   Trace text (one message a line; '#' starts a comment; docs/jobs.md):
       ibcc-trace 1                        first line other than comments
       ranks 16                            optional, before the messages
       <id> <src> <dst> <bytes> [sl=<0..15>] [at=<time>] [after=<id>,...]
   ids are strictly increasing (numbers below 2^63), src and dst ranks
   differ, bytes 1 .. 2^48; `after` lists earlier ids whose delivery the
   message waits for (up to 65535); `at` is the release time after the
   job's start (no `after`) or after the last of its dependencies
   (default 0); times are a decimal number and a unit: ps, ns, us, ms or
   s (e.g. 2.5us). The reader reports the first error with its line.
   Defaults (ibcc_job_desc):
   | field   | default      | range                                     |
   | coll    | kind 0: trace| ibcc_coll_desc (a collective)             |
   | trace   | NULL         | a parsed trace when coll.kind is 0        |
   | hosts   | (required)   | ranks host node ids                       |
   | start   | 0            | 0 .. IBCC_FABRIC_MAX_TIME                 |
   | cls     | 0            | 0 .. 15: a collective's flow class (a     |
   |         |              | trace's messages: their sl, as the flow's |
   |         |              | sl and cls)                               |
   | flow    | zero         | template: size, agent, window, rate,      |
   |         |              | persistent, prio (src, dst, traffic, cls, |
   |         |              | start are set by ibcc_jobs_flows)         |
   ====================================================================== */
typedef struct ibcc_trace_msg {
    uint64_t id;                /* as in the text */
    uint32_t src, dst;          /* ranks */
    uint64_t bytes;
    uint32_t sl;                /* 0..15: the flow class of its flow */
    uint32_t ndeps, first;      /* its dependencies: deps[first ..
                                   first + ndeps), indices of earlier
                                   messages */
    ibcc_time at;               /* release after the start or after the
                                   last dependency */
} ibcc_trace_msg;

typedef struct ibcc_trace {
    ibcc_trace_msg *msgs;       /* caller memory, msg_cap entries */
    uint32_t *deps;             /* caller memory, dep_cap entries */
    uint32_t msg_cap, dep_cap;
    uint32_t count, ndeps;      /* messages and dependency entries read
                                   (needed, on CAPACITY) */
    uint32_t ranks;             /* the header's, or highest rank + 1 */
} ibcc_trace;

#ifndef IBCC_NO_STDIO
/* Reads a trace text of len bytes into t (its msgs, deps and caps set by
   the caller; both may be NULL with caps 0 to count). `name` is the file
   name for errors. Errors (err filled: file, line, reason): NULL, PARSE
   (malformed line, unknown key, missing header), RANGE (a value out of
   its range, an id not above the previous one, a dependency on an id
   not yet read, a rank not below the header's ranks), CAPACITY (more
   messages or dependencies than the caps: t->count and t->ndeps are the
   needs; dependencies are resolved only when the messages fit). */
IBCC_API ibcc_result ibcc_trace_parse(ibcc_trace *t, const char *text,
        size_t len, const char *name, ibcc_fabric_error *err);
#endif

typedef struct ibcc_job_desc {
    ibcc_coll_desc coll;
    const ibcc_trace *trace;
    const uint32_t *hosts;
    ibcc_time start;
    uint32_t cls;
    ibcc_fabric_flow flow;
} ibcc_job_desc;

typedef struct ibcc_jobs ibcc_jobs;

/* Per job, since the fabric's start. */
typedef struct ibcc_job_stats {
    uint64_t messages;          /* in the job */
    uint64_t released;          /* given to the fabric so far */
    uint64_t delivered;         /* completely delivered */
    uint64_t bytes;             /* their bytes */
    ibcc_time start;            /* the desc's start */
    ibcc_time end;              /* last message delivered (0: not yet) */
    ibcc_time completion;       /* end - start (0: not yet) */
    ibcc_time msg_min, msg_max; /* per-message completion times */
    ibcc_time msg_sum;          /* (saturating) */
} ibcc_job_stats;

/* The flows n jobs need, in a fixed order (job by job, then by source
   rank, destination rank and class): out[0 .. *count) when cap holds
   them, else CAPACITY with *count (out may then be NULL). Errors: NULL,
   RANGE (a desc: coll, trace, hosts, cls; err filled), NOMEM. */
IBCC_API ibcc_result ibcc_jobs_flows(const ibcc_job_desc *jobs, uint32_t n,
        ibcc_fabric_flow *out, uint32_t cap, uint32_t *count,
        ibcc_fabric_error *err);
/* Attaches n jobs to fabric f whose flows first_flow .. are those of
   ibcc_jobs_flows (checked: MISMATCH otherwise) at the fabric's current
   time, before any job's start; the descs (and traces, hosts) are copied.
   Errors: NULL, RANGE, MISMATCH, PAST (a start before now), NOMEM. */
IBCC_API ibcc_result ibcc_jobs_create(ibcc_jobs **out, ibcc_fabric *f,
        const ibcc_job_desc *jobs, uint32_t n, uint32_t first_flow,
        ibcc_fabric_error *err);
/* Detaches from the fabric (its message hook) and frees (NULL: fine). */
IBCC_API void ibcc_jobs_destroy(ibcc_jobs *js);
/* Errors: NULL, RANGE (job); the first internal error (NOMEM, FULL) of
   the jobs once they failed to release a message. */
IBCC_API ibcc_result ibcc_jobs_stats(const ibcc_jobs *js, uint32_t job,
        ibcc_job_stats *s);
/* Quantile q (0 < q <= 1) of a job's per-message completion times (the
   upper edge of its histogram bucket, at most 1/16 above the true
   value). Errors: NULL, RANGE, NOT_FOUND (nothing delivered). */
IBCC_API ibcc_result ibcc_jobs_msg_quantile(const ibcc_jobs *js,
        uint32_t job, double q, ibcc_time *t);
/* 1 when every job's messages are all delivered. */
IBCC_API int ibcc_jobs_done(const ibcc_jobs *js);

/* ==== L3 topologies ===================================================
   The builders below (k-ary n-tree, k-ary n-fly, mesh, torus,
   dragonfly) and the two-switch builder after them.
   ---- topology builders ------------------------------------------------
   Build a topology as data (nodes, links, static routes) for the fabric,
   with deterministic up/down routing (the router the fabric loader's
   ibcc_ibfabric_updown uses too; docs/topologies.md, "Up/down routes"):
   a route may climb toward the root and then descend, never descend and
   climb again, so the channel dependency graph has no cycle and the
   routing cannot deadlock. A switch sends a packet down as soon as its
   destination is reachable downwards (minimum hops among such routes);
   climbing, it takes among the c up ports that lead closest the one
   numbered (digit s of d + the top digit of the switch's index within its
   stage) mod c at tree stage s (d mod c in a mesh or torus), which
   spreads destinations evenly over the upper stages in both tree wirings
   (destination-mod-k).
   Hosts are nodes 0 .. host_count-1 (host i = node i); switches follow.
   `rank` orders the nodes for up/down: a link from a to b goes up when
   (rank[b], -b) > (rank[a], -a). Routes are listed by destination host,
   then by switch.
     fattree  k-ary n-tree: k^n hosts, n stages of k^(n-1) switches of 2k
              ports (the top stage k), ports 0..k-1 down, k..2k-1 up.
              Switch (s, w) (stage s, 0 = leaves; w = digits w_0..w_{n-2}
              base k) is node k^n + s*k^(n-1) + w; host p hangs on leaf
              p / k, port p mod k; up port k+j of (s, w) goes to (s+1, w
              with digit s set to j), down port w_s.
     nfly     k-ary n-fly bidirectional MIN: the same switches and port
              numbering, stages wired by the perfect k-shuffle: up port j
              of (s, w) is link x = w*k + j, which enters stage s+1 at
              switch x'/k, down port x' mod k, x' = x rotated left by one
              base-k digit ([F]'s BMIN).
     mesh     x*y switches (node host_count + y_index*x + x_index), each with
              `hps` hosts on ports 0..hps-1 and neighbours on ports hps+0
              (+x), hps+1 (-x), hps+2 (+y), hps+3 (-y); with torus != 0 the
              edges wrap (a dimension of 2 or less has no extra wrap link).
              Up/down from switch `root` (0 .. x*y-1): rank = minus the
              hop distance from it. Host h sits on switch h / hps, port h
              mod hps.
   Every builder allocates through `al` (NULL or zero functions: malloc)
   and fills *t; ibcc_topo_free releases it. Errors: NULL, RANGE (k < 2,
   n < 1, x or y < 1, hps < 1, root out of range), CAPACITY (over 2^20
   hosts or switches, a switch over 256 ports), NOMEM; on a refusal
   t->error holds the reason (ibcc_fabric_error; the rest of *t is
   zero). */
typedef struct ibcc_topo {
    ibcc_fabric_node  *nodes;   uint32_t node_count;
    ibcc_fabric_link  *links;   uint32_t link_count;
    ibcc_fabric_route *routes;  uint32_t route_count;
    uint32_t host_count;        /* hosts are nodes 0 .. host_count-1 */
    uint32_t radix;             /* k of a tree builder, 0 otherwise */
    uint32_t *rank;             /* node_count entries (up/down order) */
    ibcc_fabric_allocator al;
    ibcc_fabric_error error;    /* a builder's refusal: its reason */
    /* routing with virtual lanes (ibcc_topo_mesh_dor, dragonfly) */
    uint32_t routing;           /* IBCC_TOPO_UPDOWN, _DOR or _MINIMAL */
    uint32_t vls;               /* data VLs the routes need (1: one) */
    uint32_t sl_bits;           /* low SL bits the routing picks per
                                   path (the rest: the traffic class) */
    uint32_t x, y, hps;         /* mesh, torus: the builder's arguments */
    int torus;
    uint32_t sl2vl_set;         /* 1: sl2vl is every port's table */
    uint8_t sl2vl[16];
    ibcc_fabric_sl2vl *sl2vls;  /* switch (input, output) tables */
    uint32_t sl2vl_count;
} ibcc_topo;

#define IBCC_TOPO_UPDOWN  0u    /* up/down (the builders' default) */
#define IBCC_TOPO_DOR     1u    /* dimension order (mesh, torus) */
#define IBCC_TOPO_MINIMAL 2u    /* dragonfly: local, global, local */
#define IBCC_TOPO_VALIANT 3u    /* dragonfly: via a random group */

IBCC_API ibcc_result ibcc_topo_fattree(ibcc_topo *t, uint32_t k, uint32_t n,
                                       const ibcc_fabric_allocator *al);
IBCC_API ibcc_result ibcc_topo_nfly(ibcc_topo *t, uint32_t k, uint32_t n,
                                    const ibcc_fabric_allocator *al);
IBCC_API ibcc_result ibcc_topo_mesh(ibcc_topo *t, uint32_t x, uint32_t y,
                                    uint32_t hps, int torus, uint32_t root,
                                    const ibcc_fabric_allocator *al);
/* Dimension-order routing on a mesh or torus of the same shape and
   numbering as ibcc_topo_mesh: a packet first moves along x to its
   destination's column, then along y, each the shorter way round a
   torus ring (a tie: +). A torus ring of 4 or more switches has a
   dateline, its wrap link (from the last switch to the first, and
   back): as OpenSM's torus-2QoS routing engine does, the SL of a path
   says which datelines it crosses, bit 0 the x ring's, bit 1 the y
   ring's (sl_bits of them, the rings of 4 or more), and the VLs follow
   the SL: OpenSM's default SL-to-VL (VL = SL & (vls - 1)) keeps those
   bits when the ports run 2^sl_bits VLs or more (t->vls), so a path
   that crosses a dateline runs its whole ring on a VL that no path
   that does not cross uses. With minimal routes no dateline crosser
   covers the whole ring, and the channel dependency graph has no
   cycle (the tests check it per builder with
   ibcc_fabric_credit_loops_sl and ibcc_topo_path_sls). torus-2QoS
   maps a port of direction d to one VL bit (SL bit d); this builder
   keeps both bits as the VL for the whole path, because the fabric
   sends all packets of an input VL out of an output on one VL. A mesh
   needs no VL (sl_bits 0). Host i is on switch i / hps; t->rank is the
   up/down order from switch 0 (unused by these routes). Errors: those
   of ibcc_topo_mesh (root aside). */
IBCC_API ibcc_result ibcc_topo_mesh_dor(ibcc_topo *t, uint32_t x, uint32_t y,
                                        uint32_t hps, int torus,
                                        const ibcc_fabric_allocator *al);
/* Dragonfly (Kim, Dally, Scott and Abts, "Technology-driven, highly-
   scalable dragonfly topology", ISCA 2008): g groups of a switches; each
   switch has p hosts (ports 0..p-1), a link to every other switch of its
   group (ports p..p+a-2: port p+j goes to switch j, or j+1 when j is at
   or past its own index) and h global links (ports p+a-1..p+a+h-2). The
   balanced configuration is a = 2p = 2h; at most g = a*h + 1 groups,
   every pair joined by one global link. Global link k (0..a*h-1) of a
   group is port p+a-1 + k mod h of its switch k / h; group i's link k
   (k < g - 1) goes to group (i + k + 1) mod g, where it is that group's
   link g - 2 - k (so link k of every group points k + 1 groups ahead;
   links k >= g - 1 stay unused). Node order: hosts (group, switch, port)
   first, then switches, switch j of group i being node H + i*a + j.
   routing: IBCC_TOPO_MINIMAL: a local hop to the switch holding the
   global link to the destination's group, that link, a local hop to the
   destination's switch (at most 3 switch-to-switch hops). VLs (vls 1, 2,
   4 or 8): a packet of SL s runs on VL 2s before its global hop and
   2s + 1 from the global hop's next switch on (both & (vls - 1)): the
   desc's sl2vl gives the first, a switch (input, output) table from
   every global port to every local port the second, so with 2 VLs or
   more the channel dependency graph has no cycle (vls 1: every SL on VL
   0, and the graph has loops). IBCC_TOPO_VALIANT (a random intermediate
   group per packet) is refused (UNSUPPORTED): the fabric routes by
   destination host only, while InfiniBand takes Valiant routes from
   several LIDs per port (LMC), each its own table entry, and the fabric
   has one address per host. Errors: RANGE (a, p or h 0, g < 2 or over
   a*h + 1, vls not 1, 2, 4 or 8, an unknown routing), CAPACITY (over
   2^20 hosts or switches, a switch over 256 ports), UNSUPPORTED, NOMEM;
   t->error holds the reason. */
IBCC_API ibcc_result ibcc_topo_dragonfly(ibcc_topo *t, uint32_t a,
                                         uint32_t p, uint32_t h, uint32_t g,
                                         uint32_t routing, uint32_t vls,
                                         const ibcc_fabric_allocator *al);
/* The SLs (bit s: SL s) a path from host src to host dst may take under
   t's routing: with sl_bits > 0 the SLs whose low sl_bits bits are the
   ones the path needs, else all 16. Its signature fits
   ibcc_credit_loops_sls.pair with user = t. 0 for nodes that are not
   hosts. */
IBCC_API uint32_t ibcc_topo_path_sls(void *t, uint32_t src, uint32_t dst);
/* The SL a path from src to dst takes for traffic class cls: cls above
   the routing's bits, the path's bits below (cls < 16 >> sl_bits, else
   IBCC_FABRIC_NONE). */
IBCC_API uint32_t ibcc_topo_path_sl(const ibcc_topo *t, uint32_t src,
                                    uint32_t dst, uint32_t cls);
/* Points d's nodes, links and routes at t (t must outlive the fabric's
   creation). A topology whose routes need VLs (t->vls > 1) raises
   d->vls to t->vls when lower, and one with tables of its own (the
   dragonfly) sets d's sl2vl and sl2vls to them. Errors: NULL. */
IBCC_API ibcc_result ibcc_topo_apply(const ibcc_topo *t, ibcc_fabric_desc *d);
/* Frees what a builder allocated (a zeroed or NULL topo is fine). */
IBCC_API void ibcc_topo_free(ibcc_topo *t);

/* ---- credit loops: the channel dependency graph of static routes -------
   A lossless fabric deadlocks when its routes let packets wait on each
   other in a cycle: a packet holding buffer space behind channel c waits
   for channel c' at the next switch, whose packets wait for c'', ... back
   to c (a credit loop). ibcc_fabric_credit_loops builds the channel
   dependency graph of a desc's topology and routes (Dally and Seitz's
   condition: routing is deadlock-free when this graph has no cycle): one
   vertex per channel between two switches, an edge c -> c' when some
   packet for some destination host arrives at a switch on c and leaves on
   c'. Only dependencies that traffic can exercise count: for each
   destination the walk starts at every switch that has a host other than
   the destination and follows the routes. Channels from or to a host
   cannot be on a cycle and are left out.
     loops         cyclic strongly connected components of the graph (0:
                   the routes cannot deadlock); each is a set of channels
                   that can wait on each other in a circle
     loop_channels channels inside those components
     channels      switch-to-switch channels; dependencies: distinct edges
     cycle         one loop's channels in the order packets cross them
                   (the shortest cycle through the lowest-numbered channel
                   of the lowest-numbered cyclic component), cycle_len of
                   them (the first IBCC_CYCLE_SHOW listed when longer)
     unrouted      (switch, destination) pairs that traffic reaches and
                   that have no route or a route into an unconnected port
                   or back to another host (not a dependency: the fabric
                   refuses such routes when it is created)
     vls           VLs per channel in the graph (the most any link runs)
     cycle_vl      the VL of each channel of `cycle`
   A channel is numbered as the fabric numbers it: 2*i carries link i's
   a->b, 2*i+1 its b->a.
   Virtual lanes: a vertex is a (channel, VL) pair. When d sets VLs
   (vls > 1, sl2vl_set, qos TRUE, port_vls or sl2vls), a packet's VL on
   each channel is the one the fabric gives it (the same resolution of
   SL to VL per (input port, output port), the host's port table at the
   source; an SL a table drops makes no dependency beyond), and the edge
   is (c, v) -> (c', v'). Without VL settings every SL is on VL 0 and the
   graph is the channels' (vls 1). ibcc_fabric_credit_loops takes every
   SL 0..15 from every host to every other host (SLs the tables treat
   alike are walked once); ibcc_fabric_credit_loops_sl takes the SLs
   `sls` names: `mask` (bit s: SL s; 0: all 16) for every pair, or, with
   `pair` set, the SLs pair(user, src, dst) returns (a mask, ANDed with
   `mask`) for each source and destination host (the SL a subnet manager
   would answer for that path; cost O(hosts^2 * hops)). Cost otherwise
   O(destinations * SL classes * (hosts + channels * VLs)).
   Errors: NULL, RANGE (a link or route naming a node or port that does not
   exist, a mask over 16 bits, VL settings the fabric refuses; d->error,
   when set, holds the reason), CAPACITY, NOMEM. */
#define IBCC_CYCLE_SHOW 64u
typedef struct ibcc_credit_loops {
    uint32_t loops, loop_channels;
    uint32_t channels, dependencies;
    uint32_t cycle_len;
    uint32_t cycle[IBCC_CYCLE_SHOW];
    uint64_t unrouted;
    uint32_t vls;
    uint8_t  cycle_vl[IBCC_CYCLE_SHOW];
} ibcc_credit_loops;
typedef struct ibcc_credit_loops_sls {
    uint32_t mask;
    uint32_t (*pair)(void *user, uint32_t src, uint32_t dst);
    void *user;
    /* with LMC > 0: the SLs for the path to LID lid of dst (wins over
       pair when set; ibcc_topo_path_sls_lid fits it) */
    uint32_t (*pair_lid)(void *user, uint32_t src, uint32_t dst,
                         uint32_t lid);
} ibcc_credit_loops_sls;
IBCC_API ibcc_result ibcc_fabric_credit_loops(const ibcc_fabric_desc *d,
        ibcc_credit_loops *out, const ibcc_fabric_allocator *al);
IBCC_API ibcc_result ibcc_fabric_credit_loops_sl(const ibcc_fabric_desc *d,
        const ibcc_credit_loops_sls *sls, ibcc_credit_loops *out,
        const ibcc_fabric_allocator *al);

/* ---- two-switch topology builder ([S02] [S03]) -------------------------
   Switch A: remote sources A1..AR and victim source AV; switch B: local
   sources B1..BL, congested destination BC and victim destination BV; one
   inter-switch link (ISL). Node order: A, B, A1..AR, AV, B1..BL, BC, BV.
   Flows: L local (B_i -> BC, cls 0), R remote (A_i -> BC, cls 1), then the
   victim AV -> BV (cls 2); all greedy, agent NONE, active from 0 (the
   caller edits them). Ports: A: 0..R-1 remotes, R victim, R+1 ISL; B:
   0..L-1 locals, L BC, L+1 BV, L+2 ISL. */
#define IBCC_TWOSWITCH_MAX 64u
#define IBCC_TS_LOCAL  0u
#define IBCC_TS_REMOTE 1u
#define IBCC_TS_VICTIM 2u
typedef struct ibcc_twoswitch {
    uint32_t L, R;
    uint32_t sw_a, sw_b, bc, bv, av;
    uint32_t isl_channel;       /* A -> B */
    uint32_t root_channel;      /* B -> BC */
    uint32_t victim_channel;    /* B -> BV */
    ibcc_fabric_node  nodes[2u * IBCC_TWOSWITCH_MAX + 5u];
    ibcc_fabric_link  links[2u * IBCC_TWOSWITCH_MAX + 4u];
    ibcc_fabric_route routes[2u * (2u * IBCC_TWOSWITCH_MAX + 3u)];
    ibcc_fabric_flow  flows[2u * IBCC_TWOSWITCH_MAX + 1u];
    uint32_t node_count, link_count, route_count, flow_count;
} ibcc_twoswitch;

/* Builds the topology for L local and R remote sources (1..64 each) and
   points d's topology fields at ts. Errors: NULL, RANGE. */
IBCC_API ibcc_result ibcc_twoswitch_build(ibcc_twoswitch *ts, uint32_t L,
                                          uint32_t R, ibcc_fabric_desc *d);

/* ==== L3 InfiniBand loader =============================================
   Reads a real InfiniBand subnet: the topology text `ibnetdiscover` prints
   (or ibdiagnet's ibdiagnet2.lst / .db_csv, below) and, optionally, the
   unicast linear forwarding tables (LFTs) OpenSM dumps
   (opensm-lfts.dump), `ibroute` / `dump_lfts` print or ibdiagnet writes
   (ibdiagnet2.fdbs); without
   LFTs it computes up/down routes. The result is ready for an
   ibcc_fabric_desc (ibcc_ibfabric_to_desc) plus each host's name, GUIDs
   and LID so that a caller can define flows by name. docs/topologies.md
   ("Loading a real fabric") gives the formats and every rule.

   Nodes: every switch (its port count from the header; IB port p is
   fabric port p - 1; port 0, the management port, carries no link) in
   file order, then one host per connected channel-adapter port (Ca and
   Rt nodes) in file order: a two-port CA cabled twice is two hosts,
   named "<description>/P<port>"; a CA with one connected port is named
   by its description. Links: each cable once, whichever side lists it;
   its rate from the width x speed token (1x/2x/4x/8x/12x times SDR 2,
   DDR 4, QDR 8, FDR10 10, FDR 64/66 x 14.0625, EDR 25, HDR 50, NDR 100
   Gbit/s of data per lane), 0 (= desc.link_rate) without one.

   Errors: every function returns IBCC_OK or an IBCC_ERR_* code and, when
   `err` is not NULL, fills it: the code, the file name given, the 1-based
   line (0 when no single line is to blame) and a one-line reason; print
   it as "file:line: reason". Bad input never crashes: loops over text and
   tables are bounded, nothing recurses.
     PARSE      a line of no accepted form
     RANGE      a port beyond its node's ports, a count out of range, a
                route to port 0 or a port with no link, a route into a
                loop or to another host
     MISMATCH   a port linked twice or a cable the two sides disagree on,
                a GUID or LID declared twice, a second table for a switch
     NOT_FOUND  a link to a node never declared, a table of an unknown
                switch, a host LID a reached switch does not route, a
                switch with no table, no legal up/down path
     CAPACITY   more than 2^20 nodes, switches x hosts above 2^26, more
                than 2^24 routes; NOMEM, NULL; STATE (no topology loaded). */
#define IBCC_IBF_NAME 64u           /* description bytes kept, with NUL */
/* The loader's errors use the fabric's error record (ibcc_fabric_error,
   above): file and line say where in the text. */
typedef ibcc_fabric_error ibcc_ibfabric_error;

typedef struct ibcc_ibfabric_host {
    uint32_t node;                  /* fabric node index */
    uint32_t lid, lmc;              /* base LID (0 = none assigned), LMC */
    uint32_t ca_port;               /* port number on its adapter */
    uint64_t node_guid, port_guid;
    uint32_t line;                  /* its Ca/Rt line in the topology */
    char name[IBCC_IBF_NAME];
} ibcc_ibfabric_host;

typedef struct ibcc_ibfabric_switch {
    uint32_t node;                  /* fabric node index */
    uint32_t lid;                   /* port 0 LID (0 = none assigned) */
    uint32_t ports;                 /* IB ports 1..ports */
    uint32_t rank;                  /* up/down rank (0 = a root), set by
                                       ibcc_ibfabric_updown */
    uint64_t guid;
    uint32_t line;                  /* its Switch line in the topology */
    uint32_t lft_line;              /* its table's header line, 0 = none */
    char name[IBCC_IBF_NAME];
} ibcc_ibfabric_switch;

typedef enum ibcc_ibf_routing {
    IBCC_IBF_ROUTES_NONE   = 0,
    IBCC_IBF_ROUTES_LFT    = 1,     /* from forwarding tables */
    IBCC_IBF_ROUTES_UPDOWN = 2      /* computed */
} ibcc_ibf_routing;
typedef struct ibcc_ibfabric {
    ibcc_fabric_node  *nodes;  uint32_t node_count;
    ibcc_fabric_link  *links;  uint32_t link_count;
    ibcc_fabric_route *routes; uint32_t route_count;
    uint32_t *route_line;           /* per route: its LFT line (0 computed) */
    ibcc_ibfabric_host   *hosts;    uint32_t host_count;
    ibcc_ibfabric_switch *switches; uint32_t switch_count;
    uint32_t isl_count;             /* links between two switches */
    ibcc_ibf_routing routing;       /* IBCC_IBF_ROUTES_* */
    uint32_t roots;                 /* up/down: switches of rank 0 */
    uint32_t line_count;            /* lines of the topology text */
    char topo_file[128], lft_file[128];
    ibcc_fabric_allocator allocator;
} ibcc_ibfabric;

/* Parses ibnetdiscover text (len bytes, NUL not needed) into *f, which
   it zeroes first; `file` names it in errors (NULL: "(topology)"); al may
   be NULL (malloc/free). On error *f holds nothing (nothing to free). */
IBCC_API ibcc_result ibcc_ibfabric_parse(ibcc_ibfabric *f, const char *text,
        size_t len, const char *file, const ibcc_fabric_allocator *al,
        ibcc_ibfabric_error *err);
/* Reads LFT text into f's routes (replacing any) and checks them with
   ibcc_ibfabric_check; on error f has no routes. Entries for switch LIDs
   and LIDs of no host are read and ignored; a host is reached by its
   base LID; port 255 means "no entry". */
IBCC_API ibcc_result ibcc_ibfabric_lfts(ibcc_ibfabric *f, const char *text,
        size_t len, const char *file, ibcc_ibfabric_error *err);
/* Computes deadlock-free up/down routes (replacing any): roots are the
   switches farthest from every host, rank = hops from the nearest root,
   a link goes up toward the lower (rank, GUID); where that leaves a pair
   without a legal path, the single root of lowest GUID among them is
   used instead. The routes are the topology builders' router's
   (docs/topologies.md, "Up/down routes"): a switch that can reach the
   destination going only down routes down on a shortest down path, any
   other goes up toward the nearest such switch; among equal next hops
   (sorted by port) the one at (destination host index mod count).
   Checked like LFT routes. */
IBCC_API ibcc_result ibcc_ibfabric_updown(ibcc_ibfabric *f,
                                          ibcc_ibfabric_error *err);
/* Follows the route from every host to every other host: it must reach
   the destination without a loop, a missing entry or a port with no
   link. *pairs_ok (may be NULL) = the (source, destination) pairs that
   arrive: host_count * (host_count - 1) on success. */
IBCC_API ibcc_result ibcc_ibfabric_check(const ibcc_ibfabric *f,
        uint64_t *pairs_ok, ibcc_ibfabric_error *err);
/* Points d's nodes, links and routes at f's arrays (flows untouched). */
IBCC_API ibcc_result ibcc_ibfabric_to_desc(const ibcc_ibfabric *f,
                                           ibcc_fabric_desc *d);
/* The host (index into f->hosts) named `name`: its name, or its node or
   port GUID as 0x-prefixed hex. Errors: NULL, NOT_FOUND, MISMATCH (the
   name of two hosts, or the node GUID of an adapter cabled on several
   ports: ambiguous; a port GUID is always one host). */
IBCC_API ibcc_result ibcc_ibfabric_find_host(const ibcc_ibfabric *f,
        const char *name, uint32_t *host);
/* ibdiagnet's output (ibutils2; docs/topologies.md, "ibdiagnet"): the
   topology from ibdiagnet2.lst (one link a line: "{ <port> } { <port> }
   PHY=<width> LOG=<state> SPD=<lane Gbit/s>", each port "SW|CA|CA-SM|RT
   Ports:<hex> SystemGUID: NodeGUID: PortGUID: VenID: DevID: Rev: {<node
   description>} LID:<hex> PN:<hex>"; links whose LOG is not ACT, INI or
   ARM are not cables) or from ibdiagnet2.db_csv (its START_NODES,
   START_PORTS and START_LINKS tables, columns found by their header
   names: NODES NodeDesc, NumPorts, NodeType 1 CA / 2 switch / 3 router,
   NodeGUID; PORTS (optional) NodeGuid, PortGuid, PortNum, LID, and when
   present LMC, LinkWidthActv, LinkSpeedActv; LINKS NodeGuid1, PortNum1,
   NodeGuid2, PortNum2; other tables skipped), into the same result as
   ibcc_ibfabric_parse: switches in the order they first appear, then one
   host per cabled adapter port. A switch's LID is its port 0's. Errors
   as ibcc_ibfabric_parse's, with the file's own line numbers. */
IBCC_API ibcc_result ibcc_ibfabric_parse_lst(ibcc_ibfabric *f,
        const char *text, size_t len, const char *file,
        const ibcc_fabric_allocator *al, ibcc_ibfabric_error *err);
IBCC_API ibcc_result ibcc_ibfabric_parse_dbcsv(ibcc_ibfabric *f,
        const char *text, size_t len, const char *file,
        const ibcc_fabric_allocator *al, ibcc_ibfabric_error *err);
/* Reads ibdiagnet2.fdbs ("osm_ucast_mgr_dump_ucast_routes: Switch
   0x<guid>" then "0x<lid> : <port> : <hops> : <optimal>" or "0x<lid> :
   UNREACHABLE" lines) as ibcc_ibfabric_lfts reads LFT dumps; with
   private LFTs ("PLFT_NUM: N") only PLFT 0's entries are routes. */
IBCC_API ibcc_result ibcc_ibfabric_fdbs(ibcc_ibfabric *f, const char *text,
        size_t len, const char *file, ibcc_ibfabric_error *err);
/* Frees everything f holds and zeroes it (NULL is fine). */
IBCC_API void ibcc_ibfabric_free(ibcc_ibfabric *f);
#endif /* IBCC_NO_FABRIC */

#ifdef __cplusplus
} /* extern "C" */
#endif
#endif /* IBCC_H */

/* ======================================================================
   IMPLEMENTATION
   ====================================================================== */
#if defined(IBCC_IMPLEMENTATION) && !defined(IBCC_IMPLEMENTED_)
/* The implementation is C99; a C++ file that defines IBCC_IMPLEMENTATION
   compiles it as C++, where its C casts, its NULLs and casts that are
   no-ops on one platform but not on another draw C++-only warnings. They
   are silenced for the implementation alone (to the matching pop at its
   end); the declarations above, which every file that includes ibcc.h
   compiles, are clean under them (tests/matrix.sh checks both with
   clang++ and g++). Private names end in an underscore (ibcc_loop_up_,
   IBCC_LOOP_NONE_): no name of the file is reserved in C or C++. */
#ifdef __cplusplus
#  if defined(__clang__)
#    pragma clang diagnostic push
#    pragma clang diagnostic ignored "-Wold-style-cast"
#    pragma clang diagnostic ignored "-Wzero-as-null-pointer-constant"
#  elif defined(__GNUC__)
#    pragma GCC diagnostic push
#    pragma GCC diagnostic ignored "-Wold-style-cast"
#    pragma GCC diagnostic ignored "-Wzero-as-null-pointer-constant"
#    pragma GCC diagnostic ignored "-Wuseless-cast"
#  endif
#endif
#define IBCC_IMPLEMENTED_

#include <string.h>
#ifndef IBCC_NO_FLOAT
#include <math.h>
#endif
#ifndef IBCC_NO_STDIO
#include <stdio.h>
#include <stdlib.h>
#include <stdarg.h>
#endif

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
    case IBCC_ERR_NOMEM:       return "not enough memory (memory or buffer smaller than needed, or allocation failed)";
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

/* Caller memory for an object needing `need` bytes: present, aligned for
   uint64_t, large enough (mem may be NULL when need is 0). Shared by every
   *_init that takes memory. */
static ibcc_result ibcc_mem_check_(const void *mem, size_t len, uint64_t need)
{
    if (need == 0) return IBCC_OK;              /* no memory needed */
    if (!mem) return IBCC_ERR_NULL;
    if (((uintptr_t)mem & 7u) != 0) return IBCC_ERR_ALIGN;
    if ((uint64_t)len < need) return IBCC_ERR_NOMEM;
    return IBCC_OK;
}

/* The sizing idiom of every ibcc_X_size: the desc's result r, and on
   success *bytes = need (CAPACITY if it does not fit size_t); *bytes is 0
   after any error. */
static ibcc_result ibcc_size_out_(ibcc_result r, uint64_t need, size_t *bytes)
{
    if (!bytes) return IBCC_ERR_NULL;
    *bytes = 0;
    if (r != IBCC_OK) return r;
    if (need > (uint64_t)SIZE_MAX) return IBCC_ERR_CAPACITY;
    *bytes = (size_t)need;
    return IBCC_OK;
}

/* x rounded up to a multiple of 8: every part of an engine's memory
   starts uint64_t-aligned. */
static uint64_t ibcc_round8_(uint64_t x) { return (x + 7u) & ~(uint64_t)7u; }

/* Lowest set bit index of a non-zero word (the bitmaps of the marker,
   the arbiter and the fabric). */
static unsigned ibcc_ctz64_(uint64_t x)
{
#if defined(__GNUC__) || defined(__clang__)
    return (unsigned)__builtin_ctzll(x);
#else
    unsigned n = 0;
    while (!(x & 1u)) { x >>= 1; n++; }
    return n;
#endif
}

/* 64x64 -> 128-bit product as (hi, lo), portable C99. */
static void ibcc_mul128_(uint64_t a, uint64_t b, uint64_t *hi, uint64_t *lo)
{
    uint64_t a0 = a & 0xffffffffu, a1 = a >> 32;
    uint64_t b0 = b & 0xffffffffu, b1 = b >> 32;
    uint64_t p00 = a0 * b0, p01 = a0 * b1, p10 = a1 * b0, p11 = a1 * b1;
    uint64_t mid = (p00 >> 32) + (p01 & 0xffffffffu) + (p10 & 0xffffffffu);
    *lo = (mid << 32) | (p00 & 0xffffffffu);
    *hi = p11 + (p01 >> 32) + (p10 >> 32) + (mid >> 32);
}

/* (hi:lo) / d for hi < d (the quotient fits 64 bits): schoolbook
   division in base 2^32 after shifting d until its top bit is set, so
   each quotient digit comes from one 64-bit division and at most two
   corrections (Knuth's algorithm D for a two-digit divisor). */
static uint64_t ibcc_div128_(uint64_t hi, uint64_t lo, uint64_t d)
{
    const uint64_t b = UINT64_C(1) << 32, m32 = b - 1u;
    uint64_t dn1, dn0, u32, u10, u1, u0, q1, q0, rhat, u21;
    unsigned s = 0;
    while (!(d & (UINT64_C(1) << 63))) { d <<= 1; s++; }   /* normalise */
    u32 = s ? (hi << s) | (lo >> (64u - s)) : hi;
    u10 = lo << s;
    dn1 = d >> 32; dn0 = d & m32;
    u1 = u10 >> 32; u0 = u10 & m32;
    /* first digit: (u32:u1) / d */
    q1 = u32 / dn1;
    rhat = u32 - q1 * dn1;
    while (q1 >= b || q1 * dn0 > ((rhat << 32) | u1)) {
        q1--; rhat += dn1;
        if (rhat >= b) break;
    }
    u21 = (u32 << 32) + u1 - q1 * d;        /* remainder, < d (mod 2^64) */
    /* second digit: (u21:u0) / d */
    q0 = u21 / dn1;
    rhat = u21 - q0 * dn1;
    while (q0 >= b || q0 * dn0 > ((rhat << 32) | u0)) {
        q0--; rhat += dn1;
        if (rhat >= b) break;
    }
    return (q1 << 32) | q0;
}

/* floor((a*b + add) / d) for d > 0 and add < d, with a 128-bit
   intermediate; IBCC_ERR_OVERFLOW if the quotient needs more than 64 bits.
   add = d - 1 rounds up, add = d / 2 rounds half up, add = 0 truncates. */
static ibcc_result ibcc_muldiv_(uint64_t a, uint64_t b, uint64_t d,
                                uint64_t add, uint64_t *out)
{
    uint64_t hi, lo;
    ibcc_mul128_(a, b, &hi, &lo);
    lo += add;
    if (lo < add) hi++;
    if (hi >= d) return IBCC_ERR_OVERFLOW; /* quotient >= 2^64 */
    *out = hi == 0 ? lo / d : ibcc_div128_(hi, lo, d);
    return IBCC_OK;
}

/* ceil(a*b / d), d > 0. */
static ibcc_result ibcc_muldiv_ceil_(uint64_t a, uint64_t b, uint64_t d,
                                     uint64_t *out)
{
    return ibcc_muldiv_(a, b, d, d - 1u, out);
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
    return ibcc_muldiv_ceil_(bytes, ps_per_s, rate, out);
}

/* ---- RNG --------------------------------------------------------------- */
static uint64_t ibcc_splitmix64_(uint64_t *x)
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
    for (i = 0; i < 4; i++) r->s[i] = ibcc_splitmix64_(&seed);
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

#ifndef IBCC_NO_FLOAT
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
#endif /* IBCC_NO_FLOAT */

/* ---- L0 bytes and text (private) ---------------------------------------
   Big-endian fields of the IBA MAD attributes (swcc, cacc), and the one
   text layer under every text ibcc reads or prints: the swcc and cacc
   argument forms and OpenSM options, and (L3) ibnetdiscover output and
   LFT dumps. Each format keeps only its grammar.
   Reading: a cursor over [p, e); a keyword or literal that does not
   match leaves it where it was (a failed number may have moved it).
   Numbers are decimal or 0x-hexadecimal; a text malformed anywhere is
   IBCC_ERR_PARSE, a well-formed one with a value beyond its field
   IBCC_ERR_RANGE (the first such field decides nothing: malformed wins).
   Writing: a bounded writer that never writes past len; a text that does
   not fit gives IBCC_ERR_NOMEM and an empty string. */

static void ibcc_put16_(uint8_t *p, uint32_t v)
{
    p[0] = (uint8_t)(v >> 8);
    p[1] = (uint8_t)v;
}
static void ibcc_put32_(uint8_t *p, uint32_t v)
{
    ibcc_put16_(p, v >> 16);
    ibcc_put16_(p + 2, v & 0xffffu);
}
static uint32_t ibcc_get16_(const uint8_t *p)
{
    return ((uint32_t)p[0] << 8) | p[1];
}
static uint32_t ibcc_get32_(const uint8_t *p)
{
    return (ibcc_get16_(p) << 16) | ibcc_get16_(p + 2);
}

#ifndef IBCC_NO_STDIO
typedef struct ibcc_cur_ { const char *p, *e; } ibcc_cur_;

static ibcc_cur_ ibcc_cur_str_(const char *s)
{
    ibcc_cur_ c;
    c.p = s;
    c.e = s + strlen(s);
    return c;
}
static int ibcc_blank_(char ch)
{
    return ch == ' ' || ch == '\t' || ch == '\r' || ch == '\n' || ch == '\v'
        || ch == '\f';
}
static void ibcc_cur_blanks_(ibcc_cur_ *c)
{
    while (c->p < c->e && ibcc_blank_(*c->p)) c->p++;
}
/* At the end of the text once blanks are skipped. */
static int ibcc_cur_done_(ibcc_cur_ *c)
{
    ibcc_cur_blanks_(c);
    return c->p == c->e;
}
/* The end of the token at the cursor (the next blank or the end). */
static const char *ibcc_cur_tokend_(const ibcc_cur_ *c)
{
    const char *q = c->p;
    while (q < c->e && !ibcc_blank_(*q)) q++;
    return q;
}
/* The literal s at the cursor: consumed (1) or not there (0). */
static int ibcc_cur_lit_(ibcc_cur_ *c, const char *s)
{
    size_t n = strlen(s);
    if ((size_t)(c->e - c->p) < n || memcmp(c->p, s, n) != 0) return 0;
    c->p += n;
    return 1;
}
/* A keyword: the literal w as a whole token. */
static int ibcc_cur_word_(ibcc_cur_ *c, const char *w)
{
    ibcc_cur_ t = *c;
    if (!ibcc_cur_lit_(&t, w) || ibcc_cur_tokend_(&t) != t.p) return 0;
    *c = t;
    return 1;
}
static int ibcc_hexdigit_(char ch)
{
    if (ch >= '0' && ch <= '9') return ch - '0';
    if (ch >= 'a' && ch <= 'f') return ch - 'a' + 10;
    if (ch >= 'A' && ch <= 'F') return ch - 'A' + 10;
    return -1;
}
/* Digits in base 10 or 16 (no prefix), as many as there are: PARSE when
   there is none (cursor unmoved), RANGE above max (cursor past them). */
static ibcc_result ibcc_cur_digits_(ibcc_cur_ *c, unsigned base, uint64_t max,
                                    uint64_t *v)
{
    const char *s = c->p;
    uint64_t x = 0;
    int big = 0;
    for (; c->p < c->e; c->p++) {
        int d = ibcc_hexdigit_(*c->p);
        if (d < 0 || (unsigned)d >= base) break;
        if (x > (UINT64_MAX - (unsigned)d) / base) big = 1;
        else x = x * base + (unsigned)d;
    }
    if (c->p == s) return IBCC_ERR_PARSE;
    if (big || x > max) return IBCC_ERR_RANGE;
    *v = x;
    return IBCC_OK;
}
/* A number: 0x-hexadecimal or decimal (a leading 0 is not octal). */
static ibcc_result ibcc_cur_num_(ibcc_cur_ *c, uint64_t max, uint64_t *v)
{
    if (c->e - c->p > 2 && c->p[0] == '0' && (c->p[1] == 'x' || c->p[1] == 'X')
        && ibcc_hexdigit_(c->p[2]) >= 0) {
        c->p += 2;
        return ibcc_cur_digits_(c, 16u, max, v);
    }
    return ibcc_cur_digits_(c, 10u, max, v);
}
/* A number field: blanks, a number, then a blank or the end. */
static ibcc_result ibcc_cur_field_(ibcc_cur_ *c, uint64_t max, uint64_t *v)
{
    ibcc_result r;
    ibcc_cur_blanks_(c);
    r = ibcc_cur_num_(c, max, v);
    if (r == IBCC_ERR_PARSE || ibcc_cur_tokend_(c) != c->p) return IBCC_ERR_PARSE;
    return r;
}
static ibcc_result ibcc_cur_field32_(ibcc_cur_ *c, uint32_t max, uint32_t *v)
{
    uint64_t x = 0;
    ibcc_result r = ibcc_cur_field_(c, max, &x);
    if (r == IBCC_OK) *v = (uint32_t)x;
    return r;
}
/* "shift:mult" (a CCT entry, a CS_ReturnDelay: shift 0..3, mult
   0..16383) after blanks, ended by a blank, the end or `sep` (0: none). */
static ibcc_result ibcc_cur_pair_(ibcc_cur_ *c, char sep, uint32_t *shift,
                                  uint32_t *mult)
{
    uint64_t s = 0, m = 0;
    ibcc_result rs, rm;
    ibcc_cur_blanks_(c);
    rs = ibcc_cur_num_(c, 3u, &s);
    if (rs == IBCC_ERR_PARSE || !ibcc_cur_lit_(c, ":")) return IBCC_ERR_PARSE;
    rm = ibcc_cur_num_(c, 16383u, &m);
    if (rm == IBCC_ERR_PARSE) return rm;
    if (ibcc_cur_tokend_(c) != c->p && !(sep && *c->p == sep))
        return IBCC_ERR_PARSE;
    if (rs != IBCC_OK) return rs;
    if (rm != IBCC_OK) return rm;
    *shift = (uint32_t)s;
    *mult = (uint32_t)m;
    return IBCC_OK;
}
/* Folds one field's result into a text's: 0 (stop) on PARSE, which is
   the text's result; otherwise keeps the first RANGE and goes on. */
static int ibcc_fold_(ibcc_result *text, ibcc_result field)
{
    if (field == IBCC_ERR_PARSE) { *text = field; return 0; }
    if (*text == IBCC_OK) *text = field;
    return 1;
}

/* Calls fn on every line of [text, text + len) (split at '\n', blanks
   trimmed at both ends), up to the first result other than IBCC_OK,
   which it returns; *line (optional): the number of the last line
   visited, 1-based (the failing line, or the count). */
typedef ibcc_result (*ibcc_linefn_)(void *ctx, ibcc_cur_ *c, uint32_t line);
static ibcc_result ibcc_lines_(const char *text, size_t len, void *ctx,
                               ibcc_linefn_ fn, uint32_t *line)
{
    const char *p = text, *end = text + len;
    uint32_t no = 0;
    ibcc_result r = IBCC_OK;
    while (p < end && r == IBCC_OK) {
        const char *nl = (const char *)memchr(p, '\n', (size_t)(end - p));
        ibcc_cur_ c;
        c.p = p;
        c.e = nl ? nl : end;
        if (no == 0xfffffffeu) { r = IBCC_ERR_CAPACITY; break; }
        no++;
        while (c.e > c.p && ibcc_blank_(c.e[-1])) c.e--;
        ibcc_cur_blanks_(&c);
        r = fn(ctx, &c, no);
        p = nl ? nl + 1 : end;
    }
    if (line) *line = no;
    return r;
}

/* OpenSM option text: fn on every line, lines of other options (fn
   gives IBCC_ERR_NOT_FOUND) skipped; *bad_line (optional) = the failing
   line, 0 on success. */
typedef struct ibcc_optctx_ { void *obj; ibcc_linefn_ fn; } ibcc_optctx_;
static ibcc_result ibcc_opt_line_(void *ctx, ibcc_cur_ *c, uint32_t line)
{
    const ibcc_optctx_ *o = (const ibcc_optctx_ *)ctx;
    ibcc_result r = o->fn(o->obj, c, line);
    return r == IBCC_ERR_NOT_FOUND ? IBCC_OK : r;
}
static ibcc_result ibcc_opt_text_(void *obj, ibcc_linefn_ fn, const char *text,
                                  unsigned *bad_line)
{
    ibcc_optctx_ o;
    uint32_t line = 0;
    ibcc_result r;
    o.obj = obj;
    o.fn = fn;
    r = ibcc_lines_(text, strlen(text), &o, ibcc_opt_line_, &line);
    if (bad_line) *bad_line = r == IBCC_OK ? 0u : (unsigned)line;
    return r;
}

typedef struct ibcc_out_ { char *buf; size_t len, pos; int over; } ibcc_out_;

static void ibcc_out_begin_(ibcc_out_ *o, char *buf, size_t len)
{
    o->buf = buf;
    o->len = len;
    o->pos = 0;
    o->over = len == 0;
    if (len > 0) buf[0] = '\0';
}
static void ibcc_out_str_(ibcc_out_ *o, const char *s)
{
    for (; *s && !o->over; s++) {
        if (o->pos + 1u >= o->len) { o->over = 1; break; }
        o->buf[o->pos++] = *s;
        o->buf[o->pos] = '\0';
    }
}
/* v in base 10 or 16 (lower case), at least `width` digits. */
static void ibcc_out_digits_(ibcc_out_ *o, uint64_t v, unsigned base,
                             unsigned width)
{
    char t[24];
    unsigned i = 23u;
    t[i] = '\0';
    do {
        unsigned d = (unsigned)(v % base);
        t[--i] = (char)(d < 10u ? '0' + d : 'a' + (d - 10u));
        v /= base;
    } while (v != 0 || 23u - i < width);
    ibcc_out_str_(o, t + i);
}
static void ibcc_out_dec_(ibcc_out_ *o, uint64_t v) { ibcc_out_digits_(o, v, 10u, 1u); }
static void ibcc_out_hex_(ibcc_out_ *o, uint64_t v)
{
    ibcc_out_str_(o, "0x");
    ibcc_out_digits_(o, v, 16u, 1u);
}
static void ibcc_out_pair_(ibcc_out_ *o, uint32_t shift, uint32_t mult)
{
    ibcc_out_dec_(o, shift);
    ibcc_out_str_(o, ":");
    ibcc_out_dec_(o, mult);
}
static ibcc_result ibcc_out_end_(ibcc_out_ *o)
{
    if (!o->over) return IBCC_OK;
    if (o->len > 0) o->buf[0] = '\0';
    return IBCC_ERR_NOMEM;
}
#endif /* IBCC_NO_STDIO */

/* ---- L1 marker: implementation ---------------------------------------- */

/* Validates *in and writes the effective desc (defaults filled) to *out.
   *in is not modified. */
static ibcc_result ibcc_marker_desc_check_(const ibcc_marker_desc *in,
                                      ibcc_marker_desc *out)
{
    ibcc_marker_desc d;
    unsigned w;
    if (!in || !out) return IBCC_ERR_NULL;
    d = *in;
    if ((unsigned)d.engine > (unsigned)IBCC_MARKER_ECN) return IBCC_ERR_RANGE;
    if ((unsigned)d.unit > (unsigned)IBCC_UNIT_CREDITS) return IBCC_ERR_RANGE;
    if ((unsigned)d.org > (unsigned)IBCC_ORG_CIOQ) return IBCC_ERR_RANGE;
    if ((unsigned)d.classify > (unsigned)IBCC_CLASSIFY_BUSY) return IBCC_ERR_RANGE;
    if (d.ports == 0) d.ports = 8;
    if (d.ports > IBCC_MARKER_MAX_PORTS) return IBCC_ERR_CAPACITY;
    if (d.in_capacity == 0)
        d.in_capacity = (d.unit == IBCC_UNIT_CREDITS) ? 128u : 4u;
    if (d.in_capacity > IBCC_MARKER_MAX_CAPACITY) return IBCC_ERR_CAPACITY;
    /* the buffering that can feed one output: its own buffer (CIOQ), or
       every other input buffer (input-buffered) */
    if (d.out_capacity == 0)
        d.out_capacity = d.in_capacity
            * ((d.org == IBCC_ORG_CIOQ || d.ports < 2u) ? 1u : d.ports - 1u);
    if (d.out_capacity > IBCC_MARKER_MAX_OUT) return IBCC_ERR_CAPACITY;
    if (d.trigger == 0) d.trigger = d.in_capacity;
    if (d.trigger > d.in_capacity) return IBCC_ERR_RANGE;
    if (d.t_out == 0) d.t_out = 8;
    if (d.t_out > 0x80000000u) return IBCC_ERR_RANGE;
    if (d.mvpm_in_threshold == 0) d.mvpm_in_threshold = d.in_capacity * 2u / 3u;
    else if (d.mvpm_in_threshold > d.in_capacity) return IBCC_ERR_RANGE;
    if (d.mvpm_out_threshold == 0) d.mvpm_out_threshold = d.out_capacity / 3u;
    else if (d.mvpm_out_threshold > d.out_capacity) return IBCC_ERR_RANGE;
    if (d.iba_threshold > 15u) return IBCC_ERR_RANGE;
    if (d.iba_packet_size > 255u) return IBCC_ERR_RANGE;
    if (d.iba_marking_rate > 65535u) return IBCC_ERR_RANGE;
    if (d.hold > 1u) return IBCC_ERR_RANGE;
    if (d.defer > 1u) return IBCC_ERR_RANGE;
    if (d.engine == IBCC_MARKER_ECN) {
        /* the ecn section's defaults and ranges; bytes from credits */
        ibcc_ecn_desc ed;
        ibcc_result r;
        if (d.unit != IBCC_UNIT_CREDITS) return IBCC_ERR_UNSUPPORTED;
        ed.kmin = d.ecn_kmin;
        ed.kmax = d.ecn_kmax;
        ed.pmax = d.ecn_pmax;
        if ((r = ibcc_ecn_defaults(&ed)) != IBCC_OK) return r;
        d.ecn_kmin = ed.kmin;
        d.ecn_kmax = ed.kmax;
        d.ecn_pmax = ed.pmax;
    }
    for (w = 0; w < 8u; w++) {
        /* bits at or above `ports` must be clear */
        uint32_t lo = w * 32u, allowed;
        if (lo >= d.ports) allowed = 0;
        else if (d.ports - lo >= 32u) allowed = 0xffffffffu;
        else allowed = ((uint32_t)1u << (d.ports - lo)) - 1u;
        if (d.victim_mask[w] & ~allowed) return IBCC_ERR_RANGE;
    }
    *out = d;
    return IBCC_OK;
}

IBCC_API ibcc_result ibcc_marker_defaults(ibcc_marker_desc *d)
{
    ibcc_marker_desc e;
    ibcc_result r;
    if (!d) return IBCC_ERR_NULL;
    r = ibcc_marker_desc_check_(d, &e);
    if (r == IBCC_OK) *d = e;
    return r;
}

/* Byte offsets of the arrays in the caller's memory. */
typedef struct ibcc_marker_layout_ {
    size_t port, present, n, mk, total;
} ibcc_marker_layout_;

static void ibcc_marker_layout_of_(const ibcc_marker_desc *d,
                                   ibcc_marker_layout_ *l)
{
    size_t p = d->ports, words = (p + 63u) / 64u;
    l->port = 0;
    l->present = (size_t)ibcc_round8_(l->port + p * sizeof(ibcc_mport_));
    l->n = (size_t)ibcc_round8_(l->present + p * words * sizeof(uint64_t));
    l->mk = (size_t)ibcc_round8_(l->n + p * p * sizeof(uint16_t));
    l->total = l->mk;
    if (d->engine == IBCC_MARKER_NAIVE)
        l->total = (size_t)ibcc_round8_(l->mk + p * p * sizeof(uint16_t));
}

IBCC_API ibcc_result ibcc_marker_size(const ibcc_marker_desc *d, size_t *bytes)
{
    ibcc_marker_desc e;
    ibcc_marker_layout_ l;
    ibcc_result r = ibcc_marker_desc_check_(d, &e);
    l.total = 0;
    if (r == IBCC_OK) ibcc_marker_layout_of_(&e, &l);
    return ibcc_size_out_(r, l.total, bytes);
}

/* IBA threshold level for weight w (unit):
       level = out_capacity * (16 - w) / 16   (w = 1..15, rounded down)
   w = 0 never marks (UINT32_MAX: level(o) can never exceed it). */
static uint32_t ibcc_iba_level_(uint32_t out_capacity, unsigned w)
{
    if (w == 0) return UINT32_MAX;
    return (uint32_t)(((uint64_t)out_capacity * (16u - w)) / 16u);
}

static void ibcc_marker_set_port_iba_(ibcc_marker *m, unsigned p, unsigned w,
                                      unsigned psize, unsigned rate)
{
    ibcc_mport_ *q = &m->port[p];
    q->iba_weight = (uint8_t)w;
    q->iba_level = ibcc_iba_level_(m->d.out_capacity, w);
    q->iba_min_bytes = (uint32_t)psize * IBCC_CREDIT_BYTES;
    q->iba_rate = (uint16_t)rate;
    q->iba_skip = 0;
}

IBCC_API ibcc_result ibcc_marker_init(ibcc_marker *m,
                                      const ibcc_marker_desc *d,
                                      void *mem, size_t len)
{
    ibcc_marker_desc e;
    ibcc_marker_layout_ l;
    ibcc_result r;
    unsigned p;
    unsigned char *base = (unsigned char *)mem;
    if (!m || !d || !mem) return IBCC_ERR_NULL;
    r = ibcc_marker_desc_check_(d, &e);
    if (r != IBCC_OK) return r;
    ibcc_marker_layout_of_(&e, &l);
    r = ibcc_mem_check_(mem, len, l.total);
    if (r != IBCC_OK) return r;
    memset(m, 0, sizeof *m);
    m->d = e;
    m->words = (e.ports + 63u) / 64u;
    m->port = (ibcc_mport_ *)(void *)(base + l.port);
    m->present = (uint64_t *)(void *)(base + l.present);
    m->n = (uint16_t *)(void *)(base + l.n);
    m->mk = (e.engine == IBCC_MARKER_NAIVE) ? (uint16_t *)(void *)(base + l.mk)
                                            : NULL;
    for (p = 0; p < e.ports; p++) {
        if (e.victim_mask[p / 32u] & ((uint32_t)1u << (p % 32u)))
            m->victim[p / 64u] |= (uint64_t)1u << (p % 64u);
    }
    memset(base, 0, l.total);
    for (p = 0; p < e.ports; p++)
        ibcc_marker_set_port_iba_(m, p, e.iba_threshold, e.iba_packet_size,
                                  e.iba_marking_rate);
    m->stats.last_error = IBCC_OK;
    ibcc_rng_seed(&m->ecn_rng, e.ecn_seed);
    return IBCC_OK;
}

IBCC_API void ibcc_marker_reset(ibcc_marker *m)
{
    unsigned p, P;
    if (!m || !m->port || !m->present || !m->n) return;  /* never initialised */
    P = m->d.ports;
    for (p = 0; p < P; p++) {
        ibcc_mport_ *q = &m->port[p];
        q->occ = q->pk = q->cnt1 = q->cnt2 = q->qunits = q->obuf = 0;
        q->held = q->held_pk = 0;
        q->iba_skip = 0;
    }
    memset(m->present, 0, (size_t)P * m->words * sizeof(uint64_t));
    memset(m->n, 0, (size_t)P * P * sizeof(uint16_t));
    if (m->mk) memset(m->mk, 0, (size_t)P * P * sizeof(uint16_t));
    memset(m->pending, 0, sizeof m->pending);
    memset(&m->stats, 0, sizeof m->stats);
    m->stats.last_error = IBCC_OK;
    ibcc_rng_seed(&m->ecn_rng, m->d.ecn_seed);
}

static void ibcc_marker_err_(ibcc_marker *m, ibcc_result r)
{
    m->stats.errors++;
    m->stats.last_error = r;
}

/* Input buffer `in` triggered. Classified outputs: those with a packet in
   the buffer (present bitmap), and with BUSY only those also in the busy
   bitmap. No packet is visited: the bitmap words are (ports + 63) / 64.
     NAIVE:        mk[in][o] = n[in][o]   (mark the next n departures in->o)
     INPUT, I/O:   cnt2[o] = cnt1[o]      (copy, never add) */
static void ibcc_marker_trigger_(ibcc_marker *m, unsigned in)
{
    unsigned w, P = m->d.ports;
    const uint64_t *pres = m->present + (size_t)in * m->words;
    int busy_only = (m->d.classify == IBCC_CLASSIFY_BUSY);
    m->stats.in_triggers++;
    for (w = 0; w < m->words; w++) {
        uint64_t bits = pres[w];
        if (busy_only) bits &= m->busy[w];
        while (bits) {
            unsigned o = w * 64u + ibcc_ctz64_(bits);
            bits &= bits - 1u;
            if (m->mk) {
                m->mk[(size_t)in * P + o] = m->n[(size_t)in * P + o];
            } else {
                m->port[o].cnt2 = m->port[o].cnt1;
            }
            m->stats.out_triggers++;
        }
    }
}

/* An arrival made input `in` full: trigger now, or (defer) at the next
   ibcc_marker_settle. */
static void ibcc_marker_fill_(ibcc_marker *m, unsigned in)
{
    if (m->d.defer)
        m->pending[in / 64u] |= (uint64_t)1u << (in % 64u);
    else
        ibcc_marker_trigger_(m, in);
}

IBCC_API void ibcc_marker_settle(ibcc_marker *m)
{
    unsigned w;
    if (!m || !m->port) return;
    for (w = 0; w < 4u; w++) {
        while (m->pending[w]) {
            unsigned in = w * 64u + ibcc_ctz64_(m->pending[w]);
            m->pending[w] &= m->pending[w] - 1u;
            ibcc_marker_trigger_(m, in);
        }
    }
}

IBCC_API unsigned ibcc_marker_arrive(ibcc_marker *m, unsigned in,
                                     unsigned out, uint32_t size)
{
    ibcc_mport_ *ip, *op;
    uint32_t u, found;
    size_t idx;
    unsigned bits = 0;
    if (!m) return 0;
    if (in >= m->d.ports || out >= m->d.ports) {
        ibcc_marker_err_(m, IBCC_ERR_RANGE);
        return 0;
    }
    u = ibcc_marker_units(m, size);
    ip = &m->port[in];
    if (u > m->d.in_capacity - ip->occ) {
        ibcc_marker_err_(m, IBCC_ERR_FULL);
        return 0;
    }
    found = ip->occ;
    ip->occ += u;
    ip->pk++;
    idx = (size_t)in * m->d.ports + out;
    if (m->n[idx]++ == 0)
        m->present[(size_t)in * m->words + out / 64u] |= (uint64_t)1u << (out % 64u);
    op = &m->port[out];
    op->cnt1++;
    op->qunits += u;
    m->stats.arrivals++;
    switch (m->d.engine) {
    case IBCC_MARKER_NAIVE:
    case IBCC_MARKER_INPUT:
        if (ip->occ >= m->d.trigger) ibcc_marker_fill_(m, in);
        break;
    case IBCC_MARKER_INPUT_OUTPUT:
        if (ip->occ >= m->d.trigger) ibcc_marker_fill_(m, in);
        /* output trigger [S02 §IV-C]: cnt1[o] > T_out -> cnt2[o] = cnt1[o] */
        if (op->cnt1 > m->d.t_out) {
            op->cnt2 = op->cnt1;
            m->stats.out_triggers++;
        }
        break;
    case IBCC_MARKER_MVPM:
        /* [F §4.1]: MB when the occupancy the packet finds > threshold */
        if (found > m->d.mvpm_in_threshold) {
            bits = IBCC_MB;
            m->stats.mb++;
        }
        break;
    case IBCC_MARKER_NONE:
    case IBCC_MARKER_IBA:
    case IBCC_MARKER_ECN:
        break;
    }
    return bits;
}

IBCC_API unsigned ibcc_marker_depart(ibcc_marker *m, unsigned in,
                                     unsigned out, uint32_t size,
                                     unsigned hdr, int out_has_credit)
{
    ibcc_mport_ *ip, *op;
    uint32_t u, level;
    size_t idx;
    unsigned bits = 0;
    if (!m) return 0;
    if (in >= m->d.ports || out >= m->d.ports) {
        ibcc_marker_err_(m, IBCC_ERR_RANGE);
        return 0;
    }
    u = ibcc_marker_units(m, size);
    ip = &m->port[in];
    op = &m->port[out];
    idx = (size_t)in * m->d.ports + out;
    if (m->n[idx] == 0 || ip->occ - ip->held < u || op->qunits < u) {
        ibcc_marker_err_(m, IBCC_ERR_MISMATCH);
        return 0;
    }
    level = (m->d.org == IBCC_ORG_CIOQ) ? op->obuf : op->qunits;
    if (m->d.hold) {            /* room kept until ibcc_marker_release */
        ip->held += u;
        ip->held_pk++;
    } else {
        ip->occ -= u;
        ip->pk--;
    }
    if (--m->n[idx] == 0)
        m->present[(size_t)in * m->words + out / 64u] &= ~((uint64_t)1u << (out % 64u));
    op->cnt1--;
    op->qunits -= u;
    if (m->d.org == IBCC_ORG_CIOQ) op->obuf += u;
    m->stats.departures++;
    switch (m->d.engine) {
    case IBCC_MARKER_NAIVE:
        if (m->mk[idx] > 0) {
            m->mk[idx]--;
            bits = IBCC_FECN;
        }
        break;
    case IBCC_MARKER_INPUT:
    case IBCC_MARKER_INPUT_OUTPUT:
        /* [S02 §IV-B]: mark on transmission while cnt2[o] > 0 */
        if (op->cnt2 > 0) {
            op->cnt2--;
            bits = IBCC_FECN;
        }
        break;
    case IBCC_MARKER_IBA: {
        /* congestion state: the port's queue, the departing packet not
           counted (input-buffered: what still waits for o; CIOQ: the
           output buffer it enters), above the threshold level, and root
           (credits) or Victim_Mask; eligible: size >= 64 * Packet_Size */
        int victim_ok = (int)((m->victim[out / 64u] >> (out % 64u)) & 1u);
        uint32_t queue = (m->d.org == IBCC_ORG_CIOQ) ? level : op->qunits;
        if (queue > op->iba_level && (out_has_credit || victim_ok) &&
            size >= op->iba_min_bytes) {
            int mark;
            if (m->d.iba_rng) {
                /* P(mark) = 1 / (Marking_Rate + 1): mean gap Marking_Rate */
                mark = ibcc_rng_below(m->d.iba_rng, (uint64_t)op->iba_rate + 1u) == 0;
            } else if (op->iba_skip == 0) {
                mark = 1;
                op->iba_skip = op->iba_rate;   /* skip the next rate */
            } else {
                mark = 0;
                op->iba_skip--;
            }
            if (mark) bits = IBCC_FECN;
        }
        break;
    }
    case IBCC_MARKER_MVPM:
        /* [F §4.1]: VB only for MB packets through a saturated output */
        if ((hdr & IBCC_MB) && level > m->d.mvpm_out_threshold) {
            bits = IBCC_VB;
            m->stats.vb++;
        }
        break;
    case IBCC_MARKER_ECN: {
        /* RED on the queue the packet leaves behind (as IBA), in bytes */
        ibcc_ecn e;
        uint32_t queue = (m->d.org == IBCC_ORG_CIOQ) ? level : op->qunits;
        e.kmin = m->d.ecn_kmin;
        e.kmax = m->d.ecn_kmax;
        e.pmax = m->d.ecn_pmax;
        bits = ibcc_ecn_mark(&e, (uint64_t)queue * IBCC_CREDIT_BYTES, &m->ecn_rng);
        break;
    }
    case IBCC_MARKER_NONE:
        break;
    }
    if (bits & IBCC_FECN) m->stats.fecn++;
    return bits;
}

IBCC_API void ibcc_marker_leave(ibcc_marker *m, unsigned out, uint32_t size)
{
    uint32_t u;
    if (!m) return;
    if (m->d.org != IBCC_ORG_CIOQ) {
        ibcc_marker_err_(m, IBCC_ERR_STATE);
        return;
    }
    if (out >= m->d.ports) {
        ibcc_marker_err_(m, IBCC_ERR_RANGE);
        return;
    }
    u = ibcc_marker_units(m, size);
    if (m->port[out].obuf < u) {
        ibcc_marker_err_(m, IBCC_ERR_MISMATCH);
        return;
    }
    m->port[out].obuf -= u;
}

IBCC_API void ibcc_marker_release(ibcc_marker *m, unsigned in, uint32_t size)
{
    ibcc_mport_ *ip;
    uint32_t u;
    if (!m) return;
    if (!m->d.hold) {
        ibcc_marker_err_(m, IBCC_ERR_STATE);
        return;
    }
    if (in >= m->d.ports) {
        ibcc_marker_err_(m, IBCC_ERR_RANGE);
        return;
    }
    u = ibcc_marker_units(m, size);
    ip = &m->port[in];
    if (ip->held_pk == 0 || ip->held < u) {
        ibcc_marker_err_(m, IBCC_ERR_MISMATCH);
        return;
    }
    ip->held -= u;
    ip->held_pk--;
    ip->occ -= u;
    ip->pk--;
}

IBCC_API ibcc_result ibcc_marker_set_iba_port(ibcc_marker *m, unsigned port,
                                              unsigned threshold,
                                              unsigned packet_size,
                                              unsigned marking_rate)
{
    if (!m) return IBCC_ERR_NULL;
    if (m->d.engine != IBCC_MARKER_IBA) return IBCC_ERR_STATE;
    if (port >= m->d.ports || threshold > 15u || packet_size > 255u ||
        marking_rate > 65535u)
        return IBCC_ERR_RANGE;
    ibcc_marker_set_port_iba_(m, port, threshold, packet_size, marking_rate);
    return IBCC_OK;
}

IBCC_API ibcc_result ibcc_marker_set_victim(ibcc_marker *m, unsigned port,
                                            int on)
{
    uint64_t bit;
    if (!m) return IBCC_ERR_NULL;
    if (m->d.engine != IBCC_MARKER_IBA) return IBCC_ERR_STATE;
    if (port >= m->d.ports) return IBCC_ERR_RANGE;
    bit = (uint64_t)1u << (port % 64u);
    if (on) m->victim[port / 64u] |= bit;
    else m->victim[port / 64u] &= ~bit;
    return IBCC_OK;
}

IBCC_API uint32_t ibcc_marker_occupancy(const ibcc_marker *m, unsigned in)
{
    return (m && in < m->d.ports) ? m->port[in].occ : 0u;
}
IBCC_API uint32_t ibcc_marker_packets(const ibcc_marker *m, unsigned in)
{
    return (m && in < m->d.ports) ? m->port[in].pk : 0u;
}
IBCC_API uint32_t ibcc_marker_waiting(const ibcc_marker *m, unsigned in,
                                      unsigned out)
{
    if (!m || in >= m->d.ports || out >= m->d.ports) return 0;
    return m->n[(size_t)in * m->d.ports + out];
}
IBCC_API uint32_t ibcc_marker_cnt1(const ibcc_marker *m, unsigned out)
{
    return (m && out < m->d.ports) ? m->port[out].cnt1 : 0u;
}
IBCC_API uint32_t ibcc_marker_cnt2(const ibcc_marker *m, unsigned out)
{
    return (m && out < m->d.ports) ? m->port[out].cnt2 : 0u;
}
IBCC_API uint32_t ibcc_marker_naive_pending(const ibcc_marker *m,
                                            unsigned in, unsigned out)
{
    if (!m || !m->mk || in >= m->d.ports || out >= m->d.ports) return 0;
    return m->mk[(size_t)in * m->d.ports + out];
}
IBCC_API uint32_t ibcc_marker_level(const ibcc_marker *m, unsigned out)
{
    if (!m || out >= m->d.ports) return 0;
    return (m->d.org == IBCC_ORG_CIOQ) ? m->port[out].obuf : m->port[out].qunits;
}
IBCC_API int ibcc_marker_iba_congested(const ibcc_marker *m, unsigned out,
                                       int out_has_credit)
{
    int victim_ok;
    if (!m || m->d.engine != IBCC_MARKER_IBA || out >= m->d.ports) return 0;
    victim_ok = (int)((m->victim[out / 64u] >> (out % 64u)) & 1u);
    return ibcc_marker_level(m, out) > m->port[out].iba_level &&
           (out_has_credit || victim_ok);
}
IBCC_API uint32_t ibcc_marker_iba_level(const ibcc_marker *m, unsigned out)
{
    if (!m || out >= m->d.ports) return 0;
    return m->port[out].iba_level;
}
IBCC_API uint64_t ibcc_marker_errors(const ibcc_marker *m, ibcc_result *last)
{
    if (!m) { if (last) *last = IBCC_ERR_NULL; return 0; }
    if (last) *last = m->stats.last_error;
    return m->stats.errors;
}
IBCC_API ibcc_marker_stats ibcc_marker_get_stats(const ibcc_marker *m)
{
    ibcc_marker_stats s;
    if (m) return m->stats;
    memset(&s, 0, sizeof s);
    return s;
}
IBCC_API const char *ibcc_marker_engine_name(ibcc_marker_engine e)
{
    switch (e) {
    case IBCC_MARKER_NONE: return "none";
    case IBCC_MARKER_NAIVE: return "naive";
    case IBCC_MARKER_INPUT: return "input";
    case IBCC_MARKER_INPUT_OUTPUT: return "input-output";
    case IBCC_MARKER_IBA: return "iba";
    case IBCC_MARKER_MVPM: return "mvpm";
    case IBCC_MARKER_ECN: return "ecn";
    }
    return "?";
}

/* ---- L1 arbiter: implementation --------------------------------------- */

static ibcc_result ibcc_arbiter_desc_check_(const ibcc_arbiter_desc *in,
                                   ibcc_arbiter_desc *out)
{
    ibcc_arbiter_desc d;
    if (!in || !out) return IBCC_ERR_NULL;
    d = *in;
    if ((unsigned)d.policy > (unsigned)IBCC_ARB_VOQ) return IBCC_ERR_RANGE;
    if (d.ports == 0) d.ports = 8;
    if (d.ports > IBCC_ARBITER_MAX_PORTS) return IBCC_ERR_CAPACITY;
    if (d.capacity == 0) d.capacity = 4;
    if (d.capacity > IBCC_ARBITER_MAX_CAPACITY) return IBCC_ERR_CAPACITY;
    if (d.bypass_limit == 0) d.bypass_limit = 4;
    if (d.bypass_limit > 65535u) return IBCC_ERR_RANGE;
    *out = d;
    return IBCC_OK;
}

IBCC_API ibcc_result ibcc_arbiter_defaults(ibcc_arbiter_desc *d)
{
    ibcc_arbiter_desc e;
    ibcc_result r;
    if (!d) return IBCC_ERR_NULL;
    r = ibcc_arbiter_desc_check_(d, &e);
    if (r == IBCC_OK) *d = e;
    return r;
}

/* Layout (each part 8-byte aligned): inputs, entries, rr pointers,
   per (input, output) records (ibcc_arb_io_: count, FIFO head and tail;
   the space of the three arrays they once were, so sizes are unchanged),
   per output bitmap of inputs, per input bitmap of outputs. */
typedef struct ibcc_arb_layout_ {
    size_t q, rr, cnt, oh, ot, inq, outs, ready, total;
} ibcc_arb_layout_;

#define IBCC_ARB_NONE_ UINT32_C(0xffffffff)  /* no slot (as returned) */
#define IBCC_ARB_NIL_  0xffffu                /* no slot (in links) */

static void ibcc_arb_layout_of_(const ibcc_arbiter_desc *d,
                                ibcc_arb_layout_ *l)
{
    size_t p = d->ports, words = (p + 63u) / 64u;
    l->q = p * sizeof(ibcc_arb_input_);
    l->rr = l->q + p * d->capacity * sizeof(ibcc_arb_entry_);
    l->cnt = l->rr + (size_t)ibcc_round8_(p * sizeof(uint32_t));
    l->oh = l->cnt + (size_t)ibcc_round8_(p * p * sizeof(uint16_t));
    l->ot = l->oh + (size_t)ibcc_round8_(p * p * sizeof(uint16_t));
    l->inq = l->ot + (size_t)ibcc_round8_(p * p * sizeof(uint16_t));
    l->outs = l->inq + p * words * sizeof(uint64_t);
    l->ready = l->outs + p * words * sizeof(uint64_t);
    l->total = l->ready + words * sizeof(uint64_t);
}

IBCC_API ibcc_result ibcc_arbiter_size(const ibcc_arbiter_desc *d,
                                       size_t *bytes)
{
    ibcc_arbiter_desc e;
    ibcc_arb_layout_ l;
    ibcc_result r = ibcc_arbiter_desc_check_(d, &e);
    l.total = 0;
    if (r == IBCC_OK) ibcc_arb_layout_of_(&e, &l);
    return ibcc_size_out_(r, l.total, bytes);
}

IBCC_API ibcc_result ibcc_arbiter_init(ibcc_arbiter *a,
                                       const ibcc_arbiter_desc *d,
                                       void *mem, size_t len)
{
    ibcc_arbiter_desc e;
    ibcc_result r;
    ibcc_arb_layout_ l;
    unsigned char *base = (unsigned char *)mem;
    uint32_t i;
    if (!a || !d || !mem) return IBCC_ERR_NULL;
    r = ibcc_arbiter_desc_check_(d, &e);
    if (r != IBCC_OK) return r;
    ibcc_arb_layout_of_(&e, &l);
    r = ibcc_mem_check_(mem, len, l.total);
    if (r != IBCC_OK) return r;
    memset(a, 0, sizeof *a);
    /* everything but the entry slots, which are written when used */
    memset(base, 0, l.q);
    memset(base + l.rr, 0, l.total - l.rr);
    a->d = e;
    a->words = (e.ports + 63u) / 64u;
    a->input = (ibcc_arb_input_ *)(void *)base;
    a->q = (ibcc_arb_entry_ *)(void *)(base + l.q);
    a->rr = (uint32_t *)(void *)(base + l.rr);
    a->io = (ibcc_arb_io_ *)(void *)(base + l.cnt);
    a->inq = (uint64_t *)(void *)(base + l.inq);
    a->outs = (uint64_t *)(void *)(base + l.outs);
    a->ready = (uint64_t *)(void *)(base + l.ready);
    for (i = 0; i < e.ports; i++) {
        a->input[i].head = a->input[i].tail = IBCC_ARB_NIL_;
        a->input[i].free = IBCC_ARB_NIL_;
    }
    a->out_ok[0] = a->out_ok[1] = a->out_ok[2] = a->out_ok[3] = ~(uint64_t)0;
    return IBCC_OK;
}

static ibcc_arb_entry_ *ibcc_arb_at_(const ibcc_arbiter *a, unsigned in,
                                     uint32_t slot)
{
    return &a->q[(size_t)in * a->d.capacity + slot];
}

IBCC_API ibcc_result ibcc_arbiter_push(ibcc_arbiter *a, unsigned in,
                                       unsigned out, uint32_t size,
                                       uint64_t tag)
{
    ibcc_arb_input_ *ip;
    ibcc_arb_entry_ *e;
    ibcc_arb_io_ *io;
    uint32_t slot;
    if (!a) return IBCC_ERR_NULL;
    if (in >= a->d.ports || out >= a->d.ports) return IBCC_ERR_RANGE;
    ip = &a->input[in];
    if (ip->len >= a->d.capacity) return IBCC_ERR_FULL;
    if (ip->free != IBCC_ARB_NIL_) {
        slot = ip->free;
        ip->free = ibcc_arb_at_(a, in, slot)->next;
    } else {
        slot = ip->fresh++;              /* < capacity <= 65535: no NIL */
    }
    e = ibcc_arb_at_(a, in, slot);
    e->seq = a->seq++;
    e->tag = tag;
    e->size = size;
    e->out = (uint16_t)out;
    e->next = e->onext = (uint16_t)IBCC_ARB_NIL_;
    e->prev = (uint16_t)ip->tail;
    if (ip->tail != IBCC_ARB_NIL_)
        ibcc_arb_at_(a, in, ip->tail)->next = (uint16_t)slot;
    else ip->head = slot;
    ip->tail = slot;
    if (ip->len == 0) ip->bypassed = 0;   /* a new head */
    ip->len++;
    if (!ip->busy) a->ready[in / 64u] |= (uint64_t)1u << (in % 64u);
    io = &a->io[(size_t)in * a->d.ports + out];
    if (io->cnt++ == 0) {
        a->inq[(size_t)out * a->words + in / 64u] |= (uint64_t)1u << (in % 64u);
        a->outs[(size_t)in * a->words + out / 64u] |= (uint64_t)1u << (out % 64u);
        io->head = (uint16_t)slot;
    } else {
        ibcc_arb_at_(a, in, io->tail)->onext = (uint16_t)slot;
    }
    io->tail = (uint16_t)slot;
    return IBCC_OK;
}

/* Word w of the outputs that may take a packet without asking: not
   closed, and in bitmap mode able to take. A packet for any other output
   is refused (ibcc_arb_can_), so a pick may skip it unread. */
static uint64_t ibcc_arb_open_(const ibcc_arbiter *a, uint32_t w)
{
    return a->d.can_send ? ~a->closed[w] : a->out_ok[w] & ~a->closed[w];
}

/* Can output `out` take a packet of `size` from `in` now? */
static int ibcc_arb_can_(const ibcc_arbiter *a, unsigned out, unsigned in,
                         uint32_t size)
{
    if (!((ibcc_arb_open_(a, out / 64u) >> (out % 64u)) & 1u)) return 0;
    if (a->d.can_send) return a->d.can_send(a->d.user, out, in, size) != 0;
    return 1;
}

/* Does input `in` hold a packet for an open output? When not, every
   check would refuse, so a pick need not read its buffer. */
static int ibcc_arb_any_open_(const ibcc_arbiter *a, unsigned in)
{
    const uint64_t *bm = &a->outs[(size_t)in * a->words];
    uint32_t w;
    for (w = 0; w < a->words; w++)
        if (bm[w] & ibcc_arb_open_(a, w)) return 1;
    return 0;
}

/* Removes entry `slot` of input `in` (the oldest of its input for its
   output, as every pick is), fills *g, marks the input busy. */
static void ibcc_arb_take_(ibcc_arbiter *a, unsigned in, uint32_t slot,
                           ibcc_arb_grant *g)
{
    ibcc_arb_input_ *ip = &a->input[in];
    ibcc_arb_entry_ *e = ibcc_arb_at_(a, in, slot);
    ibcc_arb_io_ *io = &a->io[(size_t)in * a->d.ports + e->out];
    int was_head = slot == ip->head;
    g->in = in;
    g->out = e->out;
    g->size = e->size;
    g->tag = e->tag;
    g->bypassed = !was_head;
    if (--io->cnt == 0) {
        a->inq[(size_t)e->out * a->words + in / 64u] &=
            ~((uint64_t)1u << (in % 64u));
        a->outs[(size_t)in * a->words + e->out / 64u] &=
            ~((uint64_t)1u << (e->out % 64u));
    } else {
        io->head = e->onext;
    }
    if (e->prev != IBCC_ARB_NIL_) ibcc_arb_at_(a, in, e->prev)->next = e->next;
    else ip->head = e->next;
    if (e->next != IBCC_ARB_NIL_) ibcc_arb_at_(a, in, e->next)->prev = e->prev;
    else ip->tail = e->prev;
    e->next = (uint16_t)ip->free;
    ip->free = slot;
    ip->len--;
    if (was_head) ip->bypassed = 0;        /* the next packet is a new head */
    else { ip->bypassed++; a->bypasses++; } /* the head was passed */
    ip->busy = 1;
    a->ready[in / 64u] &= ~((uint64_t)1u << (in % 64u));
    a->grants++;
}

/* OLDEST / FIFO candidate of input `in`: the slot of its oldest packet
   that may start now (on output `want`, or on any output when want is
   UINT32_MAX), or IBCC_ARB_NONE_. Walking the buffer from the head:
   - a packet is a candidate only if it is the first of its buffer for its
     output (per input/output order) and its output can take it;
   - a packet that is first for its output and can go blocks every younger
     packet (it is not "waiting for an output that cannot take it");
   - going past the head needs the OLDEST policy and head bypasses below
     bypass_limit.
   So the candidate is the oldest of the input's per-output first packets
   whose output can take it: found from the per-output FIFO heads, in
   time independent of how deep the buffer is. */
static uint32_t ibcc_arb_candidate_(const ibcc_arbiter *a, unsigned in,
                                    uint32_t want)
{
    const ibcc_arb_input_ *ip = &a->input[in];
    const ibcc_arb_entry_ *h = ibcc_arb_at_(a, in, ip->head);
    const uint64_t *bm = &a->outs[(size_t)in * a->words];
    const ibcc_arb_io_ *io = &a->io[(size_t)in * a->d.ports];
    uint64_t limit = UINT64_MAX;
    uint32_t best = IBCC_ARB_NONE_, w;
    unsigned o = h->out;
    /* the head */
    if (o == want)
        return ibcc_arb_can_(a, o, in, h->size) ? ip->head : IBCC_ARB_NONE_;
    if (ibcc_arb_can_(a, o, in, h->size))
        return (want == UINT32_MAX) ? ip->head : IBCC_ARB_NONE_;
    /* going past it */
    if (ip->len < 2u || a->d.policy != IBCC_ARB_OLDEST ||
        ip->bypassed >= a->d.bypass_limit)
        return IBCC_ARB_NONE_;
    if (want != UINT32_MAX) {
        /* the first packet for `want` goes if no older first packet of
           another output can go */
        if (!((bm[want / 64u] >> (want % 64u)) & 1u)) return IBCC_ARB_NONE_;
        limit = ibcc_arb_at_(a, in, io[want].head)->seq;
    }
    for (w = 0; w < a->words; w++) {
        uint64_t bits = bm[w];
        bits &= ibcc_arb_open_(a, w);    /* the others refuse */
        while (bits) {
            unsigned p = w * 64u + ibcc_ctz64_(bits);
            const ibcc_arb_entry_ *e = ibcc_arb_at_(a, in, io[p].head);
            bits &= bits - 1u;
            if (p == o || p == want || e->seq >= limit) continue;
            if (ibcc_arb_can_(a, p, in, e->size)) {
                if (want != UINT32_MAX) return IBCC_ARB_NONE_;
                limit = e->seq;          /* the oldest that can go so far */
                best = io[p].head;
            }
        }
    }
    if (want == UINT32_MAX) return best;
    {
        const ibcc_arb_entry_ *e = ibcc_arb_at_(a, in, io[want].head);
        return ibcc_arb_can_(a, want, in, e->size) ? io[want].head
                                                   : IBCC_ARB_NONE_;
    }
}


/* Considers input `in` for the oldest-first pick (want as in
   ibcc_arb_candidate_); keeps the oldest candidate in *best_*. */
static void ibcc_arb_consider_(const ibcc_arbiter *a, unsigned in,
                               uint32_t want, unsigned *best_in,
                               uint32_t *best_k, uint64_t *best_seq)
{
    uint32_t k;
    if (a->input[in].busy || a->input[in].len == 0) return;
    /* the head is the oldest packet of its buffer: an input whose head is
       not older than the best so far cannot win */
    if (ibcc_arb_at_(a, in, a->input[in].head)->seq >= *best_seq) return;
    k = ibcc_arb_candidate_(a, in, want);
    if (k == IBCC_ARB_NONE_ || ibcc_arb_at_(a, in, k)->seq >= *best_seq)
        return;
    *best_seq = ibcc_arb_at_(a, in, k)->seq;
    *best_in = in;
    *best_k = k;
}

static int ibcc_arb_oldest_(ibcc_arbiter *a, uint32_t want, ibcc_arb_grant *g)
{
    unsigned in, best_in = 0;
    uint32_t best_k = IBCC_ARB_NONE_;
    uint64_t best_seq = UINT64_MAX;
    if (want == UINT32_MAX) {
        /* only the inputs holding a packet and not busy */
        uint32_t w;
        for (w = 0; w < a->words; w++) {
            uint64_t bits = a->ready[w];
            while (bits) {
                in = w * 64u + ibcc_ctz64_(bits);
                bits &= bits - 1u;
                if (!ibcc_arb_any_open_(a, in)) continue;
                ibcc_arb_consider_(a, in, want, &best_in, &best_k, &best_seq);
            }
        }
    } else {
        /* only the inputs holding a packet for `want` */
        const uint64_t *bm = &a->inq[(size_t)want * a->words];
        uint32_t w;
        for (w = 0; w < a->words; w++) {
            uint64_t bits = bm[w];
            while (bits) {
                in = w * 64u + ibcc_ctz64_(bits);
                bits &= bits - 1u;
                ibcc_arb_consider_(a, in, want, &best_in, &best_k, &best_seq);
            }
        }
    }
    if (best_k == IBCC_ARB_NONE_) return 0;
    ibcc_arb_take_(a, best_in, best_k, g);
    return 1;
}

/* RR (and VOQ) for one output: first input at or after rr[out] whose
   head (VOQ: oldest packet for `out`) is bound for `out` and fits; the
   pointer moves past the winner. Only inputs holding a packet for `out`
   are visited: those at or after the pointer, then those before it. */
static int ibcc_arb_rr_(ibcc_arbiter *a, unsigned out, ibcc_arb_grant *g)
{
    unsigned P = a->d.ports, start = a->rr[out], pass;
    const uint64_t *bm = &a->inq[(size_t)out * a->words];
    for (pass = 0; pass < 2u; pass++) {
        uint32_t w;
        for (w = 0; w < a->words; w++) {
            unsigned lo = w * 64u;
            uint64_t bits = bm[w];
            if (pass == 0) {                      /* inputs >= start */
                if (lo + 64u <= start) continue;
                if (start > lo) bits &= ~(uint64_t)0 << (start - lo);
            } else {                              /* inputs < start */
                if (lo >= start) break;
                if (start < lo + 64u)
                    bits &= ((uint64_t)1u << (start - lo)) - 1u;
            }
            while (bits) {
                unsigned in = lo + ibcc_ctz64_(bits);
                const ibcc_arb_entry_ *h;
                uint32_t slot;
                bits &= bits - 1u;
                if (a->input[in].busy) continue;
                /* RR: the head; VOQ: the oldest packet for `out` */
                slot = a->d.policy == IBCC_ARB_VOQ
                     ? a->io[(size_t)in * P + out].head : a->input[in].head;
                h = ibcc_arb_at_(a, in, slot);
                if (h->out != out || !ibcc_arb_can_(a, out, in, h->size))
                    continue;
                a->rr[out] = (in + 1u < P) ? in + 1u : 0u;
                ibcc_arb_take_(a, in, slot, g);
                return 1;
            }
        }
    }
    return 0;
}

IBCC_API int ibcc_arbiter_pick(ibcc_arbiter *a, unsigned out,
                               ibcc_arb_grant *g)
{
    if (!a || !g || out >= a->d.ports) return 0;
    if (a->d.policy == IBCC_ARB_RR || a->d.policy == IBCC_ARB_VOQ)
        return ibcc_arb_rr_(a, out, g);
    return ibcc_arb_oldest_(a, out, g);
}

IBCC_API int ibcc_arbiter_pick_any(ibcc_arbiter *a, ibcc_arb_grant *g)
{
    uint64_t heads[4] = {0, 0, 0, 0};
    unsigned in, j, P;
    if (!a || !g) return 0;
    if (a->d.policy != IBCC_ARB_RR && a->d.policy != IBCC_ARB_VOQ)
        return ibcc_arb_oldest_(a, UINT32_MAX, g);
    /* RR: outputs that some free input's head is bound for (VOQ: that
       some free input holds a packet for), tried in round-robin order
       from rr_out */
    P = a->d.ports;
    for (in = 0; in < P; in++) {
        unsigned o;
        if (a->input[in].busy || a->input[in].len == 0) continue;
        if (a->d.policy == IBCC_ARB_VOQ) {
            for (o = 0; o < a->words && o < 4u; o++)
                heads[o] |= a->outs[(size_t)in * a->words + o];
            continue;
        }
        o = ibcc_arb_at_(a, in, a->input[in].head)->out;
        heads[o / 64u] |= (uint64_t)1u << (o % 64u);
    }
    for (j = 0; j < P; j++) {
        unsigned o = a->rr_out + j;
        if (o >= P) o -= P;
        if (!((heads[o / 64u] >> (o % 64u)) & 1u)) continue;
        if (ibcc_arb_rr_(a, o, g)) {
            a->rr_out = (o + 1u < P) ? o + 1u : 0u;
            return 1;
        }
    }
    return 0;
}

IBCC_API ibcc_result ibcc_arbiter_set_input_busy(ibcc_arbiter *a,
                                                 unsigned in, int busy)
{
    if (!a) return IBCC_ERR_NULL;
    if (in >= a->d.ports) return IBCC_ERR_RANGE;
    a->input[in].busy = busy ? 1u : 0u;
    if (!busy && a->input[in].len)
        a->ready[in / 64u] |= (uint64_t)1u << (in % 64u);
    else
        a->ready[in / 64u] &= ~((uint64_t)1u << (in % 64u));
    return IBCC_OK;
}

IBCC_API ibcc_result ibcc_arbiter_set_output(ibcc_arbiter *a, unsigned out,
                                             int can_take)
{
    uint64_t bit;
    if (!a) return IBCC_ERR_NULL;
    if (out >= a->d.ports) return IBCC_ERR_RANGE;
    bit = (uint64_t)1u << (out % 64u);
    if (can_take) a->out_ok[out / 64u] |= bit;
    else a->out_ok[out / 64u] &= ~bit;
    return IBCC_OK;
}

IBCC_API ibcc_result ibcc_arbiter_close_output(ibcc_arbiter *a, unsigned out,
                                               int closed)
{
    uint64_t bit;
    if (!a) return IBCC_ERR_NULL;
    if (out >= a->d.ports) return IBCC_ERR_RANGE;
    bit = (uint64_t)1u << (out % 64u);
    if (closed) a->closed[out / 64u] |= bit;
    else a->closed[out / 64u] &= ~bit;
    return IBCC_OK;
}

IBCC_API uint32_t ibcc_arbiter_len(const ibcc_arbiter *a, unsigned in)
{
    return (a && in < a->d.ports) ? a->input[in].len : 0u;
}
IBCC_API uint32_t ibcc_arbiter_head_bypassed(const ibcc_arbiter *a,
                                             unsigned in)
{
    return (a && in < a->d.ports) ? a->input[in].bypassed : 0u;
}
IBCC_API int ibcc_arbiter_input_busy(const ibcc_arbiter *a, unsigned in)
{
    return (a && in < a->d.ports) ? (int)a->input[in].busy : 0;
}
IBCC_API ibcc_result ibcc_arbiter_peek(const ibcc_arbiter *a, unsigned in,
                                       uint32_t k, unsigned *out,
                                       uint32_t *size, uint64_t *tag)
{
    const ibcc_arb_entry_ *e;
    uint32_t slot;
    if (!a) return IBCC_ERR_NULL;
    if (in >= a->d.ports || k >= a->input[in].len) return IBCC_ERR_RANGE;
    /* walks the arrival order (a query; picks never walk) */
    slot = a->input[in].head;
    while (k-- > 0) slot = ibcc_arb_at_(a, in, slot)->next;
    e = ibcc_arb_at_(a, in, slot);
    if (out) *out = e->out;
    if (size) *size = e->size;
    if (tag) *tag = e->tag;
    return IBCC_OK;
}
IBCC_API const char *ibcc_arb_policy_name(ibcc_arb_policy p)
{
    switch (p) {
    case IBCC_ARB_OLDEST: return "oldest";
    case IBCC_ARB_FIFO: return "fifo";
    case IBCC_ARB_RR: return "rr";
    case IBCC_ARB_VOQ: return "voq";
    }
    return "?";
}

/* ---- L1 vlarb: implementation ----------------------------------------- */

/* The effective desc of *in into *out (a separate object, written even
   on an error: one copy of the desc on the stack, not two). */
static ibcc_result ibcc_vlarb_desc_check_(const ibcc_vlarb_desc *in,
                                          ibcc_vlarb_desc *out)
{
    ibcc_vlarb_desc *d = out;
    uint32_t i;
    if (!in || !out) return IBCC_ERR_NULL;
    *d = *in;
    if (d->vls == 0) d->vls = 1;
    if (d->vls != 1 && d->vls != 2 && d->vls != 4 && d->vls != 8
        && d->vls != IBCC_VLARB_MAX_VLS) return IBCC_ERR_RANGE;
    if (d->high_limit > IBCC_VLARB_UNLIMITED) return IBCC_ERR_RANGE;
    if (d->n_high > IBCC_VLARB_MAX_ENTRIES
        || d->n_low > IBCC_VLARB_MAX_ENTRIES) return IBCC_ERR_CAPACITY;
    if (d->n_high == 0 && d->n_low == 0) {
        /* OpenSM's built-in tables, restricted to the port's VLs */
        d->n_high = 1;
        d->high[0].vl = 0;
        d->high[0].weight = 4;
        for (i = 1; i < d->vls; i++) {
            d->low[d->n_low].vl = (uint8_t)i;
            d->low[d->n_low].weight = 4;
            d->n_low++;
        }
    }
    for (i = 0; i < d->n_high; i++)
        if (d->high[i].vl >= d->vls) return IBCC_ERR_RANGE;
    for (i = 0; i < d->n_low; i++)
        if (d->low[i].vl >= d->vls) return IBCC_ERR_RANGE;
    return IBCC_OK;
}

IBCC_API ibcc_result ibcc_vlarb_defaults(ibcc_vlarb_desc *d)
{
    ibcc_vlarb_desc e;
    ibcc_result r;
    if (!d) return IBCC_ERR_NULL;
    r = ibcc_vlarb_desc_check_(d, &e);
    if (r == IBCC_OK) *d = e;
    return r;
}

IBCC_API ibcc_result ibcc_vlarb_size(const ibcc_vlarb_desc *d, size_t *bytes)
{
    ibcc_vlarb_desc e;
    return ibcc_size_out_(ibcc_vlarb_desc_check_(d, &e), 0, bytes);
}

/* Table t (0 high, 1 low): its entries and count. */
static const ibcc_vlarb_entry *ibcc_vlarb_tab_(const ibcc_vlarb *a,
                                               unsigned t, uint32_t *n)
{
    *n = t ? a->d.n_low : a->d.n_high;
    return t ? a->d.low : a->d.high;
}

IBCC_API ibcc_result ibcc_vlarb_init(ibcc_vlarb *a, const ibcc_vlarb_desc *d,
                                     void *mem, size_t len)
{
    ibcc_vlarb_desc e;
    ibcc_result r;
    unsigned t;
    (void)mem; (void)len;
    if (!a || !d) return IBCC_ERR_NULL;
    r = ibcc_vlarb_desc_check_(d, &e);
    if (r != IBCC_OK) return r;
    memset(a, 0, sizeof *a);
    a->d = e;                          /* a may be where d is: e first */
    for (t = 0; t < 2u; t++) {
        uint32_t n;
        const ibcc_vlarb_entry *en = ibcc_vlarb_tab_(a, t, &n);
        a->left[t] = n ? (int64_t)en[0].weight * IBCC_VLARB_WEIGHT_UNIT : 0;
    }
    return IBCC_OK;
}

/* The entry table t would serve now: from the current one (with what is
   left of its weight) on, at most once around the table (each further
   entry with its whole weight); an entry serves when its VL is ready and
   weight is left. Nothing is changed: the pick commits. */
static int ibcc_vlarb_find_(const ibcc_vlarb *a, unsigned t, uint32_t ready,
                            uint32_t *idx, int64_t *left)
{
    uint32_t n, c = a->cur[t], k;
    const ibcc_vlarb_entry *en = ibcc_vlarb_tab_(a, t, &n);
    int64_t l = a->left[t];
    for (k = 0; n > 0 && k <= n; k++) {
        if (l > 0 && ((ready >> en[c].vl) & 1u)) {
            *idx = c;
            *left = l;
            return 1;
        }
        c = c + 1u == n ? 0u : c + 1u;
        l = (int64_t)en[c].weight * IBCC_VLARB_WEIGHT_UNIT;
    }
    return 0;
}

IBCC_API int ibcc_vlarb_pick(ibcc_vlarb *a, uint32_t ready, unsigned *vl)
{
    uint32_t ih = 0, il = 0, n;
    int64_t lh = 0, ll = 0;
    int hi, lo;
    unsigned t;
    if (!a || !vl) return 0;
    ready &= (UINT32_C(1) << a->d.vls) - 1u;
    hi = ibcc_vlarb_find_(a, 0u, ready, &ih, &lh);
    lo = ibcc_vlarb_find_(a, 1u, ready, &il, &ll);
    if (!lo) a->high_run = 0;          /* the low table had its chance */
    if (hi && (!lo || a->d.high_limit == IBCC_VLARB_UNLIMITED
               || a->high_run == 0
               || a->high_run < (uint64_t)a->d.high_limit
                                * IBCC_VLARB_LIMIT_UNIT))
        t = 0;
    else if (lo)
        t = 1;
    else
        return 0;
    a->cur[t] = t ? il : ih;
    a->left[t] = t ? ll : lh;
    a->pending = t + 1u;
    a->pending_vl = ibcc_vlarb_tab_(a, t, &n)[a->cur[t]].vl;
    *vl = a->pending_vl;
    return 1;
}

IBCC_API ibcc_result ibcc_vlarb_sent(ibcc_vlarb *a, unsigned vl,
                                     uint32_t bytes)
{
    unsigned t;
    if (!a) return IBCC_ERR_NULL;
    if (vl >= a->d.vls || bytes == 0) return IBCC_ERR_RANGE;
    if (a->pending == 0 || vl != a->pending_vl) return IBCC_ERR_MISMATCH;
    t = a->pending - 1u;
    a->left[t] -= (int64_t)bytes;
    if (a->left[t] <= 0) {              /* the entry's turn ends */
        uint32_t n;
        const ibcc_vlarb_entry *en = ibcc_vlarb_tab_(a, t, &n);
        a->cur[t] = a->cur[t] + 1u == n ? 0u : a->cur[t] + 1u;
        a->left[t] = (int64_t)en[a->cur[t]].weight * IBCC_VLARB_WEIGHT_UNIT;
    }
    if (t == 0) a->high_run += bytes;
    else a->high_run = 0;
    a->bytes[vl] += bytes;
    a->packets[vl]++;
    a->pending = 0;
    return IBCC_OK;
}

IBCC_API uint64_t ibcc_vlarb_bytes(const ibcc_vlarb *a, unsigned vl)
{
    if (!a || vl >= a->d.vls) return 0;
    return a->bytes[vl];
}

#ifndef IBCC_NO_STDIO
/* A table's text at the cursor up to its end (ibcc_vlarb_parse_table's
   rules; out and n checked by the caller). */
static ibcc_result ibcc_vlarb_table_cur_(ibcc_cur_ *cur, ibcc_vlarb_entry *out,
                                         uint32_t cap, uint32_t *n)
{
    ibcc_vlarb_entry tmp[IBCC_VLARB_MAX_ENTRIES];
    ibcc_result res = IBCC_OK;
    ibcc_cur_ c = *cur;
    uint32_t k = 0;
    while (!ibcc_cur_done_(&c)) {
        uint64_t v = 0, w = 0;
        ibcc_result rv, rw;
        rv = ibcc_cur_num_(&c, IBCC_VLARB_MAX_VLS - 1u, &v);
        if (rv == IBCC_ERR_PARSE) return rv;
        ibcc_cur_blanks_(&c);
        if (!ibcc_cur_lit_(&c, ":")) return IBCC_ERR_PARSE;
        ibcc_cur_blanks_(&c);
        rw = ibcc_cur_num_(&c, 255u, &w);
        if (rw == IBCC_ERR_PARSE) return rw;
        if (res == IBCC_OK) res = rv != IBCC_OK ? rv : rw;
        if (k < IBCC_VLARB_MAX_ENTRIES) {
            tmp[k].vl = (uint8_t)v;
            tmp[k].weight = (uint8_t)w;
        }
        if (k < UINT32_MAX) k++;
        if (ibcc_cur_done_(&c)) break;
        if (!ibcc_cur_lit_(&c, ",")) return IBCC_ERR_PARSE;
    }
    if (res != IBCC_OK) return res;
    if (k > IBCC_VLARB_MAX_ENTRIES || k > cap) return IBCC_ERR_CAPACITY;
    if (k > 0) memcpy(out, tmp, k * sizeof tmp[0]);
    *n = k;
    return IBCC_OK;
}

IBCC_API ibcc_result ibcc_vlarb_parse_table(const char *text,
                                            ibcc_vlarb_entry *out,
                                            uint32_t cap, uint32_t *n)
{
    ibcc_cur_ c;
    if (!text || !n || (!out && cap > 0)) return IBCC_ERR_NULL;
    c = ibcc_cur_str_(text);
    return ibcc_vlarb_table_cur_(&c, out, cap, n);
}

IBCC_API ibcc_result ibcc_vlarb_parse_limit(const char *text,
                                            uint32_t *limit)
{
    ibcc_cur_ c;
    uint32_t v = 0;
    ibcc_result r;
    if (!text || !limit) return IBCC_ERR_NULL;
    c = ibcc_cur_str_(text);
    r = ibcc_cur_field32_(&c, IBCC_VLARB_UNLIMITED, &v);
    if (r == IBCC_ERR_PARSE || !ibcc_cur_done_(&c)) return IBCC_ERR_PARSE;
    if (r != IBCC_OK) return r;
    *limit = v;
    return IBCC_OK;
}

IBCC_API ibcc_result ibcc_vlarb_print_table(const ibcc_vlarb_entry *e,
                                            uint32_t n, char *buf,
                                            size_t len)
{
    ibcc_out_ o;
    uint32_t i;
    if (!buf || (!e && n > 0)) return IBCC_ERR_NULL;
    if (n > IBCC_VLARB_MAX_ENTRIES) return IBCC_ERR_CAPACITY;
    for (i = 0; i < n; i++)
        if (e[i].vl >= IBCC_VLARB_MAX_VLS) return IBCC_ERR_RANGE;
    ibcc_out_begin_(&o, buf, len);
    for (i = 0; i < n; i++) {
        if (i > 0) ibcc_out_str_(&o, ",");
        ibcc_out_dec_(&o, e[i].vl);
        ibcc_out_str_(&o, ":");
        ibcc_out_dec_(&o, e[i].weight);
    }
    return ibcc_out_end_(&o);
}
#endif /* IBCC_NO_STDIO */

/* ---- L1 qos: implementation ------------------------------------------- */

/* OpenSM's built-in value of table t (0 high, 1 low) or of sl2vl. */
static void ibcc_qos_builtin_(unsigned t, ibcc_vlarb_entry *e, uint32_t *n)
{
    uint32_t v;
    for (v = 0; v < IBCC_VLARB_MAX_VLS; v++) {
        e[v].vl = (uint8_t)v;
        e[v].weight = (uint8_t)(((v == 0) == (t == 0)) ? 4u : 0u);
    }
    *n = IBCC_VLARB_MAX_VLS;
}

/* The set whose value k (a GIVEN bit) port type t takes, or NULL. */
static const ibcc_qos_set *ibcc_qos_pick_(const ibcc_qos_config *c,
                                          unsigned t, uint32_t k)
{
    if (c->set[t].given & k) return &c->set[t];
    if (c->set[IBCC_QOS_ANY].given & k) return &c->set[IBCC_QOS_ANY];
    return NULL;
}

static int ibcc_qos_vls_ok_(uint32_t v)
{
    return v == 1 || v == 2 || v == 4 || v == 8 || v == IBCC_VLARB_MAX_VLS;
}

IBCC_API ibcc_result ibcc_qos_port_setting(const ibcc_qos_config *c,
                                           ibcc_qos_port t,
                                           ibcc_vlarb_desc *d,
                                           uint8_t *sl2vl)
{
    ibcc_vlarb_desc e;
    uint8_t map[IBCC_QOS_SLS];
    const ibcc_qos_set *s;
    uint32_t mask, i;
    unsigned k;
    if (!c || !d) return IBCC_ERR_NULL;
    if ((unsigned)t >= (unsigned)IBCC_QOS_ANY) return IBCC_ERR_RANGE;
    memset(&e, 0, sizeof e);
    s = ibcc_qos_pick_(c, (unsigned)t, IBCC_QOS_GIVEN_MAX_VLS);
    e.vls = s ? s->max_vls : IBCC_VLARB_MAX_VLS;
    if (!ibcc_qos_vls_ok_(e.vls)) return IBCC_ERR_RANGE;
    s = ibcc_qos_pick_(c, (unsigned)t, IBCC_QOS_GIVEN_HIGH_LIMIT);
    e.high_limit = s ? s->high_limit : 0u;
    if (e.high_limit > IBCC_VLARB_UNLIMITED) return IBCC_ERR_RANGE;
    mask = e.vls == IBCC_VLARB_MAX_VLS ? 15u : e.vls - 1u;
    for (k = 0; k < 2u; k++) {
        uint32_t *n = k ? &e.n_low : &e.n_high;
        ibcc_vlarb_entry *en = k ? e.low : e.high;
        s = ibcc_qos_pick_(c, (unsigned)t, k ? IBCC_QOS_GIVEN_VLARB_LOW
                                             : IBCC_QOS_GIVEN_VLARB_HIGH);
        if (s) {
            *n = k ? s->n_low : s->n_high;
            if (*n > IBCC_VLARB_MAX_ENTRIES) return IBCC_ERR_CAPACITY;
            if (*n) memcpy(en, k ? s->low : s->high, *n * sizeof en[0]);
        } else {
            ibcc_qos_builtin_(k, en, n);
        }
        for (i = 0; i < *n; i++) {
            if (en[i].vl >= IBCC_VLARB_MAX_VLS) return IBCC_ERR_RANGE;
            en[i].vl = (uint8_t)(en[i].vl & mask);
        }
    }
    if (e.n_high == 0 && e.n_low == 0) return IBCC_ERR_RANGE;
    s = ibcc_qos_pick_(c, (unsigned)t, IBCC_QOS_GIVEN_SL2VL);
    for (i = 0; i < IBCC_QOS_SLS; i++) {
        uint32_t v = s ? s->sl2vl[i] : (i < 15u ? i : 7u);
        if (v > 15u) return IBCC_ERR_RANGE;
        map[i] = (uint8_t)(v == 15u ? 15u : (v & mask));
    }
    if (ibcc_vlarb_defaults(&e) != IBCC_OK) return IBCC_ERR_RANGE;
    *d = e;
    if (sl2vl) memcpy(sl2vl, map, sizeof map);
    return IBCC_OK;
}

#ifndef IBCC_NO_STDIO
static const char *const ibcc_qos_prefix_[4] = { "ca_", "sw0_", "swe_", "rtr_" };
static const char *const ibcc_qos_key_[5] = {
    "max_vls", "high_limit", "vlarb_high", "vlarb_low", "sl2vl"
};

/* sl2vl's value: 16 VLs 0..15 separated by commas (one trailing comma
   allowed, blanks around them). */
static ibcc_result ibcc_qos_sl2vl_cur_(ibcc_cur_ *c, uint8_t *map)
{
    uint8_t t[IBCC_QOS_SLS];
    ibcc_result r = IBCC_OK;
    uint32_t k = 0;
    while (!ibcc_cur_done_(c)) {
        uint64_t v = 0;
        ibcc_result rv = ibcc_cur_num_(c, 15u, &v);
        if (rv == IBCC_ERR_PARSE) return rv;
        if (r == IBCC_OK) r = rv;
        if (k < IBCC_QOS_SLS) t[k] = (uint8_t)v;
        k++;
        if (k > IBCC_QOS_SLS) return IBCC_ERR_PARSE;
        if (ibcc_cur_done_(c)) break;
        if (!ibcc_cur_lit_(c, ",")) return IBCC_ERR_PARSE;
    }
    if (k != IBCC_QOS_SLS) return IBCC_ERR_PARSE;
    if (r != IBCC_OK) return r;
    memcpy(map, t, sizeof t);
    return IBCC_OK;
}

/* One line (ibcc_linefn_). */
static ibcc_result ibcc_qos_line_(void *ctx, ibcc_cur_ *cur, uint32_t line)
{
    ibcc_qos_config *c = (ibcc_qos_config *)ctx;
    ibcc_qos_set *s;
    ibcc_result r = IBCC_OK;
    unsigned t = IBCC_QOS_ANY, k = 0;
    ibcc_cur_blanks_(cur);
    if (cur->p == cur->e || *cur->p == '#') return IBCC_OK;
    if (ibcc_cur_word_(cur, "qos")) {
        int on;
        ibcc_cur_blanks_(cur);
        if (ibcc_cur_word_(cur, "TRUE")) on = 1;
        else if (ibcc_cur_word_(cur, "FALSE")) on = 0;
        else return IBCC_ERR_PARSE;
        if (!ibcc_cur_done_(cur)) return IBCC_ERR_PARSE;
        c->qos = on;
        return IBCC_OK;
    }
    if (ibcc_cur_lit_(cur, "qos_"))
        for (t = 0; t < 4u && !ibcc_cur_lit_(cur, ibcc_qos_prefix_[t]); t++) {}
    else
        k = 5u;
    if (t == 4u) t = IBCC_QOS_ANY;
    while (k < 5u && !ibcc_cur_word_(cur, ibcc_qos_key_[k])) k++;
    if (k == 5u) { c->other++; return IBCC_OK; }
    s = &c->set[t];
    ibcc_cur_blanks_(cur);
    if (k >= 2u && ibcc_cur_word_(cur, "(null)")) {
        if (!ibcc_cur_done_(cur)) return IBCC_ERR_PARSE;
        s->given &= ~(1u << k);
        s->line[k] = 0;
        return IBCC_OK;
    }
    if (k == 1u && ibcc_cur_word_(cur, "-1")) {
        if (!ibcc_cur_done_(cur)) return IBCC_ERR_PARSE;
        s->given &= ~(1u << k);
        s->line[k] = 0;
        return IBCC_OK;
    }
    if (k <= 1u) {
        uint32_t v = 0;
        if (!ibcc_fold_(&r, ibcc_cur_field32_(cur, k ? 255u : 0xffu, &v))
            || !ibcc_cur_done_(cur))
            return IBCC_ERR_PARSE;
        if (r != IBCC_OK) return r;
        if (k == 0) {
            if (v != 0 && !ibcc_qos_vls_ok_(v)) return IBCC_ERR_RANGE;
            if (v == 0) { s->given &= ~1u; s->line[0] = 0; return IBCC_OK; }
            s->max_vls = v;
        } else {
            s->high_limit = v;
        }
    } else if (k == 4u) {
        r = ibcc_qos_sl2vl_cur_(cur, s->sl2vl);
    } else {
        r = ibcc_vlarb_table_cur_(cur, k == 2u ? s->high : s->low,
                                  IBCC_VLARB_MAX_ENTRIES,
                                  k == 2u ? &s->n_high : &s->n_low);
    }
    if (r != IBCC_OK) return r;
    s->given |= 1u << k;
    s->line[k] = line;
    return IBCC_OK;
}

/* The max_vls that value k (a GIVEN bit) of set t must stay below: a
   port type's own, else the unprefixed one, else 15; for the unprefixed
   set, the smallest of those of the port types that take value k from
   it (15 when none does). */
static uint32_t ibcc_qos_limit_(const ibcc_qos_config *c, unsigned t,
                                uint32_t k)
{
    uint32_t m = IBCC_VLARB_MAX_VLS;
    unsigned u;
    for (u = 0; u < 4u; u++) {
        const ibcc_qos_set *s = ibcc_qos_pick_(c, u, IBCC_QOS_GIVEN_MAX_VLS);
        uint32_t v = s ? s->max_vls : IBCC_VLARB_MAX_VLS;
        if (t == u) return v;
        if (t == IBCC_QOS_ANY && !(c->set[u].given & k) && v < m) m = v;
    }
    return m;
}

/* After the text: every given VL of every set below its max_vls. */
static ibcc_result ibcc_qos_check_(const ibcc_qos_config *c,
                                   unsigned *bad_line)
{
    unsigned t, k;
    uint32_t i;
    for (t = 0; t < IBCC_QOS_SETS; t++) {
        const ibcc_qos_set *s = &c->set[t];
        for (k = 2u; k < 5u; k++) {
            uint32_t m = ibcc_qos_limit_(c, t, 1u << k);
            int bad = 0;
            if (!(s->given & (1u << k))) continue;
            if (k == 4u) {
                for (i = 0; i < IBCC_QOS_SLS; i++)
                    if (s->sl2vl[i] != 15u && s->sl2vl[i] >= m) bad = 1;
            } else {
                uint32_t n = k == 2u ? s->n_high : s->n_low;
                const ibcc_vlarb_entry *e = k == 2u ? s->high : s->low;
                for (i = 0; i < n; i++)
                    if (e[i].vl >= m) bad = 1;
            }
            if (bad) {
                if (bad_line) *bad_line = s->line[k];
                return IBCC_ERR_RANGE;
            }
        }
    }
    return IBCC_OK;
}

IBCC_API ibcc_result ibcc_qos_parse_opensm(ibcc_qos_config *c,
                                           const char *text,
                                           unsigned *bad_line)
{
    uint32_t line = 0;
    ibcc_result r;
    if (bad_line) *bad_line = 0;
    if (!c || !text) return IBCC_ERR_NULL;
    r = ibcc_lines_(text, strlen(text), c, ibcc_qos_line_, &line);
    if (r != IBCC_OK) {
        if (bad_line) *bad_line = (unsigned)line;
        return r;
    }
    return ibcc_qos_check_(c, bad_line);
}
#endif /* IBCC_NO_STDIO */

/* ---- L1 swcc: implementation ------------------------------------------ */

/* 256-bit mask (bit p of word p/32 = port p) as a big-endian 32-byte
   field: word w holds ports 32w..32w+31, i.e. field bytes 28-4w..31-4w. */
static void ibcc_swcc_put_mask_(uint8_t *field, const uint32_t *mask)
{
    unsigned w;
    for (w = 0; w < 8u; w++) ibcc_put32_(field + 28u - 4u * w, mask[w]);
}
static void ibcc_swcc_get_mask_(uint32_t *mask, const uint8_t *field)
{
    unsigned w;
    for (w = 0; w < 8u; w++) mask[w] = ibcc_get32_(field + 28u - 4u * w);
}

IBCC_API ibcc_result ibcc_swcc_validate(const ibcc_swcc *s)
{
    if (!s) return IBCC_ERR_NULL;
    if (s->control_map & ~(uint32_t)0x1fu) return IBCC_ERR_RANGE;
    if (s->threshold > 15u || s->packet_size > 255u || s->cs_threshold > 15u ||
        s->cs_return_delay_shift > 3u || s->cs_return_delay_mult > 16383u ||
        s->marking_rate > 65535u)
        return IBCC_ERR_RANGE;
    return IBCC_OK;
}

IBCC_API ibcc_result ibcc_swport_validate(const ibcc_swport *e)
{
    if (!e) return IBCC_ERR_NULL;
    if (e->valid > 1u || e->control_type > 1u || e->threshold > 15u ||
        e->packet_size > 255u || e->marking_rate > 65535u)
        return IBCC_ERR_RANGE;
    return IBCC_OK;
}

IBCC_API ibcc_result ibcc_swcc_encode(const ibcc_swcc *s, uint8_t *out,
                                      size_t len)
{
    ibcc_result r;
    if (!s || !out) return IBCC_ERR_NULL;
    if (len < IBCC_SWCC_MAD_BYTES) return IBCC_ERR_NOMEM;
    r = ibcc_swcc_validate(s);
    if (r != IBCC_OK) return r;
    memset(out, 0, IBCC_SWCC_MAD_BYTES);
    ibcc_put32_(out + 0, s->control_map);
    ibcc_swcc_put_mask_(out + 4, s->victim_mask);
    ibcc_swcc_put_mask_(out + 36, s->credit_mask);
    out[68] = (uint8_t)(s->threshold << 4);
    out[69] = (uint8_t)s->packet_size;
    out[70] = (uint8_t)(s->cs_threshold << 4);
    ibcc_put16_(out + 72, (s->cs_return_delay_shift << 14) |
                               s->cs_return_delay_mult);
    ibcc_put16_(out + 74, s->marking_rate);
    return IBCC_OK;
}

IBCC_API ibcc_result ibcc_swcc_decode(ibcc_swcc *s, const uint8_t *in,
                                      size_t len)
{
    uint32_t rd;
    if (!s || !in) return IBCC_ERR_NULL;
    if (len < IBCC_SWCC_MAD_BYTES) return IBCC_ERR_NOMEM;
    memset(s, 0, sizeof *s);
    s->control_map = ibcc_get32_(in + 0);
    ibcc_swcc_get_mask_(s->victim_mask, in + 4);
    ibcc_swcc_get_mask_(s->credit_mask, in + 36);
    s->threshold = (uint32_t)in[68] >> 4;
    s->packet_size = in[69];
    s->cs_threshold = (uint32_t)in[70] >> 4;
    rd = ibcc_get16_(in + 72);
    s->cs_return_delay_shift = rd >> 14;
    s->cs_return_delay_mult = rd & 0x3fffu;
    s->marking_rate = ibcc_get16_(in + 74);
    return IBCC_OK;
}

IBCC_API ibcc_result ibcc_swport_encode(const ibcc_swport *e, uint8_t *out,
                                        size_t len)
{
    ibcc_result r;
    if (!e || !out) return IBCC_ERR_NULL;
    if (len < IBCC_SWPORT_BYTES) return IBCC_ERR_NOMEM;
    r = ibcc_swport_validate(e);
    if (r != IBCC_OK) return r;
    out[0] = (uint8_t)((e->valid << 7) | (e->control_type << 6) | e->threshold);
    out[1] = (uint8_t)e->packet_size;
    ibcc_put16_(out + 2, e->marking_rate);
    return IBCC_OK;
}

IBCC_API ibcc_result ibcc_swport_decode(ibcc_swport *e, const uint8_t *in,
                                        size_t len)
{
    if (!e || !in) return IBCC_ERR_NULL;
    if (len < IBCC_SWPORT_BYTES) return IBCC_ERR_NOMEM;
    e->valid = (uint32_t)(in[0] >> 7) & 1u;
    e->control_type = (uint32_t)(in[0] >> 6) & 1u;
    e->threshold = (uint32_t)in[0] & 0x0fu;
    e->packet_size = in[1];
    e->marking_rate = ibcc_get16_(in + 2);
    return IBCC_OK;
}

#ifndef IBCC_NO_STDIO
/* ---- text: what differs from cacc is the 256-bit mask and the names ---- */

/* 256-bit mask token: 0x + up to 64 significant hex digits, or a decimal
   below 2^64. */
static ibcc_result ibcc_swcc_mask_(ibcc_cur_ *c, uint32_t *mask)
{
    uint32_t m[8] = {0, 0, 0, 0, 0, 0, 0, 0};
    ibcc_cur_ t;
    size_t n, i, k;
    ibcc_cur_blanks_(c);
    t.p = c->p;
    t.e = ibcc_cur_tokend_(c);
    c->p = t.e;
    n = (size_t)(t.e - t.p);
    if (n > 2 && t.p[0] == '0' && (t.p[1] == 'x' || t.p[1] == 'X')) {
        for (i = 2; i < n; i++)
            if (ibcc_hexdigit_(t.p[i]) < 0) return IBCC_ERR_PARSE;
        i = 2;
        while (i < n - 1u && t.p[i] == '0') i++;   /* leading zeros */
        if (n - i > 64u) return IBCC_ERR_RANGE;
        /* digit k from the right holds bits 4k..4k+3 */
        for (k = 0; k < n - i; k++)
            m[k / 8u] |= (uint32_t)ibcc_hexdigit_(t.p[n - 1u - k]) << (4u * (k % 8u));
    } else {
        uint64_t x = 0;
        ibcc_result r = ibcc_cur_digits_(&t, 10u, UINT64_MAX, &x);
        if (r == IBCC_ERR_PARSE || t.p != t.e) return IBCC_ERR_PARSE;
        if (r != IBCC_OK) return r;
        m[0] = (uint32_t)x;
        m[1] = (uint32_t)(x >> 32);
    }
    memcpy(mask, m, sizeof m);
    return IBCC_OK;
}

/* Hex of a 256-bit mask without leading zeros ("0x0" for none). */
static void ibcc_swcc_mask_out_(ibcc_out_ *o, const uint32_t *mask)
{
    int w = 7;
    while (w > 0 && mask[w] == 0) w--;
    ibcc_out_hex_(o, mask[w]);
    while (--w >= 0) ibcc_out_digits_(o, mask[w], 16u, 8u);
}

static ibcc_result ibcc_swcc_delay_(ibcc_cur_ *c, ibcc_swcc *v)
{
    return ibcc_cur_pair_(c, 0, &v->cs_return_delay_shift,
                          &v->cs_return_delay_mult);
}

IBCC_API ibcc_result ibcc_swcc_parse_args(ibcc_swcc *s, const char *text)
{
    ibcc_swcc v;
    ibcc_cur_ c;
    ibcc_result r = IBCC_OK;
    if (!s || !text) return IBCC_ERR_NULL;
    memset(&v, 0, sizeof v);
    c = ibcc_cur_str_(text);
    ibcc_cur_blanks_(&c);
    (void)ibcc_cur_word_(&c, "SwitchCongestionSetting");
    if (!ibcc_fold_(&r, ibcc_cur_field32_(&c, UINT32_MAX, &v.control_map))
        || !ibcc_fold_(&r, ibcc_swcc_mask_(&c, v.victim_mask))
        || !ibcc_fold_(&r, ibcc_swcc_mask_(&c, v.credit_mask))
        || !ibcc_fold_(&r, ibcc_cur_field32_(&c, 15u, &v.threshold))
        || !ibcc_fold_(&r, ibcc_cur_field32_(&c, 255u, &v.packet_size))
        || !ibcc_fold_(&r, ibcc_cur_field32_(&c, 15u, &v.cs_threshold))
        || !ibcc_fold_(&r, ibcc_swcc_delay_(&c, &v))
        || !ibcc_fold_(&r, ibcc_cur_field32_(&c, 65535u, &v.marking_rate))
        || !ibcc_cur_done_(&c))
        return IBCC_ERR_PARSE;
    if (r == IBCC_OK) r = ibcc_swcc_validate(&v);
    if (r == IBCC_OK) *s = v;
    return r;
}

IBCC_API ibcc_result ibcc_swport_parse_args(ibcc_swport *e, unsigned *port,
                                            const char *text)
{
    ibcc_swport v;
    uint32_t pt = 0;
    ibcc_cur_ c;
    ibcc_result r = IBCC_OK;
    if (!e || !port || !text) return IBCC_ERR_NULL;
    memset(&v, 0, sizeof v);
    c = ibcc_cur_str_(text);
    ibcc_cur_blanks_(&c);
    (void)ibcc_cur_word_(&c, "SwitchPortCongestionSetting");
    if (!ibcc_fold_(&r, ibcc_cur_field32_(&c, 255u, &pt))
        || !ibcc_fold_(&r, ibcc_cur_field32_(&c, 1u, &v.valid))
        || !ibcc_fold_(&r, ibcc_cur_field32_(&c, 1u, &v.control_type))
        || !ibcc_fold_(&r, ibcc_cur_field32_(&c, 15u, &v.threshold))
        || !ibcc_fold_(&r, ibcc_cur_field32_(&c, 255u, &v.packet_size))
        || !ibcc_fold_(&r, ibcc_cur_field32_(&c, 65535u, &v.marking_rate))
        || !ibcc_cur_done_(&c))
        return IBCC_ERR_PARSE;
    if (r != IBCC_OK) return r;
    *e = v;
    *port = pt;
    return IBCC_OK;
}

IBCC_API ibcc_result ibcc_swcc_print_args(const ibcc_swcc *s, char *buf,
                                          size_t len)
{
    ibcc_out_ o;
    ibcc_result r;
    if (!s || !buf) return IBCC_ERR_NULL;
    if ((r = ibcc_swcc_validate(s)) != IBCC_OK) return r;
    ibcc_out_begin_(&o, buf, len);
    ibcc_out_str_(&o, "SwitchCongestionSetting ");
    ibcc_out_hex_(&o, s->control_map);
    ibcc_out_str_(&o, " ");
    ibcc_swcc_mask_out_(&o, s->victim_mask);
    ibcc_out_str_(&o, " ");
    ibcc_swcc_mask_out_(&o, s->credit_mask);
    ibcc_out_str_(&o, " ");
    ibcc_out_dec_(&o, s->threshold);
    ibcc_out_str_(&o, " ");
    ibcc_out_dec_(&o, s->packet_size);
    ibcc_out_str_(&o, " ");
    ibcc_out_dec_(&o, s->cs_threshold);
    ibcc_out_str_(&o, " ");
    ibcc_out_pair_(&o, s->cs_return_delay_shift, s->cs_return_delay_mult);
    ibcc_out_str_(&o, " ");
    ibcc_out_dec_(&o, s->marking_rate);
    return ibcc_out_end_(&o);
}

IBCC_API ibcc_result ibcc_swport_print_args(const ibcc_swport *e,
                                            unsigned port, char *buf,
                                            size_t len)
{
    ibcc_out_ o;
    ibcc_result r;
    if (!e || !buf) return IBCC_ERR_NULL;
    if ((r = ibcc_swport_validate(e)) != IBCC_OK) return r;
    if (port > 255u) return IBCC_ERR_RANGE;
    ibcc_out_begin_(&o, buf, len);
    ibcc_out_str_(&o, "SwitchPortCongestionSetting ");
    ibcc_out_dec_(&o, port);
    ibcc_out_str_(&o, " ");
    ibcc_out_dec_(&o, e->valid);
    ibcc_out_str_(&o, " ");
    ibcc_out_dec_(&o, e->control_type);
    ibcc_out_str_(&o, " ");
    ibcc_out_dec_(&o, e->threshold);
    ibcc_out_str_(&o, " ");
    ibcc_out_dec_(&o, e->packet_size);
    ibcc_out_str_(&o, " ");
    ibcc_out_dec_(&o, e->marking_rate);
    return ibcc_out_end_(&o);
}

#define IBCC_SWCC_OPT_ "cc_sw_cong_setting_"
static const char *const ibcc_swcc_opt_[8] = {
    "control_map", "victim_mask", "credit_mask", "threshold",
    "packet_size", "credit_starvation_threshold",
    "credit_starvation_return_delay", "marking_rate"
};

/* One option line (ibcc_linefn_). */
static ibcc_result ibcc_swcc_line_(void *ctx, ibcc_cur_ *c, uint32_t line)
{
    ibcc_swcc *s = (ibcc_swcc *)ctx, x = *s;
    ibcc_result r;
    unsigned i = 0;
    (void)line;
    ibcc_cur_blanks_(c);
    if (c->p == c->e || *c->p == '#') return IBCC_OK;
    if (!ibcc_cur_lit_(c, IBCC_SWCC_OPT_)) return IBCC_ERR_NOT_FOUND;
    while (i < 8u && !ibcc_cur_word_(c, ibcc_swcc_opt_[i])) i++;
    switch (i) {
    case 0: r = ibcc_cur_field32_(c, 0x1fu, &x.control_map); break;
    case 1: r = ibcc_swcc_mask_(c, x.victim_mask); break;
    case 2: r = ibcc_swcc_mask_(c, x.credit_mask); break;
    case 3: r = ibcc_cur_field32_(c, 15u, &x.threshold); break;
    case 4: r = ibcc_cur_field32_(c, 255u, &x.packet_size); break;
    case 5: r = ibcc_cur_field32_(c, 15u, &x.cs_threshold); break;
    case 6: r = ibcc_swcc_delay_(c, &x); break;
    case 7: r = ibcc_cur_field32_(c, 65535u, &x.marking_rate); break;
    default: return IBCC_ERR_NOT_FOUND;
    }
    if (r == IBCC_ERR_PARSE || !ibcc_cur_done_(c)) return IBCC_ERR_PARSE;
    if (r == IBCC_OK) *s = x;
    return r;
}

IBCC_API ibcc_result ibcc_swcc_parse_opensm_line(ibcc_swcc *s,
                                                 const char *line)
{
    ibcc_cur_ c;
    if (!s || !line) return IBCC_ERR_NULL;
    c = ibcc_cur_str_(line);
    return ibcc_swcc_line_(s, &c, 1u);
}

IBCC_API ibcc_result ibcc_swcc_parse_opensm(ibcc_swcc *s, const char *text,
                                            unsigned *bad_line)
{
    if (bad_line) *bad_line = 0;
    if (!s || !text) return IBCC_ERR_NULL;
    return ibcc_opt_text_(s, ibcc_swcc_line_, text, bad_line);
}

IBCC_API ibcc_result ibcc_swcc_print_opensm(const ibcc_swcc *s, char *buf,
                                            size_t len)
{
    ibcc_out_ o;
    ibcc_result r;
    uint32_t v[8] = {0, 0, 0, 0, 0, 0, 0, 0};
    unsigned i;
    if (!s || !buf) return IBCC_ERR_NULL;
    if ((r = ibcc_swcc_validate(s)) != IBCC_OK) return r;
    v[0] = s->control_map;
    v[3] = s->threshold;
    v[4] = s->packet_size;
    v[5] = s->cs_threshold;
    v[7] = s->marking_rate;
    ibcc_out_begin_(&o, buf, len);
    for (i = 0; i < 8u; i++) {
        ibcc_out_str_(&o, IBCC_SWCC_OPT_);
        ibcc_out_str_(&o, ibcc_swcc_opt_[i]);
        ibcc_out_str_(&o, " ");
        if (i == 1 || i == 2)
            ibcc_swcc_mask_out_(&o, i == 1 ? s->victim_mask : s->credit_mask);
        else if (i == 6)
            ibcc_out_pair_(&o, s->cs_return_delay_shift, s->cs_return_delay_mult);
        else
            ibcc_out_hex_(&o, v[i]);
        ibcc_out_str_(&o, "\n");
    }
    return ibcc_out_end_(&o);
}
#endif /* IBCC_NO_STDIO */

IBCC_API ibcc_result ibcc_marker_apply_swcc(ibcc_marker *m,
                                            const ibcc_swcc *s)
{
    ibcc_result r;
    unsigned p, w;
    if (!m || !s) return IBCC_ERR_NULL;
    if ((r = ibcc_swcc_validate(s)) != IBCC_OK) return r;
    if (m->d.engine != IBCC_MARKER_IBA) return IBCC_ERR_STATE;
    if (s->control_map & (IBCC_SWCC_CREDIT_MASK | IBCC_SWCC_CS))
        return IBCC_ERR_UNSUPPORTED;
    if (s->control_map & IBCC_SWCC_VICTIM_MASK) {
        for (p = m->d.ports; p < 256u; p++)
            if ((s->victim_mask[p / 32u] >> (p % 32u)) & 1u) return IBCC_ERR_RANGE;
        for (w = 0; w < 4u; w++)
            m->victim[w] = (uint64_t)s->victim_mask[2u * w] |
                           ((uint64_t)s->victim_mask[2u * w + 1u] << 32);
    }
    for (p = 0; p < m->d.ports; p++) {
        const ibcc_mport_ *q = &m->port[p];
        unsigned thr = q->iba_weight;
        unsigned psize = q->iba_min_bytes / IBCC_CREDIT_BYTES;
        unsigned rate = q->iba_rate;
        if (!(s->control_map & (IBCC_SWCC_THRESHOLD | IBCC_SWCC_MARKING_RATE)))
            break;
        if (s->control_map & IBCC_SWCC_THRESHOLD) {
            thr = s->threshold;
            psize = s->packet_size;
        }
        if (s->control_map & IBCC_SWCC_MARKING_RATE) rate = s->marking_rate;
        r = ibcc_marker_set_iba_port(m, p, thr, psize, rate);
        if (r != IBCC_OK) return r;   /* not reached: values validated */
    }
    return IBCC_OK;
}

IBCC_API ibcc_result ibcc_marker_apply_swport(ibcc_marker *m, unsigned port,
                                              const ibcc_swport *e)
{
    ibcc_result r;
    if (!m || !e) return IBCC_ERR_NULL;
    if ((r = ibcc_swport_validate(e)) != IBCC_OK) return r;
    if (m->d.engine != IBCC_MARKER_IBA) return IBCC_ERR_STATE;
    if (port >= m->d.ports) return IBCC_ERR_RANGE;
    if (!e->valid) return IBCC_OK;
    if (e->control_type != 0) return IBCC_ERR_UNSUPPORTED;
    return ibcc_marker_set_iba_port(m, port, e->threshold, e->packet_size,
                                    e->marking_rate);
}

/* ---- L1 law: implementation ------------------------------------------- */

#define IBCC_LAW_ONE_Q32_ UINT64_C(4294967296)  /* 1.0 in Q32.32 */
#define IBCC_LAW_MAX_ACKS_ (UINT64_C(1) << 26)  /* recovery helper limit */
#ifndef IBCC_NO_FLOAT
#define IBCC_LAW_Q32_ 4294967296.0
#define IBCC_LAW_EPS_ 1e-12                     /* relative slack when a
                                                   double result is compared
                                                   with a table rate */
#define IBCC_LAW_TREC_MAX_ACKS_ 16777216u       /* checker: Trec limit */
#define IBCC_LAW_COMPILE_ACKS_ 1048576u         /* compile: most ACKs one
                                                   entry steps before its
                                                   count is extrapolated */
#define IBCC_LAW_COMPILE_BUDGET_ 16777216u      /* compile: ACKs stepped for
                                                   the whole table (2^24):
                                                   each entry gets at most
                                                   budget / entries */
#define IBCC_LAW_COMPILE_MIN_ACKS_ 256u         /* compile: ACKs every entry
                                                   may step whatever the
                                                   table size */
#endif

/* ---- doubles read through their bits ------------------------------------
   The desc's rmin and m, a CONTINUOUS state's x and a table entry's rate
   are doubles in every profile. Validation, the DISCRETE parameters, the
   ROM check and the integer queries read them as IEEE 754 binary64 bit
   patterns, with no floating-point operation (so also under
   IBCC_NO_FLOAT). For non-negative values the bit patterns order as the
   values do, and negative values and NaNs lie above every positive
   finite pattern, so a range test [lo, hi) on the patterns is the same
   test as on the values with NaN and negatives rejected. */
#define IBCC_F64_SIGN_ UINT64_C(0x8000000000000000)
#define IBCC_F64_ONE_  UINT64_C(0x3FF0000000000000)  /* 1.0 */
#define IBCC_F64_2M8_  UINT64_C(0x3F70000000000000)  /* 2^-8 */
#define IBCC_F64_2M16_ UINT64_C(0x3EF0000000000000)  /* 2^-16 */
#define IBCC_F64_2P16_ UINT64_C(0x40F0000000000000)  /* 2^16 */

/* The bits by an 8-byte copy: the compiler's builtin on GCC and clang
   (inlined also with -ffreestanding, which turns the library one off). */
#if defined(__GNUC__) || defined(__clang__)
#define IBCC_COPY8_(d, s) __builtin_memcpy((d), (s), 8)
#else
#define IBCC_COPY8_(d, s) memcpy((d), (s), 8)
#endif
static uint64_t ibcc_f64_bits_(double v)
{
    uint64_t b;
    IBCC_COPY8_(&b, &v);
    return b;
}

/* v == 0.0 (either sign). */
static int ibcc_f64_zero_(double v)
{
    return (ibcc_f64_bits_(v) & ~IBCC_F64_SIGN_) == 0;
}

#ifndef IBCC_NO_FLOAT
/* v is a NaN. */
static int ibcc_f64_nan_(double v)
{
    return (ibcc_f64_bits_(v) & ~IBCC_F64_SIGN_) > UINT64_C(0x7FF0000000000000);
}
#endif

/* v = *mant * 2^*e exactly for finite v > 0 (mant < 2^53); 0 for zero,
   negative, infinite or NaN v. */
static int ibcc_f64_split_(double v, uint64_t *mant, int *e)
{
    uint64_t b = ibcc_f64_bits_(v);
    uint64_t ex = (b >> 52) & 0x7ffu, m = b & ((UINT64_C(1) << 52) - 1u);
    if ((b & IBCC_F64_SIGN_) || ex == 0x7ffu || (ex == 0 && m == 0)) return 0;
    if (ex == 0) { *mant = m; *e = -1074; }
    else { *mant = m | (UINT64_C(1) << 52); *e = (int)ex - 1075; }
    return 1;
}

/* (hi:lo) >> s for 0 <= s < 128, rounded: up != 0 rounds up, else to
   nearest with halves up. The result must fit 64 bits (callers ensure). */
static uint64_t ibcc_shr128_(uint64_t hi, uint64_t lo, unsigned s, int up)
{
    uint64_t q, rest_hi, rest_lo, half_hi, half_lo;
    int more;
    if (s == 0) return lo;
    if (s < 64) {
        q = (lo >> s) | (hi << (64u - s));
        rest_hi = 0; rest_lo = lo & ((UINT64_C(1) << s) - 1u);
        half_hi = 0; half_lo = UINT64_C(1) << (s - 1u);
    } else {
        q = s == 64 ? hi : hi >> (s - 64u);
        rest_hi = s == 64 ? 0 : hi & ((UINT64_C(1) << (s - 64u)) - 1u);
        rest_lo = lo;
        half_hi = s == 64 ? 0 : UINT64_C(1) << (s - 65u);
        half_lo = s == 64 ? (UINT64_C(1) << 63) : 0;
    }
    if (up) more = (rest_hi | rest_lo) != 0;
    else more = rest_hi > half_hi || (rest_hi == half_hi && rest_lo >= half_lo);
    return q + (more ? 1u : 0u);
}

/* v * 2^frac rounded (up != 0: up, else to nearest, halves up), for
   v * 2^frac below 2^64 (larger values saturate); 0 for v <= 0 or NaN. */
static uint64_t ibcc_f64_fix_(double v, int frac, int up)
{
    uint64_t m;
    int e;
    if (!ibcc_f64_split_(v, &m, &e)) return 0;
    e += frac;
    if (e >= 0) return e > 11 ? UINT64_MAX : m << e;
    if (e <= -128) return up ? 1u : 0u;
    return ibcc_shr128_(0, m, (unsigned)-e, up);
}

/* 2^(j/64) in Q2.62, j = 0 .. 63 (computed to 120 digits, rounded). */
static const uint64_t ibcc_law_exp2_tab_[64] = {
    UINT64_C(0x4000000000000000), UINT64_C(0x40B268F9DE0183BA), UINT64_C(0x4166C34C5615D0EC),
    UINT64_C(0x421D1461D66F2023), UINT64_C(0x42D561B3E6243D8A), UINT64_C(0x438FB0CB4F468808),
    UINT64_C(0x444C0740496D4294), UINT64_C(0x450A6ABAA4B77ECD), UINT64_C(0x45CAE0F1F545EB73),
    UINT64_C(0x468D6FADBF2DD4F3), UINT64_C(0x47521CC5A2E6A9E0), UINT64_C(0x4818EE218A3358EE),
    UINT64_C(0x48E1E9B9D588E19B), UINT64_C(0x49AD159789F37496), UINT64_C(0x4A7A77D47F7B84B1),
    UINT64_C(0x4B4A169B900C2D00), UINT64_C(0x4C1BF828C6DC54B8), UINT64_C(0x4CF022C9905BFD32),
    UINT64_C(0x4DC69CDCEAA72A9C), UINT64_C(0x4E9F6CD3967FDBA8), UINT64_C(0x4F7A993048D088D7),
    UINT64_C(0x50582887DCB8A7E1), UINT64_C(0x513821818624B40C), UINT64_C(0x521A8AD704F3404F),
    UINT64_C(0x52FF6B54D8A89C75), UINT64_C(0x53E6C9DA74B29AB5), UINT64_C(0x54D0AD5A753E077C),
    UINT64_C(0x55BD1CDAD49F699C), UINT64_C(0x56AC1F752150A563), UINT64_C(0x579DBC56B48521BA),
    UINT64_C(0x5891FAC0E95612C8), UINT64_C(0x5988E20954889245), UINT64_C(0x5A827999FCEF3242),
    UINT64_C(0x5B7EC8F19468BBC9), UINT64_C(0x5C7DD7A3B17DCF75), UINT64_C(0x5D7FAD59099F22FE),
    UINT64_C(0x5E8451CFAC061B5F), UINT64_C(0x5F8BCCDB3D398841), UINT64_C(0x6096266533384A2B),
    UINT64_C(0x61A3666D124BB204), UINT64_C(0x62B39508AA836D6F), UINT64_C(0x63C6BA6455DCD8AE),
    UINT64_C(0x64DCDEC3371793D1), UINT64_C(0x65F60A7F79393E2E), UINT64_C(0x6712460A8FC24072),
    UINT64_C(0x683199ED779592CA), UINT64_C(0x69540EC8F895722D), UINT64_C(0x6A79AD55E7F6FD10),
    UINT64_C(0x6BA27E656B4EB57A), UINT64_C(0x6CCE8AE13C57EBDB), UINT64_C(0x6DFDDBCBED791BAB),
    UINT64_C(0x6F307A412F074892), UINT64_C(0x70666F76154A7089), UINT64_C(0x719FC4B95F452D29),
    UINT64_C(0x72DC8373BE41A454), UINT64_C(0x741CB5281E25EE34), UINT64_C(0x75606373EE921C97),
    UINT64_C(0x76A7980F6CCA15C2), UINT64_C(0x77F25CCDEE6D7AE6), UINT64_C(0x7940BB9E2CFFD89D),
    UINT64_C(0x7A92BE8A92436616), UINT64_C(0x7BE86FB985689DDC), UINT64_C(0x7D41D96DB915019D),
    UINT64_C(0x7E9F06067A4360BA)
};
/* ln 2 and 1/k!, k = 0 .. 6, in Q2.62 */
#define IBCC_LAW_LN2_Q62_ UINT64_C(0x2C5C85FDF473DE6B)
static const uint64_t ibcc_law_exp_coef_[7] = {
    UINT64_C(0x4000000000000000), UINT64_C(0x4000000000000000),
    UINT64_C(0x2000000000000000), UINT64_C(0x0AAAAAAAAAAAAAAB),
    UINT64_C(0x02AAAAAAAAAAAAAB), UINT64_C(0x0088888888888889),
    UINT64_C(0x0016C16C16C16C17)
};

/* (a * b) >> 62 for a, b < 2^63 with the product below 2^126. */
static uint64_t ibcc_law_mulq62_(uint64_t a, uint64_t b)
{
    uint64_t hi, lo;
    ibcc_mul128_(a, b, &hi, &lo);
    return (hi << 2) | (lo >> 62);
}

/* log2(v) = *ip + *frac / 2^58 for a normal v > 0: v = mant 2^e,
   *ip = e + 52, *frac = log2(y) in Q0.58 for y = mant / 2^52 in [1, 2);
   the fraction bits come one by one from squaring y (Q2.62): y^2 >= 2
   sets the bit and halves y. 0 if v is not a positive normal double. */
static int ibcc_law_log2_(double v, int *ip, uint64_t *frac)
{
    uint64_t mant, y, out = 0;
    int e, i;
    if (!ibcc_f64_split_(v, &mant, &e) || mant < (UINT64_C(1) << 52)) return 0;
    y = mant << 10;                     /* Q2.62, [2^62, 2^63) */
    for (i = 57; i >= 0; i--) {
        y = ibcc_law_mulq62_(y, y);     /* [2^62, 2^64) */
        if (y >= (UINT64_C(1) << 63)) { y >>= 1; out |= UINT64_C(1) << i; }
    }
    *ip = e + 52;
    *frac = out;
    return 1;
}

/* 2^(f / 2^58) in Q2.62 for f < 2^58: 2^(j/64) from the table for the
   top 6 bits j, times e^t for the rest, t = (f mod 2^52) / 2^58 * ln 2
   < 0.011, by its Taylor polynomial to t^6 (Horner; the next term is
   below 2^-57). Good to a few units of 2^-62. */
static uint64_t ibcc_law_exp2_q62_(uint64_t f)
{
    uint64_t hi, lo, t, p;
    int k;
    ibcc_mul128_(f & ((UINT64_C(1) << 52) - 1u), IBCC_LAW_LN2_Q62_, &hi, &lo);
    t = (hi << 6) | (lo >> 58);                 /* Q2.62 */
    p = ibcc_law_exp_coef_[6];
    for (k = 5; k >= 0; k--) p = ibcc_law_exp_coef_[k] + ibcc_law_mulq62_(p, t);
    return ibcc_law_mulq62_(ibcc_law_exp2_tab_[f >> 52], p);
}

/* round(a * b / d), halves up, saturating at UINT64_MAX; d > 0. */
static uint64_t ibcc_law_rdiv_(uint64_t a, uint64_t b, uint64_t d)
{
    uint64_t q;
    if (ibcc_muldiv_(a, b, d, d / 2u, &q) != IBCC_OK) return UINT64_MAX;
    return q;
}

/* x_i = rmin^(i/(n-1)), 0 < i < n-1, of the geometric rate set, with
   integer arithmetic: 2^-(y i/(n-1)), y = -log2(rmin) in Q6.58, the power
   in Q2.62, rounded once to 53 bits. So the rate set is the same on every
   target (the C library's pow may differ in the last bit between
   libraries; seen between x86-64 and armhf glibc) and within about 2^-55
   of the exact rate. */
#ifndef IBCC_NO_FLOAT
static uint64_t ibcc_law_geo_bits_(double rmin, uint32_t i, uint32_t n)
{
    uint64_t fr, y, e, f, p, m;
    int ip, ex;
    if (!ibcc_law_log2_(rmin, &ip, &fr) || ip > -1 || ip < -16 || n < 3)
        return IBCC_F64_ONE_;
    y = ((uint64_t)-ip << 58) - fr;              /* -log2(rmin) > 0 */
    e = ibcc_law_rdiv_(y, i, n - 1u);           /* Q6.58 */
    f = e & ((UINT64_C(1) << 58) - 1u);
    /* 2^-e = 2^(-(e >> 58) - 1) * 2^(1 - f/2^58) */
    ex = -(int)(e >> 58) - 1;
    p = f ? ibcc_law_exp2_q62_((UINT64_C(1) << 58) - f) : UINT64_C(1) << 63;
    m = ibcc_shr128_(0, p, 10, 0);               /* Q2.52, [2^52, 2^53] */
    if (m >> 53) { m >>= 1; ex++; }
    /* value m 2^(ex - 52): biased exponent ex + 1023 (normal: rmin >= 2^-16) */
    return ((uint64_t)(ex + 1023) << 52) | (m & ((UINT64_C(1) << 52) - 1u));
}
#endif /* IBCC_NO_FLOAT */

#ifndef IBCC_NO_FLOAT
/* Clamp to [k, 1]; NaN becomes k. */
static double ibcc_law_clamp_(double y, double k)
{
    if (!(y >= k)) return k;
    if (y > 1.0) return 1.0;
    return y;
}
#endif /* IBCC_NO_FLOAT */

/* DISCRETE: a Q32.32 state clamped to [qmin, 2^32]. */
static uint64_t ibcc_law_clamp_q_(const ibcc_law *l, uint64_t q)
{
    if (q < l->qmin) return l->qmin;
    return q > IBCC_LAW_ONE_Q32_ ? IBCC_LAW_ONE_Q32_ : q;
}

/* DISCRETE: the state after an unmarked ACK of weight w (Q16.16) from q,
   y the law's full increase finc(q) before the clamp:
   q + w (clamp(y) - q), rounded to nearest, clamped. */
static uint64_t ibcc_law_weigh_q_(const ibcc_law *l, uint64_t q, uint64_t y,
                                  uint32_t w)
{
    y = ibcc_law_clamp_q_(l, y);
    if (w != 65536u && y > q) {
        /* (y - q) <= 2^32 and w < 2^32: the product fits */
        uint64_t add = ((y - q) * w + 32768u) >> 16;
        y = ibcc_law_clamp_q_(l, add > IBCC_LAW_ONE_Q32_ ? IBCC_LAW_ONE_Q32_ + 1u
                                                         : q + add);
    }
    return y;
}

/* ---- the laws: one operation table per kind ------------------------------
   Everything the shared code asks of a law kind is in its entry of
   ibcc_law_kinds_ (in enum order: entry kind - 1), so a new built-in law
   is its enum value, its functions and its entry (docs/law.md "Adding a
   law"); no code outside this sub-section names a kind. The shared code
   reaches an entry only for a validated desc (ibcc_law_desc_check_
   refuses a kind without one), so no lookup has a default. The
   functions of the table are named ibcc_law_op_* and only the table
   calls them (tools/stack.sh charges an indirect call of the law to the
   deepest of them). Formulas: docs/mechanisms.md [S03 §V], x normalised,
   k = rmin; the integer forms are described at "DISCRETE in integer
   arithmetic" below. */
typedef struct ibcc_law_ops_ {
    const char *name;       /* ibcc_law_kind_name / _parse, ibccsim --law */
    /* the kind's own rule on the effective desc, checked after the
       shared ones (NULL: none) */
    ibcc_result (*check)(const ibcc_law_desc *d);
    /* sets the kind's DISCRETE constant l->cq from l->d, l->k63 and
       l->m47 (NULL: none, cq stays 0) */
    void (*params)(ibcc_law *l);
    /* DISCRETE, Q32.32: fdec(q), and the increase of an unmarked ACK of
       weight w (Q16.16, 65536 = finc(q)), results clamped to [qmin, 2^32].
       NULL when the kind needs floating point: IBCC_NO_FLOAT refuses it */
    uint64_t (*dec_q)(const ibcc_law *l, uint64_t q);
    uint64_t (*inc_q)(const ibcc_law *l, uint64_t q, uint32_t w);
    /* fdec(x) and finc(x) before the clamp (0 under IBCC_NO_FLOAT) */
    double (*dec)(const ibcc_law_desc *d, double x);
    double (*inc)(const ibcc_law_desc *d, double x);
    /* closed-form recovery time Rmin -> Rmax in units of tau (NULL: none,
       ibcc_law_recovery_closed is UNSUPPORTED; 0 under IBCC_NO_FLOAT) */
    double (*closed)(const ibcc_law_desc *d);
} ibcc_law_ops_;

/* A floating-point operation in a table entry: 0 under IBCC_NO_FLOAT. */
#ifndef IBCC_NO_FLOAT
#define IBCC_LAW_FP_(f) f
#else
#define IBCC_LAW_FP_(f) 0
#endif

/* fdec(x) = x / m as fixed point: q 2^47 / m47 (FIMD, AIMD). */
static uint64_t ibcc_law_op_mult_dec_q_(const ibcc_law *l, uint64_t q)
{
    return ibcc_law_clamp_q_(l, ibcc_law_rdiv_(q, UINT64_C(1) << 47, l->m47));
}

/* LIPD: linear inter-packet delay. A mark adds one to 1+ipd, an unmarked
   ACK multiplies it by 1 - k. */
static uint64_t ibcc_law_op_lipd_dec_q_(const ibcc_law *l, uint64_t q)
{
    /* q 2^32 / (2^32 + q) */
    return ibcc_law_clamp_q_(l, ibcc_law_rdiv_(q, IBCC_LAW_ONE_Q32_,
                                               IBCC_LAW_ONE_Q32_ + q));
}
static uint64_t ibcc_law_op_lipd_inc_q_(const ibcc_law *l, uint64_t q, uint32_t w)
{
    /* q 2^63 / (2^63 - k63); rmin < 1 - 2^-53 keeps k63 below 2^63 - 2^9 */
    return ibcc_law_weigh_q_(l, q, ibcc_law_rdiv_(q, UINT64_C(1) << 63,
                                                  (UINT64_C(1) << 63) - l->k63), w);
}
#ifndef IBCC_NO_FLOAT
static double ibcc_law_op_lipd_dec_(const ibcc_law_desc *d, double x)
{
    (void)d;
    /* fdec(x) = 1 / (1/x + 1)   (IPD' = IPD + 1) */
    return 1.0 / (1.0 / x + 1.0);
}
static double ibcc_law_op_lipd_inc_(const ibcc_law_desc *d, double x)
{
    /* finc(x) = x / (1 - k)   (IPD' + 1 = (IPD + 1)(1 - k)) */
    return x / (1.0 - d->rmin);
}
static double ibcc_law_op_lipd_closed_(const ibcc_law_desc *d)
{
    /* 1/x falls by k/x per ACK of duration 1/x: d(1/x)/dt = -k
       =>  T = (1/k - 1) / k */
    double k = d->rmin;
    return (1.0 / k - 1.0) / k;
}
#endif

/* FIMD: fast increase, multiplicative decrease. */
static void ibcc_law_op_fimd_params_(ibcc_law *l)
{
    /* cq = log2(m) in Q6.58, m in (1, 65536]: integer part 0 .. 16 */
    int ip;
    uint64_t fr;
    if (ibcc_law_log2_(l->d.m, &ip, &fr) && ip >= 0 && ip <= 16)
        l->cq = ((uint64_t)ip << 58) | fr;
}
static uint64_t ibcc_law_op_fimd_inc_q_(const ibcc_law *l, uint64_t q, uint32_t w)
{
    /* q 2^e, e = rmin L / x = k63 L / (q 2^31) in Q6.58 (<= L: rmin <= x) */
    uint64_t e = ibcc_law_rdiv_(l->k63, l->cq, q << 31), p, hi, lo, y;
    unsigned ip = (unsigned)(e >> 58);
    if (ip > 16u) {
        y = UINT64_MAX;
    } else {
        p = ibcc_law_exp2_q62_(e & ((UINT64_C(1) << 58) - 1u));
        /* q p 2^ip / 2^62, p < 2^63: q <= 2^32 so the product < 2^95 */
        ibcc_mul128_(q, p, &hi, &lo);
        y = ibcc_shr128_(hi, lo, 62u - ip, 0);
    }
    return ibcc_law_weigh_q_(l, q, y, w);
}
#ifndef IBCC_NO_FLOAT
static double ibcc_law_op_mult_dec_(const ibcc_law_desc *d, double x)
{
    /* fdec(x) = x / m (FIMD, AIMD) */
    return x / d->m;
}
static double ibcc_law_op_fimd_inc_(const ibcc_law_desc *d, double x)
{
    /* finc(x) = x * m^(k/x) */
    return x * pow(d->m, d->rmin / x);
}
static double ibcc_law_op_fimd_closed_(const ibcc_law_desc *d)
{
    /* ln x grows by (k/x) ln m per ACK of duration 1/x:
       d(ln x)/dt = k ln m  =>  T = ln(1/k) / (k ln m) */
    double k = d->rmin;
    return log(1.0 / k) / (k * log(d->m));
}
#endif

/* AIMD: additive increase (in time), multiplicative decrease. */
static void ibcc_law_op_aimd_params_(ibcc_law *l)
{
    /* cq = (m-1) rmin^2 2^64 = (m47 - 2^47) k2 / 2^47, k2 = rmin^2 2^64 */
    uint64_t k2 = ibcc_law_rdiv_(l->k63, l->k63, UINT64_C(1) << 62);
    l->cq = ibcc_law_rdiv_(l->m47 - (UINT64_C(1) << 47), k2, UINT64_C(1) << 47);
}
static uint64_t ibcc_law_op_aimd_inc_q_(const ibcc_law *l, uint64_t q, uint32_t w)
{
    /* q + round(cq / q) */
    uint64_t add = l->cq / q, rem = l->cq % q;
    if (2u * rem >= q) add++;
    return ibcc_law_weigh_q_(l, q, add > UINT64_MAX - q ? UINT64_MAX : q + add, w);
}
#ifndef IBCC_NO_FLOAT
static double ibcc_law_op_aimd_inc_(const ibcc_law_desc *d, double x)
{
    /* finc(x) = x + (m-1) * k^2 / x   (dr/dt = (m-1) Rmin^2) */
    return x + (d->m - 1.0) * d->rmin * d->rmin / x;
}
static double ibcc_law_op_aimd_closed_(const ibcc_law_desc *d)
{
    /* x grows by (m-1)k^2/x per ACK of duration 1/x:
       dx/dt = (m-1) k^2  =>  T = (1 - k) / ((m-1) k^2) */
    double k = d->rmin;
    return (1.0 - k) / ((d->m - 1.0) * k * k);
}
#endif

/* CUSTOM: the caller's finc/fdec, both required. DISCRETE runs them on
   x = q / 2^32 in double (so not under IBCC_NO_FLOAT). */
static ibcc_result ibcc_law_op_custom_check_(const ibcc_law_desc *d)
{
    return (d->finc && d->fdec) ? IBCC_OK : IBCC_ERR_NULL;
}
#ifndef IBCC_NO_FLOAT
static double ibcc_law_op_custom_dec_(const ibcc_law_desc *d, double x)
{
    return d->fdec(x, d->user);
}
static double ibcc_law_op_custom_inc_(const ibcc_law_desc *d, double x)
{
    return d->finc(x, d->user);
}
/* A double result back to Q32.32, to nearest, clamped to [qmin, 2^32]. */
static uint64_t ibcc_law_q_of_x_(const ibcc_law *l, double x)
{
    double qd = floor(x * IBCC_LAW_Q32_ + 0.5);
    uint64_t q;
    if (!(qd >= (double)l->qmin)) return l->qmin;
    if (qd >= IBCC_LAW_Q32_) return IBCC_LAW_ONE_Q32_;
    q = (uint64_t)qd;
    return q < l->qmin ? l->qmin : q;
}
static uint64_t ibcc_law_op_custom_dec_q_(const ibcc_law *l, uint64_t q)
{
    double x = (double)q / IBCC_LAW_Q32_;
    return ibcc_law_q_of_x_(l, ibcc_law_clamp_(l->d.fdec(x, l->d.user),
                                               l->d.rmin));
}
static uint64_t ibcc_law_op_custom_inc_q_(const ibcc_law *l, uint64_t q, uint32_t w)
{
    double x = (double)q / IBCC_LAW_Q32_;
    double y = ibcc_law_clamp_(l->d.finc(x, l->d.user), l->d.rmin);
    if (w != 65536u)
        y = ibcc_law_clamp_(x + ((double)w / 65536.0) * (y - x), l->d.rmin);
    return ibcc_law_q_of_x_(l, y);
}
#endif

/* The kinds, in enum order (entry kind - 1). */
static const ibcc_law_ops_ ibcc_law_kinds_[] = {
    { "lipd", 0, 0, ibcc_law_op_lipd_dec_q_, ibcc_law_op_lipd_inc_q_,
      IBCC_LAW_FP_(ibcc_law_op_lipd_dec_), IBCC_LAW_FP_(ibcc_law_op_lipd_inc_),
      IBCC_LAW_FP_(ibcc_law_op_lipd_closed_) },
    { "fimd", 0, ibcc_law_op_fimd_params_, ibcc_law_op_mult_dec_q_, ibcc_law_op_fimd_inc_q_,
      IBCC_LAW_FP_(ibcc_law_op_mult_dec_), IBCC_LAW_FP_(ibcc_law_op_fimd_inc_),
      IBCC_LAW_FP_(ibcc_law_op_fimd_closed_) },
    { "aimd", 0, ibcc_law_op_aimd_params_, ibcc_law_op_mult_dec_q_, ibcc_law_op_aimd_inc_q_,
      IBCC_LAW_FP_(ibcc_law_op_mult_dec_), IBCC_LAW_FP_(ibcc_law_op_aimd_inc_),
      IBCC_LAW_FP_(ibcc_law_op_aimd_closed_) },
    { "custom", ibcc_law_op_custom_check_, 0,
      IBCC_LAW_FP_(ibcc_law_op_custom_dec_q_), IBCC_LAW_FP_(ibcc_law_op_custom_inc_q_),
      IBCC_LAW_FP_(ibcc_law_op_custom_dec_), IBCC_LAW_FP_(ibcc_law_op_custom_inc_), 0 }
};
#define IBCC_LAW_KINDS_ (sizeof ibcc_law_kinds_ / sizeof ibcc_law_kinds_[0])

/* The entry of a kind, NULL if there is none (validation, names). */
static const ibcc_law_ops_ *ibcc_law_kind_ops_(int kind)
{
    if (kind < 1 || (unsigned)kind > IBCC_LAW_KINDS_) return 0;
    return &ibcc_law_kinds_[kind - 1];
}

/* The entry of a validated desc's kind (no check: see above). */
#define IBCC_LAW_OPS_(d) (&ibcc_law_kinds_[(d)->kind - 1])

IBCC_API const char *ibcc_law_kind_name(ibcc_law_kind kind)
{
    const ibcc_law_ops_ *o = ibcc_law_kind_ops_((int)kind);
    return o ? o->name : "?";
}

IBCC_API ibcc_result ibcc_law_kind_parse(const char *text, ibcc_law_kind *kind)
{
    unsigned i;
    if (!text || !kind) return IBCC_ERR_NULL;
    for (i = 0; i < IBCC_LAW_KINDS_; i++) {
        const char *a = text, *b = ibcc_law_kinds_[i].name;
        while (*a && *a == *b) { a++; b++; }
        if (*a == *b) {
            *kind = (ibcc_law_kind)(i + 1u);
            return IBCC_OK;
        }
    }
    return IBCC_ERR_PARSE;
}

#ifndef IBCC_NO_FLOAT
static double ibcc_law_inc_(const ibcc_law_desc *d, double x)
{
    return ibcc_law_clamp_(IBCC_LAW_OPS_(d)->inc(d, x), d->rmin);
}

static double ibcc_law_dec_(const ibcc_law_desc *d, double x)
{
    return ibcc_law_clamp_(IBCC_LAW_OPS_(d)->dec(d, x), d->rmin);
}

/* finc clamped below only (NaN becomes k): used where the clamp at Rmax
   would distort a count or an interpolation (compile, checker). */
static double ibcc_law_inc_lo_(const ibcc_law_desc *d, double x)
{
    double y = IBCC_LAW_OPS_(d)->inc(d, x);
    return (y >= d->rmin) ? y : d->rmin;
}

#endif /* IBCC_NO_FLOAT */

/* Number of IPD rates 1/(1+ipd) not below rmin: floor(1/rmin), with a
   relative slack of 2^-40 so that rmin = 1/n (rounded to double) counts
   n: floor((1 + 2^-40) / rmin), at most 65536. Exact integer arithmetic
   on rmin's binary value (rmin in [2^-16, 1), validated). */
static uint32_t ibcc_law_ipd_count_(double rmin)
{
    uint64_t m, c;
    int e;
    if (!ibcc_f64_split_(rmin, &m, &e) || e > -41 || e < -104) return 1;
    /* rmin = m 2^e:  (1 + 2^-40) / rmin = (2^40 + 1) 2^(-e-40) / m */
    if (ibcc_muldiv_((UINT64_C(1) << 40) + 1u, UINT64_C(1) << (-e - 40), m,
                     0, &c) != IBCC_OK || c > 65536u) c = 65536u;
    return c == 0 ? 1u : (uint32_t)c;
}

/* The one place the law's defaults are applied and its ranges checked:
   *d = *in with defaults, or an error (the caller's desc untouched). */
static ibcc_result ibcc_law_desc_check_(const ibcc_law_desc *in,
                                        ibcc_law_desc *d)
{
    const ibcc_law_ops_ *ops;
    int kind, form, rates;
    uint64_t rb, mb;
    if (!in || !d) return IBCC_ERR_NULL;
    *d = *in;
    kind = (int)d->kind;
    form = (int)d->form;
    rates = (int)d->rates;
    if (kind == 0) d->kind = IBCC_LAW_LIPD;
    if (form == 0) d->form = IBCC_LAW_CONTINUOUS;
    if (ibcc_f64_zero_(d->rmin)) d->rmin = 1.0 / 256.0;
    if (ibcc_f64_zero_(d->m)) d->m = 2.0;
    if (!ibcc_law_kind_ops_((int)d->kind)) return IBCC_ERR_RANGE;
    if (form < 0 || form > (int)IBCC_LAW_TABLE) return IBCC_ERR_RANGE;
    if (rates < 0 || rates > (int)IBCC_LAW_RATES_GEOMETRIC) return IBCC_ERR_RANGE;
    /* rmin in [2^-16, 1): (Rmin > Rmax), Rmin == Rmax, negative, NaN and
       too small are rejected; 2^-16 keeps Rmax/r - 1 within Q16.16.
       m in (1, 65536]. Compared as bit patterns (see above). */
    rb = ibcc_f64_bits_(d->rmin);
    mb = ibcc_f64_bits_(d->m);
    if (!(rb >= IBCC_F64_2M16_ && rb < IBCC_F64_ONE_)) return IBCC_ERR_RANGE;
    if (!(mb > IBCC_F64_ONE_ && mb <= IBCC_F64_2P16_)) return IBCC_ERR_RANGE;
    ops = ibcc_law_kind_ops_((int)d->kind);
    if (ops->check) {
        ibcc_result r = ops->check(d);
        if (r != IBCC_OK) return r;
    }
    if (d->form == IBCC_LAW_TABLE) {
        if (rates == 0) d->rates = IBCC_LAW_RATES_IPD;
        if (d->rates == IBCC_LAW_RATES_IPD) {
            uint32_t c;
            if (rb < IBCC_F64_2M8_) return IBCC_ERR_RANGE;
            c = ibcc_law_ipd_count_(d->rmin);
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
        if (d->form == IBCC_LAW_DISCRETE && rb < IBCC_F64_2M8_)
            return IBCC_ERR_RANGE;
    }
    return IBCC_OK;
}

IBCC_API ibcc_result ibcc_law_defaults(ibcc_law_desc *d)
{
    ibcc_law_desc e;
    ibcc_result r = ibcc_law_desc_check_(d, &e);
    if (r == IBCC_OK) *d = e;
    return r;
}

IBCC_API ibcc_result ibcc_law_size(const ibcc_law_desc *d, size_t *bytes)
{
    ibcc_law_desc e;
    ibcc_result r = ibcc_law_desc_check_(d, &e);
    uint64_t need = 0;
    if (r == IBCC_OK && e.form == IBCC_LAW_TABLE)
        need = (uint64_t)e.table_size * sizeof(ibcc_law_rom_entry);
    return ibcc_size_out_(r, need, bytes);
}

#ifndef IBCC_NO_FLOAT
/* Index of the highest table rate not above y (rates descend with the
   index); n-1 if every rate is above y. Binary search. */
static uint32_t ibcc_law_floor_index_(const ibcc_law_rom_entry *t, uint32_t n,
                                      double y)
{
    uint32_t lo = 0, hi = n - 1;        /* answer in [lo, hi] */
    double yy = y * (1.0 + IBCC_LAW_EPS_);
    while (lo < hi) {
        uint32_t mid = lo + (hi - lo) / 2;
        if (t[mid].rate <= yy) hi = mid; else lo = mid + 1;
    }
    return lo;
}

/* Number of unmarked ACKs from a to b in the continuous limit:
     n = integral from a to b of dx / (finc(x) - x)
   composite Simpson rule on `parts` (even) intervals; +inf if the law
   does not increase somewhere on [a, b]. Used when a law needs more ACKs
   for one table step than the entry may step (then each ACK is a tiny
   step and the limit is accurate). */
static double ibcc_law_ack_integral_(const ibcc_law_desc *d, double a, double b,
                                     uint32_t parts)
{
    double h = (b - a) / (double)parts, sum = 0.0;
    uint32_t j;
    for (j = 0; j <= parts; j++) {
        double x = a + h * (double)j;
        double g = ibcc_law_inc_lo_(d, x) - x;
        double w = (j == 0 || j == parts) ? 1.0 : ((j & 1u) ? 4.0 : 2.0);
        if (!(g > 0.0)) return HUGE_VAL;
        sum += w / g;
    }
    return sum * h / 3.0;
}

/* ACKs one entry of an n-entry table steps before extrapolating:
   budget / n within [256, 2^20], so a whole table steps at most
   max(2^24, 256 n) <= 2^24 ACKs (n <= 65536): 2^20 up to 16 entries,
   65536 for 256 entries, 256 for 65536. */
static uint32_t ibcc_law_compile_cap_(uint32_t n)
{
    uint32_t c = IBCC_LAW_COMPILE_BUDGET_ / (n ? n : 1u);
    if (c > IBCC_LAW_COMPILE_ACKS_) c = IBCC_LAW_COMPILE_ACKS_;
    if (c < IBCC_LAW_COMPILE_MIN_ACKS_) c = IBCC_LAW_COMPILE_MIN_ACKS_;
    return c;
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
   count is stepped ACK by ACK up to cap = ibcc_law_compile_cap_(n) ACKs
   (2^20 for tables of up to 16 entries, 2^24 / n above, at least 256);
   a law slower than that adds the continuous-limit count of the rest
   (ibcc_law_ack_integral_, 256 Simpson intervals for tables of up to 256
   entries, 16 above: an entry of a larger table spans a narrower rate
   interval). So the compile costs at most about 2^24 + 17 n evaluations
   of finc whatever the law (it used to step up to 2^20 ACKs per entry:
   tens of seconds for a slow law on a large geometric table). An entry from which the law does not increase gets inc 0 (it stays, as
   the continuous law does; a custom finc that lowers the rate is treated
   the same way, the table only moves up on unmarked ACKs). */
static void ibcc_law_compile_(ibcc_law *l, ibcc_law_rom_entry *t)
{
    const ibcc_law_desc *d = &l->d;
    uint32_t n = l->n, i, cap = ibcc_law_compile_cap_(n);
    uint32_t parts = n <= 256u ? 256u : 16u;
    for (i = 0; i < n; i++) {
        double x;
        if (d->rates == IBCC_LAW_RATES_IPD) {
            x = 1.0 / (1.0 + (double)i);
            t[i].gapq = i << 16;                 /* ipd in Q16.16 */
        } else {
            if (i == 0) x = 1.0;
            else if (i == n - 1) x = d->rmin;
            else {
                uint64_t xb = ibcc_law_geo_bits_(d->rmin, i, n);
                memcpy(&x, &xb, sizeof x);
            }
            /* Rmax/x - 1 in Q16.16; <= 65535 * 65536 since x >= 2^-16 */
            t[i].gapq = (uint32_t)floor((1.0 / x - 1.0) * 65536.0 + 0.5);
        }
        t[i].rate = x;
    }
    for (i = 0; i < n; i++) {
        double x = t[i].rate;
        t[i].mark = (uint16_t)ibcc_law_floor_index_(t, n, ibcc_law_dec_(d, x));
        if (i == 0) {                           /* Rmax: nowhere to go */
            t[i].up = 0;
            t[i].inc = 0;
        } else {
            double target = t[i - 1].rate * (1.0 - IBCC_LAW_EPS_);
            double z1 = ibcc_law_inc_lo_(d, x);
            if (z1 >= target) {
                uint32_t j = ibcc_law_floor_index_(t, n, z1);
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
                while (count < cap) {
                    double nz = ibcc_law_inc_lo_(d, prev);
                    if (!(nz > prev)) break;      /* no progress: stuck */
                    count++;
                    if (nz >= target) {
                        nreal = (double)(count - 1)
                              + (t[i - 1].rate - prev) / (nz - prev);
                        break;
                    }
                    prev = nz;
                }
                if (count >= cap && nreal < 0.0) {
                    double rest = ibcc_law_ack_integral_(d, prev, t[i - 1].rate,
                                                         parts);
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

#endif /* IBCC_NO_FLOAT */

/* DISCRETE: applied ipd of the exact state q (Q32.32):
     ipd = ceil(2^32 / (q + 1/2)) - 1 = ceil(2^33 / (2q + 1)) - 1
   the highest IPD rate not above the exact rate; the half unit is the
   rounding of the state to Q32.32 (round to nearest), so that a state
   that is 1/n up to that rounding applies 1/n. q >= 2^24 (rmin >= 1/256)
   gives ipd <= 255. */
static uint32_t ibcc_law_ipd_of_q_(uint64_t q)
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
static uint32_t ibcc_law_ipd_applied_(const ibcc_law *l, uint64_t q)
{
    uint32_t ipd = ibcc_law_ipd_of_q_(q);
    return ipd > l->ipd_max ? l->ipd_max : ipd;
}

/* ---- DISCRETE in integer arithmetic -------------------------------------
   The built-in laws step the Q32.32 state q = x 2^32 with integer
   operations only, so every target and profile gives the same states.
   The parameters are taken in more precision than the state (k63 =
   rmin 2^63, m47 = m 2^47, to nearest); each result is rounded to
   nearest (halves up) and clamped to [qmin, 2^32]:
     LIPD  fdec: q 2^32 / (2^32 + q)        finc: q 2^63 / (2^63 - k63)
     AIMD  fdec: q 2^47 / m47               finc: q + cq / q,
           cq = (m47 - 2^47) k2 / 2^47 = (m-1) rmin^2 2^64 (saturated),
           k2 = k63^2 / 2^62 = rmin^2 2^64
     FIMD  fdec: q 2^47 / m47               finc: q 2^(k63 L / (q 2^31)),
           L = log2(m) (Q6.58, computed at init by repeated squaring),
           2^f for the fraction f from a 64-entry table and a degree-6
           polynomial (Q2.62), good to a few units of 2^-62.
   CUSTOM runs the caller's double functions on x = q / 2^32 (not in the
   IBCC_NO_FLOAT profile). Each kind's functions are its dec_q and inc_q
   in the table above (ibcc_law_kinds_). */

/* Sets the DISCRETE parameters of an effective desc (every form: qmin
   and ipd_max also serve the TABLE form's queries). */
static void ibcc_law_params_(ibcc_law *l)
{
    const ibcc_law_desc *d = &l->d;
    /* qmin = ceil(rmin * 2^32): the Q32.32 floor never goes below rmin */
    l->qmin = ibcc_f64_fix_(d->rmin, 32, 1);
    /* lowest applied rate 1/(1 + ipd_max) >= rmin */
    l->ipd_max = ibcc_law_ipd_count_(d->rmin) - 1u;
    l->k63 = ibcc_f64_fix_(d->rmin, 63, 0);     /* rmin < 1: < 2^63 */
    l->m47 = ibcc_f64_fix_(d->m, 47, 0);        /* m <= 2^16: <= 2^63 */
    l->cq = 0;
    if (IBCC_LAW_OPS_(d)->params) IBCC_LAW_OPS_(d)->params(l);
}

/* One DISCRETE step: q' = fdec(q) when marked, else
   q' = q + w (finc(q) - q), w = weight_q16 / 2^16 (w = 1: finc(q)). */
static void ibcc_law_step_q_(ibcc_law *l, int marked, uint32_t weight_q16)
{
    const ibcc_law_ops_ *k = IBCC_LAW_OPS_(&l->d);
    uint64_t y = marked ? k->dec_q(l, l->s.q) : k->inc_q(l, l->s.q, weight_q16);
    l->s.q = y;
    l->s.index = ibcc_law_ipd_applied_(l, y);
}

IBCC_API void ibcc_law_reset(ibcc_law *l)
{
    if (!l) return;
    memset(&l->s, 0, sizeof l->s);
    switch (l->d.form) {
    case IBCC_LAW_DISCRETE:
        l->s.q = IBCC_LAW_ONE_Q32_;
        l->s.index = 0;
        break;
    case IBCC_LAW_TABLE:
        l->s.index = 0;
        break;
    case IBCC_LAW_CONTINUOUS:
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
    r = ibcc_law_desc_check_(d, &e);
    if (r != IBCC_OK) return r;
#ifdef IBCC_NO_FLOAT
    /* only the integer DISCRETE step runs here; tables come from ROM */
    if (e.form != IBCC_LAW_DISCRETE || !IBCC_LAW_OPS_(&e)->inc_q)
        return IBCC_ERR_UNSUPPORTED;
#endif
    if (e.form == IBCC_LAW_TABLE) {
        r = ibcc_mem_check_(mem, len,
                            (uint64_t)e.table_size * sizeof(ibcc_law_rom_entry));
        if (r != IBCC_OK) return r;
    }
    memset(l, 0, sizeof *l);
    l->d = e;
    ibcc_law_params_(l);
#ifndef IBCC_NO_FLOAT
    if (e.form == IBCC_LAW_TABLE) {
        l->n = e.table_size;
        l->table = (const ibcc_law_rom_entry *)mem;
        ibcc_law_compile_(l, (ibcc_law_rom_entry *)mem);
    }
#endif
    ibcc_law_reset(l);
    return IBCC_OK;
}

/* ---- tables compiled ahead of time -------------------------------------- */

/* 32-bit FNV-1a over the `bytes` low bytes of v, least significant first. */
static uint32_t ibcc_law_fnv_(uint32_t h, uint64_t v, unsigned bytes)
{
    unsigned i;
    for (i = 0; i < bytes; i++) {
        h ^= (uint32_t)((v >> (8u * i)) & 0xffu);
        h *= 16777619u;
    }
    return h;
}

static uint32_t ibcc_law_rom_hash_(const ibcc_law_desc *e,
                                   const ibcc_law_rom_entry *t, uint32_t n)
{
    uint32_t h = 2166136261u, i;
    h = ibcc_law_fnv_(h, (uint64_t)e->kind, 4);
    h = ibcc_law_fnv_(h, (uint64_t)e->rates, 4);
    h = ibcc_law_fnv_(h, e->table_size, 4);
    h = ibcc_law_fnv_(h, ibcc_f64_bits_(e->rmin), 8);
    h = ibcc_law_fnv_(h, ibcc_f64_bits_(e->m), 8);
    for (i = 0; i < n; i++) {
        h = ibcc_law_fnv_(h, ibcc_f64_bits_(t[i].rate), 8);
        h = ibcc_law_fnv_(h, t[i].inc, 4);
        h = ibcc_law_fnv_(h, t[i].gapq, 4);
        h = ibcc_law_fnv_(h, t[i].mark, 2);
        h = ibcc_law_fnv_(h, t[i].up, 2);
    }
    return h;
}

/* The effective desc of a ROM table: desc errors, UNSUPPORTED (not
   TABLE), MISMATCH (n differs from table_size). */
static ibcc_result ibcc_law_rom_desc_(const ibcc_law_desc *d, uint32_t n,
                                      ibcc_law_desc *e)
{
    ibcc_result r;
    r = ibcc_law_desc_check_(d, e);
    if (r != IBCC_OK) return r;
    if (e->form != IBCC_LAW_TABLE) return IBCC_ERR_UNSUPPORTED;
    if (n != e->table_size) return IBCC_ERR_MISMATCH;
    return IBCC_OK;
}

IBCC_API ibcc_result ibcc_law_rom_check(const ibcc_law_desc *d,
                                        const ibcc_law_rom_entry *t,
                                        uint32_t n, uint32_t *out)
{
    ibcc_law_desc e;
    ibcc_result r;
    if (!d || !t || !out) return IBCC_ERR_NULL;
    r = ibcc_law_rom_desc_(d, n, &e);
    if (r != IBCC_OK) return r;
    *out = ibcc_law_rom_hash_(&e, t, n);
    return IBCC_OK;
}

IBCC_API ibcc_result ibcc_law_to_rom(const ibcc_law *l, ibcc_law_rom *rom)
{
    if (!l || !rom) return IBCC_ERR_NULL;
    if (l->d.form != IBCC_LAW_TABLE || !l->table || l->n == 0)
        return IBCC_ERR_STATE;
    rom->desc = &l->d;
    rom->table = l->table;
    rom->n = l->n;
    rom->check = ibcc_law_rom_hash_(&l->d, l->table, l->n);
    return IBCC_OK;
}

/* The shape every compiled table has (see ibcc_law_init_rom). */
static int ibcc_law_rom_shape_(const ibcc_law_desc *e,
                               const ibcc_law_rom_entry *t, uint32_t n)
{
    uint32_t i;
    for (i = 0; i < n; i++) {
        uint64_t rb = ibcc_f64_bits_(t[i].rate);
        if (t[i].mark >= n || t[i].up >= n) return 0;
        if (i == 0) {
            if (rb != IBCC_F64_ONE_ || t[0].gapq != 0 || t[0].inc != 0
                || t[0].up != 0) return 0;
            continue;
        }
        /* positive, below the previous rate (NaN and negatives compare
           above every positive pattern) */
        if (rb == 0 || rb >= ibcc_f64_bits_(t[i - 1].rate)) return 0;
        if (t[i].up == i) { if (t[i].inc != 0) return 0; }
        else if (t[i].up > i || t[i].inc == 0) return 0;
        if (e->rates == IBCC_LAW_RATES_IPD) {
            if (t[i].gapq != (i << 16)) return 0;
        } else if (t[i].gapq < t[i - 1].gapq) {
            return 0;
        }
    }
    return 1;
}

IBCC_API ibcc_result ibcc_law_init_rom(ibcc_law *l, const ibcc_law_rom *rom)
{
    ibcc_law_desc e;
    ibcc_result r;
    if (!l || !rom || !rom->desc || !rom->table) return IBCC_ERR_NULL;
    r = ibcc_law_rom_desc_(rom->desc, rom->n, &e);
    if (r != IBCC_OK) return r;
    if (ibcc_law_rom_hash_(&e, rom->table, rom->n) != rom->check)
        return IBCC_ERR_MISMATCH;
    if (!ibcc_law_rom_shape_(&e, rom->table, rom->n)) return IBCC_ERR_MISMATCH;
    memset(l, 0, sizeof *l);
    l->d = e;
    ibcc_law_params_(l);
    l->n = rom->n;
    l->table = rom->table;
    ibcc_law_reset(l);
    return IBCC_OK;
}

/* One CONTINUOUS step, w = weight_q16 / 2^16:
     marked:   x' = fdec(x)
     unmarked: x' = x + w * (finc(x) - x)      (w = 1: x' = finc(x)) */
#ifndef IBCC_NO_FLOAT
static void ibcc_law_step_x_(ibcc_law *l, int marked, uint32_t weight_q16)
{
    double x = l->s.x, y;
    if (marked) {
        y = ibcc_law_dec_(&l->d, x);
    } else {
        y = ibcc_law_inc_(&l->d, x);
        if (weight_q16 != 65536u)
            y = ibcc_law_clamp_(x + ((double)weight_q16 / 65536.0) * (y - x),
                                l->d.rmin);
    }
    l->s.x = y;
}
#endif

/* Every dispatch on the form below is one switch with a case per form
   and no default: the form is validated at init, and a new form makes
   -Wswitch name every switch that lacks it. */
IBCC_API void ibcc_law_on_ack_sized(ibcc_law *l, int marked,
                                    uint32_t weight_q16)
{
    if (!l) return;
    switch (l->d.form) {
    case IBCC_LAW_TABLE:
        ibcc_law_table_step_(l, marked,
            (IBCC_CAST(uint64_t, l->table[l->s.index].inc) * weight_q16) >> 16);
        break;
    case IBCC_LAW_DISCRETE:
        ibcc_law_step_q_(l, marked, weight_q16);
        break;
    case IBCC_LAW_CONTINUOUS:
#ifndef IBCC_NO_FLOAT
        ibcc_law_step_x_(l, marked, weight_q16);
#endif
        break;
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
        ibcc_mul128_(tau, gq, &hi, &lo);
        if (hi >> 16) return IBCC_TIME_MAX;
        return (hi << 48) | (lo >> 16);
    }
    case IBCC_LAW_CONTINUOUS: {
#ifndef IBCC_NO_FLOAT
        /* gap = tau * (1/x - 1), nearest ps */
        double g = (double)tau * (1.0 / l->s.x - 1.0);
        if (!(g < 18446744073709549568.0)) return IBCC_TIME_MAX;
        return (ibcc_time)floor(g + 0.5);
#else
        return 0;                       /* no CONTINUOUS law here */
#endif
    }
    }
    return 0;                           /* not initialised */
}

#ifndef IBCC_NO_FLOAT
IBCC_API double ibcc_law_rate(const ibcc_law *l)
{
    if (!l) return 0.0;
    switch (l->d.form) {
    case IBCC_LAW_DISCRETE: return 1.0 / (1.0 + (double)l->s.index);
    case IBCC_LAW_TABLE: return l->table[l->s.index].rate;
    case IBCC_LAW_CONTINUOUS: return l->s.x;
    }
    return 0.0;                         /* not initialised */
}

IBCC_API double ibcc_law_exact_rate(const ibcc_law *l)
{
    if (!l) return 0.0;
    if (l->d.form == IBCC_LAW_DISCRETE) return (double)l->s.q / IBCC_LAW_Q32_;
    return ibcc_law_rate(l);
}
#endif /* IBCC_NO_FLOAT */

IBCC_API ibcc_rate ibcc_law_rate_bytes(const ibcc_law *l, ibcc_rate rmax)
{
    if (!l) return 0;
    switch (l->d.form) {
    case IBCC_LAW_DISCRETE:
        return rmax / (1u + (uint64_t)l->s.index);
    case IBCC_LAW_TABLE: {
        /* floor(rmax * rate) exactly, rate = mant 2^e (e < 0: rate <= 1) */
        uint64_t mant, hi, lo;
        int e;
        if (l->d.rates == IBCC_LAW_RATES_IPD)
            return rmax / (1u + (uint64_t)l->s.index);
        if (!ibcc_f64_split_(l->table[l->s.index].rate, &mant, &e)) return 0;
        if (e >= 0) return rmax;
        if (e <= -128) return 0;
        ibcc_mul128_(rmax, mant, &hi, &lo);
        if (e > -64) {
            /* (hi:lo) >> -e */
            unsigned s = (unsigned)-e;
            uint64_t v = (lo >> s) | (hi << (64u - s));
            return v > rmax ? rmax : v;
        }
        return -e == 64 ? hi : hi >> ((unsigned)-e - 64u);
    }
    case IBCC_LAW_CONTINUOUS: {
#ifndef IBCC_NO_FLOAT
        double v = floor((double)rmax * ibcc_law_rate(l));
        if (v >= (double)rmax) return rmax;
        if (!(v > 0.0)) return 0;
        return (ibcc_rate)v;
#else
        return 0;                           /* no CONTINUOUS law here */
#endif
    }
    }
    return 0;                           /* not initialised */
}

IBCC_API uint32_t ibcc_law_ipd(const ibcc_law *l)
{
    if (!l) return 0;
    switch (l->d.form) {
    case IBCC_LAW_DISCRETE: return l->s.index;
    case IBCC_LAW_TABLE: {
        /* ceil(1/x - slack) - 1 exactly: 1/x = 2^-e / mant = c + rem/mant;
           a remainder within 2^-40 relative (rem 2^40 <= c mant) counts
           as 1/x = c, so x = 1/n rounded to double gives n - 1 */
        uint64_t mant, c, rem, ah, al, bh, bl;
        int e;
        if (l->d.rates == IBCC_LAW_RATES_IPD) return l->s.index;
        if (!ibcc_f64_split_(l->table[l->s.index].rate, &mant, &e)
            || e >= 0 || e < -116) return 0;
        /* c = floor(2^-e / mant), rate >= 2^-16 keeps c <= 2^16 */
        if (ibcc_muldiv_(UINT64_C(1) << (-e / 2), UINT64_C(1) << (-e - -e / 2),
                         mant, 0, &c) != IBCC_OK || c == 0) return 0;
        /* rem = 2^-e - c mant (< mant): the low 64 bits suffice */
        rem = (-e >= 64 ? 0 : UINT64_C(1) << -e) - c * mant;
        if (rem == 0) return (uint32_t)(c - 1u);
        ibcc_mul128_(rem, UINT64_C(1) << 40, &ah, &al);
        ibcc_mul128_(c, mant, &bh, &bl);
        if (ah < bh || (ah == bh && al <= bl)) return (uint32_t)(c - 1u);
        return (uint32_t)c;
    }
    case IBCC_LAW_CONTINUOUS: {
#ifndef IBCC_NO_FLOAT
        /* ceil(1/x) - 1, with slack so that x = 1/n (in double) gives n - 1 */
        double c = ceil((1.0 / ibcc_law_rate(l)) * (1.0 - IBCC_LAW_EPS_)) - 1.0;
        if (c < 0.0) c = 0.0;
        return (uint32_t)c;
#else
        return 0;                           /* no CONTINUOUS law here */
#endif
    }
    }
    return 0;                           /* not initialised */
}

IBCC_API int ibcc_law_at_max(const ibcc_law *l)
{
    if (!l) return 0;
    switch (l->d.form) {
    /* the applied ipd is 0: the same as q == 2^32 except when rmin > 1/2
       (ipd_max 0), where every state applies Rmax */
    case IBCC_LAW_DISCRETE: return l->s.index == 0;
    case IBCC_LAW_TABLE: return l->s.index == 0;
    case IBCC_LAW_CONTINUOUS:
#ifndef IBCC_NO_FLOAT
        return l->s.x >= 1.0;
#else
        return 0;                       /* no CONTINUOUS law here */
#endif
    }
    return 0;                           /* not initialised */
}

#ifndef IBCC_NO_FLOAT
IBCC_API ibcc_result ibcc_law_set_rate(ibcc_law *l, double x)
{
    if (!l) return IBCC_ERR_NULL;
    if (ibcc_f64_nan_(x)) return IBCC_ERR_RANGE;
    x = ibcc_law_clamp_(x, l->d.rmin);
    memset(&l->s, 0, sizeof l->s);
    switch (l->d.form) {
    case IBCC_LAW_DISCRETE:
        l->s.q = ibcc_law_q_of_x_(l, x);
        l->s.index = ibcc_law_ipd_applied_(l, l->s.q);
        break;
    case IBCC_LAW_TABLE:
        l->s.index = ibcc_law_floor_index_(l->table, l->n, x);
        break;
    case IBCC_LAW_CONTINUOUS:
        l->s.x = x;
        break;
    }
    return IBCC_OK;
}
#endif /* IBCC_NO_FLOAT */

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
        if (!ibcc_f64_zero_(s->x) || s->acc != 0) return IBCC_ERR_RANGE;
        if (s->q < l->qmin || s->q > IBCC_LAW_ONE_Q32_) return IBCC_ERR_RANGE;
        if (s->index != ibcc_law_ipd_applied_(l, s->q)) return IBCC_ERR_RANGE;
        l->s = *s;
        return IBCC_OK;
    case IBCC_LAW_TABLE:
        if (!ibcc_f64_zero_(s->x) || s->q != 0) return IBCC_ERR_RANGE;
        if (s->index >= l->n || s->acc >= IBCC_LAW_STEP) return IBCC_ERR_RANGE;
        l->s = *s;
        return IBCC_OK;
    case IBCC_LAW_CONTINUOUS:
#ifndef IBCC_NO_FLOAT
        if (!(s->x >= l->d.rmin && s->x <= 1.0)) return IBCC_ERR_RANGE;
        if (s->q != 0 || s->index != 0 || s->acc != 0) return IBCC_ERR_RANGE;
        l->s = *s;
        return IBCC_OK;
#else
        return IBCC_ERR_RANGE;          /* no CONTINUOUS law here */
#endif
    }
    return IBCC_ERR_RANGE;              /* not initialised */
}

#ifndef IBCC_NO_FLOAT
IBCC_API double ibcc_law_finc(const ibcc_law *l, double x)
{
    if (!l) return 0.0;
    return ibcc_law_inc_(&l->d, ibcc_law_clamp_(x, l->d.rmin));
}

IBCC_API double ibcc_law_fdec(const ibcc_law *l, double x)
{
    if (!l) return 0.0;
    return ibcc_law_dec_(&l->d, ibcc_law_clamp_(x, l->d.rmin));
}
#endif /* IBCC_NO_FLOAT */

IBCC_API uint32_t ibcc_law_table_size(const ibcc_law *l)
{
    if (!l || l->d.form != IBCC_LAW_TABLE) return 0;
    return l->n;
}

IBCC_API ibcc_result ibcc_law_table_entry(const ibcc_law *l, uint32_t i,
                                          ibcc_law_entry *out)
{
    const ibcc_law_rom_entry *e;
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

#ifndef IBCC_NO_FLOAT
/* ---- recovery helper --------------------------------------------------- */

static void ibcc_law_set_min_(ibcc_law *l)
{
    memset(&l->s, 0, sizeof l->s);
    switch (l->d.form) {
    case IBCC_LAW_DISCRETE:
        l->s.q = l->qmin;
        l->s.index = ibcc_law_ipd_applied_(l, l->qmin);
        break;
    case IBCC_LAW_TABLE:
        l->s.index = l->n - 1;
        break;
    case IBCC_LAW_CONTINUOUS:
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
    ibcc_law_set_min_(&c);
    cont = (c.d.form != IBCC_LAW_DISCRETE && c.d.form != IBCC_LAW_TABLE);
    if (pts < cap) { curve[pts].t = 0; curve[pts].rate = ibcc_law_rate(&c); pts++; }
    while (!ibcc_law_at_max(&c)) {
        if (acks >= IBCC_LAW_MAX_ACKS_) return IBCC_ERR_RANGE;
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
    if (!d || !tau_units) return IBCC_ERR_NULL;
    r = ibcc_law_desc_check_(d, &e);
    if (r != IBCC_OK) return r;
    if (!IBCC_LAW_OPS_(&e)->closed) return IBCC_ERR_UNSUPPORTED;
    *tau_units = IBCC_LAW_OPS_(&e)->closed(&e);
    return IBCC_OK;
}

/* ---- conditions checker ------------------------------------------------ */

/* Trec(r): time in units of tau from fdec(r) back to r, one ACK per
   interval 1/z, geometric interpolation inside the last ACK; +inf if the
   law stops increasing or needs more than 2^24 ACKs. */
static double ibcc_law_trec_(const ibcc_law_desc *d, double r)
{
    double z = ibcc_law_dec_(d, r), t = 0.0;
    uint32_t count = 0;
    for (;;) {
        double nz;
        if (z >= r) return t;
        /* not clamped at Rmax: the clamp would stretch the last ACK */
        nz = ibcc_law_inc_lo_(d, z);
        if (!(nz > z)) return HUGE_VAL;
        /* the last ACK counts for the fraction ln(r/z) / ln(nz/z) of its
           interval (geometric interpolation: exact for FIMD, whose ln x is
           linear in time; second order for small steps) */
        if (nz >= r) return t + (log(r / z) / log(nz / z)) / z;
        t += 1.0 / z;
        z = nz;
        if (++count > IBCC_LAW_TREC_MAX_ACKS_) return HUGE_VAL;
    }
}

static int ibcc_law_tol_bad_(double t)
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
    r = ibcc_law_desc_check_(d, &e);
    if (r != IBCC_OK) return r;
    if (c) cd = *c; else memset(&cd, 0, sizeof cd);
    if (cd.points == 0) cd.points = 256;
    if (ibcc_f64_zero_(cd.tol1)) cd.tol1 = 1e-9;
    if (ibcc_f64_zero_(cd.tol2)) cd.tol2 = 1e-3;
    if (ibcc_f64_zero_(cd.tol3)) cd.tol3 = 1e-3;
    if (cd.points < 2 || cd.points > 65536u) return IBCC_ERR_RANGE;
    if (ibcc_law_tol_bad_(cd.tol1) || ibcc_law_tol_bad_(cd.tol2)
        || ibcc_law_tol_bad_(cd.tol3)) return IBCC_ERR_RANGE;
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
        fd = ibcc_law_dec_(&e, x);
        if (!(fd > k * (1.0 + IBCC_LAW_EPS_))) continue;  /* floor hit */
        evaluated++;
        /* C1: finc(fdec(r)) <= r, relative excess */
        v1 = (ibcc_law_inc_(&e, fd) - x) / x;
        if (v1 > out->cond[0].worst) { out->cond[0].worst = v1; out->cond[0].rate = x; }
        tr = ibcc_law_trec_(&e, x);
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

#endif /* IBCC_NO_FLOAT */

/* ---- L1 pacer: implementation ----------------------------------------- */

/* The one place the pacer's defaults are applied and its ranges checked:
   *d = *in with defaults, or an error (the caller's desc untouched). */
static ibcc_result ibcc_pacer_desc_check_(const ibcc_pacer_desc *in,
                                          ibcc_pacer_desc *d)
{
    if (!in || !d) return IBCC_ERR_NULL;
    *d = *in;
    if (d->window == 0) d->window = 1;
    if (d->law && d->rate != 0) return IBCC_ERR_UNSUPPORTED;
    if (d->rate != 0) {
        if (d->rmax == 0 || d->rate > d->rmax) return IBCC_ERR_RANGE;
    } else if (d->rmax != 0) {
        return IBCC_ERR_UNSUPPORTED;    /* rmax only means something with rate */
    }
    return IBCC_OK;
}

IBCC_API ibcc_result ibcc_pacer_defaults(ibcc_pacer_desc *d)
{
    ibcc_pacer_desc e;
    ibcc_result r = ibcc_pacer_desc_check_(d, &e);
    if (r == IBCC_OK) *d = e;
    return r;
}

IBCC_API ibcc_result ibcc_pacer_init(ibcc_pacer *p, const ibcc_pacer_desc *d)
{
    ibcc_pacer_desc e;
    ibcc_result r;
    if (!p || !d) return IBCC_ERR_NULL;
    r = ibcc_pacer_desc_check_(d, &e);
    if (r != IBCC_OK) return r;
    memset(p, 0, sizeof *p);
    p->window = e.window;
    p->law = e.law;
    p->rate = e.rate;
    p->rmax = e.rmax;
    return IBCC_OK;
}

IBCC_API void ibcc_pacer_reset(ibcc_pacer *p)
{
    if (!p) return;
    p->outstanding = 0;
    p->has_sent = 0;
    p->last_start = 0;
    p->last_tau = 0;
    p->sent = 0;
    p->acked = 0;
}

IBCC_API ibcc_time ibcc_pacer_gap(const ibcc_pacer *p, ibcc_time tau)
{
    if (!p) return 0;
    if (p->law) return ibcc_law_gap(p->law, tau);
    if (p->rate != 0) {
        /* gap = ceil(tau * (rmax - rate) / rate) */
        uint64_t g;
        if (p->rate == p->rmax) return 0;
        if (ibcc_muldiv_ceil_(tau, p->rmax - p->rate, p->rate, &g) != IBCC_OK)
            return IBCC_TIME_MAX;
        return g;
    }
    return 0;
}

IBCC_API ibcc_time ibcc_pacer_next(const ibcc_pacer *p)
{
    ibcc_time g, t;
    if (!p || !p->has_sent) return 0;
    /* next = last_start + last_tau + gap(last_tau), saturating */
    g = ibcc_pacer_gap(p, p->last_tau);
    t = p->last_start;
    if (p->last_tau > IBCC_TIME_MAX - t) return IBCC_TIME_MAX;
    t += p->last_tau;
    if (g > IBCC_TIME_MAX - t) return IBCC_TIME_MAX;
    return t + g;
}

IBCC_API int ibcc_pacer_window_open(const ibcc_pacer *p)
{
    if (!p) return 0;
    return p->window == IBCC_PACER_NO_WINDOW || p->outstanding < p->window;
}

IBCC_API ibcc_time ibcc_pacer_earliest(const ibcc_pacer *p)
{
    if (!ibcc_pacer_window_open(p)) return IBCC_TIME_MAX; /* p NULL too */
    return ibcc_pacer_next(p);
}

IBCC_API int ibcc_pacer_can_send(const ibcc_pacer *p, ibcc_time now)
{
    return ibcc_pacer_window_open(p) && now >= ibcc_pacer_next(p);
}

IBCC_API ibcc_result ibcc_pacer_on_send(ibcc_pacer *p, ibcc_time now,
                                        ibcc_time tau)
{
    if (!p) return IBCC_ERR_NULL;
    if (tau == 0) return IBCC_ERR_RANGE;
    if (!ibcc_pacer_window_open(p)) return IBCC_ERR_FULL;
    if (p->has_sent && (now < p->last_start || now < ibcc_pacer_next(p)))
        return IBCC_ERR_PAST;
    /* with no window limit the count saturates rather than wraps */
    if (p->outstanding != UINT32_MAX) p->outstanding++;
    p->has_sent = 1;
    p->last_start = now;
    p->last_tau = tau;
    p->sent++;
    return IBCC_OK;
}

IBCC_API ibcc_result ibcc_pacer_on_ack_sized(ibcc_pacer *p, int marked,
                                             uint32_t weight_q16)
{
    if (!p) return IBCC_ERR_NULL;
    if (p->outstanding == 0) return IBCC_ERR_MISMATCH;
    p->outstanding--;
    p->acked++;
    if (p->law) ibcc_law_on_ack_sized(p->law, marked, weight_q16);
    return IBCC_OK;
}

IBCC_API ibcc_result ibcc_pacer_on_ack(ibcc_pacer *p, int marked)
{
    if (!p) return IBCC_ERR_NULL;
    if (p->outstanding == 0) return IBCC_ERR_MISMATCH;
    p->outstanding--;
    p->acked++;
    if (p->law) ibcc_law_on_ack(p->law, marked);
    return IBCC_OK;
}

/* ---- persistent per-pair state ---------------------------------------- */

/* Slots: the smallest power of two >= 2 * capacity (load <= 1/2). */
static uint32_t ibcc_pair_slots_(uint32_t capacity)
{
    uint32_t s = 2;
    while (s < 2u * capacity) s <<= 1;
    return s;
}

/* splitmix64 finaliser of the pair key */
static uint64_t ibcc_pair_hash_(uint64_t k)
{
    k ^= k >> 30; k *= UINT64_C(0xbf58476d1ce4e5b9);
    k ^= k >> 27; k *= UINT64_C(0x94d049bb133111eb);
    k ^= k >> 31;
    return k;
}

/* The one place the pairstate's defaults are applied and its ranges checked:
   *d = *in with defaults, or an error (the caller's desc untouched). */
static ibcc_result ibcc_pairstate_desc_check_(const ibcc_pairstate_desc *in,
                                              ibcc_pairstate_desc *d)
{
    if (!in || !d) return IBCC_ERR_NULL;
    *d = *in;
    if (d->capacity == 0) d->capacity = 1024;
    if (d->capacity > (UINT32_C(1) << 24)) return IBCC_ERR_CAPACITY;
    return IBCC_OK;
}

IBCC_API ibcc_result ibcc_pairstate_defaults(ibcc_pairstate_desc *d)
{
    ibcc_pairstate_desc e;
    ibcc_result r = ibcc_pairstate_desc_check_(d, &e);
    if (r == IBCC_OK) *d = e;
    return r;
}

IBCC_API ibcc_result ibcc_pairstate_size(const ibcc_pairstate_desc *d,
                                         size_t *bytes)
{
    ibcc_pairstate_desc e;
    ibcc_result r = ibcc_pairstate_desc_check_(d, &e);
    uint64_t need = 0;
    if (r == IBCC_OK)
        need = (uint64_t)ibcc_pair_slots_(e.capacity) * sizeof(ibcc_pair_slot_);
    return ibcc_size_out_(r, need, bytes);
}

IBCC_API ibcc_result ibcc_pairstate_init(ibcc_pairstate *ps,
                                         const ibcc_pairstate_desc *d,
                                         void *mem, size_t len)
{
    ibcc_pairstate_desc e;
    ibcc_result r;
    uint32_t slots;
    if (!ps || !d || !mem) return IBCC_ERR_NULL;
    r = ibcc_pairstate_desc_check_(d, &e);
    if (r != IBCC_OK) return r;
    slots = ibcc_pair_slots_(e.capacity);
    r = ibcc_mem_check_(mem, len, (uint64_t)slots * sizeof(ibcc_pair_slot_));
    if (r != IBCC_OK) return r;
    ps->capacity = e.capacity;
    ps->count = 0;
    ps->mask = slots - 1;
    ps->slot = (ibcc_pair_slot_ *)mem;
    memset(ps->slot, 0, (size_t)slots * sizeof(ibcc_pair_slot_));
    return IBCC_OK;
}

/* Slot holding `key`, or the empty slot where it would go. Terminates:
   the table is never more than half full. */
static uint32_t ibcc_pair_find_(const ibcc_pairstate *ps, uint64_t key)
{
    uint32_t i = (uint32_t)(ibcc_pair_hash_(key) & ps->mask);
    while (ps->slot[i].used && ps->slot[i].key != key) i = (i + 1) & ps->mask;
    return i;
}

IBCC_API ibcc_result ibcc_pairstate_save(ibcc_pairstate *ps, uint32_t src,
                                         uint32_t dst, const ibcc_law *l)
{
    uint64_t key;
    uint32_t i;
    if (!ps || !l) return IBCC_ERR_NULL;
    if (!ps->slot) return IBCC_ERR_STATE;       /* zeroed, never initialised */
    key = ((uint64_t)src << 32) | dst;
    i = ibcc_pair_find_(ps, key);
    if (!ps->slot[i].used) {
        if (ps->count >= ps->capacity) return IBCC_ERR_FULL;
        ps->slot[i].used = 1;
        ps->slot[i].key = key;
        ps->count++;
    }
    ps->slot[i].st = l->s;
    return IBCC_OK;
}

IBCC_API ibcc_result ibcc_pairstate_load(const ibcc_pairstate *ps,
                                         uint32_t src, uint32_t dst,
                                         ibcc_law *l)
{
    uint64_t key;
    uint32_t i;
    ibcc_result r;
    if (!ps || !l) return IBCC_ERR_NULL;
    ibcc_law_reset(l);
    if (!ps->slot) return IBCC_ERR_STATE;       /* zeroed, never initialised */
    key = ((uint64_t)src << 32) | dst;
    i = ibcc_pair_find_(ps, key);
    if (!ps->slot[i].used) return IBCC_ERR_NOT_FOUND;
    r = ibcc_law_set_state(l, &ps->slot[i].st);
    if (r != IBCC_OK) ibcc_law_reset(l);
    return r;
}

IBCC_API void ibcc_pairstate_reset(ibcc_pairstate *ps)
{
    if (!ps || !ps->slot) return;
    memset(ps->slot, 0, (size_t)(ps->mask + 1u) * sizeof(ibcc_pair_slot_));
    ps->count = 0;
}

/* ---- L1 cct: implementation ------------------------------------------- */

/* a * b saturating at IBCC_TIME_MAX. */
static ibcc_time ibcc_cct_satmul_(ibcc_time a, uint64_t b)
{
    if (b != 0 && a > IBCC_TIME_MAX / b) return IBCC_TIME_MAX;
    return a * b;
}

static ibcc_time ibcc_cct_satadd_(ibcc_time a, ibcc_time b)
{
    return (a > IBCC_TIME_MAX - b) ? IBCC_TIME_MAX : a + b;
}

/* a*b/d rounded half up (d > 0), 128-bit intermediate. */
static ibcc_result ibcc_cct_muldiv_round_(uint64_t a, uint64_t b, uint64_t d,
                                          uint64_t *out)
{
    return ibcc_muldiv_(a, b, d, d / 2u, out);
}

IBCC_API ibcc_time ibcc_cct_entry_delay(uint16_t entry, ibcc_time max_pkt_time)
{
    /* delay = (max_pkt_time >> shift) * multiplier */
    return ibcc_cct_satmul_(max_pkt_time >> IBCC_CCT_SHIFT(entry),
                            IBCC_CCT_MULT(entry));
}

IBCC_API ibcc_result ibcc_cct_entry_from_delay(ibcc_time delay,
                                               ibcc_time max_pkt_time,
                                               uint16_t *out)
{
    ibcc_time maxd, best_err = 0;
    unsigned s, best_s = 0;
    uint64_t best_m = 0;
    int found = 0;
    if (!out) return IBCC_ERR_NULL;
    if (max_pkt_time == 0) return IBCC_ERR_RANGE;
    /* largest delay: 16383 units of max_pkt_time; accept up to half a
       unit above it (it rounds down to the largest entry) */
    maxd = ibcc_cct_satmul_(max_pkt_time, IBCC_CCT_MULT_MAX);
    if (delay > maxd && delay - maxd > max_pkt_time / 2) return IBCC_ERR_RANGE;
    if (delay == 0) { *out = 0; return IBCC_OK; }
    for (s = 0; s < 4; s++) {
        ibcc_time u = max_pkt_time >> s, val, err;
        uint64_t m, rem;
        if (u == 0) break;
        /* m = floor(delay / u + 1/2), capped at 16383 */
        m = delay / u;
        rem = delay % u;
        if (rem >= u - rem) m++;
        if (m > IBCC_CCT_MULT_MAX) m = IBCC_CCT_MULT_MAX;
        val = ibcc_cct_satmul_(u, m);
        err = val > delay ? val - delay : delay - val;
        if (!found || err < best_err) {
            found = 1; best_err = err; best_s = s; best_m = m;
        }
    }
    *out = IBCC_CCT_ENTRY(best_s, best_m);
    return IBCC_OK;
}

IBCC_API ibcc_result ibcc_cct_fill_delays(uint16_t *out, const ibcc_time *delays,
                                          uint32_t n, ibcc_time max_pkt_time)
{
    uint32_t i;
    if (!out || !delays) return IBCC_ERR_NULL;
    if (n == 0 || n > IBCC_CCT_MAX_ENTRIES) return IBCC_ERR_CAPACITY;
    for (i = 0; i < n; i++) {
        ibcc_result r = ibcc_cct_entry_from_delay(delays[i], max_pkt_time, &out[i]);
        if (r != IBCC_OK) return r;
    }
    return IBCC_OK;
}

#ifndef IBCC_NO_FLOAT
IBCC_API ibcc_result ibcc_cct_fill_us(uint16_t *out, const double *us,
                                      uint32_t n, ibcc_time max_pkt_time)
{
    uint32_t i;
    if (!out || !us) return IBCC_ERR_NULL;
    if (n == 0 || n > IBCC_CCT_MAX_ENTRIES) return IBCC_ERR_CAPACITY;
    for (i = 0; i < n; i++) {
        /* ps = floor(us * 10^6 + 1/2) */
        double ps = floor(us[i] * 1e6 + 0.5);
        ibcc_result r;
        if (!(ps >= 0.0 && ps < 1.8e19)) return IBCC_ERR_RANGE; /* NaN too */
        r = ibcc_cct_entry_from_delay((ibcc_time)ps, max_pkt_time, &out[i]);
        if (r != IBCC_OK) return r;
    }
    return IBCC_OK;
}
#endif /* IBCC_NO_FLOAT */

IBCC_API ibcc_result ibcc_cct_fill_quadratic(uint16_t *out, uint32_t n,
                                             ibcc_time max_pkt_time,
                                             ibcc_time coef, uint32_t root)
{
    uint32_t i;
    if (!out) return IBCC_ERR_NULL;
    if (n == 0 || n > IBCC_CCT_MAX_ENTRIES) return IBCC_ERR_CAPACITY;
    if (coef == 0 || root == 0 || max_pkt_time == 0) return IBCC_ERR_RANGE;
    for (i = 0; i < n; i++) {
        /* d_i = i^2 * coef / root^2, rounded half up to whole ps */
        uint64_t d;
        ibcc_result r = ibcc_cct_muldiv_round_((uint64_t)i * i, coef,
                                               (uint64_t)root * root, &d);
        if (r != IBCC_OK) return IBCC_ERR_RANGE;
        r = ibcc_cct_entry_from_delay(d, max_pkt_time, &out[i]);
        if (r != IBCC_OK) return r;
    }
    return IBCC_OK;
}

IBCC_API ibcc_result ibcc_cct_fill_linear(uint16_t *out, uint32_t n)
{
    uint32_t i;
    if (!out) return IBCC_ERR_NULL;
    if (n == 0 || n > IBCC_CCT_MAX_ENTRIES) return IBCC_ERR_CAPACITY;
    for (i = 0; i < n; i++) out[i] = IBCC_CCT_ENTRY(0, i);
    return IBCC_OK;
}

#ifndef IBCC_NO_FLOAT
IBCC_API ibcc_result ibcc_cct_fill_fdec(uint16_t *out, uint32_t n,
                                        ibcc_time max_pkt_time,
                                        ibcc_cct_fdec_fn fdec, void *user)
{
    uint32_t i;
    double r = 1.0;
    if (!out || !fdec) return IBCC_ERR_NULL;
    if (n == 0 || n > IBCC_CCT_MAX_ENTRIES) return IBCC_ERR_CAPACITY;
    if (max_pkt_time == 0) return IBCC_ERR_RANGE;
    out[0] = 0; /* r_0 = Rmax: no delay */
    for (i = 1; i < n; i++) {
        double d;
        ibcc_result res;
        r = fdec(user, r);
        if (!(r > 0.0 && r <= 1.0)) return IBCC_ERR_RANGE; /* NaN too */
        /* d_i = (1 / r_i - 1) * max_pkt_time, rounded to nearest ps */
        d = (1.0 / r - 1.0) * (double)max_pkt_time;
        if (!(d < 1.8e19)) return IBCC_ERR_RANGE;
        res = ibcc_cct_entry_from_delay((ibcc_time)floor(d + 0.5),
                                        max_pkt_time, &out[i]);
        if (res != IBCC_OK) return res;
    }
    return IBCC_OK;
}

static double ibcc_cct_law_fdec_(void *user, double x)
{
    return ibcc_law_fdec((const ibcc_law *)user, x);
}

IBCC_API ibcc_result ibcc_cct_fill_law(uint16_t *out, uint32_t n,
                                       ibcc_time max_pkt_time,
                                       const ibcc_law *law)
{
    if (!law) return IBCC_ERR_NULL;
    return ibcc_cct_fill_fdec(out, n, max_pkt_time, ibcc_cct_law_fdec_,
                              (void *)(uintptr_t)law);
}
#endif /* IBCC_NO_FLOAT */

/* ---- agent ------------------------------------------------------------ */

/* The default table ([G] quadratic over `len` entries) exists for this
   max_pkt_time: its delays grow with the index, so the last entry is the
   only one that can lie beyond the largest delay 16383 * max_pkt_time
   (ibcc_cct_fill_quadratic's RANGE). */
static ibcc_result ibcc_cct_check_quad_(uint32_t len, ibcc_time max_pkt_time)
{
    uint64_t last = (uint64_t)(len - 1u), dl;
    uint16_t e;
    if (ibcc_cct_muldiv_round_(last * last, IBCC_CCT_QUAD_COEF,
                               (uint64_t)IBCC_CCT_QUAD_G_ROOT * IBCC_CCT_QUAD_G_ROOT,
                               &dl) != IBCC_OK)
        return IBCC_ERR_RANGE;
    return ibcc_cct_entry_from_delay(dl, max_pkt_time, &e);
}

/* The one place the cct's defaults are applied and its ranges checked:
   *d = *in with defaults, or an error (the caller's desc untouched).
   ibcc_cct_defaults, _size and _init accept exactly what it accepts. */
static ibcc_result ibcc_cct_desc_check_(const ibcc_cct_desc *in,
                                        ibcc_cct_desc *d)
{
    unsigned s;
    uint32_t len;
    if (!in || !d) return IBCC_ERR_NULL;
    *d = *in;
    if (d->flows == 0) d->flows = 1;
    if (d->entries == 0)
        d->entries = (d->table && d->table_len > 128u) ? d->table_len : 128u;
    if (d->log_capacity == 0) d->log_capacity = 16;
    if (d->max_pkt_bytes == 0) d->max_pkt_bytes = 2074;
    if (d->port_rate == 0) d->port_rate = IBCC_GBITS(16);
    if (d->flows > 0x7fffffffu || d->entries > IBCC_CCT_MAX_ENTRIES
        || d->log_capacity > 65535u)
        return IBCC_ERR_CAPACITY;
    if (d->per_sl > 1) return IBCC_ERR_RANGE;
    if (d->max_pkt_time == 0) {
        ibcc_result r = ibcc_wire_time(d->max_pkt_bytes, d->port_rate,
                                       &d->max_pkt_time);
        if (r != IBCC_OK) return r;
    }
    if (d->table) {
        if (d->table_len == 0 || d->table_len > d->entries)
            return IBCC_ERR_CAPACITY;
        len = d->table_len;
    } else {
        ibcc_result r;
        if (d->table_len != 0) return IBCC_ERR_NULL;
        len = d->entries;
        r = ibcc_cct_check_quad_(len, d->max_pkt_time);
        if (r != IBCC_OK) return r;
    }
    if (d->ccti_limit == 0) d->ccti_limit = (uint16_t)(len - 1);
    if (d->ccti_limit >= len) return IBCC_ERR_RANGE;
    if (d->flow_sl) {
        uint32_t i;
        for (i = 0; i < d->flows; i++)
            if (d->flow_sl[i] >= IBCC_CCT_SLS) return IBCC_ERR_RANGE;
    }
    for (s = 0; s < IBCC_CCT_SLS; s++) {
        ibcc_cct_sl *p = &d->sl[s];
        if (p->ccti_timer == 0) p->ccti_timer = 150;
        if (p->ccti_increase == 0) p->ccti_increase = 1;
        if (p->ccti_min > d->ccti_limit) return IBCC_ERR_RANGE;
    }
    return IBCC_OK;
}

IBCC_API ibcc_result ibcc_cct_defaults(ibcc_cct_desc *d)
{
    ibcc_cct_desc e;
    ibcc_result r = ibcc_cct_desc_check_(d, &e);
    if (r == IBCC_OK) *d = e;
    return r;
}

/* Byte offsets of the parts in the agent's memory. */
static uint64_t ibcc_cct_layout_(const ibcc_cct_desc *d, uint64_t *off_log,
                                 uint64_t *off_table)
{
    uint64_t o = (uint64_t)d->flows * sizeof(ibcc_cct_flow_);
    *off_log = o;
    o += (uint64_t)d->log_capacity * sizeof(ibcc_cct_event);
    *off_table = o;
    o += (uint64_t)d->entries * sizeof(uint16_t);
    return ibcc_round8_(o);
}

IBCC_API ibcc_result ibcc_cct_size(const ibcc_cct_desc *d, size_t *bytes)
{
    ibcc_cct_desc e;
    uint64_t a, b, need = 0;
    ibcc_result r = ibcc_cct_desc_check_(d, &e);
    if (r == IBCC_OK) need = ibcc_cct_layout_(&e, &a, &b);
    return ibcc_size_out_(r, need, bytes);
}

IBCC_API ibcc_result ibcc_cct_init(ibcc_cct *c, const ibcc_cct_desc *d,
                                   void *mem, size_t len)
{
    ibcc_cct_desc e;
    uint64_t need, off_log, off_table;
    unsigned char *base = (unsigned char *)mem;
    ibcc_result r;
    unsigned s;
    if (!c || !d || !mem) return IBCC_ERR_NULL;
    r = ibcc_cct_desc_check_(d, &e);
    if (r != IBCC_OK) return r;
    need = ibcc_cct_layout_(&e, &off_log, &off_table);
    r = ibcc_mem_check_(mem, len, need);
    if (r != IBCC_OK) return r;
    memset(c, 0, sizeof *c);
    c->flows = e.flows;
    c->entries = e.entries;
    c->log_cap = e.log_capacity;
    c->per_sl = e.per_sl;
    c->control_map = (uint16_t)~e.disabled_sls;
    c->ccti_limit = e.ccti_limit;
    c->max_pkt_time = e.max_pkt_time;
    c->flow = (ibcc_cct_flow_ *)(void *)base;
    c->log = (ibcc_cct_event *)(void *)(base + off_log);
    c->table = (uint16_t *)(void *)(base + off_table);
    memset(c->table, 0, (size_t)e.entries * sizeof(uint16_t));
    if (e.table) {
        memcpy(c->table, e.table, (size_t)e.table_len * sizeof(uint16_t));
    } else {
        r = ibcc_cct_fill_quadratic(c->table, e.entries, e.max_pkt_time,
                                    IBCC_CCT_QUAD_COEF, IBCC_CCT_QUAD_G_ROOT);
        if (r != IBCC_OK) return r;
    }
    for (s = 0; s < IBCC_CCT_SLS; s++) {
        c->sl[s].p = e.sl[s];
        c->sl[s].period = ibcc_cct_satmul_(IBCC_CCT_TIMER_UNIT_PS,
                                           e.sl[s].ccti_timer);
    }
    memset(c->flow, 0, (size_t)c->flows * sizeof(ibcc_cct_flow_));
    if (e.flow_sl) {
        uint32_t i;
        for (i = 0; i < c->flows; i++) c->flow[i].sl = e.flow_sl[i];
    }
    ibcc_cct_reset(c);
    return IBCC_OK;
}

IBCC_API void ibcc_cct_reset(ibcc_cct *c)
{
    unsigned s;
    uint32_t i;
    if (!c) return;
    for (i = 0; i < c->flows; i++) {
        c->flow[i].ccti = 0;
        c->flow[i].seen = 0;
    }
    for (s = 0; s < IBCC_CCT_SLS; s++) {
        ibcc_cct_slstate_ *q = &c->sl[s];
        q->next = 0; q->count = 0; q->stop = 0;
        q->running = 0; q->parked = 0;
        memset(&q->agg, 0, sizeof q->agg);
    }
    c->last = 0;
    c->log_head = 0; c->log_count = 0;
    c->log_total = 0; c->log_lost = 0;
}

/* Expiries due by `now` (>= next) of a running timer:
       k = 1 + (now - next) / period
   without a division when fewer than two are due. */
static uint64_t ibcc_cct_due_(const ibcc_cct_slstate_ *q, ibcc_time now)
{
    ibcc_time d = now - q->next;
    return d < q->period ? 1u : 1u + d / q->period;
}

/* Expiry count of an SL timer at `now` (not stored), and whether it is
   still running then. Expiries at next, next + P, ...; the timer stops
   at the expiry that brings count to stop. next is saturated at
   IBCC_TIME_MAX when the true expiry lies beyond 2^64 - 1 ps: such an
   expiry never fires (else every call at IBCC_TIME_MAX would fire it
   again). */
static uint64_t ibcc_cct_count_at_(const ibcc_cct_slstate_ *q, ibcc_time now,
                                   int *running)
{
    uint64_t k;
    if (!q->running || now < q->next || q->next == IBCC_TIME_MAX) {
        if (running) *running = q->running;
        return q->count;
    }
    k = ibcc_cct_due_(q, now);
    if (k >= q->stop - q->count) {
        if (running) *running = 0;
        return q->stop;
    }
    if (running) *running = 1;
    return q->count + k;
}

/* Applies the expiries due at or before `now` to the SL's timer state. */
static void ibcc_cct_advance_(ibcc_cct_slstate_ *q, ibcc_time now)
{
    uint64_t k;
    if (!q->running || now < q->next || q->next == IBCC_TIME_MAX) return;
    k = ibcc_cct_due_(q, now);
    if (k >= q->stop - q->count) {
        q->count = q->stop;
        q->running = 0;
        return;
    }
    q->count += k;
    q->next = ibcc_cct_satadd_(q->next, ibcc_cct_satmul_(q->period, k));
}

/* CCTI of a flow at SL expiry count `count`:
       CCTI > Min ? max(Min, CCTI - (count - seen)) : CCTI */
static unsigned ibcc_cct_value_(const ibcc_cct_flow_ *f, uint64_t count,
                                 unsigned min)
{
    uint64_t el = count - f->seen;
    if (f->ccti <= min) return f->ccti;
    if (el >= (uint64_t)(f->ccti - min)) return min;
    return (unsigned)(f->ccti - el);
}

static ibcc_time ibcc_cct_now_(const ibcc_cct *c, ibcc_time now)
{
    return now < c->last ? c->last : now;
}

/* Brings every flow of SL s up to date at the SL's current count (call
   ibcc_cct_advance_ first). O(flows). */
static void ibcc_cct_settle_(ibcc_cct *c, unsigned s)
{
    ibcc_cct_slstate_ *q = &c->sl[s];
    uint32_t i;
    if (c->per_sl) {
        q->agg.ccti = (uint16_t)ibcc_cct_value_(&q->agg, q->count, q->p.ccti_min);
        q->agg.seen = q->count;
        return;
    }
    for (i = 0; i < c->flows; i++) {
        ibcc_cct_flow_ *f = &c->flow[i];
        if (f->sl != s) continue;
        f->ccti = (uint16_t)ibcc_cct_value_(f, q->count, q->p.ccti_min);
        f->seen = q->count;
    }
}

/* After a settle and a settings change: recomputes the stop count (timer
   running) or the parked excess (timer stopped) of SL s exactly, from the
   settled CCTIs, clamping them to the limit. O(flows). */
static void ibcc_cct_rescan_(ibcc_cct *c, unsigned s)
{
    ibcc_cct_slstate_ *q = &c->sl[s];
    unsigned min = q->p.ccti_min, maxex = 0;
    uint32_t i;
    if (c->per_sl) {
        if (q->agg.ccti > c->ccti_limit) q->agg.ccti = c->ccti_limit;
        if (q->agg.ccti > min) maxex = q->agg.ccti - min;
    } else {
        for (i = 0; i < c->flows; i++) {
            ibcc_cct_flow_ *f = &c->flow[i];
            if (f->sl != s) continue;
            if (f->ccti > c->ccti_limit) f->ccti = c->ccti_limit;
            if (f->ccti > min && f->ccti - min > maxex) maxex = f->ccti - min;
        }
    }
    if (q->running && q->period == 0) q->running = 0;
    if (q->running) {
        q->stop = q->count + (maxex > 1 ? maxex : 1);
        q->parked = 0;
    } else {
        q->stop = q->count;
        q->parked = (uint16_t)maxex;
    }
}

static void ibcc_cct_log_(ibcc_cct *c, uint32_t flow, unsigned sl,
                          unsigned ccti, ibcc_time now)
{
    uint32_t slot;
    ibcc_cct_event *e;
    if (c->log_count == c->log_cap) {       /* full: overwrite the oldest */
        slot = c->log_head;
        c->log_head = (c->log_head + 1 == c->log_cap) ? 0 : c->log_head + 1;
        c->log_lost++;
    } else {
        slot = c->log_head + c->log_count;
        if (slot >= c->log_cap) slot -= c->log_cap;
        c->log_count++;
    }
    e = &c->log[slot];
    e->time = now;
    e->flow = flow;
    e->ccti = (uint16_t)ccti;
    e->sl = (uint8_t)sl;
    e->reserved = 0;
    c->log_total++;
}

IBCC_API unsigned ibcc_cct_on_becn(ibcc_cct *c, uint32_t flow, ibcc_time now)
{
    ibcc_cct_flow_ *f, *g;
    ibcc_cct_slstate_ *q;
    unsigned sl, v, nv, min;
    if (!c || flow >= c->flows) return 0;
    f = &c->flow[flow];
    sl = f->sl;
    if (!((c->control_map >> sl) & 1u)) return 0;
    now = ibcc_cct_now_(c, now);
    c->last = now;
    q = &c->sl[sl];
    ibcc_cct_advance_(q, now);
    g = c->per_sl ? &q->agg : f;
    min = q->p.ccti_min;
    v = ibcc_cct_value_(g, q->count, min);
    /* CCTI = min(CCTI + CCTI_Increase, CCTI_Limit) */
    nv = v + q->p.ccti_increase;
    if (nv > c->ccti_limit) nv = c->ccti_limit;
    if (v > nv) nv = v; /* never lowers (v <= limit after set_table) */
    g->ccti = (uint16_t)nv;
    g->seen = q->count;
    if (q->period != 0) {
        if (!q->running) {                   /* start: at least one expiry */
            q->running = 1;
            q->next = ibcc_cct_satadd_(now, q->period);
            q->stop = q->count + (q->parked > 1 ? q->parked : 1);
            q->parked = 0;
        }
        /* this flow reaches Min at count + (nv - Min) */
        if (nv > min && q->count + (nv - min) > q->stop)
            q->stop = q->count + (nv - min);
    }
    if (q->p.trigger_threshold != 0 && nv >= q->p.trigger_threshold)
        ibcc_cct_log_(c, flow, sl, nv, now);
    return nv;
}

IBCC_API unsigned ibcc_cct_ccti(const ibcc_cct *c, uint32_t flow, ibcc_time now)
{
    const ibcc_cct_flow_ *f;
    const ibcc_cct_slstate_ *q;
    if (!c || flow >= c->flows) return 0;
    f = &c->flow[flow];
    q = &c->sl[f->sl];
    return ibcc_cct_value_(c->per_sl ? &q->agg : f,
                           ibcc_cct_count_at_(q, ibcc_cct_now_(c, now), NULL),
                           q->p.ccti_min);
}

IBCC_API ibcc_time ibcc_cct_delay(const ibcc_cct *c, uint32_t flow, ibcc_time now)
{
    unsigned i;
    if (!c || flow >= c->flows) return 0;
    if (!((c->control_map >> c->flow[flow].sl) & 1u)) return 0;
    i = ibcc_cct_ccti(c, flow, now);
    return ibcc_cct_entry_delay(c->table[i], c->max_pkt_time);
}

IBCC_API ibcc_time ibcc_cct_interval(const ibcc_cct *c, uint32_t flow,
                                     ibcc_time now, ibcc_time pkt_time)
{
    return ibcc_cct_satadd_(pkt_time, ibcc_cct_delay(c, flow, now));
}

IBCC_API void ibcc_cct_advance(ibcc_cct *c, ibcc_time now)
{
    unsigned s;
    if (!c) return;
    now = ibcc_cct_now_(c, now);
    c->last = now;
    for (s = 0; s < IBCC_CCT_SLS; s++) ibcc_cct_advance_(&c->sl[s], now);
}

IBCC_API unsigned ibcc_cct_flow_sl(const ibcc_cct *c, uint32_t flow)
{
    if (!c || flow >= c->flows) return 0;
    return c->flow[flow].sl;
}

IBCC_API ibcc_result ibcc_cct_set_flow_sl(ibcc_cct *c, uint32_t flow,
                                          unsigned sl, ibcc_time now)
{
    ibcc_cct_flow_ *f;
    ibcc_cct_slstate_ *qo, *qn;
    unsigned v;
    if (!c) return IBCC_ERR_NULL;
    if (flow >= c->flows || sl >= IBCC_CCT_SLS) return IBCC_ERR_RANGE;
    f = &c->flow[flow];
    now = ibcc_cct_now_(c, now);
    qo = &c->sl[f->sl];
    qn = &c->sl[sl];
    /* decide from the count the old SL's timer has at `now` without
       storing it: a rejected move changes nothing (not even the time) */
    v = ibcc_cct_value_(f, ibcc_cct_count_at_(qo, now, NULL), qo->p.ccti_min);
    if (!c->per_sl && (v > qo->p.ccti_min || v > qn->p.ccti_min))
        return IBCC_ERR_STATE;
    c->last = now;
    ibcc_cct_advance_(qo, now);
    ibcc_cct_advance_(qn, now);
    if (c->per_sl) { f->sl = (uint8_t)sl; return IBCC_OK; }
    f->ccti = (uint16_t)v;
    f->sl = (uint8_t)sl;
    f->seen = qn->count;
    return IBCC_OK;
}

IBCC_API int ibcc_cct_timer_running(const ibcc_cct *c, unsigned sl, ibcc_time now)
{
    int run = 0;
    if (!c || sl >= IBCC_CCT_SLS) return 0;
    (void)ibcc_cct_count_at_(&c->sl[sl], ibcc_cct_now_(c, now), &run);
    return run;
}

IBCC_API uint64_t ibcc_cct_timer_expiries(const ibcc_cct *c, unsigned sl,
                                          ibcc_time now)
{
    if (!c || sl >= IBCC_CCT_SLS) return 0;
    return ibcc_cct_count_at_(&c->sl[sl], ibcc_cct_now_(c, now), NULL);
}

IBCC_API ibcc_result ibcc_cct_set_sl(ibcc_cct *c, unsigned sl,
                                     const ibcc_cct_sl *p, ibcc_time now)
{
    ibcc_cct_slstate_ *q;
    if (!c || !p) return IBCC_ERR_NULL;
    if (sl >= IBCC_CCT_SLS || p->ccti_min > c->ccti_limit) return IBCC_ERR_RANGE;
    now = ibcc_cct_now_(c, now);
    c->last = now;
    q = &c->sl[sl];
    ibcc_cct_advance_(q, now);
    ibcc_cct_settle_(c, sl);
    q->p = *p;
    q->period = ibcc_cct_satmul_(IBCC_CCT_TIMER_UNIT_PS, p->ccti_timer);
    ibcc_cct_rescan_(c, sl);
    return IBCC_OK;
}

/* Sets every CCTI of SL s to 0 and stops its timer (count kept). */
static void ibcc_cct_clear_sl_(ibcc_cct *c, unsigned s)
{
    ibcc_cct_slstate_ *q = &c->sl[s];
    uint32_t i;
    q->running = 0;
    q->stop = q->count;
    q->parked = 0;
    q->agg.ccti = 0;
    q->agg.seen = q->count;
    for (i = 0; i < c->flows; i++) {
        if (c->flow[i].sl != s) continue;
        c->flow[i].ccti = 0;
        c->flow[i].seen = q->count;
    }
}

IBCC_API ibcc_result ibcc_cct_set_port(ibcc_cct *c, uint16_t port_control,
                                       uint16_t control_map, ibcc_time now)
{
    unsigned s, per_sl;
    if (!c) return IBCC_ERR_NULL;
    if (port_control & ~1u) return IBCC_ERR_RANGE;
    now = ibcc_cct_now_(c, now);
    c->last = now;
    per_sl = port_control & 1u;
    for (s = 0; s < IBCC_CCT_SLS; s++) {
        int off = ((c->control_map >> s) & 1u) && !((control_map >> s) & 1u);
        ibcc_cct_advance_(&c->sl[s], now);
        if (per_sl != c->per_sl || off) ibcc_cct_clear_sl_(c, s);
    }
    c->per_sl = per_sl;
    c->control_map = control_map;
    return IBCC_OK;
}

IBCC_API ibcc_result ibcc_cct_set_table(ibcc_cct *c, const uint16_t *entries,
                                        uint32_t n, uint16_t limit, ibcc_time now)
{
    unsigned s;
    if (!c) return IBCC_ERR_NULL;
    if (!c->table) return IBCC_ERR_STATE;       /* zeroed, never initialised */
    if (n > 0 && !entries) return IBCC_ERR_NULL;
    if (n > c->entries) return IBCC_ERR_CAPACITY;
    if (limit >= (n > 0 ? n : 1u)) return IBCC_ERR_RANGE;
    for (s = 0; s < IBCC_CCT_SLS; s++)
        if (c->sl[s].p.ccti_min > limit) return IBCC_ERR_RANGE;
    now = ibcc_cct_now_(c, now);
    c->last = now;
    for (s = 0; s < IBCC_CCT_SLS; s++) {
        ibcc_cct_advance_(&c->sl[s], now);
        ibcc_cct_settle_(c, s);
    }
    memset(c->table, 0, (size_t)c->entries * sizeof(uint16_t));
    if (n > 0) memcpy(c->table, entries, (size_t)n * sizeof(uint16_t));
    c->ccti_limit = limit;
    for (s = 0; s < IBCC_CCT_SLS; s++) ibcc_cct_rescan_(c, s);
    return IBCC_OK;
}

IBCC_API const ibcc_cct_sl *ibcc_cct_get_sl(const ibcc_cct *c, unsigned sl)
{
    if (!c || sl >= IBCC_CCT_SLS) return NULL;
    return &c->sl[sl].p;
}

IBCC_API uint16_t ibcc_cct_limit(const ibcc_cct *c) { return c ? c->ccti_limit : 0; }

IBCC_API const uint16_t *ibcc_cct_table(const ibcc_cct *c)
{
    return c ? c->table : NULL;
}

IBCC_API uint32_t ibcc_cct_log_read(ibcc_cct *c, ibcc_cct_event *out, uint32_t max)
{
    uint32_t i, n;
    if (!c || !out) return 0;
    n = c->log_count < max ? c->log_count : max;
    for (i = 0; i < n; i++) {
        out[i] = c->log[c->log_head];
        c->log_head = (c->log_head + 1 == c->log_cap) ? 0 : c->log_head + 1;
    }
    c->log_count -= n;
    return n;
}

IBCC_API uint32_t ibcc_cct_log_count(const ibcc_cct *c) { return c ? c->log_count : 0; }
IBCC_API uint64_t ibcc_cct_log_total(const ibcc_cct *c) { return c ? c->log_total : 0; }
IBCC_API uint64_t ibcc_cct_log_lost(const ibcc_cct *c) { return c ? c->log_lost : 0; }

/* ---- L1 cacc: implementation ------------------------------------------ */

IBCC_API ibcc_result ibcc_cacc_setting_encode(const ibcc_cacc_setting *s,
                                              uint8_t *buf, size_t len)
{
    unsigned i;
    if (!s || !buf) return IBCC_ERR_NULL;
    if (len < IBCC_CACC_SETTING_BYTES) return IBCC_ERR_NOMEM;
    if (s->port_control & ~1u) return IBCC_ERR_RANGE;
    memset(buf, 0, IBCC_CACC_SETTING_BYTES);
    ibcc_put16_(buf + 0, s->port_control);
    ibcc_put16_(buf + 2, s->control_map);
    for (i = 0; i < IBCC_CCT_SLS; i++) {
        uint8_t *e = buf + 4 + 8 * i;       /* 8-byte CACongestionEntry */
        ibcc_put16_(e, s->sl[i].ccti_timer);
        e[2] = s->sl[i].ccti_increase;
        e[3] = s->sl[i].trigger_threshold;
        e[4] = s->sl[i].ccti_min;           /* e[5..7] reserved */
    }
    return IBCC_OK;
}

IBCC_API ibcc_result ibcc_cacc_setting_decode(ibcc_cacc_setting *s,
                                              const uint8_t *buf, size_t len)
{
    unsigned i;
    if (!s || !buf) return IBCC_ERR_NULL;
    if (len < IBCC_CACC_SETTING_BYTES) return IBCC_ERR_NOMEM;
    memset(s, 0, sizeof *s);
    s->port_control = (uint16_t)(ibcc_get16_(buf) & 1u); /* 15..1 rsvd */
    s->control_map = (uint16_t)ibcc_get16_(buf + 2);
    for (i = 0; i < IBCC_CCT_SLS; i++) {
        const uint8_t *e = buf + 4 + 8 * i;
        s->sl[i].ccti_timer = (uint16_t)ibcc_get16_(e);
        s->sl[i].ccti_increase = e[2];
        s->sl[i].trigger_threshold = e[3];
        s->sl[i].ccti_min = e[4];
    }
    return IBCC_OK;
}

/* A block's fields within their MAD widths (CCTI_Limit 0..16383, block
   0..255): what encode, the text printer and the parser accept. */
static int ibcc_cacc_block_ok_(const ibcc_cacc_block *b)
{
    return b->ccti_limit < IBCC_CCT_MAX_ENTRIES
        && b->block < IBCC_CACC_MAX_BLOCKS;
}

IBCC_API ibcc_result ibcc_cacc_block_encode(const ibcc_cacc_block *b,
                                            uint8_t *buf, size_t len)
{
    unsigned i;
    if (!b || !buf) return IBCC_ERR_NULL;
    if (len < IBCC_CACC_TABLE_BYTES) return IBCC_ERR_NOMEM;
    if (!ibcc_cacc_block_ok_(b)) return IBCC_ERR_RANGE;
    ibcc_put16_(buf, b->ccti_limit);
    ibcc_put16_(buf + 2, 0);                              /* reserved */
    for (i = 0; i < IBCC_CACC_BLOCK_ENTRIES; i++)
        ibcc_put16_(buf + 4 + 2 * i, b->entry[i]);
    return IBCC_OK;
}

IBCC_API ibcc_result ibcc_cacc_block_decode(ibcc_cacc_block *b, uint16_t block,
                                            const uint8_t *buf, size_t len)
{
    unsigned i, limit;
    if (!b || !buf) return IBCC_ERR_NULL;
    if (len < IBCC_CACC_TABLE_BYTES) return IBCC_ERR_NOMEM;
    limit = ibcc_get16_(buf);
    if (block >= IBCC_CACC_MAX_BLOCKS || limit >= IBCC_CCT_MAX_ENTRIES)
        return IBCC_ERR_RANGE;
    b->ccti_limit = (uint16_t)limit;
    b->block = block;
    for (i = 0; i < IBCC_CACC_BLOCK_ENTRIES; i++)
        b->entry[i] = (uint16_t)ibcc_get16_(buf + 4 + 2 * i);
    return IBCC_OK;
}

IBCC_API uint32_t ibcc_cacc_blocks(uint16_t limit)
{
    return (uint32_t)limit / IBCC_CACC_BLOCK_ENTRIES + 1u;
}

IBCC_API ibcc_result ibcc_cacc_block_from_table(ibcc_cacc_block *b,
                                                const uint16_t *entries,
                                                uint32_t n, uint16_t limit,
                                                uint16_t block)
{
    uint32_t i;
    if (!b || (n > 0 && !entries)) return IBCC_ERR_NULL;
    if (n > IBCC_CCT_MAX_ENTRIES) return IBCC_ERR_CAPACITY;
    if (limit >= (n > 0 ? n : 1u) || block > limit / IBCC_CACC_BLOCK_ENTRIES)
        return IBCC_ERR_RANGE;
    b->ccti_limit = limit;
    b->block = block;
    for (i = 0; i < IBCC_CACC_BLOCK_ENTRIES; i++) {
        uint32_t k = (uint32_t)block * IBCC_CACC_BLOCK_ENTRIES + i;
        b->entry[i] = k < n ? entries[k] : (uint16_t)0;
    }
    return IBCC_OK;
}

IBCC_API ibcc_result ibcc_cacc_block_to_table(const ibcc_cacc_block *b,
                                              uint16_t *entries, uint32_t cap)
{
    uint32_t first, last, k;
    if (!b || !entries) return IBCC_ERR_NULL;
    first = (uint32_t)b->block * IBCC_CACC_BLOCK_ENTRIES;
    if (first > b->ccti_limit) return IBCC_OK;          /* nothing valid */
    last = first + IBCC_CACC_BLOCK_ENTRIES - 1u;
    if (last > b->ccti_limit) last = b->ccti_limit;
    if (last >= cap) return IBCC_ERR_CAPACITY;
    for (k = first; k <= last; k++) entries[k] = b->entry[k - first];
    return IBCC_OK;
}

#ifndef IBCC_NO_STDIO
/* ---- text: what differs from swcc is the grammar and the names -------- */

IBCC_API ibcc_result ibcc_cacc_setting_parse_args(ibcc_cacc_setting *s,
                                                  const char *text)
{
    static const uint64_t max[6] = {1u, 0xffffu, 0xffffu, 0xffu, 0xffu, 0xffu};
    uint64_t v[6] = {0, 0, 0, 0, 0, 0};
    ibcc_cacc_setting t;
    ibcc_cur_ c;
    ibcc_result r = IBCC_OK;
    unsigned i;
    if (!s || !text) return IBCC_ERR_NULL;
    c = ibcc_cur_str_(text);
    ibcc_cur_blanks_(&c);
    (void)ibcc_cur_word_(&c, "CACongestionSetting");
    for (i = 0; i < 6u; i++)
        if (!ibcc_fold_(&r, ibcc_cur_field_(&c, max[i], &v[i])))
            return IBCC_ERR_PARSE;
    if (!ibcc_cur_done_(&c)) return IBCC_ERR_PARSE;
    if (r != IBCC_OK) return r;
    memset(&t, 0, sizeof t);
    t.port_control = (uint16_t)v[0];
    t.control_map = (uint16_t)v[1];
    for (i = 0; i < IBCC_CCT_SLS; i++) {
        if (!((t.control_map >> i) & 1u)) continue;
        t.sl[i].ccti_timer = (uint16_t)v[2];
        t.sl[i].ccti_increase = (uint8_t)v[3];
        t.sl[i].trigger_threshold = (uint8_t)v[4];
        t.sl[i].ccti_min = (uint8_t)v[5];
    }
    *s = t;
    return IBCC_OK;
}

static int ibcc_cacc_sl_eq_(const ibcc_cct_sl *a, const ibcc_cct_sl *b)
{
    return a->ccti_timer == b->ccti_timer && a->ccti_increase == b->ccti_increase
        && a->trigger_threshold == b->trigger_threshold && a->ccti_min == b->ccti_min;
}

IBCC_API ibcc_result ibcc_cacc_setting_print_args(const ibcc_cacc_setting *s,
                                                  char *buf, size_t len)
{
    ibcc_out_ o;
    ibcc_cct_sl zero, v;
    unsigned i;
    int have = 0;
    if (!s || !buf) return IBCC_ERR_NULL;
    memset(&zero, 0, sizeof zero);
    v = zero;
    for (i = 0; i < IBCC_CCT_SLS; i++) {
        if ((s->control_map >> i) & 1u) {
            if (!have) { v = s->sl[i]; have = 1; }
            else if (!ibcc_cacc_sl_eq_(&v, &s->sl[i])) return IBCC_ERR_UNSUPPORTED;
        } else if (!ibcc_cacc_sl_eq_(&zero, &s->sl[i])) {
            return IBCC_ERR_UNSUPPORTED;
        }
    }
    if (s->port_control & ~1u) return IBCC_ERR_RANGE;
    ibcc_out_begin_(&o, buf, len);
    ibcc_out_str_(&o, "CACongestionSetting ");
    ibcc_out_dec_(&o, s->port_control);
    ibcc_out_str_(&o, " ");
    ibcc_out_hex_(&o, s->control_map);
    ibcc_out_str_(&o, " ");
    ibcc_out_dec_(&o, v.ccti_timer);
    ibcc_out_str_(&o, " ");
    ibcc_out_dec_(&o, v.ccti_increase);
    ibcc_out_str_(&o, " ");
    ibcc_out_dec_(&o, v.trigger_threshold);
    ibcc_out_str_(&o, " ");
    ibcc_out_dec_(&o, v.ccti_min);
    return ibcc_out_end_(&o);
}

IBCC_API ibcc_result ibcc_cacc_block_parse_args(ibcc_cacc_block *b,
                                                const char *text)
{
    uint64_t limit = 0, index = 0;
    ibcc_cacc_block t;
    ibcc_cur_ c;
    ibcc_result r = IBCC_OK;
    unsigned n = 0;
    if (!b || !text) return IBCC_ERR_NULL;
    c = ibcc_cur_str_(text);
    ibcc_cur_blanks_(&c);
    (void)ibcc_cur_word_(&c, "CongestionControlTable");
    if (!ibcc_fold_(&r, ibcc_cur_field_(&c, IBCC_CCT_MAX_ENTRIES - 1u, &limit))
        || !ibcc_fold_(&r, ibcc_cur_field_(&c, IBCC_CACC_MAX_BLOCKS - 1u, &index)))
        return IBCC_ERR_PARSE;
    memset(&t, 0, sizeof t);
    t.ccti_limit = (uint16_t)limit;
    t.block = (uint16_t)index;
    while (!ibcc_cur_done_(&c)) {
        uint32_t sh = 0, mu = 0;
        if (!ibcc_fold_(&r, ibcc_cur_pair_(&c, 0, &sh, &mu))) return IBCC_ERR_PARSE;
        if (n == IBCC_CACC_BLOCK_ENTRIES) (void)ibcc_fold_(&r, IBCC_ERR_RANGE);
        else t.entry[n++] = IBCC_CCT_ENTRY(sh, mu);
    }
    if (r == IBCC_OK) *b = t;
    return r;
}

IBCC_API ibcc_result ibcc_cacc_block_print_args(const ibcc_cacc_block *b,
                                                char *buf, size_t len)
{
    ibcc_out_ o;
    uint32_t first, i, n = 0;
    if (!b || !buf) return IBCC_ERR_NULL;
    if (!ibcc_cacc_block_ok_(b)) return IBCC_ERR_RANGE;   /* as the parser */
    first = (uint32_t)b->block * IBCC_CACC_BLOCK_ENTRIES;
    if (first <= b->ccti_limit) {
        n = b->ccti_limit - first + 1u;
        if (n > IBCC_CACC_BLOCK_ENTRIES) n = IBCC_CACC_BLOCK_ENTRIES;
    }
    ibcc_out_begin_(&o, buf, len);
    ibcc_out_str_(&o, "CongestionControlTable ");
    ibcc_out_dec_(&o, b->ccti_limit);
    ibcc_out_str_(&o, " ");
    ibcc_out_dec_(&o, b->block);
    for (i = 0; i < n; i++) {
        ibcc_out_str_(&o, " ");
        ibcc_out_pair_(&o, IBCC_CCT_SHIFT(b->entry[i]), IBCC_CCT_MULT(b->entry[i]));
    }
    return ibcc_out_end_(&o);
}

#define IBCC_CACC_OPT_ "cc_ca_cong_setting_"
static const char *const ibcc_cacc_sl_opt_[4] = {
    "ccti_timer", "ccti_increase", "trigger_threshold", "ccti_min"
};

/* cc_cct's value: "(null)", nothing, or entries separated by commas. */
static ibcc_result ibcc_cacc_cct_line_(ibcc_cacc_config *c, ibcc_cur_ *cur)
{
    uint16_t t[IBCC_CACC_OPENSM_CCT_MAX];
    uint32_t n = 0;
    ibcc_result r = IBCC_OK;
    ibcc_cur_blanks_(cur);
    if (ibcc_cur_word_(cur, "(null)") || cur->p == cur->e) {
        if (!ibcc_cur_done_(cur)) return IBCC_ERR_PARSE;
        c->cct_len = 0;
        return IBCC_OK;
    }
    for (;;) {
        uint32_t sh = 0, mu = 0;
        if (!ibcc_fold_(&r, ibcc_cur_pair_(cur, ',', &sh, &mu))) return IBCC_ERR_PARSE;
        if (n == IBCC_CACC_OPENSM_CCT_MAX) (void)ibcc_fold_(&r, IBCC_ERR_RANGE);
        else t[n++] = IBCC_CCT_ENTRY(sh, mu);
        if (ibcc_cur_done_(cur)) break;
        if (!ibcc_cur_lit_(cur, ",")) return IBCC_ERR_PARSE;
    }
    if (r != IBCC_OK) return r;
    memcpy(c->cct, t, (size_t)n * sizeof t[0]);
    c->cct_len = n;
    return IBCC_OK;
}

/* One option line (ibcc_linefn_). */
static ibcc_result ibcc_cacc_line_(void *ctx, ibcc_cur_ *cur, uint32_t line)
{
    ibcc_cacc_config *c = (ibcc_cacc_config *)ctx;
    uint64_t a = 0, v = 0;
    ibcc_result r = IBCC_OK;
    unsigned k = 0;
    int map = 0;
    (void)line;
    ibcc_cur_blanks_(cur);
    if (cur->p == cur->e || *cur->p == '#') return IBCC_OK;
    if (ibcc_cur_word_(cur, "cc_cct")) return ibcc_cacc_cct_line_(c, cur);
    if (!ibcc_cur_lit_(cur, IBCC_CACC_OPT_)) return IBCC_ERR_NOT_FOUND;
    if (ibcc_cur_word_(cur, "port_control")
        || (map = ibcc_cur_word_(cur, "control_map")) != 0) {
        if (!ibcc_fold_(&r, ibcc_cur_field_(cur, map ? 0xffffu : 1u, &v))
            || !ibcc_cur_done_(cur))
            return IBCC_ERR_PARSE;
        if (r != IBCC_OK) return r;
        if (map) c->setting.control_map = (uint16_t)v;
        else c->setting.port_control = (uint16_t)v;
        return IBCC_OK;
    }
    while (k < 4u && !ibcc_cur_word_(cur, ibcc_cacc_sl_opt_[k])) k++;
    if (k == 4u) return IBCC_ERR_NOT_FOUND;
    if (!ibcc_fold_(&r, ibcc_cur_field_(cur, IBCC_CCT_SLS - 1u, &a))
        || !ibcc_fold_(&r, ibcc_cur_field_(cur, k == 0 ? 0xffffu : 0xffu, &v))
        || !ibcc_cur_done_(cur))
        return IBCC_ERR_PARSE;
    if (r != IBCC_OK) return r;
    switch (k) {
    case 0: c->setting.sl[a].ccti_timer = (uint16_t)v; break;
    case 1: c->setting.sl[a].ccti_increase = (uint8_t)v; break;
    case 2: c->setting.sl[a].trigger_threshold = (uint8_t)v; break;
    default: c->setting.sl[a].ccti_min = (uint8_t)v; break;
    }
    return IBCC_OK;
}

IBCC_API ibcc_result ibcc_cacc_parse_opensm_line(ibcc_cacc_config *c,
                                                 const char *line)
{
    ibcc_cur_ cur;
    if (!c || !line) return IBCC_ERR_NULL;
    cur = ibcc_cur_str_(line);
    return ibcc_cacc_line_(c, &cur, 1u);
}

IBCC_API ibcc_result ibcc_cacc_parse_opensm(ibcc_cacc_config *c,
                                            const char *text,
                                            unsigned *bad_line)
{
    if (bad_line) *bad_line = 0;
    if (!c || !text) return IBCC_ERR_NULL;
    return ibcc_opt_text_(c, ibcc_cacc_line_, text, bad_line);
}

IBCC_API ibcc_result ibcc_cacc_print_opensm(const ibcc_cacc_config *c,
                                            char *buf, size_t len)
{
    ibcc_out_ o;
    unsigned k, s;
    uint32_t i;
    if (!c || !buf) return IBCC_ERR_NULL;
    if (c->cct_len > IBCC_CACC_OPENSM_CCT_MAX
        || (c->setting.port_control & ~1u))   /* the parser refuses them */
        return IBCC_ERR_RANGE;
    ibcc_out_begin_(&o, buf, len);
    ibcc_out_str_(&o, IBCC_CACC_OPT_ "port_control ");
    ibcc_out_hex_(&o, c->setting.port_control);
    ibcc_out_str_(&o, "\n" IBCC_CACC_OPT_ "control_map ");
    ibcc_out_hex_(&o, c->setting.control_map);
    ibcc_out_str_(&o, "\n");
    for (k = 0; k < 4u; k++) {
        for (s = 0; s < IBCC_CCT_SLS; s++) {
            const ibcc_cct_sl *e = &c->setting.sl[s];
            unsigned v = k == 0 ? e->ccti_timer : k == 1 ? e->ccti_increase
                       : k == 2 ? e->trigger_threshold : e->ccti_min;
            ibcc_out_str_(&o, IBCC_CACC_OPT_);
            ibcc_out_str_(&o, ibcc_cacc_sl_opt_[k]);
            ibcc_out_str_(&o, " ");
            ibcc_out_dec_(&o, s);
            ibcc_out_str_(&o, " ");
            ibcc_out_dec_(&o, v);
            ibcc_out_str_(&o, "\n");
        }
    }
    ibcc_out_str_(&o, "cc_cct ");
    if (c->cct_len == 0) ibcc_out_str_(&o, "(null)");
    for (i = 0; i < c->cct_len; i++) {
        if (i) ibcc_out_str_(&o, ",");
        ibcc_out_pair_(&o, IBCC_CCT_SHIFT(c->cct[i]), IBCC_CCT_MULT(c->cct[i]));
    }
    ibcc_out_str_(&o, "\n");
    return ibcc_out_end_(&o);
}
#endif /* IBCC_NO_STDIO */

/* ---- agent ------------------------------------------------------------- */

IBCC_API ibcc_result ibcc_cacc_from_cct(ibcc_cacc_setting *s, const ibcc_cct *c)
{
    unsigned i;
    if (!s || !c) return IBCC_ERR_NULL;
    s->port_control = (uint16_t)(c->per_sl & 1u);
    s->control_map = c->control_map;
    for (i = 0; i < IBCC_CCT_SLS; i++) s->sl[i] = c->sl[i].p;
    return IBCC_OK;
}

static ibcc_result ibcc_cacc_check_(const ibcc_cacc_setting *s, unsigned limit)
{
    unsigned i;
    if (s->port_control & ~1u) return IBCC_ERR_RANGE;
    for (i = 0; i < IBCC_CCT_SLS; i++)
        if (s->sl[i].ccti_min > limit) return IBCC_ERR_RANGE;
    return IBCC_OK;
}

IBCC_API ibcc_result ibcc_cacc_apply(ibcc_cct *c, const ibcc_cacc_setting *s,
                                     ibcc_time now)
{
    ibcc_result r;
    unsigned i;
    if (!c || !s) return IBCC_ERR_NULL;
    r = ibcc_cacc_check_(s, c->ccti_limit);
    if (r != IBCC_OK) return r;
    r = ibcc_cct_set_port(c, s->port_control, s->control_map, now);
    for (i = 0; i < IBCC_CCT_SLS && r == IBCC_OK; i++)
        r = ibcc_cct_set_sl(c, i, &s->sl[i], now);
    return r;
}

IBCC_API ibcc_result ibcc_cacc_apply_config(ibcc_cct *c, const ibcc_cacc_config *cfg,
                                            ibcc_time now)
{
    ibcc_result r;
    uint16_t limit;
    unsigned i;
    if (!c || !cfg) return IBCC_ERR_NULL;
    if (!c->table) return IBCC_ERR_STATE;       /* zeroed, never initialised */
    if (cfg->cct_len > IBCC_CACC_OPENSM_CCT_MAX) return IBCC_ERR_RANGE;
    if (cfg->cct_len > c->entries) return IBCC_ERR_CAPACITY;
    limit = (uint16_t)(cfg->cct_len ? cfg->cct_len - 1u : 0u);
    r = ibcc_cacc_check_(&cfg->setting, limit);
    if (r != IBCC_OK) return r;
    r = ibcc_cct_set_port(c, cfg->setting.port_control, cfg->setting.control_map, now);
    /* CCTI_Min must stay <= CCTI_Limit at every step: first the new
       settings with each Min capped at the current limit, then the table,
       then the exact Mins */
    for (i = 0; i < IBCC_CCT_SLS && r == IBCC_OK; i++) {
        ibcc_cct_sl p = cfg->setting.sl[i];
        if (p.ccti_min > c->ccti_limit) p.ccti_min = (uint8_t)c->ccti_limit;
        if (p.ccti_min > limit) p.ccti_min = (uint8_t)limit;
        r = ibcc_cct_set_sl(c, i, &p, now);
    }
    if (r == IBCC_OK) r = ibcc_cct_set_table(c, cfg->cct, cfg->cct_len, limit, now);
    for (i = 0; i < IBCC_CCT_SLS && r == IBCC_OK; i++)
        r = ibcc_cct_set_sl(c, i, &cfg->setting.sl[i], now);
    return r;
}

/* ---- L1 mvcm: implementation ------------------------------------------ */

/* The one place the mvcm's defaults are applied and its ranges checked:
   *d = *in with defaults, or an error (the caller's desc untouched). */
static ibcc_result ibcc_mvcm_desc_check_(const ibcc_mvcm_desc *in,
                                         ibcc_mvcm_desc *d)
{
    if (!in || !d) return IBCC_ERR_NULL;
    *d = *in;
    if (d->flows == 0) d->flows = 1;
    if (d->dw_max == 0) d->dw_max = 2;
    if (d->k == 0) d->k = 4;
    if (d->n == 0) d->n = 3;
    if (d->flows > 0x7fffffffu) return IBCC_ERR_CAPACITY;
    if (d->dw_max > 65535u || d->k < 2 || d->k > 65535u || d->n > 64u)
        return IBCC_ERR_RANGE;
    if (d->ws == 0) return IBCC_ERR_RANGE; /* no default: RTTmin is required */
    if (d->flags & ~(IBCC_MVCM_NO_WARM | IBCC_MVCM_NO_CAP | IBCC_MVCM_MB_ONLY))
        return IBCC_ERR_RANGE;
    return IBCC_OK;
}

IBCC_API ibcc_result ibcc_mvcm_defaults(ibcc_mvcm_desc *d)
{
    ibcc_mvcm_desc e;
    ibcc_result r = ibcc_mvcm_desc_check_(d, &e);
    if (r == IBCC_OK) *d = e;
    return r;
}

IBCC_API ibcc_result ibcc_mvcm_size(const ibcc_mvcm_desc *d, size_t *bytes)
{
    ibcc_mvcm_desc e;
    ibcc_result r = ibcc_mvcm_desc_check_(d, &e);
    uint64_t need = 0;
    if (r == IBCC_OK) need = ibcc_round8_((uint64_t)e.flows * sizeof(ibcc_mvcm_flow));
    return ibcc_size_out_(r, need, bytes);
}

IBCC_API void ibcc_mvcm_flow_reset(const ibcc_mvcm *a, ibcc_mvcm_flow *f)
{
    if (!a || !f) return;
    f->dw = a->dw_max;
    f->nws = 0;
    f->mults = 0;               /* ws_seen stays: a history, not state */
}

IBCC_API ibcc_result ibcc_mvcm_init(ibcc_mvcm *a, const ibcc_mvcm_desc *d,
                                    void *mem, size_t len)
{
    ibcc_mvcm_desc e;
    ibcc_result r;
    uint32_t i;
    if (!a || !d || !mem) return IBCC_ERR_NULL;
    r = ibcc_mvcm_desc_check_(d, &e);
    if (r != IBCC_OK) return r;
    r = ibcc_mem_check_(mem, len, (uint64_t)e.flows * sizeof(ibcc_mvcm_flow));
    if (r != IBCC_OK) return r;
    a->flows = e.flows;
    a->dw_max = e.dw_max;
    a->k = e.k;
    a->n = e.n;
    a->ws = e.ws;
    a->flags = e.flags;
    a->flow = (ibcc_mvcm_flow *)mem;
    memset(&a->stats, 0, sizeof a->stats);
    for (i = 0; i < a->flows; i++) {
        ibcc_mvcm_flow_reset(a, &a->flow[i]);
        a->flow[i].ws_seen = 0;
    }
    return IBCC_OK;
}

IBCC_API int ibcc_mvcm_step(const ibcc_mvcm *a, ibcc_mvcm_flow *f, unsigned bits)
{
    int cls;
    if (!a || !f) return -1;
    cls = ibcc_mvcm_class(bits);
    if ((a->flags & IBCC_MVCM_MB_ONLY) && cls == IBCC_MVCM_WARM)
        cls = IBCC_MVCM_HOT;        /* pure input marking: MB is enough */
    switch (cls) {
    case IBCC_MVCM_WARM:
        /* moderate: DW = max(1, DW - 1) */
        if (!(a->flags & IBCC_MVCM_NO_WARM) && f->dw > 1) f->dw--;
        break;
    case IBCC_MVCM_HOT:
        /* imminent: shrink the window first, then waiting slots:
           nWS = 1, then nWS *= k at most n times */
        if (f->dw > 1) {
            f->dw--;
        } else if (f->nws == 0) {
            f->nws = 1;
            f->mults = 0;
        } else if ((a->flags & IBCC_MVCM_NO_CAP) || f->mults < a->n) {
            uint64_t x = (uint64_t)f->nws * a->k;
            f->nws = x > 0xffffffffu ? 0xffffffffu : (uint32_t)x;
            if (f->mults < 0xffffu) f->mults++;
        }
        break;
    default:
        /* recovery [F §4.2]: a cold ACK removes a waiting interval in
           force and leaves the window; without one it grows DW by 1 up
           to DWmax */
        if (f->nws > 0) {
            f->nws = 0;
            f->mults = 0;
        } else if (f->dw < a->dw_max) {
            f->dw++;
        }
        break;
    }
    return cls;
}

IBCC_API int ibcc_mvcm_on_ack(ibcc_mvcm *a, uint32_t flow, unsigned bits)
{
    ibcc_mvcm_flow *f, was;
    int cls;
    if (!a || flow >= a->flows) return -1;
    f = &a->flow[flow];
    was = *f;
    a->stats.acks[ibcc_mvcm_class(bits)]++;
    cls = ibcc_mvcm_step(a, f, bits);
    if (cls == IBCC_MVCM_WARM && f->dw < was.dw) a->stats.warm_shrunk++;
    if (cls == IBCC_MVCM_HOT && was.dw == 1 && was.nws > 0
        && f->nws == was.nws && f->mults == was.mults)
        a->stats.ws_capped++;
    if (f->nws > a->stats.nws_max) a->stats.nws_max = f->nws;
    if (f->nws > 0 && !f->ws_seen) {
        f->ws_seen = 1;
        a->stats.ws_flows++;
    }
    return cls;
}

IBCC_API void ibcc_mvcm_on_inject_empty(ibcc_mvcm *a, uint32_t flow)
{
    ibcc_mvcm_flow *f;
    if (!a || flow >= a->flows) return;
    f = &a->flow[flow];
    if (f->dw != a->dw_max || f->nws != 0) a->stats.resets++;
    ibcc_mvcm_flow_reset(a, f);
}

IBCC_API uint32_t ibcc_mvcm_window(const ibcc_mvcm *a, uint32_t flow)
{
    if (!a || flow >= a->flows) return 0;
    return a->flow[flow].dw;
}

IBCC_API ibcc_time ibcc_mvcm_wait(const ibcc_mvcm *a, uint32_t flow)
{
    uint32_t n;
    if (!a || flow >= a->flows) return 0;
    /* waiting interval = nWS * WS, saturating */
    n = a->flow[flow].nws;
    if (n != 0 && a->ws > IBCC_TIME_MAX / n) return IBCC_TIME_MAX;
    return a->ws * n;
}

IBCC_API const ibcc_mvcm_flow *ibcc_mvcm_state(const ibcc_mvcm *a, uint32_t flow)
{
    if (!a || flow >= a->flows) return NULL;
    return &a->flow[flow];
}

#ifndef IBCC_NO_FLOAT
IBCC_API double ibcc_mvcm_hop_bytes(ibcc_time t_hop, ibcc_rate rate)
{
    return (double)t_hop * (double)rate / 1e12;
}

static int ibcc_mvcm_ok_(double x) { return x >= 0.0 && x < 1e300; }

IBCC_API ibcc_result ibcc_mvcm_omega(uint32_t hops, double hop_bytes,
                                     double l_data, double l_ack, double *out)
{
    double w;
    if (!out) return IBCC_ERR_NULL;
    if (!ibcc_mvcm_ok_(hop_bytes) || !ibcc_mvcm_ok_(l_ack)
        || !ibcc_mvcm_ok_(l_data) || l_data <= 0.0)
        return IBCC_ERR_RANGE;
    /* omega = (2 h t_hop B + L_data + L_ack) / L_data */
    w = (2.0 * hops * hop_bytes + l_data + l_ack) / l_data;
    if (!ibcc_mvcm_ok_(w)) return IBCC_ERR_RANGE;     /* overflowed */
    *out = w;
    return IBCC_OK;
}

IBCC_API ibcc_result ibcc_mvcm_omega_bounds(uint32_t hops, double hop_bytes,
                                            double min_data, double max_data,
                                            double l_ack, double *lo, double *hi)
{
    double k;
    if (!lo || !hi) return IBCC_ERR_NULL;
    if (!ibcc_mvcm_ok_(hop_bytes) || !ibcc_mvcm_ok_(l_ack)
        || !ibcc_mvcm_ok_(min_data) || !ibcc_mvcm_ok_(max_data)
        || min_data <= 0.0 || max_data < min_data)
        return IBCC_ERR_RANGE;
    /* K = 2 h t_hop B + L_ack; (K + max)/max <= omega <= (K + min)/min */
    k = 2.0 * hops * hop_bytes + l_ack;
    if (!ibcc_mvcm_ok_((k + min_data) / min_data)) return IBCC_ERR_RANGE;
    *lo = (k + max_data) / max_data;
    *hi = (k + min_data) / min_data;
    return IBCC_OK;
}

IBCC_API ibcc_result ibcc_mvcm_dw_max(double omega, uint32_t *out)
{
    double f;
    if (!out) return IBCC_ERR_NULL;
    if (!(omega >= 1.0 && omega < 65536.0)) return IBCC_ERR_RANGE;
    f = floor(omega);
    /* ceil, with an omega within 1e-9 above an integer taken as it */
    *out = (uint32_t)(omega - f <= 1e-9 ? f : f + 1.0);
    if (*out > 65535u) return IBCC_ERR_RANGE;
    return IBCC_OK;
}
#endif /* IBCC_NO_FLOAT */

IBCC_API ibcc_result ibcc_mvcm_rtt_min(uint32_t hops, ibcc_time t_hop,
                                       ibcc_rate rate, uint32_t l_data,
                                       uint32_t l_ack, ibcc_time *out)
{
    ibcc_time wd, wa, h;
    ibcc_result r;
    if (!out) return IBCC_ERR_NULL;
    if (rate == 0 || l_data == 0) return IBCC_ERR_RANGE;
    r = ibcc_wire_time(l_data, rate, &wd);
    if (r != IBCC_OK) return r;
    r = ibcc_wire_time(l_ack, rate, &wa);
    if (r != IBCC_OK) return r;
    /* RTTmin = 2 h t_hop + wire(L_data) + wire(L_ack) */
    if (t_hop != 0 && (uint64_t)hops * 2u > IBCC_TIME_MAX / t_hop)
        return IBCC_ERR_OVERFLOW;
    h = (ibcc_time)hops * 2u * t_hop;
    if (h > IBCC_TIME_MAX - wd || h + wd > IBCC_TIME_MAX - wa)
        return IBCC_ERR_OVERFLOW;
    *out = h + wd + wa;
    return IBCC_OK;
}

/* ---- L1 dest: implementation ------------------------------------------ */

/* The one place the dest's defaults are applied and its ranges checked:
   *d = *in with defaults, or an error (the caller's desc untouched). */
static ibcc_result ibcc_dest_desc_check_(const ibcc_dest_desc *in,
                                         ibcc_dest_desc *d)
{
    if (!in || !d) return IBCC_ERR_NULL;
    *d = *in;
    /* unsigned comparisons: an enum may be signed on some ABIs (MSVC),
       where a negative value would pass a plain `>` test */
    if ((unsigned)d->scheme > (unsigned)IBCC_DEST_MVPM
        || (unsigned)d->transport > (unsigned)IBCC_DEST_UNACKED
        || d->becn_by_cnp > 1)
        return IBCC_ERR_RANGE;
    if (d->scheme != IBCC_DEST_IBA
        && (d->transport != IBCC_DEST_ACKED || d->becn_by_cnp != 0))
        return IBCC_ERR_UNSUPPORTED;
    if (d->ack_bytes == 0) d->ack_bytes = (d->scheme == IBCC_DEST_MVPM) ? 22u : 20u;
    if (d->cnp_bytes == 0) d->cnp_bytes = d->ack_bytes;
    if (d->ack_bytes > 65535u || d->cnp_bytes > 65535u) return IBCC_ERR_RANGE;
    if (d->ack_every > 65535u) return IBCC_ERR_RANGE;
    if (d->ack_every > 1u && d->scheme != IBCC_DEST_IBA)
        return IBCC_ERR_UNSUPPORTED;
    return IBCC_OK;
}

IBCC_API ibcc_result ibcc_dest_defaults(ibcc_dest_desc *d)
{
    ibcc_dest_desc e;
    ibcc_result r = ibcc_dest_desc_check_(d, &e);
    if (r == IBCC_OK) *d = e;
    return r;
}

IBCC_API ibcc_result ibcc_dest_init(ibcc_dest *d, const ibcc_dest_desc *desc)
{
    ibcc_dest_desc z, e;
    ibcc_result r;
    if (!d) return IBCC_ERR_NULL;
    if (!desc) { memset(&z, 0, sizeof z); desc = &z; }   /* NULL: defaults */
    r = ibcc_dest_desc_check_(desc, &e);
    if (r != IBCC_OK) return r;
    d->scheme = e.scheme;
    d->transport = e.transport;
    d->becn_by_cnp = e.becn_by_cnp;
    d->ack_bytes = e.ack_bytes;
    d->cnp_bytes = e.cnp_bytes;
    d->ack_every = e.ack_every;
    return IBCC_OK;
}

IBCC_API ibcc_dest_reply ibcc_dest_on_packet(const ibcc_dest *d, unsigned pkt)
{
    ibcc_dest_reply r;
    r.ack = 0;
    r.cnp = 0;
    /* ACKs and CNPs are never answered; multicast gets no ACK and its
       FECN is ignored */
    if (!d || (pkt & (IBCC_ACK | IBCC_CNP | IBCC_MCAST))) return r;
    switch (d->scheme) {
    case IBCC_DEST_ECN:                      /* ECN -> ACK ECN bit */
        r.ack = IBCC_ACK | (pkt & IBCC_ECN);
        break;
    case IBCC_DEST_MVPM:                     /* MB, VB -> both bits */
        r.ack = IBCC_ACK | (pkt & (IBCC_MB | IBCC_VB));
        break;
    default:                                 /* IBA: FECN -> BECN */
        if (d->transport == IBCC_DEST_ACKED) r.ack = IBCC_ACK;
        if (pkt & IBCC_FECN) {
            if (d->transport == IBCC_DEST_ACKED && !d->becn_by_cnp)
                r.ack |= IBCC_BECN;
            else
                r.cnp = IBCC_CNP | IBCC_BECN;
        }
        break;
    }
    return r;
}

IBCC_API unsigned ibcc_dest_ack(const ibcc_dest *d, unsigned pkt)
{
    return ibcc_dest_on_packet(d, pkt).ack;
}

IBCC_API unsigned ibcc_dest_marks(const ibcc_dest *d, unsigned reply)
{
    if (!d) return 0;
    switch (d->scheme) {
    case IBCC_DEST_ECN:
        return (reply & IBCC_ACK) ? (reply & IBCC_ECN) : 0u;
    case IBCC_DEST_MVPM:
        return (reply & IBCC_ACK) ? (reply & (IBCC_MB | IBCC_VB)) : 0u;
    default:
        return (reply & (IBCC_ACK | IBCC_CNP)) ? (reply & IBCC_BECN) : 0u;
    }
}

IBCC_API uint32_t ibcc_dest_reply_bytes(const ibcc_dest *d, unsigned reply)
{
    if (!d) return 0;
    if (reply & IBCC_CNP) return d->cnp_bytes;
    if (reply & IBCC_ACK) return d->ack_bytes;
    return 0;
}

/* ---- L1 segment: implementation --------------------------------------- */

/* The one place the segment's defaults are applied and its ranges checked:
   *d = *in with defaults, or an error (the caller's desc untouched). */
static ibcc_result ibcc_segment_desc_check_(const ibcc_segment_desc *in,
                                            ibcc_segment_desc *d)
{
    if (!in || !d) return IBCC_ERR_NULL;
    *d = *in;
    if (d->seg_bytes == 0) d->seg_bytes = 100;
    if (d->slack_bytes == 0) d->slack_bytes = 80;
    if (d->adaptive > 1) return IBCC_ERR_RANGE;
    return IBCC_OK;
}

IBCC_API ibcc_result ibcc_segment_defaults(ibcc_segment_desc *d)
{
    ibcc_segment_desc e;
    ibcc_result r = ibcc_segment_desc_check_(d, &e);
    if (r == IBCC_OK) *d = e;
    return r;
}

IBCC_API ibcc_result ibcc_segment_init(ibcc_segment *s, const ibcc_segment_desc *desc)
{
    ibcc_segment_desc z, e;
    ibcc_result r;
    if (!s) return IBCC_ERR_NULL;
    if (!desc) { memset(&z, 0, sizeof z); desc = &z; }   /* NULL: defaults */
    r = ibcc_segment_desc_check_(desc, &e);
    if (r != IBCC_OK) return r;
    s->seg_bytes = e.seg_bytes;
    s->slack_bytes = e.slack_bytes;
    s->adaptive = e.adaptive;
    return IBCC_OK;
}

IBCC_API uint64_t ibcc_segment_adaptive_len(uint32_t slack_bytes, uint32_t hops)
{
    /* L_l = B * h [K] */
    return (uint64_t)slack_bytes * (hops ? hops : 1u);
}

IBCC_API uint64_t ibcc_segment_len(const ibcc_segment *s, int priority, uint32_t hops)
{
    if (!s || priority == IBCC_SEGMENT_HIGH) return IBCC_SEGMENT_WHOLE;
    if (s->adaptive) return ibcc_segment_adaptive_len(s->slack_bytes, hops);
    return s->seg_bytes;
}

IBCC_API uint64_t ibcc_segment_count(const ibcc_segment *s, uint64_t msg_bytes,
                                     int priority, uint32_t hops)
{
    uint64_t l = ibcc_segment_len(s, priority, hops);
    if (msg_bytes == 0 || l == 0) return 0; /* l 0: zeroed, uninitialised s */
    /* ceil(M / L) without overflow */
    return msg_bytes / l + (msg_bytes % l != 0);
}

IBCC_API void ibcc_segment_begin(ibcc_segment_iter *it, const ibcc_segment *s,
                                 uint64_t msg_bytes, int priority, uint32_t hops)
{
    if (!it) return;
    it->left = msg_bytes;
    it->len = ibcc_segment_len(s, priority, hops);
}

IBCC_API uint64_t ibcc_segment_next(ibcc_segment_iter *it)
{
    uint64_t n;
    if (!it || it->left == 0 || it->len == 0) return 0;
    n = it->left < it->len ? it->left : it->len;
    it->left -= n;
    return n;
}

#ifndef IBCC_NO_FLOAT
IBCC_API ibcc_result ibcc_segment_high_delay(uint64_t msg_bytes,
        uint64_t seg_bytes, uint64_t slack_bytes, uint64_t high_bytes,
        uint32_t hops, uint32_t points, ibcc_time byte_time,
        ibcc_time link, ibcc_time route, ibcc_segment_delay *out)
{
    double l = (double)seg_bytes, b = (double)slack_bytes;
    double cycle = l + (double)high_bytes;  /* one segment, one high worm */
    if (!out) return IBCC_ERR_NULL;
    if (seg_bytes == 0 || slack_bytes == 0) return IBCC_ERR_RANGE;
    out->unloaded = (double)msg_bytes * (double)byte_time
                    + ((double)hops + 1.0) * (double)link
                    + (double)hops * (double)route;
    /* [K] section 3.2: B / L_l cycles while L_l <= B, else one */
    out->dh3 = (seg_bytes <= slack_bytes ? b * cycle / l : cycle)
               * (double)byte_time;
    out->wait_max = (double)points * out->dh3;
    return IBCC_OK;
}
#endif /* IBCC_NO_FLOAT */

/* ---- L1 ecn: implementation ------------------------------------------- */

/* The one place the ECN defaults are applied and its ranges checked:
   *d = *in with defaults, or an error (the caller's desc untouched). */
static ibcc_result ibcc_ecn_desc_check_(const ibcc_ecn_desc *in, ibcc_ecn_desc *d)
{
    if (!in || !d) return IBCC_ERR_NULL;
    *d = *in;
    if (d->kmin == 0) d->kmin = 5000u;
    if (d->kmax == 0) d->kmax = 200000u;
    if (d->pmax == 0) d->pmax = 10000u;
    if (d->kmax > IBCC_ECN_KMAX_MAX || d->kmin > d->kmax || d->pmax > IBCC_ECN_PPM)
        return IBCC_ERR_RANGE;
    return IBCC_OK;
}

IBCC_API ibcc_result ibcc_ecn_defaults(ibcc_ecn_desc *d)
{
    ibcc_ecn_desc e;
    ibcc_result r = ibcc_ecn_desc_check_(d, &e);
    if (r == IBCC_OK) *d = e;
    return r;
}

IBCC_API ibcc_result ibcc_ecn_init(ibcc_ecn *e, const ibcc_ecn_desc *desc)
{
    ibcc_ecn_desc z, v;
    ibcc_result r;
    if (!e) return IBCC_ERR_NULL;
    if (!desc) { memset(&z, 0, sizeof z); desc = &z; }
    r = ibcc_ecn_desc_check_(desc, &v);
    if (r != IBCC_OK) return r;
    e->kmin = v.kmin;
    e->kmax = v.kmax;
    e->pmax = v.pmax;
    return IBCC_OK;
}

IBCC_API uint32_t ibcc_ecn_prob_ppm(const ibcc_ecn *e, uint64_t q)
{
    if (!e || q <= e->kmin) return 0;
    if (q > e->kmax) return IBCC_ECN_PPM;
    /* kmin < q <= kmax, so kmax - kmin >= 1; pmax * (q - kmin) < 2^60 */
    return (uint32_t)((uint64_t)e->pmax * (q - e->kmin) / (e->kmax - e->kmin));
}

IBCC_API unsigned ibcc_ecn_mark(const ibcc_ecn *e, uint64_t q, ibcc_rng *rng)
{
    uint64_t num, den;
    if (!e || q <= e->kmin) return 0;
    if (q > e->kmax) return IBCC_ECN;
    num = (uint64_t)e->pmax * (q - e->kmin);        /* p = num / den */
    den = (uint64_t)IBCC_ECN_PPM * (e->kmax - e->kmin);
    if (num >= den) return IBCC_ECN;                 /* p = 1: no draw */
    return ibcc_rng_below(rng, den) < num ? IBCC_ECN : 0u;
}

IBCC_API void ibcc_int_clear(ibcc_int_record *r)
{
    if (r) memset(r, 0, sizeof *r);
}

IBCC_API int ibcc_int_push(ibcc_int_record *r, ibcc_time now, uint64_t qlen,
                           uint64_t tx_bytes, ibcc_rate rate)
{
    if (!r) return 0;
    if (r->nhop >= IBCC_INT_MAX_HOPS) {
        if (r->dropped < UINT32_MAX) r->dropped++;
        return 0;
    }
    ibcc_int_stamp(&r->hop[r->nhop], now, qlen, tx_bytes, rate);
    r->nhop++;
    return 1;
}

/* ---- L1 dcqcn: implementation ----------------------------------------- */

static ibcc_result ibcc_dcqcn_desc_check_(const ibcc_dcqcn_desc *in,
                                          ibcc_dcqcn_desc *d)
{
    if (!in || !d) return IBCC_ERR_NULL;
    *d = *in;
    if (d->line_rate == 0) d->line_rate = IBCC_GBITS(40);
    if (d->line_rate > (UINT64_C(1) << 62)) return IBCC_ERR_RANGE;
    if (d->rate_min == 0)
        d->rate_min = d->line_rate < 12500000u ? d->line_rate : 12500000u;
    if (d->g == 0) d->g = 256u;
    if (d->alpha_init == 0) d->alpha_init = IBCC_DCQCN_ONE;
    if (d->k == 0) d->k = IBCC_US(55);
    if (d->timer_t == 0) d->timer_t = IBCC_US(55);
    if (d->b == 0) d->b = 10000000u;
    if (d->f == 0) d->f = 5u;
    if (d->r_ai == 0) d->r_ai = d->line_rate < 5000000u ? d->line_rate : 5000000u;
    if (d->r_hai == 0) d->r_hai = d->line_rate < 25000000u ? d->line_rate : 25000000u;
    if (d->gd_shift == 0) d->gd_shift = 1u;
    if (d->n == 0) d->n = IBCC_US(50);
    if (d->rate_min > d->line_rate || d->g > IBCC_DCQCN_ONE
        || d->alpha_init > IBCC_DCQCN_ONE || d->f > 65535u || d->gd_shift > 15u
        || d->r_ai > d->line_rate || d->r_hai > d->line_rate
        || d->r_ai < (d->line_rate >> 20) || d->r_hai < (d->line_rate >> 20))
        return IBCC_ERR_RANGE;
    return IBCC_OK;
}

IBCC_API ibcc_result ibcc_dcqcn_defaults(ibcc_dcqcn_desc *d)
{
    ibcc_dcqcn_desc e;
    ibcc_result r = ibcc_dcqcn_desc_check_(d, &e);
    if (r == IBCC_OK) *d = e;
    return r;
}

IBCC_API ibcc_result ibcc_dcqcn_init(ibcc_dcqcn *d, const ibcc_dcqcn_desc *desc)
{
    ibcc_dcqcn_desc z, v;
    ibcc_result r;
    if (!d) return IBCC_ERR_NULL;
    if (!desc) { memset(&z, 0, sizeof z); desc = &z; }
    r = ibcc_dcqcn_desc_check_(desc, &v);
    if (r != IBCC_OK) return r;
    d->p = v;
    return IBCC_OK;
}

IBCC_API void ibcc_dcqcn_rp_init(const ibcc_dcqcn *d, ibcc_dcqcn_rp *rp,
                                 ibcc_time now)
{
    if (!d || !rp) return;
    memset(rp, 0, sizeof *rp);
    rp->rc = rp->rt = d->p.line_rate;
    rp->alpha = d->p.alpha_init;
    rp->t_next = rp->k_next = IBCC_TIME_MAX;
    rp->last = now;
}

/* a + b, IBCC_TIME_MAX when it does not fit ("never"). */
static ibcc_time ibcc_dcqcn_tadd_(ibcc_time a, ibcc_time b)
{
    return b > IBCC_TIME_MAX - a ? IBCC_TIME_MAX : a + b;
}

/* The expiries of a periodic timer (next, period) due at or before now
   that are skipped in O(1): advances *next past now and returns how
   many there were (next < IBCC_TIME_MAX and next <= now on entry). */
static uint64_t ibcc_dcqcn_skip_(ibcc_time *next, ibcc_time period, ibcc_time now)
{
    uint64_t n = (now - *next) / period + 1u;
    if (n > (IBCC_TIME_MAX - *next) / period) *next = IBCC_TIME_MAX;
    else *next += n * period;
    return n;
}

static uint32_t ibcc_dcqcn_count_add_(uint32_t c, uint64_t n)
{
    return n >= (uint64_t)(UINT32_MAX - c) ? UINT32_MAX : c + (uint32_t)n;
}

/* (1 - g) alpha, rounded so that alpha reaches 0: alpha - ceil(alpha g). */
static uint32_t ibcc_dcqcn_decay_(uint32_t alpha, uint32_t g)
{
    uint64_t dec = ((uint64_t)alpha * g + (IBCC_DCQCN_ONE - 1u)) >> 16;
    return alpha - (uint32_t)dec;
}

/* One rate-increase event, after T or BC was incremented. */
static void ibcc_dcqcn_increase_(const ibcc_dcqcn_desc *p, ibcc_dcqcn_rp *rp)
{
    uint32_t t = rp->t_count, bc = rp->bc_count, f = p->f;
    uint32_t hi = t > bc ? t : bc, lo = t > bc ? bc : t;
    ibcc_dcqcn_stage st;
    if (p->b == IBCC_DCQCN_OFF)
        st = t < f ? IBCC_DCQCN_FAST : t == f ? IBCC_DCQCN_ADDITIVE : IBCC_DCQCN_HYPER;
    else
        st = hi < f ? IBCC_DCQCN_FAST : lo >= f ? IBCC_DCQCN_HYPER : IBCC_DCQCN_ADDITIVE;
    if (st == IBCC_DCQCN_ADDITIVE) rp->rt += p->r_ai;     /* <= 2^63: no wrap */
    else if (st == IBCC_DCQCN_HYPER) rp->rt += p->r_hai;
    if (rp->rt > p->line_rate) rp->rt = p->line_rate;
    rp->rc = (rp->rt + rp->rc + 1u) / 2u;                /* halves round up */
    rp->last_stage = (uint32_t)st;
    rp->increases++;
}

/* Steps one call applies at most. A validated description never needs
   as many (alpha reaches 0 within about 65536 decays; R_T reaches line
   rate within 2^20 additive steps, after at most 2 (F - 1) < 2^17 fast
   recovery events); the cap only bounds the work on a description that
   was never validated. Expiries beyond it are counted, not applied. */
#define IBCC_DCQCN_STEPS_ (UINT32_C(1) << 22)

/* Applies the alpha and rate timer expiries due at or before now. */
static void ibcc_dcqcn_advance_(const ibcc_dcqcn_desc *p, ibcc_dcqcn_rp *rp,
                                ibcc_time now)
{
    uint32_t steps = 0;
    if (now < rp->last) now = rp->last;
    rp->last = now;
    if (!rp->active || p->k == 0 || p->timer_t == 0) return; /* k, T 0: d
                                                    zeroed, never initialised */
    while (rp->k_next != IBCC_TIME_MAX && rp->k_next <= now) {
        uint32_t a = ibcc_dcqcn_decay_(rp->alpha, p->g);
        if (a == rp->alpha || ++steps > IBCC_DCQCN_STEPS_) {
            /* nothing left to decay (alpha 0): skip the rest */
            (void)ibcc_dcqcn_skip_(&rp->k_next, p->k, now);
            break;
        }
        rp->alpha = a;
        rp->k_next = ibcc_dcqcn_tadd_(rp->k_next, p->k);
    }
    steps = 0;
    while (rp->t_next != IBCC_TIME_MAX && rp->t_next <= now) {
        if ((rp->rc == p->line_rate && rp->rt == p->line_rate)
            || ++steps > IBCC_DCQCN_STEPS_) {
            /* at line rate an increase changes nothing but T */
            uint64_t n = ibcc_dcqcn_skip_(&rp->t_next, p->timer_t, now);
            rp->t_count = ibcc_dcqcn_count_add_(rp->t_count, n);
            break;
        }
        rp->t_count = ibcc_dcqcn_count_add_(rp->t_count, 1u);
        ibcc_dcqcn_increase_(p, rp);
        rp->t_next = ibcc_dcqcn_tadd_(rp->t_next, p->timer_t);
    }
}

IBCC_API void ibcc_dcqcn_rp_advance(const ibcc_dcqcn *d, ibcc_dcqcn_rp *rp,
                                    ibcc_time now)
{
    if (!d || !rp) return;
    ibcc_dcqcn_advance_(&d->p, rp, now);
}

IBCC_API ibcc_rate ibcc_dcqcn_rp_on_cnp(const ibcc_dcqcn *d, ibcc_dcqcn_rp *rp,
                                        ibcc_time now)
{
    const ibcc_dcqcn_desc *p;
    uint64_t hi, lo, cut;
    unsigned s;
    if (!d || !rp) return 0;
    p = &d->p;
    ibcc_dcqcn_advance_(p, rp, now);
    now = rp->last;
    /* R_T = R_C; R_C = R_C (1 - alpha / 2^gd_shift); the product
       R_C * alpha needs up to 78 bits */
    rp->rt = rp->rc;
    s = 16u + (p->gd_shift < 15u ? p->gd_shift : 15u);  /* a zeroed or
                                        garbage desc still shifts by < 64 */
    ibcc_mul128_(rp->rc, rp->alpha, &hi, &lo);
    cut = (lo >> s) | (hi << (64u - s));
    rp->rc -= cut;
    if (rp->rc < p->rate_min) rp->rc = p->rate_min;
    /* alpha = (1 - g) alpha + g */
    rp->alpha = ibcc_dcqcn_decay_(rp->alpha, p->g) + p->g;
    rp->t_count = rp->bc_count = 0;
    rp->bytes = 0;
    rp->last_stage = IBCC_DCQCN_NONE;
    rp->t_next = ibcc_dcqcn_tadd_(now, p->timer_t);
    rp->k_next = ibcc_dcqcn_tadd_(now, p->k);
    rp->active = 1;
    rp->cnps++;
    return rp->rc;
}

IBCC_API ibcc_rate ibcc_dcqcn_rp_on_send(const ibcc_dcqcn *d, ibcc_dcqcn_rp *rp,
                                         uint64_t bytes, ibcc_time now)
{
    const ibcc_dcqcn_desc *p;
    uint32_t steps = 0;
    if (!d || !rp) return 0;
    p = &d->p;
    ibcc_dcqcn_advance_(p, rp, now);
    if (!rp->active || p->b == IBCC_DCQCN_OFF || p->b == 0) return rp->rc;
    rp->bytes = bytes > UINT64_MAX - rp->bytes ? UINT64_MAX : rp->bytes + bytes;
    while (rp->bytes >= p->b) {
        rp->bytes -= p->b;
        if ((rp->rc == p->line_rate && rp->rt == p->line_rate)
            || ++steps > IBCC_DCQCN_STEPS_) {
            /* at line rate: count the remaining events in O(1) */
            rp->bc_count = ibcc_dcqcn_count_add_(rp->bc_count, 1u + rp->bytes / p->b);
            rp->bytes %= p->b;
            break;
        }
        rp->bc_count = ibcc_dcqcn_count_add_(rp->bc_count, 1u);
        ibcc_dcqcn_increase_(p, rp);
    }
    return rp->rc;
}

IBCC_API ibcc_rate ibcc_dcqcn_rp_rate(const ibcc_dcqcn *d, ibcc_dcqcn_rp *rp,
                                      ibcc_time now)
{
    if (!d || !rp) return 0;
    ibcc_dcqcn_advance_(&d->p, rp, now);
    return rp->rc;
}

IBCC_API void ibcc_dcqcn_np_init(ibcc_dcqcn_np *np)
{
    if (np) memset(np, 0, sizeof *np);
}

IBCC_API unsigned ibcc_dcqcn_np_on_packet(const ibcc_dcqcn *d, ibcc_dcqcn_np *np,
                                          unsigned pkt, ibcc_time now)
{
    if (!d || !np) return 0;
    if ((pkt & (IBCC_ACK | IBCC_CNP)) || !(pkt & IBCC_ECN)) return 0;
    if (np->cnps && (now < np->last || now - np->last < d->p.n)) return 0;
    np->last = now;
    np->cnps++;
    return IBCC_CNP;
}

/* ---- L1 hpcc: implementation ------------------------------------------ */

static ibcc_result ibcc_hpcc_desc_check_(const ibcc_hpcc_desc *in, ibcc_hpcc_desc *d)
{
    const uint64_t ps = UINT64_C(1000000000000);
    if (!in || !d) return IBCC_ERR_NULL;
    *d = *in;
    if (d->line_rate == 0) d->line_rate = IBCC_GBITS(100);
    if (d->base_rtt == 0) d->base_rtt = IBCC_US(10);
    if (d->eta == 0) d->eta = 950000u;
    if (d->max_stage == 0) d->max_stage = 5u;
    if (d->line_rate > (UINT64_C(1) << 62) || d->base_rtt > IBCC_S(1)
        || d->eta > IBCC_HPCC_ONE
        || (d->max_stage > (UINT32_C(1) << 31) && d->max_stage != IBCC_HPCC_STAGE_ZERO))
        return IBCC_ERR_RANGE;
    if (d->w_init == 0) {
        /* B x T in bytes; line_rate <= 2^62 and T <= 10^12 ps: no overflow */
        if (ibcc_muldiv_(d->line_rate, d->base_rtt, ps, 0, &d->w_init) != IBCC_OK)
            return IBCC_ERR_RANGE;
        if (d->w_init == 0) return IBCC_ERR_RANGE;
    }
    if (d->w_ai == 0) {
        /* 50 Mb/s x T, rounded up */
        if (ibcc_muldiv_ceil_(UINT64_C(6250000), d->base_rtt, ps, &d->w_ai) != IBCC_OK)
            return IBCC_ERR_RANGE;
        if (d->w_ai == 0) d->w_ai = 1u;
    }
    if (d->w_init > (UINT64_C(1) << 48) || d->w_ai > d->w_init) return IBCC_ERR_RANGE;
    return IBCC_OK;
}

IBCC_API ibcc_result ibcc_hpcc_defaults(ibcc_hpcc_desc *d)
{
    ibcc_hpcc_desc e;
    ibcc_result r = ibcc_hpcc_desc_check_(d, &e);
    if (r == IBCC_OK) *d = e;
    return r;
}

IBCC_API void ibcc_hpcc_reset(ibcc_hpcc *h)
{
    ibcc_hpcc_desc p;
    if (!h) return;
    p = h->p;
    memset(h, 0, sizeof *h);
    h->p = p;
    h->w = h->wc = p.w_init;
    h->u = IBCC_HPCC_ONE;
}

IBCC_API ibcc_result ibcc_hpcc_init(ibcc_hpcc *h, const ibcc_hpcc_desc *desc)
{
    ibcc_hpcc_desc z, v;
    ibcc_result r;
    if (!h) return IBCC_ERR_NULL;
    if (!desc) { memset(&z, 0, sizeof z); desc = &z; }
    r = ibcc_hpcc_desc_check_(desc, &v);
    if (r != IBCC_OK) return r;
    h->p = v;
    ibcc_hpcc_reset(h);
    return IBCC_OK;
}

/* floor(a * b / d), UINT64_MAX when the quotient does not fit. */
static uint64_t ibcc_hpcc_muldiv_sat_(uint64_t a, uint64_t b, uint64_t d)
{
    uint64_t q;
    return ibcc_muldiv_(a, b, d, 0, &q) == IBCC_OK ? q : UINT64_MAX;
}

/* floor((a * x + b * y) / d) with a + b = d (a weighted mean of x and y,
   so the quotient fits). */
static uint64_t ibcc_hpcc_mean_(uint64_t a, uint64_t x, uint64_t b, uint64_t y,
                                uint64_t d)
{
    uint64_t h1, l1, h2, l2, hi, lo;
    ibcc_mul128_(a, x, &h1, &l1);
    ibcc_mul128_(b, y, &h2, &l2);
    lo = l1 + l2;
    hi = h1 + h2 + (lo < l1);
    if (hi >= d) return UINT64_MAX;             /* cannot happen: a mean */
    return hi == 0 ? lo / d : ibcc_div128_(hi, lo, d);
}

static uint64_t ibcc_hpcc_add_sat_(uint64_t a, uint64_t b)
{
    return b > UINT64_MAX - a ? UINT64_MAX : a + b;
}

/* MeasureInflight: the new U from the ACK's records and L. */
static void ibcc_hpcc_measure_(ibcc_hpcc *h, const ibcc_int_record *rec, uint32_t n)
{
    const uint64_t ps = UINT64_C(1000000000000);
    const ibcc_time T = h->p.base_rtt;
    uint64_t u = 0, tau = 0;
    uint32_t i;
    int any = 0;
    for (i = 0; i < n; i++) {
        const ibcc_int_hop *a = &rec->hop[i], *o = &h->l.hop[i];
        uint64_t dt, tx, bdp, qmin, ui;
        if (a->ts <= o->ts || a->rate == 0) continue;
        dt = a->ts - o->ts;
        tx = ibcc_hpcc_muldiv_sat_(a->tx_bytes - o->tx_bytes, ps, dt);
        bdp = ibcc_hpcc_muldiv_sat_(a->rate, T, ps);
        if (bdp == 0) bdp = 1u;
        qmin = a->qlen < o->qlen ? a->qlen : o->qlen;
        ui = ibcc_hpcc_add_sat_(ibcc_hpcc_muldiv_sat_(qmin, IBCC_HPCC_ONE, bdp),
                                ibcc_hpcc_muldiv_sat_(tx, IBCC_HPCC_ONE, a->rate));
        if (!any || ui > u) { u = ui; tau = dt; any = 1; }
    }
    if (!any) return;
    if (tau > T) tau = T;
    h->u = ibcc_hpcc_mean_(T - tau, h->u, tau, u, T);
}

/* ComputeWind: W from U, W_c and incStage; updates W_c when update. */
static void ibcc_hpcc_wind_(ibcc_hpcc *h, int update)
{
    const ibcc_hpcc_desc *p = &h->p;
    uint32_t max_stage = p->max_stage == IBCC_HPCC_STAGE_ZERO ? 0u : p->max_stage;
    uint64_t w;
    if (h->u >= p->eta || h->inc_stage >= max_stage) {
        w = h->u == 0 ? p->w_init
                      : ibcc_hpcc_add_sat_(ibcc_hpcc_muldiv_sat_(h->wc, p->eta, h->u),
                                           p->w_ai);
        if (w > p->w_init) w = p->w_init;
        if (update) { h->inc_stage = 0; h->wc = w; }
    } else {
        w = h->wc + p->w_ai;                    /* both <= 2^48 */
        if (w > p->w_init) w = p->w_init;
        if (update) { h->inc_stage++; h->wc = w; }
    }
    h->w = w;
}

IBCC_API uint64_t ibcc_hpcc_on_ack(ibcc_hpcc *h, uint64_t ack_seq,
                                   uint64_t snd_nxt, const ibcc_int_record *rec)
{
    uint32_t n;
    if (!h) return 0;
    if (!rec) return h->w;
    n = rec->nhop < IBCC_INT_MAX_HOPS ? rec->nhop : IBCC_INT_MAX_HOPS;
    if (h->have_l && h->l.nhop == n) {
        int update = ack_seq > h->last_update_seq;
        ibcc_hpcc_measure_(h, rec, n);
        ibcc_hpcc_wind_(h, update);
        if (update) {
            h->last_update_seq = snd_nxt;
            h->rtt_updates++;
        } else {
            h->ack_updates++;
        }
    } else {                                    /* first record: keep it */
        h->have_l = 1;
        h->last_update_seq = snd_nxt;
    }
    h->l.nhop = n;
    h->l.dropped = rec->dropped;
    if (n) memcpy(h->l.hop, rec->hop, (size_t)n * sizeof rec->hop[0]);
    return h->w;
}

IBCC_API uint64_t ibcc_hpcc_window(const ibcc_hpcc *h)
{
    return h ? h->w : 0;
}

IBCC_API ibcc_rate ibcc_hpcc_rate(const ibcc_hpcc *h)
{
    if (!h || h->p.base_rtt == 0) return 0;
    return ibcc_hpcc_muldiv_sat_(h->w, UINT64_C(1000000000000), h->p.base_rtt);
}

/* ---- L2 loop: implementation ------------------------------------------

   Memory (one block from the caller, uint64_t-aligned):
       [ 0-56 bytes ][ cap x ibcc_hent_ heap entries ][ 64 - that ]
       [ cap x ibcc_event_ slots ]
   The heap starts where its entry 1 falls on a 64-byte boundary: every
   group of four siblings (4i+1 .. 4i+4, 4 x 16 bytes) is then one cache
   line, so a level of a sift-down reads one line, not two (the heap of a
   million events is 16 MB: this is what large loops wait on).
   A pending event owns one slot (callback, ctx, arg, seq, generation) and
   one heap entry (due time, slot index, the slot's generation). A free
   slot has fn == NULL and is on a singly linked free list through
   slot.next (last-in first-out, so the slot just released by a running
   event is the one its callback reuses: warm in cache).

   Heap: 4-ary, ordered by (t, seq) ascending, so same-time events pop in
   scheduling order (seq is a 64-bit counter: it does not wrap in practice).
   Entries carry t, so comparisons read only the heap array; seq is read
   from the slots on equal times only. A move writes only the heap array:
   no back pointer is kept in the slots, which at a million pending events
   would cost a cache miss per level.
       parent(i) = (i - 1) / 4,  children(i) = 4i + 1 .. 4i + 4

   Cancelling is lazy: the slot's generation is bumped (the event is dead,
   its handle stale) and its entry stays in the heap until it reaches the
   top, where it is dropped and the slot freed; the top is never a
   cancelled entry, so ibcc_loop_next_time is exact. A cancelled slot is
   not reused while its entry is in the heap, so every entry's (t, seq)
   stays fixed. When scheduling finds no free slot while fewer than `cap`
   events are pending, the heap is compacted: cancelled entries out, slots
   freed, the heap rebuilt bottom-up (O(n), rare: at most once per `cap`
   cancellations). Measured with bench/bench_loop.c (hold model, which
   never cancels): the same as the earlier design with back pointers
   within the run-to-run noise (about 10%) at every N; what it saves is
   the O(log n) removal on every cancel (the fabric cancels timers
   often). See docs/loop.md.

   Handle: ((uint64_t)gen << 32) | slot. gen is bumped each time the slot
   is released or its event cancelled, skipping 0, so a handle is never 0
   and a stale handle no longer matches its slot (a slot would have to be
   reused 2^32 - 1 times for a stale handle to match again). Every slot's
   first gen is a hash of the memory address and capacity, so a handle of
   another loop is rejected too, except by a 2^-32-scale coincidence. */

#define IBCC_LOOP_CAP_MAX_  UINT32_C(0x7fffffff)
#define IBCC_LOOP_CAP_DEF_  UINT32_C(1024)
#define IBCC_LOOP_NONE_     UINT32_C(0xffffffff)
#define IBCC_LOOP_ARITY_    4u
#define IBCC_LOOP_LINE_     64u     /* cache line: the heap's alignment pad */

/* The one place the loop's defaults are applied and its ranges checked:
   *d = *in with defaults, or an error (the caller's desc untouched). */
static ibcc_result ibcc_loop_desc_check_(const ibcc_loop_desc *in,
                                         ibcc_loop_desc *d)
{
    if (!in || !d) return IBCC_ERR_NULL;
    *d = *in;
    if (d->capacity == 0) d->capacity = IBCC_LOOP_CAP_DEF_;
    if (d->capacity > IBCC_LOOP_CAP_MAX_) return IBCC_ERR_CAPACITY;
    return IBCC_OK;
}

IBCC_API ibcc_result ibcc_loop_defaults(ibcc_loop_desc *d)
{
    ibcc_loop_desc e;
    ibcc_result r = ibcc_loop_desc_check_(d, &e);
    if (r == IBCC_OK) *d = e;
    return r;
}

IBCC_API ibcc_result ibcc_loop_size(const ibcc_loop_desc *d, size_t *bytes)
{
    ibcc_loop_desc e;
    ibcc_result r = ibcc_loop_desc_check_(d, &e);
    uint64_t need = 0;
    if (r == IBCC_OK)
        need = IBCC_LOOP_LINE_
             + (uint64_t)e.capacity * (sizeof(ibcc_hent_) + sizeof(ibcc_event_));
    return ibcc_size_out_(r, need, bytes);
}

/* The heap and slot arrays in the loop's memory (see the layout above). */
static void ibcc_loop_layout_(void *mem, uint32_t cap, ibcc_hent_ **heap,
                              ibcc_event_ **slot)
{
    uintptr_t one = (uintptr_t)mem + sizeof(ibcc_hent_);   /* entry 1 */
    size_t pad = (size_t)((IBCC_LOOP_LINE_ - (one & (IBCC_LOOP_LINE_ - 1u)))
                          & (IBCC_LOOP_LINE_ - 1u));
    *heap = (ibcc_hent_ *)(void *)((unsigned char *)mem + pad);
    *slot = (ibcc_event_ *)(void *)((unsigned char *)mem + IBCC_LOOP_LINE_
                                    + (size_t)cap * sizeof(ibcc_hent_));
}

/* Heap entry a runs before b: earlier time, or same time and scheduled
   earlier. */
static int ibcc_loop_less_(const ibcc_loop *l, const ibcc_hent_ *a,
                           const ibcc_hent_ *b)
{
    if (a->t != b->t) return a->t < b->t;
    return l->slot[a->slot].seq < l->slot[b->slot].seq;
}

/* Places entry x at heap index i or above (the hole at i moves up). */
static void ibcc_loop_up_(ibcc_loop *l, uint32_t i, ibcc_hent_ x)
{
    ibcc_hent_ *h = l->heap;
    while (i > 0) {
        uint32_t p = (i - 1u) / IBCC_LOOP_ARITY_;
        if (!ibcc_loop_less_(l, &x, &h[p])) break;
        h[i] = h[p];
        i = p;
    }
    h[i] = x;
}

/* Places entry x at heap index i or below (the hole at i moves down).
   Written with the keys in locals: this is the loop's hot path. */
static void ibcc_loop_down_(ibcc_loop *l, uint32_t i, ibcc_hent_ x)
{
    ibcc_hent_ *h = l->heap;
    const ibcc_event_ *s = l->slot;
    uint32_t n = l->hn;
    for (;;) {
        uint64_t first = (uint64_t)IBCC_LOOP_ARITY_ * i + 1u; /* no wrap */
        uint32_t c, j, end;
        ibcc_time ct;
        if (first >= n) break;
        c = (uint32_t)first;
        ct = h[c].t;
        end = (n - c > IBCC_LOOP_ARITY_) ? c + IBCC_LOOP_ARITY_ : n;
        for (j = c + 1u; j < end; j++) {   /* least of the children */
            ibcc_time jt = h[j].t;
            int better = jt < ct;           /* selects, not jumps: random
                                               keys defeat branch prediction */
            if (jt == ct) better = s[h[j].slot].seq < s[h[c].slot].seq;
            c = better ? j : c;
            ct = better ? jt : ct;
        }
        if (x.t < ct || (x.t == ct && s[x.slot].seq < s[h[c].slot].seq))
            break;
        h[i] = h[c];
        i = c;
    }
    h[i] = x;
}

/* Returns slot k to the free list and invalidates its handles. */
static void ibcc_loop_release_(ibcc_loop *l, uint32_t k)
{
    ibcc_event_ *e = &l->slot[k];
    e->fn = NULL;
    e->ctx = NULL;
    e->gen++;
    if (e->gen == 0) e->gen = 1;
    e->next = l->free_head;
    l->free_head = k;
}

/* Removes the top entry (hn > 0): the last entry fills the hole. */
static void ibcc_loop_pop_(ibcc_loop *l)
{
    l->hn--;
    if (l->hn > 0) ibcc_loop_down_(l, 0, l->heap[l->hn]);
}

static int ibcc_loop_dead_(const ibcc_loop *l, const ibcc_hent_ *x)
{
    return l->slot[x->slot].gen != x->gen;
}

/* Drops cancelled entries from the top, freeing their slots, so that the
   top is a pending event (or the heap is empty). */
static void ibcc_loop_trim_(ibcc_loop *l)
{
    while (l->hn > 0 && ibcc_loop_dead_(l, &l->heap[0])) {
        uint32_t k = l->heap[0].slot;
        ibcc_loop_pop_(l);
        ibcc_loop_release_(l, k);
    }
}

/* Removes every cancelled entry, frees their slots and rebuilds the heap
   bottom-up. */
static void ibcc_loop_compact_(ibcc_loop *l)
{
    uint32_t i, j = 0;
    for (i = 0; i < l->hn; i++) {
        if (ibcc_loop_dead_(l, &l->heap[i])) ibcc_loop_release_(l, l->heap[i].slot);
        else l->heap[j++] = l->heap[i];
    }
    l->hn = j;
    for (i = j / IBCC_LOOP_ARITY_ + 1u; i-- > 0;)
        if (i < j) ibcc_loop_down_(l, i, l->heap[i]);
}

/* Makes slots [from, cap) free, linked in order and then to `tail`, with
   this block's first generation: a multiplicative hash (golden ratio
   constant) of the address and capacity, top 32 bits, never 0, so a
   handle of another loop (or of this loop's earlier block) is refused. */
static void ibcc_loop_free_slots_(ibcc_event_ *slot, uint32_t from,
                                  uint32_t cap, const void *mem,
                                  uint32_t tail)
{
    uint64_t h = ((uint64_t)(uintptr_t)mem ^ ((uint64_t)cap << 40))
               * UINT64_C(0x9E3779B97F4A7C15);
    uint32_t k, gen0 = (uint32_t)(h >> 32);
    if (gen0 == 0) gen0 = 1;
    for (k = from; k < cap; k++) {
        ibcc_event_ *e = &slot[k];
        e->seq = 0;
        e->fn = NULL;
        e->ctx = NULL;
        e->arg = 0;
        e->gen = gen0;
        e->next = (k + 1u < cap) ? k + 1u : tail;
    }
}

IBCC_API ibcc_result ibcc_loop_init(ibcc_loop *l, const ibcc_loop_desc *d,
                                    void *mem, size_t len)
{
    ibcc_loop_desc e;
    size_t need;
    uint32_t k;
    ibcc_result r;
    if (!l || !d || !mem) return IBCC_ERR_NULL;
    if ((r = ibcc_loop_desc_check_(d, &e)) != IBCC_OK) return r;
    if ((r = ibcc_loop_size(&e, &need)) != IBCC_OK) return r;
    r = ibcc_mem_check_(mem, len, need);
    if (r != IBCC_OK) return r;
    l->now = 0;
    l->seq = 0;
    l->cur = 0;
    l->executed = 0;
    l->idle = NULL;
    l->idle_ctx = NULL;
    l->cap = e.capacity;
    l->count = 0;
    l->hn = 0;
    l->free_head = 0;
    ibcc_loop_layout_(mem, e.capacity, &l->heap, &l->slot);
    ibcc_loop_free_slots_(l->slot, 0, e.capacity, mem, IBCC_LOOP_NONE_);
    for (k = 0; k < e.capacity; k++) {
        l->heap[k].t = 0;
        l->heap[k].slot = 0;
        l->heap[k].gen = 0;
    }
    return IBCC_OK;
}

/* Schedules fn at t >= now (the caller's check) with a given place `seq`
   among same-time events: a number taken earlier with ibcc_loop_ticket_
   (the fabric's deferred work keeps the place it was given when it became
   known) or l->seq++. IBCC_ERR_FULL. */
static ibcc_result ibcc_loop_put_(ibcc_loop *l, ibcc_time t, ibcc_event_fn fn,
                                  void *ctx, uint64_t arg, uint64_t seq,
                                  ibcc_event_id *id)
{
    uint32_t k;
    ibcc_event_ *e;
    ibcc_hent_ x;
    if (l->count >= l->cap) return IBCC_ERR_FULL;
    if (l->free_head == IBCC_LOOP_NONE_) ibcc_loop_compact_(l);
    k = l->free_head;
    e = &l->slot[k];
    l->free_head = e->next;
    e->seq = seq;
    e->fn = fn;
    e->ctx = ctx;
    e->arg = arg;
    x.t = t;
    x.slot = k;
    x.gen = e->gen;
    l->count++;
    l->hn++;
    ibcc_loop_up_(l, l->hn - 1u, x);
    if (id) *id = ((uint64_t)e->gen << 32) | k;
    return IBCC_OK;
}

#ifndef IBCC_NO_FABRIC
/* A place in the scheduling order without an event: work known now and
   due later that may never need an event of its own (the fabric's
   transmitter completions) takes its place among same-time events here. */
static uint64_t ibcc_loop_ticket_(ibcc_loop *l)
{
    return l->seq++;
}
#endif

IBCC_API ibcc_result ibcc_loop_at(ibcc_loop *l, ibcc_time t, ibcc_event_fn fn,
                                  void *ctx, uint64_t arg, ibcc_event_id *id)
{
    if (id) *id = 0;
    if (!l || !fn) return IBCC_ERR_NULL;
    if (t < l->now) return IBCC_ERR_PAST;
    if (l->count >= l->cap) return IBCC_ERR_FULL;  /* no seq is taken */
    return ibcc_loop_put_(l, t, fn, ctx, arg, l->seq++, id);
}

IBCC_API ibcc_result ibcc_loop_after(ibcc_loop *l, ibcc_time delay,
                                     ibcc_event_fn fn, void *ctx, uint64_t arg,
                                     ibcc_event_id *id)
{
    if (id) *id = 0;
    if (!l || !fn) return IBCC_ERR_NULL;
    if (delay > IBCC_TIME_MAX - l->now) return IBCC_ERR_OVERFLOW;
    return ibcc_loop_at(l, l->now + delay, fn, ctx, arg, id);
}

IBCC_API ibcc_result ibcc_loop_cancel(ibcc_loop *l, ibcc_event_id id)
{
    uint32_t k, gen;
    ibcc_event_ *e;
    if (!l) return IBCC_ERR_NULL;
    k = (uint32_t)(id & 0xffffffffu);
    gen = (uint32_t)(id >> 32);
    if (gen == 0 || k >= l->cap) return IBCC_ERR_NOT_FOUND;
    e = &l->slot[k];
    if (e->gen != gen || e->fn == NULL) return IBCC_ERR_NOT_FOUND;
    /* dead from now on; the slot is freed when its entry leaves the heap */
    e->fn = NULL;
    e->ctx = NULL;
    e->gen++;
    if (e->gen == 0) e->gen = 1;
    l->count--;
    ibcc_loop_trim_(l);
    return IBCC_OK;
}

IBCC_API int ibcc_loop_step(ibcc_loop *l)
{
    uint32_t k;
    ibcc_event_ *e;
    ibcc_event_fn fn;
    void *ctx;
    uint64_t arg;
    if (!l || l->count == 0) return 0;
    k = l->heap[0].slot;
    e = &l->slot[k];
    fn = e->fn;
    ctx = e->ctx;
    arg = e->arg;
    l->now = l->heap[0].t;
    l->cur = e->seq;
    ibcc_loop_pop_(l);
    l->count--;
    ibcc_loop_release_(l, k); /* before the call: the callback may reuse it */
    ibcc_loop_trim_(l);       /* the next event is at the top */
    l->executed++;
    fn(l, ctx, arg);
    if (l->idle && (l->count == 0 || l->heap[0].t > l->now))
        l->idle(l, l->idle_ctx, 0);
    return 1;
}

IBCC_API ibcc_result ibcc_loop_grow(ibcc_loop *l, const ibcc_loop_desc *d,
                                    void *mem, size_t len)
{
    ibcc_loop_desc e;
    ibcc_hent_ *heap;
    ibcc_event_ *slot;
    size_t need;
    ibcc_result r;
    if (!l || !d || !mem || !l->heap) return IBCC_ERR_NULL;
    if ((r = ibcc_loop_desc_check_(d, &e)) != IBCC_OK) return r;
    if (e.capacity < l->cap) return IBCC_ERR_CAPACITY;
    if ((r = ibcc_loop_size(&e, &need)) != IBCC_OK) return r;
    r = ibcc_mem_check_(mem, len, need);
    if (r != IBCC_OK) return r;
    ibcc_loop_layout_(mem, e.capacity, &heap, &slot);
    /* the pending entries and every old slot keep their indices, so heap
       positions, the free list and handles stay valid */
    memcpy(heap, l->heap, (size_t)l->hn * sizeof *heap);
    memcpy(slot, l->slot, (size_t)l->cap * sizeof *slot);
    ibcc_loop_free_slots_(slot, l->cap, e.capacity, mem, l->free_head);
    if (e.capacity > l->cap) l->free_head = l->cap;
    l->heap = heap;
    l->slot = slot;
    l->cap = e.capacity;
    return IBCC_OK;
}

IBCC_API ibcc_result ibcc_loop_run_until(ibcc_loop *l, ibcc_time t,
                                         uint64_t *ran)
{
    uint64_t n = 0;
    if (ran) *ran = 0;
    if (!l) return IBCC_ERR_NULL;
    if (t < l->now) return IBCC_ERR_PAST;
    while (l->count > 0 && l->heap[0].t <= t) {
        ibcc_loop_step(l);
        n++;
    }
    l->now = t;
    if (ran) *ran = n;
    return IBCC_OK;
}

IBCC_API uint64_t ibcc_loop_run(ibcc_loop *l)
{
    uint64_t n = 0;
    while (ibcc_loop_step(l)) n++;
    return n;
}

IBCC_API ibcc_time ibcc_loop_now(const ibcc_loop *l)
{
    return l ? l->now : 0;
}

IBCC_API uint32_t ibcc_loop_pending(const ibcc_loop *l)
{
    return l ? l->count : 0;
}

IBCC_API ibcc_time ibcc_loop_next_time(const ibcc_loop *l)
{
    return (l && l->count) ? l->heap[0].t : IBCC_TIME_MAX;
}

IBCC_API ibcc_result ibcc_loop_set_idle(ibcc_loop *l, ibcc_event_fn fn,
                                        void *ctx)
{
    if (!l) return IBCC_ERR_NULL;
    l->idle = fn;
    l->idle_ctx = fn ? ctx : NULL;
    return IBCC_OK;
}

/* ---- L2 coll: implementation ------------------------------------------ */

static uint32_t ibcc_coll_log2_(uint32_t x)      /* floor(log2 x), x > 0 */
{
    uint32_t k = 0;
    while (x > 1u) {
        x >>= 1;
        k++;
    }
    return k;
}

/* Largest divisor of n not above the k-th root of n (k = 2 or 3). */
static uint32_t ibcc_coll_root_div_(uint32_t n, unsigned k)
{
    uint32_t a, best = 1;
    for (a = 1; a <= n; a++) {
        uint64_t p = (uint64_t)a * a * (k == 3u ? a : 1u);
        if (p > n) break;
        if (n % a == 0) best = a;
    }
    return best;
}

IBCC_API ibcc_result ibcc_coll_defaults(ibcc_coll_desc *d)
{
    ibcc_coll_desc c;
    if (!d) return IBCC_ERR_NULL;
    c = *d;
    if ((uint32_t)c.kind < 1u || (uint32_t)c.kind > IBCC_COLL_KINDS)
        return IBCC_ERR_RANGE;
    if (c.ranks < 1u || c.ranks > (UINT32_C(1) << 24)) return IBCC_ERR_RANGE;
    if (c.bytes < 1u || c.bytes > (UINT64_C(1) << 48)) return IBCC_ERR_RANGE;
    if (c.kind == IBCC_COLL_ALLREDUCE_RING && c.bytes < c.ranks)
        return IBCC_ERR_RANGE;
    if ((c.kind == IBCC_COLL_BCAST_BINOMIAL || c.kind == IBCC_COLL_INCAST)
        && c.root >= c.ranks)
        return IBCC_ERR_RANGE;
    if (c.periodic > 1u) return IBCC_ERR_RANGE;
    if (c.kind == IBCC_COLL_HALO2D || c.kind == IBCC_COLL_HALO3D) {
        unsigned nd = c.kind == IBCC_COLL_HALO3D ? 3u : 2u, i;
        uint64_t prod = 1;
        if (c.iterations == 0) c.iterations = 1;
        if (c.iterations > (UINT32_C(1) << 20)) return IBCC_ERR_RANGE;
        if (nd == 2u && c.dims[2] > 1u) return IBCC_ERR_RANGE;
        if (c.dims[0] == 0 && c.dims[1] == 0 && (nd == 2u || c.dims[2] == 0)) {
            uint32_t rest = c.ranks, z = 1, y;
            if (nd == 3u) {
                z = ibcc_coll_root_div_(c.ranks, 3u);
                rest = c.ranks / z;
            }
            y = ibcc_coll_root_div_(rest, 2u);
            c.dims[0] = rest / y;
            c.dims[1] = y;
            c.dims[2] = z;
        }
        if (nd == 2u && c.dims[2] == 0) c.dims[2] = 1;
        for (i = 0; i < 3u; i++) {
            if (c.dims[i] == 0) return IBCC_ERR_RANGE;
            prod *= c.dims[i];
        }
        if (prod != c.ranks) return IBCC_ERR_RANGE;
    } else if (c.iterations > 1u || c.dims[0] || c.dims[1] || c.dims[2]) {
        return IBCC_ERR_RANGE;   /* fields of another pattern */
    }
    *d = c;
    return IBCC_OK;
}

/* Pairwise partner of r in step s, r itself when idle. */
static uint32_t ibcc_coll_pair_(uint32_t P, uint32_t r, uint32_t s)
{
    uint32_t m;
    if ((P & (P - 1u)) == 0) return r ^ (s + 1u);
    if (P & 1u) return (s + P - r) % P;  /* ranks below 2^24: no wrap */
    m = P - 1u;                              /* even, not a power of two */
    if (r == m) return (s & 1u) ? (s + m) / 2u : s / 2u; /* 2x = s mod m */
    {
        uint32_t q = (s + m - r) % m;
        return q == r ? m : q;
    }
}

/* Recursive doubling: p' = 2^L, q = P - p'; the real rank of new rank n */
static uint32_t ibcc_coll_rd_real_(uint32_t q, uint32_t n)
{
    return n < q ? 2u * n + 1u : n + q;
}

/* Halo neighbour of r in direction dir (0..5: -x +x -y +y -z +z), or
   IBCC_COLL_NONE. */
static uint32_t ibcc_coll_halo_nb_(const ibcc_coll_desc *d, uint32_t r,
                                   unsigned dir)
{
    uint32_t c[3], dim = dir / 2u, n = d->dims[dir / 2u];
    c[0] = r % d->dims[0];
    c[1] = (r / d->dims[0]) % d->dims[1];
    c[2] = r / (d->dims[0] * d->dims[1]);
    if (n == 1u) return IBCC_COLL_NONE;
    if (dir & 1u) {
        if (c[dim] + 1u < n) c[dim]++;
        else if (d->periodic) c[dim] = 0;
        else return IBCC_COLL_NONE;
    } else {
        if (c[dim] > 0) c[dim]--;
        else if (d->periodic) c[dim] = n - 1u;
        else return IBCC_COLL_NONE;
    }
    return c[0] + d->dims[0] * (c[1] + d->dims[1] * c[2]);
}

static uint32_t ibcc_coll_steps_(const ibcc_coll_desc *d, uint32_t r)
{
    uint32_t P = d->ranks, L, q;
    if (P == 1u) return 0;
    switch (d->kind) {
    case IBCC_COLL_ALLTOALL_SHIFT: return P - 1u;
    case IBCC_COLL_ALLTOALL_PAIRWISE:
        return ((P & (P - 1u)) == 0 || !(P & 1u)) ? P - 1u : P;
    case IBCC_COLL_ALLREDUCE_RING: return 2u * (P - 1u);
    case IBCC_COLL_ALLREDUCE_RD:
        L = ibcc_coll_log2_(P);
        q = P - (UINT32_C(1) << L);
        if (r < 2u * q) return (r & 1u) ? L + 1u : 1u;
        return L;
    case IBCC_COLL_BCAST_BINOMIAL: return 1u;
    case IBCC_COLL_HALO2D:
    case IBCC_COLL_HALO3D: return d->iterations;
    case IBCC_COLL_INCAST: return r == d->root ? 0u : 1u;
    }
    return 0;
}

/* The i-th send (want_send) or wait of step s of rank r into *m, or, with
   i = IBCC_COLL_NONE, only their count (returned). Inputs are checked. */
static uint32_t ibcc_coll_list_(const ibcc_coll_desc *d, uint32_t r,
                                uint32_t s, int want_send, uint32_t i,
                                ibcc_coll_msg *m)
{
    uint32_t P = d->ranks, n = 0, k;
    uint64_t N = d->bytes;
    ibcc_coll_msg x;
#define IBCC_COLL_PUT_(peer_, step_, bytes_)                              \
    do {                                                                  \
        if (n == i) {                                                     \
            x.peer = (peer_); x.step = (step_); x.bytes = (bytes_);       \
            *m = x;                                                       \
        }                                                                 \
        n++;                                                              \
    } while (0)
    switch (d->kind) {
    case IBCC_COLL_ALLTOALL_SHIFT:
        if (want_send) IBCC_COLL_PUT_((r + s + 1u) % P, s, N);
        else if (s > 0)
            IBCC_COLL_PUT_((r + P - s) % P, s - 1u, N);
        break;
    case IBCC_COLL_ALLTOALL_PAIRWISE:
        if (want_send) {
            k = ibcc_coll_pair_(P, r, s);
            if (k != r) IBCC_COLL_PUT_(k, s, N);
        } else if (s > 0) {
            k = ibcc_coll_pair_(P, r, s - 1u);
            if (k != r) IBCC_COLL_PUT_(k, s - 1u, N);
        }
        break;
    case IBCC_COLL_ALLREDUCE_RING: {
        uint32_t src = want_send ? r : (r + P - 1u) % P;
        uint32_t st = want_send ? s : s - 1u;
        uint32_t chunk = (src + 2u * P - st) % P;
        uint64_t b = N / P + (chunk < N % P ? 1u : 0u);
        if (want_send) IBCC_COLL_PUT_((r + 1u) % P, s, b);
        else if (s > 0) IBCC_COLL_PUT_(src, st, b);
        break;
    }
    case IBCC_COLL_ALLREDUCE_RD: {
        uint32_t L = ibcc_coll_log2_(P), q = P - (UINT32_C(1) << L), nr;
        if (r < 2u * q && !(r & 1u)) {           /* even: sends, leaves */
            if (want_send) IBCC_COLL_PUT_(r + 1u, 0u, N);
            break;
        }
        nr = r < 2u * q ? r / 2u : r - q;
        if (s < L) {                             /* exchange s */
            if (want_send)
                IBCC_COLL_PUT_(ibcc_coll_rd_real_(q, nr ^ (UINT32_C(1) << s)),
                               s, N);
        } else if (want_send) {                  /* s == L: result back */
            IBCC_COLL_PUT_(r - 1u, L, N);
        }
        if (!want_send) {
            if (s == 0 && r < 2u * q) IBCC_COLL_PUT_(r - 1u, 0u, N);
            if (s > 0)
                IBCC_COLL_PUT_(ibcc_coll_rd_real_(q,
                                   nr ^ (UINT32_C(1) << (s - 1u))), s - 1u, N);
        }
        break;
    }
    case IBCC_COLL_BCAST_BINOMIAL: {
        uint32_t v = (r + P - d->root) % P, mk;
        if (want_send) {
            mk = v ? (v & (~v + 1u)) >> 1
                   : UINT32_C(1) << ibcc_coll_log2_(P - 1u);
            for (; mk; mk >>= 1)
                if (v + mk < P)
                    IBCC_COLL_PUT_((v + mk + d->root) % P, 0u, N);
        } else if (v) {
            IBCC_COLL_PUT_((v - (v & (~v + 1u)) + d->root) % P, 0u, N);
        }
        break;
    }
    case IBCC_COLL_HALO2D:
    case IBCC_COLL_HALO3D:
        for (k = 0; k < 6u; k++) {
            uint32_t nb = ibcc_coll_halo_nb_(d, r, k);
            if (nb == IBCC_COLL_NONE) continue;
            if (want_send) IBCC_COLL_PUT_(nb, s, N);
            else if (s > 0) IBCC_COLL_PUT_(nb, s - 1u, N);
        }
        break;
    case IBCC_COLL_INCAST:
        if (want_send && r != d->root) IBCC_COLL_PUT_(d->root, 0u, N);
        break;
    }
#undef IBCC_COLL_PUT_
    return n;
}

static ibcc_result ibcc_coll_prep_(const ibcc_coll_desc *d, uint32_t r,
                                   uint32_t s, ibcc_coll_desc *c)
{
    ibcc_result e;
    if (!d) return IBCC_ERR_NULL;
    *c = *d;
    if ((e = ibcc_coll_defaults(c)) != IBCC_OK) return e;
    if (r >= c->ranks || s >= ibcc_coll_steps_(c, r)) return IBCC_ERR_RANGE;
    return IBCC_OK;
}

IBCC_API ibcc_result ibcc_coll_steps(const ibcc_coll_desc *d, uint32_t r,
                                     uint32_t *steps)
{
    ibcc_coll_desc c;
    ibcc_result e;
    if (!d || !steps) return IBCC_ERR_NULL;
    c = *d;
    if ((e = ibcc_coll_defaults(&c)) != IBCC_OK) return e;
    if (r >= c.ranks) return IBCC_ERR_RANGE;
    *steps = ibcc_coll_steps_(&c, r);
    return IBCC_OK;
}

IBCC_API ibcc_result ibcc_coll_count(const ibcc_coll_desc *d, uint32_t r,
        uint32_t s, uint32_t *sends, uint32_t *waits)
{
    ibcc_coll_desc c;
    ibcc_coll_msg m;
    ibcc_result e;
    if (!sends || !waits) return IBCC_ERR_NULL;
    if ((e = ibcc_coll_prep_(d, r, s, &c)) != IBCC_OK) return e;
    *sends = ibcc_coll_list_(&c, r, s, 1, IBCC_COLL_NONE, &m);
    *waits = ibcc_coll_list_(&c, r, s, 0, IBCC_COLL_NONE, &m);
    return IBCC_OK;
}

static ibcc_result ibcc_coll_get_(const ibcc_coll_desc *d, uint32_t r,
        uint32_t s, uint32_t i, int want_send, ibcc_coll_msg *m)
{
    ibcc_coll_desc c;
    ibcc_coll_msg x;
    ibcc_result e;
    if (!m) return IBCC_ERR_NULL;
    if ((e = ibcc_coll_prep_(d, r, s, &c)) != IBCC_OK) return e;
    if (i == IBCC_COLL_NONE || i >= ibcc_coll_list_(&c, r, s, want_send, i, &x))
        return IBCC_ERR_RANGE;
    *m = x;
    return IBCC_OK;
}

IBCC_API ibcc_result ibcc_coll_send(const ibcc_coll_desc *d, uint32_t r,
        uint32_t s, uint32_t i, ibcc_coll_msg *m)
{
    return ibcc_coll_get_(d, r, s, i, 1, m);
}

IBCC_API ibcc_result ibcc_coll_wait(const ibcc_coll_desc *d, uint32_t r,
        uint32_t s, uint32_t i, ibcc_coll_msg *m)
{
    return ibcc_coll_get_(d, r, s, i, 0, m);
}

/* The consumer of a message the schedule sends (checked desc). */
static uint32_t ibcc_coll_consumer_(const ibcc_coll_desc *c, uint32_t dst,
                                    uint32_t src, uint32_t src_step)
{
    /* every pattern waits for a message in the receiver's step after
       (RD's pre-exchange vector: in step 0; a broadcast: in the one step
       of the receiver) */
    uint32_t k = src_step + 1u;
    if (c->kind == IBCC_COLL_ALLREDUCE_RD) {
        uint32_t L = ibcc_coll_log2_(c->ranks);
        uint32_t q = c->ranks - (UINT32_C(1) << L);
        if (src < 2u * q && !(src & 1u)) k = 0;          /* pre vector */
        else if (src < 2u * q && src_step == L) k = IBCC_COLL_NONE;
    } else if (c->kind == IBCC_COLL_BCAST_BINOMIAL) {
        k = 0;
    } else if (c->kind == IBCC_COLL_INCAST) {
        k = IBCC_COLL_NONE;
    }
    return (k != IBCC_COLL_NONE && k < ibcc_coll_steps_(c, dst))
               ? k : IBCC_COLL_NONE;
}

IBCC_API ibcc_result ibcc_coll_consumer(const ibcc_coll_desc *d,
        uint32_t dst, uint32_t src, uint32_t src_step, uint32_t *step)
{
    ibcc_coll_desc c;
    ibcc_coll_msg m;
    ibcc_result e;
    uint32_t n, i;
    if (!step) return IBCC_ERR_NULL;
    if ((e = ibcc_coll_prep_(d, src, src_step, &c)) != IBCC_OK) return e;
    if (dst >= c.ranks) return IBCC_ERR_RANGE;
    n = ibcc_coll_list_(&c, src, src_step, 1, IBCC_COLL_NONE, &m);
    for (i = 0; i < n; i++) {
        (void)ibcc_coll_list_(&c, src, src_step, 1, i, &m);
        if (m.peer == dst) break;
    }
    if (i == n) return IBCC_ERR_RANGE;
    *step = ibcc_coll_consumer_(&c, dst, src, src_step);
    return IBCC_OK;
}

IBCC_API ibcc_result ibcc_coll_totals(const ibcc_coll_desc *d,
        uint64_t *messages, uint64_t *bytes, uint32_t *max_steps)
{
    ibcc_coll_desc c;
    ibcc_result e;
    uint64_t P, msgs = 0, per = 0;
    uint32_t ms = 0, r;
    if (!d || !messages || !bytes || !max_steps) return IBCC_ERR_NULL;
    c = *d;
    if ((e = ibcc_coll_defaults(&c)) != IBCC_OK) return e;
    P = c.ranks;
    per = c.bytes;
    switch (c.kind) {
    case IBCC_COLL_ALLTOALL_SHIFT:
    case IBCC_COLL_ALLTOALL_PAIRWISE: msgs = P * (P - 1u); break;
    case IBCC_COLL_ALLREDUCE_RING:
        msgs = 2u * P * (P - 1u);
        per = 0;
        *bytes = 2u * (P - 1u) * c.bytes;
        break;
    case IBCC_COLL_ALLREDUCE_RD: {
        uint32_t L = ibcc_coll_log2_(c.ranks);
        uint64_t pp = UINT64_C(1) << L;
        msgs = pp * L + 2u * (P - pp);
        break;
    }
    case IBCC_COLL_BCAST_BINOMIAL:
    case IBCC_COLL_INCAST: msgs = P - 1u; break;
    case IBCC_COLL_HALO2D:
    case IBCC_COLL_HALO3D: {
        unsigned i;
        for (i = 0; i < 3u; i++) {
            uint64_t n = c.dims[i];
            if (n > 1u) msgs += 2u * (c.periodic ? P : P / n * (n - 1u));
        }
        msgs *= c.iterations;
        break;
    }
    }
    if (per) *bytes = msgs * per;
    for (r = 0; r < c.ranks; r++) {
        uint32_t s = ibcc_coll_steps_(&c, r);
        if (s > ms) ms = s;
        if (c.kind != IBCC_COLL_ALLREDUCE_RD && c.kind != IBCC_COLL_INCAST)
            break;                    /* the same for every rank */
    }
    *messages = msgs;
    *max_steps = ms;
    return IBCC_OK;
}

static const char *const ibcc_coll_names_[IBCC_COLL_KINDS + 1u] = {
    "?", "alltoall-shift", "alltoall-pairwise", "allreduce-ring",
    "allreduce-rd", "bcast-binomial", "halo2d", "halo3d", "incast"
};

IBCC_API const char *ibcc_coll_name(ibcc_coll_kind k)
{
    return ((uint32_t)k >= 1u && (uint32_t)k <= IBCC_COLL_KINDS)
               ? ibcc_coll_names_[k] : "?";
}

IBCC_API ibcc_coll_kind ibcc_coll_parse(const char *name)
{
    uint32_t k;
    if (!name) return (ibcc_coll_kind)0;
    for (k = 1; k <= IBCC_COLL_KINDS; k++) {
        const char *a = ibcc_coll_names_[k], *b = name;
        while (*a && *a == *b) {
            a++;
            b++;
        }
        if (*a == 0 && *b == 0) return (ibcc_coll_kind)k;
    }
    return (ibcc_coll_kind)0;
}

IBCC_API ibcc_result ibcc_place(const uint32_t *hosts, uint32_t nh,
        const uint32_t *ranks, uint32_t jobs, ibcc_place_policy policy,
        uint64_t seed, uint32_t *out)
{
    uint64_t total = 0;
    uint32_t j, k, n;
    if (!hosts || !ranks || !out) return IBCC_ERR_NULL;
    if (jobs == 0 || (uint32_t)policy > (uint32_t)IBCC_PLACE_RANDOM)
        return IBCC_ERR_RANGE;
    for (j = 0; j < jobs; j++) total += ranks[j];
    if (total > nh) return IBCC_ERR_CAPACITY;
    n = (uint32_t)total;
    if (policy == IBCC_PLACE_INTERLEAVED) {
        /* deal the list round robin over the jobs still short of ranks:
           in round i each job with more than i ranks takes the next host
           as its rank i */
        uint32_t rd = 0, i = 0;
        while (i < n) {
            uint64_t off = 0;
            for (j = 0; j < jobs; j++) {
                if (rd < ranks[j]) out[off + rd] = hosts[i++];
                off += ranks[j];
            }
            rd++;
        }
        return IBCC_OK;
    }
    if (policy == IBCC_PLACE_LINEAR) {
        for (k = 0; k < n; k++) out[k] = hosts[k];
        return IBCC_OK;
    }
    {
        /* selection sampling (Knuth's Algorithm S) of n hosts in list
           order, then a Fisher-Yates shuffle of the chosen */
        ibcc_rng g;
        uint32_t i, got = 0;
        ibcc_rng_seed(&g, seed);
        for (i = 0; i < nh && got < n; i++)
            if (ibcc_rng_below(&g, nh - i) < (uint64_t)(n - got))
                out[got++] = hosts[i];
        for (i = n; i > 1u; i--) {
            uint32_t a = (uint32_t)ibcc_rng_below(&g, i), t = out[i - 1u];
            out[i - 1u] = out[a];
            out[a] = t;
        }
    }
    return IBCC_OK;
}

#ifndef IBCC_NO_FABRIC
/* ---- L3 fabric core: implementation -------------------------------------

   Objects (all allocated at create through the allocator, except packets,
   which come from a pool of 1024-packet chunks that grows on demand):
   - channel: one direction of a link; the sender's transmitter, its view
     of the receiver's free credits per lane (packets and 64-byte units),
     counters for conservation (packets on the wire, credits returning).
   - buffer: a switch input port's queue for one lane, as an array of
     packet indices in arrival order (removal at any position for bypass),
     plus the count of departed packets whose tail still holds room in it.
   - switch: its kind (a table of operations), marker and arbiters (L1
     engines) and the state its kind asks for (CIOQ: an output buffer per
     port; WORMHOLE: none, its slack buffers are its input links').
   - host: its ACK/CNP queue, its flows, the FIFO of generated packets
     (nic_fifo), one shared engine per agent kind its flows use (CCT
     agent, MVCM agent), a pending wake-up event.
   - flow: its description, source agent (operations + state), queue of
     generated packets, random stream, statistics. A source's
     per-destination queues are flows too, at indices nf.. (section 1b:
     made per message, released when idle).
   Events carry (type, index) packed in the 64-bit argument.

   The parts and the private interface between them. Shared code (the
   core: memory, the packet pool, the to-do list, events, packets'
   generation, arrival, delivery and ACKs, statistics, creation) never
   tests a kind; it calls tables, each complete (every operation present)
   and chosen once where the configuration is checked:
   - ibcc_fswkind_, per switch (ibcc_fab_kind_[switch_kind]): setup and
     init of its own state, arbitrate (its decisions at the end of an
     instant), can_take / picked / txend (its data lane), event (its own
     timed event, IBCC_F_E_SWITCH_), held / check (conservation);
   - ibcc_flink_, per fabric (named by its switch kinds, which must
     agree): how bytes cross links, credits (packets) or STOP/GO (worms):
     setup, events (loop capacity), host_run, check, totals, and its own
     timed events (IBCC_F_E_LINK0_, _LINK1_);
   - ibcc_fagent_, per flow (ibcc_fab_agents_[agent]): when a flow may
     send, and its reaction to ACKs, CNPs and ON/OFF periods.
   The kinds use the core's helpers (ibcc_fab_send_, the buffers, the
   settle/kick functions of the to-do list) and nothing of one another,
   but that the packet kinds share the packet arbitration
   (ibcc_fab_sw_arb_). Traffic patterns, topology builders, the
   two-switch builder and the InfiniBand loader only produce desc data
   (nodes, links, routes, flows) and report refusals through
   ibcc_fab_err_ into an ibcc_fabric_error.

   Reading order. The core first: the plumbing (memory, helpers, the
   same-instant to-do list, completions and credits applied when due, the
   event dispatcher), then one packet's life:
     1. generation       a flow starts / toggles, packets and messages
                         appear in its queue
     2. injection        its host picks it (ACK lane first) and sends it
                         (the credit link's host_run)
     3. the link         transmitter busy, credits taken, arrival scheduled
     4. switch arrival   visible after the forwarding delay: marker, arbiter
     5. packet switching input buffers, credits sent back, the packet
                         arbitration of VCT and CIOQ switches (the kinds'
                         own steps are in the next part)
     6. the tail leaves  completions applied when due: output free, input
                         slot released (its credits were sent back when
                         the packet started on the next link, step 5)
     7. delivery         tail at the destination host: stats, echo -> ACK
     8. the ACK          back at the source (it crossed 2-6 on lane 1)
   Then "L3 switch kinds and link flow control" (the credit link, VCT,
   CIOQ; 10: the STOP/GO link and WORMHOLE; the links' setup, checks and
   totals; the table of kinds), "L3 source agents" (9), the core's
   creation, checks and queries, and the traffic patterns, topologies
   and InfiniBand loader. */

#define IBCC_F_NONE_     UINT32_C(0xffffffff)
#define IBCC_F_CHUNK_    1024u
#define IBCC_F_E_ARRIVE_ 1u  /* packet visible at switch / tail at host */
#define IBCC_F_E_SWAKE_  2u  /* switch: credits back that it waits for */
#define IBCC_F_E_DONE_   3u  /* switch: a completion that a packet waits for */
#define IBCC_F_E_SRC_    4u  /* a source's next message is due / asked */
#define IBCC_F_E_HOST_   5u  /* host may send (timed wake-up) */
#define IBCC_F_E_FLOW_   6u  /* flow ON-OFF toggle or stop */
#define IBCC_F_E_GEN_    7u  /* RATE/POISSON: next packet (message) */
#define IBCC_F_E_RXDONE_ 8u  /* capped host finished absorbing a packet */
#define IBCC_F_E_SWITCH_ 9u  /* a switch kind's own event: (global port <<
                                5 | aux), handled by its kind's `event` */
#define IBCC_F_SWEV_(gp, aux) (((uint64_t)(gp) << 5) | (uint64_t)(aux))
#define IBCC_F_E_START_  11u /* a flow's start time */
#define IBCC_F_E_LINK0_  12u /* the link flow control's own events, */
#define IBCC_F_E_LINK1_  13u /* handled by its event[0] and event[1] */
#define IBCC_F_AGENTS_   7u  /* IBCC_AGENT_NONE .. IBCC_AGENT_DCQCN */
/* Lanes of a channel and of a switch input: lane 1 carries ACK/CNP, the
   data VLs v the others (VL0 lane 0, VL v >= 1 lane v + 1), so that a
   fabric of one VL has lanes 0 (data) and 1 (ACK). A worm (STOP/GO
   links) is lane 2 of a packet, not a VL. */
#define IBCC_F_ACK_      1u
#define IBCC_F_DLANE_(v) ((v) ? (uint32_t)(v) + 1u : 0u)
#define IBCC_F_LVL_(ln)  ((ln) > 1u ? (uint32_t)(ln) - 1u : 0u)
#define IBCC_F_HBUCKETS_ 1024u /* class latency histogram buckets */

typedef struct ibcc_fpkt_ {
    uint32_t next;              /* free list / host or flow queue / CIOQ
                                   output buffer link */
    uint32_t flow;
    uint32_t size;
    uint32_t units;             /* 64-byte credits it occupies */
    uint16_t lane;              /* lane it occupies (IBCC_F_ACK_) */
    uint16_t vl;                /* its data VL there (0 for ACK/CNP) */
    unsigned hdr;
    uint32_t node;              /* node it is at or travelling to */
    uint32_t in_port;           /* input port at that node */
    uint32_t out_port;          /* routed output at a switch */
    uint32_t chan;              /* channel it is on / arrived by */
    uint32_t last;              /* 1: last packet of its message */
    uint32_t covers;            /* an ACK: data packets it acknowledges
                                   (coalesced ACKs, dest.ack_every; 0 = 1) */
    uint32_t msg;               /* a source's message id (its ACKs too) */
    ibcc_time t_gen;            /* generated (its message was) */
    ibcc_time t_inject;         /* its source started sending it */
    ibcc_time t_arrive;         /* visible at this switch (its age) */
    ibcc_time t_tail;           /* tail fully arrived at this node (CIOQ:
                                   in the output buffer; wormhole: when
                                   the head reached the destination) */
} ibcc_fpkt_;

/* Wormhole state of one channel (section 10): its sender side (the worm
   holding it and whether bytes flow) and, when it ends at a switch, the
   slack buffer it feeds: a FIFO of (worm, bytes) entries, the front one
   draining into the output its header won. Rates are 0 or 1 byte per
   byte time. */
typedef struct ibcc_fwent_ {
    uint32_t worm, bytes;
} ibcc_fwent_;

typedef struct ibcc_fworm_ {
    /* sender side */
    uint32_t owner;             /* worm holding the channel, NONE: free */
    uint32_t feed;              /* input channel whose front worm holds it
                                   (NONE: a host sends) */
    uint32_t rate;              /* 1: a byte leaves every byte time */
    uint32_t stopped;           /* a STOP is in force at the sender */
    uint32_t headed;            /* the owner's first byte has left */
    uint32_t pad_;
    uint64_t sent;              /* bytes of the owner sent */
    ibcc_time ts;               /* host sender: sent is as of ts */
    ibcc_time prop;             /* propagation delay in whole byte times */
    /* receiver side */
    uint32_t in_rate, in_worm;  /* arriving bytes per byte time, of which
                                   worm (NONE between worms) */
    uint32_t first, n;          /* slack buffer entries: ring[first ..) */
    uint32_t level;             /* bytes in the slack buffer */
    uint32_t stop_sent;         /* STOP sent upstream, GO not yet */
    uint32_t routed;            /* the front worm's header is routed */
    uint32_t out_port;          /* ... to this output port */
    uint32_t gout;              /* output channel it holds, NONE: none */
    uint32_t timer_on[2];       /* [0] the buffer's, [1] a host sender's */
    ibcc_event_id timer[2];
    ibcc_time tr;               /* receiver side is as of tr */
    uint64_t tx, rx, out;       /* bytes sent on the channel, arrived
                                   through it, left its slack buffer */
    ibcc_fwent_ *ring;          /* slack + 2 entries (switch inputs) */
} ibcc_fworm_;

/* Credits of one packet on their way back to a channel's sender. */
typedef struct ibcc_fcred_ {
    ibcc_time t;                /* when they reach the sender */
    uint64_t tick;              /* their place among events at t */
    uint32_t units, lane;
} ibcc_fcred_;

/* Credit state of one lane of a channel (lanes: see IBCC_F_ACK_). */
typedef struct ibcc_flane_ {
    uint32_t av_p, av_u;        /* free credits seen by the sender */
    uint32_t cap_p, cap_u;      /* receiver capacity (packets, units) */
    uint32_t wire_p, wire_u;    /* on the wire (sent, not arrived) */
    uint32_t ret_p, ret_u;      /* credits travelling back (in cr) */
    uint32_t early_p, early_u;  /* sent back ahead (returning or back):
                                   the receiver still holds them until
                                   its completion is applied */
    uint32_t rx_p, rx_u;        /* held by a capped receiving host */
} ibcc_flane_;

typedef struct ibcc_fchan_ {
    /* what a sender reads to decide (together, at the front) */
    int busy;                   /* sending a packet whose completion (at
                                   xmit_end) is not applied yet */
    uint32_t end_wake;          /* an E_DONE is pending at that completion */
    ibcc_time xmit_end;         /* end of the packet being sent */
    uint64_t xmit_tick;         /* its completion's place among same-time
                                   events (a loop ticket) */
    ibcc_flane_ *lc;            /* credits per lane (nlanes entries): lc2
                                   with one data VL, else in lanemem */
    ibcc_flane_ lc2[2];         /* data and ACK lanes of a fabric of one
                                   VL, beside what the sender reads */
    ibcc_fcred_ *cr;            /* credits travelling back, by time: a
                                   ring of cr_cap entries, cr_n from
                                   cr_first (grows on demand) */
    uint32_t cr_first, cr_n, cr_cap;
    uint32_t room_wait;         /* the sender waits for credits */
    /* the link */
    uint32_t from, from_port, to, to_port;
    ibcc_rate rate;
    ibcc_time prop;
    uint32_t sz_data, sz_ack;   /* wire-time cache keys */
    ibcc_time wt_data, wt_ack;
    /* the packet being sent */
    uint32_t xmit_pkt;
    uint32_t xmit_in, xmit_lane, xmit_units, xmit_size; /* switch: the
                                   input, lane, credits and bytes of it */
    uint32_t xmit_iln;          /* switch: the lane it left at its input */
    uint32_t xmit_frees_in;     /* VCT: the completion frees the input */
    uint32_t xmit_from_obuf;    /* CIOQ data: sent from the output buffer */
    uint32_t vls;               /* data VLs the link runs (the fewer of
                                   its two ports') */
    uint64_t bytes;             /* total started */
    ibcc_time busy_time;        /* total time sending */
} ibcc_fchan_;

typedef struct ibcc_fbuf_ {
    uint32_t *q;                /* packet indices, arrival order */
    uint32_t n, cap;
    uint32_t occ_p, occ_u;      /* queued + held */
    uint32_t held_p, held_u;    /* departed, tail not yet out */
    ibcc_time free_at;          /* the input is busy until the completion
                                   of channel free_ch's packet at this
                                   time; 0: its kind's event frees it
                                   (VCT input free, CIOQ transfer end) */
    uint32_t free_ch;
} ibcc_fbuf_;

/* CIOQ output buffer of one port (data lane): a FIFO linked through the
   packets' next field. */
typedef struct ibcc_fobuf_ {
    uint32_t head, tail;        /* packets not yet started on the link */
    uint32_t n;                 /* packets in it, the one being sent
                                   included (its tail is still there) */
    uint32_t occ_u;             /* their units */
    uint32_t xbar;              /* 1: a crossbar transfer into it runs */
    uint32_t x_in, x_units, x_size; /* that transfer: input, units, bytes */
} ibcc_fobuf_;

typedef struct ibcc_fnode_ {
    uint32_t kind, ports, base; /* base: first index in per-port arrays */
    uint32_t idx;               /* index among switches or hosts */
} ibcc_fnode_;

struct ibcc_fswkind_;

/* A transmitter completion a switch has yet to apply. */
typedef struct ibcc_fdone_ {
    ibcc_time t;                /* the tail has left at t */
    uint64_t tick;              /* place among events at t */
    uint32_t port, pad_;
} ibcc_fdone_;

typedef struct ibcc_fsw_ {
    struct ibcc_fabric *f;      /* back pointer for the arbiter callback */
    const struct ibcc_fswkind_ *kind;
    uint32_t node;
    uint32_t lane;              /* lane the arbiter callback is asked for */
    int arb_pending;            /* on the current instant's to-do list */
    ibcc_fdone_ *done;          /* pending completions, a binary heap by
                                   (t, tick): at most one per output */
    uint32_t ndone;
    ibcc_event_id wake_id;
    ibcc_time wake_at;          /* IBCC_TIME_MAX: no wake-up pending */
    ibcc_arbiter *arb;          /* one per lane (data VLs, ACK) */
    ibcc_marker *mk;            /* one marking engine per data VL */
    ibcc_fobuf_ *obuf;          /* CIOQ: per port */
    /* several data VLs (NULL with one): */
    uint8_t *vsel;              /* per output: the lane its VL arbitration
                                   chose this round (0xff none, 0xfe a
                                   packet started) */
    uint32_t *vwant;            /* per output: VLs that could start */
    uint8_t *xl;                /* [(in * nlanes + lane) * ports + out]:
                                   the lane a packet of that input lane
                                   leaves on through out (SL-to-VL) */
    uint32_t ob_cap_p, ob_cap_u;/* CIOQ: output buffer capacity */
    void *mem;                  /* arbiters', marker's, obuf memory */
} ibcc_fsw_;

typedef struct ibcc_fhost_ {
    uint32_t node;
    uint32_t chan;              /* its output channel */
    uint32_t ackq_head, ackq_tail, ackq_n;
    uint32_t fifo_head, fifo_tail; /* nic_fifo: data in generation order */
    uint32_t first, nflows;     /* into ibcc_fabric.hflow */
    uint32_t *hf;               /* its flows: hf[0 .. nflows) (into hflow,
                                   or its own array once a source's
                                   queues outgrow it) */
    uint32_t hcap;              /* room in hf (and ready, in bits) */
    int hown;                   /* hf and ready are its own allocations */
    uint32_t eslots;            /* agent engine slots: its flows, then one
                                   per source at it */
    uint32_t rr;
    ibcc_event_id wake_id;
    ibcc_time wake_at;          /* IBCC_TIME_MAX: none pending */
    ibcc_time cap_next;         /* injection cap: next start allowed */
    ibcc_time rx_free;          /* absorption cap: receive side free at */
    int run_pending;            /* on the current instant's to-do list */
    uint64_t *ready;            /* bit per local flow: has data to send */
    void *engine[IBCC_F_AGENTS_]; /* per agent kind: the host's shared
                                   engine (CCT agent, MVCM agent) or NULL */
} ibcc_fhost_;

struct ibcc_fagent_;

typedef struct ibcc_fflow_ {
    ibcc_fabric_flow d;
    const struct ibcc_fagent_ *ag; /* source agent operations */
    void *as;                   /* source agent state of this flow */
    uint32_t local;             /* index among its host's flows */
    uint32_t eslot;             /* its index in its host's agent engine
                                   (CCT, MVCM): local for a flow, the
                                   source's slot for a source's queue */
    uint32_t src;               /* a source's queue: the source's index
                                   (IBCC_FABRIC_NONE: a flow of the desc) */
    uint32_t refs;              /* a source's queue: its packets and ACKs
                                   in the network */
    uint32_t host;              /* source host index */
    int on;                     /* active (started, in an ON period) */
    uint32_t lane;              /* its data lane at the source's port */
    uint32_t gate;              /* start conditions still unmet */
    uint32_t q_head, q_tail;    /* generated packets waiting (VOQ) */
    uint64_t q_n;               /* packets waiting at the source */
    uint64_t gen;               /* packets generated */
    uint32_t outstanding;       /* unacknowledged packets */
    uint32_t ack_n;             /* destination: packets not yet ACKed
                                   (dest.ack_every > 1) */
    unsigned ack_becn;          /* ... and the BECN one of them earned */
    ibcc_rng rng;               /* this flow's own random stream */
    ibcc_fabric_flow_stats st;
} ibcc_fflow_;

typedef struct ibcc_fclass_ {
    ibcc_fabric_class_stats st;
    uint64_t *hist;             /* IBCC_F_HBUCKETS_ latency buckets */
} ibcc_fclass_;

/* A source (L3 traffic): its generator's state and its per-destination
   queues, flows at indices nf.. of ibcc_fabric.flow, found through an
   open-addressing map keyed by (destination, class). */
typedef struct ibcc_fsrc_ {
    ibcc_fabric_source d;
    uint32_t host;              /* source host index */
    uint32_t self;              /* its place in d.hosts (host_count: none) */
    uint32_t eslot;             /* its queues' slot in the host's engine */
    const struct ibcc_fagent_ *ag; /* its queues' agent */
    int pend;                   /* m is the next message, due at m.t */
    int done;                   /* asks no more (limit, stop) */
    ibcc_time ev_at;            /* its pending E_SRC (IBCC_TIME_MAX: none) */
    ibcc_fabric_msg m;
    ibcc_rng rng;
    uint64_t msgs;              /* messages generated */
    uint64_t seq;               /* ALLTOALL: messages addressed so far */
    uint32_t *map;              /* 2 words per entry: key + 1 (0 empty),
                                   flow index */
    uint32_t map_cap, map_n, sweep;
    ibcc_fabric_flow_stats st;  /* of its released queues */
} ibcc_fsrc_;

struct ibcc_fabric {
    ibcc_fabric_desc d;
    ibcc_fabric_allocator al;
    ibcc_loop loop;
    void *loop_mem;
    uint32_t loop_max;          /* capacity the loop may grow to */
    uint32_t nn, nl, nch, nf, nsw, nh, nports;
    ibcc_fnode_ *node;
    uint32_t *out_ch, *in_ch;   /* [base + port] */
    uint32_t *port_node;        /* [base + port] -> node */
    uint16_t *route;            /* [((host idx << lmc) + lid) * nsw +
                                   switch idx] -> port (0xffff: none),
                                   see ibcc_fab_rt_ */
    uint32_t lmc;               /* desc.lmc: 2^lmc LIDs per host */
    ibcc_fchan_ *ch;
    ibcc_flane_ *lanemem;       /* channels' lanes: [c * nlanes + lane] */
    uint32_t nlanes;            /* lanes per channel and input: the most
                                   data VLs of any link + the ACK lane */
    ibcc_fbuf_ *buf;            /* [(base + port) * nlanes + lane] */
    uint32_t *bufmem;
    ibcc_fsw_ *sw;
    ibcc_fhost_ *host;
    ibcc_fflow_ *flow;
    uint32_t fcap;              /* flow entries allocated (nf + queues) */
    uint32_t nfx;               /* entries in use or free: nf .. nfx */
    uint32_t free_q;            /* free queue entries (list through
                                   q_head), IBCC_F_NONE_ when none */
    uint32_t nsrc;
    ibcc_fsrc_ *src;
    void **qas;                 /* queues' agent states, chunks of 256 */
    uint32_t nqas;
    size_t qas_stride;
    uint64_t q_live, q_peak, src_msgs;
    uint32_t *hflow;
    uint64_t *readymem;         /* the hosts' ready bitmaps */
    void *agent_mem;            /* per-flow agent states */
    uint32_t *after;            /* flows with start_after, ascending */
    uint32_t nafter, after_next;
    ibcc_fclass_ cls[IBCC_FABRIC_CLASSES];
    uint64_t *hist_mem;
    ibcc_fpkt_ **chunk;
    uint32_t nchunk, chunk_cap, free_pkt;
    uint64_t injected, delivered, hops;
    uint64_t data_delivered, bytes_sent, bytes_delivered;
    uint64_t nbins;
    uint64_t *flow_bins, *ch_bins;
    ibcc_dest dest;
    ibcc_pairstate pairs;       /* persistent per-pair law state */
    void *pairs_mem;
    ibcc_law_desc lawd;         /* effective law description */
    ibcc_law law_proto;         /* compiled law copied into LAW flows */
    void *law_mem;
    uint32_t *work;             /* nodes (switches to arbitrate, hosts to
                                   run) requested for the current
                                   instant, each once */
    uint32_t nwork;
    ibcc_result err;            /* first internal error (event heap full) */
    const struct ibcc_flink_ *link; /* the links' flow control (its
                                   switches' kinds name it) */
    /* STOP/GO links of wormhole fabrics (section 10) */
    ibcc_time wbt;              /* byte time: 10^12 / link rate ps */
    ibcc_time wfwd;             /* routing delay in whole byte times */
    uint32_t wcap;              /* slack buffer ring entries */
    ibcc_fworm_ *wm;            /* per channel */
    ibcc_fwent_ *wring;
    uint32_t *wrr;              /* per switch port: last input granted */
    ibcc_segment seg;
    /* virtual lanes */
    ibcc_vlarb *vla;            /* per port: its output's VL arbitration
                                   (NULL when every link has one VL) */
    uint8_t *ptab;              /* creation only: [port * 16 + sl] the
                                   port's SL-to-VL (15: drop) */
    uint8_t **iotab;            /* creation only: per switch, NULL or
                                   [(in * ports + out) * 16 + sl] */
    int drops;                  /* creation only: a table drops an SL */
    /* stall watchdog */
    ibcc_fabric_error lasterr;
    uint64_t prog;              /* packets moved at the last look */
    ibcc_time prog_at;          /* when that count last changed */
    ibcc_fabric_msg_fn msg_fn;  /* ibcc_fabric_on_message */
    void *msg_user;
};

/* The port switch sw (its index among switches) routes LID lid of host
   node dst to, IBCC_F_NONE_ when it has none. The table is by
   destination LID (host, then its 2^lmc LIDs), then switch, 16 bits an
   entry (a switch has at most IBCC_ARBITER_MAX_PORTS ports): a
   builder's routes, listed by destination, fill it in order, and a
   packet's hops read one row. */
static uint32_t ibcc_fab_rtl_(const ibcc_fabric *f, uint32_t sw,
                              uint32_t dst, uint32_t lid)
{
    uint32_t v = f->route[(((uint64_t)f->node[dst].idx << f->lmc) + lid)
                          * f->nsw + sw];
    return v == 0xffffu ? IBCC_F_NONE_ : v;
}

/* The same for dst's base LID (ACKs, sources, one-LID fabrics). */
static uint32_t ibcc_fab_rt_(const ibcc_fabric *f, uint32_t sw, uint32_t dst)
{
    return ibcc_fab_rtl_(f, sw, dst, 0);
}

/* Source agent: what decides when a flow may send (section 9). One table
   per IBCC_AGENT_* kind (ibcc_fab_agents_), every operation present;
   adding an agent is adding its enum value, its table and its functions.
   Shared code asks the table and never the kind. */
typedef struct ibcc_fagent_ {
    const char *name;           /* for messages: "LAW" */
    size_t state;               /* bytes of per-flow state (flow->as) */
    unsigned acks;              /* 1: it needs ACKs to send on (a window
                                   or a rate that only ACKs raise) */
    unsigned paces;             /* 1: it can hold a flow back */
    /* its rules for flow x (flows[i]) beyond the shared ones: IBCC_OK or
       the refusal, with its reason in f->d.error */
    ibcc_result (*check)(const ibcc_fabric *f, const ibcc_fabric_flow *x,
                         uint32_t i);
    /* the host's shared engine for flows of this kind (in h->engine[kind],
       or none) */
    ibcc_result (*host_init)(ibcc_fabric *f, ibcc_fhost_ *h);
    ibcc_result (*init)(ibcc_fabric *f, ibcc_fflow_ *fl);
    /* earliest time its next packet may start; IBCC_TIME_MAX while the
       window is closed (an ACK wakes the host) */
    ibcc_time (*next)(const ibcc_fabric *f, const ibcc_fflow_ *fl);
    void (*sent)(ibcc_fabric *f, ibcc_fflow_ *fl, ibcc_time wire);
    void (*ack)(ibcc_fabric *f, ibcc_fflow_ *fl, unsigned hdr,
                unsigned marks);
    void (*queued)(ibcc_fabric *f, ibcc_fflow_ *fl); /* a generated packet
                                   entered the flow's empty queue */
    void (*restart)(ibcc_fabric *f, ibcc_fflow_ *fl); /* new ON period */
    void (*end)(ibcc_fabric *f, ibcc_fflow_ *fl);     /* period over */
    const ibcc_law *(*law)(const ibcc_fflow_ *fl); /* its rate law or NULL
                                   (ibcc_fabric_flow_law) */
    /* 1 when its state is at rest: a fresh state would act the same from
       now on (a source's queue with nothing in the network may then be
       dropped, L3 traffic) */
    int (*idle)(const ibcc_fabric *f, const ibcc_fflow_ *fl);
    /* its rules for a source's queues (x: the source's flow template;
       IBCC_OK or the refusal, with its reason in f->d.error) */
    ibcc_result (*src_check)(const ibcc_fabric *f,
                             const ibcc_fabric_flow *x, uint32_t i);
} ibcc_fagent_;

/* Link flow control: how bytes cross links into buffers, one per fabric
   (its switch kinds name it). CREDITS (sections 2-8): packets, input
   buffers counted in packets and 64-byte credits, VCT and CIOQ switches.
   STOP/GO (section 10): worms streaming byte by byte into slack buffers,
   WORMHOLE switches. Every operation is present. */
typedef struct ibcc_flink_ {
    const char *name;
    /* after the flows are made: its rules for the fabric (IBCC_OK or the
       refusal, with its reason in f->d.error) and its own state */
    ibcc_result (*setup)(ibcc_fabric *f);
    /* loop events it may have pending at once beyond the shared bound */
    uint64_t (*events)(const ibcc_fabric *f);
    /* host h may send (it was woken or is on the instant's to-do list) */
    void (*host_run)(ibcc_fabric *f, uint32_t h);
    /* its conservation at the current instant (ibcc_fabric_check): adds
       the packets it locates (on wires, in buffers) to *located */
    ibcc_result (*check)(const ibcc_fabric *f, uint64_t *located);
    /* channel c's bytes started and time busy up to now */
    void (*totals)(const ibcc_fabric *f, uint32_t c, uint64_t *bytes,
                   ibcc_time *busy);
    /* its events IBCC_F_E_LINK0_ and _LINK1_ (argument: its own) */
    void (*event[2])(ibcc_fabric *f, uint64_t idx);
    /* the stall watchdog: a count that grows whenever data moves on its
       links; and, when it did not grow for desc.stall, the channels
       whose packets wait (written as text into buf, at most len bytes
       with the NUL) and how many, 0 when nothing waits in the network */
    uint64_t (*progress)(const ibcc_fabric *f);
    uint32_t (*blocked)(const ibcc_fabric *f, char *buf, size_t len);
} ibcc_flink_;

/* Switch kind: how a switch buffers and forwards (sections 5 and 10).
   One table per IBCC_SWITCH_* (ibcc_fab_kind_), every operation
   present; shared code asks the table and never the kind. A new kind is
   its enum value, its table and its functions. */
typedef struct ibcc_fswkind_ {
    const char *name;           /* for messages: "CIOQ" */
    const ibcc_flink_ *link;    /* the flow control of its links */
    uint32_t max_vls;           /* data VLs its ports can run (1: it has
                                   one data lane) */
    /* creation: the marker's organisation (md) and the bytes of its own
       per-switch state at node `node`; then that state, zeroed, at mem */
    size_t (*setup)(const ibcc_fabric *f, uint32_t node,
                    ibcc_marker_desc *md);
    void (*init)(ibcc_fabric *f, ibcc_fsw_ *w, void *mem);
    /* the end of an instant on the to-do list: start what can start */
    void (*arbitrate)(ibcc_fabric *f, ibcc_fsw_ *w);
    /* data lane: can output `out` take a unit of `size` bytes on lane ln
       (a data VL's) now? */
    int (*can_take)(ibcc_fabric *f, ibcc_fsw_ *w, unsigned out, uint32_t ln,
                    uint32_t size);
    /* data lane: unit pi (a packet, a worm) from input `in` won `out` */
    void (*picked)(ibcc_fabric *f, ibcc_fsw_ *w, uint32_t pi, unsigned in,
                   unsigned out);
    /* data lane: output channel c finished sending its unit */
    void (*txend)(ibcc_fabric *f, ibcc_fsw_ *w, uint32_t c);
    /* its event IBCC_F_E_SWITCH_ at input or output `port` (aux: 0..31,
       its own meaning) */
    void (*event)(ibcc_fabric *f, ibcc_fsw_ *w, uint32_t port, uint32_t aux);
    /* the check: packets (*pk) and units (returned) that departed from
       input `port`, lane ln, while their tails still hold room there;
       *early: 1 when their credits went back early (ibcc_fab_credit_early_)
       */
    uint64_t (*held)(const ibcc_fabric *f, const ibcc_fsw_ *w, uint32_t port,
                     uint32_t ln, uint64_t *pk, int *early);
    /* the check: its own state; adds the packets it holds to *located */
    ibcc_result (*check)(const ibcc_fabric *f, const ibcc_fsw_ *w,
                         uint64_t *located);
    /* 1 when can_take is ibcc_fab_out_ready_'s answer for the output's
       channel (so a busy transmitter refuses data as it refuses ACKs):
       the data arbiters then close busy outputs too (ibcc_fab_out_sync_) */
    uint32_t takes_from_channel;
} ibcc_fswkind_;

/* ---- memory and the packet pool ------------------------------------------- */
/* Zeroed memory: calloc by default (large blocks stay untouched, so
   unused buffer capacity costs address space, not memory), the caller's
   allocator + memset otherwise. */
static void *ibcc_fab_alloc_(ibcc_fabric_allocator *a, size_t n)
{
    void *p;
    if (n == 0) return NULL;    /* ibcc_fab_mul_ overflowed: no memory */
    if (!a->alloc) return calloc(1, n);
    p = a->alloc(a->user, n);
    if (p) memset(p, 0, n);
    return p;
}
static void ibcc_fab_free_(ibcc_fabric_allocator *a, void *p)
{
    if (!p) return;
    if (a->free) a->free(a->user, p); else free(p);
}
/* n * size with overflow check (0 on overflow). */
static size_t ibcc_fab_mul_(size_t n, size_t size)
{
    if (size != 0 && n > ((size_t)-1) / size) return 0;
    return n * size;
}

static ibcc_fpkt_ *ibcc_fab_pkt_(const ibcc_fabric *f, uint32_t i)
{
    return &f->chunk[i / IBCC_F_CHUNK_][i % IBCC_F_CHUNK_];
}

/* Takes a packet from the pool, growing it by one chunk when empty.
   IBCC_F_NONE_ (and f->err = NOMEM) when memory runs out. */
static uint32_t ibcc_fab_pkt_new_(ibcc_fabric *f)
{
    uint32_t i;
    ibcc_fpkt_ *p;
    if (f->free_pkt == IBCC_F_NONE_) {
        ibcc_fpkt_ *c;
        uint32_t k;
        if (f->nchunk == f->chunk_cap) {
            uint32_t ncap = f->chunk_cap ? f->chunk_cap * 2u : 16u;
            ibcc_fpkt_ **nc = (ibcc_fpkt_ **)ibcc_fab_alloc_(&f->al,
                                    ibcc_fab_mul_(ncap, sizeof *nc));
            if (!nc || ncap > 0x3ffff0u) {
                ibcc_fab_free_(&f->al, nc);
                if (f->err == IBCC_OK) f->err = IBCC_ERR_NOMEM;
                return IBCC_F_NONE_;
            }
            if (f->nchunk) memcpy(nc, f->chunk, f->nchunk * sizeof *nc);
            ibcc_fab_free_(&f->al, f->chunk);
            f->chunk = nc;
            f->chunk_cap = ncap;
        }
        c = (ibcc_fpkt_ *)ibcc_fab_alloc_(&f->al,
                                          IBCC_F_CHUNK_ * sizeof *c);
        if (!c) {
            if (f->err == IBCC_OK) f->err = IBCC_ERR_NOMEM;
            return IBCC_F_NONE_;
        }
        f->chunk[f->nchunk] = c;
        for (k = IBCC_F_CHUNK_; k-- > 0;) {
            c[k].next = f->free_pkt;
            f->free_pkt = f->nchunk * IBCC_F_CHUNK_ + k;
        }
        f->nchunk++;
    }
    i = f->free_pkt;
    p = ibcc_fab_pkt_(f, i);
    f->free_pkt = p->next;
    memset(p, 0, sizeof *p);
    p->next = IBCC_F_NONE_;
    f->injected++;
    return i;
}

static void ibcc_fab_q_unref_(ibcc_fabric *f, uint32_t fi); /* 1b */

static void ibcc_fab_pkt_del_(ibcc_fabric *f, uint32_t i)
{
    ibcc_fpkt_ *p = ibcc_fab_pkt_(f, i);
    uint32_t fi = p->flow;
    p->next = f->free_pkt;
    p->size = 0;                /* marks the slot free for the check */
    f->free_pkt = i;
    f->delivered++;
    if (fi >= f->nf) ibcc_fab_q_unref_(f, fi);  /* a source's queue */
}

/* ---- small helpers -------------------------------------------------------- */
/* Fills a refusal's record (err may be NULL: nothing to fill) and
   returns its code, so that a check reads
       return ibcc_fab_err_(e, IBCC_ERR_RANGE, NULL, 0, "field %u: rule", v);
   file and line are the loader's (NULL and 0 elsewhere). IBCC_OK with
   an empty format clears the record. */
static ibcc_result ibcc_fab_err_(ibcc_fabric_error *err, ibcc_result code,
                                 const char *file, uint32_t line,
                                 const char *fmt, ...)
#if defined(__GNUC__) || defined(__clang__)
    __attribute__((format(printf, 5, 6)))
#endif
    ;
static ibcc_result ibcc_fab_err_(ibcc_fabric_error *err, ibcc_result code,
                                 const char *file, uint32_t line,
                                 const char *fmt, ...)
{
    va_list ap;
    if (!err) return code;
    memset(err, 0, sizeof *err);
    err->code = code;
    err->line = line;
    snprintf(err->file, sizeof err->file, "%s", file ? file : "");
    va_start(ap, fmt);
    vsnprintf(err->reason, sizeof err->reason, fmt, ap);
    va_end(ap);
    return code;
}

static void ibcc_fab_event_(ibcc_loop *l, void *ctx, uint64_t arg);

/* Doubles the event loop's capacity, up to the bound the fabric can ever
   need (so memory follows the events actually pending, not the buffer
   capacities). IBCC_ERR_FULL at the bound, NOMEM. */
static ibcc_result ibcc_fab_grow_loop_(ibcc_fabric *f)
{
    ibcc_loop_desc ld;
    size_t sz;
    void *mem;
    ibcc_result r;
    if (f->loop.cap >= f->loop_max) return IBCC_ERR_FULL;
    ld.capacity = f->loop.cap > f->loop_max / 2u ? f->loop_max
                                                 : 2u * f->loop.cap;
    if ((r = ibcc_loop_size(&ld, &sz)) != IBCC_OK) return r;
    mem = ibcc_fab_alloc_(&f->al, sz);
    if (!mem) return IBCC_ERR_NOMEM;
    r = ibcc_loop_grow(&f->loop, &ld, mem, sz);
    if (r != IBCC_OK) {
        ibcc_fab_free_(&f->al, mem);
        return r;
    }
    ibcc_fab_free_(&f->al, f->loop_mem);
    f->loop_mem = mem;
    return IBCC_OK;
}

/* Schedules fabric event (type, idx) at t >= now, in the place `tick`
   among same-time events: a ticket taken earlier (a completion's), or
   IBCC_F_NEW_ for the next place as ibcc_loop_at gives it. */
#define IBCC_F_NEW_ UINT64_MAX
static void ibcc_fab_put_(ibcc_fabric *f, ibcc_time t, uint32_t type,
                          uint64_t idx, uint64_t tick, ibcc_event_id *id)
{
    uint64_t arg = (idx << 4) | type;
    ibcc_result r;
    if (tick == IBCC_F_NEW_) tick = ibcc_loop_ticket_(&f->loop);
    r = ibcc_loop_put_(&f->loop, t, ibcc_fab_event_, f, arg, tick, id);
    if (r == IBCC_ERR_FULL && (r = ibcc_fab_grow_loop_(f)) == IBCC_OK)
        r = ibcc_loop_put_(&f->loop, t, ibcc_fab_event_, f, arg, tick, id);
    if (r != IBCC_OK && f->err == IBCC_OK) f->err = r;
}

static void ibcc_fab_at_(ibcc_fabric *f, ibcc_time t, uint32_t type,
                         uint64_t idx, ibcc_event_id *id)
{
    ibcc_fab_put_(f, t, type, idx, IBCC_F_NEW_, id);
}

static ibcc_time ibcc_fab_wire_(const ibcc_fchan_ *c, uint32_t size)
{
    ibcc_time t = 0;
    if (size == c->sz_data) return c->wt_data;
    if (size == c->sz_ack) return c->wt_ack;
    (void)ibcc_wire_time(size, c->rate, &t); /* validated at create */
    return t;
}

static uint32_t ibcc_fab_units_(uint32_t size)
{
    return (size + 63u) / 64u;
}

/* Adds `bytes` received during [t0, t1) to a series: each bin gets the
   share of the bytes that its overlap with the interval holds (rounded
   down; the last piece takes the remainder), so a link's bins never hold
   more than it can carry in them. */
static void ibcc_fab_bin_(ibcc_fabric *f, uint64_t *bins, ibcc_time t0,
                          ibcc_time t1, uint32_t bytes)
{
    uint64_t b, b1, left = bytes;
    ibcc_time len = t1 - t0;
    if (!bins) return;
    b = t0 / f->d.bin;
    b1 = t1 ? (t1 - 1u) / f->d.bin : 0;
    for (; b <= b1 && b < f->nbins; b++) {
        uint64_t piece = left;
        if (b < b1 && len) {
            ibcc_time end = (b + 1u) * f->d.bin;
            ibcc_time from = b * f->d.bin < t0 ? t0 : b * f->d.bin;
            /* bytes * overlap / len without overflow: overlap <= len */
            piece = (uint64_t)((double)bytes * (double)(end - from)
                               / (double)len);
            if (piece > left) piece = left;
        }
        bins[b] += piece;
        left -= piece;
    }
}

static void ibcc_fab_view_(const ibcc_fabric *f, const ibcc_fpkt_ *p,
                           uint32_t node, ibcc_time t, ibcc_fabric_pkt *v)
{
    const ibcc_fflow_ *fl = &f->flow[p->flow];
    v->flow = p->flow < f->nf ? p->flow : IBCC_FABRIC_NONE;
    v->source = p->flow < f->nf ? IBCC_FABRIC_NONE : fl->src;
    v->src = fl->d.src;
    v->dst = fl->d.dst;
    v->msg = p->msg;
    v->node = node;
    v->size = p->size;
    v->lane = p->vl ? 0u : p->lane;
    v->vl = p->vl;
    v->last = p->last;
    v->hdr = p->hdr;
    v->t_inject = p->t_inject;
    v->t = t;
    v->t_gen = p->t_gen;
    v->t_head = 0;
}

/* Can channel c accept a packet of `units` on lane ln now? */
static int ibcc_fab_room_(const ibcc_fchan_ *ch, uint32_t ln, uint32_t units)
{
    return ch->lc[ln].av_p != 0 && ch->lc[ln].av_u >= units;
}

/* The random stream of entity `id`: seeded from (seed, id) through
   splitmix64 so that streams of different entities are unrelated and an
   entity's draws do not depend on how many other entities exist. */
static void ibcc_fab_stream_(ibcc_rng *r, uint64_t seed, uint64_t id)
{
    uint64_t x = seed ^ (id * UINT64_C(0x9e3779b97f4a7c15));
    ibcc_rng_seed(r, ibcc_splitmix64_(&x) ^ id);
}

static ibcc_time ibcc_fab_exp_(ibcc_rng *r, ibcc_time mean)
{
    double x = ibcc_rng_exp(r, (double)mean);
    if (x < 1.0) return 1;
    if (x >= 1.8e19) return IBCC_TIME_MAX / 4u;
    return (ibcc_time)x;
}

/* a + b, saturating at IBCC_TIME_MAX (far event times, latency sums) */
static ibcc_time ibcc_fab_sat_(ibcc_time a, ibcc_time b)
{
    return b > IBCC_TIME_MAX - a ? IBCC_TIME_MAX : a + b;
}

/* ---- the same-instant to-do list ------------------------------------------ */
/* Same-instant rule: a switch arbitrates, and a host decides what to
   send, only after every event of the current instant has been applied.
   Requests for the current instant go on a to-do list (each switch and
   host at most once per instant), worked off in node order by the loop's
   end-of-instant hook (ibcc_loop_set_idle), which runs after the last
   event due at the current time: no event is spent on it. */
static void ibcc_fab_kick_sw_(ibcc_fabric *f, uint32_t s)
{
    ibcc_fsw_ *w = &f->sw[s];
    if (w->arb_pending) return;     /* already on the list */
    w->arb_pending = 1;
    f->work[f->nwork++] = w->node;
}

/* Requests a host send attempt at time t (>= now). For the current
   instant it goes on the to-do list (and a later timed wake-up is dropped:
   the run re-requests what it needs); for a later time one timed E_HOST
   is kept, the earliest, in the place `tick` (as ibcc_fab_put_). */
static void ibcc_fab_wake_host_at_(ibcc_fabric *f, uint32_t h, ibcc_time t,
                                   uint64_t tick)
{
    ibcc_fhost_ *o = &f->host[h];
    ibcc_time now = f->loop.now;
    if (t <= now) {
        if (o->wake_at != IBCC_TIME_MAX) {
            (void)ibcc_loop_cancel(&f->loop, o->wake_id);
            o->wake_at = IBCC_TIME_MAX;
        }
        if (o->run_pending) return;     /* already on the list */
        o->run_pending = 1;
        f->work[f->nwork++] = o->node;
        return;
    }
    if (o->wake_at != IBCC_TIME_MAX) {
        if (o->wake_at <= t) return;
        (void)ibcc_loop_cancel(&f->loop, o->wake_id);
    }
    o->wake_at = t;
    ibcc_fab_put_(f, t, IBCC_F_E_HOST_, h, tick, &o->wake_id);
}

static void ibcc_fab_wake_host_(ibcc_fabric *f, uint32_t h, ibcc_time t)
{
    ibcc_fab_wake_host_at_(f, h, t, IBCC_F_NEW_);
}

/* Requests an arbitration of switch s at time t (>= now): the to-do list
   for the current instant, else one timed E_SWAKE, the earliest (an
   arbitration asks again for every packet still blocked, so a later
   request may be dropped). */
static void ibcc_fab_wake_sw_(ibcc_fabric *f, uint32_t s, ibcc_time t)
{
    ibcc_fsw_ *w = &f->sw[s];
    if (t <= f->loop.now) {
        ibcc_fab_kick_sw_(f, s);
        return;
    }
    if (w->wake_at != IBCC_TIME_MAX) {
        if (w->wake_at <= t) return;
        (void)ibcc_loop_cancel(&f->loop, w->wake_id);
    }
    w->wake_at = t;
    ibcc_fab_at_(f, t, IBCC_F_E_SWAKE_, s, &w->wake_id);
}

/* Requests an arbitration of channel c's sending switch when its packet
   completes, in that completion's place (E_DONE, one per packet). */
static void ibcc_fab_out_sync_(ibcc_fabric *f, uint32_t c);
static void ibcc_fab_wake_end_(ibcc_fabric *f, uint32_t c)
{
    ibcc_fchan_ *ch = &f->ch[c];
    if (ch->end_wake) return;
    ch->end_wake = 1;
    ibcc_fab_put_(f, ch->xmit_end, IBCC_F_E_DONE_, c, ch->xmit_tick, NULL);
    ibcc_fab_out_sync_(f, c);
}

/* Closed outputs. While a switch output's transmitter is busy and the
   E_DONE that wakes its switch at the completion is pending (busy &&
   end_wake), asking whether it can take a packet finds it busy and calls
   ibcc_fab_wake_end_, which then does nothing: the answer is no, with no
   effect. The switch's arbiters hold such an output closed
   (ibcc_arbiter_close_output), so that an arbitration refuses it without
   reading its channel and skips the inputs whose packets all wait for
   closed outputs: the same picks and wake-ups, fewer cache lines (in a
   switch of many ports most waiting packets wait for a busy output, and
   every arbitration would ask again). The ACK arbiter always (its
   outputs' answer is ibcc_fab_out_ready_'s), the data arbiters when the
   kind's can_take is that too (takes_from_channel). Called wherever
   busy or end_wake of a channel changes so that busy && end_wake does
   (host channels: nothing). */
static void ibcc_fab_out_sync_(ibcc_fabric *f, uint32_t c)
{
    const ibcc_fchan_ *ch = &f->ch[c];
    const ibcc_fnode_ *n = &f->node[ch->from];
    ibcc_fsw_ *w;
    int closed = ch->busy && ch->end_wake;
    uint32_t ln;
    if (n->kind != IBCC_FABRIC_SWITCH) return;
    w = &f->sw[n->idx];
    for (ln = 0; ln < f->nlanes; ln++)
        if (ln == IBCC_F_ACK_ || w->kind->takes_from_channel)
            (void)ibcc_arbiter_close_output(&w->arb[ln], ch->from_port,
                                            closed);
}

static void ibcc_fab_wake_node_(ibcc_fabric *f, uint32_t node, ibcc_time t)
{
    const ibcc_fnode_ *n = &f->node[node];
    if (n->kind == IBCC_FABRIC_SWITCH) ibcc_fab_wake_sw_(f, n->idx, t);
    else ibcc_fab_wake_host_(f, n->idx, t);
}

/* ---- completions and credits, applied when due -----------------------------
   When a packet starts on a channel, the time its tail leaves the sender
   (xmit_end) is known, and at a switch input so is the time its credits
   get back upstream. Neither is an event of its own:
   - a switch applies its due completions (ibcc_fab_settle_: the
     transmitter is free, the input slot released) before anything reads
     or changes its state, each in the place among same-time events that
     a completion event would have had (a loop ticket taken at the start);
   - credits travel in a per-channel list ordered by time; the sender
     takes those due (ibcc_fab_credits_in_) before it looks at its
     credits;
   - only what something waits for gets an event: a switch wakes at a
     completion when a packet waits for that output or input, a sender
     when credits return while it waits for them, a host at its own
     completion when it has more to send. */

/* Credits of `units` on lane ln reach channel c's sender at t. early:
   they were sent back when the packet started (the receiver releases
   the room when its completion is applied); they come after every
   event of their instant. Otherwise they take their place now, as an
   event scheduled now would. */
static void ibcc_fab_credit_send_(ibcc_fabric *f, uint32_t c, ibcc_time t,
                                  uint32_t ln, uint32_t units, int early)
{
    ibcc_fchan_ *ch = &f->ch[c];
    uint32_t k, m;
    uint64_t tick;
    if (ch->cr_n == ch->cr_cap) {       /* grow the ring: 8, 16, ... */
        uint32_t cap = ch->cr_cap ? 2u * ch->cr_cap : 8u;
        ibcc_fcred_ *r = (ibcc_fcred_ *)ibcc_fab_alloc_(&f->al,
                                                      cap * sizeof *r);
        if (!r) {
            if (f->err == IBCC_OK) f->err = IBCC_ERR_NOMEM;
            return;
        }
        for (k = 0; k < ch->cr_n; k++)
            r[k] = ch->cr[(ch->cr_first + k) & (ch->cr_cap - 1u)];
        ibcc_fab_free_(&f->al, ch->cr);
        ch->cr = r;
        ch->cr_cap = cap;
        ch->cr_first = 0;
    }
    /* in (time, place) order: nearly always at the back (one overtakes
       only from a faster link or the other lane) */
    tick = early ? UINT64_MAX - 1u : ibcc_loop_ticket_(&f->loop);
    m = ch->cr_cap - 1u;
    for (k = ch->cr_n; k > 0; k--) {
        const ibcc_fcred_ *prev = &ch->cr[(ch->cr_first + k - 1u) & m];
        if (prev->t < t || (prev->t == t && prev->tick <= tick)) break;
        ch->cr[(ch->cr_first + k) & m] = *prev;
    }
    ch->cr[(ch->cr_first + k) & m].t = t;
    ch->cr[(ch->cr_first + k) & m].tick = tick;
    ch->cr[(ch->cr_first + k) & m].units = units;
    ch->cr[(ch->cr_first + k) & m].lane = ln;
    ch->cr_n++;
    ch->lc[ln].ret_p++;
    ch->lc[ln].ret_u += units;
    if (early) {
        ch->lc[ln].early_p++;
        ch->lc[ln].early_u += units;
    }
    if (ch->room_wait) ibcc_fab_wake_node_(f, ch->from, t);
}

/* Credits due before the place (now, before) are back at channel ch's
   sender (as ibcc_fab_settle_ for completions). */
static void ibcc_fab_credits_before_(ibcc_fchan_ *ch, ibcc_time now,
                                     uint64_t before)
{
    while (ch->cr_n && (ch->cr[ch->cr_first].t < now
                        || (ch->cr[ch->cr_first].t == now
                            && ch->cr[ch->cr_first].tick < before))) {
        const ibcc_fcred_ *e = &ch->cr[ch->cr_first];
        ch->lc[e->lane].ret_p--;
        ch->lc[e->lane].ret_u -= e->units;
        ch->lc[e->lane].av_p++;
        ch->lc[e->lane].av_u += e->units;
        ch->cr_first = (ch->cr_first + 1u) & (ch->cr_cap - 1u);
        ch->cr_n--;
        ch->room_wait = 0;     /* its wake-up, at that credit, is due */
    }
}

/* Credits due by now are back at channel ch's sender: before a sender
   decides (the end of the instant). */
static void ibcc_fab_credits_in_(ibcc_fabric *f, ibcc_fchan_ *ch)
{
    ibcc_fab_credits_before_(ch, f->loop.now, UINT64_MAX);
}

/* Channel c's sender found too few credits: it wakes when the next ones
   return (now known, or sent back later: ibcc_fab_credit_send_). */
static void ibcc_fab_wait_room_(ibcc_fabric *f, uint32_t c)
{
    ibcc_fchan_ *ch = &f->ch[c];
    ch->room_wait = 1;
    if (ch->cr_n) ibcc_fab_wake_node_(f, ch->from, ch->cr[ch->cr_first].t);
}

/* Can switch output channel c start a packet of `units` on lane ln now
   (transmitter free, credits)? If not, its switch wakes when that may
   change: at the completion, or when credits come back. (An arbitration
   asks again for every packet still blocked, so a wake-up that finds
   nothing to do costs nothing more.) The busy test comes first: closed
   outputs (ibcc_fab_out_sync_) rely on a busy channel with its E_DONE
   pending answering no with no effect. */
static int ibcc_fab_out_ready_(ibcc_fabric *f, uint32_t c, uint32_t ln,
                               uint32_t units)
{
    ibcc_fchan_ *ch = &f->ch[c];
    if (ch->busy) {
        ibcc_fab_wake_end_(f, c);
        return 0;
    }
    ibcc_fab_credits_in_(f, ch);
    if (!ibcc_fab_room_(ch, ln, units)) {
        ibcc_fab_wait_room_(f, c);
        return 0;
    }
    return 1;
}

/* Completion heap of a switch, by (t, tick). */
static int ibcc_fab_done_lt_(const ibcc_fdone_ *a, const ibcc_fdone_ *b)
{
    return a->t < b->t || (a->t == b->t && a->tick < b->tick);
}

static void ibcc_fab_done_push_(ibcc_fsw_ *w, ibcc_time t, uint64_t tick,
                                uint32_t port)
{
    uint32_t i = w->ndone++;
    ibcc_fdone_ x;
    x.t = t;
    x.tick = tick;
    x.port = port;
    x.pad_ = 0;
    while (i > 0 && ibcc_fab_done_lt_(&x, &w->done[(i - 1u) / 2u])) {
        w->done[i] = w->done[(i - 1u) / 2u];
        i = (i - 1u) / 2u;
    }
    w->done[i] = x;
}

static void ibcc_fab_done_pop_(ibcc_fsw_ *w)
{
    ibcc_fdone_ x = w->done[--w->ndone];
    uint32_t i = 0, n = w->ndone;
    for (;;) {
        uint32_t c = 2u * i + 1u;
        if (c >= n) break;
        if (c + 1u < n && ibcc_fab_done_lt_(&w->done[c + 1u], &w->done[c])) c++;
        if (!ibcc_fab_done_lt_(&w->done[c], &x)) break;
        w->done[i] = w->done[c];
        i = c;
    }
    if (n) w->done[i] = x;
}

static void ibcc_fab_complete_(ibcc_fabric *f, ibcc_fsw_ *w, uint32_t port);

/* Applies switch w's completions due before the place (now, before):
   `before` is the running event's ticket (those scheduled earlier at
   this instant come first), UINT64_MAX at the end of the instant. */
static void ibcc_fab_settle_(ibcc_fabric *f, ibcc_fsw_ *w, uint64_t before)
{
    ibcc_time now = f->loop.now;
    while (w->ndone) {
        uint32_t port = w->done[0].port;
        if (w->done[0].t > now
            || (w->done[0].t == now && w->done[0].tick >= before))
            break;
        ibcc_fab_done_pop_(w);
        ibcc_fab_complete_(f, w, port);
    }
}

/* ---- event dispatch ------------------------------------------------------- */

/* Steps defined further down, in the packet's order (section number). */
static void ibcc_fab_start_gate_(ibcc_fabric *f, uint32_t fi);        /* 1 */
static void ibcc_fab_flow_event_(ibcc_fabric *f, uint32_t fi, int turn_on);
static void ibcc_fab_gen_event_(ibcc_fabric *f, uint32_t fi);
static void ibcc_fab_src_event_(ibcc_fabric *f, uint32_t si);
static void ibcc_fab_host_run_(ibcc_fabric *f, uint32_t h);            /* 2 */
static ibcc_time ibcc_fab_send_(ibcc_fabric *f, uint32_t c, uint32_t pi,
                                ibcc_time tail_in);                    /* 3 */
static void ibcc_fab_arrive_(ibcc_fabric *f, uint32_t pi);             /* 4 */
static void ibcc_fab_host_receive_(ibcc_fabric *f, uint32_t pi,
                                   int from_rx);                       /* 7 */

static int ibcc_fab_u32cmp_(const void *a, const void *b)
{
    uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
    return x < y ? -1 : x > y;
}

/* Works off the to-do list of the current instant, in node order: what
   is decided at an instant does not depend on the order in which its
   events were applied. (A short list, the usual case, is sorted by
   insertion; a long one by qsort: each node is on it once, so the order
   is unique.) */
static void ibcc_fab_flush_(ibcc_fabric *f)
{
    uint32_t k;
    if (f->nwork > 16u) {
        qsort(f->work, f->nwork, sizeof *f->work, ibcc_fab_u32cmp_);
    } else {
        for (k = 1; k < f->nwork; k++) {
            uint32_t x = f->work[k], j = k;
            for (; j > 0 && f->work[j - 1u] > x; j--) f->work[j] = f->work[j - 1u];
            f->work[j] = x;
        }
    }
    for (k = 0; k < f->nwork; k++) {
        const ibcc_fnode_ *n = &f->node[f->work[k]];
        if (n->kind == IBCC_FABRIC_SWITCH) {
            ibcc_fsw_ *w = &f->sw[n->idx];
            w->arb_pending = 0;
            w->kind->arbitrate(f, w);
        } else {
            f->host[n->idx].run_pending = 0;
            f->link->host_run(f, n->idx);
        }
    }
    f->nwork = 0;
}

/* The loop's end-of-instant hook: every event of this instant has been
   applied, so the switches and hosts on the to-do list decide now. */
static void ibcc_fab_idle_(ibcc_loop *l, void *ctx, uint64_t arg)
{
    ibcc_fabric *f = (ibcc_fabric *)ctx;
    (void)l;
    (void)arg;
    if (f->nwork) ibcc_fab_flush_(f);
}

/* The loop calls this for every fabric event; each case is one step of a
   packet's life (sections 1-8 and 10 below). The instant's to-do list is
   worked off by ibcc_fab_idle_ once the instant is over. */
static void ibcc_fab_event_(ibcc_loop *l, void *ctx, uint64_t arg)
{
    ibcc_fabric *f = (ibcc_fabric *)ctx;
    uint64_t idx = arg >> 4;
    (void)l;
    switch ((uint32_t)(arg & 15u)) {
    case IBCC_F_E_START_:                 /* 1. generation */
        ibcc_fab_start_gate_(f, (uint32_t)idx);
        break;
    case IBCC_F_E_FLOW_:
        ibcc_fab_flow_event_(f, (uint32_t)(idx >> 1), (int)(idx & 1u));
        break;
    case IBCC_F_E_GEN_:
        ibcc_fab_gen_event_(f, (uint32_t)idx);
        break;
    case IBCC_F_E_SRC_:                   /* 1b. a source's message */
        ibcc_fab_src_event_(f, (uint32_t)idx);
        break;
    case IBCC_F_E_HOST_:                  /* 2. timed wake-up: join the
                                             instant's to-do list */
        f->host[idx].wake_at = IBCC_TIME_MAX;
        ibcc_fab_wake_host_(f, (uint32_t)idx, f->loop.now);
        break;
    case IBCC_F_E_ARRIVE_:                /* 4. switch / 7. host */
        ibcc_fab_arrive_(f, (uint32_t)idx);
        break;
    case IBCC_F_E_SWITCH_: {              /* 5, 10. the switch kind's */
        uint32_t gp = (uint32_t)(idx >> 5);
        const ibcc_fnode_ *n = &f->node[f->port_node[gp]];
        ibcc_fsw_ *w = &f->sw[n->idx];
        w->kind->event(f, w, gp - n->base, (uint32_t)(idx & 31u));
        break;
    }
    case IBCC_F_E_SWAKE_:                 /* 5. timed wake-up: join the
                                             instant's to-do list */
        f->sw[idx].wake_at = IBCC_TIME_MAX;
        ibcc_fab_kick_sw_(f, (uint32_t)idx);
        break;
    case IBCC_F_E_DONE_:                  /* 5. a completion waited for */
        f->ch[idx].end_wake = 0;
        if (f->ch[idx].busy) ibcc_fab_out_sync_(f, (uint32_t)idx); /* was
                                                                    closed */
        ibcc_fab_kick_sw_(f, f->node[f->ch[idx].from].idx);
        break;
    case IBCC_F_E_RXDONE_:                /* 7. capped host absorbed it */
        ibcc_fab_host_receive_(f, (uint32_t)idx, 1);
        break;
    case IBCC_F_E_LINK0_:                 /* 3, 10. the flow control's */
        f->link->event[0](f, idx);
        break;
    case IBCC_F_E_LINK1_:
        f->link->event[1](f, idx);
        break;
    default:
        break;
    }
}

/* ---- 1. generation: flows start, stop, toggle; packets appear ------------- */

/* Bytes of the unit a flow generates at once: a message or a packet. */
static uint64_t ibcc_fab_unit_bytes_(const ibcc_fflow_ *fl)
{
    return fl->d.msg_bytes ? fl->d.msg_bytes : fl->d.size;
}

/* May the flow generate another unit (packet limit)? */
static int ibcc_fab_may_gen_(const ibcc_fflow_ *fl)
{
    return fl->d.packets == 0 || fl->gen < fl->d.packets;
}

static void ibcc_fab_mark_(ibcc_fabric *f, uint32_t fi);   /* section 2 */

/* Generates one unit of flow fi now into its queue (or, nic_fifo, the
   host's FIFO): a packet, or a message cut into size-byte packets (the
   last shorter), up to the flow's packet limit. Returns the packets
   made. */
static uint64_t ibcc_fab_generate_bytes_(ibcc_fabric *f, uint32_t fi,
                                         uint64_t left, int msg,
                                         uint32_t id);
static uint64_t ibcc_fab_generate_(ibcc_fabric *f, uint32_t fi)
{
    ibcc_fflow_ *fl = &f->flow[fi];
    uint64_t left = ibcc_fab_unit_bytes_(fl);
    if (fl->d.msg_exp) {           /* exponential length, mean msg_bytes */
        double x = ibcc_rng_exp(&fl->rng, (double)fl->d.msg_bytes);
        left = x >= 4.0e9 ? UINT64_C(4000000000) : (uint64_t)x + 1u;
    }
    return ibcc_fab_generate_bytes_(f, fi, left, fl->d.msg_bytes != 0, 0u);
}

/* The unit of `left` bytes (msg: a message, its last packet marked; id:
   a source's message id) into flow fi's queue; the packets made. */
static uint64_t ibcc_fab_generate_bytes_(ibcc_fabric *f, uint32_t fi,
                                         uint64_t left, int msg, uint32_t id)
{
    ibcc_fflow_ *fl = &f->flow[fi];
    ibcc_fhost_ *o = &f->host[fl->host];
    uint64_t made = 0;
    ibcc_time now = f->loop.now;
    int was_empty = fl->q_n == 0;
    while (left > 0 && ibcc_fab_may_gen_(fl)) {
        uint32_t pi = ibcc_fab_pkt_new_(f), sz;
        ibcc_fpkt_ *p;
        if (pi == IBCC_F_NONE_) break;
        p = ibcc_fab_pkt_(f, pi);
        sz = left < fl->d.size ? (uint32_t)left : fl->d.size;
        left -= sz;
        p->flow = fi;
        p->size = sz;
        p->units = ibcc_fab_units_(sz);
        p->node = o->node;
        p->t_gen = now;
        p->last = left == 0 && msg;
        p->msg = id;
        if (f->d.nic_fifo) {
            if (o->fifo_head == IBCC_F_NONE_) o->fifo_head = pi;
            else ibcc_fab_pkt_(f, o->fifo_tail)->next = pi;
            o->fifo_tail = pi;
        } else {
            if (fl->q_head == IBCC_F_NONE_) fl->q_head = pi;
            else ibcc_fab_pkt_(f, fl->q_tail)->next = pi;
            fl->q_tail = pi;
        }
        fl->q_n++;
        fl->gen++;
        fl->refs += fi >= f->nf;
        fl->st.generated++;
        f->cls[fl->d.cls].st.generated++;
        made++;
    }
    /* a greedy source's backlog is never empty: its packets are only
       made late, when they can go, so only generated traffic tells the
       agent that its queue refilled (MVCM's immediate reset) */
    if (made && was_empty
        && (fl->d.traffic == IBCC_TRAFFIC_RATE
            || fl->d.traffic == IBCC_TRAFFIC_POISSON
            || fl->d.traffic == IBCC_TRAFFIC_PUSH))
        fl->ag->queued(f, fl);
    if (made) ibcc_fab_mark_(f, fi);
    return made;
}

/* Time to the next RATE / POISSON generation of a flow. */
static ibcc_time ibcc_fab_gen_gap_(ibcc_fflow_ *fl)
{
    ibcc_time gap = 0;
    /* 2^64 ps or more (a huge unit at a tiny load): beyond the clock */
    if (ibcc_wire_time(ibcc_fab_unit_bytes_(fl), fl->d.offered, &gap)
        != IBCC_OK)
        gap = IBCC_TIME_MAX;
    if (fl->d.traffic == IBCC_TRAFFIC_POISSON)
        gap = ibcc_fab_exp_(&fl->rng, gap ? gap : 1u);
    return gap ? gap : 1u;
}

/* E_START, and the delivery count reaching start_after: one gate of the
   flow's start opened; the last one turns it on. */
static void ibcc_fab_start_gate_(ibcc_fabric *f, uint32_t fi)
{
    ibcc_fflow_ *fl = &f->flow[fi];
    if (fl->gate == 0 || --fl->gate != 0) return;
    ibcc_fab_flow_event_(f, fi, 1);
    if (fl->d.traffic == IBCC_TRAFFIC_RATE)
        ibcc_fab_gen_event_(f, fi);            /* first unit at once */
    else if (fl->d.traffic == IBCC_TRAFFIC_POISSON)
        ibcc_fab_at_(f, ibcc_fab_sat_(f->loop.now, ibcc_fab_gen_gap_(fl)),
                     IBCC_F_E_GEN_, fi, NULL);
}

/* E_FLOW (argument: flow << 1 | on): a flow turns on (start, ON period)
   or off (stop, OFF period). ONOFF flows schedule their next toggle. */
static void ibcc_fab_flow_event_(ibcc_fabric *f, uint32_t fi, int turn_on)
{
    ibcc_fflow_ *fl = &f->flow[fi];
    ibcc_time now = f->loop.now;
    int stopped = fl->d.stop != 0 && now >= fl->d.stop;
    if (turn_on) {
        if (stopped || fl->on) return;
        fl->on = 1;
        ibcc_fab_mark_(f, fi);
        fl->ag->restart(f, fl);
        if (fl->d.traffic == IBCC_TRAFFIC_ONOFF) {
            ibcc_time t = now + ibcc_fab_exp_(&fl->rng, fl->d.on_mean);
            if (fl->d.stop == 0 || t < fl->d.stop)
                ibcc_fab_at_(f, t, IBCC_F_E_FLOW_, (uint64_t)fi << 1, NULL);
        }
        ibcc_fab_wake_host_(f, fl->host, now);
    } else {
        if (!fl->on) return;
        fl->on = 0;
        ibcc_fab_mark_(f, fi);
        fl->ag->end(f, fl);
        if (fl->d.traffic == IBCC_TRAFFIC_ONOFF && !stopped) {
            ibcc_time t = now + ibcc_fab_exp_(&fl->rng, fl->d.off_mean);
            if (fl->d.stop == 0 || t < fl->d.stop)
                ibcc_fab_at_(f, t, IBCC_F_E_FLOW_,
                             ((uint64_t)fi << 1) | 1u, NULL);
        }
    }
}

/* E_GEN: a RATE / POISSON flow generates its next unit into its queue
   and schedules the one after (until it stops or reaches its limit). */
static void ibcc_fab_gen_event_(ibcc_fabric *f, uint32_t fi)
{
    ibcc_fflow_ *fl = &f->flow[fi];
    ibcc_time now = f->loop.now;
    if (!fl->on || !ibcc_fab_may_gen_(fl)) return;
    if (ibcc_fab_generate_(f, fi)) ibcc_fab_wake_host_(f, fl->host, now);
    if (ibcc_fab_may_gen_(fl))
        ibcc_fab_at_(f, ibcc_fab_sat_(now, ibcc_fab_gen_gap_(fl)),
                     IBCC_F_E_GEN_, fi, NULL);
}

/* ---- 1b. sources: messages per source host (L3 traffic) -----------------
   A source's per-destination queues are flows at indices nf.. of
   f->flow, made when a message finds none and released when idle, so its
   state grows with messages in flight. f->flow may move when it grows:
   only the source's event (E_SRC) makes queues, and nothing holds a
   flow pointer across it. Agent states of queues live in chunks that
   never move (a LAW pacer points into its own state). */

static void ibcc_fab_stats_add_(ibcc_fabric_flow_stats *a,
                                const ibcc_fabric_flow_stats *b)
{
    unsigned k;
    a->generated += b->generated;
    a->sent += b->sent;
    a->sent_bytes += b->sent_bytes;
    a->delivered += b->delivered;
    a->delivered_bytes += b->delivered_bytes;
    a->marked += b->marked;
    a->validated += b->validated;
    a->acks += b->acks;
    a->acks_marked += b->acks_marked;
    a->msgs += b->msgs;
    a->msg_time_sum = ibcc_fab_sat_(a->msg_time_sum, b->msg_time_sum);
    a->lat_sum = ibcc_fab_sat_(a->lat_sum, b->lat_sum);
    if (b->lat_max > a->lat_max) a->lat_max = b->lat_max;
    if (b->lat_min && (a->lat_min == 0 || b->lat_min < a->lat_min))
        a->lat_min = b->lat_min;
    for (k = 0; k < 32u; k++) a->lat_hist[k] += b->lat_hist[k];
}

/* The map slot of key (dst, cls) in source x: its entry or the empty
   slot where it goes (linear probing; the map is never full). */
static uint32_t ibcc_fab_src_slot_(const ibcc_fsrc_ *x, uint32_t key)
{
    uint32_t m = x->map_cap - 1u;
    uint32_t i = (uint32_t)((key * UINT32_C(0x9e3779b1)) >> 7) & m;
    while (x->map[2u * i] != 0 && x->map[2u * i] != key + 1u) i = (i + 1u) & m;
    return i;
}

/* Removes the entry at slot i (backward-shift deletion: no tombstones). */
static void ibcc_fab_src_unmap_(ibcc_fsrc_ *x, uint32_t i)
{
    uint32_t m = x->map_cap - 1u, j = i;
    for (;;) {
        uint32_t home;
        j = (j + 1u) & m;
        if (x->map[2u * j] == 0) break;
        home = (uint32_t)(((x->map[2u * j] - 1u) * UINT32_C(0x9e3779b1)) >> 7)
               & m;
        /* the entry at j may move to i when its home is not in (i, j] */
        if ((j > i && (home <= i || home > j))
            || (j < i && (home <= i && home > j))) {
            x->map[2u * i] = x->map[2u * j];
            x->map[2u * i + 1u] = x->map[2u * j + 1u];
            i = j;
        }
    }
    x->map[2u * i] = 0;
    x->map_n--;
}

/* Queue fi of a source is idle: nothing queued, none of its packets or
   ACKs in the network, its agent at rest. It is dropped: its statistics
   go to the source's, its host list loses it (the last flow takes its
   place), its entry goes back to the free list. */
static void ibcc_fab_q_release_(ibcc_fabric *f, uint32_t fi)
{
    ibcc_fflow_ *fl = &f->flow[fi];
    ibcc_fsrc_ *x = &f->src[fl->src];
    ibcc_fhost_ *o = &f->host[fl->host];
    uint32_t pos = fl->local, last = o->nflows - 1u;
    uint32_t key = fl->d.dst * IBCC_FABRIC_CLASSES + fl->d.cls;
    ibcc_fab_stats_add_(&x->st, &fl->st);
    ibcc_fab_src_unmap_(x, ibcc_fab_src_slot_(x, key));
    if (pos != last) {
        uint32_t mv = o->hf[last];
        uint64_t b = (o->ready[last / 64u] >> (last % 64u)) & 1u;
        o->hf[pos] = mv;
        f->flow[mv].local = pos;
        o->ready[pos / 64u] = (o->ready[pos / 64u]
                               & ~((uint64_t)1u << (pos % 64u)))
                              | (b << (pos % 64u));
    }
    o->ready[last / 64u] &= ~((uint64_t)1u << (last % 64u));
    o->nflows = last;
    if (o->rr >= o->nflows) o->rr = 0;
    fl->src = IBCC_FABRIC_NONE;
    fl->ag = NULL;
    fl->q_head = f->free_q;
    f->free_q = fi;
    f->q_live--;
}

static int ibcc_fab_q_idle_(const ibcc_fabric *f, const ibcc_fflow_ *fl)
{
    return fl->refs == 0 && fl->q_n == 0 && fl->ack_n == 0
           && fl->ag->idle(f, fl);
}

/* A packet or ACK of queue fi left the network. */
static void ibcc_fab_q_unref_(ibcc_fabric *f, uint32_t fi)
{
    ibcc_fflow_ *fl = &f->flow[fi];
    if (fl->refs) fl->refs--;
    if (fl->src != IBCC_FABRIC_NONE && ibcc_fab_q_idle_(f, fl))
        ibcc_fab_q_release_(f, fi);
}

/* Room for one more flow at host o (its list and ready bitmap). */
static int ibcc_fab_host_grow_(ibcc_fabric *f, ibcc_fhost_ *o)
{
    uint32_t ncap, *nhf;
    uint64_t *nrd;
    if (o->nflows < o->hcap) return 1;
    ncap = o->hcap < 32u ? 64u : o->hcap * 2u;
    ncap = (ncap + 63u) / 64u * 64u;
    nhf = (uint32_t *)ibcc_fab_alloc_(&f->al, (size_t)ncap * 4u);
    nrd = (uint64_t *)ibcc_fab_alloc_(&f->al, (size_t)ncap / 8u);
    if (!nhf || !nrd) {
        ibcc_fab_free_(&f->al, nhf);
        ibcc_fab_free_(&f->al, nrd);
        return 0;
    }
    memset(nrd, 0, (size_t)ncap / 8u);
    if (o->nflows) {
        memcpy(nhf, o->hf, (size_t)o->nflows * 4u);
        memcpy(nrd, o->ready, ((size_t)o->nflows + 63u) / 64u * 8u);
    }
    if (o->hown) {
        ibcc_fab_free_(&f->al, o->hf);
        ibcc_fab_free_(&f->al, o->ready);
    }
    o->hf = nhf;
    o->ready = nrd;
    o->hcap = ncap;
    o->hown = 1;
    return 1;
}

/* A free flow entry for a queue (f->flow may move), IBCC_F_NONE_ when
   out of memory (f->err set). */
static uint32_t ibcc_fab_q_entry_(ibcc_fabric *f)
{
    uint32_t fi;
    if (f->free_q != IBCC_F_NONE_) {
        fi = f->free_q;
        f->free_q = f->flow[fi].q_head;
        return fi;
    }
    if (f->nfx == f->fcap) {
        uint32_t ncap = f->fcap < 128u ? 256u : f->fcap * 2u;
        ibcc_fflow_ *nf;
        if (ncap > (1u << 30)) ncap = 0;
        nf = ncap ? (ibcc_fflow_ *)ibcc_fab_alloc_(&f->al,
                                          ibcc_fab_mul_(ncap, sizeof *nf))
                  : NULL;
        if (!nf) {
            if (f->err == IBCC_OK) f->err = IBCC_ERR_NOMEM;
            return IBCC_F_NONE_;
        }
        memcpy(nf, f->flow, (size_t)f->nfx * sizeof *nf);
        ibcc_fab_free_(&f->al, f->flow);
        f->flow = nf;
        f->fcap = ncap;
    }
    /* agent-state chunks of 256 entries, which never move */
    if ((f->nfx - f->nf) / 256u >= f->nqas) {
        uint32_t k = f->nqas;
        void **nq = (void **)ibcc_fab_alloc_(&f->al,
                                             ((size_t)k + 1u) * sizeof *nq);
        void *c = ibcc_fab_alloc_(&f->al, 256u * f->qas_stride);
        if (!nq || !c) {
            ibcc_fab_free_(&f->al, nq);
            ibcc_fab_free_(&f->al, c);
            if (f->err == IBCC_OK) f->err = IBCC_ERR_NOMEM;
            return IBCC_F_NONE_;
        }
        if (k) memcpy(nq, f->qas, (size_t)k * sizeof *nq);
        ibcc_fab_free_(&f->al, f->qas);
        nq[k] = c;
        f->qas = nq;
        f->nqas = k + 1u;
    }
    return f->nfx++;
}

/* Source si's queue for (dst, cls), made when there is none (the flow
   template with dst and cls, its agent fresh); IBCC_F_NONE_ with f->err
   set when out of memory or the route fails. */
static ibcc_result ibcc_fab_walk_(const ibcc_fabric *f, uint32_t src,
                                  uint32_t dst, uint32_t lid);
static uint32_t ibcc_fab_src_queue_(ibcc_fabric *f, uint32_t si,
                                    uint32_t dst, uint32_t cls)
{
    ibcc_fsrc_ *x = &f->src[si];
    uint32_t key = dst * IBCC_FABRIC_CLASSES + cls, slot, fi;
    ibcc_fflow_ *fl;
    ibcc_fhost_ *o;
    slot = ibcc_fab_src_slot_(x, key);
    if (x->map[2u * slot]) return x->map[2u * slot + 1u];
    /* one step of a sweep over the map: a queue whose agent came to rest
       after its last packet left goes now */
    if (x->map_n) {
        uint32_t j = x->sweep++ & (x->map_cap - 1u);
        if (x->map[2u * j]) {
            uint32_t fj = x->map[2u * j + 1u];
            if (ibcc_fab_q_idle_(f, &f->flow[fj])) {
                ibcc_fab_q_release_(f, fj);
                slot = ibcc_fab_src_slot_(x, key);
            }
        }
    }
    if (2u * (x->map_n + 1u) > x->map_cap) {     /* grow: load <= 1/2 */
        uint32_t ocap = x->map_cap, *om = x->map, i;
        uint32_t ncap = ocap * 2u;
        uint32_t *nm = (uint32_t *)ibcc_fab_alloc_(&f->al,
                                                   (size_t)ncap * 8u);
        if (!nm) {
            if (f->err == IBCC_OK) f->err = IBCC_ERR_NOMEM;
            return IBCC_F_NONE_;
        }
        memset(nm, 0, (size_t)ncap * 8u);
        x->map = nm;
        x->map_cap = ncap;
        for (i = 0; i < ocap; i++)
            if (om[2u * i]) {
                uint32_t j = ibcc_fab_src_slot_(x, om[2u * i] - 1u);
                nm[2u * j] = om[2u * i];
                nm[2u * j + 1u] = om[2u * i + 1u];
            }
        ibcc_fab_free_(&f->al, om);
        slot = ibcc_fab_src_slot_(x, key);
    }
    o = &f->host[x->host];
    if (!ibcc_fab_host_grow_(f, o)) {
        if (f->err == IBCC_OK) f->err = IBCC_ERR_NOMEM;
        return IBCC_F_NONE_;
    }
    if (x->d.kind == IBCC_SOURCE_GEN
        && (ibcc_fab_walk_(f, x->d.flow.src, dst, 0) != IBCC_OK
            || ibcc_fab_walk_(f, dst, x->d.flow.src, 0) != IBCC_OK)) {
        if (f->err == IBCC_OK) f->err = IBCC_ERR_RANGE;
        return IBCC_F_NONE_;
    }
    fi = ibcc_fab_q_entry_(f);
    if (fi == IBCC_F_NONE_) return IBCC_F_NONE_;
    fl = &f->flow[fi];
    memset(fl, 0, sizeof *fl);
    fl->d = x->d.flow;
    fl->d.dst = dst;
    fl->d.cls = cls;
    fl->d.traffic = IBCC_TRAFFIC_RATE;           /* fed, never greedy */
    fl->ag = x->ag;
    fl->as = (char *)f->qas[(fi - f->nf) / 256u]
             + (size_t)((fi - f->nf) % 256u) * f->qas_stride;
    fl->host = x->host;
    fl->local = o->nflows;
    fl->eslot = x->eslot;
    fl->src = si;
    fl->on = 1;
    fl->q_head = fl->q_tail = IBCC_F_NONE_;
    o->hf[o->nflows++] = fi;
    if (fl->ag->init(f, fl) != IBCC_OK) {       /* checked at create */
        if (f->err == IBCC_OK) f->err = IBCC_ERR_STATE;
    }
    x->map[2u * slot] = key + 1u;
    x->map[2u * slot + 1u] = fi;
    x->map_n++;
    if (++f->q_live > f->q_peak) f->q_peak = f->q_live;
    return fi;
}

/* The next message of source x into x->m (x->pend), or none (0). */
static int ibcc_fab_src_ask_(ibcc_fabric *f, uint32_t si)
{
    ibcc_fsrc_ *x = &f->src[si];
    const ibcc_fabric_flow *t = &x->d.flow;
    ibcc_time now = f->loop.now;
    ibcc_fabric_msg *m = &x->m;
    if (x->d.messages && x->msgs >= x->d.messages) return 0;
    if (x->d.kind == IBCC_SOURCE_GEN) {
        memset(m, 0, sizeof *m);
        if (!x->d.next(x->d.user, si, now, m)) return 0;
        if (m->t < now) m->t = now;
        if (m->dst >= f->nn || f->node[m->dst].kind != IBCC_FABRIC_HOST
            || m->dst == t->src || m->bytes == 0
            || m->cls >= IBCC_FABRIC_CLASSES) {
            if (f->err == IBCC_OK) f->err = IBCC_ERR_RANGE;
            return 0;
        }
        return 1;
    }
    /* UNIFORM, ALLTOALL: the time, then the destination, then the length */
    if (t->traffic == IBCC_TRAFFIC_GREEDY) {
        m->t = now;
    } else if (x->msgs == 0 && t->traffic == IBCC_TRAFFIC_RATE) {
        m->t = now;                              /* first at once */
    } else {
        ibcc_time gap = 0;
        uint64_t unit = t->msg_bytes ? t->msg_bytes : t->size;
        if (ibcc_wire_time(unit, t->offered, &gap) != IBCC_OK)
            gap = IBCC_TIME_MAX;
        if (t->traffic == IBCC_TRAFFIC_POISSON)
            gap = ibcc_fab_exp_(&x->rng, gap ? gap : 1u);
        m->t = ibcc_fab_sat_(now, gap ? gap : 1u);
    }
    {
        uint32_t n = x->d.host_count, j;
        uint32_t others = n - (x->self < n);
        if (x->d.kind == IBCC_SOURCE_UNIFORM) {
            j = (uint32_t)ibcc_rng_below(&x->rng, others);
        } else {
            j = (uint32_t)(x->seq % others);
            x->seq++;
            /* shift order from the source's place */
            if (x->self < n) j = (x->self + 1u + j) % n;
        }
        if (x->d.kind == IBCC_SOURCE_UNIFORM && x->self < n && j >= x->self)
            j++;
        m->dst = x->d.hosts[j];
    }
    if (t->msg_exp) {
        double y = ibcc_rng_exp(&x->rng, (double)t->msg_bytes);
        m->bytes = y >= 4.0e9 ? UINT32_C(4000000000) : (uint32_t)y + 1u;
    } else {
        m->bytes = t->msg_bytes ? t->msg_bytes : t->size;
    }
    m->cls = t->cls;
    m->id = (uint32_t)x->msgs;
    return 1;
}

/* E_SRC: source si generates what is due now and asks for the next,
   until a message lies ahead (its event then) or it has none. */
static void ibcc_fab_src_event_(ibcc_fabric *f, uint32_t si)
{
    ibcc_fsrc_ *x = &f->src[si];
    ibcc_time now = f->loop.now;
    if (x->ev_at != now) return;                  /* stale */
    x->ev_at = IBCC_TIME_MAX;
    for (;;) {
        uint32_t fi;
        if (x->done) return;
        if (x->d.flow.stop && now >= x->d.flow.stop) {
            x->done = 1;
            return;
        }
        if (!x->pend) {
            if (!ibcc_fab_src_ask_(f, si)) {
                if (x->d.kind != IBCC_SOURCE_GEN || f->err != IBCC_OK)
                    x->done = 1;
                return;
            }
            x->pend = 1;
        }
        if (x->m.t > now) {
            if (x->d.flow.stop && x->m.t >= x->d.flow.stop) {
                x->done = 1;
                return;
            }
            x->ev_at = x->m.t;
            ibcc_fab_at_(f, x->m.t, IBCC_F_E_SRC_, si, NULL);
            return;
        }
        x->pend = 0;
        fi = ibcc_fab_src_queue_(f, si, x->m.dst, x->m.cls);
        if (fi == IBCC_F_NONE_) {
            x->done = 1;
            return;
        }
        x->msgs++;
        f->src_msgs++;
        if (ibcc_fab_generate_bytes_(f, fi, x->m.bytes, 1, x->m.id))
            ibcc_fab_wake_host_(f, x->host, now);
    }
}

/* ---- 2. injection: a host picks what to send next ------------------------- */

/* Does flow fl have a packet to send (queued, or greedy and active)? */
static int ibcc_fab_has_data_(const ibcc_fflow_ *fl)
{
    if (fl->q_n) return 1;
    return fl->on && (fl->d.traffic == IBCC_TRAFFIC_GREEDY
                      || fl->d.traffic == IBCC_TRAFFIC_ONOFF)
           && ibcc_fab_may_gen_(fl);
}

/* Keeps flow fi's bit in its host's ready bitmap equal to has_data, so
   the host's round robin skips idle flows a word at a time. */
static void ibcc_fab_mark_(ibcc_fabric *f, uint32_t fi)
{
    const ibcc_fflow_ *fl = &f->flow[fi];
    uint64_t *w = &f->host[fl->host].ready[fl->local / 64u];
    uint64_t bit = (uint64_t)1u << (fl->local % 64u);
    if (ibcc_fab_has_data_(fl)) *w |= bit; else *w &= ~bit;
}

/* Takes the packet flow fi sends next: the head of its queue (VOQ) or of
   the host FIFO, generating a greedy unit first when the queue is empty
   (a greedy packet is generated when it can be sent). */
static uint32_t ibcc_fab_take_(ibcc_fabric *f, uint32_t fi)
{
    ibcc_fflow_ *fl = &f->flow[fi];
    ibcc_fhost_ *o = &f->host[fl->host];
    uint32_t pi;
    if (fl->q_n == 0 && ibcc_fab_generate_(f, fi) == 0) return IBCC_F_NONE_;
    if (f->d.nic_fifo) {
        pi = o->fifo_head;
        o->fifo_head = ibcc_fab_pkt_(f, pi)->next;
        if (o->fifo_head == IBCC_F_NONE_) o->fifo_tail = IBCC_F_NONE_;
    } else {
        pi = fl->q_head;
        fl->q_head = ibcc_fab_pkt_(f, pi)->next;
        if (fl->q_head == IBCC_F_NONE_) fl->q_tail = IBCC_F_NONE_;
    }
    fl->q_n--;
    ibcc_fab_pkt_(f, pi)->next = IBCC_F_NONE_;
    ibcc_fab_mark_(f, fi);
    return pi;
}

/* Can flow fi send a packet now? 1 yes; 0 not now (*wake lowered to the
   time its agent allows it, if any). */
static int ibcc_fab_flow_ready_(ibcc_fabric *f, uint32_t fi, ibcc_time *wake)
{
    const ibcc_fflow_ *fl = &f->flow[fi];
    ibcc_time t = fl->ag->next(f, fl), now = f->loop.now;
    if (t > now) {
        if (t != IBCC_TIME_MAX && t < *wake) *wake = t;
        return 0;
    }
    if (ibcc_fab_room_(&f->ch[f->host[fl->host].chan], fl->lane,
                       ibcc_fab_units_(fl->d.size)))
        return 1;
    ibcc_fab_wait_room_(f, f->host[fl->host].chan);
    return 0;
}

/* Data packet (or worm) p of flow fl leaves its source host `node` now:
   the sent statistics and the observer. */
static void ibcc_fab_count_sent_(ibcc_fabric *f, ibcc_fflow_ *fl,
                                 ibcc_fpkt_ *p, uint32_t node)
{
    p->t_inject = f->loop.now;
    fl->st.sent++;
    fl->st.sent_bytes += p->size;
    f->cls[fl->d.cls].st.sent++;
    f->bytes_sent += p->size;
    if (f->d.observer.sent) {
        ibcc_fabric_pkt v;
        ibcc_fab_view_(f, p, node, f->loop.now, &v);
        f->d.observer.sent(f->d.observer.user, &v);
    }
}

/* Host h sends data packet pi of flow fi now. */
static void ibcc_fab_inject_(ibcc_fabric *f, uint32_t h, uint32_t fi,
                             uint32_t pi)
{
    ibcc_fhost_ *o = &f->host[h];
    ibcc_fflow_ *fl = &f->flow[fi];
    ibcc_fpkt_ *p = ibcc_fab_pkt_(f, pi);
    ibcc_time now = f->loop.now;
    p->lane = (uint16_t)fl->lane;
    p->vl = (uint16_t)IBCC_F_LVL_(fl->lane);
    fl->outstanding++;
    ibcc_fab_count_sent_(f, fl, p, o->node);
    fl->ag->sent(f, fl, ibcc_fab_wire_(&f->ch[o->chan], p->size));
    if (f->d.host_cap) {
        ibcc_time tc = 0;
        (void)ibcc_wire_time(p->size, f->d.host_cap, &tc);
        o->cap_next = now + tc;
    }
    (void)ibcc_fab_send_(f, o->chan, pi, now);
}

/* Host h just started a packet: if it may send another, it wakes when
   its transmitter is free (in that completion's place) or, when no
   agent allows one by then, at the earliest time one does. */
static void ibcc_fab_host_sent_(ibcc_fabric *f, uint32_t h)
{
    const ibcc_fhost_ *o = &f->host[h];
    const ibcc_fchan_ *ch = &f->ch[o->chan];
    ibcc_time end = ch->xmit_end, best = IBCC_TIME_MAX;
    uint32_t w;
    if (o->ackq_n) {
        best = end;
    } else if (f->d.nic_fifo) {
        if (o->fifo_head != IBCC_F_NONE_) {
            const ibcc_fflow_ *fl = &f->flow[ibcc_fab_pkt_(f, o->fifo_head)->flow];
            best = fl->ag->next(f, fl);
        }
    } else {
        for (w = 0; w * 64u < o->nflows && best > end; w++) {
            uint64_t bits = o->ready[w];
            while (bits && best > end) {
                const ibcc_fflow_ *fl =
                    &f->flow[o->hf[w * 64u + ibcc_ctz64_(bits)]];
                ibcc_time t = fl->ag->next(f, fl);
                bits &= bits - 1u;
                if (t < best) best = t;
            }
        }
    }
    if (best == IBCC_TIME_MAX) return;  /* an ACK or a new packet wakes it */
    if (best < end) best = end;
    if (best < o->cap_next) best = o->cap_next;
    ibcc_fab_wake_host_at_(f, h, best, best == end ? ch->xmit_tick
                                                   : IBCC_F_NEW_);
}

/* Host h's port runs several data VLs: the first ready flow of each VL in
   round-robin order is its VL's candidate, and the port's VL arbitration
   (ibcc_vlarb) picks the VL that sends. */
static void ibcc_fab_host_run_vl_(ibcc_fabric *f, uint32_t h)
{
    ibcc_fhost_ *o = &f->host[h];
    ibcc_time wake = IBCC_TIME_MAX;
    uint32_t first[IBCC_VLARB_MAX_VLS], want = 0, k, pos, fi, pi;
    unsigned v;
    for (k = 0; k < 2u; k++) {
        uint32_t lo = k ? 0u : o->rr, hi = k ? o->rr : o->nflows, w;
        for (w = lo / 64u; w * 64u < hi; w++) {
            uint64_t bits = o->ready[w];
            if (w * 64u < lo) bits &= ~(uint64_t)0 << (lo - w * 64u);
            if (hi - w * 64u < 64u)
                bits &= ~(uint64_t)0 >> (64u - (hi - w * 64u));
            while (bits) {
                pos = w * 64u + ibcc_ctz64_(bits);
                fi = f->hflow[o->first + pos];
                bits &= bits - 1u;
                v = IBCC_F_LVL_(f->flow[fi].lane);
                if (want >> v & 1u) continue;
                if (!ibcc_fab_flow_ready_(f, fi, &wake)) continue;
                want |= 1u << v;
                first[v] = pos;
            }
        }
    }
    if (want && ibcc_vlarb_pick(&f->vla[f->node[o->node].base], want, &v)) {
        pos = first[v];
        fi = f->hflow[o->first + pos];
        pi = ibcc_fab_take_(f, fi);
        if (pi == IBCC_F_NONE_) return;      /* out of memory: f->err */
        o->rr = (pos + 1u) % o->nflows;
        (void)ibcc_vlarb_sent(&f->vla[f->node[o->node].base], v,
                              ibcc_fab_pkt_(f, pi)->size);
        ibcc_fab_inject_(f, h, fi, pi);
        ibcc_fab_host_sent_(f, h);
        return;
    }
    if (wake != IBCC_TIME_MAX) ibcc_fab_wake_host_(f, h, wake);
}

/* Host h may send: ACK/CNP lane first, then data. With one queue per
   flow (VOQ) the flows are served in round robin and a flow is ready when
   it has a packet, its source agent allows it and the first switch has
   room; with nic_fifo only the oldest generated packet may go. The host
   otherwise sleeps until the earliest agent time, an ACK, a credit return
   or its transmitter freeing. */
static void ibcc_fab_host_run_(ibcc_fabric *f, uint32_t h)
{
    ibcc_fhost_ *o = &f->host[h];
    ibcc_fchan_ *ch = &f->ch[o->chan];
    ibcc_time now = f->loop.now, wake = IBCC_TIME_MAX;
    uint32_t k;
    if (ch->busy && ch->xmit_end <= now) ch->busy = 0;  /* completed */
    if (ch->busy) {                         /* again when it completes */
        ibcc_fab_wake_host_at_(f, h, ch->xmit_end, ch->xmit_tick);
        return;
    }
    ibcc_fab_credits_in_(f, ch);
    if (o->cap_next > now) {
        ibcc_fab_wake_host_(f, h, o->cap_next);
        return;
    }
    if (o->ackq_n) {
        uint32_t pi = o->ackq_head;
        ibcc_fpkt_ *p = ibcc_fab_pkt_(f, pi);
        if (ibcc_fab_room_(ch, 1, p->units)) {
            o->ackq_head = p->next;
            if (--o->ackq_n == 0) o->ackq_tail = IBCC_F_NONE_;
            p->next = IBCC_F_NONE_;
            (void)ibcc_fab_send_(f, o->chan, pi, now);
            ibcc_fab_host_sent_(f, h);
            return;
        }
        ibcc_fab_wait_room_(f, o->chan);
    }
    if (f->d.nic_fifo) {
        uint32_t fi;
        if (o->fifo_head == IBCC_F_NONE_) return;
        fi = ibcc_fab_pkt_(f, o->fifo_head)->flow;
        if (ibcc_fab_flow_ready_(f, fi, &wake)) {
            ibcc_fab_inject_(f, h, fi, ibcc_fab_take_(f, fi));
            ibcc_fab_host_sent_(f, h);
        } else if (wake != IBCC_TIME_MAX) {
            ibcc_fab_wake_host_(f, h, wake);
        }
        return;
    }
    if (ch->vls > 1u) {
        ibcc_fab_host_run_vl_(f, h);
        return;
    }
    /* flows with data, in round-robin order from rr: [rr, n) then
       [0, rr), read from the ready bitmap a word at a time */
    for (k = 0; k < 2u; k++) {
        uint32_t lo = k ? 0u : o->rr, hi = k ? o->rr : o->nflows, w;
        for (w = lo / 64u; w * 64u < hi; w++) {
            uint64_t bits = o->ready[w];
            if (w * 64u < lo) bits &= ~(uint64_t)0 << (lo - w * 64u);
            if (hi - w * 64u < 64u)
                bits &= ~(uint64_t)0 >> (64u - (hi - w * 64u));
            while (bits) {
                uint32_t pos = w * 64u + ibcc_ctz64_(bits);
                uint32_t fi = o->hf[pos], pi;
                bits &= bits - 1u;
                if (!ibcc_fab_flow_ready_(f, fi, &wake)) continue;
                pi = ibcc_fab_take_(f, fi);
                if (pi == IBCC_F_NONE_) return;  /* out of memory: f->err */
                o->rr = (pos + 1u) % o->nflows;
                ibcc_fab_inject_(f, h, fi, pi);
                ibcc_fab_host_sent_(f, h);
                return;
            }
        }
    }
    if (wake != IBCC_TIME_MAX) ibcc_fab_wake_host_(f, h, wake);
}

/* ---- 3. the link: a packet starts on a channel ---------------------------- */

/* Starts packet pi on channel c: the transmitter is taken now. tail_in:
   when its tail is fully at the sender (now for a host). The bits go out
   during [start, start + wire) with start = max(now, tail_in - wire), so
   a packet from a slower link never underruns a faster one and holds it
   only for its own wire time; a slower output paces a faster input by
   itself. The transmitter's completion at the end takes its place among
   same-time events now (a loop ticket) and, at a switch, joins the
   switch's pending completions. Returns the start. */
static ibcc_time ibcc_fab_send_(ibcc_fabric *f, uint32_t c, uint32_t pi,
                                ibcc_time tail_in)
{
    ibcc_fchan_ *ch = &f->ch[c];
    ibcc_fpkt_ *p = ibcc_fab_pkt_(f, pi);
    ibcc_time now = f->loop.now;
    ibcc_time wire = ibcc_fab_wire_(ch, p->size);
    ibcc_time start = tail_in > now + wire ? tail_in - wire : now;
    ibcc_time end = start + wire;
    uint32_t ln = p->lane;
    const ibcc_fnode_ *to = &f->node[ch->to];
    ch->busy = 1;
    if (ch->end_wake) ibcc_fab_out_sync_(f, c);  /* an E_DONE of the last
                                                    packet still pending */
    ch->xmit_pkt = pi;
    ch->xmit_lane = ln;
    ch->xmit_units = p->units;
    ch->xmit_size = p->size;
    ch->xmit_frees_in = 0;
    ch->xmit_from_obuf = 0;
    ch->lc[ln].av_p--;
    ch->lc[ln].av_u -= p->units;
    ch->lc[ln].wire_p++;
    ch->lc[ln].wire_u += p->units;
    ch->bytes += p->size;
    ch->busy_time += wire;
    ch->xmit_end = end;
    ch->xmit_tick = ibcc_loop_ticket_(&f->loop);
    if (f->node[ch->from].kind == IBCC_FABRIC_SWITCH)
        ibcc_fab_done_push_(&f->sw[f->node[ch->from].idx], end,
                            ch->xmit_tick, ch->from_port);
    f->hops++;
    if (f->d.observer.link_busy) {
        ibcc_fabric_pkt v;
        ibcc_fab_view_(f, p, ch->from, start, &v);
        f->d.observer.link_busy(f->d.observer.user, c, start, end, &v);
    }
    p->node = ch->to;
    p->in_port = ch->to_port;
    p->chan = c;
    p->t_tail = end + ch->prop;
    if (to->kind == IBCC_FABRIC_SWITCH) {
        p->t_arrive = start + ch->prop + f->d.fwd_delay;
        ibcc_fab_at_(f, p->t_arrive, IBCC_F_E_ARRIVE_, pi, NULL);
    } else {
        ibcc_fab_at_(f, p->t_tail, IBCC_F_E_ARRIVE_, pi, NULL);
    }
    return start;
}

/* ---- 4. arrival: at the node the packet was sent to ----------------------- */

static void ibcc_fab_host_absorb_(ibcc_fabric *f, uint32_t pi);
static void ibcc_fab_sw_busy_(ibcc_fabric *f, ibcc_fsw_ *w, uint32_t vl);

/* Marker hook: report header bits a switch set to the observer. */
static void ibcc_fab_marked_(ibcc_fabric *f, const ibcc_fpkt_ *p,
                             unsigned before, uint32_t node)
{
    if (p->hdr != before && f->d.observer.marked) {
        ibcc_fabric_pkt v;
        ibcc_fab_view_(f, p, node, f->loop.now, &v);
        f->d.observer.marked(f->d.observer.user, &v);
    }
}

/* A packet became visible at switch input (in_port, lane): it is routed,
   enters the input buffer, the marker (data lane) and the lane's
   arbiter; the switch arbitrates once the instant's events are in. */
static void ibcc_fab_sw_arrive_(ibcc_fabric *f, uint32_t pi)
{
    ibcc_fpkt_ *p = ibcc_fab_pkt_(f, pi);
    const ibcc_fnode_ *n = &f->node[p->node];
    ibcc_fsw_ *w = &f->sw[n->idx];
    ibcc_fchan_ *in = &f->ch[p->chan];
    ibcc_fbuf_ *b = &f->buf[(n->base + p->in_port) * f->nlanes + p->lane];
    const ibcc_fabric_flow *fd = &f->flow[p->flow].d;
    ibcc_fab_settle_(f, w, f->loop.cur);
    p->out_port = p->lane == IBCC_F_ACK_ ? ibcc_fab_rt_(f, n->idx, fd->src)
                  : ibcc_fab_rtl_(f, n->idx, fd->dst, fd->dlid);
    in->lc[p->lane].wire_p--;
    in->lc[p->lane].wire_u -= p->units;
    b->occ_p++;
    b->occ_u += p->units;
    b->q[b->n++] = pi;
    if (p->lane != IBCC_F_ACK_) {
        unsigned before = p->hdr;
        ibcc_fab_sw_busy_(f, w, p->vl);
        p->hdr |= ibcc_marker_arrive(&w->mk[p->vl], p->in_port, p->out_port,
                                     p->size);
        ibcc_fab_marked_(f, p, before, p->node);
    }
    (void)ibcc_arbiter_push(&w->arb[p->lane], p->in_port, p->out_port,
                            p->size, pi);
    ibcc_fab_kick_sw_(f, n->idx);
    /* its input still sends an earlier packet: look again when that
       completes (one due later at this instant is applied before the
       arbitration just requested) */
    if (b->free_at > f->loop.now
        && ibcc_arbiter_input_busy(&w->arb[p->lane], p->in_port))
        ibcc_fab_wake_end_(f, b->free_ch);
}

/* E_ARRIVE: packet pi reached the node it was sent to: at a switch its
   header has been there for the forwarding delay, at a host its tail has
   arrived (section 7). */
static void ibcc_fab_arrive_(ibcc_fabric *f, uint32_t pi)
{
    if (f->node[ibcc_fab_pkt_(f, pi)->node].kind == IBCC_FABRIC_SWITCH)
        ibcc_fab_sw_arrive_(f, pi);
    else if (f->d.host_cap)
        ibcc_fab_host_absorb_(f, pi);
    else
        ibcc_fab_host_receive_(f, pi, 0);
}

/* ---- 5. packet switching: input buffers and arbitration ------------------- */

/* Output channel of a switch port. */
static ibcc_fchan_ *ibcc_fab_out_(ibcc_fabric *f, const ibcc_fsw_ *w,
                                  unsigned port)
{
    return &f->ch[f->out_ch[f->node[w->node].base + port]];
}

/* The lane a packet that came in on lane ln of input `in` leaves on
   through `out`: its lane with one VL, else the switch's SL-to-VL map. */
static uint32_t ibcc_fab_olane_(const ibcc_fabric *f, const ibcc_fsw_ *w,
                                uint32_t in, uint32_t ln, uint32_t out)
{
    uint32_t P;
    if (!w->xl) return ln;
    P = f->node[w->node].ports;
    return w->xl[((size_t)in * f->nlanes + ln) * P + out];
}

/* Arbiter callback: can output `out` take a packet of `size` bytes on the
   lane being arbitrated? ACK lane (every kind): the transmitter is idle
   and the downstream ACK buffer has room. Data lane: the switch kind
   decides. A refusal schedules the wake-up that will look again. */
static int ibcc_fab_can_send_(void *user, unsigned out, unsigned in,
                              uint32_t size)
{
    ibcc_fsw_ *w = (ibcc_fsw_ *)user;
    ibcc_fabric *f = w->f;
    uint32_t ol;
    if (w->lane == IBCC_F_ACK_)
        return ibcc_fab_out_ready_(f, f->out_ch[f->node[w->node].base + out],
                                   IBCC_F_ACK_, ibcc_fab_units_(size));
    ol = ibcc_fab_olane_(f, w, in, w->lane, out);
    /* several VLs: the output's VL arbitration chose this round's VL */
    if (w->vsel && w->vsel[out] != ol) return 0;
    return w->kind->can_take(f, w, out, ol, size);
}

/* IBA root test of output channel ch for a packet of `units`:
   downstream can take another packet like this one after it (a port
   about to run out of credits is treated as a victim). */
static int ibcc_fab_has_credit_(ibcc_fabric *f, ibcc_fchan_ *ch,
                                uint32_t ln, uint32_t units)
{
    ibcc_fab_credits_in_(f, ch);
    return ch->lc[ln].av_p >= 2u && ch->lc[ln].av_u >= 2u * units;
}

/* BUSY classification for the marker, brought up to date before each
   data arrival (the only time the marker reads it): an output is busy
   when its transmitter is sending or the downstream data buffer has no
   room for a data packet. Completions and credits count up to the
   arrival's place among the instant's events: credits sent back when a
   packet started downstream come after every event of their instant
   (an arrival was scheduled before the completion that would have sent
   them). With VLs, the marker of VL vl reads the room of VL vl
   downstream. */
static void ibcc_fab_sw_busy_(ibcc_fabric *f, ibcc_fsw_ *w, uint32_t vl)
{
    const ibcc_fnode_ *n = &f->node[w->node];
    uint32_t o, units = ibcc_fab_units_(f->d.data_size);
    uint32_t ln = IBCC_F_DLANE_(vl);
    ibcc_marker *mk = &w->mk[vl];
    if (mk->d.classify != IBCC_CLASSIFY_BUSY) return;
    for (o = 0; o < n->ports; o++) {
        uint32_t c = f->out_ch[n->base + o];
        ibcc_fchan_ *ch;
        if (c == IBCC_F_NONE_) continue;
        ch = &f->ch[c];
        ibcc_fab_credits_before_(ch, f->loop.now, f->loop.cur);
        ibcc_marker_set_busy(mk, o, ch->busy
                             || ch->vls <= vl || !ibcc_fab_room_(ch, ln, units));
    }
}

/* Removes packet pi from buffer b's queue: it departs, its tail still
   holds room (held) until it is out. */
static void ibcc_fab_buf_take_(ibcc_fbuf_ *b, uint32_t pi, uint32_t units)
{
    uint32_t k;
    for (k = 0; k < b->n; k++) {
        if (b->q[k] == pi) {
            memmove(&b->q[k], &b->q[k + 1], (b->n - k - 1u) * sizeof *b->q);
            b->n--;
            break;
        }
    }
    b->held_p++;
    b->held_u += units;
}

/* A packet of `units` departed input (in, ln) of switch w: its credits
   reach the upstream sender at t (one propagation delay after its tail
   leaves), sent back now since t is known. */
static void ibcc_fab_credit_early_(ibcc_fabric *f, const ibcc_fsw_ *w,
                                   uint32_t in, uint32_t ln, uint32_t units,
                                   ibcc_time tail_out)
{
    uint32_t up = f->in_ch[f->node[w->node].base + in];
    ibcc_fab_credit_send_(f, up, tail_out + f->ch[up].prop, ln, units, 1);
}

/* The tail of a departed packet left input buffer (in, lane) of switch
   w: its room is free and the marker releases it. Its credits were sent
   back when it started (early), or start back now, one propagation
   delay to the upstream sender. */
static void ibcc_fab_buf_release_(ibcc_fabric *f, ibcc_fsw_ *w, uint32_t in,
                                  uint32_t ln, uint32_t units, uint32_t size,
                                  int early)
{
    const ibcc_fnode_ *n = &f->node[w->node];
    ibcc_fbuf_ *b = &f->buf[(n->base + in) * f->nlanes + ln];
    uint32_t up = f->in_ch[n->base + in];
    ibcc_fchan_ *u = &f->ch[up];
    b->occ_p--;
    b->occ_u -= units;
    b->held_p--;
    b->held_u -= units;
    if (ln != IBCC_F_ACK_)
        ibcc_marker_release(&w->mk[IBCC_F_LVL_(ln)], in, size);
    if (early) {
        u->lc[ln].early_p--;
        u->lc[ln].early_u -= units;
    } else {
        ibcc_fab_credit_send_(f, up, f->loop.now + u->prop, ln, units, 0);
    }
}

/* Input (in, ln) of switch w is busy until the completion of channel
   c's packet: if more packets wait in it, the switch looks again then. */
static void ibcc_fab_in_busy_until_(ibcc_fabric *f, ibcc_fsw_ *w,
                                    uint32_t in, uint32_t ln, uint32_t c)
{
    const ibcc_fnode_ *n = &f->node[w->node];
    ibcc_fbuf_ *b = &f->buf[(n->base + in) * f->nlanes + ln];
    const ibcc_fchan_ *ch = &f->ch[c];
    b->free_at = ch->xmit_end;
    b->free_ch = c;
    if (b->n) ibcc_fab_wake_end_(f, c);
}

/* A packet of `units` left input `in` of switch w through output channel
   oc, starting at `start`: when the input is free for its next packet.
   It is free once the tail has left, except that an input fed by a link
   faster than the output is free after its own link's wire time: the
   tail is in by then and the rest drains at the output's pace. */
static ibcc_time ibcc_fab_in_free_at_(ibcc_fabric *f, const ibcc_fsw_ *w,
                                      uint32_t in, uint32_t size,
                                      ibcc_time start, ibcc_time end)
{
    const ibcc_fchan_ *ic =
        &f->ch[f->in_ch[f->node[w->node].base + in]];
    ibcc_time t = start + ibcc_fab_wire_(ic, size);
    return t < end ? t : end;
}

/* Arbitration of a packet switch (VCT, CIOQ): its due completions first,
   then the ACK lane (so ACKs take free outputs before data), then the
   data lane, each picking until nothing more can start; the kind's
   `serve` step (NULL: none) runs before and after (CIOQ outputs send
   from their buffers). A data start
   never frees anything for the ACK lane, so one pass of each is the
   fixed point. An ACK holds its input slot and input until its tail is
   out. */
static void ibcc_fab_sw_arb_vl_(ibcc_fabric *f, ibcc_fsw_ *w,
                                void (*serve)(ibcc_fabric *, ibcc_fsw_ *));
static void ibcc_fab_sw_arb_(ibcc_fabric *f, ibcc_fsw_ *w,
                             void (*serve)(ibcc_fabric *, ibcc_fsw_ *))
{
    const ibcc_fnode_ *n = &f->node[w->node];
    ibcc_arb_grant g;
    uint32_t v;
    ibcc_fab_settle_(f, w, UINT64_MAX);
    w->lane = IBCC_F_ACK_;
    while (ibcc_arbiter_pick_any(&w->arb[IBCC_F_ACK_], &g)) {
        uint32_t pi = (uint32_t)g.tag;
        uint32_t c = f->out_ch[n->base + g.out];
        ibcc_fpkt_ *p = ibcc_fab_pkt_(f, pi);
        ibcc_fab_buf_take_(&f->buf[(n->base + g.in) * f->nlanes + IBCC_F_ACK_],
                           pi, p->units);
        (void)ibcc_fab_send_(f, c, pi, p->t_tail);
        f->ch[c].xmit_in = g.in;
        f->ch[c].xmit_iln = IBCC_F_ACK_;
        f->ch[c].xmit_frees_in = 1;
        ibcc_fab_credit_early_(f, w, g.in, IBCC_F_ACK_, p->units,
                               f->ch[c].xmit_end);
        ibcc_fab_in_busy_until_(f, w, g.in, IBCC_F_ACK_, c);
    }
    if (serve) serve(f, w);
    if (w->vsel) {
        ibcc_fab_sw_arb_vl_(f, w, serve);
    } else {
        w->lane = 0;
        while (ibcc_arbiter_pick_any(&w->arb[0], &g)) {
            w->kind->picked(f, w, (uint32_t)g.tag, g.in, g.out);
            if (serve) serve(f, w);
        }
    }
    for (v = 0; v + 1u < f->nlanes; v++)
        ibcc_marker_settle(&w->mk[v]); /* marker.defer: this instant's
                                          triggers */
}

/* The data VLs that could start on each output of switch w now (bit v of
   w->vwant[o]): a VL with a packet for o at an input lane that is not
   sending, whose lane downstream has a packet's credit. A busy output
   with packets waiting wakes the switch at its completion, a VL without
   credits when they return (as ibcc_fab_out_ready_). */
static void ibcc_fab_vl_wants_(ibcc_fabric *f, ibcc_fsw_ *w)
{
    const ibcc_fnode_ *n = &f->node[w->node];
    uint32_t o, ln, P = n->ports;
    for (o = 0; o < P; o++) w->vwant[o] = 0;
    for (ln = 0; ln < f->nlanes; ln++) {
        const ibcc_arbiter *a = &w->arb[ln];
        uint32_t wd, nw = a->words;
        if (ln == IBCC_F_ACK_) continue;
        for (wd = 0; wd < nw; wd++) {
            uint64_t ib = a->ready[wd];
            while (ib) {
                uint32_t in = wd * 64u + ibcc_ctz64_(ib), w2;
                ib &= ib - 1u;
                for (w2 = 0; w2 < nw; w2++) {
                    uint64_t ob = a->outs[(size_t)in * nw + w2];
                    while (ob) {
                        uint32_t out = w2 * 64u + ibcc_ctz64_(ob);
                        ob &= ob - 1u;
                        w->vwant[out] |= 1u << IBCC_F_LVL_(
                            ibcc_fab_olane_(f, w, in, ln, out));
                    }
                }
            }
        }
    }
    for (o = 0; o < P; o++) {
        uint32_t c = f->out_ch[n->base + o], v;
        ibcc_fchan_ *ch;
        if (!w->vwant[o] || c == IBCC_F_NONE_) continue;
        ch = &f->ch[c];
        if (ch->busy) {
            ibcc_fab_wake_end_(f, c);
            w->vwant[o] = 0;
            continue;
        }
        ibcc_fab_credits_in_(f, ch);
        for (v = 0; v < ch->vls; v++)
            if ((w->vwant[o] >> v & 1u)
                && ch->lc[IBCC_F_DLANE_(v)].av_p == 0) {
                w->vwant[o] &= ~(1u << v);
                ibcc_fab_wait_room_(f, c);
            }
    }
}

/* The VL port gp's output serves next among `want`: its VL arbitration's
   choice, or VL0 on a link of one VL. */
static int ibcc_fab_vl_pick_(ibcc_fabric *f, uint32_t gp, uint32_t want,
                             unsigned *v)
{
    uint32_t c = f->out_ch[gp];
    if (!want || c == IBCC_F_NONE_) return 0;
    if (f->ch[c].vls < 2u) {
        *v = 0;
        return (int)(want & 1u);
    }
    return ibcc_vlarb_pick(&f->vla[gp], want, v);
}

/* The data lanes of a switch with several VLs: each output's VL
   arbitration (ibcc_vlarb, IBA VLArbitration) picks the VL it serves
   among those that could start (ibcc_fab_vl_wants_); then each input
   lane's packet arbitration runs with only those (output, VL) pairs open
   (ibcc_fab_can_send_ reads w->vsel). An output whose VL found no packet
   that can start (its packets wait for a busy input, or are larger than
   the credits) asks its VL arbitration again without that VL, until every
   output has started a packet or has no VL left. */
static void ibcc_fab_sw_arb_vl_(ibcc_fabric *f, ibcc_fsw_ *w,
                                void (*serve)(ibcc_fabric *, ibcc_fsw_ *))
{
    const ibcc_fnode_ *n = &f->node[w->node];
    uint32_t o, ln, P = n->ports;
    ibcc_arb_grant g;
    int again = 1;
    ibcc_fab_vl_wants_(f, w);
    for (o = 0; o < P; o++) {
        unsigned v;
        w->vsel[o] = 0xffu;
        if (ibcc_fab_vl_pick_(f, n->base + o, w->vwant[o], &v))
            w->vsel[o] = (uint8_t)IBCC_F_DLANE_(v);
    }
    while (again) {
        again = 0;
        for (ln = 0; ln < f->nlanes; ln++) {
            if (ln == IBCC_F_ACK_) continue;
            w->lane = ln;
            while (ibcc_arbiter_pick_any(&w->arb[ln], &g)) {
                uint32_t ol = w->vsel[g.out];
                w->kind->picked(f, w, (uint32_t)g.tag, g.in, g.out);
                if (f->ch[f->out_ch[n->base + g.out]].vls > 1u)
                    (void)ibcc_vlarb_sent(&f->vla[n->base + g.out],
                                          IBCC_F_LVL_(ol), g.size);
                w->vsel[g.out] = 0xfeu;         /* started */
                if (serve) serve(f, w);
            }
        }
        for (o = 0; o < P; o++) {
            unsigned v;
            if (w->vsel[o] >= 0xfeu) continue;
            w->vwant[o] &= ~(1u << IBCC_F_LVL_(w->vsel[o]));
            w->vsel[o] = 0xffu;
            if (ibcc_fab_vl_pick_(f, n->base + o, w->vwant[o], &v)) {
                w->vsel[o] = (uint8_t)IBCC_F_DLANE_(v);
                again = 1;
            }
        }
    }
    for (o = 0; o < P; o++) w->vsel[o] = 0xffu;
}

/* -- VCT: input-buffered virtual cut-through -------------------------------
   An output takes a packet straight from its input buffer when the
   transmitter is idle and the downstream buffer has room; the packet
   stays in its input buffer (holding its credits) until its tail is
   out. */
static int ibcc_fab_vct_can_take_(ibcc_fabric *f, ibcc_fsw_ *w, unsigned out,
                                  uint32_t ln, uint32_t size)
{
    return ibcc_fab_out_ready_(f, f->out_ch[f->node[w->node].base + out],
                               ln, ibcc_fab_units_(size));
}

static size_t ibcc_fab_vct_setup_(const ibcc_fabric *f, uint32_t node,
                                  ibcc_marker_desc *md)
{
    (void)f; (void)node; (void)md;
    return 0;                   /* the shared input buffers are its state */
}

static void ibcc_fab_vct_init_(ibcc_fabric *f, ibcc_fsw_ *w, void *mem)
{
    (void)f; (void)w; (void)mem;
}

static void ibcc_fab_vct_arbitrate_(ibcc_fabric *f, ibcc_fsw_ *w)
{
    ibcc_fab_sw_arb_(f, w, NULL);
}

static void ibcc_fab_vct_picked_(ibcc_fabric *f, ibcc_fsw_ *w, uint32_t pi,
                                 unsigned in, unsigned out)
{
    const ibcc_fnode_ *n = &f->node[w->node];
    uint32_t c = f->out_ch[n->base + out];
    ibcc_fchan_ *ch = &f->ch[c];
    ibcc_fpkt_ *p = ibcc_fab_pkt_(f, pi);
    unsigned before = p->hdr;
    uint32_t iln = p->lane, ol = ibcc_fab_olane_(f, w, in, iln, out);
    ibcc_fbuf_ *b = &f->buf[(n->base + in) * f->nlanes + iln];
    ibcc_time start, end, free_at;
    p->hdr |= ibcc_marker_depart(&w->mk[IBCC_F_LVL_(iln)], in, out, p->size,
                                 p->hdr, ibcc_fab_has_credit_(f, ch, ol,
                                                              p->units));
    ibcc_fab_marked_(f, p, before, w->node);
    ibcc_fab_buf_take_(b, pi, p->units);
    p->lane = (uint16_t)ol;             /* the VL of the next link */
    p->vl = (uint16_t)IBCC_F_LVL_(ol);
    start = ibcc_fab_send_(f, c, pi, p->t_tail);
    end = ch->xmit_end;
    ch->xmit_in = in;
    ch->xmit_iln = iln;
    ibcc_fab_credit_early_(f, w, in, iln, p->units, end);
    free_at = ibcc_fab_in_free_at_(f, w, in, ch->xmit_size, start, end);
    if (f->d.input_fanout) {            /* the input is free at once */
        b->free_at = 0;
        (void)ibcc_arbiter_set_input_busy(&w->arb[iln], in, 0);
    } else if (free_at < end) {
        b->free_at = 0;
        ibcc_fab_at_(f, free_at, IBCC_F_E_SWITCH_,
                     IBCC_F_SWEV_(n->base + in, iln), NULL);
    } else {
        ch->xmit_frees_in = 1;
        ibcc_fab_in_busy_until_(f, w, in, iln, c);
    }
}

/* Its event (port: an input, aux: its lane): the input is free for its
   next packet before its previous one's tail is out (faster input
   link). */
static void ibcc_fab_vct_event_(ibcc_fabric *f, ibcc_fsw_ *w, uint32_t port,
                                uint32_t aux)
{
    ibcc_fab_settle_(f, w, f->loop.cur);
    (void)ibcc_arbiter_set_input_busy(&w->arb[aux], port, 0);
    ibcc_fab_kick_sw_(f, f->node[w->node].idx);
}

/* Packets an output is still sending from input `port` on lane ln (the
   ACK lane of every packet kind too): their credits went back early. */
static uint64_t ibcc_fab_vct_held_(const ibcc_fabric *f, const ibcc_fsw_ *w,
                                   uint32_t port, uint32_t ln, uint64_t *pk,
                                   int *early)
{
    const ibcc_fnode_ *to = &f->node[w->node];
    uint64_t u = 0;
    uint32_t o;
    *pk = 0;
    *early = 1;
    for (o = 0; o < to->ports; o++) {
        uint32_t c = f->out_ch[to->base + o];
        const ibcc_fchan_ *ch;
        if (c == IBCC_F_NONE_) continue;
        ch = &f->ch[c];
        if (ch->busy && ch->xmit_iln == ln && !ch->xmit_from_obuf
            && ch->xmit_in == port) {
            (*pk)++;
            u += ch->xmit_units;
        }
    }
    return u;
}

static ibcc_result ibcc_fab_vct_check_(const ibcc_fabric *f,
                                       const ibcc_fsw_ *w, uint64_t *located)
{
    (void)f; (void)w; (void)located;
    return IBCC_OK;             /* no state beyond the input buffers */
}

static void ibcc_fab_vct_txend_(ibcc_fabric *f, ibcc_fsw_ *w, uint32_t c)
{
    ibcc_fchan_ *ch = &f->ch[c];
    ibcc_fab_buf_release_(f, w, ch->xmit_in, ch->xmit_iln, ch->xmit_units,
                          ch->xmit_size, 1);
    if (ch->xmit_frees_in)
        (void)ibcc_arbiter_set_input_busy(&w->arb[ch->xmit_iln], ch->xmit_in,
                                          0);
}

/* ---- 6. the tail leaves: output free, input slot released --------------- */

/* The tail of the packet output `port` of switch w was sending has left
   (its completion, applied when due by ibcc_fab_settle_): the
   transmitter is free; for an ACK its input slot is released and its
   input free; for data the kind frees what the packet held (VCT: the
   input slot, and the input unless a faster link freed it earlier;
   CIOQ: the output buffer's room). The credits went back when it
   started. */
static void ibcc_fab_complete_(ibcc_fabric *f, ibcc_fsw_ *w, uint32_t port)
{
    uint32_t c = f->out_ch[f->node[w->node].base + port];
    ibcc_fchan_ *ch = &f->ch[c];
    ch->busy = 0;
    if (ch->end_wake) ibcc_fab_out_sync_(f, c);      /* was closed */
    if (ch->xmit_lane == IBCC_F_ACK_) {
        ibcc_fab_buf_release_(f, w, ch->xmit_in, IBCC_F_ACK_, ch->xmit_units,
                              ch->xmit_size, 1);
        (void)ibcc_arbiter_set_input_busy(&w->arb[IBCC_F_ACK_], ch->xmit_in,
                                          0);
    } else {
        w->kind->txend(f, w, c);
    }
}

/* ---- 7. delivery at the destination host ---------------------------------- */

/* Tail of packet pi reached a host with an absorption cap: the host takes
   packets one after another at host_cap (e.g. a PCIe-limited adapter,
   [G]); the packet holds its receive buffer space until absorbed. */
static void ibcc_fab_host_absorb_(ibcc_fabric *f, uint32_t pi)
{
    ibcc_fpkt_ *p = ibcc_fab_pkt_(f, pi);
    ibcc_fchan_ *in = &f->ch[p->chan];
    ibcc_fhost_ *o = &f->host[f->node[p->node].idx];
    ibcc_time now = f->loop.now, t = 0;
    in->lc[p->lane].wire_p--;
    in->lc[p->lane].wire_u -= p->units;
    in->lc[p->lane].rx_p++;
    in->lc[p->lane].rx_u += p->units;
    (void)ibcc_wire_time(p->size, f->d.host_cap, &t);
    if (o->rx_free < now) o->rx_free = now;
    o->rx_free += t;
    ibcc_fab_at_(f, o->rx_free, IBCC_F_E_RXDONE_, pi, NULL);
}

/* Bytes of a delivered packet go into the bins of every channel on its
   path from node `from` to host `to` (static routes), spread over its
   reception [t0, now) at the destination: a channel's series counts
   exactly what it carried to a destination, so a flow's bytes in a
   window are part of every channel total of its path in that window. */

/* When the reception of packet pi at its destination began: its tail is
   in now, and the last hop (or a capped host, whichever is slower) took
   its wire time to bring it in. */
static ibcc_time ibcc_fab_rx_start_(const ibcc_fabric *f, const ibcc_fpkt_ *p)
{
    ibcc_time now = f->loop.now, w = ibcc_fab_wire_(&f->ch[p->chan], p->size);
    if (f->d.host_cap) {
        ibcc_time t = 0;
        (void)ibcc_wire_time(p->size, f->d.host_cap, &t);
        if (t > w) w = t;
    }
    return w < now ? now - w : 0;
}
static void ibcc_fab_path_bins_(ibcc_fabric *f, uint32_t from, uint32_t to,
                                uint32_t lid, ibcc_time t0, uint32_t bytes)
{
    ibcc_time now = f->loop.now;
    uint32_t c = f->out_ch[f->node[from].base];
    if (!f->ch_bins) return;
    for (;;) {
        const ibcc_fnode_ *n;
        ibcc_fab_bin_(f, f->ch_bins + (uint64_t)c * f->nbins, t0, now,
                      bytes);
        n = &f->node[f->ch[c].to];
        if (n->kind == IBCC_FABRIC_HOST) return;
        c = f->out_ch[n->base + ibcc_fab_rtl_(f, n->idx, to, lid)];
    }
}

/* Log-linear latency bucket: values below 16 ps exactly, above 16 sub-
   buckets per power of two. */
static uint32_t ibcc_fab_hbucket_(ibcc_time v)
{
    uint32_t e = 0;
    ibcc_time x = v;
    if (v < 16u) return (uint32_t)v;
    while (x >= 32u) {
        x >>= 1;
        e++;
    }
    /* v in [2^(e+4), 2^(e+5)): x = v >> e in [16, 32) */
    return (e + 1u) * 16u + (uint32_t)(x - 16u);
}

/* Upper edge of bucket k (inverse of ibcc_fab_hbucket_). */
static ibcc_time ibcc_fab_hedge_(uint32_t k)
{
    uint32_t e, sub;
    if (k < 16u) return k;
    e = k / 16u - 1u;
    sub = k % 16u;
    if (e >= 59u) return IBCC_TIME_MAX;
    return (((ibcc_time)(16u + sub + 1u)) << e) - 1u;
}

/* Tail of packet pi reached host `node` (or a capped host finished
   absorbing it): it is consumed at once and its credits start back, one
   propagation delay to the sender. Data goes on to ibcc_fab_deliver_
   (section 7), an ACK/CNP to ibcc_fab_ack_at_source_ (section 8). */
static void ibcc_fab_deliver_(ibcc_fabric *f, uint32_t pi);
static void ibcc_fab_ack_at_source_(ibcc_fabric *f, uint32_t pi);

static void ibcc_fab_host_receive_(ibcc_fabric *f, uint32_t pi, int from_rx)
{
    ibcc_fpkt_ *p = ibcc_fab_pkt_(f, pi);
    uint32_t c = p->chan, ln = p->lane;
    ibcc_fchan_ *in = &f->ch[c];
    ibcc_time now = f->loop.now;
    if (from_rx) {
        in->lc[ln].rx_p--;
        in->lc[ln].rx_u -= p->units;
    } else {
        in->lc[ln].wire_p--;
        in->lc[ln].wire_u -= p->units;
    }
    ibcc_fab_credit_send_(f, c, now + in->prop, ln, p->units, 0);
    if (ln != IBCC_F_ACK_) ibcc_fab_deliver_(f, pi);
    else ibcc_fab_ack_at_source_(f, pi);
    ibcc_fab_pkt_del_(f, pi);
}

/* A data packet (or worm) whose reception at its destination host began
   at t0 is complete now: statistics (flow, class, series), message
   completion, the observer, start_after gates. */
static void ibcc_fab_account_(ibcc_fabric *f, const ibcc_fpkt_ *p,
                              ibcc_time t0)
{
    uint32_t fi = p->flow;
    ibcc_fflow_ *fl = &f->flow[fi];
    ibcc_fclass_ *k = &f->cls[fl->d.cls];
    ibcc_time now = f->loop.now;
    ibcc_time lat = now - p->t_gen;
    int mk = (p->hdr & (IBCC_FECN | IBCC_MB)) != 0;
    int vb = (p->hdr & IBCC_VB) != 0;
    fl->st.delivered++;
    fl->st.delivered_bytes += p->size;
    fl->st.marked += (uint64_t)mk;
    fl->st.validated += (uint64_t)vb;
    fl->st.lat_sum = ibcc_fab_sat_(fl->st.lat_sum, lat);
    if (lat > fl->st.lat_max) fl->st.lat_max = lat;
    if (fl->st.lat_min == 0 || lat < fl->st.lat_min) fl->st.lat_min = lat;
    {
        uint64_t ns = lat / 1000u;
        unsigned b = 0;
        while (ns > 1u && b < 31u) {
            ns >>= 1;
            b++;
        }
        fl->st.lat_hist[b]++;
    }
    k->st.delivered++;
    k->st.delivered_bytes += p->size;
    k->st.marked += (uint64_t)mk;
    k->st.validated += (uint64_t)vb;
    k->st.lat_sum = ibcc_fab_sat_(k->st.lat_sum, lat);
    if (lat > k->st.lat_max) k->st.lat_max = lat;
    if (k->st.lat_min == 0 || lat < k->st.lat_min) k->st.lat_min = lat;
    k->hist[ibcc_fab_hbucket_(lat)]++;
    if (p->last) {                 /* in-order: its message is complete */
        fl->st.msgs++;
        fl->st.msg_time_sum = ibcc_fab_sat_(fl->st.msg_time_sum, lat);
        k->st.msgs++;
        k->st.msg_time_sum = ibcc_fab_sat_(k->st.msg_time_sum, lat);
        if (lat > k->st.msg_time_max) k->st.msg_time_max = lat;
        if (f->msg_fn) f->msg_fn(f->msg_user, fi, p->t_gen, now);
    }
    f->data_delivered++;
    f->bytes_delivered += p->size;
    if (f->flow_bins) {
        if (fi < f->nf)                 /* series of the desc's flows */
            ibcc_fab_bin_(f, f->flow_bins + (uint64_t)fi * f->nbins, t0,
                          now, p->size);
        ibcc_fab_path_bins_(f, fl->d.src, fl->d.dst, fl->d.dlid, t0, p->size);
    }
    if (f->d.observer.delivered) {
        ibcc_fabric_pkt v;
        ibcc_fab_view_(f, p, fl->d.dst, now, &v);
        v.t_head = t0;
        f->d.observer.delivered(f->d.observer.user, &v);
    }
    while (f->after_next < f->nafter
           && f->flow[f->after[f->after_next]].d.start_after
              <= f->data_delivered)
        ibcc_fab_start_gate_(f, f->after[f->after_next++]);
}

/* A data packet's tail is at its destination host: its statistics, then
   the destination's echo rule (ibcc_dest) builds the ACK and/or CNP,
   queued on the host's ACK lane (section 2 sends it first). */
static void ibcc_fab_deliver_(ibcc_fabric *f, uint32_t pi)
{
    ibcc_fpkt_ *p = ibcc_fab_pkt_(f, pi);
    uint32_t hidx = f->node[p->node].idx;
    ibcc_fhost_ *o = &f->host[hidx];
    ibcc_time now = f->loop.now;
    ibcc_fab_account_(f, p, ibcc_fab_rx_start_(f, p));
    {
        /* destination echo rule: an ACK and/or a CNP on lane 1 */
        ibcc_dest_reply r = ibcc_dest_on_packet(&f->dest, p->hdr);
        unsigned k2, flags[2];
        uint32_t covers = 1;
        if (f->dest.ack_every > 1u && r.ack) {
            /* coalesced ACKs: one per ack_every packets and at the end of
               a message; BECN if any packet it covers earned one */
            ibcc_fflow_ *fl = &f->flow[p->flow];
            fl->ack_becn |= r.ack & IBCC_BECN;
            if (++fl->ack_n < f->dest.ack_every && !p->last) {
                r.ack = 0;
            } else {
                r.ack |= fl->ack_becn;
                covers = fl->ack_n;
                fl->ack_n = 0;
                fl->ack_becn = 0;
            }
        }
        flags[0] = r.ack;
        flags[1] = r.cnp;
        for (k2 = 0; k2 < 2u; k2++) {
            uint32_t ai;
            ibcc_fpkt_ *a;
            if (!flags[k2]) continue;
            ai = ibcc_fab_pkt_new_(f);
            if (ai == IBCC_F_NONE_) break;       /* f->err is NOMEM */
            a = ibcc_fab_pkt_(f, ai);
            p = ibcc_fab_pkt_(f, pi);            /* pool may have grown */
            a->flow = p->flow;
            a->msg = p->msg;
            f->flow[p->flow].refs += p->flow >= f->nf;
            a->size = ibcc_dest_reply_bytes(&f->dest, flags[k2]);
            a->units = ibcc_fab_units_(a->size);
            a->lane = 1;
            a->hdr = flags[k2];
            a->covers = (flags[k2] & IBCC_ACK) ? covers : 0u;
            a->t_gen = a->t_inject = now;
            a->node = o->node;
            if (o->ackq_n) ibcc_fab_pkt_(f, o->ackq_tail)->next = ai;
            else o->ackq_head = ai;
            o->ackq_tail = ai;
            o->ackq_n++;
        }
        if (o->ackq_n) ibcc_fab_wake_host_(f, hidx, now);
    }
}

/* ---- 8. the ACK back at its source (lane 1 through steps 2-6) ------------- */

/* An ACK or CNP of flow p->flow reached the flow's source host: an ACK
   closes one packet of the window; the source agent reacts to the echoed
   bits (section 9); the host may send again. */
static void ibcc_fab_ack_at_source_(ibcc_fabric *f, uint32_t pi)
{
    const ibcc_fpkt_ *p = ibcc_fab_pkt_(f, pi);
    ibcc_fflow_ *fl = &f->flow[p->flow];
    ibcc_fclass_ *k = &f->cls[fl->d.cls];
    unsigned marks = ibcc_dest_marks(&f->dest, p->hdr);
    if (p->hdr & IBCC_ACK) {
        uint32_t n = p->covers ? p->covers : 1u;
        fl->outstanding = fl->outstanding > n ? fl->outstanding - n : 0u;
        fl->st.acks++;
        k->st.acks++;
        if (marks) {
            fl->st.acks_marked++;
            k->st.acks_marked++;
        }
    }
    if (f->ch_bins)
        ibcc_fab_path_bins_(f, fl->d.dst, fl->d.src, 0, ibcc_fab_rx_start_(f, p),
                            p->size);
    fl->ag->ack(f, fl, p->hdr, marks);
    ibcc_fab_wake_host_(f, fl->host, f->loop.now);
}

/* ---- L3 switch kinds and link flow control: implementation -------------
   Everything a switch kind or a link flow control does, behind the tables
   of the core (ibcc_fswkind_, ibcc_flink_): section 5, the credit link and
   the packet switches VCT and CIOQ (they share the core's input buffers
   and packet arbitration);
   section 10, the STOP/GO link and the WORMHOLE switch; then each link's
   setup, event bound, conservation check and channel totals, and the
   table of kinds that creation looks a kind up in. */

/* Credit flow control (sections 2-8): its operations and table. */
static ibcc_result ibcc_fab_credits_setup_(ibcc_fabric *f);
static uint64_t ibcc_fab_credits_events_(const ibcc_fabric *f);
static ibcc_result ibcc_fab_credits_check_(const ibcc_fabric *f,
                                           uint64_t *located);
static void ibcc_fab_credits_totals_(const ibcc_fabric *f, uint32_t c,
                                     uint64_t *bytes, ibcc_time *busy);
static void ibcc_fab_no_event_(ibcc_fabric *f, uint64_t idx);
static uint64_t ibcc_fab_credits_progress_(const ibcc_fabric *f);
static uint32_t ibcc_fab_credits_blocked_(const ibcc_fabric *f, char *buf,
                                          size_t len);
static const ibcc_flink_ ibcc_fab_credits_link_ = {
    "credit", ibcc_fab_credits_setup_, ibcc_fab_credits_events_,
    ibcc_fab_host_run_, ibcc_fab_credits_check_, ibcc_fab_credits_totals_,
    { ibcc_fab_no_event_, ibcc_fab_no_event_ },
    ibcc_fab_credits_progress_, ibcc_fab_credits_blocked_
};

/* Packets started on links and delivered. */
static uint64_t ibcc_fab_credits_progress_(const ibcc_fabric *f)
{
    return f->hops + f->delivered;
}

/* Appends "node:port->node:port vlV" of channel c to buf (used bytes *at). */
static void ibcc_fab_name_ch_(const ibcc_fabric *f, uint32_t c, uint32_t vl,
                              char *buf, size_t len, size_t *at)
{
    const ibcc_fchan_ *ch = &f->ch[c];
    int k;
    if (*at + 1u >= len) return;
    k = snprintf(buf + *at, len - *at, "%s%u:%u->%u:%u vl%u",
                 *at ? ", " : "", ch->from, ch->from_port, ch->to,
                 ch->to_port, vl);
    if (k < 0 || (size_t)k >= len - *at) {     /* cut: end with "..." */
        if (len >= 4u) memcpy(buf + len - 4u, "...", 4u);
        *at = len;
        return;
    }
    *at += (size_t)k;
}

/* The output channels (and VLs) the packets at the heads of switch input
   buffers wait for that have no credits for them; none while anything is
   under way on a link (a packet being sent or on the wire, credits on
   their way back): a very slow or very long link is slow, not stuck. */
static uint32_t ibcc_fab_credits_blocked_(const ibcc_fabric *f, char *buf,
                                          size_t len)
{
    uint32_t s, k, ln, n = 0, j, ns = 0;
    uint64_t seen[64];          /* (channel, lane) pairs listed */
    size_t at = 0;
    if (len) buf[0] = '\0';
    for (k = 0; k < f->nch; k++) {
        const ibcc_fchan_ *ch = &f->ch[k];
        if ((ch->busy && ch->xmit_end > f->loop.now)
            || (ch->cr_n && ch->cr[(ch->cr_first + ch->cr_n - 1u)
                                   & (ch->cr_cap - 1u)].t > f->loop.now))
            return 0;
        for (ln = 0; ln < f->nlanes; ln++)
            if (ch->lc[ln].wire_p) return 0;
    }
    for (s = 0; s < f->nsw; s++) {
        const ibcc_fsw_ *w = &f->sw[s];
        const ibcc_fnode_ *nd = &f->node[w->node];
        for (k = 0; k < nd->ports; k++)
            for (ln = 0; ln < f->nlanes; ln++) {
                const ibcc_fbuf_ *b = &f->buf[(nd->base + k) * f->nlanes + ln];
                const ibcc_fpkt_ *p;
                uint32_t c, ol;
                if (!b->n) continue;
                p = ibcc_fab_pkt_(f, b->q[0]);
                c = f->out_ch[nd->base + p->out_port];
                ol = ln == IBCC_F_ACK_ ? ln
                     : ibcc_fab_olane_(f, w, k, ln, p->out_port);
                if (f->ch[c].lc[ol].av_p != 0
                    && f->ch[c].lc[ol].av_u >= p->units)
                    continue;
                for (j = 0; j < ns; j++)
                    if (seen[j] == ((uint64_t)c << 5 | ol)) break;
                if (j < ns) continue;           /* listed already */
                if (ns < 64u) seen[ns++] = (uint64_t)c << 5 | ol;
                n++;
                ibcc_fab_name_ch_(f, c, IBCC_F_LVL_(ol), buf, len, &at);
            }
    }
    return n;
}

static const ibcc_fswkind_ ibcc_fab_vct_ = {
    "VCT", &ibcc_fab_credits_link_, IBCC_VLARB_MAX_VLS, ibcc_fab_vct_setup_,
    ibcc_fab_vct_init_,
    ibcc_fab_vct_arbitrate_, ibcc_fab_vct_can_take_, ibcc_fab_vct_picked_,
    ibcc_fab_vct_txend_, ibcc_fab_vct_event_, ibcc_fab_vct_held_,
    ibcc_fab_vct_check_, 1
};

/* -- CIOQ: input and output buffers, crossbar speedup S ---------------------
   The arbiter moves a packet from its input buffer through the crossbar
   into its output's buffer when that buffer has room and no other
   transfer into it is in progress; the transfer runs at S times the
   output link's rate but never ahead of the packet's tail. The input and
   its credits are free when the transfer ends. Each output sends its
   buffer in order (cut-through: the head may start while its transfer is
   still running) whenever the link is idle and downstream has room. ACKs
   do not use the output buffers: their lane crosses as in VCT. The marker
   is a CIOQ marker: depart = into the output buffer, leave = onto the
   link. */
/* A CIOQ marker (depart into the output buffer, leave onto the link) and
   an output buffer per port. */
static size_t ibcc_fab_cioq_setup_(const ibcc_fabric *f, uint32_t node,
                                   ibcc_marker_desc *md)
{
    md->org = IBCC_ORG_CIOQ;
    md->out_capacity = f->d.buf_credits ? f->d.out_buf_credits
                                        : f->d.out_buf_packets;
    return ibcc_fab_mul_(f->node[node].ports, sizeof(ibcc_fobuf_));
}

static void ibcc_fab_cioq_init_(ibcc_fabric *f, ibcc_fsw_ *w, void *mem)
{
    uint32_t k;
    w->ob_cap_p = f->d.out_buf_packets;
    w->ob_cap_u = f->d.out_buf_credits ? f->d.out_buf_credits
                                       : f->d.out_buf_packets * 1024u;
    w->obuf = (ibcc_fobuf_ *)mem;
    for (k = 0; k < f->node[w->node].ports; k++)
        w->obuf[k].head = w->obuf[k].tail = IBCC_F_NONE_;
}

static void ibcc_fab_cioq_serve_(ibcc_fabric *f, ibcc_fsw_ *w);
static void ibcc_fab_cioq_arbitrate_(ibcc_fabric *f, ibcc_fsw_ *w)
{
    ibcc_fab_sw_arb_(f, w, ibcc_fab_cioq_serve_);
}

static int ibcc_fab_cioq_can_take_(ibcc_fabric *f, ibcc_fsw_ *w, unsigned out,
                                   uint32_t ln, uint32_t size)
{
    const ibcc_fobuf_ *ob = &w->obuf[out];
    const ibcc_fchan_ *ch;
    (void)ln;                           /* one data VL (max_vls 1) */
    if (ob->xbar) return 0;             /* its transfer's end looks again */
    if (ob->n < w->ob_cap_p && ob->occ_u + ibcc_fab_units_(size) <= w->ob_cap_u)
        return 1;
    /* full: room comes when the packet on the link completes (one that
       waits for credits is the serve step's) */
    ch = ibcc_fab_out_(f, w, out);
    if (ch->busy) ibcc_fab_wake_end_(f, f->out_ch[f->node[w->node].base + out]);
    return 0;
}

static void ibcc_fab_cioq_picked_(ibcc_fabric *f, ibcc_fsw_ *w, uint32_t pi,
                                  unsigned in, unsigned out)
{
    const ibcc_fnode_ *n = &f->node[w->node];
    ibcc_fchan_ *ch = ibcc_fab_out_(f, w, out);
    ibcc_fobuf_ *ob = &w->obuf[out];
    ibcc_fpkt_ *p = ibcc_fab_pkt_(f, pi);
    unsigned before = p->hdr;
    ibcc_time now = f->loop.now, xfer, end;
    p->hdr |= ibcc_marker_depart(&w->mk[0], in, out, p->size, p->hdr,
                                 ibcc_fab_has_credit_(f, ch, 0, p->units));
    ibcc_fab_marked_(f, p, before, w->node);
    ibcc_fab_buf_take_(&f->buf[(n->base + in) * f->nlanes], pi, p->units);
    f->buf[(n->base + in) * f->nlanes].free_at = 0; /* the transfer's end
                                                       frees it */
    xfer = ibcc_fab_wire_(ch, p->size) / w->f->d.speedup;
    end = now + xfer;
    if (end < p->t_tail) end = p->t_tail;
    p->t_tail = end;                   /* tail in the output buffer */
    if (ob->head == IBCC_F_NONE_) ob->head = pi;
    else ibcc_fab_pkt_(f, ob->tail)->next = pi;
    ob->tail = pi;
    p->next = IBCC_F_NONE_;
    ob->n++;
    ob->occ_u += p->units;
    ob->xbar = 1;
    ob->x_in = in;
    ob->x_units = p->units;
    ob->x_size = p->size;
    ibcc_fab_at_(f, end, IBCC_F_E_SWITCH_, IBCC_F_SWEV_(n->base + out, 0),
                 NULL);
}

/* Every idle output with a packet at the head of its buffer and room
   downstream starts it. */
static void ibcc_fab_cioq_serve_(ibcc_fabric *f, ibcc_fsw_ *w)
{
    uint32_t o, ports = f->node[w->node].ports;
    for (o = 0; o < ports; o++) {
        ibcc_fobuf_ *ob = &w->obuf[o];
        uint32_t c = f->out_ch[f->node[w->node].base + o];
        ibcc_fchan_ *ch = &f->ch[c];
        ibcc_fpkt_ *p;
        uint32_t pi;
        if (ob->head == IBCC_F_NONE_) continue;
        pi = ob->head;
        p = ibcc_fab_pkt_(f, pi);
        if (!ibcc_fab_out_ready_(f, c, 0, p->units)) continue;
        ob->head = p->next;
        if (ob->head == IBCC_F_NONE_) ob->tail = IBCC_F_NONE_;
        p->next = IBCC_F_NONE_;
        (void)ibcc_fab_send_(f, c, pi, p->t_tail);
        ch->xmit_in = o;
        ch->xmit_from_obuf = 1;
        if (ob->head != IBCC_F_NONE_) ibcc_fab_wake_end_(f, c); /* next */
    }
}

/* Its event (port: an output): the crossbar
   transfer into that output's buffer ended (the packet itself may have
   moved on already: cut-through): its input is free, its credits go back
   upstream, the output may take the next transfer. */
static void ibcc_fab_cioq_event_(ibcc_fabric *f, ibcc_fsw_ *w, uint32_t port,
                                 uint32_t aux)
{
    ibcc_fobuf_ *ob = &w->obuf[port];
    (void)aux;
    ibcc_fab_settle_(f, w, f->loop.cur);
    ob->xbar = 0;
    ibcc_fab_buf_release_(f, w, ob->x_in, 0, ob->x_units, ob->x_size, 0);
    (void)ibcc_arbiter_set_input_busy(&w->arb[0], ob->x_in, 0);
    ibcc_fab_kick_sw_(f, f->node[w->node].idx);
}

static void ibcc_fab_cioq_txend_(ibcc_fabric *f, ibcc_fsw_ *w, uint32_t c)
{
    ibcc_fchan_ *ch = &f->ch[c];
    ibcc_fobuf_ *ob = &w->obuf[ch->xmit_in];
    ob->n--;
    ob->occ_u -= ch->xmit_units;
    ibcc_marker_leave(&w->mk[0], ch->xmit_in, ch->xmit_size);
}

/* Data: the crossbar transfers out of input `port` (its credits go back
   when the transfer ends, not early); ACKs: as VCT. */
static uint64_t ibcc_fab_cioq_held_(const ibcc_fabric *f, const ibcc_fsw_ *w,
                                    uint32_t port, uint32_t ln, uint64_t *pk,
                                    int *early)
{
    uint64_t u = 0;
    uint32_t o;
    if (ln == IBCC_F_ACK_) return ibcc_fab_vct_held_(f, w, port, ln, pk,
                                                      early);
    *pk = 0;
    *early = 0;
    for (o = 0; o < f->node[w->node].ports; o++)
        if (w->obuf[o].xbar && w->obuf[o].x_in == port) {
            (*pk)++;
            u += w->obuf[o].x_units;
        }
    return u;
}

/* Its output buffers: the packets listed, the one on the link, their
   units, the marker's output level, at most one transfer into each. */
static ibcc_result ibcc_fab_cioq_check_(const ibcc_fabric *f,
                                        const ibcc_fsw_ *w, uint64_t *located)
{
    const ibcc_fnode_ *n = &f->node[w->node];
    uint32_t k;
    for (k = 0; k < n->ports; k++) {
        const ibcc_fobuf_ *ob = &w->obuf[k];
        uint32_t oc = f->out_ch[n->base + k];   /* NONE: port unlinked */
        const ibcc_fchan_ *ch = oc == IBCC_F_NONE_ ? NULL : &f->ch[oc];
        uint64_t np = 0, nu = 0;
        uint32_t pi = ob->head;
        while (pi != IBCC_F_NONE_ && np <= ob->n) {
            np++;
            nu += ibcc_fab_pkt_(f, pi)->units;
            pi = ibcc_fab_pkt_(f, pi)->next;
        }
        *located += np;
        if (ch && ch->busy && ch->xmit_from_obuf) {  /* being sent */
            np++;
            nu += ch->xmit_units;
        }
        if (np != ob->n || nu != ob->occ_u || ob->xbar > 1u
            || ibcc_marker_level(&w->mk[0], k)
               != (f->d.buf_credits ? nu : np))
            return IBCC_ERR_MISMATCH;
    }
    return IBCC_OK;
}

static const ibcc_fswkind_ ibcc_fab_cioq_ = {
    "CIOQ", &ibcc_fab_credits_link_, 1u, ibcc_fab_cioq_setup_,
    ibcc_fab_cioq_init_, ibcc_fab_cioq_arbitrate_, ibcc_fab_cioq_can_take_,
    ibcc_fab_cioq_picked_, ibcc_fab_cioq_txend_, ibcc_fab_cioq_event_,
    ibcc_fab_cioq_held_, ibcc_fab_cioq_check_, 0
};

/* ---- 10. wormhole fabrics: worms, slack buffers, STOP/GO ------------------
   A fabric whose switches are all IBCC_SWITCH_WORMHOLE has no packet
   buffers and no credits: a message (or a low-priority segment of one) is
   one worm, its bytes stream over every link of its path at once, and
   link-level flow control is STOP/GO on byte-granular slack buffers [K].
   Packets of sections 2-8 are replaced by these steps; generation (1),
   the flows, routes, statistics (the delivery accounting of 7) and the
   loop are shared.

   What is modelled at byte level: every link carries 0 or 1 byte per byte
   time (all links run at one rate, so the rate of every stream is 0 or
   the link rate and each level changes linearly between events); every
   event happens on the byte clock (propagation and routing delays are
   rounded up to whole byte times, a host starts a worm on a byte
   boundary), so the byte counts below are exact integers at every event,
   not approximations. What is modelled at event level: each change of a
   stream (a worm's first byte, a stop, a restart, its last byte) is one
   event at the channel's far end one propagation delay later, and each
   buffer keeps one timer for the next mark it will reach (the STOP or GO
   level, or its front worm draining). A byte-by-byte simulation would
   give the same counts at the same instants with hundreds of times more
   events.

   One channel, sender to receiver:
   - a worm holds the channel from the moment its header wins it (at a
     host: the host picks it; at a switch: the output's round robin
     grants it) until its last byte has been sent; the sender sends while
     no STOP is in force and it has a byte (a host always does; a switch
     input when its front worm has bytes buffered or arriving);
   - the receiver's slack buffer (slack_bytes) holds the bytes of one or
     more worms in arrival order; when it fills to stop_mark it sends STOP
     upstream, when it drains to go_mark after a STOP it sends GO; both
     take the propagation delay, so the buffer must hold stop_mark plus a
     round trip of bytes (checked at create);
   - the front worm's header is routed fwd_delay after it reaches the
     front; the output, when free, is granted round robin among the inputs
     whose front worm asks for it (high priority first with
     worm_priority); the worm releases it when its tail has been sent;
   - a destination host absorbs at link rate and never stops its link;
     the worm counts as delivered when its last byte is in (latency from
     its message's generation, bytes spread from its first byte's
     arrival).
   Hosts serve their flows' worms one at a time, a waiting high-priority
   worm before any low-priority one (non-preemptive), round robin among
   the flows of one priority. */

#define IBCC_WM_RATE0_ 0u
#define IBCC_WM_RATE1_ 1u
#define IBCC_WM_HEAD_  2u
#define IBCC_WM_TAIL_  3u
#define IBCC_WM_STOP_  4u
#define IBCC_WM_GO_    5u

static void ibcc_wm_recompute_(ibcc_fabric *f, uint32_t c);
static void ibcc_wm_txend_(ibcc_fabric *f, ibcc_fsw_ *w, uint32_t c);

static int ibcc_wm_at_switch_(const ibcc_fabric *f, uint32_t c)
{
    return f->node[f->ch[c].to].kind == IBCC_FABRIC_SWITCH;
}

static ibcc_fwent_ *ibcc_wm_ent_(const ibcc_fabric *f, const ibcc_fworm_ *b,
                                 uint32_t k)
{
    return &b->ring[(b->first + k) % f->wcap];
}

/* The front worm of the slack buffer at the end of channel c is routed
   one forwarding delay from now (its switch kind's event at that input). */
static void ibcc_wm_route_at_(ibcc_fabric *f, uint32_t c)
{
    const ibcc_fchan_ *ch = &f->ch[c];
    ibcc_fab_at_(f, f->loop.now + f->wfwd, IBCC_F_E_SWITCH_,
                 IBCC_F_SWEV_(f->node[ch->to].base + ch->to_port, 0), NULL);
}

/* A change of channel c's stream reaches its far end (codes RATE0,
   RATE1, HEAD, TAIL) or a STOP/GO reaches its sender, one propagation
   delay from now. The argument packs (worm, channel, code). */
static void ibcc_wm_signal_(ibcc_fabric *f, uint32_t c, uint32_t code,
                            uint32_t worm)
{
    ibcc_fab_at_(f, f->loop.now + f->wm[c].prop, IBCC_F_E_LINK0_,
                 ((uint64_t)worm << 28) | ((uint64_t)c << 3) | code, NULL);
}

/* Brings the receiver side of channel c up to now: at a switch its
   slack buffer (arrivals into the newest entry, departures from the
   front into the output it holds, whose sent count moves with them); at
   a host the arrival count. */
static void ibcc_wm_advance_(ibcc_fabric *f, uint32_t c)
{
    ibcc_fworm_ *b = &f->wm[c];
    ibcc_time now = f->loop.now;
    uint64_t dt = (now - b->tr) / f->wbt;
    b->tr = now;
    if (dt == 0) return;
    if (b->in_rate) {
        b->rx += dt;
        if (b->n) {
            b->level += (uint32_t)dt;
            ibcc_wm_ent_(f, b, b->n - 1u)->bytes += (uint32_t)dt;
        }
    }
    if (b->gout != IBCC_F_NONE_ && f->wm[b->gout].rate) {
        ibcc_fworm_ *o = &f->wm[b->gout];
        b->out += dt;
        b->level -= (uint32_t)dt;
        ibcc_wm_ent_(f, b, 0)->bytes -= (uint32_t)dt;
        o->sent += dt;
        o->tx += dt;
    }
}

/* Brings the sender side of channel c up to now: a host's count, or the
   slack buffer feeding it. */
static void ibcc_wm_advance_tx_(ibcc_fabric *f, uint32_t c)
{
    ibcc_fworm_ *o = &f->wm[c];
    if (o->feed != IBCC_F_NONE_) {
        ibcc_wm_advance_(f, o->feed);
    } else {
        uint64_t dt = (f->loop.now - o->ts) / f->wbt;
        o->ts = f->loop.now;
        if (o->rate && o->owner != IBCC_F_NONE_) {
            o->sent += dt;
            o->tx += dt;
        }
    }
}

/* Sets the sending rate of channel c (0 or 1 byte per byte time); the
   far end learns it one propagation delay later (the first byte of a
   worm as its HEAD). */
static void ibcc_wm_set_rate_(ibcc_fabric *f, uint32_t c, uint32_t r)
{
    ibcc_fworm_ *o = &f->wm[c];
    uint32_t code = r ? IBCC_WM_RATE1_ : IBCC_WM_RATE0_;
    if (o->rate == r) return;
    o->rate = r;
    if (r && !o->headed) {
        o->headed = 1;
        code = IBCC_WM_HEAD_;
    }
    ibcc_wm_signal_(f, c, code, o->owner);
}

/* The last byte of channel c's worm has left: the far end sees the tail
   one propagation delay later, the channel is free now. */
static void ibcc_wm_release_(ibcc_fabric *f, uint32_t c)
{
    ibcc_fworm_ *o = &f->wm[c];
    ibcc_wm_signal_(f, c, IBCC_WM_TAIL_, o->owner);
    o->rate = 0;
    o->owner = o->feed = IBCC_F_NONE_;
    o->headed = 0;
    o->sent = 0;
    o->ts = f->loop.now;
}

/* (Re)arms the one timer of a buffer (side 0) or host sender (side 1)
   of channel c for `bytes` byte times from now; bytes 0 = none. */
static void ibcc_wm_arm_(ibcc_fabric *f, uint32_t c, uint32_t side,
                         uint64_t bytes)
{
    ibcc_fworm_ *b = &f->wm[c];
    if (b->timer_on[side]) {
        (void)ibcc_loop_cancel(&f->loop, b->timer[side]);
        b->timer_on[side] = 0;
    }
    if (bytes == 0) return;
    b->timer_on[side] = 1;
    ibcc_fab_at_(f, f->loop.now + bytes * f->wbt, IBCC_F_E_LINK1_,
                 ((uint64_t)c << 1) | side, &b->timer[side]);
}

/* Host sender of channel c after a change: the tail is out (release,
   pick the next worm) or it sends while no STOP is in force, with a
   timer for its last byte. */
static void ibcc_wm_host_tx_(ibcc_fabric *f, uint32_t c)
{
    ibcc_fworm_ *o = &f->wm[c];
    const ibcc_fpkt_ *p;
    if (o->owner == IBCC_F_NONE_) return;
    p = ibcc_fab_pkt_(f, o->owner);
    if (o->sent >= p->size) {
        ibcc_wm_arm_(f, c, 1, 0);
        ibcc_wm_release_(f, c);
        ibcc_fab_wake_host_(f, f->node[f->ch[c].from].idx, f->loop.now);
        return;
    }
    ibcc_wm_set_rate_(f, c, !o->stopped);
    ibcc_wm_arm_(f, c, 1, o->rate ? p->size - o->sent : 0u);
}

/* Slack buffer at the end of channel c after a change (brought up to
   now): a front worm whose bytes are all through releases its output
   and the next worm moves up; the output stream follows (it sends while
   not stopped and the front worm has a byte); STOP or GO goes upstream
   at the marks; the timer is set for the next mark: the STOP level
   while filling, the GO level while draining after a STOP, or the front
   worm running out of buffered bytes. */
static void ibcc_wm_recompute_(ibcc_fabric *f, uint32_t c)
{
    ibcc_fworm_ *b = &f->wm[c];
    ibcc_fwent_ *fr = NULL;
    uint32_t out = 0, net_in, fed = 0;
    uint64_t wait = 0;
    for (;;) {
        if (b->n == 0) break;
        fr = ibcc_wm_ent_(f, b, 0);
        fed = b->in_rate && b->in_worm == fr->worm;
        if (b->gout == IBCC_F_NONE_ || fr->bytes != 0
            || b->in_worm == fr->worm)
            break;
        /* the front worm is through: its output is free */
        ibcc_wm_txend_(f, &f->sw[f->node[f->ch[c].to].idx], b->gout);
        b->gout = IBCC_F_NONE_;
        b->routed = 0;
        b->first = (b->first + 1u) % f->wcap;
        b->n--;
        fr = NULL;
        if (b->n) ibcc_wm_route_at_(f, c);
    }
    if (fr && b->gout != IBCC_F_NONE_ && !f->wm[b->gout].stopped
        && (fr->bytes > 0 || fed))
        out = 1;
    if (b->gout != IBCC_F_NONE_) ibcc_wm_set_rate_(f, b->gout, out);
    if (!b->stop_sent && b->level >= f->d.stop_mark) {
        b->stop_sent = 1;
        ibcc_wm_signal_(f, c, IBCC_WM_STOP_, IBCC_F_NONE_);
    } else if (b->stop_sent && b->level <= f->d.go_mark) {
        b->stop_sent = 0;
        ibcc_wm_signal_(f, c, IBCC_WM_GO_, IBCC_F_NONE_);
    }
    net_in = b->in_rate && b->n;        /* bytes come in */
    if (net_in && !out && !b->stop_sent)
        wait = f->d.stop_mark - b->level;
    if (out && !net_in && b->stop_sent) {
        uint64_t w = b->level - f->d.go_mark;
        if (wait == 0 || w < wait) wait = w;
    }
    if (out && !fed) {                  /* the front drains */
        uint64_t w = fr->bytes;
        if (wait == 0 || w < wait) wait = w;
    }
    ibcc_wm_arm_(f, c, 0, wait);
}

/* Event 1 of STOP/GO links: a buffer or host sender reached the point
   its timer was set for. */
static void ibcc_wm_timer_(ibcc_fabric *f, uint64_t idx)
{
    uint32_t c = (uint32_t)(idx >> 1);
    f->wm[c].timer_on[idx & 1u] = 0;
    if (idx & 1u) {
        ibcc_wm_advance_tx_(f, c);
        ibcc_wm_host_tx_(f, c);
    } else {
        ibcc_wm_advance_(f, c);
        ibcc_wm_recompute_(f, c);
    }
}

/* The wormhole kind's event at input `port`: the front worm of its slack
   buffer has its route: it asks for its output; the switch arbitrates
   once the instant's events are in. */
static void ibcc_wm_event_(ibcc_fabric *f, ibcc_fsw_ *w, uint32_t port,
                           uint32_t aux)
{
    const ibcc_fnode_ *n = &f->node[w->node];
    uint32_t c = f->in_ch[n->base + port];
    ibcc_fworm_ *b = &f->wm[c];
    const ibcc_fpkt_ *p;
    (void)aux;
    if (b->n == 0 || b->routed) return;
    p = ibcc_fab_pkt_(f, ibcc_wm_ent_(f, b, 0)->worm);
    b->routed = 1;
    b->out_port = ibcc_fab_rtl_(f, n->idx, f->flow[p->flow].d.dst,
                                f->flow[p->flow].d.dlid);
    ibcc_fab_kick_sw_(f, n->idx);
}

/* Event 0 of STOP/GO links: a stream change reaches channel c's
   receiver, or a STOP/GO its sender. */
static void ibcc_wm_link_(ibcc_fabric *f, uint64_t idx)
{
    uint32_t code = (uint32_t)(idx & 7u);
    uint32_t c = (uint32_t)((idx >> 3) & 0x1ffffffu);
    uint32_t worm = (uint32_t)(idx >> 28);
    ibcc_fworm_ *b = &f->wm[c];
    if (code == IBCC_WM_STOP_ || code == IBCC_WM_GO_) {
        ibcc_wm_advance_tx_(f, c);
        b->stopped = code == IBCC_WM_STOP_;
        if (b->feed != IBCC_F_NONE_) ibcc_wm_recompute_(f, b->feed);
        else if (b->owner != IBCC_F_NONE_) ibcc_wm_host_tx_(f, c);
        return;
    }
    ibcc_wm_advance_(f, c);
    if (code == IBCC_WM_HEAD_) {
        b->in_worm = worm;
        b->in_rate = 1;
        if (ibcc_wm_at_switch_(f, c)) {
            ibcc_fwent_ *e = &b->ring[(b->first + b->n) % f->wcap];
            e->worm = worm;
            e->bytes = 0;
            if (++b->n == 1u)
                ibcc_wm_route_at_(f, c);
        } else {
            ibcc_fab_pkt_(f, worm)->t_tail = f->loop.now;
        }
    } else if (code == IBCC_WM_TAIL_) {
        b->in_rate = 0;
        b->in_worm = IBCC_F_NONE_;
        if (!ibcc_wm_at_switch_(f, c)) {   /* delivered */
            ibcc_fpkt_ *p = ibcc_fab_pkt_(f, worm);
            ibcc_fab_account_(f, p, p->t_tail);
            ibcc_fab_pkt_del_(f, worm);
            return;
        }
    } else {
        b->in_rate = code;
    }
    if (ibcc_wm_at_switch_(f, c)) ibcc_wm_recompute_(f, c);
}

/* The wormhole kind (section 10). Its data units are worms; it has no
   packet buffers (its slack buffers belong to its STOP/GO input links). */
static size_t ibcc_wm_setup_(const ibcc_fabric *f, uint32_t node,
                             ibcc_marker_desc *md)
{
    (void)f; (void)node; (void)md;
    return 0;
}

static void ibcc_wm_init_(ibcc_fabric *f, ibcc_fsw_ *w, void *mem)
{
    (void)f; (void)w; (void)mem;
}

/* Output `out` can take a worm when no worm holds it. */
static int ibcc_wm_can_take_(ibcc_fabric *f, ibcc_fsw_ *w, unsigned out,
                             uint32_t ln, uint32_t size)
{
    uint32_t co = f->out_ch[f->node[w->node].base + out];
    (void)ln;
    (void)size;
    return co != IBCC_F_NONE_ && f->wm[co].owner == IBCC_F_NONE_;
}

/* Worm pi, at the front of input `in`'s slack buffer, wins output `out`:
   the output channel carries it from now on. */
static void ibcc_wm_picked_(ibcc_fabric *f, ibcc_fsw_ *w, uint32_t pi,
                            unsigned in, unsigned out)
{
    const ibcc_fnode_ *n = &f->node[w->node];
    uint32_t ci = f->in_ch[n->base + in], co = f->out_ch[n->base + out];
    ibcc_fworm_ *b = &f->wm[ci], *oc = &f->wm[co];
    ibcc_wm_advance_(f, ci);
    f->wrr[n->base + out] = in;
    oc->owner = pi;
    oc->feed = ci;
    oc->sent = 0;
    oc->headed = 0;
    b->gout = co;
    f->hops++;
    ibcc_wm_recompute_(f, ci);
}

/* Output channel c finished its worm (the last byte has left): it is
   free, and the switch may grant it again. */
static void ibcc_wm_txend_(ibcc_fabric *f, ibcc_fsw_ *w, uint32_t c)
{
    ibcc_wm_release_(f, c);
    ibcc_fab_kick_sw_(f, f->node[w->node].idx);
}

/* Output arbitration: each output that can take a worm is granted, round
   robin from the input after the last one it granted, to an input whose
   routed front worm asks for it; with worm_priority a high-priority
   worm first. */
static void ibcc_wm_arbitrate_(ibcc_fabric *f, ibcc_fsw_ *w)
{
    const ibcc_fnode_ *n = &f->node[w->node];
    uint32_t o, k, pass;
    for (o = 0; o < n->ports; o++) {
        uint32_t pick = IBCC_F_NONE_;
        if (!ibcc_wm_can_take_(f, w, o, 0, 0)) continue;
        for (pass = 0; pass < 2u && pick == IBCC_F_NONE_; pass++) {
            for (k = 1; k <= n->ports; k++) {
                uint32_t in = (f->wrr[n->base + o] + k) % n->ports;
                uint32_t ci = f->in_ch[n->base + in];
                const ibcc_fworm_ *b;
                if (ci == IBCC_F_NONE_) continue;
                b = &f->wm[ci];
                if (!b->n || !b->routed || b->gout != IBCC_F_NONE_
                    || b->out_port != o)
                    continue;
                if (f->d.worm_priority && pass == 0
                    && !f->flow[ibcc_fab_pkt_(f, ibcc_wm_ent_(f, b, 0)->worm)
                                ->flow].d.prio)
                    continue;
                pick = in;
                break;
            }
            if (!f->d.worm_priority) break;
        }
        if (pick == IBCC_F_NONE_) continue;
        ibcc_wm_picked_(f, w, ibcc_wm_ent_(f, &f->wm[f->in_ch[n->base + pick]],
                                            0)->worm, pick, o);
    }
}

/* No credit buffers: nothing departs and still holds room. */
static uint64_t ibcc_wm_held_(const ibcc_fabric *f, const ibcc_fsw_ *w,
                              uint32_t port, uint32_t ln, uint64_t *pk,
                              int *early)
{
    (void)f; (void)w; (void)port; (void)ln;
    *pk = 0;
    *early = 1;
    return 0;
}

/* Each input's slack buffer at the current instant, carried forward
   without changing it: arrived - left = level = the sum of its entries
   <= slack, each entry within its worm. */
static ibcc_result ibcc_wm_check_sw_(const ibcc_fabric *f,
                                     const ibcc_fsw_ *w, uint64_t *located)
{
    const ibcc_fnode_ *n = &f->node[w->node];
    ibcc_time now = f->loop.now;
    uint32_t port, k;
    (void)located;              /* worms are counted by their links */
    for (port = 0; port < n->ports; port++) {
        uint32_t c = f->in_ch[n->base + port];
        const ibcc_fworm_ *b, *o;
        uint64_t din, dout = 0, sum = 0;
        if (c == IBCC_F_NONE_) continue;
        b = &f->wm[c];
        din = b->in_rate ? (now - b->tr) / f->wbt : 0;
        o = b->gout != IBCC_F_NONE_ ? &f->wm[b->gout] : NULL;
        if (o && o->rate) dout = (now - b->tr) / f->wbt;
        if (b->n > f->wcap || (b->n == 0 && b->level != 0))
            return IBCC_ERR_MISMATCH;
        for (k = 0; k < b->n; k++) {
            const ibcc_fwent_ *e = ibcc_wm_ent_(f, b, k);
            if (e->bytes > ibcc_fab_pkt_(f, e->worm)->size)
                return IBCC_ERR_MISMATCH;
            sum += e->bytes;
        }
        sum += b->n ? din : 0;
        if (sum < dout) return IBCC_ERR_MISMATCH;
        sum -= dout;
        if (b->level + (b->n ? din : 0) < dout
            || b->level + (b->n ? din : 0) - dout != sum
            || sum > f->d.slack_bytes
            || b->rx + din - (b->out + dout) != sum)
            return IBCC_ERR_MISMATCH;
    }
    return IBCC_OK;
}

/* STOP/GO flow control (section 10): its operations and table. */
static ibcc_result ibcc_wm_setup_link_(ibcc_fabric *f);
static uint64_t ibcc_wm_events_(const ibcc_fabric *f);
static void ibcc_wm_host_run_(ibcc_fabric *f, uint32_t h);
static ibcc_result ibcc_wm_check_(const ibcc_fabric *f, uint64_t *worms);
static void ibcc_wm_totals_(const ibcc_fabric *f, uint32_t c,
                            uint64_t *bytes, ibcc_time *busy);
static uint64_t ibcc_wm_progress_(const ibcc_fabric *f);
static uint32_t ibcc_wm_blocked_(const ibcc_fabric *f, char *buf,
                                 size_t len);
static const ibcc_flink_ ibcc_fab_stopgo_link_ = {
    "STOP/GO", ibcc_wm_setup_link_, ibcc_wm_events_, ibcc_wm_host_run_,
    ibcc_wm_check_, ibcc_wm_totals_, { ibcc_wm_link_, ibcc_wm_timer_ },
    ibcc_wm_progress_, ibcc_wm_blocked_
};

static const ibcc_fswkind_ ibcc_fab_wormhole_ = {
    "WORMHOLE", &ibcc_fab_stopgo_link_, 1u, ibcc_wm_setup_, ibcc_wm_init_,
    ibcc_wm_arbitrate_, ibcc_wm_can_take_, ibcc_wm_picked_, ibcc_wm_txend_,
    ibcc_wm_event_, ibcc_wm_held_, ibcc_wm_check_sw_, 0
};

/* Host h may start a worm: its link is free (the last worm's tail has
   left); a waiting high-priority worm goes first, else a low-priority
   one, round robin among the flows of a priority. A worm starts on the
   byte clock. */
static void ibcc_wm_host_run_(ibcc_fabric *f, uint32_t h)
{
    ibcc_fhost_ *o = &f->host[h];
    ibcc_fworm_ *oc = &f->wm[o->chan];
    ibcc_time now = f->loop.now;
    uint32_t k, pass, pick = IBCC_F_NONE_, pi;
    ibcc_fflow_ *fl;
    ibcc_fpkt_ *p;
    if (oc->owner != IBCC_F_NONE_ || o->nflows == 0) return;
    for (pass = 0; pass < 2u && pick == IBCC_F_NONE_; pass++)
        for (k = 0; k < o->nflows; k++) {
            uint32_t pos = (o->rr + k) % o->nflows;
            uint32_t fi = o->hf[pos];
            if (f->flow[fi].d.prio != (pass == 0) ||
                !ibcc_fab_has_data_(&f->flow[fi]))
                continue;
            pick = pos;
            break;
        }
    if (pick == IBCC_F_NONE_) return;
    if (now % f->wbt) {                 /* wait for the byte clock */
        ibcc_fab_wake_host_(f, h, now + f->wbt - now % f->wbt);
        return;
    }
    fl = &f->flow[o->hf[pick]];
    pi = ibcc_fab_take_(f, o->hf[pick]);
    if (pi == IBCC_F_NONE_) return;      /* out of memory: f->err */
    o->rr = (pick + 1u) % o->nflows;
    p = ibcc_fab_pkt_(f, pi);
    p->lane = 2;                        /* a worm in the network */
    ibcc_fab_count_sent_(f, fl, p, o->node);
    ibcc_wm_advance_tx_(f, o->chan);
    oc->owner = pi;
    oc->feed = IBCC_F_NONE_;
    oc->sent = 0;
    oc->headed = 0;
    oc->ts = now;
    f->hops++;
    ibcc_wm_host_tx_(f, o->chan);
}

/* Loop events the flow controls add to the shared bound: none for
   credits; for STOP/GO per channel its timers, a route and the stream
   changes on its wire (at most four per byte time in flight). */
static uint64_t ibcc_fab_credits_events_(const ibcc_fabric *f)
{
    (void)f;
    return 0;
}
static uint64_t ibcc_wm_events_(const ibcc_fabric *f)
{
    ibcc_time mp = 0;
    uint32_t i;
    for (i = 0; i < f->nch; i++) if (f->wm[i].prop > mp) mp = f->wm[i].prop;
    return (uint64_t)f->nch * (8u + 4u * (mp / f->wbt + 1u));
}
static void ibcc_fab_no_event_(ibcc_fabric *f, uint64_t idx)
{
    (void)f; (void)idx;         /* credit links schedule none */
}

/* Hops of the route from host src to host dst counted in switches (the
   slack buffers a worm crosses; routes were checked by ibcc_fab_walk_). */
static uint32_t ibcc_fab_switch_hops_(const ibcc_fabric *f, uint32_t src,
                                      uint32_t dst, uint32_t lid)
{
    uint32_t c = f->out_ch[f->node[src].base], hops = 0;
    for (;;) {
        const ibcc_fnode_ *n = &f->node[f->ch[c].to];
        if (n->kind == IBCC_FABRIC_HOST || hops > f->nn) return hops;
        hops++;
        c = f->out_ch[n->base + ibcc_fab_rtl_(f, n->idx, dst, lid)];
    }
}

/* Credit links: flows are packets, without worm priorities. */
static ibcc_result ibcc_fab_credits_setup_(ibcc_fabric *f)
{
    uint32_t i;
    for (i = 0; i < f->nf; i++)
        if (f->flow[i].d.prio)
            return ibcc_fab_err_(f->d.error, IBCC_ERR_UNSUPPORTED, NULL, 0,
                                 "flows[%u]: prio needs WORMHOLE switches",
                                 i);
    return IBCC_OK;
}

/* STOP/GO links of wormhole fabrics (section 10): one link rate with a
   whole number of picoseconds per byte, no ACK traffic (agent NONE, no
   window), STOP/GO marks that the slack buffer can honour over the
   longest round trip, segment lengths per flow. */
static ibcc_result ibcc_wm_setup_link_(ibcc_fabric *f)
{
    ibcc_fabric_desc *d = &f->d;
    ibcc_segment_desc sd;
    uint32_t i;
    uint64_t rtt = 0;
    ibcc_time maxprop = 0;
    ibcc_fabric_error *e = d->error;
    ibcc_result r;
    if (d->nic_fifo || d->host_cap || d->marker.engine != IBCC_MARKER_NONE)
        return ibcc_fab_err_(e, IBCC_ERR_UNSUPPORTED, NULL, 0,
                             "%s: not with WORMHOLE switches",
                             d->nic_fifo ? "nic_fifo"
                             : d->host_cap ? "host_cap" : "marker.engine");
    if (f->nch >= (1u << 25))
        return ibcc_fab_err_(e, IBCC_ERR_CAPACITY, NULL, 0,
                             "links: a WORMHOLE fabric has under 2^24");
    for (i = 0; i < f->nch; i++) {
        if (f->ch[i].rate != f->ch[0].rate)
            return ibcc_fab_err_(e, IBCC_ERR_UNSUPPORTED, NULL, 0,
                                 "links[%u]: rate %llu B/s: a WORMHOLE "
                                 "fabric has one link rate (%llu B/s)",
                                 i / 2u, (unsigned long long)f->ch[i].rate,
                                 (unsigned long long)f->ch[0].rate);
        if (f->ch[i].prop > maxprop) maxprop = f->ch[i].prop;
    }
    if (f->ch[0].rate > IBCC_S(1) || IBCC_S(1) % f->ch[0].rate)
        return ibcc_fab_err_(e, IBCC_ERR_RANGE, NULL, 0,
                             "link_rate %llu B/s: a WORMHOLE fabric needs "
                             "a whole number of ps per byte",
                             (unsigned long long)f->ch[0].rate);
    f->wbt = IBCC_S(1) / f->ch[0].rate;
    f->wfwd = (d->fwd_delay + f->wbt - 1u) / f->wbt * f->wbt;
    rtt = 2u * ((maxprop + f->wbt - 1u) / f->wbt);
    if (d->stop_mark == 0) {
        if (rtt >= d->slack_bytes)
            return ibcc_fab_err_(e, IBCC_ERR_RANGE, NULL, 0,
                                 "slack_bytes %u: not above the longest "
                                 "round trip, %llu byte times",
                                 d->slack_bytes, (unsigned long long)rtt);
        d->stop_mark = d->slack_bytes - (uint32_t)rtt;
    }
    if (d->go_mark == 0)
        d->go_mark = rtt < d->stop_mark ? (uint32_t)rtt : d->stop_mark / 2u;
    if ((uint64_t)d->stop_mark + rtt > d->slack_bytes)
        return ibcc_fab_err_(e, IBCC_ERR_RANGE, NULL, 0,
                             "stop_mark %u: above slack_bytes %u less the "
                             "longest round trip, %llu byte times",
                             d->stop_mark, d->slack_bytes,
                             (unsigned long long)rtt);
    if (d->go_mark >= d->stop_mark)
        return ibcc_fab_err_(e, IBCC_ERR_RANGE, NULL, 0,
                             "go_mark %u: not below stop_mark %u",
                             d->go_mark, d->stop_mark);
    sd = d->segment;
    if (sd.slack_bytes == 0) sd.slack_bytes = d->slack_bytes;
    if ((r = ibcc_segment_init(&f->seg, &sd)) != IBCC_OK)
        return ibcc_fab_err_(e, r, NULL, 0, "segment (ibcc_segment_desc): "
                             "%s", ibcc_result_str(r));
    d->segment.seg_bytes = f->seg.seg_bytes;
    d->segment.slack_bytes = f->seg.slack_bytes;
    for (i = 0; i < f->nf; i++) {
        ibcc_fflow_ *fl = &f->flow[i];
        if (fl->ag->paces || fl->d.window)
            return ibcc_fab_err_(e, IBCC_ERR_UNSUPPORTED, NULL, 0,
                                 "flows[%u]: %s: a WORMHOLE fabric has no "
                                 "ACKs (agent NONE, no window)", i,
                                 fl->d.window ? "window" : fl->ag->name);
        if (d->flows[i].size == 0) {     /* the segment rule decides */
            uint64_t len = ibcc_segment_len(&f->seg,
                fl->d.prio ? IBCC_SEGMENT_HIGH : IBCC_SEGMENT_LOW,
                ibcc_fab_switch_hops_(f, fl->d.src, fl->d.dst, fl->d.dlid));
            fl->d.size = len > 0xffffffffu ? 0xffffffffu : (uint32_t)len;
        }
    }
    f->wcap = d->slack_bytes + 2u;
    f->wm = (ibcc_fworm_ *)ibcc_fab_alloc_(&f->al,
                                  ibcc_fab_mul_(f->nch, sizeof *f->wm));
    f->wring = (ibcc_fwent_ *)ibcc_fab_alloc_(&f->al, ibcc_fab_mul_(
                       ibcc_fab_mul_(f->nch, f->wcap), sizeof *f->wring));
    f->wrr = (uint32_t *)ibcc_fab_alloc_(&f->al, ibcc_fab_mul_(f->nports, 4));
    if (!f->wm || !f->wring || !f->wrr) return IBCC_ERR_NOMEM;
    for (i = 0; i < f->nch; i++) {
        ibcc_fworm_ *b = &f->wm[i];
        b->owner = b->feed = b->in_worm = b->gout = IBCC_F_NONE_;
        b->prop = (f->ch[i].prop + f->wbt - 1u) / f->wbt * f->wbt;
        b->ring = f->wring + (size_t)i * f->wcap;
    }
    return IBCC_OK;
}

/* Credits (packets: units = 0, or units) of lane ln in channel ch's list
   of credits travelling back; the list is in time order. */
static uint64_t ibcc_fab_cr_sum_(const ibcc_fchan_ *ch, uint32_t ln,
                                 int units)
{
    uint64_t n = 0;
    uint32_t k;
    for (k = 0; k < ch->cr_n; k++) {
        const ibcc_fcred_ *e = &ch->cr[(ch->cr_first + k) & (ch->cr_cap - 1u)];
        if (k && e->t < ch->cr[(ch->cr_first + k - 1u) & (ch->cr_cap - 1u)].t)
            return UINT64_MAX;
        if (e->lane == ln) n += units ? e->units : 1u;
    }
    return n;
}

/* Bytes sent on wormhole channel c up to now (its count carried forward
   from the sender's last update without changing it). */
static uint64_t ibcc_wm_tx_now_(const ibcc_fabric *f, uint32_t c)
{
    const ibcc_fworm_ *b = &f->wm[c];
    ibcc_time ts = b->feed != IBCC_F_NONE_ ? f->wm[b->feed].tr : b->ts;
    if (!b->rate || b->owner == IBCC_F_NONE_) return b->tx;
    return b->tx + (f->loop.now - ts) / f->wbt;
}

/* Bytes sent on every link so far, and worms delivered. */
static uint64_t ibcc_wm_progress_(const ibcc_fabric *f)
{
    uint64_t sum = f->delivered;
    uint32_t c;
    for (c = 0; c < f->nch; c++) sum += ibcc_wm_tx_now_(f, c);
    return sum;
}

/* The channels whose slack buffer holds bytes of a worm (none flow);
   none while bytes are on a wire. */
static uint32_t ibcc_wm_blocked_(const ibcc_fabric *f, char *buf, size_t len)
{
    uint32_t c, n = 0;
    size_t at = 0;
    if (len) buf[0] = '\0';
    for (c = 0; c < f->nch; c++) {
        const ibcc_fworm_ *b = &f->wm[c];
        uint64_t din = b->in_rate ? (f->loop.now - b->tr) / f->wbt : 0;
        if (ibcc_wm_tx_now_(f, c) > b->rx + din) return 0;
    }
    for (c = 0; c < f->nch; c++)
        if (f->wm[c].n) {
            n++;
            ibcc_fab_name_ch_(f, c, 0, buf, len, &at);
        }
    return n;
}

/* STOP/GO byte conservation on the links at the current instant
   (section 10), from each side's counts carried forward to now without
   changing them: on every channel 0 <= sent - arrived <= the bytes its
   wire holds; a sender never past its worm's size (the slack buffers are
   their switches' check). Every worm counts as located. */
static ibcc_result ibcc_wm_check_(const ibcc_fabric *f, uint64_t *located)
{
    ibcc_time now = f->loop.now;
    uint32_t c, k, i;
    for (c = 0; c < f->nch; c++) {
        const ibcc_fworm_ *b = &f->wm[c];
        uint64_t din = b->in_rate ? (now - b->tr) / f->wbt : 0;
        uint64_t tx = ibcc_wm_tx_now_(f, c);
        if (tx < b->rx + din || tx - b->rx - din > b->prop / f->wbt)
            return IBCC_ERR_MISMATCH;
        if (b->owner != IBCC_F_NONE_
            && b->sent + (tx - b->tx) > ibcc_fab_pkt_(f, b->owner)->size)
            return IBCC_ERR_MISMATCH;
    }
    for (i = 0; i < f->nchunk; i++)
        for (k = 0; k < IBCC_F_CHUNK_; k++)
            if (f->chunk[i][k].size != 0 && f->chunk[i][k].lane == 2u)
                ++*located;
    return IBCC_OK;
}

/* Credit conservation at the current instant: on every channel and lane,
   free credits + credits in use + credits returning = capacity (credits
   sent back when the packet started downstream, while its tail still
   holds the room, counted once); every switch input's arbiter and marker
   agree with its buffer. The packets in input buffers, capped hosts'
   receive buffers and on wires count as located. */
static ibcc_result ibcc_fab_credits_check_(const ibcc_fabric *f,
                                           uint64_t *located)
{
    uint32_t c, ln, k;

    for (c = 0; c < f->nch; c++) {
        const ibcc_fchan_ *ch = &f->ch[c];
        const ibcc_fnode_ *to = &f->node[ch->to];
        for (ln = 0; ln < f->nlanes; ln++) {
            uint64_t op = 0, ou = 0, ep = 0, eu = 0;
            if (to->kind == IBCC_FABRIC_SWITCH) {
                const ibcc_fbuf_ *b =
                    &f->buf[(to->base + ch->to_port) * f->nlanes + ln];
                uint64_t up = 0, uu = 0, hp = 0, hu;
                for (k = 0; k < b->n; k++) {
                    up++;
                    uu += ibcc_fab_pkt_(f, b->q[k])->units;
                }
                const ibcc_fsw_ *w = &f->sw[to->idx];
                int early;
                hu = w->kind->held(f, w, ch->to_port, ln, &hp, &early);
                if (hp != b->held_p || hu != b->held_u)
                    return IBCC_ERR_MISMATCH;
                if (early) {
                    ep = hp;
                    eu = hu;
                }
                up += hp;
                uu += hu;
                if (up != b->occ_p || uu != b->occ_u) return IBCC_ERR_MISMATCH;
                if (ibcc_arbiter_len(&f->sw[to->idx].arb[ln], ch->to_port)
                    != b->n) return IBCC_ERR_MISMATCH;
                /* the data lane's marker holds the same packets (departed
                   ones still held: hold = 1) in its unit */
                if (ln != IBCC_F_ACK_) {
                    const ibcc_marker *mk =
                        &f->sw[to->idx].mk[IBCC_F_LVL_(ln)];
                    if (ibcc_marker_packets(mk, ch->to_port) != up
                        || ibcc_marker_occupancy(mk, ch->to_port)
                           != (f->d.buf_credits ? uu : up))
                        return IBCC_ERR_MISMATCH;
                }
                op = up;
                ou = uu;
                *located += b->n;
            } else {
                op = ch->lc[ln].rx_p;
                ou = ch->lc[ln].rx_u;
                *located += op;
            }
            /* credits sent back early (returning, or back already) are
               also held in the receiver until the completion that
               releases them is applied: exactly the packets an output
               is still sending from this input (not CIOQ transfers) */
            if (ch->lc[ln].early_p != ep || ch->lc[ln].early_u != eu
                || (uint64_t)ch->lc[ln].av_p + ch->lc[ln].wire_p + ch->lc[ln].ret_p + op
                    - ch->lc[ln].early_p != ch->lc[ln].cap_p
                || (uint64_t)ch->lc[ln].av_u + ch->lc[ln].wire_u + ch->lc[ln].ret_u + ou
                    - ch->lc[ln].early_u != ch->lc[ln].cap_u
                || ibcc_fab_cr_sum_(ch, ln, 0) != ch->lc[ln].ret_p
                || ibcc_fab_cr_sum_(ch, ln, 1) != ch->lc[ln].ret_u)
                return IBCC_ERR_MISMATCH;
            *located += ch->lc[ln].wire_p;
        }
    }
    return IBCC_OK;
}

/* A packet channel's bytes started and busy time; a transmission under
   way counts only up to now. */
static void ibcc_fab_credits_totals_(const ibcc_fabric *f, uint32_t c,
                                     uint64_t *bytes, ibcc_time *busy)
{
    const ibcc_fchan_ *ch = &f->ch[c];
    ibcc_time b = ch->busy_time, now = f->loop.now;
    if (ch->busy && ch->xmit_end > now) {
        ibcc_time w = ibcc_fab_wire_(ch, ch->xmit_size);
        b -= ch->xmit_end - now < w ? ch->xmit_end - now : w;
    }
    *bytes = ch->bytes;
    *busy = b;
}

/* A wormhole link is busy while bytes flow. */
static void ibcc_wm_totals_(const ibcc_fabric *f, uint32_t c,
                            uint64_t *bytes, ibcc_time *busy)
{
    uint64_t tx = ibcc_wm_tx_now_(f, c);
    *bytes = tx;
    *busy = tx * f->wbt;
}

/* The switch kinds, indexed by ibcc_switch_kind (0 is no kind: a node's
   0 means the desc's kind, the desc's 0 VCT). A new kind is one more
   entry here and its table of operations. */
static const ibcc_fswkind_ *const ibcc_fab_kind_[] = {
    NULL, &ibcc_fab_vct_, &ibcc_fab_cioq_, &ibcc_fab_wormhole_
};
#define IBCC_SWITCH_KINDS_ \
    ((uint32_t)(sizeof ibcc_fab_kind_ / sizeof ibcc_fab_kind_[0]))

/* ---- L3 source agents: implementation -----------------------------------
   Section 9: one table per IBCC_AGENT_* (ibcc_fagent_). */

/* ---- 9. source agents -----------------------------------------------------
   One table of operations per IBCC_AGENT_* kind (ibcc_fab_agents_ below);
   a flow's `as` points at its own state, and a host holds a shared engine
   only for the kinds its flows use.
   - NONE, WINDOW, FIXED: an ibcc_pacer (window + optional fixed rate)
   - LAW: an ibcc_pacer pointed at the flow's own ibcc_law ([S03])
   - CCT: the host's ibcc_cct; the delay CCT[CCTI] follows each packet
     ([G]); the flow window applies
   - MVCM: the host's ibcc_mvcm; dynamic window and nWS x WS between
     injections ([F])
   - DCQCN: the flow's own ibcc_dcqcn reaction point; packets start at
     R_C, a BECN is a CNP ([DCQCN]) */

/* -- what every agent may have nothing to do in -- */
static ibcc_result ibcc_fab_no_rules_(const ibcc_fabric *f,
                                      const ibcc_fabric_flow *x, uint32_t i)
{
    (void)f; (void)x; (void)i;
    return IBCC_OK;
}
static ibcc_result ibcc_fab_no_host_(ibcc_fabric *f, ibcc_fhost_ *h)
{
    (void)f; (void)h;
    return IBCC_OK;
}
static void ibcc_fab_nothing_(ibcc_fabric *f, ibcc_fflow_ *fl)
{
    (void)f; (void)fl;
}
static const ibcc_law *ibcc_fab_no_law_(const ibcc_fflow_ *fl)
{
    (void)fl;
    return NULL;
}

/* -- pacer agents: NONE, WINDOW, FIXED (an ibcc_pacer), LAW (an
   ibcc_pacer pointed at the flow's own ibcc_law) -- */
typedef struct ibcc_fag_law_ {
    ibcc_pacer pacer;           /* first: the pacer agents' whole state */
    ibcc_law law;
} ibcc_fag_law_;

/* The pacer of flow fl with its window and, for FIXED, the rate. */
static ibcc_result ibcc_fab_pacer_start_(ibcc_fabric *f, ibcc_fflow_ *fl,
                                         ibcc_law *law, ibcc_rate rate)
{
    ibcc_pacer_desc pd;
    memset(&pd, 0, sizeof pd);
    pd.window = fl->d.window ? fl->d.window : IBCC_PACER_NO_WINDOW;
    pd.law = law;
    if (rate) {
        pd.rate = rate;
        pd.rmax = f->ch[f->host[fl->host].chan].rate;
    }
    return ibcc_pacer_init((ibcc_pacer *)fl->as, &pd);
}

static ibcc_result ibcc_fab_pacer_init_(ibcc_fabric *f, ibcc_fflow_ *fl)
{
    return ibcc_fab_pacer_start_(f, fl, NULL, 0);
}

static ibcc_time ibcc_fab_pacer_next_(const ibcc_fabric *f,
                                      const ibcc_fflow_ *fl)
{
    const ibcc_pacer *pc = (const ibcc_pacer *)fl->as;
    (void)f;
    if (!ibcc_pacer_window_open(pc)) return IBCC_TIME_MAX;
    return ibcc_pacer_next(pc);
}

static void ibcc_fab_pacer_sent_(ibcc_fabric *f, ibcc_fflow_ *fl,
                                 ibcc_time wire)
{
    (void)ibcc_pacer_on_send((ibcc_pacer *)fl->as, f->loop.now, wire);
}

static void ibcc_fab_pacer_ack_(ibcc_fabric *f, ibcc_fflow_ *fl, unsigned hdr,
                                unsigned marks)
{
    (void)f;
    if (hdr & IBCC_ACK)
        (void)ibcc_pacer_on_ack((ibcc_pacer *)fl->as, marks != 0);
}

/* FIXED: the pacer at the flow's own rate. */
static ibcc_result ibcc_fab_fixed_rules_(const ibcc_fabric *f,
                                         const ibcc_fabric_flow *x,
                                         uint32_t i)
{
    if (x->rate != 0) return IBCC_OK;
    return ibcc_fab_err_(f->d.error, IBCC_ERR_RANGE, NULL, 0,
                         "flows[%u]: the FIXED agent needs rate above 0",
                         i);
}

static ibcc_result ibcc_fab_fixed_init_(ibcc_fabric *f, ibcc_fflow_ *fl)
{
    return ibcc_fab_pacer_start_(f, fl, NULL, fl->d.rate);
}

/* LAW: one law compiled once (TABLE form: its tables); every flow gets a
   copy of the object, sharing the tables. */
static ibcc_result ibcc_fab_law_init_(ibcc_fabric *f, ibcc_fflow_ *fl)
{
    ibcc_fag_law_ *a = (ibcc_fag_law_ *)fl->as;
    if (!f->law_mem) {
        size_t ls = 0;
        ibcc_result r = ibcc_law_size(&f->lawd, &ls);
        if (r != IBCC_OK) return r;
        /* (8 bytes when the law needs none: law_mem also says
           "compiled") */
        f->law_mem = ibcc_fab_alloc_(&f->al, ls ? ls : 8u);
        if (!f->law_mem) return IBCC_ERR_NOMEM;
        r = ibcc_law_init(&f->law_proto, &f->lawd, f->law_mem, ls);
        if (r != IBCC_OK) return r;
    }
    a->law = f->law_proto;
    return ibcc_fab_pacer_start_(f, fl, &a->law, 0);
}

/* An ACK steps the pacer (and its law); a BECN in a CNP is the law's
   decrease alone. */
static void ibcc_fab_law_ack_(ibcc_fabric *f, ibcc_fflow_ *fl, unsigned hdr,
                              unsigned marks)
{
    ibcc_fag_law_ *a = (ibcc_fag_law_ *)fl->as;
    (void)f;
    if (hdr & IBCC_ACK)
        (void)ibcc_pacer_on_ack(&a->pacer, marks != 0);
    else if (marks)
        ibcc_law_on_ack(&a->law, 1);
}

/* A new period: a persistent flow takes its pair's saved state, another
   starts again at Rmax. */
static void ibcc_fab_law_restart_(ibcc_fabric *f, ibcc_fflow_ *fl)
{
    ibcc_fag_law_ *a = (ibcc_fag_law_ *)fl->as;
    if (fl->d.persistent)
        (void)ibcc_pairstate_load(&f->pairs, fl->d.src, fl->d.dst, &a->law);
    else
        ibcc_law_reset(&a->law);
}

/* A period ends: a persistent flow saves its pair's state. */
static void ibcc_fab_law_end_(ibcc_fabric *f, ibcc_fflow_ *fl)
{
    ibcc_fag_law_ *a = (ibcc_fag_law_ *)fl->as;
    if (fl->d.persistent)
        (void)ibcc_pairstate_save(&f->pairs, fl->d.src, fl->d.dst, &a->law);
}

static const ibcc_law *ibcc_fab_law_law_(const ibcc_fflow_ *fl)
{
    return &((const ibcc_fag_law_ *)fl->as)->law;
}

/* -- agents on a host engine: CCT, MVCM (per-flow state: next start) -- */
static ibcc_result ibcc_fab_cct_host_(ibcc_fabric *f, ibcc_fhost_ *h)
{
    ibcc_cct_desc cd = f->d.cct;
    size_t sz;
    ibcc_result r;
    uint32_t k;
    cd.flows = h->eslots;       /* its flows, then one slot per source */
    cd.flow_sl = NULL;          /* each slot's SL is set below */
    if (cd.port_rate == 0) cd.port_rate = f->ch[h->chan].rate;
    if (cd.max_pkt_bytes == 0) cd.max_pkt_bytes = f->d.data_size;
    if ((r = ibcc_cct_size(&cd, &sz)) != IBCC_OK) return r;
    h->engine[IBCC_AGENT_CCT] = ibcc_fab_alloc_(&f->al,
                                    (size_t)ibcc_round8_(sizeof(ibcc_cct)) + sz);
    if (!h->engine[IBCC_AGENT_CCT]) return IBCC_ERR_NOMEM;
    r = ibcc_cct_init((ibcc_cct *)h->engine[IBCC_AGENT_CCT], &cd,
                      (char *)h->engine[IBCC_AGENT_CCT]
                      + (size_t)ibcc_round8_(sizeof(ibcc_cct)), sz);
    /* each flow on its own SL: the agent's CCTI (control level 1) and
       timer are per SL; a source's slot on its template's SL */
    for (k = 0; r == IBCC_OK && k < h->eslots; k++) {
        uint32_t sl = 0, j;
        if (k < h->nflows) {
            sl = f->flow[h->hf[k]].d.sl;
        } else {
            for (j = 0; j < f->nsrc; j++)
                if (&f->host[f->src[j].host] == h && f->src[j].eslot == k)
                    sl = f->src[j].d.flow.sl;
        }
        if (sl != ibcc_cct_flow_sl((ibcc_cct *)h->engine[IBCC_AGENT_CCT], k))
            r = ibcc_cct_set_flow_sl((ibcc_cct *)h->engine[IBCC_AGENT_CCT],
                                     k, sl, 0);
    }
    return r;
}

static ibcc_result ibcc_fab_mvcm_host_(ibcc_fabric *f, ibcc_fhost_ *h)
{
    ibcc_mvcm_desc vd = f->d.mvcm;
    size_t sz;
    ibcc_result r;
    vd.flows = h->eslots;
    if ((r = ibcc_mvcm_size(&vd, &sz)) != IBCC_OK) return r;
    h->engine[IBCC_AGENT_MVCM] = ibcc_fab_alloc_(&f->al,
                                    (size_t)ibcc_round8_(sizeof(ibcc_mvcm)) + sz);
    if (!h->engine[IBCC_AGENT_MVCM]) return IBCC_ERR_NOMEM;
    return ibcc_mvcm_init((ibcc_mvcm *)h->engine[IBCC_AGENT_MVCM], &vd,
                          (char *)h->engine[IBCC_AGENT_MVCM]
                          + (size_t)ibcc_round8_(sizeof(ibcc_mvcm)), sz);
}

static ibcc_cct *ibcc_fab_cct_(const ibcc_fabric *f, const ibcc_fflow_ *fl)
{
    return (ibcc_cct *)f->host[fl->host].engine[IBCC_AGENT_CCT];
}

static ibcc_mvcm *ibcc_fab_mvcm_(const ibcc_fabric *f, const ibcc_fflow_ *fl)
{
    return (ibcc_mvcm *)f->host[fl->host].engine[IBCC_AGENT_MVCM];
}

static ibcc_result ibcc_fab_next_ok_init_(ibcc_fabric *f, ibcc_fflow_ *fl)
{
    (void)f;
    *(ibcc_time *)fl->as = 0;
    return IBCC_OK;
}

static ibcc_time ibcc_fab_cct_next_(const ibcc_fabric *f,
                                    const ibcc_fflow_ *fl)
{
    (void)f;
    if (fl->d.window && fl->outstanding >= fl->d.window) return IBCC_TIME_MAX;
    return *(const ibcc_time *)fl->as;
}

/* IBA: the injection rate delay CCT[CCTI] follows each packet. */
static void ibcc_fab_cct_sent_(ibcc_fabric *f, ibcc_fflow_ *fl, ibcc_time wire)
{
    ibcc_time now = f->loop.now;
    ibcc_time iv = ibcc_cct_interval(ibcc_fab_cct_(f, fl), fl->eslot, now,
                                     wire);
    /* the interval saturates at IBCC_TIME_MAX: so does the next start */
    *(ibcc_time *)fl->as = iv > IBCC_TIME_MAX - now ? IBCC_TIME_MAX : now + iv;
}

/* A BECN (IBA echo) raises CCTI; with MVPM echo, a validated mark (VB)
   does, and a mark without validation does not: [F]'s "PI reacting only
   to validated packets". */
static void ibcc_fab_cct_ack_(ibcc_fabric *f, ibcc_fflow_ *fl, unsigned hdr,
                              unsigned marks)
{
    (void)hdr;
    if (marks & (IBCC_BECN | IBCC_VB))
        (void)ibcc_cct_on_becn(ibcc_fab_cct_(f, fl), fl->eslot, f->loop.now);
}

static void ibcc_fab_cct_restart_(ibcc_fabric *f, ibcc_fflow_ *fl)
{
    (void)f;
    if (!fl->d.persistent) *(ibcc_time *)fl->as = 0;
}

/* MVCM: nWS x WS between consecutive injections, counted from the end of
   the last one with the nWS in force now: an ACK that changes nWS moves
   the next start, so a cold ACK (or the immediate reset) removes a
   waiting interval at once ([F] 4.2.2) and a hot one lengthens it. The
   flow's state holds the end of its last injection. */
static ibcc_time ibcc_fab_mvcm_next_(const ibcc_fabric *f,
                                     const ibcc_fflow_ *fl)
{
    const ibcc_mvcm *a = ibcc_fab_mvcm_(f, fl);
    ibcc_time last = *(const ibcc_time *)fl->as, w;
    if (fl->outstanding >= ibcc_mvcm_window(a, fl->eslot))
        return IBCC_TIME_MAX;
    w = ibcc_mvcm_wait(a, fl->eslot);
    return w > IBCC_TIME_MAX - last ? IBCC_TIME_MAX : last + w;
}

static void ibcc_fab_mvcm_sent_(ibcc_fabric *f, ibcc_fflow_ *fl,
                                ibcc_time wire)
{
    ibcc_time now = f->loop.now;
    *(ibcc_time *)fl->as = wire > IBCC_TIME_MAX - now ? IBCC_TIME_MAX
                                                      : now + wire;
}

static void ibcc_fab_mvcm_ack_(ibcc_fabric *f, ibcc_fflow_ *fl, unsigned hdr,
                               unsigned marks)
{
    if (hdr & IBCC_ACK)
        (void)ibcc_mvcm_on_ack(ibcc_fab_mvcm_(f, fl), fl->eslot, marks);
}

/* Immediate reset: a packet entered the flow's empty injection queue.
   [F] 5.1's per-destination queue holds the flow's packets until their
   ACKs release them, so it is empty only when nothing is waiting and
   nothing is outstanding: a flow with a packet still in the network
   keeps its state (its ACK will still come). */
static void ibcc_fab_mvcm_queued_(ibcc_fabric *f, ibcc_fflow_ *fl)
{
    if (fl->outstanding == 0)
        ibcc_mvcm_on_inject_empty(ibcc_fab_mvcm_(f, fl), fl->eslot);
}

static void ibcc_fab_mvcm_restart_(ibcc_fabric *f, ibcc_fflow_ *fl)
{
    ibcc_mvcm_on_inject_empty(ibcc_fab_mvcm_(f, fl), fl->eslot);
    *(ibcc_time *)fl->as = 0;
}

/* -- DCQCN: the flow's own reaction point (docs/dcqcn.md). Marks come back
   through the IBA echo (a BECN in a CNP, or on an ACK, for every FECN
   packet); the agent lets through one per N per flow, the notification
   point's rule, so its RP reacts to the CNPs an NP would have sent. -- */
typedef struct ibcc_fag_dcqcn_ {
    ibcc_time next;             /* earliest start of the next packet */
    ibcc_dcqcn par;             /* parameters (line rate: the host link's) */
    ibcc_dcqcn_rp rp;
    ibcc_dcqcn_np np;
} ibcc_fag_dcqcn_;

static ibcc_result ibcc_fab_dcqcn_rules_(const ibcc_fabric *f,
                                         const ibcc_fabric_flow *x,
                                         uint32_t i)
{
    (void)x;
    if (f->dest.scheme == IBCC_DEST_IBA) return IBCC_OK;
    return ibcc_fab_err_(f->d.error, IBCC_ERR_UNSUPPORTED, NULL, 0,
                         "flows[%u]: the DCQCN agent reacts to BECNs: it "
                         "needs dest.scheme IBA", i);
}

static ibcc_result ibcc_fab_dcqcn_init_(ibcc_fabric *f, ibcc_fflow_ *fl)
{
    ibcc_fag_dcqcn_ *a = (ibcc_fag_dcqcn_ *)fl->as;
    ibcc_dcqcn_desc d = f->d.dcqcn;
    ibcc_result r;
    if (d.line_rate == 0) d.line_rate = f->ch[f->host[fl->host].chan].rate;
    if ((r = ibcc_dcqcn_init(&a->par, &d)) != IBCC_OK) return r;
    ibcc_dcqcn_rp_init(&a->par, &a->rp, f->loop.now);
    ibcc_dcqcn_np_init(&a->np);
    a->next = 0;
    return IBCC_OK;
}

static ibcc_time ibcc_fab_dcqcn_next_(const ibcc_fabric *f,
                                      const ibcc_fflow_ *fl)
{
    (void)f;
    if (fl->d.window && fl->outstanding >= fl->d.window) return IBCC_TIME_MAX;
    return ((const ibcc_fag_dcqcn_ *)fl->as)->next;
}

/* The packet's bytes feed the byte counter; the next one starts its wire
   time at R_C later (never before this one has left). */
static void ibcc_fab_dcqcn_sent_(ibcc_fabric *f, ibcc_fflow_ *fl, ibcc_time wire)
{
    ibcc_fag_dcqcn_ *a = (ibcc_fag_dcqcn_ *)fl->as;
    ibcc_time now = f->loop.now, gap = wire;
    ibcc_rate line = f->ch[f->host[fl->host].chan].rate, rc;
    uint64_t bytes = 0;
    if (ibcc_muldiv_(wire, line, UINT64_C(1000000000000), 0, &bytes) != IBCC_OK)
        bytes = UINT64_MAX;
    rc = ibcc_dcqcn_rp_on_send(&a->par, &a->rp, bytes, now);
    if (rc && rc < line && ibcc_muldiv_ceil_(wire, line, rc, &gap) != IBCC_OK)
        gap = IBCC_TIME_MAX;
    a->next = gap > IBCC_TIME_MAX - now ? IBCC_TIME_MAX : now + gap;
}

static void ibcc_fab_dcqcn_ack_(ibcc_fabric *f, ibcc_fflow_ *fl, unsigned hdr,
                                unsigned marks)
{
    ibcc_fag_dcqcn_ *a = (ibcc_fag_dcqcn_ *)fl->as;
    ibcc_time now = f->loop.now;
    (void)hdr;
    if ((marks & IBCC_BECN)
        && ibcc_dcqcn_np_on_packet(&a->par, &a->np, IBCC_ECN, now))
        (void)ibcc_dcqcn_rp_on_cnp(&a->par, &a->rp, now);
}

/* A new period of a non-persistent flow starts again at line rate. */
static void ibcc_fab_dcqcn_restart_(ibcc_fabric *f, ibcc_fflow_ *fl)
{
    ibcc_fag_dcqcn_ *a = (ibcc_fag_dcqcn_ *)fl->as;
    if (fl->d.persistent) return;
    ibcc_dcqcn_rp_init(&a->par, &a->rp, f->loop.now);
    ibcc_dcqcn_np_init(&a->np);
    a->next = 0;
}

/* -- at rest (a source's queue may go), and the rules for sources -- */
static int ibcc_fab_rest_always_(const ibcc_fabric *f, const ibcc_fflow_ *fl)
{
    (void)f; (void)fl;
    return 1;
}
/* a pacer that may send now (its spacing over) */
static int ibcc_fab_rest_pacer_(const ibcc_fabric *f, const ibcc_fflow_ *fl)
{
    return ibcc_pacer_next((const ibcc_pacer *)fl->as) <= f->loop.now;
}
/* ... whose law is back at its full rate */
static int ibcc_fab_rest_law_(const ibcc_fabric *f, const ibcc_fflow_ *fl)
{
    const ibcc_fag_law_ *a = (const ibcc_fag_law_ *)fl->as;
    return ibcc_fab_rest_pacer_(f, fl) && ibcc_law_ipd(&a->law) == 0;
}
/* CCT per SL: the CCTI is the SL's (the host engine's); the queue's own
   state is its next start */
static int ibcc_fab_rest_next_(const ibcc_fabric *f, const ibcc_fflow_ *fl)
{
    return *(const ibcc_time *)fl->as <= f->loop.now;
}
static ibcc_result ibcc_fab_src_cct_(const ibcc_fabric *f,
                                     const ibcc_fabric_flow *x, uint32_t i)
{
    (void)x;
    if (f->d.cct.per_sl) return IBCC_OK;
    return ibcc_fab_err_(f->d.error, IBCC_ERR_UNSUPPORTED, NULL, 0,
                         "sources[%u]: the CCT agent keeps a CCTI per "
                         "flow unless cct.per_sl is 1 (its host engine has "
                         "a fixed flow count): use flows, or per_sl", i);
}
static ibcc_result ibcc_fab_src_no_(const ibcc_fabric *f,
                                    const ibcc_fabric_flow *x, uint32_t i)
{
    (void)x;
    return ibcc_fab_err_(f->d.error, IBCC_ERR_UNSUPPORTED, NULL, 0,
                         "sources[%u]: the MVCM agent keeps per-flow state "
                         "in its host engine (a fixed flow count): use "
                         "flows", i);
}

/* DCQCN: a queue may go once its rate was never cut (or is back at line
   rate and the RP idle) and its spacing is over */
static int ibcc_fab_rest_dcqcn_(const ibcc_fabric *f, const ibcc_fflow_ *fl)
{
    const ibcc_fag_dcqcn_ *a = (const ibcc_fag_dcqcn_ *)fl->as;
    return !a->rp.active && a->next <= f->loop.now;
}

/* The agents, indexed by IBCC_AGENT_* (name, state, acks, paces, then the
   operations in the order of ibcc_fagent_). */
static const ibcc_fagent_ ibcc_fab_agents_[] = {
    { "NONE", sizeof(ibcc_pacer), 0, 0, ibcc_fab_no_rules_,
      ibcc_fab_no_host_, ibcc_fab_pacer_init_, ibcc_fab_pacer_next_,
      ibcc_fab_pacer_sent_, ibcc_fab_pacer_ack_, ibcc_fab_nothing_,
      ibcc_fab_nothing_, ibcc_fab_nothing_, ibcc_fab_no_law_,
      ibcc_fab_rest_always_, ibcc_fab_no_rules_ },
    { "WINDOW", sizeof(ibcc_pacer), 0, 1, ibcc_fab_no_rules_,
      ibcc_fab_no_host_, ibcc_fab_pacer_init_, ibcc_fab_pacer_next_,
      ibcc_fab_pacer_sent_, ibcc_fab_pacer_ack_, ibcc_fab_nothing_,
      ibcc_fab_nothing_, ibcc_fab_nothing_, ibcc_fab_no_law_,
      ibcc_fab_rest_always_, ibcc_fab_no_rules_ },
    { "LAW", sizeof(ibcc_fag_law_), 1, 1, ibcc_fab_no_rules_,
      ibcc_fab_no_host_, ibcc_fab_law_init_, ibcc_fab_pacer_next_,
      ibcc_fab_pacer_sent_, ibcc_fab_law_ack_, ibcc_fab_nothing_,
      ibcc_fab_law_restart_, ibcc_fab_law_end_, ibcc_fab_law_law_,
      ibcc_fab_rest_law_, ibcc_fab_no_rules_ },
    { "FIXED", sizeof(ibcc_pacer), 0, 1, ibcc_fab_fixed_rules_,
      ibcc_fab_no_host_, ibcc_fab_fixed_init_, ibcc_fab_pacer_next_,
      ibcc_fab_pacer_sent_, ibcc_fab_pacer_ack_, ibcc_fab_nothing_,
      ibcc_fab_nothing_, ibcc_fab_nothing_, ibcc_fab_no_law_,
      ibcc_fab_rest_pacer_, ibcc_fab_no_rules_ },
    { "CCT", sizeof(ibcc_time), 0, 1, ibcc_fab_no_rules_,
      ibcc_fab_cct_host_, ibcc_fab_next_ok_init_, ibcc_fab_cct_next_,
      ibcc_fab_cct_sent_, ibcc_fab_cct_ack_, ibcc_fab_nothing_,
      ibcc_fab_cct_restart_, ibcc_fab_nothing_, ibcc_fab_no_law_,
      ibcc_fab_rest_next_, ibcc_fab_src_cct_ },
    { "MVCM", sizeof(ibcc_time), 1, 1, ibcc_fab_no_rules_,
      ibcc_fab_mvcm_host_, ibcc_fab_next_ok_init_, ibcc_fab_mvcm_next_,
      ibcc_fab_mvcm_sent_, ibcc_fab_mvcm_ack_, ibcc_fab_mvcm_queued_,
      ibcc_fab_mvcm_restart_, ibcc_fab_nothing_, ibcc_fab_no_law_,
      ibcc_fab_rest_always_, ibcc_fab_src_no_ },
    { "DCQCN", sizeof(ibcc_fag_dcqcn_), 0, 1, ibcc_fab_dcqcn_rules_,
      ibcc_fab_no_host_, ibcc_fab_dcqcn_init_, ibcc_fab_dcqcn_next_,
      ibcc_fab_dcqcn_sent_, ibcc_fab_dcqcn_ack_, ibcc_fab_nothing_,
      ibcc_fab_dcqcn_restart_, ibcc_fab_nothing_, ibcc_fab_no_law_,
      ibcc_fab_rest_dcqcn_, ibcc_fab_no_rules_ }
};
/* one table per agent kind, no more, no fewer (a compile error if not) */
typedef char ibcc_fab_agents_complete_[
    sizeof ibcc_fab_agents_ / sizeof ibcc_fab_agents_[0] == IBCC_F_AGENTS_
    ? 1 : -1];

/* ---- L3 fabric: creation, checks and queries -----------------------------
   The core again: creation (the one place the desc is checked and each
   kind and agent is looked up), the conservation check (the link's and
   each switch kind's, then the hosts and the packet pool) and the
   queries. */

/* ---- create / destroy -------------------------------------------------- */
/* The one place the fabric's defaults are applied and its ranges checked:
   *d = *in with defaults, or an error (the caller's desc untouched). */
static ibcc_result ibcc_fabric_desc_check_(const ibcc_fabric_desc *in,
                                           ibcc_fabric_desc *d)
{
    ibcc_fabric_error *e;
    if (!in || !d) return IBCC_ERR_NULL;
    *d = *in;
    e = d->error;
    if (d->link_rate == 0) d->link_rate = IBCC_GBYTES(1);
    if (d->prop_delay == 0) d->prop_delay = IBCC_NS(5);
    if (d->fwd_delay == 0 && !d->fwd_zero) d->fwd_delay = IBCC_NS(40);
    if (d->data_size == 0) d->data_size = 2068u;
    if (d->buf_packets == 0) d->buf_packets = 4u;
    if (d->ack_buf_packets == 0) d->ack_buf_packets = 16u;
    if ((uint32_t)d->switch_kind == 0) d->switch_kind = IBCC_SWITCH_VCT;
    if (d->speedup == 0) d->speedup = 2u;
    if (d->out_buf_packets == 0) d->out_buf_packets = d->buf_packets;
    if (d->out_buf_credits == 0) d->out_buf_credits = d->buf_credits;
    if (d->bin == 0) d->bin = IBCC_US(100);
    if (d->slack_bytes == 0) d->slack_bytes = 80u;
    if (d->dest.ack_bytes == 0 && d->dest.scheme != IBCC_DEST_MVPM)
        d->dest.ack_bytes = 20u;
    if (d->vls == 0) d->vls = 1u;
    if (d->stall == 0) d->stall = IBCC_MS(10);
    if (d->vls != 1u && d->vls != 2u && d->vls != 4u && d->vls != 8u
        && d->vls != 15u)
        return ibcc_fab_err_(e, IBCC_ERR_RANGE, NULL, 0, "vls %u: 1, 2, 4, 8 "
                             "or 15 data VLs", d->vls);
    if (d->sl2vl_set > 1u)
        return ibcc_fab_err_(e, IBCC_ERR_RANGE, NULL, 0, "sl2vl_set %u: 0 or "
                             "1", d->sl2vl_set);
    {   /* the unsigned fields with a largest value */
        struct { const char *name; uint64_t v, max; } lim[15];
        unsigned k, n = 0;
#define IBCC_F_LIM_(field, m) \
        lim[n].name = #field; lim[n].v = (uint64_t)d->field; lim[n++].max = (m)
        IBCC_F_LIM_(data_size, 65535u);
        IBCC_F_LIM_(buf_packets, 65535u);
        IBCC_F_LIM_(ack_buf_packets, 65535u);
        IBCC_F_LIM_(buf_credits, 1u << 20);
        IBCC_F_LIM_(out_buf_packets, 65535u);
        IBCC_F_LIM_(out_buf_credits, 1u << 20);
        IBCC_F_LIM_(fwd_zero, 1u);
        IBCC_F_LIM_(nic_fifo, 1u);
        IBCC_F_LIM_(speedup, 16u);
        IBCC_F_LIM_(input_fanout, 1u);
        IBCC_F_LIM_(prop_delay, IBCC_FABRIC_MAX_DELAY);
        IBCC_F_LIM_(fwd_delay, IBCC_FABRIC_MAX_DELAY);
        IBCC_F_LIM_(slack_bytes, 1u << 20);
        IBCC_F_LIM_(worm_priority, 1u);
        IBCC_F_LIM_(switch_kind, IBCC_SWITCH_KINDS_ - 1u);
#undef IBCC_F_LIM_
        for (k = 0; k < n; k++)
            if (lim[k].v > lim[k].max)
                return ibcc_fab_err_(e, IBCC_ERR_RANGE, NULL, 0,
                                     "%s %llu: at most %llu", lim[k].name,
                                     (unsigned long long)lim[k].v,
                                     (unsigned long long)lim[k].max);
    }
    if (d->stop_mark > d->slack_bytes || d->go_mark > d->slack_bytes)
        return ibcc_fab_err_(e, IBCC_ERR_RANGE, NULL, 0,
                             "%s %u: above slack_bytes %u",
                             d->stop_mark > d->slack_bytes ? "stop_mark"
                                                           : "go_mark",
                             d->stop_mark > d->slack_bytes ? d->stop_mark
                                                           : d->go_mark,
                             d->slack_bytes);
    if (d->buf_credits && d->buf_credits < ibcc_fab_units_(d->data_size))
        return ibcc_fab_err_(e, IBCC_ERR_RANGE, NULL, 0,
                             "buf_credits %u: a data packet of %u bytes "
                             "needs %u 64-byte credits", d->buf_credits,
                             d->data_size, ibcc_fab_units_(d->data_size));
    if (d->out_buf_credits && d->buf_credits == 0)
        return ibcc_fab_err_(e, IBCC_ERR_RANGE, NULL, 0,
                             "out_buf_credits %u: needs buf_credits too "
                             "(both buffers in one unit)",
                             d->out_buf_credits);
    if (d->out_buf_credits
        && d->out_buf_credits < ibcc_fab_units_(d->data_size))
        return ibcc_fab_err_(e, IBCC_ERR_RANGE, NULL, 0,
                             "out_buf_credits %u: a data packet of %u "
                             "bytes needs %u 64-byte credits",
                             d->out_buf_credits, d->data_size,
                             ibcc_fab_units_(d->data_size));
    return IBCC_OK;
}

IBCC_API ibcc_result ibcc_fabric_defaults(ibcc_fabric_desc *d)
{
    ibcc_fabric_desc e;
    ibcc_result r = ibcc_fabric_desc_check_(d, &e);
    if (r == IBCC_OK) {
        *d = e;
        (void)ibcc_fab_err_(d->error, IBCC_OK, NULL, 0, "%s", "");
    }
    return r;
}

static void ibcc_fab_vl_tables_free_(ibcc_fabric *f);
static void ibcc_fab_release_(ibcc_fabric *f)
{
    ibcc_fabric_allocator a = f->al;
    uint32_t i, k;
    if (f->host)
        for (i = 0; i < f->nh; i++)
            if (f->host[i].hown) {
                ibcc_fab_free_(&a, f->host[i].hf);
                ibcc_fab_free_(&a, f->host[i].ready);
            }
    if (f->sw)
        for (i = 0; i < f->nsw; i++) {
            ibcc_fab_free_(&a, f->sw[i].mem);
            ibcc_fab_free_(&a, f->sw[i].xl);
        }
    ibcc_fab_vl_tables_free_(f);
    ibcc_fab_free_(&a, f->vla);
    ibcc_fab_free_(&a, f->lanemem);
    if (f->ch) for (i = 0; i < f->nch; i++) ibcc_fab_free_(&a, f->ch[i].cr);
    if (f->host)
        for (i = 0; i < f->nh; i++)
            for (k = 0; k < IBCC_F_AGENTS_; k++)
                ibcc_fab_free_(&a, f->host[i].engine[k]);
    for (i = 0; i < f->nchunk; i++) ibcc_fab_free_(&a, f->chunk[i]);
    ibcc_fab_free_(&a, f->chunk);
    ibcc_fab_free_(&a, f->loop_mem);
    ibcc_fab_free_(&a, f->node);
    ibcc_fab_free_(&a, f->port_node);
    ibcc_fab_free_(&a, f->out_ch);
    ibcc_fab_free_(&a, f->in_ch);
    ibcc_fab_free_(&a, f->route);
    ibcc_fab_free_(&a, f->ch);
    ibcc_fab_free_(&a, f->buf);
    ibcc_fab_free_(&a, f->bufmem);
    ibcc_fab_free_(&a, f->sw);
    ibcc_fab_free_(&a, f->work);
    ibcc_fab_free_(&a, f->host);
    if (f->src)
        for (i = 0; i < f->nsrc; i++) ibcc_fab_free_(&a, f->src[i].map);
    ibcc_fab_free_(&a, f->src);
    if (f->qas)
        for (i = 0; i < f->nqas; i++) ibcc_fab_free_(&a, f->qas[i]);
    ibcc_fab_free_(&a, f->qas);
    ibcc_fab_free_(&a, f->flow);
    ibcc_fab_free_(&a, f->hflow);
    ibcc_fab_free_(&a, f->agent_mem);
    ibcc_fab_free_(&a, f->readymem);
    ibcc_fab_free_(&a, f->after);
    ibcc_fab_free_(&a, f->hist_mem);
    ibcc_fab_free_(&a, f->pairs_mem);
    ibcc_fab_free_(&a, f->law_mem);
    ibcc_fab_free_(&a, f->flow_bins);
    ibcc_fab_free_(&a, f->ch_bins);
    ibcc_fab_free_(&a, f->wm);
    ibcc_fab_free_(&a, f->wring);
    ibcc_fab_free_(&a, f->wrr);
    ibcc_fab_free_(&a, f);
}

IBCC_API void ibcc_fabric_destroy(ibcc_fabric *f)
{
    if (f) ibcc_fab_release_(f);
}

/* Follows the static routes from host src to LID lid of host dst. */
static ibcc_result ibcc_fab_walk_(const ibcc_fabric *f, uint32_t src,
                                  uint32_t dst, uint32_t lid)
{
    uint32_t node = src, hops = 0;
    uint32_t c = f->out_ch[f->node[src].base];
    ibcc_fabric_error *e = f->d.error;
    for (;;) {
        const ibcc_fnode_ *n;
        uint32_t port;
        node = f->ch[c].to;
        n = &f->node[node];
        if (n->kind == IBCC_FABRIC_HOST) {
            if (node == dst) return IBCC_OK;
            return ibcc_fab_err_(e, IBCC_ERR_RANGE, NULL, 0,
                                 "routes: the path from host node %u to "
                                 "host node %u ends at host node %u",
                                 src, dst, node);
        }
        if (++hops > f->nn)
            return ibcc_fab_err_(e, IBCC_ERR_RANGE, NULL, 0,
                                 "routes: the path from host node %u to "
                                 "host node %u loops (through switch node "
                                 "%u)", src, dst, node);
        port = ibcc_fab_rtl_(f, n->idx, dst, lid);
        if (port == IBCC_F_NONE_)
            return ibcc_fab_err_(e, IBCC_ERR_RANGE, NULL, 0,
                                 "routes: switch node %u has no route to "
                                 "host node %u LID %u (from host node %u)",
                                 node, dst, lid, src);
        c = f->out_ch[n->base + port];
    }
}

/* Topology checks and the node / channel / route tables. */
static ibcc_result ibcc_fab_topology_(ibcc_fabric *f)
{
    const ibcc_fabric_desc *d = &f->d;
    ibcc_fabric_error *e = d->error;
    uint32_t i, base = 0;
    if (d->lmc > 7u)
        return ibcc_fab_err_(e, IBCC_ERR_RANGE, NULL, 0, "lmc %u: 0..7 "
                             "(2^lmc LIDs per host)", d->lmc);
    f->lmc = d->lmc;
    f->node = (ibcc_fnode_ *)ibcc_fab_alloc_(&f->al,
                                    ibcc_fab_mul_(f->nn, sizeof *f->node));
    if (!f->node) return IBCC_ERR_NOMEM;
    for (i = 0; i < f->nn; i++) {
        const ibcc_fabric_node *n = &d->nodes[i];
        uint32_t ports = n->kind == IBCC_FABRIC_HOST ? 1u : n->ports;
        if (n->kind != IBCC_FABRIC_HOST && n->kind != IBCC_FABRIC_SWITCH)
            return ibcc_fab_err_(e, IBCC_ERR_RANGE, NULL, 0,
                                 "nodes[%u]: kind %u: IBCC_FABRIC_HOST (1) "
                                 "or IBCC_FABRIC_SWITCH (2)", i,
                                 (unsigned)n->kind);
        if (n->kind == IBCC_FABRIC_HOST && n->ports > 1u)
            return ibcc_fab_err_(e, IBCC_ERR_RANGE, NULL, 0,
                                 "nodes[%u]: ports %u: a host has one port",
                                 i, n->ports);
        if ((uint32_t)n->switch_kind >= IBCC_SWITCH_KINDS_)
            return ibcc_fab_err_(e, IBCC_ERR_RANGE, NULL, 0,
                                 "nodes[%u]: switch_kind %u: 0 (the desc's),"
                                 " or a kind 1..%u", i,
                                 (unsigned)n->switch_kind,
                                 IBCC_SWITCH_KINDS_ - 1u);
        if (ports == 0 || ports > IBCC_ARBITER_MAX_PORTS)
            return ibcc_fab_err_(e, IBCC_ERR_CAPACITY, NULL, 0,
                                 "nodes[%u]: ports %u: a switch has 1..%u",
                                 i, ports, IBCC_ARBITER_MAX_PORTS);
        f->node[i].kind = n->kind;
        f->node[i].ports = ports;
        f->node[i].base = base;
        f->node[i].idx = n->kind == IBCC_FABRIC_HOST ? f->nh++ : f->nsw++;
        base += ports;
        if (base > (1u << 26))
            return ibcc_fab_err_(e, IBCC_ERR_CAPACITY, NULL, 0,
                                 "nodes: more than 2^26 ports in all");
    }
    f->nports = base;
    if (f->nh == 0)
        return ibcc_fab_err_(e, IBCC_ERR_CAPACITY, NULL, 0,
                             "nodes: no host");
    f->port_node = (uint32_t *)ibcc_fab_alloc_(&f->al, ibcc_fab_mul_(base, 4));
    if (!f->port_node) return IBCC_ERR_NOMEM;
    for (i = 0; i < f->nn; i++) {
        uint32_t k;
        for (k = 0; k < f->node[i].ports; k++)
            f->port_node[f->node[i].base + k] = i;
    }
    f->out_ch = (uint32_t *)ibcc_fab_alloc_(&f->al, ibcc_fab_mul_(base, 4));
    f->in_ch = (uint32_t *)ibcc_fab_alloc_(&f->al, ibcc_fab_mul_(base, 4));
    f->ch = (ibcc_fchan_ *)ibcc_fab_alloc_(&f->al,
                                    ibcc_fab_mul_(f->nch, sizeof *f->ch));
    f->route = (uint16_t *)ibcc_fab_alloc_(&f->al,
              ibcc_fab_mul_(ibcc_fab_mul_(f->nsw ? f->nsw : 1u,
                                          (size_t)f->nh << f->lmc), 2));
    if (!f->out_ch || !f->in_ch || !f->ch || !f->route) return IBCC_ERR_NOMEM;
    for (i = 0; i < base; i++) f->out_ch[i] = f->in_ch[i] = IBCC_F_NONE_;
    {
        uint64_t nr = (uint64_t)f->nsw * ((uint64_t)f->nh << f->lmc);
        memset(f->route, 0xff, (size_t)nr * 2u);   /* 0xffff: no route */
    }
    for (i = 0; i < f->nl; i++) {
        const ibcc_fabric_link *k = &d->links[i];
        uint32_t dir;
        ibcc_time wt_max;
        if (k->a >= f->nn || k->b >= f->nn)
            return ibcc_fab_err_(e, IBCC_ERR_RANGE, NULL, 0,
                                 "links[%u]: %s %u: no such node (%u nodes)",
                                 i, k->a >= f->nn ? "a" : "b",
                                 k->a >= f->nn ? k->a : k->b, f->nn);
        if (k->a == k->b)
            return ibcc_fab_err_(e, IBCC_ERR_RANGE, NULL, 0,
                                 "links[%u]: a and b are both node %u", i,
                                 k->a);
        if (k->prop > IBCC_FABRIC_MAX_DELAY)
            return ibcc_fab_err_(e, IBCC_ERR_RANGE, NULL, 0,
                                 "links[%u]: prop %llu ps: at most 2^60", i,
                                 (unsigned long long)k->prop);
        if (k->a_port >= f->node[k->a].ports
            || k->b_port >= f->node[k->b].ports) {
            int ia = k->a_port >= f->node[k->a].ports;
            return ibcc_fab_err_(e, IBCC_ERR_RANGE, NULL, 0,
                                 "links[%u]: %s_port %u: node %u has %u "
                                 "port%s", i, ia ? "a" : "b",
                                 ia ? k->a_port : k->b_port,
                                 ia ? k->a : k->b,
                                 f->node[ia ? k->a : k->b].ports,
                                 f->node[ia ? k->a : k->b].ports == 1u
                                     ? "" : "s");
        }
        if (f->out_ch[f->node[k->a].base + k->a_port] != IBCC_F_NONE_
            || f->out_ch[f->node[k->b].base + k->b_port] != IBCC_F_NONE_) {
            int ia = f->out_ch[f->node[k->a].base + k->a_port]
                     != IBCC_F_NONE_;
            return ibcc_fab_err_(e, IBCC_ERR_RANGE, NULL, 0,
                                 "links[%u]: node %u port %u is linked "
                                 "twice (also links[%u])", i,
                                 ia ? k->a : k->b, ia ? k->a_port : k->b_port,
                                 f->out_ch[f->node[ia ? k->a : k->b].base
                                           + (ia ? k->a_port : k->b_port)]
                                     / 2u);
        }
        for (dir = 0; dir < 2u; dir++) {
            uint32_t c = 2u * i + dir;
            ibcc_fchan_ *ch = &f->ch[c];
            ch->from = dir ? k->b : k->a;
            ch->from_port = dir ? k->b_port : k->a_port;
            ch->to = dir ? k->a : k->b;
            ch->to_port = dir ? k->a_port : k->b_port;
            ch->rate = k->rate ? k->rate : d->link_rate;
            ch->prop = k->prop ? k->prop : d->prop_delay;
            ch->sz_data = d->data_size;
            ch->sz_ack = d->dest.ack_bytes;
            /* every packet size (<= 65535) must have a wire time */
            if (ibcc_wire_time(ch->sz_data, ch->rate, &ch->wt_data) != IBCC_OK
                || ibcc_wire_time(ch->sz_ack, ch->rate, &ch->wt_ack) != IBCC_OK
                || ibcc_wire_time(65535u, ch->rate, &wt_max) != IBCC_OK)
                return ibcc_fab_err_(e, IBCC_ERR_RANGE, NULL, 0,
                                     "links[%u]: rate %llu B/s: too slow "
                                     "for a 65535-byte wire time in 64 "
                                     "bits", i,
                                     (unsigned long long)ch->rate);
            ch->xmit_in = IBCC_F_NONE_;
            f->out_ch[f->node[ch->from].base + ch->from_port] = c;
            f->in_ch[f->node[ch->to].base + ch->to_port] = c;
        }
    }
    for (i = 0; i < f->nn; i++)
        if (f->node[i].kind == IBCC_FABRIC_HOST
            && f->out_ch[f->node[i].base] == IBCC_F_NONE_)
            return ibcc_fab_err_(e, IBCC_ERR_RANGE, NULL, 0,
                                 "nodes[%u]: a host with no link", i);
    for (i = 0; i < d->route_count; i++) {
        const ibcc_fabric_route *r = &d->routes[i];
        if (r->sw >= f->nn || f->node[r->sw].kind != IBCC_FABRIC_SWITCH)
            return ibcc_fab_err_(e, IBCC_ERR_RANGE, NULL, 0,
                                 "routes[%u]: sw %u: not a switch node", i,
                                 r->sw);
        if (r->dst >= f->nn || f->node[r->dst].kind != IBCC_FABRIC_HOST)
            return ibcc_fab_err_(e, IBCC_ERR_RANGE, NULL, 0,
                                 "routes[%u]: dst %u: not a host node", i,
                                 r->dst);
        if (r->port >= f->node[r->sw].ports
            || f->out_ch[f->node[r->sw].base + r->port] == IBCC_F_NONE_)
            return ibcc_fab_err_(e, IBCC_ERR_RANGE, NULL, 0,
                                 "routes[%u]: port %u: switch node %u has "
                                 "%s", i, r->port, r->sw,
                                 r->port >= f->node[r->sw].ports
                                     ? "no such port" : "no link there");
        if (r->lid >> f->lmc)
            return ibcc_fab_err_(e, IBCC_ERR_RANGE, NULL, 0,
                                 "routes[%u]: lid %u: a host has %u LIDs "
                                 "(lmc %u)", i, r->lid, 1u << f->lmc,
                                 f->lmc);
        f->route[(((uint64_t)f->node[r->dst].idx << f->lmc) + r->lid)
                 * f->nsw + f->node[r->sw].idx] = (uint16_t)r->port;
    }
    return IBCC_OK;
}

/* ---- virtual lanes: ports' settings, links' VLs, tables, arbitration ---- */
static int ibcc_fab_vls_ok_(uint32_t v)
{
    return v == 1u || v == 2u || v == 4u || v == 8u || v == 15u;
}

/* VL v of a port's table on a link of `vls` VLs: kept below it as OpenSM
   does (VL & (vls - 1)); 15 (drop) stays. */
static uint8_t ibcc_fab_vl_fit_(uint32_t v, uint32_t vls)
{
    if (v == 15u || v < vls) return (uint8_t)v;
    return (uint8_t)(v & (vls - 1u));
}

/* The data VLs a port can run: its switch kind's, 15 at a host. */
static uint32_t ibcc_fab_vlcap_(const ibcc_fabric *f, uint32_t node)
{
    const ibcc_fabric_node *nd = &f->d.nodes[node];
    ibcc_switch_kind sk;
    if (f->node[node].kind != IBCC_FABRIC_SWITCH) return IBCC_VLARB_MAX_VLS;
    sk = (uint32_t)nd->switch_kind ? nd->switch_kind : f->d.switch_kind;
    return ibcc_fab_kind_[sk]->max_vls;
}

/* The settings of port gp (node, port) as configured: its VLs, its
   SL-to-VL table and its VL arbitration (entries; vls not set). ov: its
   port_vls entry or NULL. *given: 1 when its VLs were asked for
   explicitly (desc.vls or port_vls), not through the QoS settings. */
static ibcc_result ibcc_fab_port_cfg_(const ibcc_fabric *f, uint32_t node,
                                      uint32_t port,
                                      const ibcc_fabric_port_vl *ov,
                                      uint32_t *vls, uint8_t *tab,
                                      ibcc_vlarb_desc *va, int *given)
{
    const ibcc_fabric_desc *d = &f->d;
    uint32_t s;
    *vls = d->vls;
    *given = d->vls > 1u;
    *va = d->vlarb;
    if (d->sl2vl_set) {
        memcpy(tab, d->sl2vl, IBCC_QOS_SLS);
    } else {
        for (s = 0; s < IBCC_QOS_SLS; s++) tab[s] = (uint8_t)(s < 15u ? s : 7u);
    }
    if (d->qos && d->qos->qos) {
        ibcc_qos_port t = f->node[node].kind == IBCC_FABRIC_HOST
                          ? IBCC_QOS_CA : IBCC_QOS_SWE;
        ibcc_result r = ibcc_qos_port_setting(d->qos, t, va, tab);
        if (r != IBCC_OK)
            return ibcc_fab_err_(d->error, r, NULL, 0, "qos: the %s "
                                 "settings: %s", t == IBCC_QOS_CA ? "qos_ca_"
                                 : "qos_swe_", ibcc_result_str(r));
        *vls = va->vls;
        *given = 0;
    }
    if (ov) {
        if (ov->vls) {
            *vls = ov->vls;
            *given = ov->vls > 1u;
        }
        if (ov->sl2vl_set) memcpy(tab, ov->sl2vl, IBCC_QOS_SLS);
        if (ov->vlarb_set) *va = ov->vlarb;
    }
    if (!d->sl2vl_set && !(d->qos && d->qos->qos) && !(ov && ov->sl2vl_set))
        for (s = 0; s < IBCC_QOS_SLS; s++)     /* the default, as OpenSM
                                                  programs it */
            tab[s] = ibcc_fab_vl_fit_(tab[s], *vls);
    (void)port;
    return IBCC_OK;
}

/* Every port's VLs and tables, every link's VLs, the lanes, and the VL
   arbitration of every output whose link has several VLs. */
static ibcc_result ibcc_fab_vls_(ibcc_fabric *f)
{
    const ibcc_fabric_desc *d = &f->d;
    ibcc_fabric_error *e = d->error;
    uint32_t i, k, s, maxv = 1;
    uint32_t *pov = NULL, *pvls = NULL;
    ibcc_result r = IBCC_OK;
    ibcc_vlarb_desc va;
    if (d->sl2vl_set)
        for (s = 0; s < IBCC_QOS_SLS; s++)
            if (d->sl2vl[s] > 15u)
                return ibcc_fab_err_(e, IBCC_ERR_RANGE, NULL, 0, "sl2vl[%u] "
                                     "%u: a VL 0..14 or 15 (drop)", s,
                                     d->sl2vl[s]);
    pov = (uint32_t *)ibcc_fab_alloc_(&f->al, ibcc_fab_mul_(f->nports, 4));
    pvls = (uint32_t *)ibcc_fab_alloc_(&f->al, ibcc_fab_mul_(f->nports, 4));
    f->ptab = (uint8_t *)ibcc_fab_alloc_(&f->al,
                                ibcc_fab_mul_(f->nports, IBCC_QOS_SLS));
    if (!pov || !pvls || !f->ptab) { r = IBCC_ERR_NOMEM; goto out; }
    for (i = 0; i < f->nports; i++) pov[i] = IBCC_F_NONE_;
    for (i = 0; i < d->port_vl_count; i++) {
        const ibcc_fabric_port_vl *o = &d->port_vls[i];
        if (o->node >= f->nn || o->port >= f->node[o->node].ports) {
            r = ibcc_fab_err_(e, IBCC_ERR_RANGE, NULL, 0, "port_vls[%u]: "
                              "node %u port %u: no such port", i, o->node,
                              o->port);
            goto out;
        }
        if (o->vls && !ibcc_fab_vls_ok_(o->vls)) {
            r = ibcc_fab_err_(e, IBCC_ERR_RANGE, NULL, 0, "port_vls[%u]: "
                              "vls %u: 1, 2, 4, 8 or 15", i, o->vls);
            goto out;
        }
        for (s = 0; o->sl2vl_set && s < IBCC_QOS_SLS; s++)
            if (o->sl2vl[s] > 15u) {
                r = ibcc_fab_err_(e, IBCC_ERR_RANGE, NULL, 0, "port_vls[%u]:"
                                  " sl2vl[%u] %u: a VL 0..14 or 15 (drop)",
                                  i, s, o->sl2vl[s]);
                goto out;
            }
        pov[f->node[o->node].base + o->port] = i;
    }
    /* each port's settings, then each link's VLs */
    for (i = 0; i < f->nn; i++) {
        for (k = 0; k < f->node[i].ports; k++) {
            uint32_t gp = f->node[i].base + k, v, cap = ibcc_fab_vlcap_(f, i);
            uint8_t *tab = f->ptab + (size_t)gp * IBCC_QOS_SLS;
            int given;
            r = ibcc_fab_port_cfg_(f, i, k, pov[gp] == IBCC_F_NONE_ ? NULL
                                   : &d->port_vls[pov[gp]], &v, tab, &va,
                                   &given);
            if (r != IBCC_OK) goto out;
            if (given && v > cap) {
                r = ibcc_fab_err_(e, IBCC_ERR_UNSUPPORTED, NULL, 0, "node %u "
                                  "port %u: %u data VLs asked; its switch "
                                  "kind runs %u", i, k, v, cap);
                goto out;
            }
            for (s = 0; s < IBCC_QOS_SLS; s++) {
                if (tab[s] == 15u) f->drops = 1;
                else if (tab[s] >= v) {
                    r = ibcc_fab_err_(e, IBCC_ERR_RANGE, NULL, 0, "node %u "
                                      "port %u: sl2vl maps SL %u to VL %u; "
                                      "the port has %u data VL%s", i, k, s,
                                      tab[s], v, v == 1u ? "" : "s");
                    goto out;
                }
            }
            pvls[gp] = v < cap ? v : cap;
        }
    }
    for (i = 0; i < f->nch; i++) {
        ibcc_fchan_ *ch = &f->ch[i];
        uint32_t a = f->node[ch->from].base + ch->from_port;
        uint32_t b = f->node[ch->to].base + ch->to_port;
        uint8_t *tab = f->ptab + (size_t)a * IBCC_QOS_SLS;
        ch->vls = pvls[a] < pvls[b] ? pvls[a] : pvls[b];
        if (ch->vls > maxv) maxv = ch->vls;
        for (s = 0; s < IBCC_QOS_SLS; s++)
            tab[s] = ibcc_fab_vl_fit_(tab[s], ch->vls);
    }
    f->nlanes = maxv + 1u;
    /* switch (input, output) tables */
    if (d->sl2vl_count) {
        f->iotab = (uint8_t **)ibcc_fab_alloc_(&f->al,
                                ibcc_fab_mul_(f->nn, sizeof *f->iotab));
        if (!f->iotab) { r = IBCC_ERR_NOMEM; goto out; }
    }
    for (i = 0; i < d->sl2vl_count; i++) {
        const ibcc_fabric_sl2vl *t = &d->sl2vls[i];
        const ibcc_fnode_ *n;
        uint32_t P, oc, in, out;
        if (t->sw >= f->nn || f->node[t->sw].kind != IBCC_FABRIC_SWITCH) {
            r = ibcc_fab_err_(e, IBCC_ERR_RANGE, NULL, 0, "sl2vls[%u]: sw %u:"
                              " not a switch node", i, t->sw);
            goto out;
        }
        n = &f->node[t->sw];
        P = n->ports;
        if (t->in_port >= P || t->out_port >= P
            || (oc = f->out_ch[n->base + t->out_port]) == IBCC_F_NONE_) {
            r = ibcc_fab_err_(e, IBCC_ERR_RANGE, NULL, 0, "sl2vls[%u]: ports "
                              "%u -> %u: switch node %u has %u ports (the "
                              "output linked)", i, t->in_port, t->out_port,
                              t->sw, P);
            goto out;
        }
        if (!f->iotab[t->sw]) {
            uint8_t *m = (uint8_t *)ibcc_fab_alloc_(&f->al, ibcc_fab_mul_(
                             (size_t)P * P, IBCC_QOS_SLS));
            if (!m) { r = IBCC_ERR_NOMEM; goto out; }
            f->iotab[t->sw] = m;
            for (in = 0; in < P; in++)
                for (out = 0; out < P; out++)
                    memcpy(m + ((size_t)in * P + out) * IBCC_QOS_SLS,
                           f->ptab + (size_t)(n->base + out) * IBCC_QOS_SLS,
                           IBCC_QOS_SLS);
        }
        for (s = 0; s < IBCC_QOS_SLS; s++) {
            uint32_t v = t->vl[s];
            if (v != 15u && v >= pvls[n->base + t->out_port]) {
                r = ibcc_fab_err_(e, IBCC_ERR_RANGE, NULL, 0, "sl2vls[%u]: SL "
                                  "%u to VL %u: output port %u has %u data "
                                  "VL%s", i, s, v, t->out_port,
                                  pvls[n->base + t->out_port],
                                  pvls[n->base + t->out_port] == 1u ? "" : "s");
                goto out;
            }
            if (v == 15u) f->drops = 1;
            f->iotab[t->sw][((size_t)t->in_port * P + t->out_port)
                            * IBCC_QOS_SLS + s] =
                ibcc_fab_vl_fit_(v, f->ch[oc].vls);
        }
    }
    /* VL arbitration at every output of a link with several VLs */
    if (f->nlanes > 2u) {
        f->vla = (ibcc_vlarb *)ibcc_fab_alloc_(&f->al,
                                ibcc_fab_mul_(f->nports, sizeof *f->vla));
        if (!f->vla) { r = IBCC_ERR_NOMEM; goto out; }
        for (i = 0; i < f->nn; i++) {
            for (k = 0; k < f->node[i].ports; k++) {
                uint32_t gp = f->node[i].base + k, c = f->out_ch[gp], v;
                uint8_t tab[IBCC_QOS_SLS];
                int given;
                if (c == IBCC_F_NONE_ || f->ch[c].vls < 2u) continue;
                r = ibcc_fab_port_cfg_(f, i, k, pov[gp] == IBCC_F_NONE_
                                       ? NULL : &d->port_vls[pov[gp]], &v,
                                       tab, &va, &given);
                if (r != IBCC_OK) goto out;
                va.vls = f->ch[c].vls;
                for (s = 0; s < va.n_high && s < IBCC_VLARB_MAX_ENTRIES; s++)
                    va.high[s].vl = ibcc_fab_vl_fit_(va.high[s].vl, va.vls);
                for (s = 0; s < va.n_low && s < IBCC_VLARB_MAX_ENTRIES; s++)
                    va.low[s].vl = ibcc_fab_vl_fit_(va.low[s].vl, va.vls);
                r = ibcc_vlarb_init(&f->vla[gp], &va, NULL, 0);
                if (r != IBCC_OK) {
                    r = ibcc_fab_err_(e, r, NULL, 0, "vlarb at node %u port "
                                      "%u (%u data VLs): %s", i, k, va.vls,
                                      ibcc_result_str(r));
                    goto out;
                }
            }
        }
    }
out:
    ibcc_fab_free_(&f->al, pov);
    ibcc_fab_free_(&f->al, pvls);
    return r;
}

/* Frees the tables only creation reads. */
static void ibcc_fab_vl_tables_free_(ibcc_fabric *f)
{
    uint32_t i;
    if (f->iotab) {
        for (i = 0; i < f->nn; i++) ibcc_fab_free_(&f->al, f->iotab[i]);
        ibcc_fab_free_(&f->al, f->iotab);
        f->iotab = NULL;
    }
    ibcc_fab_free_(&f->al, f->ptab);
    f->ptab = NULL;
}

/* The VL a packet of service level sl leaves node `node` on by port
   `out`, having come in by port `in` (a host: in and out 0): the
   switch's (input, output) table when it has one, else the output
   port's; 15: the table drops it. The one SL-to-VL resolution, read by
   the fabric's paths (ibcc_fab_vl_paths_) and by the channel
   dependency graph (ibcc_fabric_credit_loops); valid while the tables
   are (creation, or a shell from ibcc_fab_vl_shell_). */
static uint32_t ibcc_fab_vl_at_(const ibcc_fabric *f, uint32_t node,
                                uint32_t in, uint32_t out, uint32_t sl)
{
    const ibcc_fnode_ *n = &f->node[node];
    if (f->iotab && f->iotab[node])
        return f->iotab[node][((size_t)in * n->ports + out) * IBCC_QOS_SLS
                              + sl];
    return f->ptab[(size_t)(n->base + out) * IBCC_QOS_SLS + sl];
}

/* A fabric of d's nodes, links and VL settings only (no routes, flows or
   engines): its ports' and switches' SL-to-VL tables and its links' VLs,
   built as ibcc_fabric_create builds them, for ibcc_fab_vl_at_. Free it
   with ibcc_fabric_destroy. A refusal's reason goes to d->error. */
static ibcc_result ibcc_fab_vl_shell_(const ibcc_fabric_desc *d0,
                                      const ibcc_fabric_allocator *al,
                                      ibcc_fabric **out)
{
    ibcc_fabric_desc d = *d0;
    ibcc_fabric *f;
    ibcc_result r;
    *out = NULL;
    d.routes = NULL;    d.route_count = 0;
    d.flows = NULL;     d.flow_count = 0;
    d.sources = NULL;   d.source_count = 0;
    if (al) d.allocator = *al;
    if ((r = ibcc_fabric_defaults(&d)) != IBCC_OK) return r;
    f = (ibcc_fabric *)ibcc_fab_alloc_(&d.allocator, sizeof *f);
    if (!f) return IBCC_ERR_NOMEM;
    f->al = d.allocator;
    f->d = d;
    f->nn = d.node_count;
    f->nl = d.link_count;
    f->nch = 2u * d.link_count;
    if ((r = ibcc_fab_topology_(f)) != IBCC_OK
        || (r = ibcc_fab_vls_(f)) != IBCC_OK) {
        ibcc_fabric_destroy(f);
        return r;
    }
    *out = f;
    return IBCC_OK;
}

/* Each flow's path through the SL-to-VL tables: its lane at its source,
   at each switch the lane it leaves on given the lane it came in on
   (w->xl); refuses an SL a table drops (VL 15) and an input lane whose
   packets the tables would send out on two VLs of one output. */
static ibcc_result ibcc_fab_vl_paths_(ibcc_fabric *f)
{
    ibcc_fabric_error *e = f->d.error;
    uint32_t i;
    /* a source's queues are made while the fabric runs, on the data
       lane of VL 0: the per-path VL checks below would have to run for
       each of them, which sources do not do yet */
    if (f->nsrc && (f->nlanes > 2u || f->drops))
        return ibcc_fab_err_(e, IBCC_ERR_UNSUPPORTED, NULL, 0, "sources: "
                             "one data VL only (no SL-to-VL tables that "
                             "spread SLs over VLs or drop them): use flows");
    if (f->nlanes > 2u) {
        for (i = 0; i < f->nsw; i++) {
            ibcc_fsw_ *w = &f->sw[i];
            uint32_t P = f->node[w->node].ports;
            size_t nx = (size_t)P * f->nlanes * P;
            w->xl = (uint8_t *)ibcc_fab_alloc_(&f->al, nx + 5u * P + 8u);
            if (!w->xl) return IBCC_ERR_NOMEM;
            memset(w->xl, 0xff, nx);
            w->vsel = w->xl + nx;
            w->vwant = (uint32_t *)(void *)(w->xl
                       + ((nx + P + 3u) & ~(size_t)3u));
            memset(w->vsel, 0xff, P);
        }
    } else if (!f->drops) {
        return IBCC_OK;                 /* one VL, nothing dropped */
    }
    for (i = 0; i < f->nf; i++) {
        ibcc_fflow_ *fl = &f->flow[i];
        uint32_t sl = fl->d.sl, gp = f->node[fl->d.src].base, hops = 0;
        uint32_t v = ibcc_fab_vl_at_(f, fl->d.src, 0, 0, sl), ln, c;
        if (v == 15u)
            return ibcc_fab_err_(e, IBCC_ERR_RANGE, NULL, 0, "flows[%u]: SL "
                                 "%u: host node %u's SL-to-VL drops it (VL "
                                 "15)", i, sl, fl->d.src);
        fl->lane = ln = IBCC_F_DLANE_(v);
        c = f->out_ch[gp];
        while (f->node[f->ch[c].to].kind == IBCC_FABRIC_SWITCH
               && hops++ <= f->nn) {
            uint32_t node = f->ch[c].to, in = f->ch[c].to_port;
            const ibcc_fnode_ *n = &f->node[node];
            ibcc_fsw_ *w = &f->sw[n->idx];
            uint32_t P = n->ports, out, ol;
            uint8_t *x;
            out = ibcc_fab_rtl_(f, n->idx, fl->d.dst, fl->d.dlid);
            v = ibcc_fab_vl_at_(f, node, in, out, sl);
            if (v == 15u)
                return ibcc_fab_err_(e, IBCC_ERR_RANGE, NULL, 0, "flows[%u]: "
                                     "SL %u: switch node %u drops it (VL 15 "
                                     "from port %u to port %u)", i, sl, node,
                                     in, out);
            ol = IBCC_F_DLANE_(v);
            if (w->xl) {
                x = &w->xl[((size_t)in * f->nlanes + ln) * P + out];
                if (*x != 0xffu && *x != ol)
                    return ibcc_fab_err_(e, IBCC_ERR_UNSUPPORTED, NULL, 0,
                                         "flows[%u]: switch node %u: VL %u "
                                         "of port %u goes to port %u on VL "
                                         "%u and (SL %u) VL %u: one VL per "
                                         "input VL and output", i, node,
                                         IBCC_F_LVL_(ln), in, out,
                                         IBCC_F_LVL_(*x), sl, v);
                *x = (uint8_t)ol;
            }
            ln = ol;
            c = f->out_ch[n->base + out];
        }
    }
    return IBCC_OK;
}

/* Channel capacities as seen by their senders (receiver's buffers):
   every data VL of the link has a data buffer's worth; lanes of VLs the
   link does not run have none. */
static ibcc_result ibcc_fab_credits_(ibcc_fabric *f)
{
    uint32_t c, ln;
    if (f->nlanes > 2u) {
        f->lanemem = (ibcc_flane_ *)ibcc_fab_alloc_(&f->al, ibcc_fab_mul_(
                     ibcc_fab_mul_(f->nch, f->nlanes), sizeof *f->lanemem));
        if (!f->lanemem && f->nch) return IBCC_ERR_NOMEM;
    }
    for (c = 0; c < f->nch; c++) {
        ibcc_fchan_ *ch = &f->ch[c];
        ch->lc = f->lanemem ? f->lanemem + (size_t)c * f->nlanes : ch->lc2;
        for (ln = 0; ln < f->nlanes; ln++) {
            if (ln == IBCC_F_ACK_) {
                ch->lc[ln].cap_p = f->d.ack_buf_packets;
                ch->lc[ln].cap_u = f->d.ack_buf_packets * 1024u;
            } else if (IBCC_F_LVL_(ln) < ch->vls) {
                ch->lc[ln].cap_p = f->d.buf_packets;
                ch->lc[ln].cap_u = f->d.buf_credits ? f->d.buf_credits
                                                    : f->d.buf_packets * 1024u;
            }
            ch->lc[ln].av_p = ch->lc[ln].cap_p;
            ch->lc[ln].av_u = ch->lc[ln].cap_u;
        }
    }
    return IBCC_OK;
}


/* Switches: input buffers, their kind, arbiters (one per lane), marker
   and, for CIOQ, output buffers. */
static ibcc_result ibcc_fab_switches_(ibcc_fabric *f)
{
    uint32_t i, s = 0, nb = 0, k;
    f->sw = (ibcc_fsw_ *)ibcc_fab_alloc_(&f->al,
                                ibcc_fab_mul_(f->nsw ? f->nsw : 1u, sizeof *f->sw));
    f->work = (uint32_t *)ibcc_fab_alloc_(&f->al,
                                ibcc_fab_mul_((size_t)f->nsw + f->nh, 4));
    if (!f->work) return IBCC_ERR_NOMEM;
    f->buf = (ibcc_fbuf_ *)ibcc_fab_alloc_(&f->al, ibcc_fab_mul_(
                 (size_t)f->nports * f->nlanes, sizeof *f->buf));
    f->bufmem = (uint32_t *)ibcc_fab_alloc_(&f->al, ibcc_fab_mul_(
            f->nports, ((size_t)f->d.buf_packets * (f->nlanes - 1u)
                        + f->d.ack_buf_packets) * 4u));
    if (!f->sw || !f->buf || !f->bufmem) return IBCC_ERR_NOMEM;
    for (i = 0; i < f->nports * f->nlanes; i++) {
        ibcc_fbuf_ *b = &f->buf[i];
        b->cap = i % f->nlanes == IBCC_F_ACK_ ? f->d.ack_buf_packets
                                              : f->d.buf_packets;
        b->q = f->bufmem + nb;
        nb += b->cap;
    }
    for (i = 0; i < f->nn; i++) {
        const ibcc_fabric_node *nd = &f->d.nodes[i];
        ibcc_fsw_ *w;
        ibcc_arbiter_desc ad[2];
        ibcc_marker_desc md;
        size_t sz[5], off = 0, tot, hdr;
        uint32_t nv;
        ibcc_result r;
        char *mem;
        size_t own;
        ibcc_switch_kind sk;
        if (f->node[i].kind != IBCC_FABRIC_SWITCH) continue;
        w = &f->sw[s++];
        w->f = f;
        w->node = i;
        sk = (uint32_t)nd->switch_kind ? nd->switch_kind : f->d.switch_kind;
        w->kind = ibcc_fab_kind_[sk];
        if (!f->link) f->link = w->kind->link;
        if (w->kind->link != f->link)
            return ibcc_fab_err_(f->d.error, IBCC_ERR_UNSUPPORTED, NULL, 0,
                                 "nodes[%u]: switch_kind %s (%s links) "
                                 "cannot share a fabric with %s links", i,
                                 w->kind->name, w->kind->link->name,
                                 f->link->name);
        for (k = 0; k < 2u; k++) {
            ad[k] = f->d.arbiter;
            ad[k].ports = f->node[i].ports;
            ad[k].capacity = k ? f->d.ack_buf_packets : f->d.buf_packets;
            ad[k].can_send = ibcc_fab_can_send_;
            ad[k].user = w;
            if ((r = ibcc_arbiter_size(&ad[k], &sz[k])) != IBCC_OK)
                return ibcc_fab_err_(f->d.error, r, NULL, 0, "arbiter "
                                     "(ibcc_arbiter_desc) at switch node "
                                     "%u: %s", i, ibcc_result_str(r));
            sz[k] = (size_t)ibcc_round8_(sz[k]);
        }
        md = f->d.marker;
        md.ports = f->node[i].ports;
        md.unit = f->d.buf_credits ? IBCC_UNIT_CREDITS : IBCC_UNIT_PACKETS;
        md.in_capacity = f->d.buf_credits ? f->d.buf_credits
                                          : f->d.buf_packets;
        /* a random stream per switch and data VL (ECN marking), from the
           seed */
        md.ecn_seed = f->d.marker.ecn_seed ^ f->d.seed
                      ^ ((uint64_t)i << 32) ^ UINT64_C(0x45434e);
        own = w->kind->setup(f, i, &md);
        /* cut-through: a departed packet's tail keeps its room in the
           input buffer until it is out (VCT: the output has sent it;
           CIOQ: the crossbar transfer ended), so "buffer full" means
           what the credits say */
        md.hold = 1;
        if ((r = ibcc_marker_size(&md, &sz[2])) != IBCC_OK)
            return ibcc_fab_err_(f->d.error, r, NULL, 0, "marker "
                                 "(ibcc_marker_desc) at switch node %u: %s",
                                 i, ibcc_result_str(r));
        sz[2] = (size_t)ibcc_round8_(sz[2]);
        sz[3] = (size_t)ibcc_round8_(own);
        sz[4] = ibcc_fab_mul_(f->node[i].ports, sizeof(ibcc_fdone_));
        /* lanes: an arbiter per lane (data VLs like lane 0), a marker per
           data VL, their structs first */
        nv = f->nlanes - 1u;
        hdr = (size_t)ibcc_round8_(f->nlanes * sizeof(ibcc_arbiter))
              + (size_t)ibcc_round8_(nv * sizeof(ibcc_marker));
        tot = hdr + sz[0] * nv + sz[1] + sz[2] * nv + sz[3] + sz[4];
        w->mem = ibcc_fab_alloc_(&f->al, tot);
        if (!w->mem) return IBCC_ERR_NOMEM;
        mem = (char *)w->mem;
        w->arb = (ibcc_arbiter *)(void *)mem;
        w->mk = (ibcc_marker *)(void *)(mem + (size_t)ibcc_round8_(
                    f->nlanes * sizeof(ibcc_arbiter)));
        off = hdr;
        for (k = 0; k < f->nlanes; k++) {
            uint32_t j = k == IBCC_F_ACK_ ? 1u : 0u;
            r = ibcc_arbiter_init(&w->arb[k], &ad[j], mem + off, sz[j]);
            if (r != IBCC_OK) return r;
            off += sz[j];
        }
        for (k = 0; k < nv; k++) {
            ibcc_marker_desc mv = md;
            mv.ecn_seed ^= (uint64_t)k << 56;    /* a stream per data VL */
            r = ibcc_marker_init(&w->mk[k], &mv, mem + off, sz[2]);
            if (r != IBCC_OK) return r;
            off += sz[2];
        }
        w->kind->init(f, w, mem + off);
        off += sz[3];
        w->done = (ibcc_fdone_ *)(void *)(mem + off);
        w->wake_at = IBCC_TIME_MAX;
    }
    return IBCC_OK;
}

/* Checks one flow description against the topology and the desc. */
static ibcc_result ibcc_fab_flow_check_(const ibcc_fabric *f,
                                        const ibcc_fabric_flow *x, uint32_t i)
{
    ibcc_fabric_error *e = f->d.error;
    ibcc_result r;
    if (x->src >= f->nn || f->node[x->src].kind != IBCC_FABRIC_HOST
        || x->dst >= f->nn || f->node[x->dst].kind != IBCC_FABRIC_HOST) {
        int is = x->src >= f->nn || f->node[x->src].kind != IBCC_FABRIC_HOST;
        return ibcc_fab_err_(e, IBCC_ERR_RANGE, NULL, 0,
                             "flows[%u]: %s %u: not a host node", i,
                             is ? "src" : "dst", is ? x->src : x->dst);
    }
    if (x->src == x->dst)
        return ibcc_fab_err_(e, IBCC_ERR_RANGE, NULL, 0,
                             "flows[%u]: src and dst are both node %u", i,
                             x->src);
    {   /* the unsigned fields with a largest value */
        struct { const char *name; uint64_t v, max; } lim[8];
        unsigned k, n = 0;
#define IBCC_F_LIM_(field, m) \
        lim[n].name = #field; lim[n].v = (uint64_t)x->field; lim[n++].max = (m)
        IBCC_F_LIM_(traffic, IBCC_TRAFFIC_PUSH);
        IBCC_F_LIM_(agent, IBCC_F_AGENTS_ - 1u);
        IBCC_F_LIM_(persistent, 1u);
        IBCC_F_LIM_(size, 65535u);
        IBCC_F_LIM_(prio, 1u);
        IBCC_F_LIM_(msg_exp, 1u);
        IBCC_F_LIM_(cls, IBCC_FABRIC_CLASSES - 1u);
        IBCC_F_LIM_(sl, 15u);
#undef IBCC_F_LIM_
        for (k = 0; k < n; k++)
            if (lim[k].v > lim[k].max)
                return ibcc_fab_err_(e, IBCC_ERR_RANGE, NULL, 0,
                                     "flows[%u]: %s %llu: at most %llu", i,
                                     lim[k].name,
                                     (unsigned long long)lim[k].v,
                                     (unsigned long long)lim[k].max);
    }
    if (x->msg_exp && !x->msg_bytes)
        return ibcc_fab_err_(e, IBCC_ERR_RANGE, NULL, 0,
                             "flows[%u]: msg_exp needs msg_bytes (the mean)",
                             i);
    if (x->stop != 0 && x->stop <= x->start)
        return ibcc_fab_err_(e, IBCC_ERR_RANGE, NULL, 0,
                             "flows[%u]: stop %llu ps: not after start %llu "
                             "ps", i, (unsigned long long)x->stop,
                             (unsigned long long)x->start);
    if (x->traffic == IBCC_TRAFFIC_ONOFF
        && (x->on_mean == 0 || x->off_mean == 0))
        return ibcc_fab_err_(e, IBCC_ERR_RANGE, NULL, 0,
                             "flows[%u]: ONOFF traffic needs on_mean and "
                             "off_mean above 0", i);
    if ((x->traffic == IBCC_TRAFFIC_RATE || x->traffic == IBCC_TRAFFIC_POISSON)
        && x->offered == 0)
        return ibcc_fab_err_(e, IBCC_ERR_RANGE, NULL, 0,
                             "flows[%u]: %s traffic needs offered above 0",
                             i, x->traffic == IBCC_TRAFFIC_RATE ? "RATE"
                                                               : "POISSON");
    /* one FIFO per host orders generated packets; greedy sources have no
       generation order */
    if (f->d.nic_fifo && x->traffic != IBCC_TRAFFIC_RATE
        && x->traffic != IBCC_TRAFFIC_POISSON
        && x->traffic != IBCC_TRAFFIC_PUSH)
        return ibcc_fab_err_(e, IBCC_ERR_UNSUPPORTED, NULL, 0,
                             "flows[%u]: nic_fifo serves RATE, POISSON and "
                             "PUSH traffic only (greedy packets have no "
                             "generation order)", i);
    if (x->traffic == IBCC_TRAFFIC_PUSH && x->packets != 0)
        return ibcc_fab_err_(e, IBCC_ERR_RANGE, NULL, 0,
                             "flows[%u]: PUSH traffic takes no packet "
                             "limit (a pushed message is generated whole)",
                             i);
    /* without ACKs a window would never open again and a law would never
       increase */
    if (f->dest.transport == IBCC_DEST_UNACKED
        && (x->window || ibcc_fab_agents_[x->agent].acks))
        return ibcc_fab_err_(e, IBCC_ERR_UNSUPPORTED, NULL, 0,
                             "flows[%u]: %s needs ACKs, and dest.transport "
                             "is UNACKED", i, x->window ? "a window"
                             : ibcc_fab_agents_[x->agent].name);
    if ((r = ibcc_fab_agents_[x->agent].check(f, x, i)) != IBCC_OK) return r;
    if (x->dlid >> f->lmc)
        return ibcc_fab_err_(e, IBCC_ERR_RANGE, NULL, 0, "flows[%u]: dlid "
                             "%u: host node %u has %u LIDs (lmc %u)", i,
                             x->dlid, x->dst, 1u << f->lmc, f->lmc);
    if ((r = ibcc_fab_walk_(f, x->src, x->dst, x->dlid)) != IBCC_OK)
        return r;
    return ibcc_fab_walk_(f, x->dst, x->src, 0);
}

/* Follows the routes from host u toward host t, stopping at a switch
   already known to reach t (memo[switch] == t + 1); 1 when it arrives.
   With mark, records every switch on the way as reaching t. */
static int ibcc_fab_reach_(const ibcc_fabric *f, uint32_t u, uint32_t t,
                           uint32_t *memo, int mark)
{
    uint32_t c = f->out_ch[f->node[u].base], hops = 0;
    for (;;) {
        uint32_t node = f->ch[c].to, port;
        const ibcc_fnode_ *n = &f->node[node];
        if (n->kind == IBCC_FABRIC_HOST) return node == t;
        if (memo[n->idx] == t + 1u) return 1;
        if (mark) memo[n->idx] = t + 1u;
        if (++hops > f->nn) return 0;
        port = ibcc_fab_rt_(f, n->idx, t);
        if (port == IBCC_F_NONE_) return 0;
        c = f->out_ch[n->base + port];
    }
}

/* Sources (L3 traffic): their rules, state, engine slots at their hosts
   and first events' due times; the routes between the hosts UNIFORM and
   ALLTOALL sources address, both ways (GEN sources: each new
   destination's when its first message comes). */
static ibcc_result ibcc_fab_sources_(ibcc_fabric *f)
{
    const ibcc_fabric_desc *d = &f->d;
    ibcc_fabric_error *e = d->error;
    size_t stride = 8;
    uint32_t i, k, *memo = NULL, *set = NULL, nset = 0;
    uint8_t *in = NULL;
    ibcc_result r = IBCC_OK;
    f->fcap = f->nf ? f->nf : 1u;
    f->nfx = f->nf;
    f->free_q = IBCC_F_NONE_;
    f->nsrc = d->source_count;
    if (f->nsrc == 0) return IBCC_OK;
    if (!d->sources)
        return ibcc_fab_err_(e, IBCC_ERR_NULL, NULL, 0,
                             "sources (source_count > 0): NULL");
    if (f->nsrc > (1u << 24))
        return ibcc_fab_err_(e, IBCC_ERR_CAPACITY, NULL, 0,
                             "source_count %u: 0..2^24", f->nsrc);
    f->src = (ibcc_fsrc_ *)ibcc_fab_alloc_(&f->al,
                                ibcc_fab_mul_(f->nsrc, sizeof *f->src));
    if (!f->src) return IBCC_ERR_NOMEM;
    memset(f->src, 0, (size_t)f->nsrc * sizeof *f->src);
    for (i = 0; i < f->nsrc; i++) {
        const ibcc_fabric_source *y = &d->sources[i];
        const ibcc_fabric_flow *t = &y->flow;
        ibcc_fsrc_ *x = &f->src[i];
        int pat = y->kind == IBCC_SOURCE_UNIFORM
                  || y->kind == IBCC_SOURCE_ALLTOALL;
        ibcc_fabric_flow probe;
        if (y->kind != IBCC_SOURCE_UNIFORM && y->kind != IBCC_SOURCE_ALLTOALL
            && y->kind != IBCC_SOURCE_GEN)
            return ibcc_fab_err_(e, IBCC_ERR_RANGE, NULL, 0, "sources[%u]: "
                                 "kind %d: UNIFORM, ALLTOALL or GEN", i,
                                 (int)y->kind);
        if (t->src >= f->nn || f->node[t->src].kind != IBCC_FABRIC_HOST)
            return ibcc_fab_err_(e, IBCC_ERR_RANGE, NULL, 0, "sources[%u]: "
                                 "flow.src %u: not a host node", i, t->src);
        if (t->dst || t->packets || t->start_after || t->persistent
            || t->on_mean || t->off_mean || t->traffic == IBCC_TRAFFIC_ONOFF)
            return ibcc_fab_err_(e, IBCC_ERR_UNSUPPORTED, NULL, 0,
                                 "sources[%u]: flow.%s: not for sources "
                                 "(must be 0)", i, t->dst ? "dst"
                                 : t->packets ? "packets"
                                 : t->start_after ? "start_after"
                                 : t->persistent ? "persistent"
                                 : "traffic ONOFF / on_mean / off_mean");
        if ((unsigned)t->agent >= IBCC_F_AGENTS_)
            return ibcc_fab_err_(e, IBCC_ERR_RANGE, NULL, 0, "sources[%u]: "
                                 "flow.agent %d: unknown", i, (int)t->agent);
        if (pat) {
            if (!y->hosts)
                return ibcc_fab_err_(e, IBCC_ERR_NULL, NULL, 0, "sources[%u]:"
                                     " hosts: NULL", i);
            if (t->traffic == IBCC_TRAFFIC_GREEDY
                && y->kind == IBCC_SOURCE_UNIFORM)
                return ibcc_fab_err_(e, IBCC_ERR_UNSUPPORTED, NULL, 0,
                                     "sources[%u]: UNIFORM takes POISSON or "
                                     "RATE traffic", i);
            if (t->traffic != IBCC_TRAFFIC_GREEDY && t->offered == 0)
                return ibcc_fab_err_(e, IBCC_ERR_RANGE, NULL, 0,
                                     "sources[%u]: %s traffic needs offered "
                                     "above 0", i,
                                     t->traffic == IBCC_TRAFFIC_RATE
                                     ? "RATE" : "POISSON");
            x->self = y->host_count;
            for (k = 0; k < y->host_count; k++) {
                if (y->hosts[k] >= f->nn
                    || f->node[y->hosts[k]].kind != IBCC_FABRIC_HOST)
                    return ibcc_fab_err_(e, IBCC_ERR_RANGE, NULL, 0,
                                         "sources[%u]: hosts[%u] %u: not a "
                                         "host node", i, k, y->hosts[k]);
                if (y->hosts[k] == t->src && x->self == y->host_count)
                    x->self = k;
            }
            if (y->host_count - (x->self < y->host_count) == 0)
                return ibcc_fab_err_(e, IBCC_ERR_RANGE, NULL, 0,
                                     "sources[%u]: hosts: no host but the "
                                     "source's own", i);
        } else if (!y->next) {
            return ibcc_fab_err_(e, IBCC_ERR_NULL, NULL, 0, "sources[%u]: "
                                 "next: NULL (GEN)", i);
        }
        /* the flow rules, on the template with a stand-in destination */
        probe = *t;
        probe.dst = t->src;
        if (probe.traffic == IBCC_TRAFFIC_GREEDY) {
            probe.traffic = IBCC_TRAFFIC_RATE;
            probe.offered = 1;
        }
        if (probe.msg_exp && !probe.msg_bytes)
            return ibcc_fab_err_(e, IBCC_ERR_RANGE, NULL, 0, "sources[%u]: "
                                 "msg_exp needs msg_bytes (the mean)", i);
        if (probe.stop != 0 && probe.stop <= probe.start)
            return ibcc_fab_err_(e, IBCC_ERR_RANGE, NULL, 0, "sources[%u]: "
                                 "stop %llu ps: not after start %llu ps", i,
                                 (unsigned long long)probe.stop,
                                 (unsigned long long)probe.start);
        if (probe.cls >= IBCC_FABRIC_CLASSES || probe.size > 65535u
            || (probe.size == 0 ? d->data_size : probe.size) == 0
            || probe.sl > 15u)
            return ibcc_fab_err_(e, IBCC_ERR_RANGE, NULL, 0, "sources[%u]: "
                                 "cls 0..15, size 0..65535, sl 0..15", i);
        if (f->dest.transport == IBCC_DEST_UNACKED
            && (t->window || ibcc_fab_agents_[t->agent].acks))
            return ibcc_fab_err_(e, IBCC_ERR_UNSUPPORTED, NULL, 0,
                                 "sources[%u]: %s needs ACKs, and "
                                 "dest.transport is UNACKED", i, t->window
                                 ? "a window" : ibcc_fab_agents_[t->agent].name);
        if ((r = ibcc_fab_agents_[t->agent].check(f, &probe, i)) != IBCC_OK
            || (r = ibcc_fab_agents_[t->agent].src_check(f, &probe, i))
               != IBCC_OK)
            return r;
        x->d = *y;
        if (x->d.flow.size == 0) x->d.flow.size = d->data_size;
        if ((d->buf_credits
             && ibcc_fab_units_(x->d.flow.size) > d->buf_credits)
            || (d->out_buf_credits
                && ibcc_fab_units_(x->d.flow.size) > d->out_buf_credits))
            return ibcc_fab_err_(e, IBCC_ERR_RANGE, NULL, 0, "sources[%u]: "
                                 "size %u: needs more 64-byte credits than "
                                 "a buffer has", i, x->d.flow.size);
        if (pat && x->d.messages == 0 && t->traffic == IBCC_TRAFFIC_GREEDY)
            x->d.messages = y->host_count - (x->self < y->host_count);
        x->ag = &ibcc_fab_agents_[t->agent];
        x->host = f->node[t->src].idx;
        x->eslot = f->host[x->host].eslots++;
        x->ev_at = t->start;
        x->map_cap = 16u;
        x->map = (uint32_t *)ibcc_fab_alloc_(&f->al, 16u * 8u);
        if (!x->map) return IBCC_ERR_NOMEM;
        memset(x->map, 0, 16u * 8u);
        /* its own stream: (seed, source index) on a path of its own */
        ibcc_fab_stream_(&x->rng, d->seed ^ UINT64_C(0x5eed50a5ce5eed00),
                         i);
        if ((size_t)ibcc_round8_(ibcc_fab_agents_[t->agent].state) > stride)
            stride = (size_t)ibcc_round8_(ibcc_fab_agents_[t->agent].state);
    }
    f->qas_stride = stride;
    /* the routes among the hosts that UNIFORM and ALLTOALL sources
       address (their own hosts included), both ways: per destination,
       every switch on a path found good is not walked again */
    in = (uint8_t *)ibcc_fab_alloc_(&f->al, f->nn);
    set = (uint32_t *)ibcc_fab_alloc_(&f->al, ibcc_fab_mul_(f->nh, 4));
    memo = (uint32_t *)ibcc_fab_alloc_(&f->al,
                                       ibcc_fab_mul_(f->nsw ? f->nsw : 1u, 4));
    if (!in || !set || !memo) { r = IBCC_ERR_NOMEM; goto out; }
    memset(in, 0, f->nn);
    memset(memo, 0, (size_t)(f->nsw ? f->nsw : 1u) * 4u);
    for (i = 0; i < f->nsrc; i++) {
        const ibcc_fsrc_ *x = &f->src[i];
        if (x->d.kind == IBCC_SOURCE_GEN) continue;
        if (!in[x->d.flow.src]) {
            in[x->d.flow.src] = 1;
            set[nset++] = x->d.flow.src;
        }
        for (k = 0; k < x->d.host_count; k++)
            if (!in[x->d.hosts[k]]) {
                in[x->d.hosts[k]] = 1;
                set[nset++] = x->d.hosts[k];
            }
    }
    for (i = 0; i < nset && r == IBCC_OK; i++)
        for (k = 0; k < nset; k++) {
            if (k == i) continue;
            if (!ibcc_fab_reach_(f, set[k], set[i], memo, 0)) {
                r = ibcc_fab_walk_(f, set[k], set[i], 0);
                if (r == IBCC_OK) r = IBCC_ERR_RANGE;
                break;
            }
            (void)ibcc_fab_reach_(f, set[k], set[i], memo, 1);
        }
out:
    ibcc_fab_free_(&f->al, in);
    ibcc_fab_free_(&f->al, set);
    ibcc_fab_free_(&f->al, memo);
    return r;
}

/* Flows: descriptions, host lists, random streams, start gates, the
   host engines and per-flow state of their source agents. */
static ibcc_result ibcc_fab_flows_(ibcc_fabric *f)
{
    const ibcc_fabric_desc *d = &f->d;
    uint32_t i, h, k, *fill;
    size_t total = 0, off = 0;
    ibcc_result r;
    f->flow = (ibcc_fflow_ *)ibcc_fab_alloc_(&f->al,
                          ibcc_fab_mul_(f->nf ? f->nf : 1u, sizeof *f->flow));
    f->hflow = (uint32_t *)ibcc_fab_alloc_(&f->al,
                          ibcc_fab_mul_(f->nf ? f->nf : 1u, 4));
    f->after = (uint32_t *)ibcc_fab_alloc_(&f->al,
                          ibcc_fab_mul_(f->nf ? f->nf : 1u, 4));
    f->host = (ibcc_fhost_ *)ibcc_fab_alloc_(&f->al,
                          ibcc_fab_mul_(f->nh, sizeof *f->host));
    if (!f->flow || !f->hflow || !f->after || !f->host) return IBCC_ERR_NOMEM;
    for (i = 0; i < f->nn; i++) {
        ibcc_fhost_ *o;
        if (f->node[i].kind != IBCC_FABRIC_HOST) continue;
        o = &f->host[f->node[i].idx];
        o->node = i;
        o->chan = f->out_ch[f->node[i].base];
        o->ackq_head = o->ackq_tail = IBCC_F_NONE_;
        o->fifo_head = o->fifo_tail = IBCC_F_NONE_;
        o->wake_at = IBCC_TIME_MAX;
    }
    for (i = 0; i < f->nf; i++) {
        const ibcc_fabric_flow *x = &d->flows[i];
        ibcc_fflow_ *fl = &f->flow[i];
        if ((r = ibcc_fab_flow_check_(f, x, i)) != IBCC_OK) return r;
        fl->d = *x;
        if (fl->d.size == 0) fl->d.size = d->data_size;
        if ((d->buf_credits && ibcc_fab_units_(fl->d.size) > d->buf_credits)
            || (d->out_buf_credits
                && ibcc_fab_units_(fl->d.size) > d->out_buf_credits))
            return ibcc_fab_err_(d->error, IBCC_ERR_RANGE, NULL, 0,
                                 "flows[%u]: size %u: needs %u 64-byte "
                                 "credits, above %s %u", i, fl->d.size,
                                 ibcc_fab_units_(fl->d.size),
                                 d->buf_credits
                                 && ibcc_fab_units_(fl->d.size)
                                        > d->buf_credits
                                     ? "buf_credits" : "out_buf_credits",
                                 d->buf_credits
                                 && ibcc_fab_units_(fl->d.size)
                                        > d->buf_credits
                                     ? d->buf_credits : d->out_buf_credits);
        fl->ag = &ibcc_fab_agents_[x->agent];
        fl->host = h = f->node[x->src].idx;
        fl->local = fl->eslot = f->host[h].nflows++;
        fl->src = IBCC_FABRIC_NONE;
        fl->q_head = fl->q_tail = IBCC_F_NONE_;
        fl->gate = 1u + (x->start_after != 0);
        ibcc_fab_stream_(&fl->rng, d->seed, i);
        f->cls[x->cls].st.flows++;
        if (x->start_after) f->after[f->nafter++] = i;
        total += (size_t)ibcc_round8_(fl->ag->state);
    }
    /* start_after flows in ascending order of their threshold (insertion
       sort, stable: equal thresholds open in flow order) */
    for (i = 1; i < f->nafter; i++) {
        uint32_t x = f->after[i];
        k = i;
        while (k > 0 && f->flow[f->after[k - 1]].d.start_after
                        > f->flow[x].d.start_after) {
            f->after[k] = f->after[k - 1];
            k--;
        }
        f->after[k] = x;
    }
    /* host flow lists: hflow[first .. first + nflows) */
    fill = (uint32_t *)ibcc_fab_alloc_(&f->al, ibcc_fab_mul_(f->nh, 4));
    if (!fill) return IBCC_ERR_NOMEM;
    for (h = 0, i = 0; h < f->nh; h++) {
        f->host[h].first = i;
        fill[h] = i;
        i += f->host[h].nflows;
    }
    for (i = 0; i < f->nf; i++) {
        h = f->flow[i].host;
        f->hflow[fill[h]++] = i;
    }
    ibcc_fab_free_(&f->al, fill);
    for (h = 0; h < f->nh; h++) {
        f->host[h].hf = f->hflow + f->host[h].first;
        f->host[h].hcap = f->host[h].nflows;
        f->host[h].eslots = f->host[h].nflows;
    }
    if ((r = ibcc_fab_sources_(f)) != IBCC_OK) return r;
    /* ready bitmaps: ceil(nflows / 64) words per host */
    {
        size_t words = 0;
        for (h = 0; h < f->nh; h++) words += (f->host[h].nflows + 63u) / 64u;
        f->readymem = (uint64_t *)ibcc_fab_alloc_(&f->al,
                                    ibcc_fab_mul_(words ? words : 1u, 8));
        if (!f->readymem) return IBCC_ERR_NOMEM;
        for (h = 0, words = 0; h < f->nh; h++) {
            f->host[h].ready = f->readymem + words;
            words += (f->host[h].nflows + 63u) / 64u;
        }
    }
    /* host engines of the agent kinds each host's flows use */
    for (h = 0; h < f->nh; h++) {
        ibcc_fhost_ *o = &f->host[h];
        for (i = 0; i < o->nflows; i++) {
            const ibcc_fagent_ *ag = f->flow[o->hf[i]].ag;
            uint32_t kind = (uint32_t)(ag - ibcc_fab_agents_);
            if (o->engine[kind]) continue;
            if ((r = ag->host_init(f, o)) != IBCC_OK)
                return ibcc_fab_err_(d->error, r, NULL, 0, "flows[%u]: the "
                                     "%s agent's engine at host node %u: %s",
                                     o->hf[i], ag->name,
                                     o->node, ibcc_result_str(r));
        }
    }
    for (i = 0; i < f->nsrc; i++) {             /* ... and its sources' */
        ibcc_fhost_ *o = &f->host[f->src[i].host];
        uint32_t kind = (uint32_t)f->src[i].d.flow.agent;
        if (o->engine[kind]) continue;
        if ((r = ibcc_fab_agents_[kind].host_init(f, o)) != IBCC_OK)
            return ibcc_fab_err_(d->error, r, NULL, 0, "sources[%u]: the %s "
                                 "agent's engine at host node %u: %s", i,
                                 ibcc_fab_agents_[kind].name, o->node,
                                 ibcc_result_str(r));
    }
    /* per-flow agent states */
    f->agent_mem = ibcc_fab_alloc_(&f->al, total ? total : 8u);
    if (!f->agent_mem) return IBCC_ERR_NOMEM;
    for (i = 0; i < f->nf; i++) {
        ibcc_fflow_ *fl = &f->flow[i];
        fl->as = (char *)f->agent_mem + off;
        off += (size_t)ibcc_round8_(fl->ag->state);
        if ((r = fl->ag->init(f, fl)) != IBCC_OK)
            return ibcc_fab_err_(d->error, r, NULL, 0, "flows[%u]: the %s "
                                 "agent: %s", i, fl->ag->name,
                                 ibcc_result_str(r));
    }
    return IBCC_OK;
}

IBCC_API ibcc_result ibcc_fabric_create(ibcc_fabric **out,
                                        const ibcc_fabric_desc *desc)
{
    ibcc_fabric_desc d;
    ibcc_fabric_allocator al;
    ibcc_fabric *f;
    ibcc_loop_desc ld;
    ibcc_pairstate_desc pd;
    ibcc_fabric_error *e;
    ibcc_result r;
    uint64_t cap;
    size_t sz;
    uint32_t i;
    if (!out)
        return desc ? ibcc_fab_err_(desc->error, IBCC_ERR_NULL, NULL, 0,
                                    "out: NULL") : IBCC_ERR_NULL;
    *out = NULL;
    if (!desc) return IBCC_ERR_NULL;
    e = desc->error;
    if (!desc->nodes || !desc->links || (desc->route_count && !desc->routes)
        || (desc->flow_count && !desc->flows))
        return ibcc_fab_err_(e, IBCC_ERR_NULL, NULL, 0, "%s: NULL",
                             !desc->nodes ? "nodes" : !desc->links ? "links"
                             : (desc->route_count && !desc->routes)
                                 ? "routes (route_count > 0)"
                                 : "flows (flow_count > 0)");
    if ((desc->allocator.alloc == NULL) != (desc->allocator.free == NULL))
        return ibcc_fab_err_(e, IBCC_ERR_NULL, NULL, 0, "allocator: alloc "
                             "and free are both set or both NULL");
    if (desc->node_count == 0 || desc->node_count > (1u << 24)
        || desc->link_count == 0 || desc->link_count > (1u << 24)
        || desc->flow_count > (1u << 24))
        return ibcc_fab_err_(e, IBCC_ERR_CAPACITY, NULL, 0,
                             "%s %u: %s..2^24", desc->node_count == 0
                             || desc->node_count > (1u << 24) ? "node_count"
                             : desc->link_count == 0
                             || desc->link_count > (1u << 24) ? "link_count"
                             : "flow_count",
                             desc->node_count == 0
                             || desc->node_count > (1u << 24)
                                 ? desc->node_count
                             : desc->link_count == 0
                             || desc->link_count > (1u << 24)
                                 ? desc->link_count : desc->flow_count,
                             desc->node_count == 0
                             || desc->node_count > (1u << 24)
                             || desc->link_count == 0
                             || desc->link_count > (1u << 24) ? "1" : "0");
    d = *desc;
    if ((r = ibcc_fabric_defaults(&d)) != IBCC_OK) return r;
    al = d.allocator;
    f = (ibcc_fabric *)ibcc_fab_alloc_(&al, sizeof *f);
    if (!f)
        return ibcc_fab_err_(e, IBCC_ERR_NOMEM, NULL, 0, "out of memory");
    f->al = al;
    f->d = d;
    f->nn = d.node_count;
    f->nl = d.link_count;
    f->nch = 2u * d.link_count;
    f->nf = d.flow_count;
    f->free_pkt = IBCC_F_NONE_;
    if ((r = ibcc_dest_init(&f->dest, &d.dest)) != IBCC_OK) {
        (void)ibcc_fab_err_(e, r, NULL, 0, "dest (ibcc_dest_desc): %s",
                            ibcc_result_str(r));
        goto fail;
    }
    f->d.dest.ack_bytes = f->dest.ack_bytes;
    f->lawd = d.law;
    if ((r = ibcc_law_defaults(&f->lawd)) != IBCC_OK) {
        (void)ibcc_fab_err_(e, r, NULL, 0, "law (ibcc_law_desc): %s",
                            ibcc_result_str(r));
        goto fail;
    }
    f->hist_mem = (uint64_t *)ibcc_fab_alloc_(&f->al,
                      (size_t)IBCC_FABRIC_CLASSES * IBCC_F_HBUCKETS_ * 8u);
    if (!f->hist_mem) { r = IBCC_ERR_NOMEM; goto fail; }
    for (i = 0; i < IBCC_FABRIC_CLASSES; i++)
        f->cls[i].hist = f->hist_mem + (size_t)i * IBCC_F_HBUCKETS_;
    if ((r = ibcc_fab_topology_(f)) != IBCC_OK) goto fail;
    if ((r = ibcc_fab_vls_(f)) != IBCC_OK) goto fail;
    if ((r = ibcc_fab_credits_(f)) != IBCC_OK) goto fail;
    if ((r = ibcc_fab_switches_(f)) != IBCC_OK) goto fail;
    if ((r = ibcc_fab_flows_(f)) != IBCC_OK) goto fail;
    if ((r = ibcc_fab_vl_paths_(f)) != IBCC_OK) goto fail;
    ibcc_fab_vl_tables_free_(f);
    if (!f->link) f->link = &ibcc_fab_credits_link_;  /* no switches */
    if ((r = f->link->setup(f)) != IBCC_OK) goto fail;
    if (f->nsrc && f->link != &ibcc_fab_credits_link_) {
        r = ibcc_fab_err_(e, IBCC_ERR_UNSUPPORTED, NULL, 0, "sources: not "
                          "in a %s fabric (its worms are flows'): use flows",
                          f->link->name);
        goto fail;
    }
    memset(&pd, 0, sizeof pd);
    pd.capacity = f->nf ? f->nf : 1u;
    if ((r = ibcc_pairstate_size(&pd, &sz)) != IBCC_OK) goto fail;
    f->pairs_mem = ibcc_fab_alloc_(&f->al, sz);
    if (!f->pairs_mem) { r = IBCC_ERR_NOMEM; goto fail; }
    if ((r = ibcc_pairstate_init(&f->pairs, &pd, f->pairs_mem, sz)) != IBCC_OK)
        goto fail;
    /* Pending events are bounded: per channel one switch-kind event
       (VCT input free, CIOQ transfer end) per packet it can hold at its
       receiver, one ARRIVE per packet on the
       wire and one RXDONE per packet a capped host holds (each at most
       the receiver's capacity per lane); per host and per switch one
       timed wake-up; per flow a start, a stop or toggle and a
       generation; what the link flow control adds. (Transmitter
       completions and returning credits are not events.) */
    cap = 64u + 2u * (uint64_t)f->nh + f->nsw + 3u * (uint64_t)f->nf;
    cap += 2u * (uint64_t)f->nsrc;  /* its next message, a kick */
    cap += (uint64_t)f->nch * (1u + 4u * ((uint64_t)d.buf_packets
                                         + d.ack_buf_packets));
    cap += f->link->events(f);
    if (d.loop_capacity) cap = d.loop_capacity;
    if (cap > 0x7fffffffu) {
        r = d.loop_capacity
            ? ibcc_fab_err_(e, IBCC_ERR_CAPACITY, NULL, 0, "loop_capacity "
                            "%llu events: at most 2^31 - 1",
                            (unsigned long long)cap)
            : ibcc_fab_err_(e, IBCC_ERR_CAPACITY, NULL, 0, "the event "
                            "bound, %llu (links x (buf_packets + "
                            "ack_buf_packets), hosts, flows): above 2^31 "
                            "- 1 (fewer buffer packets, or set "
                            "loop_capacity)", (unsigned long long)cap);
        goto fail;
    }
    /* start small, double on demand up to the bound (a capacity the
       caller gave is used as it is) */
    f->loop_max = (uint32_t)cap;
    if (!d.loop_capacity) {
        uint64_t start = 4096u + 2u * (uint64_t)f->nh + f->nsw
                         + 3u * (uint64_t)f->nf + 4u * (uint64_t)f->nch
                         + (uint64_t)f->nsrc;
        if (start < cap) cap = start;
    }
    ld.capacity = (uint32_t)cap;
    if ((r = ibcc_loop_size(&ld, &sz)) != IBCC_OK) goto fail;
    f->loop_mem = ibcc_fab_alloc_(&f->al, sz);
    if (!f->loop_mem) { r = IBCC_ERR_NOMEM; goto fail; }
    if ((r = ibcc_loop_init(&f->loop, &ld, f->loop_mem, sz)) != IBCC_OK)
        goto fail;
    (void)ibcc_loop_set_idle(&f->loop, ibcc_fab_idle_, f);
    if (d.horizon) {
        f->nbins = d.horizon / d.bin + (d.horizon % d.bin != 0);
        if (f->nbins > (1u << 26)) {
            r = ibcc_fab_err_(e, IBCC_ERR_CAPACITY, NULL, 0, "horizon / bin:"
                              " %llu bins, at most 2^26",
                              (unsigned long long)f->nbins);
            goto fail;
        }
        f->flow_bins = (uint64_t *)ibcc_fab_alloc_(&f->al,
               ibcc_fab_mul_((size_t)f->nbins * (f->nf ? f->nf : 1u), 8));
        f->ch_bins = (uint64_t *)ibcc_fab_alloc_(&f->al,
               ibcc_fab_mul_((size_t)f->nbins * f->nch, 8));
        if (!f->flow_bins || !f->ch_bins) { r = IBCC_ERR_NOMEM; goto fail; }
    }
    for (i = 0; i < f->nf; i++) {
        const ibcc_fabric_flow *x = &f->flow[i].d;
        ibcc_fab_at_(f, x->start, IBCC_F_E_START_, i, NULL);
        if (x->stop) ibcc_fab_at_(f, x->stop, IBCC_F_E_FLOW_, (uint64_t)i << 1,
                                  NULL);
    }
    for (i = 0; i < f->nsrc; i++)
        ibcc_fab_at_(f, f->src[i].ev_at, IBCC_F_E_SRC_, i, NULL);
    if (f->err != IBCC_OK) { r = f->err; goto fail; }
    *out = f;
    (void)ibcc_fab_err_(e, IBCC_OK, NULL, 0, "%s", "");
    return IBCC_OK;
fail:
    /* a refusal without its own reason (memory, an engine's init) */
    if (e && e->code != r)
        (void)ibcc_fab_err_(e, r, NULL, 0, "%s", ibcc_result_str(r));
    ibcc_fab_release_(f);
    return r;
}

/* ---- running and queries ----------------------------------------------- */
/* The stall watchdog's look at the current instant: progress since the
   last look, else, after desc.stall without any while packets wait in
   the network, the fabric stops (f->err = STATE) naming what waits. */
static void ibcc_fab_look_(ibcc_fabric *f)
{
    uint64_t p = f->link->progress(f);
    ibcc_time now = f->loop.now;
    char names[160];
    uint32_t n;
    if (p != f->prog) {
        f->prog = p;
        f->prog_at = now;
        return;
    }
    if (now - f->prog_at < f->d.stall) return;
    n = f->link->blocked(f, names, sizeof names);
    if (n == 0) {                       /* nothing waits: idle, not stuck */
        f->prog_at = now;
        return;
    }
    f->err = IBCC_ERR_STATE;
    (void)ibcc_fab_err_(&f->lasterr, IBCC_ERR_STATE, NULL, 0,
                        "stalled: no packet moved from %llu ns to %llu "
                        "ns; %u blocked: %s",
                        (unsigned long long)(f->prog_at / 1000u),
                        (unsigned long long)(now / 1000u), n, names);
}

IBCC_API ibcc_result ibcc_fabric_run_until(ibcc_fabric *f, ibcc_time t)
{
    ibcc_result r;
    if (!f) return IBCC_ERR_NULL;
    if (f->err != IBCC_OK) return f->err;
    if (t > IBCC_FABRIC_MAX_TIME) return IBCC_ERR_RANGE;
    for (;;) {
        /* run to t, looking for a stall at least every desc.stall */
        ibcc_time lim = t;
        if (f->prog_at + f->d.stall >= f->prog_at     /* no wrap */
            && f->prog_at + f->d.stall < lim
            && f->prog_at + f->d.stall > f->loop.now)
            lim = f->prog_at + f->d.stall;
        r = ibcc_loop_run_until(&f->loop, lim, NULL);
        if (r != IBCC_OK) return r;
        if (f->err != IBCC_OK) return f->err;
        ibcc_fab_look_(f);
        if (f->err != IBCC_OK) return f->err;
        if (lim >= t) break;
    }
    return f->err;
}

IBCC_API const ibcc_fabric_error *ibcc_fabric_last_error(const ibcc_fabric *f)
{
    return f ? &f->lasterr : NULL;
}

IBCC_API ibcc_time ibcc_fabric_now(const ibcc_fabric *f)
{
    return f ? f->loop.now : 0;
}

IBCC_API ibcc_loop *ibcc_fabric_loop(ibcc_fabric *f)
{
    return f ? &f->loop : NULL;
}

IBCC_API ibcc_result ibcc_fabric_check(const ibcc_fabric *f)
{
    uint64_t located = 0, live = 0;
    uint32_t i, k;
    ibcc_result r;
    if (!f) return IBCC_ERR_NULL;
    if ((r = f->link->check(f, &located)) != IBCC_OK) return r;
    for (i = 0; i < f->nsw; i++)        /* each switch kind's own state */
        if ((r = f->sw[i].kind->check(f, &f->sw[i], &located)) != IBCC_OK)
            return r;
    for (i = 0; i < f->nh; i++) {
        const ibcc_fhost_ *o = &f->host[i];
        uint32_t n = 0, pi = o->ackq_head;
        uint64_t q = 0, want = 0;
        while (pi != IBCC_F_NONE_ && n <= o->ackq_n) {
            n++;
            pi = ibcc_fab_pkt_(f, pi)->next;
        }
        if (n != o->ackq_n) return IBCC_ERR_MISMATCH;
        located += n;
        for (k = 0; k < o->nflows; k++) {      /* generated, not sent */
            const ibcc_fflow_ *fl = &f->flow[o->hf[k]];
            uint64_t m = 0;
            want += fl->q_n;
            for (pi = fl->q_head; pi != IBCC_F_NONE_ && m <= fl->q_n;
                 pi = ibcc_fab_pkt_(f, pi)->next)
                m++;
            if (!f->d.nic_fifo && m != fl->q_n) return IBCC_ERR_MISMATCH;
            q += m;
        }
        {
            uint64_t m = 0;
            for (pi = o->fifo_head; pi != IBCC_F_NONE_ && m <= want;
                 pi = ibcc_fab_pkt_(f, pi)->next)
                m++;
            q += m;
        }
        if (q != want) return IBCC_ERR_MISMATCH;
        located += q;
    }
    for (i = 0; i < f->nsw; i++)          /* no rejected marker event */
        for (k = 0; k + 1u < f->nlanes; k++)
            if (ibcc_marker_errors(&f->sw[i].mk[k], NULL) != 0)
                return IBCC_ERR_MISMATCH;
    for (i = 0; i < f->nchunk; i++)
        for (k = 0; k < IBCC_F_CHUNK_; k++)
            if (f->chunk[i][k].size != 0) live++;
    if (located != f->injected - f->delivered || live != located)
        return IBCC_ERR_MISMATCH;
    return IBCC_OK;
}

IBCC_API ibcc_result ibcc_fabric_counters_get(const ibcc_fabric *f,
                                              ibcc_fabric_counters *c)
{
    if (!f || !c) return IBCC_ERR_NULL;
    c->injected = f->injected;
    c->delivered = f->delivered;
    c->in_flight = f->injected - f->delivered;
    c->hops = f->hops;
    c->events = f->loop.executed;
    c->data_delivered = f->data_delivered;
    c->bytes_sent = f->bytes_sent;
    c->bytes_delivered = f->bytes_delivered;
    c->bytes_in_network = f->bytes_sent - f->bytes_delivered;
    c->src_queues = f->q_live;
    c->src_queues_peak = f->q_peak;
    c->src_msgs = f->src_msgs;
    return IBCC_OK;
}

IBCC_API ibcc_result ibcc_fabric_mvcm_stats(const ibcc_fabric *f,
                                            ibcc_mvcm_stats *s)
{
    uint32_t h;
    if (!f || !s) return IBCC_ERR_NULL;
    memset(s, 0, sizeof *s);
    for (h = 0; h < f->nh; h++) {
        const ibcc_mvcm *a = (const ibcc_mvcm *)f->host[h].engine[IBCC_AGENT_MVCM];
        unsigned c;
        if (!a) continue;
        for (c = 0; c < 3u; c++) s->acks[c] += a->stats.acks[c];
        s->warm_shrunk += a->stats.warm_shrunk;
        s->ws_capped += a->stats.ws_capped;
        s->resets += a->stats.resets;
        s->ws_flows += a->stats.ws_flows;
        if (a->stats.nws_max > s->nws_max) s->nws_max = a->stats.nws_max;
    }
    return IBCC_OK;
}

IBCC_API ibcc_result ibcc_fabric_source_stats_get(const ibcc_fabric *f,
                                 uint32_t source, ibcc_fabric_flow_stats *s)
{
    const ibcc_fsrc_ *x;
    uint32_t i;
    if (!f || !s) return IBCC_ERR_NULL;
    if (source >= f->nsrc) return IBCC_ERR_RANGE;
    x = &f->src[source];
    *s = x->st;
    for (i = 0; i < x->map_cap; i++)
        if (x->map[2u * i])
            ibcc_fab_stats_add_(s, &f->flow[x->map[2u * i + 1u]].st);
    return IBCC_OK;
}

IBCC_API ibcc_result ibcc_fabric_source_kick(ibcc_fabric *f, uint32_t source)
{
    ibcc_fsrc_ *x;
    if (!f) return IBCC_ERR_NULL;
    if (source >= f->nsrc) return IBCC_ERR_RANGE;
    x = &f->src[source];
    if (x->done || x->pend || x->ev_at <= f->loop.now) return IBCC_OK;
    x->ev_at = f->loop.now;
    ibcc_fab_at_(f, f->loop.now, IBCC_F_E_SRC_, source, NULL);
    return f->err;
}

IBCC_API ibcc_result ibcc_fabric_flow_stats_get(const ibcc_fabric *f,
                                 uint32_t flow, ibcc_fabric_flow_stats *s)
{
    if (!f || !s) return IBCC_ERR_NULL;
    if (flow >= f->nf) return IBCC_ERR_RANGE;
    *s = f->flow[flow].st;
    return IBCC_OK;
}

IBCC_API const ibcc_law *ibcc_fabric_flow_law(const ibcc_fabric *f,
                                              uint32_t flow)
{
    if (!f || flow >= f->nf) return NULL;
    return f->flow[flow].ag->law(&f->flow[flow]);
}

IBCC_API ibcc_result ibcc_fabric_class_stats_get(const ibcc_fabric *f,
                                 uint32_t cls, ibcc_fabric_class_stats *s)
{
    if (!f || !s) return IBCC_ERR_NULL;
    if (cls >= IBCC_FABRIC_CLASSES) return IBCC_ERR_RANGE;
    *s = f->cls[cls].st;
    return IBCC_OK;
}

IBCC_API ibcc_result ibcc_fabric_latency_quantile(const ibcc_fabric *f,
                                 uint32_t cls, double q, ibcc_time *lat)
{
    const ibcc_fclass_ *k;
    uint64_t want, seen = 0;
    uint32_t b;
    if (!f || !lat) return IBCC_ERR_NULL;
    if (cls >= IBCC_FABRIC_CLASSES || !(q > 0.0 && q <= 1.0))
        return IBCC_ERR_RANGE;
    k = &f->cls[cls];
    if (k->st.delivered == 0) return IBCC_ERR_NOT_FOUND;
    /* the smallest bucket whose cumulative count reaches ceil(q * n) */
    want = (uint64_t)(q * (double)k->st.delivered);
    if ((double)want < q * (double)k->st.delivered) want++;
    if (want == 0) want = 1;
    for (b = 0; b < IBCC_F_HBUCKETS_; b++) {
        seen += k->hist[b];
        if (seen >= want) break;
    }
    if (b == IBCC_F_HBUCKETS_) return IBCC_ERR_NOT_FOUND; /* stats reset */
    *lat = ibcc_fab_hedge_(b);
    if (*lat > k->st.lat_max) *lat = k->st.lat_max;   /* tighter, exact */
    return IBCC_OK;
}

IBCC_API ibcc_result ibcc_fabric_push(ibcc_fabric *f, uint32_t flow,
                                      uint64_t bytes)
{
    ibcc_fflow_ *fl;
    uint64_t made;
    if (!f) return IBCC_ERR_NULL;
    if (flow >= f->nf || bytes == 0 || bytes > (UINT64_C(1) << 48))
        return IBCC_ERR_RANGE;
    fl = &f->flow[flow];
    if (fl->d.traffic != IBCC_TRAFFIC_PUSH) return IBCC_ERR_RANGE;
    made = ibcc_fab_generate_bytes_(f, flow, bytes, 1, 0u);
    if (made) ibcc_fab_wake_host_(f, fl->host, f->loop.now);
    if (f->err != IBCC_OK) return f->err;
    return made ? IBCC_OK : IBCC_ERR_NOMEM;
}

IBCC_API ibcc_result ibcc_fabric_on_message(ibcc_fabric *f,
                                            ibcc_fabric_msg_fn fn,
                                            void *user)
{
    if (!f) return IBCC_ERR_NULL;
    f->msg_fn = fn;
    f->msg_user = fn ? user : NULL;
    return IBCC_OK;
}

IBCC_API ibcc_result ibcc_fabric_stats_reset(ibcc_fabric *f)
{
    uint32_t i;
    if (!f) return IBCC_ERR_NULL;
    for (i = 0; i < f->nfx; i++)   /* flows, and sources' live queues */
        memset(&f->flow[i].st, 0, sizeof f->flow[i].st);
    for (i = 0; i < f->nsrc; i++)
        memset(&f->src[i].st, 0, sizeof f->src[i].st);
    for (i = 0; i < IBCC_FABRIC_CLASSES; i++) {
        uint32_t flows = f->cls[i].st.flows;
        memset(&f->cls[i].st, 0, sizeof f->cls[i].st);
        f->cls[i].st.flows = flows;
    }
    memset(f->hist_mem, 0, (size_t)IBCC_FABRIC_CLASSES * IBCC_F_HBUCKETS_ * 8u);
    return IBCC_OK;
}

IBCC_API ibcc_result ibcc_fabric_channel(const ibcc_fabric *f, uint32_t node,
                                         uint32_t port, uint32_t *channel)
{
    uint32_t c;
    if (!f || !channel) return IBCC_ERR_NULL;
    if (node >= f->nn || port >= f->node[node].ports) return IBCC_ERR_RANGE;
    c = f->out_ch[f->node[node].base + port];
    if (c == IBCC_F_NONE_) return IBCC_ERR_RANGE;
    *channel = c;
    return IBCC_OK;
}

IBCC_API ibcc_result ibcc_fabric_marker_stats(const ibcc_fabric *f,
                                 uint32_t node, ibcc_marker_stats *s)
{
    const ibcc_fsw_ *w;
    uint32_t v;
    if (!f || !s) return IBCC_ERR_NULL;
    if (node >= f->nn || f->node[node].kind != IBCC_FABRIC_SWITCH)
        return IBCC_ERR_RANGE;
    memset(s, 0, sizeof *s);
    w = &f->sw[f->node[node].idx];
    for (v = 0; v + 1u < f->nlanes; v++) {
        const ibcc_marker_stats *x = &w->mk[v].stats;
        s->arrivals += x->arrivals;
        s->departures += x->departures;
        s->in_triggers += x->in_triggers;
        s->out_triggers += x->out_triggers;
        s->fecn += x->fecn;
        s->mb += x->mb;
        s->vb += x->vb;
        s->errors += x->errors;
        if (x->last_error != IBCC_OK) s->last_error = x->last_error;
    }
    return IBCC_OK;
}

static ibcc_result ibcc_fab_sum_(const ibcc_fabric *f, const uint64_t *bins,
                                 ibcc_time t0, ibcc_time t1, uint64_t *bytes)
{
    uint64_t b0, b1, b, s = 0;
    if (!bytes) return IBCC_ERR_NULL;
    if (!bins || t1 < t0) return IBCC_ERR_RANGE;
    b0 = t0 / f->d.bin;
    b1 = t1 / f->d.bin;
    if (b1 > f->nbins) return IBCC_ERR_RANGE;
    for (b = b0; b < b1; b++) s += bins[b];
    *bytes = s;
    return IBCC_OK;
}

IBCC_API ibcc_result ibcc_fabric_flow_bytes(const ibcc_fabric *f,
        uint32_t flow, ibcc_time t0, ibcc_time t1, uint64_t *bytes)
{
    if (!f) return IBCC_ERR_NULL;
    if (flow >= f->nf) return IBCC_ERR_RANGE;
    return ibcc_fab_sum_(f, f->flow_bins ? f->flow_bins
                         + (uint64_t)flow * f->nbins : NULL, t0, t1, bytes);
}

IBCC_API ibcc_result ibcc_fabric_channel_bytes(const ibcc_fabric *f,
        uint32_t channel, ibcc_time t0, ibcc_time t1, uint64_t *bytes)
{
    if (!f) return IBCC_ERR_NULL;
    if (channel >= f->nch) return IBCC_ERR_RANGE;
    return ibcc_fab_sum_(f, f->ch_bins ? f->ch_bins
                         + (uint64_t)channel * f->nbins : NULL, t0, t1, bytes);
}

IBCC_API ibcc_result ibcc_fabric_channel_totals(const ibcc_fabric *f,
        uint32_t channel, uint64_t *bytes, ibcc_time *busy)
{
    uint64_t b = 0;
    ibcc_time t = 0;
    if (!f) return IBCC_ERR_NULL;
    if (channel >= f->nch) return IBCC_ERR_RANGE;
    f->link->totals(f, channel, &b, &t);
    if (bytes) *bytes = b;
    if (busy) *busy = t;
    return IBCC_OK;
}

IBCC_API ibcc_result ibcc_fabric_rate(const ibcc_fabric *f, ibcc_fabric_what what,
        uint32_t id, ibcc_time center, ibcc_time width, double *bytes_per_s)
{
    ibcc_time h, t0, t1;
    uint64_t b = 0;
    ibcc_result r;
    if (!f || !bytes_per_s) return IBCC_ERR_NULL;
    h = width / 2u;
    if ((unsigned)what > (unsigned)IBCC_FABRIC_CHANNEL || width < f->d.bin
        || center < h)
        return IBCC_ERR_RANGE;
    t0 = (center - h) / f->d.bin * f->d.bin;
    t1 = (center - h + width) / f->d.bin * f->d.bin;
    if (t1 <= t0) return IBCC_ERR_RANGE;
    r = what == IBCC_FABRIC_FLOW ? ibcc_fabric_flow_bytes(f, id, t0, t1, &b)
                                 : ibcc_fabric_channel_bytes(f, id, t0, t1, &b);
    if (r != IBCC_OK) return r;
    *bytes_per_s = (double)b * 1e12 / (double)(t1 - t0);
    return IBCC_OK;
}

IBCC_API double ibcc_jain(const double *x, uint32_t n)
{
    double s = 0.0, q = 0.0;
    uint32_t i;
    if (!x || n == 0) return 1.0;
    for (i = 0; i < n; i++) {
        s += x[i];
        q += x[i] * x[i];
    }
    if (q <= 0.0) return 1.0;
    return s * s / ((double)n * q);
}


/* ---- L3 traffic patterns: implementation --------------------------------- */
static ibcc_result ibcc_traffic_room_(ibcc_fabric_flow *out, uint64_t need,
                                      uint32_t cap, uint32_t *n)
{
    if (!n) return IBCC_ERR_NULL;
    *n = need > 0xffffffffu ? 0xffffffffu : (uint32_t)need;
    if (need > (1u << 24)) return IBCC_ERR_CAPACITY;
    if (need > cap) return IBCC_ERR_CAPACITY;
    if (!out && need) return IBCC_ERR_NULL;
    if (out) memset(out, 0, (size_t)need * sizeof *out);
    return IBCC_OK;
}

IBCC_API ibcc_result ibcc_traffic_uniform(const uint32_t *hosts, uint32_t nh,
        ibcc_rate per_host, ibcc_fabric_flow *out, uint32_t cap, uint32_t *n)
{
    uint32_t i, j, k = 0;
    ibcc_result r;
    if (!hosts) return IBCC_ERR_NULL;
    if (nh < 2u || per_host / (nh - 1u) == 0) return IBCC_ERR_RANGE;
    r = ibcc_traffic_room_(out, (uint64_t)nh * (nh - 1u), cap, n);
    if (r != IBCC_OK) return r;
    for (i = 0; i < nh; i++)
        for (j = 0; j < nh; j++) {
            ibcc_fabric_flow *x;
            if (i == j) continue;
            x = &out[k++];
            x->src = hosts[i];
            x->dst = hosts[j];
            x->traffic = IBCC_TRAFFIC_POISSON;
            x->offered = per_host / (nh - 1u);
        }
    return IBCC_OK;
}

IBCC_API ibcc_result ibcc_traffic_uniform_sources(const uint32_t *hosts,
        uint32_t nh, ibcc_rate per_host, ibcc_fabric_source *out,
        uint32_t cap, uint32_t *n)
{
    uint32_t i;
    if (!hosts || !n) return IBCC_ERR_NULL;
    if (nh < 2u || per_host == 0) return IBCC_ERR_RANGE;
    *n = nh;
    if (nh > cap) return IBCC_ERR_CAPACITY;
    if (!out) return IBCC_ERR_NULL;
    memset(out, 0, (size_t)nh * sizeof *out);
    for (i = 0; i < nh; i++) {
        ibcc_fabric_source *x = &out[i];
        x->kind = IBCC_SOURCE_UNIFORM;
        x->flow.src = hosts[i];
        x->flow.traffic = IBCC_TRAFFIC_POISSON;
        x->flow.offered = per_host;
        x->hosts = hosts;
        x->host_count = nh;
    }
    return IBCC_OK;
}

IBCC_API ibcc_result ibcc_traffic_permutation(const uint32_t *hosts,
        uint32_t nh, uint64_t seed, ibcc_fabric_flow *out, uint32_t cap,
        uint32_t *n)
{
    uint32_t i;
    ibcc_rng rng;
    ibcc_result r;
    if (!hosts) return IBCC_ERR_NULL;
    if (nh < 2u) return IBCC_ERR_RANGE;
    r = ibcc_traffic_room_(out, nh, cap, n);
    if (r != IBCC_OK) return r;
    /* Sattolo's shuffle gives a uniformly random cyclic permutation: no
       host sends to itself, every host receives from exactly one. The
       destination indices are kept in the flows' dst fields meanwhile. */
    for (i = 0; i < nh; i++) out[i].dst = i;
    ibcc_rng_seed(&rng, seed);
    for (i = nh - 1u; i > 0; i--) {
        uint32_t j = (uint32_t)ibcc_rng_below(&rng, i), t = out[i].dst;
        out[i].dst = out[j].dst;
        out[j].dst = t;
    }
    for (i = 0; i < nh; i++) {
        out[i].src = hosts[i];
        out[i].dst = hosts[out[i].dst];
        out[i].traffic = IBCC_TRAFFIC_GREEDY;
    }
    return IBCC_OK;
}

IBCC_API ibcc_result ibcc_traffic_incast(const uint32_t *sources, uint32_t ns,
        uint32_t dst, ibcc_fabric_flow *out, uint32_t cap, uint32_t *n)
{
    uint32_t i;
    ibcc_result r;
    if (!sources) return IBCC_ERR_NULL;
    if (ns == 0) return IBCC_ERR_RANGE;
    for (i = 0; i < ns; i++) if (sources[i] == dst) return IBCC_ERR_RANGE;
    r = ibcc_traffic_room_(out, ns, cap, n);
    if (r != IBCC_OK) return r;
    for (i = 0; i < ns; i++) {
        out[i].src = sources[i];
        out[i].dst = dst;
        out[i].traffic = IBCC_TRAFFIC_GREEDY;
    }
    return IBCC_OK;
}

IBCC_API ibcc_result ibcc_traffic_hotspot(const uint32_t *sources,
        uint32_t ns, uint32_t dst, uint64_t packets, ibcc_rate offered,
        uint64_t start_after, ibcc_fabric_flow *out, uint32_t cap,
        uint32_t *n)
{
    uint32_t i;
    ibcc_result r;
    if (!sources) return IBCC_ERR_NULL;
    if (ns == 0 || packets == 0 || offered == 0) return IBCC_ERR_RANGE;
    for (i = 0; i < ns; i++) if (sources[i] == dst) return IBCC_ERR_RANGE;
    r = ibcc_traffic_room_(out, ns, cap, n);
    if (r != IBCC_OK) return r;
    for (i = 0; i < ns; i++) {
        out[i].src = sources[i];
        out[i].dst = dst;
        out[i].traffic = IBCC_TRAFFIC_RATE;
        out[i].offered = offered;
        out[i].packets = packets;
        out[i].start_after = start_after;
    }
    return IBCC_OK;
}
/* ---- L3 jobs: implementation ---------------------------------------------
   Built on the fabric's public interface only (PUSH flows, ibcc_fabric_push,
   the message hook, events on its loop), so that a job is a traffic
   source like any other. State: per job its copied desc, its sorted flow
   keys (source rank, destination rank, class), per rank the next step
   and per (rank, step) the messages arrived for it (a collective), or per
   message its unmet dependencies and its dependents (a trace, with a heap
   of timed releases); per job flow a FIFO of its messages in flight
   (a flow delivers its messages in order). */

typedef struct ibcc_jrec_ {
    uint32_t next;              /* FIFO / free list */
    uint32_t a;                 /* the sender's step, or the trace index */
    uint64_t bytes;
} ibcc_jrec_;

typedef struct ibcc_jflow_ {
    uint32_t job, src, dst;     /* ranks */
    uint32_t head, tail;        /* messages in flight, oldest first */
} ibcc_jflow_;

typedef struct ibcc_jheap_ {
    ibcc_time t;
    uint32_t m, pad_;
} ibcc_jheap_;

typedef struct ibcc_job_ {
    ibcc_job_desc d;            /* coll defaulted; trace, hosts: copies */
    ibcc_trace tr;
    uint32_t P;
    uint32_t *hosts;
    uint64_t *keys;             /* sorted: src << 28 | dst << 4 | cls */
    uint32_t fbase, nflows;     /* its flows among the jobs' */
    /* collective */
    uint32_t *steps, *cur, *got;
    uint64_t *base;             /* per rank: first (rank, step) counter */
    /* trace */
    uint32_t *rem, *dfirst, *dlist;
    ibcc_jheap_ *heap;
    uint32_t hn;
    ibcc_time ev_at;            /* earliest event pending for it */
    int started;
    ibcc_job_stats st;
    uint64_t *hist;             /* IBCC_F_HBUCKETS_ buckets */
} ibcc_job_;

struct ibcc_jobs {
    ibcc_fabric *f;
    uint32_t n, first, nflows;
    ibcc_job_ *job;
    ibcc_jflow_ *fl;
    ibcc_jrec_ *rec;
    uint32_t rec_cap, free_rec;
    ibcc_result err;
};

#define IBCC_J_KEY_(s, d, c) \
    (((uint64_t)(s) << 28) | ((uint64_t)(d) << 4) | (uint64_t)(c))

static int ibcc_jobs_cmp_(const void *a, const void *b)
{
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return x < y ? -1 : x > y;
}

/* Checks job j's desc into *c (coll defaulted) and its rank count. */
static ibcc_result ibcc_jobs_check_(const ibcc_job_desc *x, uint32_t j,
                                    ibcc_job_desc *c, uint32_t *ranks,
                                    ibcc_fabric_error *err)
{
    *c = *x;
    if (!x->hosts)
        return ibcc_fab_err_(err, IBCC_ERR_NULL, NULL, 0,
                             "jobs[%u]: hosts is NULL", j);
    if (x->cls >= IBCC_FABRIC_CLASSES)
        return ibcc_fab_err_(err, IBCC_ERR_RANGE, NULL, 0,
                             "jobs[%u]: cls %u: at most 15", j, x->cls);
    if (x->start > IBCC_FABRIC_MAX_TIME)
        return ibcc_fab_err_(err, IBCC_ERR_RANGE, NULL, 0,
                             "jobs[%u]: start beyond IBCC_FABRIC_MAX_TIME",
                             j);
    if (x->coll.kind != 0) {
        if (x->trace)
            return ibcc_fab_err_(err, IBCC_ERR_RANGE, NULL, 0,
                                 "jobs[%u]: both a collective and a trace",
                                 j);
        if (ibcc_coll_defaults(&c->coll) != IBCC_OK)
            return ibcc_fab_err_(err, IBCC_ERR_RANGE, NULL, 0,
                                 "jobs[%u]: coll: a field out of its range "
                                 "(ibcc_coll_defaults)", j);
        *ranks = c->coll.ranks;
        return IBCC_OK;
    }
    if (!x->trace || (x->trace->count && (!x->trace->msgs
                                          || (x->trace->ndeps
                                              && !x->trace->deps))))
        return ibcc_fab_err_(err, IBCC_ERR_NULL, NULL, 0,
                             "jobs[%u]: neither a collective nor a trace",
                             j);
    {
        const ibcc_trace *t = x->trace;
        uint32_t i, k;
        if (t->ranks == 0 || t->ranks > (UINT32_C(1) << 24))
            return ibcc_fab_err_(err, IBCC_ERR_RANGE, NULL, 0,
                                 "jobs[%u]: trace ranks %u: 1 .. 2^24", j,
                                 t->ranks);
        for (i = 0; i < t->count; i++) {
            const ibcc_trace_msg *m = &t->msgs[i];
            if (m->src >= t->ranks || m->dst >= t->ranks || m->src == m->dst
                || m->bytes == 0 || m->bytes > (UINT64_C(1) << 48)
                || m->sl >= IBCC_FABRIC_CLASSES
                || m->at > IBCC_FABRIC_MAX_DELAY
                || m->first > t->ndeps || m->ndeps > t->ndeps - m->first)
                return ibcc_fab_err_(err, IBCC_ERR_RANGE, NULL, 0,
                                     "jobs[%u]: trace message %u: a field "
                                     "out of its range", j, i);
            for (k = 0; k < m->ndeps; k++)
                if (t->deps[m->first + k] >= i)
                    return ibcc_fab_err_(err, IBCC_ERR_RANGE, NULL, 0,
                                         "jobs[%u]: trace message %u: "
                                         "depends on a later message", j, i);
        }
        *ranks = t->ranks;
    }
    return IBCC_OK;
}

/* The sorted distinct flow keys of job c (malloc'ed, *nk of them). */
static ibcc_result ibcc_jobs_keys_(const ibcc_job_desc *c, uint32_t ranks,
                                   uint32_t j, uint64_t **keys, uint32_t *nk,
                                   ibcc_fabric_error *err)
{
    uint64_t n = 0, cap = 0, i, w;
    uint64_t *k = NULL;
    if (c->coll.kind != 0) {
        uint64_t b;
        uint32_t ms;
        (void)ibcc_coll_totals(&c->coll, &cap, &b, &ms);
    } else {
        cap = c->trace->count;
    }
    if (cap > (UINT64_C(1) << 32) - 2u)
        return ibcc_fab_err_(err, IBCC_ERR_CAPACITY, NULL, 0,
                             "jobs[%u]: %llu messages: at most 2^32 - 2", j,
                             (unsigned long long)cap);
    k = (uint64_t *)malloc((size_t)(cap ? cap : 1u) * sizeof *k);
    if (!k) return IBCC_ERR_NOMEM;
    if (c->coll.kind != 0) {
        uint32_t r, s, q;
        for (r = 0; r < ranks; r++) {
            uint32_t st = ibcc_coll_steps_(&c->coll, r);
            for (s = 0; s < st; s++) {
                ibcc_coll_msg m;
                uint32_t ns = ibcc_coll_list_(&c->coll, r, s, 1,
                                              IBCC_COLL_NONE, &m);
                for (q = 0; q < ns; q++) {
                    (void)ibcc_coll_list_(&c->coll, r, s, 1, q, &m);
                    k[n++] = IBCC_J_KEY_(r, m.peer, c->cls);
                }
            }
        }
    } else {
        for (i = 0; i < cap; i++) {
            const ibcc_trace_msg *m = &c->trace->msgs[i];
            k[n++] = IBCC_J_KEY_(m->src, m->dst, m->sl);
        }
    }
    qsort(k, (size_t)n, sizeof *k, ibcc_jobs_cmp_);
    for (i = 0, w = 0; i < n; i++)
        if (w == 0 || k[w - 1u] != k[i]) k[w++] = k[i];
    for (i = 0; i < w; i++) {
        uint32_t s = (uint32_t)(k[i] >> 28), d = (uint32_t)(k[i] >> 4) & 0xffffffu;
        if (c->hosts[s] == c->hosts[d]) {
            free(k);
            return ibcc_fab_err_(err, IBCC_ERR_RANGE, NULL, 0,
                                 "jobs[%u]: ranks %u and %u exchange "
                                 "messages on one host (%u)", j, s, d,
                                 c->hosts[s]);
        }
    }
    *keys = k;
    *nk = (uint32_t)w;
    return IBCC_OK;
}

static void ibcc_jobs_flow_of_(const ibcc_job_desc *c, uint64_t key,
                               ibcc_fabric_flow *x)
{
    *x = c->flow;
    x->src = c->hosts[key >> 28];
    x->dst = c->hosts[(key >> 4) & 0xffffffu];
    x->cls = (uint32_t)(key & 15u);
    if (c->coll.kind == 0) x->sl = x->cls;  /* a trace's SL: VL and class */
    x->traffic = IBCC_TRAFFIC_PUSH;
    x->start = 0;
    x->stop = 0;
    x->packets = 0;
    x->start_after = 0;
    x->msg_bytes = 0;
    x->msg_exp = 0;
}

IBCC_API ibcc_result ibcc_jobs_flows(const ibcc_job_desc *jobs, uint32_t n,
        ibcc_fabric_flow *out, uint32_t cap, uint32_t *count,
        ibcc_fabric_error *err)
{
    uint64_t total = 0;
    uint32_t j, i;
    ibcc_result r;
    if (!jobs || !count)
        return ibcc_fab_err_(err, IBCC_ERR_NULL, NULL, 0, "jobs or count "
                             "is NULL");
    *count = 0;
    for (j = 0; j < n; j++) {
        ibcc_job_desc c;
        uint32_t ranks, nk;
        uint64_t *k;
        if ((r = ibcc_jobs_check_(&jobs[j], j, &c, &ranks, err)) != IBCC_OK)
            return r;
        if ((r = ibcc_jobs_keys_(&c, ranks, j, &k, &nk, err)) != IBCC_OK)
            return r;
        for (i = 0; i < nk; i++, total++)
            if (out && total < cap) ibcc_jobs_flow_of_(&c, k[i], &out[total]);
        free(k);
        if (total > 0xfffffffeu)
            return ibcc_fab_err_(err, IBCC_ERR_CAPACITY, NULL, 0,
                                 "more than 2^32 - 2 flows");
    }
    *count = (uint32_t)total;
    if (total > cap || (total && !out))
        return ibcc_fab_err_(err, IBCC_ERR_CAPACITY, NULL, 0,
                             "the jobs need %llu flows, cap %u",
                             (unsigned long long)total, cap);
    return ibcc_fab_err_(err, IBCC_OK, NULL, 0, "%s", "");
}

/* Schedules job j's event at t (growing the fabric's loop if full). */
static void ibcc_jobs_event_(ibcc_loop *l, void *ctx, uint64_t arg);
static void ibcc_jobs_at_(ibcc_jobs *js, uint32_t j, ibcc_time t)
{
    ibcc_job_ *b = &js->job[j];
    ibcc_result r;
    if (t >= b->ev_at) return;
    r = ibcc_loop_at(&js->f->loop, t, ibcc_jobs_event_, js, j, NULL);
    if (r == IBCC_ERR_FULL && (r = ibcc_fab_grow_loop_(js->f)) == IBCC_OK)
        r = ibcc_loop_at(&js->f->loop, t, ibcc_jobs_event_, js, j, NULL);
    if (r != IBCC_OK) {
        if (js->err == IBCC_OK) js->err = r;
        return;
    }
    b->ev_at = t;
}

/* Gives a message to the fabric: src -> dst (ranks), class cls. */
static void ibcc_jobs_release_(ibcc_jobs *js, uint32_t j, uint32_t src,
                               uint32_t dst, uint32_t cls, uint64_t bytes,
                               uint32_t a)
{
    ibcc_job_ *b = &js->job[j];
    uint64_t key = IBCC_J_KEY_(src, dst, cls);
    uint32_t lo = 0, hi = b->nflows, ri;
    ibcc_jflow_ *x;
    ibcc_result r;
    while (lo < hi) {
        uint32_t mid = lo + (hi - lo) / 2u;
        if (b->keys[mid] < key) lo = mid + 1u; else hi = mid;
    }
    if (lo >= b->nflows || b->keys[lo] != key) {       /* cannot happen */
        if (js->err == IBCC_OK) js->err = IBCC_ERR_MISMATCH;
        return;
    }
    if (js->free_rec == IBCC_F_NONE_) {              /* grow the records */
        uint32_t nc = js->rec_cap ? 2u * js->rec_cap : 256u, i;
        ibcc_jrec_ *nr;
        if (nc <= js->rec_cap || nc > 0x7fffffffu) nc = 0;
        nr = (ibcc_jrec_ *)ibcc_fab_alloc_(&js->f->al,
                                           ibcc_fab_mul_(nc, sizeof *nr));
        if (!nr) {
            if (js->err == IBCC_OK) js->err = IBCC_ERR_NOMEM;
            return;
        }
        if (js->rec_cap) memcpy(nr, js->rec, js->rec_cap * sizeof *nr);
        for (i = js->rec_cap; i < nc; i++)
            nr[i].next = i + 1u < nc ? i + 1u : IBCC_F_NONE_;
        ibcc_fab_free_(&js->f->al, js->rec);
        js->rec = nr;
        js->free_rec = js->rec_cap;
        js->rec_cap = nc;
    }
    x = &js->fl[b->fbase + lo];
    r = ibcc_fabric_push(js->f, js->first + b->fbase + lo, bytes);
    if (r != IBCC_OK) {
        if (js->err == IBCC_OK) js->err = r;
        return;
    }
    ri = js->free_rec;
    js->free_rec = js->rec[ri].next;
    js->rec[ri].next = IBCC_F_NONE_;
    js->rec[ri].a = a;
    js->rec[ri].bytes = bytes;
    if (x->head == IBCC_F_NONE_) x->head = ri;
    else js->rec[x->tail].next = ri;
    x->tail = ri;
    b->st.released++;
}

/* A collective's rank r starts every step whose messages have arrived. */
static void ibcc_jobs_advance_(ibcc_jobs *js, uint32_t j, uint32_t r)
{
    ibcc_job_ *b = &js->job[j];
    const ibcc_coll_desc *c = &b->d.coll;
    while (b->cur[r] < b->steps[r]) {
        uint32_t s = b->cur[r], ns, nw, i;
        ibcc_coll_msg m;
        nw = ibcc_coll_list_(c, r, s, 0, IBCC_COLL_NONE, &m);
        if (b->got[b->base[r] + s] < nw) return;
        ns = ibcc_coll_list_(c, r, s, 1, IBCC_COLL_NONE, &m);
        b->cur[r]++;
        for (i = 0; i < ns; i++) {
            (void)ibcc_coll_list_(c, r, s, 1, i, &m);
            ibcc_jobs_release_(js, j, r, m.peer, b->d.cls, m.bytes, s);
        }
    }
}

/* Trace message m of job j becomes due at t. */
static void ibcc_jobs_due_(ibcc_jobs *js, uint32_t j, uint32_t m, ibcc_time t)
{
    ibcc_job_ *b = &js->job[j];
    const ibcc_trace_msg *x = &b->tr.msgs[m];
    uint32_t i;
    if (t <= js->f->loop.now) {
        ibcc_jobs_release_(js, j, x->src, x->dst, x->sl, x->bytes, m);
        return;
    }
    i = b->hn++;                                  /* heap insert */
    while (i > 0) {
        uint32_t up = (i - 1u) / 2u;
        if (b->heap[up].t <= t) break;
        b->heap[i] = b->heap[up];
        i = up;
    }
    b->heap[i].t = t;
    b->heap[i].m = m;
    ibcc_jobs_at_(js, j, t);
}

static void ibcc_jobs_event_(ibcc_loop *l, void *ctx, uint64_t arg)
{
    ibcc_jobs *js = (ibcc_jobs *)ctx;
    uint32_t j = (uint32_t)arg, r;
    ibcc_job_ *b = &js->job[j];
    ibcc_time now = l->now;
    if (b->ev_at == now) b->ev_at = IBCC_TIME_MAX;
    if (!b->started && now >= b->d.start) {
        b->started = 1;
        if (b->st.messages == 0) b->st.end = now;
        if (b->d.coll.kind != 0) {
            for (r = 0; r < b->P; r++) ibcc_jobs_advance_(js, j, r);
        } else {
            for (r = 0; r < b->tr.count; r++)
                if (b->tr.msgs[r].ndeps == 0)
                    ibcc_jobs_due_(js, j, r, now + b->tr.msgs[r].at);
        }
    }
    while (b->hn && b->heap[0].t <= now) {           /* due releases */
        uint32_t m = b->heap[0].m, i = 0;
        ibcc_jheap_ last = b->heap[--b->hn];
        for (;;) {
            uint32_t c = 2u * i + 1u;
            if (c >= b->hn) break;
            if (c + 1u < b->hn && b->heap[c + 1u].t < b->heap[c].t) c++;
            if (last.t <= b->heap[c].t) break;
            b->heap[i] = b->heap[c];
            i = c;
        }
        if (b->hn) b->heap[i] = last;
        {
            const ibcc_trace_msg *x = &b->tr.msgs[m];
            ibcc_jobs_release_(js, j, x->src, x->dst, x->sl, x->bytes, m);
        }
    }
    if (b->hn) ibcc_jobs_at_(js, j, b->heap[0].t);
}

/* The fabric's message hook: the oldest message in flight on `flow` is
   delivered. */
static void ibcc_jobs_msg_(void *user, uint32_t flow, ibcc_time t_gen,
                           ibcc_time now)
{
    ibcc_jobs *js = (ibcc_jobs *)user;
    ibcc_jflow_ *x;
    ibcc_job_ *b;
    ibcc_jrec_ rc;
    uint32_t ri, j;
    ibcc_time lat = now - t_gen;
    if (flow < js->first || flow - js->first >= js->nflows) return;
    x = &js->fl[flow - js->first];
    ri = x->head;
    if (ri == IBCC_F_NONE_) {                          /* cannot happen */
        if (js->err == IBCC_OK) js->err = IBCC_ERR_MISMATCH;
        return;
    }
    rc = js->rec[ri];
    x->head = rc.next;
    js->rec[ri].next = js->free_rec;
    js->free_rec = ri;
    j = x->job;
    b = &js->job[j];
    b->st.delivered++;
    b->st.bytes += rc.bytes;
    b->st.msg_sum = ibcc_fab_sat_(b->st.msg_sum, lat);
    if (b->st.delivered == 1u || lat < b->st.msg_min) b->st.msg_min = lat;
    if (lat > b->st.msg_max) b->st.msg_max = lat;
    b->hist[ibcc_fab_hbucket_(lat)]++;
    if (b->st.delivered == b->st.messages) {
        b->st.end = now;
        b->st.completion = now - b->d.start;
    }
    if (b->d.coll.kind != 0) {
        uint32_t k = ibcc_coll_consumer_(&b->d.coll, x->dst, x->src, rc.a);
        if (k == IBCC_COLL_NONE) return;
        b->got[b->base[x->dst] + k]++;
        ibcc_jobs_advance_(js, j, x->dst);
    } else {
        uint32_t i;
        for (i = b->dfirst[rc.a]; i < b->dfirst[rc.a + 1u]; i++) {
            uint32_t d = b->dlist[i];
            if (--b->rem[d] == 0)
                ibcc_jobs_due_(js, j, d, now + b->tr.msgs[d].at);
        }
    }
}

IBCC_API void ibcc_jobs_destroy(ibcc_jobs *js)
{
    uint32_t j;
    ibcc_fabric_allocator *al;
    if (!js) return;
    al = &js->f->al;
    if (js->f->msg_fn == ibcc_jobs_msg_ && js->f->msg_user == js)
        (void)ibcc_fabric_on_message(js->f, NULL, NULL);
    for (j = 0; js->job && j < js->n; j++) {
        ibcc_job_ *b = &js->job[j];
        void *p[12];
        unsigned i;
        p[0] = b->hosts; p[1] = b->keys; p[2] = b->steps; p[3] = b->cur;
        p[4] = b->got; p[5] = b->base; p[6] = b->rem; p[7] = b->dfirst;
        p[8] = b->dlist; p[9] = b->heap; p[10] = b->hist; p[11] = b->tr.msgs;
        for (i = 0; i < 12u; i++) ibcc_fab_free_(al, p[i]);
        ibcc_fab_free_(al, b->tr.deps);
    }
    ibcc_fab_free_(al, js->job);
    ibcc_fab_free_(al, js->fl);
    ibcc_fab_free_(al, js->rec);
    ibcc_fab_free_(al, js);
}

/* Job j's runtime state (its desc c checked, keys made). */
static ibcc_result ibcc_jobs_init_(ibcc_jobs *js, uint32_t j)
{
    ibcc_job_ *b = &js->job[j];
    ibcc_fabric_allocator *al = &js->f->al;
    uint32_t r, P = b->P;
    b->ev_at = IBCC_TIME_MAX;
    b->st.start = b->d.start;
    b->hosts = (uint32_t *)ibcc_fab_alloc_(al, ibcc_fab_mul_(P, 4));
    b->hist = (uint64_t *)ibcc_fab_alloc_(al, IBCC_F_HBUCKETS_ * 8u);
    if (!b->hosts || !b->hist) return IBCC_ERR_NOMEM;
    memcpy(b->hosts, b->d.hosts, (size_t)P * 4u);
    b->d.hosts = b->hosts;
    if (b->d.coll.kind != 0) {
        uint64_t total = 0, m, bytes;
        uint32_t ms;
        b->d.trace = NULL;
        (void)ibcc_coll_totals(&b->d.coll, &m, &bytes, &ms);
        b->st.messages = m;
        b->steps = (uint32_t *)ibcc_fab_alloc_(al, ibcc_fab_mul_(P, 4));
        b->cur = (uint32_t *)ibcc_fab_alloc_(al, ibcc_fab_mul_(P, 4));
        b->base = (uint64_t *)ibcc_fab_alloc_(al, ibcc_fab_mul_(P, 8));
        if (!b->steps || !b->cur || !b->base) return IBCC_ERR_NOMEM;
        for (r = 0; r < P; r++) {
            b->steps[r] = ibcc_coll_steps_(&b->d.coll, r);
            b->base[r] = total;
            total += b->steps[r];
        }
        if (total > ((size_t)-1) / 4u) return IBCC_ERR_NOMEM;
        b->got = (uint32_t *)ibcc_fab_alloc_(al,
                                  ibcc_fab_mul_((size_t)(total ? total : 1u), 4));
        if (!b->got) return IBCC_ERR_NOMEM;
    } else {
        const ibcc_trace *t = b->d.trace;
        uint32_t n = t->count, i, k;
        b->tr = *t;
        b->tr.msgs = (ibcc_trace_msg *)ibcc_fab_alloc_(al,
                          ibcc_fab_mul_(n ? n : 1u, sizeof *b->tr.msgs));
        b->tr.deps = (uint32_t *)ibcc_fab_alloc_(al,
                          ibcc_fab_mul_(t->ndeps ? t->ndeps : 1u, 4));
        b->rem = (uint32_t *)ibcc_fab_alloc_(al, ibcc_fab_mul_(n ? n : 1u, 4));
        b->dfirst = (uint32_t *)ibcc_fab_alloc_(al,
                          ibcc_fab_mul_((size_t)n + 1u, 4));
        b->dlist = (uint32_t *)ibcc_fab_alloc_(al,
                          ibcc_fab_mul_(t->ndeps ? t->ndeps : 1u, 4));
        b->heap = (ibcc_jheap_ *)ibcc_fab_alloc_(al,
                          ibcc_fab_mul_(n ? n : 1u, sizeof *b->heap));
        if (!b->tr.msgs || !b->tr.deps || !b->rem || !b->dfirst
            || !b->dlist || !b->heap)
            return IBCC_ERR_NOMEM;
        if (n) memcpy(b->tr.msgs, t->msgs, (size_t)n * sizeof *t->msgs);
        if (t->ndeps) memcpy(b->tr.deps, t->deps, (size_t)t->ndeps * 4u);
        b->d.trace = &b->tr;
        b->st.messages = n;
        /* dependents, as compressed rows: dfirst[m] .. dfirst[m + 1] */
        for (i = 0; i < n; i++) {
            const ibcc_trace_msg *x = &b->tr.msgs[i];
            b->rem[i] = x->ndeps;
            for (k = 0; k < x->ndeps; k++)
                b->dfirst[b->tr.deps[x->first + k] + 1u]++;
        }
        for (i = 0; i < n; i++) b->dfirst[i + 1u] += b->dfirst[i];
        for (i = 0; i < n; i++) {
            const ibcc_trace_msg *x = &b->tr.msgs[i];
            for (k = 0; k < x->ndeps; k++)
                b->dlist[b->dfirst[b->tr.deps[x->first + k]]++] = i;
        }
        for (i = n; i > 0; i--) b->dfirst[i] = b->dfirst[i - 1u];
        b->dfirst[0] = 0;
    }
    return IBCC_OK;
}

IBCC_API ibcc_result ibcc_jobs_create(ibcc_jobs **out, ibcc_fabric *f,
        const ibcc_job_desc *jobs, uint32_t n, uint32_t first_flow,
        ibcc_fabric_error *err)
{
    ibcc_jobs *js;
    uint64_t total = 0;
    uint32_t j, i;
    ibcc_result r;
    if (out) *out = NULL;
    if (!out || !f || (!jobs && n))
        return ibcc_fab_err_(err, IBCC_ERR_NULL, NULL, 0,
                             "out, f or jobs is NULL");
    js = (ibcc_jobs *)ibcc_fab_alloc_(&f->al, sizeof *js);
    if (!js) return IBCC_ERR_NOMEM;
    js->f = f;
    js->n = n;
    js->first = first_flow;
    js->free_rec = IBCC_F_NONE_;
    js->job = (ibcc_job_ *)ibcc_fab_alloc_(&f->al,
                                ibcc_fab_mul_(n ? n : 1u, sizeof *js->job));
    if (!js->job) {
        ibcc_jobs_destroy(js);
        return IBCC_ERR_NOMEM;
    }
    for (j = 0; j < n; j++) {
        ibcc_job_ *b = &js->job[j];
        if ((r = ibcc_jobs_check_(&jobs[j], j, &b->d, &b->P, err)) != IBCC_OK
            || (r = ibcc_jobs_keys_(&b->d, b->P, j, &b->keys, &b->nflows,
                                    err)) != IBCC_OK) {
            ibcc_jobs_destroy(js);
            return r;
        }
        {   /* into the fabric's allocator's memory */
            uint64_t *k = (uint64_t *)ibcc_fab_alloc_(&f->al,
                            ibcc_fab_mul_(b->nflows ? b->nflows : 1u, 8));
            if (k && b->nflows) memcpy(k, b->keys, (size_t)b->nflows * 8u);
            free(b->keys);
            b->keys = k;
            if (!k) {
                ibcc_jobs_destroy(js);
                return IBCC_ERR_NOMEM;
            }
        }
        if (b->d.start < f->loop.now) {
            ibcc_jobs_destroy(js);
            return ibcc_fab_err_(err, IBCC_ERR_PAST, NULL, 0,
                                 "jobs[%u]: start before the fabric's now",
                                 j);
        }
        b->fbase = (uint32_t)total;
        total += b->nflows;
        if (total > f->nf || first_flow > f->nf - total) {
            ibcc_jobs_destroy(js);
            return ibcc_fab_err_(err, IBCC_ERR_MISMATCH, NULL, 0,
                                 "the jobs' flows do not fit in the "
                                 "fabric's %u flows from %u", f->nf,
                                 first_flow);
        }
    }
    js->nflows = (uint32_t)total;
    js->fl = (ibcc_jflow_ *)ibcc_fab_alloc_(&f->al,
                              ibcc_fab_mul_(total ? total : 1u, sizeof *js->fl));
    if (!js->fl) {
        ibcc_jobs_destroy(js);
        return IBCC_ERR_NOMEM;
    }
    for (j = 0; j < n; j++) {
        ibcc_job_ *b = &js->job[j];
        for (i = 0; i < b->nflows; i++) {
            ibcc_jflow_ *x = &js->fl[b->fbase + i];
            const ibcc_fabric_flow *have = &f->flow[first_flow + b->fbase + i].d;
            ibcc_fabric_flow want;
            ibcc_jobs_flow_of_(&b->d, b->keys[i], &want);
            x->job = j;
            x->src = (uint32_t)(b->keys[i] >> 28);
            x->dst = (uint32_t)(b->keys[i] >> 4) & 0xffffffu;
            x->head = x->tail = IBCC_F_NONE_;
            if (have->src != want.src || have->dst != want.dst
                || have->cls != want.cls
                || have->traffic != IBCC_TRAFFIC_PUSH) {
                r = ibcc_fab_err_(err, IBCC_ERR_MISMATCH, NULL, 0,
                                  "flows[%u] is not job %u's flow from "
                                  "host %u to %u, class %u (PUSH; "
                                  "ibcc_jobs_flows)", first_flow
                                  + b->fbase + i, j, want.src, want.dst,
                                  want.cls);
                ibcc_jobs_destroy(js);
                return r;
            }
        }
        if ((r = ibcc_jobs_init_(js, j)) != IBCC_OK) {
            ibcc_jobs_destroy(js);
            return r;
        }
    }
    for (j = 0; j < n; j++) ibcc_jobs_at_(js, j, js->job[j].d.start);
    if (js->err != IBCC_OK) {
        r = js->err;
        ibcc_jobs_destroy(js);
        return r;
    }
    ibcc_fabric_on_message(f, ibcc_jobs_msg_, js);
    *out = js;
    return ibcc_fab_err_(err, IBCC_OK, NULL, 0, "%s", "");
}

IBCC_API ibcc_result ibcc_jobs_stats(const ibcc_jobs *js, uint32_t job,
        ibcc_job_stats *s)
{
    if (!js || !s) return IBCC_ERR_NULL;
    if (job >= js->n) return IBCC_ERR_RANGE;
    *s = js->job[job].st;
    return js->err;
}

IBCC_API ibcc_result ibcc_jobs_msg_quantile(const ibcc_jobs *js,
        uint32_t job, double q, ibcc_time *t)
{
    const ibcc_job_ *b;
    uint64_t need, seen = 0;
    uint32_t k;
    if (!js || !t) return IBCC_ERR_NULL;
    if (job >= js->n || !(q > 0.0 && q <= 1.0)) return IBCC_ERR_RANGE;
    b = &js->job[job];
    if (b->st.delivered == 0) return IBCC_ERR_NOT_FOUND;
    need = (uint64_t)(q * (double)b->st.delivered);
    if ((double)need < q * (double)b->st.delivered) need++;
    if (need == 0) need = 1;
    for (k = 0; k < IBCC_F_HBUCKETS_; k++) {
        seen += b->hist[k];
        if (seen >= need) break;
    }
    *t = ibcc_fab_hedge_(k < IBCC_F_HBUCKETS_ ? k : IBCC_F_HBUCKETS_ - 1u);
    if (*t > b->st.msg_max) *t = b->st.msg_max;
    return IBCC_OK;
}

IBCC_API int ibcc_jobs_done(const ibcc_jobs *js)
{
    uint32_t j;
    if (!js) return 0;
    for (j = 0; j < js->n; j++)
        if (!js->job[j].started
            || js->job[j].st.delivered < js->job[j].st.messages)
            return 0;
    return 1;
}

#ifndef IBCC_NO_STDIO
/* ---- the trace text ------------------------------------------------------ */

typedef struct ibcc_trp_ {
    ibcc_trace *t;
    uint32_t n, nd;             /* messages and dependencies read */
    uint32_t maxrank;           /* highest rank + 1 seen */
    int header, fits;           /* header read; everything stored so far */
    uint64_t last_id;
    char why[160];
} ibcc_trp_;

/* A time: decimal digits, an optional fraction, a unit (ps ns us ms s);
   exact to the picosecond (finer digits are dropped). */
static ibcc_result ibcc_trp_time_(ibcc_cur_ *c, ibcc_time *t)
{
    static const char *const unit[5] = {"ps", "ns", "us", "ms", "s"};
    static const uint64_t scale[5] = {1u, 1000u, 1000000u, 1000000000u,
                                      1000000000000u};
    uint64_t ip = 0, fr[32];
    unsigned nf = 0, u, k;
    ibcc_result r = ibcc_cur_digits_(c, 10u, UINT64_MAX, &ip);
    if (r == IBCC_ERR_PARSE) return r;
    if (c->p < c->e && *c->p == '.') {
        c->p++;
        while (c->p < c->e && *c->p >= '0' && *c->p <= '9') {
            if (nf < 32u) fr[nf++] = (uint64_t)(*c->p - '0');
            c->p++;
        }
    }
    for (u = 0; u < 5u; u++)
        if (ibcc_cur_lit_(c, unit[u])) break;
    if (u == 5u) return IBCC_ERR_PARSE;
    if (r != IBCC_OK || ip > IBCC_FABRIC_MAX_DELAY / scale[u])
        return IBCC_ERR_RANGE;
    *t = ip * scale[u];
    {
        uint64_t sc = scale[u];
        for (k = 0; k < nf && sc >= 10u; k++) {
            sc /= 10u;
            *t += fr[k] * sc;
        }
    }
    if (*t > IBCC_FABRIC_MAX_DELAY) return IBCC_ERR_RANGE;
    return IBCC_OK;
}

#define IBCC_TRP_FAIL_(code, ...) \
    do { snprintf(p->why, sizeof p->why, __VA_ARGS__); return (code); } \
    while (0)

static ibcc_result ibcc_trp_line_(void *ctx, ibcc_cur_ *c, uint32_t line)
{
    ibcc_trp_ *p = (ibcc_trp_ *)ctx;
    ibcc_trace *t = p->t;
    const char *hash = (const char *)memchr(c->p, '#', (size_t)(c->e - c->p));
    uint64_t id = 0, src = 0, dst = 0, bytes = 0, v = 0;
    uint32_t sl = 0, ndeps = 0, first = p->nd;
    ibcc_time at = 0;
    int store;
    ibcc_result r;
    (void)line;
    if (hash) {
        c->e = hash;
        while (c->e > c->p && ibcc_blank_(c->e[-1])) c->e--;
    }
    if (c->p == c->e) return IBCC_OK;
    if (!p->header) {
        if (!ibcc_cur_word_(c, "ibcc-trace"))
            IBCC_TRP_FAIL_(IBCC_ERR_PARSE, "expected the header "
                           "\"ibcc-trace 1\"");
        r = ibcc_cur_field_(c, 1u, &v);
        if (r != IBCC_OK || v != 1u || !ibcc_cur_done_(c))
            IBCC_TRP_FAIL_(r == IBCC_ERR_PARSE ? IBCC_ERR_PARSE
                                               : IBCC_ERR_RANGE,
                           "header: this reader knows version 1 only");
        p->header = 1;
        return IBCC_OK;
    }
    if (ibcc_cur_word_(c, "ranks")) {
        if (p->n || t->ranks)
            IBCC_TRP_FAIL_(IBCC_ERR_PARSE, "ranks: once, before the first "
                           "message");
        r = ibcc_cur_field_(c, UINT32_C(1) << 24, &v);
        if (r == IBCC_OK && v == 0) r = IBCC_ERR_RANGE;
        if (r != IBCC_OK || !ibcc_cur_done_(c))
            IBCC_TRP_FAIL_(r == IBCC_ERR_RANGE ? r : IBCC_ERR_PARSE,
                           "ranks: a number 1 .. 16777216");
        t->ranks = (uint32_t)v;
        return IBCC_OK;
    }
    if ((r = ibcc_cur_field_(c, (UINT64_C(1) << 63) - 1u, &id)) != IBCC_OK)
        IBCC_TRP_FAIL_(r, "id: %s", r == IBCC_ERR_PARSE
                       ? "expected a number (or ranks, a comment)"
                       : "at most 2^63 - 1");
    if (p->n && id <= p->last_id)
        IBCC_TRP_FAIL_(IBCC_ERR_RANGE, "id %llu: not above the previous "
                       "id %llu", (unsigned long long)id,
                       (unsigned long long)p->last_id);
    if ((r = ibcc_cur_field_(c, (UINT32_C(1) << 24) - 1u, &src)) != IBCC_OK
        || (r = ibcc_cur_field_(c, (UINT32_C(1) << 24) - 1u, &dst))
               != IBCC_OK)
        IBCC_TRP_FAIL_(r, "src, dst: %s", r == IBCC_ERR_PARSE
                       ? "expected two ranks" : "ranks below 2^24");
    if (src == dst)
        IBCC_TRP_FAIL_(IBCC_ERR_RANGE, "src and dst are both rank %llu",
                       (unsigned long long)src);
    if (t->ranks && (src >= t->ranks || dst >= t->ranks))
        IBCC_TRP_FAIL_(IBCC_ERR_RANGE, "rank %llu: not below ranks %u",
                       (unsigned long long)(src >= t->ranks ? src : dst),
                       t->ranks);
    r = ibcc_cur_field_(c, UINT64_C(1) << 48, &bytes);
    if (r == IBCC_OK && bytes == 0) r = IBCC_ERR_RANGE;
    if (r != IBCC_OK)
        IBCC_TRP_FAIL_(r, "bytes: %s", r == IBCC_ERR_PARSE
                       ? "expected a number" : "1 .. 2^48");
    store = p->fits && t->msgs && p->n < t->msg_cap;
    while (!ibcc_cur_done_(c)) {
        if (ibcc_cur_lit_(c, "sl=")) {
            r = ibcc_cur_num_(c, 15u, &v);
            if (r == IBCC_OK && ibcc_cur_tokend_(c) != c->p) r = IBCC_ERR_PARSE;
            if (r != IBCC_OK) IBCC_TRP_FAIL_(r, "sl: 0 .. 15");
            sl = (uint32_t)v;
        } else if (ibcc_cur_lit_(c, "at=")) {
            r = ibcc_trp_time_(c, &at);
            if (r == IBCC_OK && ibcc_cur_tokend_(c) != c->p) r = IBCC_ERR_PARSE;
            if (r != IBCC_OK)
                IBCC_TRP_FAIL_(r, "at: %s", r == IBCC_ERR_PARSE
                               ? "a number and a unit (ps ns us ms s)"
                               : "at most 2^60 ps");
        } else if (ibcc_cur_lit_(c, "after=")) {
            if (ndeps)
                IBCC_TRP_FAIL_(IBCC_ERR_PARSE, "after: given twice");
            for (;;) {
                uint64_t dep = 0;
                r = ibcc_cur_num_(c, UINT64_MAX, &dep);
                if (r != IBCC_OK) IBCC_TRP_FAIL_(IBCC_ERR_PARSE,
                                                 "after: a list of ids");
                if (ndeps == 65535u)
                    IBCC_TRP_FAIL_(IBCC_ERR_RANGE, "after: at most 65535 "
                                   "ids");
                if (p->nd == 0xffffffffu)
                    IBCC_TRP_FAIL_(IBCC_ERR_CAPACITY, "more than 2^32 - 1 "
                                   "dependencies");
                if (!p->n || dep > p->last_id)
                    IBCC_TRP_FAIL_(IBCC_ERR_RANGE, "after: id %llu is not "
                                   "an earlier message",
                                   (unsigned long long)dep);
                if (store && t->deps && p->nd < t->dep_cap) {
                    uint32_t lo = 0, hi = p->n;         /* find its index */
                    while (lo < hi) {
                        uint32_t mid = lo + (hi - lo) / 2u;
                        if (t->msgs[mid].id < dep) lo = mid + 1u;
                        else hi = mid;
                    }
                    if (lo == p->n || t->msgs[lo].id != dep)
                        IBCC_TRP_FAIL_(IBCC_ERR_RANGE, "after: id %llu is "
                                       "not an earlier message",
                                       (unsigned long long)dep);
                    t->deps[p->nd] = lo;
                } else {
                    p->fits = 0;
                }
                p->nd++;
                ndeps++;
                if (!ibcc_cur_lit_(c, ",")) break;
            }
            if (ibcc_cur_tokend_(c) != c->p)
                IBCC_TRP_FAIL_(IBCC_ERR_PARSE, "after: a list of ids "
                               "separated by commas");
        } else {
            IBCC_TRP_FAIL_(IBCC_ERR_PARSE, "unknown field \"%.*s\" (sl=, "
                           "at=, after=)",
                           (int)(ibcc_cur_tokend_(c) - c->p > 40
                                     ? 40 : ibcc_cur_tokend_(c) - c->p),
                           c->p);
        }
    }
    if (p->n == 0xffffffffu)
        IBCC_TRP_FAIL_(IBCC_ERR_CAPACITY, "more than 2^32 - 1 messages");
    if (store && p->fits) {
        ibcc_trace_msg *m = &t->msgs[p->n];
        m->id = id;
        m->src = (uint32_t)src;
        m->dst = (uint32_t)dst;
        m->bytes = bytes;
        m->sl = sl;
        m->ndeps = ndeps;
        m->first = first;
        m->at = at;
    } else {
        p->fits = 0;
    }
    if (src + 1u > p->maxrank) p->maxrank = (uint32_t)src + 1u;
    if (dst + 1u > p->maxrank) p->maxrank = (uint32_t)dst + 1u;
    p->last_id = id;
    p->n++;
    return IBCC_OK;
}
#undef IBCC_TRP_FAIL_

IBCC_API ibcc_result ibcc_trace_parse(ibcc_trace *t, const char *text,
        size_t len, const char *name, ibcc_fabric_error *err)
{
    ibcc_trp_ p;
    uint32_t line = 0;
    ibcc_result r;
    if (!t || (!text && len))
        return ibcc_fab_err_(err, IBCC_ERR_NULL, name, 0, "t or text is "
                             "NULL");
    memset(&p, 0, sizeof p);
    p.t = t;
    p.fits = 1;
    t->count = t->ndeps = t->ranks = 0;
    r = ibcc_lines_(text ? text : "", len, &p, ibcc_trp_line_, &line);
    t->count = p.n;
    t->ndeps = p.nd;
    if (r != IBCC_OK)
        return ibcc_fab_err_(err, r, name, line, "%s", p.why);
    if (!p.header)
        return ibcc_fab_err_(err, IBCC_ERR_PARSE, name, line ? line : 1u,
                             "expected the header \"ibcc-trace 1\"");
    if (t->ranks == 0) t->ranks = p.maxrank;
    if (!p.fits)
        return ibcc_fab_err_(err, IBCC_ERR_CAPACITY, name, 0, "%u messages "
                             "and %u dependencies: caps %u and %u", p.n,
                             p.nd, t->msg_cap, t->dep_cap);
    return ibcc_fab_err_(err, IBCC_OK, NULL, 0, "%s", "");
}
#endif /* IBCC_NO_STDIO */

/* ---- L3 topologies: implementation ---------------------------------------
   The builders, the one up/down router (shared with the loader) and the
   two-switch builder. */

/* Allocates the arrays of a topology of nn nodes and nl links. */
static ibcc_result ibcc_topo_alloc_(ibcc_topo *t, uint32_t hosts,
                                    uint32_t nn, uint32_t nl,
                                    const ibcc_fabric_allocator *al)
{
    memset(t, 0, sizeof *t);
    if (al) t->al = *al;
    if ((t->al.alloc == NULL) != (t->al.free == NULL)) return IBCC_ERR_NULL;
    t->host_count = hosts;
    t->node_count = nn;
    t->link_count = nl;
    t->nodes = (ibcc_fabric_node *)ibcc_fab_alloc_(&t->al,
                                ibcc_fab_mul_(nn, sizeof *t->nodes));
    t->links = (ibcc_fabric_link *)ibcc_fab_alloc_(&t->al,
                                ibcc_fab_mul_(nl ? nl : 1u, sizeof *t->links));
    t->rank = (uint32_t *)ibcc_fab_alloc_(&t->al, ibcc_fab_mul_(nn, 4));
    t->routes = (ibcc_fabric_route *)ibcc_fab_alloc_(&t->al,
        ibcc_fab_mul_(ibcc_fab_mul_(nn - hosts, hosts), sizeof *t->routes));
    if (!t->nodes || !t->links || !t->rank || !t->routes) {
        ibcc_topo_free(t);
        return IBCC_ERR_NOMEM;
    }
    return IBCC_OK;
}

IBCC_API void ibcc_topo_free(ibcc_topo *t)
{
    ibcc_fabric_allocator a;
    if (!t) return;
    a = t->al;
    ibcc_fab_free_(&a, t->nodes);
    ibcc_fab_free_(&a, t->links);
    ibcc_fab_free_(&a, t->routes);
    ibcc_fab_free_(&a, t->rank);
    ibcc_fab_free_(&a, t->sl2vls);
    memset(t, 0, sizeof *t);
}

IBCC_API ibcc_result ibcc_topo_apply(const ibcc_topo *t, ibcc_fabric_desc *d)
{
    if (!t || !d || !t->nodes) return IBCC_ERR_NULL;
    d->nodes = t->nodes; d->node_count = t->node_count;
    d->links = t->links; d->link_count = t->link_count;
    d->routes = t->routes; d->route_count = t->route_count;
    if (t->vls > 1u && d->vls < t->vls) d->vls = t->vls;
    if (t->sl2vl_set) {
        d->sl2vl_set = 1;
        memcpy(d->sl2vl, t->sl2vl, sizeof d->sl2vl);
    }
    if (t->sl2vl_count) {
        d->sl2vls = t->sl2vls;
        d->sl2vl_count = t->sl2vl_count;
    }
    return IBCC_OK;
}

/* ---- up/down routes: the one router of the builders and the loader ------
   ibcc_updown_ computes the static up/down routes of both the topology
   builders (ibcc_topo_route_) and the fabric loader
   (ibcc_ibfabric_updown); docs/topologies.md ("Up/down routes (builders
   and loader)") states the rules. Each caller brings the order and the
   tie-break:
   - order: every node that is not a host is a switch (a host has one
     port, port 0, cabled to its leaf switch); switches are sorted
     by (level, key, node), lowest first, and a link from a to b goes *up*
     when b comes before a (a host is below every switch). A legal route
     climbs zero or more links, then descends.
   - per destination host h (hosts numbered 0.. in node order), a switch
     from which h's switch (its leaf) is reachable going only down takes
     a shortest down-only path; every other switch climbs toward the
     fewest hops of a legal route. Among the c next hops that are equally
     good (in port order) it takes the one at (h / div[s] + add[s]) mod c
     (div, add NULL: h mod c).
   - per leaf the distances are computed once (a breadth-first search up
     from the leaf, then one sweep down the order) with each switch's
     equal next hops; each host of the leaf then only picks among them.
     Destinations are handed to `put` leaf by leaf, leaves in the order of
     their first host, hosts ascending within a leaf (host order when each
     leaf's hosts are consecutive, as in every builder); a host cabled to
     no switch gets no call. */
typedef void (*ibcc_updown_put_)(void *ctx, uint32_t node,
                                 const uint32_t *port);
typedef struct ibcc_updown_ord_ {
    uint32_t level, node;
    uint64_t key;
} ibcc_updown_ord_;

static int ibcc_updown_cmp_(const void *x, const void *y)
{
    const ibcc_updown_ord_ *a = (const ibcc_updown_ord_ *)x;
    const ibcc_updown_ord_ *b = (const ibcc_updown_ord_ *)y;
    if (a->level != b->level) return a->level < b->level ? -1 : 1;
    if (a->key != b->key) return a->key < b->key ? -1 : 1;
    return a->node < b->node ? -1 : (a->node > b->node);
}

/* The up/down routes of the nodes and links given: `level` and `key`
   (NULL: the node number) are read at switches only; put(ctx, node,
   port) receives, per destination host node, port[s] for every switch
   node s (IBCC_F_NONE_ when s has no route to it). Errors: RANGE (a link
   beyond its nodes' ports), CAPACITY (over 2^30 ports), NOMEM. */
static ibcc_result ibcc_updown_(ibcc_fabric_allocator *al,
        const ibcc_fabric_node *nodes, uint32_t nn,
        const ibcc_fabric_link *links, uint32_t nl,
        const uint32_t *level, const uint64_t *key,
        const uint32_t *div, const uint32_t *add,
        ibcc_updown_put_ put, void *ctx)
{
    const uint32_t NONE = IBCC_F_NONE_;
    uint32_t *first = NULL, *nb = NULL, *pos = NULL, *order = NULL;
    uint32_t *dd = NULL, *dist = NULL, *queue = NULL, *cstart = NULL;
    uint32_t *ccnt = NULL, *pool = NULL, *row = NULL, *hnode = NULL;
    uint32_t *grp = NULL, *gsize = NULL, *seq = NULL;
    uint32_t *qrem = NULL, *qpick = NULL;
    ibcc_updown_ord_ *ord = NULL;
    uint32_t u, i, j, ns = 0, nh = 0, ng = 0, nd = 0, L = NONE;
    uint64_t slots = 0;
    ibcc_result r = IBCC_OK;
    for (u = 0; u < nn; u++) {
        int host = nodes[u].kind == IBCC_FABRIC_HOST;
        slots += host ? 1u : nodes[u].ports;
        if (host) nh++; else ns++;
    }
    if (slots > 0x3fffffffu) return IBCC_ERR_CAPACITY;
    first = (uint32_t *)ibcc_fab_alloc_(al, ibcc_fab_mul_((size_t)nn + 1u, 4));
    nb = (uint32_t *)ibcc_fab_alloc_(al, ibcc_fab_mul_((size_t)slots + 1u, 4));
    pool = (uint32_t *)ibcc_fab_alloc_(al,
                                       ibcc_fab_mul_((size_t)slots + 1u, 4));
    pos = (uint32_t *)ibcc_fab_alloc_(al, ibcc_fab_mul_((size_t)nn + 1u, 4));
    order = (uint32_t *)ibcc_fab_alloc_(al, ibcc_fab_mul_((size_t)ns + 1u, 4));
    dd = (uint32_t *)ibcc_fab_alloc_(al, ibcc_fab_mul_((size_t)nn + 1u, 4));
    dist = (uint32_t *)ibcc_fab_alloc_(al, ibcc_fab_mul_((size_t)nn + 1u, 4));
    queue = (uint32_t *)ibcc_fab_alloc_(al, ibcc_fab_mul_((size_t)ns + 1u, 4));
    cstart = (uint32_t *)ibcc_fab_alloc_(al, ibcc_fab_mul_((size_t)nn + 1u, 4));
    ccnt = (uint32_t *)ibcc_fab_alloc_(al, ibcc_fab_mul_((size_t)nn + 1u, 4));
    row = (uint32_t *)ibcc_fab_alloc_(al, ibcc_fab_mul_((size_t)nn + 1u, 4));
    hnode = (uint32_t *)ibcc_fab_alloc_(al, ibcc_fab_mul_((size_t)nh + 1u, 4));
    grp = (uint32_t *)ibcc_fab_alloc_(al, ibcc_fab_mul_((size_t)nn + 1u, 4));
    gsize = (uint32_t *)ibcc_fab_alloc_(al, ibcc_fab_mul_((size_t)ns + 2u, 4));
    seq = (uint32_t *)ibcc_fab_alloc_(al, ibcc_fab_mul_((size_t)nh + 1u, 4));
    qrem = (uint32_t *)ibcc_fab_alloc_(al, ibcc_fab_mul_((size_t)nn + 1u, 4));
    qpick = (uint32_t *)ibcc_fab_alloc_(al, ibcc_fab_mul_((size_t)nn + 1u, 4));
    ord = (ibcc_updown_ord_ *)ibcc_fab_alloc_(al,
              ibcc_fab_mul_((size_t)ns + 1u, sizeof *ord));
    if (!first || !nb || !pool || !pos || !order || !dd || !dist || !queue
        || !cstart || !ccnt || !row || !hnode || !grp || !gsize || !seq
        || !qrem || !qpick || !ord) {
        r = IBCC_ERR_NOMEM;
        goto out;
    }
    /* the node on each port: nb[first[u] + p] */
    for (u = 0; u < nn; u++)
        first[u + 1u] = first[u]
            + (nodes[u].kind == IBCC_FABRIC_HOST ? 1u : nodes[u].ports);
    for (i = 0; i < first[nn]; i++) nb[i] = NONE;
    for (i = 0; i < nl; i++) {
        const ibcc_fabric_link *k = &links[i];
        if (k->a >= nn || k->b >= nn
            || k->a_port >= first[k->a + 1u] - first[k->a]
            || k->b_port >= first[k->b + 1u] - first[k->b]) {
            r = IBCC_ERR_RANGE;
            goto out;
        }
        nb[first[k->a] + k->a_port] = k->b;
        nb[first[k->b] + k->b_port] = k->a;
    }
    /* the order: pos[switch] = its place from the top; hosts NONE */
    for (u = 0, i = 0, j = 0; u < nn; u++) {
        pos[u] = row[u] = grp[u] = NONE;
        if (nodes[u].kind == IBCC_FABRIC_HOST) {
            hnode[i++] = u;
            continue;
        }
        ord[j].level = level[u];
        ord[j].key = key ? key[u] : u;
        ord[j++].node = u;
    }
    qsort(ord, ns, sizeof *ord, ibcc_updown_cmp_);
    for (i = 0; i < ns; i++) {
        order[i] = ord[i].node;
        pos[ord[i].node] = i;
    }
    /* hosts grouped by leaf: leaves numbered by their first host */
    for (i = 0; i < nh; i++) {
        uint32_t s = nb[first[hnode[i]]];
        if (s == NONE || pos[s] == NONE) continue;   /* no switch */
        if (grp[s] == NONE) grp[s] = ng++;
        gsize[grp[s] + 1u]++;
    }
    for (i = 0; i < ng; i++) gsize[i + 1u] += gsize[i];
    for (i = 0; i < nh; i++) {
        uint32_t s = nb[first[hnode[i]]];
        if (s == NONE || pos[s] == NONE) continue;
        seq[gsize[grp[s]]++] = i;               /* gsize[g]: next slot */
        nd++;
    }
    for (i = 0; i < nd; i++) {
        uint32_t h = seq[i], d = hnode[h], s, qh = 0, qt = 0;
        /* the pick (h / div + add) mod c of every switch: computed with
           divisions at a leaf's first host, then carried to the next
           host (h + 1) by a count (no division per switch and host) */
        int step = i > 0 && h == seq[i - 1u] + 1u && nb[first[d]] == L;
        if (nb[first[d]] != L) {
            /* a new leaf: down hops to it, then legal-route hops, then
               each switch's equally good next hops */
            L = nb[first[d]];
            for (j = 0; j < ns; j++) dd[order[j]] = NONE;
            dd[L] = 0;
            queue[qt++] = L;
            while (qh < qt) {
                uint32_t x = queue[qh++], k;
                for (k = first[x]; k < first[x + 1u]; k++) {
                    uint32_t y = nb[k];
                    if (y != NONE && pos[y] < pos[x] && dd[y] == NONE) {
                        dd[y] = dd[x] + 1u;
                        queue[qt++] = y;
                    }
                }
            }
            for (j = 0; j < ns; j++) {
                uint32_t k, m = NONE;
                s = order[j];
                if (dd[s] != NONE) { dist[s] = dd[s]; continue; }
                for (k = first[s]; k < first[s + 1u]; k++) {
                    uint32_t t = nb[k];
                    if (t != NONE && pos[t] < pos[s] && dist[t] != NONE
                        && dist[t] + 1u < m)
                        m = dist[t] + 1u;
                }
                dist[s] = m;
            }
            for (j = 0, qt = 0; j < ns; j++) {
                uint32_t k;
                s = order[j];
                cstart[s] = qt;
                ccnt[s] = 0;
                if (dist[s] == NONE || s == L) continue;
                for (k = first[s]; k < first[s + 1u]; k++) {
                    uint32_t y = nb[k];
                    if (y == NONE || pos[y] == NONE) continue;
                    if (dd[s] != NONE
                        ? pos[y] > pos[s] && dd[y] == dd[s] - 1u     /* down */
                        : pos[y] < pos[s] && dist[y] == dist[s] - 1u)  /* up */
                        pool[qt++] = k - first[s];
                }
                ccnt[s] = qt - cstart[s];
            }
        }
        for (j = 0; j < ns; j++) {
            uint32_t c, want;
            s = order[j];
            row[s] = NONE;
            if (s == L) {                   /* the leaf: the port to d */
                uint32_t k, pick = 0;
                for (k = first[s], c = 0; k < first[s + 1u]; k++)
                    c += nb[k] == d;
                if (c == 0) continue;
                want = (div ? h / div[s] : h) + (add ? add[s] : 0u);
                want %= c;
                for (k = first[s]; k < first[s + 1u]; k++)
                    if (nb[k] == d && pick++ == want) break;
                row[s] = k - first[s];
                continue;
            }
            c = ccnt[s];
            if (c == 0) continue;
            if (!step) {
                want = (div ? h / div[s] : h) + (add ? add[s] : 0u);
                qrem[s] = div ? h % div[s] : 0u;
                qpick[s] = want % c;
            } else if (!div || ++qrem[s] == div[s]) {
                qrem[s] = 0;
                if (++qpick[s] == c) qpick[s] = 0;
            }
            row[s] = pool[cstart[s] + qpick[s]];
        }
        put(ctx, d, row);
    }
out:
    ibcc_fab_free_(al, first); ibcc_fab_free_(al, nb);
    ibcc_fab_free_(al, pool); ibcc_fab_free_(al, pos);
    ibcc_fab_free_(al, order); ibcc_fab_free_(al, dd);
    ibcc_fab_free_(al, dist); ibcc_fab_free_(al, queue);
    ibcc_fab_free_(al, cstart); ibcc_fab_free_(al, ccnt);
    ibcc_fab_free_(al, row); ibcc_fab_free_(al, hnode);
    ibcc_fab_free_(al, grp); ibcc_fab_free_(al, gsize);
    ibcc_fab_free_(al, seq); ibcc_fab_free_(al, ord);
    ibcc_fab_free_(al, qrem); ibcc_fab_free_(al, qpick);
    return r;
}

/* Appends the routes to one destination host, switches in node order. */
static void ibcc_topo_put_(void *ctx, uint32_t node, const uint32_t *port)
{
    ibcc_topo *t = (ibcc_topo *)ctx;
    uint32_t i;
    for (i = t->host_count; i < t->node_count; i++) {
        ibcc_fabric_route *r;
        if (port[i] == IBCC_F_NONE_) continue;
        r = &t->routes[t->route_count++];
        r->sw = i;
        r->dst = node;
        r->port = port[i];
    }
}

/* The builders' up/down routes (ibcc_updown_): a switch of higher rank is
   above, equal ranks broken by the lower node number; routes listed per
   destination d (host order), switches in node order. Tie-break
   (destination-mod-k): a switch of tree stage s (rank s + 1) takes among
   c equal next hops the ((d / k^s) + the top digit of its index w within
   the stage) mod c-th, i.e. digit s of d (carried into the digits above)
   offset by the digit of w that the shuffle drops next, so every stage
   spreads destinations evenly over its up ports in both wirings (the
   offset keeps the shuffle from piling one digit class onto a few upper
   links); in a mesh or torus (radix 0) d mod c. */
static ibcc_result ibcc_topo_route_(ibcc_topo *t)
{
    uint32_t nn = t->node_count, H = t->host_count, i;
    uint32_t *level, *div = NULL, *add = NULL;
    ibcc_result r = IBCC_ERR_NOMEM;
    level = (uint32_t *)ibcc_fab_alloc_(&t->al, ibcc_fab_mul_(nn, 4));
    if (t->radix) {
        div = (uint32_t *)ibcc_fab_alloc_(&t->al, ibcc_fab_mul_(nn, 4));
        add = (uint32_t *)ibcc_fab_alloc_(&t->al, ibcc_fab_mul_(nn, 4));
    }
    if (level && (!t->radix || (div && add))) {
        for (i = 0; i < nn; i++) level[i] = UINT32_MAX - t->rank[i];
        for (i = H; i < nn && t->radix; i++) {
            uint32_t lv, S = H / t->radix, w = (i - H) % S;
            add[i] = S >= t->radix ? w / (S / t->radix) : w;
            for (lv = 1, div[i] = 1; lv < t->rank[i]; lv++) div[i] *= t->radix;
        }
        t->route_count = 0;
        r = ibcc_updown_(&t->al, t->nodes, nn, t->links, t->link_count,
                         level, NULL, div, add, ibcc_topo_put_, t);
    }
    ibcc_fab_free_(&t->al, level);
    ibcc_fab_free_(&t->al, div);
    ibcc_fab_free_(&t->al, add);
    return r;
}

/* k^n, or 0 when above 2^20. */
static uint32_t ibcc_topo_pow_(uint32_t k, uint32_t n)
{
    uint64_t v = 1;
    uint32_t i;
    for (i = 0; i < n; i++) {
        v *= k;
        if (v > (1u << 20)) return 0;
    }
    return (uint32_t)v;
}

/* The k-ary n-tree and n-fly share nodes, ports and host links; `shuffle`
   chooses the wiring between stages. */
static ibcc_result ibcc_topo_tree_(ibcc_topo *t, uint32_t k, uint32_t n,
                                   int shuffle, const ibcc_fabric_allocator *al)
{
    uint32_t H, S, s, w, j, l = 0, p;
    ibcc_result r;
    if (!t) return IBCC_ERR_NULL;
    memset(t, 0, sizeof *t);            /* a refusal leaves it zero */
    if (k < 2u || n < 1u) return IBCC_ERR_RANGE;
    if (2u * k > IBCC_ARBITER_MAX_PORTS) return IBCC_ERR_CAPACITY;
    H = ibcc_topo_pow_(k, n);
    S = ibcc_topo_pow_(k, n - 1u);
    if (H == 0 || S == 0 || (uint64_t)S * n > (1u << 20))
        return IBCC_ERR_CAPACITY;
    r = ibcc_topo_alloc_(t, H, H + S * n, H + S * (n - 1u) * k, al);
    if (r != IBCC_OK) return r;
    t->radix = k;
    for (p = 0; p < H; p++) {
        t->nodes[p].kind = IBCC_FABRIC_HOST;
        t->nodes[p].ports = 1;
        t->links[l].a = p;
        t->links[l].b = H + p / k;
        t->links[l++].b_port = p % k;
    }
    for (s = 0; s < n; s++)
        for (w = 0; w < S; w++) {
            uint32_t node = H + s * S + w;
            t->nodes[node].kind = IBCC_FABRIC_SWITCH;
            t->nodes[node].ports = s + 1u < n ? 2u * k : k;
            t->rank[node] = s + 1u;
            if (s + 1u == n) continue;
            for (j = 0; j < k; j++) {
                uint32_t to, port;
                if (shuffle) {
                    /* x = w*k + j rotated left by one base-k digit */
                    uint64_t x = (uint64_t)w * k + j;
                    uint64_t x2 = (x * k) % H + x / (H / k);
                    to = (uint32_t)(x2 / k);
                    port = (uint32_t)(x2 % k);
                } else {
                    uint32_t ds = ibcc_topo_pow_(k, s);  /* digit s of w */
                    uint32_t dig = (w / ds) % k;
                    to = w - dig * ds + j * ds;
                    port = dig;
                }
                t->links[l].a = node;
                t->links[l].a_port = k + j;
                t->links[l].b = H + (s + 1u) * S + to;
                t->links[l++].b_port = port;
            }
        }
    r = ibcc_topo_route_(t);
    if (r != IBCC_OK) ibcc_topo_free(t);
    return r;
}

/* A builder's refusal r (t is zero or freed) gets its reason in
   t->error, from the builder's arguments and the rules above. */
static ibcc_result ibcc_topo_why_(ibcc_topo *t, ibcc_result r, int mesh,
                                  uint32_t a, uint32_t b, uint32_t c,
                                  uint32_t root)
{
    const char *why = ibcc_result_str(r);
    char buf[160];
    if (r == IBCC_OK || !t) return r;
    buf[0] = 0;
    if (r == IBCC_ERR_RANGE && !mesh)
        snprintf(buf, sizeof buf, a < 2u ? "k %u: at least 2"
                 : "n %u: at least 1", a < 2u ? a : b);
    else if (r == IBCC_ERR_CAPACITY && !mesh)
        snprintf(buf, sizeof buf, 2u * (uint64_t)a > IBCC_ARBITER_MAX_PORTS
                 ? "k %u: switches of 2k ports, at most %u"
                 : "k %u, n %u: over 2^20 switches or hosts", a,
                 2u * (uint64_t)a > IBCC_ARBITER_MAX_PORTS
                     ? IBCC_ARBITER_MAX_PORTS : b);
    else if (r == IBCC_ERR_RANGE && mesh) {
        if (a < 1u || b < 1u || c < 1u)
            snprintf(buf, sizeof buf, "%s %u: at least 1",
                     a < 1u ? "x" : b < 1u ? "y" : "hps",
                     a < 1u ? a : b < 1u ? b : c);
        else
            snprintf(buf, sizeof buf, "root %u: a switch 0..%u", root,
                     a * b - 1u);
    } else if (r == IBCC_ERR_CAPACITY && mesh)
        snprintf(buf, sizeof buf, c + 4u > IBCC_ARBITER_MAX_PORTS
                 ? "hps %u: switches of hps + 4 ports, at most %u"
                 : "x * y * hps: over 2^20 switches or hosts (hps %u)",
                 c, IBCC_ARBITER_MAX_PORTS);
    if (buf[0]) why = buf;
    return ibcc_fab_err_(&t->error, r, NULL, 0, "%s", why);
}

IBCC_API ibcc_result ibcc_topo_fattree(ibcc_topo *t, uint32_t k, uint32_t n,
                                       const ibcc_fabric_allocator *al)
{
    return ibcc_topo_why_(t, ibcc_topo_tree_(t, k, n, 0, al), 0, k, n, 0, 0);
}

IBCC_API ibcc_result ibcc_topo_nfly(ibcc_topo *t, uint32_t k, uint32_t n,
                                    const ibcc_fabric_allocator *al)
{
    return ibcc_topo_why_(t, ibcc_topo_tree_(t, k, n, 1, al), 0, k, n, 0, 0);
}

static ibcc_result ibcc_topo_mesh_(ibcc_topo *t, uint32_t x, uint32_t y,
                                   uint32_t hps, int torus, uint32_t root,
                                   const ibcc_fabric_allocator *al);
IBCC_API ibcc_result ibcc_topo_mesh(ibcc_topo *t, uint32_t x, uint32_t y,
                                    uint32_t hps, int torus, uint32_t root,
                                    const ibcc_fabric_allocator *al)
{
    return ibcc_topo_why_(t, ibcc_topo_mesh_(t, x, y, hps, torus, root, al),
                          1, x, y, hps, root);
}

/* Direction from c to d on a line or ring of k (0 +, 1 -, 2 there); a
   torus ring (k > 2) goes the shorter way (a tie: +); *wraps: the path
   crosses the wrap link (the dateline). */
static uint32_t ibcc_topo_dir_(uint32_t c, uint32_t d, uint32_t k, int ring,
                               int *wraps)
{
    *wraps = 0;
    if (c == d) return 2u;
    if (ring && k > 2u) {
        uint32_t fwd = (d + k - c) % k;
        if (fwd <= k - fwd) { *wraps = d < c; return 0u; }
        *wraps = d > c;
        return 1u;
    }
    return d > c ? 0u : 1u;
}

IBCC_API ibcc_result ibcc_topo_mesh_dor(ibcc_topo *t, uint32_t x, uint32_t y,
                                        uint32_t hps, int torus,
                                        const ibcc_fabric_allocator *al)
{
    ibcc_result r = ibcc_topo_mesh(t, x, y, hps, torus, 0, al);
    uint32_t H, S, sw, h, n = 0;
    if (r != IBCC_OK) return r;
    H = t->host_count;
    S = x * y;
    t->routing = IBCC_TOPO_DOR;
    t->x = x;
    t->y = y;
    t->hps = hps;
    t->torus = torus != 0;
    t->sl_bits = (uint32_t)(t->torus && x >= 4u) + (t->torus && y >= 4u);
    t->vls = 1u << t->sl_bits;
    for (h = 0; h < H; h++)
        for (sw = 0; sw < S; sw++) {
            uint32_t ds = h / hps, cx = sw % x, cy = sw / x;
            uint32_t dx = ds % x, dy = ds / x, port;
            int w;
            if (sw == ds) port = h % hps;
            else if (cx != dx)
                port = hps + ibcc_topo_dir_(cx, dx, x, t->torus, &w);
            else
                port = hps + 2u + ibcc_topo_dir_(cy, dy, y, t->torus, &w);
            t->routes[n].sw = H + sw;
            t->routes[n].dst = h;
            t->routes[n++].port = port;
        }
    t->route_count = n;
    return IBCC_OK;
}

/* The dateline bits of the path src -> dst (0 without). */
static uint32_t ibcc_topo_bits_(const ibcc_topo *t, uint32_t src,
                                uint32_t dst)
{
    uint32_t s, d, bits = 0, b = 0;
    int w;
    if (t->routing != IBCC_TOPO_DOR || !t->sl_bits || !t->hps) return 0;
    s = src / t->hps;
    d = dst / t->hps;
    if (t->x >= 4u) {
        (void)ibcc_topo_dir_(s % t->x, d % t->x, t->x, 1, &w);
        bits |= (uint32_t)w << b++;
    }
    if (t->y >= 4u) {
        (void)ibcc_topo_dir_(s / t->x, d / t->x, t->y, 1, &w);
        bits |= (uint32_t)w << b;
    }
    return bits;
}

IBCC_API uint32_t ibcc_topo_path_sls(void *tv, uint32_t src, uint32_t dst)
{
    const ibcc_topo *t = (const ibcc_topo *)tv;
    uint32_t bits, s, m = 0, low;
    if (!t || src >= t->host_count || dst >= t->host_count) return 0;
    if (!t->sl_bits) return 0xFFFFu;
    bits = ibcc_topo_bits_(t, src, dst);
    low = (1u << t->sl_bits) - 1u;
    for (s = 0; s < 16u; s++)
        if ((s & low) == bits) m |= 1u << s;
    return m;
}

IBCC_API uint32_t ibcc_topo_path_sl(const ibcc_topo *t, uint32_t src,
                                    uint32_t dst, uint32_t cls)
{
    if (!t || src >= t->host_count || dst >= t->host_count
        || cls >= (16u >> t->sl_bits))
        return IBCC_FABRIC_NONE;
    return (cls << t->sl_bits) | ibcc_topo_bits_(t, src, dst);
}

/* The dragonfly's port on switch j (of a) toward local switch k. */
static uint32_t ibcc_dfly_local_(uint32_t p, uint32_t j, uint32_t k)
{
    return p + (k < j ? k : k - 1u);
}

static ibcc_result ibcc_topo_dfly_(ibcc_topo *t, uint32_t a, uint32_t p,
                                   uint32_t h, uint32_t g, uint32_t routing,
                                   uint32_t vls,
                                   const ibcc_fabric_allocator *al,
                                   char *why, size_t wn)
{
    uint64_t S64 = (uint64_t)a * g, P = (uint64_t)p + a - 1u + h;
    uint32_t S, H, nl, i, j, k, l = 0, n = 0, G = p + a - 1u;
    ibcc_result r;
    if (a < 1u || p < 1u || h < 1u) {
        snprintf(why, wn, "%s %u: at least 1", a < 1u ? "a" : p < 1u ? "p"
                 : "h", a < 1u ? a : p < 1u ? p : h);
        return IBCC_ERR_RANGE;
    }
    if (g < 2u || (uint64_t)g > (uint64_t)a * h + 1u) {
        snprintf(why, wn, "groups %u: 2 .. a*h + 1 = %llu (one global "
                 "link per pair of groups)", g,
                 (unsigned long long)((uint64_t)a * h + 1u));
        return IBCC_ERR_RANGE;
    }
    if (vls != 1u && vls != 2u && vls != 4u && vls != 8u) {
        snprintf(why, wn, "vls %u: 1, 2, 4 or 8", vls);
        return IBCC_ERR_RANGE;
    }
    if (routing == IBCC_TOPO_VALIANT) {
        snprintf(why, wn, "valiant routing: the fabric routes by "
                 "destination host only (one address per host, no LMC), "
                 "so no table can send a packet through a chosen group");
        return IBCC_ERR_UNSUPPORTED;
    }
    if (routing != IBCC_TOPO_MINIMAL) {
        snprintf(why, wn, "routing %u: IBCC_TOPO_MINIMAL (or VALIANT, "
                 "refused)", routing);
        return IBCC_ERR_RANGE;
    }
    if (P > IBCC_ARBITER_MAX_PORTS) {
        snprintf(why, wn, "p + a - 1 + h = %llu ports: at most %u",
                 (unsigned long long)P, IBCC_ARBITER_MAX_PORTS);
        return IBCC_ERR_CAPACITY;
    }
    if (S64 > (1u << 20) || S64 * p > (1u << 20)) {
        snprintf(why, wn, "a * groups * p: over 2^20 switches or hosts");
        return IBCC_ERR_CAPACITY;
    }
    S = (uint32_t)S64;
    H = S * p;
    nl = H + g * (a * (a - 1u) / 2u) + g * (g - 1u) / 2u;
    r = ibcc_topo_alloc_(t, H, H + S, nl, al);
    if (r != IBCC_OK) return r;
    for (i = 0; i < H; i++) {
        t->nodes[i].kind = IBCC_FABRIC_HOST;
        t->nodes[i].ports = 1;
        t->links[l].a = i;
        t->links[l].b = H + i / p;
        t->links[l++].b_port = i % p;
    }
    for (i = 0; i < S; i++) {
        t->nodes[H + i].kind = IBCC_FABRIC_SWITCH;
        t->nodes[H + i].ports = (uint32_t)P;
    }
    for (i = 0; i < g; i++)                 /* local: all to all */
        for (j = 0; j < a; j++)
            for (k = j + 1u; k < a; k++) {
                t->links[l].a = H + i * a + j;
                t->links[l].a_port = ibcc_dfly_local_(p, j, k);
                t->links[l].b = H + i * a + k;
                t->links[l++].b_port = ibcc_dfly_local_(p, k, j);
            }
    for (i = 0; i < g; i++)                 /* global: link k -> i+k+1 */
        for (k = 0; k + 1u < g; k++) {
            uint32_t gj = (i + k + 1u) % g, kb = g - 2u - k;
            if (gj < i) continue;           /* each pair once */
            t->links[l].a = H + i * a + k / h;
            t->links[l].a_port = G + k % h;
            t->links[l].b = H + gj * a + kb / h;
            t->links[l++].b_port = G + kb % h;
        }
    t->link_count = l;
    for (i = 0; i < H; i++) {               /* minimal routes */
        uint32_t gd = i / p / a, sd = i / p % a;
        for (j = 0; j < S; j++) {
            uint32_t gi = j / a, sj = j % a, port;
            if (gi == gd)
                port = sj == sd ? i % p : ibcc_dfly_local_(p, sj, sd);
            else {
                uint32_t kk = (gd + g - gi - 1u) % g;
                port = sj == kk / h ? G + kk % h
                                    : ibcc_dfly_local_(p, sj, kk / h);
            }
            t->routes[n].sw = H + j;
            t->routes[n].dst = i;
            t->routes[n++].port = port;
        }
    }
    t->route_count = n;
    t->routing = routing;
    t->vls = vls;
    if (vls > 1u) {
        uint32_t s, m = 0, lk;
        t->sl2vl_set = 1;
        for (s = 0; s < 16u; s++)
            t->sl2vl[s] = (uint8_t)((2u * s) & (vls - 1u));
        t->sl2vls = (ibcc_fabric_sl2vl *)ibcc_fab_alloc_(&t->al,
                        ibcc_fab_mul_((size_t)S * h, (size_t)(a > 1u ? a - 1u
                                      : 1u) * sizeof *t->sl2vls));
        if (!t->sl2vls) { ibcc_topo_free(t); return IBCC_ERR_NOMEM; }
        for (j = 0; j < S; j++)
            for (k = 0; k < h; k++) {
                if ((j % a) * h + k + 1u >= g) continue;    /* unused */
                for (lk = p; lk < G; lk++) {
                    ibcc_fabric_sl2vl *e = &t->sl2vls[m++];
                    e->sw = H + j;
                    e->in_port = G + k;
                    e->out_port = lk;
                    for (s = 0; s < 16u; s++)
                        e->vl[s] = (uint8_t)((2u * s + 1u) & (vls - 1u));
                }
            }
        t->sl2vl_count = m;
    }
    return IBCC_OK;
}

IBCC_API ibcc_result ibcc_topo_dragonfly(ibcc_topo *t, uint32_t a,
                                         uint32_t p, uint32_t h, uint32_t g,
                                         uint32_t routing, uint32_t vls,
                                         const ibcc_fabric_allocator *al)
{
    char why[200];
    ibcc_result r;
    if (!t) return IBCC_ERR_NULL;
    memset(t, 0, sizeof *t);
    why[0] = 0;
    r = ibcc_topo_dfly_(t, a, p, h, g, routing, vls, al, why, sizeof why);
    if (r == IBCC_OK) return r;
    ibcc_topo_free(t);
    return ibcc_fab_err_(&t->error, r, NULL, 0, "%s",
                         why[0] ? why : ibcc_result_str(r));
}

static ibcc_result ibcc_topo_mesh_(ibcc_topo *t, uint32_t x, uint32_t y,
                                   uint32_t hps, int torus, uint32_t root,
                                   const ibcc_fabric_allocator *al)
{
    uint32_t S, H, i, l = 0, nl, *dist, *queue, qh = 0, qt = 0;
    ibcc_result r;
    if (!t) return IBCC_ERR_NULL;
    memset(t, 0, sizeof *t);            /* a refusal leaves it zero */
    if (x < 1u || y < 1u || hps < 1u) return IBCC_ERR_RANGE;
    if ((uint64_t)x * y > (1u << 20) || (uint64_t)x * y * hps > (1u << 20))
        return IBCC_ERR_CAPACITY;
    if (hps + 4u > IBCC_ARBITER_MAX_PORTS) return IBCC_ERR_CAPACITY;
    S = x * y;
    H = S * hps;
    if (root >= S) return IBCC_ERR_RANGE;
    /* links: hosts, +x neighbours, +y neighbours (wrapping in a torus when
       the dimension is above 2) */
    nl = H + (x - 1u) * y + x * (y - 1u);
    if (torus && x > 2u) nl += y;
    if (torus && y > 2u) nl += x;
    r = ibcc_topo_alloc_(t, H, H + S, nl, al);
    if (r != IBCC_OK) return r;
    for (i = 0; i < H; i++) {
        t->nodes[i].kind = IBCC_FABRIC_HOST;
        t->nodes[i].ports = 1;
        t->links[l].a = i;
        t->links[l].b = H + i / hps;
        t->links[l++].b_port = i % hps;
    }
    for (i = 0; i < S; i++) {
        uint32_t cx = i % x, cy = i / x;
        t->nodes[H + i].kind = IBCC_FABRIC_SWITCH;
        t->nodes[H + i].ports = hps + 4u;
        if (cx + 1u < x || (torus && x > 2u)) {       /* +x */
            t->links[l].a = H + i;
            t->links[l].a_port = hps;
            t->links[l].b = H + cy * x + (cx + 1u) % x;
            t->links[l++].b_port = hps + 1u;
        }
        if (cy + 1u < y || (torus && y > 2u)) {       /* +y */
            t->links[l].a = H + i;
            t->links[l].a_port = hps + 2u;
            t->links[l].b = H + ((cy + 1u) % y) * x + cx;
            t->links[l++].b_port = hps + 3u;
        }
    }
    /* rank: minus the distance from the root (breadth first) */
    dist = (uint32_t *)ibcc_fab_alloc_(&t->al, ibcc_fab_mul_(S, 4));
    queue = (uint32_t *)ibcc_fab_alloc_(&t->al, ibcc_fab_mul_(S, 4));
    if (!dist || !queue) {
        ibcc_fab_free_(&t->al, dist);
        ibcc_fab_free_(&t->al, queue);
        ibcc_topo_free(t);
        return IBCC_ERR_NOMEM;
    }
    for (i = 0; i < S; i++) dist[i] = UINT32_MAX;
    dist[root] = 0;
    queue[qt++] = root;
    while (qh < qt) {
        uint32_t u = queue[qh++], cx = u % x, cy = u / x, m, v[4], nv = 0;
        if (cx + 1u < x || (torus && x > 2u)) v[nv++] = cy * x + (cx + 1u) % x;
        if (cx > 0u || (torus && x > 2u)) v[nv++] = cy * x + (cx + x - 1u) % x;
        if (cy + 1u < y || (torus && y > 2u)) v[nv++] = ((cy + 1u) % y) * x + cx;
        if (cy > 0u || (torus && y > 2u)) v[nv++] = ((cy + y - 1u) % y) * x + cx;
        for (m = 0; m < nv; m++)
            if (dist[v[m]] == UINT32_MAX) {
                dist[v[m]] = dist[u] + 1u;
                queue[qt++] = v[m];
            }
    }
    for (i = 0; i < S; i++) t->rank[H + i] = (1u << 21) - dist[i];
    ibcc_fab_free_(&t->al, dist);
    ibcc_fab_free_(&t->al, queue);
    r = ibcc_topo_route_(t);
    if (r != IBCC_OK) ibcc_topo_free(t);
    return r;
}

/* ---- credit loops -------------------------------------------------------
   A vertex is a (switch-to-switch channel, VL) pair, index m * nv + vl.
   Per destination and SL (or per source, destination and SL when the
   caller names each pair's SLs) a breadth-first walk over the (channel,
   VL) pairs its packets can use marks, for every vertex, the (out port,
   out VL) pairs its packets take at the next switch (a bit set per
   vertex); the VLs come from ibcc_fab_vl_at_ on a shell fabric of the
   desc's VL settings, as the fabric resolves them. Tarjan's algorithm
   then finds the strongly connected components of that graph,
   iteratively. */
#define IBCC_CL_NONE_ 0xFFFFFFFFu
typedef struct ibcc_cl_ {
    ibcc_fabric_allocator al;
    const ibcc_fabric_desc *d;
    ibcc_fabric *vf;        /* VL tables (NULL: one VL, every SL on VL 0) */
    uint32_t nv;            /* VLs per channel in the graph */
    uint32_t *pbase;        /* node -> first port slot (node_count + 1) */
    uint32_t *pchan;        /* port slot -> channel leaving it, or NONE */
    uint32_t *sidx;         /* channel -> switch-to-switch index, or NONE */
    uint32_t *schan;        /* switch-to-switch index -> channel */
    uint32_t *ebase;        /* vertex -> first word of its bit set */
    uint64_t *bits;
    uint32_t *rbase, *rlist;/* routes grouped by destination */
    uint32_t *next;         /* switch -> out port for the current dst */
    uint32_t *seen;         /* (channel, VL) -> last walk that queued it */
    uint32_t *umark;        /* switch -> last dst + 1 counted unrouted */
    uint32_t *smark, *svl;  /* switch -> the walk and VL its hosts
                               started in (once each when the input port
                               does not matter) */
    uint32_t *queue;        /* walk: (switch, in channel, in VL) */
    uint32_t walk;          /* walks so far (seen's key) */
    uint32_t nlid;          /* LIDs per host (2^lmc) */
    uint32_t cur;           /* the current destination LID + 1 (umark) */
} ibcc_cl_;

static uint32_t ibcc_cl_far_(const ibcc_fabric_desc *d, uint32_t c)
{
    const ibcc_fabric_link *l = &d->links[c >> 1];
    return (c & 1u) ? l->a : l->b;
}
static uint32_t ibcc_cl_far_port_(const ibcc_fabric_desc *d, uint32_t c)
{
    const ibcc_fabric_link *l = &d->links[c >> 1];
    return (c & 1u) ? l->a_port : l->b_port;
}
static uint32_t ibcc_cl_ports_(const ibcc_fabric_node *n)
{
    return n->kind == IBCC_FABRIC_SWITCH ? n->ports : 1u;
}
static void ibcc_cl_free_(ibcc_cl_ *c)
{
    void *const v[] = {c->pbase, c->pchan, c->sidx, c->schan, c->ebase,
                       c->bits, c->rbase, c->rlist, c->next, c->seen,
                       c->umark, c->smark, c->svl, c->queue};
    size_t i;
    for (i = 0; i < sizeof v / sizeof v[0]; i++) ibcc_fab_free_(&c->al, v[i]);
    ibcc_fabric_destroy(c->vf);
}
static uint32_t *ibcc_cl_u32_(ibcc_cl_ *c, size_t n)
{
    return (uint32_t *)ibcc_fab_alloc_(&c->al, ibcc_fab_mul_(n ? n : 1u, 4));
}

/* Whether d asks for anything but one VL everywhere. */
static int ibcc_cl_has_vls_(const ibcc_fabric_desc *d)
{
    return d->vls > 1u || d->sl2vl_set || (d->qos && d->qos->qos)
           || d->port_vl_count || d->sl2vl_count;
}

/* Port maps, channel indices, routes by destination; RANGE on a link or
   route that names what does not exist. */
static ibcc_result ibcc_cl_setup_(ibcc_cl_ *c, ibcc_credit_loops *o)
{
    const ibcc_fabric_desc *d = c->d;
    uint32_t nn = d->node_count, i, m = 0;
    uint64_t slots = 0, words = 0;
    if (!(c->pbase = ibcc_cl_u32_(c, (size_t)nn + 1u))) return IBCC_ERR_NOMEM;
    for (i = 0; i < nn; i++) {
        c->pbase[i] = (uint32_t)slots;
        slots += ibcc_cl_ports_(&d->nodes[i]);
        if (slots >= IBCC_CL_NONE_)
            return ibcc_fab_err_(d->error, IBCC_ERR_RANGE, NULL, 0,
                                 "credit loops: over 2^32 ports");
    }
    c->pbase[nn] = (uint32_t)slots;
    c->pchan = ibcc_cl_u32_(c, (size_t)slots);
    c->sidx = ibcc_cl_u32_(c, (size_t)d->link_count * 2u);
    c->schan = ibcc_cl_u32_(c, (size_t)d->link_count * 2u);
    c->next = ibcc_cl_u32_(c, nn);
    c->umark = ibcc_cl_u32_(c, nn);
    c->smark = ibcc_cl_u32_(c, nn);
    c->svl = ibcc_cl_u32_(c, nn);
    if (d->lmc > 7u)
        return ibcc_fab_err_(d->error, IBCC_ERR_RANGE, NULL, 0,
                             "credit loops: lmc %u: 0..7", d->lmc);
    c->nlid = 1u << d->lmc;
    c->rbase = ibcc_cl_u32_(c, (size_t)nn * c->nlid + 1u);
    c->rlist = ibcc_cl_u32_(c, d->route_count);
    if (!c->pchan || !c->sidx || !c->schan || !c->next || !c->umark ||
        !c->smark || !c->svl || !c->rbase || !c->rlist)
        return IBCC_ERR_NOMEM;
    memset(c->smark, 0, (size_t)nn * 4u);
    memset(c->rbase, 0, ((size_t)nn * c->nlid + 1u) * 4u);
    memset(c->pchan, 0xFF, (size_t)slots * 4u);
    memset(c->next, 0xFF, (size_t)nn * 4u);
    for (i = 0; i < d->link_count; i++) {
        const ibcc_fabric_link *l = &d->links[i];
        if (l->a >= nn || l->b >= nn || l->a == l->b ||
            l->a_port >= ibcc_cl_ports_(&d->nodes[l->a]) ||
            l->b_port >= ibcc_cl_ports_(&d->nodes[l->b]) ||
            c->pchan[c->pbase[l->a] + l->a_port] != IBCC_CL_NONE_ ||
            c->pchan[c->pbase[l->b] + l->b_port] != IBCC_CL_NONE_)
            return ibcc_fab_err_(d->error, IBCC_ERR_RANGE, NULL, 0,
                "credit loops: link %u (%u port %u - %u port %u) names a "
                "node or port that does not exist or is taken", i, l->a,
                l->a_port, l->b, l->b_port);
        c->pchan[c->pbase[l->a] + l->a_port] = 2u * i;
        c->pchan[c->pbase[l->b] + l->b_port] = 2u * i + 1u;
    }
    for (i = 0; i < d->route_count; i++) {
        const ibcc_fabric_route *r = &d->routes[i];
        if (r->sw >= nn || d->nodes[r->sw].kind != IBCC_FABRIC_SWITCH ||
            r->dst >= nn || d->nodes[r->dst].kind == IBCC_FABRIC_SWITCH ||
            r->port >= d->nodes[r->sw].ports || r->lid >= c->nlid)
            return ibcc_fab_err_(d->error, IBCC_ERR_RANGE, NULL, 0,
                "credit loops: route %u (switch %u, destination %u LID %u, "
                "port %u) names a node, LID or port that does not exist", i,
                r->sw, r->dst, r->lid, r->port);
        c->rbase[r->dst * c->nlid + r->lid + 1u]++;
    }
    /* the VLs, as the fabric would resolve them */
    c->nv = 1;
    if (ibcc_cl_has_vls_(d)) {
        ibcc_result r = ibcc_fab_vl_shell_(d, &c->al, &c->vf);
        if (r != IBCC_OK) return r;
        c->nv = c->vf->nlanes - 1u;
    }
    c->ebase = ibcc_cl_u32_(c, (size_t)d->link_count * 2u * c->nv + 1u);
    c->seen = ibcc_cl_u32_(c, (size_t)d->link_count * 2u * c->nv);
    c->queue = ibcc_cl_u32_(c, ((size_t)d->link_count * 2u * c->nv + nn)
                               * 3u);
    if (!c->ebase || !c->seen || !c->queue) return IBCC_ERR_NOMEM;
    memset(c->seen, 0, (size_t)d->link_count * 2u * c->nv * 4u);
    for (i = 0; i < 2u * d->link_count; i++) {
        uint32_t far = ibcc_cl_far_(d, i), near = ibcc_cl_far_(d, i ^ 1u), v;
        c->sidx[i] = IBCC_CL_NONE_;
        if (d->nodes[far].kind == IBCC_FABRIC_SWITCH &&
            d->nodes[near].kind == IBCC_FABRIC_SWITCH) {
            for (v = 0; v < c->nv; v++) {
                c->ebase[m * c->nv + v] = (uint32_t)words;
                words += ((uint64_t)d->nodes[far].ports * c->nv + 63u) / 64u;
            }
            c->sidx[i] = m;
            c->schan[m++] = i;
            if (words >= IBCC_CL_NONE_)
                return ibcc_fab_err_(d->error, IBCC_ERR_CAPACITY, NULL, 0,
                                     "credit loops: graph too large");
        }
    }
    c->ebase[m * c->nv] = (uint32_t)words;
    o->channels = m;
    o->vls = c->nv;
    if (!(c->bits = (uint64_t *)ibcc_fab_alloc_(&c->al,
                        ibcc_fab_mul_(words ? words : 1u, 8))))
        return IBCC_ERR_NOMEM;
    memset(c->bits, 0, (size_t)(words ? words : 1u) * 8u);
    for (i = 0; i < nn * c->nlid; i++) c->rbase[i + 1u] += c->rbase[i];
    {   /* fill cursors */
        uint32_t *cur = c->nlid == 1u ? c->next
                        : ibcc_cl_u32_(c, (size_t)nn * c->nlid);
        if (!cur) return IBCC_ERR_NOMEM;
        memcpy(cur, c->rbase, (size_t)nn * c->nlid * 4u);
        for (i = 0; i < d->route_count; i++)
            c->rlist[cur[d->routes[i].dst * c->nlid
                         + d->routes[i].lid]++] = i;
        if (cur != c->next) ibcc_fab_free_(&c->al, cur);
    }
    memset(c->next, 0xFF, (size_t)nn * 4u);
    return IBCC_OK;
}

/* Packets of SL sl for `dst` arriving at switch s on channel cin, VL
   vin, leave on s's route and the VL the tables give: record the
   dependency, queue the next switch once per (channel, VL). */
static void ibcc_cl_visit_(ibcc_cl_ *c, uint32_t dst, uint32_t sl,
                           uint32_t s, uint32_t cin, uint32_t vin,
                           uint32_t *tail, ibcc_credit_loops *o)
{
    const ibcc_fabric_desc *d = c->d;
    uint32_t p = c->next[s], cout, far, vout = 0, key;
    cout = p == IBCC_CL_NONE_ ? IBCC_CL_NONE_ : c->pchan[c->pbase[s] + p];
    far = cout == IBCC_CL_NONE_ ? IBCC_CL_NONE_ : ibcc_cl_far_(d, cout);
    if (far == IBCC_CL_NONE_ ||
        (d->nodes[far].kind != IBCC_FABRIC_SWITCH && far != dst)) {
        if (c->umark[s] != c->cur) { c->umark[s] = c->cur; o->unrouted++; }
        return;
    }
    if (d->nodes[far].kind != IBCC_FABRIC_SWITCH) return;   /* delivered */
    if (c->vf) {
        vout = ibcc_fab_vl_at_(c->vf, s, ibcc_cl_far_port_(d, cin), p, sl);
        if (vout >= c->nv) return;          /* 15: the table drops it */
    }
    if (c->sidx[cin] != IBCC_CL_NONE_) {
        uint32_t b = p * c->nv + vout;
        c->bits[c->ebase[c->sidx[cin] * c->nv + vin] + b / 64u]
            |= (uint64_t)1 << (b % 64u);
    }
    key = cout * c->nv + vout;
    if (c->seen[key] == c->walk) return;
    c->seen[key] = c->walk;
    c->queue[(*tail)++] = far;
    c->queue[(*tail)++] = cout;
    c->queue[(*tail)++] = vout;
}

/* One walk: packets of SL sl for dst from host src (NONE: from every
   other host). c->next holds dst's routes. */
static void ibcc_cl_walk_(ibcc_cl_ *c, uint32_t dst, uint32_t src,
                          uint32_t sl, ibcc_credit_loops *o)
{
    const ibcc_fabric_desc *d = c->d;
    uint32_t i, head = 0, tail = 0;
    c->walk++;
    for (i = src == IBCC_CL_NONE_ ? 0 : src;
         i < (src == IBCC_CL_NONE_ ? d->node_count : src + 1u); i++) {
        uint32_t ch, s, v = 0;
        if (i == dst || d->nodes[i].kind == IBCC_FABRIC_SWITCH) continue;
        ch = c->pchan[c->pbase[i]];
        if (ch == IBCC_CL_NONE_) continue;
        s = ibcc_cl_far_(d, ch);
        if (d->nodes[s].kind != IBCC_FABRIC_SWITCH) continue;
        if (c->vf) {
            v = ibcc_fab_vl_at_(c->vf, i, 0, 0, sl);
            if (v >= c->nv) continue;
        }
        /* without (input, output) tables the hosts of one switch that
           start on one VL make the same walk: the first one does */
        if (!(c->vf && c->vf->iotab && c->vf->iotab[s])) {
            if (c->smark[s] == c->walk && c->svl[s] == v) continue;
            c->smark[s] = c->walk;
            c->svl[s] = v;
        }
        ibcc_cl_visit_(c, dst, sl, s, ch, v, &tail, o);
    }
    while (head < tail) {
        uint32_t s = c->queue[head], cin = c->queue[head + 1u];
        uint32_t vin = c->queue[head + 2u];
        head += 3u;
        ibcc_cl_visit_(c, dst, sl, s, cin, vin, &tail, o);
    }
}

static void ibcc_cl_routes_(ibcc_cl_ *c, uint32_t dst, uint32_t lid,
                            int set)
{
    const ibcc_fabric_desc *d = c->d;
    uint32_t i, a = dst * c->nlid + lid;
    c->cur = a + 1u;
    for (i = c->rbase[a]; i < c->rbase[a + 1u]; i++)
        c->next[d->routes[c->rlist[i]].sw] = set
            ? d->routes[c->rlist[i]].port : IBCC_CL_NONE_;
}

/* rep[s]: the lowest SL whose VLs are SL s's at every port and switch
   (walking one SL of each class finds every dependency). */
static void ibcc_cl_sl_classes_(const ibcc_cl_ *c, uint32_t *rep)
{
    const ibcc_fabric *f = c->vf;
    uint32_t s, t, i;
    for (s = 0; s < IBCC_QOS_SLS; s++) {
        rep[s] = s;
        if (!f) { rep[s] = 0; continue; }
        for (t = 0; t < s; t++) {
            int same = rep[t] == t;
            for (i = 0; same && i < f->nports; i++)
                same = f->ptab[(size_t)i * IBCC_QOS_SLS + s]
                       == f->ptab[(size_t)i * IBCC_QOS_SLS + t];
            for (i = 0; same && f->iotab && i < f->nn; i++) {
                size_t k, n;
                if (!f->iotab[i]) continue;
                n = (size_t)f->node[i].ports * f->node[i].ports;
                for (k = 0; same && k < n; k++)
                    same = f->iotab[i][k * IBCC_QOS_SLS + s]
                           == f->iotab[i][k * IBCC_QOS_SLS + t];
            }
            if (same) { rep[s] = t; break; }
        }
    }
}

/* The dependency edges of vertex v, one at a time: *k walks its bits. */
static uint32_t ibcc_cl_edge_(const ibcc_cl_ *c, uint32_t v, uint32_t *k)
{
    const ibcc_fabric_desc *d = c->d;
    uint32_t ch = c->schan[v / c->nv], at = ibcc_cl_far_(d, ch);
    uint32_t nb = (c->ebase[v + 1u] - c->ebase[v]) * 64u;
    while (*k < nb) {
        uint32_t b = (*k)++, p = b / c->nv;
        uint32_t out;
        if (!(c->bits[c->ebase[v] + b / 64u] >> (b % 64u) & 1u)) continue;
        out = c->pchan[c->pbase[at] + p];
        if (c->sidx[out] != IBCC_CL_NONE_)
            return c->sidx[out] * c->nv + b % c->nv;
    }
    return IBCC_CL_NONE_;
}

/* Tarjan's strongly connected components, iteratively; comp[v] = the
   component's lowest index when it is cyclic, NONE otherwise. Scratch:
   idx, low, stk (m each), call (2m). */
static void ibcc_cl_scc_(const ibcc_cl_ *c, uint32_t m, uint32_t *idx,
                         uint32_t *low, uint32_t *stk, uint32_t *call,
                         uint32_t *comp, ibcc_credit_loops *o)
{
    uint32_t v, counter = 1, sp = 0, cp = 0;
    for (v = 0; v < m; v++) { idx[v] = 0; comp[v] = IBCC_CL_NONE_; }
    for (v = 0; v < m; v++) {
        if (idx[v]) continue;
        idx[v] = low[v] = counter++;
        stk[sp++] = v;
        call[cp++] = v; call[cp++] = 0;
        while (cp) {
            uint32_t u = call[cp - 2u], k = call[cp - 1u], w;
            w = ibcc_cl_edge_(c, u, &k);
            call[cp - 1u] = k;
            if (w != IBCC_CL_NONE_) {
                if (!idx[w]) {
                    idx[w] = low[w] = counter++;
                    stk[sp++] = w;
                    call[cp++] = w; call[cp++] = 0;
                } else if (comp[w] == IBCC_CL_NONE_ && idx[w] < low[u]) {
                    low[u] = idx[w];    /* w still on the stack */
                }
                continue;
            }
            cp -= 2u;
            if (cp && low[u] < low[call[cp - 2u]])
                low[call[cp - 2u]] = low[u];
            if (low[u] == idx[u]) {     /* u roots a component */
                uint32_t n = 0, lo = u, x, i;
                for (i = sp; i-- > 0;) {
                    n++;
                    if (stk[i] < lo) lo = stk[i];
                    if (stk[i] == u) break;
                }
                do {
                    x = stk[--sp];
                    comp[x] = n > 1u ? lo : IBCC_CL_NONE_ - 1u;
                } while (x != u);
                if (n > 1u) { o->loops++; o->loop_channels += n; }
            }
        }
    }
    for (v = 0; v < m; v++)
        if (comp[v] == IBCC_CL_NONE_ - 1u) comp[v] = IBCC_CL_NONE_;
}

/* The shortest cycle through `start` inside its component (breadth
   first; par and q are m-sized scratch). */
static void ibcc_cl_cycle_(const ibcc_cl_ *c, uint32_t m, uint32_t start,
                           const uint32_t *comp, uint32_t *par, uint32_t *q,
                           ibcc_credit_loops *o)
{
    uint32_t head = 0, tail = 0, v, end = IBCC_CL_NONE_, n = 0, x;
    for (v = 0; v < m; v++) par[v] = IBCC_CL_NONE_;
    par[start] = start;
    q[tail++] = start;
    while (head < tail && end == IBCC_CL_NONE_) {
        uint32_t u = q[head++], k = 0, w;
        while ((w = ibcc_cl_edge_(c, u, &k)) != IBCC_CL_NONE_) {
            if (comp[w] != comp[start]) continue;
            if (w == start) { end = u; break; }
            if (par[w] == IBCC_CL_NONE_) { par[w] = u; q[tail++] = w; }
        }
    }
    if (end == IBCC_CL_NONE_) return;   /* cannot happen in a cyclic SCC */
    for (x = end; ; x = par[x]) { n++; if (x == start) break; }
    o->cycle_len = n;
    /* path start -> ... -> end, written backwards from end */
    for (x = end; ; x = par[x]) {
        n--;
        if (n < IBCC_CYCLE_SHOW) {
            o->cycle[n] = c->schan[x / c->nv];
            o->cycle_vl[n] = (uint8_t)(x % c->nv);
        }
        if (x == start) break;
    }
}

IBCC_API ibcc_result ibcc_fabric_credit_loops_sl(const ibcc_fabric_desc *d,
        const ibcc_credit_loops_sls *sls, ibcc_credit_loops *out,
        const ibcc_fabric_allocator *al)
{
    ibcc_cl_ c;
    ibcc_credit_loops o;
    ibcc_result r;
    uint32_t i, m, rep[IBCC_QOS_SLS], mask, s, *scratch = NULL;
    if (!d || !out || !d->nodes || (d->link_count && !d->links) ||
        (d->route_count && !d->routes))
        return IBCC_ERR_NULL;
    mask = sls ? sls->mask : 0xFFFFu;
    if (mask == 0) mask = 0xFFFFu;
    if (mask > 0xFFFFu)
        return ibcc_fab_err_(d->error, IBCC_ERR_RANGE, NULL, 0,
                             "credit loops: SL mask 0x%x: SLs 0..15",
                             (unsigned)mask);
    memset(&c, 0, sizeof c);
    memset(&o, 0, sizeof o);
    if (al) c.al = *al;
    if ((c.al.alloc == NULL) != (c.al.free == NULL)) return IBCC_ERR_NULL;
    c.d = d;
    if (d->link_count > 0x3FFFFFFFu)
        return ibcc_fab_err_(d->error, IBCC_ERR_RANGE, NULL, 0,
                             "credit loops: over 2^30 links");
    r = ibcc_cl_setup_(&c, &o);
    if (r != IBCC_OK) { ibcc_cl_free_(&c); return r; }
    ibcc_cl_sl_classes_(&c, rep);
    for (i = 0; i < d->node_count * c.nlid; i++) {
        uint32_t src, lid = i % c.nlid, dst = i / c.nlid;
        if (d->nodes[dst].kind == IBCC_FABRIC_SWITCH) continue;
        ibcc_cl_routes_(&c, dst, lid, 1);
        if (!sls || (!sls->pair && !sls->pair_lid)) {
            uint32_t done = 0;      /* one SL of each class in the mask */
            for (s = 0; s < IBCC_QOS_SLS; s++)
                if ((mask >> s & 1u) && !(done >> rep[s] & 1u)) {
                    done |= 1u << rep[s];
                    ibcc_cl_walk_(&c, dst, IBCC_CL_NONE_, s, &o);
                }
        } else {
            for (src = 0; src < d->node_count; src++) {
                uint32_t pm, done = 0;
                if (src == dst || d->nodes[src].kind == IBCC_FABRIC_SWITCH)
                    continue;
                pm = (sls->pair_lid ? sls->pair_lid(sls->user, src, dst, lid)
                      : sls->pair(sls->user, src, dst)) & mask;
                for (s = 0; s < IBCC_QOS_SLS; s++)
                    if ((pm >> s & 1u) && !(done >> rep[s] & 1u)) {
                        done |= 1u << rep[s];
                        ibcc_cl_walk_(&c, dst, src, s, &o);
                    }
            }
        }
        ibcc_cl_routes_(&c, dst, lid, 0);
    }
    m = o.channels * c.nv;
    scratch = ibcc_cl_u32_(&c, (size_t)m * 6u);
    if (!scratch) { ibcc_cl_free_(&c); return IBCC_ERR_NOMEM; }
    for (i = 0; i < m; i++) {
        uint32_t k = 0;
        while (ibcc_cl_edge_(&c, i, &k) != IBCC_CL_NONE_) o.dependencies++;
    }
    ibcc_cl_scc_(&c, m, scratch, scratch + m, scratch + 2u * m,
                 scratch + 3u * m, scratch + 5u * m, &o);
    for (i = 0; i < m; i++)
        if (scratch[5u * (size_t)m + i] == i) {   /* lowest cyclic */
            ibcc_cl_cycle_(&c, m, i, scratch + 5u * (size_t)m, scratch,
                           scratch + m, &o);
            break;
        }
    ibcc_fab_free_(&c.al, scratch);
    ibcc_cl_free_(&c);
    *out = o;
    return IBCC_OK;
}

IBCC_API ibcc_result ibcc_fabric_credit_loops(const ibcc_fabric_desc *d,
        ibcc_credit_loops *out, const ibcc_fabric_allocator *al)
{
    return ibcc_fabric_credit_loops_sl(d, NULL, out, al);
}

/* ---- two-switch builder -------------------------------------------------- */
IBCC_API ibcc_result ibcc_twoswitch_build(ibcc_twoswitch *ts, uint32_t L,
                                          uint32_t R, ibcc_fabric_desc *d)
{
    uint32_t i, nh, h, n = 0;
    if (!ts || !d) return IBCC_ERR_NULL;
    if (L == 0 || R == 0 || L > IBCC_TWOSWITCH_MAX || R > IBCC_TWOSWITCH_MAX)
        return ibcc_fab_err_(d->error, IBCC_ERR_RANGE, NULL, 0,
                             "%s %u: 1..%u sources", L == 0
                             || L > IBCC_TWOSWITCH_MAX ? "L (local)"
                                                       : "R (remote)",
                             L == 0 || L > IBCC_TWOSWITCH_MAX ? L : R,
                             IBCC_TWOSWITCH_MAX);
    memset(ts, 0, sizeof *ts);
    ts->L = L;
    ts->R = R;
    ts->sw_a = 0;
    ts->sw_b = 1;
    ts->nodes[0].kind = IBCC_FABRIC_SWITCH;
    ts->nodes[0].ports = R + 2u;
    ts->nodes[1].kind = IBCC_FABRIC_SWITCH;
    ts->nodes[1].ports = L + 3u;
    nh = R + 1u + L + 2u;
    for (i = 0; i < nh; i++) {
        ts->nodes[2u + i].kind = IBCC_FABRIC_HOST;
        ts->nodes[2u + i].ports = 1u;
    }
    ts->node_count = 2u + nh;
    ts->av = 2u + R;
    ts->bc = 2u + R + 1u + L;
    ts->bv = ts->bc + 1u;
    /* links: remotes and AV on A, locals, BC, BV on B, then the ISL */
    for (i = 0; i <= R; i++) {
        ibcc_fabric_link *k = &ts->links[n++];
        k->a = 2u + i; k->a_port = 0; k->b = 0; k->b_port = i;
    }
    for (i = 0; i < L + 2u; i++) {
        ibcc_fabric_link *k = &ts->links[n++];
        k->a = 2u + R + 1u + i; k->a_port = 0; k->b = 1; k->b_port = i;
    }
    ts->links[n].a = 0; ts->links[n].a_port = R + 1u;
    ts->links[n].b = 1; ts->links[n].b_port = L + 2u;
    ts->isl_channel = 2u * n;                   /* a -> b direction */
    ts->root_channel = 2u * (R + 1u + L) + 1u;  /* B -> BC */
    ts->victim_channel = 2u * (R + 1u + L + 1u) + 1u;
    ts->link_count = ++n;
    /* routes: every switch to every host */
    n = 0;
    for (h = 2u; h < ts->node_count; h++) {
        ibcc_fabric_route *ra = &ts->routes[n++], *rb = &ts->routes[n++];
        ra->sw = 0; ra->dst = h;
        rb->sw = 1; rb->dst = h;
        if (h <= ts->av) {                      /* host on A */
            ra->port = h - 2u;
            rb->port = L + 2u;
        } else {                                /* host on B */
            ra->port = R + 1u;
            rb->port = h - (2u + R + 1u);
        }
    }
    ts->route_count = n;
    n = 0;
    for (i = 0; i < L; i++) {
        ibcc_fabric_flow *x = &ts->flows[n++];
        x->src = 2u + R + 1u + i; x->dst = ts->bc; x->cls = IBCC_TS_LOCAL;
    }
    for (i = 0; i < R; i++) {
        ibcc_fabric_flow *x = &ts->flows[n++];
        x->src = 2u + i; x->dst = ts->bc; x->cls = IBCC_TS_REMOTE;
    }
    ts->flows[n].src = ts->av;
    ts->flows[n].dst = ts->bv;
    ts->flows[n].cls = IBCC_TS_VICTIM;
    ts->flow_count = ++n;
    d->nodes = ts->nodes; d->node_count = ts->node_count;
    d->links = ts->links; d->link_count = ts->link_count;
    d->routes = ts->routes; d->route_count = ts->route_count;
    d->flows = ts->flows; d->flow_count = ts->flow_count;
    return ibcc_fab_err_(d->error, IBCC_OK, NULL, 0, "%s", "");
}
/* ---- L3 InfiniBand loader: implementation -------------------------------- */
#define IBCC_IBF_NONE_     UINT32_C(0xffffffff)
#define IBCC_IBF_MAXNODES_ (1u << 20)
#define IBCC_IBF_MAXPAIRS_ (UINT64_C(1) << 26)  /* switches x hosts tables */
#define IBCC_IBF_MAXROUTE_ (1u << 24)

/* Grows an array to hold `need` elements: the new pointer (old contents
   copied, old block freed), p itself when it is big enough, NULL when
   memory runs out (p untouched). */
static void *ibcc_ibf_grow_(ibcc_fabric_allocator *a, void *p, uint32_t *cap,
                            uint32_t need, size_t elem)
{
    void *q;
    uint32_t nc;
    if (need <= *cap && p) return p;
    nc = *cap ? *cap : 16u;
    while (nc < need) {
        if (nc > 0x3fffffffu) return NULL;
        nc *= 2u;
    }
    q = ibcc_fab_alloc_(a, ibcc_fab_mul_(nc, elem));
    if (!q) return NULL;
    if (p) {
        memcpy(q, p, (size_t)*cap * elem);
        ibcc_fab_free_(a, p);
    }
    *cap = nc;
    return q;
}

/* ---- dump text: the shared cursor (L0 text) plus the two number forms
   of ibnetdiscover and LFT dumps, each 1 when read ---------------------- */
static int ibcc_ibf_dec_(ibcc_cur_ *c, uint32_t max, uint32_t *v)
{
    uint64_t x = 0;
    if (ibcc_cur_digits_(c, 10u, max, &x) != IBCC_OK) return 0;
    *v = (uint32_t)x;
    return 1;
}
/* Bare hexadecimal (no 0x), 1 to 16 digits. */
static int ibcc_ibf_hex_(ibcc_cur_ *c, uint64_t *v)
{
    const char *s = c->p;
    return ibcc_cur_digits_(c, 16u, UINT64_MAX, v) == IBCC_OK && c->p - s <= 16;
}
/* "..." into buf (truncated); 0 without both quotes. */
static int ibcc_ibf_quoted_(ibcc_cur_ *c, char *buf, size_t cap)
{
    const char *q;
    size_t n;
    if (c->p >= c->e || *c->p != '"') return 0;
    q = c->p + 1;
    while (q < c->e && *q != '"') q++;
    if (q >= c->e) return 0;
    if (buf && cap) {
        n = (size_t)(q - (c->p + 1));
        if (n >= cap) n = cap - 1u;
        memcpy(buf, c->p + 1, n);
        buf[n] = 0;
    }
    c->p = q + 1;
    return 1;
}
/* "X-<guid>" with the type letter X. */
static int ibcc_ibf_nodename_(ibcc_cur_ *c, char *type, uint64_t *guid)
{
    if (c->e - c->p < 4 || c->p[0] != '"' || c->p[2] != '-') return 0;
    if (c->p[1] != 'S' && c->p[1] != 'H' && c->p[1] != 'R') return 0;
    *type = c->p[1];
    c->p += 3;
    if (!ibcc_ibf_hex_(c, guid)) return 0;
    return ibcc_cur_lit_(c, "\"");
}
/* Data rate of a width x speed token such as 4xQDR (bytes/s), 0 if the
   token is not one. Per lane: SDR 2, DDR 4, QDR 8 (8b/10b), FDR10 10,
   FDR 14.0625 x 64/66, EDR 25 (64b/66b), HDR 50, NDR 100, XDR 200
   Gbit/s. */
static ibcc_rate ibcc_ibf_rate_(const char *s, const char *e)
{
    static const char *const nm[] = {"SDR", "DDR", "QDR", "FDR10", "FDR",
                                     "EDR", "HDR", "NDR", "XDR"};
    /* per lane, bytes/s */
    static const ibcc_rate lane[] = {
        UINT64_C(250000000), UINT64_C(500000000), UINT64_C(1000000000),
        UINT64_C(1250000000), 0, UINT64_C(3125000000), UINT64_C(6250000000),
        UINT64_C(12500000000), UINT64_C(25000000000)};
    uint32_t w = 0;
    unsigned i;
    ibcc_cur_ c;
    c.p = s; c.e = e;
    if (!ibcc_ibf_dec_(&c, 12u, &w) || !ibcc_cur_lit_(&c, "x")) return 0;
    if (w != 1u && w != 2u && w != 4u && w != 8u && w != 12u) return 0;
    for (i = 0; i < sizeof nm / sizeof nm[0]; i++) {
        size_t n = strlen(nm[i]);
        if ((size_t)(e - c.p) == n && memcmp(c.p, nm[i], n) == 0) {
            if (i == 4u)        /* FDR: 14.0625e9 * 64/66 / 8 bytes/s */
                return (ibcc_rate)w * UINT64_C(112500000000) / 66u;
            return (ibcc_rate)w * lane[i];
        }
    }
    return 0;
}

/* The comment after '#' on a port or node line: a quoted description,
   "lid N", "lmc N" and a rate token, in any order; other words are
   skipped (s=.. w=.. v=.. e=.., slot N, (scp)). */
typedef struct ibcc_ibf_note_ {
    char desc[IBCC_IBF_NAME];
    uint32_t lid[2], nlid, lmc, has_lmc, has_desc;
    ibcc_rate rate;
} ibcc_ibf_note_;

static int ibcc_ibf_comment_(ibcc_cur_ *c, ibcc_ibf_note_ *n)
{
    memset(n, 0, sizeof *n);
    ibcc_cur_blanks_(c);
    if (c->p >= c->e) return 1;
    if (*c->p != '#') return 0;
    c->p++;
    for (;;) {
        const char *t;
        ibcc_cur_blanks_(c);
        if (c->p >= c->e) return 1;
        if (*c->p == '"') {
            char tmp[IBCC_IBF_NAME];
            if (!ibcc_ibf_quoted_(c, tmp, sizeof tmp)) return 0;
            if (!n->has_desc) {
                memcpy(n->desc, tmp, sizeof tmp);
                n->has_desc = 1;
            }
            continue;
        }
        t = ibcc_cur_tokend_(c);
        if (t - c->p == 3 && (memcmp(c->p, "lid", 3) == 0
                              || memcmp(c->p, "lmc", 3) == 0)) {
            int is_lid = c->p[1] == 'i';
            uint32_t v;
            c->p = t;
            ibcc_cur_blanks_(c);
            if (!ibcc_ibf_dec_(c, 0xffffffffu, &v)) return 0;  /* range: */
            if (is_lid) { if (n->nlid < 2u) n->lid[n->nlid++] = v; }
            else { n->lmc = v; n->has_lmc = 1; }
            continue;
        }
        if (!n->rate) n->rate = ibcc_ibf_rate_(c->p, t);
        c->p = t;
    }
}

/* ibcc_ibf_comment_'s LIDs and LMC against IBA's ranges: a port's LID is
   a unicast LID 1..0xBFFF (0: none assigned), the LMC 0..7, and the
   2^LMC LIDs from the first one stay unicast. RANGE naming file:line. */
static ibcc_result ibcc_ibf_lidrange_(const ibcc_ibf_note_ *n,
        const char *file, uint32_t line, ibcc_ibfabric_error *err)
{
    uint32_t i;
    if (n->has_lmc && n->lmc > 7u)
        return ibcc_fab_err_(err, IBCC_ERR_RANGE, file, line,
                             "LMC %lu is outside 0..7", (unsigned long)n->lmc);
    for (i = 0; i < n->nlid; i++)
        if (n->lid[i] > 0xbfffu)
            return ibcc_fab_err_(err, IBCC_ERR_RANGE, file, line,
                                 "LID %lu is not a unicast LID (1..0xBFFF)",
                                 (unsigned long)n->lid[i]);
    if (n->nlid && n->lid[0] + (1u << n->lmc) - 1u > 0xbfffu)
        return ibcc_fab_err_(err, IBCC_ERR_RANGE, file, line,
                             "LIDs %lu..%lu (LMC %lu) go beyond the unicast "
                             "LIDs (1..0xBFFF)", (unsigned long)n->lid[0],
                             (unsigned long)(n->lid[0] + (1u << n->lmc) - 1u),
                             (unsigned long)n->lmc);
    return IBCC_OK;
}

/* ---- parse state ------------------------------------------------------- */
typedef struct ibcc_ibf_rnode_ {        /* a node as declared */
    char type;                          /* 'S', 'H' (Ca) or 'R' (Rt) */
    uint32_t ports, lid, lmc, line;
    uint32_t slot;                      /* its first port slot */
    uint32_t conn;                      /* connected ports */
    uint64_t guid;
    char desc[IBCC_IBF_NAME];
} ibcc_ibf_rnode_;

typedef struct ibcc_ibf_rport_ {        /* a port line */
    uint32_t node, port;                /* raw node and its port */
    char ptype;
    uint64_t pguid;                     /* peer as written */
    uint32_t pport;
    uint64_t own_guid, peer_pguid;      /* port GUIDs, 0 = not given */
    uint32_t own_lid, own_lmc, peer_lid, has_own, has_peer_lid;
    ibcc_rate rate;
    uint32_t line;
} ibcc_ibf_rport_;

typedef struct ibcc_ibf_slot_ {         /* a port of a declared node */
    uint32_t peer, pport;               /* raw node, its port; NONE */
    uint32_t said;                      /* the node's own line listed it */
    uint32_t link;                      /* raw link index */
    uint32_t lid, lmc, lid_own, has_lid;
    uint64_t pguid;
} ibcc_ibf_slot_;

typedef struct ibcc_ibf_rlink_ {
    uint32_t a, ap, b, bp;
    ibcc_rate rate;
} ibcc_ibf_rlink_;

typedef struct ibcc_ibf_key_ { uint64_t guid; uint32_t idx; } ibcc_ibf_key_;

static int ibcc_ibf_keycmp_(const void *x, const void *y)
{
    const ibcc_ibf_key_ *a = (const ibcc_ibf_key_ *)x;
    const ibcc_ibf_key_ *b = (const ibcc_ibf_key_ *)y;
    if (a->guid != b->guid) return a->guid < b->guid ? -1 : 1;
    return a->idx < b->idx ? -1 : (a->idx > b->idx);
}
static uint32_t ibcc_ibf_lookup_(const ibcc_ibf_key_ *k, uint32_t n,
                                 uint64_t guid)
{
    uint32_t lo = 0, hi = n;
    while (lo < hi) {
        uint32_t mid = lo + (hi - lo) / 2u;
        if (k[mid].guid < guid) lo = mid + 1u; else hi = mid;
    }
    return lo < n && k[lo].guid == guid ? k[lo].idx : IBCC_IBF_NONE_;
}

typedef struct ibcc_ibf_parse_ {
    ibcc_fabric_allocator al;
    ibcc_ibf_rnode_ *node; uint32_t nnode, cnode;
    ibcc_ibf_rport_ *port; uint32_t nport, cport;
    ibcc_ibf_rlink_ *link; uint32_t nlink, clink;
    ibcc_ibf_slot_ *slot;
    ibcc_ibf_key_ *key;
    uint32_t *lidmap;
} ibcc_ibf_parse_;

static void ibcc_ibf_parse_free_(ibcc_ibf_parse_ *s)
{
    ibcc_fab_free_(&s->al, s->node);
    ibcc_fab_free_(&s->al, s->port);
    ibcc_fab_free_(&s->al, s->link);
    ibcc_fab_free_(&s->al, s->slot);
    ibcc_fab_free_(&s->al, s->key);
    ibcc_fab_free_(&s->al, s->lidmap);
}

static int ibcc_ibf_idline_(ibcc_cur_ *c)
{
    static const char *const ids[] = {"vendid=", "devid=", "sysimgguid=",
                                      "switchguid=", "caguid=", "rtguid="};
    unsigned i;
    for (i = 0; i < sizeof ids / sizeof ids[0]; i++)
        if (ibcc_cur_lit_(c, ids[i])) return 1;
    return 0;
}

/* One line of topology text; returns IBCC_OK or fills err. *cur is the
   raw node whose port lines may follow (NONE after an id line). */
static ibcc_result ibcc_ibf_line_(ibcc_ibf_parse_ *s, ibcc_cur_ *c,
                                  uint32_t line, uint32_t *cur,
                                  const char *file, ibcc_ibfabric_error *err)
{
    ibcc_ibf_note_ note;
    if (c->p >= c->e || *c->p == '#') return IBCC_OK;
    if (ibcc_ibf_idline_(c)) {
        uint64_t g;
        *cur = IBCC_IBF_NONE_;
        if (!ibcc_cur_lit_(c, "0x") || !ibcc_ibf_hex_(c, &g)) {
            ibcc_fab_err_(err, IBCC_ERR_PARSE, file, line,
                             "an id line needs a 0x-prefixed hex value");
            return IBCC_ERR_PARSE;
        }
        return IBCC_OK;
    }
    if (ibcc_cur_lit_(c, "Chassis ") || ibcc_cur_lit_(c, "Hostname:")
        || ibcc_cur_lit_(c, "Non-Chassis Nodes"))
        return IBCC_OK;                 /* ibnetdiscover -g grouping */
    if (ibcc_cur_lit_(c, "Switch") || ibcc_cur_lit_(c, "Ca")
        || ibcc_cur_lit_(c, "Rt")) {
        char want = c->p[-1] == 'h' ? 'S' : c->p[-1] == 'a' ? 'H' : 'R';
        char type = 0;
        uint32_t ports = 0;
        uint64_t guid = 0;
        ibcc_ibf_rnode_ *n;
        void *q;
        const char *at = c->p;
        ibcc_cur_blanks_(c);
        if (c->p == at || !ibcc_ibf_dec_(c, 255u, &ports)) {
            ibcc_fab_err_(err, IBCC_ERR_PARSE, file, line,
                             "a node line needs a port count 1..255");
            return IBCC_ERR_PARSE;
        }
        ibcc_cur_blanks_(c);
        if (!ibcc_ibf_nodename_(c, &type, &guid) || type != want) {
            ibcc_fab_err_(err, IBCC_ERR_PARSE, file, line,
                             "expected the node name \"%c-<guid>\"", want);
            return IBCC_ERR_PARSE;
        }
        if (!ibcc_ibf_comment_(c, &note)) {
            ibcc_fab_err_(err, IBCC_ERR_PARSE, file, line,
                             "unexpected text after the node name");
            return IBCC_ERR_PARSE;
        }
        if (ibcc_ibf_lidrange_(&note, file, line, err) != IBCC_OK)
            return IBCC_ERR_RANGE;
        if (ports == 0) {
            ibcc_fab_err_(err, IBCC_ERR_RANGE, file, line,
                             "a node with 0 ports");
            return IBCC_ERR_RANGE;
        }
        if (s->nnode >= IBCC_IBF_MAXNODES_) {
            ibcc_fab_err_(err, IBCC_ERR_CAPACITY, file, line,
                             "more than %u nodes", IBCC_IBF_MAXNODES_);
            return IBCC_ERR_CAPACITY;
        }
        q = ibcc_ibf_grow_(&s->al, s->node, &s->cnode, s->nnode + 1u,
                           sizeof *s->node);
        if (!q) {
            ibcc_fab_err_(err, IBCC_ERR_NOMEM, file, line, "out of memory");
            return IBCC_ERR_NOMEM;
        }
        s->node = (ibcc_ibf_rnode_ *)q;
        n = &s->node[s->nnode];
        memset(n, 0, sizeof *n);
        n->type = type;
        n->ports = ports;
        n->guid = guid;
        n->line = line;
        n->lid = note.nlid ? note.lid[0] : 0;
        n->lmc = note.lmc;
        memcpy(n->desc, note.desc, sizeof n->desc);
        *cur = s->nnode++;
        return IBCC_OK;
    }
    if (*c->p == '[') {
        ibcc_ibf_rport_ r;
        void *q;
        const ibcc_ibf_rnode_ *own;
        memset(&r, 0, sizeof r);
        if (*cur == IBCC_IBF_NONE_) {
            ibcc_fab_err_(err, IBCC_ERR_PARSE, file, line,
                             "a port line outside a Switch, Ca or Rt block");
            return IBCC_ERR_PARSE;
        }
        own = &s->node[*cur];
        c->p++;
        if (!ibcc_ibf_dec_(c, 255u, &r.port) || !ibcc_cur_lit_(c, "]")) {
            ibcc_fab_err_(err, IBCC_ERR_PARSE, file, line,
                             "a port line starts with [<port>]");
            return IBCC_ERR_PARSE;
        }
        if (ibcc_cur_lit_(c, "[ext ")) {            /* -g external port */
            uint32_t x;
            if (!ibcc_ibf_dec_(c, 0xffffu, &x) || !ibcc_cur_lit_(c, "]")) {
                ibcc_fab_err_(err, IBCC_ERR_PARSE, file, line,
                                 "bad [ext <port>]");
                return IBCC_ERR_PARSE;
            }
        }
        if (ibcc_cur_lit_(c, "(")) {
            if (!ibcc_ibf_hex_(c, &r.own_guid) || !ibcc_cur_lit_(c, ")")) {
                ibcc_fab_err_(err, IBCC_ERR_PARSE, file, line,
                                 "bad port GUID (<hex>)");
                return IBCC_ERR_PARSE;
            }
        }
        ibcc_cur_blanks_(c);
        if (!ibcc_ibf_nodename_(c, &r.ptype, &r.pguid) || !ibcc_cur_lit_(c, "[")
            || !ibcc_ibf_dec_(c, 255u, &r.pport) || !ibcc_cur_lit_(c, "]")) {
            ibcc_fab_err_(err, IBCC_ERR_PARSE, file, line,
                             "expected the peer \"X-<guid>\"[<port>]");
            return IBCC_ERR_PARSE;
        }
        if (ibcc_cur_lit_(c, "[ext ")) {
            uint32_t x;
            if (!ibcc_ibf_dec_(c, 0xffffu, &x) || !ibcc_cur_lit_(c, "]")) {
                ibcc_fab_err_(err, IBCC_ERR_PARSE, file, line,
                                 "bad [ext <port>]");
                return IBCC_ERR_PARSE;
            }
        }
        ibcc_cur_blanks_(c);
        if (ibcc_cur_lit_(c, "(")) {
            if (!ibcc_ibf_hex_(c, &r.peer_pguid) || !ibcc_cur_lit_(c, ")")) {
                ibcc_fab_err_(err, IBCC_ERR_PARSE, file, line,
                                 "bad peer port GUID (<hex>)");
                return IBCC_ERR_PARSE;
            }
        }
        if (!ibcc_ibf_comment_(c, &note)) {
            ibcc_fab_err_(err, IBCC_ERR_PARSE, file, line,
                             "unexpected text after the peer port");
            return IBCC_ERR_PARSE;
        }
        if (ibcc_ibf_lidrange_(&note, file, line, err) != IBCC_OK)
            return IBCC_ERR_RANGE;
        r.node = *cur;
        r.line = line;
        r.rate = note.rate;
        if (own->type == 'S') {             /* # "desc" lid <peer lid> */
            if (note.nlid) { r.peer_lid = note.lid[0]; r.has_peer_lid = 1; }
        } else {                    /* # lid <own> lmc M "desc" lid <peer> */
            if (note.nlid) {
                r.own_lid = note.lid[0];
                r.own_lmc = note.lmc;
                r.has_own = 1;
            }
            if (note.nlid > 1u) { r.peer_lid = note.lid[1]; r.has_peer_lid = 1; }
        }
        if (s->nport >= 4u * IBCC_IBF_MAXNODES_) {
            ibcc_fab_err_(err, IBCC_ERR_CAPACITY, file, line,
                             "too many port lines");
            return IBCC_ERR_CAPACITY;
        }
        q = ibcc_ibf_grow_(&s->al, s->port, &s->cport, s->nport + 1u,
                           sizeof *s->port);
        if (!q) {
            ibcc_fab_err_(err, IBCC_ERR_NOMEM, file, line, "out of memory");
            return IBCC_ERR_NOMEM;
        }
        s->port = (ibcc_ibf_rport_ *)q;
        s->port[s->nport++] = r;
        return IBCC_OK;
    }
    ibcc_fab_err_(err, IBCC_ERR_PARSE, file, line,
                     "not a line of ibnetdiscover output");
    return IBCC_ERR_PARSE;
}

typedef struct ibcc_ibf_topo_ctx_ {
    ibcc_ibf_parse_ *s;
    uint32_t cur;
    const char *file;
    ibcc_ibfabric_error *err;
} ibcc_ibf_topo_ctx_;

static ibcc_result ibcc_ibf_topo_line_(void *ctx, ibcc_cur_ *c,
                                       uint32_t line)
{
    ibcc_ibf_topo_ctx_ *t = (ibcc_ibf_topo_ctx_ *)ctx;
    return ibcc_ibf_line_(t->s, c, line, &t->cur, t->file, t->err);
}

static const char *ibcc_ibf_kind_(char type)
{
    return type == 'S' ? "S" : type == 'H' ? "H" : "R";
}

/* Cables from the port lines: each once, both sides consistent. */
static ibcc_result ibcc_ibf_cables_(ibcc_ibf_parse_ *s, const char *file,
                                    ibcc_ibfabric_error *err)
{
    uint32_t i, nslot = 0;
    for (i = 0; i < s->nnode; i++) {
        s->node[i].slot = nslot;
        nslot += s->node[i].ports;
    }
    s->slot = (ibcc_ibf_slot_ *)ibcc_fab_alloc_(&s->al,
                ibcc_fab_mul_(nslot ? nslot : 1u, sizeof *s->slot));
    s->key = (ibcc_ibf_key_ *)ibcc_fab_alloc_(&s->al,
                ibcc_fab_mul_(s->nnode ? s->nnode : 1u, sizeof *s->key));
    if (!s->slot || !s->key) {
        ibcc_fab_err_(err, IBCC_ERR_NOMEM, file, 0, "out of memory");
        return IBCC_ERR_NOMEM;
    }
    for (i = 0; i < nslot; i++) {
        s->slot[i].peer = IBCC_IBF_NONE_;
        s->slot[i].link = IBCC_IBF_NONE_;
    }
    for (i = 0; i < s->nnode; i++) {
        s->key[i].guid = s->node[i].guid;
        s->key[i].idx = i;
    }
    qsort(s->key, s->nnode, sizeof *s->key, ibcc_ibf_keycmp_);
    for (i = 1; i < s->nnode; i++)
        if (s->key[i].guid == s->key[i - 1u].guid) {
            const ibcc_ibf_rnode_ *n = &s->node[s->key[i].idx];
            ibcc_fab_err_(err, IBCC_ERR_MISMATCH, file, n->line,
                             "GUID 0x%016llx declared twice (first on line %u)",
                             (unsigned long long)n->guid,
                             s->node[s->key[i - 1u].idx].line);
            return IBCC_ERR_MISMATCH;
        }
    for (i = 0; i < s->nport; i++) {
        const ibcc_ibf_rport_ *r = &s->port[i];
        const ibcc_ibf_rnode_ *a = &s->node[r->node], *b;
        uint32_t pi = IBCC_IBF_NONE_;
        ibcc_ibf_slot_ *sa, *sb;
        pi = ibcc_ibf_lookup_(s->key, s->nnode, r->pguid);
        if (pi == IBCC_IBF_NONE_) {
            ibcc_fab_err_(err, IBCC_ERR_NOT_FOUND, file, r->line,
                             "\"%s-%016llx\" is never declared",
                             ibcc_ibf_kind_(r->ptype),
                             (unsigned long long)r->pguid);
            return IBCC_ERR_NOT_FOUND;
        }
        b = &s->node[pi];
        if (b->type != r->ptype) {
            ibcc_fab_err_(err, IBCC_ERR_MISMATCH, file, r->line,
                             "0x%016llx is declared as %s on line %u",
                             (unsigned long long)r->pguid,
                             b->type == 'S' ? "a switch" : "a channel adapter",
                             b->line);
            return IBCC_ERR_MISMATCH;
        }
        if (r->port == 0 || r->port > a->ports) {
            ibcc_fab_err_(err, IBCC_ERR_RANGE, file, r->line,
                             "port %u is not one of the %u ports of %s-%016llx",
                             r->port, a->ports, ibcc_ibf_kind_(a->type),
                             (unsigned long long)a->guid);
            return IBCC_ERR_RANGE;
        }
        if (r->pport == 0 || r->pport > b->ports) {
            ibcc_fab_err_(err, IBCC_ERR_RANGE, file, r->line,
                             "peer port %u is not one of the %u ports of "
                             "%s-%016llx", r->pport, b->ports,
                             ibcc_ibf_kind_(b->type),
                             (unsigned long long)b->guid);
            return IBCC_ERR_RANGE;
        }
        if (pi == r->node) {
            ibcc_fab_err_(err, IBCC_ERR_MISMATCH, file, r->line,
                             "a port cabled to its own node");
            return IBCC_ERR_MISMATCH;
        }
        sa = &s->slot[a->slot + r->port - 1u];
        sb = &s->slot[b->slot + r->pport - 1u];
        if (sa->said) {
            ibcc_fab_err_(err, IBCC_ERR_MISMATCH, file, r->line,
                             "port %u listed twice", r->port);
            return IBCC_ERR_MISMATCH;
        }
        sa->said = 1;
        if (sa->peer != IBCC_IBF_NONE_
            && (sa->peer != pi || sa->pport != r->pport)) {
            ibcc_fab_err_(err, IBCC_ERR_MISMATCH, file, r->line,
                             "port %u linked twice: %s-%016llx[%u] says "
                             "it is cabled here", r->port,
                             ibcc_ibf_kind_(s->node[sa->peer].type),
                             (unsigned long long)s->node[sa->peer].guid,
                             sa->pport);
            return IBCC_ERR_MISMATCH;
        }
        if (sb->peer != IBCC_IBF_NONE_
            && (sb->peer != r->node || sb->pport != r->port)) {
            ibcc_fab_err_(err, IBCC_ERR_MISMATCH, file, r->line,
                             "peer port %s-%016llx[%u] linked twice: it is "
                             "cabled to %s-%016llx[%u]",
                             ibcc_ibf_kind_(b->type),
                             (unsigned long long)b->guid, r->pport,
                             ibcc_ibf_kind_(s->node[sb->peer].type),
                             (unsigned long long)s->node[sb->peer].guid,
                             sb->pport);
            return IBCC_ERR_MISMATCH;
        }
        if (sa->peer == IBCC_IBF_NONE_) {
            void *q = ibcc_ibf_grow_(&s->al, s->link, &s->clink,
                                     s->nlink + 1u, sizeof *s->link);
            ibcc_ibf_rlink_ *k;
            if (!q) {
                ibcc_fab_err_(err, IBCC_ERR_NOMEM, file, r->line,
                                 "out of memory");
                return IBCC_ERR_NOMEM;
            }
            s->link = (ibcc_ibf_rlink_ *)q;
            k = &s->link[s->nlink];
            k->a = r->node; k->ap = r->port; k->b = pi; k->bp = r->pport;
            k->rate = r->rate;
            sa->peer = pi; sa->pport = r->pport; sa->link = s->nlink;
            sb->peer = r->node; sb->pport = r->port; sb->link = s->nlink;
            s->nlink++;
        } else if (!s->link[sa->link].rate) {
            s->link[sa->link].rate = r->rate;
        }
        /* LIDs and port GUIDs of channel-adapter ports */
        if (a->type != 'S' && r->has_own) {
            sa->lid = r->own_lid; sa->lmc = r->own_lmc;
            sa->has_lid = 1; sa->lid_own = 1;
        }
        if (a->type != 'S' && r->own_guid) sa->pguid = r->own_guid;
        if (b->type != 'S' && r->has_peer_lid && !sb->lid_own) {
            sb->lid = r->peer_lid;
            sb->has_lid = 1;
        }
        if (b->type != 'S' && r->peer_pguid && !sb->pguid)
            sb->pguid = r->peer_pguid;
    }
    return IBCC_OK;
}

IBCC_API void ibcc_ibfabric_free(ibcc_ibfabric *f)
{
    ibcc_fabric_allocator a;
    if (!f) return;
    a = f->allocator;
    ibcc_fab_free_(&a, f->nodes);
    ibcc_fab_free_(&a, f->links);
    ibcc_fab_free_(&a, f->routes);
    ibcc_fab_free_(&a, f->route_line);
    ibcc_fab_free_(&a, f->hosts);
    ibcc_fab_free_(&a, f->switches);
    memset(f, 0, sizeof *f);
}

/* The fabric arrays from the parsed nodes and cables. */
static ibcc_result ibcc_ibf_build_(ibcc_ibfabric *f, ibcc_ibf_parse_ *s,
                                   const char *file, ibcc_ibfabric_error *err)
{
    uint32_t i, p, nsw = 0, nh = 0, *fnode;
    ibcc_fabric_allocator *a = &f->allocator;
    for (i = 0; i < s->nnode; i++) {
        ibcc_ibf_rnode_ *n = &s->node[i];
        if (n->type == 'S') { nsw++; continue; }
        for (p = 0; p < n->ports; p++)
            if (s->slot[n->slot + p].peer != IBCC_IBF_NONE_) n->conn++;
        nh += n->conn;
    }
    if (nh == 0) {
        ibcc_fab_err_(err, IBCC_ERR_NOT_FOUND, file, 0,
                         "no connected channel-adapter port (no host)");
        return IBCC_ERR_NOT_FOUND;
    }
    if (nsw + nh > IBCC_IBF_MAXNODES_) {
        ibcc_fab_err_(err, IBCC_ERR_CAPACITY, file, 0, "too many nodes");
        return IBCC_ERR_CAPACITY;
    }
    f->nodes = (ibcc_fabric_node *)ibcc_fab_alloc_(a,
                    ibcc_fab_mul_(nsw + nh, sizeof *f->nodes));
    f->links = (ibcc_fabric_link *)ibcc_fab_alloc_(a,
                    ibcc_fab_mul_(s->nlink ? s->nlink : 1u, sizeof *f->links));
    f->hosts = (ibcc_ibfabric_host *)ibcc_fab_alloc_(a,
                    ibcc_fab_mul_(nh, sizeof *f->hosts));
    f->switches = (ibcc_ibfabric_switch *)ibcc_fab_alloc_(a,
                    ibcc_fab_mul_(nsw ? nsw : 1u, sizeof *f->switches));
    /* fabric node of each slot (switches: one per node) */
    fnode = (uint32_t *)ibcc_fab_alloc_(a, ibcc_fab_mul_(
                s->nnode ? s->nnode : 1u, sizeof *fnode));
    s->lidmap = (uint32_t *)ibcc_fab_alloc_(a, 65536u * sizeof *s->lidmap);
    if (!f->nodes || !f->links || !f->hosts || !f->switches || !fnode
        || !s->lidmap) {
        ibcc_fab_free_(a, fnode);
        ibcc_fab_err_(err, IBCC_ERR_NOMEM, file, 0, "out of memory");
        return IBCC_ERR_NOMEM;
    }
    for (i = 0; i < 65536u; i++) s->lidmap[i] = 0;    /* 0 = free, else line */
    f->node_count = nsw + nh;
    for (i = 0; i < s->nnode; i++) {
        const ibcc_ibf_rnode_ *n = &s->node[i];
        ibcc_ibfabric_switch *w;
        if (n->type != 'S') continue;
        w = &f->switches[f->switch_count];
        w->node = f->switch_count;
        w->lid = n->lid;
        w->ports = n->ports;
        w->guid = n->guid;
        w->line = n->line;
        memcpy(w->name, n->desc, sizeof w->name);
        f->nodes[w->node].kind = IBCC_FABRIC_SWITCH;
        f->nodes[w->node].ports = n->ports;
        fnode[i] = w->node;
        f->switch_count++;
    }
    for (i = 0; i < s->nnode; i++) {
        const ibcc_ibf_rnode_ *n = &s->node[i];
        if (n->type == 'S') continue;
        fnode[i] = IBCC_IBF_NONE_;
        for (p = 0; p < n->ports; p++) {
            ibcc_ibf_slot_ *sl = &s->slot[n->slot + p];
            ibcc_ibfabric_host *h;
            if (sl->peer == IBCC_IBF_NONE_) continue;
            h = &f->hosts[f->host_count];
            h->node = nsw + f->host_count;
            h->lid = sl->lid;
            h->lmc = sl->lmc;
            h->ca_port = p + 1u;
            h->node_guid = n->guid;
            h->port_guid = sl->pguid;
            h->line = n->line;
            if (n->conn > 1u)
                snprintf(h->name, sizeof h->name, "%.*s/P%u",
                         (int)(IBCC_IBF_NAME - 8u), n->desc,
                         (p + 1u) % 1000u);
            else
                memcpy(h->name, n->desc, sizeof h->name);
            f->nodes[h->node].kind = IBCC_FABRIC_HOST;
            f->nodes[h->node].ports = 1u;
            sl->link = sl->link;        /* keeps its raw link */
            sl->said = h->node + 1u;    /* reused: fabric node + 1 */
            f->host_count++;
        }
    }
    for (i = 0; i < s->nlink; i++) {
        const ibcc_ibf_rlink_ *k = &s->link[i];
        ibcc_fabric_link *o = &f->links[i];
        const ibcc_ibf_rnode_ *na = &s->node[k->a], *nb = &s->node[k->b];
        if (na->type == 'S') { o->a = fnode[k->a]; o->a_port = k->ap - 1u; }
        else { o->a = s->slot[na->slot + k->ap - 1u].said - 1u; o->a_port = 0; }
        if (nb->type == 'S') { o->b = fnode[k->b]; o->b_port = k->bp - 1u; }
        else { o->b = s->slot[nb->slot + k->bp - 1u].said - 1u; o->b_port = 0; }
        o->rate = k->rate;
        if (na->type == 'S' && nb->type == 'S') f->isl_count++;
    }
    f->link_count = s->nlink;
    ibcc_fab_free_(a, fnode);
    /* every assigned LID once */
    for (i = 0; i < f->switch_count + f->host_count; i++) {
        uint32_t lid, line, cnt = 1u, k;
        if (i < f->switch_count) {
            lid = f->switches[i].lid; line = f->switches[i].line;
        } else {
            const ibcc_ibfabric_host *h = &f->hosts[i - f->switch_count];
            lid = h->lid; line = h->line;
            cnt = h->lmc < 16u ? 1u << h->lmc : 1u;
        }
        for (k = 0; k < cnt && lid != 0 && lid + k < 65536u; k++) {
            if (s->lidmap[lid + k]) {
                ibcc_fab_err_(err, IBCC_ERR_MISMATCH, file, line,
                                 "LID %u assigned twice (also on line %u)",
                                 lid + k, s->lidmap[lid + k]);
                return IBCC_ERR_MISMATCH;
            }
            s->lidmap[lid + k] = line;
        }
    }
    return IBCC_OK;
}

/* Reads a topology text into s (nodes and port lines): *lines = its
   line count. */
typedef ibcc_result (*ibcc_ibf_reader_)(ibcc_ibf_parse_ *s, const char *text,
        size_t len, const char *file, ibcc_ibfabric_error *err,
        uint32_t *lines);

static ibcc_result ibcc_ibf_read_topo_(ibcc_ibf_parse_ *s, const char *text,
        size_t len, const char *file, ibcc_ibfabric_error *err,
        uint32_t *lines)
{
    ibcc_ibf_topo_ctx_ t;
    t.s = s;
    t.cur = IBCC_IBF_NONE_;
    t.file = file;
    t.err = err;
    return ibcc_lines_(text, len, &t, ibcc_ibf_topo_line_, lines);
}

/* The loaders' common frame: arguments, the reader, cables, the fabric. */
static ibcc_result ibcc_ibf_load_(ibcc_ibfabric *f, const char *text,
        size_t len, const char *file, const ibcc_fabric_allocator *al,
        ibcc_ibfabric_error *err, ibcc_ibf_reader_ rd)
{
    ibcc_ibf_parse_ s;
    ibcc_result r;
    uint32_t lines = 0;
    if (err) ibcc_fab_err_(err, IBCC_OK, file, 0, "ok");
    if (!f || (!text && len)) {
        ibcc_fab_err_(err, IBCC_ERR_NULL, file, 0, "NULL argument");
        return IBCC_ERR_NULL;
    }
    memset(f, 0, sizeof *f);
    if (al && (!al->alloc) != (!al->free)) {
        ibcc_fab_err_(err, IBCC_ERR_NULL, file, 0,
                         "an allocator needs both functions or neither");
        return IBCC_ERR_NULL;
    }
    if (al) f->allocator = *al;
    snprintf(f->topo_file, sizeof f->topo_file, "%s", file);
    memset(&s, 0, sizeof s);
    s.al = f->allocator;
    r = text ? rd(&s, text, len, file, err, &lines) : IBCC_OK;
    if (r == IBCC_ERR_CAPACITY && err && err->code == IBCC_OK)
        ibcc_fab_err_(err, r, file, 0, "too many lines");
    if (r == IBCC_OK) r = ibcc_ibf_cables_(&s, file, err);
    if (r == IBCC_OK) r = ibcc_ibf_build_(f, &s, file, err);
    ibcc_ibf_parse_free_(&s);
    if (r != IBCC_OK) {
        ibcc_ibfabric_free(f);
        return r;
    }
    f->line_count = lines;
    return IBCC_OK;
}

IBCC_API ibcc_result ibcc_ibfabric_parse(ibcc_ibfabric *f, const char *text,
        size_t len, const char *file, const ibcc_fabric_allocator *al,
        ibcc_ibfabric_error *err)
{
    return ibcc_ibf_load_(f, text, len, file ? file : "(topology)", al, err,
                          ibcc_ibf_read_topo_);
}

/* ---- ports and route tables ------------------------------------------- */
typedef struct ibcc_ibf_net_ {
    uint32_t *base;         /* first port slot of each node */
    uint32_t *peer;         /* per port slot: peer node or NONE */
    uint32_t *tab;          /* switch * hosts: fabric port + 1, 0 = none */
    uint32_t *tline;        /* same: the route's line */
} ibcc_ibf_net_;

static void ibcc_ibf_net_free_(ibcc_fabric_allocator *a, ibcc_ibf_net_ *n)
{
    ibcc_fab_free_(a, n->base);
    ibcc_fab_free_(a, n->peer);
    ibcc_fab_free_(a, n->tab);
    ibcc_fab_free_(a, n->tline);
    memset(n, 0, sizeof *n);
}

/* Port peers and (with_tab) an empty switch x host table. */
static ibcc_result ibcc_ibf_net_make_(const ibcc_ibfabric *f,
        ibcc_fabric_allocator *a, ibcc_ibf_net_ *n, int with_tab)
{
    uint32_t i, total = 0;
    memset(n, 0, sizeof *n);
    n->base = (uint32_t *)ibcc_fab_alloc_(a, ibcc_fab_mul_(
                  (size_t)f->node_count + 1u, sizeof *n->base));
    if (!n->base) return IBCC_ERR_NOMEM;
    for (i = 0; i < f->node_count; i++) {
        n->base[i] = total;
        total += f->nodes[i].kind == IBCC_FABRIC_HOST ? 1u : f->nodes[i].ports;
    }
    n->base[f->node_count] = total;
    n->peer = (uint32_t *)ibcc_fab_alloc_(a, ibcc_fab_mul_(total ? total : 1u,
                                          sizeof *n->peer));
    if (!n->peer) return IBCC_ERR_NOMEM;
    for (i = 0; i < total; i++) n->peer[i] = IBCC_IBF_NONE_;
    for (i = 0; i < f->link_count; i++) {
        const ibcc_fabric_link *k = &f->links[i];
        if (k->a >= f->node_count || k->b >= f->node_count
            || k->a_port >= n->base[k->a + 1u] - n->base[k->a]
            || k->b_port >= n->base[k->b + 1u] - n->base[k->b])
            return IBCC_ERR_RANGE;
        n->peer[n->base[k->a] + k->a_port] = k->b;
        n->peer[n->base[k->b] + k->b_port] = k->a;
    }
    if (with_tab) {
        size_t cells = (size_t)f->switch_count * f->host_count;
        if ((uint64_t)f->switch_count * f->host_count > IBCC_IBF_MAXPAIRS_)
            return IBCC_ERR_CAPACITY;
        n->tab = (uint32_t *)ibcc_fab_alloc_(a, ibcc_fab_mul_(cells ? cells : 1u,
                                             sizeof *n->tab));
        n->tline = (uint32_t *)ibcc_fab_alloc_(a, ibcc_fab_mul_(
                       cells ? cells : 1u, sizeof *n->tline));
        if (!n->tab || !n->tline) return IBCC_ERR_NOMEM;
    }
    return IBCC_OK;
}

/* f's routes into a fresh table n (switch idx = node, host idx = node -
   switch_count, as the loader lays nodes out). */
static ibcc_result ibcc_ibf_tab_fill_(const ibcc_ibfabric *f,
                                      ibcc_ibf_net_ *n)
{
    uint32_t i;
    for (i = 0; i < f->route_count; i++) {
        const ibcc_fabric_route *r = &f->routes[i];
        uint64_t cell;
        if (r->sw >= f->switch_count || r->dst < f->switch_count
            || r->dst >= f->node_count || r->port >= f->nodes[r->sw].ports)
            return IBCC_ERR_RANGE;
        cell = (uint64_t)r->sw * f->host_count + (r->dst - f->switch_count);
        n->tab[cell] = r->port + 1u;
        n->tline[cell] = f->route_line ? f->route_line[i] : 0;
    }
    return IBCC_OK;
}

static ibcc_result ibcc_ibf_nomem_(ibcc_ibfabric_error *err, const char *file,
                                   ibcc_result r)
{
    ibcc_fab_err_(err, r, file, 0, r == IBCC_ERR_NOMEM ? "out of memory"
                     : r == IBCC_ERR_CAPACITY ? "too many switches x hosts"
                     : "a link or route out of range");
    return r;
}

IBCC_API ibcc_result ibcc_ibfabric_check(const ibcc_ibfabric *f,
        uint64_t *pairs_ok, ibcc_ibfabric_error *err)
{
    ibcc_fabric_allocator a;
    ibcc_ibf_net_ n;
    uint32_t *okd = NULL, *walk = NULL, *path = NULL;
    uint32_t d, src, wid = 0, nsw, nh;
    uint64_t ok = 0;
    ibcc_result r;
    const char *file;
    if (pairs_ok) *pairs_ok = 0;
    if (!f) {
        ibcc_fab_err_(err, IBCC_ERR_NULL, "", 0, "NULL argument");
        return IBCC_ERR_NULL;
    }
    file = f->routing == IBCC_IBF_ROUTES_LFT ? f->lft_file : f->topo_file;
    if (err) ibcc_fab_err_(err, IBCC_OK, file, 0, "ok");
    if (!f->nodes || !f->hosts || f->host_count == 0
        || f->node_count != f->switch_count + f->host_count
        || (f->route_count && !f->routes)) {
        ibcc_fab_err_(err, IBCC_ERR_STATE, file, 0,
                         "no fabric loaded");
        return IBCC_ERR_STATE;
    }
    a = f->allocator;
    nsw = f->switch_count;
    nh = f->host_count;
    r = ibcc_ibf_net_make_(f, &a, &n, 1);
    if (r == IBCC_OK) r = ibcc_ibf_tab_fill_(f, &n);
    if (r == IBCC_OK) {
        okd = (uint32_t *)ibcc_fab_alloc_(&a, ibcc_fab_mul_(nsw + 1u, 4u));
        walk = (uint32_t *)ibcc_fab_alloc_(&a, ibcc_fab_mul_(nsw + 1u, 4u));
        path = (uint32_t *)ibcc_fab_alloc_(&a, ibcc_fab_mul_(nsw + 1u, 4u));
        if (!okd || !walk || !path) r = IBCC_ERR_NOMEM;
    }
    if (r != IBCC_OK) {
        ibcc_ibf_nomem_(err, file, r);
        goto out;
    }
    for (d = 0; d < nh && r == IBCC_OK; d++) {
        const ibcc_ibfabric_host *hd = &f->hosts[d];
        uint32_t dnode = nsw + d;
        for (src = 0; src < nh && r == IBCC_OK; src++) {
            uint32_t node, np = 0, k, prev_line = 0;
            if (src == d) continue;
            node = n.peer[n.base[nsw + src]];
            if (++wid == 0) {           /* wrapped: forget old walks */
                memset(walk, 0, ((size_t)nsw + 1u) * sizeof *walk);
                wid = 1;
            }
            while (r == IBCC_OK) {
                uint32_t port, line;
                if (node == IBCC_IBF_NONE_) {
                    ibcc_fab_err_(err, IBCC_ERR_RANGE, f->topo_file, 0,
                                     "host %s is not cabled", f->hosts[src].name);
                    r = IBCC_ERR_RANGE;
                    break;
                }
                if (node >= nsw) {              /* a host */
                    if (node == dnode) break;
                    ibcc_fab_err_(err, IBCC_ERR_RANGE, file, prev_line,
                                     "the route from %s to LID %u (%s) ends "
                                     "at host %s", f->hosts[src].name,
                                     hd->lid, hd->name,
                                     f->hosts[node - nsw].name);
                    r = IBCC_ERR_RANGE;
                    break;
                }
                if (okd[node] == d + 1u) break;
                if (walk[node] == wid) {
                    ibcc_fab_err_(err, IBCC_ERR_RANGE, file, prev_line,
                                     "the route to LID %u (%s) loops back "
                                     "to switch %s (0x%016llx)", hd->lid,
                                     hd->name, f->switches[node].name,
                                     (unsigned long long)f->switches[node].guid);
                    r = IBCC_ERR_RANGE;
                    break;
                }
                walk[node] = wid;
                path[np++] = node;
                port = n.tab[(uint64_t)node * nh + d];
                line = n.tline[(uint64_t)node * nh + d];
                if (port == 0) {
                    const ibcc_ibfabric_switch *w = &f->switches[node];
                    if (f->routing == IBCC_IBF_ROUTES_LFT && w->lft_line == 0)
                        ibcc_fab_err_(err, IBCC_ERR_NOT_FOUND,
                                         f->topo_file, w->line,
                                         "switch %s (0x%016llx) has no "
                                         "forwarding table in %s, and the "
                                         "route to LID %u (%s) reaches it",
                                         w->name, (unsigned long long)w->guid,
                                         f->lft_file, hd->lid, hd->name);
                    else
                        ibcc_fab_err_(err, IBCC_ERR_NOT_FOUND, file,
                                         w->lft_line,
                                         "switch %s (0x%016llx) does not "
                                         "route LID %u (%s), and a route "
                                         "reaches it", w->name,
                                         (unsigned long long)w->guid,
                                         hd->lid, hd->name);
                    r = IBCC_ERR_NOT_FOUND;
                    break;
                }
                node = n.peer[n.base[node] + port - 1u];
                if (node == IBCC_IBF_NONE_) {
                    ibcc_fab_err_(err, IBCC_ERR_RANGE, file, line,
                                     "the route to LID %u (%s) leaves switch "
                                     "%s on port %u, which has no link",
                                     hd->lid, hd->name,
                                     f->switches[path[np - 1u]].name, port);
                    r = IBCC_ERR_RANGE;
                    break;
                }
                prev_line = line;
            }
            if (r != IBCC_OK) break;
            for (k = 0; k < np; k++) okd[path[k]] = d + 1u;
            ok++;
        }
    }
out:
    ibcc_fab_free_(&a, okd);
    ibcc_fab_free_(&a, walk);
    ibcc_fab_free_(&a, path);
    ibcc_ibf_net_free_(&a, &n);
    if (pairs_ok) *pairs_ok = ok;
    return r;
}

/* Routes from table n (cells with a port), lines kept. */
static ibcc_result ibcc_ibf_emit_(ibcc_ibfabric *f, const ibcc_ibf_net_ *n)
{
    uint64_t cells = (uint64_t)f->switch_count * f->host_count, c, cnt = 0;
    uint32_t k = 0;
    for (c = 0; c < cells; c++) if (n->tab[c]) cnt++;
    if (cnt > IBCC_IBF_MAXROUTE_) return IBCC_ERR_CAPACITY;
    f->routes = (ibcc_fabric_route *)ibcc_fab_alloc_(&f->allocator,
                    ibcc_fab_mul_((size_t)(cnt ? cnt : 1u), sizeof *f->routes));
    f->route_line = (uint32_t *)ibcc_fab_alloc_(&f->allocator,
                    ibcc_fab_mul_((size_t)(cnt ? cnt : 1u), sizeof *f->route_line));
    if (!f->routes || !f->route_line) return IBCC_ERR_NOMEM;
    for (c = 0; c < cells; c++) {
        if (!n->tab[c]) continue;
        f->routes[k].sw = (uint32_t)(c / f->host_count);
        f->routes[k].dst = f->switch_count + (uint32_t)(c % f->host_count);
        f->routes[k].port = n->tab[c] - 1u;
        f->route_line[k] = n->tline[c];
        k++;
    }
    f->route_count = k;
    return IBCC_OK;
}

static void ibcc_ibf_drop_routes_(ibcc_ibfabric *f)
{
    ibcc_fab_free_(&f->allocator, f->routes);
    ibcc_fab_free_(&f->allocator, f->route_line);
    f->routes = NULL;
    f->route_line = NULL;
    f->route_count = 0;
    f->routing = IBCC_IBF_ROUTES_NONE;
}

/* ---- LFT text ----------------------------------------------------------- */
typedef struct ibcc_ibf_lft_ctx_ {
    ibcc_ibfabric *f;
    ibcc_ibf_net_ *n;
    ibcc_ibf_key_ *key;             /* switches by GUID */
    uint32_t *lidhost;              /* LID -> host index + 1, 0 = none */
    uint32_t cur;                   /* switch of the current table */
    uint32_t plft;                  /* ibdiagnet2.fdbs: its PLFT_NUM, */
    uint32_t pend_line, in_table;   /* a header waiting for its PLFT, */
    uint64_t pend_guid;             /* a header seen */
    const char *file;
    ibcc_ibfabric_error *err;
} ibcc_ibf_lft_ctx_;

/* A table header naming switch `guid`: the entries that follow are its. */
static ibcc_result ibcc_ibf_lft_table_(ibcc_ibf_lft_ctx_ *t, uint64_t guid,
                                       uint32_t line)
{
    ibcc_ibfabric *f = t->f;
    uint32_t w = ibcc_ibf_lookup_(t->key, f->switch_count, guid);
    if (w == IBCC_IBF_NONE_) {
        ibcc_fab_err_(t->err, IBCC_ERR_NOT_FOUND, t->file, line,
                         "switch 0x%016llx is not in %s",
                         (unsigned long long)guid, f->topo_file);
        return IBCC_ERR_NOT_FOUND;
    }
    if (f->switches[w].lft_line) {
        ibcc_fab_err_(t->err, IBCC_ERR_MISMATCH, t->file, line,
                         "a second table for switch 0x%016llx (first on "
                         "line %u)", (unsigned long long)guid,
                         f->switches[w].lft_line);
        return IBCC_ERR_MISMATCH;
    }
    f->switches[w].lft_line = line;
    t->cur = w;
    return IBCC_OK;
}

/* One entry (LID -> IB port, 255 = none) of the current table. */
static ibcc_result ibcc_ibf_lft_entry_(ibcc_ibf_lft_ctx_ *t, uint32_t lid,
                                       uint32_t port, uint32_t line)
{
    ibcc_ibfabric *f = t->f;
    const char *file = t->file;
    ibcc_ibfabric_switch *w;
    uint64_t cell;
    uint32_t fp, h;
    if (t->cur == IBCC_IBF_NONE_) {
        ibcc_fab_err_(t->err, IBCC_ERR_PARSE, file, line,
                         "an entry before any table header");
        return IBCC_ERR_PARSE;
    }
    w = &f->switches[t->cur];
    if (port == 255u) return IBCC_OK;       /* no entry */
    if (port > w->ports) {
        ibcc_fab_err_(t->err, IBCC_ERR_RANGE, file, line,
                         "port %u is not one of the %u ports of switch "
                         "%s", port, w->ports, w->name);
        return IBCC_ERR_RANGE;
    }
    h = lid < 65536u ? t->lidhost[lid] : 0;
    if (h == 0) return IBCC_OK;     /* a switch or unknown LID */
    h--;
    cell = (uint64_t)t->cur * f->host_count + h;
    if (t->n->tab[cell]) {
        ibcc_fab_err_(t->err, IBCC_ERR_MISMATCH, file, line,
                         "LID %u listed twice in this table (also on "
                         "line %u)", lid, t->n->tline[cell]);
        return IBCC_ERR_MISMATCH;
    }
    if (port == 0) {
        ibcc_fab_err_(t->err, IBCC_ERR_RANGE, file, line,
                         "host LID %u (%s) routed to port 0, the switch "
                         "itself", lid, f->hosts[h].name);
        return IBCC_ERR_RANGE;
    }
    fp = port - 1u;
    if (t->n->peer[t->n->base[t->cur] + fp] == IBCC_IBF_NONE_) {
        ibcc_fab_err_(t->err, IBCC_ERR_RANGE, file, line,
                         "LID %u (%s) leaves switch %s on port %u, which "
                         "has no link", lid, f->hosts[h].name, w->name,
                         port);
        return IBCC_ERR_RANGE;
    }
    t->n->tab[cell] = fp + 1u;
    t->n->tline[cell] = line;
    return IBCC_OK;
}

static ibcc_result ibcc_ibf_lft_line_(void *ctx, ibcc_cur_ *c,
                                      uint32_t line)
{
    ibcc_ibf_lft_ctx_ *t = (ibcc_ibf_lft_ctx_ *)ctx;
    const char *file = t->file;
    uint32_t lid, port;
    if (c->p >= c->e || *c->p == '#') return IBCC_OK;
    if (ibcc_cur_lit_(c, "Unicast lids [")) {
        uint64_t guid = 0;
        const char *g = NULL, *q;
        for (q = c->p; q + 7 < c->e; q++)
            if (memcmp(q, " guid 0x", 8) == 0) { g = q + 8; break; }
        if (g) { c->p = g; if (!ibcc_ibf_hex_(c, &guid)) g = NULL; }
        if (!g) {
            ibcc_fab_err_(t->err, IBCC_ERR_PARSE, file, line,
                             "a table header needs the switch's guid 0x<hex>");
            return IBCC_ERR_PARSE;
        }
        return ibcc_ibf_lft_table_(t, guid, line);
    }
    if (ibcc_cur_lit_(c, "Lid ") || ibcc_cur_lit_(c, "Port "))
        return IBCC_OK;                 /* ibroute's column titles */
    if (ibcc_cur_lit_(c, "0x")) {
        uint64_t v = 0;
        if (!ibcc_ibf_hex_(c, &v) || v > 0xffffu || c->p >= c->e
            || (*c->p != ' ' && *c->p != '\t')) {
            ibcc_fab_err_(t->err, IBCC_ERR_PARSE, file, line,
                             "an entry is 0x<lid> <port>");
            return IBCC_ERR_PARSE;
        }
        lid = (uint32_t)v;
        ibcc_cur_blanks_(c);
        if (!ibcc_ibf_dec_(c, 255u, &port)) {
            ibcc_fab_err_(t->err, IBCC_ERR_PARSE, file, line,
                             "an entry is 0x<lid> <port 0..255>");
            return IBCC_ERR_PARSE;
        }
        ibcc_cur_blanks_(c);
        if (c->p < c->e && *c->p != ':' && *c->p != '#') {
            ibcc_fab_err_(t->err, IBCC_ERR_PARSE, file, line,
                             "unexpected text after the port of an entry");
            return IBCC_ERR_PARSE;
        }
        return ibcc_ibf_lft_entry_(t, lid, port, line);
    }
    {   /* "N lids dumped" / "N valid lids dumped" */
        uint32_t cnt;
        if (ibcc_ibf_dec_(c, 0xffffffffu, &cnt)) {
            ibcc_cur_blanks_(c);
            (void)ibcc_cur_lit_(c, "valid ");
            if (ibcc_cur_lit_(c, "lids dumped")) return IBCC_OK;
        }
    }
    ibcc_fab_err_(t->err, IBCC_ERR_PARSE, file, line,
                     "not a line of a unicast forwarding table dump");
    return IBCC_ERR_PARSE;
}

/* Reads a forwarding-table text with `fn` (one of the line readers
   above) into f's routes, as ibcc_ibfabric_lfts documents. */
static ibcc_result ibcc_ibf_tables_(ibcc_ibfabric *f, const char *text,
        size_t len, const char *file, ibcc_ibfabric_error *err,
        ibcc_linefn_ fn)
{
    ibcc_ibf_lft_ctx_ t;
    ibcc_ibf_net_ n;
    ibcc_fabric_allocator a;
    ibcc_ibf_key_ *key = NULL;
    uint32_t *lidhost = NULL, i;
    ibcc_result r;
    if (err) ibcc_fab_err_(err, IBCC_OK, file, 0, "ok");
    if (!f || (!text && len)) {
        ibcc_fab_err_(err, IBCC_ERR_NULL, file, 0, "NULL argument");
        return IBCC_ERR_NULL;
    }
    if (!f->nodes || !f->hosts || f->host_count == 0) {
        ibcc_fab_err_(err, IBCC_ERR_STATE, file, 0, "no fabric loaded");
        return IBCC_ERR_STATE;
    }
    ibcc_ibf_drop_routes_(f);
    snprintf(f->lft_file, sizeof f->lft_file, "%s", file);
    for (i = 0; i < f->switch_count; i++) f->switches[i].lft_line = 0;
    a = f->allocator;
    memset(&n, 0, sizeof n);
    r = ibcc_ibf_net_make_(f, &a, &n, 1);
    if (r == IBCC_OK) {
        key = (ibcc_ibf_key_ *)ibcc_fab_alloc_(&a, ibcc_fab_mul_(
                  f->switch_count ? f->switch_count : 1u, sizeof *key));
        lidhost = (uint32_t *)ibcc_fab_alloc_(&a, 65536u * sizeof *lidhost);
        if (!key || !lidhost) r = IBCC_ERR_NOMEM;
    }
    if (r != IBCC_OK) {
        ibcc_ibf_nomem_(err, file, r);
        goto out;
    }
    for (i = 0; i < f->switch_count; i++) {
        key[i].guid = f->switches[i].guid;
        key[i].idx = i;
    }
    qsort(key, f->switch_count, sizeof *key, ibcc_ibf_keycmp_);
    for (i = 0; i < 65536u; i++) lidhost[i] = 0;
    for (i = 0; i < f->host_count; i++)
        if (f->hosts[i].lid && f->hosts[i].lid < 65536u)
            lidhost[f->hosts[i].lid] = i + 1u;
    t.f = f;
    t.n = &n;
    t.key = key;
    t.lidhost = lidhost;
    t.cur = IBCC_IBF_NONE_;
    t.plft = 0;
    t.pend_line = 0;
    t.in_table = 0;
    t.pend_guid = 0;
    t.file = file;
    t.err = err;
    r = text ? ibcc_lines_(text, len, &t, fn, NULL) : IBCC_OK;
    if (r == IBCC_ERR_CAPACITY && err && err->code == IBCC_OK)
        ibcc_fab_err_(err, r, file, 0, "too many lines");
    if (r == IBCC_OK) {
        r = ibcc_ibf_emit_(f, &n);
        if (r != IBCC_OK) ibcc_ibf_nomem_(err, file, r);
    }
    if (r == IBCC_OK) {
        f->routing = IBCC_IBF_ROUTES_LFT;
        r = ibcc_ibfabric_check(f, NULL, err);
    }
out:
    ibcc_fab_free_(&a, key);
    ibcc_fab_free_(&a, lidhost);
    ibcc_ibf_net_free_(&a, &n);
    if (r != IBCC_OK) ibcc_ibf_drop_routes_(f);
    return r;
}

IBCC_API ibcc_result ibcc_ibfabric_lfts(ibcc_ibfabric *f, const char *text,
        size_t len, const char *file, ibcc_ibfabric_error *err)
{
    return ibcc_ibf_tables_(f, text, len, file ? file
                            : "(forwarding tables)", err, ibcc_ibf_lft_line_);
}

/* ---- ibdiagnet output --------------------------------------------------- */
/* A lane speed (ibdiagnet's SPD= text or its LinkSpeedActv code) and a
   width (its PHY= text or LinkWidthActv code) as a rate token for
   ibcc_ibf_rate_; 0 when either is not one ibcc knows. */
static ibcc_rate ibcc_ibf_wsrate_(uint32_t width, const char *speed)
{
    char tok[24];
    int n;
    if (!speed || (width != 1u && width != 2u && width != 4u && width != 8u
                   && width != 12u)) return 0;
    n = snprintf(tok, sizeof tok, "%ux%s", (unsigned)width, speed);
    if (n <= 0 || (size_t)n >= sizeof tok) return 0;
    return ibcc_ibf_rate_(tok, tok + n);
}
static const char *ibcc_ibf_spdname_(const char *s, const char *e)
{
    static const char *const gb[] = {"2.5", "5", "10", "14", "25", "50",
                                     "100", "200", "FDR10"};
    static const char *const nm[] = {"SDR", "DDR", "QDR", "FDR", "EDR", "HDR",
                                     "NDR", "XDR", "FDR10"};
    unsigned i;
    for (i = 0; i < sizeof gb / sizeof gb[0]; i++)
        if ((size_t)(e - s) == strlen(gb[i]) && memcmp(s, gb[i], (size_t)(e - s)) == 0)
            return nm[i];
    return NULL;
}
/* LinkSpeedActv (IBA speed bits; extended speeds in the second byte,
   FDR10 in the third, XDR in the fourth, as ibdiagnet combines them). */
static const char *ibcc_ibf_spdcode_(uint64_t v)
{
    switch (v) {
    case 0x1: return "SDR";
    case 0x2: return "DDR";
    case 0x4: return "QDR";
    case 0x100: return "FDR";
    case 0x200: return "EDR";
    case 0x400: return "HDR";
    case 0x800: return "NDR";
    case 0x10000: return "FDR10";
    case 0x1000000: return "XDR";
    default: return NULL;
    }
}
/* LinkWidthActv (IBA: 1 = 1x, 2 = 4x, 4 = 8x, 8 = 12x, 16 = 2x). */
static uint32_t ibcc_ibf_widthcode_(uint64_t v)
{
    return v == 1u ? 1u : v == 2u ? 4u : v == 4u ? 8u : v == 8u ? 12u
         : v == 16u ? 2u : 0u;
}

/* Appends a node as declared; NULL (err filled) when out of room. */
static ibcc_ibf_rnode_ *ibcc_ibf_addnode_(ibcc_ibf_parse_ *s, const char *file,
        uint32_t line, ibcc_ibfabric_error *err)
{
    void *q;
    ibcc_ibf_rnode_ *n;
    if (s->nnode >= 2u * IBCC_IBF_MAXNODES_) {
        ibcc_fab_err_(err, IBCC_ERR_CAPACITY, file, line,
                      "more than %u nodes", IBCC_IBF_MAXNODES_);
        return NULL;
    }
    q = ibcc_ibf_grow_(&s->al, s->node, &s->cnode, s->nnode + 1u,
                       sizeof *s->node);
    if (!q) {
        ibcc_fab_err_(err, IBCC_ERR_NOMEM, file, line, "out of memory");
        return NULL;
    }
    s->node = (ibcc_ibf_rnode_ *)q;
    n = &s->node[s->nnode++];
    memset(n, 0, sizeof *n);
    n->line = line;
    return n;
}
static ibcc_result ibcc_ibf_addport_(ibcc_ibf_parse_ *s,
        const ibcc_ibf_rport_ *r, const char *file, ibcc_ibfabric_error *err)
{
    void *q;
    if (s->nport >= 4u * IBCC_IBF_MAXNODES_) {
        ibcc_fab_err_(err, IBCC_ERR_CAPACITY, file, r->line,
                      "too many links");
        return IBCC_ERR_CAPACITY;
    }
    q = ibcc_ibf_grow_(&s->al, s->port, &s->cport, s->nport + 1u,
                       sizeof *s->port);
    if (!q) {
        ibcc_fab_err_(err, IBCC_ERR_NOMEM, file, r->line, "out of memory");
        return IBCC_ERR_NOMEM;
    }
    s->port = (ibcc_ibf_rport_ *)q;
    s->port[s->nport++] = *r;
    return IBCC_OK;
}
/* A LID (and LMC) against IBA's ranges, as for ibnetdiscover comments. */
static ibcc_result ibcc_ibf_lidok_(uint32_t lid, uint32_t lmc, int has_lmc,
        const char *file, uint32_t line, ibcc_ibfabric_error *err)
{
    ibcc_ibf_note_ n;
    memset(&n, 0, sizeof n);
    n.lid[0] = lid;
    n.nlid = 1;
    n.lmc = lmc;
    n.has_lmc = (uint32_t)has_lmc;
    return ibcc_ibf_lidrange_(&n, file, line, err);
}

/* ---- ibdiagnet2.lst: one link a line ---------------------------------- */
typedef struct ibcc_ibf_lend_ {         /* one end of an lst link */
    char type;                          /* 'S', 'H' (CA) or 'R' */
    uint32_t ports, lid, pn;
    uint64_t nguid, pguid;
    char desc[IBCC_IBF_NAME];
} ibcc_ibf_lend_;

/* Blanks, then "Key:<hex>" ended by a blank: OK, PARSE or RANGE. */
static ibcc_result ibcc_ibf_lkey_(ibcc_cur_ *c, const char *key, uint64_t max,
                                  uint64_t *v)
{
    ibcc_result r;
    ibcc_cur_blanks_(c);
    if (!ibcc_cur_lit_(c, key)) return IBCC_ERR_PARSE;
    r = ibcc_cur_digits_(c, 16u, max, v);
    if (r == IBCC_ERR_PARSE || (c->p < c->e && !ibcc_blank_(*c->p)))
        return IBCC_ERR_PARSE;
    return r;
}

static ibcc_result ibcc_ibf_lst_end_(ibcc_cur_ *c, ibcc_ibf_lend_ *d,
        const char *file, uint32_t line, ibcc_ibfabric_error *err)
{
    static const char *const keys[] = {"Ports:", "SystemGUID:", "NodeGUID:",
                                        "PortGUID:", "VenID:", "DevID:",
                                        "Rev:"};
    uint64_t v[7], lid = 0, pn = 0;
    const char *t, *q, *dsc;
    unsigned k;
    ibcc_result r;
    memset(d, 0, sizeof *d);
    ibcc_cur_blanks_(c);
    if (!ibcc_cur_lit_(c, "{")) {
        ibcc_fab_err_(err, IBCC_ERR_PARSE, file, line,
                      "expected '{' to open a port");
        return IBCC_ERR_PARSE;
    }
    ibcc_cur_blanks_(c);
    t = ibcc_cur_tokend_(c);
    if (t - c->p == 2 && memcmp(c->p, "SW", 2) == 0) d->type = 'S';
    else if ((t - c->p == 2 && memcmp(c->p, "CA", 2) == 0)
             || (t - c->p == 5 && memcmp(c->p, "CA-SM", 5) == 0))
        d->type = 'H';
    else if (t - c->p == 2 && (memcmp(c->p, "RT", 2) == 0
                               || memcmp(c->p, "Rt", 2) == 0))
        d->type = 'R';
    else {
        ibcc_fab_err_(err, IBCC_ERR_PARSE, file, line,
                      "a port's node type is SW, CA, CA-SM or RT");
        return IBCC_ERR_PARSE;
    }
    c->p = t;
    for (k = 0; k < 7u; k++) {
        r = ibcc_ibf_lkey_(c, keys[k], k == 0 ? 0xffu : UINT64_MAX, &v[k]);
        if (r != IBCC_OK) {
            ibcc_fab_err_(err, r, file, line, r == IBCC_ERR_RANGE
                          ? "%s<hex> is out of range" : "expected %s<hex>",
                          keys[k]);
            return r;
        }
    }
    if (v[0] == 0) {
        ibcc_fab_err_(err, IBCC_ERR_RANGE, file, line, "a node with 0 ports");
        return IBCC_ERR_RANGE;
    }
    d->ports = (uint32_t)v[0];
    d->nguid = v[2];
    d->pguid = v[3];
    ibcc_cur_blanks_(c);
    if (!ibcc_cur_lit_(c, "{")) {
        ibcc_fab_err_(err, IBCC_ERR_PARSE, file, line,
                      "expected the node description in {...}");
        return IBCC_ERR_PARSE;
    }
    dsc = c->p;                 /* up to the '}' that LID: follows */
    for (q = c->p; q < c->e; q++) {
        ibcc_cur_ a;
        if (*q != '}') continue;
        a.p = q + 1;
        a.e = c->e;
        ibcc_cur_blanks_(&a);
        if (a.p > q + 1 && ibcc_cur_lit_(&a, "LID:")) break;
    }
    if (q >= c->e) {
        ibcc_fab_err_(err, IBCC_ERR_PARSE, file, line,
                      "the node description has no '}' before LID:");
        return IBCC_ERR_PARSE;
    }
    {
        size_t n = (size_t)(q - dsc);
        if (n >= sizeof d->desc) n = sizeof d->desc - 1u;
        memcpy(d->desc, dsc, n);
        d->desc[n] = 0;
    }
    c->p = q + 1;
    r = ibcc_ibf_lkey_(c, "LID:", 0xffffu, &lid);
    if (r == IBCC_OK) r = ibcc_ibf_lkey_(c, "PN:", 0xffu, &pn);
    if (r != IBCC_OK) {
        ibcc_fab_err_(err, r, file, line, r == IBCC_ERR_RANGE
                      ? "LID:<hex> above 0xFFFF or PN:<hex> above 0xFF"
                      : "expected LID:<hex> PN:<hex> after the description");
        return r;
    }
    d->lid = (uint32_t)lid;
    d->pn = (uint32_t)pn;
    if (ibcc_ibf_lidok_(d->lid, 0, 0, file, line, err) != IBCC_OK)
        return IBCC_ERR_RANGE;
    ibcc_cur_blanks_(c);
    if (!ibcc_cur_lit_(c, "}")) {
        ibcc_fab_err_(err, IBCC_ERR_PARSE, file, line,
                      "expected '}' to close a port");
        return IBCC_ERR_PARSE;
    }
    return IBCC_OK;
}

/* Declares the node of an end (merged by GUID later); its index. */
static ibcc_result ibcc_ibf_lst_node_(ibcc_ibf_parse_ *s,
        const ibcc_ibf_lend_ *d, const char *file, uint32_t line,
        ibcc_ibfabric_error *err, uint32_t *idx)
{
    ibcc_ibf_rnode_ *n = ibcc_ibf_addnode_(s, file, line, err);
    if (!n) return err ? err->code : IBCC_ERR_NOMEM;
    n->type = d->type;
    n->ports = d->ports;
    n->guid = d->nguid;
    n->lid = d->type == 'S' ? d->lid : 0;
    memcpy(n->desc, d->desc, sizeof n->desc);
    *idx = s->nnode - 1u;
    return IBCC_OK;
}

typedef struct ibcc_ibf_lst_ctx_ {
    ibcc_ibf_parse_ *s;
    const char *file;
    ibcc_ibfabric_error *err;
} ibcc_ibf_lst_ctx_;

static ibcc_result ibcc_ibf_lst_line_(void *ctx, ibcc_cur_ *c, uint32_t line)
{
    ibcc_ibf_lst_ctx_ *t = (ibcc_ibf_lst_ctx_ *)ctx;
    const char *file = t->file;
    ibcc_ibfabric_error *err = t->err;
    ibcc_ibf_lend_ e[2];
    ibcc_ibf_rport_ rp;
    uint32_t width = 0, ia, ib, a;
    int up = 0;
    ibcc_rate rate = 0;
    ibcc_result r;
    if (c->p >= c->e || *c->p == '#') return IBCC_OK;
    if ((r = ibcc_ibf_lst_end_(c, &e[0], file, line, err)) != IBCC_OK
        || (r = ibcc_ibf_lst_end_(c, &e[1], file, line, err)) != IBCC_OK)
        return r;
    ibcc_cur_blanks_(c);
    if (!ibcc_cur_lit_(c, "PHY=")) {
        ibcc_fab_err_(err, IBCC_ERR_PARSE, file, line,
                      "expected PHY=<width> after the two ports");
        return IBCC_ERR_PARSE;
    }
    if (!ibcc_ibf_dec_(c, 12u, &width) || !ibcc_cur_lit_(c, "x")
        || (c->p < c->e && !ibcc_blank_(*c->p))
        || (width != 1u && width != 2u && width != 4u && width != 8u
            && width != 12u)) {
        ibcc_fab_err_(err, IBCC_ERR_PARSE, file, line,
                      "PHY= takes a link width 1x, 2x, 4x, 8x or 12x");
        return IBCC_ERR_PARSE;
    }
    ibcc_cur_blanks_(c);
    if (!ibcc_cur_lit_(c, "LOG=")) {
        ibcc_fab_err_(err, IBCC_ERR_PARSE, file, line,
                      "expected LOG=<state> after PHY=");
        return IBCC_ERR_PARSE;
    }
    {
        const char *q = ibcc_cur_tokend_(c);
        if (q - c->p == 3 && (memcmp(c->p, "ACT", 3) == 0
                              || memcmp(c->p, "INI", 3) == 0
                              || memcmp(c->p, "ARM", 3) == 0)) up = 1;
        c->p = q;
    }
    for (;;) {                  /* SPD=<lane speed>; other KEY=VALUE skipped */
        const char *q, *eq;
        ibcc_cur_blanks_(c);
        if (c->p >= c->e) break;
        q = ibcc_cur_tokend_(c);
        for (eq = c->p; eq < q && *eq != '='; eq++) {}
        if (eq == q || eq == c->p) {
            ibcc_fab_err_(err, IBCC_ERR_PARSE, file, line,
                          "unexpected text after LOG= (only KEY=VALUE "
                          "tokens follow)");
            return IBCC_ERR_PARSE;
        }
        if (eq - c->p == 3 && memcmp(c->p, "SPD", 3) == 0) {
            const char *nm = ibcc_ibf_spdname_(eq + 1, q);
            if (!nm) {
                ibcc_fab_err_(err, IBCC_ERR_PARSE, file, line,
                              "SPD=%.*s is not a lane speed ibcc knows "
                              "(2.5 5 10 14 25 50 100 200 FDR10)",
                              (int)(q - eq - 1 > 16 ? 16 : q - eq - 1), eq + 1);
                return IBCC_ERR_PARSE;
            }
            rate = ibcc_ibf_wsrate_(width, nm);
        }
        c->p = q;
    }
    if (!up) return IBCC_OK;    /* a link that is not up: no cable */
    if ((r = ibcc_ibf_lst_node_(t->s, &e[0], file, line, err, &ia)) != IBCC_OK
        || (r = ibcc_ibf_lst_node_(t->s, &e[1], file, line, err, &ib))
           != IBCC_OK)
        return r;
    /* the port line from the adapter's side when one end is an adapter,
       so that its own LID comes with it */
    a = e[0].type == 'S' && e[1].type != 'S' ? 1u : 0u;
    memset(&rp, 0, sizeof rp);
    rp.node = a ? ib : ia;
    rp.port = e[a].pn;
    rp.ptype = e[1u - a].type;
    rp.pguid = e[1u - a].nguid;
    rp.pport = e[1u - a].pn;
    rp.line = line;
    rp.rate = rate;
    if (e[a].type != 'S') {
        rp.own_guid = e[a].pguid;
        rp.own_lid = e[a].lid;
        rp.has_own = 1;
    }
    if (e[1u - a].type != 'S') {
        rp.peer_pguid = e[1u - a].pguid;
        rp.peer_lid = e[1u - a].lid;
        rp.has_peer_lid = 1;
    }
    return ibcc_ibf_addport_(t->s, &rp, file, err);
}

/* Nodes declared on several lines become one (the first; the same type,
   port count and, for a switch, LID everywhere); port lines follow. */
static ibcc_result ibcc_ibf_merge_(ibcc_ibf_parse_ *s, const char *file,
                                   ibcc_ibfabric_error *err)
{
    ibcc_ibf_key_ *key;
    uint32_t *to, i, k = 0;
    if (s->nnode == 0) return IBCC_OK;
    key = (ibcc_ibf_key_ *)ibcc_fab_alloc_(&s->al,
              ibcc_fab_mul_(s->nnode, sizeof *key));
    to = (uint32_t *)ibcc_fab_alloc_(&s->al, ibcc_fab_mul_(s->nnode,
                                                           sizeof *to));
    if (!key || !to) {
        ibcc_fab_free_(&s->al, key);
        ibcc_fab_free_(&s->al, to);
        ibcc_fab_err_(err, IBCC_ERR_NOMEM, file, 0, "out of memory");
        return IBCC_ERR_NOMEM;
    }
    for (i = 0; i < s->nnode; i++) { key[i].guid = s->node[i].guid; key[i].idx = i; }
    qsort(key, s->nnode, sizeof *key, ibcc_ibf_keycmp_);
    for (i = 0; i < s->nnode; i++) {
        uint32_t first = i && key[i].guid == key[i - 1u].guid
                       ? to[key[i - 1u].idx] : key[i].idx;
        const ibcc_ibf_rnode_ *f = &s->node[first], *n = &s->node[key[i].idx];
        to[key[i].idx] = first;
        if (first != key[i].idx
            && (f->type != n->type || f->ports != n->ports
                || (f->type == 'S' && f->lid != n->lid))) {
            ibcc_fab_err_(err, IBCC_ERR_MISMATCH, file, n->line,
                          "node 0x%016llx differs from its description on "
                          "line %u (type, port count or switch LID)",
                          (unsigned long long)n->guid, f->line);
            ibcc_fab_free_(&s->al, key);
            ibcc_fab_free_(&s->al, to);
            return IBCC_ERR_MISMATCH;
        }
    }
    ibcc_fab_free_(&s->al, key);
    for (i = 0; i < s->nnode; i++) {    /* compact, keeping first order */
        if (to[i] != i) { to[i] = to[to[i]]; continue; }
        s->node[k] = s->node[i];
        to[i] = k++;
    }
    for (i = 0; i < s->nport; i++) s->port[i].node = to[s->port[i].node];
    s->nnode = k;
    ibcc_fab_free_(&s->al, to);
    return IBCC_OK;
}

static ibcc_result ibcc_ibf_read_lst_(ibcc_ibf_parse_ *s, const char *text,
        size_t len, const char *file, ibcc_ibfabric_error *err,
        uint32_t *lines)
{
    ibcc_ibf_lst_ctx_ t;
    ibcc_result r;
    t.s = s;
    t.file = file;
    t.err = err;
    r = ibcc_lines_(text, len, &t, ibcc_ibf_lst_line_, lines);
    return r == IBCC_OK ? ibcc_ibf_merge_(s, file, err) : r;
}

IBCC_API ibcc_result ibcc_ibfabric_parse_lst(ibcc_ibfabric *f,
        const char *text, size_t len, const char *file,
        const ibcc_fabric_allocator *al, ibcc_ibfabric_error *err)
{
    return ibcc_ibf_load_(f, text, len, file ? file : "(ibdiagnet2.lst)", al,
                          err, ibcc_ibf_read_lst_);
}

/* ---- ibdiagnet2.db_csv: NODES, PORTS and LINKS tables ------------------ */
enum { IBCC_IBF_T_NONE_, IBCC_IBF_T_NODES_, IBCC_IBF_T_PORTS_,
       IBCC_IBF_T_LINKS_, IBCC_IBF_T_OTHER_ };
#define IBCC_IBF_NCOL_ 7u
typedef struct ibcc_ibf_cport_ {        /* a PORTS row */
    uint64_t node, pguid;
    uint32_t port, lid, lmc, has_lmc, line;
    ibcc_rate rate;
} ibcc_ibf_cport_;
typedef struct ibcc_ibf_clink_ {        /* a LINKS row */
    uint64_t g[2];
    uint32_t p[2], line;
} ibcc_ibf_clink_;
typedef struct ibcc_ibf_csv_ctx_ {
    ibcc_ibf_parse_ *s;
    const char *file;
    ibcc_ibfabric_error *err;
    int table;                          /* IBCC_IBF_T_* being read */
    char name[40];                      /* its name */
    uint32_t start, header;             /* its START_ line, header read */
    uint32_t seen[4];                   /* START_ line of each of ours */
    uint32_t col[IBCC_IBF_NCOL_];       /* column of each wanted field */
    ibcc_ibf_cport_ *cp; uint32_t ncp, ccp;
    ibcc_ibf_clink_ *cl; uint32_t ncl, ccl;
} ibcc_ibf_csv_ctx_;

/* The columns each table needs (the first `req` required) in the order
   the row reader stores them. */
static const char *const ibcc_ibf_cols_[4][IBCC_IBF_NCOL_] = {
    {0},
    {"NodeDesc", "NumPorts", "NodeType", "NodeGUID", 0, 0, 0},
    {"NodeGuid", "PortGuid", "PortNum", "LID", "LMC", "LinkWidthActv",
     "LinkSpeedActv"},
    {"NodeGuid1", "PortNum1", "NodeGuid2", "PortNum2", 0, 0, 0}};
static const unsigned ibcc_ibf_colreq_[4] = {0, 4, 4, 4};

/* The next CSV field into *fl (quotes stripped, "" kept doubled): 1, 0
   at the end of the row, -1 for an unclosed quote. */
static int ibcc_ibf_csv_field_(ibcc_cur_ *c, ibcc_cur_ *fl, int *more)
{
    if (!*more) return 0;
    if (c->p < c->e && *c->p == '"') {
        const char *q = c->p + 1;
        for (;;) {
            while (q < c->e && *q != '"') q++;
            if (q >= c->e) return -1;
            if (q + 1 < c->e && q[1] == '"') { q += 2; continue; }
            break;
        }
        fl->p = c->p + 1;
        fl->e = q;
        c->p = q + 1;
        if (c->p < c->e && *c->p != ',') return -1;
    } else {
        const char *q = c->p;
        while (q < c->e && *q != ',') q++;
        fl->p = c->p;
        fl->e = q;
        c->p = q;
        while (fl->e > fl->p && ibcc_blank_(fl->e[-1])) fl->e--;
        while (fl->p < fl->e && ibcc_blank_(*fl->p)) fl->p++;
    }
    if (c->p < c->e) c->p++;            /* the comma */
    else *more = 0;
    return 1;
}

/* A whole field as a number (0x-hex or decimal) up to max; N/A or empty
   (when na_ok) gives *v = 0 and *known = 0. */
static ibcc_result ibcc_ibf_csv_num_(ibcc_cur_ f, uint64_t max, int na_ok,
                                     uint64_t *v, int *known)
{
    ibcc_result r;
    *v = 0;
    if (known) *known = 0;
    if (na_ok && (f.p == f.e || (f.e - f.p == 3 && memcmp(f.p, "N/A", 3) == 0)))
        return IBCC_OK;
    r = ibcc_cur_num_(&f, max, v);
    if (r == IBCC_ERR_PARSE || f.p != f.e) return IBCC_ERR_PARSE;
    if (r == IBCC_OK && known) *known = 1;
    return r;
}

static ibcc_result ibcc_ibf_csv_bad_(ibcc_ibf_csv_ctx_ *t, uint32_t line,
        ibcc_result r, const char *col)
{
    ibcc_fab_err_(t->err, r, t->file, line, r == IBCC_ERR_RANGE
                  ? "%s: the %s value is out of range"
                  : "%s: the %s value is not a number", t->name, col);
    return r;
}

static ibcc_result ibcc_ibf_csv_row_(ibcc_ibf_csv_ctx_ *t, ibcc_cur_ *c,
                                     uint32_t line)
{
    const char *const *want = ibcc_ibf_cols_[t->table];
    ibcc_cur_ fv[IBCC_IBF_NCOL_], fl;
    uint32_t i = 0, k, got = 0;
    uint64_t v[IBCC_IBF_NCOL_];
    int more = 1, rc, known[IBCC_IBF_NCOL_];
    ibcc_result r;
    memset(fv, 0, sizeof fv);
    while ((rc = ibcc_ibf_csv_field_(c, &fl, &more)) == 1) {
        for (k = 0; k < IBCC_IBF_NCOL_; k++)
            if (want[k] && t->col[k] == i) { fv[k] = fl; got |= 1u << k; }
        if (i < 0xffffffu) i++;
    }
    if (rc < 0) {
        ibcc_fab_err_(t->err, IBCC_ERR_PARSE, t->file, line,
                      "%s: a quoted field is not closed on its line",
                      t->name);
        return IBCC_ERR_PARSE;
    }
    for (k = 0; k < IBCC_IBF_NCOL_; k++) {
        if (!want[k] || t->col[k] == IBCC_IBF_NONE_) continue;
        if (!(got & (1u << k))) {
            ibcc_fab_err_(t->err, IBCC_ERR_PARSE, t->file, line,
                          "%s: the row ends before its %s column", t->name,
                          want[k]);
            return IBCC_ERR_PARSE;
        }
    }
    memset(known, 0, sizeof known);
    for (k = 0; k < IBCC_IBF_NCOL_; k++) {
        uint64_t max = 0xffu;
        v[k] = 0;
        if (!want[k] || t->col[k] == IBCC_IBF_NONE_) continue;
        if (t->table == IBCC_IBF_T_NODES_ && k == 0) continue;  /* desc */
        if ((t->table == IBCC_IBF_T_NODES_ && k == 3)
            || (t->table == IBCC_IBF_T_PORTS_ && k <= 1)
            || (t->table == IBCC_IBF_T_LINKS_ && (k == 0 || k == 2)))
            max = UINT64_MAX;                               /* GUIDs */
        else if (t->table == IBCC_IBF_T_PORTS_ && k == 3) max = 0xffffu;
        else if (t->table == IBCC_IBF_T_PORTS_ && k >= 5) max = UINT64_MAX;
        r = ibcc_ibf_csv_num_(fv[k], max, t->table == IBCC_IBF_T_PORTS_ && k >= 4,
                              &v[k], &known[k]);
        if (r != IBCC_OK) return ibcc_ibf_csv_bad_(t, line, r, want[k]);
    }
    if (t->table == IBCC_IBF_T_NODES_) {
        ibcc_ibf_rnode_ *n;
        size_t j, o = 0;
        if (v[1] == 0) {
            ibcc_fab_err_(t->err, IBCC_ERR_RANGE, t->file, line,
                          "NODES: a node with 0 ports");
            return IBCC_ERR_RANGE;
        }
        if (v[2] < 1u || v[2] > 3u) {
            ibcc_fab_err_(t->err, IBCC_ERR_RANGE, t->file, line,
                          "NODES: NodeType %u is not 1 (CA), 2 (switch) or "
                          "3 (router)", (unsigned)v[2]);
            return IBCC_ERR_RANGE;
        }
        n = ibcc_ibf_addnode_(t->s, t->file, line, t->err);
        if (!n) return t->err ? t->err->code : IBCC_ERR_NOMEM;
        n->type = v[2] == 2u ? 'S' : v[2] == 1u ? 'H' : 'R';
        n->ports = (uint32_t)v[1];
        n->guid = v[3];
        for (j = 0; fv[0].p + j < fv[0].e && o + 1u < sizeof n->desc; j++) {
            n->desc[o++] = fv[0].p[j];
            if (fv[0].p[j] == '"') j++;     /* "" is one quote */
        }
        n->desc[o] = 0;
        return IBCC_OK;
    }
    if (t->table == IBCC_IBF_T_PORTS_) {
        ibcc_ibf_cport_ *p;
        void *q;
        if (t->ncp >= 4u * IBCC_IBF_MAXNODES_) {
            ibcc_fab_err_(t->err, IBCC_ERR_CAPACITY, t->file, line,
                          "PORTS: too many rows");
            return IBCC_ERR_CAPACITY;
        }
        q = ibcc_ibf_grow_(&t->s->al, t->cp, &t->ccp, t->ncp + 1u, sizeof *t->cp);
        if (!q) {
            ibcc_fab_err_(t->err, IBCC_ERR_NOMEM, t->file, line, "out of memory");
            return IBCC_ERR_NOMEM;
        }
        t->cp = (ibcc_ibf_cport_ *)q;
        p = &t->cp[t->ncp++];
        memset(p, 0, sizeof *p);
        p->node = v[0];
        p->pguid = v[1];
        p->port = (uint32_t)v[2];
        p->lid = (uint32_t)v[3];
        p->lmc = v[4] > 255u ? 255u : (uint32_t)v[4];
        p->has_lmc = (uint32_t)known[4];
        p->line = line;
        if (known[5] && known[6]) {
            const char *nm = ibcc_ibf_spdcode_(v[6]);
            uint32_t w = ibcc_ibf_widthcode_(v[5]);
            if (!nm || !w) {
                ibcc_fab_err_(t->err, IBCC_ERR_RANGE, t->file, line,
                              "PORTS: LinkWidthActv %llu or LinkSpeedActv "
                              "%llu is not a width or lane speed ibcc knows",
                              (unsigned long long)v[5],
                              (unsigned long long)v[6]);
                return IBCC_ERR_RANGE;
            }
            p->rate = ibcc_ibf_wsrate_(w, nm);
        }
        return ibcc_ibf_lidok_(p->lid, p->lmc, (int)p->has_lmc, t->file,
                               line, t->err);
    }
    {   /* LINKS */
        ibcc_ibf_clink_ *l;
        void *q;
        if (t->ncl >= 4u * IBCC_IBF_MAXNODES_) {
            ibcc_fab_err_(t->err, IBCC_ERR_CAPACITY, t->file, line,
                          "LINKS: too many rows");
            return IBCC_ERR_CAPACITY;
        }
        q = ibcc_ibf_grow_(&t->s->al, t->cl, &t->ccl, t->ncl + 1u, sizeof *t->cl);
        if (!q) {
            ibcc_fab_err_(t->err, IBCC_ERR_NOMEM, t->file, line, "out of memory");
            return IBCC_ERR_NOMEM;
        }
        t->cl = (ibcc_ibf_clink_ *)q;
        l = &t->cl[t->ncl++];
        l->g[0] = v[0]; l->p[0] = (uint32_t)v[1];
        l->g[1] = v[2]; l->p[1] = (uint32_t)v[3];
        l->line = line;
        return IBCC_OK;
    }
}

static ibcc_result ibcc_ibf_csv_line_(void *ctx, ibcc_cur_ *c, uint32_t line)
{
    ibcc_ibf_csv_ctx_ *t = (ibcc_ibf_csv_ctx_ *)ctx;
    if (c->p >= c->e || *c->p == '#') return IBCC_OK;
    if (ibcc_cur_lit_(c, "START_")) {
        size_t n = (size_t)(c->e - c->p);
        int tb;
        if (t->table != IBCC_IBF_T_NONE_) {
            ibcc_fab_err_(t->err, IBCC_ERR_PARSE, t->file, line,
                          "START_%.*s inside %s (opened on line %u)",
                          (int)(n > 32u ? 32u : n), c->p, t->name, t->start);
            return IBCC_ERR_PARSE;
        }
        if (n == 0 || n >= sizeof t->name) {
            ibcc_fab_err_(t->err, IBCC_ERR_PARSE, t->file, line,
                          "a table name of 1 to %u characters after START_",
                          (unsigned)(sizeof t->name - 1u));
            return IBCC_ERR_PARSE;
        }
        memcpy(t->name, c->p, n);
        t->name[n] = 0;
        tb = strcmp(t->name, "NODES") == 0 ? IBCC_IBF_T_NODES_
           : strcmp(t->name, "PORTS") == 0 ? IBCC_IBF_T_PORTS_
           : strcmp(t->name, "LINKS") == 0 ? IBCC_IBF_T_LINKS_
           : IBCC_IBF_T_OTHER_;
        if (tb != IBCC_IBF_T_OTHER_ && t->seen[tb]) {
            ibcc_fab_err_(t->err, IBCC_ERR_MISMATCH, t->file, line,
                          "a second %s table (the first starts on line %u)",
                          t->name, t->seen[tb]);
            return IBCC_ERR_MISMATCH;
        }
        if (tb != IBCC_IBF_T_OTHER_) t->seen[tb] = line;
        t->table = tb;
        t->start = line;
        t->header = 0;
        return IBCC_OK;
    }
    if (ibcc_cur_lit_(c, "END_")) {
        if (t->table == IBCC_IBF_T_NONE_ || (size_t)(c->e - c->p) != strlen(t->name)
            || memcmp(c->p, t->name, strlen(t->name)) != 0) {
            ibcc_fab_err_(t->err, IBCC_ERR_PARSE, t->file, line,
                          t->table == IBCC_IBF_T_NONE_
                          ? "END_ outside a table%s"
                          : "END_ of another table than START_%s",
                          t->table == IBCC_IBF_T_NONE_ ? "" : t->name);
            return IBCC_ERR_PARSE;
        }
        if (t->table != IBCC_IBF_T_OTHER_ && !t->header) {
            ibcc_fab_err_(t->err, IBCC_ERR_PARSE, t->file, line,
                          "%s has no header row", t->name);
            return IBCC_ERR_PARSE;
        }
        t->table = IBCC_IBF_T_NONE_;
        return IBCC_OK;
    }
    if (t->table == IBCC_IBF_T_NONE_) {
        ibcc_fab_err_(t->err, IBCC_ERR_PARSE, t->file, line,
                      "a line outside START_<table> ... END_<table>");
        return IBCC_ERR_PARSE;
    }
    if (t->table == IBCC_IBF_T_OTHER_) return IBCC_OK;
    if (!t->header) {                   /* the column names */
        const char *const *want = ibcc_ibf_cols_[t->table];
        ibcc_cur_ fl;
        uint32_t i = 0, k;
        int more = 1, rc;
        for (k = 0; k < IBCC_IBF_NCOL_; k++) t->col[k] = IBCC_IBF_NONE_;
        while ((rc = ibcc_ibf_csv_field_(c, &fl, &more)) == 1) {
            for (k = 0; k < IBCC_IBF_NCOL_; k++)
                if (want[k] && t->col[k] == IBCC_IBF_NONE_
                    && (size_t)(fl.e - fl.p) == strlen(want[k])
                    && memcmp(fl.p, want[k], strlen(want[k])) == 0)
                    t->col[k] = i;
            if (i < 0xffffffu) i++;
        }
        if (rc < 0) {
            ibcc_fab_err_(t->err, IBCC_ERR_PARSE, t->file, line,
                          "%s: a quoted field is not closed on its line",
                          t->name);
            return IBCC_ERR_PARSE;
        }
        for (k = 0; k < ibcc_ibf_colreq_[t->table]; k++)
            if (t->col[k] == IBCC_IBF_NONE_) {
                ibcc_fab_err_(t->err, IBCC_ERR_PARSE, t->file, line,
                              "%s: the header has no %s column", t->name,
                              want[k]);
                return IBCC_ERR_PARSE;
            }
        t->header = line;
        return IBCC_OK;
    }
    return ibcc_ibf_csv_row_(t, c, line);
}

static int ibcc_ibf_cportcmp_(const void *x, const void *y)
{
    const ibcc_ibf_cport_ *a = (const ibcc_ibf_cport_ *)x;
    const ibcc_ibf_cport_ *b = (const ibcc_ibf_cport_ *)y;
    if (a->node != b->node) return a->node < b->node ? -1 : 1;
    if (a->port != b->port) return a->port < b->port ? -1 : 1;
    return a->line < b->line ? -1 : (a->line > b->line);
}
static const ibcc_ibf_cport_ *ibcc_ibf_cfind_(const ibcc_ibf_csv_ctx_ *t,
                                              uint64_t node, uint32_t port)
{
    uint32_t lo = 0, hi = t->ncp;
    while (lo < hi) {
        uint32_t mid = lo + (hi - lo) / 2u;
        const ibcc_ibf_cport_ *p = &t->cp[mid];
        if (p->node < node || (p->node == node && p->port < port)) lo = mid + 1u;
        else hi = mid;
    }
    return lo < t->ncp && t->cp[lo].node == node && t->cp[lo].port == port
         ? &t->cp[lo] : NULL;
}

/* The tables into nodes (their LIDs) and port lines (one per link, from
   the adapter's side where there is one). */
static ibcc_result ibcc_ibf_csv_done_(ibcc_ibf_csv_ctx_ *t)
{
    ibcc_ibf_parse_ *s = t->s;
    const char *file = t->file;
    ibcc_ibf_key_ *key;
    uint32_t i;
    ibcc_result r = IBCC_OK;
    if (t->table != IBCC_IBF_T_NONE_) {
        ibcc_fab_err_(t->err, IBCC_ERR_PARSE, file, t->start,
                      "START_%s has no END_%s", t->name, t->name);
        return IBCC_ERR_PARSE;
    }
    if (!t->seen[IBCC_IBF_T_NODES_] || !t->seen[IBCC_IBF_T_LINKS_]) {
        ibcc_fab_err_(t->err, IBCC_ERR_NOT_FOUND, file, 0,
                      "no %s table (START_%s)", t->seen[IBCC_IBF_T_NODES_]
                      ? "LINKS" : "NODES", t->seen[IBCC_IBF_T_NODES_]
                      ? "LINKS" : "NODES");
        return IBCC_ERR_NOT_FOUND;
    }
    key = (ibcc_ibf_key_ *)ibcc_fab_alloc_(&s->al, ibcc_fab_mul_(
              s->nnode ? s->nnode : 1u, sizeof *key));
    if (!key) {
        ibcc_fab_err_(t->err, IBCC_ERR_NOMEM, file, 0, "out of memory");
        return IBCC_ERR_NOMEM;
    }
    for (i = 0; i < s->nnode; i++) { key[i].guid = s->node[i].guid; key[i].idx = i; }
    qsort(key, s->nnode, sizeof *key, ibcc_ibf_keycmp_);
    for (i = 1; i < s->nnode && r == IBCC_OK; i++)
        if (key[i].guid == key[i - 1u].guid) {
            const ibcc_ibf_rnode_ *n = &s->node[key[i].idx];
            ibcc_fab_err_(t->err, IBCC_ERR_MISMATCH, file, n->line,
                          "GUID 0x%016llx declared twice (first on line %u)",
                          (unsigned long long)n->guid,
                          s->node[key[i - 1u].idx].line);
            r = IBCC_ERR_MISMATCH;
        }
    if (t->ncp) qsort(t->cp, t->ncp, sizeof *t->cp, ibcc_ibf_cportcmp_);
    for (i = 0; i < t->ncp && r == IBCC_OK; i++) {
        const ibcc_ibf_cport_ *p = &t->cp[i];
        uint32_t ni = ibcc_ibf_lookup_(key, s->nnode, p->node);
        if (i && p->node == p[-1].node && p->port == p[-1].port) {
            ibcc_fab_err_(t->err, IBCC_ERR_MISMATCH, file, p->line,
                          "PORTS: port %u of 0x%016llx listed twice (also on "
                          "line %u)", p->port, (unsigned long long)p->node,
                          p[-1].line);
            r = IBCC_ERR_MISMATCH;
        } else if (ni == IBCC_IBF_NONE_) {
            ibcc_fab_err_(t->err, IBCC_ERR_NOT_FOUND, file, p->line,
                          "PORTS: node 0x%016llx is not in NODES",
                          (unsigned long long)p->node);
            r = IBCC_ERR_NOT_FOUND;
        } else if (p->port > s->node[ni].ports) {
            ibcc_fab_err_(t->err, IBCC_ERR_RANGE, file, p->line,
                          "PORTS: port %u is not one of the %u ports of "
                          "0x%016llx", p->port, s->node[ni].ports,
                          (unsigned long long)p->node);
            r = IBCC_ERR_RANGE;
        } else if (s->node[ni].type == 'S'
                   && (p->port == 0 || s->node[ni].lid == 0)) {
            s->node[ni].lid = p->lid;   /* port 0's, else the first one */
            s->node[ni].lmc = 0;
        }
    }
    for (i = 0; i < t->ncl && r == IBCC_OK; i++) {
        const ibcc_ibf_clink_ *l = &t->cl[i];
        const ibcc_ibf_cport_ *cp[2];
        ibcc_ibf_rport_ rp;
        uint32_t ni[2], a, k;
        for (k = 0; k < 2u; k++) {
            ni[k] = ibcc_ibf_lookup_(key, s->nnode, l->g[k]);
            if (ni[k] == IBCC_IBF_NONE_) {
                ibcc_fab_err_(t->err, IBCC_ERR_NOT_FOUND, file, l->line,
                              "LINKS: node 0x%016llx is not in NODES",
                              (unsigned long long)l->g[k]);
                r = IBCC_ERR_NOT_FOUND;
                break;
            }
            cp[k] = ibcc_ibf_cfind_(t, l->g[k], l->p[k]);
        }
        if (r != IBCC_OK) break;
        a = s->node[ni[0]].type == 'S' && s->node[ni[1]].type != 'S' ? 1u : 0u;
        memset(&rp, 0, sizeof rp);
        rp.node = ni[a];
        rp.port = l->p[a];
        rp.ptype = s->node[ni[1u - a]].type;
        rp.pguid = l->g[1u - a];
        rp.pport = l->p[1u - a];
        rp.line = l->line;
        rp.rate = cp[0] && cp[0]->rate ? cp[0]->rate : cp[1] ? cp[1]->rate : 0;
        if (s->node[ni[a]].type != 'S' && cp[a]) {
            rp.own_guid = cp[a]->pguid;
            rp.own_lid = cp[a]->lid;
            rp.own_lmc = cp[a]->lmc;
            rp.has_own = 1;
        }
        if (s->node[ni[1u - a]].type != 'S' && cp[1u - a]) {
            rp.peer_pguid = cp[1u - a]->pguid;
            rp.peer_lid = cp[1u - a]->lid;
            rp.has_peer_lid = 1;
        }
        r = ibcc_ibf_addport_(s, &rp, file, t->err);
    }
    ibcc_fab_free_(&s->al, key);
    return r;
}

static ibcc_result ibcc_ibf_read_csv_(ibcc_ibf_parse_ *s, const char *text,
        size_t len, const char *file, ibcc_ibfabric_error *err,
        uint32_t *lines)
{
    ibcc_ibf_csv_ctx_ t;
    ibcc_result r;
    memset(&t, 0, sizeof t);
    t.s = s;
    t.file = file;
    t.err = err;
    r = ibcc_lines_(text, len, &t, ibcc_ibf_csv_line_, lines);
    if (r == IBCC_OK) r = ibcc_ibf_csv_done_(&t);
    ibcc_fab_free_(&s->al, t.cp);
    ibcc_fab_free_(&s->al, t.cl);
    return r;
}

IBCC_API ibcc_result ibcc_ibfabric_parse_dbcsv(ibcc_ibfabric *f,
        const char *text, size_t len, const char *file,
        const ibcc_fabric_allocator *al, ibcc_ibfabric_error *err)
{
    return ibcc_ibf_load_(f, text, len, file ? file : "(ibdiagnet2.db_csv)",
                          al, err, ibcc_ibf_read_csv_);
}

/* ---- ibdiagnet2.fdbs: unicast forwarding tables ------------------------ */
/* A table's header waits for its first entry: only PLFT 0 (the table of
   every port, when a switch has private LFTs) is read. */
static ibcc_result ibcc_ibf_fdbs_open_(ibcc_ibf_lft_ctx_ *t)
{
    ibcc_result r = IBCC_OK;
    if (t->pend_line && t->plft == 0)
        r = ibcc_ibf_lft_table_(t, t->pend_guid, t->pend_line);
    t->pend_line = 0;
    return r;
}

static ibcc_result ibcc_ibf_fdbs_line_(void *ctx, ibcc_cur_ *c,
                                       uint32_t line)
{
    ibcc_ibf_lft_ctx_ *t = (ibcc_ibf_lft_ctx_ *)ctx;
    const char *file = t->file;
    uint64_t v = 0;
    uint32_t port = 255u;
    ibcc_result r;
    if (c->p >= c->e || *c->p == '#') return IBCC_OK;
    if (ibcc_cur_lit_(c, "osm_ucast_mgr_dump_ucast_routes:")
        || ibcc_cur_lit_(c, "dump_ucast_routes:")) {
        ibcc_cur_blanks_(c);
        if (!ibcc_cur_lit_(c, "Switch")) goto bad_head;
        ibcc_cur_blanks_(c);
        if (!ibcc_cur_lit_(c, "0x") || !ibcc_ibf_hex_(c, &v)
            || !ibcc_cur_done_(c)) goto bad_head;
        if ((r = ibcc_ibf_fdbs_open_(t)) != IBCC_OK) return r;
        t->cur = IBCC_IBF_NONE_;
        t->pend_guid = v;
        t->pend_line = line;
        t->plft = 0;
        t->in_table = 1;
        return IBCC_OK;
    bad_head:
        ibcc_fab_err_(t->err, IBCC_ERR_PARSE, file, line,
                      "a table header is \"...dump_ucast_routes: Switch "
                      "0x<guid>\"");
        return IBCC_ERR_PARSE;
    }
    if (ibcc_cur_lit_(c, "PLFT_NUM:")) {
        if (ibcc_cur_field_(c, 0xffu, &v) != IBCC_OK || !ibcc_cur_done_(c)) {
            ibcc_fab_err_(t->err, IBCC_ERR_PARSE, file, line,
                          "PLFT_NUM: takes a number 0..255");
            return IBCC_ERR_PARSE;
        }
        if (!t->in_table) {
            ibcc_fab_err_(t->err, IBCC_ERR_PARSE, file, line,
                          "PLFT_NUM: before any table header");
            return IBCC_ERR_PARSE;
        }
        if (t->pend_line) t->plft = (uint32_t)v;
        else if (v != t->plft) {        /* another plane's table follows */
            t->plft = (uint32_t)v;
            t->cur = IBCC_IBF_NONE_;
        }
        return IBCC_OK;
    }
    if (ibcc_cur_lit_(c, "LID")) {      /* column titles */
        if (c->p < c->e && !ibcc_blank_(*c->p) && *c->p != ':') goto bad;
        return IBCC_OK;
    }
    if (ibcc_cur_lit_(c, "0x")) {
        if (!ibcc_ibf_hex_(c, &v) || v > 0xffffu) goto bad;
        ibcc_cur_blanks_(c);
        if (!ibcc_cur_lit_(c, ":")) goto bad;
        ibcc_cur_blanks_(c);
        if (!ibcc_cur_lit_(c, "UNREACHABLE")) {
            if (!ibcc_ibf_dec_(c, 255u, &port)) goto bad;
            ibcc_cur_blanks_(c);
            if (c->p < c->e && *c->p != ':') goto bad;
        } else if (!ibcc_cur_done_(c)) goto bad;
        if (!t->in_table) {
            ibcc_fab_err_(t->err, IBCC_ERR_PARSE, file, line,
                          "an entry before any table header");
            return IBCC_ERR_PARSE;
        }
        if ((r = ibcc_ibf_fdbs_open_(t)) != IBCC_OK) return r;
        if (t->plft != 0) return IBCC_OK;       /* another plane's */
        return ibcc_ibf_lft_entry_(t, (uint32_t)v, port, line);
    }
bad:
    ibcc_fab_err_(t->err, IBCC_ERR_PARSE, file, line,
                  "not a line of ibdiagnet2.fdbs (a table header, LID "
                  "titles, PLFT_NUM: or 0x<lid> : <port>|UNREACHABLE)");
    return IBCC_ERR_PARSE;
}

IBCC_API ibcc_result ibcc_ibfabric_fdbs(ibcc_ibfabric *f, const char *text,
        size_t len, const char *file, ibcc_ibfabric_error *err)
{
    return ibcc_ibf_tables_(f, text, len, file ? file : "(ibdiagnet2.fdbs)",
                            err, ibcc_ibf_fdbs_line_);
}

/* ---- up/down routes ------------------------------------------------------ */
/* The loader's table (switch x host, fabric port + 1) filled from the
   shared router's routes to one host (host index = node - switches). */
typedef struct ibcc_ibf_udtab_ { uint32_t *tab, nsw, nh; } ibcc_ibf_udtab_;

static void ibcc_ibf_put_(void *ctx, uint32_t node, const uint32_t *port)
{
    const ibcc_ibf_udtab_ *u = (const ibcc_ibf_udtab_ *)ctx;
    uint32_t s;
    if (node < u->nsw || node - u->nsw >= u->nh) return;
    for (s = 0; s < u->nsw; s++)
        if (port[s] != IBCC_F_NONE_)
            u->tab[(uint64_t)s * u->nh + (node - u->nsw)] = port[s] + 1u;
}

IBCC_API ibcc_result ibcc_ibfabric_updown(ibcc_ibfabric *f,
                                          ibcc_ibfabric_error *err)
{
    ibcc_fabric_allocator a;
    ibcc_ibf_net_ n;
    ibcc_ibf_udtab_ ut;
    uint32_t *hd = NULL, *rank = NULL, *hmin = NULL, *queue = NULL;
    uint64_t *guid = NULL;
    uint32_t nsw, nh, s, i, d, mode, maxd = 0, fail_src = 0, fail_dst = 0;
    const uint32_t INF = IBCC_IBF_NONE_;
    int fail = 0;
    ibcc_result r;
    const char *file = f ? f->topo_file : "";
    if (err) ibcc_fab_err_(err, IBCC_OK, file, 0, "ok");
    if (!f) {
        ibcc_fab_err_(err, IBCC_ERR_NULL, "", 0, "NULL argument");
        return IBCC_ERR_NULL;
    }
    if (!f->nodes || !f->hosts || f->host_count == 0
        || f->node_count != f->switch_count + f->host_count) {
        ibcc_fab_err_(err, IBCC_ERR_STATE, file, 0, "no fabric loaded");
        return IBCC_ERR_STATE;
    }
    ibcc_ibf_drop_routes_(f);
    a = f->allocator;
    nsw = f->switch_count;
    nh = f->host_count;
    r = ibcc_ibf_net_make_(f, &a, &n, 1);
    if (r == IBCC_OK) {
        size_t m = (size_t)f->node_count + 1u;  /* rank, guid: by node */
        hd = (uint32_t *)ibcc_fab_alloc_(&a, ibcc_fab_mul_(m, 4u));
        rank = (uint32_t *)ibcc_fab_alloc_(&a, ibcc_fab_mul_(m, 4u));
        hmin = (uint32_t *)ibcc_fab_alloc_(&a, ibcc_fab_mul_(m, 4u));
        queue = (uint32_t *)ibcc_fab_alloc_(&a, ibcc_fab_mul_(m, 4u));
        guid = (uint64_t *)ibcc_fab_alloc_(&a, ibcc_fab_mul_(m, 8u));
        if (!hd || !rank || !hmin || !queue || !guid) r = IBCC_ERR_NOMEM;
    }
    if (r != IBCC_OK) {
        ibcc_ibf_nomem_(err, file, r);
        goto out;
    }
    /* hops from the nearest host: switches with a host are 1 */
    {
        uint32_t qh = 0, qt = 0;
        for (s = 0; s < nsw; s++) {
            hd[s] = INF;
            for (i = n.base[s]; i < n.base[s + 1u]; i++)
                if (n.peer[i] != INF && n.peer[i] >= nsw) { hd[s] = 1u; break; }
            if (hd[s] == 1u) queue[qt++] = s;
        }
        while (qh < qt) {
            uint32_t x = queue[qh++];
            if (hd[x] > maxd) maxd = hd[x];
            for (i = n.base[x]; i < n.base[x + 1u]; i++) {
                uint32_t y = n.peer[i];
                if (y < nsw && hd[y] == INF) { hd[y] = hd[x] + 1u; queue[qt++] = y; }
            }
        }
    }
    /* each switch's first host (by index), for the connectivity check */
    for (s = 0; s < nsw; s++) {
        hmin[s] = INF;
        guid[s] = f->switches[s].guid;
    }
    for (d = nh; d-- > 0;) {
        uint32_t S = n.peer[n.base[nsw + d]];
        if (S < nsw) hmin[S] = d;
    }
    ut.tab = n.tab;
    ut.nsw = nsw;
    ut.nh = nh;
    for (mode = 0; mode < 2u; mode++) {
        uint32_t qh = 0, qt = 0, best = INF;
        fail = 0;
        f->roots = 0;
        for (s = 0; s < nsw; s++) {
            rank[s] = INF;
            if (nsw && hd[s] == maxd && maxd != 0) {
                if (mode == 0) { rank[s] = 0; queue[qt++] = s; f->roots++; }
                else if (best == INF || f->switches[s].guid < f->switches[best].guid)
                    best = s;
            }
        }
        if (mode == 1u && best != INF) {
            rank[best] = 0; queue[qt++] = best; f->roots = 1;
        }
        while (qh < qt) {
            uint32_t x = queue[qh++];
            for (i = n.base[x]; i < n.base[x + 1u]; i++) {
                uint32_t y = n.peer[i];
                if (y < nsw && rank[y] == INF) { rank[y] = rank[x] + 1u; queue[qt++] = y; }
            }
        }
        /* the routes: up toward the lower (rank, GUID), destination host
           index mod count among equal next hops */
        memset(n.tab, 0, (size_t)nsw * nh * sizeof *n.tab);
        r = ibcc_updown_(&a, f->nodes, f->node_count, f->links, f->link_count,
                         rank, guid, NULL, NULL, ibcc_ibf_put_, &ut);
        if (r != IBCC_OK) {
            ibcc_ibf_nomem_(err, file, r);
            goto out;
        }
        /* the first destination (then source) a source's switch cannot
           route to; a host's own switch always can */
        for (d = 0; d < nh && !fail; d++) {
            uint32_t L = n.peer[n.base[nsw + d]];
            if (L == INF || L >= nsw) continue;     /* cabled to a host */
            for (s = 0; s < nsw; s++)
                if (s != L && hmin[s] != INF && n.tab[(uint64_t)s * nh + d] == 0
                    && (!fail || hmin[s] < fail_src)) {
                    fail = 1; fail_src = hmin[s]; fail_dst = d;
                }
        }
        if (!fail) break;
    }
    if (fail) {
        ibcc_fab_err_(err, IBCC_ERR_NOT_FOUND, file, 0,
                         "no up/down path from host %s to host %s: the "
                         "fabric is not connected", f->hosts[fail_src].name,
                         f->hosts[fail_dst].name);
        r = IBCC_ERR_NOT_FOUND;
        goto out;
    }
    for (s = 0; s < nsw; s++) f->switches[s].rank = rank[s];
    {
        uint64_t c, cells = (uint64_t)nsw * nh;
        for (c = 0; c < cells; c++) n.tline[c] = 0;
    }
    r = ibcc_ibf_emit_(f, &n);
    if (r != IBCC_OK) { ibcc_ibf_nomem_(err, file, r); goto out; }
    f->routing = IBCC_IBF_ROUTES_UPDOWN;
    r = ibcc_ibfabric_check(f, NULL, err);
out:
    ibcc_fab_free_(&a, hd);
    ibcc_fab_free_(&a, rank);
    ibcc_fab_free_(&a, hmin);
    ibcc_fab_free_(&a, queue);
    ibcc_fab_free_(&a, guid);
    ibcc_ibf_net_free_(&a, &n);
    if (r != IBCC_OK) ibcc_ibf_drop_routes_(f);
    return r;
}

IBCC_API ibcc_result ibcc_ibfabric_to_desc(const ibcc_ibfabric *f,
                                           ibcc_fabric_desc *d)
{
    if (!f || !d) return IBCC_ERR_NULL;
    if (!f->nodes || f->node_count == 0) return IBCC_ERR_STATE;
    d->nodes = f->nodes; d->node_count = f->node_count;
    d->links = f->links; d->link_count = f->link_count;
    d->routes = f->routes; d->route_count = f->route_count;
    return IBCC_OK;
}

IBCC_API ibcc_result ibcc_ibfabric_find_host(const ibcc_ibfabric *f,
        const char *name, uint32_t *host)
{
    uint32_t i;
    uint64_t g = 0;
    int by_guid = 0;
    uint32_t hit = 0, n = 0;
    if (!f || !name || !host) return IBCC_ERR_NULL;
    if (!f->hosts) return IBCC_ERR_NOT_FOUND;
    for (i = 0; i < f->host_count; i++)
        if (strncmp(f->hosts[i].name, name, IBCC_IBF_NAME) == 0) {
            if (!n++) hit = i;
        }
    if (!n && name[0] == '0' && (name[1] == 'x' || name[1] == 'X')) {
        ibcc_cur_ c;
        c.p = name + 2;
        c.e = name + 2 + strlen(name + 2);
        by_guid = ibcc_ibf_hex_(&c, &g) && c.p == c.e;
    }
    if (by_guid) {
        for (i = 0; i < f->host_count; i++)
            if (f->hosts[i].port_guid == g) {
                *host = i;
                return IBCC_OK;
            }
        for (i = 0; i < f->host_count; i++)
            if (f->hosts[i].node_guid == g && !n++) hit = i;
    }
    if (n > 1) return IBCC_ERR_MISMATCH;    /* two hosts answer to it */
    if (!n) return IBCC_ERR_NOT_FOUND;
    *host = hit;
    return IBCC_OK;
}
#endif /* IBCC_NO_FABRIC */

#ifdef __cplusplus
} /* extern "C" */
#  if defined(__clang__)
#    pragma clang diagnostic pop
#  elif defined(__GNUC__)
#    pragma GCC diagnostic pop
#  endif
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
