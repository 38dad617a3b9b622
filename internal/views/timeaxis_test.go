package views

import (
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	tea "github.com/charmbracelet/bubbletea"

	"github.com/offsettui/offsettui/internal/model"
	"github.com/offsettui/offsettui/internal/model/assemble"
)

// trafficSnapshot is snapshot k (taken k × 10 s after fixtureNow − 40 s) of
// three groups in motion, assembled by the model as the read path does:
// "event-sink" (1/s while 3/s arrive on "events", 1h retention: retention
// overtakes it), "click-etl" (catching up on "clicks") and "invoice-mailer"
// (a member that never commits: stalled).
func trafficSnapshot(k int64) model.Snapshot {
	start := fixtureNow.Add(-40 * time.Second)
	now := start.Add(time.Duration(k) * 10 * time.Second)
	topic := func(name string, ret time.Duration) model.Topic {
		return model.Topic{Topic: name, Partitions: 1, CleanupPolicy: model.Ptr("delete"), RetentionMs: model.Ptr(ret.Milliseconds()), RetentionBytes: model.Ptr[int64](-1)}
	}
	tp := func(t string) model.TP { return model.TP{Topic: t} }
	events := 6000 + 30*k
	eventSink := 10 + 10*k
	mailer := member("invoice-mailer-1", "invoices", 0)
	obs := model.Observation{
		Bootstrap: "127.0.0.1:39092", Brokers: 3, TakenAt: now, AllTopicsVisible: model.Ptr(true),
		Topics: map[string]model.Topic{"events": topic("events", time.Hour), "clicks": topic("clicks", week), "invoices": topic("invoices", week)},
		Offsets: map[model.TP]model.PartitionOffsets{
			tp("events"):   {Low: model.Ptr[int64](0), High: &events, RiskOffset: model.Ptr[int64](5000)},
			tp("clicks"):   {Low: model.Ptr[int64](0), High: model.Ptr(4500 + 100*k), RiskOffset: model.Ptr[int64](0)},
			tp("invoices"): {Low: model.Ptr[int64](0), High: model.Ptr(40 + 10*k), RiskOffset: model.Ptr[int64](0)},
		},
		CommittedTimestamps: map[model.TPO]time.Time{
			// The backlog of events was written evenly over the 50 minutes before start.
			{TP: tp("events"), Offset: eventSink}: start.Add(-50 * time.Minute).Add(time.Duration(eventSink) * time.Second / 2),
		},
		Groups: []model.GroupObservation{
			{Group: "event-sink", Type: "classic", State: "Stable", Committed: map[model.TP]int64{tp("events"): eventSink},
				Members: []model.Member{member("event-sink-1", "events", 0)}},
			{Group: "click-etl", Type: "classic", State: "Stable", Committed: map[model.TP]int64{tp("clicks"): 250 * k},
				Members: []model.Member{member("click-etl-1", "clicks", 0)}},
			{Group: "invoice-mailer", Type: "classic", State: "Stable", Committed: map[model.TP]int64{tp("invoices"): 25},
				Members: []model.Member{mailer}},
		},
	}
	return assemble.Snapshot(obs, assemble.Options{})
}

// trafficHarness loads five traffic snapshots, 10 s apart, through the root.
func trafficHarness(t *testing.T, w, h int, opts func(*Options)) *harness {
	t.Helper()
	clk := newClock()
	var k int64
	src := &fakeSource{reply: func(q model.Query) (model.Snapshot, error) {
		s := trafficSnapshot(min(k, 4))
		if len(q.Groups) == 1 {
			return onlyGroup(s, q.Groups[0]), nil
		}
		k++
		return s, nil
	}}
	o := optsWith(src, clk)
	if opts != nil {
		opts(&o)
	}
	hs := newHarness(t, o, w, h)
	for range 4 {
		hs.send(keyRunes("r"))
	}
	return hs
}

func TestGoldenGroupsTimeAxis(t *testing.T) {
	hs := trafficHarness(t, 160, 16, nil)
	goldenView(t, hs, 160, 16)
}

func TestGoldenGroupTimeAxis(t *testing.T) {
	hs := trafficHarness(t, 120, 24, nil)
	hs.send(keyRunes("/")).typeText("event-sink").send(keyType(tea.KeyEnter), keyType(tea.KeyEnter))
	goldenView(t, hs, 120, 24)
}

// TestTimeAxisScreens: the list shows the columns and sorts by time to loss
// and ETA; the group screen's headline is the time-to-loss sentence.
func TestTimeAxisScreens(t *testing.T) {
	hs := trafficHarness(t, 200, 30, nil)
	v := hs.view()
	for _, want := range []string{"CONSUME", "ETA", "EVAL", "LOSS-IN", "STALLED", "WARN", "25/s"} {
		if !strings.Contains(v, want) {
			t.Errorf("list lacks %q:\n%s", want, v)
		}
	}
	g := hs.m.stack[0].(*groupsScreen)
	order := func() string {
		var out []string
		for _, i := range g.visible {
			out = append(out, g.rows[i].g.Group)
		}
		return strings.Join(out, ",")
	}
	hs.send(keyRunes("s"))                                      // time to loss
	if got := order(); !strings.HasPrefix(got, "event-sink,") { // the others have no loss at these rates
		t.Errorf("by time to loss: %s", got)
	}
	hs.send(keyRunes("s")) // ETA, worst first
	if got := order(); got != "invoice-mailer,event-sink,click-etl" {
		t.Errorf("by ETA: %s", got)
	}
	hs.send(keyRunes("/")).typeText("event-sink").send(keyType(tea.KeyEnter), keyType(tea.KeyEnter))
	v = hs.view()
	if !strings.Contains(v, "TIME TO LOSS  events-0: at this rate the group never catches up") {
		t.Errorf("no headline:\n%s", v)
	}
}

