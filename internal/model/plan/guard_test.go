package plan

import (
	"fmt"
	"reflect"
	"strings"
	"testing"

	"github.com/offsettui/offsettui/internal/model"
)

func TestDrift(t *testing.T) {
	orders := Scope{Topics: []TopicScope{{Topic: "orders"}}}
	toOffset := mustStrategy(t, ToOffset, "60")
	tests := []struct {
		name  string
		st    Strategy
		edit  func(*Input)
		kinds []BlockerKind
		msgs  []string
	}{
		{"nothing changed", toOffset, nil, nil, nil},
		{"watermarks grew", toOffset, func(in *Input) {
			for tp := range in.Offsets {
				in.Offsets[tp] = model.PartitionOffsets{Low: in.Offsets[tp].Low, High: model.Ptr(*in.Offsets[tp].High + 500)}
			}
		}, nil, nil},
		{"low moved but not past the target", toOffset, func(in *Input) { setLow(in, "orders", 0, 60) }, nil, nil},
		{"commit changed", toOffset, func(in *Input) { in.Committed[model.TP{Topic: "orders", Partition: 0}] = 52 },
			[]BlockerKind{BlockDrift}, []string{"committed offset of orders-0 changed from 50 to 52"}},
		{"commit appeared", toOffset, func(in *Input) { in.Committed[model.TP{Topic: "orders", Partition: 2}] = 1 },
			[]BlockerKind{BlockDrift}, []string{"orders-2 gained a committed offset (1)"}},
		{"commit disappeared", toOffset, func(in *Input) { delete(in.Committed, model.TP{Topic: "orders", Partition: 1}) },
			[]BlockerKind{BlockDrift}, []string{"orders-1 lost its committed offset (was 10)"}},
		{"low moved past target", toOffset, func(in *Input) { setLow(in, "orders", 0, 61) },
			[]BlockerKind{BlockDrift}, []string{"log start of orders-0 moved from 0 to 61, past the target 60"}},
		{"high went back", toOffset, func(in *Input) {
			in.Offsets[model.TP{Topic: "orders", Partition: 2}] = model.PartitionOffsets{Low: model.Ptr(int64(0)), High: model.Ptr(int64(70))}
		}, []BlockerKind{BlockDrift}, []string{"high watermark of orders-2 went back from 100 to 70"}},
		{"low passing an earliest target is re-read, not drift", mustStrategy(t, ToEarliest, ""),
			func(in *Input) { setLow(in, "orders", 0, 30) }, nil, nil},
		{"member joined", toOffset, func(in *Input) {
			in.State = "Stable"
			in.Members = []model.Member{{MemberRef: model.MemberRef{ClientID: "svc-1", Host: "/10.1.1.1"}}}
		}, []BlockerKind{BlockGroupNotEmpty}, []string{"svc-1 on /10.1.1.1"}},
		{"type changed", toOffset, func(in *Input) { in.Type = model.TypeConsumer },
			[]BlockerKind{BlockDrift}, []string{"is a consumer group now, a classic group when planned"}},
		{"read-only now", toOffset, func(in *Input) { in.ReadOnly = true }, []BlockerKind{BlockReadOnly}, nil},
		{"watermarks unreadable", toOffset, func(in *Input) { delete(in.Offsets, model.TP{Topic: "orders", Partition: 1}) },
			[]BlockerKind{BlockUnknownOffsets}, []string{"orders-1 could not be re-read"}},
		{"topic gone", toOffset, func(in *Input) { in.Partitions = map[string]int{"ahead": 1} },
			[]BlockerKind{BlockUnknownPartition, BlockUnknownPartition, BlockUnknownPartition}, []string{"orders-0 no longer exists"}},
	}
	for _, tc := range tests {
		p := Make(orders, tc.st, fixture())
		if !p.Executable() {
			t.Fatalf("%s: plan blocked: %+v", tc.name, p.Blockers)
		}
		now := fixture()
		if tc.edit != nil {
			tc.edit(&now)
		}
		bs := p.Drift(now)
		if got := blockerKinds(bs); fmt.Sprint(got) != fmt.Sprint(tc.kinds) {
			t.Errorf("%s: drift %v, want %v (%+v)", tc.name, got, tc.kinds, bs)
			continue
		}
		for i, m := range tc.msgs {
			if !strings.Contains(bs[i].Message, m) {
				t.Errorf("%s: %q lacks %q", tc.name, bs[i].Message, m)
			}
		}
		if r := p.Refresh(now); fmt.Sprint(blockerKinds(r.Blockers)) != fmt.Sprint(tc.kinds) {
			t.Errorf("%s: Refresh blockers %v, want %v", tc.name, blockerKinds(r.Blockers), tc.kinds)
		}
	}
}

func setLow(in *Input, topic string, p int32, low int64) {
	tp := model.TP{Topic: topic, Partition: p}
	in.Offsets[tp] = model.PartitionOffsets{Low: model.Ptr(low), High: in.Offsets[tp].High}
}

