/* ==== L1 mvcm ===========================================================
   MVCM corrective actions at the source [F §4.2-4.3], MECHANISMS.md §4.4:
   a dynamic window DW and waiting slots nWS per flow, driven by the
   (MB, VB) class echoed in each ACK, plus the window-size helper omega.

   Behaviour, per flow (DW in [1, DWmax], nWS >= 0, mults = times nWS was
   multiplied since it was last set to 1):
   - ACK (1,0) warm, moderate congestion:  DW = max(1, DW - 1). Nothing
     else.
   - ACK (1,1) hot, imminent congestion: if DW > 1: DW -= 1. Otherwise
     (DW == 1): if nWS == 0: nWS = 1, mults = 0; else if mults < n:
     nWS *= k, mults += 1; else nWS stays.
   - ACK (0,0) cold, recovery: the FIRST cold ACK of a run of consecutive
     cold ACKs sets nWS = 0 and leaves DW; each further cold ACK of the
     run does DW = min(DW + 1, DWmax). A run starts at a cold ACK whose
     previous ACK of the flow was warm or hot; after a cold run, the next
     cold ACK is not "first" again until a warm or hot ACK intervened
     (and after a reset the flow counts as being in a cold run). So from
     any congested state full rate returns after at most DWmax cold ACKs,
     as [F] states. (0,1) cannot happen [F]; VB without MB is treated as
     cold.
   - Waiting interval between consecutive injections of the flow:
     nWS x WS, WS = RTTmin (saturating at IBCC_TIME_MAX).
   - Immediate reset when the host injects into an empty injection queue
     of the flow (ibcc_mvcm_on_inject_empty): DW = DWmax, nWS = 0.
   - Variants named by SCENARIOS.md §C: IBCC_MVCM_NO_WARM (warm ACKs have
     no effect) and IBCC_MVCM_NO_CAP (nWS keeps multiplying by k; it
     saturates at 2^32 - 1 instead of wrapping).

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
   | flags  | 0                    | IBCC_MVCM_NO_WARM | _NO_CAP |
   ====================================================================== */

#define IBCC_MVCM_NO_WARM 0x1u  /* warm (1,0) ACKs are ignored */
#define IBCC_MVCM_NO_CAP  0x2u  /* nWS multiplies without the n cap */

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
    uint8_t cold_run;           /* previous ACK was cold (or just reset) */
    uint8_t pad;
} ibcc_mvcm_flow;

typedef struct ibcc_mvcm {
    uint32_t flows, dw_max, k, n;
    ibcc_time ws;
    unsigned flags;
    ibcc_mvcm_flow *flow;       /* flows */
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
/* Bytes of memory ibcc_mvcm_init needs (0 if the desc is invalid). */
IBCC_API size_t ibcc_mvcm_size(const ibcc_mvcm_desc *d);
/* Every flow starts at DW = DWmax, nWS = 0. Errors as defaults, plus
   ALIGN and NOMEM. */
IBCC_API ibcc_result ibcc_mvcm_init(ibcc_mvcm *a, const ibcc_mvcm_desc *d,
                                    void *mem, size_t len);

/* ACK of `flow` carrying header bits `bits` (IBCC_MB / IBCC_VB). Returns
   the class applied (IBCC_MVCM_*; -1 and no effect if flow >= flows). */
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
IBCC_API void ibcc_mvcm_flow_reset(const ibcc_mvcm *a, ibcc_mvcm_flow *f);

/* ---- window-size helper ---------------------------------------------- */

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
/* RTTmin = 2 * hops * t_hop + wire(l_data) + wire(l_ack) at `rate`, the
   time to send a packet and receive its ACK in an empty network (WS).
   Errors: NULL, RANGE (rate 0, l_data 0), OVERFLOW. */
IBCC_API ibcc_result ibcc_mvcm_rtt_min(uint32_t hops, ibcc_time t_hop,
                                       ibcc_rate rate, uint32_t l_data,
                                       uint32_t l_ack, ibcc_time *out);
