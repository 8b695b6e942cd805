/* ibcc ns-3 model: IbccChannel. SPDX-License-Identifier: MIT (see ibcc.h) */
#include "ibcc-channel.h"

#include "ibcc-net-device.h"

#include "ns3/abort.h"
#include "ns3/node.h"
#include "ns3/simulator.h"

namespace ns3
{

NS_OBJECT_ENSURE_REGISTERED(IbccChannel);

TypeId
IbccChannel::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::IbccChannel")
            .SetParent<Channel>()
            .SetGroupName("Ibcc")
            .AddConstructor<IbccChannel>()
            .AddAttribute("Delay",
                          "Propagation delay of the cable, each direction (also the time "
                          "credits take back to the sender).",
                          TimeValue(NanoSeconds(5)),
                          MakeTimeAccessor(&IbccChannel::SetDelay,
                                           &IbccChannel::GetDelayAttribute),
                          MakeTimeChecker(PicoSeconds(1)));
    return tid;
}

IbccChannel::IbccChannel()
    : m_n(0)
{
}

void
IbccChannel::Attach(Ptr<IbccNetDevice> device)
{
    NS_ABORT_MSG_IF(m_n >= 2, "IbccChannel: a link has two ends");
    m_dev[m_n++] = device;
}

Ptr<IbccNetDevice>
IbccChannel::GetPeer(Ptr<const IbccNetDevice> dev) const
{
    if (m_n < 2)
    {
        return nullptr;
    }
    return m_dev[0] == dev ? m_dev[1] : m_dev[0];
}

void
IbccChannel::TransmitStart(Ptr<Packet> packet, Ptr<IbccNetDevice> src, Time tailEnd)
{
    Ptr<IbccNetDevice> peer = GetPeer(src);
    NS_ABORT_MSG_IF(!peer, "IbccChannel: transmit on a link with one end");
    Simulator::ScheduleWithContext(peer->GetNode()->GetId(),
                                   m_delay,
                                   &IbccNetDevice::ReceiveStart,
                                   peer,
                                   packet,
                                   tailEnd + m_delay);
}

void
IbccChannel::ReturnCredits(Ptr<IbccNetDevice> from, uint8_t lane, uint32_t units)
{
    Ptr<IbccNetDevice> peer = GetPeer(from);
    NS_ABORT_MSG_IF(!peer, "IbccChannel: credits on a link with one end");
    Simulator::ScheduleWithContext(peer->GetNode()->GetId(),
                                   m_delay,
                                   &IbccNetDevice::ReceiveCredits,
                                   peer,
                                   lane,
                                   units);
}

std::size_t
IbccChannel::GetNDevices() const
{
    return m_n;
}

Ptr<NetDevice>
IbccChannel::GetDevice(std::size_t i) const
{
    return i < m_n ? Ptr<NetDevice>(m_dev[i]) : Ptr<NetDevice>();
}

void
IbccChannel::DoDispose()
{
    m_dev[0] = nullptr;
    m_dev[1] = nullptr;
    m_n = 0;
    Channel::DoDispose();
}

} // namespace ns3
