/* ibcc ns-3 model: IbccHeader and IbccInjectTag.
   SPDX-License-Identifier: MIT (see ibcc.h) */
#include "ibcc-header.h"

namespace ns3
{

NS_OBJECT_ENSURE_REGISTERED(IbccHeader);
NS_OBJECT_ENSURE_REGISTERED(IbccInjectTag);

TypeId
IbccHeader::GetTypeId()
{
    static TypeId tid = TypeId("ns3::IbccHeader")
                            .SetParent<Header>()
                            .SetGroupName("Ibcc")
                            .AddConstructor<IbccHeader>();
    return tid;
}

TypeId
IbccHeader::GetInstanceTypeId() const
{
    return GetTypeId();
}

IbccHeader::IbccHeader()
    : m_lane(0),
      m_flags(0),
      m_dlid(0),
      m_slid(0),
      m_qp(0),
      m_psn(0)
{
}

uint32_t
IbccHeader::GetSerializedSize() const
{
    return kSize;
}

void
IbccHeader::Serialize(Buffer::Iterator start) const
{
    Buffer::Iterator i = start;
    i.WriteU8(m_lane);
    i.WriteU8(m_flags);
    i.WriteHtonU16(m_dlid);
    i.WriteHtonU16(m_slid);
    i.WriteHtonU32(m_qp);
    i.WriteHtonU32(m_psn);
    i.WriteU8(0, 6);
}

uint32_t
IbccHeader::Deserialize(Buffer::Iterator start)
{
    Buffer::Iterator i = start;
    m_lane = i.ReadU8();
    m_flags = i.ReadU8();
    m_dlid = i.ReadNtohU16();
    m_slid = i.ReadNtohU16();
    m_qp = i.ReadNtohU32();
    m_psn = i.ReadNtohU32();
    i.Next(6);
    return kSize;
}

void
IbccHeader::Print(std::ostream& os) const
{
    os << "lane=" << unsigned(m_lane) << " flags=0x" << std::hex << unsigned(m_flags)
       << std::dec << " dlid=" << m_dlid << " slid=" << m_slid << " qp=" << m_qp
       << " psn=" << m_psn;
}

TypeId
IbccInjectTag::GetTypeId()
{
    static TypeId tid = TypeId("ns3::IbccInjectTag")
                            .SetParent<Tag>()
                            .SetGroupName("Ibcc")
                            .AddConstructor<IbccInjectTag>();
    return tid;
}

TypeId
IbccInjectTag::GetInstanceTypeId() const
{
    return GetTypeId();
}

IbccInjectTag::IbccInjectTag()
    : m_t(0)
{
}

IbccInjectTag::IbccInjectTag(ibcc_time t)
    : m_t(t)
{
}

uint32_t
IbccInjectTag::GetSerializedSize() const
{
    return 8;
}

void
IbccInjectTag::Serialize(TagBuffer i) const
{
    i.WriteU64(m_t);
}

void
IbccInjectTag::Deserialize(TagBuffer i)
{
    m_t = i.ReadU64();
}

void
IbccInjectTag::Print(std::ostream& os) const
{
    os << "inject=" << m_t << "ps";
}

} // namespace ns3
