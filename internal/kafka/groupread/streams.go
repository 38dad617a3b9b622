package groupread

// Streams groups (KIP-1071): described with StreamsGroupDescribe (franz-go's kgo, internal/kafka/wire/kgocall.go),
// which gives the topology, each member's tasks and, while a task restores its state stores,
// the changelog offsets the member last reported (model.StreamsRestore); their committed
// offsets are ordinary OffsetFetch offsets, read with the other groups' (offsets.go).

import (
	"context"
	"slices"

	"github.com/IBM/sarama"
	"github.com/offsettui/offsettui/internal/model"
	"github.com/twmb/franz-go/pkg/kmsg"
)

func (c *Reader) describeStreams(ctx context.Context, b *sarama.Broker, gs []*model.GroupObservation) {
	req := kmsg.NewPtrStreamsGroupDescribeRequest()
	for _, g := range gs {
		req.Groups = append(req.Groups, g.Group)
	}
	raw, err := c.conn.KgoRead(ctx, b, req)
	if err != nil {
		describeAllFailed(gs, kgoErr(err, b, "describe streams group", "streams groups need Kafka 4.2 or newer"))
		return
	}
	resp := raw.(*kmsg.StreamsGroupDescribeResponse)
	applyDescribed(gs, resp.Groups, "describe streams group", func(d *kmsg.StreamsGroupDescribeResponseGroup) describedGroup {
		return describedGroup{id: d.Group, code: d.ErrorCode, msg: d.ErrorMessage, state: d.State,
			protocol: model.Deref(d.AssignorName), topology: topology(d.Topology),
			members: func(t *model.Topology) []model.Member {
				out := []model.Member{}
				for _, m := range d.Members {
					out = append(out, streamsMember(m, t))
				}
				return out
			}}
	})
}

// topology converts the broker's topology; nil when the group has none (yet).
func topology(t *kmsg.StreamsGroupDescribeResponseGroupTopology) *model.Topology {
	if t == nil {
		return nil
	}
	out := &model.Topology{Epoch: t.Epoch, Subtopologies: []model.Subtopology{}}
	for _, s := range t.Subtopologies {
		st := model.Subtopology{ID: s.SubtopologyID, SourceTopics: sorted(s.SourceTopics),
			RepartitionSinkTopics:   sorted(s.RepartitionSinkTopics),
			RepartitionSourceTopics: []string{}, StateChangelogTopics: []string{}}
		for _, ti := range s.RepartitionSourceTopics {
			st.RepartitionSourceTopics = append(st.RepartitionSourceTopics, ti.Topic)
		}
		for _, ti := range s.StateChangelogTopics {
			st.StateChangelogTopics = append(st.StateChangelogTopics, ti.Topic)
		}
		slices.Sort(st.RepartitionSourceTopics)
		slices.Sort(st.StateChangelogTopics)
		out.Subtopologies = append(out.Subtopologies, st)
	}
	slices.SortFunc(out.Subtopologies, func(a, b model.Subtopology) int { return model.CompareSubtopologies(a.ID, b.ID) })
	return out
}

// streamsMember is one streams member: its tasks, what it reported of their changelogs
// (the restore), and as assignments the partitions of the topics its active tasks read
// (source and repartition source topics of the subtopology).
func streamsMember(m kmsg.StreamsGroupDescribeResponseGroupMember, t *model.Topology) model.Member {
	mem := model.Member{
		MemberRef:   model.MemberRef{MemberID: m.MemberID, ClientID: m.ClientID, Host: m.ClientHost},
		Assignments: []model.Assignment{},
		ProcessID:   model.Ptr(m.ProcessID),
		Tasks: &model.Tasks{Active: taskIDs(m.Assignment.ActiveTasks), Standby: taskIDs(m.Assignment.StandbyTasks),
			Warmup: taskIDs(m.Assignment.WarmupTasks)},
	}
	mem.TaskOffsets, mem.RestoreLag = model.StreamsRestore(mem.Tasks, taskOffsets(m.TaskOffsets), taskOffsets(m.TaskEndOffsets))
	reads := map[string][]string{}
	if t != nil {
		for _, s := range t.Subtopologies {
			reads[s.ID] = append(slices.Clone(s.SourceTopics), s.RepartitionSourceTopics...)
		}
	}
	byTopic := map[string][]int32{}
	for _, task := range mem.Tasks.Active {
		for _, topic := range reads[task.Subtopology] {
			for _, p := range task.Partitions {
				if !slices.Contains(byTopic[topic], p) {
					byTopic[topic] = append(byTopic[topic], p)
				}
			}
		}
	}
	for topic, ps := range byTopic {
		mem.Assignments = append(mem.Assignments, assignment(topic, ps))
	}
	return sortedMember(mem)
}

// taskOffsets indexes a member's reported task offsets (or end offsets) by task.
func taskOffsets(ts []kmsg.TaskOffset) map[model.TaskID]int64 {
	out := make(map[model.TaskID]int64, len(ts))
	for _, t := range ts {
		out[model.TaskID{Subtopology: t.SubtopologyID, Partition: t.Partition}] = t.Offset
	}
	return out
}

func taskIDs(ts []kmsg.TaskIDs) []model.TaskIDs {
	out := []model.TaskIDs{}
	for _, t := range ts {
		ps := slices.Clone(t.Partitions)
		slices.Sort(ps)
		out = append(out, model.TaskIDs{Subtopology: t.SubtopologyID, Partitions: ps})
	}
	slices.SortFunc(out, func(a, b model.TaskIDs) int { return model.CompareSubtopologies(a.Subtopology, b.Subtopology) })
	return out
}

func sorted(s []string) []string {
	out := append([]string{}, s...)
	slices.Sort(out)
	return out
}
