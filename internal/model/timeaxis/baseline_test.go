package timeaxis

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/offsettui/offsettui/internal/model"
)

func TestCompareBaseline(t *testing.T) {
	a, b, c := model.TP{Topic: "t", Partition: 0}, model.TP{Topic: "t", Partition: 1}, model.TP{Topic: "t", Partition: 2}
	base := snapAt(0, map[string]map[model.TP][2]int64{
		"g":    {a: {10, 100}, b: {50, 60}, c: {5, 5}},
		"gone": {a: {1, 100}},
		"nope": {a: {1, 100}},
	})
	base.Groups[indexOf(base, "g")].TotalLag = model.Ptr(int64(105))
	now := snapAt(time.Minute, map[string]map[model.TP][2]int64{
		"g":   {a: {40, 130}, b: {-1, 70}},
		"new": {a: {1, 130}},
	})
	g := &now.Groups[indexOf(now, "g")]
	g.TotalLag, g.State = model.Ptr(int64(90)), "Stable"
	base.Groups[indexOf(base, "g")].State = "Empty"
	pa := partOf(g, a)
	pa.Lag, pa.Status = model.Ptr(int64(90)), model.StatusAtRisk
	partOf(&base.Groups[indexOf(base, "g")], a).Lag = model.Ptr(int64(90))
	CompareBaseline(now, base, "old.json", []string{"g", "new", "gone"})

	if got := now.Baseline; got == nil || got.File != "old.json" || !got.TakenAt.Equal(t0) || strings.Join(got.GoneGroups, ",") != "gone" {
		t.Fatalf("baseline %+v (nope is outside --group, so not gone)", got)
	}
	if ch := g.Change; ch.New || *ch.StateWas != "Empty" || ch.TotalLagBy != model.Some(int64(-15)) ||
		len(ch.GonePartitions) != 1 || ch.GonePartitions[0] != (model.PartitionRef{Topic: "t", Partition: 2}) {
		t.Errorf("group change %+v", ch)
	}
	if ch := pa.Change(); ch.CommittedBy != model.Some(int64(30)) || ch.LagBy != model.Some(int64(0)) || *ch.StatusWas != model.StatusOK {
		t.Errorf("t-0 change %+v", ch)
	}
	if ch := partOf(g, b).Change(); ch.CommittedBy.OK || ch.New {
		t.Errorf("t-1 lost its commit: change %+v", ch)
	}
	if n := now.Groups[indexOf(now, "new")]; !n.Change.New || !n.Partitions[0].Change().New {
		t.Errorf("new group %+v", n.Change)
	}
	out, _ := json.Marshal(now)
	for _, want := range []string{`"committedBy":30`, `"statusWas":"ok"`, `"committedBy":null`, `"goneGroups":["gone"]`} {
		if !bytes.Contains(out, []byte(want)) {
			t.Errorf("JSON lacks %s", want)
		}
	}
}

func partOf(g *model.Group, tp model.TP) *model.GroupPartition {
	for i := range g.Partitions {
		if g.Partitions[i].TP() == tp {
			return &g.Partitions[i]
		}
	}
	return nil
}

func indexOf(s *model.Snapshot, g string) int {
	for i := range s.Groups {
		if s.Groups[i].Group == g {
			return i
		}
	}
	return -1
}

func TestReadBaseline(t *testing.T) {
	good, _ := json.Marshal(snapAt(0, map[string]map[model.TP][2]int64{"g": {{Topic: "t", Partition: 0}: {1, 2}}}))
	if s, err := ReadBaseline(bytes.NewReader(good), "old.json"); err != nil || len(s.Groups) != 1 {
		t.Fatalf("good baseline: %v", err)
	}
	for _, bad := range []string{"", "[]", "{}", `{"cluster":{"takenAt":"2026-11-29T08:00:00Z"}}`, `{"groups":[{"partitions":[{"status":"weird"}]}]}`, "not json"} {
		if _, err := ReadBaseline(strings.NewReader(bad), "old.json"); err == nil || !strings.Contains(err.Error(), "old.json") {
			t.Errorf("%q: error %v, want one naming the file", bad, err)
		}
	}
}