// TestOneRefreshShowsNoTimeColumns: one snapshot alone shows no rates.
func TestOneRefreshShowsNoTimeColumns(t *testing.T) {
	hs := newHarness(t, optsWith(&fakeSource{reply: func(model.Query) (model.Snapshot, error) { return trafficSnapshot(0), nil }}, newClock()), 200, 30)
	if v := hs.view(); strings.Contains(v, "ETA") || strings.Contains(v, "LOSS-IN") {
		t.Errorf("time columns after one snapshot:\n%s", v)
	}
}

// TestWriteReport: w writes the Markdown report of the list (as filtered) or
// of the open group to a new file and says where; it never overwrites.
func TestWriteReport(t *testing.T) {
	dir := t.TempDir()
	var wrote []model.Snapshot
	hs := trafficHarness(t, 200, 30, func(o *Options) {
		o.ReportDir = dir
		o.WriteReport = func(w io.Writer, s model.Snapshot) error {
			wrote = append(wrote, s)
			_, err := io.WriteString(w, "# report of "+s.Groups[0].Group+"\n")
			return err
		}
	})
	hs.send(keyRunes("w"))
	if len(wrote) != 1 || len(wrote[0].Groups) != 3 || wrote[0].Window == nil {
		t.Fatalf("list report: %+v", wrote)
	}
	path := reportPath(dir, "groups", hs.m.c.now())
	if b, err := os.ReadFile(path); err != nil || !strings.HasPrefix(string(b), "# report of ") {
		t.Fatalf("read %s: %v %q", path, err, b)
	}
	abs, _ := filepath.Abs(path)
	if v := hs.view(); !strings.Contains(v, "report of 3 groups written to "+abs) {
		t.Errorf("flash does not say where:\n%s", v)
	}
	hs.send(keyRunes("w")) // the same second: the file exists
	if v := hs.view(); !strings.Contains(v, "report not written") || !strings.Contains(v, "file exists") {
		t.Errorf("a second report in the same second overwrote or said nothing:\n%s", v)
	}
	hs.m.c.now = func() time.Time { return fixtureNow.Add(time.Minute) }
	hs.send(keyRunes("/")).typeText("invoice").send(keyType(tea.KeyEnter), keyType(tea.KeyEnter), keyRunes("w"))
	last := wrote[len(wrote)-1]
	if len(last.Groups) != 1 || last.Groups[0].Group != "invoice-mailer" || len(last.Topics) != 1 {
		t.Errorf("group report: %d groups, topics %v", len(last.Groups), last.Topics)
	}
	if _, err := os.Stat(reportPath(dir, "invoice-mailer", hs.m.c.now())); err != nil {
		t.Error(err)
	}
}

func TestReportPathIsSafe(t *testing.T) {
	at := time.Date(2026, 11, 29, 8, 53, 36, 0, time.UTC)
	for what, want := range map[string]string{
		"billing":                    "offsettui-report-billing-20261129-085336.md",
		"../../etc/passwd":           "offsettui-report-_.._etc_passwd~3754d6cb-20261129-085336.md",
		strings.Repeat("long", 40):   "offsettui-report-" + strings.Repeat("long", 15) + "~ed357a84-20261129-085336.md",
		"group with spaces/and\nnew": "offsettui-report-group_with_spaces_and_new~75192bb7-20261129-085336.md",
	} {
		if got := reportPath("dir", what, at); got != filepath.Join("dir", want) {
			t.Errorf("reportPath(%q) = %s, want %s", what, got, want)
		}
	}
	// Two groups whose first 60 bytes agree get two reports.
	if a, b := reportPath("dir", strings.Repeat("x", 70)+"a", at), reportPath("dir", strings.Repeat("x", 70)+"b", at); a == b {
		t.Errorf("two groups share the report %s", a)
	}
}

// TestLossInWithoutRates: one snapshot shows no time-axis columns, but a group losing now
// (which needs no rates: a live consumer behind the log start) brings LOSS-IN with it.
func TestLossInWithoutRates(t *testing.T) {
	has := func(cols []column) bool {
		for _, c := range cols {
			if c.id == gcLoss {
				return true
			}
		}
		return false
	}
	calm, losing := &model.Group{Group: "a"}, &model.Group{Group: "b", LosingNow: true}
	if has(groupColumns([]groupRow{{g: calm}}, false)) {
		t.Error("LOSS-IN without rates and nobody losing")
	}
	if !has(groupColumns([]groupRow{{g: calm}, {g: losing}}, false)) {
		t.Error("no LOSS-IN for a group losing now")
	}
}
