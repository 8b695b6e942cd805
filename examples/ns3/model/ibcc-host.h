/* ibcc ns-3 model: a host adapter whose send decisions come from ibcc's
   source agents and whose receive side applies ibcc's echo rules.
   SPDX-License-Identifier: MIT (see ibcc.h) */
#ifndef IBCC_NS3_HOST_H
#define IBCC_NS3_HOST_H

#include "ibcc-net-device.h"

#include "ns3/data-rate.h"
#include "ns3/event-id.h"
#include "ns3/object.h"
#include "ns3/traced-callback.h"

#include <deque>
#include <map>
#include <vector>

namespace ns3
{

/* Aggregated to a Node with one IbccNetDevice (SetDevice). The host has
   a LID (its address) and any number of greedy flows (AddFlow), each to
   one destination LID and active in [start, stop).

   Sending (the adapter, on every event that may allow a send: flow start,
   ACK back, credits back, transmitter free, the agent's next time): the
   ACK/CNP queue first, then the data flows in round robin. A flow may
   send when it is active, its window allows another packet, its source
   agent's earliest time has come and the first switch has room (credits).
   Agents ("Agent" attribute), one per flow, as in ibcc's fabric:
     none / window  ibcc_pacer without a rate (window only for "window")
     law            ibcc_pacer + ibcc_law: rate law stepped per ACK
                    ([S03]: LIPD, FIMD, AIMD; continuous, discrete, table)
     fixed          ibcc_pacer with a fixed rate (FixedRate)
     cct            the host's IBA CCT/CCTI agent (ibcc_cct, [G]): after
                    each packet the next may start ibcc_cct_interval later;
                    a BECN raises the flow's CCTI; plus the window
     mvcm           the host's MVCM agent (ibcc_mvcm, [F]): dynamic window
                    and waiting slots from the MB/VB echoed in ACKs
   Receiving: a packet is consumed when its tail has arrived (its credits
   go back at once); a data packet is answered by the echo rule
   (ibcc_dest: "Echo" ecn, iba or mvpm), whose ACK and/or CNP join the ACK
   queue; an ACK or CNP back at its source steps the flow's agent.

   All flows must be added before Simulator::Run (the agents are built
   for the flow count at the start). */
class IbccHost : public Object
{
  public:
    enum Agent
    {
        AGENT_NONE = 0,
        AGENT_WINDOW = 1,
        AGENT_LAW = 2,
        AGENT_FIXED = 3,
        AGENT_CCT = 4,
        AGENT_MVCM = 5
    };

    enum CctPopulation
    {
        CCT_QUADRATIC = 0,   // [G]: entry i = i^2 * 7 / 106^2 us
        CCT_LINEAR = 1       // entry i = i maximum-size packet times (LIPD-like)
    };

    static TypeId GetTypeId();
    IbccHost();
    ~IbccHost() override;

    void SetDevice(Ptr<IbccNetDevice> device);
    Ptr<IbccNetDevice> GetDevice() const { return m_dev; }
    void SetLid(uint16_t lid) { m_lid = lid; }
    uint16_t GetLid() const { return m_lid; }

    /* A greedy flow to host `dlid`, active in [start, stop) (stop zero:
       never stops). Returns its queue pair number (0, 1, ... per host). */
    uint32_t AddFlow(uint16_t dlid, Time start, Time stop = Time(0));
    uint32_t GetNFlows() const { return static_cast<uint32_t>(m_flows.size()); }

    /* Per-flow counters at the source. */
    struct FlowStats
    {
        uint64_t sent;          // data packets injected
        uint64_t sentBytes;
        uint64_t acks;          // ACKs back
        uint64_t acksMarked;    // ACKs (or CNPs) carrying a congestion mark
    };
    FlowStats GetFlowStats(uint32_t qp) const;
    /* The host's CCT agent (null unless a flow uses it and the simulation
       has started): read it with ibcc_cct_ccti() and friends. */
    const ibcc_cct* GetCct() const { return m_hasCct ? &m_cct : nullptr; }

