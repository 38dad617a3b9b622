package snapshot

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"slices"
	"sync"
	"time"

	"github.com/IBM/sarama"
	"github.com/offsettui/offsettui/internal/kafka/logread"
	"github.com/offsettui/offsettui/internal/kafka/wire"
	"github.com/offsettui/offsettui/internal/model"
	"github.com/offsettui/offsettui/internal/model/assemble"
	"github.com/offsettui/offsettui/internal/model/status"
)

// Snapshot reads the cluster as q asks and classifies it. It fails only when
// nothing could be read; every narrower failure is inside the snapshot.
func (c *Reader) Snapshot(ctx context.Context, q model.Query) (model.Snapshot, error) {
	obs, err := c.observe(ctx, q, timeNone, nil)
	if err != nil {
		return model.Snapshot{}, err
	}
	return c.assemble(obs, q), nil
}

// assemble classifies an observation as q asked.
func (c *Reader) assemble(obs model.Observation, q model.Query) model.Snapshot {
	start := time.Now()
	markNotFound(&obs)
	s := assemble.Snapshot(obs, assemble.Options{Topics: q.Topics, WholeTopics: q.WholeTopics})
	c.conn.Logf("snapshot: %d groups assembled in %v", len(s.Groups), time.Since(start).Round(time.Millisecond))
	return s
}

// Observe reads, in order: the groups (ListGroups on every broker), their members and
// committed offsets (per coordinator, concurrently), topic layout and configs, watermarks and
// tiered topics' local log starts (internal/kafka/logread/localstart.go) per leader, transaction markers
// (internal/kafka/logread/markers.go), the commits on compacted topics (internal/kafka/logread/compacted.go), committed-record timestamps.
// Offsets are read before watermarks, as Kafka's CLI does: a live commit cannot look ahead.
func (c *Reader) Observe(ctx context.Context, q model.Query) (model.Observation, error) {
	return c.observe(ctx, q, timeNone, nil)
}

// timeNone is no lookup time: the at-risk threshold is looked up.
var timeNone time.Time

// observe is Observe; when lookupAt is set, the per-leader timestamp lookup asks
// for the first offset at or after lookupAt on every partition (a reset to a
// datetime) instead of the at-risk threshold, and PartitionOffsets.RiskOffset
// holds that answer. One pass, no second round of Metadata and ListOffsets.
// listed, when not nil, is given the groups as soon as they are listed and
// described (see SnapshotStaged).
func (c *Reader) observe(ctx context.Context, q model.Query, lookupAt time.Time, listed func(model.Snapshot)) (model.Observation, error) {
	if q.RiskWindow == 0 {
		q.RiskWindow = model.DefaultRiskWindow
	}
	ctx, cancel := context.WithTimeout(ctx, c.conn.SnapshotBudget())
	defer cancel()
	now := c.conn.Now()
	obs := model.Observation{
		Bootstrap: c.conn.Bootstrap(), TakenAt: now, RiskWindow: q.RiskWindow,
		Topics: map[string]model.Topic{}, Offsets: map[model.TP]model.PartitionOffsets{},
		CommittedTimestamps: map[model.TPO]time.Time{}, Errors: []model.Error{},
	}
	phase := c.phaseLogger()
	// The commit log is read beside the rest: from when the groups are described (many
	// snapshots), or once their offsets are fetched (one: its ListOffsets waits for the
	// watermarks, so that a broker that failed them is dropped by then and not asked again
	// within the snapshot, internal/kafka/wire/call.go).
	var commitLogRead func(*model.Observation, func(string, ...any))
	watermarked := make(chan struct{})
	groups, err := c.observeGroups(ctx, &obs, q.Groups, listed, func(gs []*model.GroupObservation) {
		if q.CommitLogCatchUp {
			commitLogRead = c.commitLog.Start(ctx, gs, q, nil)
		}
	})
	if err != nil {
		return obs, err
	}
	if !q.CommitLogCatchUp {
		commitLogRead = c.commitLog.Start(ctx, groups, q, watermarked)
	}
	if commitLogRead != nil {
		defer commitLogRead(nil, nil)
	}
	phase("groups listed, described and their offsets fetched (%d groups)", len(groups))
	topics := queryTopics(groups, q)
	lay, risk, err := c.observeTopics(ctx, &obs, topics, lookupAt, q.ConfigMaxAge)
	if err != nil {
		return obs, err
	}
	phase("metadata and configs of %d topics", len(topics))
	tps := layoutPartitions(lay, groups, topics)
	obs.Offsets = c.logs.WatermarksReasked(ctx, lay, tps, risk, q.WaitForHighWatermarks)
	close(watermarked)
	obs.Errors = append(obs.Errors, c.logs.LocalStarts(ctx, lay, obs.Topics, obs.Offsets)...)
	phase("watermarks and local log starts of %d partitions", len(tps))
	addGroups(&obs, groups)
	held := logread.HoldPositions(&obs)
	want := c.logs.ReadMarkers(ctx, &obs, lay, held, held.Want(q.TimestampsAtRiskFirst), phase)
	obs.Errors = append(obs.Errors, offsetErrors(obs.Offsets)...)
	want, stamps := c.logs.ObserveCompacted(ctx, &obs, lay, want, q.FetchBudget)
	phase("reads at %d commits on compacted topics", len(obs.Compacted))
	obs.CommittedTimestamps = c.logs.CommittedTimestamps(ctx, lay, want, q.FetchBudget)
	maps.Copy(obs.CommittedTimestamps, stamps)
	phase("committed-record timestamps (%d known)", len(obs.CommittedTimestamps))
	commitLogRead(&obs, phase)
	if err := ctx.Err(); err != nil && errors.Is(err, context.Canceled) {
		return obs, err
	}
	return obs, nil
}

