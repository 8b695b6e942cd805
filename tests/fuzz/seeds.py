#!/usr/bin/env python3
"""Writes the seed corpus of every fuzz harness into tests/fuzz/corpus/<h>/.

The seeds are deterministic (fixed PRNG seed): for the step-function
harnesses a leading configuration chosen to reach each engine, form or
policy, followed by pseudo-random operation bytes (every byte string
decodes to some operation sequence); for the parsers, realistic texts and
MAD attributes plus a few malformed ones. Run it from anywhere:

    python3 tests/fuzz/seeds.py

It removes the files it owns (seed-*) first and leaves other files in the
corpus directories alone.
"""
import os
import random
import struct

HERE = os.path.dirname(os.path.abspath(__file__))
CORPUS = os.path.join(HERE, "corpus")
rng = random.Random(20261123)


def rand(n):
    return bytes(rng.randrange(256) for _ in range(n))


def write(harness, name, data):
    d = os.path.join(CORPUS, harness)
    os.makedirs(d, exist_ok=True)
    with open(os.path.join(d, "seed-" + name), "wb") as f:
        f.write(data)


def clean():
    if not os.path.isdir(CORPUS):
        return
    for h in os.listdir(CORPUS):
        d = os.path.join(CORPUS, h)
        for n in os.listdir(d):
            if n.startswith("seed-"):
                os.remove(os.path.join(d, n))


def step_harnesses():
    # law: kind, form, then the rest of the description and the operations
    for kind in (1, 2, 3, 4):
        for form in (1, 2, 3):
            write("law", "k%d-f%d" % (kind, form), bytes([kind, form]) + rand(600))
    # cct: flows, per_sl, ... (random description bytes), operations
    for i in range(8):
        head = bytes([rng.randrange(1, 49), i % 2, 0, rng.randrange(0, 9), 1])
        write("cct", "%d" % i, head + rand(1500))
    # marker: engine, unit, org, classify, hold, ports selector + ports ...
    for engine in range(6):
        for org in (0, 1):
            head = bytes([engine, org ^ 1, org, engine % 2, 1 if engine == 4 else 0, 0,
                          rng.randrange(2, 70), rng.randrange(1, 24)])
            write("marker", "e%d-o%d" % (engine, org), head + rand(1200))
    # arbiter: policy, ports selector, ports, capacity, bypass selector,
    # bypass, callback flag
    for policy in (0, 1, 2):
        for cb in (0, 1):
            head = bytes([policy, 0, rng.randrange(2, 70), rng.randrange(1, 16), 0,
                          rng.randrange(1, 6), cb])
            write("arbiter", "p%d-cb%d" % (policy, cb), head + rand(1500))
    # loop: capacity selector, capacity
    for cap in (1, 3, 16, 64, 200):
        write("loop", "cap%d" % cap, bytes([0, cap - 1]) + rand(1500))
    write("loop", "invalid", bytes([255]))
    # mvcm: flows, dw_max, k, n, ws, flags (random) then ACKs
    for i in range(6):
        write("mvcm", "%d" % i, rand(800))
    # dest and segment: sequences of descriptions
    for i in range(4):
        write("dest", "%d" % i, rand(400))
        write("segment", "%d" % i, rand(400))


def fabric_seeds():
    # fuzz_fabric: byte 0 allows bad values when >= 208 (a few seeds do),
    # byte 1 values anywhere in their ranges when >= 128 (a third of the
    # seeds; else the sure zones), byte 2 picks the topology (mod 5: fat
    # tree, n-fly, mesh, two-switch, random tree), then its parameters;
    # the rest (desc, engines, flows, steps) comes from random bytes.
    # (corpus/fabric/found-worm-* are inputs a fuzzing run found that
    # build wormhole fabrics; this script leaves them alone.)
    topo = [
        # fat tree / n-fly: index into (2,1) (2,2) (2,3) (2,4) (3,1) (3,2)
        # (4,1) (4,2)
        (0, [1]), (0, [2]), (0, [3]), (0, [5]), (0, [7]),
        (1, [1]), (1, [2]), (1, [5]), (1, [7]),
        # mesh: x, y (1..3 from the byte), hosts per switch, root, torus
        (2, [2, 1, 1, 0, 0]), (2, [3, 2, 2, 4, 1]), (2, [1, 0, 1, 0, 0]),
        (2, [2, 2, 1, 3, 1]),
        # two-switch: L, R (1..6), flag byte, own flows
        (3, [1, 1, 0, 1]), (3, [3, 2, 0, 1]), (3, [5, 5, 0, 0]),
        (3, [2, 4, 0, 1]),
        # random tree: switches, hosts, then its shape from random bytes
        (4, [0]), (4, [2]), (4, [4]), (4, [3]),
    ]
    # its own generator: the other harnesses' seeds stay as they were
    frng = random.Random(13013)
    n = 0
    for rep in range(2):
        for sel, params in topo:
            allow = 0xF8 if (n % 9) == 8 else 0x00
            wild = 0x90 if (n % 3) == 2 else 0x00
            tail = bytes(frng.randrange(256) for _ in range(700))
            write("fabric", "t%d-%02d" % (sel, n),
                  bytes([allow, wild, sel]) + bytes(params) + tail)
            n += 1


