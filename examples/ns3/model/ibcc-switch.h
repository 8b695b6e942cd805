/* ibcc ns-3 model: an input-buffered, virtual cut-through switch whose
   output arbitration is ibcc's arbiter and whose congestion marking is
   ibcc's marker. SPDX-License-Identifier: MIT (see ibcc.h) */
#ifndef IBCC_NS3_SWITCH_H
#define IBCC_NS3_SWITCH_H

#include "ibcc-net-device.h"

#include "ns3/object.h"
#include "ns3/traced-callback.h"

#include <vector>

namespace ns3
{

/* Aggregated to a Node whose ports are IbccNetDevices (AddPort, in port
   order). Model (the same as ibcc's own fabric, docs/fabric.md):
   - one FIFO per input port and lane (data, ACK); a packet becomes
     visible to the switch ForwardingDelay after its first bit arrived:
     it then enters the marker (data lane) and the lane's arbiter, when
     the switch next decides, with the packets visible at that instant in
     input port order (not in the order the simulator ran their events);
   - an output starts the packet the arbiter picks (ibcc_arbiter_pick_any,
     ACK lane first) when its transmitter is idle and the downstream buffer
     has room, possibly while the packet's tail is still arriving (virtual
     cut-through);
   - when the output has sent the tail, the input buffer slot is free:
     the marker is told (ibcc_marker_release), the input may send again
     and the credits go back upstream;
   - every event that can change what may start (a packet becoming
     visible, an output freeing, credits returning) asks for one
     arbitration, run with Simulator::ScheduleNow: after every event
     already due at this instant, so that all of an instant's arrivals,
     credit returns and freed outputs are applied before the switch
     arbitrates; it then starts packets until nothing more can start.
   The marker's root test (IBA) is "the downstream buffer can take another
   packet like this one after it"; the BUSY classification sees an output
   as busy while it transmits or while its downstream data buffer has no
   room for a data packet. Static routes: destination LID -> output port. */
class IbccSwitch : public Object
{
  public:
    static TypeId GetTypeId();
    IbccSwitch();
    ~IbccSwitch() override;

    /* Adds the next port (port numbers follow the calls: 0, 1, ...). All
       ports of a switch must have the same receive buffer sizes. */
    uint32_t AddPort(Ptr<IbccNetDevice> device);
    uint32_t GetNPorts() const { return static_cast<uint32_t>(m_ports.size()); }
    Ptr<IbccNetDevice> GetPort(uint32_t port) const { return m_ports.at(port); }
    /* Packets for host `dlid` leave on `port`. */
    void AddRoute(uint16_t dlid, uint32_t port);
    /* IBA Victim_Mask bit of a port (IBA marker only). */
    void SetIbaVictim(uint32_t port, bool on);

    /* The engines, for inspection with ibcc's query functions (valid once
       the simulation has started). */
    const ibcc_marker* GetMarker() const { return &m_marker; }
    const ibcc_arbiter* GetArbiter(uint8_t lane) const { return &m_arb[lane]; }

    /* Mark trace: the marker set header bits on a packet (at its arrival:
       MB; at its departure: FECN or VB). */
    typedef void (*MarkTracedCallback)(Ptr<const Packet> packet,
                                       uint32_t inPort,
                                       uint32_t outPort,
                                       uint8_t bits);

  protected:
    void DoInitialize() override;
    void DoDispose() override;

  private:
    struct Slot
    {
        Ptr<Packet> packet;
        Time tail;       // tail fully arrived at this switch
        uint32_t in;
        uint32_t out;
        uint32_t size;
        uint8_t lane;
        uint8_t flags;   // header bits, with the marks of this switch
        uint8_t flags0;  // header bits as received
    };

    struct Pending
    {
        uint32_t in;
        Ptr<Packet> packet;
        Time tail;
    };

    struct Crossing
    {
        uint32_t in;     // input port whose packet the output is sending
        uint32_t size;
        uint8_t lane;
    };

    void Setup();
    uint32_t PortOf(Ptr<IbccNetDevice> device) const;
    void HeaderArrived(Ptr<IbccNetDevice> device, Ptr<Packet> packet, Time tail);
    void Visible(uint32_t in, Ptr<Packet> packet, Time tail);
    void Enter(uint32_t in, Ptr<Packet> packet, Time tail);
    void TxDone(Ptr<IbccNetDevice> device);
    void CreditsBack(Ptr<IbccNetDevice> device, uint8_t lane);
    void Kick();
    void Arbitrate();
    void UpdateBusy(uint32_t port);
    static int CanSend(void* user, unsigned out, unsigned in, uint32_t size);

    std::vector<Ptr<IbccNetDevice>> m_ports;
    std::vector<uint32_t> m_route;       // by LID, UINT32_MAX = none
    std::vector<uint8_t> m_victim;       // IBA Victim_Mask, by port
    std::vector<Slot> m_slots;           // packets in the input buffers
    std::vector<uint32_t> m_freeSlots;
    std::vector<Crossing> m_crossing;    // by output port
    std::vector<Pending> m_visible;      // visible this instant, not entered yet
    ibcc_marker m_marker;
    ibcc_arbiter m_arb[IbccNetDevice::kLanes];
    std::vector<uint64_t> m_mem;         // the engines' memory
    bool m_ready;
    bool m_kickPending;
    uint8_t m_arbLane;                   // lane CanSend is asked about

    // attributes
    Time m_fwdDelay;
    ibcc_arb_policy m_policy;
    uint32_t m_bypass;
    bool m_fanout;
    bool m_defer;
    ibcc_marker_engine m_engine;
    ibcc_classify m_classify;
    uint32_t m_tOut;
    uint32_t m_trigger;
    uint32_t m_outCapacity;
    uint32_t m_ibaThreshold;
    uint32_t m_ibaPacketSize;
    uint32_t m_ibaMarkingRate;

    TracedCallback<Ptr<const Packet>, uint32_t, uint32_t, uint8_t> m_markTrace;
};

} // namespace ns3

#endif /* IBCC_NS3_SWITCH_H */
