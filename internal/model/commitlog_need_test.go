package model

import (
	"fmt"
	"testing"
)

// A one-shot snapshot reads of a group's records only what its answer uses: the commit
// times of the partitions that may expire in its state, a classic group's Empty record, and
// the recent commits of a classic group without members; nothing for a Stable group whose
// committed topics are all subscribed, one rebalancing, a share group or one not described.
func TestCommitLogNeed(t *testing.T) {
	member := func(topics ...string) Member { return Member{Subscription: &Subscription{Topics: topics}} }
	regex := func(re string) Member { return Member{Subscription: &Subscription{Regex: &re}} }
	committed := map[TP]int64{{Topic: "a"}: 1, {Topic: "a", Partition: 1}: 1, {Topic: "b"}: 1}
	all := "[a-0 a-1 b-0]"
	for _, c := range []struct {
		name   string
		g      GroupObservation
		topics []string
		want   string
	}{
		{"classic Stable, every topic subscribed", GroupObservation{Type: TypeClassic, State: "Stable", ProtocolType: "consumer",
			Members: []Member{member("a"), member("b")}, Committed: committed}, nil, "{[] false false}"},
		{"classic Stable, b unsubscribed", GroupObservation{Type: TypeClassic, State: "Stable", ProtocolType: "consumer",
			Members: []Member{member("a")}, Committed: committed}, nil, "{[b-0] false false}"},
		{"classic rebalancing", GroupObservation{Type: TypeClassic, State: "PreparingRebalance", ProtocolType: "consumer",
			Members: []Member{{}}, Committed: committed}, nil, "{[] false false}"},
		{"classic Empty, had members", GroupObservation{Type: TypeClassic, State: "Empty", ProtocolType: "consumer",
			Committed: committed}, nil, "{" + all + " true true}"},
		{"classic Empty, with --topic b", GroupObservation{Type: TypeClassic, State: "Empty", ProtocolType: "consumer",
			Committed: committed}, []string{"b"}, "{[b-0] true true}"},
		{"simple group (commits only)", GroupObservation{Type: TypeClassic, State: "Empty", Committed: committed}, nil, "{" + all + " false true}"},
		{"consumer protocol Empty", GroupObservation{Type: TypeConsumer, State: "Empty", Committed: committed}, nil, "{" + all + " false false}"},
		{"consumer protocol Stable, a regex covers every topic", GroupObservation{Type: TypeConsumer, State: "Stable",
			Members: []Member{regex("a|b")}, Committed: committed}, nil, "{[] false false}"},
		{"consumer protocol Stable, b unsubscribed", GroupObservation{Type: TypeConsumer, State: "Stable",
			Members: []Member{member("a")}, Committed: committed}, nil, "{[b-0] false false}"},
		{"streams Empty", GroupObservation{Type: TypeStreams, State: "Empty", Committed: committed}, nil, "{" + all + " false false}"},
		{"share", GroupObservation{Type: TypeShare, State: "Empty", StartOffsets: committed}, nil, "{[] false false}"},
		{"unknown type", GroupObservation{Type: TypeUnknown, Committed: committed}, nil, "{[] false false}"},
		{"not described", GroupObservation{Type: TypeClassic, State: "Empty", Committed: committed, DescribeError: &Error{}}, nil, "{[] false false}"},
		{"no commits", GroupObservation{Type: TypeClassic, State: "Empty", ProtocolType: "consumer"}, nil, "{[] false false}"},
	} {
		t.Run(c.name, func(t *testing.T) {
			n := c.g.CommitLogNeed(c.topics)
			got := fmt.Sprintf("{%v %v %v}", n.Commits, n.Classic, n.History)
			if n.Commits == nil {
				got = fmt.Sprintf("{[] %v %v}", n.Classic, n.History)
			}
			if got != c.want {
				t.Errorf("need %s, want %s", got, c.want)
			}
			if n.None() != (c.want == "{[] false false}") {
				t.Errorf("None() = %v for %s", n.None(), got)
			}
		})
	}
}
