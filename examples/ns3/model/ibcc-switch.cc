/* ibcc ns-3 model: IbccSwitch. SPDX-License-Identifier: MIT (see ibcc.h) */
#include "ibcc-switch.h"

#include "ns3/abort.h"
#include "ns3/boolean.h"
#include "ns3/enum.h"
#include "ns3/log.h"
#include "ns3/simulator.h"
#include "ns3/uinteger.h"

#include <algorithm>
#include <cstdint>

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("IbccSwitch");
NS_OBJECT_ENSURE_REGISTERED(IbccSwitch);

TypeId
IbccSwitch::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::IbccSwitch")
            .SetParent<Object>()
            .SetGroupName("Ibcc")
            .AddConstructor<IbccSwitch>()
            .AddAttribute("ForwardingDelay",
                          "From a packet's first bit at an input to its routing decision "
                          "(cut-through header delay, [S02] Table I: 40 ns).",
                          TimeValue(NanoSeconds(40)),
                          MakeTimeAccessor(&IbccSwitch::m_fwdDelay),
                          MakeTimeChecker(Time(0)))
            .AddAttribute("Arbiter",
                          "Output arbitration (ibcc_arbiter policy): oldest first with "
                          "bounded bypass, FIFO (heads only) or round robin over inputs.",
                          EnumValue(IBCC_ARB_OLDEST),
                          IBCC_NS3_ENUM_ACCESSOR(ibcc_arb_policy, &IbccSwitch::m_policy),
                          MakeEnumChecker(IBCC_ARB_OLDEST,
                                          "oldest",
                                          IBCC_ARB_FIFO,
                                          "fifo",
                                          IBCC_ARB_RR,
                                          "rr"))
            .AddAttribute("BypassLimit",
                          "Oldest-first: times a buffer's head may be bypassed.",
                          UintegerValue(4),
                          MakeUintegerAccessor(&IbccSwitch::m_bypass),
                          MakeUintegerChecker<uint32_t>(1, 65535))
            .AddAttribute("InputFanout",
                          "An input buffer may send to several outputs at once "
                          "(each output takes its packet on its own, the switch of "
                          "[S02]/[S03]); false: one packet at a time per input.",
                          BooleanValue(false),
                          MakeBooleanAccessor(&IbccSwitch::m_fanout),
                          MakeBooleanChecker())
            .AddAttribute("DeferTrigger",
                          "A full input buffer triggers marking once the packets that "
                          "start at the instant of the filling arrival have started "
                          "(ibcc_marker_desc.defer); false: at the arrival.",
                          BooleanValue(false),
                          MakeBooleanAccessor(&IbccSwitch::m_defer),
                          MakeBooleanChecker())
            .AddAttribute("Marker",
                          "Congestion marking engine (ibcc_marker).",
                          EnumValue(IBCC_MARKER_NONE),
                          IBCC_NS3_ENUM_ACCESSOR(ibcc_marker_engine, &IbccSwitch::m_engine),
                          MakeEnumChecker(IBCC_MARKER_NONE,
                                          "none",
                                          IBCC_MARKER_NAIVE,
                                          "naive",
                                          IBCC_MARKER_INPUT,
                                          "input",
                                          IBCC_MARKER_INPUT_OUTPUT,
                                          "input-output",
                                          IBCC_MARKER_IBA,
                                          "iba",
                                          IBCC_MARKER_MVPM,
                                          "mvpm"))
            .AddAttribute("Classify",
                          "Which outputs an input trigger classifies congested: all with a "
                          "packet in the full buffer, or only those busy / out of credits.",
                          EnumValue(IBCC_CLASSIFY_ALL),
                          IBCC_NS3_ENUM_ACCESSOR(ibcc_classify, &IbccSwitch::m_classify),
                          MakeEnumChecker(IBCC_CLASSIFY_ALL, "all", IBCC_CLASSIFY_BUSY, "busy"))
            .AddAttribute("OutputThreshold",
                          "Input-output marker: output trigger when more than this many "
                          "packets wait for an output.",
                          UintegerValue(8),
                          MakeUintegerAccessor(&IbccSwitch::m_tOut),
                          MakeUintegerChecker<uint32_t>(1))
            .AddAttribute("Trigger",
                          "Input trigger occupancy (buffer unit); 0 = the buffer is full.",
                          UintegerValue(0),
                          MakeUintegerAccessor(&IbccSwitch::m_trigger),
                          MakeUintegerChecker<uint32_t>(0, 65535))
            .AddAttribute("OutCapacity",
                          "Output queue capacity the IBA/MVPM thresholds are fractions of "
                          "(buffer unit); 0 = one input buffer.",
                          UintegerValue(0),
                          MakeUintegerAccessor(&IbccSwitch::m_outCapacity),
                          MakeUintegerChecker<uint32_t>(0, 65535))
            .AddAttribute("IbaThreshold",
                          "IBA Threshold weight 0..15 of every port (0 never marks).",
                          UintegerValue(0),
                          MakeUintegerAccessor(&IbccSwitch::m_ibaThreshold),
                          MakeUintegerChecker<uint32_t>(0, 15))
            .AddAttribute("IbaPacketSize",
                          "IBA Packet_Size (64-byte units): smaller packets are not marked.",
                          UintegerValue(0),
                          MakeUintegerAccessor(&IbccSwitch::m_ibaPacketSize),
                          MakeUintegerChecker<uint32_t>(0, 255))
            .AddAttribute("IbaMarkingRate",
                          "IBA Marking_Rate: eligible packets skipped between two marks.",
                          UintegerValue(0),
                          MakeUintegerAccessor(&IbccSwitch::m_ibaMarkingRate),
                          MakeUintegerChecker<uint32_t>(0, 65535))
            .AddTraceSource("Mark",
                            "The marker set header bits on a packet.",
                            MakeTraceSourceAccessor(&IbccSwitch::m_markTrace),
                            "ns3::IbccSwitch::MarkTracedCallback");
    return tid;
}

