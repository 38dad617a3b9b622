package plan

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/offsettui/offsettui/internal/model"
)

var planNow = time.Date(2026, 11, 29, 8, 0, 0, 0, time.UTC)

// fixture: an Empty group on orders (3 partitions) and ahead (1 partition).
//
//	orders-0  low 0   high 100  committed 50
//	orders-1  low 40  high 100  committed 10   (expired: 30 already lost)
//	orders-2  low 0   high 100  no commit
//	ahead-0   low 0   high 20   committed 30   (ahead)
func fixture() Input {
	wm := func(lo, hi int64) model.PartitionOffsets {
		return model.PartitionOffsets{Low: model.Ptr(lo), High: model.Ptr(hi)}
	}
	return Input{
		Group: "g", State: "Empty", GroupExists: true, AllTopicsVisible: model.Ptr(true),
		Committed:  map[model.TP]int64{{Topic: "orders", Partition: 0}: 50, {Topic: "orders", Partition: 1}: 10, {Topic: "ahead", Partition: 0}: 30},
		Partitions: map[string]int{"orders": 3, "ahead": 1},
		Offsets: map[model.TP]model.PartitionOffsets{
			{Topic: "orders", Partition: 0}: wm(0, 100), {Topic: "orders", Partition: 1}: wm(40, 100), {Topic: "orders", Partition: 2}: wm(0, 100), {Topic: "ahead", Partition: 0}: wm(0, 20),
		},
		TimeOffsets: map[model.TP]int64{{Topic: "orders", Partition: 0}: 30, {Topic: "orders", Partition: 1}: -1, {Topic: "orders", Partition: 2}: 55},
	}
}

// rowWant is a compact expected row: target (-1 = nil), reason, duplicates,
// skipped, already lost.
type rowWant struct {
	tp                    string
	target                int64
	reason                Reason
	dup, skip, alreadyLos int64
}

func (w rowWant) check(t *testing.T, name string, r Row) {
	t.Helper()
	target := int64(-1)
	if r.Target != nil {
		target = *r.Target
	}
	got := rowWant{r.TP().String(), target, r.Reason, r.Duplicates, r.Skipped, r.AlreadyLost}
	if got != w {
		t.Errorf("%s: row %+v, want %+v", name, got, w)
	}
}

func mustStrategy(t *testing.T, kind StrategyKind, v string) Strategy {
	t.Helper()
	st, err := ParseStrategy(kind, v, planNow)
	if err != nil {
		t.Fatal(err)
	}
	return st
}

func mustFile(t *testing.T, kind StrategyKind, csv string) Strategy {
	t.Helper()
	st, err := FileStrategy(kind, "plan.csv", strings.NewReader(csv))
	if err != nil {
		t.Fatal(err)
	}
	return st
}

