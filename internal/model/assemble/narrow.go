package assemble

import (
	"slices"
	"time"

	"github.com/offsettui/offsettui/internal/model"
	"github.com/offsettui/offsettui/internal/model/expiry"
	"github.com/offsettui/offsettui/internal/model/status"
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
// hold, as Snapshot builds it: each group with its partitions on the topics, its counts,
// worst status, total lag, unsubscribed topics and commit-expiry clock counted again over
// them; a group left without partitions is left out unless it has an error (describe
// --topic); the topics and errors of the groups kept and those of the cluster. With
// WholeTopics, a partition of a topic that the group has no row on is made from another
// group's row on the same partition (the same watermarks, read at the same time) with no
// commit, as Snapshot makes it; one that no group has a row on is left out, which check
// reports as a partition missing from the snapshot. A group's time-axis values, its
// baseline change and its committer are the whole group's. s is not modified: the rows
// kept are copies.
func Narrow(s *model.Snapshot, o NarrowOptions) model.Snapshot {
	if o.RiskWindow <= 0 {
		o.RiskWindow = model.DefaultRiskWindow
	}
	out := model.Snapshot{Cluster: s.Cluster, Groups: []model.Group{}, Topics: []model.Topic{}, Errors: []model.Error{},
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
		grew := g.LosingNow && !g.LiveBehindLogStart() // the time axis saw the whole group's lost count grow
		n, changed := narrowGroup(g, keepTopic, len(o.Topics) > 0)
		if o.WholeTopics && wholeTopics(s, &n, o.Topics) {
			changed = true
		}
		if changed {
			rollupAsAssembled(&n, s.Cluster.AllTopicsVisible, grew)
		}
		if len(o.Topics) > 0 && len(n.Partitions) == 0 && !o.WholeTopics && n.Error == nil {
			continue
		}
		expiry.Recount(&n, s.Cluster.TakenAt.Time, o.RiskWindow)
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
			rollupAsAssembled(&g, s.Cluster.AllTopicsVisible, false)
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
	model.SortGroupsByUrgency(out.Groups)
	return out
}

// narrowGroup is a copy of g with only its partitions on the topics kept; changed says
// whether any was left out.
func narrowGroup(g *model.Group, keepTopic func(string) bool, filtered bool) (model.Group, bool) {
	n := *g
	if !filtered {
		return n, false
	}
	n.Partitions = make([]model.GroupPartition, 0, len(g.Partitions))
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

// rollupAsAssembled counts the group's rollups again over its partitions, as Snapshot
// does: partial where topics may be hidden from the principal; losing now when a live
// consumer of what is kept is behind the log start, or when the time axis saw the whole
// group's lost count grow (grew), as its other time-axis values are the whole group's.
func rollupAsAssembled(g *model.Group, allTopicsVisible *bool, grew bool) {
	status.Rollup(g)
	g.LosingNow = g.LiveBehindLogStart() || grew
	if allTopicsVisible == nil || !*allTopicsVisible {
		status.PartialLag(g)
		if len(g.Partitions) == 0 {
			g.WorstStatus = model.StatusUnknown
		}
	}
}

// absentGroup is a group that s does not hold, as Snapshot makes one that a read by name
// did not find: it does not exist, or, when some broker's groups could not be listed,
// whether it exists cannot be told.
func absentGroup(s *model.Snapshot, name string) model.Group {
	var err *model.Error
	if len(s.Unlisted) > 0 {
		e := s.Unlisted[0]
		e.Message = "cannot tell whether the group exists: " + e.Message
		err = e.WithGroup(name)
	} else {
		err = (&model.Error{Kind: model.KindNotFound, Code: model.Ptr("GROUP_ID_NOT_FOUND"),
			Message: "the group does not exist: no broker lists it and it has no committed offsets"}).WithGroup(name)
	}
	return model.Group{Group: name, Type: model.TypeClassic, State: "Dead", Coordinator: -1, Members: []model.Member{},
		Counts: model.Counts{}, Partitions: []model.GroupPartition{}, Error: err}
}

// wholeTopics adds to g every partition of topics it has no row on, with no commit, and
// says whether it added any.
func wholeTopics(s *model.Snapshot, g *model.Group, topics []string) bool {
	have := map[model.TP]bool{}
	for _, p := range g.Partitions {
		have[p.TP()] = true
	}
	var want []model.TP
	for _, name := range topics {
		i := slices.IndexFunc(s.Topics, func(t model.Topic) bool { return t.Topic == name })
		if i < 0 {
			continue // not read: check says so
		}
		for p := 0; p < s.Topics[i].Partitions; p++ {
			if tp := (model.TP{Topic: name, Partition: int32(p)}); !have[tp] {
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
	var nums status.Numbers
	for _, tp := range want {
		o, ok := offsets[tp]
		if !ok {
			continue
		}
		ti := slices.IndexFunc(s.Topics, func(t model.Topic) bool { return t.Topic == tp.Topic })
		topic := s.Topics[ti]
		var p model.GroupPartition
		status.Classify(&p, status.Input{Offsets: o, Now: s.Cluster.TakenAt.Time, GroupError: groupErr, Topic: &topic, Numbers: &nums})
		p.Topic, p.Partition = tp.Topic, tp.Partition
		if marks {
			p.Subscribed = model.Ptr(subs.Has(tp.Topic))
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
	slices.SortFunc(rows, func(a, b model.GroupPartition) int { return model.CompareTP(a.TP(), b.TP()) })
	added := len(rows) > len(g.Partitions)
	g.Partitions = rows
	return added
}

// rowOffsets finds, for each partition wanted, its watermarks in a row of any group: the
// same for every group of one snapshot. A row whose watermarks are unknown because of its
// group's error says nothing of the partition and is passed over.
func rowOffsets(s *model.Snapshot, want []model.TP) map[model.TP]model.PartitionOffsets {
	wanted := map[model.TP]bool{}
	for _, tp := range want {
		wanted[tp] = true
	}
	out := map[model.TP]model.PartitionOffsets{}
	for gi := range s.Groups {
		for pi := range s.Groups[gi].Partitions {
			p := &s.Groups[gi].Partitions[pi]
			tp := p.TP()
			if !wanted[tp] {
				continue
			}
			switch {
			case p.Low != nil && p.High != nil:
				out[tp] = model.PartitionOffsets{Low: p.Low, High: p.High, LastStable: p.LastStable, LocalLow: p.LocalLow()}
				delete(wanted, tp)
			case p.Error != nil && p.Error.Group == nil:
				if _, ok := out[tp]; !ok {
					out[tp] = model.PartitionOffsets{Error: p.Error}
				}
			}
		}
	}
	return out
}
