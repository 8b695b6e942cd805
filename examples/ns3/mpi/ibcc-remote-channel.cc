/* ibcc ns-3 model: IbccRemoteChannel. SPDX-License-Identifier: MIT (see ibcc.h) */
#include "ibcc-remote-channel.h"

#include "ibcc-net-device.h"

#include "ns3/abort.h"
#include "ns3/mpi-interface.h"
#include "ns3/mpi-receiver.h"
#include "ns3/node.h"
#include "ns3/simulator.h"

namespace ns3
{

NS_OBJECT_ENSURE_REGISTERED(IbccLinkHeader);
NS_OBJECT_ENSURE_REGISTERED(IbccRemoteChannel);

static uint64_t g_sent = 0;
static uint64_t g_received = 0;

TypeId
IbccLinkHeader::GetTypeId()
{
    static TypeId tid = TypeId("ns3::IbccLinkHeader")
                            .SetParent<Header>()
                            .SetGroupName("Ibcc")
                            .AddConstructor<IbccLinkHeader>();
    return tid;
}

TypeId
IbccLinkHeader::GetInstanceTypeId() const
{
    return GetTypeId();
}

uint32_t
IbccLinkHeader::GetSerializedSize() const
{
    return 14;
}

void
IbccLinkHeader::Serialize(Buffer::Iterator start) const
{
    start.WriteU8(kind);
    start.WriteU8(lane);
    start.WriteHtonU32(units);
    start.WriteHtonU64(tailPs);
}

uint32_t
IbccLinkHeader::Deserialize(Buffer::Iterator start)
{
    kind = start.ReadU8();
    lane = start.ReadU8();
    units = start.ReadNtohU32();
    tailPs = start.ReadNtohU64();
    return 14;
}

void
IbccLinkHeader::Print(std::ostream& os) const
{
    os << (kind ? "credits lane " : "packet lane ") << unsigned(lane) << " units " << units
       << " tail " << tailPs << " ps";
}

TypeId
IbccRemoteChannel::GetTypeId()
{
    static TypeId tid = TypeId("ns3::IbccRemoteChannel")
                            .SetParent<IbccChannel>()
                            .SetGroupName("Ibcc")
                            .AddConstructor<IbccRemoteChannel>();
    return tid;
}

IbccRemoteChannel::IbccRemoteChannel()
{
}

Time
IbccRemoteChannel::GetDelayAttribute() const
{
    // the lookahead: one time step less than the cable (see the header)
    return GetDelay() - TimeStep(1);
}

void
IbccRemoteChannel::Attach(Ptr<IbccNetDevice> device)
{
    IbccChannel::Attach(device);
    NS_ABORT_MSG_IF(GetDelay() <= TimeStep(1),
                    "IbccRemoteChannel: a link between ranks needs a cable delay above one "
                    "time step (its lookahead is one step less)");
    // what the other rank sends to this device arrives through ns-3's MPI
    // interface, which looks for an MpiReceiver on the device
    if (!device->GetObject<MpiReceiver>())
    {
        Ptr<MpiReceiver> rx = CreateObject<MpiReceiver>();
        rx->SetReceiveCallback(MakeBoundCallback(&IbccRemoteChannel::Receive, device));
        device->AggregateObject(rx);
    }
}

bool
IbccRemoteChannel::Remote(Ptr<IbccNetDevice> peer) const
{
    return peer->GetNode()->GetSystemId() != MpiInterface::GetSystemId();
}

void
IbccRemoteChannel::TransmitStart(Ptr<Packet> packet, Ptr<IbccNetDevice> src, Time tailEnd)
{
    Ptr<IbccNetDevice> peer = GetPeer(src);
    NS_ABORT_MSG_IF(!peer, "IbccRemoteChannel: transmit on a link with one end");
    if (!Remote(peer))
    {
        IbccChannel::TransmitStart(packet, src, tailEnd);
        return;
    }
    Ptr<Packet> p = packet->Copy();
    IbccLinkHeader h;
    h.kind = 0;
    h.tailPs = static_cast<uint64_t>((tailEnd + GetDelay()).GetPicoSeconds());
    p->AddHeader(h);
    g_sent++;
    MpiInterface::SendPacket(p,
                             Simulator::Now() + GetDelay(),
                             peer->GetNode()->GetId(),
                             peer->GetIfIndex());
}

void
IbccRemoteChannel::ReturnCredits(Ptr<IbccNetDevice> from, uint8_t lane, uint32_t units)
{
    Ptr<IbccNetDevice> peer = GetPeer(from);
    NS_ABORT_MSG_IF(!peer, "IbccRemoteChannel: credits on a link with one end");
    if (!Remote(peer))
    {
        IbccChannel::ReturnCredits(from, lane, units);
        return;
    }
    Ptr<Packet> p = Create<Packet>();
    IbccLinkHeader h;
    h.kind = 1;
    h.lane = lane;
    h.units = units;
    p->AddHeader(h);
    g_sent++;
    MpiInterface::SendPacket(p,
                             Simulator::Now() + GetDelay(),
                             peer->GetNode()->GetId(),
                             peer->GetIfIndex());
}

// At the receiving rank, at the arrival time (ns-3 scheduled it there on
// the device's node): the same calls an IbccChannel makes.
void
IbccRemoteChannel::Receive(Ptr<IbccNetDevice> device, Ptr<Packet> packet)
{
    IbccLinkHeader h;
    packet->RemoveHeader(h);
    g_received++;
    if (h.kind == 0)
    {
        device->ReceiveStart(packet, PicoSeconds(h.tailPs));
    }
    else
    {
        device->ReceiveCredits(h.lane, h.units);
    }
}

uint64_t
IbccRemoteChannel::GetSent()
{
    return g_sent;
}

uint64_t
IbccRemoteChannel::GetReceived()
{
    return g_received;
}

} // namespace ns3
