package logread

import (
	"context"
	"fmt"
	"slices"
	"sync"
	"time"

	"github.com/offsettui/offsettui/internal/kafka/wire"
	"github.com/offsettui/offsettui/internal/model"
)

// compactedFetchBytes is the per-partition limit of the reads at committed offsets of
// compacted topics: enough for the first batch at a commit (what the flag needs) and,
// on a small backlog, every record up to the high watermark (the stored-records count).
const compactedFetchBytes = 32 << 10

// compactedCandidates lists the committed offsets on compacted topics that have
// records left to read (low ≤ committed < high), once each, sorted: what
// internal/model/status/compaction.go judges. Share groups are left out.
func compactedCandidates(obs *model.Observation) []model.TPO {
	compacted := map[string]bool{}
	for name, t := range obs.Topics {
		if t.Compacts() {
			compacted[name] = true
		}
	}
	if len(compacted) == 0 {
		return nil // most clusters' groups: no row to look at
	}
	seen := map[model.TPO]bool{}
	var out []model.TPO
	for i := range obs.Groups {
		g := &obs.Groups[i]
		if g.Type == model.TypeShare {
			continue
		}
		for tp, off := range g.Committed {
			if !compacted[tp.Topic] {
				continue
			}
			po := obs.Offsets[tp]
			if po.Error != nil || po.Low == nil || po.High == nil || off < *po.Low || off >= *po.High {
				continue
			}
			if w := (model.TPO{TP: tp, Offset: off}); !seen[w] {
				seen[w] = true
				out = append(out, w)
			}
		}
	}
	slices.SortFunc(out, func(a, b model.TPO) int {
		if c := model.CompareTP(a.TP, b.TP); c != 0 {
			return c
		}
		return int(a.Offset - b.Offset)
	})
	return out
}

// compactedReads reads each wanted committed offset of a compacted topic with Fetch,
// one request per leader and round (compacted_read.go), within budget bytes in all: the
// first read of each commit first (in want's order; those beyond the budget are marked not
// read), further reads with what is left. Every wanted offset gets an answer: what the
// reads saw, the read's error, or why it was not read.
func (c *Reader) compactedReads(ctx context.Context, lay wire.TopicLayout, offsets map[model.TP]model.PartitionOffsets, want []model.TPO, budget int64) map[model.TPO]model.CompactedRead {
	out := make(map[model.TPO]model.CompactedRead, len(want))
	maxParts := int(max(0, budget/compactedFetchBytes))
	if len(want) > maxParts {
		c.conn.Logf("fetch budget %d B covers %d of %d reads at commits on compacted topics", budget, maxParts, len(want))
		for _, w := range want[maxParts:] {
			out[w] = model.CompactedRead{NotRead: fmt.Sprintf("not read: --fetch-budget (%d B) covers %d of the %d commits on compacted topics to read", budget, maxParts, len(want))}
		}
		want = want[:maxParts]
	}
	byLeader := map[int32][]model.TPO{}
	var leaders []int32
	for _, w := range want {
		l, ok := lay.Leader[w.TP]
		if !ok {
			out[w] = model.CompactedRead{NotRead: "not read: the partition has no leader"}
			continue
		}
		if _, seen := byLeader[l]; !seen {
			leaders = append(leaders, l)
		}
		byLeader[l] = append(byLeader[l], w)
	}
	var mu sync.Mutex
	share := budget / int64(max(1, len(leaders)))
	wire.Run(c.conn, leaders, func(l int32) {
		got := c.readCompacted(ctx, l, byLeader[l], offsets, share)
		mu.Lock()
		defer mu.Unlock()
		for k, v := range got {
			out[k] = v
		}
	})
	return out
}

// ObserveCompacted reads the commits on compacted topics into obs (their failures into
// its errors) and returns the committed offsets still to be timed by CommittedTimestamps
// with the timestamps these reads learned.
func (c *Reader) ObserveCompacted(ctx context.Context, obs *model.Observation, lay wire.TopicLayout, want []model.TPO, budget int64) ([]model.TPO, map[model.TPO]time.Time) {
	obs.Compacted = c.compactedReads(ctx, lay, obs.Offsets, compactedCandidates(obs), budget)
	failed := map[model.TP]*model.Error{}
	for w, r := range obs.Compacted {
		if r.Error != nil {
			failed[w.TP] = r.Error
		}
	}
	for _, tp := range model.SortedTPs(failed) {
		obs.Errors = append(obs.Errors, *failed[tp])
	}
	stamps := map[model.TPO]time.Time{}
	return timestampsOfCompacted(obs.Compacted, stamps, want), stamps
}

// timestampsOfCompacted gives the committed-record timestamps the compacted reads
// learned (the first data record at or after the commit), and returns want without them.
func timestampsOfCompacted(reads map[model.TPO]model.CompactedRead, stamps map[model.TPO]time.Time, want []model.TPO) []model.TPO {
	return slices.DeleteFunc(want, func(w model.TPO) bool {
		r, ok := reads[w]
		if !ok || r.Error != nil || r.NotRead != "" {
			return false
		}
		if r.NextStoredAt != nil {
			stamps[w] = *r.NextStoredAt
		}
		return true
	})
}
