package demo_test

import (
	"context"
	"maps"
	"slices"
	"strconv"
	"testing"
	"time"

	"github.com/twmb/franz-go/pkg/kadm"
	"github.com/twmb/franz-go/pkg/kgo"
	"github.com/twmb/franz-go/pkg/kmsg"

	"github.com/offsettui/offsettui/internal/demo"
)

// The table of docs/demo.md, written out again here
// rather than taken from the package, so a mistake in the package's own
// table cannot hide itself.
var (
	wantCommits = map[string]map[string]map[int32]int64{
		"fanout":       {"outbox": {0: 12}},
		"ship-svc":     {"shipments": {0: 3}},
		"r11-trace":    {"r11.trace": {0: 5}},
		"audit-export": {"orders": {0: 10, 1: 20, 2: 100, 3: 70, 4: 50}},
		"billing":      {"orders": {0: 95, 1: 96, 2: 97, 3: 98, 4: 99, 5: 100}},
		"replay":       {"orders": {0: 100, 1: 100, 2: 150, 3: 100, 4: 100, 5: 100}},
		"ledger":       {"payments": {0: 10, 1: 15, 2: 20}},
	}
	wantWatermarks = map[string][]demo.Watermark{
		"outbox":    {{Low: 30, High: 40}},
		"shipments": {{Low: 0, High: 5}},
		"r11.trace": {{Low: 0, High: 8}},
		"orders": {
			{Low: 0, High: 100}, {Low: 0, High: 100}, {Low: 0, High: 100},
			{Low: 0, High: 100}, {Low: 0, High: 100}, {Low: 40, High: 100},
		},
		"payments": {{Low: 0, High: 20}, {Low: 0, High: 20}, {Low: 0, High: 20}},
	}
	wantStable = map[string]map[string][]int32{ // group → its member's assignment
		"billing": {"orders": {0, 1, 2, 3, 4, 5}},
		"new-svc": {"outbox": {0}},
	}
	wantEmpty = []string{"fanout", "ship-svc", "r11-trace", "audit-export", "replay", "ledger"}
)

// fixedNow is an arbitrary start, far from the wall clock, to show that
// record times follow Options.Now.
var fixedNow = time.Date(2026, 11, 29, 8, 53, 36, 123456789, time.UTC)

func startDemo(t *testing.T) *demo.Cluster {
	t.Helper()
	ctx, cancel := context.WithTimeout(t.Context(), 20*time.Second)
	defer cancel()
	c, err := demo.Start(ctx, demo.Options{Now: func() time.Time { return fixedNow }, Logf: t.Logf})
	if err != nil {
		t.Fatalf("Start: %v", err)
	}
	t.Cleanup(c.Close)
	return c
}

func newAdmin(t *testing.T, c *demo.Cluster, opts ...kgo.Opt) (*kadm.Client, *kgo.Client) {
	t.Helper()
	cl, err := kgo.NewClient(append([]kgo.Opt{kgo.SeedBrokers(c.Bootstrap()...)}, opts...)...)
	if err != nil {
		t.Fatalf("kgo client: %v", err)
	}
	t.Cleanup(cl.Close)
	return kadm.NewClient(cl), cl
}

func TestScenarioTablesMatchInterface(t *testing.T) {
	if got := demo.Commits(); !equalCommits(got, wantCommits) {
		t.Errorf("Commits() = %v, want %v", got, wantCommits)
	}
	got := demo.Watermarks()
	if !maps.EqualFunc(got, wantWatermarks, slices.Equal) {
		t.Errorf("Watermarks() = %v, want %v", got, wantWatermarks)
	}
	if got := slices.Sorted(slices.Values(demo.LiveGroups())); !slices.Equal(got, []string{"billing", "new-svc"}) {
		t.Errorf("LiveGroups() = %v", got)
	}
	if got, want := len(demo.Groups()), len(wantEmpty)+len(wantStable); got != want {
		t.Errorf("Groups() has %d groups, want %d", got, want)
	}
}

func equalCommits(a, b map[string]map[string]map[int32]int64) bool {
	return maps.EqualFunc(a, b, func(x, y map[string]map[int32]int64) bool {
		return maps.EqualFunc(x, y, maps.Equal)
	})
}

