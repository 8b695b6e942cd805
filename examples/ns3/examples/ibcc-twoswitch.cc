/* ibcc-twoswitch: the two-switch victim scenario of [S02]/[S03] on ns-3,
   with ibcc's engines inside ns-3 devices (examples/ns3/model).

   Switches A and B joined by one inter-switch link (ISL). On A: remote
   sources A1..AR and the victim source AV; on B: local sources B1..BL, the
   congested destination BC and the victim destination BV. Locals then
   remotes start one every 100 us; the victim AV -> BV runs in
   [victim-from, victim-to]. 1 GB/s links, 2068-byte data packets, 20-byte
   ACKs, 40 ns forwarding delay, 5 ns cables, 4-packet input buffers,
   oldest-first arbitration with at most 4 bypasses, window 1.

   Rows (nocc and input are `ibccsim twoswitch` without flags and with
   `--law lipd --marking input`, two rows of `make demo`; ibccsim has no
   flags for the IBA and MVCM rows):
     nocc   no congestion control (window 1)
     input  input-triggered marking [S02] + LIPD sources [S03]
     iba    IBA FECN marking at the switches + the IBA CCT agent at the
            sources [G]: Threshold 15 (queue level 1 of an output capacity
            of 16 packets), Packet_Size 8, Marking_Rate 1; CCTI_Increase 1,
            CCTI_Timer 150, linear CCT of 256 entries (entry i = i packet
            times), window 1
     mvcm   (only with --row=mvcm) MVPM marking + the MVCM agent [F]
            (DWmax 2, k 4, n 3, WS = RTTmin of the 3-link path), 22-byte
            ACKs
   Every figure is computed from DELIVERED data bytes: a packet counts
   when its tail reaches its destination within the measured window. root
   = bytes delivered to BC, ISL = bytes of the remote and victim flows
   (the flows that cross A->B), shares per class, Jain's index over the
   L + R contributors, each divided by the window and 1 GB/s. --count=sent
   counts as ibccsim 0.1.0 does instead: flows by the first bit sent, the
   root and ISL by the first bit on those links.

   --engine=ibcc runs the same configuration on ibcc's own fabric model
   (ibcc_fabric, same engines, another event engine) for comparison.

     ibcc-twoswitch                        the table of the three rows
     ibcc-twoswitch --row=input --summary=out.csv
*/
#if __has_include("ns3/ibcc-helper.h")
#include "ns3/ibcc-helper.h"   // inside an ns-3 tree (contrib/ibcc)
#else
#include "ibcc-helper.h"       // scratch/ or examples/ns3's Makefile build
#endif

#include "ns3/boolean.h"
#include "ns3/command-line.h"
#include "ns3/enum.h"
#include "ns3/node-container.h"
#include "ns3/simulator.h"
#include "ns3/string.h"
#include "ns3/uinteger.h"

#include <cstdio>
#include <cstring>
#include <map>
#include <string>
#include <vector>

using namespace ns3;

