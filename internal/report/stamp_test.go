package report

import (
	"bytes"
	"strings"
	"testing"
	"time"

	"github.com/offsettui/offsettui/internal/model"
)

// Every report says when its numbers were read: a group read after the
// snapshot's time (the TUI reads an open group on its own) is named with its
// time, and a window says how many snapshots it spans when fewer were kept
// (describe --watch --interval 1s said "2 snapshots" on every frame).
func TestReportsSayWhenTheirNumbersWereRead(t *testing.T) {
	s := snapshot()
	taken := s.Cluster.TakenAt.Time
	s.Window = &model.Window{Samples: 2, Snapshots: 8, From: model.Stamp{Time: taken.Add(-7 * time.Second)}, To: s.Cluster.TakenAt}
	s.Groups[0].ReadAt = model.StampOf(taken.Add(12 * time.Second))
	var md, table bytes.Buffer
	if err := Markdown(&md, s); err != nil {
		t.Fatal(err)
	}
	if err := DescribeFit(&table, s, 0); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{
		"| read later | `" + s.Groups[0].Group + "` at 2026-11-29T08:00:12.000Z |",
		"| rates | over 7s (8 snapshots, 2 kept from 2026-11-29T07:59:53.000Z) |",
	} {
		if !strings.Contains(md.String(), want) {
			t.Errorf("Markdown lacks %q:\n%s", want, md.String())
		}
	}
	if want := "rates over 7s (8 snapshots, 2 kept)"; !strings.Contains(table.String(), want) {
		t.Errorf("table lacks %q:\n%s", want, table.String())
	}
}
