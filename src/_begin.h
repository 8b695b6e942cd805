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
       size_t need = ibcc_marker_size(&md);
       void *mem = malloc(need);
       ibcc_marker mk;
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

   CONTENTS
   --------
   The declarations come first, one section per engine in layer order,
   each opening with a line "==== Lx name ====", what the engine does, its
   sources and its defaults table. The definitions follow under
   IBCC_IMPLEMENTATION in the same order, each opening with a line
   "---- Lx name: implementation". Lower layers never call upper ones.

   L0  basics     version, ibcc_result, units and wire time, header flag
                  bits, RNG
   L1  marker     switch marking engines: naive, input-triggered,
                  input-output-triggered [S02], IBA FECN [G], MVPM [F]
       arbiter    switch output arbitration: oldest-first with bounded
                  bypass, FIFO, round robin
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
   L2  loop       event loop: timed events on a heap in caller memory
   L3  fabric     hosts, links with credit flow control, cut-through
                  switches, stats, two-switch builder (IBCC_NO_FABRIC
                  leaves it out)

   A packet through the fabric (L3): a host's source agent (pacer + law,
   cct or mvcm) says when a flow may send; the link delivers it under
   credit flow control; at a switch the marker sees it arrive, the arbiter
   picks it for its output, the marker sees it depart and returns the bits
   to set; at the destination the dest rules build the ACK or CNP, whose
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

