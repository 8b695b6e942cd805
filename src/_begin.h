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

