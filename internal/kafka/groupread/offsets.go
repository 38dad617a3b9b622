package groupread

import (
	"context"

	"github.com/IBM/sarama"
	"github.com/offsettui/offsettui/internal/kafka/wire"
	"github.com/offsettui/offsettui/internal/model"
)

// offsetFetchBatch is how many groups go into one OffsetFetch v8 request: at
// most this many per coordinator keeps requests O(brokers) for fleets of
// thousands of groups, and an answer (about 20 bytes per partition) well
// under sarama's 100 MB limit even at a thousand partitions per group. Answers
// of this size are decoded while the broker works on the next request: at
// 10,000 groups on 3 brokers, 21 requests took 30-50 ms less wall time and
// about 0.15 s less CPU than 6 of 2,000 groups (docs/testing.md#speed).
const offsetFetchBatch = 500

// FetchCommitted reads the positions of every group from its coordinator: for
// classic, consumer and streams groups the committed offsets, with OffsetFetch v8
// and many groups per request where the broker supports it, one group per request
// otherwise; for share groups the start offsets (share.go). Coordinators are asked
// concurrently; an error on one group goes on that group only. A group the broker
// does not know has no commits; a group of an unknown type is not asked.
func (c *Reader) FetchCommitted(ctx context.Context, groups []*model.GroupObservation, coord map[string]*sarama.Broker) {
	type job struct {
		b     *sarama.Broker
		gs    []*model.GroupObservation
		share bool
	}
	byBroker := map[int32][]*model.GroupObservation{}
	shareBy := map[int32][]*model.GroupObservation{}
	brokers := map[int32]*sarama.Broker{}
	var ids []int32
	for _, g := range groups {
		if g.Type == model.TypeUnknown {
			continue
		}
		b := coord[g.Group]
		if b == nil {
			if g.Error == nil {
				g.Error = (&model.Error{Kind: model.KindUnreachable, Message: "no coordinator found for the group"}).WithGroup(g.Group)
			}
			continue
		}
		if _, ok := brokers[b.ID()]; !ok {
			brokers[b.ID()] = b
			ids = append(ids, b.ID())
		}
		if g.Type == model.TypeShare {
			shareBy[b.ID()] = append(shareBy[b.ID()], g)
		} else {
			byBroker[b.ID()] = append(byBroker[b.ID()], g)
		}
	}
	var jobs []job
	for _, id := range ids {
		for _, share := range []bool{false, true} {
			gs := byBroker[id]
			if share {
				gs = shareBy[id]
			}
			for len(gs) > 0 {
				n := min(len(gs), offsetFetchBatch)
				jobs = append(jobs, job{brokers[id], gs[:n], share})
				gs = gs[n:]
			}
		}
	}
	wire.Run(c.conn, jobs, func(j job) {
		if j.share {
			c.fetchShareOffsets(ctx, j.b, j.gs)
		} else {
			c.offsetFetch(ctx, j.b, j.gs)
		}
	})
}

// offsetFetch sends one request for groups gs. The request is built for v8; if
// the broker negotiates a lower version (ApiVersions), sarama cannot encode
// several groups, and each group is fetched with a request of its own.
func (c *Reader) offsetFetch(ctx context.Context, b *sarama.Broker, gs []*model.GroupObservation) {
	req := &sarama.OffsetFetchRequest{Version: 8, ConsumerGroup: gs[0].Group}
	for _, g := range gs {
		req.Groups = append(req.Groups, sarama.OffsetFetchRequestGroup{GroupId: g.Group})
	}
	// The version sarama settled on is read from the send's own result: after a
	// timeout the send may still be running, and req is then its, not ours.
	type fetched struct {
		resp    *sarama.OffsetFetchResponse
		version int16
		done    bool
	}
	f, err := wire.Call(ctx, c.conn, b, func() (fetched, error) {
		resp, err := b.FetchOffset(req)
		return fetched{resp, req.Version, true}, err
	})
	resp := f.resp
	if f.done && f.version < 8 && len(gs) > 1 {
		c.conn.Logf("broker %d negotiated OffsetFetch v%d: one group per request, %d at a time", b.ID(), f.version, offsetFetchPipeline)
		c.offsetFetchEach(ctx, b, gs)
		return
	}
	if err != nil {
		for _, g := range gs {
			e := wire.BrokerErr(err, b.ID(), "fetch committed offsets")
			g.Error = e.WithGroup(g.Group)
			g.Committed = nil
		}
		return
	}
	if f.version < 8 {
		applyOffsets(gs[0], resp.Err, resp.Blocks)
		return
	}
	byName := map[string]*sarama.OffsetFetchResponseGroup{}
	for i := range resp.Groups {
		byName[resp.Groups[i].GroupId] = &resp.Groups[i]
	}
	for _, g := range gs {
		rg := byName[g.Group]
		if rg == nil {
			g.Error = (&model.Error{Kind: model.KindBroker, Message: "fetch committed offsets: the broker's reply left the group out"}).WithGroup(g.Group)
			continue
		}
		applyOffsets(g, rg.Err, rg.Blocks)
	}
}

// applyOffsets stores one group's OffsetFetch result. GROUP_ID_NOT_FOUND (what
// kfake answers for an unknown group, where Kafka returns nothing) means no commits for
// a group no broker lists; for a listed group it is an error, never "no commits".
func applyOffsets(g *model.GroupObservation, kerr sarama.KError, blocks map[string]map[int32]*sarama.OffsetFetchResponseBlock) {
	g.Committed = map[model.TP]int64{}
	switch {
	case kerr == sarama.ErrNoError:
	case kerr == sarama.ErrGroupIDNotFound && !g.Listed:
		return
	default:
		e := wire.KerrAt(kerr, "fetch committed offsets")
		if kerr == sarama.ErrGroupIDNotFound { // listed: it exists, its commits are unknown
			e.Kind, e.Message = model.KindBroker, "fetch committed offsets: the broker answered GROUP_ID_NOT_FOUND for a group it lists; its commits cannot be read"
		}
		g.Error = e.WithGroup(g.Group)
		g.Committed = nil
		return
	}
	n := 0
	for _, ps := range blocks {
		n += len(ps)
	}
	g.Committed = make(map[model.TP]int64, n) // sized once: no growth for thousands of groups
	for topic, ps := range blocks {
		for p, blk := range ps {
			if blk.Err != sarama.ErrNoError {
				e := wire.KerrAt(blk.Err, "fetch committed offset")
				e.Partition = &p
				g.Error = e.WithTopic(topic).WithGroup(g.Group)
				g.Committed = nil
				return
			}
			if blk.Offset >= 0 {
				g.Committed[model.TP{Topic: topic, Partition: p}] = blk.Offset
			}
		}
	}
}
