/* Tests of the L1 dest rules: the full reply table of each scheme, the
   ACK/CNP carrier choice, sizes, the source-side mark reading, and every
   invalid description. */
#ifndef IBCC_TEST_LINKED   /* make test links one implementation object */
#define IBCC_IMPLEMENTATION
#endif
#include "ibcc.h"
#include "t.h"

static ibcc_dest mk(unsigned scheme, unsigned transport, unsigned cnp)
{
    ibcc_dest d;
    ibcc_dest_desc e;
    memset(&e, 0, sizeof e);
    e.scheme = scheme;
    e.transport = transport;
    e.becn_by_cnp = cnp;
    T_EQ(ibcc_dest_init(&d, &e), IBCC_OK);
    return d;
}

static void test_ecn(void)
{
    ibcc_dest d = mk(IBCC_DEST_ECN, 0, 0);
    ibcc_dest_reply r;
    r = ibcc_dest_on_packet(&d, 0);
    T_EQU(r.ack, IBCC_ACK); T_EQU(r.cnp, 0);
    r = ibcc_dest_on_packet(&d, IBCC_ECN);
    T_EQU(r.ack, IBCC_ACK | IBCC_ECN); T_EQU(r.cnp, 0);
    /* other bits are not echoed */
    T_EQU(ibcc_dest_ack(&d, IBCC_ECN | IBCC_MB | IBCC_VB | IBCC_BECN),
          IBCC_ACK | IBCC_ECN);
    /* ACKs, CNPs and multicast get nothing */
    T_EQU(ibcc_dest_ack(&d, IBCC_ACK | IBCC_ECN), 0);
    T_EQU(ibcc_dest_ack(&d, IBCC_CNP), 0);
    T_EQU(ibcc_dest_ack(&d, IBCC_MCAST | IBCC_ECN), 0);
    T_EQU(ibcc_dest_marks(&d, IBCC_ACK | IBCC_ECN), IBCC_ECN);
    T_EQU(ibcc_dest_marks(&d, IBCC_ACK), 0);
    T_EQU(ibcc_dest_marks(&d, IBCC_ECN), 0);       /* not a reply */
    T_EQU(ibcc_dest_reply_bytes(&d, IBCC_ACK), 20);
    T_EQU(ibcc_dest_reply_bytes(&d, 0), 0);
}

static void test_iba(void)
{
    ibcc_dest d = mk(IBCC_DEST_IBA, IBCC_DEST_ACKED, 0);
    ibcc_dest_reply r;
    /* RC, BECN on the ACK */
    r = ibcc_dest_on_packet(&d, IBCC_FECN);
    T_EQU(r.ack, IBCC_ACK | IBCC_BECN); T_EQU(r.cnp, 0);
    r = ibcc_dest_on_packet(&d, 0);
    T_EQU(r.ack, IBCC_ACK); T_EQU(r.cnp, 0);
    /* FECN ignored on multicast, ACK, CNP */
    r = ibcc_dest_on_packet(&d, IBCC_FECN | IBCC_MCAST);
    T_EQU(r.ack, 0); T_EQU(r.cnp, 0);
    r = ibcc_dest_on_packet(&d, IBCC_FECN | IBCC_ACK);
    T_EQU(r.ack, 0); T_EQU(r.cnp, 0);
    r = ibcc_dest_on_packet(&d, IBCC_FECN | IBCC_CNP);
    T_EQU(r.ack, 0); T_EQU(r.cnp, 0);
    /* MB/VB are not IBA marks */
    T_EQU(ibcc_dest_ack(&d, IBCC_MB | IBCC_VB), IBCC_ACK);
    T_EQU(ibcc_dest_marks(&d, IBCC_ACK | IBCC_BECN), IBCC_BECN);
    T_EQU(ibcc_dest_marks(&d, IBCC_CNP | IBCC_BECN), IBCC_BECN);
    T_EQU(ibcc_dest_marks(&d, IBCC_ACK), 0);
    T_EQU(ibcc_dest_marks(&d, IBCC_BECN), 0);
    /* RC, BECN by explicit CNP: plain ACK plus a CNP */
    d = mk(IBCC_DEST_IBA, IBCC_DEST_ACKED, 1);
    r = ibcc_dest_on_packet(&d, IBCC_FECN);
    T_EQU(r.ack, IBCC_ACK); T_EQU(r.cnp, IBCC_CNP | IBCC_BECN);
    r = ibcc_dest_on_packet(&d, 0);
    T_EQU(r.ack, IBCC_ACK); T_EQU(r.cnp, 0);
    /* unacknowledged transport: CNP only */
    d = mk(IBCC_DEST_IBA, IBCC_DEST_UNACKED, 0);
    r = ibcc_dest_on_packet(&d, IBCC_FECN);
    T_EQU(r.ack, 0); T_EQU(r.cnp, IBCC_CNP | IBCC_BECN);
    r = ibcc_dest_on_packet(&d, 0);
    T_EQU(r.ack, 0); T_EQU(r.cnp, 0);
    r = ibcc_dest_on_packet(&d, IBCC_FECN | IBCC_MCAST);
    T_EQU(r.ack, 0); T_EQU(r.cnp, 0);
    T_EQU(ibcc_dest_reply_bytes(&d, IBCC_CNP | IBCC_BECN), 20);
}

