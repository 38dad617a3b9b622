package clustertest

import "testing"

// TestScreenRows reads a groups screen as the TUI draws it (internal/views' golden of the
// groups screen), with the selected row's marker, a lag marked unknown and a sorted column.
func TestScreenRows(t *testing.T) {
	screen := `offsettui · demo · 3 brokers · updated 3s ago
groups
Groups 8 · 5 with problems · 3 columns hidden · sort: urgency
  GROUP          STATE   MEMBERS  PARTITIONS  LAG  TIME-LAG STATUS↓              TREND    ETA
▸ audit-export   Empty         0           6  250         ? MISSING 1  AT-RISK 2 ▄▄▄ →    never
  billing        Stable        1           6  ≥ 15        ? OK 6                 █▄▁ ↓    never
  new-svc        Stable        1           1    -         - MISSING 1                     -
`
	got := screenRows(screen)
	want := map[string]screenRow{
		"audit-export": {state: "Empty", members: "0", lag: "250"},
		"billing":      {state: "Stable", members: "1", lag: "≥ 15"},
		"new-svc":      {state: "Stable", members: "1", lag: "-"},
	}
	if len(got) != len(want) {
		t.Fatalf("read %d rows, want %d: %v", len(got), len(want), got)
	}
	for g, w := range want {
		if got[g] != w {
			t.Errorf("%s: read %+v, want %+v", g, got[g], w)
		}
	}
}
