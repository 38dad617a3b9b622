package model

import (
	"fmt"
	"strings"
	"testing"
)

func TestGroupSubscriptions(t *testing.T) {
	sub := func(topics ...string) *Subscription { return &Subscription{Topics: topics} }
	member := func(s *Subscription) Member { return Member{Subscription: s} }
	regex := func(re string, topics ...string) *Subscription { return &Subscription{Topics: topics, Regex: Ptr(re)} }
	topo := &Topology{Subtopologies: []Subtopology{
		{ID: "0", SourceTopics: []string{"in"}},
		{ID: "1", RepartitionSourceTopics: []string{"app-repartition"}},
	}}
	// Each case: the group, then "topic=has" for the topics asked, or "unknown".
	for _, c := range []struct {
		name string
		g    Group
		want string
	}{
		{"classic simple group (no protocol type)", Group{Type: TypeClassic, State: "Empty", Members: []Member{}}, "a=false"},
		{"classic without a protocol type, with members", Group{Type: TypeClassic, State: "Stable",
			Members: []Member{member(sub("a"))}}, "unknown"},
		{"classic Empty", Group{Type: TypeClassic, State: "Empty", ProtocolType: "consumer", Members: []Member{}}, "a=false"},
		{"classic Stable", Group{Type: TypeClassic, State: "Stable", ProtocolType: "consumer",
			Members: []Member{member(sub("a")), member(sub("b", "a"))}}, "a=true b=true c=false"},
		{"classic Stable, a member's metadata unread", Group{Type: TypeClassic, State: "Stable", ProtocolType: "consumer",
			Members: []Member{member(sub("a")), member(nil)}}, "unknown"},
		{"classic rebalancing", Group{Type: TypeClassic, State: "PreparingRebalance", ProtocolType: "consumer",
			Members: []Member{member(sub("a"))}}, "unknown"},
		{"classic connect", Group{Type: TypeClassic, State: "Stable", ProtocolType: "connect",
			Members: []Member{member(sub("a"))}}, "unknown"},
		{"classic Stable with a regex (not the classic protocol's)", Group{Type: TypeClassic, State: "Stable", ProtocolType: "consumer",
			Members: []Member{member(regex("a.*"))}}, "unknown"},
		{"not described", Group{Type: TypeClassic, State: "Stable", ProtocolType: "consumer"}, "unknown"},
		{"consumer Empty", Group{Type: TypeConsumer, State: "Empty", Members: []Member{}}, "a=false"},
		{"consumer names and a regex", Group{Type: TypeConsumer, State: "Reconciling",
			Members: []Member{member(sub("x")), member(regex("orders-.*|audit", "y"))}},
			"x=true y=true orders-eu=true audit=true audit2=false my-orders-eu=false z=false"},
		{"consumer regex that does not compile", Group{Type: TypeConsumer, State: "Stable",
			Members: []Member{member(regex("orders-(eu"))}}, "unknown"},
		{"streams", Group{Type: TypeStreams, State: "Stable", Members: []Member{{}}, Topology: topo},
			"in=true app-repartition=true out=false"},
		{"streams Empty", Group{Type: TypeStreams, State: "Empty", Members: []Member{}, Topology: topo}, "in=false"},
		{"streams without a topology", Group{Type: TypeStreams, State: "NotReady", Members: []Member{{}}}, "unknown"},
		{"streams with a pattern source", Group{Type: TypeStreams, State: "Stable", Members: []Member{{}},
			Topology: &Topology{Subtopologies: []Subtopology{{ID: "0"}}}}, "unknown"},
		{"share", Group{Type: TypeShare, State: "Stable", Members: []Member{member(sub("a"))}}, "unknown"},
	} {
		s := c.g.Subscriptions()
		got := "unknown"
		if s.Known {
			var fields []string
			for _, f := range strings.Fields(c.want) {
				topic, _, _ := strings.Cut(f, "=")
				fields = append(fields, fmt.Sprintf("%s=%v", topic, s.Has(topic)))
			}
			got = strings.Join(fields, " ")
		}
		if got != c.want {
			t.Errorf("%s: %s, want %s", c.name, got, c.want)
		}
	}
}
