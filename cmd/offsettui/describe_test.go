package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"io"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/offsettui/offsettui/internal/demo"
	"github.com/offsettui/offsettui/internal/model"
	"github.com/offsettui/offsettui/internal/testsupport/kafkatest"
	"github.com/offsettui/offsettui/internal/text"
)

// TestDescribeDemoJSON runs `offsettui describe --demo -o json` and checks every
// row of the demo table in docs/demo.md in the JSON users' scripts read.
func TestDescribeDemoJSON(t *testing.T) {
	var out, errb bytes.Buffer
	if code := describeMain([]string{"--demo", "-o", "json"}, &out, &errb); code != exitOK {
		t.Fatalf("exit %d: %s", code, errb.String())
	}
	var snap model.Snapshot
	if err := json.Unmarshal(out.Bytes(), &snap); err != nil {
		t.Fatalf("JSON: %v\n%s", err, out.String())
	}
	type row struct {
		committed, lag, lost, beyond any
		status                       string
	}
	n := func(v int64) any { return v }
	want := map[string]row{
		"fanout outbox-0":       {n(12), n(28), n(18), nil, "expired"},
		"new-svc outbox-0":      {nil, nil, nil, nil, "missing"},
		"ship-svc shipments-0":  {n(3), n(2), nil, nil, "ok"},
		"r11-trace r11.trace-0": {n(5), n(3), nil, nil, "ok"},
		"audit-export orders-0": {n(10), n(90), nil, nil, "at-risk"},
		"audit-export orders-1": {n(20), n(80), nil, nil, "at-risk"},
		"audit-export orders-2": {n(100), n(0), nil, nil, "ok"},
		"audit-export orders-3": {n(70), n(30), nil, nil, "ok"},
		"audit-export orders-4": {n(50), n(50), nil, nil, "ok"},
		"audit-export orders-5": {nil, nil, nil, nil, "missing"},
		"replay orders-2":       {n(150), n(-50), nil, n(50), "ahead"},
		"ledger payments-0":     {n(10), n(10), nil, nil, "ok"},
		"ledger payments-1":     {n(15), n(5), nil, nil, "ok"},
		"ledger payments-2":     {n(20), n(0), nil, nil, "ok"},
		// The share group: its position is a start offset (committed null), lag the broker's.
		"mail-queue outbox-0": {n(20), n(20), n(10), nil, "expired"},
	}
	for p := int64(0); p < 6; p++ {
		want["billing orders-"+string(rune('0'+p))] = row{n(95 + p), n(5 - p), nil, nil, "ok"}
		if p != 2 {
			want["replay orders-"+string(rune('0'+p))] = row{n(100), n(0), nil, nil, "ok"}
		}
	}
	v := func(p *int64) any {
		if p == nil {
			return nil
		}
		return *p
	}
	seen := 0
	for _, g := range snap.Groups {
		if slices.Contains(demo.TrafficGroups(), g.Group) {
			continue // their positions move: TestDescribeDemoTraffic
		}
		for _, p := range g.Partitions {
			key := g.Group + " " + model.TP{Topic: p.Topic, Partition: p.Partition}.String()
			w, ok := want[key]
			if !ok {
				t.Errorf("unexpected row %s", key)
				continue
			}
			seen++
			got := row{v(p.Position()), v(p.Lag), v(p.Lost()), v(p.Beyond()), p.Status.String()}
			if g.Type == model.TypeShare && p.Committed != nil {
				t.Errorf("%s: committed %d on a share group, want null (its start offset is %v)", key, *p.Committed, v(p.StartOffset()))
			}
			if got != w {
				t.Errorf("%s = %+v, want %+v", key, got, w)
			}
		}
		if (g.Group == "billing" || g.Group == "new-svc") && (g.State != "Stable" || len(g.Members) != 1) {
			t.Errorf("%s: %s with %d members, want Stable with one", g.Group, g.State, len(g.Members))
		}
	}
	if seen != len(want) {
		t.Errorf("%d rows, want %d", seen, len(want))
	}
	for _, must := range []string{`"errors":[]`, `"offsetsRetentionMinutes":10080`, `"lastStable":`} {
		if !strings.Contains(out.String(), must) {
			t.Errorf("JSON lacks %s", must)
		}
	}
}

func TestDescribeBadInput(t *testing.T) {
	for _, args := range [][]string{
		{"--demo", "--risk-window", "0"},
		{"--demo", "-o", "yaml"},
		{"--demo", "--timeout", "soon"},
		{"--demo", "--fetch-budget", "-1"},
		{"--demo", "--commit-log", "yes"},
		{"--demo", "--commit-log-budget", "0"},
		{"--demo", "extra"},
		{"--bootstrap-server", ""},
	} {
		var out, errb bytes.Buffer
		if code := describeMain(args, &out, &errb); code != exitBadInput || out.Len() != 0 {
			t.Errorf("%v: exit %d, stdout %q; want 2 and nothing on stdout", args, code, out.String())
		}
	}
}

