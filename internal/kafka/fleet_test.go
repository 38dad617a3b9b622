package kafka_test

import (
	"context"
	"encoding/json"
	"io"
	"os"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/offsettui/offsettui/internal/kafka"
	"github.com/offsettui/offsettui/internal/model"
	"github.com/offsettui/offsettui/internal/report"
	"github.com/offsettui/offsettui/internal/testsupport/kafkatest"
)

// TestFleetAgreesWithReference reads a scale cluster with offsettui and with
// the reference (reference_test.go) and compares every committed row field by
// field: low, high, committed, lag, plus each group's state and member count
// and each topic's retention configs. The 1,000-group cluster by default;
// OFFSETTUI_SCALE_GROUPS=10000 for the fleet (500,000 rows).
func TestFleetAgreesWithReference(t *testing.T) {
	spec, err := scaleSpecFromEnv()
	if err != nil {
		t.Fatal(err)
	}
	k := sharedScaleCluster(t, spec)
	ctx := context.Background()
	c, err := kafka.NewContext(context.Background(), kafka.Config{Bootstrap: k.ListenAddrs(), Timeout: 30 * time.Second})
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	snap, err := c.Snapshot(ctx, model.Query{})
	if err != nil {
		t.Fatal(err)
	}
	ref, err := referenceDescribe(ctx, k.ListenAddrs())
	if err != nil {
		t.Fatal(err)
	}
	if n := compareWithReference(t, snap, ref); n != spec.rows() {
		t.Fatalf("compared %d rows, want %d", n, spec.rows())
	}
}

// compareWithReference fails tb on any difference between offsettui's
// snapshot and the reference's reading, and returns how many rows it compared.
// offsettui also shows the partitions a group has no commit on (missing);
// those must be absent from the reference, which lists committed rows only.
func compareWithReference(tb testing.TB, snap model.Snapshot, ref refResult) int {
	tb.Helper()
	if len(snap.Errors) > 0 {
		tb.Fatalf("offsettui: %d errors, first: %v", len(snap.Errors), snap.Errors[0].Error())
	}
	groups := map[string]*model.Group{}
	for i := range snap.Groups {
		groups[snap.Groups[i].Group] = &snap.Groups[i]
	}
	if len(groups) != len(ref.Groups) {
		tb.Fatalf("offsettui has %d groups, the reference %d", len(groups), len(ref.Groups))
	}
	rows, bad := 0, 0
	fail := func(format string, args ...any) {
		tb.Helper()
		if bad++; bad <= 20 {
			tb.Errorf(format, args...)
		}
	}
	for _, rg := range ref.Groups {
		g := groups[rg.Group]
		if g == nil {
			fail("%s: in the reference, not in offsettui", rg.Group)
			continue
		}
		if g.State != rg.State || len(g.Members) != rg.Members {
			fail("%s: offsettui %s with %d members, the reference %s with %d", rg.Group, g.State, len(g.Members), rg.State, rg.Members)
		}
		committed := 0
		for _, p := range g.Partitions {
			if p.Committed != nil {
				committed++
			}
		}
		if committed != len(rg.Partitions) {
			fail("%s: offsettui has %d committed partitions, the reference %d", rg.Group, committed, len(rg.Partitions))
		}
		byTP := map[model.TP]*model.GroupPartition{}
		for i := range g.Partitions {
			byTP[g.Partitions[i].TP()] = &g.Partitions[i]
		}
		for _, rp := range rg.Partitions {
			rows++
			p := byTP[model.TP{Topic: rp.Topic, Partition: rp.Partition}]
			switch {
			case p == nil:
				fail("%s %s-%d: in the reference, not in offsettui", rg.Group, rp.Topic, rp.Partition)
			case !is(p.Low, rp.Low) || !is(p.High, rp.High) || !is(p.Committed, rp.Committed) || !is(p.Lag, rp.Lag):
				fail("%s %s-%d: offsettui low %v high %v committed %v lag %v; the reference %d %d %d %d", rg.Group, rp.Topic, rp.Partition,
					val(p.Low), val(p.High), val(p.Committed), val(p.Lag), rp.Low, rp.High, rp.Committed, rp.Lag)
			}
		}
	}
	compareTopics(tb, snap.Topics, ref.Topics)
	return rows
}

// compareTopics compares the retention configs of the topics both read.
func compareTopics(tb testing.TB, got []model.Topic, want []refTopic) {
	tb.Helper()
	if len(got) != len(want) {
		tb.Fatalf("offsettui has %d topics, the reference %d", len(got), len(want))
	}
	for i, w := range want {
		g := got[i]
		if g.Topic != w.Topic || g.CleanupPolicy == nil || *g.CleanupPolicy != w.CleanupPolicy || !eqPtr(g.RetentionMs, w.RetentionMs) {
			tb.Errorf("topic %s: offsettui %s cleanup.policy=%s retention.ms=%v; the reference %s %s %v", w.Topic,
				g.Topic, model.Deref(g.CleanupPolicy), val(g.RetentionMs), w.Topic, w.CleanupPolicy, val(w.RetentionMs))
		}
	}
}

