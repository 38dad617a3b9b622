package groupread

// No group vanishes silently between two snapshots of one client (a --watch, the TUI, a
// long-running server): the groups of its last snapshot of all groups are remembered, and
// one that ListGroups leaves out of the next (its coordinator moving, or its broker's
// ListGroups failing) is asked of its coordinator directly (unlisted.go). Until its
// coordinator has said for goneAfter that the group does not exist, it is shown gone (state
// Dead, a not-found error saying why), never left out silently: a coordinator that has just
// moved can say so of a group committed a moment before the move (unlisted.go). A group this
// client deleted itself is forgotten at once (forget).

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/offsettui/offsettui/internal/model"
	"github.com/offsettui/offsettui/internal/text"
)

// goneAfter is how long a remembered group's coordinator must keep saying that the group
// does not exist before the group is taken as deleted and left out.
const goneAfter = 10 * time.Second

// groupMemory holds the groups (name → type) of the client's last snapshot of all groups,
// and since when the coordinator of each group missing from it has said it does not exist.
type groupMemory struct {
	mu    sync.Mutex
	types map[string]string
	gone  map[string]time.Time
}

// missing returns the remembered groups that listed does not hold, with their types.
func (m *groupMemory) missing(listed []ListedGroup) map[string]string {
	m.mu.Lock()
	defer m.mu.Unlock()
	if len(m.types) == 0 {
		return nil
	}
	have := make(map[string]bool, len(listed))
	for _, lg := range listed {
		have[lg.Name] = true
	}
	out := map[string]string{}
	for n, typ := range m.types {
		if !have[n] {
			out[n] = typ
		}
	}
	return out
}

// empty reports whether no snapshot of all groups has been remembered yet.
func (m *groupMemory) empty() bool {
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.types == nil
}

// goneSince records that group's coordinator said at now that it does not exist, and
// returns since when it has been saying so.
func (m *groupMemory) goneSince(group string, now time.Time) time.Time {
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.gone == nil {
		m.gone = map[string]time.Time{}
	}
	if t, ok := m.gone[group]; ok {
		return t
	}
	m.gone[group] = now
	return now
}

// forget drops group from the memory: this client deleted it, so its absence from the next
// listing is no group gone missing, and nothing to ask its coordinator about.
func (m *groupMemory) forget(group string) {
	m.mu.Lock()
	defer m.mu.Unlock()
	delete(m.types, group)
	delete(m.gone, group)
}

// set remembers the groups of a snapshot of all groups in place of the previous ones; a
// group not said to be gone in it loses its record of since when it was.
func (m *groupMemory) set(groups []ListedGroup, gone map[string]bool) {
	types := make(map[string]string, len(groups))
	for _, lg := range groups {
		types[lg.Name] = lg.Type
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	m.types = types
	for n := range m.gone {
		if !gone[n] {
			delete(m.gone, n)
		}
	}
}

// KeepRemembered adds to listed the remembered groups it lacks, as their coordinators
// describe them (lookupUnlisted). A group found is added as found; one whose lookup failed with
// its remembered type, its state unknown and an error that says it was listed a moment
// ago; one its coordinator does not know as gone (Dead, GROUP_ID_NOT_FOUND: no problem to
// act on), until the coordinator has said so for goneAfter, and then it is left out
// (deleted). It then remembers the result.
func (c *Reader) KeepRemembered(ctx context.Context, listed []ListedGroup, now time.Time) []ListedGroup {
	gone := map[string]bool{}
	if missing := c.seen.missing(listed); len(missing) > 0 {
		names := make([]string, 0, len(missing))
		for n := range missing {
			names = append(names, n)
		}
		slices.Sort(names)
		for _, lg := range c.lookupUnlisted(ctx, names) {
			typ := missing[lg.Name]
			const before = "left out of ListGroups in this snapshot though listed in the previous one (its coordinator moving?), "
			switch {
			case lg.FindErr != nil:
				e := *lg.FindErr
				e.Message = before + "and its coordinator could not be asked: " + e.Message
				lg.FindErr = &e
			case lg.Listed:
				c.conn.Logf("group %s: left out of ListGroups, found by asking its coordinator", lg.Name)
				listed = append(listed, lg)
				continue
			case typ == model.TypeUnknown:
				// Its type's describe is not known: that it does not exist cannot be asked.
				lg.FindErr = (&model.Error{Kind: model.KindUnsupported, Message: before +
					"and its type is not known to offsettui, so whether it still exists cannot be asked"}).WithGroup(lg.Name)
			default:
				since := c.seen.goneSince(lg.Name, now)
				if now.Sub(since) >= goneAfter {
					c.conn.Logf("group %s: gone (its coordinator has not known it since %s)", lg.Name, since.Format(time.RFC3339))
					continue
				}
				gone[lg.Name] = true
				lg.FindErr = (&model.Error{Kind: model.KindNotFound, Code: model.Ptr("GROUP_ID_NOT_FOUND"), Message: fmt.Sprintf(
					"the group is gone: deleted since the previous snapshot, which listed it; its coordinator says it does not exist "+
						"(a coordinator that has just moved can say so for a moment: it is shown gone until that has lasted %s, then left out)",
					text.HumanDuration(goneAfter))}).WithGroup(lg.Name)
				lg.State, lg.Type, lg.RawType, lg.Coordinator, lg.Listed = "Dead", typ, typ, nil, false
				listed = append(listed, lg)
				continue
			}
			lg.State, lg.Type, lg.RawType, lg.Coordinator, lg.Listed = "", typ, typ, nil, false
			listed = append(listed, lg)
		}
		slices.SortFunc(listed, func(a, b ListedGroup) int { return strings.Compare(a.Name, b.Name) })
	}
	c.seen.set(listed, gone)
	return listed
}
