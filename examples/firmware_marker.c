/* Firmware-style use of an ibcc marker: an 8-port switch data path calls
   two hooks per packet, no malloc, no floating point, no C library beyond
   memcpy and memset, state in a static buffer, settings programmed the way
   a subnet manager does (a SwitchCongestionSetting MAD, decoded and
   applied to the marker).

   Built in the firmware profile (IBCC_FIRMWARE), it compiles both ways:
   - hosted (make examples: build/firmware_marker): main() below drives
     the hooks with a short hot-spot burst and prints what happened;
   - freestanding, as firmware would build it (tests/firmware.sh checks
     this in make test; the entry point is fw_switch_demo):
       cc -std=c99 -Os -ffreestanding -I. -c examples/firmware_marker.c
       cc -nostdlib -Wl,-e,fw_switch_demo firmware_marker.o memfns.o
     where memfns.o brings memcpy and memset (the firmware SDK's, or
     tests/firmware/stubs.c); nothing else is left undefined on x86-64.
   In real firmware the hooks sit in the receive and transmit paths. */
#define IBCC_FIRMWARE
#define IBCC_IMPLEMENTATION
#include "ibcc.h"

#define PORTS 8u
#define BURST 24u

/* The switch's own packet descriptor: ibcc never sees it. */
struct pkt {
    uint16_t len;             /* bytes */
    uint8_t in, out;          /* ports */
    uint8_t fecn;             /* our header's FECN bit */
};

static ibcc_marker marker;
static uint64_t marker_mem[1024];     /* 8 KB: checked against ibcc_marker_size() */
static struct pkt burst[BURST];

/* The attribute data of a SwitchCongestionSetting MAD as the subnet
   manager sends it: Control_Map 0x14 (threshold and marking rate),
   Threshold 15, Packet_Size 8 (512 bytes), Marking_Rate 1. The same
   setting in ibccconfig text, which only a host build can parse
   (ibcc_swcc_parse_args), is
   "SwitchCongestionSetting 0x14 0 0 15 8 0 0:0 1". */
static const uint8_t sm_mad[IBCC_SWCC_MAD_BYTES] = {
    [3] = 0x14,               /* Control_Map */
    [68] = 0xf0,              /* Threshold (upper four bits) */
    [69] = 8,                 /* Packet_Size */
    [75] = 1                  /* Marking_Rate (low byte) */
};

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

static ibcc_result switch_init(void)
{
    ibcc_marker_desc d;
    ibcc_swcc sw;
    ibcc_result r;
    size_t need;
    memset(&d, 0, sizeof d);
    d.engine = IBCC_MARKER_IBA;
    d.ports = PORTS;
    d.unit = IBCC_UNIT_CREDITS;        /* 64-byte credits */
    d.in_capacity = 128;               /* 8 KB per input buffer */
    d.out_capacity = 256;              /* output queue level base */
    if ((r = ibcc_marker_size(&d, &need)) != IBCC_OK) return r;
    if (need > sizeof marker_mem) return IBCC_ERR_NOMEM;
    r = ibcc_marker_init(&marker, &d, marker_mem, sizeof marker_mem);
    if (r != IBCC_OK) return r;
    r = ibcc_swcc_decode(&sw, sm_mad, sizeof sm_mad);
    if (r == IBCC_OK) r = ibcc_swcc_validate(&sw);
    if (r == IBCC_OK) r = ibcc_marker_apply_swcc(&marker, &sw);
    return r;
}

/* BURST packets from inputs 0..5 to hot output 7 arrive... */
static void burst_arrive(void)
{
    unsigned i;
    for (i = 0; i < BURST; i++) {
        burst[i].len = (uint16_t)((i % 4u == 3u) ? 256u : 2048u);
        burst[i].in = (uint8_t)(i % 6u);
        burst[i].out = 7;
        burst[i].fecn = 0;
        on_rx(&burst[i]);
    }
}

/* ...then leave with credits; returns how many were marked. */
static unsigned burst_depart(void)
{
    unsigned i, marked = 0;
    for (i = 0; i < BURST; i++) {
        on_tx(&burst[i], 1);
        marked += burst[i].fecn;
    }
    return marked;
}

/* The freestanding entry point: the number of marked packets, or a
   negative ibcc_result when the setup failed. */
int fw_switch_demo(void);
int fw_switch_demo(void)
{
    ibcc_result r = switch_init();
    if (r != IBCC_OK) return (int)r;
    burst_arrive();
    return (int)burst_depart();
}

#if defined(__STDC_HOSTED__) && __STDC_HOSTED__
#include <stdio.h>

int main(void)
{
    unsigned i, marked;
    ibcc_result r = switch_init();
    if (r != IBCC_OK) {
        printf("init failed: %s\n", ibcc_result_str(r));
        return 1;
    }
    burst_arrive();
    printf("queued for port 7: %u credits (threshold level %u)\n",
           (unsigned)ibcc_marker_level(&marker, 7),
           (unsigned)ibcc_marker_iba_level(&marker, 7));
    marked = burst_depart();
    for (i = 0; i < BURST; i++)
        printf("pkt %2u len %4u -> FECN %u\n", i, (unsigned)burst[i].len,
               (unsigned)burst[i].fecn);
    printf("%u of %u marked; rejected events: %lu\n", marked, BURST,
           (unsigned long)ibcc_marker_errors(&marker, NULL));
    return 0;
}
#endif
