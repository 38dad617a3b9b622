package reset_test

// Share- and streams-group reset plans against a real Apache Kafka broker, with Kafka's
// own kafka-share-groups.sh (ShareGroupCommand) and kafka-streams-groups.sh
// (StreamsGroupCommand) --reset-offsets --dry-run as the oracles. They skip, naming the
// Kafka version, where the broker or its tool has no such reset.

import (
	"context"
	"fmt"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/offsettui/offsettui/internal/model"
	"github.com/offsettui/offsettui/internal/model/plan"
	"github.com/offsettui/offsettui/internal/testsupport/realkafka"
	"github.com/offsettui/offsettui/internal/text"
)

// typedCase is one tool call (one group) and the offsettui plan it must agree with.
type typedCase struct {
	name  string
	kind  plan.StrategyKind
	value string
	scope []string // offsettui's scope flags: --all-topics, or --topic values
	group string
}

// toolFlags renders the case in a tool's flags; streams tools name the scope
// --all-input-topics / --input-topic.
func (c typedCase) toolFlags(streams bool) []string {
	flags := []string{c.kind.Flag()}
	if c.kind.TakesValue() {
		flags = append(flags, c.value)
	}
	for _, f := range c.scope {
		switch {
		case streams && f == "--all-topics":
			f = "--all-input-topics"
		case streams && f == "--topic":
			f = "--input-topic"
		}
		flags = append(flags, f)
	}
	return flags
}

func (c typedCase) parity() parityCase {
	return parityCase{name: c.name, kind: c.kind, value: c.value, scope: c.scope, groups: []string{c.group}}
}

// runTypedParity runs every case through Kafka's tool main and through offsettui's
// planner and compares the rows, counting them in tally. refused, when set, says
// whether the tool refused a case outright (an "Error:" line and no rows); offsettui must
// then block the plan with blocker kind refusal.
func runTypedParity(t *testing.T, addr, main string, cases []typedCase, refusal plan.BlockerKind, refused func(string) bool) {
	t.Helper()
	svc := realService(t, addr)
	tally := realkafka.NewTally(t, main[strings.LastIndex(main, ".")+1:]+" --reset-offsets --dry-run parity")
	streams := main == realkafka.StreamsGroupCommand
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			tally := tally.For(t)
			want, out := realkafka.ResetDryRunWith(t, main, addr, c.toolFlags(streams), c.group)
			pc := c.parity()
			p, err := svc.Plan(context.Background(), c.group, pc.offsettuiScope(t), pc.strategy(t))
			if err != nil {
				t.Fatalf("plan: %v", err)
			}
			if refused != nil && refused(out) {
				blocked := false
				for _, b := range p.Blockers {
					blocked = blocked || b.Kind == refusal
				}
				tally.Eq(c.name+": refused", fmt.Sprint(blocked), "true")
				return
			}
			got := map[model.TP]int64{}
			for _, r := range p.Rows {
				if r.Target != nil {
					got[r.TP()] = *r.Target
				}
			}
			for tp := range mergeKeys(got, want[c.group]) {
				o, inO := got[tp]
				k, inK := want[c.group][tp]
				tally.Eq(fmt.Sprintf("%s %s %s", c.name, c.group, tp), fmt.Sprint(o, inO), fmt.Sprint(k, inK))
			}
			checkBlockers(t, c.group, p, len(want[c.group]) == 0, false)
		})
	}
}

