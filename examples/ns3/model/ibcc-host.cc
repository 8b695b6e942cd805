/* ibcc ns-3 model: IbccHost. SPDX-License-Identifier: MIT (see ibcc.h) */
#include "ibcc-host.h"

#include "ns3/abort.h"
#include "ns3/boolean.h"
#include "ns3/double.h"
#include "ns3/enum.h"
#include "ns3/log.h"
#include "ns3/node.h"
#include "ns3/simulator.h"
#include "ns3/uinteger.h"

namespace ns3
{

NS_LOG_COMPONENT_DEFINE("IbccHost");
NS_OBJECT_ENSURE_REGISTERED(IbccHost);

TypeId
IbccHost::GetTypeId()
{
    static TypeId tid =
        TypeId("ns3::IbccHost")
            .SetParent<Object>()
            .SetGroupName("Ibcc")
            .AddConstructor<IbccHost>()
            .AddAttribute("DataPacketBytes",
                          "Size of the data packets of this host's flows, 20-byte header "
                          "included ([S02]: 20 + 2048).",
                          UintegerValue(2068),
                          MakeUintegerAccessor(&IbccHost::m_dataBytes),
                          MakeUintegerChecker<uint32_t>(IbccHeader::kSize, 65535))
            .AddAttribute("Agent",
                          "Source agent of every flow of this host.",
                          EnumValue(AGENT_WINDOW),
                          IBCC_NS3_ENUM_ACCESSOR(Agent, &IbccHost::m_agent),
                          MakeEnumChecker(AGENT_NONE,
                                          "none",
                                          AGENT_WINDOW,
                                          "window",
                                          AGENT_LAW,
                                          "law",
                                          AGENT_FIXED,
                                          "fixed",
                                          AGENT_CCT,
                                          "cct",
                                          AGENT_MVCM,
                                          "mvcm"))
            .AddAttribute("Window",
                          "Unacknowledged packets per flow; 0 = no window (not used by "
                          "the mvcm agent, which has its own).",
                          UintegerValue(1),
                          MakeUintegerAccessor(&IbccHost::m_window),
                          MakeUintegerChecker<uint32_t>())
            .AddAttribute("Law",
                          "Rate law of the law agent [S03].",
                          EnumValue(IBCC_LAW_LIPD),
                          IBCC_NS3_ENUM_ACCESSOR(ibcc_law_kind, &IbccHost::m_lawKind),
                          MakeEnumChecker(IBCC_LAW_LIPD,
                                          "lipd",
                                          IBCC_LAW_FIMD,
                                          "fimd",
                                          IBCC_LAW_AIMD,
                                          "aimd"))
            .AddAttribute("LawForm",
                          "Form of the law: exact (continuous), IBA IPD rates (discrete), "
                          "compiled tables (table).",
                          EnumValue(IBCC_LAW_CONTINUOUS),
                          IBCC_NS3_ENUM_ACCESSOR(ibcc_law_form, &IbccHost::m_lawForm),
                          MakeEnumChecker(IBCC_LAW_CONTINUOUS,
                                          "continuous",
                                          IBCC_LAW_DISCRETE,
                                          "discrete",
                                          IBCC_LAW_TABLE,
                                          "table"))
            .AddAttribute("Rmin",
                          "Lowest rate of the law, as a fraction of the line rate.",
                          DoubleValue(1.0 / 256.0),
                          MakeDoubleAccessor(&IbccHost::m_rmin),
                          MakeDoubleChecker<double>(1.0 / 65536.0, 1.0))
            .AddAttribute("LawM",
                          "Decrease factor m of AIMD and FIMD.",
                          DoubleValue(2.0),
                          MakeDoubleAccessor(&IbccHost::m_lawM),
                          MakeDoubleChecker<double>(1.0, 65536.0))
            .AddAttribute("FixedRate",
                          "Rate of the fixed agent.",
                          DataRateValue(DataRate("1Gbps")),
                          MakeDataRateAccessor(&IbccHost::m_fixedRate),
                          MakeDataRateChecker())
            .AddAttribute("CctPopulation",
                          "CCT contents: [G]'s quadratic i^2*7/106^2 us, or linear (entry "
                          "i = i maximum-size packet times, IPD i).",
                          EnumValue(CCT_QUADRATIC),
                          IBCC_NS3_ENUM_ACCESSOR(CctPopulation, &IbccHost::m_cctPopulation),
                          MakeEnumChecker(CCT_QUADRATIC, "quadratic", CCT_LINEAR, "linear"))
            .AddAttribute("CctSize",
                          "CCT entries.",
                          UintegerValue(128),
                          MakeUintegerAccessor(&IbccHost::m_cctSize),
                          MakeUintegerChecker<uint32_t>(1, IBCC_CCT_MAX_ENTRIES))
            .AddAttribute("CctiLimit",
                          "CCTI_Limit; 0 = the last entry.",
                          UintegerValue(0),
                          MakeUintegerAccessor(&IbccHost::m_cctiLimit),
                          MakeUintegerChecker<uint32_t>(0, IBCC_CCT_MAX_ENTRIES - 1))
            .AddAttribute("CctiIncrease",
                          "CCTI_Increase: CCTI added per BECN.",
                          UintegerValue(1),
                          MakeUintegerAccessor(&IbccHost::m_cctiIncrease),
                          MakeUintegerChecker<uint32_t>(1, 255))
            .AddAttribute("CctiTimer",
                          "CCTI_Timer in 1.024 us units: one CCTI decrement per period.",
                          UintegerValue(150),
                          MakeUintegerAccessor(&IbccHost::m_cctiTimer),
                          MakeUintegerChecker<uint32_t>(1, 65535))
            .AddAttribute("CctiMin",
                          "CCTI_Min: floor of the timer decrements.",
                          UintegerValue(0),
                          MakeUintegerAccessor(&IbccHost::m_cctiMin),
                          MakeUintegerChecker<uint32_t>(0, 255))
            .AddAttribute("MvcmDwMax",
                          "MVCM: largest dynamic window.",
                          UintegerValue(2),
                          MakeUintegerAccessor(&IbccHost::m_mvcmDwMax),
                          MakeUintegerChecker<uint32_t>(1, 65535))
            .AddAttribute("MvcmK",
                          "MVCM: waiting-slot multiplier.",
                          UintegerValue(4),
                          MakeUintegerAccessor(&IbccHost::m_mvcmK),
                          MakeUintegerChecker<uint32_t>(2, 65535))
            .AddAttribute("MvcmN",
                          "MVCM: largest number of waiting-slot multiplications.",
                          UintegerValue(3),
                          MakeUintegerAccessor(&IbccHost::m_mvcmN),
                          MakeUintegerChecker<uint32_t>(1, 64))
            .AddAttribute("MvcmWaitingSlot",
                          "MVCM: waiting slot WS (RTTmin); required by the mvcm agent.",
                          TimeValue(Time(0)),
                          MakeTimeAccessor(&IbccHost::m_mvcmWs),
                          MakeTimeChecker(Time(0)))
            .AddAttribute("Echo",
                          "Destination echo rule (ibcc_dest): ECN in the ACK [S02], IBA "
                          "FECN -> BECN [G], MVPM MB/VB [F].",
                          EnumValue(IBCC_DEST_ECN),
                          IBCC_NS3_ENUM_ACCESSOR(unsigned, &IbccHost::m_echo),
                          MakeEnumChecker(IBCC_DEST_ECN,
                                          "ecn",
                                          IBCC_DEST_IBA,
                                          "iba",
                                          IBCC_DEST_MVPM,
                                          "mvpm"))
            .AddAttribute("BecnByCnp",
                          "IBA echo: send the BECN in an explicit CNP instead of the ACK.",
                          BooleanValue(false),
                          MakeBooleanAccessor(&IbccHost::m_becnByCnp),
                          MakeBooleanChecker())
            .AddAttribute("AckBytes",
                          "ACK size in bytes; 0 = the echo rule's default (20; 22 for MVPM).",
                          UintegerValue(0),
                          MakeUintegerAccessor(&IbccHost::m_ackBytes),
                          MakeUintegerChecker<uint32_t>(0, 65535))
            .AddAttribute("ThroughputInterval",
                          "Period of the Throughput trace; 0 = off.",
                          TimeValue(Time(0)),
                          MakeTimeAccessor(&IbccHost::m_tputInterval),
                          MakeTimeChecker(Time(0)))
            .AddTraceSource("Tx",
                            "A data packet of flow qp starts on the link.",
                            MakeTraceSourceAccessor(&IbccHost::m_txTrace),
                            "ns3::IbccHost::TxTracedCallback")
            .AddTraceSource("RxData",
                            "A data packet was delivered here (its tail arrived).",
                            MakeTraceSourceAccessor(&IbccHost::m_rxDataTrace),
                            "ns3::IbccHost::RxDataTracedCallback")
            .AddTraceSource("Ccti",
                            "The CCTI of a flow changed (reported at BECNs and at sends: "
                            "ibcc's timers are lazy, decrements show up when next looked at).",
                            MakeTraceSourceAccessor(&IbccHost::m_cctiTrace),
                            "ns3::IbccHost::CctiTracedCallback")
            .AddTraceSource("Rate",
                            "Law agent: the applied rate (fraction of the line rate) of a "
                            "flow changed after an ACK.",
                            MakeTraceSourceAccessor(&IbccHost::m_rateTrace),
                            "ns3::IbccHost::RateTracedCallback")
            .AddTraceSource("Throughput",
                            "Every ThroughputInterval: bytes/s delivered here per source "
                            "flow (slid, qp) over the last interval.",
                            MakeTraceSourceAccessor(&IbccHost::m_tputTrace),
                            "ns3::IbccHost::ThroughputTracedCallback");
    return tid;
}

IbccHost::IbccHost()
    : m_lid(0),
      m_rr(0),
      m_ready(false),
      m_runPending(false),
      m_wakeAt(Time::Max()),
      m_hasCct(false),
      m_hasMvcm(false),
      m_dataBytes(2068),
      m_agent(AGENT_WINDOW),
      m_window(1),
      m_lawKind(IBCC_LAW_LIPD),
      m_lawForm(IBCC_LAW_CONTINUOUS),
      m_rmin(1.0 / 256.0),
      m_lawM(2.0),
      m_cctPopulation(CCT_QUADRATIC),
      m_cctSize(128),
      m_cctiLimit(0),
      m_cctiIncrease(1),
      m_cctiTimer(150),
      m_cctiMin(0),
      m_mvcmDwMax(2),
      m_mvcmK(4),
      m_mvcmN(3),
      m_echo(IBCC_DEST_ECN),
      m_becnByCnp(false),
      m_ackBytes(0)
{
}

IbccHost::~IbccHost()
{
}

void
IbccHost::SetDevice(Ptr<IbccNetDevice> device)
{
    m_dev = device;
    device->SetLinkCallbacks(MakeCallback(&IbccHost::HeaderArrived, this),
                             MakeCallback(&IbccHost::TxDone, this),
                             MakeCallback(&IbccHost::CreditsBack, this));
}

uint32_t
IbccHost::AddFlow(uint16_t dlid, Time start, Time stop)
{
    NS_ABORT_MSG_IF(m_ready, "IbccHost: add flows before the simulation starts");
    NS_ABORT_MSG_IF(!stop.IsZero() && stop <= start, "IbccHost: flow stops before it starts");
    Ptr<Node> node = GetObject<Node>();
    NS_ABORT_MSG_IF(!node, "IbccHost: aggregate it to a Node first");
    uint32_t qp = GetNFlows();
    Flow f;
    f.dlid = dlid;
    f.start = start;
    f.stop = stop;
    f.on = false;
    f.outstanding = 0;
    f.psn = 0;
    f.pacer = ibcc_pacer();
    f.law = ibcc_law();
    f.nextOk = 0;
    f.ccti = 0;
    f.rate = 1.0;
    f.st = FlowStats{0, 0, 0, 0};
    m_flows.push_back(f);
    Time now = Simulator::Now();
    Simulator::ScheduleWithContext(node->GetId(), start - now, &IbccHost::FlowOn, this, qp);
    if (!stop.IsZero())
    {
        Simulator::ScheduleWithContext(node->GetId(), stop - now, &IbccHost::FlowOff, this, qp);
    }
    return qp;
}

IbccHost::FlowStats
IbccHost::GetFlowStats(uint32_t qp) const
{
    return m_flows.at(qp).st;
}

// Builds the echo rule and the agents for the flows added so far.
void
IbccHost::Setup()
{
    if (m_ready)
    {
        return;
    }
    NS_LOG_FUNCTION(this << m_lid << GetNFlows());
    NS_ABORT_MSG_IF(!m_dev, "IbccHost: no device");
    ibcc_result r;
    ibcc_dest_desc dd = ibcc_dest_desc();
    dd.scheme = static_cast<ibcc_dest_scheme>(m_echo);  // checked by ibcc_dest_init
    dd.becn_by_cnp = m_becnByCnp ? 1u : 0u;
    dd.ack_bytes = m_ackBytes;
    r = ibcc_dest_init(&m_dest, &dd);
    NS_ABORT_MSG_IF(r != IBCC_OK, "IbccHost: echo rule: " << ibcc_result_str(r));
    uint32_t n = GetNFlows();
    ibcc_rate line = m_dev->GetDataRate().GetBitRate() / 8u;
    if (n > 0 && m_agent == AGENT_CCT)
    {
        ibcc_cct_desc cd = ibcc_cct_desc();
        cd.flows = n;
        cd.port_rate = line;
        cd.max_pkt_bytes = m_dataBytes;
        cd.entries = m_cctSize;
        for (int s = 0; s < IBCC_CCT_SLS; s++)
        {
            cd.sl[s].ccti_timer = static_cast<uint16_t>(m_cctiTimer);
            cd.sl[s].ccti_increase = static_cast<uint8_t>(m_cctiIncrease);
            cd.sl[s].ccti_min = static_cast<uint8_t>(m_cctiMin);
        }
        ibcc_time maxPkt = m_dev->WireTime(m_dataBytes);
        std::vector<uint16_t> table(m_cctSize);
        if (m_cctPopulation == CCT_LINEAR)
        {
            r = ibcc_cct_fill_linear(table.data(), m_cctSize);
        }
        else
        {
            r = ibcc_cct_fill_quadratic(table.data(),
                                        m_cctSize,
                                        maxPkt,
                                        IBCC_CCT_QUAD_COEF,
                                        IBCC_CCT_QUAD_G_ROOT);
        }
        NS_ABORT_MSG_IF(r != IBCC_OK, "IbccHost: CCT: " << ibcc_result_str(r));
        cd.table = table.data();
        cd.table_len = m_cctSize;
        cd.ccti_limit = static_cast<uint16_t>(m_cctiLimit);
        r = ibcc_cct_defaults(&cd);
        NS_ABORT_MSG_IF(r != IBCC_OK, "IbccHost: CCT agent: " << ibcc_result_str(r));
        size_t need = 0;
        r = ibcc_cct_size(&cd, &need);
        NS_ABORT_MSG_IF(r != IBCC_OK, "IbccHost: CCT agent: " << ibcc_result_str(r));
        m_cctMem.assign(need / 8u + 1u, 0);
        r = ibcc_cct_init(&m_cct, &cd, m_cctMem.data(), m_cctMem.size() * 8u);
        NS_ABORT_MSG_IF(r != IBCC_OK, "IbccHost: CCT agent: " << ibcc_result_str(r));
        m_hasCct = true;
    }
    if (n > 0 && m_agent == AGENT_MVCM)
    {
        NS_ABORT_MSG_IF(m_mvcmWs.IsZero(), "IbccHost: the mvcm agent needs MvcmWaitingSlot");
        ibcc_mvcm_desc vd = ibcc_mvcm_desc();
        vd.flows = n;
        vd.dw_max = m_mvcmDwMax;
        vd.k = m_mvcmK;
        vd.n = m_mvcmN;
        vd.ws = ToIbccTime(m_mvcmWs);
        r = ibcc_mvcm_defaults(&vd);
        NS_ABORT_MSG_IF(r != IBCC_OK, "IbccHost: MVCM agent: " << ibcc_result_str(r));
        size_t need = 0;
        r = ibcc_mvcm_size(&vd, &need);
        NS_ABORT_MSG_IF(r != IBCC_OK, "IbccHost: MVCM agent: " << ibcc_result_str(r));
        m_mvcmMem.assign(need / 8u + 1u, 0);
        r = ibcc_mvcm_init(&m_mvcm, &vd, m_mvcmMem.data(), m_mvcmMem.size() * 8u);
        NS_ABORT_MSG_IF(r != IBCC_OK, "IbccHost: MVCM agent: " << ibcc_result_str(r));
        m_hasMvcm = true;
    }
    if (n > 0 && m_agent == AGENT_LAW)
    {
        // one law compiled once (TABLE: its tables), copied into each flow
        ibcc_law_desc ld = ibcc_law_desc();
        ld.kind = m_lawKind;
        ld.form = m_lawForm;
        ld.rmin = m_rmin;
        ld.m = m_lawM;
        r = ibcc_law_defaults(&ld);
        NS_ABORT_MSG_IF(r != IBCC_OK, "IbccHost: law: " << ibcc_result_str(r));
        size_t need = 0;
        r = ibcc_law_size(&ld, &need);
        NS_ABORT_MSG_IF(r != IBCC_OK, "IbccHost: law: " << ibcc_result_str(r));
        m_lawMem.assign(need / 8u + 1u, 0);
        r = ibcc_law_init(&m_lawProto, &ld, m_lawMem.data(), m_lawMem.size() * 8u);
        NS_ABORT_MSG_IF(r != IBCC_OK, "IbccHost: law: " << ibcc_result_str(r));
    }
    for (uint32_t qp = 0; qp < n; qp++)
    {
        Flow& f = m_flows[qp];
        if (m_agent > AGENT_FIXED)
        {
            continue;
        }
        ibcc_pacer_desc pd = ibcc_pacer_desc();
        pd.window = (m_agent == AGENT_NONE || m_window == 0) ? IBCC_PACER_NO_WINDOW : m_window;
        if (m_agent == AGENT_LAW)
        {
            f.law = m_lawProto;
            pd.law = &f.law;
        }
        else if (m_agent == AGENT_FIXED)
        {
            pd.rate = m_fixedRate.GetBitRate() / 8u;
            pd.rmax = line;
        }
        r = ibcc_pacer_init(&f.pacer, &pd);
        NS_ABORT_MSG_IF(r != IBCC_OK, "IbccHost: pacer: " << ibcc_result_str(r));
    }
    if (m_tputInterval.IsStrictlyPositive())
    {
        Simulator::Schedule(m_tputInterval, &IbccHost::Sample, this);
    }
    m_ready = true;
}

void
IbccHost::DoInitialize()
{
    Setup();
    Object::DoInitialize();
}

void
IbccHost::DoDispose()
{
    m_dev = nullptr;
    m_ackq.clear();
    m_flows.clear();
    Object::DoDispose();
}

// ---- flows start and stop ------------------------------------------------
void
IbccHost::FlowOn(uint32_t qp)
{
    Setup();
    Flow& f = m_flows[qp];
    Time now = Simulator::Now();
    if (f.on || (!f.stop.IsZero() && now >= f.stop))
    {
        return;
    }
    f.on = true;
    AgentRestart(qp);
    Kick();
}

void
IbccHost::FlowOff(uint32_t qp)
{
    m_flows[qp].on = false;
}

// ---- sending ---------------------------------------------------------------
// Same-instant rule: the host decides what to send after every event due
// at this instant (Simulator::ScheduleNow queues behind them).
void
IbccHost::Kick()
{
    if (m_wakeAt != Time::Max())
    {
        Simulator::Cancel(m_wake);   // the run re-arms what it needs
        m_wakeAt = Time::Max();
    }
    if (m_runPending)
    {
        return;
    }
    m_runPending = true;
    Simulator::ScheduleNow(&IbccHost::Run, this);
}

void
IbccHost::WakeAt(Time t)
{
    Time now = Simulator::Now();
    if (t <= now)
    {
        Kick();
        return;
    }
    if (m_wakeAt != Time::Max())
    {
        if (m_wakeAt <= t)
        {
            return;   // an earlier wake-up is pending
        }
        Simulator::Cancel(m_wake);
    }
    m_wakeAt = t;
    m_wake = Simulator::Schedule(t - now, &IbccHost::Wake, this);
}

void
IbccHost::Wake()
{
    m_wakeAt = Time::Max();
    Kick();
}

// ACK/CNP queue first; then the flows in round robin: the first that is
// on, inside its window, allowed by its agent now and has credits sends.
// Otherwise sleep until the earliest agent time (credits, ACKs and the
// transmitter freeing kick the host too).
void
IbccHost::Run()
{
    m_runPending = false;
    if (m_dev->IsTransmitting())
    {
        return;   // TxDone kicks
    }
    Time now = Simulator::Now();
    ibcc_time tnow = ToIbccTime(now), wake = IBCC_TIME_MAX;
    if (!m_ackq.empty() && m_dev->HasRoom(IbccNetDevice::kAckLane, m_ackq.front()->GetSize()))
    {
        Ptr<Packet> p = m_ackq.front();
        m_ackq.pop_front();
        m_dev->TransmitStart(p, IbccNetDevice::kAckLane, now);
        return;
    }
    uint32_t n = GetNFlows();
    for (uint32_t k = 0; k < n; k++)
    {
        uint32_t qp = (m_rr + k) % n;
        Flow& f = m_flows[qp];
        if (!f.on || !AgentWindowOpen(qp))
        {
            continue;
        }
        ibcc_time t = AgentNext(qp);
        if (t > tnow)
        {
            wake = t < wake ? t : wake;
            continue;
        }
        if (!m_dev->HasRoom(IbccNetDevice::kDataLane, m_dataBytes))
        {
            continue;
        }
        Ptr<Packet> p = Create<Packet>(m_dataBytes - IbccHeader::kSize);
        IbccHeader h;
        h.SetLane(IbccNetDevice::kDataLane);
        h.SetDlid(f.dlid);
        h.SetSlid(m_lid);
        h.SetQp(qp);
        h.SetPsn(f.psn++);
        p->AddHeader(h);
        p->AddPacketTag(IbccInjectTag(tnow));
        NS_LOG_LOGIC("lid " << m_lid << " qp " << qp << " psn " << h.GetPsn() << " to "
                            << f.dlid);
        f.outstanding++;
        f.st.sent++;
        f.st.sentBytes += m_dataBytes;
        m_txTrace(p, qp);
        AgentSent(qp, m_dev->WireTime(m_dataBytes));
        m_rr = (qp + 1u) % n;
        m_dev->TransmitStart(p, IbccNetDevice::kDataLane, now);
        return;
    }
    if (wake != IBCC_TIME_MAX)
    {
        WakeAt(FromIbccTime(wake));
    }
}

void
IbccHost::TxDone(Ptr<IbccNetDevice> device)
{
    (void)device;
    Kick();
}

void
IbccHost::CreditsBack(Ptr<IbccNetDevice> device, uint8_t lane)
{
    (void)device;
    (void)lane;
    Kick();
}

// ---- receiving -------------------------------------------------------------
void
IbccHost::HeaderArrived(Ptr<IbccNetDevice> device, Ptr<Packet> packet, Time tail)
{
    (void)device;
    Simulator::Schedule(tail - Simulator::Now(), &IbccHost::Consume, this, packet);
}

// The tail is here: the packet is consumed at once and its credits go
// back; data is answered by the echo rule, an ACK/CNP steps its flow.
void
IbccHost::Consume(Ptr<Packet> packet)
{
    IbccHeader h;
    packet->PeekHeader(h);
    uint8_t lane = h.GetLane() ? IbccNetDevice::kAckLane : IbccNetDevice::kDataLane;
    m_dev->ReturnCredits(lane, packet->GetSize());
    if (lane == IbccNetDevice::kDataLane)
    {
        Deliver(packet, h);
    }
    else
    {
        AckAtSource(h);
    }
}

void
IbccHost::Deliver(Ptr<Packet> packet, const IbccHeader& h)
{
    ibcc_time now = ToIbccTime(Simulator::Now());
    IbccInjectTag tag;
    Time latency(0);
    if (packet->PeekPacketTag(tag) && tag.Get() <= now)
    {
        latency = FromIbccTime(now - tag.Get());
    }
    if (m_tputInterval.IsStrictlyPositive())
    {
        m_rxBytes[(uint64_t(h.GetSlid()) << 32) | h.GetQp()] += packet->GetSize();
    }
    m_rxDataTrace(packet, h.GetSlid(), h.GetQp(), h.GetFlags(), latency);
    ibcc_dest_reply rep = ibcc_dest_on_packet(&m_dest, h.GetFlags());
    unsigned flags[2] = {rep.ack, rep.cnp};
    for (unsigned k = 0; k < 2; k++)
    {
        if (!flags[k])
        {
            continue;
        }
        uint32_t bytes = ibcc_dest_reply_bytes(&m_dest, flags[k]);
        bytes = bytes < IbccHeader::kSize ? IbccHeader::kSize : bytes;
        Ptr<Packet> a = Create<Packet>(bytes - IbccHeader::kSize);
        IbccHeader ah;
        ah.SetLane(IbccNetDevice::kAckLane);
        ah.SetFlags(static_cast<uint8_t>(flags[k]));
        ah.SetDlid(h.GetSlid());
        ah.SetSlid(m_lid);
        ah.SetQp(h.GetQp());
        ah.SetPsn(h.GetPsn());
        a->AddHeader(ah);
        m_ackq.push_back(a);
    }
    if (!m_ackq.empty())
    {
        Kick();
    }
}

void
IbccHost::AckAtSource(const IbccHeader& h)
{
    uint32_t qp = h.GetQp();
    NS_ABORT_MSG_IF(qp >= GetNFlows(), "IbccHost: ACK for an unknown flow " << qp);
    Flow& f = m_flows[qp];
    unsigned marks = ibcc_dest_marks(&m_dest, h.GetFlags());
    if (h.GetFlags() & IBCC_ACK)
    {
        if (f.outstanding)
        {
            f.outstanding--;
        }
        f.st.acks++;
        if (marks)
        {
            f.st.acksMarked++;
        }
    }
    NS_LOG_LOGIC("lid " << m_lid << " qp " << qp << " reply flags " << unsigned(h.GetFlags()));
    AgentAck(qp, h.GetFlags(), marks);
    Kick();
}

// ---- the source agents -----------------------------------------------------
bool
IbccHost::AgentWindowOpen(uint32_t qp) const
{
    const Flow& f = m_flows[qp];
    if (m_agent <= AGENT_FIXED)
    {
        return ibcc_pacer_window_open(&f.pacer) != 0;
    }
    if (m_agent == AGENT_MVCM)
    {
        return f.outstanding < ibcc_mvcm_window(&m_mvcm, qp);
    }
    return m_window == 0 || f.outstanding < m_window;
}

ibcc_time
IbccHost::AgentNext(uint32_t qp) const
{
    const Flow& f = m_flows[qp];
    if (m_agent <= AGENT_FIXED)
    {
        return ibcc_pacer_next(&f.pacer);
    }
    if (m_agent == AGENT_MVCM)
    {
        // nWS x WS from the end of the last injection, with the nWS in
        // force now (an ACK moves the next start; ibcc_fabric does the same)
        ibcc_time w = ibcc_mvcm_wait(&m_mvcm, qp);
        return (w > IBCC_TIME_MAX - f.nextOk) ? IBCC_TIME_MAX : f.nextOk + w;
    }
    return f.nextOk;
}

void
IbccHost::AgentSent(uint32_t qp, ibcc_time wire)
{
    Flow& f = m_flows[qp];
    ibcc_time now = ToIbccTime(Simulator::Now());
    if (m_agent <= AGENT_FIXED)
    {
        ibcc_pacer_on_send(&f.pacer, now, wire);
    }
    else if (m_agent == AGENT_CCT)
    {
        // IBA: the injection rate delay CCT[CCTI] follows each packet
        f.nextOk = now + ibcc_cct_interval(&m_cct, qp, now, wire);
        ReportCcti(qp, ibcc_cct_ccti(&m_cct, qp, now));
    }
    else
    {
        // MVCM: the end of this injection; AgentNext adds nWS x WS
        f.nextOk = (wire > IBCC_TIME_MAX - now) ? IBCC_TIME_MAX : now + wire;
    }
}

void
IbccHost::AgentAck(uint32_t qp, uint8_t flags, unsigned marks)
{
    Flow& f = m_flows[qp];
    ibcc_time now = ToIbccTime(Simulator::Now());
    if (m_agent <= AGENT_FIXED)
    {
        if (flags & IBCC_ACK)
        {
            ibcc_pacer_on_ack(&f.pacer, marks != 0);
        }
        else if (marks && m_agent == AGENT_LAW)
        {
            ibcc_law_on_ack(&f.law, 1);   // BECN in a CNP: decrease only
        }
        if (m_agent == AGENT_LAW)
        {
            double rate = ibcc_law_rate(&f.law);
            if (rate != f.rate)
            {
                f.rate = rate;
                m_rateTrace(qp, rate);
            }
        }
    }
    else if (m_agent == AGENT_CCT)
    {
        if (marks & IBCC_BECN)
        {
            ReportCcti(qp, ibcc_cct_on_becn(&m_cct, qp, now));
        }
    }
    else if (flags & IBCC_ACK)
    {
        ibcc_mvcm_on_ack(&m_mvcm, qp, marks);
    }
}

void
IbccHost::AgentRestart(uint32_t qp)
{
    Flow& f = m_flows[qp];
    if (m_agent == AGENT_LAW)
    {
        ibcc_law_reset(&f.law);
    }
    else if (m_agent == AGENT_MVCM)
    {
        ibcc_mvcm_on_inject_empty(&m_mvcm, qp);
        f.nextOk = 0;
    }
    else if (m_agent == AGENT_CCT)
    {
        f.nextOk = 0;
    }
}

void
IbccHost::ReportCcti(uint32_t qp, uint32_t ccti)
{
    Flow& f = m_flows[qp];
    if (ccti != f.ccti)
    {
        m_cctiTrace(qp, f.ccti, ccti);
        f.ccti = ccti;
    }
}

void
IbccHost::Sample()
{
    double secs = m_tputInterval.GetSeconds();
    for (auto& kv : m_rxBytes)
    {
        m_tputTrace(static_cast<uint16_t>(kv.first >> 32),
                    static_cast<uint32_t>(kv.first & 0xffffffffu),
                    static_cast<double>(kv.second) / secs);
        kv.second = 0;
    }
    Simulator::Schedule(m_tputInterval, &IbccHost::Sample, this);
}

} // namespace ns3
