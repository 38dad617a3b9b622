package demo_test

import (
	"context"
	"testing"
	"time"

	"github.com/twmb/franz-go/pkg/kadm"

	"github.com/offsettui/offsettui/internal/demo"
)

// TestTrafficIndependentClient starts the demo with traffic and watches it
// with franz-go's admin client for a few seconds: the catching-up group
// moves on both partitions faster than records arrive, the falling-behind
// group moves slower, the stalled one holds its commit with a member, and
// the events topic keeps records for 1h.
func TestTrafficIndependentClient(t *testing.T) {
	ctx, cancel := context.WithTimeout(t.Context(), 20*time.Second)
	defer cancel()
	c, err := demo.Start(ctx, demo.Options{Logf: t.Logf, Traffic: true})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(c.Close)
	adm, _ := newAdmin(t, c)

	type reading struct {
		committed map[string]map[int32]int64
		ends      kadm.ListedOffsets
		at        time.Time
	}
	read := func() reading {
		r := reading{committed: map[string]map[int32]int64{}, at: time.Now()}
		for _, g := range demo.TrafficGroups() {
			r.committed[g] = commitsOf(ctx, adm, g)
		}
		var err error
		if r.ends, err = adm.ListEndOffsets(ctx, demo.TopicClicks, demo.TopicEvents, demo.TopicInvoices); err != nil {
			t.Fatal(err)
		}
		return r
	}
	end := func(r reading, topic string, p int32) int64 { o, _ := r.ends.Lookup(topic, p); return o.Offset }
	// Wait for the first commits of both moving groups.
	deadline := time.Now().Add(10 * time.Second)
	for {
		r := read()
		if len(r.committed[demo.GroupClickETL]) == 2 && len(r.committed[demo.GroupEventSink]) == 1 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("traffic groups did not commit: %v", r.committed)
		}
		time.Sleep(100 * time.Millisecond)
	}
	a := read()
	// Until every moving commit has moved on, over at least a second.
	moved := func(b reading) bool {
		return b.at.Sub(a.at) >= time.Second && b.committed[demo.GroupEventSink][0] > a.committed[demo.GroupEventSink][0] &&
			b.committed[demo.GroupClickETL][0] > a.committed[demo.GroupClickETL][0] && b.committed[demo.GroupClickETL][1] > a.committed[demo.GroupClickETL][1]
	}
	b := read()
	for deadline := time.Now().Add(15 * time.Second); !moved(b); b = read() {
		if time.Now().After(deadline) {
			t.Fatalf("commits did not move in 15 s: %v → %v", a.committed, b.committed)
		}
		time.Sleep(100 * time.Millisecond)
	}
	secs := b.at.Sub(a.at).Seconds()
	rate := func(from, to int64) float64 { return float64(to-from) / secs }

	for p := int32(0); p < 2; p++ {
		consumed := rate(a.committed[demo.GroupClickETL][p], b.committed[demo.GroupClickETL][p])
		produced := rate(end(a, demo.TopicClicks, p), end(b, demo.TopicClicks, p))
		if consumed <= produced || produced < 5 {
			t.Errorf("click-etl p%d consumes %.1f/s while %.1f/s arrive: not catching up", p, consumed, produced)
		}
	}
	consumed := rate(a.committed[demo.GroupEventSink][0], b.committed[demo.GroupEventSink][0])
	produced := rate(end(a, demo.TopicEvents, 0), end(b, demo.TopicEvents, 0))
	if consumed <= 0 || consumed >= produced {
		t.Errorf("event-sink consumes %.1f/s while %.1f/s arrive: not falling behind", consumed, produced)
	}
	if got := b.committed[demo.GroupInvoiceMailer][0]; got != 25 || end(b, demo.TopicInvoices, 0) <= end(a, demo.TopicInvoices, 0) {
		t.Errorf("invoice-mailer committed %d (want 25, still), invoices end %d → %d (want growing)", got,
			end(a, demo.TopicInvoices, 0), end(b, demo.TopicInvoices, 0))
	}
	described, err := adm.DescribeGroups(ctx, demo.GroupInvoiceMailer)
	if err != nil || described[demo.GroupInvoiceMailer].State != "Stable" || len(described[demo.GroupInvoiceMailer].Members) != 1 {
		t.Errorf("invoice-mailer: %+v, %v; want Stable with its member", described[demo.GroupInvoiceMailer], err)
	}
	rcs, err := adm.DescribeTopicConfigs(ctx, demo.TopicEvents)
	if err != nil {
		t.Fatal(err)
	}
	rc, _ := rcs.On(demo.TopicEvents, nil)
	for _, cfg := range rc.Configs {
		if cfg.Key == "retention.ms" && (cfg.Value == nil || *cfg.Value != "3600000") {
			t.Errorf("events retention.ms = %v, want 3600000", cfg.Value)
		}
	}
}

// commitsOf reads a group's commits; none while the group does not exist yet.
func commitsOf(ctx context.Context, adm *kadm.Client, group string) map[int32]int64 {
	out := map[int32]int64{}
	resp, err := adm.FetchOffsets(ctx, group)
	if err != nil {
		return out
	}
	resp.Each(func(o kadm.OffsetResponse) {
		if o.Err == nil && o.At >= 0 {
			out[o.Partition] = o.At
		}
	})
	return out
}
