/* ibcc ns-3 model on ns-3's distributed (MPI) simulator: a k-ary fat tree
   (k = 16: 1024 hosts, 320 switches) with permutation traffic and IBA
   congestion control, partitioned over the MPI ranks.

     mpirun -np 2 build/ns3mpi/ibcc-fattree-mpi --time=100
     build/ns3mpi/ibcc-fattree-mpi --help

   --sync=null runs ns-3's null-message synchroniser instead of its
   granted time window (the default). Every rank builds the whole
   topology (ns-3's distributed model); a node
   belongs to the rank given by IbccFatTreePartition, only that rank runs
   its events, and links between two ranks are IbccRemoteChannels. One
   rank (no mpirun, or -np 1) runs ns-3's sequential simulator. At the end
   rank 0 gathers every delivery (time in ps, source, destination, queue
   pair, header bits, latency), sorts them by time and destination (a host
   receives at most one packet per instant) and hashes them with FNV-1a:
   equal hashes for two rank counts = the same packet-level history.
   Printed by rank 0:
     ranks=N partition=P hosts=H ... delivered=D fecn=F hash=X wall_s=W
       [identical=0|1]
     rank R: nodes=.. events=.. wall_s=.. cpu_s=.. rounds=.. sync_s=..
             sent=.. received=.. delivered=..
   (fecn = delivered data packets carrying a FECN mark; identical= only
   with --expect=HASH; events = ns-3 events the rank ran;
   wall_s, cpu_s = Simulator::Run's wall-clock and CPU time; rounds =
   synchronisation rounds (MPI_Allgather calls of ns-3's granted time
   window), sync_s = wall time inside them; sent/received = messages
   through the MPI interface.)
   SPDX-License-Identifier: MIT (see ibcc.h) */
#include "ibcc-helper.h"
#include "ibcc-partition.h"
#include "ibcc-remote-channel.h"

#include "ns3/boolean.h"
#include "ns3/command-line.h"
#include "ns3/global-value.h"
#include "ns3/mpi-interface.h"
#include "ns3/node-container.h"
#include "ns3/simulator.h"
#include "ns3/string.h"
#include "ns3/uinteger.h"

#include <mpi.h>

#include <algorithm>
#include <chrono>
#include <cinttypes>
#include <cstdio>
#include <ctime>
#include <random>
#include <string>
#include <vector>

using namespace ns3;

namespace
{

// one delivery: time, destination LID, then (source LID, QP, header bits)
// and latency; sorted by (time, destination)
struct Rec
{
    uint64_t t;
    uint64_t dst;
    uint64_t who;
    uint64_t lat;
};

std::vector<Rec> g_recs;

// ns-3's granted-time-window simulator synchronises the ranks with one
// MPI_Allgather per round (a round grants the next window, or finds
// messages still in flight and is repeated); counted here through MPI's
// profiling interface, with the time spent in them (waiting for the
// slowest rank included)
uint64_t g_rounds = 0;
double g_syncS = 0;

} // namespace

extern "C" int
MPI_Allgather(const void* sb, int sc, MPI_Datatype st, void* rb, int rc, MPI_Datatype rt, MPI_Comm c)
{
    auto t0 = std::chrono::steady_clock::now();
    int r = PMPI_Allgather(sb, sc, st, rb, rc, rt, c);
    g_syncS += std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    g_rounds++;
    return r;
}

namespace
{

double
CpuSeconds()
{
    struct timespec ts;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
    return double(ts.tv_sec) + double(ts.tv_nsec) * 1e-9;
}

void
OnRx(uint16_t dlid, Ptr<const Packet> p, uint16_t slid, uint32_t qp, uint8_t flags, Time latency)
{
    (void)p;
    g_recs.push_back(Rec{static_cast<uint64_t>(Simulator::Now().GetPicoSeconds()),
                         dlid,
                         (uint64_t(slid) << 40) | (uint64_t(qp) << 8) | flags,
                         static_cast<uint64_t>(latency.GetPicoSeconds())});
}

struct Fnv
{
    uint64_t h = 14695981039346656037u;

