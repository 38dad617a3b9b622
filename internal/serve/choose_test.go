package serve

import (
	"fmt"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/offsettui/offsettui/internal/model"
)

// selected is an exporter of snap with the selection sel, after one snapshot.
func selected(t *testing.T, snap model.Snapshot, sel Selection) *Exporter {
	t.Helper()
	clk := &fixedClock{now: t0}
	e, err := New(Options{Targets: []Target{{Cluster: "prod", Source: &scripted{snap: snap}}}, Interval: 30 * time.Second,
		Deadline: 20 * time.Second, Clock: clk.clock(), Series: sel})
	if err != nil {
		t.Fatal(err)
	}
	e.pollers[0].take(t.Context())
	return e
}

func names(t *testing.T, flag string, exprs ...string) []*regexp.Regexp {
	t.Helper()
	res, err := CompileNames(flag, exprs)
	if err != nil {
		t.Fatal(err)
	}
	return res
}

// A regular expression matches a whole name (as Kafka's tools match theirs); one that
// does not compile is refused naming its flag.
func TestCompileNamesAnchored(t *testing.T) {
	res := names(t, "--include-group", "pay.*", "ledger")
	for name, want := range map[string]bool{"payments": true, "pay": true, "ledger": true, "ledger-2": false, "old-ledger": false, "xpay": false} {
		if got := chosen(name, res, nil); got != want {
			t.Errorf("%q chosen %v, want %v", name, got, want)
		}
	}
	if _, err := CompileNames("--exclude-topic", []string{"a(b"}); err == nil || !strings.Contains(err.Error(), `--exclude-topic "a(b"`) {
		t.Errorf("a bad expression: %v, want an error naming --exclude-topic and it", err)
	}
	for _, s := range []string{"partition", "topic", "group"} {
		if g, err := ParseGranularity(s); err != nil || g.String() != s {
			t.Errorf("ParseGranularity(%q) = %v, %v", s, g, err)
		}
	}
	if _, err := ParseGranularity("broker"); err == nil {
		t.Error("ParseGranularity(broker): want an error")
	}
}

// filtersSnapshot: groups pay-1, pay-2 and ledger, each on topics orders and audit, with an
// expired partition on each topic of each group.
func filtersSnapshot() model.Snapshot {
	var gs []model.Group
	for _, name := range []string{"pay-1", "pay-2", "ledger"} {
		o0, a0 := part("orders", 0, 5, 100, model.StatusExpired), part("audit", 0, 7, 10, model.StatusExpired)
		o0.SetLost(model.Ptr(int64(5)))
		a0.SetLost(model.Ptr(int64(7)))
		a1, o1 := part("audit", 1, 10, 10, model.StatusOK), part("orders", 1, 40, 50, model.StatusOK)
		a1.TimeLagMs, o1.TimeLagMs, a0.TimeLagMs, o0.TimeLagMs = model.Ptr(int64(0)), model.Ptr(int64(3000)), model.Ptr(int64(9000)), model.Ptr(int64(60000))
		gs = append(gs, group(name, 1, a0, a1, o0, o1))
	}
	return snapshotAt(t0, gs...)
}

// The filters choose series only: only the groups --include-group names and
// --exclude-group does not have series (exclusion wins), offsettui_groups still counts
// every group read; a topic left out has no partition or topic series, and its lag stays
// in its group's totals.
func TestSelectionChoosesSeries(t *testing.T) {
	e := selected(t, filtersSnapshot(), Selection{
		IncludeGroups: names(t, "--include-group", "pay-.*", "ledger"), ExcludeGroups: names(t, "--exclude-group", "pay-2"),
		ExcludeTopics: names(t, "--exclude-topic", "aud.*"), Granularity: GranularityTopic})
	all := lines(t, e, "offsettui_")
	groups := map[string]bool{}
	for _, l := range all {
		if i := strings.Index(l, `group="`); i >= 0 {
			groups[strings.SplitN(l[i+7:], `"`, 2)[0]] = true
		}
		if strings.Contains(l, `topic="audit"`) {
			t.Errorf("a series of the excluded topic audit: %s", l)
		}
	}
	if fmt.Sprint(groups) != "map[ledger:true pay-1:true]" {
		t.Errorf("groups with series %v, want ledger and pay-1", groups)
	}
	for _, want := range []string{
		`offsettui_groups{cluster="prod"} 3`,
		`offsettui_group_lag{cluster="prod",group="pay-1",type="classic"} 108`, // audit's 3 counted
		`offsettui_group_topic_lag{cluster="prod",group="pay-1",topic="orders",type="classic"} 105`,
		`offsettui_partition_status{cluster="prod",group="pay-1",partition="0",status="expired",topic="orders",type="classic"} 1`,
	} {
		if !has(all, want) {
			t.Errorf("missing %s in\n%s", want, strings.Join(all, "\n"))
		}
	}
}