// TestCommittedOffsetsIndependentClient reads the seeded cluster back with
// franz-go (kadm, kgo), not through internal/kafka, the read path under test.
func TestCommittedOffsetsIndependentClient(t *testing.T) {
	c := startDemo(t)
	if got, want := c.StartedAt(), fixedNow.Truncate(time.Millisecond); !got.Equal(want) {
		t.Errorf("StartedAt() = %v, want %v", got, want)
	}
	if n := len(c.Bootstrap()); n != 3 {
		t.Errorf("Bootstrap() has %d brokers, want 3", n)
	}
	adm, _ := newAdmin(t, c)
	ctx := t.Context()

	t.Run("committed", func(t *testing.T) {
		for group, topics := range wantCommits {
			got, err := adm.FetchOffsets(ctx, group)
			if err != nil {
				t.Errorf("fetch offsets of %s: %v", group, err)
				continue
			}
			n := 0
			got.Each(func(o kadm.OffsetResponse) {
				n++
				if o.Err != nil {
					t.Errorf("%s %s/%d: %v", group, o.Topic, o.Partition, o.Err)
				}
				want, ok := topics[o.Topic][o.Partition]
				if !ok {
					t.Errorf("%s has an unexpected commit %s/%d at %d", group, o.Topic, o.Partition, o.At)
				} else if o.At != want {
					t.Errorf("%s %s/%d committed %d, want %d", group, o.Topic, o.Partition, o.At, want)
				}
			})
			want := 0
			for _, ps := range topics {
				want += len(ps)
			}
			if n != want {
				t.Errorf("%s has %d commits, want %d", group, n, want)
			}
		}
		got, err := adm.FetchOffsets(ctx, "new-svc")
		if err != nil {
			t.Fatalf("fetch offsets of new-svc: %v", err)
		}
		if n := len(got.Offsets()); n != 0 {
			t.Errorf("new-svc has %d commits, want none: %v", n, got)
		}
	})

	t.Run("watermarks", func(t *testing.T) {
		topics := slices.Collect(maps.Keys(wantWatermarks))
		starts, err := adm.ListStartOffsets(ctx, topics...)
		if err != nil {
			t.Fatalf("list start offsets: %v", err)
		}
		ends, err := adm.ListEndOffsets(ctx, topics...)
		if err != nil {
			t.Fatalf("list end offsets: %v", err)
		}
		for topic, ws := range wantWatermarks {
			if n := len(ends[topic]); n != len(ws) {
				t.Errorf("%s has %d partitions, want %d", topic, n, len(ws))
			}
			for p, w := range ws {
				lo, _ := starts.Lookup(topic, int32(p))
				hi, _ := ends.Lookup(topic, int32(p))
				if lo.Err != nil || hi.Err != nil {
					t.Errorf("%s/%d: %v, %v", topic, p, lo.Err, hi.Err)
					continue
				}
				if lo.Offset != w.Low || hi.Offset != w.High {
					t.Errorf("%s/%d low/high = %d/%d, want %d/%d", topic, p, lo.Offset, hi.Offset, w.Low, w.High)
				}
			}
		}
	})

	t.Run("groups", func(t *testing.T) {
		all := append(slices.Collect(maps.Keys(wantStable)), wantEmpty...)
		described, err := adm.DescribeGroups(ctx, all...)
		if err != nil {
			t.Fatalf("describe groups: %v", err)
		}
		for group, assignment := range wantStable {
			d := described[group]
			if d.Err != nil || d.State != "Stable" || len(d.Members) != 1 {
				t.Errorf("%s: state %q, %d members, err %v; want Stable with one member", group, d.State, len(d.Members), d.Err)
				continue
			}
			a, ok := d.Members[0].Assigned.AsConsumer()
			if !ok {
				t.Errorf("%s: member assignment is not a consumer assignment", group)
				continue
			}
			got := map[string][]int32{}
			for _, at := range a.Topics {
				got[at.Topic] = slices.Sorted(slices.Values(at.Partitions))
			}
			if !maps.EqualFunc(got, assignment, slices.Equal) {
				t.Errorf("%s: member holds %v, want %v", group, got, assignment)
			}
		}
		for _, group := range wantEmpty {
			d := described[group]
			if d.Err != nil || d.State != "Empty" || len(d.Members) != 0 {
				t.Errorf("%s: state %q, %d members, err %v; want Empty", group, d.State, len(d.Members), d.Err)
			}
		}
	})

	t.Run("configs", func(t *testing.T) {
		rcs, err := adm.DescribeTopicConfigs(ctx, "orders", "payments")
		if err != nil {
			t.Fatalf("describe topic configs: %v", err)
		}
		for topic, kv := range map[string][2]string{
			"orders":   {"retention.ms", "259200000"},
			"payments": {"cleanup.policy", "compact"},
		} {
			rc, err := rcs.On(topic, nil)
			if err != nil || rc.Err != nil {
				t.Errorf("%s configs: %v, %v", topic, err, rc.Err)
				continue
			}
			var got *string
			for _, cfg := range rc.Configs {
				if cfg.Key == kv[0] {
					got = cfg.Value
				}
			}
			if got == nil || *got != kv[1] {
				t.Errorf("%s %s = %v, want %s", topic, kv[0], got, kv[1])
			}
		}
	})

	t.Run("records", func(t *testing.T) {
		start := c.StartedAt()
		want := map[string]map[int32][]int64{ // topic → partition → offsets to check
			"orders":    {0: {0, 10, 99}, 3: {70}, 5: {40, 99}},
			"outbox":    {0: {30, 39}},
			"shipments": {0: {0, 4}},
			"payments":  {1: {0, 5}},
		}
		got := fetchRecords(t, c, want)
		// The newest orders record is 42 minutes old, the oldest 70 hours.
		for topic, parts := range want {
			for p, offs := range parts {
				for _, off := range offs {
					r := got[topic][p][off]
					if r == nil {
						t.Errorf("%s/%d@%d: not fetched", topic, p, off)
						continue
					}
					if r.Attrs.TimestampType() != 0 {
						t.Errorf("%s/%d@%d: timestamp type %d, want CreateTime", topic, p, off, r.Attrs.TimestampType())
					}
					var wantAt time.Time
					switch topic {
					case "orders":
						wantAt = start.Add(-70*time.Hour + time.Duration(off)*42*time.Minute)
					default:
						wantAt, _ = demo.RecordTime(start, topic, off)
					}
					if d := r.Timestamp.Sub(wantAt).Abs(); d > time.Second {
						t.Errorf("%s/%d@%d: CreateTime %v, want %v", topic, p, off, r.Timestamp, wantAt)
					}
					if topic == "shipments" {
						if v, want := string(r.Value), "order-"+strconv.FormatInt(off+1, 10); v != want {
							t.Errorf("shipments@%d value %q, want %q", off, v, want)
						}
					}
				}
			}
		}
		// Compaction needs keys that repeat.
		if k0, k5 := got["payments"][1][0], got["payments"][1][5]; k0 != nil && k5 != nil &&
			(len(k0.Key) == 0 || string(k0.Key) != string(k5.Key)) {
			t.Errorf("payments/1 keys at 0 and 5: %q, %q; want the same key", k0.Key, k5.Key)
		}
		// The demo's own helper agrees with the table.
		if at, _ := demo.RecordTime(start, "orders", 99); !at.Equal(start.Add(-42 * time.Minute)) {
			t.Errorf("RecordTime(orders, 99) = %v, want start − 42m", at)
		}
	})
}