// phaseLogger returns a function that logs (--debug) how long the phase that
// just ended took.
func (c *Reader) phaseLogger() func(format string, args ...any) {
	last := time.Now()
	return func(format string, args ...any) {
		c.conn.Logf("snapshot: %s in %v", fmt.Sprintf(format, args...), time.Since(last).Round(time.Millisecond))
		last = time.Now()
	}
}

// observeGroups lists the groups (reconnecting brokers a failure dropped),
// keeps the ones asked for and describes them and reads their commits, in
// parallel; onListed, when not nil, gets them once described, and so does
// described, while their commits may still be read (it may read only the fields
// DescribeGroups sets). It fails only when no broker answers, and then before
// described is called.
func (c *Reader) observeGroups(ctx context.Context, obs *model.Observation, names []string, onListed func(model.Snapshot), described func([]*model.GroupObservation)) ([]*model.GroupObservation, error) {
	if len(c.conn.LostBrokers()) > 0 {
		_ = c.conn.RefreshBrokers(ctx) // reconnect the brokers a failure dropped
	}
	brokers := c.conn.Brokers()
	lost := c.conn.LostBrokers()
	for id, err := range lost {
		obs.ListingErrors = append(obs.ListingErrors, wire.BrokerErr(err, id, "broker dropped after a failure and not reachable again"))
	}
	obs.Brokers = len(brokers) + len(lost)
	list := c.groups.ListGroups
	if len(names) == 0 && !c.groups.Remembers() {
		// The first listing of all groups has no memory (internal/kafka/groupread/remember.go): a moving shard must
		// not hide its groups (internal/kafka/groupread/shards.go).
		list = c.groups.ListGroupsSettled
	}
	// The brokers' versions are asked beside the listing (internal/kafka/wire/versions.go).
	versions := make(chan model.APIVersions, 1)
	go func() { versions <- c.conn.ClusterVersions(ctx, brokers) }()
	listed, errs := list(ctx)
	obs.APIVersions = <-versions
	obs.ListingErrors = append(obs.ListingErrors, errs...)
	obs.Errors = append(obs.Errors, obs.ListingErrors...)
	if len(brokers) == 0 {
		return nil, fmt.Errorf("no broker reachable (%d dropped after failures)", len(lost))
	}
	if len(errs) == len(brokers) {
		return nil, fmt.Errorf("no broker answered ListGroups: %s", errs[0].Error())
	}
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	if len(names) == 0 {
		listed = c.groups.KeepRemembered(ctx, listed, obs.TakenAt)
	} else {
		listed = c.groups.SelectGroups(ctx, listed, names)
	}
	groups := make([]*model.GroupObservation, len(listed))
	coord := map[string]*sarama.Broker{}
	var shares []*model.GroupObservation
	failed := map[string]bool{} // groups whose lookup failed: asked again already
	for i, lg := range listed {
		if lg.FindErr != nil {
			failed[lg.Name] = true
		}
		g := &model.GroupObservation{Group: lg.Name, Type: lg.Type, RawType: lg.RawType, State: lg.State, ProtocolType: lg.ProtocolType,
			Coordinator: -1, Members: []model.Member{}, Listed: lg.Listed, Error: lg.FindErr}
		if lg.Coordinator != nil {
			g.Coordinator = lg.Coordinator.ID()
			coord[lg.Name] = lg.Coordinator
		}
		if g.Type == model.TypeShare {
			shares = append(shares, g)
		}
		groups[i] = g
	}
	sendListed := listedSender(*obs, groups, onListed)
	var (
		wg        sync.WaitGroup
		configErr []model.Error
	)
	wg.Add(3)
	go func() { defer wg.Done(); c.groups.DescribeGroups(ctx, groups, coord); described(groups); sendListed() }()
	go func() { defer wg.Done(); c.groups.FetchCommitted(ctx, groups, coord) }()
	go func() { defer wg.Done(); configErr = c.groups.ShareConfigs(ctx, shares) }()
	wg.Wait()
	obs.Errors = append(obs.Errors, configErr...)
	c.groups.ReaskMoved(ctx, groups, failed)
	for _, g := range groups {
		if g.Error == nil && g.DescribeError != nil {
			g.Error = g.DescribeError
		}
	}
	return groups, nil
}

