package display

import (
	"fmt"
	"strings"

	"github.com/offsettui/offsettui/internal/model"
	"github.com/offsettui/offsettui/internal/text"
)

// TieredLine is one line about a partition of a tiered topic (KIP-405) for describe, the
// report and the TUI: where its local log starts and whether the group's next record is
// read from remote storage; "" when the local start is not known.
func TieredLine(p *model.GroupPartition) string {
	if p.LocalLow() == nil {
		return ""
	}
	ll := *p.LocalLow()
	line := fmt.Sprintf("tiered: local log starts at %d", ll)
	if p.Low != nil && *p.Low < ll {
		line += fmt.Sprintf(" (%d..%d only in remote storage)", *p.Low, ll-1)
	}
	if p.ReadsRemote() != nil && *p.ReadsRemote() {
		line += fmt.Sprintf("; the group's next record, %d, is read from remote storage (slower than from the broker's disk)", *p.Committed)
	}
	return line
}

// LocalRetentionText describes a tiered topic's local retention: local.retention.ms and
// .bytes, -2 meaning retention.ms / retention.bytes; "" for a topic that is not tiered.
func LocalRetentionText(t *model.Topic) string {
	if t == nil || !t.Tiered() {
		return ""
	}
	one := func(name string, v *int64, human func(*int64) string) string {
		switch {
		case v == nil:
			return name + " unknown"
		case *v == -2:
			return name + " -2 (= retention." + strings.TrimPrefix(name, "local.retention.") + ")"
		case *v < 0:
			return name + " unlimited"
		}
		return name + " " + human(v)
	}
	return "tiered (remote.storage.enable): " + one("local.retention.ms", t.LocalRetentionMs, text.HumanMs) + ", " +
		one("local.retention.bytes", t.LocalRetentionBytes, func(v *int64) string { return text.Thousands(*v) + " B" })
}