namespace
{

const unsigned kLocal = 0, kRemote = 1, kVictim = 2;

struct Row
{
    const char* key;
    const char* name;
    ibcc_marker_engine marker;
    bool law;   // LIPD sources (else window only, or CCT with the IBA marker)
};

const Row kRows[] = {
    {"nocc", "no CC (window 1)", IBCC_MARKER_NONE, false},
    {"input", "input (all) + LIPD", IBCC_MARKER_INPUT, true},
    {"iba", "IBA FECN + CCT", IBCC_MARKER_IBA, false},
    {"mvcm", "MVPM + MVCM", IBCC_MARKER_MVPM, false},   // --row=mvcm only
};
const size_t kTableRows = 3;   // the default table

// MVCM's waiting slot: RTTmin of the longest path (host, A, B, host: 3
// links of 5 ns + 40 ns forwarding each), a 2068-byte packet and a 22-byte
// ACK at 1 GB/s.
ibcc_time
MvcmSlot()
{
    ibcc_time ws = 0;
    ibcc_mvcm_rtt_min(3, IBCC_NS(45), IBCC_GBYTES(1), 2068, 22, &ws);
    return ws;
}

struct Options
{
    uint32_t local = 10;
    uint32_t remote = 10;
    uint32_t buffer = 4;
    uint32_t window = 1;
    uint32_t bypass = 4;
    uint32_t fanout = 1;       // an input buffer feeds several outputs at once
    std::string arbiter = "oldest";
    std::string classify = "all";
    uint32_t cablePs = 5000;   // propagation delay of every cable
    uint32_t jitterPs = 0;     // each cable: cablePs + uniform [-jitter, +jitter]
    uint64_t seed = 1;         // of the jitter
    double timeMs = 100;
    double victimFrom = 40;
    double victimTo = 60;
    double measureFrom = -1;
    double measureTo = -1;
    std::string engine = "ns3";
    std::string count = "delivered";
    std::string row;
    std::string summary;
};

struct Result
{
    double root = 0, isl = 0, victim = 0, local = 0, remote = 0, ratio = 0, jain = 0;
    double marked[3] = {0, 0, 0};
    double latencyUs[3] = {0, 0, 0};
    uint64_t trace = 0, traced = 0;
};

ibcc_time
MsTime(double ms)
{
    return static_cast<ibcc_time>(ms * 1e9 + 0.5);
}

// Propagation delay of each link, in the link order of
// ibcc_twoswitch_build (remotes and AV, locals, BC, BV, the ISL): the
// nominal delay, or with --jitter-ps a seeded draw around it (a probe of
// how much the measured figures move when same-instant ties break
// differently).
std::vector<ibcc_time>
CableDelays(const Options& o)
{
    std::vector<ibcc_time> d(o.remote + 1u + o.local + 2u + 1u, o.cablePs);
    if (o.jitterPs)
    {
        ibcc_rng rng;
        ibcc_rng_seed(&rng, o.seed);
        for (ibcc_time& x : d)
        {
            x = x - o.jitterPs + ibcc_rng_below(&rng, 2u * uint64_t(o.jitterPs) + 1u);
        }
    }
    return d;
}

// What the measured window saw, per flow (index: locals, remotes, victim)
// and on the two links the table reports.
struct Tally
{
    ibcc_time m0 = 0, m1 = 0;
    bool sent = false;                 // count at the first bit sent
    std::vector<unsigned> cls;         // class of each flow
    std::vector<double> bytes;         // per flow
    double rootBytes = 0, islBytes = 0;
    uint64_t delivered[3] = {0, 0, 0}, marked[3] = {0, 0, 0};
    double latSum[3] = {0, 0, 0};
    uint64_t trace = 14695981039346656037u;   // FNV-1a over every delivery
    uint64_t traced = 0;

    bool In(ibcc_time t) const { return t >= m0 && t < m1; }

    void Hash(uint64_t x)
    {
        for (int k = 0; k < 8; k++)
        {
            trace = (trace ^ ((x >> (8 * k)) & 0xffu)) * 1099511628211u;
        }
    }

    void Delivered(uint32_t flow, uint32_t size, unsigned hdr, ibcc_time lat, ibcc_time t)
    {
        // (time, flow, header bits, latency) of every data packet
        // delivered: equal hashes = the same packet-level history
        Hash(t);
        Hash((uint64_t(flow) << 32) | hdr);
        Hash(lat);
        traced++;
        if (!In(t))
        {
            return;
        }
        unsigned c = cls[flow];
        delivered[c]++;
        if (hdr & (IBCC_FECN | IBCC_MB))
        {
            marked[c]++;   // FECN (Santos, IBA) or MVPM's MB
        }
        latSum[c] += static_cast<double>(lat);
        if (!sent)
        {
            bytes[flow] += size;
            if (c != kVictim)
            {
                rootBytes += size;   // every contributor's packet crossed B->BC
            }
            if (c != kLocal)
            {
                islBytes += size;    // remote and victim packets crossed A->B
            }
        }
    }

