/* Fuzz harness: destination echo rules (ibcc_dest).

   Input: a sequence of descriptions (scheme, transport, BECN-by-CNP,
   reply sizes; any values, valid or not), each followed by packets with
   arbitrary header bits.

   The reference is the rule list of the header: ACKs, CNPs and multicast
   packets get no reply; ECN: the ACK carries the data packet's ECN bit;
   MVPM: the ACK carries MB and VB; IBA: an ACK on reliable transports,
   and FECN becomes BECN on the ACK, or in a CNP when becn_by_cnp is set
   or the transport has no ACKs. Validation: RANGE for an unknown scheme
   or transport, becn_by_cnp > 1 or a size above 65535; UNSUPPORTED for
   UNACKED or becn_by_cnp with another scheme; zero sizes take the
   defaults (20 bytes, 22 for MVPM; CNP = ACK size).

   Checked: init's result and effective fields; for every packet the
   reply, ibcc_dest_ack, the marks the source reads from each reply
   (ibcc_dest_marks: the congestion information survives the round trip)
   and reply sizes; marks and sizes of arbitrary reply words. */
#include "fuzz.h"

static ibcc_dest_reply ref_reply(const ibcc_dest_desc *d, unsigned pkt)
{
    ibcc_dest_reply r;
    r.ack = 0;
    r.cnp = 0;
    if (pkt & (IBCC_ACK | IBCC_CNP | IBCC_MCAST)) return r;
    if (d->scheme == IBCC_DEST_ECN) r.ack = IBCC_ACK | (pkt & IBCC_ECN);
    else if (d->scheme == IBCC_DEST_MVPM) r.ack = IBCC_ACK | (pkt & (IBCC_MB | IBCC_VB));
    else {
        if (d->transport == IBCC_DEST_ACKED) r.ack = IBCC_ACK;
        if (pkt & IBCC_FECN) {
            if (d->transport == IBCC_DEST_ACKED && !d->becn_by_cnp) r.ack |= IBCC_BECN;
            else r.cnp = IBCC_CNP | IBCC_BECN;
        }
    }
    return r;
}

static unsigned ref_marks(const ibcc_dest_desc *d, unsigned reply)
{
    if (d->scheme == IBCC_DEST_ECN) return (reply & IBCC_ACK) ? (reply & IBCC_ECN) : 0u;
    if (d->scheme == IBCC_DEST_MVPM) return (reply & IBCC_ACK) ? (reply & (IBCC_MB | IBCC_VB)) : 0u;
    return (reply & (IBCC_ACK | IBCC_CNP)) ? (reply & IBCC_BECN) : 0u;
}

static uint32_t ref_bytes(const ibcc_dest_desc *d, unsigned reply)
{
    if (reply & IBCC_CNP) return d->cnp_bytes;
    if (reply & IBCC_ACK) return d->ack_bytes;
    return 0;
}