// TestDemoCommandIndependentClient runs `offsettui demo`, takes the address it
// prints, and reads the committed offsets back with franz-go (not internal/kafka).
func TestDemoCommandIndependentClient(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	pr, pw := io.Pipe()
	done := make(chan int, 1)
	go func() { done <- demoMain(nil, pw, io.Discard, ctx); pw.Close() }()
	line, err := bufio.NewReader(pr).ReadString('\n')
	if err != nil {
		t.Fatal(err)
	}
	addrs := strings.Split(strings.TrimSpace(line), ",")
	if len(addrs) != 3 {
		t.Fatalf("printed %q, want three addresses", line)
	}
	seed := kafkatest.NewSeed(t, addrs)
	for group, want := range map[string]map[model.TP]int64{
		"fanout":   {{Topic: "outbox", Partition: 0}: 12},
		"ship-svc": {{Topic: "shipments", Partition: 0}: 3},
		"replay":   {{Topic: "orders", Partition: 0}: 100, {Topic: "orders", Partition: 1}: 100, {Topic: "orders", Partition: 2}: 150, {Topic: "orders", Partition: 3}: 100, {Topic: "orders", Partition: 4}: 100, {Topic: "orders", Partition: 5}: 100},
		"new-svc":  {},
	} {
		got := seed.Committed(group)
		if len(got) != len(want) {
			t.Errorf("%s: %v, want %v", group, got, want)
		}
		for tp, off := range want {
			if got[tp] != off {
				t.Errorf("%s %s = %d, want %d", group, tp, got[tp], off)
			}
		}
	}
	cancel()
	select {
	case code := <-done:
		if code != exitOK {
			t.Errorf("demo exited %d after interrupt, want 0", code)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("demo did not stop when interrupted")
	}
}

// TestReadOnlyEnvFailsClosed: every value of OFFSETTUI_READ_ONLY except empty, 0,
// false, no and off (any case) means read-only, so a typo cannot allow a write.
func TestReadOnlyEnvFailsClosed(t *testing.T) {
	for v, want := range map[string]bool{
		"": false, "0": false, "false": false, "FALSE": false, "no": false, "off": false, "Off": false,
		"1": true, "yes": true, "on": true, " 1": true, "true": true, "0 ": true, "nope": true, "-": true,
	} {
		if got := readOnlyEnv(v); got != want {
			t.Errorf("OFFSETTUI_READ_ONLY=%q: read-only %v, want %v", v, got, want)
		}
	}
}

// TestDescribeGroupNotFound: a named group that does not exist is an error on the
// group (kind not-found) and exit 3, so a typo cannot pass a script's check; the
// groups that do exist are still described.
func TestDescribeGroupNotFound(t *testing.T) {
	var out, errb bytes.Buffer
	code := describeMain([]string{"--demo", "--group", "nosuch", "--group", "ship-svc", "-o", "json"}, &out, &errb)
	if code != exitNotFound || !strings.Contains(errb.String(), "group nosuch does not exist") {
		t.Fatalf("exit %d, stderr %q; want %d naming the group", code, errb.String(), exitNotFound)
	}
	var snap model.Snapshot
	if err := json.Unmarshal(out.Bytes(), &snap); err != nil {
		t.Fatal(err)
	}
	for _, g := range snap.Groups {
		switch g.Group {
		case "nosuch":
			if g.Error == nil || g.Error.Kind != model.KindNotFound || g.WorstStatus != model.StatusUnknown || g.TotalLag != nil {
				t.Errorf("nosuch: error %v, worst %s, totalLag %s; want not-found, unknown, null", g.Error, g.WorstStatus, text.Num(g.TotalLag))
			}
		case "ship-svc":
			if g.Error != nil || text.Num(g.TotalLag) != "2" {
				t.Errorf("ship-svc: error %v, totalLag %s", g.Error, text.Num(g.TotalLag))
			}
		}
	}
}

// TestEmptyNamesAreBadInput: `--group ""` would describe a phantom group.
func TestEmptyNamesAreBadInput(t *testing.T) {
	for _, args := range [][]string{{"--demo", "--group", ""}, {"--demo", "--group", " "}, {"--demo", "--topic", ""}} {
		var out, errb bytes.Buffer
		if code := describeMain(args, &out, &errb); code != exitBadInput || !strings.Contains(errb.String(), "empty value") {
			t.Errorf("%v: exit %d, stderr %q; want 2 naming the empty value", args, code, errb.String())
		}
	}
}

// TestDemoRefusesConnectionFlags: `demo` starts its own cluster; a
// --bootstrap-server given to it is a mistake to point out, not to ignore.
func TestDemoRefusesConnectionFlags(t *testing.T) {
	var out, errb bytes.Buffer
	code := demoMain([]string{"--bootstrap-server", "kafka:9092"}, &out, &errb, context.Background())
	if code != exitBadInput || !strings.Contains(errb.String(), "--bootstrap-server does not apply") {
		t.Errorf("exit %d, stderr %q", code, errb.String())
	}
}

// TestDescribeSampleSortsByUrgency: once --sample has measured rates, describe orders the
// groups again (docs/tui.md, the urgency order): the demo's live groups whose members do
// not consume (invoice-mailer, billing) come before the ones with nothing at stake now
// (replay ahead, new-svc without a commit, click-etl catching up) and the idle all-ok ones.
// One snapshot cannot know they stall: there they come after click-etl.
func TestDescribeSampleSortsByUrgency(t *testing.T) {
	order := func(args ...string) map[string]int {
		t.Helper()
		var out, errb bytes.Buffer
		if code := describeMain(append([]string{"--demo", "-o", "json"}, args...), &out, &errb); code != exitOK {
			t.Fatalf("exit %d: %s", code, errb.String())
		}
		var snap model.Snapshot
		if err := json.Unmarshal(out.Bytes(), &snap); err != nil {
			t.Fatal(err)
		}
		at := map[string]int{}
		for i, g := range snap.Groups {
			at[g.Group] = i
		}
		for _, g := range []string{"event-sink", "invoice-mailer", "billing", "replay", "new-svc", "click-etl", "ledger", "r11-trace", "ship-svc"} {
			if _, ok := at[g]; !ok {
				t.Fatalf("describe %v: no group %s (groups %v)", args, g, at)
			}
		}
		return at
	}
	at := order("--sample", "2s")
	for _, stalled := range []string{"invoice-mailer", "billing"} {
		for _, after := range []string{"replay", "new-svc", "click-etl", "ledger", "r11-trace", "ship-svc"} {
			if at[stalled] > at[after] {
				t.Errorf("--sample: %s (live, not consuming) at %d, after %s at %d", stalled, at[stalled], after, at[after])
			}
		}
	}
	if at["event-sink"] != 0 {
		t.Errorf("--sample: event-sink (loses data first) at %d, want first", at["event-sink"])
	}
	if one := order(); one["invoice-mailer"] < one["click-etl"] {
		t.Errorf("one snapshot: invoice-mailer at %d before click-etl at %d; without rates it cannot be known to stall", one["invoice-mailer"], one["click-etl"])
	}
}

// TestDescribeUnknownTopic: a --topic that does not exist is named on stderr (with
// Kafka's code), exit 0 as for any snapshot; a topic that exists is not. It said only "no
// groups matched".
func TestDescribeUnknownTopic(t *testing.T) {
	var out, errb bytes.Buffer
	code := describeMain([]string{"--demo", "--topic", "nosuch", "--topic", "outbox", "--topic", "nosuch2"}, &out, &errb)
	if code != exitOK || errb.String() != "offsettui describe: topics nosuch, nosuch2 (--topic) do not exist (UNKNOWN_TOPIC_OR_PARTITION)\n" {
		t.Errorf("exit %d, stderr %q; want 0 and one line naming nosuch and nosuch2", code, errb.String())
	}
	if !strings.Contains(out.String(), "Consumer group 'fanout'") {
		t.Errorf("outbox's groups are not described:\n%s", out.String())
	}
	out.Reset()
	errb.Reset()
	code = describeMain([]string{"--demo", "--topic", "nosuch"}, &out, &errb)
	if code != exitOK || errb.String() != "offsettui describe: topic nosuch (--topic) does not exist (UNKNOWN_TOPIC_OR_PARTITION)\n" ||
		!strings.Contains(out.String(), "no groups matched") {
		t.Errorf("exit %d, stderr %q, stdout %q; want 0, nosuch named, no groups matched", code, errb.String(), out.String())
	}
}

// TestNotFoundOnlyWhenNamed: exit 3 is for a group named with --group that does not exist;
// a group deleted while the snapshot was taken (shown gone) is not one.
func TestNotFoundOnlyWhenNamed(t *testing.T) {
	gone := func(name string) model.Group {
		return model.Group{Group: name, Error: (&model.Error{Kind: model.KindNotFound, Code: model.Ptr("GROUP_ID_NOT_FOUND"), Message: "gone"}).WithGroup(name)}
	}
	s := model.Snapshot{Groups: []model.Group{gone("deleted-meanwhile"), gone("nosuch")}}
	if got := notFoundGroups(s, []string{"nosuch"}); len(got) != 1 || got[0] != "group nosuch" {
		t.Errorf("named nosuch: %v, want only it", got)
	}
	if got := notFoundGroups(s, nil); len(got) != 0 {
		t.Errorf("nothing named: %v, want none", got)
	}
}
