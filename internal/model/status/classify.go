package status

import (
	"time"

	"github.com/offsettui/offsettui/internal/model"
)

// Input is everything needed to classify one group partition.
type Input struct {
	Committed *int64
	Offsets   model.PartitionOffsets
	Topic     *model.Topic
	// CommittedTimestamp is the timestamp of the record at Committed, when fetched.
	CommittedTimestamp *time.Time
	Now                time.Time
	// GroupError is set when the group's commits could not be read.
	GroupError *model.Error
	// Markers is what a read_committed fetch from Committed found up to the high watermark
	// when that was transaction markers and aborted records only (markers.go).
	Markers *model.TransactionMarkers
	// MarkersUnknown is why that could not be told, where it might have been.
	MarkersUnknown *string
	// Compacted is the read at Committed on a compacted topic, when made.
	Compacted *model.CompactedRead

	// Numbers, when set, holds the row's numbers (internal/model/assemble: one block for
	// many rows).
	Numbers *Numbers
}

// Classify computes a group partition's lag, status and derived numbers as
// docs/statuses.md defines them, into *p, which must be the zero GroupPartition (a new
// row): a group's rows are classified in place (internal/model/assemble), so 500,000 of
// them are not each copied twice, nor written whole once more. Topic and partition are
// left for the caller.
func Classify(p *model.GroupPartition, in Input) {
	classify(p, in)
	classifyCompaction(p, in.Topic, in.Compacted, in.Now)
	if p.SetLocalLow(in.Offsets.LocalLow); p.LocalLow() != nil && p.Committed != nil && p.Low != nil && *p.Committed >= *p.Low {
		p.SetReadsRemote(model.Ptr(*p.Committed < *p.LocalLow()))
	}
}

// classify sets the row's offsets, lag and status against the log's bounds; a commit
// inside the log with records still to read is judged by behind.
func classify(p *model.GroupPartition, in Input) {
	o := in.Offsets
	p.Low, p.High, p.LastStable, p.Committed = o.Low, o.High, o.LastStable, in.Committed
	if in.GroupError != nil {
		p.Status, p.Error = model.StatusUnknown, in.GroupError
		return
	}
	if in.Committed != nil && o.High != nil {
		p.Lag = in.Numbers.Ptr(*o.High - *in.Committed)
	}
	if in.CommittedTimestamp != nil {
		p.SetCommittedTimestamp(model.StampOf(*in.CommittedTimestamp))
	}
	if o.Error != nil || o.Low == nil || o.High == nil {
		p.Status, p.Error = model.StatusUnknown, o.Error
		return
	}
	low, high := *o.Low, *o.High
	if in.Committed == nil {
		p.Status = model.StatusMissing
		return
	}
	c := *in.Committed
	switch {
	case c < low:
		p.Status = model.StatusExpired
		p.SetLost(in.Numbers.Ptr(low - c))
		return
	case c > high:
		p.Status = model.StatusAhead
		p.SetBeyond(in.Numbers.Ptr(c - high))
		return
	}
	if c == high {
		// Caught up: nothing stored is waiting, so retention cannot take anything
		// from this group, whatever the topic's configs say.
		p.Status = model.StatusOK
		p.TimeLagMs = in.Numbers.Ptr(int64(0))
		return
	}
	if onlyMarkers(in.Markers, c, o) {
		// Caught up too: nothing a read_committed consumer receives is left, only
		// transaction markers and aborted records (its position moves past them).
		m := *in.Markers
		m.KafkaLag = high - c
		p.Lag, p.Status = in.Numbers.Ptr(int64(0)), model.StatusOK
		p.SetTransactionMarkers(&m)
		p.SetCommittedTimestamp(nil)
		p.TimeLagMs = in.Numbers.Ptr(int64(0))
		return
	}
	behind(p, in, c, high)
}

// behind classifies commit c, inside the log and below high: at risk when retention may
// delete records the group has not read within the risk window, ok when it cannot, and
// unknown without the topic's configs or the risk lookup that decide it.
func behind(p *model.GroupPartition, in Input, c, high int64) {
	o := in.Offsets
	p.SetMarkersUnknown(in.MarkersUnknown)
	if in.CommittedTimestamp != nil {
		p.TimeLagMs = in.Numbers.Ptr(max(0, in.Now.Sub(*in.CommittedTimestamp).Milliseconds()))
	}
	t := in.Topic
	if t == nil || !t.ConfigKnown() {
		// Without the topic's configs at-risk cannot be ruled out.
		p.Status = model.StatusUnknown
		if t != nil {
			p.Error = t.Error
		}
		return
	}
	timed := t.Deletes() && t.RetentionMs != nil && *t.RetentionMs >= 0
	if timed && in.CommittedTimestamp != nil {
		exp := in.CommittedTimestamp.Add(time.Duration(*t.RetentionMs) * time.Millisecond)
		p.ExpiresInMs = in.Numbers.Ptr(exp.Sub(in.Now).Milliseconds())
	}
	if !timed {
		p.Status = model.StatusOK
		return
	}
	if o.RiskOffset == nil {
		p.Status = model.StatusUnknown
		return
	}
	risk := *o.RiskOffset
	if risk < 0 { // no record at or after the threshold: every stored record is older
		risk = high
	}
	if c < risk {
		p.Status = model.StatusAtRisk
	} else {
		p.Status = model.StatusOK
	}
}

// RiskThreshold is the timestamp T for the at-risk lookup of a topic: the first
// offset whose timestamp is ≥ T is the first record that retention cannot delete
// within the window. ok is false when the topic has no time retention.
func RiskThreshold(t model.Topic, now time.Time, window time.Duration) (time.Time, bool) {
	if !t.ConfigKnown() || !t.Deletes() || t.RetentionMs == nil || *t.RetentionMs < 0 {
		return time.Time{}, false
	}
	return now.Add(-time.Duration(*t.RetentionMs) * time.Millisecond).Add(window), true
}
