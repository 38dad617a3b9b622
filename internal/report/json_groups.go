package report

import (
	"bytes"
	"strconv"

	"github.com/offsettui/offsettui/internal/model"
)

// groups writes the groups array; many groups are written in chunks on every core
// (inChunks).
func (j *jsonWriter) groups(gs []model.Group) {
	if len(gs) < 2*groupChunk {
		j.array(gs == nil, len(gs), func(i int) { j.group(&gs[i]) })
		return
	}
	j.raw("[")
	err := inChunks(len(gs), func(buf *bytes.Buffer, from, to int) error {
		cw := jsonWriter{w: buf}
		for i := from; i < to; i++ {
			if i > 0 {
				cw.raw(",")
			}
			cw.group(&gs[i])
		}
		return cw.err
	}, func(b []byte) error {
		j.bytes(b)
		return j.err
	})
	if j.err == nil {
		j.err = err
	}
	j.raw("]")
}

// group writes one group field by field in model.Group's order, as encoding/json
// writes it: the head, the partition rows one by one, then the tail. Members and the
// rarer objects (expiry, committer, topology, error, time, change) go through
// encoding/json when present.
func (j *jsonWriter) group(g *model.Group) {
	if j.err != nil {
		return
	}
	b := append(j.buf[:0], `{"group":`...)
	b = appendString(b, g.Group)
	b = appendKeyString(b, `,"type":`, g.Type)
	b = appendKeyString(b, `,"state":`, g.State)
	b = appendKeyString(b, `,"protocolType":`, g.ProtocolType)
	b = appendKeyString(b, `,"protocol":`, g.Protocol)
	b = append(b, `,"coordinator":`...)
	b = strconv.AppendInt(b, int64(g.Coordinator), 10)
	b = append(b, `,"members":`...)
	var err error
	switch {
	case g.Members == nil:
		b = append(b, "null"...)
	case len(g.Members) == 0:
		b = append(b, "[]"...)
	default:
		b, err = appendMarshal(b, g.Members)
	}
	b = appendNum(b, `,"totalLag":`, g.TotalLag)
	b = appendNum(b, `,"totalLagAtLeast":`, g.TotalLagAtLeast)
	b = appendKeyString(b, `,"worstStatus":`, g.WorstStatus.String())
	b = append(b, `,"counts":`...)
	b = g.Counts.AppendJSON(b)
	b = append(b, `,"losingNow":`...)
	b = strconv.AppendBool(b, g.LosingNow)
	b = append(b, `,"lostRatePerSec":`...)
	if r := g.LostRatePerSec; r.OK {
		b = appendFloat(b, r.V)
	} else {
		b = append(b, "null"...)
	}
	b = append(b, `,"unsubscribedTopics":`...)
	if g.UnsubscribedTopics == nil {
		b = append(b, "null"...)
	} else {
		b = append(b, '[')
		for i, t := range g.UnsubscribedTopics {
			if i > 0 {
				b = append(b, ',')
			}
			b = appendString(b, t)
		}
		b = append(b, ']')
	}
	b = appendNum(b, `,"offsetsExpireAfterMs":`, g.OffsetsExpireAfterMs)
	b = appendStamp(b, `,"commitsExpireAt":`, g.CommitsExpireAt)
	b = appendCommitExpiry(b, `,"commitsExpiry":`, g.CommitsExpiry)
	b = appendOptString(b, `,"shareAutoOffsetReset":`, g.ShareAutoOffsetReset)
	b = append(b, `,"committer":`...)
	b = appendOptionalTo(b, g.Committer, &err)
	b = append(b, `,"topology":`...)
	b = appendOptionalTo(b, g.Topology, &err)
	b = append(b, `,"partitions":`...)
	if err != nil {
		j.err = err
		return
	}
	j.buf = b
	j.bytes(b)
	j.array(g.Partitions == nil, len(g.Partitions), func(i int) { j.partition(&g.Partitions[i]) })
	b = append(j.buf[:0], `,"error":`...)
	b = appendOptionalTo(b, g.Error, &err)
	b = append(b, `,"time":`...)
	b = appendOptionalTo(b, g.Time, &err)
	b = append(b, `,"change":`...)
	b = appendOptionalTo(b, g.Change, &err)
	b = append(b, '}')
	if err != nil {
		j.err = err
		return
	}
	j.buf = b
	j.bytes(b)
}

// appendCommitExpiry appends key and the group's commit-expiry clock, or null: most
// groups of a fleet have one.
func appendCommitExpiry(b []byte, key string, e *model.CommitExpiry) []byte {
	b = append(b, key...)
	if e == nil {
		return append(b, "null"...)
	}
	b = appendRule(b, `{"rule":`, e.Rule)
	b = appendStamp(b, `,"emptySince":`, e.EmptySince)
	b = appendRule(b, `,"unknownTime":`, e.UnknownTime)
	b = appendStamp(b, `,"latest":`, e.Latest)
	b = append(b, `,"expiring":`...)
	b = strconv.AppendInt(b, int64(e.Expiring), 10)
	b = appendNum(b, `,"expiringInMs":`, e.ExpiringInMs)
	b = append(b, `,"retentionMs":`...)
	b = strconv.AppendInt(b, e.RetentionMs, 10)
	b = append(b, `,"retentionAssumed":`...)
	b = strconv.AppendBool(b, e.RetentionAssumed)
	b = appendNum(b, `,"checkIntervalMs":`, e.CheckIntervalMs)
	b = appendKeyString(b, `,"commitLog":`, e.CommitLog)
	b = appendOptString(b, `,"commitLogReason":`, e.CommitLogReason)
	return append(b, '}')
}

// appendRule appends key and the rule as model.ExpiryRule writes it: null for none.
func appendRule(b []byte, key string, r model.ExpiryRule) []byte {
	if r == model.ExpiryNone {
		return append(append(b, key...), "null"...)
	}
	return appendKeyString(b, key, r.String())
}

// appendKeyString appends key and s as a JSON string.
func appendKeyString(b []byte, key, s string) []byte {
	return appendString(append(b, key...), s)
}

// appendOptionalTo is appendOptional keeping the first error in *err: a group's
// fields are written in one run and the error checked once.
func appendOptionalTo[T any](b []byte, v *T, err *error) []byte {
	if *err != nil {
		return b
	}
	b, *err = appendOptional(b, v)
	return b
}
