package reset

import (
	"context"

	"github.com/offsettui/offsettui/internal/model"
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
	write(ctx context.Context, group string, commit map[model.TP]int64, del []model.TP) (rejected []model.Error, notes []string, err error)
	// readBack reads the positions after the write, for verification.
	readBack(ctx context.Context, group string) (map[model.TP]int64, error)
}

// writerFor returns the writer of a group type. A type offsettui does not know never
// reaches it: the plan refuses it (model.BlockGroupTypeUnknown).
func (s *Service) writerFor(typ string) writer {
	if typ == model.TypeShare {
		return shareWriter{s.Cluster}
	}
	return commitWriter{s.Cluster}
}

type commitWriter struct{ c Cluster }

func (w commitWriter) write(ctx context.Context, g string, commit map[model.TP]int64, del []model.TP) ([]model.Error, []string, error) {
	rejected, err := w.c.CommitOffsets(ctx, g, commit)
	if err != nil {
		return rejected, nil, err
	}
	rejDel, notes := deleted(g, del)(w.c.DeleteOffsets(ctx, g, del))
	return append(rejected, rejDel...), notes, nil
}

func (w commitWriter) readBack(ctx context.Context, g string) (map[model.TP]int64, error) {
	return w.c.Committed(ctx, g)
}

type shareWriter struct{ c Cluster }

// write deletes first: a share topic loses its start offsets only as a whole, so a restore
// that keeps some partitions of a topic and empties others deletes the topic's, then sets
// the ones it keeps.
func (w shareWriter) write(ctx context.Context, g string, commit map[model.TP]int64, del []model.TP) ([]model.Error, []string, error) {
	var (
		rejDel []model.Error
		notes  []string
	)
	if len(del) > 0 {
		var err error
		rejDel, err = w.c.DeleteShareOffsets(ctx, g, del)
		if err != nil {
			return nil, nil, err
		}
	}
	rejected, err := w.c.AlterShareOffsets(ctx, g, commit)
	return append(rejDel, rejected...), notes, err
}

func (w shareWriter) readBack(ctx context.Context, g string) (map[model.TP]int64, error) {
	return w.c.ShareStartOffsets(ctx, g)
}

// deleted turns the result of a delete into rejected partitions and notes: a delete request
// that failed as a whole rejects every partition it named.
func deleted(g string, del []model.TP) func([]model.Error, error) ([]model.Error, []string) {
	return func(rejected []model.Error, err error) ([]model.Error, []string) {
		if err == nil {
			return rejected, nil
		}
		out := []model.Error{}
		for _, tp := range del {
			e := model.Error{Kind: model.KindBroker, Message: "delete failed: " + err.Error()}
			out = append(out, *e.WithPartition(tp).WithGroup(g))
		}
		return out, []string{"deleting commits failed: " + err.Error()}
	}
}