func TestRefreshRereadsEarliestAndLatest(t *testing.T) {
	orders := Scope{Topics: []TopicScope{{Topic: "orders"}}}
	now := fixture()
	setLow(&now, "orders", 0, 30)
	now.Offsets[model.TP{Topic: "orders", Partition: 2}] = model.PartitionOffsets{Low: model.Ptr(int64(0)), High: model.Ptr(int64(150))}

	p := Make(orders, mustStrategy(t, ToEarliest, ""), fixture()).Refresh(now)
	wantRow := rowWant{"orders-0", 30, ReasonAsRequested, 20, 0, 0} // 50 − 30 re-read
	wantRow.check(t, "earliest", p.Rows[0])
	// orders-2 has no commit: auto.offset.reset=latest would start it at 150.
	if p.Totals.Duplicates != 20+150 || !p.Executable() {
		t.Errorf("earliest: totals %+v, blockers %+v", p.Totals, p.Blockers)
	}

	p = Make(orders, mustStrategy(t, ToLatest, ""), fixture()).Refresh(now)
	rowWant{"orders-2", 150, ReasonAsRequested, 0, 0, 0}.check(t, "latest", p.Rows[2])
	rowWant{"orders-0", 100, ReasonAsRequested, 0, 50, 0}.check(t, "latest", p.Rows[0])

	p = Make(orders, mustStrategy(t, ToCurrent, ""), fixture()).Refresh(now)
	rowWant{"orders-2", 150, ReasonNoCommitToLatest, 0, 0, 0}.check(t, "current", p.Rows[2])

	// A clamped to-offset target stays what the operator confirmed.
	p = Make(orders, mustStrategy(t, ToOffset, "500"), fixture()).Refresh(now)
	rowWant{"orders-2", 100, ReasonClampedToHigh, 50, 0, 0}.check(t, "to-offset", p.Rows[2])
	if *p.Rows[2].High != 150 {
		t.Errorf("to-offset: watermark not refreshed: %+v", p.Rows[2])
	}
}

func TestRefreshBlockers(t *testing.T) {
	orders := Scope{Topics: []TopicScope{{Topic: "orders"}}}
	in := fixture()
	in.State = "Stable"
	in.Members = []model.Member{{MemberRef: model.MemberRef{ClientID: "c"}}}
	p := Make(orders, mustStrategy(t, ShiftBy, "1"), in)
	if got := fmt.Sprint(blockerKinds(p.Blockers)); got != "[group-not-empty no-commit-cannot-shift]" {
		t.Fatalf("plan blockers %s", got)
	}
	// The group emptied: the guard clears, the row that cannot be shifted stays.
	if got := fmt.Sprint(blockerKinds(p.Refresh(fixture()).Blockers)); got != "[no-commit-cannot-shift]" {
		t.Errorf("refresh blockers %s", got)
	}
	// A row without watermarks stays blocked even when they can be read now.
	in = fixture()
	delete(in.Offsets, model.TP{Topic: "orders", Partition: 1})
	p = Make(orders, mustStrategy(t, ToOffset, "1"), in)
	if got := fmt.Sprint(blockerKinds(p.Refresh(fixture()).Blockers)); got != "[unknown-offsets]" {
		t.Errorf("refresh of unreadable row: %s", got)
	}
	if got := fmt.Sprint(blockerKinds(p.Refresh(in).Blockers)); got != "[unknown-offsets]" {
		t.Errorf("refresh of still unreadable row: %s (want one blocker, not two)", got)
	}
}

func TestCommitsAndBackup(t *testing.T) {
	p := Make(Scope{}, mustFile(t, Restore, "orders,0,7\norders,2,\norders,1,12\n"), fixture())
	commit, del := p.Commits()
	if want := map[model.TP]int64{{Topic: "orders", Partition: 0}: 7, {Topic: "orders", Partition: 1}: 12}; !reflect.DeepEqual(commit, want) {
		t.Errorf("commits %v, want %v", commit, want)
	}
	if want := []model.TP{{Topic: "orders", Partition: 2}}; !reflect.DeepEqual(del, want) {
		t.Errorf("deletes %v, want %v", del, want)
	}
	backup := p.BackupRows()
	if len(backup) != 3 || *backup[0].Offset != 50 || *backup[1].Offset != 10 || backup[2].Offset != nil {
		t.Errorf("backup rows %+v", backup)
	}
	// Blocked rows are neither committed nor deleted.
	p = Make(Scope{Topics: []TopicScope{{Topic: "orders"}}}, mustStrategy(t, ShiftBy, "1"), fixture())
	if commit, del := p.Commits(); len(commit) != 2 || len(del) != 0 {
		t.Errorf("shift-by commits %v, deletes %v", commit, del)
	}
}