// queryTopics lists the topics a snapshot reads: the groups' (only q.Topics
// when given), plus every q.Topics with WholeTopics.
func queryTopics(groups []*model.GroupObservation, q model.Query) []string {
	topics := groupTopics(groups, q.Topics)
	if q.WholeTopics {
		for _, t := range q.Topics {
			if !slices.Contains(topics, t) {
				topics = append(topics, t)
			}
		}
		slices.Sort(topics)
	}
	return topics
}

// observeTopics reads the topics' layout and configs (reusing those read
// within configMaxAge) in parallel and returns the layout and, per topic, the
// time the timestamp lookup asks for: lookupAt when set, else the at-risk
// threshold.
func (c *Reader) observeTopics(ctx context.Context, obs *model.Observation, topics []string, lookupAt time.Time, configMaxAge time.Duration) (wire.TopicLayout, map[string]time.Time, error) {
	var (
		lay    wire.TopicLayout
		layErr error
		cfgs   logread.ConfigResult
		wg     sync.WaitGroup
	)
	wg.Add(2)
	go func() { defer wg.Done(); lay, layErr = c.conn.Metadata(ctx, topics) }()
	go func() { defer wg.Done(); cfgs = c.logs.TopicConfigs(ctx, topics, configMaxAge) }()
	wg.Wait()
	if layErr != nil {
		return lay, nil, fmt.Errorf("read topic metadata: %w", layErr)
	}
	obs.ClusterID, obs.AllTopicsVisible = lay.ClusterID, lay.Visible
	if v := lay.Visible; v == nil || !*v {
		obs.Errors = append(obs.Errors, model.VisibilityError(v, lay.ProbeDenied))
	}
	obs.OffsetsRetentionMinutes, obs.OffsetsRetentionCheckIntervalMs = cfgs.OffsetsRetentionMinutes, cfgs.OffsetsRetentionCheckMs
	obs.Errors = append(obs.Errors, cfgs.Errs...)
	risk := map[string]time.Time{}
	for _, name := range topics {
		t := cfgs.Topics[name]
		t.Topic = name
		t.Partitions = lay.Partitions[name]
		if e := lay.TopicErrs[name]; e != nil && t.Error == nil {
			t.Error = e
		}
		obs.Topics[name] = t
		if !lookupAt.IsZero() {
			risk[name] = lookupAt
		} else if at, ok := status.RiskThreshold(t, obs.TakenAt, obs.RiskWindow); ok {
			risk[name] = at
		}
	}
	for _, name := range topics {
		if e := obs.Topics[name].Error; e != nil {
			obs.Errors = append(obs.Errors, *e)
		}
	}
	return lay, risk, nil
}

// addGroups adds the groups and their errors to the observation.
func addGroups(obs *model.Observation, groups []*model.GroupObservation) {
	obs.Groups = slices.Grow(obs.Groups, len(groups))
	for _, g := range groups {
		obs.Groups = append(obs.Groups, *g)
		if g.Error != nil {
			obs.Errors = append(obs.Errors, *g.Error)
		}
	}
}

