package assemble

import (
	"slices"
	"strings"
	"time"

	"github.com/offsettui/offsettui/internal/model"
	"github.com/offsettui/offsettui/internal/model/expiry"
	"github.com/offsettui/offsettui/internal/model/status"
)

// Options tune Snapshot.
type Options struct {
	// Topics keeps only partitions of these topics (describe --topic); empty keeps all.
	Topics []string
	// WholeTopics adds every partition of Topics to every group (check --topic).
	WholeTopics bool
}

// Snapshot classifies every group partition of an observation and computes the
// rollups. The partitions of a group are those with a commit, those assigned to a
// member, and the other partitions of every topic the group has a commit on.
func Snapshot(obs model.Observation, opt Options) model.Snapshot {
	s := model.Snapshot{
		Cluster: model.Cluster{
			Bootstrap:                       obs.Bootstrap,
			ID:                              obs.ClusterID,
			AllTopicsVisible:                obs.AllTopicsVisible,
			Brokers:                         obs.Brokers,
			TakenAt:                         model.Stamp{Time: obs.TakenAt},
			OffsetsRetentionMinutes:         obs.OffsetsRetentionMinutes,
			OffsetsRetentionCheckIntervalMs: obs.OffsetsRetentionCheckIntervalMs,
			KafkaVersion:                    model.KafkaLine(obs.APIVersions),
			Capabilities:                    model.ClusterCapabilities(obs.APIVersions),
		},
		Groups:   make([]model.Group, 0, len(obs.Groups)),
		Topics:   []model.Topic{},
		Errors:   append([]model.Error{}, obs.Errors...),
		Unlisted: obs.ListingErrors,
	}
	usedTopics := map[string]bool{}
	ix := newAssembleIndex(obs)
	assembled := make([]model.Group, len(obs.Groups))
	inChunks(len(obs.Groups), func(from, to int) {
		var mem assembleMemory
		for i := from; i < to; i++ {
			assembled[i] = assembleGroup(&obs.Groups[i], obs, ix, opt, &mem)
		}
	})
	for _, grp := range assembled {
		if obs.AllTopicsVisible == nil || !*obs.AllTopicsVisible {
			status.PartialLag(&grp)
			if len(grp.Partitions) == 0 {
				grp.WorstStatus = model.StatusUnknown // its commits may all be on hidden topics
			}
		}
		if len(opt.Topics) > 0 && len(grp.Partitions) == 0 && !opt.WholeTopics && grp.Error == nil {
			continue
		}
		for _, p := range grp.Partitions {
			usedTopics[p.Topic] = true
		}
		s.Groups = append(s.Groups, grp)
	}
	if opt.WholeTopics {
		for _, name := range opt.Topics {
			usedTopics[name] = true
		}
	}
	for name := range usedTopics {
		if t, ok := obs.Topics[name]; ok {
			s.Topics = append(s.Topics, t)
		}
	}
	slices.SortFunc(s.Topics, func(a, b model.Topic) int { return strings.Compare(a.Topic, b.Topic) })
	model.SortGroupsByUrgency(s.Groups)
	return s
}

// assembleIndex is what Snapshot looks up once per topic rather than per row.
type assembleIndex struct {
	// topics holds each topic of the observation once; rows share it.
	topics  map[string]*model.Topic
	offsets model.OffsetIndex
	// stamped lists the topics with a known committed-record timestamp.
	stamped map[string]bool
}

func newAssembleIndex(obs model.Observation) assembleIndex {
	ix := assembleIndex{topics: make(map[string]*model.Topic, len(obs.Topics)), offsets: model.IndexOffsets(obs.Offsets), stamped: map[string]bool{}}
	for name, t := range obs.Topics {
		ix.topics[name] = &t
	}
	for k := range obs.CommittedTimestamps {
		ix.stamped[k.Topic] = true
	}
	return ix
}

// assembleMemory is where the groups assembled on one goroutine take their rows and
// numbers from.
type assembleMemory struct {
	rows rowBlocks
	nums status.Numbers
}

