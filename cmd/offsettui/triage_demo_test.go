package main

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/x/ansi"
	"github.com/charmbracelet/x/exp/teatest"
	"github.com/offsettui/offsettui/internal/demo"
	"github.com/offsettui/offsettui/internal/kafka"
	"github.com/offsettui/offsettui/internal/views"
)

// viewAsked asks the program for the screen as drawn now; it is answered on the
// program's own goroutine, so reading it races with nothing.
type viewAsked struct{ reply chan string }

// viewProbe is the TUI with one more message: viewAsked.
type viewProbe struct{ m tea.Model }

func (p viewProbe) Init() tea.Cmd { return p.m.Init() }

func (p viewProbe) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	if a, ok := msg.(viewAsked); ok {
		a.reply <- p.m.View()
		return p, nil
	}
	next, cmd := p.m.Update(msg)
	return viewProbe{next}, cmd
}

func (p viewProbe) View() string { return p.m.View() }

// TestDemoTriageFirstScreen is issue 21's "must show", on the demo with its
// traffic, as `offsettui --demo` runs it (refresh 5s): 30 s after start, at
// 200×60, 120×40, 80×24 and 60×15, the first row (under the cursor) is the group
// about to lose data (event-sink), and "with problems" counts the groups with
// something at risk, lost, missing, ahead or a live consumer not keeping up —
// the ones p lists — and not the idle ones. The reports written at 40 s, of the list and of
// event-sink's screen, carry the time of their data and the window of their
// rates, not the time the screen was opened.
func TestDemoTriageFirstScreen(t *testing.T) {
	t.Parallel() // 47 s of the demo's own time, by design: beside the others, not after them
	ctx, cancel := context.WithTimeout(t.Context(), 30*time.Second)
	defer cancel()
	d, err := demo.Start(ctx, demo.Options{Logf: t.Logf, Traffic: true})
	if err != nil {
		t.Fatalf("start the demo: %v", err)
	}
	t.Cleanup(d.Close)
	cl, err := kafka.NewContext(context.Background(), kafka.Config{Bootstrap: d.Bootstrap(), Timeout: 10 * time.Second})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = cl.Close() })
	reports := t.TempDir()
	lc := &lazyClient{c: common{demo: true}, sess: &session{client: cl, cluster: "demo", demo: d, access: decideAccess(false)}}
	opts := tuiOptions(common{demo: true}, lc, 5*time.Second, true, t.TempDir())
	opts.RiskWindow, opts.ReportDir = 24*time.Hour, reports
	start := time.Now()
	tm := teatest.NewTestModel(t, viewProbe{views.New(opts)}, teatest.WithInitialTermSize(200, 60))
	view := func() string {
		a := viewAsked{reply: make(chan string, 1)}
		tm.Send(a)
		select {
		case v := <-a.reply:
			return ansi.Strip(v)
		case <-time.After(10 * time.Second):
			t.Fatal("the program did not answer")
		}
		return ""
	}
	time.Sleep(time.Until(start.Add(30 * time.Second)))
	for _, size := range [][2]int{{200, 60}, {120, 40}, {80, 24}, {60, 15}} {
		tm.Send(tea.WindowSizeMsg{Width: size[0], Height: size[1]})
		lines := strings.Split(view(), "\n")
		if len(lines) != size[1] {
			t.Fatalf("%d×%d: %d lines", size[0], size[1], len(lines))
		}
		if first := lines[4]; !strings.HasPrefix(first, "▸ event-sink ") {
			t.Errorf("%d×%d: the first row is %q, want event-sink under the cursor:\n%s", size[0], size[1], first, strings.Join(lines, "\n"))
		}
	}
	// "with problems" are the groups p lists: every group with something at risk,
	// lost, ahead or missing, and the live consumers not keeping up (click-etl
	// only if the machine slows it down), never the idle groups that are all ok.
	tm.Send(tea.WindowSizeMsg{Width: 200, Height: 60})
	tm.Type("p")
	lines := strings.Split(view(), "\n")
	tm.Type("p")
	listed := map[string]bool{}
	for _, l := range lines[4 : len(lines)-2] { // the rows, not the status line and the keys
		if f := strings.Fields(strings.TrimPrefix(l, "▸")); len(f) > 0 {
			listed[f[0]] = true
		}
	}
	for _, g := range []string{"event-sink", "audit-export", "fanout", "mail-queue", "invoice-mailer", "billing", "replay", "new-svc"} {
		if !listed[g] {
			t.Errorf("%s is not listed with the problems", g)
		}
	}
	for _, g := range []string{"ledger", "r11-trace", "ship-svc"} {
		if listed[g] {
			t.Errorf("the idle group %s, all ok, is listed with the problems", g)
		}
	}
	if want := fmt.Sprintf("Groups %d of 12 · PROBLEMS ONLY · %d with problems", len(listed), len(listed)); !strings.HasPrefix(lines[2], want) {
		t.Errorf("title %q, want it to start %q:\n%s", lines[2], want, strings.Join(lines, "\n"))
	}
	tm.Send(tea.WindowSizeMsg{Width: 120, Height: 40})
	time.Sleep(time.Until(start.Add(40 * time.Second)))
	tm.Type("w")
	listReport := waitReport(t, reports, "groups")
	tm.Type(":g event-sink")
	tm.Send(tea.KeyMsg{Type: tea.KeyEnter})
	opened := time.Now()
	time.Sleep(7 * time.Second) // two reads of event-sink alone
	tm.Type("w")
	groupReport := waitReport(t, reports, "event-sink")
	tm.Type("q")
	tm.FinalModel(t, teatest.WithFinalTimeout(10*time.Second))

	for _, r := range []struct {
		text     string
		from, to time.Time
	}{{listReport, start.Add(30 * time.Second), start.Add(41 * time.Second)}, {groupReport, opened, time.Now()}} {
		taken := stampIn(t, r.text, `\| taken \| (\S+) \|`)
		if taken.Before(r.from) || taken.After(r.to) {
			t.Errorf("report taken %s, want its data's time, between %s and %s:\n%s", taken, r.from, r.to, r.text)
		}
		if !regexp.MustCompile(`\| rates \| over \S+ \(\d+ snapshots`).MatchString(r.text) {
			t.Errorf("report without the window of its rates:\n%s", r.text)
		}
	}
}

// waitReport returns the report whose file name names what, once written.
func waitReport(t *testing.T, dir, what string) string {
	t.Helper()
	for deadline := time.Now().Add(10 * time.Second); time.Now().Before(deadline); time.Sleep(50 * time.Millisecond) {
		files, _ := filepath.Glob(filepath.Join(dir, "offsettui-report-"+what+"-*.md"))
		if len(files) == 1 {
			if b, err := os.ReadFile(files[0]); err == nil && len(b) > 0 {
				return string(b)
			}
		}
	}
	t.Fatalf("no report of %s in %s", what, dir)
	return ""
}

// stampIn reads the time the pattern's group matches in text.
func stampIn(t *testing.T, text, pattern string) time.Time {
	t.Helper()
	m := regexp.MustCompile(pattern).FindStringSubmatch(text)
	if m == nil {
		t.Fatalf("no %s in:\n%s", pattern, text)
	}
	at, err := time.Parse(time.RFC3339Nano, m[1])
	if err != nil {
		t.Fatal(err)
	}
	return at
}
