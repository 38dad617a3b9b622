package plan

import (
	"strings"
	"testing"

	"github.com/offsettui/offsettui/internal/model"
)

// toolFixture is fixture() read on a cluster Kafka's tool reaches at kafka-1:9092,kafka-2:9092.
func toolFixture() Input {
	in := fixture()
	in.Tool = ToolConnection{Bootstrap: "kafka-1:9092,kafka-2:9092"}
	return in
}

// TestKafkaEquivalent: each kind of plan names its type's tool on the plan's cluster and says
// with a flag (its value in the form Kafka's tool reads), or with --from-file and the CSV,
// what the plan does; a reset has its dry run beside it, a delete none; and where Kafka's
// tool differs.
func TestKafkaEquivalent(t *testing.T) {
	streams := toolFixture()
	streams.Type = model.TypeStreams
	share := toolFixture()
	share.Type = model.TypeShare
	restore := Strategy{Kind: Restore, Raw: "b.csv", File: []CSVRow{{Topic: "orders", Partition: 0, Offset: model.Ptr(int64(7))}, {Topic: "orders", Partition: 2}}}
	const cg = "kafka-consumer-groups.sh --bootstrap-server kafka-1:9092,kafka-2:9092 "
	orders02 := Scope{Topics: []TopicScope{{Topic: "orders", Partitions: []int32{0, 2}}}}
	cases := []struct {
		name            string
		p               Plan
		command, csv    string
		dryRun          bool
		differsContains string
	}{
		{"to-offset", Make(orders02, mustStrategy(t, ToOffset, " +5"), toolFixture()),
			cg + "--reset-offsets --group g --to-offset 5 --topic orders:0,2 --execute", "", true, "backup"},
		{"shift-by", Make(orders02, mustStrategy(t, ShiftBy, "-3"), toolFixture()),
			cg + "--reset-offsets --group g --shift-by -3 --topic orders:0,2 --execute", "", true, "backup"},
		{"by-duration in Go's form", Make(orders02, mustStrategy(t, ByDuration, "1h"), toolFixture()),
			cg + "--reset-offsets --group g --by-duration PT1H --topic orders:0,2 --execute", "", true,
			"counts PT1H back from when it runs, this plan from when it was made: its targets are those of --to-datetime 2026-11-29T07:00:00.000Z"},
		{"by-duration in days", Make(orders02, mustStrategy(t, ByDuration, "6d23h"), toolFixture()),
			cg + "--reset-offsets --group g --by-duration P6DT23H --topic orders:0,2 --execute", "", true, "backup"},
		{"to-datetime in RFC 3339 with a zone", Make(orders02, mustStrategy(t, ToDatetime, "2026-11-29T09:30:00+01:00"), toolFixture()),
			cg + "--reset-offsets --group g --to-datetime 2026-11-29T08:30:00.000Z --topic orders:0,2 --execute", "", true, "backup"},
		{"to-current", Make(orders02, mustStrategy(t, ToCurrent, ""), toolFixture()),
			cg + "--reset-offsets --group g --to-current --topic orders:0,2 --execute", "", true, "backup"},
		{"from-file", Make(Scope{}, mustFile(t, FromFile, "orders,1,60\n"), toolFixture()),
			cg + "--reset-offsets --group g --from-file plan.csv --execute", "", true, "backup"},
		{"streams", Make(Scope{Topics: []TopicScope{{Topic: "orders", Partitions: []int32{0}}}}, mustStrategy(t, ToEarliest, ""), streams),
			"kafka-streams-groups.sh --bootstrap-server kafka-1:9092,kafka-2:9092 --reset-offsets --group g --to-earliest --input-topic orders:0 --execute", "", true, "backup"},
		{"from-group", Make(Scope{}, FromGroupStrategy(source()), toolFixture()),
			cg + "--reset-offsets --group g --from-file offsets.csv --execute",
			"ahead,0,20\norders,1,40\norders,2,70\n", true, "no --from-group"},
		{"restore", Make(Scope{}, restore, toolFixture()),
			cg + "--reset-offsets --group g --from-file offsets.csv --execute",
			"orders,0,7\n", true, "--delete-offsets"},
		{"delete-offsets", Make(Scope{Topics: []TopicScope{{Topic: "orders"}}}, DeleteOffsetsStrategy(), toolFixture()),
			cg + "--delete-offsets --group g --topic orders:0,1", "", false, "ignores --dry-run and deletes"},
		{"delete-group", Make(DeleteGroupScope, DeleteGroupStrategy(), toolFixture()),
			cg + "--delete --group g", "", false, "ignores --dry-run and deletes the group"},
		{"share delete-offsets", Make(Scope{Topics: []TopicScope{{Topic: "orders"}}}, DeleteOffsetsStrategy(), share),
			"kafka-share-groups.sh --bootstrap-server kafka-1:9092,kafka-2:9092 --delete-offsets --group g --topic orders", "", false, "NON_EMPTY_GROUP"},
		{"streams delete-offsets", Make(Scope{Topics: []TopicScope{{Topic: "orders"}}}, DeleteOffsetsStrategy(), streams),
			"kafka-streams-groups.sh --bootstrap-server kafka-1:9092,kafka-2:9092 --delete-offsets --group g --input-topic orders:0,1", "", false, "exits 0"},
		{"streams delete-group", Make(DeleteGroupScope, DeleteGroupStrategy(), streams),
			"kafka-streams-groups.sh --bootstrap-server kafka-1:9092,kafka-2:9092 --delete --group g", "", false, "internal topics"},
	}
	for _, c := range cases {
		e := c.p.KafkaEquivalent
		if e == nil || e.Command != c.command || e.CSV != c.csv || !strings.Contains(strings.Join(e.Differs, "\n"), c.differsContains) {
			t.Errorf("%s: %+v\nwant command %q csv %q differs with %q", c.name, e, c.command, c.csv, c.differsContains)
			continue
		}
		switch wantDry := strings.TrimSuffix(c.command, "--execute") + "--dry-run"; {
		case c.dryRun && (e.DryRunCommand == nil || *e.DryRunCommand != wantDry):
			t.Errorf("%s: dry run %v, want %q", c.name, e.DryRunCommand, wantDry)
		case !c.dryRun && e.DryRunCommand != nil:
			t.Errorf("%s: dry run %q, want none: Kafka's tool deletes under --dry-run", c.name, *e.DryRunCommand)
		}
	}
	unknown := toolFixture()
	unknown.Type = model.TypeUnknown
	if e := Make(Scope{AllTopics: true}, mustStrategy(t, ToEarliest, ""), unknown).KafkaEquivalent; e != nil {
		t.Errorf("unknown type: %+v, want none", e)
	}
	if e := Make(Scope{Topics: []TopicScope{{Topic: "nosuch"}}}, mustStrategy(t, ToEarliest, ""), toolFixture()).KafkaEquivalent; e != nil {
		t.Errorf("a plan without partitions: %+v, want none", e)
	}
}