func is(p *int64, v int64) bool { return p != nil && *p == v }

func eqPtr(a, b *int64) bool { return (a == nil) == (b == nil) && (a == nil || *a == *b) }

// TestReferenceProcess is not a test: with OFFSETTUI_REFERENCE_BOOTSTRAP set
// it runs the reference describe against that cluster and writes its JSON to
// OFFSETTUI_REFERENCE_OUT ("-" for stdout), so scripts/bench-process.sh can
// time it as a whole process beside offsettui.
func TestReferenceProcess(t *testing.T) {
	addrs := os.Getenv("OFFSETTUI_REFERENCE_BOOTSTRAP")
	if addrs == "" {
		t.Skip("set OFFSETTUI_REFERENCE_BOOTSTRAP (and OFFSETTUI_REFERENCE_OUT) to run the reference describe")
	}
	out := os.Stdout
	if name := os.Getenv("OFFSETTUI_REFERENCE_OUT"); name != "-" && name != "" {
		f, err := os.Create(name)
		if err != nil {
			t.Fatal(err)
		}
		defer f.Close()
		out = f
	}
	res, err := referenceDescribe(context.Background(), strings.Split(addrs, ","))
	if err != nil {
		t.Fatal(err)
	}
	if err := writeReference(out, res); err != nil {
		t.Fatal(err)
	}
}

// TestCompareOutputs is not a test: with OFFSETTUI_COMPARE=OFFSETTUI_JSON,REFERENCE_JSON
// it compares `offsettui describe -o json` with the reference's output, row by
// row, as compareWithReference does; OFFSETTUI_COMPARE_ROWS is the row count
// both must have.
func TestCompareOutputs(t *testing.T) {
	files := strings.Split(os.Getenv("OFFSETTUI_COMPARE"), ",")
	if len(files) != 2 {
		t.Skip("set OFFSETTUI_COMPARE=offsettui.json,reference.json to compare two outputs")
	}
	var snap model.Snapshot
	readJSON(t, files[0], &snap)
	var ref struct {
		Topics []refTopic `json:"topics"`
		Groups []refGroup `json:"groups"`
	}
	readJSON(t, files[1], &ref)
	n := compareWithReference(t, snap, refResult{Groups: ref.Groups, Topics: ref.Topics})
	if want := os.Getenv("OFFSETTUI_COMPARE_ROWS"); want != "" && want != strconv.Itoa(n) {
		t.Fatalf("compared %d rows, want %s", n, want)
	}
	t.Logf("%d rows agree", n)
}

func readJSON(t *testing.T, name string, v any) {
	t.Helper()
	b, err := os.ReadFile(name)
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(b, v); err != nil {
		t.Fatalf("%s: %v", name, err)
	}
}

// BenchmarkFleet times the fleet, 10,000 groups × 50 partitions (500,000
// rows), on 3 brokers, in one process with the cluster:
//
//   - snapshot-cold: a new client per snapshot, as one `offsettui describe`;
//   - snapshot-warm: one client, repeated snapshots;
//   - refresh-tui: snapshot-warm with the TUI's query (configs reused for a
//     minute, timestamps only of at-risk commits);
//   - describe-json: snapshot-cold plus the JSON document, written to nowhere;
//   - reference: the reference describe (reference_test.go) plus its JSON.
//
// The cluster takes about 10 s to build, outside the timings.
func BenchmarkFleet(b *testing.B) {
	k := sharedScaleCluster(b, scale10k)
	addrs := k.ListenAddrs()
	rc := kafkatest.CountRequests(k)
	defer rc.Remove()
	cold := func() (*kafka.Client, func()) {
		c, err := kafka.NewContext(context.Background(), kafka.Config{Bootstrap: addrs, Timeout: 10 * time.Second})
		if err != nil {
			b.Fatal(err)
		}
		return c, func() { _ = c.Close() }
	}
	b.Run("snapshot-cold", func(b *testing.B) {
		check := true
		benchSnapshots(b, rc, scale10k, model.Query{}, cold, &check)
	})
	b.Run("snapshot-warm", func(b *testing.B) {
		benchWarm(b, rc, addrs, scale10k, model.Query{})
	})
	b.Run("refresh-tui", func(b *testing.B) {
		benchWarm(b, rc, addrs, scale10k, model.Query{ConfigMaxAge: time.Minute, TimestampsAtRiskFirst: true, FetchBudget: model.DefaultFetchBudget})
	})
	b.Run("describe-json", func(b *testing.B) {
		b.ReportAllocs()
		for range b.N {
			c, done := cold()
			snap, err := c.Snapshot(context.Background(), model.Query{FetchBudget: model.DefaultFetchBudget})
			done()
			if err != nil {
				b.Fatal(err)
			}
			if err := report.DescribeJSON(io.Discard, snap); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("reference", func(b *testing.B) {
		b.ReportAllocs()
		for range b.N {
			res, err := referenceDescribe(context.Background(), addrs)
			if err != nil {
				b.Fatal(err)
			}
			if err := writeReference(io.Discard, res); err != nil {
				b.Fatal(err)
			}
		}
	})
}
