package display

import (
	"fmt"
	"strings"

	"github.com/offsettui/offsettui/internal/model"
	"github.com/offsettui/offsettui/internal/text"
)

// MissedDeletesText says why a group may have missed deletes on a compacted partition
// (docs/statuses.md, "Compacted topics"), with the numbers; "" when it is not flagged.
func MissedDeletesText(p *model.GroupPartition) string {
	cp := p.Compaction()
	if cp == nil || !cp.MayMissDeletes || p.Committed == nil {
		return ""
	}
	c := *p.Committed
	var why []string
	for _, w := range cp.Why {
		switch w {
		case model.CompactionWhyRemoved:
			why = append(why, removedText(cp, c))
		case model.CompactionWhyOld:
			age := "older"
			if p.TimeLagMs != nil {
				age = text.HumanMs(p.TimeLagMs) + " old"
			}
			why = append(why, fmt.Sprintf("the next record it reads is %s, past delete.retention.ms (%s), so tombstones written after it may be gone before it reads them",
				age, text.HumanMs(cp.DeleteRetentionMs)))
		}
	}
	return fmt.Sprintf("the group read up to %d and may have missed deletes: %s; a consumer that keeps state from this topic should rebuild it from offset %d",
		c, strings.Join(why, "; "), model.Deref(p.Low))
}

func removedText(cp *model.Compaction, c int64) string {
	if cp.Removed != nil {
		return fmt.Sprintf("the cleaner removed %s at its position (%d..%d hold no record; the next stored is %d), tombstones among them perhaps",
			text.Plural(*cp.Removed, "offset"), c, c+*cp.Removed-1, *cp.NextStored)
	}
	return fmt.Sprintf("the cleaner removed at least %s at its position (from %d on), tombstones among them perhaps",
		text.Plural(model.Deref(cp.RemovedAtLeast), "offset"), c)
}

// StoredRecordsText says how much of a compacted partition's lag is records still stored:
// "4 records stored of 39 offsets", "≥ 120 records stored"; "" when not known.
func StoredRecordsText(p *model.GroupPartition) string {
	cp := p.Compaction()
	switch {
	case cp == nil:
		return ""
	case cp.StoredRecords != nil:
		return fmt.Sprintf("%s stored of %s", text.Plural(*cp.StoredRecords, "record"), text.Plural(model.Deref(p.Lag), "offset"))
	case cp.StoredRecordsAtLeast != nil:
		return fmt.Sprintf("≥ %s stored of %s", text.Plural(*cp.StoredRecordsAtLeast, "record"), text.Plural(model.Deref(p.Lag), "offset"))
	}
	return ""
}

// CompactionLine is one line about a compacted partition for describe, the report and
// the TUI: the flag, or what is not known, with the stored records and what the time
// lag is measured from; "" when there is nothing to say.
func CompactionLine(p *model.GroupPartition) string {
	cp := p.Compaction()
	if cp == nil {
		return ""
	}
	var parts []string
	switch {
	case cp.MayMissDeletes:
		parts = append(parts, "MAY MISS DELETES: "+MissedDeletesText(p))
	case cp.Unknown != nil:
		parts = append(parts, "whether the group missed deletes is unknown: "+*cp.Unknown)
	}
	if s := StoredRecordsText(p); s != "" {
		parts = append(parts, "lag "+s)
	}
	if cp.TimeLagFrom != nil && p.Committed != nil && *cp.TimeLagFrom != *p.Committed {
		parts = append(parts, fmt.Sprintf("time lag from record %d, the first stored after the commit (newer than those removed: the position is at least that old)", *cp.TimeLagFrom))
	}
	if len(parts) == 0 {
		return ""
	}
	return "compacted: " + strings.Join(parts, "; ")
}