// assembleGroup classifies one group's partitions.
func assembleGroup(g *model.GroupObservation, obs model.Observation, ix assembleIndex, opt Options, mem *assembleMemory) model.Group {
	only := opt.Topics
	grp := newGroup(g, &obs)
	owner := owners(grp.Members)
	var whole []string
	if opt.WholeTopics {
		whole = opt.Topics
	}
	// A share group's position in a partition is its start offset; every other type's is
	// its committed offset. Both are classified alike (docs/statuses.md).
	positions := g.Committed
	if g.Type == model.TypeShare {
		positions = g.StartOffsets
	}
	tps := groupPartitions(positions, g.Uninitialized, owner, obs.Topics, whole)
	if len(only) > 0 { // --topic: only the rows on the topics named, none reserved for the others
		tps = slices.DeleteFunc(tps, func(tp model.TP) bool { return !slices.Contains(only, tp.Topic) })
	}
	grp.Partitions = mem.rows.take(len(tps))
	nums := &mem.nums
	groupErr := g.Error
	if g.Error.IsGroupNotFound() {
		groupErr = nil // a group that does not exist has no commits: judged as such
	}
	clock := expiry.NewClock(&grp, g, &obs, len(tps))
	// Partitions of topics no member subscribes to are marked: nobody consumes them.
	subs := grp.Subscriptions()
	marks := subs.Known && len(grp.Members) > 0
	yes, no := true, false
	// Rows come sorted by topic: the per-topic lookups happen once per topic.
	var (
		topic      *model.Topic
		offsets    model.TopicOffsets
		stamped    bool
		looked     bool
		subscribed *bool
	)
	for _, tp := range tps {
		if !looked || tp.Topic != offsets.Name() {
			looked = true
			topic, offsets, stamped = ix.topics[tp.Topic], ix.offsets.Topic(tp.Topic), ix.stamped[tp.Topic]
			subscribed = nil
			if marks {
				subscribed = &no
				if subs.Has(tp.Topic) {
					subscribed = &yes
				}
				if !*subscribed && !slices.Contains(grp.UnsubscribedTopics, tp.Topic) {
					grp.UnsubscribedTopics = append(grp.UnsubscribedTopics, tp.Topic)
				}
			}
		}
		in := status.Input{Offsets: offsets.Get(tp.Partition), Now: obs.TakenAt, GroupError: groupErr, Topic: topic, Numbers: nums}
		rowInput(&in, g, &obs, tp, positions, stamped)
		grp.Partitions = grp.Partitions[:len(grp.Partitions)+1] // within the capacity made above
		p := &grp.Partitions[len(grp.Partitions)-1]
		status.Classify(p, in)
		p.Topic, p.Partition, p.Member, p.Subscribed = tp.Topic, tp.Partition, owner[tp], subscribed
		clock.Partition(p, in.Committed)
		if g.Type == model.TypeShare {
			shareFields(p, g.ShareLag, tp)
		}
		if p.Error != nil && p.Error.Partition == nil && p.Error.Group == nil {
			p.Error = p.Error.WithPartition(tp)
		}
	}
	if marks && grp.UnsubscribedTopics == nil {
		grp.UnsubscribedTopics = []string{}
	}
	clock.Finish(&grp)
	status.Rollup(&grp)
	grp.LosingNow = grp.LiveBehindLogStart() // the time axis adds a lost count that grew (Annotate)
	return grp
}

// newGroup is group g as it was described, before its rows: its members (null when it
// could not be described), the committer outside it that its commit log shows, and how
// long its commits outlive an Empty group.
func newGroup(g *model.GroupObservation, obs *model.Observation) model.Group {
	grp := model.Group{
		Group: g.Group, Type: g.Type, State: g.State, ProtocolType: g.ProtocolType,
		Protocol: g.Protocol, Coordinator: g.Coordinator, Members: g.Members,
		ShareAutoOffsetReset: g.ShareAutoOffsetReset, Topology: g.Topology,
		Counts: model.Counts{}, Error: g.Error,
	}
	switch {
	case g.DescribeError != nil:
		grp.Members = nil // unknown: JSON null, never "0 members"
	case grp.Members == nil:
		grp.Members = []model.Member{}
	}
	if g.CommitLog != nil && len(grp.Members) == 0 && grp.Members != nil {
		grp.CommitLog = g.CommitLog.WithoutCommits()
		grp.Committer = model.DetectCommitter(g.CommitLog.SeenWithoutMembers(g.Type, time.Time{}), obs.TakenAt)
	}
	// Share-group start offsets never expire; committed offsets of an Empty group do.
	if g.State == "Empty" && g.Type != model.TypeShare && obs.OffsetsRetentionMinutes != nil {
		grp.OffsetsExpireAfterMs = model.Ptr(*obs.OffsetsRetentionMinutes * 60_000)
	}
	return grp
}

// owners maps each partition assigned to a member to that member; nil when none is.
func owners(members []model.Member) map[model.TP]*model.MemberRef {
	var owner map[model.TP]*model.MemberRef
	for i := range members {
		m := &members[i]
		for _, a := range m.Assignments {
			for _, p := range a.Partitions {
				if owner == nil {
					owner = map[model.TP]*model.MemberRef{}
				}
				owner[model.TP{Topic: a.Topic, Partition: p}] = &m.MemberRef
			}
		}
	}
	return owner
}