func TestMakePlanStrategies(t *testing.T) {
	orders := Scope{Topics: []TopicScope{{Topic: "orders"}}}
	tests := []struct {
		name     string
		scope    Scope
		st       Strategy
		rows     []rowWant
		blockers []BlockerKind
	}{
		{"to-earliest", orders, mustStrategy(t, ToEarliest, ""), []rowWant{
			{"orders-0", 0, ReasonAsRequested, 50, 0, 0},
			{"orders-1", 40, ReasonAsRequested, 0, 0, 30},
			{"orders-2", 0, ReasonAsRequested, 100, 0, 0}}, nil},
		{"to-latest", orders, mustStrategy(t, ToLatest, ""), []rowWant{
			{"orders-0", 100, ReasonAsRequested, 0, 50, 0},
			{"orders-1", 100, ReasonAsRequested, 0, 60, 30},
			{"orders-2", 100, ReasonAsRequested, 0, 0, 0}}, nil},
		{"to-current", orders, mustStrategy(t, ToCurrent, ""), []rowWant{
			{"orders-0", 50, ReasonAsRequested, 0, 0, 0},
			{"orders-1", 10, ReasonAsRequested, 0, 0, 30},
			{"orders-2", 100, ReasonNoCommitToLatest, 0, 0, 0}}, nil},
		{"to-offset inside", orders, mustStrategy(t, ToOffset, "70"), []rowWant{
			{"orders-0", 70, ReasonAsRequested, 0, 20, 0},
			{"orders-1", 70, ReasonAsRequested, 0, 30, 30},
			{"orders-2", 70, ReasonAsRequested, 30, 0, 0}}, nil},
		{"to-offset above high", orders, mustStrategy(t, ToOffset, "500"), []rowWant{
			{"orders-0", 100, ReasonClampedToHigh, 0, 50, 0},
			{"orders-1", 100, ReasonClampedToHigh, 0, 60, 30},
			{"orders-2", 100, ReasonClampedToHigh, 0, 0, 0}}, nil},
		{"to-offset below low", orders, mustStrategy(t, ToOffset, "5"), []rowWant{
			{"orders-0", 5, ReasonAsRequested, 45, 0, 0},
			{"orders-1", 40, ReasonClampedToLow, 0, 0, 30},
			{"orders-2", 5, ReasonAsRequested, 95, 0, 0}}, nil},
		{"to-offset negative", orders, mustStrategy(t, ToOffset, "-1"), []rowWant{
			{"orders-0", 0, ReasonClampedToLow, 50, 0, 0},
			{"orders-1", 40, ReasonClampedToLow, 0, 0, 30},
			{"orders-2", 0, ReasonClampedToLow, 100, 0, 0}}, nil},
		{"shift-by back, clamped to low", Scope{Topics: []TopicScope{{"orders", []int32{0, 1}}}}, mustStrategy(t, ShiftBy, "-60"), []rowWant{
			{"orders-0", 0, ReasonClampedToLow, 50, 0, 0},
			{"orders-1", 40, ReasonClampedToLow, 0, 0, 30}}, nil},
		{"shift-by back", Scope{Topics: []TopicScope{{"orders", []int32{0}}}}, mustStrategy(t, ShiftBy, "-3"), []rowWant{
			{"orders-0", 47, ReasonAsRequested, 3, 0, 0}}, nil},
		{"shift-by forward, clamped to high", Scope{Topics: []TopicScope{{"orders", []int32{0}}}}, mustStrategy(t, ShiftBy, "+70"), []rowWant{
			{"orders-0", 100, ReasonClampedToHigh, 0, 50, 0}}, nil},
		{"shift-by huge does not wrap", Scope{Topics: []TopicScope{{"orders", []int32{0}}}}, mustStrategy(t, ShiftBy, "9223372036854775807"), []rowWant{
			{"orders-0", 100, ReasonClampedToHigh, 0, 50, 0}}, nil},
		{"shift-by without commit", orders, mustStrategy(t, ShiftBy, "3"), []rowWant{
			{"orders-0", 53, ReasonAsRequested, 0, 3, 0},
			{"orders-1", 40, ReasonClampedToLow, 0, 0, 30},
			{"orders-2", -1, ReasonNoCommitCannotShift, 0, 0, 0}}, []BlockerKind{BlockNoCommitCannotShift}},
		{"to-datetime", orders, mustStrategy(t, ToDatetime, "2026-11-28T00:00:00.000"), []rowWant{
			{"orders-0", 30, ReasonAsRequested, 20, 0, 0},
			{"orders-1", 100, ReasonNoRecordAfterTime, 0, 60, 30},
			{"orders-2", 55, ReasonAsRequested, 45, 0, 0}}, nil},
		{"by-duration", orders, mustStrategy(t, ByDuration, "P1D"), []rowWant{
			{"orders-0", 30, ReasonAsRequested, 20, 0, 0},
			{"orders-1", 100, ReasonNoRecordAfterTime, 0, 60, 30},
			{"orders-2", 55, ReasonAsRequested, 45, 0, 0}}, nil},
		{"from-file clamps", Scope{}, mustFile(t, FromFile, "orders,1,5\norders,0,5\norders,2,500\n"), []rowWant{
			{"orders-0", 5, ReasonAsRequested, 45, 0, 0},
			{"orders-1", 40, ReasonClampedToLow, 0, 0, 30},
			{"orders-2", 100, ReasonClampedToHigh, 0, 0, 0}}, nil},
		{"from-file group column", Scope{}, mustFile(t, FromFile, "other,orders,0,1\ng,orders,0,7\n"), []rowWant{
			{"orders-0", 7, ReasonAsRequested, 43, 0, 0}}, nil},
		{"restore unclamped, empty deletes", Scope{}, mustFile(t, Restore, "orders,0,200\norders,1,5\norders,2,\n"), []rowWant{
			{"orders-0", 200, ReasonRestore, 0, 50, 0},
			{"orders-1", 5, ReasonRestore, 0, 0, 30},
			{"orders-2", -1, ReasonRestore, 0, 0, 0}}, nil},
		{"ahead to-latest", Scope{Topics: []TopicScope{{Topic: "ahead"}}}, mustStrategy(t, ToLatest, ""), []rowWant{
			{"ahead-0", 20, ReasonAsRequested, 0, 0, 0}}, nil},
		{"ahead to-earliest", Scope{Topics: []TopicScope{{Topic: "ahead"}}}, mustStrategy(t, ToEarliest, ""), []rowWant{
			{"ahead-0", 0, ReasonAsRequested, 20, 0, 0}}, nil},
		{"all-topics = partitions with a commit", Scope{AllTopics: true}, mustStrategy(t, ToEarliest, ""), []rowWant{
			{"ahead-0", 0, ReasonAsRequested, 20, 0, 0},
			{"orders-0", 0, ReasonAsRequested, 50, 0, 0},
			{"orders-1", 40, ReasonAsRequested, 0, 0, 30}}, nil},
	}
	for _, tc := range tests {
		p := Make(tc.scope, tc.st, fixture())
		if len(p.Rows) != len(tc.rows) {
			t.Errorf("%s: %d rows, want %d: %+v", tc.name, len(p.Rows), len(tc.rows), p.Rows)
			continue
		}
		var dup, skip, lost int64
		for i, w := range tc.rows {
			w.check(t, tc.name, p.Rows[i])
			dup, skip, lost = dup+w.dup, skip+w.skip, lost+w.alreadyLos
		}
		if want := (Totals{dup, skip, lost, len(tc.rows)}); p.Totals != want {
			t.Errorf("%s: totals %+v, want %+v", tc.name, p.Totals, want)
		}
		if got := blockerKinds(p.Blockers); fmt.Sprint(got) != fmt.Sprint(tc.blockers) {
			t.Errorf("%s: blockers %v, want %v (%+v)", tc.name, got, tc.blockers, p.Blockers)
		}
	}
}

