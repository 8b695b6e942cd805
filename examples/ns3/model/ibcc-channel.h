/* ibcc ns-3 model: a full-duplex point-to-point link between two
   IbccNetDevices. SPDX-License-Identifier: MIT (see ibcc.h) */
#ifndef IBCC_NS3_CHANNEL_H
#define IBCC_NS3_CHANNEL_H

#include "ns3/channel.h"
#include "ns3/nstime.h"
#include "ns3/packet.h"
#include "ns3/ptr.h"

namespace ns3
{

class IbccNetDevice;

/* Two IbccNetDevices joined by a cable of propagation delay "Delay". The
   channel carries two things, each one Delay after it was sent:
     - packets (TransmitStart): the peer sees the packet's first bit after
       Delay and is told when its tail will have arrived;
     - credits (ReturnCredits): the receiver of a packet gives its buffer
       room back to the sender (IB link-level flow control; the model sends
       no credit packets, the return takes one Delay, as [S02]'s model).
   Every event it schedules is on the other end's node (ScheduleWithContext)
   and at least Delay ahead, so Delay is the lookahead a parallel
   (distributed) ns-3 run can use across this link. A link whose ends are
   on two ranks of such a run is an IbccRemoteChannel (examples/ns3/mpi),
   which overrides the virtual functions below. */
class IbccChannel : public Channel
{
  public:
    static TypeId GetTypeId();
    IbccChannel();

    /* Connects a device to one end (at most two). */
    virtual void Attach(Ptr<IbccNetDevice> device);
    /* The first bit of `packet` leaves `src` now; its tail leaves at
       `tailEnd` (absolute time). The other end's ReceiveStart runs after
       Delay with the tail's arrival time tailEnd + Delay. */
    virtual void TransmitStart(Ptr<Packet> packet, Ptr<IbccNetDevice> src, Time tailEnd);
    /* The receiving side `from` frees the room of one packet of `units`
       64-byte credits on `lane`: the sender at the other end gets it back
       after Delay. */
    virtual void ReturnCredits(Ptr<IbccNetDevice> from, uint8_t lane, uint32_t units);

    /* The cable delay. */
    Time GetDelay() const { return m_delay; }
    void SetDelay(Time delay) { m_delay = delay; }
    /* What reading the "Delay" attribute gives: the cable delay here; on a
       link between ranks, the lookahead ns-3's distributed simulator takes
       from it (IbccRemoteChannel). */
    virtual Time GetDelayAttribute() const { return m_delay; }
    /* The device at the other end of `dev` (null if none). */
    Ptr<IbccNetDevice> GetPeer(Ptr<const IbccNetDevice> dev) const;

    std::size_t GetNDevices() const override;
    Ptr<NetDevice> GetDevice(std::size_t i) const override;

  protected:
    void DoDispose() override;

  private:
    Time m_delay;
    Ptr<IbccNetDevice> m_dev[2];
    std::size_t m_n;
};

} // namespace ns3

#endif /* IBCC_NS3_CHANNEL_H */