    Result Finish() const
    {
        Result r;
        double secs = static_cast<double>(m1 - m0) * 1e-12, link = 1e9;
        std::vector<double> contrib;
        for (size_t i = 0; i < bytes.size(); i++)
        {
            double x = bytes[i] / secs;
            if (cls[i] == kLocal)
            {
                r.local += x / link;
            }
            else if (cls[i] == kRemote)
            {
                r.remote += x / link;
            }
            else
            {
                r.victim = x / link;
            }
            if (cls[i] != kVictim)
            {
                contrib.push_back(x);
            }
        }
        r.root = rootBytes / secs / link;
        r.isl = islBytes / secs / link;
        r.ratio = r.local > 0 ? r.remote / r.local : 0;
        r.jain = ibcc_jain(contrib.data(), static_cast<uint32_t>(contrib.size()));
        r.trace = trace;
        r.traced = traced;
        for (unsigned c = 0; c < 3; c++)
        {
            r.marked[c] = delivered[c] ? double(marked[c]) / double(delivered[c]) : 0;
            r.latencyUs[c] = delivered[c] ? latSum[c] / double(delivered[c]) / 1e6 : 0;
        }
        return r;
    }
};

// ---- the ns-3 run ------------------------------------------------------------
struct Ns3Run
{
    Tally* tally;
    std::map<uint16_t, uint32_t> flowOfLid;   // source LID -> flow (one flow per source)

    void RxData(Ptr<const Packet> p, uint16_t slid, uint32_t qp, uint8_t flags, Time latency)
    {
        (void)qp;
        tally->Delivered(flowOfLid.at(slid),
                         p->GetSize(),
                         flags,
                         ToIbccTime(latency),
                         ToIbccTime(Simulator::Now()));
    }

    void Tx(uint32_t flow, Ptr<const Packet> p, uint32_t qp)
    {
        (void)qp;
        if (tally->sent && tally->In(ToIbccTime(Simulator::Now())))
        {
            tally->bytes[flow] += p->GetSize();
        }
    }

