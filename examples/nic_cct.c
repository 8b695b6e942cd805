/* nic_cct.c - the IBA CCT/CCTI agent inside a NIC-style send loop.

   One channel-adapter port (16 Gbit/s data, 2048-byte MTU) runs four
   greedy queue pairs: QP 0 and 1 on SL 0 send to a congested destination
   (a switch on the way sets FECN on 5 % of their packets), QP 2 and 3 on
   SL 1 do not. Each packet is acknowledged after a fixed round trip; the
   destination rule turns FECN into a BECN on the ACK, and the agent slows
   the marked QPs down with the [G] table. No ibcc event loop: the "firmware"
   picks the next QP whose inter-packet delay has elapsed, as a NIC
   scheduler would, and keeps the ACKs in flight in a small ring.

   Build: make examples   (or: cc -std=c99 -I. examples/nic_cct.c -lm)
   Run:   build/nic_cct */
#define IBCC_IMPLEMENTATION
#include "ibcc.h"
#include <stdio.h>
#include <stdlib.h>

#define QPS 4
#define INFLIGHT 64                      /* ACK ring (> packets per RTT) */

typedef struct ack { ibcc_time due; uint32_t qp; unsigned flags; } ack;

int main(void)
{
    const ibcc_time rtt = IBCC_US(2), end = IBCC_MS(20);
    ibcc_cct_desc cd = {0};               /* [G] defaults: quadratic CCT, */
    ibcc_cct cct;                          /* timer 150, increase 1, limit 127 */
    ibcc_dest dest;
    ibcc_dest_desc dd = {0};
    ibcc_rng rng;
    ibcc_time now = 0, wire, next_ok[QPS] = {0};
    uint64_t sent[QPS] = {0}, becns[QPS] = {0};
    ack ring[INFLIGHT];
    unsigned head = 0, count = 0, rr = 0, q;
    void *mem;
    size_t need;

    cd.flows = QPS;
    if (ibcc_cct_size(&cd, &need) != IBCC_OK) return 1;
    mem = malloc(need);
    if (!mem || ibcc_cct_init(&cct, &cd, mem, need) != IBCC_OK) return 1;
    ibcc_cct_set_flow_sl(&cct, 2, 1, 0);
    ibcc_cct_set_flow_sl(&cct, 3, 1, 0);
    dd.scheme = IBCC_DEST_IBA;            /* FECN -> BECN on the ACK (RC) */
    if (ibcc_dest_init(&dest, &dd) != IBCC_OK) return 1;
    /* maximum-size packet: 2048 B MTU + 26 B headers, 1037 ns */
    if (ibcc_wire_time(2074, IBCC_GBITS(16), &wire) != IBCC_OK) return 1;
    ibcc_rng_seed(&rng, 1);

    while (now < end) {
        ibcc_time t = IBCC_TIME_MAX;
        unsigned pick = QPS, hdr;
        /* 1. deliver the ACKs that are due */
        while (count > 0 && ring[head].due <= now) {
            ack *a = &ring[head];
            if (ibcc_dest_marks(&dest, a->flags) & IBCC_BECN) {
                ibcc_cct_on_becn(&cct, a->qp, a->due);
                becns[a->qp]++;
            }
            head = (head + 1) % INFLIGHT;
            count--;
        }
        /* 2. round robin over the QPs whose delay has elapsed */
        for (q = 0; q < QPS; q++) {
            unsigned i = (rr + q) % QPS;
            if (next_ok[i] <= now) { pick = i; break; }
            if (next_ok[i] < t) t = next_ok[i];
        }
        if (pick == QPS) {                /* idle until a QP or an ACK */
            if (count > 0 && ring[head].due < t) t = ring[head].due;
            now = t;
            continue;
        }
        rr = pick + 1;
        /* 3. send one packet; the congested path marks QP 0 and 1.
              ibcc_cct_advance brings the SL timers forward (16 steps, no
              flow visited) so that the delay lookup never divides */
        ibcc_cct_advance(&cct, now);
        hdr = (pick < 2 && ibcc_rng_bernoulli(&rng, 0.05)) ? IBCC_FECN : 0u;
        next_ok[pick] = now + ibcc_cct_interval(&cct, pick, now, wire);
        sent[pick]++;
        if (count < INFLIGHT) {
            ack *a = &ring[(head + count) % INFLIGHT];
            a->due = now + wire + rtt;
            a->qp = pick;
            a->flags = ibcc_dest_ack(&dest, hdr);
            count++;
        }
        now += wire;                      /* the port is busy meanwhile */
    }

    printf("qp sl  packets  Gbit/s  BECNs  CCTI  delay_ns\n");
    for (q = 0; q < QPS; q++)
        printf("%2u %2u %8llu %7.2f %6llu %5u %9.1f\n", q,
               ibcc_cct_flow_sl(&cct, q), (unsigned long long)sent[q],
               (double)sent[q] * 2074.0 * 8.0 / ((double)end / 1e3),
               (unsigned long long)becns[q], ibcc_cct_ccti(&cct, q, now),
               (double)ibcc_cct_delay(&cct, q, now) / 1e3);
    free(mem);
    return 0;
}
