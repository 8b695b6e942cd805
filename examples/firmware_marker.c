/* Firmware-style use of an ibcc marker: an 8-port switch data path calls
   two hooks per packet, no malloc, no floating point, state in a static
   buffer, settings programmed the way a subnet manager does (the
   ibccconfig form of SwitchCongestionSetting, applied to the marker).

   The main() below only drives the hooks with a short hot-spot burst so the
   program prints something; in firmware the hooks sit in the receive and
   transmit paths. Build: make examples (build/firmware_marker). */
#define IBCC_IMPLEMENTATION
#include "ibcc.h"
#include <stdio.h>

#define PORTS 8u

/* The switch's own packet descriptor: ibcc never sees it. */
struct pkt {
    uint16_t len;             /* bytes */
    uint8_t in, out;          /* ports */
    uint8_t fecn;             /* our header's FECN bit */
};

static ibcc_marker marker;
static uint64_t marker_mem[1024];     /* 8 KB: checked against ibcc_marker_size() */

/* Receive path: the packet is now in input buffer p->in. */
static void on_rx(struct pkt *p)
{
    (void)ibcc_marker_arrive(&marker, p->in, p->out, p->len);
}

/* Transmit path: the packet starts on p->out; `credits` tells whether the
   next hop has room (the IBA root test). IBA marking reads only output
   levels; a cut-through switch running the input-triggered engines would
   also set d.hold = 1 and call ibcc_marker_release(&marker, in, len) when
   the tail has left the input buffer, so that "buffer full" counts it. */
static void on_tx(struct pkt *p, int credits)
{
    unsigned bits = ibcc_marker_depart(&marker, p->in, p->out, p->len,
                                       p->fecn ? IBCC_FECN : 0u, credits);
    if (bits & IBCC_FECN) p->fecn = 1;
}

static int switch_init(void)
{
    ibcc_marker_desc d = {0};
    ibcc_swcc sw;
    ibcc_result r;
    size_t need;
    d.engine = IBCC_MARKER_IBA;
    d.ports = PORTS;
    d.unit = IBCC_UNIT_CREDITS;        /* 64-byte credits */
    d.in_capacity = 128;               /* 8 KB per input buffer */
    d.out_capacity = 256;              /* output queue level base */
    if ((r = ibcc_marker_size(&d, &need)) != IBCC_OK) return (int)r;
    if (need > sizeof marker_mem) return -1;
    r = ibcc_marker_init(&marker, &d, marker_mem, sizeof marker_mem);
    if (r != IBCC_OK) return (int)r;
    /* Threshold 15, Packet_Size 8 (512 bytes), Marking_Rate 1 */
    r = ibcc_swcc_parse_args(&sw, "SwitchCongestionSetting 0x14 0 0 15 8 0 0:0 1");
    if (r == IBCC_OK) r = ibcc_marker_apply_swcc(&marker, &sw);
    return (int)r;
}

int main(void)
{
    struct pkt q[24];
    unsigned i, marked = 0;
    int r = switch_init();
    if (r != 0) {
        printf("init failed: %s\n", ibcc_result_str((ibcc_result)r));
        return 1;
    }
    /* 24 packets from inputs 0..5 to hot output 7 arrive, then leave */
    for (i = 0; i < 24; i++) {
        q[i].len = (uint16_t)((i % 4u == 3u) ? 256u : 2048u);
        q[i].in = (uint8_t)(i % 6u);
        q[i].out = 7;
        q[i].fecn = 0;
        on_rx(&q[i]);
    }
    printf("queued for port 7: %u credits (threshold level %u)\n",
           (unsigned)ibcc_marker_level(&marker, 7),
           (unsigned)ibcc_marker_iba_level(&marker, 7));
    for (i = 0; i < 24; i++) {
        on_tx(&q[i], 1);
        marked += q[i].fecn;
        printf("pkt %2u len %4u -> FECN %u\n", i, (unsigned)q[i].len,
               (unsigned)q[i].fecn);
    }
    printf("%u of 24 marked; rejected events: %lu\n", marked,
           (unsigned long)ibcc_marker_errors(&marker, NULL));
    return 0;
}
