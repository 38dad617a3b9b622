package check

import (
	"strings"

	"github.com/offsettui/offsettui/internal/model"
)

// CodeCannotAsk is a question the brokers cannot be asked (their ApiVersions lack the request):
// a problem when the group's proof needs it, else a note naming what the cluster cannot say.
const CodeCannotAsk = "cannot-ask"

// typeNeeds is the capability each group type is read with (docs/kafka.md "Groups").
var typeNeeds = map[string]string{
	model.TypeConsumer: model.CapabilityConsumerGroups,
	model.TypeShare:    model.CapabilityShareGroups,
	model.TypeStreams:  model.CapabilityStreamsGroups,
}

// capabilities makes a PASS never rest on a question the brokers could not be asked: a group
// whose type's describe they lack, and a group that may be a consumer-protocol group they run
// but cannot describe (listed without a type, no members, Dead by DescribeGroups), are
// incomplete. What else they cannot be asked does not touch the proof (describe says it).
func (r *Result) capabilities(c model.Cluster, g model.Group, p *problems) {
	for _, cp := range c.Capabilities {
		switch {
		case typeNeeds[g.Type] == cp.Missing:
			p.add(CodeCannotAsk, "the brokers cannot be asked "+cp.API+" ("+cp.Missing+"), which reads this "+g.Type+" group: "+cp.Consequence, nil)
		case cp.Missing == model.CapabilityConsumerGroups && mayBeUndescribedConsumerGroup(c, g):
			p.add(CodeCannotAsk, "group "+g.Group+" is Dead with no members by DescribeGroups, as a consumer-protocol group reads there: "+cp.Consequence, nil)
		}
	}
}

// mayBeUndescribedConsumerGroup: the brokers run consumer-protocol groups they cannot describe
// (ConsumerGroupHeartbeat without ConsumerGroupDescribe, Kafka 3.7), list groups without types,
// and describe g as a Dead classic group without members, which is what DescribeGroups says of
// a group of another protocol.
func mayBeUndescribedConsumerGroup(c model.Cluster, g model.Group) bool {
	return g.Type == model.TypeClassic && g.State == "Dead" && len(g.Members) == 0 &&
		model.MissingCapability(c.Capabilities, model.CapabilityListTypeFilter) &&
		strings.Contains(capabilityConsequence(c, model.CapabilityConsumerGroups), "ConsumerGroupHeartbeat")
}

func capabilityConsequence(c model.Cluster, id string) string {
	for _, cp := range c.Capabilities {
		if cp.Missing == id {
			return cp.Consequence
		}
	}
	return ""
}