func blockerKinds(bs []Blocker) []BlockerKind {
	var out []BlockerKind
	for _, b := range bs {
		out = append(out, b.Kind)
	}
	return out
}

func TestMakePlanBlockers(t *testing.T) {
	orders := Scope{Topics: []TopicScope{{Topic: "orders"}}}
	earliest := mustStrategy(t, ToEarliest, "")
	members := []model.Member{
		{MemberRef: model.MemberRef{MemberID: "m-1", ClientID: "billing-1", Host: "/10.0.0.5"}},
		{MemberRef: model.MemberRef{MemberID: "m-2", ClientID: "billing-2", Host: "/10.0.0.6"}},
	}
	tests := []struct {
		name  string
		scope Scope
		st    Strategy
		edit  func(*Input)
		kinds []BlockerKind
		msgs  []string // substrings of the blockers' messages, in order
	}{
		{"group with live members", orders, earliest, func(in *Input) { in.State, in.Members = "Stable", members },
			[]BlockerKind{BlockGroupNotEmpty},
			[]string{"group 'g' is inactive, but the current state is Stable. Live members (2): billing-1 on /10.0.0.5, billing-2 on /10.0.0.6"}},
		{"rebalancing group", orders, earliest, func(in *Input) { in.State = "PreparingRebalance" },
			[]BlockerKind{BlockGroupNotEmpty}, []string{"current state is PreparingRebalance"}},
		{"existing group looking Dead", orders, earliest, func(in *Input) { in.State = "Dead" },
			[]BlockerKind{BlockGroupNotEmpty}, []string{"can look Dead"}},
		{"group that does not exist", orders, earliest, func(in *Input) {
			in.State, in.GroupExists, in.Committed = "Dead", false, nil
		}, []BlockerKind{BlockGroupNotFound}, []string{"group g does not exist (no broker lists it): --execute would create a new group " +
			"with these offsets. Check the name; pass --allow-new-group if a new group is what you mean"}},
		{"group that does not exist, --allow-new-group", orders, earliest, func(in *Input) {
			in.State, in.GroupExists, in.Committed, in.NewGroup = "Dead", false, nil, NewGroupAllowed
		}, nil, nil},
		{"listed as not existing yet Stable", orders, earliest, func(in *Input) {
			in.State, in.GroupExists, in.NewGroup = "Stable", false, NewGroupAllowed
		}, []BlockerKind{BlockGroupNotEmpty}, []string{"current state is Stable"}},
		{"members of a group said not to exist", orders, earliest, func(in *Input) {
			in.State, in.GroupExists, in.Members, in.NewGroup = "Dead", false, members[:1], NewGroupAllowed
		}, []BlockerKind{BlockGroupNotEmpty}, []string{"billing-1 on /10.0.0.5"}},
		{"from-file row without offset", Scope{}, Strategy{Kind: FromFile, Raw: "x.csv", File: []CSVRow{{Topic: "orders"}}}, nil,
			[]BlockerKind{BlockInvalidOffset}, []string{"x.csv has no offset for orders-0"}},
		{"read-only", orders, earliest, func(in *Input) { in.ReadOnly = true },
			[]BlockerKind{BlockReadOnly}, []string{"read-only"}},
		{"unknown topic and partition", Scope{Topics: []TopicScope{{Topic: "nope"}, {"orders", []int32{1, 7}}}}, earliest, nil,
			[]BlockerKind{BlockUnknownPartition, BlockUnknownPartition},
			[]string{"topic nope does not exist", "partition orders-7 does not exist: orders has 3 partitions (0..2)"}},
		{"unreadable watermarks", orders, earliest, func(in *Input) {
			in.Offsets[model.TP{Topic: "orders", Partition: 1}] = model.PartitionOffsets{Error: &model.Error{Kind: model.KindTimeout, Message: "no reply in 10s"}}
		}, []BlockerKind{BlockUnknownOffsets}, []string{"watermarks of orders-1 are unknown (timeout: no reply in 10s)"}},
		{"missing watermark", orders, earliest, func(in *Input) {
			in.Offsets[model.TP{Topic: "orders", Partition: 2}] = model.PartitionOffsets{Low: model.Ptr(int64(0))}
		},
			[]BlockerKind{BlockUnknownOffsets}, []string{"orders-2"}},
		{"time lookup failed", orders, mustStrategy(t, ToDatetime, "2026-11-28T00:00:00Z"), func(in *Input) { delete(in.TimeOffsets, model.TP{Topic: "orders", Partition: 0}) },
			[]BlockerKind{BlockUnknownOffsets}, []string{"offset of orders-0 for time 2026-11-28T00:00:00.000Z is unknown"}},
		{"all-topics without commits", Scope{AllTopics: true}, earliest, func(in *Input) { in.Committed = nil },
			[]BlockerKind{BlockNothingToReset}, []string{"group g has no committed offsets"}},
		{"file for another group", Scope{}, mustFile(t, FromFile, "other,orders,0,1\n"), nil,
			[]BlockerKind{BlockNothingToReset}, []string{"no reset plan for group g found in plan.csv"}},
		{"file names a missing partition", Scope{}, mustFile(t, FromFile, "orders,0,1\norders,9,1\n"), nil,
			[]BlockerKind{BlockUnknownPartition}, []string{"partition orders-9 does not exist"}},
		{"restore of a negative offset", Scope{}, mustFile(t, Restore, "orders,0,-1\n"), nil,
			[]BlockerKind{BlockInvalidOffset}, []string{"cannot be negative"}},
	}
	for _, tc := range tests {
		in := fixture()
		if tc.edit != nil {
			tc.edit(&in)
		}
		p := Make(tc.scope, tc.st, in)
		if got := blockerKinds(p.Blockers); fmt.Sprint(got) != fmt.Sprint(tc.kinds) {
			t.Errorf("%s: blockers %v, want %v (%+v)", tc.name, got, tc.kinds, p.Blockers)
			continue
		}
		for i, m := range tc.msgs {
			if !strings.Contains(p.Blockers[i].Message, m) {
				t.Errorf("%s: blocker %q lacks %q", tc.name, p.Blockers[i].Message, m)
			}
		}
		if p.Executable() != (len(tc.kinds) == 0) {
			t.Errorf("%s: Executable() = %v with blockers %v", tc.name, p.Executable(), tc.kinds)
		}
	}
}

