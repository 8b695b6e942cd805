/* ==== L1 dest ===========================================================
   Destination echo rules, MECHANISMS.md §3: what a destination sends back
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
   ====================================================================== */

#define IBCC_DEST_ECN  0u   /* Santos: ECN echoed in the ACK's ECN bit */
#define IBCC_DEST_IBA  1u   /* IBA: FECN -> BECN on ACK or CNP */
#define IBCC_DEST_MVPM 2u   /* MVCM: MB and VB echoed */

#define IBCC_DEST_ACKED   0u /* every data packet is acknowledged (RC) */
#define IBCC_DEST_UNACKED 1u /* no ACKs (UD/UC): CNPs only (IBA scheme) */

typedef struct ibcc_dest_desc {
    unsigned scheme;            /* IBCC_DEST_ECN / _IBA / _MVPM */
    unsigned transport;         /* IBCC_DEST_ACKED / _UNACKED */
    unsigned becn_by_cnp;       /* IBA: 1 = BECN in an explicit CNP */
    uint32_t ack_bytes;         /* default 20 (22 for MVPM) */
    uint32_t cnp_bytes;         /* default ack_bytes */
} ibcc_dest_desc;

/* Validated rules (a copy of the effective desc). */
typedef struct ibcc_dest {
    unsigned scheme, transport, becn_by_cnp;
    uint32_t ack_bytes, cnp_bytes;
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
