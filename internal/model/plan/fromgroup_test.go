package plan

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/offsettui/offsettui/internal/model"
)

func tp(topic string, p int32) model.TP { return model.TP{Topic: topic, Partition: p} }

// The source of every from-group test: a commit below orders-1's log start (40), one
// above ahead-0's high (20), one in range on orders-2 (which the group lacks), and none
// on orders-0 (which the group has).
func source() SourceGroup {
	return SourceGroup{Group: "src", Exists: true, Type: model.TypeConsumer,
		Committed: map[model.TP]int64{tp("orders", 1): 5, tp("orders", 2): 70, tp("ahead", 0): 99}}
}

// TestFromGroupTargets: the source's commits clamped as Kafka's --from-file clamps, a
// partition the source lacks is a row without a target that is not written, and the
// scope chooses the rows (none: the source's partitions; --all-topics: the group's and
// the source's; --topic: those partitions).
func TestFromGroupTargets(t *testing.T) {
	st := FromGroupStrategy(source())
	cases := []struct {
		name  string
		scope Scope
		want  []rowWant
	}{
		{"no scope", Scope{}, []rowWant{
			{"ahead-0", 20, ReasonClampedToHigh, 0, 0, 0},
			{"orders-1", 40, ReasonClampedToLow, 0, 0, 30},
			{"orders-2", 70, ReasonAsRequested, 30, 0, 0},
		}},
		{"all topics", Scope{AllTopics: true}, []rowWant{
			{"ahead-0", 20, ReasonClampedToHigh, 0, 0, 0},
			{"orders-0", -1, ReasonNoSourceCommit, 0, 0, 0},
			{"orders-1", 40, ReasonClampedToLow, 0, 0, 30},
			{"orders-2", 70, ReasonAsRequested, 30, 0, 0},
		}},
		{"one topic", Scope{Topics: []TopicScope{{Topic: "orders", Partitions: []int32{0, 2}}}}, []rowWant{
			{"orders-0", -1, ReasonNoSourceCommit, 0, 0, 0},
			{"orders-2", 70, ReasonAsRequested, 30, 0, 0},
		}},
	}
	for _, c := range cases {
		p := Make(c.scope, st, fixture())
		if !p.Executable() || len(p.Rows) != len(c.want) {
			t.Fatalf("%s: blockers %+v rows %+v", c.name, p.Blockers, p.Rows)
		}
		for i, w := range c.want {
			w.check(t, c.name, p.Rows[i])
		}
		commit, del := p.Commits()
		if _, ok := commit[tp("orders", 0)]; ok || len(del) > 0 {
			t.Errorf("%s: commits %v deletes %v: a row without a source commit is written", c.name, commit, del)
		}
		for _, r := range p.BackupRows() {
			if r.TP() == tp("orders", 0) {
				t.Errorf("%s: the backup holds orders-0, which the plan does not write", c.name)
			}
		}
	}
}

// TestFromGroupRefusals: a source no broker lists, one of another type, and one with no
// commit in scope are blockers; copying into a group that does not exist creates it and
// says so; classic and consumer groups copy into each other.
func TestFromGroupRefusals(t *testing.T) {
	gone := source()
	gone.Exists, gone.Committed = false, nil
	share := source()
	share.Type = model.TypeShare
	classic := source()
	classic.Type = model.TypeClassic
	newGroup := fixture()
	newGroup.GroupExists, newGroup.State, newGroup.Committed = false, "", map[model.TP]int64{}
	newGroup.NewGroup = NewGroupCopy
	streams := fixture()
	streams.Type = model.TypeStreams
	cases := []struct {
		name  string
		src   SourceGroup
		in    Input
		scope Scope
		want  BlockerKind // "" = executable
	}{
		{"source not listed", gone, fixture(), Scope{}, BlockSourceNotFound},
		{"share into consumer", share, fixture(), Scope{}, BlockSourceType},
		{"consumer into streams", source(), streams, Scope{}, BlockSourceType},
		{"classic into consumer", classic, fixture(), Scope{}, ""},
		{"nothing in scope", source(), fixture(), Scope{Topics: []TopicScope{{Topic: "orders", Partitions: []int32{0}}}}, BlockNothingToReset},
		{"into a new group", source(), newGroup, Scope{}, ""},
	}
	for _, c := range cases {
		p := Make(c.scope, FromGroupStrategy(c.src), c.in)
		switch {
		case c.want == "" && !p.Executable():
			t.Errorf("%s: blocked by %+v", c.name, p.Blockers)
		case c.want != "" && !hasKind(p.Blockers, c.want):
			t.Errorf("%s: blockers %+v, want %s", c.name, p.Blockers, c.want)
		}
	}
	p := Make(Scope{}, FromGroupStrategy(source()), newGroup)
	if len(p.Notes) != 1 || p.Notes[0].Kind != NoteNewGroup {
		t.Errorf("copy into a new group: notes %+v, want the new-group note", p.Notes)
	}
}