func TestMakePlanUnreadableRowHasNoTarget(t *testing.T) {
	in := fixture()
	in.Offsets[model.TP{Topic: "orders", Partition: 0}] = model.PartitionOffsets{Error: &model.Error{Kind: model.KindDenied, Message: "denied"}}
	p := Make(Scope{Topics: []TopicScope{{"orders", []int32{0}}}}, mustStrategy(t, ToOffset, "3"), in)
	r := p.Rows[0]
	if r.Target != nil || r.Low != nil || r.High != nil || r.Reason != "" || *r.Committed != 50 {
		t.Errorf("row %+v: want committed 50 and no watermarks, target or reason", r)
	}
	if b := p.Blockers[0]; *b.Topic != "orders" || *b.Partition != 0 {
		t.Errorf("blocker %+v does not name orders-0", b)
	}
}

func TestPlanTargetTimestamp(t *testing.T) {
	in := fixture()
	ts := time.Date(2026, 11, 28, 0, 0, 1, 5e6, time.UTC)
	in.TargetTimestamps = map[model.TPO]time.Time{{TP: model.TP{Topic: "orders", Partition: 0}, Offset: 30}: ts, {TP: model.TP{Topic: "orders", Partition: 2}, Offset: 1}: ts}
	p := Make(Scope{Topics: []TopicScope{{Topic: "orders"}}}, mustStrategy(t, ToDatetime, "2026-11-28T00:00:00.000"), in)
	if p.Rows[0].TargetTimestamp == nil || !p.Rows[0].TargetTimestamp.Equal(ts) {
		t.Errorf("orders-0: targetTimestamp %v, want %v", p.Rows[0].TargetTimestamp, ts)
	}
	if p.Rows[2].TargetTimestamp != nil {
		t.Errorf("orders-2: timestamp of another offset used: %v", p.Rows[2].TargetTimestamp)
	}
}

