/* ibcc ns-3 model: IbccNetDevice. SPDX-License-Identifier: MIT (see ibcc.h) */
#include "ibcc-net-device.h"

#include "ibcc-channel.h"

#include "ns3/abort.h"
#include "ns3/log.h"
#include "ns3/simulator.h"
#include "ns3/uinteger.h"

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("IbccNetDevice");
NS_OBJECT_ENSURE_REGISTERED(IbccNetDevice);

TypeId
IbccNetDevice::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::IbccNetDevice")
            .SetParent<NetDevice>()
            .SetGroupName("Ibcc")
            .AddConstructor<IbccNetDevice>()
            .AddAttribute("DataRate",
                          "Link rate of this port's transmitter.",
                          DataRateValue(DataRate("8Gbps")),
                          MakeDataRateAccessor(&IbccNetDevice::m_rate),
                          MakeDataRateChecker())
            .AddAttribute("DataBufferPackets",
                          "Receive buffer of the data lane, in packets (the peer's credits).",
                          UintegerValue(4),
                          MakeUintegerAccessor(&IbccNetDevice::m_dataPackets),
                          MakeUintegerChecker<uint32_t>(1, 65535))
            .AddAttribute("DataBufferCredits",
                          "Receive buffer of the data lane in 64-byte credits; 0 = counted "
                          "in packets only.",
                          UintegerValue(0),
                          MakeUintegerAccessor(&IbccNetDevice::m_dataCredits),
                          MakeUintegerChecker<uint32_t>(0, 1u << 20))
            .AddAttribute("AckBufferPackets",
                          "Receive buffer of the ACK/CNP lane, in packets.",
                          UintegerValue(16),
                          MakeUintegerAccessor(&IbccNetDevice::m_ackPackets),
                          MakeUintegerChecker<uint32_t>(1, 65535))
            .AddTraceSource("PhyTxBegin",
                            "A packet's first bit leaves this port.",
                            MakeTraceSourceAccessor(&IbccNetDevice::m_phyTxBeginTrace),
                            "ns3::Packet::TracedCallback")
            .AddTraceSource("PhyRxBegin",
                            "A packet's first bit arrives at this port.",
                            MakeTraceSourceAccessor(&IbccNetDevice::m_phyRxBeginTrace),
                            "ns3::Packet::TracedCallback");
    return tid;
}

IbccNetDevice::IbccNetDevice()
    : m_ifIndex(0),
      m_mtu(2048 + IbccHeader::kSize),
      m_dataPackets(4),
      m_dataCredits(0),
      m_ackPackets(16),
      m_busy(false),
      m_creditsReady(false)
{
    for (uint8_t l = 0; l < kLanes; l++)
    {
        m_freeP[l] = m_freeU[l] = 0;
    }
    m_wireSize[0] = m_wireSize[1] = 0;
    m_wireTime[0] = m_wireTime[1] = 0;
}

IbccNetDevice::~IbccNetDevice()
{
}

bool
IbccNetDevice::Attach(Ptr<IbccChannel> channel)
{
    m_channel = channel;
    channel->Attach(this);
    return true;
}

void
IbccNetDevice::SetLinkCallbacks(RxStartCallback rx, TxDoneCallback txDone, CreditCallback credit)
{
    m_rxCb = rx;
    m_txDoneCb = txDone;
    m_creditCb = credit;
}

uint32_t
IbccNetDevice::GetRxCapacityPackets(uint8_t lane) const
{
    return lane == kDataLane ? m_dataPackets : m_ackPackets;
}

uint32_t
IbccNetDevice::GetRxCapacityUnits(uint8_t lane) const
{
    // "not limited in credits": as many as the packet slots could ever
    // need (1024 units = 64 KiB per packet)
    if (lane == kDataLane)
    {
        return m_dataCredits ? m_dataCredits : m_dataPackets * 1024u;
    }
    return m_ackPackets * 1024u;
}

// The credits start at the peer's receive capacity; read it on first use,
// when both ends exist and their attributes are final.
void
IbccNetDevice::EnsureCredits() const
{
    if (m_creditsReady)
    {
        return;
    }
    NS_ABORT_MSG_IF(!m_channel, "IbccNetDevice: not attached to a channel");
    Ptr<IbccNetDevice> peer = m_channel->GetPeer(this);
    NS_ABORT_MSG_IF(!peer, "IbccNetDevice: link has one end only");
    NS_ABORT_MSG_IF(Time::GetResolution() < Time::PS,
                    "ibcc model: call Time::SetResolution(Time::PS) first (ibcc counts "
                    "picoseconds)");
    for (uint8_t l = 0; l < kLanes; l++)
    {
        m_freeP[l] = peer->GetRxCapacityPackets(l);
        m_freeU[l] = peer->GetRxCapacityUnits(l);
    }
    m_creditsReady = true;
}

bool
IbccNetDevice::HasRoom(uint8_t lane, uint32_t bytes) const
{
    EnsureCredits();
    return m_freeP[lane] != 0 && m_freeU[lane] >= Units(bytes);
}

uint32_t
IbccNetDevice::GetFreePackets(uint8_t lane) const
{
    EnsureCredits();
    return m_freeP[lane];
}

uint32_t
IbccNetDevice::GetFreeUnits(uint8_t lane) const
{
    EnsureCredits();
    return m_freeU[lane];
}

