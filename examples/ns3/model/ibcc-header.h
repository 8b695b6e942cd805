/* ibcc ns-3 model: the packet header, the injection-time tag and the
   conversion between ns-3 Time and ibcc's picosecond ibcc_time.
   SPDX-License-Identifier: MIT (see ibcc.h) */
#ifndef IBCC_NS3_HEADER_H
#define IBCC_NS3_HEADER_H

#include "ibcc.h"

#include "ns3/header.h"
#include "ns3/nstime.h"
#include "ns3/tag.h"

#include <cstdint>

#if __has_include("ns3/version-defines.h")
#include "ns3/version-defines.h"
#endif

/* ns-3 3.41 made EnumValue a template: MakeEnumAccessor then needs the
   enum type. The model's enum attributes are members of that enum type,
   which both forms accept. (Built and tested with ns-3 3.37.) */
#if defined(NS3_VERSION_MAJOR) && defined(NS3_VERSION_MINOR) &&                                  \
    (NS3_VERSION_MAJOR > 3 || (NS3_VERSION_MAJOR == 3 && NS3_VERSION_MINOR >= 41))
#define IBCC_NS3_ENUM_ACCESSOR(T, member) MakeEnumAccessor<T>(member)
#else
#define IBCC_NS3_ENUM_ACCESSOR(T, member) MakeEnumAccessor(member)
#endif

namespace ns3
{

/* ibcc engines count time in picoseconds (ibcc_time). Every model of this
   module converts the simulator clock with these two functions; they are
   exact when the program has called Time::SetResolution(Time::PS) (the
   devices refuse to run at a coarser resolution). */
inline ibcc_time
ToIbccTime(const Time& t)
{
    int64_t ps = t.GetPicoSeconds();
    return ps > 0 ? static_cast<ibcc_time>(ps) : 0;
}

inline Time
FromIbccTime(ibcc_time t)
{
    return PicoSeconds(t);
}

/* The 20-byte header every packet of this model carries ([S02] Table I:
   20-byte header; a data packet is this header plus its payload, an ACK is
   the header alone). Fields:
     lane   virtual lane: 0 data, 1 ACK/CNP (each with its own credits)
     flags  ibcc header bits: IBCC_FECN, IBCC_BECN, IBCC_MB, IBCC_VB,
            IBCC_ACK, IBCC_CNP (switch markers OR bits in; the destination's
            echo rule reads them and sets the reply's)
     dlid   destination host (LID)
     slid   source host (LID)
     qp     flow number at the source host (an ACK carries the acknowledged
            data packet's)
     psn    packet sequence number within the flow
   Wire layout (network byte order): lane 1, flags 1, dlid 2, slid 2,
   qp 4, psn 4, reserved 6 (zero). */
class IbccHeader : public Header
{
  public:
    static const uint32_t kSize = 20;

    static TypeId GetTypeId();
    TypeId GetInstanceTypeId() const override;
    IbccHeader();

    uint32_t GetSerializedSize() const override;
    void Serialize(Buffer::Iterator start) const override;
    uint32_t Deserialize(Buffer::Iterator start) override;
    void Print(std::ostream& os) const override;

    uint8_t GetLane() const { return m_lane; }
    void SetLane(uint8_t lane) { m_lane = lane; }
    uint8_t GetFlags() const { return m_flags; }
    void SetFlags(uint8_t flags) { m_flags = flags; }
    uint16_t GetDlid() const { return m_dlid; }
    void SetDlid(uint16_t lid) { m_dlid = lid; }
    uint16_t GetSlid() const { return m_slid; }
    void SetSlid(uint16_t lid) { m_slid = lid; }
    uint32_t GetQp() const { return m_qp; }
    void SetQp(uint32_t qp) { m_qp = qp; }
    uint32_t GetPsn() const { return m_psn; }
    void SetPsn(uint32_t psn) { m_psn = psn; }

  private:
    uint8_t m_lane;
    uint8_t m_flags;
    uint16_t m_dlid;
    uint16_t m_slid;
    uint32_t m_qp;
    uint32_t m_psn;
};

/* Packet tag: when the source started sending the packet (ibcc_time, ps),
   for latency statistics. Not part of the wire format. */
class IbccInjectTag : public Tag
{
  public:
    static TypeId GetTypeId();
    TypeId GetInstanceTypeId() const override;
    IbccInjectTag();
    explicit IbccInjectTag(ibcc_time t);

    uint32_t GetSerializedSize() const override;
    void Serialize(TagBuffer i) const override;
    void Deserialize(TagBuffer i) override;
    void Print(std::ostream& os) const override;

    ibcc_time Get() const { return m_t; }

  private:
    ibcc_time m_t;
};

} // namespace ns3

#endif /* IBCC_NS3_HEADER_H */
