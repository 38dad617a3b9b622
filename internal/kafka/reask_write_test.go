package kafka_test

import (
	"context"
	"maps"
	"testing"

	"github.com/offsettui/offsettui/internal/model"
	"github.com/twmb/franz-go/pkg/kerr"
	"github.com/twmb/franz-go/pkg/kmsg"
)

// TestCommitRefusedByAMovedCoordinatorIsSentAgain: a commit whose every partition the
// coordinator refused with NOT_COORDINATOR (it moved: nothing was written) is sent again
// to the coordinator found anew, and lands; the read-back after a commit answered
// COORDINATOR_LOAD_IN_PROGRESS is asked again too.
func TestCommitRefusedByAMovedCoordinatorIsSentAgain(t *testing.T) {
	k, s := movingWorld(t)
	commits := failTimes(k, kmsg.OffsetCommit, 1, func(req kmsg.Request) kmsg.Response {
		resp := req.ResponseKind().(*kmsg.OffsetCommitResponse)
		resp.Version = req.GetVersion()
		for _, rt := range req.(*kmsg.OffsetCommitRequest).Topics {
			st := kmsg.NewOffsetCommitResponseTopic()
			st.Topic = rt.Topic
			for _, rp := range rt.Partitions {
				sp := kmsg.NewOffsetCommitResponseTopicPartition()
				sp.Partition, sp.ErrorCode = rp.Partition, kerr.NotCoordinator.Code
				st.Partitions = append(st.Partitions, sp)
			}
			resp.Topics = append(resp.Topics, st)
		}
		return resp
	})
	fetches := failTimes(k, kmsg.OffsetFetch, 1, func(req kmsg.Request) kmsg.Response {
		resp := req.ResponseKind().(*kmsg.OffsetFetchResponse)
		resp.Version = req.GetVersion()
		for _, g := range req.(*kmsg.OffsetFetchRequest).Groups {
			rg := kmsg.NewOffsetFetchResponseGroup()
			rg.Group, rg.ErrorCode = g.Group, kerr.CoordinatorLoadInProgress.Code
			resp.Groups = append(resp.Groups, rg)
		}
		if len(resp.Groups) == 0 { // below v8: one group, its error at the top
			resp.ErrorCode = kerr.CoordinatorLoadInProgress.Code
		}
		return resp
	})
	cl := newClient(t, k.ListenAddrs(), nil)
	ctx := context.Background()
	want := map[model.TP]int64{{Topic: "t", Partition: 0}: 4, {Topic: "t", Partition: 1}: 4}
	rejected, err := cl.CommitOffsets(ctx, "a", want)
	if err != nil || len(rejected) != 0 || commits.Load() != 2 {
		t.Fatalf("commit: rejected %v, err %v after %d OffsetCommit; want written on the second", rejected, err, commits.Load())
	}
	got, err := cl.Committed(ctx, "a")
	if err != nil || !maps.Equal(got, want) || fetches.Load() != 2 {
		t.Errorf("read-back: %v, %v after %d OffsetFetch; want %v on the second", got, err, fetches.Load(), want)
	}
	if direct := s.Committed("a"); !maps.Equal(direct, want) {
		t.Errorf("the commits read directly: %v, want %v", direct, want)
	}
}