static void test_mvpm(void)
{
    ibcc_dest d = mk(IBCC_DEST_MVPM, 0, 0);
    T_EQU(ibcc_dest_ack(&d, 0), IBCC_ACK);
    T_EQU(ibcc_dest_ack(&d, IBCC_MB), IBCC_ACK | IBCC_MB);
    T_EQU(ibcc_dest_ack(&d, IBCC_MB | IBCC_VB), IBCC_ACK | IBCC_MB | IBCC_VB);
    T_EQU(ibcc_dest_ack(&d, IBCC_MB | IBCC_FECN), IBCC_ACK | IBCC_MB);
    T_EQU(ibcc_dest_on_packet(&d, IBCC_MB).cnp, 0);
    T_EQU(ibcc_dest_marks(&d, IBCC_ACK | IBCC_MB | IBCC_VB), IBCC_MB | IBCC_VB);
    T_EQU(ibcc_dest_marks(&d, IBCC_MB), 0);
    T_EQU(ibcc_dest_reply_bytes(&d, IBCC_ACK), 22);   /* [F] */
}

static void test_desc(void)
{
    ibcc_dest_desc e;
    ibcc_dest d;
    ibcc_dest_reply r;
    T_EQ(ibcc_dest_init(&d, NULL), IBCC_OK);
    T_EQU(d.scheme, IBCC_DEST_ECN);
    T_EQU(d.ack_bytes, 20);
    T_EQU(d.cnp_bytes, 20);
    memset(&e, 0, sizeof e);
    e.scheme = IBCC_DEST_IBA; e.ack_bytes = 30; e.cnp_bytes = 66;
    T_EQ(ibcc_dest_init(&d, &e), IBCC_OK);
    T_EQU(ibcc_dest_reply_bytes(&d, IBCC_ACK | IBCC_BECN), 30);
    T_EQU(ibcc_dest_reply_bytes(&d, IBCC_CNP | IBCC_BECN), 66);
    memset(&e, 0, sizeof e);
    T_EQ(ibcc_dest_defaults(&e), IBCC_OK);
    T_EQU(e.ack_bytes, 20);
    T_EQ(ibcc_dest_defaults(NULL), IBCC_ERR_NULL);
    T_EQ(ibcc_dest_init(NULL, &e), IBCC_ERR_NULL);
    memset(&e, 0, sizeof e); e.scheme = 3;
    T_EQ(ibcc_dest_init(&d, &e), IBCC_ERR_RANGE);
    memset(&e, 0, sizeof e); e.scheme = IBCC_DEST_IBA; e.transport = 2;
    T_EQ(ibcc_dest_init(&d, &e), IBCC_ERR_RANGE);
    memset(&e, 0, sizeof e); e.scheme = IBCC_DEST_IBA; e.becn_by_cnp = 2;
    T_EQ(ibcc_dest_init(&d, &e), IBCC_ERR_RANGE);
    memset(&e, 0, sizeof e); e.ack_bytes = 65536;
    T_EQ(ibcc_dest_init(&d, &e), IBCC_ERR_RANGE);
    memset(&e, 0, sizeof e); e.cnp_bytes = 65536;
    T_EQ(ibcc_dest_init(&d, &e), IBCC_ERR_RANGE);
    memset(&e, 0, sizeof e); e.transport = IBCC_DEST_UNACKED;
    T_EQ(ibcc_dest_init(&d, &e), IBCC_ERR_UNSUPPORTED);
    memset(&e, 0, sizeof e); e.scheme = IBCC_DEST_MVPM; e.becn_by_cnp = 1;
    T_EQ(ibcc_dest_init(&d, &e), IBCC_ERR_UNSUPPORTED);
    /* coalesced ACKs: IBA only above 1, at most 65535 */
    memset(&e, 0, sizeof e); e.scheme = IBCC_DEST_IBA; e.ack_every = 65536;
    T_EQ(ibcc_dest_init(&d, &e), IBCC_ERR_RANGE);
    memset(&e, 0, sizeof e); e.ack_every = 2;
    T_EQ(ibcc_dest_init(&d, &e), IBCC_ERR_UNSUPPORTED);
    memset(&e, 0, sizeof e); e.ack_every = 1;
    T_EQ(ibcc_dest_init(&d, &e), IBCC_OK);
    memset(&e, 0, sizeof e); e.scheme = IBCC_DEST_IBA; e.ack_every = 8;
    T_EQ(ibcc_dest_init(&d, &e), IBCC_OK);
    T_EQU(d.ack_every, 8);
    /* NULL rules: nothing */
    r = ibcc_dest_on_packet(NULL, IBCC_FECN);
    T_EQU(r.ack, 0); T_EQU(r.cnp, 0);
    T_EQU(ibcc_dest_marks(NULL, IBCC_ACK | IBCC_ECN), 0);
    T_EQU(ibcc_dest_reply_bytes(NULL, IBCC_ACK), 0);
}

int main(void)
{
    T_RUN(test_ecn);
    T_RUN(test_iba);
    T_RUN(test_mvpm);
    T_RUN(test_desc);
    return t_summary();
}