// TestFromGroupResults: an untouched row is neither written nor counted, so a plan
// whose other rows read back at their targets is applied and verified.
func TestFromGroupResults(t *testing.T) {
	p := Make(Scope{AllTopics: true}, FromGroupStrategy(source()), fixture())
	readBack := map[model.TP]int64{tp("orders", 0): 50, tp("orders", 1): 40, tp("orders", 2): 70, tp("ahead", 0): 20}
	if o := p.ApplyResults(CommitAnswer{}, readBack); o != OutcomeApplied || p.Verified == nil || !*p.Verified {
		t.Fatalf("outcome %s verified %v, want applied and verified", o, p.Verified)
	}
	for _, r := range p.Rows {
		if (r.Result == WriteUntouched) != (r.TP() == tp("orders", 0)) {
			t.Errorf("%s: result %s", r.TP(), r.Result)
		}
	}
	if len(p.WrittenRows()) != 3 {
		t.Errorf("written rows %+v, want the 3 with a target", p.WrittenRows())
	}
}

func hasKind(bs []Blocker, k BlockerKind) bool {
	for _, b := range bs {
		if b.Kind == k {
			return true
		}
	}
	return false
}

// TestCopiesFromAndSourceIsGroup: the rules a front end applies before planning a copy —
// which group types copy from which (the one sourceBlockers applies), and a source that
// is the group itself (bad input).
func TestCopiesFromAndSourceIsGroup(t *testing.T) {
	for _, c := range []struct {
		target, source string
		want           bool
	}{
		{model.TypeClassic, model.TypeConsumer, true},
		{model.TypeConsumer, model.TypeClassic, true},
		{"", model.TypeClassic, true}, // a group that does not exist becomes a classic one
		{model.TypeShare, model.TypeShare, true},
		{model.TypeStreams, model.TypeStreams, true},
		{model.TypeClassic, model.TypeShare, false},
		{model.TypeStreams, model.TypeConsumer, false},
		{model.TypeShare, model.TypeStreams, false},
	} {
		if got := CopiesFrom(c.target, c.source); got != c.want {
			t.Errorf("CopiesFrom(%q, %q) = %v, want %v", c.target, c.source, got, c.want)
		}
	}
	if err := SourceIsGroup("billing", " billing "); err == nil || !strings.Contains(err.Error(), "--from-group billing names the group being reset") {
		t.Errorf("SourceIsGroup(billing, billing) = %v", err)
	}
	if err := SourceIsGroup("billing", "billing-v2"); err != nil {
		t.Errorf("SourceIsGroup(billing, billing-v2) = %v", err)
	}
}

// The delete commands take no value: their strategy's JSON value is null (docs/json.md).
func TestDeleteStrategiesJSON(t *testing.T) {
	for _, st := range []Strategy{DeleteOffsetsStrategy(), DeleteGroupStrategy()} {
		b, err := json.Marshal(st)
		if want := `{"name":"` + string(st.Kind) + `","value":null}`; err != nil || string(b) != want {
			t.Errorf("%s: %s (%v), want %s", st.Kind, b, err, want)
		}
	}
}
