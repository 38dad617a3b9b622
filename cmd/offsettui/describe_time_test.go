package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/offsettui/offsettui/internal/demo"
	"github.com/offsettui/offsettui/internal/model"
)

// TestDescribeSampleJSON: --sample takes several snapshots and every group
// and partition gets a time axis; a plain describe has none.
func TestDescribeSampleJSON(t *testing.T) {
	var out, errb bytes.Buffer
	start := time.Now()
	if code := describeMain([]string{"--demo", "--sample", "1s", "--interval", "400ms", "-o", "json"}, &out, &errb); code != exitOK {
		t.Fatalf("exit %d: %s", code, errb.String())
	}
	var snap model.Snapshot
	if err := json.Unmarshal(out.Bytes(), &snap); err != nil {
		t.Fatal(err)
	}
	// 0, 0.4, 0.8 and 1s: four snapshots, fewer when a snapshot takes longer
	// than the interval on a loaded machine, never fewer than two. The last is taken
	// once --sample has passed since sampling began (after start); the first may be
	// taken a moment after sampling began, so the window itself can be a hair under 1s.
	// Stamps are in milliseconds.
	w := snap.Window
	if w == nil || w.Samples < 2 || w.Samples > 4 || w.To.Add(time.Millisecond).Before(start.Add(time.Second)) {
		t.Fatalf("window %+v (the run began at %s), want 2 to 4 snapshots, the last ≥ 1s after the run began", w, start.Format("15:04:05.000"))
	}
	if took := time.Since(start); took > 20*time.Second {
		t.Errorf("took %v", took)
	}
	for _, g := range snap.Groups {
		if slices.Contains(demo.TrafficGroups(), g.Group) {
			continue // they may join after the first snapshot: TestDescribeDemoTraffic
		}
		if g.Time == nil || g.Time.Samples != w.Samples {
			t.Errorf("%s: time %+v", g.Group, g.Time)
		}
		for _, p := range g.Partitions {
			if p.Time == nil {
				t.Errorf("%s %s-%d: no time axis", g.Group, p.Topic, p.Partition)
			}
		}
	}
}

func TestDescribeMarkdownDemo(t *testing.T) {
	var out, errb bytes.Buffer
	if code := describeMain([]string{"--demo", "-o", "markdown"}, &out, &errb); code != exitOK {
		t.Fatalf("exit %d: %s", code, errb.String())
	}
	for _, want := range []string{"# offsettui report: `", "## Groups with problems", "### `fanout`: classic, Empty", "| `outbox` | 0 | 30 | 12 | 40 | 28 | EXPIRED (lost 18) |"} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("report lacks %q:\n%s", want, out.String())
		}
	}
}

// TestDescribeWatch prints one JSON document per snapshot until the context
// ends (Ctrl-C), and exits 0; from the second one on, rates are there.
func TestDescribeWatch(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	pr, pw, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	done := make(chan int, 1)
	go func() {
		done <- describeContext(ctx, []string{"--demo", "--watch", "--interval", "300ms", "--stall-after", "1s", "-o", "json", "--group", "fanout"}, pw, &bytes.Buffer{})
		pw.Close()
	}()
	sc := bufio.NewScanner(pr)
	sc.Buffer(nil, 1<<24)
	var frames []model.Snapshot
	for len(frames) < 3 && sc.Scan() {
		var s model.Snapshot
		if err := json.Unmarshal(sc.Bytes(), &s); err != nil {
			t.Fatalf("frame %d: %v", len(frames), err)
		}
		frames = append(frames, s)
	}
	cancel()
	for sc.Scan() {
	}
	if code := <-done; code != exitOK {
		t.Errorf("exit %d after Ctrl-C", code)
	}
	if len(frames) != 3 || frames[0].Window != nil || frames[2].Window == nil || frames[2].Window.Samples != 3 {
		t.Fatalf("%d frames; windows %v", len(frames), frames)
	}
}

func TestDescribeBaseline(t *testing.T) {
	dir := t.TempDir()
	var first, errb bytes.Buffer
	if code := describeMain([]string{"--demo", "-o", "json"}, &first, &errb); code != exitOK {
		t.Fatalf("exit %d: %s", code, errb.String())
	}
	// An earlier snapshot: fanout committed 5 less, and a group since gone.
	var base model.Snapshot
	if err := json.Unmarshal(first.Bytes(), &base); err != nil {
		t.Fatal(err)
	}
	base.Cluster.TakenAt = model.Stamp{Time: base.Cluster.TakenAt.Add(-time.Hour)}
	base.Groups = slices.DeleteFunc(base.Groups, func(g model.Group) bool { return slices.Contains(demo.TrafficGroups(), g.Group) })
	for i := range base.Groups {
		if base.Groups[i].Group == "fanout" {
			*base.Groups[i].Partitions[0].Committed -= 5
		}
	}
	base.Groups = append(base.Groups, model.Group{Group: "old-svc", Members: []model.Member{}, Partitions: []model.GroupPartition{}})
	path := filepath.Join(dir, "before.json")
	b, _ := json.Marshal(base)
	if err := os.WriteFile(path, b, 0o600); err != nil {
		t.Fatal(err)
	}
	var out bytes.Buffer
	if code := describeMain([]string{"--demo", "--baseline", path, "-o", "json"}, &out, &errb); code != exitOK {
		t.Fatalf("exit %d: %s", code, errb.String())
	}
	var now model.Snapshot
	if err := json.Unmarshal(out.Bytes(), &now); err != nil {
		t.Fatal(err)
	}
	if now.Baseline == nil {
		t.Fatal("no baseline in the JSON")
	}
	now.Baseline.GoneGroups = slices.DeleteFunc(now.Baseline.GoneGroups, func(g string) bool { return slices.Contains(demo.TrafficGroups(), g) })
	if strings.Join(now.Baseline.GoneGroups, ",") != "old-svc" {
		t.Fatalf("baseline %+v", now.Baseline)
	}
	for _, g := range now.Groups {
		if g.Group != "fanout" {
			continue
		}
		p := g.Partitions[0]
		if p.Change() == nil || p.Change().CommittedBy != model.Some(int64(5)) || p.Time == nil || p.Time.ConsumeRate.V == 0 {
			t.Errorf("fanout: change %+v, time %+v (rates run from the baseline)", p.Change(), p.Time)
		}
	}
}

