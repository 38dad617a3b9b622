package model

import (
	"slices"
	"time"
)

// Narrowing a snapshot of every group (serve's) to what a read of some of them holds:
// `describe --group G --topic T` and `check --group G --topic T` answered from the last
// snapshot of `offsettui serve` (docs/api.md), without asking the cluster again.

// NarrowOptions say what Narrow keeps, in the terms of a Query.
type NarrowOptions struct {
	// Groups keeps these groups (every group when empty).
	Groups []string
	// Topics keeps only the partitions of these topics (all when empty).
	Topics []string
	// WholeTopics makes every partition of Topics a partition of each group named in
	// Groups, as Query.WholeTopics does (check --topic).
	WholeTopics bool
	// ByName makes each group named in Groups that the snapshot does not hold as a read
	// by name finds it: a group that does not exist (check); without it such a group is
	// left out (a filter).
	ByName bool
	// RiskWindow is the look-ahead the snapshot was read with (0: DefaultRiskWindow): the
	// commits the broker may delete within it are counted again over the partitions kept.
	RiskWindow time.Duration
}

// Narrow returns the part of s that a read of only the groups and topics of o would
// hold, as Assemble builds it: each group with its partitions on the topics, its counts,
// worst status, total lag, unsubscribed topics and commit-expiry clock counted again over
// them; a group left without partitions is left out unless it has an error (describe
// --topic); the topics and errors of the groups kept and those of the cluster. With
// WholeTopics, a partition of a topic that the group has no row on is made from another
// group's row on the same partition (the same watermarks, read at the same time) with no
// commit, as Assemble makes it; one that no group has a row on is left out, which check
// reports as a partition missing from the snapshot. A group's time-axis values, its
// baseline change and its committer are the whole group's. s is not modified: the rows
// kept are copies.
func Narrow(s *Snapshot, o NarrowOptions) Snapshot {
	if o.RiskWindow <= 0 {
		o.RiskWindow = DefaultRiskWindow
	}
	out := Snapshot{Cluster: s.Cluster, Groups: []Group{}, Topics: []Topic{}, Errors: []Error{},
		Window: s.Window, Baseline: s.Baseline, Unlisted: s.Unlisted}
	keepTopic := func(t string) bool { return len(o.Topics) == 0 || slices.Contains(o.Topics, t) }
	used := map[string]bool{}
	groups := map[string]bool{} // kept
	held := map[string]bool{}
	for i := range s.Groups {
		g := &s.Groups[i]
		if len(o.Groups) > 0 && !slices.Contains(o.Groups, g.Group) {
			continue
		}
		held[g.Group] = true
		n, changed := narrowGroup(g, keepTopic, len(o.Topics) > 0)
		if o.WholeTopics && wholeTopics(s, &n, o.Topics) {
			changed = true
		}
		if changed {
			rollupAsAssembled(&n, s.Cluster.AllTopicsVisible)
		}
		if len(o.Topics) > 0 && len(n.Partitions) == 0 && !o.WholeTopics && n.Error == nil {
			continue
		}
		recountExpiry(&n, s.Cluster.TakenAt.Time, o.RiskWindow)
		groups[n.Group] = true
		for _, p := range n.Partitions {
			used[p.Topic] = true
		}
		out.Groups = append(out.Groups, n)
	}
	for _, name := range o.Groups {
		if o.ByName && !held[name] && !groups[name] {
			g := absentGroup(s, name)
			if o.WholeTopics {
				wholeTopics(s, &g, o.Topics)
			}
			rollupAsAssembled(&g, s.Cluster.AllTopicsVisible)
			groups[name] = true
			out.Groups = append(out.Groups, g)
			out.Errors = append(out.Errors, *g.Error)
			for _, p := range g.Partitions {
				used[p.Topic] = true
			}
		}
	}
	if o.WholeTopics {
		for _, t := range o.Topics {
			used[t] = true
		}
	}
	for _, t := range s.Topics {
		if used[t.Topic] {
			out.Topics = append(out.Topics, t)
		}
	}
	for _, e := range s.Errors {
		if (e.Group == nil || groups[*e.Group]) && (e.Topic == nil || used[*e.Topic]) {
			out.Errors = append(out.Errors, e)
		}
	}
	SortGroupsByUrgency(out.Groups)
	return out
}

