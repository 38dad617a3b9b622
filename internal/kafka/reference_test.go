package kafka_test

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"slices"
	"strconv"

	"github.com/twmb/franz-go/pkg/kadm"
	"github.com/twmb/franz-go/pkg/kgo"
)

// The reference: a batched describe written with franz-go's admin client, the
// yardstick for offsettui's speed and the second opinion on its numbers at
// fleet scale. ListGroups → DescribeGroups → OffsetFetch (all groups, sharded
// per coordinator) → ListOffsets start and end (per leader) → DescribeConfigs,
// then lag = end − committed per committed partition. It reads what a lag
// dashboard needs and nothing more (no last stable offset, no at-risk lookup,
// no record timestamps).

// refGroup is one group as the reference reads it.
type refGroup struct {
	Group      string         `json:"group"`
	State      string         `json:"state"`
	Members    int            `json:"members"`
	Partitions []refPartition `json:"partitions"`
}

// refPartition is one committed partition of a group.
type refPartition struct {
	Topic     string `json:"topic"`
	Partition int32  `json:"partition"`
	Low       int64  `json:"low"`
	High      int64  `json:"high"`
	Committed int64  `json:"committed"`
	Lag       int64  `json:"lag"`
}

// refTopic is a topic's retention configs.
type refTopic struct {
	Topic         string `json:"topic"`
	CleanupPolicy string `json:"cleanupPolicy"`
	RetentionMs   *int64 `json:"retentionMs"`
}

// refResult is the whole reference describe.
type refResult struct {
	Groups []refGroup
	Topics []refTopic
}

// referenceDescribe reads every consumer group of the cluster at addrs.
func referenceDescribe(ctx context.Context, addrs []string) (refResult, error) {
	cl, err := kgo.NewClient(kgo.SeedBrokers(addrs...))
	if err != nil {
		return refResult{}, err
	}
	defer cl.Close()
	adm := kadm.NewClient(cl)
	listed, err := adm.ListGroups(ctx)
	if err != nil {
		return refResult{}, fmt.Errorf("list groups: %w", err)
	}
	var names []string
	for name, g := range listed {
		if g.ProtocolType == "consumer" || g.ProtocolType == "" {
			names = append(names, name)
		}
	}
	slices.Sort(names)
	described, err := adm.DescribeGroups(ctx, names...)
	if err != nil {
		return refResult{}, fmt.Errorf("describe groups: %w", err)
	}
	fetched := adm.FetchManyOffsets(ctx, names...)
	if err := fetched.Error(); err != nil {
		return refResult{}, fmt.Errorf("fetch offsets: %w", err)
	}
	topicSet := map[string]bool{}
	for _, f := range fetched {
		for t := range f.Fetched {
			topicSet[t] = true
		}
	}
	topics := slices.Sorted(func(yield func(string) bool) {
		for t := range topicSet {
			if !yield(t) {
				return
			}
		}
	})
	starts, err := adm.ListStartOffsets(ctx, topics...)
	if err != nil {
		return refResult{}, fmt.Errorf("list start offsets: %w", err)
	}
	ends, err := adm.ListEndOffsets(ctx, topics...)
	if err != nil {
		return refResult{}, fmt.Errorf("list end offsets: %w", err)
	}
	configs, err := adm.DescribeTopicConfigs(ctx, topics...)
	if err != nil {
		return refResult{}, fmt.Errorf("describe configs: %w", err)
	}
	res := refResult{Topics: refTopics(configs)}
	for _, name := range names {
		g := refGroup{Group: name, State: described[name].State, Members: len(described[name].Members)}
		for t, ps := range fetched[name].Fetched {
			for p, o := range ps {
				if o.At < 0 {
					continue
				}
				lo, _ := starts.Lookup(t, p)
				hi, _ := ends.Lookup(t, p)
				g.Partitions = append(g.Partitions, refPartition{Topic: t, Partition: p,
					Low: lo.Offset, High: hi.Offset, Committed: o.At, Lag: hi.Offset - o.At})
			}
		}
		slices.SortFunc(g.Partitions, func(a, b refPartition) int {
			if a.Topic != b.Topic {
				if a.Topic < b.Topic {
					return -1
				}
				return 1
			}
			return int(a.Partition - b.Partition)
		})
		res.Groups = append(res.Groups, g)
	}
	return res, nil
}

// refTopics reads cleanup.policy and retention.ms of each topic.
func refTopics(configs kadm.ResourceConfigs) []refTopic {
	var out []refTopic
	for _, rc := range configs {
		t := refTopic{Topic: rc.Name}
		for _, c := range rc.Configs {
			if c.Value == nil {
				continue
			}
			switch c.Key {
			case "cleanup.policy":
				t.CleanupPolicy = *c.Value
			case "retention.ms":
				if v, err := strconv.ParseInt(*c.Value, 10, 64); err == nil {
					t.RetentionMs = &v
				}
			}
		}
		out = append(out, t)
	}
	slices.SortFunc(out, func(a, b refTopic) int {
		if a.Topic < b.Topic {
			return -1
		} else if a.Topic > b.Topic {
			return 1
		}
		return 0
	})
	return out
}

// writeReference writes the reference's result as one JSON document, one
// group at a time through a buffer (no second copy of the document).
func writeReference(w io.Writer, r refResult) error {
	bw := bufio.NewWriterSize(w, 64<<10)
	enc := json.NewEncoder(bw)
	if _, err := bw.WriteString(`{"topics":`); err != nil {
		return err
	}
	if err := enc.Encode(r.Topics); err != nil {
		return err
	}
	if _, err := bw.WriteString(`,"groups":[`); err != nil {
		return err
	}
	for i, g := range r.Groups {
		if i > 0 {
			if err := bw.WriteByte(','); err != nil {
				return err
			}
		}
		if err := enc.Encode(g); err != nil {
			return err
		}
	}
	if _, err := bw.WriteString("]}\n"); err != nil {
		return err
	}
	return bw.Flush()
}
