/* ibcc ns-3 model: helper that installs hosts and switches, links them and
   fills the static routes. SPDX-License-Identifier: MIT (see ibcc.h) */
#ifndef IBCC_NS3_HELPER_H
#define IBCC_NS3_HELPER_H

#include "ibcc-channel.h"
#include "ibcc-host.h"
#include "ibcc-net-device.h"
#include "ibcc-switch.h"

#include "ns3/net-device-container.h"
#include "ns3/node-container.h"
#include "ns3/object-factory.h"

#include <string>
#include <vector>

namespace ns3
{

/* Typical use:

     IbccHelper ib;
     ib.SetSwitchAttribute("Marker", StringValue("input"));
     ib.SetHostAttribute("Agent", StringValue("law"));
     Ptr<IbccSwitch> sw = ib.InstallSwitch(switchNode);
     ib.InstallHost(hosts);                  // LIDs 1, 2, ... in this order
     for (...) ib.Connect(hosts.Get(i), switchNode);
     ib.PopulateRoutes();                    // shortest paths, every switch
     ib.AddFlow(hosts.Get(0), hosts.Get(1), Seconds(0));

   Attributes given to the Set*Attribute functions apply to the objects
   created afterwards (ObjectFactory semantics). A switch's port numbers
   are the order in which its links were made with Connect. */
class IbccHelper
{
  public:
    IbccHelper();

    void SetDeviceAttribute(std::string name, const AttributeValue& value);
    void SetChannelAttribute(std::string name, const AttributeValue& value);
    /* Distributed runs: links between nodes of two system ids (ranks) are
       made with this IbccChannel subclass (ns3::IbccRemoteChannel, built
       with `make ns3-mpi`), with the channel attributes set so far. Without
       it such a link is refused. */
    void SetRemoteChannelType(std::string typeId);
    void SetSwitchAttribute(std::string name, const AttributeValue& value);
    void SetHostAttribute(std::string name, const AttributeValue& value);

    /* Aggregates an IbccSwitch to the node. */
    Ptr<IbccSwitch> InstallSwitch(Ptr<Node> node);
    /* Aggregates an IbccHost to the node and gives it the next LID. */
    Ptr<IbccHost> InstallHost(Ptr<Node> node);
    void InstallHost(const NodeContainer& nodes);

    /* A link between two installed nodes: a device on each (appended to
       the node's devices and, on a switch, its next port) and a channel.
       A host has exactly one link. Returns the two devices (a's first). */
    NetDeviceContainer Connect(Ptr<Node> a, Ptr<Node> b);

    /* Every switch gets a route to every host along a shortest path
       (breadth-first over the links made by this helper, links in the
       order they were made). */
    void PopulateRoutes();

    /* A greedy flow from host node src to host node dst, active in
       [start, stop) (stop 0: never stops). Returns its queue pair number at
       the source host. */
    uint32_t AddFlow(Ptr<Node> src, Ptr<Node> dst, Time start, Time stop = Time(0));

    static uint16_t GetLid(Ptr<Node> host);

  private:
    struct Link
    {
        Ptr<Node> a;
        uint32_t aPort;
        Ptr<Node> b;
        uint32_t bPort;
    };

    uint32_t Attach(Ptr<Node> node, Ptr<IbccNetDevice> device);

    ObjectFactory m_deviceFactory;
    ObjectFactory m_channelFactory;
    std::string m_remoteType;
    ObjectFactory m_switchFactory;
    ObjectFactory m_hostFactory;
    uint16_t m_nextLid;
    std::vector<Link> m_links;
    std::vector<Ptr<Node>> m_hosts;
};

} // namespace ns3

#endif /* IBCC_NS3_HELPER_H */