IbccSwitch::IbccSwitch()
    : m_ready(false),
      m_kickPending(false),
      m_arbLane(0),
      m_policy(IBCC_ARB_OLDEST),
      m_bypass(4),
      m_fanout(false),
      m_defer(false),
      m_engine(IBCC_MARKER_NONE),
      m_classify(IBCC_CLASSIFY_ALL),
      m_tOut(8),
      m_trigger(0),
      m_outCapacity(0),
      m_ibaThreshold(0),
      m_ibaPacketSize(0),
      m_ibaMarkingRate(0)
{
}

IbccSwitch::~IbccSwitch()
{
}

uint32_t
IbccSwitch::AddPort(Ptr<IbccNetDevice> device)
{
    NS_ABORT_MSG_IF(m_ready, "IbccSwitch: add ports before the simulation starts");
    uint32_t port = GetNPorts();
    m_ports.push_back(device);
    m_victim.push_back(0);
    device->SetLinkCallbacks(MakeCallback(&IbccSwitch::HeaderArrived, this),
                             MakeCallback(&IbccSwitch::TxDone, this),
                             MakeCallback(&IbccSwitch::CreditsBack, this));
    return port;
}

void
IbccSwitch::AddRoute(uint16_t dlid, uint32_t port)
{
    if (m_route.size() <= dlid)
    {
        m_route.resize(dlid + 1u, UINT32_MAX);
    }
    m_route[dlid] = port;
}

void
IbccSwitch::SetIbaVictim(uint32_t port, bool on)
{
    NS_ABORT_MSG_IF(port >= m_victim.size(), "IbccSwitch: no port " << port);
    m_victim[port] = on ? 1 : 0;
    if (m_ready)
    {
        ibcc_result r = ibcc_marker_set_victim(&m_marker, port, on ? 1 : 0);
        NS_ABORT_MSG_IF(r != IBCC_OK, "IbccSwitch: victim mask: " << ibcc_result_str(r));
    }
}

uint32_t
IbccSwitch::PortOf(Ptr<IbccNetDevice> device) const
{
    for (uint32_t p = 0; p < m_ports.size(); p++)
    {
        if (m_ports[p] == device)
        {
            return p;
        }
    }
    NS_ABORT_MSG("IbccSwitch: event from a device that is not a port");
    return 0;
}