// fetchRecords consumes the named partitions from their first wanted offset
// until it has every wanted offset.
func fetchRecords(t *testing.T, c *demo.Cluster, want map[string]map[int32][]int64) map[string]map[int32]map[int64]*kgo.Record {
	t.Helper()
	from := map[string]map[int32]kgo.Offset{}
	missing := 0
	for topic, parts := range want {
		from[topic] = map[int32]kgo.Offset{}
		for p, offs := range parts {
			from[topic][p] = kgo.NewOffset().At(slices.Min(offs))
			missing += len(offs)
		}
	}
	_, cl := newAdmin(t, c, kgo.ConsumePartitions(from))
	got := map[string]map[int32]map[int64]*kgo.Record{}
	ctx, cancel := context.WithTimeout(t.Context(), 10*time.Second)
	defer cancel()
	for missing > 0 {
		fs := cl.PollFetches(ctx)
		if ctx.Err() != nil {
			t.Fatalf("fetch: %d records still missing: %v", missing, ctx.Err())
		}
		for _, e := range fs.Errors() {
			t.Fatalf("fetch %s/%d: %v", e.Topic, e.Partition, e.Err)
		}
		fs.EachRecord(func(r *kgo.Record) {
			if !slices.Contains(want[r.Topic][r.Partition], r.Offset) {
				return
			}
			if got[r.Topic] == nil {
				got[r.Topic] = map[int32]map[int64]*kgo.Record{}
			}
			if got[r.Topic][r.Partition] == nil {
				got[r.Topic][r.Partition] = map[int64]*kgo.Record{}
			}
			if got[r.Topic][r.Partition][r.Offset] == nil {
				missing--
			}
			got[r.Topic][r.Partition][r.Offset] = r
		})
	}
	return got
}