    void Add(uint64_t x)
    {
        for (int k = 0; k < 8; k++)
        {
            h = (h ^ ((x >> (8 * k)) & 0xffu)) * 1099511628211u;
        }
    }
};

// a permutation without fixed points, the same on every rank: Fisher-Yates
// with a fixed generator, then every fixed point swapped with its successor
std::vector<uint32_t>
Permutation(uint32_t n, uint32_t seed)
{
    std::vector<uint32_t> p(n);
    for (uint32_t i = 0; i < n; i++)
    {
        p[i] = i;
    }
    std::mt19937_64 g(seed);
    for (uint32_t i = n - 1; i > 0; i--)
    {
        uint32_t j = static_cast<uint32_t>(g() % (i + 1u));
        std::swap(p[i], p[j]);
    }
    for (uint32_t i = 0; i < n && n > 1; i++)
    {
        if (p[i] == i)
        {
            std::swap(p[i], p[(i + 1) % n]);
        }
    }
    return p;
}

} // namespace

int
main(int argc, char* argv[])
{
    Time::SetResolution(Time::PS);   // ibcc counts picoseconds
    // ns-3's synchroniser is chosen before MPI starts: --sync=null picks
    // the null-message one (looked for here, before the command line
    // is parsed, which needs MPI's rank for its messages)
    bool nullMsg = false;
    for (int i = 1; i < argc; i++)
    {
        nullMsg = nullMsg || std::string(argv[i]) == "--sync=null";
    }
    if (nullMsg)
    {
        GlobalValue::Bind("SimulatorImplementationType",
                          StringValue("ns3::NullMessageSimulatorImpl"));
    }
    MpiInterface::Enable(&argc, &argv);
    uint32_t rank = MpiInterface::GetSystemId();
    uint32_t ranks = MpiInterface::GetSize();

    uint32_t k = 16;
    double timeUs = 100;
    std::string partition = "pod";
    std::string cc = "iba";
    uint32_t seed = 1;
    std::string expect;
    double cableNs = 5;
    uint32_t window = 1;
    std::string syncKind = "window";
    CommandLine cmd(__FILE__);
    cmd.AddValue("k", "fat tree arity (even): k^3/4 hosts", k);
    cmd.AddValue("time", "simulated time, microseconds", timeUs);
    cmd.AddValue("partition", "pod, leaf or switch (IbccFatTreePartition)", partition);
    cmd.AddValue("cc", "iba (IBA FECN marking + CCT agent) or none (window 1 only)", cc);
    cmd.AddValue("seed", "permutation seed", seed);
    cmd.AddValue("cable", "cable delay of every link, ns (the lookahead: 1 ps less)", cableNs);
    cmd.AddValue("window", "packets a flow may have unacknowledged (1 to 1024)", window);
    cmd.AddValue("sync",
                 "window (granted time window, ns-3's default) or null (null messages)",
                 syncKind);
    cmd.AddValue("expect", "hash of the reference history: prints identical=0|1", expect);
    cmd.Parse(argc, argv);

    IbccFatTreePartition part;
    IbccFatTreePartition::Policy policy;
    std::string why;
    bool ok = IbccFatTreePartition::ParsePolicy(partition, &policy);
    if (!ok)
    {
        why = "--partition must be pod, leaf or switch";
    }
    else
    {
        ok = part.Init(k, ranks, policy, &why);
    }
    if (ok && cc != "iba" && cc != "none")
    {
        ok = false;
        why = "--cc must be iba or none";
    }
    if (ok && !(timeUs > 0 && timeUs <= 1e6))
    {
        ok = false;
        why = "--time must be in (0, 1e6] microseconds";
    }
    if (ok && syncKind != "window" && syncKind != "null")
    {
        ok = false;
        why = "--sync must be window or null";
    }
    if (ok && (window < 1 || window > 1024))
    {
        ok = false;
        why = "--window must be 1 to 1024";
    }
    if (ok && !(cableNs >= 0.002 && cableNs <= 1e6))
    {
        ok = false;
        why = "--cable must be in [0.002, 1e6] ns";
    }
    if (!ok)
    {
        if (rank == 0)
        {
            std::fprintf(stderr, "ibcc-fattree-mpi: %s\n", why.c_str());
        }
        MpiInterface::Disable();
        return 2;
    }
    if (ranks == 1)
    {
        // one rank: ns-3's sequential simulator, the reference
        GlobalValue::Bind("SimulatorImplementationType", StringValue("ns3::DefaultSimulatorImpl"));
    }

    // nodes, each with its rank (system id)
    uint32_t half = k / 2;
    NodeContainer hosts, leaves, aggs, cores;
    for (uint32_t h = 0; h < part.Hosts(); h++)
    {
        hosts.Add(CreateObject<Node>(part.Host(h)));
    }
    for (uint32_t e = 0; e < part.Leaves(); e++)
    {
        leaves.Add(CreateObject<Node>(part.Leaf(e)));
    }
    for (uint32_t a = 0; a < part.Aggs(); a++)
    {
        aggs.Add(CreateObject<Node>(part.Agg(a)));
    }
    for (uint32_t c = 0; c < part.Cores(); c++)
    {
        cores.Add(CreateObject<Node>(part.Core(c)));
    }

    // the ns-3 model's IBA row (examples/ns3/examples/ibcc-twoswitch.cc)
    IbccHelper ib;
    ib.SetRemoteChannelType("ns3::IbccRemoteChannel");
    ib.SetChannelAttribute("Delay", TimeValue(PicoSeconds(static_cast<int64_t>(cableNs * 1000 + 0.5))));
    ib.SetDeviceAttribute("DataRate", StringValue("8Gbps"));
    ib.SetDeviceAttribute("DataBufferPackets", UintegerValue(4));
    ib.SetDeviceAttribute("AckBufferPackets", UintegerValue(16));
    ib.SetSwitchAttribute("ForwardingDelay", TimeValue(NanoSeconds(40)));
    ib.SetSwitchAttribute("InputFanout", BooleanValue(true));
    ib.SetSwitchAttribute("DeferTrigger", BooleanValue(true));
    ib.SetHostAttribute("DataPacketBytes", UintegerValue(2068));
    ib.SetHostAttribute("Window", UintegerValue(window));
    if (cc == "iba")
    {
        ib.SetSwitchAttribute("Marker", StringValue("iba"));
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
    else
    {
        ib.SetHostAttribute("Agent", StringValue("window"));
    }
    std::vector<Ptr<IbccSwitch>> leafSw, aggSw, coreSw;
    for (uint32_t e = 0; e < part.Leaves(); e++)
    {
        leafSw.push_back(ib.InstallSwitch(leaves.Get(e)));
    }
    for (uint32_t a = 0; a < part.Aggs(); a++)
    {
        aggSw.push_back(ib.InstallSwitch(aggs.Get(a)));
    }
    for (uint32_t c = 0; c < part.Cores(); c++)
    {
        coreSw.push_back(ib.InstallSwitch(cores.Get(c)));
    }
    ib.InstallHost(hosts);   // host h has LID h + 1

    // links; port numbers follow the order of Connect: a leaf's hosts are
    // its ports 0..k/2-1 and its aggregation switches k/2..k-1; an
    // aggregation switch's leaves are 0..k/2-1 and its cores k/2..k-1; a
    // core switch's port p leads to pod p
    for (uint32_t h = 0; h < part.Hosts(); h++)
    {
        ib.Connect(hosts.Get(h), leaves.Get(h / half));
    }
    for (uint32_t p = 0; p < k; p++)
    {
        for (uint32_t i = 0; i < half; i++)
        {
            for (uint32_t j = 0; j < half; j++)
            {
                ib.Connect(leaves.Get(p * half + i), aggs.Get(p * half + j));
            }
        }
    }
    for (uint32_t p = 0; p < k; p++)
    {
        for (uint32_t j = 0; j < half; j++)
        {
            for (uint32_t m = 0; m < half; m++)
            {
                ib.Connect(aggs.Get(p * half + j), cores.Get(j * half + m));
            }
        }
    }
    // routes, destination mod k (d-mod-k): host d goes up through
    // aggregation switch d mod k/2 of the source pod and core switch
    // (d / (k/2)) mod k/2 of that switch's group, so each destination has
    // one path and the up links share the destinations evenly
    uint32_t perPod = half * half;
    for (uint32_t d = 0; d < part.Hosts(); d++)
    {
        uint16_t lid = static_cast<uint16_t>(d + 1);
        uint32_t leafOf = d / half, podOf = d / perPod;
        for (uint32_t e = 0; e < part.Leaves(); e++)
        {
            leafSw[e]->AddRoute(lid, e == leafOf ? d % half : half + d % half);
        }
        for (uint32_t a = 0; a < part.Aggs(); a++)
        {
            aggSw[a]->AddRoute(lid, a / half == podOf ? leafOf % half : half + (d / half) % half);
        }
        for (uint32_t c = 0; c < part.Cores(); c++)
        {
            coreSw[c]->AddRoute(lid, podOf);
        }
    }

    // permutation traffic: host h sends to perm[h], greedy, from time 0;
    // flows and traces only on the host's own rank
    std::vector<uint32_t> perm = Permutation(part.Hosts(), seed);
    uint32_t local = 0;
    for (uint32_t h = 0; h < part.Hosts(); h++)
    {
        if (hosts.Get(h)->GetSystemId() != rank)
        {
            continue;
        }
        ib.AddFlow(hosts.Get(h), hosts.Get(perm[h]), Seconds(0));
        hosts.Get(h)->GetObject<IbccHost>()->TraceConnectWithoutContext(
            "RxData",
            MakeBoundCallback(&OnRx, static_cast<uint16_t>(h + 1)));
        local++;
    }
    NodeContainer all(hosts, leaves, aggs, cores);
    for (uint32_t i = 0; i < all.GetN(); i++)
    {
        local += (all.Get(i)->GetSystemId() == rank && i >= part.Hosts()) ? 1 : 0;
    }

    Simulator::Stop(MicroSeconds(timeUs));
    auto t0 = std::chrono::steady_clock::now();
    double c0 = CpuSeconds();
    Simulator::Run();
    double wall = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    double cpu = CpuSeconds() - c0;
    uint64_t events = Simulator::GetEventCount();
    uint64_t rounds = g_rounds;
    double sync = g_syncS;

    // gather: per-rank figures, then every delivery at rank 0
    MPI_Comm comm = MpiInterface::GetCommunicator();
    const int nf = 9;
    double mine[nf] = {double(local),
                       double(events),
                       wall,
                       double(IbccRemoteChannel::GetSent()),
                       double(IbccRemoteChannel::GetReceived()),
                       double(g_recs.size()),
                       cpu,
                       double(rounds),
                       sync};
    std::vector<double> fig(nf * ranks);
    MPI_Gather(mine, nf, MPI_DOUBLE, fig.data(), nf, MPI_DOUBLE, 0, comm);
    int n = static_cast<int>(g_recs.size() * 4);
    std::vector<int> counts(ranks), displs(ranks);
    MPI_Gather(&n, 1, MPI_INT, counts.data(), 1, MPI_INT, 0, comm);
    std::vector<uint64_t> all64;
    if (rank == 0)
    {
        int sum = 0;
        for (uint32_t r = 0; r < ranks; r++)
        {
            displs[r] = sum;
            sum += counts[r];
        }
        all64.resize(sum);
    }
    MPI_Gatherv(g_recs.data(),
                n,
                MPI_UINT64_T,
                all64.data(),
                counts.data(),
                displs.data(),
                MPI_UINT64_T,
                0,
                comm);
    if (rank == 0)
    {
        std::vector<Rec> recs(all64.size() / 4);
        for (size_t i = 0; i < recs.size(); i++)
        {
            recs[i] = Rec{all64[4 * i], all64[4 * i + 1], all64[4 * i + 2], all64[4 * i + 3]};
        }
        std::sort(recs.begin(), recs.end(), [](const Rec& a, const Rec& b) {
            return a.t != b.t ? a.t < b.t : a.dst < b.dst;
        });
        Fnv f;
        size_t marked = 0;
        for (const Rec& r : recs)
        {
            marked += (r.who & IBCC_FECN) ? 1 : 0;
            f.Add(r.t);
            f.Add(r.dst);
            f.Add(r.who);
            f.Add(r.lat);
        }
        char hash[32];
        std::snprintf(hash, sizeof hash, "%016" PRIx64, f.h);
        double wmax = 0;
        for (uint32_t r = 0; r < ranks; r++)
        {
            wmax = std::max(wmax, fig[nf * r + 2]);
        }
        std::printf("ranks=%u partition=%s hosts=%u switches=%u cc=%s time_us=%g cable_ns=%g "
                    "delivered=%zu fecn=%zu hash=%s wall_s=%.3f",
                    ranks,
                    partition.c_str(),
                    part.Hosts(),
                    part.Leaves() + part.Aggs() + part.Cores(),
                    cc.c_str(),
                    timeUs,
                    cableNs,
                    recs.size(),
                    marked,
                    hash,
                    wmax);
        if (!expect.empty())
        {
            std::printf(" identical=%d", expect == hash ? 1 : 0);
        }
        std::printf("\n");
        for (uint32_t r = 0; r < ranks; r++)
        {
            const double* x = &fig[nf * r];
            std::printf("  rank %u: nodes=%.0f events=%.0f wall_s=%.3f cpu_s=%.3f rounds=%.0f "
                        "sync_s=%.3f sent=%.0f received=%.0f delivered=%.0f\n",
                        r,
                        x[0],
                        x[1],
                        x[2],
                        x[6],
                        x[7],
                        x[8],
                        x[3],
                        x[4],
                        x[5]);
        }
        std::fflush(stdout);
    }
    Simulator::Destroy();
    MpiInterface::Disable();
    return 0;
}