// Builds the engines once the ports are known: one arbiter per lane and
// the data lane's marker, all in one block of memory owned here.
void
IbccSwitch::Setup()
{
    if (m_ready)
    {
        return;
    }
    NS_LOG_FUNCTION(this << GetNPorts());
    NS_ABORT_MSG_IF(m_ports.empty(), "IbccSwitch: no ports");
    uint32_t ports = GetNPorts();
    Ptr<IbccNetDevice> p0 = m_ports[0];
    for (uint32_t p = 1; p < ports; p++)
    {
        NS_ABORT_MSG_IF(m_ports[p]->GetRxCapacityPackets(0) != p0->GetRxCapacityPackets(0) ||
                            m_ports[p]->GetRxCapacityPackets(1) != p0->GetRxCapacityPackets(1) ||
                            m_ports[p]->GetDataBufferCredits() != p0->GetDataBufferCredits(),
                        "IbccSwitch: all ports need the same buffer sizes");
    }
    ibcc_arbiter_desc ad[IbccNetDevice::kLanes];
    size_t sz[3];
    ibcc_result r;
    for (uint8_t l = 0; l < IbccNetDevice::kLanes; l++)
    {
        ad[l] = ibcc_arbiter_desc();
        ad[l].ports = ports;
        ad[l].capacity = p0->GetRxCapacityPackets(l);
        ad[l].policy = m_policy;
        ad[l].bypass_limit = m_bypass;
        ad[l].can_send = &IbccSwitch::CanSend;
        ad[l].user = this;
        r = ibcc_arbiter_defaults(&ad[l]);
        NS_ABORT_MSG_IF(r != IBCC_OK, "IbccSwitch: arbiter: " << ibcc_result_str(r));
        r = ibcc_arbiter_size(&ad[l], &sz[l]);
        NS_ABORT_MSG_IF(r != IBCC_OK, "IbccSwitch: arbiter: " << ibcc_result_str(r));
        sz[l] = (sz[l] + 7u) / 8u;
    }
    ibcc_marker_desc md = ibcc_marker_desc();
    md.engine = m_engine;
    md.ports = ports;
    md.unit = p0->GetDataBufferCredits() ? IBCC_UNIT_CREDITS : IBCC_UNIT_PACKETS;
    md.in_capacity =
        p0->GetDataBufferCredits() ? p0->GetDataBufferCredits() : p0->GetRxCapacityPackets(0);
    md.out_capacity = m_outCapacity;
    md.trigger = m_trigger;
    md.t_out = m_tOut;
    md.classify = m_classify;
    md.iba_threshold = m_ibaThreshold;
    md.iba_packet_size = m_ibaPacketSize;
    md.iba_marking_rate = m_ibaMarkingRate;
    // virtual cut-through: a departed packet keeps its room in the input
    // buffer until its tail has left (released in TxDone), so "the buffer
    // is full" means what the upstream credits say
    md.hold = 1;
    // DeferTrigger: a full buffer triggers once this instant's packets
    // have started (ibcc_marker_settle at the end of Arbitrate)
    md.defer = m_defer ? 1u : 0u;
    for (uint32_t p = 0; p < ports; p++)
    {
        if (m_victim[p] && m_engine == IBCC_MARKER_IBA)
        {
            md.victim_mask[p / 32u] |= 1u << (p % 32u);
        }
    }
    r = ibcc_marker_defaults(&md);
    NS_ABORT_MSG_IF(r != IBCC_OK, "IbccSwitch: marker: " << ibcc_result_str(r));
    r = ibcc_marker_size(&md, &sz[2]);
    NS_ABORT_MSG_IF(r != IBCC_OK, "IbccSwitch: marker: " << ibcc_result_str(r));
    sz[2] = (sz[2] + 7u) / 8u;
    m_mem.assign(sz[0] + sz[1] + sz[2], 0);
    uint64_t* mem = m_mem.data();
    for (uint8_t l = 0; l < IbccNetDevice::kLanes; l++)
    {
        r = ibcc_arbiter_init(&m_arb[l], &ad[l], mem, sz[l] * 8u);
        NS_ABORT_MSG_IF(r != IBCC_OK, "IbccSwitch: arbiter: " << ibcc_result_str(r));
        mem += sz[l];
    }
    r = ibcc_marker_init(&m_marker, &md, mem, sz[2] * 8u);
    NS_ABORT_MSG_IF(r != IBCC_OK, "IbccSwitch: marker: " << ibcc_result_str(r));
    m_crossing.assign(ports, Crossing{0, 0, 0});
    m_ready = true;
}

