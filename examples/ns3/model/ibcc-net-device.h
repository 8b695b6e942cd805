/* ibcc ns-3 model: one port of a lossless, credit-flow-controlled link.
   SPDX-License-Identifier: MIT (see ibcc.h) */
#ifndef IBCC_NS3_NET_DEVICE_H
#define IBCC_NS3_NET_DEVICE_H

#include "ibcc-header.h"

#include "ns3/callback.h"
#include "ns3/data-rate.h"
#include "ns3/mac48-address.h"
#include "ns3/net-device.h"
#include "ns3/node.h"
#include "ns3/nstime.h"
#include "ns3/packet.h"
#include "ns3/traced-callback.h"

namespace ns3
{

class IbccChannel;

/* A port of an InfiniBand-style lossless link: one transmitter shared by
   two virtual lanes (lane 0 data, lane 1 ACK/CNP), each lane with its own
   receive buffer at the other end and its own credits.

   Credit flow control: the device keeps, per lane, the room left in the
   peer's receive buffer in packets and in 64-byte credits (its
   DataBufferPackets/DataBufferCredits and AckBufferPackets attributes). A
   packet may start only if one packet slot and ceil(size/64) credits are
   free (HasRoom); both are taken when its first bit leaves and come back
   when the receiver frees them (ReturnCredits at the receiver, one channel
   Delay later here). Nothing is ever dropped.

   The device does not decide what to send: the node's IbccSwitch or
   IbccHost does, and is told through three callbacks (SetLinkCallbacks):
   a packet's first bit arrived (with its tail arrival time), the
   transmitter finished, credits came back. Transmission is virtual cut-
   through friendly: TransmitStart takes the time the packet's tail is
   fully at this node, and the transmitter stays busy until
   max(now + wire time, that time).

   NetDevice::Send is not the entry point of this model (an IbccHost's
   flows generate the traffic); it returns false. */
class IbccNetDevice : public NetDevice
{
  public:
    static const uint8_t kDataLane = 0;
    static const uint8_t kAckLane = 1;
    static const uint8_t kLanes = 2;

    /* First bit of `packet` arrived on `device`; its tail arrives at the
       absolute time given. */
    typedef Callback<void, Ptr<IbccNetDevice>, Ptr<Packet>, Time> RxStartCallback;
    /* The transmitter of `device` is free again. */
    typedef Callback<void, Ptr<IbccNetDevice>> TxDoneCallback;
    /* Credits of `lane` came back to `device`. */
    typedef Callback<void, Ptr<IbccNetDevice>, uint8_t> CreditCallback;

    static TypeId GetTypeId();
    IbccNetDevice();
    ~IbccNetDevice() override;

    bool Attach(Ptr<IbccChannel> channel);
    void SetLinkCallbacks(RxStartCallback rx, TxDoneCallback txDone, CreditCallback credit);

    /* Link-layer interface for the node's switch or host model. */
    bool IsTransmitting() const { return m_busy; }
    /* Room in the peer's buffer of `lane` for one packet of `bytes`. */
    bool HasRoom(uint8_t lane, uint32_t bytes) const;
    /* Free credits seen by this sender: packets and 64-byte units. */
    uint32_t GetFreePackets(uint8_t lane) const;
    uint32_t GetFreeUnits(uint8_t lane) const;
    /* Starts `packet` on `lane` now (transmitter idle and HasRoom
       required); tailIn = when its tail is fully at this node (now for a
       host). Returns the time the transmitter frees. */
    Time TransmitStart(Ptr<Packet> packet, uint8_t lane, Time tailIn);
    /* This (receiving) side freed the room of one packet of `bytes` on
       `lane`: the credits travel back to the sender. */
    void ReturnCredits(uint8_t lane, uint32_t bytes);

    /* Capacity of this device's receive buffers (what the peer's credits
       start from): packets and 64-byte units. */
    uint32_t GetRxCapacityPackets(uint8_t lane) const;
    uint32_t GetRxCapacityUnits(uint8_t lane) const;
    /* DataBufferCredits (0: the data lane is counted in packets only). */
    uint32_t GetDataBufferCredits() const { return m_dataCredits; }
    /* Wire time of `bytes` at this port's rate, exact (ibcc_wire_time). */
    ibcc_time WireTime(uint32_t bytes) const;
    DataRate GetDataRate() const { return m_rate; }
    /* 64-byte credits a packet of `bytes` occupies. */
    static uint32_t Units(uint32_t bytes) { return (bytes + 63u) / 64u; }

    /* Called by IbccChannel. */
    void ReceiveStart(Ptr<Packet> packet, Time tailArrival);
    void ReceiveCredits(uint8_t lane, uint32_t units);

    /* NetDevice */
    void SetIfIndex(const uint32_t index) override;
    uint32_t GetIfIndex() const override;
    Ptr<Channel> GetChannel() const override;
    void SetAddress(Address address) override;
    Address GetAddress() const override;
    bool SetMtu(const uint16_t mtu) override;
    uint16_t GetMtu() const override;
    bool IsLinkUp() const override;
    void AddLinkChangeCallback(Callback<void> callback) override;
    bool IsBroadcast() const override;
    Address GetBroadcast() const override;
    bool IsMulticast() const override;
    Address GetMulticast(Ipv4Address multicastGroup) const override;
    Address GetMulticast(Ipv6Address addr) const override;
    bool IsBridge() const override;
    bool IsPointToPoint() const override;
    bool Send(Ptr<Packet> packet, const Address& dest, uint16_t protocolNumber) override;
    bool SendFrom(Ptr<Packet> packet,
                  const Address& source,
                  const Address& dest,
                  uint16_t protocolNumber) override;
    Ptr<Node> GetNode() const override;
    void SetNode(Ptr<Node> node) override;
    bool NeedsArp() const override;
    void SetReceiveCallback(NetDevice::ReceiveCallback cb) override;
    void SetPromiscReceiveCallback(PromiscReceiveCallback cb) override;
    bool SupportsSendFrom() const override;

  protected:
    void DoInitialize() override;
    void DoDispose() override;

  private:
    void EnsureCredits() const;
    void TransmitComplete();

    Ptr<Node> m_node;
    Ptr<IbccChannel> m_channel;
    Mac48Address m_address;
    uint32_t m_ifIndex;
    uint16_t m_mtu;
    DataRate m_rate;
    uint32_t m_dataPackets;   // receive buffer of the data lane, packets
    uint32_t m_dataCredits;   // and 64-byte credits (0 = not limited)
    uint32_t m_ackPackets;    // receive buffer of the ACK lane, packets
    bool m_busy;
    mutable bool m_creditsReady;
    mutable uint32_t m_freeP[kLanes];
    mutable uint32_t m_freeU[kLanes];
    mutable uint32_t m_wireSize[2];
    mutable ibcc_time m_wireTime[2];
    RxStartCallback m_rxCb;
    TxDoneCallback m_txDoneCb;
    CreditCallback m_creditCb;
    TracedCallback<Ptr<const Packet>> m_phyTxBeginTrace;
    TracedCallback<Ptr<const Packet>> m_phyRxBeginTrace;
};

} // namespace ns3

#endif /* IBCC_NS3_NET_DEVICE_H */
