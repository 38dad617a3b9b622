package timeaxis

import (
	"slices"
	"time"

	"github.com/offsettui/offsettui/internal/model"
)

// This process's own writes. A reset or a restore that offsettui executed
// moves a group's committed offsets once; read as consumption it would be a
// rate, a "rewound" ETA and a time to loss that vanishes until the window
// forgets the jump. RecordWrite tells the history about such a write: each
// written partition's committed series restarts at the write, as if first
// seen then (its high watermark series goes on: the log did not change). The
// same signal says who moved a commit: one written by this process is never
// a committer (WrittenAt).

// RecordWrite records that this process wrote group's positions on tps at
// at (the reset service's result: every row it may have written). The
// committed offsets of samples taken before at are forgotten, and those of
// samples recorded later with an earlier time are never kept, so rates,
// ETA, evaluation and time to loss start again from the first sample after
// the write.
func (h *History) RecordWrite(group string, tps []model.TP, at time.Time) {
	if len(tps) == 0 {
		return
	}
	gh := h.groups[group]
	if gh == nil {
		gh = &groupHistory{}
		h.groups[group] = gh
	}
	if gh.writes == nil {
		gh.writes = map[model.TP]int64{}
	}
	ms := at.UnixMilli()
	for _, tp := range tps {
		gh.writes[tp] = max(gh.writes[tp], ms)
	}
	gh.forgetBeforeWrites()
}

// WrittenAt reports when this process last wrote group's position on tp
// (RecordWrite), while the history keeps the group.
func (h *History) WrittenAt(group string, tp model.TP) (time.Time, bool) {
	gh := h.groups[group]
	if gh == nil {
		return time.Time{}, false
	}
	ms, ok := gh.writes[tp]
	if !ok {
		return time.Time{}, false
	}
	return time.UnixMilli(ms), true
}

// forgetBeforeWrites marks the committed offset of every sample taken before
// its partition's last write as unread.
func (gh *groupHistory) forgetBeforeWrites() {
	for tp, ms := range gh.writes {
		i, ok := slices.BinarySearchFunc(gh.parts, tp, func(p partHistory, t model.TP) int { return model.CompareTP(p.tp, t) })
		if !ok {
			continue
		}
		vals, lost := gh.parts[i].vals, gh.parts[i].lost
		for k, at := range gh.at {
			if at < ms && 2*k < len(vals) {
				vals[2*k] = Unread
			}
			if at < ms && k < len(lost) { // the write moved the commit, not retention
				lost[k] = Unread
			}
		}
	}
}