void
IbccSwitch::DoInitialize()
{
    Setup();
    Object::DoInitialize();
}

void
IbccSwitch::DoDispose()
{
    m_ports.clear();
    m_slots.clear();
    m_freeSlots.clear();
    m_visible.clear();
    Object::DoDispose();
}

// A packet's first bit is at input port `in`: it is visible to the switch
// (routed, marker, arbiter) ForwardingDelay later.
void
IbccSwitch::HeaderArrived(Ptr<IbccNetDevice> device, Ptr<Packet> packet, Time tail)
{
    Setup();
    uint32_t in = PortOf(device);
    if (m_fwdDelay.IsZero())
    {
        Visible(in, packet, tail);
    }
    else
    {
        Simulator::Schedule(m_fwdDelay, &IbccSwitch::Visible, this, in, packet, tail);
    }
}

// The packet is visible now; it enters the buffer, the marker and the
// arbiter when the switch next decides (Arbitrate, after every event of
// this instant), with the other packets visible at this instant in input
// port order: what the marker and the arbiter see then does not depend on
// the order in which the simulator ran the instant's events (which, in a
// distributed run, depends on the partition).
void
IbccSwitch::Visible(uint32_t in, Ptr<Packet> packet, Time tail)
{
    m_visible.push_back(Pending{in, packet, tail});
    Kick();
}

void
IbccSwitch::Enter(uint32_t in, Ptr<Packet> packet, Time tail)
{
    IbccHeader h;
    packet->PeekHeader(h);
    uint16_t dlid = h.GetDlid();
    NS_ABORT_MSG_IF(dlid >= m_route.size() || m_route[dlid] == UINT32_MAX,
                    "IbccSwitch: no route to LID " << dlid);
    uint32_t idx;
    if (m_freeSlots.empty())
    {
        idx = static_cast<uint32_t>(m_slots.size());
        m_slots.emplace_back();
    }
    else
    {
        idx = m_freeSlots.back();
        m_freeSlots.pop_back();
    }
    Slot& s = m_slots[idx];
    s.packet = packet;
    s.tail = tail;
    s.in = in;
    s.out = m_route[dlid];
    s.size = packet->GetSize();
    s.lane = h.GetLane() ? IbccNetDevice::kAckLane : IbccNetDevice::kDataLane;
    s.flags = s.flags0 = h.GetFlags();
    if (s.lane == IbccNetDevice::kDataLane)
    {
        unsigned bits = ibcc_marker_arrive(&m_marker, in, s.out, s.size);
        uint8_t added = static_cast<uint8_t>(bits & ~unsigned(s.flags));
        if (added)
        {
            s.flags |= added;
            NS_LOG_LOGIC("arrival marked in " << in << " out " << s.out << " bits "
                                              << unsigned(added));
            m_markTrace(packet, in, s.out, added);
        }
    }
    NS_LOG_LOGIC("visible at in " << in << " for out " << s.out << " lane " << unsigned(s.lane));
    ibcc_result r = ibcc_arbiter_push(&m_arb[s.lane], in, s.out, s.size, idx);
    NS_ABORT_MSG_IF(r != IBCC_OK, "IbccSwitch: input buffer overflow (credits violated)");
}

void
IbccSwitch::Kick()
{
    if (m_kickPending)
    {
        return;
    }
    m_kickPending = true;
    Simulator::ScheduleNow(&IbccSwitch::Arbitrate, this);
}

int
IbccSwitch::CanSend(void* user, unsigned out, unsigned in, uint32_t size)
{
    (void)in;
    const IbccSwitch* s = static_cast<const IbccSwitch*>(user);
    const Ptr<IbccNetDevice>& dev = s->m_ports[out];
    return !dev->IsTransmitting() && dev->HasRoom(s->m_arbLane, size);
}