// TestPlanJSON checks the document shape of docs/json.md's `reset -o json`.
func TestPlanJSON(t *testing.T) {
	in := Input{Group: "ship-svc", State: "Empty", GroupExists: true, ReadAt: time.Date(2026, 11, 29, 8, 53, 36, 0, time.UTC),
		Committed:  map[model.TP]int64{{Topic: "shipments", Partition: 0}: 5},
		Partitions: map[string]int{"shipments": 1},
		Offsets:    map[model.TP]model.PartitionOffsets{{Topic: "shipments", Partition: 0}: {Low: model.Ptr(int64(0)), High: model.Ptr(int64(9))}},
	}
	p := Make(Scope{Topics: []TopicScope{{Topic: "shipments"}}}, mustStrategy(t, ShiftBy, "-3"), in)
	b, err := json.Marshal(p)
	if err != nil {
		t.Fatal(err)
	}
	want := `{"group":"ship-svc","type":"classic","state":"Empty","strategy":{"name":"shift-by","value":"-3"},"assumeReset":"latest","executed":false,` +
		`"rows":[{"topic":"shipments","partition":0,"committed":5,"low":0,"high":9,"target":2,` +
		`"reason":"as-requested","duplicates":3,"skipped":0,"alreadyLost":0,"targetTimestamp":null,` +
		`"localLow":null,"readsRemote":false,"resetStart":null,"result":null,"readBack":null}],` +
		`"totals":{"duplicates":3,"skipped":0,"alreadyLost":0,"partitions":1},"blockers":[],"notes":[],` +
		`"backup":null,"undo":null,"verified":null,"rejected":[],"committer":null,"allowCommitter":false,` +
		`"kafkaEquivalent":{"command":"kafka-consumer-groups.sh --bootstrap-server BOOTSTRAP --reset-offsets --group ship-svc --shift-by -3 --topic shipments:0 --execute",` +
		`"csv":"","differs":["` + noGuards + `"]},"readAt":"2026-11-29T08:53:36.000Z","readBackAt":null}`
	if string(b) != want {
		t.Errorf("plan JSON\n got %s\nwant %s", b, want)
	}

	in.ReadOnly = true
	in.Offsets[model.TP{Topic: "shipments", Partition: 0}] = model.PartitionOffsets{}
	p = Make(Scope{Topics: []TopicScope{{Topic: "shipments"}}}, mustStrategy(t, ToEarliest, ""), in)
	b, _ = json.Marshal(p)
	for _, frag := range []string{
		`"strategy":{"name":"to-earliest","value":null}`,
		`"low":null,"high":null,"target":null,"reason":null`,
		`{"kind":"read-only","message":"read-only mode (--read-only, OFFSETTUI_READ_ONLY set to anything but empty, 0, false, no or off, or a read-only context): offsettui commits nothing","topic":null,"partition":null}`,
		`{"kind":"unknown-offsets","message":"watermarks of shipments-0 are unknown (not read); offsettui never plans with guessed offsets","topic":"shipments","partition":0}`,
	} {
		if !strings.Contains(string(b), frag) {
			t.Errorf("plan JSON %s lacks %s", b, frag)
		}
	}
	var back Plan
	if err := json.Unmarshal(b, &back); err != nil || back.Strategy.Kind != ToEarliest || len(back.Blockers) != 2 {
		t.Errorf("unmarshal: %v, %+v", err, back)
	}
}

