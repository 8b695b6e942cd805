/* ---- L1 dest: implementation ------------------------------------------ */

IBCC_API ibcc_result ibcc_dest_defaults(ibcc_dest_desc *d)
{
    if (!d) return IBCC_ERR_NULL;
    if (d->scheme > IBCC_DEST_MVPM || d->transport > IBCC_DEST_UNACKED
        || d->becn_by_cnp > 1)
        return IBCC_ERR_RANGE;
    if (d->scheme != IBCC_DEST_IBA
        && (d->transport != IBCC_DEST_ACKED || d->becn_by_cnp != 0))
        return IBCC_ERR_UNSUPPORTED;
    if (d->ack_bytes == 0) d->ack_bytes = (d->scheme == IBCC_DEST_MVPM) ? 22u : 20u;
    if (d->cnp_bytes == 0) d->cnp_bytes = d->ack_bytes;
    if (d->ack_bytes > 65535u || d->cnp_bytes > 65535u) return IBCC_ERR_RANGE;
    return IBCC_OK;
}

IBCC_API ibcc_result ibcc_dest_init(ibcc_dest *d, const ibcc_dest_desc *desc)
{
    ibcc_dest_desc e;
    ibcc_result r;
    if (!d) return IBCC_ERR_NULL;
    if (desc) e = *desc; else memset(&e, 0, sizeof e);
    r = ibcc_dest_defaults(&e);
    if (r != IBCC_OK) return r;
    d->scheme = e.scheme;
    d->transport = e.transport;
    d->becn_by_cnp = e.becn_by_cnp;
    d->ack_bytes = e.ack_bytes;
    d->cnp_bytes = e.cnp_bytes;
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