    typedef void (*TxTracedCallback)(Ptr<const Packet> packet, uint32_t qp);
    typedef void (*RxDataTracedCallback)(Ptr<const Packet> packet,
                                         uint16_t slid,
                                         uint32_t qp,
                                         uint8_t flags,
                                         Time latency);
    typedef void (*CctiTracedCallback)(uint32_t qp, uint32_t oldCcti, uint32_t newCcti);
    typedef void (*RateTracedCallback)(uint32_t qp, double rate);
    typedef void (*ThroughputTracedCallback)(uint16_t slid, uint32_t qp, double bytesPerSecond);

  protected:
    void DoInitialize() override;
    void DoDispose() override;

  private:
    struct Flow
    {
        uint16_t dlid;
        Time start;
        Time stop;
        bool on;
        uint32_t outstanding;   // unacknowledged packets
        uint32_t psn;
        ibcc_pacer pacer;       // none / window / law / fixed agents
        ibcc_law law;           // law agent
        ibcc_time nextOk;       // cct: earliest next start; mvcm: end of
                                // the last injection
        uint32_t ccti;          // last CCTI reported by the Ccti trace
        double rate;            // last rate reported by the Rate trace
        FlowStats st;
    };

    void Setup();
    void FlowOn(uint32_t qp);
    void FlowOff(uint32_t qp);
    void HeaderArrived(Ptr<IbccNetDevice> device, Ptr<Packet> packet, Time tail);
    void Consume(Ptr<Packet> packet);
    void Deliver(Ptr<Packet> packet, const IbccHeader& h);
    void AckAtSource(const IbccHeader& h);
    void TxDone(Ptr<IbccNetDevice> device);
    void CreditsBack(Ptr<IbccNetDevice> device, uint8_t lane);
    void Kick();
    void WakeAt(Time t);
    void Wake();
    void Run();
    void Sample();
    void ReportCcti(uint32_t qp, uint32_t ccti);

    // the flow's agent (the same rules as ibcc's fabric, docs/fabric.md)
    bool AgentWindowOpen(uint32_t qp) const;
    ibcc_time AgentNext(uint32_t qp) const;
    void AgentSent(uint32_t qp, ibcc_time wire);
    void AgentAck(uint32_t qp, uint8_t flags, unsigned marks);
    void AgentRestart(uint32_t qp);

    Ptr<IbccNetDevice> m_dev;
    uint16_t m_lid;
    std::vector<Flow> m_flows;
    std::deque<Ptr<Packet>> m_ackq;
    uint32_t m_rr;
    bool m_ready;
    bool m_runPending;
    EventId m_wake;
    Time m_wakeAt;
    ibcc_dest m_dest;
    ibcc_law m_lawProto;
    std::vector<uint64_t> m_lawMem;
    ibcc_cct m_cct;
    std::vector<uint64_t> m_cctMem;
    bool m_hasCct;
    ibcc_mvcm m_mvcm;
    std::vector<uint64_t> m_mvcmMem;
    bool m_hasMvcm;
    std::map<uint64_t, uint64_t> m_rxBytes;   // (slid << 32 | qp) -> bytes since last sample

    // attributes
    uint32_t m_dataBytes;
    Agent m_agent;
    uint32_t m_window;
    ibcc_law_kind m_lawKind;
    ibcc_law_form m_lawForm;
    double m_rmin;
    double m_lawM;
    DataRate m_fixedRate;
    CctPopulation m_cctPopulation;
    uint32_t m_cctSize;
    uint32_t m_cctiLimit;
    uint32_t m_cctiIncrease;
    uint32_t m_cctiTimer;
    uint32_t m_cctiMin;
    uint32_t m_mvcmDwMax;
    uint32_t m_mvcmK;
    uint32_t m_mvcmN;
    Time m_mvcmWs;
    unsigned m_echo;   // IBCC_DEST_ECN / _IBA / _MVPM
    bool m_becnByCnp;
    uint32_t m_ackBytes;
    Time m_tputInterval;

    TracedCallback<Ptr<const Packet>, uint32_t> m_txTrace;
    TracedCallback<Ptr<const Packet>, uint16_t, uint32_t, uint8_t, Time> m_rxDataTrace;
    TracedCallback<uint32_t, uint32_t, uint32_t> m_cctiTrace;
    TracedCallback<uint32_t, double> m_rateTrace;
    TracedCallback<uint16_t, uint32_t, double> m_tputTrace;
};

} // namespace ns3

#endif /* IBCC_NS3_HOST_H */