// TestAllTopicsRefusedWhenTopicsMayBeHidden: --all-topics means every partition
// with a commit, which a principal that may not see every topic cannot list
// (Kafka leaves the hidden commits out): the plan is blocked, naming --topic.
func TestAllTopicsRefusedWhenTopicsMayBeHidden(t *testing.T) {
	for _, v := range []*bool{model.Ptr(false), nil} {
		in := fixture()
		in.AllTopicsVisible = v
		p := Make(Scope{AllTopics: true}, mustStrategy(t, ToEarliest, ""), in)
		if p.Executable() || p.Blockers[0].Kind != BlockHiddenTopics || !strings.Contains(p.Blockers[0].Message, "--topic") {
			t.Errorf("visible %v: blockers %+v", v, p.Blockers)
		}
		if q := Make(Scope{Topics: []TopicScope{{Topic: "orders"}}}, mustStrategy(t, ToEarliest, ""), in); !q.Executable() {
			t.Errorf("visible %v: --topic blocked too: %+v", v, q.Blockers)
		}
	}
}

// TestPlanReadsRemote: a target below a tiered topic's local log start says the consumer
// will read from remote storage; one at or above it does not.
func TestPlanReadsRemote(t *testing.T) {
	in := fixture()
	tp := model.TP{Topic: "orders", Partition: 0}
	o := in.Offsets[tp]
	o.LocalLow = model.Ptr(*o.Low + 5)
	in.Offsets[tp] = o
	for _, c := range []struct {
		offset string
		remote bool
	}{{fmt.Sprint(*o.Low + 4), true}, {fmt.Sprint(*o.Low + 5), false}} {
		p := Make(Scope{Topics: []TopicScope{{"orders", []int32{0}}}}, mustStrategy(t, ToOffset, c.offset), in)
		if r := p.Rows[0]; r.ReadsRemote != c.remote || *r.LocalLow != *o.LocalLow {
			t.Errorf("to %s: readsRemote %v, localLow %v; want %v, %d", c.offset, r.ReadsRemote, r.LocalLow, c.remote, *o.LocalLow)
		}
	}
}
