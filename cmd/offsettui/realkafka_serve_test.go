package main

import (
	"fmt"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/offsettui/offsettui/internal/model"
	"github.com/offsettui/offsettui/internal/testsupport/realkafka"
)

// TestRealKafkaServeChosenSeries: serve on the real broker with --include-group,
// --exclude-group and --granularity topic exports only the chosen group, one lag series per
// topic equal to what the group's commits leave unread (the seeding's own numbers), its
// total over both topics, and no lag series with a partition label; the other groups of
// the test, read by the same snapshots, have no series.
func TestRealKafkaServeChosenSeries(t *testing.T) {
	t.Parallel()
	addr := realkafka.Addr(t)
	s := realkafka.NewSeed(t, addr)
	a, b := realkafka.Name("serve-a"), realkafka.Name("serve-b")
	s.CreateTopic(a, 2, nil)
	s.CreateTopic(b, 1, nil)
	now := time.Now()
	for _, tp := range []model.TP{{Topic: a}, {Topic: a, Partition: 1}, {Topic: b}} {
		s.ProduceN(tp.Topic, tp.Partition, 10, func(int) time.Time { return now })
	}
	prefix := realkafka.Name("serve")
	commits := map[model.TP]int64{{Topic: a}: 4, {Topic: a, Partition: 1}: 7, {Topic: b}: 9} // lags 6 + 3 on a, 1 on b
	for _, g := range []string{"-pay-1", "-pay-2", "-ledger"} {
		s.Commit(prefix+g, commits)
	}
	srv := startServe(t, "--bootstrap-server", addr, "--interval", "1s", "--commit-log", "off",
		"--include-group", regexp.QuoteMeta(prefix)+"-pay-.*", "--exclude-group", regexp.QuoteMeta(prefix+"-pay-2"), "--granularity", "topic")
	pay1 := fmt.Sprintf(`group=%q`, prefix+"-pay-1")
	var lines []string
	srv.waitFor(t, 60*time.Second, "pay-1's series", func() bool {
		lines = srv.metrics(t)
		return len(withPrefix(lines, "offsettui_group_topic_lag{")) >= 2
	})
	for _, want := range []string{
		fmt.Sprintf(`offsettui_group_lag{cluster=%q,%s,type="classic"} 10`, addr, pay1),
		fmt.Sprintf(`offsettui_group_topic_lag{cluster=%q,%s,topic=%q,type="classic"} 9`, addr, pay1, a),
		fmt.Sprintf(`offsettui_group_topic_lag{cluster=%q,%s,topic=%q,type="classic"} 1`, addr, pay1, b),
	} {
		if !slices.Contains(lines, want) {
			t.Errorf("missing %s", want)
		}
	}
	for _, l := range lines {
		if strings.Contains(l, prefix) && !strings.Contains(l, pay1) {
			t.Errorf("a series of a group not chosen: %s", l)
		}
		if name := l[:strings.IndexAny(l, "{ ")]; strings.Contains(name, "lag") && strings.Contains(l, "partition=") {
			t.Errorf("a lag series with a partition label: %s", l)
		}
	}
	if n := len(withPrefix(lines, "offsettui_group_topic_lag{")); n != 2 {
		t.Errorf("%d topic lag series, want 2 (pay-1 on %s and %s)", n, a, b)
	}
}
