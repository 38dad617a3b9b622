package status

import (
	"testing"

	"github.com/offsettui/offsettui/internal/model"
)

// TestReadsRemote: a commit between the log start (remote included) and the local log
// start is ok and read from remote storage; one at or above the local start is not; the
// local start unknown says nothing.
func TestReadsRemote(t *testing.T) {
	tiered := &model.Topic{Topic: "t", Partitions: 1, CleanupPolicy: model.Ptr("delete"), RetentionMs: i64(-1), RetentionBytes: i64(-1), RemoteStorage: model.Ptr(true)}
	cases := []struct {
		committed int64
		localLow  *int64
		want      *bool
	}{
		{15, i64(50), model.Ptr(true)},
		{50, i64(50), model.Ptr(false)},
		{59, i64(50), model.Ptr(false)},
		{15, nil, nil},
	}
	for _, c := range cases {
		p := classified(Input{Committed: i64(c.committed), Offsets: model.PartitionOffsets{Low: i64(0), LocalLow: c.localLow, High: i64(60)}, Topic: tiered, Now: now})
		if p.Status != model.StatusOK || (p.ReadsRemote() == nil) != (c.want == nil) || (c.want != nil && *p.ReadsRemote() != *c.want) {
			t.Errorf("committed %d, local start %v: status %s, readsRemote %v, want ok and %v", c.committed, c.localLow, p.Status, p.ReadsRemote(), c.want)
		}
		if !samePtr(p.LocalLow(), c.localLow) {
			t.Errorf("localLow %v, want %v", p.LocalLow(), c.localLow)
		}
	}
}

func samePtr(p, q *int64) bool {
	return (p == nil && q == nil) || (p != nil && q != nil && *p == *q)
}