// TestRealKafkaShareResetParity: for every strategy kafka-share-groups.sh --reset-offsets
// has on the version under test (4.2, 4.3: to-earliest, to-latest, to-datetime; 4.4: also
// to-offset, to-current, from-file) and the --all-topics and --topic scopes, offsettui's
// plan of an Empty share group has the tool's rows and targets: clamping at both ends, a
// start offset below the log start, a partition without a start offset, an empty
// partition, timestamps between, before and after every record.
func TestRealKafkaShareResetParity(t *testing.T) {
	addr := realkafka.Addr(t)
	realkafka.NeedShareGroups(t, addr)
	if !realkafka.AtLeast(4, 2) {
		t.Skipf("kafka-share-groups.sh of Kafka %s has no --reset-offsets (4.2+): no oracle for share-group reset plans; skipped", realkafka.Version())
	}
	s := realkafka.NewSeed(t, addr)
	a := realkafka.Name("share-reset")
	s.CreateTopic(a, 3, nil)
	now := time.Now().Truncate(time.Second)
	t0 := now.Add(-3 * time.Hour)
	s.Produce(a, 0, every(t0, time.Minute, 10)...) // a-0 [2,10) after DeleteRecords
	s.Produce(a, 1, every(now.Add(-time.Hour), time.Minute, 6)...)
	if err := s.DeleteRecords(a, 0, 2); err != nil { // a-2 stays empty
		t.Fatal(err)
	}
	gA, gB := realkafka.Name("share-a"), realkafka.Name("share-b")
	s.ShareStartOffsets(gA, map[model.TP]int64{tpOf(a, 0): 5, tpOf(a, 1): 6})
	s.ShareStartOffsets(gB, map[model.TP]int64{tpOf(a, 0): 0, tpOf(a, 2): 0})
	file := filepath.Join(t.TempDir(), "share.csv")
	writeFile(t, file, fmt.Sprintf("%[1]s,0,7\n%[1]s,1,100\n%[1]s,2,0\n", a))

	type st struct {
		kind         plan.StrategyKind
		label, value string
	}
	strategies := []st{{kind: plan.ToEarliest, label: "", value: ""}, {kind: plan.ToLatest, label: "", value: ""},
		{kind: plan.ToDatetime, label: "between", value: kafkaDatetime(t0.Add(210 * time.Second))},
		{kind: plan.ToDatetime, label: "before-all", value: kafkaDatetime(t0.Add(-time.Hour))},
		{kind: plan.ToDatetime, label: "after-all", value: kafkaDatetime(now.Add(time.Hour))}}
	if realkafka.AtLeast(4, 4) {
		strategies = append(strategies, st{kind: plan.ToOffset, label: "4", value: "4"}, st{kind: plan.ToOffset, label: "0", value: "0"},
			st{kind: plan.ToOffset, label: "100", value: "100"}, st{kind: plan.ToCurrent, label: "", value: ""})
	} else {
		t.Logf("kafka-share-groups.sh of Kafka %s has no --to-offset, --to-current, --from-file (4.4+): those cases are not compared", realkafka.Version())
	}
	var cases []typedCase
	for _, sc := range []struct {
		name  string
		flags []string
		group string
	}{{"all-topics", []string{"--all-topics"}, gA}, {"topic-partitions", []string{"--topic", a + ":0,2"}, gA},
		{"all-topics/b", []string{"--all-topics"}, gB}} {
		for _, x := range strategies {
			name := string(x.kind)
			if x.label != "" {
				name += "=" + x.label
			}
			cases = append(cases, typedCase{name: name + "/" + sc.name, kind: x.kind, value: x.value, scope: sc.flags, group: sc.group})
		}
	}
	if realkafka.AtLeast(4, 4) {
		cases = append(cases, typedCase{name: "from-file", kind: plan.FromFile, value: file, scope: nil, group: gA}, typedCase{name: "from-file/b", kind: plan.FromFile, value: file, scope: nil, group: gB})
	}
	runTypedParity(t, addr, realkafka.ShareGroupCommand, cases, "", nil)
}

