package report

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/offsettui/offsettui/internal/display"
	"github.com/offsettui/offsettui/internal/model"
	"github.com/offsettui/offsettui/internal/text"
)

// StatusText renders a status badge with the amount that makes it actionable:
// "EXPIRED (lost 18)", "AHEAD (+50)".
func StatusText(st model.Status, lost, beyond *int64) string {
	s := st.Badge()
	switch {
	case lost != nil:
		s += fmt.Sprintf(" (lost %d)", *lost)
	case beyond != nil:
		s += fmt.Sprintf(" (+%d)", *beyond)
	}
	return s
}

// PartitionStatusText is a row's STATUS: StatusText, with what lies before high when it is
// transaction markers alone ("OK (1 transaction marker; Kafka's CLI shows LAG 1)"), after
// NOT-CONSUMED for a partition no member subscribes to ("NOT-CONSUMED (EXPIRED (lost 60))":
// shown, not the group's status).
func PartitionStatusText(p *model.GroupPartition) string {
	s := StatusText(p.Status, p.Lost(), p.Beyond())
	if m := p.TransactionMarkers(); m != nil {
		s += " (" + display.MarkersText(m) + ")"
	}
	if p.NotConsumed() {
		return display.NotConsumedBadge + " (" + s + ")"
	}
	return s
}

// SignedNum renders an optional change with its sign ("+30", "-5", "0"),
// "-" when absent.
func SignedNum(o model.Opt[int64]) string {
	switch {
	case !o.OK:
		return "-"
	case o.V > 0:
		return "+" + strconv.FormatInt(o.V, 10)
	}
	return strconv.FormatInt(o.V, 10)
}

// TotalLagText renders a group's total lag: the number when it is whole, "≥ N"
// when only a lower bound is known, "unknown" when nothing is.
func TotalLagText(g *model.Group) string {
	return display.FormatTotalLag(g, func(n int64) string { return strconv.FormatInt(n, 10) }, "unknown")
}

// countsText renders the counts worst first, "EXPIRED 1  MISSING 2" (OK only when
// nothing is wrong); "" when there are none.
func countsText(c model.Counts) string {
	var parts []string
	for _, sc := range c.Ordered() {
		parts = append(parts, sc.Status.Badge()+" "+text.Thousands(sc.N))
	}
	return strings.Join(parts, "  ")
}

// WindowCount says how many snapshots a window spans and, when fewer were kept
// to measure from (a sample closer than the minimum gap replaces the newest),
// how many: "7 snapshots", "8 snapshots, 2 kept".
func WindowCount(w *model.Window) string {
	if w.Snapshots > w.Samples {
		return fmt.Sprintf("%s, %d kept", text.Plural(w.Snapshots, "snapshot"), w.Samples)
	}
	return text.Plural(w.Samples, "snapshot")
}