    void LinkTx(double* total, Ptr<const Packet> p)
    {
        if (tally->sent && tally->In(ToIbccTime(Simulator::Now())))
        {
            *total += p->GetSize();
        }
    }
};

void
RunNs3(const Options& o, const Row& row, Tally& tally)
{
    uint32_t L = o.local, R = o.remote;
    IbccHelper ib;
    ib.SetDeviceAttribute("DataRate", StringValue("8Gbps"));   // 1 GB/s
    ib.SetDeviceAttribute("DataBufferPackets", UintegerValue(o.buffer));
    ib.SetDeviceAttribute("AckBufferPackets", UintegerValue(16));
    ib.SetSwitchAttribute("ForwardingDelay", TimeValue(NanoSeconds(40)));
    ib.SetSwitchAttribute("Arbiter", StringValue(o.arbiter));
    ib.SetSwitchAttribute("BypassLimit", UintegerValue(o.bypass));
    ib.SetSwitchAttribute("InputFanout", BooleanValue(o.fanout != 0));
    ib.SetSwitchAttribute("DeferTrigger", BooleanValue(true));
    ib.SetSwitchAttribute("Marker", EnumValue(row.marker));
    ib.SetSwitchAttribute("Classify", StringValue(o.classify));
    ib.SetHostAttribute("DataPacketBytes", UintegerValue(2068));
    ib.SetHostAttribute("Window", UintegerValue(o.window));
    if (row.marker == IBCC_MARKER_IBA)
    {
        ib.SetSwitchAttribute("IbaThreshold", UintegerValue(15));
        ib.SetSwitchAttribute("IbaPacketSize", UintegerValue(8));
        ib.SetSwitchAttribute("IbaMarkingRate", UintegerValue(1));
        ib.SetSwitchAttribute("OutCapacity", UintegerValue(16));
        ib.SetHostAttribute("Agent", StringValue("cct"));
        ib.SetHostAttribute("Echo", StringValue("iba"));
        ib.SetHostAttribute("CctPopulation", StringValue("linear"));
        ib.SetHostAttribute("CctSize", UintegerValue(256));
        ib.SetHostAttribute("CctiTimer", UintegerValue(150));
        ib.SetHostAttribute("CctiIncrease", UintegerValue(1));
    }
    else if (row.marker == IBCC_MARKER_MVPM)
    {
        ib.SetHostAttribute("Agent", StringValue("mvcm"));
        ib.SetHostAttribute("Echo", StringValue("mvpm"));
        ib.SetHostAttribute("MvcmWaitingSlot", TimeValue(FromIbccTime(MvcmSlot())));
    }
    else if (row.law)
    {
        ib.SetHostAttribute("Agent", StringValue("law"));
        ib.SetHostAttribute("Law", StringValue("lipd"));
        ib.SetHostAttribute("Echo", StringValue("ecn"));
    }
    else
    {
        ib.SetHostAttribute("Agent", StringValue(o.window ? "window" : "none"));
    }

    // nodes and links in the order of ibcc_twoswitch_build (port numbers:
    // A: remotes 0..R-1, victim R, ISL R+1; B: locals 0..L-1, BC L, BV L+1,
    // ISL L+2)
    NodeContainer sw, remotes, locals, sinks;
    sw.Create(2);
    remotes.Create(R + 1);   // A1..AR, then AV
    locals.Create(L);
    sinks.Create(2);         // BC, BV
    Ptr<Node> a = sw.Get(0), b = sw.Get(1), av = remotes.Get(R);
    Ptr<Node> bc = sinks.Get(0), bv = sinks.Get(1);
    ib.InstallSwitch(a);
    ib.InstallSwitch(b);
    ib.InstallHost(remotes);
    ib.InstallHost(locals);
    ib.InstallHost(sinks);
    std::vector<ibcc_time> delay = CableDelays(o);
    size_t link = 0;
    auto connect = [&](Ptr<Node> x, Ptr<Node> y) {
        ib.SetChannelAttribute("Delay", TimeValue(FromIbccTime(delay[link++])));
        return ib.Connect(x, y);
    };
    for (uint32_t i = 0; i <= R; i++)
    {
        connect(remotes.Get(i), a);
    }
    for (uint32_t i = 0; i < L; i++)
    {
        connect(locals.Get(i), b);
    }
    NetDeviceContainer root = connect(bc, b);   // device 1: B's port to BC
    connect(bv, b);
    NetDeviceContainer isl = connect(a, b);     // device 0: A's ISL port
    ib.PopulateRoutes();

    Ns3Run run;
    run.tally = &tally;
    std::vector<Ptr<Node>> src;
    for (uint32_t i = 0; i < L; i++)
    {
        src.push_back(locals.Get(i));
        tally.cls.push_back(kLocal);
    }
    for (uint32_t i = 0; i < R; i++)
    {
        src.push_back(remotes.Get(i));
        tally.cls.push_back(kRemote);
    }
    src.push_back(av);
    tally.cls.push_back(kVictim);
    tally.bytes.assign(src.size(), 0.0);
    for (uint32_t i = 0; i < src.size(); i++)
    {
        bool victim = tally.cls[i] == kVictim;
        Time start = victim ? FromIbccTime(MsTime(o.victimFrom)) : MicroSeconds(100) * i;
        Time stop = victim ? FromIbccTime(MsTime(o.victimTo)) : Time(0);
        ib.AddFlow(src[i], victim ? bv : bc, start, stop);
        run.flowOfLid[IbccHelper::GetLid(src[i])] = i;
        src[i]->GetObject<IbccHost>()->TraceConnectWithoutContext(
            "Tx",
            MakeCallback(&Ns3Run::Tx, &run).Bind(i));
    }
    for (Ptr<Node> n : {bc, bv})
    {
        n->GetObject<IbccHost>()->TraceConnectWithoutContext(
            "RxData",
            MakeCallback(&Ns3Run::RxData, &run));
    }
    root.Get(1)->TraceConnectWithoutContext(
        "PhyTxBegin",
        MakeCallback(&Ns3Run::LinkTx, &run).Bind(&tally.rootBytes));
    isl.Get(0)->TraceConnectWithoutContext(
        "PhyTxBegin",
        MakeCallback(&Ns3Run::LinkTx, &run).Bind(&tally.islBytes));

    Simulator::Stop(FromIbccTime(MsTime(o.timeMs)));
    Simulator::Run();
    Simulator::Destroy();
}

// ---- the same configuration on ibcc's own fabric -------------------------------
void
OnFabricDelivered(void* user, const ibcc_fabric_pkt* p)
{
    Tally* t = static_cast<Tally*>(user);
    t->Delivered(p->flow, p->size, p->hdr, p->t - p->t_inject, p->t);
}

bool
RunFabric(const Options& o, const Row& row, Tally& tally)
{
    static ibcc_twoswitch ts;
    static uint16_t cct[256];
    ibcc_fabric_desc d = ibcc_fabric_desc();
    if (ibcc_twoswitch_build(&ts, o.local, o.remote, &d) != IBCC_OK)
    {
        return false;
    }
    d.buf_packets = o.buffer;
    std::vector<ibcc_time> delay = CableDelays(o);
    for (uint32_t k = 0; k < ts.link_count; k++)
    {
        ts.links[k].prop = delay[k];
    }
    d.arbiter.policy = o.arbiter == "rr" ? IBCC_ARB_RR
                       : o.arbiter == "fifo" ? IBCC_ARB_FIFO
                                             : IBCC_ARB_OLDEST;
    d.arbiter.bypass_limit = o.bypass;
    d.input_fanout = o.fanout;
    d.marker.defer = 1;
    d.marker.engine = row.marker;
    d.marker.classify = o.classify == "busy" ? IBCC_CLASSIFY_BUSY : IBCC_CLASSIFY_ALL;
    if (row.marker == IBCC_MARKER_IBA)
    {
        d.marker.iba_threshold = 15;
        d.marker.iba_packet_size = 8;
        d.marker.iba_marking_rate = 1;
        d.marker.out_capacity = 16;
        d.dest.scheme = IBCC_DEST_IBA;
        ibcc_cct_fill_linear(cct, 256);
        d.cct.table = cct;
        d.cct.table_len = 256;
        for (int s = 0; s < IBCC_CCT_SLS; s++)
        {
            d.cct.sl[s].ccti_timer = 150;
            d.cct.sl[s].ccti_increase = 1;
        }
    }
    else if (row.marker == IBCC_MARKER_MVPM)
    {
        d.dest.scheme = IBCC_DEST_MVPM;
        d.mvcm.ws = MvcmSlot();
    }
    else if (row.law)
    {
        d.law.kind = IBCC_LAW_LIPD;
        d.law.form = IBCC_LAW_CONTINUOUS;
    }
    d.horizon = MsTime(o.timeMs) + IBCC_MS(1);
    for (uint32_t i = 0; i < ts.flow_count; i++)
    {
        ibcc_fabric_flow* x = &ts.flows[i];
        x->window = o.window;
        x->agent = row.marker == IBCC_MARKER_IBA    ? IBCC_AGENT_CCT
                   : row.marker == IBCC_MARKER_MVPM ? IBCC_AGENT_MVCM
                   : row.law                        ? IBCC_AGENT_LAW
                   : o.window                    ? IBCC_AGENT_WINDOW
                                                 : IBCC_AGENT_NONE;
        if (x->cls == IBCC_TS_VICTIM)
        {
            x->start = MsTime(o.victimFrom);
            x->stop = MsTime(o.victimTo);
        }
        else
        {
            x->start = IBCC_US(100) * i;
        }
        tally.cls.push_back(x->cls);
    }
    tally.bytes.assign(ts.flow_count, 0.0);
    d.observer.delivered = OnFabricDelivered;
    d.observer.user = &tally;
    ibcc_fabric* f = nullptr;
    ibcc_result r = ibcc_fabric_create(&f, &d);
    if (r == IBCC_OK)
    {
        r = ibcc_fabric_run_until(f, MsTime(o.timeMs));
    }
    if (r == IBCC_OK && ibcc_fabric_check(f) != IBCC_OK)
    {
        r = IBCC_ERR_MISMATCH;
    }
    if (r == IBCC_OK && tally.sent)
    {
        // first-bit counting from the fabric's bins, as ibccsim does
        uint64_t bb = 0;
        for (uint32_t i = 0; i < ts.flow_count; i++)
        {
            ibcc_fabric_flow_bytes(f, i, tally.m0, tally.m1, &bb);
            tally.bytes[i] = static_cast<double>(bb);
        }
        ibcc_fabric_channel_bytes(f, ts.root_channel, tally.m0, tally.m1, &bb);
        tally.rootBytes = static_cast<double>(bb);
        ibcc_fabric_channel_bytes(f, ts.isl_channel, tally.m0, tally.m1, &bb);
        tally.islBytes = static_cast<double>(bb);
    }
    ibcc_fabric_destroy(f);
    if (r != IBCC_OK)
    {
        std::fprintf(stderr, "ibcc-twoswitch: fabric: %s\n", ibcc_result_str(r));
        return false;
    }
    return true;
}

bool
WriteSummary(const Options& o, const Result& r)
{
    FILE* fp = std::fopen(o.summary.c_str(), "w");
    if (!fp)
    {
        std::fprintf(stderr, "ibcc-twoswitch: cannot write %s\n", o.summary.c_str());
        return false;
    }
    std::fprintf(fp, "metric,value\n");
    std::fprintf(fp, "measure_from_us,%.3f\nmeasure_to_us,%.3f\n", o.measureFrom * 1e3, o.measureTo * 1e3);
    std::fprintf(fp, "root_util_frac,%.6f\n", r.root);
    std::fprintf(fp, "isl_util_frac,%.6f\n", r.isl);
    std::fprintf(fp, "victim_share_isl_frac,%.6f\n", r.victim);
    std::fprintf(fp, "local_share_root_frac,%.6f\n", r.local);
    std::fprintf(fp, "remote_share_root_frac,%.6f\n", r.remote);
    std::fprintf(fp, "remote_local_ratio,%.6f\n", r.ratio);
    std::fprintf(fp, "victim_gbps,%.6f\n", r.victim * 8.0);
    std::fprintf(fp, "victim_ideal_share_isl_frac,%.6f\n", 1.0 - r.remote);
    std::fprintf(fp, "jain_contributors,%.6f\n", r.jain);
    std::fprintf(fp, "marked_local_frac,%.6f\n", r.marked[kLocal]);
    std::fprintf(fp, "marked_remote_frac,%.6f\n", r.marked[kRemote]);
    std::fprintf(fp, "marked_victim_frac,%.6f\n", r.marked[kVictim]);
    std::fprintf(fp, "latency_local_us,%.3f\n", r.latencyUs[kLocal]);
    std::fprintf(fp, "latency_remote_us,%.3f\n", r.latencyUs[kRemote]);
    std::fprintf(fp, "latency_victim_us,%.3f\n", r.latencyUs[kVictim]);
    std::fprintf(fp, "delivered_packets,%llu\n", static_cast<unsigned long long>(r.traced));
    std::fprintf(fp, "delivery_trace_fnv1a,%016llx\n", static_cast<unsigned long long>(r.trace));
    std::fprintf(fp, "engine,%s\ncount,%s\n", o.engine.c_str(), o.count.c_str());
    std::fclose(fp);
    return true;
}

} // namespace