// rowInput completes in, the input of group g's row tp, from the observation: the
// partition's own error, and at the group's position in it the committed record's
// timestamp (stamped: the topic has some), the transaction markers and the compacted read.
func rowInput(in *status.Input, g *model.GroupObservation, obs *model.Observation, tp model.TP, positions map[model.TP]int64, stamped bool) {
	if in.GroupError == nil && len(g.PartitionErrors) > 0 {
		if e, ok := g.PartitionErrors[tp]; ok {
			e := e // allocated only for a partition with an error, not for every row
			in.GroupError = &e
		}
	}
	c, ok := positions[tp]
	if !ok {
		return
	}
	in.Committed = in.Numbers.Ptr(c)
	if stamped {
		if ts, ok := obs.CommittedTimestamps[model.TPO{TP: tp, Offset: c}]; ok {
			at := ts // a copy escapes, allocated only for a row with a timestamp
			in.CommittedTimestamp = &at
		}
	}
	if len(obs.Markers)+len(obs.MarkersUnknown) > 0 && g.Type != model.TypeShare {
		if m, ok := obs.Markers[model.TPO{TP: tp, Offset: c}]; ok {
			found := m
			in.Markers = &found
		} else if why, ok := obs.MarkersUnknown[model.TPO{TP: tp, Offset: c}]; ok {
			reason := why
			in.MarkersUnknown = &reason
		}
	}
	if len(obs.Compacted) > 0 && g.Type != model.TypeShare {
		if r, ok := obs.Compacted[model.TPO{TP: tp, Offset: c}]; ok {
			read := r
			in.Compacted = &read
		}
	}
}

// shareFields turns a share partition classified by its start offset into what a share
// group shows: the start offset in its own field and the broker's lag. A lag of 0 means
// every record from the start offset on was delivered and acknowledged (the start offset is
// persisted lazily and can trail), so the partition is caught up: not at risk, no time lag.
func shareFields(p *model.GroupPartition, lag map[model.TP]int64, tp model.TP) {
	p.SetStartOffset(p.Committed)
	p.Committed, p.Lag = nil, nil
	p.SetCompaction(nil) // a share group's deliveries are not a consumer's reads of the log
	l, ok := lag[tp]
	if !ok {
		return
	}
	p.Lag = model.Ptr(l)
	if l == 0 && (p.Status == model.StatusAtRisk || p.Status == model.StatusOK) {
		p.Status, p.ExpiresInMs = model.StatusOK, nil
		p.TimeLagMs = model.Ptr(int64(0))
	}
}

// groupPartitions returns the sorted partition set of a group: every partition of each
// topic it has a position on, its positions (also those beyond the partitions metadata
// knows), extra (share partitions the broker lists without a start offset), the assigned
// ones and every partition of the whole topics.
func groupPartitions(positions map[model.TP]int64, extra []model.TP, owner map[model.TP]*model.MemberRef, topics map[string]model.Topic, whole []string) []model.TP {
	var (
		names  []string
		beyond []model.TP
		seen   map[string]bool // only for a group on several topics
		last   string
		n      int
	)
	for tp := range positions {
		if tp.Topic != last || len(names) == 0 {
			last, n = tp.Topic, topics[tp.Topic].Partitions
			switch {
			case len(names) == 0:
				names = append(names, last)
			case seen == nil && last == names[0]:
			default:
				if seen == nil {
					seen = map[string]bool{names[0]: true}
				}
				if !seen[last] {
					seen[last] = true
					names = append(names, last)
				}
			}
		}
		if tp.Partition < 0 || int(tp.Partition) >= n {
			beyond = append(beyond, tp) // beyond what metadata knows
		}
	}
	slices.Sort(names)
	size := len(beyond) + len(extra) + len(owner)
	for _, name := range names {
		size += topics[name].Partitions
	}
	out := make([]model.TP, 0, size)
	for _, name := range names {
		for i := 0; i < topics[name].Partitions; i++ {
			out = append(out, model.TP{Topic: name, Partition: int32(i)})
		}
	}
	// So far sorted and distinct; anything else is added, then sorted once.
	sorted := len(out)
	out = append(out, beyond...)
	out = append(out, extra...)
	for _, name := range whole {
		for i := 0; i < topics[name].Partitions; i++ {
			out = append(out, model.TP{Topic: name, Partition: int32(i)})
		}
	}
	for tp := range owner {
		out = append(out, tp)
	}
	if len(out) == sorted {
		return out
	}
	slices.SortFunc(out, model.CompareTP)
	return slices.Compact(out)
}