// narrowGroup is a copy of g with only its partitions on the topics kept; changed says
// whether any was left out.
func narrowGroup(g *Group, keepTopic func(string) bool, filtered bool) (Group, bool) {
	n := *g
	if !filtered {
		return n, false
	}
	n.Partitions = make([]GroupPartition, 0, len(g.Partitions))
	for _, p := range g.Partitions {
		if keepTopic(p.Topic) {
			n.Partitions = append(n.Partitions, p)
		}
	}
	if g.UnsubscribedTopics != nil {
		n.UnsubscribedTopics = []string{}
		for _, t := range g.UnsubscribedTopics {
			if keepTopic(t) {
				n.UnsubscribedTopics = append(n.UnsubscribedTopics, t)
			}
		}
	}
	return n, len(n.Partitions) < len(g.Partitions)
}

// rollupAsAssembled counts the group's rollups again over its partitions, as Assemble
// does: partial where topics may be hidden from the principal.
func rollupAsAssembled(g *Group, allTopicsVisible *bool) {
	rollup(g)
	if allTopicsVisible == nil || !*allTopicsVisible {
		g.partialLag()
		if len(g.Partitions) == 0 {
			g.WorstStatus = StatusUnknown
		}
	}
}

// absentGroup is a group that s does not hold, as Assemble makes one that a read by name
// did not find: it does not exist, or, when some broker's groups could not be listed,
// whether it exists cannot be told.
func absentGroup(s *Snapshot, name string) Group {
	var err *Error
	if len(s.Unlisted) > 0 {
		e := s.Unlisted[0]
		e.Message = "cannot tell whether the group exists: " + e.Message
		err = e.WithGroup(name)
	} else {
		err = (&Error{Kind: KindNotFound, Code: Ptr("GROUP_ID_NOT_FOUND"),
			Message: "the group does not exist: no broker lists it and it has no committed offsets"}).WithGroup(name)
	}
	return Group{Group: name, Type: TypeClassic, State: "Dead", Coordinator: -1, Members: []Member{},
		Counts: Counts{}, Partitions: []GroupPartition{}, Error: err}
}

// wholeTopics adds to g every partition of topics it has no row on, with no commit, and
// says whether it added any.
func wholeTopics(s *Snapshot, g *Group, topics []string) bool {
	have := map[TP]bool{}
	for _, p := range g.Partitions {
		have[p.TP()] = true
	}
	var want []TP
	for _, name := range topics {
		i := slices.IndexFunc(s.Topics, func(t Topic) bool { return t.Topic == name })
		if i < 0 {
			continue // not read: check says so
		}
		for p := 0; p < s.Topics[i].Partitions; p++ {
			if tp := (TP{name, int32(p)}); !have[tp] {
				want = append(want, tp)
			}
		}
	}
	if len(want) == 0 {
		return false
	}
	offsets := rowOffsets(s, want)
	groupErr := g.Error
	if groupErr.IsGroupNotFound() {
		groupErr = nil // a group that does not exist has no commits: judged as such
	}
	subs := g.Subscriptions()
	marks := subs.Known && len(g.Members) > 0
	rows := slices.Clone(g.Partitions)
	var nums int64s
	for _, tp := range want {
		o, ok := offsets[tp]
		if !ok {
			continue
		}
		ti := slices.IndexFunc(s.Topics, func(t Topic) bool { return t.Topic == tp.Topic })
		topic := s.Topics[ti]
		var p GroupPartition
		classifyInto(&p, PartitionInput{Offsets: o, Now: s.Cluster.TakenAt.Time, GroupError: groupErr, Topic: &topic, nums: &nums})
		p.Topic, p.Partition = tp.Topic, tp.Partition
		if marks {
			p.Subscribed = Ptr(subs.Has(tp.Topic))
			if !*p.Subscribed && !slices.Contains(g.UnsubscribedTopics, tp.Topic) {
				g.UnsubscribedTopics = append(slices.Clone(g.UnsubscribedTopics), tp.Topic)
				slices.Sort(g.UnsubscribedTopics)
			}
		}
		if p.Error != nil && p.Error.Partition == nil && p.Error.Group == nil {
			p.Error = p.Error.WithPartition(tp)
		}
		rows = append(rows, p)
	}
	slices.SortFunc(rows, func(a, b GroupPartition) int { return CompareTP(a.TP(), b.TP()) })
	added := len(rows) > len(g.Partitions)
	g.Partitions = rows
	return added
}