def swcc_seeds():
    # MAD: a realistic SwitchCongestionSetting (control map 0x15: victim
    # mask, threshold + packet size, marking rate), and port elements
    mad = bytearray(76)
    struct.pack_into(">I", mad, 0, 0x15)
    mad[35] = 0x0f                          # victim ports 0..3
    mad[68] = 0xf0                          # threshold 15
    mad[69] = 0x08                          # packet size 8 x 64 bytes
    struct.pack_into(">H", mad, 72, (1 << 14) | 100)
    struct.pack_into(">H", mad, 74, 3)
    write("swcc_mad", "setting", bytes([0]) + bytes(mad) + rand(8))
    write("swcc_mad", "setting-reserved", bytes([0]) + rand(76) + rand(8))
    write("swcc_mad", "elements", bytes([1, 8]) + rand(8 * 6))
    write("swcc_mad", "element-valid", bytes([2, 1]) + bytes([0x8f, 0x02, 0x00, 0x10]) + rand(4))
    texts = [
        (0, "SwitchCongestionSetting 0x15 0xf 0x0 15 8 0 1:100 3"),
        (0, "0x1f 0xffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff 12345 1 255 15 3:16383 65535"),
        (0, "SwitchCongestionSetting 0x20 0 0 0 0 0 0:0 0"),
        (0, "SwitchCongestionSetting 0x15 0xf 0x0 16 8 0 1:100 3"),
        (1, "SwitchPortCongestionSetting 3 1 0 8 2 10"),
        (1, "255 0 1 15 255 65535"),
        (2, "cc_sw_cong_setting_threshold 0x5"),
        (2, "cc_sw_cong_setting_victim_mask 0x0000000000000000000000000000000f"),
        (2, "cc_sw_cong_setting_credit_starvation_return_delay 2:300"),
        (2, "# a comment"),
        (3, "# opensm.conf excerpt\n"
            "congestion_control TRUE\n"
            "cc_sw_cong_setting_control_map 0x15\n"
            "cc_sw_cong_setting_victim_mask 0xf\n"
            "cc_sw_cong_setting_credit_mask 0x0\n"
            "cc_sw_cong_setting_threshold 0xf\n"
            "cc_sw_cong_setting_packet_size 0x8\n"
            "cc_sw_cong_setting_credit_starvation_threshold 0x0\n"
            "cc_sw_cong_setting_credit_starvation_return_delay 0:0\n"
            "cc_sw_cong_setting_marking_rate 0x3\n"),
        (3, "cc_sw_cong_setting_threshold 0x5\ncc_sw_cong_setting_marking_rate 70000\n"),
    ]
    for i, (sel, t) in enumerate(texts):
        write("swcc_text", "%d" % i, bytes([sel]) + t.encode())


