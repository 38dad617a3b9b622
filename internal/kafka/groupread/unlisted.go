package groupread

// Groups that ListGroups did not report: a group named with --group, or one listed in the
// client's previous snapshot (remember.go). Kafka's ListGroups leaves out, with no error,
// the groups of a coordinator shard that is loading or unloading (a __consumer_offsets
// partition whose leader is moving), so a missing group is not yet a group that does not
// exist: its coordinator is asked directly. The coordinator answers only from a shard it
// has loaded (COORDINATOR_LOAD_IN_PROGRESS or NOT_COORDINATOR otherwise), but a new
// coordinator reads at its high watermark, which can trail the log it loaded for a moment
// after the move: a group committed just before the move is then "not found" there. So an
// error and a "does not exist" are both asked again (internal/kafka/wire/reask.go).

import (
	"context"
	"slices"
	"strings"

	"github.com/IBM/sarama"
	"github.com/offsettui/offsettui/internal/kafka/wire"
	"github.com/offsettui/offsettui/internal/model"
)

// lookupUnlisted locates each group and learns from its coordinator whether it exists
// and of which type, asking again while the coordinator moved or says the group does
// not exist. A group found is returned as listed (it exists; its state is its
// describe's); one its coordinator does not know as a Dead classic group, not listed;
// one whose lookup failed with its error (findErr).
func (c *Reader) lookupUnlisted(ctx context.Context, names []string) []ListedGroup {
	out := map[string]ListedGroup{}
	pending := names
	r := wire.NewReasker(c.conn)
	for len(pending) > 0 {
		coords, errs := c.conn.FindCoordinators(ctx, pending)
		found := c.probeTypes(ctx, pending, coords)
		var again []string
		for _, n := range pending {
			lg := ListedGroup{Name: n, Type: model.TypeClassic, State: "Dead", FindErr: errs[n]}
			if b := coords[n]; b != nil {
				switch p := found[n]; {
				case p.err != nil:
					lg.FindErr = p.err
				case p.typ != "":
					lg.Type, lg.RawType, lg.State, lg.ProtocolType, lg.Listed = p.typ, p.typ, p.state, p.protocolType, true
					fallthrough
				default:
					lg.Coordinator = b
				}
			}
			out[n] = lg
			if wire.Moved(lg.FindErr) && !c.conn.OnLostBroker(lg.FindErr) || lg.FindErr == nil && !lg.Listed {
				again = append(again, n)
			}
		}
		if len(again) == 0 || !r.Wait(ctx) {
			break
		}
		c.conn.Logf("asking again for %d groups left out of ListGroups that their coordinators could not show (%s: %v)",
			len(again), again[0], out[again[0]].FindErr)
		pending = again
	}
	list := make([]ListedGroup, 0, len(out))
	for _, lg := range out {
		list = append(list, lg)
	}
	slices.SortFunc(list, func(a, b ListedGroup) int { return strings.Compare(a.Name, b.Name) })
	return list
}

// probed is what a group's coordinator said of it: its type and state when it exists,
// nothing when it does not, or why it could not say.
type probed struct {
	typ, state, protocolType string
	err                      *model.Error
}

// probeTypes describes each group with every type's describe API (batched per
// coordinator and type): the one that answers with the group is its type. DescribeGroups
// answers Dead for a group that is not a classic group, the others GROUP_ID_NOT_FOUND; an
// API the broker lacks means the group is not of its type. A classic group of another
// protocol type (Kafka Connect) is not a consumer group: not found, as when listed.
func (c *Reader) probeTypes(ctx context.Context, names []string, coords map[string]*sarama.Broker) map[string]probed {
	var cands []*model.GroupObservation
	for _, n := range names {
		if coords[n] == nil {
			continue
		}
		for _, typ := range model.GroupTypes {
			if typ != model.TypeUnknown {
				cands = append(cands, &model.GroupObservation{Group: n, Type: typ, Members: []model.Member{}})
			}
		}
	}
	c.DescribeGroups(ctx, cands, coords)
	out := map[string]probed{}
	for _, g := range cands {
		p := out[g.Group]
		e := g.DescribeError
		switch {
		case p.typ != "":
		case e != nil && e.Kind != model.KindUnsupported:
			if p.err == nil || wire.Moved(e) && !wire.Moved(p.err) {
				p.err = e
			}
		case e == nil && g.State != "" && g.State != "Dead" &&
			(g.Type != model.TypeClassic || g.ProtocolType == "consumer" || g.ProtocolType == ""):
			p = probed{typ: g.Type, state: g.State, protocolType: g.ProtocolType}
		}
		out[g.Group] = p
	}
	for n, p := range out {
		if p.typ != "" {
			p.err = nil
		} else if p.err != nil && !wire.Moved(p.err) {
			e := *p.err
			e.Message = "describe the group to learn its type: " + e.Message
			p.err = &e
		}
		out[n] = p
	}
	return out
}

// SelectGroups keeps the requested groups, each once however often named; a named group
// no broker listed is asked of its coordinator (lookupUnlisted) and reported Dead if
// unknown there.
func (c *Reader) SelectGroups(ctx context.Context, listed []ListedGroup, names []string) []ListedGroup {
	if len(names) == 0 {
		return listed
	}
	byName := map[string]ListedGroup{}
	for _, lg := range listed {
		byName[lg.Name] = lg
	}
	var out []ListedGroup
	var missing []string
	named := map[string]bool{}
	for _, n := range names {
		if named[n] {
			continue
		}
		named[n] = true
		if lg, ok := byName[n]; ok {
			out = append(out, lg)
		} else {
			missing = append(missing, n)
		}
	}
	return append(out, c.lookupUnlisted(ctx, missing)...)
}