int
main(int argc, char* argv[])
{
    // ibcc counts picoseconds: the clock must resolve them
    Time::SetResolution(Time::PS);

    Options o;
    CommandLine cmd(__FILE__);
    cmd.Usage("Two-switch victim scenario [S02]/[S03] with ibcc engines in ns-3 devices.");
    cmd.AddValue("row", "one row only: nocc, input, iba or mvcm (default: the first three)", o.row);
    cmd.AddValue("local", "local sources on B (1..64)", o.local);
    cmd.AddValue("remote", "remote sources on A (1..64)", o.remote);
    cmd.AddValue("buffer", "packets per input buffer", o.buffer);
    cmd.AddValue("window", "unacknowledged packets per flow (0 = none)", o.window);
    cmd.AddValue("arbiter", "oldest, fifo or rr", o.arbiter);
    cmd.AddValue("bypass", "oldest-first bypass limit", o.bypass);
    cmd.AddValue("fanout", "1: an input buffer sends to several outputs at once (0: one at a time)", o.fanout);
    cmd.AddValue("classify", "input marker classification: all or busy", o.classify);
    cmd.AddValue("cable-ps", "propagation delay of every cable, ps (1..10^6)", o.cablePs);
    cmd.AddValue("jitter-ps", "each cable's delay drawn from cable-ps +- this, ps", o.jitterPs);
    cmd.AddValue("seed", "seed of the jitter", o.seed);
    cmd.AddValue("time", "simulated time, ms", o.timeMs);
    cmd.AddValue("victim-from", "victim flow starts, ms", o.victimFrom);
    cmd.AddValue("victim-to", "victim flow stops, ms", o.victimTo);
    cmd.AddValue("measure-from", "measured window start, ms (default victim-from)", o.measureFrom);
    cmd.AddValue("measure-to", "measured window end, ms (default victim-to)", o.measureTo);
    cmd.AddValue("engine", "ns3 (ns-3 devices) or ibcc (ibcc's own fabric model)", o.engine);
    cmd.AddValue("count", "delivered (tail at the destination) or sent (first bit)", o.count);
    cmd.AddValue("summary", "CSV metric,value of the row (with --row)", o.summary);
    cmd.Parse(argc, argv);

    if (o.measureFrom < 0)
    {
        o.measureFrom = o.victimFrom;
    }
    if (o.measureTo < 0)
    {
        o.measureTo = o.victimTo;
    }
    if (o.local < 1 || o.local > 64 || o.remote < 1 || o.remote > 64 || o.buffer < 1 ||
        o.cablePs < 1 || o.cablePs > 1000000 || o.jitterPs >= o.cablePs ||
        o.victimTo <= o.victimFrom || o.measureTo <= o.measureFrom || o.measureTo > o.timeMs ||
        (o.engine != "ns3" && o.engine != "ibcc") ||
        (o.count != "delivered" && o.count != "sent") || o.fanout > 1 ||
        (o.classify != "all" && o.classify != "busy") ||
        (o.arbiter != "oldest" && o.arbiter != "fifo" && o.arbiter != "rr"))
    {
        std::fprintf(stderr, "ibcc-twoswitch: bad options (see --help)\n");
        return 2;
    }
    std::vector<const Row*> rows;
    for (size_t i = 0; i < sizeof kRows / sizeof kRows[0]; i++)
    {
        if ((o.row.empty() && i < kTableRows) || o.row == kRows[i].key)
        {
            rows.push_back(&kRows[i]);
        }
    }
    if (rows.empty() || (!o.summary.empty() && rows.size() != 1))
    {
        std::fprintf(stderr,
                     "ibcc-twoswitch: --row nocc|input|iba|mvcm (--summary needs one row)\n");
        return 2;
    }

    std::vector<Result> res;
    for (const Row* row : rows)
    {
        Tally t;
        t.m0 = MsTime(o.measureFrom);
        t.m1 = MsTime(o.measureTo);
        t.sent = o.count == "sent";
        if (o.engine == "ibcc")
        {
            if (!RunFabric(o, *row, t))
            {
                return 1;
            }
        }
        else
        {
            RunNs3(o, *row, t);
        }
        res.push_back(t.Finish());
    }

    std::printf("Two-switch victim scenario [S02]/[S03] on %s: %u local + %u remote sources\n"
                "-> one congested host BC; a victim flow A->B (AV->BV) active %g-%g ms.\n"
                "Links 1 GB/s, input buffers of %u packets, window %u, %g ms runs;\n"
                "figures are averages over [%g, %g] ms from %s bytes.\n\n",
                o.engine == "ibcc" ? "ibcc's fabric model" : "ns-3 (ibcc engines in ns-3 devices)",
                o.local,
                o.remote,
                o.victimFrom,
                o.victimTo,
                o.buffer,
                o.window,
                o.timeMs,
                o.measureFrom,
                o.measureTo,
                o.count == "sent" ? "sent" : "delivered");
    std::printf("%-26s %6s %6s %7s %6s %6s %6s\n",
                "configuration", "root", "ISL", "victim", "local", "remote", "Jain");
    std::printf("%-26s %6s %6s %7s %6s %6s %6s\n",
                "", "util", "util", "share", "share", "share", "index");
    for (size_t i = 0; i < rows.size(); i++)
    {
        const Result& r = res[i];
        std::string name = rows[i]->name;
        if (rows[i]->marker == IBCC_MARKER_INPUT && o.classify == "busy")
        {
            name = "input (busy) + LIPD";
        }
        std::printf("%-26s %6.3f %6.3f %7.3f %6.3f %6.3f %6.3f\n",
                    name.c_str(), r.root, r.isl, r.victim, r.local, r.remote, r.jain);
    }
    if (!o.summary.empty() && !WriteSummary(o, res[0]))
    {
        return 1;
    }
    return 0;
}
