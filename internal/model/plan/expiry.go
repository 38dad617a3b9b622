package plan

import (
	"fmt"
	"time"

	"github.com/offsettui/offsettui/internal/model"
	"github.com/offsettui/offsettui/internal/text"
)

// TargetExpiryNotes warns of targets that retention may delete soon: a rewind to
// a record that is itself about to go (to-earliest always lands on the next
// record to be deleted) leaves the group expired again, and its consumers
// jump to auto.offset.reset, if they do not reach it in time. retentionMs is
// each topic's retention.ms (topics that delete by time); a row is noted when
// the record at its target, at its timestamp, may be deleted within window of
// now. Rows whose target record's timestamp is not known are not guessed.
func TargetExpiryNotes(p Plan, retentionMs map[string]int64, now time.Time, window time.Duration) []Note {
	var out []Note
	for _, r := range p.Rows {
		ret, ok := retentionMs[r.Topic]
		if !ok || ret < 0 || r.Target == nil || r.High == nil || *r.Target >= *r.High || r.TargetTimestamp == nil {
			continue
		}
		in := r.TargetTimestamp.Add(time.Duration(ret) * time.Millisecond).Sub(now)
		if in >= window {
			continue
		}
		when := "in " + text.HumanDuration(in.Truncate(time.Second))
		if in <= 0 {
			when = "now (its retention ran out " + text.HumanDuration((-in).Truncate(time.Second)) + " ago)"
		}
		tp := r.TP()
		out = append(out, Note{Kind: NoteTargetExpires, Topic: model.Ptr(tp.Topic), Partition: model.Ptr(tp.Partition), InMs: model.Ptr(in.Milliseconds()),
			Message: fmt.Sprintf("%s: retention may delete the target record %d itself %s: unless the group reads it before, "+
				"it is expired again and its consumers jump to auto.offset.reset", tp, *r.Target, when)})
	}
	return out
}
