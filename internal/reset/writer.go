package reset

import (
	"context"
	"errors"
	"maps"
	"slices"

	"github.com/offsettui/offsettui/internal/model"
	"github.com/offsettui/offsettui/internal/model/plan"
)

// writer is how a plan's offsets reach the broker for one group type: the executor
// (execute.go) is the same for every type, with every guard; only the write and the
// read-back differ. Classic, consumer and streams groups take committed offsets
// (OffsetCommit in the admin form, then OffsetDelete; OffsetFetch to read back); share
// groups take share-partition start offsets (DeleteShareGroupOffsets per topic first, then
// AlterShareGroupOffsets; DescribeShareGroupOffsets to read back).
type writer interface {
	// write sets the offsets of commit and removes the positions of del (a restore of
	// partitions that had none). rejected lists the partitions the broker refused; err is
	// set when a request as a whole failed, and then what was written is known only by
	// reading back.
	write(ctx context.Context, group string, commit map[model.TP]int64, del []model.TP) (rejected []model.Error, err error)
	// readBack reads the positions after the write, for verification.
	readBack(ctx context.Context, group string) (map[model.TP]int64, error)
}

// writerFor returns the writer of a group type. A type offsettui does not know never
// reaches it: the plan refuses it (plan.BlockGroupTypeUnknown).
func (s *Service) writerFor(typ string) writer {
	if typ == model.TypeShare {
		return shareWriter{s.Cluster}
	}
	return commitWriter{s.Cluster}
}

type commitWriter struct{ c Cluster }

// write commits, then deletes. When the broker refused every commit (the group has live
// members, or no coordinator was found) the deletes are not sent: OffsetDelete on a live
// group still removes the commits of topics it does not subscribe to, which would leave
// half a restore behind.
func (w commitWriter) write(ctx context.Context, g string, commit map[model.TP]int64, del []model.TP) ([]model.Error, error) {
	var rejected []model.Error
	var err error
	if len(commit) > 0 { // a delete-offsets plan commits nothing
		rejected, err = sent(g, slices.Collect(maps.Keys(commit)))(w.c.CommitOffsets(ctx, g, commit))
	}
	switch {
	case err != nil || len(del) == 0:
		return rejected, err
	case len(commit) > 0 && len(rejected) == len(commit):
		for _, tp := range del {
			e := model.Error{Kind: model.KindBroker, Message: "not sent: the broker refused every commit of this restore, so its deletes were held back"}
			rejected = append(rejected, *e.WithPartition(tp).WithGroup(g))
		}
		return rejected, nil
	}
	rejDel, err := sent(g, del)(w.c.DeleteOffsets(ctx, g, del))
	return append(rejected, rejDel...), err
}

// sent turns a request that was never sent (plan.ErrNotSent: no coordinator) into every
// partition of it refused, nothing written; any other answer passes as it is.
func sent(g string, tps []model.TP) func([]model.Error, error) ([]model.Error, error) {
	return func(rejected []model.Error, err error) ([]model.Error, error) {
		if errors.Is(err, plan.ErrNotSent) {
			return notSent(g, tps, err), nil
		}
		return rejected, err
	}
}

func (w commitWriter) readBack(ctx context.Context, g string) (map[model.TP]int64, error) {
	return w.c.Committed(ctx, g)
}

type shareWriter struct{ c Cluster }

// write deletes first: a share topic loses its start offsets only as a whole, so a restore
// that keeps some partitions of a topic and empties others deletes the topic's, then sets
// the ones it keeps.
func (w shareWriter) write(ctx context.Context, g string, commit map[model.TP]int64, del []model.TP) ([]model.Error, error) {
	var rejected []model.Error
	if len(del) > 0 {
		var err error
		if rejected, err = sent(g, del)(w.c.DeleteShareOffsets(ctx, g, del)); err != nil {
			return rejected, err
		}
	}
	if len(commit) == 0 { // a delete-offsets plan sets nothing
		return rejected, nil
	}
	rejAlter, err := sent(g, slices.Collect(maps.Keys(commit)))(w.c.AlterShareOffsets(ctx, g, commit))
	return append(rejected, rejAlter...), err
}

func (w shareWriter) readBack(ctx context.Context, g string) (map[model.TP]int64, error) {
	return w.c.ShareStartOffsets(ctx, g)
}