def cacc_seeds():
    s = bytearray(132)
    struct.pack_into(">HH", s, 0, 1, 0x0003)
    for sl in (0, 1):
        struct.pack_into(">HBBB", s, 4 + 8 * sl, 150, 1, 0, 0)
    write("cacc_mad", "setting", bytes([0, 0]) + bytes(s) + rand(16))
    write("cacc_mad", "setting-random", bytes([0, 0]) + rand(132) + rand(16))
    write("cacc_mad", "setting-short", bytes([0, 250, 100]) + rand(100))
    b = bytearray(132)
    struct.pack_into(">H", b, 0, 127)
    for i in range(64):
        struct.pack_into(">H", b, 4 + 2 * i, i)
    # the harness reads 200 attribute bytes, then the block index
    pad = bytes(200 - 132)
    write("cacc_mad", "block0", bytes([1, 0]) + bytes(b) + pad + bytes([0, 0]) + rand(8))
    write("cacc_mad", "block1", bytes([1, 0]) + bytes(b) + pad + bytes([0, 1]) + rand(8))
    write("cacc_mad", "block-random", bytes([1, 0]) + rand(200) + bytes([0, 3]) + rand(8))
    texts = [
        (0, "CACongestionSetting 0 0x3 150 1 0 0"),
        (0, "CACongestionSetting 1 0xffff 65535 255 255 255"),
        (0, "CACongestionSetting 2 0x3 150 1 0 0"),
        (1, "CongestionControlTable 127 0 0:0 0:1 0:2 1:3 2:100 3:16383"),
        (1, "CongestionControlTable 127 1 " + " ".join("0:%d" % i for i in range(64))),
        (1, "CongestionControlTable 63 2 0:1"),
        (2, "cc_ca_cong_setting_ccti_timer 3 150"),
        (2, "cc_cct 0:0,0:1,1:2,2:3,3:16383"),
        (2, "cc_cct (null)"),
        (2, "cc_ca_cong_setting_ccti_min 15 300"),
        (3, "# CA settings\n"
            "cc_ca_cong_setting_port_control 0x0\n"
            "cc_ca_cong_setting_control_map 0x3\n"
            "cc_ca_cong_setting_ccti_timer 0 150\n"
            "cc_ca_cong_setting_ccti_timer 1 150\n"
            "cc_ca_cong_setting_ccti_increase 0 1\n"
            "cc_ca_cong_setting_trigger_threshold 0 10\n"
            "cc_ca_cong_setting_ccti_min 0 0\n"
            "cc_cct " + ",".join("0:%d" % i for i in range(40)) + "\n"
            "congestion_control TRUE\n"),
        (3, "cc_ca_cong_setting_ccti_min 0 3\ncc_cct 0:0,0:1\n"),
    ]
    for i, (sel, t) in enumerate(texts):
        write("cacc_text", "%d" % i, bytes([sel]) + t.encode())


def vlarb_seeds():
    # steps: mode byte 0 (even), vls selector, limit, table sizes, entries
    # (VL, weight) pairs with VLs of the port, then operation bytes
    for sel, vls in enumerate([1, 2, 4, 8, 15]):
        for limit in (0, 1, 6, 255):
            nh, nl = rng.randrange(4), 1 + rng.randrange(8)
            ents = b"".join(bytes([rng.randrange(vls), rng.choice([0, 1, 4, 64, 255])])
                            for _ in range(nh + nl))
            write("vlarb", "v%d-l%d" % (vls, limit),
                  bytes([0, sel, limit, nh, nl]) + ents + rand(900))
    write("vlarb", "bad-vls", bytes([0, 6]) + rand(40))
    write("vlarb", "too-many", bytes([0, 4, 0, 65]) + rand(200))
    # text: mode byte 1 (odd), cap, then the text
    texts = [
        "0:4,1:0,2:0,3:0,4:0,5:0,6:0,7:0,8:0,9:0,10:0,11:0,12:0,13:0,14:0",
        "0:0,1:4,2:4,3:4,4:4,5:4,6:4,7:4,8:4,9:4,10:4,11:4,12:4,13:4,14:4",
        "0:0,1:64,2:128,3:192,4:0,5:64,6:64,7:64",
        " 1:192, 2:128, 3:64",
        "0x0e:0xff,",
        "6",
        "255",
        "15:4",
        "0:256",
        "0:4;1:2",
        "",
    ]
    for i, t in enumerate(texts):
        write("vlarb", "text%d" % i, bytes([1, 64]) + t.encode())