ibcc_time
IbccNetDevice::WireTime(uint32_t bytes) const
{
    // exact ceil(8 * bytes * 10^12 / bit rate) ps; the two sizes last used
    // (data and ACK in practice) are cached
    for (int k = 0; k < 2; k++)
    {
        if (m_wireSize[k] == bytes && bytes != 0)
        {
            return m_wireTime[k];
        }
    }
    ibcc_time t = 0;
    ibcc_result r = ibcc_wire_time(8u * static_cast<uint64_t>(bytes), m_rate.GetBitRate(), &t);
    NS_ABORT_MSG_IF(r != IBCC_OK, "IbccNetDevice: wire time: " << ibcc_result_str(r));
    m_wireSize[1] = m_wireSize[0];
    m_wireTime[1] = m_wireTime[0];
    m_wireSize[0] = bytes;
    m_wireTime[0] = t;
    return t;
}

Time
IbccNetDevice::TransmitStart(Ptr<Packet> packet, uint8_t lane, Time tailIn)
{
    uint32_t bytes = packet->GetSize();
    NS_ABORT_MSG_IF(m_busy, "IbccNetDevice: transmitter busy");
    NS_ABORT_MSG_IF(!HasRoom(lane, bytes), "IbccNetDevice: no credits");
    NS_LOG_FUNCTION(this << packet << unsigned(lane) << tailIn);
    Time now = Simulator::Now();
    Time end = now + FromIbccTime(WireTime(bytes));
    if (end < tailIn)
    {
        end = tailIn;   // the tail cannot leave before it has arrived
    }
    m_busy = true;
    m_freeP[lane]--;
    m_freeU[lane] -= Units(bytes);
    m_phyTxBeginTrace(packet);
    Simulator::Schedule(end - now, &IbccNetDevice::TransmitComplete, this);
    m_channel->TransmitStart(packet, this, end);
    return end;
}

void
IbccNetDevice::TransmitComplete()
{
    m_busy = false;
    if (!m_txDoneCb.IsNull())
    {
        m_txDoneCb(this);
    }
}

void
IbccNetDevice::ReturnCredits(uint8_t lane, uint32_t bytes)
{
    m_channel->ReturnCredits(this, lane, Units(bytes));
}

void
IbccNetDevice::ReceiveStart(Ptr<Packet> packet, Time tailArrival)
{
    m_phyRxBeginTrace(packet);
    NS_ABORT_MSG_IF(m_rxCb.IsNull(), "IbccNetDevice: no IbccSwitch or IbccHost on the node");
    m_rxCb(this, packet, tailArrival);
}

void
IbccNetDevice::ReceiveCredits(uint8_t lane, uint32_t units)
{
    EnsureCredits();
    m_freeP[lane]++;
    m_freeU[lane] += units;
    if (!m_creditCb.IsNull())
    {
        m_creditCb(this, lane);
    }
}

void
IbccNetDevice::DoInitialize()
{
    NetDevice::DoInitialize();
}

void
IbccNetDevice::DoDispose()
{
    m_node = nullptr;
    m_channel = nullptr;
    m_rxCb = RxStartCallback();
    m_txDoneCb = TxDoneCallback();
    m_creditCb = CreditCallback();
    NetDevice::DoDispose();
}

// ---- NetDevice boilerplate -------------------------------------------------
void
IbccNetDevice::SetIfIndex(const uint32_t index)
{
    m_ifIndex = index;
}

uint32_t
IbccNetDevice::GetIfIndex() const
{
    return m_ifIndex;
}

Ptr<Channel>
IbccNetDevice::GetChannel() const
{
    return m_channel;
}

void
IbccNetDevice::SetAddress(Address address)
{
    m_address = Mac48Address::ConvertFrom(address);
}

Address
IbccNetDevice::GetAddress() const
{
    return m_address;
}

bool
IbccNetDevice::SetMtu(const uint16_t mtu)
{
    m_mtu = mtu;
    return true;
}

uint16_t
IbccNetDevice::GetMtu() const
{
    return m_mtu;
}

bool
IbccNetDevice::IsLinkUp() const
{
    return m_channel != nullptr;
}

void
IbccNetDevice::AddLinkChangeCallback(Callback<void> callback)
{
    (void)callback;   // links never change state in this model
}

bool
IbccNetDevice::IsBroadcast() const
{
    return false;
}

Address
IbccNetDevice::GetBroadcast() const
{
    return Mac48Address::GetBroadcast();
}

bool
IbccNetDevice::IsMulticast() const
{
    return false;
}

Address
IbccNetDevice::GetMulticast(Ipv4Address multicastGroup) const
{
    return Mac48Address::GetMulticast(multicastGroup);
}

Address
IbccNetDevice::GetMulticast(Ipv6Address addr) const
{
    return Mac48Address::GetMulticast(addr);
}

bool
IbccNetDevice::IsBridge() const
{
    return false;
}

bool
IbccNetDevice::IsPointToPoint() const
{
    return true;
}

bool
IbccNetDevice::Send(Ptr<Packet> packet, const Address& dest, uint16_t protocolNumber)
{
    (void)packet;
    (void)dest;
    (void)protocolNumber;
    NS_LOG_WARN("IbccNetDevice::Send: traffic comes from IbccHost flows; packet ignored");
    return false;
}

bool
IbccNetDevice::SendFrom(Ptr<Packet> packet,
                        const Address& source,
                        const Address& dest,
                        uint16_t protocolNumber)
{
    (void)source;
    return Send(packet, dest, protocolNumber);
}

Ptr<Node>
IbccNetDevice::GetNode() const
{
    return m_node;
}

void
IbccNetDevice::SetNode(Ptr<Node> node)
{
    m_node = node;
}

bool
IbccNetDevice::NeedsArp() const
{
    return false;
}

void
IbccNetDevice::SetReceiveCallback(NetDevice::ReceiveCallback cb)
{
    (void)cb;   // packets go to the node's IbccSwitch / IbccHost
}

void
IbccNetDevice::SetPromiscReceiveCallback(PromiscReceiveCallback cb)
{
    (void)cb;
}

bool
IbccNetDevice::SupportsSendFrom() const
{
    return false;
}

} // namespace ns3