// rowOffsets finds, for each partition wanted, its watermarks in a row of any group: the
// same for every group of one snapshot. A row whose watermarks are unknown because of its
// group's error says nothing of the partition and is passed over.
func rowOffsets(s *Snapshot, want []TP) map[TP]PartitionOffsets {
	wanted := map[TP]bool{}
	for _, tp := range want {
		wanted[tp] = true
	}
	out := map[TP]PartitionOffsets{}
	for gi := range s.Groups {
		for pi := range s.Groups[gi].Partitions {
			p := &s.Groups[gi].Partitions[pi]
			tp := p.TP()
			if !wanted[tp] {
				continue
			}
			switch {
			case p.Low != nil && p.High != nil:
				out[tp] = PartitionOffsets{Low: p.Low, High: p.High, LastStable: p.LastStable, LocalLow: p.LocalLow()}
				delete(wanted, tp)
			case p.Error != nil && p.Error.Group == nil:
				if _, ok := out[tp]; !ok {
					out[tp] = PartitionOffsets{Error: p.Error}
				}
			}
		}
	}
	return out
}

// recountExpiry sets the group's commit-expiry clock from its partitions' (commitexpiry.go
// sets each partition's and the group's together): the earliest time, the time unknown and
// the commits that may go within the risk window. A group without a position has none.
func recountExpiry(g *Group, takenAt time.Time, riskWindow time.Duration) {
	e := g.CommitsExpiry
	if e == nil {
		return
	}
	horizon := takenAt.Add(riskWindow)
	out := CommitExpiry{Rule: e.Rule, EmptySince: e.EmptySince, RetentionMs: e.RetentionMs, RetentionAssumed: e.RetentionAssumed,
		CheckIntervalMs: e.CheckIntervalMs, CommitLog: e.CommitLog, CommitLogReason: e.CommitLogReason}
	var (
		earliest  *Stamp
		positions int
	)
	expiring := func(at time.Time) {
		if at.After(horizon) {
			return
		}
		out.Expiring++
		in := max(0, at.Sub(takenAt).Milliseconds())
		if out.ExpiringInMs == nil || in < *out.ExpiringInMs {
			out.ExpiringInMs = &in
		}
	}
	for i := range g.Partitions {
		p := &g.Partitions[i]
		if p.Position() == nil {
			continue
		}
		positions++
		switch {
		case p.CommitsExpireBy == ExpiryNone || p.CommitsExpireBy == ExpiryNever || p.CommitsExpireBy == ExpiryUnknown:
		case p.CommitsExpireAt != nil:
			if earliest == nil || p.CommitsExpireAt.Before(earliest.Time) {
				earliest = p.CommitsExpireAt
			}
			expiring(p.CommitsExpireAt.Time)
		default:
			out.UnknownTime = p.CommitsExpireBy
			out.Latest = e.Latest
			if out.Latest != nil {
				expiring(out.Latest.Time)
			}
		}
	}
	if positions == 0 {
		g.CommitsExpiry, g.CommitsExpireAt = nil, nil
		return
	}
	g.CommitsExpiry, g.CommitsExpireAt = &out, earliest
}
