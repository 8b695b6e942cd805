/* ibcc ns-3 model: IbccHelper. SPDX-License-Identifier: MIT (see ibcc.h) */
#include "ibcc-helper.h"

#include "ns3/abort.h"
#include "ns3/mac48-address.h"

#include <deque>
#include <map>

namespace ns3
{

IbccHelper::IbccHelper()
    : m_nextLid(1)
{
    m_deviceFactory.SetTypeId("ns3::IbccNetDevice");
    m_channelFactory.SetTypeId("ns3::IbccChannel");
    m_switchFactory.SetTypeId("ns3::IbccSwitch");
    m_hostFactory.SetTypeId("ns3::IbccHost");
}

void
IbccHelper::SetDeviceAttribute(std::string name, const AttributeValue& value)
{
    m_deviceFactory.Set(name, value);
}

void
IbccHelper::SetChannelAttribute(std::string name, const AttributeValue& value)
{
    m_channelFactory.Set(name, value);
}

void
IbccHelper::SetSwitchAttribute(std::string name, const AttributeValue& value)
{
    m_switchFactory.Set(name, value);
}

void
IbccHelper::SetHostAttribute(std::string name, const AttributeValue& value)
{
    m_hostFactory.Set(name, value);
}

void
IbccHelper::SetRemoteChannelType(std::string typeId)
{
    m_remoteType = typeId;
}

Ptr<IbccSwitch>
IbccHelper::InstallSwitch(Ptr<Node> node)
{
    NS_ABORT_MSG_IF(node->GetObject<IbccSwitch>() || node->GetObject<IbccHost>(),
                    "IbccHelper: node " << node->GetId() << " already installed");
    Ptr<IbccSwitch> sw = m_switchFactory.Create<IbccSwitch>();
    node->AggregateObject(sw);
    return sw;
}

Ptr<IbccHost>
IbccHelper::InstallHost(Ptr<Node> node)
{
    NS_ABORT_MSG_IF(node->GetObject<IbccSwitch>() || node->GetObject<IbccHost>(),
                    "IbccHelper: node " << node->GetId() << " already installed");
    NS_ABORT_MSG_IF(m_nextLid == 0xffff, "IbccHelper: out of LIDs");
    Ptr<IbccHost> host = m_hostFactory.Create<IbccHost>();
    host->SetLid(m_nextLid++);
    node->AggregateObject(host);
    m_hosts.push_back(node);
    return host;
}

void
IbccHelper::InstallHost(const NodeContainer& nodes)
{
    for (auto it = nodes.Begin(); it != nodes.End(); ++it)
    {
        InstallHost(*it);
    }
}

uint32_t
IbccHelper::Attach(Ptr<Node> node, Ptr<IbccNetDevice> device)
{
    device->SetAddress(Mac48Address::Allocate());
    node->AddDevice(device);
    if (Ptr<IbccSwitch> sw = node->GetObject<IbccSwitch>())
    {
        return sw->AddPort(device);
    }
    Ptr<IbccHost> host = node->GetObject<IbccHost>();
    NS_ABORT_MSG_IF(!host, "IbccHelper: install a host or a switch on node " << node->GetId());
    NS_ABORT_MSG_IF(host->GetDevice(), "IbccHelper: a host has one link");
    host->SetDevice(device);
    return 0;
}

NetDeviceContainer
IbccHelper::Connect(Ptr<Node> a, Ptr<Node> b)
{
    Ptr<IbccNetDevice> da = m_deviceFactory.Create<IbccNetDevice>();
    Ptr<IbccNetDevice> db = m_deviceFactory.Create<IbccNetDevice>();
    Ptr<IbccChannel> ch;
    if (a->GetSystemId() != b->GetSystemId())
    {
        NS_ABORT_MSG_IF(m_remoteType.empty(),
                        "IbccHelper: nodes " << a->GetId() << " and " << b->GetId()
                                             << " are on two ranks: SetRemoteChannelType first");
        ObjectFactory f = m_channelFactory;
        f.SetTypeId(m_remoteType);
        ch = f.Create<IbccChannel>();
    }
    else
    {
        ch = m_channelFactory.Create<IbccChannel>();
    }
    Link k;
    k.a = a;
    k.b = b;
    k.aPort = Attach(a, da);
    k.bPort = Attach(b, db);
    da->Attach(ch);
    db->Attach(ch);
    m_links.push_back(k);
    NetDeviceContainer c;
    c.Add(da);
    c.Add(db);
    return c;
}

void
IbccHelper::PopulateRoutes()
{
    // links by node id, in creation order
    std::map<uint32_t, std::vector<uint32_t>> adj;
    for (uint32_t i = 0; i < m_links.size(); i++)
    {
        adj[m_links[i].a->GetId()].push_back(i);
        adj[m_links[i].b->GetId()].push_back(i);
    }
    for (const Ptr<Node>& h : m_hosts)
    {
        uint16_t lid = GetLid(h);
        std::map<uint32_t, bool> seen;
        std::deque<Ptr<Node>> todo;
        seen[h->GetId()] = true;
        todo.push_back(h);
        while (!todo.empty())
        {
            Ptr<Node> u = todo.front();
            todo.pop_front();
            for (uint32_t li : adj[u->GetId()])
            {
                const Link& k = m_links[li];
                bool fromA = k.a == u;
                Ptr<Node> v = fromA ? k.b : k.a;
                if (seen[v->GetId()])
                {
                    continue;
                }
                seen[v->GetId()] = true;
                Ptr<IbccSwitch> sw = v->GetObject<IbccSwitch>();
                if (!sw)
                {
                    continue;   // hosts do not forward
                }
                sw->AddRoute(lid, fromA ? k.bPort : k.aPort);
                todo.push_back(v);
            }
        }
    }
}

uint32_t
IbccHelper::AddFlow(Ptr<Node> src, Ptr<Node> dst, Time start, Time stop)
{
    Ptr<IbccHost> host = src->GetObject<IbccHost>();
    NS_ABORT_MSG_IF(!host, "IbccHelper: flow source is not a host");
    return host->AddFlow(GetLid(dst), start, stop);
}

uint16_t
IbccHelper::GetLid(Ptr<Node> host)
{
    Ptr<IbccHost> h = host->GetObject<IbccHost>();
    NS_ABORT_MSG_IF(!h, "IbccHelper: node " << host->GetId() << " is not a host");
    return h->GetLid();
}

} // namespace ns3
