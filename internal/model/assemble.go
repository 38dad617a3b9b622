package model

import (
	"slices"
	"strings"
	"time"
)

// AssembleOptions tune Assemble.
type AssembleOptions struct {
	// Topics keeps only partitions of these topics (describe --topic); empty keeps all.
	Topics []string
	// WholeTopics adds every partition of Topics to every group (check --topic).
	WholeTopics bool
}

// Assemble classifies every group partition of an observation and computes the
// rollups. The partitions of a group are those with a commit, those assigned to a
// member, and the other partitions of every topic the group has a commit on.
func Assemble(obs Observation, opt AssembleOptions) Snapshot {
	s := Snapshot{
		Cluster: Cluster{
			Bootstrap:                       obs.Bootstrap,
			ID:                              obs.ClusterID,
			AllTopicsVisible:                obs.AllTopicsVisible,
			Brokers:                         obs.Brokers,
			TakenAt:                         Stamp{obs.TakenAt},
			OffsetsRetentionMinutes:         obs.OffsetsRetentionMinutes,
			OffsetsRetentionCheckIntervalMs: obs.OffsetsRetentionCheckIntervalMs,
			KafkaVersion:                    KafkaLine(obs.APIVersions),
			Capabilities:                    ClusterCapabilities(obs.APIVersions),
		},
		Groups:   make([]Group, 0, len(obs.Groups)),
		Topics:   []Topic{},
		Errors:   append([]Error{}, obs.Errors...),
		Unlisted: obs.ListingErrors,
	}
	usedTopics := map[string]bool{}
	ix := newAssembleIndex(obs)
	assembled := make([]Group, len(obs.Groups))
	inChunks(len(obs.Groups), func(from, to int) {
		var mem assembleMemory
		for i := from; i < to; i++ {
			assembled[i] = assembleGroup(&obs.Groups[i], obs, ix, opt, &mem)
		}
	})
	for _, grp := range assembled {
		if obs.AllTopicsVisible == nil || !*obs.AllTopicsVisible {
			grp.partialLag()
			if len(grp.Partitions) == 0 {
				grp.WorstStatus = StatusUnknown // its commits may all be on hidden topics
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
	slices.SortFunc(s.Topics, func(a, b Topic) int { return strings.Compare(a.Topic, b.Topic) })
	SortGroupsByUrgency(s.Groups)
	return s
}

// assembleIndex is what Assemble looks up once per topic rather than per row.
type assembleIndex struct {
	// topics holds each topic of the observation once; rows share it.
	topics  map[string]*Topic
	offsets OffsetIndex
	// stamped lists the topics with a known committed-record timestamp.
	stamped map[string]bool
}

func newAssembleIndex(obs Observation) assembleIndex {
	ix := assembleIndex{topics: make(map[string]*Topic, len(obs.Topics)), offsets: IndexOffsets(obs.Offsets), stamped: map[string]bool{}}
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
	nums int64s
}

// assembleGroup classifies one group's partitions.
func assembleGroup(g *GroupObservation, obs Observation, ix assembleIndex, opt AssembleOptions, mem *assembleMemory) Group {
	only := opt.Topics
	grp := Group{
		Group: g.Group, Type: g.Type, State: g.State, ProtocolType: g.ProtocolType,
		Protocol: g.Protocol, Coordinator: g.Coordinator, Members: g.Members,
		ShareAutoOffsetReset: g.ShareAutoOffsetReset, Topology: g.Topology,
		Counts: Counts{}, Error: g.Error,
	}
	switch {
	case g.DescribeError != nil:
		grp.Members = nil // unknown: JSON null, never "0 members"
	case grp.Members == nil:
		grp.Members = []Member{}
	}
	if g.CommitLog != nil && len(grp.Members) == 0 && grp.Members != nil {
		grp.CommitLog = g.CommitLog.withoutCommits()
		grp.Committer = DetectCommitter(g.CommitLog.SeenWithoutMembers(g.Type, time.Time{}), obs.TakenAt)
	}
	// Share-group start offsets never expire; committed offsets of an Empty group do.
	if g.State == "Empty" && g.Type != TypeShare && obs.OffsetsRetentionMinutes != nil {
		grp.OffsetsExpireAfterMs = Ptr(*obs.OffsetsRetentionMinutes * 60_000)
	}
	var owner map[TP]*MemberRef
	for i := range grp.Members {
		m := &grp.Members[i]
		for _, a := range m.Assignments {
			for _, p := range a.Partitions {
				if owner == nil {
					owner = map[TP]*MemberRef{}
				}
				owner[TP{a.Topic, p}] = &m.MemberRef
			}
		}
	}
	var whole []string
	if opt.WholeTopics {
		whole = opt.Topics
	}
	// A share group's position in a partition is its start offset; every other type's is
	// its committed offset. Both are classified alike (docs/statuses.md).
	positions := g.Committed
	if g.Type == TypeShare {
		positions = g.StartOffsets
	}
	tps := groupPartitions(positions, g.Uninitialized, owner, obs.Topics, whole)
	if len(only) > 0 { // --topic: only the rows on the topics named, none reserved for the others
		tps = slices.DeleteFunc(tps, func(tp TP) bool { return !slices.Contains(only, tp.Topic) })
	}
	grp.Partitions = mem.rows.take(len(tps))
	nums := &mem.nums
	groupErr := g.Error
	if g.Error.IsGroupNotFound() {
		groupErr = nil // a group that does not exist has no commits: judged as such
	}
	clock := newExpiryClock(&grp, g, &obs, len(tps))
	// Partitions of topics no member subscribes to are marked: nobody consumes them.
	subs := grp.Subscriptions()
	marks := subs.Known && len(grp.Members) > 0
	yes, no := true, false
	// Rows come sorted by topic: the per-topic lookups happen once per topic.
	var (
		topic      *Topic
		offsets    TopicOffsets
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
		in := PartitionInput{Offsets: offsets.Get(tp.Partition), Now: obs.TakenAt, GroupError: groupErr, Topic: topic, nums: nums}
		if in.GroupError == nil && len(g.PartitionErrors) > 0 {
			if e, ok := g.PartitionErrors[tp]; ok {
				e := e // allocated only for a partition with an error, not for every row
				in.GroupError = &e
			}
		}
		if c, ok := positions[tp]; ok {
			in.Committed = nums.ptr(c)
			if stamped {
				if ts, ok := obs.CommittedTimestamps[TPO{tp, c}]; ok {
					at := ts // a copy escapes, allocated only for a row with a timestamp
					in.CommittedTimestamp = &at
				}
			}
			if len(obs.Markers)+len(obs.MarkersUnknown) > 0 && g.Type != TypeShare {
				if m, ok := obs.Markers[TPO{tp, c}]; ok {
					found := m
					in.Markers = &found
				} else if why, ok := obs.MarkersUnknown[TPO{tp, c}]; ok {
					reason := why
					in.MarkersUnknown = &reason
				}
			}
			if len(obs.Compacted) > 0 && g.Type != TypeShare {
				if r, ok := obs.Compacted[TPO{tp, c}]; ok {
					read := r
					in.Compacted = &read
				}
			}
		}
		grp.Partitions = grp.Partitions[:len(grp.Partitions)+1] // within the capacity made above
		p := &grp.Partitions[len(grp.Partitions)-1]
		classifyInto(p, in)
		p.Topic, p.Partition, p.Member, p.Subscribed = tp.Topic, tp.Partition, owner[tp], subscribed
		clock.partition(p, in.Committed)
		if g.Type == TypeShare {
			shareFields(p, g.ShareLag, tp)
		}
		if p.Error != nil && p.Error.Partition == nil && p.Error.Group == nil {
			p.Error = p.Error.WithPartition(tp)
		}
	}
	if marks && grp.UnsubscribedTopics == nil {
		grp.UnsubscribedTopics = []string{}
	}
	clock.finish(&grp)
	rollup(&grp)
	grp.LosingNow = grp.LiveBehindLogStart() // the time axis adds a lost count that grew (Annotate)
	return grp
}

// shareFields turns a share partition classified by its start offset into what a share
// group shows: the start offset in its own field and the broker's lag. A lag of 0 means
// every record from the start offset on was delivered and acknowledged (the start offset is
// persisted lazily and can trail), so the partition is caught up: not at risk, no time lag.
func shareFields(p *GroupPartition, lag map[TP]int64, tp TP) {
	p.SetStartOffset(p.Committed)
	p.Committed, p.Lag = nil, nil
	p.SetCompaction(nil) // a share group's deliveries are not a consumer's reads of the log
	l, ok := lag[tp]
	if !ok {
		return
	}
	p.Lag = Ptr(l)
	if l == 0 && (p.Status == StatusAtRisk || p.Status == StatusOK) {
		p.Status, p.ExpiresInMs = StatusOK, nil
		p.TimeLagMs = Ptr(int64(0))
	}
}

// groupPartitions returns the sorted partition set of a group: every partition of each
// topic it has a position on, its positions (also those beyond the partitions metadata
// knows), extra (share partitions the broker lists without a start offset), the assigned
// ones and every partition of the whole topics.
func groupPartitions(positions map[TP]int64, extra []TP, owner map[TP]*MemberRef, topics map[string]Topic, whole []string) []TP {
	var (
		names  []string
		beyond []TP
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
	out := make([]TP, 0, size)
	for _, name := range names {
		for i := 0; i < topics[name].Partitions; i++ {
			out = append(out, TP{name, int32(i)})
		}
	}
	// So far sorted and distinct; anything else is added, then sorted once.
	sorted := len(out)
	out = append(out, beyond...)
	out = append(out, extra...)
	for _, name := range whole {
		for i := 0; i < topics[name].Partitions; i++ {
			out = append(out, TP{name, int32(i)})
		}
	}
	for tp := range owner {
		out = append(out, tp)
	}
	if len(out) == sorted {
		return out
	}
	slices.SortFunc(out, CompareTP)
	return slices.Compact(out)
}

// rollup computes a group's counts, worst status and total lag. totalLag sums the
// positive lags of partitions with a commit, so a partition ahead cannot hide a
// backlog elsewhere; it is never a partial sum shown as whole (see partialLag),
// and null when no partition it consumes has a commit. Partitions nobody consumes (NotConsumed)
// are left out of all three.
func rollup(g *Group) {
	g.Counts, g.WorstStatus = Counts{}, StatusOK
	var sum int64
	partial := g.Error != nil
	for _, p := range g.Partitions {
		if p.NotConsumed() {
			continue
		}
		g.Counts[p.Status]++
		g.WorstStatus = max(g.WorstStatus, p.Status)
		if p.Lag != nil && *p.Lag > 0 {
			sum += *p.Lag
		}
		// A share partition with a start offset but no lag from the broker (Kafka 4.1,
		// or a lag of -1) has a backlog nobody can name: the total is a lower bound.
		if p.Lag == nil && (p.Status == StatusUnknown || p.StartOffset() != nil) {
			partial = true
		}
	}
	if g.Error != nil {
		g.WorstStatus = StatusUnknown
	}
	g.TotalLag, g.TotalLagAtLeast = Ptr(sum), nil
	switch {
	case partial:
		g.partialLag()
	case len(g.Partitions) > 0 && !slices.ContainsFunc(g.Partitions, func(p GroupPartition) bool { return p.Lag != nil && !p.NotConsumed() }):
		// No partition it consumes has a commit: there is no lag to sum, and 0
		// would say the group is caught up.
		g.TotalLag = nil
	}
}

// partialLag marks the group's total lag as a lower bound: what could be read is
// kept in TotalLagAtLeast and TotalLag becomes null. A group of which nothing
// could be read (its offsets, or every partition) has neither.
func (g *Group) partialLag() {
	read := slices.ContainsFunc(g.Partitions, func(p GroupPartition) bool {
		return p.Lag != nil || p.Status != StatusUnknown
	})
	if g.TotalLag != nil && g.Error == nil && read {
		g.TotalLagAtLeast = g.TotalLag
	}
	g.TotalLag = nil
}
