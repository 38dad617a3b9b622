package views

import (
	"fmt"
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"

	"github.com/offsettui/offsettui/internal/model"
)

// goldenSizes are the terminal sizes every main screen is drawn at.
var goldenSizes = [][2]int{{200, 60}, {120, 40}, {80, 24}, {60, 15}}

// longA and longB are two groups whose 50-character names differ only at the
// end, as generated names often do.
const (
	longA = "eu-west-payments-settlement-reconciler-v2-groups-a"
	longB = "eu-west-payments-settlement-reconciler-v2-groups-b"
)

// withNames adds a (audit-export's partitions: MISSING 1, AT-RISK 2) and b
// (ledger's: OK) to a snapshot.
func withNames(s model.Snapshot, a, b string) model.Snapshot {
	s.Groups = append([]model.Group{}, s.Groups...)
	for _, g := range s.Groups {
		switch g.Group {
		case "audit-export":
			g.Group = a
		case "ledger":
			g.Group = b
		default:
			continue
		}
		s.Groups = append(s.Groups, g)
	}
	model.SortGroupsByUrgency(s.Groups)
	return s
}

// longNameHarness shows the fixture plus the two long names.
func longNameHarness(t *testing.T, w, h int) *harness { return namesHarness(t, w, h, longA, longB) }

// namesHarness shows the fixture plus groups a and b.
func namesHarness(t *testing.T, w, h int, a, b string) *harness {
	src := &fakeSource{reply: func(q model.Query) (model.Snapshot, error) {
		s := withNames(fixtureSnapshot(fixtureNow, q.FetchBudget > 0), a, b)
		if len(q.Groups) == 1 {
			return onlyGroup(s, q.Groups[0]), nil
		}
		return s, nil
	}}
	return newHarness(t, optsWith(src, newClock()), w, h)
}

// Names of up to 32 cells are shown whole while a descriptive column (TYPE,
// TOPICS, PARTITIONS, MEMBERS, TREND) can give way; LAG, TIME-LAG, STATUS,
// STATE and COMMIT-TTL stay. At 80 and 60 columns nothing descriptive is left
// to drop, and the names are shortened in the middle.
func TestWholeNamesOutrankDescriptiveColumns(t *testing.T) {
	const a, b = "payments-settlement-recon-a", "payments-settlement-recon-b"
	for _, w := range []int{200, 160, 120} {
		v := ansi.Strip(namesHarness(t, w, 30, a, b).view())
		lines := strings.Split(v, "\n")
		for _, name := range []string{a, b} {
			if !strings.Contains(v, name+" ") {
				t.Errorf("%d columns: %s is not shown whole:\n%s", w, name, v)
			}
		}
		for _, col := range []string{"LAG", "TIME-LAG", "STATUS", "STATE"} {
			if !strings.Contains(lines[3], " "+col) {
				t.Errorf("%d columns: %s is gone for the names: %q", w, col, lines[3])
			}
		}
		if !strings.Contains(lines[3], "COMMIT-TTL") {
			t.Errorf("%d columns: COMMIT-TTL is gone for the names: %q", w, lines[3])
		}
	}
	for _, w := range []int{80, 60} {
		if v := ansi.Strip(namesHarness(t, w, 15, a, b).view()); strings.Contains(v, a) || !strings.Contains(v, "-a ") {
			t.Errorf("%d columns: want %s shortened in the middle, its end kept:\n%s", w, a, v)
		}
	}
}

// The groups list, a list with two 50-character names, the group detail and
// the planner, at each size.
func TestGoldenSizes(t *testing.T) {
	if len(longA) != 50 || len(longB) != 50 {
		t.Fatalf("the long names are %d and %d characters, want 50", len(longA), len(longB))
	}
	screens := []struct {
		name string
		open func(t *testing.T, w, h int) *harness
	}{
		{"groups", func(t *testing.T, w, h int) *harness { return loaded(t, w, h) }},
		{"long-names", longNameHarness},
		{"detail", func(t *testing.T, w, h int) *harness { return loaded(t, w, h).openGroup("audit-export") }},
		{"planner", func(t *testing.T, w, h int) *harness {
			hs, _ := plannerHarness(t, w, h, &fakeResetter{}, false)
			return hs.openGroup("audit-export").send(keyRunes("R"), keyRunes("h"), keyRunes("h"))
		}},
	}
	for _, sc := range screens {
		for _, sz := range goldenSizes {
			t.Run(fmt.Sprintf("%s/%dx%d", sc.name, sz[0], sz[1]), func(t *testing.T) {
				goldenView(t, sc.open(t, sz[0], sz[1]), sz[0], sz[1])
			})
		}
	}
}

