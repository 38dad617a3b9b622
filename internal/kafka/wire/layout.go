package wire

import (
	"context"

	"github.com/IBM/sarama"
	"github.com/offsettui/offsettui/internal/model"
)

// TopicLayout is what Metadata says of the topics a snapshot needs.
type TopicLayout struct {
	Partitions map[string]int // partition count per topic that exists
	Leader     map[model.TP]int32
	Errs       map[model.TP]*model.Error
	TopicErrs  map[string]*model.Error
	// Visible and ClusterID are what the request's visibility probe showed.
	Visible *bool
	// ProbeDenied: see metadataAnswer.
	ProbeDenied bool
	ClusterID   *string
}

// Metadata asks one broker about the given topics (never all topics of a large
// cluster unless asked for them).
func (c *Conn) Metadata(ctx context.Context, topics []string) (TopicLayout, error) {
	lay := TopicLayout{Partitions: map[string]int{}, Leader: map[model.TP]int32{},
		Errs: map[model.TP]*model.Error{}, TopicErrs: map[string]*model.Error{}}
	if ctx.Err() != nil {
		return lay, ctx.Err()
	}
	ans, err := c.metadataRequest(ctx, topics, false)
	if err != nil {
		return lay, err
	}
	lay.Visible, lay.ClusterID, lay.ProbeDenied = ans.visible, ans.clusterID, ans.probeDenied
	for _, t := range ans.resp.Topics {
		if t.Err != sarama.ErrNoError {
			e := KerrAt(t.Err, "metadata").WithTopic(t.Name)
			lay.TopicErrs[t.Name] = e
			continue
		}
		lay.Partitions[t.Name] = len(t.Partitions)
		for _, p := range t.Partitions {
			tp := model.TP{Topic: t.Name, Partition: p.ID}
			switch {
			case p.Err != sarama.ErrNoError && p.Err != sarama.ErrReplicaNotAvailable:
				lay.Errs[tp] = KerrAt(p.Err, "metadata").WithPartition(tp)
			case p.Leader < 0:
				lay.Errs[tp] = KerrError(sarama.ErrLeaderNotAvailable, "").WithPartition(tp)
			default:
				lay.Leader[tp] = p.Leader
			}
		}
	}
	return lay, nil
}