// BenchmarkStart measures Start followed by Close, and reports each part.
func BenchmarkStart(b *testing.B) {
	var starting, closing time.Duration
	for b.Loop() {
		t0 := time.Now()
		c, err := demo.Start(b.Context(), demo.Options{})
		if err != nil {
			b.Fatal(err)
		}
		t1 := time.Now()
		c.Close()
		starting += t1.Sub(t0)
		closing += time.Since(t1)
	}
	b.ReportMetric(float64(starting.Milliseconds())/float64(b.N), "start-ms/op")
	b.ReportMetric(float64(closing.Milliseconds())/float64(b.N), "close-ms/op")
}

// TestShareGroupIndependentClient reads the demo's share group back with franz-go's own
// requests, not internal/kafka: Empty, its start offset 20 on outbox (below the log start
// of 30, so expired), share.auto.offset.reset=earliest.
func TestShareGroupIndependentClient(t *testing.T) {
	wantShare := map[string]map[string]map[int32]int64{"mail-queue": {"outbox": {0: 20}}}
	if got := demo.ShareGroups(); !equalCommits(got, wantShare) {
		t.Errorf("ShareGroups() = %v, want %v", got, wantShare)
	}
	c := startDemo(t)
	_, cl := newAdmin(t, c)
	ctx := t.Context()
	coord := cl.Broker(int(c.Fake().CoordinatorFor("mail-queue")))

	desc := kmsg.NewPtrShareGroupDescribeRequest()
	desc.GroupIDs = []string{"mail-queue"}
	dr, err := coord.Request(ctx, desc)
	if err != nil {
		t.Fatal(err)
	}
	if g := dr.(*kmsg.ShareGroupDescribeResponse).Groups[0]; g.ErrorCode != 0 || g.GroupState != "Empty" || len(g.Members) != 0 {
		t.Errorf("mail-queue: error %d state %q members %d, want an Empty share group", g.ErrorCode, g.GroupState, len(g.Members))
	}
	offs := kmsg.NewPtrDescribeShareGroupOffsetsRequest()
	rg := kmsg.NewDescribeShareGroupOffsetsRequestGroup()
	rg.GroupID = "mail-queue"
	offs.Groups = append(offs.Groups, rg)
	or, err := coord.Request(ctx, offs)
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]int64{}
	for _, tp := range or.(*kmsg.DescribeShareGroupOffsetsResponse).Groups[0].Topics {
		for _, p := range tp.Partitions {
			got[tp.Topic+"-"+strconv.Itoa(int(p.Partition))] = p.StartOffset
		}
	}
	if len(got) != 1 || got["outbox-0"] != 20 {
		t.Errorf("start offsets %v, want outbox-0 at 20", got)
	}
	cfg := kmsg.NewPtrDescribeConfigsRequest()
	r := kmsg.NewDescribeConfigsRequestResource()
	r.ResourceType, r.ResourceName, r.ConfigNames = kmsg.ConfigResourceTypeGroupConfig, "mail-queue", []string{"share.auto.offset.reset"}
	cfg.Resources = append(cfg.Resources, r)
	cr, err := cfg.RequestWith(ctx, cl)
	if err != nil {
		t.Fatal(err)
	}
	if res := cr.Resources[0]; res.ErrorCode != 0 || len(res.Configs) != 1 || res.Configs[0].Value == nil || *res.Configs[0].Value != "earliest" {
		t.Errorf("share.auto.offset.reset of mail-queue: %+v, want earliest", res)
	}
}