// With two long names in the list, STATUS is never cut and the names stay
// apart: they are shortened in the middle, so their different ends show.
func TestLongNamesKeepStatusAndEnds(t *testing.T) {
	for _, sz := range goldenSizes {
		v := longNameHarness(t, sz[0], sz[1]).view()
		var rowA, rowB string
		for _, l := range strings.Split(ansi.Strip(v), "\n") {
			switch {
			case strings.Contains(l, "MISSING 1  AT-RISK 2") && strings.Contains(l, "eu-west"):
				rowA = l
			case strings.Contains(l, "OK 3") && strings.Contains(l, "eu-west"):
				rowB = l
			}
		}
		if rowA == "" || rowB == "" {
			t.Errorf("%dx%d: a long-named group's row lacks its whole STATUS:\n%s", sz[0], sz[1], v)
			continue
		}
		if !strings.Contains(rowA, "groups-a") || !strings.Contains(rowB, "groups-b") {
			t.Errorf("%dx%d: the names' ends are cut, the rows look alike:\n%s\n%s", sz[0], sz[1], rowA, rowB)
		}
	}
}

// At 80 columns TIME-LAG outlives the TREND sparkline: the columns drop in
// their written order.
func TestColumnsDropByPriority(t *testing.T) {
	header := func(w int) string {
		return strings.Split(loaded(t, w, 24).view(), "\n")[3]
	}
	for _, tc := range []struct {
		w          int
		keep, gone []string
	}{
		{200, []string{"GROUP", "TYPE", "STATE", "MEMBERS", "TOPICS", "PARTITIONS", "LAG", "TIME-LAG", "STATUS", "TREND"}, nil},
		{80, []string{"GROUP", "LAG", "TIME-LAG", "STATUS", "STATE"}, []string{"TYPE", "TOPICS"}},
		{60, []string{"GROUP", "LAG", "STATUS"}, []string{"TREND", "MEMBERS", "TYPE"}},
	} {
		h := header(tc.w)
		for _, k := range tc.keep {
			if !strings.Contains(h, k) {
				t.Errorf("%d columns: %s dropped: %q", tc.w, k, h)
			}
		}
		for _, g := range tc.gone {
			if strings.Contains(h, g+" ") || strings.HasSuffix(strings.TrimSpace(h), g) {
				t.Errorf("%d columns: %s kept before more important ones: %q", tc.w, g, h)
			}
		}
	}
}

// shortenMiddle keeps both ends, within the width.
func TestShortenMiddle(t *testing.T) {
	for _, tc := range []struct {
		in   string
		w    int
		want string
	}{
		{"short", 10, "short"},
		{longA, 20, "eu-west…-v2-groups-a"},
		{longB, 20, "eu-west…-v2-groups-b"},
		{"abcdef", 2, "a…"},
		{"日本語のグループ名", 9, "日本…プ名"},
	} {
		got := shortenMiddle(tc.in, tc.w)
		if got != tc.want || ansi.StringWidth(got) > tc.w {
			t.Errorf("shortenMiddle(%q, %d) = %q (%d cells), want %q", tc.in, tc.w, got, ansi.StringWidth(got), tc.want)
		}
	}
}

// A screen resized shows what a screen opened at that size shows: nothing
// drawn for the old width stays.
func TestResizeRedraws(t *testing.T) {
	for _, sc := range []struct {
		name string
		open func(t *testing.T, w, h int) *harness
	}{
		{"groups", func(t *testing.T, w, h int) *harness { return loaded(t, w, h) }},
		{"detail", func(t *testing.T, w, h int) *harness { return loaded(t, w, h).openGroup("audit-export") }},
		{"planner", func(t *testing.T, w, h int) *harness {
			hs, _ := plannerHarness(t, w, h, &fakeResetter{}, false)
			return hs.openGroup("audit-export").send(keyRunes("R"), keyRunes("h"), keyRunes("h"))
		}},
	} {
		hs := sc.open(t, 200, 60)
		for _, sz := range goldenSizes[1:] {
			hs.send(sizeMsg(sz[0], sz[1]))
			if got, want := hs.view(), sc.open(t, sz[0], sz[1]).view(); got != want {
				t.Errorf("%s resized from 200x60 to %dx%d:\n%s\nopened at that size:\n%s", sc.name, sz[0], sz[1], got, want)
			}
		}
	}
}