// BUSY classification: an output is busy while it transmits or while its
// downstream data buffer has no room for a maximum-size (MTU) packet.
void
IbccSwitch::UpdateBusy(uint32_t port)
{
    const Ptr<IbccNetDevice>& dev = m_ports[port];
    int busy = dev->IsTransmitting() || !dev->HasRoom(IbccNetDevice::kDataLane, dev->GetMtu());
    ibcc_marker_set_busy(&m_marker, port, busy);
}

// ACK lane first (ACKs take free outputs before data), then the data lane,
// each until nothing more can start.
void
IbccSwitch::Arbitrate()
{
    m_kickPending = false;
    if (!m_visible.empty())
    {
        // one packet per input and instant (a link carries one at a time)
        std::sort(m_visible.begin(), m_visible.end(), [](const Pending& a, const Pending& b) {
            return a.in < b.in;
        });
        for (const Pending& v : m_visible)
        {
            Enter(v.in, v.packet, v.tail);
        }
        m_visible.clear();
    }
    ibcc_arb_grant g;
    for (int lane = IbccNetDevice::kLanes - 1; lane >= 0; lane--)
    {
        m_arbLane = static_cast<uint8_t>(lane);
        while (ibcc_arbiter_pick_any(&m_arb[lane], &g))
        {
            uint32_t idx = static_cast<uint32_t>(g.tag);
            Slot& s = m_slots[idx];
            const Ptr<IbccNetDevice>& dev = m_ports[g.out];
            if (lane == IbccNetDevice::kDataLane)
            {
                // IBA root test: downstream can take another packet like
                // this one after it
                uint32_t u = IbccNetDevice::Units(s.size);
                int credit = dev->GetFreePackets(0) >= 2u && dev->GetFreeUnits(0) >= 2u * u;
                unsigned bits =
                    ibcc_marker_depart(&m_marker, g.in, g.out, s.size, s.flags, credit);
                uint8_t added = static_cast<uint8_t>(bits & ~unsigned(s.flags));
                if (added)
                {
                    s.flags |= added;
                    NS_LOG_LOGIC("departure marked in " << g.in << " out " << g.out << " bits "
                                                        << unsigned(added));
                    m_markTrace(s.packet, g.in, g.out, added);
                }
            }
            if (s.flags != s.flags0)
            {
                IbccHeader h;
                s.packet->RemoveHeader(h);
                h.SetFlags(s.flags);
                s.packet->AddHeader(h);
            }
            NS_LOG_LOGIC("start in " << g.in << " -> out " << g.out << " lane " << lane
                                     << (g.bypassed ? " (bypass)" : ""));
            m_crossing[g.out] = Crossing{g.in, s.size, static_cast<uint8_t>(lane)};
            Ptr<Packet> p = s.packet;
            Time tail = s.tail;
            s.packet = nullptr;
            m_freeSlots.push_back(idx);
            dev->TransmitStart(p, static_cast<uint8_t>(lane), tail);
            UpdateBusy(g.out);
            if (m_fanout && lane == IbccNetDevice::kDataLane)
            {
                ibcc_arbiter_set_input_busy(&m_arb[lane], g.in, 0);
            }
        }
    }
    ibcc_marker_settle(&m_marker);
}

// Output `device` has sent the tail: the input's slot is free (marker
// release, input no longer busy) and its credits start back upstream.
void
IbccSwitch::TxDone(Ptr<IbccNetDevice> device)
{
    uint32_t out = PortOf(device);
    const Crossing& c = m_crossing[out];
    if (c.lane == IbccNetDevice::kDataLane)
    {
        ibcc_marker_release(&m_marker, c.in, c.size);
    }
    ibcc_arbiter_set_input_busy(&m_arb[c.lane], c.in, 0);
    m_ports[c.in]->ReturnCredits(c.lane, c.size);
    UpdateBusy(out);
    Kick();
}

void
IbccSwitch::CreditsBack(Ptr<IbccNetDevice> device, uint8_t lane)
{
    (void)lane;
    UpdateBusy(PortOf(device));
    Kick();
}

} // namespace ns3