// TestRealKafkaStreamsResetParity: for every strategy kafka-streams-groups.sh
// --reset-offsets has and the --all-input-topics and --input-topic scopes, offsettui's
// plan of an Empty streams group (made by running the tiny Streams app, then stopping
// it) has the tool's rows and targets; where the tool refuses (--input-topic naming a
// partition the group has no commit on) offsettui blocks the plan (not-in-group).
func TestRealKafkaStreamsResetParity(t *testing.T) {
	addr := realkafka.Addr(t)
	realkafka.NeedStreamsGroups(t, addr)
	s := realkafka.NewSeed(t, addr)
	in, out, app := realkafka.Name("sreset-in"), realkafka.Name("sreset-out"), realkafka.Name("sreset-app")
	s.CreateTopic(in, 3, nil)
	s.CreateTopic(out, 3, nil)
	now := time.Now().Truncate(time.Second)
	t0 := now.Add(-3 * time.Hour)
	s.Produce(in, 0, every(t0, time.Minute, 7)...)
	s.Produce(in, 1, every(now.Add(-time.Hour), time.Minute, 3)...) // in-2 stays empty: never committed
	stop := realkafka.StreamsApp(t, addr, app, in, out)
	c := realService(t, addr)
	realkafka.WaitUntil(t, 120*time.Second, "the streams app committed both partitions", func() (bool, string) {
		p, err := c.Plan(context.Background(), app, plan.Scope{AllTopics: true}, plan.Strategy{Kind: plan.ToCurrent})
		if err != nil {
			return false, err.Error()
		}
		cur := map[string]string{}
		for _, r := range p.Rows {
			cur[r.TP().String()] = text.Num(r.Committed)
		}
		return cur[in+"-0"] == "7" && cur[in+"-1"] == "3", fmt.Sprint(cur)
	})
	stop()
	// A close that ran out under load leaves the group Stable until its member times out.
	realkafka.WaitUntil(t, 60*time.Second, app+" Empty after the app stopped", func() (bool, string) {
		p, err := c.Plan(context.Background(), app, plan.Scope{AllTopics: true}, plan.Strategy{Kind: plan.ToCurrent})
		if err != nil {
			return false, err.Error()
		}
		return !slices.ContainsFunc(p.Blockers, func(b plan.Blocker) bool { return b.Kind == plan.BlockGroupNotEmpty }),
			fmt.Sprintf("blockers %+v", p.Blockers)
	})
	s.Produce(in, 0, every(now.Add(-10*time.Minute), time.Minute, 5)...) // in-0 [0,12): lag 5
	if err := s.DeleteRecords(in, 1, 2); err != nil {                    // in-1 [2,3)
		t.Fatal(err)
	}
	file := filepath.Join(t.TempDir(), "streams.csv")
	writeFile(t, file, fmt.Sprintf("%[1]s,0,9\n%[1]s,1,0\n", in))

	var cases []typedCase
	for _, sc := range []struct {
		name  string
		flags []string
	}{{"all-topics", []string{"--all-topics"}}, {"topic-partitions", []string{"--topic", in + ":0,1"}}} {
		for _, x := range []struct {
			kind         plan.StrategyKind
			label, value string
		}{
			{plan.ToEarliest, "", ""}, {plan.ToLatest, "", ""}, {plan.ToCurrent, "", ""},
			{plan.ToOffset, "5", "5"}, {plan.ToOffset, "0", "0"}, {plan.ToOffset, "100", "100"},
			{plan.ShiftBy, "-3", "-3"}, {plan.ShiftBy, "-100", "-100"}, {plan.ShiftBy, "100", "100"},
			{plan.ToDatetime, "between", kafkaDatetime(t0.Add(150 * time.Second))},
			{plan.ByDuration, "PT30M", "PT30M"},
		} {
			name := string(x.kind)
			if x.label != "" {
				name += "=" + x.label
			}
			cases = append(cases, typedCase{name: name + "/" + sc.name, kind: x.kind, value: x.value, scope: sc.flags, group: app})
		}
	}
	cases = append(cases, typedCase{name: "from-file", kind: plan.FromFile, value: file, scope: nil, group: app},
		typedCase{name: "to-earliest/topic-with-uncommitted-partition", kind: plan.ToEarliest, value: "", scope: []string{"--topic", in}, group: app})
	runTypedParity(t, addr, realkafka.StreamsGroupCommand, cases, plan.BlockNotInGroup, func(out string) bool {
		return strings.Contains(out, "are not part of the group")
	})
}