// --granularity topic: one lag and time-lag series per group and topic, as the group's
// totals count them; no series whose name has lag carries a partition label; the group
// totals and the partitions that are not ok (status, records lost) stay. group: the
// totals only. partition (the default): the lag of each partition that is not ok.
func TestGranularity(t *testing.T) {
	for _, c := range []struct {
		gran Granularity
		want []string // the lines with lag in their name, of pay-1
	}{
		{GranularityPartition, []string{
			`offsettui_group_lag{cluster="prod",group="pay-1",type="classic"} 108`,
			`offsettui_group_lag_known{cluster="prod",group="pay-1",type="classic"} 1`,
			`offsettui_group_lag_seconds{cluster="prod",group="pay-1",type="classic"} 60`,
			`offsettui_partition_lag{cluster="prod",group="pay-1",partition="0",topic="audit",type="classic"} 3`,
			`offsettui_partition_lag{cluster="prod",group="pay-1",partition="0",topic="orders",type="classic"} 95`,
			`offsettui_partition_lag_seconds{cluster="prod",group="pay-1",partition="0",topic="audit",type="classic"} 9`,
			`offsettui_partition_lag_seconds{cluster="prod",group="pay-1",partition="0",topic="orders",type="classic"} 60`,
		}},
		{GranularityTopic, []string{
			`offsettui_group_lag{cluster="prod",group="pay-1",type="classic"} 108`,
			`offsettui_group_lag_known{cluster="prod",group="pay-1",type="classic"} 1`,
			`offsettui_group_lag_seconds{cluster="prod",group="pay-1",type="classic"} 60`,
			`offsettui_group_topic_lag{cluster="prod",group="pay-1",topic="audit",type="classic"} 3`,
			`offsettui_group_topic_lag{cluster="prod",group="pay-1",topic="orders",type="classic"} 105`,
			`offsettui_group_topic_lag_seconds{cluster="prod",group="pay-1",topic="audit",type="classic"} 9`,
			`offsettui_group_topic_lag_seconds{cluster="prod",group="pay-1",topic="orders",type="classic"} 60`,
		}},
		{GranularityGroup, []string{
			`offsettui_group_lag{cluster="prod",group="pay-1",type="classic"} 108`,
			`offsettui_group_lag_known{cluster="prod",group="pay-1",type="classic"} 1`,
			`offsettui_group_lag_seconds{cluster="prod",group="pay-1",type="classic"} 60`,
		}},
	} {
		t.Run(c.gran.String(), func(t *testing.T) {
			e := selected(t, filtersSnapshot(), Selection{Granularity: c.gran})
			all := lines(t, e, "offsettui_")
			var got []string
			for _, l := range all {
				name := l[:strings.IndexAny(l, "{ ")]
				if strings.Contains(name, "lag") && strings.Contains(l, `group="pay-1"`) {
					got = append(got, l)
				}
				if c.gran != GranularityPartition && strings.Contains(name, "lag") && strings.Contains(l, "partition=") {
					t.Errorf("a lag series with a partition label: %s", l)
				}
			}
			if !slices.Equal(got, c.want) {
				t.Errorf("lag series of pay-1:\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(c.want, "\n"))
			}
			for _, want := range []string{
				`offsettui_partition_status{cluster="prod",group="pay-1",partition="0",status="expired",topic="orders",type="classic"} 1`,
				`offsettui_partition_lost_records{cluster="prod",group="pay-1",partition="0",topic="orders",type="classic"} 5`,
			} {
				if !has(all, want) {
					t.Errorf("the partition that is not ok keeps its series: missing %s", want)
				}
			}
		})
	}
}

// A topic's lag is absent, never partial, when one of its partitions could not be read;
// its time lag is absent when a lagging partition's is unknown; the other topic keeps
// both.
func TestTopicLagUnknown(t *testing.T) {
	a := part("a", 0, 5, 10, model.StatusOK)
	a.TimeLagMs = model.Ptr(int64(4000))
	unread := model.GroupPartition{Topic: "a", Partition: 1, Committed: model.Ptr(int64(5)), Status: model.StatusUnknown}
	noStamp := part("b", 0, 1, 10, model.StatusOK)
	g := group("g", 1, a, unread, noStamp)
	got := topicsOf(&g, func(string) bool { return true })
	if len(got) != 2 || got[0].lag.OK || got[0].lagSeconds.OK || !got[1].lag.OK || got[1].lag.V != 9 || got[1].lagSeconds.OK {
		t.Errorf("topics %+v; want a unknown, b lag 9 with its time lag unknown", got)
	}
}

// The series of a group whose partitions are all ok, from its second snapshot on (the
// counts docs/metrics.md gives per group): 13 at partition and group granularity, and 2
// more per topic at topic granularity.
func TestSeriesPerGroup(t *testing.T) {
	snap := func(at time.Time) model.Snapshot {
		return snapshotAt(at, group("g1", 1, part("x", 0, 100, 100, model.StatusOK), part("x", 1, 50, 50, model.StatusOK), part("y", 0, 7, 7, model.StatusOK)))
	}
	for gran, want := range map[Granularity]int{GranularityPartition: 13, GranularityTopic: 17, GranularityGroup: 13} {
		clk := &fixedClock{now: t0}
		src := &scripted{snap: snap(t0)}
		e, err := New(Options{Targets: []Target{{Cluster: "prod", Source: src}}, Interval: 30 * time.Second,
			Deadline: 20 * time.Second, Clock: clk.clock(), Series: Selection{Granularity: gran}})
		if err != nil {
			t.Fatal(err)
		}
		e.pollers[0].take(t.Context())
		clk.now = t0.Add(30 * time.Second)
		src.snap = snap(clk.now)
		e.pollers[0].take(t.Context())
		var got []string
		for _, l := range lines(t, e, "offsettui_") {
			if strings.Contains(l, `group="g1"`) {
				got = append(got, l)
			}
		}
		if len(got) != want {
			t.Errorf("%s: %d series of g1, want %d:\n%s", gran, len(got), want, strings.Join(got, "\n"))
		}
	}
}
