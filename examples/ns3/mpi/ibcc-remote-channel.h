/* ibcc ns-3 model: a link whose two ends are on two ranks of a distributed
   (MPI) ns-3 run. Needs ns-3's MPI module (`make ns3-mpi` builds it).
   SPDX-License-Identifier: MIT (see ibcc.h) */
#ifndef IBCC_NS3_REMOTE_CHANNEL_H
#define IBCC_NS3_REMOTE_CHANNEL_H

#include "ibcc-channel.h"

#include "ns3/header.h"

namespace ns3
{

/* What crosses a rank boundary in front of a packet: a packet's first bit
   (kind 0, with the time its tail arrives) or returning credits (kind 1,
   lane and 64-byte units; the packet is empty). 14 bytes. */
class IbccLinkHeader : public Header
{
  public:
    static TypeId GetTypeId();
    TypeId GetInstanceTypeId() const override;
    uint32_t GetSerializedSize() const override;
    void Serialize(Buffer::Iterator start) const override;
    uint32_t Deserialize(Buffer::Iterator start) override;
    void Print(std::ostream& os) const override;

    uint8_t kind = 0;    // 0 packet, 1 credits
    uint8_t lane = 0;
    uint32_t units = 0;
    uint64_t tailPs = 0; // tail arrival at the receiver, ps
};

/* An IbccChannel for a link between nodes of two system ids (MPI ranks;
   IbccHelper makes one after SetRemoteChannelType("ns3::IbccRemoteChannel")).
   The ends behave as on an IbccChannel: what one end sends reaches the
   other one cable delay later. When the other end's node is on another
   rank, the packet (or the credits) goes there through ns-3's MPI
   interface (MpiInterface::SendPacket, received by an MpiReceiver
   aggregated to the device), as ns-3's PointToPointRemoteChannel does.

   The lookahead. ns-3's distributed simulator (granted time window) takes
   the smallest "Delay" attribute over the links that cross ranks as its
   lookahead L and lets each rank run every event up to and including
   (smallest next event time over all ranks) + L. With L equal to the
   cable delay, a packet sent at exactly that smallest time reaches its
   neighbour rank at the window's last instant, possibly after the
   neighbour has already decided that instant; the model decides each
   instant from all of the instant's arrivals (IbccSwitch, IbccHost), so
   the result would depend on the partition. Reading "Delay" on this
   channel therefore gives the cable delay less one time step (1 ps): then
   everything due at an instant from another rank is in the receiver's
   event queue before the instant's first event runs, and a distributed
   run decides exactly as a sequential one. Setting "Delay" sets the cable
   delay, as on any IbccChannel (GetDelay() returns it). */
class IbccRemoteChannel : public IbccChannel
{
  public:
    static TypeId GetTypeId();
    IbccRemoteChannel();

    void Attach(Ptr<IbccNetDevice> device) override;
    void TransmitStart(Ptr<Packet> packet, Ptr<IbccNetDevice> src, Time tailEnd) override;
    void ReturnCredits(Ptr<IbccNetDevice> from, uint8_t lane, uint32_t units) override;
    Time GetDelayAttribute() const override;

    /* Messages this rank sent and received through remote channels. */
    static uint64_t GetSent();
    static uint64_t GetReceived();

  private:
    bool Remote(Ptr<IbccNetDevice> peer) const;
    static void Receive(Ptr<IbccNetDevice> device, Ptr<Packet> packet);
};

} // namespace ns3

#endif /* IBCC_NS3_REMOTE_CHANNEL_H */