static unsigned pick_enum(fz *f, unsigned valid)
{
    uint8_t b = fz_u8(f);
    if (b < 240) return b % (valid + 1u);          /* valid + one invalid */
    return fz_u32(f);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    fz f;
    unsigned descs = 0;
    fz_init(&f, data, size);
    while (fz_more(&f) && descs++ < 200u) {
        ibcc_dest_desc d, e;
        ibcc_dest dd;
        ibcc_result want = IBCC_OK, got;
        unsigned k, n;
        memset(&d, 0, sizeof d);
        d.scheme = pick_enum(&f, 3);
        d.transport = pick_enum(&f, 2);
        d.becn_by_cnp = pick_enum(&f, 2);
        d.ack_bytes = fz_u8(&f) < 128 ? 0 : (fz_u8(&f) < 250 ? fz_u16(&f) : fz_u32(&f));
        d.cnp_bytes = fz_u8(&f) < 128 ? 0 : (fz_u8(&f) < 250 ? fz_u16(&f) : fz_u32(&f));
        if (fz_u8(&f) == 0) memset(&d, 0, sizeof d);
        e = d;
        if (e.scheme > 2 || e.transport > 1 || e.becn_by_cnp > 1) want = IBCC_ERR_RANGE;
        else if (e.scheme != IBCC_DEST_IBA && (e.transport != 0 || e.becn_by_cnp != 0))
            want = IBCC_ERR_UNSUPPORTED;
        else {
            if (e.ack_bytes == 0) e.ack_bytes = e.scheme == IBCC_DEST_MVPM ? 22u : 20u;
            if (e.cnp_bytes == 0) e.cnp_bytes = e.ack_bytes;
            if (e.ack_bytes > 65535u || e.cnp_bytes > 65535u) want = IBCC_ERR_RANGE;
        }
        got = ibcc_dest_init(&dd, &d);
        FZ_CHECK(got == want, "dest_init %d, reference %d (scheme %u transport %u cnp %u)",
                 (int)got, (int)want, d.scheme, d.transport, d.becn_by_cnp);
        {
            ibcc_dest_desc c = d;
            FZ_CHECK(ibcc_dest_defaults(&c) == want, "defaults vs init");
        }
        if (got != IBCC_OK) continue;
        FZ_CHECK(dd.scheme == e.scheme && dd.transport == e.transport
                 && dd.becn_by_cnp == e.becn_by_cnp && dd.ack_bytes == e.ack_bytes
                 && dd.cnp_bytes == e.cnp_bytes, "effective rules");
        n = fz_range(&f, 1, 32);
        for (k = 0; k < n; k++) {
            unsigned pkt = k == 0 ? fz_u8(&f) & 0x7fu : fz_u32(&f);
            ibcc_dest_reply r = ibcc_dest_on_packet(&dd, pkt), w = ref_reply(&e, pkt);
            unsigned word = fz_u32(&f), cong;
            FZ_CHECK(r.ack == w.ack && r.cnp == w.cnp, "reply to %#x: ack %#x cnp %#x, reference ack %#x cnp %#x",
                     pkt, r.ack, r.cnp, w.ack, w.cnp);
            FZ_CHECK(ibcc_dest_ack(&dd, pkt) == w.ack, "ack of %#x", pkt);
            FZ_CHECK(r.ack == 0 || (r.ack & IBCC_ACK), "an ACK without the ACK flag");
            FZ_CHECK(r.cnp == 0 || (r.cnp & IBCC_CNP), "a CNP without the CNP flag");
            /* round trip: what the source reads is what the packet carried */
            cong = ibcc_dest_marks(&dd, r.ack) | ibcc_dest_marks(&dd, r.cnp);
            if (!(pkt & (IBCC_ACK | IBCC_CNP | IBCC_MCAST))) {
                unsigned sent = e.scheme == IBCC_DEST_ECN ? (pkt & IBCC_ECN)
                              : e.scheme == IBCC_DEST_MVPM ? (pkt & (IBCC_MB | IBCC_VB))
                              : ((pkt & IBCC_FECN) ? IBCC_BECN : 0u);
                FZ_CHECK(cong == sent, "marks %#x read back from the reply to %#x, sent %#x",
                         cong, pkt, sent);
            } else {
                FZ_CHECK(cong == 0 && r.ack == 0 && r.cnp == 0, "reply to a control packet");
            }
            FZ_CHECK(ibcc_dest_marks(&dd, word) == ref_marks(&e, word), "marks of %#x", word);
            FZ_CHECK(ibcc_dest_reply_bytes(&dd, word) == ref_bytes(&e, word), "bytes of %#x", word);
            FZ_CHECK(ibcc_dest_reply_bytes(&dd, r.ack) == ref_bytes(&e, r.ack), "ACK bytes");
        }
    }
    FZ_CHECK(ibcc_dest_on_packet(NULL, 0).ack == 0 && ibcc_dest_marks(NULL, 0xff) == 0
             && ibcc_dest_reply_bytes(NULL, IBCC_ACK) == 0, "NULL rules");
    return 0;
}
