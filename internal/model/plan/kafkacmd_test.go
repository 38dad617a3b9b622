package plan

import (
	"strings"
	"testing"

	"github.com/offsettui/offsettui/internal/model"
)

// TestKafkaEquivalent: each kind of plan names its type's tool and says with a flag, or
// with --from-file and the CSV, what the plan does, and where Kafka's tool differs.
func TestKafkaEquivalent(t *testing.T) {
	streams := fixture()
	streams.Type = model.TypeStreams
	share := fixture()
	share.Type = model.TypeShare
	restore := Strategy{Kind: Restore, Raw: "b.csv", File: []CSVRow{{Topic: "orders", Partition: 0, Offset: model.Ptr(int64(7))}, {Topic: "orders", Partition: 2}}}
	cases := []struct {
		name            string
		p               Plan
		command, csv    string
		differsContains string
	}{
		{"to-offset", Make(Scope{Topics: []TopicScope{{Topic: "orders", Partitions: []int32{0, 2}}}}, mustStrategy(t, ToOffset, "5"), fixture()),
			"kafka-consumer-groups.sh --bootstrap-server BOOTSTRAP --reset-offsets --group g --to-offset 5 --topic orders:0,2 --execute", "", "backup"},
		{"streams", Make(Scope{Topics: []TopicScope{{Topic: "orders", Partitions: []int32{0}}}}, mustStrategy(t, ToEarliest, ""), streams),
			"kafka-streams-groups.sh --bootstrap-server BOOTSTRAP --reset-offsets --group g --to-earliest --input-topic orders:0 --execute", "", "backup"},
		{"from-group", Make(Scope{}, FromGroupStrategy(source()), fixture()),
			"kafka-consumer-groups.sh --bootstrap-server BOOTSTRAP --reset-offsets --group g --from-file offsets.csv --execute",
			"ahead,0,20\norders,1,40\norders,2,70\n", "no --from-group"},
		{"restore", Make(Scope{}, restore, fixture()),
			"kafka-consumer-groups.sh --bootstrap-server BOOTSTRAP --reset-offsets --group g --from-file offsets.csv --execute",
			"orders,0,7\n", "--delete-offsets"},
		{"delete-offsets", Make(Scope{Topics: []TopicScope{{Topic: "orders"}}}, DeleteOffsetsStrategy(), fixture()),
			"kafka-consumer-groups.sh --bootstrap-server BOOTSTRAP --delete-offsets --group g --topic orders:0,1", "", "exits 0"},
		{"share delete-offsets", Make(Scope{Topics: []TopicScope{{Topic: "orders"}}}, DeleteOffsetsStrategy(), share),
			"kafka-share-groups.sh --bootstrap-server BOOTSTRAP --delete-offsets --group g --topic orders", "", "NON_EMPTY_GROUP"},
		{"streams delete-offsets", Make(Scope{Topics: []TopicScope{{Topic: "orders"}}}, DeleteOffsetsStrategy(), streams),
			"kafka-streams-groups.sh --bootstrap-server BOOTSTRAP --delete-offsets --group g --input-topic orders:0,1", "", "exits 0"},
		{"streams delete-group", Make(DeleteGroupScope, DeleteGroupStrategy(), streams),
			"kafka-streams-groups.sh --bootstrap-server BOOTSTRAP --delete --group g", "", "internal topics"},
	}
	for _, c := range cases {
		e := c.p.KafkaEquivalent
		if e == nil || e.Command != c.command || e.CSV != c.csv || !strings.Contains(strings.Join(e.Differs, "\n"), c.differsContains) {
			t.Errorf("%s: %+v\nwant command %q csv %q differs with %q", c.name, e, c.command, c.csv, c.differsContains)
		}
	}
	unknown := fixture()
	unknown.Type = model.TypeUnknown
	if e := Make(Scope{AllTopics: true}, mustStrategy(t, ToEarliest, ""), unknown).KafkaEquivalent; e != nil {
		t.Errorf("unknown type: %+v, want none", e)
	}
}