func TestDescribeTimeBadInput(t *testing.T) {
	dir := t.TempDir()
	garbage := filepath.Join(dir, "garbage.json")
	future := filepath.Join(dir, "future.json")
	_ = os.WriteFile(garbage, []byte("{not json"), 0o600)
	_ = os.WriteFile(future, []byte(`{"cluster":{"takenAt":"2999-01-01T00:00:00Z"},"groups":[]}`), 0o600)
	other := filepath.Join(dir, "other.json")
	_ = os.WriteFile(other, []byte(`{"cluster":{"clusterId":"elsewhere","bootstrap":"k9:9092","takenAt":"2020-01-01T00:00:00Z"},"groups":[]}`), 0o600)
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"--demo", "--sample", "0"}, "--sample"},
		{[]string{"--demo", "--sample", "-5s"}, "--sample"},
		{[]string{"--demo", "--sample", "soon"}, "--sample"},
		{[]string{"--demo", "--interval", "0"}, "--interval"},
		{[]string{"--demo", "--stall-after", "0s"}, "--stall-after"},
		{[]string{"--demo", "--watch", "--sample", "30s"}, "exclude"},
		{[]string{"--demo", "-o", "html"}, ""}, // parseFlags reports it on os.Stderr
		{[]string{"--demo", "--baseline", filepath.Join(dir, "nope.json")}, "nope.json"},
		{[]string{"--demo", "--baseline", garbage}, "garbage.json"},
		{[]string{"--demo", "--baseline", future}, "not before now"},
		{[]string{"--demo", "--baseline", other}, "other.json is a snapshot of cluster elsewhere (k9:9092), this is cluster offsettui-demo"},
		{[]string{"--demo", "--baseline", other, "--sample", "1s", "--interval", "1s"}, "this is cluster offsettui-demo"},
	} {
		var out, errb bytes.Buffer
		if code := describeMain(tc.args, &out, &errb); code != exitBadInput || out.Len() != 0 || !strings.Contains(errb.String(), tc.want) {
			t.Errorf("%v: exit %d, stderr %q; want 2 naming %s", tc.args, code, errb.String(), tc.want)
		}
	}
	var out, errb bytes.Buffer
	if code := checkMain([]string{"--demo", "--group", "fanout", "-o", "markdown"}, &out, &errb); code != exitBadInput {
		t.Errorf("check -o markdown: exit %d", code)
	}
}

// TestDescribeDemoTraffic: on the demo's traffic, a sample of a few seconds
// shows a group catching up, one that retention will overtake (with the
// sentence) and a stalled one.
func TestDescribeDemoTraffic(t *testing.T) {
	var out, errb bytes.Buffer
	args := []string{"--demo", "--sample", "3s", "--interval", "500ms", "--stall-after", "2s", "-o", "json"}
	for _, g := range demo.TrafficGroups() {
		args = append(args, "--group", g)
	}
	if code := describeMain(args, &out, &errb); code != exitOK {
		t.Fatalf("exit %d: %s", code, errb.String())
	}
	var snap model.Snapshot
	if err := json.Unmarshal(out.Bytes(), &snap); err != nil {
		t.Fatal(err)
	}
	got := map[string]*model.GroupTime{}
	for _, g := range snap.Groups {
		got[g.Group] = g.Time
	}
	if gt := got[demo.GroupClickETL]; gt == nil || gt.ETA != model.ETACatchingUp || gt.Evaluation != model.EvalOK ||
		!gt.ConsumeRate.OK || gt.ConsumeRate.V <= gt.ProduceRate.V {
		t.Errorf("%s: %+v, want catching up", demo.GroupClickETL, gt)
	}
	if gt := got[demo.GroupEventSink]; gt == nil || gt.ETA != model.ETANever || gt.Loss == nil ||
		!strings.Contains(gt.Loss.Sentence, "events-0: at this rate the group never catches up") ||
		!strings.Contains(gt.Loss.Sentence, "retention deletes records it has not read in") {
		t.Errorf("%s: %+v, want never caught up and a loss", demo.GroupEventSink, gt)
	}
	if gt := got[demo.GroupInvoiceMailer]; gt == nil || gt.Evaluation != model.EvalStalled || gt.ETA != model.ETAStalled {
		t.Errorf("%s: %+v, want stalled", demo.GroupInvoiceMailer, gt)
	}
}