// groupTopics returns every topic a group commits on or is assigned, sorted.
func groupTopics(groups []*model.GroupObservation, only []string) []string {
	set := map[string]bool{}
	for _, g := range groups {
		last := ""
		for tp := range g.Positions() {
			if tp.Topic != last || last == "" { // a group's commits are mostly on few topics
				set[tp.Topic], last = true, tp.Topic
			}
		}
		for _, tp := range slices.Concat(g.Uninitialized, mapKeys(g.PartitionErrors)) {
			set[tp.Topic] = true
		}
		for _, m := range g.Members {
			for _, a := range m.Assignments {
				set[a.Topic] = true
			}
		}
	}
	out := make([]string, 0, len(set))
	for t := range set {
		if len(only) == 0 || slices.Contains(only, t) {
			out = append(out, t)
		}
	}
	slices.Sort(out)
	return out
}

// layoutPartitions lists every partition of the topics, plus committed or assigned
// partitions that metadata did not report (so they get an error, not a silence).
func layoutPartitions(lay wire.TopicLayout, groups []*model.GroupObservation, topics []string) []model.TP {
	var out []model.TP
	in := map[string]bool{}
	for _, t := range topics {
		in[t] = true
		for i := 0; i < lay.Partitions[t]; i++ {
			out = append(out, model.TP{Topic: t, Partition: int32(i)})
		}
	}
	// beyond reports a partition of a wanted topic that metadata did not list.
	beyond := func(t string, p int32) bool { return in[t] && (p < 0 || int(p) >= lay.Partitions[t]) }
	extra := map[model.TP]bool{}
	for _, g := range groups {
		// One lookup per topic run: a group's commits are mostly on few topics.
		last, n, wanted := "", 0, false
		for tp := range g.Positions() {
			if tp.Topic != last || last == "" {
				last, n, wanted = tp.Topic, lay.Partitions[tp.Topic], in[tp.Topic]
			}
			if wanted && (tp.Partition < 0 || int(tp.Partition) >= n) {
				extra[tp] = true
			}
		}
		for _, tp := range slices.Concat(g.Uninitialized, mapKeys(g.PartitionErrors)) {
			if beyond(tp.Topic, tp.Partition) {
				extra[tp] = true
			}
		}
		for _, m := range g.Members {
			for _, a := range m.Assignments {
				for _, p := range a.Partitions {
					if beyond(a.Topic, p) {
						extra[model.TP{Topic: a.Topic, Partition: p}] = true
					}
				}
			}
		}
	}
	for tp := range extra {
		out = append(out, tp)
	}
	slices.SortFunc(out, model.CompareTP)
	return out
}

// offsetErrors lists the watermark errors, by partition.
func offsetErrors(offsets map[model.TP]model.PartitionOffsets) []model.Error {
	var failed []model.TP
	for tp, po := range offsets {
		if po.Error != nil {
			failed = append(failed, tp)
		}
	}
	slices.SortFunc(failed, model.CompareTP)
	out := make([]model.Error, len(failed))
	for i, tp := range failed {
		out[i] = *offsets[tp].Error
	}
	return out
}

func mapKeys[V any](m map[model.TP]V) []model.TP {
	out := make([]model.TP, 0, len(m))
	for tp := range m {
		out = append(out, tp)
	}
	return out
}

// markNotFound gives a named group that does not exist a not-found error: no
// broker lists it, it has no commits and no members. When a broker's listing
// failed (it may be the one that knows the group), existence cannot be ruled
// out: the group carries that failure instead, so it is unknown, never ok.
func markNotFound(obs *model.Observation) {
	for i := range obs.Groups {
		g := &obs.Groups[i]
		if g.Listed || g.Error != nil || len(g.Committed) > 0 || len(g.Members) > 0 {
			continue
		}
		if len(obs.ListingErrors) > 0 {
			e := obs.ListingErrors[0]
			e.Message = "cannot tell whether the group exists: " + e.Message
			g.Error = e.WithGroup(g.Group)
		} else {
			g.Error = (&model.Error{Kind: model.KindNotFound, Code: model.Ptr("GROUP_ID_NOT_FOUND"),
				Message: "the group does not exist: no broker lists it and it has no committed offsets"}).WithGroup(g.Group)
		}
		obs.Errors = append(obs.Errors, *g.Error)
	}
}
