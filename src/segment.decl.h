/* ==== L1 segment ========================================================
   Dual-priority segmentation policy for wormhole / cut-through networks
   [K], MECHANISMS.md §5: high-priority messages travel unsegmented (one
   worm); low-priority messages are cut into segments (worms) of at most
   L_l bytes, so that under round-robin output arbitration the larger
   high-priority worms win more bandwidth ("best-effort bandwidth
   reservation"). Pure functions and a small iterator; the caller owns
   messages, worms, queues and headers.

   Behaviour
   - Segment length: high priority: unlimited (the whole message);
     low priority: L_l = seg_bytes (fixed rule), or the adaptive rule
     L_l = B * h [K] with B = slack_bytes (input slack buffer per switch)
     and h the hops the segment travels (h = 0 is taken as 1), which
     keeps a worm within the slack buffers of its own path and so avoids
     higher-order blocking.
   - A message of M bytes gives ceil(M / L_l) segments: full segments of
     L_l first, then the remainder (1 .. L_l bytes). M = 0 gives none.
     Sizes are payload bytes; the caller adds its per-worm header.
   - Host selection (non-preemptive priority [K]): while a worm is being
     sent nothing else starts; when the link is free a waiting
     high-priority worm goes first, else a low-priority one. The same rule
     serves an optional non-preemptive priority at switch outputs.

   Defaults (ibcc_segment_desc, zero means default):
   | field       | default                          | range          |
   | seg_bytes   | 100 (SCENARIOS §D two-host case) | 1 .. 2^32 - 1  |
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

/* Non-preemptive priority selection: returns IBCC_SEGMENT_PICK_NONE while
   `busy` (a worm is being sent) or when nothing waits, else
   IBCC_SEGMENT_HIGH if a high-priority worm waits, else IBCC_SEGMENT_LOW. */
IBCC_INLINE int ibcc_segment_pick(int busy, int high_waiting, int low_waiting)
{
    if (busy) return IBCC_SEGMENT_PICK_NONE;
    if (high_waiting) return IBCC_SEGMENT_HIGH;
    return low_waiting ? IBCC_SEGMENT_LOW : IBCC_SEGMENT_PICK_NONE;
}
