package kafka

import (
	"context"
	"slices"
	"sync"
	"time"

	"github.com/IBM/sarama"
	"github.com/offsettui/offsettui/internal/model"
)

// topicLayout is what Metadata says of the topics a snapshot needs.
type topicLayout struct {
	partitions map[string]int // partition count per topic that exists
	leader     map[model.TP]int32
	errs       map[model.TP]*model.Error
	topicErrs  map[string]*model.Error
	// visible and clusterID are what the request's visibility probe showed.
	visible *bool
	// probeDenied: see metadataAnswer.
	probeDenied bool
	clusterID   *string
}

// metadata asks one broker about the given topics (never all topics of a large
// cluster unless asked for them).
func (c *Client) metadata(ctx context.Context, topics []string) (topicLayout, error) {
	lay := topicLayout{partitions: map[string]int{}, leader: map[model.TP]int32{},
		errs: map[model.TP]*model.Error{}, topicErrs: map[string]*model.Error{}}
	if ctx.Err() != nil {
		return lay, ctx.Err()
	}
	ans, err := c.metadataRequest(ctx, topics, false)
	if err != nil {
		return lay, err
	}
	lay.visible, lay.clusterID, lay.probeDenied = ans.visible, ans.clusterID, ans.probeDenied
	for _, t := range ans.resp.Topics {
		if t.Err != sarama.ErrNoError {
			e := kerrError(t.Err, "metadata: "+t.Err.Error()).WithTopic(t.Name)
			lay.topicErrs[t.Name] = e
			continue
		}
		lay.partitions[t.Name] = len(t.Partitions)
		for _, p := range t.Partitions {
			tp := model.TP{Topic: t.Name, Partition: p.ID}
			switch {
			case p.Err != sarama.ErrNoError && p.Err != sarama.ErrReplicaNotAvailable:
				lay.errs[tp] = kerrError(p.Err, "metadata: "+p.Err.Error()).WithPartition(tp)
			case p.Leader < 0:
				lay.errs[tp] = kerrError(sarama.ErrLeaderNotAvailable, "").WithPartition(tp)
			default:
				lay.leader[tp] = p.Leader
			}
		}
	}
	return lay, nil
}

// offset lookups sent per leader; each partition appears once per request.
const (
	lookupEarliest = iota
	lookupLatest
	lookupLastStable
	lookupRisk
)

// watermarks reads low, high and last stable offsets of every partition in tps,
// plus the at-risk timestamp lookup for partitions whose topic has a threshold:
// per leader, one ListOffsets request per kind, all leaders concurrently.
func (c *Client) watermarks(ctx context.Context, lay topicLayout, tps []model.TP, risk map[string]time.Time) map[model.TP]model.PartitionOffsets {
	out := make(map[model.TP]model.PartitionOffsets, len(tps))
	byLeader := map[int32][]model.TP{}
	var leaders []int32
	for _, tp := range tps {
		if e := lay.errs[tp]; e != nil {
			out[tp] = model.PartitionOffsets{Error: e}
			continue
		}
		if e := lay.topicErrs[tp.Topic]; e != nil {
			out[tp] = model.PartitionOffsets{Error: e.WithPartition(tp)}
			continue
		}
		l, ok := lay.leader[tp]
		if !ok {
			out[tp] = model.PartitionOffsets{Error: (&model.Error{Kind: model.KindNotFound, Message: "partition does not exist"}).WithPartition(tp)}
			continue
		}
		if _, seen := byLeader[l]; !seen {
			leaders = append(leaders, l)
		}
		byLeader[l] = append(byLeader[l], tp)
	}
	slices.Sort(leaders)
	var mu sync.Mutex
	results := map[model.TP]*model.PartitionOffsets{}
	for _, l := range leaders {
		for _, tp := range byLeader[l] {
			results[tp] = &model.PartitionOffsets{}
		}
	}
	// Per leader, the four lookups go one after another: sarama holds a broker's
	// lock for a whole request and reply anyway, and a leader that times out then
	// costs one --timeout, not four. Leaders are asked concurrently.
	run(c, leaders, func(leader int32) {
		for k := lookupEarliest; k <= lookupRisk; k++ {
			if !c.listOffsets(ctx, leader, k, byLeader[leader], risk, &mu, results) {
				return
			}
		}
	})
	for tp, po := range results {
		if po.Error == nil && (po.Low == nil || po.High == nil) {
			po.Error = (&model.Error{Kind: model.KindTimeout, Message: "list offsets: no answer before the snapshot was cancelled"}).WithPartition(tp)
		}
		out[tp] = *po
	}
	return out
}

// listOffsets sends one ListOffsets request of a kind to a leader and records the
// answers; it reports false when the leader could not be asked (a transport
// failure), so the caller stops asking it.
func (c *Client) listOffsets(ctx context.Context, leader int32, kind int, tps []model.TP, risk map[string]time.Time,
	mu *sync.Mutex, results map[model.TP]*model.PartitionOffsets) bool {
	req := sarama.NewOffsetRequest(sarama.MaxVersion)
	var asked []model.TP
	for _, tp := range tps {
		ts := int64(sarama.OffsetOldest)
		switch kind {
		case lookupLatest, lookupLastStable:
			ts = sarama.OffsetNewest
		case lookupRisk:
			t, ok := risk[tp.Topic]
			if !ok {
				continue
			}
			ts = t.UnixMilli()
		}
		req.AddBlock(tp.Topic, tp.Partition, ts, 1)
		asked = append(asked, tp)
	}
	if len(asked) == 0 {
		return true
	}
	if kind == lookupLastStable {
		req.IsolationLevel = sarama.ReadCommitted
	}
	var resp *sarama.OffsetResponse
	b, err := c.broker(leader)
	if err == nil {
		resp, err = call(ctx, c, b, func() (*sarama.OffsetResponse, error) { return b.GetAvailableOffsets(req) })
	}
	mu.Lock()
	defer mu.Unlock()
	for _, tp := range asked {
		po := results[tp]
		if po.Error != nil {
			continue // the first failure is the cause; later ones follow from it
		}
		if err != nil {
			e := brokerErr(err, leader, "list offsets")
			po.Error = e.WithPartition(tp)
			continue
		}
		blk := resp.GetBlock(tp.Topic, tp.Partition)
		if blk == nil {
			po.Error = (&model.Error{Kind: model.KindBroker, Message: "list offsets: the broker's reply left the partition out"}).WithPartition(tp)
			continue
		}
		if blk.Err != sarama.ErrNoError {
			po.Error = kerrError(blk.Err, "list offsets: "+blk.Err.Error()).WithPartition(tp)
			continue
		}
		off := blk.Offset
		if len(blk.Offsets) > 0 && req.Version == 0 {
			off = blk.Offsets[0]
		}
		switch kind {
		case lookupEarliest:
			po.Low = model.Ptr(off)
		case lookupLatest:
			po.High = model.Ptr(off)
		case lookupLastStable:
			po.LastStable = model.Ptr(off)
		case lookupRisk:
			po.RiskOffset = model.Ptr(off)
		}
	}
	return err == nil
}