// TestKafkaEquivalentBlocked: a blocked plan (a live group) still names its command, so the
// operator can compare it with what the change process asks for.
func TestKafkaEquivalentBlocked(t *testing.T) {
	in := toolFixture()
	in.State = "Stable"
	in.Members = []model.Member{{}}
	p := Make(Scope{AllTopics: true}, mustStrategy(t, ToLatest, ""), in)
	if p.Executable() || p.KafkaEquivalent == nil || !strings.HasPrefix(p.KafkaEquivalent.Command, "kafka-consumer-groups.sh --bootstrap-server kafka-1:9092,kafka-2:9092 --reset-offsets") {
		t.Errorf("blockers %+v, equivalent %+v: want blocked with the command", p.Blockers, p.KafkaEquivalent)
	}
}

// TestKafkaEquivalentConnection: the command names the client properties offsettui connected
// with: the --command-config file, or client.properties and what to write into it when a
// context's properties are inline (their names, never their values); a cluster not known
// keeps a placeholder.
func TestKafkaEquivalentConnection(t *testing.T) {
	cases := []struct {
		name          string
		conn          ToolConnection
		prefix        string
		differs       string
		differsAbsent bool
	}{
		{"a file", ToolConnection{Bootstrap: "b:9093", CommandConfig: "/etc/kafka/prod client.properties"},
			"kafka-consumer-groups.sh --bootstrap-server b:9093 --command-config '/etc/kafka/prod client.properties' --reset-offsets", "client.properties", true},
		{"inline", ToolConnection{Bootstrap: "b:9093", InlineContext: "prod", InlineKeys: []string{"sasl.jaas.config", "security.protocol"}},
			"kafka-consumer-groups.sh --bootstrap-server b:9093 --command-config client.properties --reset-offsets",
			"write into client.properties context prod's inline properties (sasl.jaas.config, security.protocol), which win", false},
		{"a file and inline", ToolConnection{Bootstrap: "b:9093", CommandConfig: "/etc/kafka/base.properties", InlineContext: "prod", InlineKeys: []string{"sasl.jaas.config"}},
			"kafka-consumer-groups.sh --bootstrap-server b:9093 --command-config client.properties --reset-offsets",
			"write into client.properties the lines of /etc/kafka/base.properties, then context prod's inline properties (sasl.jaas.config), which win", false},
		{"not known", ToolConnection{}, "kafka-consumer-groups.sh --bootstrap-server BOOTSTRAP --reset-offsets", "client.properties", true},
	}
	for _, c := range cases {
		in := fixture()
		in.Tool = c.conn
		e := Make(Scope{AllTopics: true}, mustStrategy(t, ToLatest, ""), in).KafkaEquivalent
		differs := strings.Join(e.Differs, "\n")
		if !strings.HasPrefix(e.Command, c.prefix) || !strings.HasPrefix(*e.DryRunCommand, c.prefix) || strings.Contains(differs, c.differs) == c.differsAbsent {
			t.Errorf("%s: %q\n%q\ndiffers %q; want the prefix %q and differs with %q (absent: %v)", c.name, e.Command, *e.DryRunCommand, differs, c.prefix, c.differs, c.differsAbsent)
		}
	}
}
