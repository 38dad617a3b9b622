package report

import (
	"strings"
	"testing"
	"time"

	"github.com/offsettui/offsettui/internal/model"
)

// withCommitter is the fixture with fanout flagged: a client outside the group commits
// for it every 2 s, moving its offsets 20/s (seen in __consumer_offsets).
func withCommitter() model.Snapshot {
	s := snapshot()
	at := s.Cluster.TakenAt.Time
	for i := range s.Groups {
		if s.Groups[i].Group == "fanout" {
			s.Groups[i].Committer = &model.Committer{Seen: []string{model.SeenCommitLog}, Commits: 12,
				First: model.Stamp{Time: at.Add(-22 * time.Second)}, Last: model.Stamp{Time: at.Add(-time.Second)},
				IntervalMs: model.Some(int64(2000)), Rate: 20}
		}
	}
	return s
}

// TestCommitterInEveryReport: describe's table, the Markdown report and the JSON show the
// committer with its cadence and rate.
func TestCommitterInEveryReport(t *testing.T) {
	s := withCommitter()
	want := "a client outside the group commits for it: 12 commits over 21s, every 2s, moving the offsets 20/s (seen in __consumer_offsets); " +
		"offsettui refuses to reset it while it runs"
	var table, md, js strings.Builder
	if err := DescribeFit(&table, s, 0); err != nil {
		t.Fatal(err)
	}
	if err := Markdown(&md, s); err != nil {
		t.Fatal(err)
	}
	if err := DescribeJSON(&js, s); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(table.String(), "  COMMITTER: "+want+"\n") {
		t.Errorf("describe lacks the committer:\n%s", table.String())
	}
	if !strings.Contains(md.String(), "- committer: "+want+"\n") {
		t.Errorf("the report lacks the committer:\n%s", md.String())
	}
	if !strings.Contains(js.String(), `"committer":{"seen":["commit-log"],"commits":12,"first":"2026-11-29T07:59:38.000Z","last":"2026-11-29T07:59:59.000Z","intervalMs":2000,"rate":20}`) {
		t.Errorf("the JSON lacks the committer:\n%s", js.String())
	}
	if n := strings.Count(js.String(), `"committer":null`); n != len(s.Groups)-1 {
		t.Errorf("%d groups have \"committer\":null, want every other group (%d)", n, len(s.Groups)-1)
	}
	checkDescribeJSON(t, s)
}

// TestCommitterInTheReportsGroupsWithoutProblems: a group with a committer and nothing
// wrong is listed among the groups without problems, its members cell naming the committer.
func TestCommitterInTheReportsGroupsWithoutProblems(t *testing.T) {
	s := withCommitter()
	s.Groups = s.Groups[:0]
	g := model.Group{Group: "flink-job", Type: model.TypeClassic, State: "Empty", Members: []model.Member{}, TotalLag: model.Ptr(int64(0)),
		Committer: &model.Committer{Seen: []string{model.SeenTimeAxis}, Commits: 3, Rate: 5}}
	s.Groups = append(s.Groups, g)
	var md strings.Builder
	if err := Markdown(&md, s); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(md.String(), "| `flink-job` | Empty | 0 + a committer outside the group: 3 commits, moving the offsets 5.0/s (seen across snapshots) | 0 | - | - |") {
		t.Errorf("report:\n%s", md.String())
	}
}
