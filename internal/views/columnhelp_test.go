package views

import (
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"

	"github.com/offsettui/offsettui/internal/model"
	"github.com/offsettui/offsettui/internal/model/plan"
)

// TestColumnHelp: every column of every table has its line in columnhelp.go, and every
// line there is of a column the table has.
func TestColumnHelp(t *testing.T) {
	executed := &plan.Plan{Rows: []plan.Row{{Topic: "t", Result: plan.WriteWritten}}}
	for _, tc := range []struct {
		name   string
		tables [][]column
		help   map[string]string
	}{
		{"groups", [][]column{groupColumns(nil, true)}, groupsColumnHelp},
		{"group", [][]column{partitionColumns(nil, model.TypeClassic, true, true), partitionColumns(nil, model.TypeShare, false, true)}, partitionColumnHelp},
		{"plan", [][]column{planColumns(executed), planColumns(&plan.Plan{Type: model.TypeShare})}, planColumnHelp},
	} {
		titles := map[string]bool{}
		for _, cols := range tc.tables {
			for _, n := range columnNotes(cols, tc.help) {
				titles[n.title] = true
				if n.meaning == "" {
					t.Errorf("%s: column %s has no meaning in columnhelp.go", tc.name, n.title)
				}
			}
		}
		for title := range tc.help {
			if !titles[title] {
				t.Errorf("%s: columnhelp.go explains %s, which the table does not have", tc.name, title)
			}
		}
	}
}

// TestHelpListsEveryColumn: `?` explains every column of the screen below it, those a
// narrow terminal hides and the time axis' too; it never said what EXPIRES-IN,
// COMMIT-TTL, LOSS-IN, TIME-LAG or TREND meant.
func TestHelpListsEveryColumn(t *testing.T) {
	hs, _ := plannerHarness(t, 200, 120, &fakeResetter{}, false)
	hs.send(keyRunes("?"))
	v := ansi.Strip(hs.view())
	for _, w := range []string{"columns: groups", "LOSS-IN     the soonest partition's deadline: now while", "COMMIT-TTL  the group's first commit: time until",
		"TIME-LAG    the largest time lag", "TREND       the total lag over this session's refreshes", "CONSUME", "EVAL"} {
		if !strings.Contains(v, w) {
			t.Errorf("the groups list's help lacks %q:\n%s", w, v)
		}
	}
	hs.send(keyRunes("?")).openGroup("replay").send(keyRunes("?"))
	v = ansi.Strip(hs.view())
	for _, w := range []string{"columns: replay", "EXPIRES-IN  when retention may delete the next record", "COMMIT-TTL  time until the broker may delete the commit",
		"TIME-LAG    how old the record at the committed offset is", "TREND       the partition's lag over the samples kept", "POSITION", "CONSUMER"} {
		if !strings.Contains(v, w) {
			t.Errorf("the group's help lacks %q:\n%s", w, v)
		}
	}
}