def ibdiag_seeds():
    # selector, then text: 0 ibnetdiscover, 1 ibdiagnet2.lst, 2 .db_csv;
    # 3 lst NUL fdbs, 4 ibnetdiscover NUL LFT dump (the example fat tree)
    fab = os.path.join(HERE, "..", "..", "examples", "fabrics")

    def rd(name):
        with open(os.path.join(fab, name), "rb") as f:
            return f.read()
    topo, lfts = rd("fattree.topo"), rd("fattree.lfts")
    lst = rd("ibdiagnet/ibdiagnet2.lst")
    csv = rd("ibdiagnet/ibdiagnet2.db_csv")
    fdbs = rd("ibdiagnet/ibdiagnet2.fdbs")
    write("ibdiag", "topo", bytes([0]) + topo)
    write("ibdiag", "lst", bytes([1]) + lst)
    write("ibdiag", "db_csv", bytes([2]) + csv)
    write("ibdiag", "lst-fdbs", bytes([3]) + lst + b"\0" + fdbs)
    write("ibdiag", "topo-lfts", bytes([4]) + topo + b"\0" + lfts)
    write("ibdiag", "lst-half", bytes([1]) + lst[:len(lst) // 2])
    write("ibdiag", "lst-updown", bytes([3]) + lst)
    write("ibdiag", "csv-nolinks", bytes([2]) + csv.split(b"START_LINKS")[0])
    write("ibdiag", "fdbs-plft", bytes([3]) + lst + b"\0"
          + fdbs.replace(b"LID    : Port : Hops : Optimal", b"PLFT_NUM: 0"))


def scn_seeds():
    # scenario text, then NUL-separated overrides, the last a host list
    root = os.path.join(HERE, "..", "..")
    with open(os.path.join(root, "examples", "cluster", "cluster.ini"), "rb") as f:
        cluster = f.read()
    study = (b"[fabric]\ntopology = fattree\nk = 2\n[sm]\n"
             b"cc_sw_cong_setting_threshold = {8, 12, 15}\n"
             b"[traffic a]\npattern = uniform\nload = {0.1,0.5}\n"
             b"[traffic b]\npattern = incast ; c\nsrc = 0-2\n[run]\ntime = 2\n"
             b"[output]\ndirectory = out\n")
    write("scn", "cluster", cluster + b"\0run.seed={1,2,3}\0" + b"0, 2-4, 7")
    write("scn", "study", study + b"\0traffic.a.load=0.3\0time=5\0" + b"all")
    write("scn", "v1", b"experiment = gran\ncc = on\n\0cc=off\0" + b"1-3")
    write("scn", "bad", b"[traffic]\nx=1\n")
    write("scn", "lists", b"[run]\n" + b"".join(b"k%d = {1,2,3,4}\n" % i for i in range(9))
          + b"\0run.k0={1,,2}\0" + b"5,5")


def ethernet_seeds():
    # ecn: stream seed, then descriptions and queues; dcqcn: a 16-bit
    # field selector (0 = every default) then operations; hpcc: an 8-bit
    # selector then ACKs
    for i in range(4):
        write("ecn", "%d" % i, rand(600))
    write("dcqcn", "defaults", bytes([0, 0]) + rand(1500))
    write("dcqcn", "byte-off", bytes([64, 0, 0]) + rand(1500))
    for i in range(6):
        write("dcqcn", "%d" % i, rand(1500))
    for org in (0, 1):
        head = bytes([6, 1, org, 0, 1, 0, rng.randrange(2, 70), rng.randrange(20, 96)])
        write("marker", "ecn-o%d" % org, head + rand(1200))
    write("hpcc", "defaults", bytes([0]) + rand(1500))
    write("hpcc", "stage0", bytes([8, 0, 0]) + rand(1500))
    for i in range(6):
        write("hpcc", "%d" % i, rand(1500))

def trace_seeds():
    # fuzz_trace: the text of a trace, valid ones (small enough to run as
    # a job) and malformed ones
    texts = [
        "ibcc-trace 1\nranks 4\n0 0 1 4096\n1 1 2 4096 after=0\n"
        "2 2 3 4096 after=1 at=500ns\n3 3 0 100 sl=2 after=2,0\n",
        "# ring of 8, two rounds\nibcc-trace 1\n" +
        "".join("%d %d %d 2068 after=%d\n" % (i, i % 8, (i + 1) % 8, i - 1)
                if i else "0 0 1 2068\n" for i in range(16)),
        "ibcc-trace 1\n5 0 1 1 at=1.5us\n7 1 0 3000 at=2us sl=15\n"
        "9 0 1 70000 after=5,7\n",
        "ibcc-trace 1\n1 0 1 100\n2 1 0 100 after=1\n2 0 1 100\n",
        "ibcc-trace 1\n1 0 1 100 after=\n",
        "ibcc-trace 1\nranks 2\n1 0 5 100\n",
        "ibcc-trace 1\n1 0 1 100 at=3.25ks\n",
        "ibcc-trace 2\n",
        "1 0 1 5\n",
        "ibcc-trace 1\n18446744073709551615 0 1 5\n",
        "ibcc-trace 1\n1 0 1 281474976710657\n",
        "ibcc-trace 1\n1 2 3 4 sl=3 at=0ps after=0\n",
    ]
    for i, t in enumerate(texts):
        write("trace", "%d" % i, t.encode())


def main():
    clean()
    step_harnesses()
    swcc_seeds()
    cacc_seeds()
    fabric_seeds()
    vlarb_seeds()
    ibdiag_seeds()
    scn_seeds()
    ethernet_seeds()

    trace_seeds()


if __name__ == "__main__":
    main()
