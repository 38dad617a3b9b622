package main

// Losing now on the real main broker (Kafka 4.4.0): a live member whose commit falls below
// the log start while it stays in the group, beside an Empty group whose loss is hours away
// (docs/tui.md, "The urgency order", step 0).

import (
	"bytes"
	"context"
	"io"
	"slices"
	"strings"
	"testing"
	"time"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/x/exp/teatest"
	"github.com/offsettui/offsettui/internal/model"
	"github.com/offsettui/offsettui/internal/testsupport/realkafka"
	"github.com/offsettui/offsettui/internal/views"
)

// TestRealKafkaLosingNowIsFirst: topic L keeps 20 s of records in segments rolled every
// second and gets 5 records a second; a classic member of group live (Kafka's Java consumer)
// reads L's first 10 records, commits 10 and stays in the group, Stable, reading on without
// committing. Group idle (Empty) committed 0 on topic H, whose first record retention may
// delete in about 3 h (--risk-window 24h: at-risk). From the first snapshot after retention
// deleted record 10 — the first live has not read — live is losing now: first in describe
// -o json (losingNow true), first in the Markdown report under "Losing now", and first in
// the TUI's list with LOSS-IN now; idle, whose loss is hours away, comes after it.
func TestRealKafkaLosingNowIsFirst(t *testing.T) {
	b := realkafka.Main(t)
	s := b.Seed(t)
	losing, hours := realkafka.Name("losefirst-l"), realkafka.Name("losefirst-h")
	s.CreateTopic(losing, 1, map[string]*string{"retention.ms": model.Ptr("20000"), "segment.ms": model.Ptr("1000")})
	s.CreateTopic(hours, 1, map[string]*string{"retention.ms": model.Ptr("21600000")})
	s.ProduceN(hours, 0, 20, func(int) time.Time { return time.Now().Add(-3 * time.Hour) })
	run := realkafka.Name("losefirst") // this run's groups alone match it in the TUI's filter
	idle, live := run+"-idle", run+"-live"
	s.Commit(idle, map[model.TP]int64{tpOf(hours, 0): 0})

	ctx, stop := context.WithCancel(context.Background())
	t.Cleanup(stop)
	s.ProduceN(losing, 0, 20, func(int) time.Time { return time.Now() })
	go func() { // 5 records a second: segments roll, the log start moves on
		tick := time.NewTicker(200 * time.Millisecond)
		defer tick.Stop()
		for {
			select {
			case <-ctx.Done():
				return
			case <-tick.C:
				s.Produce(losing, 0, time.Now())
			}
		}
	}()
	b.Member(t, realkafka.ConsumeSpec{Group: live, Topic: losing, Max: 10, Style: "last-plus-one"})
	if c := s.Committed(live)[tpOf(losing, 0)]; c != 10 {
		t.Fatalf("live committed %d, want 10", c)
	}
	realkafka.WaitUntil(t, 90*time.Second, "retention deleting record 10 of "+losing, func() (bool, string) {
		o, err := s.Offsets(losing, 0)
		return err == nil && o.Start > 10, o.String()
	})

	args := []string{"--bootstrap-server", b.Addr, "--group", idle, "--group", live, "--risk-window", "24h"}
	code, snap, stderr := describeJSON(t, args...)
	if code != exitOK || len(snap.Groups) != 2 {
		t.Fatalf("describe: exit %d, %d groups\n%s", code, len(snap.Groups), stderr)
	}
	first, second := snap.Groups[0], snap.Groups[1]
	if first.Group != live || !first.LosingNow || second.Group != idle || second.LosingNow || second.Urgency() != model.UrgencySave {
		t.Fatalf("order %s (losing %v), %s (losing %v, urgency %v); want %s losing now first, %s at-risk after",
			first.Group, first.LosingNow, second.Group, second.LosingNow, second.Urgency(), live, idle)
	}

	var md, mdErr bytes.Buffer
	if code := describeMain(append(args, "-o", "markdown"), &md, &mdErr); code != exitOK {
		t.Fatalf("markdown: exit %d\n%s", code, mdErr.String())
	}
	out := md.String()
	liveAt, idleAt := strings.Index(out, "### `"+live+"`"), strings.Index(out, "### `"+idle+"`")
	if liveAt < 0 || idleAt < liveAt || !strings.Contains(out[liveAt:idleAt], "> **Losing now:** ") {
		t.Errorf("the report does not lead with %s losing now:\n%s", live, out)
	}

	c := common{bootstrap: b.Addr, timeoutD: 15 * time.Second, riskWindowD: 24 * time.Hour, stderr: io.Discard}
	conn, err := c.resolveConnection(io.Discard)
	if err != nil {
		t.Fatal(err)
	}
	lc := &lazyClient{c: c, conn: &conn}
	t.Cleanup(lc.close)
	tm := teatest.NewTestModel(t, views.New(tuiOptions(c, lc, 0, true, t.TempDir())), teatest.WithInitialTermSize(200, 50))
	waitFor := outputWaiter(t, tm, 45*time.Second)
	waitFor("updated ") // the first snapshot is in (openPlanner)
	tm.Type("/" + run)
	// One wait for all of it: what a wait read is gone for the next, and the screen draws
	// only the lines that change. LOSS-IN from the first snapshot: losing now needs no rates.
	waitFor("Groups 2 of", live, "EXPIRED 1", idle, "AT-RISK 1", "LOSS-IN")
	tm.Send(tea.KeyMsg{Type: tea.KeyEnter})
	view, _ := finalView(t, tm)
	liveRow, idleRow := rowOf(view, live), rowOf(view, idle)
	if liveRow < 0 || idleRow < liveRow || !slices.Contains(strings.Fields(lineAt(view, liveRow)), "now") {
		t.Errorf("the TUI's list does not put %s first with LOSS-IN now:\n%s", live, view)
	}
}

// rowOf is the line of view that names s, or -1.
func rowOf(view, s string) int {
	for i, l := range strings.Split(view, "\n") {
		if strings.Contains(l, s) {
			return i
		}
	}
	return -1
}

func lineAt(view string, i int) string { return strings.Split(view, "\n")[i] }
